//! # file_stores_search
//!
//! `search_files` for `ruby_llm-file_stores-native`: grep semantics over a
//! folder on disk (walked with `file_stores_store`'s no-follow descriptor
//! calls) or over texts a store hands in, on ripgrep's own searcher.
//!
//! - [`Search`] (in `search/`): the engine: the walk (`walk.rs`), the
//!   ordered parallel pipeline (`pipeline.rs`), each thread's searcher
//!   (`worker.rs`), the capped output and what a search found, as data
//!   and as the model's text, for one store or merged for a tree
//!   (`report.rs`).
//! - [`glob`]: the `glob:` filter, with ripgrep's globset under the store's
//!   path rules.

pub mod glob;
mod search;

pub use search::{
    compile, Content, Found, Options, Part, Report, Search, Streamed, HEAP_LIMIT, MAX_LINE_CHARS,
    MAX_PATTERN_BYTES,
};
