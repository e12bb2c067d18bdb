//! Renaming without replacing: a move never overwrites what is at its new
//! name, even when another process makes something there at the same time.
//!
//! Linux and macOS do it in one call (`renameat2(RENAME_NOREPLACE)`,
//! `renameatx_np(RENAME_EXCL)`), relative to folder descriptors and without
//! following a link (rename never follows the last name, and the folders
//! were opened with `O_NOFOLLOW`). Where that call is missing (an old
//! kernel, a file system that refuses the flag: `EINVAL`, `ENOSYS`), the
//! same promise is kept with calls that fail when the name exists: a file
//! is hard-linked at its new name (`linkat`, which fails with `EEXIST`),
//! then unlinked at its old one; a folder first reserves its new name with
//! `mkdirat` (which fails with `EEXIST`), then is renamed over that empty
//! folder, which rename may replace and nothing else can (a folder that
//! is no longer empty refuses it with `ENOTEMPTY`).

use std::os::fd::AsFd;

use rustix::fs::{linkat, mkdirat, renameat, unlinkat, AtFlags, Mode};
use rustix::io::Errno;

/// Renames `from` in `from_dir` to `to` in `to_dir`, failing with
/// `Errno::EXIST` when anything is at `to`. `folder` says what `from` is
/// (the fallback differs).
pub fn rename_noreplace<A: AsFd, B: AsFd>(
    from_dir: A,
    from: &str,
    to_dir: B,
    to: &str,
    folder: bool,
) -> Result<(), Errno> {
    match native(from_dir.as_fd(), from, to_dir.as_fd(), to) {
        Err(Errno::INVAL) | Err(Errno::NOSYS) | Err(Errno::NOTSUP) => {
            rename_by_steps(from_dir, from, to_dir, to, folder)
        }
        other => other,
    }
}

#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
fn native(
    from_dir: std::os::fd::BorrowedFd<'_>,
    from: &str,
    to_dir: std::os::fd::BorrowedFd<'_>,
    to: &str,
) -> Result<(), Errno> {
    rustix::fs::renameat_with(
        from_dir,
        from,
        to_dir,
        to,
        rustix::fs::RenameFlags::NOREPLACE,
    )
}

/// No such call here (the BSDs): the steps that fail when the name exists.
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
fn native(
    _from_dir: std::os::fd::BorrowedFd<'_>,
    _from: &str,
    _to_dir: std::os::fd::BorrowedFd<'_>,
    _to: &str,
) -> Result<(), Errno> {
    Err(Errno::NOSYS)
}

/// The fallback of [`rename_noreplace`]: a file by `linkat` then `unlinkat`,
/// a folder by `mkdirat` then `renameat` over the folder just made.
pub fn rename_by_steps<A: AsFd, B: AsFd>(
    from_dir: A,
    from: &str,
    to_dir: B,
    to: &str,
    folder: bool,
) -> Result<(), Errno> {
    let (from_dir, to_dir) = (from_dir.as_fd(), to_dir.as_fd());
    if !folder {
        // Without AT_SYMLINK_FOLLOW, linkat links the name itself, a link
        // swapped in included: nothing is followed.
        linkat(from_dir, from, to_dir, to, AtFlags::empty())?;
        return match unlinkat(from_dir, from, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => Ok(()),
            Err(e) => {
                // Both names lead to the file: take the new one back, so
                // the move did not happen rather than half-happened.
                let _ = unlinkat(to_dir, to, AtFlags::empty());
                Err(e)
            }
        };
    }
    mkdirat(to_dir, to, Mode::from_bits_truncate(0o700))?;
    match renameat(from_dir, from, to_dir, to) {
        Ok(()) => Ok(()),
        Err(e) => {
            // Ours, and empty unless someone filled it: then it stays theirs.
            let _ = unlinkat(to_dir, to, AtFlags::REMOVEDIR);
            Err(match e {
                Errno::NOTEMPTY => Errno::EXIST,
                e => e,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{rename_by_steps, rename_noreplace};
    use rustix::io::Errno;
    use std::os::fd::OwnedFd;

    fn open(dir: &std::path::Path) -> OwnedFd {
        rustix::fs::open(
            dir,
            rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .unwrap()
    }

    #[test]
    fn renames_files_and_folders_and_never_replaces() {
        for steps in [false, true] {
            let tmp = tempfile::tempdir().unwrap();
            let root = open(tmp.path());
            std::fs::write(tmp.path().join("a.txt"), b"a").unwrap();
            std::fs::write(tmp.path().join("b.txt"), b"b").unwrap();
            std::fs::create_dir_all(tmp.path().join("d/e")).unwrap();
            std::fs::write(tmp.path().join("d/e/f.txt"), b"f").unwrap();
            std::fs::create_dir(tmp.path().join("taken")).unwrap();
            let rename = |from: &str, to: &str, folder: bool| {
                if steps {
                    rename_by_steps(&root, from, &root, to, folder)
                } else {
                    rename_noreplace(&root, from, &root, to, folder)
                }
            };
            assert_eq!(rename("a.txt", "b.txt", false), Err(Errno::EXIST));
            assert_eq!(rename("d", "taken", true), Err(Errno::EXIST));
            assert_eq!(rename("d", "b.txt", true), Err(Errno::EXIST));
            assert_eq!(std::fs::read(tmp.path().join("b.txt")).unwrap(), b"b");
            assert!(tmp.path().join("taken").is_dir());
            rename("a.txt", "c.txt", false).unwrap();
            rename("d", "g", true).unwrap();
            assert!(!tmp.path().join("a.txt").exists() && !tmp.path().join("d").exists());
            assert_eq!(std::fs::read(tmp.path().join("c.txt")).unwrap(), b"a");
            assert_eq!(std::fs::read(tmp.path().join("g/e/f.txt")).unwrap(), b"f");
        }
    }

    #[test]
    fn moves_a_link_as_a_link_and_never_follows_it() {
        for steps in [false, true] {
            let tmp = tempfile::tempdir().unwrap();
            let outside = tempfile::tempdir().unwrap();
            std::fs::write(outside.path().join("secret"), b"s").unwrap();
            let root = open(tmp.path());
            std::os::unix::fs::symlink(outside.path().join("secret"), tmp.path().join("l"))
                .unwrap();
            if steps {
                rename_by_steps(&root, "l", &root, "m", false).unwrap();
            } else {
                rename_noreplace(&root, "l", &root, "m", false).unwrap();
            }
            let moved = std::fs::symlink_metadata(tmp.path().join("m")).unwrap();
            assert!(moved.file_type().is_symlink());
            assert_eq!(std::fs::read(outside.path().join("secret")).unwrap(), b"s");
            assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
        }
    }
}
