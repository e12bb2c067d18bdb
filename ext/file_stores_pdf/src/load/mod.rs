//! Loads a document with lopdf within bounds. lopdf's loader has none of
//! its own: it decompresses cross-reference and object streams without a
//! size limit, parses nested arrays and dictionaries by recursion (a deep
//! enough nesting overflows the stack and kills the process), and cannot be
//! interrupted. So before and while it runs:
//!
//! - the file's objects are scanned for their nesting and their tokens,
//!   outside strings and stream data ([`syntax`](crate::syntax)), and
//!   refused past `max_nesting`, or when they would make more parsed
//!   objects than `max_parsed_tokens` (or one object more than
//!   [`MAX_OBJECT_TOKENS`]);
//! - every cross-reference and object stream is first inflated here,
//!   counting only, and refused past `max_stream_bytes` or the file's
//!   decompression budget;
//! - cross-reference tables too long to parse in time are refused (lopdf
//!   rescans a table from its start for each entry);
//! - lopdf's per-object hook counts the objects, bounds lopdf's parsing
//!   work (it rescans the file up to each top-level object: quadratic),
//!   checks the cancel flag,
//!   and decodes each object stream itself within bounds (checking the
//!   nesting of the objects inside, and counting the tokens lopdf will
//!   parse there, against what the file's other objects left) before lopdf
//!   parses it. The hook never copies an object: lopdf keeps a top-level
//!   object itself, and takes an object stream's members from the hook's
//!   answer, so they are moved into it. Once a bound is
//!   passed or the call is cancelled, the hook drops every further object,
//!   so lopdf finishes at once and the error is returned.
//!
//! lopdf's own loader for encrypted files runs no hook and inflates their
//! object streams whole, so an encrypted file is never given to it: its
//! trailer's `/Encrypt` key is hidden (renamed in a copy of the bytes, same
//! length) and it is loaded as a plain file twice. The first pass keeps
//! only the objects that are not streams, enough to read the encryption
//! dictionary and derive the key for the empty password; the second
//! decrypts each top-level object in the hook, before the object stream
//! bounds above apply to the plaintext (objects inside object streams are
//! not encrypted on their own).
//!
//! A file whose cross-reference section lopdf cannot read, or whose table
//! leaves listed objects unread, the catalog or its page tree unfound, is
//! loaded again from a copy with a table rebuilt by scanning for object
//! headers
//! ([`recover`](crate::recover)), through the same hook and bounds; the
//! parsing-work bound covers both reads together. A trailer without a
//! usable `/ID` gets an empty one for the key, as the standard security
//! handler says, and every stream's indirect `/Filter` and `/DecodeParms`
//! are resolved once loaded, as are the `/Encrypt` dictionary's crypt
//! filters before decrypting. A stream whose direct `/Length` misses its
//! `endstream` is read from a copy where that key is renamed
//! ([`recover::wrong_lengths`]), so its data is read up to `endstream`;
//! in the same copy, what follows a `stream` keyword on its line is
//! blanked ([`recover::stream_line_junk`]), so the data starts on the next
//! line. Comments in object streams are blanked once decoded
//! ([`syntax::blank_comments`]), so a member behind one is read.
//!
//! The parts: the hook and the read around it ([`hook`]), encryption
//! ([`encryption`]), and the checks before lopdf runs ([`checks`]).

mod checks;
mod encryption;
mod hook;

use lopdf::encryption::EncryptionState;
use lopdf::xref::XrefEntry;
use lopdf::{Document, Object, ObjectId};
use memchr::memmem;

use crate::filters::Budget;
use crate::recover;
use crate::syntax::{self, nesting, MAX_OBJECT_TOKENS};
use crate::{Error, Limits, Result};
use checks::{check_structural_streams, check_xref_tables};
use encryption::{
    direct_crypt_filters, direct_file_id, hide_encryption, nothing_encrypted, v4_key_length,
    HIDDEN_KEY,
};
use hook::{read, too_deep, too_many_tokens, Pass};

/// The most objects a file may hold.
pub const MAX_OBJECTS: u64 = 2_000_000;

