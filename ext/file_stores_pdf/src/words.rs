//! Glyphs placed on a page to words, spaces and lines, as pdftotext
//! finds them: [`Line`] takes each glyph's start, end, size and text from
//! the interpreter ([`crate::text`]) in drawing order and decides where a
//! word ends (a gap past 0.1 em, or 0.03 em where the size or baseline
//! changes), where a line ends, how a line of single characters is
//! spaced, which accent joins which letter, and which right-to-left words
//! were drawn in visual order; [`join_hyphenated`] joins lines ending in
//! a hyphen to the line that follows them down the column. A glyph that
//! starts within 0.1 em of the one before it ends a word, as pdftotext
//! takes it for a copy. Positions are in the page's default user space.

#[cfg(test)]
mod crafted;
mod seen;

/// `o` if it is a finite number.
pub(crate) fn number(o: &lopdf::Object) -> Option<f64> {
    match o {
        lopdf::Object::Integer(i) => Some(*i as f64),
        lopdf::Object::Real(r) if r.is_finite() => Some(f64::from(*r)),
        _ => None,
    }
}

/// Glyphs to words and lines, at most `room` bytes of them.
pub(crate) struct Line {
    pub(crate) out: String,
    /// The last glyph: where it ended, its direction, its size, its baseline.
    pub(crate) last: Option<Last>,
    /// The page's glyphs so far, to drop one drawn again on top of itself
    /// (fake bold, shadows, a block drawn twice).
    seen: seen::Seen,
    /// The most bytes `out` may hold: what the text limit leaves.
    room: usize,
    /// A character did not fit in `room`.
    pub(crate) full: bool,
    /// Where the line being placed starts in `out`, the size of its first
    /// glyph, and the gap (in points) before each word after its first.
    line_start: usize,
    line_size: f64,
    gaps: Vec<f64>,
    /// A glyph of the line was drawn well before the end of the one
    /// before it (text placed right to left).
    backward: bool,
    /// The last glyph started within [`OVERLAP`] of the start of the one
    /// before it: the next one ends a word as a change does.
    overlap: bool,
    /// The page's media box (x0, y0, x1, y1): a glyph wholly outside it is
    /// not read, as pdftotext does not read it.
    pub(crate) page: Option<[f64; 4]>,
    /// A space glyph came after the last glyph: the next one starts a new
    /// word, spaced only past [`CHANGE_SPACE`], as pdftotext spaces its
    /// words. A space whose advance `Tw` takes back (a generator that
    /// spaces words by `Tc` and cancels the space characters) joins.
    broken: bool,
}

/// The glyph placed last, which the next one is measured from.
#[derive(Clone, Copy)]
pub(crate) struct Last {
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

/// The most a line's baseline may lie below the one before it (in ems of
/// that line's last glyph) for the two to be one flow of text: pdftotext
/// keeps blocks 2.5 em apart (from one's bottom to the next one's top) in
/// one flow, about 3.5 em from baseline to baseline.
const FLOW_DROP: f64 = 3.5;

/// A gap of this many ems (the line's first size) ends a line for
/// pdftotext, which spaces the letters of each line by their own gaps.
const LINE_GAP: f64 = 1.5;

/// A baseline moved by more than this (in points) starts a new word.
const BASE_SHIFT: f64 = 0.5;

/// A glyph starting within this many ems of the start of the glyph before
/// it, on about its baseline, ends a word, and so does the glyph after
/// it, as pdftotext takes such a glyph for text drawn twice: the words are
/// then spaced as at a change ([`CHANGE_SPACE`]). Glyphs squeezed that
/// narrow (letters of a 40-point font scaled to a tenth of its width, a
/// printer's colour bars) read "❚❘ ❙ ❚❘" as pdftotext has them, not one
/// word of them all.
const OVERLAP: f64 = 0.1;

impl Line {
    pub(crate) fn new(room: usize) -> Self {
        Line {
            out: String::new(),
            last: None,
            seen: Default::default(),
            room,
            full: false,
            line_start: 0,
            line_size: 0.0,
            gaps: Vec::new(),
            backward: false,
            overlap: false,
            broken: false,
            page: None,
        }
    }

