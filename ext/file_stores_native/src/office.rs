//! `RubyLLM::FileStores::Native.office_to_text`: the core's Office converter,
//! run without the GVL. Ruby's `Converters::Office` wraps it.

use file_stores_office::{self as office, Format, Limits};
use magnus::{function, Error, RModule, RString, Ruby};

use crate::nogvl::{guarded, nogvl};

/// The Office format's name for a file name and content type, or nil.
fn office_format(
    ruby: &Ruby,
    name: String,
    content_type: String,
) -> Result<Option<&'static str>, Error> {
    guarded(ruby, || {
        Ok(
            Format::detect(&name, &content_type).map(|format| match format {
                Format::Word => "word",
                Format::Excel => "excel",
                Format::PowerPoint => "powerpoint",
            }),
        )
    })
}

/// The text of an Office file, or nil when the name and type are not an
/// Office format. Raises ConversionError naming `name` when the file cannot
/// be read (corrupt, encrypted, a zip bomb...).
fn office_to_text(
    ruby: &Ruby,
    bytes: RString,
    name: String,
    content_type: String,
) -> Result<Option<RString>, Error> {
    let Some(format) = guarded(ruby, || Ok(Format::detect(&name, &content_type)))? else {
        return Ok(None);
    };
    // SAFETY: copied at once, before any Ruby code runs; the GVL is released
    // only after, so the String may change or move without harm.
    let bytes = unsafe { bytes.as_slice() }.to_vec();
    let text = nogvl(ruby, |cancel| {
        office::to_text(&bytes, format, Limits::default(), cancel).map_err(|e| e.at(name.as_str()))
    })?;
    Ok(Some(ruby.str_new(&text)))
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    native.define_module_function("office_format", function!(office_format, 2))?;
    native.define_module_function("office_to_text", function!(office_to_text, 3))?;
    let _ = ruby;
    Ok(())
}
