//! The host's side of a `run_code` run over a folder: what the folder held
//! before ([`Snapshot`]), and after the run a [`sweep`] that finds what the
//! run left, holds it to a budget, and takes back the privileges it gave.
//!
//! Code chooses the tree, so every step here is iterative (no recursion per
//! level), starts from a folder descriptor and never follows a link: a tree
//! of any depth, a folder renamed and replaced by a link, or a path longer
//! than `PATH_MAX` cannot overflow a stack, fail a call with
//! `ENAMETOOLONG`, or lead outside the folder. A walk goes [`MAX_DEPTH`]
//! names deep, as deep as a store path; what is below is named, not walked.
//!
//! Code may take its own folders' permissions away (`chmod 000`), which
//! matters where the host is not root: before walking a folder the run
//! made or changed, the sweep gives it back to its owner (`u+rwx`, and
//! `u+rw` to files), from a descriptor, never through a link; what it still
//! cannot open is named and skipped, never an error that stops the sweep.
//! Special files (FIFOs, sockets) the run made or put in place of a file
//! are removed: no file tool can read, write or delete one.
//!
//! Nothing is read: the budget (bytes, allocated bytes, entries) is checked
//! on `lstat` alone, so a run that leaves sparse files of any size costs the
//! host one `lstat` each.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{openat, renameat, statat, unlinkat, AtFlags, FileType, Mode, Stat};
use rustix::io::Errno;

use crate::fsutil::walk::{Names, Order, Walk};
use crate::fsutil::{errno_to_io, DIR_FLAGS};
use crate::path::{self, MAX_DEPTH};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// How many entries of each kind of note are kept; the rest are counted.
pub const MAX_NAMED: usize = 50;
/// How many folders deep a removal holds descriptors open before it moves
/// the rest of the tree up to the top and goes on from there.
const REMOVE_OPEN: usize = 32;
/// The bits no file a run made or changed may keep.
const PRIVILEGE_BITS: u32 = 0o4000 | 0o2000 | 0o0002;
/// The bits the owner needs on a folder to walk and change it.
const FOLDER_OWNER_BITS: u32 = 0o700;
/// The bits the owner needs on a file to read and replace it.
const FILE_OWNER_BITS: u32 = 0o600;

/// What a walk tells apart: a file the same since the snapshot has the same
/// inode, size, times and mode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Print {
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    mode: u32,
}

impl Print {
    #[allow(clippy::unnecessary_cast)] // the nanosecond fields are u64 on Linux, i64 on macOS
    fn of(st: &Stat) -> Self {
        Print {
            ino: st.st_ino,
            size: st.st_size as u64,
            mtime: (st.st_mtime, st.st_mtime_nsec as i64),
            ctime: (st.st_ctime, st.st_ctime_nsec as i64),
            mode: mode_of(st),
        }
    }
}

/// Every entry of a folder (hidden ones, links and odd names included) down
/// to [`MAX_DEPTH`], by path bytes.
#[derive(Debug, Default)]
pub struct Snapshot {
    entries: HashMap<Vec<u8>, Print>,
    /// The root folder itself (device, inode, mode) before the run: the
    /// sweep gives back its mode only if it is still that folder, and
    /// takes only the privilege bits the run added.
    root: Option<(u64, u64, u32)>,
    /// Folders at the depth limit, whose contents were not walked.
    pub too_deep: Vec<String>,
}

/// Why a sweep removed what a run left.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Removal {
    /// Past the run's budget of entries or bytes.
    Budget,
    /// A name the store cannot address (not UTF-8, a control character...).
    Name,
    /// Deeper than a store path may nest.
    TooDeep,
    /// A FIFO, socket or device node: no file the store can hold.
    Special,
}

/// An entry a run made or changed and the sweep kept.
#[derive(Debug, Clone)]
pub struct Left {
    pub path: String,
    pub created: bool,
    pub kind: Kind,
    pub size: u64,
    pub allocated: u64,
}

/// The kinds of entry a sweep reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Folder,
    Link,
    Other,
}

