//! Fuzzes `glob::PathGlob`.
//!
//! Input: text lines; the first is a glob, the second a folder, the rest store
//! paths to match (non-UTF-8 inputs are skipped). Beyond "no panic":
//! - a glob with a slash only matches paths inside its folder;
//! - every path, its glob metacharacters escaped with `\`, is a glob that
//!   matches exactly that path (relative to the folder), in either form: with
//!   a slash it matches the path, without one it matches the name anywhere.
#![no_main]

use file_stores_search::glob::PathGlob;
use file_stores_store::path::{normalize, normalize_folder};
use libfuzzer_sys::fuzz_target;

const META: &[char] = &['*', '?', '[', ']', '{', '}', '\\', '!', ',', '-', '^'];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let glob = lines.next().unwrap_or_default();
    let raw_folder = lines.next().unwrap_or_default();
    let paths: Vec<&str> = lines.take(16).collect();

    // The store hands PathGlob a normalised folder; give it whatever came too.
    let folder = normalize_folder(raw_folder).unwrap_or_default();
    if raw_folder != folder {
        if let Ok(g) = PathGlob::new(glob, raw_folder) {
            for path in &paths {
                let _ = g.is_match(path);
            }
        }
    }
    if let Ok(g) = PathGlob::new(glob, &folder) {
        for path in &paths {
            let hit = g.is_match(path);
            if hit && glob.contains('/') && !folder.is_empty() {
                assert!(
                    path.starts_with(&format!("{folder}/")),
                    "{glob:?} in {folder:?} matched {path:?} outside it"
                );
            }
        }
    }

    // Compiling a glob is the slow part: escape only a few paths.
    for path in paths.iter().take(4) {
        let Ok(relative) = normalize(path) else {
            continue;
        };
        let escaped: String = relative
            .chars()
            .flat_map(|c| {
                let escape = META.contains(&c).then_some('\\');
                escape.into_iter().chain(std::iter::once(c))
            })
            .collect();
        let full = if folder.is_empty() {
            relative.clone()
        } else {
            format!("{folder}/{relative}")
        };
        let g = PathGlob::new(&escaped, &folder)
            .unwrap_or_else(|e| panic!("escaped {relative:?} as {escaped:?}: {e}"));
        assert!(
            g.is_match(&full),
            "{escaped:?} in {folder:?} missed {full:?}"
        );
        assert!(
            !g.is_match(&format!("{full}x")),
            "{escaped:?} matched {full:?}x"
        );
        if !relative.contains('/') {
            // A name glob matches the name in any folder.
            assert!(g.is_match(&format!("deep/er/{relative}")), "{escaped:?}");
        }
    }
});
