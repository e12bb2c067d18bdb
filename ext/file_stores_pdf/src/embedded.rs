//! Text from an embedded font program, for codes the PDF gives no text for
//! (no ToUnicode entry): many generators embed an Identity-H CID font with
//! only the glyphs used and no ToUnicode map. The glyphs' Unicode values are
//! still in the font: its own Unicode `cmap` read backwards (glyph to
//! character), else its glyph names (`post` table, or a CFF charset).
//! [ttf-parser] reads the font; it never panics on bad data.
//!
//! A font program is small data that can describe a great deal: one cmap
//! group covers every code from 0 to 0xFFFFFFFF, and ttf-parser's
//! `codepoints` visits each (2.35 s a group); its `post` glyph names are
//! found by walking every name before the one asked for (quadratic in the
//! glyphs). So the cmap's groups are read here, clamped to the glyphs the
//! font has; other Unicode subtables are asked only for the 65,536 BMP
//! codes; each distinct subtable is read once; all lookups of one font
//! together are bounded by [`MAX_LOOKUPS`]; the `post` names are read in
//! one pass; and the cancel flag is asked every few thousand steps.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object};
use ttf_parser::cmap::{Format, Subtable};
use ttf_parser::{Face, GlyphId, Tag};

use crate::filters::{self, Budget};
use crate::fonts::{map_bytes, string_heap};
use crate::names::glyph_text;

/// The most glyph-to-text entries kept from one font: every glyph id. (The
/// loops over glyphs run to the font's count, a u16; they once ran to
/// `MAX_GLYPHS as u16`, which is 0, so no glyph name was ever read.)
const MAX_GLYPHS: usize = 1 << 16;

/// The most code points looked up in one font's cmap, all subtables
/// together: a whole BMP table and a few million more.
const MAX_LOOKUPS: u32 = 1 << 22;

/// How often (in lookups or glyphs) the cancel flag is asked.
const CHECK_EVERY: u32 = 4096;

/// Glyph ids to text, from one embedded font program.
#[derive(Default)]
pub struct GlyphText {
    text: HashMap<u16, String>,
    /// For a simple TrueType font: code to glyph id through its own cmap.
    code_to_glyph: HashMap<u32, u16>,
    /// For a CID font: CID to glyph id (`/CIDToGIDMap` as a stream).
    cid_to_gid: Option<Vec<u16>>,
}

fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    match o {
        Object::Reference(id) => doc.get_object(*id).unwrap_or(&Object::Null),
        other => other,
    }
}

