//! Planted-truth checks of the load balancer, uWSGI, PostgreSQL CSV and supervisord
//! formats: generated files with known statuses, durations and events, queried through the
//! engine, compared with counts done by hand.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::AtomicBool;

use llmops_common::query::{
    Field, Filter, FilterOp, Measure, Query, QueryResult, QueryValue, Scalar,
};

use super::*;

/// A small deterministic generator (an LCG), so every run plants the same lines.
pub(super) struct Lcg(pub(super) u64);

impl Lcg {
    pub(super) fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

pub(super) fn run(dir: &std::path::Path, name: &str, q: &Query) -> QueryResult {
    let files = vec![QueryFile::new(name, dir.join(name))];
    run_query(&files, q, &QueryOptions::default(), &AtomicBool::new(false)).expect("query")
}

pub(super) fn count(dir: &std::path::Path, name: &str, filters: Vec<Filter>) -> u64 {
    let q = Query {
        filters,
        ..Query::default()
    };
    run(dir, name, &q).matched
}

pub(super) fn stat(dir: &std::path::Path, name: &str, measure: Measure, field: &str) -> f64 {
    let q = Query {
        measure,
        field: Some(Field::new(field)),
        ..Query::default()
    };
    match run(dir, name, &q).value {
        QueryValue::Stat { value, .. } => value.expect("a value"),
        v => panic!("a statistic: {v:?}"),
    }
}

pub(super) fn groups(
    dir: &std::path::Path,
    name: &str,
    filters: Vec<Filter>,
    by: &str,
) -> BTreeMap<String, u64> {
    let q = Query {
        filters,
        group_by: vec![Field::new(by)],
        limit: Some(100),
        ..Query::default()
    };
    match run(dir, name, &q).value {
        QueryValue::Groups { rows, .. } => rows
            .into_iter()
            .map(|g| (g.key[0].clone(), g.count))
            .collect(),
        v => panic!("groups: {v:?}"),
    }
}

pub(super) fn distinct(dir: &std::path::Path, name: &str, field: &str) -> u64 {
    let q = Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new(field)),
        ..Query::default()
    };
    match run(dir, name, &q).value {
        QueryValue::Distinct { count } => count,
        v => panic!("distinct: {v:?}"),
    }
}

pub(super) fn class(field: &str, c: f64) -> Filter {
    Filter::new(Some(Field::new(field)), FilterOp::Class, Scalar::Number(c))
}

pub(super) fn eq(field: &str, v: &str) -> Filter {
    Filter::new(
        Some(Field::new(field)),
        FilterOp::Eq,
        Scalar::Text(v.into()),
    )
}

pub(super) fn tag(name: &str) -> Filter {
    Filter::new(None, FilterOp::Tag, Scalar::Text(name.into()))
}

/// The nearest-rank percentile: the value at rank ceil(p/100 * n).
pub(super) fn nearest_rank(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.max(1) - 1]
}

/// The timeline of `seconds` around `at`, `limit` rows.
fn timeline_around(
    dir: &std::path::Path,
    name: &str,
    at: &str,
    seconds: u64,
    limit: u32,
) -> Vec<llmops_common::query::Row> {
    let q: Query = serde_json::from_value(serde_json::json!({
        "measure": "timeline", "limit": limit,
        "window": {"around": {"at": at, "seconds": seconds}}
    }))
    .expect("query");
    match run(dir, name, &q).value {
        QueryValue::Timeline { rows, .. } => rows,
        v => panic!("{v:?}"),
    }
}

pub(super) fn format_of(dir: &std::path::Path, name: &str) -> String {
    run(dir, name, &Query::default()).sources[0].format.clone()
}

