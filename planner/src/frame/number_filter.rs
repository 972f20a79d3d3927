//! A number's condition: compared with the field its unit measures ("over 2s" is a
//! duration), the value of the field named by it ("status 503", "19999 端口"), a log's
//! status when it is a bare 3-digit code (or the code's text where the status is a word),
//! a socket's port; a count after "top" or "last" is none ("the last 200 requests").

use llmops_common::query::{Dimension, Filter, FilterOp, Scalar, Source, Unit};

use super::parsed::{field_before, filter, Kind, Parsed};
use super::scan::Lit;
use crate::lexicon::Cue;

/// A number at one end of a range ("between 1 and 2 seconds", "1 到 2 秒之间", "400 to
/// 499"): the low end is at least, the high end at most, and a unit written on either end
/// is both's. "and"/"和" joins a range only with a unit or "between" before it ("500 and
/// 502" are two codes); a comparison, "top"/"last" before it or "before"/"after"/"ago"
/// after it is no range ("over 2s and 504s", "the last 5 to 10 minutes", "5 to 10
/// minutes before 3:15"). Returns the comparison, the range's unit, where it starts and
/// whether both ends are 3-digit codes.
fn range_end(p: &Parsed, at: usize) -> Option<(FilterOp, Unit, (usize, bool))> {
    type End = (usize, usize, Option<Unit>, f64);
    let lex = crate::lexicon::lexicon();
    let nums: Vec<End> = p
        .lits
        .iter()
        .filter_map(|l| match l.lit {
            // "404s and 500s": codes in the plural, not seconds, where the status holds them.
            Lit::Number { unit, value } => {
                let unit = unit.filter(|_| !held_code_in_the_plural(p, l.start, value));
                Some((l.start, l.end, unit, value))
            }
            _ => None,
        })
        .collect();
    let i = nums.iter().position(|n| n.0 == at)?;
    let led = |start: usize| {
        p.hits.iter().any(|h| {
            matches!(h.cue, Cue::Compare(_) | Cue::Limit | Cue::Last)
                && h.end <= start
                && p.lower[h.end..start].trim().len() <= 2
        })
    };
    // "before" words of a window, and "after"/"ago" (not the window's "from", which also
    // names a source: "1 to 2 seconds from the gateway").
    let to = lex.grammar.window.to();
    let relative = |end: usize| {
        let rest = p.lower[end..].trim_start();
        to.all()
            .chain(["after", "ago", "之后", "以后"])
            .any(|w| crate::text::starts_with_word(rest, w))
    };
    let joined = |a: &End, b: &End| {
        let gap = p.lower.get(a.1..b.0).map_or("x", str::trim);
        let word = lex.grammar.window.between().all().any(|w| w == gap);
        let framed =
            p.lower[..a.0].trim_end().ends_with("between") || p.lower[..a.0].ends_with('在');
        word && (!matches!(gap, "and" | "和") || a.2.or(b.2).is_some() || framed)
            && !led(a.0)
            && !relative(b.1)
    };
    let code = |n: &End| (100.0..600.0).contains(&n.3) && n.3.fract() == 0.0;
    if let Some(next) = nums.get(i + 1).filter(|n| joined(&nums[i], n)) {
        let unit = next.2.or(nums[i].2).unwrap_or(Unit::None);
        let codes = code(&nums[i]) && code(next);
        return Some((FilterOp::Ge, unit, (nums[i].0, codes)));
    }
    let before = i.checked_sub(1).map(|j| &nums[j])?;
    joined(before, &nums[i]).then(|| {
        let unit = nums[i].2.or(before.2).unwrap_or(Unit::None);
        let codes = code(before) && code(&nums[i]);
        (FilterOp::Le, unit, (before.0, codes))
    })
}

/// The field a number compared from `at` is compared with: the field named before it, the
/// field it is bound to, or the one its unit measures.
fn compared_field(
    p: &Parsed,
    source: Source,
    at: usize,
    unit: Unit,
    bound: Option<String>,
) -> Option<String> {
    let lex = crate::lexicon::lexicon();
    field_before(lex, p, source, at)
        .map(|f| measured_field(p, f, unit))
        .or(bound)
        .or(field_for_unit(source, unit).map(str::to_string))
}

/// The comparison word right before `at`, if any.
fn compare_before(p: &Parsed, at: usize) -> Option<(FilterOp, usize)> {
    p.hits
        .iter()
        .filter(|h| h.end <= at && at - h.end <= 8)
        .find_map(|h| match h.cue {
            Cue::Compare(op) => Some((op, h.start)),
            _ => None,
        })
}

