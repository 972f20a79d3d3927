//! How many rows a question asks for: "top 5", "the 3 slowest", "which 4 shards", "the
//! last 5 upgrades"; and the length of time after "last". A position ("the second
//! slowest") is `frame/rank.rs`'s.

use llmops_common::query::{Dimension, Field, FilterOp, Measure, Order, Query, Scalar, Source};

use super::parsed::Parsed;
use super::scan::Lit;
use super::FrameCtx;
use crate::lexicon::{lexicon, Cue, Hit, Lexicon};

/// How many rows are asked: a number that is no status ("the first 503" is a status, not
/// a count of rows), and "the last package upgraded", "which job failed last": "last" with
/// no length of time after it, and no other measure asked, is the latest event.
pub(super) fn how_many_rows(
    lex: &Lexicon,
    p: &Parsed,
    cue: Option<&crate::lexicon::MeasureCue>,
    q: &mut Query,
) {
    let a_status = |n: u32| {
        q.filters.iter().any(|f| {
            // A class's digit ("top 5 paths by 5xx") is no status of its own.
            f.field.as_ref().is_some_and(|x| x.as_str() == "status")
                && f.op != FilterOp::Class
                && f.value == Scalar::Number(f64::from(n))
        })
    };
    if let Some(n) = limit(lex, p).filter(|n| !a_status(*n)) {
        q.limit = Some(n);
    }
    let rows_asked = cue.is_some_and(|c| c.measure == Measure::Rows && c.field.is_none());
    // "when did it last restart": the latest event, not the times of all of them.
    let when_asked = cue.is_some_and(|c| c.measure == Measure::Buckets);
    if (cue.is_none() || rows_asked || when_asked) && q.window.is_none() && q.source == Source::Log
    {
        if let Some(n) = last_of_something(lex, p) {
            q.measure = Measure::Rows;
            q.field = Some(Field::new("time"));
            q.order = Order::Desc;
            q.limit = Some(n);
            q.group_by.clear();
        }
    }
}

/// How many of the latest events the question asks for when it says "last" or "final" of
/// something (the grammar's `latest` words: "the last upgrade": 1, "the last 5 upgrades":
/// 5), not of a length of time ("the last 10 minutes", "the last hour" are windows).
fn last_of_something(lex: &Lexicon, p: &Parsed) -> Option<u32> {
    let latest = lex.grammar.window.latest();
    p.hits.iter().find_map(|h| {
        if h.cue != Cue::Last || !p.hit_is(h, &latest) || length_after(p, h).is_some() {
            return None;
        }
        // "the last 504" is a status code; "the last 200 requests" a count.
        let a_code = |l: &super::scan::Spanned, v: f64| {
            (100.0..600.0).contains(&v)
                && !super::number_filter::rows_noun_after(p, l.start)
                && super::number_filter::code_after_last(p, l.start, v)
        };
        let count = p.lits.iter().find_map(|l| match l.lit {
            Lit::Number { value, unit: None }
                if l.start >= h.end
                    && p.close(h.end, l.start)
                    && value.fract() == 0.0
                    && (1.0..=f64::from(Query::MAX_LIMIT)).contains(&value)
                    && !a_code(l, value) =>
            {
                Some(value as u32)
            }
            _ => None,
        });
        // "the last 504s", "the last few errors", "最后几条": several, as a list shows.
        let several = several_after(&p.lower[h.end..]);
        Some(count.unwrap_or(if several { Query::DEFAULT_LIMIT } else { 1 }))
    })
}

/// Whether the words right after "last" say several things: "few", "几", or a plural (a
/// code with an `s`, a noun ending in `s`, not `ss`, `us` or `is`).
fn several_after(after: &str) -> bool {
    let after = after.trim_start();
    if after.starts_with("几") || after.starts_with("的几") {
        return true;
    }
    let mut words = after
        .split_whitespace()
        .map(|w| w.trim_end_matches(|c: char| !c.is_alphanumeric()));
    let Some(first) = words.next() else {
        return false;
    };
    let plural = |w: &str| {
        w.len() >= 3
            && w.ends_with('s')
            && !(w.ends_with("ss") || w.ends_with("us") || w.ends_with("is"))
    };
    // "the last health event": a plural-looking name before a singular noun for an event
    // is that one event's kind.
    let events = &lexicon().grammar.event_words;
    let one_event = words.next().is_some_and(|w| {
        let w = w.trim_end_matches("'s").trim_end_matches("’s");
        w == "one" || (events.en.iter().any(|e| e == w) && !w.ends_with('s'))
    });
    matches!(first, "few" | "several" | "couple") || (plural(first) && !one_event)
}

