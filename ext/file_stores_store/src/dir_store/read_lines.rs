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
use crate::text::Decoder;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// The lines shown, and the digest of the whole file they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadLines {
    pub window: LineWindow,
    pub digest: String,
}

const CHUNK: usize = 1 << 20;

impl DirStore {
    /// Lines `first` (from 1) on of the file at `path`, `limit` of them
    /// (`None`: to the end), as many as fit in `budget` characters (`None`:
    /// no budget); see [`crate::line_window`] for the rules. The bytes are
    /// decoded as [`Decoder`] decodes them: a UTF-8 BOM dropped, UTF-16 and
    /// UTF-32 with a BOM transcoded chunk by chunk, like UTF-8 in bounded memory.
    pub fn read_lines(
        &self,
        path: &str,
        first: u64,
        limit: Option<u64>,
        budget: Option<u64>,
        cancel: &Cancel,
    ) -> Result<ReadLines> {
        let (path, file, st) = self.open_file(path)?;
        let cached = self
            .cache
            .read()
            .get(&path)
            .filter(|c| c.fingerprint == Fingerprint::of(&st))
            .map(|c| c.digest.clone());
        let mut hasher = cached.is_none().then(Sha256::new);
        let window = page(&file, &path, first, limit, budget, hasher.as_mut(), cancel)?;
        let after = rustix::fs::fstat(&file).map_err(|e| Error::io(&path, errno_to_io(e)))?;
        match (hasher, cached) {
            (Some(hasher), _) => Ok(ReadLines {
                window,
                digest: hex(&hasher.finalize()),
            }),
            (None, Some(digest)) if Fingerprint::of(&after) == Fingerprint::of(&st) => {
                Ok(ReadLines { window, digest })
            }
            // Changed while it was read: the cached digest may not match
            // what was shown. Read the same open file again, hashing this time.
            (None, _) => {
                rustix::fs::seek(&file, rustix::fs::SeekFrom::Start(0))
                    .map_err(|e| Error::io(&path, errno_to_io(e)))?;
                let mut hasher = Sha256::new();
                let window = page(
                    &file,
                    &path,
                    first,
                    limit,
                    budget,
                    Some(&mut hasher),
                    cancel,
                )?;
                Ok(ReadLines {
                    window,
                    digest: hex(&hasher.finalize()),
                })
            }
        }
    }
}

/// One pass over `file`: the window, hashing every byte into `hasher` when given.
fn page(
    mut file: &File,
    path: &str,
    first: u64,
    limit: Option<u64>,
    budget: Option<u64>,
    mut hasher: Option<&mut Sha256>,
    cancel: &Cancel,
) -> Result<LineWindow> {
    let mut builder = WindowBuilder::new(first, limit, budget);
    let mut decoder = Decoder::new();
    // Filled whole before the first push, so the decoder sees the file's
    // byte order mark.
    let mut buf = vec![0u8; CHUNK];
    loop {
        cancel.check()?;
        let n = fill(&mut file, &mut buf, path)?;
        let chunk = &buf[..n];
        if let Some(hasher) = hasher.as_mut() {
            hasher.update(chunk);
        }
        builder.push(decoder.push(chunk));
        if n < buf.len() {
            break;
        }
    }
    builder.push(decoder.finish().as_bytes());
    Ok(builder.finish())
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
                .expect("read");
            assert_eq!(got.window.text, "line 4999\nline 5000\n");
            assert_eq!((got.window.shown, got.window.total), (2, 5000));
            assert_eq!(got.digest, sha256_hex(body.as_bytes()));
        }
    }

    #[test]
    fn drops_a_utf8_bom_and_transcodes_utf16_in_chunks() {
        let (dir, store) = store();
        std::fs::write(dir.path().join("bom.txt"), b"\xEF\xBB\xBFhi\n").expect("write");
        // Lines of UTF-16LE across several chunks, a pair of surrogates
        // straddling the first chunk's end.
        let mut wide = b"\xFF\xFE".to_vec();
        wide.resize(CHUNK - 1, 0);
        for (i, unit) in wide[2..].chunks_exact_mut(2).enumerate() {
            unit.copy_from_slice(if i % 2 == 0 { b"x\0" } else { b"\n\0" });
        }
        wide.pop();
        wide.extend_from_slice(b"\x3D\xD8\x00\xDE\n\0h\0i\0");
        std::fs::write(dir.path().join("wide.txt"), &wide).expect("write");
        let cancel = Cancel::new();
        let bom = store
            .read_lines("bom.txt", 1, None, None, &cancel)
            .expect("read");
        assert_eq!(bom.window.text, "hi\n");
        assert_eq!(bom.digest, sha256_hex(b"\xEF\xBB\xBFhi\n"));
        let lines = (CHUNK - 3) as u64 / 4;
        let got = store
            .read_lines("wide.txt", lines, Some(3), None, &cancel)
            .expect("read");
        assert_eq!(got.window.text, "x\n\u{1F600}\nhi");
        assert_eq!((got.window.shown, got.window.total), (3, lines + 2));
        assert_eq!(got.digest, sha256_hex(&wide));
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
