// The IDX library for C++20, header-only, on top of the C ABI (idxc.h):
// RAII owners, std::span and std::vector for arrays, and idxc::Error (an
// exception carrying the located finding) or idxc::Result (an
// std::expected-style value) for failures.
//
//   auto report = idxc::validate_file("train-images-idx3-ubyte.gz");
//   for (const auto &f : report.findings) std::cout << f << '\n';
//   auto reader = idxc::Reader::open("train-images-idx3-ubyte.gz");
//   auto images = reader.read<std::uint8_t>();
//   for (const auto &w : reader.findings()) std::cerr << w << '\n';   // IDX501: probably little-endian
//
// Link with libidxc: g++ -std=c++20 ... $(pkg-config --cflags --libs idxc)
#ifndef IDXC_HPP
#define IDXC_HPP

#include <idxc.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace idxc {

enum class Severity { info = IDX_SEVERITY_INFO, warning = IDX_SEVERITY_WARNING, error = IDX_SEVERITY_ERROR };

inline const char *to_string(Severity s) {
    switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    default: return "error";
    }
}

// One finding: the rule broken, where, how serious, and what to do; and
// `text`, the library's one text form of it (Rust's `Display`, the line
// `idx dump` prints and `str()` gives in Python):
// `error[IDX202]: message (at offset 0xa, byte 10)`.
struct Finding {
    std::string rule;
    Severity severity = Severity::error;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::string message;
    std::optional<std::string> expected, found, hint;
    std::string text;

    static Finding from(const IdxFinding &f) {
        auto opt = [](const char *s) { return s ? std::optional<std::string>(s) : std::nullopt; };
        return Finding{f.rule, static_cast<Severity>(f.severity), f.offset, f.length, f.message,
                       opt(f.expected), opt(f.found), opt(f.hint), f.text};
    }
};

// The library's one text form of a finding: `text`, as the library made it.
inline std::ostream &operator<<(std::ostream &o, const Finding &f) { return o << f.text; }

// A checked header.
struct Header {
    IdxElementType dtype = IDX_U8;
    std::vector<std::uint32_t> dims;
    std::uint64_t element_size = 0;
    std::uint64_t element_count = 0;
    std::uint64_t payload_len = 0;

    static Header from(const IdxHeader &h) {
        return Header{h.dtype, std::vector<std::uint32_t>(h.dims, h.dims + h.rank), h.element_size,
                      h.element_count, h.payload_len};
    }
};

// A failed call: its status and message, and for data that breaks a rule
// the finding.
class Error : public std::runtime_error {
  public:
    Error(IdxStatus status, const std::string &message, std::optional<Finding> finding = std::nullopt)
        : std::runtime_error(message), status_(status), finding_(std::move(finding)) {}
    IdxStatus status() const noexcept { return status_; }
    const std::optional<Finding> &finding() const noexcept { return finding_; }

  private:
    IdxStatus status_;
    std::optional<Finding> finding_;
};

namespace detail {
struct ErrorFree { void operator()(IdxError *e) const noexcept { idx_error_free(e); } };
struct ReportFree { void operator()(IdxReport *r) const noexcept { idx_report_free(r); } };
struct ReaderFree { void operator()(IdxReader *r) const noexcept { idx_reader_free(r); } };
struct BytesFree { void operator()(IdxBytes *b) const noexcept { idx_bytes_free(b); } };
struct ArrayFree { void operator()(IdxArray *a) const noexcept { idx_array_free(a); } };
struct FindingsFree { void operator()(IdxFindings *f) const noexcept { idx_findings_free(f); } };

// Throws the error of a failed call (and frees it). Called after the
// call, in a statement of its own: as arguments of one call, the order in
// which `err` and the call's status are evaluated is unspecified.
inline void check(IdxStatus s, IdxError *raw) {
    std::unique_ptr<IdxError, ErrorFree> err(raw);
    if (s == IDX_OK) return;
    const IdxFinding *f = idx_error_finding(err.get());
    const char *m = idx_error_message(err.get());
    throw Error(s, m ? m : "unknown error", f ? std::optional<Finding>(Finding::from(*f)) : std::nullopt);
}
} // namespace detail

