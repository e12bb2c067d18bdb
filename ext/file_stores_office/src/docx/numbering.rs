//! Word's list numbering (`word/numbering.xml`) and the labels it shows.
//!
//! A paragraph names a `num` (its `numId`) and a level (`ilvl`, 0..8). The
//! `num` points at an `abstractNum`, whose `lvl`s give each level's start,
//! number format, label text (`%1.%2` names the current values of levels 1
//! and 2) and restart rule; the `num` may override a level's start
//! (`lvlOverride/startOverride`) or the whole level (`lvlOverride/lvl`).
//!
//! Counters belong to the `abstractNum` (ECMA-376 Part 1, 17.9), as in Word:
//! every `num` pointing at it continues one count, whatever it overrides (a
//! list interrupted by other paragraphs, or continued under another `numId`,
//! keeps counting). A `startOverride` restarts that count at its value, the
//! first time its `num` is used at that level; an overriding `lvl` only
//! changes how the level looks (its own `start` counts only for a level not
//! yet begun). Using a level resets the deeper levels, unless a deeper
//! level's `lvlRestart` says otherwise (`0`: never; `n`: only when level `n`
//! or a shallower one is used).
//!
//! A level's text (`lvlText`) is cut to [`MAX_LEVEL_TEXT`] characters, as
//! Word's own dialog limits it, so a hostile label cannot multiply the output.

use crate::numerals;
use std::collections::{HashMap, HashSet};

use file_stores_base::cancel::Cancel;
use file_stores_base::error::Result;

use super::styles::Styles;
use super::{under, walk};

const LEVELS: usize = 9;

/// The most characters of a level's `lvlText` kept.
pub(super) const MAX_LEVEL_TEXT: usize = 255;

#[derive(Debug, Default, Clone)]
struct Level {
    start: Option<i64>,
    format: Option<String>,
    text: Option<String>,
    restart: Option<i64>,
    style: Option<String>,
    legal: bool,
}

#[derive(Debug, Default)]
struct Abstract {
    levels: [Option<Level>; LEVELS],
    /// `numStyleLink`: the levels are those of the list style's numbering.
    link: Option<String>,
    /// The abstractNum whose counters this one uses (a resolved link).
    counters_of: Option<i64>,
}

#[derive(Debug, Default)]
struct Num {
    abstract_id: Option<i64>,
    starts: [Option<i64>; LEVELS],
    levels: [Option<Level>; LEVELS],
}

/// A list label as Word shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Label {
    pub text: String,
    pub bullet: bool,
}

/// The numbering definitions of a document, and the counters of the lists
/// met so far.
#[derive(Debug, Default)]
pub(super) struct Numbering {
    abstracts: HashMap<i64, Abstract>,
    nums: HashMap<i64, Num>,
    /// Counters by the abstractNum that owns them.
    counters: HashMap<i64, [Option<i64>; LEVELS]>,
    /// The (num, level) pairs whose `startOverride` has been applied.
    restarted: HashSet<(i64, usize)>,
}

/// Where the `lvl` being read goes.
#[derive(Clone, Copy)]
enum Owner {
    Abstract(i64),
    Num(i64),
}

fn int(value: Option<String>) -> Option<i64> {
    value.and_then(|v| v.trim().parse::<i64>().ok())
}

fn level_index(value: Option<String>) -> Option<usize> {
    int(value)
        .filter(|&i| (0..LEVELS as i64).contains(&i))
        .map(|i| i as usize)
}

