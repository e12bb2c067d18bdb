//! The bytes a store's folder holds, for `max_bytes`: every regular file in
//! it, hidden ones and names no store path can hold included. The store
//! shows neither, but both take the disk the cap is there to bound: a run in
//! the folder can leave `.cache/` full of files, and five runs each leaving
//! 6 MB there filled a 10 MB store four times over while the store counted
//! only what it lists.
//!
//! The walk is the store's one walk ([`crate::fsutil::walk`]) of every
//! entry; it skips what it cannot open or what is gone since the folder was
//! read (a folder made unreadable is not the cap's to fix: the run's sweep
//! gives such folders back).

use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;

use rustix::fs::{statat, AtFlags, FileType};
use rustix::io::Errno;

use crate::fsutil::walk::{Names, Order, Walk};
use crate::fsutil::{errno_to_io, file_type};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// The sum of the apparent sizes of the regular files below `root`.
pub(super) fn folder_bytes(root: OwnedFd, cancel: &Cancel) -> Result<u64> {
    let mut total = 0u64;
    let mut walk = Walk::new(root, b"", Names::All, Order::Listed, cancel)?;
    while let Some(entry) = walk.next()? {
        match entry.kind {
            FileType::RegularFile => {
                // Gone since the folder was read, or replaced: not counted.
                let name = OsStr::from_bytes(&entry.name);
                match statat(&*entry.dir, name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(st) if file_type(&st) == FileType::RegularFile => {
                        total = total.saturating_add(st.st_size as u64);
                    }
                    Ok(_) | Err(Errno::NOENT) => {}
                    Err(e) => return Err(Error::io(entry.path_text(), errno_to_io(e))),
                }
            }
            // Gone, swapped, too deep or unreadable: skipped.
            FileType::Directory => drop(walk.enter(&entry)?),
            _ => {}
        }
    }
    Ok(total)
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
        let root = rustix::fs::open(
            tmp.path(),
            crate::fsutil::DIR_FLAGS,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
        assert!(folder_bytes(root, &cancel).is_err());
    }
}
