//! Header-declared columns (W3C, Zeek), envelopes (Docker json-file) and Go duration
//! values against planted ground truth from small seeded generators.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use llmops_common::query::{
    Field, Filter, FilterOp, Measure, Order, Query, QueryResult, QueryValue, Scalar,
};

use super::truth::Rng;
use super::*;

fn run(text: &str, q: &Query) -> QueryResult {
    run_sh(text, q).0
}

/// The result, and what its shell pipeline prints when it shows one.
fn run_sh(text: &str, q: &Query) -> (QueryResult, Option<String>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("x.log");
    std::fs::write(&path, text).expect("write");
    let r = run_query(
        &[QueryFile::new("x.log", path)],
        q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .unwrap_or_else(|e| panic!("{q:?}: {e}"));
    let out = r
        .pipeline
        .as_ref()
        .map(|p| super::tests_formats::shell_output(dir.path(), p));
    (r, out)
}

/// The first number a pipeline printed.
fn printed(out: Option<String>) -> f64 {
    let out = out.expect("a pipeline");
    let first = out.split_whitespace().next().unwrap_or_default();
    first
        .parse()
        .unwrap_or_else(|_| panic!("pipeline printed {out:?}"))
}

fn query(measure: Measure, field: Option<&str>, filters: Vec<Filter>) -> Query {
    Query {
        measure,
        field: field.map(Field::new),
        filters,
        ..Query::default()
    }
}

fn eq(field: &str, value: &str) -> Filter {
    Filter::new(
        Some(Field::new(field)),
        FilterOp::Eq,
        Scalar::Text(value.into()),
    )
}

fn count(r: &QueryResult) -> u64 {
    match r.value {
        QueryValue::Count { count } | QueryValue::Distinct { count } => count,
        ref v => panic!("not a count: {v:?}"),
    }
}

fn stat(r: &QueryResult) -> f64 {
    match r.value {
        QueryValue::Stat { value: Some(v), .. } => v,
        ref v => panic!("not a statistic: {v:?}"),
    }
}

fn groups(r: &QueryResult) -> Vec<(String, u64)> {
    match &r.value {
        QueryValue::Groups { rows, .. } => {
            rows.iter().map(|g| (g.key[0].clone(), g.count)).collect()
        }
        v => panic!("not groups: {v:?}"),
    }
}

fn nearest_rank(sorted: &[f64], p: usize) -> f64 {
    sorted[(p * sorted.len()).div_ceil(100).max(1) - 1]
}

/// One planted meter event: (level, site, meter, duration in seconds, duration as written).
type Meter = (&'static str, &'static str, String, f64, String);

fn meter_events(seed: u64, n: usize) -> Vec<Meter> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let level = rng.pick(&["INFO", "INFO", "INFO", "WARN", "ERROR"]);
            let site = rng.pick(&["LON-04", "LON-05", "PAR-01", "FRA-02", "FRA-02"]);
            let meter = format!("MTR-{}", 260_900 + rng.below(40));
            let us = 1 + rng.below(9_000_000);
            let (text, secs) = match rng.below(3) {
                0 => (format!("{us}\u{b5}s"), us as f64 * 1e-6),
                1 => (format!("{}ms", us / 1000), (us / 1000) as f64 * 1e-3),
                _ => (format!("{}s", us as f64 / 1e6), us as f64 / 1e6),
            };
            (level, site, meter, secs, text)
        })
        .collect()
}

fn docker_log(events: &[Meter], json_inner: bool) -> String {
    let mut out = String::new();
    for (i, (level, site, meter, _, dur)) in events.iter().enumerate() {
        let t = format!("2029-03-14T08:{:02}:{:02}", i / 60 % 60, i % 60);
        let inner = if json_inner {
            format!(
                r#"{{\"ts\":\"{t}Z\",\"level\":\"{}\",\"msg\":\"batch flushed\",\"site\":\"{site}\",\"meter_id\":\"{meter}\",\"dur\":\"{dur}\"}}"#,
                level.to_lowercase()
            )
        } else {
            format!(
                r#"time={t}Z level={level} msg=\"batch flushed\" site={site} meter_id={meter} rows={i} dur={dur}"#
            )
        };
        let stream = if *level == "ERROR" {
            "stderr"
        } else {
            "stdout"
        };
        let _ = writeln!(
            out,
            r#"{{"log":"{inner}\n","stream":"{stream}","time":"{t}.358396607Z"}}"#
        );
    }
    out
}

