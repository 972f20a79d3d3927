//! The upload rows of the index bench: upload + lexical index of 5 MB files through the
//! real server (loopback), a service log and a YAML of nested keys (key paths).

use std::time::Instant;

use llmops_tests::{ExtConn, ServerProc};
use protocol::{Message, Raw, UploadStart};

use super::pct;

/// A 5 MB service log.
fn log_body() -> String {
    let mut body = String::new();
    let mut i = 0u64;
    while body.len() < 5 * 1024 * 1024 {
        body.push_str(&format!(
            "2025-01-01T00:00:{:02} host{} service[{}]: request {} took {} ms status {}\n",
            i % 60,
            i % 17,
            i % 1000,
            i,
            i % 250,
            if i.is_multiple_of(97) { 500 } else { 200 }
        ));
        i += 1;
    }
    body
}

/// A 5 MB YAML of nested service specs: every line sets a key 1-6 levels deep, so each
/// chunk gets its key paths (`analyzers/keypath.rs`) on top of the log's work.
fn yaml_body() -> String {
    let mut body = String::new();
    let mut i = 0u64;
    while body.len() < 5 * 1024 * 1024 {
        body.push_str(&format!(
            "service-{i}:\n  spec:\n    replicas: {}\n    containers:\n      - name: app-{i}\n        image: registry.local/app:{}.{}\n        resources:\n          limits:\n            memory: {}Gi\n            cpu: \"{}\"\n        env:\n          - name: TIMEOUT_{i}\n            value: \"{}s\"\n",
            i % 5 + 1,
            i % 9,
            i % 31,
            i % 8 + 1,
            i % 4 + 1,
            i % 30 + 1
        ));
        i += 1;
    }
    body
}

/// Upload + lexical indexing of 5 MB text files through the real server (loopback): a
/// log, and a YAML whose key paths are computed too.
pub fn bench_upload(out: &mut String) {
    for (label, ext, body) in [
        ("log", "log", log_body()),
        ("YAML (key paths)", "yaml", yaml_body()),
    ] {
        bench_upload_one(out, label, ext, &body);
    }
}

fn bench_upload_one(out: &mut String, label: &str, ext: &str, body: &str) {
    let server = ServerProc::start_with(&["--embedder", "none"]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let mut times = vec![];
    for n in 0..3 {
        // Different content each round: the same content is indexed once per session.
        let text = format!("# round {n}\n{body}");
        let t = Instant::now();
        let rid = c.next_id();
        c.send(&Message::UploadStart(UploadStart {
            request_id: rid,
            filename: format!("big{n}.{ext}"),
            size: text.len() as u64,
            sha256: None,
            result_on_save: false,
        }))
        .expect("send");
        for part in text.as_bytes().chunks(64 * 1024) {
            c.send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
                part,
            ))))
            .expect("send");
        }
        let msgs = c
            .recv_until(|m| matches!(m, Message::UploadResult(_) | Message::Error(_)))
            .expect("result");
        assert!(
            matches!(msgs.last(), Some(Message::UploadResult(r)) if r.file.state == "indexed"),
            "{:?}",
            msgs.last()
        );
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let best = times.iter().cloned().fold(f64::MAX, f64::min);
    let med = pct(&mut times.clone(), 0.5);
    out.push_str(&format!(
        "| upload + lexical index, 5 MB {label} (searchable on return) | {:.0} ms median, {:.0} ms best (target < 1000 ms) |\n",
        med, best
    ));
}
