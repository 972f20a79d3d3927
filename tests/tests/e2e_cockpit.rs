//! The cockpit's protocol against the real server: a monitor view that finds an idle
//! process by its arguments (and its ancestors in tree mode), the history once,
//! PROCESS_GET of a planted process, a signal proposed by the client through the approval
//! path (approved, rejected, denied), and WATCH_RUN (a command, its budget, a question
//! that writes no history).

use std::time::{Duration, Instant};

use llmops_tests::{ExtConn, ServerProc};
use protocol::{
    ApprovalDecision, ApprovalStateKind, HistoryGet, Message, MonitorSnapshot, MonitorSubscribe,
    ProcessGet, ProcessSort, ProcessView, WatchKind, WatchRun,
};

/// A `sleep` that has exec'd and gone to sleep: right after `spawn` it may still be the
/// forked test binary, or running on its way to its first sleep (state `R`).
fn plant(arg: &str) -> std::process::Child {
    let mut child = std::process::Command::new("sleep")
        .arg(arg)
        .stdin(std::process::Stdio::null())
        .spawn()
        .expect("sleep runs");
    let stat = format!("/proc/{}/stat", child.id());
    for _ in 0..500 {
        let s = std::fs::read_to_string(&stat).unwrap_or_default();
        if s.contains("(sleep) S") {
            return child;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // Reaped before failing, so no zombie outlives the test.
    if let Err(e) = child.kill().and_then(|()| child.wait().map(drop)) {
        eprintln!("the planted sleep could not be stopped: {e}");
    }
    panic!("the planted sleep never slept: {stat}");
}

fn subscribe(c: &mut ExtConn, processes: Option<ProcessView>, history: bool) {
    c.send(&Message::MonitorSubscribe(MonitorSubscribe {
        interval_ms: 250,
        processes,
        history,
    }))
    .expect("send");
}

fn next_snapshot(c: &mut ExtConn) -> MonitorSnapshot {
    match c
        .recv_until(|m| matches!(m, Message::MonitorSnapshot(_)))
        .expect("snapshot")
        .pop()
    {
        Some(Message::MonitorSnapshot(s)) => s,
        other => panic!("{other:?}"),
    }
}

/// Snapshots until `pred` holds (the sampler sees a new process within a second or two).
fn snapshot_where(c: &mut ExtConn, pred: impl Fn(&MonitorSnapshot) -> bool) -> MonitorSnapshot {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let s = next_snapshot(c);
        if pred(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "never: {:?}", s.top_processes);
    }
}

#[test]
fn a_view_finds_an_idle_process_by_its_arguments_and_history_comes_once() {
    let server = ServerProc::start().expect("server");
    let mut child = plant("864213.5");
    let pid = child.id();
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    // The sampler's second sample is its first history point.
    std::thread::sleep(Duration::from_millis(1500));
    subscribe(&mut c, None, true);
    let first = next_snapshot(&mut c);
    assert!(!first.history.is_empty(), "history on the first snapshot");
    // It ends with this sample (or a newer one that came while it was sent).
    assert!(first.history.last().map(|h| h.ts_ms) >= Some(first.ts_ms));
    let second = next_snapshot(&mut c);
    assert!(second.history.is_empty(), "history only once");
    assert!(second.top_processes.len() <= 40, "the default top union");
    let view = ProcessView {
        filter: "864213".into(),
        sort: ProcessSort::Cpu,
        limit: 10,
        tree: false,
    };
    subscribe(&mut c, Some(view.clone()), false);
    let s = snapshot_where(&mut c, |s| s.top_processes.iter().any(|p| p.pid == pid));
    assert_eq!(s.top_processes.len(), 1, "{:?}", s.top_processes);
    let p = &s.top_processes[0];
    assert_eq!(p.command, "sleep 864213.5");
    assert_eq!(p.ppid, std::process::id(), "its parent is this test");
    // Tree mode: the test process (its parent) and that one's ancestors come along.
    subscribe(&mut c, Some(ProcessView { tree: true, ..view }), false);
    let s = snapshot_where(&mut c, |s| s.top_processes.len() > 1);
    let pids: Vec<u32> = s.top_processes.iter().map(|p| p.pid).collect();
    assert_eq!(pids[0], pid);
    assert!(pids.contains(&std::process::id()), "{pids:?}");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn process_get_reads_the_planted_process() {
    let server = ServerProc::start().expect("server");
    let mut child = plant("864214.5");
    let pid = child.id();
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let rid = c.next_id();
    c.send(&Message::ProcessGet(ProcessGet {
        request_id: rid,
        pid,
    }))
    .expect("send");
    let reply = c
        .recv_until(|m| matches!(m, Message::ProcessInfo(r) if r.request_id == rid))
        .expect("reply")
        .pop();
    let Some(Message::ProcessInfo(r)) = reply else {
        panic!("{reply:?}")
    };
    let d = r.process;
    assert_eq!(d.argv, vec!["sleep", "864214.5"]);
    assert_eq!(d.name, "sleep");
    assert_eq!(d.parent.as_ref().map(|p| p.pid), Some(std::process::id()));
    assert!(d.state.starts_with('S'), "{}", d.state);
    assert!(d.fds_total >= 3, "stdin, stdout, stderr: {d:?}");
    let _ = child.kill();
    let _ = child.wait();
    let rid = c.next_id();
    c.send(&Message::ProcessGet(ProcessGet {
        request_id: rid,
        pid,
    }))
    .expect("send");
    let reply = c
        .recv_until(|m| matches!(m, Message::Error(e) if e.request_id == Some(rid)))
        .expect("error");
    assert!(
        matches!(reply.last(), Some(Message::Error(e)) if e.code == "not_found"),
        "{reply:?}"
    );
}

fn states(t: &llmops_tests::ChatTurn) -> Vec<ApprovalStateKind> {
    t.msgs
        .iter()
        .filter_map(|m| match m {
            Message::ApprovalState(s) => Some(s.state),
            _ => None,
        })
        .collect()
}

#[test]
fn a_proposed_signal_runs_only_when_approved() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    // Rejected: nothing runs, the process lives on.
    let mut child = plant("864215.5");
    let pid = child.id().to_string();
    let mut seen = Vec::new();
    let t = c
        .propose_deciding(
            &format!("Send SIGTERM to process {pid}"),
            &["kill", "-term", &pid],
            |r| {
                seen.push(r.argv.clone());
                ApprovalDecision::Reject
            },
        )
        .expect("turn");
    assert_eq!(
        seen,
        vec![vec!["kill".to_string(), "-TERM".into(), pid.clone()]]
    );
    assert_eq!(states(&t), vec![ApprovalStateKind::Rejected]);
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "it was signalled"
    );
    // Approved once: it gets SIGTERM, and the answer says what verification saw.
    let t = c
        .propose_deciding(
            &format!("Send SIGTERM to process {pid}"),
            &["kill", "-TERM", &pid],
            |_| ApprovalDecision::ApproveOnce,
        )
        .expect("turn");
    assert_eq!(states(&t), vec![ApprovalStateKind::Approved]);
    let st = child.wait().expect("wait");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(st.signal(), Some(15));
    assert!(
        t.answer.contains(&format!("kill -TERM {pid}")),
        "{}",
        t.answer
    );
    // The server itself is never offered: a deny rule refuses it before any request.
    let own = server.pid().to_string();
    let mut asked = false;
    let t = c
        .propose_deciding("stop the server", &["kill", "-KILL", &own], |_| {
            asked = true;
            ApprovalDecision::ApproveOnce
        })
        .expect("turn");
    assert!(!asked);
    assert_eq!(states(&t), vec![ApprovalStateKind::Denied]);
    // The proposals are in the history as the operator's words.
    let rid = c.next_id();
    c.send(&Message::HistoryGet(HistoryGet {
        request_id: rid,
        limit: None,
    }))
    .expect("send");
    let h = c
        .recv_until(|m| matches!(m, Message::History(_)))
        .expect("history");
    let Some(Message::History(h)) = h.last() else {
        panic!()
    };
    assert!(h
        .messages
        .iter()
        .any(|m| m.role == "user" && m.text == format!("Send SIGTERM to process {pid}")));
}

