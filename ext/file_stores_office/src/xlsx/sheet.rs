//! Reading a worksheet part: its cells as text, and its merged ranges.
//!
//! The part is streamed once with quick-xml (no tree, no recursion). Cells
//! are kept as (row, column, span of one text buffer) because merged ranges
//! come after the cells in the XML and blank cells that were already read.

use quick_xml::events::{BytesStart, Event};

use super::format::{self, Kind};
use crate::xml;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// One cell with a value: its text is `text[start..end]` of its [`Sheet`].
#[derive(Debug, Clone, Copy)]
pub struct Cell {
    pub row: u32,
    pub col: u32,
    pub start: u32,
    pub end: u32,
}

/// A merged range, zero-based and inclusive.
#[derive(Debug, Clone, Copy)]
pub struct Merge {
    pub first_row: u32,
    pub first_col: u32,
    pub last_row: u32,
    pub last_col: u32,
}

/// The cells of a sheet that have values.
#[derive(Default)]
pub struct Sheet {
    pub cells: Vec<Cell>,
    pub text: String,
    pub merges: Vec<Merge>,
}

/// What reading cells needs from the rest of the workbook.
pub struct Context<'a> {
    pub strings: &'a Strings,
    /// The display kind of each cell style (`s` attribute).
    pub styles: &'a [Kind],
    pub date1904: bool,
    /// The text this sheet's cells may still take: the limit less what the
    /// sheets before wrote.
    pub max_text: u64,
    /// The limit itself, for the message.
    pub text_limit: u64,
}

/// The shared strings table, as one buffer and the end of each string.
#[derive(Default)]
pub struct Strings {
    text: String,
    ends: Vec<usize>,
}

impl Strings {
    pub fn get(&self, index: usize) -> Option<&str> {
        let end = *self.ends.get(index)?;
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        self.text.get(start..end)
    }
}

/// Reads `xl/sharedStrings.xml`: each `si`'s text, rich-text runs
/// concatenated, phonetic guides (`rPh`) left out.
pub fn read_strings(bytes: &[u8], part: &str, max_text: u64, cancel: &Cancel) -> Result<Strings> {
    let mut strings = Strings::default();
    let mut reader = xml::reader(bytes);
    let (mut in_t, mut in_phonetic) = (false, 0u32);
    let mut raw = String::new();
    let mut progress = xml::Progress::new(cancel);
    let mut position = 0;
    loop {
        progress.read(&reader, &mut position)?;
        match reader.read_event().map_err(|e| xml::error(part, e))? {
            Event::Start(e) => match xml::local(e.name().0) {
                b"si" => raw.clear(),
                b"t" => in_t = true,
                b"rPh" => in_phonetic += 1,
                _ => {}
            },
            Event::End(e) => match xml::local(e.name().0) {
                b"si" => {
                    progress.add(raw.len() as u64)?;
                    decode_escapes(&raw, &mut strings.text);
                    if strings.text.len() as u64 > max_text {
                        return Err(too_long(max_text));
                    }
                    strings.ends.push(strings.text.len());
                }
                b"t" => in_t = false,
                b"rPh" => in_phonetic = in_phonetic.saturating_sub(1),
                _ => {}
            },
            Event::Empty(e) if xml::local(e.name().0) == b"si" => {
                strings.ends.push(strings.text.len());
            }
            Event::Text(t) if in_t && in_phonetic == 0 => raw.push_str(&xml::text(&t)),
            Event::CData(t) if in_t && in_phonetic == 0 => raw.push_str(&xml::cdata(&t)),
            Event::GeneralRef(r) if in_t && in_phonetic == 0 => raw.extend(xml::ref_text(&r)),
            Event::Eof => return Ok(strings),
            _ => {}
        }
    }
}