/// What the shell pipeline `p` prints when run in `dir`, trimmed.
pub(super) fn shell_output(dir: &std::path::Path, p: &str) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(p)
        .current_dir(dir)
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn alb_counts_statuses_clients_and_target_times_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "123456789012_elasticloadbalancing_us-east-1_app.shop.0a1b2c3d_20300211T0815Z_10.0.0.1_x7k2.log";
    let clients = ["198.51.100.4", "198.51.100.9", "203.0.113.50", "192.0.2.77"];
    let paths = ["/cart/items", "/login", "/search", "/"];
    let statuses = [200, 200, 200, 201, 302, 404, 500, 502, 503];
    let mut rng = Lcg(42);
    let mut text = String::new();
    let (mut fives, mut times, mut sent) = (BTreeMap::new(), Vec::new(), 0u64);
    let mut seen_clients = BTreeSet::new();
    for i in 0..500u32 {
        let client = clients[rng.next(4) as usize];
        let path = paths[rng.next(4) as usize];
        let status = statuses[rng.next(9) as usize];
        let bytes = rng.next(50_000);
        // A 502 or 503 from the load balancer itself: the target never answered.
        let no_target = status >= 502 && rng.next(2) == 0;
        let ms = rng.next(3000);
        let (target, ttime, tstatus) = if no_target {
            ("-".to_string(), "-1".to_string(), "-".to_string())
        } else {
            times.push(ms as f64 / 1000.0);
            (
                "10.1.7.41:8080".to_string(),
                format!("{}.{:03}", ms / 1000, ms % 1000),
                status.to_string(),
            )
        };
        if status >= 500 {
            *fives.entry(path.to_string()).or_insert(0u64) += 1;
        }
        sent += bytes;
        seen_clients.insert(client);
        let (m, s) = (i / 60, i % 60);
        text.push_str(&format!(
            "https 2030-02-11T08:{m:02}:{s:02}.{i:06}Z app/shop/0a1b2c3d {client}:{port} {target} 0.001 {ttime} 0.000 {status} {tstatus} 300 {bytes} \"GET https://shop.example.com:443{path}?q={i} HTTP/1.1\" \"curl/8.5.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/shop/0011 \"Root=1-0000-{i}\" \"shop.example.com\" \"-\" 1 2030-02-11T08:{m:02}:{s:02}.000000Z \"forward\" \"-\" \"-\" \"{target}\" \"{tstatus}\" \"-\" \"-\"\n",
            port = 40000 + i
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "aws_alb");
    assert_eq!(
        groups(d, name, vec![class("status", 5.0)], "endpoint"),
        fives
    );
    assert_eq!(distinct(d, name, "client"), seen_clients.len() as u64);
    assert_eq!(stat(d, name, Measure::Sum, "bytes"), sent as f64);
    assert_eq!(
        stat(d, name, Measure::Max, "duration"),
        nearest_rank(&times, 100.0)
    );
    assert_eq!(
        stat(d, name, Measure::P90, "duration"),
        nearest_rank(&times, 90.0)
    );
    let slow = times.iter().filter(|&&t| t > 1.0).count() as u64;
    assert_eq!(count(d, name, vec![tag("slow_request")]), slow);
}

#[test]
fn uwsgi_requests_and_application_lines_share_one_file_with_exact_counts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "api-uwsgi.log";
    let paths = ["/api/items", "/api/items/7", "/health", "/login"];
    let statuses = [200, 200, 200, 204, 400, 404, 500, 502];
    let mut rng = Lcg(7);
    let mut text = String::from("*** Starting uWSGI 2.0.24 (64bit) on [Mon Mar  4 09:59:58 2030] ***\nspawned uWSGI worker 1 (pid: 3101, cores: 1)\n");
    let (mut requests, mut errors, mut apps, mut master) = (0u64, 0u64, 0u64, 2u64);
    let (mut fives, mut msecs) = (BTreeMap::new(), Vec::new());
    for i in 0..400u32 {
        let (m, s) = (i / 60, i % 60);
        match rng.next(10) {
            0 => {
                errors += 1;
                apps += 1;
                text.push_str(&format!(
                    "2030-03-04 10:{m:02}:{s:02},125 ERROR django.request: Internal Server Error: /api/items\nTraceback (most recent call last):\n  File \"/app/views.py\", line 9, in get\n    rows = fetch()\npsycopg2.OperationalError: timeout {i}\n"
                ));
            }
            1 => {
                apps += 1;
                text.push_str(&format!(
                    "2030-03-04 10:{m:02}:{s:02},500 INFO shop.jobs: queued {i} mails\n"
                ));
            }
            2 if i % 7 == 0 => {
                master += 1;
                text.push_str(&format!(
                    "DAMN ! worker 2 (pid: {}) died, killed by signal 9 :( trying respawn ...\n",
                    3200 + i
                ));
            }
            _ => {
                requests += 1;
                let path = paths[rng.next(4) as usize];
                let status = statuses[rng.next(8) as usize];
                let ms = rng.next(2500);
                msecs.push(ms as f64);
                if status >= 500 {
                    *fives.entry(path.to_string()).or_insert(0u64) += 1;
                }
                text.push_str(&format!(
                    "[pid: 3101|app: 0|req: {i}/{r}] 172.20.0.{c} () {{40 vars in 812 bytes}} [Mon Mar  4 10:{m:02}:{s:02} 2030] GET {path}?page={i} => generated {b} bytes in {ms} msecs (HTTP/1.1 {status}) 5 headers in 190 bytes (1 switches on core 0)\n",
                    r = 1000 + i,
                    c = rng.next(5),
                    b = rng.next(9000),
                ));
            }
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "uwsgi");
    let all = run(d, name, &Query::default());
    assert_eq!(all.matched, requests + apps + master);
    assert_eq!(
        all.sources[0].unparsed, 0,
        "every line is a request, application or master line"
    );
    assert_eq!(
        groups(d, name, vec![class("status", 5.0)], "endpoint"),
        fives
    );
    assert_eq!(
        stat(d, name, Measure::P90, "duration"),
        nearest_rank(&msecs, 90.0)
    );
    assert_eq!(
        stat(d, name, Measure::Max, "msecs"),
        nearest_rank(&msecs, 100.0)
    );
    assert_eq!(count(d, name, vec![eq("level", "ERROR")]), errors);
    assert_eq!(
        count(d, name, vec![eq("exception", "psycopg2.OperationalError")]),
        errors
    );
}

#[test]
fn postgresql_csv_rows_span_lines_and_give_durations() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "postgresql-2030-07-19_140000.csv";
    let mut rng = Lcg(99);
    let mut text = String::new();
    let (mut rows, mut errors, mut durations) = (0u64, 0u64, Vec::new());
    let mut clients = BTreeSet::new();
    for i in 0..300u32 {
        rows += 1;
        let (m, s) = (i / 60, i % 60);
        let host = format!("192.0.2.{}", rng.next(6));
        clients.insert(host.clone());
        let head = format!("2030-07-19 14:{m:02}:{s:02}.{i:03} UTC,\"ledger\",\"accounts\",{pid},\"{host}:{port}\",66b1c2f0.8b7,{i},\"SELECT\",2030-07-19 14:00:02 UTC,4/{i},0", pid = 2000 + rng.next(9), port = 50000 + i);
        if rng.next(5) == 0 {
            errors += 1;
            text.push_str(&format!("{head},ERROR,23505,\"duplicate key value violates unique constraint \"\"k{i}\"\"\",\"Key (id)=({i}) already exists.\",,,,,\"INSERT INTO t VALUES ({i})\",,,\"api\",\"client backend\",,0\n"));
        } else {
            let ms = rng.next(4000) as f64 + 0.25;
            durations.push(ms);
            text.push_str(&format!("{head},LOG,00000,\"duration: {ms:.3} ms  statement: SELECT \"\"id\"\"\n\tFROM invoices\n\tWHERE n = {i}\",,,,,,,,,\"api\",\"client backend\",,0\n"));
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "postgresql_csv");
    let all = run(d, name, &Query::default());
    assert_eq!(all.matched, rows);
    assert_eq!(all.sources[0].unparsed, 0);
    assert_eq!(count(d, name, vec![eq("level", "ERROR")]), errors);
    assert_eq!(
        stat(d, name, Measure::Max, "duration"),
        nearest_rank(&durations, 100.0)
    );
    assert_eq!(
        stat(d, name, Measure::P90, "duration_ms"),
        nearest_rank(&durations, 90.0)
    );
    let slow = durations.iter().filter(|&&ms| ms >= 1000.0).count() as u64;
    assert_eq!(count(d, name, vec![tag("slow_query")]), slow);
    assert_eq!(distinct(d, name, "client"), clients.len() as u64);
    // `""` inside a quoted column is one quote, in the statement as in the message.
    let quoted = Filter::new(
        Some(Field::new("statement")),
        FilterOp::Contains,
        Scalar::Text("SELECT \"id\"\n\tFROM".into()),
    );
    assert_eq!(count(d, name, vec![quoted]), durations.len() as u64);
    // The Perl check reads `""` as one quote too.
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("message")),
            FilterOp::Contains,
            Scalar::Text("constraint \"k".into()),
        )],
        ..Query::default()
    };
    let r = run(d, name, &q);
    assert_eq!(r.matched, errors);
    let perl = r.pipeline.as_deref().expect("a Perl check");
    assert_eq!(shell_output(d, perl), errors.to_string(), "{perl}");
}

