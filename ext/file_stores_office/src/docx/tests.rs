//! Word conversion: structure, inline content, notes, and unsafe input.
//! List and heading numbering are in `tests_lists.rs`.

use crate::archive::Limits;
use crate::testing::zip_of;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

pub(super) const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

const PACKAGE_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>"#;

/// A `w:document` around a body.
pub(super) fn document(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="{W}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>{body}<w:sectPr/></w:body></w:document>"#
    )
}

/// Converts a package of parts.
pub(super) fn convert_parts(parts: &[(&str, &str)]) -> Result<String> {
    convert_bytes(&zip_of(parts), Limits::default())
}

pub(super) fn convert_bytes(bytes: &[u8], limits: Limits) -> Result<String> {
    super::to_text(bytes, limits, &Cancel::new())
}

/// Converts a document body, with optional extra parts.
pub(super) fn convert_with(body: &str, extra: &[(&str, &str)]) -> String {
    let doc = document(body);
    let mut parts = vec![("_rels/.rels", PACKAGE_RELS), ("word/document.xml", &doc)];
    parts.extend_from_slice(extra);
    match convert_parts(&parts) {
        Ok(text) => text,
        Err(e) => panic!("conversion failed: {e}"),
    }
}

pub(super) fn convert(body: &str) -> String {
    convert_with(body, &[])
}

/// A paragraph of one run of text.
pub(super) fn p(text: &str) -> String {
    format!("<w:p><w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>")
}

