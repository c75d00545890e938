// Conformance adapter (protocol 2, one-shot reader) for libtorch's MNIST
// dataset (Debian libtorch-dev, torch::data::datasets::MNIST):
// `libtorch-adapter COMPANIONS FILE` prints the content encoding, or an
// error document and exits 1.
//
// MNIST(root, mode) reads two files of a folder by their fixed names:
// train-images-idx3-ubyte and train-labels-idx1-ubyte (kTrain), or
// t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte (kTest). The adapter
// makes a temporary folder holding the file under test under one of those
// names and, under the other of its mode, a link to the valid MNIST-shaped
// file of zeros in COMPANIONS (dlib/companions.sh, run by the install
// step). The slot: a file whose first four bytes are 2049 (u8, rank 1) is
// labels, anything else images; a file whose second header word is 60000
// is the training file, anything else the test file. The adapter reports
// what MNIST returned for that slot: targets (int64) as u8 [n], images
// (float32 scaled to [0, 1], shape [n, 1, 28, 28]) as u8 [n, 28, 28],
// each pixel rounded back from x 255 (exact for every byte). libtorch
// rejects by throwing c10::Error; anything else it throws is left
// uncaught: a crash.
#include <torch/torch.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

static std::string json_str(const std::string &s) {
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"') o += "\\\"";
        else if (c == '\\') o += "\\\\";
        else if (c < 0x20 || c >= 0x7f) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
        else o += static_cast<char>(c);
    }
    return o + "\"";
}

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: libtorch-adapter COMPANIONS FILE\n");
        return 2;
    }
    std::string companions = argv[1], path = argv[2];
    char abs[4096];
    if (!realpath(path.c_str(), abs)) {
        std::printf("{\"error\": {\"message\": %s}}\n", json_str("cannot open " + path).c_str());
        return 1;
    }
    unsigned char head[8] = {0};
    {
        std::ifstream f(path, std::ios::binary);
        f.read(reinterpret_cast<char *>(head), 8);
    }
    bool labels = head[0] == 0 && head[1] == 0 && head[2] == 8 && head[3] == 1;
    unsigned long count = (unsigned long)head[4] << 24 | head[5] << 16 | head[6] << 8 | head[7];
    bool train = count == 60000;
    const char *names[4] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                            "t10k-labels-idx1-ubyte"};
    int first = train ? 0 : 2, slot = first + (labels ? 1 : 0);
    char dir[] = "/tmp/libtorch-adapter-XXXXXX";
    if (!mkdtemp(dir)) return 3;
    for (int i = first; i < first + 2; i++) {
        std::string target = i == slot ? std::string(abs) : companions + "/" + names[i];
        if (symlink(target.c_str(), (std::string(dir) + "/" + names[i]).c_str()) != 0) return 3;
    }
    auto cleanup = [&] {
        for (int i = first; i < first + 2; i++) unlink((std::string(dir) + "/" + names[i]).c_str());
        rmdir(dir);
    };
    torch::Tensor t;
    try {
        torch::data::datasets::MNIST ds(dir, train ? torch::data::datasets::MNIST::Mode::kTrain
                                                   : torch::data::datasets::MNIST::Mode::kTest);
        t = labels ? ds.targets() : ds.images();
    } catch (const c10::Error &e) {
        cleanup();
        std::printf("{\"error\": {\"message\": %s}}\n", json_str(e.what_without_backtrace()).c_str());
        return 1;
    }
    cleanup();
    std::string out;
    if (labels) {
        auto l = t.contiguous().to(torch::kInt64);
        const int64_t *p = l.data_ptr<int64_t>();
        out = "{\"dtype\": \"u8\", \"shape\": [" + std::to_string(l.numel()) + "], \"data\": [";
        for (int64_t i = 0; i < l.numel(); i++) {
            if (i) out += ", ";
            out += std::to_string(p[i]);
        }
    } else {
        auto im = t.contiguous().to(torch::kFloat32);
        const float *p = im.data_ptr<float>();
        out = "{\"dtype\": \"u8\", \"shape\": [" + std::to_string(im.size(0)) + ", " + std::to_string(im.size(2)) +
              ", " + std::to_string(im.size(3)) + "], \"data\": [";
        for (int64_t i = 0; i < im.numel(); i++) {
            if (i) out += ", ";
            out += std::to_string(static_cast<long>(std::lround(p[i] * 255.0f)));
        }
    }
    out += "]}\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
