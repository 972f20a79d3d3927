//! `file_read` mode "analyze": whole-file log analysis (`llmops-loganalysis`) on the blocking
//! pool, with the same path resolution and session isolation as read mode; uploads are
//! analysed whole, other files up to the tool's cap. Data: [`FileAnalysis`] (docs/tools.md);
//! text: a compact summary whose size does not grow with the file.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use llmops_loganalysis::{
    analyze_file, AnalyzeError, AnalyzeMode, AnalyzeOptions, BucketSize, FileAnalysis, Histogram,
    Level, LogReport,
};

use super::FileReadTool;
use crate::audit::AuditOp;
use crate::data::ToolData;
use crate::{
    human_size, resolve_user_path, run_blocking, truncate_chars, BlockingError, LiveChunk, Tool,
    ToolCtx, ToolResult,
};

/// Templates listed in the text (the data carries the full top list).
const TEXT_TEMPLATES: usize = 10;
/// Longest template shown in the text, in characters.
const TEXT_TEMPLATE_CHARS: usize = 160;

fn error_text(e: &AnalyzeError, shown: &str) -> String {
    match e {
        AnalyzeError::NotFound(_) => format!("文件不存在: {shown}"),
        AnalyzeError::IsDir(_) => format!("路径是目录而不是文件: {shown} (is a directory)"),
        AnalyzeError::NotRegular(_) => format!("不是普通文件: {shown}"),
        AnalyzeError::PermissionDenied(_) => {
            format!("权限不足，无法读取: {shown} (permission denied)")
        }
        AnalyzeError::Binary(_) => {
            format!("二进制文件，无法按日志分析: {shown} (binary file: contains NUL bytes)")
        }
        AnalyzeError::Utf16(_) => format!(
            "UTF-16 编码的文件不支持分析，请用 mode=read 读取: {shown} (UTF-16 is not analysed)"
        ),
        AnalyzeError::Io(_, msg) => format!("读取文件失败: {shown}: {msg}"),
        AnalyzeError::Cancelled => "操作已取消 (cancelled)".to_string(),
    }
}

/// Whether `path` (resolved) is under the uploads root.
fn is_upload(ctx: &ToolCtx, path: &Path) -> bool {
    llmops_policy::path::resolve(&ctx.uploads_root()).is_ok_and(|root| path.starts_with(root))
}

/// Files at least this big report their progress live.
const PROGRESS_MIN_BYTES: u64 = 64 << 20;

/// `已分析 512.0 MiB / 1.0 GiB（50%） / analysed 512.0 MiB of 1.0 GiB`.
fn progress_line(done: u64, total: u64) -> String {
    let pct = done.saturating_mul(100) / total.max(1);
    format!(
        "已分析 {} / {}（{pct}%）/ analysed {} of {}",
        human_size(done),
        human_size(total),
        human_size(done),
        human_size(total)
    )
}

/// Runs mode "analyze" for `raw` (a path or this session's upload name).
pub(super) async fn run(tool: &FileReadTool, raw: &str, ctx: &ToolCtx) -> ToolResult {
    let path = match resolve_user_path(ctx, raw) {
        Ok(p) => p,
        Err(e) => return ctx.deny(tool.name(), raw, &e),
    };
    let max_bytes = if is_upload(ctx, &path) {
        u64::MAX
    } else {
        tool.analyze_max_bytes
    };
    let opts = AnalyzeOptions {
        max_bytes,
        ..AnalyzeOptions::default()
    };
    let p2 = path.clone();
    let live = ctx.live.clone();
    let res = run_blocking(&ctx.cancel, move |flag: &AtomicBool| {
        let mut last_pct = 0;
        let mut sent = 0u64;
        analyze_file(&p2, &opts, flag, &mut |done, total| {
            // Every 10%; shown live under the running call for files big enough to take a
            // while (a small file is done before anyone could read it).
            let pct = done.saturating_mul(100) / total.max(1);
            if pct >= last_pct + 10 || (pct == 100 && last_pct < 100) {
                last_pct = pct;
                tracing::debug!(path = %p2.display(), done, total, "analyze progress");
                if total >= PROGRESS_MIN_BYTES {
                    sent += 1;
                    live.send(LiveChunk {
                        lines: vec![progress_line(done, total)],
                        dropped: 0,
                        total: sent,
                    });
                }
            }
        })
    })
    .await;
    let report = match res {
        Ok(Ok(r)) => r,
        Ok(Err(AnalyzeError::Cancelled)) | Err(BlockingError::Cancelled) => {
            return ToolResult::cancelled()
        }
        Ok(Err(e)) => return ToolResult::failure(error_text(&e, raw)),
        Err(BlockingError::Panicked) => return ToolResult::failure("分析文件失败: 内部错误"),
    };
    ctx.audit.record(
        AuditOp::Read,
        &[
            ("session", &ctx.session_id),
            ("path", &path.display().to_string()),
            ("mode", "analyze"),
            ("bytes_read", &report.bytes_read.to_string()),
            ("lines", &report.lines.to_string()),
        ],
    );
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| raw.to_string());
    let analysis = FileAnalysis {
        mode: AnalyzeMode::Analyze,
        path: path.display().to_string(),
        file,
        report,
    };
    let text = summary(&analysis);
    ToolResult::success(text, ToolData::Analysis(Box::new(analysis)))
}

