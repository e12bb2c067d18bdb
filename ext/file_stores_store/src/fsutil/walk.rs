//! The one walk of a folder tree: listing a store, its digests and its
//! size, a folder's move, a search on disk and run_code's snapshot and sweep
//! all go through [`Walk`].
//!
//! A walk starts from a folder's descriptor and opens each folder below
//! it with `openat(O_NOFOLLOW | O_DIRECTORY)` from its parent's, so it never
//! follows a link, and a folder swapped for a link or a file since its
//! parent was read is skipped, not entered. It keeps an explicit stack, never
//! recursion, so a tree of any depth made outside the store cannot overflow
//! a thread's stack; it enters no folder deeper than a store path reaches
//! ([`MAX_DEPTH`] names), so at most that many descriptors are open; and it
//! checks its [`Cancel`] at every folder it opens.
//!
//! It is an iterator the caller steps ([`Walk::next`]), not a visitor, so a
//! search can take files a few at a time and stop where it got to. The
//! caller says which folders to walk: at once ([`Walk::enter`], depth
//! first, so entries come in path order when they are sorted as paths), or
//! once the folder's own entries are done ([`Walk::enter_later`]).

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::sync::Arc;

use rustix::fs::{openat, statat, AtFlags, FileType, Mode};
use rustix::io::Errno;

use super::{dir_entries, errno_to_io, file_type, visible_entries_noting, DIR_FLAGS};
use crate::path::{MAX_DEPTH, MAX_PATH_BYTES};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// Which entries a walk yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// What a store shows: visible regular files and folders whose names a
    /// store path can hold. What no store path can name is noted instead:
    /// such names in [`Walk::unnamed`], paths longer than [`MAX_PATH_BYTES`]
    /// and folders deeper than [`MAX_DEPTH`] in [`Walk::deep`].
    Store,
    /// Every entry but `.` and `..`: hidden ones, links, special files and
    /// names of any bytes.
    All,
}

/// The order of each folder's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// As the file system lists them.
    Listed,
    /// By the bytes of their names.
    Bytes,
    /// As paths: a folder `x` sorts as `x/`, so that a walk entering
    /// folders at once yields paths in order.
    Paths,
}

/// An entry of a folder being walked.
#[derive(Debug)]
pub struct Entry {
    /// The folder it is in.
    pub dir: Arc<OwnedFd>,
    pub name: Vec<u8>,
    /// Its path from where the walk started (whose own path comes first).
    pub path: Vec<u8>,
    /// Its type as the folder listed it (from `lstat` where the file
    /// system does not say; [`FileType::Unknown`] when that failed).
    pub kind: FileType,
    /// How many names `path` holds.
    pub depth: usize,
}

impl Entry {
    /// The path as text (a store walk's always is; another's lossily).
    pub fn path_text(&self) -> String {
        String::from_utf8_lossy(&self.path).into_owned()
    }
}

/// A name or path of a store walk as text, without a copy (another walk's
/// lossily).
pub fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// What [`Walk::enter`] did with a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entered {
    /// It is walked next.
    Opened,
    /// Gone, or no longer a folder, since its parent was read: skipped.
    Gone,
    /// Deeper than a store path reaches: not walked.
    TooDeep,
    /// It could not be opened or listed (permissions): not walked.
    Denied(Errno),
}

/// A walk of a folder tree (see the module's documentation).
pub struct Walk<'c> {
    names: Names,
    order: Order,
    cancel: &'c Cancel,
    /// The folders being listed, the innermost last.
    stack: Vec<Frame>,
    /// [`Names::Store`]: paths left out because a store path cannot hold
    /// their names, escaped.
    pub unnamed: Vec<String>,
    /// [`Names::Store`]: paths longer than a store path may be, and folders
    /// deeper than one reaches.
    pub deep: Vec<String>,
    /// Folders [`Walk::enter_later`] asked for that could not be opened or
    /// listed; the caller takes them as it likes.
    pub unreadable: Vec<Vec<u8>>,
}

