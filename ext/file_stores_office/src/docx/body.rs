//! One streaming pass over a story (the document body, or the footnotes or
//! endnotes part), turning it into blocks of text.
//!
//! Open elements are kept on an explicit stack of [`Frame`]s, so hostile
//! nesting costs memory bounded by [`MAX_DEPTH`] and never the call stack.
//! Elements whose content is not text (properties, deletions, field
//! instructions, `mc:Fallback`...) are skipped by counting depth only.
//!
//! Text goes to the innermost open paragraph. A finished paragraph goes to
//! the innermost open "target": a table cell (its text joins the cell's),
//! another paragraph (a text box inside it: its lines follow that
//! paragraph's), or the story itself.
//!
//! Work stays in proportion to the input, whatever the nesting:
//!
//! - The text of open table cells lives in one buffer (`flat`), in document
//!   order, so a cell inside a cell inside a cell never copies its text
//!   into each enclosing cell: it is already where the outermost cell's text
//!   is. Only a cell whose enclosing target is not a cell takes its text out.
//! - A paragraph nested in [`MAX_PARAGRAPH_NESTING`] others (text boxes in
//!   tables in text boxes...; Word puts no text box inside a text box) joins
//!   the text of the one around it, so lines are not handed up through
//!   every level.
//! - Every byte of output (labels, indents and tabs too) is counted against
//!   [`Limits::max_output`] as it is made, and the cancel flag is checked by
//!   work done (bytes read and copied), not by events.

use quick_xml::events::Event;

use crate::archive::Limits;
use crate::xml::{self, Element, Progress};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

use super::notes::{self, note_label, NoteKind, NoteRefs};
use super::numbering::Numbering;
use super::paragraph::{self, int, Para};
use super::styles::Styles;
use super::{too_deep, MAX_DEPTH};

/// State shared by the stories of one document: definitions, list counters,
/// note numbers and the output budget.
pub(super) struct Converter<'a> {
    styles: &'a Styles,
    numbering: &'a mut Numbering,
    limits: Limits,
    cancel: &'a Cancel,
    footnotes: NoteRefs,
    endnotes: NoteRefs,
    /// Bytes of text taken so far, against `limits.max_output`.
    taken: u64,
}

/// The most paragraphs open one inside another (through text boxes) before
/// a deeper paragraph joins the one around it.
pub(super) const MAX_PARAGRAPH_NESTING: usize = 4;

/// A table cell; its text is `flat[start..]` while it is open.
#[derive(Debug)]
struct Cell {
    start: usize,
    /// Where the text of the outermost cell of this chain of nested cells
    /// starts: past it, a separating space is due before more text.
    base: usize,
    /// The enclosing target is a cell, so the text stays in `flat`.
    nested: bool,
    continuation: bool,
    span: usize,
}

#[derive(Debug)]
struct Row {
    /// The cells so far, separated by tabs (rows that are not in a cell).
    line: String,
    cells: usize,
    /// Where the row's text starts in `flat` (rows in a cell).
    start: usize,
    /// A tracked deletion of the whole row.
    deleted: bool,
}

enum Frame {
    Pass,
    Para(Box<Para>),
    /// A paragraph past [`MAX_PARAGRAPH_NESTING`]: its text joins the
    /// enclosing target's.
    FlatPara,
    PPr,
    NumPr,
    Row(Row),
    TrPr,
    /// The paragraph mark's run properties (`pPr/rPr`).
    MarkPr,
    Cell(Cell),
    TcPr,
    Run,
    Text,
    Alt {
        taken: bool,
    },
    Note {
        id: String,
        start: usize,
    },
}

enum Open {
    Push(Frame),
    Skip,
}

/// Elements whose whole content is not document text.
const SKIPPED: &[&[u8]] = &[
    b"del",
    b"moveFrom",
    b"delText",
    b"delInstrText",
    b"instrText",
    b"rPr",
    b"sectPr",
    b"tblPr",
    b"tblGrid",
    b"tblPrEx",
    b"sdtPr",
    b"sdtEndPr",
    b"rt",
    b"background",
    b"footnoteRef",
    b"endnoteRef",
    b"separator",
    b"continuationSeparator",
    b"fldData",
    b"extLst",
];

