//! Answers from a whole-file log analysis (`file_read {mode: "analyze"}`): exact counts per
//! level, the most frequent message templates, when errors started and peaked. Every figure
//! comes from the report; a report that covers only part of the file says so in the
//! sentence that gives the figures.

use serde_json::Value;

use super::super::text::{ascii_words, contains_any, has_word, human_bytes, Lang};

const ERROR_LEVELS: [&str; 3] = ["FATAL", "CRITICAL", "ERROR"];

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

/// A JSON timestamp field, shown with [`show_ts`].
fn ts_of(v: &Value) -> Option<String> {
    v.as_str().map(show_ts)
}

fn count_of(report: &Value, level: &str) -> u64 {
    report["levels"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|l| l["level"] == level)
        .and_then(|l| l["count"].as_u64())
        .unwrap_or(0)
}

fn level_entry<'a>(report: &'a Value, level: &str) -> Option<&'a Value> {
    report["levels"]
        .as_array()?
        .iter()
        .find(|l| l["level"] == level)
}

/// The level a question asks about ("多少个 WARN", "how many errors"), if any.
fn asked_level(question: &str) -> Option<&'static str> {
    let lower = question.to_lowercase();
    let words = ascii_words(&lower);
    let w = |x: &str| has_word(&words, x);
    if w("fatal") || lower.contains("致命") {
        Some("FATAL")
    } else if w("warn") || w("warning") || w("warnings") || contains_any(&lower, &["警告", "告警"])
    {
        Some("WARN")
    } else if w("error")
        || w("errors")
        || w("err")
        || contains_any(&lower, &["错误", "报错", "异常"])
        || w("exception")
        || w("exceptions")
    {
        Some("ERROR")
    } else if w("info") {
        Some("INFO")
    } else if w("debug") {
        Some("DEBUG")
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
fn scope(report: &Value, name: &str, lang: Lang) -> String {
    let lines = report["lines"].as_u64().unwrap_or(0);
    let bytes = report["bytes"].as_u64().unwrap_or(0);
    let read = report["bytes_read"].as_u64().unwrap_or(bytes);
    if report["complete"].as_bool() == Some(false) {
        return match lang {
            Lang::Zh => format!(
                "{name} 只分析了前 {}（共 {}），这部分有 {lines} 行",
                human_bytes(read),
                human_bytes(bytes)
            ),
            Lang::En => format!(
                "{name}: only the first {} of {} were analysed, {lines} lines in that part",
                human_bytes(read),
                human_bytes(bytes)
            ),
        };
    }
    match lang {
        Lang::Zh => format!(
            "{name} 全文共 {lines} 行（{}，已完整分析）",
            human_bytes(bytes)
        ),
        Lang::En => format!(
            "{name} has {lines} lines in total ({}, analysed whole)",
            human_bytes(bytes)
        ),
    }
}

fn levels_line(report: &Value, lang: Lang) -> String {
    let parts: Vec<String> = report["levels"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| {
            let name = l["level"].as_str()?;
            let c = l["count"].as_u64()?;
            Some(if name == "NONE" {
                match lang {
                    Lang::Zh => format!("无级别 {c}"),
                    Lang::En => format!("no level {c}"),
                }
            } else {
                format!("{name} {c}")
            })
        })
        .collect();
    parts.join(lang.pick("，", ", "))
}

fn templates_of<'a>(report: &'a Value, levels: &[&str]) -> Vec<&'a Value> {
    report["templates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["level"].as_str().is_some_and(|l| levels.contains(&l)))
        .collect()
}

