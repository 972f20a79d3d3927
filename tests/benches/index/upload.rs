//! The upload rows of the index bench: upload + lexical index of 5 MB files through the
//! real server (loopback), a service log and a YAML of nested keys (key paths).

use std::time::Instant;

use llmops_tests::{ExtConn, ServerProc};

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
/// log (the target: under a second), and a YAML whose key paths are computed too.
pub fn bench_upload(out: &mut String) {
    let rows = [
        ("log", "log", log_body(), " (target < 1000 ms)"),
        ("YAML (key paths)", "yaml", yaml_body(), ""),
    ];
    for (label, ext, body, target) in rows {
        let server = ServerProc::start_with(&["--embedder", "none"]).expect("server");
        let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
        let mut times = vec![];
        for n in 0..3 {
            // Different content each round: the same content is indexed once per session.
            let text = format!("# round {n}\n{body}");
            let t = Instant::now();
            let file = c
                .upload_bytes(&format!("big{n}.{ext}"), text.as_bytes())
                .expect("send")
                .expect("upload");
            assert_eq!(file.state, "indexed", "{file:?}");
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let best = times.iter().cloned().fold(f64::MAX, f64::min);
        let med = pct(&mut times.clone(), 0.5);
        out.push_str(&format!(
            "| upload + lexical index, 5 MB {label} (searchable on return) | {med:.0} ms median, {best:.0} ms best{target} |\n"
        ));
    }
}
