//! Fair admission on the real server binary: idle, heartbeating, silent or legacy sockets
//! make room for new clients (busy ones never do, and a refusal says which limit and when
//! to retry); peers before HELLO are evicted in accept order; a stalled upload is dropped
//! and uploads in progress are held to their client's temp budget; connections that use
//! nothing leave no sessions; `/api/health` answers through NPLT and HTTP floods and a
//! slowloris that reopens its sockets.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};

use llmops_tests::{ExtConn, RawConn, ServerProc};
use protocol::*;

const TOKEN: &str = "reliability-test-token-0123";

fn second_peer() -> IpAddr {
    "127.0.0.2".parse().expect("ip")
}

/// The ERROR a refused extension client gets for its HELLO.
fn refused_text(e: anyhow::Error) -> String {
    let t = e.to_string();
    assert!(t.starts_with("refused: busy"), "{t}");
    t
}

/// `GET /api/health` from `src`; the status code.
fn health_from(src: IpAddr, http: SocketAddr) -> u16 {
    let mut s = RawConn::connect_from(src, http)
        .expect("http connect")
        .stream;
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .expect("request");
    let mut all = Vec::new();
    s.read_to_end(&mut all).expect("response");
    let head = String::from_utf8_lossy(&all);
    head.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn chat(c: &mut ExtConn, text: &str) -> StreamEnd {
    let t = c.chat(text, vec![]).expect("turn");
    match t.msgs.last() {
        Some(Message::StreamEnd(e)) => e.clone(),
        other => panic!("turn did not end: {other:?}"),
    }
}

/// Uploads `body` as `name`; the result or the error.
fn try_upload(c: &mut ExtConn, name: &str, body: &[u8]) -> Result<FileInfo, ErrorMsg> {
    c.upload_bytes(name, body).expect("result")
}

/// The eviction notice an idle client gets (an ERROR busy), skipping pushes before it.
fn eviction_notice(c: &mut ExtConn) -> String {
    let seen = c
        .recv_until(|m| matches!(m, Message::Error(_)))
        .expect("an eviction notice before the close");
    match seen.last() {
        Some(Message::Error(e)) => {
            assert_eq!(e.code, "busy", "{e:?}");
            e.message.clone()
        }
        other => panic!("expected ERROR busy, got {other:?}"),
    }
}

#[test]
fn idle_clients_make_room_for_a_new_one_and_heartbeats_are_not_work() {
    // Loopback is not capped per address (3 here would lock the fourth out); the total
    // (8) fills, and a newcomer takes the place of the client idle the longest.
    let server =
        ServerProc::start_with(&["--max-connections", "8", "--max-connections-per-ip", "3"])
            .expect("server");
    let mut held: Vec<ExtConn> = (0..8)
        .map(|_| ExtConn::connect(server.addr, None, None).expect("not capped per address"))
        .collect();
    // The first does useful work after the others connected; the second only heartbeats.
    held[0].files().expect("useful work");
    held[1].send(&Message::Heartbeat(Empty)).expect("heartbeat");
    let mut c = ExtConn::connect(server.addr, None, None).expect("a new client is served");
    c.files().expect("served");
    let text = eviction_notice(&mut held[1]);
    assert!(
        text.contains("connection limit reached (8)") && text.contains("closed to make room"),
        "{text}"
    );
    held[0].files().expect("the one that worked stays");
}

#[test]
fn busy_clients_are_never_evicted_and_a_stalled_upload_stops_being_busy() {
    let server = ServerProc::start_with(&["--max-connections", "2", "--upload-stall-secs", "2"])
        .expect("server");
    // Two clients each with an upload in progress: 100 of 50,000 bytes, then silence.
    let mut ups: Vec<(ExtConn, u64)> = (0..2)
        .map(|_| {
            let mut c = ExtConn::connect(server.addr, None, None).expect("slot");
            let rid = c.next_id();
            c.send(&Message::UploadStart(UploadStart {
                request_id: rid,
                filename: "half.log".into(),
                size: 50_000,
                sha256: None,
                result_on_save: true,
            }))
            .expect("start");
            c.send(&Message::UploadData(Raw(bytes::Bytes::from(vec![
                b'x';
                100
            ]))))
            .expect("data");
            // A round trip: the server has taken the upload in before we go on.
            c.files().expect("files");
            (c, rid)
        })
        .collect();
    let e = ExtConn::connect(server.addr, None, None)
        .err()
        .expect("every place is busy");
    let text = refused_text(e);
    assert!(
        text.contains("connection limit reached (2)") && text.contains("retry in 10 s"),
        "{text}"
    );
    // No data for 2 s: each upload is dropped with its reason, its temp file removed.
    for (c, rid) in &mut ups {
        let seen = c
            .recv_until(|m| matches!(m, Message::Error(e) if e.request_id == Some(*rid)))
            .expect("stall notice");
        let Some(Message::Error(e)) = seen.last() else {
            unreachable!("recv_until ends on the match")
        };
        assert_eq!(e.code, "upload_stalled", "{e:?}");
        assert!(e.message.contains("no data for 2 s"), "{}", e.message);
    }
    let tmp = server.data_path().join("uploads").join(".tmp");
    let parts = std::fs::read_dir(&tmp)
        .map(|d| d.flatten().filter(|e| e.path().is_file()).count())
        .unwrap_or(0);
    assert_eq!(parts, 0, "temp files left in {}", tmp.display());
    // Now idle: a newcomer gets in.
    ExtConn::connect(server.addr, None, None).expect("served once the uploads were dropped");
}

#[test]
fn silent_legacy_sockets_make_room_and_connections_that_use_nothing_leave_no_sessions() {
    // No token: silent sockets are greeted as legacy clients after 300 ms.
    let server = ServerProc::start_with(&["--max-connections", "6"]).expect("server");
    let mut silent: Vec<RawConn> = (0..6)
        .map(|_| RawConn::connect(server.addr).expect("connect"))
        .collect();
    for s in &mut silent {
        let (ty, welcome) = s.recv_text().expect("legacy welcome");
        assert_eq!(ty, 0x01);
        assert!(welcome.contains("llmops"), "{welcome}");
    }
    let mut c = ExtConn::connect(server.addr, None, None).expect("served");
    let (ty, text) = silent[0].recv_text().expect("eviction notice");
    assert_eq!(ty, 0x01, "a legacy client only gets chat text");
    assert!(text.contains("closed to make room"), "{text}");
    // HELLO spam: connections that say HELLO and go.
    for _ in 0..50 {
        drop(ExtConn::connect(server.addr, None, None).expect("hello"));
    }
    drop(silent);
    let db = rusqlite::Connection::open(server.data_path().join("llmops.sqlite")).expect("db");
    let count = |db: &rusqlite::Connection| -> i64 {
        db.query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
            .expect("count")
    };
    assert_eq!(
        count(&db),
        0,
        "sessions left by connections that used nothing"
    );
    // The session a client was shown is stored by its first message, under that id.
    let shown = c.session_id();
    chat(&mut c, "你好");
    assert_eq!(count(&db), 1);
    let stored: String = db
        .query_row("SELECT id FROM sessions", [], |r| r.get(0))
        .expect("id");
    assert_eq!(stored, shown);
}

#[test]
fn uploads_in_progress_are_held_to_their_clients_temp_budget() {
    let server = ServerProc::start_with(&["--upload-temp-per-client-mib", "1"]).expect("server");
    let body = "2024-05-01 12:00:00 INFO ok\n".repeat(25_000);
    let body = body.as_bytes();
    assert!(body.len() > 600_000 && body.len() < 1 << 20);
    // One upload in progress holds most of this client's 1 MiB.
    let mut first = ExtConn::connect(server.addr, None, None).expect("connect");
    let rid = first.next_id();
    first
        .send(&Message::UploadStart(UploadStart {
            request_id: rid,
            filename: "first.log".into(),
            size: body.len() as u64,
            sha256: None,
            result_on_save: true,
        }))
        .expect("start");
    first
        .send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
            &body[..1000],
        ))))
        .expect("data");
    first.files().expect("round trip");
    // A second one from the same client (loopback) is refused at its start, with the rule.
    let mut second = ExtConn::connect(server.addr, None, None).expect("connect");
    let e = try_upload(&mut second, "second.log", body).expect_err("over the budget");
    assert_eq!(e.code, "temp_budget", "{e:?}");
    assert!(e.message.contains("limit 1.0 MiB"), "{}", e.message);
    // The first finishes; its space is given back and the second goes through.
    for part in body[1000..].chunks(60_000) {
        first
            .send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
                part,
            ))))
            .expect("data");
    }
    let seen = first
        .recv_until(|m| matches!(m, Message::UploadResult(r) if r.request_id == rid))
        .expect("result");
    assert!(matches!(seen.last(), Some(Message::UploadResult(_))));
    try_upload(&mut second, "second.log", body).expect("within the budget now");
}

