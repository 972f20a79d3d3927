//! Dates written with slashes: `03/29/26,00:03:06` (a Windows CSV export),
//! `11/30/2026, 9:15:02 AM` (JavaScript's US locale), `30/11/2026 21:15:02` (day first) and
//! `03/28-09:01:55.951265` (Snort, no year). Which number is the month cannot be told from
//! one line, so a layout declares it after reading its sample ([`day_first`]).

use super::{build, digit, fraction, num, Dated, Fields, Ts, Zone};

/// One or two digits at `i`: (value, end).
fn one_or_two(b: &[u8], i: usize) -> Option<(u32, usize)> {
    let a = digit(b, i)?;
    Some(match digit(b, i + 1) {
        Some(c) => (a * 10 + c, i + 2),
        None => (a, i + 1),
    })
}

/// `NN/NN` at `i`: the two numbers and the end.
fn pair(b: &[u8], i: usize) -> Option<(u32, u32, usize)> {
    let (a, j) = one_or_two(b, i)?;
    if b.get(j) != Some(&b'/') {
        return None;
    }
    let (c, k) = one_or_two(b, j + 1)?;
    Some((a, c, k))
}

/// A slashed date and its time at `i`, the month first unless `day_first`.
pub(crate) fn slash_date(b: &[u8], i: usize, day_first: bool) -> Option<(Ts, usize)> {
    let (a, c, mut j) = pair(b, i)?;
    let (mo, d) = if day_first { (c, a) } else { (a, c) };
    let mut year = None;
    if b.get(j) == Some(&b'/') {
        let four = num(b, j + 1, 4).filter(|_| digit(b, j + 5).is_none());
        year = Some(match four {
            Some(y) => {
                j += 5;
                i64::from(y)
            }
            None => {
                let y = num(b, j + 1, 2).filter(|_| digit(b, j + 3).is_none())?;
                j += 3;
                2000 + i64::from(y)
            }
        });
    }
    match (b.get(j), year) {
        (Some(b','), Some(_)) if b.get(j + 1) == Some(&b' ') => j += 2,
        // A table's separator between its date and clock columns is one too.
        (Some(b',' | b' ' | b'T' | b';' | b'\t' | b'|'), Some(_)) | (Some(b'-'), None) => j += 1,
        _ => return None,
    }
    let (h, end) = one_or_two(b, j)?;
    if b.get(end) != Some(&b':') || b.get(end + 3) != Some(&b':') {
        return None;
    }
    let (mi, s) = (num(b, end + 1, 2)?, num(b, end + 4, 2)?);
    let (micros, frac_digits, mut end) = fraction(b, end + 6);
    let mut h = h;
    let half = b
        .get(end + 1..end + 3)
        .filter(|_| b.get(end) == Some(&b' '));
    if let Some(pm) = half.and_then(|x| {
        if x.eq_ignore_ascii_case(b"AM") {
            Some(false)
        } else if x.eq_ignore_ascii_case(b"PM") {
            Some(true)
        } else {
            None
        }
    }) {
        if !(1..=12).contains(&h) {
            return None;
        }
        h = h % 12 + if pm { 12 } else { 0 };
        end += 3;
    }
    let f = Fields {
        y: year.unwrap_or(0),
        mo,
        d,
        h,
        mi,
        s,
        micros,
        frac_digits,
    };
    Some((
        build(
            f,
            Zone::None,
            if year.is_none() {
                Dated::NoYear
            } else {
                Dated::Full
            },
        )?,
        end,
    ))
}

/// Whether slashed dates sampled as `values` (each starting with one) are day first: some
/// first number is above 12 and no second one is.
pub(crate) fn day_first<'a>(values: impl IntoIterator<Item = &'a [u8]>) -> bool {
    let (mut first_big, mut second_big) = (false, false);
    for v in values {
        if let Some((a, c, _)) = pair(v, 0) {
            first_big |= a > 12;
            second_big |= c > 12;
        }
    }
    first_big && !second_big
}

#[cfg(test)]
mod tests {
    use super::super::{format, Precision};
    use super::*;

    fn show(s: &str, day_first: bool) -> Option<(String, usize)> {
        slash_date(s.as_bytes(), 0, day_first).map(|(t, e)| (format(&t, Precision::Full), e))
    }

    #[test]
    fn slashed_dates_with_their_times() {
        let want = |t: &str, e| Some((t.to_string(), e));
        assert_eq!(
            show("03/29/26,00:03:06,Renew", false),
            want("2026-03-29T00:03:06", 17)
        );
        assert_eq!(
            show("11/30/2026, 9:15:02 AM  LOG", false),
            want("2026-11-30T09:15:02", 22)
        );
        assert_eq!(
            show("11/30/2026, 12:05:09 AM", false),
            want("2026-11-30T00:05:09", 23)
        );
        assert_eq!(
            show("11/30/2026 1:05:09 PM", false),
            want("2026-11-30T13:05:09", 21)
        );
        assert_eq!(
            show("30/11/2026 21:15:02.5 x", true),
            want("2026-11-30T21:15:02.5", 21)
        );
        assert_eq!(
            show("03/28-09:01:55.951265  [**]", false),
            want("Mar 28 09:01:55.951265", 21)
        );
        assert_eq!(show("13/01/2026 10:00:00", false), None);
        assert_eq!(show("1/2 3", false), None);
        assert_eq!(show("11/30/2026, 13:05:09 PM", false), None);
    }

    #[test]
    fn which_number_is_the_day_is_read_from_the_sample() {
        let v = |s: &[&'static str]| s.iter().map(|x| x.as_bytes()).collect::<Vec<_>>();
        assert!(day_first(v(&["05/11/2026", "30/11/2026"])));
        assert!(!day_first(v(&["11/05/2026", "11/30/2026"])));
        assert!(!day_first(v(&["05/11/2026", "06/11/2026"])));
    }
}
