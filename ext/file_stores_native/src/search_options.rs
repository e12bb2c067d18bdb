//! A search request from Ruby: a Hash with the pattern, the folder, the glob
//! and the engine's options by name (see `RubyLLM::FileStore::Search.arguments`),
//! read with [`fields::read`]. A search over texts a store hands in
//! (`TextSearch`) takes no folder and no glob: the store lists the files
//! they keep before it reads a text.

use std::time::{Duration, Instant};

use file_stores_search::glob::PathGlob;
use file_stores_search::{Options, Search};
use magnus::{Error, RHash, Ruby, TryConvert};

use crate::fields;
use crate::nogvl::nogvl;

/// The keys of a search request, all required (nil where a value may be
/// none). `glob_lead` is put in front of a path, relative to the folder,
/// for the glob (see `PathGlob::with_lead`).
const FIELDS: [&str; 10] = [
    "pattern",
    "folder",
    "glob",
    "glob_lead",
    "case_sensitive",
    "context",
    "files_only",
    "max_matches",
    "max_chars",
    "timeout",
];

/// The keys of a search request over texts (`TextSearch`): no folder, no glob.
const TEXT_FIELDS: [&str; 7] = [
    "pattern",
    "case_sensitive",
    "context",
    "files_only",
    "max_matches",
    "max_chars",
    "timeout",
];

/// A search request read from Ruby.
pub struct Request {
    pub pattern: String,
    pub folder: String,
    pub glob: Option<String>,
    pub glob_lead: String,
    pub options: Options,
}

impl Request {
    /// The request in `hash`; the deadline (`timeout` seconds, or nil) starts now.
    pub fn read(ruby: &Ruby, hash: RHash) -> Result<Self, Error> {
        Self::read_fields(ruby, hash, &FIELDS)
    }

    /// A request over texts (see [`TEXT_FIELDS`]).
    pub fn read_for_texts(ruby: &Ruby, hash: RHash) -> Result<Self, Error> {
        Self::read_fields(ruby, hash, &TEXT_FIELDS)
    }

    fn read_fields(ruby: &Ruby, hash: RHash, names: &[&'static str]) -> Result<Self, Error> {
        let mut request = Request {
            pattern: String::new(),
            folder: String::new(),
            glob: None,
            glob_lead: String::new(),
            options: Options::default(),
        };
        let mut timeout: Option<f64> = None;
        fields::read(ruby, hash, "search request", names, |name, value| {
            let options = &mut request.options;
            match name {
                "pattern" => request.pattern = TryConvert::try_convert(value)?,
                "folder" => request.folder = TryConvert::try_convert(value)?,
                "glob" => request.glob = TryConvert::try_convert(value)?,
                "glob_lead" => request.glob_lead = TryConvert::try_convert(value)?,
                "case_sensitive" => options.case_sensitive = TryConvert::try_convert(value)?,
                "context" => options.context = usize::try_convert(value)?.min(1000),
                "files_only" => options.files_only = TryConvert::try_convert(value)?,
                "max_matches" => options.max_matches = TryConvert::try_convert(value)?,
                "max_chars" => options.max_chars = TryConvert::try_convert(value)?,
                "timeout" => timeout = TryConvert::try_convert(value)?,
                _ => {} // fields::read passes only the names given
            }
            Ok(())
        })?;
        request.options.deadline = timeout
            .filter(|t| t.is_finite() && *t >= 0.0)
            .map(|t| Instant::now() + Duration::from_secs_f64(t.min(86_400.0)));
        Ok(request)
    }

    /// The compiled search, compiled without the GVL (a pattern may take a
    /// while) and with a panic caught; a pattern it cannot use is an
    /// ArgumentError whose message tells the model what to write instead.
    pub fn compile(&self, ruby: &Ruby) -> Result<Search, Error> {
        nogvl(ruby, |_| {
            Ok(Search::new(&self.pattern, self.options.clone()))
        })?
        .map_err(|message| Error::new(ruby.exception_arg_error(), message))
    }
}

/// A glob relative to `folder`, with `lead` in front of the paths it
/// matches (see `PathGlob::with_lead`), or None; compiled like
/// [`Request::compile`]'s pattern.
pub fn glob(
    ruby: &Ruby,
    glob: Option<String>,
    folder: &str,
    lead: &str,
) -> Result<Option<PathGlob>, Error> {
    match glob.filter(|g| !g.is_empty()) {
        Some(g) => nogvl(ruby, |_| PathGlob::with_lead(&g, folder, lead)).map(Some),
        None => Ok(None),
    }
}
