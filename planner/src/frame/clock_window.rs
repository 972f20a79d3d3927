//! The window of times of day a question writes: two times bound it, one after "after"/
//! "before" is a bound (as long as a length beside it says), else the middle of a window.

use llmops_common::query::{Dimension, TimePoint, Window};

use super::parsed::Parsed;
use super::scan::{Clock, Lit};
use crate::lexicon::{Cue, Lexicon};

/// Seconds of a length of time written beside a time of day and its "after"/"before"
/// ("the 10 minutes after 2:10", "3:15 之前 5 分钟"), not one a comparison reads ("took
/// over 2 seconds after 2:10").
fn length_beside(p: &Parsed, (s, e): (usize, usize)) -> Option<u64> {
    let compared = |at: usize| {
        p.hits
            .iter()
            .any(|h| matches!(h.cue, Cue::Compare(_)) && h.end <= at && p.close(h.end, at))
    };
    let cue = p.hits.iter().find(|h| {
        matches!(h.cue, Cue::From | Cue::To)
            && ((h.end <= s && p.close(h.end, s)) || (h.start >= e && p.close(e, h.start)))
    })?;
    p.lits.iter().find_map(|l| match l.lit {
        Lit::Number {
            value,
            unit: Some(u),
        } if u.dimension() == Dimension::Time
            && !compared(l.start)
            && ((l.end <= cue.start && p.close(l.end, cue.start))
                || (l.start >= cue.end.max(e) && p.close(cue.end.max(e), l.start))) =>
        {
            Some((value * u.factor()).round() as u64).filter(|&x| x > 0)
        }
        _ => None,
    })
}

/// A window from times of day: two times bound it; one time is a bound after "after"/
/// "之前"-like words, else the middle of a window of the lexicon's default width.
pub(super) fn clock_window(lex: &Lexicon, p: &Parsed) -> Option<Window> {
    let clocks: Vec<(usize, usize, Clock)> = p
        .lits
        .iter()
        .filter_map(|l| match l.lit {
            Lit::Clock(c) => Some((l.start, l.end, c)),
            _ => None,
        })
        .collect();
    let point = |c: &Clock| TimePoint(c.point());
    // "2 点多": the whole hour.
    let hour = p.lits.iter().find_map(|l| match l.lit {
        Lit::Hour(h) => Some(h),
        _ => None,
    });
    match clocks.as_slice() {
        [] => hour.map(|h| Window::Between {
            from: Some(TimePoint(format!("{h:02}:00"))),
            to: Some(TimePoint(format!("{h:02}:59:59"))),
        }),
        [first, second, ..] => {
            // "around 2:40 … between 2:35 and 2:45": the two a range word joins bound it.
            let (a, b) = clocks
                .windows(2)
                .find(|w| joined_as_a_range(&p.lower, w[0].1, w[1].0))
                .map_or((&first.2, &second.2), |w| (&w[0].2, &w[1].2));
            Some(Window::Between {
                from: Some(point(a)),
                to: Some(point(b)),
            })
        }
        [(s, e, c)] => {
            let near = |cue: Cue| {
                p.hits.iter().any(|h| {
                    h.cue == cue
                        && ((h.end <= *s && *s - h.end <= 8) || (h.start >= *e && h.start - e <= 8))
                })
            };
            // "a few minutes before 3:15", "3:15 之前几分钟": the lead-up, twice the span
            // "around" means on either side (a cause often starts well before the
            // symptom asked about; a timeline ranks what the wider window holds).
            let few =
                a_few_minutes(&p.lower).then_some(2 * lex.grammar.window.around_default_seconds);
            // "the 10 minutes after 2:10", "3:15 之前 5 分钟": as long as it says.
            let span = length_beside(p, (*s, *e)).or(few).map(|x| x as i64);
            if near(Cue::From) {
                Some(Window::Between {
                    from: Some(point(c)),
                    to: span.and_then(|x| shifted(c, x)).map(|x| point(&x)),
                })
            } else if near(Cue::To) {
                Some(Window::Between {
                    from: span.and_then(|x| shifted(c, -x)).map(|x| point(&x)),
                    to: Some(point(c)),
                })
            } else {
                Some(Window::Around {
                    at: point(c),
                    seconds: lex.grammar.window.around_default_seconds,
                })
            }
        }
    }
}

/// Whether only a word that joins a range's two ends stands between two times
/// ("2:35 and 2:45", "2:35-2:45", "2:35 到 2:45", "from 2:35 to 2:45").
fn joined_as_a_range(lower: &str, end: usize, start: usize) -> bool {
    const JOINS: [&str; 12] = [
        "and", "to", "-", "–", "~", "until", "till", "through", "到", "至", "和", "—",
    ];
    lower
        .get(end..start)
        .is_some_and(|gap| JOINS.contains(&gap.trim()))
}

/// Whether the question speaks of "a few minutes" before or after a time ("right before
/// 3:15" says the same).
fn a_few_minutes(lower: &str) -> bool {
    const FEW: [&str; 12] = [
        "few minutes",
        "couple of minutes",
        "couple minutes",
        "right before",
        "just before",
        "shortly before",
        "right after",
        "just after",
        "shortly after",
        "几分钟",
        "前几分钟",
        "那几分钟",
    ];
    FEW.iter()
        .any(|w| !crate::lexicon::occurrences(lower, w).is_empty())
}

/// A clock time moved by `secs` on the same day (none when that crosses midnight).
fn shifted(c: &Clock, secs: i64) -> Option<Clock> {
    let at = i64::from(c.h) * 3600 + i64::from(c.m) * 60 + i64::from(c.s.unwrap_or(0)) + secs;
    (0..86_400).contains(&at).then(|| Clock {
        h: (at / 3600) as u8,
        m: (at / 60 % 60) as u8,
        s: c.s.map(|_| (at % 60) as u8),
        ..*c
    })
}
