//! `RubyLLM::FileStores::Native::PatchOutcome`: what `Patch#apply` gives,
//! read by name (`applied?`, `content`, or `failure`, `hunk`, `header`,
//! `first_line`, `from`, `end_of_file?`, `lines`, `count`, `size`).
//! Internal: the apply_patch tool words it for the model.

use file_stores_store::patch::HunkError;
use magnus::gc::Marker;
use magnus::value::Opaque;
use magnus::{
    method, prelude::*, DataTypeFunctions, Error, RModule, RString, Ruby, Symbol, TypedData,
};

#[derive(TypedData)]
#[magnus(
    class = "RubyLLM::FileStores::Native::PatchOutcome",
    free_immediately,
    size,
    mark
)]
pub struct PatchOutcome {
    /// The new content, when every hunk applied (marked: see `mark`).
    content: Option<Opaque<RString>>,
    failure: Option<HunkError>,
}

impl DataTypeFunctions for PatchOutcome {
    fn mark(&self, marker: &Marker) {
        if let Some(content) = self.content {
            marker.mark(content);
        }
    }
}

impl PatchOutcome {
    pub fn applied(content: RString) -> Self {
        PatchOutcome {
            content: Some(content.into()),
            failure: None,
        }
    }

    pub fn failed(failure: HunkError) -> Self {
        PatchOutcome {
            content: None,
            failure: Some(failure),
        }
    }

    fn is_applied(&self) -> bool {
        self.failure.is_none()
    }

    fn content(ruby: &Ruby, rb_self: &Self) -> Option<RString> {
        rb_self.content.map(|content| ruby.get_inner(content))
    }

    /// :header_missing, :lines_missing, :ambiguous, :too_large or
    /// :out_of_time; nil when applied.
    fn failure(ruby: &Ruby, rb_self: &Self) -> Option<Symbol> {
        rb_self.failure.as_ref().map(|failure| {
            ruby.to_symbol(match failure {
                HunkError::HeaderMissing { .. } => "header_missing",
                HunkError::LinesMissing { .. } => "lines_missing",
                HunkError::Ambiguous { .. } => "ambiguous",
                HunkError::TooLarge { .. } => "too_large",
                HunkError::OutOfTime { .. } => "out_of_time",
            })
        })
    }

    /// The hunk that failed, from 0 in its file's hunks (nil for :too_large).
    fn hunk(&self) -> Option<usize> {
        match self.failure {
            Some(HunkError::HeaderMissing { hunk, .. })
            | Some(HunkError::LinesMissing { hunk, .. })
            | Some(HunkError::Ambiguous { hunk, .. })
            | Some(HunkError::OutOfTime { hunk }) => Some(hunk),
            _ => None,
        }
    }

    /// The `@@` header not found, for :header_missing.
    fn header(&self) -> Option<String> {
        match &self.failure {
            Some(HunkError::HeaderMissing { header, .. }) => Some(header.clone()),
            _ => None,
        }
    }

    /// The first line the hunk expects, for :lines_missing.
    fn first_line(&self) -> Option<String> {
        match &self.failure {
            Some(HunkError::LinesMissing { first, .. }) => Some(first.clone()),
            _ => None,
        }
    }

    /// The line (from 1) the search started at.
    fn from(&self) -> Option<usize> {
        match self.failure {
            Some(HunkError::HeaderMissing { from, .. })
            | Some(HunkError::LinesMissing { from, .. }) => Some(from),
            _ => None,
        }
    }

    fn end_of_file(&self) -> bool {
        matches!(
            self.failure,
            Some(HunkError::LinesMissing {
                end_of_file: true,
                ..
            })
        )
    }

    /// The first lines (from 1) an ambiguous hunk matches at.
    fn lines(&self) -> Option<Vec<usize>> {
        match &self.failure {
            Some(HunkError::Ambiguous { lines, .. }) => Some(lines.clone()),
            _ => None,
        }
    }

    /// How many places an ambiguous hunk matches.
    fn count(&self) -> Option<usize> {
        match self.failure {
            Some(HunkError::Ambiguous { count, .. }) => Some(count),
            _ => None,
        }
    }

    /// The bytes the content would grow to, for :too_large.
    fn size(&self) -> Option<usize> {
        match self.failure {
            Some(HunkError::TooLarge { size }) => Some(size),
            _ => None,
        }
    }
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("PatchOutcome", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_method("applied?", method!(PatchOutcome::is_applied, 0))?;
    class.define_method("content", method!(PatchOutcome::content, 0))?;
    class.define_method("failure", method!(PatchOutcome::failure, 0))?;
    class.define_method("hunk", method!(PatchOutcome::hunk, 0))?;
    class.define_method("header", method!(PatchOutcome::header, 0))?;
    class.define_method("first_line", method!(PatchOutcome::first_line, 0))?;
    class.define_method("from", method!(PatchOutcome::from, 0))?;
    class.define_method("end_of_file?", method!(PatchOutcome::end_of_file, 0))?;
    class.define_method("lines", method!(PatchOutcome::lines, 0))?;
    class.define_method("count", method!(PatchOutcome::count, 0))?;
    class.define_method("size", method!(PatchOutcome::size, 0))?;
    Ok(())
}
