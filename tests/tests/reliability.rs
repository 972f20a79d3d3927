//! No silent loss and fair timers, on the real server binary: a turn whose history write
//! fails ends with an error the client sees (after the answer), and a stalled frame closes
//! an established connection after the configured stall timeout.

use llmops_tests::{ExtConn, ServerProc};
use protocol::*;

fn chat(c: &mut ExtConn, text: &str) -> (String, StreamEnd) {
    let rid = c.next_id();
    c.send(&Message::Chat(ChatSend {
        request_id: rid,
        text: text.into(),
        file_ids: vec![],
    }))
    .expect("send");
    let msgs = c
        .recv_until(|m| matches!(m, Message::StreamEnd(e) if e.request_id == rid))
        .expect("turn");
    let answer = msgs
        .iter()
        .filter_map(|m| match m {
            Message::StreamDelta(d) if d.request_id == rid => Some(d.text.clone()),
            _ => None,
        })
        .collect();
    match msgs.last() {
        Some(Message::StreamEnd(e)) => (answer, e.clone()),
        other => panic!("turn did not end: {other:?}"),
    }
}

#[test]
fn a_failed_history_write_reaches_the_client_after_the_answer() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let (_, end) = chat(&mut c, "你好");
    assert_eq!(end.status, EndStatus::Ok);

    // Every history write now fails, as on a full disk (set from another connection; the
    // server's connection sees the schema change on its next statement).
    let db = rusqlite::Connection::open(server.data_path().join("llmops.sqlite")).expect("db");
    db.execute_batch(
        "CREATE TRIGGER refuse_history BEFORE INSERT ON messages \
         BEGIN SELECT RAISE(FAIL, 'database or disk is full (simulated)'); END;",
    )
    .expect("trigger");
    let (answer, end) = chat(&mut c, "现在几点了，CPU 怎么样");
    assert!(!answer.trim().is_empty(), "the answer is still shown");
    assert_eq!(end.status, EndStatus::Error);
    let msg = end.message.expect("reason");
    assert!(
        msg.starts_with("对话已显示但未能保存到历史: ")
            && msg.contains("could not be saved")
            && msg.contains("database or disk is full (simulated)"),
        "{msg}"
    );

    // The log names the session whose turn was lost.
    drop(db);
    let sid = c.session_id();
    // The log writer is asynchronous: poll (hang guard 10 s).
    let guard = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let logged = loop {
        let logs = std::fs::read_dir(server.data_path().join("logs")).expect("logs dir");
        let text: String = logs
            .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
            .collect();
        let found = text
            .lines()
            .any(|l| l.contains("history write failed") && l.contains(&sid));
        if found || std::time::Instant::now() > guard {
            break found;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(logged, "no log line for session {sid}");
}

#[test]
fn a_stalled_frame_on_an_established_connection_is_closed_by_the_stall_timer() {
    // Stall timeout 2 s, heartbeat 90 s: before the fix the stall timer was only armed when
    // the heartbeat woke the loop, 90 s later, so the hang guard below would fire.
    let dir = tempfile::tempdir().expect("tempdir");
    let cfg = dir.path().join("server.toml");
    std::fs::write(&cfg, "partial_frame_timeout_secs = 2\n").expect("config");
    let cfg = cfg.to_string_lossy().to_string();
    let server = ServerProc::start_with(&["--config", &cfg]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    // A CHAT header announcing 100 bytes, then 3 of them, then nothing.
    c.send_raw(&[0x24, 0x00, 0x09, 0x00, 100, b'{', b'"', b'r'])
        .expect("partial frame");
    // Hang guard: the server must close within 20 s (RawConn's read timeout).
    match c.recv() {
        Err(e) => assert!(
            e.to_string().contains("connection closed")
                || e.to_string().contains("reset")
                || e.to_string().contains("Connection reset"),
            "expected a close, got {e}"
        ),
        Ok(m) => panic!("expected the connection to close, got {m:?}"),
    }
}
