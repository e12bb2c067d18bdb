//! Builds `RubyLLM::StoredFile` objects from the core's `FileInfo`, without
//! a round trip through Ruby's `initialize`: listing 20,000 files spends
//! most of its time making these, so they are allocated here with their
//! instance variables set and frozen, exactly as `StoredFile#initialize`
//! leaves them (frozen strings, an Integer size, a Time).

use file_stores_store::FileInfo;
use magnus::value::{Id, ReprValue};
use magnus::{prelude::*, Error, RArray, RClass, RObject, RString, Ruby, TryConvert, Value};

/// Makes StoredFiles for one call; content-type strings are shared.
pub struct StoredFileBuilder<'r> {
    ruby: &'r Ruby,
    class: RClass,
    ids: [Id; 5],
    // Each string is reachable from the first StoredFile given it, which is
    // in the result the caller holds, so GC keeps it while it is reused.
    types: Vec<(&'static str, RString)>,
}

impl<'r> StoredFileBuilder<'r> {
    pub fn new(ruby: &'r Ruby) -> Result<Self, Error> {
        let class: RClass = ruby
            .class_object()
            .funcall("const_get", ("RubyLLM::StoredFile",))?;
        let ids = [
            "@path",
            "@byte_size",
            "@content_type",
            "@digest",
            "@updated_at",
        ]
        .map(|name| ruby.intern(name));
        Ok(StoredFileBuilder {
            ruby,
            class,
            ids,
            types: Vec::new(),
        })
    }

    fn content_type(&mut self, ty: &'static str) -> RString {
        if let Some((_, s)) = self.types.iter().find(|(t, _)| *t == ty) {
            return *s;
        }
        let s = self.ruby.str_new(ty);
        s.freeze();
        self.types.push((ty, s));
        s
    }

    pub fn build(&mut self, f: &FileInfo) -> Result<Value, Error> {
        let file = RObject::try_convert(self.class.obj_alloc()?)?;
        let path = self.ruby.str_new(&f.path);
        path.freeze();
        let digest = self.ruby.str_new(&f.digest);
        digest.freeze();
        let updated_at = self
            .ruby
            .time_nano_new(f.mtime_sec, i64::from(f.mtime_nsec))?;
        let content_type = self.content_type(f.content_type);
        file.ivar_set(self.ids[0], path)?;
        file.ivar_set(self.ids[1], f.byte_size)?;
        file.ivar_set(self.ids[2], content_type)?;
        file.ivar_set(self.ids[3], digest)?;
        file.ivar_set(self.ids[4], updated_at)?;
        file.freeze();
        Ok(file.as_value())
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
