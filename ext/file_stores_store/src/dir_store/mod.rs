//! A store in a folder on disk.
//!
//! Every operation starts from a descriptor of the root folder and walks down
//! with `openat(O_NOFOLLOW)`, so the store never follows a symbolic link and a
//! link swapped in mid-operation cannot lead outside it. Hidden files and
//! folders (names starting with a dot) are not part of the store: listing
//! leaves them out and naming one is refused.
//!
//! Writes are atomic: the bytes go to a hidden temporary file beside the
//! target, which is synced and then renamed over it. A reader or a crash
//! sees the old file or the new one, never a torn one, and a crash leaves
//! at most a hidden temporary file, which the store does not show. (The
//! folder is not synced after the rename, so after a power loss a write may
//! be undone, but never torn.)
//!
//! If the store's folder is removed while the store is open, the store
//! lists nothing until the folder is back, and the next write makes it
//! again (as opening the store does): every operation starts from the
//! folder now at the store's path, not from one that was removed.
//!
//! Digests are sha256 of the bytes. They are cached per path with the file's
//! device, inode, size, mtime and ctime, and not recomputed while those stay
//! the same. Listing walks folders and hashes files in parallel (rayon).

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parking_lot::RwLock;
use rayon::prelude::*;
use rustix::fs::{unlinkat, AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;
use sha2::{Digest, Sha256};

use crate::content_type;
use crate::fsutil::walk::{text, Entered, Names, Order, Walk};
use crate::fsutil::{
    self, errno_to_io, file_type, open_folder, open_regular, open_subdir, stat_at,
};
use crate::lock::{FolderLock, Held};
use crate::path::{is_hidden, normalize, normalize_folder, split_parent};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, ErrorKind, Result};

/// What the store knows of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    /// The normalised relative path.
    pub path: String,
    pub byte_size: u64,
    pub content_type: &'static str,
    /// sha256 of the bytes, in lowercase hex.
    pub digest: String,
    pub mtime_sec: i64,
    pub mtime_nsec: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Fingerprint {
    // `dev_t` is a u64 on Linux and an i32 on macOS; only equality matters.
    #[allow(clippy::unnecessary_cast)]
    fn of(st: &Stat) -> Self {
        Fingerprint {
            dev: st.st_dev as u64,
            ino: st.st_ino,
            size: st.st_size as u64,
            mtime: (st.st_mtime, st.st_mtime_nsec as i64),
            ctime: (st.st_ctime, st.st_ctime_nsec as i64),
        }
    }
}

struct Cached {
    fingerprint: Fingerprint,
    digest: String,
    content_type: &'static str,
}

/// A folder on disk as a file store.
pub struct DirStore {
    root: PathBuf,
    /// The root folder, opened again when the one held was removed.
    root_fd: RwLock<Arc<OwnedFd>>,
    max_bytes: Option<u64>,
    /// Shared with every other store of the folder in the process.
    lock: Arc<FolderLock>,
    cache: RwLock<HashMap<String, Cached>>,
}

/// What a walk does with each visible regular file: (its folder, its path, its stat).
type Visit<'a, T> = dyn Fn(&OwnedFd, &str, &Stat) -> Result<Option<T>> + Sync + 'a;

const HASH_CHUNK: usize = 256 * 1024;
const HIDDEN: &str =
    "hidden files and folders (names starting with a dot) are left out of this store";

impl DirStore {
    /// Opens the store at `root`, creating the folder when it is missing.
    pub fn open(root: &Path, max_bytes: Option<u64>) -> Result<Self> {
        let shown = root.display().to_string();
        std::fs::create_dir_all(root).map_err(|e| Error::io(shown.clone(), e))?;
        let root = root
            .canonicalize()
            .map_err(|e| Error::io(shown.clone(), e))?;
        let root_fd = rustix::fs::open(
            &root,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| Error::io(shown.clone(), errno_to_io(e)))?;
        let st = rustix::fs::fstat(&root_fd).map_err(|e| Error::io(shown, errno_to_io(e)))?;
        // Known by the folder opened, not the path: two spellings share.
        #[allow(clippy::unnecessary_cast)] // dev_t and ino_t are narrower on some systems
        let id = (st.st_dev as u64, st.st_ino as u64);
        Ok(DirStore {
            lock: FolderLock::shared(&root, id),
            root,
            root_fd: RwLock::new(Arc::new(root_fd)),
            max_bytes,
            cache: RwLock::new(HashMap::new()),
        })
    }

