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
//! leaves listed objects unread or the catalog unfound, is loaded again
//! from a copy with a table rebuilt by scanning for object headers
//! ([`recover`](crate::recover)), through the same hook and bounds; the
//! parsing-work bound covers both reads together. A trailer without a
//! usable `/ID` gets an empty one for the key, as the standard security
//! handler says, and every stream's indirect `/Filter` and `/DecodeParms`
//! are resolved once loaded, as are the `/Encrypt` dictionary's crypt
//! filters before decrypting. A stream whose direct `/Length` misses its
//! `endstream` is read from a copy where that key is renamed
//! ([`recover::wrong_lengths`]), so its data is read up to `endstream`.

use std::cell::RefCell;
use std::collections::HashSet;

use lopdf::encryption::{decrypt_object, EncryptionState};
use lopdf::xref::XrefEntry;
use lopdf::{Dictionary, Document, Object, ObjectId, Reader};
use memchr::memmem;

use crate::filters::{self, Budget};
use crate::recover;
use crate::syntax::{self, nesting, MAX_OBJECT_TOKENS};
use crate::{Error, Limits, Result};

/// The most objects a file may hold.
pub const MAX_OBJECTS: u64 = 2_000_000;

struct Hook {
    limits: Limits,
    /// SAFETY: points to the `cancelled` of the running [`load`] call, which
    /// outlives the hook: [`Installed`] removes it before `load` returns.
    cancelled: *const (dyn Fn() -> bool + 'static),
    budget_left: u64,
    /// The tokens object streams may still hold: `max_parsed_tokens` less
    /// those of the file's other objects.
    tokens_left: u64,
    /// The members of the object stream the hook saw last, which lopdf
    /// passes next, in order (sorted object numbers), and how many passed.
    members: Vec<u32>,
    next_member: usize,
    objects: u64,
    /// Half the file's length: what lopdf scans, on average, per object.
    scan_per_object: u64,
    /// lopdf's parsing work in earlier reads of the same file.
    scan_before: u64,
    pass: Pass,
    error: Option<Error>,
}

/// What the hook does besides bounding: for an encrypted file, keep only
/// the objects that are not streams, or decrypt each top-level object.
enum Pass {
    Plain,
    Structure,
    Decrypt {
        state: Box<EncryptionState>,
        /// Objects kept inside object streams: the stream was decrypted.
        compressed: HashSet<u32>,
        /// The encryption dictionary, which is never encrypted.
        dictionary: Option<ObjectId>,
    },
}

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// Removes the hook when `load` returns or unwinds.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        HOOK.with(|h| h.borrow_mut().take());
    }
}

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
    let start = memmem::find(bytes, b"%PDF-").unwrap_or(0);
    let wrong = recover::wrong_lengths(&bytes[start..], cancelled)?;
    let fixed;
    let bytes: &[u8] = if wrong.is_empty() {
        bytes
    } else {
        let mut copy = bytes.to_vec();
        for h in wrong {
            copy[start + h] = b'x';
        }
        fixed = copy;
        &fixed
    };
    let mut spent = 0u64;
    let first = load_file(bytes, limits, tokens_left, cancelled, &mut spent);
    let read_first = match first {
        Ok(doc) if sound(&doc) => return Ok(finished(doc)),
        // Dropped before the second read: one document at a time.
        Ok(_) => None,
        Err(Error::Broken(why)) => Some(why),
        Err(e) => return Err(e),
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

/// Whether lopdf read every object the table lists where it says, and the
/// catalog the trailer names.
fn sound(doc: &Document) -> bool {
    root_found(doc)
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

/// The `/Encrypt` dictionary, direct or through its reference.
fn encryption_dictionary(doc: &Document) -> Option<&Dictionary> {
    let e = doc.trailer.get(b"Encrypt").ok()?;
    match e {
        Object::Reference(id) => doc.objects.get(id)?.as_dict().ok(),
        other => other.as_dict().ok(),
    }
}

/// Whether a version 4 or 5 security handler leaves the document's streams
/// and strings unencrypted: `/StmF` and `/StrF` are `/Identity`, or absent
/// (their default). qpdf's and Acrobat's "encrypt attachments only" files
/// set a user password for the embedded files alone (`/EFF`); poppler and
/// pdf.js read the rest without one.
fn nothing_encrypted(doc: &Document) -> bool {
    let Some(e) = encryption_dictionary(doc) else {
        return false;
    };
    let identity = |key: &[u8]| {
        e.get(key)
            .map_or(true, |f| f.as_name().is_ok_and(|n| n == b"Identity"))
    };
    matches!(e.get(b"V").and_then(Object::as_i64), Ok(4 | 5))
        && identity(b"StmF")
        && identity(b"StrF")
}

/// A version 4 handler's key length, when `/Length` is missing, from its
/// stream crypt filter's `/Length` (bytes, or bits past 40), 128 bits by
/// default, as pdf.js reads it: lopdf takes 40 bits, and derives the wrong
/// key for an AESV2 file written without it (pypdf's
/// encryption_r4-aes-v2-no-key-length).
fn v4_key_length(doc: &mut Document) {
    let Some(e) = encryption_dictionary(doc) else {
        return;
    };
    if e.has(b"Length") || e.get(b"V").and_then(Object::as_i64).ok() != Some(4) {
        return;
    }
    let filter = e
        .get(b"StmF")
        .and_then(Object::as_name)
        .ok()
        .and_then(|name| e.get(b"CF").and_then(Object::as_dict).ok()?.get(name).ok())
        .and_then(|f| f.as_dict().ok());
    let mut bits = filter
        .and_then(|f| f.get(b"Length").and_then(Object::as_i64).ok())
        .unwrap_or(128);
    if bits < 40 {
        bits *= 8;
    }
    let bits = if (40..=128).contains(&bits) && bits % 8 == 0 {
        bits
    } else {
        128
    };
    let id = doc
        .trailer
        .get(b"Encrypt")
        .ok()
        .and_then(|o| o.as_reference().ok());
    let e = match id {
        Some(id) => doc.objects.get_mut(&id),
        None => doc.trailer.get_mut(b"Encrypt").ok(),
    };
    if let Some(Object::Dictionary(e)) = e {
        e.set("Length", Object::Integer(bits));
    }
}

/// The `/Encrypt` dictionary's crypt filters (`/CF`, and each filter in it)
/// made direct: lopdf reads only a direct `/CF`, and without it decrypts
/// nothing (an AES-256 file with `/CF 7 0 R` read as ciphertext, pdf.js's
/// issue7665). The specification allows references there.
fn direct_crypt_filters(doc: &mut Document) {
    let deref = |o: &Object| -> Object {
        match o {
            Object::Reference(id) => doc.objects.get(id).cloned().unwrap_or(Object::Null),
            other => other.clone(),
        }
    };
    let encrypt_id = doc
        .trailer
        .get(b"Encrypt")
        .ok()
        .and_then(|o| o.as_reference().ok());
    let encrypt = match encrypt_id {
        Some(id) => doc.objects.get(&id),
        None => doc.trailer.get(b"Encrypt").ok(),
    };
    let Some(Ok(cf)) = encrypt
        .and_then(|e| e.as_dict().ok())
        .and_then(|e| e.get(b"CF").ok())
        .map(|cf| match deref(cf) {
            Object::Dictionary(d) => Ok(d),
            _ => Err(()),
        })
    else {
        return;
    };
    let mut direct = Dictionary::new();
    for (name, filter) in cf.iter().take(16) {
        direct.set(name.clone(), deref(filter));
    }
    let encrypt = match encrypt_id {
        Some(id) => doc.objects.get_mut(&id),
        None => doc.trailer.get_mut(b"Encrypt").ok(),
    };
    if let Some(Object::Dictionary(e)) = encrypt {
        e.set("CF", Object::Dictionary(direct));
    }
}

/// The trailer's `/ID` as the security handler reads it: an array whose
/// first element is a string. It may be written through references; a file
/// with none uses the empty string, as the standard security handler does
/// (and pdftotext, pdf.js and MuPDF read such files).
fn direct_file_id(doc: &mut Document) {
    let deref = |o: &Object| -> Option<Object> {
        match o {
            Object::Reference(id) => doc.objects.get(id).cloned(),
            other => Some(other.clone()),
        }
    };
    let first = doc
        .trailer
        .get(b"ID")
        .ok()
        .and_then(deref)
        .and_then(|ids| match ids {
            Object::Array(a) => a.first().and_then(deref),
            _ => None,
        })
        .filter(|first| first.as_str().is_ok());
    let first = first.unwrap_or_else(|| Object::string_literal(Vec::new()));
    doc.trailer
        .set("ID", Object::Array(vec![first.clone(), first]));
}

/// What `/Encrypt` is renamed to: the same length, so no offset moves.
const HIDDEN_KEY: &[u8] = b"Encrypx";

/// A copy of `bytes` with every name lopdf reads as `/Encrypt` renamed,
/// however its letters are escaped (`/Encr#79pt`), or None when there is
/// none: an encrypted file must never reach lopdf's own loader.
fn hide_encryption(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut copy: Option<Vec<u8>> = None;
    for p in memchr::memchr_iter(b'/', bytes) {
        let Some(last) = last_letter_of_encrypt(&bytes[p + 1..]).map(|at| p + 1 + at) else {
            continue;
        };
        let copy = copy.get_or_insert_with(|| bytes.to_vec());
        // The `t` becomes an `x`, written as it was: plain or escaped.
        match copy[last] {
            b'#' => copy[last + 1..last + 3].copy_from_slice(b"78"),
            _ => copy[last] = b'x',
        }
    }
    copy
}

/// Where the last letter of the name at the start of `name` (just after
/// its `/`) is written, when lopdf reads that name as `Encrypt`: its letters
/// plain or as `#xx` escapes, as lopdf's name parser reads them.
fn last_letter_of_encrypt(name: &[u8]) -> Option<usize> {
    let hex = |b: u8| (b as char).to_digit(16);
    let mut read = 0;
    let mut last = 0;
    for &want in b"Encrypt" {
        last = read;
        let got = match *name.get(read)? {
            b'#' => {
                let high = hex(*name.get(read + 1)?)?;
                let low = hex(*name.get(read + 2)?)?;
                read += 3;
                (high * 16 + low) as u8
            }
            b => {
                read += 1;
                b
            }
        };
        if got != want {
            return None;
        }
    }
    // A longer name, such as `/EncryptMetadata`, is another key.
    let ends = match name.get(read) {
        None => true,
        Some(b'#') => {
            !(name
                .get(read + 1..read + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)))
        }
        Some(&b) => b" \t\n\r\0\x0C()<>[]{}/%".contains(&b),
    };
    ends.then_some(last)
}

/// lopdf's loader over `bytes` with the hook doing `pass`.
fn read(
    bytes: &[u8],
    limits: Limits,
    tokens_left: u64,
    cancelled: &dyn Fn() -> bool,
    pass: Pass,
    spent: &mut u64,
) -> Result<Document> {
    let start = memmem::find(bytes, b"%PDF-").unwrap_or(0);
    // SAFETY: the pointer's lifetime is erased only to store it in the
    // thread-local hook, which `Installed` clears before this function
    // returns (or unwinds); the hook runs only inside `read` below.
    let cancelled: *const (dyn Fn() -> bool + 'static) = unsafe {
        std::mem::transmute::<*const (dyn Fn() -> bool + '_), *const (dyn Fn() -> bool + 'static)>(
            cancelled as *const _,
        )
    };
    HOOK.with(|h| {
        *h.borrow_mut() = Some(Hook {
            limits,
            cancelled,
            budget_left: limits.max_decoded_bytes,
            tokens_left,
            members: Vec::new(),
            next_member: 0,
            objects: 0,
            scan_per_object: (bytes.len() as u64 / 2).max(1),
            scan_before: *spent,
            pass,
            error: None,
        })
    });
    let _installed = Installed;
    let reader = Reader {
        buffer: &bytes[start..],
        document: Document::new(),
        encryption_state: None,
        raw_objects: Default::default(),
        password: None,
    };
    let doc = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reader.read(Some(hook))));
    let doc = match doc {
        Ok(doc) => doc,
        Err(payload) if payload.is::<Stop>() => Err(lopdf::Error::ReferenceLimit),
        Err(payload) => std::panic::resume_unwind(payload),
    };
    let (error, scanned) = HOOK.with(|h| {
        h.borrow_mut().as_mut().map_or((None, 0), |h| {
            (h.error.take(), h.objects.saturating_mul(h.scan_per_object))
        })
    });
    *spent = spent.saturating_add(scanned);
    if let Some(e) = error {
        return Err(e);
    }
    doc.map_err(|e| Error::Broken(e.to_string()))
}

