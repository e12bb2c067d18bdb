//! A linear scan of PDF object syntax, before lopdf parses it: how deep
//! arrays and dictionaries nest (lopdf's parser recurses, and a deep
//! nesting overflows the stack), and how many values lopdf will make of it
//! (each an `Object` of about 120 bytes, some 60 times the bytes it comes
//! from: an unused array of 32 M zeros in 63 KB of object stream used to
//! take 1.9 GB, or abort the process). Strings, comments and stream data
//! are skipped; the scan never recurses.

use std::ops::Range;

use memchr::memmem;

/// The most values one object may hold (about 120 MB once parsed).
pub const MAX_OBJECT_TOKENS: u64 = 1 << 20;

/// What a scan of object syntax found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// The deepest nesting of arrays and dictionaries.
    pub depth: usize,
    /// The tokens of every object (numbers, names, strings, keywords,
    /// opening brackets), outside cross-reference tables.
    pub tokens: u64,
    /// The most tokens between one `obj` and its `endobj`.
    pub largest: u64,
}

enum Token {
    Open,
    Close,
    /// A string or a name. A hexadecimal string is read as a word between
    /// delimiters: skipping to its `>` could hide what lopdf reads when the
    /// string is broken.
    Atom,
    /// A number or keyword, starting at this offset.
    Word(usize),
    /// A stream's data, skipped to its `endstream`.
    Stream,
}

fn is_regular(b: u8) -> bool {
    !b" \t\n\r\x0c\0()<>[]{}/%".contains(&b)
}

struct Scanner<'b> {
    bytes: &'b [u8],
    i: usize,
    /// Where the token returned last starts.
    start: usize,
}

