use super::*;

/// The tool's rule, written the obvious way over the whole text: the
/// reference the streaming builder must agree with.
fn reference(bytes: &[u8], first: u64, limit: Option<u64>, budget: Option<u64>) -> LineWindow {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let total = lines.len() as u64;
    let start = (first - 1) as usize;
    let count = limit.map_or(lines.len(), |l| l as usize);
    let wanted = lines.iter().skip(start).take(count);
    let budget = budget.unwrap_or(u64::MAX);
    let mut out = LineWindow {
        total,
        ..LineWindow::default()
    };
    let mut used = 0u64;
    for line in wanted {
        let size = line.chars().count() as u64;
        if used + size > budget {
            if out.shown == 0 {
                out.text = line.chars().take(budget as usize).collect();
                out.shown = 1;
                out.cut = true;
            }
            break;
        }
        out.text.push_str(line);
        used += size;
        out.shown += 1;
    }
    out
}

/// Feeds `bytes` in chunks of `chunk` bytes.
fn chunked(
    bytes: &[u8],
    chunk: usize,
    first: u64,
    limit: Option<u64>,
    budget: Option<u64>,
) -> LineWindow {
    let mut builder = WindowBuilder::new(first, limit, budget);
    for part in bytes.chunks(chunk.max(1)) {
        builder.push(part);
    }
    builder.finish()
}

#[test]
fn pages_lines_and_counts_them() {
    let w = window_of(b"a\nb\nc\nd\n", 2, Some(2), None);
    assert_eq!(w.text, "b\nc\n");
    assert_eq!((w.shown, w.total, w.cut), (2, 4, false));
}

#[test]
fn counts_a_last_line_without_newline_and_nothing_for_an_empty_stream() {
    assert_eq!(window_of(b"a\nb", 1, None, None).total, 2);
    assert_eq!(window_of(b"a\nb", 2, None, None).text, "b");
    let empty = window_of(b"", 1, None, None);
    assert_eq!((empty.total, empty.shown, empty.text.as_str()), (0, 0, ""));
}

#[test]
fn stops_at_a_line_that_does_not_fit_and_cuts_a_first_line_too_long() {
    let w = window_of(b"aaaa\nbbbb\ncccc\n", 1, None, Some(12));
    assert_eq!(
        (w.text.as_str(), w.shown, w.cut),
        ("aaaa\nbbbb\n", 2, false)
    );
    let long = window_of(b"xxxxxxxxxxxxxxxxxxxx\nshort\n", 1, None, Some(7));
    assert_eq!(
        (long.text.as_str(), long.shown, long.cut, long.total),
        ("xxxxxxx", 1, true, 2)
    );
}

#[test]
fn keeps_only_what_a_long_line_could_show() {
    let mut builder = WindowBuilder::new(1, None, Some(10));
    for _ in 0..1000 {
        builder.push(&[b'x'; 4096]);
        assert!(
            builder.current.len() <= 44,
            "holds {} bytes",
            builder.current.len()
        );
    }
    let w = builder.finish();
    assert_eq!((w.text.len(), w.cut, w.total), (10, true, 1));
}

#[test]
fn replaces_invalid_utf8_and_counts_characters_not_bytes() {
    let w = window_of("caf\u{e9} \u{1F600}\n".as_bytes(), 1, None, Some(7));
    assert_eq!((w.text.as_str(), w.cut), ("caf\u{e9} \u{1F600}\n", false));
    let bad = window_of(b"a\xFF\xF0\x80\x80\xE3\x81\nz\n", 1, None, None);
    assert_eq!(bad.text, "a\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\nz\n");
}

