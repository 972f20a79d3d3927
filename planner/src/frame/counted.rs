//! "how many tenants", "有几个客户端", "客户端有多少个": a count asked of a field's name
//! counts the field's values (as `sort -u | wc -l` would), not the events.

use llmops_common::query::{Field, Measure, Query, Source};

use super::parsed::{field_hits, Parsed};
use super::scan::Lit;
use crate::lexicon::{Cue, Hit, Lexicon};

/// Makes a plain count of events a count of a field's values when the count words (the
/// winning measure cue `cue`, an index of the lexicon's measures) are
/// asked of the field's name: the name right after them and the head of its phrase ("how
/// many tenants had errors", not "how many upstream errors"), or right before them with
/// nothing counted after ("client count", "tenant 有几个").
pub(super) fn of_a_named_field(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    cue: Option<usize>,
    q: &mut Query,
) {
    if source != Source::Log
        || q.measure != Measure::Count
        || q.field.is_some()
        || !q.group_by.is_empty()
        || q.limit.is_some()
    {
        return;
    }
    let Some(i) = cue else {
        return;
    };
    let Some(m) = lex.measures[i].of_a_field else {
        return;
    };
    let counts = |c: &&Hit| c.cue == Cue::Measure(i);
    let found = p.hits.iter().filter(counts).find_map(|c| {
        field_hits(lex, p, source).find_map(|(h, f)| {
            let after = h.start >= c.end
                && right_after(lex, p, c.end, h.start)
                && heads_its_phrase(lex, p, h, f);
            let before = h.end <= c.start
                && matches!(
                    p.lower.get(h.end..c.start).map(str::trim),
                    Some("" | "有" | "一共有" | "总共有")
                )
                && nothing_after(lex, p, c);
            ((after || before) && countable(lex, p, h, f)).then_some(f)
        })
    });
    if let Some(f) = found {
        q.measure = m;
        q.field = Some(Field::new(f));
    }
}

/// Whether the field's name follows the count words at once ("how many tenants", "count
/// the clients", "有几个 host"): "the total of it, any status" counts no statuses.
fn right_after(lex: &Lexicon, p: &Parsed, from: usize, to: usize) -> bool {
    p.lower
        .get(from..to)
        .map(str::trim)
        .is_some_and(|gap| gap.is_empty() || lex.grammar.articles.all().any(|a| a == gap))
}

/// A field whose values can be told apart and counted: no number to add up ("how many
/// bytes" is a sum), no message, and no value of its own written right after it.
fn countable(lex: &Lexicon, p: &Parsed, h: &Hit, f: &str) -> bool {
    let lexicon_field = match h.cue {
        Cue::Field(i) => Some(&lex.fields[i]),
        _ => None,
    };
    let text_like =
        lexicon_field.is_some_and(|c| c.grouped || c.event_text || c.additive || c.instances);
    let events = p
        .lower
        .get(h.start..h.end)
        .is_some_and(|w| lex.grammar.events.all().any(|s| s == w));
    let bound = p.lits.iter().any(|l| {
        let gap = p.lower.get(h.end..l.start).unwrap_or("x");
        l.start >= h.end
            && gap
                .trim_matches(|c: char| c.is_whitespace() || "=:：".contains(c))
                .is_empty()
            && !matches!(l.lit, Lit::Word(_))
    });
    // "that client's total", "这个客户端有多少": one value pointed at, not the field's values.
    let before = p.lower[..h.start].trim_end();
    let follow = &lex.grammar.follow;
    let pointed = follow
        .refer_en
        .iter()
        .chain(&follow.refer_zh)
        .chain(&follow.before_a_field)
        .any(|d| crate::text::ends_with_word(before, d));
    !text_like && !events && !bound && !pointed && !p.is_numeric(lex, f) && !super::is_event_text(f)
}

/// Whether no other content word follows the field's name at once ("upstream errors": the
/// name qualifies the errors counted). Another word for the same field is part of its
/// name ("client IPs", "客户端IP").
fn heads_its_phrase(lex: &Lexicon, p: &Parsed, h: &Hit, f: &str) -> bool {
    let next_at = |s: usize| p.lower.get(h.end..s).is_some_and(|g| g.trim().is_empty());
    let same_field = |o: &Hit| field_hits(lex, p, Source::Log).any(|(x, g)| x == o && g == f);
    !p.hits
        .iter()
        .any(|o| o.cue.is_content() && o.start >= h.end && next_at(o.start) && !same_field(o))
        && !p.lits.iter().any(|l| l.start >= h.end && next_at(l.start))
}

/// Whether nothing but filler follows the count words ("客户端有几个？"): "客户端有多少
/// 请求" counts requests.
fn nothing_after(lex: &Lexicon, p: &Parsed, c: &Hit) -> bool {
    let stop = |w: &str| lex.grammar.stop.all().any(|s| s == w);
    let rest = p.lower.get(c.end..).unwrap_or("");
    !p.hits
        .iter()
        .any(|o| o.cue.is_content() && o.start >= c.end)
        && !p.lits.iter().any(|l| l.start >= c.end)
        && rest
            .split(|ch: char| !ch.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .all(|w| {
                stop(w)
                    || (w.chars().all(crate::text::is_cjk)
                        && w.chars().all(|c| stop(c.encode_utf8(&mut [0; 4]))))
            })
}