fn watch(c: &mut ExtConn, text: &str) -> Message {
    let rid = c.next_id();
    c.send(&Message::WatchRun(WatchRun {
        request_id: rid,
        text: text.into(),
    }))
    .expect("send");
    c.recv_until(|m| match m {
        Message::WatchOutput(o) => o.request_id == rid,
        Message::Error(e) => e.request_id == Some(rid),
        _ => false,
    })
    .expect("reply")
    .pop()
    .expect("a message")
}

#[test]
fn watch_runs_commands_and_questions_without_history_within_its_budget() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    let Message::WatchOutput(o) = watch(&mut c, "ss -tln") else {
        panic!("no output")
    };
    assert_eq!(o.kind, WatchKind::Command);
    assert!(o.ok, "{o:?}");
    assert!(
        o.lines
            .iter()
            .any(|l| l.contains(&format!("127.0.0.1:{port}"))),
        "{:?}",
        o.lines
    );
    // A second run within the second is refused.
    let m = watch(&mut c, "ss -tln");
    assert!(matches!(&m, Message::Error(e) if e.code == "busy"), "{m:?}");
    // A refused command says why; nothing ran.
    std::thread::sleep(Duration::from_millis(1100));
    let Message::WatchOutput(o) = watch(&mut c, "rm -rf /tmp/x") else {
        panic!("no output")
    };
    assert!(!o.ok && o.error.is_some(), "{o:?}");
    // A question is answered; the history stays empty.
    std::thread::sleep(Duration::from_millis(1100));
    let Message::WatchOutput(o) = watch(&mut c, "CPU使用率是多少？") else {
        panic!("no output")
    };
    assert_eq!(o.kind, WatchKind::Answer);
    assert!(o.lines.join("\n").contains('%'), "{o:?}");
    let rid = c.next_id();
    c.send(&Message::HistoryGet(HistoryGet {
        request_id: rid,
        limit: None,
    }))
    .expect("send");
    let h = c
        .recv_until(|m| matches!(m, Message::History(_)))
        .expect("history");
    assert!(
        matches!(h.last(), Some(Message::History(h)) if h.messages.is_empty()),
        "{h:?}"
    );
}
