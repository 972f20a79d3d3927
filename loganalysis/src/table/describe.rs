//! The query in words, Chinese and English, with the fields actually used, the case rule
//! of every text comparison and the resolved window.

use llmops_common::query::{Filter, FilterOp, Measure, Order, Query, Resolved, Unit};

use super::registry::Registry;
use super::window::show_second;

fn used(resolved: &[Resolved], asked: &str) -> String {
    resolved.iter().find(|r| r.asked.0 == asked).map_or_else(
        || asked.to_string(),
        |r| {
            if r.used == asked {
                asked.to_string()
            } else {
                format!("{asked} ({})", r.used)
            }
        },
    )
}

fn unit_suffix(u: Unit) -> String {
    match u {
        Unit::None => String::new(),
        u => format!(" {}", u.as_str()),
    }
}

/// One filter in words: (Chinese, English).
fn filter_words(
    f: &Filter,
    resolved: &[Resolved],
    (reg, formats): (Option<&Registry>, &[String]),
) -> (String, String) {
    let field = f.field.as_ref().map(|x| used(resolved, x.as_str()));
    let (fz, fe) = match &field {
        Some(x) => (format!("字段 {x} "), format!("{x} ")),
        None => ("事件文本".to_string(), "the event ".to_string()),
    };
    let v = format!("{}{}", f.value, unit_suffix(f.unit));
    let case_zh = if f.case_sensitive {
        "（区分大小写）"
    } else {
        "（不区分大小写）"
    };
    let case_en = if f.case_sensitive {
        " (case-sensitive)"
    } else {
        " (case-insensitive)"
    };
    let text_op = matches!(
        f.op,
        FilterOp::Eq | FilterOp::Ne | FilterOp::Contains | FilterOp::NotContains | FilterOp::Regex
    );
    let (z, e) = match f.op {
        FilterOp::Eq => (format!("{fz}等于 {v}"), format!("{fe}= {v}")),
        FilterOp::Ne => (format!("{fz}不等于 {v}"), format!("{fe}≠ {v}")),
        FilterOp::Lt => (format!("{fz}小于 {v}"), format!("{fe}< {v}")),
        FilterOp::Le => (format!("{fz}不超过 {v}"), format!("{fe}≤ {v}")),
        FilterOp::Gt => (format!("{fz}大于 {v}"), format!("{fe}> {v}")),
        FilterOp::Ge => (format!("{fz}至少 {v}"), format!("{fe}≥ {v}")),
        FilterOp::Contains => (format!("{fz}包含 \"{v}\""), format!("{fe}contains \"{v}\"")),
        FilterOp::NotContains => (
            format!("{fz}不包含 \"{v}\""),
            format!("{fe}does not contain \"{v}\""),
        ),
        FilterOp::Regex => (format!("{fz}匹配正则 /{v}/"), format!("{fe}matches /{v}/")),
        FilterOp::Class => {
            let d = &f.value;
            (
                format!("{fz}为 {d}xx（{d}00–{d}99）"),
                format!("{fe}is {d}xx ({d}00–{d}99)"),
            )
        }
        // A format's own tag of that name is what was counted (MongoDB's "Slow query"
        // lines, not the generic one second or more).
        FilterOp::Tag => match own_tag_title(reg, formats, &v) {
            Some(t) => (format!("带标签 {v}（{t}）"), format!("tagged {v} ({t})")),
            None => generic_tag_words(&v),
        },
    };
    let numeric = matches!(f.value, llmops_common::query::Scalar::Number(_));
    let (z, e) = if text_op && !(numeric && matches!(f.op, FilterOp::Eq | FilterOp::Ne)) {
        (format!("{z}{case_zh}"), format!("{e}{case_en}"))
    } else {
        (z, e)
    };
    match (f.negate, &field) {
        (false, _) => (z, e),
        (true, Some(x)) => (
            format!("有字段 {x} 且并非：{z}"),
            format!("has {x} and not: {e}"),
        ),
        (true, None) => (format!("并非：{z}"), format!("not: {e}")),
    }
}

/// The title of the tag `name` as one of `formats` defines it, if one does.
fn own_tag_title(reg: Option<&Registry>, formats: &[String], name: &str) -> Option<String> {
    reg?.formats()
        .iter()
        .filter(|f| formats.contains(&f.name))
        .flat_map(|f| f.tags.iter())
        .find(|t| t.name == name)
        .map(|t| t.title.clone())
}

fn generic_tag_words(v: &str) -> (String, String) {
    match super::tags::generic_tags().iter().find(|g| g.name == v) {
        Some(g) if !g.title_zh.is_empty() => (
            format!("带标签 {v}（{}）", g.title_zh),
            format!("tagged {v} ({})", g.title),
        ),
        _ => (format!("带标签 {v}"), format!("tagged {v}")),
    }
}

