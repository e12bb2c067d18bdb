//! `RubyLLM::FileStores::Native.pdf_to_text`: the `file_stores_pdf` engine,
//! run without the GVL. Ruby's `Converters::PdfText` wraps it.

use file_stores_base::Error as CoreError;
use file_stores_pdf::{Error as PdfError, Limits};
use magnus::{function, Error, RModule, RString, Ruby};

use crate::nogvl::nogvl;

/// The text of a PDF's pages, each after a `## Page N` heading, or nil for a
/// scan (no page with a usable text layer). Raises ConversionError naming
/// `name` when the PDF is broken, encrypted or past a limit.
fn pdf_to_text(ruby: &Ruby, bytes: RString, name: String) -> Result<Option<RString>, Error> {
    let limits = Limits::default();
    let refuse = |e: PdfError| match e {
        PdfError::Cancelled => CoreError::cancelled(),
        other => CoreError::conversion(other.to_string()).at(name.as_str()),
    };
    // SAFETY: read at once, before any Ruby code runs; the GVL is held, so
    // the String can neither change nor move while the slice is used.
    let slice = unsafe { bytes.as_slice() };
    // Refused by its size before a copy (a 500 MB file was copied whole
    // first, to be refused).
    file_stores_pdf::check_size(slice.len(), &limits)
        .map_err(|e| Error::from(crate::errors::CoreError(refuse(e))))?;
    // Copied, so the GVL can be released: the String may then change or move.
    let bytes = slice.to_vec();
    let text = nogvl(ruby, |cancel| {
        file_stores_pdf::to_text(&bytes, limits, &|| cancel.is_cancelled()).map_err(refuse)
    })?;
    Ok(text.map(|t| ruby.str_new(&t)))
}

pub fn init(_ruby: &Ruby, native: RModule) -> Result<(), Error> {
    native.define_module_function("pdf_to_text", function!(pdf_to_text, 2))?;
    Ok(())
}
