//! `RubyLLM::FileStores::Native::DirCore`: the native half of
//! `RubyLLM::NativeDir`. Its methods are internal: the Ruby class checks
//! arguments and carries the documentation.
//!
//! Results travel to Ruby as the gem's own value objects, made with their
//! `new` and keywords (see `stored_file.rs`).

use std::collections::HashMap;
use std::path::PathBuf;

use file_stores_search::Search;
use file_stores_store::path::normalize_folder;
use file_stores_store::DirStore;
use magnus::{function, method, prelude::*, Error, RArray, RHash, RModule, RString, Ruby, Value};
use parking_lot::Mutex;

use crate::nogvl::{guarded, nogvl};
use crate::search_options::{self, Request};
use crate::search_report::SearchReport;
use crate::stored_file::{self, field, StoredFileBuilder};

/// The bytes `each_chunk` yields at a time, and `write_io` asks its IO for.
const CHUNK: usize = 1024 * 1024;

#[magnus::wrap(class = "RubyLLM::FileStores::Native::DirCore", free_immediately, size)]
pub struct DirCore {
    store: DirStore,
}

impl DirCore {
    fn open(ruby: &Ruby, root: String, max_bytes: Option<u64>) -> Result<Self, Error> {
        let root = PathBuf::from(root);
        let store = nogvl(ruby, |_| DirStore::open(&root, max_bytes))?;
        Ok(DirCore { store })
    }

    fn root(ruby: &Ruby, rb_self: &Self) -> Result<String, Error> {
        guarded(ruby, || {
            Ok(rb_self.store.root().to_string_lossy().into_owned())
        })
    }

    /// A `RubyLLM::FileStore::Listing`: the StoredFiles in `folder`, and
    /// the paths (escaped) the walk left out because a store path cannot
    /// hold their names (`unnamed`), or reach that deep (`deep`).
    fn list(ruby: &Ruby, rb_self: &Self, folder: String) -> Result<Value, Error> {
        let (files, skipped) = nogvl(ruby, |cancel| rb_self.store.list_noting(&folder, cancel))?;
        guarded(ruby, || {
            let files = StoredFileBuilder::new(ruby)?.build_all(&files)?;
            let listing = stored_file::class(ruby, "RubyLLM::FileStore::Listing")?;
            stored_file::new_with(
                ruby,
                listing,
                &[
                    field(ruby, "files", files),
                    field(ruby, "unnamed", ruby.ary_from_vec(skipped.names)),
                    field(ruby, "deep", ruby.ary_from_vec(skipped.deep)),
                ],
            )
        })
    }

    fn stat(ruby: &Ruby, rb_self: &Self, path: String) -> Result<Value, Error> {
        let file = nogvl(ruby, |cancel| rb_self.store.stat(&path, cancel))?;
        guarded(ruby, || StoredFileBuilder::new(ruby)?.build_optional(file))
    }

    fn read(ruby: &Ruby, rb_self: &Self, path: String) -> Result<RString, Error> {
        let bytes = nogvl(ruby, |cancel| rb_self.store.read(&path, cancel))?;
        guarded(ruby, || Ok(ruby.str_from_slice(&bytes)))
    }

    /// A `RubyLLM::FileStore::LineWindow` of the file's lines (see
    /// `DirStore::read_lines`; UTF-16 is transcoded as it is read). `window`
    /// holds `offset` (the first line, from 1), `limit` and `max_chars`
    /// (each nil for none), by name.
    fn read_lines(
        ruby: &Ruby,
        rb_self: &Self,
        path: String,
        window: RHash,
    ) -> Result<Value, Error> {
        let (first, limit, budget) = stored_file::window_arguments(ruby, window)?;
        let read = nogvl(ruby, |cancel| {
            rb_self
                .store
                .read_lines(&path, first, limit, budget, cancel)
        })?;
        guarded(ruby, || {
            stored_file::line_window(ruby, &read.window, Some(read.digest.as_str()))
        })
    }

    fn write(
        ruby: &Ruby,
        rb_self: &Self,
        path: String,
        content: RString,
        owner: u64,
    ) -> Result<Value, Error> {
        // SAFETY: the slice is copied at once, before any Ruby code can run
        // and change or free the string's buffer.
        let bytes = unsafe { content.as_slice() }.to_vec();
        let file = nogvl(ruby, |cancel| {
            rb_self.store.write(&path, &bytes, owner, cancel)
        })?;
        guarded(ruby, || StoredFileBuilder::new(ruby)?.build(&file))
    }

