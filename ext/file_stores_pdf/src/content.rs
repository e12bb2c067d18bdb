//! A tolerant content-stream tokenizer: operators with their operands, as
//! lopdf's `Content::decode` gives them, but reading on where real files
//! stray from the grammar (a lone `-` as a number, an operator inside a `TJ`
//! array, a stray `]`, inline image data that looks like syntax, comments),
//! as pdftotext and pdf.js do. lopdf's parser gives up on the whole stream
//! at the first such slip, and with it the page's text.
//!
//! It gives one operation at a time ([`Tokenizer::next`]), never the whole
//! stream's, and bounds what it holds and does where it does it: every token
//! (operands, operators, brackets) counts against the file's token budget
//! ([`Tokens`]), which also looks at the cancel flag every few thousand
//! tokens; operands waiting for an operator are bounded (the oldest are
//! dropped, as pdf.js drops surplus operands), and so are the values held in
//! arrays and dictionaries not yet given to an operator. A stream of 33 M
//! operands with no operator used to be built whole before anything counted
//! it (966 MB from 16 KB, or an allocator abort).
//!
//! It never recurses: arrays and dictionaries nest on an explicit stack,
//! bounded by `max_nesting`. What it holds carries over from one stream of a
//! page to the next, as if they were one stream.

use std::cell::Cell;
use std::rc::Rc;

use lopdf::content::Operation;
use lopdf::{Dictionary, Object, StringFormat};

use crate::{filters, Error, Result};

/// The most operands kept waiting for an operator: operators take at most a
/// few dozen, so when there are this many the older half is dropped.
pub const MAX_OPERANDS: usize = 256;

/// The most values (operands, array and dictionary items, nested ones
/// included) held for one operation: about 120 bytes each. Past it, further
/// items of an array or dictionary are dropped (still counted as tokens).
pub const MAX_HELD: usize = 1 << 18;

/// How many tokens are counted locally before the shared count is updated
/// and the cancel flag looked at.
const CHECK_EVERY: u64 = 4096;

/// The token budget of one file, shared by every tokenizer of it (a page's
/// streams, its forms, its annotations), and the cancel check.
#[derive(Clone)]
pub struct Tokens<'c> {
    used: Rc<Cell<u64>>,
    max: u64,
    cancelled: &'c dyn Fn() -> bool,
}

impl<'c> Tokens<'c> {
    pub fn new(max: u64, cancelled: &'c dyn Fn() -> bool) -> Self {
        Tokens {
            used: Rc::new(Cell::new(0)),
            max,
            cancelled,
        }
    }

    /// Spends `n` tokens: Err once past the budget or cancelled.
    fn spend(&self, n: u64) -> Result<()> {
        let used = self.used.get().saturating_add(n);
        self.used.set(used);
        if used > self.max {
            return Err(Error::TooLarge(format!(
                "its content streams hold more than {} tokens",
                self.max
            )));
        }
        if (self.cancelled)() {
            return Err(Error::Cancelled);
        }
        Ok(())
    }
}

struct Open {
    dict: bool,
    items: Vec<Object>,
    /// The values held inside, nested ones included.
    weight: usize,
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

/// Reads operations from one stream after another ([`Tokenizer::start`]),
/// one at a time.
pub struct Tokenizer<'c> {
    max_nesting: usize,
    tokens: Tokens<'c>,
    /// Tokens counted here and not yet spent from `tokens`.
    pending: u64,
    /// Where the next token is looked for in the current stream.
    at: usize,
    /// Operands waiting for an operator, each with the values it holds.
    operands: Vec<(Object, usize)>,
    open: Vec<Open>,
    /// The values held now (operands and open containers).
    held: usize,
}

impl<'c> Tokenizer<'c> {
    pub fn new(max_nesting: usize, tokens: Tokens<'c>) -> Self {
        Tokenizer {
            max_nesting,
            tokens,
            pending: 0,
            at: 0,
            operands: Vec::new(),
            open: Vec::new(),
            held: 0,
        }
    }

    /// Starts reading the next stream (from its first byte); operands and
    /// open arrays carry over.
    pub fn start(&mut self) {
        self.at = 0;
    }

