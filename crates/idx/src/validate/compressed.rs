//! Validating gzip input: the members decompressed through a fixed buffer
//! into the validator, up to the decompression limit.

use super::{Options, Validator};
use crate::buffer::CHUNK_LEN;
use crate::finding::{Compression, Finding, Report};
use crate::gzip::{Members, Step};
use crate::rules::Rule;
use crate::violations::decompression_limit;
use idx_text::plural::{count, verb};
use std::io::{self, Read};

/// Feeds decompressed bytes, stopping at the decompression limit (IDX702).
/// Returns false when the limit stopped validation.
fn feed_limited(v: &mut Validator, bytes: &[u8], opts: &Options) -> bool {
    if let Some(limit) = opts.max_decompressed {
        if v.total + bytes.len() as u64 > limit {
            let keep = (limit - v.total) as usize; // < bytes.len(), fits
            v.feed(&bytes[..keep]);
            v.stop(decompression_limit(limit), true);
            return false;
        }
    }
    v.feed(bytes);
    true
}

pub(super) fn drive_gzip<R: Read>(src: R, opts: &Options) -> io::Result<Report> {
    let mut dec = Members::new(src);
    let mut v = Validator::new(opts.clone());
    v.compression = Some(Compression::Gzip);
    let mut buf = vec![0u8; CHUNK_LEN];
    loop {
        match dec.step(&mut buf)? {
            Step::Data(k) => {
                if !feed_limited(&mut v, &buf[..k], opts) {
                    break;
                }
            }
            Step::End => {
                if dec.padding > 0 {
                    let at = v.total;
                    v.container.push(
                        Finding::new(
                            Rule::GzipPadding,
                            at,
                            0,
                            format!(
                                "{} of zero padding {} the last gzip member",
                                count(dec.padding, "byte"),
                                verb(dec.padding, "follows", "follow")
                            ),
                        )
                        .expected("end of file after the last member")
                        .found(count(dec.padding, "zero byte"))
                        .hint("gzip(1) and Python accept zero padding (tape blocks, some servers pad); strict gzip readers reject it: truncate the file after the last member"),
                    );
                }
                break;
            }
            Step::Damaged { written, why } => {
                // the bytes decoded before the damage are findings too
                if !feed_limited(&mut v, &buf[..written], opts) {
                    break;
                }
                let at = v.total;
                v.stop(crate::violations::gzip_damaged(at, why), false);
                break;
            }
        }
    }
    Ok(v.finish())
}
