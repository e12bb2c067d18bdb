//! The multi-edit engine: exact-text replacements applied in order, all or
//! nothing.
//!
//! Each edit replaces `old` with `new` in the result of the edits before it.
//! `old` must appear exactly once unless `replace_all` is set; an empty `old`
//! is refused. Everything outside the replaced spans stays byte for byte:
//! CRLF line endings, a BOM, a missing final newline, invalid UTF-8.
//!
//! `old` is matched against the text as the model reads it (see `View`):
//! CRLF and LF are one line break, and each invalid UTF-8 sequence is the
//! U+FFFD it is shown as. So `total: 5\n` finds both `total: 5\r\n` and
//! `total: 5\n`, and counts them as two occurrences (ambiguous, or two
//! replacements with `replace_all`), as does an invalid byte next to a real
//! U+FFFD: the model cannot tell them apart, so it is not left to chance
//! which one it edits. Line breaks in `new` are written in the file's style:
//! CRLF when most of its line breaks are CRLF, else LF.
//!
//! A file's bytes go through [`apply_to_file`]: the edits apply to its text
//! as [`crate::text`] defines it (after a byte order mark; UTF-16 and UTF-32
//! transcoded), and the result is written back in the file's encoding, with
//! its mark.

use std::borrow::Cow;

use memchr::memmem;

use file_stores_base::cancel::Cancel;

/// One replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub old: Vec<u8>,
    pub new: Vec<u8>,
    pub replace_all: bool,
}

/// Why an edit could not be applied; `index` is its position in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    EmptyOld {
        index: usize,
    },
    NotFound {
        index: usize,
    },
    Ambiguous {
        index: usize,
        count: usize,
    },
    /// The edit would make the content larger than [`MAX_RESULT`] bytes
    /// (`size`): replace_all edits that each multiply the content could
    /// otherwise grow a few bytes into gigabytes.
    TooLarge {
        index: usize,
        size: usize,
    },
}

/// The largest content an edit may produce, in bytes.
pub const MAX_RESULT: usize = 256 << 20;

/// The most bytes the new contents of one edit_file call may take together,
/// over all its files: the call holds them all until it writes, and may edit
/// up to [`MAX_EDITS`] files of up to [`MAX_RESULT`] each.
pub const MAX_CALL_RESULT: usize = 512 << 20;

/// U+FFFD, which read_file shows for each invalid UTF-8 sequence.
const REPLACEMENT: &[u8] = "\u{FFFD}".as_bytes();

/// The most edits one call may apply: each may scan and copy the whole
/// content, so the work is bounded by this many passes over it.
pub const MAX_EDITS: usize = 100;

/// What [`apply`] gives: the new content and each edit's count, or the
/// first edit that failed.
pub type Applied = Result<(Vec<u8>, Vec<usize>), EditError>;

/// Applies `edits` to `content` in order. Returns the new content and how
/// many replacements each edit made, or the first edit that failed.
pub fn apply(content: &[u8], edits: &[Edit]) -> Applied {
    match apply_cancellable(content, edits, &Cancel::new()) {
        Ok(applied) => applied,
        Err(_) => unreachable!("a new Cancel is never set"),
    }
}

/// [`apply`], checking `cancel` before each edit and between the matches
/// of one: `Err` once it is set.
pub fn apply_cancellable(
    content: &[u8],
    edits: &[Edit],
    cancel: &Cancel,
) -> file_stores_base::error::Result<Applied> {
    apply_within(content, edits, MAX_RESULT, cancel)
}

/// [`apply_cancellable`] with a smaller cap than [`MAX_RESULT`]: `max`
/// bytes (at most `MAX_RESULT`), for a caller that bounds what several
/// contents take together (edit_file's call over many files). An edit that
/// would pass it is [`EditError::TooLarge`], refused before its result is made.
pub fn apply_within(
    content: &[u8],
    edits: &[Edit],
    max: usize,
    cancel: &Cancel,
) -> file_stores_base::error::Result<Applied> {
    match run(content, edits, max.min(MAX_RESULT), cancel) {
        Ok(done) => Ok(Ok(done)),
        Err(Halt::Edit(e)) => Ok(Err(e)),
        Err(Halt::Cancelled) => Err(file_stores_base::error::Error::cancelled()),
    }
}