fn error_of(parts: &[(&str, &str)]) -> String {
    match convert_parts(parts) {
        Ok(text) => panic!("expected an error, got {text:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_paragraph_per_line_with_one_final_newline() {
    assert_eq!(convert(&(p("One") + &p("Two"))), "One\nTwo\n");
    assert_eq!(convert(""), "");
}

#[test]
fn empty_paragraphs_collapse_to_one_blank_line() {
    let body = format!("<w:p/>{}<w:p/><w:p></w:p><w:p/>{}<w:p/>", p("A"), p("B"));
    assert_eq!(convert(&body), "A\n\nB\n");
}

#[test]
fn runs_join_and_trailing_whitespace_goes() {
    let body =
        "<w:p><w:r><w:t>Hel</w:t></w:r><w:r><w:t xml:space=\"preserve\">lo  </w:t></w:r></w:p>";
    assert_eq!(convert(body), "Hello\n");
}

#[test]
fn finds_the_main_part_through_the_package_relationships() {
    let rels = PACKAGE_RELS.replace("word/document.xml", "/content/main.xml");
    let doc = document(&p("Moved"));
    let text = convert_parts(&[("_rels/.rels", &rels), ("content/main.xml", &doc)]);
    assert_eq!(text.ok().as_deref(), Some("Moved\n"));
}

#[test]
fn falls_back_to_word_document_xml_without_relationships() {
    let doc = document(&p("Plain"));
    let text = convert_parts(&[("word/document.xml", &doc)]);
    assert_eq!(text.ok().as_deref(), Some("Plain\n"));
}

#[test]
fn a_missing_document_part_is_a_clear_error() {
    let err = error_of(&[("_rels/.rels", PACKAGE_RELS), ("word/styles.xml", "<x/>")]);
    assert!(err.contains("no main document part"), "{err}");
}

#[test]
fn malformed_xml_is_an_error_naming_the_part() {
    let err = error_of(&[("word/document.xml", "<w:document><w:body><w:p></w:body>")]);
    assert!(err.contains("word/document.xml"), "{err}");
    let styles_err = error_of(&[
        ("word/document.xml", &document(&p("x"))),
        ("word/styles.xml", "<w:styles><w:style></w:styles>"),
    ]);
    assert!(styles_err.contains("word/styles.xml"), "{styles_err}");
}

#[test]
fn strict_ooxml_and_other_prefixes_read_the_same() {
    let rels = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" Target="word/doc.xml"/></Relationships>"#;
    let doc = r#"<ns0:document xmlns:ns0="http://purl.oclc.org/ooxml/wordprocessingml/main"><ns0:body>
<ns0:p><ns0:pPr><ns0:pStyle ns0:val="Heading2"/></ns0:pPr><ns0:r><ns0:t>Scope</ns0:t></ns0:r></ns0:p>
<ns0:p><ns0:r><ns0:t>Body</ns0:t><ns0:tab/><ns0:t>text</ns0:t></ns0:r></ns0:p>
</ns0:body></ns0:document>"#;
    let text = convert_parts(&[("_rels/.rels", rels), ("word/doc.xml", doc)]);
    assert_eq!(text.ok().as_deref(), Some("## Scope\nBody\ttext\n"));
}

#[test]
fn entities_and_character_references_are_text() {
    let body = "<w:p><w:r><w:t>a &amp; b &lt;c&gt; &#x41;&#66;</w:t></w:r></w:p>";
    assert_eq!(convert(body), "a & b <c> AB\n");
}

#[test]
fn tabs_breaks_and_hyphens() {
    let body = "<w:p><w:pPr><w:tabs><w:tab w:val=\"left\" w:pos=\"720\"/></w:tabs></w:pPr>\
        <w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t><w:cr/><w:t>d</w:t>\
        <w:noBreakHyphen/><w:t>e</w:t><w:softHyphen/><w:t>f</w:t></w:r></w:p>";
    assert_eq!(convert(body), "a\tb\nc\nd-ef\n");
}

#[test]
fn symbols_outside_the_private_use_area_are_kept() {
    let body = "<w:p><w:r><w:sym w:font=\"Symbol\" w:char=\"F0B7\"/><w:sym w:char=\"03A9\"/><w:t>x</w:t></w:r></w:p>";
    assert_eq!(convert(body), "Ωx\n");
}

#[test]
fn hyperlinks_content_controls_and_smart_tags_keep_their_text() {
    let body = "<w:p><w:hyperlink r:id=\"rId9\" xmlns:r=\"r\"><w:r><w:t>link</w:t></w:r></w:hyperlink>\
        <w:smartTag w:element=\"place\"><w:r><w:t> tag</w:t></w:r></w:smartTag>\
        <w:sdt><w:sdtPr><w:alias w:val=\"A\"/><w:placeholder><w:docPart w:val=\"x\"/></w:placeholder></w:sdtPr>\
        <w:sdtContent><w:r><w:t> control</w:t></w:r></w:sdtContent></w:sdt></w:p>\
        <w:sdt><w:sdtContent><w:p><w:r><w:t>block control</w:t></w:r></w:p></w:sdtContent></w:sdt>\
        <w:customXml w:element=\"c\"><w:p><w:r><w:t>custom</w:t></w:r></w:p></w:customXml>";
    assert_eq!(convert(body), "link tag control\nblock control\ncustom\n");
}

#[test]
fn fields_keep_their_result_not_their_instruction() {
    let body = "<w:p><w:fldSimple w:instr=\" PAGE \"><w:r><w:t>7</w:t></w:r></w:fldSimple>\
        <w:r><w:t xml:space=\"preserve\"> of </w:t></w:r>\
        <w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText> NUMPAGES </w:instrText></w:r>\
        <w:r><w:t>instruction text</w:t></w:r>\
        <w:r><w:fldChar w:fldCharType=\"separate\"/></w:r><w:r><w:t>9</w:t></w:r>\
        <w:r><w:fldChar w:fldCharType=\"end\"/></w:r><w:r><w:t xml:space=\"preserve\"> pages</w:t></w:r></w:p>";
    assert_eq!(convert(body), "7 of 9 pages\n");
}

#[test]
fn nested_fields_and_fields_across_paragraphs() {
    let body = "<w:p><w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText>IF </w:instrText></w:r>\
        <w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r>\
        <w:r><w:fldChar w:fldCharType=\"separate\"/></w:r><w:r><w:t>inner</w:t></w:r>\
        <w:r><w:fldChar w:fldCharType=\"end\"/></w:r><w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>\
        <w:r><w:t>Contents</w:t></w:r></w:p>"
        .to_owned()
        + &p("Chapter")
        + "<w:p><w:r><w:fldChar w:fldCharType=\"end\"/></w:r><w:r><w:t>after</w:t></w:r></w:p>";
    assert_eq!(convert(&body), "Contents\nChapter\nafter\n");
}

#[test]
fn text_boxes_follow_their_anchor_paragraph() {
    let body = "<w:p><w:r><w:t>Anchor</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires=\"wps\">\
        <w:drawing><wp:anchor xmlns:wp=\"wp\"><a:graphic xmlns:a=\"a\"><a:graphicData><wps:wsp xmlns:wps=\"wps\"><wps:txbx>\
        <w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p><w:p><w:r><w:t>Second</w:t></w:r></w:p></w:txbxContent>\
        </wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>\
        <mc:Fallback><w:pict><v:shape xmlns:v=\"v\"><v:textbox><w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p>\
        </w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>\
        <w:r><w:t xml:space=\"preserve\"> text</w:t></w:r></w:p>";
    assert_eq!(convert(body), "Anchor text\nIn the box\nSecond\n");
}

#[test]
fn alternate_content_reads_the_fallback_only_without_a_choice() {
    let body =
        "<w:p><mc:AlternateContent><mc:Fallback><w:r><w:t>fallback</w:t></w:r></mc:Fallback>\
        </mc:AlternateContent></w:p>\
        <w:p><mc:AlternateContent><mc:Choice Requires=\"x\"><w:r><w:t>one</w:t></w:r></mc:Choice>\
        <mc:Choice Requires=\"y\"><w:r><w:t>two</w:t></w:r></mc:Choice>\
        <mc:Fallback><w:r><w:t>three</w:t></w:r></mc:Fallback></mc:AlternateContent></w:p>";
    assert_eq!(convert(body), "fallback\none\n");
}

#[test]
fn tracked_insertions_stay_and_deletions_go() {
    let body =
        "<w:p><w:r><w:t>kept </w:t></w:r><w:ins w:id=\"1\"><w:r><w:t>inserted </w:t></w:r></w:ins>\
        <w:del w:id=\"2\"><w:r><w:delText>deleted </w:delText></w:r></w:del>\
        <w:moveFrom w:id=\"3\"><w:r><w:t>moved away </w:t></w:r></w:moveFrom>\
        <w:moveTo w:id=\"4\"><w:r><w:t>moved here</w:t></w:r></w:moveTo>\
        <w:r><w:delText>stray</w:delText></w:r></w:p>";
    assert_eq!(convert(body), "kept inserted moved here\n");
}

#[test]
fn property_changes_do_not_bring_back_old_properties() {
    let body = "<w:p><w:pPr><w:pPrChange w:id=\"1\"><w:pPr><w:pStyle w:val=\"Heading1\"/></w:pPr></w:pPrChange></w:pPr>\
        <w:r><w:rPr><w:rPrChange><w:rPr/></w:rPrChange></w:rPr><w:t>plain</w:t></w:r></w:p>";
    assert_eq!(convert(body), "plain\n");
}

fn cell(content: &str) -> String {
    format!("<w:tc>{content}</w:tc>")
}

fn row(cells: &[String]) -> String {
    format!("<w:tr>{}</w:tr>", cells.concat())
}

fn table(rows: &[String]) -> String {
    format!(
        "<w:tbl><w:tblPr><w:tblW w:w=\"0\"/></w:tblPr><w:tblGrid><w:gridCol/></w:tblGrid>{}</w:tbl>",
        rows.concat()
    )
}

#[test]
fn a_table_row_per_line_with_tabs_between_cells() {
    let t = table(&[
        row(&[cell(&p("Name")), cell(&p("Age"))]),
        row(&[cell(&(p("Ada") + &p("Lovelace"))), cell(&p("36"))]),
    ]);
    let body = p("Before") + &t + &p("After");
    assert_eq!(
        convert(&body),
        "Before\nName\tAge\nAda Lovelace\t36\nAfter\n"
    );
}

#[test]
fn merged_cells_read_once() {
    let span = "<w:tc><w:tcPr><w:gridSpan w:val=\"2\"/></w:tcPr><w:p><w:r><w:t>Both</w:t></w:r></w:p></w:tc>";
    let restart = "<w:tc><w:tcPr><w:vMerge w:val=\"restart\"/></w:tcPr><w:p><w:r><w:t>Tall</w:t></w:r></w:p></w:tc>";
    let cont = "<w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p><w:r><w:t>Tall</w:t></w:r></w:p></w:tc>";
    let t = table(&[
        row(&[span.to_owned(), cell(&p("c"))]),
        row(&[restart.to_owned(), cell(&p("x")), cell(&p("y"))]),
        row(&[cont.to_owned(), cell(&p("z")), cell(&p("w"))]),
    ]);
    assert_eq!(convert(&t), "Both\t\tc\nTall\tx\ty\n\tz\tw\n");
}

#[test]
fn nested_tables_flatten_into_their_cell() {
    let inner = table(&[
        row(&[cell(&p("i1")), cell(&p("i2"))]),
        row(&[cell(&p("i3")), cell(&p("i4"))]),
    ]);
    let t = table(&[row(&[cell(&(p("outer") + &inner)), cell(&p("right"))])]);
    assert_eq!(convert(&t), "outer i1 i2 i3 i4\tright\n");
}

#[test]
fn cell_text_has_no_tabs_or_newlines() {
    let c =
        "<w:tc><w:p><w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t></w:r></w:p></w:tc>";
    let t = table(&[row(&[c.to_owned(), cell(&p("d"))])]);
    assert_eq!(convert(&t), "a b c\td\n");
}

const FOOTNOTES: &str = r#"<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:t>SEP</w:t></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> First note.</w:t></w:r></w:p></w:footnote>
<w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t>Second note.</w:t></w:r></w:p><w:p><w:r><w:t>More.</w:t></w:r></w:p></w:footnote>
</w:footnotes>"#;

#[test]
fn footnotes_and_endnotes_follow_the_body_in_reference_order() {
    let body = "<w:p><w:r><w:t>Text</w:t></w:r><w:r><w:footnoteReference w:id=\"2\"/></w:r>\
        <w:r><w:t xml:space=\"preserve\"> more</w:t></w:r><w:r><w:footnoteReference w:id=\"1\"/></w:r>\
        <w:r><w:endnoteReference w:id=\"5\"/></w:r></w:p>";
    let endnotes = r#"<w:endnotes xmlns:w="x"><w:endnote w:id="0" w:type="separator"><w:p/></w:endnote>
<w:endnote w:id="5"><w:p><w:r><w:t>An endnote.</w:t></w:r></w:p></w:endnote></w:endnotes>"#;
    let text = convert_with(
        body,
        &[
            ("word/footnotes.xml", FOOTNOTES),
            ("word/endnotes.xml", endnotes),
        ],
    );
    assert_eq!(
        text,
        "Text[^1] more[^2][^i]\n\n[^1]: Second note.\n    More.\n[^2]: First note.\n[^i]: An endnote.\n"
    );
}

#[test]
fn notes_found_through_the_document_relationships() {
    let rels = r#"<Relationships xmlns="x"><Relationship Id="r3" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/footnotes" Target="notes/fn.xml"/></Relationships>"#;
    let body = "<w:p><w:r><w:t>a</w:t><w:footnoteReference w:id=\"1\"/></w:r></w:p>";
    let text = convert_with(
        body,
        &[
            ("word/_rels/document.xml.rels", rels),
            ("word/notes/fn.xml", FOOTNOTES),
        ],
    );
    assert_eq!(
        text,
        "a[^1]\n\n[^1]: First note.\n[^2]: Second note.\n    More.\n"
    );
}

#[test]
fn deep_nesting_is_refused_without_recursion() {
    let depth = super::MAX_DEPTH + 10;
    let body = "<w:sdt>".repeat(depth) + &"</w:sdt>".repeat(depth);
    let doc = document(&body);
    let err = error_of(&[("word/document.xml", &doc)]);
    assert!(err.contains("deep"), "{err}");
    // Skipped content counts too.
    let skipped = "<w:del>".repeat(depth) + &"</w:del>".repeat(depth);
    let err = error_of(&[("word/document.xml", &document(&skipped))]);
    assert!(err.contains("deep"), "{err}");
}

#[test]
fn moderate_nesting_is_fine() {
    let body =
        "<w:sdt><w:sdtContent>".repeat(500) + &p("deep") + &"</w:sdtContent></w:sdt>".repeat(500);
    assert_eq!(convert(&body), "deep\n");
}

#[test]
fn output_is_bounded() {
    let body = p(&"x".repeat(5000)).repeat(10);
    let bytes = zip_of(&[("word/document.xml", &document(&body))]);
    let limits = Limits {
        max_output: 20_000,
        ..Limits::default()
    };
    let err = convert_bytes(&bytes, limits).err().map(|e| e.to_string());
    assert!(err.is_some_and(|e| e.contains("limit")));
    assert!(convert_bytes(&bytes, Limits::default()).is_ok());
}

#[test]
fn cancellation_stops_the_conversion() {
    let body = p("x").repeat(2000);
    let bytes = zip_of(&[("word/document.xml", &document(&body))]);
    let cancel = Cancel::new();
    cancel.cancel();
    assert!(super::to_text(&bytes, Limits::default(), &cancel).is_err());
}

#[test]
fn office_to_text_reads_word() {
    let bytes = zip_of(&[("word/document.xml", &document(&p("Via office")))]);
    let text = crate::to_text(
        &bytes,
        crate::Format::Word,
        Limits::default(),
        &Cancel::new(),
    );
    assert_eq!(text.ok().as_deref(), Some("Via office\n"));
}

#[test]
fn grid_before_and_old_style_horizontal_merges_keep_columns() {
    let t = "<w:tbl><w:tr><w:trPr><w:gridBefore w:val=\"1\"/></w:trPr><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr>\
        <w:tr><w:tc><w:tcPr><w:hMerge w:val=\"restart\"/></w:tcPr><w:p><w:r><w:t>wide</w:t></w:r></w:p></w:tc>\
        <w:tc><w:tcPr><w:hMerge/></w:tcPr><w:p><w:r><w:t>wide</w:t></w:r></w:p></w:tc>\
        <w:tc><w:p><w:r><w:t>c</w:t></w:r></w:p></w:tc></w:tr></w:tbl>";
    assert_eq!(convert(t), "\tb\nwide\t\tc\n");
}

#[test]
fn rows_and_cells_inside_content_controls_stay_in_the_table() {
    let t = "<w:tbl><w:sdt><w:sdtContent><w:tr><w:sdt><w:sdtContent><w:tc><w:p><w:r><w:t>x</w:t></w:r></w:p></w:tc>\
        </w:sdtContent></w:sdt><w:tc><w:p><w:r><w:t>y</w:t></w:r></w:p></w:tc></w:tr></w:sdtContent></w:sdt></w:tbl>";
    assert_eq!(convert(t), "x\ty\n");
}

#[test]
fn a_text_box_in_a_table_cell_joins_the_cell() {
    let boxed = "<w:tc><w:p><w:r><w:t>cell</w:t></w:r><w:r><w:pict><v:shape xmlns:v=\"v\"><v:textbox><w:txbxContent>\
        <w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p></w:tc>";
    let t = table(&[row(&[boxed.to_owned(), cell(&p("next"))])]);
    assert_eq!(convert(&t), "cell boxed\tnext\n");
}

#[test]
fn a_byte_order_mark_is_fine() {
    let doc = format!("\u{FEFF}{}", document(&p("BOM")));
    let text = convert_parts(&[("word/document.xml", &doc)]);
    assert_eq!(text.ok().as_deref(), Some("BOM\n"));
}

#[test]
fn a_part_cut_short_is_an_error() {
    let doc = document(&p("x"));
    let cut = &doc[..doc.len() - 30];
    let err = error_of(&[("word/document.xml", cut)]);
    assert!(err.contains("word/document.xml"), "{err}");
}

#[test]
fn tracked_deleted_rows_and_paragraphs_are_gone() {
    let deleted_row = "<w:tr><w:trPr><w:del w:id=\"7\"/></w:trPr><w:tc><w:p><w:r><w:t>old</w:t></w:r></w:p></w:tc></w:tr>";
    let t = table(&[row(&[cell(&p("kept"))]), deleted_row.to_owned()]);
    let gone = "<w:p><w:pPr><w:rPr><w:del w:id=\"8\"/></w:rPr></w:pPr><w:del w:id=\"9\"><w:r><w:delText>x</w:delText></w:r></w:del></w:p>";
    let body = t + &p("A") + gone + &p("B");
    assert_eq!(convert(&body), "kept\nA\nB\n");
}