#[test]
fn supervisord_process_events_are_counted_by_program() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "supervisord.log";
    let programs = ["thumbnailer", "mailer", "indexer"];
    let mut rng = Lcg(5);
    let mut text = String::from("2030-03-04 09:59:59,001 INFO supervisord started with pid 1\n");
    let (mut spawned, mut unexpected, mut gave_up) = (BTreeMap::new(), 0u64, 0u64);
    for i in 0..300u32 {
        let p = programs[rng.next(3) as usize];
        let (m, s) = (i / 60, i % 60);
        let t = format!("2030-03-04 10:{m:02}:{s:02},{:03}", i % 1000);
        match rng.next(4) {
            0 => {
                *spawned.entry(p.to_string()).or_insert(0u64) += 1;
                text.push_str(&format!("{t} INFO spawned: '{p}' with pid {}\n", 500 + i));
            }
            1 => {
                let bad = rng.next(2) == 0;
                unexpected += u64::from(bad);
                let (code, how) = if bad { (1, "not expected") } else { (0, "expected") };
                text.push_str(&format!("{t} INFO exited: {p} (exit status {code}; {how})\n"));
            }
            2 => {
                gave_up += 1;
                text.push_str(&format!("{t} INFO gave up: {p} entered FATAL state, too many start retries too quickly\n"));
            }
            _ => text.push_str(&format!("{t} INFO success: {p} entered RUNNING state, process has stayed up for > than 1 seconds (startsecs)\n")),
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "supervisord");
    assert_eq!(
        groups(d, name, vec![eq("event", "spawned")], "program"),
        spawned
    );
    assert_eq!(count(d, name, vec![tag("unexpected_exit")]), unexpected);
    assert_eq!(
        count(d, name, vec![eq("expected", "not expected")]),
        unexpected
    );
    assert_eq!(count(d, name, vec![eq("event", "gave up")]), gave_up);
}

