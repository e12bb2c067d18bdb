//! Named fields across the Ruby boundary: a Hash with Symbol keys, read
//! into Rust as wasmtime-rb reads its `Config`. Every key must be one the
//! reader knows (a misspelt or extra key is an ArgumentError naming it) and
//! every known key must be there, so a field renamed or moved on one side is
//! an error on the next call, never a value read into the wrong field, as it
//! would be from a positional array.

use magnus::r_hash::ForEach;
use magnus::{prelude::*, Error, RHash, Ruby, Symbol, Value};

/// Hands each entry of `hash` to `set` by name, converted there and then
/// (no Ruby value is kept in Rust memory the GC does not see). `what` names
/// the hash in error messages; `names` are the keys it must hold, all of them.
pub fn read(
    ruby: &Ruby,
    hash: RHash,
    what: &str,
    names: &[&'static str],
    mut set: impl FnMut(&'static str, Value) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut seen = vec![false; names.len()];
    hash.foreach(|key: Value, value: Value| {
        let known = Symbol::from_value(key)
            .and_then(|symbol| symbol.name().ok())
            .and_then(|name| names.iter().position(|known| *known == name));
        let Some(index) = known else {
            return Err(Error::new(
                ruby.exception_arg_error(),
                format!(
                    "unknown {what} field {}; the fields are {}",
                    key.inspect(),
                    listed(names)
                ),
            ));
        };
        seen[index] = true;
        let name = names[index];
        set(name, value).map_err(|e| {
            Error::new(
                ruby.exception_type_error(),
                format!("{what} field :{name}: {e}"),
            )
        })?;
        Ok(ForEach::Continue)
    })?;
    let missing: Vec<&str> = names
        .iter()
        .zip(&seen)
        .filter(|(_, seen)| !**seen)
        .map(|(name, _)| *name)
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error::new(
            ruby.exception_arg_error(),
            format!("{what} is missing {}", listed(&missing)),
        ))
    }
}

fn listed(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!(":{name}"))
        .collect::<Vec<_>>()
        .join(", ")
}
