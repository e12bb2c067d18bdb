//! Reading a folder's entries from its descriptor, in directory order.
//!
//! On Linux the entries come from `getdents64` (rustix's `RawDir`), straight
//! into a buffer on the stack from the descriptor as it stands: no duplicate
//! descriptor to make and close, and a few hundred entries per system call
//! (a walk of a tree lists thousands of folders, and system calls are most of
//! its time).
//!
//! Elsewhere (macOS, the BSDs), and on Linux with the `portable` feature, so
//! that this path is built and tested on Linux too, they come from
//! `fdopendir` and `readdir` (rustix's `Dir`) on a descriptor of the folder
//! opened anew: one more `openat` and `close` per folder listed.

use std::ffi::CStr;
use std::os::fd::OwnedFd;

use rustix::fs::FileType;
use rustix::io::Errno;

use super::errno_to_io;
use file_stores_base::error::{Error, Result};

/// Calls `f` with the name and type of each entry of `dir` (the store
/// folder `rel`), "." and ".." included; the type is
/// [`FileType::Unknown`] where the file system does not say. A folder
/// removed since it was opened lists nothing more (as `std::fs::read_dir`
/// has it). `dir` must be a descriptor nothing has read entries from.
#[cfg(all(target_os = "linux", not(feature = "portable")))]
pub fn for_each(
    dir: &OwnedFd,
    rel: &str,
    mut f: impl FnMut(&CStr, FileType) -> Result<()>,
) -> Result<()> {
    use std::mem::MaybeUninit;
    // Enough for any entry (names are at most 255 bytes), and for a few
    // hundred per system call.
    let mut buf = [MaybeUninit::<u8>::uninit(); 16 << 10];
    let mut reader = rustix::fs::RawDir::new(dir, &mut buf);
    while let Some(entry) = reader.next() {
        match entry {
            Ok(entry) => f(entry.file_name(), entry.file_type())?,
            Err(Errno::INTR) => continue,
            Err(Errno::NOENT) => break,
            Err(e) => return Err(Error::io(rel, errno_to_io(e))),
        }
    }
    Ok(())
}

/// Calls `f` with the name and type of each entry of `dir` (the store
/// folder `rel`), "." and ".." included; the type is
/// [`FileType::Unknown`] where the file system does not say. A folder
/// removed since it was opened lists nothing more (as `std::fs::read_dir`
/// has it). `dir` must be a descriptor nothing has read entries from.
#[cfg(not(all(target_os = "linux", not(feature = "portable"))))]
pub fn for_each(
    dir: &OwnedFd,
    rel: &str,
    mut f: impl FnMut(&CStr, FileType) -> Result<()>,
) -> Result<()> {
    // `Dir` opens "." below `dir` for `fdopendir`, which owns what it is
    // given; a folder already removed reads as empty.
    let mut reader = match rustix::fs::Dir::read_from(dir) {
        Ok(reader) => reader,
        Err(Errno::NOENT) => return Ok(()),
        Err(e) => return Err(Error::io(rel, errno_to_io(e))),
    };
    while let Some(entry) = reader.read() {
        match entry {
            Ok(entry) => f(entry.file_name(), entry.file_type())?,
            Err(Errno::NOENT) => break,
            // `Dir` reads nothing more after an error (EINTR included), so
            // every other one is reported rather than taken for the end.
            Err(e) => return Err(Error::io(rel, errno_to_io(e))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::for_each;
    use rustix::fs::{Mode, OFlags};

    #[test]
    fn lists_every_entry_of_a_folder_larger_than_one_read() {
        let tmp = tempfile::tempdir().unwrap();
        // 300 names of 200 bytes are more than one 16 KiB read of entries.
        let mut made: Vec<String> = (0..300).map(|i| format!("{i:0200}")).collect();
        for name in &made {
            std::fs::write(tmp.path().join(name), b"").unwrap();
        }
        std::fs::create_dir(tmp.path().join("sub")).unwrap();
        let dir = rustix::fs::open(
            tmp.path(),
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap();
        let mut listed = Vec::new();
        for_each(&dir, "", |name, _kind| {
            listed.push(name.to_str().unwrap().to_owned());
            Ok(())
        })
        .unwrap();
        made.extend([".", "..", "sub"].map(String::from));
        listed.sort();
        made.sort();
        assert_eq!(listed, made);
    }
}
