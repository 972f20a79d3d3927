//! A log's column named by a field, and a field's value named by a part of it, right
//! before the field's name: "the api backend" is `be_api`, "the api host" `api.example.net`.

use llmops_common::query::Column;

use super::scan::{Lit, Spanned};
use crate::lexicon::{Cue, Hit, Lexicon};

/// "the api backend", "for the api host only": a word right before a field's name that is
/// one part of exactly one of the field's values (`be_api`, `api.example.net`) is that
/// value, whatever else the word may name (the lexicon's "api" for an endpoint).
pub(super) fn value_before_its_field(
    lex: &Lexicon,
    lower: &str,
    columns: &[Column],
    hits: &mut Vec<Hit>,
    lits: &mut Vec<Spanned>,
) {
    let column_of = |h: &Hit| -> Option<&Column> {
        let named = match h.cue {
            Cue::Column(i) => columns.get(i)?.name.clone(),
            Cue::Field(k) => lex.fields[k].field.clone(),
            _ => return None,
        };
        column_for(columns, &named).filter(|c| !c.values.is_empty() && !c.numeric)
    };
    let mut found: Vec<(usize, usize, String, String)> = Vec::new();
    for h in hits.iter() {
        let Some(c) = column_of(h) else { continue };
        let before = lower[..h.start].trim_end_matches(' ');
        let ws = before
            .char_indices()
            .rev()
            .find(|(_, ch)| !ch.is_ascii_alphanumeric())
            .map_or(0, |(i, ch)| i + ch.len_utf8());
        let word = &before[ws..];
        // A number is a length or a count ("top 10 clients"); a cue word does its own work.
        let cue = hits
            .iter()
            .any(|o| ws < o.end && o.start < before.len() && does_its_own_work(o.cue));
        if word.len() < 2
            || before.len() == h.start
            || !word.bytes().any(|b| b.is_ascii_alphabetic())
            || cue
            || lex.grammar.stop.en.iter().any(|w| w == word)
        {
            continue;
        }
        if let Some(v) = one_value_with_part(c, word) {
            found.push((ws, h.end, c.name.clone(), v.to_string()));
        }
    }
    as_pairs(found, hits, lits);
}

/// The one sampled value of `c` that holds `word` as one of its parts (`be_api`,
/// `api.example.net` for "api"); a value with spaces is a message, not a name the word can
/// stand for. None when no value or several do.
fn one_value_with_part<'c>(c: &'c Column, word: &str) -> Option<&'c str> {
    let mut of = c.values.iter().filter(|v| {
        !v.trim().contains(char::is_whitespace)
            && v.to_ascii_lowercase()
                .split(|ch: char| !ch.is_ascii_alphanumeric())
                .any(|t| t == word)
    });
    match (of.next(), of.next()) {
        (Some(v), None) => Some(v),
        _ => None,
    }
}

/// "for backend api", "server st-1 only": a cue word right after a log's column's own name
/// that is (a part of) exactly one of that column's values is that value: the log's own
/// value for its own field beats the word's lexicon reading (the lexicon's "api" for an
/// endpoint). Plain words there are literals, which their own rule binds.
pub(super) fn value_after_its_field(
    lower: &str,
    columns: &[Column],
    hits: &mut Vec<Hit>,
    lits: &mut Vec<Spanned>,
) {
    let mut found: Vec<(usize, usize, String, String)> = Vec::new();
    for h in hits.iter() {
        let Cue::Column(i) = h.cue else { continue };
        let Some(c) = columns
            .get(i)
            .filter(|c| !c.values.is_empty() && !c.numeric)
        else {
            continue;
        };
        let rest = &lower[h.end..];
        let gap = rest.len() - rest.trim_start_matches(' ').len();
        if gap == 0 {
            continue;
        }
        let start = h.end + gap;
        let len = lower[start..]
            .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '-'))
            .unwrap_or(lower.len() - start);
        let (end, word) = (start + len, &lower[start..start + len]);
        // Only a word the lexicon reads otherwise: a cue of grammar (a count, a limit, a
        // comparison) keeps its reading.
        let cued = |o: &&Hit| o.start == start && o.end == end;
        if word.len() < 2
            || !hits.iter().any(|o| cued(&o))
            || hits.iter().filter(cued).any(|o| does_its_own_work(o.cue))
        {
            continue;
        }
        if let Some(v) = one_value_with_part(c, word) {
            found.push((start, end, c.name.clone(), v.to_string()));
        }
    }
    as_pairs(found, hits, lits);
}

/// Whether a cue does its own work beside a field's name, whatever value its word may
/// also be: grouping, a measure, a length, a comparison, "last".
fn does_its_own_work(cue: Cue) -> bool {
    matches!(
        cue,
        Cue::Group | Cue::Measure(_) | Cue::Limit | Cue::Compare(_) | Cue::Last
    )
}

/// The log's column a field names, by its name or a role it answers for.
pub(super) fn column_for<'a>(columns: &'a [Column], field: &str) -> Option<&'a Column> {
    columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(field) || c.roles.iter().any(|r| r == field))
}

