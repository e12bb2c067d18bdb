//! CMaps embedded in a PDF: a ToUnicode map's `bfchar` and `bfrange`
//! sections (code to text) and a Type0 encoding's codespace ranges (how
//! many bytes make a code).
//!
//! A map is a few kilobytes that can ask for far more than it holds: one
//! `bfrange` names 65,536 codes, a destination can be any length, and a
//! thousand ranges fit in 5 KB. So a destination keeps at most
//! [`MAX_DEST_UNITS`] UTF-16 units (what ligatures and decomposed letters
//! need), and the whole map at most [`MAX_MAP_ENTRIES`] codes and
//! [`MAX_MAP_TEXT`] bytes of text; past those the rest of the map is
//! ignored. The map is read token by token (never all tokens at once), and
//! `cancelled` is asked every few thousand tokens and codes.

use std::collections::HashMap;

/// The most codes one `bfrange` may map, so a hostile range cannot ask for
/// billions of entries.
pub const MAX_RANGE: u32 = 1 << 16;

/// The most UTF-16 units one destination keeps. Ligatures ("ffi") and
/// decomposed letters need a handful; poppler bounds them similarly.
pub const MAX_DEST_UNITS: usize = 32;

/// The most codes one ToUnicode map names: every two-byte code four times
/// over.
pub const MAX_MAP_ENTRIES: usize = 1 << 18;

/// The most bytes of text one ToUnicode map holds, all entries together.
pub const MAX_MAP_TEXT: usize = 4 << 20;

/// How often (in tokens or codes) `cancelled` is asked.
const CHECK_EVERY: u32 = 4096;

/// Reads a ToUnicode CMap's `bfchar` and `bfrange` sections, within the
/// bounds above; stops early (keeping what it read) when `cancelled`.
pub fn parse_to_unicode(bytes: &[u8], cancelled: &dyn Fn() -> bool) -> HashMap<u32, String> {
    let mut map = Map {
        entries: HashMap::new(),
        text: 0,
        work: 0,
        cancelled,
    };
    let mut tokens = Tokens::new(bytes);
    let mut mode = "";
    let mut next = tokens.next();
    while let Some(token) = next.take() {
        if map.full() {
            break;
        }
        match token {
            Tok::Word(w) if w == b"beginbfchar" || w == b"beginbfrange" => {
                mode = if w == b"beginbfchar" { "char" } else { "range" };
            }
            Tok::Word(w) if w.starts_with(b"end") => mode = "",
            Tok::Hex(src) if mode == "char" => match tokens.next() {
                Some(Tok::Hex(dst)) => map.insert(code_of(&src), utf16_text(&dst)),
                other => next = other,
            },
            Tok::Hex(lo) if mode == "range" => {
                let hi = match tokens.next() {
                    Some(Tok::Hex(hi)) => code_of(&hi),
                    other => {
                        next = other;
                        continue;
                    }
                };
                let lo = code_of(&lo);
                let hi = hi.min(lo.saturating_add(MAX_RANGE));
                match tokens.next() {
                    Some(Tok::Hex(dst)) => map.range(lo, hi, &dst),
                    Some(Tok::Array(items)) => {
                        for (k, dst) in items.iter().enumerate() {
                            let code = lo.saturating_add(k as u32);
                            if code > hi || map.full() {
                                break;
                            }
                            map.insert(code, utf16_text(dst));
                        }
                    }
                    other => next = other,
                }
            }
            _ => {}
        }
        if next.is_none() {
            next = tokens.next();
        }
    }
    map.entries
}

/// The map being read and what it has cost.
struct Map<'c> {
    entries: HashMap<u32, String>,
    /// Bytes of text held.
    text: usize,
    /// Codes and tokens seen, for the cancel check.
    work: u32,
    cancelled: &'c dyn Fn() -> bool,
}

impl Map<'_> {
    /// Past a bound, or cancelled: nothing more is read.
    fn full(&mut self) -> bool {
        self.work = self.work.wrapping_add(1);
        if self.entries.len() >= MAX_MAP_ENTRIES || self.text >= MAX_MAP_TEXT {
            return true;
        }
        self.work & (CHECK_EVERY - 1) == 0 && (self.cancelled)()
    }

    fn insert(&mut self, code: u32, text: String) {
        self.text += text.len();
        if let Some(old) = self.entries.insert(code, text) {
            self.text -= old.len();
        }
    }

    /// Codes `lo..=hi` to `dst`, its last unit counting up.
    fn range(&mut self, lo: u32, hi: u32, dst: &[u8]) {
        let mut units = utf16_units(dst);
        for code in lo..=hi {
            if self.full() {
                break;
            }
            self.insert(code, String::from_utf16_lossy(&units));
            if let Some(last) = units.last_mut() {
                *last = last.wrapping_add(1);
            }
        }
    }
}

/// The codespace ranges of a CMap: low and high bytes of equal lengths,
/// 1 to 4 bytes.
pub fn parse_codespace(bytes: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut tokens = Tokens::new(bytes);
    let mut next = tokens.next();
    while let Some(token) = next.take() {
        if out.len() >= 256 {
            break;
        }
        match token {
            Tok::Word(w) if w == b"begincodespacerange" => inside = true,
            Tok::Word(w) if w == b"endcodespacerange" => inside = false,
            Tok::Hex(lo) if inside => match tokens.next() {
                Some(Tok::Hex(hi)) => {
                    if lo.len() == hi.len() && (1..=4).contains(&lo.len()) {
                        out.push((lo, hi));
                    }
                }
                other => next = other,
            },
            _ => {}
        }
        if next.is_none() {
            next = tokens.next();
        }
    }
    out
}

