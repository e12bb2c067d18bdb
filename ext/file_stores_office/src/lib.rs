//! Office files (.docx, .xlsx, .pptx and their macro-enabled and template
//! twins) to plain text, the way a model reads them best:
//!
//! - Word ([`docx`]): a paragraph per line, headings as Markdown headings,
//!   list labels as Word shows them, a table row per line with tabs.
//! - Excel ([`xlsx`]): a `## Sheet` heading per sheet, a row per line with
//!   tabs, dates and numbers as Excel displays them.
//! - PowerPoint ([`pptx`]): a `## Slide N` heading per slide, its text,
//!   tables, and speaker notes.
//!
//! ## Safety
//!
//! Input is untrusted. The zip is read through [`archive::Archive`], which
//! bounds every part and the total (zip bombs), and XML through quick-xml,
//! which expands no DTD entities (entity bombs). Every failure is an
//! [`ErrorKind::Conversion`](file_stores_base::error::ErrorKind::Conversion) saying what
//! was wrong; nothing here panics on input, and long loops check the
//! [`Cancel`] flag.

pub mod archive;
pub mod controls;
pub mod docx;
pub mod numerals;
pub mod pptx;
pub mod xlsx;
pub mod xml;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

pub use archive::Limits;

/// Which Office application a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Word,
    Excel,
    PowerPoint,
}

impl Format {
    /// The format for a file name's extension or a content type, if it is an
    /// Office Open XML one.
    pub fn detect(name: &str, content_type: &str) -> Option<Format> {
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("docx" | "docm" | "dotx" | "dotm") => return Some(Format::Word),
            Some("xlsx" | "xlsm" | "xltx" | "xltm") => return Some(Format::Excel),
            Some("pptx" | "pptm" | "ppsx" | "ppsm" | "potx" | "potm") => {
                return Some(Format::PowerPoint)
            }
            _ => {}
        }
        let t = content_type.to_ascii_lowercase();
        if t.contains("wordprocessingml") || t.starts_with("application/vnd.ms-word.") {
            Some(Format::Word)
        } else if t.contains("spreadsheetml") || t.starts_with("application/vnd.ms-excel.") {
            Some(Format::Excel)
        } else if t.contains("presentationml") || t.starts_with("application/vnd.ms-powerpoint.") {
            Some(Format::PowerPoint)
        } else {
            None
        }
    }
}

/// What an Office package says it is: the content type of its main part
/// (the package's `officeDocument` relationship), from `[Content_Types].xml`,
/// or else the main part's folder (`word/`, `xl/`, `ppt/`). `None` when it
/// does not say, or is not a package.
pub fn package_format(bytes: &[u8], limits: Limits, cancel: &Cancel) -> Option<Format> {
    archive_format(&mut archive::Archive::open(bytes, limits, cancel).ok()?)
}

/// What an open package says it is (see [`package_format`]).
fn archive_format(archive: &mut archive::Archive<'_>) -> Option<Format> {
    let cancel = archive.cancel();
    let main = archive
        .relationships("")
        .ok()?
        .into_iter()
        .find(|r| r.is("officeDocument") && !r.external)?
        .target;
    let mut declared = None;
    if let Ok(Some(types)) = archive.read("[Content_Types].xml") {
        let _ = xml::for_each_start(&types, "[Content_Types].xml", cancel, |e| {
            let part = e.attr(b"PartName").unwrap_or_default();
            if e.name() == b"Override" && part.trim_start_matches('/').eq_ignore_ascii_case(&main) {
                declared = e.attr(b"ContentType");
            }
            Ok(())
        });
    }
    let says = |marks: [&str; 2]| {
        declared
            .as_deref()
            .is_some_and(|t| marks.iter().any(|m| t.contains(m)))
    };
    let folder = main
        .split('/')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if says(["wordprocessingml", "ms-word"]) || (declared.is_none() && folder == "word") {
        Some(Format::Word)
    } else if says(["spreadsheetml", "ms-excel"]) || (declared.is_none() && folder == "xl") {
        Some(Format::Excel)
    } else if says(["presentationml", "ms-powerpoint"]) || (declared.is_none() && folder == "ppt") {
        Some(Format::PowerPoint)
    } else {
        None
    }
}

