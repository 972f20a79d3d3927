//! No silent loss, on the real server binary: a turn whose history write fails ends with
//! an error the client sees (after the answer); a stalled frame closes an established
//! connection after the stall timeout; an upload saved before a crash is found, not
//! duplicated, and a lookup waits for the same upload still saving; nplt and http downloads
//! resume from the `.part`; a full disk is reported and recovered from, and the free-space
//! floor keeps history writes safe. Fair admission: `admission.rs`; honest client exits:
//! `honest_exits.rs`.

use std::net::SocketAddr;

use llmops_tests::{ExtConn, ServerProc};
use protocol::*;

fn chat(c: &mut ExtConn, text: &str) -> (String, StreamEnd) {
    let t = c.chat(text, vec![]).expect("turn");
    match t.msgs.last() {
        Some(Message::StreamEnd(e)) => (t.answer, e.clone()),
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

/// The server is killed after an upload is saved (file fsync'd, row
/// committed) but before its result reached the client (held there by the
/// `LLMOPS_FAULT_AFTER_SAVE_MS` fault point). The client reconnects to the restarted
/// server, asks with UPLOAD_LOOKUP, and does not send the file again: one copy, byte-exact,
/// indexed by the start-up catch-up. A later upload of the same content is a new file (the
/// lookup taken before the first attempt tells the two apart).
#[test]
fn an_upload_saved_before_a_crash_is_found_not_duplicated_by_the_retry() {
    use llmops_client::upload::{upload_retrying, RetryPolicy};
    use llmops_client::{Client, ClientOptions, UploadMode};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    let fault = ["env", "LLMOPS_FAULT_AFTER_SAVE_MS=10000"];
    let flags = ["--embedder", "none"];
    let server = ServerProc::start_wrapped(&fault, tempfile::tempdir().expect("dir"), &flags)
        .expect("server");
    let files = tempfile::tempdir().expect("dir");
    let path = files.path().join("kept.log");
    let body = "2024-05-01 12:00:00 ERROR disk sdb1 nearly full\n".repeat(20_000);
    std::fs::write(&path, &body).expect("write");
    let addr = Arc::new(Mutex::new(server.addr));
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let connect = |a: Arc<Mutex<SocketAddr>>, session: Option<String>| async move {
        let at = *a.lock().expect("addr");
        let mut o = ClientOptions::new(at.to_string());
        o.resume_session = session;
        Client::connect(o).await.map(|(c, _)| c)
    };
    let client = rt.block_on(connect(addr.clone(), None)).expect("connect");
    let session = client.session_id();
    let (a, p) = (addr.clone(), path.clone());
    let task = rt.spawn(async move {
        let reconnect = move |s: String| connect(a.clone(), Some(s));
        let policy = RetryPolicy::default();
        let (_c, res) = upload_retrying(client, &p, UploadMode::Nplt, policy, reconnect).await;
        res
    });

    // Wait for the committed row, then kill the server inside the held window.
    let db_path = server.data_path().join("llmops.sqlite");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the upload was never saved");
        let n: i64 = rusqlite::Connection::open(&db_path)
            .and_then(|db| db.query_row("SELECT count(*) FROM uploads", [], |r| r.get(0)))
            .unwrap_or(0);
        if n == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!task.is_finished(), "the result must still be held");
    let data = server.kill9();
    let server = ServerProc::start_in(data, &flags).expect("restart");
    *addr.lock().expect("addr") = server.addr;
    let up = rt
        .block_on(task)
        .expect("join")
        .expect("the upload is found after the crash");
    assert!(up.found_after_loss, "{up:?}");
    assert_eq!(up.attempts, 1);

    let mut c = ExtConn::connect(server.addr, Some(&session), None).expect("resume");
    let deadline = Instant::now() + Duration::from_secs(60);
    let listed = loop {
        let listed = c.files().expect("files");
        if listed.iter().all(|f| f.state != "saved") || Instant::now() > deadline {
            break listed;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].file_id, up.file.file_id);
    assert_eq!(listed[0].size, body.len() as u64);
    // Indexed by the start-up catch-up, and byte-exact on disk.
    assert_eq!(listed[0].state, "indexed");
    let stored = server
        .data_path()
        .join("uploads")
        .join(&up.file.file_id)
        .join("kept.log");
    assert_eq!(std::fs::read(stored).expect("stored"), body.as_bytes());

    // The same content uploaded again on purpose is a second file, not "found".
    let again = rt.block_on(async {
        let client = connect(addr.clone(), Some(session.clone()))
            .await
            .expect("connect");
        let a = addr.clone();
        let reconnect = move |s: String| connect(a.clone(), Some(s));
        let policy = RetryPolicy::default();
        upload_retrying(client, &path, UploadMode::Nplt, policy, reconnect)
            .await
            .1
    });
    let again = again.expect("second upload");
    assert!(!again.found_after_loss);
    assert_ne!(again.file.file_id, up.file.file_id);
    assert_eq!(c.files().expect("files").len(), 2);
}

/// The connection-only loss: the client's connection drops after it sent
/// the whole file while the server is still saving it (held before the commit by a fault
/// point). The lookup from the resumed session waits for that save and finds the file, so
/// the client does not send it again.
#[test]
fn a_lookup_waits_for_the_same_upload_still_saving_on_a_lost_connection() {
    use sha2::{Digest, Sha256};
    use std::time::{Duration, Instant};

    let fault = ["env", "LLMOPS_FAULT_BEFORE_SAVE_MS=3000"];
    let flags = ["--embedder", "none"];
    let server = ServerProc::start_wrapped(&fault, tempfile::tempdir().expect("dir"), &flags)
        .expect("server");
    let body = "2024-05-01 12:00:00 WARN pool exhausted, waiting\n".repeat(5_000);
    let sha = hex::encode(Sha256::digest(body.as_bytes()));
    let mut c1 = ExtConn::connect(server.addr, None, None).expect("connect");
    let session = c1.session_id();
    c1.send(&Message::UploadStart(UploadStart {
        request_id: 1,
        filename: "pool.log".into(),
        size: body.len() as u64,
        sha256: Some(sha.clone()),
        result_on_save: true,
    }))
    .expect("start");
    for part in body.as_bytes().chunks(60_000) {
        c1.send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
            part,
        ))))
        .expect("data");
    }
    // Every byte is in the server's temp file: it is saving (held) now. Then the loss.
    let tmp = server.data_path().join("uploads").join(".tmp");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_dir(&tmp)
        .map(|d| {
            d.filter_map(|e| e.ok()?.metadata().ok())
                .any(|m| m.len() == body.len() as u64)
        })
        .unwrap_or(false)
    {
        assert!(Instant::now() < deadline, "the upload never fully arrived");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(c1);

    let mut c2 = ExtConn::connect(server.addr, Some(&session), None).expect("resume");
    c2.send(&Message::UploadLookup(UploadLookup {
        request_id: 7,
        sha256: sha.clone(),
    }))
    .expect("lookup");
    let reply = match c2
        .recv_until(|m| matches!(m, Message::UploadLookupReply(_)))
        .expect("reply")
        .pop()
    {
        Some(Message::UploadLookupReply(r)) => r,
        other => panic!("expected UPLOAD_LOOKUP_REPLY, got {other:?}"),
    };
    assert_eq!(reply.in_flight, 0);
    assert_eq!(reply.files.len(), 1, "{reply:?}");
    assert_eq!(reply.files[0].sha256, sha);
    assert_eq!(reply.files[0].size, body.len() as u64);
    // A lookup of content nobody is sending answers empty (that it does not wait is
    // checked on virtual time in `uploads/in_flight.rs`).
    c2.send(&Message::UploadLookup(UploadLookup {
        request_id: 8,
        sha256: "00".repeat(32),
    }))
    .expect("lookup");
    match c2
        .recv_until(|m| matches!(m, Message::UploadLookupReply(_)))
        .expect("reply")
        .pop()
    {
        Some(Message::UploadLookupReply(r)) => assert!(r.files.is_empty() && r.in_flight == 0),
        other => panic!("expected UPLOAD_LOOKUP_REPLY, got {other:?}"),
    }
}

