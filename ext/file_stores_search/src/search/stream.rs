//! A file searched as its bytes arrive: a blob a store streams from its
//! storage service is pushed here chunk by chunk, and the whole lines each
//! chunk completes are searched at once, so a search runs at the speed of
//! the download instead of waiting for all of it.
//!
//! Why not a reader: grep-searcher pulls from a `Read`, so a push would need
//! a thread of its own per file, and when the deadline stops a reader the
//! searcher does not say which line it reached. Here each part is a slice
//! of whole lines, searched with the same searcher settings and sink as a
//! file on disk; what makes the parts one file:
//! - line numbers go on from part to part (the sink adds the lines before);
//! - the last `context` lines of a part are searched again in front of the
//!   next one, for the context of a match on either side of the cut, and
//!   the sink leaves out the lines it already showed;
//! - `--` goes where the line numbers shown have a gap, as the searcher
//!   would place it in one pass;
//! - a NUL anywhere makes the file binary, as a reader's search does;
//! - the bytes become text as every store reads a file's text
//!   (`file_stores_store::text`: UTF-16 and UTF-32 with a byte order mark
//!   transcoded on the way, a UTF-8 mark left out);
//! - a line longer than [`HEAP_LIMIT`] fails the file, as it does on disk.
//!
//! When the deadline (or a cancel) comes first, the file is reported as far
//! as it was searched, with the number of the last line searched, so the
//! model can read the rest with `read_file`.

use file_stores_store::text::Decoder;
use grep_regex::RegexMatcher;
use grep_searcher::Searcher;

use super::report::{Lines, Outcome};
use super::{is_heap_limit, Report, Search, HEAP_LIMIT};

/// The most bytes of lines kept in front of the next part as context: the
/// lines themselves are at most [`HEAP_LIMIT`] each, so without this bound
/// fifty of them could hold gigabytes. Fewer lines are kept when they are
/// longer (their context is then left out at the cut).
const MAX_KEPT: usize = 1 << 20;

/// How the pushed bytes become UTF-8 (see the module docs).
enum Decode {
    /// Fewer bytes than the longest byte order mark has come so far: the
    /// decoder decides the encoding from the first four.
    Sniffing(Vec<u8>),
    Text(Box<Decoder>),
}

/// Why a streamed file takes no more bytes.
enum End {
    /// The search of this file is over (a cap, or a match in `files_only`).
    Done,
    Binary,
    Failed(String),
    /// The deadline or a cancel came first.
    Cut,
}

/// One file being searched as it arrives; see the module docs.
pub struct Streamed {
    path: String,
    searcher: Searcher,
    matcher: RegexMatcher,
    lines: Lines,
    matches: usize,
    chars: usize,
    shown: u64,
    /// Bytes not searched yet (a last line without its line break), after
    /// `kept` lines (`kept_bytes` bytes) searched already, kept as context.
    pending: Vec<u8>,
    kept: u64,
    kept_bytes: usize,
    /// Lines searched to their end.
    done: u64,
    decode: Decode,
    end: Option<End>,
}

impl Search {
    /// A file named `path` to search from chunks of its bytes, in order
    /// (see [`Streamed`]).
    pub fn stream(&self, path: String) -> Streamed {
        let mut builder = self.searcher();
        // Transcoding happens before the parts are cut (see Decode).
        builder.bom_sniffing(false);
        Streamed {
            path,
            searcher: builder.build(),
            matcher: self.matcher.clone(),
            lines: Lines::default(),
            matches: 0,
            chars: 0,
            shown: 0,
            pending: Vec::new(),
            kept: 0,
            kept_bytes: 0,
            done: 0,
            decode: Decode::Sniffing(Vec::new()),
            end: None,
        }
    }
}

