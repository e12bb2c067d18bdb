//! Rebuilds a damaged file's cross-reference section, as poppler, MuPDF,
//! PDFium and pdf.js do: when `startxref` points at the wrong offset, the
//! table is damaged or its offsets wrong, or the trailer is missing (a cut
//! download), the file is scanned for `N G obj` headers, keeping the last
//! definition of each object number, and for its trailer dictionary: the
//! last `trailer` dictionary that names a `/Root`, or else the last
//! `/Type /XRef` stream's dictionary that does. (A file with neither gets a
//! trailer of its own after loading: [`load`](crate::load) looks for the
//! `/Type /Catalog` object then.)
//!
//! What is rebuilt is written as a cross-reference *stream* to append after
//! the file's bytes, so lopdf loads the repaired copy through the same hook
//! and bounds as any other file: objects in object streams are found
//! through the streams the rebuilt table lists. A stream, not a table:
//! lopdf parses a table in time quadratic in its length, a stream in one
//! pass.
//!
//! The scan is linear in the file's size: each keyword finder only moves
//! forward, stream data is skipped to its `endstream` (an embedded file's
//! own objects are not taken for the file's), and a dictionary is read at
//! most up to the next object header or keyword. It checks the cancel flag
//! as it goes, and refuses past [`MAX_OBJECTS`] headers.

use std::fmt::Write as _;
use std::ops::Range;

use memchr::memmem;

use crate::load::MAX_OBJECTS;
use crate::syntax;
use crate::{Error, Result};

/// The longest trailer dictionary read, in bytes: a real one is a few
/// hundred; this bounds what a hostile file can make the scan reread.
const MAX_TRAILER_BYTES: usize = 64 << 10;

/// The trailer keys kept from the file's trailer dictionary: the others
/// (`/Prev`, `/XRefStm`, `/Size`, a stream's `/Filter` ...) describe the
/// damaged section, not the document.
const TRAILER_KEYS: [&[u8]; 4] = [b"/Root", b"/Info", b"/Encrypt", b"/ID"];

/// Gaps in the object numbers up to this long are written as free entries,
/// longer ones start a new subsection.
const MAX_GAP: u32 = 4;

/// One `N G obj` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub number: u32,
    pub generation: u16,
    /// Where its first digit is, counted from the `%PDF-` header.
    pub offset: usize,
}

/// The cross-reference stream to append after `body` (the file from its
/// `%PDF-` header) so lopdf reads it with a rebuilt table, or None when the
/// file holds no object header. Its dictionary may make at most
/// `tokens_left` parsed values.
pub fn rebuilt_section(
    body: &[u8],
    tokens_left: u64,
    cancelled: &dyn Fn() -> bool,
) -> Result<Option<Vec<u8>>> {
    let mut all = headers(body, cancelled)?;
    let listed = table_headers(body, &all, cancelled)?;
    if !listed.is_empty() {
        all.extend(listed);
        all.sort_by_key(|h| h.offset);
    }
    if all.is_empty() {
        return Ok(None);
    }
    let trailer = trailer_entries(body, &all, cancelled)?;
    let starts: Vec<usize> = all.iter().map(|h| h.offset).collect();
    // The last definition of each number wins: sort by number, keeping the
    // file order among equal numbers, then take the last of each run.
    let mut latest = all;
    latest.sort_by_key(|h| h.number);
    let mut kept: Vec<Header> = Vec::with_capacity(latest.len());
    for h in latest {
        match kept.last_mut() {
            Some(last) if last.number == h.number => *last = h,
            _ => kept.push(h),
        }
    }
    let own = kept.last().map_or(1, |h| h.number.saturating_add(1));
    if own == u32::MAX {
        return Ok(None);
    }
    // Objects left open before their `endobj` are written again, closed,
    // after the file, and listed there ([`syntax::unclosed`]).
    let mut repairs = Vec::new();
    for (n, h) in kept.iter_mut().enumerate() {
        if n % 4096 == 4095 && cancelled() {
            return Err(Error::Cancelled);
        }
        if let Some((object, closers)) = unclosed_object(body, h.offset, &starts) {
            let offset = body.len() + repairs.len() + 1;
            repairs.extend_from_slice(format!("\n{} {} obj", h.number, h.generation).as_bytes());
            repairs.extend_from_slice(object);
            repairs.extend(closers);
            repairs.extend_from_slice(b"\nendobj");
            h.offset = offset;
        }
    }
    let at = body.len() + repairs.len() + 1;
    let width = offset_width(at);
    let mut index = String::new();
    let mut rows = Vec::with_capacity(kept.len() * (3 + width));
    let mut run: Option<(u32, u32)> = None;
    let close = |index: &mut String, run: (u32, u32)| {
        let _ = write!(index, "{} {} ", run.0, run.1);
    };
    for h in &kept {
        run = match run {
            Some((start, count)) if h.number - (start + count) <= MAX_GAP => {
                for _ in start + count..h.number {
                    rows.push(0);
                    rows.extend(std::iter::repeat_n(0, width + 2));
                }
                Some((start, h.number - start + 1))
            }
            other => {
                if let Some(done) = other {
                    close(&mut index, done);
                }
                Some((h.number, 1))
            }
        };
        rows.push(1);
        rows.extend_from_slice(&(h.offset as u64).to_be_bytes()[8 - width..]);
        rows.extend_from_slice(&h.generation.to_be_bytes());
    }
    if let Some(done) = run {
        close(&mut index, done);
    }
    let mut dictionary = format!(
        "<< /Type /XRef /Size {} /W [1 {width} 2] /Index [{}] /Length {}",
        own + 1,
        index.trim_end(),
        rows.len()
    )
    .into_bytes();
    // Byte for byte: an `/ID` string is binary, and the key derives from it.
    for value in trailer {
        dictionary.push(b' ');
        dictionary.extend_from_slice(value);
    }
    dictionary.extend_from_slice(b" >>");
    if syntax::shape(&dictionary).tokens > tokens_left {
        return Err(Error::TooLarge(format!(
            "its rebuilt cross-reference section would parse into more than {tokens_left} values"
        )));
    }
    let mut out = repairs;
    out.extend_from_slice(format!("\n{own} 0 obj\n").as_bytes());
    out.extend(dictionary);
    out.extend_from_slice(b"\nstream\n");
    out.extend(rows);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{at}\n%%EOF\n").as_bytes());
    Ok(Some(out))
}