impl<'a> Converter<'a> {
    pub fn new(
        styles: &'a Styles,
        numbering: &'a mut Numbering,
        limits: Limits,
        cancel: &'a Cancel,
    ) -> Self {
        Converter {
            styles,
            numbering,
            limits,
            cancel,
            footnotes: NoteRefs::default(),
            endnotes: NoteRefs::default(),
            taken: 0,
        }
    }

    /// The blocks of the main document part.
    pub fn document(&mut self, bytes: &[u8], part: &str) -> Result<Vec<String>> {
        Ok(Story::new(self, part, None).run(bytes)?.0)
    }

    /// The lines of a footnotes or endnotes part: referenced notes first, in
    /// order of reference, then any others (not separators), in file order.
    pub fn notes(&mut self, bytes: &[u8], part: &str, kind: NoteKind) -> Result<Vec<String>> {
        let (_, notes) = Story::new(self, part, Some(kind)).run(bytes)?;
        let refs = match kind {
            NoteKind::Foot => &mut self.footnotes,
            NoteKind::End => &mut self.endnotes,
        };
        Ok(notes::lines(kind, refs, notes))
    }
}

/// The walk over one part.
struct Story<'c, 'a> {
    conv: &'c mut Converter<'a>,
    part: &'c str,
    notes: Option<NoteKind>,
    frames: Vec<Frame>,
    /// Indexes in `frames` of the open paragraphs and cells.
    targets: Vec<usize>,
    /// Indexes in `frames` of the open table rows.
    rows: Vec<usize>,
    /// Depth inside a skipped element (0: not skipping).
    skip: usize,
    /// Open complex fields: whether each is still in its instruction.
    fields: Vec<bool>,
    in_instruction: usize,
    out: Vec<String>,
    found_notes: Vec<(String, Vec<String>)>,
    /// The text of the open table cells (see the module documentation).
    flat: String,
    /// Open `Frame::Para`s.
    paras: usize,
    /// Open `Frame::FlatPara`s.
    flat_paras: usize,
    progress: Progress<'c>,
}

impl<'c, 'a> Story<'c, 'a> {
    fn new(conv: &'c mut Converter<'a>, part: &'c str, notes: Option<NoteKind>) -> Self {
        let cancel: &'c Cancel = conv.cancel;
        Story {
            conv,
            part,
            notes,
            frames: Vec::new(),
            targets: Vec::new(),
            rows: Vec::new(),
            skip: 0,
            fields: Vec::new(),
            in_instruction: 0,
            out: Vec::new(),
            found_notes: Vec::new(),
            flat: String::new(),
            paras: 0,
            flat_paras: 0,
            progress: Progress::new(cancel),
        }
    }

