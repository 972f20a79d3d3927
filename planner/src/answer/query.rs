//! The answer to a query: it leads with what was asked (the number, the name, the time,
//! the line), then the evidence (what was read, the rows behind the figure) and the shell
//! pipeline that computes the same figure. A figure computed from part of a file says so in
//! the same sentence.

use llmops_common::query::{
    BucketRow, GroupRow, Measure, Order, QueryResult, QueryValue, Row, Source, SourceInfo, Stats,
    Unit,
};

use crate::text::Lang;

/// Rows, groups or buckets listed under the lead sentence.
const LIST_MAX: usize = 10;

/// A check pipeline longer than this is left to the step's full output.
const PIPELINE_MAX: usize = 240;

/// The whole answer.
pub fn render(r: &QueryResult, lang: Lang) -> String {
    let mut out = vec![lead(r, lang)];
    if let Some(list) = listing(r, lang) {
        out.push(list);
    }
    out.push(scanned(r, lang));
    for n in &r.notes {
        out.push(format!("- {n}"));
    }
    match &r.pipeline {
        Some(p) if p.chars().count() <= PIPELINE_MAX => {
            out.push(format!("{} `{p}`", lang.pick("核对命令：", "Check with:")));
        }
        Some(_) => out.push(
            lang.pick(
                "核对命令较长（Perl 脚本），见这一步的完整输出。",
                "The check is a long Perl script: see this step's full output.",
            )
            .to_string(),
        ),
        None => {}
    }
    out.join("\n")
}

/// "（只读了前 1.0 GiB，共 3.2 GiB）" when part of a file was read, else empty.
fn partial(r: &QueryResult, lang: Lang) -> String {
    let part: Vec<&SourceInfo> = r.sources.iter().filter(|s| !s.complete).collect();
    if part.is_empty() {
        return String::new();
    }
    let names: Vec<String> = part
        .iter()
        .map(|s| format!("{} {}", s.name, crate::text::human_size(s.bytes)))
        .collect();
    match lang {
        Lang::Zh => format!("（只统计了 {} 的已读部分，不是全文）", names.join("、")),
        Lang::En => format!(
            " (counting only the part read of {}, not the whole file)",
            names.join(", ")
        ),
    }
}

fn described(r: &QueryResult, lang: Lang) -> &str {
    match lang {
        Lang::Zh => &r.described_zh,
        Lang::En => &r.described_en,
    }
}

/// The sentence that answers.
fn lead(r: &QueryResult, lang: Lang) -> String {
    if let Some(s) = one_rows_field(r, lang) {
        return s;
    }
    let what = described(r, lang);
    let part = partial(r, lang);
    if let Some(s) = ranked::lead(r, what, &part, lang) {
        return s;
    }
    match &r.value {
        QueryValue::Count { count } => {
            let share = share_of(r, *count, lang);
            match lang {
                Lang::Zh => format!("{what} —— 共 **{count}** 条{share}{part}。"),
                Lang::En => format!("{what}: **{count}**{share}{part}."),
            }
        }
        QueryValue::Distinct { count } => match lang {
            Lang::Zh => format!("{what} —— **{count}** 个不同的值{part}。"),
            Lang::En => format!("{what}: **{count}** distinct values{part}."),
        },
        QueryValue::Stat {
            measure,
            value,
            unit,
            n,
            row,
        } => {
            // A sum asked as a share says it beside the figure.
            let part = match (measure, value) {
                (Measure::Sum, Some(v)) => share::share_of_sum(r, *v, *unit, lang) + &part,
                _ => part,
            };
            stat_lead(what, *measure, *value, *unit, *n, row.as_ref(), &part, lang)
        }
        QueryValue::Stats {
            stats,
            unit,
            max_row,
        } => stats_lead(what, stats.as_ref(), *unit, max_row.as_ref(), &part, lang),
        QueryValue::Groups { rows, groups, .. } => groups_lead(r, what, rows, *groups, &part, lang),
        QueryValue::Buckets {
            width_seconds,
            peak,
            buckets,
        } => {
            let lead = buckets_lead(what, *width_seconds, peak.as_ref(), r.matched, &part, lang);
            format!("{lead}{}", mean_per_bucket(*width_seconds, buckets, lang))
        }
        QueryValue::Rows { rows, total } => rows_lead(r, what, rows, *total, &part, lang),
        QueryValue::Timeline {
            total,
            rows,
            unlisted,
            ..
        } => timeline_lead(what, *total, rows.len(), *unlisted, &part, lang),
        QueryValue::Fields => fields_lead(r, lang),
    }
}

