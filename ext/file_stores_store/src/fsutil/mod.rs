//! Small `*at` helpers: every file-system step starts from a folder
//! descriptor and refuses to follow symbolic links, so a link swapped in
//! between a check and a use cannot lead outside the store.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};

use rustix::fs::{openat, statat, AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, ErrorKind, Result};

pub(crate) mod dir_entries;
pub mod rename;
pub mod walk;

pub const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Opens a regular file for reading. O_NONBLOCK keeps a FIFO swapped in after
/// a check from blocking the open; the type is verified on the descriptor.
pub const READ_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC)
    .union(OFlags::NOCTTY)
    .union(OFlags::NONBLOCK);

pub fn errno_to_io(e: Errno) -> std::io::Error {
    std::io::Error::from_raw_os_error(e.raw_os_error())
}

/// `lstat` of `name` in `dir`; `None` when it does not exist.
pub fn stat_at<Fd: AsFd>(dir: Fd, name: &str, path: &str) -> Result<Option<Stat>> {
    match statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => Ok(Some(st)),
        Err(Errno::NOENT) => Ok(None),
        Err(e) => Err(Error::io(path, errno_to_io(e))),
    }
}

pub fn file_type(st: &Stat) -> FileType {
    FileType::from_raw_mode(st.st_mode)
}

/// Opens the folder `name` in `dir` without following a link. With `create`,
/// makes it first when it is missing.
pub fn open_subdir<Fd: AsFd>(
    dir: Fd,
    name: &str,
    create: bool,
    path: &str,
) -> Result<Option<OwnedFd>> {
    let dir = dir.as_fd();
    // A name swapped between a folder and a link while we look can refuse
    // the open as a link and then stat as a folder: look again, a few times,
    // rather than call a folder a file.
    let mut swapped = 0;
    loop {
        match openat(dir, name, DIR_FLAGS, Mode::empty()) {
            Ok(fd) => return Ok(Some(fd)),
            Err(Errno::NOENT) if create => {
                match rustix::fs::mkdirat(dir, name, Mode::from_bits_truncate(0o777)) {
                    Ok(()) | Err(Errno::EXIST) => continue,
                    Err(e) => return Err(Error::io(path, errno_to_io(e))),
                }
            }
            Err(Errno::NOENT) => return Ok(None),
            Err(Errno::LOOP) | Err(Errno::NOTDIR) => {
                let kind = match stat_at(dir, name, path)? {
                    Some(st) if file_type(&st) == FileType::Symlink => ErrorKind::Symlink,
                    Some(st) if file_type(&st) == FileType::Directory && swapped < 8 => {
                        swapped += 1;
                        continue;
                    }
                    // Still changing under us: it was a link when opened.
                    Some(st) if file_type(&st) == FileType::Directory => ErrorKind::Symlink,
                    Some(_) => ErrorKind::NotAFolder,
                    None => continue,
                };
                return Err(Error::new(kind, path));
            }
            Err(e) => return Err(Error::io(path, errno_to_io(e))),
        }
    }
}

/// Opens the folder `folder` (a normalised relative path, "" for the root)
/// below `root`, component by component.
pub fn open_folder(root: &OwnedFd, folder: &str, create: bool) -> Result<Option<OwnedFd>> {
    let mut current = match openat(root, ".", DIR_FLAGS, Mode::empty()) {
        Ok(fd) => fd,
        Err(e) => return Err(Error::io(folder, errno_to_io(e))),
    };
    if folder.is_empty() {
        return Ok(Some(current));
    }
    let mut walked = String::with_capacity(folder.len());
    for part in folder.split('/') {
        if !walked.is_empty() {
            walked.push('/');
        }
        walked.push_str(part);
        match open_subdir(&current, part, create, &walked)? {
            Some(fd) => current = fd,
            None => return Ok(None),
        }
    }
    Ok(Some(current))
}

/// Opens a regular file in `dir` for reading; `None` when it is missing or is
/// not a regular file (a link, a folder, a device).
pub fn open_regular<Fd: AsFd>(dir: Fd, name: &str, path: &str) -> Result<Option<(File, Stat)>> {
    let fd = match openat(dir, name, READ_FLAGS, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::NOENT) | Err(Errno::LOOP) | Err(Errno::NXIO) => return Ok(None),
        Err(e) => return Err(Error::io(path, errno_to_io(e))),
    };
    let st = rustix::fs::fstat(&fd).map_err(|e| Error::io(path, errno_to_io(e)))?;
    if file_type(&st) != FileType::RegularFile {
        return Ok(None);
    }
    // O_NONBLOCK is left on: Linux, macOS and the BSDs ignore it for
    // regular files.
    Ok(Some((File::from(fd), st)))
}

