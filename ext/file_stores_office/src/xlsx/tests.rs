//! Workbooks built in memory, read end to end.

use super::sheet::{decode_escapes, parse_ref};
use super::to_text;
use crate::archive::Limits;
use crate::testing::zip_of;
use file_stores_base::cancel::Cancel;

const RELS: &str = r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;

/// Styles: 0 General, 1 date (14), 2 percent (9), 3 custom date-time,
/// 4 time (20), 5 custom `0.0%`, 6 quoted letters (a number).
const STYLES: &str = r#"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy\-mm\-dd\ hh:mm"/><numFmt numFmtId="165" formatCode="0.0%"/><numFmt numFmtId="166" formatCode="0 &quot;days&quot;"/></numFmts>
<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>
<cellXfs count="7"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="9"/><xf numFmtId="164"/><xf numFmtId="20"/><xf numFmtId="165"/><xf numFmtId="166"/></cellXfs>
</styleSheet>"#;

/// A workbook of `(name, state, sheetData and after)` sheets and shared strings.
fn workbook(sheets: &[(&str, &str, &str)], strings: &[&str], pr: &str) -> Vec<u8> {
    let mut wb = format!(
        r#"<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">{pr}<sheets>"#
    );
    let mut rels = String::from(
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>
<Relationship Id="rIdT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="/xl/styles.xml"/>"#,
    );
    let mut parts: Vec<(String, String)> = Vec::new();
    // Sheet parts are numbered backwards so file names cannot give the order.
    for (i, (name, state, body)) in sheets.iter().enumerate() {
        let n = sheets.len() - i;
        let state = if state.is_empty() {
            String::new()
        } else {
            format!(r#" state="{state}""#)
        };
        wb.push_str(&format!(
            r#"<sheet name="{name}" sheetId="{n}"{state} r:id="rId{n}"/>"#
        ));
        rels.push_str(&format!(
            r#"<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet{n}.xml"/>"#
        ));
        parts.push((
            format!("xl/worksheets/sheet{n}.xml"),
            format!(
                r#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">{body}</worksheet>"#
            ),
        ));
    }
    wb.push_str("</sheets></workbook>");
    rels.push_str("</Relationships>");
    let sst = strings
        .iter()
        .map(|s| format!("<si>{s}</si>"))
        .collect::<Vec<_>>()
        .concat();
    let sst = format!(r#"<sst xmlns="x">{sst}</sst>"#);
    let mut all: Vec<(&str, &str)> = vec![
        ("_rels/.rels", RELS),
        ("xl/workbook.xml", &wb),
        ("xl/_rels/workbook.xml.rels", &rels),
        ("xl/sharedStrings.xml", &sst),
        ("xl/styles.xml", STYLES),
    ];
    all.extend(parts.iter().map(|(n, c)| (n.as_str(), c.as_str())));
    zip_of(&all)
}

fn read(bytes: &[u8]) -> String {
    to_text(bytes, Limits::default(), &Cancel::new()).expect("converts")
}

fn one_sheet(body: &str, strings: &[&str]) -> String {
    read(&workbook(&[("S", "", body)], strings, ""))
}

#[test]
fn sheets_in_workbook_order_with_hidden_ones_marked() {
    let bytes = workbook(
        &[
            (
                "First",
                "",
                r#"<sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData>"#,
            ),
            (
                "Second",
                "hidden",
                r#"<sheetData><row r="1"><c r="A1"><v>2</v></c></row></sheetData>"#,
            ),
            ("Third", "veryHidden", "<sheetData/>"),
        ],
        &[],
        "",
    );
    assert_eq!(
        read(&bytes),
        "## First\n1\n\n## Second (hidden)\n2\n\n## Third (very hidden)\n"
    );
}

#[test]
fn rows_keep_columns_and_inner_empty_rows() {
    let body = r#"<sheetData>
<row r="2"><c r="C2" t="s"><v>0</v></c><c r="D2"><v>4</v></c><c r="F2" s="0"/></row>
<row r="3"><c r="A3" s="1"/></row>
<row r="5"><c r="A5"><v>1</v></c><c r="C5"><v>3</v></c></row>
<row r="9"><c r="B9" s="2"/></row>
</sheetData>"#;
    assert_eq!(
        one_sheet(body, &["<t>x</t>"]),
        "## S\n\t\tx\t4\n\n\n1\t\t3\n"
    );
}

#[test]
fn rows_and_cells_without_references_follow_on() {
    let body = r#"<sheetData><row><c><v>1</v></c><c><v>2</v></c></row><row><c r="B2"><v>3</v></c><c><v>4</v></c></row></sheetData>"#;
    assert_eq!(one_sheet(body, &[]), "## S\n1\t2\n\t3\t4\n");
}

#[test]
fn dates_times_and_percentages_follow_the_number_format() {
    let body = r#"<sheetData><row r="1">
<c r="A1" s="1"><v>46112</v></c>
<c r="B1" s="3"><v>46112.586805555555</v></c>
<c r="C1" s="4"><v>0.58680555555555558</v></c>
<c r="D1" s="2"><v>0.5</v></c>
<c r="E1" s="5"><v>0.125</v></c>
<c r="F1" s="6"><v>46112</v></c>
<c r="G1"><v>0.10000000000000001</v></c>
<c r="H1"><v>3.0</v></c>
</row></sheetData>"#;
    assert_eq!(
        one_sheet(body, &[]),
        "## S\n2026-03-31\t2026-03-31 14:05:00\t14:05:00\t50%\t12.5%\t46112\t0.1\t3\n"
    );
}

#[test]
fn the_1904_date_system() {
    let body = r#"<sheetData><row r="1"><c r="A1" s="1"><v>44650</v></c></row></sheetData>"#;
    let bytes = workbook(&[("S", "", body)], &[], r#"<workbookPr date1904="1"/>"#);
    assert_eq!(read(&bytes), "## S\n2026-03-31\n");
}

#[test]
fn booleans_errors_formulas_and_iso_dates() {
    let body = r#"<sheetData><row r="1">
<c r="A1" t="b"><v>1</v></c><c r="B1" t="b"><v>0</v></c>
<c r="C1" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="D1" t="e"><v>#N/A</v></c>
<c r="E1"><f>SUM(1,2)</f><v>3</v></c><c r="F1" t="str"><f>"a"&amp;"b"</f><v>a&amp;b</v></c>
<c r="G1" t="d" s="1"><v>2026-03-31T00:00:00Z</v></c><c r="H1" t="d"><v>2026-03-31T14:05:00</v></c>
</row></sheetData>"#;
    assert_eq!(
        one_sheet(body, &[]),
        "## S\nTRUE\tFALSE\t#DIV/0!\t#N/A\t3\ta&b\t2026-03-31\t2026-03-31 14:05:00\n"
    );
}

#[test]
fn shared_and_inline_rich_text_without_phonetics() {
    let strings = [
        "<r><t>Bold</t></r><r><t xml:space=\"preserve\"> and plain</t></r>",
        "<t>漢字</t><rPh sb=\"0\" eb=\"2\"><t>かんじ</t></rPh>",
        "<t>a_x005F_x000D_b</t>",
    ];
    let body = r#"<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>
<c r="D1" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c></row></sheetData>"#;
    assert_eq!(
        one_sheet(body, &strings),
        "## S\nBold and plain\t漢字\ta_x000D_b\tinline\n"
    );
}

#[test]
fn cells_with_line_breaks_are_quoted() {
    let strings = ["<t>two_x000D_\nlines \"quoted\"</t>"];
    let body = r#"<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>2</v></c></row></sheetData>"#;
    assert_eq!(
        one_sheet(body, &strings),
        "## S\n\"two\nlines \"\"quoted\"\"\"\t2\n"
    );
}

#[test]
fn escapes_decode() {
    let mut out = String::new();
    decode_escapes("a_x000D_b_x005F_x000D__x0041__xD83D__xDE00_", &mut out);
    assert_eq!(out, "a\rb_x000D_A😀");
    out.clear();
    decode_escapes("_xZZZZ_ _x00", &mut out);
    assert_eq!(out, "_xZZZZ_ _x00");
}

#[test]
fn merged_ranges_show_their_value_once() {
    let body = r#"<sheetData>
<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>1</v></c><c r="C1"><v>9</v></c></row>
<row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>1</v></c><c r="C2"><v>8</v></c></row>
</sheetData><mergeCells count="2"><mergeCell ref="A1:B2"/><mergeCell ref="C2:C9"/></mergeCells>"#;
    assert_eq!(one_sheet(body, &[]), "## S\n1\t\t9\n\t\t8\n");
}

#[test]
fn cell_references() {
    assert_eq!(parse_ref("A1"), Some((0, 0)));
    assert_eq!(parse_ref("$AB$12"), Some((11, 27)));
    assert_eq!(parse_ref("XFD1048576"), Some((1_048_575, 16_383)));
    assert_eq!(parse_ref("XFE1"), None);
    assert_eq!(parse_ref("A0"), None);
    assert_eq!(parse_ref("A1048577"), None);
    assert_eq!(parse_ref("12"), None);
}

#[test]
fn malformed_xml_names_the_part() {
    let bytes = workbook(&[("S", "", "<sheetData><row></sheetData>")], &[], "");
    let err = to_text(&bytes, Limits::default(), &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("xl/worksheets/sheet1.xml")));
}

#[test]
fn a_missing_workbook_or_sheet_is_a_clear_error() {
    let bytes = zip_of(&[("_rels/.rels", RELS)]);
    let err = to_text(&bytes, Limits::default(), &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("no xl/workbook.xml part")));

    let mut bytes = workbook(&[("S", "", "<sheetData/>")], &[], "");
    // Rename the sheet part so the relationship points nowhere.
    let name = b"xl/worksheets/sheet1.xml";
    for at in 0..bytes.len() - name.len() {
        if &bytes[at..at + name.len()] == name {
            bytes[at + 14] = b'X';
        }
    }
    let err = to_text(&bytes, Limits::default(), &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("no xl/worksheets/sheet1.xml part")));
}

