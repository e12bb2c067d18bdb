//! # file_stores_native
//!
//! The thin magnus binding of the `file_stores_*` crates for the Ruby gem
//! `ruby_llm-file_stores-native`. One file per Ruby class or module, each
//! with an `init`; all work happens in the core, called through
//! `nogvl::nogvl` so the GVL is released and panics become Ruby errors.
//!
//! Data crosses by name, never as positional arrays: Hashes come in and are
//! read field by field (`fields::read`: an unknown or missing key is an
//! ArgumentError); results go out as wrapped structs with readers
//! (`EditOutcome`, `PatchOutcome`, `RunTree::Swept`, `SearchReport`) or as the gem's own value objects made
//! with `new` and keywords (`StoredFile`, `LineWindow`, `Listing`).
//!
//! Entry points only specs call (`Native.panic_for_tests`) exist only with
//! the `test-hooks` feature, which `rake compile` turns on and the builds
//! users install never do.

mod dir_core;
mod edit_outcome;
mod errors;
mod fields;
mod native_module;
mod nogvl;
mod office;
mod patch;
mod patch_outcome;
mod pdf_text;
mod run_tree;
mod search_options;
mod search_report;
mod stored_file;
mod text_search;
mod text_stream;

use magnus::{prelude::*, Error, Ruby};

#[magnus::init]
fn init(ruby: &Ruby) -> Result<(), Error> {
    let ruby_llm = ruby.define_module("RubyLLM")?;
    let stores = ruby_llm.define_module("FileStores")?;
    let native = stores.define_module("Native")?;
    native_module::init(ruby, native)?;
    edit_outcome::init(ruby, native)?;
    dir_core::init(ruby, native)?;
    text_search::init(ruby, native)?;
    search_report::init(ruby, native)?;
    text_stream::init(ruby, native)?;
    office::init(ruby, native)?;
    patch::init(ruby, native)?;
    patch_outcome::init(ruby, native)?;
    pdf_text::init(ruby, native)?;
    run_tree::init(ruby, native)?;
    Ok(())
}
