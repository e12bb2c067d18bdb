//! Globs for `list_files` and `search_files`, with globset.
//!
//! A glob without a slash (`*.md`) matches file names in any folder. One
//! with a slash (`reports/**/*.csv`) matches paths relative to the folder the
//! search is narrowed to (or the store's root). In a tree of stores, a store
//! mounted inside that folder is matched with the mount's place in front of
//! its own paths (the `lead` of [`PathGlob::with_lead`]), so one glob means
//! the same in every store of the tree. `*` and `?` never cross a
//! slash, `**` matches any number of folders, `{csv,tsv}` either extension.
//!
//! A glob is at most [`MAX_GLOB_BYTES`] long, checked before it is compiled,
//! and it is compiled as a one-glob `GlobSet`, whose build reports a regex
//! too large to compile as an error (`GlobMatcher` panics on one).

use globset::{GlobBuilder, GlobSet};

use file_stores_base::error::{Error, Result};

/// The longest glob, in bytes: longer than any store path, so it leaves
/// room for a list of names in braces.
pub const MAX_GLOB_BYTES: usize = 4096;

/// A compiled glob, with the folder its paths are relative to.
#[derive(Debug, Clone)]
pub struct PathGlob {
    matcher: GlobSet,
    names_only: bool,
    prefix: String,
    /// Put in front of a path relative to the folder before it is matched.
    lead: String,
}

impl PathGlob {
    /// Compiles `glob` for files under `folder` (normalised, "" for the root).
    pub fn new(glob: &str, folder: &str) -> Result<Self> {
        Self::with_lead(glob, folder, "")
    }

    /// Compiles `glob` for files under `folder` whose paths, relative to
    /// it, are matched with `lead` in front: a store mounted at "api" inside
    /// the folder "docs" a tree's search is narrowed to is searched at its
    /// root with the lead "api/", so "api/**/*.md" finds its "v1/a.md".
    pub fn with_lead(glob: &str, folder: &str, lead: &str) -> Result<Self> {
        if glob.len() > MAX_GLOB_BYTES {
            return Err(Error::invalid(
                shortened(glob),
                format!(
                    "it is not a usable glob: it is {} bytes long, over the limit of {MAX_GLOB_BYTES}; use a shorter glob, or several calls",
                    glob.len()
                ),
            ));
        }
        let names_only = !glob.contains('/');
        // A leading "/" or "./" anchors the glob at the folder, as in ripgrep
        // and .gitignore; relative globs are anchored there already.
        let anchored = glob.trim_start_matches("./").trim_start_matches('/');
        let invalid = |e: globset::Error| {
            let why = match e.kind() {
                globset::ErrorKind::Regex(_) => {
                    "it is too complex once compiled; use a simpler glob".to_owned()
                }
                kind => format!("it is not a valid glob ({kind})"),
            };
            Error::invalid(shortened(glob), why)
        };
        let compiled = GlobBuilder::new(anchored)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(invalid)?;
        let matcher = GlobSet::builder().add(compiled).build().map_err(invalid)?;
        let prefix = if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        };
        Ok(PathGlob {
            matcher,
            names_only,
            prefix,
            lead: lead.to_owned(),
        })
    }

    /// Whether the store path `path` matches.
    pub fn is_match(&self, path: &str) -> bool {
        if self.names_only {
            let name = path.rsplit('/').next().unwrap_or(path);
            return self.matcher.is_match(name);
        }
        match path.strip_prefix(self.prefix.as_str()) {
            Some(relative) if self.lead.is_empty() => self.matcher.is_match(relative),
            Some(relative) => self.matcher.is_match(format!("{}{relative}", self.lead)),
            None => false,
        }
    }

    /// Whether a glob of names only (no slash) rejects the name `name`
    /// whatever its folder: a walk can then skip the file before it builds
    /// its path.
    pub fn rejects_name(&self, name: &str) -> bool {
        self.names_only && !self.matcher.is_match(name)
    }

    /// The walk's second look, once it has built the path: whether a glob
    /// with a slash rejects `path`. A glob of names only has had its say in
    /// [`PathGlob::rejects_name`], and is not run again.
    pub fn rejects_path(&self, path: &str) -> bool {
        !self.names_only && !self.is_match(path)
    }
}