    /// The descriptor of the store's root folder, for walks that start there.
    pub fn root_fd(&self) -> Arc<OwnedFd> {
        self.current_root(false)
            .unwrap_or_else(|_| self.root_fd.read().clone())
    }

    /// The root folder's descriptor. When the folder held was removed (no
    /// links left), the folder at the store's path is opened instead, and
    /// with `create` made first when missing; without `create` a missing
    /// folder is the removed one, which lists nothing.
    fn current_root(&self, create: bool) -> Result<Arc<OwnedFd>> {
        let held = self.root_fd.read().clone();
        if rustix::fs::fstat(&*held).map_or(true, |st| st.st_nlink > 0) {
            return Ok(held);
        }
        let gone = || {
            Error::new(
                ErrorKind::NotFound,
                format!("the store's folder {}", self.root.display()),
            )
        };
        if create {
            std::fs::create_dir_all(&self.root).map_err(|_| gone())?;
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match rustix::fs::open(&self.root, flags, Mode::empty()) {
            Ok(fd) => {
                let fd = Arc::new(fd);
                *self.root_fd.write() = fd.clone();
                self.cache.write().clear();
                Ok(fd)
            }
            Err(Errno::NOENT) if !create => Ok(held),
            Err(_) => Err(gone()),
        }
    }

    /// The absolute folder of the store.
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn max_bytes(&self) -> Option<u64> {
        self.max_bytes
    }

    /// The lock every write and delete takes; `with_lock` takes it too.
    pub fn lock(&self) -> &FolderLock {
        &self.lock
    }

    fn visible_file_path(path: &str) -> Result<String> {
        let normalized = normalize(path)?;
        if is_hidden(&normalized) {
            return Err(Error::invalid(path, HIDDEN));
        }
        Ok(normalized)
    }

    /// The files in `folder` ("" for all), sorted by path.
    pub fn list(&self, folder: &str, cancel: &Cancel) -> Result<Vec<FileInfo>> {
        Ok(self.list_noting(folder, cancel)?.0)
    }

    /// [`DirStore::list`], with what the walk left out: names a store path
    /// cannot hold, and folders deeper than one reaches.
    pub fn list_noting(&self, folder: &str, cancel: &Cancel) -> Result<(Vec<FileInfo>, Skipped)> {
        let folder = normalize_folder(folder)?;
        let mut skipped = Skipped::default();
        if is_hidden(&folder) {
            return Ok((Vec::new(), skipped));
        }
        let dir = match open_folder(&*self.current_root(false)?, &folder, false) {
            Ok(Some(dir)) => dir,
            Ok(None)
            | Err(Error {
                kind: ErrorKind::Symlink | ErrorKind::NotAFolder,
                ..
            }) => return Ok((Vec::new(), skipped)),
            Err(e) => return Err(e),
        };
        crate::pool::install(|| {
            let mut files = Self::walk(
                dir,
                folder,
                cancel,
                &|dir, path, st| self.info_at(dir, path, st, cancel),
                &mut skipped,
            )?;
            files.par_sort_unstable_by(|a, b| a.path.cmp(&b.path));
            skipped.names.sort_unstable();
            skipped.deep.sort_unstable();
            Ok((files, skipped))
        })
    }

    /// The file at `path`, or `None`.
    pub fn stat(&self, path: &str, cancel: &Cancel) -> Result<Option<FileInfo>> {
        let path = Self::visible_file_path(path)?;
        let (parent, name) = split_parent(&path);
        let Some(dir) = self.open_existing_folder(parent)? else {
            return Ok(None);
        };
        match stat_at(&dir, name, &path)? {
            Some(st) if file_type(&st) == FileType::RegularFile => {
                self.info_at(&dir, &path, &st, cancel)
            }
            _ => Ok(None),
        }
    }

    /// The bytes of the file at `path`.
    pub fn read(&self, path: &str, cancel: &Cancel) -> Result<Vec<u8>> {
        let (path, file, st) = self.open_file(path)?;
        fsutil::read_all(&file, st.st_size as u64, &path, cancel)
    }

    /// Opens the regular file `path` for reading: its normalised path, the
    /// open file and its stat. A folder or a missing file is an error.
    fn open_file(&self, path: &str) -> Result<(String, File, Stat)> {
        let path = Self::visible_file_path(path)?;
        let (parent, name) = split_parent(&path);
        let not_found = || Error::new(ErrorKind::NotFound, path.clone());
        let dir = self.open_existing_folder(parent)?.ok_or_else(not_found)?;
        match open_regular(&dir, name, &path)? {
            Some((file, st)) => Ok((path, file, st)),
            None => match stat_at(&dir, name, &path)? {
                Some(st) if file_type(&st) == FileType::Directory => {
                    Err(Error::new(ErrorKind::IsFolder, path.clone()))
                }
                _ => Err(not_found()),
            },
        }
    }

    /// Writes `bytes` to `path` atomically, creating folders as needed:
    /// a [`Writing`] fed one slice, as a streamed write is fed its chunks.
    pub fn write(&self, path: &str, bytes: &[u8], owner: u64, cancel: &Cancel) -> Result<FileInfo> {
        let mut writing = self.start_write(path, owner, cancel)?;
        writing.push(bytes)?;
        writing.finish()
    }

    /// Deletes the file at `path`, returning what it was; `None` when there is none.
    pub fn delete(&self, path: &str, owner: u64, cancel: &Cancel) -> Result<Option<FileInfo>> {
        let path = Self::visible_file_path(path)?;
        let _held = Held::take(&self.lock, owner, cancel)?;
        self.delete_held(&path, cancel)
    }

    fn delete_held(&self, path: &str, cancel: &Cancel) -> Result<Option<FileInfo>> {
        let (parent, name) = split_parent(path);
        let Some(dir) = self.open_existing_folder(parent)? else {
            return Ok(None);
        };
        let info = match stat_at(&dir, name, path)? {
            Some(st) if file_type(&st) == FileType::RegularFile => {
                self.info_at(&dir, path, &st, cancel)?
            }
            Some(st) if file_type(&st) == FileType::Directory => {
                return Err(Error::new(ErrorKind::IsFolder, path));
            }
            _ => return Ok(None),
        };
        match unlinkat(&dir, name, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => {}
            Err(e) => return Err(Error::io(path, errno_to_io(e))),
        }
        self.cache.write().remove(path);
        Ok(info)
    }

    /// Deletes every file in `folder`, and the folders left empty, returning
    /// the deleted files.
    pub fn delete_folder(
        &self,
        folder: &str,
        owner: u64,
        cancel: &Cancel,
    ) -> Result<Vec<FileInfo>> {
        let folder = Self::visible_file_path(folder)?;
        let _held = Held::take(&self.lock, owner, cancel)?;
        let files = self.list(&folder, cancel)?;
        let mut deleted = Vec::with_capacity(files.len());
        for file in &files {
            cancel.check()?;
            if let Some(info) = self.delete_held(&file.path, cancel)? {
                deleted.push(info);
            }
        }
        self.remove_empty_folders(&folder);
        Ok(deleted)
    }

    /// Best effort: removes `folder` and the folders in it that hold nothing
    /// (hidden files keep a folder, since the store cannot see them).
    fn remove_empty_folders(&self, folder: &str) {
        let (parent, name) = split_parent(folder);
        if let Ok(Some(dir)) = open_folder(&self.root_fd(), parent, false) {
            remove_empty_tree(&dir, name);
        }
    }

    /// The bytes the store's folder holds: every regular file in it,
    /// hidden ones and names the store cannot show included (see `usage`),
    /// which is what `max_bytes` caps.
    pub fn total_size(&self, cancel: &Cancel) -> Result<u64> {
        let root = open_folder(&*self.current_root(false)?, "", false)?
            .ok_or_else(|| Error::new(ErrorKind::NotFound, self.root.display().to_string()))?;
        usage::folder_bytes(root, cancel)
    }

    fn open_existing_folder(&self, folder: &str) -> Result<Option<OwnedFd>> {
        match open_folder(&*self.current_root(false)?, folder, false) {
            Err(Error {
                kind: ErrorKind::Symlink | ErrorKind::NotAFolder,
                ..
            }) => Ok(None),
            other => other,
        }
    }

    /// What the store knows of the regular file `path` (named by its last
    /// component in `dir`), from the cache when its fingerprint still holds.
    fn info_at(
        &self,
        dir: &OwnedFd,
        path: &str,
        st: &Stat,
        cancel: &Cancel,
    ) -> Result<Option<FileInfo>> {
        let fingerprint = Fingerprint::of(st);
        let found = |digest: String, content_type: &'static str, st: &Stat| FileInfo {
            path: path.to_owned(),
            byte_size: st.st_size as u64,
            content_type,
            digest,
            mtime_sec: st.st_mtime,
            mtime_nsec: st.st_mtime_nsec as u32,
        };
        if let Some(c) = self.cache.read().get(path) {
            if c.fingerprint == fingerprint {
                return Ok(Some(found(c.digest.clone(), c.content_type, st)));
            }
        }
        let (_, name) = split_parent(path);
        let Some((file, st)) = open_regular(dir, name, path)? else {
            return Ok(None);
        };
        let (digest, head) = hash_file(&file, path, cancel)?;
        let content_type = content_type::detect(name, &head);
        let after = rustix::fs::fstat(&file).map_err(|e| Error::io(path, errno_to_io(e)))?;
        let info = found(digest, content_type, &after);
        // A file that changed while it was hashed is returned, but its
        // digest is cached only when the file stayed the same throughout.
        if Fingerprint::of(&after) == Fingerprint::of(&st) {
            self.remember(&info, &after);
        }
        Ok(Some(info))
    }

