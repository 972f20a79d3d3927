//! "What went wrong" / "总结一下这次故障": an incident summary across the session's logs.
//! One timeline of failures (the `failure` tag: HTTP 5xx in an access log, ERROR and worse
//! elsewhere) per minute over every log; the most telling kinds of event of every log from
//! a few minutes before the failures began to after the worst minute, as evidence (the
//! cause often is no failure: a migration's lock, a killed process, an election); and the
//! timeouts the uploaded configs set. Offline: the
//! summary links what the logs show by time, not by a model's reading.

use crate::answer::query::{clock_minutes, minute_of};
use llmops_common::query::{
    BucketRow, BucketWidth, Field, Filter, FilterOp, Measure, Query, QueryArgs, QueryResult,
    QueryValue, Row, Scalar, TimePoint, Window,
};

use super::ctx::MessageCtx;
use super::lexicon::lexicon;
use super::slots::{best_upload, config_upload, typed_file_names};
use super::text::Lang;
use super::{Call, CommandArgs, StepRecord, Task, ToolArgs, ToolName};

mod configs;
mod episodes;
mod symptom;

/// Logs looked at, at most: a night's incident spans the proxy, the apps, the database
/// and the hosts' journals, and the cause is often in the quietest of them.
const MAX_LOGS: usize = 10;
/// Configs looked at, at most.
const MAX_CONFIGS: usize = 6;
/// Evidence rows shown around the worst minute: 12, and 3 more for each other log (at
/// most 24), so each log can show its part.
fn evidence_rows(logs: usize) -> u32 {
    (12 + 3 * logs.saturating_sub(1) as u32).min(24)
}
/// Seconds either side of the worst minute's start the evidence covers at least.
const AROUND: u64 = 90;
/// The evidence starts this long before the failures began: a cause (a migration's lock,
/// a killed process, an election) comes before its symptoms.
const LEAD_UP: u64 = 300;
/// And covers an hour either side at most.
const MAX_AROUND: u64 = 3600;
/// Kinds of trouble the first timeline keeps, to name each burst of a night by the kinds
/// that began in it.
const BURST_KINDS: u32 = 60;
/// A minute belongs to the burst of failures while it holds this share of the worst one's.
const BURST_SHARE: u64 = 10;

/// "what caused the LedgerSyncException", "LedgerSyncException 是什么引起的": the cause of a named
/// thing, over a log that writes causes (a Java stack's "Caused by:"), is that log's query,
/// not the whole night's summary.
fn asks_a_named_cause(text: &str, ctx: &MessageCtx) -> bool {
    let writes_causes = ctx.uploads.iter().any(|u| {
        u.columns
            .iter()
            .any(|c| c.roles.iter().any(|r| r == "cause"))
    });
    if !writes_causes {
        return false;
    }
    let lex = lexicon();
    let p =
        crate::frame::parsed::Parsed::new(text, &crate::frame::FrameCtx::of_uploads(ctx.uploads));
    let cause = p
        .hits
        .iter()
        .any(|h| matches!(h.cue, crate::lexicon::Cue::Field(i) if lex.fields[i].field == "cause"));
    use crate::frame::scan::{Clock, Lit};
    // A named thing, or one event: at a second ("threw at 03:41:27"), or the first or
    // last of some ("the first ERROR").
    let named = p.lits.iter().any(|l| match &l.lit {
        Lit::Ident(_) | Lit::Quoted(_) => true,
        Lit::Clock(Clock { s, .. }) => s.is_some(),
        _ => false,
    });
    let one_event = lex.grammar.cause_of_one.occur_in(&p.lower);
    cause && (named || one_event)
}

