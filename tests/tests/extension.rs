//! The extension protocol against the real server binary: handshake, streamed turns,
//! structured sessions and history, error frames for bad input, auth, connection limit
//! and resume across a restart.

use llmops_tests::{ExtConn, RawConn, ServerProc};
use protocol::*;

fn chat(c: &mut ExtConn, text: &str) -> (String, Vec<Message>) {
    let t = c.chat(text, vec![]).expect("turn");
    (t.answer, t.msgs)
}

#[test]
fn handshake_turn_sessions_and_history() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let w = c.welcome.clone().expect("welcome");
    assert_eq!(w.proto, PROTOCOL_VERSION);
    assert_eq!(w.heartbeat_secs, 90);
    assert_eq!(w.egress, "none");
    assert!(!w.resumed);

    let (answer, msgs) = chat(&mut c, "你好");
    assert!(!answer.is_empty());
    assert!(msgs.iter().any(|m| matches!(m, Message::StreamStart(_))));
    let end = msgs.last().expect("end");
    assert!(matches!(end, Message::StreamEnd(e) if e.status == EndStatus::Ok));

    // Structured history holds exactly the streamed answer.
    let rid = c.next_id();
    c.send(&Message::HistoryGet(HistoryGet {
        request_id: rid,
        limit: None,
    }))
    .expect("send");
    let Message::History(h) = c.recv().expect("history") else {
        panic!("not history")
    };
    assert_eq!(h.request_id, rid);
    assert_eq!(h.messages.len(), 2);
    assert_eq!(h.messages[0].role, "user");
    assert_eq!(h.messages[1].text, answer);

    // Sessions: new, rename, list, switch by prefix, delete the other one.
    let first = c.session_id();
    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op: SessionOp::New {
            name: Some("磁盘排查".into()),
        },
    }))
    .expect("send");
    let Message::SessionReply(r) = c.recv().expect("reply") else {
        panic!()
    };
    assert_eq!(r.op, "new");
    assert_eq!(r.current.name, "磁盘排查");
    let second = r.current.id.clone();
    assert_eq!(r.sessions.len(), 2);

    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op: SessionOp::Delete { id: second.clone() },
    }))
    .expect("send");
    let Message::Error(e) = c.recv().expect("reply") else {
        panic!("current session deleted")
    };
    assert_eq!((e.code.as_str(), e.request_id), ("forbidden", Some(rid)));

    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op: SessionOp::Switch {
            id: first[..6].into(),
        },
    }))
    .expect("send");
    let Message::SessionReply(r) = c.recv().expect("reply") else {
        panic!()
    };
    assert_eq!(r.current.id, first);

    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op: SessionOp::Delete {
            id: second[..8].into(),
        },
    }))
    .expect("send");
    let Message::SessionReply(r) = c.recv().expect("reply") else {
        panic!()
    };
    assert_eq!(r.sessions.len(), 1);

    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op: SessionOp::Switch { id: "zzzz".into() },
    }))
    .expect("send");
    let Message::Error(e) = c.recv().expect("reply") else {
        panic!()
    };
    assert_eq!(e.code, "not_found");

    // Deleting an unknown session is not_found, not forbidden.
    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op: SessionOp::Delete { id: "zzzz".into() },
    }))
    .expect("send");
    let Message::Error(e) = c.recv().expect("reply") else {
        panic!()
    };
    assert_eq!((e.code.as_str(), e.request_id), ("not_found", Some(rid)));
}

#[test]
fn bad_frames_get_errors_and_the_connection_lives() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    // Unknown type, invalid JSON, a server-only type, data without an upload.
    c.send_raw(&[0x99, 0, 0, 0, 1, b'x']).expect("send");
    c.send_raw(&[0x24, 0, 1, 0, 2, b'{', b'x']).expect("send");
    c.send(&Message::Ack(Ack {
        request_id: 1,
        message: "x".into(),
    }))
    .expect("send");
    c.send(&Message::UploadData(Raw(bytes::Bytes::from_static(b"zz"))))
        .expect("send");
    let codes: Vec<String> = (0..4)
        .map(|_| match c.recv().expect("error") {
            Message::Error(e) => e.code,
            other => panic!("expected error, got {other:?}"),
        })
        .collect();
    assert_eq!(
        codes,
        ["unknown_type", "bad_payload", "unexpected", "no_upload"]
    );
    let (answer, _) = chat(&mut c, "still there?");
    assert!(!answer.is_empty());
}

