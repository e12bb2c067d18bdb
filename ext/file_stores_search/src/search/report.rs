//! The output of a search as it grows ([`Report`]: lines in order, held to
//! the caps), what it found once finished ([`Found`]: the lines, which file
//! each came from, why it stopped, what it skipped, as data), and the one
//! place that text is written for the model ([`Found::text`]: the lines,
//! then the closing notes within the character budget). A tree of stores
//! merges the `Found` of each store into one ([`Found::merge`]), so no
//! search output is ever read back from its text.

use super::{Options, NOTE_ROOM};

pub(super) enum Outcome {
    Hits(Lines, usize),
    Binary,
    NoText,
    Failed(String),
    Interrupted,
    /// A file searched as it arrived that the deadline cut: its lines and
    /// matches up to the last line searched, and that line's number.
    Cut(Lines, u64),
}

/// One file's output lines, formatted by the worker that searched it
/// (`path:line:text`, `path-line-text`, `--`), each ending in a newline,
/// in one buffer: the report appends them with one copy when the caps
/// allow, and line by line only near a cap.
#[derive(Debug, Default)]
pub(super) struct Lines {
    pub(super) text: String,
    /// Where each line ends in `text`, and whether it is a matching line.
    pub(super) ends: Vec<(usize, bool)>,
    /// How many of the lines are matching lines.
    pub(super) matches: usize,
    /// Whether the worker stopped at the character budget with a matching
    /// line still to show: the search must stop here and say so, even when
    /// the lines it kept fit.
    pub(super) cut: bool,
}

impl Lines {
    /// Adds `path`, `separator`, `number`, `separator`, then the line,
    /// which `line` writes; returns the length of what `line` wrote.
    pub(super) fn push(
        &mut self,
        path: &str,
        separator: char,
        number: u64,
        is_match: bool,
        line: impl FnOnce(&mut String),
    ) -> usize {
        self.text.push_str(path);
        self.text.push(separator);
        push_number(&mut self.text, number);
        self.text.push(separator);
        let start = self.text.len();
        line(&mut self.text);
        let written = self.text.len() - start;
        self.text.push('\n');
        self.ends.push((self.text.len(), is_match));
        self.matches += usize::from(is_match);
        written
    }

    pub(super) fn push_break(&mut self) {
        self.text.push_str("--\n");
        self.ends.push((self.text.len(), false));
    }

    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Empties the buffer, keeping its room.
    pub(super) fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.matches = 0;
        self.cut = false;
    }
}

/// Writes `n` in decimal without the formatting machinery, which costs
/// more than the rest of a line when a search shows hundreds of thousands.
fn push_number(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

/// The search in progress: the output so far and what was left out.
#[derive(Debug)]
pub struct Report {
    opts: Options,
    out: String,
    matches: usize,
    pub(super) stop: Option<Stop>,
    searched: usize,
    pub(super) skipped: Skipped,
    last: Option<String>,
    /// The file the deadline cut, and the last line of it searched.
    cut: Option<(String, u64)>,
    /// The files whose lines are in `out`, in order.
    files: Vec<Shown>,
}

/// A file whose lines a search shows: its path, and where its lines are in
/// the output (from its first line to the end of its last, without the
/// `--` put between files).
#[derive(Debug, Clone)]
struct Shown {
    path: String,
    start: usize,
    end: usize,
}

/// What stopped a search before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Matches,
    Chars,
    Deadline,
}

impl Report {
    pub(super) fn new(opts: Options) -> Self {
        Report {
            opts,
            out: String::new(),
            matches: 0,
            stop: None,
            searched: 0,
            skipped: Skipped::default(),
            last: None,
            cut: None,
            files: Vec::new(),
        }
    }

