//! How Excel shows a number, reduced to what a reader needs: the kind of a
//! number format (date, time, percentage...) and the text of a value in it.
//!
//! A full number-format engine (thousands separators, currency, fractions,
//! colours) would make numbers *look* like Excel's but lose precision a
//! model may need, so only the formats that change what a number *means*
//! are applied: dates and times (a serial day count otherwise reads as
//! 46112), percentages and elapsed durations. Everything else is the
//! shortest text that reads back as the same `f64`, so `0.1` stays `0.1`.

use std::fmt::Write;

/// How a number in a given format is written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Shortest round-trip decimal.
    Number,
    /// Times 100 with a `%` sign (`0.125` → `12.5%`).
    Percent,
    /// `2026-03-31`.
    Date,
    /// `2026-03-31 14:05:00`.
    DateTime,
    /// `14:05:00` (the time of day).
    Time,
    /// `36:00:00`: elapsed hours (`[h]:mm:ss`), which may pass 24.
    Duration,
}

/// The kind of a built-in number format id (ECMA-376 §18.8.30), for ids a
/// workbook uses without defining them. 27-36 and 50-58 are the East Asian
/// locales' date and time formats.
pub fn builtin(id: u32) -> Kind {
    match id {
        9 | 10 => Kind::Percent,
        14..=17 | 27..=31 | 36 | 50..=58 => Kind::Date,
        18..=21 | 32..=35 | 45 | 47 => Kind::Time,
        22 => Kind::DateTime,
        46 => Kind::Duration,
        _ => Kind::Number,
    }
}

/// The kind of a format code. Only the first section (positive numbers)
/// counts; quoted text, `\x` escapes, `_x` and `*x` padding and `[...]`
/// colours, conditions and locales are not format letters, but `[h]`,
/// `[mm]`, `[ss]` are elapsed time.
pub fn classify(code: &str) -> Kind {
    let (mut date, mut month_or_minute, mut time, mut elapsed, mut percent) =
        (false, false, false, false, false);
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        match c {
            ';' => break,
            '"' => {
                for q in chars.by_ref() {
                    if q == '"' {
                        break;
                    }
                }
            }
            '\\' | '_' | '*' => {
                chars.next();
            }
            '[' => {
                let mut inner = String::new();
                for b in chars.by_ref() {
                    if b == ']' {
                        break;
                    }
                    inner.push(b);
                }
                if !inner.is_empty() && inner.chars().all(|b| "hHmMsS".contains(b)) {
                    elapsed = true;
                }
            }
            '%' => percent = true,
            'y' | 'Y' | 'd' | 'D' => date = true,
            'm' | 'M' => month_or_minute = true,
            'h' | 'H' | 's' | 'S' => time = true,
            _ => {}
        }
    }
    // `m` is minutes next to hours or seconds (`h:mm`, `mm:ss`), else months.
    let date = date || (month_or_minute && !time && !elapsed);
    match (date, time, elapsed) {
        (true, true, _) | (true, false, true) => Kind::DateTime,
        (true, false, false) => Kind::Date,
        (false, _, true) => Kind::Duration,
        (false, true, false) => Kind::Time,
        (false, false, false) if percent => Kind::Percent,
        _ => Kind::Number,
    }
}

/// Writes `value` as `kind` shows it. Serial dates out of Excel's range
/// (negative, or past 9999-12-31) are written as numbers, as the value is
/// all there is to show.
pub fn write_value(out: &mut String, value: f64, kind: Kind, date1904: bool) {
    match kind {
        Kind::Number => write_number(out, value),
        Kind::Percent => write_percent(out, value),
        Kind::Duration => write_duration(out, value),
        Kind::Date | Kind::DateTime | Kind::Time => {
            if !write_date(out, value, kind, date1904) {
                write_number(out, value);
            }
        }
    }
}

/// The shortest decimal that reads back as `value`; integers without `.0`,
/// and scientific notation (`1.5E+21`) where plain digits would run long.
pub fn write_number(out: &mut String, value: f64) {
    if !value.is_finite() {
        out.push_str("#NUM!");
    } else if value == 0.0 {
        out.push('0');
    } else if value.abs() >= 1e21 || value.abs() < 1e-9 {
        let s = format!("{value:e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => {
                let (sign, digits) = match exp.strip_prefix('-') {
                    Some(d) => ('-', d),
                    None => ('+', exp),
                };
                let _ = write!(out, "{mantissa}E{sign}{digits:0>2}");
            }
            None => out.push_str(&s),
        }
    } else {
        // Rust's float Display is the shortest round-trip form.
        let _ = write!(out, "{value}");
    }
}

/// `value` × 100 with `%`, done on the decimal digits rather than in
/// floating point (0.07 × 100 is 7.000000000000001).
fn write_percent(out: &mut String, value: f64) {
    let mut digits = String::new();
    write_number(&mut digits, value);
    if digits.contains('E') || !value.is_finite() {
        digits.clear();
        write_number(&mut digits, value * 100.0);
        out.push_str(&digits);
        out.push('%');
        return;
    }
    let (sign, unsigned) = match digits.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", digits.as_str()),
    };
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let mut shifted: String = int.to_owned();
    let mut frac_chars = frac.chars();
    for _ in 0..2 {
        shifted.push(frac_chars.next().unwrap_or('0'));
    }
    let rest: String = frac_chars.collect();
    let int_part = shifted.trim_start_matches('0');
    out.push_str(sign);
    out.push_str(if int_part.is_empty() { "0" } else { int_part });
    if !rest.is_empty() {
        out.push('.');
        out.push_str(&rest);
    }
    out.push('%');
}

