//! A tolerant content-stream tokenizer: operators with their operands, as
//! lopdf's `Content::decode` gives them, but reading on where real files
//! stray from the grammar (a lone `-` as a number, an operator inside a `TJ`
//! array, a stray `]`, inline image data that looks like syntax, comments),
//! as pdftotext and pdf.js do. lopdf's parser gives up on the whole stream
//! at the first such slip, and with it the page's text.
//!
//! It never recurses: arrays and dictionaries nest on an explicit stack,
//! bounded by the caller's `max_nesting`.

use lopdf::content::Operation;
use lopdf::{Dictionary, Object, StringFormat};

use crate::filters;

/// Too deep a nesting of arrays and dictionaries.
#[derive(Debug, PartialEq, Eq)]
pub struct TooDeep;

enum Open {
    Array(Vec<Object>),
    Dict(Vec<Object>),
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\0')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_space(b) && !is_delimiter(b)
}

/// The operations of a content stream, in order.
pub fn decode(bytes: &[u8], max_nesting: usize) -> Result<Vec<Operation>, TooDeep> {
    let mut ops = Vec::new();
    let mut operands: Vec<Object> = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let value = match b {
            _ if is_space(b) => {
                i += 1;
                continue;
            }
            b'%' => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                let (s, next) = literal_string(bytes, i + 1);
                i = next;
                Object::String(s, StringFormat::Literal)
            }
            b'<' if bytes.get(i + 1) == Some(&b'<') => {
                if open.len() >= max_nesting {
                    return Err(TooDeep);
                }
                open.push(Open::Dict(Vec::new()));
                i += 2;
                continue;
            }
            b'<' => {
                let (s, next) = hex_string(bytes, i + 1);
                i = next;
                Object::String(s, StringFormat::Hexadecimal)
            }
            b'[' => {
                if open.len() >= max_nesting {
                    return Err(TooDeep);
                }
                open.push(Open::Array(Vec::new()));
                i += 1;
                continue;
            }
            b']' => {
                i += 1;
                match open.pop() {
                    Some(Open::Array(items)) => Object::Array(items),
                    Some(other) => {
                        open.push(other);
                        continue;
                    }
                    None => continue,
                }
            }
            b'>' if bytes.get(i + 1) == Some(&b'>') => {
                i += 2;
                match open.pop() {
                    Some(Open::Dict(items)) => Object::Dictionary(dictionary(items)),
                    Some(other) => {
                        open.push(other);
                        continue;
                    }
                    None => continue,
                }
            }
            b'/' => {
                let start = i + 1;
                i = start;
                while i < bytes.len() && is_regular(bytes[i]) {
                    i += 1;
                }
                Object::Name(name(&bytes[start..i]))
            }
            _ if is_delimiter(b) => {
                // A stray `)`, `>`, `{` or `}`.
                i += 1;
                continue;
            }
            _ => {
                let start = i;
                while i < bytes.len() && is_regular(bytes[i]) {
                    i += 1;
                }
                let word = &bytes[start..i];
                if matches!(word[0], b'0'..=b'9' | b'+' | b'-' | b'.') {
                    number(word)
                } else {
                    match word {
                        b"true" => Object::Boolean(true),
                        b"false" => Object::Boolean(false),
                        b"null" => Object::Null,
                        _ if !open.is_empty() => {
                            // An operator inside an array or dictionary is
                            // a slip of the writer's: read on without it.
                            continue;
                        }
                        _ => {
                            if word == b"ID" {
                                i = skip_inline_image(bytes, i);
                            }
                            ops.push(Operation {
                                operator: String::from_utf8_lossy(word).into_owned(),
                                operands: std::mem::take(&mut operands),
                            });
                            continue;
                        }
                    }
                }
            }
        };
        match open.last_mut() {
            Some(Open::Array(items) | Open::Dict(items)) => items.push(value),
            None => operands.push(value),
        }
    }
    Ok(ops)
}

/// A number, read the way readers do: what does not parse (`-`, `--3`,
/// `1.2.3`) counts as its longest valid start, or 0.
fn number(word: &[u8]) -> Object {
    let text = std::str::from_utf8(word).unwrap_or("0");
    let valid = (1..=text.len())
        .rev()
        .find(|&n| text[..n].parse::<f32>().is_ok())
        .map_or("0", |n| &text[..n]);
    if !valid.contains(['.', 'e', 'E']) {
        if let Ok(n) = valid.parse::<i64>() {
            return Object::Integer(n);
        }
    }
    match valid.parse::<f32>() {
        Ok(r) if r.is_finite() => Object::Real(r),
        _ => Object::Integer(0),
    }
}

