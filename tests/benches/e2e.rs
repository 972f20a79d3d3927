//! `make bench`: end-to-end timings of the real release binaries on loopback, medians of
//! repeated runs measured side by side in one process, written to docs/benchmarks.md.

use std::time::{Duration, Instant};

use llmops_tests::{run_tui, ExtConn, ServerProc};
use protocol::*;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn upload(c: &mut ExtConn, name: &str, body: &[u8]) -> FileInfo {
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart { request_id: rid, filename: name.into(), size: body.len() as u64, sha256: None }))
        .expect("send");
    for chunk in body.chunks(64 * 1024 - 1) {
        c.send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(chunk)))).expect("send");
    }
    let msgs = c.recv_until(|m| matches!(m, Message::UploadResult(_) | Message::Error(_))).expect("reply");
    match msgs.last() {
        Some(Message::UploadResult(r)) => r.file.clone(),
        other => panic!("upload failed: {other:?}"),
    }
}

fn text_file(bytes: usize) -> Vec<u8> {
    let mut s = String::with_capacity(bytes + 100);
    let mut i = 0u64;
    while s.len() < bytes {
        s.push_str(&format!("2026-11-02 08:{:02}:{:02} INFO request {i} served in {} ms 请求完成\n", (i / 60) % 60, i % 60, i % 997));
        i += 1;
    }
    s.truncate(bytes);
    // Keep the cut on a char boundary and the file pure text.
    while !s.is_char_boundary(s.len()) {
        s.pop();
    }
    s.into_bytes()
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
        let (code, o, e) = run_tui(&["download", "--server", &addr, "--session", &sid, "--force", "--out", out.path().to_str().expect("utf8"), "--mode", "nplt", &f.file_id]).expect("run");
        assert_eq!(code, 0, "{o} {e}");
        down.push(t.elapsed());
    }

    let mut turns = Vec::new();
    for _ in 0..(runs * 3) {
        let rid = c.next_id();
        let t = Instant::now();
        c.send(&Message::Chat(ChatSend { request_id: rid, text: "CPU使用率是多少？".into(), file_ids: vec![] })).expect("send");
        c.recv_until(|m| matches!(m, Message::StreamEnd(e) if e.request_id == rid)).expect("turn");
        turns.push(t.elapsed());
    }

    let mb = body.len() as f64 / (1024.0 * 1024.0);
    let (u, d, t) = (median(up), median(down), median(turns));
    let report = format!(
        "## End-to-end on loopback (release build)\n\n\
         Command: `make bench` (`cargo build --release --bins && cargo bench -p llmops-tests --bench e2e`), \
         {runs} runs each ({} for turns), medians, one server process, measured side by side in one run.\n\n\
         | what | median | throughput |\n|---|---|---|\n\
         | upload {mb:.1} MiB text file (64 KiB frames, sha256 while receiving, validate, atomic rename, SQLite record) | {:.1} ms | {:.0} MiB/s |\n\
         | download the same file, `nplt` mode, via `llmops-tui download` (process start, handshake, offer, verify sha256, rename) | {:.1} ms | {:.0} MiB/s |\n\
         | chat turn \"CPU使用率是多少？\" (offline planner, sys_monitor, streamed answer, history write) | {:.1} ms | |\n",
        runs * 3,
        ms(u), mb / u.as_secs_f64(),
        ms(d), mb / d.as_secs_f64(),
        ms(t),
    );
    println!("{report}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let header = "# Benchmarks\n\nNumbers from `make bench` on this project's 2-core machine. Regenerate with `make bench`; \
                  the index (issue 4) and RDT (issue 5) benchmarks are not implemented yet.\n\n";
    std::fs::write(&path, format!("{header}{report}")).expect("write docs/benchmarks.md");
    eprintln!("wrote {}", path.display());
}
