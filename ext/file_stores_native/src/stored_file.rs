//! Ruby value objects the binding returns, made through their own `new`
//! with keywords, so `initialize` checks and freezes them as it does for
//! every store and a field renamed on one side is an ArgumentError, not a
//! wrong value: `RubyLLM::StoredFile` (from the core's `FileInfo`),
//! `RubyLLM::FileStore::LineWindow` and `RubyLLM::FileStore::Listing`.

use file_stores_store::line_window::LineWindow;
use file_stores_store::FileInfo;
use magnus::value::ReprValue;
use magnus::{
    prelude::*, Error, IntoValue, KwArgs, RArray, RClass, RHash, Ruby, Symbol, TryConvert, Value,
};

/// The class at `path` ("RubyLLM::StoredFile"), loaded if it autoloads.
pub fn class(ruby: &Ruby, path: &str) -> Result<RClass, Error> {
    ruby.class_object().funcall("const_get", (path,))
}

/// `class.new(**fields)`.
pub fn new_with(ruby: &Ruby, class: RClass, fields: &[(Symbol, Value)]) -> Result<Value, Error> {
    let keywords = ruby.hash_new();
    for (name, value) in fields {
        keywords.aset(*name, *value)?;
    }
    class.new_instance((KwArgs(keywords),))
}

/// Makes StoredFiles for one call.
pub struct StoredFileBuilder<'r> {
    ruby: &'r Ruby,
    class: RClass,
    /// path, byte_size, content_type, digest, updated_at
    keys: [Symbol; 5],
}

impl<'r> StoredFileBuilder<'r> {
    pub fn new(ruby: &'r Ruby) -> Result<Self, Error> {
        Ok(StoredFileBuilder {
            ruby,
            class: class(ruby, "RubyLLM::StoredFile")?,
            keys: ["path", "byte_size", "content_type", "digest", "updated_at"]
                .map(|k| ruby.to_symbol(k)),
        })
    }

    /// `StoredFile.new(path:, byte_size:, content_type:, digest:, updated_at:)`.
    pub fn build(&mut self, f: &FileInfo) -> Result<Value, Error> {
        let ruby = self.ruby;
        let updated_at = ruby.time_nano_new(f.mtime_sec, i64::from(f.mtime_nsec))?;
        let [path, byte_size, content_type, digest, updated] = self.keys;
        let keywords: RHash = ruby.hash_new();
        // Frozen here, so StoredFile keeps them without a copy.
        let path_string = ruby.str_new(&f.path);
        path_string.freeze();
        keywords.aset(path, path_string)?;
        keywords.aset(byte_size, f.byte_size)?;
        keywords.aset(content_type, ruby.str_new(f.content_type))?;
        let digest_string = ruby.str_new(&f.digest);
        digest_string.freeze();
        keywords.aset(digest, digest_string)?;
        keywords.aset(updated, updated_at)?;
        Ok(self.class.new_instance((KwArgs(keywords),))?.as_value())
    }

    pub fn build_all(&mut self, files: &[FileInfo]) -> Result<RArray, Error> {
        let list = self.ruby.ary_new_capa(files.len());
        for f in files {
            list.push(self.build(f)?)?;
        }
        Ok(list)
    }

    pub fn build_optional(&mut self, f: Option<FileInfo>) -> Result<Value, Error> {
        match f {
            Some(f) => self.build(&f),
            None => Ok(self.ruby.qnil().as_value()),
        }
    }
}

/// A value as a field of [`new_with`].
pub fn field(ruby: &Ruby, name: &str, value: impl IntoValue) -> (Symbol, Value) {
    (ruby.to_symbol(name), value.into_value_with(ruby))
}

/// The keys of a line window's arguments.
const WINDOW_FIELDS: [&str; 3] = ["offset", "limit", "max_chars"];

/// A line window's arguments (`{ offset:, limit:, max_chars: }`, the last
/// two nil for none): the first line (from 1), the limit, the budget.
pub fn window_arguments(
    ruby: &Ruby,
    window: RHash,
) -> Result<(u64, Option<u64>, Option<u64>), Error> {
    let (mut first, mut limit, mut budget) = (1, None, None);
    crate::fields::read(
        ruby,
        window,
        "line window",
        &WINDOW_FIELDS,
        |name, value| {
            match name {
                "offset" => first = TryConvert::try_convert(value)?,
                "limit" => limit = TryConvert::try_convert(value)?,
                "max_chars" => budget = TryConvert::try_convert(value)?,
                _ => {} // fields::read passes only WINDOW_FIELDS
            }
            Ok(())
        },
    )?;
    Ok((first, limit, budget))
}

/// A `RubyLLM::FileStore::LineWindow` of `window`, with `digest` (nil when `None`).
pub fn line_window(ruby: &Ruby, window: &LineWindow, digest: Option<&str>) -> Result<Value, Error> {
    let class = class(ruby, "RubyLLM::FileStore::LineWindow")?;
    new_with(
        ruby,
        class,
        &[
            field(ruby, "text", ruby.str_new(&window.text)),
            field(ruby, "shown", window.shown),
            field(ruby, "total", window.total),
            field(ruby, "cut", window.cut),
            field(ruby, "digest", digest),
        ],
    )
}