/// The bytes of the object whose header is at `offset`, after its `obj` up
/// to its `endobj` (or the next header in `starts`, sorted), with what
/// closes what it leaves open, when it does.
fn unclosed_object<'b>(
    body: &'b [u8],
    offset: usize,
    starts: &[usize],
) -> Option<(&'b [u8], Vec<u8>)> {
    let next = starts
        .get(starts.partition_point(|&s| s <= offset))
        .copied()
        .unwrap_or(body.len());
    let region = body.get(offset..next)?;
    let from = memmem::find(region, b"obj")? + 3;
    let to = memmem::find(&region[from..], b"endobj").map_or(region.len(), |e| from + e);
    let object = &region[from..to];
    syntax::unclosed(object, 64).map(|closers| (object, closers))
}

/// The bytes an offset into a file of `len` bytes needs.
fn offset_width(len: usize) -> usize {
    let bits = usize::BITS - len.leading_zeros();
    (bits as usize).div_ceil(8).clamp(4, 8)
}

fn is_regular(b: u8) -> bool {
    !b" \t\n\r\x0c\0()<>[]{}/%".contains(&b)
}

fn is_space(b: u8) -> bool {
    b" \t\n\r\x0c\0".contains(&b)
}

/// A finder whose last answer is kept while the position it was asked from
/// has not passed it: each one only moves forward, so the scan is linear.
struct Ahead<'b> {
    finder: memmem::Finder<'b>,
    /// The position searched from, and what was found there.
    last: Option<(usize, Option<usize>)>,
}

impl<'b> Ahead<'b> {
    fn new(needle: &'b [u8]) -> Self {
        Ahead {
            finder: memmem::Finder::new(needle),
            last: None,
        }
    }

    /// The first match at or after `from`.
    fn find(&mut self, hay: &[u8], from: usize) -> Option<usize> {
        if let Some((searched, found)) = self.last {
            match found {
                Some(p) if searched <= from && p >= from => return Some(p),
                None if searched <= from => return None,
                _ => {}
            }
        }
        let found = self
            .finder
            .find(hay.get(from..).unwrap_or_default())
            .map(|p| p + from);
        self.last = Some((from, found));
        found
    }
}

/// Every `N G obj` header of `body`, in file order, outside stream data.
pub fn headers(body: &[u8], cancelled: &dyn Fn() -> bool) -> Result<Vec<Header>> {
    let mut found = Vec::new();
    let mut objs = Ahead::new(b"obj");
    let mut streams = Ahead::new(b"stream");
    let mut ends = Ahead::new(b"endstream");
    let mut i = 0;
    let mut steps = 0u32;
    while let Some(o) = objs.find(body, i) {
        steps = steps.wrapping_add(1);
        if steps % 4096 == 4095 && cancelled() {
            return Err(Error::Cancelled);
        }
        if let Some(s) = streams.find(body, i).filter(|&s| s < o) {
            i = s + 6;
            if stream_keyword(body, s) {
                // Data runs to its `endstream`; a stream with none (a cut
                // file) is not skipped, so the objects after it are found.
                if let Some(e) = ends.find(body, s + 6) {
                    i = e + 9;
                }
            }
            continue;
        }
        i = o + 3;
        if body.get(o + 3).is_some_and(|&b| is_regular(b)) {
            continue;
        }
        if let Some(h) = header_before(body, o) {
            if found.len() as u64 >= MAX_OBJECTS {
                return Err(Error::TooLarge(format!("more than {MAX_OBJECTS} objects")));
            }
            found.push(h);
        }
    }
    Ok(found)
}

