//! `idx info`: the header field by field and streamed payload statistics.

use super::{fail, open_validated};
use idx_cli::input;
use idx_cli::stats::Stats;
use idx_io::ExitStatus;
use std::io::{Read, Write};
use std::path::Path;

pub(super) fn info(path: &Path, opts: idx::ReadOptions) -> ExitStatus {
    let (mut input, report) = match open_validated(path, opts) {
        Ok(v) => v,
        Err(status) => return status,
    };
    let mut s = String::new();
    s.push_str(&format!(
        "{}{}\n",
        input.name,
        if report.compression.is_some() {
            " (gzip; offsets in the decompressed stream)"
        } else {
            ""
        }
    ));
    let head = &report.head;
    // the fields of something that is not IDX (a PNG, a byte-swapped
    // header) would be noise: only the findings are shown
    if head.len() >= 4 && report.looks_like_idx() {
        s.push_str(&format!(
            "0x0000  {:02x} {:02x}        reserved\n",
            head[0], head[1]
        ));
        let t = idx::ElementType::from_code(head[2]).map_or("unknown".into(), |t| {
            format!(
                "{t} ({} each)",
                idx_text::plural::count(t.size() as u64, "byte")
            )
        });
        s.push_str(&format!(
            "0x0002  {:02x}           element type {t}\n",
            head[2]
        ));
        s.push_str(&format!(
            "0x0003  {:02x}           rank {}\n",
            head[3], head[3]
        ));
        for (k, d) in head[4..]
            .chunks_exact(4)
            .take(usize::from(head[3]))
            .enumerate()
        {
            s.push_str(&format!(
                "{:#06x}  {:02x} {:02x} {:02x} {:02x}  dimension {k} = {}\n",
                4 + 4 * k,
                d[0],
                d[1],
                d[2],
                d[3],
                u32::from_be_bytes([d[0], d[1], d[2], d[3]])
            ));
        }
    }
    let mut out = std::io::stdout().lock();
    let Some(h) = report.header.clone().filter(|_| report.is_valid()) else {
        // The fields that could be read (none when it is not IDX at all),
        // then the findings on stderr.
        if report.looks_like_idx() {
            let _ = out.write_all(s.as_bytes());
        }
        let _ = out.flush();
        eprint!("{}", input::render_errors(&input.name, &report));
        return ExitStatus::from(1);
    };
    eprint!("{}", input::render_byte_order_warning(&input.name, &report));
    s.push_str(&format!(
        "{:#06x}  payload: {}, {}\n\n",
        h.header_len(),
        idx_text::plural::count(h.payload_len(), "byte"),
        idx_text::plural::count(h.element_count(), "element")
    ));
    // Stream the payload for statistics: fixed memory whatever the size.
    let mut stats = Stats::default();
    let name = input.name.clone();
    let stream = match input.stream() {
        Ok(s) => s,
        Err(e) => return fail(format!("{name}: {e}"), 2),
    };
    let mut stream = stream.take(h.header_len() as u64 + h.payload_len());
    let mut buf = vec![0u8; 256 * 1024];
    let mut skip = h.header_len();
    let mut carry = 0usize;
    loop {
        let k = match stream.read(&mut buf[carry..]) {
            Ok(0) => break,
            Ok(k) => k,
            Err(e) => return fail(format!("{name}: {e}"), 2),
        };
        let have = carry + k;
        let from = skip.min(have);
        skip -= from;
        let whole = from + (have - from) / h.dtype().size() * h.dtype().size();
        stats.push_bytes(h.dtype(), &buf[from..whole]);
        buf.copy_within(whole..have, 0);
        carry = have - whole;
    }
    s.push_str(&stats.to_string());
    let _ = out.write_all(s.as_bytes());
    ExitStatus::SUCCESS
}
