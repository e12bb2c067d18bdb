//! A window of lines cut from a stream of bytes, without holding the stream.
//!
//! `read_file` shows a file a part at a time: lines `first..first+limit`, as
//! many as fit in a budget of characters, and the file's line count for the
//! note that says how to read on. [`WindowBuilder`] takes the bytes chunk by
//! chunk and keeps only the lines it will show (and of a line too long to
//! show whole, only the start it can show), so a 2 GB file is paged in a few
//! megabytes.
//!
//! The result is the one the Ruby tool computes from the whole text
//! (`text.lines`, after invalid UTF-8 is replaced and a UTF-8 BOM dropped):
//! lines end at `\n` and keep it, a last line without one counts, invalid
//! sequences become U+FFFD one maximal subpart at a time (as both
//! `String::from_utf8_lossy` and Ruby's `scrub` do), and sizes are counted
//! in characters. The budget rule is the tool's: a line that does not fit
//! ends the window, except a first line, which is cut to the budget.
//! Since `\n` is never part of a multi-byte sequence, replacing line by line
//! gives the same text as replacing the whole file.
//!
//! A text file's bytes go into the builder through [`crate::text::Decoder`]
//! (byte order marks, UTF-16 and UTF-32), so every store shows the same
//! window: NativeDir while it reads from disk, the stores that hold the
//! bytes through [`window_of_file`], a download through [`TextStream`].

use memchr::{memchr, memchr_iter};

use crate::text::Decoder;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

mod stream;

pub use stream::{Finished, LineIndex, TextStream, INDEX_STEP};

/// The bytes fed to the builder at a time when a whole text is at hand: the
/// cancel flag is looked at between chunks.
const CHUNK: usize = 1 << 20;

/// What was cut from the stream.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineWindow {
    /// The lines shown, as text (invalid UTF-8 replaced).
    pub text: String,
    /// How many lines (or, when `cut`, the one cut line) the text holds.
    pub shown: u64,
    /// How many lines the whole stream has.
    pub total: u64,
    /// The first line wanted was longer than the budget; `text` is its start.
    pub cut: bool,
}

/// Builds a [`LineWindow`]; feed it with [`WindowBuilder::push`] and end
/// with [`WindowBuilder::finish`].
#[derive(Debug)]
pub struct WindowBuilder {
    first: u64,
    /// One past the last line wanted (`u64::MAX` for "to the end").
    end: u64,
    budget: Option<u64>,
    /// The number of the line the next byte belongs to (1-based).
    line: u64,
    /// Still taking lines: not past the window, and the budget not spent.
    taking: bool,
    /// The bytes of the line being taken, up to what the budget could show.
    current: Vec<u8>,
    /// `current` was capped: the line is longer than the budget allows.
    overflowed: bool,
    /// Characters shown so far.
    used: u64,
    /// The last byte seen was `\n` (or nothing was seen): no open line.
    at_line_start: bool,
    out: LineWindow,
}

/// The most bytes one character of lossy UTF-8 can take.
const MAX_CHAR_BYTES: u64 = 4;

impl WindowBuilder {
    /// Lines `first` (from 1) on, `limit` of them (`None`: to the end), as
    /// many as fit in `budget` characters (`None`: no budget).
    pub fn new(first: u64, limit: Option<u64>, budget: Option<u64>) -> Self {
        let first = first.max(1);
        let end = limit.map_or(u64::MAX, |l| first.saturating_add(l));
        WindowBuilder {
            first,
            end,
            budget,
            line: 1,
            taking: end > first,
            current: Vec::new(),
            overflowed: false,
            used: 0,
            at_line_start: true,
            out: LineWindow::default(),
        }
    }

    /// Whether the window is complete: the bytes still to come only count lines.
    pub fn is_done(&self) -> bool {
        !self.taking
    }

