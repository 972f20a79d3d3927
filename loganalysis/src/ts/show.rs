//! A timestamp shown as the log wrote it: ISO with its fraction and zone, syslog's form
//! without a year, a time of day alone.

use super::{civil_from_days, Dated, Ts, Zone, MICROS_PER_SEC, MONTHS};

fn two(out: &mut String, v: u32) {
    out.push(char::from(b'0' + (v / 10 % 10) as u8));
    out.push(char::from(b'0' + (v % 10) as u8));
}

/// Date and time of a key: (year, month, day, hour, minute, second, micros).
fn parts(key: i64) -> (i64, u32, u32, u32, u32, u32, u32) {
    let secs = key.div_euclid(MICROS_PER_SEC);
    let micros = key.rem_euclid(MICROS_PER_SEC) as u32;
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400) as u32;
    let (y, mo, d) = civil_from_days(days);
    (y, mo, d, sod / 3600, sod / 60 % 60, sod % 60, micros)
}

/// How much of a timestamp to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precision {
    Day,
    Minute,
    Full,
}

/// ISO form `2024-05-01T10:00:00.123+08:00` (fraction and zone as written); syslog
/// timestamps without a year keep their form: `May  1 10:00:00`, and a time of day alone
/// is shown alone (`10:00:00.123`; its day is `-`).
pub(crate) fn format(ts: &Ts, precision: Precision) -> String {
    let (y, mo, d, h, mi, s, micros) = parts(ts.key);
    let mut out = String::with_capacity(32);
    if ts.dated == Dated::NoDate {
        if precision == Precision::Day {
            return "-".into();
        }
    } else if ts.dated == Dated::NoYear {
        out.push_str(std::str::from_utf8(MONTHS[(mo - 1) as usize]).unwrap_or("???"));
        out.push(' ');
        if d < 10 {
            out.push(' ');
            out.push(char::from(b'0' + d as u8));
        } else {
            two(&mut out, d);
        }
        if precision == Precision::Day {
            return out;
        }
        out.push(' ');
    } else {
        out.push_str(&format!("{y:04}-"));
        two(&mut out, mo);
        out.push('-');
        two(&mut out, d);
        if precision == Precision::Day {
            return out;
        }
        out.push('T');
    }
    two(&mut out, h);
    out.push(':');
    two(&mut out, mi);
    if precision == Precision::Minute {
        return out;
    }
    out.push(':');
    two(&mut out, s);
    if ts.frac_digits > 0 {
        let digits = format!("{micros:06}");
        out.push('.');
        out.push_str(&digits[..usize::from(ts.frac_digits.min(6))]);
    }
    if ts.dated.has_year() {
        match ts.zone {
            Zone::None => {}
            Zone::Utc => out.push('Z'),
            Zone::Offset(m) => {
                out.push(if m < 0 { '-' } else { '+' });
                let m = m.unsigned_abs();
                two(&mut out, u32::from(m / 60));
                out.push(':');
                two(&mut out, u32::from(m % 60));
            }
        }
    }
    out
}
