//! The incident summary end to end through the planner, with the real log engine over
//! planted logs: its figures are checked against the counts the fixtures were built with.

use std::fmt::Write as _;

use super::{load_fixtures, run_turn};

/// An access log with 5xx at 02:45 (3), 02:47 (40) and 02:50 (2) among 200 requests, an
/// app log with ERROR lines at 02:44 (1) and 02:47 (12 read timeouts), and an nginx.conf
/// that sets two timeouts.
fn plant(dir: &std::path::Path) {
    let mut access = String::new();
    let five = |minute: u32, i: u32| match minute {
        45 => i < 3,
        47 => i < 40,
        50 => i < 2,
        _ => false,
    };
    for minute in 40..55u32 {
        let n = if minute == 47 { 60 } else { 10 };
        for i in 0..n {
            let status = if five(minute, i) { 504 } else { 200 };
            writeln!(
                access,
                "10.0.0.{} - - [30/Nov/2026:02:{minute:02}:{:02} +0000] \"GET /api/pay HTTP/1.1\" {status} 512 \"-\" \"curl/8\"",
                i % 7 + 1,
                i % 60
            )
            .expect("write to a string");
        }
    }
    let mut app = String::new();
    for minute in 40..55u32 {
        writeln!(
            app,
            "2026-11-30 02:{minute:02}:00 INFO payment worker alive"
        )
        .expect("write");
        if minute == 44 {
            writeln!(app, "2026-11-30 02:44:30 ERROR cache refresh failed").expect("write");
        }
        if minute == 47 {
            for s in 0..12 {
                writeln!(
                    app,
                    "2026-11-30 02:47:{:02} ERROR gateway read timed out after 30000 ms",
                    s * 4
                )
                .expect("write");
            }
        }
    }
    std::fs::write(dir.join("access.log"), access).expect("write access.log");
    std::fs::write(dir.join("app.log"), app).expect("write app.log");
    std::fs::write(
        dir.join("nginx.conf"),
        "http {\n  upstream pay { server 10.0.1.5:8080; }\n  server {\n    location /api/ {\n      proxy_pass http://pay;\n      proxy_connect_timeout 5s;\n      proxy_read_timeout 30s;\n    }\n  }\n}\n",
    )
    .expect("write nginx.conf");
}

#[test]
fn what_went_wrong_lines_up_every_log_by_minute_with_evidence_and_the_configured_timeouts() {
    let dir = tempfile::tempdir().expect("temp dir");
    plant(dir.path());
    let fx = load_fixtures(dir.path());
    for (question, total, worst) in [
        (
            "what went wrong?",
            "**58** events tell of trouble",
            "failing together most, was **2026-11-30T02:47** with 52",
        ),
        (
            "总结一下这次故障",
            "共 **58** 个出错事件",
            "**2026-11-30T02:47**，52 个",
        ),
    ] {
        let (steps, answer) = run_turn(question, &fx);
        let tools: Vec<&str> = steps.iter().map(|s| s.tool.as_str()).collect();
        assert_eq!(
            tools,
            ["log_query", "log_query", "command_executor"],
            "{answer}"
        );
        assert!(answer.contains(total), "{answer}");
        assert!(answer.contains(worst), "{answer}");
        // Per file: 45 5xx in the access log, 13 ERROR lines in the app log; the worst
        // minute split 40 / 12.
        assert!(answer.contains("access.log 45"), "{answer}");
        assert!(answer.contains("app.log 13"), "{answer}");
        assert!(answer.contains("(access.log 40 / app.log 12)"), "{answer}");
        assert!(answer.contains("read timed out"), "{answer}");
        assert!(answer.contains("proxy_read_timeout 30s"), "{answer}");
        assert!(!answer.contains("/data/uploads/"), "{answer}");
    }
}

#[test]
fn a_question_about_one_log_or_without_logs_is_no_incident_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("notes.md"),
        "# runbook\nrestart the gateway\n",
    )
    .expect("write");
    let fx = load_fixtures(dir.path());
    let (steps, _) = run_turn("what went wrong?", &fx);
    assert!(steps.iter().all(|s| s.tool != "log_query"), "{steps:?}");
}

/// A night of two incidents hours apart: 20 5xx in the access log at 01:10, and at 03:30
/// 15 ERROR lines of the app and 5 warnings that say a request failed. The summary names
/// both bursts, each with its count per log and the kind of trouble that began in it.
#[test]
fn a_night_of_two_incidents_names_each_burst() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut access = String::new();
    let mut app = String::new();
    for hour in 0..4u32 {
        for minute in (0..60u32).step_by(5) {
            writeln!(
                access,
                "10.0.0.9 - - [30/Nov/2026:{hour:02}:{minute:02}:00 +0000] \"GET /health HTTP/1.1\" 200 2 \"-\" \"probe\""
            )
            .expect("write");
            writeln!(app, "2026-11-30 {hour:02}:{minute:02}:00 INFO worker alive").expect("write");
        }
    }
    for s in 0..20u32 {
        writeln!(
            access,
            "10.0.0.7 - - [30/Nov/2026:01:10:{s:02} +0000] \"POST /api/book HTTP/1.1\" 502 0 \"-\" \"app\""
        )
        .expect("write");
    }
    for s in 0..15u32 {
        writeln!(
            app,
            "2026-11-30 03:30:{s:02} ERROR ledger write rejected: disk quota exceeded"
        )
        .expect("write");
    }
    for s in 0..5u32 {
        writeln!(
            app,
            "2026-11-30 03:30:{:02} WARN request failed, will retry",
            30 + s
        )
        .expect("write");
    }
    std::fs::write(dir.path().join("access.log"), access).expect("write");
    std::fs::write(dir.path().join("app.log"), app).expect("write");
    let fx = load_fixtures(dir.path());
    let (_, answer) = run_turn("what went wrong last night?", &fx);
    assert!(answer.contains("**40** events tell of trouble"), "{answer}");
    assert!(answer.contains("The bursts of trouble"), "{answer}");
    assert!(
        answer.contains("**2026-11-30T01:10** — 20 (access.log 20)"),
        "{answer}"
    );
    assert!(
        answer.contains("**2026-11-30T03:30** — 20 (app.log 20)"),
        "{answer}"
    );
    assert!(answer.contains("disk quota exceeded"), "{answer}");
}
