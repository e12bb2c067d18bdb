//! Fonts of crafted pages read as pdftotext reads them, without ToUnicode
//! maps or through unusual ones: a CFF program's built-in encoding, glyph
//! names (ligatures, numbers), the standard fonts' own widths and
//! encodings, predefined and embedded CMaps, an embedded TrueType cmap.

use crate::testpdf::fonts::{cff, format12_cmap, truetype};
use crate::testpdf::{deflated, font_pdf, hex_codes, one_page, page, stream, OnePage};

/// The glyphs of the CFF font, codes from 1, and "Words fine x ∈ A." in them.
const CFF_GLYPHS: [&str; 13] = [
    "W", "o", "r", "d", "s", "space", "f_i", "n", "e", "x", "element", "A", "period",
];

/// A page in an embedded Type 1C font with no ToUnicode map; its /Encoding
/// is `encoding` (none: the program's built-in one).
fn cff_pdf(encoding: Option<&str>) -> Vec<u8> {
    let encoding = encoding.map_or(String::new(), |e| format!("/Encoding {e} "));
    let font = format!(
        "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Fixture /FirstChar 1 /LastChar 13 \
         /Widths [{}] {encoding}/FontDescriptor << /Type /FontDescriptor /FontName /ABCDEF+Fixture \
         /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 \
         /CapHeight 700 /StemV 80 /FontFile3 6 0 R >> >>",
        ["500"; 13].join(" ")
    );
    one_page(
        "BT /F1 12 Tf 72 720 Td <0102030405 06 070809 06 0A 06 0B 06 0C0D> Tj ET\n",
        OnePage {
            font: &font,
            extra: vec![deflated(cff(&CFF_GLYPHS, 1), "/Subtype /Type1C ")],
            ..OnePage::default()
        },
    )
}

#[test]
fn reads_a_cff_font_through_its_built_in_encoding_and_glyph_names() {
    assert_eq!(page("cff", &cff_pdf(None)), "Words fine x ∈ A.\n");
}

#[test]
fn reads_differences_on_top_of_the_cff_built_in_encoding() {
    let pdf = cff_pdf(Some("<< /Type /Encoding /Differences [10 /B] >>"));
    assert_eq!(page("cff_differences", &pdf), "Words fine B ∈ A.\n");
}

#[test]
fn reads_ligature_glyph_names_by_their_components() {
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding \
                /BaseEncoding /WinAnsiEncoding /Differences [128 /f_f_i /T_h] >> >>";
    let pdf = font_pdf("BT /F1 12 Tf 72 720 Td (\\201e e\\200cient) Tj ET\n", font);
    assert_eq!(page("ligature_names", &pdf), "The efficient\n");
}

#[test]
fn places_a_standard_font_s_glyphs_by_its_own_widths_where_the_pdf_gives_none() {
    // Times-Roman without /Widths, labels 40 points apart at 8 points: by
    // Times' widths 2.4 points lie between them; at half an em each they
    // would overlap.
    let pdf = font_pdf(
        "BT /F1 8 Tf 35 50 Td (A, B = 0.10) Tj 40 0 Td (A, B = 0.20) Tj ET\n",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
    );
    assert_eq!(page("standard_widths", &pdf), "A, B = 0.10 A, B = 0.20\n");
}

#[test]
fn reads_glyph_names_that_are_numbers_as_the_characters_they_number() {
    let decimal = "g80 g111 g116 g97 g116 g111 g32 g115 g97 g108 g97 g100";
    let hexadecimal = "C50 C6f C74 C61 C74 C6f C20 C73 C61 C6c C61 C64";
    for (name, names) in [("decimal", decimal), ("hexadecimal", hexadecimal)] {
        let names: Vec<String> = names.split(' ').map(|n| format!("/{n}")).collect();
        let font = format!(
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 1 /LastChar 12 \
             /Widths [{}] /Encoding << /Type /Encoding /Differences [1 {}] >> >>",
            ["556"; 12].join(" "),
            names.join(" ")
        );
        let pdf = font_pdf(
            "BT /F1 12 Tf 72 720 Td <0102030405060708090A0B0C> Tj ET\n",
            &font,
        );
        assert_eq!(
            page(&format!("numbered_names_{name}"), &pdf),
            "Potato salad\n"
        );
    }
}