/// The document in `bytes`, loaded within `limits`. A file whose
/// cross-reference section lopdf cannot read, or whose table leaves objects
/// unread or the catalog unfound, is read again with a rebuilt one
/// ([`recover`](crate::recover)); lopdf's parsing work over both reads
/// together stays within `max_parse_scan`.
pub fn load(bytes: &[u8], limits: Limits, cancelled: &dyn Fn() -> bool) -> Result<Document> {
    let mut shape = syntax::shape(bytes);
    // A trailer nested past the limit (qpdf's issue-202, a stack-overflow
    // test) is damage, not the document: blanked in a copy, so the table or
    // the rebuilt one finds the objects, as poppler reads them. Nesting
    // anywhere else is refused.
    let unnested;
    let bytes: &[u8] = match (shape.depth > limits.max_nesting)
        .then(|| blank_deep_trailers(bytes, limits.max_nesting))
        .flatten()
    {
        Some(copy) => {
            shape = syntax::shape(&copy);
            unnested = copy;
            &unnested
        }
        None => bytes,
    };
    if shape.depth > limits.max_nesting {
        return Err(too_deep(limits));
    }
    if shape.largest > MAX_OBJECT_TOKENS {
        return Err(too_many_tokens(MAX_OBJECT_TOKENS, "one of its objects"));
    }
    if shape.tokens > limits.max_parsed_tokens {
        return Err(too_many_tokens(limits.max_parsed_tokens, "its objects"));
    }
    let tokens_left = limits.max_parsed_tokens - shape.tokens;
    check_xref_tables(bytes, limits)?;
    let budget = Budget::new(limits.max_decoded_bytes, cancelled);
    check_structural_streams(bytes, limits, &budget)?;
    // A stream whose direct /Length misses its endstream is not read with
    // that length ([`recover::wrong_lengths`]): lopdf would read the object
    // as its dictionary alone, and its data would be lost.
    // And a `stream` keyword followed on its line by more than white space
    // is read as poppler reads it, from the next line
    // ([`recover::stream_line_junk`]). Both in one copy, made only when
    // needed.
    let start = memmem::find(bytes, b"%PDF-").unwrap_or(0);
    let junk = recover::stream_line_junk(&bytes[start..], cancelled)?;
    let mut fixed: Option<Vec<u8>> = None;
    if !junk.is_empty() {
        let copy = fixed.insert(bytes.to_vec());
        for r in junk {
            copy[start + r.start..start + r.end].fill(b' ');
        }
    }
    // Stray words where a dictionary's key belongs are skipped, as poppler
    // skips them ([`syntax::stray_words`]).
    let stray = syntax::stray_words(fixed.as_deref().unwrap_or(bytes));
    if !stray.is_empty() {
        let copy = fixed.get_or_insert_with(|| bytes.to_vec());
        for r in stray {
            copy[r].fill(b' ');
        }
    }
    if cancelled() {
        return Err(Error::Cancelled);
    }
    let wrong = recover::wrong_lengths(&fixed.as_deref().unwrap_or(bytes)[start..], cancelled)?;
    if !wrong.is_empty() {
        let copy = fixed.get_or_insert_with(|| bytes.to_vec());
        for h in wrong {
            copy[start + h] = b'x';
        }
    }
    // An integer past 64 bits is read as a real, as poppler and pdf.js
    // read it ([`syntax::long_integers`]): lopdf drops the object holding
    // one (a page's `/MediaBox`, the page tree). Written with a `.` after
    // it, the objects after it move, so the file is read from a rebuilt
    // table.
    let long = syntax::long_integers(&fixed.as_deref().unwrap_or(bytes)[start..]);
    let widened = !long.is_empty();
    if widened {
        let ends: Vec<usize> = long.iter().map(|e| start + e).collect();
        fixed = Some(syntax::widen(fixed.as_deref().unwrap_or(bytes), &ends));
    }
    if cancelled() {
        return Err(Error::Cancelled);
    }
    let bytes: &[u8] = fixed.as_deref().unwrap_or(bytes);
    let mut spent = 0u64;
    let read_first = if widened {
        None
    } else {
        match load_file(bytes, limits, tokens_left, cancelled, &mut spent) {
            Ok(doc) if sound(&doc) => return Ok(finished(doc)),
            // Dropped before the second read: one document at a time.
            Ok(_) => None,
            Err(Error::Broken(why)) => Some(why),
            Err(e) => return Err(e),
        }
    };
    let again = |spent: &mut u64| match &read_first {
        Some(why) => Err(Error::Broken(why.clone())),
        None => load_file(bytes, limits, tokens_left, cancelled, spent).map(finished),
    };
    let rebuilt = match recover::rebuilt_section(&bytes[start..], tokens_left, cancelled) {
        Ok(rebuilt) => rebuilt,
        // A file lopdf read, if unsoundly, is not refused for its rebuilding.
        Err(Error::TooLarge(_)) if read_first.is_none() => None,
        Err(e) => return Err(e),
    };
    let Some(tail) = rebuilt else {
        return again(&mut spent);
    };
    let mut repaired = Vec::with_capacity(bytes.len() + tail.len());
    repaired.extend_from_slice(bytes);
    repaired.extend(tail);
    match load_file(&repaired, limits, tokens_left, cancelled, &mut spent) {
        Ok(mut doc) => {
            if !root_found(&doc) {
                find_catalog(&mut doc);
            }
            if root_found(&doc) {
                return Ok(finished(doc));
            }
            drop(doc);
            drop(repaired);
            again(&mut spent)
        }
        Err(Error::Broken(_)) => {
            drop(repaired);
            again(&mut spent)
        }
        Err(e) => Err(e),
    }
}