// The element type of a C++ type.
template <class T> constexpr IdxElementType element_type() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return IDX_U8;
    else if constexpr (std::is_same_v<T, std::int8_t>) return IDX_I8;
    else if constexpr (std::is_same_v<T, std::int16_t>) return IDX_I16;
    else if constexpr (std::is_same_v<T, std::int32_t>) return IDX_I32;
    else if constexpr (std::is_same_v<T, float>) return IDX_F32;
    else {
        static_assert(std::is_same_v<T, double>, "IDX holds u8, i8, i16, i32, f32 or f64");
        return IDX_F64;
    }
}

// Everything validation found in one input.
struct Report {
    bool valid = false;
    std::optional<Header> header;
    bool gzip = false;
    std::uint64_t stream_len = 0;
    std::vector<Finding> findings;

    static Report from(const IdxReport &r) {
        Report out;
        out.valid = r.verdict == IDX_VERDICT_VALID;
        if (r.has_header) out.header = Header::from(r.header);
        out.gzip = r.gzip;
        out.stream_len = r.stream_len;
        for (std::size_t i = 0; i < r.findings_len; i++) out.findings.push_back(Finding::from(r.findings[i]));
        return out;
    }
};

// The default read options (gzip decompressed within the library's limit,
// the byte order tested).
inline IdxReadOptions default_options() { return idx_read_options_default(); }

// Validates a file as idx-validate does; throws Error only when it cannot
// be read (an invalid file is a Report with valid == false).
inline Report validate_file(const std::string &path, const IdxReadOptions &opts = default_options()) {
    IdxReport *raw = nullptr;
    IdxError *err = nullptr;
    const IdxStatus status = idx_validate_file(path.c_str(), &opts, &raw, &err);
    detail::check(status, err);
    std::unique_ptr<IdxReport, detail::ReportFree> report(raw);
    return Report::from(*report);
}

// Validates bytes in memory; `name` is the file name the naming lint sees.
inline Report validate(std::span<const std::uint8_t> bytes, const char *name = nullptr,
                       const IdxReadOptions &opts = default_options()) {
    IdxReport *raw = nullptr;
    IdxError *err = nullptr;
    const IdxStatus status = idx_validate_buffer(bytes.data(), bytes.size(), name, &opts, &raw, &err);
    detail::check(status, err);
    std::unique_ptr<IdxReport, detail::ReportFree> report(raw);
    return Report::from(*report);
}

// A value or the error that stopped it, as std::expected (C++23) has it.
template <class T> class Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}
    bool has_value() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }
    // the value; throws the error when there is none
    T &value() & {
        if (!has_value()) throw std::get<1>(v_);
        return std::get<0>(v_);
    }
    T &&value() && { return std::move(value()); }
    const Error &error() const { return std::get<1>(v_); }

  private:
    std::variant<T, Error> v_;
};

// An input being read through the library's Reader: its header is read
// and checked, its payload not yet. Moves, never copies; reads once. A
// read that succeeds may still warn: findings() holds its warnings (the
// byte-order test's IDX501 when the payload reads little-endian; the
// elements are decoded as IDX says all the same), as validation reports
// them.
class Reader {
  public:
    static Reader open(const std::string &path, const IdxReadOptions &opts = default_options()) {
        IdxReader *raw = nullptr;
        IdxError *err = nullptr;
        const IdxStatus status = idx_reader_open_file(path.c_str(), &opts, &raw, &err);
        detail::check(status, err);
        return Reader(raw);
    }

