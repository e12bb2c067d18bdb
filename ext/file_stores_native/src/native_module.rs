//! `RubyLLM::FileStores::Native`: module functions over the core that every
//! store uses (path rules and content types), so Ruby and Rust share one
//! definition of each.

use file_stores_search::{self as search, glob};
use file_stores_store::edit::{self, Edit};
use file_stores_store::{content_type, line_window, path, text};
use magnus::{
    function, prelude::*, Error, RArray, RHash, RModule, RString, Ruby, TryConvert, Value,
};

use crate::edit_outcome::EditOutcome;
use crate::errors::CoreError;
use crate::fields;
use crate::nogvl::{guarded, nogvl};
use crate::search_options;
use crate::stored_file;

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

/// Applies `edits` (`[{ old_text:, new_text:, replace_all: }, ...]`, in
/// order) to the text of a file whose bytes are `content`, and writes the
/// result in the file's encoding (see `file_stores_store::text`). Returns an
/// [`EditOutcome`]: the new content and the counts, or the first edit that
/// failed and why; nothing is raised for a failed edit, so the Ruby side
/// words the message the model sees. A UTF-16 or UTF-32 file that could not
/// be written back as it was raises ConversionError.
fn apply_edits(ruby: &Ruby, content: RString, edits: RArray) -> Result<EditOutcome, Error> {
    guarded(ruby, || {
        apply_edits_guarded(ruby, content, edits, edit::MAX_RESULT)
    })
}

/// `apply_edits` whose result may take at most `max` bytes (never more than
/// `MAX_EDIT_RESULT`): edit_file passes what its call has left of
/// `MAX_EDIT_CALL_RESULT`, so the files of one call are bounded together.
/// Past it the outcome is `:too_large`, before the result is made.
fn apply_edits_within(
    ruby: &Ruby,
    content: RString,
    edits: RArray,
    max: usize,
) -> Result<EditOutcome, Error> {
    guarded(ruby, || apply_edits_guarded(ruby, content, edits, max))
}

/// The keys of each edit given to `apply_edits`.
const EDIT_FIELDS: [&str; 3] = ["old_text", "new_text", "replace_all"];

fn apply_edits_guarded(
    ruby: &Ruby,
    content: RString,
    edits: RArray,
    max: usize,
) -> Result<EditOutcome, Error> {
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
    for i in 0..edits.len() {
        let fields_of_edit = edits.entry::<RHash>(i as isize)?;
        let mut edit = Edit {
            old: Vec::new(),
            new: Vec::new(),
            replace_all: false,
        };
        fields::read(ruby, fields_of_edit, "edit", &EDIT_FIELDS, |name, value| {
            match name {
                // SAFETY: copied at once, before any Ruby code runs.
                "old_text" => {
                    edit.old = unsafe { RString::try_convert(value)?.as_slice() }.to_vec()
                }
                "new_text" => {
                    edit.new = unsafe { RString::try_convert(value)?.as_slice() }.to_vec()
                }
                "replace_all" => edit.replace_all = TryConvert::try_convert(value)?,
                _ => {} // fields::read passes only EDIT_FIELDS
            }
            Ok(())
        })?;
        owned.push(edit);
    }
    let outcome = nogvl(ruby, |cancel| {
        edit::apply_to_file(&content, &owned, max, cancel)
    })?;
    Ok(match outcome {
        Ok((bytes, counts)) => EditOutcome::applied(ruby.str_from_slice(&bytes), counts),
        Err(failure) => EditOutcome::failed(failure),
    })
}