/// With `log-micros` a uWSGI log writes `usecs`: `duration` is that field, in µs.
#[test]
fn uwsgi_with_log_micros_reads_the_duration_in_microseconds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "micros-uwsgi.log";
    let mut rng = Lcg(11);
    let (mut text, mut usecs) = (String::new(), Vec::new());
    for i in 0..120u32 {
        let us = 200 + rng.next(90_000);
        usecs.push(us as f64);
        text.push_str(&format!(
            "[pid: 77|app: 0|req: {i}/{i}] 10.0.0.{c} () {{30 vars in 500 bytes}} [Mon Mar  4 11:{m:02}:{s:02} 2030] GET /v1/ping => generated 2 bytes in {us} micros (HTTP/1.1 200) 2 headers in 80 bytes (1 switches on core 0)\n",
            c = rng.next(4),
            m = i / 60,
            s = i % 60,
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    let q = Query {
        measure: Measure::P90,
        field: Some(Field::new("duration")),
        ..Query::default()
    };
    let r = run(d, name, &q);
    let QueryValue::Stat { value, unit, .. } = r.value else {
        panic!("a statistic: {:?}", r.value)
    };
    assert_eq!(value, Some(nearest_rank(&usecs, 90.0)));
    assert_eq!(unit, llmops_common::query::Unit::Us);
}

/// PostgreSQL writes an error's DETAIL, HINT and STATEMENT on lines of their own, each
/// with the full prefix: they are one event with the error, so a count of events, a
/// timeline's kinds and the error's text agree with what the server reported.
#[test]
fn postgresql_detail_and_hint_lines_belong_to_their_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "postgresql-16-main.log";
    let mut text = String::new();
    let mut rng = Lcg(7);
    let (mut errors, mut events) = (0u64, 0u64);
    for i in 0..300u32 {
        let t = format!(
            "2031-02-03 04:{:02}:{:02}.{:03} UTC",
            i / 60,
            i % 60,
            rng.next(1000)
        );
        if i % 25 == 7 {
            errors += 1;
            text.push_str(&format!(
                "{t} [41{i:03}] app@shop ERROR:  deadlock detected\n"
            ));
            text.push_str(&format!("{t} [41{i:03}] app@shop DETAIL:  Process 41{i:03} waits for ShareLock on transaction 88; blocked by process 39920.\n"));
            text.push_str(&format!(
                "{t} [41{i:03}] app@shop HINT:  See server log for query details.\n"
            ));
            text.push_str(&format!(
                "{t} [41{i:03}] app@shop STATEMENT:  UPDATE carts SET n = n + 1\n"
            ));
        } else {
            text.push_str(&format!(
                "{t} [52{i:03}] app@shop LOG:  duration: {}.5 ms  statement: SELECT 1\n",
                rng.next(900)
            ));
        }
        events += 1;
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "postgresql");
    assert_eq!(count(d, name, vec![]), events);
    let level = |l: &str| {
        Filter::new(
            Some(Field::new("level")),
            FilterOp::Eq,
            Scalar::Text(l.into()),
        )
    };
    assert_eq!(count(d, name, vec![level("ERROR")]), errors);
    let hint = Filter::new(
        None,
        FilterOp::Contains,
        Scalar::Text("See server log".into()),
    );
    assert_eq!(
        count(d, name, vec![hint]),
        errors,
        "the hint is in its error's text"
    );
}

/// In a timeline of an access log, requests of another status are another kind: the
/// first 503 of a path is shown, not folded into that path's 200s.
#[test]
fn a_timeline_of_requests_keeps_statuses_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "access.log";
    let mut text = String::new();
    let mut rng = Lcg(11);
    for i in 0..600u32 {
        let status = if (300..340).contains(&i) && i % 4 == 0 {
            503
        } else {
            200
        };
        text.push_str(&format!(
            "10.0.{}.{} - - [03/Feb/2031:05:{:02}:{:02} +0000] \"POST /v2/carts/{} HTTP/1.1\" {status} 512 \"-\" \"curl/8\"\n",
            rng.next(4),
            rng.next(200),
            i / 60,
            i % 60,
            rng.next(90)
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let rows = &timeline_around(dir.path(), name, "05:05", 120, 5);
    let failed: Vec<_> = rows.iter().filter(|r| r.text.contains("\" 503 ")).collect();
    assert_eq!(failed.len(), 1, "{rows:?}");
    assert!(
        failed[0].text.contains("05:05:00"),
        "the first 503: {rows:?}"
    );
    assert_eq!(failed[0].repeats.as_ref().map(|x| x.count), Some(10));
}

/// A level asked as the log writes it (`level=warning`, `err`) is the level the events are
/// read at (WARN, ERROR).
#[test]
fn a_level_asked_as_written_matches_its_canonical_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "dispatcher.log";
    let mut text = String::new();
    let mut warnings = 0u64;
    for i in 0..200u32 {
        let level = if i % 7 == 3 {
            warnings += 1;
            "warning"
        } else {
            "info"
        };
        text.push_str(&format!(
            "time=\"2031-02-03T04:{:02}:{:02}Z\" level={level} msg=\"tick\" n={i}\n",
            i / 60,
            i % 60
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let level = |l: &str| {
        Filter::new(
            Some(Field::new("level")),
            FilterOp::Eq,
            Scalar::Text(l.into()),
        )
    };
    for asked in ["warning", "WARN", "Warning"] {
        assert_eq!(
            count(dir.path(), name, vec![level(asked)]),
            warnings,
            "{asked}"
        );
    }
}

#[test]
fn a_numeric_level_asked_as_a_number_matches_pinos_scale() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "bff.log";
    let (mut text, mut errors) = (String::new(), 0u64);
    for i in 0..300u32 {
        let level = [30, 30, 40, 50, 30][(i % 5) as usize];
        errors += u64::from(level == 50);
        text.push_str(&format!(
            "{{\"level\":{level},\"time\":{},\"hostname\":\"bff-{}\",\"msg\":\"request completed\"}}\n",
            1_960_000_000_000u64 + u64::from(i) * 1000,
            i % 3
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    for asked in [Scalar::Number(50.0), Scalar::Text("error".into())] {
        let f = Filter::new(Some(Field::new("level")), FilterOp::Eq, asked.clone());
        assert_eq!(count(dir.path(), name, vec![f]), errors, "{asked:?}");
    }
}

/// In a log of requests, a kind of request rare in the whole file ranks above the steady
/// traffic of the window: the one export at the window's edge shows.
#[test]
fn a_rare_request_ranks_above_the_steady_traffic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "access.log";
    let mut text = String::new();
    let paths = [
        "/",
        "/cart",
        "/api/items",
        "/api/users/7",
        "/static/app.js",
        "/login",
        "/logout",
        "/api/orders",
        "/api/stock",
        "/health",
    ];
    // The export at the window's last second: farther from the asked time than the first
    // event of every steady kind, and no failure, so only its rarity can rank it.
    for i in 0..1800u32 {
        let path = if i == 540 {
            "/admin/export"
        } else {
            paths[(i % 10) as usize]
        };
        let status = 200;
        text.push_str(&format!(
            "10.0.0.{} - - [03/Feb/2031:05:{:02}:{:02} +0000] \"GET {path} HTTP/1.1\" {status} 512 \"-\" \"curl/8\"\n",
            i % 250,
            i / 60 % 60,
            i % 60
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let rows = &timeline_around(dir.path(), name, "05:06", 180, 3);
    assert!(
        rows.iter().any(|r| r.text.contains("/admin/export")),
        "{rows:?}"
    );
}

/// A log of requests that also holds other lines (uWSGI's request lines beside Django's
/// errors and the master's HARAKIRI notes): those lines keep kinds of their own, and a
/// request's parameters (`?clinic=LDN-07&day=…`, different on every line) do not make each
/// request a rare kind of its own.
#[test]
fn lines_that_are_no_request_keep_their_own_kinds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "booking-uwsgi.log";
    let mut text = String::new();
    // A parameter in letters no mask hides, different on every line.
    let word = |i: u32| -> String {
        (0..3)
            .map(|k| char::from(b'a' + ((i / 26u32.pow(k)) % 26) as u8))
            .collect()
    };
    for i in 0..600u32 {
        let (m, s) = (i / 60, i % 60);
        text.push_str(&format!(
            "[pid: 2481{}|app: 0|req: {i}/9{i}] 10.40.2.{} () {{39 vars in 910 bytes}} [Thu Jun  5 02:{m:02}:{s:02} 2031] GET /api/v2/slots/?sort={} => generated 2138 bytes in {} msecs (HTTP/1.1 200) 8 headers in 265 bytes (1 switches on core 0)\n",
            i % 4,
            i % 200,
            word(i),
            100 + i % 50
        ));
        if i % 30 == 0 {
            text.push_str(&format!(
                "Thu Jun  5 02:{m:02}:{s:02} 2031 - *** HARAKIRI ON WORKER 3 (pid: 24813, try: 1, graceful: no) ***\n"
            ));
        }
        if i == 301 {
            text.push_str("2031-06-05 02:05:01,318 ERROR django.request: Internal Server Error: /api/v2/appointments/\n");
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    assert_eq!(format_of(dir.path(), name), "uwsgi");
    let rows = &timeline_around(dir.path(), name, "02:05", 120, 5);
    for said in ["HARAKIRI ON WORKER", "Internal Server Error"] {
        assert!(
            rows.iter().any(|r| r.text.contains(said)),
            "{said}: {rows:?}"
        );
    }
}

#[test]
fn syslog_levels_written_after_the_program_are_counted() {
    let mut rng = Lcg(41);
    let (mut text, mut warn, mut fatal, mut error) = (String::new(), 0u64, 0u64, 0u64);
    for i in 0..400u64 {
        let msg = match rng.next(6) {
            0 => {
                warn += 1;
                "warning: hostname x.example does not resolve to address 192.0.2.7"
            }
            1 => {
                fatal += 1;
                "fatal: open database /etc/aliases.db: No such file"
            }
            2 => {
                error += 1;
                "error: kex_exchange_identification: Connection closed by remote host"
            }
            // A level word inside the text, or in the host's name, is no level.
            3 => "connect from unknown[192.0.2.7]: lost connection after error: none",
            _ => "disconnect from unknown[192.0.2.7] ehlo=1 quit=1 commands=2",
        };
        text += &format!(
            "Mar 14 08:{:02}:{:02} WARN-MX1 postfix/smtpd[{}]: {msg}\n",
            i / 60 % 60,
            i % 60,
            1000 + rng.next(50)
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("maillog"), &text).expect("write");
    assert_eq!(format_of(dir.path(), "maillog"), "syslog_rfc3164");
    for (level, n) in [("WARN", warn), ("FATAL", fatal), ("ERROR", error)] {
        assert_eq!(
            count(dir.path(), "maillog", vec![eq("level", level)]),
            n,
            "{level}"
        );
        // The check shown agrees with the engine, or none is shown.
        let q = Query {
            filters: vec![eq("level", level)],
            ..Query::default()
        };
        if let Some(p) = run(dir.path(), "maillog", &q).pipeline {
            assert_eq!(shell_output(dir.path(), &p), n.to_string(), "{p}");
        }
    }
}

#[test]
fn whole_number_durations_without_a_unit_are_milliseconds_and_long_ones_nanoseconds() {
    let mut rng = Lcg(73);
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut ms_text, mut ns_text, mut max_ms, mut max_ns) =
        (String::new(), String::new(), 0u64, 0u64);
    for i in 0..200u64 {
        let ms = 1 + rng.next(12_000);
        let ns = 1_000_000 + rng.next(9_000_000_000);
        (max_ms, max_ns) = (max_ms.max(ms), max_ns.max(ns));
        ms_text += &format!(
            "{{\"time\":\"2026-03-14T06:00:{:02}.000Z\",\"level\":30,\"msg\":\"handled\",\"latency\":{ms}}}\n",
            i % 60
        );
        ns_text += &format!(
            "{{\"time\":\"2026-03-14T06:00:{:02}.000Z\",\"level\":\"info\",\"msg\":\"handled\",\"Duration\":{ns}}}\n",
            i % 60
        );
    }
    std::fs::write(dir.path().join("ms.log"), &ms_text).expect("write");
    std::fs::write(dir.path().join("ns.log"), &ns_text).expect("write");
    // A statistic is in the field's unit, and says which.
    for (name, max, want) in [
        ("ms.log", max_ms, llmops_common::query::Unit::Ms),
        ("ns.log", max_ns, llmops_common::query::Unit::Ns),
    ] {
        let q = Query {
            measure: Measure::Max,
            field: Some(Field::new("duration")),
            ..Query::default()
        };
        match run(dir.path(), name, &q).value {
            QueryValue::Stat { value, unit, .. } => {
                assert_eq!((value, unit), (Some(max as f64), want), "{name}");
            }
            v => panic!("a statistic: {v:?}"),
        }
    }
}