fn name(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'#' && i + 2 < raw.len() + 1 {
            if let Some(v) = raw
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

fn dictionary(items: Vec<Object>) -> Dictionary {
    let mut dict = Dictionary::new();
    let mut items = items.into_iter();
    while let Some(key) = items.next() {
        let Object::Name(key) = key else { continue };
        let Some(value) = items.next() else { break };
        dict.set(key, value);
    }
    dict
}

/// A literal string from just after its `(`: its bytes and where it ends.
fn literal_string(bytes: &[u8], mut i: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut level = 1usize;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        match b {
            b'(' => {
                level += 1;
                out.push(b);
            }
            b')' => {
                level -= 1;
                if level == 0 {
                    return (out, i);
                }
                out.push(b);
            }
            b'\\' => {
                let Some(&e) = bytes.get(i) else { break };
                i += 1;
                match e {
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'0'..=b'7' => {
                        let mut v = u32::from(e - b'0');
                        for _ in 0..2 {
                            match bytes.get(i) {
                                Some(&d @ b'0'..=b'7') => {
                                    v = v * 8 + u32::from(d - b'0');
                                    i += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push(v as u8);
                    }
                    b'\r' => {
                        if bytes.get(i) == Some(&b'\n') {
                            i += 1;
                        }
                    }
                    b'\n' => {}
                    other => out.push(other),
                }
            }
            _ => out.push(b),
        }
    }
    (out, i)
}

/// A hexadecimal string from just after its `<`.
fn hex_string(bytes: &[u8], i: usize) -> (Vec<u8>, usize) {
    let (out, read) = filters::hex_prefix(bytes.get(i..).unwrap_or_default());
    (out, i + read)
}

/// Where an inline image's data ends: after the `EI` that stands between
/// spaces, from just after its `ID`.
fn skip_inline_image(bytes: &[u8], mut i: usize) -> usize {
    i += 1;
    while i + 2 <= bytes.len() {
        if &bytes[i..i + 2] == b"EI"
            && is_space(bytes[i - 1])
            && bytes.get(i + 2).is_none_or(|&b| is_space(b))
        {
            return i + 2;
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(s: &[u8]) -> Vec<(String, Vec<Object>)> {
        decode(s, 64)
            .unwrap()
            .into_iter()
            .map(|o| (o.operator, o.operands))
            .collect()
    }

    #[test]
    fn reads_operators_and_operands() {
        let got = ops(b"BT /F1 12 Tf 1 0 0 1 72.5 700 Tm (a\\(b\\)c\\101) Tj <4142 4> Tj ET");
        assert_eq!(got[1].0, "Tf");
        assert_eq!(
            got[1].1,
            vec![Object::Name(b"F1".to_vec()), Object::Integer(12)]
        );
        assert_eq!(got[2].1[4], Object::Real(72.5));
        assert_eq!(got[3].1[0].as_str().unwrap(), b"a(b)cA");
        assert_eq!(got[4].1[0].as_str().unwrap(), b"AB@");
        assert_eq!(got.len(), 6);
    }

    #[test]
    fn reads_on_past_the_slips_of_real_files() {
        let got = ops(b"[(e)-4(x)-(t) Tc (s)]TJ ] % comment ]\n(y) Tj");
        assert_eq!(got[0].0, "TJ");
        let Object::Array(items) = &got[0].1[0] else {
            panic!("not an array")
        };
        assert_eq!(items.len(), 6);
        assert_eq!(items[3], Object::Integer(0));
        assert_eq!(got[1].0, "Tj");
    }

    #[test]
    fn skips_inline_image_data() {
        let got = ops(b"BI /W 2 /H 1 ID [(x) Tj EI (y) Tj");
        let names: Vec<_> = got.iter().map(|o| o.0.as_str()).collect();
        assert_eq!(names, ["BI", "ID", "Tj"]);
        assert_eq!(got[2].1[0].as_str().unwrap(), b"y");
    }

    #[test]
    fn bounds_nesting_without_recursion() {
        let deep = [b'['; 100_000];
        assert!(matches!(decode(&deep, 64), Err(TooDeep)));
        assert!(decode(&[b'['; 64], 64).is_ok());
    }

    #[test]
    fn reads_dictionaries_and_names() {
        let got = ops(b"/Span <</ActualText (fi) /MCID 3>> BDC");
        assert_eq!(got[0].0, "BDC");
        let Object::Dictionary(d) = &got[0].1[1] else {
            panic!("not a dictionary")
        };
        assert_eq!(d.get(b"MCID").unwrap(), &Object::Integer(3));
        assert_eq!(name(b"A#20B"), b"A B");
    }
}