fn measure_words(q: &Query, resolved: &[Resolved]) -> (String, String) {
    let f = q
        .field
        .as_ref()
        .map_or_else(String::new, |x| used(resolved, x.as_str()));
    let name = |m: Measure| -> (String, String) {
        let both = |z: &str, e: &str| (z.to_string(), e.to_string());
        match m {
            Measure::Min => both("最小值", "minimum"),
            Measure::Max => both("最大值", "maximum"),
            Measure::Mean => both("平均值", "mean"),
            Measure::Sum => both("总和", "sum"),
            Measure::P50 => both("P50（中位数）", "p50 (median)"),
            m => match m.rank() {
                Some(r) => (format!("P{r}"), format!("p{r}")),
                None => both("", ""),
            },
        }
    };
    // A system table's rows are processes, sockets, units or mounts, in no file order.
    let log = q.source == llmops_common::query::Source::Log;
    let (nz, ne) = q.source.row_words();
    match q.measure {
        Measure::Count => (format!("{nz}数"), format!("the number of {ne}")),
        Measure::CountDistinct => (
            format!("{f} 的不同值个数"),
            format!("the number of distinct values of {f}"),
        ),
        // A percentile is one of the values (nearest rank), not an interpolation.
        m if m.rank().is_some() => {
            let (z, e) = name(m);
            (
                format!("{f} 的{z}（精确值，最近秩法）"),
                format!("the {e} of {f} (exact, nearest rank)"),
            )
        }
        m if m.is_stat() => {
            let (z, e) = name(m);
            (format!("{f} 的{z}"), format!("the {e} of {f}"))
        }
        Measure::Stats => (
            format!("{f} 的统计（数量、最小、最大、平均、P50/P90/P95/P99，精确值）"),
            format!("statistics of {f} (count, min, max, mean, exact p50/p90/p95/p99)"),
        ),
        Measure::Buckets => (
            "每个时间桶的事件数及峰值".into(),
            "events per time bucket, with the peak".into(),
        ),
        Measure::Rows => match &q.field {
            None if log => (
                format!("按文件顺序的前 {} 个事件", q.limit()),
                format!("the first {} events in file order", q.limit()),
            ),
            None => (
                format!("前 {} {nz}", q.limit()),
                format!("the first {} {ne}", q.limit()),
            ),
            Some(_) => {
                let (oz, oe) = match q.order {
                    Order::Desc => ("降序", "descending"),
                    Order::Asc => ("升序", "ascending"),
                };
                (
                    format!("按 {f} {oz}排列的前 {} 个{nz}", q.limit()),
                    format!("the top {} {ne} by {f} {oe}", q.limit()),
                )
            }
        },
        Measure::Timeline => (
            "多个文件按时间合并的事件，以及每个文件每个时间桶的事件数".into(),
            "the events of all files merged in time order, with per-file counts per bucket".into(),
        ),
        Measure::Fields => (
            "日志的字段及示例值".into(),
            "the log's fields with example values".into(),
        ),
        _ => (String::new(), String::new()),
    }
}

/// (Chinese, English) description of `q` over `files` (in `formats` of `reg`).
pub fn describe(
    q: &Query,
    resolved: &[Resolved],
    files: &[String],
    (reg, formats): (Option<&Registry>, &[String]),
    window: Option<(i64, i64)>,
    dated: crate::ts::Dated,
) -> (String, String) {
    let (mut zh, mut en) = measure_words(q, resolved);
    let fmts = formats.join(", ");
    if q.source == llmops_common::query::Source::Log {
        zh = format!("{}（{fmts}）中{zh}", files.join("、"));
        en = format!("{en} in {} ({fmts})", files.join(", "));
    } else {
        zh = format!("{} 表中{zh}", files.join("、"));
        en = format!("{en} in the {} table", files.join(", "));
    }
    if !q.group_by.is_empty() {
        let g: Vec<String> = q
            .group_by
            .iter()
            .map(|x| used(resolved, x.as_str()))
            .collect();
        zh.push_str(&format!(
            "，按 {} 分组，取前 {} 组",
            g.join("、"),
            q.limit()
        ));
        en.push_str(&format!(
            ", grouped by {}, top {}",
            g.join(" and "),
            q.limit()
        ));
    }
    if !q.filters.is_empty() {
        let (zs, es): (Vec<String>, Vec<String>) = q
            .filters
            .iter()
            .map(|f| filter_words(f, resolved, (reg, formats)))
            .unzip();
        zh.push_str(&format!("，条件：{}", zs.join("，且")));
        en.push_str(&format!(", where {}", es.join(" and ")));
    }
    // A field the query defines from the text says how it was cut out.
    for x in &q.extract {
        zh.push_str(&format!(
            "（{} = 事件文本中匹配正则 /{}/ 的部分）",
            x.name, x.regex
        ));
        en.push_str(&format!(
            " ({} = the part of the event text matching /{}/)",
            x.name, x.regex
        ));
    }
    if let Some((a, b)) = window {
        let show = |s: i64| {
            if s == i64::MIN || s == i64::MAX {
                "…".to_string()
            } else {
                show_second(s, dated)
            }
        };
        zh.push_str(&format!(
            "，时间从 {} 到 {}（含两端，按日志写的时间比较，不换算时区）",
            show(a),
            show(b)
        ));
        en.push_str(&format!(
            ", from {} to {} (both included, times as the log writes them, zone not applied)",
            show(a),
            show(b)
        ));
    }
    (zh, en)
}
