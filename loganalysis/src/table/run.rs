//! Running a query over log files: open and detect each file, resolve the window against
//! the logs' newest event, plan per file, scan, merge, and say what was computed.

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use llmops_common::query::{FieldInfo, Measure, Query, QueryResult, Resolved, Source, SourceInfo};

use super::agg::{Acc, AccKind};
use super::describe::describe;
use super::error::QueryError;
use super::event::Schema;
use super::finish::finish;
use super::pipeline::{pipeline, PipeCtx};
use super::plan::{plan, Plan, Table};
use super::rarity::rarity;
use super::registry::Registry;
use super::scan::{open, scan_file, Opened, QueryFile, QueryOptions, ScanJob};
use super::window::{check_window, names_a_zone, resolve_window, zoneless};
use crate::ts::{self, Ts};

/// The shipped format registry, compiled once.
pub fn builtin_registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(Registry::builtin)
}

/// Runs `q` over `files` with the shipped formats.
pub fn run_query(
    files: &[QueryFile],
    q: &Query,
    opts: &QueryOptions,
    cancel: &AtomicBool,
) -> Result<QueryResult, QueryError> {
    run_query_with(builtin_registry(), files, q, opts, cancel)
}

/// The schema as the result shows it.
pub fn field_infos(schema: &Schema) -> Vec<FieldInfo> {
    schema
        .fields
        .iter()
        .zip(&schema.examples)
        .map(|(f, ex)| FieldInfo {
            name: f.name.clone(),
            kind: f.kind,
            unit: f.unit,
            roles: f.roles.clone(),
            example: ex.clone(),
        })
        .collect()
}

pub fn table_of<'a>(o: &'a Opened) -> Table<'a> {
    let fmt = &o.fmt;
    Table {
        name: &o.file.name,
        fields: &o.schema.fields,
        time: o.schema.time,
        level: o.schema.level,
        tags: &fmt.tags,
        format: &fmt.name,
        level_map: Some(&fmt.level_map),
    }
}

/// The fields `q` names: its measure's, its groups' and its filters'.
fn asked_fields(q: &Query) -> Vec<&str> {
    q.field
        .iter()
        .chain(&q.group_by)
        .chain(q.filters.iter().filter_map(|f| f.field.as_ref()))
        .map(|f| f.as_str())
        .collect()
}

/// Checks that the measure can run on the plan's fields.
pub fn check_measure(q: &Query, p: &Plan, has_time: bool, name: &str) -> Result<(), QueryError> {
    let needs_field = q.measure.is_stat()
        || q.measure == Measure::Stats
        || (q.measure == Measure::CountDistinct && q.group_by.is_empty());
    if needs_field && p.field.is_none() {
        return Err(QueryError::BadFilter(format!(
            "`{}` 需要 field / needs `field`",
            q.measure
        )));
    }
    if q.measure.is_stat() || q.measure == Measure::Stats {
        if let Some(f) = &p.field {
            if !f.is_numeric() {
                return Err(QueryError::NotNumeric {
                    field: f.name.clone(),
                    what: q.measure.to_string(),
                });
            }
        }
    }
    if matches!(q.measure, Measure::Buckets | Measure::Timeline) && !has_time {
        return Err(QueryError::NoTimestamps {
            file: name.to_string(),
        });
    }
    Ok(())
}

fn empty_acc() -> Acc {
    Acc {
        matched: 0,
        missing: 0,
        untimed: 0,
        kind: AccKind::Count,
        scratch: Vec::new(),
    }
}

/// A resolved window (inclusive seconds), the newest event it was resolved against and the
/// oldest, when read.
struct Resolution {
    window: Option<(i64, i64)>,
    end: Ts,
    first: Option<Ts>,
}

/// Each file's newest event, as written (a syslog's without its year), and its oldest
/// when `oldest` is asked.
fn edge_times(
    opened: &[Opened],
    q: &Query,
    cancel: &AtomicBool,
    oldest: bool,
) -> Result<Vec<super::scan::Edges>, QueryError> {
    let mut out = Vec::with_capacity(opened.len());
    for (i, o) in opened.iter().enumerate() {
        let job = ScanJob {
            fmt: &o.fmt,
            schema: &o.schema,
            plan: None,
            q,
            file: i,
            make_acc: &empty_acc,
            newest_day: None,
        };
        out.push(super::scan::edge_times(
            &o.file.path,
            o.end,
            &job,
            cancel,
            oldest,
        )?);
    }
    Ok(out)
}

