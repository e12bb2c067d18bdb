//! Word documents (.docx, .docm, .dotx, .dotm) to text.
//!
//! ## What comes out
//!
//! - A paragraph per line. A line break inside a paragraph (`w:br`, `w:cr`)
//!   starts a new line; `w:tab` is a tab; `w:noBreakHyphen` is `-`.
//! - Headings as Markdown headings: `Title` and `Heading 1` are `#`,
//!   `Heading N` is N `#` (at most six), also for styles based on them and
//!   for `outlineLvl` N-1 in the paragraph or its style (see `styles.rs`).
//!   A numbered heading keeps Word's number: `## 1.2 Scope`.
//! - List items with the label Word shows (`1.`, `a)`, `iv.`, `1.2`...),
//!   bullets as `-`, indented two spaces per level (see `numbering.rs`).
//! - A table row per line with a tab between cells. A cell's paragraphs are
//!   joined with spaces; a cell merged into the one above (`vMerge`
//!   continuation) is empty; a cell spanning N grid columns (`gridSpan`) is
//!   its text followed by N-1 empty cells, so columns stay aligned. A table
//!   inside a cell is flattened into that cell's text, its cells and rows
//!   separated by spaces.
//! - Text in hyperlinks, content controls, smart tags, custom XML, field
//!   results (the instruction of a complex field is dropped) and text boxes
//!   (their paragraphs follow the paragraph that anchors them).
//! - Tracked changes as accepted: insertions kept, deletions and moved-away
//!   text dropped, as are deleted table rows and paragraphs deleted with
//!   their paragraph mark. Of an `mc:AlternateContent`, the first
//!   `mc:Choice` is read (or `mc:Fallback` when there is no Choice), never
//!   both.
//! - Footnotes and endnotes after the body, after one blank line, one per
//!   line, numbered in order of first reference the way Word shows them:
//!   footnotes `1, 2, 3`, endnotes `i, ii, iii`. The reference reads `[^1]`
//!   in the text and the note `[^1]: text`; a note's further paragraphs are
//!   indented four spaces (Markdown footnotes). Separator notes are skipped
//!   (see `notes.rs`).
//!
//! Not read: headers and footers, comments, hidden-text formatting
//! (`w:vanish` text is kept), hyperlink targets, images and charts.
//!
//! Lines lose their trailing whitespace (so a row's empty last cells too);
//! runs of empty lines (empty paragraphs) collapse to one, and there is none
//! at the start or end. The text ends with one newline, unless it is empty.
//!
//! ## How
//!
//! The package relationships give the main part (Strict OOXML's relationship
//! URIs too); its own relationships give styles, numbering, footnotes and
//! endnotes. Elements are matched by local name, so `w:`, `ns0:` and Strict
//! namespaces read the same. The document is read in one streaming pass
//! (`body.rs`) with an explicit stack, never recursion; nesting deeper than
//! [`MAX_DEPTH`] is refused, and the text is bounded by
//! [`Limits::max_output`] as it grows.

mod body;
mod notes;
mod numbering;
mod paragraph;
mod styles;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_limits;
#[cfg(test)]
mod tests_lists;

use quick_xml::events::Event;

use crate::archive::{Archive, Limits, Relationship};
use crate::xml::{self, Element};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

use body::Converter;
use notes::NoteKind;
use numbering::Numbering;
use styles::Styles;

/// The deepest element nesting accepted; real documents stay far below.
pub const MAX_DEPTH: usize = 10_000;

const DEFAULT_MAIN: &str = "word/document.xml";

/// Converts a Word file's bytes to text (see the module documentation).
pub fn to_text(bytes: &[u8], limits: Limits, cancel: &Cancel) -> Result<String> {
    from_archive(&mut Archive::open(bytes, limits, cancel)?)
}

