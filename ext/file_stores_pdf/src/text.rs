//! The content-stream interpreter: follows the graphics and text state
//! (`q`/`Q`, `cm`, `BT`, `Tf`, `Td`, `Tm`, `T*`, `Tc`, `Tw`, `Tz`, `TL`,
//! `Ts`, and the font a `gs` parameter dictionary sets), places each glyph of `Tj`, `TJ`, `'` and `"` on the page, and
//! enters forms (`Do`) with their own resources. [`crate::words::Line`] turns the placed
//! glyphs into words and lines. A `/Span` marked-content section (`BDC`
//! … `EMC`) with an `/ActualText` reads as that text, placed where its
//! glyphs lie, as pdftotext reads it. What optional content the
//! document's default configuration hides ([`optional`]: marked content
//! `/OC /Name BDC`, forms, images and annotations with an `/OC`) is not
//! drawn; hidden text still moves the text position, as in poppler.
//!
//! It also notes whether a page paints an image ([`Page::paints_images`]):
//! a `Do` of an `/Subtype /Image` XObject, on the page or inside a form or
//! an annotation's appearance, or an inline image (`BI` … `ID` … `EI`). It
//! costs nothing beyond what is read anyway: the XObject's dictionary is
//! looked up for `Do` already, and an image's data is never decoded. A scan
//! paints an image; [`crate::to_text`] uses this to tell a scan with a stray
//! page number from a short page of real text.
//!
//! Work is counted where it happens: each glyph shown and each annotation
//! counts as an operator against [`Limits::max_operations`] (one `Tj` can
//! hold tens of millions of glyphs), with the cancel flag asked every few
//! thousand; the text limit is checked as each character is appended (one
//! glyph's text can be long, a field's value a megabyte); an annotation
//! listed again on a page is shown once; and the fonts' tables together are
//! bounded ([`MAX_FONT_TABLES`]). Positions are in f64, as poppler and
//! pdf.js compute them: in f32 a sentence at x = 1e9 moved back by the CTM
//! lands its glyphs on a few positions and reads "Pay the invoc u s".

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::content::{Tokenizer, Tokens};
use crate::filters::Budget;
use crate::fonts::Font;
use crate::words::{join_hyphenated, number, Line};
use crate::{Error, Limits, Result};

mod annots;
#[cfg(test)]
mod crafted;
mod optional;

/// The most marked-content sequences (`BMC`/`BDC` … `EMC`) followed open
/// on a page for optional content; deeper ones cannot hide content.
const MAX_OC_MARKED: usize = 1024;

/// The most bytes the fonts of one document may hold in memory (ToUnicode
/// maps, widths, embedded glyph text), all together.
pub const MAX_FONT_TABLES: usize = 256 << 20;

/// The most marked-content sections held open in one stream; deeper ones
/// are only counted, and are no `/ActualText` span.
const MAX_MARKED: usize = 256;

/// How often (in operators, glyphs or annotations) the cancel flag is asked.
const CHECK_EVERY: u64 = 4096;

type Matrix = [f64; 6];
const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

fn mul(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

fn num(o: Option<&Object>) -> f64 {
    match o {
        Some(Object::Integer(i)) => *i as f64,
        Some(Object::Real(r)) if r.is_finite() => f64::from(*r),
        _ => 0.0,
    }
}

#[derive(Clone)]
struct State {
    ctm: Matrix,
    font: Option<Rc<Font>>,
    size: f64,
    char_space: f64,
    word_space: f64,
    scale: f64,
    leading: f64,
    rise: f64,
}

/// One page as read: its text, and whether it paints an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub text: String,
    /// Whether the page (its content, its forms, its annotations'
    /// appearances) paints an image XObject or an inline image.
    pub paints_images: bool,
}