/// A folder being listed: its entries not yet yielded, and the folders to
/// walk once they are.
struct Frame {
    dir: Arc<OwnedFd>,
    path: Vec<u8>,
    depth: usize,
    entries: std::vec::IntoIter<(Vec<u8>, FileType)>,
    later: VecDeque<Vec<u8>>,
}

impl<'c> Walk<'c> {
    /// A walk of `dir`, whose path is `path` ("" for the top of the tree),
    /// listing it at once.
    pub fn new(
        dir: OwnedFd,
        path: &[u8],
        names: Names,
        order: Order,
        cancel: &'c Cancel,
    ) -> Result<Self> {
        cancel.check()?;
        let mut walk = Walk {
            names,
            order,
            cancel,
            stack: Vec::new(),
            unnamed: Vec::new(),
            deep: Vec::new(),
            unreadable: Vec::new(),
        };
        let depth = if path.is_empty() {
            0
        } else {
            path.split(|&b| b == b'/').count()
        };
        let entries = walk.list(&dir, path)?;
        walk.push(dir, path.to_vec(), depth, entries);
        Ok(walk)
    }

    /// The next entry, or None when the walk is over.
    #[allow(clippy::should_implement_trait)] // fallible, and folders are entered between two calls
    pub fn next(&mut self) -> Result<Option<Entry>> {
        loop {
            let Some(frame) = self.stack.last_mut() else {
                return Ok(None);
            };
            if let Some((name, kind)) = frame.entries.next() {
                let path = join(&frame.path, &name);
                if self.names == Names::Store && path.len() > MAX_PATH_BYTES {
                    self.deep.push(String::from_utf8_lossy(&path).into_owned());
                    continue;
                }
                return Ok(Some(Entry {
                    dir: frame.dir.clone(),
                    name,
                    path,
                    kind,
                    depth: frame.depth + 1,
                }));
            }
            if let Some(name) = frame.later.pop_front() {
                let (parent, path, depth) =
                    (frame.dir.clone(), join(&frame.path, &name), frame.depth + 1);
                if let Entered::Denied(_) = self.open(&parent, &name, path.clone(), depth)? {
                    self.unreadable.push(path);
                }
                continue;
            }
            self.stack.pop();
        }
    }

    /// Walks the folder `entry` next, before the rest of the folder it is
    /// in. A folder too deep is named in [`Walk::deep`] by a store walk.
    pub fn enter(&mut self, entry: &Entry) -> Result<Entered> {
        if entry.depth >= MAX_DEPTH {
            if self.names == Names::Store {
                self.deep.push(entry.path_text());
            }
            return Ok(Entered::TooDeep);
        }
        self.open(&entry.dir, &entry.name, entry.path.clone(), entry.depth)
    }

    /// Walks the folder `entry` once the folder it is in has yielded all
    /// its entries; one that cannot be opened then goes to
    /// [`Walk::unreadable`]. False, and nothing is walked, when it is
    /// deeper than a store path reaches.
    pub fn enter_later(&mut self, entry: &Entry) -> bool {
        if entry.depth >= MAX_DEPTH {
            return false;
        }
        if let Some(frame) = self.stack.last_mut() {
            frame.later.push_back(entry.name.clone());
        }
        true
    }

    fn open(
        &mut self,
        parent: &OwnedFd,
        name: &[u8],
        path: Vec<u8>,
        depth: usize,
    ) -> Result<Entered> {
        self.cancel.check()?;
        let dir = match openat(parent, OsStr::from_bytes(name), DIR_FLAGS, Mode::empty()) {
            Ok(dir) => dir,
            Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => return Ok(Entered::Gone),
            Err(e @ (Errno::ACCESS | Errno::PERM)) => return Ok(Entered::Denied(e)),
            Err(e) => return Err(Error::io(String::from_utf8_lossy(&path), errno_to_io(e))),
        };
        let entries = match self.list(&dir, &path) {
            Ok(entries) => entries,
            Err(e) => match e.raw_os_error().map(Errno::from_raw_os_error) {
                Some(e @ (Errno::ACCESS | Errno::PERM)) => return Ok(Entered::Denied(e)),
                _ => return Err(e),
            },
        };
        self.push(dir, path, depth, entries);
        Ok(Entered::Opened)
    }

