//! The one terminal escaper, and GitHub's workflow-command escapes.

use std::borrow::Cow;
use std::path::Path;

/// True for a character that must not reach a terminal as itself: a
/// control character (C0, DEL, C1: newlines, ESC and so every escape
/// sequence) or a bidirectional formatting character (U+202A-U+202E,
/// U+2066-U+2069, U+200E, U+200F, U+061C), which can make a name read as
/// another.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'
        )
}

/// `s` for a terminal: every [`is_unsafe`] character written as a Rust
/// escape (`\n`, `\u{1b}`, `\u{202e}`), everything else unchanged.
pub fn text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            o.extend(c.escape_default());
        } else {
            o.push(c);
        }
    }
    Cow::Owned(o)
}

/// A path for a terminal: [`text`] of its UTF-8 parts, and every byte that
/// is not valid UTF-8 (Unix file names are bytes) as `\xNN`.
pub fn path(p: &Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        bytes(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        text(&p.to_string_lossy()).into_owned()
    }
}

/// Bytes for a terminal: valid UTF-8 runs through [`text`], other bytes as
/// `\xNN`.
pub fn bytes(mut b: &[u8]) -> String {
    let mut o = String::with_capacity(b.len());
    loop {
        match std::str::from_utf8(b) {
            Ok(s) => {
                o.push_str(&text(s));
                return o;
            }
            Err(e) => {
                let (good, rest) = b.split_at(e.valid_up_to());
                // the prefix was just checked
                o.push_str(&text(std::str::from_utf8(good).unwrap_or_default()));
                let bad = e.error_len().unwrap_or(rest.len());
                for x in &rest[..bad] {
                    o.push_str(&format!("\\x{x:02x}"));
                }
                b = &rest[bad..];
            }
        }
    }
}

/// JSON text for a terminal: every [`is_unsafe`] character a JSON
/// serialiser leaves as itself (DEL, the C1 controls, bidirectional
/// formatting characters) written as a `\uXXXX` escape, which a JSON
/// parser decodes back to the same character: every value is unchanged (a
/// file name stays the name as given) and nothing in the text is
/// interpreted by a terminal. `json` must be JSON text: such a character
/// can then only stand inside a string, where the escape is valid (each
/// lies in the Basic Multilingual Plane). C0 controls are left alone: a
/// serialiser escapes them inside strings, and outside they are the
/// whitespace between tokens.
pub fn json(json: &str) -> Cow<'_, str> {
    let raw = |c: char| c >= '\u{7f}' && is_unsafe(c);
    if !json.chars().any(raw) {
        return Cow::Borrowed(json);
    }
    let mut o = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if raw(c) {
            o.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            o.push(c);
        }
    }
    Cow::Owned(o)
}

/// The data of a GitHub workflow command (`::error ...::DATA`), as the
/// runner decodes it: `%` `\r` `\n` as `%25` `%0D` `%0A`; any other
/// [`is_unsafe`] character, which the runner has no escape for, as a Rust
/// escape (the log is shown on terminals too).
pub fn github_data(s: &str) -> String {
    github(s, false)
}

/// A property of a GitHub workflow command (`file=`, `title=`): as
/// [`github_data`], and `:` `,` as `%3A` `%2C`.
pub fn github_property(s: &str) -> String {
    github(s, true)
}

/// True when the runner can carry `s` exactly as a property: no character
/// outside its escapes that [`is_unsafe`] refuses. A file name that fails
/// this cannot be named in `file=` (the escaped text would name another
/// file), so the annotation is written without it.
pub fn github_can_carry(s: &str) -> bool {
    !s.chars().any(|c| is_unsafe(c) && !matches!(c, '\r' | '\n'))
}

fn github(s: &str, property: bool) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => o.push_str("%25"),
            '\r' => o.push_str("%0D"),
            '\n' => o.push_str("%0A"),
            ':' if property => o.push_str("%3A"),
            ',' if property => o.push_str("%2C"),
            c if is_unsafe(c) => o.extend(c.escape_default()),
            c => o.push(c),
        }
    }
    o
}

/// True for a command-line error that quotes what the user gave (a usage
/// error), to be shown through [`clap_values`] and [`clap_text`]; false for
/// `--help`, `--version` and the help a missing subcommand prints, which
/// quote nothing and print as clap styles them.
pub fn quotes_input(e: &clap::Error) -> bool {
    e.use_stderr() && e.kind() != clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
}

