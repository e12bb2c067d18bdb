//! Closing, in a forked child, the descriptors the parent's folder locks had
//! open.
//!
//! A `flock` belongs to the open file description, which `fork` shares with
//! the child: a child forked inside `with_lock` (a worker, a subprocess made
//! with `fork` and no `exec`) kept the folder locked after its parent was
//! killed, for as long as it lived. `O_CLOEXEC` helps only an `exec`. So each
//! descriptor a lock opens is recorded here while it is open, and a
//! `pthread_atfork` child handler closes them all in the child, before any
//! of the child's own code runs. Closing there leaves the parent's hold: a
//! `flock` goes when one of the descriptors unlocks it or all are closed.
//!
//! The handler runs in the child of a process that may have many threads,
//! where only async-signal-safe calls are allowed: so the record is a fixed
//! table of atomics (no allocation, no lock), and the handler only loads,
//! stores and calls `close`. A process that holds more than [`SLOTS`] locks
//! at once, or forks between a lock's `open` and its record here, leaves
//! those descriptors to the child, as before.

use std::os::fd::RawFd;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;

/// How many lock descriptors may be open at once and still be closed in a
/// forked child: one per folder lock being taken or held in the process.
pub const SLOTS: usize = 1024;

const FREE: i32 = -1;

static OPEN: [AtomicI32; SLOTS] = [const { AtomicI32::new(FREE) }; SLOTS];
static HANDLER: Once = Once::new();

extern "C" {
    fn pthread_atfork(
        prepare: Option<extern "C" fn()>,
        parent: Option<extern "C" fn()>,
        child: Option<extern "C" fn()>,
    ) -> c_int;
}

/// In the child, after `fork`: closes every recorded descriptor, and drops
/// the parent's table of shared locks.
extern "C" fn close_in_child() {
    super::shared::forget_in_child();
    for slot in &OPEN {
        let fd = slot.swap(FREE, Ordering::SeqCst);
        if fd != FREE {
            // SAFETY: `fd` was open in the parent at the fork (a slot is
            // freed before its descriptor is closed), so it is open here, a
            // copy no code of the child has used; the lock's state in the
            // child forgets it without closing it (see `Slot::forget`).
            unsafe { rustix::io::close(fd) };
        }
    }
}

/// A descriptor's place in the table; dropping it frees the place, which
/// must happen before the descriptor is closed.
#[derive(Debug)]
pub struct Slot(usize);

/// Registers the child handler, once a process (a child inherits it).
pub fn register() {
    HANDLER.call_once(|| {
        // SAFETY: registers a handler that makes only async-signal-safe
        // calls; it stays valid, since this library is never unloaded
        // (Ruby does not unload extensions, and the tests are binaries).
        // Should registering fail (ENOMEM), forks keep the old behaviour:
        // nothing else depends on it.
        unsafe { pthread_atfork(None, None, Some(close_in_child)) };
    });
}

impl Slot {
    /// Records `fd`; None when the table is full.
    pub fn record(fd: RawFd) -> Option<Slot> {
        register();
        OPEN.iter()
            .position(|slot| {
                slot.compare_exchange(FREE, fd, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            })
            .map(Slot)
    }

    /// In a forked child: the handler closed the descriptor and freed the
    /// place, which another lock of the child may have taken since, so this
    /// one is let go of without touching the table.
    pub fn forget(self) {
        std::mem::forget(self);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        OPEN[self.0].store(FREE, Ordering::SeqCst);
    }
}