/// The note on a window that lies wholly before the log's first event or after its last:
/// the time the log does cover.
fn outside_the_log(
    window: Option<(i64, i64)>,
    end: Option<&Ts>,
    first: Option<&Ts>,
) -> Option<String> {
    let ((a, b), end, first) = (window?, end?, first?);
    let sec = |t: &Ts| t.key.div_euclid(1_000_000);
    if a <= sec(end) && b >= sec(first) {
        return None;
    }
    let show = |t: &Ts| super::window::show_second(sec(t), end.dated);
    let (from, to) = (show(first), show(end));
    Some(format!(
        "所问的时间段不在日志的时间范围内（日志从 {from} 到 {to}）/ the time asked lies outside the log, which runs from {from} to {to}"
    ))
}

/// The window in seconds, resolved against the newest event of all files (`newest`, in
/// each file's placed year) and the oldest (`oldest`, read only for a window).
fn window_secs(
    opened: &[Opened],
    (newest, oldest): (&[Option<Ts>], &[Option<Ts>]),
    q: &Query,
) -> Result<Option<Resolution>, QueryError> {
    let Some(w) = &q.window else { return Ok(None) };
    check_window(w)?;
    let placed = |times: &[Option<Ts>]| -> Vec<Ts> {
        opened
            .iter()
            .zip(times)
            .filter_map(|(o, t)| t.map(|t| o.newest_day.map_or(t, |y| t.in_year(y))))
            .collect()
    };
    let first = placed(oldest).into_iter().min_by_key(|t| t.key);
    let end = placed(newest)
        .into_iter()
        .max_by_key(|t| t.key)
        .ok_or_else(|| QueryError::NoTimestamps {
            file: opened
                .iter()
                .map(|o| o.file.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    // A first event after the last (a yearless log across New Year) says nothing.
    let first = first.filter(|f| f.key <= end.key);
    Ok(Some(Resolution {
        window: Some(resolve_window(w, &end, first.as_ref())?),
        end,
        first,
    }))
}

/// Logs whose times have no year (syslog's `Apr  9 01:37:30`) read beside logs with dated
/// times are placed in the year of the newest dated event, so a window and a merged
/// timeline hold them all; alone, they keep their own order within the year.
fn place_yearless(opened: &mut [Opened], newest: &[Option<Ts>]) {
    let dated = newest
        .iter()
        .flatten()
        .filter(|t| t.dated.has_year())
        .map(|t| t.key)
        .max();
    let Some(key) = dated else { return };
    let newest_day = crate::ts::civil_from_days(key.div_euclid(86_400 * 1_000_000));
    for (o, t) in opened.iter_mut().zip(newest) {
        if t.is_some_and(|t| !t.dated.has_year()) {
            o.newest_day = Some(newest_day);
        }
    }
}

/// Everything the scans of all files found.
struct Scanned {
    acc: Acc,
    sources: Vec<SourceInfo>,
    per_file: Vec<u64>,
    resolved: Vec<Resolved>,
    plans: Vec<Plan>,
    notes: Vec<String>,
}

/// Scans every file with its own plan and merges the figures.
fn scan_all(
    opened: &[Opened],
    q: &Query,
    window: Option<(i64, i64)>,
    opts: &QueryOptions,
    cancel: &AtomicBool,
) -> Result<Scanned, QueryError> {
    let mut total: Option<Acc> = None;
    let (mut sources, mut per_file, mut resolved, mut plans, mut notes) = (
        Vec::new(),
        Vec::new(),
        Vec::<Resolved>::new(),
        Vec::new(),
        Vec::new(),
    );
    for (i, o) in opened.iter().enumerate() {
        let fmt = &o.fmt;
        let table = table_of(o);
        let mut p = plan(&table, q, window)?;
        if q.measure == Measure::Timeline {
            p.rarity = rarity(&table, o, opts, cancel)?;
        }
        let make = || Acc::new(q, &p);
        let job = ScanJob {
            fmt,
            schema: &o.schema,
            plan: Some(&p),
            q,
            file: i,
            make_acc: &make,
            newest_day: o.newest_day,
        };
        let split = (opts.threads, opts.split_min_bytes);
        let out = scan_file(&o.file.path, o.end, split, &job, cancel)?;
        per_file.push(out.acc.matched);
        file_notes(o, fmt.name.as_str(), &out, &mut notes, &p);
        sources.push(SourceInfo {
            name: o.file.name.clone(),
            path: Some(o.file.path.display().to_string()),
            format: fmt.name.clone(),
            fields: field_infos(&o.schema),
            lines: out.lines,
            events: out.events,
            bytes: o.end,
            complete: o.end == o.size,
            unparsed: out.unparsed,
        });
        for r in &p.resolved {
            if !resolved
                .iter()
                .any(|x| x.asked == r.asked && x.used == r.used)
            {
                resolved.push(r.clone());
            }
        }
        match &mut total {
            None => total = Some(out.acc),
            Some(t) => t.merge(out.acc),
        }
        plans.push(p);
    }
    Ok(Scanned {
        acc: total.ok_or(QueryError::NoFiles)?,
        sources,
        per_file,
        resolved,
        plans,
        notes,
    })
}

/// Checks `q` against every file before any scan: a log query over at least one file, each
/// opened and detected, and the query plannable on each (a bad field fails here).
fn open_checked(
    reg: &Registry,
    files: &[QueryFile],
    q: &Query,
    opts: &QueryOptions,
) -> Result<Vec<Opened>, QueryError> {
    if q.source != Source::Log {
        return Err(QueryError::Unsupported(format!(
            "系统表 {} 由 run_table 查询 / the {} table is queried with run_table",
            q.source.as_str(),
            q.source.as_str()
        )));
    }
    if files.is_empty() {
        return Err(QueryError::NoFiles);
    }
    if let Some(w) = &q.window {
        check_window(w)?;
    }
    let wanted = asked_fields(q);
    let opened = files
        .iter()
        .map(|f| open(reg, f, opts, &wanted, &q.extract))
        .collect::<Result<Vec<_>, _>>()?;
    // Plans first (without the window) so a bad field fails before any scan.
    for o in &opened {
        let p = plan(&table_of(o), q, None)?;
        // A time field none of the sampled events fills (`dmesg` without `-T`) is no time.
        let has_time = o
            .schema
            .time
            .is_some_and(|t| o.schema.examples.get(t).is_some_and(Option::is_some));
        check_measure(q, &p, has_time, &o.file.name)?;
    }
    Ok(opened)
}

/// Notes about the query as a whole: a zone asked of zoneless logs, and the role keys of
/// each file (once each).
fn query_notes(q: &Query, end: Option<&Ts>, opened: &[Opened], notes: &mut Vec<String>) {
    if let (Some(w), Some(e)) = (&q.window, end) {
        if names_a_zone(w) && zoneless(e) {
            notes.push(
                "日志的时间没有写时区，按 UTC 换算了所问的时间 / the log writes no time zone: \
                 its times were taken as UTC to convert the time asked"
                    .to_string(),
            );
        }
    }
    let times_used = q.window.is_some()
        || matches!(
            q.measure,
            Measure::Buckets | Measure::Rows | Measure::Timeline
        );
    if times_used && end.is_some_and(|e| e.dated == crate::ts::Dated::NoDate) {
        notes.push(
            "日志只写时刻、不写日期：它的时间都按同一天读 / the log writes the time of day \
             only, no date: its times are read as one day's"
                .to_string(),
        );
    }
    for o in opened {
        if let Some(n) = super::role_keys::note(&o.role_keys, &o.schema) {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
    }
}

/// The equivalent shell pipeline of a single-file query; when there is none, a note says why.
fn shell_pipeline(
    q: &Query,
    opened: &[Opened],
    plans: &[Plan],
    window: Option<(i64, i64)>,
    value: &llmops_common::query::QueryValue,
    sources: &[SourceInfo],
    notes: &mut Vec<String>,
) -> Option<String> {
    let pipeline = if opened.len() == 1 {
        let o = &opened[0];
        pipeline(&PipeCtx {
            q,
            fmt: &o.fmt,
            schema: &o.schema,
            plan: &plans[0],
            file: &o.file.name,
            window: window.map(|(a, b)| (iso_second(a), iso_second(b))),
            bucket: bucket_seconds(value),
            unparsed: sources[0].unparsed,
        })
    } else {
        Err("several files: run the pipeline of each file on its own".into())
    };
    pipeline
        .map_err(|why| {
            notes.push(format!(
                "没有等价的 shell 管道 / no equivalent shell pipeline: {why}"
            ))
        })
        .ok()
}

/// Runs `q` over `files` with the formats of `reg`.
pub fn run_query_with(
    reg: &Registry,
    files: &[QueryFile],
    q: &Query,
    opts: &QueryOptions,
    cancel: &AtomicBool,
) -> Result<QueryResult, QueryError> {
    let mut opened = open_checked(reg, files, q, opts)?;
    let edges = if opened.len() > 1 || q.window.is_some() {
        edge_times(&opened, q, cancel, q.window.is_some())?
    } else {
        Vec::new()
    };
    let (newest, oldest): (Vec<Option<Ts>>, Vec<Option<Ts>>) = edges.into_iter().unzip();
    if opened.len() > 1 {
        place_yearless(&mut opened, &newest);
    }
    let (window, end, first) = match window_secs(&opened, (&newest, &oldest), q)? {
        Some(r) => (r.window, Some(r.end), r.first),
        None => (None, None, None),
    };
    let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    let scanned = scan_all(&opened, q, window, opts, cancel)?;
    let Scanned {
        acc,
        sources,
        per_file,
        resolved,
        plans,
        mut notes,
    } = scanned;
    query_notes(q, end.as_ref(), &opened, &mut notes);
    notes.extend(outside_the_log(window, end.as_ref(), first.as_ref()));
    // Rows are not grouped: their paths stay whole.
    let grouped = q.measure != Measure::Rows;
    for g in plans[0].group.iter().filter(|g| grouped && g.path_key) {
        let name = &g.name;
        notes.push(format!(
            "按 {name} 分组时不含查询串（? 之后）/ grouped by {name} without its query string (after ?)"
        ));
    }
    let matched = acc.matched;
    let unit = plans[0].field.as_ref().map(|f| f.unit).unwrap_or_default();
    let value = finish(acc, q, unit, files.len(), &names);
    let dated = end.map_or(crate::ts::Dated::Full, |e| e.dated);
    let formats: Vec<String> = sources.iter().map(|s| s.format.clone()).collect();
    let (described_zh, described_en) =
        describe(q, &resolved, &names, (Some(reg), &formats), window, dated);
    let pipeline = shell_pipeline(q, &opened, &plans, window, &value, &sources, &mut notes);
    let mut query = q.clone();
    query.limit = Some(q.limit() as u32);
    Ok(QueryResult {
        query,
        described_zh,
        described_en,
        sources,
        resolved,
        matched,
        matched_per_file: if files.len() > 1 {
            per_file
        } else {
            Vec::new()
        },
        value,
        pipeline,
        notes,
        share_base: None,
    })
}

fn bucket_seconds(v: &llmops_common::query::QueryValue) -> Option<u64> {
    match v {
        llmops_common::query::QueryValue::Buckets { width_seconds, .. } => Some(*width_seconds),
        _ => None,
    }
}

/// A second as `YYYY-MM-DDTHH:MM:SS` (year 0000 for logs without years); open bounds
/// become the extremes of that form.
pub fn iso_second(sec: i64) -> String {
    if sec == i64::MIN {
        return "0000-00-00T00:00:00".into();
    }
    if sec == i64::MAX {
        return "9999-99-99T99:99:99".into();
    }
    let days = sec.div_euclid(86_400);
    let sod = sec.rem_euclid(86_400);
    let (y, m, d) = ts::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    )
}

fn file_notes(
    o: &Opened,
    format: &str,
    out: &super::scan::PartOut,
    notes: &mut Vec<String>,
    p: &Plan,
) {
    let name = &o.file.name;
    if o.end < o.size {
        notes.push(format!(
            "{name}: 只读取了前 {} 字节（共 {} 字节），所有数字只覆盖这一部分 / every figure covers the first {} bytes of {} (size cap)",
            o.end, o.size, o.end, o.size
        ));
    }
    if o.sample_parsed < o.sample_lines {
        notes.push(format!(
            "{name}: 识别为 {format}（前 {} 行中 {} 行符合）/ detected as {format}: it parsed {} of the first {} lines",
            o.sample_lines, o.sample_parsed, o.sample_parsed, o.sample_lines
        ));
    }
    if out.unparsed > 0 {
        notes.push(format!(
            "{name}: {} 行不符合 {format} 格式，没有字段，但 contains/regex 仍会搜索它们 / {} lines did not parse as {format}: no fields, still searched by contains/regex",
            out.unparsed, out.unparsed
        ));
    }
    if out.acc.missing > 0 {
        let what = p
            .field
            .iter()
            .chain(p.group.iter())
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        notes.push(format!(
            "{name}: {} 个匹配的事件没有 {what} 的值，未计入 / {} matched events had no value for {what} and are not counted in it",
            out.acc.missing, out.acc.missing
        ));
    }
    if out.acc.untimed > 0 {
        notes.push(format!(
            "{name}: {} 个匹配的事件没有时间戳，未计入时间桶 / {} matched events had no timestamp and are not in the buckets",
            out.acc.untimed, out.acc.untimed
        ));
    }
}
