//! Values and logs a question names past the lexicon's first reading, over planted logs
//! with their figures checked: a log's value right after its column's name, a statistic of
//! one service's events, a passive's subject, two wordings of one cue, the log whose field a
//! question names, and a gateway's timeouts written as a status.

use llmops_common::query::QueryValue;

use super::tests_answers::Planted;
use super::tests_named_events::figure;

/// A load balancer's HAProxy log: backends `api` (servers api-1, api-2) and `static`, each
/// request's `Tr` planted; api-2 answers 504 to every fifth request.
fn haproxy() -> (String, Vec<(String, String, u32, i64)>) {
    let mut text = String::new();
    let mut rows = Vec::new();
    for i in 0..300u32 {
        let (be, srv) = match i % 3 {
            0 => ("api", "api-1"),
            1 => ("api", "api-2"),
            _ => ("static", "st-1"),
        };
        let status = if srv == "api-2" && i % 5 == 0 {
            504
        } else {
            200
        };
        let tr = i64::from(5 + i * 37 % 400);
        text.push_str(&format!(
            "Nov 30 02:{m:02}:{s:02} lb-1 haproxy[2211]: 10.4.0.{c}:4{i:04} [30/Nov/2026:02:{m:02}:{s:02}.{i:03}] www~ {be}/{srv} 0/0/1/{tr}/{ta} {status} 512 - - ---- 1/1/1/1/0 0/0 \"GET /{be}/x HTTP/1.1\"\n",
            m = i / 60,
            s = i % 60,
            c = i % 7,
            ta = tr + 3,
        ));
        rows.push((be.to_string(), srv.to_string(), status, tr));
    }
    (text, rows)
}

/// "average Tr for backend api": the lexicon's "api" (an endpoint) is the backend's value
/// here; the mean is of that backend's requests only. A status of 504 is a timeout.
#[test]
fn a_backends_value_after_its_name_and_its_timeouts() {
    let (text, rows) = haproxy();
    let p = Planted::new("haproxy.log", &text);
    let api: Vec<f64> = rows
        .iter()
        .filter(|r| r.0 == "api")
        .map(|r| r.3 as f64)
        .collect();
    let planted = api.iter().sum::<f64>() / api.len() as f64;
    for q in ["average Tr for backend api", "backend api 的平均 tr 是多少"] {
        let (query, mean) = figure(&p, q);
        assert!(
            (mean - planted).abs() < 1e-9,
            "{q}: {query:?}: {mean} vs {planted}"
        );
    }
    let timeouts = rows.iter().filter(|r| r.2 == 504).count() as u64;
    assert!(timeouts > 0);
    for q in ["how many timeouts", "超时有多少次"] {
        let r = p.answer(q);
        assert!(
            matches!(r.value, QueryValue::Count { count } if count == timeouts),
            "{q}: {:?}",
            r.value
        );
    }
}

/// A logfmt app log whose `payments` component has planted durations, while other
/// components' lines also say "payment": the median for payments is the component's.
#[test]
fn a_statistic_for_one_components_events() {
    let mut text = String::new();
    let mut payments = Vec::new();
    for i in 0..240u32 {
        let comp = ["payments", "catalog", "checkout"][(i % 3) as usize];
        let ms = 10 + i * 53 % 700;
        if comp == "payments" {
            payments.push(f64::from(ms));
        }
        text.push_str(&format!(
            "time=2026-11-30T02:{:02}:{:02}.000Z level=info component={comp} duration_ms={ms} msg=\"payment authorized\"\n",
            i / 60,
            i % 60
        ));
    }
    let p = Planted::new("shop-app.log", &text);
    payments.sort_by(f64::total_cmp);
    let median = payments[payments.len().div_ceil(2) - 1];
    let (q, got) = figure(&p, "what's the median duration_ms for payments");
    assert_eq!(got, median, "{q:?}");
}

/// A syslog with OOM kills of java and node among sshd's lines: "java 被 oom 杀了几次" and
/// "was java killed by the oom killer" count java's kills (two wordings of the OOM cue
/// overlap in "killed by the oom killer": one cue, no word left over to look for).
#[test]
fn kills_of_one_program_said_in_the_passive() {
    let mut text = String::new();
    let mut java = 0;
    for i in 0..400u32 {
        let ts = format!("Nov 30 03:{:02}:{:02}", i / 60 % 60, i % 60);
        let line = if i % 25 == 0 {
            let victim = if i % 50 == 0 { "java" } else { "node" };
            java += u64::from(victim == "java");
            format!("{ts} web-2 kernel: [ {i}.000001] Out of memory: Killed process {} ({victim}) total-vm:3356366kB", 1000 + i)
        } else {
            format!(
                "{ts} web-2 sshd[{}]: Failed password for root from 203.0.113.7 port {} ssh2",
                2000 + i,
                30000 + i
            )
        };
        text.push_str(&line);
        text.push('\n');
    }
    let p = Planted::new("syslog", &text);
    for q in [
        "java 被 oom 杀了几次",
        "how many times was java killed by the OOM killer",
    ] {
        let r = p.answer(q);
        assert!(
            matches!(r.value, QueryValue::Count { count } if count == java),
            "{q}: {:?} (planted {java})",
            r.value
        );
    }
}

/// Two logs, the HAProxy log the one at hand: "哪个用户 error 最多" names a user, which only
/// the app log has, so it is that log's errors by user.
#[test]
fn a_field_only_another_log_has_picks_that_log() {
    let (lb, _) = haproxy();
    let mut app = String::new();
    let mut errors = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..200u32 {
        let user = format!("u{:03}", i % 7);
        let level = if i % 4 == 0 || (i % 7 == 3 && i % 2 == 0) {
            "error"
        } else {
            "info"
        };
        if level == "error" {
            *errors.entry(user.clone()).or_default() += 1;
        }
        app.push_str(&format!(
            "time=2026-11-30T02:{:02}:{:02}.000Z level={level} user={user} duration_ms=5 msg=\"done\"\n",
            i / 60,
            i % 60
        ));
    }
    let (top, n) = errors.iter().max_by_key(|(_, n)| **n).expect("errors");
    assert_eq!(
        errors.values().filter(|v| *v == n).count(),
        1,
        "a strict top"
    );
    let p = Planted::many(&[("shop-app.log", &app), ("haproxy.log", &lb)]);
    let r = p.answer("哪个用户 error 最多");
    assert_eq!(r.sources[0].name, "shop-app.log");
    match r.value {
        QueryValue::Groups { rows, .. } => {
            assert_eq!((&rows[0].key[0], rows[0].count), (top, *n), "{rows:?}");
        }
        other => panic!("not groups: {other:?}"),
    }
}
