//! Timestamp recognition (hand-written byte parsers, no regex) and ISO formatting.
//!
//! Recognised forms (see docs/tools.md):
//! - ISO 8601 / RFC 3339: `2024-05-01T10:00:00`, space instead of `T`, `.123` or `,123`
//!   fraction (kept to microseconds), zone `Z`, `+08:00`, `+0800`, `+08`;
//! - `2024/05/01 10:00:00` (nginx error log);
//! - `01/May/2024:10:00:00 +0000` (apache / nginx access log);
//! - `Wed May 01 10:00:00[.frac] 2024` (ctime, apache error log);
//! - `May  1 10:00:00` (syslog, no year: shown as given, ordered within the year);
//! - `10:00:00.123` at the line start (a time of day alone: shown so, read as one day's);
//! - `Mar 23 2026 14:00:02` (Cisco's month, day and year);
//! - slashed dates `03/29/26,00:03:06`, `11/30/2026, 9:15:02 AM`, month or day first as a
//!   layout declares (`slash`);
//! - JSON keys `time`, `timestamp`, `ts`, `@timestamp`, `datetime` holding one of the above or
//!   epoch seconds / milli- / micro- / nanoseconds, and logfmt `time=` / `ts=` at the line start.
//!
//! Where: at the line start (after an optional `[` or syslog `<PRI>` / `<PRI>1 `), else right
//! after the first `[` in the first 128 bytes, else (JSON lines) in one of the keys above.
//! Times are ordered as written: the zone is kept for display but not applied.

use memchr::memmem;

mod show;
mod slash;
pub(crate) use show::{format, Precision};
pub(crate) use slash::{day_first, slash_date};

const MICROS_PER_SEC: i64 = 1_000_000;
pub(crate) const MINUTE: i64 = 60 * MICROS_PER_SEC;
pub(crate) const HOUR: i64 = 60 * MINUTE;
pub(crate) const DAY: i64 = 24 * HOUR;

/// 2000-01-01 and 2100-01-01 as epoch microseconds.
const EPOCH_2000: i64 = 946_684_800 * MICROS_PER_SEC;
const EPOCH_2100: i64 = 4_102_444_800 * MICROS_PER_SEC;

const MONTHS: [&[u8; 3]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];
const WEEKDAYS: [&[u8; 3]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];

/// How the zone was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Zone {
    None,
    Utc,
    /// Offset in minutes east of UTC.
    Offset(i16),
}

/// How much of the date a timestamp writes. The missing parts are year 0 in `Ts::key`
/// (and January 1st for a time of day alone), ordered from the most written to the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(crate) enum Dated {
    #[default]
    Full,
    /// Syslog's `May  1 10:00:00`.
    NoYear,
    /// A time of day alone (logback's `HH:mm:ss.SSS`, Elixir's `$time`).
    NoDate,
}

impl Dated {
    pub(crate) fn has_year(self) -> bool {
        self == Dated::Full
    }
}

/// One parsed timestamp. `key` orders timestamps: microseconds since 0000-03-01-ish civil
/// epoch (days_from_civil), as written (zone not applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ts {
    pub key: i64,
    pub zone: Zone,
    /// Fraction digits as written (0..=6).
    pub frac_digits: u8,
    /// How much of the date is written.
    pub dated: Dated,
}