fn too_many_tokens(max: u64, what: &str) -> Error {
    Error::TooLarge(format!(
        "{what} would parse into more than {max} values (about 120 bytes each)"
    ))
}

fn too_deep(limits: Limits) -> Error {
    Error::TooLarge(format!(
        "its objects nest arrays or dictionaries more than {} deep",
        limits.max_nesting
    ))
}

/// Unwinds out of lopdf's loader when the call is cancelled or past the
/// parsing bound: lopdf parses each object before it calls the hook, so
/// dropping the rest would still cost their parsing. `resume_unwind` runs no
/// panic hook (nothing is printed), and [`load`] catches it.
struct Stop;

fn stop(h: &mut Hook, error: Error) -> ! {
    h.error = Some(error);
    std::panic::resume_unwind(Box::new(Stop))
}

impl Hook {
    /// Whether object `number` is the next member of the object stream
    /// seen last; once an object is not, that stream's members are done.
    fn is_member(&mut self, number: u32) -> bool {
        let rest = &self.members[self.next_member.min(self.members.len())..];
        let skipped = rest.partition_point(|&m| m < number);
        if rest.get(skipped) == Some(&number) {
            self.next_member += skipped + 1;
            return true;
        }
        self.members.clear();
        self.next_member = 0;
        false
    }
}

