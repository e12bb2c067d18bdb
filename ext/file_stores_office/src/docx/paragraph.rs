//! A finished paragraph as its line: heading marks, list label, indent.

use super::numbering::Numbering;
use super::styles::{outline_level, Styles};

#[derive(Debug, Default)]
pub(super) struct Para {
    pub text: String,
    pub style: Option<String>,
    pub num_id: Option<i64>,
    pub ilvl: Option<i64>,
    pub outline: Option<i64>,
    /// The paragraph mark is a tracked deletion.
    pub mark_deleted: bool,
    /// Lines of text boxes anchored in this paragraph.
    pub after: Vec<String>,
}

/// The line(s) of a paragraph. In a table cell there are no heading marks
/// nor indent, since the cell's text joins into one line.
pub(super) fn line(p: &Para, styles: &Styles, numbering: &mut Numbering, in_cell: bool) -> String {
    let text = tidy(&p.text);
    let style = p.style.as_deref().or(styles.default_paragraph());
    let heading = match p.outline.and_then(outline_level) {
        Some(level) => level,
        None => style.and_then(|s| styles.heading_level(s)),
    };
    let (style_num, style_ilvl) = style.map_or((None, None), |s| styles.numbering(s));
    let num_id = p.num_id.or(style_num).filter(|&n| n != 0);
    let label = num_id.and_then(|num_id| {
        let ilvl = p
            .ilvl
            .or(style_ilvl)
            .map(|l| l.clamp(0, 8) as usize)
            .or_else(|| style.and_then(|s| numbering.level_for_style(num_id, s)))
            .unwrap_or(0);
        numbering.label(num_id, ilvl).map(|label| (label, ilvl))
    });
    if in_cell {
        return match label {
            Some((label, _)) if text.is_empty() => label.text,
            Some((label, _)) => format!("{} {text}", label.text),
            None => text,
        };
    }
    if let Some(level) = heading {
        let mut line = "#".repeat(level);
        if let Some((label, _)) = label.filter(|(l, _)| !l.bullet) {
            line.push(' ');
            line.push_str(&label.text);
        }
        if !text.is_empty() {
            line.push(' ');
            line.push_str(&text);
        }
        return if line.len() == level { text } else { line };
    }
    match label {
        Some((label, ilvl)) => {
            let mut line = "  ".repeat(ilvl);
            line.push_str(&label.text);
            if !text.is_empty() {
                line.push(' ');
                line.push_str(&text);
            }
            line
        }
        None => text,
    }
}

pub(super) fn int(value: Option<String>) -> Option<i64> {
    value.and_then(|v| v.trim().parse::<i64>().ok())
}

/// A paragraph's text without trailing whitespace on its lines, nor empty
/// lines at its start or end.
fn tidy(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    let first = lines.iter().position(|l| !l.is_empty());
    let last = lines.iter().rposition(|l| !l.is_empty());
    match (first, last) {
        (Some(a), Some(b)) => lines[a..=b].join("\n"),
        _ => String::new(),
    }
}