/// [`apply_within`] on a text file's bytes: the edits apply to its text
/// (see [`crate::text::Editable`]), and the result is the file's encoding's
/// bytes, with its mark, at most `max` of them (an edit that passes it is
/// [`EditError::TooLarge`], named by the last edit). `Err` when cancelled,
/// or for a UTF-16 or UTF-32 file whose text could not be written back as
/// it was (a conversion error saying so).
pub fn apply_to_file(
    content: &[u8],
    edits: &[Edit],
    max: usize,
    cancel: &Cancel,
) -> file_stores_base::error::Result<Applied> {
    let file = crate::text::Editable::of(content, cancel)?;
    Ok(match apply_within(&file.text, edits, max, cancel)? {
        Ok((text, counts)) => match file.encoding.encode_within(text, max.min(MAX_RESULT)) {
            Ok(bytes) => Ok((bytes, counts)),
            Err(size) => Err(EditError::TooLarge {
                index: edits.len().saturating_sub(1),
                size,
            }),
        },
        Err(e) => Err(e),
    })
}

/// Why [`run`] stopped early.
enum Halt {
    Edit(EditError),
    Cancelled,
}

impl From<EditError> for Halt {
    fn from(e: EditError) -> Self {
        Halt::Edit(e)
    }
}

/// How many matches [`replace`] finds or copies between looks at `cancel`.
const MATCHES_PER_CHECK: usize = 4096;

fn run(
    content: &[u8],
    edits: &[Edit],
    max: usize,
    cancel: &Cancel,
) -> Result<(Vec<u8>, Vec<usize>), Halt> {
    let check = || {
        if cancel.is_cancelled() {
            Err(Halt::Cancelled)
        } else {
            Ok(())
        }
    };
    let mut current = content.to_vec();
    let mut counts = Vec::with_capacity(edits.len());
    for (index, edit) in edits.iter().enumerate() {
        check()?;
        if edit.old.is_empty() {
            return Err(EditError::EmptyOld { index }.into());
        }
        let (next, count) = replace(&current, edit, index, max, &check)?;
        current = next;
        counts.push(count);
    }
    Ok((current, counts))
}

/// Replaces `edit.old` in `haystack`, matched in its [`View`].
fn replace(
    haystack: &[u8],
    edit: &Edit,
    index: usize,
    max: usize,
    check: &dyn Fn() -> Result<(), Halt>,
) -> Result<(Vec<u8>, usize), Halt> {
    let view = View::of(haystack);
    let old = View::of(&edit.old).text;
    let finder = memmem::Finder::new(&old);
    let mut bounds = Vec::new(); // start and end of each occurrence, in the view
    let mut at = 0;
    while let Some(found) = finder.find(&view.text[at..]) {
        if bounds.len() % (2 * MATCHES_PER_CHECK) == 0 {
            check()?;
        }
        bounds.push(at + found);
        at += found + old.len(); // non-overlapping, as a replacement sees them
        bounds.push(at);
        if !edit.replace_all && bounds.len() > 2 {
            // Count the rest only to say how many there are.
            let more = finder.find_iter(&view.text[at..]).count();
            return Err(EditError::Ambiguous {
                index,
                count: bounds.len() / 2 + more,
            }
            .into());
        }
    }
    if bounds.is_empty() {
        return Err(EditError::NotFound { index }.into());
    }
    let spans = view.to_original(&bounds);
    let new = in_style(&edit.new, haystack);
    let count = spans.len() / 2;
    let removed: usize = spans.chunks(2).map(|span| span[1] - span[0]).sum();
    let size = (haystack.len() - removed).saturating_add(count.saturating_mul(new.len()));
    if size > max {
        return Err(EditError::TooLarge { index, size }.into());
    }
    let mut out = Vec::with_capacity(size);
    let mut last = 0;
    for (i, span) in spans.chunks(2).enumerate() {
        if i % MATCHES_PER_CHECK == 0 {
            check()?;
        }
        out.extend_from_slice(&haystack[last..span[0]]);
        out.extend_from_slice(&new);
        last = span[1];
    }
    out.extend_from_slice(&haystack[last..]);
    Ok((out, count))
}

/// Bytes as the model reads them: CRLF as LF, and each invalid UTF-8
/// sequence as U+FFFD (one per maximal invalid part, as Ruby's `scrub` and
/// Rust's `from_utf8_lossy` do). Borrowed when that changes nothing.
struct View<'a> {
    original: &'a [u8],
    text: Cow<'a, [u8]>,
}

/// A part of the original bytes, from its offset: plain text (up to the
/// next CRLF or invalid sequence), a CRLF, or an invalid sequence.
#[derive(Clone, Copy)]
enum Piece {
    Text(usize, usize),
    LineBreak,
    Invalid(usize, usize),
}

