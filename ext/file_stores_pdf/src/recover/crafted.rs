//! Damaged files read as other readers read them, as broken generators,
//! cut downloads and hand edits leave them: a wrong or missing
//! cross-reference section, lengths that miss their `endstream`, object
//! streams behind comments, a `/Prev` that loops. Each is built from a
//! well-formed file of [`make_pdf`], every offset right unless the damage
//! is the offsets.

use crate::testpdf::{
    convert, hex_codes, make_pdf, page_content, serialize, text, xref_stream_rows, HELVETICA,
};
use crate::Error;

const TWO_PAGES: [Option<&str>; 2] = [
    Some("Termination clause\nninety days notice."),
    Some("Signed on the second page."),
];
const BOTH_READ: &str =
    "## Page 1\n\nTermination clause\nninety days notice.\n\n## Page 2\n\nSigned on the second page.\n";

fn two_pages() -> String {
    String::from_utf8(make_pdf(&TWO_PAGES, &[])).expect("ASCII")
}

/// `pdf` with the number after `startxref` replaced by `offset`.
fn with_startxref(pdf: &str, offset: &str) -> String {
    let at = pdf.rfind("startxref\n").expect("a startxref") + 10;
    let end = at + pdf[at..].find('\n').expect("a line");
    format!("{}{offset}{}", &pdf[..at], &pdf[end..])
}

/// The objects of `pdf`, before its table.
fn objects_only(pdf: &str) -> &str {
    &pdf[..pdf.find("\nxref\n").expect("a table") + 1]
}

/// The bodies of `pdf`'s objects, in order.
fn bodies(pdf: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = pdf;
    while let Some(at) = rest.find(" 0 obj\n") {
        let body = &rest[at + 7..];
        let end = body.find("\nendobj\n").expect("an endobj");
        out.push(body[..end].to_owned());
        rest = &body[end..];
    }
    out
}

#[test]
fn reads_a_file_whose_startxref_points_at_the_wrong_offset() {
    let pdf = with_startxref(&two_pages(), "12");
    assert_eq!(text("wrong_startxref", pdf.as_bytes()), BOTH_READ);
}

#[test]
fn reads_a_file_with_no_table_trailer_or_startxref() {
    let pdf = two_pages();
    assert_eq!(text("no_trailer", objects_only(&pdf).as_bytes()), BOTH_READ);
}

#[test]
fn reads_a_file_whose_table_gives_wrong_offsets() {
    // Off by 7 bytes (re-saved with other line endings, or edited by hand).
    let pdf: Vec<String> = two_pages()
        .split_inclusive('\n')
        .map(|line| match line.strip_suffix(" 00000 n \n") {
            Some(offset) if offset.len() == 10 => {
                let offset: usize = offset.parse().expect("digits");
                format!("{:010} 00000 n \n", offset + 7)
            }
            _ => line.to_owned(),
        })
        .collect();
    assert_eq!(text("wrong_offsets", pdf.concat().as_bytes()), BOTH_READ);
}

#[test]
fn reads_a_trailer_without_size_through_the_table_even_where_no_scan_finds_the_catalog() {
    // lopdf requires /Size; the catalog's header on the comment's line
    // ("%PDF-1.4|1 0 obj") is one no scan for headers takes.
    let pdf = two_pages()
        .replacen("%PDF-1.4\n1 0 obj", "%PDF-1.4|1 0 obj", 1)
        .replacen("/Size 8 ", "", 1);
    assert!(!pdf.contains("/Size"));
    assert_eq!(text("no_size", pdf.as_bytes()), BOTH_READ);
}

