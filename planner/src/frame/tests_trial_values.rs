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

/// A question that names no log, asked after the uploads (none sent with it): what it
/// counts, said only by the app log's lines, is that log's ("how many payment declined",
/// "when was the last payment declined"); words no log says are no log question.
#[test]
fn words_the_sessions_log_says_make_an_unnamed_question_a_query() {
    let (lb, _) = haproxy();
    let mut app = String::new();
    let mut declined = Vec::new();
    for i in 0..180u32 {
        let msg = if i % 11 == 4 {
            declined.push(format!("2026-11-30T02:{:02}:{:02}.000Z", i / 60, i % 60));
            "payment declined by issuer"
        } else {
            "order placed"
        };
        app.push_str(&format!(
            "time=2026-11-30T02:{:02}:{:02}.000Z level=info user=u{:03} duration_ms=5 msg=\"{msg}\"\n",
            i / 60,
            i % 60,
            i % 9
        ));
    }
    let p = Planted::many(&[("shop-app.log", &app), ("haproxy.log", &lb)]);
    for q in ["how many payment declined", "declined payments 有多少"] {
        let r = p.answer(q);
        assert_eq!(r.sources[0].name, "shop-app.log", "{q}");
        assert!(
            matches!(r.value, QueryValue::Count { count } if count == declined.len() as u64),
            "{q}: {:?}",
            r.value
        );
    }
    let r = p.answer("when was the last payment declined");
    match r.value {
        QueryValue::Rows { rows, .. } => {
            let last = declined.last().expect("planted");
            assert!(rows[0].text.contains(last.as_str()), "{rows:?}");
        }
        other => panic!("not rows: {other:?}"),
    }
    let ctx = super::FrameCtx::of_uploads(p.uploads());
    assert!(
        super::question::understand("how many deadlocks", &ctx).is_none(),
        "no log says it"
    );
}

/// An nginx error log, which writes no status: its "upstream timed out" lines are its
/// timeouts, counted and grouped by upstream as planted.
#[test]
fn an_error_logs_timeouts_are_its_lines_that_say_so() {
    let mut text = String::new();
    let mut by_upstream = std::collections::BTreeMap::<&str, u64>::new();
    for i in 0..120u32 {
        let ts = format!("2026/11/30 02:{:02}:{:02}", i / 60, i % 60);
        if i % 3 == 0 {
            let up = ["10.0.0.7:8080", "10.0.0.8:8080", "10.0.0.7:8080"][(i % 9 / 3) as usize];
            *by_upstream.entry(up).or_default() += 1;
            text.push_str(&format!("{ts} [error] 811#811: *{i} upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.1.0.{}, server: shop, request: \"GET /api HTTP/1.1\", upstream: \"http://{up}/api\", host: \"shop\"\n", i % 5));
        } else {
            text.push_str(&format!("{ts} [warn] 811#811: *{i} an upstream response is buffered to a temporary file /var/cache/nginx/{i}, client: 10.1.0.1, server: shop, request: \"GET /img HTTP/1.1\", host: \"shop\"\n"));
        }
    }
    let p = Planted::new("error.log", &text);
    let all: u64 = by_upstream.values().sum();
    let r = p.answer("how many upstream timeouts in error.log");
    assert!(
        matches!(r.value, QueryValue::Count { count } if count == all),
        "{:?} (planted {all})",
        r.value
    );
    let top = p.top_group("error.log 中超时次数最多的 upstream 是哪个");
    assert_eq!(top.count, by_upstream["10.0.0.7:8080"], "{top:?}");
    assert!(top.key[0].contains("10.0.0.7:8080"), "{top:?}");
}