fn template_line(t: &Value, lang: Lang) -> String {
    let count = t["count"].as_u64().unwrap_or(0);
    let example: String = t["example"]
        .as_str()
        .or(t["template"].as_str())
        .unwrap_or("")
        .trim()
        .chars()
        .take(160)
        .collect();
    let span = match (ts_of(&t["first_ts"]), ts_of(&t["last_ts"])) {
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
    match lang {
        Lang::Zh => format!("- {count} 次{span}：`{example}`"),
        Lang::En => format!("- {count}x{span}: `{example}`"),
    }
}

/// The busiest histogram bucket for errors (or for all lines when there are no errors).
fn peak(report: &Value, lang: Lang) -> Option<String> {
    let h = &report["histogram"];
    let buckets = h["buckets"].as_array()?;
    let unit = h["bucket"].as_str().unwrap_or("minute");
    let by_errors = buckets
        .iter()
        .any(|b| b["errors"].as_u64().unwrap_or(0) > 0);
    let key = if by_errors { "errors" } else { "total" };
    let best = buckets.iter().max_by_key(|b| {
        (
            b[key].as_u64().unwrap_or(0),
            std::cmp::Reverse(b["start"].as_str().map(str::to_string)),
        )
    })?;
    let n = best[key].as_u64().unwrap_or(0);
    let start = ts_of(&best["start"])?;
    if n == 0 || buckets.len() < 2 {
        return None;
    }
    let unit_zh = match unit {
        "hour" => "小时",
        "day" => "天",
        _ => "分钟",
    };
    Some(match (lang, by_errors) {
        (Lang::Zh, true) => format!("错误最集中的一{unit_zh}：{start}（{n} 条）"),
        (Lang::Zh, false) => format!("日志最多的一{unit_zh}：{start}（{n} 行）"),
        (Lang::En, true) => format!("busiest {unit} for errors: {start} ({n})"),
        (Lang::En, false) => format!("busiest {unit}: {start} ({n} lines)"),
    })
}

/// The answer for an analysed log, shaped by what the question asks.
pub fn render_report(report: &Value, question: &str, lang: Lang) -> String {
    let name = report["file"]
        .as_str()
        .or_else(|| report["path"].as_str().and_then(|p| p.rsplit('/').next()))
        .unwrap_or("?");
    let mut out = scope(report, name, lang);
    if let (Some(a), Some(b)) = (ts_of(&report["first_ts"]), ts_of(&report["last_ts"])) {
        out.push_str(&match lang {
            Lang::Zh => format!("，时间 {a} 至 {b}"),
            Lang::En => format!(", from {a} to {b}"),
        });
    }
    out.push_str(lang.pick("。", "."));
    let partial = report["complete"].as_bool() == Some(false);
    let asked = asked_level(question);
    if let Some(level) = asked {
        let n = if level == "ERROR" {
            // "errors" means the error family: ERROR plus anything more severe.
            ERROR_LEVELS.iter().map(|l| count_of(report, l)).sum()
        } else {
            count_of(report, level)
        };
        let exact_error = count_of(report, "ERROR");
        let family_note = if level == "ERROR" && n != exact_error {
            match lang {
                Lang::Zh => format!("（其中 ERROR {exact_error}，其余为 FATAL/CRITICAL）"),
                Lang::En => format!(" (ERROR {exact_error}, the rest FATAL/CRITICAL)"),
            }
        } else {
            String::new()
        };
        out.push_str(&match (lang, partial) {
            (Lang::Zh, false) => format!("\n\n{level} 级别的日志共 **{n}** 行{family_note}。"),
            (Lang::Zh, true) => format!("\n\n在已分析的这部分中，{level} 级别的日志有 **{n}** 行{family_note}（不是全文总数）。"),
            (Lang::En, false) => format!("\n\n**{n}** lines at level {level}{family_note}."),
            (Lang::En, true) => format!("\n\n**{n}** lines at level {level}{family_note} in the analysed part (not a total for the file)."),
        });
        if let Some(e) = level_entry(report, level) {
            if let (Some(a), Some(b)) = (ts_of(&e["first_ts"]), ts_of(&e["last_ts"])) {
                let first_line = e["first_line"].as_u64();
                out.push_str(&match (lang, wants_start(question)) {
                    (Lang::Zh, true) => format!(
                        "\n第一条 {level} 出现在 **{a}**{}，最后一条在 {b}。",
                        first_line
                            .map(|l| format!("（第 {l} 行）"))
                            .unwrap_or_default()
                    ),
                    (Lang::Zh, false) => format!("\n第一条在 {a}，最后一条在 {b}。"),
                    (Lang::En, true) => format!(
                        "\nThe first {level} line is at **{a}**{}; the last at {b}.",
                        first_line
                            .map(|l| format!(" (line {l})"))
                            .unwrap_or_default()
                    ),
                    (Lang::En, false) => format!("\nFirst at {a}, last at {b}."),
                });
            }
        }
    }
    let levels = levels_line(report, lang);
    if !levels.is_empty() {
        out.push_str(&match lang {
            Lang::Zh => format!("\n\n各级别行数：{levels}。"),
            Lang::En => format!("\n\nLines by level: {levels}."),
        });
    }
    let want: Vec<&str> = match asked {
        Some("WARN") => vec!["WARN"],
        Some("INFO") => vec!["INFO"],
        Some("DEBUG") => vec!["DEBUG"],
        _ => ERROR_LEVELS.to_vec(),
    };
    let tops = templates_of(report, &want);
    if tops.is_empty() {
        if want.contains(&"ERROR") && asked.is_none() {
            out.push_str(lang.pick(
                "\n\n没有 ERROR 或更严重级别的日志。",
                "\n\nNo ERROR (or worse) lines.",
            ));
        }
    } else {
        let distinct = report["distinct_templates"].as_u64();
        out.push_str(&match lang {
            Lang::Zh => "\n\n最常见的消息（数字、ID、IP、耗时已归一）：".to_string(),
            Lang::En => {
                "\n\nMost frequent messages (numbers, ids, IPs, durations masked):".to_string()
            }
        });
        for t in tops.iter().take(5) {
            out.push('\n');
            out.push_str(&template_line(t, lang));
        }
        if let Some(d) = distinct.filter(|d| *d > 0) {
            if report["templates_capped"].as_bool() == Some(true) {
                out.push_str(&match lang {
                    Lang::Zh => format!("\n\n（不同消息模板超过 {d} 种，之后出现的新模板未单独统计）"),
                    Lang::En => format!("\n\n(more than {d} distinct templates; later new ones were not tracked separately)"),
                });
            }
        }
    }
    if let Some(p) = peak(report, lang) {
        out.push_str(&format!("\n\n{p}{}", lang.pick("。", ".")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn report(complete: bool) -> Value {
        json!({
            "mode": "analyze", "file": "orders.log", "path": "/u/orders.log",
            "bytes": 2_097_152u64, "bytes_read": if complete { 2_097_152u64 } else { 1_048_576u64 },
            "complete": complete, "lines": 13_004u64,
            "levels": [
                {"level": "FATAL", "count": 2, "first_ts": "2026-03-02 04:10:00", "last_ts": "2026-03-02 04:11:00", "first_line": 900},
                {"level": "ERROR", "count": 311, "first_ts": "2026-03-02 01:07:13", "last_ts": "2026-03-02 05:59:00", "first_line": 41},
                {"level": "WARN", "count": 57, "first_ts": "2026-03-02 00:30:00", "last_ts": "2026-03-02 05:00:00", "first_line": 3},
                {"level": "INFO", "count": 12_634u64}
            ],
            "templates": [
                {"template": "db timeout after <dur>", "level": "ERROR", "count": 200, "example": "db timeout after 30s", "first_ts": "2026-03-02 01:07:13", "last_ts": "2026-03-02 05:59:00", "first_line": 41},
                {"template": "queue depth <num>", "level": "WARN", "count": 57, "example": "queue depth 901", "first_ts": "2026-03-02 00:30:00", "last_ts": "2026-03-02 05:00:00", "first_line": 3}
            ],
            "distinct_templates": 19, "templates_capped": false,
            "first_ts": "2026-03-02 00:00:01", "last_ts": "2026-03-02 06:00:00",
            "histogram": {"bucket": "hour", "buckets": [
                {"start": "2026-03-02T01:00", "total": 2000, "errors": 90, "warns": 10},
                {"start": "2026-03-02T02:00", "total": 2100, "errors": 120, "warns": 9}
            ]}
        })
    }

    #[test]
    fn error_count_is_the_whole_file_figure() {
        let t = render_report(&report(true), "有多少个 ERROR", Lang::Zh);
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
        let t = render_report(&report(false), "how many errors", Lang::En);
        assert!(t.contains("only the first 1.0 MiB of 2.0 MiB"), "{t}");
        assert!(
            t.contains("in the analysed part (not a total for the file)"),
            "{t}"
        );
    }

    #[test]
    fn when_errors_started() {
        let t = render_report(&report(true), "when did the errors start?", Lang::En);
        assert!(
            t.contains("first ERROR line is at **2026-03-02 01:07:13** (line 41)"),
            "{t}"
        );
        let t = render_report(&report(true), "WARN 有几条", Lang::Zh);
        assert!(t.contains("WARN 级别的日志共 **57** 行"), "{t}");
        assert!(t.contains("queue depth 901"), "{t}");
    }
}