/// The objects the file's own cross-reference tables list at an `N G obj`
/// header of that number, for numbers the scan did not find (`found`): a
/// header the scan cannot tell from other bytes (after a comment on its
/// line, as in `%\xe2\xe3|1 0 obj`) still counts when the table points at
/// it, so a file lopdf refuses for its trailer alone (no `/Size`) keeps its
/// catalog, as poppler reads it. Linear: each table row is read once, and
/// the tables together are as long as `check_xref_tables` lets them be.
fn table_headers(
    body: &[u8],
    found: &[Header],
    cancelled: &dyn Fn() -> bool,
) -> Result<Vec<Header>> {
    let known: std::collections::HashSet<u32> = found.iter().map(|h| h.number).collect();
    let mut listed = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut rows = 0u64;
    for x in memmem::find_iter(body, b"xref") {
        if body[..x].ends_with(b"start") || body.get(x + 4).is_some_and(|&b| is_regular(b)) {
            continue;
        }
        let mut words = Words { body, at: x + 4 };
        // Subsections: `first count`, then `count` rows `offset gen n|f`.
        while let (Some(first), Some(count)) = (words.number(), words.number()) {
            for n in 0..count {
                rows += 1;
                if rows % 4096 == 4095 && cancelled() {
                    return Err(Error::Cancelled);
                }
                if rows > MAX_OBJECTS {
                    return Err(Error::TooLarge(format!("more than {MAX_OBJECTS} objects")));
                }
                let (Some(offset), Some(generation), Some(kind)) =
                    (words.number(), words.number(), words.word())
                else {
                    break;
                };
                let Ok(number) = u32::try_from(first.saturating_add(n)) else {
                    break;
                };
                if kind != b"n" || number == 0 || known.contains(&number) {
                    continue;
                }
                let (Ok(offset), Ok(generation)) =
                    (usize::try_from(offset), u16::try_from(generation))
                else {
                    continue;
                };
                if header_at(body, offset) == Some((number, generation)) && seen.insert(number) {
                    listed.push(Header {
                        number,
                        generation,
                        offset,
                    });
                }
            }
        }
    }
    Ok(listed)
}

/// A cursor over a table's white-space separated words.
struct Words<'b> {
    body: &'b [u8],
    at: usize,
}

impl<'b> Words<'b> {
    fn word(&mut self) -> Option<&'b [u8]> {
        while self.body.get(self.at).is_some_and(|&b| is_space(b)) {
            self.at += 1;
        }
        let start = self.at;
        while self.body.get(self.at).is_some_and(|&b| is_regular(b)) && self.at - start < 20 {
            self.at += 1;
        }
        (self.at > start).then(|| &self.body[start..self.at])
    }

    /// The next word when it is a number; the cursor stays before anything else.
    fn number(&mut self) -> Option<u64> {
        let before = self.at;
        let value = self
            .word()
            .filter(|w| w.iter().all(u8::is_ascii_digit))
            .and_then(|w| std::str::from_utf8(w).ok()?.parse().ok());
        if value.is_none() {
            self.at = before;
        }
        value
    }
}

/// The number and generation of the `N G obj` header at `offset`.
fn header_at(body: &[u8], offset: usize) -> Option<(u32, u16)> {
    let mut words = Words { body, at: offset };
    let number = u32::try_from(words.number()?).ok()?;
    let generation = u16::try_from(words.number()?).ok()?;
    let rest = body.get(words.at..)?;
    let rest = &rest[rest.iter().take_while(|&&b| is_space(b)).count()..];
    (rest.starts_with(b"obj") && !rest.get(3).is_some_and(|&b| is_regular(b)))
        .then_some((number, generation))
}

