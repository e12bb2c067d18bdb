//! Form fields and annotations of crafted pages, each one class of what
//! pdftotext (poppler) draws of them: appearances mapped onto their
//! rectangles and held to the page, and the appearances poppler makes for
//! fields without one (or when the form asks for new ones).

use crate::testpdf::{page, serialize, stream, HELVETICA};

/// A page (object 3) reading "Form fields below." whose /Annots lists
/// `annots`; `objects` are numbered from 6, and `acroform` becomes the
/// catalog's /AcroForm.
fn form_pdf(objects: Vec<Vec<u8>>, annots: &[u32], acroform: Option<&str>) -> Vec<u8> {
    let catalog = match acroform {
        Some(form) => format!("<< /Type /Catalog /Pages 2 0 R /AcroForm {form} >>"),
        None => "<< /Type /Catalog /Pages 2 0 R >>".into(),
    };
    let list: Vec<String> = annots.iter().map(|n| format!("{n} 0 R")).collect();
    let mut all: Vec<Vec<u8>> = vec![
        catalog.into(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
             /Resources << /Font << /F1 5 0 R >> >> /Annots [{}] >>",
            list.join(" ")
        )
        .into(),
        stream("BT /F1 12 Tf 72 720 Td (Form fields below.) Tj ET\n", ""),
        HELVETICA.into(),
    ];
    all.extend(objects);
    serialize(&all)
}

fn shown(lines: &[&str]) -> String {
    format!("Form fields below.\n{}\n", lines.join("\n"))
}

#[test]
fn maps_an_appearance_s_box_onto_its_rectangle_and_drops_lines_off_the_page() {
    // A scrolling field near the page's foot: its appearance's box starts
    // at y = 500, and its ten lines run down past the page.
    let lines: Vec<String> = (1..=10)
        .map(|i| format!("(Line {i}) Tj 0 -14 Td"))
        .collect();
    let appearance = stream(
        format!("/Tx BMC BT /F1 12 Tf 2 505 Td {} ET EMC\n", lines.join(" ")),
        "/Type /XObject /Subtype /Form /BBox [0 500 200 520] /Resources << /Font << /F1 5 0 R >> >> ",
    );
    let pdf = form_pdf(
        vec![
            b"<< /Type /Annot /Subtype /Widget /FT /Tx /Rect [72 40 272 60] /DA (/F1 12 Tf) /AP << /N 7 0 R >> >>"
                .to_vec(),
            appearance,
        ],
        &[6],
        None,
    );
    assert_eq!(
        page("scrolling_field", &pdf),
        shown(&["Line 1", "Line 2", "Line 3", "Line 4"])
    );
}

/// Text fields drawn with the form's /DA: one without an appearance, one
/// whose stale appearance the form may ask to be made again, and a kid
/// without /Parent, found through the field tree.
fn text_fields(need_appearances: bool) -> Vec<u8> {
    let stale = stream(
        "BT /F1 12 Tf 2 5 Td (Stale) Tj ET",
        "/Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /F1 5 0 R >> >> ",
    );
    form_pdf(
        vec![
            b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (a) /Rect [72 600 272 620] /V (Plain value) >>".to_vec(),
            b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (b) /Rect [72 560 272 580] /V (Fresh value) \
              /AP << /N 8 0 R >> >>"
                .to_vec(),
            stale,
            b"<< /FT /Tx /T (d) /V (Inherited value) /Kids [10 0 R] >>".to_vec(),
            b"<< /Type /Annot /Subtype /Widget /Rect [72 480 272 500] >>".to_vec(),
        ],
        &[6, 7, 10],
        Some(&format!(
            "<< /Fields [6 0 R 7 0 R 9 0 R] /DA (/Helv 12 Tf 0 g) /NeedAppearances {need_appearances} >>"
        )),
    )
}

#[test]
fn draws_text_fields_as_poppler_makes_them() {
    // /NeedAppearances redraws; a kid's field is found through the tree.
    assert_eq!(
        page("text_fields", &text_fields(true)),
        shown(&["Plain value", "Fresh value", "Inherited value"])
    );
}

#[test]
fn keeps_a_field_s_own_appearance_when_the_form_asks_for_no_new_ones() {
    assert_eq!(
        page("text_fields_kept", &text_fields(false)),
        shown(&["Plain value", "Stale", "Inherited value"])
    );
}

#[test]
fn shows_a_list_box_from_its_top_index_a_combo_box_s_choice_no_field_without_da() {
    let pdf = form_pdf(
        vec![
            b"<< /Type /Annot /Subtype /Widget /FT /Ch /T (list) /Rect [72 500 272 620] /DA (/Helv 12 Tf) \
              /Opt [(Apple) [(b) (Banana)] (Cherry)] /TI 1 >>"
                .to_vec(),
            b"<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (combo) /Rect [72 400 272 420] \
              /DA (/Helv 12 Tf) /Opt [[(x) (Extra)] [(y) (Yankee)]] /V (y) >>"
                .to_vec(),
            b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (text) /Rect [72 300 272 320] /V (Undrawn) >>".to_vec(),
        ],
        &[6, 7, 8],
        None,
    );
    assert_eq!(
        page("choice_fields", &pdf),
        shown(&["Banana", "Cherry", "Yankee"])
    );
}

#[test]
fn draws_a_checked_box_s_mark_and_the_radio_button_its_group_s_value_names() {
    // A checked box without an appearance for its state (a check mark),
    // one without /DA (none), and a radio group whose value names one kid.
    let pdf = form_pdf(
        vec![
            b"<< /Type /Annot /Subtype /Widget /FT /Btn /T (check) /AS /Yes /DA (/ZaDb 0 Tf 0 g) \
              /AP << /N << /Off 10 0 R >> >> /Rect [72 600 84 612] >>"
                .to_vec(),
            b"<< /FT /Btn /Ff 49152 /T (radio) /V /B /DA (/ZaDb 0 Tf 0 g) /Kids [8 0 R 9 0 R] >>".to_vec(),
            b"<< /Type /Annot /Subtype /Widget /Parent 7 0 R /AS /A /MK << /CA (l) >> /Rect [72 560 84 572] >>"
                .to_vec(),
            b"<< /Type /Annot /Subtype /Widget /Parent 7 0 R /AS /B /MK << /CA (l) >> /Rect [72 540 84 552] >>"
                .to_vec(),
            stream("", "/Type /XObject /Subtype /Form /BBox [0 0 12 12] "),
            b"<< /Type /Annot /Subtype /Widget /FT /Btn /T (bare) /AS /Yes /Rect [72 520 84 532] >>".to_vec(),
        ],
        &[6, 8, 9, 11],
        Some("<< /Fields [6 0 R 7 0 R 11 0 R] >>"),
    );
    assert_eq!(page("buttons", &pdf), shown(&["✓", "●"]));
}

#[test]
fn draws_a_free_text_note_without_what_its_font_cannot_encode() {
    // Its contents in Helvetica, which has no Greek.
    let pdf = form_pdf(
        vec![
            b"<< /Type /Annot /Subtype /FreeText /Rect [72 600 272 640] /DA (/Helv 10 Tf 0 g) \
               /Contents <FEFF00480065006C006C006F0020005703A90072006C0064> >>"
                .to_vec(),
        ],
        &[6],
        None,
    );
    assert_eq!(page("free_text", &pdf), shown(&["Hello Wrld"]));
}