    /// Adds one file's outcome; false once the search should stop.
    pub(super) fn add(&mut self, path: String, outcome: &Outcome) -> bool {
        self.searched += 1;
        match outcome {
            Outcome::NoText => self.skipped.no_text.push(path),
            Outcome::Binary => self.skipped.binary.push(path),
            Outcome::Failed(why) => self.skipped.failed.push((path, why.clone())),
            Outcome::Interrupted => {
                self.stop = Some(Stop::Deadline);
                self.searched -= 1;
                return false;
            }
            Outcome::Hits(_, matches) if self.opts.files_only => {
                if *matches > 0 {
                    if self.opts.max_matches.is_some_and(|m| self.matches >= m) {
                        self.stop = Some(Stop::Matches);
                        return false;
                    }
                    let start = self.out.len();
                    if !self.push(&format!("{path}\n")) {
                        return false;
                    }
                    self.matches += 1;
                    self.shown(&path, start);
                    self.last = Some(path);
                }
            }
            Outcome::Hits(lines, _) => return self.add_hits(path, lines),
            Outcome::Cut(lines, line) => {
                self.searched -= 1;
                if self.add_hits(path.clone(), lines) {
                    self.stop = Some(Stop::Deadline);
                    self.cut = Some((path, *line));
                }
                return false;
            }
        }
        true
    }

    /// Adds one file's output lines; false once the search should stop.
    fn add_hits(&mut self, path: String, lines: &Lines) -> bool {
        if lines.is_empty() {
            return true;
        }
        if self.opts.context > 0 && !self.out.is_empty() && !self.push("--\n") {
            return false;
        }
        let start = self.out.len();
        if self.fits(lines) {
            self.out.push_str(&lines.text);
            self.matches += lines.matches;
        } else if !self.add_lines(lines) {
            self.shown(&path, start);
            return false;
        }
        self.shown(&path, start);
        self.last = Some(path);
        if lines.cut {
            self.stop = Some(Stop::Chars);
            return false;
        }
        true
    }

    /// Whether all of `lines` can be added without reaching a cap.
    fn fits(&self, lines: &Lines) -> bool {
        self.opts
            .max_matches
            .is_none_or(|m| self.matches + lines.matches <= m)
            && self.opts.max_chars.is_none_or(|max| {
                self.out.len() + lines.text.len() <= max.saturating_sub(NOTE_ROOM)
            })
    }

    /// Adds `lines` one by one, as long as the caps allow; false once one
    /// is reached.
    fn add_lines(&mut self, lines: &Lines) -> bool {
        let mut start = 0;
        for &(end, is_match) in &lines.ends {
            if is_match {
                if self.opts.max_matches.is_some_and(|m| self.matches >= m) {
                    self.stop = Some(Stop::Matches);
                    return false;
                }
                self.matches += 1;
            }
            if !self.push(&lines.text[start..end]) {
                return false;
            }
            start = end;
        }
        true
    }

    /// Notes that the lines of `path` from `start` on are in the output,
    /// if any are.
    fn shown(&mut self, path: &str, start: usize) {
        if self.out.len() > start {
            self.files.push(Shown {
                path: path.to_owned(),
                start,
                end: self.out.len(),
            });
        }
    }

    fn push(&mut self, text: &str) -> bool {
        if let Some(max) = self.opts.max_chars {
            if self.out.len() + text.len() > max.saturating_sub(NOTE_ROOM) {
                self.stop = Some(Stop::Chars);
                return false;
            }
        }
        self.out.push_str(text);
        true
    }

    /// What the search found, to be written out ([`Found::text`]) or
    /// merged with other stores' ([`Found::merge`]).
    pub fn finish(self) -> Found {
        Found(self)
    }
}

/// The files a search left out, and why, in the order it met them.
#[derive(Debug, Clone, Default)]
pub(super) struct Skipped {
    no_text: Vec<String>,
    binary: Vec<String>,
    pub(super) unnamed: Vec<String>,
    pub(super) deep: Vec<String>,
    /// The path and why it could not be searched.
    failed: Vec<(String, String)>,
}

