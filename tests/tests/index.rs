//! End-to-end tests of the document index through the real server binary: upload, search
//! (uploads/system/all), delete, restart, kill -9 during an upload, dense search with the
//! local model, and Chroma as the vector store.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use llmops_tests::{ExtConn, ServerProc};
use protocol::{FileDelete, Message, Raw, SearchReq, UploadStart};

fn upload(c: &mut ExtConn, name: &str, body: &[u8]) -> protocol::FileInfo {
    upload_seen(c, name, body).0
}

/// Uploads and also returns every message seen meanwhile (pushed states may come first).
fn upload_seen(c: &mut ExtConn, name: &str, body: &[u8]) -> (protocol::FileInfo, Vec<Message>) {
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart {
        request_id: rid,
        filename: name.into(),
        size: body.len() as u64,
        sha256: None,
        result_on_save: false,
    }))
    .expect("send");
    for part in body.chunks(64 * 1024) {
        c.send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
            part,
        ))))
        .expect("send");
    }
    let msgs = c
        .recv_until(|m| matches!(m, Message::UploadResult(_) | Message::Error(_)))
        .expect("result");
    match msgs.last() {
        Some(Message::UploadResult(r)) => (r.file.clone(), msgs.clone()),
        other => panic!("{other:?}"),
    }
}

fn search(c: &mut ExtConn, q: &str, scope: &str) -> Vec<protocol::SearchHit> {
    let rid = c.next_id();
    c.send(&Message::Search(SearchReq {
        request_id: rid,
        query: q.into(),
        scope: scope.into(),
        top_k: 5,
    }))
    .expect("send");
    let msgs = c
        .recv_until(|m| {
            matches!(m, Message::SearchResults(r) if r.request_id == Some(rid))
                || matches!(m, Message::Error(_))
        })
        .expect("results");
    match msgs.last() {
        Some(Message::SearchResults(r)) => r.results.clone(),
        other => panic!("{other:?}"),
    }
}

const CONFIG: &str =
    "server:\n  port: 8080\ndatabase:\n  host: db.internal\n  port: 5432\n  pool_size: 20\n";
const LOG: &str = "2025-01-01 INFO service started\n2025-01-01 ERROR disk full on /var/lib/postgres\n2025-01-01 WARN retrying write\n";

fn docs_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("docs");
    std::fs::write(
        d.path().join("backup-guide.md"),
        "# 备份指南\n\n每天凌晨两点执行数据库备份，备份文件保存在 /srv/backup。\nNightly database backups run at 02:00 and are kept for 14 days.\n",
    )
    .expect("write");
    std::fs::write(d.path().join(".secret"), "database password hunter2").expect("write");
    d
}

