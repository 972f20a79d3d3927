//! RDT downloads end to end with the real binaries: direct, through the impairment relay
//! (loss, reordering, duplication, delay), an empty file, 20 concurrent downloads, resume
//! after a killed client, the HTTP one-time URL, and bad or reused tokens answered with
//! nothing but ABORT. No timing assertions (timings live in the benchmarks).

use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use llmops_tests::relay::{Impairment, Relay};
use llmops_tests::{bin, http_get, http_raw, tui_download, ExtConn, ServerProc};
use protocol::rdt::{
    conn_id_from_token, decode, AbortCode, Config, Packet, Receiver, ReceiverEvent,
    DEFAULT_CHUNK_SIZE, MAX_DATAGRAM,
};
use protocol::*;
use rand::{Rng, SeedableRng};
use sha2::Digest;

/// A folder of served files plus the server that may offer them.
struct Fixture {
    docs: tempfile::TempDir,
    server: ServerProc,
}

fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut v = vec![0u8; n];
    rng.fill(&mut v[..]);
    v
}

impl Fixture {
    fn start(files: &[(&str, usize)], extra: &[&str]) -> Fixture {
        let docs = tempfile::tempdir().expect("tempdir");
        for (i, (name, size)) in files.iter().enumerate() {
            std::fs::write(docs.path().join(name), random_bytes(*size, i as u64 + 1))
                .expect("write");
        }
        let d = docs.path().to_str().expect("utf8").to_string();
        let mut args = vec!["--docs", d.as_str()];
        args.extend_from_slice(extra);
        let server = ServerProc::start_with(&args).expect("server");
        Fixture { docs, server }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.docs.path().join(name)
    }

    fn download(&self, name: &str, mode: &str, out: &Path) -> (i32, serde_json::Value, String) {
        tui_download(self.server.addr, &self.path(name), mode, out).expect("run llmops-tui")
    }

    fn assert_same(&self, name: &str, out: &Path) {
        let want = std::fs::read(self.path(name)).expect("source");
        let got = std::fs::read(out.join(name)).expect("downloaded");
        assert_eq!(got.len(), want.len(), "{name}: length");
        assert!(got == want, "{name}: content differs");
        // Nothing but the file is left behind (no temp or resume files).
        let left: Vec<_> = std::fs::read_dir(out)
            .expect("dir")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }
}

/// Starts a relay and a server that advertises it as its RDT address.
fn fixture_behind_relay(files: &[(&str, usize)], imp: Impairment, seed: u64) -> (Fixture, Relay) {
    let relay = Relay::bind(imp, seed).expect("relay");
    let adv = relay.addr.to_string();
    let f = Fixture::start(files, &["--rdt-advertise", &adv]);
    relay.set_upstream(f.server.rdt_addr.expect("rdt address"));
    (f, relay)
}

#[test]
fn rdt_download_direct_is_byte_exact() {
    let f = Fixture::start(&[("blob.bin", 4 * 1024 * 1024 + 123)], &[]);
    assert!(f.server.rdt_addr.is_some() && f.server.http_addr.is_some());
    let out = tempfile::tempdir().expect("tempdir");
    let (code, v, err) = f.download("blob.bin", "rdt", out.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["mode"], "rdt", "{v}");
    f.assert_same("blob.bin", out.path());
    // auto picks RDT when the server runs it.
    let (code, v, err) = f.download("blob.bin", "auto", out.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["mode"], "rdt", "{v}");
    f.assert_same("blob.bin", out.path());
}

/// 10% loss each way, 10 ms delay with jitter, 5% reordered, 5% duplicated, 1% corrupted.
fn hostile() -> Impairment {
    Impairment {
        loss: 0.10,
        delay: Duration::from_millis(10),
        jitter: Duration::from_millis(2),
        reorder: 0.05,
        reorder_by: Duration::from_millis(6),
        duplicate: 0.05,
        corrupt: 0.01,
        ..Default::default()
    }
}

#[test]
fn rdt_download_survives_loss_reordering_and_duplication() {
    let (f, relay) = fixture_behind_relay(&[("lossy.bin", 3 * 1024 * 1024)], hostile(), 42);
    let out = tempfile::tempdir().expect("tempdir");
    let (code, v, err) = f.download("lossy.bin", "rdt", out.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["mode"], "rdt");
    f.assert_same("lossy.bin", out.path());
    assert!(
        relay
            .stats
            .dropped
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0,
        "the relay did drop packets"
    );
}