/// "requests that were not GET": a word the scan leaves out as a common English word is a
/// name when it is written as a column's value is in the sample, capitals and all (`GET`
/// is nginx's method; "get" is a verb).
pub(super) fn common_words_written_as_values(
    text: &str,
    columns: &[Column],
    hits: &[Hit],
    lits: &mut Vec<Spanned>,
) {
    static SHOUTED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let shouted = SHOUTED.get_or_init(|| {
        regex::Regex::new(r"(?-u:\b)[A-Z]{2,}(?-u:\b)").expect("a valid literal regex")
    });
    let covered = |s: usize, e: usize| {
        hits.iter().any(|h| h.start < e && s < h.end)
            || lits.iter().any(|l| l.start < e && s < l.end)
    };
    let found: Vec<Spanned> = shouted
        .find_iter(text)
        .filter(|m| !covered(m.start(), m.end()))
        .filter(|m| {
            columns
                .iter()
                .any(|c| c.values.iter().any(|v| v == m.as_str()))
        })
        .map(|m| Spanned {
            start: m.start(),
            end: m.end(),
            lit: Lit::Ident(m.as_str().to_string()),
        })
        .collect();
    lits.extend(found);
}

/// Whether a column names the kind of each event (`event_type`, `eventType`, `kind`).
pub(super) fn names_event_kinds(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let last = lower.rsplit(['.', '_']).next().unwrap_or(&lower);
    last == "kind" || last.ends_with("type")
}

/// The columns naming each event's kind; an error's or an exception's type (`err.type`,
/// with a role) is no kind of event.
fn kind_columns(columns: &[Column]) -> Vec<&Column> {
    columns
        .iter()
        .filter(|c| !c.numeric && c.roles.is_empty() && names_event_kinds(&c.name))
        .collect()
}

/// The one column of kinds whose sampled values hold `kind` (case ignored), and the value
/// as the log writes it; none when no column or several do.
fn one_kind_with(kinds: &[&Column], kind: &str) -> Option<(String, String)> {
    let mut of = kinds.iter().filter_map(|c| {
        let v = c.values.iter().find(|v| v.eq_ignore_ascii_case(kind))?;
        Some((c.name.clone(), v.clone()))
    });
    match (of.next(), of.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// "dns events", "tls 事件", "the stats records": a word before a word for events that is
/// a value of the column naming each event's kind (Suricata's `event_type`) is that value,
/// whatever else the word may name (a log's role, a protocol).
pub(super) fn kinds_of_events(
    lower: &str,
    columns: &[Column],
    hits: &mut Vec<Hit>,
    lits: &mut Vec<Spanned>,
) {
    let kinds = kind_columns(columns);
    if kinds.is_empty() {
        return;
    }
    let events = &crate::lexicon::lexicon().grammar.event_words;
    let mut found: Vec<(usize, usize, String, String)> = Vec::new();
    for (start, word) in ascii_word_spans(lower) {
        let end = start + word.len();
        let next = lower[end..].trim_start();
        let event_word = events.all().any(|e| {
            next.starts_with(e) && !next[e.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
        });
        if !event_word {
            continue;
        }
        if let Some((field, value)) = one_kind_with(&kinds, word) {
            found.push((start, end, field, value));
        }
    }
    as_pairs(found, hits, lits);
}

/// "告警" over an IDS log: a word the lexicon gives a kind of events (`[[kind_words]]`) is
/// that kind where one column of kinds holds it, in place of the word's other reading.
pub(super) fn kinds_named_in_words(
    lower: &str,
    columns: &[Column],
    hits: &mut Vec<Hit>,
    lits: &mut Vec<Spanned>,
) {
    let kinds = kind_columns(columns);
    let mut found: Vec<(usize, usize, String, String)> = Vec::new();
    for k in &crate::lexicon::lexicon().grammar.kind_words {
        let Some((field, value)) = one_kind_with(&kinds, &k.kind) else {
            continue;
        };
        for w in k.zh.iter().chain(&k.en) {
            for (start, end) in crate::lexicon::occurrences(lower, w) {
                found.push((start, end, field.clone(), value.clone()));
            }
        }
    }
    as_pairs(found, hits, lits);
}

/// Each `(start, end, field, value)` span as that field's value, in place of the cues and
/// literals on it.
fn as_pairs(
    found: Vec<(usize, usize, String, String)>,
    hits: &mut Vec<Hit>,
    lits: &mut Vec<Spanned>,
) {
    for (start, end, field, value) in found {
        hits.retain(|h| h.end <= start || h.start >= end);
        lits.retain(|l| l.end <= start || l.start >= end);
        lits.push(Spanned {
            start,
            end,
            lit: Lit::Pair { field, value },
        });
    }
    lits.sort_by_key(|l| l.start);
}

/// The words of ASCII letters, digits and `_` in `text`, with where each starts.
fn ascii_word_spans(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}
