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
    // SAFETY: copied at once, before any Ruby code runs; the GVL is released
    // only after, so the String may change or move without harm.
    let bytes = unsafe { bytes.as_slice() }.to_vec();
    let text = nogvl(ruby, |cancel| {
        file_stores_pdf::to_text(&bytes, Limits::default(), &|| cancel.is_cancelled()).map_err(
            |e| match e {
                PdfError::Cancelled => CoreError::cancelled(),
                other => CoreError::conversion(other.to_string()).at(name.as_str()),
            },
        )
    })?;
    Ok(text.map(|t| ruby.str_new(&t)))
}

pub fn init(_ruby: &Ruby, native: RModule) -> Result<(), Error> {
    native.define_module_function("pdf_to_text", function!(pdf_to_text, 2))?;
    Ok(())
}