#[test]
fn rdt_empty_file() {
    let f = Fixture::start(&[("empty.txt", 0)], &[]);
    let out = tempfile::tempdir().expect("tempdir");
    let (code, v, err) = f.download("empty.txt", "rdt", out.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["size"], 0);
    f.assert_same("empty.txt", out.path());
}

#[test]
fn rdt_twenty_concurrent_downloads() {
    let f = Fixture::start(&[("a.bin", 1024 * 1024), ("b.bin", 777_777)], &[]);
    let outs: Vec<tempfile::TempDir> = (0..20)
        .map(|_| tempfile::tempdir().expect("tempdir"))
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = outs
            .iter()
            .enumerate()
            .map(|(i, out)| {
                let f = &f;
                s.spawn(move || {
                    let name = if i % 2 == 0 { "a.bin" } else { "b.bin" };
                    let (code, v, err) = f.download(name, "rdt", out.path());
                    assert_eq!(code, 0, "download {i}: {err}");
                    assert_eq!(v["mode"], "rdt");
                    f.assert_same(name, out.path());
                })
            })
            .collect();
        for h in handles {
            h.join().expect("download thread");
        }
    });
    let (_, _, body) = http_get(f.server.http_addr.expect("http"), "/metrics").expect("metrics");
    let metrics = String::from_utf8_lossy(&body);
    assert!(
        metrics.contains("llmops_transfers_failed_total{mode=\"rdt\"} 0"),
        "{metrics}"
    );
}

#[test]
fn rdt_resume_after_a_killed_client() {
    let size = 4 * 1024 * 1024;
    // A slow link (about 1 MB/s) so the transfer is still running when we kill it.
    let slow = Impairment {
        rate: Some(1_000_000),
        queue: Duration::from_millis(50),
        ..Default::default()
    };
    let (f, relay) = fixture_behind_relay(&[("big.bin", size)], slow, 7);
    let out = tempfile::tempdir().expect("tempdir");
    let addr = f.server.addr.to_string();
    let target = f.path("big.bin");
    let mut child = Command::new(bin("llmops-tui"))
        .args([
            "download",
            "--server",
            &addr,
            "--out",
            out.path().to_str().expect("utf8"),
            "--mode",
            "rdt",
            "--json",
        ])
        .arg(&target)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // Wait until resume state is on disk, then kill the client mid-transfer.
    let deadline = Instant::now() + Duration::from_secs(20);
    let has_bitmap = || {
        std::fs::read_dir(out.path())
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().ends_with(".bitmap"))
            })
            .unwrap_or(false)
    };
    while !has_bitmap() {
        assert!(Instant::now() < deadline, "no resume file appeared");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "client ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(700));
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        !out.path().join("big.bin").exists(),
        "the client finished before it was killed"
    );

    // The link recovers; the re-run continues from what is on disk.
    relay.set(Impairment::default());
    let (code, v, err) = f.download("big.bin", "rdt", out.path());
    assert_eq!(code, 0, "{err}");
    let resumed = v["resumed"].as_u64().expect("resumed");
    let received = v["received"].as_u64().expect("received");
    assert!(resumed > 0, "nothing was resumed: {v}");
    assert!(received < size as u64, "everything was sent again: {v}");
    f.assert_same("big.bin", out.path());
}

