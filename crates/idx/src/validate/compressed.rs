//! The validator's gzip stage: compressed bytes pushed in, decoded by the
//! library's one gzip engine ([`Stage`], which gathers them into pieces and
//! applies the decompression limit, [`Limits`]) through a
//! fixed buffer into the validator. Every reader pulls through the same
//! engine (`gzip::Members`), so both cut, refuse and accept alike.

use super::Validator;
use crate::buffer::CHUNK_LEN;
use crate::finding::Finding;
use crate::gzip::{Stage, Step};
use crate::limits::Limits;
use crate::rules::Rule;
use crate::violations::decompression_limit;
use idx_text::plural::{count, verb};

/// The gzip stage of one [`Validator`]: the engine and the buffer it
/// decodes into (fixed sizes).
pub(super) struct GzipStage {
    stage: Stage,
    out: Box<[u8]>,
}

impl std::fmt::Debug for GzipStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GzipStage")
            .field("stage", &self.stage)
            .finish_non_exhaustive()
    }
}

impl GzipStage {
    pub(super) fn new(limits: Limits) -> Self {
        GzipStage {
            stage: Stage::new(limits),
            out: vec![0u8; CHUNK_LEN].into_boxed_slice(),
        }
    }

    /// True once nothing more of the compressed stream is looked at (it
    /// ended, is damaged, or holds more than the limit).
    pub(super) fn is_done(&self) -> bool {
        self.stage.is_done()
    }
}

impl Validator {
    /// Takes the next compressed bytes `input` (`last`: no byte follows
    /// them) into the stage, decoding each full piece, and the rest when
    /// `last`.
    pub(super) fn push_gzip(&mut self, gz: &mut GzipStage, mut input: &[u8], last: bool) {
        loop {
            if self.stopped() || gz.is_done() {
                return;
            }
            input = &input[gz.stage.take(input)..];
            if last && input.is_empty() {
                gz.stage.end_input();
            }
            self.decode(gz);
            if input.is_empty() {
                return;
            }
        }
    }

    /// Decodes what the stage holds into the validator, until it wants
    /// more input, the stream ends, is found damaged, or holds more than
    /// the limit.
    fn decode(&mut self, gz: &mut GzipStage) {
        while !self.stopped() {
            match gz.stage.step(&mut gz.out) {
                Step::Data(k) => self.feed_plain(&gz.out[..k]),
                Step::More => return,
                Step::End => {
                    let padding = gz.stage.padding();
                    if padding > 0 {
                        self.gzip_padding(padding);
                    }
                    return;
                }
                Step::Damaged { written, why } => {
                    // the bytes decoded before the damage are findings too
                    self.feed_plain(&gz.out[..written]);
                    let at = self.total;
                    self.stop(crate::violations::gzip_damaged(at, why), false);
                    return;
                }
                Step::Limit(limit) => {
                    self.stop(decompression_limit(limit), true);
                    return;
                }
            }
        }
    }

    /// IDX703: zero padding after the last member.
    fn gzip_padding(&mut self, padding: u64) {
        let at = self.total;
        self.container.push(
            Finding::new(
                Rule::GzipPadding,
                at,
                0,
                format!(
                    "{} of zero padding {} the last gzip member",
                    count(padding, "byte"),
                    verb(padding, "follows", "follow")
                ),
            )
            .expected("end of file after the last member")
            .found(count(padding, "zero byte"))
            .hint("gzip(1) and Python accept zero padding (tape blocks, some servers pad); strict gzip readers reject it: truncate the file after the last member"),
        );
    }
}