impl Numbering {
    /// Reads `numbering.xml`.
    pub fn parse(bytes: &[u8], part: &str, cancel: &Cancel) -> Result<Numbering> {
        let mut numbering = Numbering::default();
        let mut abstract_id: Option<i64> = None;
        let mut num_id: Option<i64> = None;
        let mut override_level: Option<usize> = None;
        let mut level: Option<(Owner, usize)> = None;
        walk(bytes, part, cancel, |path, e| {
            let name = e.name();
            match name {
                b"abstractNum" => {
                    abstract_id = int(e.attr(b"abstractNumId"));
                    if let Some(id) = abstract_id {
                        numbering.abstracts.insert(id, Abstract::default());
                    }
                }
                b"num" if under(path, &[b"numbering"]) => {
                    num_id = int(e.attr(b"numId"));
                    if let Some(id) = num_id {
                        numbering.nums.insert(id, Num::default());
                    }
                }
                b"abstractNumId" if under(path, &[b"num"]) => {
                    if let Some(num) = num_id.and_then(|id| numbering.nums.get_mut(&id)) {
                        num.abstract_id = int(e.attr(b"val"));
                    }
                }
                b"numStyleLink" if under(path, &[b"abstractNum"]) => {
                    if let Some(a) = abstract_id.and_then(|id| numbering.abstracts.get_mut(&id)) {
                        a.link = e.attr(b"val");
                    }
                }
                b"lvlOverride" => override_level = level_index(e.attr(b"ilvl")),
                b"startOverride" if under(path, &[b"lvlOverride"]) => {
                    let num = num_id.and_then(|id| numbering.nums.get_mut(&id));
                    if let (Some(num), Some(i)) = (num, override_level) {
                        num.starts[i] = int(e.attr(b"val"));
                    }
                }
                b"lvl" => {
                    let index = level_index(e.attr(b"ilvl"));
                    level = None;
                    if under(path, &[b"abstractNum"]) {
                        if let (Some(id), Some(i)) = (abstract_id, index) {
                            level = Some((Owner::Abstract(id), i));
                        }
                    } else if under(path, &[b"lvlOverride"]) {
                        if let (Some(id), Some(i)) = (num_id, index.or(override_level)) {
                            level = Some((Owner::Num(id), i));
                        }
                    }
                    if let Some((owner, i)) = level {
                        if let Some(slot) = numbering.slot(owner, i) {
                            *slot = Some(Level::default());
                        }
                    }
                }
                _ if in_level(path) => {
                    let Some((owner, i)) = level else {
                        return Ok(());
                    };
                    let Some(Some(lvl)) = numbering.slot(owner, i) else {
                        return Ok(());
                    };
                    match name {
                        b"start" => lvl.start = int(e.attr(b"val")),
                        // A `custom` format (in mc:Choice) is followed by a
                        // standard one in mc:Fallback, which is used.
                        b"numFmt" if lvl.format.as_deref().is_none_or(|f| f == "custom") => {
                            lvl.format = e.attr(b"val");
                        }
                        b"lvlText" => {
                            lvl.text = e
                                .attr(b"val")
                                .map(|t| t.chars().take(MAX_LEVEL_TEXT).collect());
                        }
                        b"lvlRestart" => lvl.restart = int(e.attr(b"val")),
                        b"pStyle" => lvl.style = e.attr(b"val"),
                        b"isLgl" => lvl.legal = e.flag(),
                        _ => {}
                    }
                }
                _ => {}
            }
            Ok(())
        })?;
        Ok(numbering)
    }

    fn slot(&mut self, owner: Owner, i: usize) -> Option<&mut Option<Level>> {
        match owner {
            Owner::Abstract(id) => self.abstracts.get_mut(&id).map(|a| &mut a.levels[i]),
            Owner::Num(id) => self.nums.get_mut(&id).map(|n| &mut n.levels[i]),
        }
    }

    /// Resolves `numStyleLink`s: an abstractNum that only names a list style
    /// takes the levels (and shares the counters) of that style's list.
    pub fn link_styles(&mut self, styles: &Styles) {
        let links: Vec<(i64, String)> = self
            .abstracts
            .iter()
            .filter(|(_, a)| a.levels.iter().all(Option::is_none))
            .filter_map(|(&id, a)| a.link.clone().map(|l| (id, l)))
            .collect();
        for (id, style) in links {
            let Some(target) = styles
                .num_id(&style)
                .and_then(|n| self.nums.get(&n))
                .and_then(|n| n.abstract_id)
                .filter(|&t| t != id)
            else {
                continue;
            };
            let Some(levels) = self.abstracts.get(&target).map(|t| t.levels.clone()) else {
                continue;
            };
            if let Some(a) = self.abstracts.get_mut(&id) {
                a.levels = levels;
                a.counters_of = Some(target);
            }
        }
    }

    /// The level of a num whose `lvl` names this paragraph style, for
    /// paragraphs that take their numbering from a style without a level.
    pub fn level_for_style(&self, num_id: i64, style: &str) -> Option<usize> {
        let num = self.nums.get(&num_id)?;
        let abs = self.abstracts.get(&num.abstract_id?)?;
        (0..LEVELS).find(|&i| {
            num.levels[i]
                .as_ref()
                .or(abs.levels[i].as_ref())
                .and_then(|l| l.style.as_deref())
                == Some(style)
        })
    }

