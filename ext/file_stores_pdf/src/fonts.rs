//! Fonts: which bytes of a shown string make one glyph code, the Unicode
//! text of each code, and its advance width.
//!
//! Text comes from the font's ToUnicode map when it has one; otherwise from
//! its encoding (a base encoding, read through lopdf, with `/Differences`
//! glyph names on top) for simple fonts, or from the code itself for CID
//! fonts whose CMap is UCS-2 or UTF-16. A code with no known text gives
//! U+FFFD, which [`crate::usable`] counts against the page.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object};

use crate::cjk::Collection;
use crate::cmap::{
    base_collection, parse_cid_map, parse_codespace, parse_to_unicode, CidMap, MAX_RANGE,
};
use crate::embedded::GlyphText;
use crate::filters::{self, Budget};
use crate::legacy::Legacy;
use crate::names::{glyph_text, numbered_names, numeric_name};

/// The most bytes a font program or ToUnicode map may decode to.
const MAX_FONT_BYTES: usize = 16 << 20;

pub struct Font {
    /// Codes are two bytes (Type0 fonts) instead of one.
    two_byte: bool,
    /// A Type0 font's code lengths from its embedded CMap's codespace
    /// ranges (low and high bytes), when it has one; else two bytes.
    codespace: Vec<(Vec<u8>, Vec<u8>)>,
    /// A Type0 font's embedded CMap's code-to-CID map, when it has one
    /// (else codes are CIDs, as in Identity-H).
    cid_map: Option<CidMap>,
    /// The text of each code from the ToUnicode map.
    to_unicode: HashMap<u32, String>,
    /// The Adobe collection whose CID-to-Unicode map the ToUnicode map
    /// builds on (`usecmap`), for a Type0 font: the text of codes it leaves out.
    to_unicode_base: Option<Collection>,
    /// For simple fonts, the text of each byte from the encoding.
    simple: Vec<Option<String>>,
    /// For simple fonts whose `/Differences` names are all numbers
    /// (`g80`, `C6f`): the character each number names, read after the
    /// embedded program, which knows better when it can say.
    numbered: Vec<Option<char>>,
    /// CID font whose codes are UTF-16 (a `Uni…-UCS2-…` or `-UTF16-` CMap).
    utf16: bool,
    widths: HashMap<u32, f32>,
    default_width: f32,
    /// Glyph space to text space (1/1000, or a Type3 font's matrix).
    scale: f32,
    /// Text from the embedded font program, for codes nothing else names.
    embedded: Option<GlyphText>,
    /// A CID font of Adobe's Japan1, GB1, CNS1 or Korea1 collection whose
    /// codes are CIDs.
    collection: Option<Collection>,
    /// A Type0 font whose predefined CMap is a legacy CJK encoding: codes
    /// are split and read in that encoding.
    legacy: Option<Legacy>,
    /// A Type0 font written vertically (an `…-V` CMap, or an embedded one
    /// of `/WMode 1`): glyphs advance down the page.
    vertical: bool,
}

fn number(o: &Object) -> Option<f32> {
    match o {
        Object::Integer(i) => Some(*i as f32),
        Object::Real(r) => Some(*r),
        _ => None,
    }
}

fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    match o {
        Object::Reference(id) => doc.get_object(*id).unwrap_or(&Object::Null),
        other => other,
    }
}

/// The Adobe CJK collection a Type0 font's CID font names, if any.
fn collection(doc: &Document, dict: &Dictionary) -> Option<Collection> {
    let Some(Object::Array(desc)) = get(doc, dict, b"DescendantFonts") else {
        return None;
    };
    let info = desc
        .first()
        .map(|o| deref(doc, o))
        .and_then(|o| o.as_dict().ok())
        .and_then(|cid| get(doc, cid, b"CIDSystemInfo"))
        .and_then(|o| o.as_dict().ok());
    let field = |k: &[u8]| {
        info.and_then(|i| get(doc, i, k))
            .and_then(|o| o.as_str().ok())
            .unwrap_or_default()
    };
    Collection::named(field(b"Registry"), field(b"Ordering"))
}

