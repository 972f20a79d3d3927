//! A legacy client conversation, frame by frame over a raw socket, against the real server
//! binary: welcome, chat stream, upload, sessions, history, heartbeats, and garbage from
//! another connection that must not disturb it.

use llmops_tests::{RawConn, ServerProc, LEGACY_TYPES};
use serde_json::json;

const CHAT_TEXT: u8 = 0x01;
const AGENT_THOUGHT: u8 = 0x0A;

/// Reads a whole legacy stream after a chat message: status thoughts, stream_start, chunks,
/// empty end marker. Returns the joined text.
fn read_stream(c: &mut RawConn) -> String {
    let mut started = false;
    let mut text = String::new();
    loop {
        let (ty, p) = c.recv_text().expect("frame");
        assert!(LEGACY_TYPES.contains(&ty), "non-legacy type 0x{ty:02x}");
        match ty {
            AGENT_THOUGHT => {
                let v: serde_json::Value = serde_json::from_str(&p).expect("thought json");
                let kind = v["type"].as_str().expect("type").to_string();
                assert!(
                    ["stream_start", "thinking", "tool_call", "generating"]
                        .contains(&kind.as_str()),
                    "{kind}"
                );
                if kind == "stream_start" {
                    assert!(!started, "two stream starts");
                    started = true;
                }
            }
            CHAT_TEXT if started => {
                if p.trim().is_empty() {
                    assert_eq!(p, "", "end marker is an empty CHAT_TEXT");
                    return text;
                }
                assert_ne!(p, "HEARTBEAT", "a chunk must never be exactly HEARTBEAT");
                text.push_str(&p);
            }
            other => panic!("unexpected frame 0x{other:02x} {p:?} before stream_start"),
        }
    }
}

#[test]
fn legacy_client_conversation() {
    let server = ServerProc::start().expect("server starts");
    let mut c = RawConn::connect(server.addr).expect("connect");
    c.send_json(0x18, json!({"udp_port": 40000})).expect("send");
    let (ty, welcome) = c.recv_text().expect("welcome");
    assert_eq!(ty, CHAT_TEXT);
    assert!(welcome.contains("llmops"), "{welcome}");

    // Chat: a correctly terminated stream.
    c.send(CHAT_TEXT, "你好".as_bytes()).expect("send");
    let answer = read_stream(&mut c);
    assert!(!answer.trim().is_empty());

    // Heartbeat echo.
    c.send(CHAT_TEXT, b"HEARTBEAT").expect("send");
    assert_eq!(
        c.recv_text().expect("echo"),
        (CHAT_TEXT, "HEARTBEAT".into())
    );

    // Upload in two data frames, answered with the success text.
    let body = b"2026-11-02 ERROR disk full\n2026-11-02 INFO ok\n";
    c.send_json(0x0E, json!({"filename": "app.log", "size": body.len()}))
        .expect("send");
    c.send(0x0D, &body[..10]).expect("send");
    c.send(0x0D, &body[10..]).expect("send");
    let (ty, reply) = c.recv_text().expect("upload reply");
    assert_eq!(ty, CHAT_TEXT);
    assert!(reply.starts_with("文件上传成功: app.log (ID: "), "{reply}");
    let file_id = reply
        .trim_start_matches("文件上传成功: app.log (ID: ")
        .trim_end_matches(')')
        .to_string();
    let stored = std::fs::read(
        server
            .data_path()
            .join("uploads")
            .join(&file_id)
            .join("app.log"),
    )
    .expect("file on disk");
    assert_eq!(stored, body);

    // A refused upload, and its data frames are swallowed, not misread.
    c.send_json(0x0E, json!({"filename": "../evil", "size": 3}))
        .expect("send");
    c.send(0x0D, b"abc").expect("send");
    let (_, reply) = c.recv_text().expect("refusal");
    assert_eq!(reply, "文件上传失败: 文件名包含非法字符: ../");

    // Sessions.
    c.send(0x14, b"").expect("send");
    let (_, list) = c.recv_text().expect("list");
    assert!(list.contains("会话列表"), "{list}");
    c.send(0x16, b"").expect("send");
    let (_, created) = c.recv_text().expect("new");
    assert!(created.starts_with("已创建新会话"), "{created}");

    // History of the new session is empty; switch back to the first one by prefix.
    c.send(0x10, b"").expect("send");
    let (_, hist) = c.recv_text().expect("history");
    assert_eq!(hist, "暂无历史记录");
    let first_id = list
        .lines()
        .find(|l| l.starts_with('*'))
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("current session line")
        .to_string();
    c.send_json(0x15, json!({"session_id": &first_id[..8]}))
        .expect("send");
    let (_, switched) = c.recv_text().expect("switch");
    assert!(switched.starts_with("已切换到会话"), "{switched}");
    c.send(0x10, b"").expect("send");
    let (_, hist) = c.recv_text().expect("history");
    assert!(hist.contains("你好"), "{hist}");

    // The current session cannot be deleted by its own connection.
    c.send_json(0x17, json!({"session_id": first_id}))
        .expect("send");
    let (_, refused) = c.recv_text().expect("delete refused");
    assert!(refused.contains("不能删除当前会话"), "{refused}");

    c.send(0x11, b"").expect("send");
    let (_, cleared) = c.recv_text().expect("clear");
    assert!(cleared.starts_with("历史记录已清空"), "{cleared}");

    c.send_json(0x0F, json!({"model": "no-such-model"}))
        .expect("send");
    let (_, model) = c.recv_text().expect("model");
    assert!(model.contains("no-such-model"), "{model}");
}

