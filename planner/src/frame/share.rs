//! A share asked of a population ("what percentage of the blue pool's jobs failed",
//! "checkout 接口的错误率", "status=failed 的比例"): the conditions that pick the population, apart
//! from the part of it counted.

use llmops_common::query::{Filter, Measure, Order, Source};

use super::build::frame_of;
use super::parsed::Parsed;
use super::{Frame, FrameCtx};
use crate::lexicon::{Cue, Lexicon};

/// The population of a share the question asks, as conditions in `frame.share_of` (empty:
/// every row that has the fields the counted part compares); its conditions join the
/// counted part's too. Left `None` when no share is asked of a count.
pub(super) fn population(
    lex: &Lexicon,
    (text, p): (&str, &Parsed),
    ctx: &FrameCtx,
    frame: &mut Frame,
) {
    let q = &frame.query;
    let summed = q.measure == Measure::Sum && q.field.is_some();
    let grouped = !q.group_by.is_empty();
    if !(q.measure == Measure::Count || (summed && !grouped)) {
        return;
    }
    let g = &lex.grammar;
    // ASCII lower case keeps the offsets of `text`, whose capitals the population's words
    // are read with ("among POST requests": the method, not a verb).
    let lower = text.to_ascii_lowercase();
    let rate = super::rate::rate_asked(lex, p);
    if rate.is_none() && !g.share.occur_in(&lower) {
        return;
    }
    if let Some(field) = share_of_a_total(lex, p).filter(|_| !grouped) {
        frame.query.measure = Measure::Sum;
        frame.query.field = Some(llmops_common::query::Field::new(field));
    }
    let q = &frame.query;
    let said = if let Some((a, b)) = rate {
        // "checkout 接口的错误率": the rest of the question picks the population.
        let mut rest = p.text.clone();
        rest.replace_range(a..b, " ");
        Some(rest)
    } else {
        population_words(lex, &lower, grouped).and_then(|(a, b)| text.get(a..b).map(str::to_string))
    };
    let mut base: Vec<Filter> = said.map_or_else(Vec::new, |words| {
        let p = Parsed::new(&words, ctx);
        frame_of(lex, &p, q.source, q.files.clone()).query.filters
    });
    // Of several conditions, which pick the population is not said (or not read as a
    // condition): no guess, a share of every row as without one.
    if base.is_empty() && q.filters.len() > 1 {
        return;
    }
    for f in &base {
        if !frame.query.filters.contains(f) {
            frame.query.filters.push(f.clone());
        }
    }
    let whole = frame.query.filters.iter().all(|f| base.contains(f));
    // "what share of the errors came from each service": each group's part of the rows
    // counted. A share asked as a rate, or of the group that ranks highest or lowest, is
    // of each group's own rows.
    let ranked = ranks(lex, p);
    if grouped && whole && rate.is_none() && ranked.is_none() {
        frame.share_of = Some(base);
        return;
    }
    // "the lowest error rate": each group's share ranks from the lowest.
    if let Some(order) = ranked.filter(|_| grouped) {
        frame.query.order = order;
    }
    // A population that is the whole of what is counted picks nothing apart from it.
    if whole {
        base.clear();
    }
    frame.share_of = Some(base);
}

/// The order the question ranks the groups in, when it asks the one that ranks highest or
/// lowest ("which path has the highest share of 5xx", "错误率最低的接口").
fn ranks(lex: &Lexicon, p: &Parsed) -> Option<Order> {
    p.hits.iter().find_map(|h| match h.cue {
        Cue::Measure(i) => match lex.measures[i].measure {
            Measure::Max => Some(Order::Desc),
            Measure::Min => Some(Order::Asc),
            _ => None,
        },
        _ => p.hit_is(h, &lex.grammar.rank).then_some(Order::Desc),
    })
}

/// "what % of the bytes went to /api/pay", "bandwidth share of /static": a share whose
/// word is followed by "of" and a field that adds up (bytes) is of that field's total.
fn share_of_a_total<'l>(lex: &'l Lexicon, p: &Parsed) -> Option<&'l str> {
    let ends: Vec<usize> = lex
        .grammar
        .share
        .all()
        .flat_map(|s| crate::lexicon::occurrences(&p.lower, s))
        .map(|(_, e)| e)
        .collect();
    p.hits.iter().find_map(|h| {
        let Cue::Field(i) = h.cue else { return None };
        let f = &lex.fields[i];
        let after_of = ends.iter().any(|&e| {
            e <= h.start
                && matches!(
                    p.lower[e..h.start].trim(),
                    "of" | "of the" | "of all" | "of all the" | "of total" | "of the total"
                )
        });
        (f.additive && f.source == Some(Source::Log) && after_of).then_some(f.field.as_str())
    })
}

/// Where the words naming the population stand: after "of"/"among" up to the verb that
/// says what part of it is counted ("of the blue pool's jobs | were failed"), or from
/// "among" before the share's clause ("among POST requests, | what share were 4xx"); in
/// Chinese before 里/中 ("pool=blue 里 | status=failed 占多少"), from 在 when it opens them
/// ("5xx 在 POST 请求中的占比").
fn population_words(lex: &Lexicon, lower: &str, grouped: bool) -> Option<(usize, usize)> {
    let w = &lex.grammar.share_of;
    let share_at = lex
        .grammar
        .share
        .all()
        .filter_map(|s| crate::lexicon::occurrences(lower, s).first().copied())
        .map(|(a, _)| a)
        .min()?;
    let first_of = |hay: &str| {
        w.before
            .en
            .iter()
            .filter_map(|o| crate::lexicon::occurrences(hay, o).first().copied())
            .min_by_key(|&(a, _)| a)
    };
    let before = &lower[..share_at];
    if let Some((_, e)) = first_of(before) {
        let end = before[e..].rfind([',', ';']).map_or(share_at, |i| e + i);
        return Some((e, end));
    }
    if let Some((_, e)) = first_of(&lower[share_at..]) {
        let from = share_at + e;
        let rest = &lower[from..];
        let end = w
            .after_en
            .iter()
            // A verb as a word of the sentence, not a value ("status=failed").
            .filter_map(|v| {
                crate::lexicon::occurrences(rest, v)
                    .into_iter()
                    .map(|(a, _)| a)
                    .find(|&a| rest[..a].ends_with(' '))
            })
            .min();
        // Grouped, the words after "of" name the rows each group's part is of ("what
        // share of the errors came from each service").
        let end = match (end, grouped) {
            (Some(end), _) => end,
            (None, true) => rest.len(),
            (None, false) => return None,
        };
        return Some((from, from + end));
    }
    let cut = w
        .after_zh
        .iter()
        .filter_map(|z| before.rfind(z.as_str()))
        .max()?;
    let start = before[..cut].rfind('在').map_or(0, |i| i + '在'.len_utf8());
    Some((start, cut))
}
