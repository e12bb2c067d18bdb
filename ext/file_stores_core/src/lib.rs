//! # file_stores_core
//!
//! The pure-Rust core of `ruby_llm-file_stores-native`. It holds the work that
//! must be fast and correct whatever the input, with no Ruby in it, so it can
//! be tested with `cargo test` and fuzzed on its own:
//!
//! - [`path`]: the one definition of a valid store path.
//! - [`dir_store`]: a folder on disk as a store: list, read, atomic write,
//!   delete, with sha256 digests cached by file fingerprint.
//! - [`edit`]: the multi-edit engine: exact replacements, in order, all or nothing.
//! - [`search`] and [`glob`]: grep semantics over a folder or given texts.
//! - [`lock`]: a reentrant folder lock, across threads (parking_lot) and
//!   processes (`flock`).
//! - [`content_type`]: types from names and file signatures.
//! - [`office`]: .docx, .xlsx and .pptx to text, safe on hostile input.
//! - [`run_tree`]: a run_code folder before and after a run: what it left, held
//!   to a budget, without its privileges.
//! - [`cancel`]: cooperative cancellation, so Ruby can interrupt long work.
//! - [`error`]: the one error type, whose kinds carry the path.
//!
//! ## Design
//!
//! The binding (`ext/file_stores_native`) copies its inputs into owned Rust
//! data, releases Ruby's global lock, and calls into this crate with a
//! [`cancel::Cancel`] that Ruby's unblocking function sets. Nothing here
//! panics on user input: every failure is an [`error::Error`].
//!
//! The file system is reached only through descriptors and `*at` calls that
//! refuse to follow symbolic links (see [`fsutil`]): a store's root is opened
//! once, and every path is walked down from it component by component.

pub mod cancel;
pub mod content_type;
pub mod dir_store;
pub mod edit;
pub mod error;
pub mod fsutil;
pub mod glob;
pub mod line_window;
pub mod lock;
pub mod office;
pub mod path;
pub mod pool;
pub mod run_tree;
pub mod search;

pub use cancel::Cancel;
pub use dir_store::{DirStore, FileInfo, Skipped};
pub use error::{Error, ErrorKind, Result};
