//! Stream filters, decoded within bounds: each stream stops at a size, and
//! all streams of a file share one budget ([`Budget`]), so a file of many
//! small bombs cannot decompress for minutes. Every copy made is charged,
//! an unfiltered stream's too, each time it is read: a page listing one
//! unfiltered stream 100,000 times used to skip the budget. Every filter
//! checks its output's size as it writes it. lopdf's own
//! `decompressed_content` has no bound at all.
//!
//! Flate (zlib, or raw deflate when the header is wrong), ASCIIHex,
//! ASCII85, LZW and RunLength are decoded; a damaged stream gives what was
//! decoded before the damage, as readers do. Image filters (DCT, CCITT,
//! JBIG2, JPX) give nothing: they hold no text. Predictors are not applied.

use std::cell::Cell;
use std::io::Read;

use flate2::{Decompress, FlushDecompress, Status};
use lopdf::{Object, Stream};

use crate::{Error, Result};

/// The bytes every stream of one file may decode to, together, and the
/// cancel check run while they decode.
pub struct Budget<'a> {
    left: Cell<u64>,
    total: u64,
    cancelled: &'a dyn Fn() -> bool,
}

impl<'a> Budget<'a> {
    pub fn new(total: u64, cancelled: &'a dyn Fn() -> bool) -> Self {
        Budget {
            left: Cell::new(total),
            total,
            cancelled,
        }
    }

    /// Err(Cancelled) once the call is cancelled.
    pub fn check(&self) -> Result<()> {
        self.spend(0)
    }

    fn spend(&self, n: usize) -> Result<()> {
        let left = self.left.get();
        if n as u64 > left {
            return Err(Error::TooLarge(format!(
                "its streams decompress to more than {} bytes in all",
                self.total
            )));
        }
        self.left.set(left - n as u64);
        if (self.cancelled)() {
            return Err(Error::Cancelled);
        }
        Ok(())
    }
}

/// The content of `s` through its filters, at most `max` bytes.
pub fn decoded(s: &Stream, max: usize, budget: &Budget) -> Result<Vec<u8>> {
    let filters: Vec<&[u8]> = match s.dict.get(b"Filter") {
        Ok(Object::Name(n)) => vec![n.as_slice()],
        Ok(Object::Array(a)) => a.iter().filter_map(|o| o.as_name().ok()).collect(),
        _ => Vec::new(),
    };
    let mut data = std::borrow::Cow::Borrowed(s.content.as_slice());
    for filter in filters.into_iter().take(8) {
        let out = match filter {
            b"FlateDecode" | b"Fl" => flate(&data, max, budget)?,
            b"ASCIIHexDecode" | b"AHx" => ascii_hex(&data),
            b"ASCII85Decode" | b"A85" => ascii85(&data, max),
            b"LZWDecode" | b"LZW" => lzw(&data, max, early_change(s)),
            b"RunLengthDecode" | b"RL" => run_length(&data, max),
            b"Crypt" => continue,
            _ => Vec::new(),
        };
        if out.len() > max {
            return Err(Error::TooLarge(format!(
                "a stream decompresses to more than {max} bytes"
            )));
        }
        budget.spend(out.len())?;
        data = std::borrow::Cow::Owned(out);
    }
    if let std::borrow::Cow::Borrowed(content) = data {
        // No filter made a copy: the one returned is charged.
        if content.len() > max {
            return Err(Error::TooLarge(format!(
                "a stream holds more than {max} bytes"
            )));
        }
        budget.spend(content.len())?;
    }
    Ok(data.into_owned())
}

fn early_change(s: &Stream) -> bool {
    let params = match s.dict.get(b"DecodeParms") {
        Ok(Object::Dictionary(d)) => Some(d),
        Ok(Object::Array(a)) => a.iter().find_map(|o| o.as_dict().ok()),
        _ => None,
    };
    params
        .and_then(|d| d.get(b"EarlyChange").and_then(Object::as_i64).ok())
        .is_none_or(|v| v != 0)
}

