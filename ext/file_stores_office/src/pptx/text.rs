//! The text of one slide or notes part, in reading order.
//!
//! The shape tree is streamed once: shapes (`p:sp`) come in tree order,
//! with groups flattened simply because their shapes come in order too, and
//! tables (`a:tbl` in a `p:graphicFrame`) where they stand. The state is a
//! handful of flags and counters, never a stack that grows with the input,
//! so a deeply nested file costs no recursion. Of `mc:AlternateContent`,
//! the `mc:Choice` is read and the `mc:Fallback` (the same content for older
//! readers) skipped, so nothing is read twice.

use quick_xml::events::Event;

use super::layout::Layout;
use super::numbering::Counters;
use crate::xml::{self, Element};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// Which part is read: a slide, or a notes page (where only the notes
/// body counts, not the slide image or the page number).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Slide,
    Notes,
}

/// What a part says.
#[derive(Default, Debug)]
pub struct PartText {
    /// The title placeholder's text, on one line.
    pub title: Option<String>,
    /// Body lines: paragraphs with their labels and indents, table rows.
    pub lines: Vec<String>,
    /// The slide is hidden in a slide show (`show="0"`).
    pub hidden: bool,
}

/// How a shape's paragraphs are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// The title placeholder: taken out as the heading.
    Title,
    /// A body or content placeholder, whose paragraphs are bulleted unless
    /// they say `buNone` (the slide master's body style bullets them).
    Body,
    /// A text box or other placeholder: bullets only where a paragraph has one.
    Plain,
    /// Slide numbers, dates, footers, and on notes pages all but the notes.
    Skip,
}

/// A paragraph's own bullet, from its `a:pPr`.
#[derive(Clone, PartialEq, Eq)]
enum Bullet {
    Inherit,
    None,
    Char,
    Auto(String, u32),
}

struct Paragraph {
    level: usize,
    bullet: Bullet,
    text: String,
}

/// A table being read: finished rows, the row and cell under way.
#[derive(Default)]
struct Table {
    row: Vec<String>,
    cell: String,
    merged: bool,
}

