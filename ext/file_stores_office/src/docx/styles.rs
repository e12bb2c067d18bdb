//! Paragraph styles (`word/styles.xml`): which styles are headings, and which
//! carry list numbering.
//!
//! A style is a heading when its name (always the English built-in name in
//! the file, whatever the user's language) is `Title` (level 1) or
//! `heading N`, or when it sets `outlineLvl` N-1; otherwise its `basedOn`
//! parent is asked, so a custom style based on Heading 2 is a level-2
//! heading. The nearest style in the chain that says something wins, and
//! `outlineLvl` 9 ("body text") says "not a heading". Markdown has six
//! levels, so headings 7 to 9 read as level 6.

use std::collections::HashMap;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

use super::{under, walk};

/// Cycles in `basedOn` are possible in a hostile file; chains stop here.
const MAX_CHAIN: usize = 64;

#[derive(Debug, Default, Clone)]
struct Style {
    /// Lower-cased.
    name: String,
    based_on: Option<String>,
    outline: Option<i64>,
    num_id: Option<i64>,
    ilvl: Option<i64>,
}

/// The styles of a document, by style id.
#[derive(Debug, Default)]
pub(super) struct Styles {
    styles: HashMap<String, Style>,
    default_paragraph: Option<String>,
}

fn int(value: Option<String>) -> Option<i64> {
    value.and_then(|v| v.trim().parse::<i64>().ok())
}

/// The heading level of a style name (or id) such as `heading 2`,
/// `Heading2` or `Title`.
fn name_level(name: &str) -> Option<usize> {
    let name = name.trim().to_ascii_lowercase();
    if name == "title" {
        return Some(1);
    }
    let n: usize = name.strip_prefix("heading")?.trim().parse().ok()?;
    (1..=9).contains(&n).then_some(n.min(6))
}

/// The heading level of an `outlineLvl` value: `Some(None)` for body text.
pub(super) fn outline_level(outline: i64) -> Option<Option<usize>> {
    match outline {
        0..=8 => Some(Some((outline as usize + 1).min(6))),
        9 => Some(None),
        _ => None,
    }
}

impl Styles {
    /// Reads `styles.xml`.
    pub fn parse(bytes: &[u8], part: &str, cancel: &Cancel) -> Result<Styles> {
        let mut styles = Styles::default();
        let mut current: Option<(String, Style)> = None;
        walk(bytes, part, cancel, |path, e| {
            match e.name() {
                b"style" => {
                    if let Some((id, style)) = current.take() {
                        styles.styles.insert(id, style);
                    }
                    let Some(id) = e.attr(b"styleId") else {
                        return Ok(());
                    };
                    let paragraph = e.attr(b"type").is_none_or(|t| t == "paragraph");
                    if paragraph && e.attr(b"default").is_some_and(|d| d == "1" || d == "true") {
                        styles.default_paragraph = Some(id.clone());
                    }
                    current = Some((id, Style::default()));
                }
                b"name" if under(path, &[b"style"]) => {
                    if let Some((_, style)) = current.as_mut() {
                        style.name = e.attr(b"val").unwrap_or_default().to_lowercase();
                    }
                }
                b"basedOn" if under(path, &[b"style"]) => {
                    if let Some((_, style)) = current.as_mut() {
                        style.based_on = e.attr(b"val");
                    }
                }
                b"outlineLvl" if under(path, &[b"style", b"pPr"]) => {
                    if let Some((_, style)) = current.as_mut() {
                        style.outline = int(e.attr(b"val"));
                    }
                }
                b"numId" if under(path, &[b"style", b"pPr", b"numPr"]) => {
                    if let Some((_, style)) = current.as_mut() {
                        style.num_id = int(e.attr(b"val"));
                    }
                }
                b"ilvl" if under(path, &[b"style", b"pPr", b"numPr"]) => {
                    if let Some((_, style)) = current.as_mut() {
                        style.ilvl = int(e.attr(b"val"));
                    }
                }
                _ => {}
            }
            Ok(())
        })?;
        if let Some((id, style)) = current {
            styles.styles.insert(id, style);
        }
        Ok(styles)
    }

    /// The style of paragraphs that name none (usually Normal).
    pub fn default_paragraph(&self) -> Option<&str> {
        self.default_paragraph.as_deref()
    }

    /// The style ids from `id` up its `basedOn` chain, with their
    /// definitions (`None` for an id the styles part does not define).
    fn chain<'s>(&'s self, id: &'s str) -> impl Iterator<Item = (&'s str, Option<&'s Style>)> {
        let mut next = Some(id);
        std::iter::from_fn(move || {
            let id = next.take()?;
            let style = self.styles.get(id);
            next = style.and_then(|s| s.based_on.as_deref());
            Some((id, style))
        })
        .take(MAX_CHAIN)
    }

    /// The Markdown heading level (1..6) of a paragraph style, if it is a
    /// heading style.
    pub fn heading_level(&self, id: &str) -> Option<usize> {
        for (id, style) in self.chain(id) {
            let Some(style) = style else {
                // Without a styles part, the built-in ids still say it.
                return name_level(id);
            };
            if let Some(level) = name_level(&style.name) {
                return Some(level);
            }
            if let Some(level) = style.outline.and_then(outline_level) {
                return level;
            }
        }
        None
    }

    /// The list numbering (`numId`, `ilvl`) a paragraph style gives, each
    /// from the nearest style in the chain that sets it.
    pub fn numbering(&self, id: &str) -> (Option<i64>, Option<i64>) {
        let mut num_id = None;
        let mut ilvl = None;
        for (_, style) in self.chain(id) {
            let Some(style) = style else { break };
            num_id = num_id.or(style.num_id);
            ilvl = ilvl.or(style.ilvl);
            if num_id.is_some() && ilvl.is_some() {
                break;
            }
        }
        (num_id, ilvl)
    }

    /// The `numId` of a (numbering) style, for `numStyleLink`.
    pub fn num_id(&self, id: &str) -> Option<i64> {
        self.numbering(id).0
    }
}