/// The task, when the message asks what went wrong and the session holds logs.
pub fn task(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let lower = text.to_lowercase();
    if !lexicon().grammar.incident.occur_in(&lower) || asks_a_named_cause(text, ctx) {
        return None;
    }
    // The logs the question lists ("(es + dispatcher)"); one name alone is the service
    // that failed ("booking 接口挂了"), not the one log to read.
    let by_kind = Some(crate::frame::log_names::session_logs_named(
        text,
        ctx.uploads,
    ))
    .filter(|named| named.len() >= 2)
    .unwrap_or_default();
    let mut named: Vec<&crate::UploadRef> = typed_file_names(text)
        .iter()
        .filter_map(|n| best_upload(n, ctx.uploads))
        .collect();
    for u in ctx.uploads {
        let path = u.path.to_string_lossy();
        if by_kind.iter().any(|p| *p == path) && !named.iter().any(|n| n.path == u.path) {
            named.push(u);
        }
    }
    let pool: Vec<&crate::UploadRef> = if named.is_empty() {
        ctx.uploads.iter().collect()
    } else {
        named
    };
    let path = |u: &&crate::UploadRef| u.path.to_string_lossy().into_owned();
    let logs: Vec<String> = pool
        .iter()
        .filter(|u| super::frame::is_log_upload(u))
        .take(MAX_LOGS)
        .map(path)
        .collect();
    let configs: Vec<String> = pool
        .iter()
        .filter(|u| config_upload(u))
        .take(MAX_CONFIGS)
        .map(path)
        .collect();
    let statused: Vec<String> = pool
        .iter()
        .filter(|u| logs.contains(&path(u)))
        .filter(|u| {
            u.columns
                .iter()
                .any(|c| c.roles.iter().any(|r| r == "status"))
        })
        .map(path)
        .collect();
    let window = crate::frame::build::incident_window(text, ctx.uploads);
    let with_status: Vec<&crate::UploadRef> = pool
        .iter()
        .filter(|u| statused.contains(&path(u)))
        .copied()
        .collect();
    let symptom = crate::frame::build::incident_symptom(text, &with_status);
    (!logs.is_empty()).then(|| {
        vec![Task::Incident {
            logs,
            statused,
            configs,
            window,
            symptom,
        }]
    })
}

/// What the summary looks for: failures, and warnings (or lines of a log without levels)
/// that say something failed (the `trouble` tag): a connection pooler's client errors, PHP-FPM's
/// fatal errors and the kernel's OOM kill are written at WARNING or at no level.
fn trouble() -> Filter {
    Filter::new(None, FilterOp::Tag, Scalar::Text("trouble".into()))
}

fn log_call(query: Query) -> Call {
    let args = QueryArgs {
        query,
        soft: Vec::new(),
        or_else: Vec::new(),
        share_of: None,
    };
    ToolArgs::LogQuery(args).into()
}