#[test]
fn index_upload_search_delete_and_restart() {
    let docs = docs_dir();
    let docs_arg = docs.path().to_string_lossy().into_owned();
    let server =
        ServerProc::start_with(&["--docs", &docs_arg, "--embedder", "none"]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let session = c.session_id();
    let cfg = upload(&mut c, "config.yaml", CONFIG.as_bytes());
    assert_eq!(cfg.state, "indexed");
    let log = upload(&mut c, "app.log", LOG.as_bytes());

    // Searchable at once; a file name finds that file first.
    let hits = search(&mut c, "config.yaml", "uploads");
    assert_eq!(hits[0].filename, "config.yaml", "{hits:?}");
    assert_eq!(hits[0].match_type, "filename");
    assert_eq!(hits[0].file_id.as_deref(), Some(cfg.file_id.as_str()));
    let hits = search(&mut c, "disk full error", "uploads");
    assert_eq!(hits[0].filename, "app.log", "{hits:?}");
    assert!(hits[0].chunk.contains("disk full"));
    assert!(
        hits[0].position.starts_with("lines 2-"),
        "{}",
        hits[0].position
    );

    // System docs (shipped manual + --docs) are indexed in the background.
    let st = c.wait_index(60, |s| s.files >= 4);
    assert!(st.mode.starts_with("lexical-only"), "{}", st.mode);
    assert!(st.chunks >= 4);
    let hits = search(&mut c, "数据库备份", "system");
    assert_eq!(hits[0].filename, "backup-guide.md", "{hits:?}");
    assert!(
        hits.iter().all(|h| h.filename != ".secret"),
        "hidden files are not docs"
    );
    let hits = search(&mut c, "上传文件", "system");
    assert_eq!(hits[0].filename, "llmops-manual.md", "{hits:?}");
    // The built-in manual is a real file under the data dir: its hit can be read.
    let manual = std::path::Path::new(&hits[0].filepath);
    assert!(manual.is_absolute(), "{}", hits[0].filepath);
    assert!(
        std::fs::read_to_string(manual).is_ok_and(|t| t.contains("llmops")),
        "{}",
        hits[0].filepath
    );
    let hits = search(&mut c, "database", "all");
    let names: Vec<&str> = hits.iter().map(|h| h.filename.as_str()).collect();
    assert!(
        names.contains(&"config.yaml") && names.contains(&"backup-guide.md"),
        "{names:?}"
    );
    assert!(search(&mut c, "database", "system")
        .iter()
        .all(|h| h.file_id.is_none()));
    for h in &hits {
        assert!((0.0..=1.0).contains(&h.similarity) && h.chunk.chars().count() <= 200);
    }

    // Docs folders are re-scanned periodically (every 15 s): a new doc appears, a removed
    // one goes.
    std::fs::write(
        docs.path().join("firewall.md"),
        "nftables firewall rules for the bastion host\n",
    )
    .expect("write");
    std::fs::remove_file(docs.path().join("backup-guide.md")).expect("rm");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        c.index_status();
        let found = search(&mut c, "nftables bastion", "system");
        let gone = search(&mut c, "数据库备份", "system").is_empty();
        if found.first().is_some_and(|h| h.filename == "firewall.md") && gone {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "rescan never picked up the change: {found:?}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }

    // Another session sees none of these uploads.
    let mut other = ExtConn::connect(server.addr, None, None).expect("connect");
    assert!(search(&mut other, "disk full error", "uploads").is_empty());

    // Same content twice: indexed once; deleting one copy keeps the other searchable.
    let copy = upload(&mut c, "copy.log", LOG.as_bytes());
    let files_before = c.index_status().files;
    let rid = c.next_id();
    c.send(&Message::FileDelete(FileDelete {
        request_id: rid,
        file_id: log.file_id.clone(),
    }))
    .expect("send");
    c.recv_until(|m| matches!(m, Message::Ack(_))).expect("ack");
    let hits = search(&mut c, "disk full error", "uploads");
    assert_eq!(
        hits[0].file_id.as_deref(),
        Some(copy.file_id.as_str()),
        "{hits:?}"
    );
    let rid = c.next_id();
    c.send(&Message::FileDelete(FileDelete {
        request_id: rid,
        file_id: copy.file_id.clone(),
    }))
    .expect("send");
    c.recv_until(|m| matches!(m, Message::Ack(_))).expect("ack");
    assert!(search(&mut c, "disk full error", "uploads").is_empty());
    assert_eq!(c.index_status().files, files_before - 1);
    drop(c);
    drop(other);

    // Restart: everything is still there, without re-indexing the docs.
    let (_, data) = server.terminate().expect("stop");
    let server =
        ServerProc::start_in(data, &["--docs", &docs_arg, "--embedder", "none"]).expect("restart");
    let mut c = ExtConn::connect(server.addr, Some(&session), None).expect("resume");
    let hits = search(&mut c, "database pool_size", "uploads");
    assert_eq!(hits[0].filename, "config.yaml", "{hits:?}");
    let hits = search(&mut c, "nftables bastion", "system");
    assert_eq!(hits[0].filename, "firewall.md");
    // Deleted files stay deleted, with their index entries.
    assert!(search(&mut c, "disk full error", "uploads").is_empty());
}

#[test]
fn index_kill9_during_upload_leaves_nothing_partial() {
    let server = ServerProc::start_with(&["--embedder", "none"]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let session = c.session_id();
    let body = "unique-marker-zebra line of a big log\n".repeat(50_000);
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart {
        request_id: rid,
        filename: "big.log".into(),
        size: body.len() as u64,
        sha256: None,
        result_on_save: false,
    }))
    .expect("send");
    c.send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
        &body.as_bytes()[..body.len() / 2],
    ))))
    .expect("send");
    std::thread::sleep(Duration::from_millis(200));
    let data = server.kill9();
    let server = ServerProc::start_in(data, &["--embedder", "none"]).expect("restart");
    let mut c = ExtConn::connect(server.addr, Some(&session), None).expect("resume");
    let files = c.files().expect("list");
    assert!(files.is_empty(), "{files:?}");
    assert!(search(&mut c, "unique-marker-zebra", "all").is_empty());
    let leftovers: Vec<PathBuf> = walk(&server.data_path().join("uploads"));
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn walk(p: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            if e.path().is_dir() {
                out.extend(walk(&e.path()));
            } else {
                out.push(e.path());
            }
        }
    }
    out
}