/// `nplt` and `http` downloads resume from the `.part` an interrupted
/// run left (here, with a new offer id, as a re-run gets): only the rest is sent (OFFER_ACCEPT
/// `resume_from` for nplt, `Range: bytes=N-` on a fresh one-time URL for http), and the whole
/// file's sha256 is verified. A `.part` recorded for different content is not resumed.
#[test]
fn nplt_and_http_downloads_resume_from_the_part() {
    use llmops_client::download::resume;
    use rand::{Rng, SeedableRng};
    let docs = tempfile::tempdir().expect("docs");
    let size = 3 * 1024 * 1024 + 17;
    let mut body = vec![0u8; size];
    rand::rngs::StdRng::seed_from_u64(16).fill(&mut body[..]);
    let src = docs.path().join("big.bin");
    std::fs::write(&src, &body).expect("write");
    let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&body));
    let d = docs.path().to_str().expect("utf8");
    let server = ServerProc::start_with(&["--docs", d]).expect("server");
    let held = 1024 * 1024 + 5;
    for mode in ["nplt", "http"] {
        let out = tempfile::tempdir().expect("out");
        let part = out.path().join(".big.bin.0123abcd.part");
        std::fs::write(&part, &body[..held]).expect("part");
        resume::record(&part, size as u64, &sha).expect("record");
        let (code, v, err) =
            llmops_tests::tui_download(server.addr, &src, mode, out.path()).expect("run");
        assert_eq!(code, 0, "{mode}: {err}");
        assert_eq!(v["resumed"], held as u64, "{mode}: {v}");
        assert_eq!(v["received"], (size - held) as u64, "{mode}: {v}");
        assert_eq!(v["mode"], mode);
        let got = std::fs::read(out.path().join("big.bin")).expect("downloaded");
        assert!(got == body, "{mode}: content differs");
        let left = std::fs::read_dir(out.path()).expect("dir").count();
        assert_eq!(left, 1, "{mode}: temp or resume files left");

        // A `.part` of other content (same name and size) is not resumed.
        let out = tempfile::tempdir().expect("out");
        let part = out.path().join(".big.bin.0123abcd.part");
        std::fs::write(&part, vec![b'z'; held]).expect("part");
        resume::record(&part, size as u64, &"0".repeat(64)).expect("record");
        let (code, v, err) =
            llmops_tests::tui_download(server.addr, &src, mode, out.path()).expect("run");
        assert_eq!(code, 0, "{mode}: {err}");
        assert_eq!(v["resumed"], 0, "{mode}: {v}");
        assert_eq!(v["received"], size as u64, "{mode}: {v}");
        let got = std::fs::read(out.path().join("big.bin")).expect("downloaded");
        assert!(got == body, "{mode}: content differs");
    }
}

