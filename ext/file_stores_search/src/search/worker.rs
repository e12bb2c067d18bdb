//! What the threads of one search reuse from file to file: a searcher and
//! a copy of the matcher per thread, and the buffers files' output lines
//! are formatted into.
//!
//! Why: an uncapped search of a common word formats hundreds of thousands
//! of lines. A new buffer per file, grown by doubling on a pool thread and
//! freed by the calling thread once reported, has glibc's allocator spend
//! its time taking its arenas' locks from two sides; so a buffer goes back
//! to the search once the report has copied it, and the next file takes it.
//! And the compiled regex keeps its scratch caches in a pool that only its
//! first thread reaches without a lock; so each thread searches with its own
//! copy (sharing the compiled program), which it keeps across its turns.

use std::ops::{Deref, DerefMut};

use grep_regex::RegexMatcher;
use grep_searcher::Searcher;
use parking_lot::Mutex;

use super::report::Lines;

/// The room of the spare output buffers kept, in all and for one: a
/// search's spares stay within a few MB whatever it found, and still cover
/// the hundreds of files that may be searched ahead of the report.
const SPARE_BYTES: usize = 4 << 20;
const MAX_SPARE_BYTES: usize = 64 << 10;

/// A thread's tools for searching files.
pub(super) struct Worker {
    pub(super) searcher: Searcher,
    pub(super) matcher: RegexMatcher,
    /// A small file's bytes, read whole.
    pub(super) buffer: Vec<u8>,
}

/// The workers and buffers of one search that no thread holds right now.
#[derive(Default)]
pub(super) struct Spares {
    workers: Mutex<Vec<Worker>>,
    /// The buffers, and the sum of their capacities.
    lines: Mutex<(Vec<Lines>, usize)>,
}

impl Spares {
    /// A spare worker, or one `make` makes; it comes back when the loan is
    /// dropped (at the end of a helper's turn).
    pub(super) fn lend(&self, make: impl FnOnce() -> Worker) -> Lent<'_> {
        let spare = self.workers.lock().pop();
        Lent {
            worker: Some(spare.unwrap_or_else(make)),
            home: self,
        }
    }

    /// An empty buffer for a file's output lines.
    pub(super) fn lines(&self) -> Lines {
        let mut spares = self.lines.lock();
        let (buffers, bytes) = &mut *spares;
        match buffers.pop() {
            Some(lines) => {
                *bytes -= lines.text.capacity();
                lines
            }
            None => Lines::default(),
        }
    }

    /// Takes back a buffer the report is done with.
    pub(super) fn give_back(&self, mut lines: Lines) {
        let room = lines.text.capacity();
        if room > MAX_SPARE_BYTES {
            return;
        }
        lines.clear();
        let mut spares = self.lines.lock();
        let (buffers, bytes) = &mut *spares;
        if *bytes + room <= SPARE_BYTES {
            *bytes += room;
            buffers.push(lines);
        }
    }
}

/// A worker on loan from [`Spares`].
pub(super) struct Lent<'s> {
    /// Always Some until dropped.
    worker: Option<Worker>,
    home: &'s Spares,
}

impl Deref for Lent<'_> {
    type Target = Worker;

    fn deref(&self) -> &Worker {
        match &self.worker {
            Some(worker) => worker,
            None => unreachable!("a lent worker is there until the loan is dropped"),
        }
    }
}

impl DerefMut for Lent<'_> {
    fn deref_mut(&mut self) -> &mut Worker {
        match &mut self.worker {
            Some(worker) => worker,
            None => unreachable!("a lent worker is there until the loan is dropped"),
        }
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            self.home.workers.lock().push(worker);
        }
    }
}
