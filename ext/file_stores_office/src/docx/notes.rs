//! Footnote and endnote numbering, and the notes' lines after the body.
//!
//! Word numbers notes by their first reference, whatever their ids (Word
//! gives separators ids -1 and 0, LibreOffice 0 and 1): footnotes `1, 2, 3`,
//! endnotes `i, ii, iii` (Word's defaults). A note reads
//! `[^1]: its first paragraph`, with further paragraphs indented four
//! spaces, as Markdown footnotes are.

use std::collections::HashMap;

use super::numbering::format_number;

/// Footnotes or endnotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoteKind {
    Foot,
    End,
}

/// The notes referenced so far, in order of first reference.
#[derive(Debug, Default)]
pub(super) struct NoteRefs {
    order: Vec<String>,
    number: HashMap<String, usize>,
}

impl NoteRefs {
    /// The number Word shows for a note id (1-based, by first reference).
    pub(super) fn number(&mut self, id: &str) -> usize {
        if let Some(&n) = self.number.get(id) {
            return n;
        }
        self.order.push(id.to_owned());
        let n = self.order.len();
        self.number.insert(id.to_owned(), n);
        n
    }
}

/// The label a note number shows: `3` or, for endnotes, `iii`.
pub(super) fn note_label(kind: NoteKind, n: usize) -> String {
    match kind {
        NoteKind::Foot => n.to_string(),
        NoteKind::End => format_number(n as i64, "lowerRoman"),
    }
}

/// The lines of one notes part (`notes`: id and paragraphs, in file
/// order): referenced notes first, in order of reference, then any others,
/// numbered after them.
pub(super) fn lines(
    kind: NoteKind,
    refs: &mut NoteRefs,
    notes: Vec<(String, Vec<String>)>,
) -> Vec<String> {
    let mut by_id: HashMap<String, Vec<String>> = HashMap::new();
    let mut file_order = Vec::new();
    for (id, blocks) in notes {
        file_order.push(id.clone());
        by_id.insert(id, blocks);
    }
    // Unreferenced notes with the ids Word gives separators are treated
    // as separators even when they lack a type.
    for id in file_order {
        if !refs.number.contains_key(&id) && id != "-1" && id != "0" {
            refs.number(&id);
        }
    }
    let mut lines = Vec::new();
    for (i, id) in refs.order.iter().enumerate() {
        let Some(blocks) = by_id.remove(id) else {
            continue;
        };
        let mut paragraphs = blocks.iter().filter(|b| !b.trim().is_empty());
        let first = paragraphs.next().map_or("", |s| s.trim_start());
        lines.push(format!("[^{}]: {}", note_label(kind, i + 1), first));
        for more in paragraphs {
            lines.push(format!("    {}", more.replace('\n', "\n    ")));
        }
    }
    lines
}