/// A command-line usage error with every value the user gave (an
/// argument's value, an unknown argument, a subcommand) run through
/// [`text`], so that a value holding an escape sequence or a line break is
/// shown, not obeyed, however the error is printed. Show it with
/// [`clap_text`].
///
/// ```
/// use clap::Parser;
/// #[derive(Parser, Debug)]
/// struct Cli {
///     #[arg(long)]
///     max: u32,
/// }
/// let e = Cli::try_parse_from(["prog", "--max", "1\u{1b}[31m\nerror: forged"]).unwrap_err();
/// let shown = idx_io::escape::clap_text(&idx_io::escape::clap_values(e));
/// assert!(shown.contains(r"invalid value '1\u{1b}[31m\nerror: forged'"), "{shown}");
/// assert!(!shown.contains('\u{1b}') && !shown.contains("\nerror: forged"));
/// ```
pub fn clap_values(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let escaped: Vec<_> = e
        .context()
        .filter_map(|(kind, v)| match v {
            ContextValue::String(s) if s.chars().any(is_unsafe) => {
                Some((kind, ContextValue::String(text(s).into_owned())))
            }
            ContextValue::Strings(v) if v.iter().any(|s| s.chars().any(is_unsafe)) => Some((
                kind,
                ContextValue::Strings(v.iter().map(|s| text(s).into_owned()).collect()),
            )),
            // clap's tips quote the value too ("to pass '--x' as a value");
            // their styling is dropped (the text is shown unstyled). The
            // usage is the command's own, lines and all.
            ContextValue::StyledStr(_) if kind == ContextKind::Usage => None,
            ContextValue::StyledStr(s) => Some((kind, ContextValue::StyledStr(unstyled(s)))),
            ContextValue::StyledStrs(v) => Some((
                kind,
                ContextValue::StyledStrs(v.iter().map(unstyled).collect()),
            )),
            _ => None,
        })
        .collect();
    for (kind, v) in escaped {
        e.insert(kind, v);
    }
    e
}

/// A piece of clap's styled text, unstyled and run through [`text`].
fn unstyled(s: &clap::builder::StyledStr) -> clap::builder::StyledStr {
    text(&s.to_string()).into_owned().into()
}

/// A usage error's text for a terminal, unstyled: clap's lines, each run
/// through [`text`] (a control character a value parser's own message
/// quoted among them); the values given are escaped by [`clap_values`].
pub fn clap_text(e: &clap::Error) -> String {
    let shown = e.render().to_string();
    let lines: Vec<Cow<'_, str>> = shown.split('\n').map(text).collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_escaped_the_rest_kept() {
        assert_eq!(
            text("a\u{1b}[31mb\nc\u{202e}d\u{7f}é"),
            "a\\u{1b}[31mb\\nc\\u{202e}d\\u{7f}é"
        );
        assert!(matches!(text("plain é.idx"), Cow::Borrowed(_)));
        assert_eq!(text("\u{2066}x\u{200f}"), "\\u{2066}x\\u{200f}");
    }

    #[test]
    fn invalid_utf8_bytes_are_hex() {
        assert_eq!(bytes(b"a\xffb\x1b\xc3\xa9"), "a\\xffb\\u{1b}é");
        assert_eq!(bytes(b"\xe2\x80"), "\\xe2\\x80");
    }

    #[cfg(unix)]
    #[test]
    fn paths_keep_their_bytes_visible() {
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(b"d/\x1b]0;x\x07\xfe.idx"));
        assert_eq!(path(p), "d/\\u{1b}]0;x\\u{7}\\xfe.idx");
    }

    #[test]
    fn json_escapes_are_json_escapes_of_the_same_characters() {
        assert_eq!(
            json("{\n\t\"path\": \"a\u{202e}b\u{7f}c\u{85}d\\u001bé\"\r\n}"),
            "{\n\t\"path\": \"a\\u202eb\\u007fc\\u0085d\\u001bé\"\r\n}"
        );
        assert!(matches!(json("{\"a\": \"é\"}"), Cow::Borrowed(_)));
    }

    #[test]
    fn github_escapes_are_those_the_runner_decodes() {
        assert_eq!(github_property("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
        assert_eq!(github_data("a:b,c%d\r\n"), "a:b,c%25d%0D%0A");
        assert_eq!(github_data("x\u{1b}y"), "x\\u{1b}y");
        assert!(github_can_carry("a:b,\n%.idx"));
        assert!(!github_can_carry("a\u{1b}b"));
        assert!(!github_can_carry("a\u{202e}b"));
    }
}
