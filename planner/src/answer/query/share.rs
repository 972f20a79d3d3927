//! A count's share: of all the events read, or of the population the question asked it of
//! ("of the blue pool's jobs", "checkout 接口的错误率").

use llmops_common::query::{GroupRow, Order, QueryResult, Unit};

use crate::text::Lang;

/// A conditioned count's share of all events ("（占全部 5000 条事件的 4.2%）"), over the
/// events read: the caller's `partial` says when that is not the whole file.
pub(super) fn share_of(r: &QueryResult, count: u64, lang: Lang) -> String {
    if let Some(base) = r
        .share_base
        .as_ref()
        .filter(|b| b.rows > 0 && count <= b.rows)
    {
        return share_of_population(r, count, base, lang);
    }
    let total: u64 = r.sources.iter().map(|s| s.events).sum();
    if r.query.filters.is_empty() || r.query.window.is_some() || total == 0 || count > total {
        return String::new();
    }
    let pct = percent(count, total);
    // Of the events read, not of the file, when only part of a file was read.
    let whole = r.sources.iter().all(|s| s.complete);
    let (nz, ne) = (rows_zh(r), r.query.source.row_words().1);
    match (lang, whole) {
        (Lang::Zh, true) => format!("（占全部 {total} {nz}的 {pct}%）"),
        (Lang::Zh, false) => format!("（占已读 {total} {nz}的 {pct}%）"),
        (Lang::En, true) => format!(" ({pct}% of all {total} {ne})"),
        (Lang::En, false) => format!(" ({pct}% of the {total} {ne} read)"),
    }
}

/// A sum's share of the same field's total over its population ("what % of the bytes
/// went to /api"): empty when no share was asked of a sum.
pub(super) fn share_of_sum(r: &QueryResult, sum: f64, unit: Unit, lang: Lang) -> String {
    let Some((base, total)) = r
        .share_base
        .as_ref()
        .and_then(|b| Some((b, b.total?)))
        .filter(|&(_, t)| t > 0.0 && sum <= t)
    else {
        return String::new();
    };
    let pct = percent_of(sum * 100.0 / total);
    let total = super::with_unit(total, unit);
    share_sentence(r, base, &pct, Some(&total), lang)
}

/// A share as written: one decimal from 10% up, two below.
fn percent(count: u64, of: u64) -> String {
    percent_of(count as f64 * 100.0 / of as f64)
}

fn percent_of(pct: f64) -> String {
    if pct >= 10.0 || pct == 0.0 {
        format!("{pct:.1}")
    } else {
        format!("{pct:.2}")
    }
}

/// The share asked of a population ("of the blue pool's jobs"): of the rows it picks, which
/// the answer names; over the events read when only part of a file was read.
fn share_of_population(
    r: &QueryResult,
    count: u64,
    base: &llmops_common::query::ShareBase,
    lang: Lang,
) -> String {
    let pct = percent(count, base.rows);
    share_sentence(r, base, &pct, None, lang)
}

/// "(4.02% of the 3560 events where …)", or of a sum, "(17.3% of 6.4 MiB, the total over
/// all 1500 events)": the population named, over the events read when only part of a file
/// was read.
fn share_sentence(
    r: &QueryResult,
    base: &llmops_common::query::ShareBase,
    pct: &str,
    total: Option<&str>,
    lang: Lang,
) -> String {
    let rows = base.rows;
    let (nz, ne) = (rows_zh(r), r.query.source.row_words().1);
    let read = if r.sources.iter().all(|s| s.complete) {
        ("", "")
    } else {
        ("已读部分中", " read")
    };
    match lang {
        Lang::Zh => {
            let whose = match base.described_zh.as_str() {
                "" => "全部 ".to_string(),
                d => format!("{d} 的 "),
            };
            let sum = total.map_or(String::new(), |t| format!("合计 {t} "));
            format!("（占{}{whose}{rows} {nz}{sum}的 **{pct}%**）", read.0)
        }
        Lang::En => {
            let whose = match base.described_en.as_str() {
                "" => format!("all {rows} {ne}{}", read.1),
                d => format!("the {rows} {ne}{} {d}", read.1),
            };
            match total {
                None => format!(" (**{pct}%** of {whose})"),
                Some(t) => format!(" (**{pct}%** of {t}, the total over {whose})"),
            }
        }
    }
}

/// The rows' word in Chinese: events are counted with their measure word (条).
fn rows_zh(r: &QueryResult) -> String {
    let nz = r.query.source.row_words().0;
    match r.query.source {
        llmops_common::query::Source::Log => format!("条{nz}"),
        _ => nz.to_string(),
    }
}

/// A group's figure when a share per group was asked: of its own rows ("6 of 8 (75.0%)"),
/// or of all the rows counted ("6 (60.0%)"); `None` when no share was asked.
pub(super) fn group_figure(r: &QueryResult, g: &GroupRow, lang: Lang) -> Option<String> {
    let n = g.count;
    match g.of {
        Some(of) => {
            let pct = percent(n, of.max(1));
            Some(match lang {
                Lang::Zh => format!("{n} / {of}（{pct}%）"),
                Lang::En => format!("{n} of {of} ({pct}%)"),
            })
        }
        None => {
            let base = r
                .share_base
                .as_ref()
                .filter(|b| b.rows > 0 && n <= b.rows)?;
            Some(format!("{n} ({}%)", percent(n, base.rows)))
        }
    }
}

/// The lead of a share per group: the group whose share of its own rows is highest (lowest
/// when asked ascending), or the first group's part of all the rows counted.
pub(super) fn groups_lead(
    r: &QueryResult,
    what: &str,
    top: &GroupRow,
    groups: u64,
    part: &str,
    lang: Lang,
) -> Option<String> {
    let base = r.share_base.as_ref()?;
    let key = super::group_key(r, top);
    let (n, total) = (top.count, r.matched);
    let (nz, ne) = (rows_zh(r), r.query.source.row_words().1);
    let Some(of) = top.of else {
        let pct = percent(n, base.rows.max(1));
        return Some(match lang {
            Lang::Zh => format!(
                "{what} —— 第一是 **{key}**（{n} {nz}，占全部 {} {nz}的 **{pct}%**）；共 {groups} 个分组{part}。",
                base.rows
            ),
            Lang::En => format!(
                "{what}: the top one is **{key}** ({n}, **{pct}%** of the {} matching {ne}); {groups} groups{part}.",
                base.rows
            ),
        });
    };
    let pct = percent(n, of.max(1));
    let lowest = r.query.order == Order::Asc;
    Some(match lang {
        Lang::Zh => {
            let which = if lowest { "最低" } else { "最高" };
            let whose = match base.described_zh.as_str() {
                "" => String::new(),
                d => format!("{d} 的"),
            };
            format!(
                "{what} —— 比例{which}的是 **{key}**：**{pct}%**（其 {of} {whose}{nz}中的 {n} {nz}）；共 {total} 条匹配，{groups} 个分组{part}。"
            )
        }
        Lang::En => {
            let which = if lowest { "lowest" } else { "highest" };
            let whose = match base.described_en.as_str() {
                "" => String::new(),
                d => format!(" {d}"),
            };
            format!(
                "{what}: the {which} share is **{key}**'s, **{pct}%** ({n} of its {of} {ne}{whose}); {total} matching {ne} in {groups} groups{part}."
            )
        }
    })
}