/// Counts what deflate data inflates to, zlib and raw (lopdf reads a stream
/// whose zlib header fails as raw deflate), without keeping it. One counter
/// serves every stream of a file: its decompressors and buffer are reset,
/// not made again, as a file may name many candidate streams.
pub struct InflatedSize {
    zlib: Decompress,
    raw: Decompress,
    chunk: Vec<u8>,
}

impl Default for InflatedSize {
    fn default() -> Self {
        InflatedSize {
            zlib: Decompress::new(true),
            raw: Decompress::new(false),
            chunk: vec![0; 64 << 10],
        }
    }
}

impl InflatedSize {
    /// The larger of `data`'s zlib and raw deflate sizes, refused past `max`.
    pub fn of(&mut self, data: &[u8], max: usize, budget: &Budget) -> Result<usize> {
        self.zlib.reset(true);
        let z_size = count(&mut self.zlib, data, &mut self.chunk, max, budget)?;
        self.raw.reset(false);
        let raw_size = count(&mut self.raw, data, &mut self.chunk, max, budget)?;
        Ok(z_size.max(raw_size))
    }
}

fn count(
    z: &mut Decompress,
    mut data: &[u8],
    chunk: &mut [u8],
    max: usize,
    budget: &Budget,
) -> Result<usize> {
    let mut total = 0usize;
    loop {
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let status = z.decompress(data, chunk, FlushDecompress::None);
        let used = (z.total_in() - in_before) as usize;
        let n = (z.total_out() - out_before) as usize;
        data = &data[used.min(data.len())..];
        total += n;
        if total > max {
            return Err(Error::TooLarge(format!(
                "a stream decompresses to more than {max} bytes"
            )));
        }
        if total % (4 << 20) < n {
            budget.spend(0)?;
        }
        match status {
            Ok(Status::StreamEnd) | Err(_) => break,
            Ok(_) if used == 0 && n == 0 => break,
            Ok(_) => {}
        }
    }
    budget.spend(total)?;
    Ok(total)
}

/// Inflates in chunks, checking the size and the cancel flag as it goes.
/// A zlib stream that fails (often only its checksum is wrong) is read again
/// as raw deflate after its header, which gives everything before the
/// damage.
fn flate(input: &[u8], max: usize, budget: &Budget) -> Result<Vec<u8>> {
    let zlib = input.len() >= 2
        && input[0] & 0x0f == 8
        && ((u16::from(input[0]) << 8) | u16::from(input[1])) % 31 == 0;
    if zlib {
        let (out, clean) = inflate(flate2::read::ZlibDecoder::new(input), max, budget)?;
        if clean {
            return Ok(out);
        }
        let (raw, _) = inflate(flate2::read::DeflateDecoder::new(&input[2..]), max, budget)?;
        return Ok(if raw.len() > out.len() { raw } else { out });
    }
    Ok(inflate(flate2::read::DeflateDecoder::new(input), max, budget)?.0)
}

/// What `reader` gives, and whether it ended without an error.
fn inflate(mut reader: impl Read, max: usize, budget: &Budget) -> Result<(Vec<u8>, bool)> {
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    let mut since_check = 0usize;
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return Ok((out, true)),
            Err(_) => return Ok((out, false)),
            Ok(n) => {
                out.extend_from_slice(&chunk[..n]);
                if out.len() > max {
                    return Err(Error::TooLarge(format!(
                        "a stream decompresses to more than {max} bytes"
                    )));
                }
                since_check += n;
                if since_check >= 4 << 20 {
                    since_check = 0;
                    budget.spend(0)?;
                }
            }
        }
    }
}

fn ascii_hex(input: &[u8]) -> Vec<u8> {
    hex_prefix(input).0
}

/// The bytes of the hexadecimal digits before the first `>` (other bytes
/// skipped, an odd last digit taken as its high half), and how many bytes
/// were read, the `>` included: a hex string's body in a content stream,
/// or an `ASCIIHexDecode` stream.
pub(crate) fn hex_prefix(input: &[u8]) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(input.len() / 2);
    let mut high: Option<u8> = None;
    let mut read = input.len();
    for (i, &b) in input.iter().enumerate() {
        let v = match b {
            b'>' => {
                read = i + 1;
                break;
            }
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => continue,
        };
        match high.take() {
            Some(h) => out.push((h << 4) | v),
            None => high = Some(v),
        }
    }
    if let Some(h) = high {
        out.push(h << 4);
    }
    (out, read)
}

