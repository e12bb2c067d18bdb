use super::super::DirStore;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::ErrorKind;
use std::os::unix::fs::symlink;

fn store() -> (tempfile::TempDir, DirStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = DirStore::open(&dir.path().join("store"), None).unwrap();
    (dir, store)
}

fn c() -> Cancel {
    Cancel::new()
}

fn paths(s: &DirStore) -> Vec<String> {
    s.list("", &c())
        .unwrap()
        .into_iter()
        .map(|f| f.path)
        .collect()
}

#[test]
fn moves_a_file_making_its_folders_with_its_digest_and_a_type_from_its_new_name() {
    let (_t, s) = store();
    let written = s.write("a.txt", b"# Title\n", 1, &c()).unwrap();
    assert_eq!(written.content_type, "text/plain");
    let moved = s.rename("a.txt", "notes/deep/a.md", 1, &c()).unwrap();
    assert!(!moved.folder);
    assert_eq!(moved.files.len(), 1);
    let file = &moved.files[0];
    assert_eq!(file.path, "notes/deep/a.md");
    assert_eq!(file.digest, written.digest);
    assert_eq!(file.content_type, "text/markdown");
    assert_eq!(paths(&s), ["notes/deep/a.md"]);
    assert_eq!(s.read("notes/deep/a.md", &c()).unwrap(), b"# Title\n");
    assert_eq!(s.stat("notes/deep/a.md", &c()).unwrap().unwrap(), *file);
}

#[test]
fn moves_a_folder_with_everything_in_it() {
    let (_t, s) = store();
    s.write("d/a.txt", b"a", 1, &c()).unwrap();
    s.write("d/e/b.txt", b"b", 1, &c()).unwrap();
    s.write("other.txt", b"o", 1, &c()).unwrap();
    let moved = s.rename("d", "x/y", 1, &c()).unwrap();
    assert!(moved.folder);
    let moved: Vec<_> = moved.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(moved, ["x/y/a.txt", "x/y/e/b.txt"]);
    assert_eq!(paths(&s), ["other.txt", "x/y/a.txt", "x/y/e/b.txt"]);
    assert_eq!(s.read("x/y/e/b.txt", &c()).unwrap(), b"b");
}

#[test]
fn never_replaces_what_is_at_the_new_path() {
    let (_t, s) = store();
    s.write("a.txt", b"a", 1, &c()).unwrap();
    s.write("b.txt", b"b", 1, &c()).unwrap();
    s.write("d/c.txt", b"c", 1, &c()).unwrap();
    for (from, to) in [
        ("a.txt", "b.txt"),
        ("a.txt", "d"),
        ("d", "b.txt"),
        ("b.txt", "d/c.txt"),
    ] {
        let err = s.rename(from, to, 1, &c()).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::Exists),
            "{from} -> {to}: {err}"
        );
        assert_eq!(err.path, to);
    }
    assert_eq!(paths(&s), ["a.txt", "b.txt", "d/c.txt"]);
    assert_eq!(s.read("b.txt", &c()).unwrap(), b"b");
}

#[test]
fn refuses_what_is_missing_the_same_path_a_folder_into_itself_and_hidden_names() {
    let (_t, s) = store();
    s.write("d/a.txt", b"a", 1, &c()).unwrap();
    let kind = |from: &str, to: &str| s.rename(from, to, 1, &c()).unwrap_err().kind;
    assert!(matches!(kind("missing.txt", "b.txt"), ErrorKind::NotFound));
    assert!(matches!(kind("d/missing/x", "b.txt"), ErrorKind::NotFound));
    assert!(matches!(kind("d", "d"), ErrorKind::InvalidPath(_)));
    assert!(matches!(kind("d", "d/e"), ErrorKind::InvalidPath(_)));
    assert!(matches!(
        kind("d/a.txt", ".hidden"),
        ErrorKind::InvalidPath(_)
    ));
    assert!(matches!(
        kind("d/a.txt", "../out.txt"),
        ErrorKind::InvalidPath(_)
    ));
    assert_eq!(paths(&s), ["d/a.txt"]);
    // "dd" is not inside "d".
    s.rename("d", "dd", 1, &c()).unwrap();
    assert_eq!(paths(&s), ["dd/a.txt"]);
}

#[test]
fn never_follows_a_link_out_of_the_store() {
    let (t, s) = store();
    let outside = t.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), b"s").unwrap();
    s.write("a.txt", b"a", 1, &c()).unwrap();
    symlink(&outside, t.path().join("store/out")).unwrap();
    symlink(outside.join("secret.txt"), t.path().join("store/link.txt")).unwrap();
    // Through a link to a folder outside: refused, nothing made there.
    let err = s.rename("a.txt", "out/a.txt", 1, &c()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Symlink), "{err}");
    let err = s.rename("out/secret.txt", "b.txt", 1, &c()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::NotFound), "{err}");
    // A link itself is not a file of the store: not moved.
    let err = s.rename("link.txt", "b.txt", 1, &c()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::NotFound), "{err}");
    let mut outside_names: Vec<_> = std::fs::read_dir(&outside)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    outside_names.sort();
    assert_eq!(outside_names, ["secret.txt"]);
    assert_eq!(paths(&s), ["a.txt"]);
}

#[test]
fn a_file_changed_behind_the_stores_back_is_hashed_again_after_a_move() {
    let (t, s) = store();
    s.write("a.txt", b"abc", 1, &c()).unwrap();
    std::fs::write(t.path().join("store/a.txt"), b"abcd").unwrap();
    let moved = s.rename("a.txt", "b.txt", 1, &c()).unwrap();
    assert_eq!(
        moved.files[0].digest,
        "88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589"
    );
}
