//! `search_files`: grep semantics over a folder on disk or over texts a
//! store hands in, with ripgrep's own searcher (grep-searcher, grep-regex).
//!
//! - The regex dialect is Rust's `regex` (linear time, so no pattern can
//!   backtrack for ever). Case is ignored with Unicode simple case folding
//!   unless the search is case-sensitive.
//! - Output is ordered by path, then line: `path:line:text` for matches,
//!   `path-line-text` for context, `--` between groups that do not touch
//!   (and between files, with context), or one path per line with
//!   `files_only`. Lines longer than [`MAX_LINE_CHARS`] are cut around the
//!   first match with `[...]` markers.
//! - Caps: after `max_matches` matching lines (files with `files_only`) or
//!   `max_chars` characters, notes included, it stops and says so.
//! - It never converts a file. Files with a NUL byte (binary, as ripgrep
//!   sniffs), and files whose format has no text until a converter reads it
//!   (PDF, Office, images) and for which the caller has no extracted text,
//!   are skipped and named at the end. A file's text is read_file's (see
//!   `file_stores_store::text`, read through its `TextReader`): a byte
//!   order mark dropped, UTF-16 and UTF-32 with one transcoded (the NUL
//!   looked for is then a NUL character); invalid UTF-8 is searched as it
//!   is and shown with replacement characters.
//! - A file under 1 MB (`WHOLE_FILE_LIMIT`) is read whole, in one system call;
//!   larger ones are read in buffers, so memory stays flat in file size,
//!   and a single line longer than [`HEAP_LIMIT`] is reported instead.
//! - A deadline, and the [`Cancel`] flag, are checked between files, on
//!   every read and at every folder the walk enters, so a long search stops
//!   promptly with what it covered.
//! - Deterministic: files are visited in path order, searched in parallel
//!   and reported in that order through an ordered pipeline (see
//!   `pipeline.rs`), so the output does not depend on threads.

use std::collections::HashMap;
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};

use crate::glob::PathGlob;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, ErrorKind, Result};
use file_stores_store::content_type;
use file_stores_store::fsutil::{open_folder, open_regular, read_small};
use file_stores_store::text::{Encoding, TextReader};

mod report;
pub use report::{Found, Part, Report};
use report::{Lines, Outcome, Stop};

mod pipeline;
use pipeline::{Drain, End, Pipeline, Producer};

mod walk;
use walk::{collect_needing_text, Walk, Walked};

mod worker;
use worker::{Lent, Spares, Worker};

mod stream;
pub use stream::Streamed;

/// The longest pattern, in bytes, checked before it is compiled: a pattern
/// of megabytes takes seconds and a gigabyte of memory just to be refused.
pub const MAX_PATTERN_BYTES: usize = 16 << 10;
/// Lines longer than this many characters are cut around the match.
pub const MAX_LINE_CHARS: usize = 500;
/// The longest line a search holds in memory; a longer one is reported.
pub const HEAP_LIMIT: usize = 64 << 20;
/// Files smaller than this are read whole, in one call, and searched as a
/// slice; larger ones are searched in buffers, so memory stays flat.
const WHOLE_FILE_LIMIT: usize = 1 << 20;
/// How much of a slice grep-searcher sniffs for a NUL (its buffer size).
const SNIFFED: usize = 64 << 10;
/// Room kept for the closing notes within `max_chars`.
const NOTE_ROOM: usize = 700;
/// The unit of look-ahead: a group of files.
const BATCH: usize = 64;
/// Files searched at most this many places past the one the report takes
/// next: bounds the work a capped search wastes, and the outcomes held.
const AHEAD: usize = 4 * BATCH;
/// Files the walk may list ahead of the report.
const LISTED_AHEAD: usize = AHEAD + BATCH;

/// What to search for, and how much to show.
#[derive(Debug, Clone)]
pub struct Options {
    pub case_sensitive: bool,
    pub context: usize,
    pub files_only: bool,
    /// Matching lines (files with `files_only`) before stopping; None: all.
    pub max_matches: Option<usize>,
    /// Characters of output, notes included; None: no cap.
    pub max_chars: Option<usize>,
    /// When to stop, with a note saying what was covered.
    pub deadline: Option<Instant>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            case_sensitive: false,
            context: 0,
            files_only: false,
            max_matches: Some(100),
            max_chars: Some(20_000),
            deadline: None,
        }
    }
}

