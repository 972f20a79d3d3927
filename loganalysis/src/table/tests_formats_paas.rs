//! Platform and gateway logs, planted event by event: Heroku's router and dyno lines as
//! `heroku logs` prints them, Kong's file-log JSON (epoch-millisecond start, latencies in
//! ms, nested consumer and service), and a Phoenix app's Elixir Logger lines with error
//! reports below them; an Istio sidecar's access lines among its agent's.

use std::collections::BTreeMap;

use llmops_common::query::{Field, Filter, FilterOp, Measure, Query, QueryValue, Scalar};

use super::tests_formats::{count, eq, format_of, groups, nearest_rank, run, stat, Lcg};

fn status(v: f64) -> Filter {
    Filter::new(Some(Field::new("status")), FilterOp::Eq, Scalar::Number(v))
}

/// The first event's time as the engine reads it.
fn first_time(dir: &std::path::Path, name: &str) -> String {
    let q = Query {
        measure: Measure::Rows,
        field: Some(Field::new("time")),
        order: llmops_common::query::Order::Asc,
        limit: Some(1),
        ..Query::default()
    };
    match run(dir, name, &q).value {
        QueryValue::Rows { rows, .. } => rows[0].time.clone().expect("a time"),
        v => panic!("rows: {v:?}"),
    }
}

#[test]
fn heroku_router_lines_give_the_dyno_the_client_and_the_service_time_in_ms() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "heroku.log";
    let mut rng = Lcg(51);
    let mut text = String::new();
    let (mut service, mut by_dyno, mut errors, mut timeouts, mut quota) =
        (Vec::new(), BTreeMap::new(), 0u64, 0u64, 0u64);
    for i in 0..360u32 {
        let clock = format!(
            "2031-03-04T01:{:02}:{:02}.{:06}+00:00",
            i / 60,
            i % 60,
            i * 7
        );
        let dyno = format!("web.{}", 1 + rng.next(3));
        match rng.next(10) {
            0 => {
                errors += 1;
                text += &format!("{clock} app[{dyno}]: E, [2031-03-04T01:00:00.1 #4] ERROR -- : PG::ConnectionBad: could not connect\n");
            }
            1 if i % 2 == 0 => {
                text += &format!("{clock} heroku[{dyno}]: State changed from up to crashed\n")
            }
            1 => {
                quota += 1;
                errors += 1;
                text += &format!("{clock} heroku[{dyno}]: Error R14 (Memory quota exceeded)\n");
            }
            k => {
                let timeout = k == 2 && i % 3 == 0;
                let ms = if timeout { 30_000 } else { 2 + rng.next(900) };
                let (at, code, st) = if timeout {
                    timeouts += 1;
                    errors += 1;
                    ("error", " code=H12 desc=\"Request timeout\"", 503)
                } else {
                    ("info", "", 200)
                };
                service.push(ms as f64);
                *by_dyno.entry(dyno.clone()).or_insert(0u64) += 1;
                text += &format!(
                    "{clock} heroku[router]: at={at}{code} method=GET path=\"/carts/{i}\" host=shop.herokuapp.com request_id=r{i:05} fwd=\"203.0.113.{}\" dyno={dyno} connect={}ms service={ms}ms status={st} bytes={} protocol=https\n",
                    rng.next(40),
                    rng.next(4),
                    100 + rng.next(5000)
                );
            }
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "heroku");
    assert_eq!(
        stat(d, name, Measure::Max, "duration"),
        service.iter().cloned().fold(0.0, f64::max)
    );
    assert_eq!(
        stat(d, name, Measure::P95, "service"),
        nearest_rank(&service, 95.0)
    );
    assert_eq!(count(d, name, vec![status(503.0)]), timeouts);
    assert_eq!(count(d, name, vec![eq("code", "H12")]), timeouts);
    assert_eq!(count(d, name, vec![eq("code", "R14")]), quota);
    // `at=error` is the router's level, `Error R14` the platform's; the app's lines keep
    // their own.
    assert_eq!(count(d, name, vec![eq("level", "ERROR")]), errors);
    assert_eq!(groups(d, name, Vec::new(), "dyno"), by_dyno);
}

