use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};

use super::{remove, remove_empty, sweep, Budget, Kind, Removal, Snapshot, MAX_DEPTH};
use file_stores_base::cancel::Cancel;

const ROOMY: Budget = Budget {
    entries: 1_000,
    bytes: 1 << 30,
};

/// Makes `levels` nested folders `a` below `root` with a file at the bottom,
/// one descriptor-relative step at a time (a path that deep is past PATH_MAX).
fn deep_tree(root: &Path, levels: usize) {
    use rustix::fs::{mkdirat, openat, Mode};
    let mut dir = rustix::fs::open(root, super::DIR_FLAGS, Mode::empty()).unwrap();
    for _ in 0..levels {
        mkdirat(&dir, "a", Mode::from_bits_truncate(0o755)).unwrap();
        dir = openat(&dir, "a", super::DIR_FLAGS, Mode::empty()).unwrap();
    }
    let flags = rustix::fs::OFlags::CREATE | rustix::fs::OFlags::WRONLY;
    openat(&dir, "x.txt", flags, Mode::from_bits_truncate(0o644)).unwrap();
}

#[test]
fn a_tree_of_any_depth_is_walked_to_the_limit_and_removed_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    // 2,100 levels of "a/": past PATH_MAX.
    deep_tree(tmp.path(), 2_100);
    let after = Snapshot::take(tmp.path(), &cancel).unwrap();
    assert_eq!(
        after.len(),
        MAX_DEPTH,
        "one folder a level, down to the limit"
    );
    assert_eq!(after.too_deep.len(), 1);
    let swept = sweep(tmp.path(), &before, &[], ROOMY, &cancel).unwrap();
    assert_eq!(swept.removed.len(), 1);
    assert_eq!(swept.removed[0].1, Removal::TooDeep);
    assert_eq!(
        fs::read_dir(
            tmp.path()
                .join(std::iter::repeat_n("a", MAX_DEPTH - 1).collect::<PathBuf>())
        )
        .unwrap()
        .count(),
        0
    );
    assert_eq!(
        fs::read_dir(tmp.path()).unwrap().count(),
        1,
        "nothing moved up is left"
    );
}

#[test]
fn what_a_run_made_is_held_to_the_budget_before_anything_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    fs::write(tmp.path().join("old.txt"), b"old").unwrap();
    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    for name in ["a.bin", "b.bin", "c.bin"] {
        let file = fs::File::create(tmp.path().join(name)).unwrap();
        file.set_len(100 << 20).unwrap(); // sparse: nothing allocated
    }
    fs::create_dir(tmp.path().join(".hidden")).unwrap();
    fs::write(tmp.path().join(".hidden/h.txt"), b"hh").unwrap();
    let budget = Budget {
        entries: 10,
        bytes: 250 << 20,
    };
    let swept = sweep(tmp.path(), &before, &[], budget, &cancel).unwrap();
    let mut left: Vec<&str> = swept.left.iter().map(|l| l.path.as_str()).collect();
    left.sort();
    assert_eq!(left, [".hidden", ".hidden/h.txt", "a.bin", "b.bin"]);
    assert_eq!(swept.removed, [("c.bin".to_owned(), Removal::Budget)]);
    assert!(tmp.path().join("old.txt").exists());
    assert!(!tmp.path().join("c.bin").exists());
    assert!(swept.left.iter().all(|l| l.created));
    assert!(swept.left.iter().any(|l| l.path == "a.bin"
        && l.kind == Kind::File
        && l.size == 100 << 20
        && l.allocated < 1 << 20));

    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    for i in 0..5 {
        fs::write(tmp.path().join(format!("n{i}")), b"").unwrap();
    }
    let few = Budget {
        entries: 3,
        bytes: 1 << 30,
    };
    let swept = sweep(tmp.path(), &before, &[], few, &cancel).unwrap();
    assert_eq!(swept.left.len(), 3);
    assert_eq!(swept.removed_count, 2);
}