    // Reads `bytes` in place: they must outlive the reader.
    static Reader open(std::span<const std::uint8_t> bytes, const IdxReadOptions &opts = default_options()) {
        IdxReader *raw = nullptr;
        IdxError *err = nullptr;
        const IdxStatus status = idx_reader_open_buffer(bytes.data(), bytes.size(), &opts, &raw, &err);
        detail::check(status, err);
        return Reader(raw);
    }

    Header header() const { return Header::from(*idx_reader_header(r_.get())); }

    // The warnings of the read (empty before it, and when there is none).
    const std::vector<Finding> &findings() const noexcept { return findings_; }

    // The payload into `out`, which holds exactly header().element_count
    // elements of the file's type, native-endian; returns the read's
    // warnings (also in findings()).
    template <class T> std::vector<Finding> read_into(std::span<T> out) {
        const IdxHeader &h = *idx_reader_header(r_.get());
        if (h.dtype != element_type<T>())
            throw Error(IDX_MISUSE, "the file's element type is not the buffer's");
        IdxFindings *warnings = nullptr;
        IdxError *err = nullptr;
        const IdxStatus status = idx_reader_read_into(r_.get(), out.data(), out.size_bytes(), &warnings, &err);
        detail::check(status, err); // on failure, `warnings` is NULL
        keep(warnings);
        return findings_;
    }

    // The payload as a vector the library fills as the data arrives
    // (idx_reader_read_array): a header that declares more than the input
    // holds costs nothing. Its warnings are in findings().
    template <class T> std::vector<T> read() {
        const IdxHeader &h = *idx_reader_header(r_.get());
        if (h.dtype != element_type<T>())
            throw Error(IDX_MISUSE, "the file's element type is not the vector's");
        IdxArray *raw = nullptr;
        IdxFindings *warnings = nullptr;
        IdxError *err = nullptr;
        const IdxStatus status = idx_reader_read_array(r_.get(), &raw, &warnings, &err);
        detail::check(status, err); // on failure, `warnings` is NULL
        keep(warnings);
        std::unique_ptr<IdxArray, detail::ArrayFree> array(raw);
        const T *data = static_cast<const T *>(array->data);
        return std::vector<T>(data, data + array->len / sizeof(T));
    }

    // read<T>() as a Result instead of an exception.
    template <class T> Result<std::vector<T>> try_read() {
        try {
            return read<T>();
        } catch (const Error &e) {
            return e;
        }
    }

  private:
    explicit Reader(IdxReader *r) : r_(r) {}

    // Takes over a read's warnings (NULL after a failed read) and frees them.
    void keep(IdxFindings *raw) {
        std::unique_ptr<IdxFindings, detail::FindingsFree> warnings(raw);
        findings_.clear();
        if (!warnings) return;
        for (std::size_t i = 0; i < warnings->findings_len; i++)
            findings_.push_back(Finding::from(warnings->findings[i]));
    }

    std::unique_ptr<IdxReader, detail::ReaderFree> r_;
    std::vector<Finding> findings_;
};

// The canonical encoding of an array of `dims` holding `data`.
template <class T>
std::vector<std::uint8_t> write(std::span<const std::uint32_t> dims, std::span<const T> data) {
    IdxBytes *raw = nullptr;
    IdxError *err = nullptr;
    const IdxStatus status =
        idx_write_buffer(element_type<T>(), dims.data(), dims.size(), data.data(), data.size_bytes(), &raw, &err);
    detail::check(status, err);
    std::unique_ptr<IdxBytes, detail::BytesFree> bytes(raw);
    return std::vector<std::uint8_t>(bytes->data, bytes->data + bytes->len);
}

// The same, written to `path`.
template <class T>
void write_file(const std::string &path, std::span<const std::uint32_t> dims, std::span<const T> data) {
    IdxError *err = nullptr;
    const IdxStatus status =
        idx_write_file(path.c_str(), element_type<T>(), dims.data(), dims.size(), data.data(), data.size_bytes(), &err);
    detail::check(status, err);
}

} // namespace idxc

#endif // IDXC_HPP
