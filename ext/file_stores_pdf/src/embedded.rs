//! Text from an embedded font program, for codes the PDF gives no text for
//! (no ToUnicode entry): many generators embed an Identity-H CID font with
//! only the glyphs used and no ToUnicode map. The glyphs' Unicode values are
//! still in the font: its own Unicode `cmap` read backwards (glyph to
//! character), else its glyph names (`post` table, or a CFF charset).
//! [ttf-parser] reads the font; it never panics on bad data.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object};
use ttf_parser::{Face, GlyphId};

use crate::filters::{self, Budget};
use crate::fonts::glyph_text;

/// The most glyph-to-text entries kept from one font.
const MAX_GLYPHS: usize = 1 << 16;

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
        let mut out = GlyphText::default();
        if let Ok(face) = Face::parse(&data, 0) {
            out.read_face(&face, cid_font.is_none());
        } else if let Some(cff) = ttf_parser::cff::Table::parse(&data) {
            for gid in 0..cff.number_of_glyphs().min(MAX_GLYPHS as u16) {
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

    fn read_face(&mut self, face: &Face, simple: bool) {
        let Some(cmap) = face.tables().cmap else {
            return self.read_names(face);
        };
        for sub in cmap.subtables {
            if sub.is_unicode() {
                let mut points = Vec::new();
                sub.codepoints(|cp| {
                    if points.len() < MAX_GLYPHS * 4 {
                        points.push(cp);
                    }
                });
                for cp in points {
                    let (Some(gid), Some(c)) = (sub.glyph_index(cp), char::from_u32(cp)) else {
                        continue;
                    };
                    if gid.0 != 0 && !c.is_control() && self.text.len() < MAX_GLYPHS {
                        // The first (lowest) character of a glyph wins: "A"
                        // rather than a compatibility form.
                        self.text.entry(gid.0).or_insert_with(|| c.to_string());
                    }
                }
            } else if simple && self.code_to_glyph.is_empty() {
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
        self.read_names(face);
    }

    fn read_names(&mut self, face: &Face) {
        for gid in 0..face.number_of_glyphs().min(MAX_GLYPHS as u16) {
            if self.text.contains_key(&gid) {
                continue;
            }
            if let Some(t) = face
                .glyph_name(GlyphId(gid))
                .and_then(|n| glyph_text(n.as_bytes()))
            {
                self.text.insert(gid, t);
            }
        }
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
