//! `RubyLLM::FileStores::Native::EditOutcome`: what `Native.apply_edits`
//! gives, read by name (`applied?`, `content`, `counts`, or `failure`,
//! `index`, `count`, `size`). Internal: the edit_file tool words it for
//! the model.

use file_stores_store::edit::EditError;
use magnus::gc::Marker;
use magnus::value::Opaque;
use magnus::{
    method, prelude::*, DataTypeFunctions, Error, RModule, RString, Ruby, Symbol, TypedData,
};

#[derive(TypedData)]
#[magnus(
    class = "RubyLLM::FileStores::Native::EditOutcome",
    free_immediately,
    size,
    mark
)]
pub struct EditOutcome {
    /// The new content, when every edit applied (marked: see `mark`).
    content: Option<Opaque<RString>>,
    /// Replacements made by each edit, in order.
    counts: Vec<usize>,
    failure: Option<EditError>,
}

impl DataTypeFunctions for EditOutcome {
    fn mark(&self, marker: &Marker) {
        if let Some(content) = self.content {
            marker.mark(content);
        }
    }
}

impl EditOutcome {
    pub fn applied(content: RString, counts: Vec<usize>) -> Self {
        EditOutcome {
            content: Some(content.into()),
            counts,
            failure: None,
        }
    }

    pub fn failed(failure: EditError) -> Self {
        EditOutcome {
            content: None,
            counts: Vec::new(),
            failure: Some(failure),
        }
    }

    fn is_applied(&self) -> bool {
        self.failure.is_none()
    }

    fn content(ruby: &Ruby, rb_self: &Self) -> Option<RString> {
        rb_self.content.map(|content| ruby.get_inner(content))
    }

    fn counts(&self) -> Option<Vec<usize>> {
        self.is_applied().then(|| self.counts.clone())
    }

    /// :not_found, :ambiguous, :empty_old or :too_large; nil when applied.
    fn failure(ruby: &Ruby, rb_self: &Self) -> Option<Symbol> {
        rb_self.failure.as_ref().map(|failure| {
            ruby.to_symbol(match failure {
                EditError::NotFound { .. } => "not_found",
                EditError::Ambiguous { .. } => "ambiguous",
                EditError::EmptyOld { .. } => "empty_old",
                EditError::TooLarge { .. } => "too_large",
            })
        })
    }

    /// The position of the edit that failed in the list given.
    fn index(&self) -> Option<usize> {
        self.failure.as_ref().map(|failure| match *failure {
            EditError::NotFound { index }
            | EditError::Ambiguous { index, .. }
            | EditError::EmptyOld { index }
            | EditError::TooLarge { index, .. } => index,
        })
    }

    /// How many times old_text appears, for :ambiguous.
    fn count(&self) -> Option<usize> {
        match self.failure {
            Some(EditError::Ambiguous { count, .. }) => Some(count),
            _ => None,
        }
    }

    /// The bytes the content would grow to, for :too_large.
    fn size(&self) -> Option<usize> {
        match self.failure {
            Some(EditError::TooLarge { size, .. }) => Some(size),
            _ => None,
        }
    }
}

pub fn init(ruby: &Ruby, native: RModule) -> Result<(), Error> {
    let class = native.define_class("EditOutcome", ruby.class_object())?;
    class.undef_default_alloc_func();
    class.define_method("applied?", method!(EditOutcome::is_applied, 0))?;
    class.define_method("content", method!(EditOutcome::content, 0))?;
    class.define_method("counts", method!(EditOutcome::counts, 0))?;
    class.define_method("failure", method!(EditOutcome::failure, 0))?;
    class.define_method("index", method!(EditOutcome::index, 0))?;
    class.define_method("count", method!(EditOutcome::count, 0))?;
    class.define_method("size", method!(EditOutcome::size, 0))?;
    Ok(())
}