    /// Advances the list's counters for a paragraph at `ilvl` and gives its
    /// label; `None` when the num or level is not defined or shows nothing.
    pub fn label(&mut self, num_id: i64, ilvl: usize) -> Option<Label> {
        let ilvl = ilvl.min(LEVELS - 1);
        let num = self.nums.get(&num_id)?;
        let abstract_id = num.abstract_id?;
        let abs = self.abstracts.get(&abstract_id)?;
        let level = |i: usize| num.levels[i].as_ref().or(abs.levels[i].as_ref());
        let start = |i: usize| {
            num.starts[i]
                .or_else(|| level(i).and_then(|l| l.start))
                .unwrap_or(1)
        };
        let current = level(ilvl)?;
        let key = abs.counters_of.unwrap_or(abstract_id);
        let counters = self.counters.entry(key).or_insert([None; LEVELS]);
        let restart = num.starts[ilvl].filter(|_| self.restarted.insert((num_id, ilvl)));
        counters[ilvl] = Some(match (restart, counters[ilvl]) {
            (Some(value), _) => value,
            (None, Some(v)) => v.saturating_add(1),
            (None, None) => start(ilvl),
        });
        for (j, counter) in counters.iter_mut().enumerate().skip(ilvl + 1) {
            let restarts = match level(j).and_then(|l| l.restart) {
                None => true,
                Some(n) => (ilvl as i64) < n,
            };
            if restarts {
                *counter = None;
            }
        }
        let format = current.format.as_deref().unwrap_or("decimal");
        if format == "bullet" {
            return Some(Label {
                text: "-".into(),
                bullet: true,
            });
        }
        let template = current.text.as_deref().unwrap_or("");
        let mut text = String::new();
        let mut chars = template.chars().peekable();
        while let Some(c) = chars.next() {
            let digit = chars.peek().and_then(|d| d.to_digit(10));
            match digit {
                Some(d @ 1..=9) if c == '%' => {
                    chars.next();
                    let i = d as usize - 1;
                    let value = counters[i].unwrap_or_else(|| start(i));
                    let fmt = level(i)
                        .and_then(|l| l.format.as_deref())
                        .unwrap_or("decimal");
                    let fmt = if current.legal && fmt != "none" && fmt != "bullet" {
                        "decimal"
                    } else {
                        fmt
                    };
                    text.push_str(&format_number(value, fmt));
                }
                _ => text.push(c),
            }
        }
        let text = text.trim().to_owned();
        (!text.is_empty()).then_some(Label {
            text,
            bullet: false,
        })
    }
}

/// Whether the element is a property of a `lvl` (possibly inside the
/// `mc:AlternateContent` Word writes around custom number formats).
fn in_level(path: &[Vec<u8>]) -> bool {
    under(path, &[b"lvl"])
        || under(path, &[b"lvl", b"AlternateContent", b"Choice"])
        || under(path, &[b"lvl", b"AlternateContent", b"Fallback"])
}

/// A number in one of Word's formats. Formats with no plain-text form
/// (Chinese counting, circled numbers...) read as decimal.
pub(super) fn format_number(n: i64, format: &str) -> String {
    match format {
        "none" | "bullet" => String::new(),
        "decimalZero" if (0..10).contains(&n) => format!("0{n}"),
        "lowerLetter" => letters(n).unwrap_or_else(|| n.to_string()),
        "upperLetter" => letters(n).map_or_else(|| n.to_string(), |s| s.to_uppercase()),
        "lowerRoman" => roman(n).map_or_else(|| n.to_string(), |s| s.to_lowercase()),
        "upperRoman" => roman(n).unwrap_or_else(|| n.to_string()),
        "ordinal" => {
            let suffix = match (n % 10, n % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
        _ => n.to_string(),
    }
}

/// Word's letters: a..z, then aa..zz, aaa... (the letter repeated).
fn letters(n: i64) -> Option<String> {
    numerals::letters(u64::try_from(n).ok()?, 10)
}

fn roman(n: i64) -> Option<String> {
    numerals::roman(u64::try_from(n).ok()?)
}