/// Where the `h` of each stream's `/Length` is when that length is
/// wrong: its data, so long, is not followed by `endstream` (after at most
/// an end of line). A direct length and an indirect one (`/Length 12 0 R`,
/// its object's value found in the file) are judged alike: right, or read
/// up to `endstream` (poppler's "Missing 'endstream' or incorrect stream
/// length", after which it reads on to the `endstream`, as pdf.js does;
/// Ghostscript writes a right indirect length with junk before
/// `endstream`). lopdf drops
/// such an object (a page's content gone: pdf.js's helloworld-bad, a CRLF
/// file whose lengths count LF; issue6108's `/Length 9`), or reads it as
/// its dictionary alone; with the key renamed in a copy of the file read
/// instead (`/Lengtx`, same size, no offset moves; a copy only when some
/// length is wrong), lopdf keeps the stream unread and the interpreter
/// reads its data up to its `endstream`, as poppler and pdf.js do
/// ([`read_unread`] for every stream, [`crate::text`] for content). One
/// linear pass: each stream keyword is searched for its `/Length` only back
/// to the previous `endstream`, so no byte is looked at twice; indirect
/// lengths take one more scan of the headers.
pub fn wrong_lengths(body: &[u8], cancelled: &dyn Fn() -> bool) -> Result<Vec<usize>> {
    let mut wrong = Vec::new();
    let mut streams = Ahead::new(b"stream");
    let mut ends = Ahead::new(b"endstream");
    let length = memmem::Finder::new(b"/Length");
    // Indirect lengths: key, `N G` of the length object, `stream`, `endstream`.
    let mut pending: Vec<(usize, (u32, u16), usize, usize)> = Vec::new();
    let mut i = 0;
    let mut steps = 0u32;
    while let Some(s) = streams.find(body, i) {
        steps = steps.wrapping_add(1);
        if steps % 4096 == 4095 && cancelled() {
            return Err(Error::Cancelled);
        }
        let from = i;
        i = s + 6;
        if !stream_keyword(body, s) {
            continue;
        }
        let Some(e) = ends.find(body, s + 6) else {
            break;
        };
        i = e + 9;
        // The stream's own dictionary: after the last `obj` before it (an
        // `/Encrypt` dictionary's `/Length 128` before it is another
        // object's), its last `/Length` (not `/Length1`).
        let mut floor = from.max(s.saturating_sub(4096));
        if let Some(o) = memmem::rfind(&body[floor..s], b"obj") {
            floor += o + 3;
        }
        let window = &body[floor..s];
        let Some(key) = length
            .find_iter(window)
            .filter(|&k| !window.get(k + 7).is_some_and(|&b| is_regular(b)))
            .last()
        else {
            continue;
        };
        let mut p = key + 7;
        while window.get(p).is_some_and(|&b| is_space(b)) {
            p += 1;
        }
        let digits = window[p..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let rest = &window[p + digits..];
        let after = rest.iter().take_while(|&&b| is_space(b)).count();
        if digits == 0 || digits > 12 {
            continue;
        }
        // `N G R`: an indirect length, resolved below once all are known.
        if rest.get(after).is_some_and(u8::is_ascii_digit) {
            let mut words = Words {
                body: window,
                at: p,
            };
            if let (Some(number), Some(generation), Some(b"R")) =
                (words.number(), words.number(), words.word())
            {
                if let (Ok(number), Ok(generation)) =
                    (u32::try_from(number), u16::try_from(generation))
                {
                    pending.push((floor + key + 6, (number, generation), s, e));
                }
            }
            continue;
        }
        let Ok(n) = std::str::from_utf8(&window[p..p + digits]).map(|d| d.parse::<usize>()) else {
            continue;
        };
        let Ok(n) = n else { continue };
        match data_end(body, s, e, n) {
            Fit::Right => {}
            // Data that holds the word `endstream` (pdfium's bug_543018_2) is
            // right when its length ends at a later one: read on from there.
            Fit::Past(end) => i = end + 9,
            Fit::Wrong => wrong.push(floor + key + 6),
        }
    }
    if !pending.is_empty() {
        let values = length_values(body, &pending, cancelled)?;
        let mut inside = Vec::new();
        for &(h, id, s, e) in &pending {
            let Some(&n) = values.get(&id) else { continue };
            match data_end(body, s, e, n) {
                Fit::Right => {}
                Fit::Past(end) => inside.push((s, end)),
                Fit::Wrong => wrong.push(h),
            }
        }
        // A key found in the data of a stream whose length runs past an
        // `endstream` in it is that data's, not a dictionary's.
        // Both in file order, so one pass over each.
        wrong.sort_unstable();
        let mut j = 0;
        wrong.retain(|&h| {
            while inside.get(j).is_some_and(|&(_, end)| end <= h) {
                j += 1;
            }
            inside.get(j).is_none_or(|&(s, _)| s >= h)
        });
    }
    Ok(wrong)
}

/// Where a `stream` keyword after a dictionary is followed on its line by
/// something other than white space (pdfium's bug_543018_2: `stream   "this
/// part will be ignored"`): the ranges from the keyword's end to its line's
/// end. poppler, pdf.js and PDFium skip to the next line after the keyword
/// and read the data from there; lopdf wants the end of line right after
/// spaces and tabs, and read such an object as its dictionary alone, its
/// page's text lost. Written over with spaces in a copy (no offset moves),
/// the data is read where they read it. One linear pass: each keyword's line
/// is read only up to the next `endstream`, and the search goes on from
/// there, so stream data is not taken for keywords.
pub fn stream_line_junk(body: &[u8], cancelled: &dyn Fn() -> bool) -> Result<Vec<Range<usize>>> {
    let mut junk = Vec::new();
    let mut streams = Ahead::new(b"stream");
    let mut ends = Ahead::new(b"endstream");
    let mut i = 0;
    let mut steps = 0u32;
    while let Some(s) = streams.find(body, i) {
        steps = steps.wrapping_add(1);
        if steps % 4096 == 4095 && cancelled() {
            return Err(Error::Cancelled);
        }
        let from = i;
        i = s + 6;
        if !stream_keyword(body, s) {
            continue;
        }
        // After a dictionary only, so a `stream` word in a comment or some
        // text is not taken for the keyword.
        let before = body[from..s].iter().rposition(|&b| !is_space(b));
        if !before.is_some_and(|b| b > 0 && &body[from + b - 1..=from + b] == b">>") {
            continue;
        }
        let Some(e) = ends.find(body, s + 6) else {
            break;
        };
        i = e + 9;
        let line = &body[s + 6..e];
        let rest = line
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        if matches!(line.get(rest), None | Some(b'\r' | b'\n')) {
            continue;
        }
        if let Some(eol) = memchr::memchr2(b'\r', b'\n', line) {
            junk.push(s + 6 + rest..s + 6 + eol);
        }
    }
    Ok(junk)
}

/// Fills each stream lopdf left unread (its `/Length` missing, renamed by
/// [`wrong_lengths`], or pointing nowhere) with its data from `raw` (the
/// file from `%PDF-`, as lopdf counts its offsets) up to its `endstream`,
/// less the end of line before it: a font's ToUnicode CMap or a form read
/// so, not only a page's content. A stream whose data would run into the
/// next unread one's, or past `max` bytes, is left as it is; so each byte
/// is searched and copied at most once.
pub fn read_unread(
    doc: &mut lopdf::Document,
    raw: &[u8],
    max: usize,
    cancelled: &dyn Fn() -> bool,
) -> Result<()> {
    let mut unread: Vec<(usize, lopdf::ObjectId)> = doc
        .objects
        .iter()
        .filter_map(|(&id, o)| match o {
            lopdf::Object::Stream(s) if s.content.is_empty() => s.start_position.map(|p| (p, id)),
            _ => None,
        })
        .collect();
    unread.sort_unstable();
    let ends = memmem::Finder::new(b"endstream");
    for (n, &(start, id)) in unread.iter().enumerate() {
        if n % 256 == 255 && cancelled() {
            return Err(Error::Cancelled);
        }
        let next = unread.get(n + 1).map_or(raw.len(), |u| u.0);
        let Some(hay) = raw.get(start..next.min(start.saturating_add(max)).min(raw.len())) else {
            continue;
        };
        let Some(end) = ends.find(hay) else { continue };
        let mut data = &hay[..end];
        while let [head @ .., b'\r' | b'\n'] = data {
            data = head;
        }
        if let Some(lopdf::Object::Stream(s)) = doc.objects.get_mut(&id) {
            s.set_content(data.to_vec());
        }
    }
    Ok(())
}

/// Where a stream's `/Length` of `n` puts its data's end, for the stream
/// keyword at `s` whose first `endstream` is at `e`.
enum Fit {
    /// At `e`, after at most one end of line: the length is right.
    Right,
    /// At a later `endstream`: the data holds that word, the length is right.
    Past(usize),
    /// Anywhere else: read the data up to `endstream`, as poppler does.
    Wrong,
}

fn data_end(body: &[u8], s: usize, e: usize, n: usize) -> Fit {
    // As lopdf reads it: `stream`, spaces or tabs, an end of line.
    let mut data = s + 6;
    while body.get(data).is_some_and(|&b| b == b' ' || b == b'\t') {
        data += 1;
    }
    data += match body.get(data..data + 2) {
        Some(b"\r\n") => 2,
        _ if body.get(data).is_some_and(|&b| b == b'\n' || b == b'\r') => 1,
        _ => 0,
    };
    let mut end = data.saturating_add(n);
    end += match body.get(end..end.saturating_add(2)) {
        Some(b"\r\n") => 2,
        _ if body.get(end).is_some_and(|&b| b == b'\n' || b == b'\r') => 1,
        _ => 0,
    };
    if end == e {
        Fit::Right
    } else if end > e && body.get(end..).is_some_and(|r| r.starts_with(b"endstream")) {
        Fit::Past(end)
    } else {
        Fit::Wrong
    }
}

/// The values of the length objects `pending` points to, from each one's
/// last `N G obj value endobj` in the file (as the rebuilt table keeps the
/// last definition). One scan of the headers; an object not found there (in
/// an object stream, or missing) is left to lopdf, which reads a missing
/// length's data up to `endstream` too. A file with too many headers for
/// the scan keeps its lengths as they are.
fn length_values(
    body: &[u8],
    pending: &[(usize, (u32, u16), usize, usize)],
    cancelled: &dyn Fn() -> bool,
) -> Result<std::collections::HashMap<(u32, u16), usize>> {
    let wanted: std::collections::HashSet<(u32, u16)> = pending.iter().map(|p| p.1).collect();
    let found = match headers(body, cancelled) {
        Ok(found) => found,
        Err(Error::TooLarge(_)) => return Ok(Default::default()),
        Err(e) => return Err(e),
    };
    let mut values = std::collections::HashMap::new();
    for h in found {
        if !wanted.contains(&(h.number, h.generation)) {
            continue;
        }
        let mut words = Words { body, at: h.offset };
        let value = (
            words.number(),
            words.number(),
            words.word(),
            words.number(),
            words.word(),
        );
        if let (Some(_), Some(_), Some(b"obj"), Some(n), Some(b"endobj")) = value {
            if let Ok(n) = usize::try_from(n) {
                values.insert((h.number, h.generation), n);
            }
        }
    }
    Ok(values)
}

/// Whether the `stream` found at `s` is the keyword: a word of its own,
/// not the end of `endstream`.
fn stream_keyword(body: &[u8], s: usize) -> bool {
    (s < 3 || &body[s - 3..s] != b"end")
        && !body.get(s + 6).is_some_and(|&b| is_regular(b))
        && (s == 0 || !is_regular(body[s - 1]))
}

/// The header whose `obj` keyword is at `o`: `N G obj`, each part after
/// white space, the number after a delimiter or the file's start.
fn header_before(body: &[u8], o: usize) -> Option<Header> {
    let mut p = o;
    let spaces = |p: &mut usize| {
        let end = *p;
        while *p > 0 && end - *p < 256 && is_space(body[*p - 1]) {
            *p -= 1;
        }
        *p < end
    };
    let digits = |p: &mut usize, most: usize| -> Option<u64> {
        let end = *p;
        while *p > 0 && end - *p <= most && body[*p - 1].is_ascii_digit() {
            *p -= 1;
        }
        if *p == end || end - *p > most {
            return None;
        }
        std::str::from_utf8(&body[*p..end]).ok()?.parse().ok()
    };
    if !spaces(&mut p) {
        return None;
    }
    let generation = u16::try_from(digits(&mut p, 5)?).ok()?;
    if !spaces(&mut p) {
        return None;
    }
    let number = u32::try_from(digits(&mut p, 10)?).ok()?;
    if number == 0 || (p > 0 && is_regular(body[p - 1])) {
        return None;
    }
    Some(Header {
        number,
        generation,
        offset: p,
    })
}

/// The values of the trailer keys kept (each written as `/Key value`),
/// from the last `trailer` dictionary naming a `/Root`, or else the last
/// `/Type /XRef` stream dictionary that does; empty when there is neither.
fn trailer_entries<'b>(
    body: &'b [u8],
    headers: &[Header],
    cancelled: &dyn Fn() -> bool,
) -> Result<Vec<&'b [u8]>> {
    // `trailer` keywords, last first, each read up to the one after it.
    let trailers: Vec<usize> = memmem::find_iter(body, b"trailer").collect();
    let mut end = body.len();
    for (n, &t) in trailers.iter().enumerate().rev() {
        if n % 4096 == 4095 && cancelled() {
            return Err(Error::Cancelled);
        }
        let window = &body[t + 7..end.min(t + 7 + MAX_TRAILER_BYTES)];
        end = t;
        let start = window.iter().take_while(|&&b| is_space(b)).count();
        if let Some(entries) = kept_entries(&window[start..]) {
            return Ok(entries);
        }
    }
    // A cross-reference stream's dictionary: the object before a `/XRef`
    // name, read up to the next header; each object once.
    let mut last_read = None;
    let names: Vec<usize> = memmem::find_iter(body, b"/XRef").collect();
    for (n, &x) in names.iter().enumerate().rev() {
        if n % 4096 == 4095 && cancelled() {
            return Err(Error::Cancelled);
        }
        if body.get(x + 5).is_some_and(|&b| is_regular(b)) {
            continue;
        }
        let k = headers.partition_point(|h| h.offset < x);
        if k == 0 || last_read == Some(k) {
            continue;
        }
        last_read = Some(k);
        let from = headers[k - 1].offset;
        let to = headers.get(k).map_or(body.len(), |h| h.offset);
        let object = &body[from..to.min(from + MAX_TRAILER_BYTES)];
        let Some(open) = memmem::find(object, b"<<") else {
            continue;
        };
        if let Some(entries) = kept_entries(&object[open..]) {
            return Ok(entries);
        }
    }
    Ok(Vec::new())
}

