//! Multi-line logs cut into parts read on several threads: the parts begin only where an
//! event surely starts, so every answer is the one a single thread gives.

use llmops_common::query::{Field, Measure, Query, QueryValue};
use proptest::prelude::*;

use super::tests_engine::run_in;
use super::QueryOptions;

/// Questions whose answers depend on where each event starts and ends.
fn queries() -> Vec<Query> {
    vec![
        Query::default(),
        Query {
            group_by: vec![Field::new("level")],
            ..Query::default()
        },
        Query {
            measure: Measure::Rows,
            limit: Some(9),
            ..Query::default()
        },
        Query {
            measure: Measure::Buckets,
            ..Query::default()
        },
    ]
}

/// Line pools of multi-line logs: JSON lines with a Go panic and its goroutine lines
/// between them, a JVM log with traces, MySQL's slow log whose header lines lead each
/// entry, and PostgreSQL's lines with `DETAIL:` lines that belong to the error above.
const POOLS: [&[&str]; 4] = [
    &[
        r#"{"time":"2024-05-01T10:00:00Z","level":"info","msg":"served","ms":3}"#,
        r#"{"time":"2024-05-01T10:01:00Z","level":"error","msg":"upstream reset","ms":900}"#,
        "panic: runtime error: index out of range [3] with length 3",
        "goroutine 7 [running]:",
        "\tmain.handler(0x1)",
        "",
    ],
    &[
        "2024-05-01 10:00:00,001 INFO [main] app.Server - started in 2 s",
        "2024-05-01 10:02:00,001 ERROR [pool-1] app.Db - query failed",
        "java.sql.SQLTimeoutException: timed out",
        "\tat app.Db.run(Db.java:42)",
        "Caused by: java.net.SocketTimeoutException: Read timed out",
        "\t... 12 more",
    ],
    &[
        "# Time: 2024-05-01T10:00:00.000000Z",
        "# User@Host: app[app] @ localhost []  Id:    12",
        "# Query_time: 2.500000  Lock_time: 0.000100 Rows_sent: 1  Rows_examined: 90000",
        "SET timestamp=1714557600;",
        "SELECT * FROM orders WHERE note LIKE '%x%';",
        "# Time: 2024-05-01T10:05:00.000000Z",
    ],
    &[
        "2024-05-01 10:00:00.001 UTC [311] LOG:  checkpoint starting: time",
        "2024-05-01 10:01:00.001 UTC [312] ERROR:  duplicate key value violates unique constraint \"u_email\"",
        "2024-05-01 10:01:00.001 UTC [312] DETAIL:  Key (email)=(a@b.c) already exists.",
        "2024-05-01 10:01:00.001 UTC [312] STATEMENT:  INSERT INTO users VALUES (1)",
        "\tcontinued statement text",
        "2024-05-01 10:03:00.001 UTC [313] FATAL:  password authentication failed for user \"x\"",
    ],
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn cutting_a_multi_line_log_into_parts_changes_nothing(
        pool in 0usize..POOLS.len(),
        // The first pick is the pool's first line, so every log is detected as its format.
        picks in proptest::collection::vec(0usize..6, 1..150),
        threads in 2usize..6,
    ) {
        let lines = POOLS[pool];
        let text: String = std::iter::once(0)
            .chain(picks)
            .map(|i| format!("{}\n", lines[i]))
            .collect();
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("m.log"), &text).expect("write");
        let one = QueryOptions { threads: 1, ..QueryOptions::default() };
        let many = QueryOptions { threads, split_min_bytes: 1, ..QueryOptions::default() };
        for q in queries() {
            let a = run_in(dir.path(), &["m.log"], &q, &one);
            let b = run_in(dir.path(), &["m.log"], &q, &many);
            prop_assert_eq!(a, b, "{:?}", q);
        }
    }
}

/// A JSON log with a panic's lines between its objects, large enough to be cut: its event
/// count is the objects plus the panic, on any number of threads.
#[test]
fn a_json_log_cut_into_parts_counts_each_event_once() {
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "{{\"time\":\"2024-05-01T10:{:02}:{:02}Z\",\"level\":\"info\",\"msg\":\"req {i}\"}}\n",
            (i / 60) % 60,
            i % 60
        ));
        if i % 500 == 250 {
            text.push_str("panic: boom\n\ngoroutine 1 [running]:\n\tmain.main()\n");
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("j.log"), &text).expect("write");
    let many = QueryOptions {
        threads: 4,
        split_min_bytes: 1,
        ..QueryOptions::default()
    };
    let r = run_in(dir.path(), &["j.log"], &Query::default(), &many).expect("count");
    assert_eq!(r.value, QueryValue::Count { count: 3006 });
}