    /// The bytes of text that still fit.
    pub(crate) fn room_left(&self) -> usize {
        self.room.saturating_sub(self.out.len())
    }

    /// Appends `c` if it fits in `room`.
    pub(crate) fn push(&mut self, c: char) {
        if self.out.len() + c.len_utf8() > self.room {
            self.full = true;
        } else {
            self.out.push(c);
        }
    }

    pub(crate) fn glyph(&mut self, start: [f64; 2], end: [f64; 2], size: f64, text: &str) {
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
            if self.last.is_some() {
                self.broken = true;
            } else {
                self.space();
            }
            return;
        }
        // A copy lies on the glyph (within 0.1 em, and within most of its
        // width): the second "g" of "suggest" squeezed narrower than 0.1 em
        // starts where the first ends, and is no copy.
        let width = ((end[0] - start[0]).powi(2) + (end[1] - start[1]).powi(2)).sqrt();
        let mut near = 0.1 * size.max(1e-3);
        if width > 1e-6 {
            near = near.min(0.7 * width);
        }
        if self.seen.repeat(start, near, text) {
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
            let from_start =
                (start[0] - last.start[0]) * last.dir[0] + (start[1] - last.start[1]) * last.dir[1];
            let overlap = from_start.abs() < OVERLAP * last.size
                && (base - last.base).abs() < 0.2 * last.size;
            if across > 0.5 * larger {
                self.newline();
                // A line ending in a hyphen is joined to the next one only
                // when that one follows it down the column, as pdftotext
                // joins the lines of one flow: a page number or a heading
                // placed after the page's last line ends the flow, and a
                // blank line keeps [`join_hyphenated`] from joining them.
                let drop = last.base - base;
                if !(0.0..=FLOW_DROP * last.size).contains(&drop) && self.out.ends_with("-\n") {
                    self.push('\n');
                }
            } else {
                let changed = (size - last.size).abs() > 1e-3 * larger
                    || (base - last.base).abs() > BASE_SHIFT
                    || overlap
                    || self.overlap
                    || self.broken;
                let space = if changed { CHANGE_SPACE } else { WORD_SPACE };
                if along > space * larger || along < -0.6 * larger {
                    self.space();
                }
                self.backward |= along < -0.3 * larger;
                if self.out.ends_with(' ') {
                    self.gaps.push(along);
                }
            }
            self.overlap = overlap;
        } else {
            self.overlap = false;
        }
        self.broken = false;
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

    pub(crate) fn space(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
            self.push(' ');
        }
    }

    pub(crate) fn newline(&mut self) {
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
    /// wide-tracked "P r e s i d e n t" one word. Each run of the line
    /// between gaps wider than [`LINE_GAP`] is one such line.
    pub(crate) fn settle(&mut self) {
        let gaps = std::mem::take(&mut self.gaps);
        let start = self.line_start.min(self.out.len());
        self.line_start = self.out.len();
        if !std::mem::take(&mut self.backward) && self.out.is_char_boundary(start) {
            logical_order(&mut self.out, start);
        }
        if gaps.is_empty() || !self.out.is_char_boundary(start) {
            return;
        }
        let line = &self.out[start..];
        let words: Vec<&str> = line.trim_end_matches(' ').split(' ').collect();
        if words.len() != gaps.len() + 1 {
            return;
        }
        let single = |w: &&str| w.chars().filter(|&c| !combining_mark(c)).count() == 1;
        // pdftotext's line ends where the gap passes 1.5 em (or the next
        // word lies well back): each run between such gaps is spaced by
        // its own narrowest gap, so a heading's "s e d m" beside a column
        // reads as pdftotext has it.
        let apart = |g: f64| !(-0.5 * self.line_size..LINE_GAP * self.line_size).contains(&g);
        let mut spaced = String::with_capacity(line.len());
        let mut changed = false;
        let mut i = 0;
        while i < words.len() {
            let mut j = i;
            while j < gaps.len() && !apart(gaps[j]) {
                j += 1;
            }
            let run = &gaps[i..j];
            let min = run.iter().copied().fold(f64::INFINITY, f64::min);
            let respace = !run.is_empty() && min > 0.0 && words[i..=j].iter().all(single);
            let threshold = (1.3 * min).min(0.4 * self.line_size);
            for k in i..=j {
                if k > i && (!respace || gaps[k - 1] >= threshold) {
                    spaced.push(' ');
                }
                changed |= k > i && respace && gaps[k - 1] < threshold;
                spaced.push_str(words[k]);
            }
            if j < gaps.len() {
                spaced.push(' ');
            }
            i = j + 1;
        }
        if changed {
            self.out.truncate(start);
            self.out.push_str(&spaced);
            self.line_start = self.out.len();
        }
    }
}

/// A combining mark (an accent drawn with the letter before it): "ě" as
/// "e" and U+030C is one character of a line of single characters.
fn combining_mark(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36f}' | '\u{1ab0}'..='\u{1aff}' | '\u{1dc0}'..='\u{1dff}'
        | '\u{20d0}'..='\u{20ff}' | '\u{fe20}'..='\u{fe2f}')
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

