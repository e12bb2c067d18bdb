//! # file_stores_store
//!
//! A folder on disk as a store, for `ruby_llm-file_stores-native`, with no
//! Ruby in it, so it can be tested with `cargo test` and fuzzed on its own:
//!
//! - [`path`]: the one definition of a valid store path.
//! - [`diff`]: a unified diff of two versions of a text file (the history's `diff`).
//! - [`dir_store`]: a folder on disk as a store: list, read, atomic write,
//!   delete, with sha256 digests cached by file fingerprint.
//! - [`edit`]: the multi-edit engine: exact replacements, in order, all or nothing.
//! - [`patch`]: the `apply_patch` engine: V4A patches parsed and applied per file.
//! - [`text`]: the text of a text file's bytes (byte order marks, UTF-16,
//!   UTF-32), and how an edited text is written back in the file's encoding.
//! - [`line_window`]: the lines `read_file` shows, by line and character caps.
//! - [`lock`]: a reentrant folder lock, across threads (parking_lot) and
//!   processes (`flock`).
//! - [`content_type`]: types from names and file signatures.
//! - [`fsutil`]: descriptor-relative file system calls that never follow a link.
//! - [`pool`]: the process's one worker pool, shared by hashing and search.
//! - [`run_tree`]: a run_code folder before and after a run: what it left, held
//!   to a budget, without its privileges.
//!
//! ## Design
//!
//! The binding (`ext/file_stores_native`) copies its inputs into owned Rust
//! data, releases Ruby's global lock, and calls into this crate with a
//! [`Cancel`] that Ruby's unblocking function sets. Nothing here panics on
//! user input: every failure is an [`Error`] (from `file_stores_base`).
//!
//! The file system is reached only through descriptors and `*at` calls that
//! refuse to follow symbolic links (see [`fsutil`]): a store's root is opened
//! once, and every path is walked down from it component by component.

pub mod content_type;
pub mod diff;
pub mod dir_store;
pub mod edit;
pub mod fsutil;
pub mod line_window;
pub mod lock;
pub mod patch;
pub mod path;
pub mod pool;
pub mod run_tree;
pub mod text;

pub use dir_store::{DirStore, FileInfo, Skipped};
pub use file_stores_base::{Cancel, Error, ErrorKind, Result};
