//! `RubyLLM::FileStores::Native::Patch`: a V4A patch parsed in Rust (see
//! `file_stores_store::patch`), its files read by index, and each Update's
//! hunks applied to a file's text without the GVL. Internal: the
//! apply_patch tool checks the files, words the failures and writes.

use std::time::{Duration, Instant};

use file_stores_store::patch::{self, FileOp};
use magnus::{function, method, prelude::*, Error, RModule, RString, Ruby, Symbol};

use crate::nogvl::{guarded, nogvl};
use crate::patch_outcome::PatchOutcome;

#[magnus::wrap(class = "RubyLLM::FileStores::Native::Patch", free_immediately, size)]
pub struct Patch {
    ops: Vec<FileOp>,
}

impl Patch {
    /// Parses `text`; ArgumentError naming the line when it is not a patch.
    fn parse(ruby: &Ruby, text: RString) -> Result<Self, Error> {
        // SAFETY: copied at once, before any Ruby code runs.
        let bytes = unsafe { text.as_slice() }.to_vec();
        let parsed = nogvl(ruby, |_| {
            Ok(match std::str::from_utf8(&bytes) {
                Ok(text) => patch::parse(text).map_err(|e| e.to_string()),
                Err(_) => Err("the patch is not UTF-8 text".to_string()),
            })
        })?;
        match parsed {
            Ok(ops) => Ok(Patch { ops }),
            Err(message) => Err(Error::new(ruby.exception_arg_error(), message)),
        }
    }

    fn op<'a>(ruby: &Ruby, rb_self: &'a Self, index: usize) -> Result<&'a FileOp, Error> {
        rb_self.ops.get(index).ok_or_else(|| {
            Error::new(
                ruby.exception_index_error(),
                format!("no file {index} in a patch of {}", rb_self.ops.len()),
            )
        })
    }

    fn size(&self) -> usize {
        self.ops.len()
    }

    /// :add, :delete or :update.
    fn kind(ruby: &Ruby, rb_self: &Self, index: usize) -> Result<Symbol, Error> {
        guarded(ruby, || {
            Ok(ruby.to_symbol(match Self::op(ruby, rb_self, index)? {
                FileOp::Add { .. } => "add",
                FileOp::Delete { .. } => "delete",
                FileOp::Update { .. } => "update",
            }))
        })
    }

    /// The path as the patch names it.
    fn path(ruby: &Ruby, rb_self: &Self, index: usize) -> Result<String, Error> {
        guarded(ruby, || {
            Ok(Self::op(ruby, rb_self, index)?.path().to_string())
        })
    }

    /// An Update's `*** Move to:` path, or nil.
    fn move_to(ruby: &Ruby, rb_self: &Self, index: usize) -> Result<Option<String>, Error> {
        guarded(ruby, || {
            Ok(match Self::op(ruby, rb_self, index)? {
                FileOp::Update { move_to, .. } => move_to.clone(),
                _ => None,
            })
        })
    }

    /// An Update's number of hunks (0 for the others).
    fn hunk_count(ruby: &Ruby, rb_self: &Self, index: usize) -> Result<usize, Error> {
        guarded(ruby, || {
            Ok(match Self::op(ruby, rb_self, index)? {
                FileOp::Update { hunks, .. } => hunks.len(),
                _ => 0,
            })
        })
    }

    /// An Add's content (binary), or nil.
    fn added_content(ruby: &Ruby, rb_self: &Self, index: usize) -> Result<Option<RString>, Error> {
        guarded(ruby, || {
            Ok(Self::op(ruby, rb_self, index)?
                .added_content()
                .map(|bytes| ruby.str_from_slice(&bytes)))
        })
    }

    /// Applies the hunks of the Update at `index` to the text of a file
    /// whose bytes are `content`: a [`PatchOutcome`], the new content in the
    /// file's encoding, at most `max` bytes, placing the hunks for at most
    /// `seconds` (nil: no deadline; 0 or less: none left). A UTF-16 or
    /// UTF-32 file that could not be written back as it was raises
    /// ConversionError.
    fn apply(
        ruby: &Ruby,
        rb_self: &Self,
        index: usize,
        content: RString,
        max: usize,
        seconds: Option<f64>,
    ) -> Result<PatchOutcome, Error> {
        let deadline =
            seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 86_400.0)));
        let op = guarded(ruby, || Self::op(ruby, rb_self, index))?;
        let FileOp::Update { hunks, .. } = op else {
            return Err(Error::new(
                ruby.exception_arg_error(),
                format!("file {index} of the patch is not an Update"),
            ));
        };
        // SAFETY: copied at once, before any Ruby code runs.
        let bytes = unsafe { content.as_slice() }.to_vec();
        let max = max.min(file_stores_store::edit::MAX_RESULT);
        let outcome = nogvl(ruby, |cancel| {
            patch::apply_to_file(&bytes, hunks, max, deadline, cancel)
        })?;
        drop(bytes);
        guarded(ruby, || {
            Ok(match outcome {
                Ok(new) => PatchOutcome::applied(ruby.str_from_slice(&new)),
                Err(failure) => PatchOutcome::failed(failure),
            })
        })
    }
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("Patch", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_singleton_method("parse", function!(Patch::parse, 1))?;
    class.define_method("size", method!(Patch::size, 0))?;
    class.define_method("kind", method!(Patch::kind, 1))?;
    class.define_method("path", method!(Patch::path, 1))?;
    class.define_method("move_to", method!(Patch::move_to, 1))?;
    class.define_method("hunk_count", method!(Patch::hunk_count, 1))?;
    class.define_method("added_content", method!(Patch::added_content, 1))?;
    class.define_method("apply", method!(Patch::apply, 4))?;
    class.const_set("MAX_BYTES", patch::MAX_PATCH_BYTES)?;
    class.const_set("MAX_HUNKS", patch::MAX_HUNKS)?;
    class.const_set("MAX_FILES", patch::MAX_FILES)?;
    Ok(())
}
