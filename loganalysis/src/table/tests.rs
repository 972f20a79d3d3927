//! Engine tests: every shipped definition's own checks, detection, errors and the query
//! semantics on small planted logs.

use std::sync::atomic::AtomicBool;

use llmops_common::query::{Field, Filter, FilterOp, Measure, Query, QueryValue, Scalar};

use super::event::{Extractor, Schema};
use super::plan::{compile_filter, RowAccess, Table};
use super::registry::{each_event, sample_lines, schema_in};
use super::*;

/// A row view over one event, for the definitions' checks.
struct TestRow<'a, 'f> {
    ex: &'a mut Extractor<'f>,
    text: &'a [u8],
}

impl RowAccess for TestRow<'_, '_> {
    fn val(&mut self, f: usize) -> Option<event::Val<'_>> {
        self.ex.value(self.text, f)
    }
    fn whole(&self) -> &[u8] {
        self.text
    }
    fn time(&mut self) -> Option<crate::ts::Ts> {
        self.ex.time(self.text)
    }
}

#[test]
fn every_shipped_definition_passes_its_own_checks() {
    let reg = Registry::builtin();
    for fmt in reg.formats() {
        assert!(!fmt.tests.is_empty(), "{} has no [[tests]]", fmt.name);
        for t in &fmt.tests {
            let input = t.input.trim_start_matches('\n').as_bytes();
            let det = reg.detect(input);
            assert_eq!(
                reg.formats()[det.format].name,
                fmt.name,
                "detection of {}'s test input",
                fmt.name
            );
            let schema = schema_in(&reg, fmt, input);
            let lines = sample_lines(input);
            let mut all = Vec::new();
            each_event(fmt, &lines, &mut |ev| all.push(ev.text.to_vec()));
            // Directive lines (a W3C header) are read in order and are not events.
            let mut ex = Extractor::new(fmt, &schema);
            let (mut events, mut unparsed, mut first) = (0u64, 0u64, None);
            for e in &all {
                ex.reset();
                if ex.directive(e) {
                    continue;
                }
                events += 1;
                if !ex.parses(e) {
                    unparsed += 1;
                } else if first.is_none() {
                    first = Some(e.as_slice());
                }
            }
            assert_eq!(events, t.events, "{}: events", fmt.name);
            assert_eq!(unparsed, t.unparsed, "{}: unparsed events", fmt.name);
            let first = first.expect("a parsed event");
            check_first_event(fmt, &schema, first, t);
        }
    }
}

#[test]
fn every_definition_file_is_shipped() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("formats");
    let reg = Registry::builtin();
    let names: Vec<&str> = reg.formats().iter().map(|f| f.name.as_str()).collect();
    for entry in std::fs::read_dir(&dir).expect("formats dir") {
        let path = entry.expect("dir entry").path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if ["roles", "tags"].contains(&stem) {
            continue;
        }
        assert!(
            names.contains(&stem),
            "{} is not in the registry",
            path.display()
        );
    }
}

fn check_first_event(fmt: &Format, schema: &Schema, text: &[u8], t: &def::FormatTest) {
    let table = Table {
        name: "test",
        fields: &schema.fields,
        time: schema.time,
        level: schema.level,
        tags: &fmt.tags,
        format: &fmt.name,
        level_map: Some(&fmt.level_map),
    };
    let mut ex = Extractor::new(fmt, schema);
    for (name, want) in &t.fields {
        let r = table
            .resolve(&Field::new(name.as_str()))
            .expect("field resolves");
        ex.reset();
        let got = ex.value(text, r.id).map(|v| v.to_text());
        assert_eq!(
            got.as_deref(),
            Some(want.as_str()),
            "{}: field {name}",
            fmt.name
        );
    }
    if schema.time.is_some() {
        ex.reset();
        assert!(
            ex.time(text).is_some() != t.untimed,
            "{}: the first event has a time",
            fmt.name
        );
    }
    for tag in &t.tags {
        let f = Filter::new(None, FilterOp::Tag, Scalar::Text(tag.clone()));
        let cond = compile_filter(&table, &f, &mut Vec::new()).expect("tag compiles");
        ex.reset();
        let mut row = TestRow { ex: &mut ex, text };
        assert!(cond.holds(&mut row), "{}: tag {tag} holds", fmt.name);
    }
}

#[test]
fn a_bad_definition_names_the_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("mine.toml"),
        "name = \"mine\"\ntitle = \"x\"\n\n[parse]\nkind = \"regex\"\nregex = '(?P<a>[unclosed'\n",
    )
    .expect("write");
    let err = Registry::with_dir(dir.path()).expect_err("bad regex");
    let msg = err.to_string();
    assert!(
        msg.contains("mine.toml") && msg.contains("第 6 行") && msg.contains("line 6"),
        "{msg}"
    );
    std::fs::write(dir.path().join("mine.toml"), "name = 3\n").expect("write");
    let msg = Registry::with_dir(dir.path())
        .expect_err("bad toml")
        .to_string();
    assert!(msg.contains("line 1"), "{msg}");
}