/// The paths (store paths below `folder`) that `glob` matches, in order,
/// each matched with `lead` in front of its path relative to `folder` (see
/// `PathGlob::with_lead`; "" for none).
fn glob_filter(
    ruby: &Ruby,
    glob: String,
    folder: String,
    lead: String,
    paths: Vec<String>,
) -> Result<Vec<String>, Error> {
    let folder = nogvl(ruby, |_| path::normalize_folder(&folder))?;
    let Some(glob) = search_options::glob(ruby, Some(glob), &folder, &lead)? else {
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

/// The text of a text file's `bytes` (see `file_stores_store::text`): a
/// UTF-8 String, UTF-16 or UTF-32 with a byte order mark transcoded,
/// invalid UTF-8 replaced, a UTF-8 mark dropped. Without the GVL,
/// cancellable.
fn text_from_bytes(ruby: &Ruby, bytes: RString) -> Result<RString, Error> {
    // SAFETY: copied at once, before any Ruby code runs.
    let bytes = unsafe { bytes.as_slice() }.to_vec();
    let text = nogvl(ruby, |cancel| text::decode(&bytes, cancel))?;
    drop(bytes);
    guarded(ruby, || Ok(ruby.str_new(&text)))
}

/// The unified diff of two versions of a text file (`store.diff`), without
/// the GVL: `similar`'s line diff under a deadline (see `diff.rs`).
fn unified_diff(
    ruby: &Ruby,
    old: RString,
    new: RString,
    old_name: String,
    new_name: String,
) -> Result<String, Error> {
    // SAFETY: copied at once, before any Ruby code runs.
    let old = unsafe { old.as_slice() }.to_vec();
    // SAFETY: as above.
    let new = unsafe { new.as_slice() }.to_vec();
    nogvl(ruby, |cancel| {
        file_stores_store::diff::unified(&old, &new, &old_name, &new_name, cancel)
    })
}

/// A `RubyLLM::FileStore::LineWindow` of a text file's `bytes`, decoded as
/// `text_from_bytes` decodes them, with the digest of all of them: what
/// `NativeDir#read_lines` pages from disk, for the stores that hold the
/// bytes. One pass without the GVL, cancellable; memory for the lines shown
/// and one copy of the bytes, never a String per line.
fn file_line_window(ruby: &Ruby, bytes: RString, window: RHash) -> Result<Value, Error> {
    let (first, limit, budget) = stored_file::window_arguments(ruby, window)?;
    // SAFETY: copied at once, before any Ruby code runs.
    let bytes = unsafe { bytes.as_slice() }.to_vec();
    let (window, digest) = nogvl(ruby, |cancel| {
        let window = line_window::window_of_file(&bytes, first, limit, budget, cancel)?;
        Ok((window, file_stores_store::dir_store::sha256_hex(&bytes)))
    })?;
    drop(bytes);
    guarded(ruby, || {
        stored_file::line_window(ruby, &window, Some(digest.as_str()))
    })
}

/// A `RubyLLM::FileStore::LineWindow` of `text` (UTF-8, as a converter gave
/// it: nothing dropped), with no digest. As `file_line_window`, without the GVL.
fn text_line_window(ruby: &Ruby, text: RString, window: RHash) -> Result<Value, Error> {
    let (first, limit, budget) = stored_file::window_arguments(ruby, window)?;
    // SAFETY: copied at once, before any Ruby code runs.
    let bytes = unsafe { text.as_slice() }.to_vec();
    let window = nogvl(ruby, |cancel| {
        line_window::window_of_text(&bytes, first, limit, budget, cancel)
    })?;
    drop(bytes);
    guarded(ruby, || stored_file::line_window(ruby, &window, None))
}

/// Panics inside native work, so specs can show a panic becomes a rescuable
/// error. Only in builds with the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
fn panic_for_tests(ruby: &Ruby) -> Result<(), Error> {
    nogvl(ruby, |_| -> Result<(), file_stores_base::Error> {
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
    native.define_module_function("glob_filter", function!(glob_filter, 4))?;
    native.define_module_function("apply_edits", function!(apply_edits, 2))?;
    native.define_module_function("apply_edits_within", function!(apply_edits_within, 3))?;
    native.define_module_function("text_from_bytes", function!(text_from_bytes, 1))?;
    native.define_module_function("file_line_window", function!(file_line_window, 2))?;
    native.define_module_function("unified_diff", function!(unified_diff, 4))?;
    native.define_module_function("text_line_window", function!(text_line_window, 2))?;
    #[cfg(feature = "test-hooks")]
    native.define_module_function("panic_for_tests", function!(panic_for_tests, 0))?;
    native.const_set("SNIFF_BYTES", content_type::SNIFF_BYTES)?;
    native.const_set("MAX_EDIT_RESULT", edit::MAX_RESULT)?;
    native.const_set("MAX_EDIT_CALL_RESULT", edit::MAX_CALL_RESULT)?;
    native.const_set("MAX_EDITS", edit::MAX_EDITS)?;
    native.const_set("MAX_PATH_DEPTH", path::MAX_DEPTH)?;
    native.const_set("MAX_GLOB_BYTES", glob::MAX_GLOB_BYTES)?;
    native.const_set("MAX_PATTERN_BYTES", search::MAX_PATTERN_BYTES)?;
    let _ = ruby;
    Ok(())
}
