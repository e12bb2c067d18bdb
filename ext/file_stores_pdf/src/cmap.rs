//! CMaps embedded in a PDF: a ToUnicode map's `bfchar` and `bfrange`
//! sections (code to text), and a Type0 encoding's codespace ranges (how
//! many bytes make a code) and `cidchar` and `cidrange` sections (code to
//! CID).
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

use crate::cjk::Collection;

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
            Tok::Word(w) if w.starts_with(b"begin") => {
                mode = match w {
                    b"beginbfchar" => "char",
                    b"beginbfrange" => "range",
                    // Not allowed in a ToUnicode map, but some generators
                    // write a code-to-CID map there; pdftotext reads each
                    // CID as the character of that number.
                    b"begincidchar" => "cidchar",
                    b"begincidrange" => "cidrange",
                    _ => "",
                };
            }
            Tok::Word(w) if w.starts_with(b"end") => mode = "",
            Tok::Hex(src) if mode == "char" => match tokens.next() {
                Some(Tok::Hex(dst)) => map.insert(code_of(&src), utf16_text(&dst)),
                other => next = other,
            },
            Tok::Hex(src) if mode == "cidchar" || mode == "cidrange" => {
                match cid_entry(&src, mode == "cidrange", &mut tokens) {
                    Ok((lo, hi, first)) => {
                        for (k, code) in (lo..=hi).enumerate() {
                            if map.full() {
                                break;
                            }
                            let text = char::from_u32(first.saturating_add(k as u32));
                            if let Some(c) = text.filter(|c| *c != '\0') {
                                map.insert(code, c.to_string());
                            }
                        }
                    }
                    Err(other) => next = other,
                }
            }
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

/// One `cidchar` entry (`<code> CID`) or `cidrange` entry (`<lo> <hi>
/// CID`) after its first code `src`: its codes (a range at most
/// [`MAX_RANGE`] long) and first CID; or the token that broke it off.
fn cid_entry<'b>(
    src: &[u8],
    range: bool,
    tokens: &mut Tokens<'b>,
) -> Result<(u32, u32, u32), Option<Tok<'b>>> {
    let lo = code_of(src);
    let hi = if range {
        match tokens.next() {
            Some(Tok::Hex(hi)) => code_of(&hi).min(lo.saturating_add(MAX_RANGE)),
            other => return Err(other),
        }
    } else {
        lo
    };
    match tokens.next() {
        Some(Tok::Number(cid)) => Ok((lo, hi, cid)),
        other => Err(other),
    }
}

/// A Type0 font's embedded CMap: the CID of each code, from its
/// `cidchar` and `cidrange` sections (at most [`MAX_MAP_ENTRIES`] codes),
/// and whether it builds on the predefined `Identity-H` or `-V` map
/// (`usecmap`), so that codes it leaves out are their own CIDs.
pub struct CidMap {
    pub cids: HashMap<u32, u32>,
    pub identity: bool,
}

/// Reads an embedded CMap's code-to-CID sections; stops early (keeping
/// what it read) when `cancelled`.
pub fn parse_cid_map(bytes: &[u8], cancelled: &dyn Fn() -> bool) -> CidMap {
    let mut out = CidMap {
        cids: HashMap::new(),
        identity: false,
    };
    let mut tokens = Tokens::new(bytes);
    let mut mode = "";
    let mut work = 0u32;
    // The two words before `usecmap`: `/Identity-H` reads as `Identity H`.
    let mut words: [&[u8]; 2] = [b"", b""];
    let mut next = tokens.next();
    while let Some(token) = next.take() {
        match token {
            Tok::Word(w) => {
                match w {
                    b"begincidchar" => mode = "char",
                    b"begincidrange" => mode = "range",
                    b"usecmap" => {
                        out.identity |= words[0] == b"Identity" && matches!(words[1], b"H" | b"V")
                    }
                    _ if w.starts_with(b"end") => mode = "",
                    _ => {}
                }
                words = [words[1], w];
            }
            Tok::Hex(src) if !mode.is_empty() => {
                match cid_entry(&src, mode == "range", &mut tokens) {
                    Ok((lo, hi, first)) => {
                        for (k, code) in (lo..=hi).enumerate() {
                            work = work.wrapping_add(1);
                            let stop = work & (CHECK_EVERY - 1) == 0 && cancelled();
                            if stop || out.cids.len() >= MAX_MAP_ENTRIES {
                                return out;
                            }
                            out.cids.insert(code, first.saturating_add(k as u32));
                        }
                    }
                    Err(other) => next = other,
                }
            }
            _ => {}
        }
        work = work.wrapping_add(1);
        if work & (CHECK_EVERY - 1) == 0 && cancelled() {
            break;
        }
        if next.is_none() {
            next = tokens.next();
        }
    }
    out
}

