//! The content-stream interpreter: follows the graphics and text state
//! (`q`/`Q`, `cm`, `BT`, `Tf`, `Td`, `Tm`, `T*`, `Tc`, `Tw`, `Tz`, `TL`,
//! `Ts`), places each glyph of `Tj`, `TJ`, `'` and `"` on the page, and
//! enters forms (`Do`) with their own resources. `Line` turns the placed
//! glyphs into words and lines.
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
use crate::{Error, Limits, Result};

/// The most bytes the fonts of one document may hold in memory (ToUnicode
/// maps, widths, embedded glyph text), all together.
pub const MAX_FONT_TABLES: usize = 256 << 20;

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

/// Glyphs to words and lines, at most `room` bytes of them.
struct Line {
    out: String,
    /// Where the last glyph ended, its direction and its size.
    last: Option<([f64; 2], [f64; 2], f64)>,
    /// The latest glyphs' starts and text, to drop one drawn again on top
    /// of itself (fake bold, shadows).
    recent: std::collections::VecDeque<([f64; 2], String)>,
    /// The most bytes `out` may hold: what the text limit leaves.
    room: usize,
    /// A character did not fit in `room`.
    full: bool,
    /// Where the last glyph started, and, when it was a spacing accent
    /// (the last character of `out`), its mark.
    last_start: [f64; 2],
    accent: Option<char>,
}

/// How many glyphs back a repeat is looked for.
const RECENT: usize = 96;

impl Line {
    fn new(room: usize) -> Self {
        Line {
            out: String::new(),
            last: None,
            recent: Default::default(),
            room,
            full: false,
            last_start: [0.0; 2],
            accent: None,
        }
    }

    /// Appends `c` if it fits in `room`.
    fn push(&mut self, c: char) {
        if self.out.len() + c.len_utf8() > self.room {
            self.full = true;
        } else {
            self.out.push(c);
        }
    }

    fn glyph(&mut self, start: [f64; 2], end: [f64; 2], size: f64, text: &str) {
        if text.trim().is_empty() {
            self.space();
            return;
        }
        let near = 0.1 * size.max(1e-3);
        if self.recent.iter().any(|(p, t)| {
            (p[0] - start[0]).abs() < near && (p[1] - start[1]).abs() < near && t == text
        }) {
            return;
        }
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back((start, text.to_owned()));
        if self.accented(start, end, size, text) {
            return;
        }
        let dx = end[0] - start[0];
        let dy = end[1] - start[1];
        let len = (dx * dx + dy * dy).sqrt();
        let dir = if len > 1e-6 {
            [dx / len, dy / len]
        } else {
            [1.0, 0.0]
        };
        if let Some((last_end, last_dir, last_size)) = self.last {
            let gx = start[0] - last_end[0];
            let gy = start[1] - last_end[1];
            let along = gx * last_dir[0] + gy * last_dir[1];
            let across = (gy * last_dir[0] - gx * last_dir[1]).abs();
            let size = size.max(last_size).max(1e-3);
            if across > 0.5 * size {
                self.newline();
            } else if along > 0.15 * size || along < -0.6 * size {
                self.space();
            }
        }
        for c in text.chars() {
            if c.is_whitespace() {
                self.space();
            } else if !c.is_control() {
                self.push(c);
            }
        }
        self.last = Some((end, dir, size));
        self.last_start = start;
        self.accent = crate::names::combining_mark(text);
    }

    /// Joins an accent and the letter it is drawn over, in either order, as
    /// the letter and its combining mark, as pdftotext does (`naı̈ve`, not
    /// `na¨ıve`); true when `text` is placed so.
    fn accented(&mut self, start: [f64; 2], end: [f64; 2], size: f64, text: &str) -> bool {
        let accent = self.accent.take();
        let Some((last_end, last_dir, _)) = self.last else {
            return false;
        };
        // The middle of one glyph lies over the other's advance.
        let over = |mid: [f64; 2], from: [f64; 2], to: [f64; 2]| {
            let (lo, hi) = (from[0].min(to[0]), from[0].max(to[0]));
            hi - lo > 1e-6 && (lo..=hi).contains(&mid[0]) && (mid[1] - from[1]).abs() < size
        };
        let middle = |a: [f64; 2], b: [f64; 2]| [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
        if let Some(mark) = crate::names::combining_mark(text) {
            // An accent over the letter before it.
            let last_start = self.last_start;
            if accent.is_none() && over(middle(start, end), last_start, last_end) {
                self.push(mark);
                return true;
            }
            return false;
        }
        let Some(mark) = accent else {
            return false;
        };
        // The letter under the accent just shown: the letter, then its mark.
        let shown = self.out.chars().next_back().map(String::from);
        let shown = shown.as_deref().and_then(crate::names::combining_mark);
        if shown == Some(mark) && over(middle(self.last_start, last_end), start, end) {
            self.out.pop();
            for c in text
                .chars()
                .filter(|c| !c.is_control() && !c.is_whitespace())
            {
                self.push(c);
            }
            self.push(mark);
            self.last = Some((end, last_dir, size));
            self.last_start = start;
            return true;
        }
        false
    }

    fn space(&mut self) {
        self.accent = None;
        if !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
            self.push(' ');
        }
    }

