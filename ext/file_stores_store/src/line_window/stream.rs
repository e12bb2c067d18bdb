//! [`TextStream`]: one pass over a text file's bytes as they arrive in
//! chunks (a download from an object store, an upload being read), giving
//! the window of its lines, its sha256 and its [`LineIndex`], while holding
//! neither the file nor a string per line.
//!
//! The index is what lets a store that can fetch a byte range (Active
//! Storage's `download_chunk`) show lines deep in a big file without reading
//! up to them: the line that starts at the first line start past every
//! [`INDEX_STEP`] bytes, and the file's line count. It is made for UTF-8
//! files only (no UTF-16 or UTF-32 byte order mark), where a line start in
//! the bytes is a line start in the text; `\n` is never part of a UTF-8
//! multi-byte sequence, so a window started at an indexed offset is the
//! same as one cut from the whole text.

use memchr::memchr_iter;
use sha2::{Digest, Sha256};

use super::{LineWindow, WindowBuilder};
use crate::text::{Decoder, Encoding};

/// Bytes between two entries of a [`LineIndex`]: a read from an entry
/// fetches at most this much before the wanted line (on a file of short
/// lines), and a 512 MB file has about 512 entries.
pub const INDEX_STEP: u64 = 1 << 20;

/// Where lines start in a UTF-8 file: `lines[i]` (from 1) starts at byte
/// `offsets[i]`, in increasing order; `total` is the file's line count, as
/// [`WindowBuilder`] counts it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineIndex {
    pub lines: Vec<u64>,
    pub offsets: Vec<u64>,
    pub total: u64,
}

/// What a [`TextStream`] found once the stream ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// The window; its `total` counts only the lines after the stream's start
    /// when it started mid-file (see [`TextStream::from_line`]).
    pub window: LineWindow,
    /// The sha256 of every byte pushed, in lowercase hex, when asked for.
    pub digest: Option<String>,
    /// The line index, when asked for and the file is UTF-8.
    pub index: Option<LineIndex>,
    /// Bytes pushed.
    pub byte_size: u64,
}

/// Builds the index from the raw bytes.
#[derive(Debug)]
struct IndexBuilder {
    index: LineIndex,
    /// The line the next byte belongs to (from 1).
    line: u64,
    /// Bytes seen.
    pos: u64,
    /// The next entry is the first line start at or past this offset.
    next_mark: u64,
    /// The last byte seen was `\n` (or none was seen).
    at_line_start: bool,
}

impl IndexBuilder {
    fn new() -> Self {
        IndexBuilder {
            index: LineIndex::default(),
            line: 1,
            pos: 0,
            next_mark: INDEX_STEP,
            at_line_start: true,
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        for at in memchr_iter(b'\n', bytes) {
            self.line += 1;
            let start = self.pos + at as u64 + 1;
            if start >= self.next_mark {
                self.index.lines.push(self.line);
                self.index.offsets.push(start);
                self.next_mark = start + INDEX_STEP;
            }
        }
        self.pos += bytes.len() as u64;
        self.at_line_start = bytes.last() == Some(&b'\n');
    }

    fn finish(mut self) -> LineIndex {
        let lines = self.line - 1 + u64::from(!self.at_line_start);
        // An entry at the very end starts no line.
        while self.index.offsets.last() == Some(&self.pos) {
            self.index.offsets.pop();
            self.index.lines.pop();
        }
        self.index.total = lines;
        self.index
    }
}

/// One pass over a file's bytes; see the module docs.
#[derive(Debug)]
pub struct TextStream {
    /// Decodes from the file's start (None: raw UTF-8 from mid-file).
    decoder: Option<Decoder>,
    builder: WindowBuilder,
    hasher: Option<Sha256>,
    index: Option<IndexBuilder>,
    /// The file's first bytes, held until there are four (or the end), so
    /// the decoder and the index see the byte order mark whole.
    head: Vec<u8>,
    started: bool,
    byte_size: u64,
}

impl TextStream {
    /// A stream from the file's start: lines `first` on, `limit` of them, in
    /// `budget` characters (see [`WindowBuilder::new`]), hashing when
    /// `digest`, indexing when `index`.
    pub fn new(
        first: u64,
        limit: Option<u64>,
        budget: Option<u64>,
        digest: bool,
        index: bool,
    ) -> Self {
        TextStream {
            decoder: Some(Decoder::new()),
            builder: WindowBuilder::new(first, limit, budget),
            hasher: digest.then(Sha256::new),
            index: index.then(IndexBuilder::new),
            head: Vec::new(),
            started: false,
            byte_size: 0,
        }
    }

    /// A stream of a UTF-8 file's bytes from the start of line `at` (an
    /// entry of its [`LineIndex`], past its first bytes): the window of lines
    /// `first` on (`first >= at`). Neither hashes nor indexes.
    pub fn from_line(at: u64, first: u64, limit: Option<u64>, budget: Option<u64>) -> Self {
        let at = at.max(1);
        TextStream {
            decoder: None,
            builder: WindowBuilder::new(first.saturating_sub(at) + 1, limit, budget),
            hasher: None,
            index: None,
            head: Vec::new(),
            started: true,
            byte_size: 0,
        }
    }

    /// Takes the next bytes. Returns whether more are wanted: false once
    /// the window is complete and nothing is hashed or indexed.
    pub fn push(&mut self, bytes: &[u8]) -> bool {
        self.byte_size += bytes.len() as u64;
        if let Some(hasher) = self.hasher.as_mut() {
            hasher.update(bytes);
        }
        if self.started {
            self.feed(bytes);
        } else {
            self.head.extend_from_slice(bytes);
            if self.head.len() >= 4 {
                self.start();
            }
        }
        self.wants_more()
    }

    /// Whether more bytes are wanted (see [`TextStream::push`]).
    pub fn wants_more(&self) -> bool {
        self.hasher.is_some() || self.index.is_some() || !self.builder.is_done()
    }

    /// Ends the stream.
    pub fn finish(mut self) -> Finished {
        if !self.started {
            self.start();
        }
        let mut builder = self.builder;
        if let Some(mut decoder) = self.decoder.take() {
            builder.push(decoder.finish().as_bytes());
        }
        Finished {
            window: builder.finish(),
            digest: self.hasher.map(crate::dir_store::sha256_finish),
            index: self.index.map(IndexBuilder::finish),
            byte_size: self.byte_size,
        }
    }

    /// The first bytes are in: decide whether the file is indexable.
    fn start(&mut self) {
        self.started = true;
        let head = std::mem::take(&mut self.head);
        if Encoding::of(&head).is_wide() {
            self.index = None;
        }
        self.feed(&head);
    }

    fn feed(&mut self, bytes: &[u8]) {
        if let Some(index) = self.index.as_mut() {
            index.push(bytes);
        }
        match self.decoder.as_mut() {
            Some(decoder) => self.builder.push(decoder.push(bytes)),
            None => self.builder.push(bytes),
        }
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
