//! The folder lock: one writer at a time, across threads and processes.
//!
//! Within a process, a mutex-and-condvar pair (parking_lot) records which
//! owner holds the lock and how deeply, so the holder may take it again
//! (`with_lock` around a `write` that locks too). Across processes, the holder
//! also takes an exclusive `flock` on the folder itself, which other
//! processes on the machine honour, and which the kernel drops if the process
//! dies. Owners are opaque numbers chosen by the caller; the Ruby binding uses
//! the id of the current fiber.
//!
//! Waiting never blocks uninterruptibly: it polls in short steps and gives up
//! with `Cancelled` as soon as the [`Cancel`] flag is set.
//!
//! A forked child neither inherits nor keeps its parent's hold. The
//! descriptor is opened for each hold and closed when it ends, and while it
//! is open `at_fork` closes its copy in any forked child (a `flock` is the
//! open file description's, which a fork shares: a child holding a copy
//! kept the folder locked after its parent was killed). The lock then
//! notices the new process id and starts afresh, with a descriptor of its
//! own.
//!
//! Every store of a folder in a process shares one lock ([`FolderLock::shared`]).

mod at_fork;
mod shared;

pub use shared::FolderId;

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use rustix::fs::{flock, open, FlockOperation, Mode, OFlags};
use rustix::io::Errno;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

const POLL: Duration = Duration::from_millis(20);

struct State {
    pid: u32,
    /// The descriptor of the hold being taken or held, and its record for
    /// forks (None when the table was full).
    fd: Option<OwnedFd>,
    slot: Option<at_fork::Slot>,
    owner: Option<u64>,
    depth: u32,
}

impl State {
    fn new() -> Self {
        State {
            pid: std::process::id(),
            fd: None,
            slot: None,
            owner: None,
            depth: 0,
        }
    }

    /// Closes the hold's descriptor, which drops its `flock` if it had one.
    /// The record goes first: a fork in between must not close in the
    /// child a number the parent may have reused.
    fn close(&mut self) {
        drop(self.slot.take());
        drop(self.fd.take());
    }

    /// In a forked child, the parent's state: the `at_fork` handler has
    /// closed a recorded descriptor already, so it is forgotten, never
    /// closed again; one the table could not record is this process's
    /// copy, and is closed.
    fn forget_parents(&mut self) {
        if let Some(slot) = self.slot.take() {
            slot.forget();
            if let Some(fd) = self.fd.take() {
                std::mem::forget(fd);
            }
        }
        *self = State::new();
    }
}

/// A reentrant lock on a folder.
pub struct FolderLock {
    dir: std::path::PathBuf,
    state: Mutex<State>,
    freed: Condvar,
}

impl FolderLock {
    /// An error taking the lock, naming the folder it is on: it concerns
    /// the whole store, not one of its files.
    fn failed(&self, e: Errno) -> Error {
        Error::io(self.dir.display().to_string(), e.into())
    }

    pub fn new(dir: &Path) -> Self {
        FolderLock {
            dir: dir.to_path_buf(),
            state: Mutex::new(State::new()),
            freed: Condvar::new(),
        }
    }

    /// Takes the lock for `owner`, or deepens the hold if `owner` has it.
    pub fn acquire(&self, owner: u64, cancel: &Cancel) -> Result<()> {
        let mut st = self.state.lock();
        Self::forget_if_forked(&mut st);
        if st.owner == Some(owner) {
            st.depth += 1;
            return Ok(());
        }
        while st.owner.is_some() {
            cancel.check()?;
            self.freed.wait_for(&mut st, POLL);
        }
        self.claim(&mut st, owner)?;
        // Hold the in-process lock while waiting for other processes: threads
        // of this process queue on the condvar, not on flock.
        let mut step = Duration::from_millis(1);
        loop {
            if self.try_flock(&mut st)? {
                return Ok(());
            }
            if cancel.is_cancelled() {
                self.abandon(&mut st);
                return Err(Error::cancelled());
            }
            parking_lot::MutexGuard::unlocked(&mut st, || std::thread::sleep(step));
            step = (step * 2).min(POLL);
        }
    }

