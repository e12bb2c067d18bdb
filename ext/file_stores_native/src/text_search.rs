//! `RubyLLM::FileStores::Native::TextSearch`: a search over texts that a
//! store hands over in parts, in path order, so a capped search stops before
//! the store reads the rest. Internal: `RubyLLM::FileStore::Search` uses it.

use std::borrow::Cow;
use std::fs::File;
use std::os::fd::BorrowedFd;

use file_stores_search::{Content, Report, Search, Streamed};
use magnus::{
    function, method, prelude::*, Error, RArray, RHash, RModule, RString, Ruby, TryConvert, Value,
};
use parking_lot::Mutex;

use crate::nogvl::{guarded, nogvl};
use crate::search_options::Request;
use crate::search_report::SearchReport;

/// Texts searched per call without the GVL, their strings held on this
/// thread's stack meanwhile (8 KB). A part of this many is searched as one
/// stream, with no pause between groups of texts.
const PER_CALL: usize = 1024;

struct State {
    search: Search,
    report: Option<Report>,
    /// How many texts of the part being fed the report has taken, so that
    /// a call that nogvl starts again after an interrupt goes on from there.
    fed: usize,
    /// The file being streamed in, between `stream_start` and `stream_finish`.
    stream: Option<Streamed>,
}

#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::TextSearch",
    free_immediately,
    size
)]
pub struct TextSearch(Mutex<State>);

impl TextSearch {
    /// A search for `request` (see [`Request::read_for_texts`]): the store
    /// feeds the texts of the files it searches, its glob applied.
    fn start(ruby: &Ruby, request: RHash) -> Result<Self, Error> {
        let request = Request::read_for_texts(ruby, request)?;
        let search = request.compile(ruby)?;
        let report = Some(search.report());
        Ok(TextSearch(Mutex::new(State {
            search,
            report,
            fed: 0,
            stream: None,
        })))
    }

