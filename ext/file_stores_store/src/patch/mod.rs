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
//! A file's bytes go through [`apply_to_file`], which applies the hunks to
//! its text as [`crate::text`] defines it (what read_file shows: after a
//! byte order mark, UTF-16 and UTF-32 transcoded) and writes the result back
//! in the file's encoding, with its mark.
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

use std::time::Instant;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

/// The largest patch text accepted, in bytes. A patch arrives as one tool
/// argument; this is far above what a model writes in one call.
pub const MAX_PATCH_BYTES: usize = 8 << 20;

/// The most hunks one patch may hold, over all its files: each hunk may
/// scan its file, so the work is bounded by this many passes.
pub const MAX_HUNKS: usize = 1000;

/// The most files one patch may name.
pub const MAX_FILES: usize = 1000;

/// [`apply`] on a text file's bytes: the hunks apply to its text (see
/// [`crate::text::Editable`]), and the new content is the file's encoding's
/// bytes, with its mark, at most `max` of them ([`HunkError::TooLarge`]
/// past it); placing the hunks stops at `deadline` ([`HunkError::OutOfTime`]).
/// `Err` when cancelled, or for a UTF-16 or UTF-32 file whose text could
/// not be written back as it was (a conversion error saying so).
pub fn apply_to_file(
    content: &[u8],
    hunks: &[Hunk],
    max: usize,
    deadline: Option<Instant>,
    cancel: &Cancel,
) -> Result<std::result::Result<Vec<u8>, HunkError>> {
    let file = crate::text::Editable::of(content, cancel)?;
    Ok(
        apply(&file.text, hunks, max, deadline, cancel)?.and_then(|text| {
            file.encoding
                .encode_within(text, max)
                .map_err(|size| HunkError::TooLarge { size })
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(patch: &str) -> Vec<Hunk> {
        match parse(patch).expect("a patch").remove(0) {
            FileOp::Update { hunks, .. } => hunks,
            other => panic!("not an update: {other:?}"),
        }
    }

    #[test]
    fn applies_to_the_text_and_writes_the_files_encoding_back() {
        let cancel = Cancel::new();
        let hunks = update("*** Begin Patch\n*** Update File: a.cs\n@@\n-using System;\n+using Sys;\n class A\n*** End Patch");
        let out = apply_to_file(
            b"\xEF\xBB\xBFusing System;\r\nclass A\r\n",
            &hunks,
            1 << 20,
            None,
            &cancel,
        )
        .unwrap()
        .unwrap();
        assert_eq!(out, b"\xEF\xBB\xBFusing Sys;\r\nclass A\r\n");
        let wide = |s: &str| {
            let mut out = b"\xFF\xFE\0\0".to_vec();
            out.extend(s.chars().flat_map(|c| u32::from(c).to_le_bytes()));
            out
        };
        let out = apply_to_file(
            &wide("using System;\nclass A\n"),
            &hunks,
            1 << 20,
            None,
            &cancel,
        )
        .unwrap()
        .unwrap();
        assert_eq!(out, wide("using Sys;\nclass A\n"));
        assert_eq!(
            apply_to_file(&wide("using System;\nclass A\n"), &hunks, 20, None, &cancel).unwrap(),
            Err(HunkError::TooLarge { size: 4 + 4 * 19 })
        );
    }
}
