//! Tags every log has (`formats/tags.toml`), the `template` field and role fallbacks, on
//! small planted logs whose figures are counted by hand below.

use std::sync::atomic::AtomicBool;

use llmops_common::query::{Field, Filter, FilterOp, Measure, Query, QueryValue, Scalar};

use super::*;

fn run(name: &str, text: &str, q: &Query) -> Result<llmops_common::query::QueryResult, QueryError> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    let q = Query {
        files: vec![name.to_string()],
        ..q.clone()
    };
    run_query(
        &[QueryFile::new(name, path)],
        &q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
}

fn tagged(tag: &str) -> Query {
    Query {
        filters: vec![Filter::new(None, FilterOp::Tag, Scalar::Text(tag.into()))],
        ..Query::default()
    }
}

fn count(r: &llmops_common::query::QueryResult) -> u64 {
    match r.value {
        QueryValue::Count { count } => count,
        ref v => panic!("not a count: {v:?}"),
    }
}

const ACCESS: &str = "\
10.0.0.1 - - [01/May/2024:10:00:00 +0000] \"GET /a?x=1 HTTP/1.1\" 200 10 \"-\" \"curl\"
10.0.0.2 - - [01/May/2024:10:00:01 +0000] \"GET /a?x=2 HTTP/1.1\" 502 10 \"-\" \"curl\"
10.0.0.2 - - [01/May/2024:10:00:02 +0000] \"POST /b HTTP/1.1\" 503 10 \"-\" \"curl\"
10.0.0.3 - - [01/May/2024:10:00:03 +0000] \"GET /a HTTP/1.1\" 404 10 \"-\" \"curl\"
";

const APP: &str = "\
2024-05-01 10:00:00 INFO started worker 1
2024-05-01 10:00:01 ERROR upstream pay-gw timed out after 3000ms (order 1234)
2024-05-01 10:00:02 ERROR upstream pay-gw timed out after 2950ms (order 1299)
2024-05-01 10:00:03 WARN retrying order 1299
2024-05-01 10:00:04 FATAL out of memory: killed process 4242
2024-05-01 10:00:05 ERROR redis connection refused (cache.local:6379)
";

#[test]
fn a_failure_is_a_5xx_in_an_access_log_and_error_or_worse_in_an_app_log() {
    let r = run("access.log", ACCESS, &tagged("failure")).expect("runs");
    assert_eq!(count(&r), 2);
    assert!(
        r.resolved.iter().any(|x| x.used == "status"),
        "{:?}",
        r.resolved
    );
    let r = run("app.log", APP, &tagged("failure")).expect("runs");
    assert_eq!(count(&r), 4);
    let r = run("app.log", APP, &tagged("timeout")).expect("runs");
    assert_eq!(count(&r), 2);
    let r = run("app.log", APP, &tagged("oom_kill")).expect("runs");
    assert_eq!(count(&r), 1);
    // A tag no format and no generic table knows is an error that lists the known ones.
    let e = run("app.log", APP, &tagged("no_such_tag")).expect_err("unknown");
    assert!(e.to_string().contains("failure"), "{e}");
}

/// A warning that says something could not be done or went past a limit is trouble
/// (Redis's `Can't save in background`, Kafka's `could not be established`, a quota
/// exceeded); the same words at INFO are not.
#[test]
fn a_warning_that_something_could_not_be_done_is_trouble() {
    let log = "\
2024-05-01 10:00:00 WARN Can't save in background: fork: Cannot allocate memory
2024-05-01 10:00:01 WARN Connection to node 1 could not be established. Broker may not be available.
2024-05-01 10:00:02 WARN slow response from cache (120 ms)
2024-05-01 10:00:03 INFO cannot find optional config, using defaults
2024-05-01 10:00:04 WARN disk quota exceeded on /data, volume now read-only
";
    let r = run("svc.log", log, &tagged("trouble")).expect("runs");
    assert_eq!(count(&r), 3);
}

