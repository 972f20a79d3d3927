//! Engine behaviour beyond single operations: threads merge exactly, the size cap,
//! cancellation, in-memory tables, and arbitrary bytes.

use std::sync::atomic::AtomicBool;

use llmops_common::query::{
    Field, FieldInfo, FieldKind, Filter, FilterOp, Measure, Order, Query, QueryResult, QueryValue,
    Scalar, Unit,
};
use proptest::prelude::*;

use super::truth::generate;
use super::*;

pub(super) fn write(
    dir: &std::path::Path,
    name: &str,
    fmt: &'static str,
    seed: u64,
    n: usize,
) -> super::truth::TruthLog {
    let mut f = std::fs::File::create(dir.join(name)).expect("create");
    generate(fmt, seed, n, &mut f).expect("generate")
}

pub(super) fn run_in(
    dir: &std::path::Path,
    names: &[&str],
    q: &Query,
    opts: &QueryOptions,
) -> Result<QueryResult, QueryError> {
    let files: Vec<QueryFile> = names
        .iter()
        .map(|n| QueryFile::new(*n, dir.join(n)))
        .collect();
    run_query(&files, q, opts, &AtomicBool::new(false))
}

fn queries() -> Vec<Query> {
    let mut out = Vec::new();
    let base = Query::default();
    out.push(base.clone());
    out.push(Query {
        filters: vec![Filter::new(
            Some(Field::new("status")),
            FilterOp::Class,
            Scalar::Number(5.0),
        )],
        group_by: vec![Field::new("client")],
        ..base.clone()
    });
    out.push(Query {
        measure: Measure::Max,
        field: Some(Field::new("rt")),
        ..base.clone()
    });
    out.push(Query {
        measure: Measure::Stats,
        field: Some(Field::new("duration")),
        ..base.clone()
    });
    out.push(Query {
        measure: Measure::Rows,
        limit: Some(7),
        ..base.clone()
    });
    out.push(Query {
        measure: Measure::Rows,
        field: Some(Field::new("body_bytes_sent")),
        limit: Some(5),
        ..base.clone()
    });
    out.push(Query {
        measure: Measure::Buckets,
        ..base.clone()
    });
    out.push(Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new("path_only")),
        ..base
    });
    out
}

#[test]
fn threads_merge_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "access.log", "nginx_combined", 3, 5000);
    let one = QueryOptions {
        threads: 1,
        ..QueryOptions::default()
    };
    let four = QueryOptions {
        threads: 4,
        split_min_bytes: 1,
        ..QueryOptions::default()
    };
    for q in queries() {
        let a = run_in(dir.path(), &["access.log"], &q, &one).expect("one thread");
        let b = run_in(dir.path(), &["access.log"], &q, &four).expect("four threads");
        assert_eq!(a, b, "{q:?}");
    }
}

#[test]
fn the_size_cap_stops_at_a_line_end_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let t = write(dir.path(), "access.log", "nginx_combined", 5, 400);
    let cap = t.bytes / 3;
    let opts = QueryOptions {
        max_bytes: cap,
        ..QueryOptions::default()
    };
    let r = run_in(dir.path(), &["access.log"], &Query::default(), &opts).expect("runs");
    let s = &r.sources[0];
    assert!(!s.complete && s.bytes <= cap);
    let text = std::fs::read(dir.path().join("access.log")).expect("read");
    let want = text[..s.bytes as usize]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64;
    assert_eq!(s.lines, want);
    assert_eq!(r.value, QueryValue::Count { count: want });
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains(&format!("first {} bytes", s.bytes))),
        "{:?}",
        r.notes
    );
}

#[test]
fn a_cancelled_query_stops() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "access.log", "nginx_combined", 5, 100);
    let files = [QueryFile::new("access.log", dir.path().join("access.log"))];
    let e = run_query(
        &files,
        &Query::default(),
        &QueryOptions::default(),
        &AtomicBool::new(true),
    )
    .expect_err("cancelled");
    assert_eq!(e, QueryError::Cancelled);
}

