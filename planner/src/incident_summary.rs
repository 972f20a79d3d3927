//! "What went wrong" / "总结一下这次故障": an incident summary across the session's logs.
//! One timeline of failures (the `failure` tag: HTTP 5xx in an access log, ERROR and worse
//! elsewhere) per minute over every log, the events around the worst minute from all of
//! them side by side as evidence, and the timeouts the uploaded configs set. Offline: the
//! summary links what the logs show by time, not by a model's reading.

use llmops_common::query::{
    BucketRow, BucketWidth, Filter, FilterOp, Measure, Query, QueryArgs, QueryResult, QueryValue,
    Row, Scalar, TimePoint, Window,
};

use super::ctx::MessageCtx;
use super::lexicon::lexicon;
use super::slots::{best_upload, config_upload, typed_file_names};
use super::text::Lang;
use super::tool_data::RunView;
use super::{Call, CommandArgs, StepRecord, Task, ToolArgs, ToolName};

/// Logs and configs looked at, at most.
const MAX_FILES: usize = 6;
/// Evidence rows shown around the worst minute.
const EVIDENCE: u32 = 12;
/// Seconds either side of the worst minute's start the evidence covers.
const AROUND: u64 = 90;

/// The task, when the message asks what went wrong and the session holds logs.
pub fn task(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let lower = text.to_lowercase();
    if !lexicon().grammar.incident.occur_in(&lower) {
        return None;
    }
    let named: Vec<&crate::UploadRef> = typed_file_names(text)
        .iter()
        .filter_map(|n| best_upload(n, ctx.uploads))
        .collect();
    let pool: Vec<&crate::UploadRef> = if named.is_empty() {
        ctx.uploads.iter().collect()
    } else {
        named
    };
    let path = |u: &&crate::UploadRef| u.path.to_string_lossy().into_owned();
    let logs: Vec<String> = pool
        .iter()
        .filter(|u| super::frame::is_log_upload(u))
        .take(MAX_FILES)
        .map(path)
        .collect();
    let configs: Vec<String> = pool
        .iter()
        .filter(|u| config_upload(u))
        .take(MAX_FILES)
        .map(path)
        .collect();
    (!logs.is_empty()).then(|| vec![Task::Incident { logs, configs }])
}

fn failures() -> Filter {
    Filter::new(None, FilterOp::Tag, Scalar::Text("failure".into()))
}

fn log_call(query: Query) -> Call {
    let args = QueryArgs {
        query,
        soft: Vec::new(),
    };
    ToolArgs::LogQuery(args).into()
}

/// The first timeline: failures per minute in every log.
fn timeline(logs: &[String]) -> Query {
    Query {
        files: logs.to_vec(),
        filters: vec![failures()],
        measure: Measure::Timeline,
        bucket: BucketWidth::Minute,
        limit: Some(EVIDENCE),
        ..Query::default()
    }
}

fn result_of(step: &StepRecord) -> Option<&QueryResult> {
    step.ok.then(|| step.data.as_query()).flatten()
}

fn buckets_of(r: &QueryResult) -> &[BucketRow] {
    match &r.value {
        QueryValue::Timeline { buckets, .. } | QueryValue::Buckets { buckets, .. } => buckets,
        _ => &[],
    }
}

fn rows_of(r: &QueryResult) -> &[Row] {
    match &r.value {
        QueryValue::Timeline { rows, .. } | QueryValue::Rows { rows, .. } => rows,
        _ => &[],
    }
}

/// The worst bucket: most failures, the earliest of equals.
fn peak(r: &QueryResult) -> Option<&BucketRow> {
    buckets_of(r)
        .iter()
        .filter(|b| b.count > 0)
        .max_by(|a, b| a.count.cmp(&b.count).then(b.start.cmp(&a.start)))
}