/// The kept entries of the dictionary at the start of `bytes`, when it is
/// one and names a `/Root`.
fn kept_entries(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    let entries = syntax::dictionary_entries(bytes)?;
    let kept: Vec<&[u8]> = entries
        .into_iter()
        .filter(|(key, _)| TRAILER_KEYS.contains(key))
        .map(|(key, value)| {
            let from = key.as_ptr() as usize - bytes.as_ptr() as usize;
            let to = value.as_ptr() as usize - bytes.as_ptr() as usize + value.len();
            &bytes[from..to]
        })
        .collect();
    kept.iter()
        .any(|entry| entry.starts_with(b"/Root"))
        .then_some(kept)
}

#[cfg(test)]
mod crafted;
#[cfg(test)]
mod tests {
    use super::*;

    fn never() -> bool {
        false
    }

    #[test]
    fn finds_text_after_the_stream_keyword_after_a_dictionary_only() {
        let body: &[u8] =
            b"% a stream word\n1 0 obj\n<< /Length 3 >>\nstream  junk\nabc\nendstream\n\
            2 0 obj\n<< /Length 3 >>\nstream \r\nxyz\nendstream\n[(a) stream x]\n";
        let junk = body.windows(4).position(|w| w == b"junk").unwrap_or(0);
        let found =
            stream_line_junk(body, &|| false).map(|j| j.iter().map(|r| (r.start, r.end)).collect());
        assert_eq!(found, Ok(vec![(junk, junk + 4)]));
    }

