//! Type0 fonts whose predefined CMap is a legacy CJK encoding: Shift-JIS
//! (`90ms-RKSJ-H` and the other `RKSJ` maps), EUC-JP, GBK, Big5, UHC, and
//! the raw 7-bit JIS, GB and KSC codes of `H`, `V`, `GB-H` and `KSC-H`;
//! and the Unicode ones whose codes are UTF-8 (`UniJIS-UTF8-H`) or UTF-32
//! (`UniGB-UTF32-V`). Their codes are the text's own bytes in that
//! encoding, so encoding_rs reads them directly, where pdftotext needs
//! Adobe's code-to-CID CMaps (poppler-data) and a CID-to-Unicode table on
//! top.

use std::borrow::Cow;

use encoding_rs::{Encoding, BIG5, EUC_JP, EUC_KR, GBK, SHIFT_JIS, UTF_8};

#[derive(Clone, Copy, Debug)]
pub struct Legacy {
    encoding: &'static Encoding,
    /// Codes are 7-bit pairs (JIS X 0208, GB 2312, KS X 1001 as in ISO
    /// 2022), the EUC bytes less 0x80 each.
    seven_bit: bool,
    /// Codes are four bytes, each a code point (UTF-32).
    utf32: bool,
}

impl Legacy {
    /// The encoding of the predefined CMap `name`, if it is a legacy one.
    pub fn named(name: &[u8]) -> Option<Legacy> {
        let name = std::str::from_utf8(name).ok()?;
        let base = match name {
            "H" | "V" => "",
            _ => name
                .strip_suffix("-H")
                .or_else(|| name.strip_suffix("-V"))?,
        };
        if base.starts_with("Uni") && (base.ends_with("-UTF8") || base.ends_with("-UTF32")) {
            return Some(Legacy {
                encoding: UTF_8,
                seven_bit: false,
                utf32: base.ends_with("-UTF32"),
            });
        }
        let (encoding, seven_bit) = if base.contains("RKSJ") {
            (SHIFT_JIS, false)
        } else if base.contains("B5") {
            (BIG5, false)
        } else if base.contains("UHC") || base.starts_with("KSC") && base.contains("EUC") {
            (EUC_KR, false)
        } else if base.starts_with("GB") && base.contains("EUC") || base.starts_with("GBK") {
            (GBK, false)
        } else if matches!(base, "EUC" | "78-EUC") {
            (EUC_JP, false)
        } else if base == "KSC" {
            (EUC_KR, true)
        } else if base == "GB" {
            (GBK, true)
        } else if matches!(base, "" | "Add" | "Ext" | "78") {
            (EUC_JP, true)
        } else {
            return None;
        };
        Some(Legacy {
            encoding,
            seven_bit,
            utf32: false,
        })
    }

    /// How many bytes the code starting with `first` takes.
    pub fn code_len(self, first: u8) -> usize {
        if self.seven_bit {
            return 2;
        }
        if self.utf32 {
            return 4;
        }
        if self.encoding == UTF_8 {
            // The lead byte says how many follow; a stray one stands alone.
            return match first {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => 1,
            };
        }
        let two = if self.encoding == SHIFT_JIS {
            matches!(first, 0x81..=0x9F | 0xE0..=0xFC)
        } else if self.encoding == EUC_JP {
            if first == 0x8F {
                return 3;
            }
            matches!(first, 0x8E | 0xA1..=0xFE)
        } else {
            matches!(first, 0x81..=0xFE)
        };
        if two {
            2
        } else {
            1
        }
    }

    /// The text of a code of `len` bytes, or None when the encoding has no
    /// character for it.
    pub fn text(self, code: u32, len: usize) -> Option<Cow<'static, str>> {
        if self.utf32 {
            let c = char::from_u32(code).filter(|c| !c.is_control())?;
            return Some(Cow::Owned(c.to_string()));
        }
        let mut bytes: Vec<u8> = (0..len.min(4))
            .rev()
            .map(|k| (code >> (8 * k)) as u8)
            .collect();
        if self.seven_bit {
            if bytes.iter().any(|b| !(0x21..=0x7E).contains(b)) {
                return None;
            }
            bytes.iter_mut().for_each(|b| *b |= 0x80);
        }
        self.encoding
            .decode_without_bom_handling_and_without_replacement(&bytes)
            .map(|text| Cow::Owned(text.into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, bytes: &[u8]) -> String {
        let legacy = Legacy::named(name.as_bytes()).unwrap();
        let mut out = String::new();
        let mut i = 0;
        while i < bytes.len() {
            let len = legacy.code_len(bytes[i]).min(bytes.len() - i);
            let code = bytes[i..i + len]
                .iter()
                .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
            out.push_str(&legacy.text(code, len).unwrap_or(Cow::Borrowed("\u{FFFD}")));
            i += len;
        }
        out
    }

    #[test]
    fn reads_each_legacy_encoding() {
        let (sjis, _, _) = SHIFT_JIS.encode("日本語 abc");
        assert_eq!(read("90ms-RKSJ-H", &sjis), "日本語 abc");
        assert_eq!(read("90ms-RKSJ-V", &sjis), "日本語 abc");
        let (euc, _, _) = EUC_JP.encode("日本");
        assert_eq!(read("EUC-H", &euc), "日本");
        let jis: Vec<u8> = euc.iter().map(|b| b & 0x7F).collect();
        assert_eq!(read("H", &jis), "日本");
        assert_eq!(read("V", &jis), "日本");
        let (gbk, _, _) = GBK.encode("中文");
        assert_eq!(read("GBK-EUC-H", &gbk), "中文");
        assert_eq!(read("GB-EUC-V", &gbk), "中文");
        let (big5, _, _) = BIG5.encode("中文");
        assert_eq!(read("ETen-B5-H", &big5), "中文");
        let (uhc, _, _) = EUC_KR.encode("한국어");
        assert_eq!(read("KSCms-UHC-H", &uhc), "한국어");
        assert_eq!(read("UniJIS-UTF8-H", "日本 a𠮷".as_bytes()), "日本 a𠮷");
        let utf32: Vec<u8> = "日本 a𠮷"
            .chars()
            .flat_map(|c| (c as u32).to_be_bytes())
            .collect();
        assert_eq!(read("UniGB-UTF32-V", &utf32), "日本 a𠮷");
    }

    #[test]
    fn leaves_other_cmaps_alone() {
        for name in [
            "Identity-H",
            "Identity-V",
            "UniJIS-UCS2-H",
            "Custom",
            "",
            "CNS-EUC-H",
        ] {
            assert!(Legacy::named(name.as_bytes()).is_none(), "{name}");
        }
    }

    #[test]
    fn a_code_with_no_character_has_no_text() {
        let legacy = Legacy::named(b"H").unwrap();
        assert!(legacy.text(0x0102, 2).is_none());
        assert!(legacy.text(0xFFFF_FFFF, 9).is_none());
    }
}
