//! Excel workbooks (.xlsx, .xlsm and templates) to text.
//!
//! Each sheet, in workbook order, becomes a `## Name` heading (hidden sheets
//! say so: `## Name (hidden)`) and then a line per row with a tab between
//! cells. Columns keep their places: a row starting at column C begins with
//! two tabs, so a model can count its way to a cell address. Rows keep
//! theirs too, within the used range: an empty row between two rows with
//! values is an empty line (rows before the first value and after the last
//! are left out). Trailing empty cells are dropped. A cell holding a tab or
//! line break is quoted as Excel quotes it when copying (`"two␤lines"`,
//! inner quotes doubled), so it cannot break the row apart.
//!
//! Values read as Excel shows what they mean (see `format.rs`): dates and
//! times from the cell's number format (either date system), percentages,
//! shortest round-trip numbers, `TRUE`/`FALSE`, error codes, formulas'
//! cached results, shared and inline rich text. A merged range's value is
//! shown once, in its first cell.
//!
//! The parts are read with quick-xml rather than calamine: calamine gives no
//! number format for non-date numbers (so no percentages), and reading the
//! few parts directly through [`Archive`] keeps every byte under its limits
//! without a second pass over the zip. Nothing recurses on input depth.

mod format;
mod sheet;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use self::format::Kind;
use self::sheet::{Cell, Context, Merge, Sheet, Strings};
use crate::archive::{Archive, Limits, Relationship};
use crate::xml;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

const DEFAULT_WORKBOOK: &str = "xl/workbook.xml";

/// A sheet as the workbook lists it.
struct SheetEntry {
    name: String,
    state: Option<&'static str>,
    rel_id: String,
}

/// Converts an Excel workbook's bytes to text.
pub fn to_text(bytes: &[u8], limits: Limits, cancel: &Cancel) -> Result<String> {
    from_archive(&mut Archive::open(bytes, limits, cancel)?)
}

/// The same from an archive already open, so a conversion opens its file
/// once (the open reads the whole zip directory).
pub fn from_archive(archive: &mut Archive<'_>) -> Result<String> {
    let limits = archive.limits();
    let cancel = archive.cancel();
    let workbook_part = archive
        .relationships("")?
        .into_iter()
        .find(|r| r.is("officeDocument") && !r.external)
        .map_or_else(|| DEFAULT_WORKBOOK.to_owned(), |r| r.target);
    let workbook = archive.require(&workbook_part)?;
    let (entries, date1904) = read_workbook(&workbook, &workbook_part, cancel)?;
    drop(workbook);
    let rels = archive.relationships(&workbook_part)?;
    let target = |kind: &str| {
        rels.iter()
            .find(|r| r.is(kind) && !r.external)
            .map(|r| r.target.clone())
    };
    let max_text = limits.max_output.min(u64::from(u32::MAX));
    let strings = match target("sharedStrings") {
        Some(part) => match archive.read(&part)? {
            Some(b) => sheet::read_strings(&b, &part, max_text, cancel)?,
            None => Strings::default(),
        },
        None => Strings::default(),
    };
    let styles = match target("styles") {
        Some(part) => match archive.read(&part)? {
            Some(b) => read_styles(&b, &part, cancel)?,
            None => Vec::new(),
        },
        None => Vec::new(),
    };
    let mut ctx = Context {
        strings: &strings,
        styles: &styles,
        date1904,
        max_text,
        text_limit: max_text,
    };
    let by_id: HashMap<&str, &Relationship> = rels
        .iter()
        .filter(|r| !r.external)
        .map(|r| (r.id.as_str(), r))
        .collect();
    // A part listed again (a hostile workbook names one sheet thousands of
    // times) is shown once; later entries name the sheet that showed it.
    let mut shown: HashMap<&str, &str> = HashMap::new();
    let mut out = String::new();
    for entry in &entries {
        cancel.check()?;
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("## ");
        out.push_str(&entry.name);
        let rel = by_id.get(entry.rel_id.as_str()).copied();
        let is_chart = rel.is_some_and(|r| r.is("chartsheet"));
        match (entry.state, is_chart) {
            (Some(state), true) => out.push_str(&format!(" (chart, {state})")),
            (Some(state), false) => out.push_str(&format!(" ({state})")),
            (None, true) => out.push_str(" (chart)"),
            (None, false) => {}
        }
        out.push('\n');
        let Some(rel) = rel.filter(|r| r.is("worksheet") || r.is("macrosheet")) else {
            continue;
        };
        if let Some(first) = shown.insert(rel.target.as_str(), entry.name.as_str()) {
            shown.insert(rel.target.as_str(), first);
            out.push_str(&format!("(the same sheet as \"{first}\", shown above)\n"));
            if out.len() as u64 > max_text {
                return Err(Error::conversion(format!(
                    "its text is over the {} MB limit",
                    max_text / (1024 * 1024)
                )));
            }
            continue;
        }
        let part = archive.require(&rel.target)?;
        // A sheet's cells and the text written before it share one budget,
        // so a shared string repeated by many cells stops at the limit once,
        // not once in the cells and again in the text.
        ctx.max_text = max_text.saturating_sub(out.len() as u64);
        let sheet = sheet::read_sheet(&part, &rel.target, &ctx, cancel)?;
        drop(part);
        write_sheet(&mut out, sheet, max_text, cancel)?;
    }
    if let Some(note) = archive.repair_note() {
        out.push('\n');
        out.push_str(&note);
        out.push('\n');
    }
    Ok(out)
}

