//! Word conversion: headings and list numbering.

use super::tests::{convert, convert_with, p};

const STYLES: &str = r#"<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Titre"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/></w:style>
<w:style w:type="paragraph" w:styleId="Mine"><w:name w:val="My Section"/><w:basedOn w:val="Heading3"/></w:style>
<w:style w:type="paragraph" w:styleId="Outline"><w:name w:val="Custom Outline"/><w:pPr><w:outlineLvl w:val="4"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="BodyOfHeading"><w:name w:val="Not a heading"/><w:basedOn w:val="Heading3"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Loop1"><w:name w:val="Loop one"/><w:basedOn w:val="Loop2"/></w:style>
<w:style w:type="paragraph" w:styleId="Loop2"><w:name w:val="Loop two"/><w:basedOn w:val="Loop1"/></w:style>
<w:style w:type="paragraph" w:styleId="ListBulletStyle"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="H1"><w:name w:val="heading 1"/><w:pPr><w:numPr><w:numId w:val="9"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="H2"><w:name w:val="heading 2"/><w:basedOn w:val="H1"/><w:pPr><w:numPr><w:ilvl w:val="1"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="H3"><w:name w:val="heading 3"/><w:pPr><w:numPr><w:numId w:val="9"/></w:numPr></w:pPr></w:style>
</w:styles>"#;

fn styled(style: &str, text: &str) -> String {
    format!("<w:p><w:pPr><w:pStyle w:val=\"{style}\"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>")
}

fn item(num: i64, ilvl: i64, text: &str) -> String {
    format!(
        "<w:p><w:pPr><w:numPr><w:ilvl w:val=\"{ilvl}\"/><w:numId w:val=\"{num}\"/></w:numPr></w:pPr>\
         <w:r><w:t>{text}</w:t></w:r></w:p>"
    )
}

fn lvl(ilvl: usize, start: i64, fmt: &str, text: &str, extra: &str) -> String {
    format!(
        "<w:lvl w:ilvl=\"{ilvl}\"><w:start w:val=\"{start}\"/><w:numFmt w:val=\"{fmt}\"/>{extra}\
         <w:lvlText w:val=\"{text}\"/><w:pPr><w:ind w:left=\"720\"/></w:pPr></w:lvl>"
    )
}

/// numbering.xml: abstractNum 0 is a three-level decimal/letter/roman
/// outline, 1 bullets, 2 shows each format once, 3 multi-level `%1.%2`
/// linked to the H1..H3 heading styles; nums 1, 5 share abstractNum 0, num 6
/// overrides its start, num 7 restarts level 1 only after level 1.
fn numbering() -> String {
    let outline = [
        lvl(0, 1, "decimal", "%1.", ""),
        lvl(1, 1, "lowerLetter", "%2)", ""),
        lvl(2, 1, "lowerRoman", "%3.", ""),
    ]
    .concat();
    let bullets = [
        lvl(0, 1, "bullet", "\u{F0B7}", ""),
        lvl(1, 1, "bullet", "o", ""),
    ]
    .concat();
    let formats = [
        lvl(0, 2, "upperLetter", "%1)", ""),
        lvl(1, 4, "upperRoman", "%2.", ""),
        lvl(2, 9, "decimalZero", "%3.", ""),
        lvl(3, 5, "none", "Note:", ""),
        lvl(4, 3, "ordinal", "%5", ""),
        lvl(5, 1, "decimal", "%1.%6", "<w:lvlRestart w:val=\"0\"/>"),
    ]
    .concat();
    let headings = [
        lvl(0, 1, "decimal", "%1", "<w:pStyle w:val=\"H1\"/>"),
        lvl(1, 1, "decimal", "%1.%2", "<w:pStyle w:val=\"H2\"/>"),
        lvl(2, 1, "decimal", "%1.%2.%3", "<w:pStyle w:val=\"H3\"/>"),
    ]
    .concat();
    let custom = "<w:lvl w:ilvl=\"0\"><w:start w:val=\"1\"/><mc:AlternateContent xmlns:mc=\"mc\">\
        <mc:Choice Requires=\"w14\"><w:numFmt w:val=\"custom\" w:format=\"001, 002, 003, ...\"/></mc:Choice>\
        <mc:Fallback><w:numFmt w:val=\"upperLetter\"/></mc:Fallback></mc:AlternateContent>\
        <w:lvlText w:val=\"(%1)\"/></w:lvl>";
    format!(
        r#"<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:abstractNum w:abstractNumId="0">{outline}</w:abstractNum>
<w:abstractNum w:abstractNumId="1">{bullets}</w:abstractNum>
<w:abstractNum w:abstractNumId="2">{formats}</w:abstractNum>
<w:abstractNum w:abstractNumId="3">{headings}</w:abstractNum>
<w:abstractNum w:abstractNumId="4">{custom}</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="6"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="10"/></w:lvlOverride></w:num>
<w:num w:numId="8"><w:abstractNumId w:val="4"/></w:num>
<w:num w:numId="9"><w:abstractNumId w:val="3"/></w:num>
<w:num w:numId="10"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="1"><w:lvl w:ilvl="1"><w:start w:val="3"/><w:numFmt w:val="upperLetter"/><w:lvlText w:val="%1-%2"/></w:lvl></w:lvlOverride></w:num>
</w:numbering>"#
    )
}

