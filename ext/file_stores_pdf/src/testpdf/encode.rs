//! The encoders of PDF's standard filters, so each crafted stream can carry
//! any filter chain for the reader to undo (flate is [`super::deflate`]).

/// ASCIIHexDecode's input for `data`.
pub fn ascii_hex(data: &[u8]) -> Vec<u8> {
    let mut out = super::hex_bytes(data);
    out.push('>');
    out.into_bytes()
}

/// Groups of four bytes as five digits from '!', 'z' for four zeros.
pub fn ascii85(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for group in data.chunks(4) {
        let mut word = [0u8; 4];
        word[..group.len()].copy_from_slice(group);
        let value = u32::from_be_bytes(word);
        if group.len() == 4 && value == 0 {
            out.push(b'z');
            continue;
        }
        let digits: Vec<u8> = (0..5)
            .rev()
            .map(|i| (value / 85u32.pow(i) % 85) as u8 + 33)
            .collect();
        out.extend(&digits[..group.len() + 1]);
    }
    out.extend(b"~>");
    out
}

/// Runs of one byte repeated as repeats, the rest as literals of up to 128
/// bytes, then 128 (EOD).
pub fn run_length(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut literal: Vec<u8> = Vec::new();
    let flush = |literal: &mut Vec<u8>, out: &mut Vec<u8>| {
        for part in literal.chunks(128) {
            out.push(part.len() as u8 - 1);
            out.extend(part);
        }
        literal.clear();
    };
    let mut i = 0;
    while i < data.len() {
        let run = data[i..]
            .iter()
            .take(128)
            .take_while(|&&b| b == data[i])
            .count();
        if run == 1 {
            literal.push(data[i]);
        } else {
            flush(&mut literal, &mut out);
            out.extend([(257 - run) as u8, data[i]]);
        }
        i += run;
    }
    flush(&mut literal, &mut out);
    out.push(128);
    out
}

/// LZW with codes of 9 to 12 bits, a clear code first and the end code
/// last; with `early` (EarlyChange 1) the width grows one code early.
/// Written here rather than by weezl, which the reader decodes with.
pub fn lzw(data: &[u8], early: bool) -> Vec<u8> {
    use std::collections::HashMap;
    let mut table: HashMap<Vec<u8>, usize> = (0..=255u8).map(|b| (vec![b], b as usize)).collect();
    let mut codes = vec![256];
    let mut word: Vec<u8> = Vec::new();
    for &c in data {
        let mut longer = word.clone();
        longer.push(c);
        if table.contains_key(&longer) {
            word = longer;
            continue;
        }
        codes.push(table[&word]);
        let next = table.len() + 2;
        table.insert(longer, next);
        word = vec![c];
    }
    if !word.is_empty() {
        codes.push(table[&word]);
    }
    codes.push(257);
    // The i-th code is written once i - 1 entries were added to the 258
    // (the end code after none more than the last word), as wide as that
    // table: 9 bits until code 511 (or 512 without early change) is added.
    let (mut out, mut acc, mut count) = (Vec::new(), 0u64, 0u32);
    let last = codes.len().saturating_sub(3);
    for (i, &code) in codes.iter().enumerate() {
        let size = 258 + i.saturating_sub(1).min(last) + usize::from(early) - 1;
        let width = (usize::BITS - size.leading_zeros()).clamp(9, 12);
        acc = (acc << width) | code as u64;
        count += width;
        while count >= 8 {
            count -= 8;
            out.push((acc >> count) as u8);
        }
        acc &= (1 << count) - 1;
    }
    if count > 0 {
        out.push((acc << (8 - count)) as u8);
    }
    out
}

/// PNG rows of `columns` bytes, each tagged with a filter type in turn
/// (None, Sub, Up, Average, Paeth), as Predictor 15 allows.
pub fn png_predicted(data: &[u8], columns: usize) -> Vec<u8> {
    let mut previous = vec![0u8; columns];
    let mut out = Vec::new();
    for (n, row) in data.chunks(columns).enumerate() {
        let mut row = row.to_vec();
        row.resize(columns, 0);
        let kind = (n % 5) as u8;
        out.push(kind);
        for i in 0..columns {
            let left = if i == 0 { 0 } else { row[i - 1] };
            let corner = if i == 0 { 0 } else { previous[i - 1] };
            let above = previous[i];
            let guess = match kind {
                1 => left,
                2 => above,
                3 => ((u16::from(left) + u16::from(above)) / 2) as u8,
                4 => paeth(left, above, corner),
                _ => 0,
            };
            out.push(row[i].wrapping_sub(guess));
        }
        previous = row;
    }
    out
}

fn paeth(left: u8, above: u8, corner: u8) -> u8 {
    let guess = i16::from(left) + i16::from(above) - i16::from(corner);
    let distance = |v: u8| (guess - i16::from(v)).abs();
    let (a, b, c) = (distance(left), distance(above), distance(corner));
    if a <= b && a <= c {
        left
    } else if b <= c {
        above
    } else {
        corner
    }
}

/// Each byte less the one before it in its row (TIFF Predictor 2, one
/// 8-bit component).
pub fn tiff_predicted(data: &[u8], columns: usize) -> Vec<u8> {
    data.chunks(columns)
        .flat_map(|row| {
            row.iter()
                .enumerate()
                .map(|(i, &b)| b.wrapping_sub(if i == 0 { 0 } else { row[i - 1] }))
                .collect::<Vec<u8>>()
        })
        .collect()
}
