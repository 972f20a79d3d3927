//! `log_query`: the typed query ([`llmops_common::query`]) over log files as tables of
//! events (`llmops_loganalysis::run_query`: formats detected by content, fields, filters,
//! groups, statistics, buckets, timelines), on the blocking pool, with the same path policy
//! and session isolation as `file_read`. Several files: a file the query cannot apply to (no
//! such field, tag or timestamps) is left out and the result says so.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use llmops_common::query::{QueryArgs, QueryResult};
use llmops_common::UploadRef;
use llmops_loganalysis::{
    builtin_registry, describe_sample, run_query, Described, QueryError, QueryFile, QueryOptions,
    Sample,
};
use serde_json::Value;

use crate::data::ToolData;
use crate::query_common::{args_schema, run_soft, summary_text};
use crate::{
    parse_args, resolve_user_path, run_blocking, BlockingError, Tool, ToolCtx, ToolFuture,
    ToolName, ToolResult,
};

/// The `log_query` tool. Carries the size cap of local files (uploads are read whole).
#[derive(Debug, Clone, Copy)]
pub struct LogQueryTool {
    max_bytes: u64,
}

impl LogQueryTool {
    pub fn new(max_bytes: u64) -> Self {
        LogQueryTool {
            max_bytes: max_bytes.max(1),
        }
    }
}

impl Default for LogQueryTool {
    fn default() -> Self {
        LogQueryTool::new(crate::file_read::DEFAULT_ANALYZE_MAX_BYTES)
    }
}

/// A file the query could not use for a reason of its own (not an I/O failure).
fn schema_mismatch(e: &QueryError) -> bool {
    matches!(
        e,
        QueryError::UnknownField { .. }
            | QueryError::UnknownTag { .. }
            | QueryError::NotNumeric { .. }
            | QueryError::NoTimestamps { .. }
    )
}

/// The error's text with resolved paths shown by the names the user knows.
fn shown_error(e: &QueryError, files: &[QueryFile]) -> String {
    let mut text = e.to_string();
    for f in files {
        text = text.replace(&f.path.display().to_string(), &f.name);
    }
    text
}

/// Runs the query over `files`; with several, leaves out those it cannot apply to.
fn run_files(
    args: &QueryArgs,
    files: Vec<QueryFile>,
    opts: &QueryOptions,
    cancel: &AtomicBool,
) -> Result<QueryResult, String> {
    let first = run_soft(args, |q| run_query(&files, q, opts, cancel));
    let err = match first {
        Ok(r) => return Ok(r),
        Err(e) if files.len() > 1 && schema_mismatch(&e) => e,
        Err(e) => return Err(shown_error(&e, &files)),
    };
    let mut kept = Vec::new();
    let mut left_out = Vec::new();
    for f in &files {
        match run_soft(args, |q| {
            run_query(std::slice::from_ref(f), q, opts, cancel)
        }) {
            Ok(_) => kept.push(f.clone()),
            Err(e) if schema_mismatch(&e) => {
                left_out.push((f.name.clone(), shown_error(&e, &files)))
            }
            Err(e) => return Err(shown_error(&e, &files)),
        }
    }
    if kept.is_empty() {
        return Err(shown_error(&err, &files));
    }
    let mut r = run_soft(args, |q| run_query(&kept, q, opts, cancel))
        .map_err(|e| shown_error(&e, &files))?;
    for (name, why) in left_out {
        r.notes.push(format!("{name} 未计入 / left out: {why}"));
    }
    Ok(r)
}

fn is_upload(ctx: &ToolCtx, path: &Path) -> bool {
    llmops_policy::path::resolve(&ctx.uploads_root()).is_ok_and(|root| path.starts_with(root))
}

/// The display name of a resolved file: the upload's name, or the path as asked.
fn display_name(ctx: &ToolCtx, asked: &str, path: &Path) -> String {
    ctx.session_uploads()
        .iter()
        .find(|u| llmops_policy::path::resolve(&u.path).is_ok_and(|r| r == path))
        .map(|u| u.filename.clone())
        .unwrap_or_else(|| asked.to_string())
}

