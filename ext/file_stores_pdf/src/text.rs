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

/// `o` if it is a finite number.
fn number(o: &Object) -> Option<f64> {
    match o {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) if r.is_finite() => Some(f64::from(*r)),
        _ => None,
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
    /// The last glyph: where it ended, its direction, its size, its baseline.
    last: Option<Last>,
    /// The latest glyphs' starts and text, to drop one drawn again on top
    /// of itself (fake bold, shadows).
    recent: std::collections::VecDeque<([f64; 2], String)>,
    /// The most bytes `out` may hold: what the text limit leaves.
    room: usize,
    /// A character did not fit in `room`.
    full: bool,
    /// Where the line being placed starts in `out`, the size of its first
    /// glyph, and the gap (in points) before each word after its first.
    line_start: usize,
    line_size: f64,
    gaps: Vec<f64>,
    /// A glyph of the line was drawn well before the end of the one
    /// before it (text placed right to left).
    backward: bool,
    /// The page's media box (x0, y0, x1, y1): a glyph wholly outside it is
    /// not read, as pdftotext does not read it.
    page: Option<[f64; 4]>,
}

/// How many glyphs back a repeat is looked for.
const RECENT: usize = 96;

/// The glyph placed last, which the next one is measured from.
#[derive(Clone, Copy)]
struct Last {
    start: [f64; 2],
    end: [f64; 2],
    dir: [f64; 2],
    size: f64,
    /// Where its baseline crosses the line, across the direction.
    base: f64,
    /// Its text when that is one character, which an accent drawn over
    /// it may join.
    ch: Option<char>,
}

/// The combining form of a spacing accent, which pdftotext puts after the
/// letter the accent is drawn over (TeX draws `\'e` as an acute, then an
/// "e" moved back under it): "Václav" and "x̃", not "V´aclav" and "˜ x".
fn combining(c: char) -> Option<char> {
    Some(match c {
        '`' => '\u{300}',
        '\u{a8}' => '\u{308}',
        '\u{af}' => '\u{304}',
        '\u{b4}' => '\u{301}',
        '\u{b8}' => '\u{327}',
        '\u{2c6}' => '\u{302}',
        '\u{2c7}' => '\u{30c}',
        '\u{2d8}' => '\u{306}',
        '\u{2d9}' => '\u{307}',
        '\u{2da}' => '\u{30a}',
        '\u{2db}' => '\u{328}',
        '\u{2dc}' => '\u{303}',
        '\u{2dd}' => '\u{30b}',
        _ => return None,
    })
}

/// An accent joins a letter when the middles of the two lie within this
/// share of the letter's width along the line...
const ACCENT_MID: f64 = 0.3;
/// ...and their baselines within this many ems.
const ACCENT_BASE: f64 = 0.5;

/// A gap wider than this (in ems of the larger size) between two glyphs
/// of one size on one baseline is a space: pdftotext's threshold, which a
/// justified line's narrow spaces (kerned, not a space glyph) pass.
const WORD_SPACE: f64 = 0.1;

/// Where the size changes or the baseline moves (a subscript, a
/// superscript), a gap wider than this is a space: as pdftotext, which
/// starts a new word there (not where only the font changes) and then
/// spaces any two words of a line more than 0.03 em apart. TeX puts `\scriptspace` (0.05 em)
/// after a subscript, so "π₁(X, x)" reads "π1 (X, x)" as pdftotext has it.
const CHANGE_SPACE: f64 = 0.03;

/// A baseline moved by more than this (in points) starts a new word.
const BASE_SHIFT: f64 = 0.5;