#[test]
fn output_is_bounded() {
    let body = r#"<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>0123456789</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row></sheetData>"#;
    let bytes = workbook(&[("S", "", body)], &[], "");
    let limits = Limits {
        max_output: 8,
        ..Limits::default()
    };
    let err = to_text(&bytes, limits, &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("limit")));
}

#[test]
fn cancelled_conversion_stops() {
    let bytes = workbook(&[("S", "", "<sheetData/>")], &[], "");
    let cancel = Cancel::new();
    cancel.cancel();
    let err = to_text(&bytes, Limits::default(), &cancel).err();
    assert!(err.is_some_and(|e| e.is_cancelled()));
}

#[test]
fn rows_past_excel_last_row_cannot_add_billions_of_lines() {
    let body = r#"<sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="4000000000"><c r="A4000000000"><v>5</v></c></row></sheetData>"#;
    assert_eq!(one_sheet(body, &[]), "## S\n1\n5\n");
}

#[test]
fn overlapping_and_many_open_merges_hide_what_they_cover() {
    // A1:B2 and B1:C1 overlap: B1 is covered by both, A1 starts one only;
    // thousands of ranges stay open over every row.
    let mut merges = String::from(r#"<mergeCell ref="A1:B2"/><mergeCell ref="B1:C1"/>"#);
    for col in 0..5000 {
        let letters = format!(
            "{}{}",
            (b'E' + (col / 26 % 20) as u8) as char,
            (b'A' + (col % 26) as u8) as char
        );
        merges.push_str(&format!(
            r#"<mergeCell ref="{letters}5:{letters}1048576"/>"#
        ));
    }
    let body = format!(
        r#"<sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c><c r="C1"><v>3</v></c><c r="D1"><v>4</v></c></row>
<row r="9"><c r="A9"><v>9</v></c><c r="EA9"><v>10</v></c></row></sheetData><mergeCells>{merges}</mergeCells>"#
    );
    assert_eq!(one_sheet(&body, &[]), "## S\n1\t\t\t4\n\n\n\n\n\n\n\n9\n");
}

#[test]
fn a_sheet_listed_again_is_shown_once() {
    let bytes = workbook(
        &[(
            "S",
            "",
            r#"<sheetData><row r="1"><c r="A1"><v>7</v></c></row></sheetData>"#,
        )],
        &[],
        "",
    );
    let cancel = Cancel::new();
    let mut archive =
        crate::archive::Archive::open(&bytes, Limits::default(), &cancel).expect("opens");
    let mut parts: Vec<(String, String)> = Vec::new();
    for name in archive.names() {
        let content =
            String::from_utf8(archive.read(&name).expect("reads").expect("part")).expect("utf-8");
        let mut again = String::new();
        for i in 0..20_000 {
            let id = i + 2;
            again.push_str(&format!(
                r#"<sheet name="Copy{i}" sheetId="{id}" r:id="rId1"/>"#
            ));
        }
        parts.push((
            name,
            content.replace("</sheets>", &format!("{again}</sheets>")),
        ));
    }
    let all: Vec<(&str, &str)> = parts
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_str()))
        .collect();
    let text = read(&zip_of(&all));
    assert!(text.starts_with("## S\n7\n\n## Copy0\n(the same sheet as \"S\", shown above)\n"));
    assert_eq!(text.matches("shown above").count(), 20_000);
}