/// lopdf's per-object hook (a plain `fn`, hence the thread-local state).
fn hook(id: ObjectId, object: &mut Object) -> Option<(ObjectId, Object)> {
    HOOK.with(|h| {
        let mut h = h.borrow_mut();
        let h = h.as_mut()?;
        if h.error.is_some() {
            return None;
        }
        h.objects += 1;
        if h.objects > MAX_OBJECTS {
            h.error = Some(Error::TooLarge(format!("more than {MAX_OBJECTS} objects")));
            return None;
        }
        let scanned = h.objects.saturating_mul(h.scan_per_object);
        if h.scan_before.saturating_add(scanned) > h.limits.max_parse_scan {
            let error = Error::TooLarge(format!(
                "more than {} objects outside object streams in a file of {} MB, too many to parse in time",
                h.objects - 1,
                (h.scan_per_object * 2) >> 20
            ));
            stop(h, error);
        }
        // SAFETY: see `Hook::cancelled`: the call it points into is running.
        let cancelled = unsafe { &*h.cancelled };
        if cancelled() {
            stop(h, Error::Cancelled);
        }
        // Whether this is a member of the object stream seen last (lopdf
        // passes them right after it): those are not encrypted on their own.
        let member = match object {
            Object::Stream(s) => {
                if !s.dict.has_type(b"ObjStm") {
                    h.members.clear();
                }
                false
            }
            _ => h.is_member(id.0),
        };
        match &h.pass {
            Pass::Plain => {}
            Pass::Structure => {
                if matches!(object, Object::Stream(_)) {
                    return None;
                }
            }
            Pass::Decrypt {
                state,
                compressed,
                dictionary,
            } => {
                if !member && !compressed.contains(&id.0) && *dictionary != Some(id) {
                    // A part that does not decrypt stays as it is, as lopdf
                    // leaves it.
                    let _ = decrypt_object(state, id, object);
                    // Decrypting a large object takes a while: look again.
                    if cancelled() {
                        stop(h, Error::Cancelled);
                    }
                }
            }
        }
        if let Object::Stream(s) = object {
            if s.dict.has_type(b"ObjStm") {
                let budget = Budget::new(h.budget_left, cancelled);
                match filters::decoded(s, h.limits.max_stream_bytes, &budget) {
                    Ok(data) if nesting(&data) > h.limits.max_nesting => {
                        h.error = Some(too_deep(h.limits));
                        return None;
                    }
                    Ok(data) => {
                        h.budget_left = h.budget_left.saturating_sub(data.len() as u64);
                        let first = s
                            .dict
                            .get(b"First")
                            .and_then(Object::as_i64)
                            .map_or(0, |f| usize::try_from(f).unwrap_or(usize::MAX));
                        let (members, tokens) = syntax::object_stream(&data, first, h.tokens_left);
                        if tokens > h.tokens_left {
                            h.error = Some(too_many_tokens(
                                h.limits.max_parsed_tokens,
                                "its objects, with those in object streams,",
                            ));
                            return None;
                        }
                        h.tokens_left -= tokens;
                        h.members = members;
                        h.next_member = 0;
                        // Decoded here, predictors too: lopdf parses the
                        // members from this, never inflating it unbounded.
                        s.dict.remove(b"Filter");
                        s.dict.remove(b"DecodeParms");
                        s.set_content(data);
                    }
                    Err(e) => {
                        h.error = Some(e);
                        return None;
                    }
                }
            }
        }
        // lopdf keeps the object it passed for top-level objects (the answer
        // only says keep or drop) and takes the answer for objects inside
        // object streams, which it passes right after their stream, in
        // order: those are moved into the answer, never copied (a copy of a
        // large array doubled its cost).
        Some((
            id,
            if member {
                std::mem::replace(object, Object::Null)
            } else {
                Object::Null
            },
        ))
    })
}