    /// Writes what `io` reads, `io.read(CHUNK, buffer)` at a time until
    /// it gives nil (or ""), through the same [`DirStore::start_write`] as
    /// `write`: the lock held, the cap counted and the digest hashed as the
    /// chunks come, each written without the GVL. An exception from `io`
    /// drops the write, which removes its temporary file and frees the lock.
    fn write_io(
        ruby: &Ruby,
        rb_self: &Self,
        path: String,
        io: Value,
        owner: u64,
    ) -> Result<Value, Error> {
        let writing = nogvl(ruby, |cancel| {
            rb_self.store.start_write(&path, owner, cancel)
        })?;
        let writing = Mutex::new(writing);
        let buffer = ruby.str_buf_new(CHUNK);
        loop {
            let got: Value = io.funcall("read", (CHUNK, buffer))?;
            if got.is_nil() {
                break;
            }
            let Some(chunk) = RString::from_value(got) else {
                return Err(Error::new(
                    ruby.exception_arg_error(),
                    format!(
                        "content's read gave a {}, not a String or nil",
                        got.class().inspect()
                    ),
                ));
            };
            // SAFETY: copied at once, before any Ruby code can run and
            // change or free the string's buffer.
            let bytes = unsafe { chunk.as_slice() }.to_vec();
            if bytes.is_empty() {
                break;
            }
            // The work never looks at the cancel flag, so it runs once.
            nogvl(ruby, |_| writing.lock().push(&bytes))?;
        }
        let file = nogvl(ruby, |_| writing.lock().finish())?;
        guarded(ruby, || StoredFileBuilder::new(ruby)?.build(&file))
    }

    /// Yields the file's bytes in Strings of up to CHUNK bytes, in order,
    /// each read without the GVL from the one descriptor opened (never
    /// following a link). The block may raise or break: the file closes.
    ///
    /// Each chunk is emptied when the block returns (unless the block froze
    /// it), as Active Storage's are: `String#clear` frees its bytes at
    /// once. Left to the GC, which runs by the count of objects made and
    /// sweeps lazily, one object per megabyte lets dead chunks pile up (a
    /// 300 MB copy peaked 70 MB over, as Ruby's own `read(1 MB)` loop
    /// does). A `dup` the block made keeps the bytes.
    fn each_chunk(ruby: &Ruby, rb_self: &Self, path: String) -> Result<(), Error> {
        let reader = Mutex::new(nogvl(ruby, |_| rb_self.store.chunk_reader(&path))?);
        let buffer = Mutex::new(vec![0u8; CHUNK]);
        loop {
            let n = nogvl(ruby, |cancel| {
                reader.lock().read(&mut buffer.lock(), cancel)
            })?;
            if n == 0 {
                return Ok(());
            }
            let chunk = guarded(ruby, || Ok(ruby.str_from_slice(&buffer.lock()[..n])))?;
            let _: Value = ruby.yield_value(chunk)?;
            if !chunk.is_frozen() {
                let _: Value = chunk.funcall("clear", ())?;
            }
        }
    }

    fn delete(ruby: &Ruby, rb_self: &Self, path: String, owner: u64) -> Result<Value, Error> {
        let file = nogvl(ruby, |cancel| rb_self.store.delete(&path, owner, cancel))?;
        guarded(ruby, || StoredFileBuilder::new(ruby)?.build_optional(file))
    }

    fn delete_folder(
        ruby: &Ruby,
        rb_self: &Self,
        folder: String,
        owner: u64,
    ) -> Result<RArray, Error> {
        let files = nogvl(ruby, |cancel| {
            rb_self.store.delete_folder(&folder, owner, cancel)
        })?;
        guarded(ruby, || StoredFileBuilder::new(ruby)?.build_all(&files))
    }

    /// Moves a file (returns its StoredFile) or a folder (an Array of the
    /// moved files, sorted by path), in one rename that never replaces.
    fn rename(
        ruby: &Ruby,
        rb_self: &Self,
        from: String,
        to: String,
        owner: u64,
    ) -> Result<Value, Error> {
        let moved = nogvl(ruby, |cancel| {
            rb_self.store.rename(&from, &to, owner, cancel)
        })?;
        guarded(ruby, || {
            let mut builder = StoredFileBuilder::new(ruby)?;
            match (moved.folder, moved.files.first()) {
                (false, Some(file)) => builder.build(file),
                _ => Ok(builder.build_all(&moved.files)?.as_value()),
            }
        })
    }

    fn lock(ruby: &Ruby, rb_self: &Self, owner: u64) -> Result<(), Error> {
        nogvl(ruby, |cancel| rb_self.store.lock().acquire(owner, cancel))
    }