    fn remember(&self, info: &FileInfo, st: &Stat) {
        self.cache.write().insert(
            info.path.clone(),
            Cached {
                fingerprint: Fingerprint::of(st),
                digest: info.digest.clone(),
                content_type: info.content_type,
            },
        );
    }

    /// Walks `dir` (the folder `rel`) as a store walk (see
    /// [`fsutil::walk`]), calling `visit` for each visible regular file and
    /// collecting what it returns; what no store path can name goes to
    /// `skipped`. Files are visited in parallel, a batch at a time, so the
    /// walk holds at most a batch's and the stack's descriptors open.
    fn walk<T: Send>(
        dir: OwnedFd,
        rel: String,
        cancel: &Cancel,
        visit: &Visit<'_, T>,
        skipped: &mut Skipped,
    ) -> Result<Vec<T>> {
        const BATCH: usize = 256;
        let mut walk = Walk::new(dir, rel.as_bytes(), Names::Store, Order::Listed, cancel)?;
        let mut found = Vec::new();
        let mut batch: Vec<(Arc<OwnedFd>, String)> = Vec::with_capacity(BATCH);
        while let Some(entry) = walk.next()? {
            if entry.kind == FileType::Directory {
                if let Entered::Denied(e) = walk.enter(&entry)? {
                    return Err(Error::io(entry.path_text(), errno_to_io(e)));
                }
                continue;
            }
            batch.push((entry.dir, text(entry.path)));
            if batch.len() == BATCH {
                found.append(&mut visit_batch(&batch, cancel, visit)?);
                batch.clear();
            }
        }
        found.append(&mut visit_batch(&batch, cancel, visit)?);
        skipped.names.append(&mut walk.unnamed);
        skipped.deep.append(&mut walk.deep);
        Ok(found)
    }
}