/// A copy of `bytes` with each `trailer` dictionary that nests past `max`
/// written over with spaces (no offset moves), up to its `startxref`, or
/// None when there is none. Linear: each trailer is read up to the next one.
fn blank_deep_trailers(bytes: &[u8], max: usize) -> Option<Vec<u8>> {
    let trailers: Vec<usize> = memmem::find_iter(bytes, b"trailer").collect();
    let mut copy: Option<Vec<u8>> = None;
    for (n, &t) in trailers.iter().enumerate() {
        let from = t + 7;
        let next = trailers.get(n + 1).copied().unwrap_or(bytes.len());
        let to = memmem::find(&bytes[from..next], b"startxref").map_or(next, |e| from + e);
        if nesting(&bytes[from..to]) > max {
            copy.get_or_insert_with(|| bytes.to_vec())[from..to].fill(b' ');
        }
    }
    copy
}

/// Whether lopdf read every object the table lists where it says, the
/// catalog the trailer names, and the page tree's root that catalog names.
/// A table can list every object it holds and still miss the pages: an
/// update whose `/Prev` points to itself (qpdf's append-xref-loop) hides
/// the sections before it, and lopdf stops at the loop; poppler reads such a
/// file again from a rebuilt table when its catalog finds no pages.
fn sound(doc: &Document) -> bool {
    root_found(doc)
        && pages_found(doc)
        && doc
            .reference_table
            .entries
            .iter()
            .all(|(&number, entry)| match entry {
                XrefEntry::Normal { generation, .. } => {
                    doc.objects.contains_key(&(number, *generation))
                }
                _ => true,
            })
}

/// Whether the trailer's `/Root` is a dictionary of the document.
fn root_found(doc: &Document) -> bool {
    doc.trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .is_ok_and(|id| matches!(doc.objects.get(&id), Some(Object::Dictionary(_))))
}

/// Whether the catalog's `/Pages`, when it is a reference, is a dictionary
/// of the document (a catalog without one holds no pages, whatever the
/// table).
fn pages_found(doc: &Document) -> bool {
    let Ok(pages) = doc
        .catalog()
        .and_then(|c| c.get(b"Pages"))
        .and_then(Object::as_reference)
    else {
        return true;
    };
    matches!(doc.objects.get(&pages), Some(Object::Dictionary(_)))
}

/// Names the last `/Type /Catalog` object with pages as the trailer's
/// `/Root`, for a file whose trailer is lost.
fn find_catalog(doc: &mut Document) {
    let catalog = doc
        .objects
        .iter()
        .rev()
        .find(|(_, o)| {
            o.as_dict()
                .is_ok_and(|d| d.has_type(b"Catalog") && d.get(b"Pages").is_ok())
        })
        .map(|(id, _)| *id);
    if let Some(id) = catalog {
        doc.trailer.set("Root", Object::Reference(id));
    }
}

/// What every loaded document gets: stream keys written through indirect
/// references resolved (`/Filter 3 0 R` where 3 is `[/FlateDecode]`).
fn finished(mut doc: Document) -> Document {
    resolve_stream_keys(&mut doc);
    doc
}

/// The largest value an indirect `/Filter` or `/DecodeParms` is resolved
/// to, in entries: each stream gets a copy.
const MAX_RESOLVED_ENTRIES: usize = 16;

