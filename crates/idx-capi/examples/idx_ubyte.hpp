// The migration example: a port of the `IdxUbyte<N>` reader that many
// MNIST projects copy (a class template over the rank N, whose read()
// returns one IdxUbyteData<N-1> per item and whose write() takes them
// back), with the same interface and the library underneath.
//
// What changes for the caller: nothing in the code. What changes in
// behaviour: read() returns an empty vector, after printing the located
// finding to stderr, for every file the spec calls invalid (the copied
// readers take the first four bytes as a number, trust the dimensions,
// zero-fill or ignore a short payload and never see trailing bytes or
// gzip); a file of another rank or element type is refused by name. gzip
// input is decompressed. write() writes the canonical encoding.
#ifndef IDX_UBYTE_HPP
#define IDX_UBYTE_HPP

#include <idxc.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <iostream>

template <std::uint8_t N> struct IdxUbyteData {
    std::uint8_t *data = nullptr;
    std::uint32_t dims[N] = {};

    IdxUbyteData() noexcept = default;
    ~IdxUbyteData() noexcept { delete[] data; }
    IdxUbyteData(IdxUbyteData &&src) noexcept : data(src.data) {
        src.data = nullptr;
        std::memcpy(dims, src.dims, sizeof(dims));
    }
    IdxUbyteData(const IdxUbyteData &src) : data(new std::uint8_t[src.bytes()]) {
        std::memcpy(dims, src.dims, sizeof(dims));
        std::memcpy(data, src.data, bytes());
    }
    IdxUbyteData &operator=(IdxUbyteData src) noexcept {
        std::swap(data, src.data);
        std::memcpy(dims, src.dims, sizeof(dims));
        return *this;
    }
    std::size_t bytes() const noexcept {
        std::size_t n = 1;
        for (std::uint32_t d : dims) n *= d;
        return n;
    }
};

template <std::uint8_t N> class IdxUbyte {
    static_assert(N >= 1, "an IDX file of items has rank 1 or more");

  public:
    IdxUbyte() noexcept = default;

    // Writes the items as one u8 array of [dataset.size(), dims...];
    // false when they cannot be written (printed to stderr).
    bool write(const char *file, const std::vector<IdxUbyteData<N - 1>> &dataset) const noexcept {
        if (dataset.empty()) return false;
        try {
            std::vector<std::uint32_t> dims{static_cast<std::uint32_t>(dataset.size())};
            dims.insert(dims.end(), dataset[0].dims, dataset[0].dims + (N - 1));
            const std::size_t item = dataset[0].bytes();
            std::vector<std::uint8_t> payload;
            payload.reserve(item * dataset.size());
            for (const auto &d : dataset) {
                if (std::memcmp(d.dims, dataset[0].dims, sizeof(d.dims)) != 0) {
                    std::fprintf(stderr, "%s: the items differ in shape\n", file);
                    return false;
                }
                payload.insert(payload.end(), d.data, d.data + item);
            }
            idxc::write_file<std::uint8_t>(file, dims, payload);
            return true;
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", file, e.what());
            return false;
        }
    }

    // The items of a valid u8 file of rank N; empty, with the located
    // finding on stderr, for any other file.
    std::vector<IdxUbyteData<N - 1>> read(const char *file) const noexcept {
        std::vector<IdxUbyteData<N - 1>> ret;
        try {
            auto reader = idxc::Reader::open(file);
            auto h = reader.header();
            if (h.dtype != IDX_U8 || h.dims.size() != N) {
                std::fprintf(stderr, "%s: expected u8 of rank %u, found type 0x%02x of rank %zu\n", file, unsigned(N),
                             unsigned(h.dtype), h.dims.size());
                return ret;
            }
            auto all = reader.read<std::uint8_t>();
            std::size_t item = 1;
            for (std::size_t j = 1; j < N; j++) item *= h.dims[j];
            ret.reserve(h.dims[0]);
            for (std::uint32_t i = 0; i < h.dims[0]; i++) {
                auto &d = ret.emplace_back();
                for (std::size_t j = 1; j < N; j++) d.dims[j - 1] = h.dims[j];
                d.data = new std::uint8_t[item ? item : 1];
                std::memcpy(d.data, all.data() + i * item, item);
            }
        } catch (const idxc::Error &e) {
            if (const auto &f = e.finding())
                std::cerr << file << ": " << *f << '\n';
            else
                std::fprintf(stderr, "%s: %s\n", file, e.what());
            ret.clear();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", file, e.what());
            ret.clear();
        }
        return ret;
    }
};

#endif // IDX_UBYTE_HPP
