//! The Unicode text of CIDs in Adobe's four CJK character collections
//! (Adobe-Japan1, -GB1, -CNS1, -Korea1), for CID fonts that name one in
//! `/CIDSystemInfo` and show CIDs directly (Identity-H or -V) with no
//! ToUnicode map, as many Japanese and Chinese PDFs do. The tables come
//! from Adobe's `Adobe-*-UCS2` CMaps (BSD-3-Clause, `data/LICENSE-Adobe-cmap-resources`),
//! made by `data/make_adobe_tables`: one u16 per CID, compressed, about
//! 150 KB in all, inflated on first use.

use std::io::Read;
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collection {
    Japan1,
    Gb1,
    Cns1,
    Korea1,
}

impl Collection {
    /// The collection named by a CID font's `/Registry` and `/Ordering`.
    pub fn named(registry: &[u8], ordering: &[u8]) -> Option<Collection> {
        if registry != b"Adobe" {
            return None;
        }
        match ordering {
            b"Japan1" => Some(Collection::Japan1),
            b"GB1" => Some(Collection::Gb1),
            b"CNS1" => Some(Collection::Cns1),
            b"Korea1" => Some(Collection::Korea1),
            _ => None,
        }
    }

    /// The character of `cid`, if the collection has one.
    pub fn text(self, cid: u32) -> Option<char> {
        static TABLES: [OnceLock<Vec<u16>>; 4] = [const { OnceLock::new() }; 4];
        let (slot, packed): (usize, &[u8]) = match self {
            Collection::Japan1 => (0, include_bytes!("../data/Adobe-Japan1.u16.z")),
            Collection::Gb1 => (1, include_bytes!("../data/Adobe-GB1.u16.z")),
            Collection::Cns1 => (2, include_bytes!("../data/Adobe-CNS1.u16.z")),
            Collection::Korea1 => (3, include_bytes!("../data/Adobe-Korea1.u16.z")),
        };
        let table = TABLES[slot].get_or_init(|| {
            let mut bytes = Vec::new();
            // Our own data, written by data/make_adobe_tables: it inflates.
            let _ = flate2::read::ZlibDecoder::new(packed)
                .take(1 << 20)
                .read_to_end(&mut bytes);
            bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect()
        });
        let unit = *table.get(cid as usize)?;
        char::from_u32(u32::from(unit)).filter(|_| unit != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_collection() {
        // Hiragana "a" in Japan1, and each collection's ASCII "A" at CID 34.
        assert_eq!(Collection::Japan1.text(843), Some('あ'));
        for c in [
            Collection::Japan1,
            Collection::Gb1,
            Collection::Cns1,
            Collection::Korea1,
        ] {
            assert_eq!(c.text(34), Some('A'));
        }
        assert_eq!(Collection::Korea1.text(1 << 20), None);
        assert_eq!(Collection::named(b"Adobe", b"Identity"), None);
    }
}
