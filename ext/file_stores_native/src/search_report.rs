//! `RubyLLM::FileStores::Native::SearchReport`: what a search found, as
//! data (`file_stores_search::Found`), returned by `DirCore#search` and
//! `TextSearch#finish`. `text` writes the output the model sees; `merge`
//! makes one report of the reports of a tree's stores
//! (`RubyLLM::FileStore::Mounts`), so a tree never reads a store's output
//! back from its text. Internal: `RubyLLM::FileStore::Search` and `Mounts`
//! use it.

use file_stores_search::{Found, Part};
use magnus::{function, method, prelude::*, Error, RArray, RModule, RString, Ruby};

use crate::nogvl::guarded;
use crate::search_options::Request;

#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::SearchReport",
    free_immediately,
    size
)]
pub struct SearchReport(pub Found);

impl SearchReport {
    /// The output the model sees: the lines, why the search stopped, the
    /// closing notes; the lines copied once, straight into the Ruby String.
    fn text(ruby: &Ruby, rb_self: &Self) -> Result<RString, Error> {
        guarded(ruby, || {
            let (lines, notes) = (rb_self.0.lines(), rb_self.0.notes());
            let text = ruby.str_with_capacity(lines.len() + notes.len());
            text.cat(lines);
            text.cat(notes);
            Ok(text)
        })
    }

    /// One report for a tree's search `request` (its caps) from `parts`:
    /// `[prefix, report or nil, hidden]` for each store, where `prefix` is
    /// what the store's paths get in front ("" or "name/"), nil a store the
    /// time ran out for, and `hidden` the full names of the mounts inside
    /// the store's part of the tree (see `file_stores_search::Part`).
    ///
    /// It runs with the GVL held: it copies lines the stores' searches hold
    /// already, within the caps (the output the model is shown).
    fn merge(ruby: &Ruby, request: magnus::RHash, parts: RArray) -> Result<Self, Error> {
        let request = Request::read(ruby, request)?;
        // The reports stay referenced by `parts`, held by this frame.
        let read = (0..parts.len())
            .map(|i| parts.entry::<(String, Option<&SearchReport>, Vec<String>)>(i as isize))
            .collect::<Result<Vec<_>, Error>>()?;
        guarded(ruby, || {
            let parts: Vec<Part<'_>> = read
                .iter()
                .map(|(prefix, report, hidden)| Part {
                    prefix,
                    found: report.map(|r| &r.0),
                    hidden,
                })
                .collect();
            Ok(SearchReport(Found::merge(request.options, &parts)))
        })
    }
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("SearchReport", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("merge", function!(SearchReport::merge, 2))?;
    class.define_method("text", method!(SearchReport::text, 0))?;
    Ok(())
}