#[test]
fn large_message_round_trips_through_fragments() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let big = "大".repeat(40_000); // 120 KB: needs fragments both ways
    let (answer, _) = chat(&mut c, &big);
    assert!(answer.contains(&big[..300]));
    let rid = c.next_id();
    c.send(&Message::HistoryGet(HistoryGet {
        request_id: rid,
        limit: Some(2),
    }))
    .expect("send");
    // The history holds the question whole: 120 KB back from the server, in fragments.
    let Message::History(h) = c.recv().expect("history") else {
        panic!()
    };
    assert!(
        h.messages.iter().any(|m| m.text == big),
        "{}",
        h.messages.len()
    );
}

/// The next message that is not an asynchronous upload-state push (those follow an
/// UPLOAD_RESULT while indexing goes on).
fn reply(c: &mut ExtConn) -> Message {
    loop {
        match c.recv().expect("reply") {
            Message::UploadStatus(_) => continue,
            m => return m,
        }
    }
}

/// Uploads the `app.log` fixture in one frame; returns its bytes and the messages up to the
/// result (or an error).
fn upload_app_log(c: &mut ExtConn) -> (Vec<u8>, Vec<Message>) {
    let body = std::fs::read(llmops_tests::fixtures_dir().join("app.log")).expect("fixture");
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart {
        request_id: rid,
        filename: "app.log".into(),
        size: body.len() as u64,
        sha256: None,
        result_on_save: false,
    }))
    .expect("send");
    c.send(&Message::UploadData(Raw(bytes::Bytes::from(body.clone()))))
        .expect("send");
    let msgs = c
        .recv_until(|m| matches!(m, Message::UploadResult(_) | Message::Error(_)))
        .expect("result");
    (body, msgs)
}

#[test]
fn uploads_are_verified_and_listed() {
    let server = ServerProc::start_with(&["--upload-limit", "1000"]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let (body, msgs) = upload_app_log(&mut c);
    let Some(Message::UploadResult(r)) = msgs.last() else {
        panic!("{msgs:?}")
    };
    assert_eq!(r.file.size, body.len() as u64);
    assert_eq!(r.file.state, "indexed");

    // Too large (announced), then binary content: specific errors, and nothing kept.
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart {
        request_id: rid,
        filename: "big.log".into(),
        size: 5000,
        sha256: None,
        result_on_save: false,
    }))
    .expect("send");
    let Message::Error(e) = reply(&mut c) else {
        panic!()
    };
    assert_eq!(
        e.message,
        "文件大小超过限制 (4.9 KiB > 1000 B) / file too large"
    );
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart {
        request_id: rid,
        filename: "x.bin".into(),
        size: 4,
        sha256: None,
        result_on_save: false,
    }))
    .expect("send");
    c.send(&Message::UploadData(Raw(bytes::Bytes::from_static(
        b"\0\x01\x02\x03",
    ))))
    .expect("send");
    let Message::Error(e) = reply(&mut c) else {
        panic!()
    };
    assert_eq!(e.message, "不支持的文件类型: x.bin (仅支持文本文件)");

    let files = c.files().expect("list");
    assert_eq!(files.len(), 1, "{files:?}");
    let audit = std::fs::read_to_string(server.data_path().join("logs/file_operations.log"))
        .expect("audit log");
    assert!(
        audit.contains("[UPLOAD]") && audit.contains("filename=app.log"),
        "{audit}"
    );
    assert!(audit.contains("[DENY]"), "{audit}");
}

#[test]
fn auth_token_required_beyond_loopback() {
    // Binding 0.0.0.0 without a token is a startup error.
    let err = ServerProc::start_with(&["--listen", "0.0.0.0:0"])
        .err()
        .expect("refused");
    assert!(err.to_string().contains("auth token"), "{err}");
    let server = ServerProc::start_with(&["--auth-token", "s3cret-token-0123456"]).expect("server");
    let e = ExtConn::connect(server.addr, None, Some("wrong"))
        .err()
        .expect("refused");
    assert!(e.to_string().contains("unauthorized"), "{e}");
    let mut legacy = RawConn::connect(server.addr).expect("connect");
    legacy.send(0x01, b"hi").expect("send");
    let (_, text) = legacy.recv_text().expect("refusal");
    assert!(text.contains("令牌"), "{text}");
    let mut c =
        ExtConn::connect(server.addr, None, Some("s3cret-token-0123456")).expect("accepted");
    let (answer, _) = chat(&mut c, "hi");
    assert!(!answer.is_empty());
}

/// A session command's reply: SESSION_REPLY or ERROR.
fn session_op(c: &mut ExtConn, op: SessionOp) -> Message {
    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op,
    }))
    .expect("send");
    c.recv().expect("reply")
}

fn listed(c: &mut ExtConn) -> Vec<SessionInfo> {
    match session_op(c, SessionOp::List) {
        Message::SessionReply(r) => r.sessions,
        other => panic!("not a session list: {other:?}"),
    }
}