#[test]
fn silent_peers_before_hello_are_evicted_for_new_clients() {
    let server = ServerProc::start_with(&[
        "--auth-token",
        TOKEN,
        "--max-preauth-connections",
        "4",
        "--max-connections",
        "16",
    ])
    .expect("server");
    // Eight silent sockets: each newcomer evicts the oldest silent one.
    let mut silent: Vec<RawConn> = (0..8)
        .map(|_| RawConn::connect(server.addr).expect("connect"))
        .collect();
    // A real client still gets in (evicting one more silent peer) ...
    let mut c = ExtConn::connect(server.addr, None, Some(TOKEN)).expect("client served");
    c.files().expect("served");
    // ... and the oldest silent peer was told why it was closed.
    let (ty, payload) = silent[0].recv().expect("eviction notice");
    assert_eq!(ty, MsgType::Error.code());
    let text = String::from_utf8_lossy(&payload);
    assert!(
        text.contains("busy") && text.contains("completed HELLO (limit 4)"),
        "{text}"
    );
    // Authenticated clients do not count against the pre-HELLO budget.
    let many: Vec<ExtConn> = (0..6)
        .map(|_| ExtConn::connect(server.addr, None, Some(TOKEN)).expect("authenticated"))
        .collect();
    assert_eq!(many.len(), 6);
    silent.clear();
}