/// The sheets in workbook order and whether dates count from 1904.
fn read_workbook(bytes: &[u8], part: &str, cancel: &Cancel) -> Result<(Vec<SheetEntry>, bool)> {
    let mut entries = Vec::new();
    let mut date1904 = false;
    xml::for_each_start(bytes, part, cancel, |e| {
        match e.name() {
            b"workbookPr" => {
                date1904 = matches!(e.attr(b"date1904").as_deref(), Some("1" | "true"));
            }
            b"sheet" => entries.push(SheetEntry {
                name: e.attr(b"name").unwrap_or_default(),
                state: match e.attr(b"state").as_deref() {
                    Some("hidden") => Some("hidden"),
                    Some("veryHidden") => Some("very hidden"),
                    _ => None,
                },
                rel_id: rel_id(e.0).unwrap_or_default(),
            }),
            _ => {}
        }
        Ok(())
    })?;
    Ok((entries, date1904))
}

/// The `r:id` of an element: a prefixed `id` attribute (an unprefixed `id`
/// is something else, such as a slide's number).
pub(crate) fn rel_id(e: &quick_xml::events::BytesStart) -> Option<String> {
    xml::attributes(e).find_map(|a| {
        let key = a.key.0;
        (key.contains(&b':') && xml::local(key) == b"id").then(|| xml::lossy(&a.value).into_owned())
    })
}

/// The display kind of each cell format (`cellXfs/xf`, indexed by a cell's
/// `s`), from its number format: a custom `numFmt` or a built-in id.
fn read_styles(bytes: &[u8], part: &str, cancel: &Cancel) -> Result<Vec<Kind>> {
    let mut custom: HashMap<u32, Kind> = HashMap::new();
    let mut kinds = Vec::new();
    let mut reader = xml::reader(bytes);
    let mut in_cell_xfs = false;
    let id_of = |e: &xml::Element| e.attr(b"numFmtId").and_then(|v| v.trim().parse().ok());
    let mut progress = xml::Progress::new(cancel);
    let mut position = 0;
    loop {
        progress.read(&reader, &mut position)?;
        let event = reader.read_event().map_err(|e| xml::error(part, e))?;
        match &event {
            quick_xml::events::Event::Start(s) | quick_xml::events::Event::Empty(s) => {
                let e = xml::Element(s);
                match e.name() {
                    b"numFmt" => {
                        if let Some(id) = id_of(&e) {
                            let code = e.attr(b"formatCode").unwrap_or_default();
                            custom.insert(id, format::classify(&code));
                        }
                    }
                    b"cellXfs" => in_cell_xfs = matches!(event, quick_xml::events::Event::Start(_)),
                    b"xf" if in_cell_xfs => {
                        let id = id_of(&e).unwrap_or(0);
                        let kind = custom.get(&id).map_or_else(|| format::builtin(id), |k| *k);
                        kinds.push(kind);
                    }
                    _ => {}
                }
            }
            quick_xml::events::Event::End(e) if xml::local(e.name().0) == b"cellXfs" => {
                in_cell_xfs = false;
            }
            quick_xml::events::Event::Eof => return Ok(kinds),
            _ => {}
        }
    }
}

