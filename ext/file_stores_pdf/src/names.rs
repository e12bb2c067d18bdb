//! Glyph names to text: the Adobe Glyph List's reading of a name
//! (`uni0041`, `f_f_i`, `eacute`), names that are numbers (`g80`, `C6f`)
//! read as pdftotext reads them, and the combining marks of spacing
//! accents.

use lopdf::Object;

/// The characters of a `/Differences` array whose glyph names are all
/// numbers, read as pdftotext reads them: `g80`, `ab80` or `80` (not `cid80`)
/// name the character U+0050 in decimal, or, when one name is a letter and
/// two hexadecimal digits with a letter among them (`C6f`), every name is
/// hexadecimal (`C50`, `4f`). Generators that write such names write every
/// glyph so, from a code at most 5; one name of another form, and the names
/// are names. Empty when the names are not numbers; control characters and
/// numbers past 255 (glyph ids, rather) are no text.
pub fn numbered_names(diffs: &[&Object]) -> Vec<Option<char>> {
    let names: Vec<&[u8]> = diffs
        .iter()
        .filter_map(|o| o.as_name().ok())
        .filter(|n| *n != b".notdef")
        .collect();
    let starts_low = diffs
        .iter()
        .all(|o| !matches!(o, Object::Integer(i) if *i > 5));
    if names.is_empty() || !starts_low {
        return Vec::new();
    }
    let hex = names.iter().any(|n| {
        n.len() == 3
            && n[0].is_ascii_alphabetic()
            && n[1..].iter().all(u8::is_ascii_hexdigit)
            && n[1..].iter().any(u8::is_ascii_alphabetic)
    });
    let mut out = vec![None; 256];
    let mut code = 0usize;
    for item in diffs {
        match item {
            Object::Integer(i) => code = (*i).clamp(0, 255) as usize,
            Object::Name(name) => {
                if name.as_slice() != b".notdef" {
                    let number = numeric_value(name, hex);
                    if number.is_none() {
                        return Vec::new();
                    }
                    if let Some(slot) = out.get_mut(code) {
                        // Beyond a byte the number is rather a glyph id.
                        *slot = number
                            .filter(|&n| n <= 0xFF)
                            .and_then(char::from_u32)
                            .filter(|c| !c.is_control() && *c != '\u{FFFD}');
                    }
                }
                code += 1;
            }
            _ => return Vec::new(),
        }
    }
    out
}

/// The number a generic glyph name carries (poppler's `parseNumericName`):
/// up to two letters then decimal digits, or, in `hex`, two hexadecimal
/// digits after at most one letter; trailing punctuation is allowed.
fn numeric_value(name: &[u8], hex: bool) -> Option<u32> {
    let (start, len, radix) = if hex {
        match name
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count()
        {
            3 if name[0].is_ascii_alphabetic() => (1, 2, 16),
            2 => (0, 2, 16),
            _ => return None,
        }
    } else {
        let letters = name
            .iter()
            .take(2)
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        let len = name[letters..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        (letters, len, 10)
    };
    // At most 8 digits: the value stays a u32.
    if len == 0 || len > 8 || name[start + len..].iter().any(u8::is_ascii_alphanumeric) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(&name[start..start + len]).ok()?, radix).ok()
}

/// Names such as `a97`, `g65` or `cid48` that carry the code itself, as some
/// generators of Type3 fonts write them: the code's text in the base
/// encoding, as pdftotext reads them.
pub fn numeric_name(name: &[u8], code: usize, base: &[Option<String>]) -> Option<String> {
    let digits = name.iter().position(u8::is_ascii_digit)?;
    if digits == 0 || digits > 3 || !name[..digits].iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let number = std::str::from_utf8(&name[digits..]).ok()?;
    // Decimal (`a97`) or hexadecimal (`C41`, `C2c`) naming the code itself.
    let n = [10, 16]
        .iter()
        .filter_map(|&radix| usize::from_str_radix(number, radix).ok())
        .find(|&n| n == code)?;
    if !(32..256).contains(&n) {
        return None;
    }
    // Codes the base encoding leaves empty read as Latin-1.
    base.get(n)
        .cloned()
        .flatten()
        .or_else(|| (n >= 0xa0).then(|| char::from(n as u8).to_string()))
}