#[test]
fn reads_the_objects_of_a_file_whose_trailer_nests_past_the_limit() {
    // qpdf's issue-202, a stack-overflow test.
    let deep = format!(
        "/Root 1 0 R /Deep {}{} >>",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let pdf = two_pages().replacen("/Root 1 0 R >>", &deep, 1);
    assert_eq!(text("deep_trailer", pdf.as_bytes()), BOTH_READ);
}

#[test]
fn reads_an_object_whose_dictionary_is_left_open_before_its_endobj() {
    // The pages' font is the last object before the table (pdfium's bug_1893).
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding";
    let pdf = String::from_utf8(make_pdf(&TWO_PAGES, &[font.into()]))
        .expect("ASCII")
        .replace("/F1 3 0 R", "/F1 8 0 R");
    assert_eq!(text("unclosed_font", pdf.as_bytes()), BOTH_READ);
}

#[test]
fn reads_what_a_cut_download_holds() {
    let pdf = two_pages();
    let cut = &pdf[..pdf.rfind("BT /F1").expect("a text object") + 10];
    assert!(text("cut", cut.as_bytes())
        .starts_with("## Page 1\n\nTermination clause\nninety days notice.\n"));
}

#[test]
fn reads_content_streams_whose_length_misses_their_endstream_up_to_it() {
    // Half the size, in as many digits: every offset stays right.
    let mut pdf = two_pages();
    let mut from = 0;
    while let Some(at) = pdf[from..].find("<< /Length ").map(|i| from + i + 11) {
        let end = at + pdf[at..].find(' ').expect("a number");
        let length: usize = pdf[at..end].parse().expect("digits");
        let half = format!("{:0width$}", length / 2, width = end - at);
        pdf.replace_range(at..end, &half);
        from = end;
    }
    assert_eq!(text("wrong_lengths", pdf.as_bytes()), BOTH_READ);
}

#[test]
fn reads_a_content_stream_whose_right_length_is_followed_by_junk_before_endstream() {
    // As Ghostscript leaves "Page 2" there; the /Length direct or indirect.
    let data = page_content("Junk follows\nthe data.");
    for indirect in [false, true] {
        let length = if indirect {
            "6 0 R".to_owned()
        } else {
            data.len().to_string()
        };
        let pdf = serialize(&[
            "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
             /Resources << /Font << /F1 5 0 R >> >> >>"
                .into(),
            format!("<< /Length {length} >>\nstream\n{data}Page 2\nendstream"),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".into(),
            data.len().to_string(),
        ]);
        let name = format!("junk_before_endstream_{indirect}");
        assert_eq!(
            text(&name, &pdf),
            "## Page 1\n\nJunk follows\nthe data.\n",
            "{name}"
        );
    }
}

#[test]
fn reads_a_to_unicode_cmap_that_runs_into_its_endstream_with_no_end_of_line() {
    // A-Z to a-z; its /Length counts the end of line that was not written.
    let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
                1 begincodespacerange <00> <FF> endcodespacerange\n\
                1 beginbfrange\n<41> <5A> <0061>\nendbfrange\nendcmap end\nend";
    let content = "BT /F1 12 Tf 72 720 Td (HELLO) Tj ET\n";
    let pdf = serialize(&[
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .into(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>".into(),
        format!("<< /Length {} >>\nstream\n{cmap}endstream", cmap.len() + 1),
    ]);
    assert_eq!(text("cmap_no_eol", &pdf), "## Page 1\n\nhello\n");
}

#[test]
fn reads_a_content_stream_whose_right_length_holds_the_word_endstream() {
    let pdf = make_pdf(&[Some("The word endstream\nis text here.")], &[]);
    assert_eq!(
        text("endstream_in_data", &pdf),
        "## Page 1\n\nThe word endstream\nis text here.\n"
    );
}

#[test]
fn reads_the_objects_of_an_object_stream_that_sit_behind_comments() {
    // The catalog, page tree and pages in an uncompressed object stream,
    // each behind comments its offset points at (qpdf's QDF files write
    // "%% Object stream: object 4" there), with a cross-reference stream.
    let bodies = bodies(&two_pages());
    let member = |b: &String| {
        ["/Type /Catalog ", "/Type /Pages ", "/Type /Page "]
            .iter()
            .any(|t| b.contains(t))
    };
    let numbered = || bodies.iter().enumerate().map(|(i, b)| (i + 1, b));
    let members: Vec<(usize, &String)> = numbered().filter(|(_, b)| member(b)).collect();
    let top: Vec<(usize, &String)> = numbered().filter(|(_, b)| !member(b)).collect();
    let (mut header, mut data) = (String::new(), String::new());
    for (i, (n, body)) in members.iter().enumerate() {
        header.push_str(&format!("{n} {} ", data.len()));
        data.push_str(&format!(
            "%% Object stream: object {n}, index {i}\n%% another comment\n{body}\n"
        ));
    }
    header.push('\n');
    let stm = bodies.len() + 1;
    let objstm = format!(
        "<< /Type /ObjStm /N {} /First {} /Length {} >>\nstream\n{header}{data}\nendstream",
        members.len(),
        header.len(),
        header.len() + data.len()
    );
    let mut out = b"%PDF-1.5\n".to_vec();
    let mut entries = vec![[0u32; 3]; stm + 2];
    for (n, body) in top
        .iter()
        .map(|&(n, b)| (n, b.clone()))
        .chain([(stm, objstm)])
    {
        entries[n] = [1, out.len() as u32, 0];
        out.extend(format!("{n} 0 obj\n{body}\nendobj\n").bytes());
    }
    for (i, (n, _)) in members.iter().enumerate() {
        entries[*n] = [2, stm as u32, i as u32];
    }
    let at = out.len();
    entries[stm + 1] = [1, at as u32, 0];
    let rows = xref_stream_rows(&entries);
    out.extend(
        format!(
            "{} 0 obj\n<< /Type /XRef /Size {} /W [1 4 2] /Root 1 0 R /Length {} >>\nstream\n",
            stm + 1,
            stm + 2,
            rows.len()
        )
        .bytes(),
    );
    out.extend(rows);
    out.extend(format!("\nendstream\nendobj\nstartxref\n{at}\n%%EOF\n").bytes());
    assert_eq!(text("commented_object_stream", &out), BOTH_READ);
}

#[test]
fn reads_the_pages_of_a_file_whose_last_update_s_prev_points_back_at_itself() {
    // The update lists the catalog alone: following /Prev never reaches
    // the section that lists the pages.
    let mut pdf = two_pages();
    let catalog = pdf.len();
    pdf.push_str("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
    let xref = pdf.len();
    pdf.push_str(&format!(
        "xref\n0 2\n0000000000 65535 f \n{catalog:010} 00000 n \n\
         trailer\n<< /Size 8 /Root 1 0 R /Prev {xref} >>\nstartxref\n{xref}\n%%EOF\n"
    ));
    assert_eq!(text("prev_loop", pdf.as_bytes()), BOTH_READ);
}

#[test]
fn reads_a_content_stream_whose_keyword_is_followed_on_its_line_by_more_than_white_space() {
    // pdfium's bug_543018_2.
    let bodies: Vec<String> = bodies(&two_pages())
        .into_iter()
        .map(|b| b.replacen(">>\nstream\n", ">>\nstream   \"this part is ignored\"\n", 1))
        .collect();
    assert_eq!(text("text_after_stream", &serialize(&bodies)), BOTH_READ);
}

#[test]
fn reads_a_font_whose_base_font_is_written_with_spaces_in_it() {
    // As some generators write "Arial Unicode MS" (pdf.js's issue11549),
    // drawn through /Identity-H with a /ToUnicode map.
    let hex = hex_codes("Flags and paving".bytes().map(u32::from), 4);
    let cmap =
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange \
                <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <00FF> <0000> endbfrange \
                endcmap end end\n";
    let content = format!("BT /F1 12 Tf 72 720 Td <{hex}> Tj ET\n");
    let pdf = serialize(&[
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .into(),
        format!(
            "<< /Length {} >>\nstream\n{content}endstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Arial Unicode MS /Encoding /Identity-H \
         /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>"
            .into(),
        "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Arial Unicode MS /DW 500 \
         /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>"
            .into(),
        format!("<< /Length {} >>\nstream\n{cmap}endstream", cmap.len()),
    ]);
    assert_eq!(
        text("spaced_font_name", &pdf),
        "## Page 1\n\nFlags and paving\n"
    );
}

#[test]
fn reads_a_file_without_its_header_line() {
    let pdf = two_pages();
    let headless = pdf.strip_prefix("%PDF-1.4\n").expect("a header");
    assert_eq!(text("no_header", headless.as_bytes()), BOTH_READ);
}

#[test]
fn still_says_a_file_with_no_objects_at_all_is_broken() {
    let answer = convert(
        "no_objects",
        b"%PDF-1.7\nnothing else\nstartxref\n9\n%%EOF\n",
    );
    assert!(matches!(answer, Err(Error::Broken(_))), "{answer:?}");
}

#[test]
fn reads_a_file_that_encrypts_its_attachments_alone_whatever_their_password() {
    // V 5, R 6, /EFF, /StmF and /StrF /Identity, as qpdf's --encrypt ...
    // --cleartext-metadata attachments writes: a user password that is
    // not empty, and the page's text plain.
    let salt = hex_codes((0..48u32).map(|i| (i * 37 + 11) % 256), 2).to_ascii_lowercase();
    let encrypt = format!(
        "<< /Filter /Standard /V 5 /R 6 /Length 256 /P -1028 /EncryptMetadata false \
         /CF << /StdCF << /AuthEvent /EFOpen /CFM /AESV3 /Length 32 >> >> /EFF /StdCF \
         /StmF /Identity /StrF /Identity /U <{salt}> /O <{salt}> /UE <{}> /OE <{}> /Perms <{}> >>",
        &salt[..64],
        &salt[..64],
        &salt[..32]
    );
    let pdf = String::from_utf8(make_pdf(
        &[Some("Only the attachments\nare sealed.")],
        &[encrypt.into()],
    ))
    .expect("ASCII")
    .replacen("/Root 1 0 R", "/Root 1 0 R /Encrypt 6 0 R", 1);
    assert_eq!(
        text("attachments_only", pdf.as_bytes()),
        "## Page 1\n\nOnly the attachments\nare sealed.\n"
    );
}

#[test]
fn answers_none_not_an_error_for_a_catalog_with_no_pages() {
    let pdf = String::from_utf8(make_pdf(&[Some("unused")], &[]))
        .expect("ASCII")
        .replacen("/Kids [5 0 R] /Count 1", "/Kids [] /Count 0     ", 1);
    assert_eq!(convert("no_pages", pdf.as_bytes()), Ok(None));
}

#[test]
fn reads_each_page_of_a_file_with_a_helvetica_font() {
    // The fixture itself: the damage in the cases above is all there is.
    assert!(two_pages().contains(HELVETICA));
    assert_eq!(text("two_pages", two_pages().as_bytes()), BOTH_READ);
}
