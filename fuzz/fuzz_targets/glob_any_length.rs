//! Fuzzes `glob::PathGlob::new` with globs of any length, up to far past
//! its cap: a glob of 100 KB once made globset panic ("regex compilation
//! shouldn't fail"), which reached Ruby as `fatal`.
//!
//! Input: two little-endian bytes, a repeat count; then a glob piece, then
//! after a newline a path. The glob is the piece repeated that many times
//! (up to 65,535 times, so a few bytes of input make megabytes). Beyond "no
//! panic":
//! - a glob longer than `MAX_GLOB_BYTES` is refused, saying the limit;
//! - a glob within it compiles, or is refused as invalid or too complex,
//!   and a compiled one answers `is_match` for the path.
#![no_main]

use file_stores_search::glob::{PathGlob, MAX_GLOB_BYTES};
use libfuzzer_sys::fuzz_target;

/// Past this, the glob is refused by its length alone: repeating more only
/// costs the fuzzer time.
const LONGEST: usize = 4 * MAX_GLOB_BYTES;

fuzz_target!(|data: &[u8]| {
    let Some((count, rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (piece, path) = text.split_once('\n').unwrap_or((text, "a/b.txt"));
    if piece.is_empty() {
        return;
    }
    let times = usize::from(u16::from_le_bytes(*count)).max(1);
    let times = times.min(LONGEST / piece.len() + 2);
    let glob = piece.repeat(times);
    match PathGlob::new(&glob, "") {
        Ok(g) => {
            assert!(glob.len() <= MAX_GLOB_BYTES, "a {}-byte glob compiled", glob.len());
            let _ = g.is_match(path);
        }
        Err(e) => {
            let message = e.to_string();
            if glob.len() > MAX_GLOB_BYTES {
                assert!(message.contains("over the limit of 4096"), "{message}");
            } else {
                assert!(
                    message.contains("not a valid glob") || message.contains("too complex"),
                    "{message}"
                );
            }
        }
    }
});
