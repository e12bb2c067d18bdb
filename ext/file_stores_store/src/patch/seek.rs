//! Finding a hunk's lines in a file, as Codex's `seek_sequence` does: from
//! a starting line on, first exactly, then ignoring trailing whitespace,
//! then ignoring leading and trailing whitespace, then also reading
//! typographic punctuation (curly quotes, dashes, odd spaces) as ASCII. The
//! first level at which the lines appear decides.
//!
//! Unlike Codex, which takes the first place found, [`seek`] can refuse a
//! run that appears in more than one place at that level (`unique`): a
//! patch written against one place must not land on another by chance.
//!
//! Codex compares the run with the file at every starting line, which is
//! (file lines) x (hunk lines) comparisons: a hunk of 24,000 lines of `a`
//! ending in a line the file lacks, over 48,000 lines of `a`, took a minute.
//! Here a run is found with Knuth-Morris-Pratt over lines, which never goes
//! back in the file: each file line is read as the level sees it ([`key`])
//! once per search, and compared at most a few times on average with a
//! line of the run (at most 2 x (file lines + run lines) comparisons in
//! all), each comparison stopping at the first difference, lengths first.
//! So a search is linear in the bytes it reads, keeps nothing per file
//! line, and finds every place, as the per-start scan did; the same first
//! level wins.
//!
//! A search checks for cancel, and for its deadline, every 4,096 steps.

use std::borrow::Cow;
use std::time::Instant;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

/// How leniently two lines were compared, from strictest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Exact,
    TrailingSpace,
    Spaces,
    Punctuation,
}

const LEVELS: [Level; 4] = [
    Level::Exact,
    Level::TrailingSpace,
    Level::Spaces,
    Level::Punctuation,
];

/// Where [`seek`] found a run of lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seek {
    /// At line index `at` (from 0).
    Found {
        at: usize,
        level: Level,
    },
    Missing,
    /// In `count` places; `at` holds the first few line indexes.
    Ambiguous {
        at: Vec<usize>,
        count: usize,
    },
    /// The deadline passed before the search ended.
    OutOfTime,
}

/// A file's lines as [`seek`] reads them, by index.
pub trait Lines {
    fn count(&self) -> usize;
    fn line(&self, index: usize) -> &str;
}

impl Lines for [&str] {
    fn count(&self) -> usize {
        self.len()
    }

    fn line(&self, index: usize) -> &str {
        self[index]
    }
}

/// How many places an ambiguous match names.
pub const NAMED_PLACES: usize = 5;

/// How many steps of a search run between looks at `cancel` and the clock.
const STEPS_PER_CHECK: usize = 4096;

/// When work must stop: `cancel` (an interrupt: `Err`) or past `deadline`.
#[derive(Debug, Clone, Copy)]
pub struct Watch<'c> {
    pub cancel: &'c Cancel,
    pub deadline: Option<Instant>,
}

impl<'c> Watch<'c> {
    /// No deadline; only `cancel` stops the work.
    pub fn cancel_only(cancel: &'c Cancel) -> Self {
        Watch {
            cancel,
            deadline: None,
        }
    }

    /// `Err(Cancelled)` when cancelled, else whether the deadline passed.
    pub fn out_of_time(&self) -> Result<bool> {
        self.cancel.check()?;
        Ok(self.deadline.is_some_and(|d| Instant::now() >= d))
    }

    /// [`Self::out_of_time`] on every [`STEPS_PER_CHECK`]-th `step`.
    fn out_of_time_at(&self, step: usize) -> Result<bool> {
        if step % STEPS_PER_CHECK == 0 {
            self.out_of_time()
        } else {
            Ok(false)
        }
    }
}

/// Where a line's key is in it at `level`, before punctuation is mapped:
/// (bytes skipped at its start, its length).
fn span(level: Level, line: &str) -> (usize, usize) {
    match level {
        Level::Exact => (0, line.len()),
        Level::TrailingSpace => (0, line.trim_end().len()),
        Level::Spaces | Level::Punctuation => {
            let start = line.len() - line.trim_start().len();
            (start, line[start..].trim_end().len())
        }
    }
}

