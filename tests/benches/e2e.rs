//! `make bench`: end-to-end timings of the real release binaries on loopback, medians of
//! repeated runs measured side by side in one process, written to docs/benchmarks.md.

use std::time::{Duration, Instant};

use llmops_tests::relay::{Impairment, Relay};
use llmops_tests::{http_get, run_tui, tui_download, ExtConn, ServerProc};
use protocol::*;
use rand::{RngCore, SeedableRng};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn upload(c: &mut ExtConn, name: &str, body: &[u8]) -> FileInfo {
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart {
        request_id: rid,
        filename: name.into(),
        size: body.len() as u64,
        sha256: None,
    }))
    .expect("send");
    for chunk in body.chunks(64 * 1024 - 1) {
        c.send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
            chunk,
        ))))
        .expect("send");
    }
    let msgs = c
        .recv_until(|m| matches!(m, Message::UploadResult(_) | Message::Error(_)))
        .expect("reply");
    match msgs.last() {
        Some(Message::UploadResult(r)) => r.file.clone(),
        other => panic!("upload failed: {other:?}"),
    }
}

fn text_file(bytes: usize) -> Vec<u8> {
    let mut s = String::with_capacity(bytes + 100);
    let mut i = 0u64;
    while s.len() < bytes {
        s.push_str(&format!(
            "2026-11-02 08:{:02}:{:02} INFO request {i} served in {} ms 请求完成\n",
            (i / 60) % 60,
            i % 60,
            i % 997
        ));
        i += 1;
    }
    s.truncate(bytes);
    // Keep the cut on a char boundary and the file pure text.
    while !s.is_char_boundary(s.len()) {
        s.pop();
    }
    s.into_bytes()
}

/// One chat turn, from sending to STREAM_END.
fn timed_turn(c: &mut ExtConn, text: &str) -> Duration {
    let rid = c.next_id();
    let t = Instant::now();
    c.send(&Message::Chat(ChatSend {
        request_id: rid,
        text: text.into(),
        file_ids: vec![],
    }))
    .expect("send");
    c.recv_until(|m| matches!(m, Message::StreamEnd(e) if e.request_id == rid))
        .expect("turn");
    t.elapsed()
}