    #[test]
    fn finds_object_headers_outside_stream_data() {
        let body =
            b"%PDF-1.4\n1 0 obj\n<< /Length 20 >>\nstream\n9 0 obj (not one)\nendstream\nendobj\n\
                     2 3 obj [1]endobj 12 0 obj<<>>endobj x3 0 obj 4 0 objx";
        let found = headers(body, &never).unwrap();
        let numbers: Vec<(u32, u16)> = found.iter().map(|h| (h.number, h.generation)).collect();
        assert_eq!(numbers, vec![(1, 0), (2, 3), (12, 0)]);
        assert_eq!(&body[found[1].offset..found[1].offset + 7], b"2 3 obj");
    }

    #[test]
    fn takes_the_headers_the_table_points_at_that_the_scan_missed() {
        let body = b"%PDF-1.4|1 0 obj\n<< >>\nendobj\n2 0 obj\n[]\nendobj\nxref\n0 4\n\
                     0000000000 65535 f \n0000000009 00000 n \n0000000030 00000 n \n\
                     0000000002 00000 n \ntrailer\n<< /Root 1 0 R >>\n";
        let found = headers(body, &never).unwrap();
        assert_eq!(found.iter().map(|h| h.number).collect::<Vec<_>>(), [2]);
        // Object 1 is where the table says; 3's row points at no header.
        let listed = table_headers(body, &found, &never).unwrap();
        assert_eq!(
            listed,
            [Header {
                number: 1,
                generation: 0,
                offset: 9
            }]
        );
    }

