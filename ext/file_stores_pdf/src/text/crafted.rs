//! Crafted pages through the interpreter: resources found where
//! pdftotext finds them, positions kept in f64, and a content stream read
//! on past what it cannot parse.

use crate::testpdf::{one_page, page, serialize, stream, OnePage, HELVETICA};

#[test]
fn reads_text_in_the_font_a_graphics_state_sets() {
    // gs with /Font, as pdftotext reads it; no /Font in the resources.
    let content = "BT /GS1 gs 72 700 Td (Set by a graphics state dictionary.) Tj ET\n";
    let pdf = serialize(&[
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /ExtGState << /GS1 << /Type /ExtGState /Font [5 0 R 12] >> >> >> >>"
            .into(),
        String::from_utf8(stream(content, "")).expect("ASCII"),
        HELVETICA.into(),
    ]);
    assert_eq!(
        page("graphics_state_font", &pdf),
        "Set by a graphics state dictionary.\n"
    );
}

#[test]
fn reads_a_sentence_at_x_1e9_moved_back_by_the_ctm() {
    let pdf = one_page(
        "q 1 0 0 1 -1000000000 0 cm BT /F1 12 Tf 1000000072 720 Td \
         (Pay the invoice within thirty days.) Tj ET Q\n",
        OnePage::default(),
    );
    assert_eq!(
        page("far_coordinates", &pdf),
        "Pay the invoice within thirty days.\n"
    );
}

#[test]
fn reads_the_page_on_past_a_stray_euro_in_its_content_stream() {
    // "5€ Tc": 5, then an unknown operator, as pdftotext reads it.
    let pdf = one_page(
        "BT /F1 12 Tf 72 720 Td 5\u{20AC} Tc (Some text on the page.) Tj ET\n",
        OnePage::default(),
    );
    assert_eq!(page("stray_euro", &pdf), "Some text on the page.\n");
}