    fn push(
        &mut self,
        dir: OwnedFd,
        path: Vec<u8>,
        depth: usize,
        entries: Vec<(Vec<u8>, FileType)>,
    ) {
        self.stack.push(Frame {
            dir: Arc::new(dir),
            path,
            depth,
            entries: entries.into_iter(),
            later: VecDeque::new(),
        });
    }

    /// The entries of `dir` (at `path`) this walk yields, in its order.
    fn list(&mut self, dir: &OwnedFd, path: &[u8]) -> Result<Vec<(Vec<u8>, FileType)>> {
        let rel = String::from_utf8_lossy(path);
        let mut entries: Vec<(Vec<u8>, FileType)> = match self.names {
            Names::Store => visible_entries_noting(dir, &rel, &mut self.unnamed)?
                .into_iter()
                .map(|(name, kind)| (name.into_bytes(), kind))
                .collect(),
            Names::All => {
                let mut entries = Vec::new();
                dir_entries::for_each(dir, &rel, |name, kind| {
                    let name = name.to_bytes();
                    if name == b"." || name == b".." {
                        return Ok(());
                    }
                    let kind = match kind {
                        FileType::Unknown => {
                            match statat(dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
                                Ok(st) => file_type(&st),
                                Err(Errno::NOENT) => return Ok(()),
                                Err(_) => FileType::Unknown,
                            }
                        }
                        kind => kind,
                    };
                    entries.push((name.to_vec(), kind));
                    Ok(())
                })?;
                entries
            }
        };
        match self.order {
            Order::Listed => {}
            Order::Bytes => entries.sort_unstable_by(|a, b| a.0.cmp(&b.0)),
            Order::Paths => entries.sort_unstable_by(path_order),
        }
        Ok(entries)
    }
}

/// `parent/name`, or `name` at the top.
fn join(parent: &[u8], name: &[u8]) -> Vec<u8> {
    let mut path = Vec::with_capacity(parent.len() + 1 + name.len());
    if !parent.is_empty() {
        path.extend_from_slice(parent);
        path.push(b'/');
    }
    path.extend_from_slice(name);
    path
}