/// A finished search, as data: the output lines and the file each comes
/// from, why it stopped, how many files it searched, what it skipped.
#[derive(Debug)]
pub struct Found(Report);

/// One store's part of a merged search (see [`Found::merge`]).
pub struct Part<'a> {
    /// What the store's paths get in front in the tree: "" or "name/".
    pub prefix: &'a str,
    /// What its search found; None when the time ran out before it was
    /// searched.
    pub found: Option<&'a Found>,
    /// The full names of the mounts inside this store's part of the tree,
    /// whose files hide the store's own there.
    pub hidden: &'a [String],
}

impl Part<'_> {
    /// Whether the store's file at the full path `full` is seen in the
    /// tree: not under a mount inside the store, nor where such a mount's
    /// folder is; and, for a mount, a store path the model can give back.
    fn shows(&self, full: &str) -> bool {
        let on_the_way = self.hidden.iter().any(|mount| under(full, mount));
        self.names(full)
            && !on_the_way
            && (self.prefix.is_empty() || file_stores_store::path::normalize(full).is_ok())
    }

    /// Whether the store's note may name `full` (a file or a folder): not
    /// hidden by a mount inside the store.
    fn names(&self, full: &str) -> bool {
        !self
            .hidden
            .iter()
            .any(|mount| mount == full || under(mount, full))
    }
}

/// Whether the path `inner` is below the folder `outer`.
fn under(outer: &str, inner: &str) -> bool {
    inner.len() > outer.len() && inner.starts_with(outer) && inner.as_bytes()[outer.len()] == b'/'
}

impl Found {
    /// The output the model sees: the lines (or "No matches."), why the
    /// search stopped, and the closing notes, within `max_chars`: the
    /// [`Found::lines`] then the [`Found::notes`].
    pub fn text(&self) -> String {
        let notes = self.notes();
        let mut out = String::with_capacity(self.lines().len() + notes.len());
        out.push_str(self.lines());
        out.push_str(&notes);
        out
    }

    /// The output's lines, or "No matches.": what the search holds, lent,
    /// so that a caller copying the output once (the binding, into a Ruby
    /// String) need not copy it twice.
    pub fn lines(&self) -> &str {
        if self.0.out.is_empty() {
            "No matches.\n"
        } else {
            &self.0.out
        }
    }

