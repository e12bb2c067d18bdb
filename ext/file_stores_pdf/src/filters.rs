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
//! JBIG2, JPX) give nothing: they hold no text. PNG and TIFF predictors
//! are undone after Flate and LZW, each filter of a chain with its own
//! `/DecodeParms` entry.

use std::cell::Cell;
use std::io::Read;

use flate2::{Decompress, FlushDecompress, Status};
use lopdf::{Dictionary, Object, Stream};

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
    for (n, filter) in filters.into_iter().take(8).enumerate() {
        let params = params(s, n);
        let out = match filter {
            b"FlateDecode" | b"Fl" => predicted(flate(&data, max, budget)?, params),
            b"ASCIIHexDecode" | b"AHx" => ascii_hex(&data),
            b"ASCII85Decode" | b"A85" => ascii85(&data, max),
            b"LZWDecode" | b"LZW" => {
                predicted(lzw(&data, max, early_change(params), budget)?, params)
            }
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

/// The parameters of the `n`th filter of `s`: its `/DecodeParms`, or that
/// array's `n`th element (`/DP` as inline images write it).
fn params(s: &Stream, n: usize) -> Option<&Dictionary> {
    let all = s.dict.get(b"DecodeParms").or_else(|_| s.dict.get(b"DP"));
    match all {
        Ok(Object::Dictionary(d)) if n == 0 => Some(d),
        Ok(Object::Array(a)) => a.get(n).and_then(|o| o.as_dict().ok()),
        _ => None,
    }
}

fn int(params: Option<&Dictionary>, key: &[u8], default: i64) -> i64 {
    params
        .and_then(|d| d.get(key).and_then(Object::as_i64).ok())
        .unwrap_or(default)
}

fn early_change(params: Option<&Dictionary>) -> bool {
    int(params, b"EarlyChange", 1) != 0
}

/// `data` with the predictor `params` name undone: PNG (10 to 15, each row
/// tagged with its own) or TIFF 2, as Flate and LZW data may use. The
/// output is never longer than the input; a last short row is kept as far
/// as it goes.
fn predicted(data: Vec<u8>, params: Option<&Dictionary>) -> Vec<u8> {
    let predictor = int(params, b"Predictor", 1);
    if predictor < 2 {
        return data;
    }
    let colors = int(params, b"Colors", 1).clamp(1, 32) as usize;
    let bits = int(params, b"BitsPerComponent", 8).clamp(1, 16) as usize;
    let columns = int(params, b"Columns", 1).clamp(1, 1 << 24) as usize;
    let bpp = (colors * bits).div_ceil(8).max(1);
    // Never a row longer than the data (a hostile /Columns).
    let row = (colors * bits * columns)
        .div_ceil(8)
        .clamp(1, data.len().max(1));
    if predictor == 2 {
        if bits != 8 {
            return data;
        }
        let mut data = data;
        for line in data.chunks_mut(row) {
            for i in bpp..line.len() {
                line[i] = line[i].wrapping_add(line[i - bpp]);
            }
        }
        return data;
    }
    let mut out = Vec::with_capacity(data.len());
    let mut previous = vec![0u8; row];
    for line in data.chunks(row + 1) {
        let (&kind, bytes) = match line.split_first() {
            Some(split) => split,
            None => break,
        };
        let start = out.len();
        for (i, &b) in bytes.iter().enumerate() {
            let left = if i >= bpp { out[start + i - bpp] } else { 0 };
            let up = previous[i];
            let corner = if i >= bpp { previous[i - bpp] } else { 0 };
            let guess = match kind {
                1 => left,
                2 => up,
                3 => ((u16::from(left) + u16::from(up)) / 2) as u8,
                4 => paeth(left, up, corner),
                _ => 0,
            };
            out.push(b.wrapping_add(guess));
        }
        previous[..bytes.len()].copy_from_slice(&out[start..]);
    }
    out
}

fn paeth(left: u8, up: u8, corner: u8) -> u8 {
    let p = i16::from(left) + i16::from(up) - i16::from(corner);
    let (a, b, c) = (
        (p - i16::from(left)).abs(),
        (p - i16::from(up)).abs(),
        (p - i16::from(corner)).abs(),
    );
    if a <= b && a <= c {
        left
    } else if b <= c {
        up
    } else {
        corner
    }
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

/// LZW as PDF uses it (codes of 9 to 12 bits, 256 clears, 257 ends),
/// through weezl: `early` is `/EarlyChange 1` (the default, the code width
/// grows one code early, as TIFF does). Decoded in chunks, stopping once past
/// `max`; damaged data gives what came before the damage.
fn lzw(input: &[u8], max: usize, early: bool, budget: &Budget) -> Result<Vec<u8>> {
    use weezl::{decode::Decoder, BitOrder, LzwStatus};
    let mut decoder = if early {
        Decoder::with_tiff_size_switch(BitOrder::Msb, 8)
    } else {
        Decoder::new(BitOrder::Msb, 8)
    };
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    let mut input = input;
    let mut since_check = 0usize;
    loop {
        let result = decoder.decode_bytes(input, &mut chunk);
        input = &input[result.consumed_in.min(input.len())..];
        out.extend_from_slice(&chunk[..result.consumed_out]);
        if out.len() > max {
            return Ok(out);
        }
        since_check += result.consumed_out;
        if since_check >= 4 << 20 {
            since_check = 0;
            budget.check()?;
        }
        match result.status {
            Ok(LzwStatus::Ok) if result.consumed_in > 0 || result.consumed_out > 0 => {}
            _ => return Ok(out),
        }
    }
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
mod crafted;
#[cfg(test)]
mod tests {
    use super::*;
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
    fn undoes_png_and_tiff_predictors() {
        let data: Vec<u8> = (0..=255u8)
            .cycle()
            .take(100)
            .map(|b| b.wrapping_mul(7))
            .collect();
        let columns = 10;
        // Each row tagged in turn None, Sub, Up, Average, Paeth.
        let mut encoded = Vec::new();
        let mut previous = vec![0u8; columns];
        for (n, row) in data.chunks(columns).enumerate() {
            let kind = (n % 5) as u8;
            encoded.push(kind);
            for (i, &b) in row.iter().enumerate() {
                let left = if i > 0 { row[i - 1] } else { 0 };
                let corner = if i > 0 { previous[i - 1] } else { 0 };
                let guess = match kind {
                    1 => left,
                    2 => previous[i],
                    3 => ((u16::from(left) + u16::from(previous[i])) / 2) as u8,
                    4 => paeth(left, previous[i], corner),
                    _ => 0,
                };
                encoded.push(b.wrapping_sub(guess));
            }
            previous = row.to_vec();
        }
        let mut params = Dictionary::new();
        params.set("Predictor", 15);
        params.set("Columns", columns as i64);
        assert_eq!(predicted(encoded, Some(&params)), data);
        let tiff: Vec<u8> = data
            .chunks(columns)
            .flat_map(|row| {
                (0..row.len()).map(move |i| row[i].wrapping_sub(if i > 0 { row[i - 1] } else { 0 }))
            })
            .collect();
        params.set("Predictor", 2);
        assert_eq!(predicted(tiff, Some(&params)), data);
        // A hostile row length is cut to the data.
        params.set("Predictor", 12);
        params.set("Columns", i64::MAX);
        assert_eq!(predicted(vec![0, 1, 2], Some(&params)), vec![1, 2]);
    }

    #[test]
    fn reads_each_filter_s_own_parameters_in_a_chain() {
        let never = || false;
        let budget = Budget::new(1 << 30, &never);
        // Up-predicted rows of 4, deflated, then hex.
        let rows = [2u8, b'B', b'T', b' ', b'(', 2, 0, 0, 0, 0];
        let hex: String = zlib(&rows)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join("");
        let mut dict = Dictionary::new();
        dict.set(
            "Filter",
            vec![Object::Name(b"AHx".to_vec()), Object::Name(b"Fl".to_vec())],
        );
        let mut p = Dictionary::new();
        p.set("Predictor", 12);
        p.set("Columns", 4);
        dict.set("DecodeParms", vec![Object::Null, Object::Dictionary(p)]);
        let s = Stream::new(dict, format!("{hex}>").into_bytes());
        assert_eq!(decoded(&s, 1 << 20, &budget).unwrap(), b"BT (BT (");
    }

    #[test]
    fn lzw_early_change_zero_and_one() {
        let never = || false;
        let budget = Budget::new(1 << 30, &never);
        let text: Vec<u8> = (0..3000u32).map(|i| b'a' + (i * 7 % 26) as u8).collect();
        for early in [false, true] {
            let mut encoder = if early {
                weezl::encode::Encoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8)
            } else {
                weezl::encode::Encoder::new(weezl::BitOrder::Msb, 8)
            };
            let data = encoder.encode(&text).unwrap();
            assert_eq!(lzw(&data, 1 << 20, early, &budget).unwrap(), text);
            assert_ne!(lzw(&data, 1 << 20, !early, &budget).unwrap(), text);
        }
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
