// Validates IDX files with the C++ wrapper (idxc.hpp) and prints every
// finding in the library's one text form (`<<`, the finding's `text`),
// then reads each file through the library's reader;
// the same output as validate.c (scripts/test-c.sh compares both with
// idx-validate on the corpus).
//
//   g++ -std=c++20 validate.cpp $(pkg-config --cflags --libs idxc) -o idxc-validate++
#include <idxc.hpp>

#include <iostream>

namespace {

const char *dtype_name(IdxElementType t) {
    switch (t) {
    case IDX_U8: return "u8";
    case IDX_I8: return "i8";
    case IDX_I16: return "i16";
    case IDX_I32: return "i32";
    case IDX_F32: return "f32";
    default: return "f64";
    }
}

// Into a vector the library fills as the data arrives (read<T>), or, for
// a payload of at most 64 MiB, into a buffer sized by the header first
// (read_into).
template <class T> void read_as(idxc::Reader &reader) {
    const auto h = reader.header();
    if (h.payload_len > (64u << 20)) {
        (void)reader.read<T>();
        return;
    }
    std::vector<T> out(static_cast<std::size_t>(h.element_count));
    reader.read_into(std::span<T>(out));
}

// Reads the payload; throws idxc::Error when the library refuses it.
// Returns the header and the read's warnings.
std::pair<idxc::Header, std::vector<idxc::Finding>> read(const std::string &path) {
    auto reader = idxc::Reader::open(path);
    auto h = reader.header();
    switch (h.dtype) {
    case IDX_U8: read_as<std::uint8_t>(reader); break;
    case IDX_I8: read_as<std::int8_t>(reader); break;
    case IDX_I16: read_as<std::int16_t>(reader); break;
    case IDX_I32: read_as<std::int32_t>(reader); break;
    case IDX_F32: read_as<float>(reader); break;
    case IDX_F64: read_as<double>(reader); break;
    }
    return {h, reader.findings()};
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " FILE...\n";
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        const std::string path = argv[i];
        idxc::Report report;
        try {
            report = idxc::validate_file(path);
        } catch (const idxc::Error &e) {
            std::cerr << path << ": " << e.what() << '\n';
            status = 2;
            continue;
        }
        for (const auto &f : report.findings) std::cout << path << ": " << f << '\n';
        std::cout << path << ": " << (report.valid ? "valid" : "invalid") << '\n';
        if (!report.valid && status == 0) status = 1;
        try {
            auto [h, warnings] = read(path);
            std::cout << path << ": read " << dtype_name(h.dtype) << " [";
            for (std::size_t k = 0; k < h.dims.size(); k++) std::cout << (k ? ", " : "") << h.dims[k];
            std::cout << "]\n";
            // a read that succeeds may still warn (IDX501)
            for (const auto &f : warnings) std::cout << path << ": read warns: " << f << '\n';
        } catch (const idxc::Error &e) {
            if (const auto &f = e.finding())
                std::cout << path << ": read refused: " << *f << '\n';
            else
                std::cout << path << ": read failed: " << e.what() << '\n';
        }
    }
    return status;
}