/// What a walk left out, for a note: paths a store path cannot name.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Files and folders whose names a store path cannot hold (not UTF-8,
    /// a control character, a backslash), escaped.
    pub names: Vec<String>,
    /// Folders nested deeper than a store path reaches, and paths longer
    /// than one may be.
    pub deep: Vec<String>,
}

impl Skipped {
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.deep.is_empty()
    }
}

/// Visits a batch of files (each with its folder) in parallel.
fn visit_batch<T: Send>(
    batch: &[(Arc<OwnedFd>, String)],
    cancel: &Cancel,
    visit: &Visit<'_, T>,
) -> Result<Vec<T>> {
    batch
        .par_iter()
        .map(|(dir, path)| {
            cancel.check()?;
            let (_, name) = split_parent(path);
            match stat_at(&**dir, name, path)? {
                Some(st) if file_type(&st) == FileType::RegularFile => visit(dir, path, &st),
                _ => Ok(None), // gone, or replaced, since the folder was read
            }
        })
        .filter_map(Result::transpose)
        .collect()
}

fn hash_file(file: &File, path: &str, cancel: &Cancel) -> Result<(String, Vec<u8>)> {
    thread_local! {
        // One buffer per thread: most files are small, and zeroing a fresh
        // buffer for each one costs more than hashing it.
        static BUF: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; HASH_CHUNK]);
    }
    BUF.with(|buf| hash_with(file, path, cancel, &mut buf.borrow_mut()))
}