fn check_meters(text: &str, events: &[Meter]) {
    let errors: Vec<&Meter> = events.iter().filter(|e| e.0 == "ERROR").collect();
    let r = run(
        text,
        &query(Measure::Count, None, vec![eq("level", "ERROR")]),
    );
    assert_eq!(r.sources[0].format, "docker_json");
    assert_eq!(count(&r), errors.len() as u64, "count level=ERROR");
    // The level is the inner line's: jq has no one-line equivalent, and none is shown.
    assert!(r.pipeline.is_none(), "{:?}", r.pipeline);
    let stderr = errors.len() as f64;
    let (r, out) = run_sh(
        text,
        &query(Measure::Count, None, vec![eq("stream", "stderr")]),
    );
    assert_eq!(count(&r) as f64, stderr);
    assert_eq!(printed(out), stderr, "jq on the envelope's keys");

    let mut by_site: BTreeMap<&str, u64> = BTreeMap::new();
    for e in &errors {
        *by_site.entry(e.1).or_default() += 1;
    }
    let least = by_site.iter().map(|(k, v)| (*v, *k)).min().expect("a site");
    let mut q = query(Measure::Count, None, vec![eq("level", "ERROR")]);
    q.group_by = vec![Field::new("site")];
    q.order = Order::Asc;
    q.limit = Some(1);
    assert_eq!(groups(&run(text, &q)), vec![(least.1.to_string(), least.0)]);

    let mut durs: Vec<f64> = events.iter().map(|e| e.3).collect();
    durs.sort_by(f64::total_cmp);
    let max = run(text, &query(Measure::Max, Some("dur"), Vec::new()));
    assert_eq!(stat(&max), durs[durs.len() - 1], "max of dur");
    let median = run(text, &query(Measure::P50, Some("dur"), Vec::new()));
    assert_eq!(stat(&median), nearest_rank(&durs, 50), "median of dur");
    let slow = Filter {
        unit: llmops_common::query::Unit::Ms,
        ..Filter::new(
            Some(Field::new("duration")),
            FilterOp::Gt,
            Scalar::Number(1500.0),
        )
    };
    let r = run(text, &query(Measure::Count, None, vec![slow]));
    assert_eq!(
        count(&r),
        events.iter().filter(|e| e.3 > 1.5).count() as u64
    );

    let meters: BTreeSet<&str> = errors.iter().map(|e| e.2.as_str()).collect();
    let r = run(
        text,
        &query(
            Measure::CountDistinct,
            Some("meter_id"),
            vec![eq("level", "ERROR")],
        ),
    );
    assert_eq!(count(&r), meters.len() as u64, "distinct meter_id");
}

#[test]
fn docker_json_file_logs_read_the_inner_logfmt_line() {
    let events = meter_events(11, 600);
    check_meters(&docker_log(&events, false), &events);
}

#[test]
fn docker_json_file_logs_read_an_inner_json_line() {
    let events = meter_events(12, 400);
    check_meters(&docker_log(&events, true), &events);
}

