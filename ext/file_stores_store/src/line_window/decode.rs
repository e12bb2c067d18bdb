//! Text files decoded as `read_file` decodes them, a chunk at a time, into a
//! [`WindowBuilder`], so no store needs the whole text (or a string per line)
//! to show a window of it.
//!
//! The rules are those of the Ruby side's `Native.text_from_bytes`: a file
//! starting with a UTF-32 byte order mark (`FF FE 00 00` little-endian,
//! `00 00 FE FF` big-endian; checked first, as UTF-32LE's starts as UTF-16LE's
//! does) is transcoded from UTF-32, one with a UTF-16 mark (`FF FE`, `FE FF`)
//! from UTF-16, each without its mark (a UTF-32 unit that is no character,
//! and an incomplete one at the end, is U+FFFD); any other file is
//! UTF-8 with a leading UTF-8 mark dropped. Transcoding replaces what Ruby's
//! `encode(invalid: :replace, undef: :replace)` replaces, with U+FFFD: a
//! surrogate without its pair, one at a time, and an incomplete sequence at
//! the end (an odd byte, a high surrogate, or both) once (twice for a
//! big-endian high surrogate and a byte that cannot begin its pair). Invalid UTF-8 is
//! left to the builder, which replaces it line by line.

use super::WindowBuilder;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

use super::LineWindow;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes fed to the builder at a time when a whole text is at hand: the
/// cancel flag is looked at between chunks.
const CHUNK: usize = 1 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Nothing seen yet: the first bytes decide.
    Undecided,
    Utf8,
    Utf16 {
        big_endian: bool,
    },
    Utf32 {
        big_endian: bool,
    },
}

/// Decodes a text file's bytes, fed in order, into a [`WindowBuilder`].
#[derive(Debug)]
pub struct TextDecoder {
    kind: Kind,
    /// UTF-16 bytes held over from the last chunk: an odd byte, a high
    /// surrogate waiting for its pair, or both (at most three bytes).
    pending: Vec<u8>,
    /// The transcoded chunk, reused.
    out: String,
}

impl Default for TextDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl TextDecoder {
    pub fn new() -> Self {
        TextDecoder {
            kind: Kind::Undecided,
            pending: Vec::new(),
            out: String::new(),
        }
    }

    /// Feeds the next `bytes` of the file. The first call decides the
    /// encoding, so it must hold the file's first four bytes when the file
    /// has four (every caller's first chunk does).
    pub fn push(&mut self, bytes: &[u8], builder: &mut WindowBuilder) {
        let mut bytes = bytes;
        if self.kind == Kind::Undecided {
            if bytes.is_empty() {
                return;
            }
            if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE\x00\x00") {
                self.kind = Kind::Utf32 { big_endian: false };
                bytes = rest;
            } else if let Some(rest) = bytes.strip_prefix(b"\x00\x00\xFE\xFF") {
                self.kind = Kind::Utf32 { big_endian: true };
                bytes = rest;
            } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
                self.kind = Kind::Utf16 { big_endian: false };
                bytes = rest;
            } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
                self.kind = Kind::Utf16 { big_endian: true };
                bytes = rest;
            } else {
                self.kind = Kind::Utf8;
                bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
            }
        }
        match self.kind {
            Kind::Utf16 { big_endian } => self.push_utf16(bytes, big_endian, builder),
            Kind::Utf32 { big_endian } => self.push_utf32(bytes, big_endian, builder),
            _ => builder.push(bytes),
        }
    }

    /// Ends the file: an incomplete UTF-16 sequence left over is one U+FFFD.
    /// In big-endian, a high surrogate and a byte that cannot begin a low
    /// one are two (the surrogate invalid, the byte incomplete), as in Ruby.
    pub fn finish(self, builder: &mut WindowBuilder) {
        let lone = match (self.kind, self.pending.as_slice()) {
            (_, []) => return,
            (Kind::Utf16 { big_endian: true }, [_, _, next]) if !(0xDC..=0xDF).contains(next) => 2,
            _ => 1,
        };
        builder.push("\u{FFFD}".repeat(lone).as_bytes());
    }

    /// The bytes held over from the last chunk followed by `bytes`, when
    /// any were held over (None: `bytes` alone).
    fn joined(&mut self, bytes: &[u8]) -> Option<Vec<u8>> {
        if self.pending.is_empty() {
            return None;
        }
        let mut both = std::mem::take(&mut self.pending);
        both.extend_from_slice(bytes);
        Some(both)
    }

    fn push_utf32(&mut self, bytes: &[u8], big_endian: bool, builder: &mut WindowBuilder) {
        let joined = self.joined(bytes);
        let data: &[u8] = joined.as_deref().unwrap_or(bytes);
        let whole = data.len() / 4 * 4;
        self.out.clear();
        self.out.reserve(whole);
        for unit in data[..whole].chunks_exact(4) {
            let quad = [unit[0], unit[1], unit[2], unit[3]];
            let code = if big_endian {
                u32::from_be_bytes(quad)
            } else {
                u32::from_le_bytes(quad)
            };
            self.out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
        }
        self.pending.extend_from_slice(&data[whole..]);
        builder.push(self.out.as_bytes());
    }

    fn push_utf16(&mut self, bytes: &[u8], big_endian: bool, builder: &mut WindowBuilder) {
        let joined = self.joined(bytes);
        let data: &[u8] = joined.as_deref().unwrap_or(bytes);
        let unit = |i: usize| {
            let pair = [data[2 * i], data[2 * i + 1]];
            if big_endian {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            }
        };
        let units = data.len() / 2;
        self.out.clear();
        self.out.reserve(data.len() + data.len() / 2);
        let mut i = 0;
        while i < units {
            let u = unit(i);
            match u {
                0xD800..=0xDBFF => {
                    if i + 1 == units {
                        break; // its pair may be in the next chunk
                    }
                    let v = unit(i + 1);
                    if (0xDC00..=0xDFFF).contains(&v) {
                        let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(v) - 0xDC00);
                        self.out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                        i += 2;
                    } else {
                        self.out.push('\u{FFFD}');
                        i += 1;
                    }
                }
                0xDC00..=0xDFFF => {
                    self.out.push('\u{FFFD}');
                    i += 1;
                }
                _ => {
                    self.out
                        .push(char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}'));
                    i += 1;
                }
            }
        }
        self.pending.extend_from_slice(&data[2 * i..]);
        builder.push(self.out.as_bytes());
    }
}

/// The window of a whole text file's `bytes`, decoded as [`TextDecoder`]
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
    let mut decoder = TextDecoder::new();
    for chunk in bytes.chunks(CHUNK) {
        cancel.check()?;
        decoder.push(chunk, &mut builder);
    }
    decoder.finish(&mut builder);
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
