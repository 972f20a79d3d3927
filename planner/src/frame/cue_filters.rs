//! The conditions the lexicon's filter words name outright (levels, tags, methods): a
//! level said with "及以上" / "or worse" is that level and the more severe ones, and a
//! condition said to be counted in ("errors included") is none.

use llmops_common::query::{Filter, FilterOp, Scalar, Source, Unit};

use super::parsed::{filter, Parsed};
use crate::lexicon::{Cue, Lexicon};

/// Whether the condition at `start..end` is said to be counted in, not kept alone
/// ("including errors", "errors included", "报错的也算").
fn included(p: &Parsed, start: usize, end: usize) -> bool {
    p.hits.iter().any(|h| match h.cue {
        Cue::Included => h.end <= start && start - h.end <= 12,
        Cue::IncludedAfter => h.start >= end && p.gap(end, h.start).len() <= 4,
        _ => false,
    })
}

/// Filters the lexicon names outright (levels, tags, methods) that apply to the table.
pub(super) fn cue_filters(lex: &Lexicon, p: &Parsed, source: Source) -> Vec<Filter> {
    let mut out = Vec::new();
    let mut above: Vec<String> = Vec::new();
    for h in &p.hits {
        let Cue::Filter(i) = h.cue else { continue };
        if source != Source::Log || included(p, h.start, h.end) {
            continue;
        }
        let c = &lex.filters[i];
        if c.op == FilterOp::Tag && said_by_a_name(p, h.start, h.end) {
            continue;
        }
        let f = filter(c.field.as_deref(), c.op, c.value.clone(), Unit::None);
        let (f, levels) = at_or_above(lex, p, h, f);
        above.extend(levels);
        let f = p.as_said((h.start, h.end), f);
        if !out.contains(&f) {
            out.push(f);
        }
    }
    // "errors, error or worse": a level said again with "or worse" is that range, not
    // the one level and the range together.
    out.retain(|f| {
        !(f.op == FilterOp::Eq
            && f.field.as_ref().is_some_and(|x| x.as_str() == "level")
            && matches!(&f.value, Scalar::Text(v) if above.iter().any(|l| l.eq_ignore_ascii_case(v))))
    });
    out
}

/// "which member was marked failed (NodeMarkedFailed)": a tag's word that a name in
/// code of the question also says is what that name's events are, whatever their level
/// (a cluster logs a member's failure at INFO); the name alone is the condition.
fn said_by_a_name(p: &Parsed, start: usize, end: usize) -> bool {
    let said = p.lower[start..end].trim();
    let word = super::words::stem(said);
    // A part of the name (`Failed` of `NodeMarkedFailed`, `FAILED` of `LOGIN_FAILED`) is
    // the word in a form of its own; `fail2ban` is a program's name, not a failure.
    let says_it = |part: &str| {
        let part = part.to_lowercase();
        part.starts_with(&word) && part.bytes().all(|b| b.is_ascii_lowercase())
    };
    word.chars().count() >= 4
        && p.lits.iter().any(|l| match &l.lit {
            super::scan::Lit::Ident(t) => {
                !t.eq_ignore_ascii_case(said) && name_parts(t).iter().any(|x| says_it(x))
            }
            _ => false,
        })
}

/// The parts of a name in code: at `_`, `-`, `.`, and where a capital follows a small
/// letter (`NodeMarkedFailed`: Node, Marked, Failed).
fn name_parts(name: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for piece in name.split(['_', '-', '.']) {
        let mut start = 0;
        let b = piece.as_bytes();
        for i in 1..b.len() {
            if b[i].is_ascii_uppercase() && b[i - 1].is_ascii_lowercase() {
                parts.push(&piece[start..i]);
                start = i;
            }
        }
        parts.push(&piece[start..]);
    }
    parts
}

/// A level followed by "及以上" / "and above": that level and the more severe ones (and
/// which levels those are).
fn at_or_above(
    lex: &Lexicon,
    p: &Parsed,
    h: &crate::lexicon::Hit,
    f: Filter,
) -> (Filter, Vec<String>) {
    let up = &lex.grammar.at_or_above;
    let (Some(field), FilterOp::Eq, Scalar::Text(level)) = (&f.field, f.op, &f.value) else {
        return (f, Vec::new());
    };
    let after = p.lower[h.end..].trim_start();
    let said = up.words.all().any(|w| after.starts_with(w));
    match up.from(level) {
        Some(levels) if field.as_str() == "level" && said => {
            let alts: Vec<String> = levels.iter().map(|l| regex::escape(l)).collect();
            let range = Filter::new(
                Some(field.clone()),
                FilterOp::Regex,
                Scalar::Text(format!("^(?:{})$", alts.join("|"))),
            );
            (range, levels.iter().map(|l| l.to_string()).collect())
        }
        _ => (f, Vec::new()),
    }
}