/// Reads the pages of one document, sharing fonts between them.
pub struct Interpreter<'a> {
    doc: &'a Document,
    /// The file from its `%PDF-` on, where lopdf's offsets point.
    raw: &'a [u8],
    limits: Limits,
    cancelled: &'a dyn Fn() -> bool,
    operations: u64,
    text_bytes: usize,
    fonts: HashMap<usize, Rc<Font>>,
    /// The bytes the loaded fonts hold ([`Font::footprint`]).
    font_bytes: usize,
    budget: Budget<'a>,
    tokens: Tokens<'a>,
    /// Whether the page being read has painted an image so far.
    images: bool,
    /// The page's resources, where a name a form's own `/Resources` lack
    /// is looked up, as poppler and pdf.js do (qpdf's
    /// form-xobjects-some-resources: a form's `/F1` only on the page).
    page_resources: Option<&'a Dictionary>,
    /// The document's interactive form, read at the first annotation.
    form: Option<Rc<annots::Form<'a>>>,
    /// A combo box's shown text, once per field ([`annots::Choices`]).
    choices: annots::Choices,
    /// The `/ActualText` of the marked-content span being drawn, which
    /// stands for the glyphs inside it.
    actual: Option<Actual<'a>>,
    /// The document's optional content groups, None without any.
    optional: Option<optional::Optional>,
    /// The marked-content sequences open on the page, each true when a
    /// hidden group's `/OC` opened it. Kept across forms and the page's
    /// annotations, as poppler keeps one stack per page.
    marked: Vec<bool>,
    /// How many of [`Self::marked`] are true: content is hidden while
    /// any is.
    hiding: usize,
    /// Sequences opened past [`MAX_OC_MARKED`], closed before those kept.
    marked_over: usize,
}

/// A `/Span` with an `/ActualText`, as pdftotext reads one: its glyphs
/// are not read, and the text is placed once where they lie, from the
/// first one's start to the last one's end (a ligature's "fi", a bullet's
/// zero-width space, a hyphen marked as none). The string is decoded at
/// the span's end, only when a glyph was placed, and only as much of it as
/// the text limit leaves room for: a page of 10,000 empty spans naming one
/// 8 MB string decoded it 10,000 times.
struct Actual<'a> {
    /// The `/ActualText` string, as written: the document's, or a copy of
    /// one the content stream writes in place (paid for as it was read).
    text: std::borrow::Cow<'a, Object>,
    /// The first glyph's start and size, the last glyph's end.
    placed: Option<([f64; 2], f64, [f64; 2])>,
}

impl<'a> Interpreter<'a> {
    pub fn new(
        doc: &'a Document,
        raw: &'a [u8],
        limits: Limits,
        cancelled: &'a dyn Fn() -> bool,
    ) -> Self {
        Interpreter {
            doc,
            raw,
            limits,
            cancelled,
            operations: 0,
            text_bytes: 0,
            fonts: HashMap::new(),
            font_bytes: 0,
            budget: Budget::new(limits.max_decoded_bytes, cancelled),
            tokens: Tokens::new(limits.max_tokens, cancelled),
            images: false,
            page_resources: None,
            form: None,
            choices: Default::default(),
            actual: None,
            optional: optional::Optional::read(doc),
            marked: Vec::new(),
            hiding: 0,
            marked_over: 0,
        }
    }

    /// The text of the page `id`, and whether it paints an image.
    pub fn page(&mut self, id: ObjectId) -> Result<Page> {
        let doc = self.doc;
        if (self.cancelled)() {
            return Err(Error::Cancelled);
        }
        self.images = false;
        self.actual = None;
        self.marked.clear();
        self.hiding = 0;
        self.marked_over = 0;
        let resources = page_resources(doc, id);
        self.page_resources = resources;
        let room = self.limits.max_text_bytes.saturating_sub(self.text_bytes);
        let mut line = Line::new(room);
        line.page = page_box(doc, id);
        // Read one after another, each decoded (and charged) when its turn
        // comes: a page listing one stream 100,000 times used to decode them
        // all into one buffer first (6.4 GB asked for).
        let streams: Vec<&'a lopdf::Stream> = doc
            .get_page_contents(id)
            .into_iter()
            .filter_map(|stream_id| match doc.get_object(stream_id) {
                Ok(Object::Stream(s)) => Some(s),
                _ => None,
            })
            .collect();
        let mut forms = Vec::new();
        self.run(&streams, resources, IDENTITY, 0, &mut forms, &mut line)?;
        // Annotations are held to the page as its content is: poppler maps
        // an appearance onto its rectangle and pdftotext drops what lands
        // off the page.
        self.annotations(id, resources, &mut line)?;
        line.settle();
        self.text_room(&line)?;
        self.text_bytes += line.out.len();
        Ok(Page {
            text: join_hyphenated(&line.out),
            paints_images: self.images,
        })
    }

    /// Err once the page's text has outgrown what the text limit leaves.
    fn text_room(&self, line: &Line) -> Result<()> {
        if line.full {
            return Err(Error::TooLarge(format!(
                "more than {} bytes of text",
                self.limits.max_text_bytes
            )));
        }
        Ok(())
    }

