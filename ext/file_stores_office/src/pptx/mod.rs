//! PowerPoint presentations (.pptx, .pptm, shows .ppsx and templates
//! .potx) to text.
//!
//! Each slide, in presentation order (`sldIdLst` in the main part, through
//! its relationships; file names say nothing about order), becomes a
//! `## Slide N` heading, `## Slide N: Title` when it has a title
//! placeholder, and `(hidden)` when it is left out of the show. Then come
//! its text frames and tables in reading order (`text.rs`), then its speaker
//! notes under a `Notes:` line. A blank line separates slides.
//!
//! Bullets are inherited the simple way: paragraphs of body and content
//! placeholders are bulleted (`- `) unless they or their slide layout's
//! placeholder say `buNone` (`layout.rs`; masters are not read, as they
//! bullet body text), and other shapes only where a paragraph has its own
//! bullet. Automatic numbers are counted per text frame
//! (`numbering.rs`).

mod layout;
mod numbering;
#[cfg(test)]
mod tests;
mod text;

use std::collections::HashMap;

use self::layout::Layout;
use self::text::{PartText, Role};
use crate::archive::{Archive, Limits, Relationship};
use crate::xlsx::rel_id;
use crate::xml;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

const DEFAULT_PRESENTATION: &str = "ppt/presentation.xml";

/// Converts a presentation's bytes to text.
pub fn to_text(bytes: &[u8], limits: Limits, cancel: &Cancel) -> Result<String> {
    from_archive(&mut Archive::open(bytes, limits, cancel)?)
}

/// The same from an archive already open, so a conversion opens its file
/// once (the open reads the whole zip directory).
pub fn from_archive(archive: &mut Archive<'_>) -> Result<String> {
    let limits = archive.limits();
    let cancel = archive.cancel();
    // Shows and templates have other main content types, but the package
    // relationship to the main part is the same.
    let main = archive
        .relationships("")?
        .into_iter()
        .find(|r| r.is("officeDocument") && !r.external)
        .map_or_else(|| DEFAULT_PRESENTATION.to_owned(), |r| r.target);
    let presentation = archive.require(&main)?;
    let mut slide_ids = Vec::new();
    xml::for_each_start(&presentation, &main, cancel, |e| {
        if e.name() == b"sldId" {
            slide_ids.push(rel_id(e.0).unwrap_or_default());
        }
        Ok(())
    })?;
    drop(presentation);
    let rels = archive.relationships(&main)?;
    let slides: HashMap<&str, &Relationship> = rels
        .iter()
        .filter(|r| r.is("slide") && !r.external)
        .rev()
        .map(|r| (r.id.as_str(), r))
        .collect();
    let max_text = limits.max_output;
    let mut out = String::new();
    let mut layouts: HashMap<String, Layout> = HashMap::new();
    // A slide part listed again (only a hostile file does) is shown once.
    let mut shown: HashMap<&str, usize> = HashMap::new();
    for (index, id) in slide_ids.iter().enumerate() {
        cancel.check()?;
        let Some(rel) = slides.get(id.as_str()).copied() else {
            continue;
        };
        if let Some(first) = shown.get(rel.target.as_str()) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!(
                "## Slide {}\n(the same slide as Slide {first}, shown above)\n",
                index + 1
            ));
            continue;
        }
        shown.insert(rel.target.as_str(), index + 1);
        let slide_part = archive.require(&rel.target)?;
        let slide_rels = archive.relationships(&rel.target)?;
        let layout_part = slide_rels
            .iter()
            .find(|r| r.is("slideLayout") && !r.external)
            .map(|r| r.target.clone());
        if let Some(part) = &layout_part {
            if !layouts.contains_key(part) {
                let layout = match archive.read(part)? {
                    Some(bytes) => layout::read(&bytes, part, cancel)?,
                    None => Layout::default(),
                };
                layouts.insert(part.clone(), layout);
            }
        }
        let layout = layout_part.as_ref().and_then(|p| layouts.get(p));
        let slide = text::read(
            &slide_part,
            &rel.target,
            Role::Slide,
            layout,
            max_text,
            cancel,
        )?;
        drop(slide_part);
        let notes = match slide_rels
            .iter()
            .find(|r| r.is("notesSlide") && !r.external)
        {
            Some(n) => match archive.read(&n.target)? {
                Some(b) => Some(text::read(
                    &b,
                    &n.target,
                    Role::Notes,
                    None,
                    max_text,
                    cancel,
                )?),
                None => None,
            },
            None => None,
        };
        if !out.is_empty() {
            out.push('\n');
        }
        write_slide(&mut out, index + 1, &slide, notes.as_ref());
        if out.len() as u64 > max_text {
            return Err(Error::conversion(format!(
                "its text is over the {} MB limit",
                max_text / (1024 * 1024)
            )));
        }
    }
    if let Some(note) = archive.repair_note() {
        out.push('\n');
        out.push_str(&note);
        out.push('\n');
    }
    Ok(out)
}

fn write_slide(out: &mut String, number: usize, slide: &PartText, notes: Option<&PartText>) {
    out.push_str(&format!("## Slide {number}"));
    if let Some(title) = &slide.title {
        out.push_str(": ");
        out.push_str(title);
    }
    if slide.hidden {
        out.push_str(" (hidden)");
    }
    out.push('\n');
    for line in &slide.lines {
        out.push_str(line);
        out.push('\n');
    }
    let Some(notes) = notes.filter(|n| !n.lines.is_empty()) else {
        return;
    };
    out.push_str("Notes:\n");
    for line in &notes.lines {
        out.push_str(line);
        out.push('\n');
    }
}
