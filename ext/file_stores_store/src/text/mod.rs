//! The text of a text file's bytes, and how to write text back as the file
//! had it: the one definition every tool uses (`read_file` on every store,
//! `search_files` on disk and over texts, `edit_file`, `apply_patch`, the
//! stores' `text` and the plain-text converter).
//!
//! The first bytes decide ([`Encoding::of`]): a UTF-32 byte order mark
//! (`FF FE 00 00` little-endian, `00 00 FE FF` big-endian; looked for first,
//! as UTF-32LE's starts as UTF-16LE's does), then a UTF-16 one (`FF FE`,
//! `FE FF`), then a UTF-8 one (`EF BB BF`); anything else is UTF-8. The mark
//! is not part of the text. UTF-16 and UTF-32 are transcoded to UTF-8, each
//! unit that is no character (a surrogate without its pair, a UTF-32 code
//! past U+10FFFF or a surrogate) and an incomplete one at the end becoming
//! U+FFFD, as Ruby's `encode(invalid: :replace, undef: :replace)` does: an
//! incomplete sequence at the end (an odd byte, a high surrogate, or both)
//! is one U+FFFD, two for a big-endian high surrogate and a byte that cannot
//! begin its pair. UTF-8 is passed on as it is: invalid sequences are
//! replaced where the text is shown ([`decode`], the line window, search),
//! and kept byte for byte where it is edited.
//!
//! - [`Decoder`]: the bytes in chunks, for callers that never hold the file
//!   (`read_file` on disk and from a download).
//! - [`TextReader`]: the same as a [`std::io::Read`], for search.
//! - [`decode`]: a whole file's text, invalid UTF-8 replaced.
//! - [`Editable`]: the text an edit engine changes, and [`Encoding::encode`]
//!   to write the result back in the file's encoding, with its mark. A
//!   UTF-16 or UTF-32 file with units that are no character is refused: its
//!   text could not be written back as it was.

use std::borrow::Cow;
use std::io::{self, Read};

use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
const UTF16LE_BOM: &[u8] = b"\xFF\xFE";
const UTF16BE_BOM: &[u8] = b"\xFE\xFF";
const UTF32LE_BOM: &[u8] = b"\xFF\xFE\x00\x00";
const UTF32BE_BOM: &[u8] = b"\x00\x00\xFE\xFF";

/// The bytes decoded between two looks at the cancel flag, and read at a
/// time by [`TextReader`].
const CHUNK: usize = 1 << 20;

/// How a text file's bytes hold its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 without a mark (and anything else that has none).
    Utf8,
    /// UTF-8 after the mark `EF BB BF`.
    Utf8Bom,
    Utf16 {
        big_endian: bool,
    },
    Utf32 {
        big_endian: bool,
    },
}

impl Encoding {
    /// The encoding of a file whose first bytes are `head`: it must hold
    /// the file's first four bytes when the file has four.
    pub fn of(head: &[u8]) -> Encoding {
        if head.starts_with(UTF32LE_BOM) {
            Encoding::Utf32 { big_endian: false }
        } else if head.starts_with(UTF32BE_BOM) {
            Encoding::Utf32 { big_endian: true }
        } else if head.starts_with(UTF16LE_BOM) {
            Encoding::Utf16 { big_endian: false }
        } else if head.starts_with(UTF16BE_BOM) {
            Encoding::Utf16 { big_endian: true }
        } else if head.starts_with(UTF8_BOM) {
            Encoding::Utf8Bom
        } else {
            Encoding::Utf8
        }
    }

