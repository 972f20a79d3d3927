//! Which fields a question groups by: a field beside a grouping word ("which client",
//! "按路径"), a ranking word ("the most", "the busiest"), a superlative of another field
//! ("耗时最长的 upstream"), a limit and its number ("前5的客户端") or a listing word before a
//! plural ("list the paths"); a field bound to a value, a measured field or a bucket asked
//! is none.

use llmops_common::query::{Field, Measure, Source};

use super::parsed::{field_hits, Parsed};
use super::scan::Lit;
use crate::lexicon::{Cue, Hit, Lexicon};

/// Fields grouped by: a field next to a grouping word, other than the statistic's field
/// and fields a literal is compared with.
pub(super) fn groups(lex: &Lexicon, p: &Parsed, source: Source, stat: Option<&str>) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    let mut at: Vec<&Hit> = Vec::new();
    let bucket_asked = asks_a_bucket(lex, p);
    for (h, f) in field_hits(lex, p, source) {
        if Some(f) == stat || out.iter().any(|o| o.0 == f) {
            continue;
        }
        // "which minute had the most upstream timeouts": the answer is a time bucket; a
        // field beside the ranking word says whose events are counted, it is no grouping.
        if bucket_asked && !grouping_word_before(lex, p, h) {
            continue;
        }
        // "avg bytes per request": a word for the events after "per" says what each figure
        // is of, not a field to group by (nginx's `request` line).
        if per_event(lex, p, h) {
            continue;
        }
        // A lexicon word for a text field ("which endpoint 504 most") is no number's name.
        let text_word = matches!(h.cue, Cue::Field(_)) && !p.holds_numbers(lex, f);
        // "the cause of LedgerSyncException": the name after "of" is whose field is asked.
        let of = |l: &super::scan::Spanned| {
            let gap = p.gap(h.end, l.start);
            ["of", "for"]
                .iter()
                .any(|w| gap == *w || gap.starts_with(&format!("{w} ")))
        };
        // A field asked ("what caused the LedgerSyncException") takes no value past a word.
        let asked = p.asked(lex, h);
        let bound = p.lits.iter().any(|l| {
            l.start >= h.end
                && p.close(h.end, l.start)
                && !of(l)
                && (!asked || p.gap(h.end, l.start).is_empty())
                && binds(&l.lit)
                && match l.lit {
                    Lit::Number { .. } => !text_word,
                    _ => !p.holds_numbers(lex, f),
                }
                // `5xx` is a status whatever stands before it ("client IPs by 5xx count").
                && (!matches!(l.lit, Lit::Class(_)) || f == "status")
                // Another column's value is that column's ("accounts by AUTH_DENIED count").
                && !matches!(&l.lit, Lit::Word(w) | Lit::Ident(w)
                    if source == Source::Log
                        && p.column_with_value(w).is_some_and(|(c, _)| c != f))
        });
        // A measure of a system table ranked ("哪个最吃内存", "the most memory") sorts its
        // rows; grouping by a number that differs in every row says nothing.
        let ranks = source != Source::Log && p.is_numeric(lex, f) && ranked_at(lex, p, h);
        // "耗时最长的 upstream", "the path with the highest p95": a text field beside a
        // superlative is whose figure is ranked.
        let ranked_by =
            source == Source::Log && !p.holds_numbers(lex, f) && beside_a_superlative(lex, p, h);
        let compound = names_the_measured(lex, p, h, source, stat);
        // "by database and user": a field joined to a grouped one is grouped too.
        let joined = at
            .last()
            .is_some_and(|a| p.list_word_between(a.end, h.start));
        let asked = grouped_at(lex, p, h) || ranked_by || joined;
        if asked && !bound && !ranks && !compound && out.len() < 2 {
            out.push(Field::new(f));
            at.push(h);
        }
    }
    counted_is_no_key(lex, p, &mut out, &at);
    events_word_is_no_key(lex, p, &mut out, &at);
    compound_head(p, &mut out, &at);
    out
}

/// "which database user", "数据库用户": two field words side by side with nothing between
/// them are one noun, whose last word is the field asked and the first its modifier; a
/// grouping by both is asked with a word between ("by database and user", "per host per
/// pid").
fn compound_head(p: &Parsed, out: &mut Vec<Field>, at: &[&Hit]) {
    if let ([a, b], [_, head]) = (at, out.as_slice()) {
        if a.end <= b.start && p.gap(a.end, b.start).is_empty() {
            *out = vec![head.clone()];
        }
    }
}

/// Whether the hit is a word that shows events themselves ("list", "show", "列出").
pub(super) fn shows_rows(lex: &Lexicon, h: &Hit) -> bool {
    matches!(h.cue, Cue::Measure(i)
        if lex.measures[i].measure == Measure::Rows && lex.measures[i].field.is_none())
}

