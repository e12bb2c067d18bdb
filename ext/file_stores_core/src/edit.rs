//! The multi-edit engine: exact-text replacements applied in order, all or
//! nothing.
//!
//! Each edit replaces `old` with `new` in the result of the edits before it.
//! `old` must appear exactly once unless `replace_all` is set; an empty `old`
//! is refused. The engine works on bytes, so everything outside the replaced
//! spans stays byte for byte: CRLF line endings, a BOM, a missing final
//! newline, invalid UTF-8.
//!
//! Models write `\n` line endings. When `old` (with `\n` but no `\r\n`) does
//! not appear in a file that uses CRLF, the edit is tried again with both
//! `old` and `new` turned to CRLF, so an edit of a Windows file keeps its line
//! endings.

use memchr::memmem;

use crate::cancel::Cancel;

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
) -> crate::error::Result<Applied> {
    match run(content, edits, cancel) {
        Ok(done) => Ok(Ok(done)),
        Err(Halt::Edit(e)) => Ok(Err(e)),
        Err(Halt::Cancelled) => Err(crate::error::Error::cancelled()),
    }
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

fn run(content: &[u8], edits: &[Edit], cancel: &Cancel) -> Result<(Vec<u8>, Vec<usize>), Halt> {
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
        let (next, count) = match replace(
            &current,
            &edit.old,
            &edit.new,
            edit.replace_all,
            index,
            &check,
        )? {
            Some(done) => done,
            None => {
                let (old, new) = match crlf_variant(&current, edit) {
                    Some(pair) => pair,
                    None => return Err(EditError::NotFound { index }.into()),
                };
                replace(&current, &old, &new, edit.replace_all, index, &check)?
                    .ok_or(EditError::NotFound { index })?
            }
        };
        current = next;
        counts.push(count);
    }
    Ok((current, counts))
}

/// Replaces `old` in `haystack`: `None` when it does not appear.
fn replace(
    haystack: &[u8],
    old: &[u8],
    new: &[u8],
    replace_all: bool,
    index: usize,
    check: &dyn Fn() -> Result<(), Halt>,
) -> Result<Option<(Vec<u8>, usize)>, Halt> {
    let finder = memmem::Finder::new(old);
    let mut starts = Vec::new();
    let mut at = 0;
    while let Some(found) = finder.find(&haystack[at..]) {
        if starts.len() % MATCHES_PER_CHECK == 0 {
            check()?;
        }
        starts.push(at + found);
        at += found + old.len(); // non-overlapping, as a replacement sees them
        if !replace_all && starts.len() > 1 {
            // Count the rest only to say how many there are.
            let more = finder.find_iter(&haystack[at..]).count();
            return Err(EditError::Ambiguous {
                index,
                count: starts.len() + more,
            }
            .into());
        }
    }
    if starts.is_empty() {
        return Ok(None);
    }
    let size = (haystack.len() - starts.len() * old.len())
        .saturating_add(starts.len().saturating_mul(new.len()));
    if size > MAX_RESULT {
        return Err(EditError::TooLarge { index, size }.into());
    }
    let mut out = Vec::with_capacity(size);
    let mut last = 0;
    for (i, &start) in starts.iter().enumerate() {
        if i % MATCHES_PER_CHECK == 0 {
            check()?;
        }
        out.extend_from_slice(&haystack[last..start]);
        out.extend_from_slice(new);
        last = start + old.len();
    }
    out.extend_from_slice(&haystack[last..]);
    Ok(Some((out, starts.len())))
}

/// `old` and `new` with LF turned to CRLF, when that could be what the model
/// meant: the file uses CRLF and `old` has bare LFs only.
fn crlf_variant(haystack: &[u8], edit: &Edit) -> Option<(Vec<u8>, Vec<u8>)> {
    let has_lf = memchr::memchr(b'\n', &edit.old).is_some();
    if !has_lf
        || memmem::find(&edit.old, b"\r\n").is_some()
        || memmem::find(haystack, b"\r\n").is_none()
    {
        return None;
    }
    Some((to_crlf(&edit.old), to_crlf(&edit.new)))
}

fn to_crlf(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 16);
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' && (i == 0 || text[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
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
    fn new_text_may_contain_old_text() {
        let (out, counts) = apply(b"x x", &[all("x", "xx")]).unwrap();
        assert_eq!(out, b"xx xx");
        assert_eq!(counts, [2]);
    }
}
