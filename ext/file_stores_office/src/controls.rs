//! Control characters out of converted text.
//!
//! Office text can carry C0 control characters: Excel writes one as
//! `_x0000_` and the reader decodes it, and XML 1.1-style references or raw
//! bytes bring the others. A NUL makes the whole text look binary to
//! search (`It has no text to search`) while read_file shows every row, and
//! the others are noise to a model. So converted text keeps tab and line feed
//! only; a carriage return, alone or before a line feed, is a line end.

/// `text` with every C0 control but tab and line feed dropped, and `\r\n`
/// and a lone `\r` read as `\n`. Text without such controls is returned as
/// it is, without a copy.
pub fn strip(text: String) -> String {
    let unwanted = |b: &u8| *b < 0x20 && *b != b'\t' && *b != b'\n';
    if !text.as_bytes().iter().any(unwanted) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::strip;

    #[test]
    fn keeps_tabs_and_line_feeds_and_drops_other_controls() {
        assert_eq!(strip("a\tb\nc".into()), "a\tb\nc");
        assert_eq!(strip("a\0b\x01c\x1Fd\x0Be\x0Cf".into()), "abcdef");
        assert_eq!(strip("é\0ü".into()), "éü");
    }

    #[test]
    fn carriage_returns_are_line_ends() {
        assert_eq!(strip("a\r\nb\rc\r\r\nd".into()), "a\nb\nc\n\nd");
    }
}
