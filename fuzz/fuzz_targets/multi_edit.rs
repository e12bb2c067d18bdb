//! Fuzzes `edit::apply`.
//!
//! Input: a flags byte, then fields separated by 0x1E (ASCII record
//! separator): the content, then `old`, `new` pairs (up to 8 edits). Bit i of
//! the flags byte sets `replace_all` on edit i. Content may hold any bytes
//! (NUL, CR, invalid UTF-8). Beyond "no panic" it checks:
//! - a success counts one replacement per plain edit, at least one per
//!   `replace_all` edit;
//! - a single edit agrees with a naive reference: the text as the model
//!   reads it (CRLF as LF, each invalid UTF-8 sequence as U+FFFD, built
//!   character by character and checked against `from_utf8_lossy`), its
//!   non-overlapping left-to-right occurrences of `old` read the same way,
//!   mapped back to the content and replaced by `new` with its line breaks
//!   in the content's style: replaced, not found, or ambiguous with the
//!   right count; a single plain edit's result contains that `new`;
//! - applying the list at once equals applying the edits one at a time.
#![no_main]

use file_stores_store::edit::{apply, Edit, EditError};
use libfuzzer_sys::fuzz_target;

const SEPARATOR: u8 = 0x1E;
/// Inputs whose edits could make more than this are skipped (see below).
const MAX_LEN: usize = 64 << 10;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut fields = rest.split(|&b| b == SEPARATOR);
    let content = fields.next().unwrap_or_default();
    let mut edits = Vec::new();
    while let (Some(old), Some(new)) = (fields.next(), fields.next()) {
        if edits.len() == 8 {
            break;
        }
        let replace_all = flags & (1 << edits.len()) != 0;
        edits.push(Edit {
            old: old.to_vec(),
            new: new.to_vec(),
            replace_all,
        });
    }

    // One at a time first, to skip inputs whose edits multiply the content:
    // eight `replace_all` edits of a byte by 25 bytes grow 10 bytes to 44 MB,
    // which is slow to check but no bug of the engine's (it has no size
    // limit). The bound counts every possible match, with CRLF doubling `new`.
    let mut current = content.to_vec();
    let mut counts = Vec::new();
    let mut stepwise = None;
    for (index, edit) in edits.iter().enumerate() {
        let matches = current.len() / edit.old.len().max(1);
        if current.len() + matches * 2 * edit.new.len() > MAX_LEN {
            return;
        }
        match apply(&current, std::slice::from_ref(edit)) {
            Ok((next, count)) => {
                current = next;
                counts.extend(count);
            }
            Err(e) => {
                stepwise = Some(Err(reindex(e, index)));
                break;
            }
        }
    }
    let stepwise = stepwise.unwrap_or(Ok((current, counts)));

    let result = apply(content, &edits);
    if let Ok((_, counts)) = &result {
        assert_eq!(counts.len(), edits.len());
        for (edit, &count) in edits.iter().zip(counts) {
            assert!(count >= 1);
            assert!(edit.replace_all || count == 1);
        }
    }
    if let [edit] = edits.as_slice() {
        check_single(content, edit, &result);
    }
    // All at once equals one at a time.
    assert_eq!(result, stepwise);
});

fn check_single(content: &[u8], edit: &Edit, result: &Result<(Vec<u8>, Vec<usize>), EditError>) {
    if edit.old.is_empty() {
        assert_eq!(*result, Err(EditError::EmptyOld { index: 0 }));
        return;
    }
    let (view, map) = view_of(content);
    let (old, _) = view_of(&edit.old);
    if old.is_empty() {
        return; // cannot happen: a non-empty old reads as something
    }
    let starts = occurrences(&view, &old);
    if starts.is_empty() {
        assert_eq!(*result, Err(EditError::NotFound { index: 0 }));
        return;
    }
    if !edit.replace_all && starts.len() > 1 {
        let count = starts.len();
        assert_eq!(*result, Err(EditError::Ambiguous { index: 0, count }));
        return;
    }
    let new = styled(&edit.new, content);
    let mut expected = Vec::new();
    let mut last = 0;
    for &start in &starts {
        let (from, to) = (map[start], map[start + old.len()]);
        expected.extend_from_slice(&content[last..from]);
        expected.extend_from_slice(&new);
        last = to;
    }
    expected.extend_from_slice(&content[last..]);
    assert_eq!(*result, Ok((expected, vec![starts.len()])));
    if !edit.replace_all {
        let (out, _) = result.as_ref().unwrap();
        assert!(new.is_empty() || out.windows(new.len()).any(|w| w == new.as_slice()));
    }
}

/// The text as the model reads it, one character at a time, and for each of
/// its bytes (and its end) the offset in `bytes` where its character starts.
fn view_of(bytes: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let (mut text, mut map) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\r\n") {
            text.push(b'\n');
            map.push(i);
            i += 2;
            continue;
        }
        let window = &bytes[i..bytes.len().min(i + 4)];
        let (len, valid) = match std::str::from_utf8(window) {
            Ok(_) => (char_len(window[0]), true),
            Err(e) if e.valid_up_to() > 0 => (char_len(window[0]), true),
            Err(e) => (e.error_len().unwrap_or(window.len()), false),
        };
        let shown: &[u8] = if valid {
            &bytes[i..i + len]
        } else {
            "\u{FFFD}".as_bytes()
        };
        text.extend_from_slice(shown);
        map.resize(map.len() + shown.len(), i);
        i += len;
    }
    map.push(bytes.len());
    assert_eq!(
        text,
        String::from_utf8_lossy(bytes)
            .replace("\r\n", "\n")
            .as_bytes()
    );
    (text, map)
}

fn char_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// `new` with CRLF line breaks when most of the content's are CRLF, LF when
/// most are bare, as it is when it has none.
fn styled(new: &[u8], content: &[u8]) -> Vec<u8> {
    let breaks = content.iter().filter(|&&b| b == b'\n').count();
    if breaks == 0 {
        return new.to_vec();
    }
    let crlf = content.windows(2).filter(|w| *w == b"\r\n").count();
    let mut lf = Vec::new();
    let mut i = 0;
    while i < new.len() {
        if new[i..].starts_with(b"\r\n") {
            i += 1;
            continue;
        }
        lf.push(new[i]);
        i += 1;
    }
    if crlf < breaks - crlf {
        return lf;
    }
    let mut out = Vec::new();
    for b in lf {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// Non-overlapping occurrences, left to right, found the slow obvious way.
fn occurrences(haystack: &[u8], needle: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    while at + needle.len() <= haystack.len() {
        if &haystack[at..at + needle.len()] == needle {
            starts.push(at);
            at += needle.len();
        } else {
            at += 1;
        }
    }
    starts
}

fn reindex(error: EditError, index: usize) -> EditError {
    match error {
        EditError::EmptyOld { .. } => EditError::EmptyOld { index },
        EditError::NotFound { .. } => EditError::NotFound { index },
        EditError::Ambiguous { count, .. } => EditError::Ambiguous { index, count },
        EditError::TooLarge { size, .. } => EditError::TooLarge { index, size },
    }
}