/// Writes a sheet's rows: merged ranges blanked past their first cell,
/// columns and inner empty rows kept in place.
fn write_sheet(out: &mut String, mut sheet: Sheet, max_text: u64, cancel: &Cancel) -> Result<()> {
    if !sheet
        .cells
        .windows(2)
        .all(|w| (w[0].row, w[0].col) <= (w[1].row, w[1].col))
    {
        sheet.cells.sort_by_key(|c| (c.row, c.col));
    }
    let hidden = merged_away(&sheet.cells, &sheet.merges, cancel)?;
    let mut last_row: Option<u32> = None;
    let mut last_col = 0u32;
    for (i, cell) in sheet.cells.iter().enumerate() {
        if hidden.get(i).copied().unwrap_or(false) {
            continue;
        }
        let tabs = if last_row != Some(cell.row) {
            cancel.check()?;
            let gap = last_row.map_or(0, |last| cell.row - last);
            if out.len() as u64 + u64::from(gap) > max_text {
                return Err(Error::conversion(format!(
                    "its text is over the {} MB limit",
                    max_text / (1024 * 1024)
                )));
            }
            for _ in 0..gap {
                out.push('\n');
            }
            last_row = Some(cell.row);
            cell.col
        } else if cell.col > last_col {
            cell.col - last_col
        } else {
            // A second value for the same cell: the first one stands.
            continue;
        };
        for _ in 0..tabs {
            out.push('\t');
        }
        write_cell(out, &sheet.text[cell.start as usize..cell.end as usize]);
        last_col = cell.col;
    }
    if last_row.is_some() {
        out.push('\n');
    }
    Ok(())
}

/// Which cells lie in a merged range without being its first cell. Cells
/// are in row order, so a sweep opens each range at its first row and closes
/// it after its last (ranges may span a million rows; they are never
/// enumerated). The open ranges are counted per column in a Fenwick tree, so
/// each cell and each range costs a logarithm of the column count, however
/// many ranges are open at once (hostile sheets hold hundreds of thousands,
/// and overlap them). A cell is hidden when more open ranges cover it than
/// start at it.
fn merged_away(cells: &[Cell], merges: &[Merge], cancel: &Cancel) -> Result<Vec<bool>> {
    if merges.is_empty() {
        return Ok(Vec::new());
    }
    let mut by_first: Vec<&Merge> = merges.iter().collect();
    by_first.sort_unstable_by_key(|m| m.first_row);
    let mut by_last: Vec<&Merge> = merges.iter().collect();
    by_last.sort_unstable_by_key(|m| m.last_row);
    let mut starts: HashMap<(u32, u32), u32> = HashMap::new();
    for m in merges {
        *starts.entry((m.first_row, m.first_col)).or_default() += 1;
    }
    let mut cover = Columns::default();
    let (mut opened, mut closed) = (0, 0);
    let mut hidden = vec![false; cells.len()];
    let mut row = None;
    let mut progress = xml::Progress::new(cancel);
    for (i, cell) in cells.iter().enumerate() {
        progress.add(1)?;
        if row != Some(cell.row) {
            row = Some(cell.row);
            while opened < by_first.len() && by_first[opened].first_row <= cell.row {
                progress.add(1)?;
                cover.add(by_first[opened], 1);
                opened += 1;
            }
            while closed < by_last.len() && by_last[closed].last_row < cell.row {
                progress.add(1)?;
                cover.add(by_last[closed], -1);
                closed += 1;
            }
        }
        let covering = cover.at(cell.col);
        let starting = starts
            .get(&(cell.row, cell.col))
            .map_or(0, |&n| i64::from(n));
        hidden[i] = covering > starting;
    }
    Ok(hidden)
}

/// How many open merged ranges cover each column: a Fenwick tree of range
/// additions, read at a point.
struct Columns(Vec<i64>);

impl Default for Columns {
    fn default() -> Self {
        Columns(vec![0; sheet::MAX_COLUMNS as usize + 2])
    }
}

impl Columns {
    fn add(&mut self, merge: &Merge, delta: i64) {
        self.add_from(merge.first_col as usize, delta);
        self.add_from(merge.last_col as usize + 1, -delta);
    }

    fn add_from(&mut self, col: usize, delta: i64) {
        let mut i = col + 1;
        while i < self.0.len() {
            self.0[i] += delta;
            i += i & i.wrapping_neg();
        }
    }

    fn at(&self, col: u32) -> i64 {
        let mut i = col as usize + 1;
        let mut sum = 0;
        while i > 0 {
            sum += self.0[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }
}

/// A cell's text; quoted when it holds a tab or line break (line breaks
/// normalised to `\n`).
fn write_cell(out: &mut String, text: &str) {
    if !text.contains(['\t', '\n', '\r']) {
        out.push_str(text);
        return;
    }
    out.push('"');
    let normalised = text.replace("\r\n", "\n").replace('\r', "\n");
    out.push_str(&normalised.replace('"', "\"\""));
    out.push('"');
}
