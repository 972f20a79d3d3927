//! A share asked of a population ("what share of the shop's requests were 503s", "reserve
//! 调用的失败率", "status=aborted 的占比"): the conditions that pick the population, apart
//! from the part of it counted.

use llmops_common::query::{Filter, Measure};

use super::build::frame_of;
use super::parsed::Parsed;
use super::{Frame, FrameCtx};
use crate::lexicon::Lexicon;

/// The population of a share the question asks, as conditions (empty: every row that has
/// the fields the counted part compares); its conditions join the counted part's too.
/// `None` when no share is asked of a count.
pub(super) fn population(
    lex: &Lexicon,
    text: &str,
    ctx: &FrameCtx,
    frame: &mut Frame,
) -> Option<()> {
    let q = &frame.query;
    if q.measure != Measure::Count || !q.group_by.is_empty() {
        return None;
    }
    let g = &lex.grammar;
    let lower = text.to_lowercase();
    let rate = g.rate.occur_in(&lower);
    if !rate && !g.share.occur_in(&lower) {
        return None;
    }
    let said = if rate {
        // "reserve 调用的失败率": the rest of the question picks the population.
        Some(without(&lower, g.rate.all()))
    } else {
        population_words(lex, &lower)
    };
    let mut base: Vec<Filter> = match said {
        Some(words) => {
            let p = Parsed::new(&words, ctx);
            let f = frame_of(lex, &p, q.source, q.files.clone());
            f.query.filters
        }
        // Of several conditions, which pick the population is not said: a share of every
        // row, as without one.
        None if q.filters.len() > 1 => return None,
        None => Vec::new(),
    };
    for f in &base {
        if !frame.query.filters.contains(f) {
            frame.query.filters.push(f.clone());
        }
    }
    // A population that is the whole of what is counted picks nothing apart from it.
    if frame.query.filters.iter().all(|f| base.contains(f)) {
        base.clear();
    }
    frame.share_of = Some(base);
    Some(())
}

/// The words naming the population: after "of"/"among" up to the verb that says what part
/// of it is counted ("of the shop's requests | were 503s"); in Chinese before 里/中 ("灌溉
/// 周期里 | status=aborted 的占比").
fn population_words(lex: &Lexicon, lower: &str) -> Option<String> {
    let w = &lex.grammar.share_of;
    let share_at = lex
        .grammar
        .share
        .all()
        .filter_map(|s| crate::lexicon::occurrences(lower, s).first().copied())
        .map(|(a, _)| a)
        .min()?;
    // "among requests to /checkout, what percentage were 503": the population before it,
    // up to the share's clause.
    let before_share = &lower[..share_at];
    let among = w
        .before
        .en
        .iter()
        .filter_map(|o| {
            crate::lexicon::occurrences(before_share, o)
                .first()
                .copied()
        })
        .min_by_key(|&(a, _)| a);
    if let Some((_, e)) = among {
        let rest = &before_share[e..];
        let end = rest.rfind([',', '，', ';']).unwrap_or(rest.len());
        return Some(rest[..end].to_string());
    }
    let after = &lower[share_at..];
    let of = w
        .before
        .en
        .iter()
        .filter_map(|o| crate::lexicon::occurrences(after, o).first().copied())
        .min_by_key(|&(a, _)| a);
    if let Some((_, e)) = of {
        let rest = &after[e..];
        let end = w
            .after_en
            .iter()
            .filter_map(|v| {
                crate::lexicon::occurrences(rest, v)
                    .first()
                    .map(|&(a, _)| a)
            })
            .min()?;
        return Some(rest[..end].to_string());
    }
    let before = &lower[..share_at];
    let cut = w
        .after_zh
        .iter()
        .filter_map(|z| before.rfind(z.as_str()))
        .max()?;
    Some(before[..cut].to_string())
}

/// The text with every occurrence of the words blanked.
fn without<'a>(lower: &str, words: impl Iterator<Item = &'a str>) -> String {
    let mut out = lower.to_string();
    for w in words {
        for (a, b) in crate::lexicon::occurrences(&out.clone(), w)
            .into_iter()
            .rev()
        {
            out.replace_range(a..b, " ");
        }
    }
    out
}
