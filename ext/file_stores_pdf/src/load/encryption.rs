//! What loading an encrypted file needs around lopdf: the `/Encrypt` key
//! hidden from lopdf's own loader (renamed, same length), and the
//! encryption dictionary, crypt filters and file `/ID` made direct and
//! sound before the key for the empty password is derived.

use lopdf::{Dictionary, Document, Object};

/// The `/Encrypt` dictionary, direct or through its reference.
pub(super) fn encryption_dictionary(doc: &Document) -> Option<&Dictionary> {
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
pub(super) fn nothing_encrypted(doc: &Document) -> bool {
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
pub(super) fn v4_key_length(doc: &mut Document) {
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
pub(super) fn direct_crypt_filters(doc: &mut Document) {
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
pub(super) fn direct_file_id(doc: &mut Document) {
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
pub(super) const HIDDEN_KEY: &[u8] = b"Encrypx";

/// A copy of `bytes` with every name lopdf reads as `/Encrypt` renamed,
/// however its letters are escaped (`/Encr#79pt`), or None when there is
/// none: an encrypted file must never reach lopdf's own loader.
pub(super) fn hide_encryption(bytes: &[u8]) -> Option<Vec<u8>> {
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
pub(super) fn last_letter_of_encrypt(name: &[u8]) -> Option<usize> {
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
