//! A file's hunks applied to its bytes.
//!
//! Each hunk is found in the original file, in order, from where the one
//! before it ended (Codex's rule): first its `@@` headers, each from where
//! the last one was found, then its context and removed lines (see
//! [`super::seek`]), which must then be in one place only. A hunk with
//! only added lines goes after its last `@@` header, or at the end of the
//! file without one (Codex always puts it at the end). When the lines are
//! missing and end with an empty line, they are looked for again without
//! it, since a model often adds a blank line for the file's final newline.
//!
//! The result keeps the file's bytes outside what the hunks remove: a
//! context line is written as the file has it, even when it matched only
//! leniently (Codex writes the patch's version). Added lines take the
//! file's line breaks (CRLF when most of them are, as edit_file does), and
//! the file keeps its final newline or its lack of one (Codex always ends
//! the file with one).
//!
//! Each search is linear in the lines it reads (see [`super::seek`]), and
//! the work stops with [`HunkError::OutOfTime`] when the caller's deadline
//! passes first.

use std::borrow::Cow;
use std::time::Instant;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

use super::parse::{Hunk, Line};
use super::seek::{seek, Lines, Seek, Watch};

/// Why a file's hunks could not be applied. `hunk` counts from 0 in the
/// file's hunks; line numbers (`from`, `lines`) count from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkError {
    /// Its `@@ header` line is not in the file at or after line `from`.
    HeaderMissing {
        hunk: usize,
        header: String,
        from: usize,
    },
    /// Its context and removed lines (the first is `first`) are not in
    /// the file at or after line `from` (at its end, with `end_of_file`).
    LinesMissing {
        hunk: usize,
        first: String,
        from: usize,
        end_of_file: bool,
    },
    /// Its lines are in `count` places, the first few starting at `lines`.
    Ambiguous {
        hunk: usize,
        lines: Vec<usize>,
        count: usize,
    },
    /// The new content would be `size` bytes, over the cap given.
    TooLarge { size: usize },
    /// The deadline passed while hunk `hunk` was being placed.
    OutOfTime { hunk: usize },
}

/// One hunk placed: its body replaces `old_len` lines from line `start`.
struct Placed<'h> {
    start: usize,
    old_len: usize,
    body: Cow<'h, [Line]>,
}

/// `content` with `hunks` applied, or the first hunk that does not apply
/// (or was still being placed at `deadline`); `Err` only when `cancel` was
/// set. The result may take at most `max` bytes.
pub fn apply(
    content: &[u8],
    hunks: &[Hunk],
    max: usize,
    deadline: Option<Instant>,
    cancel: &Cancel,
) -> Result<std::result::Result<Vec<u8>, HunkError>> {
    if u32::try_from(content.len()).is_err() {
        return Ok(Err(HunkError::TooLarge {
            size: content.len(),
        }));
    }
    let watch = Watch { cancel, deadline };
    let file = FileLines::of(content);
    let mut placed = Vec::with_capacity(hunks.len());
    let mut line_index = 0;
    for (number, hunk) in hunks.iter().enumerate() {
        if watch.out_of_time()? {
            return Ok(Err(HunkError::OutOfTime { hunk: number }));
        }
        match place(&file, hunk, number, line_index, &watch)? {
            Ok((one, next)) => {
                placed.push(one);
                line_index = next;
            }
            Err(e) => return Ok(Err(e)),
        }
    }
    // Additions at the end of the file come after every hunk before them.
    placed.sort_by_key(|p| p.start);
    let ending = file.ending_style();
    let size = new_size(&file, &placed, ending);
    if size > max {
        return Ok(Err(HunkError::TooLarge { size }));
    }
    let mut out = Vec::with_capacity(size);
    let mut cursor = 0;
    for one in &placed {
        cancel.check()?;
        out.extend_from_slice(&content[file.offset(cursor)..file.offset(one.start)]);
        let mut line = one.start;
        for op in one.body.iter() {
            match op {
                Line::Context(_) => {
                    open_line(&mut out, ending);
                    out.extend_from_slice(&content[file.offset(line)..file.offset(line + 1)]);
                    line += 1;
                }
                Line::Remove(_) => line += 1,
                Line::Add(text) => {
                    open_line(&mut out, ending);
                    out.extend_from_slice(text.as_bytes());
                    out.extend_from_slice(ending);
                }
            }
        }
        cursor = one.start + one.old_len;
    }
    if cursor < file.count() {
        open_line(&mut out, ending);
        out.extend_from_slice(&content[file.offset(cursor)..]);
    }
    if file.lacks_final_newline() {
        // The file ended without a line break; so does its new version.
        if out.ends_with(b"\r\n") {
            out.truncate(out.len() - 2);
        } else if out.ends_with(b"\n") {
            out.pop();
        }
    }
    Ok(Ok(out))
}

