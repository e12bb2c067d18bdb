//! Turns Adobe's metrics of the 14 standard fonts (the AFM files of
//! `pdf-core-14-font-afms`, a build dependency) into tables of what the
//! reader uses of them: each glyph's code, width and name. Linking the AFM
//! text itself would add about 700 KB to the shipped library for the few
//! numbers a line of it holds.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

use pdf_core_14_font_afms as afm;

const FONTS: [(&str, &str); 14] = [
    ("COURIER", afm::COURIER),
    ("COURIER_BOLD", afm::COURIER_BOLD),
    ("COURIER_OBLIQUE", afm::COURIER_OBLIQUE),
    ("COURIER_BOLD_OBLIQUE", afm::COURIER_BOLD_OBLIQUE),
    ("HELVETICA", afm::HELVETICA),
    ("HELVETICA_BOLD", afm::HELVETICA_BOLD),
    ("HELVETICA_OBLIQUE", afm::HELVETICA_OBLIQUE),
    ("HELVETICA_BOLD_OBLIQUE", afm::HELVETICA_BOLD_OBLIQUE),
    ("TIMES_ROMAN", afm::TIMES_ROMAN),
    ("TIMES_BOLD", afm::TIMES_BOLD),
    ("TIMES_ITALIC", afm::TIMES_ITALIC),
    ("TIMES_BOLD_ITALIC", afm::TIMES_BOLD_ITALIC),
    ("SYMBOL", afm::SYMBOL),
    ("ZAPF_DINGBATS", afm::ZAPF_DINGBATS),
];

fn main() {
    let mut out = String::new();
    for (name, text) in FONTS {
        let _ = writeln!(out, "pub static {name}: &[Metric] = &[");
        for line in text.lines().filter(|l| l.starts_with("C ")) {
            let (mut code, mut width, mut glyph) = (-1i32, None, "");
            for field in line.split(';') {
                let mut parts = field.split_whitespace();
                match (parts.next(), parts.next()) {
                    (Some("C"), Some(c)) => code = c.parse().unwrap_or(-1),
                    (Some("WX"), Some(w)) => width = w.parse::<f32>().ok(),
                    (Some("N"), Some(n)) => glyph = n,
                    _ => {}
                }
            }
            if let Some(width) = width {
                let _ = writeln!(
                    out,
                    "    Metric {{ code: {code}, width: {width:?}, name: {glyph:?} }},"
                );
            }
        }
        out.push_str("];\n");
    }
    let dest =
        Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("standard_metrics.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build.rs");
}