    /// Counts `n` units of work (glyphs, annotations) as operators, asking
    /// the cancel flag each time the count passes a multiple of
    /// [`CHECK_EVERY`].
    fn work(&mut self, n: u64) -> Result<()> {
        let before = self.operations;
        self.operations = before.saturating_add(n);
        if self.operations > self.limits.max_operations {
            return Err(Error::TooLarge(format!(
                "more than {} operators, glyphs and annotations",
                self.limits.max_operations
            )));
        }
        if before / CHECK_EVERY != self.operations / CHECK_EVERY && (self.cancelled)() {
            return Err(Error::Cancelled);
        }
        Ok(())
    }

    /// A stream's content, decoded within the limit.
    /// A stream lopdf found empty because its `/Length` is missing or
    /// wrong is read from the file up to its `endstream`.
    fn stream_bytes(&self, s: &lopdf::Stream) -> Result<Vec<u8>> {
        if let (true, Some(start)) = (s.content.is_empty(), s.start_position) {
            let rest = self.raw.get(start..).unwrap_or_default();
            let rest = &rest[..rest.len().min(self.limits.max_stream_bytes)];
            if let Some(end) = rest.windows(9).position(|w| w == b"endstream") {
                let mut data = &rest[..end];
                while let [head @ .., b'\r' | b'\n'] = data {
                    data = head;
                }
                let found = lopdf::Stream::new(s.dict.clone(), data.to_vec());
                return crate::filters::decoded(&found, self.limits.max_stream_bytes, &self.budget);
            }
        }
        crate::filters::decoded(s, self.limits.max_stream_bytes, &self.budget)
    }

    /// The font `name` of `resources`, loaded once per document; Err once
    /// the fonts loaded hold more than [`MAX_FONT_TABLES`].
    fn font(&mut self, resources: Option<&'a Dictionary>, name: &[u8]) -> Result<Option<Rc<Font>>> {
        let doc = self.doc;
        let find =
            |r: &'a Dictionary| sub_dict(doc, r, b"Font").and_then(|f| sub_dict(doc, f, name));
        let Some(dict) = resources
            .and_then(find)
            .or_else(|| self.page_resources.and_then(find))
        else {
            return Ok(None);
        };
        self.load_font(dict).map(Some)
    }

    /// The font and size a graphics state parameter dictionary `name` of
    /// `resources` sets with its `/Font [font size]` entry (PDF 32000
    /// 8.4.5), if it has one: `gs` then sets the font as `Tf` does.
    fn gs_font(
        &mut self,
        resources: Option<&'a Dictionary>,
        name: &[u8],
    ) -> Result<Option<(Rc<Font>, f64)>> {
        let doc = self.doc;
        let find =
            |r: &'a Dictionary| sub_dict(doc, r, b"ExtGState").and_then(|g| sub_dict(doc, g, name));
        let Some(gs) = resources
            .and_then(find)
            .or_else(|| self.page_resources.and_then(find))
        else {
            return Ok(None);
        };
        let entry = match gs.get(b"Font") {
            Ok(Object::Reference(id)) => doc.get_object(*id).ok(),
            Ok(o) => Some(o),
            Err(_) => None,
        };
        let Some(Object::Array(entry)) = entry else {
            return Ok(None);
        };
        let dict = match entry.first() {
            Some(Object::Reference(id)) => doc.get_dictionary(*id).ok(),
            Some(Object::Dictionary(d)) => Some(d),
            _ => None,
        };
        let Some(dict) = dict else { return Ok(None) };
        let size = entry.get(1).and_then(number).unwrap_or(0.0);
        Ok(Some((self.load_font(dict)?, size)))
    }

    /// The font of `dict`, loaded once per document; Err once the fonts
    /// loaded hold more than [`MAX_FONT_TABLES`].
    fn load_font(&mut self, dict: &'a Dictionary) -> Result<Rc<Font>> {
        let doc = self.doc;
        let key = dict as *const Dictionary as usize;
        if let Some(font) = self.fonts.get(&key) {
            return Ok(font.clone());
        }
        let font = Rc::new(Font::load(doc, dict, &self.budget));
        self.budget.check()?;
        self.font_bytes = self.font_bytes.saturating_add(font.footprint());
        if self.font_bytes > MAX_FONT_TABLES {
            return Err(Error::TooLarge(format!(
                "its fonts' tables take more than {MAX_FONT_TABLES} bytes"
            )));
        }
        self.fonts.insert(key, font.clone());
        Ok(font)
    }