/// The first timeline: trouble per minute in every log, in the window asked.
fn timeline(logs: &[String], window: Option<&Window>) -> Query {
    Query {
        files: logs.to_vec(),
        filters: vec![trouble()],
        window: window.cloned(),
        measure: Measure::Timeline,
        bucket: BucketWidth::Minute,
        limit: Some(evidence_rows(logs.len())),
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

/// The worst bucket: where the logs are nearest their own worst together (each log's
/// failures in the minute over its most in any minute, summed), then the most failures,
/// the earliest of equals. A minute where the database's journal and the app both peak
/// is the incident; a larger burst in one log alone (a log shipper's own errors) is not
/// enough to outrank it.
fn peak(r: &QueryResult) -> Option<&BucketRow> {
    let buckets = buckets_of(r);
    let files = buckets.iter().map(|b| b.per_file.len()).max().unwrap_or(0);
    let most: Vec<u64> = (0..files)
        .map(|f| {
            buckets
                .iter()
                .map(|b| b.per_file.get(f).copied().unwrap_or(0))
                .max()
                .unwrap_or(0)
        })
        .collect();
    // Thousandths of a log at its peak, summed: integers compare exactly.
    let together = |b: &BucketRow| -> u64 {
        b.per_file
            .iter()
            .zip(&most)
            .filter(|(_, m)| **m > 0)
            .map(|(n, m)| n * 1000 / m)
            .sum()
    };
    buckets.iter().filter(|b| b.count > 0).max_by(|a, b| {
        together(a)
            .cmp(&together(b))
            .then(a.count.cmp(&b.count))
            .then(b.start.cmp(&a.start))
    })
}

/// The window of the evidence: from a few minutes before the burst of failures around the
/// worst minute began, to as long after it.
fn evidence_window(r: &QueryResult, asked: Option<&Window>) -> Option<Window> {
    let worst = peak_near(r, asked).or_else(|| peak(r))?;
    let buckets = buckets_of(r);
    let at = buckets.iter().position(|b| b.start == worst.start)?;
    let floor = (worst.count / BURST_SHARE).max(1);
    let onset = buckets[..=at]
        .iter()
        .rev()
        .take_while(|b| b.count >= floor)
        .last()
        .map_or(worst.start.as_str(), |b| b.start.as_str());
    let burst = match (minute_of(onset), minute_of(&worst.start)) {
        (Some(a), Some(b)) => b.saturating_sub(a) * 60,
        _ => 0,
    };
    Some(Window::Around {
        at: TimePoint(worst.start.replacen('T', " ", 1)),
        seconds: (burst + LEAD_UP).clamp(AROUND, MAX_AROUND),
    })
}

/// Minutes either side of a time the question names within which its failures are the
/// ones asked about ("03:10 左右支付接口一堆 500，怎么回事"), however many more a later minute of
/// the half hour searched holds.
const NEAR_ASKED: u64 = 10;

/// The worst minute near the time the question names (within `NEAR_ASKED` of it), if any
/// minute there failed. A span the question names ("2 点多") is the whole search already.
fn peak_near<'a>(r: &'a QueryResult, asked: Option<&Window>) -> Option<&'a BucketRow> {
    let Window::Around { at, .. } = asked? else {
        return None;
    };
    let at = clock_minutes(at.0.rsplit([' ', 'T']).next()?)?;
    let (lo, hi) = ((at + 1440 - NEAR_ASKED) % 1440, (at + NEAR_ASKED) % 1440);
    let near = |b: &BucketRow| {
        minute_of(&b.start).is_some_and(|m| {
            let m = m % 1440;
            if lo <= hi {
                (lo..=hi).contains(&m)
            } else {
                m >= lo || m <= hi
            }
        })
    };
    busiest(buckets_of(r).iter().filter(|b| b.count > 0 && near(b)))
}

/// The bucket with the most events, the earliest of equals.
fn busiest<'a>(buckets: impl Iterator<Item = &'a BucketRow>) -> Option<&'a BucketRow> {
    buckets.max_by(|a, b| a.count.cmp(&b.count).then(b.start.cmp(&a.start)))
}

/// The next call: the timeline; then, from what it found, the events from the lead-up to
/// the worst minute, the failures by HTTP status, and the configs' timeouts.
pub(crate) fn next_call(
    logs: &[String],
    (statused, configs): (&[String], &[String]),
    (asked, symptom): (Option<&Window>, Option<&Filter>),
    own: &[StepRecord],
) -> Option<Call> {
    let Some(first) = own.first() else {
        // Its kinds name each burst of the night (`episodes`), so more than are shown.
        // A named status is counted where there is a status.
        let counted = if symptom.is_some() { statused } else { logs };
        return Some(log_call(Query {
            limit: Some(BURST_KINDS),
            filters: vec![symptom.cloned().unwrap_or_else(trouble)],
            ..timeline(counted, asked)
        }));
    };
    let found = result_of(first);
    let mut rest = Vec::new();
    if let Some(window) = found.and_then(|r| evidence_window(r, asked)) {
        // Every event, not only failures: the telling kinds of the lead-up hold the
        // cause, the failures' own kinds the symptoms.
        rest.push(log_call(Query {
            window: Some(window),
            filters: Vec::new(),
            ..timeline(logs, None)
        }));
    }
    if let Some(symptom) = symptom.filter(|_| found.is_some_and(|r| r.matched > 0)) {
        rest.push(log_call(symptom::who_query(statused, symptom, asked)));
    } else if !statused.is_empty() && found.is_some_and(|r| r.matched > 0) {
        // The 5xx only: in an app's log with both a status and levels a failure is also an
        // ERROR line answered 200.
        rest.push(log_call(Query {
            files: statused.to_vec(),
            filters: vec![Filter::new(
                Some(Field::new("status")),
                FilterOp::Ge,
                Scalar::Number(500.0),
            )],
            window: asked.cloned(),
            group_by: vec![Field::new("status")],
            limit: Some(5),
            ..Query::default()
        }));
    }
    if !configs.is_empty() {
        let mut args = vec!["-n".to_string(), "-i".into(), "-H".into(), "timeout".into()];
        args.extend(configs.iter().cloned());
        rest.push(Call::from(ToolArgs::Command(CommandArgs::new(
            "grep", args,
        ))));
    }
    rest.into_iter().nth(own.len() - 1)
}