/// Compiles a pattern, or explains (for a model) why it cannot be used.
pub fn compile(pattern: &str, case_sensitive: bool) -> std::result::Result<RegexMatcher, String> {
    if pattern.is_empty() {
        return Err("pattern is empty: give a regular expression to search for".into());
    }
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(format!(
            "pattern is {} bytes long, over the limit of {MAX_PATTERN_BYTES}: search for a shorter, distinctive part of the text",
            pattern.len()
        ));
    }
    RegexMatcherBuilder::new()
        .case_insensitive(!case_sensitive)
        .line_terminator(Some(b'\n'))
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT)
        .build(pattern)
        .map_err(|e| explain_pattern_error(pattern, case_sensitive, &e))
}

/// The most memory a compiled pattern, and its lazy DFA's cache, may take.
const REGEX_SIZE_LIMIT: usize = 20 << 20;

/// Why a pattern cannot be used, as far as the advice to give depends on it.
#[derive(Debug, PartialEq)]
enum Refusal {
    LookAround,
    Backreference,
    UnknownEscape,
    LineBreak,
    TooLarge,
    Other,
}

/// Tells a model why a pattern was refused and what to write instead.
/// The advice follows the error's kind; the detail is the error's own text.
fn explain_pattern_error(pattern: &str, case_sensitive: bool, err: &grep_regex::Error) -> String {
    let raw = err.to_string();
    let detail = raw
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(&raw)
        .trim();
    let detail = detail.strip_prefix("error: ").unwrap_or(detail);
    let advice = match refusal(pattern, case_sensitive, err) {
        Refusal::LookAround => "Look-ahead and look-behind ((?=...), (?!...), (?<=...), (?<!...)) are not supported: search for the text itself, or run a second search to narrow",
        Refusal::Backreference => "Back-references such as \\1 are not supported: search for the repeated text itself",
        Refusal::TooLarge => "The pattern is too large once compiled: make it simpler, or split it into several searches",
        Refusal::UnknownEscape => "Some escapes from other dialects are not supported: write \\h as [0-9a-fA-F], \\A and \\z work, and \\Z is \\z",
        Refusal::LineBreak => "A pattern matches within one line: it cannot contain a line break",
        Refusal::Other => "Escape special characters such as . ( [ { * + ? | ^ $ with \\ to search for them literally",
    };
    format!("pattern is not a regular expression this search can use ({detail}). {advice}.")
}

/// The kind of a pattern's error. grep-regex keeps the kind of a line break
/// in a pattern, but hands parse and size errors on as text; so on this
/// path, taken only for a refused pattern, the pattern is parsed and
/// compiled again with regex-syntax and regex-automata, whose errors keep
/// their kind.
fn refusal(pattern: &str, case_sensitive: bool, err: &grep_regex::Error) -> Refusal {
    use regex_automata::meta;
    use regex_syntax::ast::{self, parse::Parser};
    use regex_syntax::hir::translate::TranslatorBuilder;

    if matches!(
        err.kind(),
        grep_regex::ErrorKind::NotAllowed(_) | grep_regex::ErrorKind::InvalidLineTerminator(_)
    ) {
        return Refusal::LineBreak;
    }
    let ast = match Parser::new().parse(pattern) {
        Ok(ast) => ast,
        Err(e) => {
            return match e.kind() {
                ast::ErrorKind::UnsupportedLookAround => Refusal::LookAround,
                ast::ErrorKind::UnsupportedBackreference => Refusal::Backreference,
                ast::ErrorKind::EscapeUnrecognized => Refusal::UnknownEscape,
                _ => Refusal::Other,
            }
        }
    };
    let Ok(hir) = TranslatorBuilder::new()
        .utf8(false)
        .case_insensitive(!case_sensitive)
        .build()
        .translate(pattern, &ast)
    else {
        return Refusal::Other;
    };
    let config = meta::Config::new()
        .utf8_empty(false)
        .nfa_size_limit(Some(REGEX_SIZE_LIMIT));
    match meta::Builder::new().configure(config).build_from_hir(&hir) {
        Err(e) if e.size_limit().is_some() => Refusal::TooLarge,
        _ => Refusal::Other,
    }
}