fn descriptor<'a>(doc: &'a Document, font: &'a Dictionary) -> Option<&'a Dictionary> {
    get(doc, font, b"FontDescriptor").and_then(|o| o.as_dict().ok())
}

fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    dict.get(key).ok().map(|o| deref(doc, o))
}

impl Font {
    /// A font from its dictionary; never fails: what cannot be read falls
    /// back to defaults.
    pub fn load(doc: &Document, dict: &Dictionary, budget: &Budget) -> Font {
        let subtype = get(doc, dict, b"Subtype")
            .and_then(|o| o.as_name().ok())
            .unwrap_or(b"");
        let two_byte = subtype == b"Type0";
        let encoding_name = get(doc, dict, b"Encoding")
            .and_then(|o| o.as_name().ok())
            .unwrap_or(b"");
        let utf16 = two_byte && {
            let n = String::from_utf8_lossy(encoding_name);
            n.starts_with("Uni") && (n.contains("UCS2") || n.contains("UTF16"))
        };
        let to_unicode_bytes = get(doc, dict, b"ToUnicode")
            .and_then(|o| o.as_stream().ok())
            .and_then(|s| filters::decoded(s, MAX_FONT_BYTES, budget).ok());
        let to_unicode = to_unicode_bytes
            .as_ref()
            .map(|bytes| parse_to_unicode(bytes, &|| budget.check().is_err()))
            .unwrap_or_default();
        let to_unicode_base = to_unicode_bytes
            .as_ref()
            .filter(|_| two_byte)
            .and_then(|bytes| base_collection(bytes));
        let (codespace, cid_map) = match get(doc, dict, b"Encoding") {
            Some(Object::Stream(cmap)) if two_byte => {
                match filters::decoded(cmap, MAX_FONT_BYTES, budget) {
                    Ok(b) => (
                        parse_codespace(&b),
                        Some(parse_cid_map(&b, &|| budget.check().is_err())),
                    ),
                    Err(_) => (Vec::new(), None),
                }
            }
            _ => (Vec::new(), None),
        };
        // Codes that are CIDs, or that an embedded CMap makes CIDs: their
        // text may come from the CID font's collection or program.
        let cids = two_byte && (encoding_name.starts_with(b"Identity") || cid_map.is_some());
        let (simple, numbered) = if two_byte {
            (Vec::new(), Vec::new())
        } else {
            simple_encoding(doc, dict, budget)
        };
        let mut font = Font {
            two_byte,
            codespace,
            cid_map,
            to_unicode,
            to_unicode_base,
            simple,
            numbered,
            utf16,
            widths: HashMap::new(),
            default_width: 500.0,
            scale: 0.001,
            embedded: None,
            collection: None,
            legacy: if two_byte {
                Legacy::named(encoding_name)
            } else {
                None
            },
            vertical: two_byte
                && (encoding_name.ends_with(b"-V")
                    || matches!(get(doc, dict, b"Encoding"),
                        Some(Object::Stream(cmap)) if cmap.dict.get(b"WMode")
                            .and_then(Object::as_i64).is_ok_and(|m| m == 1))),
        };
        if cids {
            font.collection = collection(doc, dict);
        }
        font.embedded = font.embedded_text(doc, dict, cids, budget);
        // A CID font with no map to text, and no glyph text in its program
        // (often none embedded): its writer meant the CIDs as Unicode, as
        // pdftotext reads them.
        font.utf16 |= cids
            && font.to_unicode.is_empty()
            && font.embedded.is_none()
            && font.collection.is_none();
        if two_byte {
            font.cid_widths(doc, dict);
        } else {
            font.simple_widths(doc, dict, subtype == b"Type3");
        }
        font
    }

