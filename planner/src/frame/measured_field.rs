//! The field a figure is of: a statistic's field of numbers (the one said nearest its word,
//! or the one its cue implies), and the field a distinct count counts.

use llmops_common::query::{Field, Measure, Query, Source};

use super::parsed::{field_hits, Parsed};
use crate::lexicon::{Cue, Hit, Lexicon};

/// "count of distinct dock ids over the batch events": the field right after the
/// word is what is counted, of whatever kind; "how many unique client ips": else the field
/// named.
pub(super) fn distinct_counted(lex: &Lexicon, p: &Parsed, source: Source, q: &mut Query) {
    if q.measure != Measure::CountDistinct {
        return;
    }
    if let Some(f) = field_after_distinct(lex, p, source) {
        q.group_by.retain(|g| g.as_str() != f);
        q.field = Some(Field::new(&f));
    }
    if q.field.is_none() && q.group_by.is_empty() {
        q.field = field_hits(lex, p, source)
            .map(|(_, f)| Field::new(f))
            .next();
    }
    values_listed(lex, p, q);
}

/// "list the distinct status codes", "show me all the different agents": a word that shows
/// before the distinct word asks for the values themselves, each with its count, not how
/// many there are.
fn values_listed(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    let distinct_at = p.hits.iter().find_map(|h| match h.cue {
        Cue::Measure(i) if lex.measures[i].measure == Measure::CountDistinct => Some(h.start),
        _ => None,
    });
    let shows = |h: &Hit| super::grouping::shows_rows(lex, h);
    // The showing word right before it, but for "me", "all" and articles ("列出所有不同的").
    let right_before =
        |h: &Hit, d: usize| h.end <= d && super::grouping::only_listing_filler(&p.lower[h.end..d]);
    let listed = distinct_at.is_some_and(|d| p.hits.iter().any(|h| shows(h) && right_before(h, d)));
    if !listed || !q.group_by.is_empty() {
        return;
    }
    if let Some(f) = q.field.take() {
        q.measure = Measure::Count;
        q.group_by = vec![f];
    }
}

/// The numeric field a statistic reads: the cue's own, or a numeric field named (`cue`: the
/// question's winning measure cue).
pub(super) fn stat_field(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    from_cue: Option<String>,
    cue: Option<usize>,
) -> Option<String> {
    // A numeric field right after "which"/"per"/"按" ("which user_id") is grouped, not
    // measured, unless the question asks for a statistic.
    let stat = cue.is_some_and(|i| {
        let m = lex.measures[i].measure;
        m.is_stat() || m == Measure::Stats
    });
    // Of several fields of numbers named, the one said nearest the statistic's word
    // ("compaction done 的 elapsed，p90": `elapsed`, not a `batch` number named before it).
    let said = p
        .hits
        .iter()
        .find(|h| matches!(h.cue, Cue::Measure(i) if lex.measures[i].measure.is_stat()));
    let distance = |h: &Hit| {
        said.map_or(0, |c| {
            if h.end <= c.start {
                c.start - h.end
            } else {
                h.start.saturating_sub(c.end)
            }
        })
    };
    let named = field_hits(lex, p, source)
        .filter(|(h, _)| stat || !super::grouping::grouping_word_before(lex, p, h))
        .filter(|(_, f)| p.is_numeric(lex, f))
        .min_by_key(|(h, _)| distance(h))
        .map(|(_, f)| f);
    match (named, from_cue) {
        // "slowest batch": the cue's own field (time taken) when the log has it; the
        // numeric field named is the thing measured, not the measure.
        (Some(n), Some(c))
            if source == Source::Log
                && !p.columns.is_empty()
                && p.log_has(&c)
                && !(c == "duration" && names_a_time(n))
                && !p
                    .columns
                    .iter()
                    .any(|k| k.name == n && k.roles.contains(&c)) =>
        {
            Some(c)
        }
        (Some(n), _) => Some(n.to_string()),
        (None, Some(c)) => Some(c),
        (None, None) => None,
    }
}

/// The field a cue's role is read from. The engine reads a name as a key before a role, so
/// where a column is named like the role without having it (a `duration=` written in some
/// other events' messages) and the question does not write that name, the column with the
/// role is named instead ("how long did bookings take": `took`, not the batch's
/// `duration`).
pub(super) fn role_column(p: &Parsed, role: String) -> String {
    let namesake_without = p
        .columns
        .iter()
        .any(|c| c.name.eq_ignore_ascii_case(&role) && !c.roles.contains(&role));
    let said = crate::text::has_word(&crate::text::ascii_words(&p.lower), &role);
    // The event's own time and level are the engine's whatever key is named so.
    if !namesake_without || said || matches!(role.as_str(), "time" | "level") {
        return role;
    }
    p.columns
        .iter()
        .find(|c| c.roles.contains(&role))
        .map_or(role, |c| c.name.clone())
}

/// A field whose name says it is a time taken ("lock_wait", "gc_pause_ms", "queueTime"):
/// "the longest lock wait" is its largest value, not the longest event's.
fn names_a_time(name: &str) -> bool {
    const TIMES: [&str; 12] = [
        "wait", "time", "latency", "duration", "elapsed", "took", "delay", "lag", "pause", "ms",
        "sec", "secs",
    ];
    // Its words: split at what is no letter or digit, and before a capital (`queueTime`).
    let mut words = vec![String::new()];
    for ch in name.chars() {
        let last = words.last_mut().expect("never empty");
        if !ch.is_ascii_alphanumeric() || (ch.is_ascii_uppercase() && !last.is_empty()) {
            words.push(String::new());
        }
        if ch.is_ascii_alphanumeric() {
            words
                .last_mut()
                .expect("never empty")
                .push(ch.to_ascii_lowercase());
        }
    }
    words.iter().any(|w| TIMES.contains(&w.as_str()))
}

/// The field named right after a distinct count's word ("unique tickets", "不同的 dock.id").
fn field_after_distinct(lex: &Lexicon, p: &Parsed, source: Source) -> Option<String> {
    let cue = p.hits.iter().find(
        |h| matches!(h.cue, Cue::Measure(i) if lex.measures[i].measure == Measure::CountDistinct),
    )?;
    field_hits(lex, p, source)
        .find(|(h, _)| h.start >= cue.end && p.close(cue.end, h.start))
        .map(|(_, f)| f.to_string())
}