impl Line {
    fn new(room: usize) -> Self {
        Line {
            out: String::new(),
            last: None,
            recent: Default::default(),
            room,
            full: false,
            line_start: 0,
            line_size: 0.0,
            gaps: Vec::new(),
            backward: false,
            page: None,
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
        if let Some([x0, y0, x1, y1]) = self.page {
            // Off the page (printer's marks, text moved out of view).
            if start[0].max(end[0]) < x0
                || start[0].min(end[0]) > x1
                || start[1].max(end[1]) < y0
                || start[1].min(end[1]) > y1
            {
                return;
            }
        }
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
        let dx = end[0] - start[0];
        let dy = end[1] - start[1];
        let len = (dx * dx + dy * dy).sqrt();
        let dir = if len > 1e-6 {
            [dx / len, dy / len]
        } else {
            [1.0, 0.0]
        };
        let mut base = start[1] * dir[0] - start[0] * dir[1];
        let mut chars = text.chars();
        let ch = chars.next().filter(|_| chars.next().is_none());
        if self.accent(start, end, size, ch) {
            return;
        }
        if let Some(last) = self.last {
            let gx = start[0] - last.end[0];
            let gy = start[1] - last.end[1];
            let along = gx * last.dir[0] + gy * last.dir[1];
            let across = (gy * last.dir[0] - gx * last.dir[1]).abs();
            let larger = size.max(last.size).max(1e-3);
            base = start[1] * last.dir[0] - start[0] * last.dir[1];
            if across > 0.5 * larger {
                self.newline();
            } else {
                let changed = (size - last.size).abs() > 1e-3 * larger
                    || (base - last.base).abs() > BASE_SHIFT;
                let space = if changed { CHANGE_SPACE } else { WORD_SPACE };
                if along > space * larger || along < -0.6 * larger {
                    self.space();
                }
                self.backward |= along < -0.3 * larger;
                if self.out.ends_with(' ') {
                    self.gaps.push(along);
                }
            }
        }
        if self.out.len() == self.line_start {
            self.line_size = size;
        }
        for c in text.chars() {
            if c.is_whitespace() {
                self.space();
            } else if !c.is_control() {
                self.push(c);
            }
        }
        self.last = Some(Last {
            start,
            end,
            dir,
            size,
            base,
            ch,
        });
    }

    /// Joins an accent and the letter it is drawn over, whichever comes
    /// first, as pdftotext does: the accent's combining form after the
    /// letter, with no word break between them. True when `ch` (this
    /// glyph's one character) was taken so.
    fn accent(&mut self, start: [f64; 2], end: [f64; 2], size: f64, ch: Option<char>) -> bool {
        let (Some(last), Some(ch)) = (self.last, ch) else {
            return false;
        };
        let Some(prev) = last.ch else {
            return false;
        };
        let larger = size.max(last.size).max(1e-3);
        if (size - last.size).abs() > 1e-3 * larger || !self.out.ends_with(prev) {
            return false;
        }
        let along = |p: [f64; 2]| p[0] * last.dir[0] + p[1] * last.dir[1];
        let width = |a: [f64; 2], b: [f64; 2]| (along(b) - along(a)).abs();
        let mid = (along(start) + along(end)) / 2.0;
        let last_mid = (along(last.start) + along(last.end)) / 2.0;
        let base = start[1] * last.dir[0] - start[0] * last.dir[1];
        if (base - last.base).abs() >= ACCENT_BASE * larger {
            return false;
        }
        if let (Some(mark), true) = (combining(ch), prev.is_alphanumeric()) {
            // The accent after its letter.
            if (mid - last_mid).abs() < ACCENT_MID * width(last.start, last.end) {
                self.push(mark);
                self.last = Some(Last { ch: None, ..last });
                return true;
            }
        } else if let (Some(mark), true) = (combining(prev), ch.is_alphanumeric()) {
            // The letter after its accent: the accent moves after it.
            if (mid - last_mid).abs() < ACCENT_MID * width(start, end) {
                self.out.pop();
                self.push(ch);
                self.push(mark);
                let dir = last.dir;
                self.last = Some(Last {
                    start,
                    end,
                    dir,
                    size,
                    base,
                    ch: None,
                });
                return true;
            }
        }
        false
    }

    fn space(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
            self.push(' ');
        }
    }