#[test]
fn go_durations_in_json_and_inside_messages_are_durations() {
    let events = meter_events(13, 300);
    let (mut json, mut text, mut kv) = (String::new(), String::new(), String::new());
    for (i, (level, site, _, _, dur)) in events.iter().enumerate() {
        let t = format!("2029-03-14T09:{:02}:{:02}Z", i / 60 % 60, i % 60);
        let _ = writeln!(
            json,
            r#"{{"time":"{t}","level":"{level}","msg":"flushed","site":"{site}","elapsed":"{dur}"}}"#
        );
        let _ = writeln!(text, "{t} {level} batch flushed site={site} dur={dur}");
        let _ = writeln!(
            kv,
            "time={t} level={level} msg=flushed site={site} dur={dur}"
        );
    }
    let mut durs: Vec<f64> = events.iter().map(|e| e.3).collect();
    durs.sort_by(f64::total_cmp);
    for (log, field, format) in [
        (&json, "elapsed", "json_lines"),
        (&text, "dur", "generic"),
        (&kv, "dur", "logfmt"),
    ] {
        let (r, out) = run_sh(log, &query(Measure::P95, Some(field), Vec::new()));
        assert_eq!(r.sources[0].format, format);
        assert_eq!(stat(&r), nearest_rank(&durs, 95), "{format}: p95");
        // jq and Perl read Go durations as the engine does; the analyser's rule has no
        // Perl check.
        if format != "generic" {
            let shown = printed(out);
            assert!(
                (shown - nearest_rank(&durs, 95)).abs() < 1e-6,
                "jq p95 {shown}"
            );
        }
        let r = run(log, &query(Measure::Max, Some(field), Vec::new()));
        assert_eq!(stat(&r), durs[durs.len() - 1], "{format}: max");
    }
}