/// ASCII85, stopping once past `max` (a `z` is four bytes: the output used
/// to grow to four times the input before its size was checked).
fn ascii85(input: &[u8], max: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len().min(max));
    let mut group = [0u8; 5];
    let mut n = 0;
    let body = input.strip_prefix(b"<~").unwrap_or(input);
    for &b in body {
        if out.len() > max {
            return out;
        }
        match b {
            b'~' => break,
            b'z' if n == 0 => out.extend_from_slice(&[0; 4]),
            b'!'..=b'u' => {
                group[n] = b - b'!';
                n += 1;
                if n == 5 {
                    let v = group.iter().fold(0u64, |acc, &d| acc * 85 + u64::from(d));
                    out.extend_from_slice(&(v as u32).to_be_bytes());
                    n = 0;
                }
            }
            _ => {}
        }
    }
    if n > 1 {
        for d in group.iter_mut().skip(n) {
            *d = 84;
        }
        let v = group.iter().fold(0u64, |acc, &d| acc * 85 + u64::from(d));
        out.extend_from_slice(&(v as u32).to_be_bytes()[..n - 1]);
    }
    out
}

/// LZW as PDF uses it (codes of 9 to 12 bits, 256 clears, 257 ends).
fn lzw(input: &[u8], max: usize, early: bool) -> Vec<u8> {
    let mut table: Vec<(Option<u16>, u8, u16)> = (0..=255u16).map(|b| (None, b as u8, 1)).collect();
    table.push((None, 0, 0));
    table.push((None, 0, 0));
    let mut out = Vec::new();
    let (mut bits, mut acc, mut width) = (0u32, 0u32, 9u32);
    let mut prev: Option<u16> = None;
    let mut scratch = Vec::new();
    for &byte in input {
        acc = (acc << 8) | u32::from(byte);
        bits += 8;
        while bits >= width {
            let code = ((acc >> (bits - width)) & ((1 << width) - 1)) as u16;
            bits -= width;
            acc &= (1 << bits) - 1;
            match code {
                256 => {
                    table.truncate(258);
                    width = 9;
                    prev = None;
                    continue;
                }
                257 => return out,
                _ => {}
            }
            let first_of = |table: &Vec<(Option<u16>, u8, u16)>, mut c: u16| {
                while let Some(p) = table[c as usize].0 {
                    c = p;
                }
                table[c as usize].1
            };
            let known = (code as usize) < table.len();
            if !known && (code as usize != table.len() || prev.is_none()) {
                return out;
            }
            if let Some(p) = prev {
                if table.len() < 4096 {
                    let first = if known {
                        first_of(&table, code)
                    } else {
                        first_of(&table, p)
                    };
                    let len = table[p as usize].2.saturating_add(1);
                    table.push((Some(p), first, len));
                }
            }
            scratch.clear();
            let mut c = code;
            loop {
                let (parent, b, _) = table[c as usize];
                scratch.push(b);
                match parent {
                    Some(p) => c = p,
                    None => break,
                }
            }
            out.extend(scratch.iter().rev());
            if out.len() > max {
                return out;
            }
            prev = Some(code);
            let next = table.len() + usize::from(early);
            width = match next {
                0..=511 => 9,
                512..=1023 => 10,
                1024..=2047 => 11,
                _ => 12,
            };
        }
    }
    out
}