/// The next call: the timeline, the events around its worst minute, the configs' timeouts.
pub(crate) fn next_call(logs: &[String], configs: &[String], own: &[StepRecord]) -> Option<Call> {
    let grep = || {
        let mut args = vec!["-n".to_string(), "-i".into(), "-H".into(), "timeout".into()];
        args.extend(configs.iter().cloned());
        Call::from(ToolArgs::Command(CommandArgs::new("grep", args)))
    };
    match own {
        [] => Some(log_call(Query {
            limit: Some(3),
            ..timeline(logs)
        })),
        [first] => {
            let around = result_of(first).and_then(|r| peak(r).map(|p| p.start.clone()));
            match around {
                Some(start) => Some(log_call(Query {
                    window: Some(Window::Around {
                        at: TimePoint(start.replacen('T', " ", 1)),
                        seconds: AROUND,
                    }),
                    ..timeline(logs)
                })),
                None => (!configs.is_empty()).then(grep),
            }
        }
        [_, second] if second.tool == ToolName::LogQuery && !configs.is_empty() => Some(grep()),
        _ => None,
    }
}

/// The answer from the steps taken.
pub fn answer(own: &[StepRecord], lang: Lang) -> String {
    let Some(first) = own.first() else {
        return String::new();
    };
    let Some(r) = result_of(first) else {
        return super::answer::failure(first, lang);
    };
    let mut parts = vec![headline(r, lang)];
    if let Some(table) = per_minute(r, lang) {
        parts.push(table);
    }
    let evidence = own
        .get(1)
        .filter(|s| s.tool == ToolName::LogQuery)
        .and_then(result_of);
    if let Some(e) = evidence.filter(|e| !rows_of(e).is_empty()) {
        parts.push(format!(
            "{}\n{}",
            lang.pick(
                "最严重那一分钟前后的失败事件（按时间合并）：",
                "Failures around the worst minute, merged in time order:"
            ),
            rows_of(e)
                .iter()
                .map(|row| format!("- {}", evidence_line(row)))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    if let Some(g) = own
        .iter()
        .skip(1)
        .find(|s| s.tool == ToolName::CommandExecutor)
    {
        parts.push(timeouts(g, lang));
    }
    parts.push(scope(r, lang));
    parts.join("\n\n")
}

/// The figures that lead: failures per file, and the worst minute with its split.
fn headline(r: &QueryResult, lang: Lang) -> String {
    let names: Vec<&str> = r.sources.iter().map(|s| s.name.as_str()).collect();
    let per_file: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let c = r.matched_per_file.get(i).copied().unwrap_or(r.matched);
            format!("{n} {c}")
        })
        .collect();
    if r.matched == 0 {
        return match lang {
            Lang::Zh => format!(
                "{} 中没有失败事件（HTTP 5xx 或 ERROR 及以上）。",
                names.join("、")
            ),
            Lang::En => format!(
                "No failures (HTTP 5xx, or ERROR and worse) in {}.",
                names.join(", ")
            ),
        };
    }
    let worst = peak(r).map(|p| {
        let split = if p.per_file.len() > 1 {
            let s: Vec<String> = names
                .iter()
                .zip(&p.per_file)
                .map(|(n, c)| format!("{n} {c}"))
                .collect();
            format!(" ({})", s.join(" / "))
        } else {
            String::new()
        };
        (p.start.clone(), p.count, split)
    });
    match (lang, worst) {
        (Lang::Zh, Some((at, n, split))) => format!(
            "共 **{}** 个失败事件（{}）；最集中的一分钟是 **{at}**，{n} 个{split}。",
            r.matched,
            per_file.join("，")
        ),
        (Lang::En, Some((at, n, split))) => format!(
            "**{}** failures ({}); the worst minute was **{at}** with {n}{split}.",
            r.matched,
            per_file.join(", ")
        ),
        (Lang::Zh, None) => format!(
            "共 **{}** 个失败事件（{}）。",
            r.matched,
            per_file.join("，")
        ),
        (Lang::En, None) => format!("**{}** failures ({}).", r.matched, per_file.join(", ")),
    }
}

/// The busiest minutes in time order, one column per file.
fn per_minute(r: &QueryResult, lang: Lang) -> Option<String> {
    let mut top: Vec<&BucketRow> = buckets_of(r).iter().filter(|b| b.count > 0).collect();
    if top.len() < 2 {
        return None;
    }
    top.sort_by(|a, b| b.count.cmp(&a.count).then(a.start.cmp(&b.start)));
    top.truncate(6);
    top.sort_by(|a, b| a.start.cmp(&b.start));
    let names: Vec<&str> = r.sources.iter().map(|s| s.name.as_str()).collect();
    let lines: Vec<String> = top
        .iter()
        .map(|b| {
            let per: Vec<String> = b.per_file.iter().map(u64::to_string).collect();
            if per.len() > 1 {
                format!("- {} — {} ({})", b.start, b.count, per.join(" / "))
            } else {
                format!("- {} — {}", b.start, b.count)
            }
        })
        .collect();
    Some(format!(
        "{} ({}):\n{}",
        lang.pick("失败最多的几分钟", "The minutes with most failures"),
        names.join(" / "),
        lines.join("\n")
    ))
}

fn evidence_line(row: &Row) -> String {
    let file = row.file.as_deref().unwrap_or("");
    let text: String = row.text.chars().take(200).collect();
    format!("{file}:{} {}", row.line, text)
}

/// The configs' lines that set a timeout, as grep printed them.
fn timeouts(step: &StepRecord, lang: Lang) -> String {
    let out = RunView::of(&step.data).map_or(step.output.as_str(), |r| r.stdout);
    let lines: Vec<String> = out
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(12)
        .map(|l| format!("- {}", short_path(l.trim())))
        .collect();
    if lines.is_empty() {
        return lang
            .pick(
                "上传的配置里没有设置超时的行。",
                "The uploaded configs set no timeout.",
            )
            .to_string();
    }
    format!(
        "{}\n{}",
        lang.pick("配置中的超时设置：", "Timeouts the configs set:"),
        lines.join("\n")
    )
}

/// `/…/uploads/<id>/nginx.conf:12:…` as `nginx.conf:12:…`.
fn short_path(line: &str) -> String {
    match line.split_once(':') {
        Some((path, rest)) if path.contains('/') => {
            let name = path.rsplit('/').next().unwrap_or(path);
            format!("{name}:{rest}")
        }
        _ => line.to_string(),
    }
}

/// What was read, so the figures can be checked.
fn scope(r: &QueryResult, lang: Lang) -> String {
    let parts: Vec<String> = r
        .sources
        .iter()
        .map(|s| {
            let whole = if s.complete {
                lang.pick("全文", "whole file")
            } else {
                lang.pick("部分", "part of the file")
            };
            format!(
                "{} ({whole}, {}, {} {})",
                s.name,
                s.format,
                s.lines,
                lang.pick("行", "lines")
            )
        })
        .collect();
    format!(
        "{} {}{}",
        lang.pick("依据：", "Read:"),
        parts.join("; "),
        lang.pick(
            "。失败 = HTTP 5xx（访问日志）或 ERROR 及以上（其他日志）。",
            ". A failure is an HTTP 5xx in an access log, ERROR or worse elsewhere."
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::occurrences;

    #[test]
    fn cues_match_whole_english_words_and_chinese_text() {
        assert!(!occurrences("what went wrong last night?", "what went wrong").is_empty());
        assert!(!occurrences("总结一下这次故障", "这次故障").is_empty());
        assert!(occurrences("incidentally, how many 5xx", "incident").is_empty());
    }

    #[test]
    fn grep_lines_show_the_upload_name() {
        assert_eq!(
            short_path("/d/uploads/ab12/nginx.conf:14:    proxy_read_timeout 30s;"),
            "nginx.conf:14:    proxy_read_timeout 30s;"
        );
    }
}
