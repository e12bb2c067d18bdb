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

/// Applies `edits` to `content` in order. Returns the new content and how
/// many replacements each edit made, or the first edit that failed.
pub fn apply(content: &[u8], edits: &[Edit]) -> Result<(Vec<u8>, Vec<usize>), EditError> {
    let mut current = content.to_vec();
    let mut counts = Vec::with_capacity(edits.len());
    for (index, edit) in edits.iter().enumerate() {
        if edit.old.is_empty() {
            return Err(EditError::EmptyOld { index });
        }
        let (next, count) = match replace(&current, &edit.old, &edit.new, edit.replace_all, index)?
        {
            Some(done) => done,
            None => {
                let (old, new) = match crlf_variant(&current, edit) {
                    Some(pair) => pair,
                    None => return Err(EditError::NotFound { index }),
                };
                replace(&current, &old, &new, edit.replace_all, index)?
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
) -> Result<Option<(Vec<u8>, usize)>, EditError> {
    let finder = memmem::Finder::new(old);
    let mut starts = Vec::new();
    let mut at = 0;
    while let Some(found) = finder.find(&haystack[at..]) {
        starts.push(at + found);
        at += found + old.len(); // non-overlapping, as a replacement sees them
        if !replace_all && starts.len() > 1 {
            // Count the rest only to say how many there are.
            let more = finder.find_iter(&haystack[at..]).count();
            return Err(EditError::Ambiguous {
                index,
                count: starts.len() + more,
            });
        }
    }
    if starts.is_empty() {
        return Ok(None);
    }
    let size = (haystack.len() - starts.len() * old.len())
        .saturating_add(starts.len().saturating_mul(new.len()));
    if size > MAX_RESULT {
        return Err(EditError::TooLarge { index, size });
    }
    let mut out = Vec::with_capacity(size);
    let mut last = 0;
    for &start in &starts {
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
