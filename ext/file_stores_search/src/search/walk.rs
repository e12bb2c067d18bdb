//! The folder walk of a search on disk ([`Search::folder`](super::Search::folder)):
//! the store's one walk ([`file_stores_store::fsutil::walk`]) of what a store
//! shows, its folders entered at once and their entries sorted as paths, so
//! that files come in path order, handed to the search's pipeline as they
//! are found, whatever folder they are in.

use std::collections::HashMap;
use std::os::fd::OwnedFd;

use super::{Item, Source};
use crate::glob::PathGlob;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};
use file_stores_store::content_type;
use file_stores_store::fsutil::errno_to_io;
use file_stores_store::fsutil::walk::{self as store_walk, text, Entered, Names, Order};

/// The walk of a folder for [`Search::folder`](super::Search::folder),
/// stepped by the search's calling thread whenever the search wants files:
/// it lists folders in path order and hands out their files, whatever
/// folder they are in, so a tree of small folders still searches many
/// files at once.
///
/// Why not a thread of its own: a search that stops at its cap within its
/// first files would wait for that thread to be scheduled, then for it to
/// end, which on a busy machine takes 10-40 ms, most of a capped search.
pub(super) struct Walk<'t, 'c> {
    glob: Option<&'t PathGlob>,
    texts: &'t HashMap<String, Vec<u8>>,
    /// The walk itself; its `unnamed` and `deep` are the search's notes.
    pub(super) walk: store_walk::Walk<'c>,
}

/// How far [`Walk::fill`] got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Walked {
    /// It found the files it was asked for; there may be more.
    Filled,
    /// The walk is over.
    Ended,
    /// `give_up` said to stop.
    GaveUp,
}

impl<'t, 'c> Walk<'t, 'c> {
    /// A walk of `dir`, the store folder `rel`, listing it at once.
    pub(super) fn new(
        dir: OwnedFd,
        rel: &str,
        glob: Option<&'t PathGlob>,
        texts: &'t HashMap<String, Vec<u8>>,
        cancel: &'c Cancel,
    ) -> Result<Self> {
        let walk = store_walk::Walk::new(dir, rel.as_bytes(), Names::Store, Order::Paths, cancel)?;
        Ok(Walk { glob, texts, walk })
    }

    /// Lists on until `out` holds `want` more files, the walk ends, or
    /// `give_up` (asked at each folder) says to stop.
    pub(super) fn fill(
        &mut self,
        out: &mut Vec<Item<'t>>,
        want: usize,
        give_up: &dyn Fn() -> bool,
    ) -> Result<Walked> {
        let target = out.len() + want;
        while out.len() < target {
            let Some(entry) = self.walk.next()? else {
                return Ok(Walked::Ended);
            };
            if entry.kind == rustix::fs::FileType::Directory {
                if give_up() {
                    return Ok(Walked::GaveUp);
                }
                if let Entered::Denied(e) = self.walk.enter(&entry)? {
                    return Err(Error::io(entry.path_text(), errno_to_io(e)));
                }
                continue;
            }
            let name = text(entry.name);
            if self.glob.is_some_and(|g| g.rejects_name(&name)) {
                continue;
            }
            let path = text(entry.path);
            if self.glob.is_some_and(|g| g.rejects_path(&path)) {
                continue;
            }
            let source = if has_own_text(&name) {
                Source::Disk(entry.dir, name)
            } else {
                self.texts
                    .get(&path)
                    .map_or_else(|| Source::Claimed(entry.dir, name), |t| Source::Text(t))
            };
            out.push((path, source));
        }
        Ok(Walked::Filled)
    }
}

/// Whether a file's bytes are searched as they are: text types, and types
/// the name does not tell (sniffed for NUL like ripgrep). Known formats
/// without text of their own (PDF, Office, images, archives) are not.
fn has_own_text(name: &str) -> bool {
    match content_type::from_name(name) {
        None => true,
        Some(ty) => content_type::is_text(ty),
    }
}

/// Adds to `out` the files below `dir` (the store folder `rel`) that
/// `glob` takes and whose format has no text of its own. No deeper than a
/// store path reaches; a folder it cannot open is left out.
pub(super) fn collect_needing_text(
    dir: OwnedFd,
    rel: &str,
    glob: Option<&PathGlob>,
    out: &mut Vec<String>,
    cancel: &Cancel,
) -> Result<()> {
    let mut walk = store_walk::Walk::new(dir, rel.as_bytes(), Names::Store, Order::Paths, cancel)?;
    while let Some(entry) = walk.next()? {
        if entry.kind == rustix::fs::FileType::Directory {
            match walk.enter(&entry) {
                Err(e) if e.is_cancelled() => return Err(e),
                _ => continue,
            }
        }
        let path = text(entry.path);
        if !has_own_text(&text(entry.name)) && glob.is_none_or(|g| g.is_match(&path)) {
            out.push(path);
        }
    }
    Ok(())
}