#[test]
fn kong_file_log_starts_in_epoch_ms_and_names_consumers_services_and_latencies() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "kong.json";
    let mut rng = Lcg(53);
    let mut text = String::new();
    let (mut proxy, mut by_consumer, mut by_service, mut limited) =
        (Vec::new(), BTreeMap::new(), BTreeMap::new(), 0u64);
    let start_ms = 1_930_000_000_000u64;
    for i in 0..300u64 {
        let service = ["orders", "catalog", "auth"][rng.next(3) as usize];
        let consumer = ["mobile-app", "partner-x", "web"][rng.next(3) as usize];
        let rejected = consumer == "partner-x" && i % 4 == 0;
        let (st, px) = if rejected {
            limited += 1;
            (429, -1i64)
        } else {
            (200, 1 + rng.next(400) as i64)
        };
        if px >= 0 {
            proxy.push(px as f64);
        }
        *by_consumer.entry(consumer.to_string()).or_insert(0u64) += 1;
        *by_service.entry(service.to_string()).or_insert(0u64) += 1;
        let kong = rng.next(4) as i64;
        text += &format!(
            "{{\"request\":{{\"method\":\"GET\",\"uri\":\"/{service}/{i}\",\"size\":300}},\"client_ip\":\"198.51.100.{}\",\"latencies\":{{\"request\":{},\"kong\":{kong},\"proxy\":{px},\"receive\":0}},\"response\":{{\"status\":{st},\"size\":{}}},\"route\":{{\"id\":\"r-{service}\",\"preserve_host\":false,\"strip_path\":true,\"name\":\"{service}-route\"}},\"service\":{{\"id\":\"s-{service}\",\"name\":\"{service}\",\"read_timeout\":60000,\"created_at\":1810012300}},\"consumer\":{{\"id\":\"c-{consumer}\",\"username\":\"{consumer}\",\"created_at\":1810000000}},\"started_at\":{},\"source\":\"{}\"}}\n",
            rng.next(50),
            px.max(0) + kong,
            200 + rng.next(9000),
            start_ms + i * 1500,
            if rejected { "kong" } else { "upstream" }
        );
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "json_lines");
    // `started_at` is the time, not the route's or the service's `created_at`.
    assert_eq!(first_time(d, name), "2031-02-27T23:06:40.000Z");
    assert_eq!(count(d, name, vec![status(429.0)]), limited);
    let proxied = Filter::new(
        Some(Field::new("latencies.proxy")),
        FilterOp::Ge,
        Scalar::Number(0.0),
    );
    let q = Query {
        measure: Measure::P95,
        field: Some(Field::new("latencies.proxy")),
        filters: vec![proxied],
        ..Query::default()
    };
    match run(d, name, &q).value {
        QueryValue::Stat { value, unit, .. } => {
            assert_eq!(value, Some(nearest_rank(&proxy, 95.0)));
            assert_eq!(unit, llmops_common::query::Unit::Ms);
        }
        v => panic!("stat: {v:?}"),
    }
    assert_eq!(
        groups(d, name, Vec::new(), "consumer.username"),
        by_consumer
    );
    assert_eq!(groups(d, name, Vec::new(), "program"), by_service);
    // A flag is no host or path, whatever its name ends in.
    let paths = groups(d, name, Vec::new(), "path");
    assert!(paths.keys().all(|p| p.starts_with('/')), "{paths:?}");
}

