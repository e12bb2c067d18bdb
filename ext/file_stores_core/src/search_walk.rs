//! The folder walk of a search on disk ([`Search::folder`](super::Search::folder)): folders listed
//! in path order (a folder named `x` sorts as `x/`), hidden names and links
//! left out, and the files queued in the search's pipeline as they are
//! found, whatever folder they are in.

use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::sync::Arc;

use rustix::fs::FileType;

use super::{Item, Outcome, Pipeline, Source, PUSH_CHUNK};
use crate::cancel::Cancel;
use crate::content_type;
use crate::error::{Error, ErrorKind, Result};
use crate::fsutil::{open_subdir, visible_entries_noting};
use crate::glob::PathGlob;

/// The walk of a folder for [`Search::folder`](super::Search::folder), on its own thread: it lists
/// folders in path order (a folder named `x` sorts as `x/`) and queues the
/// files in the search's pipeline, whatever folder they are in, so a tree
/// of small folders still searches many files at once.
pub(super) struct Walk<'t, 's> {
    pub(super) glob: Option<&'t PathGlob>,
    pub(super) texts: &'t HashMap<String, Vec<u8>>,
    /// Files listed and not yet queued: queued [`PUSH_CHUNK`] at a time, or
    /// at once when the search waits for them.
    pub(super) pending: Vec<Item<'t>>,
    pub(super) unnamed: Vec<String>,
    pub(super) pipeline: &'s Pipeline<Item<'t>, Outcome>,
    pub(super) cancel: &'s Cancel,
}

impl<'t> Walk<'t, '_> {
    /// Walks `dir`; false once the search no longer wants files.
    pub(super) fn folder(&mut self, dir: Arc<OwnedFd>, rel: &str) -> Result<bool> {
        for (name, is_dir) in sorted_entries(&dir, rel, &mut self.unnamed)? {
            if self.pipeline.halted() || self.cancel.is_cancelled() {
                return Ok(false);
            }
            if !is_dir && self.glob.is_some_and(|g| g.rejects_name(&name)) {
                continue;
            }
            let path = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if is_dir {
                match open_subdir(&*dir, &name, false, &path) {
                    Ok(Some(sub)) => {
                        if !self.folder(Arc::new(sub), &path)? {
                            return Ok(false);
                        }
                    }
                    Ok(None)
                    | Err(Error {
                        kind: ErrorKind::Symlink | ErrorKind::NotAFolder,
                        ..
                    }) => {}
                    Err(e) => return Err(e),
                }
                continue;
            }
            if self.glob.is_some_and(|g| !g.is_match(&path)) {
                continue;
            }
            let source = if has_own_text(&name) {
                Source::Disk(dir.clone(), name)
            } else {
                self.texts
                    .get(&path)
                    .map_or(Source::NoText, |t| Source::Text(t))
            };
            self.pending.push((path, source));
            if (self.pending.len() >= PUSH_CHUNK || self.pipeline.hungry()) && !self.flush() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Queues the pending files; false once the search stopped.
    pub(super) fn flush(&mut self) -> bool {
        self.pending.is_empty() || self.pipeline.push_all(&mut self.pending)
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

pub(super) fn collect_needing_text(
    dir: &OwnedFd,
    rel: &str,
    glob: Option<&PathGlob>,
    out: &mut Vec<String>,
    cancel: &Cancel,
) -> Result<()> {
    cancel.check()?;
    for (name, is_dir) in sorted_entries(dir, rel, &mut Vec::new())? {
        let path = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if is_dir {
            if let Ok(Some(sub)) = open_subdir(dir, &name, false, &path) {
                collect_needing_text(&sub, &path, glob, out, cancel)?;
            }
        } else if !has_own_text(&name) && glob.is_none_or(|g| g.is_match(&path)) {
            out.push(path);
        }
    }
    Ok(())
}

/// The visible regular files and folders of `dir`, in path order; names
/// that are not UTF-8 go to `unnamed`.
fn sorted_entries(
    dir: &OwnedFd,
    rel: &str,
    unnamed: &mut Vec<String>,
) -> Result<Vec<(String, bool)>> {
    let mut entries: Vec<(String, bool)> = visible_entries_noting(dir, rel, unnamed)?
        .into_iter()
        .map(|(name, kind)| (name, kind == FileType::Directory))
        .collect();
    // A folder sorts as "name/", so that the walk yields paths in order.
    entries.sort_unstable_by(path_order);
    Ok(entries)
}

/// The order of two entries of one folder as paths: a folder's name
/// followed by "/". Names hold no "/" and differ, so past their common
/// start one byte (or the end) decides.
pub(super) fn path_order(a: &(String, bool), b: &(String, bool)) -> std::cmp::Ordering {
    let (x, y) = (a.0.as_bytes(), b.0.as_bytes());
    let common = x.len().min(y.len());
    x[..common].cmp(&y[..common]).then_with(|| {
        let next = |name: &[u8], is_dir: bool| name.get(common).copied().or(is_dir.then_some(b'/'));
        next(x, a.1).cmp(&next(y, b.1))
    })
}
