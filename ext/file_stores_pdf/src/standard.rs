//! The widths of the 14 standard fonts, for a simple font that names one
//! (`/BaseFont /Times-Roman`) and gives no `/Widths`: as every reader does,
//! from Adobe's font metrics (the AFM files of `pdf-core-14-font-afms`, read
//! at build time into tables by `build.rs`).
//! Without them each glyph would advance a guessed half em, and words placed
//! apart by `Td` run into each other or split.

use std::collections::HashMap;

use crate::names::glyph_text;

/// A glyph of a standard font: its code in the font's own encoding (-1 for
/// none), its width in thousandths of an em, and its name.
struct Metric {
    code: i32,
    width: f32,
    name: &'static str,
}

/// The tables build.rs makes, one per font, named as the AFM constants.
mod afm {
    use super::Metric;
    include!(concat!(env!("OUT_DIR"), "/standard_metrics.rs"));
}

/// The metrics of a standard font named `base` (a subset tag and the
/// common Windows names, `Arial,Bold` or `TimesNewRoman`, included).
fn metrics(base: &[u8]) -> Option<&'static [Metric]> {
    let name = std::str::from_utf8(base).ok()?;
    // A subset tag: six capitals and a plus.
    let name = match name.split_once('+') {
        Some((tag, rest)) if tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()) => rest,
        _ => name,
    };
    let (family, style) = name.split_once([',', '-']).unwrap_or((name, ""));
    let style = style.to_ascii_lowercase();
    let bold = style.contains("bold");
    let slanted = style.contains("italic") || style.contains("oblique");
    Some(match family {
        "Helvetica" | "Arial" | "ArialMT" => match (bold, slanted) {
            (false, false) => afm::HELVETICA,
            (true, false) => afm::HELVETICA_BOLD,
            (false, true) => afm::HELVETICA_OBLIQUE,
            (true, true) => afm::HELVETICA_BOLD_OBLIQUE,
        },
        "Times" | "TimesNewRoman" | "TimesNewRomanPS" | "TimesNewRomanPSMT" => {
            match (bold, slanted) {
                (false, false) => afm::TIMES_ROMAN,
                (true, false) => afm::TIMES_BOLD,
                (false, true) => afm::TIMES_ITALIC,
                (true, true) => afm::TIMES_BOLD_ITALIC,
            }
        }
        "Courier" | "CourierNew" | "CourierNewPSMT" => match (bold, slanted) {
            (false, false) => afm::COURIER,
            (true, false) => afm::COURIER_BOLD,
            (false, true) => afm::COURIER_OBLIQUE,
            (true, true) => afm::COURIER_BOLD_OBLIQUE,
        },
        "Symbol" => afm::SYMBOL,
        "ZapfDingbats" => afm::ZAPF_DINGBATS,
        _ => return None,
    })
}

/// The standard font pdftotext measures a font by when the font gives no
/// widths and is none of the standard ones: Courier for a fixed-pitch font,
/// Times for a serif one, else Helvetica; bold and italic by the
/// descriptor's flags or the font's name.
fn substitute(base: &[u8], flags: i64) -> &'static [Metric] {
    let name = String::from_utf8_lossy(base).to_ascii_lowercase();
    let bold = flags & (1 << 18) != 0 || name.contains("bold") || name.contains("black");
    let italic = flags & (1 << 6) != 0 || name.contains("italic") || name.contains("oblique");
    match (flags & 1 != 0, flags & 2 != 0, bold, italic) {
        (true, _, false, false) => afm::COURIER,
        (true, _, true, false) => afm::COURIER_BOLD,
        (true, _, false, true) => afm::COURIER_OBLIQUE,
        (true, _, true, true) => afm::COURIER_BOLD_OBLIQUE,
        (false, true, false, false) => afm::TIMES_ROMAN,
        (false, true, true, false) => afm::TIMES_BOLD,
        (false, true, false, true) => afm::TIMES_ITALIC,
        (false, true, true, true) => afm::TIMES_BOLD_ITALIC,
        (false, false, false, false) => afm::HELVETICA,
        (false, false, true, false) => afm::HELVETICA_BOLD,
        (false, false, false, true) => afm::HELVETICA_OBLIQUE,
        (false, false, true, true) => afm::HELVETICA_BOLD_OBLIQUE,
    }
}

/// The width of each code of a font named `base` that gives no widths,
/// whose codes read as `text` (the font's encoding), from the metrics of
/// the standard font it is or stands in for ([`substitute`], by the
/// descriptor's `flags`): by glyph text where the code has one, else, for a
/// standard font, by its own code (Symbol, ZapfDingbats).
pub fn widths(base: &[u8], flags: i64, text: &[Option<String>]) -> HashMap<u32, f32> {
    let (afm, standard) = match metrics(base) {
        Some(afm) => (afm, true),
        None => (substitute(base, flags), false),
    };
    let mut by_text: HashMap<String, f32> = HashMap::new();
    let mut by_code: HashMap<u32, f32> = HashMap::new();
    for metric in afm {
        match u32::try_from(metric.code) {
            // A substitute's codes are its own; only its space stands in
            // for a code the encoding leaves unnamed.
            Ok(code) if standard || code == 32 => {
                by_code.insert(code, metric.width);
            }
            _ => {}
        }
        if let Some(t) = glyph_text(metric.name.as_bytes()) {
            by_text.entry(t).or_insert(metric.width);
        }
    }
    let mut out = HashMap::new();
    for code in 0..256u32 {
        let width = text
            .get(code as usize)
            .and_then(|t| t.as_deref())
            .and_then(|t| by_text.get(t))
            .or_else(|| by_code.get(&code));
        if let Some(&w) = width {
            out.insert(code, w);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_widths_of_a_standard_font_by_its_encoding() {
        let mut text = vec![None; 256];
        text[65] = Some("A".to_owned());
        text[200] = Some("A".to_owned());
        let w = widths(b"Times-Roman", 0, &text);
        assert_eq!(w.get(&65), Some(&722.0));
        assert_eq!(w.get(&200), Some(&722.0));
        assert_eq!(w.get(&32), Some(&250.0));
        let bold = widths(b"ABCDEF+Arial,Bold", 0, &text);
        assert_eq!(bold.get(&65), Some(&722.0));
        // Another font stands in for by its flags: serif (2) is Times,
        // fixed pitch (1) Courier, else Helvetica (A 667).
        assert_eq!(widths(b"Garamond", 2, &text).get(&65), Some(&722.0));
        assert_eq!(widths(b"Consolas", 1, &text).get(&65), Some(&600.0));
        let sans = widths(b"Frutiger", 32, &text);
        assert_eq!((sans.get(&65), sans.get(&66)), (Some(&667.0), None));
    }
}