fn main() {
    let runs = 7;
    let server = ServerProc::start().expect("server (build with `cargo build --release --bins`)");
    let addr = server.addr.to_string();
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let body = text_file(5 * 1024 * 1024);

    let mut up = Vec::new();
    let mut last = None;
    for i in 0..runs {
        let t = Instant::now();
        last = Some(upload(&mut c, &format!("big{i}.log"), &body));
        up.push(t.elapsed());
    }
    let f = last.expect("one upload");

    let out = tempfile::tempdir().expect("tempdir");
    let sid = c.session_id();
    let mut down = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let (code, o, e) = run_tui(&[
            "download",
            "--server",
            &addr,
            "--session",
            &sid,
            "--force",
            "--out",
            out.path().to_str().expect("utf8"),
            "--mode",
            "nplt",
            &f.file_id,
        ])
        .expect("run");
        assert_eq!(code, 0, "{o} {e}");
        down.push(t.elapsed());
    }

    let mut turns = Vec::new();
    for _ in 0..(runs * 3) {
        turns.push(timed_turn(&mut c, "CPU使用率是多少？"));
    }

    // Nothing blocks the runtime: while another session runs a 5 s command (`tail -f`,
    // killed by the executor's timeout), this session's turns keep completing.
    let mut busy = ExtConn::connect(server.addr, None, None).expect("second session");
    upload(&mut busy, "follow.log", b"2026-11-02 INFO one line\n");
    let busy_rid = busy.next_id();
    busy.send(&Message::Chat(ChatSend {
        request_id: busy_rid,
        text: "tail -f follow.log".into(),
        file_ids: vec![],
    }))
    .expect("send");
    // Wait until the command is really running before measuring.
    busy.recv_until(|m| {
        matches!(
            m,
            Message::AgentEvent(AgentEvent {
                event: AgentEventKind::ToolCall { .. },
                ..
            })
        )
    })
    .expect("tool call");
    let cmd_started = Instant::now();
    let mut during = Vec::new();
    while cmd_started.elapsed() < Duration::from_secs(4) {
        during.push(timed_turn(&mut c, "CPU使用率是多少？"));
    }
    busy.recv_until(|m| matches!(m, Message::StreamEnd(e) if e.request_id == busy_rid))
        .expect("the long command's turn ends");
    let cmd_secs = cmd_started.elapsed().as_secs_f64();
    let during_n = during.len();
    let during_max = during.iter().max().copied().unwrap_or_default();
    let during_med = median(during);

    let mb = body.len() as f64 / (1024.0 * 1024.0);
    let (u, d, t) = (median(up), median(down), median(turns));
    let report = format!(
        "## End-to-end on loopback (release build)\n\n\
         Command: `make bench` (`cargo build --release --bins && cargo bench -p llmops-tests --bench e2e`), \
         {runs} runs each ({} for turns), medians, one server process, measured side by side in one run.\n\n\
         | what | median | throughput |\n|---|---|---|\n\
         | upload {mb:.1} MiB text file (64 KiB frames, sha256 while receiving, validate, atomic rename, SQLite record) | {:.1} ms | {:.0} MiB/s |\n\
         | download the same file, `nplt` mode, via `llmops-tui download` (process start, handshake, offer, verify sha256, rename) | {:.1} ms | {:.0} MiB/s |\n\
         | chat turn \"CPU使用率是多少？\" (offline planner, sys_monitor, streamed answer, history write) | {:.1} ms | |\n\
         | the same turn while another session runs a 5 s command (`tail -f`, killed at its timeout after {cmd_secs:.1} s): {during_n} turns | {:.1} ms (max {:.1} ms) | |\n",
        runs * 3,
        ms(u), mb / u.as_secs_f64(),
        ms(d), mb / d.as_secs_f64(),
        ms(t),
        ms(during_med), ms(during_max),
    );
    let report = format!("{report}\n{}", rdt_bench());
    println!("{report}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let header = "# Benchmarks\n\nNumbers from `make bench` on this project's 2-core machine. Regenerate with `make bench`; \
                  wall times include starting the `llmops-tui` process.\n\n";
    // Keep the sections other benches own (the index bench writes `## Index (...)`).
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let others = old.find("\n## Index (").map(|i| &old[i..]).unwrap_or("");
    std::fs::write(&path, format!("{header}{report}{others}")).expect("write docs/benchmarks.md");
    eprintln!("wrote {}", path.display());
}

/// Writes `size` seeded random bytes (incompressible, like real binaries) to `path`.
fn random_file(path: &std::path::Path, size: usize, seed: u64) {
    use std::io::Write;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    let mut buf = vec![0u8; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(buf.len());
        rng.fill_bytes(&mut buf[..n]);
        f.write_all(&buf[..n]).expect("write");
        left -= n;
    }
    f.flush().expect("flush");
}

/// One CLI download; returns its wall time. Panics unless it verified.
fn cli_download(
    server: &ServerProc,
    target: &std::path::Path,
    mode: &str,
    out: &std::path::Path,
) -> Duration {
    let t = Instant::now();
    let (code, v, e) = tui_download(server.addr, target, mode, out).expect("run");
    let d = t.elapsed();
    assert_eq!(code, 0, "{v} {e}");
    assert_eq!(v["mode"], mode, "{v}");
    d
}

/// A counter from the server's /metrics.
fn metric(server: &ServerProc, name: &str) -> u64 {
    let Some(h) = server.http_addr else { return 0 };
    let Ok((_, _, body)) = http_get(h, "/metrics") else {
        return 0;
    };
    String::from_utf8_lossy(&body)
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.trim().parse().ok()))
        .unwrap_or(0)
}

fn mibps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / (1024.0 * 1024.0) / d.as_secs_f64()
}

