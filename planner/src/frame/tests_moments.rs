//! Moments asked several to a message, checked against planted ground truth: a list after
//! a colon that asks for times (each item its own query, over the log and window said
//! before it), "when did …, when did …" asked in a row, a verb whose other form is
//! irregular ("lose the lease" of a log that writes "lease lost"), and a tag's word that a
//! name in code already says.

use llmops_common::query::{QueryResult, QueryValue};

use super::tests_answers::Planted;
use super::tests_counts::number;

/// A coordinator's log in no shipped format and a gateway's beside it, with the times of
/// the planted moments: the first quorum failure, the first lease lost, the last member
/// marked failed, how many were marked failed, the gateway's last upstream reset and its
/// first request from 10.9.4.x.
struct Night {
    coordinator: String,
    gateway: String,
    first_quorum: String,
    first_lease_lost: String,
    first_lease_lost_in_window: String,
    last_marked_in_window: String,
    marked_failed: u64,
    last_reset: String,
    first_from_net: String,
}

fn stamp(secs: u64) -> String {
    format!(
        "2031-04-11T{:02}:{:02}:{:02}.{:03}Z",
        1 + secs / 3600,
        secs / 60 % 60,
        secs % 60,
        secs * 37 % 1000
    )
}

fn night() -> Night {
    let (mut coordinator, mut gateway) = (String::new(), String::new());
    let mut quorum = Vec::new();
    let mut lease = Vec::new();
    let mut marked = Vec::new();
    for i in 0..700u64 {
        let at = stamp(i * 7);
        let line = if i % 50 == 13 {
            quorum.push(at.clone());
            format!("{at} [WARN]  coord.quorum: quorum check failed: voters=2/5")
        } else if i % 97 == 40 {
            lease.push(at.clone());
            format!(
                "{at} [INFO]  coord.lease: lease lost: holder=node-{}",
                i % 7
            )
        } else if i % 120 == 77 {
            marked.push(at.clone());
            format!(
                "{at} [INFO]  coord.peers: NodeMarkedFailed: node-{} 10.9.1.{}",
                i % 5,
                i % 200
            )
        } else {
            format!("{at} [DEBUG] coord.raft: heartbeat sent: seq={i}")
        };
        coordinator.push_str(&line);
        coordinator.push('\n');
    }
    let (mut resets, mut from_net) = (Vec::new(), Vec::new());
    for i in 0..500u64 {
        let at = stamp(i * 9 + 3);
        if i % 61 == 20 {
            resets.push(at.clone());
            gateway.push_str(&format!(
                "{at} [ERROR] gw.proxy: upstream reset by peer route=/pay\n"
            ));
        } else {
            let net = if i % 23 == 5 { 4 } else { 5 };
            if net == 4 {
                from_net.push(at.clone());
            }
            gateway.push_str(&format!(
                "{at} [INFO]  gw.proxy: request client=10.9.{net}.{} route=/cart status=200\n",
                i % 250
            ));
        }
    }
    // 01:20 to 02:00 (both included, to the second): the first lease lost inside it and
    // the last member marked failed.
    let inside =
        |t: &&String| t.as_str() >= "2031-04-11T01:20:00" && t.as_str() < "2031-04-11T02:00:01";
    let in_window = lease
        .iter()
        .find(inside)
        .cloned()
        .expect("a lease lost in the window");
    let last_marked = marked
        .iter()
        .rev()
        .find(inside)
        .cloned()
        .expect("one marked in the window");
    Night {
        coordinator,
        gateway,
        first_quorum: quorum[0].clone(),
        first_lease_lost: lease[0].clone(),
        first_lease_lost_in_window: in_window,
        last_marked_in_window: last_marked,
        marked_failed: marked.len() as u64,
        last_reset: resets.last().cloned().expect("a reset"),
        first_from_net: from_net[0].clone(),
    }
}

/// The time of a rows answer's one event.
fn time_of(r: &QueryResult) -> String {
    let QueryValue::Rows { rows, .. } = &r.value else {
        panic!("not rows: {:?}", r.value);
    };
    assert_eq!(rows.len(), 1, "{:?}", r.query);
    rows[0].time.clone().expect("a time")
}

fn planted(n: &Night) -> Planted {
    Planted::many(&[
        ("coordinator.log", &n.coordinator),
        ("gateway.log", &n.gateway),
    ])
}