    /// The byte order mark the file starts with (empty for plain UTF-8).
    pub fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 => b"",
            Encoding::Utf8Bom => UTF8_BOM,
            Encoding::Utf16 { big_endian: false } => UTF16LE_BOM,
            Encoding::Utf16 { big_endian: true } => UTF16BE_BOM,
            Encoding::Utf32 { big_endian: false } => UTF32LE_BOM,
            Encoding::Utf32 { big_endian: true } => UTF32BE_BOM,
        }
    }

    /// UTF-16 or UTF-32: the text is transcoded, so a line start in the
    /// bytes is not one in the text, and NUL bytes are part of characters.
    pub fn is_wide(self) -> bool {
        matches!(self, Encoding::Utf16 { .. } | Encoding::Utf32 { .. })
    }

    /// Its name, as messages give it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 with a byte order mark",
            Encoding::Utf16 { big_endian: false } => "UTF-16LE",
            Encoding::Utf16 { big_endian: true } => "UTF-16BE",
            Encoding::Utf32 { big_endian: false } => "UTF-32LE",
            Encoding::Utf32 { big_endian: true } => "UTF-32BE",
        }
    }

    /// How many bytes [`Encoding::encode`] makes of `text`.
    pub fn encoded_len(self, text: &[u8]) -> usize {
        let body = match self {
            Encoding::Utf8 | Encoding::Utf8Bom => text.len(),
            Encoding::Utf16 { .. } => lossy(text).chars().map(|c| 2 * c.len_utf16()).sum(),
            Encoding::Utf32 { .. } => 4 * lossy(text).chars().count(),
        };
        self.bom().len().saturating_add(body)
    }

    /// `text` (the text an edit made) as this encoding's bytes, with its
    /// mark. UTF-8 keeps its bytes as they are, invalid ones too; for UTF-16
    /// and UTF-32 an invalid UTF-8 sequence (which only an edit's own text
    /// can bring) is U+FFFD.
    pub fn encode(self, text: Vec<u8>) -> Vec<u8> {
        match self {
            Encoding::Utf8 => text,
            Encoding::Utf8Bom => {
                let mut out = Vec::with_capacity(UTF8_BOM.len() + text.len());
                out.extend_from_slice(UTF8_BOM);
                out.extend_from_slice(&text);
                out
            }
            Encoding::Utf16 { big_endian } => {
                let mut out = Vec::with_capacity(self.encoded_len(&text));
                out.extend_from_slice(self.bom());
                for unit in lossy(&text).encode_utf16() {
                    out.extend_from_slice(&if big_endian {
                        unit.to_be_bytes()
                    } else {
                        unit.to_le_bytes()
                    });
                }
                out
            }
            Encoding::Utf32 { big_endian } => {
                let mut out = Vec::with_capacity(self.encoded_len(&text));
                out.extend_from_slice(self.bom());
                for c in lossy(&text).chars() {
                    let code = u32::from(c);
                    out.extend_from_slice(&if big_endian {
                        code.to_be_bytes()
                    } else {
                        code.to_le_bytes()
                    });
                }
                out
            }
        }
    }

    /// [`Encoding::encode`], unless the bytes would pass `max`: then `Err`
    /// with their size, before they are made.
    pub fn encode_within(self, text: Vec<u8>, max: usize) -> std::result::Result<Vec<u8>, usize> {
        let size = self.encoded_len(&text);
        if size > max {
            return Err(size);
        }
        Ok(self.encode(text))
    }
}

fn lossy(text: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(text)
}

/// Decodes a text file's bytes, fed in order, into UTF-8 bytes.
#[derive(Debug, Default)]
pub struct Decoder {
    /// None until the first bytes came.
    encoding: Option<Encoding>,
    /// UTF-16 or UTF-32 bytes held over from the last chunk: an incomplete
    /// unit, a high surrogate waiting for its pair, or both (at most three bytes).
    pending: Vec<u8>,
    /// The transcoded chunk, reused.
    out: String,
    /// U+FFFD written for units that are no character.
    replaced: u64,
}