/// The field a number in a unit is compared with when the named field is text: a numeric
/// column named after it (`lock` is the lock's name and `lock_wait` its wait: "lock waits
/// over 2s" compares `lock_wait`), else the one the unit measures.
fn measured_field(p: &Parsed, named: String, unit: Unit) -> String {
    let column = |n: &str| p.columns.iter().find(|c| c.name.eq_ignore_ascii_case(n));
    if unit == Unit::None || column(&named).is_none_or(|c| c.numeric) {
        return named;
    }
    let prefix = format!("{}_", named.to_lowercase());
    let numeric_kin = p
        .columns
        .iter()
        .filter(|c| c.numeric && c.name.to_lowercase().starts_with(&prefix))
        .map(|c| c.name.clone());
    let mut kin = numeric_kin.collect::<Vec<_>>();
    match kin.len() {
        1 => kin.remove(0),
        _ => field_for_unit(Source::Log, unit).map_or(named, str::to_string),
    }
}

/// The field a number in a unit is compared with when the question names none.
fn field_for_unit(source: Source, unit: Unit) -> Option<&'static str> {
    match (source, unit.dimension()) {
        (Source::Log, Dimension::Time) => Some("duration"),
        (Source::Log, Dimension::Size) => Some("bytes"),
        (Source::Processes, Dimension::Size) => Some("rss_bytes"),
        (Source::Processes, Dimension::Percent) => Some("cpu_percent"),
        (Source::Mounts, Dimension::Percent) => Some("use_percent"),
        (Source::Mounts, Dimension::Size) => Some("avail_bytes"),
        _ => None,
    }
}

pub(super) fn number_filter(
    p: &Parsed,
    source: Source,
    at: usize,
    value: f64,
    unit: Option<Unit>,
    bound: Option<String>,
) -> Option<(Filter, Kind)> {
    if a_length(p, source, at, value, unit) {
        return None;
    }
    let unit = unit.unwrap_or(Unit::None);
    // A range negated ("not between 1 and 2 s") is two ranges, which no one query holds:
    // neither end is a condition, and the answer's conditions show none was applied.
    if let Some((op, range_unit, (start, codes))) = range_end(p, at) {
        if p.negated_at(start) {
            return None;
        }
        let unit = if unit == Unit::None { range_unit } else { unit };
        let field = compared_field(p, source, start, unit, bound)
            .or_else(|| (codes && source == Source::Log).then(|| "status".to_string()))?;
        let f = filter(Some(&field), op, Scalar::Number(value), unit);
        return Some((f, Kind::Hard));
    }
    if let Some((op, cmp_at)) = compare_before(p, at) {
        let end = p.lits.iter().find(|l| l.start == at).map_or(at, |l| l.end);
        let lex = crate::lexicon::lexicon();
        let field = compared_field(p, source, cmp_at, unit, bound)
            .or_else(|| super::parsed::numbers_field_after(lex, p, source, end, true))?;
        let f = filter(Some(&field), op, Scalar::Number(value), unit);
        return Some((f, Kind::Hard));
    }
    let int = value.fract() == 0.0;
    let status_plural = status_not_bound(p, source, (at, value, unit), bound.as_deref());
    if let Some(field) = bound.filter(|_| !status_plural) {
        return Some((
            filter(Some(&field), FilterOp::Eq, Scalar::Number(value), unit),
            Kind::Hard,
        ));
    }
    if let (Some(key), true, Unit::None) = (table_key(p, source, at), int, unit) {
        return Some((
            filter(Some(&key), FilterOp::Eq, Scalar::Number(value), unit),
            Kind::Hard,
        ));
    }
    match source {
        Source::Log
            if (unit == Unit::None || plural_code(p, at))
                && int
                && (100.0..600.0).contains(&value) =>
        {
            Some((super::missing_field::code_filter(p, value), Kind::Hard))
        }
        Source::Sockets if unit == Unit::None && int && (1.0..65536.0).contains(&value) => Some((
            filter(
                Some("local_port"),
                FilterOp::Eq,
                Scalar::Number(value),
                Unit::None,
            ),
            Kind::Hard,
        )),
        _ => None,
    }
}

/// Whether a word for rows follows the number at `at` ("100 lines", "50 条").
/// One word may stand between ("the last 300 nginx requests").
pub(super) fn rows_noun_after(p: &Parsed, at: usize) -> bool {
    const COUNTED: [&str; 6] = ["rows", "errors", "行", "条", "个", "次"];
    let lex = crate::lexicon::lexicon();
    let next = after_literal(p, at);
    let second = next
        .split_once(char::is_whitespace)
        .map_or("", |(_, rest)| rest.trim_start());
    [next, second].iter().any(|n| {
        let word = n.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        COUNTED.iter().any(|w| n.starts_with(w))
            || lex
                .grammar
                .events
                .all()
                .any(|w| w == word || (!w.is_ascii() && n.starts_with(w)))
    })
}

/// After "last", a code and no count: one the log's status holds (also in the plural: "the
/// last 504s"), or with nothing after it ("when was the last 504?").
pub(super) fn code_after_last(p: &Parsed, at: usize, value: f64) -> bool {
    let lex = crate::lexicon::lexicon();
    let held = status_holds(p, value);
    let rest = after_literal(p, at);
    let nothing_after = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .all(|w| lex.grammar.stop.all().any(|s| s == w));
    // A round hundred is a count more often ("show me the last 200"), unless its time is
    // asked ("when was the last 500?").
    let round = value % 100.0 == 0.0;
    let when = ["when", "what time", "什么时候", "几点"]
        .iter()
        .any(|w| !crate::lexicon::occurrences(&p.lower, w).is_empty());
    // In the plural only when the status holds it: "the last 120s" is two minutes.
    if plural_code(p, at) {
        return held;
    }
    (held || nothing_after) && (!round || when)
}

