//! Store paths: relative, forward slashes, normalised.
//!
//! Every path that reaches a store goes through [`normalize`] first. It is the
//! one place that decides what a path may be, so the rules are easy to audit
//! and to fuzz: `./a//b/` becomes `a/b`; `..` anywhere, absolute paths, empty
//! paths, NUL and other control characters, and backslashes are refused with
//! a reason. A path may nest at most [`MAX_DEPTH`] names, so that every
//! walk of a store stays shallow. Nothing here touches the file system.

use file_stores_base::error::{Error, Result};

/// The longest name of one path component, in bytes (Linux `NAME_MAX`).
pub const MAX_NAME_BYTES: usize = 255;
/// The longest whole path, in bytes (Linux `PATH_MAX` less room for the root).
pub const MAX_PATH_BYTES: usize = 4000;
/// The most names a path may hold: a file at most 63 folders deep. Folders
/// deeper than this, made outside the store, are left out of every walk.
pub const MAX_DEPTH: usize = 64;

/// Normalises a file path, or says why it is refused.
pub fn normalize(path: &str) -> Result<String> {
    let normalized = normalize_folder(path)?;
    if normalized.is_empty() {
        return Err(Error::invalid(path, "it names no file"));
    }
    Ok(normalized)
}

/// Normalises a folder path; the store's root is the empty string (from `""`,
/// `"."` or `"./"`).
pub fn normalize_folder(path: &str) -> Result<String> {
    if path.contains('\0') {
        return Err(Error::invalid(path, "it contains a NUL byte"));
    }
    if path.contains('\\') {
        return Err(Error::invalid(
            path,
            "it contains a backslash; separate folders with forward slashes",
        ));
    }
    if path.chars().any(char::is_control) {
        return Err(Error::invalid(path, "it contains a control character"));
    }
    if path.starts_with('/') {
        return Err(Error::invalid(
            path,
            "it is absolute; use a path relative to the store, like reports/q3.pdf",
        ));
    }
    if path.len() > MAX_PATH_BYTES {
        return Err(Error::invalid(path, "it is too long"));
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(Error::invalid(
                    path,
                    "it contains .., which could leave the store",
                ))
            }
            name if name.len() > MAX_NAME_BYTES => {
                return Err(Error::invalid(
                    path,
                    "a name in it is longer than 255 bytes",
                ))
            }
            name => parts.push(name),
        }
        if parts.len() > MAX_DEPTH {
            return Err(Error::invalid(
                path,
                format!(
                    "it nests more than {MAX_DEPTH} names; a store path holds at most {MAX_DEPTH} (a file at most {} folders deep)",
                    MAX_DEPTH - 1
                ),
            ));
        }
    }
    Ok(parts.join("/"))
}

/// Whether a normalised path has a hidden component (one starting with a dot).
pub fn is_hidden(normalized: &str) -> bool {
    normalized.split('/').any(|part| part.starts_with('.'))
}

/// The parent folder and the file name of a normalised path.
pub fn split_parent(normalized: &str) -> (&str, &str) {
    match normalized.rfind('/') {
        Some(i) => (&normalized[..i], &normalized[i + 1..]),
        None => ("", normalized),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_dots_and_slashes() {
        assert_eq!(normalize("./a//b/").unwrap(), "a/b");
        assert_eq!(normalize("a/./b").unwrap(), "a/b");
        assert_eq!(normalize("brief.md").unwrap(), "brief.md");
        assert_eq!(normalize_folder("./").unwrap(), "");
        assert_eq!(normalize_folder("").unwrap(), "");
    }

    #[test]
    fn refuses_dot_dot_anywhere() {
        for p in ["..", "../a", "a/..", "a/../b", "a/b/..", "./.."] {
            let err = normalize(p).unwrap_err();
            assert!(err.to_string().contains(".."), "{p}: {err}");
        }
    }

    #[test]
    fn refuses_absolute_empty_nul_backslash_control() {
        assert!(normalize("/etc/passwd")
            .unwrap_err()
            .to_string()
            .contains("absolute"));
        assert!(normalize("")
            .unwrap_err()
            .to_string()
            .contains("names no file"));
        assert!(normalize("./").is_err());
        assert!(normalize("a\0b").unwrap_err().to_string().contains("NUL"));
        assert!(normalize("a\\b")
            .unwrap_err()
            .to_string()
            .contains("backslash"));
        assert!(normalize("a\nb")
            .unwrap_err()
            .to_string()
            .contains("control"));
    }

    #[test]
    fn keeps_names_that_only_look_odd() {
        assert_eq!(normalize("~/notes").unwrap(), "~/notes");
        assert_eq!(normalize("%2e%2e/x").unwrap(), "%2e%2e/x");
        assert_eq!(normalize("a..b/c...").unwrap(), "a..b/c...");
    }

    #[test]
    fn refuses_overlong_names() {
        let long = "x".repeat(256);
        assert!(normalize(&long).is_err());
        assert!(normalize(&"x".repeat(255)).is_ok());
        assert!(normalize(&"a/".repeat(2100)).is_err());
    }

    #[test]
    fn refuses_paths_deeper_than_the_cap() {
        let deepest = vec!["a"; MAX_DEPTH].join("/");
        assert_eq!(normalize(&deepest).unwrap(), deepest);
        let err = normalize(&format!("{deepest}/x")).unwrap_err().to_string();
        assert!(err.contains("more than 64 names"), "{err}");
        assert!(normalize_folder(&format!("{deepest}/x")).is_err());
        // Empty and "." parts do not count.
        assert!(normalize(&format!("{}/x", vec!["a"; MAX_DEPTH - 1].join("/./"))).is_ok());
    }

    #[test]
    fn hidden_and_split() {
        assert!(is_hidden(".env"));
        assert!(is_hidden("a/.git/config"));
        assert!(!is_hidden("a/b.c"));
        assert_eq!(split_parent("a/b/c.txt"), ("a/b", "c.txt"));
        assert_eq!(split_parent("c.txt"), ("", "c.txt"));
    }
}