/// A syslog read as sshd's (most lines are sshd's) with CRON's and the kernel's between:
/// "the last thing sshd logged" is sshd's last line, not the file's; "when did the failed
/// logins stop" is the last one's time.
#[test]
fn one_program_of_a_shared_syslog_and_when_its_events_stopped() {
    let mut text = String::new();
    let (mut last_sshd, mut last_failed) = (String::new(), String::new());
    for i in 0..300u32 {
        let ts = format!("Nov 30 04:{:02}:{:02}", i / 60, i % 60);
        let line = match i % 5 {
            0 => format!(
                "{ts} web-2 CRON[{}]: (root) CMD (/usr/local/bin/rotate.sh)",
                3000 + i
            ),
            1 if i < 200 => format!(
                "{ts} web-2 sshd[{}]: Failed password for root from 203.0.113.7 port {} ssh2",
                2000 + i,
                40000 + i
            ),
            _ => format!(
                "{ts} web-2 sshd[{}]: Accepted publickey for deploy from 10.0.0.5 port {} ssh2",
                2000 + i,
                40000 + i
            ),
        };
        if line.contains("sshd[") {
            last_sshd = ts.clone();
        }
        if line.contains("Failed password") {
            last_failed = ts.clone();
        }
        text.push_str(&line);
        text.push('\n');
    }
    // The file ends on CRON's lines: sshd's last line is not the file's.
    for s in 0..3 {
        text.push_str(&format!(
            "Nov 30 04:59:5{s} web-2 CRON[{}]: (root) CMD (/usr/local/bin/rotate.sh)\n",
            4000 + s
        ));
    }
    let p = Planted::new("syslog", &text);
    let first_row = |q: &str| match p.answer(q).value {
        QueryValue::Rows { rows, .. } => rows[0].text.clone(),
        other => panic!("{q}: not rows: {other:?}"),
    };
    for q in [
        "what was the last thing sshd logged?",
        "sshd 最后一条日志是什么",
    ] {
        let row = first_row(q);
        assert!(
            row.starts_with(&last_sshd) && row.contains("sshd["),
            "{q}: {row}"
        );
    }
    for q in ["when did the failed logins stop?", "登录失败什么时候结束的"] {
        let row = first_row(q);
        assert!(
            row.starts_with(&last_failed),
            "{q}: {row} (planted {last_failed})"
        );
    }
}

/// "top 5 paths by 5xx": the class's digit is no status of its own, so the five asked are
/// listed.
#[test]
fn a_class_digit_leaves_the_length_asked() {
    let mut text = String::new();
    for i in 0..400u32 {
        let status = if i % 4 == 0 { 502 } else { 200 };
        text.push_str(&format!(
            "10.0.0.{} - - [30/Nov/2026:02:{:02}:{:02} +0000] \"GET /p{} HTTP/1.1\" {status} 12 \"-\" \"curl/8\"\n",
            i % 7,
            i / 60 % 60,
            i % 60,
            i % 9
        ));
    }
    let p = Planted::new("access.log", &text);
    match p.answer("top 5 paths by 5xx").value {
        QueryValue::Groups { rows, .. } => assert_eq!(rows.len(), 5, "{rows:?}"),
        other => panic!("not groups: {other:?}"),
    }
}

/// Three logs of a session, none sent with the question: failed logins, which only the
/// syslog's lines say, are counted and grouped there; "what happened around 02:01" is a
/// timeline across all three, each log's events in the window counted.
#[test]
fn a_tag_only_another_log_says_and_a_timeline_of_every_log() {
    let (lb, rows) = haproxy();
    let mut app = String::new();
    for i in 0..120u32 {
        app.push_str(&format!(
            "time=2026-11-30T02:{:02}:{:02}.000Z level=info user=u{:03} duration_ms=5 msg=\"order placed\"\n",
            i / 60,
            i % 60,
            i % 4
        ));
    }
    let mut syslog = String::new();
    let mut by_ip = std::collections::BTreeMap::<&str, u64>::new();
    for i in 0..90u32 {
        let ip = ["203.0.113.7", "198.51.100.23", "203.0.113.7"][(i % 3) as usize];
        *by_ip.entry(ip).or_default() += 1;
        syslog.push_str(&format!(
            "Nov 30 02:{:02}:{:02} web-2 sshd[{}]: Failed password for root from {ip} port {} ssh2\n",
            i / 60,
            i % 60,
            2000 + i,
            40000 + i
        ));
    }
    let p = Planted::many(&[
        ("haproxy.log", &lb),
        ("syslog", &syslog),
        ("shop-app.log", &app),
    ]);
    let top = p.top_group("which ip failed to log in the most");
    assert_eq!(
        (top.key[0].as_str(), top.count),
        ("203.0.113.7", by_ip["203.0.113.7"])
    );
    let r = p.answer("what happened around 02:01?");
    let names: Vec<&str> = r.sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    // 02:01 ± 5 minutes holds every planted line of the three logs (02:00 to 02:04:59).
    assert_eq!(
        r.matched,
        rows.len() as u64 + 120 + 90,
        "{:?}",
        r.matched_per_file
    );
}