/// Whether this machine lets an unprivileged user mount a tmpfs in a user namespace.
fn can_mount_tmpfs() -> bool {
    std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"])
        .status()
        .is_ok_and(|s| s.success())
}

/// Uploads `body` as `name`; the result or the error.
fn try_upload(c: &mut ExtConn, name: &str, body: &[u8]) -> Result<FileInfo, ErrorMsg> {
    c.upload_bytes(name, body).expect("result")
}

/// On a full disk (a 24 MiB tmpfs in a user namespace, filled by
/// uploads) deleting an upload works (the store's reserve file is released for it) and frees
/// space for new uploads; a session that cannot be created is refused with `disk_full`,
/// never `internal`.
#[test]
fn on_a_full_disk_uploads_can_be_deleted_and_sessions_say_disk_full() {
    if !can_mount_tmpfs() {
        assert!(
            std::env::var("CI").is_err(),
            "CI must allow an unprivileged tmpfs mount (unshare -rm) for the disk-full test"
        );
        eprintln!("skipped: no unprivileged tmpfs mount here (unshare -rm)");
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let script = format!(
        "mount -t tmpfs -o size=24m tmpfs '{}' && exec \"$0\" \"$@\"",
        dir.path().display()
    );
    let wrapper = ["unshare", "-rm", "sh", "-c", script.as_str()];
    // Floor 0: this test fills the disk for real (the floor is the next test's).
    let flags = ["--embedder", "none", "--upload-free-floor-mib", "0"];
    let server = ServerProc::start_wrapped(&wrapper, dir, &flags).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let mut kept = vec![];
    // Fill the disk: 1 MiB uploads, then smaller ones, until even 1 byte fails.
    let mut size = 1024 * 1024;
    let mut failures = 0;
    while size > 0 {
        let body = vec![b'x'; size];
        match try_upload(&mut c, &format!("fill-{}.txt", kept.len()), &body) {
            Ok(f) => kept.push(f),
            Err(e) => {
                assert_ne!(e.code, "internal", "{e:?}");
                failures += 1;
                size /= 4;
            }
        }
        assert!(kept.len() < 64, "the 24 MiB disk never filled");
    }
    assert!(failures > 0 && kept.len() > 4, "{failures} {}", kept.len());

    // A new session: made (SQLite may reuse its WAL's space) or refused as disk_full. It
    // is stored by its first use, here a rename.
    let mut fresh = ExtConn::connect(server.addr, None, None).expect("hello stores nothing");
    let rid = fresh.next_id();
    fresh
        .send(&Message::SessionCmd(SessionCmd {
            request_id: rid,
            op: SessionOp::Rename {
                id: None,
                name: "on a full disk".into(),
            },
        }))
        .expect("rename");
    let reply = fresh
        .recv_until(|m| match m {
            Message::SessionReply(r) => r.request_id == rid,
            Message::Error(e) => e.request_id == Some(rid),
            _ => false,
        })
        .expect("reply");
    if let Some(Message::Error(e)) = reply.last() {
        assert_eq!(e.code, "disk_full", "{e:?}");
        assert!(e.message.contains("磁盘已满 / disk full"), "{e:?}");
    }

    // Deleting works on the full disk, and frees the space for a new 1 MiB upload.
    for f in &kept[..3] {
        let rid = c.next_id();
        c.send(&Message::FileDelete(FileDelete {
            request_id: rid,
            file_id: f.file_id.clone(),
        }))
        .expect("send");
        let reply = c
            .recv_until(|m| match m {
                Message::Ack(a) => a.request_id == rid,
                Message::Error(e) => e.request_id == Some(rid),
                _ => false,
            })
            .expect("reply");
        assert!(matches!(reply.last(), Some(Message::Ack(_))), "{reply:?}");
    }
    let again = try_upload(&mut c, "after.txt", &vec![b'y'; 1024 * 1024]);
    assert!(again.is_ok(), "{again:?}");
    assert_eq!(c.files().expect("files").len(), kept.len() - 3 + 1);
}

/// The free-space floor: on a 24 MiB disk (a tmpfs, as above) with the default floor, new
/// uploads are refused with `disk_low` while there is still room, and a chat turn after
/// that is saved in the history: uploads never take the space history writes need.
#[test]
fn the_free_space_floor_refuses_uploads_before_history_writes_are_at_risk() {
    if !can_mount_tmpfs() {
        assert!(
            std::env::var("CI").is_err(),
            "CI must allow an unprivileged tmpfs mount (unshare -rm) for the disk-floor test"
        );
        eprintln!("skipped: no unprivileged tmpfs mount here (unshare -rm)");
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let script = format!(
        "mount -t tmpfs -o size=24m tmpfs '{}' && exec \"$0\" \"$@\"",
        dir.path().display()
    );
    let wrapper = ["unshare", "-rm", "sh", "-c", script.as_str()];
    let server = ServerProc::start_wrapped(&wrapper, dir, &["--embedder", "none"]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let body = vec![b'x'; 1024 * 1024];
    let mut refused = None;
    for i in 0..64 {
        match try_upload(&mut c, &format!("fill-{i}.txt"), &body) {
            Ok(_) => {}
            Err(e) => {
                refused = Some(e);
                break;
            }
        }
    }
    let e = refused.expect("the floor refused an upload before 64 MiB");
    assert_eq!(e.code, "disk_low", "{e:?}");
    assert!(e.message.contains("must leave"), "{}", e.message);
    let (_, end) = chat(&mut c, "磁盘使用情况");
    assert_eq!(end.status, EndStatus::Ok, "{end:?}");
    let rid = c.next_id();
    c.send(&Message::HistoryGet(HistoryGet {
        request_id: rid,
        limit: None,
    }))
    .expect("history");
    let seen = c
        .recv_until(|m| matches!(m, Message::History(_)))
        .expect("history");
    let Some(Message::History(h)) = seen.last() else {
        unreachable!("recv_until ends on the match")
    };
    assert_eq!(h.messages.len(), 2, "the question and the answer are saved");
}