/// Refuses cross-reference tables too long for lopdf to parse in time: it
/// rescans a table from its start for each entry it reads, so a table of L
/// bytes (20 per entry) costs about L * L / 40 bytes scanned.
fn check_xref_tables(bytes: &[u8], limits: Limits) -> Result<()> {
    let mut work = 0u64;
    for p in memmem::find_iter(bytes, b"xref") {
        if bytes[..p].ends_with(b"start") {
            continue;
        }
        let from = p + 4;
        // Each table's length is the work it costs, so the scans to the
        // next `trailer` are bounded by the limit below.
        let len = memmem::find(&bytes[from..], b"trailer").unwrap_or(bytes.len() - from) as u64;
        work = work.saturating_add(len.saturating_mul(len) / 40);
        if work > limits.max_parse_scan {
            return Err(Error::TooLarge(format!(
                "its cross-reference table has too many entries to parse in time ({} KB)",
                len >> 10
            )));
        }
    }
    Ok(())
}

/// How far before a `stream` keyword its dictionary is looked for.
const DICTIONARY_WINDOW: usize = 64 << 10;

/// Inflates, counting only, every stream that may be a cross-reference or
/// object stream, before lopdf decompresses them without a bound: one whose
/// object starts where a `startxref`, `/Prev` or `/XRefStm` points (lopdf
/// reads a cross-reference stream there whatever its dictionary says), one
/// whose dictionary is longer than the window, and one after a `/XRef` or
/// `/ObjStm` name since the last `endstream` (so a `stream` inside a string
/// of that dictionary does not hide it). Each keyword's window ends where
/// the previous keyword's began, so the scan is linear in the file.
fn check_structural_streams(bytes: &[u8], limits: Limits, budget: &Budget) -> Result<()> {
    let mut inflated = filters::InflatedSize::default();
    let offsets = xref_offsets(bytes);
    let mut floor = 0;
    let mut marked = false;
    for (n, p) in memmem::find_iter(bytes, b"stream").enumerate() {
        if n % 4096 == 4095 {
            budget.check()?;
        }
        let window_start = p.saturating_sub(DICTIONARY_WINDOW).max(floor);
        let cut = window_start > floor;
        floor = p + 6;
        if p >= 3 && &bytes[p - 3..p] == b"end" {
            marked = false;
            continue;
        }
        let raw = &bytes[window_start..p];
        let window = match memchr::memchr(b'#', raw) {
            Some(_) => std::borrow::Cow::Owned(unescape_names(raw)),
            None => std::borrow::Cow::Borrowed(raw),
        };
        marked |= memmem::find(&window, b"/XRef").is_some()
            || memmem::find(&window, b"/ObjStm").is_some();
        let named =
            offsets.partition_point(|&o| o < window_start) < offsets.partition_point(|&o| o < p);
        if !marked && !cut && !named {
            continue;
        }
        let mut data = &bytes[floor..];
        if let [b'\r', rest @ ..] = data {
            data = rest;
        }
        if let [b'\n', rest @ ..] = data {
            data = rest;
        }
        inflated.of(data, limits.max_stream_bytes, budget)?;
    }
    Ok(())
}

