//! Words and lines of crafted pages, as pdftotext 22.12 reads them: where
//! a word ends from the glyphs' positions, sizes and baselines (not the
//! content stream's strings), lines of single characters, hyphens, accents,
//! right-to-left words, glyphs off the page and text drawn twice.

use crate::testpdf::{font_pdf, page, text_pdf};

fn words(name: &str, content: &str) -> String {
    page(name, &text_pdf(content))
}

#[test]
fn ends_a_word_where_a_subscript_returns_to_the_base_size_past_a_small_gap() {
    // TeX's \scriptspace: "f" then a lowered "1" at 8 points touching it,
    // then "(x)" 0.08 em on; 0.08 em within one size is no space ("xy").
    let content = "BT /F1 12 Tf 72 720 Td (f) Tj /F1 8 Tf -3 Ts (1) Tj 0 Ts /F1 12 Tf \
                   [-80 (\\(x\\) = x) -80 (y)] TJ ET\n";
    assert_eq!(words("subscript", content), "f1 (x) = xy\n");
}

#[test]
fn spaces_two_glyphs_of_one_size_more_than_a_tenth_of_an_em_apart() {
    // Kerned 0.12 em apart (a justified line's narrow space), then 0.08 em.
    let content = "BT /F1 12 Tf 72 720 Td [(Letter) -120 (spaced) -80 (words)] TJ ET\n";
    assert_eq!(words("kerned", content), "Letter spacedwords\n");
}

#[test]
fn joins_words_across_a_space_whose_advance_word_spacing_takes_back() {
    // Words spaced by Tc, each space glyph cancelled by a negative Tw
    // (Helvetica's space is 0.278 em): "chapt er" is one word, while a
    // space with its advance, or one past 0.03 em, still spaces.
    let content = "BT /F1 10 Tf 72 720 Td (This chap) Tj -2.78 Tw (t er) Tj 0 Tw ( is) Tj \
                   -2.4 Tw ( a) Tj ET\n";
    assert_eq!(words("word_spacing", content), "This chapter is a\n");
}

#[test]
fn counts_character_spacing_after_a_glyph_as_a_gap() {
    // Letters tracked 0.17 em apart are words of one letter (an OCR
    // layer's or a heading's wide tracking); 0.04 em is no gap.
    let content =
        "BT /F1 12 Tf 72 720 Td 2 Tc (Wide) Tj 0 Tc ( words) Tj 0 -20 Td 0.5 Tc (Tight) Tj ET\n";
    assert_eq!(words("tracking", content), "W i d e words\nTight\n");
}

#[test]
fn spaces_a_line_of_single_characters_only_past_its_narrowest_gap() {
    // pdftotext reads "x = y" as "x=y" and "1 2  3" (two spaces) as "12 3".
    let content =
        "BT /F1 12 Tf 72 720 Td (x = y) Tj 0 -20 Td (1 2  3) Tj 0 -20 Td (a b cd) Tj ET\n";
    assert_eq!(words("single_characters", content), "x=y\n12 3\na b cd\n");
}

#[test]
fn joins_a_line_ending_in_a_hyphen_to_the_next_whatever_its_case() {
    let content = "BT /F1 12 Tf 72 720 Td (the Trace-) Tj 0 -14 Td (Monkey JIT) Tj ET\n";
    assert_eq!(words("hyphen", content), "the TraceMonkey JIT\n");
}

#[test]
fn keeps_the_hyphen_of_a_line_followed_by_a_page_number_far_below_it() {
    let content = "BT /F1 12 Tf 72 720 Td (the last word is famil-) Tj 0 -14 Td (iar and so) Tj \
                   0 -14 Td (cre-) Tj ET\nBT /F1 10 Tf 300 40 Td (172) Tj ET\n";
    assert_eq!(
        words("hyphen_page_number", content),
        "the last word is familiar and so\ncre-\n\n172\n"
    );
}

#[test]
fn joins_an_accent_drawn_over_a_letter_whichever_comes_first() {
    // TeX draws an acute, then the a; WinAnsi \264 is the spacing acute,
    // kerned back so that its middle is the letter's. The combining acute
    // comes after the letter, as pdftotext writes it.
    let content = "BT /F1 12 Tf 72 720 Td [(V) -60 (\\264) 444.5 (aclav Havel)] TJ \
                   0 -20 Td [(Caf) (e) 444.5 (\\264)] TJ ET\n";
    assert_eq!(
        words("accents", content),
        "Va\u{301}clav Havel\nCafe\u{301}\n"
    );
}