/// A file to search and where its text comes from.
enum Source<'a> {
    /// A regular file named `name` in the open folder `dir`.
    Disk(Arc<OwnedFd>, String),
    /// A regular file whose name claims a format without text of its own
    /// (`notes.doc`), with no extracted text: searched as text only when
    /// its first bytes are plain text with none of that format's
    /// signatures, as `content_type::detect` decides for every store.
    Claimed(Arc<OwnedFd>, String),
    /// Text the caller holds (a store's text file, or extracted text).
    Text(&'a [u8]),
    /// A file the caller opened (a blob downloaded to a temporary file),
    /// read from its start in buffers, as a large file on disk is.
    Opened(&'a std::fs::File),
    /// A format with no text until a converter reads it.
    NoText,
}

/// Reads on into `buf` until it holds a file's first
/// [`content_type::SNIFF_BYTES`] (or the whole file), unless `whole` says it
/// already holds all of it.
fn read_head(file: &std::fs::File, buf: &mut Vec<u8>, whole: bool) -> io::Result<()> {
    if whole || buf.len() >= content_type::SNIFF_BYTES {
        return Ok(());
    }
    let missing = (content_type::SNIFF_BYTES - buf.len()) as u64;
    file.take(missing).read_to_end(buf).map(drop)
}

/// A compiled search.
pub struct Search {
    matcher: RegexMatcher,
    opts: Options,
}

impl Search {
    pub fn new(pattern: &str, opts: Options) -> std::result::Result<Self, String> {
        Ok(Search {
            matcher: compile(pattern, opts.case_sensitive)?,
            opts,
        })
    }

    /// Searches texts the caller holds: `(path, Some(text))` for text, and
    /// `(path, None)` for a file with no text yet, visited in path order.
    /// The caller hands in the files its glob keeps (a store lists its files
    /// before it reads their texts).
    pub fn texts<T: AsRef<[u8]>>(
        &self,
        docs: &[(String, Option<T>)],
        cancel: &Cancel,
    ) -> Result<Found> {
        let mut report = self.report();
        self.feed(&mut report, docs, cancel)?;
        Ok(report.finish())
    }

    /// Adds texts to a search under way, for callers that hand them over in
    /// parts (in path order, part after part) so a capped search can stop
    /// before the rest is even read. Returns false once the search stopped.
    pub fn feed<T: AsRef<[u8]>>(
        &self,
        report: &mut Report,
        docs: &[(String, Option<T>)],
        cancel: &Cancel,
    ) -> Result<bool> {
        self.feed_from(report, docs, cancel, &mut 0)
    }

    /// [`Search::feed`] that can be resumed: `fed` counts the docs (in path
    /// order) the report has taken, and the call
    /// skips that many. A call that failed as cancelled has added a prefix
    /// of the docs and counted it, so making it again with the same docs
    /// and `fed` adds each file once.
    pub fn feed_from<T: AsRef<[u8]>>(
        &self,
        report: &mut Report,
        docs: &[(String, Option<T>)],
        cancel: &Cancel,
        fed: &mut usize,
    ) -> Result<bool> {
        let items = docs.iter().map(|(path, text)| {
            let source = match text {
                Some(text) => Source::Text(text.as_ref()),
                None => Source::NoText,
            };
            (path.as_str(), source)
        });
        self.feed_items(report, items, cancel, fed)
    }

    /// [`Search::feed_from`] for docs whose content may also be an open file
    /// (see [`Content`]), so a store never holds a large file to search it.
    pub fn feed_contents_from<T: AsRef<[u8]>>(
        &self,
        report: &mut Report,
        docs: &[(String, Content<T>)],
        cancel: &Cancel,
        fed: &mut usize,
    ) -> Result<bool> {
        let items = docs.iter().map(|(path, content)| {
            let source = match content {
                Content::Text(text) => Source::Text(text.as_ref()),
                Content::File(file) => Source::Opened(file),
                Content::NoText => Source::NoText,
            };
            (path.as_str(), source)
        });
        self.feed_items(report, items, cancel, fed)
    }

    fn feed_items<'a>(
        &self,
        report: &mut Report,
        docs: impl Iterator<Item = (&'a str, Source<'a>)>,
        cancel: &Cancel,
        fed: &mut usize,
    ) -> Result<bool> {
        if report.stop.is_some() {
            return Ok(false);
        }
        let mut items: Vec<(&str, Source<'a>)> = docs.collect();
        items.sort_by(|a, b| a.0.cmp(b.0));
        let items = items
            .into_iter()
            .skip(*fed)
            .map(|(path, source)| (path.to_owned(), source));
        let pipeline = Pipeline::with_items(items, AHEAD);
        Ok(self.run(&pipeline, None, report, cancel, fed)? == End::Finished)
    }

    /// Whether the search is past its deadline: a store that downloads a
    /// file to search it stops the download then.
    pub fn past_deadline(&self) -> bool {
        self.opts.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Searches the visible files below `folder` of the store whose root is
    /// `root`, in path order, never following links. `texts` holds the
    /// extracted text of files whose format has none of its own.
    pub fn folder<'t>(
        &self,
        root: &OwnedFd,
        folder: &str,
        glob: Option<&'t PathGlob>,
        texts: &'t HashMap<String, Vec<u8>>,
        cancel: &Cancel,
    ) -> Result<Found> {
        let mut report = self.report();
        let dir = match open_folder(root, folder, false) {
            Ok(Some(dir)) => dir,
            Ok(None)
            | Err(Error {
                kind: ErrorKind::Symlink | ErrorKind::NotAFolder,
                ..
            }) => {
                return Err(Error::new(ErrorKind::NotFound, folder));
            }
            Err(e) => return Err(e),
        };
        // The walk lists on whenever the search wants more files; whatever
        // ends the search ends the walk where it got to. A walk that fails
        // fails the search, unless the search stopped at a cap before.
        let mut walk = Walk::new(dir, folder, glob, texts, cancel)?;
        let mut out_of_time = false;
        let give_up = || cancel.is_cancelled() || self.past_deadline();
        let mut produce = |files: &mut Vec<Item<'t>>, room: usize| -> Result<bool> {
            match walk.fill(files, room, &give_up)? {
                Walked::Filled => Ok(true),
                Walked::Ended => Ok(false),
                Walked::GaveUp => {
                    cancel.check()?;
                    out_of_time = true;
                    Ok(false)
                }
            }
        };
        let pipeline = Pipeline::new(AHEAD, LISTED_AHEAD);
        self.run(&pipeline, Some(&mut produce), &mut report, cancel, &mut 0)?;
        if out_of_time && report.stop.is_none() {
            report.stop = Some(Stop::Deadline);
        }
        report.skipped.unnamed.extend(walk.walk.unnamed);
        report.skipped.deep.extend(walk.walk.deep);
        Ok(report.finish())
    }

    /// Files below `folder` whose format has no text of its own (PDF, Office,
    /// images...), which the caller may hold extracted text for.
    pub fn files_needing_text(
        root: &OwnedFd,
        folder: &str,
        glob: Option<&PathGlob>,
        cancel: &Cancel,
    ) -> Result<Vec<String>> {
        let mut found = Vec::new();
        let Some(dir) = open_folder(root, folder, false).ok().flatten() else {
            return Ok(found);
        };
        collect_needing_text(dir, folder, glob, &mut found, cancel)?;
        Ok(found)
    }

    /// A new, empty report for [`Search::feed`].
    pub fn report(&self) -> Report {
        Report::new(self.opts.clone())
    }

    /// Searches the files of `pipeline` on this thread and the pool's, and
    /// adds the outcomes to `report` in path order, counting them in `fed`,
    /// until the files run out or the report is full.
    fn run<'t>(
        &self,
        pipeline: &Pipeline<Item<'t>, Outcome>,
        produce: Option<&mut Producer<'_, Item<'t>, Error>>,
        report: &mut Report,
        cancel: &Cancel,
        fed: &mut usize,
    ) -> Result<End> {
        if report.stop.is_some() {
            return Ok(End::Stopped);
        }
        let halted = pipeline.halt_flag();
        let spares = Spares::default();
        let init = || spares.lend(|| self.worker());
        let work = |worker: &mut Lent<'_>, (path, source): &Item<'_>| {
            self.search_one(worker, spares.lines(), path, source, cancel, halted)
        };
        let consume = |(path, _): Item<'_>, outcome: Outcome| {
            let more = report.add(path, &outcome);
            if let Outcome::Hits(lines, _) = outcome {
                spares.give_back(lines);
            }
            *fed += 1;
            Ok(more)
        };
        file_stores_store::pool::scope(|scope, threads| {
            let spawn = || {
                if let Some(scope) = scope {
                    scope.spawn(|_| pipeline.help(init, work));
                }
            };
            pipeline.drain(Drain {
                helpers: threads,
                spawn: &spawn,
                produce,
                init,
                work,
                consume,
                check: || cancel.check(),
                // A helper panicked (a bug, not bad input): the scope
                // re-raises its panic when it ends, and the binding turns
                // that into InternalError, so the drainer stops the same way
                // rather than dress it up as an I/O error.
                broken: || -> Error { panic!("a search thread panicked") },
            })
        })
    }

    /// What collects one file's output lines into `lines`, within the caps.
    fn collector<'a>(
        &self,
        matcher: &'a RegexMatcher,
        path: &'a str,
        lines: Lines,
    ) -> Collector<'a> {
        Collector {
            matcher,
            path,
            files_only: self.opts.files_only,
            max_matches: if self.opts.files_only {
                Some(1)
            } else {
                self.opts.max_matches.map(|m| m + 1)
            },
            max_chars: self.opts.max_chars,
            lines,
            matches: 0,
            chars: 0,
            binary: false,
            base: 0,
            shown: 0,
            own_breaks: false,
        }
    }

    /// A thread's searcher, and its own copy of the matcher (see
    /// `worker.rs`).
    fn worker(&self) -> Worker {
        Worker {
            searcher: self.searcher().build(),
            matcher: self.matcher.clone(),
            buffer: Vec::new(),
        }
    }

    /// How every file of this search is searched: line numbers, context,
    /// binary files, the longest line held.
    fn searcher(&self) -> SearcherBuilder {
        let mut builder = SearcherBuilder::new();
        builder
            .line_number(true)
            .before_context(if self.opts.files_only {
                0
            } else {
                self.opts.context
            })
            .after_context(if self.opts.files_only {
                0
            } else {
                self.opts.context
            })
            .binary_detection(BinaryDetection::quit(b'\0'))
            // The text is decoded by `TextReader`, not by the searcher.
            .bom_sniffing(false)
            .heap_limit(Some(HEAP_LIMIT))
            .memory_map(grep_searcher::MmapChoice::never());
        builder
    }

    /// Searches one file with `worker`, formatting its output lines into
    /// `lines` (an empty buffer).
    fn search_one(
        &self,
        worker: &mut Worker,
        lines: Lines,
        path: &str,
        source: &Source<'_>,
        cancel: &Cancel,
        halted: &AtomicBool,
    ) -> Outcome {
        if cancel.is_cancelled() || self.past_deadline() {
            return Outcome::Interrupted;
        }
        let Worker {
            searcher,
            matcher,
            buffer,
        } = worker;
        let matcher = &*matcher;
        let mut sink = self.collector(matcher, path, lines);
        let result = match source {
            Source::NoText => return Outcome::NoText,
            Source::Text(text) => {
                self.search_bytes(searcher, matcher, text, &mut sink, cancel, halted)
            }
            Source::Opened(file) => {
                let reader = Guarded {
                    inner: FromStart { file, at: 0 },
                    cancel,
                    halted,
                    deadline: self.opts.deadline,
                };
                searcher.search_reader(matcher, TextReader::new(reader), &mut sink)
            }
            Source::Disk(dir, name) | Source::Claimed(dir, name) => {
                let claimed = matches!(source, Source::Claimed(..));
                match open_regular(&**dir, name, name) {
                    Ok(Some((file, stat))) => {
                        // A small file is read whole and searched as a slice;
                        // a large one in buffers, after what was read of it.
                        let size = u64::try_from(stat.st_size).unwrap_or(u64::MAX);
                        let whole = match read_small(&file, size, WHOLE_FILE_LIMIT, buffer) {
                            Ok(whole) => whole,
                            Err(e) => return Outcome::Failed(e.to_string()),
                        };
                        if claimed {
                            match read_head(&file, buffer, whole) {
                                Ok(()) => {}
                                Err(e) => return Outcome::Failed(e.to_string()),
                            }
                            let head = &buffer[..buffer.len().min(content_type::SNIFF_BYTES)];
                            if !content_type::is_text(content_type::detect(name, head)) {
                                return Outcome::NoText;
                            }
                        }
                        if whole {
                            self.search_bytes(searcher, matcher, buffer, &mut sink, cancel, halted)
                        } else {
                            let reader = Guarded {
                                inner: buffer.as_slice().chain(file),
                                cancel,
                                halted,
                                deadline: self.opts.deadline,
                            };
                            searcher.search_reader(matcher, TextReader::new(reader), &mut sink)
                        }
                    }
                    // Gone since listed; the buffer goes back unused.
                    Ok(None) => return Outcome::Hits(sink.lines, 0),
                    Err(e) => return Outcome::Failed(e.to_string()),
                }
            }
        };
        match result {
            _ if sink.binary => Outcome::Binary,
            Ok(()) => Outcome::Hits(sink.lines, sink.matches),
            Err(_)
                if cancel.is_cancelled()
                    || halted.load(Ordering::Acquire)
                    || self.past_deadline() =>
            {
                Outcome::Interrupted
            }
            Err(e) if is_heap_limit(&e) => {
                Outcome::Failed(format!("it has a line longer than {} MB", HEAP_LIMIT >> 20))
            }
            Err(e) => Outcome::Failed(e.to_string()),
        }
    }
}

