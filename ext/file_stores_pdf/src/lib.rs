//! # file_stores_pdf
//!
//! The text layer of a PDF, page by page, for `ruby_llm-file_stores-native`'s
//! `Converters::PdfText`. [lopdf] parses the file (object streams read, the
//! empty user password tried) within our bounds ([`load`]), with the
//! cross-reference table rebuilt from the file's object headers when it is
//! damaged ([`recover`]); our own
//! tolerant tokenizer ([`content`]) and content-stream interpreter ([`text`])
//! turn each page's text operators into words and lines, decoding fonts
//! through their ToUnicode maps, encodings and glyph names ([`fonts`]),
//! their embedded programs ([`embedded`]) and Adobe's CJK collections
//! ([`cjk`]); streams are decoded by our bounded filters ([`filters`]).
//!
//! Words and lines come in content-stream order, as `pdftotext -raw` gives
//! them: a word break where the pen jumps further than a fraction of the font
//! size, a line break where it moves to another baseline.
//!
//! A page is *usable* when it holds enough word characters ([`usable`]); a
//! PDF with no usable page is a scan, or a text layer of garbage, and
//! [`to_text`] answers `None` so the next converter (OCR) runs, unless its
//! short pages are plainly text ([`short_text`], [`short_unpainted_text`]):
//! a one-word page of a real document ("Potato", "FX1") or numbered pages
//! of a booklet test paint no image, where a scan does, so a scan with a
//! stray page number or stamp still goes to OCR.
//!
//! ## Safety
//!
//! Input is untrusted. The file size, the decompressed size of each stream
//! and of all of them together (each copy of a stream as often as it is
//! read), the number of objects, operators and content-stream tokens, the
//! nesting of forms and of arrays and dictionaries (in objects and content
//! streams), and lopdf's parsing work are all bounded ([`Limits`]); lopdf
//! has no bounds of its own, so [`load`] applies them around it. The work
//! stops soon after `cancelled` answers true, while lopdf loads too. It
//! depends on nothing of the gem's: the caller passes the cancel check.

pub mod cjk;
pub mod cmap;
pub mod content;
pub mod embedded;
pub mod filters;
pub mod fonts;
pub mod legacy;
pub mod load;
pub mod names;
pub mod pages;
pub mod recover;
pub mod standard;
pub mod syntax;
pub mod text;
pub mod words;

#[cfg(test)]
pub(crate) mod testpdf;

/// Bounds on the work for one file.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The largest file read, in bytes.
    pub max_file_bytes: usize,
    /// The most bytes one content stream may decompress to.
    pub max_stream_bytes: usize,
    /// The most content-stream operators interpreted in the whole file.
    pub max_operations: u64,
    /// The most content-stream tokens (operands, operators, brackets) read
    /// in the whole file, each stream as often as it is drawn.
    pub max_tokens: u64,
    /// How deep forms (XObjects) may nest inside a page.
    pub max_form_depth: u32,
    /// How deep arrays and dictionaries may nest in a content stream.
    pub max_nesting: usize,
    /// The most text produced, in bytes.
    pub max_text_bytes: usize,
    /// The most bytes all streams of the file may decompress to together.
    pub max_decoded_bytes: u64,
    /// A bound on lopdf's parsing work, in bytes scanned: lopdf counts the
    /// lines before each top-level object it reads (its parser tracks line
    /// numbers), so reading N objects of an S-byte file scans about N * S / 2
    /// bytes, some 7 GB a second here.
    pub max_parse_scan: u64,
    /// The most tokens of object syntax (outside streams, and inside object
    /// streams as lopdf parses them) in the whole file: lopdf makes each an
    /// `Object` of about 120 bytes. One object may hold at most
    /// [`syntax::MAX_OBJECT_TOKENS`].
    pub max_parsed_tokens: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 256 << 20,
            max_stream_bytes: 64 << 20,
            max_operations: 50_000_000,
            max_tokens: 200_000_000,
            max_form_depth: 12,
            max_nesting: 64,
            max_text_bytes: 64 << 20,
            max_decoded_bytes: 1 << 30,
            max_parse_scan: 128 << 30,
            max_parsed_tokens: 4 << 20,
        }
    }
}