fn procs() -> MemTable {
    let f = |name: &str, kind, unit| FieldInfo {
        name: name.into(),
        kind,
        unit,
        roles: Vec::new(),
        example: None,
    };
    let rows = [
        (1, "root", "systemd", "/sbin/init", 12.0, 9_000_000),
        (
            812,
            "www-data",
            "nginx",
            "nginx: worker process",
            3.5,
            40_000_000,
        ),
        (
            813,
            "www-data",
            "nginx",
            "nginx: worker process",
            2.5,
            41_000_000,
        ),
        (
            900,
            "app",
            "python3",
            "python3 /opt/jobs/reindex.py",
            97.0,
            900_000_000,
        ),
        (
            901,
            "root",
            "sshd",
            "sshd: /usr/sbin/sshd -D",
            0.0,
            7_000_000,
        ),
    ];
    MemTable {
        name: "processes".into(),
        fields: vec![
            f("pid", FieldKind::Integer, Unit::None),
            f("user", FieldKind::Text, Unit::None),
            f("name", FieldKind::Text, Unit::None),
            f("command", FieldKind::Text, Unit::None),
            f("cpu_percent", FieldKind::Number, Unit::Percent),
            f("rss_bytes", FieldKind::Integer, Unit::B),
        ],
        rows: rows
            .iter()
            .map(|(pid, user, name, cmd, cpu, rss)| {
                vec![
                    Cell::Int(*pid),
                    Cell::Text(user.to_string()),
                    Cell::Text(name.to_string()),
                    Cell::Text(cmd.to_string()),
                    Cell::Num(*cpu),
                    Cell::Int(*rss),
                ]
            })
            .collect(),
    }
}

#[test]
fn system_tables_share_the_engine() {
    let t = procs();
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("name")),
            FilterOp::Eq,
            Scalar::Text("NGINX".into()),
        )],
        ..Query::default()
    };
    assert_eq!(
        run_table(&t, &q).expect("count").value,
        QueryValue::Count { count: 2 }
    );
    let q = Query {
        measure: Measure::Rows,
        field: Some(Field::new("cpu_percent")),
        order: Order::Desc,
        limit: Some(1),
        ..Query::default()
    };
    let r = run_table(&t, &q).expect("top");
    let QueryValue::Rows { rows, total } = &r.value else {
        panic!("rows")
    };
    assert_eq!(*total, 5);
    assert!(
        rows[0].text.contains("python3 /opt/jobs/reindex.py"),
        "{}",
        rows[0].text
    );
    let q = Query {
        group_by: vec![Field::new("user")],
        ..Query::default()
    };
    let QueryValue::Groups { rows, .. } = run_table(&t, &q).expect("groups").value else {
        panic!("groups")
    };
    assert_eq!((rows[0].key[0].as_str(), rows[0].count), ("root", 2));
    let q = Query {
        measure: Measure::Sum,
        field: Some(Field::new("rss_bytes")),
        filters: vec![Filter {
            unit: Unit::Mib,
            ..Filter::new(
                Some(Field::new("rss_bytes")),
                FilterOp::Gt,
                Scalar::Number(30.0),
            )
        }],
        ..Query::default()
    };
    let QueryValue::Stat { value, .. } = run_table(&t, &q).expect("sum").value else {
        panic!("stat")
    };
    assert_eq!(value, Some(981_000_000.0));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("x.log"), &data).expect("write");
        for q in queries() {
            let _ = run_in(dir.path(), &["x.log"], &q, &QueryOptions::default());
        }
    }

    #[test]
    fn splitting_over_threads_changes_nothing(
        picks in proptest::collection::vec(0usize..6, 1..120),
        threads in 2usize..6,
    ) {
        let lines = [
            "10.0.0.1 - - [01/May/2024:10:00:00 +0000] \"GET /a?x=1 HTTP/1.1\" 200 5 \"-\" \"c\" rt=0.100",
            "10.0.0.2 - - [01/May/2024:10:00:01 +0000] \"POST /b HTTP/1.1\" 503 0 \"-\" \"c\" rt=1.500",
            "10.0.0.1 - - [01/May/2024:10:01:05 +0000] \"GET /b HTTP/1.1\" 500 9 \"-\" \"c\" rt=0.700",
            "garbage line",
            "",
            "10.0.0.3 - - [01/May/2024:10:02:00 +0000] \"GET /c HTTP/1.1\" 404 1 \"-\" \"c\" rt=0.010",
        ];
        let text: String = picks.iter().map(|&i| format!("{}\n", lines[i])).collect();
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.log"), &text).expect("write");
        let one = QueryOptions { threads: 1, ..QueryOptions::default() };
        let many = QueryOptions { threads, split_min_bytes: 1, format: Some("nginx_combined".into()), ..QueryOptions::default() };
        let one = QueryOptions { format: Some("nginx_combined".into()), ..one };
        for q in queries() {
            let a = run_in(dir.path(), &["a.log"], &q, &one);
            let b = run_in(dir.path(), &["a.log"], &q, &many);
            prop_assert_eq!(a, b);
        }
    }
}