    /// Takes the lock for `owner` (or deepens its hold) if no other owner,
    /// in this process or another, holds it; never waits. `Ok(false)` when
    /// it is held. For callers that must wait their own way: a fiber under
    /// a Fiber scheduler, whose wait has to let the holder (a fiber of the
    /// same thread) run.
    pub fn try_acquire(&self, owner: u64) -> Result<bool> {
        let mut st = self.state.lock();
        Self::forget_if_forked(&mut st);
        if st.owner == Some(owner) {
            st.depth += 1;
            return Ok(true);
        }
        if st.owner.is_some() {
            return Ok(false);
        }
        self.claim(&mut st, owner)?;
        if self.try_flock(&mut st)? {
            return Ok(true);
        }
        self.abandon(&mut st);
        Ok(false)
    }

    /// Forked: the parent's holds are not ours, nor is its descriptor.
    fn forget_if_forked(st: &mut State) {
        if st.pid != std::process::id() {
            st.forget_parents();
        }
    }

    /// Makes `owner` the in-process holder (the lock being free) and opens
    /// the folder for its `flock`.
    fn claim(&self, st: &mut State, owner: u64) -> Result<()> {
        st.owner = Some(owner);
        st.depth = 1;
        // Opened for this hold (a folder removed and made again is a new
        // folder, and this locks that one), recorded for forks at once.
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let opened = match open(&self.dir, flags, Mode::empty()) {
            // The folder was removed: make it again, as its store does.
            Err(Errno::NOENT) => std::fs::create_dir_all(&self.dir)
                .map_err(|e| Errno::from_io_error(&e).unwrap_or(Errno::NOENT))
                .and_then(|()| open(&self.dir, flags, Mode::empty())),
            other => other,
        };
        match opened {
            Ok(fd) => {
                st.slot = at_fork::Slot::record(fd.as_raw_fd());
                st.fd = Some(fd);
            }
            Err(e) => {
                self.abandon(st);
                return Err(self.failed(e));
            }
        }
        Ok(())
    }

    /// One try at the `flock` of a claimed lock: `Ok(false)` while another
    /// process holds it. On an error the claim is given up.
    fn try_flock(&self, st: &mut State) -> Result<bool> {
        let Some(fd) = st.fd.as_ref() else {
            self.abandon(st);
            return Err(Error::invalid(
                self.dir.display().to_string(),
                "the folder lock is not open",
            ));
        };
        match flock(fd, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(true),
            Err(Errno::WOULDBLOCK) | Err(Errno::INTR) => Ok(false),
            Err(e) => {
                self.abandon(st);
                Err(self.failed(e))
            }
        }
    }

    fn abandon(&self, st: &mut State) {
        st.close();
        st.owner = None;
        st.depth = 0;
        self.freed.notify_one();
    }

    /// Gives up one level of `owner`'s hold; the last one frees the lock.
    /// Returns false when `owner` did not hold it.
    pub fn release(&self, owner: u64) -> bool {
        let mut st = self.state.lock();
        if st.owner != Some(owner) || st.pid != std::process::id() {
            return false;
        }
        st.depth -= 1;
        if st.depth == 0 {
            if let Some(fd) = st.fd.as_ref() {
                // Unlocked before the descriptor is closed, so a copy a fork
                // made meanwhile holds nothing. Unlocking a held flock
                // cannot fail on a valid descriptor; closing drops it too,
                // so an error here loses nothing.
                let _ = flock(fd, FlockOperation::Unlock);
            }
            self.abandon(&mut st);
        }
        true
    }

    /// Whether `owner` holds the lock now.
    pub fn held_by(&self, owner: u64) -> bool {
        let st = self.state.lock();
        st.owner == Some(owner) && st.pid == std::process::id()
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        let st = self.state.get_mut();
        if st.pid == std::process::id() {
            st.close();
        } else {
            st.forget_parents();
        }
    }
}

