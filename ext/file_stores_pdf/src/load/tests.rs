//! The loader's unit tests.

use super::checks::unescape_names;
use super::*;

#[test]
fn bounds_the_parsing_work_and_stops_when_cancelled() {
    let objects = vec!["[1 2 3]"; 2000];
    let pdf = crate::testpdf::serialize(&objects);
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
    crate::testpdf::serialize(&objects)
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

/// Encrypted files with the empty user password, read through `to_text`:
/// what only decryption reveals is the page's text.
mod encrypted {
    use crate::testpdf::crypt::{aes128_pdf, aes256_pdf, rc4_pdf, RC4_ID};
    use crate::testpdf::{deflate, text};

    #[test]
    fn reads_a_file_encrypted_with_the_empty_user_password() {
        let pdf = include_bytes!("../../../../spec/fixtures/pdf/encrypted_empty_password.pdf");
        assert_eq!(
            text("encrypted_empty_password", pdf),
            "## Page 1\n\nEncrypted, yet it opens\nwithout a password.\n"
        );
    }

    #[test]
    fn reads_an_encrypted_file_whose_objects_sit_in_an_object_stream() {
        let pdf = rc4_pdf(
            &deflate(b"7 0 [1 2 3]"),
            "Some text on the page.",
            Some(RC4_ID),
        );
        assert_eq!(
            text("encrypted_objstm", &pdf),
            "## Page 1\n\nSome text on the page.\n"
        );
    }

    #[test]
    fn reads_an_rc4_file_whose_trailer_has_no_id_even_when_its_startxref_is_wrong() {
        let objstm = deflate(b"7 0 << /Unused true >>");
        let pdf = rc4_pdf(&objstm, "Encrypted, and no ID\nin the trailer.", None);
        assert_eq!(
            text("rc4_no_id", &pdf),
            "## Page 1\n\nEncrypted, and no ID\nin the trailer.\n"
        );
        let pdf = rc4_pdf(&objstm, "Encrypted and damaged,\nstill read.", None);
        let at = pdf
            .windows(10)
            .rposition(|w| w == b"startxref\n")
            .expect("a startxref")
            + 10;
        let end = at + pdf[at..].iter().position(|&b| b == b'\n').expect("a line");
        let damaged = [&pdf[..at], b"3", &pdf[end..]].concat();
        assert_eq!(
            text("rc4_no_id_wrong_startxref", &damaged),
            "## Page 1\n\nEncrypted and damaged,\nstill read.\n"
        );
    }

    #[test]
    fn reads_an_aes_128_file_whose_encrypt_dictionary_has_no_length() {
        assert_eq!(
            text(
                "aes128_no_length",
                &aes128_pdf("AES-128 and\nno key length.")
            ),
            "## Page 1\n\nAES-128 and\nno key length.\n"
        );
    }

    #[test]
    fn reads_an_aes_256_file_whose_crypt_filters_are_written_through_references() {
        assert_eq!(
            text(
                "aes256_indirect_filters",
                &aes256_pdf("Sealed with AES-256, it opens.")
            ),
            "## Page 1\n\nSealed with AES-256, it opens.\n"
        );
    }
}
