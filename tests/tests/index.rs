//! End-to-end tests of the document index through the real server binary: upload, search
//! (uploads/system/all), delete, restart, kill -9 during an upload, dense search with the
//! local model, and Chroma as the vector store.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use llmops_tests::{ExtConn, ServerProc};
use protocol::{FileDelete, Message, Raw, Req, SearchReq, UploadStart};

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

fn status(c: &mut ExtConn) -> protocol::IndexProgress {
    let rid = c.next_id();
    c.send(&Message::StatusRequest(Req { request_id: rid }))
        .expect("send");
    let msgs = c
        .recv_until(|m| matches!(m, Message::ServerStatus(s) if s.request_id == rid))
        .expect("status");
    match msgs.last() {
        Some(Message::ServerStatus(s)) => s.index.clone(),
        other => panic!("{other:?}"),
    }
}

/// Polls status until `pred` holds (background indexing), failing after `secs`.
fn wait_status(
    c: &mut ExtConn,
    secs: u64,
    pred: impl Fn(&protocol::IndexProgress) -> bool,
) -> protocol::IndexProgress {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let s = status(c);
        if pred(&s) {
            return s;
        }
        assert!(
            Instant::now() < deadline,
            "index never reached the state: {s:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
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
    let st = wait_status(&mut c, 60, |s| s.files >= 4);
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

    // Docs folders are re-scanned on request (status): a new doc appears, a removed one goes.
    std::fs::write(
        docs.path().join("firewall.md"),
        "nftables firewall rules for the bastion host\n",
    )
    .expect("write");
    std::fs::remove_file(docs.path().join("backup-guide.md")).expect("rm");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        status(&mut c);
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
    let files_before = status(&mut c).files;
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
    assert_eq!(status(&mut c).files, files_before - 1);
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
    let rid = c.next_id();
    c.send(&Message::FileList(Req { request_id: rid }))
        .expect("send");
    let msgs = c
        .recv_until(|m| matches!(m, Message::FileListReply(_)))
        .expect("list");
    let Some(Message::FileListReply(l)) = msgs.last() else {
        panic!()
    };
    assert!(l.files.is_empty(), "{:?}", l.files);
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

/// The model from `make setup`; None (with a printed reason) only outside CI.
fn model_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../storage/models/all-MiniLM-L6-v2");
    if dir.join("model.safetensors").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").is_err(),
        "CI must run `make setup` first: {} missing",
        dir.display()
    );
    eprintln!("SKIP: {} missing; run `make setup`", dir.display());
    None
}

/// Uploads, follows the pushed states to `ready`, then searches by meaning.
fn dense_scenario(extra: &[&str]) {
    let Some(model) = model_dir() else { return };
    let model = model.to_string_lossy().into_owned();
    let mut args = vec!["--model-dir", model.as_str()];
    args.extend_from_slice(extra);
    let server = ServerProc::start_with(&args).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    wait_status(&mut c, 120, |s| s.mode.starts_with("hybrid"));
    let guide = "How to restart the web server after changing its configuration: run systemctl reload nginx.\n";
    let (_, mut seen) = upload_seen(
        &mut c,
        "fruit.txt",
        b"Apples and pears grow in the orchard behind the farm.\n",
    );
    let (f, more) = upload_seen(&mut c, "ops-notes.txt", guide.as_bytes());
    seen.extend(more);
    // Pushed states: embedding n/m, then ready (pushed even if the upload result already
    // said `ready`: the uploader is registered before indexing starts).
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
    assert_eq!(
        states.first().map(String::as_str),
        Some("embedding"),
        "{states:?}"
    );
    wait_status(&mut c, 120, |s| s.embedding_backlog == 0);
    // No shared words with the text: only the dense side can find it.
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
        let rid = c.next_id();
        c.send(&Message::FileList(Req { request_id: rid }))
            .expect("send");
        let msgs = c
            .recv_until(|m| matches!(m, Message::FileListReply(_)))
            .expect("list");
        let Some(Message::FileListReply(l)) = msgs.last() else {
            panic!()
        };
        if l.files.iter().all(|f| f.state == "ready") {
            break;
        }
        assert!(Instant::now() < deadline, "{:?}", l.files);
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn index_dense_with_local_model() {
    dense_scenario(&[]);
}

#[test]
fn index_dense_with_chroma() {
    if model_dir().is_none() {
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
    dense_scenario(&["--vector-store", "chroma", "--chroma-url", &url]);
}
