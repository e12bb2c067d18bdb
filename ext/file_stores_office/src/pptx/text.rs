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
    PartReader {
        part,
        role,
        layout,
        max_text,
        out: PartText::default(),
        shape_depth: 0,
        shape: Shape::Skip,
        title: String::new(),
        counters: Counters::default(),
        placeholder: (None, None),
        para: None,
        in_ppr: false,
        in_text: false,
        table: None,
        skipping: 0,
        size: 0,
    }
    .run(bytes, cancel)
}

/// The reader of one part: the state the event handlers share, as flags
/// and counters (nothing that grows with the nesting).
struct PartReader<'a> {
    part: &'a str,
    role: Role,
    layout: Option<&'a Layout>,
    max_text: u64,
    out: PartText,
    /// How many shapes (`p:sp`) the reader is in; a group's shapes come in
    /// order, so only the outermost one (depth 1) starts a shape.
    shape_depth: u32,
    /// How the current shape's paragraphs are written.
    shape: Shape,
    /// The title placeholder's text so far.
    title: String,
    /// The current shape's automatic numbers, by level.
    counters: Counters,
    /// The current shape's placeholder type and index, which find the
    /// layout's bullets for it.
    placeholder: (Option<String>, Option<String>),
    /// The paragraph being read.
    para: Option<Paragraph>,
    /// Inside the paragraph's properties (`a:pPr`), where its bullet is.
    in_ppr: bool,
    /// Inside a run's text (`a:t`).
    in_text: bool,
    /// The table being read.
    table: Option<Table>,
    /// How many elements deep inside an `mc:Fallback`, skipped.
    skipping: u32,
    /// The text read so far, held to `max_text`.
    size: u64,
}

