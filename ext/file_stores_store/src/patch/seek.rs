//! Finding a hunk's lines in a file, as Codex's `seek_sequence` does: from
//! a starting line on, first exactly, then ignoring trailing whitespace,
//! then ignoring leading and trailing whitespace, then also reading
//! typographic punctuation (curly quotes, dashes, odd spaces) as ASCII. The
//! first level at which the lines appear decides.
//!
//! Unlike Codex, which takes the first place found, [`seek`] can refuse a
//! run that appears in more than one place at that level (`unique`): a
//! patch written against one place must not land on another by chance.

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

/// How many starting lines are tried between looks at `cancel`.
const STARTS_PER_CHECK: usize = 4096;

/// Where `pattern` is in `lines` at or after `start`. With `end_of_file`
/// it must end the file. With `unique`, a run that appears more than once
/// at the first level that finds it is [`Seek::Ambiguous`].
pub fn seek<L: Lines + ?Sized>(
    lines: &L,
    pattern: &[&str],
    start: usize,
    end_of_file: bool,
    unique: bool,
    cancel: &Cancel,
) -> Result<Seek> {
    if pattern.len() > lines.count() {
        return Ok(Seek::Missing);
    }
    let last = lines.count() - pattern.len();
    let first = if end_of_file { last } else { start };
    if first > last {
        return Ok(Seek::Missing);
    }
    for level in LEVELS {
        let mut found: Vec<usize> = Vec::new();
        let mut count = 0;
        for (n, i) in (first..=last).enumerate() {
            if n % STARTS_PER_CHECK == 0 {
                cancel.check()?;
            }
            let matches = pattern
                .iter()
                .enumerate()
                .all(|(k, want)| same(level, lines.line(i + k), want));
            if matches {
                count += 1;
                if !unique {
                    return Ok(Seek::Found { at: i, level });
                }
                if found.len() < NAMED_PLACES {
                    found.push(i);
                }
            }
        }
        match count {
            0 => continue,
            1 => {
                return Ok(Seek::Found {
                    at: found[0],
                    level,
                })
            }
            _ => return Ok(Seek::Ambiguous { at: found, count }),
        }
    }
    Ok(Seek::Missing)
}

/// Whether `line` (the file's) is `want` (the patch's) at `level`.
pub fn same(level: Level, line: &str, want: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn find(lines: &[&str], pattern: &[&str], start: usize, eof: bool) -> Seek {
        seek(lines, pattern, start, eof, true, &Cancel::new()).unwrap()
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
        assert_eq!(
            seek(&lines[..], &["end"], 0, false, false, &Cancel::new()).unwrap(),
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
        assert!(seek(&lines[..], &["y"], 0, false, true, &cancel)
            .unwrap_err()
            .is_cancelled());
    }
}