impl Ts {
    /// A time written without a year placed in the year of `newest` (the newest dated
    /// event of the logs read beside it: year, month, day), or the year before when its
    /// day comes after that one (a syslog that began in December): its month, day and
    /// clock kept. A time of day alone is placed on that day.
    pub(crate) fn in_year(self, (year, nm, nd): (i64, u32, u32)) -> Ts {
        if self.dated.has_year() {
            return self;
        }
        let day = self.key.div_euclid(86_400 * MICROS_PER_SEC);
        let rest = self.key.rem_euclid(86_400 * MICROS_PER_SEC);
        // A time of day alone is on that newest day.
        let (m, d) = match self.dated {
            Dated::NoDate => (nm, nd),
            _ => {
                let (_, m, d) = civil_from_days(day);
                (m, d)
            }
        };
        let year = if (m, d) > (nm, nd) { year - 1 } else { year };
        Ts {
            key: days_from_civil(year, m, d) * 86_400 * MICROS_PER_SEC + rest,
            dated: Dated::Full,
            ..self
        }
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(m);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Inverse of [`days_from_civil`].
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[inline]
fn digit(b: &[u8], i: usize) -> Option<u32> {
    match b.get(i) {
        Some(c @ b'0'..=b'9') => Some(u32::from(c - b'0')),
        _ => None,
    }
}

#[inline]
fn num(b: &[u8], i: usize, n: usize) -> Option<u32> {
    let mut v = 0;
    for k in 0..n {
        v = v * 10 + digit(b, i + k)?;
    }
    Some(v)
}

fn month_at(b: &[u8], i: usize) -> Option<u32> {
    let s = b.get(i..i + 3)?;
    MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(s))
        .map(|p| p as u32 + 1)
}

/// Calendar fields of a timestamp as written.
#[derive(Debug, Clone, Copy, Default)]
struct Fields {
    y: i64,
    mo: u32,
    d: u32,
    h: u32,
    mi: u32,
    s: u32,
    micros: u32,
    frac_digits: u8,
}

fn build(f: Fields, zone: Zone, dated: Dated) -> Option<Ts> {
    let Fields {
        y,
        mo,
        d,
        h,
        mi,
        s,
        micros,
        frac_digits,
    } = f;
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let secs = days_from_civil(y, mo, d) * 86_400
        + i64::from(h) * 3600
        + i64::from(mi) * 60
        + i64::from(s);
    Some(Ts {
        key: secs * MICROS_PER_SEC + i64::from(micros),
        zone,
        frac_digits,
        dated,
    })
}

/// `HH:MM:SS` at `i`.
fn hms(b: &[u8], i: usize) -> Option<(u32, u32, u32)> {
    if b.get(i + 2) != Some(&b':') || b.get(i + 5) != Some(&b':') {
        return None;
    }
    Some((num(b, i, 2)?, num(b, i + 3, 2)?, num(b, i + 6, 2)?))
}

/// A time of day alone, `HH:MM:SS[.frac]` at `i` (logback's default `%d{HH:mm:ss.SSS}`,
/// Elixir's `$time`), that a blank, `]` or the line end follows: on January 1st of year 0,
/// shown without a date. The caller says where one may stand (a line's start).
pub(crate) fn clock_only(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    if i > 0 && b.get(i - 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (ts, end) = clock_after(b, (0, 1, 1), i, Dated::NoDate)?;
    matches!(b.get(end), None | Some(b' ' | b'\t' | b']')).then_some((ts, end))
}

/// Optional `.ffffff` / `,ffffff` at `i`: (micros, digits kept, end).
fn fraction(b: &[u8], i: usize) -> (u32, u8, usize) {
    if !matches!(b.get(i), Some(b'.' | b',')) || digit(b, i + 1).is_none() {
        return (0, 0, i);
    }
    let mut j = i + 1;
    let mut micros = 0u32;
    let mut kept = 0u8;
    while let Some(d) = digit(b, j) {
        if kept < 6 {
            micros = micros * 10 + d;
            kept += 1;
        }
        j += 1;
    }
    for _ in kept..6 {
        micros *= 10;
    }
    (micros, kept, j)
}

/// Optional zone at `i`: `Z`, `±HH:MM`, `±HHMM`, `±HH` (optionally after one space for
/// `±HHMM`, the access-log form), or ` UTC` / ` GMT` after one space (PostgreSQL's and
/// PgBouncer's `2032-04-22 00:30:07.400 UTC`).
pub(crate) fn zone(b: &[u8], i: usize) -> (Zone, usize) {
    let word = |w: &[u8]| {
        b.get(i) == Some(&b' ')
            && b.get(i + 1..i + 4) == Some(w)
            && !b.get(i + 4).is_some_and(|c| c.is_ascii_alphanumeric())
    };
    if word(b"UTC") || word(b"GMT") {
        return (Zone::Utc, i + 4);
    }
    match b.get(i) {
        Some(b'Z') => return (Zone::Utc, i + 1),
        Some(b'+' | b'-') => {}
        _ => return (Zone::None, i),
    }
    let sign: i16 = if b[i] == b'-' { -1 } else { 1 };
    let Some(hh) = num(b, i + 1, 2) else {
        return (Zone::None, i);
    };
    let (mm, end) = if b.get(i + 3) == Some(&b':') {
        match num(b, i + 4, 2) {
            Some(m) => (m, i + 6),
            None => return (Zone::None, i),
        }
    } else if let Some(m) = num(b, i + 3, 2) {
        (m, i + 5)
    } else {
        (0, i + 3)
    };
    if digit(b, end).is_some() || hh > 14 || mm > 59 {
        return (Zone::None, i);
    }
    (Zone::Offset(sign * (hh as i16 * 60 + mm as i16)), end)
}

/// IBM's zone: `-300` or `+60`, minutes east of UTC, at `i`.
fn minutes_zone(b: &[u8], i: usize) -> (Zone, usize) {
    let sign: i16 = match b.get(i) {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return (Zone::None, i),
    };
    let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
    match std::str::from_utf8(&b[i + 1..i + 1 + n])
        .ok()
        .and_then(|d| d.parse::<i16>().ok())
    {
        Some(m) if (1..=4).contains(&n) && m <= 14 * 60 => (Zone::Offset(sign * m), i + 1 + n),
        _ => (Zone::None, i),
    }
}

/// `YYYY-MM-DD[T ]HH:MM:SS[.f][zone]`, `YYYY/MM/DD HH:MM:SS[.f]`, ClickHouse's
/// `YYYY.MM.DD HH:MM:SS.ffffff`, or IBM's `YYYY-MM-DD-HH.MM.SS.ffffff` (Db2, WebSphere).
fn iso(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    let y = num(b, i, 4)?;
    let sep = *b.get(i + 4)?;
    if !matches!(sep, b'-' | b'/' | b'.') || b.get(i + 7) != Some(&sep) {
        return None;
    }
    let mo = num(b, i + 5, 2)?;
    let d = num(b, i + 8, 2)?;
    let dotted = sep == b'-'
        && b.get(i + 10) == Some(&b'-')
        && b.get(i + 13) == Some(&b'.')
        && b.get(i + 16) == Some(&b'.');
    // Airflow's `2031-05-01, 02:00:04`: a comma after the date; Gin's `2031/05/01 -
    // 02:00:04`: a dash between blanks (read as two more characters of the gap).
    let comma = if dotted {
        0
    } else if b.get(i + 10) == Some(&b',') && b.get(i + 11) == Some(&b' ') {
        1
    } else if b.get(i + 10..i + 13) == Some(&b" - "[..])
        && b.get(i + 13).is_some_and(u8::is_ascii_digit)
    {
        2
    } else {
        0
    };
    if !dotted && !matches!(b.get(i + 10 + comma), Some(b'T' | b' ')) {
        return None;
    }
    // More blanks between the date and the time (APT's `2024-05-01  10:00:00`).
    let gap = comma
        + if b.get(i + 10 + comma) == Some(&b' ') {
            b[i + 11 + comma..]
                .iter()
                .take(3)
                .take_while(|c| **c == b' ')
                .count()
        } else {
            0
        };
    let (h, mi, s) = if dotted {
        (num(b, i + 11, 2)?, num(b, i + 14, 2)?, num(b, i + 17, 2)?)
    } else {
        hms(b, i + 11 + gap)?
    };
    let (micros, fd, j) = fraction(b, i + 19 + gap);
    let (z, end) = if dotted {
        minutes_zone(b, j)
    } else {
        match zone(b, j) {
            // `[2029-07-03 09:12:44 +0000]` (gunicorn): `±HHMM` after a blank.
            (Zone::None, _) if b.get(j) == Some(&b' ') => match zone(b, j + 1) {
                (z @ Zone::Offset(_), e) if e == j + 6 => (z, e),
                _ => (Zone::None, j),
            },
            found => found,
        }
    };
    Some((
        build(
            Fields {
                y: i64::from(y),
                mo,
                d,
                h,
                mi,
                s,
                micros,
                frac_digits: fd,
            },
            z,
            Dated::Full,
        )?,
        end,
    ))
}

/// `01/May/2024:10:00:00 +0000`; Django's runserver writes a blank for the colon.
fn access(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    let d = num(b, i, 2)?;
    if b.get(i + 2) != Some(&b'/')
        || b.get(i + 6) != Some(&b'/')
        || !matches!(b.get(i + 11), Some(b':' | b' '))
    {
        return None;
    }
    let mo = month_at(b, i + 3)?;
    let y = num(b, i + 7, 4)?;
    let (h, mi, s) = hms(b, i + 12)?;
    let (micros, fd, j) = fraction(b, i + 20);
    let (z, end) = if b.get(j) == Some(&b' ') {
        match zone(b, j + 1) {
            (Zone::None, _) => (Zone::None, j),
            found => found,
        }
    } else {
        zone(b, j)
    };
    Some((
        build(
            Fields {
                y: i64::from(y),
                mo,
                d,
                h,
                mi,
                s,
                micros,
                frac_digits: fd,
            },
            z,
            Dated::Full,
        )?,
        end,
    ))
}

/// `May  1 10:00:00[.f]` (syslog) or, when `weekday` is set, `Wed May 01 10:00:00[.f] 2024`.
fn month_day(b: &[u8], i: usize, weekday: bool) -> Option<(Ts, usize)> {
    let mo = month_at(b, i)?;
    if b.get(i + 3) != Some(&b' ') {
        return None;
    }
    let mut j = i + 4;
    if b.get(j) == Some(&b' ') {
        j += 1;
    }
    let d = match (digit(b, j), digit(b, j + 1)) {
        (Some(a), Some(c)) => {
            j += 2;
            a * 10 + c
        }
        (Some(a), None) => {
            j += 1;
            a
        }
        _ => return None,
    };
    if b.get(j) == Some(&b',') && !weekday {
        return month_day_year_12h(b, mo, d, j + 1);
    }
    if b.get(j) != Some(&b' ') {
        return None;
    }
    if !weekday && b.get(j + 5) == Some(&b' ') {
        if let Some(y) = num(b, j + 1, 4) {
            return clock_after(b, (i64::from(y), mo, d), j + 6, Dated::Full);
        }
    }
    let (h, mi, s) = hms(b, j + 1)?;
    let (micros, fd, end) = fraction(b, j + 9);
    if weekday {
        if b.get(end) != Some(&b' ') {
            return None;
        }
        let y = num(b, end + 1, 4)?;
        if digit(b, end + 5).is_some() {
            return None;
        }
        return Some((
            build(
                Fields {
                    y: i64::from(y),
                    mo,
                    d,
                    h,
                    mi,
                    s,
                    micros,
                    frac_digits: fd,
                },
                Zone::None,
                Dated::Full,
            )?,
            end + 5,
        ));
    }
    Some((
        build(
            Fields {
                y: 0,
                mo,
                d,
                h,
                mi,
                s,
                micros,
                frac_digits: fd,
            },
            Zone::None,
            Dated::NoYear,
        )?,
        end,
    ))
}

/// `21 Aug 2027 17:00:00[.f]` (Redis) or `21-Aug-2027 17:00:00[.f]` (Tomcat's
/// `catalina.out`): day, month name and year with one separator, then the time.
fn day_month_year(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    let (d, j) = match (digit(b, i), digit(b, i + 1)) {
        (Some(a), Some(c)) => (a * 10 + c, i + 2),
        (Some(a), None) => (a, i + 1),
        _ => return None,
    };
    let sep = *b.get(j)?;
    if !(sep == b' ' || sep == b'-') || b.get(j + 4) != Some(&sep) {
        return None;
    }
    let mo = month_at(b, j + 1)?;
    let y = num(b, j + 5, 4)?;
    if b.get(j + 9) != Some(&b' ') {
        return None;
    }
    clock_after(b, (i64::from(y), mo, d), j + 10, Dated::Full)
}

/// klog's `0821 17:00:00.123456` (month and day as digits, no year) at `i`: ordered within
/// the year like syslog's form. Only for a format that declares it: four digits and a time
/// are too common to guess from.
pub(crate) fn klog(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    if b.get(i + 4) != Some(&b' ') {
        return None;
    }
    no_year_time(b, (num(b, i, 2)?, num(b, i + 2, 2)?), i + 5)
}

/// A month and day without a year, then `HH:MM:SS[.frac]` at `i`.
fn no_year_time(b: &[u8], (mo, d): (u32, u32), i: usize) -> Option<(Ts, usize)> {
    clock_after(b, (0, mo, d), i, Dated::NoYear)
}

/// `HH:MM:SS[.frac]` at `i` on the date read (Cisco's `Mar 23 2026 14:00:02`, klog's and
/// logcat's dates without a year).
fn clock_after(
    b: &[u8],
    (y, mo, d): (i64, u32, u32),
    i: usize,
    dated: Dated,
) -> Option<(Ts, usize)> {
    let (h, mi, s) = hms(b, i)?;
    let (micros, frac_digits, end) = fraction(b, i + 8);
    let f = Fields {
        y,
        mo,
        d,
        h,
        mi,
        s,
        micros,
        frac_digits,
    };
    Some((build(f, Zone::None, dated)?, end))
}

/// The rest of Java's default medium form `Nov 29, 2026 9:48:03 PM` (java.util.logging's
/// two-line layout) from ` 2026` on, the month and day read.
fn month_day_year_12h(b: &[u8], mo: u32, d: u32, i: usize) -> Option<(Ts, usize)> {
    if b.get(i) != Some(&b' ') || b.get(i + 5) != Some(&b' ') {
        return None;
    }
    let y = num(b, i + 1, 4)?;
    let mut j = i + 6;
    let mut h = digit(b, j)?;
    j += 1;
    if let Some(second) = digit(b, j) {
        h = h * 10 + second;
        j += 1;
    }
    if b.get(j) != Some(&b':') || b.get(j + 3) != Some(&b':') || b.get(j + 6) != Some(&b' ') {
        return None;
    }
    let (mi, s) = (num(b, j + 1, 2)?, num(b, j + 4, 2)?);
    let pm = match b.get(j + 7..j + 9)? {
        x if x.eq_ignore_ascii_case(b"AM") => false,
        x if x.eq_ignore_ascii_case(b"PM") => true,
        _ => return None,
    };
    if !(1..=12).contains(&h) {
        return None;
    }
    let h = h % 12 + if pm { 12 } else { 0 };
    let f = Fields {
        y: i64::from(y),
        mo,
        d,
        h,
        mi,
        s,
        micros: 0,
        frac_digits: 0,
    };
    Some((build(f, Zone::None, Dated::Full)?, j + 9))
}

/// `11-30 09:15:02.123` (month and day joined by `-`, no year), Android logcat's form:
/// ordered within the year like syslog's. Only for a layout that declares it, as with klog.
pub(crate) fn month_day_dashed(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    if b.get(i + 2) != Some(&b'-') || b.get(i + 5) != Some(&b' ') {
        return None;
    }
    no_year_time(b, (num(b, i, 2)?, num(b, i + 3, 2)?), i + 6)
}

/// `17.02.2032 00:30:01[.123]`: the day first, as German and Russian locales write it.
fn dotted_day_first(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    if b.get(i + 2) != Some(&b'.') || b.get(i + 5) != Some(&b'.') || b.get(i + 10) != Some(&b' ') {
        return None;
    }
    let (d, mo, y) = (num(b, i, 2)?, num(b, i + 3, 2)?, num(b, i + 6, 4)?);
    let (h, mi, s) = hms(b, i + 11)?;
    let (micros, fd, j) = fraction(b, i + 19);
    let (z, end) = zone(b, j);
    let f = Fields {
        y: i64::from(y),
        mo,
        d,
        h,
        mi,
        s,
        micros,
        frac_digits: fd,
    };
    Some((build(f, z, Dated::Full)?, end))
}

/// A timestamp starting exactly at `i`.
pub(crate) fn parse_at(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    let c = *b.get(i)?;
    if c.is_ascii_digit() {
        iso(b, i)
            .or_else(|| access(b, i))
            .or_else(|| day_month_year(b, i))
            .or_else(|| dotted_day_first(b, i))
    } else if c.is_ascii_alphabetic() {
        let three = b.get(i..i + 3)?;
        if b.get(i + 3) == Some(&b' ') && WEEKDAYS.iter().any(|w| w.eq_ignore_ascii_case(three)) {
            month_day(b, i + 4, true)
        } else {
            month_day(b, i, false)
        }
    } else {
        None
    }
}

/// Epoch seconds (10 digits, optional fraction), milli-, micro- or nanoseconds (13, 16, 19
/// digits) as UTC.
pub(crate) fn epoch(b: &[u8], i: usize) -> Option<(Ts, usize)> {
    let mut j = i;
    let mut v: i64 = 0;
    while let Some(d) = digit(b, j) {
        v = v.checked_mul(10)?.checked_add(i64::from(d))?;
        j += 1;
    }
    let (micros, fd, end) = match j - i {
        10 => {
            let (m, fd, e) = fraction(b, j);
            (v * MICROS_PER_SEC + i64::from(m), fd, e)
        }
        13 => (v * 1000, 3, j),
        16 => (v, 6, j),
        19 => (v / 1000, 6, j),
        _ => return None,
    };
    // Sixteen or nineteen digits are an id as often as a time: only this century is a time.
    if !(EPOCH_2000..EPOCH_2100).contains(&micros) {
        return None;
    }
    let key = micros + days_from_civil(1970, 1, 1) * 86_400 * MICROS_PER_SEC;
    Some((
        Ts {
            key,
            zone: Zone::Utc,
            frac_digits: fd,
            dated: Dated::Full,
        },
        end,
    ))
}

const JSON_KEYS: [&[u8]; 5] = [
    b"\"@timestamp\"",
    b"\"timestamp\"",
    b"\"time\"",
    b"\"ts\"",
    b"\"datetime\"",
];

fn json_ts(b: &[u8]) -> Option<Ts> {
    for key in JSON_KEYS {
        let Some(p) = memmem::find(b, key) else {
            continue;
        };
        let mut j = p + key.len();
        while matches!(b.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if b.get(j) != Some(&b':') {
            continue;
        }
        j += 1;
        while matches!(b.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        let found = if b.get(j) == Some(&b'"') {
            parse_at(b, j + 1)
        } else {
            epoch(b, j)
        };
        if let Some((ts, _)) = found {
            return Some(ts);
        }
    }
    None
}

/// Finds the line's timestamp. Returns it and, when it sits at the line start, the byte
/// index where it ends (the message prefix to strip).
pub(crate) fn find(line: &[u8]) -> Option<(Ts, Option<usize>)> {
    let mut i = 0;
    if line.first() == Some(&b'<') {
        // Syslog priority `<34>` and the RFC 5424 version `1 `.
        let mut j = 1;
        while j < 5 && digit(line, j).is_some() {
            j += 1;
        }
        if j > 1 && line.get(j) == Some(&b'>') {
            i = j + 1;
            if line.get(i) == Some(&b'1') && line.get(i + 1) == Some(&b' ') {
                i += 2;
            }
        }
    }
    if line.get(i) == Some(&b'[') {
        i += 1;
    }
    if let Some((ts, end)) = parse_at(line, i).or_else(|| clock_only(line, i)) {
        let end = if line.get(end) == Some(&b']') {
            end + 1
        } else {
            end
        };
        return Some((ts, Some(end)));
    }
    if line.len() > 5 && (line.starts_with(b"time=") || line.starts_with(b"ts=")) {
        let j = if line[0] == b't' && line[1] == b'i' {
            5
        } else {
            3
        };
        let j = if line.get(j) == Some(&b'"') { j + 1 } else { j };
        if let Some((ts, end)) = parse_at(line, j).or_else(|| epoch(line, j)) {
            let end = if line.get(end) == Some(&b'"') {
                end + 1
            } else {
                end
            };
            return Some((ts, Some(end)));
        }
    }
    let head = &line[..line.len().min(128)];
    if let Some(p) = memchr::memchr(b'[', &head[i.min(head.len())..]) {
        if let Some((ts, _)) = parse_at(line, i + p + 1) {
            return Some((ts, None));
        }
    }
    if line.first() == Some(&b'{') {
        return json_ts(line).map(|t| (t, None));
    }
    None
}

#[cfg(test)]
mod tests;
