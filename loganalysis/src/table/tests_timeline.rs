//! Timelines: files merged in time order, each kind of event once with its count and last
//! time, ranked by rarity in the file, burst in the window and severity.

use llmops_common::query::{Measure, Query, QueryValue, TimePoint, Window};

use super::tests_engine::{run_in, write};
use super::QueryOptions;

#[test]
fn a_timeline_merges_files_in_time_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write(dir.path(), "access.log", "nginx_combined", 11, 600);
    let b = write(dir.path(), "app.log", "java_logback", 12, 600);
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:05".into()),
            seconds: 120,
        }),
        limit: Some(1000),
        ..Query::default()
    };
    let r = run_in(
        dir.path(),
        &["access.log", "app.log"],
        &q,
        &QueryOptions::default(),
    )
    .expect("runs");
    let QueryValue::Timeline {
        rows,
        total,
        buckets,
        ..
    } = &r.value
    else {
        panic!("timeline")
    };
    let day = a.events[0].sec.unwrap_or(0).div_euclid(86_400) * 86_400;
    let (lo, hi) = (day + 10 * 3600 + 3 * 60, day + 10 * 3600 + 7 * 60);
    let inside = |t: &super::truth::TruthLog| {
        t.events
            .iter()
            .filter(|e| e.sec.is_some_and(|s| s >= lo && s <= hi))
            .count() as u64
    };
    assert_eq!(r.matched_per_file, vec![inside(&a), inside(&b)]);
    assert_eq!(*total, inside(&a) + inside(&b));
    // Each row stands for its kind's events in the window: together, every event once.
    let shown: u64 = rows
        .iter()
        .map(|r| r.repeats.as_ref().map_or(1, |x| x.count))
        .sum();
    assert_eq!(shown, *total);
    let times: Vec<&str> = rows
        .iter()
        .map(|r| r.time.as_deref().unwrap_or(""))
        .collect();
    let iso = |t: &str| t.get(..19).unwrap_or("").to_string();
    assert!(
        times.windows(2).all(|w| iso(w[0]) <= iso(w[1])),
        "time order"
    );
    assert!(rows.iter().any(|r| r.file.as_deref() == Some("app.log")));
    let per_file: Vec<u64> = (0..2)
        .map(|i| buckets.iter().map(|b| b.per_file[i]).sum())
        .collect();
    assert_eq!(per_file, r.matched_per_file);
    assert!(r.pipeline.is_none() && !r.notes.is_empty());
}