#[test]
fn names_the_store_cannot_address_are_removed_and_privileges_taken() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    fs::write(tmp.path().join("evil\nname.txt"), b"x").unwrap();
    fs::create_dir(tmp.path().join(".h")).unwrap();
    fs::write(tmp.path().join(".h/suid"), b"x").unwrap();
    fs::set_permissions(
        tmp.path().join(".h/suid"),
        fs::Permissions::from_mode(0o6757),
    )
    .unwrap();
    fs::set_permissions(tmp.path().join(".h"), fs::Permissions::from_mode(0o2777)).unwrap();
    symlink("/etc/passwd", tmp.path().join("link")).unwrap();
    let swept = sweep(tmp.path(), &before, &[], ROOMY, &cancel).unwrap();
    assert_eq!(
        swept.removed,
        [("evil\\nname.txt".to_owned(), Removal::Name)]
    );
    let mode = |p: &str| {
        fs::symlink_metadata(tmp.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    };
    assert_eq!(mode(".h/suid"), 0o755);
    assert_eq!(mode(".h"), 0o775);
    assert_eq!(swept.stripped, [".h", ".h/suid"]);
    assert!(swept
        .left
        .iter()
        .any(|l| l.path == "link" && l.kind == Kind::Link));
}

#[test]
fn changed_and_gone_files_are_told_apart_from_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    for name in ["same.txt", "changed.txt", "gone.txt"] {
        fs::write(tmp.path().join(name), b"one").unwrap();
    }
    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    fs::write(tmp.path().join("changed.txt"), b"two!").unwrap();
    fs::remove_file(tmp.path().join("gone.txt")).unwrap();
    let swept = sweep(tmp.path(), &before, &[], ROOMY, &cancel).unwrap();
    assert_eq!(swept.left.len(), 1);
    assert_eq!(swept.left[0].path, "changed.txt");
    assert!(!swept.left[0].created);
    assert_eq!(swept.gone, ["gone.txt"]);
}

#[test]
fn removal_of_mount_points_never_goes_through_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    fs::create_dir(outside.path().join("mnt")).unwrap();
    symlink(outside.path(), tmp.path().join("skills")).unwrap();
    assert!(!remove_empty(tmp.path(), "skills/mnt").unwrap());
    assert!(outside.path().join("mnt").exists());
    assert!(!remove(tmp.path(), "skills/mnt", &Cancel::new()).unwrap());
    assert!(outside.path().join("mnt").exists());
    assert!(
        remove_empty(tmp.path(), "skills").unwrap(),
        "the link itself goes"
    );
    assert!(outside.path().join("mnt").exists());
}

