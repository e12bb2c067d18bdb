//! The glyphs placed on a page so far, to drop one drawn again on top of
//! itself anywhere later on the page, as pdftotext drops duplicated text
//! (fake bold, drop shadows, a block a generator writes twice): the same
//! text starting within 0.1 em across and along.
//!
//! A grid keyed by the text and a cell at least twice the tolerance wide
//! finds the candidates in at most four cells, so a page costs time in
//! proportion to its glyphs, however far apart in drawing order the copies
//! are (a window of the latest glyphs missed a block of 500 drawn again).
//! The cell's size is the tolerance's power of two, part of the key, so
//! glyphs of about the same size meet. At most [`MAX_SEEN`] glyphs are
//! kept; past them a repeat is no longer found.
//!
//! Far out (a glyph at x = 1e20 with a tolerance of 1) the cell's index
//! would pass what an `i64` holds and every glyph would share one cell,
//! each compared with all before it: such a glyph is keyed by its exact
//! position, a copy found only exactly on top of it. And a cell keeps at
//! most [`MAX_PER_CELL`] glyphs (one twice the tolerance wide holds about
//! nine that are not copies of each other; more only where the cell size
//! is clamped), so a glyph is compared with at most 4 x that many.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// The most glyphs one page remembers.
const MAX_SEEN: usize = 1 << 17;

/// The most glyphs one cell keeps.
const MAX_PER_CELL: usize = 16;

/// Where a cell's index stops being exact: past 2^62 cells from the
/// origin a glyph is keyed by its position.
const MAX_INDEX: f64 = 4.611_686_018_427_388e18;

/// A cell: the text's hash, the cell size's exponent, the cell.
type Key = (u64, i32, i64, i64);

/// The exponent that marks a key made of a position's exact bits.
const EXACT: i32 = i32::MIN;

#[derive(Default)]
pub(crate) struct Seen {
    cells: HashMap<Key, Vec<[f64; 2]>>,
    count: usize,
}

impl Seen {
    /// True when `text` was placed before within `near` of `start`;
    /// otherwise remembers it.
    pub(crate) fn repeat(&mut self, start: [f64; 2], near: f64, text: &str) -> bool {
        if !(near.is_finite() && start[0].is_finite() && start[1].is_finite()) {
            return false;
        }
        let mut h = DefaultHasher::new();
        text.hash(&mut h);
        let hash = h.finish();
        // The cell is at least 2 * near wide: the square within `near` of
        // `start` meets at most two cells along each axis.
        let exp = (2.0 * near).log2().ceil().clamp(-30.0, 60.0) as i32;
        let cell = 2f64.powi(exp);
        let index = |v: f64| (v / cell).floor();
        let (x0, x1) = (index(start[0] - near), index(start[0] + near));
        let (y0, y1) = (index(start[1] - near), index(start[1] + near));
        if [x0, x1, y0, y1].iter().any(|i| i.abs() >= MAX_INDEX) {
            // Far out: only the same position is a copy.
            let key = (
                hash,
                EXACT,
                start[0].to_bits() as i64,
                start[1].to_bits() as i64,
            );
            return self.remember(key, start, true);
        }
        let (x0, x1, y0, y1) = (x0 as i64, x1 as i64, y0 as i64, y1 as i64);
        for cx in [x0, x1] {
            for cy in [y0, y1] {
                let found = self.cells.get(&(hash, exp, cx, cy)).is_some_and(|v| {
                    v.iter()
                        .any(|p| (p[0] - start[0]).abs() < near && (p[1] - start[1]).abs() < near)
                });
                if found {
                    return true;
                }
            }
        }
        let key = (hash, exp, index(start[0]) as i64, index(start[1]) as i64);
        self.remember(key, start, false)
    }

    /// Keeps `start` in the cell `key` if there is room; with `exact`,
    /// true (a copy) when the cell holds it already.
    fn remember(&mut self, key: Key, start: [f64; 2], exact: bool) -> bool {
        let held = self.cells.get(&key).map_or(0, Vec::len);
        if exact && held > 0 {
            return true;
        }
        if self.count < MAX_SEEN && held < MAX_PER_CELL {
            self.count += 1;
            self.cells.entry(key).or_default().push(start);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_repeat_far_back_and_keeps_neighbours() {
        let mut seen = Seen::default();
        for i in 0..1000 {
            assert!(!seen.repeat([i as f64 * 6.0, 100.0], 1.0, "a"));
        }
        // Each of them again, a little off, is found.
        assert!(seen.repeat([0.5, 100.5], 1.0, "a"));
        assert!(seen.repeat([5994.7, 99.2], 1.0, "a"));
        // Another letter there, or the same one an em away, is not.
        assert!(!seen.repeat([0.0, 100.0], 1.0, "b"));
        assert!(!seen.repeat([3.0, 100.0], 1.0, "a"));
        assert!(!seen.repeat([0.0, 110.0], 1.0, "a"));
    }

    #[test]
    fn keys_glyphs_past_the_grid_by_their_position() {
        let mut seen = Seen::default();
        // 1e16 apart from 1e20: every cell index would saturate to one.
        for i in 0..100_000 {
            assert!(!seen.repeat([1e20 + i as f64 * 1e16, 100.0], 1.0, "a"));
        }
        assert!(seen.repeat([1e20, 100.0], 1.0, "a"));
        assert!(seen.cells.values().all(|c| c.len() == 1));
    }

    #[test]
    fn keeps_a_bounded_number_of_glyphs_in_one_cell() {
        let mut seen = Seen::default();
        // A tolerance below the smallest cell: all of them in one cell.
        for i in 0..1000 {
            seen.repeat([i as f64 * 1e-10, 0.0], 1e-11, "a");
        }
        assert!(seen.cells.values().all(|c| c.len() <= MAX_PER_CELL));
    }
}
