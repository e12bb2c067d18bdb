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
