//! Planted-truth checks of fields a query defines from the text (`Query::extract`):
//! distinct ids cut out of request paths, a count per path segment, the Perl pipeline
//! agreeing with the engine, and the errors a bad definition gets; and of a role the sample
//! shows no key for, looked for under the role's keys in every event; and of negative
//! spans of time, which are none.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use llmops_common::query::{
    Extract, Field, Filter, FilterOp, Measure, Query, QueryResult, QueryValue, Scalar,
};

use super::tests_formats::{shell_output, Lcg};
use super::*;

fn run_in(dir: &std::path::Path, name: &str, q: &Query) -> Result<QueryResult, QueryError> {
    let files = vec![QueryFile::new(name, dir.join(name))];
    run_query(&files, q, &QueryOptions::default(), &AtomicBool::new(false))
}

fn extract(name: &str, regex: &str) -> Extract {
    Extract {
        name: name.to_string(),
        regex: regex.to_string(),
        numeric: false,
    }
}

/// An access log whose paths carry prescription ids; the ids of successful refills, and
/// every id the log holds.
fn access_log(seed: u64, n: usize) -> (String, BTreeSet<String>, BTreeSet<String>) {
    let mut rng = Lcg(seed);
    let (mut out, mut refilled, mut all) = (String::new(), BTreeSet::new(), BTreeSet::new());
    for i in 0..n {
        let id = format!("TKT-{}", 4_000_000 + rng.next(300));
        let (method, path) = match rng.next(3) {
            0 => ("POST", format!("/v1/rx/{id}/refill")),
            1 => ("GET", format!("/v1/rx/{id}")),
            _ => ("GET", "/v1/health".to_string()),
        };
        let status = [200, 200, 404, 502][rng.next(4) as usize];
        if path != "/v1/health" {
            all.insert(id.clone());
            if method == "POST" {
                refilled.insert(id);
            }
        }
        let _ = writeln!(
            out,
            "10.0.0.{} - - [17/Feb/2032:01:{:02}:{:02} +0000] \"{method} {path} HTTP/1.1\" {status} {} \"-\" \"okhttp/4.12\"",
            i % 9,
            (i / 60) % 60,
            i % 60,
            100 + i
        );
    }
    (out, refilled, all)
}

#[test]
fn distinct_ids_cut_from_paths_match_the_planted_ids_and_the_perl_check() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (text, refilled, all) = access_log(7, 900);
    std::fs::write(dir.path().join("access.log"), text).expect("write");
    let mut q = Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new("tkt_id")),
        extract: vec![extract("tkt_id", r"\b(TKT-\d+)")],
        ..Query::default()
    };
    let r = run_in(dir.path(), "access.log", &q).expect("query");
    assert_eq!(
        r.value,
        QueryValue::Distinct {
            count: all.len() as u64
        }
    );
    // The answer says how the field was cut out.
    assert!(
        r.described_en
            .contains(r"tkt_id = the part of the event text matching /\b(TKT-\d+)/"),
        "{}",
        r.described_en
    );
    q.filters = vec![
        Filter::new(
            Some(Field::new("method")),
            FilterOp::Eq,
            Scalar::Text("POST".into()),
        ),
        Filter::new(None, FilterOp::Contains, Scalar::Text("/refill".into())),
    ];
    let r = run_in(dir.path(), "access.log", &q).expect("query");
    assert_eq!(
        r.value,
        QueryValue::Distinct {
            count: refilled.len() as u64
        }
    );
    let perl = r.pipeline.as_deref().expect("a Perl check");
    assert_eq!(
        shell_output(dir.path(), perl),
        refilled.len().to_string(),
        "{perl}"
    );
}