    /// Takes the lock for `owner` if nobody else holds it, without waiting:
    /// false when it is held. NativeDir waits with it under a Fiber
    /// scheduler, sleeping in Ruby so the holder's fiber can run.
    fn try_lock(ruby: &Ruby, rb_self: &Self, owner: u64) -> Result<bool, Error> {
        nogvl(ruby, |_| rb_self.store.lock().try_acquire(owner))
    }

    fn unlock(ruby: &Ruby, rb_self: &Self, owner: u64) -> Result<bool, Error> {
        guarded(ruby, || Ok(rb_self.store.lock().release(owner)))
    }

    fn locked_by(ruby: &Ruby, rb_self: &Self, owner: u64) -> Result<bool, Error> {
        guarded(ruby, || Ok(rb_self.store.lock().held_by(owner)))
    }

    fn total_size(ruby: &Ruby, rb_self: &Self) -> Result<u64, Error> {
        nogvl(ruby, |cancel| rb_self.store.total_size(cancel))
    }

    /// Searches the folder: `search(request, texts)`, where `request` is
    /// read by [`Request::read`] and `texts` maps paths of files with no
    /// text of their own to the text extracted from them. Answers what it found (`SearchReport`).
    fn search(
        ruby: &Ruby,
        rb_self: &Self,
        request: RHash,
        texts: RHash,
    ) -> Result<SearchReport, Error> {
        let request = Request::read(ruby, request)?;
        let folder = nogvl(ruby, |_| normalize_folder(&request.folder))?;
        let glob = search_options::glob(ruby, request.glob.clone(), &folder, &request.glob_lead)?;
        let search = request.compile(ruby)?;
        let mut owned: HashMap<String, Vec<u8>> = HashMap::with_capacity(texts.len());
        guarded(ruby, || {
            texts.foreach(|path: String, text: RString| {
                // SAFETY: each text is copied at once, before any Ruby code runs.
                owned.insert(path, unsafe { text.as_slice() }.to_vec());
                Ok(magnus::r_hash::ForEach::Continue)
            })
        })?;
        let texts = owned;
        nogvl(ruby, |cancel| {
            search.folder(
                &rb_self.store.root_fd(),
                &folder,
                glob.as_ref(),
                &texts,
                cancel,
            )
        })
        .map(SearchReport)
    }

    /// The paths below `folder` (matching `glob`) whose format has no text
    /// of its own: the ones `search` wants extracted text for.
    fn files_needing_text(
        ruby: &Ruby,
        rb_self: &Self,
        folder: String,
        glob: Option<String>,
        glob_lead: String,
    ) -> Result<Vec<String>, Error> {
        let folder = nogvl(ruby, |_| normalize_folder(&folder))?;
        let glob = search_options::glob(ruby, glob, &folder, &glob_lead)?;
        nogvl(ruby, |cancel| {
            Search::files_needing_text(&rb_self.store.root_fd(), &folder, glob.as_ref(), cancel)
        })
    }

    fn max_bytes(ruby: &Ruby, rb_self: &Self) -> Result<Option<u64>, Error> {
        guarded(ruby, || Ok(rb_self.store.max_bytes()))
    }
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("DirCore", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("open", function!(DirCore::open, 2))?;
    class.define_method("root", method!(DirCore::root, 0))?;
    class.define_method("list", method!(DirCore::list, 1))?;
    class.define_method("stat", method!(DirCore::stat, 1))?;
    class.define_method("read", method!(DirCore::read, 1))?;
    class.define_method("read_lines", method!(DirCore::read_lines, 2))?;
    class.define_method("write", method!(DirCore::write, 3))?;
    class.define_method("write_io", method!(DirCore::write_io, 3))?;
    class.define_method("each_chunk", method!(DirCore::each_chunk, 1))?;
    class.define_method("delete", method!(DirCore::delete, 2))?;
    class.define_method("delete_folder", method!(DirCore::delete_folder, 2))?;
    class.define_method("rename", method!(DirCore::rename, 3))?;
    class.define_method("lock", method!(DirCore::lock, 1))?;
    class.define_method("try_lock", method!(DirCore::try_lock, 1))?;
    class.define_method("unlock", method!(DirCore::unlock, 1))?;
    class.define_method("locked_by?", method!(DirCore::locked_by, 1))?;
    class.define_method("total_size", method!(DirCore::total_size, 0))?;
    class.define_method("max_bytes", method!(DirCore::max_bytes, 0))?;
    class.define_method("search", method!(DirCore::search, 2))?;
    class.define_method(
        "files_needing_text",
        method!(DirCore::files_needing_text, 3),
    )?;
    Ok(())
}
