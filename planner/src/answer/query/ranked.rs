//! The lead of an answer to a position in a ranking ("the second slowest request", "排第三
//! 的客户端", "the second busiest minute"): that group, row or bucket, with the first beside
//! it and a tie with the one before said.

use llmops_common::query::{BucketRow, GroupRow, Order, QueryResult, QueryValue};

use super::{group_key, row_line, unit_of, width_words, with_unit};
use crate::text::Lang;

/// The lead, when the query asks a position past the first, or the quietest bucket.
pub(super) fn lead(r: &QueryResult, what: &str, part: &str, lang: Lang) -> Option<String> {
    let quietest = matches!(r.value, QueryValue::Buckets { .. }) && r.query.order == Order::Asc;
    let n = match r.query.rank.filter(|&n| n >= 2) {
        Some(n) => n as usize,
        None if quietest => 1,
        None => return None,
    };
    match &r.value {
        QueryValue::Groups { rows, groups, .. } => {
            let value = |g: &GroupRow| match g.value {
                Some(v) => with_unit(v, unit_of(r)),
                None => g.count.to_string(),
            };
            let (Some(nth), Some(top)) = (rows.get(n - 1), rows.first()) else {
                return Some(too_few(what, n, rows.len(), part, lang));
            };
            let same = |i: usize| {
                rows.get(i)
                    .is_some_and(|g| (g.value, g.count) == (nth.value, nth.count))
            };
            let tie = tied((same(n - 2), same(n)), n, lang);
            let (key, v, top_key, top_v) =
                (group_key(r, nth), value(nth), group_key(r, top), value(top));
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
        } => Some(buckets_lead(
            r,
            (buckets, *width_seconds),
            n,
            (what, part),
            lang,
        )),
        _ => None,
    }
}

/// The lead of a bucket at position `n` of the busiest (or, with `Asc`, the quietest).
fn buckets_lead(
    r: &QueryResult,
    (buckets, width): (&[BucketRow], u64),
    n: usize,
    (what, part): (&str, &str),
    lang: Lang,
) -> String {
    let least = r.query.order == Order::Asc;
    let ranked = by_count(buckets, r.query.order);
    let (Some(nth), Some(top)) = (ranked.get(n - 1), ranked.first()) else {
        return too_few(what, n, ranked.len(), part, lang);
    };
    let w = width_words(width, lang);
    let same = |i: usize| ranked.get(i).is_some_and(|b| b.count == nth.count);
    let tie = tied((n >= 2 && same(n - 2), same(n)), n, lang);
    let (most, first_zh, first_en) = if least {
        ("少", "最少", "the quietest")
    } else {
        ("多", "最多", "the peak")
    };
    if n == 1 {
        return match lang {
            Lang::Zh => format!(
                "{what} —— 最少的{w}是 **{}**（{} 条）{tie}{part}。",
                nth.start, nth.count
            ),
            Lang::En => format!(
                "{what}: the quietest {w} is **{}** ({}){tie}{part}.",
                nth.start, nth.count
            ),
        };
    }
    match lang {
        Lang::Zh => format!(
            "{what} —— 第 {n} {most}的{w}是 **{}**（{} 条）{tie}；{first_zh}的是 {}（{} 条）{part}。",
            nth.start, nth.count, top.start, top.count
        ),
        Lang::En => format!(
            "{what}: number {n} is the {w} of **{}** ({}){tie}; {first_en} is {} ({}){part}.",
            nth.start, nth.count, top.start, top.count
        ),
    }
}

/// The buckets, the busiest first, or with `Asc` the quietest (an empty one among the
/// listed span is the quietest of all); the earlier of a tie first.
pub(super) fn by_count(buckets: &[BucketRow], order: Order) -> Vec<&BucketRow> {
    let mut ranked: Vec<&BucketRow> = buckets
        .iter()
        .filter(|b| order == Order::Asc || b.count > 0)
        .collect();
    ranked.sort_by(|a, b| {
        let by = match order {
            Order::Asc => a.count.cmp(&b.count),
            Order::Desc => b.count.cmp(&a.count),
        };
        by.then_with(|| a.start.cmp(&b.start))
    });
    ranked
}

/// The bucket at position `n` of the ranking `order` asks (1 is the peak, or the quietest).
pub(crate) fn nth_bucket(buckets: &[BucketRow], n: usize, order: Order) -> Option<&BucketRow> {
    by_count(buckets, order).get(n.checked_sub(1)?).copied()
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

/// The groups tied with the top one, named after it, when any is: "; tied at the top with
/// **b** and **c**". Empty when the top stands alone (or only the listed rows are known:
/// a tie with an unlisted group is not said).
pub(super) fn tied_at_the_top(r: &QueryResult, rows: &[GroupRow], lang: Lang) -> String {
    let Some(top) = rows.first() else {
        return String::new();
    };
    let others: Vec<String> = rows[1..]
        .iter()
        .take_while(|g| (g.value, g.count) == (top.value, top.count))
        .map(|g| format!("**{}**", group_key(r, g)))
        .collect();
    match (others.is_empty(), lang) {
        (true, _) => String::new(),
        (false, Lang::Zh) => format!("（与 {} 并列第一）", others.join("、")),
        (false, Lang::En) => format!(" (tied at the top with {})", others.join(", ")),
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