    fn count(&mut self) -> Result<()> {
        self.pending += 1;
        if self.pending >= CHECK_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    /// Spends the tokens counted so far.
    fn flush(&mut self) -> Result<()> {
        let n = std::mem::take(&mut self.pending);
        self.tokens.spend(n)
    }

    fn too_deep(&self) -> Error {
        Error::TooLarge(format!(
            "a content stream nests arrays or dictionaries more than {} deep",
            self.max_nesting
        ))
    }

    /// A value read: into the innermost open container, or an operand.
    fn push(&mut self, value: Object, weight: usize) {
        match self.open.last_mut() {
            Some(open) => {
                if self.held + weight > MAX_HELD {
                    return;
                }
                open.items.push(value);
                open.weight += weight;
            }
            None => {
                if self.operands.len() >= MAX_OPERANDS {
                    let dropped: usize = self
                        .operands
                        .drain(..MAX_OPERANDS / 2)
                        .map(|(_, w)| w)
                        .sum();
                    self.held -= dropped;
                }
                self.operands.push((value, weight));
            }
        }
        self.held += weight;
    }

    /// The next operation of `bytes` (the stream being read), or None at
    /// its end, where every token read is spent.
    pub fn next(&mut self, bytes: &[u8]) -> Result<Option<Operation>> {
        let mut i = self.at;
        let found = self.scan(bytes, &mut i);
        self.at = i;
        found
    }

    fn scan(&mut self, bytes: &[u8], i: &mut usize) -> Result<Option<Operation>> {
        while *i < bytes.len() {
            let b = bytes[*i];
            if is_space(b) {
                *i += 1;
                continue;
            }
            if b == b'%' {
                *i = memchr::memchr2(b'\n', b'\r', &bytes[*i..]).map_or(bytes.len(), |n| *i + n);
                continue;
            }
            self.count()?;
            let value = match b {
                b'(' => {
                    let (s, next) = literal_string(bytes, *i + 1);
                    *i = next;
                    Object::String(s, StringFormat::Literal)
                }
                b'<' if bytes.get(*i + 1) == Some(&b'<') => {
                    if self.open.len() >= self.max_nesting {
                        return Err(self.too_deep());
                    }
                    self.open.push(Open {
                        dict: true,
                        items: Vec::new(),
                        weight: 0,
                    });
                    *i += 2;
                    continue;
                }
                b'<' => {
                    let (s, next) = hex_string(bytes, *i + 1);
                    *i = next;
                    Object::String(s, StringFormat::Hexadecimal)
                }
                b'[' => {
                    if self.open.len() >= self.max_nesting {
                        return Err(self.too_deep());
                    }
                    self.open.push(Open {
                        dict: false,
                        items: Vec::new(),
                        weight: 0,
                    });
                    *i += 1;
                    continue;
                }
                b']' | b'>' => {
                    let dict = b == b'>';
                    if dict && bytes.get(*i + 1) != Some(&b'>') {
                        // A stray `>`.
                        *i += 1;
                        continue;
                    }
                    *i += if dict { 2 } else { 1 };
                    if self.open.last().is_none_or(|o| o.dict != dict) {
                        continue;
                    }
                    let Some(open) = self.open.pop() else {
                        continue;
                    };
                    // Its items move into the value: held once, not twice.
                    self.held -= open.weight;
                    let value = if dict {
                        Object::Dictionary(dictionary(open.items))
                    } else {
                        Object::Array(open.items)
                    };
                    self.push(value, open.weight + 1);
                    continue;
                }
                b'/' => {
                    let start = *i + 1;
                    *i = start;
                    while *i < bytes.len() && is_regular(bytes[*i]) {
                        *i += 1;
                    }
                    Object::Name(name(&bytes[start..*i]))
                }
                _ if is_delimiter(b) => {
                    // A stray `)`, `{` or `}`.
                    *i += 1;
                    continue;
                }
                _ => {
                    let start = *i;
                    // A number ends where its digits do, as poppler reads
                    // it: "5€ Tc" is 5, then an unknown operator `€` that
                    // takes it, then a `Tc` without its operand.
                    let numeric = matches!(b, b'0'..=b'9' | b'+' | b'-' | b'.');
                    while *i < bytes.len()
                        && is_regular(bytes[*i])
                        && (!numeric || matches!(bytes[*i], b'0'..=b'9' | b'+' | b'-' | b'.'))
                    {
                        *i += 1;
                    }
                    let word = &bytes[start..*i];
                    if matches!(word[0], b'0'..=b'9' | b'+' | b'-' | b'.') {
                        number(word)
                    } else {
                        match word {
                            b"true" => Object::Boolean(true),
                            b"false" => Object::Boolean(false),
                            b"null" => Object::Null,
                            _ if !self.open.is_empty() => {
                                // An operator inside an array or dictionary
                                // is a slip of the writer's: read on
                                // without it.
                                continue;
                            }
                            _ => {
                                if word == b"ID" {
                                    *i = skip_inline_image(bytes, *i);
                                }
                                self.held = 0;
                                let operands = std::mem::take(&mut self.operands);
                                return Ok(Some(Operation {
                                    operator: String::from_utf8_lossy(word).into_owned(),
                                    operands: operands.into_iter().map(|(o, _)| o).collect(),
                                }));
                            }
                        }
                    }
                }
            };
            self.push(value, 1);
        }
        self.flush()?;
        Ok(None)
    }
}

/// The operations of a content stream, in order, within `max_nesting` and
/// no other bound (for tests and tools; the interpreter reads them one at a
/// time).
pub fn decode(bytes: &[u8], max_nesting: usize) -> Result<Vec<Operation>> {
    let never = || false;
    let mut tokenizer = Tokenizer::new(max_nesting, Tokens::new(u64::MAX, &never));
    let mut ops = Vec::new();
    while let Some(op) = tokenizer.next(bytes)? {
        ops.push(op);
    }
    Ok(ops)
}

/// A number, read the way readers do: what does not parse (`-`, `--3`,
/// `1.2.3`, `5€`) counts as its longest valid start, or 0. The start is
/// found in one pass over the bytes: trying ever shorter prefixes was
/// quadratic in a long word (`1-1-1-…`), and slicing a `str` there panicked
/// inside a multi-byte character.
fn number(word: &[u8]) -> Object {
    let digits = |from: usize| {
        from + word[from.min(word.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut n = usize::from(matches!(word.first(), Some(b'+' | b'-')));
    let int_end = digits(n);
    let mut has_digits = int_end > n;
    n = int_end;
    let mut real = false;
    if word.get(n) == Some(&b'.') {
        let frac_end = digits(n + 1);
        has_digits |= frac_end > n + 1;
        n = frac_end;
        real = true;
    }
    if !has_digits {
        return Object::Integer(0);
    }
    if matches!(word.get(n), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(word.get(n + 1), Some(b'+' | b'-')));
        let exp_end = digits(n + 1 + sign);
        if exp_end > n + 1 + sign {
            n = exp_end;
            real = true;
        }
    }
    // All ASCII: the bytes read above are digits, signs, `.` and `e`.
    let valid = std::str::from_utf8(&word[..n]).unwrap_or("0");
    if !real {
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
    fn ends_a_number_where_its_digits_end() {
        let got = ops("5\u{20ac} Tc 12x".as_bytes());
        assert_eq!(got[0], ("\u{20ac}".to_owned(), vec![Object::Integer(5)]));
        assert_eq!(got[1], ("Tc".to_owned(), vec![]));
        assert_eq!(got[2], ("x".to_owned(), vec![Object::Integer(12)]));
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
        assert!(matches!(decode(&deep, 64), Err(Error::TooLarge(why)) if why.contains("64 deep")));
        assert!(decode(&[b'['; 64], 64).is_ok());
    }

    #[test]
    fn bounds_operands_waiting_for_an_operator() {
        let mut many = b"0 ".repeat(1_000_000);
        many.extend(b"(x) Tj");
        let got = ops(&many);
        assert_eq!(got.len(), 1);
        assert!(got[0].1.len() <= MAX_OPERANDS);
        assert_eq!(got[0].1.last().unwrap().as_str().unwrap(), b"x");
        // Items of an array not yet given to an operator are bounded too.
        let mut array = b"[".to_vec();
        array.extend(b"0 ".repeat(MAX_HELD + 10));
        array.extend(b"] TJ");
        let got = ops(&array);
        let Object::Array(items) = &got[0].1[0] else {
            panic!("not an array")
        };
        assert_eq!(items.len(), MAX_HELD);
    }

    #[test]
    fn counts_every_token_against_the_budget_and_stops_when_cancelled() {
        let never = || false;
        let zeros = b"0 ".repeat(10_000);
        let mut t = Tokenizer::new(64, Tokens::new(9_000, &never));
        assert!(matches!(t.next(&zeros), Err(Error::TooLarge(why)) if why.contains("9000 tokens")));
        let cancel = || true;
        let mut t = Tokenizer::new(64, Tokens::new(u64::MAX, &cancel));
        assert!(matches!(t.next(&zeros), Err(Error::Cancelled)));
    }

    #[test]
    fn carries_operands_from_one_stream_to_the_next() {
        let never = || false;
        let mut t = Tokenizer::new(64, Tokens::new(u64::MAX, &never));
        assert_eq!(t.next(b"BT /F1 12").unwrap().unwrap().operator, "BT");
        assert!(t.next(b"BT /F1 12").unwrap().is_none());
        t.start();
        let tf = t.next(b"Tf ET").unwrap().unwrap();
        assert_eq!(tf.operator, "Tf");
        assert_eq!(tf.operands.len(), 2);
    }

    #[test]
    fn reads_numbers_byte_by_byte() {
        assert_eq!(number("5€".as_bytes()), Object::Integer(5));
        assert_eq!(number("€".as_bytes()), Object::Integer(0));
        assert_eq!(number(b"-"), Object::Integer(0));
        assert_eq!(number(b"--3"), Object::Integer(0));
        assert_eq!(number(b"1.2.3"), Object::Real(1.2));
        assert_eq!(number(b"-.5"), Object::Real(-0.5));
        assert_eq!(number(b"+7"), Object::Integer(7));
        assert_eq!(number(b"5."), Object::Real(5.0));
        assert_eq!(number(b"2e3x"), Object::Real(2000.0));
        assert_eq!(number(b"3e"), Object::Integer(3));
        // A long word that is not a number is read once, not once per
        // prefix.
        assert_eq!(number(&b"1-".repeat(4 << 20)), Object::Integer(1));
        // In a stream the number ends at its digits and `€` is an
        // operator of its own, which takes the operands before it.
        let got = ops("1 5€ 2 re".as_bytes());
        assert_eq!((got[0].1.len(), got[1].1.len()), (2, 1));
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