#[test]
fn a_timeline_shows_its_notable_events_first_in_time_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for s in 0..40 {
        log.push_str(&format!(
            "2029-03-14T09:50:{s:02}+00:00 node-07 kubelet[1187]: probe ok pod=web-{s}\n"
        ));
        if s == 25 {
            log.push_str("2029-03-14T09:50:25+00:00 node-07 kernel: Memory cgroup out of memory: Killed process 48213 (ingest) total-vm:2874312kB\n");
        }
        if s == 31 {
            log.push_str("2029-03-14T09:50:31+00:00 node-07 containerd[902]: ERROR failed to start container ingest\n");
        }
    }
    std::fs::write(dir.path().join("journal.txt"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        ..Query::default()
    };
    let r = run_in(dir.path(), &["journal.txt"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline { rows, total, .. } = &r.value else {
        panic!("timeline")
    };
    assert_eq!(*total, 42);
    // Three kinds of event: the probes (one row for all 40), the kill and the error.
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(
        rows.iter().any(|r| r.text.contains("Killed process")),
        "{rows:?}"
    );
    assert!(
        rows.iter().any(|r| r.text.contains("failed to start")),
        "{rows:?}"
    );
    let times: Vec<&str> = rows.iter().filter_map(|r| r.time.as_deref()).collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "time order: {times:?}"
    );
    // The probes' row is their first, with their count and the last one's time.
    assert!(rows[0].text.contains("pod=web-0"), "{rows:?}");
    let repeats = rows[0].repeats.as_ref().expect("the probes repeat");
    assert_eq!(repeats.count, 40);
    assert!(
        repeats
            .last_time
            .as_deref()
            .is_some_and(|t| t.contains("09:50:39")),
        "{repeats:?}"
    );
}

#[test]
fn a_repeated_event_is_one_row_with_its_count_and_last_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for s in 0..50 {
        log.push_str(&format!(
            "2029-03-14T09:50:{s:02}+00:00 node-07 kubelet[1187]: probe failed pod=web-{s}\n"
        ));
    }
    std::fs::write(dir.path().join("journal.txt"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("09:50:30".into()),
            seconds: 20,
        }),
        limit: Some(3),
        ..Query::default()
    };
    let r = run_in(dir.path(), &["journal.txt"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline { rows, total, .. } = &r.value else {
        panic!("timeline")
    };
    assert_eq!(*total, 40, "09:50:10 to the last line, 09:50:49");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(rows[0].text.ends_with("pod=web-10"), "{rows:?}");
    let repeats = rows[0].repeats.as_ref().expect("repeats");
    assert_eq!(repeats.count, 40);
    assert!(repeats
        .last_time
        .as_deref()
        .is_some_and(|t| t.contains("09:50:49")));
}

#[test]
fn a_timeline_shows_a_rare_routine_event_before_the_common_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for m in 0..30 {
        for s in (0..60).step_by(5) {
            log.push_str(&format!(
                "2029-03-14 10:{m:02}:{s:02},000 INFO served GET /api/items/{s} in {m} ms\n"
            ));
            if (m, s) == (12, 20) {
                log.push_str(
                    "2029-03-14 10:12:20,500 INFO Leader moved to broker 3 after a vote\n",
                );
            }
        }
    }
    std::fs::write(dir.path().join("svc.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:14".into()),
            seconds: 300,
        }),
        limit: Some(3),
        ..Query::default()
    };
    let r = run_in(dir.path(), &["svc.log"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline { rows, total, .. } = &r.value else {
        panic!("timeline")
    };
    // 10:09:00 to 10:19:00 inclusive: 10 whole minutes of 12 lines, the 10:19:00 line and
    // the planted one.
    assert_eq!(*total, 10 * 12 + 1 + 1);
    // Two kinds: the vote, once, and every request served in the window, as one row.
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[1].text.contains("Leader moved"), "{rows:?}");
    assert_eq!(rows[0].repeats.as_ref().map(|r| r.count), Some(121));
    assert!(rows[1].repeats.is_none(), "{rows:?}");
}