#[test]
fn http_mode_and_one_time_urls() {
    let f = Fixture::start(&[("page.bin", 1_500_000)], &[]);
    let http = f.server.http_addr.expect("http");
    let out = tempfile::tempdir().expect("tempdir");
    let (code, v, err) = f.download("page.bin", "http", out.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["mode"], "http");
    f.assert_same("page.bin", out.path());

    // The URL by hand: works once, with length and checksum headers, then 404.
    let mut c = ExtConn::connect(f.server.addr, None, None).expect("connect");
    let offer = offer_for(&mut c, &f.path("page.bin"), "http");
    let start = accept(&mut c, &offer.offer_id, "http");
    assert_eq!(start.mode, "http");
    let url = start.url.expect("url");
    let path = &url[url.find("/api/").expect("path")..];
    let (status, headers, body) = http_get(http, path).expect("get");
    assert_eq!(status, 200);
    let header = |k: &str| headers.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert_eq!(header("content-length").as_deref(), Some("1500000"));
    assert_eq!(
        header("x-checksum-sha256").as_deref(),
        Some(offer.sha256.as_str())
    );
    assert_eq!(hex::encode(sha2::Sha256::digest(&body)), offer.sha256);
    let (status, _, _) = http_get(http, path).expect("get again");
    assert_eq!(status, 404, "a used token must be refused");

    // Health, metrics, wrong methods, garbage: answered, never fatal.
    let (status, _, body) = http_get(http, "/api/health").expect("health");
    assert_eq!(status, 200);
    let health: serde_json::Value = serde_json::from_slice(&body).expect("json");
    assert_eq!(health["status"], "ok");
    // The server counts a transfer done after its last byte is written, which the client
    // may read first: wait (bounded) for the second download to be counted.
    let done = "llmops_transfers_completed_total{mode=\"http\"} 2";
    let mut m = String::new();
    for _ in 0..100 {
        let (status, _, body) = http_get(http, "/metrics").expect("metrics");
        assert_eq!(status, 200);
        m = String::from_utf8_lossy(&body).into_owned();
        if m.contains(done) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for name in [
        "llmops_connections",
        "llmops_transfers_active",
        "llmops_transfers_completed_total{mode=\"http\"} 2",
        "llmops_transfer_bytes_sent_total",
        "llmops_rdt_retransmissions_total",
        "llmops_offers{state=\"transferred\"}",
    ] {
        assert!(m.contains(name), "{name} missing from\n{m}");
    }
    assert_eq!(
        http_raw(http, b"POST /api/health HTTP/1.1\r\n\r\n")
            .expect("post")
            .0,
        405
    );
    assert_eq!(http_get(http, "/nope").expect("404").0, 404);
    assert_eq!(
        http_raw(http, b"\x16\x03\x01garbage\r\n\r\n")
            .expect("garbage")
            .0,
        400
    );
    assert_eq!(http_raw(http, &[b'A'; 20_000]).expect("huge").0, 431);
    assert_eq!(http_get(http, "/api/health").expect("still fine").0, 200);
}

fn offer_for(c: &mut ExtConn, path: &Path, mode: &str) -> Offer {
    let rid = c.next_id();
    c.send(&Message::DownloadRequest(DownloadRequest {
        request_id: rid,
        target: path.to_str().expect("utf8").into(),
        mode: mode.into(),
    }))
    .expect("send");
    match c
        .recv_until(|m| matches!(m, Message::Offer(_) | Message::Error(_)))
        .expect("reply")
        .pop()
    {
        Some(Message::Offer(o)) => o,
        other => panic!("no offer: {other:?}"),
    }
}

fn accept(c: &mut ExtConn, offer_id: &str, mode: &str) -> TransferStart {
    c.send(&Message::OfferAccept(OfferAccept {
        offer_id: offer_id.into(),
        mode: mode.into(),
        resume_from: 0,
    }))
    .expect("send");
    match c
        .recv_until(|m| matches!(m, Message::TransferStart(_) | Message::Error(_)))
        .expect("reply")
        .pop()
    {
        Some(Message::TransferStart(s)) => s,
        other => panic!("no TRANSFER_START: {other:?}"),
    }
}

/// Sends `dgram` from a fresh socket and collects every reply within `wait`.
fn replies_to(to: SocketAddr, dgram: &[u8], wait: Duration) -> Vec<Vec<u8>> {
    let s = UdpSocket::bind("127.0.0.1:0").expect("bind");
    s.connect(to).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(50)))
        .expect("timeout");
    s.send(dgram).expect("send");
    let mut got = Vec::new();
    let end = Instant::now() + wait;
    let mut buf = [0u8; 2048];
    while Instant::now() < end {
        if let Ok(n) = s.recv(&mut buf) {
            got.push(buf[..n].to_vec());
        }
    }
    got
}

fn request(token: &[u8], size: u64) -> Vec<u8> {
    let mut buf = [0u8; MAX_DATAGRAM];
    let req = Packet::Request(protocol::rdt::packet::Request {
        mode: protocol::rdt::Mode::Pull,
        chunk_size: DEFAULT_CHUNK_SIZE,
        file_size: size,
        token,
        have: protocol::rdt::packet::Have::NONE,
    });
    let n = req
        .encode(conn_id_from_token(token), &mut buf)
        .expect("encode");
    buf[..n].to_vec()
}