fn run_length(input: &[u8], max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < input.len() && out.len() <= max {
        let n = input[i];
        i += 1;
        match n {
            128 => break,
            0..=127 => {
                let end = (i + n as usize + 1).min(input.len());
                out.extend_from_slice(&input[i..end]);
                i = end;
            }
            _ => {
                if let Some(&b) = input.get(i) {
                    out.extend(std::iter::repeat_n(b, 257 - n as usize));
                }
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::Dictionary;
    use std::io::Write;

    fn stream(filter: &str, content: Vec<u8>) -> Stream {
        let mut dict = Dictionary::new();
        dict.set("Filter", Object::Name(filter.as_bytes().to_vec()));
        Stream::new(dict, content)
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(data).unwrap();
        z.finish().unwrap()
    }

    #[test]
    fn decodes_the_text_filters() {
        let never = || false;
        let budget = Budget::new(1 << 30, &never);
        let got = |f: &str, c: &[u8]| decoded(&stream(f, c.to_vec()), 1 << 20, &budget).unwrap();
        assert_eq!(got("AHx", b"48 65 6c6C6f>"), b"Hello");
        assert_eq!(got("A85", b"<~87cURD]i,\"Ebo80~>"), b"Hello World!");
        assert_eq!(got("RL", &[2, b'a', b'b', b'c', 254, b'x', 128]), b"abcxxx");
        assert_eq!(got("FlateDecode", &zlib(b"BT (x) Tj ET")), b"BT (x) Tj ET");
        // "-----A---B" in LZW, as the PDF reference's example encodes it.
        let lzw = [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01];
        assert_eq!(got("LZWDecode", &lzw), b"-----A---B");
    }

    #[test]
    fn stops_a_bomb_at_the_stream_limit_and_the_file_budget() {
        let never = || false;
        let bomb = stream("FlateDecode", zlib(&vec![b' '; 8 << 20]));
        let budget = Budget::new(1 << 30, &never);
        assert!(matches!(
            decoded(&bomb, 1 << 20, &budget),
            Err(Error::TooLarge(_))
        ));
        let budget = Budget::new(20 << 20, &never);
        assert!(decoded(&bomb, 16 << 20, &budget).is_ok());
        assert!(decoded(&bomb, 16 << 20, &budget).is_ok());
        assert!(matches!(
            decoded(&bomb, 16 << 20, &budget),
            Err(Error::TooLarge(why)) if why.contains("in all")
        ));
    }

    #[test]
    fn charges_every_copy_of_an_unfiltered_stream() {
        let never = || false;
        let plain = Stream::new(Dictionary::new(), vec![b' '; 1000]);
        let budget = Budget::new(2500, &never);
        assert!(decoded(&plain, 1 << 20, &budget).is_ok());
        assert!(decoded(&plain, 1 << 20, &budget).is_ok());
        assert!(matches!(
            decoded(&plain, 1 << 20, &budget),
            Err(Error::TooLarge(why)) if why.contains("in all")
        ));
        let budget = Budget::new(1 << 30, &never);
        assert!(matches!(
            decoded(&plain, 999, &budget),
            Err(Error::TooLarge(_))
        ));
    }

    #[test]
    fn ascii85_stops_at_the_stream_limit_as_it_decodes() {
        let zs = [b'z'; 1 << 20];
        let out = ascii85(&zs, 1000);
        assert!(out.len() <= 1004);
        let never = || false;
        let budget = Budget::new(1 << 30, &never);
        assert!(matches!(
            decoded(&stream("A85", zs.to_vec()), 1000, &budget),
            Err(Error::TooLarge(_))
        ));
    }

    #[test]
    fn a_cancel_stops_decoding() {
        let cancel = || true;
        let budget = Budget::new(1 << 30, &cancel);
        let s = stream("FlateDecode", zlib(b"text"));
        assert_eq!(decoded(&s, 1 << 20, &budget), Err(Error::Cancelled));
    }

    #[test]
    fn reads_hex_digits_up_to_the_closing_bracket() {
        assert_eq!(hex_prefix(b"48 65\n6c6C6f> tail"), (b"Hello".to_vec(), 13));
        assert_eq!(hex_prefix(b"414>"), (vec![0x41, 0x40], 4));
        assert_eq!(hex_prefix(b"4x1"), (vec![0x41], 3));
        assert_eq!(hex_prefix(b""), (vec![], 0));
    }
}