/// The collection a ToUnicode map builds on (`/Adobe-Korea1-UCS2
/// usecmap`): Adobe's CID-to-Unicode map of that collection gives the text
/// of the codes the map leaves out, as pdftotext reads them. Only the
/// first few kilobytes are searched, where `usecmap` stands.
pub fn base_collection(bytes: &[u8]) -> Option<Collection> {
    let head = &bytes[..bytes.len().min(16 << 10)];
    let mut words: [&[u8]; 3] = [b"", b"", b""];
    for token in Tokens::new(head) {
        if let Tok::Word(w) = token {
            if w == b"usecmap" {
                return match words {
                    [b"Adobe", ordering, b"UCS2"] => Collection::named(b"Adobe", ordering),
                    _ => None,
                };
            }
            let section = w.ends_with(b"range") || w.ends_with(b"char");
            if w.starts_with(b"begin") && section {
                // The sections have begun: no usecmap comes after them.
                return None;
            }
            words = [words[1], words[2], w];
        }
    }
    None
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
    /// A run of decimal digits (a CID), saturating.
    Number(u32),
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
    // A one-byte destination (`<41>`) is the character of that number, as
    // pdftotext reads it, not the high half of a unit.
    if let [b] = bytes {
        return vec![u16::from(*b)];
    }
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
/// kept), decimal numbers and words. Everything else is skipped.
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
            } else if b.is_ascii_digit() && array.is_none() {
                let rest = &self.bytes[self.at..];
                let len = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                self.at += len;
                let n = rest[..len].iter().fold(0u32, |n, d| {
                    n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
                });
                return Some(Tok::Number(n));
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
    fn reads_cid_sections_and_an_identity_base() {
        let cmap = b"/CMapName /X def /Identity-H usecmap 1 begincidchar <0041> 34 endcidchar \
                     1 begincidrange <0100> <0102> 1000 endcidrange";
        let map = parse_cid_map(cmap, &|| false);
        assert!(map.identity);
        assert_eq!(map.cids[&0x41], 34);
        assert_eq!(map.cids[&0x102], 1002);
        // Another predefined CMap as the base is no identity.
        assert!(!parse_cid_map(b"/UniJIS-UCS2-H usecmap", &|| false).identity);
        let hostile = parse_cid_map(
            b"begincidrange <00000000> <ffffffff> 1 endcidrange",
            &|| false,
        );
        assert_eq!(hostile.cids.len() as u32, MAX_RANGE + 1);
    }

    #[test]
    fn reads_cid_sections_of_a_to_unicode_map_as_characters() {
        let map = parse(b"begincidrange <01> <02> 65 endcidrange begincidchar <03> 0 endcidchar <04> <41> beginbfchar <05> <42> endbfchar");
        assert_eq!((map[&1].as_str(), map[&2].as_str()), ("A", "B"));
        assert!(!map.contains_key(&3) && !map.contains_key(&4));
        assert_eq!(map[&5], "B");
    }

    #[test]
    fn finds_the_collection_a_to_unicode_map_builds_on() {
        let cmap = b"begincmap /Adobe-Korea1-UCS2 usecmap /CIDSystemInfo 3 dict dup begin end def \
                     1 beginbfchar <46FD> <0081> endbfchar";
        assert_eq!(base_collection(cmap), Some(Collection::Korea1));
        assert_eq!(base_collection(b"/Adobe-Identity-UCS usecmap"), None);
        assert_eq!(
            base_collection(b"1 beginbfchar <01> <41> endbfchar /Adobe-GB1-UCS2 usecmap"),
            None
        );
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