#[test]
fn reads_a_right_to_left_word_drawn_in_visual_order_in_reading_order() {
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 65 /LastChar 68 \
                /Widths [500 300 400 450] /Encoding << /Differences [65 /uni0639 /uni0627 /uni0648 /uni0646] >> >>";
    // Drawn ع ا و ن ا from the left: the word انواع.
    let pdf = font_pdf("BT /F1 12 Tf 72 720 Td (ABCDB) Tj ET\n", font);
    assert_eq!(
        page("arabic", &pdf),
        "\u{627}\u{646}\u{648}\u{627}\u{639}\n"
    );
}

#[test]
fn leaves_out_glyphs_drawn_off_the_media_box_glyph_by_glyph() {
    // Left of the page, above it, and a word running off its right edge.
    let content = "BT /F1 12 Tf 72 720 Td (Visible text) Tj ET BT /F1 12 Tf -500 720 Td (Hidden left) Tj ET \
                   BT /F1 12 Tf 72 900 Td (Hidden above) Tj ET BT /F1 12 Tf 600 700 Td (Partly) Tj ET\n";
    assert_eq!(words("off_the_page", content), "Visible text\nPa\n");
}

#[test]
fn ends_a_word_at_a_glyph_that_starts_within_a_tenth_of_an_em_of_the_last() {
    // Helvetica a tenth as wide as high, tracked 2 points: "l" is 0.9
    // points wide at 40 points, so the next glyph starts 2.9 points on
    // (a printer's colour bars in freeculture.pdf).
    let content = "BT /F1 1 Tf 4 0 0 40 72 700 Tm 0.5 Tc (WlWlWl) Tj ET\n";
    assert_eq!(words("colour_bars", content), "Wl W l W l\n");
}

#[test]
fn keeps_a_repeated_letter_squeezed_narrower_than_a_tenth_of_an_em() {
    // It starts where the first ends: not a copy on top of it (fake bold).
    // pdftotext reads issue6605.pdf's "suggest" so.
    let content = "BT /F1 1 Tf 10 0 0 58 72 700 Tm (suggest) Tj ET\n";
    assert_eq!(words("squeezed", content), "suggest\n");
}

#[test]
fn reads_code_32_drawn_with_a_glyph_no_table_names_as_a_space() {
    // TeX's visible space.
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Courier \
                /Encoding << /Differences [32 /visiblespace] >> >>";
    let pdf = font_pdf(
        "BT /F1 12 Tf 72 720 Td (\"! Missing @x in change\") Tj ET\n",
        font,
    );
    assert_eq!(page("visible_space", &pdf), "\"! Missing @x in change\"\n");
}

#[test]
fn spaces_the_letters_of_each_run_of_a_line_by_their_own_narrowest_gap() {
    // "s ed m" tracked by 3 points, then "l e t." 100 points on: two runs,
    // each spaced by its narrowest gap.
    let content = "BT /F1 10 Tf 72 720 Td 3 Tc (s) Tj 0 Tc (ed) Tj 3 Tc ( m) Tj 0 Tc 100 0 Td \
                   3 Tc (l e t.) Tj ET\n";
    assert_eq!(words("runs", content), "s ed m l e t.\n");
}

#[test]
fn counts_a_letter_and_its_combining_accent_as_one_character() {
    // /ecaron reads "e" and a combining caron; tracked apart as
    // "s e  n ě", pdftotext (reading one character) has "se ně".
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica \
                /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [65 /ecaron] >> >>";
    let pdf = font_pdf(
        "BT /F1 10 Tf 72 720 Td (Tracked:) Tj 0 -20 Td 3 Tc (se nA) Tj ET\n",
        font,
    );
    assert_eq!(page("ecaron", &pdf), "Tracked:\nse ne\u{30C}\n");
}

#[test]
fn reads_a_span_s_actual_text_in_place_of_its_glyphs() {
    let content =
        "BT /F1 12 Tf 72 720 Td (A) Tj /Span <</ActualText (fi)>> BDC (X) Tj EMC (ne) Tj \
                   /Span << /ActualText <FEFF200B> >> BDC ( ) Tj EMC (Bullet) Tj ET\n";
    assert_eq!(words("actual_text", content), "Afine\u{200B}Bullet\n");
}

#[test]
fn reads_once_a_block_of_lines_drawn_twice_at_the_same_place() {
    let lines: Vec<String> = (1..=8)
        .map(|i| format!("Line {i} of the block that the generator wrote out twice."))
        .collect();
    let shown: Vec<String> = lines.iter().map(|l| format!("({l}) Tj 0 -12 Td")).collect();
    let block = format!("BT /F1 10 Tf 72 700 Td {} ET\n", shown.join(" "));
    let content = format!("{block}BT /F1 10 Tf 72 580 Td (After the block.) Tj ET\n{block}");
    assert_eq!(
        words("block_twice", &content),
        format!("{}\nAfter the block.\n", lines.join("\n"))
    );
}