    /// Runs `streams` one after another, as one content stream: each is
    /// decoded when its turn comes and tokenized one operation at a time.
    fn run(
        &mut self,
        streams: &[&'a lopdf::Stream],
        resources: Option<&'a Dictionary>,
        ctm: Matrix,
        depth: u32,
        forms: &mut Vec<ObjectId>,
        line: &mut Line,
    ) -> Result<()> {
        let mut tokenizer = Tokenizer::new(self.limits.max_nesting, self.tokens.clone());
        let mut streams = streams.iter();
        let mut bytes = Vec::new();
        let mut state = State {
            ctm,
            font: None,
            size: 0.0,
            char_space: 0.0,
            word_space: 0.0,
            scale: 1.0,
            leading: 0.0,
            rise: 0.0,
        };
        let mut stack: Vec<State> = Vec::new();
        let mut tm = IDENTITY;
        let mut tlm = IDENTITY;
        // Open marked-content sections: whether each is an `/ActualText`
        // span.
        let mut marked: Vec<bool> = Vec::new();
        // Sections opened past [`MAX_MARKED`], counted only.
        let mut deeper = 0usize;
        loop {
            let op = match tokenizer.next(&bytes)? {
                Some(op) => op,
                None => {
                    let Some(s) = streams.next() else { break };
                    // The last stream's bytes are freed before the next is
                    // decoded.
                    drop(std::mem::take(&mut bytes));
                    bytes = self.stream_bytes(s)?;
                    tokenizer.start();
                    continue;
                }
            };
            self.operations += 1;
            if self.operations > self.limits.max_operations {
                return Err(Error::TooLarge(format!(
                    "more than {} operators",
                    self.limits.max_operations
                )));
            }
            if self.operations & 4095 == 0 && (self.cancelled)() {
                return Err(Error::Cancelled);
            }
            let a = &op.operands;
            match op.operator.as_str() {
                "q" if stack.len() < 256 => stack.push(state.clone()),
                "Q" => {
                    if let Some(s) = stack.pop() {
                        state = s;
                    }
                }
                "cm" => {
                    let m = [
                        num(a.first()),
                        num(a.get(1)),
                        num(a.get(2)),
                        num(a.get(3)),
                        num(a.get(4)),
                        num(a.get(5)),
                    ];
                    state.ctm = mul(&m, &state.ctm);
                }
                "BT" => {
                    tm = IDENTITY;
                    tlm = IDENTITY;
                }
                "Tf" => {
                    state.font = match a.first().and_then(|n| n.as_name().ok()) {
                        Some(n) => self.font(resources, n)?,
                        None => None,
                    };
                    state.size = num(a.get(1));
                }
                "gs" => {
                    let Some(name) = a.first().and_then(|n| n.as_name().ok()) else {
                        continue;
                    };
                    if let Some((font, size)) = self.gs_font(resources, name)? {
                        state.font = Some(font);
                        state.size = size;
                    }
                }
                // Without its number an operator is skipped, as poppler
                // skips it (a `Tz` read as 0 put every glyph on one spot);
                // with more, the last counts.
                "Tc" | "Tw" | "Tz" | "TL" | "Ts" => {
                    let Some(v) = a.last().and_then(number) else {
                        continue;
                    };
                    match op.operator.as_str() {
                        "Tc" => state.char_space = v,
                        "Tw" => state.word_space = v,
                        "Tz" => state.scale = v / 100.0,
                        "TL" => state.leading = v,
                        _ => state.rise = v,
                    }
                }
                "Td" | "TD" => {
                    let (tx, ty) = (num(a.first()), num(a.get(1)));
                    if op.operator == "TD" {
                        state.leading = -ty;
                    }
                    tlm = mul(&[1.0, 0.0, 0.0, 1.0, tx, ty], &tlm);
                    tm = tlm;
                }
                "Tm" => {
                    tlm = [
                        num(a.first()),
                        num(a.get(1)),
                        num(a.get(2)),
                        num(a.get(3)),
                        num(a.get(4)),
                        num(a.get(5)),
                    ];
                    tm = tlm;
                }
                "T*" => {
                    tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -state.leading], &tlm);
                    tm = tlm;
                }
                "Tj" | "'" | "\"" | "TJ" => {
                    if op.operator == "'" || op.operator == "\"" {
                        if op.operator == "\"" {
                            state.word_space = num(a.first());
                            state.char_space = num(a.get(1));
                        }
                        tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -state.leading], &tlm);
                        tm = tlm;
                    }
                    let Some(font) = state.font.clone() else {
                        continue;
                    };
                    let items: &[Object] = match a.last() {
                        Some(Object::Array(items)) if op.operator == "TJ" => items,
                        Some(o @ Object::String(..)) => std::slice::from_ref(o),
                        _ => continue,
                    };
                    for item in items {
                        match item {
                            Object::String(bytes, _) => {
                                self.show(&font, &state, &mut tm, bytes, line)?
                            }
                            o => {
                                let tx = -num(Some(o)) / 1000.0 * state.size * state.scale;
                                tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], &tm);
                            }
                        }
                    }
                }
                "Do" if self.hiding > 0 => {}
                "Do" => {
                    let Some(name) = a.first().and_then(|n| n.as_name().ok()) else {
                        continue;
                    };
                    self.form(resources, name, &state, depth, forms, line)?;
                }
                // The tokenizer hands `BI` and then `ID`, the image's data
                // skipped.
                "BI" | "ID" => self.images = true,
                "BMC" | "BDC" if marked.len() < MAX_MARKED => {
                    self.begin_marked(resources, a)?;
                    let span = self.actual.is_none()
                        && op.operator == "BDC"
                        && a.first().and_then(|n| n.as_name().ok()) == Some(b"Span".as_slice());
                    let text = span
                        .then(|| actual_text(self.doc, resources, a.get(1)))
                        .flatten();
                    marked.push(text.is_some());
                    if let Some(text) = text {
                        self.actual = Some(Actual { text, placed: None });
                    }
                }
                "BMC" | "BDC" => {
                    self.begin_marked(resources, a)?;
                    deeper = deeper.saturating_add(1);
                }
                // The section's end ends its span (one with no glyphs
                // reads nothing).
                "EMC" if deeper > 0 => {
                    self.end_marked();
                    deeper -= 1;
                }
                "EMC" => {
                    self.end_marked();
                    let span = marked.pop().unwrap_or(false);
                    if span {
                        self.end_actual(line)?;
                    }
                }
                _ => {}
            }
        }
        // A span left open at the end of its stream ends there.
        if marked.contains(&true) {
            self.end_actual(line)?;
        }
        Ok(())
    }

    /// Places a glyph, or notes where it lies inside an `/ActualText` span.
    fn place(&mut self, line: &mut Line, start: [f64; 2], end: [f64; 2], size: f64, text: &str) {
        match &mut self.actual {
            Some(Actual {
                placed: placed @ None,
                ..
            }) => *placed = Some((start, size, end)),
            Some(Actual {
                placed: Some((_, _, last)),
                ..
            }) => *last = end,
            None => line.glyph(start, end, size, text),
        }
    }

    /// Ends the `/ActualText` span: its text where its glyphs lay, decoded
    /// up to what the text limit leaves, its bytes charged as work.
    fn end_actual(&mut self, line: &mut Line) -> Result<()> {
        if let Some(Actual {
            text,
            placed: Some((start, size, end)),
        }) = self.actual.take()
        {
            let text = capped(&text, line.room_left());
            self.work(bytes_work(string_len(&text)))?;
            let text = lopdf::decode_text_string(&text).unwrap_or_default();
            if !text.is_empty() {
                line.glyph(start, end, size, &text);
            }
            self.text_room(line)?;
        }
        Ok(())
    }

    /// Places each glyph of `bytes` and moves the text matrix past it; each
    /// glyph counts as an operator, and the text limit holds within one.
    fn show(
        &mut self,
        font: &Font,
        state: &State,
        tm: &mut Matrix,
        bytes: &[u8],
        line: &mut Line,
    ) -> Result<()> {
        let mut text = String::new();
        for (code, is_space) in font.codes(bytes) {
            self.work(1)?;
            self.text_room(line)?;
            let trm = mul(
                &mul(
                    &[
                        state.size * state.scale,
                        0.0,
                        0.0,
                        state.size,
                        0.0,
                        state.rise,
                    ],
                    tm,
                ),
                &state.ctm,
            );
            let size = (trm[2] * trm[2] + trm[3] * trm[3]).sqrt();
            text.clear();
            // Hidden text still moves the text position, as in poppler.
            let shown = self.hiding == 0;
            if shown {
                font.decode(code, &mut text);
            }
            if shown && is_space && text == "\u{FFFD}" {
                // Code 32 with a glyph no table names (TeX's typewriter
                // visible space): a space, as pdftotext reads it, not
                // nothing between two words.
                text.replace_range(.., " ");
            }
            if font.vertical() {
                // Down the page one em (the default vertical advance),
                // spacing after it; no horizontal scaling.
                let end = mul(
                    &mul(&[1.0, 0.0, 0.0, 1.0, 0.0, state.rise - state.size], tm),
                    &state.ctm,
                );
                let mut ty = -state.size + state.char_space;
                if is_space {
                    ty += state.word_space;
                }
                *tm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, ty], tm);
                if shown {
                    self.place(line, [trm[4], trm[5]], [end[4], end[5]], size, &text);
                }
                continue;
            }
            let width = f64::from(font.width(code)) * state.size;
            // The glyph ends at its width; the character and word spacing
            // after it are a gap, as pdftotext measures them: letters
            // spaced apart by `Tc` (an OCR layer's, a heading's) are words
            // of one letter once the gap passes [`WORD_SPACE`].
            let end = mul(
                &mul(&[1.0, 0.0, 0.0, 1.0, width * state.scale, state.rise], tm),
                &state.ctm,
            );
            let mut tx = width + state.char_space;
            if is_space {
                tx += state.word_space;
            }
            tx *= state.scale;
            *tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], tm);
            if shown {
                self.place(line, [trm[4], trm[5]], [end[4], end[5]], size, &text);
            }
        }
        self.text_room(line)
    }

    fn form(
        &mut self,
        resources: Option<&'a Dictionary>,
        name: &[u8],
        state: &State,
        depth: u32,
        forms: &mut Vec<ObjectId>,
        line: &mut Line,
    ) -> Result<()> {
        let doc = self.doc;
        let find = |r: &'a Dictionary| match sub_dict(doc, r, b"XObject")?.get(name) {
            Ok(Object::Reference(id)) => Some(*id),
            _ => None,
        };
        let Some(id) = &resources
            .and_then(find)
            .or_else(|| self.page_resources.and_then(find))
        else {
            return Ok(());
        };
        if forms.contains(id) {
            return Ok(());
        }
        let Ok(Object::Stream(s)) = doc.get_object(*id) else {
            return Ok(());
        };
        // A form or an image in a hidden group is not drawn.
        if !self.oc_visible(s.dict.get(b"OC").ok())? {
            return Ok(());
        }
        match s.dict.get(b"Subtype").and_then(|o| o.as_name()).ok() {
            Some(b"Form") if depth < self.limits.max_form_depth => {}
            Some(b"Image") => {
                self.images = true;
                return Ok(());
            }
            _ => return Ok(()),
        }
        self.run_form(*id, s, resources, state.ctm, depth, forms, line)
    }

    /// Whether content whose `/OC` entry is `oc` is shown; the terms of
    /// its expression are charged as work.
    fn oc_visible(&mut self, oc: Option<&Object>) -> Result<bool> {
        let (shown, work) = match (&self.optional, oc) {
            (Some(optional), Some(oc)) => optional.visible(self.doc, oc),
            _ => return Ok(true),
        };
        self.work(work)?;
        Ok(shown)
    }

    /// `BMC` or `BDC`: opens a marked-content sequence, one that hides
    /// what it holds when it is `/OC` with a name the resources'
    /// `/Properties` map to a hidden group.
    fn begin_marked(&mut self, resources: Option<&'a Dictionary>, a: &[Object]) -> Result<()> {
        if self.marked.len() >= MAX_OC_MARKED {
            self.marked_over += 1;
            return Ok(());
        }
        let hides = match (a.first(), a.get(1)) {
            (Some(Object::Name(tag)), Some(Object::Name(name))) if tag.as_slice() == b"OC" => {
                let doc = self.doc;
                let find = |r: &'a Dictionary| sub_dict(doc, r, b"Properties")?.get(name).ok();
                let oc = resources
                    .and_then(find)
                    .or_else(|| self.page_resources.and_then(find));
                oc.is_some() && !self.oc_visible(oc)?
            }
            _ => false,
        };
        self.marked.push(hides);
        self.hiding += usize::from(hides);
        Ok(())
    }

    /// `EMC`: closes the last marked-content sequence open.
    fn end_marked(&mut self) {
        if self.marked_over > 0 {
            self.marked_over -= 1;
        } else if let Some(hides) = self.marked.pop() {
            self.hiding = self.hiding.saturating_sub(usize::from(hides));
        }
    }

    /// Runs the form XObject `s` (object `id`) drawn with `ctm`.
    #[allow(clippy::too_many_arguments)]
    fn run_form(
        &mut self,
        id: ObjectId,
        s: &'a lopdf::Stream,
        resources: Option<&'a Dictionary>,
        ctm: Matrix,
        depth: u32,
        forms: &mut Vec<ObjectId>,
        line: &mut Line,
    ) -> Result<()> {
        let matrix = form_matrix(&s.dict);
        self.run_form_at(id, s, resources, mul(&matrix, &ctm), depth, forms, line)
    }

    /// Runs the form XObject `s` (object `id`) with `ctm` as its whole
    /// matrix (its own `/Matrix` already in it).
    #[allow(clippy::too_many_arguments)]
    fn run_form_at(
        &mut self,
        id: ObjectId,
        s: &'a lopdf::Stream,
        resources: Option<&'a Dictionary>,
        ctm: Matrix,
        depth: u32,
        forms: &mut Vec<ObjectId>,
        line: &mut Line,
    ) -> Result<()> {
        let own = sub_dict(self.doc, &s.dict, b"Resources").or(resources);
        forms.push(id);
        let result = self.run(&[s], own, ctm, depth + 1, forms, line);
        forms.pop();
        result
    }
}