    /// Adds `{ path => text, open File or nil }`, in the Hash's order; false
    /// once the search stopped. A File is searched from its start (a blob
    /// downloaded to a temporary file), whatever its offset.
    fn feed(ruby: &Ruby, rb_self: &Self, texts: RHash) -> Result<bool, Error> {
        if rb_self.0.lock().stream.is_some() {
            return Err(Error::new(
                ruby.exception_runtime_error(),
                "a file is being streamed: call stream_finish before feeding more",
            ));
        }
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
            let mut files: Vec<Option<File>> = Vec::with_capacity(end - start);
            for (slot, i) in held.iter_mut().zip(start..end) {
                let key: Value = docs.entry(i as isize)?;
                paths.push(String::try_convert(key)?);
                // A key gone meanwhile (another thread, while a part was
                // searched without the GVL) has no text to search.
                let value = texts.get(key).unwrap_or_else(|| ruby.qnil().as_value());
                files.push(None);
                if let Some(text) = RString::from_value(value) {
                    *slot = Some(text);
                } else if !value.is_nil() {
                    files[i - start] = Some(opened_file(ruby, value)?);
                }
            }
            // Its address escapes before the call, so the compiler keeps the
            // strings in that stack memory through it.
            std::hint::black_box(&held);
            let part: Vec<(String, Content<Cow<'_, [u8]>>)> = paths
                .into_iter()
                .zip(held.iter())
                .zip(files)
                .map(|((path, text), file)| {
                    let content = match (text, file) {
                        (Some(text), _) => Content::Text(text_of(text)),
                        (None, Some(file)) => Content::File(file),
                        (None, None) => Content::NoText,
                    };
                    (path, content)
                })
                .collect();
            // A call that nogvl starts again after an interrupt that raised
            // nothing skips the texts the report already took (`fed`), so
            // no file is added twice.
            rb_self.0.lock().fed = 0;
            let more = nogvl(ruby, |cancel| {
                let mut state = rb_self.0.lock();
                let State {
                    search,
                    report,
                    fed,
                    ..
                } = &mut *state;
                match report.as_mut() {
                    Some(report) => search.feed_contents_from(report, &part, cancel, fed),
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

    /// Starts searching the file at `path` from the chunks `stream_push`
    /// hands in (a blob as it downloads), after the texts fed so far and
    /// before those fed next.
    fn stream_start(ruby: &Ruby, rb_self: &Self, path: String) -> Result<(), Error> {
        let mut state = rb_self.0.lock();
        if state.stream.is_some() {
            return Err(Error::new(
                ruby.exception_runtime_error(),
                "a file is being streamed already: call stream_finish first",
            ));
        }
        if state.report.is_none() {
            return Err(finished(ruby));
        }
        let stream = state.search.stream(path);
        state.stream = Some(stream);
        Ok(())
    }

    /// Searches the lines `chunk` completes of the file being streamed
    /// (copied, then searched without the GVL); false once the file takes
    /// no more bytes (the deadline, a cap, its search over): stop the
    /// download then, and call stream_finish.
    fn stream_push(ruby: &Ruby, rb_self: &Self, chunk: RString) -> Result<bool, Error> {
        // SAFETY: copied at once, before any Ruby code runs.
        let bytes = unsafe { chunk.as_slice() }.to_vec();
        // A chunk is searched whole (milliseconds): the work never looks at
        // the cancel flag, so nogvl runs it once, and an interrupt stops
        // the caller between two pushes.
        nogvl(ruby, |_| {
            let mut state = rb_self.0.lock();
            let State {
                search,
                report,
                stream,
                ..
            } = &mut *state;
            Ok(match (stream.as_mut(), report.as_ref()) {
                (Some(stream), Some(report)) => Some(stream.push(search, report, &bytes)),
                _ => None,
            })
        })?
        .ok_or_else(|| {
            Error::new(
                ruby.exception_runtime_error(),
                "no file is being streamed: call stream_start first",
            )
        })
    }

    /// Ends the file being streamed and adds what was found in it; false
    /// once the search stopped, as feed answers.
    fn stream_finish(ruby: &Ruby, rb_self: &Self) -> Result<bool, Error> {
        let Some(stream) = rb_self.0.lock().stream.take() else {
            return Err(Error::new(
                ruby.exception_runtime_error(),
                "no file is being streamed: call stream_start first",
            ));
        };
        // The stream moves into the work, which runs once (it never looks
        // at the cancel flag): the cell hands it over on the first run.
        let cell = Mutex::new(Some(stream));
        nogvl(ruby, |_| {
            let mut state = rb_self.0.lock();
            let State { search, report, .. } = &mut *state;
            Ok(match (cell.lock().take(), report.as_mut()) {
                (Some(stream), Some(report)) => stream.finish(search, report),
                _ => false,
            })
        })
    }

    /// Whether the search is past its deadline (a store downloading a file
    /// for it stops then; the next feed reports the deadline).
    fn expired(rb_self: &Self) -> bool {
        rb_self.0.lock().search.past_deadline()
    }

    /// What the search found (its `text` is the output); the search cannot
    /// be fed after.
    fn finish(ruby: &Ruby, rb_self: &Self) -> Result<SearchReport, Error> {
        let report = rb_self.0.lock().report.take();
        match report {
            Some(report) => guarded(ruby, || Ok(SearchReport(report.finish()))),
            None => Err(finished(ruby)),
        }
    }
}

fn finished(ruby: &Ruby) -> Error {
    Error::new(ruby.exception_runtime_error(), "this search has finished")
}

/// A file of its own for the open IO `io` (a File or Tempfile), which the
/// search reads without the GVL while Ruby may close the IO.
fn opened_file(ruby: &Ruby, io: Value) -> Result<File, Error> {
    let fd: i32 = io.funcall("fileno", ())?;
    // SAFETY: `fileno` answered, so `fd` is the IO's open descriptor, and it
    // stays open until `try_clone_to_owned` (dup) returns: this thread holds
    // the GVL throughout, so no Ruby code can close the IO meanwhile.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    let owned = borrowed
        .try_clone_to_owned()
        .map_err(|e| Error::new(ruby.exception_io_error(), e.to_string()))?;
    Ok(File::from(owned))
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
    class.define_method("expired?", method!(TextSearch::expired, 0))?;
    class.define_method("stream_start", method!(TextSearch::stream_start, 1))?;
    class.define_method("stream_push", method!(TextSearch::stream_push, 1))?;
    class.define_method("stream_finish", method!(TextSearch::stream_finish, 0))?;
    class.define_method("finish", method!(TextSearch::finish, 0))?;
    Ok(())
}