enum Tok<'b> {
    Hex(Vec<u8>),
    Array(Vec<Vec<u8>>),
    Word(&'b [u8]),
}

fn code_of(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .take(4)
        .fold(0u32, |acc, b| (acc << 8) | u32::from(*b))
}

fn utf16_units(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks(2)
        .take(MAX_DEST_UNITS)
        .map(|c| (u16::from(c[0]) << 8) | u16::from(*c.get(1).unwrap_or(&0)))
        .collect()
}

fn utf16_text(bytes: &[u8]) -> String {
    String::from_utf16_lossy(&utf16_units(bytes))
}

/// The tokens of a CMap, one at a time: hex strings (decoded, at most
/// [`MAX_DEST_UNITS`] units kept), arrays of them (at most [`MAX_RANGE`]
/// kept), and words. Everything else is skipped.
struct Tokens<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Tokens<'b> {
    fn new(bytes: &'b [u8]) -> Self {
        Tokens { bytes, at: 0 }
    }

    /// The hex string starting after the `<` at `self.at`.
    fn hex(&mut self) -> Vec<u8> {
        let rest = &self.bytes[self.at + 1..];
        let len = memchr::memchr(b'>', rest).unwrap_or(rest.len());
        self.at += 1 + len + 1;
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        for digit in rest[..len].iter().filter_map(|c| (*c as char).to_digit(16)) {
            if out.len() == 2 * MAX_DEST_UNITS {
                break;
            }
            match high.take() {
                Some(h) => out.push((h << 4) | digit as u8),
                None => high = Some(digit as u8),
            }
        }
        if let Some(h) = high {
            if out.len() < 2 * MAX_DEST_UNITS {
                out.push(h << 4);
            }
        }
        out
    }
}

impl<'b> Iterator for Tokens<'b> {
    type Item = Tok<'b>;

    fn next(&mut self) -> Option<Tok<'b>> {
        let mut array: Option<Vec<Vec<u8>>> = None;
        while self.at < self.bytes.len() {
            let b = self.bytes[self.at];
            if b == b'<' && self.bytes.get(self.at + 1) != Some(&b'<') {
                let hex = self.hex();
                match array.as_mut() {
                    Some(a) if a.len() <= MAX_RANGE as usize => a.push(hex),
                    Some(_) => {}
                    None => return Some(Tok::Hex(hex)),
                }
            } else if b == b'[' {
                array = Some(Vec::new());
                self.at += 1;
            } else if b == b']' {
                self.at += 1;
                if let Some(a) = array.take() {
                    return Some(Tok::Array(a));
                }
            } else if b.is_ascii_alphabetic() && array.is_none() {
                let rest = &self.bytes[self.at..];
                let len = rest
                    .iter()
                    .position(|c| !c.is_ascii_alphanumeric())
                    .unwrap_or(rest.len());
                self.at += len;
                return Some(Tok::Word(&rest[..len]));
            } else {
                self.at += 1;
            }
        }
        array.map(Tok::Array)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(cmap: &[u8]) -> HashMap<u32, String> {
        parse_to_unicode(cmap, &|| false)
    }

    #[test]
    fn reads_bfchar_and_bfrange() {
        let cmap = b"1 beginbfchar <0003> <0041> endbfchar 2 beginbfrange <0010> <0012> <0061> <0020> <0021> [<00660069> <0042>] endbfrange";
        let map = parse(cmap);
        assert_eq!(map[&3], "A");
        assert_eq!(map[&0x11], "b");
        assert_eq!(map[&0x20], "fi");
        assert_eq!(map[&0x21], "B");
    }

    #[test]
    fn bounds_a_hostile_range() {
        let map = parse(b"beginbfrange <00000000> <ffffffff> <0041> endbfrange");
        assert_eq!(map.len() as u32, MAX_RANGE + 1);
    }

    #[test]
    fn keeps_a_few_units_of_a_long_destination() {
        let dst = "0041".repeat(65_536);
        let cmap = format!("beginbfrange <0000> <FFFF> <{dst}> endbfrange");
        let map = parse(cmap.as_bytes());
        assert_eq!(map[&0].len(), MAX_DEST_UNITS);
        assert!(map.values().map(String::len).sum::<usize>() <= MAX_MAP_TEXT + MAX_DEST_UNITS * 3);
    }

    #[test]
    fn bounds_a_map_of_many_full_ranges() {
        let mut cmap = String::from("beginbfrange ");
        for i in 0..1000 {
            cmap.push_str(&format!("<{i:04X}0000> <{i:04X}FFFF> <0041> "));
        }
        cmap.push_str("endbfrange");
        assert_eq!(parse(cmap.as_bytes()).len(), MAX_MAP_ENTRIES);
    }

    #[test]
    fn stops_when_cancelled() {
        let cmap = b"beginbfrange <0000> <FFFF> <0041> endbfrange";
        assert!(parse_to_unicode(cmap, &|| true).len() < CHECK_EVERY as usize);
    }

    #[test]
    fn reads_codespace_ranges() {
        let cmap = b"2 begincodespacerange <00> <80> <8140> <9ffc> endcodespacerange";
        assert_eq!(
            parse_codespace(cmap),
            [
                (vec![0x00], vec![0x80]),
                (vec![0x81, 0x40], vec![0x9f, 0xfc])
            ]
        );
    }
}
