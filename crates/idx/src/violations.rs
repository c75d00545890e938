//! One constructor per structural rule: the [`Finding`] that a rule of the
//! magic, the dimension list or the length produces (message, expected,
//! found, hint), for the validator and for the parser's and reader's errors.

use crate::dtype::ElementType;
use crate::finding::Finding;
use crate::header::{starts_with_idx_magic, Header, MAGIC_LEN};
use crate::rules::Rule;
use crate::text::{dims_str, hex};
use idx_text::plural::{count, verb};

/// IDX702: decompression stopped because the stream holds more than `limit`
/// bytes.
pub(crate) fn decompression_limit(limit: u64) -> Finding {
    Finding::new(
        Rule::DecompressionLimit,
        limit,
        0,
        format!("decompression stopped at the limit of {}", count(limit, "byte")),
    )
    .expected(format!("at most {}", count(limit, "decompressed byte")))
    .found("more")
    .hint("raise the limit (idx-validate --max-decompressed) if the file is genuinely that large; a tiny file that expands this much is a decompression bomb")
}

/// IDX701: the gzip stream is damaged after `at` decompressed bytes
/// (`why`: what the decoder found).
pub(crate) fn gzip_damaged(at: u64, why: impl Into<String>) -> Finding {
    Finding::new(
        Rule::GzipDamaged,
        at,
        0,
        format!(
            "the gzip stream is damaged; decompression failed after {} of output",
            count(at, "byte")
        ),
    )
    .expected("a complete, intact gzip stream")
    .found(why)
    .hint(
        "the download is probably incomplete or corrupted: fetch it again and compare its checksum",
    )
}

pub(crate) fn reserved_bytes(reserved: &[u8]) -> Finding {
    let first = reserved.iter().position(|&b| b != 0).unwrap_or(0);
    let last = reserved.iter().rposition(|&b| b != 0).unwrap_or(0);
    Finding::new(
        Rule::ReservedBytes,
        first as u64,
        (last - first + 1) as u64,
        format!("reserved magic bytes are {}, not 00 00", hex(reserved)),
    )
    .expected("00 00")
    .found(hex(reserved))
    .hint("an IDX file starts with two zero bytes; this is not an IDX file or its start is damaged or shifted")
}

pub(crate) fn unknown_type(code: u8) -> Finding {
    Finding::new(
        Rule::UnknownType,
        2,
        1,
        format!("unknown element type code 0x{code:02x}"),
    )
    .expected("one of 08 09 0b 0c 0d 0e")
    .found(format!("{code:02x}"))
    .hint("the element types are 08 u8, 09 i8, 0b i16, 0c i32, 0d f32, 0e f64")
}

/// `1 more byte`, `2 more bytes`.
pub(crate) fn more(n: u64) -> String {
    count(n, "more byte")
}

pub(crate) fn truncated_magic(len: usize) -> Finding {
    let msg = if len == 0 {
        "the file is empty: expected a 4-byte magic".to_string()
    } else {
        format!(
            "the file ends after {len} of the 4 magic bytes: expected {}",
            more((MAGIC_LEN - len) as u64)
        )
    };
    Finding::new(Rule::TruncatedMagic, len as u64, 0, msg)
        .expected("4 bytes of magic")
        .found(count(len as u64, "byte"))
}

pub(crate) fn truncated_dimensions(len: usize, rank: u8) -> Finding {
    let need = MAGIC_LEN + 4 * usize::from(rank);
    Finding::new(
        Rule::TruncatedDimensions,
        len as u64,
        0,
        format!(
            "the file ends inside the dimension list: expected {}",
            more((need - len) as u64)
        ),
    )
    .expected(format!("{need} header bytes (4 + 4 x rank {rank})"))
    .found(count(len as u64, "byte"))
    .hint("the file was cut short, or the rank byte (offset 3) is wrong")
}

pub(crate) fn size_overflow(t: ElementType, dims: &[u32]) -> Finding {
    Finding::new(
        Rule::SizeOverflow,
        MAGIC_LEN as u64,
        4 * dims.len() as u64,
        "the declared payload size does not fit in 64 bits",
    )
    .expected("product(dims) x element size < 2^64")
    .found(format!(
        "{} x {}",
        dims_str(dims),
        count(t.size() as u64, "byte")
    ))
    .hint("no real file has this size: the dimensions are garbage or hostile")
}

pub(crate) fn rank_zero() -> Finding {
    Finding::new(
        Rule::RankZero,
        3,
        1,
        "rank 0: the file holds a single scalar",
    )
    .expected("rank 1 or more (for portability)")
    .found("00")
    .hint("many readers reject rank 0 or mis-size it; store a scalar as rank 1 with dimension 1")
}