impl Tool for LogQueryTool {
    fn name(&self) -> &'static str {
        ToolName::LogQuery.as_str()
    }

    fn description(&self) -> &'static str {
        "把日志当作表来查询 / Query log files as tables of events: the format (nginx/Apache \
         access, JSON lines, logfmt, syslog, journal JSON, Java (log4j, logback, Spring Boot) with stack traces, HAProxy, \
         PostgreSQL, MySQL slow log, sshd, kernel, generic) is detected by content; fields by \
         name or role (status, client, path, method, duration, bytes, upstream, level, \
         message, exception, user, host, program, ...). Filters (eq/ne/lt/le/gt/ge with units, \
         contains, regex, class 5 = 5xx, tag such as failure/failed_login/oom_kill/slow_query), \
         time windows (last N seconds of the log, between, around), and one measure: count, \
         count_distinct, min/max/mean/sum/p50/p90/p95/p99/stats of a numeric field, group_by \
         one or two fields with top N, buckets with the peak, rows (first/last = sort by time, \
         limit 1), timeline across files, fields. Exact over whole files; the result has the \
         equivalent shell pipeline."
    }

    fn schema(&self) -> Value {
        args_schema()
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: QueryArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            if args.query.files.is_empty() {
                return ToolResult::failure(QueryError::NoFiles.to_string());
            }
            let mut files = Vec::new();
            let mut all_uploads = true;
            for raw in &args.query.files {
                let path: PathBuf = match resolve_user_path(ctx, raw) {
                    Ok(p) => p,
                    Err(e) => return ctx.deny(ToolName::LogQuery.as_str(), raw, &e),
                };
                all_uploads &= is_upload(ctx, &path);
                files.push(QueryFile::new(display_name(ctx, raw, &path), path));
            }
            let opts = QueryOptions {
                max_bytes: if all_uploads {
                    u64::MAX
                } else {
                    self.max_bytes
                },
                ..QueryOptions::default()
            };
            let res = run_blocking(&ctx.cancel, move |flag| {
                run_files(&args, files, &opts, flag)
            })
            .await;
            match res {
                Ok(Ok(r)) => ToolResult::success(summary_text(&r), ToolData::Query(Box::new(r))),
                Ok(Err(e)) => ToolResult::failure(e),
                Err(BlockingError::Cancelled) => ToolResult::cancelled(),
                Err(BlockingError::Panicked) => {
                    ToolResult::failure("日志查询内部错误 (log query failed internally)")
                }
            }
        })
    }
}

/// Uploads whose columns are remembered, by content hash (then the cache starts over).
const COLUMN_CACHE: usize = 512;

/// Fills in each upload's detected format and columns: its fields as the format detected
/// from its first 64 KiB names them, with the values a text column takes sampled over the
/// whole file, remembered by content hash. Blocking file reads: call
/// it off the async threads. A file that cannot be read keeps no columns (the query then
/// says why).
pub fn describe_columns(uploads: &mut [UploadRef]) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Described>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    for u in uploads.iter_mut().filter(|u| u.columns.is_empty()) {
        let key = format!("{}:{}", u.sha256, u.path.display());
        let known = cache
            .lock()
            .map(|c| c.get(&key).cloned())
            .unwrap_or_default();
        let described = match known {
            Some(d) => d,
            None => {
                let d = Sample::read(&u.path)
                    .map(|sample| describe_sample(builtin_registry(), &sample))
                    .unwrap_or_default();
                if let Ok(mut c) = cache.lock() {
                    if c.len() >= COLUMN_CACHE {
                        c.clear();
                    }
                    c.insert(key, d.clone());
                }
                d
            }
        };
        u.format = described.format;
        u.columns = described.columns;
    }
}
