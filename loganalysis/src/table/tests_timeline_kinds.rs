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
