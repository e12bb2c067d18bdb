//! One [`FolderLock`] per folder in a process.
//!
//! Each store object had its own lock, with its own `flock`: two objects on
//! one folder in one thread (`a.with_lock { b.write(...) }`, a hook making
//! its own store of the same folder) then waited for each other forever.
//! So every store of a folder gets the same lock from this table: reentrancy
//! by owner works across them, and threads queue on its condvar, not on
//! `flock`. A folder is known by its device and inode, not its path, so two
//! spellings of it share; the table holds weak references, and a lock goes
//! with the last store using it.
//!
//! A forked child gets a table of its own: the `at_fork` child handler sets
//! the parent's aside (an atomic store; its mutex may have been held by a
//! thread the child does not have), and the child's first use copies from it
//! the locks its inherited stores still use, unless that mutex was held at
//! the fork, when the child starts empty. Each lock itself forgets the
//! parent's hold (see the module above).

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use super::{at_fork, FolderLock};

/// A folder's identity: its device and inode.
pub type FolderId = (u64, u64);

type Table = Mutex<HashMap<FolderId, Weak<FolderLock>>>;

/// This process's table, made on first use; null in a freshly forked child.
/// A table is never freed (one a process, and one left behind by each fork
/// in its child), so a pointer read from here stays valid.
static TABLE: AtomicPtr<Table> = AtomicPtr::new(ptr::null_mut());
/// In a forked child, the parent's table until the child's is made.
static PARENTS: AtomicPtr<Table> = AtomicPtr::new(ptr::null_mut());

fn table() -> &'static Table {
    let current = TABLE.load(Ordering::Acquire);
    if !current.is_null() {
        // SAFETY: a non-null pointer here came from `Box::into_raw` below
        // and is never freed.
        return unsafe { &*current };
    }
    at_fork::register();
    let mut inherited = HashMap::new();
    let parents = PARENTS.swap(ptr::null_mut(), Ordering::AcqRel);
    if !parents.is_null() {
        // SAFETY: set by `forget_in_child` from `TABLE`, so from
        // `Box::into_raw`, never freed.
        let parents = unsafe { &*parents };
        // Never waits: a mutex held at the fork stays held in the child.
        if let Some(locks) = parents.try_lock() {
            inherited.extend(
                locks
                    .iter()
                    .filter(|(_, lock)| lock.strong_count() > 0)
                    .map(|(id, lock)| (*id, lock.clone())),
            );
        }
    }
    let made = Box::into_raw(Box::new(Mutex::new(inherited)));
    match TABLE.compare_exchange(ptr::null_mut(), made, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: `made` was just leaked into the static, never freed.
        Ok(_) => unsafe { &*made },
        Err(other) => {
            // SAFETY: `made` lost the race and was never shared: freed
            // here, once.
            drop(unsafe { Box::from_raw(made) });
            // SAFETY: `other` came from `Box::into_raw`, and is never freed.
            unsafe { &*other }
        }
    }
}

/// In a forked child: sets the parent's table aside. Async-signal-safe.
pub(super) fn forget_in_child() {
    let parents = TABLE.swap(ptr::null_mut(), Ordering::AcqRel);
    if !parents.is_null() {
        PARENTS.store(parents, Ordering::Release);
    }
}

/// Whether `dir` is the folder `id` now.
fn is_folder(dir: &Path, id: FolderId) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| (m.dev(), m.ino()) == id)
}

impl FolderLock {
    /// The lock of the folder `id` (at `dir`) every store of it in this
    /// process shares, made when it has none.
    pub fn shared(dir: &Path, id: FolderId) -> Arc<FolderLock> {
        let mut locks = table().lock();
        if let Some(lock) = locks.get(&id).and_then(Weak::upgrade) {
            // The lock opens its folder by path for each hold: one whose
            // folder was removed, its inode then given to another folder,
            // is not this folder's.
            if lock.dir == dir || is_folder(&lock.dir, id) {
                return lock;
            }
        }
        locks.retain(|_, lock| lock.strong_count() > 0);
        let lock = Arc::new(FolderLock::new(dir));
        locks.insert(id, Arc::downgrade(&lock));
        lock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use file_stores_base::cancel::Cancel;
    use std::sync::mpsc;
    use std::time::Duration;

    fn id(dir: &Path) -> FolderId {
        let m = std::fs::metadata(dir).unwrap();
        (m.dev(), m.ino())
    }

    #[test]
    fn stores_of_one_folder_share_its_lock_across_spellings() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("work");
        std::fs::create_dir(&dir).unwrap();
        let link = base.path().join("link");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let dotted = base.path().join("work/./");
        let a = FolderLock::shared(&dir, id(&dir));
        let b = FolderLock::shared(&link, id(&link));
        let c = FolderLock::shared(&dotted, id(&dotted));
        assert!(Arc::ptr_eq(&a, &b) && Arc::ptr_eq(&a, &c));

        // Reentrant for the owner across them: no wait on itself.
        let cancel = Cancel::new();
        a.acquire(1, &cancel).unwrap();
        b.acquire(1, &cancel).unwrap();
        assert!(c.held_by(1));
        assert!(!b.try_acquire(2).unwrap());

        // Another owner waits until the last level is given up.
        let (started, waiting) = mpsc::channel();
        let (took, taken) = mpsc::channel();
        let other = {
            let c = c.clone();
            std::thread::spawn(move || {
                started.send(()).unwrap();
                c.acquire(2, &Cancel::new()).unwrap();
                took.send(()).unwrap();
                assert!(c.release(2));
            })
        };
        waiting.recv().unwrap();
        assert!(b.release(1));
        assert!(taken.recv_timeout(Duration::from_millis(200)).is_err());
        assert!(a.release(1));
        taken.recv_timeout(Duration::from_secs(10)).unwrap();
        other.join().unwrap();
    }

    #[test]
    fn a_folder_made_again_or_another_folder_has_its_own_lock() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("work");
        std::fs::create_dir(&dir).unwrap();
        let other = base.path().join("other");
        std::fs::create_dir(&other).unwrap();
        let first = id(&dir);
        let a = FolderLock::shared(&dir, first);
        assert!(!Arc::ptr_eq(&a, &FolderLock::shared(&other, id(&other))));

        // Removed and made again: a new inode, a new lock. An inode given
        // to another folder is not this folder's either.
        std::fs::remove_dir(&dir).unwrap();
        std::fs::create_dir(&dir).unwrap();
        if id(&dir) != first {
            assert!(!Arc::ptr_eq(&a, &FolderLock::shared(&dir, id(&dir))));
        }
        let moved = base.path().join("moved");
        std::fs::remove_dir(&dir).unwrap();
        let reused = FolderLock::shared(&moved, first);
        assert!(!Arc::ptr_eq(&a, &reused));
        assert_eq!(reused.dir, moved);
    }

    #[test]
    fn a_lock_goes_with_its_last_store() {
        let base = tempfile::tempdir().unwrap();
        let key = id(base.path());
        let a = FolderLock::shared(base.path(), key);
        let weak = Arc::downgrade(&a);
        drop(a);
        assert!(weak.upgrade().is_none());
        let b = FolderLock::shared(base.path(), key);
        assert!(Arc::ptr_eq(&b, &FolderLock::shared(base.path(), key)));
    }
}
