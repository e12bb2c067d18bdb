//! Checks on the raw bytes before lopdf reads them: cross-reference tables
//! too long to parse in time, and cross-reference and object streams that
//! inflate past the bounds, are refused.

use memchr::memmem;

use crate::filters::{self, Budget};
use crate::{Error, Limits, Result};

/// Refuses cross-reference tables too long for lopdf to parse in time: it
/// rescans a table from its start for each entry it reads, so a table of L
/// bytes (20 per entry) costs about L * L / 40 bytes scanned.
pub(super) fn check_xref_tables(bytes: &[u8], limits: Limits) -> Result<()> {
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
pub(super) const DICTIONARY_WINDOW: usize = 64 << 10;

/// Inflates, counting only, every stream that may be a cross-reference or
/// object stream, before lopdf decompresses them without a bound: one whose
/// object starts where a `startxref`, `/Prev` or `/XRefStm` points (lopdf
/// reads a cross-reference stream there whatever its dictionary says), one
/// whose dictionary is longer than the window, and one after a `/XRef` or
/// `/ObjStm` name since the last `endstream` (so a `stream` inside a string
/// of that dictionary does not hide it). Each keyword's window ends where
/// the previous keyword's began, so the scan is linear in the file.
pub(super) fn check_structural_streams(
    bytes: &[u8],
    limits: Limits,
    budget: &Budget,
) -> Result<()> {
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
pub(super) fn xref_offsets(bytes: &[u8]) -> Vec<usize> {
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
pub(super) fn unescape_names(raw: &[u8]) -> Vec<u8> {
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