/// A group keyed by a message template carries one real line of it (the template hides
/// the host and the numbers); other groupings carry none.
#[test]
fn template_groups_carry_a_line_as_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = "2024-05-01 10:00:00,001 ERROR [main] mail - to relay mx2.relay.example:25 timed out after 30s\n\
               2024-05-01 10:00:01,001 ERROR [main] mail - to relay mx7.relay.example:25 timed out after 31s\n\
               2024-05-01 10:00:02,001 INFO [main] mail - delivered 9f3 to example.org\n";
    std::fs::write(dir.path().join("mail.log"), log).expect("write");
    let q = Query {
        group_by: vec![Field::new("template")],
        ..Query::default()
    };
    let r = run_in(dir.path(), &["mail.log"], &q, &QueryOptions::default()).expect("query");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    assert_eq!(rows[0].count, 2);
    let example = rows[0].example.as_deref().expect("an example line");
    assert!(
        example.contains("mx2.relay.example:25 timed out after 30s"),
        "{example}"
    );
    let q = Query {
        group_by: vec![Field::new("level")],
        ..Query::default()
    };
    let r = run_in(dir.path(), &["mail.log"], &q, &QueryOptions::default()).expect("query");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    assert!(rows.iter().all(|g| g.example.is_none()));
}

/// Grouped by the innermost cause, a group shows the trace's line naming it, message and
/// all (not a stack frame of its class): the class alone does not say what went wrong.
#[test]
fn cause_groups_carry_the_innermost_cause_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for i in 0..3 {
        log.push_str(&format!(
            "2031-04-02 05:40:0{i}.120 [importer-1] ERROR c.e.imp.LedgerImport - import of batch {i} failed\n\
             org.springframework.dao.DataIntegrityViolationException: could not execute statement\n\
             \tat org.hibernate.Session.flush(Session.java:4{i})\n\
             Caused by: java.sql.SQLException: value rejected\n\
             \t... 7 common frames omitted\n\
             Caused by: java.lang.NumberFormatException: For input string: \"12,{i}\"\n\
             \tat java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)\n\
             \t... 11 common frames omitted\n"
        ));
    }
    log.push_str(
        "2031-04-02 05:40:09.100 [importer-1] INFO  c.e.imp.LedgerImport - batch 9 imported\n",
    );
    std::fs::write(dir.path().join("app.log"), &log).expect("write");
    let q = Query {
        group_by: vec![Field::new("cause")],
        ..Query::default()
    };
    let r = run_in(dir.path(), &["app.log"], &q, &QueryOptions::default()).expect("query");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    assert_eq!(rows[0].key, ["java.lang.NumberFormatException"]);
    assert_eq!(rows[0].count, 3);
    let example = rows[0].example.as_deref().expect("the cause's line");
    assert!(
        example.starts_with("Caused by: java.lang.NumberFormatException")
            && example.contains("For input string"),
        "{example}"
    );
}

/// Lines whose time the reader does not know ("10:00:7") still have their level: a count
/// of ERROR matches `grep -c ERROR`, and those events count as having no time.
#[test]
fn a_level_after_a_time_the_reader_does_not_know_still_counts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for i in 1..=25 {
        log.push_str(&format!(
            "2024-05-01T10:00:{} ERROR request {i} failed\n",
            i % 60
        ));
    }
    for i in 1..=40 {
        log.push_str(&format!(
            "2024-05-01T10:01:{} INFO request {i} ok\n",
            i % 60
        ));
    }
    std::fs::write(dir.path().join("plain.log"), &log).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("level")),
            FilterOp::Eq,
            Scalar::Text("ERROR".into()),
        )],
        ..Query::default()
    };
    let r = run_in(dir.path(), &["plain.log"], &q, &QueryOptions::default()).expect("query");
    assert_eq!(r.value, QueryValue::Count { count: 25 }, "{r:?}");
}