impl GlyphText {
    /// Reads the program of `descriptor` (a font descriptor); `cid_font` is
    /// the CID font dictionary for Type0 fonts.
    pub fn load(
        doc: &Document,
        descriptor: &Dictionary,
        cid_font: Option<&Dictionary>,
        budget: &Budget,
        max: usize,
    ) -> Option<GlyphText> {
        let program = [b"FontFile2".as_slice(), b"FontFile3"]
            .iter()
            .find_map(|k| descriptor.get(k).ok().map(|o| deref(doc, o)))?
            .as_stream()
            .ok()?;
        let data = filters::decoded(program, max, budget).ok()?;
        let cancelled = || budget.check().is_err();
        let mut out = GlyphText::default();
        if let Ok(face) = Face::parse(&data, 0) {
            let mut walk = Walk {
                left: MAX_LOOKUPS,
                steps: 0,
                cancelled: &cancelled,
            };
            out.read_face(&face, cid_font.is_none(), &mut walk);
        } else if let Some(cff) = ttf_parser::cff::Table::parse(&data) {
            for gid in 0..cff.number_of_glyphs() {
                // A CFF charset of ranges is searched from its start for
                // each glyph.
                if u32::from(gid) % 256 == 255 && cancelled() {
                    break;
                }
                if let Some(t) = cff
                    .glyph_name(GlyphId(gid))
                    .and_then(|n| glyph_text(n.as_bytes()))
                {
                    out.text.insert(gid, t);
                }
            }
        }
        if let Some(Object::Stream(map)) = cid_font
            .and_then(|d| d.get(b"CIDToGIDMap").ok())
            .map(|o| deref(doc, o))
        {
            if let Ok(bytes) = filters::decoded(map, 2 << 17, budget) {
                let gids = bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_be_bytes([c[0], c[1]]));
                out.cid_to_gid = Some(gids.collect());
            }
        }
        (!out.text.is_empty()).then_some(out)
    }

    fn read_face(&mut self, face: &Face, simple: bool, walk: &mut Walk) {
        let Some(cmap) = face.tables().cmap else {
            return self.read_names(face, walk);
        };
        let glyphs = u32::from(face.number_of_glyphs());
        let raw = face
            .raw_face()
            .table(Tag::from_bytes(b"cmap"))
            .unwrap_or(&[]);
        let mut seen = std::collections::HashSet::new();
        for (index, sub) in (0..cmap.subtables.len()).zip(cmap.subtables) {
            // Records may all point at one subtable: each is read once.
            match record_offset(raw, index) {
                Some(offset) if !seen.insert(offset) => continue,
                _ => {}
            }
            if walk.stop() {
                break;
            }
            if sub.is_unicode() {
                match sub.format {
                    Format::SegmentedCoverage(_) => {
                        let groups = record_offset(raw, index)
                            .and_then(|o| raw.get(o as usize..))
                            .map(format12_groups)
                            .unwrap_or_default();
                        for (first, last, glyph) in groups {
                            self.read_group(first, last, glyph, glyphs, walk);
                        }
                    }
                    // Every code of a group maps to one glyph: text for
                    // that glyph, not a walk over the codes.
                    Format::ManyToOneRangeMappings(_)
                    | Format::UnicodeVariationSequences(_)
                    | Format::MixedCoverage => {}
                    _ => self.read_bmp(&sub, walk),
                }
            } else if simple && self.code_to_glyph.is_empty() {
                if matches!(sub.format, Format::ManyToOneRangeMappings(_)) {
                    continue;
                }
                // A symbolic font's (3,0) or (1,0) table: codes, sometimes
                // at U+F000 and up, to glyphs.
                for code in 0..256u32 {
                    let gid = sub
                        .glyph_index(code)
                        .or_else(|| sub.glyph_index(0xF000 + code));
                    if let Some(g) = gid.filter(|g| g.0 != 0) {
                        self.code_to_glyph.insert(code, g.0);
                    }
                }
            }
        }
        self.read_names(face, walk);
    }

    /// The glyph of a character, unless the glyph has text already: the
    /// first (lowest) character of a glyph wins, "A" rather than a
    /// compatibility form.
    fn name(&mut self, gid: u16, cp: u32) {
        let Some(c) = char::from_u32(cp) else {
            return;
        };
        if gid != 0 && !c.is_control() && self.text.len() < MAX_GLYPHS {
            self.text.entry(gid).or_insert_with(|| c.to_string());
        }
    }

    /// A Unicode subtable's BMP codes, looked up one by one.
    fn read_bmp(&mut self, sub: &Subtable, walk: &mut Walk) {
        for cp in 0..=0xFFFFu32 {
            if walk.spend() {
                return;
            }
            if let Some(gid) = sub.glyph_index(cp) {
                self.name(gid.0, cp);
            }
        }
    }

    /// One format 12 group, `first..=last` to glyphs from `glyph` on,
    /// clamped to the font's glyphs and to Unicode.
    fn read_group(&mut self, first: u32, last: u32, glyph: u32, glyphs: u32, walk: &mut Walk) {
        let span = glyphs.saturating_sub(glyph);
        let last = last
            .min(0x10FFFF)
            .min(first.saturating_add(span.saturating_sub(1)));
        if span == 0 || first > last {
            return;
        }
        for cp in first..=last {
            if walk.spend() {
                return;
            }
            if let Ok(gid) = u16::try_from(glyph + (cp - first)) {
                self.name(gid, cp);
            }
        }
    }

    /// Glyph names, for glyphs the cmap gave no text: the `post` table's
    /// own names read in one pass, else ttf-parser's (standard names, CFF).
    fn read_names(&mut self, face: &Face, walk: &mut Walk) {
        let post = face
            .raw_face()
            .table(Tag::from_bytes(b"post"))
            .and_then(PostNames::parse);
        for gid in 0..face.number_of_glyphs() {
            if walk.stop() {
                return;
            }
            if self.text.contains_key(&gid) {
                continue;
            }
            let name = match post.as_ref().and_then(|p| p.own_name(gid)) {
                Some(own) => own,
                None => face.glyph_name(GlyphId(gid)).map(str::as_bytes),
            };
            if let Some(t) = name.and_then(glyph_text) {
                self.text.insert(gid, t);
            }
        }
    }

    /// Roughly the bytes this glyph text holds in memory.
    pub fn footprint(&self) -> usize {
        let text = map_bytes(&self.text) + self.text.values().map(string_heap).sum::<usize>();
        text + map_bytes(&self.code_to_glyph)
            + self.cid_to_gid.as_ref().map_or(0, |m| m.capacity() * 2)
    }

    /// The text of CID `cid` of a CID font.
    pub fn cid(&self, cid: u32) -> Option<&str> {
        let gid = match &self.cid_to_gid {
            Some(map) => *map.get(cid as usize)?,
            None => u16::try_from(cid).ok()?,
        };
        self.text.get(&gid).map(String::as_str)
    }

    /// The text of byte `code` of a simple TrueType font.
    pub fn code(&self, code: u32) -> Option<&str> {
        let gid = self.code_to_glyph.get(&code)?;
        self.text.get(gid).map(String::as_str)
    }
}