#[test]
fn a_new_format_is_a_definition_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("gateway.toml"),
        r#"name = "gateway"
title = "payment gateway"
[parse]
kind = "pattern"
pattern = '$time|$route|$code|$ms'
time = "time"
[[fields]]
name = "code"
kind = "integer"
roles = ["status"]
[[fields]]
name = "ms"
kind = "number"
unit = "ms"
roles = ["duration"]
[[tests]]
input = "2024-05-01T10:00:00|/pay|502|1500\n"
events = 1
fields = { code = "502" }
"#,
    )
    .expect("write");
    let reg = Registry::with_dir(dir.path()).expect("loads");
    let log = dir.path().join("gw.log");
    std::fs::write(
        &log,
        "2024-05-01T10:00:00|/pay|502|1500\n2024-05-01T10:00:01|/pay|200|80\n2024-05-01T10:00:02|/refund|503|999\n",
    )
    .expect("write");
    let q = Query {
        filters: vec![Filter {
            unit: llmops_common::query::Unit::S,
            ..Filter::new(
                Some(Field::new("duration")),
                FilterOp::Gt,
                Scalar::Number(0.9),
            )
        }],
        ..Query::default()
    };
    let r = run_query_with(
        &reg,
        &[QueryFile::new("gw.log", &log)],
        &q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect("runs");
    assert_eq!(r.sources[0].format, "gateway");
    assert_eq!(r.value, QueryValue::Count { count: 2 });
}

