//! Encrypted files written by hand with the standard security handler and
//! the empty user password, so a test controls what only decryption
//! reveals: RC4 (V 1, R 2) with its objects in an object stream, AES-128
//! (V 4, R 4) without a key length, AES-256 (V 5, R 5) with its crypt
//! filters through references.

use aes::cipher::{BlockEncrypt, KeyInit};
use md5::{Digest, Md5};
use sha2::Sha256;

use super::{hex_bytes as hex, page_content, serialize, xref_stream_rows};

/// Algorithm 2's padding of the empty password.
const PAD: [u8; 32] = [
    0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
    0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
];
const PERMISSIONS: i32 = -4;

fn md5(parts: &[&[u8]]) -> [u8; 16] {
    let mut hash = Md5::new();
    for part in parts {
        hash.update(part);
    }
    hash.finalize().into()
}

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part);
    }
    hash.finalize().into()
}

/// Bytes that look random, the same each run.
fn noise(seed: u8, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| {
            (i as u8)
                .wrapping_mul(151)
                .wrapping_add(seed.wrapping_mul(29))
                ^ 0x5A
        })
        .collect()
}

pub fn rc4(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut s: Vec<u8> = (0..=255).collect();
    let mut j = 0u8;
    for i in 0..256 {
        j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
        s.swap(i, j as usize);
    }
    let (mut i, mut j) = (0u8, 0u8);
    data.iter()
        .map(|byte| {
            i = i.wrapping_add(1);
            j = j.wrapping_add(s[i as usize]);
            s.swap(i as usize, j as usize);
            byte ^ s[s[i as usize].wrapping_add(s[j as usize]) as usize]
        })
        .collect()
}

/// AES-CBC of `data` with `key` (16 or 32 bytes) from `vector`, padded
/// (PKCS#7) when `pad`.
fn aes_cbc(key: &[u8], vector: &[u8], data: &[u8], pad: bool) -> Vec<u8> {
    let mut data = data.to_vec();
    if pad {
        let n = 16 - data.len() % 16;
        data.extend(std::iter::repeat_n(n as u8, n));
    }
    let mut previous = vector.to_vec();
    let mut out = Vec::new();
    for chunk in data.chunks(16) {
        let mut block: Vec<u8> = chunk.iter().zip(&previous).map(|(a, b)| a ^ b).collect();
        aes_block(key, &mut block);
        previous.clone_from(&block);
        out.extend(block);
    }
    out
}

fn aes_block(key: &[u8], block: &mut [u8]) {
    let block = aes::Block::from_mut_slice(block);
    if key.len() == 16 {
        aes::Aes128::new_from_slice(key)
            .expect("16 bytes")
            .encrypt_block(block);
    } else {
        aes::Aes256::new_from_slice(key)
            .expect("32 bytes")
            .encrypt_block(block);
    }
}

fn stream_of(sealed: &[u8], dict: &str) -> Vec<u8> {
    let mut out = format!("<< {dict} /Length {} >>\nstream\n", sealed.len()).into_bytes();
    out.extend(sealed);
    out.extend(b"\nendstream");
    out
}

