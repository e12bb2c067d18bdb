//! The one error type of every crate. An error carries the path it concerns,
//! so the binding can raise a Ruby exception whose message names the file: a
//! store path (relative, as the caller gave it), or the store's folder on
//! disk when the error concerns the whole store (its lock, its root gone).
//! Only the kinds that concern no file (`Cancelled`, and `Conversion` until
//! the caller that knows the file names it with [`Error::at`]) have none.

use std::fmt;
use std::io;

/// What went wrong. The binding maps each kind to one Ruby exception class.
#[derive(Debug)]
pub enum ErrorKind {
    /// The path is not acceptable (`..`, absolute, NUL, backslash, hidden...).
    InvalidPath(String),
    /// There is no file at the path.
    NotFound,
    /// The path names a folder where a file is needed.
    IsFolder,
    /// A folder on the way to the path is a file.
    NotAFolder,
    /// The path, or a folder on the way, is a symbolic link: the store never follows one.
    Symlink,
    /// Something is at the path already, and the operation never replaces
    /// (a move's new path).
    Exists,
    /// The write would take the store past its `max_bytes`.
    Full { needed: u64, max_bytes: u64 },
    /// The operation was cancelled (Ruby asked the thread to stop).
    Cancelled,
    /// A file could not be read as text: corrupt, encrypted, unsafe or too
    /// large. The message says what was wrong.
    Conversion(String),
    /// An operating-system error.
    Io(io::Error),
}

/// An error of the core, with the path it concerns.
#[derive(Debug)]
pub struct Error {
    pub kind: ErrorKind,
    pub path: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, path: impl Into<String>) -> Self {
        Error {
            kind,
            path: path.into(),
        }
    }

    pub fn invalid(path: impl Into<String>, why: impl Into<String>) -> Self {
        Error::new(ErrorKind::InvalidPath(why.into()), path)
    }

    pub fn io(path: impl Into<String>, err: io::Error) -> Self {
        Error::new(ErrorKind::Io(err), path)
    }

    /// A conversion failure; the path is filled in by the caller that knows it.
    pub fn conversion(why: impl Into<String>) -> Self {
        Error::new(ErrorKind::Conversion(why.into()), "")
    }

    /// The same error, now naming `path`.
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    pub fn cancelled() -> Self {
        Error::new(ErrorKind::Cancelled, "")
    }

    pub fn is_cancelled(&self) -> bool {
        matches!(self.kind, ErrorKind::Cancelled)
    }

    /// The OS error number, for `Io` errors that have one.
    pub fn raw_os_error(&self) -> Option<i32> {
        match &self.kind {
            ErrorKind::Io(e) => e.raw_os_error(),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.path;
        match &self.kind {
            ErrorKind::InvalidPath(why) => write!(f, "{p:?} is not a valid file path: {why}"),
            ErrorKind::NotFound => write!(f, "{p} does not exist"),
            ErrorKind::IsFolder => write!(f, "{p} is a folder, not a file"),
            ErrorKind::NotAFolder => write!(f, "{p} goes through a file as if it were a folder"),
            ErrorKind::Symlink => write!(
                f,
                "{p} is, or goes through, a symbolic link, which this store never follows"
            ),
            ErrorKind::Exists => write!(f, "{p} already exists"),
            ErrorKind::Full { needed, max_bytes } => write!(
                f,
                "This chat's files are full: delete or overwrite files. \
                 Writing {p} needs {needed} bytes in all, and the limit is {max_bytes}."
            ),
            ErrorKind::Cancelled => write!(f, "the operation was interrupted"),
            ErrorKind::Conversion(why) => {
                if p.is_empty() {
                    write!(f, "{why}")
                } else {
                    write!(f, "{p} could not be read as text: {why}")
                }
            }
            ErrorKind::Io(e) => {
                if p.is_empty() {
                    write!(f, "{e}")
                } else {
                    write!(f, "{p}: {e}")
                }
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}