#[test]
fn unknown_fields_list_the_fields_the_log_has() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("a.log");
    std::fs::write(
        &log,
        "10.0.0.1 - - [01/May/2024:10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"\n",
    )
    .expect("write");
    let q = Query {
        measure: Measure::Max,
        field: Some(Field::new("latency")),
        ..Query::default()
    };
    let e = run_query(
        &[QueryFile::new("a.log", &log)],
        &q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect_err("unknown");
    let msg = e.to_string();
    assert!(
        msg.contains("latency") && msg.contains("status") && msg.contains("remote_addr"),
        "{msg}"
    );
    let q = Query {
        measure: Measure::Mean,
        field: Some(Field::new("path")),
        ..Query::default()
    };
    let e = run_query(
        &[QueryFile::new("a.log", &log)],
        &q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect_err("not numeric");
    assert!(matches!(e, QueryError::NotNumeric { .. }), "{e}");
    let q = Query {
        filters: vec![Filter::new(
            None,
            FilterOp::Regex,
            Scalar::Text("(unclosed".into()),
        )],
        ..Query::default()
    };
    let e = run_query(
        &[QueryFile::new("a.log", &log)],
        &q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect_err("bad regex");
    assert!(matches!(e, QueryError::BadRegex { .. }), "{e}");
    let bin = dir.path().join("b.bin");
    std::fs::write(&bin, b"\x00\x01\x02").expect("write");
    let e = run_query(
        &[QueryFile::new("b.bin", &bin)],
        &Query::default(),
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect_err("binary");
    assert!(matches!(e, QueryError::Binary(_)), "{e}");
    let wide = dir.path().join("w.log");
    std::fs::write(&wide, b"\xFF\xFEa\x00b\x00").expect("write");
    let e = run_query(
        &[QueryFile::new("w.log", &wide)],
        &Query::default(),
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect_err("utf-16");
    assert!(matches!(e, QueryError::Utf16(_)), "{e}");
    let missing = dir.path().join("nope.log");
    let e = run_query(
        &[QueryFile::new("nope.log", &missing)],
        &Query::default(),
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect_err("missing");
    assert!(matches!(e, QueryError::NotFound(_)), "{e}");
}

fn run_one(dir: &std::path::Path, name: &str, q: &Query) -> llmops_common::query::QueryResult {
    run_query(
        &[QueryFile::new(name, dir.join(name))],
        q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect("runs")
}

fn sh(dir: &std::path::Path, cmd: &str) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .output()
        .expect("sh");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

const JSON_LINES: [&str; 5] = [
    r#"{"ts":"2024-05-01T10:00:00Z","level":"error","msg":"Payment FAILED","http":{"status":502,"method":"POST"},"latency_ms":1200}"#,
    r#"{"ts":"2024-05-01T10:00:01Z","level":"info","msg":"ok","http":{"status":200,"method":"GET"},"latency_ms":20}"#,
    r#"{"ts":"2024-05-01T10:00:02Z","level":"warning","msg":"payment failed","http":{"status":502,"method":"GET"},"latency_ms":900}"#,
    r#"{"ts":"2024-05-01T10:00:03Z","level":"ERR","msg":"payment failed again","http":{"status":503,"method":"POST"},"latency_ms":3000}"#,
    "{ not json at all",
];

#[test]
fn json_case_rules_and_level_words() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.json"), JSON_LINES.join("\n") + "\n").expect("write");
    let contains = |cs: bool, op: FilterOp| Query {
        filters: vec![Filter {
            case_sensitive: cs,
            ..Filter::new(
                Some(Field::new("message")),
                op,
                Scalar::Text("payment failed".into()),
            )
        }],
        ..Query::default()
    };
    let r = run_one(dir.path(), "app.json", &contains(false, FilterOp::Contains));
    assert_eq!(r.value, QueryValue::Count { count: 3 });
    assert!(r.described_en.contains("case-insensitive") && r.described_zh.contains("不区分大小写"));
    assert_eq!(sh(dir.path(), r.pipeline.as_deref().expect("jq")), "3");
    let r = run_one(dir.path(), "app.json", &contains(true, FilterOp::Contains));
    assert_eq!(r.value, QueryValue::Count { count: 2 });
    assert_eq!(sh(dir.path(), r.pipeline.as_deref().expect("jq")), "2");
    let r = run_one(
        dir.path(),
        "app.json",
        &contains(false, FilterOp::NotContains),
    );
    assert_eq!(
        r.value,
        QueryValue::Count { count: 2 },
        "the ok line and the unparsed line"
    );
    // Level words read as canonical levels: error, ERR -> ERROR; warning -> WARN.
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("level")),
            FilterOp::Eq,
            Scalar::Text("error".into()),
        )],
        ..Query::default()
    };
    let r = run_one(dir.path(), "app.json", &q);
    assert_eq!(r.value, QueryValue::Count { count: 2 });
    assert_eq!(sh(dir.path(), r.pipeline.as_deref().expect("jq")), "2");
}

#[test]
fn json_groups_percentiles_and_fields() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.json"), JSON_LINES.join("\n") + "\n").expect("write");
    let q = Query {
        group_by: vec![Field::new("http.status"), Field::new("method")],
        ..Query::default()
    };
    let r = run_one(dir.path(), "app.json", &q);
    let QueryValue::Groups { rows, groups, .. } = &r.value else {
        panic!("groups")
    };
    assert_eq!(*groups, 4);
    assert_eq!(rows[0].key, vec!["200".to_string(), "GET".to_string()]);
    let out = sh(dir.path(), r.pipeline.as_deref().expect("jq"));
    assert!(
        out.lines().next().is_some_and(|l| l.trim() == "1 200 GET"),
        "{out}"
    );
    let q = Query {
        measure: Measure::P50,
        field: Some(Field::new("duration")),
        filters: vec![Filter::new(
            Some(Field::new("status")),
            FilterOp::Ne,
            Scalar::Number(200.0),
        )],
        ..Query::default()
    };
    let r = run_one(dir.path(), "app.json", &q);
    let QueryValue::Stat { value, unit, n, .. } = &r.value else {
        panic!("stat")
    };
    assert_eq!(
        (*value, *unit, *n),
        (Some(1200.0), llmops_common::query::Unit::Ms, 3)
    );
    assert_eq!(sh(dir.path(), r.pipeline.as_deref().expect("jq")), "1200");
    let r = run_one(
        dir.path(),
        "app.json",
        &Query {
            measure: Measure::Fields,
            ..Query::default()
        },
    );
    assert_eq!(r.value, QueryValue::Fields);
    let f = &r.sources[0].fields;
    let lat = f
        .iter()
        .find(|x| x.name == "latency_ms")
        .expect("latency_ms");
    assert_eq!(
        (lat.roles.clone(), lat.example.as_deref()),
        (vec!["duration".to_string()], Some("1200"))
    );
    assert_eq!(r.sources[0].unparsed, 1);
}

#[test]
fn columns_name_a_logs_own_fields_and_which_ones_measure() {
    let log = br#"{"ts":"2026-03-01T10:00:00Z","level":"INFO","user":{"id":"u-1"},"queue_depth":4,"latency_ms":12.5,"status":200,"orderId":77}
{"ts":"2026-03-01T10:00:01Z","level":"ERROR","user":{"id":"u-2"},"queue_depth":9,"latency_ms":80.0,"status":500,"orderId":78}
"#;
    let cols = columns(builtin_registry(), log);
    let numeric = |name: &str| {
        cols.iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no column {name}: {cols:?}"))
            .numeric
    };
    assert!(numeric("queue_depth"));
    assert!(numeric("latency_ms"));
    assert!(!numeric("status"), "a status code is not a measurement");
    assert!(!numeric("orderId"), "an id is not a measurement");
    assert!(!numeric("user.id"));
    assert!(!numeric("level"));
    assert!(
        cols.iter().any(|c| c.roles.iter().any(|r| r == "time")),
        "{cols:?}"
    );
    // A settings file has no events: no field with times.
    let yaml = b"server:\n  port: 8080\n  read_timeout: 30s\nlogging:\n  level: info\n";
    let cols = columns(builtin_registry(), yaml);
    assert!(
        !cols.iter().any(|c| c.roles.iter().any(|r| r == "time")),
        "{cols:?}"
    );
}