    /// What follows the lines: why the search stopped, and the closing
    /// notes, within what `max_chars` leaves after the lines.
    pub fn notes(&self) -> String {
        let found = &self.0;
        let mut out = String::new();
        let narrow = "Narrow the search with path or glob, or a more specific pattern.";
        match found.stop {
            Some(Stop::Matches) => {
                let what = if found.opts.files_only {
                    "files"
                } else {
                    "matching lines"
                };
                let max = found.opts.max_matches.unwrap_or(0);
                out.push_str(&format!(
                    "[Stopped after {max} {what}; there are more. {narrow}]\n"
                ));
            }
            Some(Stop::Chars) => {
                let max = found.opts.max_chars.unwrap_or(0);
                out.push_str(&format!(
                    "[Stopped at {max} characters; there are more matches. {narrow}]\n"
                ));
            }
            Some(Stop::Deadline) if found.cut.is_some() => {
                let (path, line) = found.cut.clone().unwrap_or_default();
                let at = if line > 0 {
                    format!("at line {line} of {path}")
                } else {
                    format!("at the start of {path}")
                };
                let before = match found.searched {
                    0 => String::new(),
                    1 => ", after 1 file before it".to_string(),
                    n => format!(", after {n} files before it"),
                };
                out.push_str(&format!(
                    "[Stopped: the search ran out of time {at}{before}. Read the rest of that file with read_file from offset {}; to reach the files after it, narrow the search with path or glob.]\n",
                    line + 1
                ));
            }
            Some(Stop::Deadline) => {
                let upto = found
                    .last
                    .as_deref()
                    .map(|p| format!(", up to {p}"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "[Stopped: the search ran out of time after {} files{upto}. {narrow}]\n",
                    found.searched
                ));
            }
            None => {}
        }
        let skipped = &found.skipped;
        let failed: Vec<String> = skipped
            .failed
            .iter()
            .map(|(p, why)| format!("{p} ({why})"))
            .collect();
        let notes: [(&[String], &str, &str); 5] = [
            (
                &skipped.no_text,
                "Skipped {n} file with no extracted text: {names}. Read them with read_file first.",
                "Skipped {n} files with no extracted text: {names}. Read them with read_file first.",
            ),
            (
                &skipped.binary,
                "Skipped {n} binary file: {names}. It has no text to search.",
                "Skipped {n} binary files: {names}. They have no text to search.",
            ),
            (
                &skipped.unnamed,
                "Skipped {n} file or folder whose name is not UTF-8, or holds a control character or a backslash: {names}. Rename it to search it.",
                "Skipped {n} files or folders whose names are not UTF-8, or hold a control character or a backslash: {names}. Rename them to search them.",
            ),
            (
                &skipped.deep,
                "Skipped {n} folder deeper than a store path reaches: {names}. Move its files higher up to search them.",
                "Skipped {n} folders deeper than a store path reaches: {names}. Move their files higher up to search them.",
            ),
            (&failed, "Could not search {n} file: {names}.", "Could not search {n} files: {names}."),
        ];
        let mut room = found.opts.max_chars.map_or(usize::MAX, |m| {
            m.saturating_sub(self.lines().len() + out.len())
        });
        for (paths, one, many) in notes {
            if let Some(note) = note(paths, one, many, room) {
                room -= note.len();
                out.push_str(&note);
            }
        }
        out
    }

