//! `RubyLLM::FileStores::Native`: module functions over the core that every
//! store uses (path rules and content types), so Ruby and Rust share one
//! definition of each.

use file_stores_base::Error as Core;
use file_stores_search::{self as search, glob};
use file_stores_store::edit::{self, Edit, EditError};
use file_stores_store::{content_type, path};
use magnus::{function, prelude::*, Error, RArray, RModule, RString, Ruby, TryConvert};

use crate::errors::CoreError;
use crate::nogvl::{guarded, nogvl};
use crate::search_options;

// Every function here runs its work through `guarded` or `nogvl`, so a
// panic is an InternalError, never `fatal`.

fn normalize_path(ruby: &Ruby, path: String) -> Result<String, Error> {
    guarded(ruby, || {
        path::normalize(&path).map_err(|e| CoreError(e).into())
    })
}

fn normalize_folder(ruby: &Ruby, path: String) -> Result<String, Error> {
    guarded(ruby, || {
        path::normalize_folder(&path).map_err(|e| CoreError(e).into())
    })
}

fn hidden_path(ruby: &Ruby, path: String) -> Result<bool, Error> {
    guarded(ruby, || Ok(path::is_hidden(&path)))
}

fn content_type_for(ruby: &Ruby, name: String, head: RString) -> Result<&'static str, Error> {
    guarded(ruby, || {
        // SAFETY: read at once, with no Ruby code running while borrowed.
        let head = unsafe { head.as_slice() };
        Ok(content_type::detect(
            &name,
            &head[..head.len().min(content_type::SNIFF_BYTES)],
        ))
    })
}

fn text_content_type(ruby: &Ruby, content_type: String) -> Result<bool, Error> {
    guarded(ruby, || Ok(content_type::is_text(&content_type)))
}

/// Applies `edits` (`[[old, new, replace_all], ...]`) to `content`. Returns
/// `[:ok, new_content, counts]`, or `[:not_found | :ambiguous | :empty_old |
/// :too_large, index, count or size]` for the first edit that failed; nothing is raised, so the
/// Ruby side words the message the model sees.
fn apply_edits(ruby: &Ruby, content: RString, edits: RArray) -> Result<RArray, Error> {
    guarded(ruby, || apply_edits_guarded(ruby, content, edits))
}

fn apply_edits_guarded(ruby: &Ruby, content: RString, edits: RArray) -> Result<RArray, Error> {
    if edits.len() > edit::MAX_EDITS {
        return Err(Error::new(
            ruby.exception_arg_error(),
            format!(
                "{} edits in one call, over the limit of {}: split them over several calls",
                edits.len(),
                edit::MAX_EDITS
            ),
        ));
    }
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
    let outcome = nogvl(ruby, |cancel| {
        edit::apply_cancellable(&content, &owned, cancel)
    })?;
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
fn glob_filter(
    ruby: &Ruby,
    glob: String,
    folder: String,
    paths: Vec<String>,
) -> Result<Vec<String>, Error> {
    let folder = nogvl(ruby, |_| path::normalize_folder(&folder))?;
    let Some(glob) = search_options::glob(ruby, Some(glob), &folder)? else {
        return Ok(paths);
    };
    nogvl(ruby, |cancel| {
        let mut kept = Vec::new();
        for p in &paths {
            cancel.check()?;
            if glob.is_match(p) {
                kept.push(p.clone());
            }
        }
        Ok(kept)
    })
}

/// The sha256 of a String's bytes in lowercase hex, without the GVL: the
/// digest read-before-change records (Debian's Digest::SHA256 is ~10x slower).
fn sha256_hex(ruby: &Ruby, bytes: RString) -> Result<String, Error> {
    // SAFETY: copied at once, before any Ruby code runs.
    let bytes = unsafe { bytes.as_slice() }.to_vec();
    nogvl(ruby, |_| {
        Ok(file_stores_store::dir_store::sha256_hex(&bytes))
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
    native.const_set("MAX_EDITS", edit::MAX_EDITS)?;
    native.const_set("MAX_PATH_DEPTH", path::MAX_DEPTH)?;
    native.const_set("MAX_GLOB_BYTES", glob::MAX_GLOB_BYTES)?;
    native.const_set("MAX_PATTERN_BYTES", search::MAX_PATTERN_BYTES)?;
    let _ = ruby;
    Ok(())
}