impl Scanner<'_> {
    fn next(&mut self) -> Option<Token> {
        let bytes = self.bytes;
        loop {
            let b = *bytes.get(self.i)?;
            self.start = self.i;
            match b {
                b'(' => {
                    let mut level = 0usize;
                    while self.i < bytes.len() {
                        match bytes[self.i] {
                            b'\\' => self.i += 1,
                            b'(' => level += 1,
                            b')' => {
                                level -= 1;
                                if level == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        self.i += 1;
                    }
                    self.i += 1;
                    return Some(Token::Atom);
                }
                b'%' => {
                    while self.i < bytes.len() && bytes[self.i] != b'\n' && bytes[self.i] != b'\r' {
                        self.i += 1;
                    }
                }
                b'[' => {
                    self.i += 1;
                    return Some(Token::Open);
                }
                b']' => {
                    self.i += 1;
                    return Some(Token::Close);
                }
                b'<' if bytes.get(self.i + 1) == Some(&b'<') => {
                    self.i += 2;
                    return Some(Token::Open);
                }
                b'>' if bytes.get(self.i + 1) == Some(&b'>') => {
                    self.i += 2;
                    return Some(Token::Close);
                }
                b'/' => {
                    self.i += 1;
                    while self.i < bytes.len() && is_regular(bytes[self.i]) {
                        self.i += 1;
                    }
                    return Some(Token::Atom);
                }
                _ if !is_regular(b) => self.i += 1,
                _ => {
                    let start = self.i;
                    while self.i < bytes.len() && is_regular(bytes[self.i]) {
                        self.i += 1;
                    }
                    if &bytes[start..self.i] == b"stream"
                        && matches!(bytes.get(self.i), Some(b'\r' | b'\n'))
                    {
                        // Stream data runs to its `endstream`: it is not
                        // object syntax (content streams are read by our
                        // own tokenizer, which does not recurse).
                        self.i = match memmem::find(&bytes[self.i..], b"endstream") {
                            Some(end) => self.i + end + 9,
                            None => bytes.len(),
                        };
                        return Some(Token::Stream);
                    }
                    return Some(Token::Word(start));
                }
            }
        }
    }
}

/// The nesting and tokens of the objects in `bytes` (a file, or an object
/// stream's data).
pub fn shape(bytes: &[u8]) -> Shape {
    let mut shape = Shape::default();
    let mut scanner = Scanner {
        bytes,
        i: 0,
        start: 0,
    };
    let (mut depth, mut current) = (0usize, 0u64);
    while let Some(token) = scanner.next() {
        match token {
            Token::Open => {
                depth += 1;
                shape.depth = shape.depth.max(depth);
            }
            Token::Close => {
                depth = depth.saturating_sub(1);
                continue;
            }
            // A stream ends its object's dictionary.
            Token::Stream => {
                depth = 0;
                continue;
            }
            Token::Atom => {}
            Token::Word(start) => {
                let word = &bytes[start..scanner.i];
                match word {
                    b"obj" | b"endobj" => {
                        shape.largest = shape.largest.max(current);
                        current = 0;
                    }
                    // A cross-reference table is not parsed into objects.
                    b"xref" => {
                        scanner.i = memmem::find(&bytes[scanner.i..], b"trailer")
                            .map_or(bytes.len(), |n| scanner.i + n);
                        continue;
                    }
                    _ => {}
                }
            }
        }
        current += 1;
        shape.tokens += 1;
    }
    shape.largest = shape.largest.max(current);
    shape
}

/// The brackets that close what an object's bytes (after `obj`, up to its
/// `endobj`) leave open, innermost first (`>>` or `]`), or None when
/// nothing is open, it holds a stream, or it closes more than it opens. A
/// dictionary left open before `endobj` (pdfium's bug_1893, a font's
/// missing `>>`) is one lopdf does not parse; poppler closes it there.
/// Linear, and at most `max` deep.
pub fn unclosed(bytes: &[u8], max: usize) -> Option<Vec<u8>> {
    let mut scanner = Scanner {
        bytes,
        i: 0,
        start: 0,
    };
    let mut open: Vec<bool> = Vec::new();
    while let Some(token) = scanner.next() {
        match token {
            Token::Open => {
                if open.len() >= max {
                    return None;
                }
                open.push(bytes[scanner.start] == b'<');
            }
            Token::Close => {
                open.pop()?;
            }
            Token::Stream => return None,
            Token::Atom | Token::Word(_) => {}
        }
    }
    if open.is_empty() {
        return None;
    }
    let mut closers = Vec::with_capacity(open.len() * 3);
    for dictionary in open.iter().rev() {
        closers.extend_from_slice(if *dictionary { b" >>" } else { b" ]" });
    }
    Some(closers)
}

/// How deep arrays and dictionaries nest in `bytes`, outside strings,
/// comments and stream data.
pub fn nesting(bytes: &[u8]) -> usize {
    shape(bytes).depth
}

/// The tokens of the one object at the start of `bytes`, counted up to
/// just past `cap`.
fn object_tokens(bytes: &[u8], cap: u64) -> u64 {
    let mut scanner = Scanner {
        bytes,
        i: 0,
        start: 0,
    };
    let (mut depth, mut count) = (0usize, 0u64);
    while let Some(token) = scanner.next() {
        match token {
            Token::Open => depth += 1,
            Token::Close => depth = depth.saturating_sub(1),
            Token::Stream => break,
            Token::Atom | Token::Word(_) => {}
        }
        count += 1;
        if depth == 0 || count > cap {
            break;
        }
    }
    count
}

/// The entries of the dictionary at the start of `bytes`, each key (its
/// `/` included) and its value as written, or None when it is not a whole
/// dictionary. A value is a bracketed group, a string or name, or a run of
/// numbers and keywords (`12 0 R`).
pub fn dictionary_entries(bytes: &[u8]) -> Option<Vec<(&[u8], &[u8])>> {
    let mut s = Scanner {
        bytes,
        i: 0,
        start: 0,
    };
    match s.next()? {
        Token::Open if bytes[s.start] == b'<' => {}
        _ => return None,
    }
    let mut out = Vec::new();
    loop {
        match s.next()? {
            Token::Close => return Some(out),
            Token::Atom if bytes[s.start] == b'/' => {}
            _ => return None,
        }
        // A string or name at the end leaves the scanner past the end.
        let key = &bytes[s.start..s.i.min(bytes.len())];
        let value = match s.next()? {
            Token::Open => {
                let from = s.start;
                let mut depth = 1usize;
                while depth > 0 {
                    match s.next()? {
                        Token::Open => depth += 1,
                        Token::Close => depth -= 1,
                        Token::Stream => return None,
                        Token::Atom | Token::Word(_) => {}
                    }
                }
                from..s.i
            }
            Token::Atom => s.start..s.i,
            Token::Word(from) => {
                let mut to = s.i;
                loop {
                    let saved = s.i;
                    match s.next() {
                        Some(Token::Word(_)) => to = s.i,
                        _ => {
                            s.i = saved;
                            break;
                        }
                    }
                }
                from..to
            }
            Token::Close => return Some(out),
            Token::Stream => return None,
        };
        out.push((key, &bytes[value.start..value.end.min(bytes.len())]));
    }
}

/// The object numbers of an object stream's header (`data` decoded, its
/// objects from `first` on), sorted, and the values lopdf makes of it: it
/// parses one object at each offset of the header, so offsets repeated or
/// pointing inside another object parse it again, each counted here. The
/// count stops just past `cap`; each object is counted up to
/// [`MAX_OBJECT_TOKENS`], and an object past that counts as past `cap`.
pub fn object_stream(data: &[u8], first: usize, cap: u64) -> (Vec<u32>, u64) {
    let Some(header) = data.get(..first) else {
        return (Vec::new(), 0);
    };
    let Ok(header) = std::str::from_utf8(header) else {
        return (Vec::new(), 0);
    };
    let mut numbers = header.split_whitespace().map(|n| n.parse::<u32>().ok());
    let mut ids = Vec::new();
    let mut seen = std::collections::HashMap::new();
    let mut total = 0u64;
    while let (Some(id), Some(offset)) = (numbers.next(), numbers.next()) {
        // lopdf keeps a number for each header word.
        total += 2;
        let (Some(id), Some(offset)) = (id, offset) else {
            continue;
        };
        let Some(start) = first
            .checked_add(offset as usize)
            .filter(|&s| s < data.len())
        else {
            continue;
        };
        ids.push(id);
        let tokens = *seen
            .entry(start)
            .or_insert_with(|| object_tokens(&data[start..], MAX_OBJECT_TOKENS));
        if tokens > MAX_OBJECT_TOKENS {
            return (ids, cap.saturating_add(1));
        }
        total += tokens;
        if total > cap {
            break;
        }
    }
    ids.sort_unstable();
    ids.dedup();
    (ids, total)
}

/// Where a dictionary holds a bare word after a name value, where a key
/// belongs: a name written with a space in it (`/BaseFont /Arial
/// Unicode MS`, pdf.js's issue11549), whose words after the first are
/// stray. lopdf drops the whole object (a font: its page's text lost);
/// poppler skips what is not a name where a key belongs, and reads on. Only
/// words that are neither numbers nor keywords of the syntax (`R`, `true`,
/// `obj`, `stream`, ...) after two names in a row are taken, so a dictionary
/// left open before its `endobj` (see [`unclosed`]) stays as it is. Stream
/// data is skipped; linear, nesting followed only `MAX_STRAY_DEPTH` deep.
pub fn stray_words(bytes: &[u8]) -> Vec<Range<usize>> {
    const MAX_STRAY_DEPTH: usize = 1024;
    let mut scanner = Scanner {
        bytes,
        i: 0,
        start: 0,
    };
    // Each open container: for a dictionary, whether a key comes next;
    // None for an array. Innermost last.
    let mut open: Vec<Option<bool>> = Vec::new();
    let mut deeper = 0usize;
    // Whether the token before was a name value of the innermost
    // dictionary, or a stray word after one.
    let mut after_name = false;
    let mut stray = Vec::new();
    while let Some(token) = scanner.next() {
        // A hexadecimal string is read as a word after its `<`.
        let token = match token {
            Token::Word(start) if start > 0 && bytes[start - 1] == b'<' => Token::Atom,
            t => t,
        };
        let dict = if deeper == 0 {
            open.last_mut().and_then(|o| o.as_mut())
        } else {
            None
        };
        match token {
            Token::Open => {
                if let Some(expect_key) = dict {
                    *expect_key = true;
                }
                if open.len() < MAX_STRAY_DEPTH {
                    open.push((bytes[scanner.start] == b'<').then_some(true));
                } else {
                    deeper += 1;
                }
                after_name = false;
            }
            Token::Close => {
                if deeper > 0 {
                    deeper -= 1;
                } else {
                    open.pop();
                }
                after_name = false;
            }
            Token::Stream => {
                open.clear();
                deeper = 0;
                after_name = false;
            }
            Token::Atom => {
                let name = bytes[scanner.start] == b'/';
                after_name = false;
                if let Some(expect_key) = dict {
                    if !*expect_key {
                        after_name = name;
                    }
                    *expect_key = !(*expect_key && name);
                }
            }
            Token::Word(start) => {
                let word = &bytes[start..scanner.i];
                let keyword = matches!(
                    word,
                    b"R" | b"true"
                        | b"false"
                        | b"null"
                        | b"obj"
                        | b"endobj"
                        | b"stream"
                        | b"endstream"
                        | b"xref"
                        | b"trailer"
                        | b"startxref"
                );
                let number = matches!(word[0], b'0'..=b'9' | b'+' | b'-' | b'.');
                if let Some(expect_key) = dict {
                    if *expect_key && after_name && !keyword && !number {
                        stray.push(start..scanner.i);
                        continue;
                    }
                    // A value; or, where a key belongs, the rest of a
                    // reference (`0 R`), left as it is.
                    *expect_key = true;
                }
                after_name = false;
                match word {
                    b"obj" | b"endobj" => {
                        open.clear();
                        deeper = 0;
                    }
                    // A stream keyword the scanner did not take (text after
                    // it on its line): its data is not object syntax.
                    b"stream" => {
                        open.clear();
                        deeper = 0;
                        scanner.i = memmem::find(&bytes[scanner.i..], b"endstream")
                            .map_or(bytes.len(), |n| scanner.i + n + 9);
                    }
                    b"xref" => {
                        scanner.i = memmem::find(&bytes[scanner.i..], b"trailer")
                            .map_or(bytes.len(), |n| scanner.i + n);
                    }
                    _ => {}
                }
            }
        }
    }
    stray
}

/// Where each integer too large for 64 bits ends in `bytes` (outside
/// strings, hexadecimal strings, comments, stream data and
/// cross-reference tables). lopdf fails to parse such a number, and drops
/// the object that holds it (a page whose `/MediaBox` or `/StructParents`
/// holds one, or the whole page tree); poppler and pdf.js read it as a
/// real. Linear.
pub fn long_integers(bytes: &[u8]) -> Vec<usize> {
    let mut scanner = Scanner {
        bytes,
        i: 0,
        start: 0,
    };
    let mut found = Vec::new();
    while let Some(token) = scanner.next() {
        let Token::Word(start) = token else { continue };
        let word = &bytes[start..scanner.i];
        // A hexadecimal string's digits, from its `<` to its `>`.
        let before = bytes[..start]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map(|i| (i, bytes[i]));
        if let Some((at, b'<')) = before {
            if at == 0 || bytes[at - 1] != b'<' {
                scanner.i =
                    memchr::memchr(b'>', &bytes[start..]).map_or(bytes.len(), |n| start + n);
                continue;
            }
        }
        if word == b"xref" {
            scanner.i = memmem::find(&bytes[scanner.i..], b"trailer")
                .map_or(bytes.len(), |n| scanner.i + n);
            continue;
        }
        let digits = word
            .strip_prefix(b"+")
            .or_else(|| word.strip_prefix(b"-"))
            .unwrap_or(word);
        // 19 digits always fit; from 20 on, past what an `i64` holds.
        let long = digits.len() >= 19
            && digits.iter().all(u8::is_ascii_digit)
            && std::str::from_utf8(word).is_ok_and(|w| w.parse::<i64>().is_err());
        if long {
            found.push(scanner.i);
        }
    }
    found
}

/// `bytes` with a `.` after each of `ends` (sorted), each integer there
/// read as a real.
pub fn widen(bytes: &[u8], ends: &[usize]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + ends.len());
    let mut from = 0;
    for &end in ends {
        out.extend_from_slice(&bytes[from..end]);
        out.push(b'.');
        from = end;
    }
    out.extend_from_slice(&bytes[from..]);
    out
}