/// Uploads, follows the pushed states to `ready`, then searches by meaning, on the
/// default embedder (e5 from `make setup`), the kernel level forced by `kernel`
/// (`LLMOPS_KERNEL`) when given.
fn dense_scenario(kernel: Option<&str>, extra: &[&str]) {
    let Some(model) = llmops_tests::e5_model() else {
        return;
    };
    let mut args = vec!["--model-dir", model.as_str()];
    args.extend_from_slice(extra);
    let env = kernel.map(|k| format!("LLMOPS_KERNEL={k}"));
    let wrapper: Vec<&str> = env.iter().flat_map(|e| ["env", e.as_str()]).collect();
    let server = ServerProc::start_wrapped(&wrapper, tempfile::tempdir().expect("data"), &args)
        .expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let s = c.wait_index(120, |s| s.mode.starts_with("hybrid"));
    assert!(s.mode.contains("multilingual-e5-small"), "{s:?}");
    let guide = "How to bring the web server back after changing its configuration: run systemctl reload nginx.\n";
    let (_, mut seen) = upload_seen(
        &mut c,
        "fruit.txt",
        b"Apples and pears grow in the orchard behind the farm.\n",
    );
    let (f, more) = upload_seen(&mut c, "ops-notes.txt", guide.as_bytes());
    seen.extend(more);
    // Pushed states: saved, indexed, embedding n/m, then ready (pushed even if the upload
    // result already said `ready`: the uploader is registered before indexing starts).
    assert!(
        matches!(f.state.as_str(), "indexed" | "embedding" | "ready"),
        "{}",
        f.state
    );
    let mut states: Vec<String> = vec![];
    let mut seen = seen.into_iter();
    let deadline = Instant::now() + Duration::from_secs(120);
    while states.last().map(String::as_str) != Some("ready") {
        assert!(Instant::now() < deadline, "{states:?}");
        let m = match seen.next() {
            Some(m) => m,
            None => c.recv().expect("status"),
        };
        if let Message::UploadStatus(s) = m {
            if s.file_id == f.file_id {
                if s.state == "embedding" {
                    assert!(s.done <= s.total && s.total >= 1, "{s:?}");
                }
                states.push(s.state);
            }
        }
    }
    // Every state, in order: saved, indexed, embedding n/m..., ready.
    assert_eq!(states[..2], ["saved", "indexed"], "{states:?}");
    assert!(
        states[2..states.len() - 1].iter().all(|s| s == "embedding") && states.len() > 3,
        "{states:?}"
    );
    c.wait_index(120, |s| s.embedding_backlog == 0);
    // No shared words with the text, not even through the glossary (`reboot` reaches
    // `restart`, which the text does not say): only the dense side can find it.
    let hits = search(&mut c, "reboot the webserver", "uploads");
    assert_eq!(
        hits.first().map(|h| h.filename.as_str()),
        Some("ops-notes.txt"),
        "{hits:?}"
    );
    assert_eq!(hits[0].match_type, "semantic");
    let hits = search(&mut c, "reload nginx configuration", "uploads");
    assert_eq!(hits[0].filename, "ops-notes.txt");
    assert_eq!(hits[0].match_type, "hybrid");
    // The uploads table ends in `ready` for both files.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let files = c.files().expect("list");
        if files.iter().all(|f| f.state == "ready") {
            break;
        }
        assert!(Instant::now() < deadline, "{files:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn index_dense_with_the_default_embedder() {
    dense_scenario(None, &[]);
}

/// A binary built anywhere runs everything it needs on the baseline kernels: the server
/// with `LLMOPS_KERNEL=baseline` embeds and finds by meaning as with the best level.
#[test]
fn index_dense_with_the_kernels_forced_to_baseline() {
    dense_scenario(Some("baseline"), &[]);
}

#[test]
fn index_dense_with_chroma() {
    if llmops_tests::e5_model().is_none() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("port");
    let dir = tempfile::tempdir().expect("chroma dir");
    let out = std::process::Command::new(root.join("scripts/chroma.sh"))
        .arg("start")
        .arg(port.to_string())
        .arg(dir.path())
        .output()
        .expect("chroma.sh");
    assert!(
        out.status.success(),
        "chroma did not start: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
    struct Stop(String);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = std::process::Command::new("kill").arg(&self.0).status();
        }
    }
    let _stop = Stop(pid);
    let url = format!("http://127.0.0.1:{port}");
    dense_scenario(None, &["--vector-store", "chroma", "--chroma-url", &url]);
}

