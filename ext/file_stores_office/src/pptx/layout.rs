//! Which levels of a slide layout's placeholders are bulleted.
//!
//! A body placeholder's paragraphs take their bullets from the layout's
//! placeholder of the same `idx` (or type), and from the master's body
//! style past that. Masters bullet body text, so only the layout is read:
//! it is where "Section Header" or "Comparison" turn bullets off
//! (`a:lvl1pPr` with `a:buNone` in the placeholder's `a:lstStyle`).

use std::collections::HashMap;

use quick_xml::events::Event;

use crate::xml::{self, Element};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

/// One placeholder of a layout: its type and index, and per level whether
/// its list style bullets paragraphs (`None`: it does not say).
#[derive(Debug, Default, Clone)]
struct Placeholder {
    kind: Option<String>,
    idx: Option<String>,
    levels: [Option<bool>; 9],
}

/// The placeholders of a slide layout, found by index and by type (the
/// first of each, as a linear search would; a hostile layout can hold
/// thousands, and every slide paragraph asks).
#[derive(Debug, Default)]
pub struct Layout {
    placeholders: Vec<Placeholder>,
    by_idx: HashMap<String, usize>,
    by_kind: HashMap<String, usize>,
}

impl Layout {
    /// Whether the layout bullets `level` of the slide placeholder with this
    /// type and index; `None` when it does not say.
    pub fn bulleted(&self, kind: Option<&str>, idx: Option<&str>, level: usize) -> Option<bool> {
        let found = idx
            .and_then(|i| self.by_idx.get(i))
            .or_else(|| self.by_kind.get(kind.unwrap_or("obj")))?;
        self.placeholders[*found]
            .levels
            .get(level)
            .copied()
            .flatten()
    }

    fn push(&mut self, placeholder: Placeholder) {
        let index = self.placeholders.len();
        if let Some(idx) = &placeholder.idx {
            self.by_idx.entry(idx.clone()).or_insert(index);
        }
        let kind = placeholder.kind.as_deref().unwrap_or("obj");
        self.by_kind.entry(kind.to_owned()).or_insert(index);
        self.placeholders.push(placeholder);
    }
}

/// Reads a layout part's placeholders and their list styles.
pub fn read(bytes: &[u8], part: &str, cancel: &Cancel) -> Result<Layout> {
    let mut layout = Layout::default();
    let mut reader = xml::reader(bytes);
    let mut current: Option<Placeholder> = None;
    let (mut depth, mut in_list_style) = (0u32, false);
    let mut level: Option<usize> = None;
    let mut progress = xml::Progress::new(cancel);
    let mut position = 0;
    loop {
        progress.read(&reader, &mut position)?;
        let event = reader.read_event().map_err(|e| xml::error(part, e))?;
        match event {
            Event::Start(ref s) | Event::Empty(ref s) => {
                let is_start = matches!(event, Event::Start(_));
                let e = Element(s);
                let name = e.name();
                match name {
                    b"sp" if is_start => {
                        depth += 1;
                        if depth == 1 {
                            current = Some(Placeholder::default());
                        }
                    }
                    b"ph" => {
                        if let Some(p) = current.as_mut() {
                            p.kind = e.attr(b"type");
                            p.idx = e.attr(b"idx");
                        }
                    }
                    b"lstStyle" if is_start => in_list_style = true,
                    b"buNone" | b"buChar" | b"buAutoNum" | b"buBlip" if in_list_style => {
                        if let (Some(p), Some(l)) = (current.as_mut(), level) {
                            p.levels[l] = Some(name != b"buNone");
                        }
                    }
                    _ if in_list_style && is_start => level = list_level(name).or(level),
                    _ => {}
                }
            }
            Event::End(ref e) => match xml::local(e.name().0) {
                b"sp" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if let Some(p) = current
                            .take()
                            .filter(|p| p.kind.is_some() || p.idx.is_some())
                        {
                            layout.push(p);
                        }
                    }
                }
                b"lstStyle" => in_list_style = false,
                name if list_level(name).is_some() => level = None,
                _ => {}
            },
            Event::Eof => return Ok(layout),
            _ => {}
        }
    }
}

/// `lvl3pPr` → level 2.
fn list_level(name: &[u8]) -> Option<usize> {
    let digit = name.strip_prefix(b"lvl")?.strip_suffix(b"pPr")?;
    match digit {
        [d @ b'1'..=b'9'] => Some(usize::from(d - b'1')),
        _ => None,
    }
}