/// The text of a glyph name as the Adobe Glyph List specification reads it:
/// what follows the first `.` is a variant suffix (`a.sc`), and `_` joins
/// components (`f_f_i`, `uni0066_uni0069`), each read by [`component_text`];
/// `None` when a component says nothing (`g12`, `cid7`).
pub fn glyph_text(name: &[u8]) -> Option<String> {
    let name = std::str::from_utf8(name).ok()?;
    let base = name.split('.').next().unwrap_or(name);
    if base.is_empty() {
        return None;
    }
    let mut out = String::new();
    for component in base.split('_') {
        out.push_str(&component_text(component)?);
    }
    Some(out)
}

/// One component of a glyph name: `uniXXXX`, `uXXXX`, a single letter or
/// digit, a common name (ligatures as their letters), or any name of the
/// Adobe Glyph List (`element`, `arrowright`, `Gamma`).
fn component_text(base: &str) -> Option<String> {
    if let Some(hex) = base.strip_prefix("uni") {
        if hex.len() >= 4 && hex.len() % 4 == 0 {
            let units: Option<Vec<u16>> = (0..hex.len())
                .step_by(4)
                .map(|i| u16::from_str_radix(&hex[i..i + 4], 16).ok())
                .collect();
            return units.map(|u| String::from_utf16_lossy(&u));
        }
    }
    if let Some(hex) = base.strip_prefix('u') {
        if (4..=6).contains(&hex.len()) {
            if let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                return Some(c.to_string());
            }
        }
    }
    if base.len() == 1 && base.as_bytes()[0].is_ascii_alphanumeric() {
        return Some(base.to_owned());
    }
    let text = match base {
        "space" | "nbspace" => " ",
        "zero" => "0",
        "one" => "1",
        "two" => "2",
        "three" => "3",
        "four" => "4",
        "five" => "5",
        "six" => "6",
        "seven" => "7",
        "eight" => "8",
        "nine" => "9",
        "period" => ".",
        "comma" => ",",
        "colon" => ":",
        "semicolon" => ";",
        "hyphen" => "-",
        "minus" => "\u{2212}",
        "endash" => "–",
        "emdash" => "—",
        "quoteright" => "’",
        "quotesingle" => "'",
        "quoteleft" => "‘",
        "quotedblleft" => "“",
        "quotedblright" => "”",
        "quotedbl" => "\"",
        "parenleft" => "(",
        "parenright" => ")",
        "bracketleft" => "[",
        "bracketright" => "]",
        "slash" => "/",
        "exclam" => "!",
        "question" => "?",
        "ampersand" => "&",
        "percent" => "%",
        "dollar" => "$",
        "asterisk" => "*",
        "plus" => "+",
        "equal" => "=",
        "less" => "<",
        "greater" => ">",
        "at" => "@",
        "numbersign" => "#",
        "underscore" => "_",
        "bullet" => "•",
        "fi" => "fi",
        "fl" => "fl",
        "ff" => "ff",
        "ffi" => "ffi",
        "ffl" => "ffl",
        "dotlessi" => "ı",
        "germandbls" => "ß",
        "AE" => "Æ",
        "ae" => "æ",
        "OE" => "Œ",
        "oe" => "œ",
        "oslash" => "ø",
        "Oslash" => "Ø",
        "copyright" => "©",
        "registered" => "®",
        "degree" => "°",
        "section" => "§",
        "paragraph" => "¶",
        "dagger" => "†",
        "ellipsis" => "…",
        _ => {
            return accented(base).or_else(|| {
                pdf_encoding::glyphname_to_unicode(base)
                    .filter(|t| !t.chars().any(|c| ('\u{E000}'..='\u{F8FF}').contains(&c)))
                    .map(str::to_owned)
            })
        }
    };
    Some(text.to_owned())
}