/// A number with five significant digits (`0.3862`, `23.457`, `1234.5`), a whole one as is.
fn figure(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else if v.abs() >= 100.0 {
        // Two decimals: a sum of money keeps its cents (48213.07, not 48213.1).
        format!("{v:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        // Five significant digits: 0.3862 s stays 0.3862, not 0.386.
        let int_digits = v.abs().log10().floor() as i32 + 1;
        let decimals = (5 - int_digits).clamp(3, 9) as usize;
        format!("{v:.decimals$}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// A figure converted to another unit: three decimals from 1 on (`8.413 s`), five
/// significant digits under 1 (`0.023457 s`).
fn converted(v: f64) -> String {
    if v.abs() >= 1.0 {
        short(v)
    } else {
        figure(v)
    }
}

/// A number in its unit: `1.234 s`, `532 ms`, `12.5 MiB`, `87.5%`. A time is also given in
/// the units it is asked in beside its own (ms, s, minutes, `hh:mm:ss`): "how many
/// seconds" of a field in ms, "how many minutes" of one in seconds.
pub fn with_unit(v: f64, unit: Unit) -> String {
    let num = figure(v);
    match unit {
        Unit::None => num,
        Unit::S if v.abs() < 60.0 && v != 0.0 => format!("{num} s ({} ms)", short(v * 1e3)),
        Unit::S if v.abs() >= 60.0 => {
            let mut also = vec![format!("{} min", converted(v / 60.0))];
            // An hour or more also as `ps` writes an elapsed time (`[DD-]hh:mm:ss`).
            if v >= 3600.0 {
                also.push(etime(v));
            }
            format!("{num} s ({})", also.join(", "))
        }
        Unit::Percent => format!("{num}%"),
        // Also as `df -h` / `ls -h` print it (rounded up: 42.1 GiB is their 43G).
        Unit::B if v >= 1024.0 => format!(
            "{num} B ({}, -h: {})",
            crate::text::human_size(v as u64),
            llmops_common::df_size(v as u64)
        ),
        // Microseconds and nanoseconds also in ms, and every one in s (and minutes): the
        // units an operator thinks in ("%D is 8412906 us (8412.9 ms, 8.413 s)").
        Unit::Us | Unit::Ns | Unit::Ms => {
            let ms = match unit {
                Unit::Us => v / 1e3,
                Unit::Ns => v / 1e6,
                _ => v,
            };
            let mut also = Vec::new();
            if unit != Unit::Ms && ms >= 1.0 {
                also.push(format!("{} ms", short(ms)));
            }
            if ms != 0.0 {
                also.push(format!("{} s", converted(ms / 1e3)));
            }
            if ms >= 60_000.0 {
                also.push(format!("{} min", converted(ms / 60_000.0)));
            }
            let also = if also.is_empty() {
                String::new()
            } else {
                format!(" ({})", also.join(", "))
            };
            format!("{num} {}{also}", unit.as_str())
        }
        // A volume or a mass also in the other unit of its kind ("16870 ml (16.87 l)").
        Unit::Ml | Unit::L | Unit::G | Unit::Kg if v != 0.0 => {
            let other = match unit {
                Unit::Ml => Unit::L,
                Unit::L => Unit::Ml,
                Unit::G => Unit::Kg,
                _ => Unit::G,
            };
            let v2 = v * unit.factor() / other.factor();
            format!(
                "{num} {} ({} {})",
                unit.as_str(),
                converted(v2),
                other.as_str()
            )
        }
        u => format!("{num} {}", u.as_str()),
    }
}

/// An hour or more as `ps -o etime` prints it: `hh:mm:ss`, `D-hh:mm:ss`.
fn etime(v: f64) -> String {
    let t = v.round() as u64;
    let (d, h, m, s) = (t / 86_400, t / 3600 % 24, t / 60 % 60, t % 60);
    match d {
        0 => format!("{h:02}:{m:02}:{s:02}"),
        _ => format!("{d}-{h:02}:{m:02}:{s:02}"),
    }
}

/// A derived figure: one decimal from 100 on, else three significant decimals.
fn short(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// A row as one line; `whole` adds a multi-line event's other lines as a block (the one
/// event a figure points at), else says how many there are (a list of rows).
/// The lines of an event's continuation that name what went wrong: the first exception
/// (`java.sql.SQLException: …`, `psycopg2.errors.LockNotAvailable: …`, a Go runtime's
/// `fatal error: …` or `panic: …`) and the last `Caused by:`, when it is another line.
fn exception_lines(rest: &str) -> Vec<&str> {
    let runtime_crash = |l: &str| {
        let l = l.trim_start();
        l.starts_with("fatal error: ") || l.starts_with("panic: ")
    };
    let exception = |l: &str| {
        let l = l.trim_start().trim_start_matches("Caused by: ");
        let name = l.split([':', ' ']).next().unwrap_or("");
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$'))
            && (["Exception", "Error", "Fault", "Failure", "Timeout"]
                .iter()
                .any(|w| name.ends_with(w))
                || qualified_class(name))
    };
    let first = rest.lines().find(|l| exception(l) || runtime_crash(l));
    let cause = rest
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("Caused by: ") && exception(l));
    let mut out: Vec<&str> = first.into_iter().collect();
    out.extend(cause.filter(|c| Some(*c) != first));
    out
}

/// `psycopg2.errors.LockNotAvailable`: a dotted name whose last part is a class name.
fn qualified_class(name: &str) -> bool {
    let Some((_, class)) = name.rsplit_once('.') else {
        return false;
    };
    class.starts_with(|c: char| c.is_ascii_uppercase())
        && class.chars().any(|c| c.is_ascii_lowercase())
}

/// "×12 until 02:36:19": how many events of its kind a timeline row stands for.
pub(crate) fn row_line(row: &Row, lang: Lang, whole: bool) -> String {
    let mut s = String::new();
    if let Some(f) = &row.file {
        s.push_str(f);
        s.push(':');
    }
    if row.line > 0 {
        s.push_str(&format!("{}{} ", lang.pick("第", "line "), row.line));
        if lang == Lang::Zh {
            s.pop();
            s.push_str("行 ");
        }
    }
    if let Some(t) = &row.time {
        s.push_str(&format!("[{t}] "));
    }
    if let Some(r) = &row.repeats {
        s.push_str(&repeats(r, lang));
    }
    let (first, rest) = row.text.split_once('\n').unwrap_or((&row.text, ""));
    s.push_str(&format!(
        "`{}`",
        llmops_common::truncate_chars(&first.replace('`', " "), 300)
    ));
    // A multi-line event (a stack trace, a slow query's statement) shows its other lines.
    if !rest.trim().is_empty() {
        if whole {
            s.push_str(&format!("\n```\n{}\n```", rest.replace("```", "` ` `")));
        } else {
            // The event's own count: its text may show only its head and last line.
            let shown = rest.lines().count() as u64;
            let n = if row.lines > 1 { row.lines - 1 } else { shown };
            s.push_str(lang.pick(&format!("（另有 {n} 行）"), &format!(" (+{n} lines)")));
            // What the trace says went wrong: its exception and its root cause.
            for l in exception_lines(rest) {
                s.push_str(&format!(
                    " `{}`",
                    llmops_common::truncate_chars(&l.trim().replace('`', " "), 300)
                ));
            }
        }
    }
    s
}

/// A field of the one row of a system table its conditions name ("free space on /",
/// "根分区使用率") is that row's value, said as such, not as a sum of one value.
fn one_rows_field(r: &QueryResult, lang: Lang) -> Option<String> {
    let QueryValue::Stat {
        value: Some(v),
        unit,
        n: 1,
        ..
    } = &r.value
    else {
        return None;
    };
    let field = r.query.field.as_ref()?.as_str();
    if r.query.source == Source::Log || r.matched != 1 {
        return None;
    }
    let row: Vec<String> = r
        .query
        .filters
        .iter()
        .filter(|f| f.op == llmops_common::query::FilterOp::Eq)
        .filter_map(|f| Some(format!("{} {}", f.field.as_ref()?.as_str(), f.value)))
        .collect();
    let row = if row.is_empty() {
        lang.pick("唯一一行", "the one row").to_string()
    } else {
        row.join(", ")
    };
    let table = r.query.source.as_str();
    let v = with_unit(*v, *unit);
    Some(match lang {
        Lang::Zh => format!("{table} 表中 {row} 的 {field}：**{v}**。"),
        Lang::En => format!("{field} of {row} ({table}): **{v}**."),
    })
}

#[allow(clippy::too_many_arguments)]
fn stat_lead(
    what: &str,
    measure: Measure,
    value: Option<f64>,
    unit: Unit,
    n: u64,
    row: Option<&Row>,
    part: &str,
    lang: Lang,
) -> String {
    let Some(v) = value else {
        return match lang {
            Lang::Zh => format!("{what} —— 没有可计算的值（0 条事件带这个字段）{part}。"),
            Lang::En => format!("{what}: no value to compute (no event has the field){part}."),
        };
    };
    let v = with_unit(v, unit);
    let mut s = match lang {
        Lang::Zh => format!("{what} —— **{v}**（{n} 个值中的 {measure}）{part}。"),
        Lang::En => format!(
            "{what}: **{v}** ({measure} of {n} value{}){part}.",
            if n == 1 { "" } else { "s" }
        ),
    };
    if let Some(r) = row {
        s.push_str(&format!(
            "\n{} {}",
            lang.pick("对应事件：", "The event:"),
            row_line(r, lang, true)
        ));
    }
    s
}

fn stats_lead(
    what: &str,
    stats: Option<&Stats>,
    unit: Unit,
    max_row: Option<&Row>,
    part: &str,
    lang: Lang,
) -> String {
    let Some(st) = stats else {
        return match lang {
            Lang::Zh => format!("{what} —— 没有事件带这个字段{part}。"),
            Lang::En => format!("{what}: no event has the field{part}."),
        };
    };
    let u = |v: f64| with_unit(v, unit);
    let mut s = format!(
        "{what}{part}\n- n = {}\n- min {} · p50 **{}** · p90 {} · p95 **{}** · p99 **{}** · max **{}** · mean {}",
        st.n,
        u(st.min),
        u(st.p50),
        u(st.p90),
        u(st.p95),
        u(st.p99),
        u(st.max),
        u(st.mean)
    );
    if let Some(r) = max_row {
        s.push_str(&format!(
            "\n{} {}",
            lang.pick("最大值所在事件：", "The max is:"),
            row_line(r, lang, true)
        ));
    }
    s
}

/// A group's key as the answer shows it; a bare number names its field (`lane=4`,
/// not `4`), which alone says nothing.
pub(super) fn group_key(r: &QueryResult, g: &GroupRow) -> String {
    let by = match &r.value {
        QueryValue::Groups { by, .. } => by.as_slice(),
        _ => &[],
    };
    let numeric = |k: &str| !k.is_empty() && k.parse::<f64>().is_ok();
    g.key
        .iter()
        .enumerate()
        .map(|(i, k)| match by.get(i) {
            Some(field) if numeric(k) => format!("{field}={k}"),
            _ => k.clone(),
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

fn groups_lead(
    r: &QueryResult,
    what: &str,
    rows: &[GroupRow],
    groups: u64,
    part: &str,
    lang: Lang,
) -> String {
    let Some(top) = rows.first() else {
        return match lang {
            Lang::Zh => format!("{what} —— 没有匹配的事件{part}。"),
            Lang::En => format!("{what}: nothing matched{part}."),
        };
    };
    if let Some(s) = share::groups_lead(r, what, top, groups, part, lang) {
        return s;
    }
    let value = match (top.value, unit_of(r)) {
        (Some(v), u) => with_unit(v, u),
        (None, _) => top.count.to_string(),
    };
    let total = r.matched;
    let tie = ranked::tied_at_the_top(r, rows, lang);
    let mut s = match lang {
        Lang::Zh => format!(
            "{what} —— 第一是 **{}**（{value}）{tie}；共 {total} 条匹配，{groups} 个分组{part}。",
            group_key(r, top)
        ),
        Lang::En => format!(
            "{what}: the top one is **{}** ({value}){tie}; {total} matching events in {groups} groups{part}.",
            group_key(r, top)
        ),
    };
    // A template hides what varies: one line as written shows it.
    if let Some(e) = &top.example {
        s.push_str(&format!(
            "\n{} `{}`",
            lang.pick("例如：", "For example:"),
            e.replace('`', " ")
        ));
    }
    s
}

fn unit_of(r: &QueryResult) -> Unit {
    match &r.value {
        QueryValue::Groups { unit, .. } => *unit,
        _ => Unit::None,
    }
}

fn buckets_lead(
    what: &str,
    width: u64,
    peak: Option<&BucketRow>,
    matched: u64,
    part: &str,
    lang: Lang,
) -> String {
    let w = width_words(width, lang);
    match (peak, lang) {
        (None, Lang::Zh) => format!("{what} —— 没有带时间的匹配事件{part}。"),
        (None, Lang::En) => format!("{what}: no matching event has a time{part}."),
        (Some(p), Lang::Zh) => format!(
            "{what} —— 峰值在 **{}**（该{w} {} 条；共 {matched} 条）{part}。",
            p.start, p.count
        ),
        (Some(p), Lang::En) => format!(
            "{what}: the peak is **{}** with {} in that {w} ({matched} in all){part}.",
            p.start, p.count
        ),
    }
}

/// "每分钟平均几个请求": the mean per bucket over the buckets from the first matching
/// event's to the last one's (every bucket listed, the empty ones too), saying so.
fn mean_per_bucket(width: u64, buckets: &[BucketRow], lang: Lang) -> String {
    let n = buckets.len();
    // Every bucket of the span listed (the engine lists only the non-empty ones of a long
    // span): the span's minutes over the width.
    let span = || {
        let first = minute_of(&buckets.first()?.start)?;
        let last = minute_of(&buckets.last()?.start)?;
        let w = width / 60;
        (w > 0 && last >= first).then(|| (last - first) / w + 1)
    };
    if n < 2 || span() != Some(n as u64) {
        return String::new();
    }
    let matched: u64 = buckets.iter().map(|b| b.count).sum();
    let mean = figure(matched as f64 / n as f64);
    let w = width_words(width, lang);
    let span = match width {
        1 | 60 | 3600 | 86400 => format!("{n} {w}"),
        _ => format!("{n} 个{w}时段"),
    };
    match lang {
        Lang::Zh => format!(
            "\n平均每{w} **{mean}** 条（{matched} 条 / {span}，从第一条匹配事件所在的{w}到最后一条所在的{w}，空的也算）。"
        ),
        Lang::En => format!(
            "\nOn average **{mean}** per {w} ({matched} over {n} {w}s, from the first matching event's {w} to the last one's, empty ones included)."
        ),
    }
}

fn width_words(width: u64, lang: Lang) -> String {
    match (width, lang) {
        (1, Lang::Zh) => "秒".into(),
        (60, Lang::Zh) => "分钟".into(),
        (3600, Lang::Zh) => "小时".into(),
        (86400, Lang::Zh) => "天".into(),
        (1, Lang::En) => "second".into(),
        (60, Lang::En) => "minute".into(),
        (3600, Lang::En) => "hour".into(),
        (86400, Lang::En) => "day".into(),
        (w, Lang::Zh) => format!("{} 分钟", w / 60),
        (w, Lang::En) => format!("{}-minute bucket", w / 60),
    }
}

fn fields_lead(r: &QueryResult, lang: Lang) -> String {
    let mut s = String::new();
    for src in &r.sources {
        let fields: Vec<String> = src
            .fields
            .iter()
            .map(|f| match f.unit {
                Unit::None => f.name.clone(),
                u => format!("{} ({})", f.name, u.as_str()),
            })
            .collect();
        s.push_str(&match lang {
            Lang::Zh => format!(
                "{} 的格式是 **{}**，字段：{}。\n",
                src.name,
                src.format,
                fields.join("、")
            ),
            Lang::En => format!(
                "{} is **{}** with fields: {}.\n",
                src.name,
                src.format,
                fields.join(", ")
            ),
        });
    }
    s.trim_end().to_string()
}

/// The rows, groups or buckets behind the lead, at most [`LIST_MAX`].
fn listing(r: &QueryResult, lang: Lang) -> Option<String> {
    let lines: Vec<String> = match &r.value {
        QueryValue::Groups { rows, unit, .. } if rows.len() > 1 => rows
            .iter()
            .take(LIST_MAX)
            .enumerate()
            .map(|(i, g)| {
                let v = g.value.map(|v| format!(" · {}", with_unit(v, *unit)));
                let figure = share::group_figure(r, g, lang).unwrap_or(g.count.to_string());
                format!(
                    "{}. {} — {figure}{}",
                    i + 1,
                    group_key(r, g),
                    v.unwrap_or_default()
                )
            })
            .collect(),
        QueryValue::Buckets { buckets, .. } => top_buckets(buckets, r.query.order),
        QueryValue::Rows { rows, .. } if rows.len() > 1 || r.query.field.is_none() => rows
            .iter()
            .take(LIST_MAX)
            .map(|row| match shown(r, row).join(", ") {
                v if v.is_empty() => format!("- {}", row_line(row, lang, false)),
                v => format!("- {v} · {}", row_line(row, lang, false)),
            })
            .collect(),
        QueryValue::Timeline { rows, buckets, .. } => timeline_lines(r, rows, buckets, lang),
        _ => return None,
    };
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The busiest buckets, busiest first.
/// The five busiest buckets (the five quietest when the fewest is asked).
fn top_buckets(buckets: &[BucketRow], order: Order) -> Vec<String> {
    ranked::by_count(buckets, order)
        .iter()
        .take(5)
        .map(|b| {
            if b.per_file.is_empty() {
                format!("- {} — {}", b.start, b.count)
            } else {
                let per: Vec<String> = b.per_file.iter().map(u64::to_string).collect();
                format!("- {} — {} ({})", b.start, b.count, per.join(" / "))
            }
        })
        .collect()
}

/// What was read: lines, events and whether that was all of it.
fn scanned(r: &QueryResult, lang: Lang) -> String {
    let parts: Vec<String> = r
        .sources
        .iter()
        .map(|s| {
            let whole = if s.complete {
                lang.pick("全文", "whole file")
            } else {
                lang.pick("部分", "part of the file")
            };
            match (r.query.source, lang) {
                (Source::Log, Lang::Zh) => format!(
                    "{}（{}，格式 {}）：{} 行，{} 条事件",
                    s.name, whole, s.format, s.lines, s.events
                ),
                (Source::Log, Lang::En) => format!(
                    "{} ({}, format {}): {} lines, {} events",
                    s.name, whole, s.format, s.lines, s.events
                ),
                (_, Lang::Zh) => format!("{}：共 {} 行", s.name, s.events),
                (_, Lang::En) => format!("{}: {} rows in all", s.name, s.events),
            }
        })
        .collect();
    format!("{} {}", lang.pick("已读取", "Read:"), parts.join("; "))
}

/// Minutes since 1970 of a bucket's start (`2031-06-05T02:37`, seconds ignored).
pub(crate) fn minute_of(start: &str) -> Option<u64> {
    let (date, time) = start.split_once('T')?;
    let mut d = date.split('-').map(|x| x.parse::<u32>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let days = llmops_loganalysis::days_from_civil(i64::from(y), m, day);
    u64::try_from(days * 1440)
        .ok()?
        .checked_add(clock_minutes(time)?)
}

/// Minutes since midnight of a time of day that starts `HH:MM` (`02:37`, `02:37:09+00:00`).
pub(crate) fn clock_minutes(time: &str) -> Option<u64> {
    let mut t = time
        .split(':')
        .map(|x| x.get(..2).and_then(|x| x.parse::<u64>().ok()));
    let (h, m) = (t.next()??, t.next()??);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

mod ranked;
mod rows;
mod share;
pub mod sides;
mod timeline;
pub(crate) use ranked::nth_bucket;
use rows::{rows_lead, shown};
use share::share_of;
use timeline::{repeats, timeline_lead, timeline_lines};
#[cfg(test)]
mod unit_tests;