#[test]
fn the_template_groups_messages_that_differ_only_in_numbers() {
    let q = Query {
        measure: Measure::Count,
        group_by: vec![Field::new("template")],
        ..Query::default()
    };
    let r = run("app.log", APP, &q).expect("runs");
    let QueryValue::Groups { rows, groups, .. } = &r.value else {
        panic!("{:?}", r.value)
    };
    assert_eq!(*groups, 5);
    assert_eq!(rows[0].count, 2);
    assert!(
        rows[0].key[0].contains("timed out after <dur>"),
        "{:?}",
        rows[0]
    );
    assert!(r.pipeline.is_none(), "a template has no shell equivalent");
}

#[test]
fn an_endpoint_falls_back_to_the_path_and_drops_the_query_string() {
    let q = Query {
        measure: Measure::Count,
        group_by: vec![Field::new("endpoint")],
        ..Query::default()
    };
    let r = run("access.log", ACCESS, &q).expect("runs");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("{:?}", r.value)
    };
    assert_eq!((rows[0].key[0].as_str(), rows[0].count), ("/a", 3));
}

/// A format's own tag is counted and described as that format defines it: MongoDB's slow
/// operations are the lines it logged as slow, whatever their duration.
#[test]
fn a_formats_own_tag_is_counted_and_described_as_its_own() {
    let mut log = String::new();
    for (i, (msg, ms)) in [
        ("Slow query", 150),
        ("Slow query", 2300),
        ("Connection accepted", 0),
    ]
    .iter()
    .enumerate()
    {
        log.push_str(&format!(
            "{{\"t\":{{\"$date\":\"2027-08-21T17:00:0{i}.000+00:00\"}},\"s\":\"I\",\"c\":\"COMMAND\",\"ctx\":\"conn{i}\",\"msg\":\"{msg}\",\"attr\":{{\"durationMillis\":{ms}}}}}\n"
        ));
    }
    let r = run("mongod.log", &log, &tagged("slow_query")).expect("runs");
    assert_eq!(
        count(&r),
        2,
        "both lines MongoDB logged as slow, not only the one over 1 s"
    );
    assert!(
        r.described_en.contains("MongoDB logged as slow"),
        "{}",
        r.described_en
    );
    assert!(!r.described_en.contains("one second"), "{}", r.described_en);
}

/// "How many accounts failed to log in": auditd's `acct` is the account, `uid` the user id
/// of the process (root for sshd); the user role reads the account.
#[test]
fn the_user_of_an_audit_record_is_its_account() {
    let line = |acct: &str, serial: u32| {
        format!("type=USER_AUTH msg=audit(1831723200.060:{serial}): pid=51753 uid=0 auid=0 ses=9747 subj=unconfined msg='op=PAM:authentication grantors=? acct=\"{acct}\" exe=\"/usr/sbin/sshd\" hostname=192.0.2.211 addr=192.0.2.211 terminal=ssh res=failed'\n")
    };
    let log: String = [("alice", 1), ("bob", 2), ("alice", 3), ("carol", 4)]
        .iter()
        .map(|(a, s)| line(a, *s))
        .collect();
    let q = Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new("user")),
        ..tagged("failed_login")
    };
    let r = run("audit.log", &log, &q).expect("runs");
    assert_eq!(
        r.value,
        llmops_common::query::QueryValue::Distinct { count: 3 },
        "{:?}",
        r.resolved
    );
}

#[test]
fn a_redis_failure_is_a_warning_that_says_something_failed() {
    let log = "\
2241:M 21 Aug 2027 17:00:00.021 # WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128.
2241:M 21 Aug 2027 17:00:00.022 * Ready to accept connections tcp
2241:M 21 Aug 2027 17:05:00.001 * Background saving started by pid 2302
2302:C 21 Aug 2027 17:05:00.104 # Write error saving DB on disk: No space left on device
2241:M 21 Aug 2027 17:05:00.210 # Background saving error
2241:M 21 Aug 2027 17:05:01.002 # MISCONF Errors writing to the AOF file: No space left on device
2241:M 21 Aug 2027 17:06:00.000 * 1 changes in 60 seconds. Saving...
";
    let r = run("redis.log", log, &tagged("failure")).expect("runs");
    assert_eq!(r.sources[0].format, "redis");
    assert_eq!(
        count(&r),
        3,
        "the three failures, not the start-up advisory"
    );
}

