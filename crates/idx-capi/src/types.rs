//! The C types and their conversion from the library's: plain data, no
//! pointer is read here.
#![forbid(unsafe_code)]

use std::ffi::{c_char, c_void, CString};

/// The largest rank an IDX header can declare (its fourth byte).
pub const IDX_MAX_RANK: usize = 255;

/// What a call came to.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdxStatus {
    /// Success.
    IdxOk = 0,
    /// The data breaks a rule of the spec: the error holds the finding.
    IdxInvalid = 1,
    /// The operating system failed (a file that cannot be opened or read).
    IdxIo = 2,
    /// The caller's mistake: a null pointer, a buffer of the wrong size, a
    /// reader read twice, an array the writer cannot encode.
    IdxMisuse = 3,
    /// A bug in the library, caught at the boundary.
    IdxPanic = 4,
}

/// How serious a finding is (the spec's severities).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdxSeverity {
    /// Informational.
    IdxSeverityInfo = 0,
    /// Probably wrong.
    IdxSeverityWarning = 1,
    /// Breaks the spec: the file is invalid.
    IdxSeverityError = 2,
}

/// A validation's verdict, as `idx-validate` gives it.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdxVerdict {
    /// No error (warnings and infos may remain).
    IdxVerdictValid = 0,
    /// At least one error.
    IdxVerdictInvalid = 1,
}

/// The IDX element types, by their type code (the header's third byte).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdxElementType {
    /// unsigned byte
    IdxU8 = 0x08,
    /// signed byte
    IdxI8 = 0x09,
    /// 16-bit signed integer
    IdxI16 = 0x0b,
    /// 32-bit signed integer
    IdxI32 = 0x0c,
    /// 32-bit float
    IdxF32 = 0x0d,
    /// 64-bit float
    IdxF64 = 0x0e,
}

/// The byte order a caller states for a payload (spec 6.1).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdxByteOrder {
    /// Stated by nobody: the byte-order test decides (a payload that is
    /// little-endian beyond reasonable doubt is refused, IDX501).
    IdxByteOrderTested = 0,
    /// Big-endian, as IDX says: read untested.
    IdxByteOrderBig = 1,
    /// Little-endian: read as such, refused only when it reads big-endian
    /// beyond reasonable doubt.
    IdxByteOrderLittle = 2,
}

/// A checked header.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct IdxHeader {
    /// The element type.
    pub dtype: IdxElementType,
    /// The number of dimensions (0 to 255).
    pub rank: u32,
    /// The dimensions; `dims[rank..]` are 0.
    pub dims: [u32; IDX_MAX_RANK],
    /// Bytes of the header: 4 + 4 x rank.
    pub header_len: u64,
    /// Bytes of one element.
    pub element_size: u64,
    /// The number of elements (the product of the dimensions).
    pub element_count: u64,
    /// Bytes of the payload the header declares.
    pub payload_len: u64,
}

/// One finding of validation, or the one finding of a refused read.
///
/// The strings are NUL-terminated UTF-8 and belong to what holds the
/// finding (the report or the error): valid until that is freed.
#[repr(C)]
#[derive(Debug)]
pub struct IdxFinding {
    /// The rule's stable code, e.g. `"IDX202"`.
    pub rule: *const c_char,
    /// How serious it is.
    pub severity: IdxSeverity,
    /// 0-based byte offset of the first offending byte (in the decompressed
    /// stream for gzip input).
    pub offset: u64,
    /// Number of offending bytes (0 for missing data).
    pub length: u64,
    /// A lowercase message with no trailing period.
    pub message: *const c_char,
    /// What the spec requires here, or NULL.
    pub expected: *const c_char,
    /// What the file holds here, or NULL.
    pub found: *const c_char,
    /// How to fix it, or NULL.
    pub hint: *const c_char,
    /// The library's one text form of the finding, never NULL: the line
    /// `idx dump` prints and Python's `str()` gives,
    /// `error[IDX202]: message (at offset 0xa, byte 10)`. Print this rather
    /// than formatting the fields anew.
    pub text: *const c_char,
}

