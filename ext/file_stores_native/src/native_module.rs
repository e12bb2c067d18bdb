//! `RubyLLM::FileStores::Native`: module functions over the core that every
//! store uses (path rules and content types), so Ruby and Rust share one
//! definition of each.

use file_stores_core::{content_type, path, Error as Core};
use magnus::{function, prelude::*, Error, RModule, RString, Ruby};

use crate::errors::CoreError;
use crate::nogvl::nogvl;

fn normalize_path(path: String) -> Result<String, Error> {
    path::normalize(&path).map_err(|e| CoreError(e).into())
}

fn normalize_folder(path: String) -> Result<String, Error> {
    path::normalize_folder(&path).map_err(|e| CoreError(e).into())
}

fn hidden_path(path: String) -> bool {
    path::is_hidden(&path)
}

fn content_type_for(name: String, head: RString) -> &'static str {
    // SAFETY: read at once, with no Ruby code running while borrowed.
    let head = unsafe { head.as_slice() };
    content_type::detect(&name, &head[..head.len().min(content_type::SNIFF_BYTES)])
}

fn text_content_type(content_type: String) -> bool {
    content_type::is_text(&content_type)
}

/// Panics inside native work, so specs can show a panic becomes a rescuable error.
fn panic_for_tests(ruby: &Ruby) -> Result<(), Error> {
    nogvl(ruby, |_| -> Result<(), Core> {
        panic!("a deliberate panic for the specs")
    })
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    native.define_module_function("normalize_path", function!(normalize_path, 1))?;
    native.define_module_function("normalize_folder", function!(normalize_folder, 1))?;
    native.define_module_function("hidden_path?", function!(hidden_path, 1))?;
    native.define_module_function("content_type_for", function!(content_type_for, 2))?;
    native.define_module_function("text_content_type?", function!(text_content_type, 1))?;
    native.define_module_function("panic_for_tests", function!(panic_for_tests, 0))?;
    native.const_set("SNIFF_BYTES", content_type::SNIFF_BYTES)?;
    let _ = ruby;
    Ok(())
}