#[test]
fn garbage_never_hurts_other_connections() {
    let server = ServerProc::start().expect("server starts");
    let mut good = RawConn::connect(server.addr).expect("connect");
    good.send_json(0x18, json!({"udp_port": 1})).expect("send");
    let _ = good.recv_text().expect("welcome");

    // Unknown types, invalid JSON, invalid UTF-8 and pure noise on other connections.
    let mut bad = RawConn::connect(server.addr).expect("connect");
    bad.send(0x99, b"??").expect("send");
    bad.send(0x0E, b"{not json").expect("send");
    bad.send(0x15, &[0xff, 0xfe]).expect("send");
    bad.send(0x01, &[0xff, 0xfe]).expect("send");
    use std::io::Write;
    bad.stream
        .write_all(&[0x01, 0, 0, 0xff, 0xff])
        .expect("write");
    drop(bad);
    let mut noise = RawConn::connect(server.addr).expect("connect");
    let junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let _ = noise.stream.write_all(&junk);
    drop(noise);

    // The good connection still chats normally.
    good.send(CHAT_TEXT, b"hello").expect("send");
    let answer = read_stream(&mut good);
    assert!(!answer.is_empty());

    // And a legacy connection that sent a bad frame first is still served afterwards.
    let mut c = RawConn::connect(server.addr).expect("connect");
    c.send(0x0E, b"{broken").expect("send");
    let (ty, _) = c.recv_text().expect("welcome after bad frame");
    assert_eq!(ty, CHAT_TEXT);
    c.send(CHAT_TEXT, b"HEARTBEAT").expect("send");
    assert_eq!(c.recv_text().expect("echo").1, "HEARTBEAT");
}

#[test]
fn silent_legacy_client_gets_the_welcome_and_server_heartbeats() {
    let server = ServerProc::start_with(&["--heartbeat-secs", "1", "--idle-timeout-secs", "3"])
        .expect("server starts");
    let mut c = RawConn::connect(server.addr).expect("connect");
    // Sends nothing: the welcome still comes.
    let (ty, _) = c.recv_text().expect("welcome");
    assert_eq!(ty, CHAT_TEXT);
    // Idle: the server sends HEARTBEAT; answering it keeps the connection.
    assert_eq!(
        c.recv_text().expect("heartbeat"),
        (CHAT_TEXT, "HEARTBEAT".into())
    );
    c.send(CHAT_TEXT, b"HEARTBEAT").expect("answer");
    assert_eq!(
        c.recv_text().expect("heartbeat"),
        (CHAT_TEXT, "HEARTBEAT".into())
    );
    // Stop answering: the server closes the connection after the idle timeout.
    let mut buf = [0u8; 64];
    use std::io::Read;
    let n = c.stream.read(&mut buf).expect("read until close");
    assert_eq!(n, 0, "expected EOF, got {:?}", &buf[..n]);
}