/// Joins a line ending in a hyphen to the next one, the hyphen dropped,
/// as pdftotext does whatever the letters around it: "inter-" then
/// "preter" reads "interpreter", and "Trace-" then "Monkey" "TraceMonkey"
/// (a rule that asked for a lowercase letter after it kept "Trace-" and
/// "Monkey", two words pdftotext does not have). The page's last line
/// keeps its hyphen.
pub(crate) fn join_hyphenated(text: &str) -> String {
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
    fn ends_a_word_at_a_glyph_starting_within_a_tenth_of_an_em_of_the_last() {
        let mut line = Line::new(usize::MAX);
        // 40 points high, 1 to 4 points wide, 1.6 points apart.
        line.glyph([0.0, 0.0], [4.0, 0.0], 40.0, "W");
        line.glyph([5.6, 0.0], [6.6, 0.0], 40.0, "l");
        line.glyph([8.2, 0.0], [12.2, 0.0], 40.0, "W");
        line.glyph([13.8, 0.0], [14.8, 0.0], 40.0, "l");
        // The second of two narrow "g"s is no copy of the first.
        line.glyph([0.0, -50.0], [3.0, -50.0], 40.0, "g");
        line.glyph([3.0, -50.0], [6.0, -50.0], 40.0, "g");
        assert_eq!(
            line.out,
            "Wl W l
gg"
        );
    }

    #[test]
    fn spaces_each_run_of_single_characters_by_its_own_gaps() {
        let mut line = Line::new(usize::MAX);
        for (x, c) in [(0.0, "s"), (8.0, "e"), (13.0, "d"), (21.0, "m")] {
            line.glyph([x, 0.0], [x + 5.0, 0.0], 10.0, c);
        }
        // Well past 1.5 em on, a run of its own: all single characters.
        for (x, c) in [(60.0, "l"), (68.0, "e"), (76.0, "t")] {
            line.glyph([x, 0.0], [x + 5.0, 0.0], 10.0, c);
        }
        line.settle();
        assert_eq!(line.out, "s ed m let");
    }

    #[test]
    fn keeps_the_hyphen_of_a_line_the_next_one_does_not_follow_down_the_column() {
        let mut line = Line::new(usize::MAX);
        line.glyph([0.0, 100.0], [20.0, 100.0], 10.0, "cre-");
        line.glyph([0.0, 88.0], [20.0, 88.0], 10.0, "ate x-");
        // A page number far below, then a heading above.
        line.glyph([50.0, 10.0], [60.0, 10.0], 10.0, "12");
        line.glyph([0.0, 200.0], [10.0, 200.0], 10.0, "z-");
        line.glyph([0.0, 300.0], [10.0, 300.0], 10.0, "y");
        line.newline();
        assert_eq!(join_hyphenated(&line.out), "create x-\n\n12\nz-\n\ny\n");
    }

    #[test]
    fn stops_appending_at_the_room_the_text_limit_leaves() {
        let mut line = Line::new(3);
        line.glyph([0.0, 0.0], [5.0, 0.0], 10.0, "abcdef");
        assert_eq!(line.out, "abc");
        assert!(line.full);
    }
}