impl Search {
    /// Searches bytes held whole: a text, or a small file read at once.
    ///
    /// Bytes that fit in what the searcher sniffs for a NUL ([`SNIFFED`])
    /// are searched as a slice. Longer ones are read through the searcher's
    /// buffers, as a file on disk is: a slice is sniffed in its first
    /// buffer only (as ripgrep does with a memory map), a reader in every
    /// buffer, so this way a text is binary, or not, whether it is searched
    /// on disk or in memory, and whatever its size. UTF-16 and UTF-32 with a
    /// BOM are transcoded through a reader too; that reader stops when the
    /// search is interrupted. A UTF-8 BOM is not searched.
    fn search_bytes(
        &self,
        searcher: &mut Searcher,
        matcher: &RegexMatcher,
        bytes: &[u8],
        sink: &mut Collector<'_>,
        cancel: &Cancel,
        halted: &AtomicBool,
    ) -> io::Result<()> {
        let encoding = Encoding::of(bytes);
        if encoding.is_wide() || bytes.len() > SNIFFED {
            let reader = Guarded {
                inner: bytes,
                cancel,
                halted,
                deadline: self.opts.deadline,
            };
            return searcher.search_reader(matcher, TextReader::new(reader), sink);
        }
        searcher.search_slice(matcher, &bytes[encoding.bom().len()..], sink)
    }
}