/// The combining mark of a glyph that is a spacing accent (¨ ´ ` ˆ ˜ ¸ ˚
/// ˇ ¯ ˙ ˝ ˘), poppler's list: an accent drawn over a letter, as TeX draws
/// `\"{\i}` (the accent, then the letter under it), is that letter's mark.
pub fn combining_mark(text: &str) -> Option<char> {
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    Some(match c {
        '`' => '\u{300}',
        '\u{A8}' => '\u{308}',
        '\u{AF}' => '\u{304}',
        '\u{B4}' => '\u{301}',
        '\u{B8}' => '\u{327}',
        '\u{2C6}' => '\u{302}',
        '\u{2C7}' => '\u{30C}',
        '\u{2D8}' => '\u{306}',
        '\u{2D9}' => '\u{307}',
        '\u{2DA}' => '\u{30A}',
        '\u{2DC}' => '\u{303}',
        '\u{2DD}' => '\u{30B}',
        _ => return None,
    })
}

/// Latin letters with an accent named the Adobe way (`eacute`, `Udieresis`).
fn accented(name: &str) -> Option<String> {
    const MARKS: [(&str, char); 9] = [
        ("acute", '\u{301}'),
        ("grave", '\u{300}'),
        ("circumflex", '\u{302}'),
        ("dieresis", '\u{308}'),
        ("tilde", '\u{303}'),
        ("cedilla", '\u{327}'),
        ("ring", '\u{30A}'),
        ("caron", '\u{30C}'),
        ("macron", '\u{304}'),
    ];
    for (mark, combining) in MARKS {
        if let Some(letter) = name.strip_suffix(mark) {
            if letter.len() == 1 && letter.as_bytes()[0].is_ascii_alphabetic() {
                return Some(format!("{letter}{combining}"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_glyphs() {
        assert_eq!(glyph_text(b"uni0041").as_deref(), Some("A"));
        assert_eq!(glyph_text(b"eacute").as_deref(), Some("e\u{301}"));
        assert_eq!(glyph_text(b"a.sc").as_deref(), Some("a"));
        assert_eq!(glyph_text(b"g12"), None);
    }

    #[test]
    fn reads_agl_names_and_ligatures_by_their_components() {
        assert_eq!(glyph_text(b"element").as_deref(), Some("\u{2208}"));
        assert_eq!(glyph_text(b"arrowright").as_deref(), Some("\u{2192}"));
        assert_eq!(glyph_text(b"Gamma").as_deref(), Some("\u{393}"));
        assert_eq!(glyph_text(b"f_f_i").as_deref(), Some("ffi"));
        assert_eq!(glyph_text(b"uni0066_uni0069.alt").as_deref(), Some("fi"));
        assert_eq!(glyph_text(b"T_h").as_deref(), Some("Th"));
        // A private-use AGL entry (small capitals) is no text.
        assert_eq!(glyph_text(b"Asmall"), None);
        assert_eq!(glyph_text(b"f_g12"), None);
        assert_eq!(glyph_text(b".notdef"), None);
    }

    #[test]
    fn numbers_glyph_names_only_when_every_name_is_a_number() {
        let name = |n: &str| Object::Name(n.as_bytes().to_vec());
        let read = |items: Vec<Object>| {
            let refs: Vec<&Object> = items.iter().collect();
            numbered_names(&refs)
        };
        // `cid97`: three letters, so no number (pdftotext reads it so too).
        assert!(read(vec![Object::Integer(1), name("g80"), name("cid97")]).is_empty());
        let decimal = read(vec![Object::Integer(1), name("g80"), name("ab97.")]);
        assert_eq!((decimal[1], decimal[2]), (Some('P'), Some('a')));
        let hex = read(vec![
            Object::Integer(0),
            name("C50"),
            name("6f"),
            name("C6f"),
        ]);
        assert_eq!(&hex[..3], [Some('P'), Some('o'), Some('o')]);
        // A code of 0x12 is a control character: no text.
        assert_eq!(read(vec![Object::Integer(2), name("g18")])[2], None);
        // One real name, or a run starting past code 5: names, not numbers.
        assert!(read(vec![Object::Integer(1), name("g80"), name("A")]).is_empty());
        assert!(read(vec![Object::Integer(65), name("g80")]).is_empty());
    }
}
