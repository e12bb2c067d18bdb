//! # file_stores_base
//!
//! What every crate of `ruby_llm-file_stores-native` shares, with no
//! dependency beyond the standard library:
//!
//! - [`cancel`]: cooperative cancellation, so Ruby can interrupt long work.
//! - [`error`]: the one error type, whose kinds carry the path, and which the
//!   binding maps to Ruby exception classes.
//!
//! The store, search and Office crates all return [`Error`] and check a
//! [`Cancel`], so the binding handles every engine's failures and
//! interruptions the same way.

pub mod cancel;
pub mod error;

pub use cancel::Cancel;
pub use error::{Error, ErrorKind, Result};