/// A form XObject's `/Matrix`, the identity when it has none (or a bad one).
fn form_matrix(dict: &Dictionary) -> Matrix {
    match dict.get(b"Matrix") {
        Ok(Object::Array(m)) if m.len() == 6 => [
            num(m.first()),
            num(m.get(1)),
            num(m.get(2)),
            num(m.get(3)),
            num(m.get(4)),
            num(m.get(5)),
        ],
        _ => IDENTITY,
    }
}

/// The work of reading `n` bytes of a string: a unit per 64 bytes, about
/// what a glyph costs.
fn bytes_work(n: usize) -> u64 {
    (n as u64 / 64).saturating_add(1)
}

fn string_len(o: &Object) -> usize {
    match o {
        Object::String(s, _) => s.len(),
        _ => 0,
    }
}

/// A string object cut to what can give at most `room` bytes of text and
/// a little over (so a longer one still reaches the text limit): every
/// byte gives at least half a byte of UTF-8. Borrowed when short enough.
fn capped(o: &Object, room: usize) -> std::borrow::Cow<'_, Object> {
    let max = room.saturating_mul(2).saturating_add(8);
    match o {
        Object::String(s, format) if s.len() > max => {
            std::borrow::Cow::Owned(Object::String(s[..max].to_vec(), *format))
        }
        o => std::borrow::Cow::Borrowed(o),
    }
}