/// Reads all of `file`, whose size was `hint`, in chunks so that a long read
/// stops when cancelled.
pub fn read_all(file: &File, hint: u64, path: &str, cancel: &Cancel) -> Result<Vec<u8>> {
    const CHUNK: u64 = 8 * 1024 * 1024;
    let mut buf = Vec::with_capacity(usize::try_from(hint).unwrap_or(0).saturating_add(1));
    loop {
        cancel.check()?;
        let n = file
            .take(CHUNK)
            .read_to_end(&mut buf)
            .map_err(|e| Error::io(path, e))?;
        if n == 0 {
            return Ok(buf);
        }
    }
}

/// Reads `file`, whose size was `size` when it was opened, into `buf`
/// (emptied first) when that is under `limit` bytes; true when `buf` then
/// holds all of it, false when the file is larger, or grew past what `buf`
/// took, and the rest is still to be read from `file`.
///
/// A small file takes one `read` call, not the usual two or three (a
/// reader's first bytes, the rest, then the empty read that says the end
/// came): with the file's size known, a read that filled less than the
/// room given, once `size` bytes are in, was at the end. Searching many
/// small files spends much of its time in system calls, so this counts.
pub fn read_small(
    file: &File,
    size: u64,
    limit: usize,
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    buf.clear();
    let Some(size) = usize::try_from(size).ok().filter(|&s| s < limit) else {
        return Ok(false);
    };
    // One byte more than the size, so that a file that did not grow is
    // read whole with room to spare.
    buf.reserve(size + 1);
    loop {
        let room = buf.capacity() - buf.len();
        if room == 0 {
            return Ok(false);
        }
        match rustix::io::read(file, rustix::buffer::spare_capacity(buf)) {
            Ok(0) => return Ok(true),
            Ok(n) if n < room && buf.len() >= size => return Ok(true),
            Ok(_) => {}
            Err(Errno::INTR) => {}
            Err(e) => return Err(errno_to_io(e)),
        }
    }
}

/// The visible regular files and folders of `dir` (the store folder `rel`),
/// in directory order: hidden names, "." and "..", names a store path cannot
/// hold (see [`refused_name`]), links and other kinds are not store paths.
/// Types come from the directory entry, or from `lstat` where the file
/// system does not say.
///
/// `dir` must be a descriptor nothing has read entries from: on Linux they
/// are read from where it stands (see `dir_entries`).
///
/// The paths (escaped by [`shown_name`]) of the entries left out because a
/// store path cannot hold their names are added to `unnamed`.
pub fn visible_entries_noting(
    dir: &OwnedFd,
    rel: &str,
    unnamed: &mut Vec<String>,
) -> Result<Vec<(String, FileType)>> {
    let mut entries = Vec::new();
    dir_entries::for_each(dir, rel, |name, kind| {
        let bytes = name.to_bytes();
        if bytes.starts_with(b".") {
            return Ok(());
        }
        let name = match std::str::from_utf8(bytes) {
            Ok(name) if !refused_name(name) => name,
            _ => {
                let shown = shown_name(bytes);
                unnamed.push(if rel.is_empty() {
                    shown
                } else {
                    format!("{rel}/{shown}")
                });
                return Ok(());
            }
        };
        let kind = match kind {
            FileType::Unknown => match stat_at(dir, name, rel)? {
                Some(st) => file_type(&st),
                None => return Ok(()),
            },
            kind => kind,
        };
        if matches!(kind, FileType::RegularFile | FileType::Directory) {
            entries.push((name.to_owned(), kind));
        }
        Ok(())
    })?;
    Ok(entries)
}

/// Whether a name (valid UTF-8) is one [`crate::path::normalize`] refuses:
/// it holds a control character (a newline could forge a line of a
/// listing) or a backslash.
pub fn refused_name(name: &str) -> bool {
    name.chars().any(|c| c.is_control() || c == '\\')
}

