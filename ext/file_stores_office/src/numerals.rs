//! Number labels that Word lists and PowerPoint automatic numbers share.

/// Upper-case Roman numerals, for 1 to 3999; `None` outside.
pub fn roman(n: u64) -> Option<String> {
    if !(1..4000).contains(&n) {
        return None;
    }
    const TABLE: [(u64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    let mut rest = n;
    for (value, symbol) in TABLE {
        while rest >= value {
            out.push_str(symbol);
            rest -= value;
        }
    }
    Some(out)
}

/// Lower-case letters as Office counts: `a`..`z`, then `aa`..`zz`,
/// `aaa`... (the letter repeated). `None` for 0, or when the letter would be
/// repeated more than `max_repeat` times.
pub fn letters(n: u64, max_repeat: u64) -> Option<String> {
    if n == 0 {
        return None;
    }
    let repeat = (n - 1) / 26 + 1;
    if repeat > max_repeat {
        return None;
    }
    let letter = char::from(b'a' + ((n - 1) % 26) as u8);
    Some(letter.to_string().repeat(repeat as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roman_numerals() {
        assert_eq!(roman(4).as_deref(), Some("IV"));
        assert_eq!(roman(1994).as_deref(), Some("MCMXCIV"));
        assert_eq!(roman(3999).as_deref(), Some("MMMCMXCIX"));
        assert_eq!(roman(0), None);
        assert_eq!(roman(4000), None);
    }

    #[test]
    fn letters_repeat_past_z() {
        assert_eq!(letters(1, 10).as_deref(), Some("a"));
        assert_eq!(letters(26, 10).as_deref(), Some("z"));
        assert_eq!(letters(28, 10).as_deref(), Some("bb"));
        assert_eq!(letters(0, 10), None);
        assert_eq!(letters(261, 10), None);
    }
}
