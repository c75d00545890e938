// Conformance adapter (protocol 2, one-shot reader) for dlib's MNIST
// loader (Debian libdlib-dev, dlib::load_mnist_dataset):
// `dlib-adapter COMPANIONS FILE` prints the content encoding, or an error
// document and exits 1.
//
// load_mnist_dataset(folder, ...) reads the four MNIST files of a folder by
// their fixed names (train-images-idx3-ubyte, train-labels-idx1-ubyte,
// t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte). The adapter makes a
// temporary folder holding the file under test under one of those names
// and, under the three others, links to the valid MNIST-shaped files of
// zeros in COMPANIONS (made by the install step). The slot: a file whose
// first four bytes are 2049 (u8, rank 1) is labels, anything else images;
// a file whose second header word is 60000 is the training file, anything
// else the test file. The adapter reports what dlib returned for that
// slot: labels as [n], images as [n, rows, cols] (each image a dlib matrix
// of rows x cols). dlib rejects by throwing dlib::error; anything else it
// throws is left uncaught: a crash.
#include <dlib/data_io.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

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
        std::fprintf(stderr, "usage: dlib-adapter COMPANIONS FILE\n");
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
    int slot = (train ? 0 : 2) + (labels ? 1 : 0);
    char dir[] = "/tmp/dlib-adapter-XXXXXX";
    if (!mkdtemp(dir)) return 3;
    for (int i = 0; i < 4; i++) {
        std::string target = i == slot ? std::string(abs) : companions + "/" + names[i];
        if (symlink(target.c_str(), (std::string(dir) + "/" + names[i]).c_str()) != 0) return 3;
    }
    std::vector<dlib::matrix<unsigned char>> train_images, test_images;
    std::vector<unsigned long> train_labels, test_labels;
    std::string out;
    try {
        dlib::load_mnist_dataset(dir, train_images, train_labels, test_images, test_labels);
    } catch (const dlib::error &e) {
        for (int i = 0; i < 4; i++) unlink((std::string(dir) + "/" + names[i]).c_str());
        rmdir(dir);
        std::printf("{\"error\": {\"message\": %s}}\n", json_str(e.what()).c_str());
        return 1;
    }
    for (int i = 0; i < 4; i++) unlink((std::string(dir) + "/" + names[i]).c_str());
    rmdir(dir);
    if (labels) {
        const auto &l = train ? train_labels : test_labels;
        out = "{\"dtype\": \"u8\", \"shape\": [" + std::to_string(l.size()) + "], \"data\": [";
        for (size_t i = 0; i < l.size(); i++) {
            if (i) out += ", ";
            out += std::to_string(l[i]);
        }
    } else {
        const auto &im = train ? train_images : test_images;
        long nr = im.empty() ? 0 : im[0].nr(), nc = im.empty() ? 0 : im[0].nc();
        out = "{\"dtype\": \"u8\", \"shape\": [" + std::to_string(im.size()) + ", " + std::to_string(nr) + ", " +
              std::to_string(nc) + "], \"data\": [";
        bool first = true;
        for (const auto &m : im)
            for (long r = 0; r < m.nr(); r++)
                for (long c = 0; c < m.nc(); c++) {
                    if (!first) out += ", ";
                    first = false;
                    out += std::to_string(static_cast<unsigned>(m(r, c)));
                }
    }
    out += "]}\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
