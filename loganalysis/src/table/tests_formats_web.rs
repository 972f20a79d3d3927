//! Widely used servers' own logs, planted event by event: Rails' lograge lines behind
//! tagged-logging prefixes, with quoted errors, in milliseconds; Monolog's (Laravel's)
//! `channel.LEVEL` lines with stack traces; zerolog's `dur` in ms; uvicorn's access lines
//! and tracebacks; Postfix deliveries in a syslog mail log; `pm2 logs` by process.

use std::collections::BTreeMap;

use llmops_common::query::{Field, Filter, FilterOp, Measure, Scalar};

use super::tests_formats::{count, eq, format_of, groups, nearest_rank, stat, Lcg};

#[test]
fn lograge_requests_are_read_in_milliseconds_past_their_tags_and_quoted_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "production.log";
    let mut rng = Lcg(41);
    let mut text =
        String::from("=> Booting Puma\n=> Rails 7.1.3 application starting in production\n");
    let (mut durations, mut by_controller, mut errors) = (Vec::new(), BTreeMap::new(), 0u64);
    for i in 0..400u64 {
        let controller = [
            "OrdersController",
            "CartsController",
            "Api::V1::ItemsController",
        ][rng.next(3) as usize];
        let ms = (200 + rng.next(90_000)) as f64 / 100.0;
        let db = (rng.next(5_000)) as f64 / 100.0;
        durations.push(ms);
        *by_controller.entry(controller.to_string()).or_insert(0u64) += 1;
        let error = if i % 37 == 5 {
            errors += 1;
            " error='ActiveRecord::RecordNotFound: Couldn't find Order with 'id'=9'".to_string()
        } else {
            String::new()
        };
        let status = if error.is_empty() { 200 } else { 500 };
        text += &format!(
            "[req-{i:04x}] method=GET path=/orders/{i} format=html controller={controller} action=show status={status}{error} allocations={} duration={ms:.2} view=1.25 db={db:.2} remote_ip=10.0.{}.{}\n",
            rng.next(90_000),
            rng.next(4),
            rng.next(250)
        );
        if i % 100 == 3 {
            text += "Started GET \"/up\" for 127.0.0.1 at 2031-06-03 02:00:00 +0000\n";
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "lograge");
    assert_eq!(
        stat(d, name, Measure::Max, "duration"),
        durations.iter().cloned().fold(0.0, f64::max)
    );
    assert_eq!(
        stat(d, name, Measure::P95, "duration"),
        nearest_rank(&durations, 95.0)
    );
    let status = |v: f64| Filter::new(Some(Field::new("status")), FilterOp::Eq, Scalar::Number(v));
    assert_eq!(count(d, name, vec![status(500.0)]), errors);
    assert_eq!(groups(d, name, Vec::new(), "controller"), by_controller);
}

#[test]
fn monolog_levels_channels_and_stack_traces() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "laravel.log";
    let levels = ["INFO", "INFO", "DEBUG", "WARNING", "ERROR", "CRITICAL"];
    let mut rng = Lcg(43);
    let mut text = String::new();
    let (mut by_level, mut traced) = (BTreeMap::new(), 0u64);
    for i in 0..300u32 {
        let level = levels[rng.next(6) as usize];
        *by_level.entry(level.to_string()).or_insert(0u64) += 1;
        let clock = format!("2031-06-03 02:{:02}:{:02}", i / 60 % 60, i % 60);
        if level == "ERROR" && i % 2 == 0 {
            traced += 1;
            text += &format!(
                "[{clock}] production.ERROR: SQLSTATE[40001]: Deadlock found {{\"exception\":\"[object] (Illuminate\\\\Database\\\\QueryException(code: 40001): Deadlock at /app/Connection.php:760)\n[stacktrace]\n#0 /app/Connection.php(720): Illuminate\\\\Database\\\\Connection->runQueryCallback()\n#1 {{main}}\n\"}}\n"
            );
        } else {
            text +=
                &format!("[{clock}] production.{level}: Order {i} handled {{\"order\":{i}}} []\n");
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "monolog");
    for (level, n) in &by_level {
        let want = match level.as_str() {
            "WARNING" => "WARN",
            l => l,
        };
        assert_eq!(count(d, name, vec![eq("level", want)]), *n, "{level}");
    }
    let exception = groups(d, name, Vec::new(), "exception");
    assert_eq!(
        exception.get("Illuminate\\\\Database\\\\QueryException"),
        Some(&traced),
        "{exception:?}"
    );
}