/// Why a PDF could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Not a PDF, or too damaged to read; says what was wrong.
    Broken(String),
    /// Encrypted with a user password other than the empty one.
    Encrypted,
    /// Past one of the [`Limits`]; says which.
    TooLarge(String),
    /// `cancelled` answered true.
    Cancelled,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Broken(why) => write!(f, "the PDF is broken: {why}"),
            Error::Encrypted => write!(
                f,
                "the PDF is encrypted with a password; save it without one to read it"
            ),
            Error::TooLarge(why) => write!(f, "the PDF is too large to read safely: {why}"),
            Error::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// The fewest word characters a page needs to count as text rather than a
/// scan with a few stray glyphs (page numbers, a stamp).
pub const MIN_WORD_CHARS: usize = 8;

/// Whether a page's text is a usable text layer: enough word characters,
/// and more of them than garbage (glyphs with no known text, private-use
/// characters).
pub fn usable(page: &str) -> bool {
    let mut word = 0usize;
    let mut garbage = 0usize;
    for c in page.chars() {
        if c.is_alphanumeric() {
            word += 1;
        } else if c == '\u{FFFD}' || ('\u{E000}'..='\u{F8FF}').contains(&c) {
            garbage += 1;
        }
    }
    word >= MIN_WORD_CHARS && word > garbage
}

/// Whether pages too short to count alone ("Page 1", "Page 2") hold at
/// least [`MIN_WORD_CHARS`] letters between them. Digits alone (page numbers
/// stamped on a scan) do not count.
fn short_text(pages: &[text::Page]) -> bool {
    pages
        .iter()
        .flat_map(|p| p.text.chars())
        .filter(|c| c.is_alphabetic())
        .count()
        >= MIN_WORD_CHARS
}

/// Whether pages too short to count alone are still a text layer, not a
/// scan's stray glyphs: no page with text paints an image (a scan is an
/// image; a page number or stamp over it is not its text), some page holds
/// a word of two or more letters, and word characters outnumber garbage.
///
/// Two letters, not one: a lone letter or digits ("3", "A", "- 2 -") are
/// what a page number, a mark or a figure label leaves, with nothing to
/// read; a file of only those stays `None`, image or not. Unless they add up
/// to [`MIN_WORD_CHARS`] word characters on pages that paint no image: a
/// booklet or imposition test of numbered pages ("1" .. "16") is the text
/// pdftotext reads, with no scan under it to read instead. A page with no
/// text may paint an image (a cover, a figure) without making the text of
/// the others a scan's.
fn short_unpainted_text(pages: &[text::Page]) -> bool {
    let with_text = || {
        pages
            .iter()
            .filter(|p| p.text.chars().any(char::is_alphanumeric))
    };
    if with_text().any(|p| p.paints_images) {
        return false;
    }
    let (mut word, mut garbage) = (0usize, 0usize);
    let mut letters_in_a_row = 0usize;
    let mut a_word = false;
    for c in with_text().flat_map(|p| p.text.chars()) {
        if c.is_alphabetic() {
            letters_in_a_row += 1;
            a_word |= letters_in_a_row >= 2;
        } else {
            letters_in_a_row = 0;
        }
        if c.is_alphanumeric() {
            word += 1;
        } else if c == '\u{FFFD}' || ('\u{E000}'..='\u{F8FF}').contains(&c) {
            garbage += 1;
        }
    }
    (a_word || word >= MIN_WORD_CHARS) && word > garbage
}

/// The text of each page, in order, or an error.
pub fn pages(bytes: &[u8], limits: Limits, cancelled: &dyn Fn() -> bool) -> Result<Vec<String>> {
    Ok(read_pages(bytes, limits, cancelled)?
        .into_iter()
        .map(|p| p.text)
        .collect())
}

/// Err for a file of `len` bytes, past `max_file_bytes`: the one check,
/// which a caller may make before copying the file.
pub fn check_size(len: usize, limits: &Limits) -> Result<()> {
    if len > limits.max_file_bytes {
        return Err(Error::TooLarge(format!(
            "{len} bytes, more than {}",
            limits.max_file_bytes
        )));
    }
    Ok(())
}

