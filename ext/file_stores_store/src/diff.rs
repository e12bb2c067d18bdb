//! A unified diff of two versions of a text file, for the store's history
//! (`store.diff`): what an app shows of what the model changed.
//!
//! The lines are compared with `similar`'s Myers diff under a deadline: past
//! it, `similar` gives a coarser diff (fewer, larger hunks) that is still a
//! correct one, so hostile input costs bounded time, never an unbounded
//! search. Each version is read as every store reads a text file's text
//! (`crate::text`: UTF-16 and UTF-32 with a byte order mark transcoded,
//! invalid UTF-8 replaced): the diff is for people to read, the versions'
//! bytes stay as they are.

use std::time::{Duration, Instant};

use file_stores_base::{Cancel, Error, Result};
use similar::{Algorithm, TextDiff};

/// How long the line comparison may search for the smallest diff before it
/// settles for a coarser one.
pub const DEADLINE: Duration = Duration::from_secs(2);

/// The lines of context around each change, as `diff -u` shows.
pub const CONTEXT: usize = 3;

/// The unified diff of `old` against `new`, with `old_name` and `new_name`
/// in its `---` and `+++` headers; an empty string when their text is the
/// same. Cancelled before and after the comparison.
pub fn unified(
    old: &[u8],
    new: &[u8],
    old_name: &str,
    new_name: &str,
    cancel: &Cancel,
) -> Result<String> {
    if cancel.is_cancelled() {
        return Err(Error::cancelled());
    }
    let old = crate::text::decode(old, cancel)?;
    let new = crate::text::decode(new, cancel)?;
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .deadline(Instant::now() + DEADLINE)
        .diff_lines(old.as_str(), new.as_str());
    if cancel.is_cancelled() {
        return Err(Error::cancelled());
    }
    if diff.ratio() >= 1.0 && old == new {
        return Ok(String::new());
    }
    Ok(diff
        .unified_diff()
        .context_radius(CONTEXT)
        .header(old_name, new_name)
        .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(old: &str, new: &str) -> String {
        unified(
            old.as_bytes(),
            new.as_bytes(),
            "a/notes.md",
            "b/notes.md",
            &Cancel::new(),
        )
        .unwrap_or_default()
    }

    #[test]
    fn shows_a_changed_line_with_context() {
        let out = diff("one\ntwo\nthree\n", "one\n2\nthree\n");
        assert_eq!(
            out,
            "--- a/notes.md\n+++ b/notes.md\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
        );
    }

    #[test]
    fn same_text_is_no_diff() {
        assert_eq!(diff("same\n", "same\n"), "");
    }

    #[test]
    fn a_created_file_is_all_additions() {
        assert_eq!(
            diff("", "new\n"),
            "--- a/notes.md\n+++ b/notes.md\n@@ -0,0 +1 @@\n+new\n"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced() {
        let out = unified(b"a\xff\n", b"b\n", "a", "b", &Cancel::new()).unwrap_or_default();
        assert!(out.contains("-a\u{fffd}\n"), "{out}");
    }

    #[test]
    fn utf16_and_utf32_versions_are_read_as_their_text() {
        let utf16 = |text: &str| {
            let mut bytes = vec![0xFF, 0xFE];
            bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
            bytes
        };
        let utf32 = |text: &str| {
            let mut bytes = vec![0, 0, 0xFE, 0xFF];
            bytes.extend(text.chars().flat_map(|c| u32::from(c).to_be_bytes()));
            bytes
        };
        let expected = "--- a/n.cs\n+++ b/n.cs\n@@ -1,2 +1,2 @@\n using System;\n-old\n+new\n";
        for (old, new) in [
            (utf16("using System;\nold\n"), utf16("using System;\nnew\n")),
            (utf32("using System;\nold\n"), utf32("using System;\nnew\n")),
        ] {
            let out = unified(&old, &new, "a/n.cs", "b/n.cs", &Cancel::new()).unwrap_or_default();
            assert_eq!(out, expected);
        }
    }

    #[test]
    fn a_cancelled_diff_stops() {
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(unified(b"a", b"b", "a", "b", &cancel).is_err_and(|e| e.is_cancelled()));
    }
}