    fn newline(&mut self) {
        self.settle();
        while self.out.ends_with(' ') {
            self.out.pop();
        }
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.push('\n');
        }
        self.line_start = self.out.len();
    }

    /// Ends the line being placed. A line of single characters spaced
    /// apart ("x = y", "1 2  3", letters tracked wide by `Tc`) is spaced
    /// as pdftotext spaces it: only where a gap is 1.3 times the narrowest
    /// one (at most 0.4 em), so "x = y" reads "x=y" and an OCR layer's
    /// wide-tracked "P r e s i d e n t" one word.
    fn settle(&mut self) {
        let gaps = std::mem::take(&mut self.gaps);
        let start = self.line_start.min(self.out.len());
        self.line_start = self.out.len();
        if !std::mem::take(&mut self.backward) && self.out.is_char_boundary(start) {
            logical_order(&mut self.out, start);
        }
        let min = gaps.iter().copied().fold(f64::INFINITY, f64::min);
        if gaps.is_empty() || min <= 0.0 || !self.out.is_char_boundary(start) {
            return;
        }
        let line = &self.out[start..];
        let single = line
            .trim_end_matches(' ')
            .split(' ')
            .all(|w| w.chars().count() == 1);
        let words = line.trim_end_matches(' ').split(' ').count();
        if !single || words != gaps.len() + 1 {
            return;
        }
        let threshold = (1.3 * min).min(0.4 * self.line_size);
        let mut spaced = String::with_capacity(line.len());
        for (i, c) in line.trim_end_matches(' ').split(' ').enumerate() {
            if i > 0 && gaps[i - 1] >= threshold {
                spaced.push(' ');
            }
            spaced.push_str(c);
        }
        self.out.truncate(start);
        self.out.push_str(&spaced);
        self.line_start = self.out.len();
    }
}

/// A letter of a right-to-left script (Hebrew, Arabic, their presentation
/// forms).
fn right_to_left(c: char) -> bool {
    matches!(c, '\u{590}'..='\u{8ff}' | '\u{fb1d}'..='\u{fdff}' | '\u{fe70}'..='\u{feff}')
}

/// A mark drawn on the letter before it (Hebrew points, Arabic vowels).
fn rtl_mark(c: char) -> bool {
    matches!(c, '\u{591}'..='\u{5c7}' | '\u{610}'..='\u{61a}' | '\u{64b}'..='\u{65f}'
        | '\u{670}' | '\u{6d6}'..='\u{6ed}' | '\u{8d3}'..='\u{8ff}')
}