/// Everything validation found in one input. Allocated by the library,
/// freed by `idx_report_free`.
#[repr(C)]
#[derive(Debug)]
pub struct IdxReport {
    /// Valid when no finding is an error.
    pub verdict: IdxVerdict,
    /// Whether `header` holds the input's header (its magic and dimensions
    /// were complete and well-formed).
    pub has_header: bool,
    /// The header, when `has_header`.
    pub header: IdxHeader,
    /// Whether the input was gzip (then offsets are in the decompressed
    /// stream).
    pub gzip: bool,
    /// Length of the IDX stream validated.
    pub stream_len: u64,
    /// Number of findings.
    pub findings_len: usize,
    /// The findings, in the library's order.
    pub findings: *const IdxFinding,
}

/// The warnings of a read that succeeded: the byte-order test's IDX501
/// when it calls the payload little-endian (a statistical test, so a
/// warning: the elements are decoded as IDX says all the same), the same
/// finding validation reports. Allocated by the library (empty when there
/// is none), freed by `idx_findings_free`.
#[repr(C)]
#[derive(Debug)]
pub struct IdxFindings {
    /// Number of findings.
    pub findings_len: usize,
    /// The findings, in the library's order (NULL when there is none).
    pub findings: *const IdxFinding,
}

/// How a reader reads; `idx_read_options_default` gives the safe default.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct IdxReadOptions {
    /// Decompress gzip input (recognised by its magic); off, gzip is
    /// refused as IDX402.
    pub decompress: bool,
    /// Stop decompressing after this many bytes (IDX702); 0: no limit.
    pub max_decompressed: u64,
    /// The byte order the caller states: one of [`IdxByteOrder`] (an
    /// integer, so that no value a C caller can store is undefined
    /// behaviour; others are a misuse).
    pub byte_order: u32,
}

/// An array the library read and allocated (`idx_reader_read_array`);
/// freed by `idx_array_free`.
#[repr(C)]
#[derive(Debug)]
pub struct IdxArray {
    /// Its header.
    pub header: IdxHeader,
    /// The elements, native-endian, aligned for their type (NULL never;
    /// not to be read when `len` is 0).
    pub data: *const c_void,
    /// Bytes at `data`: the header's `payload_len`.
    pub len: usize,
}

/// An array as C sees it, first, then the elements its pointer points
/// into (`#[repr(C)]`: a pointer to this value is a pointer to `c`).
#[repr(C)]
#[derive(Debug)]
pub(crate) struct OwnedArray {
    pub(crate) c: IdxArray,
    _data: idx::Data,
}

impl OwnedArray {
    pub(crate) fn new(header: &idx::Header, array: idx::Array) -> Box<Self> {
        let (_, data) = array.into_parts();
        // the Vec's buffer does not move when the value moves
        let (ptr, n): (*const c_void, usize) = match &data {
            idx::Data::U8(v) => (v.as_ptr().cast(), v.len()),
            idx::Data::I8(v) => (v.as_ptr().cast(), v.len()),
            idx::Data::I16(v) => (v.as_ptr().cast(), v.len()),
            idx::Data::I32(v) => (v.as_ptr().cast(), v.len()),
            idx::Data::F32(v) => (v.as_ptr().cast(), v.len()),
            idx::Data::F64(v) => (v.as_ptr().cast(), v.len()),
        };
        Box::new(OwnedArray {
            c: IdxArray {
                header: IdxHeader::new(header),
                data: ptr,
                len: n * header.dtype().size(),
            },
            _data: data,
        })
    }
}

/// Bytes the library allocated (the canonical encoding of an array); freed
/// by `idx_bytes_free`.
#[repr(C)]
#[derive(Debug)]
pub struct IdxBytes {
    /// The bytes.
    pub data: *const u8,
    /// Their number.
    pub len: usize,
}

impl From<idx::ElementType> for IdxElementType {
    fn from(t: idx::ElementType) -> Self {
        match t {
            idx::ElementType::U8 => IdxElementType::IdxU8,
            idx::ElementType::I8 => IdxElementType::IdxI8,
            idx::ElementType::I16 => IdxElementType::IdxI16,
            idx::ElementType::I32 => IdxElementType::IdxI32,
            idx::ElementType::F32 => IdxElementType::IdxF32,
            idx::ElementType::F64 => IdxElementType::IdxF64,
        }
    }
}

