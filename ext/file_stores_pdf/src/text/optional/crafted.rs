//! Optional content of crafted pages (PDF 32000-1 8.11), as pdftotext
//! reads it: what a group the default configuration turns off holds is not
//! shown, in marked content, forms and annotations, through membership
//! dictionaries and visibility expressions.

use crate::testpdf::{serialize, stream, text, HELVETICA};

/// Group 6 is on and group 7 off (/D /OFF); the page's /Properties name
/// them and membership dictionaries 8 (AllOn), 9 (/VE [/Not on]) and 10
/// (AnyOn); `objects` follow from 11.
fn optional_pdf(content: &str, objects: Vec<Vec<u8>>, annots: &str) -> Vec<u8> {
    let mut all: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [6 0 R 7 0 R] /D << /OFF [7 0 R] >> >> >>"
            .to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources \
             << /Font << /F1 5 0 R >> /XObject << /Fm1 11 0 R /Fm2 12 0 R >> \
             /Properties << /On 6 0 R /Off 7 0 R /AllOn 8 0 R /NotOn 9 0 R /AnyOn 10 0 R >> >> {annots}>>"
        )
        .into(),
        stream(content, ""),
        HELVETICA.into(),
        b"<< /Type /OCG /Name (On) >>".to_vec(),
        b"<< /Type /OCG /Name (Off) >>".to_vec(),
        b"<< /Type /OCMD /OCGs [6 0 R 7 0 R] /P /AllOn >>".to_vec(),
        b"<< /Type /OCMD /VE [/Not 6 0 R] >>".to_vec(),
        b"<< /Type /OCMD /OCGs [6 0 R 7 0 R] >>".to_vec(),
    ];
    all.extend(objects);
    serialize(&all)
}

/// A form drawing `text` at its origin, in group `group`.
fn form(text: &str, group: Option<u32>) -> Vec<u8> {
    let oc = group.map_or(String::new(), |g| format!("/OC {g} 0 R "));
    stream(
        format!("BT /F1 12 Tf 0 2 Td ({text}) Tj ET\n"),
        &format!("/Type /XObject /Subtype /Form /BBox [0 0 200 20] {oc}/Resources << /Font << /F1 5 0 R >> >> "),
    )
}

/// A stamp at height `low` in group `group`, its appearance object `appearance`.
fn stamp(low: u32, group: u32, appearance: u32) -> Vec<u8> {
    format!(
        "<< /Type /Annot /Subtype /Stamp /Rect [72 {low} 272 {}] /OC {group} 0 R /AP << /N {appearance} 0 R >> >>",
        low + 20
    )
    .into()
}

#[test]
fn leaves_out_marked_content_forms_and_annotations_in_groups_turned_off() {
    let content = [
        "BT /F1 12 Tf 72 720 Td (Shown one) Tj ET",
        "/OC /Off BDC BT /F1 12 Tf 72 700 Td (Hidden one) Tj ET EMC",
        "/OC /On BDC BT /F1 12 Tf 72 680 Td (Shown two) Tj ET EMC",
        "/OC /AllOn BDC BT /F1 12 Tf 72 660 Td (Hidden two) Tj ET EMC",
        "/OC /NotOn BDC BT /F1 12 Tf 72 640 Td (Hidden three) Tj ET EMC",
        "/OC /AnyOn BDC BT /F1 12 Tf 72 620 Td (Shown three) Tj ET EMC",
        "/OC /On BDC /OC /Off BDC BT /F1 12 Tf 72 600 Td (Hidden four) Tj ET EMC",
        "BT /F1 12 Tf 72 580 Td (Shown four) Tj ET EMC",
        "q 1 0 0 1 72 560 cm /Fm1 Do Q q 1 0 0 1 72 540 cm /Fm2 Do Q",
    ]
    .join("\n");
    // Forms 11 (in 7) and 12 (in 6); stamps 13 (in 7) and 15 (in 6).
    let objects = vec![
        form("Hidden five", Some(7)),
        form("Shown five", Some(6)),
        stamp(400, 7, 14),
        form("Hidden six", None),
        stamp(380, 6, 16),
        form("Shown six", None),
    ];
    let pdf = optional_pdf(&content, objects, "/Annots [13 0 R 15 0 R] ");
    let read = text("optional_content", &pdf);
    for n in ["one", "two", "three", "four", "five", "six"] {
        assert!(read.contains(&format!("Shown {n}")), "{read}");
    }
    assert!(!read.contains("Hidden"), "{read}");
}

#[test]
fn hides_what_marked_content_nested_thousands_deep_holds_and_shows_what_follows() {
    let depth = 3000;
    let content = format!(
        "{}BT /F1 12 Tf 72 700 Td (Hidden deep) Tj ET {}\nBT /F1 12 Tf 72 680 Td (Shown after) Tj ET\n",
        "/OC /Off BDC ".repeat(depth),
        "EMC ".repeat(depth)
    );
    let read = text(
        "deep_marked_content",
        &optional_pdf(&content, Vec::new(), ""),
    );
    assert!(read.contains("Shown after"), "{read}");
    assert!(!read.contains("Hidden"), "{read}");
}