/// Converts an Office file's bytes to text. A file named as one format but
/// holding another (a workbook saved as `.docx`) is read as what it holds.
/// The file is opened once: what it holds and its text are read from the
/// same [`archive::Archive`].
pub fn to_text(bytes: &[u8], format: Format, limits: Limits, cancel: &Cancel) -> Result<String> {
    let mut archive = archive::Archive::open(bytes, limits, cancel)?;
    let format = archive_format(&mut archive).unwrap_or(format);
    let text = match format {
        Format::Word => docx::from_archive(&mut archive)?,
        Format::Excel => guarded("Excel", || xlsx::from_archive(&mut archive))?,
        Format::PowerPoint => guarded("PowerPoint", || pptx::from_archive(&mut archive))?,
    };
    let text = controls::strip(text);
    if text.len() as u64 > limits.max_output {
        return Err(Error::conversion(format!(
            "its text is over the {} MB limit",
            limits.max_output / (1024 * 1024)
        )));
    }
    Ok(text)
}

/// Runs a reader with a last guard: a panic (a bug, since input errors are
/// `Err`s) becomes a conversion error instead of unwinding into Ruby.
fn guarded(what: &str, read: impl FnOnce() -> Result<String>) -> Result<String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(Error::conversion(format!(
            "the {what} reader failed on this file (an internal error); please report it"
        )))
    })
}

/// Builds Office files in memory for tests: a zip of the given parts.
#[cfg(test)]
pub(crate) mod testing {
    use std::io::{Cursor, Write};

    use zip::write::SimpleFileOptions;
    use zip::{CompressionMethod, ZipWriter};

    /// A zip holding `parts` (name, content), deflated.
    pub fn zip_of(parts: &[(&str, &str)]) -> Vec<u8> {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        for (name, content) in parts {
            writer.start_file(*name, options).expect("zip in memory");
            writer.write_all(content.as_bytes()).expect("zip in memory");
        }
        writer.finish().expect("zip in memory").into_inner()
    }

    #[test]
    fn a_panicking_reader_is_a_conversion_error() {
        let result = super::guarded("Excel", || panic!("a bug"));
        assert!(result.is_err_and(|e| e.to_string().contains("Excel reader failed")));
        assert_eq!(
            super::guarded("Excel", || Ok("x".into())).ok(),
            Some("x".into())
        );
    }

    #[test]
    fn reads_a_mislabelled_file_as_what_it_holds() {
        use super::{package_format, to_text, Format, Limits};
        use file_stores_base::cancel::Cancel;
        let limits = Limits::default();
        let cancel = Cancel::new();
        let fixtures: [(&[u8], Format); 3] = [
            (
                include_bytes!("../../../spec/fixtures/office/workbook.xlsx"),
                Format::Excel,
            ),
            (
                include_bytes!("../../../spec/fixtures/office/basic.docx"),
                Format::Word,
            ),
            (
                include_bytes!("../../../spec/fixtures/office/deck.pptx"),
                Format::PowerPoint,
            ),
        ];
        for (bytes, real) in fixtures {
            assert_eq!(package_format(bytes, limits, &cancel), Some(real));
            let right = to_text(bytes, real, limits, &cancel).expect("converts");
            assert!(!right.trim().is_empty());
            for named in [Format::Word, Format::Excel, Format::PowerPoint] {
                let got = to_text(bytes, named, limits, &cancel).expect("converts");
                assert_eq!(got, right, "{real:?} named {named:?}");
            }
        }
        assert_eq!(package_format(b"not a zip", limits, &cancel), None);
    }

    #[test]
    fn builds_a_zip_the_archive_reads() {
        let bytes = zip_of(&[("a/b.xml", "<x/>")]);
        let cancel = file_stores_base::Cancel::new();
        let mut archive = super::archive::Archive::open(&bytes, super::Limits::default(), &cancel)
            .expect("opens");
        assert_eq!(
            archive.read("a/b.xml").expect("reads"),
            Some(b"<x/>".to_vec())
        );
        assert_eq!(archive.read("missing.xml").expect("reads"), None);
    }
}