/// Reads a slide or notes part.
pub fn read(
    bytes: &[u8],
    part: &str,
    role: Role,
    layout: Option<&Layout>,
    max_text: u64,
    cancel: &Cancel,
) -> Result<PartText> {
    let mut out = PartText::default();
    let mut reader = xml::reader(bytes);
    let mut shape_depth = 0u32;
    let mut shape = Shape::Skip;
    let mut title = String::new();
    let mut counters = Counters::default();
    let mut ph: (Option<String>, Option<String>) = (None, None);
    let mut para: Option<Paragraph> = None;
    let (mut in_ppr, mut in_text) = (false, false);
    let mut table: Option<Table> = None;
    let mut skipping = 0u32;
    let mut size = 0u64;
    let mut progress = xml::Progress::new(cancel);
    let mut position = 0;
    loop {
        progress.read(&reader, &mut position)?;
        let event = reader.read_event().map_err(|e| xml::error(part, e))?;
        if skipping > 0 {
            match event {
                Event::Start(_) => skipping += 1,
                Event::End(_) => skipping -= 1,
                Event::Eof => return Ok(out),
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(ref s) | Event::Empty(ref s) => {
                let is_start = matches!(event, Event::Start(_));
                let e = Element(s);
                match e.name() {
                    b"Fallback" if is_start => skipping = 1,
                    b"sld" => {
                        out.hidden = e.attr(b"show").is_some_and(|v| v == "0" || v == "false")
                    }
                    b"sp" if is_start => {
                        shape_depth += 1;
                        if shape_depth == 1 {
                            shape = if role == Role::Slide {
                                Shape::Plain
                            } else {
                                Shape::Skip
                            };
                            counters = Counters::default();
                            ph = (None, None);
                        }
                    }
                    b"ph" if shape_depth == 1 && para.is_none() => {
                        shape = placeholder(&e, role);
                        ph = (e.attr(b"type"), e.attr(b"idx"));
                    }
                    b"tbl" if is_start => table = Some(Table::default()),
                    b"tc" if !is_start => {
                        if let Some(t) = table.as_mut() {
                            t.row.push(String::new());
                        }
                    }
                    b"tc" => {
                        if let Some(t) = table.as_mut() {
                            t.cell.clear();
                            t.merged = [b"hMerge".as_slice(), b"vMerge"]
                                .iter()
                                .any(|a| e.attr(a).is_some_and(|v| v == "1" || v == "true"));
                        }
                    }
                    b"p" if is_start => {
                        para = Some(Paragraph {
                            level: 0,
                            bullet: Bullet::Inherit,
                            text: String::new(),
                        })
                    }
                    b"pPr" => {
                        if let Some(p) = para.as_mut() {
                            p.level = e
                                .attr(b"lvl")
                                .and_then(|l| l.trim().parse::<usize>().ok())
                                .unwrap_or(0)
                                .min(8);
                            in_ppr = is_start;
                        }
                    }
                    b"buNone" | b"buChar" | b"buBlip" | b"buAutoNum" if in_ppr => {
                        if let Some(p) = para.as_mut() {
                            p.bullet = bullet(&e);
                        }
                    }
                    b"t" if is_start && para.is_some() => in_text = true,
                    b"br" => {
                        if let Some(p) = para.as_mut() {
                            p.text.push('\n');
                        }
                    }
                    _ => {}
                }
            }
            Event::End(ref e) => match xml::local(e.name().0) {
                b"sp" => {
                    shape_depth = shape_depth.saturating_sub(1);
                    if shape_depth == 0 && shape == Shape::Title {
                        finish_title(&mut out, &mut title);
                    }
                }
                b"pPr" => in_ppr = false,
                b"t" => in_text = false,
                b"p" => {
                    let Some(p) = para.take() else { continue };
                    size += p.text.len() as u64;
                    if size > max_text {
                        return Err(Error::conversion(format!(
                            "its text is over the {} MB limit",
                            max_text / (1024 * 1024)
                        )));
                    }
                    if let Some(t) = table.as_mut() {
                        let text = one_line(&p.text);
                        if !text.is_empty() {
                            if !t.cell.is_empty() {
                                t.cell.push(' ');
                            }
                            t.cell.push_str(&text);
                        }
                    } else if shape_depth > 0 {
                        match shape {
                            Shape::Title => {
                                if !title.is_empty() {
                                    title.push(' ');
                                }
                                title.push_str(&one_line(&p.text));
                            }
                            Shape::Body | Shape::Plain => {
                                let inherited = shape == Shape::Body
                                    && layout
                                        .and_then(|l| {
                                            l.bulleted(ph.0.as_deref(), ph.1.as_deref(), p.level)
                                        })
                                        .unwrap_or(true);
                                write_paragraph(&mut out.lines, p, inherited, &mut counters)
                            }
                            Shape::Skip => {}
                        }
                    }
                }
                b"tc" => {
                    if let Some(t) = table.as_mut() {
                        let cell = if t.merged {
                            String::new()
                        } else {
                            std::mem::take(&mut t.cell)
                        };
                        t.row.push(cell);
                    }
                }
                b"tr" => {
                    if let Some(t) = table.as_mut() {
                        while t.row.last().is_some_and(String::is_empty) {
                            t.row.pop();
                        }
                        if !t.row.is_empty() {
                            out.lines.push(t.row.join("\t"));
                        }
                        t.row.clear();
                    }
                }
                b"tbl" => table = None,
                _ => {}
            },
            Event::Text(ref t) if in_text => {
                if let Some(p) = para.as_mut() {
                    p.text.push_str(&xml::text(t));
                }
            }
            Event::CData(ref t) if in_text => {
                if let Some(p) = para.as_mut() {
                    p.text.push_str(&xml::cdata(t));
                }
            }
            Event::GeneralRef(ref r) if in_text => {
                if let Some(p) = para.as_mut() {
                    p.text.extend(xml::ref_text(r));
                }
            }
            Event::Eof => return Ok(out),
            _ => {}
        }
    }
}

/// What a placeholder's type makes of its shape.
fn placeholder(e: &Element, role: Role) -> Shape {
    let kind = e.attr(b"type");
    match (role, kind.as_deref()) {
        (Role::Notes, Some("body")) => Shape::Plain,
        (Role::Notes, _) => Shape::Skip,
        (_, Some("title" | "ctrTitle")) => Shape::Title,
        // A placeholder without a type is a content ("obj") placeholder.
        (_, None | Some("body" | "obj")) => Shape::Body,
        (_, Some("sldNum" | "dt" | "ftr" | "hdr" | "sldImg")) => Shape::Skip,
        _ => Shape::Plain,
    }
}

fn bullet(e: &Element) -> Bullet {
    match e.name() {
        b"buNone" => Bullet::None,
        b"buAutoNum" => Bullet::Auto(
            e.attr(b"type").unwrap_or_else(|| "arabicPeriod".to_owned()),
            e.attr(b"startAt")
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(1),
        ),
        _ => Bullet::Char,
    }
}

/// The first title placeholder names the slide; any other is body text.
fn finish_title(out: &mut PartText, title: &mut String) {
    let text = std::mem::take(title);
    if text.is_empty() {
        return;
    }
    if out.title.is_none() {
        out.title = Some(text);
    } else {
        out.lines.push(text);
    }
}

/// A paragraph as a line: indented two spaces per level, its bullet or
/// number (`inherited`: whether a paragraph without its own bullet has
/// one from its placeholder), its text (line breaks continue under the text, not the label).
fn write_paragraph(
    lines: &mut Vec<String>,
    p: Paragraph,
    inherited: bool,
    counters: &mut Counters,
) {
    let text = p.text.trim();
    if text.is_empty() {
        return;
    }
    let label = match &p.bullet {
        Bullet::Auto(scheme, start) => format!("{} ", counters.next(p.level, scheme, *start)),
        other => {
            counters.interrupt(p.level);
            match other {
                Bullet::Char => "- ".to_owned(),
                Bullet::Inherit if inherited => "- ".to_owned(),
                _ => String::new(),
            }
        }
    };
    let indent = "  ".repeat(p.level);
    let mut line = format!("{indent}{label}");
    let hang = " ".repeat(line.chars().count());
    for (i, part) in text.split('\n').enumerate() {
        if i > 0 {
            line.push('\n');
            line.push_str(&hang);
        }
        line.push_str(part.trim_end());
    }
    lines.push(line);
}

/// Text on one line: line breaks and tabs become spaces, runs of spaces one.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
