//! `RubyLLM::FileStores::Native::TextSearch`: a search over texts that a
//! store hands over in parts, in path order, so a capped search stops before
//! the store reads the rest. Internal: `RubyLLM::FileStore::Search` uses it.

use file_stores_core::glob::PathGlob;
use file_stores_core::path;
use file_stores_core::search::{Report, Search, BATCH};
use magnus::{function, method, prelude::*, Error, RArray, RModule, RString, Ruby, TryConvert};
use parking_lot::Mutex;

use crate::errors::CoreError;
use crate::nogvl::nogvl;
use crate::search_options;

struct State {
    search: Search,
    glob: Option<PathGlob>,
    report: Option<Report>,
}

#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::TextSearch",
    free_immediately,
    size
)]
pub struct TextSearch(Mutex<State>);

impl TextSearch {
    fn start(
        ruby: &Ruby,
        pattern: String,
        folder: String,
        glob: Option<String>,
        options: RArray,
    ) -> Result<Self, Error> {
        let folder = path::normalize_folder(&folder).map_err(CoreError)?;
        let glob = search_options::glob(glob, &folder)?;
        let search = search_options::compile(ruby, &pattern, search_options::options(options)?)?;
        let report = Some(search.report());
        Ok(TextSearch(Mutex::new(State {
            search,
            glob,
            report,
        })))
    }

    /// Adds `[[path, text_or_nil], ...]`; false once the search stopped.
    fn feed(ruby: &Ruby, rb_self: &Self, docs: RArray) -> Result<bool, Error> {
        let mut owned = Vec::with_capacity(docs.len());
        for doc in docs.into_iter() {
            let (path, text) = <(String, Option<RString>)>::try_convert(doc)?;
            // SAFETY: copied at once, before any Ruby code runs.
            owned.push((path, text.map(|t| unsafe { t.as_slice() }.to_vec())));
        }
        // One batch per call without the GVL: a batch is added whole or not
        // at all, so a call that nogvl starts again after an interrupt that
        // raised nothing cannot add a file twice.
        for part in owned.chunks(BATCH) {
            let more = nogvl(ruby, |cancel| {
                let mut state = rb_self.0.lock();
                let State {
                    search,
                    glob,
                    report,
                } = &mut *state;
                match report.as_mut() {
                    Some(report) => search.feed(report, part, glob.as_ref(), cancel),
                    None => Ok(false),
                }
            })?;
            if !more {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The output, with its notes; the search cannot be fed after.
    fn finish(ruby: &Ruby, rb_self: &Self) -> Result<String, Error> {
        match rb_self.0.lock().report.take() {
            Some(report) => Ok(report.finish()),
            None => Err(Error::new(
                ruby.exception_runtime_error(),
                "this search has finished",
            )),
        }
    }
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("TextSearch", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("start", function!(TextSearch::start, 4))?;
    class.define_method("feed", method!(TextSearch::feed, 1))?;
    class.define_method("finish", method!(TextSearch::finish, 0))?;
    Ok(())
}