/// A CID font of Adobe-Japan1 whose predefined CMap is `cmap`, showing `codes`.
fn japan1_pdf(cmap: &str, codes: &str) -> Vec<u8> {
    let font = format!(
        "<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /{cmap} \
         /DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular \
         /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> >>] >>"
    );
    font_pdf(&format!("BT /F1 12 Tf 72 720 Td <{codes}> Tj ET\n"), &font)
}

fn hex(bytes: &[u8]) -> String {
    hex_codes(bytes.iter().map(|&b| u32::from(b)), 2)
}

#[test]
fn reads_a_utf16_cmap_with_surrogate_pairs_beyond_the_bmp() {
    // 𠮷 is a surrogate pair.
    let pdf = japan1_pdf("UniJIS-UTF16-H", "65E5672C8A9E306ED842DFB791CE5BB6");
    assert_eq!(page("utf16_cmap", &pdf), "日本語の𠮷野家\n");
}

#[test]
fn reads_the_utf8_and_utf32_cmaps_as_their_codes_say() {
    let text = "日本語の𠮷野家";
    let utf32: Vec<u8> = text
        .chars()
        .flat_map(|c| (c as u32).to_be_bytes())
        .collect();
    for (cmap, codes) in [
        ("UniJIS-UTF8-H", hex(text.as_bytes())),
        ("UniJIS-UTF32-H", hex(&utf32)),
    ] {
        let pdf = japan1_pdf(cmap, &codes);
        assert_eq!(page(cmap, &pdf), format!("{text}\n"), "{cmap}");
    }
}

#[test]
fn reads_a_cid_font_s_embedded_cmap_to_cids_of_its_collection() {
    // Codes 01-1A are capitals (CID 34 on), 20 the space (CID 1), 21-3A
    // small letters (CID 66 on); no ToUnicode map.
    let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
                /CMapName /Fixture-H def /CMapType 1 def\n\
                1 begincodespacerange <00> <FF> endcodespacerange\n\
                3 begincidrange <01> <1A> 34 <20> <20> 1 <21> <3A> 66 endcidrange\nendcmap end end\n";
    let font = "<< /Type /Font /Subtype /Type0 /BaseFont /MS-Mincho /Encoding 6 0 R \
                /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /MS-Mincho \
                /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /DW 500 >>] >>";
    let codes: Vec<u8> = "Hello World"
        .bytes()
        .map(|c| if c == b' ' { 0x20 } else { c - 0x40 })
        .collect();
    let pdf = one_page(
        format!("BT /F1 12 Tf 72 720 Td <{}> Tj ET\n", hex(&codes)),
        OnePage {
            font,
            extra: vec![stream(cmap, "/Type /CMap /CMapName /Fixture-H ")],
            ..OnePage::default()
        },
    );
    assert_eq!(page("embedded_cid_cmap", &pdf), "Hello World\n");
}

#[test]
fn reads_one_byte_to_unicode_destinations_and_a_cidrange_written_as_to_unicode() {
    let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
                1 begincodespacerange <00> <FF> endcodespacerange\n\
                2 beginbfchar <48> <4A> <65> <61> endbfchar\n\
                2 begincidrange <6C> <6C> 122 <6F> <6F> 122 endcidrange\nendcmap end end\n";
    // "Hello" in Helvetica, read through the map as "Jazzz".
    let pdf = one_page(
        "BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n",
        OnePage {
            font: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
            extra: vec![deflated(cmap, "")],
            deflate: true,
            ..OnePage::default()
        },
    );
    assert_eq!(page("one_byte_to_unicode", &pdf), "Jazzz\n");
}

#[test]
fn reads_codes_whose_glyph_names_say_nothing_as_the_characters_of_their_numbers() {
    let font = format!(
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 119 \
         /Widths [{}] /Encoding << /Type /Encoding \
         /Differences [72 /glyph1 101 /glyph2 108 /glyph3 /glyph4 119 /glyph5] >> >>",
        ["556"; 88].join(" ")
    );
    let pdf = font_pdf("BT /F1 12 Tf 72 720 Td (Hello world) Tj ET\n", &font);
    assert_eq!(page("meaningless_names", &pdf), "Hello world\n");
}