/// What a line is at `level`: two lines are the same there when their keys
/// are equal. Punctuation's key is a copy only when it maps a character.
pub fn key(level: Level, line: &str) -> Cow<'_, str> {
    let (start, len) = span(level, line);
    let line = &line[start..start + len];
    if level == Level::Punctuation && line.chars().any(|c| as_ascii(c) != c) {
        Cow::Owned(line.chars().map(as_ascii).collect())
    } else {
        Cow::Borrowed(line)
    }
}

/// Whether `line` (the file's) is `want` (the patch's) at `level`.
pub fn same(level: Level, line: &str, want: &str) -> bool {
    key(level, line) == key(level, want)
}

/// Typographic punctuation as the ASCII a model types for it (the set
/// Codex's last pass normalises).
fn as_ascii(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{2018}'..='\u{201B}' => '\'',
        '\u{201C}'..='\u{201F}' => '"',
        '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        other => other,
    }
}

/// Where `pattern` is in `lines` at or after `start`. With
/// `end_of_file` it must end the file. With `unique`, a run that appears
/// more than once at the first level that finds it is [`Seek::Ambiguous`].
pub fn seek<L: Lines + ?Sized>(
    lines: &L,
    pattern: &[&str],
    start: usize,
    end_of_file: bool,
    unique: bool,
    watch: &Watch,
) -> Result<Seek> {
    let count = lines.count();
    if pattern.len() > count {
        return Ok(Seek::Missing);
    }
    let last = count - pattern.len();
    let first = if end_of_file { last } else { start };
    if first > last {
        return Ok(Seek::Missing);
    }
    for level in LEVELS {
        let want: Vec<Cow<'_, str>> = pattern.iter().map(|line| key(level, line)).collect();
        let file = |i: usize| key(level, lines.line(i));
        let places = if end_of_file {
            let here = (0..want.len()).all(|k| file(last + k) == want[k]);
            Places {
                first: here.then_some(last).into_iter().collect(),
                count: usize::from(here),
            }
        } else {
            match find_all(first..count, &file, &want, unique, watch)? {
                Some(places) => places,
                None => return Ok(Seek::OutOfTime),
            }
        };
        match places.count {
            0 => continue,
            1 => {
                return Ok(Seek::Found {
                    at: places.first[0],
                    level,
                })
            }
            _ if !unique => {
                return Ok(Seek::Found {
                    at: places.first[0],
                    level,
                })
            }
            count => {
                return Ok(Seek::Ambiguous {
                    at: places.first,
                    count,
                })
            }
        }
    }
    Ok(Seek::Missing)
}

/// The places a run was found: how many, and the first [`NAMED_PLACES`].
struct Places {
    first: Vec<usize>,
    count: usize,
}