/// A glob as an error message shows it: its start, when it is long.
fn shortened(glob: &str) -> String {
    const SHOWN: usize = 200;
    if glob.len() <= SHOWN {
        return glob.to_owned();
    }
    let mut end = SHOWN;
    while !glob.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &glob[..end], glob.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_without_a_slash_match_in_any_folder() {
        let g = PathGlob::new("*.md", "").unwrap();
        assert!(g.is_match("a.md") && g.is_match("deep/er/b.md"));
        assert!(!g.is_match("a.mdx"));
        assert!(g.rejects_name("a.mdx") && !g.rejects_name("b.md"));
        // A glob with a slash needs the path: it rejects no name alone.
        assert!(!PathGlob::new("a/*.md", "").unwrap().rejects_name("x.txt"));
        // ... and one of names only leaves paths to rejects_name.
        assert!(!g.rejects_path("a.mdx"));
        let with_slash = PathGlob::new("a/*.md", "").unwrap();
        assert!(with_slash.rejects_path("b/x.md") && !with_slash.rejects_path("a/x.md"));
    }

    #[test]
    fn paths_with_a_slash_are_relative_to_the_folder() {
        let g = PathGlob::new("reports/**/*.{csv,tsv}", "").unwrap();
        assert!(g.is_match("reports/q3.csv"));
        assert!(g.is_match("reports/2025/q4/x.tsv"));
        assert!(!g.is_match("other/reports/q3.csv"));
        let inside = PathGlob::new("2025/*.csv", "reports").unwrap();
        assert!(inside.is_match("reports/2025/q4.csv"));
        assert!(!inside.is_match("reports/2025/deep/q4.csv"));
        assert!(!inside.is_match("2025/q4.csv"));
    }

    #[test]
    fn a_lead_matches_a_mounted_store_as_the_tree_sees_it() {
        let g = PathGlob::with_lead("api/**/*.md", "", "api/").unwrap();
        assert!(g.is_match("v1/a.md") && g.is_match("a.md"));
        assert!(!g.is_match("v1/a.txt"));
        // The lead is a folder's name, not a glob: "[1]" is matched as it is.
        let g = PathGlob::with_lead("v*/*.md", "", "v[1]/").unwrap();
        assert!(g.is_match("a.md"));
        assert!(!PathGlob::with_lead("v1/*.md", "", "v[1]/")
            .unwrap()
            .is_match("a.md"));
        // A glob of names only has no use for it.
        assert!(PathGlob::with_lead("*.md", "", "api/")
            .unwrap()
            .is_match("v1/a.md"));
        assert!(PathGlob::with_lead("b/*.md", "", "a/x/")
            .unwrap()
            .rejects_path("b/y.md"));
    }

    #[test]
    fn a_leading_slash_anchors_at_the_folder() {
        let g = PathGlob::new("/README.md", "").unwrap();
        assert!(g.is_match("README.md"));
        assert!(!g.is_match("docs/README.md"));
        assert!(PathGlob::new("./docs/*.md", "")
            .unwrap()
            .is_match("docs/a.md"));
    }

    #[test]
    fn a_bad_glob_says_so() {
        let err = PathGlob::new("{a,b", "").unwrap_err();
        assert!(err.to_string().contains("not a valid glob"), "{err}");
    }

    #[test]
    fn a_glob_too_long_or_too_complex_is_refused_without_a_panic() {
        let err = PathGlob::new(&"*".repeat(100_000), "").unwrap_err();
        assert!(err.to_string().contains("over the limit of 4096"), "{err}");
        let at_cap = "*".repeat(MAX_GLOB_BYTES);
        match PathGlob::new(&at_cap, "") {
            Ok(g) => assert!(g.is_match("x")),
            Err(e) => assert!(e.to_string().contains("too complex"), "{e}"),
        }
        let braces = format!("{}{}", "{a,".repeat(1000), "}".repeat(1000));
        let _ = PathGlob::new(&braces[..MAX_GLOB_BYTES.min(braces.len())], "");
    }
}
