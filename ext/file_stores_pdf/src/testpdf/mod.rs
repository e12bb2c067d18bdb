//! Crafted PDFs for the tests: a tiny writer of numbered objects with a
//! right cross-reference table, and the one-page files most cases start
//! from. Each test builds the file that shows one behaviour and reads it
//! through [`crate::to_text`], as `Converters::PdfText` does.
//!
//! Every file a test reads goes through [`convert`] under a name; with
//! `PDF_FUZZ_SEEDS=<folder>` set, the small ones are also written there,
//! so `PDF_FUZZ_SEEDS=fuzz/seeds/pdf_to_text cargo test -p file_stores_pdf`
//! refreshes the fuzz target's seeds from the tests' own files.

pub mod crypt;
pub mod encode;
pub mod fonts;

use std::io::Write as _;

use flate2::write::ZlibEncoder;
use flate2::Compression;

use crate::{to_text, Limits, Result};

/// Helvetica in WinAnsi, the font of most crafted pages.
pub const HELVETICA: &str =
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";

/// The largest crafted file written as a fuzz seed: seeds only show shapes.
const MAX_SEED_BYTES: usize = 64 << 10;

/// `codes` as upper-case hex digits, `width` each: the inside of a hex
/// string (`<0048>`) drawing those character codes or glyph ids.
pub fn hex_codes(codes: impl IntoIterator<Item = u32>, width: usize) -> String {
    use std::fmt::Write as _;
    codes.into_iter().fold(String::new(), |mut out, code| {
        let _ = write!(out, "{code:0width$X}");
        out
    })
}

/// The data of a cross-reference stream with `/W [1 4 2]`: one row per
/// object, [type, offset or object stream, generation or index].
pub fn xref_stream_rows(entries: &[[u32; 3]]) -> Vec<u8> {
    entries
        .iter()
        .flat_map(|&[kind, two, three]| {
            let mut row = vec![kind as u8];
            row.extend(two.to_be_bytes());
            row.extend((three as u16).to_be_bytes());
            row
        })
        .collect()
}

/// `bytes` as lower-case hex digits, two each.
pub fn hex_bytes(bytes: &[u8]) -> String {
    hex_codes(bytes.iter().map(|&b| u32::from(b)), 2).to_ascii_lowercase()
}

/// A file of `objects` (bodies, numbered from 1), a table pointing at each
/// and a trailer whose root is object 1.
pub fn serialize<B: AsRef<[u8]>>(objects: &[B]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n", i + 1).bytes());
        out.extend(body.as_ref());
        out.extend(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for offset in offsets {
        out.extend(format!("{offset:010} 00000 n \n").bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

/// `data` deflated (zlib, as /FlateDecode reads it).
pub fn deflate(data: &[u8]) -> Vec<u8> {
    let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
    z.write_all(data).expect("in memory");
    z.finish().expect("in memory")
}

/// A stream object holding `data` with `dict`'s entries beside /Length.
pub fn stream(data: impl AsRef<[u8]>, dict: &str) -> Vec<u8> {
    let data = data.as_ref();
    let mut out = format!("<< /Length {} {dict}>>\nstream\n", data.len()).into_bytes();
    out.extend(data);
    out.extend(b"\nendstream");
    out
}

/// A stream object holding `data` deflated.
pub fn deflated(data: impl AsRef<[u8]>, dict: &str) -> Vec<u8> {
    stream(
        deflate(data.as_ref()),
        &format!("/Filter /FlateDecode {dict}"),
    )
}

/// `text` in Helvetica (/F1) at 12 points, a line of the page per line.
pub fn page_content(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let escaped: String = line
                .chars()
                .flat_map(|c| match c {
                    '(' | ')' | '\\' => vec!['\\', c],
                    c => vec![c],
                })
                .collect();
            format!("({escaped}) Tj 0 -14 Td")
        })
        .collect();
    format!("BT /F1 12 Tf 72 720 Td {} ET\n", lines.join(" "))
}

/// One line of `text` at the top of the page, in /F1.
pub fn page_text(text: &str) -> String {
    format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET\n")
}

/// A file of one page per entry of `pages` (`None`: a page that paints a
/// gray square and has no text), their text in Helvetica, uncompressed,
/// with `extra` objects after them. Object 2 is the page tree, 3 the font;
/// page N's content is object 2N + 2 and the page 2N + 3.
pub fn make_pdf(pages: &[Option<&str>], extra: &[Vec<u8>]) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        Vec::new(),
        HELVETICA.into(),
    ];
    let mut kids = Vec::new();
    for text in pages {
        let content = match text {
            Some(text) => page_content(text),
            None => "q 100 0 0 100 0 0 cm 0.5 g 0 0 1 1 re f Q\n".into(),
        };
        objects.push(
            format!(
                "<< /Length {} >>\nstream\n{content}endstream",
                content.len()
            )
            .into(),
        );
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
                 /Resources << /Font << /F1 3 0 R >> >> >>",
                objects.len()
            )
            .into(),
        );
        kids.push(format!("{} 0 R", objects.len()));
    }
    objects[1] = format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        kids.join(" "),
        kids.len()
    )
    .into();
    objects.extend(extra.iter().cloned());
    serialize(&objects)
}