/// The failures by HTTP status: "500 ×310, 502 ×80".
fn by_status(r: &QueryResult, lang: Lang) -> Option<String> {
    let QueryValue::Groups { rows, rest, .. } = &r.value else {
        return None;
    };
    let mut parts: Vec<String> = rows
        .iter()
        .map(|g| format!("{} ×{}", g.key.join(" "), g.count))
        .collect();
    // The statuses not listed, so the figures add up to the failures.
    if *rest > 0 {
        parts.push(format!("{} ×{rest}", lang.pick("其他", "other")));
    }
    let names: Vec<&str> = r.sources.iter().map(|s| s.name.as_str()).collect();
    (!parts.is_empty()).then(|| {
        format!(
            "{} ({}): {}",
            lang.pick(
                "失败请求的 HTTP 状态码",
                "HTTP status of the failed requests"
            ),
            names.join(", "),
            parts.join(", ")
        )
    })
}

/// The step's query result, when the step ran a query of this measure.
fn query_step(own: &[StepRecord], grouped: bool) -> Option<&QueryResult> {
    own.iter()
        .skip(1)
        .filter_map(result_of)
        .find(|r| r.query.group_by.is_empty() != grouped)
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
    parts.extend(query_step(own, true).and_then(|s| {
        let by_client = s.query.group_by.iter().any(|g| g.as_str() == "client");
        if by_client {
            symptom::who(s, lang)
        } else {
            by_status(s, lang)
        }
    }));
    if let Some(table) = per_minute(r, lang) {
        parts.push(table);
    }
    parts.extend(episodes::section(r, lang));
    let evidence = query_step(own, false);
    if let Some(e) = evidence.filter(|e| !rows_of(e).is_empty()) {
        parts.push(format!(
            "{}\n{}",
            lang.pick(
                "从故障开始前几分钟到最严重那一分钟之后，各日志里最值得注意的事件（同类只列第一条，按时间合并）：",
                "What the logs show from a few minutes before the failures began to after the worst minute (each kind of event once, the most telling, merged in time order):"
            ),
            rows_of(e)
                .iter()
                .map(|row| format!("- {}", super::answer::query::row_line(row, lang, false)))
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    if let Some(g) = own
        .iter()
        .skip(1)
        .find(|s| s.tool == ToolName::CommandExecutor)
    {
        parts.push(configs::timeouts(g, lang));
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
    let named = symptom::of(r).map(symptom::words);
    if r.matched == 0 {
        return nothing_found(&names, named.as_deref(), lang);
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
    // The worst minute is the one where the logs fail together most; a minute with more
    // failures of one log alone is named beside it, so no listed minute contradicts it.
    let most = busiest(buckets_of(r).iter())
        .filter(|m| worst.as_ref().is_some_and(|(_, n, _)| m.count > *n));
    let most = |lang: Lang| match (most, lang) {
        (None, _) => String::new(),
        (Some(m), Lang::Zh) => format!("（单分钟最多的是 {}，{} 个）", m.start, m.count),
        (Some(m), Lang::En) => format!(" (the most in one minute: {} with {})", m.start, m.count),
    };
    let (zh_noun, en_noun) = match &named {
        Some(what) => (format!(" {what} 事件"), format!("events are {what}")),
        None => ("出错事件".to_string(), "events tell of trouble".to_string()),
    };
    match (lang, worst) {
        (Lang::Zh, Some((at, n, split))) => format!(
            "共 **{}** 个{zh_noun}（{}）；各日志一起出错最集中的一分钟是 **{at}**，{n} 个{split}{}。",
            r.matched,
            per_file.join("，"),
            most(lang)
        ),
        (Lang::En, Some((at, n, split))) => format!(
            "**{}** {en_noun} ({}); the worst minute, with the logs failing together most, was **{at}** with {n}{split}{}.",
            r.matched,
            per_file.join(", "),
            most(lang)
        ),
        (Lang::Zh, None) => format!(
            "共 **{}** 个{zh_noun}（{}）。",
            r.matched,
            per_file.join("，")
        ),
        (Lang::En, None) => format!(
            "**{}** {en_noun} ({}).",
            r.matched,
            per_file.join(", ")
        ),
    }
}

/// The headline when nothing was found: of the symptom named, or of any trouble.
fn nothing_found(names: &[&str], named: Option<&str>, lang: Lang) -> String {
    match (named, lang) {
        (Some(what), Lang::Zh) => format!("{} 中没有 {what} 的事件。", names.join("、")),
        (Some(what), Lang::En) => format!("No {what} in {}.", names.join(", ")),
        (None, Lang::Zh) => format!(
            "{} 中没有出错事件（HTTP 5xx、ERROR 及以上，或说明出错、无法完成、超限、被拒、被杀、超时的告警）。",
            names.join("、")
        ),
        (None, Lang::En) => format!(
            "Nothing went wrong in {} (no HTTP 5xx, no ERROR or worse, no warning that says something failed, could not be done, went past a limit, was refused, killed or timed out).",
            names.join(", ")
        ),
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
        lang.pick("出错最多的几分钟", "The minutes with most trouble"),
        names.join(" / "),
        lines.join("\n")
    ))
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
    if let Some(what) = symptom::of(r).map(symptom::words) {
        return match lang {
            Lang::Zh => format!("依据： {}。计数的是问题里说的 {what}。", parts.join("; ")),
            Lang::En => format!(
                "Read: {}. Counted: {what}, as the question names it.",
                parts.join("; ")
            ),
        };
    }
    format!(
        "{} {}{}",
        lang.pick("依据：", "Read:"),
        parts.join("; "),
        lang.pick(
            "。出错事件 = HTTP 5xx（有状态码的日志）；ERROR 及以上、任务结果 fail；没有状态码的日志里，还有说明出错、无法完成、超限、被拒、被杀或超时的告警和无级别行。",
            ". Trouble is an HTTP 5xx (a log with a status); ERROR or worse, a job's 'fail'; and, in a log without a status, a warning or unlevelled line that says something failed, could not be done, went past a limit, was refused, killed or timed out."
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
        // Asking for a cause in other words, and what a failure took down.
        let incident = &lexicon().grammar.incident;
        for t in [
            "凌晨 4 点多登录失败那么多，原因是什么？",
            "为什么一直超时？",
            "what brought down the payments api at 04:10?",
            "the deploy took down checkout, why?",
            "why so many 502s after the deploy",
            "why did it break?",
            "为什么这么多 504",
            "网关怎么挂了",
        ] {
            assert!(incident.occur_in(&t.to_lowercase()), "{t}");
        }
        for t in [
            "how long did the job take",
            "p95 耗时是多少",
            "what took the longest in access.log?",
        ] {
            assert!(!incident.occur_in(&t.to_lowercase()), "{t}");
        }
    }

    #[test]
    fn after_the_failures_per_minute_come_the_lead_up_the_statuses_and_the_timeouts() {
        let r: QueryResult = serde_json::from_value(serde_json::json!({
            "query": {}, "described_zh": "", "described_en": "", "sources": [], "matched": 9,
            "value": {"kind": "timeline", "rows": [], "total": 9, "width_seconds": 60,
                      "buckets": [{"start": "2031-06-05T02:37", "count": 9}]}
        }))
        .expect("a result");
        let first = StepRecord {
            tool: ToolName::LogQuery,
            args: ToolArgs::LogQuery(QueryArgs::default()),
            ok: true,
            output: String::new(),
            data: crate::ToolData::Query(Box::new(r)),
            error: None,
        };
        let (logs, statused, configs) = (
            vec!["/u/alb.log".to_string(), "/u/app.log".into()],
            vec!["/u/alb.log".to_string()],
            vec!["/u/app.ini".to_string()],
        );
        let mut own = vec![first];
        let mut calls = Vec::new();
        while let Some(c) = next_call(&logs, (&statused, &configs), (None, None), &own) {
            calls.push((c.tool(), c.args.to_json()));
            own.push(own[0].clone());
        }
        assert_eq!(calls.len(), 3, "{calls:?}");
        assert_eq!(calls[0].1["measure"], "timeline");
        assert!(
            calls[0].1.get("filters").is_none(),
            "every event: {:?}",
            calls[0].1
        );
        assert_eq!(calls[1].1["group_by"], serde_json::json!(["status"]));
        assert_eq!(calls[1].1["files"], serde_json::json!(["/u/alb.log"]));
        assert_eq!(calls[2].0, ToolName::CommandExecutor);
    }

    #[test]
    fn the_failures_by_status_add_up_to_every_failure() {
        let r: QueryResult = serde_json::from_value(serde_json::json!({
            "query": {}, "described_zh": "", "described_en": "",
            "sources": [{"name": "alb.log", "format": "aws_alb", "fields": [], "lines": 90, "events": 90,
                         "bytes": 900, "complete": true}],
            "matched": 83,
            "value": {"kind": "groups", "by": ["status"], "groups": 7, "rest": 4,
                      "rows": [{"key": ["500"], "count": 61}, {"key": ["502"], "count": 18}]}
        }))
        .expect("a result");
        assert_eq!(
            by_status(&r, Lang::En).as_deref(),
            Some("HTTP status of the failed requests (alb.log): 500 ×61, 502 ×18, other ×4")
        );
    }

    /// The worst minute is where the logs peak together: a database's journal and an app
    /// failing in the same minute outrank a larger burst in a log shipper's log alone; a
    /// single log's worst minute is its largest.
    #[test]
    fn the_worst_minute_is_where_the_logs_peak_together() {
        let bucket = |start: &str, per_file: Vec<u64>| BucketRow {
            start: start.into(),
            count: per_file.iter().sum(),
            per_file,
        };
        let r: QueryResult = serde_json::from_value(serde_json::json!({
            "query": {}, "described_zh": "", "described_en": "", "sources": [], "matched": 1,
            "value": {"kind": "buckets", "width_seconds": 60, "buckets": [], "peak": null}
        }))
        .expect("a result");
        let with = |buckets: Vec<BucketRow>| QueryResult {
            value: QueryValue::Timeline {
                unlisted: 0,
                rows: Vec::new(),
                total: 0,
                width_seconds: 60,
                buckets,
            },
            ..r.clone()
        };
        // a log shipper / the app / the database host's journal.
        let r2 = with(vec![
            bucket("01:13", vec![0, 30, 8]),
            bucket("01:14", vec![0, 20, 2]),
            bucket("02:16", vec![41, 0, 0]),
        ]);
        assert_eq!(peak(&r2).map(|b| b.start.as_str()), Some("01:13"));
        let one = |start: &str, count: u64| BucketRow {
            start: start.into(),
            count,
            per_file: Vec::new(),
        };
        let r1 = with(vec![one("01:13", 5), one("02:16", 9)]);
        assert_eq!(peak(&r1).map(|b| b.start.as_str()), Some("02:16"));
    }

    #[test]
    fn the_evidence_starts_five_minutes_before_the_burst_of_failures() {
        let bucket = |start: &str, count: u64| BucketRow {
            start: start.into(),
            count,
            per_file: Vec::new(),
        };
        let r: QueryResult = serde_json::from_value(serde_json::json!({
            "query": {}, "described_zh": "", "described_en": "", "sources": [], "matched": 41,
            "value": {"kind": "count", "count": 41}
        }))
        .expect("a result");
        let r = QueryResult {
            value: QueryValue::Timeline {
                unlisted: 0,
                rows: Vec::new(),
                total: 41,
                width_seconds: 60,
                // One stray failure at 23:50, the burst from 23:58 to 00:01 (worst at 00:00).
                buckets: vec![
                    bucket("2031-06-04T23:50", 1),
                    bucket("2031-06-04T23:57", 0),
                    bucket("2031-06-04T23:58", 4),
                    bucket("2031-06-04T23:59", 6),
                    bucket("2031-06-05T00:00", 30),
                    bucket("2031-06-05T00:01", 5),
                ],
            },
            ..r
        };
        assert_eq!(
            evidence_window(&r, None),
            Some(Window::Around {
                at: TimePoint("2031-06-05 00:00".into()),
                seconds: 2 * 60 + LEAD_UP,
            })
        );
        // A time the question names: the failures near it, however many more come later.
        let asked = Window::Around {
            at: TimePoint("23:45".into()),
            seconds: 1800,
        };
        let at = |w: Option<Window>| match w {
            Some(Window::Around { at, .. }) => at.0,
            other => panic!("{other:?}"),
        };
        assert_eq!(at(evidence_window(&r, Some(&asked))), "2031-06-04 23:50");
        let far = Window::Around {
            at: TimePoint("2031-06-04 22:00".into()),
            seconds: 1800,
        };
        assert_eq!(at(evidence_window(&r, Some(&far))), "2031-06-05 00:00");
        assert_eq!(
            minute_of("2031-06-05T00:00:30"),
            minute_of("2031-06-05T00:00")
        );
        assert_eq!(
            minute_of("2031-03-01T00:00").map(|m| m - 1),
            minute_of("2031-02-28T23:59")
        );
    }

    /// The worst minute is where the logs fail together most; a minute with more failures
    /// of one log alone is named beside it, so no minute listed below contradicts it.
    #[test]
    fn a_busier_minute_of_one_log_is_named_beside_the_worst() {
        let source = |n: &str| {
            serde_json::json!({"name": n, "format": "plain", "fields": [], "lines": 9,
                "events": 9, "bytes": 9, "complete": true})
        };
        let r: QueryResult = serde_json::from_value(serde_json::json!({
            "query": {"source": "log"}, "described_zh": "", "described_en": "",
            "sources": [source("a.log"), source("b.log")],
            "matched": 45, "matched_per_file": [35, 10],
            "value": {"kind": "buckets", "width_seconds": 60, "buckets": [
                {"start": "2031-05-09T02:15", "count": 14, "per_file": [5, 9]},
                {"start": "2031-05-09T02:17", "count": 31, "per_file": [30, 1]},
            ]},
        }))
        .expect("a result");
        let en = headline(&r, Lang::En);
        assert!(
            en.contains("together most, was **2031-05-09T02:15** with 14 (a.log 5 / b.log 9) (the most in one minute: 2031-05-09T02:17 with 31)"),
            "{en}"
        );
        let zh = headline(&r, Lang::Zh);
        assert!(
            zh.contains("（单分钟最多的是 2031-05-09T02:17，31 个）"),
            "{zh}"
        );
    }
}
