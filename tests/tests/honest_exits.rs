//! Client exits tell the truth, on the real binaries: an upload that landed before the
//! server died is reported landed (exit 0 with its id), an RDT upload cut by a crash resumes
//! on the restarted server and lands once, `ask --json` says the status and the reason of a
//! failed turn, and `download` says a missing folder and keeps a whole `.part`.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use llmops_tests::relay::{Impairment, Relay};
use llmops_tests::{bin, ServerProc};
use sha2::Digest;

/// A free loopback port (bound and released) for a server that must come back on it.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// Uploads committed before the kill: `(file_id, state)` rows of the database.
fn upload_rows(data: &std::path::Path) -> Vec<(String, String)> {
    let Ok(db) = rusqlite::Connection::open(data.join("llmops.sqlite")) else {
        return vec![];
    };
    let Ok(mut st) = db.prepare("SELECT file_id, state FROM uploads") else {
        return vec![];
    };
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map(|rows| rows.filter_map(Result::ok).collect())
        .unwrap_or_default()
}

/// The server dies after it saved an upload, while `llmops-tui upload` waits for the index:
/// the client reconnects to the restarted server, sees the file indexed by the start-up
/// catch-up, and exits 0 with the file id the database holds (before, it exited 1 with no
/// id and a retrying script made a duplicate). A server that does not come back leaves
/// the file reported as landed, its indexing unconfirmed.
#[test]
fn an_upload_that_landed_is_reported_landed_when_the_server_dies_before_indexing() {
    use llmops_client::upload::{wait_indexed_retrying, RetryPolicy, Unconfirmed};

    let addr = format!("127.0.0.1:{}", free_port());
    let fault = ["env", "LLMOPS_FAULT_BEFORE_INDEX_MS=30000"];
    let flags = ["--embedder", "none", "--listen", addr.as_str()];
    let dir = tempfile::tempdir().expect("dir");
    let server = ServerProc::start_wrapped(&fault, dir, &flags).expect("server");
    let files = tempfile::tempdir().expect("files");
    let path = files.path().join("landed.log");
    std::fs::write(
        &path,
        "2024-05-01 12:00:00 ERROR disk sdb1 full\n".repeat(5_000),
    )
    .expect("write");
    let cli = std::process::Command::new(llmops_tests::bin("llmops-tui"))
        .args(["--server", &addr, "--json", "upload", "--mode", "nplt"])
        .arg(&path)
        .env_remove("LLMOPS_SERVER")
        .env_remove("LLMOPS_AUTH_TOKEN")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("llmops-tui upload");
    let deadline = Instant::now() + Duration::from_secs(60);
    while upload_rows(server.data_path()).is_empty() {
        assert!(Instant::now() < deadline, "the upload was never saved");
        std::thread::sleep(Duration::from_millis(20));
    }
    let data = server.kill9();
    let server = ServerProc::start_in(data, &flags).expect("restart");
    let out = cli.wait_with_output().expect("cli");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("json");
    let rows = upload_rows(server.data_path());
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(v["file_id"], rows[0].0.as_str());
    assert_eq!(v["state"], "indexed", "{v} stderr: {stderr}");

    // The same loss with no server coming back: landed, indexing unconfirmed.
    let data = server.kill9();
    let server = ServerProc::start_wrapped(&fault, data, &flags).expect("server again");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let connect = |session: Option<String>| {
        let mut o = llmops_client::ClientOptions::new(addr.clone());
        o.resume_session = session;
        async move { llmops_client::Client::connect(o).await.map(|(c, _)| c) }
    };
    let client = rt.block_on(connect(None)).expect("connect");
    let up = rt.block_on(client.upload(&path)).expect("saved");
    assert_eq!(up.state, "saved");
    drop(server.kill9());
    let policy = RetryPolicy {
        attempts: 1,
        reconnect_for: Duration::from_secs(1),
    };
    let (_, res) = rt.block_on(wait_indexed_retrying(
        client,
        up.clone(),
        Duration::from_secs(60),
        policy,
        |s| connect(Some(s)),
    ));
    let w = res.expect("a landed file is not an error");
    assert!(
        matches!(w.unconfirmed, Some(Unconfirmed::Unreachable(_))),
        "{:?}",
        w.unconfirmed
    );
    assert_eq!(w.file.file_id, up.file_id);
}

/// `ask --json` on a turn whose history write fails: exit 1, and the JSON and stderr both
/// say the status and why (before, the JSON had neither and stderr was empty).
#[test]
fn ask_json_says_the_status_and_the_reason_when_the_history_write_fails() {
    let server = ServerProc::start().expect("server");
    let db = rusqlite::Connection::open(server.data_path().join("llmops.sqlite")).expect("db");
    db.execute_batch(
        "CREATE TRIGGER refuse_history BEFORE INSERT ON messages \
         BEGIN SELECT RAISE(FAIL, 'database or disk is full (simulated)'); END;",
    )
    .expect("trigger");
    let addr = server.addr.to_string();
    let (code, out, err) =
        llmops_tests::run_tui(&["ask", "--server", &addr, "--json", "现在几点了"]).expect("run");
    assert_eq!(code, 1, "{out} {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["status"], "error", "{v}");
    let msg = v["message"].as_str().expect("message");
    assert!(
        msg.contains("could not be saved") && msg.contains("(simulated)"),
        "{msg}"
    );
    assert!(
        !v["answer"].as_str().unwrap_or("").is_empty(),
        "the answer is still given"
    );
    assert!(
        err.contains("turn ended (error)") && err.contains("(simulated)"),
        "{err}"
    );
    // A turn that is saved says `ok`.
    db.execute_batch("DROP TRIGGER refuse_history")
        .expect("drop");
    let (code, out, _) =
        llmops_tests::run_tui(&["ask", "--server", &addr, "--json", "现在几点了"]).expect("run");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["status"], "ok", "{v}");
    assert!(v.get("message").is_none(), "{v}");
}

