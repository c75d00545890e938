//! The case type and its constructors: the verdict, the validator options
//! a case needs, and one constructor per verdict.

use crate::content::Content;
use idx::ElementType;

/// What a conforming reader must do with a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Accept, with exactly the manifest's content.
    Valid,
    /// Reject.
    Invalid,
    /// Valid per the spec but non-portable (its warnings) or a container a
    /// reader MAY open: recorded, never failed.
    ImplementationDefined,
}

impl Verdict {
    /// `valid`, `invalid`, `implementation-defined`: also the folder name.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
            Verdict::ImplementationDefined => "implementation-defined",
        }
    }
}

/// Validator options a case needs (beyond gzip decompression, always on).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseOptions {
    /// `max_decompressed`.
    pub max_decompressed: Option<u64>,
    /// `expect_dtype`.
    pub expect_dtype: Option<ElementType>,
    /// `expect_shape` (`None` = wildcard).
    pub expect_shape: Option<Vec<Option<u32>>>,
}

impl CaseOptions {
    /// True when no option is set: the case is about the file alone.
    pub fn is_empty(&self) -> bool {
        *self == CaseOptions::default()
    }
}

/// One corpus case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Stable ID, never renamed once published; also the file stem.
    pub id: String,
    /// The verdict.
    pub verdict: Verdict,
    /// One sentence.
    pub description: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Exact expected findings: `(rule code, offset, length)`, ordered by
    /// offset then code, offsets in the decompressed stream for gzip.
    pub findings: Vec<(&'static str, u64, u64)>,
    /// The logical content, for valid and implementation-defined cases.
    pub content: Option<Content>,
    /// Validator options the findings assume.
    pub options: CaseOptions,
    /// Too large to commit: neither file nor manifest is in `corpus/`; both
    /// are generated on demand (see [`ON_DEMAND`](super::ON_DEMAND)).
    pub on_demand: bool,
}

impl Case {
    /// The file name: `<id>.idx`, or `<id>.idx.gz` for gzip bytes.
    pub fn file_name(&self) -> String {
        let ext = if self.compression().is_some() {
            "idx.gz"
        } else {
            "idx"
        };
        format!("{}.{ext}", self.id)
    }
    /// The rule codes this case exercises (those of its findings).
    pub fn rules(&self) -> Vec<&'static str> {
        let mut r: Vec<_> = self.findings.iter().map(|f| f.0).collect();
        r.sort();
        r.dedup();
        r
    }
    /// `gzip` when the file is gzip-compressed.
    pub fn compression(&self) -> Option<&'static str> {
        self.bytes.starts_with(&[0x1f, 0x8b]).then_some("gzip")
    }
}

/// The one constructor; the file extension follows from the bytes.
pub(super) fn case(
    verdict: Verdict,
    id: &str,
    description: &str,
    bytes: Vec<u8>,
    findings: &[(&'static str, u64, u64)],
    content: Option<Content>,
) -> Case {
    Case {
        id: id.into(),
        verdict,
        description: description.into(),
        bytes,
        findings: findings.to_vec(),
        content,
        options: CaseOptions::default(),
        on_demand: false,
    }
}

pub(super) fn valid(
    id: &str,
    description: &str,
    content: Content,
    findings: &[(&'static str, u64, u64)],
) -> Case {
    case(
        Verdict::Valid,
        id,
        description,
        content.golden_bytes(),
        findings,
        Some(content),
    )
}

pub(super) fn implementation_defined(
    id: &str,
    description: &str,
    content: Content,
    bytes: Vec<u8>,
    findings: &[(&'static str, u64, u64)],
) -> Case {
    case(
        Verdict::ImplementationDefined,
        id,
        description,
        bytes,
        findings,
        Some(content),
    )
}

pub(super) fn invalid(
    id: &str,
    description: &str,
    bytes: Vec<u8>,
    findings: &[(&'static str, u64, u64)],
) -> Case {
    case(Verdict::Invalid, id, description, bytes, findings, None)
}