/// Every place (overlapping ones too) where `want` is in the file's keys
/// at lines `range`, by Knuth-Morris-Pratt over lines: each file line's key
/// made once, and at most 2 x (lines + want) comparisons of two keys, each
/// stopping at their first difference (their lengths first). Without `all`
/// it stops at the first place. `None` past the deadline.
fn find_all<'k>(
    range: std::ops::Range<usize>,
    file: &impl Fn(usize) -> Cow<'k, str>,
    want: &[Cow<'_, str>],
    all: bool,
    watch: &Watch,
) -> Result<Option<Places>> {
    let mut places = Places {
        first: Vec::new(),
        count: 0,
    };
    if want.is_empty() {
        // Every start matches an empty run, as the per-start scan had it.
        places.count = range.len() + 1;
        places.first = (range.start..)
            .take(places.count.min(NAMED_PLACES))
            .collect();
        return Ok(Some(places));
    }
    // fallback[k]: the length of the longest proper prefix of want[..=k]
    // that is also its suffix.
    let mut fallback = vec![0usize; want.len()];
    let mut matched = 0;
    for k in 1..want.len() {
        if watch.out_of_time_at(k)? {
            return Ok(None);
        }
        while matched > 0 && want[k] != want[matched] {
            matched = fallback[matched - 1];
        }
        if want[k] == want[matched] {
            matched += 1;
        }
        fallback[k] = matched;
    }
    matched = 0;
    for (step, i) in range.enumerate() {
        if watch.out_of_time_at(step)? {
            return Ok(None);
        }
        let line = file(i);
        while matched > 0 && line != want[matched] {
            matched = fallback[matched - 1];
        }
        if line == want[matched] {
            matched += 1;
        }
        if matched == want.len() {
            places.count += 1;
            if places.first.len() < NAMED_PLACES {
                places.first.push(i + 1 - want.len());
            }
            if !all {
                break;
            }
            matched = fallback[matched - 1];
        }
    }
    Ok(Some(places))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(lines: &[&str], pattern: &[&str], start: usize, eof: bool) -> Seek {
        let cancel = Cancel::new();
        seek(
            lines,
            pattern,
            start,
            eof,
            true,
            &Watch::cancel_only(&cancel),
        )
        .unwrap()
    }

    /// Two lines compared at `level` as the per-start search compared them,
    /// written apart from [`key`] so the test checks it too.
    fn compared(level: Level, line: &str, want: &str) -> bool {
        match level {
            Level::Exact => line == want,
            Level::TrailingSpace => line.trim_end() == want.trim_end(),
            Level::Spaces => line.trim() == want.trim(),
            Level::Punctuation => line
                .trim()
                .chars()
                .map(as_ascii)
                .eq(want.trim().chars().map(as_ascii)),
        }
    }

    /// The search as Codex makes it (every start, every line, every level),
    /// that [`seek`] must agree with.
    fn scan(lines: &[&str], pattern: &[&str], start: usize, eof: bool, unique: bool) -> Seek {
        if pattern.len() > lines.len() {
            return Seek::Missing;
        }
        let last = lines.len() - pattern.len();
        let first = if eof { last } else { start };
        if first > last {
            return Seek::Missing;
        }
        for level in LEVELS {
            let found: Vec<usize> = (first..=last)
                .filter(|&i| {
                    pattern
                        .iter()
                        .enumerate()
                        .all(|(k, want)| compared(level, lines[i + k], want))
                })
                .collect();
            match found.len() {
                0 => continue,
                1 => {
                    return Seek::Found {
                        at: found[0],
                        level,
                    }
                }
                _ if !unique => {
                    return Seek::Found {
                        at: found[0],
                        level,
                    }
                }
                count => {
                    return Seek::Ambiguous {
                        at: found.into_iter().take(NAMED_PLACES).collect(),
                        count,
                    }
                }
            }
        }
        Seek::Missing
    }

    #[test]
    fn agrees_with_the_scan_at_every_start_on_random_files() {
        // Few distinct lines, so runs repeat, overlap and differ only in
        // spaces or punctuation.
        const WORDS: [&str; 8] = [
            "a",
            "a ",
            " a",
            "b",
            "\u{2014}",
            "-",
            "\u{a0}-\t",
            " \u{2212}",
        ];
        let mut rng = fastrand::Rng::with_seed(38);
        let cancel = Cancel::new();
        for _ in 0..3000 {
            let lines: Vec<&str> = (0..rng.usize(0..24))
                .map(|_| WORDS[rng.usize(0..WORDS.len())])
                .collect();
            let pattern: Vec<&str> = (0..rng.usize(1..5))
                .map(|_| WORDS[rng.usize(0..WORDS.len())])
                .collect();
            let start = rng.usize(0..=lines.len() + 1);
            let (eof, unique) = (rng.bool(), rng.bool());
            let got = seek(
                &lines[..],
                &pattern,
                start,
                eof,
                unique,
                &Watch::cancel_only(&cancel),
            )
            .unwrap();
            assert_eq!(
                got,
                scan(&lines, &pattern, start, eof, unique),
                "{lines:?} {pattern:?} from {start}, eof {eof}, unique {unique}"
            );
        }
    }

    #[test]
    fn a_long_run_that_almost_matches_everywhere_is_missing() {
        // The stall, smaller: every start matches all but the last line.
        let lines = vec!["a"; 4000];
        let mut pattern = vec!["a"; 1999];
        pattern.push("b");
        assert_eq!(find(&lines, &pattern, 0, false), Seek::Missing);
        pattern[1999] = "a";
        assert_eq!(
            find(&lines, &pattern, 0, false),
            Seek::Ambiguous {
                at: vec![0, 1, 2, 3, 4],
                count: 2001
            }
        );
    }

    #[test]
    fn stops_at_the_deadline() {
        let lines = ["a"; 10];
        let cancel = Cancel::new();
        let past = Watch {
            cancel: &cancel,
            deadline: Some(Instant::now()),
        };
        assert_eq!(
            seek(&lines[..], &["a", "b"], 0, false, true, &past).unwrap(),
            Seek::OutOfTime
        );
        assert_eq!(
            seek(
                &lines[..],
                &["a", "a"],
                8,
                false,
                true,
                &Watch::cancel_only(&cancel)
            )
            .unwrap(),
            Seek::Found {
                at: 8,
                level: Level::Exact
            }
        );
    }

    #[test]
    fn exact_first_then_each_leniency_in_turn() {
        let lines = ["foo   ", "  bar\t", "“quoted” — dash", "foo"];
        assert_eq!(
            find(&lines, &["foo"], 0, false),
            Seek::Found {
                at: 3,
                level: Level::Exact
            }
        );
        assert_eq!(
            find(&lines, &["foo", "  bar"], 0, false),
            Seek::Found {
                at: 0,
                level: Level::TrailingSpace
            }
        );
        assert_eq!(
            find(&lines, &["bar"], 0, false),
            Seek::Found {
                at: 1,
                level: Level::Spaces
            }
        );
        assert_eq!(
            find(&lines, &["\"quoted\" - dash"], 0, false),
            Seek::Found {
                at: 2,
                level: Level::Punctuation
            }
        );
        assert_eq!(find(&lines, &["nothing"], 0, false), Seek::Missing);
    }

    #[test]
    fn searches_from_start_and_anchors_at_the_end() {
        let lines = ["a", "b", "a", "b"];
        assert_eq!(
            find(&lines, &["a", "b"], 1, false),
            Seek::Found {
                at: 2,
                level: Level::Exact
            }
        );
        assert_eq!(
            find(&lines, &["a"], 0, true),
            Seek::Missing,
            "the file ends with b"
        );
        assert_eq!(
            find(&lines, &["a", "b"], 0, true),
            Seek::Found {
                at: 2,
                level: Level::Exact
            }
        );
    }

    #[test]
    fn two_places_are_ambiguous_unless_the_first_is_wanted() {
        let lines = ["x", "end", "y", "end", "end"];
        assert_eq!(
            find(&lines, &["end"], 0, false),
            Seek::Ambiguous {
                at: vec![1, 3, 4],
                count: 3
            }
        );
        let cancel = Cancel::new();
        assert_eq!(
            seek(
                &lines[..],
                &["end"],
                0,
                false,
                false,
                &Watch::cancel_only(&cancel)
            )
            .unwrap(),
            Seek::Found {
                at: 1,
                level: Level::Exact
            }
        );
        // An exact match is not made ambiguous by a lenient one elsewhere.
        assert_eq!(
            find(&["end ", "end"], &["end"], 0, false),
            Seek::Found {
                at: 1,
                level: Level::Exact
            }
        );
    }

    #[test]
    fn a_pattern_longer_than_the_file_is_missing() {
        assert_eq!(find(&["one"], &["one", "two"], 0, false), Seek::Missing);
        assert_eq!(find(&[], &["one"], 0, true), Seek::Missing);
        assert_eq!(find(&["one"], &["one"], 1, false), Seek::Missing);
    }

    #[test]
    fn stops_when_cancelled() {
        let lines = ["x"; 10];
        let cancel = Cancel::new();
        cancel.cancel();
        let watch = Watch::cancel_only(&cancel);
        assert!(seek(&lines[..], &["y"], 0, false, true, &watch)
            .unwrap_err()
            .is_cancelled());
    }
}