#[test]
fn elixir_logger_lines_give_phoenix_responses_and_error_reports_keep_their_stacks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "phoenix.log";
    let mut rng = Lcg(57);
    let mut text = String::new();
    let (mut durations, mut by_level, mut failed) = (Vec::new(), BTreeMap::new(), 0u64);
    for i in 0..240u32 {
        let clock = format!("2031-03-04 02:{:02}:{:02}.{:03}", i / 60, i % 60, i);
        let rid = format!("request_id=F{i:06}x");
        match rng.next(8) {
            0 => {
                *by_level.entry("ERROR").or_insert(0u64) += 1;
                text += &format!("{clock} {rid} [error] ** (Ecto.NoResultsError) expected at least one result\n\nfrom b0 in Board,\n    (ecto 3.11.1) lib/ecto/repo/queryable.ex:164: Ecto.Repo.Queryable.one!/3\n");
            }
            1 => {
                *by_level.entry("WARN").or_insert(0u64) += 1;
                text += &format!("{clock} {rid} [warning] session expired for user=u{i}\n");
            }
            _ => {
                *by_level.entry("INFO").or_insert(0u64) += 2;
                let st = if i % 9 == 0 { 500 } else { 200 };
                failed += u64::from(st == 500);
                let micros = 100 + rng.next(900_000);
                durations.push(micros as f64 / 1e6);
                let took = if micros < 1000 {
                    format!("{micros}µs")
                } else {
                    format!("{}ms", micros / 1000)
                };
                if micros >= 1000 {
                    *durations.last_mut().expect("pushed") = (micros / 1000) as f64 / 1e3;
                }
                text += &format!("{clock} {rid} [info] GET /boards/{i}\n{clock} {rid} [info] Sent {st} in {took}\n");
            }
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "elixir_logger");
    let levels: BTreeMap<String, u64> = by_level.into_iter().map(|(k, v)| (k.into(), v)).collect();
    assert_eq!(groups(d, name, Vec::new(), "level"), levels);
    assert_eq!(count(d, name, vec![status(500.0)]), failed);
    let max = stat(d, name, Measure::Max, "duration");
    assert!((max - durations.iter().cloned().fold(0.0, f64::max)).abs() < 1e-9);
    let by_exception = groups(d, name, Vec::new(), "exception");
    assert_eq!(by_exception.get("Ecto.NoResultsError"), levels.get("ERROR"));
}

#[test]
fn istio_sidecar_access_lines_among_agent_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "istio-proxy.log";
    let mut rng = Lcg(71);
    let mut text = String::from("2031-09-16T01:00:00.000000Z\tinfo\tFLAG: --concurrency=\"2\"\n");
    let (mut durations, mut by_cluster, mut failed, mut warnings) =
        (Vec::new(), BTreeMap::new(), 0u64, 0u64);
    for i in 0..400u32 {
        let clock = format!("2031-09-16T01:{:02}:{:02}.{:03}Z", i / 60 % 60, i % 60, i);
        if i % 25 == 7 {
            warnings += 1;
            text += &format!("2031-09-16T01:{:02}:{:02}.000000Z\twarning\tenvoy config external/envoy/source/grpc_stream.h:155\tstream closed\tthread=14\n", i / 60 % 60, i % 60);
            continue;
        }
        let cluster = [
            "outbound|8080||orders.shop.svc.cluster.local",
            "inbound|8080||",
            "PassthroughCluster",
        ][rng.next(3) as usize];
        *by_cluster.entry(cluster.to_string()).or_insert(0u64) += 1;
        let ms = 1 + rng.next(2000);
        durations.push(ms as f64);
        let (code, flags) = if rng.next(10) == 0 {
            failed += 1;
            (503, "UF")
        } else {
            (200, "-")
        };
        text += &format!(
            "[{clock}] \"GET /v1/orders/{i} HTTP/1.1\" {code} {flags} via_upstream - \"-\" 0 {} {ms} {} \"-\" \"curl/8.5.0\" \"req-{i}\" \"orders:8080\" \"10.244.2.17:8080\" {cluster} 10.244.2.17:60787 10.96.20.3:8080 10.244.1.{}:43268 - default\n",
            100 + rng.next(9000),
            ms.saturating_sub(1),
            rng.next(200)
        );
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "istio_proxy");
    assert_eq!(
        stat(d, name, Measure::Max, "duration"),
        durations.iter().cloned().fold(0.0, f64::max)
    );
    assert_eq!(
        stat(d, name, Measure::P95, "duration"),
        nearest_rank(&durations, 95.0)
    );
    assert_eq!(count(d, name, vec![status(503.0)]), failed);
    assert_eq!(count(d, name, vec![eq("response_flags", "UF")]), failed);
    assert_eq!(count(d, name, vec![eq("level", "WARN")]), warnings);
    assert_eq!(groups(d, name, Vec::new(), "upstream"), by_cluster);
}