/// How many rows the question asks for ("top 3", "前 5 个"), if it says.
pub fn asked_limit(text: &str) -> Option<u32> {
    let p = Parsed::new(text, &FrameCtx::of_uploads(&[]));
    limit(lexicon(), &p)
}

/// "top 5", "前 10": the number right after a limit word.
fn limit(lex: &Lexicon, p: &Parsed) -> Option<u32> {
    let after_limit_word = p.hits.iter().filter(|h| h.cue == Cue::Limit).find_map(|h| {
        p.lits.iter().find_map(|l| match l.lit {
            Lit::Number { value, unit: None }
                if l.start >= h.end && p.close(h.end, l.start) && value >= 1.0 =>
            {
                Some(value.min(f64::from(Query::MAX_LIMIT)) as u32)
            }
            _ => None,
        })
    });
    after_limit_word
        .or_else(|| beside_extreme(lex, p))
        .or_else(|| after_a_group_word(p))
        .or_else(|| after_which(p))
}

/// "哪5个客户端", "哪三条路径": a number right after 哪 asks for that many.
fn after_which(p: &Parsed) -> Option<u32> {
    p.lits.iter().find_map(|l| match l.lit {
        Lit::Number { value, unit: None }
            if value.fract() == 0.0
                && (2.0..=f64::from(Query::MAX_LIMIT)).contains(&value)
                && p.lower[..l.start].trim_end().ends_with('哪') =>
        {
            Some(value as u32)
        }
        _ => None,
    })
}

/// "the 5 slowest requests", "最慢的 3 个请求", "the 3 busiest clients": a whole number
/// right beside a cue for the largest or smallest value, or a ranking word, is how many.
fn beside_extreme(lex: &Lexicon, p: &Parsed) -> Option<u32> {
    p.hits
        .iter()
        .filter(|h| {
            matches!(h.cue, Cue::Measure(i) if matches!(lex.measures[i].measure, Measure::Max | Measure::Min))
                || p.hit_is(h, &lex.grammar.rank)
        })
        .find_map(|h| count_near(p, h, true))
}

/// "which 4 shards", "最多的 4 个 shard": a whole number right after a group word is how
/// many groups.
fn after_a_group_word(p: &Parsed) -> Option<u32> {
    p.hits
        .iter()
        .filter(|h| h.cue == Cue::Group)
        .find_map(|h| count_near(p, h, false))
}

/// A whole number of 2 or more with no unit right after the hit `h` (or, `before_too`,
/// right before it): how many of something.
fn count_near(p: &Parsed, h: &crate::lexicon::Hit, before_too: bool) -> Option<u32> {
    p.lits.iter().find_map(|l| match l.lit {
        Lit::Number { value, unit: None }
            if value.fract() == 0.0
                && (2.0..=f64::from(Query::MAX_LIMIT)).contains(&value)
                && ((l.start >= h.end && p.close(h.end, l.start))
                    || (before_too && p.close(l.end, h.start))) =>
        {
            Some(value as u32)
        }
        _ => None,
    })
}

/// The length of time, in seconds, right after the hit `h` ("last 10 minutes", "past
/// hour"), if one follows it.
pub(super) fn length_after(p: &Parsed, h: &Hit) -> Option<f64> {
    let number = p.lits.iter().find_map(|l| match l.lit {
        Lit::Number {
            value,
            unit: Some(u),
        } if u.dimension() == Dimension::Time
            && l.start >= h.end
            && p.close(h.end, l.start)
            && !super::number_filter::held_code_in_the_plural(p, l.start, value) =>
        {
            Some(value * u.factor())
        }
        _ => None,
    });
    number.or_else(|| {
        p.hits.iter().find_map(|u| match u.cue {
            Cue::Unit(unit)
                if unit.dimension() == Dimension::Time
                    && u.start >= h.end
                    && p.close(h.end, u.start) =>
            {
                Some(unit.factor())
            }
            _ => None,
        })
    })
}
