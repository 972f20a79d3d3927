//! A level word that is part of a phrase the log writes ("handshake error", "syntax errors"):
//! the query asks the level and the word, and, when no event has both, the phrase instead
//! (a TLS proxy writes `WARNING … handshake error: …`). Likewise a tag's word the log writes
//! as such ("OOM": the kernel's kills, and Redis's `OOM command not allowed`): when the tag
//! matches nothing, the word as written. The tool runs the fallback only then, and says so.

use llmops_common::query::{Filter, FilterOp, Measure, Query, Scalar, Source};

use super::parsed::Parsed;
use super::scan::Lit;
use super::words::regex_escape;
use crate::lexicon::{Cue, Lexicon};

/// The fallback of a log query that is no timeline (a timeline shows every event anyway).
pub fn of_query(lex: &Lexicon, p: &Parsed, q: &Query) -> Vec<Filter> {
    match q.source {
        Source::Log if q.measure != Measure::Timeline => {
            let phrase = or_else(lex, p, &q.filters);
            if phrase.is_empty() {
                tag_as_written(lex, p, &q.filters)
            } else {
                phrase
            }
        }
        _ => Vec::new(),
    }
}

/// The filters that replace `filters` when they match nothing: `filters` with the level and
/// the word before it replaced by the phrase they make. Empty when no level word follows a
/// word looked for.
fn or_else(lex: &Lexicon, p: &Parsed, filters: &[Filter]) -> Vec<Filter> {
    // The word as looked for: itself, or its stem (`\bhandshak\w*`).
    let looks_for = |v: &str, w: &str| {
        let (v, w) = (v.to_lowercase(), w.to_lowercase());
        let stem = v.replace(r"\b", "").replace(r"\w*", "");
        v.contains(&w) || (stem.len() >= 3 && w.starts_with(&stem))
    };
    let looked_for = |w: &str| {
        filters.iter().position(|f| {
            f.field.is_none()
                && matches!(f.op, FilterOp::Contains | FilterOp::Regex)
                && matches!(&f.value, Scalar::Text(v) if looks_for(v, w))
        })
    };
    for h in &p.hits {
        let Cue::Filter(i) = h.cue else { continue };
        let cue = &lex.filters[i];
        if cue.field.as_deref() != Some("level") {
            continue;
        }
        let Some(level_word) = p.lower.get(h.start..h.end) else {
            continue;
        };
        if !level_word.bytes().all(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        let before = p.lits.iter().find_map(|l| match &l.lit {
            Lit::Word(w) | Lit::Ident(w)
                if l.end <= h.start && p.gap(l.end, h.start).is_empty() =>
            {
                looked_for(w)
            }
            _ => None,
        });
        let Some(at) = before else { continue };
        let level = filters.iter().position(|f| {
            f.field.as_ref().is_some_and(|x| x.as_str() == "level") && f.value == cue.value
        });
        let Some(level) = level else { continue };
        let singular = level_word.strip_suffix('s').unwrap_or(level_word);
        // The whole text looked for ("connection reset", a stem `\bhandshak\w*`), then the
        // level word as a word of the phrase.
        let looked = match (&filters[at].op, &filters[at].value) {
            (FilterOp::Regex, Scalar::Text(v)) => v.clone(),
            (_, v) => format!(r"\b{}", regex_escape(&v.to_string().to_lowercase())),
        };
        let phrase = format!(r"{looked}\W+{}s?\b", regex_escape(singular));
        let mut out: Vec<Filter> = filters
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != at && *j != level)
            .map(|(_, f)| f.clone())
            .collect();
        out.push(Filter::new(None, FilterOp::Regex, Scalar::Text(phrase)));
        // A routine line that only mentions the phrase ("payment errors: 0") is none.
        for quiet in ["INFO", "DEBUG", "TRACE"] {
            out.push(Filter::new(
                Some(llmops_common::query::Field::new("level")),
                FilterOp::NotContains,
                Scalar::Text(quiet.into()),
            ));
        }
        return out;
    }
    Vec::new()
}

/// The filters that replace `filters` when a tag named by one written word ("OOM",
/// "segfault") matches nothing: the word itself looked for in the events.
fn tag_as_written(lex: &Lexicon, p: &Parsed, filters: &[Filter]) -> Vec<Filter> {
    for h in &p.hits {
        let Cue::Filter(i) = h.cue else { continue };
        let cue = &lex.filters[i];
        if cue.op != FilterOp::Tag {
            continue;
        }
        let Some(word) = p.text.get(h.start..h.end) else {
            continue;
        };
        if word.len() < 3 || !word.bytes().all(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        let Some(at) = filters
            .iter()
            .position(|f| f.op == FilterOp::Tag && f.value == cue.value)
        else {
            continue;
        };
        // The word in the forms the tag's own words give it ("fail" of a log that writes
        // "check failed"): those of one word that start as it does.
        let lower = word.to_ascii_lowercase();
        let root: String = lower.chars().take(4).collect();
        let mut forms: Vec<String> = vec![regex_escape(word)];
        // An acronym as written ("OOM") is that word alone.
        if !word.bytes().any(|b| b.is_ascii_uppercase()) {
            let same_word = |w: &&String| {
                w.len() >= 4 && !w.contains(' ') && w.starts_with(&root) && **w != lower
            };
            forms.extend(
                cue.words
                    .en
                    .iter()
                    .filter(same_word)
                    .map(|w| regex_escape(w)),
            );
        }
        let mut out = filters.to_vec();
        out[at] = Filter::new(
            None,
            FilterOp::Regex,
            Scalar::Text(match forms.as_slice() {
                [one] => format!(r"\b{one}\b"),
                _ => format!(r"\b(?:{})\b", forms.join("|")),
            }),
        );
        return out;
    }
    Vec::new()
}