/// The cell being read.
#[derive(Default)]
struct Pending {
    row: u32,
    col: u32,
    cell_type: CellType,
    style: usize,
    value: String,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum CellType {
    #[default]
    Number,
    Shared,
    Inline,
    Formula,
    Bool,
    Error,
    Date,
}

/// Where text events go.
#[derive(PartialEq, Eq)]
enum Capture {
    None,
    Value,
    InlineText,
}

/// Reads a worksheet part's cells and merged ranges.
pub fn read_sheet(bytes: &[u8], part: &str, ctx: &Context, cancel: &Cancel) -> Result<Sheet> {
    let mut sheet = Sheet::default();
    let mut reader = xml::reader(bytes);
    let mut cell = Pending::default();
    let (mut next_row, mut next_col) = (0u32, 0u32);
    let mut capture = Capture::None;
    let (mut in_inline, mut in_phonetic) = (false, 0u32);
    let mut progress = xml::Progress::new(cancel);
    let mut position = 0;
    loop {
        progress.read(&reader, &mut position)?;
        match reader.read_event().map_err(|e| xml::error(part, e))? {
            Event::Start(e) => match xml::local(e.name().0) {
                b"row" => {
                    next_row = start_row(&e, next_row);
                    next_col = 0;
                }
                b"c" => start_cell(&e, &mut cell, &mut next_row, &mut next_col),
                b"v" => capture = Capture::Value,
                b"is" => in_inline = true,
                b"t" if in_inline && in_phonetic == 0 => capture = Capture::InlineText,
                b"rPh" => in_phonetic += 1,
                _ => {}
            },
            Event::Empty(e) => match xml::local(e.name().0) {
                b"row" => {
                    next_row = start_row(&e, next_row) + 1;
                    next_col = 0;
                }
                b"c" => {
                    // A cell without content only has a style: nothing to show.
                    start_cell(&e, &mut cell, &mut next_row, &mut next_col);
                }
                b"mergeCell" => {
                    if let Some(merge) = raw_attr(&e, b"ref").and_then(|r| parse_range(&r)) {
                        sheet.merges.push(merge);
                    }
                }
                _ => {}
            },
            Event::End(e) => match xml::local(e.name().0) {
                b"row" => {
                    next_row = next_row.saturating_add(1);
                    next_col = 0;
                }
                b"c" => {
                    let before = sheet.text.len();
                    finish_cell(&mut cell, ctx, &mut sheet);
                    progress.add((sheet.text.len() - before) as u64)?;
                    if sheet.text.len() as u64 > ctx.max_text {
                        return Err(too_long(ctx.text_limit));
                    }
                }
                b"v" | b"t" => capture = Capture::None,
                b"is" => in_inline = false,
                b"rPh" => in_phonetic = in_phonetic.saturating_sub(1),
                _ => {}
            },
            Event::Text(t) if capture != Capture::None => cell.value.push_str(&xml::text(&t)),
            Event::CData(t) if capture != Capture::None => cell.value.push_str(&xml::cdata(&t)),
            Event::GeneralRef(r) if capture != Capture::None => {
                cell.value.extend(xml::ref_text(&r));
            }
            Event::Eof => return Ok(sheet),
            _ => {}
        }
    }
}

/// The zero-based row of a `row` element: its `r`, else the one after the last.
fn start_row(e: &BytesStart, next_row: u32) -> u32 {
    raw_attr(e, b"r")
        .and_then(|r| r.trim().parse::<u32>().ok())
        .filter(|&r| (1..=MAX_ROWS).contains(&r))
        .map_or(next_row, |r| r - 1)
}

fn start_cell(e: &BytesStart, cell: &mut Pending, next_row: &mut u32, next_col: &mut u32) {
    let (mut row, mut col) = (*next_row, *next_col);
    let mut cell_type = CellType::Number;
    let mut style = 0;
    for attr in xml::attributes(e) {
        match attr.key.0 {
            b"r" => {
                if let Some((r, c)) = parse_ref(&xml::lossy(&attr.value)) {
                    row = r;
                    col = c;
                }
            }
            b"t" => {
                cell_type = match &*attr.value {
                    b"s" => CellType::Shared,
                    b"inlineStr" => CellType::Inline,
                    b"str" => CellType::Formula,
                    b"b" => CellType::Bool,
                    b"e" => CellType::Error,
                    b"d" => CellType::Date,
                    _ => CellType::Number,
                }
            }
            b"s" => style = xml::lossy(&attr.value).trim().parse().unwrap_or(0),
            _ => {}
        }
    }
    *next_row = row;
    *next_col = col.saturating_add(1);
    cell.row = row;
    cell.col = col;
    cell.cell_type = cell_type;
    cell.style = style;
    cell.value.clear();
}

/// Turns the pending cell's raw value into its text, if it has one.
fn finish_cell(cell: &mut Pending, ctx: &Context, sheet: &mut Sheet) {
    let start = sheet.text.len();
    let out = &mut sheet.text;
    let kind = ctx.styles.get(cell.style).copied().unwrap_or(Kind::Number);
    let raw = cell.value.as_str();
    match cell.cell_type {
        CellType::Shared => {
            if let Some(s) = raw.trim().parse().ok().and_then(|i| ctx.strings.get(i)) {
                out.push_str(s);
            }
        }
        CellType::Inline | CellType::Formula => decode_escapes(raw, out),
        CellType::Bool => out.push_str(match raw.trim() {
            "1" | "true" => "TRUE",
            "0" | "false" => "FALSE",
            other => other,
        }),
        CellType::Error => out.push_str(raw.trim()),
        CellType::Date => write_iso_date(out, raw.trim(), kind),
        CellType::Number => match raw.trim() {
            "" => {}
            text => match text.parse::<f64>() {
                Ok(v) => format::write_value(out, v, kind, ctx.date1904),
                Err(_) => out.push_str(text),
            },
        },
    }
    cell.value.clear();
    if sheet.text.len() > start {
        sheet.cells.push(Cell {
            row: cell.row,
            col: cell.col,
            start: start as u32,
            end: sheet.text.len() as u32,
        });
    }
}

/// A `t="d"` cell holds an ISO 8601 date-time; written like serial dates.
fn write_iso_date(out: &mut String, iso: &str, kind: Kind) {
    let iso = iso.trim_end_matches('Z');
    let (date, time) = iso.split_once('T').unwrap_or((iso, ""));
    let time = time.split('.').next().unwrap_or("");
    match kind {
        Kind::Date if !date.is_empty() => out.push_str(date),
        Kind::Time | Kind::Duration if !time.is_empty() => out.push_str(time),
        _ if time.is_empty() => out.push_str(date),
        _ if date.is_empty() => out.push_str(time),
        _ => {
            out.push_str(date);
            out.push(' ');
            out.push_str(time);
        }
    }
}

/// An attribute's raw value, by exact (unprefixed) name: the cell
/// attributes read here never hold entities.
fn raw_attr(e: &BytesStart, name: &[u8]) -> Option<String> {
    xml::attributes(e)
        .find(|a| a.key.0 == name)
        .map(|a| xml::lossy(&a.value).into_owned())
}

/// Excel's last column (XFD).
pub const MAX_COLUMNS: u32 = 16_384;

/// Excel's last row. References past it are ignored, so a cell cannot put
/// billions of empty lines before itself.
const MAX_ROWS: u32 = 1_048_576;

/// `C5` → (row 4, column 2), zero-based; `None` when malformed. Columns
/// past Excel's last (XFD) and rows past its last are refused, so a row
/// cannot be made of millions of tabs.
pub fn parse_ref(reference: &str) -> Option<(u32, u32)> {
    let reference = reference.trim().trim_start_matches('$');
    let letters = reference
        .bytes()
        .take_while(u8::is_ascii_alphabetic)
        .count();
    if letters == 0 || letters > 3 {
        return None;
    }
    let mut col = 0u32;
    for b in reference[..letters].bytes() {
        col = col * 26 + u32::from(b.to_ascii_uppercase() - b'A') + 1;
    }
    if col > MAX_COLUMNS {
        return None;
    }
    let row: u32 = reference[letters..].trim_start_matches('$').parse().ok()?;
    (1..=MAX_ROWS).contains(&row).then(|| (row - 1, col - 1))
}

fn parse_range(range: &str) -> Option<Merge> {
    let (first, last) = range.split_once(':').unwrap_or((range, range));
    let (r1, c1) = parse_ref(first)?;
    let (r2, c2) = parse_ref(last)?;
    Some(Merge {
        first_row: r1.min(r2),
        first_col: c1.min(c2),
        last_row: r1.max(r2),
        last_col: c1.max(c2),
    })
}

/// Decodes the `_xHHHH_` escapes Excel writes for characters XML cannot
/// hold (`_x000D_` is a carriage return); `_x005F_` is an escaped `_`, so
/// `_x005F_x000D_` is the literal text `_x000D_`. UTF-16 surrogate pairs
/// are joined; a lone surrogate becomes U+FFFD.
pub fn decode_escapes(raw: &str, out: &mut String) {
    if !raw.contains("_x") {
        out.push_str(raw);
        return;
    }
    let bytes = raw.as_bytes();
    let mut i = 0;
    let mut copied = 0;
    let mut high: Option<u16> = None;
    while i + 7 <= bytes.len() {
        if let Some(unit) = escape_at(bytes, i) {
            out.push_str(&raw[copied..i]);
            if let Some(h) = high.take() {
                if (0xDC00..0xE000).contains(&unit) {
                    let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                    out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                    i += 7;
                    copied = i;
                    continue;
                }
                out.push('\u{FFFD}');
            }
            if (0xD800..0xDC00).contains(&unit) && escape_at(bytes, i + 7).is_some() {
                high = Some(unit);
            } else {
                out.push(char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}'));
            }
            i += 7;
            copied = i;
        } else {
            if let Some(_h) = high.take() {
                out.push('\u{FFFD}');
            }
            i += 1;
        }
    }
    if high.is_some() {
        out.push('\u{FFFD}');
    }
    out.push_str(&raw[copied..]);
}

/// The UTF-16 unit of an `_xHHHH_` escape starting at `i`.
fn escape_at(bytes: &[u8], i: usize) -> Option<u16> {
    let s = bytes.get(i..i + 7)?;
    if s[0] != b'_' || s[1] != b'x' || s[6] != b'_' {
        return None;
    }
    let hex = std::str::from_utf8(&s[2..6]).ok()?;
    u16::from_str_radix(hex, 16).ok()
}

fn too_long(max: u64) -> Error {
    Error::conversion(format!(
        "its text is over the {} MB limit",
        max / (1024 * 1024)
    ))
}