#[test]
fn a_path_segment_groups_events_as_planted_and_without_a_group_is_the_whole_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let teams = ["payments", "search", "ledger", "mobile"];
    let mut rng = Lcg(11);
    let (mut text, mut truth) = (String::new(), BTreeMap::<String, u64>::new());
    for i in 0..400 {
        let team = teams[rng.next(4) as usize];
        let rotated = rng.next(3) == 0;
        let what = if rotated { "rotated key" } else { "read key" };
        if rotated {
            *truth.entry(team.to_string()).or_default() += 1;
        }
        let _ = writeln!(
            text,
            "2029-07-03T01:{:02}:{:02}.000Z [INFO]  store: {what}: path=secret/teams/{team}/{:08x}",
            (i / 60) % 60,
            i % 60,
            rng.next(1 << 31)
        );
    }
    std::fs::write(dir.path().join("secrets.log"), text).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            None,
            FilterOp::Contains,
            Scalar::Text("rotated key".into()),
        )],
        group_by: vec![Field::new("team")],
        extract: vec![extract("team", r"secret/teams/([^/\s]+)")],
        limit: Some(10),
        ..Query::default()
    };
    let r = run_in(dir.path(), "secrets.log", &q).expect("query");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    let got: BTreeMap<String, u64> = rows.iter().map(|g| (g.key[0].clone(), g.count)).collect();
    assert_eq!(got, truth);
    // No group: the whole match is the value.
    let q = Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new("team_path")),
        extract: vec![extract("team_path", r"teams/[a-z-]+")],
        ..Query::default()
    };
    let r = run_in(dir.path(), "secrets.log", &q).expect("query");
    assert_eq!(r.value, QueryValue::Distinct { count: 4 });
}

#[test]
fn a_bad_extract_is_refused_with_what_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (text, _, _) = access_log(3, 20);
    std::fs::write(dir.path().join("access.log"), text).expect("write");
    let with = |x: Extract| Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new(x.name.clone())),
        extract: vec![x],
        ..Query::default()
    };
    let cases = [
        (extract("tkt id", r"TKT-\d+"), "letters, digits and _"),
        (extract("status", r"TKT-\d+"), "already a field"),
        (extract("tkt", r"TKT-(\d+"), "bad regex"),
    ];
    for (x, why) in cases {
        let e = run_in(dir.path(), "access.log", &with(x.clone()))
            .expect_err("refused")
            .to_string();
        assert!(e.contains(why), "{x:?}: {e}");
    }
}

/// A JSON log whose errors (with `err.name`) come only after 64 KiB of routine lines.
fn late_errors_log(n_routine: usize) -> (String, BTreeMap<String, u64>) {
    let names = ["SequelizeConnectionError", "TimeoutError"];
    let mut rng = Lcg(3);
    let (mut text, mut truth) = (String::new(), BTreeMap::<String, u64>::new());
    for i in 0..n_routine {
        let _ = writeln!(
            text,
            r#"{{"name":"order-api","hostname":"api-1","pid":1,"level":30,"msg":"request done","req_id":"r{i}","time":"2026-03-14T08:{:02}:{:02}.000Z","v":0}}"#,
            (i / 60) % 60,
            i % 60
        );
    }
    for i in 0..120 {
        let name = names[rng.next(2) as usize];
        *truth.entry(name.to_string()).or_default() += 1;
        let _ = writeln!(
            text,
            r#"{{"name":"order-api","hostname":"api-1","pid":1,"level":50,"msg":"query failed","err":{{"message":"boom","name":"{name}","stack":"{name}: boom\n    at x"}},"time":"2026-03-14T09:{:02}:{:02}.000Z","v":0}}"#,
            (i / 60) % 60,
            i % 60
        );
    }
    (text, truth)
}

#[test]
fn a_role_the_sample_lacks_is_looked_for_under_its_keys_in_every_event() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (text, truth) = late_errors_log(1200);
    assert!(
        text.find("err").is_some_and(|at| at > 64 * 1024),
        "errors past the sample"
    );
    std::fs::write(dir.path().join("order-api.log"), text).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("exception")),
            FilterOp::Eq,
            Scalar::Text("SequelizeConnectionError".into()),
        )],
        ..Query::default()
    };
    let r = run_in(dir.path(), "order-api.log", &q).expect("query");
    assert_eq!(r.matched, truth["SequelizeConnectionError"]);
    assert!(
        r.notes.iter().any(|n| n.contains("err.name")),
        "{:?}",
        r.notes
    );
    let jq = r.pipeline.as_deref().expect("a jq check");
    assert_eq!(
        shell_output(dir.path(), jq),
        truth["SequelizeConnectionError"].to_string(),
        "{jq}"
    );
    let q = Query {
        group_by: vec![Field::new("exception")],
        ..Query::default()
    };
    let r = run_in(dir.path(), "order-api.log", &q).expect("query");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    let got: BTreeMap<String, u64> = rows.iter().map(|g| (g.key[0].clone(), g.count)).collect();
    assert_eq!(got, truth);
}

