//! Word conversion of hostile structure: work and output stay in proportion
//! to the input.

use super::tests::{convert, convert_bytes, document, p};
use crate::archive::Limits;
use crate::testing::zip_of;

const RELS: &str = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

#[test]
fn tables_nested_thousands_deep_keep_their_inner_text_once_in_order() {
    let depth = 3_000;
    let mut body = String::new();
    for _ in 0..depth {
        body.push_str("<w:tbl><w:tr><w:tc>");
    }
    body.push_str(&p("inner"));
    for _ in 0..depth {
        body.push_str(&format!("</w:tc><w:tc>{}</w:tc></w:tr></w:tbl>", p("x")));
    }
    let text = convert(&body);
    let (first, last) = text.trim_end().split_once('\t').expect("two cells");
    assert_eq!(first, format!("inner{}", " x".repeat(depth - 1)));
    assert_eq!(last, "x");
}

#[test]
fn nested_rows_deleted_or_merged_away_leave_nothing_in_their_cell() {
    let body = "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p>\
        <w:tbl><w:tr><w:trPr><w:del/></w:trPr><w:tc><w:p><w:r><w:t>gone</w:t></w:r></w:p></w:tc></w:tr>\
        <w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p><w:r><w:t>merged</w:t></w:r></w:p></w:tc>\
        <w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:tc>\
        <w:tc><w:p><w:r><w:t>c</w:t></w:r></w:p></w:tc></w:tr></w:tbl>";
    assert_eq!(convert(body), "a b\tc\n");
}

#[test]
fn paragraphs_nested_past_the_cap_join_the_one_around_them() {
    let depth = 50;
    let mut body = String::new();
    for i in 0..depth {
        body.push_str(&format!(
            "<w:p><w:r><w:t>level{i}</w:t></w:r><w:r><w:drawing><w:txbxContent>"
        ));
    }
    for _ in 0..depth {
        body.push_str("</w:txbxContent></w:drawing></w:r></w:p>");
    }
    let text = convert(&body);
    for i in 0..depth {
        assert_eq!(text.matches(&format!("level{i}\n")).count(), 1, "{text}");
    }
}

#[test]
fn list_labels_count_against_the_output_limit_as_they_are_made() {
    let numbering = format!(
        r#"<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/><w:lvlText w:val="%1{}"/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#,
        "y".repeat(1_000)
    );
    let item =
        "<w:p><w:pPr><w:numPr><w:ilvl w:val=\"0\"/><w:numId w:val=\"1\"/></w:numPr></w:pPr></w:p>";
    let doc = document(&item.repeat(100));
    let bytes = zip_of(&[
        ("_rels/.rels", RELS),
        ("word/document.xml", &doc),
        ("word/numbering.xml", &numbering),
    ]);
    let limits = Limits {
        max_output: 20 * 1024,
        ..Limits::default()
    };
    let err = convert_bytes(&bytes, limits).expect_err("over the limit");
    assert!(err.to_string().contains("over the"), "{err}");
    assert!(convert_bytes(&bytes, Limits::default()).is_ok());
}

#[test]
fn an_invalid_utf8_byte_in_the_document_is_a_replacement_character_with_a_note() {
    let doc = document("<w:p><w:r><w:t>caf\u{E9}</w:t></w:r></w:p>").replace('\u{E9}', "\u{1}");
    let mut raw = doc.into_bytes();
    let at = raw.iter().position(|&b| b == 1).expect("marker");
    raw[at] = 0xE9;
    let bytes = {
        use std::io::Write;
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        writer.start_file("_rels/.rels", options).expect("zip");
        writer.write_all(RELS.as_bytes()).expect("zip");
        writer
            .start_file("word/document.xml", options)
            .expect("zip");
        writer.write_all(&raw).expect("zip");
        writer.finish().expect("zip").into_inner()
    };
    assert_eq!(
        convert_bytes(&bytes, Limits::default()).expect("converts"),
        "caf\u{FFFD}\n\n[Note: part word/document.xml of this file has 1 invalid UTF-8 sequence, \
         shown as \u{FFFD}.]\n"
    );
}