    fn newline(&mut self) {
        self.accent = None;
        while self.out.ends_with(' ') {
            self.out.pop();
        }
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.push('\n');
        }
    }
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
        }
    }

    /// The text of the page `id`, and whether it paints an image.
    pub fn page(&mut self, id: ObjectId) -> Result<Page> {
        let doc = self.doc;
        if (self.cancelled)() {
            return Err(Error::Cancelled);
        }
        self.images = false;
        let resources = page_resources(doc, id);
        self.page_resources = resources;
        let room = self.limits.max_text_bytes.saturating_sub(self.text_bytes);
        let mut line = Line::new(room);
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
        self.annotations(id, resources, &mut line)?;
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
        let key = dict as *const Dictionary as usize;
        if let Some(font) = self.fonts.get(&key) {
            return Ok(Some(font.clone()));
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
        Ok(Some(font))
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
                "Tc" => state.char_space = num(a.first()),
                "Tw" => state.word_space = num(a.first()),
                "Tz" => state.scale = num(a.first()) / 100.0,
                "TL" => state.leading = num(a.first()),
                "Ts" => state.rise = num(a.first()),
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
                "Do" => {
                    let Some(name) = a.first().and_then(|n| n.as_name().ok()) else {
                        continue;
                    };
                    self.form(resources, name, &state, depth, forms, line)?;
                }
                // The tokenizer hands `BI` and then `ID`, the image's data
                // skipped.
                "BI" | "ID" => self.images = true,
                _ => {}
            }
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
            font.decode(code, &mut text);
            let mut tx = f64::from(font.width(code)) * state.size + state.char_space;
            if is_space {
                tx += state.word_space;
            }
            tx *= state.scale;
            *tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], tm);
            let end = mul(&mul(&[1.0, 0.0, 0.0, 1.0, 0.0, state.rise], tm), &state.ctm);
            line.glyph([trm[4], trm[5]], [end[4], end[5]], size, &text);
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
        let matrix = match s.dict.get(b"Matrix") {
            Ok(Object::Array(m)) if m.len() == 6 => [
                num(m.first()),
                num(m.get(1)),
                num(m.get(2)),
                num(m.get(3)),
                num(m.get(4)),
                num(m.get(5)),
            ],
            _ => IDENTITY,
        };
        let own = sub_dict(self.doc, &s.dict, b"Resources").or(resources);
        forms.push(id);
        let result = self.run(&[s], own, mul(&matrix, &ctm), depth + 1, forms, line);
        forms.pop();
        result
    }

    /// The text of the page's annotations as they appear (form fields,
    /// free text, stamps): each normal appearance stream, at its rectangle.
    fn annotations(
        &mut self,
        page: ObjectId,
        resources: Option<&'a Dictionary>,
        line: &mut Line,
    ) -> Result<()> {
        let doc = self.doc;
        let Ok(page) = doc.get_dictionary(page) else {
            return Ok(());
        };
        let annots = match page.get(b"Annots") {
            Ok(Object::Reference(id)) => doc.get_object(*id).and_then(Object::as_array).ok(),
            Ok(Object::Array(a)) => Some(a),
            _ => None,
        };
        // An annotation listed again is shown once.
        let mut shown = HashSet::new();
        for annot in annots.into_iter().flatten().take(10_000) {
            self.work(1)?;
            let annot = match annot {
                Object::Reference(id) if !shown.insert(*id) => None,
                Object::Reference(id) => doc.get_dictionary(*id).ok(),
                Object::Dictionary(d) => Some(d),
                _ => None,
            };
            let Some(annot) = annot else { continue };
            // Hidden (bit 2) and NoView (bit 6) annotations are not shown.
            if annot
                .get(b"F")
                .and_then(Object::as_i64)
                .is_ok_and(|f| f & 0b10_0010 != 0)
            {
                continue;
            }
            let Some(appearances) = sub_dict(doc, annot, b"AP") else {
                // Without an appearance, a text field shows its value and a
                // free-text note its contents, as viewers and pdftotext do.
                if let Some(text) = unstyled_text(doc, annot) {
                    line.newline();
                    line.last = None;
                    for c in text.chars().filter(|c| !c.is_control() || *c == '\n') {
                        if c.is_whitespace() {
                            line.space();
                        } else {
                            line.push(c);
                        }
                        if line.full {
                            break;
                        }
                    }
                    line.newline();
                    self.text_room(line)?;
                }
                continue;
            };
            let (id, stream) = match appearances.get(b"N") {
                Ok(Object::Reference(id)) => match doc.get_object(*id) {
                    Ok(Object::Stream(s)) => (*id, s),
                    Ok(Object::Dictionary(states)) => {
                        let Some((id, s)) = state_stream(doc, states, annot) else {
                            continue;
                        };
                        (id, s)
                    }
                    _ => continue,
                },
                Ok(Object::Dictionary(states)) => {
                    let Some((id, s)) = state_stream(doc, states, annot) else {
                        continue;
                    };
                    (id, s)
                }
                _ => continue,
            };
            let (x, y) = match annot.get(b"Rect") {
                Ok(Object::Array(r)) if r.len() == 4 => (
                    num(r.first()).min(num(r.get(2))),
                    num(r.get(1)).min(num(r.get(3))),
                ),
                _ => (0.0, 0.0),
            };
            line.newline();
            let mut forms = Vec::new();
            self.run_form(
                id,
                stream,
                resources,
                [1.0, 0.0, 0.0, 1.0, x, y],
                0,
                &mut forms,
                line,
            )?;
            line.newline();
        }
        Ok(())
    }
}

