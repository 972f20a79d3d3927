//! Time windows resolved against a log's clock: `HH:MM[:SS]` on the log's last day that has
//! that time, full dates as written, a month and day (`--03-08`) in the log's last year that
//! has it, a day of the month (`---08`) in its last month that has it, `last N seconds`
//! before the newest event, a month (`2027-03`, `--03`: the log's last year that has it).
//! Bounds are whole seconds, both included; a bound written to the minute covers that whole
//! minute, a date alone the whole day, a month the whole month.

use llmops_common::query::{TimePoint, Window};

use super::error::QueryError;
use crate::ts::{self, Ts};

const DAY: i64 = 86_400;

/// The date part of a time point, as much of it as was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Date {
    Full(i64, u32, u32),
    /// `--MM-DD`: the log's last year that has it.
    MonthDay(u32, u32),
    /// `---DD`: the log's last month that has it.
    Day(u32),
    /// `YYYY-MM`: the whole month.
    YearMonth(i64, u32),
    /// `--MM`: the whole month, in the log's last year that has it.
    Month(u32),
}

/// A time point: its first second, how many seconds it spans (60 for `HH:MM`), whether
/// it carried a date, and the zone it was asked in (minutes east of UTC), if one was named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Point {
    date: Option<Date>,
    sod: i64,
    span: i64,
    zone: Option<i32>,
}

/// A zone written after the time: `Z`, `UTC`, `GMT`, or an offset as timestamps write it
/// (`+08:00`, `+0800`, `-04`: [`ts::zone`]).
fn parse_zone(z: &str) -> Option<i32> {
    let z = z.trim();
    if matches!(z, "UTC" | "GMT") {
        return Some(0);
    }
    match ts::zone(z.as_bytes(), 0) {
        (ts::Zone::Utc, end) if end == z.len() => Some(0),
        (ts::Zone::Offset(m), end) if end == z.len() => Some(i32::from(m)),
        _ => None,
    }
}

/// Splits a zone off the end of a time (`09:36+08:00`, `22:47 -04:00`, `01:12Z`): the
/// time is its leading digits, colons and fraction; the rest must be a zone.
fn split_zone(t: &str) -> Option<(&str, Option<i32>)> {
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.'))
        .unwrap_or(t.len());
    let (time, rest) = t.split_at(end);
    if rest.trim().is_empty() {
        return Some((time, None));
    }
    parse_zone(rest).map(|z| (time, Some(z)))
}

fn parse_date(d: &str) -> Option<Date> {
    if let Some(day) = d.strip_prefix("---") {
        return two(day).filter(|x| (1..=31).contains(x)).map(Date::Day);
    }
    if let Some(md) = d.strip_prefix("--") {
        let Some((m, dd)) = md.split_once('-') else {
            return two(md).filter(|m| (1..=12).contains(m)).map(Date::Month);
        };
        let (m, dd) = (two(m)?, two(dd)?);
        return ((1..=12).contains(&m) && (1..=31).contains(&dd)).then_some(Date::MonthDay(m, dd));
    }
    let v: Vec<&str> = d.split('-').collect();
    if let [y, m] = v.as_slice() {
        let (y, m) = (y.parse().ok().filter(|_| y.len() == 4)?, two(m)?);
        return (1..=12).contains(&m).then_some(Date::YearMonth(y, m));
    }
    let [y, m, dd] = v.as_slice() else {
        return None;
    };
    let y: i64 = y.parse().ok()?;
    let (m, dd) = (two(m)?, two(dd)?);
    ((1..=12).contains(&m) && (1..=31).contains(&dd)).then_some(Date::Full(y, m, dd))
}