impl Decoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// The encoding, once the first bytes came.
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// How many U+FFFD the UTF-16 or UTF-32 units that are no character
    /// have become so far (invalid UTF-8 is passed on, not counted).
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// The text of the next `bytes` of the file, as UTF-8 bytes (UTF-8 as it
    /// is). The first call decides the encoding, so it must hold the file's
    /// first four bytes when the file has four.
    pub fn push<'s>(&'s mut self, bytes: &'s [u8]) -> &'s [u8] {
        let mut bytes = bytes;
        let encoding = match self.encoding {
            Some(encoding) => encoding,
            None if bytes.is_empty() => return bytes,
            None => {
                let encoding = Encoding::of(bytes);
                self.encoding = Some(encoding);
                bytes = &bytes[encoding.bom().len()..];
                encoding
            }
        };
        match encoding {
            Encoding::Utf16 { big_endian } => self.push_utf16(bytes, big_endian),
            Encoding::Utf32 { big_endian } => self.push_utf32(bytes, big_endian),
            Encoding::Utf8 | Encoding::Utf8Bom => bytes,
        }
    }

    /// Ends the file: the text of an incomplete unit left over (one
    /// U+FFFD; in big-endian, a high surrogate and a byte that cannot begin
    /// a low one are two, the surrogate invalid and the byte incomplete, as
    /// in Ruby), or nothing.
    pub fn finish(&mut self) -> &'static str {
        let lone = match (self.encoding, std::mem::take(&mut self.pending).as_slice()) {
            (_, []) => return "",
            (Some(Encoding::Utf16 { big_endian: true }), [_, _, next])
                if !(0xDC..=0xDF).contains(next) =>
            {
                2
            }
            _ => 1,
        };
        self.replaced += lone;
        if lone == 2 {
            "\u{FFFD}\u{FFFD}"
        } else {
            "\u{FFFD}"
        }
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

    fn push_utf32(&mut self, bytes: &[u8], big_endian: bool) -> &[u8] {
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
            let c = char::from_u32(code).unwrap_or_else(|| {
                self.replaced += 1;
                '\u{FFFD}'
            });
            self.out.push(c);
        }
        self.pending.extend_from_slice(&data[whole..]);
        self.out.as_bytes()
    }

    fn push_utf16(&mut self, bytes: &[u8], big_endian: bool) -> &[u8] {
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
            let (c, taken) = match u {
                0xD800..=0xDBFF => {
                    if i + 1 == units {
                        break; // its pair may be in the next chunk
                    }
                    let v = unit(i + 1);
                    if (0xDC00..=0xDFFF).contains(&v) {
                        let code =
                            0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(v) - 0xDC00);
                        (char::from_u32(code), 2)
                    } else {
                        (None, 1)
                    }
                }
                0xDC00..=0xDFFF => (None, 1),
                _ => (char::from_u32(u32::from(u)), 1),
            };
            self.out.push(c.unwrap_or_else(|| {
                self.replaced += 1;
                '\u{FFFD}'
            }));
            i += taken;
        }
        self.pending.extend_from_slice(&data[2 * i..]);
        self.out.as_bytes()
    }
}

/// The text of a whole file's `bytes`, with invalid UTF-8 replaced (one
/// U+FFFD per maximal invalid part, as Ruby's `scrub` does). Looks at
/// `cancel` every megabyte.
pub fn decode(bytes: &[u8], cancel: &Cancel) -> Result<String> {
    let encoding = Encoding::of(bytes);
    if !encoding.is_wide() {
        cancel.check()?;
        return Ok(lossy(&bytes[encoding.bom().len()..]).into_owned());
    }
    let mut decoder = Decoder::new();
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.chunks(CHUNK) {
        cancel.check()?;
        // Transcoded text is UTF-8 whole, and a chunk never ends inside a
        // character: what is cut is held over.
        text.push_str(&lossy(decoder.push(chunk)));
    }
    text.push_str(decoder.finish());
    Ok(text)
}

/// A text file as the edit engines change it: its text, in UTF-8 bytes
/// (UTF-8 files as they are, after their mark), and its encoding, to write
/// the result back with [`Encoding::encode`].
#[derive(Debug)]
pub struct Editable<'a> {
    pub encoding: Encoding,
    pub text: Cow<'a, [u8]>,
}

