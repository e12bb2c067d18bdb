//! Fuzzes `path::normalize` and `path::normalize_folder`.
//!
//! Input: the bytes of one path (non-UTF-8 inputs are skipped: a `&str` is
//! all the API takes). Beyond "no panic" it checks what every store relies
//! on: an accepted path is relative, has no `.`/`..`/empty segments, no NUL,
//! control character or backslash, keeps the input's names in order, fits the
//! length and depth limits, and normalising it again changes nothing.
#![no_main]

use file_stores_store::path::{
    normalize, normalize_folder, MAX_DEPTH, MAX_NAME_BYTES, MAX_PATH_BYTES,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let folder = normalize_folder(input);
    let file = normalize(input);
    match &folder {
        Ok(out) => {
            check_normalized(input, out);
            // normalize is normalize_folder minus the root.
            if out.is_empty() {
                assert!(file.is_err(), "normalize accepted {input:?} as {file:?}");
            } else {
                assert_eq!(file.as_deref().ok(), Some(out.as_str()), "for {input:?}");
            }
            assert_eq!(normalize_folder(out).ok().as_deref(), Some(out.as_str()));
        }
        Err(_) => assert!(file.is_err(), "only normalize accepted {input:?}"),
    }
});

fn check_normalized(input: &str, out: &str) {
    assert!(
        !out.starts_with('/') && !out.ends_with('/'),
        "{input:?} -> {out:?}"
    );
    assert!(!out.contains(['\0', '\\']), "{input:?} -> {out:?}");
    assert!(!out.chars().any(char::is_control), "{input:?} -> {out:?}");
    assert!(out.len() <= input.len() && out.len() <= MAX_PATH_BYTES);
    let names: Vec<&str> = if out.is_empty() {
        Vec::new()
    } else {
        out.split('/').collect()
    };
    assert!(names.len() <= MAX_DEPTH, "{input:?} -> {} names", names.len());
    for name in &names {
        assert!(!matches!(*name, "" | "." | ".."), "{input:?} -> {out:?}");
        assert!(name.len() <= MAX_NAME_BYTES);
    }
    let kept: Vec<&str> = input
        .split('/')
        .filter(|part| !matches!(*part, "" | "."))
        .collect();
    assert_eq!(kept, names, "names changed: {input:?} -> {out:?}");
}
