//! The search options Ruby passes as an array: `[case_sensitive, context,
//! files_only, max_matches, max_chars, timeout_seconds]`.

use std::time::{Duration, Instant};

use file_stores_search::glob::PathGlob;
use file_stores_search::{Options, Search};
use magnus::{prelude::*, Error, RArray, Ruby, TryConvert};

use crate::nogvl::nogvl;

type Raw = (bool, usize, bool, Option<usize>, Option<usize>, Option<f64>);

/// Options from Ruby's array; the deadline starts now.
pub fn options(raw: RArray) -> Result<Options, Error> {
    let (case_sensitive, context, files_only, max_matches, max_chars, timeout): Raw =
        TryConvert::try_convert(raw.as_value())?;
    let deadline = timeout
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map(|t| Instant::now() + Duration::from_secs_f64(t.min(86_400.0)));
    Ok(Options {
        case_sensitive,
        context: context.min(1000),
        files_only,
        max_matches,
        max_chars,
        deadline,
    })
}

/// A compiled search, compiled without the GVL (a pattern may take a while)
/// and with a panic caught; a pattern it cannot use is an ArgumentError
/// whose message tells the model what to write instead.
pub fn compile(ruby: &Ruby, pattern: &str, options: Options) -> Result<Search, Error> {
    nogvl(ruby, |_| Ok(Search::new(pattern, options.clone())))?
        .map_err(|message| Error::new(ruby.exception_arg_error(), message))
}

/// A glob relative to `folder`, or None; compiled like [`compile`]'s pattern.
pub fn glob(ruby: &Ruby, glob: Option<String>, folder: &str) -> Result<Option<PathGlob>, Error> {
    match glob.filter(|g| !g.is_empty()) {
        Some(g) => nogvl(ruby, |_| PathGlob::new(&g, folder)).map(Some),
        None => Ok(None),
    }
}