#[test]
fn folders_and_files_the_run_took_from_their_owner_are_given_back_and_walked() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    fs::create_dir_all(tmp.path().join("locked/inner")).unwrap();
    fs::write(tmp.path().join("locked/inner/big.bin"), vec![0u8; 200_000]).unwrap();
    fs::write(tmp.path().join("secret.txt"), "x").unwrap();
    fs::set_permissions(
        tmp.path().join("locked/inner"),
        fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    fs::set_permissions(tmp.path().join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::set_permissions(
        tmp.path().join("secret.txt"),
        fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let budget = Budget {
        entries: 1_000,
        bytes: 100_000,
    };
    let swept = sweep(tmp.path(), &before, &[], budget, &cancel).unwrap();
    let mode = |p: &str| {
        fs::symlink_metadata(tmp.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("locked"), 0o700);
    assert_eq!(mode("locked/inner"), 0o700);
    assert_eq!(mode("secret.txt"), 0o600);
    assert!(swept.unreadable.is_empty());
    assert_eq!(
        swept.removed,
        vec![("locked/inner/big.bin".to_owned(), Removal::Budget)]
    );
}

#[test]
fn a_tree_of_folders_with_no_permissions_is_removed_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    fs::create_dir_all(tmp.path().join("scratch/a/b")).unwrap();
    fs::write(tmp.path().join("scratch/a/b/x"), "x").unwrap();
    for dir in ["scratch/a/b", "scratch/a", "scratch"] {
        fs::set_permissions(tmp.path().join(dir), fs::Permissions::from_mode(0o000)).unwrap();
    }
    assert!(remove(tmp.path(), "scratch", &cancel).unwrap());
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
}

/// Makes a FIFO at `path` (the mkfifo tool is on every Unix).
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_special_file_in_place_of_a_store_file_is_removed_and_the_file_named_gone() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    fs::write(tmp.path().join("data.csv"), "a,b\n").unwrap();
    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    fs::remove_file(tmp.path().join("data.csv")).unwrap();
    mkfifo(&tmp.path().join("data.csv"));
    mkfifo(&tmp.path().join("pipe"));
    let swept = sweep(tmp.path(), &before, &[], ROOMY, &cancel).unwrap();
    assert_eq!(
        swept.removed,
        vec![
            ("data.csv".to_owned(), Removal::Special),
            ("pipe".to_owned(), Removal::Special)
        ]
    );
    assert_eq!(swept.gone, vec!["data.csv".to_owned()]);
    assert!(swept.left.iter().all(|left| left.kind != Kind::Other));
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn what_was_locked_before_the_run_is_given_back_by_the_snapshot_and_not_taken_for_the_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    fs::create_dir(tmp.path().join("old")).unwrap();
    for i in 0..5 {
        fs::write(tmp.path().join(format!("old/{i}.txt")), "x").unwrap();
    }
    fs::set_permissions(
        tmp.path().join("old/0.txt"),
        fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    fs::set_permissions(tmp.path().join("old"), fs::Permissions::from_mode(0o000)).unwrap();
    let before = Snapshot::take(tmp.path(), &cancel).unwrap();
    let mode = |p: &str| {
        fs::symlink_metadata(tmp.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("old"), 0o700);
    assert_eq!(mode("old/0.txt"), 0o600);
    assert_eq!(before.len(), 6);
    let budget = Budget {
        entries: 2,
        bytes: 1 << 20,
    };
    let swept = sweep(tmp.path(), &before, &[], budget, &cancel).unwrap();
    assert!(swept.removed.is_empty(), "{:?}", swept.removed);
    assert!(swept.left.is_empty(), "{:?}", swept.left);
    assert_eq!(fs::read_dir(tmp.path().join("old")).unwrap().count(), 5);
}

fn mode_at(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn the_sweep_takes_the_privilege_bits_a_run_gave_the_root_and_leaves_the_owners() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    let root = tmp.path().join("store");
    fs::create_dir(&root).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o2750)).unwrap();
    let before = Snapshot::take(&root, &cancel).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o6077)).unwrap();
    sweep(&root, &before, &[], ROOMY, &cancel).unwrap();
    assert_eq!(
        mode_at(&root),
        0o2775,
        "the run's world-write and setuid taken, the owner's setgid kept"
    );
}

#[test]
fn the_root_swapped_for_a_link_changes_nothing_through_it() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = Cancel::new();
    let root = tmp.path().join("store");
    let outside = tmp.path().join("outside");
    fs::create_dir(&root).unwrap();
    fs::create_dir(&outside).unwrap();
    let before = Snapshot::take(&root, &cancel).unwrap();
    // Not its owner's to use: a sweep through the link would give it back.
    fs::set_permissions(&outside, fs::Permissions::from_mode(0o1557)).unwrap();
    fs::rename(&root, tmp.path().join("moved")).unwrap();
    symlink(&outside, &root).unwrap();
    assert!(sweep(&root, &before, &[], ROOMY, &cancel).is_err());
    assert_eq!(mode_at(&outside), 0o1557);
    // Another folder put in its place is not the one the snapshot saw.
    fs::remove_file(&root).unwrap();
    fs::create_dir(&root).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o777)).unwrap();
    let _ = sweep(&root, &before, &[], ROOMY, &cancel);
    assert_eq!(mode_at(&root), 0o777);
}