/// Finding 13: two named tokens cannot list, switch to (by full id or prefix), resume,
/// delete or rename each other's sessions; legacy clients are refused.
#[test]
fn named_tokens_see_only_their_own_sessions() {
    const ALICE: &str = "alice-token-0123456789";
    const BOB: &str = "bob-token-9876543210";
    let server = ServerProc::start_with(&[
        "--auth-token",
        &format!("alice={ALICE}"),
        "--auth-token",
        &format!("bob={BOB}"),
    ])
    .expect("server");
    let mut alice = ExtConn::connect(server.addr, None, Some(ALICE)).expect("alice");
    chat(&mut alice, "hi from alice");
    let a1 = alice.session_id();
    assert_eq!(a1.len(), 32);
    let Message::SessionReply(r) = session_op(
        &mut alice,
        SessionOp::New {
            name: Some("alice-2".into()),
        },
    ) else {
        panic!("no new session")
    };
    let a2 = r.current.id.clone();
    let mut bob = ExtConn::connect(server.addr, None, Some(BOB)).expect("bob");
    chat(&mut bob, "hi from bob");
    let b1 = bob.session_id();
    let bob_ids: Vec<String> = listed(&mut bob).into_iter().map(|s| s.id).collect();
    assert_eq!(bob_ids, vec![b1.clone()]);
    let alice_ids: Vec<String> = listed(&mut alice).into_iter().map(|s| s.id).collect();
    assert_eq!(alice_ids.len(), 2);
    assert!(alice_ids.contains(&a1) && alice_ids.contains(&a2) && !alice_ids.contains(&b1));

    // Switch by full id, by a long prefix: not found; bob stays where he was.
    for p in [a1.clone(), a1[..31].to_string(), a2[..8].to_string()] {
        match session_op(&mut bob, SessionOp::Switch { id: p.clone() }) {
            Message::Error(e) => assert_eq!(e.code, "not_found", "{p}: {e:?}"),
            other => panic!("{p}: bob switched: {other:?}"),
        }
    }
    // A short prefix resolves among bob's sessions only, never to alice's.
    for p in [&a1[..3], &a2[..3]] {
        if let Message::SessionReply(r) = session_op(&mut bob, SessionOp::Switch { id: p.into() }) {
            assert_eq!(r.current.id, b1, "{p}");
        }
    }
    match session_op(&mut bob, SessionOp::Delete { id: a2.clone() }) {
        Message::Error(e) => assert_eq!(e.code, "not_found"),
        other => panic!("bob deleted alice's session: {other:?}"),
    }
    match session_op(
        &mut bob,
        SessionOp::Rename {
            id: Some(a2.clone()),
            name: "stolen".into(),
        },
    ) {
        Message::Error(e) => assert_eq!(e.code, "not_found"),
        other => panic!("bob renamed alice's session: {other:?}"),
    }
    let still: Vec<SessionInfo> = listed(&mut alice);
    assert_eq!(still.len(), 2);
    assert!(still.iter().any(|s| s.id == a2 && s.name == "alice-2"));
    // Resuming alice's session with bob's token starts a new session of bob's instead.
    let b2 = ExtConn::connect(server.addr, Some(&a1), Some(BOB)).expect("bob again");
    let w = b2.welcome.clone().expect("welcome");
    assert!(!w.resumed);
    assert_ne!(w.session_id, a1);
    // Alice resumes her own by prefix.
    let a = ExtConn::connect(server.addr, Some(&a1[..6]), Some(ALICE)).expect("alice again");
    assert_eq!(a.welcome.clone().expect("welcome").session_id, a1);
    // A legacy client cannot present a token: refused.
    let mut legacy = RawConn::connect(server.addr).expect("connect");
    legacy.send(0x01, b"hi").expect("send");
    let (_, text) = legacy.recv_text().expect("refusal");
    assert!(text.contains("令牌"), "{text}");
}

#[test]
fn the_connection_limit_closes_the_longest_idle_client_with_an_error() {
    let server = ServerProc::start_with(&["--max-connections", "2"]).expect("server");
    let mut a = ExtConn::connect(server.addr, None, None).expect("first");
    let _b = ExtConn::connect(server.addr, None, None).expect("second");
    // Both are idle: the third takes the place of the one idle the longest, which is told.
    let mut c = ExtConn::connect(server.addr, None, None).expect("third served");
    c.files().expect("served");
    match a.recv().expect("notice") {
        Message::Error(e) => {
            assert_eq!(e.code, "busy", "{e:?}");
            assert!(e.message.contains("connection limit reached (2)"), "{e:?}");
        }
        other => panic!("expected ERROR busy, got {other:?}"),
    }
}