/// How [`one_page`] builds its page.
pub struct OnePage<'a> {
    /// The font /F1 (object 5).
    pub font: &'a str,
    /// More entries of the page dictionary (object 3).
    pub page: &'a str,
    /// More entries of the page's resources, beside /Font.
    pub resources: &'a str,
    /// Objects from 6 on.
    pub extra: Vec<Vec<u8>>,
    /// Whether the content stream (object 4) is deflated.
    pub deflate: bool,
}

impl Default for OnePage<'_> {
    fn default() -> Self {
        OnePage {
            font: HELVETICA,
            page: "",
            resources: "",
            extra: Vec::new(),
            deflate: false,
        }
    }
}

/// A one-page file drawing `content`: catalog 1, page tree 2, page 3,
/// content 4, font /F1 5, then `how.extra` from 6.
pub fn one_page(content: impl AsRef<[u8]>, how: OnePage) -> Vec<u8> {
    let content = content.as_ref();
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R {}\
             /Resources << /Font << /F1 5 0 R >> {}>> >>",
            how.page, how.resources
        )
        .into(),
        if how.deflate {
            deflated(content, "")
        } else {
            stream(content, "")
        },
        how.font.into(),
    ];
    objects.extend(how.extra);
    serialize(&objects)
}

/// A one-page file drawing `content` in Helvetica.
pub fn text_pdf(content: &str) -> Vec<u8> {
    one_page(content, OnePage::default())
}

/// A one-page file drawing `content` in `font`.
pub fn font_pdf(content: &str, font: &str) -> Vec<u8> {
    one_page(
        content,
        OnePage {
            font,
            ..OnePage::default()
        },
    )
}

/// `pdf` as `crafted_<name>.pdf` in `folder`, unless it is large or a
/// seed there already holds these bytes (a copied fixture).
fn write_seed(folder: &std::path::Path, name: &str, pdf: &[u8]) {
    if pdf.len() > MAX_SEED_BYTES {
        return;
    }
    let path = folder.join(format!("crafted_{name}.pdf"));
    let held = std::fs::read_dir(folder)
        .expect("the seed folder is readable")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|other| *other != path)
        .any(|other| std::fs::read(other).is_ok_and(|bytes| bytes == pdf));
    if !held {
        std::fs::write(&path, pdf).expect("the seed folder is writable");
    }
}

/// The answer for the crafted file `name`, read with the default limits
/// (and written as a fuzz seed when asked, see the module doc).
pub fn convert(name: &str, pdf: &[u8]) -> Result<Option<String>> {
    if let Some(folder) = std::env::var_os("PDF_FUZZ_SEEDS") {
        write_seed(std::path::Path::new(&folder), name, pdf);
    }
    to_text(pdf, Limits::default(), &|| false)
}

/// The text of the crafted file `name`; panics when it has none.
pub fn text(name: &str, pdf: &[u8]) -> String {
    match convert(name, pdf) {
        Ok(Some(text)) => text,
        other => panic!("{name}: no text: {other:?}"),
    }
}

/// The text of the crafted one-page file `name`, without its heading.
pub fn page(name: &str, pdf: &[u8]) -> String {
    let all = text(name, pdf);
    match all.strip_prefix("## Page 1\n\n") {
        Some(rest) => rest.to_owned(),
        None => panic!("{name}: not one page: {all:?}"),
    }
}