    /// The embedded program's glyph text, read only where the PDF may lack
    /// text: a CID font with codes that are CIDs (Identity-H or -V, or
    /// through an embedded CMap) and no ToUnicode map, or a symbolic
    /// TrueType font without one.
    fn embedded_text(
        &self,
        doc: &Document,
        dict: &Dictionary,
        cids: bool,
        budget: &Budget,
    ) -> Option<GlyphText> {
        if !self.to_unicode.is_empty() || self.utf16 {
            return None;
        }
        if self.two_byte {
            if !cids {
                return None;
            }
            let Some(Object::Array(desc)) = get(doc, dict, b"DescendantFonts") else {
                return None;
            };
            let cid = desc
                .first()
                .map(|o| deref(doc, o))
                .and_then(|o| o.as_dict().ok())?;
            GlyphText::load(
                doc,
                descriptor(doc, cid)?,
                Some(cid),
                budget,
                MAX_FONT_BYTES,
            )
        } else {
            let symbolic = descriptor(doc, dict)
                .and_then(|d| get(doc, d, b"Flags"))
                .and_then(|o| o.as_i64().ok())
                .is_some_and(|f| f & 4 != 0);
            let unmapped = self.simple.iter().skip(32).all(Option::is_none);
            if !(unmapped || symbolic && dict.get(b"Encoding").is_err()) {
                return None;
            }
            GlyphText::load(doc, descriptor(doc, dict)?, None, budget, MAX_FONT_BYTES)
        }
    }

    fn simple_widths(&mut self, doc: &Document, dict: &Dictionary, type3: bool) {
        if type3 {
            if let Some(Object::Array(m)) = get(doc, dict, b"FontMatrix") {
                if let Some(a) = m.first().and_then(number) {
                    self.scale = a;
                }
            }
            self.default_width = 0.0;
        }
        if let Some(w) = get(doc, dict, b"FontDescriptor")
            .and_then(|o| o.as_dict().ok())
            .and_then(|d| get(doc, d, b"MissingWidth"))
            .and_then(number)
        {
            self.default_width = w;
        }
        let first = get(doc, dict, b"FirstChar").and_then(number).unwrap_or(0.0) as u32;
        let given = matches!(get(doc, dict, b"Widths"), Some(Object::Array(ws)) if !ws.is_empty());
        if !given && !type3 {
            let base = get(doc, dict, b"BaseFont")
                .and_then(|o| o.as_name().ok())
                .unwrap_or(b"");
            let flags = get(doc, dict, b"FontDescriptor")
                .and_then(|o| o.as_dict().ok())
                .and_then(|d| get(doc, d, b"Flags"))
                .and_then(|o| o.as_i64().ok())
                .unwrap_or(0);
            self.widths = crate::standard::widths(base, flags, &self.simple);
        }
        if let Some(Object::Array(ws)) = get(doc, dict, b"Widths") {
            for (i, w) in ws.iter().take(256).enumerate() {
                if let Some(w) = number(deref(doc, w)) {
                    self.widths.insert(first.saturating_add(i as u32), w);
                }
            }
        }
    }

    fn cid_widths(&mut self, doc: &Document, dict: &Dictionary) {
        self.default_width = 1000.0;
        let Some(Object::Array(desc)) = get(doc, dict, b"DescendantFonts") else {
            return;
        };
        let Some(cid) = desc
            .first()
            .map(|o| deref(doc, o))
            .and_then(|o| o.as_dict().ok())
        else {
            return;
        };
        if let Some(dw) = get(doc, cid, b"DW").and_then(number) {
            self.default_width = dw;
        }
        let Some(Object::Array(w)) = get(doc, cid, b"W") else {
            return;
        };
        let mut i = 0;
        let mut entries = 0u32;
        while i < w.len() && entries < MAX_RANGE * 4 {
            let Some(first) = number(deref(doc, &w[i])) else {
                break;
            };
            let first = first as u32;
            match w.get(i + 1).map(|o| deref(doc, o)) {
                Some(Object::Array(list)) => {
                    for (k, v) in list.iter().enumerate() {
                        if let Some(v) = number(deref(doc, v)) {
                            self.widths.insert(first.saturating_add(k as u32), v);
                            entries += 1;
                        }
                    }
                    i += 2;
                }
                Some(last) => {
                    let (Some(last), Some(v)) = (
                        number(last),
                        w.get(i + 2).map(|o| deref(doc, o)).and_then(number),
                    ) else {
                        break;
                    };
                    let last = (last as u32).min(first.saturating_add(MAX_RANGE));
                    for c in first..=last {
                        self.widths.insert(c, v);
                        entries += 1;
                    }
                    i += 3;
                }
                None => break,
            }
        }
    }

