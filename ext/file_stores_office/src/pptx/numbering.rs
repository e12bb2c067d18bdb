//! Automatic paragraph numbers (`a:buAutoNum`) as PowerPoint shows them.
//!
//! A scheme name is a numeral style and a punctuation: `arabicPeriod` is
//! `1.`, `alphaLcParenR` is `a)`, `romanUcParenBoth` is `(I)`. Numeral styles
//! that need East Asian, Hebrew, Arabic or Thai digits fall back to arabic
//! ones with the scheme's punctuation, which keeps the count readable.

use crate::numerals;
/// The numbering state of one text frame: the next number at each level.
#[derive(Default)]
pub struct Counters {
    levels: Vec<Option<(String, u32)>>,
}

impl Counters {
    /// The label of a numbered paragraph at `level`. A run continues while
    /// paragraphs at that level keep the same scheme; deeper levels restart
    /// once a shallower paragraph comes between.
    pub fn next(&mut self, level: usize, scheme: &str, start_at: u32) -> String {
        self.levels.truncate(level + 1);
        if self.levels.len() <= level {
            self.levels.resize(level + 1, None);
        }
        let n = match &self.levels[level] {
            Some((s, next)) if s == scheme => *next,
            _ => start_at,
        };
        self.levels[level] = Some((scheme.to_owned(), n.saturating_add(1)));
        label(scheme, n)
    }

    /// A paragraph at `level` without a number: runs at it and deeper end.
    pub fn interrupt(&mut self, level: usize) {
        self.levels.truncate(level);
    }
}

/// The label of number `n` in `scheme`.
pub fn label(scheme: &str, n: u32) -> String {
    let numeral = if scheme.starts_with("alphaLc") {
        alpha(n, b'a')
    } else if scheme.starts_with("alphaUc") {
        alpha(n, b'A')
    } else if scheme.starts_with("romanLc") {
        roman(n).to_ascii_lowercase()
    } else if scheme.starts_with("romanUc") {
        roman(n)
    } else {
        n.to_string()
    };
    if scheme.ends_with("ParenBoth") {
        format!("({numeral})")
    } else if scheme.ends_with("ParenR") {
        format!("{numeral})")
    } else if scheme.ends_with("Plain") {
        numeral
    } else if scheme.ends_with("Minus") {
        format!("{numeral} -")
    } else {
        format!("{numeral}.")
    }
}

/// `a`..`z`, then `aa`..`zz`, `aaa`...: PowerPoint repeats the letter.
fn alpha(n: u32, base: u8) -> String {
    match numerals::letters(u64::from(n), 100) {
        Some(s) if base == b'A' => s.to_ascii_uppercase(),
        Some(s) => s,
        None => n.to_string(),
    }
}

/// Roman numerals up to 3999; past that, digits.
fn roman(n: u32) -> String {
    numerals::roman(u64::from(n)).unwrap_or_else(|| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_by_scheme() {
        assert_eq!(label("arabicPeriod", 3), "3.");
        assert_eq!(label("arabicParenR", 2), "2)");
        assert_eq!(label("arabicParenBoth", 1), "(1)");
        assert_eq!(label("arabicPlain", 7), "7");
        assert_eq!(label("alphaLcParenR", 1), "a)");
        assert_eq!(label("alphaUcPeriod", 28), "BB.");
        assert_eq!(label("romanUcPeriod", 4), "IV.");
        assert_eq!(label("romanLcParenBoth", 9), "(ix)");
        assert_eq!(label("circleNumDbPlain", 2), "2");
        assert_eq!(label("ea1JpnChsDbPeriod", 2), "2.");
    }

    #[test]
    fn runs_continue_restart_and_nest() {
        let mut c = Counters::default();
        assert_eq!(c.next(0, "arabicPeriod", 1), "1.");
        assert_eq!(c.next(1, "alphaLcPeriod", 1), "a.");
        assert_eq!(c.next(1, "alphaLcPeriod", 1), "b.");
        assert_eq!(c.next(0, "arabicPeriod", 1), "2.");
        assert_eq!(c.next(1, "alphaLcPeriod", 1), "a.");
        c.interrupt(0);
        assert_eq!(c.next(0, "arabicPeriod", 5), "5.");
        assert_eq!(c.next(0, "romanUcPeriod", 1), "I.");
    }
}