#[test]
fn a_role_with_a_stand_in_in_the_sample_keeps_its_stand_in() {
    let dir = tempfile::tempdir().expect("tempdir");
    let parts = ["tsdb", "scrape manager", "rules"];
    let mut rng = Lcg(9);
    let (mut text, mut truth) = (String::new(), BTreeMap::<String, u64>::new());
    for i in 0..300 {
        let c = parts[rng.next(3) as usize];
        *truth.entry(c.to_string()).or_default() += 1;
        let _ = writeln!(
            text,
            "ts=2026-03-14T08:{:02}:{:02}.000Z caller=main.go:{i} level=info component=\"{c}\" msg=\"tick\"",
            (i / 60) % 60,
            i % 60
        );
    }
    std::fs::write(dir.path().join("prom.log"), text).expect("write");
    let q = Query {
        group_by: vec![Field::new("logger")],
        ..Query::default()
    };
    let r = run_in(dir.path(), "prom.log", &q).expect("query");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    let got: BTreeMap<String, u64> = rows.iter().map(|g| (g.key[0].clone(), g.count)).collect();
    assert_eq!(got, truth);
    assert!(
        r.notes.iter().all(|n| !n.contains("role's keys")),
        "{:?}",
        r.notes
    );
}

/// HAProxy lines whose `Tr` is `-1` when aborted and Kong lines whose proxy latency is `-1`
/// when not proxied, in `dir`: the spans planted (none for the `-1`s).
fn write_spans(dir: &std::path::Path) -> (Vec<f64>, Vec<f64>) {
    let mut rng = Lcg(61);
    let (mut http, mut json) = (String::new(), String::new());
    let (mut tr, mut proxy) = (Vec::new(), Vec::new());
    for i in 0..300u32 {
        let aborted = rng.next(6) == 0;
        let t = if aborted { -1 } else { rng.next(900) as i64 };
        if !aborted {
            tr.push(t as f64);
        }
        let _ = writeln!(
            http,
            "Jun  3 02:{:02}:{:02} lb01 haproxy[41]: 10.0.0.{}:5{i:04} [03/Jun/2031:02:{:02}:{:02}.{:03}] fe_web be_api/api1 0/0/1/{t}/{} {} 512 - - ---- 3/3/1/1/0 0/0 \"GET /v1/items/{i} HTTP/1.1\"",
            i / 60,
            i % 60,
            rng.next(50),
            i / 60,
            i % 60,
            i,
            t.max(0) + 2,
            if aborted { 503 } else { 200 }
        );
        let p = if aborted { -1 } else { rng.next(400) as i64 };
        if !aborted {
            proxy.push(p as f64);
        }
        let _ = writeln!(
            json,
            "{{\"started_at\":{},\"latencies\":{{\"request\":{},\"proxy\":{p},\"kong\":1}},\"response\":{{\"status\":200}}}}",
            1_930_000_000_000u64 + u64::from(i) * 1000,
            p.max(0) + 1
        );
    }
    std::fs::write(dir.join("haproxy.log"), &http).expect("write");
    std::fs::write(dir.join("kong.json"), &json).expect("write");
    (tr, proxy)
}

