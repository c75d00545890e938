// The migration example in use: code written against the copied
// IdxUbyte<N> reader, unchanged, on top of the library (idx_ubyte.hpp).
//
//   g++ -std=c++20 -I. migrate.cpp $(pkg-config --cflags --libs idxc) -o idxc-migrate
//   ./idxc-migrate IMAGES LABELS OUT   # prints the counts, writes the labels back to OUT
#include "idx_ubyte.hpp"

#include <cstdio>

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s IMAGES LABELS OUT\n", argv[0]);
        return 2;
    }
    IdxUbyte<3> images;
    IdxUbyte<1> labels;
    auto x = images.read(argv[1]);
    auto y = labels.read(argv[2]);
    std::printf("%zu images, %zu labels\n", x.size(), y.size());
    if (x.empty() || y.empty()) return 1;
    std::printf("first image %ux%u, first label %u\n", x[0].dims[0], x[0].dims[1], unsigned(y[0].data[0]));
    return labels.write(argv[3], y) ? 0 : 1;
}