impl<'a> Editable<'a> {
    /// The text of `bytes` to edit. A UTF-16 or UTF-32 file with units
    /// that are no character is a conversion error saying so: read_file
    /// shows each as U+FFFD, and an edit would write U+FFFD back in their
    /// place. Looks at `cancel` every megabyte.
    pub fn of(bytes: &'a [u8], cancel: &Cancel) -> Result<Self> {
        let encoding = Encoding::of(bytes);
        let body = &bytes[encoding.bom().len()..];
        if !encoding.is_wide() {
            return Ok(Editable {
                encoding,
                text: Cow::Borrowed(body),
            });
        }
        let mut decoder = Decoder::new();
        let mut text = Vec::with_capacity(bytes.len());
        for chunk in bytes.chunks(CHUNK) {
            cancel.check()?;
            text.extend_from_slice(decoder.push(chunk));
        }
        text.extend_from_slice(decoder.finish().as_bytes());
        if decoder.replaced() > 0 {
            let (count, one) = (decoder.replaced(), decoder.replaced() == 1);
            let (noun, verb, was) = if one {
                ("sequence", "is", "it was")
            } else {
                ("sequences", "are", "they were")
            };
            return Err(Error::conversion(format!(
                "it is {} text with {count} {noun} that {verb} no character (read_file shows each \
                 as U+FFFD), which an edit would not write back as {was}; to change the file, \
                 write it whole with write_file",
                encoding.name(),
            )));
        }
        Ok(Editable {
            encoding,
            text: Cow::Owned(text),
        })
    }
}

/// A reader of a text file's text: the file's bytes read from `inner`,
/// given as UTF-8 bytes as [`Decoder`] decodes them (UTF-8 passed on as it
/// is, after its mark). What search reads, so its lines are read_file's.
pub struct TextReader<R> {
    inner: R,
    decoder: Decoder,
    /// Bytes read from `inner`, reused.
    raw: Vec<u8>,
    /// Text decoded and not yet given, from `at`.
    out: Vec<u8>,
    at: usize,
    /// UTF-8: read straight from `inner` once `out` is given.
    through: bool,
    ended: bool,
}

impl<R: Read> TextReader<R> {
    pub fn new(inner: R) -> Self {
        TextReader {
            inner,
            decoder: Decoder::new(),
            raw: Vec::new(),
            out: Vec::new(),
            at: 0,
            through: false,
            ended: false,
        }
    }

    /// Reads into `raw` once; the bytes read (0 at the end).
    fn read_raw(&mut self, want: usize) -> io::Result<usize> {
        self.raw.resize(want, 0);
        loop {
            match self.inner.read(&mut self.raw) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }

    /// Decodes the next bytes into `out`.
    fn fill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.at = 0;
        if self.decoder.encoding().is_none() {
            // The first four bytes, or the whole file when it is shorter.
            let mut head = Vec::with_capacity(4);
            while head.len() < 4 {
                let n = self.read_raw(4 - head.len())?;
                if n == 0 {
                    break;
                }
                head.extend_from_slice(&self.raw[..n]);
            }
            if head.is_empty() {
                self.ended = true;
                return Ok(());
            }
            self.out.extend_from_slice(self.decoder.push(&head));
            self.through = !self.decoder.encoding().is_some_and(Encoding::is_wide);
            return Ok(());
        }
        let n = self.read_raw(CHUNK.min(64 << 10))?;
        if n == 0 {
            self.out.extend_from_slice(self.decoder.finish().as_bytes());
            self.ended = true;
        } else {
            self.out
                .extend_from_slice(self.decoder.push(&self.raw[..n]));
        }
        Ok(())
    }
}

impl<R: Read> Read for TextReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.at < self.out.len() {
                let n = buf.len().min(self.out.len() - self.at);
                buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
                self.at += n;
                return Ok(n);
            }
            if self.ended {
                return Ok(0);
            }
            if self.through {
                return self.inner.read(buf);
            }
            self.fill()?;
        }
    }
}

#[cfg(test)]
mod tests;
