//! The patch engine behind the `apply_patch` tool: OpenAI's "V4A" patch
//! format (the one Codex's `apply_patch` reads), parsed and applied to one
//! file's bytes at a time, all or nothing per file. The tool holds every
//! file's new content until all of them applied, so a patch is all or
//! nothing across its files too.
//!
//! - [`parse`]: the envelope (`*** Begin Patch` … `*** End Patch`), its
//!   Add/Delete/Update files, `*** Move to:`, `@@` headers and hunk lines.
//! - [`seek`]: where a run of lines is in a file, by Codex's four levels of
//!   leniency, refusing a run that is in more than one place.
//! - [`apply`]: a file's hunks applied to its bytes, keeping its line
//!   endings, its final newline or lack of one, and every line the hunks do
//!   not remove byte for byte (context lines included).
//!
//! The format and its matching follow Codex (github.com/openai/codex,
//! codex-rs/apply-patch: parser.rs, seek_sequence.rs, lib.rs); the code is
//! this crate's own. Where it differs (ambiguous hunks refused, context
//! lines kept as the file has them, the final newline kept, a pure
//! addition under an `@@` header placed after it) the items say so.

pub mod apply;
pub mod parse;
pub mod seek;

pub use apply::{apply, HunkError};
pub use parse::{parse, FileOp, Hunk, Line, ParseError};

/// The largest patch text accepted, in bytes. A patch arrives as one tool
/// argument; this is far above what a model writes in one call.
pub const MAX_PATCH_BYTES: usize = 8 << 20;

/// The most hunks one patch may hold, over all its files: each hunk may
/// scan its file, so the work is bounded by this many passes.
pub const MAX_HUNKS: usize = 1000;

/// The most files one patch may name.
pub const MAX_FILES: usize = 1000;