#[test]
fn zerolog_dur_is_milliseconds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "ledger.log";
    let mut rng = Lcg(47);
    let (mut text, mut durs) = (String::new(), Vec::new());
    for i in 0..300u32 {
        let dur = (1 + rng.next(120_000)) as f64 / 1000.0;
        durs.push(dur);
        text += &format!(
            "{{\"level\":\"info\",\"method\":\"GET\",\"url\":\"/v1/a/{i}\",\"status\":200,\"dur\":{dur},\"time\":\"2031-06-03T02:{:02}:{:02}Z\",\"message\":\"request\"}}\n",
            i / 60,
            i % 60
        );
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    let max = durs.iter().cloned().fold(0.0, f64::max);
    // `stat` reads in the field's own unit: milliseconds, as zerolog writes them.
    assert_eq!(stat(d, name, Measure::Max, "dur"), max);
    let r = super::tests_formats::run(
        d,
        name,
        &llmops_common::query::Query {
            measure: Measure::Max,
            field: Some(Field::new("dur")),
            ..Default::default()
        },
    );
    let llmops_common::query::QueryValue::Stat { unit, .. } = r.value else {
        panic!("a stat");
    };
    assert_eq!(unit, llmops_common::query::Unit::Ms);
}

#[test]
fn uvicorn_access_lines_levels_and_tracebacks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "api.log";
    let mut rng = Lcg(53);
    let mut text = String::from(
        "INFO:     Started server process [1]\nINFO:     Waiting for application startup.\n",
    );
    let (mut by_status, mut clients, mut errors, mut warnings) = (
        BTreeMap::new(),
        std::collections::BTreeSet::new(),
        0u64,
        0u64,
    );
    for i in 0..400u32 {
        match rng.next(10) {
            0 => {
                errors += 1;
                text += "ERROR:    Exception in ASGI application\nTraceback (most recent call last):\n  File \"/app/routes.py\", line 57, in build\n    ratio = a / b\nZeroDivisionError: division by zero\n";
            }
            1 => {
                warnings += 1;
                text += &format!("WARNING:app.db:slow query ({i} ms): SELECT 1\n");
            }
            _ => {
                let status = [200u32, 200, 201, 404, 500][rng.next(5) as usize];
                let client = format!("172.18.{}.{}", rng.next(3), rng.next(20));
                clients.insert(client.clone());
                *by_status.entry(status.to_string()).or_insert(0u64) += 1;
                text += &format!(
                    "INFO:     {client}:{} - \"GET /items/{i} HTTP/1.1\" {status} OK\n",
                    40000 + rng.next(20000)
                );
            }
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "uvicorn");
    assert_eq!(groups(d, name, Vec::new(), "status"), by_status);
    assert_eq!(count(d, name, vec![eq("level", "ERROR")]), errors);
    assert_eq!(count(d, name, vec![eq("level", "WARN")]), warnings);
    assert_eq!(
        super::tests_formats::distinct(d, name, "client"),
        clients.len() as u64
    );
}

#[test]
fn postfix_deliveries_in_a_syslog_mail_log() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "mail.log";
    let mut rng = Lcg(59);
    let mut text = String::new();
    let (mut by_status, mut delays) = (BTreeMap::new(), Vec::new());
    for i in 0..300u64 {
        let q = format!("4{:011X}", 0x9A3_0000 + i * 7919);
        let (m, s) = (i / 60 % 60, i % 60);
        text += &format!("Jun  3 02:{m:02}:{s:02} mx1 postfix/qmgr[1110]: {q}: from=<app@shop.example>, size={}, nrcpt=1 (queue active)\n", 900 + rng.next(9000));
        let status = ["sent", "sent", "sent", "deferred", "bounced"][rng.next(5) as usize];
        let delay = (1 + rng.next(40_000)) as f64 / 1000.0;
        delays.push(delay);
        *by_status.entry(status.to_string()).or_insert(0u64) += 1;
        text += &format!("Jun  3 02:{m:02}:{s:02} mx1 postfix/smtp[40218]: {q}: to=<u{i}@mail.example>, relay=mx.mail.example[192.0.2.7]:25, delay={delay}, delays=0.01/0/0.2/0.1, dsn=2.0.0, status={status} (250 Ok)\n");
        if i % 50 == 0 {
            text += &format!(
                "Jun  3 02:{m:02}:{s:02} mx1 CRON[2211]: (root) CMD (run-parts /etc/cron.hourly)\n"
            );
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "postfix");
    assert_eq!(groups(d, name, Vec::new(), "status"), by_status);
    assert_eq!(
        stat(d, name, Measure::Max, "delay"),
        delays.iter().cloned().fold(0.0, f64::max)
    );
    assert_eq!(super::tests_formats::distinct(d, name, "queue_id"), 300);
}

