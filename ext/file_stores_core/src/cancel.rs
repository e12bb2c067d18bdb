//! Cooperative cancellation. The binding runs long work without Ruby's global
//! lock and hands it a [`Cancel`]; Ruby's unblocking function sets it when the
//! thread is interrupted (Ctrl-C, `Thread#kill`, `Timeout`), and every loop in
//! the core checks it between units of work.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

/// A flag that asks running work to stop.
#[derive(Debug, Default)]
pub struct Cancel(AtomicBool);

impl Cancel {
    pub fn new() -> Self {
        Cancel(AtomicBool::new(false))
    }

    /// Asks the work to stop. Safe to call from any thread, at any time.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Release);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire)
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