/// A real OpenAI-compatible `/v1/embeddings` endpoint on an ephemeral port, run by the test:
/// it answers with deterministic bag-of-words vectors (the hash embedder's), and with HTTP
/// 500 to the next `fail_next` passage requests or to every one while `broken` is set. The
/// dimension probe at server start always succeeds.
struct EmbedEndpoint {
    url: String,
    fail_next: std::sync::Arc<std::sync::atomic::AtomicU32>,
    broken: std::sync::Arc<std::sync::atomic::AtomicBool>,
    served: std::sync::Arc<std::sync::atomic::AtomicU32>,
}

impl EmbedEndpoint {
    fn start() -> EmbedEndpoint {
        use llmops_index::embed::{Embedder, HashEmbedder, InputKind};
        use std::io::{BufRead, BufReader, Read, Write};
        use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
        use std::sync::Arc;
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/v1", l.local_addr().expect("addr"));
        let fail_next = Arc::new(AtomicU32::new(0));
        let broken = Arc::new(AtomicBool::new(false));
        let served = Arc::new(AtomicU32::new(0));
        let (f, b, n) = (fail_next.clone(), broken.clone(), served.clone());
        std::thread::spawn(move || {
            let emb = HashEmbedder { dim: 64 };
            for s in l.incoming() {
                let Ok(s) = s else { return };
                let Ok(rs) = s.try_clone() else { continue };
                let mut r = BufReader::new(rs);
                let mut len = 0usize;
                let mut ok = true;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        ok = false;
                        break;
                    }
                    let low = line.to_ascii_lowercase();
                    if let Some(v) = low.strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0u8; len];
                if !ok || r.read_exact(&mut body).is_err() {
                    continue;
                }
                let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                let inputs: Vec<String> = v["input"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|x| x.as_str().unwrap_or("").to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                let probe = inputs.len() == 1 && inputs[0] == "dimension probe";
                // Queries of a search are short: only passage batches are failed.
                let passage = inputs.iter().any(|t| t.len() > 60);
                let fail = !probe
                    && passage
                    && (b.load(Ordering::SeqCst)
                        || f.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |x| {
                            x.checked_sub(1)
                        })
                        .is_ok());
                let (status, out) = if fail {
                    (
                        "500 Internal Server Error",
                        r#"{"error":"overloaded"}"#.to_string(),
                    )
                } else {
                    let texts: Vec<&str> = inputs.iter().map(String::as_str).collect();
                    let vs = emb.embed(&texts, InputKind::Passage).unwrap_or_default();
                    let data: Vec<serde_json::Value> = vs
                        .into_iter()
                        .enumerate()
                        .map(|(i, e)| serde_json::json!({"index": i, "embedding": e}))
                        .collect();
                    n.fetch_add(1, Ordering::SeqCst);
                    ("200 OK", serde_json::json!({ "data": data }).to_string())
                };
                let mut w = s;
                let _ = write!(
                    w,
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{out}",
                    out.len()
                );
            }
        });
        EmbedEndpoint {
            url,
            fail_next,
            broken,
            served,
        }
    }

    /// Server flags using this endpoint as the embedder (a config file in `dir`).
    fn server_args(&self, dir: &Path) -> Vec<String> {
        let cfg = dir.join("server.toml");
        std::fs::write(
            &cfg,
            format!(
                "embedder = \"openai\"\nembedding_url = \"{}\"\nembedding_model = \"test-embed\"\n",
                self.url
            ),
        )
        .expect("config");
        vec!["--config".into(), cfg.to_string_lossy().into_owned()]
    }

    /// A server embedding through this endpoint and a connection that has seen it reach
    /// hybrid mode; also the config dir (keep it alive) and the flags (for a restart).
    fn hybrid_server(&self) -> (tempfile::TempDir, Vec<String>, ServerProc, ExtConn) {
        let cfgdir = tempfile::tempdir().expect("cfg");
        let args = self.server_args(cfgdir.path());
        let flags: Vec<&str> = args.iter().map(String::as_str).collect();
        let server = ServerProc::start_with(&flags).expect("server");
        let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
        c.wait_index(60, |s| s.mode.starts_with("hybrid"));
        (cfgdir, args, server, c)
    }
}