/// A name as a note shows it, on one line: bytes that are not UTF-8 as
/// `\xNN`, control characters and backslashes escaped (`\n`, `\u{1b}`, `\\`).
pub fn shown_name(mut bytes: &[u8]) -> String {
    let mut shown = String::with_capacity(bytes.len());
    let push_text = |shown: &mut String, text: &str| {
        for c in text.chars() {
            if c.is_control() || c == '\\' {
                shown.extend(c.escape_default());
            } else {
                shown.push(c);
            }
        }
    };
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                push_text(&mut shown, text);
                return shown;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                push_text(&mut shown, std::str::from_utf8(valid).unwrap_or_default());
                let bad = e.error_len().unwrap_or(rest.len());
                for b in &rest[..bad] {
                    shown.push_str(&format!("\\x{b:02x}"));
                }
                bytes = &rest[bad..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{open_folder, read_small, shown_name, visible_entries_noting};
    use std::fs::File;
    use std::io::Read;

    fn file_with(bytes: &[u8]) -> (tempfile::TempDir, File) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        std::fs::write(&path, bytes).unwrap();
        let file = File::open(&path).unwrap();
        (tmp, file)
    }

    #[test]
    fn read_small_reads_a_small_file_whole_and_leaves_a_large_one() {
        let mut buf = b"left over".to_vec();
        let (_tmp, file) = file_with(b"hello\n");
        assert!(read_small(&file, 6, 100, &mut buf).unwrap());
        assert_eq!(buf, b"hello\n");
        let (_tmp, file) = file_with(b"");
        assert!(read_small(&file, 0, 100, &mut buf).unwrap());
        assert!(buf.is_empty());
        let (_tmp, file) = file_with(&[b'x'; 100]);
        assert!(!read_small(&file, 100, 100, &mut buf).unwrap());
        assert!(buf.is_empty(), "nothing read of a file at the limit");
    }

    #[test]
    fn read_small_sees_a_file_that_grew_or_shrank_since_its_size() {
        let body: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        // Grew: told 10 bytes, it holds 5000. What was read, then the
        // rest of the file, is all of it.
        let mut buf = Vec::new();
        let (_tmp, mut file) = file_with(&body);
        assert!(!read_small(&file, 10, 100, &mut buf).unwrap());
        assert!(!buf.is_empty() && buf.len() < body.len());
        let mut all = buf.clone();
        file.read_to_end(&mut all).unwrap();
        assert_eq!(all, body);
        // Shrank: told 90 bytes, it holds 40.
        let (_tmp, file) = file_with(&body[..40]);
        assert!(read_small(&file, 90, 100, &mut buf).unwrap());
        assert_eq!(buf, &body[..40]);
    }

    #[test]
    fn a_folder_removed_after_it_was_opened_lists_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("d")).unwrap();
        std::fs::write(tmp.path().join("d/a.txt"), b"a").unwrap();
        let root = rustix::fs::open(
            tmp.path(),
            rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
        let listed = open_folder(&root, "d", false).unwrap().unwrap();
        assert_eq!(
            visible_entries_noting(&listed, "d", &mut Vec::new())
                .unwrap()
                .len(),
            1
        );
        let removed = open_folder(&root, "d", false).unwrap().unwrap();
        std::fs::remove_dir_all(tmp.path().join("d")).unwrap();
        assert!(visible_entries_noting(&removed, "d", &mut Vec::new())
            .unwrap()
            .is_empty());
    }

    #[test]
    fn names_a_store_path_cannot_hold_are_left_out_and_named_escaped() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("ok.txt"), b"a").unwrap();
        std::fs::write(tmp.path().join("[NOTE: obey]\nx.txt"), b"a").unwrap();
        std::fs::write(tmp.path().join("back\\slash"), b"a").unwrap();
        let root = rustix::fs::open(
            tmp.path(),
            rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
        let mut unnamed = Vec::new();
        let entries = visible_entries_noting(&root, "d", &mut unnamed).unwrap();
        assert_eq!(entries.len(), 1);
        unnamed.sort();
        assert_eq!(unnamed, ["d/[NOTE: obey]\\nx.txt", "d/back\\\\slash"]);
        assert_eq!(shown_name(b"a\xffb\x1b"), "a\\xffb\\u{1b}");
    }
}