fn two(s: &str) -> Option<u32> {
    (s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

fn parse_hms(s: &str) -> Option<(i64, i64)> {
    let parts: Vec<&str> = s.split(':').collect();
    let (h, m, sec, span) = match parts.as_slice() {
        [h, m] => (two(h)?, two(m)?, 0, 60),
        [h, m, sec] => (two(h)?, two(m)?, two(sec.get(..2)?)?, 1),
        _ => return None,
    };
    (h < 24 && m < 60 && sec < 61).then_some((
        i64::from(h) * 3600 + i64::from(m) * 60 + i64::from(sec),
        span,
    ))
}

fn parse_point(p: &TimePoint) -> Result<Point, QueryError> {
    let bad = || QueryError::BadTimePoint { point: p.0.clone() };
    let s = p.0.trim();
    let date_only =
        s.starts_with("--") || (matches!(s.len(), 7 | 10) && s.as_bytes().get(4) == Some(&b'-'));
    let (date, time) = match s.split_once([' ', 'T']) {
        Some((d, t)) => (Some(d), Some(t.trim())),
        None if date_only => (Some(s), None),
        None => (None, Some(s)),
    };
    let date = match date {
        None => None,
        Some(d) => Some(parse_date(d).ok_or_else(bad)?),
    };
    // A month is a span of days, not a day with a time of day.
    if matches!(date, Some(Date::Month(_) | Date::YearMonth(..))) && time.is_some() {
        return Err(bad());
    }
    let (time, zone) = match time {
        Some(t) => {
            let (t, z) = split_zone(t).ok_or_else(bad)?;
            (Some(t), z)
        }
        None => (None, None),
    };
    let (sod, span) = match time {
        Some(t) => parse_hms(t).ok_or_else(bad)?,
        None => (0, DAY),
    };
    Ok(Point {
        date,
        sod,
        span,
        zone,
    })
}

/// A log's offset from UTC in minutes, as its newest event writes it; a log that writes no
/// zone is taken as UTC.
fn log_offset(end: &Ts) -> i32 {
    match end.zone {
        ts::Zone::Offset(m) => i32::from(m),
        ts::Zone::Utc | ts::Zone::None => 0,
    }
}

/// The first second of `p` on the log's clock, given the log's newest event (and its
/// oldest, when read), and how many seconds it spans (a month's days, else the point's own
/// span).
fn resolve(p: &Point, end: &Ts, first: Option<&Ts>) -> (i64, i64) {
    let start = resolve_start(p, end, first);
    let span = match p.date {
        Some(Date::YearMonth(..) | Date::Month(_)) => {
            let (y, m, _) = ts::civil_from_days(start.div_euclid(DAY));
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            (ts::days_from_civil(ny, nm, 1) - start.div_euclid(DAY)) * DAY
        }
        _ => p.span,
    };
    (start, span)
}

/// The first second of `p` on the log's clock.
fn resolve_start(p: &Point, end: &Ts, first: Option<&Ts>) -> i64 {
    let end_sec = end.key.div_euclid(1_000_000);
    let (ey, em, ed) = ts::civil_from_days(end_sec.div_euclid(DAY));
    // A time asked in another zone, moved onto the log's clock ("09:36 +08:00" is 01:36 in
    // a UTC log).
    let shift = p.zone.map_or(0, |z| i64::from(log_offset(end) - z) * 60);
    let p = &Point {
        sod: p.sod + shift,
        ..*p
    };
    match p.date {
        Some(Date::Full(y, m, d)) => {
            // A log without years (syslog) counts from year 0.
            let y = if end.dated.has_year() { y } else { 0 };
            ts::days_from_civil(y, m, d) * DAY + p.sod
        }
        Some(Date::MonthDay(m, d)) => {
            let y = if (m, d) > (em, ed) && end.dated.has_year() {
                ey - 1
            } else {
                ey
            };
            ts::days_from_civil(y, m, d) * DAY + p.sod
        }
        Some(Date::Day(d)) => {
            let (y, m) = match (d > ed, em) {
                (false, _) => (ey, em),
                (true, 1) => (ey - 1, 12),
                (true, m) => (ey, m - 1),
            };
            ts::days_from_civil(y, m, d) * DAY + p.sod
        }
        // A log without years (syslog) counts from year 0.
        Some(Date::YearMonth(y, m)) => {
            ts::days_from_civil(if end.dated.has_year() { y } else { 0 }, m, 1) * DAY
        }
        Some(Date::Month(m)) => {
            let y = if m > em && end.dated.has_year() {
                ey - 1
            } else {
                ey
            };
            ts::days_from_civil(y, m, 1) * DAY
        }
        None => {
            // A time of day is on the log's last day, or the day before when it is past the
            // log's end there, unless the log had not begun by then: "after 14:30" of a log
            // that runs from 14:00 to 14:15 is after its end, not a day earlier.
            let day = end_sec - end_sec.rem_euclid(DAY);
            let at = day + p.sod;
            let begun = |t: i64| first.is_none_or(|f| t >= f.key.div_euclid(1_000_000));
            if at > end_sec && begun(at - DAY) {
                at - DAY
            } else {
                at
            }
        }
    }
}

/// The window as inclusive whole seconds.
pub fn resolve_window(w: &Window, end: &Ts, first: Option<&Ts>) -> Result<(i64, i64), QueryError> {
    let end_sec = end.key.div_euclid(1_000_000);
    Ok(match w {
        Window::Last { seconds } => (end_sec - *seconds as i64, end_sec),
        Window::Around { at, seconds } => {
            let p = parse_point(at)?;
            let (s, _) = resolve(&p, end, first);
            (s - *seconds as i64, s + *seconds as i64)
        }
        Window::Between { from, to } => {
            let from_b = match from {
                Some(f) => {
                    let p = parse_point(f)?;
                    Some((resolve(&p, end, first).0, p))
                }
                None => None,
            };
            let to_b = match to {
                Some(t) => {
                    let p = parse_point(t)?;
                    let (mut s, span) = resolve(&p, end, first);
                    // Two times of day: the second is the first one's or the next day's
                    // ("23:50 to 00:10"), even past the log's end ("03:00 to 03:59" in a
                    // log that ends at 03:30).
                    if let Some((f, fp)) = &from_b {
                        if p.date.is_none() && fp.date.is_none() {
                            while s < *f {
                                s += DAY;
                            }
                            while s - *f >= DAY {
                                s -= DAY;
                            }
                        }
                    }
                    // An end on the hour is the hour's start ("03:00 到 04:00", "9 to 5": one
                    // hour; "before 02:00"); any other end is its whole minute ("03:09 to
                    // 03:11").
                    let on_the_hour = span == 60 && p.sod % 3600 == 0;
                    let after_start = from_b.as_ref().is_none_or(|(f, _)| s > *f);
                    Some(if on_the_hour && after_start {
                        s - 1
                    } else {
                        s + span - 1
                    })
                }
                None => None,
            };
            let from_b = from_b.map(|(s, _)| s);
            (from_b.unwrap_or(i64::MIN), to_b.unwrap_or(i64::MAX))
        }
    })
}

/// Whether a window names the zone of its times (then a log that writes no zone is read
/// as UTC, and the answer says so).
pub fn names_a_zone(w: &Window) -> bool {
    let zoned = |p: &TimePoint| parse_point(p).is_ok_and(|x| x.zone.is_some());
    match w {
        Window::Last { .. } => false,
        Window::Around { at, .. } => zoned(at),
        Window::Between { from, to } => from.iter().chain(to.iter()).any(zoned),
    }
}

/// Whether the log's newest event writes no zone.
pub fn zoneless(end: &Ts) -> bool {
    end.zone == ts::Zone::None
}

/// Validates the time points of a window without a log (for early errors).
pub fn check_window(w: &Window) -> Result<(), QueryError> {
    match w {
        Window::Last { .. } => Ok(()),
        Window::Around { at, .. } => parse_point(at).map(|_| ()),
        Window::Between { from, to } => {
            for p in from.iter().chain(to.iter()) {
                parse_point(p)?;
            }
            Ok(())
        }
    }
}

/// A second on the log's clock as `2024-05-01T10:05:00` (syslog form without a year, the
/// time of day alone without a date).
pub(crate) fn show_second(sec: i64, dated: ts::Dated) -> String {
    let t = Ts {
        key: sec * 1_000_000,
        zone: ts::Zone::None,
        frac_digits: 0,
        dated,
    };
    ts::format(&t, ts::Precision::Full)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(s: &str) -> Ts {
        ts::find(s.as_bytes()).expect("ts").0
    }

    fn tp(s: &str) -> Option<TimePoint> {
        Some(TimePoint(s.into()))
    }

    #[test]
    fn clock_times_land_on_the_logs_last_day() {
        let e = end("2024-05-02T01:30:00");
        let (a, b) = resolve_window(
            &Window::Between {
                from: tp("23:00"),
                to: tp("01:00"),
            },
            &e,
            None,
        )
        .expect("window");
        assert_eq!(show_second(a, ts::Dated::Full), "2024-05-01T23:00:00");
        // Ending on the hour, the range ends at it: two hours.
        assert_eq!(show_second(b, ts::Dated::Full), "2024-05-02T00:59:59");
        let (_, b) = resolve_window(
            &Window::Between {
                from: tp("00:10"),
                to: tp("01:20"),
            },
            &e,
            None,
        )
        .expect("window");
        assert_eq!(show_second(b, ts::Dated::Full), "2024-05-02T01:20:59");
        // "before 01:00" ends where the hour starts too.
        let (_, b) = resolve_window(
            &Window::Between {
                from: None,
                to: tp("01:00"),
            },
            &e,
            None,
        )
        .expect("window");
        assert_eq!(show_second(b, ts::Dated::Full), "2024-05-02T00:59:59");
        // A window that runs past the log's end stays on the day of its start.
        let late = end("2024-05-02T03:30:00");
        let (a, b) = resolve_window(
            &Window::Between {
                from: tp("03:00"),
                to: tp("03:59:59"),
            },
            &late,
            None,
        )
        .expect("window");
        assert_eq!(show_second(a, ts::Dated::Full), "2024-05-02T03:00:00");
        assert_eq!(show_second(b, ts::Dated::Full), "2024-05-02T03:59:59");
        let (a, b) = resolve_window(&Window::Last { seconds: 300 }, &e, None).expect("last");
        assert_eq!(b - a, 300);
        let (a, _) = resolve_window(
            &Window::Around {
                at: tp("2024-05-01 10:00:30").expect("tp"),
                seconds: 30,
            },
            &e,
            None,
        )
        .expect("around");
        assert_eq!(show_second(a, ts::Dated::Full), "2024-05-01T10:00:00");
    }

    /// A time of day past the log's end is the day before only when the log had begun by
    /// then: "after 14:30" of a log from 14:00 to 14:15 is after its end (nothing), "before
    /// 14:30" all of it.
    #[test]
    fn a_time_of_day_is_never_moved_before_the_logs_start() {
        let e = end("2031-07-09T14:15:00");
        let first = end("2031-07-09T14:00:00");
        let after = Window::Between {
            from: tp("14:30"),
            to: None,
        };
        let (a, _) = resolve_window(&after, &e, Some(&first)).expect("window");
        assert_eq!(show_second(a, ts::Dated::Full), "2031-07-09T14:30:00");
        let before = Window::Between {
            from: None,
            to: tp("14:30"),
        };
        let (_, b) = resolve_window(&before, &e, Some(&first)).expect("window");
        assert_eq!(show_second(b, ts::Dated::Full), "2031-07-09T14:30:59");
        // A log that began the day before keeps the time on that day.
        let first = end("2031-07-08T09:00:00");
        let (a, _) = resolve_window(&after, &e, Some(&first)).expect("window");
        assert_eq!(show_second(a, ts::Dated::Full), "2031-07-08T14:30:00");
    }

    #[test]
    fn a_month_spans_its_days_in_the_logs_last_year_that_has_it() {
        let e = end("2027-03-09T04:00:00");
        let month = |p: &str| {
            let w = Window::Between {
                from: tp(p),
                to: tp(p),
            };
            let (a, b) = resolve_window(&w, &e, None).expect("window");
            (
                show_second(a, ts::Dated::Full),
                show_second(b, ts::Dated::Full),
            )
        };
        let dec = ("2026-12-01T00:00:00".into(), "2026-12-31T23:59:59".into());
        assert_eq!(month("--12"), dec);
        assert_eq!(month("2026-12"), dec);
        assert_eq!(
            month("--02"),
            ("2027-02-01T00:00:00".into(), "2027-02-28T23:59:59".into())
        );
        assert_eq!(month("2024-02").1, "2024-02-29T23:59:59");
        // The month of the log's end is this year's, though it has not ended.
        assert_eq!(month("--03").0, "2027-03-01T00:00:00");
        for bad in ["--13", "2027-3", "--03 10:00", "27-03"] {
            assert!(
                check_window(&Window::Between {
                    from: tp(bad),
                    to: None
                })
                .is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn partial_dates_land_on_the_logs_last_year_or_month_that_has_them() {
        let e = end("2027-03-09T04:00:00");
        let day = |p: &str| {
            let w = Window::Between {
                from: tp(p),
                to: tp(p),
            };
            let (a, b) = resolve_window(&w, &e, None).expect("window");
            (
                show_second(a, ts::Dated::Full),
                show_second(b, ts::Dated::Full),
            )
        };
        assert_eq!(
            day("---08"),
            ("2027-03-08T00:00:00".into(), "2027-03-08T23:59:59".into())
        );
        assert_eq!(day("---28").0, "2027-02-28T00:00:00");
        assert_eq!(day("--03-08").0, "2027-03-08T00:00:00");
        assert_eq!(day("--12-31").0, "2026-12-31T00:00:00");
        let (a, b) = resolve_window(
            &Window::Between {
                from: tp("---08 23:00"),
                to: tp("---09 01:00"),
            },
            &e,
            None,
        )
        .expect("window");
        assert_eq!(show_second(a, ts::Dated::Full), "2027-03-08T23:00:00");
        assert_eq!(show_second(b, ts::Dated::Full), "2027-03-09T00:59:59");
    }

    /// A time asked in a zone lands on the log's clock: 09:36 in Beijing is 01:36 in a UTC
    /// log, 17:36 in a log written at -08:00; 22:47 at -04:00 is the next day's 02:47 UTC.
    #[test]
    fn a_time_asked_in_a_zone_is_moved_onto_the_logs_clock() {
        let at = |p: &str, e: &Ts| {
            let w = Window::Around {
                at: TimePoint(p.into()),
                seconds: 0,
            };
            show_second(
                resolve_window(&w, e, None).expect("window").0,
                ts::Dated::Full,
            )
        };
        let utc = end("2031-09-22T03:59:57Z");
        assert_eq!(at("09:36+08:00", &utc), "2031-09-22T01:36:00");
        assert_eq!(at("22:47-04:00", &utc), "2031-09-22T02:47:00");
        assert_eq!(at("01:12Z", &utc), "2031-09-22T01:12:00");
        assert_eq!(at("2031-09-21 22:47-0400", &utc), "2031-09-22T02:47:00");
        let pacific = end("2031-09-21T20:00:00-08:00");
        assert_eq!(at("09:36+08:00", &pacific), "2031-09-20T17:36:00");
        // No zone asked: as the log writes it.
        assert_eq!(
            at("09:36", &utc),
            "2031-09-22T09:36:00".replace("22T09", "21T09")
        );
        assert!(names_a_zone(&Window::Around {
            at: TimePoint("09:36+08:00".into()),
            seconds: 60
        }));
        assert!(!names_a_zone(&Window::Around {
            at: TimePoint("09:36".into()),
            seconds: 60
        }));
    }

    #[test]
    fn bad_points_are_errors() {
        for p in [
            "25:00",
            "10",
            "2024-13-01 10:00",
            "noon",
            "10:00:00:00",
            "---32",
            "--13-01",
            "10:00+25:00",
            "10:00 EDT",
        ] {
            assert!(check_window(&Window::Around {
                at: TimePoint(p.into()),
                seconds: 1
            })
            .is_err());
        }
    }
}
