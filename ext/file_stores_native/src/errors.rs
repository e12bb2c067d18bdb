//! Core errors as Ruby exceptions.
//!
//! The exception classes are defined in Ruby (`lib/ruby_llm/file_stores/
//! native/errors.rb`) and looked up here by name when an error is raised, so
//! there is one list of them and RDoc documents it. The mapping below is
//! exhaustive: adding a kind to the core fails the build until it has a Ruby
//! class.

use file_stores_base::{Error as Core, ErrorKind};
use magnus::{prelude::*, Error, ExceptionClass, Ruby};

/// A core error on its way to Ruby (a newtype, since both types are foreign).
pub struct CoreError(pub Core);

fn raise_as(ruby: &Ruby, class_path: &str, message: String) -> Error {
    // Object.const_get takes a "RubyLLM::FileStore::X" path through classes and modules.
    match ruby
        .class_object()
        .funcall::<_, _, ExceptionClass>("const_get", (class_path,))
    {
        Ok(class) => Error::new(class, message),
        Err(lookup) => lookup,
    }
}

/// A rescuable error for a panic in native code (a bug to report).
pub fn internal_error(ruby: &Ruby, message: &str) -> Error {
    raise_as(
        ruby,
        "RubyLLM::FileStore::InternalError",
        format!("native code failed unexpectedly: {message}. This is a bug in ruby_llm-file_stores-native; please report it."),
    )
}

impl From<CoreError> for Error {
    fn from(CoreError(err): CoreError) -> Self {
        let ruby = Ruby::get().expect("core errors are raised on a Ruby thread");
        let message = err.to_string();
        match err.kind {
            ErrorKind::InvalidPath(_)
            | ErrorKind::IsFolder
            | ErrorKind::NotAFolder
            | ErrorKind::Symlink => Error::new(ruby.exception_arg_error(), message),
            ErrorKind::NotFound => raise_as(&ruby, "RubyLLM::FileNotFoundError", message),
            // FileExistsError.new(path) makes its own message.
            ErrorKind::Exists => raise_as(&ruby, "RubyLLM::FileExistsError", err.path.clone()),
            ErrorKind::Full { .. } => raise_as(&ruby, "RubyLLM::FileStoreFullError", message),
            ErrorKind::Cancelled => Error::new(ruby.exception_interrupt(), message),
            ErrorKind::Conversion(_) => {
                raise_as(&ruby, "RubyLLM::FileStore::ConversionError", message)
            }
            ErrorKind::Io(ref io) => match io.raw_os_error() {
                // SystemCallError.new(message, errno) gives the Errno:: subclass.
                Some(errno) => match ruby
                    .exception_system_call_error()
                    .new_instance((message.clone(), errno))
                {
                    Ok(exception) => Error::from(exception),
                    Err(e) => e,
                },
                None => Error::new(ruby.exception_io_error(), message),
            },
        }
    }
}