#[test]
fn agrees_with_the_whole_text_rule_for_any_chunking() {
    let samples: [&[u8]; 7] = [
        b"one\ntwo\r\nthree\n\n\nsix",
        b"\n\n\n",
        "\u{e9}\u{e9}\u{e9}\n\u{1F600}\u{1F600}\nend".as_bytes(),
        b"\xF0\x9F\x98\n\xC0\xAF\xED\xA0\x80 broken\nok\n",
        b"no newline at all in this one",
        b"x\n",
        b"",
    ];
    let mut rng = fastrand::Rng::with_seed(7);
    for bytes in samples {
        for _ in 0..300 {
            let first = rng.u64(1..8);
            let limit = if rng.bool() {
                Some(rng.u64(0..6))
            } else {
                None
            };
            let budget = if rng.bool() {
                Some(rng.u64(0..20))
            } else {
                None
            };
            let chunk = rng.usize(1..9);
            let want = reference(bytes, first, limit, budget);
            let got = chunked(bytes, chunk, first, limit, budget);
            assert_eq!(
                got, want,
                "{bytes:?} first {first} limit {limit:?} budget {budget:?} chunk {chunk}"
            );
        }
    }
}

#[test]
fn agrees_on_random_bytes() {
    let mut rng = fastrand::Rng::with_seed(11);
    let alphabet: &[u8] = b"ab\n\n\r\xC3\xA9\xFF\xF0\x9F\x98\x80\xE3\x81";
    for _ in 0..3000 {
        let bytes: Vec<u8> = (0..rng.usize(0..40))
            .map(|_| alphabet[rng.usize(..alphabet.len())])
            .collect();
        let first = rng.u64(1..6);
        let limit = if rng.bool() {
            Some(rng.u64(0..5))
        } else {
            None
        };
        let budget = if rng.bool() {
            Some(rng.u64(0..15))
        } else {
            None
        };
        let chunk = rng.usize(1..7);
        let want = reference(&bytes, first, limit, budget);
        assert_eq!(
            chunked(&bytes, chunk, first, limit, budget),
            want,
            "{bytes:?} {first} {limit:?} {budget:?} {chunk}"
        );
    }
}

/// What Ruby's `encode` makes of UTF-16 (a BOM, then `encode` with
/// `invalid: :replace`), written the obvious way.
fn utf16_reference(bytes: &[u8], big_endian: bool) -> String {
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| {
            if big_endian {
                u16::from_be_bytes([p[0], p[1]])
            } else {
                u16::from_le_bytes([p[0], p[1]])
            }
        })
        .collect();
    let mut text: String = char::decode_utf16(units.iter().copied())
        .map(|c| c.unwrap_or('\u{FFFD}'))
        .collect();
    let odd = bytes.len() % 2 == 1;
    let high_at_end = units.last().is_some_and(|u| (0xD800..0xDC00).contains(u));
    let next_can_pair = bytes.last().is_some_and(|b| (0xDC..=0xDF).contains(b));
    if high_at_end && odd && (!big_endian || next_can_pair) {
        // Ruby: a high surrogate and an odd byte at the end are one incomplete
        // sequence, unless (big-endian) the byte cannot begin a low surrogate.
        text.pop();
        text.push('\u{FFFD}');
    } else if odd {
        text.push('\u{FFFD}');
    }
    text
}

fn file_window(
    bytes: &[u8],
    chunk: usize,
    first: u64,
    limit: Option<u64>,
    budget: Option<u64>,
) -> LineWindow {
    let mut builder = WindowBuilder::new(first, limit, budget);
    let mut decoder = Decoder::new();
    // The first chunk holds the first two bytes, as every caller's does.
    let (head, rest) = bytes.split_at(bytes.len().min(chunk.max(2)));
    builder.push(decoder.push(head));
    for part in rest.chunks(chunk.max(1)) {
        builder.push(decoder.push(part));
    }
    builder.push(decoder.finish().as_bytes());
    builder.finish()
}

