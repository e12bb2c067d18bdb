//! Cooperative cancellation. The binding runs long work without Ruby's global
//! lock and hands it a [`Cancel`]; Ruby's unblocking function sets it when the
//! thread is interrupted (Ctrl-C, `Thread#kill`, `Timeout`), and every loop in
//! the core checks it between units of work.

#[cfg(any(test, feature = "testing"))]
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

/// A flag that asks running work to stop.
#[derive(Debug, Default)]
pub struct Cancel {
    flag: AtomicBool,
    /// In tests, how many more looks at the flag find it clear before it
    /// sets itself (0: never), so a test can cancel work at a point it
    /// chooses instead of after a sleep.
    #[cfg(any(test, feature = "testing"))]
    countdown: AtomicUsize,
}

impl Cancel {
    pub fn new() -> Self {
        Cancel::default()
    }

    /// A flag that sets itself on the `checks`-th look at it.
    #[cfg(any(test, feature = "testing"))]
    pub fn after_checks(checks: usize) -> Self {
        Cancel {
            flag: AtomicBool::new(false),
            countdown: AtomicUsize::new(checks),
        }
    }

    /// Asks the work to stop. Safe to call from any thread, at any time.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Release);
    }

    pub fn is_cancelled(&self) -> bool {
        #[cfg(any(test, feature = "testing"))]
        if self
            .countdown
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            == Ok(1)
        {
            self.cancel();
        }
        self.flag.load(Ordering::Acquire)
    }

    /// `Err(Cancelled)` once cancelled, for use with `?` in loops.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::cancelled())
        } else {
            Ok(())
        }
    }
}