/// A file to search, by path, with where to read it.
type Item<'t> = (String, Source<'t>);

/// What a store hands [`Search::feed_contents_from`] for one file.
pub enum Content<T> {
    /// Text the caller holds.
    Text(T),
    /// An open file, searched from its start in buffers whatever its offset
    /// (which it leaves alone): a download too large to hold.
    File(std::fs::File),
    /// A format with no text until a converter reads it.
    NoText,
}

/// Reads `file` from `at` on with positional reads, so several searches of
/// it (one started again after an interrupt) never share an offset.
struct FromStart<'a> {
    file: &'a std::fs::File,
    at: u64,
}

impl Read for FromStart<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = std::os::unix::fs::FileExt::read_at(self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// A reader that stops when cancelled, when the search has stopped (its
/// pipeline halted), or past the deadline.
struct Guarded<'a, R> {
    inner: R,
    cancel: &'a Cancel,
    halted: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl<R: Read> Read for Guarded<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.cancel.is_cancelled()
            || self.halted.load(Ordering::Acquire)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            return Err(io::Error::other("search interrupted"));
        }
        self.inner.read(buf)
    }
}

struct Collector<'a> {
    matcher: &'a RegexMatcher,
    path: &'a str,
    files_only: bool,
    max_matches: Option<usize>,
    max_chars: Option<usize>,
    lines: Lines,
    matches: usize,
    chars: usize,
    binary: bool,
    /// Added to the searcher's line numbers: the lines before the slice it
    /// searches (a streamed file's later part; 0 otherwise).
    base: u64,
    /// The last line put in `lines`: a streamed file searches its last
    /// lines again, as context for the next part, and leaves out those shown.
    shown: u64,
    /// Whether `--` goes where the line numbers have a gap (a streamed
    /// file, searched part by part) rather than where the searcher says.
    own_breaks: bool,
}