fn assert_only_not_found(replies: &[Vec<u8>], token: &[u8]) {
    assert_eq!(
        replies.len(),
        1,
        "exactly one reply expected, got {}",
        replies.len()
    );
    match decode(&replies[0]) {
        Ok((conn, Packet::Abort(code))) => {
            assert_eq!(conn, conn_id_from_token(token));
            assert_eq!(code, AbortCode::NotFound);
        }
        other => panic!("expected ABORT NotFound, got {other:?}"),
    }
}

/// A minimal synchronous RDT receiver (the test's own client, independent of the TUI).
fn fetch(to: SocketAddr, token: &[u8], size: u64) -> Vec<u8> {
    let s = UdpSocket::bind("127.0.0.1:0").expect("bind");
    s.connect(to).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(5)))
        .expect("timeout");
    let mut data = vec![0u8; size as usize];
    let mut rx = Receiver::initiate(
        conn_id_from_token(token),
        token,
        size,
        DEFAULT_CHUNK_SIZE,
        None,
        Config::default(),
        Instant::now(),
    )
    .expect("receiver");
    let mut buf = [0u8; MAX_DATAGRAM];
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut done_at: Option<Instant> = None;
    loop {
        assert!(Instant::now() < deadline, "fetch timed out");
        // Linger a little after completion so the server's FIN gets its FIN-ACK.
        if done_at.is_some_and(|t| t.elapsed() > Duration::from_millis(300)) {
            return data;
        }
        let now = Instant::now();
        if rx.poll_timeout().is_some_and(|t| t <= now) {
            rx.handle_timeout(now);
        }
        while let Some(n) = rx.poll_transmit(now, &mut buf) {
            s.send(&buf[..n]).expect("send");
        }
        match rx.poll_event() {
            Some(ReceiverEvent::Done) => done_at = Some(Instant::now()),
            Some(ReceiverEvent::Aborted { reason }) => panic!("aborted: {reason:?}"),
            None => {}
        }
        let mut d = [0u8; MAX_DATAGRAM + 1];
        if let Ok(n) = s.recv(&mut d) {
            if let Some(w) = rx.handle(&d[..n], Instant::now()) {
                let off = w.offset as usize;
                data[off..off + w.data.len()].copy_from_slice(w.data);
            }
        }
    }
}

#[test]
fn bad_and_used_tokens_get_only_an_abort() {
    let f = Fixture::start(&[("small.bin", 200_000)], &[]);
    let rdt = f.server.rdt_addr.expect("rdt");
    // A token nobody issued.
    let bogus = [7u8; 32];
    assert_only_not_found(
        &replies_to(rdt, &request(&bogus, 200_000), Duration::from_millis(500)),
        &bogus,
    );
    // Garbage datagrams are ignored silently.
    for g in [&b""[..], b"\x01", &[0xff; 40], &random_bytes(1400, 9)] {
        assert!(replies_to(rdt, g, Duration::from_millis(100)).is_empty());
    }

    // A real token works once (from this test's own receiver), then is refused.
    let mut c = ExtConn::connect(f.server.addr, None, None).expect("connect");
    let offer = offer_for(&mut c, &f.path("small.bin"), "rdt");
    let start = accept(&mut c, &offer.offer_id, "rdt");
    assert_eq!(start.mode, "rdt");
    assert_eq!(start.rdt_addr.as_deref(), Some(rdt.to_string().as_str()));
    let token = hex::decode(&start.token).expect("hex token");
    assert!(token.len() >= 16, "tokens carry at least 128 bits");
    let data = fetch(rdt, &token, offer.size);
    assert_eq!(hex::encode(sha2::Sha256::digest(&data)), offer.sha256);
    assert_only_not_found(
        &replies_to(
            rdt,
            &request(&token, offer.size),
            Duration::from_millis(500),
        ),
        &token,
    );

    // The session hears progress/completion: TRANSFER_COMPLETE from the server side.
    let done = c
        .recv_until(|m| matches!(m, Message::TransferComplete(t) if t.offer_id == offer.offer_id))
        .expect("complete");
    let Some(Message::TransferComplete(t)) = done.last() else {
        panic!("no completion")
    };
    assert!(
        t.ok && t.side == "server" && t.sha256 == offer.sha256,
        "{t:?}"
    );

    let (_, _, body) = http_get(f.server.http_addr.expect("http"), "/metrics").expect("metrics");
    let m = String::from_utf8_lossy(&body);
    assert!(m.contains("llmops_rdt_bad_tokens_total 2"), "{m}");
}