    /// Splits a shown string into glyph codes: `(code, is a single byte 32)`,
    /// one at a time (a shown string can hold millions).
    pub fn codes<'f, 'b>(&'f self, bytes: &'b [u8]) -> Codes<'f, 'b> {
        Codes {
            font: self,
            bytes,
            at: 0,
        }
    }

    /// How many bytes the code at the start of `rest` takes.
    fn code_len(&self, rest: &[u8]) -> usize {
        if !self.two_byte {
            1
        } else if let Some(legacy) = self.legacy {
            legacy.code_len(rest[0])
        } else if self.codespace.is_empty() {
            // A UTF-16 CMap's character beyond the BMP is a surrogate pair.
            let high = rest.len() >= 4 && (0xD8..=0xDB).contains(&rest[0]);
            if self.utf16 && high {
                4
            } else {
                2
            }
        } else {
            self.codespace
                .iter()
                .find(|(lo, hi)| {
                    rest.len() >= lo.len()
                        && (0..lo.len()).all(|k| (lo[k]..=hi[k]).contains(&rest[k]))
                })
                .map_or(1, |(lo, _)| lo.len())
        }
    }

    /// The bytes this font's tables hold in memory (its ToUnicode map,
    /// widths and embedded glyph text), as allocated: each map's buckets
    /// and each string's heap block, which the interpreter bounds for the
    /// whole document. (Counting an entry as 48 bytes and its text took
    /// about half of what a map of short strings holds: 40 fonts sharing
    /// one 65,536-code map peaked at 269 MB past a bound of 256.)
    pub fn footprint(&self) -> usize {
        let map =
            map_bytes(&self.to_unicode) + self.to_unicode.values().map(string_heap).sum::<usize>();
        let embedded = self.embedded.as_ref().map_or(0, GlyphText::footprint);
        let cids = self.cid_map.as_ref().map_or(0, |m| map_bytes(&m.cids));
        let simple = self.simple.capacity() * std::mem::size_of::<Option<String>>()
            + self.simple.iter().flatten().map(string_heap).sum::<usize>();
        map + map_bytes(&self.widths) + embedded + simple + cids
    }

    /// Appends the text of `code` to `out`.
    pub fn decode(&self, code: u32, out: &mut String) {
        if let Some(t) = self.to_unicode.get(&code) {
            out.push_str(t);
        } else if let Some(c) = self.to_unicode_base.and_then(|b| b.text(code)) {
            out.push(c);
        } else if let Some(legacy) = self.legacy {
            let len = if code > 0xFF_FFFF {
                4
            } else if code > 0xFFFF {
                3
            } else if code > 0xFF {
                2
            } else {
                1
            };
            match legacy.text(code, len) {
                Some(t) => out.push_str(&t),
                None => out.push('\u{FFFD}'),
            }
        } else if self.two_byte {
            // An embedded CMap makes codes CIDs; one it leaves out is CID
            // 0, no glyph, unless it builds on Identity (as pdftotext reads
            // it; a map of `bfchar` sections, not `cidchar`, names none).
            let code = match &self.cid_map {
                Some(m) => match m.cids.get(&code) {
                    Some(&cid) => cid,
                    None if m.identity => code,
                    None => return out.push('\u{FFFD}'),
                },
                _ => code,
            };
            let pair = [(code >> 16) as u16, code as u16];
            let code_char = if code > 0xFFFF {
                char::decode_utf16(pair).next().and_then(Result::ok)
            } else {
                char::from_u32(code)
            };
            match code_char.filter(|_| self.utf16) {
                Some(c) => out.push(c),
                None => match self.embedded.as_ref().and_then(|e| e.cid(code)) {
                    Some(t) => out.push_str(t),
                    None => match self.collection.and_then(|c| c.text(code)) {
                        Some(c) => out.push(c),
                        None => out.push('\u{FFFD}'),
                    },
                },
            }
        } else {
            let embedded = || self.embedded.as_ref().and_then(|e| e.code(code));
            match self
                .simple
                .get(code as usize)
                .and_then(|t| t.as_deref())
                .or_else(embedded)
            {
                Some(t) => out.push_str(t),
                None => match self.numbered.get(code as usize).copied().flatten() {
                    Some(c) => out.push(c),
                    None => out.push('\u{FFFD}'),
                },
            }
        }
    }

