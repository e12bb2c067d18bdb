//! Fuzzes `office::to_text` for Word, Excel and PowerPoint.
//!
//! Input, either:
//! - a zip (starts with `PK`): passed as it is, to fuzz the container; or
//! - a text list of parts, each opened by a line `== part/name.xml` and
//!   followed by its content. The harness zips them (stored, so the zip's
//!   checksums stay right whatever the mutator does to the XML) and converts
//!   that, which reaches the XML readers far more often than mutated deflate
//!   streams would.
//!
//! Every input is converted as all three formats, with small limits so zip
//! bombs and huge outputs hit the limits quickly. Beyond "no panic" (a panic
//! the readers' guard would catch still aborts here: libFuzzer's panic hook
//! runs first), the text of a success is within `Limits::max_output`.
//!
//! `FUZZ_SHOW=1` prints each conversion's result, to check that seeds reach
//! the readers: `FUZZ_SHOW=1 target/x86_64-unknown-linux-gnu/release/office_to_text seeds/office_to_text/*`.
#![no_main]

use std::io::{Cursor, Write};
use std::sync::OnceLock;

use file_stores_office::{to_text, Format, Limits};
use file_stores_base::Cancel;
use libfuzzer_sys::fuzz_target;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

const KIB: u64 = 1024;
const MAX_PARTS: usize = 64;

fuzz_target!(|data: &[u8]| {
    let zipped;
    let bytes = if data.starts_with(b"PK") {
        data
    } else {
        match zip_parts(data) {
            Some(z) => {
                zipped = z;
                &zipped[..]
            }
            None => return,
        }
    };
    let limits = Limits {
        max_input: 4 * KIB * KIB,
        max_part: 2 * KIB * KIB,
        max_total: 8 * KIB * KIB,
        max_ratio: 200,
        max_output: 256 * KIB,
    };
    let cancel = Cancel::new();
    for format in [Format::Word, Format::Excel, Format::PowerPoint] {
        let result = to_text(bytes, format, limits, &cancel);
        if show() {
            eprintln!("{format:?}: {result:?}");
        }
        if let Ok(text) = result {
            assert!(
                text.len() as u64 <= limits.max_output,
                "{format:?} gave {} bytes of text",
                text.len()
            );
        }
    }
});

fn show() -> bool {
    static SHOW: OnceLock<bool> = OnceLock::new();
    *SHOW.get_or_init(|| std::env::var_os("FUZZ_SHOW").is_some_and(|v| v == "1"))
}

/// Zips `== name` sections; `None` when there are none or the writer refuses.
fn zip_parts(data: &[u8]) -> Option<Vec<u8>> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    let mut sections = 0;
    for section in split_sections(data).take(MAX_PARTS) {
        let (name, body) = section;
        let name = String::from_utf8_lossy(name);
        zip.start_file(name.trim_end_matches('\r'), options).ok()?;
        zip.write_all(body).ok()?;
        sections += 1;
    }
    if sections == 0 {
        return None;
    }
    zip.finish().ok().map(Cursor::into_inner)
}

/// `(name, body)` for each section opened by a line starting with `== `.
fn split_sections(data: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut starts: Vec<usize> = Vec::new();
    let mut at = 0;
    while at < data.len() {
        if data[at..].starts_with(b"== ") {
            starts.push(at);
        }
        at += match data[at..].iter().position(|&b| b == b'\n') {
            Some(i) => i + 1,
            None => data.len() - at,
        };
    }
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([data.len()]).collect();
    starts.into_iter().zip(ends).map(move |(start, end)| {
        let section = &data[start + 3..end];
        match section.iter().position(|&b| b == b'\n') {
            Some(i) => (&section[..i], &section[i + 1..]),
            None => (section, &section[section.len()..]),
        }
    })
}
