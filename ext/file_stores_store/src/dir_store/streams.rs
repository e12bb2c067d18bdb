//! Writes fed in chunks and reads handed out in chunks, so a file of any
//! size passes through the store in a buffer's worth of memory.
//!
//! A [`Writing`] is every write's one path: [`DirStore::write`] feeds it
//! one slice, the binding's `write(path, io)` a chunk at a time as the IO
//! reads. It holds the store's lock from start to end, writes a hidden
//! temporary file beside the target, counts against `max_bytes` before
//! each chunk reaches the disk, hashes and sniffs as it goes, and on
//! `finish` syncs and renames over the target. Dropped unfinished (an
//! error, an IO that raised, a refused chunk), it removes its temporary
//! file and frees the lock: the old file is left whole.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;

use rustix::fs::{openat, renameat, unlinkat, AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;
use sha2::{Digest, Sha256};

use super::{DirStore, FileInfo};
use crate::content_type;
use crate::fsutil::{errno_to_io, file_type, open_folder, stat_at};
use crate::lock::Held;
use crate::path::split_parent;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, ErrorKind, Result};

/// A write under way; see the module docs.
pub struct Writing<'a> {
    store: &'a DirStore,
    path: String,
    /// Where the last component of `path` starts.
    name_at: usize,
    /// The bytes the folder holds besides the file being replaced, when
    /// the store has a cap.
    others: Option<u64>,
    hasher: Sha256,
    head: Vec<u8>,
    written: u64,
    /// `None` once finished.
    temp: Option<TempFile>,
    // Last: the temporary file goes before the lock is freed.
    _held: Held<'a>,
}

impl DirStore {
    /// Starts a write of `path` for lock `owner`: checks the path, takes
    /// the lock, makes the folders, and opens the temporary file.
    pub fn start_write(&self, path: &str, owner: u64, cancel: &Cancel) -> Result<Writing<'_>> {
        let path = Self::visible_file_path(path)?;
        let (parent, name) = split_parent(&path);
        let name_at = path.len() - name.len();
        let root = self.current_root(true)?;
        let held = Held::take(&self.lock, owner, cancel)?;
        let dir = open_folder(&root, parent, true)?
            .ok_or_else(|| Error::new(ErrorKind::NotFound, parent))?;
        let old_size = match stat_at(&dir, name, &path)? {
            None => 0,
            Some(st) => match file_type(&st) {
                FileType::RegularFile => st.st_size as u64,
                FileType::Directory => return Err(Error::new(ErrorKind::IsFolder, path)),
                FileType::Symlink => return Err(Error::new(ErrorKind::Symlink, path)),
                _ => return Err(Error::invalid(path, "it is not a regular file")),
            },
        };
        let others = match self.max_bytes {
            Some(_) => Some(self.total_size(cancel)?.saturating_sub(old_size)),
            None => None,
        };
        let temp = TempFile::create(dir, name, &path)?;
        Ok(Writing {
            store: self,
            path,
            name_at,
            others,
            hasher: Sha256::new(),
            head: Vec::new(),
            written: 0,
            temp: Some(temp),
            _held: held,
        })
    }

    /// Opens the regular file `path` to be read in chunks, never following
    /// a link on the way.
    pub fn chunk_reader(&self, path: &str) -> Result<ChunkReader> {
        let (path, file, _) = self.open_file(path)?;
        Ok(ChunkReader { path, file })
    }
}