/// An object stream's decoded `data` (its objects from `first` on) with
/// every integer too large for 64 bits read as a real ([`long_integers`]),
/// its header written again with the offsets that moved, and the new
/// `first`; None when nothing is widened.
pub fn widen_object_stream(data: &[u8], first: usize) -> Option<(Vec<u8>, usize)> {
    let body = data.get(first..)?;
    let ends = long_integers(body);
    if ends.is_empty() {
        return None;
    }
    let header = std::str::from_utf8(&data[..first]).ok()?;
    let mut words = header.split_whitespace();
    let mut new_header = String::with_capacity(header.len() + 16);
    while let (Some(id), Some(offset)) = (words.next(), words.next()) {
        let offset = match offset.parse::<usize>() {
            // Each `.` before an object's start moves it one on.
            Ok(o) => (o + ends.partition_point(|&e| e <= o)).to_string(),
            Err(_) => offset.to_owned(),
        };
        new_header.push_str(id);
        new_header.push(' ');
        new_header.push_str(&offset);
        new_header.push(' ');
    }
    new_header.push('\n');
    let mut out = new_header.into_bytes();
    let first = out.len();
    out.extend(widen(body, &ends));
    Some((out, first))
}

/// Writes spaces over the comments in `data`, an object stream's decoded
/// data, outside literal strings. A comment is white space in object syntax,
/// but lopdf parses an object-stream member from the offset its header
/// gives, skipping only white space there: a member behind a comment (qpdf's
/// QDF files put `%% Object stream: object 4` and `%% Page 1` before
/// each; pdfTeX's uncompressed ones `% 2 0 obj`) was dropped, its page
/// with it. poppler, pdf.js and PDFium read them, their lexers skipping
/// comments as white space. Same length, so no offset moves; one pass.
pub fn blank_comments(data: &mut [u8]) {
    // How deep inside a literal string (strings nest their parentheses).
    let mut level = 0usize;
    let mut i = 0;
    while i < data.len() {
        match (data[i], level) {
            (b'\\', 1..) => i += 1,
            (b'(', _) => level += 1,
            (b')', 1..) => level -= 1,
            (b'%', 0) => {
                while i < data.len() && data[i] != b'\n' && data[i] != b'\r' {
                    data[i] = b' ';
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_stray_words_after_a_name_value_in_dictionaries_only() {
        let bytes = b"1 0 obj << /F /Arial Unicode MS /N 1 0 R /T true >> endobj [/A /B C] \
            2 0 obj << /A 1 /B /C endobj << /O <AB12> /U <CD> /E /S /P <EF> /K [/X] Y >>";
        let at = |w: &[u8]| bytes.windows(w.len()).position(|x| x == w).unwrap_or(0);
        let (unicode, ms) = (at(b"Unicode"), at(b"MS"));
        assert_eq!(stray_words(bytes), vec![unicode..unicode + 7, ms..ms + 2]);
    }

    #[test]
    fn widens_integers_past_64_bits_outside_strings() {
        let pdf = b"<< /MediaBox [0 0 10000000000000000000 792] /A 9223372036854775807 \
                    /B -99999999999999999999 /S (12345678901234567890) /H <1234567890123456789012> >>";
        let ends = long_integers(pdf);
        assert_eq!(ends.len(), 2);
        let widened = widen(pdf, &ends);
        let text = String::from_utf8_lossy(&widened);
        assert!(text.contains("[0 0 10000000000000000000. 792]"));
        assert!(text.contains("/A 9223372036854775807 "));
        assert!(text.contains("/B -99999999999999999999. "));
        assert!(text.contains("(12345678901234567890)"));
        assert!(text.contains("<1234567890123456789012>"));
    }

    #[test]
    fn moves_the_objects_of_an_object_stream_past_a_widened_integer() {
        let body = b"[10000000000000000000] (second)";
        let data = [&b"5 0 6 23 "[..], body].concat();
        let (out, first) = widen_object_stream(&data, 9).expect("widened");
        assert_eq!(&out[..first], b"5 0 6 24 \n");
        assert_eq!(&out[first + 24..], b"(second)");
        assert_eq!(&out[first..first + 23], b"[10000000000000000000.]");
    }

    #[test]
    fn blanks_comments_outside_strings() {
        let mut data = b"%% a\r\n<< /A (%b (%c) \\) %d) >> % e\n[1]%".to_vec();
        blank_comments(&mut data);
        assert_eq!(data, b"    \r\n<< /A (%b (%c) \\) %d) >>    \n[1] ");
    }

    #[test]
    fn measures_nesting_outside_strings_and_streams() {
        assert_eq!(nesting(b"[[1]] (([[[) <<>>"), 2);
        assert_eq!(nesting(b"<< /Length 4 >>\nstream\n[[[[\nendstream [x]"), 1);
        assert_eq!(nesting(b"% [[[\n[b]"), 1);
        assert_eq!(nesting(b"<00> <[[[> /N[[ [1]"), 6);
    }

    #[test]
    fn closes_what_an_object_leaves_open() {
        assert_eq!(
            unclosed(b" << /A [1 (]>>) << /B 2 >>\n", 64),
            Some(b" ] >>".to_vec())
        );
        assert_eq!(unclosed(b" << /A [1] >> ", 64), None);
        assert_eq!(
            unclosed(b" << /Length 3 >> stream\nabc\nendstream ", 64),
            None
        );
        assert_eq!(unclosed(b" 1 ] ", 64), None);
        assert_eq!(unclosed(b" [[[", 2), None);
    }

    #[test]
    fn counts_the_values_of_each_object() {
        let file =
            b"1 0 obj\n<< /K [1 2 (a) <00>] >>\nendobj\n2 0 obj\n[0 0 0 0 0 0 0 0]\nendobj\n\
                     xref\n0 3\n0000000000 65535 f \ntrailer\n<< /Size 3 >>";
        let s = shape(file);
        assert_eq!(s.depth, 2);
        // << /K [ 1 2 (a) 00 endobj: 8; [ and eight zeros, endobj: 10.
        assert_eq!(s.largest, 10);
        assert!(s.tokens < 30, "{s:?}");
        let stream = b"1 0 obj\n<< /Length 9 >>\nstream\n0 0 0 0 0\nendstream\nendobj";
        assert_eq!(shape(stream).largest, 4);
    }

    #[test]
    fn reads_a_dictionary_s_entries_as_written() {
        let d = b"<< /Root 1 0 R /ID [<ab> (c d)] /T (x) /N /Name /E << /K [1] >> >> trailing";
        let entries = dictionary_entries(d).unwrap();
        let as_text: Vec<(&[u8], &[u8])> = entries;
        assert_eq!(
            as_text,
            vec![
                (&b"/Root"[..], &b"1 0 R"[..]),
                (&b"/ID"[..], &b"[<ab> (c d)]"[..]),
                (&b"/T"[..], &b"(x)"[..]),
                (&b"/N"[..], &b"/Name"[..]),
                (&b"/E"[..], &b"<< /K [1] >>"[..]),
            ]
        );
        assert!(dictionary_entries(b"<< /Root 1 0 R").is_none());
        // A fuzzing finding: a string cut by the end of the bytes.
        assert!(dictionary_entries(b"<< /T (abc").is_none());
        assert!(dictionary_entries(b"<< /T (abc\\").is_none());
        assert!(dictionary_entries(b"<< /T").is_none());
        assert!(dictionary_entries(b"[1 2]").is_none());
    }

    #[test]
    fn counts_each_parse_an_object_stream_header_asks_for() {
        let data = b"5 0 6 2 6 2 [0 0 0 0]";
        let (ids, total) = object_stream(data, 12, 1000);
        assert_eq!(ids, vec![5, 6]);
        // Six header words; the array (six tokens with its brackets), and a
        // zero inside it, twice.
        assert_eq!(total, 6 + 6 + 1 + 1);
        let mut huge = b"1 0 ".to_vec();
        let first = huge.len();
        huge.push(b'[');
        huge.extend(b"0 ".repeat(MAX_OBJECT_TOKENS as usize + 1));
        assert!(object_stream(&huge, first, u64::MAX - 1).1 > u64::MAX - 1);
        assert!(object_stream(&huge, first, 10).1 > 10);
    }

    /// A one-page file whose page reads "Read past the long number.", with
    /// `catalog`, `pages` and `page` inside those dictionaries.
    fn long_number_pdf(pages: &str, page: &str, media_box: &str) -> Vec<u8> {
        use crate::testpdf::{deflated, page_text, serialize, HELVETICA};
        serialize(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!("<< /Type /Pages /Kids [3 0 R] /Count 1 {pages}>>").into(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [{media_box}] /Contents 4 0 R {page}\
                 /Resources << /Font << /F1 5 0 R >> >> >>"
            )
            .into(),
            deflated(page_text("Read past the long number."), ""),
            HELVETICA.into(),
        ])
    }

    #[test]
    fn reads_an_integer_past_64_bits_as_a_real_wherever_it_stands() {
        // pdftotext reads each of them.
        let big = "10000000000000000000";
        let cases = [
            (
                "long_integer_media_box",
                long_number_pdf("", "", &format!("0 0 {big} 792")),
            ),
            (
                "long_integer_page",
                long_number_pdf("", &format!("/StructParents 9{big} "), "0 0 612 792"),
            ),
            (
                "long_integer_pages",
                long_number_pdf(&format!("/Extra -{big} "), "", "0 0 612 792"),
            ),
        ];
        for (name, pdf) in cases {
            assert_eq!(
                crate::testpdf::text(name, &pdf),
                "## Page 1\n\nRead past the long number.\n",
                "{name}"
            );
        }
    }

    #[test]
    fn reads_objects_nested_just_within_the_limit() {
        use crate::testpdf::{make_pdf, text};
        let nested = format!(
            "<< /Deep {}{} /Dict {}1{} >>",
            "[".repeat(63),
            "]".repeat(63),
            "<< /A ".repeat(62),
            " >>".repeat(62)
        );
        assert_eq!(
            text(
                "nested_within_limit",
                &make_pdf(&[Some("Some text on the page.")], &[nested.into()])
            ),
            "## Page 1\n\nSome text on the page.\n"
        );
    }
}