/// Whether the words between a showing word and what it shows say nothing more ("list
/// the", "show me all the", "列出所有").
pub(super) fn only_listing_filler(gap: &str) -> bool {
    matches!(
        gap.trim(),
        "" | "the"
            | "all"
            | "all the"
            | "me"
            | "me the"
            | "me all"
            | "me all the"
            | "所有"
            | "所有的"
            | "全部"
            | "全部的"
    )
}

/// Whether the hit is a word for events (`[events]`) right after a word that says "for
/// each one" (`[each]`: "per request", "每个请求").
fn per_event(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    let g = &lex.grammar;
    g.events.has(&p.lower[h.start..h.end])
        && p.hits.iter().any(|e| {
            e.cue == Cue::Group
                && p.hit_is(e, &g.each)
                && e.end <= h.start
                && p.gap(e.end, h.start).is_empty()
        })
}

/// "which tenant had the most throttled messages": of two keys, a word for events right
/// after a condition ("throttled messages", "failed records") names the events that
/// condition keeps, which the other key's groups count; it is no second key.
fn events_word_is_no_key(lex: &Lexicon, p: &Parsed, out: &mut Vec<Field>, at: &[&Hit]) {
    if out.len() != 2 {
        return;
    }
    let after_a_condition = |h: &Hit| {
        p.hits
            .iter()
            .filter(|c| matches!(c.cue, Cue::Filter(_)))
            .map(|c| c.end)
            .chain(p.lits.iter().map(|l| l.end))
            .any(|end| end <= h.start && p.gap(end, h.start).is_empty())
    };
    let events = &lex.grammar.event_words;
    if let Some(i) = (0..2).find(|&i| {
        let h = at[i];
        events.has(&p.lower[h.start..h.end]) && after_a_condition(h)
    }) {
        out.remove(i);
    }
}

/// "which class threw the most exceptions", "抛异常最多的 logger 是哪个": of two fields, the
/// one a question word asks for is the key; the one the ranking word counts, when its word
/// keeps only the events that have it, is what is counted, no second key.
fn counted_is_no_key(lex: &Lexicon, p: &Parsed, out: &mut Vec<Field>, at: &[&Hit]) {
    if out.len() != 2 {
        return;
    }
    let asks = |g: &Hit| g.cue == Cue::Group && p.hit_is(g, &lex.grammar.asks);
    // Asked before it, after it ("logger 是哪个"), or within its word ("哪个类").
    let asked = |h: &Hit| {
        p.asked(lex, h)
            || p.hits.iter().any(|g| {
                asks(g)
                    && ((g.start >= h.end && p.close(h.end, g.start))
                        || (g.start >= h.start && g.end <= h.end))
            })
    };
    let counted = |h: &Hit| {
        p.hits.iter().any(|g| {
            p.hit_is(g, &lex.grammar.rank)
                && ((g.end <= h.start && p.gap(g.end, h.start).is_empty())
                    || (g.start >= h.end && p.gap(h.end, g.start).is_empty()))
        })
    };
    // Only a field whose events its word already keeps (the exceptions: events with one)
    // is counted so; "the most clients" of each path stays a pair of keys.
    let kept = |h: &Hit| matches!(h.cue, Cue::Field(i) if lex.fields[i].filter.is_some());
    let kinds: Vec<(bool, bool)> = at
        .iter()
        .map(|h| (asked(h), counted(h) && kept(h)))
        .collect();
    if let Some(i) = (0..2).find(|&i| kinds[i] == (false, true) && kinds[1 - i].0) {
        out.remove(i);
    }
}

/// Whether a question word asks for a time bucket ("which minute", "哪一分钟", "what
/// hour"): a bucket word that starts with it, or one right after it.
fn asks_a_bucket(lex: &Lexicon, p: &Parsed) -> bool {
    let asks: Vec<String> = lex.grammar.asks.all().map(|w| w.to_lowercase()).collect();
    p.hits
        .iter()
        .filter(|b| matches!(b.cue, Cue::Bucket(_)))
        .any(|b| {
            let word = p.lower.get(b.start..b.end).unwrap_or("");
            asks.iter().any(|a| word.starts_with(a.as_str()))
                || p.hits.iter().any(|g| {
                    g.cue == Cue::Group
                        && p.hit_is(g, &lex.grammar.asks)
                        && g.end <= b.start
                        && p.close(g.end, b.start)
                })
        })
}

/// Whether a ranking word ("most", "最多") stands right before or after the field word.
pub(super) fn ranked_at(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    let rank = |g: &Hit| p.hit_is(g, &lex.grammar.rank);
    p.hits.iter().any(|g| {
        matches!(g.cue, Cue::Group | Cue::Measure(_))
            && rank(g)
            && ((g.end <= h.start && p.close(g.end, h.start))
                || (g.start >= h.end && p.close(h.end, g.start)))
    })
}