impl From<idx::Severity> for IdxSeverity {
    fn from(s: idx::Severity) -> Self {
        match s {
            idx::Severity::Info => IdxSeverity::IdxSeverityInfo,
            idx::Severity::Warning => IdxSeverity::IdxSeverityWarning,
            idx::Severity::Error => IdxSeverity::IdxSeverityError,
        }
    }
}

impl IdxReadOptions {
    /// The library's default ([`idx::ReadOptions::default`]): gzip
    /// decompressed within its limit, the byte order tested.
    pub fn new() -> Self {
        IdxReadOptions {
            decompress: true,
            max_decompressed: idx::Limits::default().max_decompressed.unwrap_or(0),
            byte_order: IdxByteOrder::IdxByteOrderTested as u32,
        }
    }

    /// The library's options these stand for.
    ///
    /// # Errors
    /// A misuse for a byte order that is none of [`IdxByteOrder`].
    pub(crate) fn to_idx(self) -> Result<idx::ReadOptions, IdxError> {
        let stated = match self.byte_order {
            0 => None,
            1 => Some(idx::ByteOrder::Big),
            2 => Some(idx::ByteOrder::Little),
            n => return Err(IdxError::misuse(&format!("unknown byte order {n}"))),
        };
        Ok(idx::ReadOptions::default()
            .with_decompress(self.decompress)
            .with_max_decompressed(Some(self.max_decompressed).filter(|&n| n > 0))
            .with_byte_order(stated))
    }
}

impl Default for IdxReadOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl IdxHeader {
    /// The C form of a checked header.
    pub fn new(h: &idx::Header) -> Self {
        let mut dims = [0u32; IDX_MAX_RANK];
        for (d, &v) in dims.iter_mut().zip(h.dims()) {
            *d = v;
        }
        IdxHeader {
            dtype: h.dtype().into(),
            rank: h.dims().len() as u32, // at most 255: the rank is one byte
            dims,
            header_len: h.header_len() as u64,
            element_size: h.dtype().size() as u64,
            element_count: h.element_count(),
            payload_len: h.payload_len(),
        }
    }
}

/// A string for C: interior NUL bytes (which the library's messages do not
/// hold) are dropped rather than cutting the text short.
pub(crate) fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

/// A finding and the strings it points into. The `CString`s' heap buffers
/// do not move when this value moves, so `c`'s pointers stay valid for as
/// long as it lives.
#[derive(Debug)]
pub(crate) struct OwnedFinding {
    pub(crate) c: IdxFinding,
    _strings: Vec<CString>,
}

impl OwnedFinding {
    pub(crate) fn new(f: &idx::Finding) -> Self {
        let mut strings = Vec::new();
        let mut keep = |s: Option<&str>| match s {
            Some(s) => {
                let c = c_string(s);
                let p = c.as_ptr();
                strings.push(c);
                p
            }
            None => std::ptr::null(),
        };
        let c = IdxFinding {
            rule: keep(Some(f.rule.code())),
            severity: f.severity().into(),
            offset: f.offset,
            length: f.length,
            message: keep(Some(&f.message)),
            expected: keep(f.expected.as_deref()),
            found: keep(f.found.as_deref()),
            hint: keep(f.hint.as_deref()),
            text: keep(Some(&f.to_string())),
        };
        OwnedFinding {
            c,
            _strings: strings,
        }
    }
}

/// Findings as C sees them, and the strings they point into: the C views
/// are copies of `owned`'s (their strings stay there; the `CString`s' heap
/// buffers and the Vec's buffer do not move when this value moves).
#[derive(Debug)]
struct FindingList {
    c: Vec<IdxFinding>,
    _owned: Vec<OwnedFinding>,
}

