//! Answers from a whole-file log analysis (`file_read {mode: "analyze"}`): exact counts per
//! level, the most frequent message templates, when errors started and peaked. Every figure
//! comes from the typed report (`llmops_loganalysis::FileAnalysis`); a report that covers
//! only part of the file says so in the sentence that gives the figures.

use llmops_loganalysis::{BucketSize, FileAnalysis, Level, LogReport, TemplateCount};

use super::super::text::{ascii_words, contains_any, has_word, human_size, Lang};

/// "errors" in a question: the error family, most severe first.
const ERROR_LEVELS: [Level; 3] = [Level::Fatal, Level::Critical, Level::Error];

/// A report timestamp as operators read it in their logs: `2026-11-20 10:00:16`, not the
/// normalised `2026-11-20T10:00:16` (other forms are shown as given).
fn show_ts(ts: &str) -> String {
    let b = ts.as_bytes();
    if b.len() >= 13 && b[4] == b'-' && b[7] == b'-' && b[10] == b'T' {
        format!("{} {}", &ts[..10], &ts[11..])
    } else {
        ts.to_string()
    }
}

fn ts_of(ts: &Option<String>) -> Option<String> {
    ts.as_deref().map(show_ts)
}

/// The level a question asks about ("多少个 WARN", "how many errors"), if any.
fn asked_level(question: &str) -> Option<Level> {
    let lower = question.to_lowercase();
    let words = ascii_words(&lower);
    let w = |x: &str| has_word(&words, x);
    if w("fatal") || lower.contains("致命") {
        Some(Level::Fatal)
    } else if w("warn") || w("warning") || w("warnings") || contains_any(&lower, &["警告", "告警"])
    {
        Some(Level::Warn)
    } else if w("error")
        || w("errors")
        || w("err")
        || contains_any(&lower, &["错误", "报错", "异常"])
        || w("exception")
        || w("exceptions")
    {
        Some(Level::Error)
    } else if w("info") {
        Some(Level::Info)
    } else if w("debug") {
        Some(Level::Debug)
    } else {
        None
    }
}

fn wants_start(question: &str) -> bool {
    let lower = question.to_lowercase();
    let words = ascii_words(&lower);
    contains_any(
        &lower,
        &["什么时候", "何时", "开始", "第一次", "最早", "几点"],
    ) || has_word(&words, "when")
        || has_word(&words, "first")
        || has_word(&words, "start")
        || has_word(&words, "started")
        || has_word(&words, "begin")
}

/// The scope phrase: the whole file, or exactly which part of it.
fn scope(r: &LogReport, name: &str, lang: Lang) -> String {
    let lines = r.lines;
    if !r.complete {
        return match lang {
            Lang::Zh => format!(
                "{name} 只分析了前 {}（共 {}），这部分有 {lines} 行",
                human_size(r.bytes_read),
                human_size(r.bytes)
            ),
            Lang::En => format!(
                "{name}: only the first {} of {} were analysed, {lines} lines in that part",
                human_size(r.bytes_read),
                human_size(r.bytes)
            ),
        };
    }
    match lang {
        Lang::Zh => format!(
            "{name} 全文共 {lines} 行（{}，已完整分析）",
            human_size(r.bytes)
        ),
        Lang::En => format!(
            "{name} has {lines} lines in total ({}, analysed whole)",
            human_size(r.bytes)
        ),
    }
}

fn levels_line(r: &LogReport, lang: Lang) -> String {
    let parts: Vec<String> = r
        .levels
        .iter()
        .map(|l| match (l.level, lang) {
            (Level::None, Lang::Zh) => format!("无级别 {}", l.count),
            (Level::None, Lang::En) => format!("no level {}", l.count),
            (level, _) => format!("{} {}", level.name(), l.count),
        })
        .collect();
    parts.join(lang.pick("，", ", "))
}

fn template_line(t: &TemplateCount, lang: Lang) -> String {
    let shown = if t.example.trim().is_empty() {
        &t.template
    } else {
        &t.example
    };
    let example: String = shown.trim().chars().take(160).collect();
    let span = match (ts_of(&t.first_ts), ts_of(&t.last_ts)) {
        (Some(a), Some(b)) if a != b => match lang {
            Lang::Zh => format!("，{a} 至 {b}"),
            Lang::En => format!(", {a} to {b}"),
        },
        (Some(a), _) => match lang {
            Lang::Zh => format!("，{a}"),
            Lang::En => format!(", {a}"),
        },
        _ => String::new(),
    };
    let count = t.count;
    match lang {
        Lang::Zh => format!("- {count} 次{span}：`{example}`"),
        Lang::En => format!("- {count}x{span}: `{example}`"),
    }
}

