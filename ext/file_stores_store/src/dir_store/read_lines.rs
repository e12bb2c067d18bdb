//! [`DirStore::read_lines`]: a window of a text file's lines, read in
//! chunks, so `read_file` pages a file of any size in bounded memory.
//!
//! One pass over the open file feeds the [`WindowBuilder`] and the sha256
//! of the whole file, so the digest `read_file` records is that of the very
//! bytes it paged. When the store's digest cache already holds the file's
//! fingerprint, the pass only counts lines; should the file change while it
//! is read, the pass is made again, hashing.

use std::fs::File;
use std::io::Read;

use sha2::{Digest, Sha256};

use super::{errno_to_io, hex, DirStore, Fingerprint};
use crate::line_window::{LineWindow, WindowBuilder};
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// The lines shown, and the digest of the whole file they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadLines {
    pub window: LineWindow,
    pub digest: String,
}

const CHUNK: usize = 1 << 20;
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

impl DirStore {
    /// Lines `first` (from 1) on of the file at `path`, `limit` of them
    /// (`None`: to the end), as many as fit in `budget` characters (`None`:
    /// no budget); see [`crate::line_window`] for the rules. A UTF-8 BOM is
    /// dropped. `Ok(None)` for UTF-16 or UTF-32 with a BOM, which the caller
    /// transcodes whole.
    pub fn read_lines(
        &self,
        path: &str,
        first: u64,
        limit: Option<u64>,
        budget: Option<u64>,
        cancel: &Cancel,
    ) -> Result<Option<ReadLines>> {
        let (path, file, st) = self.open_file(path)?;
        let cached = self
            .cache
            .read()
            .get(&path)
            .filter(|c| c.fingerprint == Fingerprint::of(&st))
            .map(|c| c.digest.clone());
        let hash = cached.is_none();
        let Some((window, digest)) = page(&file, &path, first, limit, budget, hash, cancel)? else {
            return Ok(None);
        };
        let after = rustix::fs::fstat(&file).map_err(|e| Error::io(&path, errno_to_io(e)))?;
        match (digest, cached) {
            (Some(digest), _) => Ok(Some(ReadLines { window, digest })),
            (None, Some(digest)) if Fingerprint::of(&after) == Fingerprint::of(&st) => {
                Ok(Some(ReadLines { window, digest }))
            }
            // Changed while it was read: the cached digest may not match
            // what was shown. Read the same open file again, hashing this time.
            (None, _) => {
                rustix::fs::seek(&file, rustix::fs::SeekFrom::Start(0))
                    .map_err(|e| Error::io(&path, errno_to_io(e)))?;
                let paged = page(&file, &path, first, limit, budget, true, cancel)?;
                Ok(paged.and_then(|(window, digest)| {
                    Some(ReadLines {
                        window,
                        digest: digest?,
                    })
                }))
            }
        }
    }
}

/// One pass over `file`: the window, and the digest when `hash`.
fn page(
    mut file: &File,
    path: &str,
    first: u64,
    limit: Option<u64>,
    budget: Option<u64>,
    hash: bool,
    cancel: &Cancel,
) -> Result<Option<(LineWindow, Option<String>)>> {
    let mut hasher = hash.then(Sha256::new);
    let mut builder = WindowBuilder::new(first, limit, budget);
    let mut buf = vec![0u8; CHUNK];
    let mut at_start = true;
    loop {
        cancel.check()?;
        let n = fill(&mut file, &mut buf, path)?;
        let chunk = &buf[..n];
        if let Some(hasher) = hasher.as_mut() {
            hasher.update(chunk);
        }
        let mut text = chunk;
        if at_start {
            at_start = false;
            // FF FE also starts UTF-32LE; 00 00 FE FF is UTF-32BE.
            if chunk.starts_with(b"\xFF\xFE")
                || chunk.starts_with(b"\xFE\xFF")
                || chunk.starts_with(b"\x00\x00\xFE\xFF")
            {
                return Ok(None);
            }
            text = chunk.strip_prefix(UTF8_BOM).unwrap_or(chunk);
        }
        builder.push(text);
        if n < buf.len() {
            break;
        }
    }
    let digest = hasher.map(|h| hex(&h.finalize()));
    Ok(Some((builder.finish(), digest)))
}

/// Reads until `buf` is full or the file ends; the bytes read.
fn fill(file: &mut &File, buf: &mut [u8], path: &str) -> Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dir_store::sha256_hex;

    fn store() -> (tempfile::TempDir, DirStore) {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = DirStore::open(dir.path(), None).expect("open");
        (dir, store)
    }

    #[test]
    fn pages_a_file_and_gives_the_digest_of_all_of_it() {
        let (dir, store) = store();
        let body = (1..=5000)
            .map(|i| format!("line {i}\n"))
            .collect::<Vec<_>>()
            .concat();
        std::fs::write(dir.path().join("a.txt"), &body).expect("write");
        let cancel = Cancel::new();
        for warm in [false, true] {
            if warm {
                store.stat("a.txt", &cancel).expect("stat"); // fills the digest cache
            }
            let got = store
                .read_lines("a.txt", 4999, Some(5), Some(100), &cancel)
                .expect("read")
                .expect("utf-8");
            assert_eq!(got.window.text, "line 4999\nline 5000\n");
            assert_eq!((got.window.shown, got.window.total), (2, 5000));
            assert_eq!(got.digest, sha256_hex(body.as_bytes()));
        }
    }

    #[test]
    fn drops_a_utf8_bom_and_leaves_utf16_to_the_caller() {
        let (dir, store) = store();
        std::fs::write(dir.path().join("bom.txt"), b"\xEF\xBB\xBFhi\n").expect("write");
        std::fs::write(dir.path().join("wide.txt"), b"\xFF\xFEh\0i\0").expect("write");
        std::fs::write(dir.path().join("wider.txt"), b"\0\0\xFE\xFF\0\0\0h").expect("write");
        let cancel = Cancel::new();
        let bom = store
            .read_lines("bom.txt", 1, None, None, &cancel)
            .expect("read")
            .expect("utf-8");
        assert_eq!(bom.window.text, "hi\n");
        assert_eq!(bom.digest, sha256_hex(b"\xEF\xBB\xBFhi\n"));
        assert_eq!(
            store
                .read_lines("wide.txt", 1, None, None, &cancel)
                .expect("read"),
            None
        );
        assert_eq!(
            store
                .read_lines("wider.txt", 1, None, None, &cancel)
                .expect("read"),
            None
        );
    }

    #[test]
    fn refuses_what_read_refuses() {
        let (dir, store) = store();
        std::fs::create_dir(dir.path().join("folder")).expect("mkdir");
        let cancel = Cancel::new();
        for path in ["missing.txt", "folder", "../x", ".hidden"] {
            let read = store.read(path, &cancel).expect_err("read refuses");
            let lines = store
                .read_lines(path, 1, None, None, &cancel)
                .expect_err("read_lines refuses");
            assert_eq!(lines.to_string(), read.to_string(), "{path}");
        }
    }

    #[test]
    fn stops_when_cancelled() {
        let (dir, store) = store();
        std::fs::write(dir.path().join("a.txt"), "x\n").expect("write");
        let cancel = Cancel::new();
        cancel.cancel();
        let err = store
            .read_lines("a.txt", 1, None, None, &cancel)
            .expect_err("cancelled");
        assert!(err.is_cancelled());
    }
}
