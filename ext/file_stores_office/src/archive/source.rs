//! The bytes of an Office file as the zip crate reads them: a cursor that
//! checks the cancel flag on every read and, while the archive is being
//! opened, counts the bytes read against a budget.
//!
//! The zip crate looks for the end-of-central-directory record from the end
//! of the file backwards, and for every candidate it finds it parses the
//! whole central directory that candidate points to before trying the next.
//! A file of thousands of records that each point to a large directory that
//! fails at its last entry therefore costs records × directory, minutes for a
//! file of a few hundred KB, in a call with no cancel point of its own. An
//! honest archive is opened reading its directory once (plus a few small
//! reads), so a budget of a few times the file's length refuses the hostile
//! one after a handful of candidates, whatever the zip crate does inside.

use std::cell::Cell;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::rc::Rc;

use file_stores_base::cancel::Cancel;

/// How many times over the file may be read while opening it, plus
/// [`OPEN_SLACK`] bytes for the small reads of a tiny file.
pub const OPEN_PASSES: u64 = 4;
pub const OPEN_SLACK: u64 = 1024 * 1024;

/// Why a read was refused, told apart by [`Source::refusal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Cancelled,
    OverBudget,
}

/// The cursor handed to the zip crate; see the module documentation.
pub struct Source<'a> {
    cursor: Cursor<&'a [u8]>,
    cancel: &'a Cancel,
    /// Bytes that may still be read; shared with the [`Archive`](super::Archive),
    /// which lifts it once the archive is open.
    budget: Rc<Cell<u64>>,
    refused: Rc<Cell<Option<Refusal>>>,
}

/// What the archive keeps to lift the budget and learn why a read failed.
#[derive(Clone)]
pub struct Handle {
    budget: Rc<Cell<u64>>,
    refused: Rc<Cell<Option<Refusal>>>,
}

impl Handle {
    /// Lets every later read through: parts are bounded by the archive's
    /// own limits.
    pub fn lift(&self) {
        self.budget.set(u64::MAX);
    }

    /// Why the last refused read was refused, if one was.
    pub fn refusal(&self) -> Option<Refusal> {
        self.refused.get()
    }
}

impl<'a> Source<'a> {
    /// A source over `bytes` that may read [`OPEN_PASSES`] times their
    /// length (plus [`OPEN_SLACK`]) until [`Handle::lift`] is called.
    pub fn new(bytes: &'a [u8], cancel: &'a Cancel) -> (Self, Handle) {
        let budget = (bytes.len() as u64)
            .saturating_mul(OPEN_PASSES)
            .saturating_add(OPEN_SLACK);
        let handle = Handle {
            budget: Rc::new(Cell::new(budget)),
            refused: Rc::new(Cell::new(None)),
        };
        let source = Source {
            cursor: Cursor::new(bytes),
            cancel,
            budget: Rc::clone(&handle.budget),
            refused: Rc::clone(&handle.refused),
        };
        (source, handle)
    }

    fn refuse(&self, why: Refusal) -> io::Error {
        self.refused.set(Some(why));
        io::Error::other(match why {
            Refusal::Cancelled => "cancelled",
            Refusal::OverBudget => "read over the budget for opening",
        })
    }
}

impl Read for Source<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.cancel.is_cancelled() {
            return Err(self.refuse(Refusal::Cancelled));
        }
        let n = self.cursor.read(buf)?;
        let left = self.budget.get();
        if n as u64 > left {
            return Err(self.refuse(Refusal::OverBudget));
        }
        self.budget.set(left - n as u64);
        Ok(n)
    }
}

impl Seek for Source<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.cursor.seek(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_within_the_budget_then_refuses_until_lifted() {
        let bytes = vec![7u8; 1000];
        let cancel = Cancel::new();
        let (mut source, handle) = Source::new(&bytes, &cancel);
        let mut buf = vec![0u8; 1000];
        let budget = 1000 * OPEN_PASSES + OPEN_SLACK;
        let mut read = 0;
        let err = loop {
            source.seek(SeekFrom::Start(0)).expect("seeks");
            match source.read(&mut buf) {
                Ok(n) => read += n as u64,
                Err(e) => break e,
            }
        };
        assert!(read <= budget && read + 1000 > budget, "{read}");
        assert_eq!(err.kind(), io::ErrorKind::Other);
        assert_eq!(handle.refusal(), Some(Refusal::OverBudget));
        handle.lift();
        source.seek(SeekFrom::Start(0)).expect("seeks");
        assert_eq!(source.read(&mut buf).expect("lifted"), 1000);
    }

    #[test]
    fn a_cancelled_read_says_so() {
        let cancel = Cancel::new();
        let (mut source, handle) = Source::new(b"abc", &cancel);
        cancel.cancel();
        assert!(source.read(&mut [0u8; 3]).is_err());
        assert_eq!(handle.refusal(), Some(Refusal::Cancelled));
    }
}