impl Collector<'_> {
    /// Adds line `number`, after a `--` when this collector places them
    /// and the line does not follow the last one shown.
    fn push(&mut self, number: u64, is_match: bool, line: &[u8]) {
        if self.own_breaks && self.shown > 0 && number > self.shown + 1 {
            self.lines.push_break();
        }
        let separator = if is_match { ':' } else { '-' };
        let matcher = self.matcher;
        let written = self
            .lines
            .push(self.path, separator, number, is_match, |out| {
                push_line(out, matcher, line)
            });
        self.chars += written + 16;
        self.shown = number;
    }

    fn full(&self) -> bool {
        self.max_matches.is_some_and(|m| self.matches >= m)
    }

    /// Whether the lines kept are past the character budget, so a line more
    /// would never be shown.
    fn over_budget(&self) -> bool {
        self.max_chars.is_some_and(|c| self.chars > c)
    }
}

impl Sink for Collector<'_> {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> io::Result<bool> {
        let number = self.base + m.line_number().unwrap_or(0);
        if number <= self.shown {
            return Ok(true);
        }
        if !self.files_only && self.over_budget() {
            self.lines.cut = true;
            return Ok(false);
        }
        self.matches += 1;
        if self.files_only {
            self.shown = number;
            return Ok(false);
        }
        self.push(number, true, m.bytes());
        Ok(!self.full())
    }

    fn context(&mut self, _: &Searcher, c: &SinkContext<'_>) -> io::Result<bool> {
        let number = self.base + c.line_number().unwrap_or(0);
        // Past the budget a context line is left out; the next match, if
        // any, stops the file as cut.
        if number <= self.shown || self.over_budget() {
            return Ok(true);
        }
        self.push(number, false, c.bytes());
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> io::Result<bool> {
        if !self.own_breaks {
            self.lines.push_break();
        }
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _: u64) -> io::Result<bool> {
        self.binary = true;
        Ok(false)
    }
}