    /// The searches of several stores of a tree, each searched for the
    /// same request with its own engine, as one search under `opts` (the
    /// whole search's caps): the files the tree shows, with full paths, in
    /// path order, held to the caps again; where a store stopped before its
    /// end (a cap, the deadline, or not searched for lack of time) the
    /// merged search stops at the last file that store reached, since the
    /// files after it were not all searched. The skipped files of every
    /// store are named in one note of each kind, and the count of files
    /// searched is the stores' sum.
    pub fn merge(opts: Options, parts: &[Part<'_>]) -> Found {
        let full = |part: &Part<'_>, path: &str| format!("{}{path}", part.prefix);
        // Where the merged search must stop, and why: the earliest place a
        // store stopped (the file the deadline cut, its last file shown, or
        // its place in the tree when it showed none).
        let cutoff = parts
            .iter()
            .filter_map(|part| match part.found {
                None => Some((part.prefix.to_owned(), Stop::Deadline, None)),
                Some(found) => found.0.stop.map(|stop| {
                    let cut = found
                        .0
                        .cut
                        .as_ref()
                        .map(|(path, line)| (full(part, path), *line));
                    let at = cut
                        .as_ref()
                        .map(|(path, _)| path.clone())
                        .or_else(|| found.0.files.last().map(|f| full(part, &f.path)))
                        .unwrap_or_else(|| part.prefix.to_owned());
                    (at, stop, cut)
                }),
            })
            .min_by(|a, b| a.0.cmp(&b.0));
        let mut blocks: Vec<(String, &Part<'_>, &Found, &Shown)> = parts
            .iter()
            .filter_map(|part| part.found.map(|found| (part, found)))
            .flat_map(|(part, found)| {
                found
                    .0
                    .files
                    .iter()
                    .map(move |shown| (full(part, &shown.path), part, found, shown))
            })
            .filter(|(path, part, ..)| part.shows(path))
            .collect();
        blocks.sort_by(|a, b| a.0.cmp(&b.0));
        let mut report = Report::new(opts);
        let mut lines = Lines::default();
        for (path, part, found, shown) in blocks {
            if cutoff.as_ref().is_some_and(|(at, ..)| path > *at) {
                break;
            }
            lines.clear();
            let text = &found.0.out[shown.start..shown.end];
            let more = if report.opts.files_only {
                report.add(path, &Outcome::Hits(Lines::default(), 1))
            } else {
                for line in text.split_inclusive('\n') {
                    if line == "--\n" {
                        lines.push_break();
                        continue;
                    }
                    let is_match = line.as_bytes().get(shown.path.len()) == Some(&b':');
                    lines.text.push_str(part.prefix);
                    lines.text.push_str(line);
                    lines.ends.push((lines.text.len(), is_match));
                    lines.matches += usize::from(is_match);
                }
                report.add_hits(path, &lines)
            };
            if !more {
                break;
            }
        }
        if let Some((_, stop, cut)) = cutoff {
            let stop = *report.stop.get_or_insert(stop);
            if stop == Stop::Deadline {
                report.cut = cut;
            }
        }
        report.searched = parts
            .iter()
            .filter_map(|p| p.found)
            .map(|f| f.0.searched)
            .sum();
        report.skipped = Skipped::merged(parts);
        report.finish()
    }
}

impl Skipped {
    /// The skipped files of every part the tree shows, under their full
    /// paths, each kind in path order.
    fn merged(parts: &[Part<'_>]) -> Skipped {
        let mut all = Skipped::default();
        for part in parts {
            let Some(found) = part.found else { continue };
            let named = |paths: &[String], into: &mut Vec<String>| {
                into.extend(
                    paths
                        .iter()
                        .map(|path| format!("{}{path}", part.prefix))
                        .filter(|path| part.names(path)),
                );
            };
            let skipped = &found.0.skipped;
            named(&skipped.no_text, &mut all.no_text);
            named(&skipped.binary, &mut all.binary);
            named(&skipped.unnamed, &mut all.unnamed);
            named(&skipped.deep, &mut all.deep);
            all.failed.extend(
                skipped
                    .failed
                    .iter()
                    .map(|(path, why)| (format!("{}{path}", part.prefix), why.clone()))
                    .filter(|(path, _)| part.names(path)),
            );
        }
        for kind in [
            &mut all.no_text,
            &mut all.binary,
            &mut all.unnamed,
            &mut all.deep,
        ] {
            kind.sort();
        }
        all.failed.sort();
        all
    }
}

/// How many names a closing note lists at most.
const NOTE_NAMES: usize = 20;

/// A closing note naming `paths` (none when empty), worded for one file or
/// for several: `{n}` is the count and `{names}` as many whole names as fit
/// in `room` bytes (at most [`NOTE_NAMES`]), then how many more there are.
/// A name is never cut: one that does not fit is counted instead. None when
/// not even the note without names fits.
fn note(paths: &[String], one: &str, many: &str, room: usize) -> Option<String> {
    let template = match paths.len() {
        0 => return None,
        1 => one,
        _ => many,
    };
    let (before, after) = template
        .replace("{n}", &paths.len().to_string())
        .split_once("{names}")
        .map(|(b, a)| (b.to_string(), format!("{a}\n")))?;
    let fits = |names: &str| before.len() + names.len() + after.len() <= room;
    let rest = |shown: usize| match (shown, paths.len() - shown) {
        (_, 0) => String::new(),
        (0, more) => format!("{more} not named here"),
        (_, more) => format!(", and {more} more"),
    };
    let mut names = String::new();
    let mut shown = 0;
    for path in paths.iter().take(NOTE_NAMES) {
        let sep = if shown == 0 { "" } else { ", " };
        let longer = format!("{names}{sep}{path}");
        if !fits(&format!("{longer}{}", rest(shown + 1))) {
            break;
        }
        names = longer;
        shown += 1;
    }
    names.push_str(&rest(shown));
    fits(&names).then(|| format!("{before}{names}{after}"))
}