/// Each page, in order, as the interpreter read it, or an error.
fn read_pages(
    bytes: &[u8],
    limits: Limits,
    cancelled: &dyn Fn() -> bool,
) -> Result<Vec<text::Page>> {
    check_size(bytes.len(), &limits)?;
    // A file without its `%PDF-` line whose first KiB holds an object
    // header (pdf.js's bug1606566) is read as poppler reads it: given a
    // header in a copy, its offsets then off, so its table is rebuilt.
    let headed;
    let bytes = if bytes.windows(5).take(1024).any(|w| w == b"%PDF-") {
        bytes
    } else if recover::headers(&bytes[..bytes.len().min(1024)], cancelled)?.is_empty() {
        return Err(Error::Broken("no %PDF- header; it is not a PDF".into()));
    } else {
        headed = [&b"%PDF-1.7\n"[..], bytes].concat();
        &headed[..]
    };
    let mut doc = load::load(bytes, limits, cancelled)?;
    let start = bytes.windows(5).position(|w| w == b"%PDF-").unwrap_or(0);
    recover::read_unread(
        &mut doc,
        &bytes[start..],
        limits.max_stream_bytes,
        cancelled,
    )?;
    if doc.is_encrypted() && doc.decrypt("").is_err() {
        return Err(Error::Encrypted);
    }
    if cancelled() {
        return Err(Error::Cancelled);
    }
    let mut interpreter = text::Interpreter::new(&doc, &bytes[start..], limits, cancelled);
    let page_ids = pages::page_ids(&doc, cancelled)?;
    // A catalog with no pages holds no text layer: `None`, as for a scan,
    // not an error.
    let mut out = Vec::with_capacity(page_ids.len());
    for id in page_ids {
        out.push(interpreter.page(id)?);
    }
    Ok(out)
}

/// The text of every page, each after a `## Page N` heading, or `None` when
/// no page is [`usable`] (a scan, or a text layer of garbage) and the short
/// pages are not text either ([`short_text`], [`short_unpainted_text`]). A panic in
/// lopdf or here (a bug: input errors are `Err`s) becomes [`Error::Broken`]
/// instead of unwinding into the caller.
pub fn to_text(
    bytes: &[u8],
    limits: Limits,
    cancelled: &dyn Fn() -> bool,
) -> Result<Option<String>> {
    let read = || text_of(bytes, limits, cancelled);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(Error::Broken(
            "the PDF reader failed on this file (an internal error); please report it".into(),
        ))
    })
}