/// `download --out` a folder that does not exist says so (`bad_destination`), not
/// "protocol error"; a `.part` already holding the whole file (killed between the last byte
/// and the rename) is verified and put in place without downloading it again.
#[test]
fn download_says_a_missing_folder_and_keeps_a_whole_part() {
    use llmops_client::download::resume;
    let docs = tempfile::tempdir().expect("docs");
    let body = "2024-05-01 12:00:00 INFO kept whole\n".repeat(30_000);
    let src = docs.path().join("whole.log");
    std::fs::write(&src, &body).expect("write");
    let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(body.as_bytes()));
    let d = docs.path().to_str().expect("utf8");
    let server = ServerProc::start_with(&["--docs", d]).expect("server");
    let missing = docs.path().join("no").join("such");
    let (code, v, err) =
        llmops_tests::tui_download(server.addr, &src, "nplt", &missing).expect("run");
    assert_eq!(code, 1, "{v} {err}");
    assert_eq!(v["code"], "bad_destination", "{v}");
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.contains("does not exist")),
        "{v}"
    );
    for mode in ["nplt", "http"] {
        let out = tempfile::tempdir().expect("out");
        let part = out.path().join(".whole.log.0123abcd.part");
        std::fs::write(&part, &body).expect("part");
        resume::record(&part, body.len() as u64, &sha).expect("record");
        let (code, v, err) =
            llmops_tests::tui_download(server.addr, &src, mode, out.path()).expect("run");
        assert_eq!(code, 0, "{mode}: {err}");
        assert_eq!(v["mode"], "held", "{mode}: {v}");
        assert_eq!(v["received"], 0, "{mode}: {v}");
        assert_eq!(v["resumed"], body.len() as u64, "{mode}: {v}");
        let got = std::fs::read(out.path().join("whole.log")).expect("in place");
        assert!(got == body.as_bytes(), "{mode}: content differs");
        assert_eq!(
            std::fs::read_dir(out.path()).expect("dir").count(),
            1,
            "{mode}: leftovers"
        );
    }
}

/// The server dies (kill -9) while `llmops-tui upload --mode rdt` pushes: the client sees
/// its control connection close and stops at once (not after the RDT retry limit),
/// reconnects to the restarted server, finds the file did not land, and sends it again;
/// the server resumes from what it had persisted, so the second attempt sends less than
/// the file. One copy lands, byte-exact, and the client exits 0 with its id.
#[test]
fn an_rdt_upload_cut_by_a_server_crash_resumes_on_the_restarted_server() {
    let slow = Impairment {
        rate: Some(1_000_000),
        queue: Duration::from_millis(50),
        ..Default::default()
    };
    let relay = Relay::bind(slow, 12).expect("relay");
    let adv = relay.addr.to_string();
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .to_string();
    let flags = [
        "--listen",
        addr.as_str(),
        "--rdt-advertise",
        adv.as_str(),
        "--embedder",
        "none",
    ];
    let server = ServerProc::start_with(&flags).expect("server");
    relay.set_upstream(server.rdt_addr.expect("rdt address"));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("crash-log.txt");
    let body = text_bytes(4 * 1024 * 1024 + 7);
    std::fs::write(&path, &body).expect("write");
    let child = Command::new(bin("llmops-tui"))
        .args(["upload", "--server", &addr, "--mode", "rdt", "--json"])
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let resume_dir = server.data_dir.path().join("uploads/.tmp/rdt-resume");
    let has_bitmap = || {
        std::fs::read_dir(&resume_dir)
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().ends_with(".bitmap"))
            })
            .unwrap_or(false)
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !has_bitmap() {
        assert!(Instant::now() < deadline, "no server resume state appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(700));
    let data = server.kill9();
    relay.set(Impairment::default());
    let before = relay
        .stats
        .up_bytes
        .load(std::sync::atomic::Ordering::Relaxed);
    let server = ServerProc::start_in(data, &flags).expect("restart");
    relay.set_upstream(server.rdt_addr.expect("rdt address"));
    let out = child.wait_with_output().expect("client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout} {stderr}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("json");
    assert_eq!(
        v["sha256"],
        hex::encode(sha2::Sha256::digest(&body)).as_str()
    );
    let sent = relay
        .stats
        .up_bytes
        .load(std::sync::atomic::Ordering::Relaxed)
        - before;
    assert!(
        sent < body.len() as u64,
        "the second attempt sent {sent} bytes of {}: nothing was resumed",
        body.len()
    );
    let id = v["file_id"].as_str().expect("file id");
    let stored = server
        .data_dir
        .path()
        .join("uploads")
        .join(id)
        .join("crash-log.txt");
    assert!(
        std::fs::read(&stored).expect("stored") == body,
        "stored upload differs"
    );
    let db = rusqlite::Connection::open(server.data_path().join("llmops.sqlite")).expect("db");
    let n: i64 = db
        .query_row("SELECT count(*) FROM uploads", [], |r| r.get(0))
        .expect("count");
    assert_eq!(n, 1, "one copy landed");
}

/// `n` bytes of log-like text (an upload must be text).
fn text_bytes(n: usize) -> Vec<u8> {
    let line = b"2024-05-01 12:00:00 INFO request served in 12 ms path=/api/v1/orders\n";
    line.iter().copied().cycle().take(n).collect()
}