/// The `/ActualText` of a `/Span`'s properties `props` (a dictionary
/// written in place, or the name of one in the resources' `/Properties`),
/// as written.
fn actual_text<'d>(
    doc: &'d Document,
    resources: Option<&'d Dictionary>,
    props: Option<&Object>,
) -> Option<std::borrow::Cow<'d, Object>> {
    let resolve = |o: &'d Object| match o {
        Object::Reference(id) => doc.get_object(*id).ok(),
        o => Some(o),
    };
    let text = match props? {
        Object::Dictionary(d) => {
            let text = match d.get(b"ActualText").ok()? {
                Object::Reference(id) => doc.get_object(*id).ok()?,
                o => {
                    return matches!(o, Object::String(..))
                        .then(|| std::borrow::Cow::Owned(o.clone()))
                }
            };
            return matches!(text, Object::String(..)).then_some(std::borrow::Cow::Borrowed(text));
        }
        Object::Name(name) => {
            let found = sub_dict(doc, resources?, b"Properties")?.get(name).ok()?;
            let dict = match found {
                Object::Reference(id) => doc.get_dictionary(*id).ok()?,
                Object::Dictionary(d) => d,
                _ => return None,
            };
            resolve(dict.get(b"ActualText").ok()?)?
        }
        _ => return None,
    };
    matches!(text, Object::String(..)).then_some(std::borrow::Cow::Borrowed(text))
}