/// The order of two entries of one folder as paths: a folder's name
/// followed by "/". Names hold no "/" and differ, so past their common
/// start one byte (or the end) decides.
pub fn path_order(a: &(Vec<u8>, FileType), b: &(Vec<u8>, FileType)) -> std::cmp::Ordering {
    let (x, y) = (&a.0[..], &b.0[..]);
    let common = x.len().min(y.len());
    x[..common].cmp(&y[..common]).then_with(|| {
        let next = |name: &[u8], kind: FileType| {
            name.get(common)
                .copied()
                .or((kind == FileType::Directory).then_some(b'/'))
        };
        next(x, a.1).cmp(&next(y, b.1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustix::fs::OFlags;

    fn open(path: &std::path::Path) -> OwnedFd {
        rustix::fs::open(path, OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty()).unwrap()
    }

    /// Every path a walk yields, entering every folder at once or later.
    fn paths(root: &std::path::Path, names: Names, order: Order, later: bool) -> Vec<String> {
        let cancel = Cancel::new();
        let mut walk = Walk::new(open(root), b"", names, order, &cancel).unwrap();
        let mut out = Vec::new();
        while let Some(entry) = walk.next().unwrap() {
            out.push(entry.path_text());
            if entry.kind == FileType::Directory {
                if later {
                    walk.enter_later(&entry);
                } else {
                    walk.enter(&entry).unwrap();
                }
            }
        }
        out
    }

    fn tree() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path();
        std::fs::create_dir_all(p.join("a/b")).unwrap();
        std::fs::create_dir_all(p.join(".hidden")).unwrap();
        std::fs::write(p.join("a/b/x"), b"").unwrap();
        std::fs::write(p.join("a.txt"), b"").unwrap();
        std::fs::write(p.join("a/z"), b"").unwrap();
        std::fs::write(p.join(".hidden/h"), b"").unwrap();
        std::fs::write(p.join("bad\nname"), b"").unwrap();
        std::os::unix::fs::symlink("/", p.join("link")).unwrap();
        tmp
    }

    #[test]
    fn a_store_walk_yields_visible_paths_in_path_order_and_never_follows_a_link() {
        let tmp = tree();
        let walked = paths(tmp.path(), Names::Store, Order::Paths, false);
        // "a.txt" before "a/": a folder sorts as its name and a slash.
        assert_eq!(walked, ["a.txt", "a", "a/b", "a/b/x", "a/z"]);
    }

    #[test]
    fn a_full_walk_entering_later_yields_a_folder_before_its_subfolders() {
        let tmp = tree();
        let walked = paths(tmp.path(), Names::All, Order::Bytes, true);
        assert_eq!(
            walked,
            [
                ".hidden",
                "a",
                "a.txt",
                "bad\nname",
                "link",
                ".hidden/h",
                "a/b",
                "a/z",
                "a/b/x"
            ]
        );
    }

    #[test]
    fn goes_no_deeper_than_a_store_path_and_names_what_it_left() {
        let tmp = tempfile::tempdir().unwrap();
        let deep = std::iter::repeat_n("d", MAX_DEPTH + 2)
            .collect::<Vec<_>>()
            .join("/");
        std::fs::create_dir_all(tmp.path().join(&deep)).unwrap();
        let cancel = Cancel::new();
        let mut walk =
            Walk::new(open(tmp.path()), b"", Names::Store, Order::Listed, &cancel).unwrap();
        let mut deepest = 0;
        while let Some(entry) = walk.next().unwrap() {
            deepest = deepest.max(entry.depth);
            walk.enter(&entry).unwrap();
        }
        assert_eq!(deepest, MAX_DEPTH);
        assert_eq!(walk.deep.len(), 1);
        assert_eq!(walk.deep[0].split('/').count(), MAX_DEPTH);
        let store = std::iter::repeat_n("d", MAX_DEPTH)
            .collect::<Vec<_>>()
            .join("/");
        assert_eq!(walk.deep[0], store);
    }

    #[test]
    fn stops_when_cancelled_at_the_next_folder() {
        let tmp = tree();
        let cancel = Cancel::new();
        let mut walk = Walk::new(open(tmp.path()), b"", Names::All, Order::Bytes, &cancel).unwrap();
        cancel.cancel();
        let first = walk.next().unwrap().unwrap();
        assert_eq!(first.path, b".hidden");
        assert!(walk.enter(&first).unwrap_err().is_cancelled());
    }

    #[test]
    fn folder_entries_sort_as_their_paths() {
        // A folder sorts as its name followed by "/": "a-b" < "a/" < "a0".
        let names = [
            "a", "a-b", "a.txt", "a0", "a b", "ab", "b", "é", "e", "", "aa", "a~",
        ];
        for x in names {
            for y in names {
                for (x_dir, y_dir) in [(false, false), (false, true), (true, false), (true, true)] {
                    if x == y && x_dir == y_dir {
                        continue;
                    }
                    let as_path =
                        |name: &str, dir: bool| format!("{name}{}", if dir { "/" } else { "" });
                    let expected = as_path(x, x_dir).cmp(&as_path(y, y_dir));
                    let kind = |dir: bool| {
                        if dir {
                            FileType::Directory
                        } else {
                            FileType::RegularFile
                        }
                    };
                    let got = path_order(&(x.into(), kind(x_dir)), &(y.into(), kind(y_dir)));
                    assert_eq!(got, expected, "{x:?} dir={x_dir} vs {y:?} dir={y_dir}");
                }
            }
        }
    }
}