/// The largest rank numpy before 2.0 supports (`NPY_MAXDIMS`); numpy 2
/// supports 64.
const NUMPY_1_MAX_RANK: u8 = 32;

pub(crate) fn rank_warning(rank: u8) -> Option<Finding> {
    if rank > NUMPY_1_MAX_RANK {
        let who = if rank > 64 {
            "every numpy-based reader rejects it (numpy supports at most 64 dimensions, 32 before numpy 2.0)"
        } else {
            "numpy-based readers on numpy before 2.0 reject it (at most 32 dimensions; numpy 2 supports 64)"
        };
        Some(
            Finding::new(Rule::HighRank, 3, 1, format!("rank {rank}: {who}"))
                .expected(format!("rank {NUMPY_1_MAX_RANK} or less (for portability)"))
                .found(rank.to_string())
                .hint("merge dimensions (the payload is the same in row-major order) or drop dimensions of length 1"),
        )
    } else {
        None
    }
}

pub(crate) fn dimension_warning(k: usize, d: u32) -> Option<Finding> {
    let at = (MAGIC_LEN + 4 * k) as u64;
    if d == 0 {
        Some(
            Finding::new(
                Rule::ZeroDimension,
                at,
                4,
                format!("dimension {k} is 0: the file holds no elements"),
            )
            .expected("a dimension of 1 or more (for portability)")
            .found("0")
            .hint("some readers divide by dimensions or reject empty arrays"),
        )
    } else if d >= 1 << 31 {
        Some(
            Finding::new(Rule::LargeDimension, at, 4, format!("dimension {k} is {d}, at least 2^31"))
                .expected("a dimension below 2^31 (for portability)")
                .found(d.to_string())
                .hint("readers that hold sizes in signed 32-bit integers (Java, many C readers) overflow here"),
        )
    } else {
        None
    }
}

pub(crate) fn truncated_payload(h: &Header, seen: u64, total: u64) -> Finding {
    let missing = h.payload_len() - seen;
    let mut f = Finding::new(
        Rule::TruncatedPayload,
        total,
        0,
        format!(
            "the file ends {} before the end of the declared payload: expected {}",
            count(missing, "byte"),
            more(missing)
        ),
    )
    .expected(format!(
        "{} ({} x {})",
        count(h.payload_len(), "payload byte"),
        dims_str(h.dims()),
        count(h.dtype().size() as u64, "byte")
    ))
    .found(count(seen, "payload byte"));
    if let Some(&first) = h.dims().first() {
        if let Some(item) = h
            .payload_len()
            .checked_div(u64::from(first))
            .filter(|&i| i > 0)
        {
            let whole = seen / item;
            let exact = if seen % item == 0 { "exactly " } else { "" };
            f = f.hint(format!(
                "the payload holds {exact}{} of the {first} the header declares: the file was cut short, or dimension 0 overstates the count",
                count(whole, "complete item")
            ));
        }
    }
    f
}

pub(crate) fn trailing_bytes(
    h: &Header,
    end: u64,
    trailing: u64,
    head: &[u8],
    at_least: bool,
) -> Finding {
    let looks_idx = starts_with_idx_magic(head);
    let item = h
        .dims()
        .first()
        .filter(|&&d| d > 0)
        .map(|&d| h.payload_len() / u64::from(d))
        .filter(|&i| i > 0);
    let hint = if looks_idx {
        "the trailing bytes start with an IDX magic: two files were probably concatenated"
            .to_string()
    } else if let Some(item) = item.filter(|i| trailing % i == 0 && !at_least) {
        format!(
            "the trailing bytes are exactly {}: dimension 0 probably understates the count",
            count(trailing / item, "more item")
        )
    } else {
        "the header may understate a dimension, or the writer appended padding or another record"
            .to_string()
    };
    Finding::new(
        Rule::TrailingBytes,
        end,
        trailing,
        if at_least {
            format!(
                "{} {} the end of the declared payload (counting stopped there)",
                idx_text::plural::at_least(trailing, "byte"),
                verb(trailing, "follows", "follow")
            )
        } else {
            format!(
                "{} {} the end of the declared payload",
                count(trailing, "byte"),
                verb(trailing, "follows", "follow")
            )
        },
    )
    .expected(format!("end of file at byte {end}"))
    .found(if at_least {
        format!("at least {}", more(trailing))
    } else {
        more(trailing)
    })
    .hint(hint)
}