    /// Takes the next bytes of the stream.
    pub fn push(&mut self, mut bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.at_line_start = bytes.last() == Some(&b'\n');
        while !bytes.is_empty() {
            if !self.taking {
                self.line += memchr_iter(b'\n', bytes).count() as u64;
                return;
            }
            if self.line < self.first {
                // Skip to the first wanted line, counting lines in one pass.
                let mut start = None;
                for at in memchr_iter(b'\n', bytes) {
                    self.line += 1;
                    if self.line == self.first {
                        start = Some(at + 1);
                        break;
                    }
                }
                match start {
                    Some(start) => bytes = &bytes[start..],
                    None => return,
                }
                continue;
            }
            match memchr(b'\n', bytes) {
                Some(at) => {
                    self.keep(&bytes[..=at]);
                    self.end_line();
                    bytes = &bytes[at + 1..];
                }
                None => {
                    self.keep(bytes);
                    return;
                }
            }
        }
    }

    /// Ends the stream and returns the window.
    pub fn finish(mut self) -> LineWindow {
        let open_line = !self.at_line_start;
        if open_line && self.taking && self.line >= self.first {
            self.end_line();
        } else if open_line {
            self.line += 1;
        }
        self.out.total = self.line - 1;
        self.out
    }

    /// Keeps `part` of the line being taken, as much as the budget could show.
    fn keep(&mut self, part: &[u8]) {
        let room = match self.budget {
            None => u64::MAX,
            Some(budget) => (budget - self.used)
                .saturating_mul(MAX_CHAR_BYTES)
                .saturating_add(MAX_CHAR_BYTES),
        };
        let room = usize::try_from(room).unwrap_or(usize::MAX);
        let free = room.saturating_sub(self.current.len());
        if part.len() > free {
            self.overflowed = true;
        }
        self.current
            .extend_from_slice(&part[..part.len().min(free)]);
    }

    /// The line being taken ended: show it if it fits, else stop.
    fn end_line(&mut self) {
        let text = String::from_utf8_lossy(&self.current);
        let chars = text.chars().count() as u64;
        let fits = !self.overflowed && self.budget.is_none_or(|b| self.used + chars <= b);
        if fits {
            self.out.text.push_str(&text);
            self.used += chars;
            self.out.shown += 1;
        } else {
            if self.out.shown == 0 {
                // A first line longer than the budget: its start. `current`
                // holds more than `budget` whole characters when it was capped.
                let budget = self.budget.unwrap_or(u64::MAX);
                self.out.text = text.chars().take(budget as usize).collect();
                self.out.shown = 1;
                self.out.cut = true;
            }
            self.taking = false;
        }
        self.current.clear();
        self.overflowed = false;
        self.line += 1;
        if self.line >= self.end {
            self.taking = false;
        }
    }
}

/// The window of a whole text file's `bytes`, decoded as [`Decoder`]
/// decodes them: the same window `DirStore::read_lines` pages from disk, for
/// stores that hold the bytes (Memory, Active Storage). Costs memory for the
/// lines shown, not for the file's line count; looks at `cancel` every
/// megabyte.
pub fn window_of_file(
    bytes: &[u8],
    first: u64,
    limit: Option<u64>,
    budget: Option<u64>,
    cancel: &Cancel,
) -> Result<LineWindow> {
    let mut builder = WindowBuilder::new(first, limit, budget);
    let mut decoder = Decoder::new();
    for chunk in bytes.chunks(CHUNK) {
        cancel.check()?;
        builder.push(decoder.push(chunk));
    }
    builder.push(decoder.finish().as_bytes());
    Ok(builder.finish())
}

/// The window of `bytes` taken as UTF-8 text as it is (invalid sequences
/// replaced, no mark dropped): converted text. Looks at `cancel` every
/// megabyte.
pub fn window_of_text(
    bytes: &[u8],
    first: u64,
    limit: Option<u64>,
    budget: Option<u64>,
    cancel: &Cancel,
) -> Result<LineWindow> {
    let mut builder = WindowBuilder::new(first, limit, budget);
    for chunk in bytes.chunks(CHUNK) {
        cancel.check()?;
        builder.push(chunk);
    }
    Ok(builder.finish())
}

/// The window of `bytes` in one call, for tests and callers holding them.
pub fn window_of(bytes: &[u8], first: u64, limit: Option<u64>, budget: Option<u64>) -> LineWindow {
    let mut builder = WindowBuilder::new(first, limit, budget);
    builder.push(bytes);
    builder.finish()
}

#[cfg(test)]
mod tests;