/// Where `hunk` goes, searching from `from`, and the line after it.
fn place<'h>(
    views: &FileLines<'_>,
    hunk: &'h Hunk,
    number: usize,
    mut from: usize,
    watch: &Watch,
) -> Result<std::result::Result<(Placed<'h>, usize), HunkError>> {
    let out_of_time = HunkError::OutOfTime { hunk: number };
    for header in &hunk.headers {
        match seek(views, &[header.as_str()], from, false, false, watch)? {
            Seek::Found { at, .. } => from = at + 1,
            Seek::OutOfTime => return Ok(Err(out_of_time)),
            _ => {
                return Ok(Err(HunkError::HeaderMissing {
                    hunk: number,
                    header: header.clone(),
                    from: from + 1,
                }))
            }
        }
    }
    let mut body = Cow::Borrowed(hunk.lines.as_slice());
    let mut old: Vec<&str> = hunk.old_lines().collect();
    if old.is_empty() {
        let at = if hunk.headers.is_empty() || hunk.end_of_file {
            views.count()
        } else {
            from
        };
        return Ok(Ok((
            Placed {
                start: at,
                old_len: 0,
                body,
            },
            from,
        )));
    }
    let mut found = seek(views, &old, from, hunk.end_of_file, true, watch)?;
    if found == Seek::Missing && old.last() == Some(&"") {
        // Drop the trailing empty lines it expects, and look again.
        while let Some(last) = body.iter().rposition(|l| !matches!(l, Line::Add(_))) {
            match &body[last] {
                Line::Context(t) | Line::Remove(t) if t.is_empty() => {
                    body.to_mut().remove(last);
                    old.pop();
                }
                _ => break,
            }
        }
        if !old.is_empty() {
            found = seek(views, &old, from, hunk.end_of_file, true, watch)?;
        }
    }
    Ok(match found {
        Seek::Found { at, .. } => Ok((
            Placed {
                start: at,
                old_len: old.len(),
                body,
            },
            at + old.len(),
        )),
        Seek::Ambiguous { at, count } => Err(HunkError::Ambiguous {
            hunk: number,
            lines: at.into_iter().map(|i| i + 1).collect(),
            count,
        }),
        Seek::Missing => Err(HunkError::LinesMissing {
            hunk: number,
            first: hunk.old_lines().next().unwrap_or_default().to_string(),
            from: from + 1,
            end_of_file: hunk.end_of_file,
        }),
        Seek::OutOfTime => Err(out_of_time),
    })
}

/// A line break before the next line, when `out` ends with a line that has none.
fn open_line(out: &mut Vec<u8>, ending: &[u8]) {
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.extend_from_slice(ending);
    }
}

/// The size of the result, before it is made.
fn new_size(file: &FileLines<'_>, placed: &[Placed<'_>], ending: &[u8]) -> usize {
    let mut size = file.content_len;
    for one in placed {
        let mut line = one.start;
        for op in one.body.iter() {
            match op {
                Line::Context(_) => line += 1,
                Line::Remove(_) => {
                    size = size.saturating_sub(file.offset(line + 1) - file.offset(line));
                    line += 1;
                }
                Line::Add(text) => size = size.saturating_add(text.len() + ending.len()),
            }
        }
    }
    size.saturating_add(ending.len())
}

/// A file's lines as the model reads them (CRLF as LF, invalid UTF-8 as
/// U+FFFD), with where each starts in the bytes. Memory: the lines' starts
/// (4 bytes a line), and a decoded copy with its own starts only when the
/// file has invalid UTF-8; no String per line.
struct FileLines<'a> {
    /// The content as text: borrowed when it is valid UTF-8.
    text: Cow<'a, str>,
    /// The start of each line in `text`, and its length after the last.
    starts: Vec<u32>,
    /// The same in the content's bytes, when `text` is a decoded copy.
    byte_starts: Option<Vec<u32>>,
    content_len: usize,
    crlf: usize,
    lf: usize,
}

/// The start of each line of `bytes`, and its length after the last. The
/// caller has checked the length fits in a u32.
fn line_starts(bytes: &[u8]) -> Vec<u32> {
    let mut starts = Vec::with_capacity(bytes.len() / 32 + 2);
    if !bytes.is_empty() {
        starts.push(0);
    }
    for at in memchr::memchr_iter(b'\n', bytes) {
        if at + 1 < bytes.len() {
            starts.push((at + 1) as u32);
        }
    }
    starts.push(bytes.len() as u32);
    starts
}

impl<'a> FileLines<'a> {
    fn of(content: &'a [u8]) -> Self {
        let text = String::from_utf8_lossy(content);
        // A line break is never part of an invalid sequence, so the copy
        // has the same lines, at other offsets.
        let starts = line_starts(text.as_bytes());
        let byte_starts = match text {
            Cow::Borrowed(_) => None,
            Cow::Owned(_) => Some(line_starts(content)),
        };
        let lf_all = memchr::memchr_iter(b'\n', content).count();
        let crlf = memchr::memmem::find_iter(content, b"\r\n").count();
        FileLines {
            text,
            starts,
            byte_starts,
            content_len: content.len(),
            crlf,
            lf: lf_all - crlf,
        }
    }

    /// The offset in the content of line `line` (the content's length past the last).
    fn offset(&self, line: usize) -> usize {
        let starts = self.byte_starts.as_ref().unwrap_or(&self.starts);
        starts[line.min(starts.len() - 1)] as usize
    }

    /// Whether the file has bytes and its last line no line break.
    fn lacks_final_newline(&self) -> bool {
        self.content_len > 0 && self.crlf + self.lf < self.count()
    }

    /// CRLF when most line breaks are CRLF, else LF (LF without any).
    fn ending_style(&self) -> &'static [u8] {
        if self.crlf > 0 && self.crlf >= self.lf {
            b"\r\n"
        } else {
            b"\n"
        }
    }
}

impl Lines for FileLines<'_> {
    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `index` without its line break (LF, or CRLF).
    fn line(&self, index: usize) -> &str {
        let (start, end) = (self.starts[index] as usize, self.starts[index + 1] as usize);
        let line = &self.text[start..end];
        match line.strip_suffix('\n') {
            Some(text) => text.strip_suffix('\r').unwrap_or(text),
            None => line,
        }
    }
}

#[cfg(test)]
mod tests;