#[test]
fn reads_codes_a_to_unicode_map_leaves_out_through_the_collection_it_builds_on() {
    // The map builds on Adobe-Japan1-UCS2 (usecmap) and names one code,
    // 0300, itself; the page shows Japan1 CIDs and that code.
    let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/Adobe-Japan1-UCS2 usecmap\n\
                1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
                1 beginbfchar <0300> <0021> endbfchar\nendcmap end end\n";
    let font = "<< /Type /Font /Subtype /Type0 /BaseFont /Fixture /Encoding /Identity-H /ToUnicode 6 0 R \
                /DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Fixture \
                /CIDSystemInfo << /Registry (Fixture) /Ordering (Japan1) /Supplement 2 >> /DW 500 >>] >>";
    let cids = hex_codes("Hello World".bytes().map(|c| u32::from(c - 31)), 4);
    let pdf = one_page(
        format!("BT /F1 12 Tf 72 720 Td <{cids}0300> Tj ET\n"),
        OnePage {
            font,
            extra: vec![stream(cmap, "")],
            ..OnePage::default()
        },
    );
    assert_eq!(page("usecmap", &pdf), "Hello World!\n");
}

#[test]
fn reads_an_identity_cid_font_without_to_unicode_through_its_program_s_cmap() {
    let chars: Vec<char> = "Poat sld".chars().collect();
    let mut groups: Vec<(u32, u32, u32)> = chars
        .iter()
        .enumerate()
        .map(|(i, &c)| (c as u32, c as u32, i as u32 + 1))
        .collect();
    groups.sort();
    let program = truetype(chars.len() as u16 + 1, format12_cmap(&groups), None);
    let gids = hex_codes(
        "Potato salad"
            .chars()
            .map(|c| chars.iter().position(|&x| x == c).unwrap_or(0) as u32 + 1),
        4,
    );
    let font = "<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Fixture /Encoding /Identity-H \
                /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Fixture \
                /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 \
                /CIDToGIDMap /Identity /FontDescriptor << /Type /FontDescriptor /FontName /ABCDEF+Fixture \
                /Flags 4 /FontFile2 6 0 R >> >>] >>";
    let pdf = one_page(
        format!("BT /F1 12 Tf 72 720 Td <{gids}> Tj ET\n"),
        OnePage {
            font,
            extra: vec![deflated(program, "")],
            ..OnePage::default()
        },
    );
    assert_eq!(page("identity_truetype", &pdf), "Potato salad\n");
}

#[test]
fn places_the_glyphs_of_a_font_with_no_widths_by_the_standard_font_for_it() {
    // Garamond, serif by its flags, no /Widths: a word per Td, 3 points
    // apart by Times' widths (which pdftotext measures it by), overlapping
    // at half an em each.
    let font = "<< /Type /Font /Subtype /TrueType /BaseFont /Garamond /Encoding /WinAnsiEncoding \
                /FontDescriptor << /Type /FontDescriptor /FontName /Garamond /Flags 34 >> >>";
    let pdf = font_pdf(
        "BT /F1 12 Tf 72 720 Td (Million) Tj 41 0 Td (Dollar) Tj 35 0 Td (Man) Tj ET\n",
        font,
    );
    assert_eq!(page("unmeasured_font", &pdf), "Million Dollar Man\n");
}

#[test]
fn joins_an_accent_glyph_and_the_letter_it_is_drawn_over_in_either_order() {
    // TeX's dieresis, then the i under it; an acute after the e it is moved back over.
    let pdf = font_pdf(
        "BT /F1 12 Tf 72 720 Td [(A na) (\\250) 278 (ive caf) (e) 389 (\\264) 56 ( story)] TJ ET\n",
        crate::testpdf::HELVETICA,
    );
    assert_eq!(
        page("accent_glyphs", &pdf),
        "A nai\u{308}ve cafe\u{301} story\n"
    );
}

#[test]
fn reads_the_base_encodings_ligatures_fi_and_fl_as_their_letters() {
    let pdf = font_pdf(
        "BT /F1 12 Tf 72 720 Td (The \\256rst \\257ow) Tj ET\n",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
    );
    assert_eq!(page("base_ligatures", &pdf), "The first flow\n");
}

#[test]
fn reads_the_standard_font_symbol_through_its_own_encoding() {
    let pdf = font_pdf(
        "BT /F1 12 Tf 72 720 Td (abgdpqlm) Tj ET\n",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>",
    );
    assert_eq!(page("symbol", &pdf), "αβγδπθλμ\n");
}