/// A one-page file encrypted with RC4 and a 40-bit key (R 2). Object 7
/// sits in an object stream (object 6) whose Flate data is `objstm` ("7 0 "
/// then the object), found through a cross-reference stream; the page's
/// content stream, `text`, is encrypted too. With `id` None the trailer has
/// no /ID, and the key derives from an empty one.
pub fn rc4_pdf(objstm: &[u8], text: &str, id: Option<&[u8]>) -> Vec<u8> {
    let key = md5(&[&PAD, &PAD, &PERMISSIONS.to_le_bytes(), id.unwrap_or(b"")]);
    let key = &key[..5];
    let sealed = |num: u32, dict: &str, data: &[u8]| {
        let object_key = md5(&[key, &num.to_le_bytes()[..3], &[0, 0]]);
        stream_of(&rc4(&object_key[..10], data), dict)
    };
    let objects: Vec<(u32, Vec<u8>)> = vec![
        (1, b"<< /Type /Catalog /Pages 2 0 R >>".to_vec()),
        (2, b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>".to_vec()),
        (3, super::HELVETICA.into()),
        (4, sealed(4, "", page_content(text).as_bytes())),
        (
            5,
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
              /Resources << /Font << /F1 3 0 R >> >> >>"
                .to_vec(),
        ),
        (
            6,
            sealed(
                6,
                "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode",
                objstm,
            ),
        ),
        (
            8,
            format!(
                "<< /Filter /Standard /V 1 /R 2 /O <{}> /U <{}> /P {PERMISSIONS} >>",
                hex(&PAD),
                hex(&rc4(key, &PAD))
            )
            .into(),
        ),
    ];
    let mut out = b"%PDF-1.5\n".to_vec();
    let mut rows = [[0u32; 3]; 10];
    rows[0] = [0, 0, 65_535];
    rows[7] = [2, 6, 0];
    for (num, body) in objects {
        rows[num as usize] = [1, out.len() as u32, 0];
        out.extend(format!("{num} 0 obj\n").bytes());
        out.extend(body);
        out.extend(b"\nendobj\n");
    }
    let xref = out.len();
    rows[9] = [1, xref as u32, 0];
    let data = xref_stream_rows(&rows);
    let id = id.map_or(String::new(), |id| {
        format!("/ID [<{}> <{}>] ", hex(id), hex(id))
    });
    out.extend(
        format!(
            "9 0 obj\n<< /Type /XRef /Size 10 /W [1 4 2] /Root 1 0 R /Encrypt 8 0 R {id}/Length {} >>\nstream\n",
            data.len()
        )
        .bytes(),
    );
    out.extend(data);
    out.extend(format!("\nendstream\nendobj\nstartxref\n{xref}\n%%EOF\n").bytes());
    out
}

/// The /ID [`rc4_pdf`]'s files have unless told otherwise.
pub const RC4_ID: &[u8] = b"fixed-document-id";

/// A one-page file encrypted with AES-128 (V 4, R 4, the AESV2 crypt
/// filter) whose /Encrypt has no /Length: the key is 128 bits by V 4's
/// definition, as pypdf's encryption_r4-aes-v2-no-key-length.pdf is written.
pub fn aes128_pdf(text: &str) -> Vec<u8> {
    let id = b"aes-128-document";
    let owner = noise(3, 32);
    // Algorithm 2 with the empty password, 50 more MD5 rounds (R 3 and up).
    let mut key = md5(&[&PAD, &owner, &PERMISSIONS.to_le_bytes(), id]);
    for _ in 0..50 {
        key = md5(&[&key]);
    }
    // Algorithm 5: the padding and ID hashed, sealed 20 times with the key.
    let mut user = rc4(&key, &md5(&[&PAD, id]));
    for i in 1..=19u8 {
        let round: Vec<u8> = key.iter().map(|b| b ^ i).collect();
        user = rc4(&round, &user);
    }
    user.extend([0u8; 16]);
    // Object 4, sealed with its own key (Algorithm 1 with the AES salt).
    let object_key = md5(&[&key, &4u32.to_le_bytes()[..3], &[0, 0], b"sAlT"]);
    let vector = noise(7, 16);
    let mut data = vector.clone();
    data.extend(aes_cbc(
        &object_key,
        &vector,
        page_content(text).as_bytes(),
        true,
    ));
    let pdf = serialize(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
          /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        stream_of(&data, ""),
        super::HELVETICA.into(),
        format!(
            "<< /Filter /Standard /V 4 /R 4 /P -4 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV2 \
             /Length 16 >> >> /StmF /StdCF /StrF /StdCF /O <{}> /U <{}> >>",
            hex(&owner),
            hex(&user)
        )
        .into(),
    ]);
    with_trailer(
        &pdf,
        &format!("/Encrypt 6 0 R /ID [<{}> <{}>]", hex(id), hex(id)),
    )
}

/// A one-page file encrypted with AES-256 (V 5, R 5: the key check is one
/// SHA-256) whose crypt filters are written through references (/CF 7 0 R,
/// /StdCF 8 0 R), as pdf.js's issue7665.pdf has them.
pub fn aes256_pdf(text: &str) -> Vec<u8> {
    let key = noise(29, 32);
    let vector = noise(7, 16);
    let mut data = vector.clone();
    data.extend(aes_cbc(&key, &vector, page_content(text).as_bytes(), true));
    // The user and owner keys (hash, validation salt, key salt), the file
    // key wrapped by each, and the permissions sealed with it.
    let salts = noise(5, 32);
    let mut user = sha256(&[&salts[..8]]).to_vec();
    user.extend(&salts[..16]);
    let mut owner = sha256(&[&salts[16..24], &user]).to_vec();
    owner.extend(&salts[16..32]);
    let wrap = |with: [u8; 32]| aes_cbc(&with, &[0; 16], &key, false);
    let mut perms = PERMISSIONS.to_le_bytes().to_vec();
    perms.extend(b"\xFF\xFF\xFF\xFFTadb0000");
    aes_block(&key, &mut perms);
    let encrypt = format!(
        "<< /Filter /Standard /V 5 /R 5 /Length 256 /P -4 /CF 7 0 R /StmF /StdCF /StrF /StdCF \
         /U <{}> /UE <{}> /O <{}> /OE <{}> /Perms <{}> >>",
        hex(&user),
        hex(&wrap(sha256(&[&salts[8..16]]))),
        hex(&owner),
        hex(&wrap(sha256(&[&salts[24..32], &user]))),
        hex(&perms)
    );
    let pdf = serialize(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
          /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        stream_of(&data, ""),
        super::HELVETICA.into(),
        encrypt.into(),
        b"<< /StdCF 8 0 R >>".to_vec(),
        b"<< /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >>".to_vec(),
    ]);
    with_trailer(&pdf, "/Encrypt 6 0 R")
}

/// `pdf` with `entries` added to its trailer after /Root.
fn with_trailer(pdf: &[u8], entries: &str) -> Vec<u8> {
    let at = pdf
        .windows(11)
        .rposition(|w| w == b"/Root 1 0 R")
        .expect("a trailer")
        + 11;
    [&pdf[..at], b" ", entries.as_bytes(), &pdf[at..]].concat()
}
