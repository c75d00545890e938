//! Elements split across fed chunks: a payload fed in chunks of any size,
//! turned back into whole elements in order (the payload scans: the
//! byte-order and non-finite lints, the range scan, the label scan).

/// The bytes of an element that one fed chunk began and the next
/// completes: what turns a payload fed in chunks of any size into whole
/// elements (of at most 8 bytes), in order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Carry {
    buf: [u8; 8],
    len: usize,
}

impl Carry {
    /// Splits the next chunk `bytes` of elements of `size` bytes into its
    /// first element (completing the carried bytes, if any; `None` while
    /// the bytes fed do not complete one) and the whole elements after it,
    /// and keeps the bytes of the element left incomplete at the end for
    /// the next chunk.
    pub(crate) fn split<'b>(
        &mut self,
        size: usize,
        bytes: &'b [u8],
    ) -> (Option<[u8; 8]>, &'b [u8]) {
        // the first element always passes through the buffer: completing
        // the carried bytes, or (none carried) copied whole
        let take = (size - self.len).min(bytes.len());
        self.buf[self.len..self.len + take].copy_from_slice(&bytes[..take]);
        self.len += take;
        if self.len < size {
            return (None, &[]);
        }
        let first = self.buf;
        let bytes = &bytes[take..];
        let whole = bytes.len() / size * size;
        let rest = &bytes[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.len = rest.len();
        (Some(first), &bytes[..whole])
    }
}

#[cfg(test)]
mod tests {
    use super::Carry;

    #[test]
    fn elements_fed_in_any_chunks_come_out_whole_and_in_order() {
        let payload: Vec<u8> = (1..=40).collect();
        for size in [2usize, 4, 8] {
            for chunk in 1..=11 {
                let mut carry = Carry::default();
                let mut out = Vec::new();
                for part in payload.chunks(chunk) {
                    let (first, whole) = carry.split(size, part);
                    if let Some(e) = first {
                        out.extend_from_slice(&e[..size]);
                    }
                    assert_eq!(whole.len() % size, 0, "size {size}, chunks of {chunk}");
                    out.extend_from_slice(whole);
                }
                assert_eq!(out, payload, "size {size}, chunks of {chunk}");
            }
        }
    }
}
