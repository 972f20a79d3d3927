//! A timeline's answer: its lead (how many events the window merged and which kinds are
//! listed), its rows with how many events each stands for, and its per-file counts.

use llmops_common::query::{BucketRow, QueryResult, Repeats, Row};

use super::{row_line, LIST_MAX};
use crate::text::Lang;

/// Kinds of event a timeline lists at most (as many as asked for, up to this).
const TIMELINE_MAX: usize = 60;

/// A timeline's lead: how many events the window merged and, when not all are listed, which
/// kinds the rows below are.
pub(super) fn timeline_lead(
    what: &str,
    total: u64,
    n: usize,
    unlisted: u64,
    part: &str,
    lang: Lang,
) -> String {
    if n as u64 >= total {
        return match lang {
            Lang::Zh => format!("{what} —— 按时间合并共 **{total}** 条事件{part}："),
            Lang::En => format!("{what}: **{total}** events merged in time order{part}:"),
        };
    }
    let partial = match (lang, unlisted) {
        (_, 0) => String::new(),
        (Lang::Zh, u) => format!(
            "（这段时间里的事件种类超过可跟踪的上限：{u} 条事件不属于列出的任何一类，列出的条数也可能偏少）"
        ),
        (Lang::En, u) => format!(
            " (the window holds more kinds of event than are tracked: {u} events are in no kind listed, and a listed count may be short)"
        ),
    };
    match lang {
        Lang::Zh => format!(
            "{what} —— 按时间合并共 **{total}** 条事件{part}；下面按时间列出其中最值得注意的 {n} 类（出错、告警、事故类，以及在整个文件中少见或在这段时间里突然增多的），同类事件只列第一条并注明条数{partial}："
        ),
        Lang::En => format!(
            "{what}: **{total}** events merged in time order{part}; below, in time order, the {n} most telling kinds of event among them (errors, warnings and incidents, and what is rare in its file or bursts in this window), each kind once with its count{partial}:"
        ),
    }
}

/// A kind that stopped and came back says so first: "(the first after 9 min 33 s without
/// one; ×21, last at …)"; one that goes on past the window says until when.
pub(super) fn repeats(r: &Repeats, lang: Lang) -> String {
    let last = r.last_time.as_deref().unwrap_or("");
    let resumed = r.resumed_after_secs.map(|s| {
        let d = match (s / 60, s % 60) {
            (0, s) => format!("{s} s"),
            (m, 0) => format!("{m} min"),
            (m, s) => format!("{m} min {s} s"),
        };
        match lang {
            Lang::Zh => format!("停了 {d} 之后的第一条；"),
            Lang::En => format!("the first after {d} without one; "),
        }
    });
    let resumed = resumed.unwrap_or_default();
    let went_on = r.continued.as_ref().map(|c| match lang {
        Lang::Zh => format!(
            "；窗口之后还在继续：又 {} 条，直到 {}",
            c.count, c.last_time
        ),
        Lang::En => format!(
            "; it went on after the window: {} more until {}",
            c.count, c.last_time
        ),
    });
    let went_on = went_on.unwrap_or_default();
    match (lang, r.count) {
        (Lang::Zh, 1) if r.resumed_after_secs.is_some() => {
            format!("（{}{went_on}）", resumed.trim_end_matches('；'))
        }
        (Lang::En, 1) if r.resumed_after_secs.is_some() => {
            format!("({}{went_on}) ", resumed.trim_end_matches("; "))
        }
        (Lang::Zh, n) => format!("（{resumed}同类 {n} 条，最后一条 {last}{went_on}）"),
        (Lang::En, n) => format!("({resumed}×{n}, last at {last}{went_on}) "),
    }
}

pub(super) fn timeline_lines(
    r: &QueryResult,
    rows: &[Row],
    buckets: &[BucketRow],
    lang: Lang,
) -> Vec<String> {
    // The engine already chose how many kinds a timeline shows (`shown_limit`): every
    // one of them is listed, or the latest would be cut from a long window.
    let mut out: Vec<String> = rows
        .iter()
        .take(TIMELINE_MAX)
        .map(|row| format!("- {}", row_line(row, lang, false)))
        .collect();
    if rows.len() > TIMELINE_MAX {
        out.push(match lang {
            Lang::Zh => format!("…另有 {} 类未列出", rows.len() - TIMELINE_MAX),
            Lang::En => format!("… and {} more kinds not listed", rows.len() - TIMELINE_MAX),
        });
    }
    if r.sources.len() > 1 && !buckets.is_empty() {
        let names: Vec<&str> = r.sources.iter().map(|s| s.name.as_str()).collect();
        out.push(format!(
            "{} ({}):",
            lang.pick("各文件每个时间段的条数", "Per file, per bucket"),
            names.join(" / ")
        ));
        out.extend(
            buckets
                .iter()
                .filter(|b| b.count > 0)
                .take(LIST_MAX * 2)
                .map(|b| {
                    let per: Vec<String> = b.per_file.iter().map(u64::to_string).collect();
                    format!("  {} — {}", b.start, per.join(" / "))
                }),
        );
    }
    out
}