/// A span of time is never negative: HAProxy's `-1` timers (a stage never reached) and
/// Kong's `-1` latencies (never proxied) are no value to a statistic, a comparison or the
/// Perl and jq checks, which agree with the engine.
#[test]
fn a_negative_span_of_time_is_none_to_the_engine_and_its_checks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (tr, proxy) = write_spans(dir.path());
    let mean = tr.iter().sum::<f64>() / tr.len() as f64;
    for (name, field, values) in [
        ("haproxy.log", "tr", &tr),
        ("kong.json", "latencies.proxy", &proxy),
    ] {
        let q = Query {
            measure: Measure::Min,
            field: Some(Field::new(field)),
            ..Query::default()
        };
        let r = run_in(dir.path(), name, &q).expect("query");
        let min = values.iter().cloned().fold(f64::MAX, f64::min);
        match &r.value {
            QueryValue::Stat { value, .. } => assert_eq!(*value, Some(min), "{name}"),
            v => panic!("{name}: {v:?}"),
        }
        let check = r.pipeline.as_deref().expect("a check");
        let shown: f64 = shell_output(dir.path(), check)
            .trim()
            .parse()
            .expect("a number");
        assert_eq!(shown, min, "{check}");
        let under = Query {
            filters: vec![Filter::new(
                Some(Field::new(field)),
                FilterOp::Lt,
                Scalar::Number(50.0),
            )],
            ..Query::default()
        };
        let planted = values.iter().filter(|v| **v < 50.0).count() as u64;
        let r = run_in(dir.path(), name, &under).expect("query");
        assert_eq!(r.matched, planted, "{name}");
        let check = r.pipeline.as_deref().expect("a check");
        assert_eq!(
            shell_output(dir.path(), check),
            planted.to_string(),
            "{check}"
        );
    }
    let q = Query {
        measure: Measure::Mean,
        field: Some(Field::new("tr")),
        ..Query::default()
    };
    match run_in(dir.path(), "haproxy.log", &q).expect("query").value {
        QueryValue::Stat { value, .. } => assert!((value.expect("a mean") - mean).abs() < 1e-6),
        v => panic!("{v:?}"),
    }
}

/// `!=` holds of rows that have the field, as SQL's does: a mixed log's lines of another
/// writer (no flags at all) are not "flags other than `-`", in the engine and in the Perl
/// and jq checks.
#[test]
fn not_equal_holds_only_of_rows_that_have_the_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut text, mut json) = (String::new(), String::new());
    let mut flagged = 0u64;
    for i in 0..200u32 {
        if i % 9 == 0 {
            text += &format!(
                "2031-09-16T01:00:{:02}.000000Z\tinfo\tagent line {i}\n",
                i % 60
            );
            json += &format!(
                "{{\"time\":\"2031-09-16T01:00:{:02}Z\",\"msg\":\"agent {i}\"}}\n",
                i % 60
            );
            continue;
        }
        let flags = if i % 7 == 0 {
            flagged += 1;
            "UF"
        } else {
            "-"
        };
        text += &format!("[2031-09-16T01:00:{:02}.000Z] \"GET /x HTTP/1.1\" 200 {flags} via_upstream - \"-\" 0 10 5 4 \"-\" \"curl\" \"r{i}\" \"a:80\" \"10.0.0.1:80\" outbound|80||a 10.0.0.2:1 10.0.0.3:80 10.0.0.4:2 - default\n", i % 60);
        json += &format!(
            "{{\"time\":\"2031-09-16T01:00:{:02}Z\",\"msg\":\"req\",\"flags\":\"{flags}\"}}\n",
            i % 60
        );
    }
    std::fs::write(dir.path().join("istio.log"), &text).expect("write");
    std::fs::write(dir.path().join("app.json"), &json).expect("write");
    for (name, field) in [("istio.log", "response_flags"), ("app.json", "flags")] {
        let q = Query {
            filters: vec![Filter::new(
                Some(Field::new(field)),
                FilterOp::Ne,
                Scalar::Text("-".into()),
            )],
            ..Query::default()
        };
        let r = run_in(dir.path(), name, &q).expect("query");
        assert_eq!(r.matched, flagged, "{name}");
        let check = r.pipeline.as_deref().expect("a check");
        assert_eq!(
            shell_output(dir.path(), check),
            flagged.to_string(),
            "{check}"
        );
    }
}