/// A JSON log whose keys the roles table does not list by name: `when` holds the time and
/// `sev` the level (read from their values), `req.dur_ms` is a duration in ms and
/// `DownstreamStatus` the status (read from their words). Planted: 30 ERROR of 100 events,
/// 12 status 502 all in minute 04:14, the longest request 9876 ms.
#[test]
fn keys_named_in_a_loggers_own_words_get_their_roles() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for i in 0..100u32 {
        let (minute, status) = if i < 12 { (14, 502) } else { (10 + i % 4, 200) };
        let sev = if i % 10 < 3 { "ERROR" } else { "INFO" };
        let dur = if i == 57 { 9876 } else { 100 + i };
        log.push_str(&format!(
            "{{\"when\":\"2027-03-09T04:{minute:02}:{:02}Z\",\"sev\":\"{sev}\",\"req\":{{\"dur_ms\":{dur}}},\"DownstreamStatus\":{status}}}\n",
            i % 60
        ));
    }
    std::fs::write(dir.path().join("api.jsonl"), &log).expect("write");
    let run = |q: Query| run_in(dir.path(), &["api.jsonl"], &q, &QueryOptions::default());
    let by = |field: &str, op, v: Scalar| vec![Filter::new(Some(Field::new(field)), op, v)];
    let errors = run(Query {
        filters: by("level", FilterOp::Eq, Scalar::Text("ERROR".into())),
        ..Query::default()
    })
    .expect("level");
    assert_eq!(errors.value, QueryValue::Count { count: 30 }, "{errors:?}");
    let bad = run(Query {
        filters: by("status", FilterOp::Eq, Scalar::Number(502.0)),
        measure: Measure::Buckets,
        ..Query::default()
    })
    .expect("status by minute");
    let text = format!("{:?}", bad.value);
    assert!(text.contains("04:14") && text.contains("12"), "{text}");
    let slowest = run(Query {
        measure: Measure::Max,
        field: Some(Field::new("duration")),
        ..Query::default()
    })
    .expect("duration");
    let text = format!("{:?}", slowest.value);
    assert!(text.contains("9876"), "{text}");
}

/// `unit` asked of a journal is every event's `_SYSTEMD_UNIT` (the role), not `UNIT` (set
/// only on systemd's messages about a unit). Planted: 3 errors of a.service, 1 of b.service.
#[test]
fn a_role_asked_by_name_wins_over_a_field_named_alike() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for (i, (unit, prio)) in [
        ("a.service", 3),
        ("a.service", 3),
        ("b.service", 3),
        ("a.service", 3),
        ("b.service", 6),
    ]
    .iter()
    .enumerate()
    {
        log.push_str(&format!(
            "{{\"__REALTIME_TIMESTAMP\":\"18045612{i:02}000000\",\"PRIORITY\":\"{prio}\",\"_SYSTEMD_UNIT\":\"{unit}\",\"SYSLOG_IDENTIFIER\":\"x\",\"MESSAGE\":\"m{i}\"}}\n"
        ));
    }
    log.push_str("{\"__REALTIME_TIMESTAMP\":\"1804561299000000\",\"PRIORITY\":\"6\",\"_SYSTEMD_UNIT\":\"init.scope\",\"UNIT\":\"a.service\",\"SYSLOG_IDENTIFIER\":\"systemd\",\"MESSAGE\":\"Started a\"}\n");
    std::fs::write(dir.path().join("journal.json"), &log).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("level")),
            FilterOp::Eq,
            Scalar::Text("ERROR".into()),
        )],
        group_by: vec![Field::new("unit")],
        ..Query::default()
    };
    let r = run_in(dir.path(), &["journal.json"], &q, &QueryOptions::default()).expect("query");
    let text = format!("{:?}", r.value);
    assert!(
        text.contains("a.service") && text.contains("count: 3"),
        "{text}"
    );
}

/// Traefik's `Duration` is a Go `time.Duration`: nanoseconds. Planted: the slowest request
/// took 1.5 s (1500000000 ns); a `latency` of 0.25 (seconds) keeps its default unit.
#[test]
fn a_go_duration_is_read_in_nanoseconds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for (i, d) in [1_060_583_921u64, 1_500_000_000, 20_000_000]
        .iter()
        .enumerate()
    {
        log.push_str(&format!(
            "{{\"time\":\"2027-03-09T03:30:0{i}Z\",\"Duration\":{d},\"latency\":0.25}}\n"
        ));
    }
    std::fs::write(dir.path().join("traefik.json"), &log).expect("write");
    let max = |field: &str| {
        let q = Query {
            measure: Measure::Max,
            field: Some(Field::new(field)),
            ..Query::default()
        };
        run_in(dir.path(), &["traefik.json"], &q, &QueryOptions::default()).expect("query")
    };
    let r = max("Duration");
    let text = format!("{:?}", r.value);
    assert!(text.contains("1500000000") && text.contains("Ns"), "{text}");
    let r = max("latency");
    assert!(
        format!("{:?}", r.value).contains("unit: S"),
        "{:?}",
        r.value
    );
}

