//! The folder walk of a search on disk ([`Search::folder`](super::Search::folder)): folders listed
//! in path order (a folder named `x` sorts as `x/`), hidden names and links
//! left out, and the files handed to the search's pipeline as they are
//! found, whatever folder they are in.

use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::sync::Arc;

use rustix::fs::FileType;

use super::{Item, Source};
use crate::glob::PathGlob;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;
use file_stores_store::content_type;
use file_stores_store::fsutil::{open_subdir, open_walked_subdir, visible_entries_noting};
use file_stores_store::path::{MAX_DEPTH, MAX_PATH_BYTES};

/// The walk of a folder for [`Search::folder`](super::Search::folder),
/// stepped by the search's calling thread whenever the search wants files:
/// it lists folders in path order and hands out their files, whatever
/// folder they are in, so a tree of small folders still searches many
/// files at once.
///
/// Why not a thread of its own: a search that stops at its cap within its
/// first files would wait for that thread to be scheduled, then for it to
/// end, which on a busy machine takes 10-40 ms, most of a capped search.
pub(super) struct Walk<'t> {
    glob: Option<&'t PathGlob>,
    texts: &'t HashMap<String, Vec<u8>>,
    /// The folders being listed, the innermost last.
    stack: Vec<Frame>,
    /// Paths left out because a store path cannot hold their names.
    pub(super) unnamed: Vec<String>,
    /// Folders left out because they are deeper than a store path reaches.
    pub(super) deep: Vec<String>,
}

/// A folder being listed: its entries not yet handed out, in path order.
struct Frame {
    dir: Arc<OwnedFd>,
    rel: String,
    /// How many names `rel` holds.
    depth: usize,
    entries: std::vec::IntoIter<(String, bool)>,
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

impl<'t> Walk<'t> {
    /// A walk of `dir`, the store folder `rel`, listing it at once.
    pub(super) fn new(
        dir: OwnedFd,
        rel: &str,
        glob: Option<&'t PathGlob>,
        texts: &'t HashMap<String, Vec<u8>>,
    ) -> Result<Self> {
        let mut walk = Walk {
            glob,
            texts,
            stack: Vec::new(),
            unnamed: Vec::new(),
            deep: Vec::new(),
        };
        let entries = sorted_entries(&dir, rel, &mut walk.unnamed)?;
        walk.stack.push(Frame {
            dir: Arc::new(dir),
            rel: rel.to_owned(),
            depth: depth_of(rel),
            entries: entries.into_iter(),
        });
        Ok(walk)
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
            let Some(frame) = self.stack.last_mut() else {
                return Ok(Walked::Ended);
            };
            let Some((name, is_dir)) = frame.entries.next() else {
                self.stack.pop();
                continue;
            };
            if !is_dir && self.glob.is_some_and(|g| g.rejects_name(&name)) {
                continue;
            }
            let path = if frame.rel.is_empty() {
                name.clone()
            } else {
                format!("{}/{name}", frame.rel)
            };
            if path.len() > MAX_PATH_BYTES || (is_dir && frame.depth + 1 >= MAX_DEPTH) {
                // No store path reaches in: the stack stays this shallow.
                self.deep.push(path);
                continue;
            }
            if is_dir {
                if give_up() {
                    return Ok(Walked::GaveUp);
                }
                let Some(sub) = open_walked_subdir(&*frame.dir, &name, &path)? else {
                    continue;
                };
                let entries = sorted_entries(&sub, &path, &mut self.unnamed)?;
                let depth = frame.depth + 1;
                self.stack.push(Frame {
                    dir: Arc::new(sub),
                    rel: path,
                    depth,
                    entries: entries.into_iter(),
                });
                continue;
            }
            if self.glob.is_some_and(|g| g.rejects_path(&path)) {
                continue;
            }
            let source = if has_own_text(&name) {
                Source::Disk(frame.dir.clone(), name)
            } else {
                self.texts.get(&path).map_or_else(
                    || Source::Claimed(frame.dir.clone(), name),
                    |t| Source::Text(t),
                )
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
/// `glob` takes and whose format has no text of its own. Iterative, and no
/// deeper than a store path reaches.
pub(super) fn collect_needing_text(
    dir: OwnedFd,
    rel: &str,
    glob: Option<&PathGlob>,
    out: &mut Vec<String>,
    cancel: &Cancel,
) -> Result<()> {
    let mut ignored = Vec::new();
    let entries = sorted_entries(&dir, rel, &mut ignored)?;
    let mut stack = vec![Frame {
        dir: Arc::new(dir),
        rel: rel.to_owned(),
        depth: depth_of(rel),
        entries: entries.into_iter(),
    }];
    while let Some(frame) = stack.last_mut() {
        let Some((name, is_dir)) = frame.entries.next() else {
            stack.pop();
            continue;
        };
        let path = if frame.rel.is_empty() {
            name.clone()
        } else {
            format!("{}/{name}", frame.rel)
        };
        if path.len() > MAX_PATH_BYTES {
            continue;
        }
        if is_dir {
            if frame.depth + 1 >= MAX_DEPTH {
                continue;
            }
            cancel.check()?;
            if let Ok(Some(sub)) = open_subdir(&*frame.dir, &name, false, &path) {
                let entries = sorted_entries(&sub, &path, &mut ignored)?;
                let depth = frame.depth + 1;
                stack.push(Frame {
                    dir: Arc::new(sub),
                    rel: path,
                    depth,
                    entries: entries.into_iter(),
                });
            }
        } else if !has_own_text(&name) && glob.is_none_or(|g| g.is_match(&path)) {
            out.push(path);
        }
    }
    Ok(())
}

fn depth_of(rel: &str) -> usize {
    if rel.is_empty() {
        0
    } else {
        rel.split('/').count()
    }
}

/// The visible regular files and folders of `dir`, in path order; names
/// a store path cannot hold go to `unnamed`.
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
