//! lopdf's per-object hook and the read that installs it: it counts the
//! objects, bounds lopdf's parsing work, checks the cancel flag, decrypts
//! top-level objects of an encrypted file, and decodes each object stream
//! itself within bounds before lopdf parses its members (see the parent
//! module for why).

use std::cell::RefCell;
use std::collections::HashSet;

use lopdf::encryption::{decrypt_object, EncryptionState};
use lopdf::{Document, Object, ObjectId, Reader};
use memchr::memmem;

use super::MAX_OBJECTS;
use crate::filters::{self, Budget};
use crate::syntax::{self, nesting};
use crate::{Error, Limits, Result};

pub(super) struct Hook {
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
pub(super) enum Pass {
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
pub(super) struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        HOOK.with(|h| h.borrow_mut().take());
    }
}

/// lopdf's loader over `bytes` with the hook doing `pass`.
pub(super) fn read(
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

pub(super) fn too_many_tokens(max: u64, what: &str) -> Error {
    Error::TooLarge(format!(
        "{what} would parse into more than {max} values (about 120 bytes each)"
    ))
}

pub(super) fn too_deep(limits: Limits) -> Error {
    Error::TooLarge(format!(
        "its objects nest arrays or dictionaries more than {} deep",
        limits.max_nesting
    ))
}

/// Unwinds out of lopdf's loader when the call is cancelled or past the
/// parsing bound: lopdf parses each object before it calls the hook, so
/// dropping the rest would still cost their parsing. `resume_unwind` runs no
/// panic hook (nothing is printed), and [`load`] catches it.
pub(super) struct Stop;

pub(super) fn stop(h: &mut Hook, error: Error) -> ! {
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
pub(super) fn hook(id: ObjectId, object: &mut Object) -> Option<(ObjectId, Object)> {
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
                    Ok(mut data) => {
                        syntax::blank_comments(&mut data);
                        for r in syntax::stray_words(&data) {
                            data[r].fill(b' ');
                        }
                        h.budget_left = h.budget_left.saturating_sub(data.len() as u64);
                        let mut first = s
                            .dict
                            .get(b"First")
                            .and_then(Object::as_i64)
                            .map_or(0, |f| usize::try_from(f).unwrap_or(usize::MAX));
                        // Integers past 64 bits read as reals, as poppler
                        // reads them (lopdf would drop their objects).
                        if let Some((widened, at)) = syntax::widen_object_stream(&data, first) {
                            data = widened;
                            first = at;
                            s.dict.set("First", Object::Integer(first as i64));
                        }
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