/// Whether a superlative measure word ("slowest", "最长", "highest") stands right before
/// or after the field word.
fn beside_a_superlative(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    if matches!(h.cue, Cue::Field(i) if lex.fields[i].event_text) {
        return false;
    }
    // "最慢的一条请求": one event, counted out, is no ranking of groups.
    let one = |from: usize, to: usize| {
        let gap = p.gap(from, to);
        lex.grammar.one_event.all().any(|w| gap.contains(w))
    };
    p.hits.iter().any(|g| {
        matches!(g.cue, Cue::Measure(i)
            if matches!(lex.measures[i].measure, Measure::Max | Measure::Min))
            && ((g.end <= h.start && p.close(g.end, h.start) && !one(g.end, h.start))
                || (g.start >= h.end && p.close(h.end, g.start)))
    })
}

/// "smallest message size": a field word right before the measured field's word says
/// which of its kind is measured, no grouping.
fn names_the_measured(
    lex: &Lexicon,
    p: &Parsed,
    h: &Hit,
    source: Source,
    stat: Option<&str>,
) -> bool {
    field_hits(lex, p, source).any(|(g, f)| {
        Some(f) == stat && g.start >= h.end && p.gap(h.end, g.start).trim().is_empty()
    })
}

/// Whether a group word that does not rank stands right before the field word.
pub(super) fn grouping_word_before(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    p.hits.iter().any(|g| {
        g.cue == Cue::Group
            && g.end <= h.start
            && p.close(g.end, h.start)
            && !p.hit_is(g, &lex.grammar.rank)
    })
}

/// Whether a field word stands where a grouping puts it: next to "which"/"per"/"按", or
/// a word that groups by itself.
fn grouped_at(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    let own = matches!(h.cue, Cue::Field(i) if lex.fields[i].grouped);
    // "最慢的一条语句是什么", "最慢的语句是什么语句": what an event says, asked of the one event
    // a superlative picks or after its word, is that event's, no grouping.
    let event_text = matches!(h.cue, Cue::Field(i) if lex.fields[i].event_text);
    let one_event = event_text
        && p.hits.iter().any(|g| {
            matches!(g.cue, Cue::Measure(i)
                if matches!(lex.measures[i].measure, Measure::Max | Measure::Min))
        });
    if one_event {
        return false;
    }
    // "exceptions per hour": the "per" of a bucket groups nothing.
    let of_a_bucket = |g: &Hit| {
        p.hits
            .iter()
            .any(|b| matches!(b.cue, Cue::Bucket(_)) && b.start <= g.start && g.end <= b.end)
    };
    // "what percentage of bytes": the question word asks the share, not the field after it.
    let share_between = |a: usize, b: usize| {
        p.lower
            .get(a..b)
            .is_some_and(|gap| lex.grammar.share.occur_in(gap))
    };
    // "哪个类": a field cue with the question word inside it.
    own || p
        .hits
        .iter()
        .filter(|g| (g.cue == Cue::Group && !of_a_bucket(g)) || peak_ranks(lex, p, g))
        .any(|g| {
            (g.end <= h.start && p.close(g.end, h.start) && !share_between(g.end, h.start))
                || (g.start >= h.end && p.close(h.end, g.start) && !event_text)
                || (g.start == h.start && g.end < h.end)
        })
        || after_top_n(p, h)
        || listed(lex, p, h)
}

/// "list the paths that returned 5xx", "show all client IPs": a field named in the plural
/// right after a word that shows rows is what is listed, each value once.
fn listed(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    let plural = p
        .text
        .get(h.start..h.end)
        .is_some_and(|w| w.len() > 2 && w.ends_with(['s', 'S']) && w.is_ascii());
    let shows = |g: &Hit| shows_rows(lex, g);
    plural
        && p.hits
            .iter()
            .any(|g| shows(g) && g.end <= h.start && only_listing_filler(&p.lower[g.end..h.start]))
}

/// Whether a hit is a peak word that ranks groups like "most" does ("the busiest clients",
/// "最繁忙的客户端"); beside no field it is the busiest period.
pub(super) fn peak_ranks(lex: &Lexicon, p: &Parsed, h: &Hit) -> bool {
    matches!(h.cue, Cue::Measure(i) if lex.measures[i].measure == Measure::Buckets)
        && p.hit_is(h, &lex.grammar.rank)
}

/// "请求数前5的客户端", "前五个客户端", "哪三个 tenant": a field right after a limit word
/// (or 哪) and its number is what the top N are of.
fn after_top_n(p: &Parsed, h: &Hit) -> bool {
    p.lits.iter().any(|l| {
        let limit_before = p
            .hits
            .iter()
            .any(|g| g.cue == Cue::Limit && g.end <= l.start && p.close(g.end, l.start));
        matches!(l.lit, Lit::Number { unit: None, .. })
            && l.end <= h.start
            && p.close(l.end, h.start)
            && (limit_before || p.lower[..l.start].trim_end().ends_with('哪'))
    })
}

/// A literal that, right after a field's name, is that field's value ("status 503").
fn binds(l: &Lit) -> bool {
    matches!(
        l,
        Lit::Number { unit: None, .. }
            | Lit::Ip(_)
            | Lit::Quoted(_)
            | Lit::Ident(_)
            | Lit::Class(_)
    )
}