/// Puts the words of right-to-left letters of the line from `start` in
/// `out`, drawn left to right (in visual order, as many writers place
/// Arabic), back in the order they are read, as pdftotext does: each mark
/// stays after its letter.
fn logical_order(out: &mut String, start: usize) {
    let line = &out[start..];
    if line.is_ascii() {
        return;
    }
    let mut fixed = String::with_capacity(line.len());
    let mut changed = false;
    for (i, word) in line.split(' ').enumerate() {
        if i > 0 {
            fixed.push(' ');
        }
        if word.chars().count() > 1 && word.chars().all(right_to_left) {
            let mut clusters: Vec<String> = Vec::new();
            for c in word.chars() {
                match clusters.last_mut() {
                    Some(last) if rtl_mark(c) => last.push(c),
                    _ => clusters.push(c.to_string()),
                }
            }
            clusters.iter().rev().for_each(|c| fixed.push_str(c));
            changed = true;
        } else {
            fixed.push_str(word);
        }
    }
    if changed {
        out.truncate(start);
        out.push_str(&fixed);
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
        // Annotations are placed at their rectangles here, not mapped
        // through their appearance's box and matrix: not held to the page.
        line.page = None;
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
                line.glyph([trm[4], trm[5]], [end[4], end[5]], size, &text);
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

/// Joins a line ending in a hyphen to the next one, the hyphen dropped,
/// as pdftotext does whatever the letters around it: "inter-" then
/// "preter" reads "interpreter", and "Trace-" then "Monkey" "TraceMonkey"
/// (a rule that asked for a lowercase letter after it kept "Trace-" and
/// "Monkey", two words pdftotext does not have). The page's last line
/// keeps its hyphen.
fn join_hyphenated(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let next = lines.peek().is_some_and(|l| !l.is_empty());
        if line.ends_with('-') && next {
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
mod tests {
    use super::*;

    #[test]
    fn joins_hyphenated_words() {
        assert_eq!(
            join_hyphenated("an inter-\npreter\nX-\nRay well-\n\nlast-"),
            "an interpreter\nXRay well-\n\nlast-"
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
    fn ends_a_word_where_the_size_or_the_baseline_changes() {
        let mut line = Line::new(usize::MAX);
        line.glyph([0.0, 0.0], [5.0, 0.0], 10.0, "x");
        // A subscript touching it, then back at 10 points 0.05 em on.
        line.glyph([5.0, -2.0], [9.0, -2.0], 7.0, "1");
        line.glyph([9.5, 0.0], [13.0, 0.0], 10.0, "(");
        // Within one size and baseline, 0.05 em is no space.
        line.glyph([13.5, 0.0], [18.0, 0.0], 10.0, "y");
        assert_eq!(line.out, "x1 (y");
    }

    #[test]
    fn spaces_a_line_of_single_characters_by_its_narrowest_gap() {
        let mut line = Line::new(usize::MAX);
        // "a b  c" by position: gaps of 3 and 7 points; 1.3 x 3 lies between.
        line.glyph([0.0, 0.0], [5.0, 0.0], 10.0, "a");
        line.glyph([8.0, 0.0], [13.0, 0.0], 10.0, "b");
        line.glyph([20.0, 0.0], [25.0, 0.0], 10.0, "c");
        line.glyph([0.0, -12.0], [5.0, -12.0], 10.0, "d");
        line.glyph([8.0, -12.0], [15.0, -12.0], 10.0, "ef");
        line.settle();
        assert_eq!(line.out, "ab c\nd ef");
    }

    #[test]
    fn joins_an_accent_and_its_letter_whichever_comes_first() {
        let mut line = Line::new(usize::MAX);
        // "V", then an acute over the "a" drawn after it (TeX's \'a).
        line.glyph([0.0, 0.0], [7.0, 0.0], 10.0, "V");
        line.glyph([7.5, 0.0], [12.5, 0.0], 10.0, "\u{b4}");
        line.glyph([7.0, 0.0], [13.0, 0.0], 10.0, "a");
        line.glyph([13.0, 0.0], [17.0, 0.0], 10.0, "c");
        // A tilde drawn over the "x" after it.
        line.glyph([25.0, 0.0], [30.0, 0.0], 10.0, "x");
        line.glyph([25.0, 0.0], [30.0, 0.0], 10.0, "\u{2dc}");
        // An accent by itself stays as it is.
        line.glyph([40.0, 0.0], [45.0, 0.0], 10.0, "\u{b4}");
        assert_eq!(line.out, "Va\u{301}c x\u{303} \u{b4}");
    }

    #[test]
    fn reads_right_to_left_words_drawn_left_to_right_in_logical_order() {
        let mut out = "x \u{639}\u{64e}\u{627} ab".to_owned();
        logical_order(&mut out, 2);
        assert_eq!(out, "x \u{627}\u{639}\u{64e} ab");
        // Drawn right to left, in logical order already: kept.
        let mut line = Line::new(usize::MAX);
        line.glyph([20.0, 0.0], [23.0, 0.0], 20.0, "\u{627}");
        line.glyph([16.5, 0.0], [19.5, 0.0], 20.0, "\u{646}");
        line.settle();
        assert_eq!(line.out, "\u{627}\u{646}");
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