impl Writing<'_> {
    /// Appends `bytes`; refuses them, writing none, when they take the
    /// store past its cap.
    pub fn push(&mut self, bytes: &[u8]) -> Result<()> {
        self.check_cap(bytes.len() as u64)?;
        let temp = self.temp.as_mut().ok_or_else(|| finished(&self.path))?;
        temp.file
            .write_all(bytes)
            .map_err(|e| Error::io(&self.path, e))?;
        self.hasher.update(bytes);
        if self.head.len() < content_type::SNIFF_BYTES {
            let take = bytes.len().min(content_type::SNIFF_BYTES - self.head.len());
            self.head.extend_from_slice(&bytes[..take]);
        }
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// Syncs the file and renames it over the target: the new file's info.
    pub fn finish(&mut self) -> Result<FileInfo> {
        // An empty file counts too: a store already past its cap takes no write.
        self.check_cap(0)?;
        let temp = self.temp.take().ok_or_else(|| finished(&self.path))?;
        let name = &self.path[self.name_at..];
        let st = temp.commit(name, &self.path)?;
        let info = FileInfo {
            digest: super::sha256_finish(std::mem::take(&mut self.hasher)),
            content_type: content_type::detect(name, &self.head),
            byte_size: self.written,
            mtime_sec: st.st_mtime,
            mtime_nsec: st.st_mtime_nsec as u32,
            path: self.path.clone(),
        };
        self.store.remember(&info, &st);
        Ok(info)
    }

    fn check_cap(&self, more: u64) -> Result<()> {
        let (Some(others), Some(max_bytes)) = (self.others, self.store.max_bytes) else {
            return Ok(());
        };
        let needed = others.saturating_add(self.written).saturating_add(more);
        if needed > max_bytes {
            return Err(Error::new(
                ErrorKind::Full { needed, max_bytes },
                self.path.clone(),
            ));
        }
        Ok(())
    }
}

fn finished(path: &str) -> Error {
    Error::invalid(path, "this write has finished")
}

/// A hidden temporary file beside the target, removed when dropped
/// uncommitted.
struct TempFile {
    dir: OwnedFd,
    name: String,
    file: File,
    committed: bool,
}

impl TempFile {
    fn create(dir: OwnedFd, target: &str, path: &str) -> Result<Self> {
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        loop {
            let name = format!(".{}.{:016x}.tmp", truncate_name(target), fastrand::u64(..));
            match openat(&dir, &name, flags, Mode::from_bits_truncate(0o666)) {
                Ok(fd) => {
                    return Ok(TempFile {
                        dir,
                        name,
                        file: File::from(fd),
                        committed: false,
                    })
                }
                Err(Errno::EXIST) => continue,
                Err(e) => return Err(Error::io(path, errno_to_io(e))),
            }
        }
    }

    /// Syncs the file and renames it over `target`; its stat after.
    fn commit(mut self, target: &str, path: &str) -> Result<Stat> {
        let io = |e: Errno| Error::io(path, errno_to_io(e));
        self.file.sync_all().map_err(|e| Error::io(path, e))?;
        renameat(&self.dir, &self.name, &self.dir, target).map_err(|e| match e {
            Errno::ISDIR => Error::new(ErrorKind::IsFolder, path),
            e => io(e),
        })?;
        self.committed = true;
        // After the rename, which changes the ctime: the fingerprint the
        // digest cache keeps must be the one the next list sees. The folder
        // is not synced after the rename: a power loss may then bring back
        // the old file, whole, which is still "old or new". It halves the
        // cost of a small write.
        rustix::fs::fstat(&self.file).map_err(io)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = unlinkat(&self.dir, &self.name, AtFlags::empty());
        }
    }
}

/// Keeps temporary names within NAME_MAX: a dot, the name, 18 more characters.
fn truncate_name(name: &str) -> &str {
    let mut end = name.len().min(200);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// A file of the store opened for reading in chunks.
pub struct ChunkReader {
    path: String,
    file: File,
}

impl ChunkReader {
    /// Fills the start of `buf` with the next bytes: how many (0 at the end).
    /// Checks `cancel` only before reading, so a cancelled call read nothing.
    pub fn read(&mut self, buf: &mut [u8], cancel: &Cancel) -> Result<usize> {
        loop {
            cancel.check()?;
            match self.file.read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::io(&self.path, e)),
            }
        }
    }

    /// The store path of the file.
    pub fn path(&self) -> &str {
        &self.path
    }
}

#[cfg(test)]
mod tests;
