// Conformance adapter (protocol 2, one-shot reader) for tiny-dnn's MNIST
// parser (Debian package tiny-dnn, header tiny_dnn/io/mnist_parser.h):
// `tiny-dnn-adapter FILE` prints the content encoding, or an error
// document and exits 1.
//
// tiny-dnn has one function for label files and one for image files, each
// checking its own magic number (0x801, 0x803): the adapter calls
// parse_mnist_labels when the file's first four bytes are 00 00 08 01 and
// parse_mnist_images otherwise. parse_mnist_images scales each pixel to
// [scale_min, scale_max]; with 0 and 255 the value is the pixel's up to
// float rounding, which the adapter rounds back to u8 (exact for every
// byte). The images come back as one vector per image of rows x cols:
// the adapter reports [count, rows, cols] from the header the library
// read, and the rows and columns from the file's bytes 8-15.
// tiny-dnn rejects by throwing nn_error; anything else it throws
// (std::bad_alloc, std::length_error) is left uncaught: a crash.
//
// Debian's tiny_dnn/util/util.h uses std::reverse and std::max_element
// without including <algorithm>, and cereal without depending on
// libcereal-dev: the adapter includes <algorithm> first and the install
// step installs libcereal-dev.
#include <algorithm>
#include <tiny_dnn/util/util.h>
#include <tiny_dnn/io/mnist_parser.h>

#include <cmath>
#include <cstdio>
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

static uint32_t be32(const unsigned char *p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: tiny-dnn-adapter FILE\n");
        return 2;
    }
    std::string path = argv[1];
    unsigned char head[16] = {0};
    {
        std::ifstream f(path, std::ios::binary);
        f.read(reinterpret_cast<char *>(head), 16);
    }
    std::string out;
    try {
        if (head[0] == 0 && head[1] == 0 && head[2] == 8 && head[3] == 1) {
            std::vector<tiny_dnn::label_t> labels;
            tiny_dnn::parse_mnist_labels(path, &labels);
            out = "{\"dtype\": \"u8\", \"shape\": [" + std::to_string(labels.size()) + "], \"data\": [";
            for (size_t i = 0; i < labels.size(); i++) {
                if (i) out += ", ";
                out += std::to_string(static_cast<unsigned>(static_cast<uint8_t>(labels[i])));
            }
        } else {
            std::vector<tiny_dnn::vec_t> images;
            tiny_dnn::parse_mnist_images(path, &images, 0.0, 255.0, 0, 0);
            uint32_t rows = be32(head + 8), cols = be32(head + 12);
            out = "{\"dtype\": \"u8\", \"shape\": [" + std::to_string(images.size()) + ", " + std::to_string(rows) +
                  ", " + std::to_string(cols) + "], \"data\": [";
            bool first = true;
            for (const auto &im : images)
                for (auto v : im) {
                    if (!first) out += ", ";
                    first = false;
                    out += std::to_string(static_cast<long>(std::lround(v)));
                }
        }
    } catch (const tiny_dnn::nn_error &e) {
        std::printf("{\"error\": {\"message\": %s}}\n", json_str(e.what()).c_str());
        return 1;
    }
    out += "]}\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
