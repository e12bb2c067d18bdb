//! Parsing a V4A patch into its files and hunks.
//!
//! The grammar (Codex's `apply_patch_tool_instructions.md` and parser.rs):
//!
//! ```text
//! patch  := "*** Begin Patch" NL { file } "*** End Patch" NL?
//! file   := "*** Add File: " path NL { "+" line NL }
//!         | "*** Delete File: " path NL
//!         | "*** Update File: " path NL [ "*** Move to: " path NL ] { hunk }
//! hunk   := { "@@" [ " " header ] NL } { (" " | "-" | "+") line NL } [ "*** End of File" NL ]
//! ```
//!
//! Leniency, as Codex's: whitespace around the whole text and around each
//! `***` marker is ignored, as is a `<<'EOF'` … `EOF` heredoc around the
//! envelope; blank lines between hunks are skipped; an empty line inside a
//! hunk is an empty context line; the first hunk of a file may leave out
//! its `@@` line. A CR before each LF is dropped (a patch sent with CRLF).
//! Unlike Codex, an Update with `*** Move to:` may have no hunks (a plain
//! rename), and several `@@` lines in a row narrow the place one by one.

use super::{MAX_FILES, MAX_HUNKS, MAX_PATCH_BYTES};

/// What a patch does to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    /// A new file of `lines`, each ending with a line break.
    Add {
        path: String,
        lines: Vec<String>,
    },
    Delete {
        path: String,
    },
    Update {
        path: String,
        move_to: Option<String>,
        hunks: Vec<Hunk>,
    },
}

impl FileOp {
    pub fn path(&self) -> &str {
        match self {
            FileOp::Add { path, .. } | FileOp::Delete { path } | FileOp::Update { path, .. } => {
                path
            }
        }
    }

    /// The bytes of an added file: its lines, each with a final LF (as
    /// Codex writes them); empty for a file with no lines.
    pub fn added_content(&self) -> Option<Vec<u8>> {
        match self {
            FileOp::Add { lines, .. } => {
                let mut out = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
                for line in lines {
                    out.extend_from_slice(line.as_bytes());
                    out.push(b'\n');
                }
                Some(out)
            }
            _ => None,
        }
    }
}

/// One line of a hunk's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// ` text`: in the file, and kept (as the file has it).
    Context(String),
    /// `-text`: in the file, and removed.
    Remove(String),
    /// `+text`: put in.
    Add(String),
}

/// One `@@` hunk of an Update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// The texts of its `@@ header` lines, in order (a bare `@@` adds none).
    pub headers: Vec<String>,
    pub lines: Vec<Line>,
    /// `*** End of File`: its lines end the file.
    pub end_of_file: bool,
}

impl Hunk {
    /// The lines it expects in the file: context and removed, in order.
    pub fn old_lines(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().filter_map(|line| match line {
            Line::Context(text) | Line::Remove(text) => Some(text.as_str()),
            Line::Add(_) => None,
        })
    }
}

/// Why a patch could not be read; `line` counts from 1 (0: the patch as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {} of the patch: {}", self.line, self.message)
        }
    }
}

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE_TO: &str = "*** Move to:";
const END_OF_FILE: &str = "*** End of File";

