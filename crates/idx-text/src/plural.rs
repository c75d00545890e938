//! Counting words in messages: the one place that decides between
//! `1 byte` and `2 bytes`, and between `a` and `an`.
//!
//! Every message of the library and of the front ends that says how many
//! of something there are goes through [`count`] (or [`noun`] when the
//! number is written elsewhere), so no message says "1 bytes" or
//! "1 complete items"; every indefinite article before a phrase chosen at
//! run time goes through [`a`], so none says "a empty".
//!
//! ```
//! use idx_text::plural::{a, at_least, count};
//! assert_eq!(count(1, "byte"), "1 byte");
//! assert_eq!(count(0, "complete item"), "0 complete items");
//! assert_eq!(count(2, "entry"), "2 entries");
//! assert_eq!(at_least(1, "byte"), "at least 1 byte");
//! assert_eq!(a("empty zip archive"), "an empty zip archive");
//! assert_eq!(a("HTML page"), "an HTML page");
//! ```

/// The noun phrase for `n` things: the last word pluralised unless `n` is 1.
///
/// English plurals of the words the tools use: `-s` by default, `-es` after
/// `s`, `x`, `z`, `ch` and `sh`, `-ies` after a consonant and `y`. Words
/// that do not change (`info`, `NaN`) or are irregular are given whole to
/// [`count_as`].
pub fn noun(n: u64, phrase: &str) -> String {
    if n == 1 {
        return phrase.to_string();
    }
    let (head, last) = match phrase.rfind(' ') {
        Some(i) => phrase.split_at(i + 1),
        None => ("", phrase),
    };
    let lower = last.to_ascii_lowercase();
    let plural = if lower.ends_with('s')
        || lower.ends_with('x')
        || lower.ends_with('z')
        || lower.ends_with("ch")
        || lower.ends_with("sh")
    {
        format!("{last}es")
    } else if lower.ends_with('y')
        && !lower[..lower.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u'])
        && lower.len() > 1
    {
        format!("{}ies", &last[..last.len() - 1])
    } else {
        format!("{last}s")
    };
    format!("{head}{plural}")
}

/// `1 byte`, `0 bytes`, `2 complete items`, `3 entries`.
pub fn count(n: u64, phrase: &str) -> String {
    format!("{n} {}", noun(n, phrase))
}

/// `count` with the forms given: `count_as(2, "info", "infos")`.
pub fn count_as(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `at least 1 byte`, `at least 4096 bytes`: a lower bound, for counts
/// that stopped before the end of an endless or very long input.
pub fn at_least(n: u64, phrase: &str) -> String {
    format!("at least {}", count(n, phrase))
}

/// `is` or `are` for `n` things (`1 byte follows`, `2 bytes follow`: pass
/// the two verb forms).
pub fn verb<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The indefinite article for a phrase: `an` before a vowel sound.
///
/// Vowel letters give `an` (`an empty`, `an xz`-style initialisms aside),
/// except `u` sounded "you" (`a u8`, `a unit`) and `one`; an initialism
/// (a word in capitals, or a known lowercase one like `xz` or `npy`) is
/// read letter by letter, so `an HTML page`, `an XML document`, `an xz
/// stream`, `a NumPy file`.
pub fn article(phrase: &str) -> &'static str {
    let word = phrase.split([' ', '-', '.']).next().unwrap_or("");
    let lower = word.to_ascii_lowercase();
    let letters = word.len() >= 2 && word.chars().all(|c| c.is_ascii_uppercase())
        || ["xz", "npy", "gz", "lz4", "bz2"].contains(&lower.as_str());
    let Some(first) = lower.chars().next() else {
        return "a";
    };
    let vowel_sound = if letters {
        // letter names that start with a vowel sound
        "aefhilmnorsx".contains(first)
    } else if first == 'u' {
        // "un-", "us-" words start with a vowel; "u8", "uni", "use" do not
        !(lower.len() < 3
            || lower.starts_with("uni")
            || lower.starts_with("use")
            || lower.starts_with("usu")
            || lower.chars().nth(1).is_some_and(|c| c.is_ascii_digit()))
    } else if lower.starts_with("one") {
        false
    } else {
        "aeio".contains(first) || lower.starts_with("hour")
    };
    if vowel_sound {
        "an"
    } else {
        "a"
    }
}

/// The phrase with its indefinite article: `an empty zip archive`.
pub fn a(phrase: &str) -> String {
    format!("{} {phrase}", article(phrase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_in_number() {
        for (n, phrase, want) in [
            (0, "byte", "0 bytes"),
            (1, "byte", "1 byte"),
            (2, "byte", "2 bytes"),
            (1, "complete item", "1 complete item"),
            (7, "complete item", "7 complete items"),
            (1, "more byte", "1 more byte"),
            (9, "more byte", "9 more bytes"),
            (2, "entry", "2 entries"),
            (2, "key", "2 keys"),
            (2, "match", "2 matches"),
            (2, "box", "2 boxes"),
            (2, "NaN value", "2 NaN values"),
            (1, "file", "1 file"),
            (3, "file", "3 files"),
            (u64::MAX, "element", "18446744073709551615 elements"),
        ] {
            assert_eq!(count(n, phrase), want);
        }
        assert_eq!(count_as(1, "info", "infos"), "1 info");
        assert_eq!(count_as(2, "datum", "data"), "2 data");
        assert_eq!(at_least(1, "byte"), "at least 1 byte");
        assert_eq!(at_least(5, "byte"), "at least 5 bytes");
        assert_eq!(verb(1, "follows", "follow"), "follows");
        assert_eq!(verb(0, "follows", "follow"), "follow");
    }

    #[test]
    fn articles_follow_the_sound() {
        for (phrase, want) in [
            ("empty zip archive", "an empty zip archive"),
            ("zip archive", "a zip archive"),
            ("zip archive (spanned)", "a zip archive (spanned)"),
            ("xz stream", "an xz stream"),
            ("zstd stream", "a zstd stream"),
            ("bzip2 stream", "a bzip2 stream"),
            ("HTML page", "an HTML page"),
            ("XML document", "an XML document"),
            ("NumPy file", "a NumPy file"),
            ("npy file", "an npy file"),
            ("u8 file", "a u8 file"),
            ("unknown type", "an unknown type"),
            ("uniform value", "a uniform value"),
            ("one-byte file", "a one-byte file"),
            ("invalid file", "an invalid file"),
            ("IDX file", "an IDX file"),
            ("Git LFS pointer", "a Git LFS pointer"),
            ("", "a "),
        ] {
            assert_eq!(a(phrase), want, "{phrase:?}");
        }
    }
}