    #[test]
    fn a_stream_with_no_end_hides_nothing() {
        let body = b"%PDF-1.4\n1 0 obj\n<< >>\nstream\nabc\n2 0 obj\n[]\nendobj\n";
        let found = headers(body, &never).unwrap();
        assert_eq!(found.len(), 2);
    }

    #[test]
    fn judges_indirect_lengths_as_direct_ones() {
        let body = b"%PDF-1.4\n1 0 obj\n<< /Length 2 0 R >>\nstream\nabc\nPage 2\nendstream\nendobj\n\
                     2 0 obj 3 endobj\n3 0 obj\n<< /Length 4 0 R >>\nstream\nabc\nendstream\nendobj\n\
                     4 0 obj\n3\nendobj\n5 0 obj\n<< /Length 9 0 R >>\nstream\nabc\nendstream\nendobj\n";
        // Object 1's right length leaves junk before its endstream; object 3's
        // is right; object 9 is missing (left to lopdf).
        let first = memmem::find(body, b"/Length").unwrap() + 6;
        assert_eq!(wrong_lengths(body, &never), Ok(vec![first]));
    }

    #[test]
    fn finds_the_direct_lengths_that_miss_their_endstream() {
        let body = b"%PDF-1.4\n1 0 obj\n<< /Length 3 >>\nstream\nabc\nendstream\nendobj\n\
                     2 0 obj\n<< /Length1 9 /Length 9 >>\nstream\r\nabc\r\nendstream\nendobj\n\
                     3 0 obj\n<< /Length 4 0 R >>\nstream\nabcdef\nendstream\nendobj\n\
                     4 0 obj\n<< /Length 2 >>\nstream\nabc\nendstream\nendobj\n";
        let wrong = wrong_lengths(body, &never).unwrap();
        let fine = b"1 0 obj << /Length 3 >> stream \t\r\nabc\rendstream 2 0 obj << /Length 0 >>\
                     stream\nendstream";
        assert_eq!(wrong_lengths(fine, &never), Ok(vec![]));
        // Another object's `/Length` (an `/Encrypt` dictionary's key
        // length) is not the stream's.
        let encrypt = b"5 0 obj << /Filter /Standard /Length 128 >> endobj\n\
                        6 0 obj << /Length 3 >> stream\nabc\nendstream";
        assert_eq!(wrong_lengths(encrypt, &never), Ok(vec![]));
        let no_length = b"5 0 obj << /Length 128 >> endobj 6 0 obj << >> stream\nabc\nendstream";
        // A length past an `endstream` in the data, to the next one, is right.
        let inside =
            b"6 0 obj << /Length 14 >> stream\nab endstream c\nendstream 7 0 obj << /Length 9 >> \
                       stream\nabc\nendstream";
        let seventh = memmem::find_iter(inside, b"/Length ").nth(1).unwrap() + 6;
        assert_eq!(wrong_lengths(inside, &never), Ok(vec![seventh]));
        assert_eq!(wrong_lengths(no_length, &never), Ok(vec![]));
        // Objects 2 (`/Length 9` over 3 bytes, not `/Length1`) and 4.
        let key = |n: usize| memmem::find_iter(body, b"/Length ").nth(n).map(|k| k + 6);
        assert_eq!(wrong, [key(1).unwrap(), key(3).unwrap()]);
        assert!(wrong.iter().all(|&h| body[h] == b'h'));
    }

