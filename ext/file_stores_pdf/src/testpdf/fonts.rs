//! Font programs written byte by byte for the crafted PDFs: a compact
//! (CFF) font and the smallest TrueType program ttf-parser reads.

/// A name-keyed CFF font of empty glyphs (`endchar`) whose built-in
/// encoding gives code `first + i` to glyph `i + 1`, named `names[i]`
/// (format 0 encoding and charset, every name in the String INDEX).
pub fn cff(names: &[&str], first: u8) -> Vec<u8> {
    const HEADER: [u8; 4] = [1, 0, 4, 1];
    const PRIVATE: [u8; 2] = [139, 20]; // defaultWidthX 0
    let count = names.len();
    let mut charset = vec![0u8];
    for i in 0..count {
        charset.extend(((391 + i) as u16).to_be_bytes());
    }
    let mut encoding = vec![0u8, count as u8];
    encoding.extend((0..count).map(|i| first + i as u8));
    let glyphs = index(&vec![vec![14u8]; count + 1]);
    let tables = [charset, encoding, glyphs, PRIVATE.to_vec()];
    let names: Vec<Vec<u8>> = names.iter().map(|n| n.as_bytes().to_vec()).collect();
    // The Top DICT's offsets are 5-byte integers, so its size is known first.
    let front = |offsets: [u32; 5]| {
        let int = |v: u32| {
            let mut out = vec![29u8];
            out.extend(v.to_be_bytes());
            out
        };
        let [charset, encoding, glyphs, private, size] = offsets;
        let mut top = int(charset);
        top.push(15);
        top.extend(int(encoding));
        top.push(16);
        top.extend(int(glyphs));
        top.push(17);
        top.extend(int(size));
        top.extend(int(private));
        top.push(18);
        let mut out = HEADER.to_vec();
        out.extend(index(&[b"Fixture".to_vec()]));
        out.extend(index(&[top]));
        out.extend(index(&names));
        out.extend([0, 0]); // no global subroutines
        out
    };
    let mut at = front([0; 5]).len() as u32;
    let mut offsets = [0u32; 5];
    for (i, table) in tables.iter().enumerate() {
        offsets[i] = at;
        at += table.len() as u32;
    }
    offsets[4] = PRIVATE.len() as u32;
    let mut out = front(offsets);
    out.extend(tables.concat());
    out
}

/// A CFF INDEX of `items` with 4-byte offsets.
fn index(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = (items.len() as u16).to_be_bytes().to_vec();
    out.push(4);
    let mut offset = 1u32;
    out.extend(offset.to_be_bytes());
    for item in items {
        offset += item.len() as u32;
        out.extend(offset.to_be_bytes());
    }
    out.extend(items.concat());
    out
}

/// An sfnt of `glyphs` glyphs with the `cmap` and `post` tables given.
pub fn truetype(glyphs: u16, cmap: Vec<u8>, post: Option<Vec<u8>>) -> Vec<u8> {
    let mut head = Vec::new();
    for v in [0x10000u32, 0x10000, 0, 0x5F0F_3CF5] {
        head.extend(v.to_be_bytes());
    }
    head.extend([0u8, 0, 0x03, 0xE8]); // flags, unitsPerEm 1000
    head.extend([0u8; 16]); // created, modified
    head.extend([0u8; 18]); // bbox, style, size, direction, locations, format
    let mut hhea = Vec::new();
    hhea.extend(0x10000u32.to_be_bytes());
    hhea.extend(800i16.to_be_bytes());
    hhea.extend((-200i16).to_be_bytes());
    hhea.extend([0u8; 26]);
    hhea.extend(1u16.to_be_bytes());
    let mut maxp = 0x5000u32.to_be_bytes().to_vec();
    maxp.extend(glyphs.to_be_bytes());
    let mut tables = vec![
        (*b"cmap", cmap),
        (*b"head", head),
        (*b"hhea", hhea),
        (*b"maxp", maxp),
    ];
    if let Some(post) = post {
        tables.push((*b"post", post));
    }
    let mut directory = Vec::new();
    let mut data = Vec::new();
    let start = 12 + 16 * tables.len();
    for (tag, bytes) in &tables {
        directory.extend(tag);
        directory.extend(0u32.to_be_bytes());
        directory.extend(((start + data.len()) as u32).to_be_bytes());
        directory.extend((bytes.len() as u32).to_be_bytes());
        data.extend(bytes);
        data.resize(data.len().next_multiple_of(4), 0);
    }
    let mut out = 0x10000u32.to_be_bytes().to_vec();
    out.extend((tables.len() as u16).to_be_bytes());
    out.extend([0u8; 6]);
    out.extend(directory);
    out.extend(data);
    out
}

/// A cmap table of `subtables`: (platform, encoding, bytes).
pub fn cmap(subtables: &[(u16, u16, Vec<u8>)]) -> Vec<u8> {
    let mut records = Vec::new();
    let mut data: Vec<u8> = Vec::new();
    let start = 4 + 8 * subtables.len();
    for (platform, encoding, bytes) in subtables {
        records.extend(platform.to_be_bytes());
        records.extend(encoding.to_be_bytes());
        records.extend(((start + data.len()) as u32).to_be_bytes());
        data.extend(bytes);
    }
    let mut out = vec![0, 0];
    out.extend((subtables.len() as u16).to_be_bytes());
    out.extend(records);
    out.extend(data);
    out
}

/// A cmap of one (3,10) format 12 subtable of `groups`: (first, last, glyph).
pub fn format12_cmap(groups: &[(u32, u32, u32)]) -> Vec<u8> {
    let mut sub = vec![0, 12, 0, 0];
    sub.extend(((16 + 12 * groups.len()) as u32).to_be_bytes());
    sub.extend(0u32.to_be_bytes());
    sub.extend((groups.len() as u32).to_be_bytes());
    for (first, last, glyph) in groups {
        sub.extend(first.to_be_bytes());
        sub.extend(last.to_be_bytes());
        sub.extend(glyph.to_be_bytes());
    }
    cmap(&[(3, 10, sub)])
}
