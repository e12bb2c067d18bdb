//! Fuzzes `edit::apply`.
//!
//! Input: a flags byte, then fields separated by 0x1E (ASCII record
//! separator): the content, then `old`, `new` pairs (up to 8 edits). Bit i of
//! the flags byte sets `replace_all` on edit i. Content may hold any bytes
//! (NUL, CR, invalid UTF-8). Beyond "no panic" it checks:
//! - a success counts one replacement per plain edit, at least one per
//!   `replace_all` edit;
//! - a single edit agrees with a naive byte-by-byte reference (non-overlapping
//!   left-to-right occurrences): replaced, not found, or ambiguous with the
//!   right count; a single plain edit's result contains `new`;
//! - applying the list at once equals applying the edits one at a time.
#![no_main]

use file_stores_core::edit::{apply, Edit, EditError};
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
    let starts = occurrences(content, &edit.old);
    if starts.is_empty() {
        // Only the CRLF retry can succeed then; what it does is the engine's
        // own business, but a success must come from CRLF content.
        if result.is_ok() {
            assert!(content.windows(2).any(|w| w == b"\r\n"));
        }
        return;
    }
    if !edit.replace_all && starts.len() > 1 {
        let count = starts.len();
        assert_eq!(*result, Err(EditError::Ambiguous { index: 0, count }));
        return;
    }
    let mut expected = Vec::new();
    let mut last = 0;
    for &start in &starts {
        expected.extend_from_slice(&content[last..start]);
        expected.extend_from_slice(&edit.new);
        last = start + edit.old.len();
    }
    expected.extend_from_slice(&content[last..]);
    assert_eq!(*result, Ok((expected, vec![starts.len()])));
    if !edit.replace_all {
        let (out, _) = result.as_ref().unwrap();
        assert!(edit.new.is_empty() || out.windows(edit.new.len()).any(|w| w == edit.new));
    }
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