impl Piece {
    /// Its (original, view) lengths.
    fn lengths(self) -> (usize, usize) {
        match self {
            Piece::Text(start, end) => (end - start, end - start),
            Piece::LineBreak => (2, 1),
            Piece::Invalid(start, end) => (end - start, REPLACEMENT.len()),
        }
    }
}

impl<'a> View<'a> {
    fn of(original: &'a [u8]) -> Self {
        let plain =
            memmem::find(original, b"\r\n").is_none() && std::str::from_utf8(original).is_ok();
        if plain {
            return View {
                original,
                text: Cow::Borrowed(original),
            };
        }
        let mut text = Vec::with_capacity(original.len());
        for piece in pieces(original) {
            match piece {
                Piece::Text(start, end) => text.extend_from_slice(&original[start..end]),
                Piece::LineBreak => text.push(b'\n'),
                Piece::Invalid(..) => text.extend_from_slice(REPLACEMENT),
            }
        }
        View {
            original,
            text: Cow::Owned(text),
        }
    }

    /// The original offsets of `positions` in the view, which are in order
    /// and on the boundaries of what the view shows (a match of valid UTF-8
    /// starts and ends on whole characters, and a view's line break or
    /// U+FFFD is one character).
    fn to_original(&self, positions: &[usize]) -> Vec<usize> {
        if let Cow::Borrowed(_) = self.text {
            return positions.to_vec();
        }
        let mut out = Vec::with_capacity(positions.len());
        let mut wanted = positions.iter().copied().peekable();
        let (mut original, mut view) = (0, 0);
        for piece in pieces(self.original) {
            if wanted.peek().is_none() {
                break;
            }
            let (original_len, view_len) = piece.lengths();
            while let Some(&position) = wanted.peek() {
                if position >= view + view_len {
                    break;
                }
                let inside = position - view;
                out.push(match piece {
                    Piece::Text(..) => original + inside,
                    // Mid-character positions do not occur; round down.
                    Piece::LineBreak | Piece::Invalid(..) => original,
                });
                wanted.next();
            }
            original += original_len;
            view += view_len;
        }
        out.extend(wanted.map(|_| self.original.len())); // the end of the view
        out
    }
}

/// The pieces of `bytes`, in order.
fn pieces(bytes: &[u8]) -> impl Iterator<Item = Piece> + '_ {
    let mut at = 0;
    let mut pending: Option<Piece> = None;
    std::iter::from_fn(move || {
        if let Some(piece) = pending.take() {
            return Some(piece);
        }
        if at >= bytes.len() {
            return None;
        }
        let rest = &bytes[at..];
        let (valid, invalid) = match std::str::from_utf8(rest) {
            Ok(_) => (rest.len(), 0),
            Err(e) => (
                e.valid_up_to(),
                e.error_len().unwrap_or(rest.len() - e.valid_up_to()),
            ),
        };
        let start = at;
        if valid == 0 {
            at += invalid;
            return Some(Piece::Invalid(start, at));
        }
        match memmem::find(&rest[..valid], b"\r\n") {
            Some(0) => {
                at += 2;
                Some(Piece::LineBreak)
            }
            Some(found) => {
                at += found;
                Some(Piece::Text(start, at))
            }
            None => {
                at += valid;
                if invalid > 0 {
                    pending = Some(Piece::Invalid(at, at + invalid));
                    at += invalid;
                }
                Some(Piece::Text(start, start + valid))
            }
        }
    })
}