/// A hold on a [`FolderLock`], released when dropped.
pub struct Held<'a> {
    lock: &'a FolderLock,
    owner: u64,
}

impl<'a> Held<'a> {
    pub fn take(lock: &'a FolderLock, owner: u64, cancel: &Cancel) -> Result<Self> {
        lock.acquire(owner, cancel)?;
        Ok(Held { lock, owner })
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.lock.release(self.owner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn reentrant_for_its_owner() {
        let dir = tempfile::tempdir().unwrap();
        let lock = FolderLock::new(dir.path());
        let c = Cancel::new();
        lock.acquire(1, &c).unwrap();
        lock.acquire(1, &c).unwrap();
        assert!(lock.release(1));
        assert!(lock.held_by(1));
        assert!(lock.release(1));
        assert!(!lock.held_by(1));
        assert!(!lock.release(1));
    }

    #[test]
    fn excludes_other_owners() {
        let dir = tempfile::tempdir().unwrap();
        let lock = Arc::new(FolderLock::new(dir.path()));
        let inside = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4u64)
            .map(|owner| {
                let (lock, inside) = (lock.clone(), inside.clone());
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        let _held = Held::take(&lock, owner, &Cancel::new()).unwrap();
                        assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }

    #[test]
    fn a_second_lock_on_the_folder_waits_and_can_be_cancelled() {
        let dir = tempfile::tempdir().unwrap();
        // Two FolderLocks stand for two processes: each has its own flock.
        let a = FolderLock::new(dir.path());
        let b = FolderLock::new(dir.path());
        a.acquire(1, &Cancel::new()).unwrap();
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(b.acquire(2, &cancel).unwrap_err().is_cancelled());
        a.release(1);
        b.acquire(2, &Cancel::new()).unwrap();
        assert!(b.release(2));
    }

    extern "C" {
        fn fork() -> i32;
        fn pause() -> i32;
    }

    #[test]
    fn a_child_forked_during_a_hold_does_not_keep_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let a = FolderLock::new(dir.path());
        a.acquire(1, &Cancel::new()).unwrap();
        // SAFETY: the child makes only async-signal-safe calls (the fork
        // handler's close, pause) until it is killed.
        let pid = unsafe { fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            loop {
                // SAFETY: async-signal-safe; the parent kills this process.
                unsafe { pause() };
            }
        }
        // The parent dies without unlocking: its descriptor closes.
        {
            let mut st = a.state.lock();
            st.close();
        }
        let b = FolderLock::new(dir.path());
        // Given up after 2 s, the child living all along.
        let cancel = Arc::new(Cancel::new());
        let timer = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(2));
                cancel.cancel();
            })
        };
        let taken = b.acquire(2, &cancel);
        let child = rustix::process::Pid::from_raw(pid).unwrap();
        rustix::process::kill_process(child, rustix::process::Signal::KILL).unwrap();
        rustix::process::waitpid(Some(child), rustix::process::WaitOptions::empty()).unwrap();
        timer.join().unwrap();
        taken.expect("the child kept the lock its parent had");
        assert!(b.release(2));
    }

    #[test]
    fn try_acquire_never_waits_for_another_owner_or_process() {
        let dir = tempfile::tempdir().unwrap();
        let a = FolderLock::new(dir.path());
        let b = FolderLock::new(dir.path()); // another process's lock
        assert!(a.try_acquire(1).unwrap());
        assert!(a.try_acquire(1).unwrap()); // reentrant
        assert!(!a.try_acquire(2).unwrap()); // another owner in this process
        assert!(!b.try_acquire(3).unwrap()); // another process
        assert!(!b.held_by(3));
        assert!(a.release(1) && a.release(1));
        assert!(!a.release(1));
        assert!(b.try_acquire(3).unwrap());
        assert!(!a.try_acquire(1).unwrap());
        assert!(!a.held_by(1));
        assert!(b.release(3));
        a.acquire(1, &Cancel::new()).unwrap();
        assert!(a.release(1));
    }
}