/// A job runner that writes each failed run as an `INFO: fail` outcome line (Sidekiq):
/// those are failures, counted per job as `grep -c 'class=X .*INFO: fail$'` counts them;
/// a message that only mentions a failure is not one.
#[test]
fn a_jobs_bare_fail_outcome_is_a_failure_whatever_its_level() {
    let mut log = String::new();
    let mut planted = std::collections::BTreeMap::new();
    for i in 0..40u32 {
        let class = ["MailJob", "SyncJob", "ReportJob"][(i % 3) as usize];
        log.push_str(&format!(
            "2031-02-03T04:05:{:02}.100Z pid=9 tid=t{i}k class={class} jid=ab{i:04}cd INFO: start\n",
            i % 60
        ));
        let outcome = if i % 4 == 0 { "fail" } else { "done" };
        log.push_str(&format!(
            "2031-02-03T04:05:{:02}.900Z pid=9 tid=t{i}k class={class} jid=ab{i:04}cd elapsed=0.8 INFO: {outcome}\n",
            i % 60
        ));
        if outcome == "fail" {
            *planted.entry(class).or_insert(0u64) += 1;
        }
    }
    log.push_str(
        "2031-02-03T04:06:00.000Z pid=9 tid=zz INFO: retry of the failed jobs scheduled\n",
    );
    let q = Query {
        group_by: vec![Field::new("class")],
        ..tagged("failure")
    };
    let r = run("sidekiq.log", &log, &q).expect("runs");
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    let got: std::collections::BTreeMap<&str, u64> =
        rows.iter().map(|g| (g.key[0].as_str(), g.count)).collect();
    assert_eq!(got, planted, "{rows:?}");
}

/// An app that logs its requests' status among its own lines: a failure there is a 5xx
/// request or an ERROR line, as `grep -cE '"status": 5|"level": "error"'` counts.
#[test]
fn a_failure_in_a_log_with_a_status_and_levels_is_either() {
    let log = r#"{"ts": "2036-04-09T01:02:03Z", "level": "info", "msg": "request", "status": 200}
{"ts": "2036-04-09T01:02:05Z", "level": "error", "msg": "cache refresh failed"}
{"ts": "2036-04-09T01:02:06Z", "level": "info", "msg": "request", "status": 504}
{"ts": "2036-04-09T01:02:07Z", "level": "warn", "msg": "retrying after a timeout"}
{"ts": "2036-04-09T01:02:08Z", "level": "info", "msg": "request", "status": 503}
"#;
    let r = run("app.json", log, &tagged("failure")).expect("runs");
    assert_eq!(count(&r), 3);
}

/// A crash is a runtime's own report (Go's `fatal error:` under the last request, a
/// recovered panic, an uncaught exception), not a line that only names a crash report page.
#[test]
fn a_crash_is_a_runtimes_report_of_one() {
    let text = "\
2031/05/01 02:00:01 listening on :8080
2031/05/01 02:00:02 [Recovery] 2031/05/01 - 02:00:02 panic recovered:
runtime error: index out of range [3] with length 3
2031/05/01 02:00:03 GET /v1/crash-reports 200
2031/05/01 02:00:04 serving
fatal error: all goroutines are asleep - deadlock!

goroutine 7 [running]:
2031/05/01 02:00:09 listening on :8080
";
    let r = run("api.log", text, &tagged("crash")).expect("runs");
    // The recovered panic, and the dump under the line before it; not the crash-reports path.
    assert_eq!(count(&r), 2);
}