    #[test]
    fn keeps_the_last_trailer_that_names_a_root() {
        let body = b"%PDF-1.4\n1 0 obj\n<< >>\nendobj\ntrailer\n<< /Size 2 /Root 1 0 R /Prev 99 /ID [<ab> (c)] >>\n\
                     trailer\n<< /Size 3 >>\n";
        let all = headers(body, &never).unwrap();
        let entries = trailer_entries(body, &all, &never).unwrap();
        assert_eq!(entries, vec![&b"/Root 1 0 R"[..], &b"/ID [<ab> (c)]"[..]]);
    }

    #[test]
    fn reads_a_cross_reference_stream_dictionary_as_the_trailer() {
        let body =
            b"%PDF-1.5\n1 0 obj\n<< >>\nendobj\n7 0 obj\n<< /Type /XRef /Root 1 0 R /W [1 2 1] \
                     /Length 3 >>\nstream\nabc\nendstream\nendobj\n";
        let all = headers(body, &never).unwrap();
        let entries = trailer_entries(body, &all, &never).unwrap();
        assert_eq!(entries, vec![&b"/Root 1 0 R"[..]]);
    }

    #[test]
    fn writes_a_stream_lopdf_reads_keeping_the_last_definition() {
        let mut file = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n\
                     2 0 obj\n(old)\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n\
                     9 0 obj\n(far)\nendobj\ntrailer\n<< /Root 1 0 R >>\n"
            .to_vec();
        let tail = rebuilt_section(&file, 1000, &never).unwrap().unwrap();
        file.extend(tail);
        let doc = lopdf::Document::load_mem(&file).unwrap();
        assert!(doc.get_object((2, 0)).unwrap().as_dict().is_ok());
        assert_eq!(doc.get_object((9, 0)).unwrap().as_str().unwrap(), b"far");
        assert_eq!(
            doc.trailer.get(b"Root").unwrap().as_reference().unwrap(),
            (1, 0)
        );
        assert!(doc.trailer.get(b"Prev").is_err());
    }

    #[test]
    fn stops_when_cancelled_and_refuses_nothing_to_rebuild() {
        let mut body = b"%PDF-1.4\n".to_vec();
        for i in 1..10_000 {
            body.extend(format!("{i} 0 obj null endobj\n").bytes());
        }
        assert_eq!(headers(&body, &|| true), Err(Error::Cancelled));
        assert_eq!(rebuilt_section(b"%PDF-1.4\nnothing", 100, &never), Ok(None));
        assert!(matches!(
            rebuilt_section(&body, 10, &never),
            Err(Error::TooLarge(_))
        ));
    }
}