/// Where in `bytes` lopdf may read a cross-reference section, sorted: the
/// numbers after `startxref`, `/Prev` and `/XRefStm` (names with escapes
/// written out), counted from the `%PDF-` header as lopdf counts them.
fn xref_offsets(bytes: &[u8]) -> Vec<usize> {
    let start = memmem::find(bytes, b"%PDF-").unwrap_or(0);
    let names = match memchr::memchr(b'#', bytes) {
        Some(_) => std::borrow::Cow::Owned(unescape_names(bytes)),
        None => std::borrow::Cow::Borrowed(bytes),
    };
    let mut offsets = Vec::new();
    let keys: [(&[u8], &[u8]); 3] = [
        (bytes, b"startxref"),
        (&names, b"/Prev"),
        (&names, b"/XRefStm"),
    ];
    for (hay, key) in keys {
        for p in memmem::find_iter(hay, key) {
            let rest = &hay[p + key.len()..];
            let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
            let digits = rest
                .iter()
                .take(20)
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 {
                let value = rest[..digits].iter().fold(0usize, |n, &d| {
                    n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
                });
                offsets.push(start.saturating_add(value));
            }
        }
    }
    offsets.sort_unstable();
    offsets.dedup();
    offsets
}

/// Names with `#xx` escapes written out, so `/Obj#53tm` reads `/ObjStm`.
fn unescape_names(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let hex = raw
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (raw[i], hex) {
            (b'#', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_the_parsing_work_and_stops_when_cancelled() {
        let mut pdf = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for i in 1..=2000 {
            offsets.push(pdf.len());
            pdf.extend(format!("{i} 0 obj\n[1 2 3]\nendobj\n").bytes());
        }
        let xref = pdf.len();
        pdf.extend(b"xref\n0 2001\n0000000000 65535 f \n");
        for o in offsets {
            pdf.extend(format!("{o:010} 00000 n \n").bytes());
        }
        pdf.extend(
            format!("trailer\n<< /Size 2001 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").bytes(),
        );
        let limits = Limits {
            max_parse_scan: 1000 * (pdf.len() as u64 / 2),
            ..Limits::default()
        };
        assert!(
            matches!(load(&pdf, limits, &|| false), Err(Error::TooLarge(why)) if why.contains("more than 1000 objects"))
        );
        assert!(load(&pdf, Limits::default(), &|| false).is_ok());
        assert!(matches!(
            load(&pdf, Limits::default(), &|| true),
            Err(Error::Cancelled)
        ));
    }

    /// A two-page file: its text is on pages 4 and 6, in streams 3 and 5.
    fn two_pages() -> Vec<u8> {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>".into(),
            "<< /Length 28 >>\nstream\nBT /F1 12 Tf (First) Tj ET\nendstream".into(),
            "<< /Type /Page /Parent 2 0 R /Contents 3 0 R >>".into(),
            "<< /Length 29 >>\nstream\nBT /F1 12 Tf (Second) Tj ET\nendstream".into(),
            "<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>".into(),
        ];
        let mut pdf = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in objects.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).bytes());
        }
        let xref = pdf.len();
        pdf.extend(b"xref\n0 7\n0000000000 65535 f \n");
        for o in offsets {
            pdf.extend(format!("{o:010} 00000 n \n").bytes());
        }
        pdf.extend(
            format!("trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").bytes(),
        );
        pdf
    }

    /// The page contents lopdf loaded from `pdf`, in page order.
    fn contents(pdf: &[u8]) -> Result<Vec<Vec<u8>>> {
        let doc = load(pdf, Limits::default(), &|| false)?;
        Ok(doc
            .get_pages()
            .values()
            .filter_map(|&id| doc.get_page_content(id).ok())
            .collect())
    }

    #[test]
    fn rebuilds_a_damaged_cross_reference_section() {
        let good = two_pages();
        let both = contents(&good).unwrap();
        assert_eq!(both.len(), 2);
        let text = String::from_utf8_lossy(&good).into_owned();
        // startxref pointing elsewhere.
        let at = text.rfind("startxref\n").unwrap() + 10;
        let end = at + text[at..].find('\n').unwrap();
        let wrong_start = format!("{}12{}", &text[..at], &text[end..]);
        assert_eq!(contents(wrong_start.as_bytes()).unwrap(), both);
        // No table, trailer or startxref.
        let cut = &good[..text.find("xref\n0 7").unwrap()];
        assert_eq!(contents(cut).unwrap(), both);
        // Every offset off by three.
        let table = text.find("xref\n0 7").unwrap();
        let mut shifted = text[..table].to_string();
        for line in text[table..].split_inclusive('\n') {
            match line.strip_suffix(" 00000 n \n") {
                Some(offset) => {
                    let offset: usize = offset.parse().unwrap();
                    shifted.push_str(&format!("{:010} 00000 n \n", offset + 3));
                }
                None => shifted.push_str(line),
            }
        }
        assert_eq!(contents(shifted.as_bytes()).unwrap(), both);
        // A download cut inside the second page's stream: the first is read.
        let inside = text.find("(Second)").unwrap();
        assert_eq!(contents(&good[..inside]).unwrap(), vec![both[0].clone()]);
        // Nothing to rebuild from: lopdf's own error.
        assert!(matches!(
            load(b"%PDF-1.4\nnothing\n", Limits::default(), &|| false),
            Err(Error::Broken(_))
        ));
    }

    #[test]
    fn a_cancel_stops_the_rebuilding_too() {
        let mut pdf = b"%PDF-1.4\n".to_vec();
        for i in 1..20_000 {
            pdf.extend(format!("{i} 0 obj\nnull\nendobj\n").bytes());
        }
        let calls = std::cell::Cell::new(0u32);
        // lopdf's first read fails at once; the scan then sees the cancel.
        let cancelled = || {
            calls.set(calls.get() + 1);
            calls.get() > 1
        };
        assert_eq!(
            load(&pdf, Limits::default(), &cancelled).err(),
            Some(Error::Cancelled)
        );
    }

    #[test]
    fn resolves_indirect_filters_and_their_parameters() {
        let mut doc = Document::new();
        let names = doc.add_object(Object::Array(vec![
            Object::Name(b"ASCIIHexDecode".to_vec()),
            Object::Name(b"FlateDecode".to_vec()),
        ]));
        let parms = doc.add_object(Object::Null);
        let mut dict = lopdf::Dictionary::new();
        dict.set("Filter", Object::Reference(names));
        dict.set("DecodeParms", Object::Array(vec![Object::Reference(parms)]));
        let id = doc.add_object(lopdf::Stream::new(dict, vec![]));
        resolve_stream_keys(&mut doc);
        let s = doc.get_object(id).unwrap().as_stream().unwrap();
        assert_eq!(s.dict.get(b"Filter").unwrap().as_array().unwrap().len(), 2);
        assert_eq!(
            s.dict.get(b"DecodeParms").unwrap(),
            &Object::Array(vec![Object::Null])
        );
    }

    #[test]
    fn makes_crypt_filters_direct() {
        use lopdf::dictionary;
        let mut doc = Document::with_version("1.7");
        let filter = doc.add_object(dictionary! { "CFM" => "AESV3", "Length" => 32 });
        let filters = doc.add_object(dictionary! { "StdCF" => filter });
        let encrypt = doc.add_object(dictionary! { "V" => 5, "CF" => filters });
        doc.trailer.set("Encrypt", encrypt);
        direct_crypt_filters(&mut doc);
        let cf = doc
            .get_dictionary(encrypt)
            .and_then(|e| e.get(b"CF"))
            .expect("a /CF");
        let std_cf = cf
            .as_dict()
            .and_then(|cf| cf.get(b"StdCF"))
            .expect("direct");
        assert_eq!(
            std_cf
                .as_dict()
                .and_then(|f| f.get(b"CFM"))
                .and_then(Object::as_name)
                .ok(),
            Some(&b"AESV3"[..])
        );
    }

    #[test]
    fn reads_escaped_names() {
        assert_eq!(unescape_names(b"/Type /Obj#53tm #zz"), b"/Type /ObjStm #zz");
    }

    #[test]
    fn hides_only_the_encrypt_key_keeping_every_offset() {
        let pdf = b"<< /EncryptMetadata false >> << /Encrypt 5 0 R /Root 1 0 R >>";
        let hidden = hide_encryption(pdf).expect("an /Encrypt key");
        assert_eq!(hidden.len(), pdf.len());
        assert_eq!(
            &hidden[..],
            &b"<< /EncryptMetadata false >> << /Encrypx 5 0 R /Root 1 0 R >>"[..]
        );
        assert!(hide_encryption(b"<< /EncryptMetadata true /Root 1 0 R >>").is_none());
        // Escaped letters, as lopdf reads them, the last one too.
        assert_eq!(
            hide_encryption(b"<</Encr#79pt 5 0 R/Encryp#74/Encrypt#41>>").as_deref(),
            Some(&b"<</Encr#79px 5 0 R/Encryp#78/Encrypt#41>>"[..])
        );
    }

    /// The structural-stream check over `bytes` with streams capped at
    /// 1,000 bytes.
    fn structural(bytes: &[u8]) -> Result<()> {
        let limits = Limits {
            max_stream_bytes: 1000,
            ..Limits::default()
        };
        let budget = Budget::new(limits.max_decoded_bytes, &|| false);
        check_structural_streams(bytes, limits, &budget)
    }

    fn object_with_bomb(dictionary: &str) -> Vec<u8> {
        use std::io::Write;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&[0; 100_000]).unwrap();
        let mut pdf = format!("%PDF-1.5\n1 0 obj\n{dictionary}\nstream\n").into_bytes();
        pdf.extend(z.finish().unwrap());
        pdf.extend(b"\nendstream\nendobj\n");
        pdf
    }

    #[test]
    fn counts_object_streams_whatever_their_dictionary_hides() {
        let too_large =
            |r: Result<()>| matches!(r, Err(Error::TooLarge(why)) if why.contains("decompresses"));
        assert!(too_large(structural(&object_with_bomb(
            "<< /Type /ObjStm /N 1 /First 4 >>"
        ))));
        // A string holding `stream` after the type, and one holding `obj`.
        let hidden = "<< /Type /ObjStm /T (stream) /U (1 0 obj) /N 1 /First 4 >>";
        assert!(too_large(structural(&object_with_bomb(hidden))));
        // A dictionary longer than the window: its type is out of sight.
        let long = format!("<< /Type /XRef /Pad [{}] >>", "0 ".repeat(40_000));
        assert!(too_large(structural(&object_with_bomb(&long))));
        // Other streams are not inflated, unless a cross-reference section
        // is named there.
        assert!(structural(&object_with_bomb("<< /Length 99 >>")).is_ok());
        let mut untyped = object_with_bomb("<< /Length 99 >>");
        untyped.extend(b"startxref\n9\n%%EOF\n");
        assert!(too_large(structural(&untyped)));
        let mut escaped = object_with_bomb("<< /Length 99 >>");
        escaped.extend(b"trailer << /Pr#65v 9 >>\n");
        assert!(too_large(structural(&escaped)));
    }

    #[test]
    fn scans_many_stream_keywords_once() {
        // Each keyword used to look back over the 64 KB before it.
        let mut pdf = b"%PDF-1.4\n".to_vec();
        pdf.extend(b"stream ".repeat(300_000));
        assert!(structural(&pdf).is_ok());
    }
}