/// Seconds in the value, rounded to the nearest second (Excel shows times
/// rounded, so 14:04:59.9996 is 14:05:00).
fn seconds(value: f64) -> Option<i64> {
    let s = (value * 86_400.0).round();
    (s.is_finite() && s.abs() < 1e15).then_some(s as i64)
}

fn write_duration(out: &mut String, value: f64) {
    let Some(total) = seconds(value) else {
        write_number(out, value);
        return;
    };
    let sign = if total < 0 { "-" } else { "" };
    let t = total.abs();
    let _ = write!(out, "{sign}{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
}

/// Writes a serial date; false when it is out of Excel's date range.
fn write_date(out: &mut String, value: f64, kind: Kind, date1904: bool) -> bool {
    let Some(total) = seconds(value) else {
        return false;
    };
    if total < 0 || total / 86_400 > 2_958_465 {
        return false;
    }
    let (day, secs) = (total / 86_400, total % 86_400);
    if kind != Kind::Time {
        let (y, m, d) = if date1904 {
            civil(day + DAYS_1904)
        } else if day == 0 {
            // Excel shows serial 0 as the day before 1900-01-01.
            (1900, 1, 0)
        } else if day == 60 {
            // Excel's 1900 leap-year bug, kept so dates match what it shows.
            (1900, 2, 29)
        } else if day < 60 {
            civil(day + DAYS_1900 + 1)
        } else {
            civil(day + DAYS_1900)
        };
        let _ = write!(out, "{y:04}-{m:02}-{d:02}");
    }
    if kind == Kind::DateTime {
        out.push(' ');
    }
    if kind != Kind::Date {
        let _ = write!(
            out,
            "{:02}:{:02}:{:02}",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        );
    }
    true
}

/// Days from 1970-01-01 to 1899-12-30 (serial 0 of the 1900 system, once
/// its leap-year bug is past) and to 1904-01-01 (serial 0 of the 1904 one).
const DAYS_1900: i64 = -25_569;
const DAYS_1904: i64 = -24_107;

/// Year, month, day of a day count from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(value: f64, kind: Kind, date1904: bool) -> String {
        let mut s = String::new();
        write_value(&mut s, value, kind, date1904);
        s
    }

    #[test]
    fn numbers_are_shortest_round_trip() {
        assert_eq!(show(0.1, Kind::Number, false), "0.1");
        assert_eq!(show(0.1 + 0.2, Kind::Number, false), "0.30000000000000004");
        assert_eq!(show(42.0, Kind::Number, false), "42");
        assert_eq!(show(-3.5, Kind::Number, false), "-3.5");
        assert_eq!(show(1.5e21, Kind::Number, false), "1.5E+21");
        assert_eq!(show(1e-10, Kind::Number, false), "1E-10");
        assert_eq!(show(-0.0, Kind::Number, false), "0");
    }

    #[test]
    fn percentages_shift_the_digits() {
        assert_eq!(show(0.5, Kind::Percent, false), "50%");
        assert_eq!(show(0.125, Kind::Percent, false), "12.5%");
        assert_eq!(show(0.07, Kind::Percent, false), "7%");
        assert_eq!(show(1.0, Kind::Percent, false), "100%");
        assert_eq!(show(-0.0125, Kind::Percent, false), "-1.25%");
        assert_eq!(show(12.3456, Kind::Percent, false), "1234.56%");
    }

    #[test]
    fn serial_dates_in_both_systems() {
        assert_eq!(show(46112.0, Kind::Date, false), "2026-03-31");
        assert_eq!(
            show(46112.0 + 14.0 / 24.0 + 5.0 / 1440.0, Kind::DateTime, false),
            "2026-03-31 14:05:00"
        );
        assert_eq!(show(0.5868055555, Kind::Time, false), "14:05:00");
        assert_eq!(show(1.0, Kind::Date, false), "1900-01-01");
        assert_eq!(show(59.0, Kind::Date, false), "1900-02-28");
        assert_eq!(show(60.0, Kind::Date, false), "1900-02-29");
        assert_eq!(show(61.0, Kind::Date, false), "1900-03-01");
        assert_eq!(show(46112.0 - 1462.0, Kind::Date, true), "2026-03-31");
        assert_eq!(show(0.0, Kind::Date, true), "1904-01-01");
        assert_eq!(show(-1.0, Kind::Date, false), "-1");
        assert_eq!(show(1.5, Kind::Duration, false), "36:00:00");
    }

    #[test]
    fn format_codes_by_their_letters() {
        assert_eq!(classify("yyyy-mm-dd"), Kind::Date);
        assert_eq!(classify("m/d/yy h:mm"), Kind::DateTime);
        assert_eq!(classify("h:mm AM/PM"), Kind::Time);
        assert_eq!(classify("mm:ss"), Kind::Time);
        assert_eq!(classify("[h]:mm:ss"), Kind::Duration);
        assert_eq!(classify("mmm"), Kind::Date);
        assert_eq!(classify("0.0%"), Kind::Percent);
        assert_eq!(classify("General"), Kind::Number);
        assert_eq!(classify("#,##0.00 \"days\""), Kind::Number);
        assert_eq!(classify("[Red][<0]0.00;0.00"), Kind::Number);
        assert_eq!(classify("[$-409]0.00\\h"), Kind::Number);
        assert_eq!(classify("0.00;\"yes\"dd"), Kind::Number);
        assert_eq!(classify("\"%\"0"), Kind::Number);
        assert_eq!(builtin(14), Kind::Date);
        assert_eq!(builtin(22), Kind::DateTime);
        assert_eq!(builtin(20), Kind::Time);
        assert_eq!(builtin(9), Kind::Percent);
        assert_eq!(builtin(2), Kind::Number);
    }
}