#[test]
fn health_answers_while_nplt_and_http_are_flooded() {
    let server = ServerProc::start_with(&["--max-connections", "8"]).expect("server");
    let http = server.http_addr.expect("http address");
    // NPLT full of idle clients: they make room, and HTTP is its own listener anyway.
    let _held: Vec<ExtConn> = (0..8)
        .map(|_| ExtConn::connect(server.addr, None, None).expect("slot"))
        .collect();
    assert_eq!(health_from("127.0.0.1".parse().expect("ip"), http), 200);
    // 70 idle HTTP sockets (more than the 64 HTTP places) from loopback: the oldest of
    // them make room for each health request, from the same address or another.
    let _idle: Vec<TcpStream> = (0..70)
        .map(|_| TcpStream::connect(http).expect("http connect"))
        .collect();
    assert_eq!(health_from(second_peer(), http), 200);
    assert_eq!(health_from("127.0.0.1".parse().expect("ip"), http), 200);
}

#[test]
fn health_answers_through_a_slowloris_that_reopens_its_sockets() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::Arc;
    let server = ServerProc::start().expect("server");
    let http = server.http_addr.expect("http address");
    let stop = Arc::new(AtomicBool::new(false));
    let reopened = Arc::new(AtomicU64::new(0));
    let flood = {
        let (stop, reopened) = (stop.clone(), reopened.clone());
        std::thread::spawn(move || {
            // 80 sockets, each a request head that never ends; one closed by the server is
            // opened again at once.
            let open = || {
                let mut s = TcpStream::connect(http).ok()?;
                s.write_all(b"GET /api/health HTTP/1.1\r\nX-a: ").ok()?;
                s.set_nonblocking(true).ok()?;
                Some(s)
            };
            let mut socks: Vec<Option<TcpStream>> = (0..80).map(|_| open()).collect();
            while !stop.load(Ordering::Relaxed) {
                for slot in socks.iter_mut() {
                    let closed = match slot {
                        Some(s) => {
                            let mut b = [0u8; 512];
                            !matches!(s.read(&mut b), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
                        }
                        None => true,
                    };
                    if closed {
                        *slot = open();
                        reopened.fetch_add(1, Ordering::Relaxed);
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        })
    };
    // Probes go on until the flood has fought back at least 30 times, however fast or slow
    // this machine is: every probe in that time must be answered. A probe whose thread is
    // descheduled between its connect and its write is, for that moment, a socket without
    // a request head like the flood's, and may be told 503 with Retry-After (or closed, if
    // it is gone by then); as a health checker does, it asks once more, and that must be
    // answered.
    let loopback: IpAddr = "127.0.0.1".parse().expect("ip");
    let (mut asked, mut answered, mut retried) = (0u32, 0u32, 0u32);
    while asked < 30 || (reopened.load(Ordering::Relaxed) < 30 && asked < 5000) {
        asked += 1;
        let mut code = health_from(loopback, http);
        if code != 200 {
            retried += 1;
            code = health_from(loopback, http);
        }
        answered += u32::from(code == 200);
    }
    stop.store(true, Ordering::Relaxed);
    flood.join().expect("flood");
    assert_eq!(answered, asked, "health answered {answered} of {asked}");
    assert!(
        retried * 10 <= asked,
        "{retried} of {asked} probes were refused once: the flood holds the server"
    );
    let reopened = reopened.load(Ordering::Relaxed);
    assert!(
        reopened >= 30,
        "the slowloris was evicted and reopened {reopened} times in {asked} probes"
    );
}