#[test]
fn a_kind_bursting_in_the_window_outranks_steady_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for m in 0..60 {
        for s in (0..60).step_by(10) {
            log.push_str(&format!(
                "2029-03-14 10:{m:02}:{s:02},000 INFO served GET /api/items/{s} in {m} ms\n"
            ));
            log.push_str(&format!(
                "2029-03-14 10:{m:02}:{s:02},100 INFO heartbeat from node {m} ok\n"
            ));
            // Shrinking ISR now and then all hour, and every 10 s from 10:30 to 10:33.
            if m % 15 == 0 && s == 0 || (30..34).contains(&m) {
                log.push_str(&format!(
                    "2029-03-14 10:{m:02}:{s:02},200 INFO Shrinking ISR for partition orders-{s} from 1,2 to 1\n"
                ));
            }
        }
    }
    std::fs::write(dir.path().join("broker.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:31".into()),
            seconds: 300,
        }),
        limit: Some(1),
        ..Query::default()
    };
    let r = run_in(dir.path(), &["broker.log"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline { rows, total, .. } = &r.value else {
        panic!("timeline")
    };
    // 10:26:00 to 10:36:00: 61 served, 61 heartbeats, 24 shrinks (10:30 twice counted once).
    assert_eq!(*total, 61 + 61 + 24);
    assert_eq!(rows.len(), 1);
    assert!(rows[0].text.contains("Shrinking ISR"), "{rows:?}");
    assert_eq!(rows[0].repeats.as_ref().map(|r| r.count), Some(24));
}

#[test]
fn an_access_logs_timeline_groups_requests_of_one_shape() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for s in 0..40 {
        let ip = format!("10.0.{}.{}", s % 7, s);
        log.push_str(&format!(
            "{ip} - - [14/Mar/2029:10:12:{s:02} +0000] \"GET /api/items/{s} HTTP/1.1\" 200 {} \"-\" \"curl/8.5.0\"\n",
            300 + s
        ));
        if s % 8 == 3 {
            log.push_str(&format!(
                "{ip} - - [14/Mar/2029:10:12:{s:02} +0000] \"POST /pay HTTP/1.1\" 502 {} \"-\" \"curl/8.5.0\"\n",
                150 + s
            ));
        }
    }
    std::fs::write(dir.path().join("access.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        ..Query::default()
    };
    let r = run_in(dir.path(), &["access.log"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline { rows, total, .. } = &r.value else {
        panic!("timeline")
    };
    assert_eq!(*total, 45);
    let count = |r: &llmops_common::query::Row| r.repeats.as_ref().map_or(1, |x| x.count);
    assert_eq!(rows.iter().map(count).sum::<u64>(), 45, "{rows:?}");
    let pay: Vec<u64> = rows
        .iter()
        .filter(|r| r.text.contains("POST /pay"))
        .map(count)
        .collect();
    assert_eq!(pay, [5], "{rows:?}");
    assert!(rows.len() <= 3, "{rows:?}");
}

#[test]
fn events_past_the_cap_on_kinds_are_counted_as_unlisted() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Every line a kind of its own: a word of letters that differs line to line.
    let word = |mut i: usize| {
        let mut w = String::new();
        for _ in 0..4 {
            w.push((b'a' + (i % 26) as u8) as char);
            i /= 26;
        }
        w
    };
    let extra = 37;
    let mut log = String::new();
    for i in 0..super::timeline::MAX_KINDS + extra {
        log.push_str(&format!(
            "2029-03-14 10:12:00,000 INFO step {} done\n",
            word(i)
        ));
    }
    std::fs::write(dir.path().join("svc.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        ..Query::default()
    };
    let r = run_in(dir.path(), &["svc.log"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline {
        total, unlisted, ..
    } = &r.value
    else {
        panic!("timeline")
    };
    assert_eq!(*total, (super::timeline::MAX_KINDS + extra) as u64);
    assert_eq!(*unlisted, extra as u64);
}

/// Over several logs each log's notable kinds get their share of the rows first: the
/// proxy's one kind of error shows beside a database log full of rarer routine lines.
#[test]
fn each_log_gets_room_for_its_own_notable_kinds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliet", "kilo", "lima",
    ];
    let mut db = String::new();
    for i in 0..4000u32 {
        let (m, s) = (i / 60 % 60, i % 60);
        db.push_str(&format!(
            "time=\"2031-02-03T09:{m:02}:{s:02}Z\" level=info msg=\"checkpoint done\" n={i}\n"
        ));
    }
    for (k, w) in words.iter().enumerate() {
        db.push_str(&format!(
            "time=\"2031-02-03T10:05:{:02}Z\" level=info msg=\"stage {w} finished\"\n",
            k + 1
        ));
    }
    let mut proxy = String::new();
    for i in 0..600u32 {
        let level = if (300..320).contains(&i) {
            "error"
        } else {
            "info"
        };
        let msg = if level == "error" {
            "upstream timed out"
        } else {
            "request served"
        };
        proxy.push_str(&format!(
            "time=\"2031-02-03T{:02}:{:02}:{:02}Z\" level={level} msg=\"{msg}\"\n",
            9 + i / 300,
            (i / 5) % 60,
            i % 5
        ));
    }
    std::fs::write(dir.path().join("db.log"), db).expect("write");
    std::fs::write(dir.path().join("proxy.log"), proxy).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:05".into()),
            seconds: 300,
        }),
        limit: Some(6),
        ..Query::default()
    };
    let r = run_in(
        dir.path(),
        &["db.log", "proxy.log"],
        &q,
        &QueryOptions::default(),
    )
    .expect("runs");
    let QueryValue::Timeline { rows, .. } = &r.value else {
        panic!("timeline")
    };
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert!(
        rows.iter().any(|r| r.text.contains("upstream timed out")),
        "{rows:?}"
    );
}

#[test]
fn a_timeline_from_a_time_on_holds_every_later_event() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write(dir.path(), "app.log", "java_logback", 14, 400);
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Between {
            from: Some(TimePoint("10:05".into())),
            to: None,
        }),
        limit: Some(1000),
        ..Query::default()
    };
    let r = run_in(dir.path(), &["app.log"], &q, &QueryOptions::default()).expect("runs");
    let day = a.events[0].sec.unwrap_or(0).div_euclid(86_400) * 86_400;
    let from = day + 10 * 3600 + 5 * 60;
    let later = a
        .events
        .iter()
        .filter(|e| e.sec.is_some_and(|s| s >= from))
        .count() as u64;
    let QueryValue::Timeline { total, .. } = &r.value else {
        panic!("timeline")
    };
    assert_eq!(*total, later);
}