fn hash_with(
    mut file: &File,
    path: &str,
    cancel: &Cancel,
    buf: &mut [u8],
) -> Result<(String, Vec<u8>)> {
    let mut hasher = Sha256::new();
    let mut head = Vec::new();
    loop {
        cancel.check()?;
        let n = match file.read(buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(path, e)),
        };
        if head.len() < content_type::SNIFF_BYTES {
            let take = n.min(content_type::SNIFF_BYTES - head.len());
            head.extend_from_slice(&buf[..take]);
        }
        hasher.update(&buf[..n]);
    }
    Ok((hex(&hasher.finalize()), head))
}

/// The sha256 of `bytes` in lowercase hex, as every store's digests are.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The lowercase hex of what `hasher` hashed.
pub fn sha256_finish(hasher: Sha256) -> String {
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Removes the folder `name` in `dir` if, after removing its empty
/// subfolders, it holds nothing. Never follows links. The store's one walk,
/// so no deeper than a store path reaches: a folder below that holds a
/// folder, so it stays, and so do the folders above it.
fn remove_empty_tree(dir: &OwnedFd, name: &str) {
    let Ok(Some(top)) = open_subdir(dir, name, false, name) else {
        return;
    };
    let cancel = Cancel::new();
    let Ok(mut walk) = Walk::new(top, b"", Names::All, Order::Listed, &cancel) else {
        return;
    };
    // The folders entered and not yet left, the innermost last: each is
    // left, and removed if it is empty, when the walk yields an entry no
    // deeper than it (or ends).
    let mut entered: Vec<(Arc<OwnedFd>, Vec<u8>, usize)> = Vec::new();
    loop {
        let next = walk.next();
        let depth = match &next {
            Ok(Some(entry)) => entry.depth,
            _ => 0,
        };
        while entered.last().is_some_and(|(_, _, d)| *d >= depth) {
            let Some((parent, name, _)) = entered.pop() else {
                break;
            };
            // Fails, as it should, when the folder still holds anything.
            let _ = unlinkat(&*parent, OsStr::from_bytes(&name), AtFlags::REMOVEDIR);
        }
        let Ok(Some(entry)) = next else {
            break;
        };
        if entry.kind == FileType::Directory && matches!(walk.enter(&entry), Ok(Entered::Opened)) {
            entered.push((entry.dir, entry.name, entry.depth));
        }
    }
    let _ = unlinkat(dir, name, AtFlags::REMOVEDIR);
}

#[cfg(test)]
mod tests;

mod read_lines;
mod rename;
mod streams;
pub use rename::Moved;
pub use streams::{ChunkReader, Writing};
mod usage;
pub use read_lines::ReadLines;