/// `new` with its line breaks in the style of `haystack`: CRLF when most of
/// its line breaks are CRLF, LF when most are bare; as it is when
/// `haystack` has none.
fn in_style<'n>(new: &'n [u8], haystack: &[u8]) -> Cow<'n, [u8]> {
    if memchr::memchr(b'\n', new).is_none() {
        return Cow::Borrowed(new);
    }
    let breaks = memchr::memchr_iter(b'\n', haystack).count();
    if breaks == 0 {
        return Cow::Borrowed(new);
    }
    let crlf = memmem::find_iter(haystack, b"\r\n").count();
    let want_crlf = crlf >= breaks - crlf;
    let mut out = Vec::with_capacity(new.len() + new.len() / 16);
    for (i, &b) in new.iter().enumerate() {
        if b == b'\n' {
            let has_cr = i > 0 && new[i - 1] == b'\r';
            match (want_crlf, has_cr) {
                (true, false) => out.push(b'\r'),
                (false, true) => {
                    out.pop();
                }
                _ => {}
            }
        }
        out.push(b);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_apply_stops_and_a_new_one_runs() {
        let cancel = Cancel::new();
        cancel.cancel();
        let edits = [Edit {
            old: b"a".to_vec(),
            new: b"b".to_vec(),
            replace_all: true,
        }];
        assert!(apply_cancellable(b"aaa", &edits, &cancel)
            .unwrap_err()
            .is_cancelled());
        let (out, counts) = apply_cancellable(b"aaa", &edits, &Cancel::new())
            .unwrap()
            .unwrap();
        assert_eq!((out.as_slice(), counts), (&b"bbb"[..], vec![3]));
    }

    #[test]
    fn refuses_edits_that_would_grow_the_content_past_the_limit() {
        // The fuzzer's finding: replace_all edits that each multiply the
        // content grew 10 bytes into 44 MB, and could go on to gigabytes.
        let grow = Edit {
            old: b"a".to_vec(),
            new: vec![b'a'; 20],
            replace_all: true,
        };
        let edits = vec![grow; 8];
        // 10 * 20^5 = 32 MB is allowed; 10 * 20^6 = 640 MB is not.
        assert_eq!(
            apply(b"aaaaaaaaaa", &edits),
            Err(EditError::TooLarge {
                index: 5,
                size: 640_000_000
            })
        );
        assert!(apply(b"aaaaaaaaaa", &edits[..5]).is_ok());
    }

    #[test]
    fn refuses_past_a_smaller_cap_before_making_the_result() {
        let grow = all("a", "aaaa");
        let within = apply_within(b"aaaa", std::slice::from_ref(&grow), 16, &Cancel::new())
            .expect("not cancelled");
        assert_eq!(within.map(|(out, _)| out.len()), Ok(16));
        let past = apply_within(b"aaaa", &[grow.clone(), grow], 16, &Cancel::new())
            .expect("not cancelled");
        assert_eq!(past, Err(EditError::TooLarge { index: 1, size: 64 }));
        // Never more than MAX_RESULT, whatever the caller asks.
        let huge = all("a", &"a".repeat(1 << 20));
        let capped = apply_within(&vec![b'a'; 300], &[huge], usize::MAX, &Cancel::new())
            .expect("not cancelled");
        assert!(matches!(capped, Err(EditError::TooLarge { .. })));
    }

    fn e(old: &str, new: &str) -> Edit {
        Edit {
            old: old.into(),
            new: new.into(),
            replace_all: false,
        }
    }

    fn all(old: &str, new: &str) -> Edit {
        Edit {
            replace_all: true,
            ..e(old, new)
        }
    }

    #[test]
    fn applies_in_order_on_the_result_of_earlier_edits() {
        let (out, counts) = apply(
            b"def full_name\nend\n",
            &[e("full_name", "display"), e("display", "shown")],
        )
        .unwrap();
        assert_eq!(out, b"def shown\nend\n");
        assert_eq!(counts, [1, 1]);
    }

    #[test]
    fn refuses_missing_ambiguous_and_empty() {
        assert_eq!(
            apply(b"abc", &[e("a", "x"), e("zzz", "y")]),
            Err(EditError::NotFound { index: 1 })
        );
        assert_eq!(
            apply(b"a a a a", &[e("a", "x")]),
            Err(EditError::Ambiguous { index: 0, count: 4 })
        );
        assert_eq!(
            apply(b"abc", &[e("", "x")]),
            Err(EditError::EmptyOld { index: 0 })
        );
    }

    #[test]
    fn an_earlier_edit_can_remove_what_a_later_one_needs() {
        assert_eq!(
            apply(b"one two", &[e("two", "2"), e("two", "II")]),
            Err(EditError::NotFound { index: 1 })
        );
    }

    #[test]
    fn replace_all_counts_non_overlapping() {
        let (out, counts) = apply(b"aaaa", &[all("aa", "b")]).unwrap();
        assert_eq!(out, b"bb");
        assert_eq!(counts, [2]);
    }

    #[test]
    fn keeps_bytes_outside_the_spans() {
        let content = b"\xEF\xBB\xBFline one\r\nbad \xFF byte\r\nlast";
        let (out, _) = apply(content, &[e("one", "1")]).unwrap();
        assert_eq!(out, b"\xEF\xBB\xBFline 1\r\nbad \xFF byte\r\nlast");
    }

    #[test]
    fn lf_edits_apply_to_crlf_files_keeping_crlf() {
        let (out, _) = apply(b"a\r\nb\r\nc\r\n", &[e("a\nb\n", "x\ny\n")]).unwrap();
        assert_eq!(out, b"x\r\ny\r\nc\r\n");
    }

    #[test]
    fn new_line_breaks_follow_the_file() {
        // A one-line old_text whose new_text adds a line: CRLF in a CRLF file.
        let (out, _) = apply(b"a\r\nb\r\n", &[e("a", "a\nz")]).unwrap();
        assert_eq!(out, b"a\r\nz\r\nb\r\n");
        // CRLF in new_text becomes LF in an LF file.
        let (out, _) = apply(b"a\nb\n", &[e("a", "a\r\nz")]).unwrap();
        assert_eq!(out, b"a\nz\nb\n");
        // A file without line breaks takes new_text as it is.
        let (out, _) = apply(b"a b", &[e("a", "x\r\ny")]).unwrap();
        assert_eq!(out, b"x\r\ny b");
    }

    #[test]
    fn counts_matches_modulo_line_endings() {
        let (out, counts) = apply(b"x\r\nx\nx\r\n", &[all("x\n", "y\n")]).unwrap();
        assert_eq!((out.as_slice(), counts), (&b"y\r\ny\r\ny\r\n"[..], vec![3]));
        assert_eq!(
            apply(
                b"total: 5\r\nmore\ntotal: 5\n",
                &[e("total: 5\n", "total: 6\n")]
            ),
            Err(EditError::Ambiguous { index: 0, count: 2 })
        );
        // A CRLF old_text finds an LF line too.
        let (out, _) = apply(b"a\nb\n", &[e("a\r\nb", "c")]).unwrap();
        assert_eq!(out, b"c\n");
        // A match that starts with a line break takes the whole CRLF.
        let (out, _) = apply(b"a\r\nb", &[e("\nb", "")]).unwrap();
        assert_eq!(out, b"a");
    }

    #[test]
    fn an_invalid_byte_is_the_replacement_character_the_model_sees() {
        let mut both = "a\u{FFFD}b ".as_bytes().to_vec();
        both.extend_from_slice(b"a\xFFb");
        assert_eq!(
            apply(&both, &[e("a\u{FFFD}b", "c")]).map(|_| ()),
            Err(EditError::Ambiguous { index: 0, count: 2 })
        );
        let mut content = b"a\xE3\x81b \xF0\x9F\x98".to_vec();
        content.extend_from_slice("\u{FFFD}".as_bytes());
        let (out, counts) = apply(&content, &[all("\u{FFFD}", "?")]).unwrap();
        assert_eq!((out.as_slice(), counts), (&b"a?b ??"[..], vec![3]));
        let (out, _) = apply(b"keep \xFF\r\nend\r\n", &[e("\u{FFFD}\nend", "x\ny")]).unwrap();
        assert_eq!(out, b"keep x\r\ny\r\n");
    }

    #[test]
    fn edits_a_file_in_its_encoding_keeping_its_mark() {
        let cancel = Cancel::new();
        // Line 1 of a UTF-8 file with a BOM, as read_file shows it.
        let (out, _) = apply_to_file(
            b"\xEF\xBB\xBFusing System;\r\n",
            &[e("using System;", "using Sys;")],
            MAX_RESULT,
            &cancel,
        )
        .unwrap()
        .unwrap();
        assert_eq!(out, b"\xEF\xBB\xBFusing Sys;\r\n");
        // UTF-16BE: matched as text, written back as UTF-16BE.
        let wide = |s: &str| {
            let mut out = b"\xFE\xFF".to_vec();
            out.extend(s.encode_utf16().flat_map(u16::to_be_bytes));
            out
        };
        let (out, counts) = apply_to_file(
            &wide("a\r\nb\r\n"),
            &[e("a\nb", "\u{e9}\nz")],
            MAX_RESULT,
            &cancel,
        )
        .unwrap()
        .unwrap();
        assert_eq!((out, counts), (wide("\u{e9}\r\nz\r\n"), vec![1]));
        // The cap is on the bytes written: UTF-16 of "ab" is 2 + 4 bytes.
        assert_eq!(
            apply_to_file(&wide("a"), &[e("a", "ab")], 5, &cancel).unwrap(),
            Err(EditError::TooLarge { index: 0, size: 6 })
        );
        // A lone surrogate could not be written back: refused, not replaced.
        let mut lone = wide("a");
        lone.extend_from_slice(b"\xD8\x00");
        assert!(apply_to_file(&lone, &[e("a", "b")], MAX_RESULT, &cancel).is_err());
    }

    #[test]
    fn new_text_may_contain_old_text() {
        let (out, counts) = apply(b"x x", &[all("x", "xx")]).unwrap();
        assert_eq!(out, b"xx xx");
        assert_eq!(counts, [2]);
    }
}
