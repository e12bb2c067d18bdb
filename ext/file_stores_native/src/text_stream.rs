//! `RubyLLM::FileStores::Native::TextStream`: a file's bytes fed in chunks
//! as a store gets them (a download with a block, an IO read in parts),
//! giving the window of its lines, its sha256 and its line index without
//! the whole file in memory (see `file_stores_store::line_window::TextStream`).
//! Internal: the Active Storage store reads and writes big files through it.

use file_stores_store::line_window::{self, Finished};
use magnus::{function, method, prelude::*, Error, RHash, RModule, RString, Ruby, Value};
use parking_lot::Mutex;

use crate::nogvl::{guarded, nogvl};
use crate::stored_file;

enum State {
    Open(Box<line_window::TextStream>),
    Finished(Box<Finished>),
    /// Between the two, only if finishing panicked.
    Gone,
}

#[magnus::wrap(
    class = "RubyLLM::FileStores::Native::TextStream",
    free_immediately,
    size
)]
pub struct TextStream(Mutex<State>);

/// The keys of `start`'s second argument.
const OPTION_FIELDS: [&str; 3] = ["from_line", "digest", "index"];

impl TextStream {
    /// `start({ offset:, limit:, max_chars: }, { from_line:, digest:, index: })`:
    /// a stream from the file's start (`from_line: nil`), hashing and
    /// indexing as asked; or from the start of line `from_line`, an entry of
    /// the file's index, which neither hashes nor indexes.
    fn start(ruby: &Ruby, window: RHash, options: RHash) -> Result<Self, Error> {
        let (first, limit, budget) = stored_file::window_arguments(ruby, window)?;
        let (mut from_line, mut digest, mut index) = (None::<u64>, false, false);
        crate::fields::read(
            ruby,
            options,
            "text stream",
            &OPTION_FIELDS,
            |name, value| {
                match name {
                    "from_line" => from_line = magnus::TryConvert::try_convert(value)?,
                    "digest" => digest = magnus::TryConvert::try_convert(value)?,
                    "index" => index = magnus::TryConvert::try_convert(value)?,
                    _ => {} // fields::read passes only OPTION_FIELDS
                }
                Ok(())
            },
        )?;
        let stream = match from_line {
            Some(at) if at > first => {
                return Err(Error::new(
                    ruby.exception_arg_error(),
                    format!("from_line {at} is past offset {first}"),
                ))
            }
            Some(at) => line_window::TextStream::from_line(at, first, limit, budget),
            None => line_window::TextStream::new(first, limit, budget, digest, index),
        };
        Ok(TextStream(Mutex::new(State::Open(Box::new(stream)))))
    }

    /// Takes the next `chunk` (copied, then read without the GVL); returns
    /// whether more bytes are wanted.
    fn push(ruby: &Ruby, rb_self: &Self, chunk: RString) -> Result<bool, Error> {
        // SAFETY: copied at once, before any Ruby code runs.
        let bytes = unsafe { chunk.as_slice() }.to_vec();
        // The work never looks at the cancel flag (a chunk takes
        // milliseconds), so nogvl runs it exactly once.
        nogvl(ruby, |_| {
            let mut state = rb_self.0.lock();
            Ok(match &mut *state {
                State::Open(stream) => Some(stream.push(&bytes)),
                _ => None,
            })
        })?
        .ok_or_else(|| finished(ruby))
    }

    /// Ends the stream: the `RubyLLM::FileStore::LineWindow`, with the
    /// digest when the stream hashed.
    fn finish(ruby: &Ruby, rb_self: &Self) -> Result<Value, Error> {
        let mut state = rb_self.0.lock();
        let State::Open(stream) = std::mem::replace(&mut *state, State::Gone) else {
            return Err(finished(ruby));
        };
        let done = guarded(ruby, || Ok(Box::new(stream.finish())))?;
        let window = stored_file::line_window(ruby, &done.window, done.digest.as_deref());
        *state = State::Finished(done);
        window
    }

    /// The sha256 of the bytes, once finished (nil when not hashed).
    fn digest(ruby: &Ruby, rb_self: &Self) -> Result<Option<String>, Error> {
        Self::with_finished(ruby, rb_self, |done| Ok(done.digest.clone()))
    }

    /// How many bytes were pushed, once finished.
    fn byte_size(ruby: &Ruby, rb_self: &Self) -> Result<u64, Error> {
        Self::with_finished(ruby, rb_self, |done| Ok(done.byte_size))
    }

    /// `{ "lines" => [...], "offsets" => [...], "total" => n }` once
    /// finished, or nil (not indexed, or not UTF-8).
    fn line_index(ruby: &Ruby, rb_self: &Self) -> Result<Option<RHash>, Error> {
        Self::with_finished(ruby, rb_self, |done| {
            let Some(index) = &done.index else {
                return Ok(None);
            };
            let hash = ruby.hash_new();
            hash.aset("lines", ruby.ary_from_vec(index.lines.clone()))?;
            hash.aset("offsets", ruby.ary_from_vec(index.offsets.clone()))?;
            hash.aset("total", index.total)?;
            Ok(Some(hash))
        })
    }

    fn with_finished<T>(
        ruby: &Ruby,
        rb_self: &Self,
        read: impl FnOnce(&Finished) -> Result<T, Error>,
    ) -> Result<T, Error> {
        match &*rb_self.0.lock() {
            State::Finished(done) => read(done),
            _ => Err(Error::new(
                ruby.exception_runtime_error(),
                "this text stream has not finished",
            )),
        }
    }
}

fn finished(ruby: &Ruby) -> Error {
    Error::new(
        ruby.exception_runtime_error(),
        "this text stream has finished",
    )
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("TextStream", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("start", function!(TextStream::start, 2))?;
    class.define_method("push", method!(TextStream::push, 1))?;
    class.define_method("finish", method!(TextStream::finish, 0))?;
    class.define_method("digest", method!(TextStream::digest, 0))?;
    class.define_method("byte_size", method!(TextStream::byte_size, 0))?;
    class.define_method("line_index", method!(TextStream::line_index, 0))?;
    native.const_set("LINE_INDEX_STEP", line_window::INDEX_STEP)?;
    Ok(())
}