/// Reads UPLOAD_STATUS pushes for `file_id` (starting with `seen`) until `last` arrives.
fn states_until(
    c: &mut ExtConn,
    seen: Vec<Message>,
    file_id: &str,
    last: &str,
) -> Vec<protocol::UploadStatus> {
    let mut out = vec![];
    let mut seen = seen.into_iter();
    let deadline = Instant::now() + Duration::from_secs(120);
    while out
        .last()
        .map(|s: &protocol::UploadStatus| s.state.as_str())
        != Some(last)
    {
        assert!(Instant::now() < deadline, "{out:?}");
        let m = match seen.next() {
            Some(m) => m,
            None => c.recv().expect("status"),
        };
        if let Message::UploadStatus(s) = m {
            if s.file_id == file_id {
                out.push(s);
            }
        }
    }
    out
}

fn file_state(c: &mut ExtConn, file_id: &str) -> String {
    c.files()
        .expect("list")
        .iter()
        .find(|f| f.file_id == file_id)
        .map(|f| f.state.clone())
        .unwrap_or_default()
}

const NOTE: &str = "The quarterly capacity review covers the storage cluster, the replication lag \
of the standby databases and the retention of the audit archive.\n";

/// The full state machine through the real server with a real HTTP embedder: saved ->
/// indexed -> embedding n/m -> ready; two failing batches are retried automatically; an
/// endpoint that keeps failing ends in `failed` with the reason, and INDEX_RETRY (after the
/// endpoint recovers) brings the file to `ready`.
#[test]
fn index_states_pushed_and_failed_embedding_retried() {
    use std::sync::atomic::Ordering;
    let ep = EmbedEndpoint::start();
    let (_cfg, _, server, mut c) = ep.hybrid_server();

    // Two 500s, then vectors: retried with backoff, no user action.
    ep.fail_next.store(2, Ordering::SeqCst);
    let (f, seen) = upload_seen(&mut c, "review.txt", NOTE.as_bytes());
    let states = states_until(&mut c, seen, &f.file_id, "ready");
    let names: Vec<&str> = states.iter().map(|s| s.state.as_str()).collect();
    assert_eq!(names[..2], ["saved", "indexed"], "{names:?}");
    assert!(
        names[2..]
            .iter()
            .all(|s| *s == "embedding" || *s == "ready"),
        "{names:?}"
    );
    let retries = states
        .iter()
        .filter(|s| {
            s.detail
                .as_deref()
                .is_some_and(|d| d.contains("retry") && d.contains("500"))
        })
        .count();
    assert_eq!(retries, 2, "{states:?}");
    assert_eq!(file_state(&mut c, &f.file_id), "ready");

    // Down for good: retries run out, `failed` with the reason, still lexically searchable.
    ep.broken.store(true, Ordering::SeqCst);
    let body = format!("{NOTE}Second report: the tape library firmware needs an update.\n");
    let (g, seen) = upload_seen(&mut c, "tapes.txt", body.as_bytes());
    let states = states_until(&mut c, seen, &g.file_id, "failed");
    let why = states
        .last()
        .and_then(|s| s.detail.clone())
        .unwrap_or_default();
    assert!(why.contains("500"), "{why}");
    assert_eq!(file_state(&mut c, &g.file_id), "failed");
    let hits = search(&mut c, "tape library firmware", "uploads");
    assert_eq!(hits[0].filename, "tapes.txt", "{hits:?}");

    // A retry on request, once the endpoint is back.
    ep.broken.store(false, Ordering::SeqCst);
    let rid = c.next_id();
    c.send(&Message::IndexRetry(FileDelete {
        request_id: rid,
        file_id: g.file_id.clone(),
    }))
    .expect("send");
    let msgs = c
        .recv_until(|m| {
            matches!(m, Message::Ack(a) if a.request_id == rid) || matches!(m, Message::Error(_))
        })
        .expect("ack");
    assert!(matches!(msgs.last(), Some(Message::Ack(_))), "{msgs:?}");
    let states = states_until(&mut c, msgs, &g.file_id, "ready");
    assert!(states.iter().any(|s| s.state == "embedding"), "{states:?}");
    assert_eq!(file_state(&mut c, &g.file_id), "ready");
    // Retrying a file that has not failed is refused with a clear error.
    let rid = c.next_id();
    c.send(&Message::IndexRetry(FileDelete {
        request_id: rid,
        file_id: g.file_id.clone(),
    }))
    .expect("send");
    let msgs = c
        .recv_until(|m| matches!(m, Message::Error(_)))
        .expect("error");
    assert!(
        matches!(msgs.last(), Some(Message::Error(e)) if e.code == "not_failed"),
        "{msgs:?}"
    );
    // The CLI sends the same request: refused for a ready file, with the code in JSON.
    let addr = server.addr.to_string();
    let sid = c.session_id();
    let (code, out, err) = llmops_tests::run_tui(&[
        "reindex",
        "--server",
        &addr,
        "--session",
        &sid,
        "--json",
        &g.file_id,
    ])
    .expect("run");
    assert_eq!(code, 1, "{out} {err}");
    assert!(out.contains("not_failed"), "{out} {err}");
    assert!(ep.served.load(Ordering::SeqCst) > 0);
}

