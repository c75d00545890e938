//! The validator's gzip stage: compressed bytes pushed in, decoded by the
//! library's one gzip engine ([`Inflate`]) through a fixed buffer into the
//! validator, up to the decompression limit ([`Limits`](crate::Limits)).

use super::Validator;
use crate::buffer::CHUNK_LEN;
use crate::finding::Finding;
use crate::gzip::{Inflate, Step, IN_LEN};
use crate::rules::Rule;
use crate::violations::decompression_limit;
use idx_text::plural::{count, verb};

/// The gzip stage of one [`Validator`]: the decoder, and its input and
/// output buffers (fixed sizes). The compressed bytes fed are gathered
/// into pieces of [`IN_LEN`] bytes before they are decoded, the pieces
/// [`Members`](crate::gzip::Members) reads: the deflate decoder's verdict
/// on a damaged stream may depend on where its input is cut, and so the
/// findings never depend on how the caller chunks its input.
pub(super) struct GzipStage {
    inflate: Inflate,
    piece: Box<[u8]>,
    held: usize,
    out: Box<[u8]>,
}

impl std::fmt::Debug for GzipStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GzipStage")
            .field("inflate", &self.inflate)
            .finish_non_exhaustive()
    }
}

impl GzipStage {
    pub(super) fn new() -> Self {
        GzipStage {
            inflate: Inflate::new(),
            piece: vec![0u8; IN_LEN].into_boxed_slice(),
            held: 0,
            out: vec![0u8; CHUNK_LEN].into_boxed_slice(),
        }
    }

    /// True once nothing more of the compressed stream is looked at (it
    /// ended, or is damaged).
    pub(super) fn is_done(&self) -> bool {
        self.inflate.is_done()
    }
}

impl Validator {
    /// Feeds decompressed bytes, stopping at the decompression limit
    /// (IDX702). Returns false when the limit stopped validation.
    fn feed_limited(&mut self, bytes: &[u8]) -> bool {
        let (keep, cut) = self.opts.limits.cut(self.total, bytes.len());
        self.feed_plain(&bytes[..keep]);
        match cut {
            Some(limit) => {
                self.stop(decompression_limit(limit), true);
                false
            }
            None => true,
        }
    }

    /// Takes the next compressed bytes `input` (`last`: no byte follows
    /// them) into the stage, decoding each full piece, and the rest when
    /// `last`.
    pub(super) fn push_gzip(&mut self, gz: &mut GzipStage, mut input: &[u8], last: bool) {
        loop {
            if self.stopped() || gz.is_done() {
                return;
            }
            let take = (gz.piece.len() - gz.held).min(input.len());
            gz.piece[gz.held..gz.held + take].copy_from_slice(&input[..take]);
            gz.held += take;
            input = &input[take..];
            if gz.held == gz.piece.len() {
                let piece = std::mem::take(&mut gz.piece);
                self.decode_piece(gz, &piece, false);
                gz.piece = piece;
                gz.held = 0;
            } else {
                if last {
                    let piece = std::mem::take(&mut gz.piece);
                    self.decode_piece(gz, &piece[..gz.held], true);
                    gz.piece = piece;
                    gz.held = 0;
                }
                return;
            }
        }
    }

    /// Decodes one piece of compressed bytes (`last`: no byte follows)
    /// into the validator, until it is used up, the stream ends, is found
    /// damaged, or reaches the limit.
    fn decode_piece(&mut self, gz: &mut GzipStage, mut input: &[u8], last: bool) {
        while !self.stopped() {
            let (used, step) = gz.inflate.step(input, last, &mut gz.out);
            input = &input[used..];
            match step {
                Step::Data(k) => {
                    if !self.feed_limited(&gz.out[..k]) {
                        return;
                    }
                }
                Step::More => return,
                Step::End => {
                    if last && gz.inflate.padding > 0 {
                        self.gzip_padding(gz.inflate.padding);
                    }
                    return;
                }
                Step::Damaged { written, why } => {
                    // the bytes decoded before the damage are findings too
                    if self.feed_limited(&gz.out[..written]) {
                        let at = self.total;
                        self.stop(crate::violations::gzip_damaged(at, why), false);
                    }
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