/// Whether a search stopped on a line longer than [`HEAP_LIMIT`]. Of the
/// errors a search can meet once cancellation is ruled out, that is the one
/// grep-searcher makes itself (`ErrorKind::Other`, no OS error): reading
/// fails with an OS error, and the sink never fails.
fn is_heap_limit(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::Other && e.raw_os_error().is_none()
}

/// Writes a line for output (see [`cut_line`]). A line of valid UTF-8 no
/// longer than [`MAX_LINE_CHARS`] bytes, the common case, has no more
/// characters than that either, so it is copied as it is.
fn push_line(out: &mut String, matcher: &RegexMatcher, line: &[u8]) {
    let bare = line.strip_suffix(b"\n").unwrap_or(line);
    let bare = bare.strip_suffix(b"\r").unwrap_or(bare);
    if bare.len() <= MAX_LINE_CHARS {
        if let Ok(text) = std::str::from_utf8(bare) {
            out.push_str(text);
            return;
        }
    }
    out.push_str(&cut_line(matcher, line));
}

/// A line for output: without its line ending, invalid UTF-8 replaced, and
/// cut around the first match when longer than [`MAX_LINE_CHARS`].
fn cut_line(matcher: &RegexMatcher, line: &[u8]) -> String {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = String::from_utf8_lossy(line);
    let total = text.chars().count();
    if total <= MAX_LINE_CHARS {
        return text.into_owned();
    }
    let at_byte = matcher.find(line).ok().flatten().map_or(0, |m| m.start());
    let at_char = String::from_utf8_lossy(&line[..at_byte.min(line.len())])
        .chars()
        .count();
    let start = at_char
        .saturating_sub(MAX_LINE_CHARS / 4)
        .min(total - MAX_LINE_CHARS);
    let window: String = text.chars().skip(start).take(MAX_LINE_CHARS).collect();
    let before = if start > 0 { "[...]" } else { "" };
    let after = if start + MAX_LINE_CHARS < total {
        "[...]"
    } else {
        ""
    };
    format!("{before}{window}{after}")
}

#[cfg(test)]
pub(crate) mod tests;