#[test]
fn session_resumes_after_restart_and_sigterm_is_clean() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let (answer, _) = chat(&mut c, "remember me");
    let sid = c.session_id();
    drop(c);
    let (clean, dir) = server.terminate().expect("terminate");
    assert!(clean, "SIGTERM should exit 0");
    let server = ServerProc::start_in(dir, &[]).expect("restart");
    let c = ExtConn::connect(server.addr, Some(&sid[..10]), None).expect("resume");
    let w = c.welcome.clone().expect("welcome");
    assert!(w.resumed);
    assert_eq!(w.session_id, sid);
    let mut c = c;
    let rid = c.next_id();
    c.send(&Message::HistoryGet(HistoryGet {
        request_id: rid,
        limit: None,
    }))
    .expect("send");
    let Message::History(h) = c.recv().expect("history") else {
        panic!()
    };
    assert_eq!(h.messages.last().expect("answer").text, answer);
}

/// FILE_REGION against a planted file in a doc folder: exactly the lines asked for (checked
/// against the file), the end of the file, the 400-line cap, an upload by its id, refused
/// paths (deny list, outside every root) with a DENY audit line, and a bad range. The
/// WELCOME lists the allowed commands.
#[test]
fn file_regions_read_through_the_path_policy() {
    let docs = tempfile::tempdir().expect("tempdir");
    let planted = docs.path().join("planted.log");
    let text: String = (1..=1000)
        .map(|i| format!("2026-11-24 line {i} payload\n"))
        .collect();
    std::fs::write(&planted, &text).expect("plant");
    let server =
        ServerProc::start_with(&["--docs", &docs.path().display().to_string()]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let w = c.welcome.clone().expect("welcome");
    assert!(w.commands.iter().any(|n| n == "ps"), "{:?}", w.commands);
    assert!(!w.commands.iter().any(|n| n == "rm"), "{:?}", w.commands);
    let region = |c: &mut ExtConn, target: &str, first: u64, last: u64| {
        let rid = c.next_id();
        c.send(&Message::FileRegion(FileRegion {
            request_id: rid,
            target: target.into(),
            first_line: first,
            last_line: last,
        }))
        .expect("send");
        let m = reply(c);
        match &m {
            Message::FileRegionReply(r) => assert_eq!(r.request_id, rid),
            Message::Error(e) => assert_eq!(e.request_id, Some(rid)),
            other => panic!("not an answer: {other:?}"),
        }
        m
    };
    let path = planted.display().to_string();
    let want = |first: usize, n: usize| -> Vec<String> {
        text.lines()
            .skip(first - 1)
            .take(n)
            .map(str::to_string)
            .collect()
    };
    let Message::FileRegionReply(r) = region(&mut c, &path, 90, 150) else {
        panic!("refused")
    };
    assert_eq!((r.first_line, r.total_lines), (90, 1000));
    assert_eq!(r.lines, want(90, 61));
    assert_eq!(r.lines[0], "2026-11-24 line 90 payload");
    assert!(r.path.ends_with("planted.log"), "{}", r.path);
    let Message::FileRegionReply(r) = region(&mut c, &path, 990, 2000) else {
        panic!("refused")
    };
    assert_eq!(r.lines, want(990, 11));
    let Message::FileRegionReply(r) = region(&mut c, &path, 1, 1000) else {
        panic!("refused")
    };
    assert_eq!(r.lines.len() as u64, MAX_REGION_LINES);
    assert_eq!(r.lines, want(1, 400));
    let Message::FileRegionReply(r) = region(&mut c, &path, 2000, 2010) else {
        panic!("refused")
    };
    assert!(r.lines.is_empty());
    assert_eq!(r.total_lines, 1000);

    // An upload of this session, by its file id.
    let (body, msgs) = upload_app_log(&mut c);
    let Some(Message::UploadResult(up)) = msgs.last() else {
        panic!("{msgs:?}")
    };
    let Message::FileRegionReply(r) = region(&mut c, &up.file.file_id, 2, 4) else {
        panic!("refused")
    };
    let body = String::from_utf8(body).expect("utf8");
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(r.lines, lines[1..4].to_vec());
    assert_eq!(r.total_lines, lines.len() as u64);

    for denied in ["/etc/shadow", "/usr/bin/ls"] {
        let Message::Error(e) = region(&mut c, denied, 1, 10) else {
            panic!("{denied} was read")
        };
        assert_eq!(e.code, "denied", "{denied}: {}", e.message);
        assert!(e.message.contains(denied), "{}", e.message);
    }
    let Message::Error(e) = region(&mut c, &path, 20, 10) else {
        panic!("a reversed range was read")
    };
    assert_eq!(e.code, "bad_request");
    let audit = std::fs::read_to_string(server.data_path().join("logs/file_operations.log"))
        .expect("audit log");
    assert!(
        audit.contains("tool=file_read target=/etc/shadow code=denied_pattern"),
        "{audit}"
    );
}