#[test]
fn auto_mode_falls_back_to_nplt_when_udp_gets_no_answer() {
    // The advertised RDT address answers nothing (a relay that drops everything).
    let dead = Impairment {
        loss: 1.0,
        ..Default::default()
    };
    let (f, _relay) = fixture_behind_relay(&[("fb.bin", 300_000)], dead, 3);
    let out = tempfile::tempdir().expect("tempdir");
    let (code, v, err) = f.download("fb.bin", "auto", out.path());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["mode"], "nplt", "{v}");
    assert!(err.contains("falling back to nplt"), "{err}");
    f.assert_same("fb.bin", out.path());
}

#[test]
fn rdt_download_stops_at_once_when_the_server_dies() {
    // The datagrams go nowhere (a relay that drops everything), so the client is waiting on
    // RDT when the server process is killed: the closed control connection must end the
    // download with its own reason, not an idle timeout much later.
    let dead = Impairment {
        loss: 1.0,
        ..Default::default()
    };
    let (f, _relay) = fixture_behind_relay(&[("gone.bin", 300_000)], dead, 4);
    let out = tempfile::tempdir().expect("tempdir");
    let exe = llmops_tests::bin("llmops-tui");
    let child = std::process::Command::new(exe)
        .args(["download", "--server", &f.server.addr.to_string(), "--out"])
        .arg(out.path())
        .args(["--mode", "rdt", "--force", "--json"])
        .arg(f.path("gone.bin"))
        .env_remove("LLMOPS_SERVER")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn llmops-tui");
    // Wait until the transfer has started: its temp file exists in the output folder.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::read_dir(out.path()).expect("dir").next().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the transfer never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let Fixture {
        docs: _docs,
        server,
    } = f;
    let _data = server.kill9();
    let o = child.wait_with_output().expect("llmops-tui exits");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    let report = format!("{err}{}", String::from_utf8_lossy(&o.stdout));
    assert!(report.contains("server connection lost"), "{report}");
    assert!(!report.contains("IdleTimeout"), "{report}");
}

/// Seeded multi-line UTF-8 text (uploads must pass the server's text sniff).
fn text_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let words = [
        "alpha", "beta", "gamma", "delta", "日志", "磁盘", "error", "ok", "cpu",
    ];
    let mut v = Vec::with_capacity(n + 64);
    while v.len() < n {
        let w = words[rng.gen_range(0..words.len())];
        v.extend_from_slice(w.as_bytes());
        v.push(if rng.gen_range(0..12) == 0 {
            b'\n'
        } else {
            b' '
        });
    }
    v.truncate(n);
    // Never cut a multi-byte character in half.
    while std::str::from_utf8(&v).is_err() {
        v.pop();
    }
    v
}

/// `llmops-tui upload --json --mode MODE FILE`; returns (exit code, JSON or Null, stderr).
fn tui_upload(server: SocketAddr, file: &Path, mode: &str) -> (i32, serde_json::Value, String) {
    let addr = server.to_string();
    let (code, out, err) = llmops_tests::run_tui(&[
        "upload",
        "--server",
        &addr,
        "--json",
        "--mode",
        mode,
        file.to_str().expect("utf8"),
    ])
    .expect("run llmops-tui");
    let v = serde_json::from_str(out.trim()).unwrap_or(serde_json::Value::Null);
    (code, v, err)
}