impl Streamed {
    /// Searches the lines `chunk` completes; false once the file takes no
    /// more bytes (its search is over, the deadline came first, or the
    /// search had already stopped): the caller stops its download then.
    /// Never fails: a failure is the file's outcome. A chunk is searched
    /// whole (it takes milliseconds): a caller interrupted between two
    /// pushes stops there.
    pub fn push(&mut self, search: &Search, report: &Report, chunk: &[u8]) -> bool {
        if report.stop.is_some() || self.end.is_some() {
            return false;
        }
        if search.past_deadline() {
            self.end = Some(End::Cut);
            return false;
        }
        let from = self.pending.len();
        self.decode(chunk, false);
        self.take_new(search, from, false)
    }

    /// Ends the file: searches its last line when it has no line break,
    /// and adds the file's outcome to `report`. False once the search
    /// stopped (a cap, the deadline), as [`Search::feed`] answers.
    pub fn finish(mut self, search: &Search, report: &mut Report) -> bool {
        if report.stop.is_some() {
            return false;
        }
        if self.end.is_none() {
            let from = self.pending.len();
            self.decode(&[], true);
            self.take_new(search, from, true);
        }
        let outcome = match self.end {
            Some(End::Binary) => Outcome::Binary,
            Some(End::Failed(why)) => Outcome::Failed(why),
            Some(End::Cut) => Outcome::Cut(self.lines, self.done),
            None | Some(End::Done) => Outcome::Hits(self.lines, self.matches),
        };
        report.add(self.path, &outcome)
    }

    /// Appends `chunk`, as UTF-8, to the pending bytes; `last` when no byte
    /// follows.
    fn decode(&mut self, chunk: &[u8], last: bool) {
        if let Decode::Sniffing(head) = &mut self.decode {
            head.extend_from_slice(chunk);
            if head.len() < 4 && !last {
                return;
            }
            let head = std::mem::take(head);
            self.decode = Decode::Text(Box::default());
            return self.decode(&head, last);
        }
        if let Decode::Text(decoder) = &mut self.decode {
            self.pending.extend_from_slice(decoder.push(chunk));
            if last {
                self.pending.extend_from_slice(decoder.finish().as_bytes());
            }
        }
    }

    /// Searches the lines completed by the bytes from `from` on (all of
    /// them when `last`); false once the file takes no more bytes.
    fn take_new(&mut self, search: &Search, from: usize, last: bool) -> bool {
        if memchr::memchr(0, &self.pending[from..]).is_some() {
            self.end = Some(End::Binary);
            return false;
        }
        let end = if last {
            self.pending.len()
        } else {
            match memchr::memrchr(b'\n', &self.pending[from..]) {
                Some(at) => from + at + 1,
                None => {
                    // No line ends here: what waits is one line, bounded as
                    // a reader's search bounds it.
                    if self.pending.len() > HEAP_LIMIT {
                        self.end = Some(End::Failed(format!(
                            "it has a line longer than {} MB",
                            HEAP_LIMIT >> 20
                        )));
                        return false;
                    }
                    return true;
                }
            }
        };
        let kept_bytes = self.kept_bytes;
        if end <= kept_bytes {
            return true;
        }
        let base = self.done - self.kept;
        let mut sink = search.collector(&self.matcher, &self.path, std::mem::take(&mut self.lines));
        sink.matches = self.matches;
        sink.chars = self.chars;
        sink.shown = self.shown;
        sink.base = base;
        sink.own_breaks = search.opts.context > 0 && !search.opts.files_only;
        let body = &self.pending[..end];
        let result = self.searcher.search_slice(&self.matcher, body, &mut sink);
        let (stopped, binary) = (sink.full() || sink.lines.cut, sink.binary);
        self.lines = sink.lines;
        self.matches = sink.matches;
        self.chars = sink.chars;
        self.shown = sink.shown;
        let lines_in_body = bytecount(&body[kept_bytes..]) + u64::from(!body.ends_with(b"\n"));
        self.done += lines_in_body;
        match result {
            _ if binary => self.end = Some(End::Binary),
            Err(e) if is_heap_limit(&e) => {
                self.end = Some(End::Failed(format!(
                    "it has a line longer than {} MB",
                    HEAP_LIMIT >> 20
                )))
            }
            Err(e) => self.end = Some(End::Failed(e.to_string())),
            Ok(()) if stopped => self.end = Some(End::Done),
            Ok(()) => {}
        }
        self.keep_context(end, search.opts.context);
        self.end.is_none()
    }

