//! The MNIST naming convention of spec 6.3: what a file name such as
//! `train-images-idx3-ubyte` claims of the header (the IDX503 lint reads
//! it; idx-validate's fixes through `idx::__private`).

use crate::dtype::ElementType;

/// What an MNIST-style file name (`train-images-idx3-ubyte`,
/// `t10k-labels.idx1-ubyte.gz`, ...) says about the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameClaim {
    /// The rank after `idx`.
    pub rank: u32,
    /// The type word's element type (always set: only the six words of
    /// the convention make a claim; kept an `Option` for the API).
    pub dtype: Option<ElementType>,
    /// The word before `idx<R>` is `images` (`train-images-idx3-ubyte`):
    /// the name claims at least two dimensions, the items and each item's
    /// pixels (spec 6.3), whatever `rank` says.
    pub images: bool,
}

/// Parses the MNIST naming convention of spec 6.3 out of a file name (the
/// last path component): `<anything>[-._]idx<R>[-._]<word>`, optionally
/// followed by `.gz`, where the word is one of the six of the convention
/// (`ubyte`, `byte`, `short`, `int`, `float`, `double`). The whole name is
/// compared without regard to ASCII case (`.GZ`, `IDX3-UBYTE` too). `None`
/// when the name does not follow the convention: then it claims nothing
/// (`images.idx3.bin`, `train-idx3-images`, `x-idx3-ubytes` do not).
pub fn name_claim(file_name: &str) -> Option<NameClaim> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let lower = base.to_ascii_lowercase();
    let name = lower.strip_suffix(".gz").unwrap_or(&lower);
    let (head, word) = name.rsplit_once(['-', '.', '_'])?;
    let dtype = ElementType::ALL
        .into_iter()
        .find(|t| t.mnist_word() == word)?;
    let digits = head.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let (head, rank) = head.split_at(head.len() - digits);
    let head = head.strip_suffix("idx")?;
    if !head.ends_with(['-', '.', '_']) {
        return None;
    }
    let rank: u32 = rank.parse().ok()?;
    let role = head[..head.len() - 1].rsplit(['-', '.', '_']).next();
    Some(NameClaim {
        rank,
        dtype: Some(dtype),
        images: role == Some("images"),
    })
}

#[cfg(test)]
mod tests {
    use super::name_claim;

    #[test]
    fn the_rank_has_one_to_three_digits() {
        let rank = |name: &str| name_claim(name).map(|c| c.rank);
        assert_eq!(rank("x-idx3-ubyte"), Some(3));
        assert_eq!(rank("x-idx12-ubyte"), Some(12));
        assert_eq!(rank("x-idx255-ubyte"), Some(255));
        assert_eq!(rank("x-idx007-ubyte"), Some(7));
        // no digit, or four and more: no claim
        assert_eq!(rank("x-idx-ubyte"), None);
        assert_eq!(rank("x-idx1234-ubyte"), None);
        assert_eq!(rank("x-idx00003-ubyte"), None);
    }
}