#[test]
fn rdt_upload_through_a_lossy_relay_is_recorded_like_nplt() {
    let (f, relay) = fixture_behind_relay(&[], hostile(), 77);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big-log.txt");
    let body = text_bytes(3 * 1024 * 1024 + 17, 5);
    std::fs::write(&path, &body).expect("write");
    let (code, v, err) = tui_upload(f.server.addr, &path, "rdt");
    if code != 0 {
        let logs = f.server.data_dir.path().join("logs");
        for e in std::fs::read_dir(&logs).into_iter().flatten().flatten() {
            let t = std::fs::read_to_string(e.path()).unwrap_or_default();
            eprintln!(
                "{}:\n{}",
                e.path().display(),
                t.lines().rev().take(15).collect::<Vec<_>>().join("\n")
            );
        }
    }
    assert_eq!(code, 0, "{v} {err}");
    let want = hex::encode(sha2::Sha256::digest(&body));
    assert_eq!(v["sha256"], want.as_str(), "{v}");
    assert_eq!(v["size"], body.len() as u64, "{v}");
    // The bytes crossed the relay (UDP), not the TCP connection.
    let up = relay
        .stats
        .up_bytes
        .load(std::sync::atomic::Ordering::Relaxed);
    assert!(up >= body.len() as u64, "relay carried only {up} bytes up");
    assert!(
        relay
            .stats
            .dropped
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
    );
    // Stored exactly like an NPLT upload: uploads/<file_id>/<name>, byte-exact.
    let id = v["file_id"].as_str().expect("file id");
    let stored = f
        .server
        .data_dir
        .path()
        .join("uploads")
        .join(id)
        .join("big-log.txt");
    let got = std::fs::read(&stored).expect("stored upload");
    assert!(got == body, "stored upload differs");
    // No temp file left behind.
    let tmp = f.server.data_dir.path().join("uploads").join(".tmp");
    let left = std::fs::read_dir(&tmp).map(|d| d.count()).unwrap_or(0);
    assert_eq!(left, 0, "temp files left in {}", tmp.display());
}

