//! `RubyLLM::FileStores::Native`: module functions over the core that every
//! store uses (path rules and content types), so Ruby and Rust share one
//! definition of each.

use file_stores_core::edit::{self, Edit, EditError};
use file_stores_core::{content_type, path, Error as Core};
use magnus::{function, prelude::*, Error, RArray, RModule, RString, Ruby, TryConvert};

use crate::errors::CoreError;
use crate::nogvl::nogvl;
use crate::search_options;

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

/// Applies `edits` (`[[old, new, replace_all], ...]`) to `content`. Returns
/// `[:ok, new_content, counts]`, or `[:not_found | :ambiguous | :empty_old |
/// :too_large, index, count or size]` for the first edit that failed; nothing is raised, so the
/// Ruby side words the message the model sees.
fn apply_edits(ruby: &Ruby, content: RString, edits: RArray) -> Result<RArray, Error> {
    // SAFETY: copied at once, before any Ruby code runs.
    let content = unsafe { content.as_slice() }.to_vec();
    let mut owned = Vec::with_capacity(edits.len());
    for edit in edits.into_iter() {
        let (old, new, replace_all) = <(RString, RString, bool)>::try_convert(edit)?;
        // SAFETY: copied at once, before any Ruby code runs.
        let (old, new) = unsafe { (old.as_slice().to_vec(), new.as_slice().to_vec()) };
        owned.push(Edit {
            old,
            new,
            replace_all,
        });
    }
    let outcome = nogvl(ruby, |_| Ok(edit::apply(&content, &owned)))?;
    let (tag, index, count) = match outcome {
        Ok((bytes, counts)) => {
            let row = ruby.ary_new_capa(3);
            row.push(ruby.to_symbol("ok"))?;
            row.push(ruby.str_from_slice(&bytes))?;
            row.push(ruby.ary_from_vec(counts))?;
            return Ok(row);
        }
        Err(EditError::NotFound { index }) => ("not_found", index, 0),
        Err(EditError::Ambiguous { index, count }) => ("ambiguous", index, count),
        Err(EditError::EmptyOld { index }) => ("empty_old", index, 0),
        Err(EditError::TooLarge { index, size }) => ("too_large", index, size),
    };
    let row = ruby.ary_new_capa(3);
    row.push(ruby.to_symbol(tag))?;
    row.push(index)?;
    row.push(count)?;
    Ok(row)
}

/// The paths (store paths below `folder`) that `glob` matches, in order.
fn glob_filter(glob: String, folder: String, paths: Vec<String>) -> Result<Vec<String>, Error> {
    let folder = path::normalize_folder(&folder).map_err(CoreError)?;
    let Some(glob) = search_options::glob(Some(glob), &folder)? else {
        return Ok(paths);
    };
    Ok(paths.into_iter().filter(|p| glob.is_match(p)).collect())
}

/// The sha256 of a String's bytes in lowercase hex, without the GVL: the
/// digest read-before-change records (Debian's Digest::SHA256 is ~10x slower).
fn sha256_hex(ruby: &Ruby, bytes: RString) -> Result<String, Error> {
    // SAFETY: copied at once, before any Ruby code runs.
    let bytes = unsafe { bytes.as_slice() }.to_vec();
    nogvl(ruby, |_| {
        Ok(file_stores_core::dir_store::sha256_hex(&bytes))
    })
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
    native.define_module_function("sha256_hex", function!(sha256_hex, 1))?;
    native.define_module_function("glob_filter", function!(glob_filter, 3))?;
    native.define_module_function("apply_edits", function!(apply_edits, 2))?;
    native.define_module_function("panic_for_tests", function!(panic_for_tests, 0))?;
    native.const_set("SNIFF_BYTES", content_type::SNIFF_BYTES)?;
    native.const_set("MAX_EDIT_RESULT", edit::MAX_RESULT)?;
    let _ = ruby;
    Ok(())
}