fn with_definitions(body: &str) -> String {
    let numbering = numbering();
    convert_with(
        body,
        &[
            ("word/styles.xml", STYLES),
            ("word/numbering.xml", &numbering),
        ],
    )
}

#[test]
fn headings_from_style_names_chains_and_outline_levels() {
    let body = [
        styled("Titre", "The title"),
        styled("berschrift1", "Chapter"),
        styled("Mine", "Custom based on heading 3"),
        styled("Outline", "Outline five"),
        styled("BodyOfHeading", "Body text"),
        styled("Loop1", "Looping styles"),
        styled("Unknown", "Undefined style"),
        "<w:p><w:pPr><w:outlineLvl w:val=\"1\"/></w:pPr><w:r><w:t>Direct outline</w:t></w:r></w:p>".into(),
        "<w:p><w:pPr><w:pStyle w:val=\"Mine\"/><w:outlineLvl w:val=\"9\"/></w:pPr><w:r><w:t>Demoted</w:t></w:r></w:p>".into(),
        styled("berschrift1", ""),
    ]
    .concat();
    assert_eq!(
        with_definitions(&body),
        "# The title\n# Chapter\n### Custom based on heading 3\n##### Outline five\nBody text\n\
         Looping styles\nUndefined style\n## Direct outline\nDemoted\n"
    );
}

#[test]
fn heading_ids_work_without_a_styles_part() {
    let body = styled("Heading2", "Two") + &styled("Title", "T") + &styled("Heading9", "Nine");
    assert_eq!(convert(&body), "## Two\n# T\n###### Nine\n");
}

#[test]
fn numbered_lists_nest_restart_and_continue() {
    let body = [
        item(1, 0, "one"),
        item(1, 1, "one a"),
        item(1, 1, "one b"),
        item(1, 2, "deep"),
        item(1, 0, "two"),
        item(1, 1, "two a"),
        p("An interruption"),
        item(1, 1, "two b"),
        item(1, 0, "three"),
    ]
    .concat();
    assert_eq!(
        with_definitions(&body),
        "1. one\n  a) one a\n  b) one b\n    i. deep\n2. two\n  a) two a\nAn interruption\n  b) two b\n3. three\n"
    );
}

#[test]
fn bullets_are_dashes() {
    let body = item(2, 0, "top") + &item(2, 1, "under") + &item(2, 0, "again");
    assert_eq!(with_definitions(&body), "- top\n  - under\n- again\n");
}