impl PartReader<'_> {
    fn run(mut self, bytes: &[u8], cancel: &Cancel) -> Result<PartText> {
        let mut reader = xml::reader(bytes);
        let mut progress = xml::Progress::new(cancel);
        let mut position = 0;
        loop {
            progress.read(&reader, &mut position)?;
            let event = reader.read_event().map_err(|e| xml::error(self.part, e))?;
            if self.skipping > 0 {
                match event {
                    Event::Start(_) => self.skipping += 1,
                    Event::End(_) => self.skipping -= 1,
                    Event::Eof => break,
                    _ => {}
                }
                continue;
            }
            match event {
                Event::Start(ref s) => self.start(&Element(s), true),
                Event::Empty(ref s) => self.start(&Element(s), false),
                Event::End(ref e) => self.end(xml::local(e.name().0))?,
                Event::Text(ref t) if self.in_text => self.append(&xml::text(t)),
                Event::CData(ref t) if self.in_text => self.append(&xml::cdata(t)),
                Event::GeneralRef(ref r) if self.in_text => {
                    if let Some(c) = xml::ref_text(r) {
                        self.append(c.encode_utf8(&mut [0; 4]));
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(self.out)
    }

    /// An element's start (`is_start`), or an empty element.
    fn start(&mut self, e: &Element, is_start: bool) {
        match e.name() {
            b"Fallback" if is_start => self.skipping = 1,
            b"sld" => self.out.hidden = e.attr(b"show").is_some_and(|v| v == "0" || v == "false"),
            b"sp" if is_start => self.start_shape(),
            b"ph" if self.shape_depth == 1 && self.para.is_none() => {
                self.shape = placeholder(e, self.role);
                self.placeholder = (e.attr(b"type"), e.attr(b"idx"));
            }
            b"tbl" if is_start => self.table = Some(Table::default()),
            b"tc" if !is_start => {
                if let Some(t) = self.table.as_mut() {
                    t.row.push(String::new());
                }
            }
            b"tc" => {
                if let Some(t) = self.table.as_mut() {
                    t.cell.clear();
                    t.merged = [b"hMerge".as_slice(), b"vMerge"]
                        .iter()
                        .any(|a| e.attr(a).is_some_and(|v| v == "1" || v == "true"));
                }
            }
            b"p" if is_start => {
                self.para = Some(Paragraph {
                    level: 0,
                    bullet: Bullet::Inherit,
                    text: String::new(),
                })
            }
            b"pPr" => {
                if let Some(p) = self.para.as_mut() {
                    p.level = e
                        .attr(b"lvl")
                        .and_then(|l| l.trim().parse::<usize>().ok())
                        .unwrap_or(0)
                        .min(8);
                    self.in_ppr = is_start;
                }
            }
            b"buNone" | b"buChar" | b"buBlip" | b"buAutoNum" if self.in_ppr => {
                if let Some(p) = self.para.as_mut() {
                    p.bullet = bullet(e);
                }
            }
            b"t" if is_start && self.para.is_some() => self.in_text = true,
            b"br" => self.append("\n"),
            _ => {}
        }
    }

    /// A shape starts: an outermost one resets what a shape holds.
    fn start_shape(&mut self) {
        self.shape_depth += 1;
        if self.shape_depth == 1 {
            self.shape = if self.role == Role::Slide {
                Shape::Plain
            } else {
                Shape::Skip
            };
            self.counters = Counters::default();
            self.placeholder = (None, None);
        }
    }

    /// Text of the paragraph being read.
    fn append(&mut self, text: &str) {
        if let Some(p) = self.para.as_mut() {
            p.text.push_str(text);
        }
    }

    /// An element's end, by its local name.
    fn end(&mut self, name: &[u8]) -> Result<()> {
        match name {
            b"sp" => {
                self.shape_depth = self.shape_depth.saturating_sub(1);
                if self.shape_depth == 0 && self.shape == Shape::Title {
                    finish_title(&mut self.out, &mut self.title);
                }
            }
            b"pPr" => self.in_ppr = false,
            b"t" => self.in_text = false,
            b"p" => return self.end_paragraph(),
            b"tc" => self.end_cell(),
            b"tr" => self.end_row(),
            b"tbl" => self.table = None,
            _ => {}
        }
        Ok(())
    }

    /// A paragraph ends: into the table cell, the title, or the body lines.
    fn end_paragraph(&mut self) -> Result<()> {
        let Some(p) = self.para.take() else {
            return Ok(());
        };
        self.size += p.text.len() as u64;
        if self.size > self.max_text {
            return Err(Error::conversion(format!(
                "its text is over the {} MB limit",
                self.max_text / (1024 * 1024)
            )));
        }
        if let Some(t) = self.table.as_mut() {
            let text = one_line(&p.text);
            if !text.is_empty() {
                if !t.cell.is_empty() {
                    t.cell.push(' ');
                }
                t.cell.push_str(&text);
            }
        } else if self.shape_depth > 0 {
            match self.shape {
                Shape::Title => {
                    if !self.title.is_empty() {
                        self.title.push(' ');
                    }
                    self.title.push_str(&one_line(&p.text));
                }
                Shape::Body | Shape::Plain => {
                    let (kind, index) = &self.placeholder;
                    let inherited = self.shape == Shape::Body
                        && self
                            .layout
                            .and_then(|l| l.bulleted(kind.as_deref(), index.as_deref(), p.level))
                            .unwrap_or(true);
                    write_paragraph(&mut self.out.lines, p, inherited, &mut self.counters)
                }
                Shape::Skip => {}
            }
        }
        Ok(())
    }

    /// A table cell ends: merged cells are left empty.
    fn end_cell(&mut self) {
        if let Some(t) = self.table.as_mut() {
            let cell = if t.merged {
                String::new()
            } else {
                std::mem::take(&mut t.cell)
            };
            t.row.push(cell);
        }
    }

    /// A table row ends: its cells on one line, tab-separated, without
    /// trailing empty ones.
    fn end_row(&mut self) {
        if let Some(t) = self.table.as_mut() {
            while t.row.last().is_some_and(String::is_empty) {
                t.row.pop();
            }
            if !t.row.is_empty() {
                self.out.lines.push(t.row.join("\t"));
            }
            t.row.clear();
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