fn text_of(bytes: &[u8], limits: Limits, cancelled: &dyn Fn() -> bool) -> Result<Option<String>> {
    let pages = read_pages(bytes, limits, cancelled)?;
    if !pages.iter().any(|p| usable(&p.text))
        && !short_text(&pages)
        && !short_unpainted_text(&pages)
    {
        return Ok(None);
    }
    let mut out = String::new();
    for (i, page) in pages.iter().map(|p| &p.text).enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        out.push_str(&format!("## Page {}\n\n", i + 1));
        out.extend(page.trim_end().chars().filter(|&c| c != '\u{FFFD}'));
    }
    out.push('\n');
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_usable_with_enough_word_characters_and_little_garbage() {
        assert!(usable("Contract of sale"));
        assert!(!usable("3"));
        assert!(!usable(
            "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD} ab12cd34"
        ));
        assert!(usable("Contents . . . . . . . . . . . . . . . . . . 3"));
    }

    fn pages_of(v: &[&str], paints_images: bool) -> Vec<text::Page> {
        v.iter()
            .map(|s| text::Page {
                text: s.to_string(),
                paints_images,
            })
            .collect()
    }

    #[test]
    fn short_pages_without_images_are_text_when_they_hold_a_word() {
        assert!(short_unpainted_text(&pages_of(&["Potato"], false)));
        assert!(short_unpainted_text(&pages_of(&["FX1"], false)));
        assert!(!short_unpainted_text(&pages_of(&["Potato"], true)));
        assert!(!short_unpainted_text(&pages_of(
            &["3", "- 4 -", "A"],
            false
        )));
        // Numbered pages with no scan under them: their numbers are the text.
        let numbers: Vec<String> = (1..=16).map(|n| n.to_string()).collect();
        let numbers: Vec<&str> = numbers.iter().map(String::as_str).collect();
        assert!(short_unpainted_text(&pages_of(&numbers, false)));
        assert!(!short_unpainted_text(&pages_of(&numbers, true)));
        assert!(!short_unpainted_text(&pages_of(
            &["ab\u{FFFD}\u{FFFD}\u{FFFD}"],
            false
        )));
        // A cover image on a page with no text leaves the others text.
        let mut pages = pages_of(&["", "Potato"], false);
        pages[0].paints_images = true;
        assert!(short_unpainted_text(&pages));
        pages[1].paints_images = true;
        assert!(!short_unpainted_text(&pages));
    }

    #[test]
    fn short_pages_count_together_by_letters_not_page_numbers() {
        let pages = |v: &[&str]| pages_of(v, false);
        assert!(short_text(&pages(&["Page 1", "Page 2", "Page 3"])));
        assert!(!short_text(&pages(&[
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"
        ])));
    }

    /// A one-page PDF drawing `content` with Helvetica as /F1, an 8x8
    /// image as /Im1, a form that draws it as /Fm1 and a form that shows
    /// "Potato salad" in the page's /F1 as /Fm2.
    fn one_page(content: &str) -> Vec<u8> {
        use lopdf::{dictionary, Object, Stream};
        let mut doc = lopdf::Document::with_version("1.5");
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        });
        let image = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 8, "Height" => 8,
                "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
            },
            vec![0x80; 64],
        ));
        let form = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 8.into(), 8.into()],
                "Resources" => dictionary! { "XObject" => dictionary! { "Im1" => image } },
            },
            b"/Im1 Do".to_vec(),
        ));
        // A form whose own resources hold no font: /F1 is the page's.
        let text_form = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
                "Resources" => dictionary! { "ProcSet" => vec!["PDF".into()] },
            },
            b"BT /F1 12 Tf 72 700 Td (Potato salad) Tj ET".to_vec(),
        ));
        let contents = doc.add_object(Stream::new(dictionary! {}, content.as_bytes().to_vec()));
        let pages = doc.new_object_id();
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages, "Contents" => contents,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => font },
                "XObject" => dictionary! { "Im1" => image, "Fm1" => form, "Fm2" => text_form },
            },
        });
        doc.objects.insert(
            pages,
            Object::Dictionary(dictionary! {
                "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
            }),
        );
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages });
        doc.trailer.set("Root", catalog);
        let mut out = Vec::new();
        doc.save_to(&mut out).expect("written");
        out
    }

    fn read(content: &str) -> Option<String> {
        to_text(&one_page(content), Limits::default(), &|| false).expect("read")
    }

    #[test]
    fn notes_images_drawn_directly_in_forms_and_inline() {
        let painted = |content: &str| {
            read_pages(&one_page(content), Limits::default(), &|| false).expect("read")[0]
                .paints_images
        };
        assert!(!painted("BT /F1 12 Tf 72 700 Td (Potato) Tj ET /Fm0 Do"));
        assert!(painted("q 8 0 0 8 0 0 cm /Im1 Do Q"));
        assert!(painted("/Fm1 Do"));
        assert!(painted("BI /W 1 /H 1 /CS /G /BPC 8 ID 0 EI"));
    }

    #[test]
    fn a_short_page_is_text_unless_it_paints_an_image() {
        let word = "BT /F1 12 Tf 72 700 Td (Potato) Tj ET";
        assert_eq!(read(word).as_deref(), Some("## Page 1\n\nPotato\n"));
        assert_eq!(read(&format!("/Im1 Do {word}")), None);
        assert_eq!(read(&format!("/Fm1 Do {word}")), None);
        // A page number alone is nothing to read, image or not.
        assert_eq!(read("BT /F1 12 Tf 300 30 Td (12) Tj ET"), None);
        assert_eq!(read("/Im1 Do BT /F1 12 Tf 300 30 Td (12) Tj ET"), None);
    }

    #[test]
    fn a_form_finds_a_font_its_resources_lack_in_the_page_s() {
        assert_eq!(
            read("/Fm2 Do").as_deref(),
            Some("## Page 1\n\nPotato salad\n")
        );
    }

    /// A one-page scan: a gray 8x8 image over the page, painted by
    /// `paint` (an image XObject, a form that draws it, or inline), with
    /// `text` in Helvetica over it (a page number, a stamp).
    fn scan_pdf(text: &str, paint: &str) -> Vec<u8> {
        use crate::testpdf::{page_content, serialize, stream, HELVETICA};
        let gray = [0x80u8; 64];
        let mut content = b"q 612 0 0 792 0 0 cm ".to_vec();
        if paint == "inline" {
            content.extend(b"BI /W 8 /H 8 /CS /G /BPC 8 ID\n");
            content.extend(gray);
            content.extend(b"\nEI");
        } else {
            content.extend(format!("/{paint} Do").bytes());
        }
        content.extend(format!(" Q\n{}", page_content(text)).bytes());
        let image = stream(
            gray,
            "/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 ",
        );
        serialize(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources \
              << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R /Fm1 7 0 R >> >> >>"
                .to_vec(),
            stream(content, ""),
            HELVETICA.into(),
            image,
            stream(
                "/Im1 Do",
                "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject << /Im1 6 0 R >> >> ",
            ),
        ])
    }

    #[test]
    fn gives_every_page_after_its_heading_and_answers_none_for_a_scan() {
        use crate::testpdf::{convert, make_pdf, text};
        let two = make_pdf(
            &[
                Some("This agreement is made\nbetween the parties."),
                Some("Signed on the second page."),
            ],
            &[],
        );
        assert_eq!(
            text("two_pages_as_placed", &two),
            "## Page 1\n\nThis agreement is made\nbetween the parties.\n\n\
             ## Page 2\n\nSigned on the second page.\n"
        );
        // Pages with no text, or a few stray glyphs.
        assert_eq!(convert("scan", &make_pdf(&[None, None], &[])), Ok(None));
        assert_eq!(
            convert("scan_page_number", &make_pdf(&[Some("3"), None], &[])),
            Ok(None)
        );
        // Pages of only page numbers: nothing to read.
        let numbers = make_pdf(&[Some("1"), Some("2"), Some("- 3 -")], &[]);
        assert_eq!(convert("page_numbers", &numbers), Ok(None));
    }

    #[test]
    fn reads_short_pages_that_paint_no_image_as_text() {
        use crate::testpdf::{make_pdf, text};
        assert_eq!(
            text("one_word", &make_pdf(&[Some("Potato")], &[])),
            "## Page 1\n\nPotato\n"
        );
        assert_eq!(
            text("fx", &make_pdf(&[Some("FX1"), Some("FX2")], &[])),
            "## Page 1\n\nFX1\n\n## Page 2\n\nFX2\n"
        );
        // Numbered pages, once their numbers add up to a word.
        let numbers: Vec<String> = (1..=12).map(|n| n.to_string()).collect();
        let pages: Vec<Option<&str>> = numbers.iter().map(|n| Some(n.as_str())).collect();
        let want: Vec<String> = numbers
            .iter()
            .map(|n| format!("## Page {n}\n\n{n}\n"))
            .collect();
        assert_eq!(
            text("numbered_pages", &make_pdf(&pages, &[])),
            want.join("\n")
        );
    }

    #[test]
    fn answers_none_for_a_scan_with_a_stray_page_number_or_stamp_over_its_image() {
        use crate::testpdf::convert;
        for paint in ["Im1", "Fm1", "inline"] {
            for stamp in ["Potato", "12"] {
                let name = format!("scan_{paint}_{stamp}");
                assert_eq!(convert(&name, &scan_pdf(stamp, paint)), Ok(None), "{name}");
            }
        }
        // The same page without the image is text.
        let bare = scan_pdf("Potato", "Im1");
        let bare = String::from_utf8_lossy(&bare).replacen("/Im1 Do", "       ", 1);
        assert!(convert("scan_without_image", bare.as_bytes()).is_ok_and(|t| t.is_some()));
    }

    #[test]
    fn a_panic_becomes_a_broken_pdf_error() {
        let pdf = include_bytes!("../../../spec/fixtures/pdf/encrypted_empty_password.pdf");
        let answer = to_text(pdf, Limits::default(), &|| panic!("a bug"));
        assert!(matches!(answer, Err(Error::Broken(why)) if why.contains("internal error")));
    }

    #[test]
    fn rejects_what_is_not_a_pdf() {
        assert_eq!(
            to_text(b"hello", Limits::default(), &|| false),
            Err(Error::Broken("no %PDF- header; it is not a PDF".into()))
        );
    }

    #[test]
    fn reads_objects_without_the_header_line() {
        let pdf = b"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n\
                    2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n\
                    3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
                    /Resources << /Font << /F1 5 0 R >> >> >> endobj\n\
                    4 0 obj << /Length 52 >> stream\nBT /F1 12 Tf 72 720 Td (No header line, read.) Tj ET\n\
                    endstream endobj\n\
                    5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\n\
                    trailer << /Root 1 0 R >>\n%%EOF\n";
        assert_eq!(
            to_text(pdf, Limits::default(), &|| false),
            Ok(Some("## Page 1\n\nNo header line, read.\n".into()))
        );
    }
}