#[test]
fn formats_and_label_texts() {
    let body = [
        item(3, 0, "upper letter"),
        item(3, 1, "upper roman"),
        item(3, 1, "again"),
        item(3, 2, "zero padded"),
        item(3, 3, "no number"),
        item(3, 4, "ordinal"),
        item(3, 5, "multi-level"),
        item(3, 0, "next"),
        item(3, 5, "not restarted"),
        item(8, 0, "custom format falls back"),
    ]
    .concat();
    assert_eq!(
        with_definitions(&body),
        "B) upper letter\n  IV. upper roman\n  V. again\n    09. zero padded\n      Note: no number\n\
         \x20       3rd ordinal\n          B.1 multi-level\nC) next\n          C.2 not restarted\n\
         (A) custom format falls back\n"
    );
}

#[test]
fn nums_sharing_a_list_share_counters_and_a_start_override_restarts_them() {
    let body = [
        item(1, 0, "a"),
        item(5, 0, "b"),
        item(6, 0, "c"),
        item(6, 0, "d"),
        item(1, 0, "e"),
        item(10, 1, "f"),
    ]
    .concat();
    assert_eq!(
        with_definitions(&body),
        "1. a\n2. b\n10. c\n11. d\n12. e\n  12-C f\n"
    );
}

#[test]
fn numbering_from_the_style_and_num_id_zero() {
    let body = [
        styled("ListBulletStyle", "from style"),
        "<w:p><w:pPr><w:pStyle w:val=\"ListBulletStyle\"/><w:numPr><w:numId w:val=\"0\"/></w:numPr></w:pPr>\
         <w:r><w:t>switched off</w:t></w:r></w:p>"
            .into(),
        item(0, 0, "zero"),
        item(42, 0, "undefined num"),
    ]
    .concat();
    assert_eq!(
        with_definitions(&body),
        "- from style\nswitched off\nzero\nundefined num\n"
    );
}

#[test]
fn numbered_headings_keep_their_number() {
    let body = [
        styled("H1", "Introduction"),
        styled("H2", "Scope"),
        styled("H2", "Terms"),
        styled("H3", "Detail"),
        styled("H1", "Method"),
        styled("H2", "Setup"),
    ]
    .concat();
    assert_eq!(
        with_definitions(&body),
        "# 1 Introduction\n## 1.1 Scope\n## 1.2 Terms\n### 1.2.1 Detail\n# 2 Method\n## 2.1 Setup\n"
    );
}

#[test]
fn labels_in_table_cells_are_not_indented() {
    let body = format!(
        "<w:tbl><w:tr><w:tc>{}{}</w:tc><w:tc>{}</w:tc></w:tr></w:tbl>",
        item(1, 0, "x"),
        item(1, 1, "y"),
        p("z")
    );
    assert_eq!(with_definitions(&body), "1. x a) y\tz\n");
}

#[test]
fn number_formats() {
    use super::numbering::format_number as f;
    assert_eq!(f(27, "lowerLetter"), "aa");
    assert_eq!(f(28, "upperLetter"), "BB");
    assert_eq!(f(1999, "upperRoman"), "MCMXCIX");
    assert_eq!(f(4, "lowerRoman"), "iv");
    assert_eq!(f(0, "lowerRoman"), "0");
    assert_eq!(f(12, "ordinal"), "12th");
    assert_eq!(f(22, "ordinal"), "22nd");
    assert_eq!(f(7, "decimalZero"), "07");
    assert_eq!(f(12, "decimalZero"), "12");
    assert_eq!(f(5, "chineseCounting"), "5");
    assert_eq!(f(1_000_000, "lowerLetter"), "1000000");
}

#[test]
fn list_styles_linked_through_num_style_link_share_levels_and_counters() {
    let styles = r#"<w:styles xmlns:w="w">
<w:style w:type="numbering" w:styleId="LegalList"><w:name w:val="Legal List"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
</w:styles>"#;
    let numbering = format!(
        r#"<w:numbering xmlns:w="w">
<w:abstractNum w:abstractNumId="0"><w:styleLink w:val="LegalList"/>{}{}</w:abstractNum>
<w:abstractNum w:abstractNumId="1"><w:numStyleLink w:val="LegalList"/></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
</w:numbering>"#,
        lvl(0, 1, "upperRoman", "Article %1", ""),
        lvl(1, 1, "decimal", "%1.%2", "<w:isLgl/>")
    );
    let body = [item(2, 0, "first"), item(1, 0, "second"), item(2, 1, "sub")].concat();
    let text = convert_with(
        &body,
        &[
            ("word/styles.xml", styles),
            ("word/numbering.xml", &numbering),
        ],
    );
    assert_eq!(text, "Article I first\nArticle II second\n  2.1 sub\n");
}