/// The busiest histogram bucket for errors (or for all lines when there are no errors).
fn peak(r: &LogReport, lang: Lang) -> Option<String> {
    let h = r.histogram.as_ref().filter(|h| h.buckets.len() >= 2)?;
    let (best, n, by_errors) = match h.peak_errors() {
        Some(b) => (b, b.errors, true),
        None => h.peak().map(|b| (b, b.total, false))?,
    };
    if n == 0 {
        return None;
    }
    let start = show_ts(&best.start);
    let unit = h.bucket.name();
    let unit_zh = match h.bucket {
        BucketSize::Hour => "小时",
        BucketSize::Day => "天",
        BucketSize::Minute => "分钟",
    };
    Some(match (lang, by_errors) {
        (Lang::Zh, true) => format!("错误最集中的一{unit_zh}：{start}（{n} 条）"),
        (Lang::Zh, false) => format!("日志最多的一{unit_zh}：{start}（{n} 行）"),
        (Lang::En, true) => format!("busiest {unit} for errors: {start} ({n})"),
        (Lang::En, false) => format!("busiest {unit}: {start} ({n} lines)"),
    })
}

/// The answer for an analysed log (the tool's `data`), shaped by what the question asks.
pub fn render_report(data: Option<&FileAnalysis>, question: &str, lang: Lang) -> String {
    let Some(a) = data else {
        return lang
            .pick(
                "日志分析的结果无法读取（格式不符）。",
                "The log analysis result could not be read (unexpected shape).",
            )
            .to_string();
    };
    let r = &a.report;
    let name = if a.file.is_empty() {
        a.path.rsplit('/').next().unwrap_or(&a.path)
    } else {
        a.file.as_str()
    };
    let mut out = scope(r, name, lang);
    if let (Some(x), Some(y)) = (ts_of(&r.first_ts), ts_of(&r.last_ts)) {
        out.push_str(&match lang {
            Lang::Zh => format!("，时间 {x} 至 {y}"),
            Lang::En => format!(", from {x} to {y}"),
        });
    }
    out.push_str(lang.pick("。", "."));
    let asked = asked_level(question);
    if let Some(level) = asked {
        out.push_str(&level_count(r, level, question, lang));
    }
    let levels = levels_line(r, lang);
    if !levels.is_empty() {
        out.push_str(&match lang {
            Lang::Zh => format!("\n\n各级别行数：{levels}。"),
            Lang::En => format!("\n\nLines by level: {levels}."),
        });
    }
    out.push_str(&top_messages(r, asked, lang));
    if let Some(p) = peak(r, lang) {
        out.push_str(&format!("\n\n{p}{}", lang.pick("。", ".")));
    }
    out
}

/// "N lines at level X" (the error family for "errors"), and when the first and last were.
fn level_count(r: &LogReport, level: Level, question: &str, lang: Lang) -> String {
    let partial = !r.complete;
    let mut out = String::new();
    let name = level.name();
    let n: u64 = if level == Level::Error {
        // "errors" means the error family: ERROR plus anything more severe.
        ERROR_LEVELS.iter().map(|l| r.count(*l)).sum()
    } else {
        r.count(level)
    };
    let exact_error = r.count(Level::Error);
    let family_note = if level == Level::Error && n != exact_error {
        match lang {
            Lang::Zh => format!("（其中 ERROR {exact_error}，其余为 FATAL/CRITICAL）"),
            Lang::En => format!(" (ERROR {exact_error}, the rest FATAL/CRITICAL)"),
        }
    } else {
        String::new()
    };
    out.push_str(&match (lang, partial) {
        (Lang::Zh, false) => format!("\n\n{name} 级别的日志共 **{n}** 行{family_note}。"),
        (Lang::Zh, true) => format!("\n\n在已分析的这部分中，{name} 级别的日志有 **{n}** 行{family_note}（不是全文总数）。"),
        (Lang::En, false) => format!("\n\n**{n}** lines at level {name}{family_note}."),
        (Lang::En, true) => format!("\n\n**{n}** lines at level {name}{family_note} in the analysed part (not a total for the file)."),
    });
    if let Some(e) = r.level(level) {
        if let (Some(x), Some(y)) = (ts_of(&e.first_ts), ts_of(&e.last_ts)) {
            let line = e.first_line;
            out.push_str(&match (lang, wants_start(question)) {
                (Lang::Zh, true) => {
                    format!("\n第一条 {name} 出现在 **{x}**（第 {line} 行），最后一条在 {y}。")
                }
                (Lang::Zh, false) => format!("\n第一条在 {x}，最后一条在 {y}。"),
                (Lang::En, true) => {
                    format!("\nThe first {name} line is at **{x}** (line {line}); the last at {y}.")
                }
                (Lang::En, false) => format!("\nFirst at {x}, last at {y}."),
            });
        }
    }
    out
}

