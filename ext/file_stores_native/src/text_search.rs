//! `RubyLLM::FileStores::Native::TextSearch`: a search over texts that a
//! store hands over in parts, in path order, so a capped search stops before
//! the store reads the rest. Internal: `RubyLLM::FileStore::Search` uses it.

use std::borrow::Cow;

use file_stores_search::glob::PathGlob;
use file_stores_search::{Report, Search};
use file_stores_store::path;
use magnus::{
    function, method, prelude::*, Error, RArray, RHash, RModule, RString, Ruby, TryConvert, Value,
};
use parking_lot::Mutex;

use crate::nogvl::{guarded, nogvl};
use crate::search_options::{self, Request};

/// Texts searched per call without the GVL, their strings held on this
/// thread's stack meanwhile (8 KB). A part of this many is searched as one
/// stream, with no pause between groups of texts.
const PER_CALL: usize = 1024;

struct State {
    search: Search,
    glob: Option<PathGlob>,
    report: Option<Report>,
    /// How many texts of the part being fed the report has taken, so that
    /// a call that nogvl starts again after an interrupt goes on from there.
    fed: usize,
}

#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::TextSearch",
    free_immediately,
    size
)]
pub struct TextSearch(Mutex<State>);

impl TextSearch {
    /// A search for `request` (see [`Request::read`]).
    fn start(ruby: &Ruby, request: RHash) -> Result<Self, Error> {
        let request = Request::read(ruby, request)?;
        let folder = nogvl(ruby, |_| path::normalize_folder(&request.folder))?;
        let glob = search_options::glob(ruby, request.glob.clone(), &folder)?;
        let search = request.compile(ruby)?;
        let report = Some(search.report());
        Ok(TextSearch(Mutex::new(State {
            search,
            glob,
            report,
            fed: 0,
        })))
    }

    /// Adds `{ path => text or nil }`, in the Hash's order; false once the
    /// search stopped.
    fn feed(ruby: &Ruby, rb_self: &Self, texts: RHash) -> Result<bool, Error> {
        guarded(ruby, || Self::feed_parts(ruby, rb_self, texts))
    }

    fn feed_parts(ruby: &Ruby, rb_self: &Self, texts: RHash) -> Result<bool, Error> {
        // The paths, in order, held (with the Hash) by this frame.
        let docs: RArray = texts.funcall("keys", ())?;
        let mut start = 0;
        while start < docs.len() {
            let end = (start + PER_CALL).min(docs.len());
            // The part's strings, held on this thread's stack for `text_of`.
            let mut held: [Option<RString>; PER_CALL] = [None; PER_CALL];
            let mut paths = Vec::with_capacity(end - start);
            for (slot, i) in held.iter_mut().zip(start..end) {
                let key: Value = docs.entry(i as isize)?;
                paths.push(String::try_convert(key)?);
                // A key gone meanwhile (another thread, while a part was
                // searched without the GVL) has no text to search.
                *slot = match texts.get(key) {
                    Some(text) => TryConvert::try_convert(text)?,
                    None => None,
                };
            }
            // Its address escapes before the call, so the compiler keeps the
            // strings in that stack memory through it.
            std::hint::black_box(&held);
            let part: Vec<(String, Option<Cow<'_, [u8]>>)> = paths
                .into_iter()
                .zip(held.iter())
                .map(|(path, text)| (path, text.as_ref().map(text_of)))
                .collect();
            // A call that nogvl starts again after an interrupt that raised
            // nothing skips the texts the report already took (`fed`), so
            // no file is added twice.
            rb_self.0.lock().fed = 0;
            let more = nogvl(ruby, |cancel| {
                let mut state = rb_self.0.lock();
                let State {
                    search,
                    glob,
                    report,
                    fed,
                } = &mut *state;
                match report.as_mut() {
                    Some(report) => search.feed_from(report, &part, glob.as_ref(), cancel, fed),
                    None => Ok(false),
                }
            })?;
            drop(part);
            std::hint::black_box(&held);
            if !more {
                return Ok(false);
            }
            start = end;
        }
        Ok(true)
    }

    /// The output, with its notes; the search cannot be fed after.
    fn finish(ruby: &Ruby, rb_self: &Self) -> Result<String, Error> {
        let report = rb_self.0.lock().report.take();
        match report {
            Some(report) => guarded(ruby, || Ok(report.finish())),
            None => Err(Error::new(
                ruby.exception_runtime_error(),
                "this search has finished",
            )),
        }
    }
}

/// The bytes of `text` for a search that runs without the GVL: borrowed
/// when that is sound, else copied. Stores hand frozen strings (Memory keeps
/// its texts frozen), so a 100 MB search need not copy 100 MB first.
fn text_of(text: &RString) -> Cow<'_, [u8]> {
    // SAFETY of the borrow, for the whole search of the part (the slice
    // cannot outlive `text`, which lives in `feed`'s `held` array):
    // - the string is frozen, so no Ruby thread (running while the GVL is
    //   released) can change or free its bytes: every mutation checks;
    // - it is not embedded, so its bytes live in their own heap buffer, not
    //   inside the object, and stay put even if the object moved;
    // - it is referenced from `held`, on this thread's machine stack, which
    //   Ruby's GC scans conservatively while the thread is blocked without
    //   the GVL: the string is marked (kept alive) and pinned (not moved,
    //   hence never re-embedded by compaction).
    // Anything else is copied now, before any Ruby code can run.
    if text.is_frozen() && !is_embedded(*text) {
        Cow::Borrowed(unsafe { text.as_slice() })
    } else {
        Cow::Owned(unsafe { text.as_slice() }.to_vec())
    }
}

fn is_embedded(text: RString) -> bool {
    let raw = magnus::rb_sys::AsRawValue::as_raw(text);
    // SAFETY: `raw` is a live String (magnus checked its type), whose
    // header starts with the RBasic flags word.
    let flags = unsafe { (*(raw as *const rb_sys::RBasic)).flags };
    flags & rb_sys::ruby_rstring_flags::RSTRING_NOEMBED as rb_sys::VALUE == 0
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("TextSearch", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("start", function!(TextSearch::start, 1))?;
    class.define_method("feed", method!(TextSearch::feed, 1))?;
    class.define_method("finish", method!(TextSearch::finish, 0))?;
    Ok(())
}
