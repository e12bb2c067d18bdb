use super::*;

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        b"\xFE\xFF".to_vec()
    } else {
        b"\xFF\xFE".to_vec()
    };
    for unit in text.encode_utf16() {
        out.extend_from_slice(&if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    out
}

fn utf32(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian {
        b"\x00\x00\xFE\xFF".to_vec()
    } else {
        b"\xFF\xFE\x00\x00".to_vec()
    };
    for c in text.chars() {
        out.extend_from_slice(&if big_endian {
            u32::from(c).to_be_bytes()
        } else {
            u32::from(c).to_le_bytes()
        });
    }
    out
}

/// A text in every encoding, as a file holds it.
fn every_encoding(text: &str) -> Vec<(Encoding, Vec<u8>)> {
    let mut bom = UTF8_BOM.to_vec();
    bom.extend_from_slice(text.as_bytes());
    vec![
        (Encoding::Utf8, text.as_bytes().to_vec()),
        (Encoding::Utf8Bom, bom),
        (Encoding::Utf16 { big_endian: false }, utf16(text, false)),
        (Encoding::Utf16 { big_endian: true }, utf16(text, true)),
        (Encoding::Utf32 { big_endian: false }, utf32(text, false)),
        (Encoding::Utf32 { big_endian: true }, utf32(text, true)),
    ]
}

const SAMPLE: &str = "using System;\r\n\u{e9}t\u{e9} \u{1F600}\n\u{FEFF}last";

#[test]
fn the_first_bytes_decide_utf32_before_utf16() {
    for (encoding, bytes) in every_encoding(SAMPLE) {
        assert_eq!(Encoding::of(&bytes), encoding);
        assert!(bytes.starts_with(encoding.bom()));
    }
    assert_eq!(
        Encoding::of(b"\xFF\xFE\x00"),
        Encoding::Utf16 { big_endian: false }
    );
    assert_eq!(Encoding::of(b"\x00\x00\xFE"), Encoding::Utf8);
    assert_eq!(Encoding::of(b""), Encoding::Utf8);
}

#[test]
fn decodes_every_encoding_to_the_same_text() {
    let cancel = Cancel::new();
    for (encoding, bytes) in every_encoding(SAMPLE) {
        assert_eq!(decode(&bytes, &cancel).unwrap(), SAMPLE, "{encoding:?}");
    }
    assert_eq!(decode(b"a\xFFb", &cancel).unwrap(), "a\u{FFFD}b");
    cancel.cancel();
    assert!(decode(&utf16("x", false), &cancel)
        .unwrap_err()
        .is_cancelled());
}

#[test]
fn writes_an_edited_text_back_in_its_encoding_with_its_mark() {
    let cancel = Cancel::new();
    let edited = SAMPLE.replace("System", "Sys\u{1F600}tem");
    for ((encoding, bytes), (_, want)) in every_encoding(SAMPLE)
        .into_iter()
        .zip(every_encoding(&edited))
    {
        let file = Editable::of(&bytes, &cancel).unwrap();
        assert_eq!(file.encoding, encoding);
        assert_eq!(&*file.text, SAMPLE.as_bytes());
        let size = encoding.encoded_len(edited.as_bytes());
        assert_eq!(size, want.len());
        assert_eq!(encoding.encode(edited.clone().into_bytes()), want);
        assert_eq!(
            encoding.encode_within(edited.clone().into_bytes(), size - 1),
            Err(size)
        );
    }
}

#[test]
fn utf8_is_edited_byte_for_byte_invalid_bytes_too() {
    let bytes = b"\xEF\xBB\xBFa\xFF\r\n";
    let file = Editable::of(bytes, &Cancel::new()).unwrap();
    assert_eq!(
        (file.encoding, &*file.text),
        (Encoding::Utf8Bom, &b"a\xFF\r\n"[..])
    );
    assert_eq!(file.encoding.encode(file.text.to_vec()), bytes);
}

#[test]
fn refuses_to_edit_wide_text_with_units_that_are_no_character() {
    let cancel = Cancel::new();
    let mut lone = utf16("ab", false);
    lone.extend_from_slice(&0xD800u16.to_le_bytes());
    lone.extend_from_slice(&utf16("c", false)[2..]);
    let err = Editable::of(&lone, &cancel).unwrap_err();
    assert!(
        err.to_string()
            .contains("UTF-16LE text with 1 sequence that is no character"),
        "{err}"
    );
    let mut odd = utf32("ab", true);
    odd.push(b'x');
    assert!(Editable::of(&odd, &cancel).is_err());
    // What was refused is still read, with U+FFFD.
    assert_eq!(decode(&lone, &cancel).unwrap(), "ab\u{FFFD}c");
}

#[test]
fn encodes_invalid_utf8_of_an_edit_as_replacement_characters_in_wide_files() {
    let encoding = Encoding::Utf16 { big_endian: false };
    assert_eq!(
        encoding.encode(b"a\xFF".to_vec()),
        utf16("a\u{FFFD}", false)
    );
}

/// Reads all of `reader`, `step` bytes at a time.
fn read_all(mut reader: impl Read, step: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = vec![0; step];
    loop {
        match reader.read(&mut buf).unwrap() {
            0 => return out,
            n => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// A reader giving at most `step` bytes a call.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.1).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn the_reader_gives_the_decoded_text_whatever_the_reads() {
    let cancel = Cancel::new();
    let mut cases = every_encoding(SAMPLE);
    let mut broken = utf16("x\ny", true);
    broken.extend_from_slice(b"\xD8\x00z"); // a high surrogate and an odd byte
    cases.push((Encoding::Utf16 { big_endian: true }, broken));
    cases.push((Encoding::Utf8, b"a\xFF\n".to_vec()));
    cases.push((Encoding::Utf8, b"ab".to_vec()));
    cases.push((Encoding::Utf8, Vec::new()));
    for (_, bytes) in cases {
        let want = decode(&bytes, &cancel).unwrap();
        for (give, take) in [(1, 1), (1, 7), (3, 2), (5, 64), (64, 3)] {
            let got = read_all(TextReader::new(Trickle(&bytes, give)), take);
            assert_eq!(
                String::from_utf8_lossy(&got),
                want,
                "{bytes:?} {give} {take}"
            );
        }
    }
}

#[test]
fn the_decoder_counts_what_it_replaced() {
    let mut decoder = Decoder::new();
    let mut bytes = utf32("a", false);
    bytes.extend_from_slice(&0x11_0000u32.to_le_bytes());
    bytes.extend_from_slice(&0xDC00u32.to_le_bytes());
    assert_eq!(decoder.push(&bytes), "a\u{FFFD}\u{FFFD}".as_bytes());
    assert_eq!(decoder.replaced(), 2);
    assert_eq!(decoder.push(b"\x00"), b"");
    assert_eq!(decoder.finish(), "\u{FFFD}");
    assert_eq!(decoder.replaced(), 3);
}

#[test]
fn random_bytes_read_the_same_whole_chunked_and_through_the_reader() {
    let cancel = Cancel::new();
    let marks: [&[u8]; 6] = [
        b"",
        UTF8_BOM,
        UTF16LE_BOM,
        UTF16BE_BOM,
        UTF32LE_BOM,
        UTF32BE_BOM,
    ];
    let mut rng = fastrand::Rng::with_seed(41);
    for _ in 0..3000 {
        let mut bytes = marks[rng.usize(..marks.len())].to_vec();
        // Bytes that make surrogates, NULs, line breaks and high code points likely.
        let pool = [
            0x00, 0x0A, 0x0D, 0xD8, 0xDC, 0xDF, 0x10, 0x11, 0xFF, 0xFE, b'a', 0xC3, 0xA9,
        ];
        bytes.extend((0..rng.usize(0..24)).map(|_| pool[rng.usize(..pool.len())]));
        let whole = decode(&bytes, &cancel).unwrap();
        let mut decoder = Decoder::new();
        let mut chunked = Vec::new();
        let first = bytes.len().min(4);
        chunked.extend_from_slice(decoder.push(&bytes[..first]));
        let mut at = first;
        while at < bytes.len() {
            let end = (at + rng.usize(1..6)).min(bytes.len());
            chunked.extend_from_slice(decoder.push(&bytes[at..end]));
            at = end;
        }
        chunked.extend_from_slice(decoder.finish().as_bytes());
        assert_eq!(String::from_utf8_lossy(&chunked), whole, "{bytes:?}");
        let read = read_all(
            TextReader::new(Trickle(&bytes, rng.usize(1..6))),
            rng.usize(1..9),
        );
        assert_eq!(String::from_utf8_lossy(&read), whole, "{bytes:?}");
        // What an edit takes and writes back is the file again, byte for byte.
        if let Ok(file) = Editable::of(&bytes, &cancel) {
            assert_eq!(file.encoding.encode(file.text.to_vec()), bytes, "{bytes:?}");
        }
    }
}