#[test]
fn an_invalid_utf8_byte_in_a_sheet_is_a_replacement_character_and_malformed_xml_is_refused() {
    let raw = |sheet: &[u8]| {
        use std::io::Write;
        let good = workbook(&[("S", "", "")], &[], "");
        let cancel = Cancel::new();
        let mut archive =
            crate::archive::Archive::open(&good, Limits::default(), &cancel).expect("opens");
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for name in archive.names() {
            let mut content = archive.read(&name).expect("reads").expect("part");
            if name.ends_with("sheet1.xml") {
                content = sheet.to_vec();
            }
            writer
                .start_file(name.as_str(), zip::write::SimpleFileOptions::default())
                .expect("zip");
            writer.write_all(&content).expect("zip");
        }
        let bytes = writer.finish().expect("zip").into_inner();
        to_text(&bytes, Limits::default(), &Cancel::new())
    };
    let text = raw(b"<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>caf\xE9</t></is></c></row></sheetData></worksheet>")
        .expect("converts");
    assert_eq!(
        text,
        "## S\ncaf\u{FFFD}\n\n[Note: part xl/worksheets/sheet1.xml of this file has 1 invalid UTF-8 \
         sequence, shown as \u{FFFD}.]\n"
    );
    let err = raw(b"<worksheet><sheetData><row>\xE9</sheetData></worksheet>").err();
    assert!(err.is_some_and(|e| e.to_string().contains("not well-formed")));
}

#[test]
fn an_escaped_nul_or_other_control_is_dropped_from_the_text() {
    let bytes = workbook(
        &[(
            "S",
            "",
            r#"<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row></sheetData>"#,
        )],
        &["<t>a_x0000_b</t>", "<t>c_x001B_d</t>"],
        "",
    );
    let text = crate::to_text(
        &bytes,
        crate::Format::Excel,
        Limits::default(),
        &Cancel::new(),
    )
    .expect("converts");
    assert_eq!(text, "## S\nab\tcd\n");
}