impl FindingList {
    fn new(findings: &[idx::Finding]) -> Self {
        let owned: Vec<OwnedFinding> = findings.iter().map(OwnedFinding::new).collect();
        let c = owned
            .iter()
            .map(|o| IdxFinding {
                rule: o.c.rule,
                severity: o.c.severity,
                offset: o.c.offset,
                length: o.c.length,
                message: o.c.message,
                expected: o.c.expected,
                found: o.c.found,
                hint: o.c.hint,
                text: o.c.text,
            })
            .collect();
        FindingList { c, _owned: owned }
    }

    /// The C array: its length, and its first element (NULL when empty).
    fn c_array(&self) -> (usize, *const IdxFinding) {
        if self.c.is_empty() {
            (0, std::ptr::null())
        } else {
            (self.c.len(), self.c.as_ptr())
        }
    }
}

/// A read's warnings as C sees them, first, then what their pointers point
/// into (`#[repr(C)]`: a pointer to this value is a pointer to `c`, and
/// back in `idx_findings_free`).
#[repr(C)]
#[derive(Debug)]
pub(crate) struct OwnedFindings {
    pub(crate) c: IdxFindings,
    _list: FindingList,
}

impl OwnedFindings {
    pub(crate) fn new(findings: &[idx::Finding]) -> Box<Self> {
        let list = FindingList::new(findings);
        let (findings_len, findings) = list.c_array();
        Box::new(OwnedFindings {
            c: IdxFindings {
                findings_len,
                findings,
            },
            _list: list,
        })
    }
}

/// A report as C sees it, first, then what its pointers point into.
/// `#[repr(C)]` puts `c` at offset 0, so a pointer to this value is a
/// pointer to `c` (and back, in `idx_report_free`).
#[repr(C)]
#[derive(Debug)]
pub(crate) struct OwnedReport {
    pub(crate) c: IdxReport,
    _findings: FindingList,
}

impl OwnedReport {
    pub(crate) fn new(r: &idx::Report) -> Box<Self> {
        let findings = FindingList::new(&r.findings);
        let (findings_len, findings_ptr) = findings.c_array();
        let header = r.header.as_ref();
        Box::new(OwnedReport {
            c: IdxReport {
                verdict: if r.has_errors() {
                    IdxVerdict::IdxVerdictInvalid
                } else {
                    IdxVerdict::IdxVerdictValid
                },
                has_header: header.is_some(),
                header: header.map(IdxHeader::new).unwrap_or(IdxHeader {
                    dtype: IdxElementType::IdxU8,
                    rank: 0,
                    dims: [0; IDX_MAX_RANK],
                    header_len: 0,
                    element_size: 0,
                    element_count: 0,
                    payload_len: 0,
                }),
                gzip: r.compression.is_some(),
                stream_len: r.stream_len,
                findings_len,
                findings: findings_ptr,
            },
            _findings: findings,
        })
    }
}

/// What went wrong in a call: its status, a message, and for data that
/// breaks a rule the located finding. Opaque to C; freed by
/// `idx_error_free`.
#[derive(Debug)]
pub struct IdxError {
    pub(crate) status: IdxStatus,
    pub(crate) message: CString,
    pub(crate) finding: Option<OwnedFinding>,
}

impl IdxError {
    pub(crate) fn new(status: IdxStatus, message: &str) -> Self {
        IdxError {
            status,
            message: c_string(message),
            finding: None,
        }
    }

    pub(crate) fn misuse(message: &str) -> Self {
        IdxError::new(IdxStatus::IdxMisuse, message)
    }

    pub(crate) fn read(e: idx::ReadError) -> Self {
        match e {
            idx::ReadError::Invalid(e) => IdxError {
                status: IdxStatus::IdxInvalid,
                message: c_string(&e.to_string()),
                finding: Some(OwnedFinding::new(e.finding())),
            },
            idx::ReadError::Io(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                IdxError::misuse(&e.to_string())
            }
            e => IdxError::new(IdxStatus::IdxIo, &e.to_string()),
        }
    }

    pub(crate) fn write(e: idx::WriteError) -> Self {
        match e {
            idx::WriteError::Io(e) => {
                IdxError::new(IdxStatus::IdxIo, &format!("write failed: {e}"))
            }
            e => IdxError::misuse(&e.to_string()),
        }
    }
}