/// Deleting a session removes its uploads' chunks and vectors at once (no restart needed),
/// and they stay gone after a restart; another session's file is untouched.
#[test]
fn index_session_delete_drops_its_entries_at_once() {
    let ep = EmbedEndpoint::start();
    let (_cfg, args, server, mut a) = ep.hybrid_server();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let sa = a.session_id();
    let fa = upload(
        &mut a,
        "zebra.txt",
        b"The zebra migration report for the savanna cluster.\n",
    );
    let mut b = ExtConn::connect(server.addr, None, None).expect("connect");
    let sb = b.session_id();
    upload(
        &mut b,
        "okapi.txt",
        b"The okapi inventory of the forest cluster.\n",
    );
    a.wait_index(60, |s| s.embedding_backlog == 0);
    assert_eq!(
        search(&mut a, "zebra migration", "uploads")[0]
            .file_id
            .as_deref(),
        Some(fa.file_id.as_str())
    );
    let chunks_before = b.index_status().chunks;
    let tag = format!("u:{sa}");
    let vectors = server.data_path().join("index/vectors/vectors.log");
    let has_tag = |p: &Path, t: &str| {
        let bytes = std::fs::read(p).unwrap_or_default();
        bytes.windows(t.len()).any(|w| w == t.as_bytes())
    };
    assert!(has_tag(&vectors, &tag), "vectors of session A are stored");

    // B deletes A (a session cannot delete itself).
    let rid = b.next_id();
    b.send(&Message::SessionCmd(protocol::SessionCmd {
        request_id: rid,
        op: protocol::SessionOp::Delete { id: sa.clone() },
    }))
    .expect("send");
    b.recv_until(|m| matches!(m, Message::SessionReply(_)) || matches!(m, Message::Error(_)))
        .map(|m| assert!(matches!(m.last(), Some(Message::SessionReply(_))), "{m:?}"))
        .expect("reply");
    assert_eq!(
        b.index_status().chunks,
        chunks_before - 1,
        "chunks gone at once"
    );
    let mut a2 = ExtConn::connect(server.addr, None, None).expect("connect");
    assert!(search(&mut a2, "zebra migration", "all").is_empty());
    drop((a, a2, b));

    let (_, data) = server.terminate().expect("stop");
    let server = ServerProc::start_in(data, &args).expect("restart");
    // The vector log is compacted at start: no vector of A survives.
    let vectors = server.data_path().join("index/vectors/vectors.log");
    let mut b = ExtConn::connect(server.addr, Some(&sb), None).expect("resume");
    b.wait_index(60, |s| s.mode.starts_with("hybrid"));
    assert!(
        !has_tag(&vectors, &tag),
        "vectors of the deleted session were dropped"
    );
    assert!(search(&mut b, "zebra migration", "all").is_empty());
    assert_eq!(
        search(&mut b, "okapi inventory", "uploads")[0].filename,
        "okapi.txt"
    );
}