#[test]
fn rdt_upload_resumes_after_a_killed_client() {
    // A slow link (about 1 MB/s) so the upload is still running when the client is killed.
    let slow = Impairment {
        rate: Some(1_000_000),
        queue: Duration::from_millis(50),
        ..Default::default()
    };
    let (f, relay) = fixture_behind_relay(&[], slow, 9);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("resume-log.txt");
    let body = text_bytes(4 * 1024 * 1024 + 5, 6);
    std::fs::write(&path, &body).expect("write");
    // Resume state belongs to the session: both runs use the same one.
    let session = ExtConn::connect(f.server.addr, None, None)
        .expect("connect")
        .session_id();
    let addr = f.server.addr.to_string();
    let args = |json: bool| {
        let mut v = vec![
            "upload",
            "--server",
            &addr,
            "--session",
            &session,
            "--mode",
            "rdt",
        ];
        if json {
            v.push("--json");
        }
        v.push(path.to_str().expect("utf8"));
        v.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let mut child = Command::new(bin("llmops-tui"))
        .args(args(false))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // Wait until the server persisted what it holds, then kill the client mid-transfer.
    let resume_dir = f.server.data_dir.path().join("uploads/.tmp/rdt-resume");
    let has_bitmap = || {
        std::fs::read_dir(&resume_dir)
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().ends_with(".bitmap"))
            })
            .unwrap_or(false)
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while !has_bitmap() {
        assert!(Instant::now() < deadline, "no server resume state appeared");
        assert!(
            child.try_wait().expect("wait").is_none(),
            "client ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(700));
    let _ = child.kill();
    let _ = child.wait();

    // The link recovers; the re-run sends only what the server does not hold.
    relay.set(Impairment::default());
    let up = || {
        relay
            .stats
            .up_bytes
            .load(std::sync::atomic::Ordering::Relaxed)
    };
    let before = up();
    let a = args(true);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let (code, out, err) = llmops_tests::run_tui(&a).expect("run llmops-tui");
    assert_eq!(code, 0, "{out} {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    let want = hex::encode(sha2::Sha256::digest(&body));
    assert_eq!(v["sha256"], want.as_str(), "{v}");
    assert_eq!(v["size"], body.len() as u64, "{v}");
    let sent = up() - before;
    assert!(
        sent < body.len() as u64,
        "the re-run sent {sent} bytes for a {} byte file: nothing was resumed",
        body.len()
    );
    let id = v["file_id"].as_str().expect("file id");
    let stored = f
        .server
        .data_dir
        .path()
        .join("uploads")
        .join(id)
        .join("resume-log.txt");
    assert!(
        std::fs::read(&stored).expect("stored") == body,
        "stored upload differs"
    );
    // The resume state is gone once the upload is recorded.
    assert!(
        !resume_dir.exists(),
        "resume files left in {}",
        resume_dir.display()
    );
}

#[test]
fn rdt_upload_refusals_and_auto_mode() {
    let f = Fixture::start(&[], &["--upload-limit", "1000000"]);
    let dir = tempfile::tempdir().expect("tempdir");
    // Too large for the server's limit: refused before any datagram, with the NPLT error.
    let big = dir.path().join("too-big.txt");
    std::fs::write(&big, text_bytes(1_500_000, 6)).expect("write");
    let (code, v, err) = tui_upload(f.server.addr, &big, "rdt");
    assert_ne!(code, 0, "an oversized upload must fail");
    assert_eq!(v["code"], "too_large", "{v} {err}");
    // A control character in the name: refused like an NPLT upload, before any datagram.
    let bad = dir.path().join("bad\u{7}name.txt");
    std::fs::write(&bad, text_bytes(1000, 8)).expect("write");
    let (code, v, err) = tui_upload(f.server.addr, &bad, "rdt");
    assert_ne!(code, 0, "a bad name must fail");
    assert_eq!(v["code"], "bad_filename", "{v} {err}");
    // Binary content: received over RDT, then refused by the same text check as NPLT.
    let bin = dir.path().join("blob.txt");
    std::fs::write(&bin, random_bytes(200_000, 9)).expect("write");
    let (code, v, err) = tui_upload(f.server.addr, &bin, "rdt");
    assert_ne!(code, 0, "a binary upload must fail");
    assert_eq!(v["code"], "unsupported_type", "{v} {err}");
    // auto below the threshold goes over NPLT; both land the same way.
    let small = dir.path().join("small.txt");
    let body = text_bytes(50_000, 7);
    std::fs::write(&small, &body).expect("write");
    let (code, v, err) = tui_upload(f.server.addr, &small, "auto");
    assert_eq!(code, 0, "{v} {err}");
    assert_eq!(v["size"], body.len() as u64);
    let (code, v, err) = tui_upload(f.server.addr, &small, "rdt");
    assert_eq!(code, 0, "{v} {err}");
    assert_eq!(
        v["sha256"],
        hex::encode(sha2::Sha256::digest(&body)).as_str()
    );
    let tmp = f.server.data_dir.path().join("uploads").join(".tmp");
    let left = std::fs::read_dir(&tmp).map(|d| d.count()).unwrap_or(0);
    assert_eq!(left, 0, "temp files left in {}", tmp.display());
}

/// The server's `llmops_rdt_retransmissions_total`.
fn retransmissions(server: &ServerProc) -> u64 {
    let http = server.http_addr.expect("http address");
    let (_, _, body) = http_get(http, "/metrics").expect("metrics");
    String::from_utf8_lossy(&body)
        .lines()
        .find_map(|l| l.strip_prefix("llmops_rdt_retransmissions_total "))
        .and_then(|v| v.trim().parse().ok())
        .expect("retransmission counter")
}

#[test]
fn rdt_retransmissions_track_relay_loss() {
    // Random loss only (no reordering): retransmissions must stay close to the DATA
    // packets the relay really dropped, whatever ACKs were lost on the way back.
    let (f, relay) =
        fixture_behind_relay(&[("retx.bin", 4 * 1024 * 1024)], Impairment::default(), 3);
    let out = tempfile::tempdir().expect("tempdir");
    for loss in [0.05, 0.10] {
        relay.set(Impairment {
            loss,
            delay: Duration::from_millis(10),
            ..Default::default()
        });
        let before = retransmissions(&f.server);
        let dropped_before = relay
            .stats
            .down_dropped
            .load(std::sync::atomic::Ordering::Relaxed);
        let (code, v, err) = f.download("retx.bin", "rdt", out.path());
        assert_eq!(code, 0, "{v} {err}");
        f.assert_same("retx.bin", out.path());
        // The server adds its counters after the transfer ends: wait for them (hang guard).
        let mut retx = 0;
        for _ in 0..50 {
            retx = retransmissions(&f.server) - before;
            if retx > 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let dropped = relay
            .stats
            .down_dropped
            .load(std::sync::atomic::Ordering::Relaxed)
            - dropped_before;
        println!("loss {loss}: {retx} retransmissions for {dropped} dropped datagrams");
        assert!(dropped > 0);
        assert!(
            retx <= dropped * 3 / 2 + 50,
            "loss {loss}: {retx} retransmissions for {dropped} dropped datagrams"
        );
    }
}