#[test]
fn lvl_restart_names_the_level_that_restarts_a_deeper_one() {
    // Level 3 restarts only when level 1 is used, not when level 2 is.
    let numbering = format!(
        r#"<w:numbering xmlns:w="w"><w:abstractNum w:abstractNumId="0">{}{}{}</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#,
        lvl(0, 1, "decimal", "%1.", ""),
        lvl(1, 1, "lowerLetter", "%2.", ""),
        lvl(2, 1, "decimal", "(%3)", "<w:lvlRestart w:val=\"1\"/>")
    );
    let body = [
        item(1, 0, "a"),
        item(1, 1, "b"),
        item(1, 2, "c"),
        item(1, 1, "d"),
        item(1, 2, "e"),
        item(1, 0, "f"),
        item(1, 2, "g"),
    ]
    .concat();
    let text = convert_with(&body, &[("word/numbering.xml", &numbering)]);
    assert_eq!(
        text,
        "1. a\n  a. b\n    (1) c\n  b. d\n    (2) e\n2. f\n    (1) g\n"
    );
}

#[test]
fn an_empty_numbered_paragraph_shows_its_label() {
    let empty =
        "<w:p><w:pPr><w:numPr><w:ilvl w:val=\"0\"/><w:numId w:val=\"1\"/></w:numPr></w:pPr></w:p>";
    let body = item(1, 0, "one") + empty + &item(1, 0, "three");
    assert_eq!(with_definitions(&body), "1. one\n2.\n3. three\n");
}

fn fixture_text(bytes: &[u8]) -> String {
    let cancel = file_stores_base::Cancel::new();
    super::to_text(bytes, crate::Limits::default(), &cancel).expect("converts")
}

#[test]
fn a_start_override_restarts_the_count_that_the_style_list_then_continues() {
    let text = fixture_text(include_bytes!(
        "../../../../spec/fixtures/office/list_restart.docx"
    ));
    assert_eq!(
        text,
        "1. First list, one\n2. First list, two\n3. First list, three\nBetween the lists\n\
         1. Second list, first\n2. Second list, second\n3. Second list, third\n4. Second list, fourth\n"
    );
}

#[test]
fn a_level_override_that_only_changes_the_format_continues_the_count() {
    let text = fixture_text(include_bytes!(
        "../../../../spec/fixtures/office/list_format_override.docx"
    ));
    assert_eq!(
        text,
        "1. Decimal one\nB. Letter two\nC. Letter three\n4. Decimal four\n"
    );
}

#[test]
fn a_start_override_applies_once_per_num_and_level() {
    let body = [
        item(1, 0, "a"),
        item(6, 0, "b"),
        item(1, 0, "c"),
        item(6, 0, "d"),
    ]
    .concat();
    assert_eq!(with_definitions(&body), "1. a\n10. b\n11. c\n12. d\n");
}

#[test]
fn a_level_text_is_cut_to_what_word_keeps() {
    let long = "x".repeat(100_000);
    let numbering = format!(
        r#"<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:abstractNum w:abstractNumId="0">{}</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>"#,
        lvl(0, 1, "decimal", &format!("%1{long}"), "")
    );
    let body = item(1, 0, "a").repeat(3);
    let text = convert_with(&body, &[("word/numbering.xml", &numbering)]);
    let first = text.lines().next().expect("a line");
    assert_eq!(
        first,
        format!("1{} a", "x".repeat(super::numbering::MAX_LEVEL_TEXT - 2))
    );
    assert_eq!(text.lines().count(), 3);
}