#[test]
fn a_list_of_moments_after_a_colon_is_one_query_each() {
    let n = night();
    let p = planted(&n);
    let q = "put these in order with timestamps, coordinator.log and gateway.log: the \
             coordinator's first quorum check failure, when the coordinator first lost the \
             lease, gateway's last 'upstream reset', and the first request gateway got from a \
             10.9.4.x client";
    // The words before the list ask the two logs in order: their timeline comes first.
    let answers = p.answers_of_message(q);
    let times: Vec<String> = answers
        .iter()
        .filter(|r| !matches!(r.value, QueryValue::Timeline { .. }))
        .map(time_of)
        .collect();
    let want = [
        &n.first_quorum,
        &n.first_lease_lost,
        &n.last_reset,
        &n.first_from_net,
    ];
    assert_eq!(times.len(), want.len(), "{q}: {times:?}");
    for (got, want) in times.iter().zip(want) {
        assert!(got.starts_with(&want[..23]), "{q}: {got} vs {want}");
    }
}

#[test]
fn listed_moments_read_the_log_and_window_said_before_them() {
    let n = night();
    let p = planted(&n);
    let q = "what happened in coordinator.log between 01:20 and 02:00? give me the times: the \
             first lease lost, the last NodeMarkedFailed";
    let answers = p.answers_of_message(q);
    // The timeline of the window first, then one answer per moment.
    let [_, lease, marked] = answers.as_slice() else {
        panic!("{q}: {} answers", answers.len());
    };
    assert!(time_of(lease).starts_with(&n.first_lease_lost_in_window[..23]));
    assert!(
        time_of(marked).starts_with(&n.last_marked_in_window[..23]),
        "{q}"
    );
}

#[test]
fn when_asked_again_after_a_comma_is_another_question() {
    let n = night();
    let p = planted(&n);
    let q = "coordinator.log: when did the first quorum check fail, when did it first lose \
             the lease?";
    let times: Vec<String> = p.answers_of_message(q).iter().map(time_of).collect();
    assert_eq!(times.len(), 2, "{q}: {times:?}");
    assert!(
        times[0].starts_with(&n.first_quorum[..23]),
        "{q}: {times:?}"
    );
    assert!(
        times[1].starts_with(&n.first_lease_lost[..23]),
        "{q}: {times:?}"
    );
}

#[test]
fn a_tag_a_name_in_code_already_says_is_the_name_alone() {
    let n = night();
    let p = planted(&n);
    for q in [
        "how many members were marked failed (NodeMarkedFailed) in coordinator.log?",
        "coordinator.log 里 failed 的 NodeMarkedFailed 有多少条",
    ] {
        assert_eq!(number(&p.answer(q)), n.marked_failed, "{q}");
    }
    // A program's name that starts like the word is no such name: the tag stays.
    let ups = crate::tests::uploads(&["auth.log"]);
    let ctx = super::FrameCtx::of_uploads(&ups);
    let q = "how many failed logins did fail2ban see in auth.log";
    let Some(super::Understood::Query(f)) = super::question::understand(q, &ctx) else {
        panic!("no query for {q}");
    };
    assert!(
        f.query
            .filters
            .iter()
            .any(|x| x.op == llmops_common::query::FilterOp::Tag),
        "{q}: {f:?}"
    );
}

#[test]
fn a_timeline_before_a_list_is_asked_and_whens_in_a_row_keep_its_window() {
    let n = night();
    let p = planted(&n);
    let q = "what happened in coordinator.log between 01:20 and 02:00: the first lease lost, \
             the last NodeMarkedFailed";
    let answers = p.answers_of_message(q);
    let [timeline, lease, _] = answers.as_slice() else {
        panic!("{q}: {} answers", answers.len());
    };
    assert!(
        matches!(timeline.value, QueryValue::Timeline { .. }),
        "{q}: {:?}",
        timeline.query
    );
    assert!(
        time_of(lease).starts_with(&n.first_lease_lost_in_window[..23]),
        "{q}"
    );
    let q = "coordinator.log between 01:20 and 02:00 - when did it first lose the lease, when \
             was the last NodeMarkedFailed";
    let answers = p.answers_of_message(q);
    let [lease, marked] = answers.as_slice() else {
        panic!("{q}: {} answers", answers.len());
    };
    assert!(
        time_of(lease).starts_with(&n.first_lease_lost_in_window[..23]),
        "{q}"
    );
    assert!(
        time_of(marked).starts_with(&n.last_marked_in_window[..23]),
        "{q}"
    );
}