#[test]
fn decodes_utf16_as_ruby_does_whatever_the_chunks() {
    let cases: [&[u8]; 10] = [
        b"a\0\n\0b\0",
        b"\0\xD8a\0\n\0",            // a high surrogate without its pair
        b"\0\xDCa\0",                // a lone low surrogate
        b"a\0b",                     // an odd byte at the end
        b"a\0\0\xD8",                // a high surrogate at the end
        b"a\0\0\xD8b",               // both: one replacement (two in big-endian)
        b"a\0\0\xD8\xDC",            // both, the byte can begin a pair: one
        b"\0\xD8\0\xD8\0\xDC",       // high, then a pair
        b"\x3D\xD8\x00\xDE\n\0\n\0", // a pair, then empty lines
        b"",
    ];
    for case in cases {
        for big_endian in [false, true] {
            let body: Vec<u8> = if big_endian {
                // Swap each pair: the same units, big-endian (an odd byte stays last).
                let mut b = case.to_vec();
                for p in b.chunks_exact_mut(2) {
                    p.swap(0, 1);
                }
                b
            } else {
                case.to_vec()
            };
            let mut file = if big_endian {
                b"\xFE\xFF".to_vec()
            } else {
                b"\xFF\xFE".to_vec()
            };
            file.extend_from_slice(&body);
            let text = utf16_reference(&body, big_endian);
            for chunk in [1, 2, 3, 5, 64] {
                for (first, limit, budget) in
                    [(1, None, None), (2, Some(1), None), (1, Some(1), Some(2))]
                {
                    assert_eq!(
                        file_window(&file, chunk, first, limit, budget),
                        reference(text.as_bytes(), first, limit, budget),
                        "{case:?} big_endian={big_endian} chunk={chunk} first={first}"
                    );
                }
            }
        }
    }
}

#[test]
fn drops_a_utf8_mark_only_for_files() {
    let cancel = file_stores_base::cancel::Cancel::new();
    let file = window_of_file(b"\xEF\xBB\xBFhi\n\xFFx", 1, None, None, &cancel).expect("window");
    assert_eq!(file.text, "hi\n\u{FFFD}x");
    assert_eq!(file.total, 2);
    let text = window_of_text("\u{FEFF}hi\n".as_bytes(), 1, None, None, &cancel).expect("window");
    assert_eq!(text.text, "\u{FEFF}hi\n");
}

#[test]
fn a_window_of_many_empty_lines_costs_the_lines_shown() {
    let cancel = file_stores_base::cancel::Cancel::new();
    let bytes = vec![b'\n'; 20 << 20];
    let w = window_of_file(&bytes, 5, Some(10), Some(1000), &cancel).expect("window");
    assert_eq!(
        (w.text.as_str(), w.shown, w.total),
        ("\n".repeat(10).as_str(), 10, 20 << 20)
    );
    let mut wide = b"\xFF\xFE".to_vec();
    wide.extend(std::iter::repeat_n([b'\n', 0], 1 << 20).flatten());
    let w = window_of_file(&wide, 1, Some(3), None, &cancel).expect("window");
    assert_eq!((w.shown, w.total), (3, 1 << 20));
    cancel.cancel();
    assert!(window_of_file(&bytes, 1, None, None, &cancel)
        .expect_err("cancelled")
        .is_cancelled());
}

#[test]
fn decodes_utf32_with_its_mark_before_utf16s() {
    let cancel = file_stores_base::cancel::Cancel::new();
    // FF FE 00 00 is UTF-32LE, not UTF-16LE with a NUL: 'h', '\n', U+1F600,
    // a surrogate code (no character), and two bytes of an unfinished unit.
    let mut le = b"\xFF\xFE\x00\x00".to_vec();
    for code in [0x68u32, 0x0A, 0x1F600, 0xD800] {
        le.extend_from_slice(&code.to_le_bytes());
    }
    le.extend_from_slice(b"i\0");
    let w = window_of_file(&le, 1, None, None, &cancel).expect("window");
    assert_eq!(w.text, "h\n\u{1F600}\u{FFFD}\u{FFFD}");
    let mut be = b"\x00\x00\xFE\xFF".to_vec();
    for code in [0x68u32, 0x69] {
        be.extend_from_slice(&code.to_be_bytes());
    }
    // Fed a byte at a time after the mark: units across chunks.
    let mut builder = WindowBuilder::new(1, None, None);
    let mut decoder = Decoder::new();
    builder.push(decoder.push(&be[..5]));
    for byte in &be[5..] {
        builder.push(decoder.push(std::slice::from_ref(byte)));
    }
    builder.push(decoder.finish().as_bytes());
    assert_eq!(builder.finish().text, "hi");
}
