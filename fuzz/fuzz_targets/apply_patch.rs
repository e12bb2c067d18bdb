//! Fuzzes the apply_patch engine: `patch::parse` and `patch::apply`.
//!
//! Input: the file's content (any bytes: NUL, CR, invalid UTF-8), 0x1E
//! (ASCII record separator), then the patch text (read as UTF-8, lossily).
//! The `*** Begin Patch` envelope is added when the text lacks it, so the
//! mutator spends its time on files and hunks. Every Update's hunks are
//! applied to the content. Beyond "no panic" it checks:
//! - a file that ended with a line break still does, and one that ended
//!   without one still does unless the patch added an empty line (which
//!   ends it with the line break of the line before); when not empty;
//! - hunks of context lines only change nothing, byte for byte;
//! - the result is no larger than the content and the added lines allow;
//! - an Add's content is its lines, each with LF.
#![no_main]

use file_stores_base::Cancel;
use file_stores_store::patch::{self, FileOp, Line};
use libfuzzer_sys::fuzz_target;

const SEPARATOR: u8 = 0x1E;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |&b| b == SEPARATOR);
    let content = parts.next().unwrap_or_default();
    let text = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let text = if text.contains("*** Begin Patch") {
        text.into_owned()
    } else {
        format!("*** Begin Patch\n{text}\n*** End Patch\n")
    };
    let Ok(ops) = patch::parse(&text) else {
        return;
    };
    for op in &ops {
        match op {
            FileOp::Add { lines, .. } => {
                let bytes = op.added_content().expect("an Add has content");
                let joined: usize = lines.iter().map(|l| l.len() + 1).sum();
                assert_eq!(bytes.len(), joined);
            }
            FileOp::Delete { .. } => {}
            FileOp::Update { hunks, .. } => {
                let result = patch::apply(content, hunks, usize::MAX, None, &Cancel::new())
                    .expect("a new Cancel is never set");
                let Ok(out) = result else {
                    continue;
                };
                if !out.is_empty() && !content.is_empty() {
                    // An added empty last line in a file without a final
                    // newline reads as one (its line break is the line
                    // before's): the fuzzer's first finding, not a bug.
                    let adds_empty = hunks
                        .iter()
                        .any(|h| h.lines.iter().any(|l| *l == Line::Add(String::new())));
                    let kept = out.ends_with(b"\n") == content.ends_with(b"\n");
                    assert!(
                        kept || (adds_empty && !content.ends_with(b"\n")),
                        "the final newline changed"
                    );
                }
                let only_context = hunks
                    .iter()
                    .all(|h| h.lines.iter().all(|l| matches!(l, Line::Context(_))));
                if only_context {
                    assert_eq!(out, content, "context-only hunks changed the file");
                }
                let added: usize = hunks
                    .iter()
                    .flat_map(|h| &h.lines)
                    .map(|l| match l {
                        Line::Add(t) => t.len() + 2,
                        _ => 0,
                    })
                    .sum();
                assert!(out.len() <= content.len() + added + 2, "the result grew too much");
            }
        }
    }
});