#[test]
fn a_stack_traces_fields_are_the_logs_before_any_trace_occurs() {
    let mut log = String::new();
    for i in 0..30 {
        log.push_str(&format!(
            "2029-03-14 08:00:{i:02},120 - billing.batch - INFO - invoice {i} queued\n"
        ));
    }
    let cols = columns(builtin_registry(), log.as_bytes());
    assert!(
        cols.iter().any(|c| c.name == "exception"),
        "python_logging's exception, from tracebacks later in the file: {cols:?}"
    );
}

#[test]
fn a_specific_format_with_a_few_odd_lines_beats_the_catch_all() {
    let mut log = String::new();
    for i in 0..20 {
        log.push_str(&format!(
            "2024-05-01 10:00:{i:02}.000 UTC [42{i:02}] LOG:  duration: {i}.5 ms  statement: SELECT {i}\n"
        ));
        if i % 10 == 9 {
            log.push_str("some line a wrapper printed\n");
        }
    }
    let reg = Registry::builtin();
    let det = reg.detect(log.as_bytes());
    assert_eq!(reg.formats()[det.format].name, "postgresql");
    assert_eq!((det.parsed, det.lines), (20, 22));
}

#[test]
fn a_column_with_few_values_lists_them_all() {
    let mut log = String::new();
    for i in 0..60 {
        let flags = ["-", "UF", "UO"][i % 3];
        log.push_str(&format!(
            "[2028-01-17T12:00:{:02}.000Z] \"GET /x/{i} HTTP/1.1\" 503 {flags} 0 10 5 5 \"10.0.0.{i}\" \"curl\" \"id{i}\" \"svc\" \"10.1.0.1:80\"\n",
            i % 60
        ));
    }
    let cols = columns(builtin_registry(), log.as_bytes());
    let values = |n: &str| {
        cols.iter()
            .find(|c| c.name == n)
            .map(|c| c.values.clone())
            .unwrap_or_default()
    };
    // `-` is "none", no value.
    assert_eq!(values("response_flags"), ["UF", "UO"]);
    assert_eq!(values("authority"), ["svc"]);
    // Sixty clients are too many to list; a path per request too.
    assert!(values("x_forwarded_for").is_empty());
    assert!(values("path").is_empty());
}

#[test]
fn pino_numeric_levels_read_as_level_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lines = [
        r#"{"level":30,"time":1931525221000,"msg":"job queued"}"#,
        r#"{"level":50,"time":1931525227000,"msg":"job failed"}"#,
        r#"{"level":60,"time":1931525266000,"msg":"worker crashed"}"#,
        r#"{"level":50,"time":1931525299000,"msg":"job failed"}"#,
    ];
    std::fs::write(dir.path().join("w.ndjson"), lines.join("\n") + "\n").expect("write");
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("level")),
            FilterOp::Eq,
            Scalar::Text("error".into()),
        )],
        ..Query::default()
    };
    let r = run_one(dir.path(), "w.ndjson", &q);
    assert_eq!(r.value, QueryValue::Count { count: 2 });
    assert_eq!(sh(dir.path(), r.pipeline.as_deref().expect("jq")), "2");
}

/// A JSON object after a log4j message: its members are fields, and the Perl check counts
/// what the engine counts.
#[test]
fn json_members_after_a_message_count_alike_in_the_engine_and_perl() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    let mut planted = 0u64;
    for i in 0..40u32 {
        let attempt = (i * 7) % 6;
        planted += u64::from(attempt >= 3);
        log.push_str(&format!(
            "2024-05-01 10:00:{:02},123 INFO [main] app.Worker - poll done {{\"station\": \"S-{}\", \"attempt\": {attempt}}}\n",
            i % 60,
            i % 3
        ));
    }
    std::fs::write(dir.path().join("worker.log"), log).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("attempt")),
            FilterOp::Ge,
            Scalar::Number(3.0),
        )],
        ..Query::default()
    };
    let r = run_one(dir.path(), "worker.log", &q);
    assert_eq!(r.value, QueryValue::Count { count: planted });
    let perl = r.pipeline.as_deref().expect("a Perl check");
    assert_eq!(sh(dir.path(), perl), planted.to_string(), "{perl}");
}
