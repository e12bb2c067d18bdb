use super::*;
use crate::dir_store::sha256_hex;
use std::os::unix::fs::symlink;

fn store(max_bytes: Option<u64>) -> (tempfile::TempDir, DirStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = DirStore::open(&dir.path().join("store"), max_bytes).unwrap();
    (dir, store)
}

fn c() -> Cancel {
    Cancel::new()
}

fn names_in(store: &DirStore, folder: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(store.root().join(folder))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn read_in_chunks(store: &DirStore, path: &str, size: usize) -> Vec<Vec<u8>> {
    let mut reader = store.chunk_reader(path).unwrap();
    let mut buf = vec![0u8; size];
    let mut chunks = Vec::new();
    loop {
        let n = reader.read(&mut buf, &c()).unwrap();
        if n == 0 {
            return chunks;
        }
        chunks.push(buf[..n].to_vec());
    }
}

#[test]
fn chunks_written_make_the_file_the_whole_write_would() {
    let (_t, s) = store(None);
    let body: Vec<u8> = (0..50_000u32).map(|i| (i % 251) as u8).collect();
    let whole = s.write("whole.bin", &body, 1, &c()).unwrap();
    let mut writing = s.start_write("notes/parts.bin", 1, &c()).unwrap();
    for part in body.chunks(7_000) {
        writing.push(part).unwrap();
    }
    let parts = writing.finish().unwrap();
    assert_eq!(parts.digest, whole.digest);
    assert_eq!(parts.digest, sha256_hex(&body));
    assert_eq!(parts.byte_size, body.len() as u64);
    assert_eq!(s.read("notes/parts.bin", &c()).unwrap(), body);
    // What the write cached is what a fresh look finds.
    assert_eq!(s.stat("notes/parts.bin", &c()).unwrap().unwrap(), parts);
    assert_eq!(names_in(&s, "notes"), ["parts.bin"]);
}

#[test]
fn the_content_type_is_sniffed_from_the_first_chunks() {
    let (_t, s) = store(None);
    let mut writing = s.start_write("scan", 1, &c()).unwrap();
    writing.push(b"%P").unwrap();
    writing.push(b"DF-1.7\n").unwrap();
    assert_eq!(writing.finish().unwrap().content_type, "application/pdf");
}

#[test]
fn a_write_dropped_unfinished_leaves_the_old_file_and_no_temporary_one() {
    let (_t, s) = store(None);
    s.write("keep.txt", b"old", 1, &c()).unwrap();
    let mut writing = s.start_write("keep.txt", 1, &c()).unwrap();
    writing.push(b"new bytes").unwrap();
    assert_eq!(names_in(&s, "").len(), 2, "the temporary file is there");
    drop(writing);
    assert_eq!(s.read("keep.txt", &c()).unwrap(), b"old");
    assert_eq!(names_in(&s, ""), ["keep.txt"]);
    // ... and the lock is free for another owner.
    assert!(s.lock().try_acquire(2).unwrap());
    s.lock().release(2);
}

#[test]
fn a_write_holds_the_lock_until_it_ends() {
    let (_t, s) = store(None);
    let mut writing = s.start_write("a.txt", 1, &c()).unwrap();
    assert!(!s.lock().try_acquire(2).unwrap());
    writing.push(b"a").unwrap();
    writing.finish().unwrap();
    assert!(!s.lock().try_acquire(2).unwrap(), "held until dropped");
    drop(writing);
    assert!(s.lock().try_acquire(2).unwrap());
    s.lock().release(2);
}

#[test]
fn a_chunk_past_the_cap_is_refused_before_it_reaches_the_disk() {
    let (_t, s) = store(Some(10));
    s.write("a.txt", b"12345", 1, &c()).unwrap();
    let mut writing = s.start_write("b.txt", 1, &c()).unwrap();
    writing.push(b"123").unwrap();
    let err = writing.push(b"123").unwrap_err();
    assert!(
        matches!(
            err.kind,
            ErrorKind::Full {
                needed: 11,
                max_bytes: 10
            }
        ),
        "{err:?}"
    );
    drop(writing);
    assert_eq!(names_in(&s, ""), ["a.txt"]);
    // Replacing a file counts its old bytes out.
    let mut writing = s.start_write("a.txt", 1, &c()).unwrap();
    writing.push(b"1234567890").unwrap();
    assert_eq!(writing.finish().unwrap().byte_size, 10);
}

#[test]
fn a_link_at_the_path_or_on_the_way_is_refused() {
    let (t, s) = store(None);
    let outside = t.path().join("outside.txt");
    std::fs::write(&outside, b"secret").unwrap();
    symlink(&outside, s.root().join("link.txt")).unwrap();
    std::fs::create_dir(t.path().join("elsewhere")).unwrap();
    symlink(t.path().join("elsewhere"), s.root().join("dir")).unwrap();
    for path in ["link.txt", "dir/new.txt"] {
        let err = s.start_write(path, 1, &c()).err().unwrap();
        assert!(matches!(err.kind, ErrorKind::Symlink), "{path}: {err:?}");
    }
    for path in ["link.txt", "dir/outside.txt"] {
        assert!(s.chunk_reader(path).is_err(), "{path}");
    }
    std::fs::write(t.path().join("elsewhere/outside.txt"), b"x").unwrap();
    assert!(s.chunk_reader("dir/outside.txt").is_err());
    assert_eq!(std::fs::read(&outside).unwrap(), b"secret");
    assert!(
        s.lock().try_acquire(2).unwrap(),
        "a refused write frees the lock"
    );
    s.lock().release(2);
}

#[test]
fn chunks_read_are_the_file_in_order() {
    let (_t, s) = store(None);
    let body: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 256) as u8).collect();
    s.write("f.bin", &body, 1, &c()).unwrap();
    let chunks = read_in_chunks(&s, "f.bin", 4096);
    assert_eq!(
        chunks.iter().map(Vec::len).collect::<Vec<_>>(),
        [4096, 4096, 1808]
    );
    assert_eq!(chunks.concat(), body);
    s.write("empty", b"", 1, &c()).unwrap();
    assert!(read_in_chunks(&s, "empty", 16).is_empty());
}

#[test]
fn reading_chunks_of_a_folder_or_a_missing_file_is_refused() {
    let (_t, s) = store(None);
    s.write("d/f.txt", b"x", 1, &c()).unwrap();
    assert!(matches!(
        s.chunk_reader("d").err().unwrap().kind,
        ErrorKind::IsFolder
    ));
    assert!(matches!(
        s.chunk_reader("nope").err().unwrap().kind,
        ErrorKind::NotFound
    ));
    assert!(s.chunk_reader("../x").is_err());
    assert!(s.chunk_reader(".hidden").is_err());
}

#[test]
fn a_cancelled_read_reads_nothing() {
    let (_t, s) = store(None);
    s.write("f.txt", b"abc", 1, &c()).unwrap();
    let mut reader = s.chunk_reader("f.txt").unwrap();
    let cancel = Cancel::new();
    cancel.cancel();
    let mut buf = [0u8; 8];
    assert!(reader.read(&mut buf, &cancel).unwrap_err().is_cancelled());
    assert_eq!(reader.read(&mut buf, &c()).unwrap(), 3);
    assert_eq!(&buf[..3], b"abc");
}