/// One planted Zeek connection: originator, duration in seconds (or unset), epoch second.
type Conn = (&'static str, Option<f64>, i64);

/// A Zeek conn log and its connections.
fn zeek_log(seed: u64, n: usize) -> (String, Vec<Conn>) {
    let mut rng = Rng::new(seed);
    let mut out = String::from(
        "#separator \\x09\n#set_separator\t,\n#empty_field\t(empty)\n#unset_field\t-\n#path\tconn\n\
         #fields\tts\tuid\tid.orig_h\tid.orig_p\tid.resp_h\tid.resp_p\tproto\tservice\tduration\torig_bytes\tresp_bytes\tconn_state\n\
         #types\ttime\tstring\taddr\tport\taddr\tport\tenum\tstring\tinterval\tcount\tcount\tstring\n",
    );
    let mut truth = Vec::new();
    let mut sec = 1_900_000_000i64;
    for i in 0..n {
        sec += rng.below(20) as i64;
        let orig = rng.pick(&["10.0.0.2", "10.0.0.3", "10.0.0.3", "192.168.1.9"]);
        let dur = rng.chance(80).then(|| (1 + rng.below(90_000)) as f64 / 1e4);
        let d = dur.map_or("-".to_string(), |d| format!("{d}"));
        let _ = writeln!(
            out,
            "{sec}.{:06}\tC{i:08}\t{orig}\t{}\t93.184.216.34\t443\ttcp\t-\t{d}\t0\t0\tSF",
            rng.below(1_000_000),
            40_000 + i
        );
        truth.push((orig, dur, sec));
    }
    out.push_str("#close\t2030-03-17-17-46-40\n");
    (out, truth)
}

#[test]
fn zeek_logs_are_columns_with_epoch_times() {
    let (text, truth) = zeek_log(21, 500);
    let (r, out) = run_sh(&text, &query(Measure::Count, None, Vec::new()));
    assert_eq!(r.sources[0].format, "zeek");
    assert_eq!(count(&r), truth.len() as u64);
    assert_eq!(printed(out), truth.len() as f64, "perl count");
    let mut by: BTreeMap<&str, u64> = BTreeMap::new();
    for t in &truth {
        *by.entry(t.0).or_default() += 1;
    }
    let top = by.iter().map(|(k, v)| (*v, *k)).max().expect("top");
    let mut q = query(Measure::Count, None, Vec::new());
    q.group_by = vec![Field::new("client")];
    q.limit = Some(1);
    assert_eq!(groups(&run(&text, &q)), vec![(top.1.to_string(), top.0)]);
    let mut durs: Vec<f64> = truth.iter().filter_map(|t| t.1).collect();
    durs.sort_by(f64::total_cmp);
    let (r, out) = run_sh(&text, &query(Measure::P90, Some("duration"), Vec::new()));
    assert_eq!(stat(&r), nearest_rank(&durs, 90));
    assert!(
        (printed(out) - nearest_rank(&durs, 90)).abs() < 1e-6,
        "perl p90"
    );
    let mut q = query(Measure::Buckets, None, Vec::new());
    q.bucket = llmops_common::query::BucketWidth::Hour;
    let r = run(&text, &q);
    let QueryValue::Buckets { buckets, .. } = &r.value else {
        panic!("buckets: {:?}", r.value)
    };
    let hours: BTreeSet<i64> = truth.iter().map(|t| t.2 / 3600).collect();
    assert_eq!(buckets.len(), hours.len(), "hour buckets");
}

/// An IIS log of two header blocks: (user or none, agent) per event.
fn iis_log(seed: u64, n: usize) -> (String, Vec<(Option<&'static str>, &'static str)>) {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    let mut truth = Vec::new();
    for i in 0..n {
        if i == 0 || i == n / 2 {
            let fields = if i == 0 {
                "date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken"
            } else {
                "date time c-ip cs-username cs(User-Agent) sc-status time-taken"
            };
            let _ = write!(
                out,
                "#Software: Microsoft Internet Information Services 10.0\r\n#Version: 1.0\r\n#Date: 2029-03-14 08:00:00\r\n#Fields: {fields}\r\n"
            );
        }
        let user = rng.pick(&[
            Some("CORP\\alice"),
            Some("CORP\\bob"),
            None,
            Some("CORP\\alice"),
        ]);
        let agent = rng.pick(&["Mozilla/5.0+(Windows+NT+10.0)", "curl/8.4.0"]);
        let u = user.unwrap_or("-");
        let t = format!("2029-03-14 08:{:02}:{:02}", i / 60 % 60, i % 60);
        if i < n / 2 {
            let _ = write!(
                out,
                "{t} 10.0.0.5 GET /owa/ - 443 {u} 203.0.113.{} {agent} - 200 0 0 {}\r\n",
                i % 7,
                i % 300
            );
        } else {
            let _ = write!(
                out,
                "{t} 203.0.113.{} {u} {agent} 200 {}\r\n",
                i % 7,
                i % 300
            );
        }
        truth.push((user, agent));
    }
    (out, truth)
}

#[test]
fn iis_users_agents_and_first_last_across_header_blocks() {
    let (text, truth) = iis_log(31, 240);
    let users: BTreeSet<&str> = truth.iter().filter_map(|t| t.0).collect();
    let (r, out) = run_sh(
        &text,
        &query(Measure::CountDistinct, Some("user"), Vec::new()),
    );
    assert_eq!(r.sources[0].format, "w3c");
    assert_eq!(count(&r), users.len() as u64);
    assert_eq!(printed(out), users.len() as f64, "perl distinct");
    let curl = truth.iter().filter(|t| t.1 == "curl/8.4.0").count() as u64;
    let mut q = query(Measure::Count, None, Vec::new());
    q.group_by = vec![Field::new("cs(User-Agent)")];
    let got = groups(&run(&text, &q));
    assert!(got.contains(&("curl/8.4.0".to_string(), curl)), "{got:?}");
    assert!(
        got.iter().any(|g| g.0 == "Mozilla/5.0 (Windows NT 10.0)"),
        "{got:?}"
    );
    let mut q = query(Measure::Rows, Some("time"), Vec::new());
    q.order = Order::Desc;
    q.limit = Some(1);
    let QueryValue::Rows { rows, total } = run(&text, &q).value else {
        panic!("rows")
    };
    assert_eq!(total, truth.len() as u64);
    assert_eq!(rows[0].line, text.lines().count() as u64, "last event");
    // A sample that starts after the header still reads IIS's default fields.
    let body: String = text
        .lines()
        .skip(4)
        .take(100)
        .map(|l| format!("{l}\n"))
        .collect();
    let r = run(
        &body,
        &query(Measure::Count, None, vec![eq("client", "203.0.113.3")]),
    );
    assert_eq!(r.sources[0].format, "w3c");
    assert_eq!(count(&r), (0..100).filter(|i| i % 7 == 3).count() as u64);
}