/// A month asked for (`--02`, `2028-02`) counts the events of its days, leap day included,
/// and none of the months beside it.
#[test]
fn a_month_window_counts_the_events_of_that_month() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text = String::new();
    let mut in_feb = 0u64;
    // Two events a day from 2028-01-20 to 2028-03-10, the first at midnight, the second
    // a second before the next day.
    let first = crate::ts::days_from_civil(2028, 1, 20);
    for day in first..first + 51 {
        let (y, m, d) = crate::ts::civil_from_days(day);
        for t in ["00:00:00", "23:59:59"] {
            text.push_str(&format!("{y}-{m:02}-{d:02} {t} INFO job ran\n"));
            in_feb += u64::from(m == 2);
        }
    }
    std::fs::write(dir.path().join("jobs.log"), &text).expect("write");
    assert_eq!(in_feb, 58, "29 days of February 2028, two events each");
    for point in ["--02", "2028-02"] {
        let q = Query {
            window: Some(Window::Between {
                from: Some(TimePoint(point.into())),
                to: Some(TimePoint(point.into())),
            }),
            ..Query::default()
        };
        let r = run_in(dir.path(), &["jobs.log"], &q, &QueryOptions::default()).expect("runs");
        let QueryValue::Count { count } = r.value else {
            panic!("count")
        };
        assert_eq!(count, in_feb, "{point}");
    }
}

/// A quiet one-off (an operator's command) keeps a place among many kinds of errors: a
/// fifth of the shown kinds go to the best one-offs that are not notable.
#[test]
fn a_quiet_one_off_keeps_a_place_among_many_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for m in 0..20 {
        for k in 0..30 {
            log.push_str(&format!(
                "2029-03-14 10:{m:02}:{:02},000 ERROR failure kind{} in module {}\n",
                k * 2,
                ["alpha", "beta", "gamma", "delta", "eps", "zeta"][k % 6],
                ["disk", "net", "db", "cache", "queue"][k % 5]
            ));
        }
        if m == 12 {
            log.push_str("2029-03-14 10:12:59,500 INFO operator removed the old dump by hand\n");
        }
    }
    std::fs::write(dir.path().join("svc.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:10".into()),
            seconds: 600,
        }),
        limit: Some(10),
        ..Query::default()
    };
    let rows = timeline_rows(dir.path(), &["svc.log"], &q);
    assert!(rows.len() <= 10, "{rows:?}");
    assert!(
        rows.iter().any(|r| r.text.contains("removed the old dump")),
        "{rows:?}"
    );
}

/// Of the quiet one-offs, a service's change of state ("ready to serve")
/// keeps its place before a burst of one-off report lines (a kernel's hardware line and
/// call trace), which are nearer the asked minute.
#[test]
fn a_service_ready_again_outranks_one_off_report_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = error_burst();
    for (i, l) in [
        "kernel report: Hardware name: Example box",
        "kernel report: Call Trace follows",
        "kernel report: Mem-Info dump",
        "kernel report: Tasks state listing",
    ]
    .iter()
    .enumerate()
    {
        log.push_str(&format!("2029-03-14 10:10:0{i},500 INFO {l}\n"));
    }
    log.push_str("2029-03-14 10:13:30,000 INFO cache node is now ready to serve\n");
    std::fs::write(dir.path().join("svc.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:10".into()),
            seconds: 300,
        }),
        limit: Some(10),
        ..Query::default()
    };
    let rows = timeline_rows(dir.path(), &["svc.log"], &q);
    assert!(
        rows.iter().any(|r| r.text.contains("ready to serve")),
        "{rows:?}"
    );
}

/// A restart written as several one-off state changes shows whole: the service coming back
/// is not crowded out by its going down, nor by a burst of errors.
#[test]
fn a_restarts_state_changes_all_show() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = error_burst();
    let steps = [
        "queue daemon shutting down",
        "queue daemon stopped",
        "queue daemon starting",
        "queue daemon listening on port 5672",
        "queue daemon ready to accept connections",
    ];
    for (i, l) in steps.iter().enumerate() {
        log.push_str(&format!("2029-03-14 10:10:0{i},500 INFO {l}\n"));
    }
    std::fs::write(dir.path().join("q.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:10".into()),
            seconds: 300,
        }),
        ..Query::default()
    };
    let rows = timeline_rows(dir.path(), &["q.log"], &q);
    for step in steps {
        assert!(
            rows.iter().any(|r| r.text.contains(step)),
            "{step}: {rows:?}"
        );
    }
}

