//! Presentations built in memory, read end to end.

use super::to_text;
use crate::archive::Limits;
use crate::testing::zip_of;
use file_stores_base::cancel::Cancel;

const NS: &str = r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main""#;
const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// A presentation whose main part is `main`, of slides given as (shape
/// tree content, notes shape tree content, root attributes). Slide parts
/// are numbered backwards so file names cannot give the order.
fn deck(main: &str, slides: &[(&str, Option<&str>, &str)]) -> Vec<u8> {
    deck_with_layout(main, slides, None)
}

/// A presentation whose slides all use a layout of shape tree `layout`.
fn deck_with_layout(
    main: &str,
    slides: &[(&str, Option<&str>, &str)],
    layout: Option<&str>,
) -> Vec<u8> {
    let package_rels = format!(
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="{main}"/></Relationships>"#
    );
    let (dir, file) = main.rsplit_once('/').unwrap_or(("", main));
    let mut ids = String::new();
    let mut rels = String::from(
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    let mut parts: Vec<(String, String)> = Vec::new();
    for (i, (tree, notes, attrs)) in slides.iter().enumerate() {
        let n = slides.len() - i;
        ids.push_str(&format!(r#"<p:sldId id="{}" r:id="rId{n}"/>"#, 256 + i));
        rels.push_str(&format!(
            r#"<Relationship Id="rId{n}" Type="{REL}/slide" Target="slides/slide{n}.xml"/>"#
        ));
        parts.push((
            format!("{dir}/slides/slide{n}.xml"),
            format!(r#"<p:sld {NS} {attrs}><p:cSld><p:spTree>{tree}</p:spTree></p:cSld></p:sld>"#),
        ));
        let mut slide_rels = String::new();
        if layout.is_some() {
            slide_rels.push_str(&format!(
                r#"<Relationship Id="rId1" Type="{REL}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>"#
            ));
        }
        if notes.is_some() {
            slide_rels.push_str(&format!(
                r#"<Relationship Id="rId2" Type="{REL}/notesSlide" Target="../notesSlides/notesSlide{n}.xml"/>"#
            ));
        }
        parts.push((
            format!("{dir}/slides/_rels/slide{n}.xml.rels"),
            format!(
                r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{slide_rels}</Relationships>"#
            ),
        ));
        if let Some(notes) = notes {
            parts.push((
                format!("{dir}/notesSlides/notesSlide{n}.xml"),
                format!(r#"<p:notes {NS}><p:cSld><p:spTree>{notes}</p:spTree></p:cSld></p:notes>"#),
            ));
        }
    }
    rels.push_str("</Relationships>");
    if let Some(layout) = layout {
        parts.push((
            format!("{dir}/slideLayouts/slideLayout1.xml"),
            format!(
                r#"<p:sldLayout {NS}><p:cSld><p:spTree>{layout}</p:spTree></p:cSld></p:sldLayout>"#
            ),
        ));
    }
    let presentation =
        format!(r#"<p:presentation {NS}><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>"#);
    let rels_name = format!("{dir}/_rels/{file}.rels");
    let mut all: Vec<(&str, &str)> = vec![
        ("_rels/.rels", &package_rels),
        (main, &presentation),
        (&rels_name, &rels),
    ];
    all.extend(parts.iter().map(|(n, c)| (n.as_str(), c.as_str())));
    zip_of(&all)
}

/// A shape with a placeholder of `ph` (or none) and paragraphs `paras`.
fn sp(ph: &str, paras: &str) -> String {
    let ph = if ph.is_empty() {
        String::new()
    } else {
        format!("<p:ph {ph}/>")
    };
    format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="S"/><p:cNvSpPr/><p:nvPr>{ph}</p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/><a:lstStyle><a:lvl1pPr><a:buChar char="x"/></a:lvl1pPr></a:lstStyle>{paras}</p:txBody></p:sp>"#
    )
}

fn p(ppr: &str, text: &str) -> String {
    format!("<a:p>{ppr}<a:r><a:rPr lang=\"en\"/><a:t>{text}</a:t></a:r></a:p>")
}

fn read(bytes: &[u8]) -> String {
    to_text(bytes, Limits::default(), &Cancel::new()).expect("converts")
}

#[test]
fn slides_in_presentation_order_with_titles_as_headings() {
    let one = sp(r#"type="title""#, &p("", "Welcome")) + &sp("", &p("", "A text box"));
    let two = sp(r#"type="ctrTitle""#, &(p("", "Two") + &p("", "lines")));
    let three = sp("", &p("", "No title here"));
    let bytes = deck(
        "ppt/presentation.xml",
        &[
            (&one, None, ""),
            (&two, None, ""),
            (&three, None, r#"show="0""#),
        ],
    );
    assert_eq!(
        read(&bytes),
        "## Slide 1: Welcome\nA text box\n\n## Slide 2: Two lines\n\n## Slide 3 (hidden)\nNo title here\n"
    );
}

#[test]
fn bullets_numbers_and_levels() {
    let body = p("", "Inherited")
        + &p(r#"<a:pPr lvl="1"/>"#, "Deeper")
        + &p(r#"<a:pPr><a:buNone/></a:pPr>"#, "Plain")
        + &p(
            r#"<a:pPr><a:buAutoNum type="arabicPeriod"/></a:pPr>"#,
            "One",
        )
        + &p(
            r#"<a:pPr lvl="1"><a:buAutoNum type="alphaLcParenR"/></a:pPr>"#,
            "Sub a",
        )
        + &p(
            r#"<a:pPr lvl="1"><a:buAutoNum type="alphaLcParenR"/></a:pPr>"#,
            "Sub b",
        )
        + &p(
            r#"<a:pPr><a:buAutoNum type="arabicPeriod"/></a:pPr>"#,
            "Two",
        )
        + &p(
            r#"<a:pPr><a:buAutoNum type="romanUcPeriod" startAt="3"/></a:pPr>"#,
            "Three",
        )
        + "<a:p><a:pPr><a:buChar char=\"o\"/></a:pPr></a:p>";
    let text_box = p(r#"<a:pPr><a:buChar char="•"/></a:pPr>"#, "Own bullet") + &p("", "No bullet");
    let tree = sp(r#"type="body" idx="1""#, &body) + &sp("", &text_box);
    let bytes = deck("ppt/presentation.xml", &[(&tree, None, "")]);
    assert_eq!(
        read(&bytes),
        "## Slide 1\n- Inherited\n  - Deeper\nPlain\n1. One\n  a) Sub a\n  b) Sub b\n2. Two\nIII. Three\n- Own bullet\nNo bullet\n"
    );
}

#[test]
fn line_breaks_groups_and_skipped_placeholders() {
    let broken = "<a:p><a:r><a:t>first</a:t></a:r><a:br/><a:r><a:t>second</a:t></a:r></a:p>";
    let tree = format!(
        "<p:grpSp><p:nvGrpSpPr/>{}<p:grpSp>{}</p:grpSp></p:grpSp>{}{}",
        sp("idx=\"1\"", broken),
        sp("", &p("", "in a nested group")),
        sp(r#"type="sldNum""#, &p("", "7")),
        sp("", &p("", "A &amp; B &#x263A;")),
    );
    let bytes = deck("ppt/presentation.xml", &[(&tree, None, "")]);
    assert_eq!(
        read(&bytes),
        "## Slide 1\n- first\n  second\nin a nested group\nA & B ☺\n"
    );
}

#[test]
fn tables_as_tab_separated_rows() {
    let cell = |attrs: &str, paras: &str| {
        format!("<a:tc{attrs}><a:txBody><a:bodyPr/>{paras}</a:txBody><a:tcPr/></a:tc>")
    };
    let rows = format!(
        "<a:tr h=\"1\">{}{}{}</a:tr><a:tr h=\"1\">{}{}{}</a:tr>",
        cell(r#" gridSpan="2""#, &(p("", "Wide") + &p("", "cell"))),
        cell(r#" hMerge="1""#, &p("", "hidden")),
        cell("", &p("", "C")),
        cell(r#" vMerge="1""#, &p("", "gone")),
        cell("", &p("", "b")),
        cell("", ""),
    );
    let tree = format!(
        r#"<p:graphicFrame><p:nvGraphicFramePr/><a:graphic><a:graphicData uri="x"><a:tbl><a:tblGrid/>{rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>"#
    );
    let bytes = deck("ppt/presentation.xml", &[(&tree, None, "")]);
    assert_eq!(read(&bytes), "## Slide 1\nWide cell\t\tC\n\tb\n");
}

#[test]
fn speaker_notes_follow_the_slide() {
    let notes = sp(r#"type="sldImg""#, "")
        + &sp(
            r#"type="body" idx="1""#,
            &(p("", "Say hello") + &p("", "then go on")),
        )
        + &sp(r#"type="sldNum" idx="5""#, &p("", "1"));
    let tree = sp(r#"type="title""#, &p("", "Hi"));
    let bytes = deck(
        "ppt/presentation.xml",
        &[(&tree, Some(&notes), ""), (&tree, Some(""), "")],
    );
    assert_eq!(
        read(&bytes),
        "## Slide 1: Hi\nNotes:\nSay hello\nthen go on\n\n## Slide 2: Hi\n"
    );
}

#[test]
fn alternate_content_is_read_once() {
    let tree = format!(
        r#"<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="p14">{}</mc:Choice><mc:Fallback>{}</mc:Fallback></mc:AlternateContent>"#,
        sp("", &p("", "choice")),
        sp("", &p("", "fallback")),
    );
    let bytes = deck("ppt/presentation.xml", &[(&tree, None, "")]);
    assert_eq!(read(&bytes), "## Slide 1\nchoice\n");
}

#[test]
fn shows_and_templates_are_found_through_the_package_relationship() {
    let tree = sp("", &p("", "from a show"));
    let bytes = deck("show/main.xml", &[(&tree, None, "")]);
    assert_eq!(read(&bytes), "## Slide 1\nfrom a show\n");
}

#[test]
fn malformed_xml_names_the_part() {
    let bytes = deck("ppt/presentation.xml", &[("<p:sp><a:p></p:sp>", None, "")]);
    let err = to_text(&bytes, Limits::default(), &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("ppt/slides/slide1.xml")));
}

#[test]
fn missing_parts_are_clear_errors() {
    let err = to_text(
        &zip_of(&[("a.xml", "<a/>")]),
        Limits::default(),
        &Cancel::new(),
    )
    .err();
    assert!(err.is_some_and(|e| e.to_string().contains("no ppt/presentation.xml part")));

    let bytes = deck("ppt/presentation.xml", &[("", None, "")]);
    let cancel = Cancel::new();
    let mut archive =
        crate::archive::Archive::open(&bytes, Limits::default(), &cancel).expect("opens");
    // Rebuild the deck without its slide part.
    let mut parts = Vec::new();
    for name in archive.names() {
        if name != "ppt/slides/slide1.xml" {
            let content = archive.read(&name).expect("reads").expect("exists");
            parts.push((name, String::from_utf8(content).expect("utf-8")));
        }
    }
    let parts: Vec<(&str, &str)> = parts
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_str()))
        .collect();
    let err = to_text(&zip_of(&parts), Limits::default(), &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("no ppt/slides/slide1.xml part")));
}

#[test]
fn output_is_bounded() {
    let tree = sp("", &p("", "0123456789"));
    let bytes = deck("ppt/presentation.xml", &[(&tree, None, "")]);
    let limits = Limits {
        max_output: 5,
        ..Limits::default()
    };
    let err = to_text(&bytes, limits, &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("limit")));
}

#[test]
fn deep_nesting_costs_no_recursion() {
    let depth = 100_000;
    let tree = "<p:grpSp>".repeat(depth) + &sp("", &p("", "deep")) + &"</p:grpSp>".repeat(depth);
    let bytes = deck("ppt/presentation.xml", &[(&tree, None, "")]);
    assert_eq!(read(&bytes), "## Slide 1\ndeep\n");
}

#[test]
fn the_slide_layout_can_turn_inherited_bullets_off() {
    let layout = format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="3" name="B"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="13"/></p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/><a:lstStyle><a:lvl1pPr marL="0"><a:buNone/></a:lvl1pPr></a:lstStyle>{}</p:txBody></p:sp>"#,
        p("", "prompt")
    );
    let tree = sp(
        r#"type="body" idx="13""#,
        &(p("", "Section text") + &p(r#"<a:pPr lvl="1"/>"#, "Sub")),
    ) + &sp(r#"idx="2""#, &p("", "Other placeholder"));
    let bytes = deck_with_layout("ppt/presentation.xml", &[(&tree, None, "")], Some(&layout));
    assert_eq!(
        read(&bytes),
        "## Slide 1\nSection text\n  - Sub\n- Other placeholder\n"
    );
}

#[test]
fn malformed_layout_names_its_part() {
    let bytes = deck_with_layout("ppt/presentation.xml", &[("", None, "")], Some("<p:sp>"));
    let err = to_text(&bytes, Limits::default(), &Cancel::new()).err();
    assert!(err.is_some_and(|e| e.to_string().contains("ppt/slideLayouts/slideLayout1.xml")));
}

#[test]
fn a_slide_listed_twice_is_shown_once() {
    let bytes = deck(
        "ppt/presentation.xml",
        &[(&sp("", &p("", "Only once")), None, "")],
    );
    // List the one slide three times over.
    let twice = {
        let cancel = Cancel::new();
        let mut archive =
            crate::archive::Archive::open(&bytes, Limits::default(), &cancel).expect("opens");
        let mut parts: Vec<(String, String)> = Vec::new();
        for name in archive.names() {
            let content = String::from_utf8(archive.read(&name).expect("reads").expect("part"))
                .expect("utf-8");
            let content = content.replace(
                r#"<p:sldId id="256" r:id="rId1"/>"#,
                r#"<p:sldId id="256" r:id="rId1"/><p:sldId id="257" r:id="rId1"/><p:sldId id="258" r:id="rId1"/>"#,
            );
            parts.push((name, content));
        }
        let all: Vec<(&str, &str)> = parts
            .iter()
            .map(|(n, c)| (n.as_str(), c.as_str()))
            .collect();
        zip_of(&all)
    };
    assert_eq!(
        read(&twice),
        "## Slide 1\nOnly once\n\n## Slide 2\n(the same slide as Slide 1, shown above)\n\n\
         ## Slide 3\n(the same slide as Slide 1, shown above)\n"
    );
}

#[test]
fn an_invalid_utf8_byte_in_a_slide_is_a_replacement_character_with_a_note() {
    let bytes = deck(
        "ppt/presentation.xml",
        &[(&sp("", &p("", "caf\u{E9}")), None, "")],
    );
    let cancel = Cancel::new();
    let mut archive =
        crate::archive::Archive::open(&bytes, Limits::default(), &cancel).expect("opens");
    let mut parts: Vec<(String, Vec<u8>)> = Vec::new();
    for name in archive.names() {
        let mut content = archive.read(&name).expect("reads").expect("part");
        if name.ends_with("slide1.xml") {
            let at = content
                .windows(2)
                .position(|w| w == "\u{E9}".as_bytes())
                .expect("é");
            content.splice(at..at + 2, [0xE9]); // Latin-1, not UTF-8
        }
        parts.push((name, content));
    }
    let bytes = {
        use std::io::Write;
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, content) in &parts {
            writer
                .start_file(name.as_str(), zip::write::SimpleFileOptions::default())
                .expect("zip");
            writer.write_all(content).expect("zip");
        }
        writer.finish().expect("zip").into_inner()
    };
    assert_eq!(
        read(&bytes),
        "## Slide 1\ncaf\u{FFFD}\n\n[Note: part ppt/slides/slide1.xml of this file has 1 invalid \
         UTF-8 sequence, shown as \u{FFFD}.]\n"
    );
}
