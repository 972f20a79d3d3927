//! `update` tests of `/watch`: the first run at once, the next when the interval has passed
//! after the answer (never two at a time), changed lines marked, the floor, Esc stops.

use std::time::Duration;

use protocol::{WatchKind, WatchOutput};

use super::*;
use crate::app::watch::MIN_INTERVAL;

fn output(lines: &[&str]) -> Result<Message, String> {
    Ok(Message::WatchOutput(WatchOutput {
        request_id: 1,
        kind: WatchKind::Command,
        ok: true,
        lines: lines.iter().map(|s| s.to_string()).collect(),
        error: None,
        duration_ms: 4,
    }))
}

fn answer(a: &mut App, text: &str, lines: &[&str]) -> Vec<Command> {
    update(
        a,
        AppEvent::Reply {
            req: Req::Watch(text.into()),
            result: output(lines),
        },
    )
}

#[test]
fn watch_reruns_after_the_interval_and_marks_what_changed() {
    let mut a = connected();
    let t0 = a.now;
    let cmds = submit(&mut a, "/watch 2 ss -tln");
    assert_eq!(cmds, vec![Command::Request(Req::Watch("ss -tln".into()))]);
    assert!(matches!(a.modal, Some(Modal::Watch)));
    // Nothing more goes out while the run is on its way.
    a.now = t0 + Duration::from_secs(5);
    assert!(update(&mut a, AppEvent::Tick).is_empty());
    answer(&mut a, "ss -tln", &["State Local", "LISTEN 0.0.0.0:22"]);
    let w = a.watch.as_ref().expect("watching");
    assert_eq!(w.runs, 1);
    assert_eq!(w.changed, vec![false, false], "the first run marks nothing");
    let due = a.now + Duration::from_secs(2);
    assert_eq!(a.next_deadline(), Some(due));
    a.now = due - Duration::from_millis(1);
    assert!(update(&mut a, AppEvent::Tick).is_empty());
    a.now = due;
    assert_eq!(
        update(&mut a, AppEvent::Tick),
        vec![Command::Request(Req::Watch("ss -tln".into()))]
    );
    // A new listener: its line is marked, the others are not.
    answer(
        &mut a,
        "ss -tln",
        &["State Local", "LISTEN 0.0.0.0:22", "LISTEN 127.0.0.1:8080"],
    );
    let w = a.watch.as_ref().expect("watching");
    assert_eq!(w.changed, vec![false, false, true]);
    assert_eq!(w.runs, 2);
    // Esc stops: no more runs, a late answer changes nothing.
    update(&mut a, key(KeyCode::Esc));
    assert!(a.watch.is_none() && a.modal.is_none());
    assert_eq!(a.next_deadline().filter(|_| a.notice.is_none()), None);
    answer(&mut a, "ss -tln", &["x"]);
    assert!(a.watch.is_none());
}

#[test]
fn watch_interval_has_a_floor_and_a_refused_run_is_retried() {
    let mut a = connected();
    submit(&mut a, "/watch 0.2 CPU使用率是多少？");
    let w = a.watch.as_ref().expect("watching");
    assert_eq!(w.interval, MIN_INTERVAL);
    assert_eq!(w.text, "CPU使用率是多少？");
    // The server refused (its budget): the error shows and the next run is scheduled.
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Watch("CPU使用率是多少？".into()),
            result: Err("at most one watch run a second (busy)".into()),
        },
    );
    let w = a.watch.as_ref().expect("watching");
    assert!(w.error.as_deref().is_some_and(|e| e.contains("busy")));
    assert!(w.next_at.is_some());
    update(&mut a, key(KeyCode::Esc));
    assert!(submit(&mut a, "/watch").is_empty(), "usage, nothing sent");
    assert!(a
        .notice
        .as_ref()
        .is_some_and(|n| n.1.contains("/watch [SECS] COMMAND")));
}