/// A job runner's `class=Name` is what its line is about: two jobs' starts are two kinds,
/// so a rare job's start shows beside a frequent one's.
#[test]
fn a_rare_jobs_start_is_its_own_kind() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for s in 0..300 {
        log.push_str(&format!(
            "2029-03-14T10:{:02}:{:02}.000Z pid=7 tid=a{s}x class=ThumbJob jid=f{s:04}e INFO: start\n",
            s / 60,
            s % 60
        ));
    }
    log.push_str(
        "2029-03-14T10:02:30.500Z pid=7 tid=b9z class=ExportJob jid=c0ffee12 INFO: start\n",
    );
    std::fs::write(dir.path().join("jobs.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:02".into()),
            seconds: 120,
        }),
        ..Query::default()
    };
    let rows = timeline_rows(dir.path(), &["jobs.log"], &q);
    let import = rows.iter().find(|r| r.text.contains("class=ExportJob"));
    assert!(import.is_some_and(|r| r.repeats.is_none()), "{rows:?}");
}

/// A syslog (no year) read beside a dated log is placed in the dated log's year: a window
/// holds both, and their events merge in time order.
#[test]
fn a_syslog_without_years_merges_with_a_dated_log() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut sys = String::new();
    let mut app = String::new();
    for m in 0..20 {
        sys.push_str(&format!(
            "Apr  9 01:{m:02}:10 lb-2 CRON[{m}]: (root) CMD (rotate)\n"
        ));
        app.push_str(&format!("2036-04-09 01:{m:02}:20,000 INFO worker alive\n"));
    }
    sys.push_str("Apr  9 01:12:30 lb-2 haproxy[812]: Proxy web-in started.\n");
    app.push_str("2036-04-09 01:12:25,000 ERROR replica lost its primary\n");
    let mut sys_lines: Vec<&str> = sys.lines().collect();
    sys_lines.sort_by_key(|l| l[7..15].to_string());
    let mut app_lines: Vec<&str> = app.lines().collect();
    app_lines.sort();
    std::fs::write(dir.path().join("syslog"), sys_lines.join("\n") + "\n").expect("write");
    std::fs::write(dir.path().join("app.log"), app_lines.join("\n") + "\n").expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("01:12".into()),
            seconds: 120,
        }),
        ..Query::default()
    };
    let r = run_in(
        dir.path(),
        &["syslog", "app.log"],
        &q,
        &QueryOptions::default(),
    )
    .expect("runs");
    let QueryValue::Timeline { rows, .. } = &r.value else {
        panic!("timeline")
    };
    let at = |text: &str| rows.iter().position(|r| r.text.contains(text));
    let (lost, started) = (at("replica lost"), at("Proxy web-in started"));
    assert!(lost.is_some() && started.is_some(), "{rows:?}");
    assert!(lost < started, "01:12:25 before 01:12:30: {rows:?}");
    assert_eq!(
        r.matched_per_file,
        vec![5, 5],
        "01:10 to 01:14 in each: {r:?}"
    );
}

/// A backend's failure is one kind per status, whatever path and method failed with it;
/// its count is every such request of the window.
#[test]
fn a_backends_server_errors_are_one_kind_per_status() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    let (mut n503, mut n504) = (0, 0);
    for s in 0..60 {
        let path = ["/v1/a", "/v1/b", "/v1/c"][s % 3];
        let method = ["GET", "POST"][s % 2];
        let (status, server, term) = match s % 5 {
            1 => (503, "<NOSRV>", "sC--"),
            3 => (504, "app2", "sH--"),
            _ => (200, "app1", "----"),
        };
        n503 += usize::from(status == 503);
        n504 += usize::from(status == 504);
        log.push_str(&format!(
            "Jun  3 04:10:{s:02} lb haproxy[77]: 10.1.0.{s}:4{s:04} [03/Jun/2029:04:10:{s:02}.120] fe_main be_app/{server} 2/0/1/10/14 {status} 512 - - {term} 5/5/1/1/0 0/0 \"{method} {path} HTTP/1.1\"\n"
        ));
    }
    std::fs::write(dir.path().join("haproxy.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        ..Query::default()
    };
    let rows = timeline_rows(dir.path(), &["haproxy.log"], &q);
    let count = |r: &llmops_common::query::Row| r.repeats.as_ref().map_or(1, |x| x.count);
    for (status, want) in [(" 503 ", n503), (" 504 ", n504)] {
        let of: Vec<u64> = rows
            .iter()
            .filter(|r| r.text.contains(status))
            .map(count)
            .collect();
        assert_eq!(of, [want as u64], "{status}: {rows:?}");
    }
}