/// `key=value` pairs written inside free-text messages are fields: a count by one of them
/// and a numeric filter on another match a count done by hand over the planted lines, in
/// a klog file (regex message) and in a "time level message" file (the analyser's).
#[test]
fn keys_inside_messages_are_fields_with_exact_counts() {
    use std::collections::BTreeMap;
    let dir = tempfile::tempdir().expect("tempdir");
    let stations = ["KF-PIER-3", "KF-DOCK-1", "KF-YARD-7"];
    let (mut klog, mut plain, mut zap) = (String::new(), String::new(), String::new());
    let mut by_station: BTreeMap<String, u64> = BTreeMap::new();
    let mut retried = 0u64;
    let mut seed = 7u64;
    for i in 0..300u32 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let st = stations[(seed >> 33) as usize % 3];
        let attempt = (seed >> 40) % 6;
        let lvl = if attempt >= 4 { 'E' } else { 'I' };
        let (m, s) = (i / 60, i % 60);
        klog.push_str(&format!(
            "{lvl}0821 17:{m:02}:{s:02}.{i:06}    2231 poller.go:141] \"poll finished\" station=\"{st}\" attempt={attempt}\n"
        ));
        plain.push_str(&format!(
            "2027-08-21 17:{m:02}:{s:02} INFO poll finished (station={st}, attempt={attempt})\n"
        ));
        // zap's console encoder: the fields as a JSON object after the message.
        zap.push_str(&format!(
            "2027-08-21T17:{m:02}:{s:02}.000Z\tINFO\tpoller\tpoll finished\t{{\"station\": \"{st}\", \"attempt\": {attempt}}}\n"
        ));
        *by_station.entry(st.to_string()).or_default() += 1;
        retried += u64::from(attempt >= 3);
    }
    std::fs::write(dir.path().join("poller.log"), &klog).expect("write");
    std::fs::write(dir.path().join("plain.log"), &plain).expect("write");
    std::fs::write(dir.path().join("zap.log"), &zap).expect("write");
    for name in ["poller.log", "plain.log", "zap.log"] {
        let q = Query {
            group_by: vec![Field::new("station")],
            ..Query::default()
        };
        let r = run_in(dir.path(), &[name], &q, &QueryOptions::default()).expect("query");
        let QueryValue::Groups { rows, .. } = &r.value else {
            panic!("groups: {:?}", r.value)
        };
        let got: BTreeMap<String, u64> = rows.iter().map(|g| (g.key[0].clone(), g.count)).collect();
        assert_eq!(got, by_station, "{name}");
        let q = Query {
            filters: vec![Filter::new(
                Some(Field::new("attempt")),
                FilterOp::Ge,
                Scalar::Number(3.0),
            )],
            ..Query::default()
        };
        let r = run_in(dir.path(), &[name], &q, &QueryOptions::default()).expect("query");
        assert_eq!(r.matched, retried, "{name}");
    }
}

/// A tag's numeric alternative needs a field of numbers: a JSON log whose `status` is a
/// word ("done", "failed") is tagged by the words its lines say.
#[test]
fn a_tag_compares_numbers_only_with_a_field_of_numbers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    let mut limited = 0;
    for i in 0..40 {
        let line = if i % 4 == 0 {
            limited += 1;
            format!("{{\"level\":\"warn\",\"ts\":{}.1,\"msg\":\"upload rate limited\",\"tenant\":\"t{}\"}}", 1900000000 + i, i % 3)
        } else {
            format!(
                "{{\"level\":\"info\",\"ts\":{}.1,\"msg\":\"job ended\",\"status\":\"done\"}}",
                1900000000 + i
            )
        };
        log.push_str(&line);
        log.push('\n');
    }
    std::fs::write(dir.path().join("runner.log"), &log).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            None,
            FilterOp::Tag,
            Scalar::Text("rate_limited".into()),
        )],
        ..Query::default()
    };
    let r = run_in(dir.path(), &["runner.log"], &q, &QueryOptions::default()).expect("query");
    assert_eq!(r.matched, limited, "as grep -c 'rate limited' counts");
}

