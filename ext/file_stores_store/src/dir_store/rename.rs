//! Moving a file or a folder inside the store: one rename that never
//! replaces (see [`crate::fsutil::rename`]), relative to the descriptors of
//! the two parent folders, which were opened without following a link, so
//! a link swapped into either path cannot take the move outside the store.
//! The new path's missing folders are made. The digests the store knows
//! move with the files: a rename changes no byte, only the ctime, so a file
//! whose device, inode, size and mtime are as before keeps its digest
//! without being read again.

use std::collections::HashMap;
use std::os::fd::OwnedFd;

use rustix::fs::{FileType, Stat};
use rustix::io::Errno;

use super::{Cached, DirStore, FileInfo, Fingerprint, Skipped};
use crate::content_type;
use crate::fsutil::rename::rename_noreplace;
use crate::fsutil::{errno_to_io, file_type, open_folder, stat_at};
use crate::lock::Held;
use crate::path::split_parent;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, ErrorKind, Result};

/// What a move moved: the files at their new paths, sorted by path, and
/// whether the path was a folder.
#[derive(Debug)]
pub struct Moved {
    pub files: Vec<FileInfo>,
    pub folder: bool,
}

impl DirStore {
    /// Moves the file or folder at `from` to `to`, under the store's lock.
    /// Refuses with `Exists` when anything is at `to` (never replaced),
    /// `NotFound` when no file or folder is at `from`, `InvalidPath` for a
    /// hidden or bad path, the same path, or a folder moved inside itself.
    pub fn rename(&self, from: &str, to: &str, owner: u64, cancel: &Cancel) -> Result<Moved> {
        let from = Self::visible_file_path(from)?;
        let to = Self::visible_file_path(to)?;
        if from == to {
            return Err(Error::invalid(to, "it is the path being moved"));
        }
        if to.len() > from.len() && to.starts_with(&from) && to.as_bytes()[from.len()] == b'/' {
            return Err(Error::invalid(to, "a folder cannot move into itself"));
        }
        let root = self.current_root(true)?;
        let _held = Held::take(&self.lock, owner, cancel)?;
        let (from_parent, from_name) = split_parent(&from);
        let (to_parent, to_name) = split_parent(&to);
        let not_found = || Error::new(ErrorKind::NotFound, from.clone());
        let from_dir = self
            .open_existing_folder(from_parent)?
            .ok_or_else(not_found)?;
        let folder = match stat_at(&from_dir, from_name, &from)?.map(|st| file_type(&st)) {
            Some(FileType::RegularFile) => false,
            Some(FileType::Directory) => true,
            _ => return Err(not_found()),
        };
        // Refused before any folder is made for it.
        if let Some(dir) = self.open_existing_folder(to_parent)? {
            if stat_at(&dir, to_name, &to)?.is_some() {
                return Err(Error::new(ErrorKind::Exists, to));
            }
        }
        let to_dir = open_folder(&root, to_parent, true)?
            .ok_or_else(|| Error::new(ErrorKind::NotFound, to_parent))?;
        let carried = self.take_cached(&from);
        rename_noreplace(&from_dir, from_name, &to_dir, to_name, folder).map_err(|e| match e {
            Errno::EXIST | Errno::NOTEMPTY => Error::new(ErrorKind::Exists, to.clone()),
            Errno::NOENT => not_found(),
            e => Error::io(from.clone(), errno_to_io(e)),
        })?;
        let carried: HashMap<String, Cached> = carried
            .into_iter()
            .map(|(path, cached)| (moved_path(&path, &from, &to), cached))
            .collect();
        let files = if folder {
            self.moved_folder(to_dir, &to, to_name, &carried, cancel)?
        } else {
            let st = stat_at(&to_dir, to_name, &to)?
                .ok_or_else(|| Error::new(ErrorKind::NotFound, to.clone()))?;
            let renamed = from_name != to_name;
            self.moved_file(&to_dir, &to, &st, carried.get(&to), renamed, cancel)?
                .into_iter()
                .collect()
        };
        Ok(Moved { files, folder })
    }