fn sub_dict<'d>(doc: &'d Document, dict: &'d Dictionary, key: &[u8]) -> Option<&'d Dictionary> {
    match dict.get(key).ok()? {
        Object::Reference(id) => doc.get_dictionary(*id).ok(),
        Object::Dictionary(d) => Some(d),
        _ => None,
    }
}

/// A page's resources, inherited from its ancestors when it has none.
fn page_resources(doc: &Document, id: ObjectId) -> Option<&Dictionary> {
    let mut node = doc.get_dictionary(id).ok()?;
    for _ in 0..64 {
        if let Some(r) = sub_dict(doc, node, b"Resources") {
            return Some(r);
        }
        node = match node.get(b"Parent").ok()? {
            Object::Reference(p) => doc.get_dictionary(*p).ok()?,
            _ => return None,
        };
    }
    None
}

/// The page's media box (inherited from its ancestors), the box
/// pdftotext reads within (not the crop box); None when it is no box.
fn page_box(doc: &Document, id: ObjectId) -> Option<[f64; 4]> {
    let mut node = doc.get_dictionary(id).ok()?;
    for _ in 0..64 {
        if let Ok(o) = node.get(b"MediaBox") {
            let o = match o {
                Object::Reference(r) => doc.get_object(*r).ok()?,
                o => o,
            };
            let v: Vec<f64> = o.as_array().ok()?.iter().filter_map(number).collect();
            if v.len() != 4 {
                return None;
            }
            let b = [
                v[0].min(v[2]),
                v[1].min(v[3]),
                v[0].max(v[2]),
                v[1].max(v[3]),
            ];
            return (b[2] > b[0] && b[3] > b[1]).then_some(b);
        }
        node = match node.get(b"Parent").ok()? {
            Object::Reference(p) => doc.get_dictionary(*p).ok()?,
            _ => return None,
        };
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use lopdf::{dictionary, Stream};

    /// A document of one page drawing `content` with Helvetica as `/F1`
    /// and `more` in its resources; `page` goes into the page dictionary.
    pub(crate) fn one_page(
        doc: &mut Document,
        content: &[u8],
        more: Dictionary,
        page: Dictionary,
    ) -> ObjectId {
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        });
        let mut resources = dictionary! { "Font" => dictionary! { "F1" => font } };
        resources.extend(&more);
        let pages = doc.new_object_id();
        let content = doc.add_object(Stream::new(Dictionary::new(), content.to_vec()));
        let mut dict = dictionary! {
            "Type" => "Page", "Parent" => pages, "Contents" => content, "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        };
        dict.extend(&page);
        let id = doc.add_object(dict);
        doc.objects.insert(
            pages,
            Object::Dictionary(
                dictionary! { "Type" => "Pages", "Kids" => vec![id.into()], "Count" => 1 },
            ),
        );
        id
    }

    #[test]
    fn decodes_an_actual_text_only_where_a_glyph_was_placed_within_the_text_limit() {
        let mut doc = Document::with_version("1.7");
        let long = doc.add_object(Object::string_literal("t".repeat(1 << 20)));
        let props = dictionary! { "Properties" => dictionary! { "P1" => dictionary! { "ActualText" => long } } };
        let mut content = b"/Span /P1 BDC EMC ".repeat(10_000);
        content.extend_from_slice(b"/Span /P1 BDC BT /F1 12 Tf 72 720 Td (x) Tj ET EMC\n");
        let page = one_page(&mut doc, &content, props, Dictionary::new());
        let never = || false;
        let mut reader = Interpreter::new(&doc, b"", Limits::default(), &never);
        let text = reader.page(page).expect("read").text;
        assert_eq!(text.trim_end(), "t".repeat(1 << 20));
        // 20,004 operators and the one decoded string, not 10,001 of them.
        assert!(reader.operations < 60_000, "{}", reader.operations);
        // Past the text limit, refused with only what fits decoded.
        let limits = Limits {
            max_text_bytes: 1000,
            ..Limits::default()
        };
        let mut reader = Interpreter::new(&doc, b"", limits, &never);
        assert!(matches!(reader.page(page), Err(Error::TooLarge(_))));
        assert!(reader.operations < 30_000, "{}", reader.operations);
    }

    #[test]
    fn keeps_glyphs_far_from_the_origin_apart() {
        // In f32, 1e9 + 5 and 1e9 + 10 are one number.
        let ctm = [1.0, 0.0, 0.0, 1.0, -1e9, 0.0];
        let a = mul(&[1.0, 0.0, 0.0, 1.0, 1e9 + 5.0, 0.0], &ctm);
        let b = mul(&[1.0, 0.0, 0.0, 1.0, 1e9 + 10.0, 0.0], &ctm);
        assert_eq!((a[4], b[4]), (5.0, 10.0));
    }
}