#[test]
fn pm2_lines_by_process_with_their_stacks_and_requests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "pm2.log";
    let mut rng = Lcg(71);
    let mut text = String::from("[TAILING] Tailing last 15 lines for [all] processes (change the value with --lines option)\nPM2      | 2031-06-03T02:00:00: PM2 log: App [api:0] online\n");
    let (mut events, mut by_app, mut times, mut failed) = (1u64, BTreeMap::new(), Vec::new(), 0u64);
    *by_app.entry("PM2".to_string()).or_insert(0u64) += 1;
    for i in 0..300u32 {
        let t = format!("2031-06-03T02:{:02}:{:02}", i / 60 % 60, i % 60);
        let (id, app) = [(0, "api"), (1, "api"), (2, "worker")][rng.next(3) as usize];
        events += 1;
        *by_app.entry(app.to_string()).or_insert(0u64) += 1;
        if app == "worker" {
            text += &format!(
                "{id}|{app}| {t}: job {i} completed in {}ms\n",
                rng.next(900)
            );
        } else if i % 23 == 4 {
            text += &format!("{id}|{app}   | {t}: Error: connect ECONNREFUSED 10.0.5.20:5432\n{id}|{app}   |     at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {{\n{id}|{app}   |   code: 'ECONNREFUSED',\n{id}|{app}   | }}\n");
        } else {
            let ms = (500 + rng.next(200_000)) as f64 / 1000.0;
            let status = [200u32, 200, 404, 502][rng.next(4) as usize];
            times.push(ms);
            failed += u64::from(status >= 500);
            text += &format!(
                "{id}|{app}   | {t}: GET /api/v1/items/{i} {status} {ms:.3} ms - {}\n",
                rng.next(9000)
            );
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "pm2");
    assert_eq!(
        groups(d, name, Vec::new(), "app").get("worker"),
        by_app.get("worker")
    );
    assert_eq!(
        stat(d, name, Measure::Max, "response_time"),
        times.iter().cloned().fold(0.0, f64::max)
    );
    let status = |v: f64| Filter::new(Some(Field::new("status")), FilterOp::Ge, Scalar::Number(v));
    assert_eq!(count(d, name, vec![status(500.0)]), failed);
    let each = super::tests_formats::run(d, name, &llmops_common::query::Query::default());
    assert_eq!(
        each.sources[0].events,
        events + 1,
        "the banner is one unparsed line"
    );
}

/// Gin's request lines with Go durations in every unit Go writes (`µs`, `ms`, `s`, `1m4s`),
/// an error line below some requests and Go `log` lines between them: statuses, clients and
/// the slowest latency match the planted ones.
#[test]
fn gin_requests_count_statuses_clients_and_go_durations_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "stock-api.log";
    let clients = ["94.15.203.28", "10.20.0.5", "178.151.29.245"];
    let statuses = [200, 200, 201, 404, 409, 500];
    let mut rng = Lcg(7);
    let mut text = String::new();
    let (mut by_client, mut fives, mut secs) = (BTreeMap::new(), 0u64, Vec::new());
    for i in 0..500u32 {
        let client = clients[rng.next(3) as usize];
        let status = statuses[rng.next(6) as usize];
        let us = rng.next(3_000_000) + 1;
        let latency = match i % 3 {
            0 => format!("{}.{:03}µs", us % 1000, us % 997),
            1 => format!("{:.6}ms", us as f64 / 1e3),
            _ => format!("{:.6}s", us as f64 / 1e6),
        };
        secs.push(match i % 3 {
            0 => ((us % 1000) as f64 + (us % 997) as f64 / 1e3) / 1e6,
            1 => (us as f64 / 1e3 * 1e6).round() / 1e6 / 1e3,
            _ => (us as f64 / 1e6 * 1e6).round() / 1e6,
        });
        *by_client.entry(client.to_string()).or_insert(0u64) += 1;
        fives += u64::from(status >= 500);
        text.push_str(&format!(
            "[GIN] 2031/05/01 - 02:{:02}:{:02} | {status} | {latency:>13} | {client:>15} | GET      \"/v1/items/{i}?x=1\"\n",
            i / 60,
            i % 60
        ));
        if status >= 500 {
            text.push_str("Error #01: upstream inventory timed out\n");
        }
        if i % 50 == 0 {
            text.push_str(&format!(
                "2031/05/01 02:{:02}:{:02} sweeper: released 3 holds\n",
                i / 60,
                i % 60
            ));
        }
    }
    // The slowest: a minute and four seconds, as Go writes it.
    text.push_str("[GIN] 2031/05/01 - 03:00:00 | 200 |          1m4s |       10.20.0.5 | GET      \"/v1/reports\"\n");
    *by_client.entry("10.20.0.5".to_string()).or_insert(0u64) += 1;
    secs.push(64.0);
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "gin");
    assert_eq!(groups(d, name, vec![], "client"), by_client);
    let five = Filter::new(
        Some(Field::new("status")),
        FilterOp::Class,
        Scalar::Number(5.0),
    );
    assert_eq!(count(d, name, vec![five]), fives);
    assert_eq!(stat(d, name, Measure::Max, "duration"), 64.0);
    // Grouped by path, a request's query string is no part of it.
    let by_path = groups(d, name, vec![], "path");
    assert_eq!(by_path.get("/v1/items/0"), Some(&1), "{by_path:?}");
    assert!(by_path.keys().all(|k| !k.contains('?')), "{by_path:?}");
    let p50 = stat(d, name, Measure::P50, "duration");
    assert!((p50 - nearest_rank(&secs, 50.0)).abs() < 1e-9, "{p50}");
}