/// The text an annotation without an appearance stream shows: a text
/// field's value (`/V`, inherited from its parent fields) or a free-text
/// annotation's `/Contents`.
fn unstyled_text(doc: &Document, annot: &Dictionary) -> Option<String> {
    let subtype = annot.get(b"Subtype").and_then(Object::as_name).ok()?;
    let value = match subtype {
        b"FreeText" => annot.get(b"Contents").ok()?,
        b"Widget" => {
            let mut field = annot;
            let mut found = None;
            for _ in 0..16 {
                let kind = field.get(b"FT").and_then(Object::as_name).ok();
                if found.is_none() {
                    found = field.get(b"V").ok();
                }
                if let Some(kind) = kind {
                    if kind != b"Tx" {
                        return None;
                    }
                    break;
                }
                field = match field.get(b"Parent") {
                    Ok(Object::Reference(id)) => doc.get_dictionary(*id).ok()?,
                    _ => return None,
                };
            }
            found?
        }
        _ => return None,
    };
    let value = match value {
        Object::Reference(id) => doc.get_object(*id).ok()?,
        other => other,
    };
    lopdf::decode_text_string(value)
        .ok()
        .filter(|t| !t.trim().is_empty())
}

/// The appearance stream for an annotation's state (`/AS`) among `states`.
fn state_stream<'d>(
    doc: &'d Document,
    states: &'d Dictionary,
    annot: &Dictionary,
) -> Option<(ObjectId, &'d lopdf::Stream)> {
    let state = annot.get(b"AS").and_then(Object::as_name).ok()?;
    let Ok(Object::Reference(id)) = states.get(state) else {
        return None;
    };
    match doc.get_object(*id) {
        Ok(Object::Stream(s)) => Some((*id, s)),
        _ => None,
    }
}

/// Joins words hyphenated at a line's end ("inter-" then "preter" on the
/// next line), as readers and pdftotext do.
fn join_hyphenated(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let next_lower = lines
            .peek()
            .and_then(|l| l.chars().next())
            .is_some_and(char::is_lowercase);
        let mut chars = line.chars().rev();
        let hyphenated = chars.next() == Some('-') && chars.next().is_some_and(char::is_alphabetic);
        if hyphenated && next_lower {
            out.push_str(&line[..line.len() - 1]);
        } else {
            out.push_str(line);
            if lines.peek().is_some() {
                out.push('\n');
            }
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_hyphenated_words() {
        assert_eq!(
            join_hyphenated("an inter-\npreter\nX-\nRay well-\n"),
            "an interpreter\nX-\nRay well-\n"
        );
    }

    #[test]
    fn breaks_words_and_lines_by_position() {
        let mut line = Line::new(usize::MAX);
        line.glyph([0.0, 0.0], [5.0, 0.0], 10.0, "a");
        line.glyph([5.0, 0.0], [10.0, 0.0], 10.0, "b");
        line.glyph([13.0, 0.0], [18.0, 0.0], 10.0, "c");
        line.glyph([0.0, -12.0], [5.0, -12.0], 10.0, "d");
        assert_eq!(line.out, "ab c\nd");
    }

    #[test]
    fn joins_an_accent_and_the_letter_it_is_drawn_over() {
        // TeX: the accent, then the letter under it.
        let mut line = Line::new(usize::MAX);
        line.glyph([0.0, 0.0], [5.0, 0.0], 10.0, "a");
        line.glyph([5.0, 0.0], [10.0, 0.0], 10.0, "\u{A8}");
        line.glyph([5.5, 0.0], [8.5, 0.0], 10.0, "\u{131}");
        line.glyph([8.5, 0.0], [13.0, 0.0], 10.0, "v");
        assert_eq!(line.out, "a\u{131}\u{308}v");
        // The accent over the letter before it; one beside a letter stays.
        let mut line = Line::new(usize::MAX);
        line.glyph([0.0, 0.0], [5.0, 0.0], 10.0, "e");
        line.glyph([0.5, 0.0], [4.5, 0.0], 10.0, "\u{B4}");
        line.glyph([5.0, 0.0], [10.0, 0.0], 10.0, "\u{B4}");
        line.glyph([10.0, 0.0], [15.0, 0.0], 10.0, "x");
        assert_eq!(line.out, "e\u{301}\u{B4}x");
    }

    #[test]
    fn stops_appending_at_the_room_the_text_limit_leaves() {
        let mut line = Line::new(3);
        line.glyph([0.0, 0.0], [5.0, 0.0], 10.0, "abcdef");
        assert_eq!(line.out, "abc");
        assert!(line.full);
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
