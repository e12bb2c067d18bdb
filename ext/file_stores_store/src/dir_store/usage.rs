//! The bytes a store's folder holds, for `max_bytes`: every regular file in
//! it, hidden ones and names no store path can hold included. The store
//! shows neither, but both take the disk the cap is there to bound: a run in
//! the folder can leave `.cache/` full of files, and five runs each leaving
//! 6 MB there filled a 10 MB store four times over while the store counted
//! only what it lists.
//!
//! The walk never follows a link, goes as deep as a store path may
//! ([`MAX_DEPTH`] names, as every other walk of the store), holds open only
//! the folders on the way down, and skips what it cannot open or what is
//! gone since the folder was read (a folder made unreadable is not the
//! cap's to fix: the run's sweep gives such folders back).

use std::ffi::{CStr, CString};
use std::os::fd::OwnedFd;
use std::sync::Arc;

use rustix::fs::{openat, statat, AtFlags, FileType, Mode};
use rustix::io::Errno;

use crate::fsutil::{dir_entries, errno_to_io, file_type, shown_name, DIR_FLAGS};
use crate::path::MAX_DEPTH;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// A folder still to walk: its parent's descriptor, its name there, its
/// path for messages and its depth (the root is 0).
struct Pending {
    parent: Arc<OwnedFd>,
    name: CString,
    rel: String,
    depth: usize,
}

/// The sum of the apparent sizes of the regular files below `root`.
pub(super) fn folder_bytes(root: OwnedFd, cancel: &Cancel) -> Result<u64> {
    let mut total = 0u64;
    let mut stack: Vec<Pending> = Vec::new();
    total += folder(Arc::new(root), "", 0, &mut stack)?;
    while let Some(next) = stack.pop() {
        cancel.check()?;
        let dir = match openat(
            &*next.parent,
            next.name.as_c_str(),
            DIR_FLAGS,
            Mode::empty(),
        ) {
            Ok(dir) => dir,
            // Gone, swapped for a link or a file, or unreadable: skipped.
            Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP | Errno::ACCESS | Errno::PERM) => {
                continue
            }
            Err(e) => return Err(Error::io(next.rel, errno_to_io(e))),
        };
        total += folder(Arc::new(dir), &next.rel, next.depth, &mut stack)?;
    }
    Ok(total)
}

/// The bytes of the regular files directly in `dir` (the folder `rel` at
/// `depth`); its folders go on `stack`, unless a file in them would nest
/// more names than a store path may.
fn folder(dir: Arc<OwnedFd>, rel: &str, depth: usize, stack: &mut Vec<Pending>) -> Result<u64> {
    let mut bytes = 0u64;
    dir_entries::for_each(&dir, rel, |name, kind| {
        if matches!(name.to_bytes(), b"." | b"..") {
            return Ok(());
        }
        let kind = match kind {
            FileType::RegularFile | FileType::Directory => kind,
            FileType::Unknown => match stat(&dir, name, rel)? {
                Some(st) => file_type(&st),
                None => return Ok(()),
            },
            _ => return Ok(()),
        };
        let path = || {
            let shown = shown_name(name.to_bytes());
            if rel.is_empty() {
                shown
            } else {
                format!("{rel}/{shown}")
            }
        };
        match kind {
            FileType::RegularFile => {
                // Gone since the folder was read, or replaced: not counted.
                if let Some(st) = stat(&dir, name, rel)? {
                    if file_type(&st) == FileType::RegularFile {
                        bytes = bytes.saturating_add(st.st_size as u64);
                    }
                }
            }
            FileType::Directory if depth + 1 < MAX_DEPTH => stack.push(Pending {
                parent: dir.clone(),
                name: name.to_owned(),
                rel: path(),
                depth: depth + 1,
            }),
            _ => {}
        }
        Ok(())
    })?;
    Ok(bytes)
}

/// `lstat` of `name` in `dir`; None when it is gone.
fn stat(dir: &OwnedFd, name: &CStr, rel: &str) -> Result<Option<rustix::fs::Stat>> {
    match statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => Ok(Some(st)),
        Err(Errno::NOENT) => Ok(None),
        Err(e) => Err(Error::io(rel, errno_to_io(e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dir_store::DirStore;

    #[test]
    fn counts_hidden_files_and_names_no_path_can_hold_but_never_follows_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("big.bin"), vec![0u8; 5000]).unwrap();
        let store = DirStore::open(tmp.path(), None).unwrap();
        store.write("a.txt", b"12345", 1, &Cancel::new()).unwrap();
        std::fs::create_dir_all(tmp.path().join(".cache/deep")).unwrap();
        std::fs::write(tmp.path().join(".cache/deep/x.bin"), vec![0u8; 100]).unwrap();
        std::fs::write(tmp.path().join(".hidden"), vec![0u8; 20]).unwrap();
        std::fs::write(tmp.path().join("bad\nname"), vec![0u8; 3]).unwrap();
        std::os::unix::fs::symlink(outside.path(), tmp.path().join("out")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("big.bin"), tmp.path().join(".l")).unwrap();
        assert_eq!(store.total_size(&Cancel::new()).unwrap(), 5 + 100 + 20 + 3);
    }

    #[test]
    fn a_hidden_file_counts_against_max_bytes_on_write() {
        let tmp = tempfile::tempdir().unwrap();
        let store = DirStore::open(tmp.path(), Some(100)).unwrap();
        std::fs::write(tmp.path().join(".left-by-a-run"), vec![0u8; 95]).unwrap();
        let err = store
            .write("a.txt", b"0123456789", 1, &Cancel::new())
            .unwrap_err();
        assert!(err.to_string().contains("full"), "{err}");
        store.write("a.txt", b"01234", 1, &Cancel::new()).unwrap();
    }

    #[test]
    fn cancels() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("d")).unwrap();
        let cancel = Cancel::new();
        cancel.cancel();
        let root = rustix::fs::open(tmp.path(), DIR_FLAGS, Mode::empty()).unwrap();
        assert!(folder_bytes(root, &cancel).is_err());
    }
}