/// `1 小时 5 分 / 1h5m`-style span.
fn span_text(secs: u64) -> String {
    let (d, h, m, s) = (secs / 86_400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
    if d > 0 {
        format!("{d} 天 {h} 小时 / {d}d{h}h")
    } else if h > 0 {
        format!("{h} 小时 {m} 分 / {h}h{m}m")
    } else if m > 0 {
        format!("{m} 分 {s} 秒 / {m}m{s}s")
    } else {
        format!("{s} 秒 / {s}s")
    }
}

fn level_list(r: &LogReport) -> String {
    r.levels
        .iter()
        .map(|l| format!("{} {}", l.level.name(), l.count))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The note every figure computed from part of the file carries in its own sentence:
/// empty when the whole file was analysed.
struct Scope {
    zh: String,
    en: String,
}

impl Scope {
    fn of(r: &LogReport) -> Scope {
        if r.complete {
            Scope {
                zh: String::new(),
                en: String::new(),
            }
        } else {
            Scope {
                zh: format!("（前 {} 内）", human_size(r.bytes_read)),
                en: format!(" (in the first {})", human_size(r.bytes_read)),
            }
        }
    }
}

/// The compact text of an analysis (bounded: at most [`TEXT_TEMPLATES`] templates).
pub(crate) fn summary(a: &FileAnalysis) -> String {
    let r = &a.report;
    let scope = Scope::of(r);
    let mut out = headline(a);
    if r.lines == 0 {
        out.push_str("（空文件 / empty file）");
        return out;
    }
    out.push_str(&level_lines(r, &scope));
    if let (Some(f), Some(last)) = (&r.first_ts, &r.last_ts) {
        let span = r.span_seconds.map(span_text).unwrap_or_default();
        let Scope {
            zh: scope_zh,
            en: scope_en,
        } = &scope;
        out.push_str(&format!(
            "时间范围{scope_zh} / time span{scope_en}: {f} — {last}（{span}），{} 行带时间戳 / {} lines with a timestamp\n",
            r.ts_lines, r.ts_lines
        ));
    }
    if let Some(h) = &r.histogram {
        out.push_str(&histogram_line(h, &scope));
        out.push('\n');
    }
    out.push_str(&template_lines(r, &scope));
    out.trim_end().to_string()
}

/// The first line: which file, how much of it was analysed, how many lines.
fn headline(a: &FileAnalysis) -> String {
    let r = &a.report;
    if r.complete {
        format!(
            "日志分析 {}：全文 {}，共 {} 行 / whole file analysed ({}): {} lines\n",
            a.file,
            human_size(r.bytes),
            r.lines,
            human_size(r.bytes),
            r.lines
        )
    } else {
        format!(
            "日志分析 {}：只分析了前 {}（共 {}），其中 {} 行 / analysed only the first {} of {}: {} lines in that part\n",
            a.file,
            human_size(r.bytes_read),
            human_size(r.bytes),
            r.lines,
            human_size(r.bytes_read),
            human_size(r.bytes),
            r.lines
        )
    }
}

/// Lines per level, then when each warning-or-worse level first and last appeared.
fn level_lines(r: &LogReport, scope: &Scope) -> String {
    let Scope {
        zh: scope_zh,
        en: scope_en,
    } = scope;
    let mut out = format!(
        "级别统计{scope_zh} / lines per level{scope_en}: {}\n",
        level_list(r)
    );
    for l in r.levels.iter().filter(|l| l.level <= Level::Warn) {
        if let (Some(f), Some(last)) = (&l.first_ts, &l.last_ts) {
            out.push_str(&format!(
                "{} 首次 {f}（第 {} 行），最后 {last} / first at {f} (line {}), last at {last}\n",
                l.level.name(),
                l.first_line,
                l.first_line
            ));
        } else {
            out.push_str(&format!(
                "{} 首次出现在第 {} 行 / first on line {}\n",
                l.level.name(),
                l.first_line,
                l.first_line
            ));
        }
    }
    out
}

/// The histogram in one line: its buckets, the busiest one and the one with most errors.
fn histogram_line(h: &Histogram, scope: &Scope) -> String {
    let Scope {
        zh: scope_zh,
        en: scope_en,
    } = scope;
    let unit = match h.bucket {
        BucketSize::Minute => "每分钟",
        BucketSize::Hour => "每小时",
        BucketSize::Day => "每天",
    };
    let mut line = format!(
        "直方图{scope_zh}（{unit}，{} 个区间）/ histogram per {}{scope_en}, {} buckets",
        h.buckets.len(),
        h.bucket.name(),
        h.buckets.len()
    );
    if let Some(p) = h.peak() {
        line.push_str(&format!(
            "：峰值 {} 共 {} 行 / peak {} with {} lines",
            p.start, p.total, p.start, p.total
        ));
    }
    if let Some(p) = h.peak_errors() {
        line.push_str(&format!(
            "；错误最多 {} 共 {} 条 / most errors at {}: {}",
            p.start, p.errors, p.start, p.errors
        ));
    }
    line
}

/// How many message templates, the top ones, then the severe ones the top list left out.
fn template_lines(r: &LogReport, scope: &Scope) -> String {
    let Scope {
        zh: scope_zh,
        en: scope_en,
    } = scope;
    let mut out = format!(
        "消息模板{scope_zh} {} 种{} / {} message templates{scope_en}{}；高频 / top:\n",
        r.distinct_templates,
        if r.templates_capped {
            format!("（已达上限，{} 行未归类）", r.untemplated_lines)
        } else {
            String::new()
        },
        r.distinct_templates,
        if r.templates_capped {
            format!(
                " (cap reached, {} lines not templated)",
                r.untemplated_lines
            )
        } else {
            String::new()
        },
    );
    for t in r.templates.iter().take(TEXT_TEMPLATES) {
        let when = match (&t.first_ts, &t.last_ts) {
            (Some(f), Some(l)) => format!("（{f} — {l}）"),
            _ => format!("（第 {} 行起 / from line {}）", t.first_line, t.first_line),
        };
        out.push_str(&format!(
            "  {} × [{}] {}{when}\n",
            t.count,
            t.level.name(),
            truncate_chars(&t.template, TEXT_TEMPLATE_CHARS)
        ));
    }
    // The severe templates the list above left out (the data has them all).
    let hidden: Vec<_> = r
        .templates
        .iter()
        .skip(TEXT_TEMPLATES)
        .filter(|t| t.level <= Level::Error)
        .take(5)
        .collect();
    for t in hidden {
        out.push_str(&format!(
            "  {} × [{}] {}\n",
            t.count,
            t.level.name(),
            truncate_chars(&t.template, TEXT_TEMPLATE_CHARS)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Env;
    use llmops_loganalysis::synth::{generate, SynthFormat, SynthSpec};
    use serde_json::json;

    fn synth(
        seed: u64,
        format: SynthFormat,
        lines: u64,
    ) -> (Vec<u8>, llmops_loganalysis::synth::SynthTruth) {
        let mut buf = Vec::new();
        let truth = generate(&SynthSpec::new(seed, format, lines), &mut buf).expect("generate");
        (buf, truth)
    }

    fn count(t: &llmops_loganalysis::synth::SynthTruth, l: Level) -> u64 {
        t.levels.get(&l).map_or(0, |x| x.count)
    }

    #[tokio::test]
    async fn analyze_upload_by_bare_name_gives_exact_counts() {
        let env = Env::new();
        let (log, truth) = synth(12, SynthFormat::Logback, 13_000);
        env.upload("s1", "app.log", &log, "2025-01-01T00:00:00Z");
        // A tiny cap: uploads are analysed whole anyway.
        let tool = FileReadTool::new(1024);
        let r = tool
            .call(json!({"path": "app.log", "mode": "analyze"}), &env.ctx)
            .await;
        assert!(r.ok, "{r:?}");
        let a: FileAnalysis = serde_json::from_value(r.data.to_value()).expect("contract");
        assert_eq!(a.file, "app.log");
        assert!(a.path.ends_with("/app.log") && a.path.starts_with('/'));
        assert!(a.report.complete);
        assert_eq!(
            (a.report.bytes, a.report.bytes_read),
            (truth.bytes, truth.bytes)
        );
        assert_eq!(a.report.lines, truth.lines);
        let errors = count(&truth, Level::Error);
        let warns = count(&truth, Level::Warn);
        assert_eq!(a.report.count(Level::Error), errors);
        assert_eq!(a.report.count(Level::Warn), warns);
        assert_eq!(r.data.to_value()["mode"], "analyze");
        assert!(
            r.output.contains(&format!("ERROR {errors}"))
                && r.output.contains(&format!("WARN {warns}")),
            "{}",
            r.output
        );
        assert!(
            r.output.contains(&format!("共 {} 行", truth.lines)),
            "{}",
            r.output
        );
        assert!(r.output.contains("whole file analysed"));
        let e = &truth.levels[&Level::Error];
        let first = e.first_ts.clone().unwrap_or_default();
        assert!(r
            .output
            .contains(&format!("ERROR 首次 {first}（第 {} 行）", e.first_line)));
        assert!(r
            .output
            .contains("connect to <ip>:<num> failed after <dur>"));
        assert!(r.output.len() < 4000, "compact: {}", r.output.len());
        assert!(env.audit_log().contains("mode=analyze"));
    }

    #[tokio::test]
    async fn big_files_report_progress_live() {
        let env = Env::new();
        // ~70 MB, past PROGRESS_MIN_BYTES.
        let line = b"2025-01-01 10:00:00 INFO worker 7 handled request in 12ms\n";
        let n = (PROGRESS_MIN_BYTES as usize / line.len()) + 100_000;
        let path = env.docs.join("big.log");
        std::fs::write(&path, line.repeat(n)).expect("write");
        let (live, mut rx) = crate::LiveSink::channel();
        let mut ctx = env.ctx.clone();
        ctx.live = live;
        let r = FileReadTool::default()
            .call(json!({"path": path, "mode": "analyze"}), &ctx)
            .await;
        assert!(r.ok, "{r:?}");
        assert_eq!(r.data.to_value()["lines"], n as u64);
        let mut pcts = Vec::new();
        while let Ok(c) = rx.try_recv() {
            for l in c.lines {
                let pct: u64 = l
                    .split('（')
                    .nth(1)
                    .and_then(|x| x.split('%').next())
                    .and_then(|x| x.parse().ok())
                    .expect("a percentage");
                pcts.push(pct);
            }
        }
        // How many depends on speed (the workers are polled every 100 ms); the end is 100%.
        assert!(!pcts.is_empty(), "{pcts:?}");
        assert!(pcts.windows(2).all(|w| w[0] < w[1]), "{pcts:?}");
        assert_eq!(pcts.last(), Some(&100), "{pcts:?}");
        // Small files finish before anyone could read a progress line: none is sent.
        let (live, mut rx) = crate::LiveSink::channel();
        ctx.live = live;
        let small = env.docs.join("small.log");
        std::fs::write(&small, line.repeat(1000)).expect("write");
        let r = FileReadTool::default()
            .call(json!({"path": small, "mode": "analyze"}), &ctx)
            .await;
        assert!(r.ok);
        assert!(rx.try_recv().is_err());
    }

    #[tokio::test]
    async fn local_file_over_the_cap_says_it_is_partial() {
        let env = Env::new();
        let (log, _) = synth(13, SynthFormat::Syslog, 4000);
        let path = env.docs.join("big.log");
        std::fs::write(&path, &log).expect("write");
        let cap = log.len() as u64 / 4;
        let tool = FileReadTool::new(cap);
        let r = tool
            .call(
                json!({"file_path": path.display().to_string(), "mode": "analyze"}),
                &env.ctx,
            )
            .await;
        assert!(r.ok, "{r:?}");
        let a: FileAnalysis = serde_json::from_value(r.data.to_value()).expect("contract");
        assert!(!a.report.complete);
        assert!(a.report.bytes_read <= cap);
        let prefix = &log[..a.report.bytes_read as usize];
        let newlines = prefix.iter().filter(|&&b| b == b'\n').count() as u64;
        assert_eq!(a.report.lines, newlines);
        let errors_in_prefix = prefix
            .split(|&b| b == b'\n')
            .filter(|l| l.windows(7).any(|w| w == b" ERROR "))
            .count() as u64;
        assert_eq!(a.report.count(Level::Error), errors_in_prefix);
        let first_line = r.output.lines().next().unwrap_or("");
        assert!(
            first_line.contains(&format!(
                "只分析了前 {}（共 {}）",
                human_size(a.report.bytes_read),
                human_size(a.report.bytes)
            )),
            "{first_line}"
        );
        let levels_line = r.output.lines().nth(1).unwrap_or("");
        assert!(
            levels_line.contains("（前 ") && levels_line.contains("in the first"),
            "{levels_line}"
        );
        // The same file with the default cap is complete.
        let r = FileReadTool::default()
            .call(
                json!({"file_path": path.display().to_string(), "mode": "analyze"}),
                &env.ctx,
            )
            .await;
        assert_eq!(r.data.to_value()["complete"], true);
    }

    #[tokio::test]
    async fn analyze_refusals_match_read_mode() {
        let env = Env::new();
        let theirs = env.upload("s2", "private.log", b"ERROR x\n", "2025-01-01T00:00:00Z");
        let r = FileReadTool::default()
            .call(
                json!({"file_path": theirs.path.display().to_string(), "mode": "analyze"}),
                &env.ctx,
            )
            .await;
        assert!(r
            .error
            .as_deref()
            .unwrap_or("")
            .starts_with("该文件不属于本会话的上传"));
        let r = FileReadTool::default()
            .call(
                json!({"file_path": "private.log", "mode": "analyze"}),
                &env.ctx,
            )
            .await;
        assert_eq!(r.error.as_deref(), Some("文件不存在: private.log"));
        let r = FileReadTool::default()
            .call(
                json!({"file_path": "/etc/shadow", "mode": "analyze"}),
                &env.ctx,
            )
            .await;
        assert_eq!(r.error.as_deref(), Some("路径匹配禁止模式: /etc/shadow"));
        env.upload("s1", "bin.dat", b"a\0b", "2025-01-01T00:00:00Z");
        let r = FileReadTool::default()
            .call(json!({"file_path": "bin.dat", "mode": "analyze"}), &env.ctx)
            .await;
        assert!(r.error.as_deref().unwrap_or("").starts_with("二进制文件"));
        let r = FileReadTool::default()
            .call(json!({"file_path": "bin.dat", "mode": "grep"}), &env.ctx)
            .await;
        assert!(
            r.error.as_deref().unwrap_or("").contains("unknown variant"),
            "{r:?}"
        );
        env.upload("s1", "a.log", b"ERROR x\n", "2025-01-01T00:00:00Z");
        env.ctx.cancel.cancel();
        let r = FileReadTool::default()
            .call(json!({"file_path": "a.log", "mode": "analyze"}), &env.ctx)
            .await;
        assert_eq!(r.error.as_deref(), Some("操作已取消 (cancelled)"));
    }

    #[test]
    fn schema_offers_the_mode() {
        let s = FileReadTool::default().schema();
        assert_eq!(s["properties"]["mode"]["enum"], json!(["read", "analyze"]));
        assert!(FileReadTool::default().description().contains("analyze"));
    }

    #[test]
    fn summary_of_an_empty_file_and_span_text() {
        let a = FileAnalysis {
            mode: AnalyzeMode::Analyze,
            path: "/x/e.log".into(),
            file: "e.log".into(),
            report: llmops_loganalysis::analyze_bytes(b"", AnalyzeOptions::default()),
        };
        assert_eq!(
            summary(&a),
            "日志分析 e.log：全文 0 B，共 0 行 / whole file analysed (0 B): 0 lines\n（空文件 / empty file）"
        );
        assert_eq!(span_text(3 * 3600 + 5 * 60 + 1), "3 小时 5 分 / 3h5m");
        assert_eq!(span_text(2 * 86_400 + 3600), "2 天 1 小时 / 2d1h");
        assert_eq!(span_text(61), "1 分 1 秒 / 1m1s");
    }
}