/// The lookups one font may still make, and the cancel flag.
struct Walk<'c> {
    left: u32,
    steps: u32,
    cancelled: &'c dyn Fn() -> bool,
}

impl Walk<'_> {
    /// Counts one lookup: true when the bound is spent or the call is
    /// cancelled.
    fn spend(&mut self) -> bool {
        if self.left == 0 {
            return true;
        }
        self.left -= 1;
        self.stop()
    }

    /// Asks the cancel flag every [`CHECK_EVERY`] calls, spending no
    /// lookup (once per glyph or subtable).
    fn stop(&mut self) -> bool {
        self.steps = self.steps.wrapping_add(1);
        self.steps & (CHECK_EVERY - 1) == 0 && (self.cancelled)()
    }
}

fn be16(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn be32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// The offset of the cmap's `index`th subtable, from its encoding record.
fn record_offset(cmap: &[u8], index: u16) -> Option<u32> {
    be32(cmap, 4 + 8 * usize::from(index) + 4)
}

/// A format 12 subtable's groups: first and last code, first glyph.
fn format12_groups(sub: &[u8]) -> Vec<(u32, u32, u32)> {
    let count = be32(sub, 12).unwrap_or(0) as usize;
    let groups = sub.get(16..).unwrap_or_default();
    groups
        .chunks_exact(12)
        .take(count)
        .filter_map(|g| Some((be32(g, 0)?, be32(g, 4)?, be32(g, 8)?)))
        .collect()
}

/// A version 2 `post` table's glyph name indexes and its own names (the
/// ones past Macintosh's 258 standard names), read once.
struct PostNames<'d> {
    indexes: &'d [u8],
    names: Vec<&'d [u8]>,
}

impl<'d> PostNames<'d> {
    fn parse(post: &'d [u8]) -> Option<Self> {
        if be32(post, 0)? != 0x0002_0000 {
            return None;
        }
        let glyphs = usize::from(be16(post, 32)?);
        let indexes = post.get(34..34 + 2 * glyphs)?;
        let mut rest = &post[34 + 2 * glyphs..];
        let mut names = Vec::new();
        while let Some((&len, tail)) = rest.split_first() {
            if names.len() >= MAX_GLYPHS || tail.len() < usize::from(len) {
                break;
            }
            let (name, tail) = tail.split_at(usize::from(len));
            names.push(name);
            rest = tail;
        }
        Some(PostNames { indexes, names })
    }

    /// The name of `gid` when its index is one of the table's own (None
    /// inside when the table lacks it); None for a standard name, which
    /// ttf-parser gives at once, or for a glyph past the indexes.
    fn own_name(&self, gid: u16) -> Option<Option<&'d [u8]>> {
        let index = usize::from(be16(self.indexes, 2 * usize::from(gid))?);
        Some(self.names.get(index.checked_sub(258)?).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_post_names_once_by_index() {
        let mut post = vec![0, 2, 0, 0];
        post.resize(32, 0);
        post.extend([0, 3, 0, 7, 1, 2, 1, 4]); // 3 glyphs: standard 7, own 0, own 2
        post.extend(b"\x01a\x02bc");
        let names = PostNames::parse(&post).unwrap();
        assert_eq!(names.own_name(0), None);
        assert_eq!(names.own_name(1), Some(Some(b"a".as_slice())));
        assert_eq!(names.own_name(2), Some(None));
        assert_eq!(names.names.len(), 2);
    }

    #[test]
    fn clamps_a_group_to_the_glyphs_of_the_font() {
        let mut text = GlyphText::default();
        let cancelled = || false;
        let mut walk = Walk {
            left: MAX_LOOKUPS,
            steps: 0,
            cancelled: &cancelled,
        };
        text.read_group(0x41, u32::MAX, 1, 4, &mut walk);
        assert_eq!(MAX_LOOKUPS - walk.left, 3);
        assert_eq!(text.text[&1], "A");
        assert_eq!(text.text[&3], "C");
    }
}