    /// Takes the cached digests of `path` and of every file under it out
    /// of the cache: they are the old paths' no more.
    fn take_cached(&self, path: &str) -> Vec<(String, Cached)> {
        let mut cache = self.cache.write();
        let under = |key: &str| {
            key == path
                || (key.len() > path.len()
                    && key.starts_with(path)
                    && key.as_bytes()[path.len()] == b'/')
        };
        let keys: Vec<String> = cache.keys().filter(|key| under(key)).cloned().collect();
        keys.into_iter()
            .filter_map(|key| cache.remove(&key).map(|cached| (key, cached)))
            .collect()
    }

    /// The files of the folder now at `to`, each with the digest it had
    /// before the move when it is the same file, unchanged.
    fn moved_folder(
        &self,
        parent: OwnedFd,
        to: &str,
        name: &str,
        carried: &HashMap<String, Cached>,
        cancel: &Cancel,
    ) -> Result<Vec<FileInfo>> {
        let dir = crate::fsutil::open_subdir(&parent, name, false, to)?
            .ok_or_else(|| Error::new(ErrorKind::NotFound, to))?;
        let mut skipped = Skipped::default();
        let mut files = crate::pool::install(|| {
            Self::walk(
                dir,
                to.to_owned(),
                cancel,
                &|dir, path, st| self.moved_file(dir, path, st, carried.get(path), false, cancel),
                &mut skipped,
            )
        })?;
        files.sort_unstable_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// What the store knows of the moved file `path`: the digest carried
    /// from its old path when the file is the one that had it (and, when
    /// its name changed, the content type its new name gives), else read.
    fn moved_file(
        &self,
        dir: &OwnedFd,
        path: &str,
        st: &Stat,
        carried: Option<&Cached>,
        renamed: bool,
        cancel: &Cancel,
    ) -> Result<Option<FileInfo>> {
        let now = Fingerprint::of(st);
        let Some(cached) = carried.filter(|c| same_file(&c.fingerprint, &now)) else {
            return self.info_at(dir, path, st, cancel);
        };
        let (_, name) = split_parent(path);
        let content_type = if renamed {
            content_type::detect(name, &self.head_of(dir, name, path)?)
        } else {
            cached.content_type
        };
        let info = FileInfo {
            path: path.to_owned(),
            byte_size: st.st_size as u64,
            content_type,
            digest: cached.digest.clone(),
            mtime_sec: st.st_mtime,
            mtime_nsec: st.st_mtime_nsec as u32,
        };
        self.remember(&info, st);
        Ok(Some(info))
    }

    /// The first bytes of the file `name` in `dir`, which a content type
    /// is sniffed from.
    fn head_of(&self, dir: &OwnedFd, name: &str, path: &str) -> Result<Vec<u8>> {
        use std::io::Read;
        let Some((file, _)) = crate::fsutil::open_regular(dir, name, path)? else {
            return Ok(Vec::new());
        };
        let mut head = Vec::with_capacity(content_type::SNIFF_BYTES);
        file.take(content_type::SNIFF_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(|e| Error::io(path, e))?;
        Ok(head)
    }
}

/// Whether two fingerprints are of the same, unchanged file, the ctime
/// aside (a rename sets it).
fn same_file(before: &Fingerprint, now: &Fingerprint) -> bool {
    before.dev == now.dev
        && before.ino == now.ino
        && before.size == now.size
        && before.mtime == now.mtime
}

/// The path `path` (`from` or a path inside it) has once `from` is at `to`.
fn moved_path(path: &str, from: &str, to: &str) -> String {
    if path == from {
        to.to_owned()
    } else {
        format!("{to}{}", &path[from.len()..])
    }
}

#[cfg(test)]
mod tests;
