use super::*;
use crate::dir_store::sha256_hex;
use crate::line_window::window_of_file;
use file_stores_base::cancel::Cancel;

/// A text of `lines` lines of varied length, some multi-byte, with or
/// without a last newline.
fn text(lines: usize, last_newline: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for n in 0..lines {
        let width = (n * 7919) % 300;
        out.extend(std::iter::repeat_n(b'a' + (n % 26) as u8, width));
        if n % 5 == 0 {
            out.extend_from_slice("é€".as_bytes());
        }
        if n + 1 < lines || last_newline {
            out.push(b'\n');
        }
    }
    out
}

fn streamed(
    bytes: &[u8],
    chunk: usize,
    first: u64,
    limit: Option<u64>,
    budget: Option<u64>,
) -> Finished {
    let mut stream = TextStream::new(first, limit, budget, true, true);
    for part in bytes.chunks(chunk.max(1)) {
        stream.push(part);
    }
    stream.finish()
}

#[test]
fn the_window_digest_and_size_are_those_of_the_whole_file_in_any_chunks() {
    let cancel = Cancel::new();
    for last in [true, false] {
        let bytes = text(20_000, last);
        for (first, limit, budget) in [
            (1, Some(100), None),
            (15_000, Some(10), Some(500)),
            (19_999, None, None),
        ] {
            let whole = window_of_file(&bytes, first, limit, budget, &cancel).expect("window");
            for chunk in [1, 3, 4096, 1 << 20] {
                let done = streamed(&bytes, chunk, first, limit, budget);
                assert_eq!(done.window, whole, "chunk {chunk}");
                assert_eq!(done.digest.as_deref(), Some(sha256_hex(&bytes).as_str()));
                assert_eq!(done.byte_size, bytes.len() as u64);
                assert_eq!(done.index.expect("utf-8").total, whole.total);
            }
        }
    }
}

#[test]
fn a_window_read_from_an_index_entry_is_the_one_cut_from_the_whole_file() {
    let cancel = Cancel::new();
    let bytes = text(40_000, false);
    let index = streamed(&bytes, 65_536, 1, Some(0), None)
        .index
        .expect("index");
    assert!(
        index.lines.len() >= 4,
        "entries every {INDEX_STEP} bytes: {index:?}"
    );
    assert!(index.offsets.windows(2).all(|w| w[1] - w[0] >= INDEX_STEP));
    for (&at, &offset) in index.lines.iter().zip(&index.offsets) {
        assert_eq!(
            bytes[offset as usize - 1],
            b'\n',
            "an entry is a line start"
        );
        for first in [at, at + 3] {
            let whole =
                window_of_file(&bytes, first, Some(50), Some(2_000), &cancel).expect("window");
            let mut stream = TextStream::from_line(at, first, Some(50), Some(2_000));
            let mut wanted = true;
            for part in bytes[offset as usize..].chunks(10_000) {
                wanted = stream.push(part);
                if !wanted {
                    break;
                }
            }
            assert!(!wanted, "the window completes before the end");
            let window = stream.finish().window;
            assert_eq!(
                (window.text, window.shown, window.cut),
                (whole.text, whole.shown, whole.cut)
            );
        }
    }
}

#[test]
fn a_stream_only_for_its_window_stops_wanting_bytes() {
    let bytes = text(5_000, true);
    let mut stream = TextStream::new(1, Some(10), None, false, false);
    assert!(!stream.push(&bytes[..8_000]));
    let mut hashing = TextStream::new(1, Some(10), None, true, false);
    assert!(hashing.push(&bytes[..8_000]));
}

#[test]
fn utf16_and_utf32_files_are_decoded_and_have_no_index() {
    let cancel = Cancel::new();
    let text = "one\ntwo\nthree é\n".repeat(50);
    let mut utf16 = b"\xFF\xFE".to_vec();
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let mut utf32 = b"\x00\x00\xFE\xFF".to_vec();
    utf32.extend(text.chars().flat_map(|c| (c as u32).to_be_bytes()));
    for bytes in [utf16, utf32] {
        let whole = window_of_file(&bytes, 7, Some(5), None, &cancel).expect("window");
        let done = streamed(&bytes, 1, 7, Some(5), None);
        assert_eq!(done.window, whole);
        assert_eq!(done.window.total, 150);
        assert!(done.index.is_none());
    }
}

#[test]
fn short_and_empty_files() {
    for bytes in [&b""[..], b"a", b"\n", b"ab\ncd"] {
        let done = streamed(bytes, 1, 1, None, None);
        let whole = window_of_file(bytes, 1, None, None, &Cancel::new()).expect("window");
        assert_eq!(done.window, whole);
        let index = done.index.expect("index");
        assert_eq!(index.total, whole.total);
        assert!(index.lines.is_empty());
    }
}