/// Failed logins written as words or as one token (an event's name in a JSON log:
/// `login_failed`, `auth-failure`) are tagged alike; a successful login is not.
#[test]
fn failed_logins_are_tagged_in_words_or_as_one_token() {
    let dir = tempfile::tempdir().expect("tempdir");
    let events = [
        "login",
        "login_failed",
        "logout",
        "auth-failure",
        "signin_failed",
        "token_refresh",
    ];
    let failed = ["login_failed", "auth-failure", "signin_failed"];
    let mut log = String::new();
    let mut planted = 0;
    for i in 0..60 {
        let event = events[i % events.len()];
        planted += u64::from(failed.contains(&event));
        log.push_str(&format!(
            "{{\"ts\":\"2031-03-01T08:00:{i:02}Z\",\"user\":\"u{}\",\"event\":\"{event}\"}}\n",
            i % 7
        ));
    }
    std::fs::write(dir.path().join("auth.json"), &log).expect("write");
    let mut app = String::new();
    for (i, line) in [
        "WARN auth: login failed for u1",
        "INFO auth: u2 logged in",
        "WARN auth: u3 failed to log in: bad token",
        "WARN auth: authentication failure for u4",
    ]
    .iter()
    .enumerate()
    {
        app.push_str(&format!("2031-03-01 08:00:0{i} {line}\n"));
    }
    std::fs::write(dir.path().join("app.log"), &app).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            None,
            FilterOp::Tag,
            Scalar::Text("failed_login".into()),
        )],
        ..Query::default()
    };
    let r = run_in(dir.path(), &["auth.json"], &q, &QueryOptions::default()).expect("query");
    assert_eq!(r.matched, planted);
    let r = run_in(dir.path(), &["app.log"], &q, &QueryOptions::default()).expect("query");
    assert_eq!(r.matched, 3, "every line but the one logged in");
}

/// A time of day the log has not reached on its only day is not moved to the day before,
/// when the log had not begun: nothing is after it, everything before it.
#[test]
fn a_window_past_a_one_day_logs_end_holds_nothing_after_and_all_before() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for i in 0..45 {
        log.push_str(&format!(
            "2031-07-09 14:{:02}:{:02}.000 INFO [main] c.x.Api - served {i}\n",
            i / 3,
            (i % 3) * 20
        ));
    }
    std::fs::write(dir.path().join("api.log"), &log).expect("write");
    let between = |from: Option<&str>, to: Option<&str>| Query {
        window: Some(llmops_common::query::Window::Between {
            from: from.map(|t| llmops_common::query::TimePoint(t.into())),
            to: to.map(|t| llmops_common::query::TimePoint(t.into())),
        }),
        ..Query::default()
    };
    let run =
        |q: Query| run_in(dir.path(), &["api.log"], &q, &QueryOptions::default()).expect("query");
    let after = run(between(Some("14:30"), None));
    assert_eq!(after.matched, 0);
    // The answer says what time the log covers.
    let span = "2031-07-09T14:00:00 to 2031-07-09T14:14:40";
    let said = after.notes.iter().any(|n| n.contains(span));
    assert!(said, "{:?}", after.notes);
    assert_eq!(run(between(None, Some("14:30"))).matched, 45);
    let inside = run(between(Some("14:10"), None));
    assert_eq!(inside.matched, 15, "14:10:00 to 14:14:40");
    let quiet = inside.notes.iter().all(|n| !n.contains("outside"));
    assert!(quiet, "{:?}", inside.notes);
}

/// The same over a log past a MiB, whose first event is read from its head apart from its
/// tail: nothing after 14:30, and the note gives the log's first time.
#[test]
fn a_large_logs_first_event_is_read_from_its_head() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pad = "x".repeat(180);
    let mut log = String::new();
    for i in 0..9000 {
        log.push_str(&format!(
            "2031-07-09 14:{:02}:{:02}.000 INFO [main] c.x.Api - served {i} {pad}\n",
            i / 600,
            (i / 10) % 60
        ));
    }
    assert!(log.len() > 2 << 20, "past the MiB read from the tail");
    std::fs::write(dir.path().join("big.log"), &log).expect("write");
    let q = Query {
        window: Some(llmops_common::query::Window::Between {
            from: Some(llmops_common::query::TimePoint("14:30".into())),
            to: None,
        }),
        ..Query::default()
    };
    let r = run_in(dir.path(), &["big.log"], &q, &QueryOptions::default()).expect("query");
    assert_eq!(r.matched, 0);
    let said = r
        .notes
        .iter()
        .any(|n| n.contains("from 2031-07-09T14:00:00 to"));
    assert!(said, "{:?}", r.notes);
}