/// Replaces indirect `/Filter` and `/DecodeParms` values of every stream
/// (and references inside their arrays) with the small objects they point
/// to, so the filters read them as written directly. A target too large
/// to copy for each stream is dropped (the stream is read unfiltered).
fn resolve_stream_keys(doc: &mut Document) {
    let mut changes: Vec<(ObjectId, &'static [u8], Object)> = Vec::new();
    let resolve = |o: &Object| -> Object {
        let mut seen = 0;
        let mut o = o;
        while let Object::Reference(id) = o {
            seen += 1;
            match doc.objects.get(id) {
                Some(target) if seen < 8 => o = target,
                _ => return Object::Null,
            }
        }
        o.clone()
    };
    for (&id, object) in &doc.objects {
        let Object::Stream(s) = object else { continue };
        for key in [&b"Filter"[..], b"DecodeParms"] {
            let Ok(value) = s.dict.get(key) else { continue };
            let indirect = match value {
                Object::Reference(_) => true,
                Object::Array(a) => a.iter().any(|o| matches!(o, Object::Reference(_))),
                _ => false,
            };
            if !indirect {
                continue;
            }
            let mut value = resolve(value);
            if let Object::Array(a) = &mut value {
                for o in a.iter_mut() {
                    if matches!(o, Object::Reference(_)) {
                        *o = resolve(o);
                    }
                }
            }
            let size = match &value {
                Object::Array(a) => a.len(),
                Object::Dictionary(d) => d.len(),
                _ => 1,
            };
            let value = if size > MAX_RESOLVED_ENTRIES {
                Object::Null
            } else {
                value
            };
            let key: &'static [u8] = if key == b"Filter" {
                b"Filter"
            } else {
                b"DecodeParms"
            };
            changes.push((id, key, value));
        }
    }
    for (id, key, value) in changes {
        if let Some(Object::Stream(s)) = doc.objects.get_mut(&id) {
            match value {
                Object::Null => {
                    s.dict.remove(key);
                }
                value => s.dict.set(key, value),
            }
        }
    }
}

/// The document in `bytes` (the file, or a repaired copy), loaded as plain
/// or, for an encrypted file, decrypted with the empty password; `spent` is
/// lopdf's parsing work so far, which this read adds to.
fn load_file(
    bytes: &[u8],
    limits: Limits,
    tokens_left: u64,
    cancelled: &dyn Fn() -> bool,
    spent: &mut u64,
) -> Result<Document> {
    let mut read = |bytes: &[u8], pass| read(bytes, limits, tokens_left, cancelled, pass, spent);
    let Some(hidden) = hide_encryption(bytes) else {
        return read(bytes, Pass::Plain);
    };
    let mut structure = read(&hidden, Pass::Structure)?;
    let dictionary = match structure.trailer.remove(HIDDEN_KEY) {
        Some(found) => found,
        // The key was in a stream or a string, not the trailer.
        None => return read(bytes, Pass::Plain),
    };
    let dictionary_id = dictionary.as_reference().ok();
    structure.trailer.set("Encrypt", dictionary);
    direct_file_id(&mut structure);
    direct_crypt_filters(&mut structure);
    if nothing_encrypted(&structure) {
        // Only embedded files are (`/EFF`): the document's own strings and
        // streams are plain, whatever the password.
        drop(structure);
        let mut doc = read(&hidden, Pass::Plain)?;
        doc.trailer.remove(HIDDEN_KEY);
        if let Some(id) = dictionary_id {
            doc.objects.remove(&id);
        }
        return Ok(doc);
    }
    v4_key_length(&mut structure);
    structure
        .authenticate_password("")
        .map_err(|_| Error::Encrypted)?;
    let state = EncryptionState::decode(&structure, "").map_err(|_| Error::Encrypted)?;
    let compressed = structure
        .reference_table
        .entries
        .iter()
        .filter(|(_, entry)| matches!(entry, XrefEntry::Compressed { .. }))
        .map(|(id, _)| *id)
        .collect();
    drop(structure);
    let pass = Pass::Decrypt {
        state: Box::new(state),
        compressed,
        dictionary: dictionary_id,
    };
    let mut doc = read(&hidden, pass)?;
    doc.trailer.remove(HIDDEN_KEY);
    if let Some(id) = dictionary_id {
        doc.objects.remove(&id);
    }
    Ok(doc)
}

#[cfg(test)]
mod tests;