    /// Whether the font's codes are one byte each (a simple font).
    pub fn simple(&self) -> bool {
        !self.two_byte
    }

    /// Whether the font is written vertically (glyphs advance down).
    pub fn vertical(&self) -> bool {
        self.vertical
    }

    /// The advance of `code` in text space units (per unit of font size).
    pub fn width(&self, code: u32) -> f32 {
        self.widths
            .get(&code)
            .copied()
            .unwrap_or(self.default_width)
            * self.scale
    }
}

/// The glyph codes of a shown string ([`Font::codes`]).
pub struct Codes<'f, 'b> {
    font: &'f Font,
    bytes: &'b [u8],
    at: usize,
}

impl Iterator for Codes<'_, '_> {
    type Item = (u32, bool);

    fn next(&mut self) -> Option<(u32, bool)> {
        let rest = self.bytes.get(self.at..).filter(|r| !r.is_empty())?;
        let len = self.font.code_len(rest).max(1);
        let code = rest[..len.min(rest.len())]
            .iter()
            .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
        self.at += len;
        Some((code, len == 1 && rest[0] == 32))
    }
}

/// The text of each byte for a simple font: its base encoding through
/// lopdf, then its `/Differences`; and the characters of its numbered
/// glyph names ([`numbered_names`]).
fn simple_encoding(
    doc: &Document,
    dict: &Dictionary,
    budget: &Budget,
) -> (Vec<Option<String>>, Vec<Option<char>>) {
    let encoding = get(doc, dict, b"Encoding");
    let base_name: &[u8] = match encoding {
        Some(Object::Name(n)) => n,
        Some(Object::Dictionary(d)) => get(doc, d, b"BaseEncoding")
            .and_then(|o| o.as_name().ok())
            .unwrap_or(b""),
        _ => b"",
    };
    let base_name: &[u8] = match base_name {
        b"WinAnsiEncoding" | b"MacRomanEncoding" | b"MacExpertEncoding" | b"StandardEncoding" => {
            base_name
        }
        _ => b"StandardEncoding",
    };
    let mut probe = Dictionary::new();
    probe.set("Type", Object::Name(b"Font".to_vec()));
    probe.set("Encoding", Object::Name(base_name.to_vec()));
    let mut table: Vec<Option<String>> = vec![None; 256];
    if let Ok(enc) = probe.get_font_encoding(doc) {
        for (b, slot) in table.iter_mut().enumerate() {
            if let Ok(s) = enc.bytes_to_string(&[b as u8]) {
                let unmapped = s.is_empty()
                    || s.contains('\u{FFFD}')
                    || (b < 32 && s.chars().all(char::is_control));
                if !unmapped {
                    // The base encodings' ligatures (Standard's and
                    // MacRoman's fi, fl) are their letters, as their glyph
                    // names read and as pdftotext writes them.
                    *slot = Some(s.replace('\u{FB01}', "fi").replace('\u{FB02}', "fl"));
                }
            }
        }
    }
    let named = matches!(
        base_name,
        b"WinAnsiEncoding" | b"MacRomanEncoding" | b"MacExpertEncoding"
    ) || matches!(encoding, Some(Object::Name(n)) if n == b"StandardEncoding")
        || matches!(encoding, Some(Object::Dictionary(d)) if d.get(b"BaseEncoding").is_ok());
    if !named {
        // Symbol and ZapfDingbats have encodings of their own, the base
        // when the PDF names none (a standard one named still wins).
        if let Some(map) = symbolic_base(doc, dict) {
            for (b, slot) in table.iter_mut().enumerate() {
                *slot = map
                    .get(b as u8)
                    .filter(|c| !c.is_control() && !('\u{E000}'..='\u{F8FF}').contains(c))
                    .map(String::from);
            }
        }
    }
    if !matches!(encoding, Some(Object::Name(_))) {
        // An embedded Type1 font's own encoding is the base when the PDF
        // names none.
        let no_base = match encoding {
            Some(Object::Dictionary(d)) => d.get(b"BaseEncoding").is_err(),
            _ => true,
        };
        if no_base {
            for (code, name) in type1_encoding(doc, dict, budget) {
                table[code] = glyph_text(&name).or_else(|| table[code].take());
            }
        }
    }
    let base = table.clone();
    let type3 =
        get(doc, dict, b"Subtype").and_then(|o| o.as_name().ok()) == Some(b"Type3".as_slice());
    let mut numbered = Vec::new();
    // A glyph name that says nothing (`/H1`, `/glyph7`), not `.notdef`.
    let mut unknown = false;
    if let Some(Object::Dictionary(d)) = encoding {
        if let Some(Object::Array(diffs)) = get(doc, d, b"Differences") {
            let diffs: Vec<&Object> = diffs.iter().map(|o| deref(doc, o)).collect();
            numbered = numbered_names(&diffs);
            let mut code = 0usize;
            for item in diffs {
                match item {
                    Object::Integer(i) => code = (*i).clamp(0, 255) as usize,
                    Object::Name(name) => {
                        if code < 256 {
                            // A Type3 glyph named for nothing known reads
                            // as its code in the base encoding, as
                            // pdftotext does.
                            let number = || numbered.get(code).copied().flatten();
                            table[code] = glyph_text(name)
                                .or_else(|| numeric_name(name, code, &base))
                                .or_else(|| type3.then(|| number().map(String::from)).flatten())
                                .or_else(|| type3.then(|| base[code].clone()).flatten());
                            unknown |= table[code].is_none() && name.as_slice() != b".notdef";
                        }
                        code += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    if unknown && numbered.is_empty() {
        // Once a name says nothing, pdftotext reads every code with no text
        // as the character of its number: writers of made-up names mostly
        // keep the codes of the letters. Read so after the embedded
        // program, for printable codes only.
        numbered = (0..=255u8)
            .map(|c| {
                let printable = c >= 0x20 && !(0x7F..0xA0).contains(&c);
                (table[usize::from(c)].is_none() && printable).then(|| char::from(c))
            })
            .collect();
    }
    (table, numbered)
}

/// The built-in encoding of the standard font Symbol or ZapfDingbats, when
/// the font names one of them (with a subset tag or a style, too).
fn symbolic_base(doc: &Document, dict: &Dictionary) -> Option<&'static pdf_encoding::ForwardMap> {
    let base = get(doc, dict, b"BaseFont").and_then(|o| o.as_name().ok())?;
    let base = match base.iter().position(|&b| b == b'+') {
        Some(6) => &base[7..],
        _ => base,
    };
    let family = base
        .split(|&b| b == b',' || b == b'-')
        .next()
        .unwrap_or(base);
    match family {
        b"Symbol" => pdf_encoding::Encoding::AdobeSymbol.forward_map(),
        b"ZapfDingbats" => pdf_encoding::Encoding::AdobeZdingbat.forward_map(),
        _ => None,
    }
}

/// The built-in encoding of an embedded Type1 font program: the
/// `dup CODE /name put` entries of its cleartext part, or, for a compact
/// (CFF, `/FontFile3`) program, the glyph each code selects through the
/// program's own encoding and charset, by name.
fn type1_encoding(doc: &Document, dict: &Dictionary, budget: &Budget) -> Vec<(usize, Vec<u8>)> {
    let Some(descriptor) = get(doc, dict, b"FontDescriptor").and_then(|o| o.as_dict().ok()) else {
        return Vec::new();
    };
    if let Some(program) = get(doc, descriptor, b"FontFile3").and_then(|o| o.as_stream().ok()) {
        return cff_encoding(program, budget);
    }
    let Some(program) = get(doc, descriptor, b"FontFile").and_then(|o| o.as_stream().ok()) else {
        return Vec::new();
    };
    let Ok(bytes) = filters::decoded(program, MAX_FONT_BYTES, budget) else {
        return Vec::new();
    };
    let clear = match bytes.windows(5).position(|w| w == b"eexec") {
        Some(end) => &bytes[..end],
        None => &bytes[..bytes.len().min(64 * 1024)],
    };
    let words: Vec<&[u8]> = clear
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let mut out = Vec::new();
    for w in words.windows(4) {
        if w[0] == b"dup" && w[3] == b"put" && w[2].first() == Some(&b'/') {
            if let Some(code) = std::str::from_utf8(w[1])
                .ok()
                .and_then(|c| c.parse::<usize>().ok())
            {
                if code < 256 {
                    out.push((code, w[2][1..].to_vec()));
                }
            }
        }
    }
    out
}

/// The glyph name of each code of a CFF program's built-in encoding (a
/// name-keyed font only: a CID-keyed one has none).
fn cff_encoding(program: &lopdf::Stream, budget: &Budget) -> Vec<(usize, Vec<u8>)> {
    let Ok(bytes) = filters::decoded(program, MAX_FONT_BYTES, budget) else {
        return Vec::new();
    };
    let Some(cff) = ttf_parser::cff::Table::parse(&bytes) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for code in 0..=255u8 {
        // A custom encoding is searched from its start for each code.
        if code == 128 && budget.check().is_err() {
            break;
        }
        let name = cff
            .glyph_index(code)
            .filter(|gid| gid.0 != 0)
            .and_then(|gid| cff.glyph_name(gid));
        if let Some(name) = name {
            out.push((usize::from(code), name.as_bytes().to_vec()));
        }
    }
    out
}

/// The bytes a hash map's table holds: its buckets (a power of two, at
/// most 7/8 full) of an entry and a control byte each.
pub(crate) fn map_bytes<K, V>(map: &HashMap<K, V>) -> usize {
    if map.capacity() == 0 {
        return 0;
    }
    let buckets = (map.capacity() * 8).div_ceil(7).next_power_of_two();
    buckets * (std::mem::size_of::<(K, V)>() + 1)
}

/// The heap block a string's text takes: the allocator's chunk, at least
/// 32 bytes with 8 of its own, in steps of 16.
pub(crate) fn string_heap(s: &String) -> usize {
    match s.capacity() {
        0 => 0,
        n => ((n + 8 + 15) & !15).max(32),
    }
}

#[cfg(test)]
impl Font {
    fn test_type0() -> Font {
        Font {
            two_byte: true,
            codespace: Vec::new(),
            cid_map: None,
            to_unicode: HashMap::new(),
            to_unicode_base: None,
            simple: Vec::new(),
            numbered: Vec::new(),
            utf16: false,
            widths: HashMap::new(),
            default_width: 1000.0,
            scale: 0.001,
            embedded: None,
            collection: None,
            legacy: None,
            vertical: false,
        }
    }
}

#[cfg(test)]
mod crafted;
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_a_map_of_short_strings_as_allocated() {
        let map: HashMap<u32, String> = (0..65_536).map(|c| (c, "A".to_owned())).collect();
        // 131,072 buckets of 33 bytes, and a 32-byte block for each text.
        assert_eq!(map_bytes(&map), 131_072 * 33);
        assert_eq!(map.values().map(string_heap).sum::<usize>(), 65_536 * 32);
    }

    #[test]
    fn splits_codes_by_codespace() {
        let cmap = b"2 begincodespacerange <00> <80> <8140> <9ffc> endcodespacerange";
        let font = Font {
            codespace: parse_codespace(cmap),
            ..Font::test_type0()
        };
        assert_eq!(
            font.codes(b"A \x81\x40B").collect::<Vec<_>>(),
            [(0x41, false), (0x20, true), (0x8140, false), (0x42, false)]
        );
    }
}