    #[allow(clippy::type_complexity)]
    fn run(mut self, bytes: &[u8]) -> Result<(Vec<String>, Vec<(String, Vec<String>)>)> {
        let mut reader = xml::reader(bytes);
        let mut position = 0;
        loop {
            self.progress.read(&reader, &mut position)?;
            match reader.read_event().map_err(|e| xml::error(self.part, e))? {
                Event::Start(e) => self.start(&Element(&e), false)?,
                Event::Empty(e) => self.start(&Element(&e), true)?,
                Event::End(_) => self.end()?,
                Event::Text(t) if self.capturing() => self.append(&xml::text(&t))?,
                Event::CData(t) if self.capturing() => self.append(&xml::cdata(&t))?,
                Event::GeneralRef(r) if self.capturing() => {
                    if let Some(c) = xml::ref_text(&r) {
                        self.append(c.encode_utf8(&mut [0; 4]))?;
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        if !self.frames.is_empty() || self.skip > 0 {
            return Err(xml::error(self.part, "the part ends inside an element"));
        }
        Ok((self.out, self.found_notes))
    }

    fn capturing(&self) -> bool {
        self.skip == 0 && matches!(self.frames.last(), Some(Frame::Text))
    }

    fn start(&mut self, e: &Element, empty: bool) -> Result<()> {
        if self.skip > 0 {
            if !empty {
                self.skip += 1;
                self.check_depth()?;
            }
            return Ok(());
        }
        match self.open(e)? {
            Open::Skip if !empty => {
                self.skip = 1;
                self.check_depth()?;
            }
            Open::Skip => {}
            Open::Push(frame) => {
                let index = self.frames.len();
                match frame {
                    Frame::Para(_) => {
                        self.targets.push(index);
                        self.paras += 1;
                    }
                    Frame::Cell(_) => self.targets.push(index),
                    Frame::Row(_) => self.rows.push(index),
                    Frame::FlatPara => {
                        self.flat_paras += 1;
                        self.flat_separator();
                    }
                    _ => {}
                }
                self.frames.push(frame);
                self.check_depth()?;
                if empty {
                    self.end()?;
                }
            }
        }
        Ok(())
    }

    fn check_depth(&self) -> Result<()> {
        if self.frames.len() + self.skip > MAX_DEPTH {
            return Err(too_deep(self.part));
        }
        Ok(())
    }

    /// What to do with an element, by its local name and its parent.
    fn open(&mut self, e: &Element) -> Result<Open> {
        let name = e.name();
        match self.frames.last_mut() {
            Some(Frame::PPr) => return Ok(self.paragraph_property(e)),
            Some(Frame::NumPr) => {
                let value = int(e.attr(b"val"));
                if let Some(p) = self.para() {
                    match name {
                        b"ilvl" => p.ilvl = value,
                        b"numId" => p.num_id = value,
                        _ => {}
                    }
                }
                return Ok(Open::Skip);
            }
            Some(Frame::TcPr) => {
                self.cell_property(e);
                return Ok(Open::Skip);
            }
            Some(Frame::TrPr) => {
                if let Some(Frame::Row(row)) = self.rows.last().map(|&i| &mut self.frames[i]) {
                    match name {
                        b"gridBefore" if row.cells == 0 => {
                            let n = int(e.attr(b"val")).unwrap_or(0).clamp(0, 64) as usize;
                            // n empty cells: the tabs between them.
                            row.line
                                .extend(std::iter::repeat_n('\t', n.saturating_sub(1)));
                            row.cells = n;
                            self.conv.taken += n as u64;
                        }
                        b"del" => row.deleted = true,
                        _ => {}
                    }
                }
                return Ok(Open::Skip);
            }
            Some(Frame::MarkPr) => {
                if matches!(name, b"del" | b"moveFrom") {
                    if let Some(p) = self.para() {
                        p.mark_deleted = true;
                    }
                }
                return Ok(Open::Skip);
            }
            Some(Frame::Alt { taken }) => match name {
                b"Choice" if !*taken => {
                    *taken = true;
                    return Ok(Open::Push(Frame::Pass));
                }
                b"Choice" | b"Fallback" if *taken => return Ok(Open::Skip),
                _ => {}
            },
            Some(Frame::Run) => {
                if let Some(open) = self.run_content(e)? {
                    return Ok(open);
                }
            }
            _ => {}
        }
        Ok(Open::Push(match name {
            b"p" if self.paras >= MAX_PARAGRAPH_NESTING => Frame::FlatPara,
            b"p" => Frame::Para(Box::default()),
            b"pPr" if matches!(self.frames.last(), Some(Frame::FlatPara)) => return Ok(Open::Skip),
            b"pPr" => Frame::PPr,
            b"tr" => Frame::Row(Row {
                line: String::new(),
                cells: 0,
                start: self.flat.len(),
                deleted: false,
            }),
            b"trPr" => Frame::TrPr,
            b"tc" => {
                let start = self.flat.len();
                let (base, nested) = match self.targets.last().map(|&i| &self.frames[i]) {
                    Some(Frame::Cell(outer)) => (outer.base, true),
                    _ => (start, false),
                };
                Frame::Cell(Cell {
                    start,
                    base,
                    nested,
                    continuation: false,
                    span: 1,
                })
            }
            b"tcPr" => Frame::TcPr,
            b"r" => Frame::Run,
            b"t" => Frame::Text,
            b"AlternateContent" => Frame::Alt { taken: false },
            b"footnote" | b"endnote" if self.notes.is_some() && self.frames.len() == 1 => {
                let kind = e.attr(b"type").unwrap_or_default();
                if matches!(
                    kind.as_str(),
                    "separator" | "continuationSeparator" | "continuationNotice"
                ) {
                    return Ok(Open::Skip);
                }
                Frame::Note {
                    id: e.attr(b"id").unwrap_or_default(),
                    start: self.out.len(),
                }
            }
            _ if SKIPPED.contains(&name) || name.ends_with(b"Change") => return Ok(Open::Skip),
            _ => Frame::Pass,
        }))
    }

    /// A child of a run that is not an ordinary element.
    fn run_content(&mut self, e: &Element) -> Result<Option<Open>> {
        match e.name() {
            b"tab" | b"ptab" => self.append("\t")?,
            b"br" | b"cr" => self.append("\n")?,
            b"noBreakHyphen" => self.append("-")?,
            b"sym" => {
                // Symbol-font characters live in the private use area and
                // mean nothing as text; others are kept.
                let c = e
                    .attr(b"char")
                    .and_then(|h| u32::from_str_radix(h.trim(), 16).ok())
                    .and_then(char::from_u32)
                    .filter(|c| !('\u{E000}'..='\u{F8FF}').contains(c));
                if let Some(c) = c {
                    self.append(c.encode_utf8(&mut [0; 4]))?;
                }
            }
            b"fldChar" => match e.attr(b"fldCharType").as_deref() {
                Some("begin") => {
                    self.fields.push(true);
                    self.in_instruction += 1;
                }
                Some("separate") => {
                    if let Some(top) = self.fields.last_mut() {
                        if *top {
                            *top = false;
                            self.in_instruction -= 1;
                        }
                    }
                }
                Some("end") => {
                    self.in_instruction -= usize::from(self.fields.pop() == Some(true));
                }
                _ => {}
            },
            b"footnoteReference" | b"endnoteReference" => {
                let kind = if e.name() == b"footnoteReference" {
                    NoteKind::Foot
                } else {
                    NoteKind::End
                };
                if self.in_instruction == 0 && self.para().is_some() {
                    let id = e.attr(b"id").unwrap_or_default();
                    let n = match kind {
                        NoteKind::Foot => self.conv.footnotes.number(&id),
                        NoteKind::End => self.conv.endnotes.number(&id),
                    };
                    self.append(&format!("[^{}]", note_label(kind, n)))?;
                }
            }
            b"softHyphen" => {}
            _ => return Ok(None),
        }
        Ok(Some(Open::Skip))
    }

    fn paragraph_property(&mut self, e: &Element) -> Open {
        let name = e.name();
        match name {
            b"numPr" => return Open::Push(Frame::NumPr),
            b"rPr" => return Open::Push(Frame::MarkPr),
            _ => {}
        }
        if let Some(p) = self.para() {
            match name {
                b"pStyle" => p.style = e.attr(b"val"),
                b"outlineLvl" => p.outline = int(e.attr(b"val")),
                _ => {}
            }
        }
        Open::Skip
    }

    fn cell_property(&mut self, e: &Element) {
        let Some(Frame::Cell(cell)) = self.targets.last().map(|&i| &mut self.frames[i]) else {
            return;
        };
        match e.name() {
            b"vMerge" | b"hMerge" => {
                cell.continuation = e.attr(b"val").is_none_or(|v| v != "restart");
            }
            b"gridSpan" => cell.span = int(e.attr(b"val")).unwrap_or(1).clamp(1, 64) as usize,
            _ => {}
        }
    }

    /// The innermost open paragraph, when it is the innermost target.
    fn para(&mut self) -> Option<&mut Para> {
        match self.targets.last().map(|&i| &mut self.frames[i]) {
            Some(Frame::Para(p)) => Some(p),
            _ => None,
        }
    }

    fn in_cell(&self) -> bool {
        matches!(
            self.targets.last().map(|&i| &self.frames[i]),
            Some(Frame::Cell(_))
        )
    }

    /// Adds text to the innermost paragraph (dropped in field instructions
    /// and outside paragraphs).
    fn append(&mut self, text: &str) -> Result<()> {
        if self.in_instruction > 0 {
            return Ok(());
        }
        self.take(text.len())?;
        match self.targets.last().map(|&i| &mut self.frames[i]) {
            Some(Frame::Para(p)) => p.text.push_str(text),
            // Only a paragraph nested too deep writes straight into a cell.
            Some(Frame::Cell(_)) if self.flat_paras > 0 => {
                self.flat.extend(
                    text.chars()
                        .map(|c| if matches!(c, '\t' | '\n') { ' ' } else { c }),
                );
            }
            _ => {}
        }
        Ok(())
    }

    /// Before the text of a paragraph nested too deep: a line break in the
    /// enclosing paragraph, or a space in the enclosing cell.
    fn flat_separator(&mut self) {
        match self.targets.last().map(|&i| &mut self.frames[i]) {
            Some(Frame::Para(p)) => p.text.push('\n'),
            Some(Frame::Cell(cell)) if self.flat.len() > cell.base => self.flat.push(' '),
            _ => {}
        }
    }

    /// Adds a line to the innermost cell's text: one line, words of its
    /// lines and tab-separated parts joined by single spaces.
    fn push_flat(&mut self, line: &str) -> Result<()> {
        let Some(Frame::Cell(cell)) = self.targets.last().map(|&i| &self.frames[i]) else {
            return Ok(());
        };
        let base = cell.base;
        self.progress.add(line.len() as u64)?;
        for word in line.split(['\n', '\t']).map(str::trim) {
            if word.is_empty() {
                continue;
            }
            if self.flat.len() > base {
                self.flat.push(' ');
            }
            self.flat.push_str(word);
        }
        Ok(())
    }

    /// Counts text against the output limit.
    fn take(&mut self, bytes: usize) -> Result<()> {
        self.conv.taken += bytes as u64;
        let max = self.conv.limits.max_output;
        if self.conv.taken > max {
            return Err(Error::conversion(format!(
                "its text is over the {} MB limit",
                max / (1024 * 1024)
            )));
        }
        Ok(())
    }

    fn end(&mut self) -> Result<()> {
        if self.skip > 0 {
            self.skip -= 1;
            return Ok(());
        }
        let Some(frame) = self.frames.pop() else {
            return Err(xml::error(self.part, "an end tag without a start"));
        };
        match frame {
            Frame::Para(p) => {
                self.targets.pop();
                self.paras -= 1;
                // A paragraph deleted with its mark (tracked) is gone once
                // the changes are accepted; with text left, it stays a line.
                if p.mark_deleted && p.text.trim().is_empty() && p.after.is_empty() {
                    return Ok(());
                }
                let in_cell = self.in_cell();
                let line = paragraph::line(&p, self.conv.styles, self.conv.numbering, in_cell);
                // The text was counted as it came; the label and indent now.
                self.take(line.len().saturating_sub(p.text.len()))?;
                self.progress.add(line.len() as u64)?;
                self.emit(line)?;
                for line in p.after {
                    self.emit(line)?;
                }
            }
            Frame::FlatPara => self.flat_paras -= 1,
            Frame::Cell(cell) => {
                self.targets.pop();
                if cell.continuation {
                    self.flat.truncate(cell.start);
                }
                if cell.nested {
                    // The text stays in `flat`, part of the enclosing cell's.
                    return Ok(());
                }
                let text = if cell.start == 0 {
                    std::mem::take(&mut self.flat)
                } else {
                    self.flat.split_off(cell.start)
                };
                self.progress.add(text.len() as u64)?;
                let target = self.targets.last().copied();
                let row = self.rows.last().copied().filter(|&r| target < Some(r));
                match row.map(|r| &mut self.frames[r]) {
                    Some(Frame::Row(row)) => {
                        let tabs = usize::from(row.cells > 0) + cell.span - 1;
                        if row.cells > 0 {
                            row.line.push('\t');
                        }
                        row.line.push_str(&text);
                        row.line.extend(std::iter::repeat_n('\t', cell.span - 1));
                        row.cells += cell.span;
                        self.take(tabs)?;
                    }
                    _ => self.emit(text)?,
                }
            }
            Frame::Row(row) => {
                self.rows.pop();
                if row.deleted {
                    self.flat.truncate(row.start);
                    return Ok(());
                }
                if !self.in_cell() {
                    self.emit(row.line)?;
                }
            }
            Frame::Note { id, start } => {
                let blocks = self.out.split_off(start.min(self.out.len()));
                self.found_notes.push((id, blocks));
            }
            _ => {}
        }
        Ok(())
    }

    /// Sends a finished block to the innermost target.
    fn emit(&mut self, line: String) -> Result<()> {
        match self.targets.last().map(|&i| &mut self.frames[i]) {
            Some(Frame::Para(p)) => p.after.push(line),
            Some(Frame::Cell(_)) => self.push_flat(&line)?,
            _ => {
                self.take(1)?;
                self.out.push(line);
            }
        }
        Ok(())
    }
}
