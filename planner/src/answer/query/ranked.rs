//! The lead of an answer to a position in a ranking ("the second slowest request", "排第三
//! 的客户端", "the second busiest minute"): that group, row or bucket, with the first beside
//! it and a tie with the one before said.

use llmops_common::query::{BucketRow, GroupRow, QueryResult, QueryValue};

use super::{group_key, row_line, unit_of, width_words, with_unit};
use crate::text::Lang;

/// The lead, when the query asks a position past the first.
pub(super) fn lead(r: &QueryResult, what: &str, part: &str, lang: Lang) -> Option<String> {
    let n = r.query.rank.filter(|&n| n >= 2)? as usize;
    match &r.value {
        QueryValue::Groups { rows, groups, .. } => {
            let value = |g: &GroupRow| match g.value {
                Some(v) => with_unit(v, unit_of(r)),
                None => g.count.to_string(),
            };
            let (Some(nth), Some(top)) = (rows.get(n - 1), rows.first()) else {
                return Some(too_few(what, n, rows.len(), part, lang));
            };
            let same = |i: usize| rows.get(i).is_some_and(|g| value(g) == value(nth));
            let tie = tied((same(n - 2), same(n)), n, lang);
            let (key, v, top_key, top_v) = (group_key(nth), value(nth), group_key(top), value(top));
            Some(match lang {
                Lang::Zh => format!(
                    "{what} —— 第 {n} 是 **{key}**（{v}）{tie}；第一是 {top_key}（{top_v}）；共 {groups} 个分组{part}。"
                ),
                Lang::En => format!(
                    "{what}: number {n} is **{key}** ({v}){tie}; the top one is {top_key} ({top_v}); {groups} groups in all{part}."
                ),
            })
        }
        QueryValue::Rows { rows, total } => {
            let Some(nth) = rows.get(n - 1) else {
                return Some(too_few(what, n, rows.len(), part, lang));
            };
            let when = nth.time.clone().unwrap_or_else(|| "?".into());
            let line = row_line(nth, lang, true);
            Some(match lang {
                Lang::Zh => {
                    format!("{what} —— 第 {n} 条在 **{when}**（共 {total} 条匹配）{part}。\n{line}")
                }
                Lang::En => format!(
                    "{what}: number {n} is at **{when}** ({total} matching in all){part}.\n{line}"
                ),
            })
        }
        QueryValue::Buckets {
            width_seconds,
            buckets,
            ..
        } => {
            let ranked = by_count(buckets);
            let (Some(nth), Some(top)) = (ranked.get(n - 1), ranked.first()) else {
                return Some(too_few(what, n, ranked.len(), part, lang));
            };
            let w = width_words(*width_seconds, lang);
            let same = |i: usize| ranked.get(i).is_some_and(|b| b.count == nth.count);
            let tie = tied((same(n - 2), same(n)), n, lang);
            Some(match lang {
                Lang::Zh => format!(
                    "{what} —— 第 {n} 多的{w}是 **{}**（{} 条）{tie}；最多的是 {}（{} 条）{part}。",
                    nth.start, nth.count, top.start, top.count
                ),
                Lang::En => format!(
                    "{what}: number {n} is the {w} of **{}** ({}){tie}; the peak is {} ({}){part}.",
                    nth.start, nth.count, top.start, top.count
                ),
            })
        }
        _ => None,
    }
}

/// The buckets with events, the busiest first (the earlier of a tie first).
fn by_count(buckets: &[BucketRow]) -> Vec<&BucketRow> {
    let mut ranked: Vec<&BucketRow> = buckets.iter().filter(|b| b.count > 0).collect();
    ranked.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.start.cmp(&b.start)));
    ranked
}

/// The `n`th busiest bucket (1 is the peak).
pub(crate) fn nth_busiest(buckets: &[BucketRow], n: usize) -> Option<&BucketRow> {
    by_count(buckets).get(n.checked_sub(1)?).copied()
}

/// "（与第 1 并列）" when the position asked holds the same value as the one before it or
/// after it: which of them is "the second" is then the order of a tie.
fn tied((before, after): (bool, bool), n: usize, lang: Lang) -> String {
    let with = match (before, after) {
        (false, false) => return String::new(),
        (true, false) => vec![n - 1],
        (false, true) => vec![n + 1],
        (true, true) => vec![n - 1, n + 1],
    };
    let list = |sep: &str| {
        with.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(sep)
    };
    match lang {
        Lang::Zh => format!("（与第 {} 并列）", list("、")),
        Lang::En => format!(" (tied with number {})", list(" and ")),
    }
}

fn too_few(what: &str, n: usize, have: usize, part: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{what} —— 只有 {have} 个，没有第 {n} 个{part}。"),
        Lang::En => format!("{what}: there are only {have}, no number {n}{part}."),
    }
}

#[cfg(test)]
mod tests {
    use super::tied;
    use crate::text::Lang;

    #[test]
    fn a_tie_on_either_side_of_the_position_is_said() {
        assert_eq!(tied((false, false), 2, Lang::En), "");
        assert_eq!(tied((true, false), 2, Lang::En), " (tied with number 1)");
        assert_eq!(tied((false, true), 2, Lang::Zh), "（与第 3 并列）");
        assert_eq!(tied((true, true), 3, Lang::Zh), "（与第 2、4 并列）");
    }
}