/// The default embedder (multilingual e5, in-process) through the real server: status names
/// it, a Chinese question finds an English file (by meaning alone, and through the glossary
/// over YAML keys), an English question finds a Chinese note. Skips without the model
/// outside CI (`make setup` installs it).
#[test]
fn index_cross_lingual_with_default_embedder() {
    let Some(dir) = llmops_tests::e5_model() else {
        return;
    };
    let server = ServerProc::start_with(&["--model-dir", &dir]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let s = c.wait_index(120, |s| s.mode.starts_with("hybrid"));
    assert!(s.mode.contains("multilingual-e5-small"), "{s:?}");
    for (name, body) in [
        ("bzip2.txt", "bzip2 compresses files using the Burrows-Wheeler block sorting text compression algorithm, and Huffman coding. Compression is generally considerably better than that achieved by more conventional LZ77/LZ78-based compressors.\n"),
        ("lscpu.txt", "lscpu gathers CPU architecture information from sysfs, /proc/cpuinfo and any applicable architecture-specific libraries: the number of CPUs, threads, cores, sockets, and caches.\n"),
        ("config.yaml", "server:\n  port: 80\ndatabase:\n  host: pg.internal\n  port: 5432\n"),
        ("运维笔记.md", "磁盘满了以后，先清理旧日志，再重启数据库服务。\n"),
    ] {
        upload(&mut c, name, body.as_bytes());
    }
    c.wait_index(300, |s| s.embedding_backlog == 0 && s.files >= 4);
    let first = |c: &mut ExtConn, q: &str| {
        let hits = search(c, q, "uploads");
        (hits.first().map(|h| h.filename.clone()), hits)
    };
    // Both retrievers agree: the model reads the Chinese, the glossary gives BM25 `compress`.
    let (f, hits) = first(&mut c, "用 bz2 格式压缩文件");
    assert_eq!(f.as_deref(), Some("bzip2.txt"), "{hits:?}");
    assert_eq!(hits[0].match_type, "hybrid", "{hits:?}");
    let (f, hits) = first(&mut c, "显示 CPU 架构信息");
    assert_eq!(f.as_deref(), Some("lscpu.txt"), "{hits:?}");
    let (f, hits) = first(&mut c, "数据库端口是多少");
    assert_eq!(f.as_deref(), Some("config.yaml"), "{hits:?}");
    assert!(hits[0].chunk.contains("5432"), "{hits:?}");
    // English about Chinese.
    let (f, hits) = first(&mut c, "clean up old logs, then restart the database");
    assert_eq!(f.as_deref(), Some("运维笔记.md"), "{hits:?}");
}