/// A proxy's routine traffic (many kinds of request answered 200, each rare in its file)
/// does not crowd out another log's quiet events of the same minutes.
#[test]
fn routine_requests_rank_below_another_logs_quiet_events() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut access = String::new();
    for s in 0..600 {
        // A hundred paths that differ in letters, not numbers: a hundred kinds.
        let k = (s % 100) as u8;
        let path = format!("/v1/{}{}", (b'a' + k / 10) as char, (b'a' + k % 10) as char);
        access.push_str(&format!(
            "10.0.0.{} - - [14/Mar/2029:10:{:02}:{:02} +0000] \"GET {path} HTTP/1.1\" 200 512 \"-\" \"curl\"\n",
            s % 200,
            s / 60,
            s % 60
        ));
    }
    std::fs::write(dir.path().join("access.log"), &access).expect("write");
    let mut app = String::new();
    for s in 0..300 {
        app.push_str(&format!(
            "2029-03-14 10:{:02}:{:02},000 INFO heartbeat ok\n",
            s / 30,
            (s % 30) * 2
        ));
    }
    // Each quiet kind five times in the file (no one-off), once in the window.
    for m in [0, 2, 5, 7, 9] {
        app.push_str(&format!(
            "2029-03-14 10:0{m}:10,000 INFO cache warmed from snapshot\n"
        ));
        app.push_str(&format!(
            "2029-03-14 10:0{m}:20,000 INFO config reloaded by operator\n"
        ));
    }
    let mut lines: Vec<&str> = app.lines().collect();
    lines.sort();
    std::fs::write(dir.path().join("app.log"), lines.join("\n") + "\n").expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:05".into()),
            seconds: 30,
        }),
        limit: Some(6),
        ..Query::default()
    };
    let r = run_in(
        dir.path(),
        &["access.log", "app.log"],
        &q,
        &QueryOptions::default(),
    )
    .expect("runs");
    let QueryValue::Timeline { rows, .. } = &r.value else {
        panic!("timeline")
    };
    for quiet in ["cache warmed", "config reloaded"] {
        assert!(
            rows.iter().any(|r| r.text.contains(quiet)),
            "{quiet}: {rows:?}"
        );
    }
}

/// Twenty minutes of a dozen errors a minute, in a few kinds.
fn error_burst() -> String {
    let mut log = String::new();
    for m in 0..20 {
        for k in 0..12 {
            log.push_str(&format!(
                "2029-03-14 10:{m:02}:{:02},000 ERROR stage{} failed in module {}\n",
                k * 4,
                ["alpha", "beta", "gamma", "delta"][k % 4],
                ["disk", "net", "db"][k % 3]
            ));
        }
    }
    log
}

/// The rows of a timeline query over the files of `dir`.
fn timeline_rows(
    dir: &std::path::Path,
    files: &[&str],
    q: &Query,
) -> Vec<llmops_common::query::Row> {
    let r = run_in(dir, files, q, &QueryOptions::default()).expect("runs");
    match r.value {
        QueryValue::Timeline { rows, .. } => rows,
        v => panic!("not a timeline: {v:?}"),
    }
}

/// A common kind that comes back well into the window (jobs done again after an outage) is
/// the recovery: it outranks a steadier kind that is rarer in the file.
#[test]
fn a_common_kind_resuming_in_the_window_is_shown() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = String::new();
    for m in 0..60 {
        for s in (0..60).step_by(10) {
            let down = (20..32).contains(&m);
            if down {
                log.push_str(&format!(
                    "2029-03-14 10:{m:02}:{s:02},000 ERROR job {s} failed: database is read-only\n"
                ));
            } else {
                log.push_str(&format!(
                    "2029-03-14 10:{m:02}:{s:02},000 INFO job {s} done in {m} ms\n"
                ));
            }
            if s % 20 == 0 {
                log.push_str(&format!(
                    "2029-03-14 10:{m:02}:{s:02},500 INFO heartbeat from node {m} ok\n"
                ));
            }
        }
    }
    std::fs::write(dir.path().join("worker.log"), &log).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Around {
            at: TimePoint("10:28".into()),
            seconds: 300,
        }),
        limit: Some(2),
        ..Query::default()
    };
    let rows = timeline_rows(dir.path(), &["worker.log"], &q);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[0].text.contains("failed"), "{rows:?}");
    // The first job done again, at 10:32:00.
    assert!(rows[1].text.contains("done"), "{rows:?}");
    assert!(rows[1].text.contains("10:32:00"), "{rows:?}");
}