    /// Drops the searched bytes before `end` but the last `context` lines
    /// (at most [`MAX_KEPT`] bytes of them).
    fn keep_context(&mut self, end: usize, context: usize) {
        let body = &self.pending[..end];
        let mut start = end;
        let mut kept = 0;
        if body.ends_with(b"\n") {
            while kept < context as u64 && start > 0 {
                let line_start = memchr::memrchr(b'\n', &body[..start - 1]).map_or(0, |at| at + 1);
                if end - line_start > MAX_KEPT {
                    break;
                }
                start = line_start;
                kept += 1;
            }
        }
        self.pending.drain(..start);
        self.kept = kept;
        self.kept_bytes = end - start;
    }
}

/// How many line breaks `bytes` holds.
fn bytecount(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

#[cfg(test)]
mod tests {
    use super::super::{Options, Search};
    use file_stores_base::cancel::Cancel;
    use std::time::{Duration, Instant};

    /// `text` searched as one held text.
    fn whole(pattern: &str, opts: &Options, text: &[u8]) -> String {
        Search::new(pattern, opts.clone())
            .unwrap()
            .texts(&[("f.txt".to_string(), Some(text))], &Cancel::new())
            .unwrap()
            .text()
    }

    /// `text` pushed in chunks of the sizes `sizes` gives, in turn.
    fn streamed(pattern: &str, opts: &Options, text: &[u8], sizes: &[usize]) -> String {
        let search = Search::new(pattern, opts.clone()).unwrap();
        let mut report = search.report();
        let mut stream = search.stream("f.txt".into());
        let mut at = 0;
        for size in sizes.iter().cycle() {
            if at >= text.len() {
                break;
            }
            let end = (at + size).min(text.len());
            if !stream.push(&search, &report, &text[at..end]) {
                break;
            }
            at = end;
        }
        stream.finish(&search, &mut report);
        report.finish().text()
    }

    fn numbered(lines: usize, every: usize) -> Vec<u8> {
        let mut text = String::new();
        for n in 1..=lines {
            if n % every == 0 {
                text.push_str(&format!("line {n} has the needle\n"));
            } else {
                text.push_str(&format!("line {n} is plain\n"));
            }
        }
        text.into_bytes()
    }

    #[test]
    fn any_chunking_gives_what_the_whole_text_gives() {
        let text = numbered(5_000, 97);
        let mut rng = fastrand::Rng::with_seed(7);
        let cases = [
            Options::default(),
            Options {
                context: 2,
                ..Options::default()
            },
            Options {
                context: 50,
                max_matches: None,
                max_chars: None,
                ..Options::default()
            },
            Options {
                files_only: true,
                ..Options::default()
            },
            Options {
                max_matches: Some(7),
                context: 1,
                ..Options::default()
            },
            Options {
                max_chars: Some(1_500),
                ..Options::default()
            },
        ];
        for opts in &cases {
            let expected = whole("needle", opts, &text);
            for sizes in [vec![1], vec![7, 3], vec![4096], vec![text.len()]] {
                assert_eq!(
                    streamed("needle", opts, &text, &sizes),
                    expected,
                    "{opts:?} {sizes:?}"
                );
            }
            let random: Vec<usize> = (0..50).map(|_| rng.usize(1..3000)).collect();
            assert_eq!(
                streamed("needle", opts, &text, &random),
                expected,
                "{opts:?}"
            );
        }
    }

    #[test]
    fn a_last_line_without_a_break_and_a_cr_lf_file() {
        let opts = Options::default();
        let text = b"a\r\nneedle one\r\nb\r\nneedle two";
        assert_eq!(
            streamed("needle", &opts, text, &[5]),
            "f.txt:2:needle one\nf.txt:4:needle two\n"
        );
        assert_eq!(
            streamed("needle", &opts, text, &[5]),
            whole("needle", &opts, text)
        );
    }

    #[test]
    fn utf16_utf32_and_a_utf8_mark_read_as_a_reader_reads_them() {
        let opts = Options::default();
        let body = (1..=300).fold(String::new(), |mut body, n| {
            body.push_str(&format!("{n} café needle\n"));
            body
        });
        let mut le = vec![0xFF, 0xFE];
        le.extend(body.encode_utf16().flat_map(u16::to_le_bytes));
        let mut be = vec![0xFE, 0xFF];
        be.extend(body.encode_utf16().flat_map(u16::to_be_bytes));
        let mut marked = vec![0xEF, 0xBB, 0xBF];
        marked.extend(body.as_bytes());
        // UTF-32 too: one definition of a file's text (`file_stores_store::text`).
        let mut le32 = vec![0xFF, 0xFE, 0, 0];
        le32.extend(body.chars().flat_map(|c| u32::from(c).to_le_bytes()));
        let mut be32 = vec![0, 0, 0xFE, 0xFF];
        be32.extend(body.chars().flat_map(|c| u32::from(c).to_be_bytes()));
        for text in [le, be, marked, le32, be32] {
            // Held whole over 64 KB, a text is searched through a reader,
            // which transcodes it.
            let expected = whole(
                "needle",
                &opts,
                &[text.as_slice(), &vec![b'\n'; 70_000]].concat(),
            );
            let got = streamed(
                "needle",
                &opts,
                &[text.as_slice(), &vec![b'\n'; 70_000]].concat(),
                &[1, 2, 333],
            );
            assert_eq!(got, expected);
            assert!(got.starts_with("f.txt:1:1 café needle\n"), "{got}");
        }
    }

    #[test]
    fn a_nul_anywhere_makes_it_binary() {
        let mut text = numbered(20_000, 1000);
        text.extend(b"\0tail\n");
        let got = streamed("needle", &Options::default(), &text, &[1000]);
        assert_eq!(
            got,
            "No matches.\nSkipped 1 binary file: f.txt. It has no text to search.\n"
        );
        assert_eq!(got, whole("needle", &Options::default(), &text));
    }

    #[test]
    fn the_deadline_reports_the_lines_searched_and_the_line_reached() {
        let opts = Options {
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            ..Options::default()
        };
        let search = Search::new("needle", opts).unwrap();
        let mut report = search.report();
        report.add("a.txt".into(), &super::Outcome::Hits(Default::default(), 0));
        let mut stream = search.stream("f.txt".into());
        let text = numbered(100, 10);
        // Up to the middle of line 35.
        let cut = text.windows(8).position(|w| w == b"line 35 ").unwrap() + 4;
        assert!(stream.push(&search, &report, &text[..cut]));
        // The same search once its deadline has passed.
        let late = Search::new(
            "needle",
            Options {
                deadline: Some(Instant::now()),
                ..Options::default()
            },
        )
        .unwrap();
        assert!(!stream.push(&late, &report, &text[cut..]));
        assert!(!stream.finish(&late, &mut report));
        assert_eq!(
            report.finish().text(),
            "f.txt:10:line 10 has the needle\nf.txt:20:line 20 has the needle\nf.txt:30:line 30 has the needle\n\
             [Stopped: the search ran out of time at line 34 of f.txt, after 1 file before it. Read the rest of that file \
             with read_file from offset 35; to reach the files after it, narrow the search with path or glob.]\n"
        );
    }

    #[test]
    fn a_line_too_long_fails_the_file() {
        let search = Search::new("x", Options::default()).unwrap();
        let mut report = search.report();
        let mut stream = search.stream("f.txt".into());
        let block = vec![b'x'; 1 << 20];
        let mut pushes = 0;
        while stream.push(&search, &report, &block) {
            pushes += 1;
            assert!(pushes <= 65, "a line of {pushes} MB was held");
        }
        stream.finish(&search, &mut report);
        assert_eq!(
            report.finish().text(),
            "No matches.\nCould not search 1 file: f.txt (it has a line longer than 64 MB).\n"
        );
    }
}
