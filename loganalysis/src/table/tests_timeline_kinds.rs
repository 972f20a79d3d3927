//! A timeline's kinds of one message template told apart by what went wrong: a JVM log's
//! "call failed" with three exceptions is three kinds, each with its own count.

use llmops_common::query::{Measure, Query, QueryValue, TimePoint, Window};

use super::tests_engine::run_in;
use super::QueryOptions;

#[test]
fn one_template_with_several_exceptions_is_a_kind_for_each() {
    let exceptions = [
        "java.sql.SQLTransientConnectionException: pool exhausted",
        "java.net.SocketTimeoutException: Read timed out",
        "java.lang.NullPointerException: null",
    ];
    let mut text = String::new();
    let mut planted = [0u64; 3];
    for i in 0..300u32 {
        let at = format!("2031-07-09 14:{:02}:{:02}.{:03}", i / 60, i % 60, i);
        if i % 5 == 0 {
            let e = (i as usize / 5) % 7 % 3;
            planted[e] += 1;
            text.push_str(&format!(
                "{at} ERROR [exec-{}] c.a.Svc - call failed for order {}\n{}\n\tat c.a.Svc.run(Svc.java:{})\n",
                i % 4,
                1000 + i,
                exceptions[e],
                10 + i % 90
            ));
        } else {
            text.push_str(&format!(
                "{at} INFO [exec-{}] c.a.Svc - processed order {} in {} ms\n",
                i % 4,
                1000 + i,
                i % 700
            ));
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("svc.log"), &text).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Between {
            from: Some(TimePoint("14:00".into())),
            to: Some(TimePoint("14:04".into())),
        }),
        ..Query::default()
    };
    let r = run_in(dir.path(), &["svc.log"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline { rows, .. } = &r.value else {
        panic!("timeline: {:?}", r.value)
    };
    for (e, want) in exceptions.iter().zip(planted) {
        let class = e.split(':').next().expect("a class");
        let row = rows
            .iter()
            .find(|r| r.text.contains("call failed") && r.text.contains(class))
            .unwrap_or_else(|| panic!("no row for {class}: {rows:#?}"));
        let count = row.repeats.as_ref().map_or(1, |x| x.count);
        assert_eq!(count, want, "{class}");
    }
}

/// A Go service's crash dump under the last request it logged (no time of its own) is a kind
/// of its own in the timeline, shown, among hundreds of routine requests.
#[test]
fn a_crash_below_a_routine_event_is_a_kind_of_its_own() {
    let mut text = String::new();
    for i in 0..600u32 {
        text.push_str(&format!(
            "[GIN] 2031/07/09 - 14:{:02}:{:02} | 200 |    {}.5ms |    10.0.0.{} | GET      \"/v1/seats/{i}\"\n",
            i / 60,
            i % 60,
            i % 40,
            i % 9
        ));
        if i == 400 {
            text.push_str(
                "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 7 [running]:\nmain.add(...)\n",
            );
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("api.log"), &text).expect("write");
    let q = Query {
        measure: Measure::Timeline,
        window: Some(Window::Between {
            from: Some(TimePoint("14:05".into())),
            to: Some(TimePoint("14:08".into())),
        }),
        ..Query::default()
    };
    let r = run_in(dir.path(), &["api.log"], &q, &QueryOptions::default()).expect("runs");
    let QueryValue::Timeline { rows, .. } = &r.value else {
        panic!("timeline: {:?}", r.value)
    };
    let crash = rows
        .iter()
        .find(|r| {
            r.text
                .contains("fatal error: all goroutines are asleep - deadlock!")
        })
        .unwrap_or_else(|| panic!("no crash row: {rows:#?}"));
    assert_eq!(crash.time.as_deref(), Some("2031-07-09T14:06:40"));
    // Shown from the crash's own line, numbered as the file numbers it.
    assert!(
        crash
            .text
            .starts_with("fatal error: all goroutines are asleep - deadlock!"),
        "{}",
        crash.text
    );
    let at = text
        .lines()
        .position(|l| l.starts_with("fatal error"))
        .expect("planted")
        + 1;
    assert_eq!(crash.line, at as u64);
    assert_eq!(crash.repeats.as_ref().map_or(1, |x| x.count), 1);
}

/// A steady kind that stops in the window and comes back shows twice: up to its stop (its
/// count and last event before the silence) and from the first event after it, with the
/// silence; whether the file is read whole or in parallel parts.
#[test]
fn a_steady_kind_that_stops_and_comes_back_shows_its_stop_and_its_return() {
    // A batch every 3 s from 05:00:00 to 05:20:00, none from 05:06:00 to 05:15:29;
    // a write error every 7 s while it is silent; a health check every 10 s all along.
    let mut lines: Vec<(u32, String)> = Vec::new();
    let (mut before, mut after) = (0u64, 0u64);
    for s in (0..1200).step_by(3) {
        if (360..929).contains(&s) {
            continue;
        }
        if s < 360 {
            before += 1
        } else {
            after += 1
        }
        lines.push((
            s,
            format!("INFO batch {} written rows={}", 40_000 + s, s % 97),
        ));
    }
    for s in (361..929).step_by(7) {
        lines.push((s, "ERROR write to ledger failed: connection refused".into()));
    }
    for s in (0..1200).step_by(10) {
        lines.push((s, "INFO health check ok".into()));
    }
    let text = at_seconds_past_five(lines);
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("ledger.log"), &text).expect("write");
    let q = timeline_between("05:00", "05:19");
    for opts in whole_and_in_parts() {
        let r = run_in(dir.path(), &["ledger.log"], &q, &opts).expect("runs");
        let QueryValue::Timeline { rows, .. } = &r.value else {
            panic!("timeline: {:?}", r.value)
        };
        let batches: Vec<_> = rows.iter().filter(|r| r.text.contains("written")).collect();
        assert_eq!(batches.len(), 2, "{rows:#?}");
        let stop = batches[0].repeats.as_ref().expect("counted");
        assert_eq!(stop.count, before);
        assert_eq!(stop.last_time.as_deref(), Some("2031-07-09T05:05:57"));
        assert_eq!(stop.resumed_after_secs, None);
        assert_eq!(batches[1].time.as_deref(), Some("2031-07-09T05:15:30"));
        let back = batches[1].repeats.as_ref().expect("counted");
        // The window ends at 05:19:59, after the last batch (05:19:57).
        assert_eq!(back.count, after);
        assert_eq!(back.resumed_after_secs, Some(573));
        // The health check never stopped: one row.
        assert_eq!(rows.iter().filter(|r| r.text.contains("health")).count(), 1);
    }
}

/// A notable kind that goes on after the window says how many more follow without a long
/// pause and when the last is; a later wave after a long pause is not counted, and a kind
/// that ends in the window says nothing more. Whole or in parallel parts.
#[test]
fn a_notable_kind_that_goes_on_after_the_window_says_until_when() {
    let mut lines: Vec<(u32, String)> = Vec::new();
    // Errors every 4 s from 05:10:00 to 05:24:00; a second wave from 05:45:00 to 05:46:00.
    let mut past = 0u64;
    for s in (600..=1440).step_by(4).chain((2700..=2760).step_by(4)) {
        // The window's last minute, 05:12, runs to 05:12:59 (second 779).
        if (780..=1440).contains(&s) {
            past += 1;
        }
        lines.push((s, "ERROR settle call failed: deadline exceeded".into()));
    }
    // A warning burst wholly inside the window.
    for s in (630..=660).step_by(5) {
        lines.push((s, "WARN queue depth high".into()));
    }
    for s in (0..3000).step_by(10) {
        lines.push((s, "INFO tick".into()));
    }
    let text = at_seconds_past_five(lines);
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("settle.log"), &text).expect("write");
    let q = timeline_between("05:08", "05:12");
    for opts in whole_and_in_parts() {
        let r = run_in(dir.path(), &["settle.log"], &q, &opts).expect("runs");
        let QueryValue::Timeline { rows, .. } = &r.value else {
            panic!("timeline: {:?}", r.value)
        };
        let find = |w: &str| rows.iter().find(|r| r.text.contains(w)).expect(w);
        let errors = find("settle call failed")
            .repeats
            .as_ref()
            .expect("counted");
        // 05:10:00 .. 05:12:56 every 4 s.
        assert_eq!(errors.count, 45);
        let went_on = errors.continued.as_ref().expect("goes on");
        assert_eq!(went_on.count, past);
        assert_eq!(went_on.last_time, "2031-07-09T05:24:00");
        let warn = find("queue depth").repeats.as_ref().expect("counted");
        assert_eq!(warn.continued, None);
    }
}

/// Lines at seconds past 05:00 of one day, in time order.
fn at_seconds_past_five(mut lines: Vec<(u32, String)>) -> String {
    lines.sort_by_key(|(s, _)| *s);
    let mut text = String::new();
    for (s, l) in &lines {
        text.push_str(&format!("2031-07-09 05:{:02}:{:02} {l}\n", s / 60, s % 60));
    }
    text
}

fn timeline_between(from: &str, to: &str) -> Query {
    Query {
        measure: Measure::Timeline,
        window: Some(Window::Between {
            from: Some(TimePoint(from.into())),
            to: Some(TimePoint(to.into())),
        }),
        ..Query::default()
    }
}

/// A file read whole, and in three parallel parts.
fn whole_and_in_parts() -> [QueryOptions; 2] {
    let parts = QueryOptions {
        threads: 3,
        split_min_bytes: 1,
        ..QueryOptions::default()
    };
    [QueryOptions::default(), parts]
}