/// RDT goodput: loopback next to nplt/http, through the impairment relay at several loss
/// rates with 10 ms one-way delay, and 20 concurrent downloads.
fn rdt_bench() -> String {
    let docs = tempfile::tempdir().expect("tempdir");
    let out = tempfile::tempdir().expect("tempdir");
    let small = 10 * 1024 * 1024;
    let big = 100 * 1024 * 1024;
    let f10 = docs.path().join("ten.bin");
    let f100 = docs.path().join("hundred.bin");
    random_file(&f10, small, 1);
    random_file(&f100, big, 2);
    let d = docs.path().to_str().expect("utf8").to_string();

    let mut s = String::from(
        "## Downloads: RDT over UDP vs the TCP fallbacks\n\n\
         Seeded random (incompressible) files in a temp dir, `llmops-tui download --mode M` (process start, offer, \
         transfer, sha256 verification of the written file, rename), medians. `nplt` and `http` are TCP and cannot go \
         through the UDP relay (this kernel has no netem), so their loopback numbers are the reference.\n\n\
         | file | mode | path | median | goodput | retransmissions/run |\n|---|---|---|---|---|---|\n",
    );
    let direct = ServerProc::start_with(&["--docs", &d]).expect("server");
    for (file, size, runs, label) in [(&f10, small, 5, "10 MiB"), (&f100, big, 3, "100 MiB")] {
        for mode in ["rdt", "nplt", "http"] {
            let r0 = metric(&direct, "llmops_rdt_retransmissions_total");
            let times: Vec<Duration> = (0..runs)
                .map(|_| cli_download(&direct, file, mode, out.path()))
                .collect();
            std::thread::sleep(Duration::from_millis(100));
            let retx = (metric(&direct, "llmops_rdt_retransmissions_total") - r0) / runs as u64;
            let m = median(times);
            s.push_str(&format!(
                "| {label} | {mode} | loopback | {:.0} ms | {:.0} MiB/s | {} |\n",
                ms(m),
                mibps(size, m),
                if mode == "rdt" {
                    retx.to_string()
                } else {
                    "-".into()
                }
            ));
            eprintln!("{label} {mode} loopback {:.0} ms", ms(m));
        }
    }

    let relay = Relay::bind(Impairment::default(), 99).expect("relay");
    let adv = relay.addr.to_string();
    let behind = ServerProc::start_with(&["--docs", &d, "--rdt-advertise", &adv]).expect("server");
    relay.set_upstream(behind.rdt_addr.expect("rdt addr"));
    for (file, size, label, losses) in [
        (&f10, small, "10 MiB", &[0.0, 0.01, 0.05, 0.10, 0.20][..]),
        (&f100, big, "100 MiB", &[0.0, 0.05][..]),
    ] {
        for &loss in losses {
            relay.set(Impairment {
                loss,
                delay: Duration::from_millis(10),
                ..Default::default()
            });
            let runs = if size == small { 3 } else { 1 };
            let r0 = metric(&behind, "llmops_rdt_retransmissions_total");
            let times: Vec<Duration> = (0..runs)
                .map(|_| cli_download(&behind, file, "rdt", out.path()))
                .collect();
            std::thread::sleep(Duration::from_millis(100));
            let retx = (metric(&behind, "llmops_rdt_retransmissions_total") - r0) / runs as u64;
            let m = median(times);
            s.push_str(&format!(
                "| {label} | rdt | relay, 10 ms one-way, {:.0}% loss each way | {:.0} ms | {:.1} MiB/s | {retx} |\n",
                loss * 100.0,
                ms(m),
                mibps(size, m)
            ));
            eprintln!("{label} rdt relay {:.0}% {:.0} ms", loss * 100.0, ms(m));
        }
    }

    // 20 concurrent 10 MiB downloads (20 client processes) on loopback.
    let outs: Vec<tempfile::TempDir> = (0..20)
        .map(|_| tempfile::tempdir().expect("tempdir"))
        .collect();
    let t = Instant::now();
    std::thread::scope(|sc| {
        for o in &outs {
            let (srv, f) = (&direct, &f10);
            sc.spawn(move || cli_download(srv, f, "rdt", o.path()));
        }
    });
    let all = t.elapsed();
    s.push_str(&format!(
        "\n20 concurrent `--mode rdt` downloads of the 10 MiB file on loopback (20 client processes, one server \
         socket): all verified in {:.0} ms, {:.0} MiB/s aggregate.\n",
        ms(all),
        mibps(20 * small, all)
    ));
    s
}