/// The most frequent messages at the asked level (the error family by default).
fn top_messages(r: &LogReport, asked: Option<Level>, lang: Lang) -> String {
    let mut out = String::new();
    let want: Vec<Level> = match asked {
        Some(l @ (Level::Warn | Level::Info | Level::Debug)) => vec![l],
        _ => ERROR_LEVELS.to_vec(),
    };
    let tops: Vec<&TemplateCount> = r
        .templates
        .iter()
        .filter(|t| want.contains(&t.level))
        .collect();
    if tops.is_empty() {
        if want.contains(&Level::Error) && asked.is_none() {
            out.push_str(lang.pick(
                "\n\n没有 ERROR 或更严重级别的日志。",
                "\n\nNo ERROR (or worse) lines.",
            ));
        }
    } else {
        out.push_str(lang.pick(
            "\n\n最常见的消息（数字、ID、IP、耗时已归一）：",
            "\n\nMost frequent messages (numbers, ids, IPs, durations masked):",
        ));
        for t in tops.iter().take(5) {
            out.push('\n');
            out.push_str(&template_line(t, lang));
        }
        if r.templates_capped && r.distinct_templates > 0 {
            let d = r.distinct_templates;
            out.push_str(&match lang {
                Lang::Zh => format!("\n\n（不同消息模板超过 {d} 种，之后出现的新模板未单独统计）"),
                Lang::En => format!("\n\n(more than {d} distinct templates; later new ones were not tracked separately)"),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn report(complete: bool) -> FileAnalysis {
        let v = json!({
            "mode": "analyze", "file": "orders.log", "path": "/u/orders.log",
            "bytes": 2_097_152u64, "bytes_read": if complete { 2_097_152u64 } else { 1_048_576u64 },
            "complete": complete, "lines": 13_004u64,
            "levels": [
                {"level": "FATAL", "count": 2, "first_ts": "2026-03-02 04:10:00", "last_ts": "2026-03-02 04:11:00", "first_line": 900},
                {"level": "ERROR", "count": 311, "first_ts": "2026-03-02 01:07:13", "last_ts": "2026-03-02 05:59:00", "first_line": 41},
                {"level": "WARN", "count": 57, "first_ts": "2026-03-02 00:30:00", "last_ts": "2026-03-02 05:00:00", "first_line": 3},
                {"level": "INFO", "count": 12_634u64, "first_ts": null, "last_ts": null, "first_line": 1}
            ],
            "templates": [
                {"template": "db timeout after <dur>", "level": "ERROR", "count": 200, "example": "db timeout after 30s", "first_ts": "2026-03-02 01:07:13", "last_ts": "2026-03-02 05:59:00", "first_line": 41},
                {"template": "queue depth <num>", "level": "WARN", "count": 57, "example": "queue depth 901", "first_ts": "2026-03-02 00:30:00", "last_ts": "2026-03-02 05:00:00", "first_line": 3}
            ],
            "distinct_templates": 19, "templates_capped": false,
            "first_ts": "2026-03-02 00:00:01", "last_ts": "2026-03-02 06:00:00", "ts_lines": 13_004u64,
            "histogram": {"bucket": "hour", "buckets": [
                {"start": "2026-03-02T01:00", "total": 2000, "errors": 90, "warns": 10},
                {"start": "2026-03-02T02:00", "total": 2100, "errors": 120, "warns": 9}
            ]}
        });
        serde_json::from_value(v).expect("an analysis")
    }

    #[test]
    fn error_count_is_the_whole_file_figure() {
        let t = render_report(Some(&report(true)), "有多少个 ERROR", Lang::Zh);
        assert!(t.contains("全文共 13004 行"), "{t}");
        assert!(
            t.contains("ERROR 级别的日志共 **313** 行（其中 ERROR 311"),
            "{t}"
        );
        assert!(t.contains("200 次"), "{t}");
        assert!(
            t.contains("错误最集中的一小时：2026-03-02 02:00（120 条）"),
            "{t}"
        );
    }

    #[test]
    fn partial_reports_say_so_in_the_sentence() {
        let t = render_report(Some(&report(false)), "how many errors", Lang::En);
        assert!(t.contains("only the first 1.0 MiB of 2.0 MiB"), "{t}");
        assert!(
            t.contains("in the analysed part (not a total for the file)"),
            "{t}"
        );
    }

    #[test]
    fn when_errors_started() {
        let t = render_report(Some(&report(true)), "when did the errors start?", Lang::En);
        assert!(
            t.contains("first ERROR line is at **2026-03-02 01:07:13** (line 41)"),
            "{t}"
        );
        let t = render_report(Some(&report(true)), "WARN 有几条", Lang::Zh);
        assert!(t.contains("WARN 级别的日志共 **57** 行"), "{t}");
        assert!(t.contains("queue depth 901"), "{t}");
    }
}