/// What a run may leave: entries made or changed, and bytes (apparent and
/// allocated, each) of the files among them.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub entries: u64,
    pub bytes: u64,
}

/// What a sweep found and did.
#[derive(Debug, Default)]
pub struct Sweep {
    /// Entries made or changed, within the budget, with addressable names.
    pub left: Vec<Left>,
    /// Regular files of the snapshot that are gone.
    pub gone: Vec<String>,
    /// What was removed (at most [`MAX_NAMED`], names escaped), and why.
    pub removed: Vec<(String, Removal)>,
    pub removed_count: u64,
    /// Folders at the depth limit that were there before, not walked.
    pub too_deep: Vec<String>,
    /// Entries whose setuid, setgid or world-write bits were taken away.
    pub stripped: Vec<String>,
    pub stripped_count: u64,
    /// What could not be opened or looked at even after the run's folders
    /// were given back to their owner (at most [`MAX_NAMED`]): not walked.
    pub unreadable: Vec<String>,
}

impl Snapshot {
    /// Walks `root`. A folder or file the store's owner may not use (taken
    /// outside a run, or by a build before the sweep gave them back) is
    /// given back first (`u+rwx`, `u+rw`), so the walk sees what it holds
    /// and the sweep does not take its contents for the run's; what still
    /// cannot be opened is not walked.
    pub fn take(root: &Path, cancel: &Cancel) -> Result<Snapshot> {
        let mut snapshot = Snapshot::default();
        give_back_root(root, None);
        let root_fd = open_root(root)?;
        snapshot.root = rustix::fs::fstat(&root_fd).ok().map(|st| {
            let (dev, ino) = root_id(&st);
            (dev, ino, mode_of(&st) & 0o7777)
        });
        walk(&root_fd, &HashSet::new(), cancel, |step| {
            match step {
                Step::Entry {
                    dir,
                    name,
                    path,
                    st,
                    ..
                } => {
                    let st = give_back(dir, name, st).unwrap_or(*st);
                    snapshot.entries.insert(path.to_vec(), Print::of(&st));
                }
                Step::TooDeep(path) => push_named(&mut snapshot.too_deep, path),
                // Not this process's to open (another owner's): the run,
                // in a sandbox as this user, cannot change it either.
                Step::Unreadable(_) => {}
            }
            Ok(Visit::Descend)
        })?;
        Ok(snapshot)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// After a run: walks `root` again and compares it with `before`. Of what
/// the run made or changed, entries with names the store cannot address,
/// folders deeper than [`MAX_DEPTH`] and whatever is past `budget` (in walk
/// order, names sorted) are removed; every one keeps no setuid, setgid or
/// world-write bit. `skip` names top paths (mount points) left alone.
pub fn sweep(
    root: &Path,
    before: &Snapshot,
    skip: &[String],
    budget: Budget,
    cancel: &Cancel,
) -> Result<Sweep> {
    // The run sees the store's folder as its work folder and may take its
    // permissions too: they are given back first, or nothing can be walked;
    // and it may make it setgid or world-writable, which is taken away.
    give_back_root(root, before.root);
    let root_fd = open_root(root)?;
    let skip: HashSet<Vec<u8>> = skip.iter().map(|s| s.as_bytes().to_vec()).collect();
    let mut out = Sweep::default();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let (mut entries, mut bytes, mut allocated) = (0u64, 0u64, 0u64);
    walk(&root_fd, &skip, cancel, |step| {
        let (dir, name, path, st, depth) = match step {
            Step::TooDeep(path) => {
                push_named(&mut out.too_deep, path);
                return Ok(Visit::Skip);
            }
            Step::Unreadable(path) => {
                push_named(&mut out.unreadable, path);
                return Ok(Visit::Skip);
            }
            Step::Entry {
                dir,
                name,
                path,
                st,
                depth,
            } => (dir, name, path, st, depth),
        };
        let print = Print::of(st);
        let kind = kind_of(st);
        let old = before.entries.get(path);
        if old.is_some() {
            seen.insert(path.to_vec());
        }
        let created = old.is_none();
        let changed = match old {
            None => true,
            // A folder's times move with its entries; it changed only if
            // it is another folder or its mode moved.
            Some(old) if kind == Kind::Folder => old.ino != print.ino || old.mode != print.mode,
            Some(old) => *old != print,
        };
        if !changed {
            return Ok(Visit::Descend);
        }
        if kind != Kind::Link {
            restore_mode(dir, name, st, path, &mut out)?;
        }
        let text = std::str::from_utf8(path).ok();
        let addressable = text.is_some_and(|t| path::normalize(t).is_ok());
        let deep = kind == Kind::Folder && depth >= MAX_DEPTH && created;
        let reason = if !addressable {
            Some(Removal::Name)
        } else if deep {
            Some(Removal::TooDeep)
        } else if kind == Kind::Other {
            // A store file the run replaced by one is gone from the store:
            // not seen, so it is named among the deleted.
            seen.remove(path);
            Some(Removal::Special)
        } else if kind != Kind::Folder || created {
            entries += 1;
            let (size, blocks) = if kind == Kind::File {
                (print.size, (st.st_blocks as u64).saturating_mul(512))
            } else {
                (0, 0)
            };
            if entries > budget.entries
                || bytes.saturating_add(size) > budget.bytes
                || allocated.saturating_add(blocks) > budget.bytes
            {
                entries -= 1;
                Some(Removal::Budget)
            } else {
                bytes += size;
                allocated += blocks;
                None
            }
        } else {
            None
        };
        if let Some(reason) = reason {
            remove_at(dir, name, cancel)?;
            out.removed_count += 1;
            if out.removed.len() < MAX_NAMED {
                out.removed.push((escaped(path), reason));
            }
            return Ok(Visit::Skip);
        }
        if kind != Kind::Folder || created {
            out.left.push(Left {
                path: text.unwrap_or_default().to_owned(),
                created,
                kind,
                size: if kind == Kind::File { print.size } else { 0 },
                allocated: if kind == Kind::File {
                    (st.st_blocks as u64).saturating_mul(512)
                } else {
                    0
                },
            });
        }
        Ok(Visit::Descend)
    })?;
    let mut gone: Vec<String> = before
        .entries
        .iter()
        .filter(|(path, print)| {
            !seen.contains(*path)
                && FileType::from_raw_mode(print.mode as rustix::fs::RawMode)
                    == FileType::RegularFile
        })
        .filter_map(|(path, _)| std::str::from_utf8(path).ok().map(str::to_owned))
        .collect();
    gone.sort();
    out.gone = gone;
    Ok(out)
}

/// Removes the entry at `rel` (a folder with all it holds) below `root`,
/// reached without following a link. Returns whether it was there.
pub fn remove(root: &Path, rel: &str, cancel: &Cancel) -> Result<bool> {
    let root_fd = open_root(root)?;
    let Some((parent, name)) = open_parent(&root_fd, rel)? else {
        return Ok(false);
    };
    match statat(&parent, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(_) => {}
        Err(Errno::NOENT) => return Ok(false),
        Err(e) => return Err(Error::io(rel, errno_to_io(e))),
    }
    remove_at(parent.as_fd(), name.as_bytes(), cancel)?;
    Ok(true)
}

/// Removes the entry at `rel` below `root` if it is an empty folder, an
/// empty regular file or a link, reached without following a link; returns
/// whether it did. For a run's mount points, whose parents code may have
/// swapped for links.
pub fn remove_empty(root: &Path, rel: &str) -> Result<bool> {
    let root_fd = open_root(root)?;
    let Some((parent, name)) = open_parent(&root_fd, rel)? else {
        return Ok(false);
    };
    let st = match statat(&parent, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => st,
        Err(Errno::NOENT) => return Ok(false),
        Err(e) => return Err(Error::io(rel, errno_to_io(e))),
    };
    let flags = match kind_of(&st) {
        Kind::Folder => AtFlags::REMOVEDIR,
        Kind::Link => AtFlags::empty(),
        Kind::File if st.st_size == 0 => AtFlags::empty(),
        _ => return Ok(false),
    };
    match unlinkat(&parent, name, flags) {
        Ok(()) => Ok(true),
        Err(Errno::NOENT) | Err(Errno::NOTEMPTY) | Err(Errno::EXIST) => Ok(false),
        Err(e) => Err(Error::io(rel, errno_to_io(e))),
    }
}

enum Step<'a> {
    Entry {
        dir: BorrowedFd<'a>,
        name: &'a [u8],
        path: &'a [u8],
        st: &'a Stat,
        depth: usize,
    },
    TooDeep(&'a [u8]),
    /// An entry that cannot be looked at, or a folder that cannot be
    /// opened or listed (permissions): not walked.
    Unreadable(&'a [u8]),
}

enum Visit {
    Descend,
    Skip,
}

/// Walks the tree below `root` (the store's one walk, [`crate::fsutil::walk`], of
/// every entry, names sorted), calling `visit` for each entry; a folder is
/// walked, once the folder it is in has been visited, when `visit` says so,
/// down to [`MAX_DEPTH`].
fn walk(
    root: &OwnedFd,
    skip: &HashSet<Vec<u8>>,
    cancel: &Cancel,
    mut visit: impl FnMut(Step<'_>) -> Result<Visit>,
) -> Result<()> {
    let first = openat(root, ".", DIR_FLAGS, Mode::empty()).map_err(|e| io(b"", e))?;
    let mut walk = match Walk::new(first, b"", Names::All, Order::Bytes, cancel) {
        Ok(walk) => walk,
        Err(e) if denied(e.raw_os_error()) => return visit(Step::Unreadable(b"")).map(drop),
        Err(e) => return Err(e),
    };
    loop {
        let next = walk.next()?;
        for path in std::mem::take(&mut walk.unreadable) {
            visit(Step::Unreadable(&path))?;
        }
        let Some(entry) = next else {
            return Ok(());
        };
        if skip.contains(&entry.path) {
            continue;
        }
        let st = match statat(
            &*entry.dir,
            OsStr::from_bytes(&entry.name),
            AtFlags::SYMLINK_NOFOLLOW,
        ) {
            Ok(st) => st,
            Err(Errno::NOENT) => continue,
            Err(Errno::ACCESS) | Err(Errno::PERM) => {
                visit(Step::Unreadable(&entry.path))?;
                continue;
            }
            Err(e) => return Err(io(&entry.path, e)),
        };
        let visit_it = visit(Step::Entry {
            dir: entry.dir.as_fd(),
            name: &entry.name,
            path: &entry.path,
            st: &st,
            depth: entry.depth,
        })?;
        if kind_of(&st) == Kind::Folder
            && matches!(visit_it, Visit::Descend)
            && !walk.enter_later(&entry)
        {
            visit(Step::TooDeep(&entry.path))?;
        }
    }
}

/// The names in a folder (not `.` and `..`), sorted.
fn names_in(fd: &OwnedFd, path: &[u8]) -> Result<Vec<Vec<u8>>> {
    rustix::fs::seek(fd, rustix::fs::SeekFrom::Start(0)).map_err(|e| io(path, e))?;
    let mut names = Vec::new();
    crate::fsutil::dir_entries::for_each(fd, &String::from_utf8_lossy(path), |name, _| {
        let name = name.to_bytes();
        if name != b"." && name != b".." {
            names.push(name.to_vec());
        }
        Ok(())
    })?;
    names.sort();
    Ok(names)
}

/// Removes `name` in `dir`: a folder with everything in it, without
/// recursion. Deeper than [`REMOVE_OPEN`], the rest of a tree is renamed up
/// into `dir` and removed from there, so any depth is removed with a few
/// descriptors open.
fn remove_at(dir: BorrowedFd<'_>, name: &[u8], cancel: &Cancel) -> Result<()> {
    let mut queue = vec![name.to_vec()];
    let mut moved = 0u64;
    while let Some(top) = queue.pop() {
        if unlink_file(dir, &top)? {
            continue;
        }
        let fd = match open_owned(dir, &top) {
            Ok(fd) => fd,
            Err(Errno::NOENT) => continue,
            Err(e) => return Err(io(&top, e)),
        };
        let mut stack: Vec<(OwnedFd, Vec<u8>)> = vec![(fd, top)];
        while let Some((fd, _)) = stack.last() {
            cancel.check()?;
            let mut sub = None;
            for entry in names_in(fd, b"")? {
                if !unlink_file(fd.as_fd(), &entry)? {
                    sub = Some(entry);
                    break;
                }
            }
            match sub {
                None => {
                    let (_, gone) = stack.pop().expect("stack is not empty");
                    let parent = stack.last().map_or(dir, |(fd, _)| fd.as_fd());
                    match unlinkat(parent, OsStr::from_bytes(&gone), AtFlags::REMOVEDIR) {
                        Ok(()) | Err(Errno::NOENT) => {}
                        Err(e) => return Err(io(&gone, e)),
                    }
                }
                Some(sub) if stack.len() >= REMOVE_OPEN => {
                    moved += 1;
                    let fresh = format!(".run_code-removing-{}-{moved}", std::process::id());
                    renameat(fd, OsStr::from_bytes(&sub), dir, fresh.as_str())
                        .map_err(|e| io(&sub, e))?;
                    queue.push(fresh.into_bytes());
                }
                Some(sub) => {
                    let child = open_owned(fd.as_fd(), &sub).map_err(|e| io(&sub, e))?;
                    stack.push((child, sub));
                }
            }
        }
    }
    Ok(())
}

/// Opens the folder `name` in `dir` for a removal, giving it back to its
/// owner first when code took its permissions (`u+rwx`: read to list it,
/// write and search to unlink in it). Never through a link.
fn open_owned(dir: BorrowedFd<'_>, name: &[u8]) -> rustix::io::Result<OwnedFd> {
    let fd = match openat(dir, OsStr::from_bytes(name), DIR_FLAGS, Mode::empty()) {
        Err(Errno::ACCESS) => {
            let st = statat(dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW)?;
            if kind_of(&st) == Kind::Folder {
                chmod_entry(dir, name, &st, (mode_of(&st) & 0o7777) | FOLDER_OWNER_BITS)?;
            }
            openat(dir, OsStr::from_bytes(name), DIR_FLAGS, Mode::empty())?
        }
        other => other?,
    };
    let st = rustix::fs::fstat(&fd)?;
    if mode_of(&st) & FOLDER_OWNER_BITS != FOLDER_OWNER_BITS {
        rustix::fs::fchmod(&fd, raw_mode((mode_of(&st) & 0o7777) | FOLDER_OWNER_BITS))?;
    }
    Ok(fd)
}

/// Whether an OS error number says permission was denied.
fn denied(errno: Option<i32>) -> bool {
    errno == Some(Errno::ACCESS.raw_os_error()) || errno == Some(Errno::PERM.raw_os_error())
}

/// Gives the owner of the root folder `u+rwx` back and, after a run
/// (`before`: the root as the snapshot saw it), takes the setuid, setgid and
/// world-write bits the run added, leaving those its owner had set. Never
/// through a link: code may have swapped a store's folder nested in the
/// run's for one, so the folder is opened without following it and, after a
/// run, changed only while it is the folder the snapshot saw.
fn give_back_root(root: &Path, before: Option<(u64, u64, u32)>) {
    let Ok(fd) = open_root_path(root) else {
        return;
    };
    let Ok(st) = rustix::fs::fstat(&fd) else {
        return;
    };
    let now = mode_of(&st) & 0o7777;
    let added = match before {
        None => 0,
        Some((dev, ino, mode)) => {
            if root_id(&st) != (dev, ino) {
                return;
            }
            PRIVILEGE_BITS & !mode
        }
    };
    let mode = (now & !added) | FOLDER_OWNER_BITS;
    if kind_of(&st) == Kind::Folder && mode != now {
        let _ = chmod_fd(&fd, root, mode);
    }
}

#[allow(clippy::unnecessary_cast)] // dev_t and ino_t are narrower on some systems
fn root_id(st: &Stat) -> (u64, u64) {
    (st.st_dev as u64, st.st_ino as u64)
}

/// The root folder, never through a link, open as a path only (a folder of
/// mode 000 opens too).
#[cfg(target_os = "linux")]
fn open_root_path(root: &Path) -> rustix::io::Result<OwnedFd> {
    use rustix::fs::OFlags;
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    rustix::fs::open(root, flags, Mode::empty())
}

#[cfg(not(target_os = "linux"))]
fn open_root_path(root: &Path) -> rustix::io::Result<OwnedFd> {
    rustix::fs::open(root, DIR_FLAGS, Mode::empty())
}

/// Sets the mode of the folder `fd` (an O_PATH descriptor) names.
#[cfg(target_os = "linux")]
fn chmod_fd(fd: &OwnedFd, _root: &Path, mode: u32) -> rustix::io::Result<()> {
    let proc_path = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(fd));
    rustix::fs::chmod(proc_path.as_str(), raw_mode(mode))
}

/// Elsewhere no `/proc` names the descriptor: the root, checked not a link
/// just before.
#[cfg(not(target_os = "linux"))]
fn chmod_fd(_fd: &OwnedFd, root: &Path, mode: u32) -> rustix::io::Result<()> {
    rustix::fs::chmod(root, raw_mode(mode))
}

/// Unlinks `name` in `dir` unless it is a folder; true when it is gone.
fn unlink_file(dir: BorrowedFd<'_>, name: &[u8]) -> Result<bool> {
    match unlinkat(dir, OsStr::from_bytes(name), AtFlags::empty()) {
        Ok(()) | Err(Errno::NOENT) => Ok(true),
        // Linux says EISDIR for a folder; others EPERM.
        Err(Errno::ISDIR) | Err(Errno::PERM) => {
            match statat(dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
                Ok(st) if kind_of(&st) == Kind::Folder => Ok(false),
                Ok(_) => Err(io(name, Errno::PERM)),
                Err(Errno::NOENT) => Ok(true),
                Err(e) => Err(io(name, e)),
            }
        }
        Err(e) => Err(io(name, e)),
    }
}

/// Gives a folder or file the owner bits the store needs, never through a
/// link; returns its stat after, or `None` when nothing changed (or the
/// mode is not this process's to change).
fn give_back(dir: BorrowedFd<'_>, name: &[u8], st: &Stat) -> Option<Stat> {
    let owner = match kind_of(st) {
        Kind::Folder => FOLDER_OWNER_BITS,
        Kind::File => FILE_OWNER_BITS,
        _ => return None,
    };
    let now = mode_of(st) & 0o7777;
    if now & owner == owner {
        return None;
    }
    chmod_entry(dir, name, st, now | owner).ok()?;
    statat(dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW).ok()
}

/// Takes the setuid, setgid and world-write bits from `name` in `dir`, and
/// gives its owner back what the store needs (`u+rwx` on a folder, `u+rw`
/// on a file), never through a link. A mode this process may not change
/// (an entry it does not own) is left: the walk names it if unreadable.
fn restore_mode(
    dir: BorrowedFd<'_>,
    name: &[u8],
    st: &Stat,
    path: &[u8],
    out: &mut Sweep,
) -> Result<()> {
    let now = mode_of(st) & 0o7777;
    let privileged = now & PRIVILEGE_BITS != 0;
    let owner = match kind_of(st) {
        Kind::Folder => FOLDER_OWNER_BITS,
        Kind::File => FILE_OWNER_BITS,
        _ => 0,
    };
    let mode = (now & !PRIVILEGE_BITS) | owner;
    if mode == now {
        return Ok(());
    }
    match chmod_entry(dir, name, st, mode) {
        Ok(()) | Err(Errno::NOENT) => {}
        Err(Errno::PERM) if !privileged => {}
        Err(e) => return Err(io(path, e)),
    }
    if privileged {
        out.stripped_count += 1;
        push_named(&mut out.stripped, path);
    }
    Ok(())
}

/// Sets the mode of the entry `st` describes: through an O_PATH descriptor
/// of it (its `/proc` link names that very inode), never through a link.
#[cfg(target_os = "linux")]
fn chmod_entry(dir: BorrowedFd<'_>, name: &[u8], st: &Stat, mode: u32) -> rustix::io::Result<()> {
    use rustix::fs::OFlags;
    let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = openat(dir, OsStr::from_bytes(name), flags, Mode::empty())?;
    let now = rustix::fs::fstat(&fd)?;
    if now.st_ino != st.st_ino || kind_of(&now) != kind_of(st) || kind_of(&now) == Kind::Link {
        return Ok(());
    }
    let proc_path = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&fd));
    rustix::fs::chmod(proc_path.as_str(), raw_mode(mode))
}

#[cfg(not(target_os = "linux"))]
fn chmod_entry(dir: BorrowedFd<'_>, name: &[u8], _st: &Stat, mode: u32) -> rustix::io::Result<()> {
    rustix::fs::chmodat(
        dir,
        OsStr::from_bytes(name),
        raw_mode(mode),
        AtFlags::SYMLINK_NOFOLLOW,
    )
}

#[allow(clippy::unnecessary_cast)] // mode_t is u16 on some systems
fn raw_mode(mode: u32) -> Mode {
    Mode::from_bits_truncate(mode as rustix::fs::RawMode)
}

#[allow(clippy::useless_conversion)] // mode_t is u16 on some systems
fn mode_of(st: &Stat) -> u32 {
    u32::from(st.st_mode)
}

fn open_root(root: &Path) -> Result<OwnedFd> {
    rustix::fs::open(root, DIR_FLAGS, Mode::empty())
        .map_err(|e| Error::io(root.to_string_lossy(), errno_to_io(e)))
}

/// The folder holding `rel` (opened name by name, never through a link) and
/// the last name; `None` when a folder on the way is missing or not one.
fn open_parent<'a>(root: &OwnedFd, rel: &'a str) -> Result<Option<(OwnedFd, &'a str)>> {
    let mut parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    let Some(name) = parts.pop() else {
        return Ok(None);
    };
    if name == "." || name == ".." || parts.contains(&"..") {
        return Err(Error::invalid(
            rel,
            "it contains .., which could leave the store",
        ));
    }
    let mut current = openat(root, ".", DIR_FLAGS, Mode::empty()).map_err(|e| io(b"", e))?;
    for part in parts {
        current = match openat(&current, part, DIR_FLAGS, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::NOENT) | Err(Errno::NOTDIR) | Err(Errno::LOOP) => return Ok(None),
            Err(e) => return Err(io(rel.as_bytes(), e)),
        };
    }
    Ok(Some((current, name)))
}

fn kind_of(st: &Stat) -> Kind {
    match FileType::from_raw_mode(st.st_mode) {
        FileType::RegularFile => Kind::File,
        FileType::Directory => Kind::Folder,
        FileType::Symlink => Kind::Link,
        _ => Kind::Other,
    }
}

/// A path as text a model can be shown: invalid UTF-8 replaced, control
/// characters escaped.
pub fn escaped(path: &[u8]) -> String {
    String::from_utf8_lossy(path)
        .chars()
        .flat_map(|c| {
            let escape: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escape
        })
        .collect()
}

fn push_named(list: &mut Vec<String>, path: &[u8]) {
    if list.len() < MAX_NAMED {
        list.push(escaped(path));
    }
}

fn io(path: &[u8], e: Errno) -> Error {
    Error::io(escaped(path), errno_to_io(e))
}

#[cfg(test)]
mod tests;