fn error(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// The files of `text`, in order, or the first place it breaks the format.
pub fn parse(text: &str) -> Result<Vec<FileOp>, ParseError> {
    if text.len() > MAX_PATCH_BYTES {
        return Err(error(
            0,
            format!(
                "the patch is {} bytes, over the {} MB one apply_patch call takes; split it over several calls",
                text.len(),
                MAX_PATCH_BYTES >> 20
            ),
        ));
    }
    // Each line with its number in the text as sent (from 1).
    let all: Vec<(usize, &str)> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .collect();
    let lines = envelope(&all)?;
    let mut ops = Vec::new();
    let mut hunks = 0usize;
    let mut at = 0;
    while at < lines.len() {
        let (number, raw) = lines[at];
        let marker = raw.trim();
        if marker.is_empty() {
            at += 1;
            continue;
        }
        if ops.len() == MAX_FILES {
            return Err(error(
                number,
                format!("the patch names more than {MAX_FILES} files; split it over several calls"),
            ));
        }
        at += 1;
        if let Some(path) = marker.strip_prefix(ADD) {
            let path = file_path(path, number)?;
            let mut added = Vec::new();
            while let Some(text) = lines.get(at).and_then(|(_, l)| l.strip_prefix('+')) {
                added.push(text.to_string());
                at += 1;
            }
            ops.push(FileOp::Add { path, lines: added });
        } else if let Some(path) = marker.strip_prefix(DELETE) {
            ops.push(FileOp::Delete {
                path: file_path(path, number)?,
            });
        } else if let Some(path) = marker.strip_prefix(UPDATE) {
            let path = file_path(path, number)?;
            let mut move_to = None;
            if let Some(&(n, l)) = lines.get(at) {
                if let Some(dest) = l.trim().strip_prefix(MOVE_TO) {
                    move_to = Some(file_path(dest, n)?);
                    at += 1;
                }
            }
            let mut file_hunks = Vec::new();
            loop {
                while lines.get(at).is_some_and(|(_, l)| l.trim().is_empty()) {
                    at += 1;
                }
                match lines.get(at) {
                    None => break,
                    Some((_, l)) if l.trim_start().starts_with("***") => break,
                    Some(_) => {}
                }
                if hunks == MAX_HUNKS {
                    return Err(error(
                        lines[at].0,
                        format!("the patch holds more than {MAX_HUNKS} hunks; split it over several calls"),
                    ));
                }
                let (hunk, used) = parse_hunk(&lines[at..], file_hunks.is_empty())?;
                file_hunks.push(hunk);
                hunks += 1;
                at += used;
            }
            if file_hunks.is_empty() && move_to.is_none() {
                return Err(error(
                    number,
                    format!("*** Update File: {path} has no hunks; give its changes in @@ hunks"),
                ));
            }
            ops.push(FileOp::Update {
                path,
                move_to,
                hunks: file_hunks,
            });
        } else {
            return Err(error(
                number,
                format!(
                    "'{}' is not a file header; each file starts with '*** Add File: PATH', \
                     '*** Delete File: PATH' or '*** Update File: PATH'",
                    shorten(marker)
                ),
            ));
        }
    }
    if ops.is_empty() {
        return Err(error(
            0,
            "the patch changes no file: put '*** Add File:', '*** Delete File:' or '*** Update File:' \
             sections between '*** Begin Patch' and '*** End Patch'",
        ));
    }
    Ok(ops)
}

/// The lines between `*** Begin Patch` and `*** End Patch`, after leading and
/// trailing blank lines and an optional heredoc around the envelope.
fn envelope<'a>(all: &'a [(usize, &'a str)]) -> Result<&'a [(usize, &'a str)], ParseError> {
    let mut lines = all;
    while lines.first().is_some_and(|(_, l)| l.trim().is_empty()) {
        lines = &lines[1..];
    }
    while lines.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        lines = &lines[..lines.len() - 1];
    }
    // `<<'EOF'` … `EOF`, as a shell command would have carried it (Codex's lenient mode).
    if let (Some((_, first)), Some((_, last))) = (lines.first(), lines.last()) {
        let heredoc = matches!(first.trim(), "<<EOF" | "<<'EOF'" | "<<\"EOF\"");
        if heredoc && last.trim().ends_with("EOF") && lines.len() >= 4 {
            lines = &lines[1..lines.len() - 1];
        }
    }
    match lines.first() {
        Some((_, first)) if first.trim() == BEGIN => {}
        _ => return Err(error(1, "the patch must start with '*** Begin Patch'")),
    }
    match lines.last() {
        Some((_, last)) if lines.len() >= 2 && last.trim() == END => {}
        _ => {
            let at = lines.last().map_or(1, |(n, _)| *n);
            return Err(error(at, "the patch must end with '*** End Patch'"));
        }
    }
    Ok(&lines[1..lines.len() - 1])
}

fn file_path(rest: &str, line: usize) -> Result<String, ParseError> {
    let path = rest.trim();
    if path.is_empty() {
        return Err(error(line, "the file header names no path"));
    }
    Ok(path.to_string())
}

/// One hunk from the start of `lines`, and how many lines it took. `first`:
/// the file's first hunk, which may leave out its `@@` line.
fn parse_hunk(lines: &[(usize, &str)], first: bool) -> Result<(Hunk, usize), ParseError> {
    let mut headers = Vec::new();
    let mut at = 0;
    let mut marked = false;
    while let Some(&(_, raw)) = lines.get(at) {
        let line = raw.trim_end();
        if line == "@@" {
            marked = true;
        } else if let Some(header) = line.strip_prefix("@@ ") {
            marked = true;
            let header = header.trim();
            if !header.is_empty() {
                headers.push(header.to_string());
            }
        } else {
            break;
        }
        at += 1;
    }
    let start_number = lines[0].0;
    if !marked && !first {
        return Err(error(
            start_number,
            format!(
                "expected an @@ line to start the next hunk, not '{}'",
                shorten(lines[0].1)
            ),
        ));
    }
    let mut body = Vec::new();
    let mut end_of_file = false;
    while let Some(&(number, raw)) = lines.get(at) {
        if raw.trim() == END_OF_FILE {
            if body.is_empty() {
                return Err(error(
                    number,
                    "*** End of File ends a hunk that has no lines",
                ));
            }
            end_of_file = true;
            at += 1;
            break;
        }
        let line = match raw.chars().next() {
            None => Line::Context(String::new()),
            Some(' ') => Line::Context(raw[1..].to_string()),
            Some('-') => Line::Remove(raw[1..].to_string()),
            Some('+') => Line::Add(raw[1..].to_string()),
            Some(_) => {
                if body.is_empty() {
                    return Err(error(
                        number,
                        format!(
                            "'{}' starts with neither ' ' (context), '-' (removed) nor '+' (added)",
                            shorten(raw)
                        ),
                    ));
                }
                break; // the next hunk or file
            }
        };
        body.push(line);
        at += 1;
    }
    if body.is_empty() {
        let at_line = lines.get(at).map_or(start_number, |(n, _)| *n);
        return Err(error(at_line, "the hunk has no lines"));
    }
    Ok((
        Hunk {
            headers,
            lines: body,
            end_of_file,
        },
        at,
    ))
}

/// `text` cut to 80 characters for a message.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