/// Whether the number is how many rows to show, after "top" or "last" ("first 100 lines",
/// "the last 200 requests"), not a status code ("the first 503", "the last 504").
fn a_length(p: &Parsed, source: Source, at: usize, value: f64, unit: Option<Unit>) -> bool {
    let after_limit = p
        .hits
        .iter()
        .any(|h| h.cue == Cue::Limit && h.end <= at && p.lower[h.end..at].trim().is_empty());
    let after_last = p
        .hits
        .iter()
        .any(|h| h.cue == Cue::Last && h.end <= at && p.lower[h.end..at].trim().len() <= 2);
    let code_like = source == Source::Log
        && (unit.is_none() || plural_code(p, at))
        && value.fract() == 0.0
        && (100.0..600.0).contains(&value)
        && !rows_noun_after(p, at);
    (after_limit && !code_like) || (after_last && !(code_like && code_after_last(p, at, value)))
}

/// "the last 504s": a code in the plural that the log's status holds is those responses, not
/// a length of time ("the last 120s" over a log without 120s is two minutes).
pub(super) fn held_code_in_the_plural(p: &Parsed, at: usize, value: f64) -> bool {
    status_holds(p, value) && plural_code(p, at)
}

/// Whether the log's status took the code in the sample.
fn status_holds(p: &Parsed, value: f64) -> bool {
    super::value_words::column_for(&p.columns, "status")
        .is_some_and(|c| c.values.iter().any(|v| v.parse::<f64>() == Ok(value)))
}

/// The question's text after the literal that starts at `at`, from its next word on.
fn after_literal(p: &Parsed, at: usize) -> &str {
    let end = p.lits.iter().find(|l| l.start == at).map_or(at, |l| l.end);
    p.lower.get(end..).unwrap_or("").trim_start()
}

/// "p95 Tr for be_docks 200s", "paths returning 404": a status code in the plural, or one
/// after a field of words (a path, a user), is the requests' status, not the value of the
/// field before it.
fn status_not_bound(
    p: &Parsed,
    source: Source,
    (at, value, unit): (usize, f64, Unit),
    bound: Option<&str>,
) -> bool {
    let code = source == Source::Log
        && value.fract() == 0.0
        && (100.0..600.0).contains(&value)
        && !p.columns.is_empty()
        && p.log_has("status");
    let lex = crate::lexicon::lexicon();
    let text_field = bound.is_some_and(|f| !p.holds_numbers(lex, f));
    code && (plural_code(p, at)
        || (unit == Unit::None && (text_field || response_after(p, at, value))))
}

/// "mean Ta of 200 responses", "500 errors": a status code said with what it is a code of
/// (an error's only from 400 on, and not as a length: "the last 500 errors").
fn response_after(p: &Parsed, at: usize, value: f64) -> bool {
    const RESPONSES: [&str; 9] = [
        "responses",
        "response",
        "replies",
        "reply",
        "status",
        "codes",
        "code",
        "响应",
        "状态",
    ];
    let next = after_literal(p, at);
    let word = |w: &str| {
        next.strip_prefix(w)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric()))
    };
    let before = p.lower.get(..at).unwrap_or("").trim_end();
    let a_length = ["last", "first", "top", "latest", "recent", "前", "最近"]
        .iter()
        .any(|w| before.ends_with(w));
    RESPONSES.iter().any(|w| word(w)) || (value >= 400.0 && word("errors") && !a_length)
}

/// "504s", "the 502s": a status code in the plural, not seconds (no comparison before it,
/// and the `s` written right after the digits).
fn plural_code(p: &Parsed, at: usize) -> bool {
    let written = p
        .lits
        .iter()
        .find(|l| l.start == at)
        .and_then(|l| p.lower.get(l.start..l.end));
    written.is_some_and(|w| {
        w.len() == 4 && w.ends_with('s') && w[..3].bytes().all(|b| b.is_ascii_digit())
    })
}

/// The key column of the table when a word naming it stands right before or after the
/// number at `at` ("进程 4242", "pid 4242", "process 4242").
fn table_key(p: &Parsed, source: Source, at: usize) -> Option<String> {
    let lex = crate::lexicon::lexicon();
    let end = p.lits.iter().find(|l| l.start == at).map_or(at, |l| l.end);
    p.hits.iter().find_map(|h| match h.cue {
        Cue::Source(i) if lex.sources[i].source == source => {
            let before = h.end <= at && p.lower[h.end..at].trim().is_empty();
            // "1 号进程": the measure word of a numbered thing may stand between.
            let after = h.start >= end && matches!(p.lower[end..h.start].trim(), "" | "号");
            (before || after)
                .then(|| lex.sources[i].key.clone())
                .flatten()
        }
        _ => None,
    })
}