/// The same from an archive already open, so a conversion opens its file
/// once (the open reads the whole zip directory).
pub fn from_archive(archive: &mut Archive<'_>) -> Result<String> {
    let limits = archive.limits();
    let cancel = archive.cancel();
    let (main, document) = main_part(archive)?;
    let rels = archive.relationships(&main)?;
    let dir = main.rfind('/').map_or("", |i| &main[..=i]).to_owned();
    let styles = match related(archive, &rels, &dir, "styles", "styles.xml")? {
        Some((part, bytes)) => Styles::parse(&bytes, &part, cancel)?,
        None => Styles::default(),
    };
    let mut numbering = match related(archive, &rels, &dir, "numbering", "numbering.xml")? {
        Some((part, bytes)) => Numbering::parse(&bytes, &part, cancel)?,
        None => Numbering::default(),
    };
    numbering.link_styles(&styles);
    let mut converter = Converter::new(&styles, &mut numbering, limits, cancel);
    let mut lines = converter.document(&document, &main)?;
    drop(document);
    let mut notes = Vec::new();
    for kind in [NoteKind::Foot, NoteKind::End] {
        let (rel, default) = match kind {
            NoteKind::Foot => ("footnotes", "footnotes.xml"),
            NoteKind::End => ("endnotes", "endnotes.xml"),
        };
        if let Some((part, bytes)) = related(archive, &rels, &dir, rel, default)? {
            notes.extend(converter.notes(&bytes, &part, kind)?);
        }
    }
    if !notes.is_empty() {
        lines.push(String::new());
        lines.extend(notes);
    }
    if let Some(note) = archive.repair_note() {
        lines.push(String::new());
        lines.push(note);
    }
    Ok(finish(&lines))
}

/// The main document part, named by the package relationships, else the
/// usual `word/document.xml`.
fn main_part(archive: &mut Archive) -> Result<(String, Vec<u8>)> {
    let rels = archive.relationships("")?;
    let named = rels
        .iter()
        .find(|r| r.is("officeDocument") && !r.external)
        .map(|r| r.target.clone());
    for part in named.into_iter().chain([DEFAULT_MAIN.to_owned()]) {
        if let Some(bytes) = archive.read(&part)? {
            return Ok((part, bytes));
        }
    }
    Err(Error::conversion(
        "the archive has no main document part (word/document.xml), so it is not a complete Word file",
    ))
}

/// A part related to the main part by type, else by its usual name next to
/// it; `None` when there is none.
fn related(
    archive: &mut Archive,
    rels: &[Relationship],
    dir: &str,
    kind: &str,
    default: &str,
) -> Result<Option<(String, Vec<u8>)>> {
    let part = rels
        .iter()
        .find(|r| r.is(kind) && !r.external)
        .map_or_else(|| format!("{dir}{default}"), |r| r.target.clone());
    Ok(archive.read(&part)?.map(|bytes| (part, bytes)))
}

/// Joins the blocks into the final text: trailing whitespace trimmed, empty
/// lines collapsed, one final newline.
fn finish(blocks: &[String]) -> String {
    let mut out = String::new();
    let mut blank = false;
    for line in blocks.iter().flat_map(|b| b.split('\n')) {
        let line = line.trim_end();
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push('\n');
            blank = false;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Whether the innermost ancestors of an element are `names` (outermost
/// first), by local name.
pub(super) fn under(path: &[Vec<u8>], names: &[&[u8]]) -> bool {
    path.len() >= names.len()
        && path[path.len() - names.len()..]
            .iter()
            .zip(names)
            .all(|(a, b)| a.as_slice() == *b)
}

/// The error for a part nested past [`MAX_DEPTH`].
pub(super) fn too_deep(part: &str) -> Error {
    Error::conversion(format!(
        "part {part} nests elements more than {MAX_DEPTH} deep, which no real document does"
    ))
}

/// Calls `f` with every start and empty element of a small part (styles,
/// numbering) and the local names of its open ancestors.
pub(super) fn walk(
    bytes: &[u8],
    part: &str,
    cancel: &Cancel,
    mut f: impl FnMut(&[Vec<u8>], &Element<'_, '_>) -> Result<()>,
) -> Result<()> {
    let mut reader = xml::reader(bytes);
    let mut path: Vec<Vec<u8>> = Vec::new();
    let mut progress = xml::Progress::new(cancel);
    let mut position = 0;
    loop {
        progress.read(&reader, &mut position)?;
        match reader.read_event().map_err(|e| xml::error(part, e))? {
            Event::Start(e) => {
                let element = Element(&e);
                f(&path, &element)?;
                if path.len() >= MAX_DEPTH {
                    return Err(too_deep(part));
                }
                path.push(element.name().to_vec());
            }
            Event::Empty(e) => f(&path, &Element(&e))?,
            Event::End(_) => {
                path.pop();
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}
