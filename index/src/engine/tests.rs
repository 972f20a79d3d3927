//! Engine tests with the toy hash embedder and the in-process store (no model needed).

use super::*;
use crate::embed::{HashEmbedder, InputKind};
use crate::vectors::InProcessStore;

fn dense(dir: &Path, dim: usize) -> Option<(Arc<dyn Embedder>, Arc<dyn VectorStore>)> {
    let store = InProcessStore::open(&dir.join("vectors"), dim).expect("store");
    Some((Arc::new(HashEmbedder { dim }), Arc::new(store)))
}

fn events(e: &Engine) -> Arc<Mutex<Vec<Progress>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l = log.clone();
    e.set_listener(Arc::new(move |p: &Progress| {
        if let Ok(mut g) = l.lock() {
            g.push(p.clone());
        }
    }));
    log
}

const CONFIG: &str = "server:\n  port: 80\ndatabase:\n  host: db.internal\n  port: 5432\n";
const LOG: &str = "INFO started\nERROR disk full on /var/lib/postgres\nWARN retrying\n";

#[test]
fn index_engine_upload_search_delete_and_scope() {
    let d = tempfile::tempdir().expect("tmp");
    let e = Engine::open(
        EngineConfig::new(d.path().join("index")),
        dense(d.path(), 64),
        None,
    )
    .expect("open");
    let ev = events(&e);
    assert_eq!(
        e.index_upload(
            "s1",
            "f1",
            "config.yaml",
            "/u/f1/config.yaml",
            "sha1",
            CONFIG
        )
        .expect("idx"),
        None
    );
    e.index_upload("s1", "f2", "app.log", "/u/f2/app.log", "sha2", LOG)
        .expect("idx");
    e.index_upload("s2", "f3", "theirs.log", "/u/f3/theirs.log", "sha3", LOG)
        .expect("idx");
    // Searchable at once, before embedding finishes.
    let hits = e
        .search("s1", "disk full", Scope::Uploads, 3, Mode::Lexical)
        .expect("search");
    assert_eq!(hits[0].filename, "app.log");
    assert_eq!(hits[0].position, "lines 2-3");
    assert!(
        hits[0].chunk.starts_with("ERROR disk full"),
        "{:?}",
        hits[0].chunk
    );
    assert!(hits.iter().all(|h| h.filename != "theirs.log"));
    assert!(e.wait_idle(Duration::from_secs(30)));
    let hits = e
        .search("s1", "config.yaml", Scope::All, 3, Mode::Hybrid)
        .expect("search");
    assert_eq!(hits[0].filename, "config.yaml");
    assert_eq!(hits[0].match_type, "filename");
    assert_eq!(hits[0].similarity, 1.0);
    assert_eq!(hits[0].file_id.as_deref(), Some("f1"));
    let hits = e
        .search("s1", "database port", Scope::All, 3, Mode::Hybrid)
        .expect("search");
    assert_eq!(hits[0].filename, "config.yaml");
    assert_eq!(hits[0].match_type, "hybrid");
    for w in hits.windows(2) {
        assert!(w[0].similarity >= w[1].similarity);
    }
    assert!(e
        .search("s1", "database port", Scope::System, 3, Mode::Hybrid)
        .expect("s")
        .is_empty());
    assert!(e
        .search("s1", "zzzz qqqq", Scope::All, 3, Mode::Hybrid)
        .expect("s")
        .is_empty());
    // Same content again in the session: not indexed twice.
    assert_eq!(
        e.index_upload("s1", "f9", "copy.yaml", "/u/f9/copy.yaml", "sha1", CONFIG)
            .expect("dup"),
        Some("f1".into())
    );
    let st = e.stats();
    assert_eq!(st.files, 3);
    assert_eq!(st.embedding_backlog, 0);
    assert!(st.mode.starts_with("hybrid"), "{}", st.mode);
    // Delete removes the chunks and vectors.
    assert!(e.remove_upload("s1", "sha2").expect("rm"));
    assert!(e
        .search("s1", "disk full", Scope::Uploads, 3, Mode::Hybrid)
        .expect("s")
        .is_empty());
    assert!(e
        .search("s1", "disk full", Scope::Uploads, 3, Mode::Dense)
        .expect("s")
        .is_empty());
    let states: Vec<(String, State)> = ev
        .lock()
        .expect("events")
        .iter()
        .filter(|p| p.file_id.as_deref() == Some("f1"))
        .map(|p| (p.filename.clone(), p.state))
        .collect();
    assert_eq!(states.first().map(|s| s.1), Some(State::Indexed));
    assert!(states.iter().any(|s| s.1 == State::Embedding));
    assert_eq!(states.last().map(|s| s.1), Some(State::Ready));
}

#[test]
fn index_engine_persists_and_reembeds_on_new_fingerprint() {
    let d = tempfile::tempdir().expect("tmp");
    let cfg = EngineConfig::new(d.path().join("index"));
    {
        let e = Engine::open(cfg.clone(), dense(d.path(), 64), None).expect("open");
        e.index_upload("s1", "f1", "config.yaml", "/p", "sha1", CONFIG)
            .expect("idx");
        assert!(e.wait_idle(Duration::from_secs(30)));
        assert_eq!(
            e.state_of(&Engine::upload_key("s1", "sha1")).map(|s| s.0),
            Some(State::Ready)
        );
    }
    {
        let e = Engine::open(cfg.clone(), dense(d.path(), 64), None).expect("reopen");
        assert_eq!(e.stats().files, 1);
        let hits = e
            .search("s1", "database host", Scope::Uploads, 3, Mode::Dense)
            .expect("s");
        assert_eq!(hits.len(), 1, "vectors persisted");
        // Dense mode weighs no words, so it claims no answer line; lexical mode does.
        assert_eq!(hits[0].answer, None);
        let lex = e
            .search("s1", "database host", Scope::Uploads, 3, Mode::Lexical)
            .expect("s");
        assert!(lex[0].answer.is_some(), "{:?}", lex[0]);
        assert_eq!(
            e.state_of(&Engine::upload_key("s1", "sha1")).map(|s| s.0),
            Some(State::Ready)
        );
    }
    // Another embedder (dimension 32): visible re-embedding, then ready again.
    let e = Engine::open(cfg.clone(), dense(&d.path().join("v32"), 32), None).expect("reopen 32");
    assert!(e.wait_idle(Duration::from_secs(30)));
    assert_eq!(
        e.state_of(&Engine::upload_key("s1", "sha1")).map(|s| s.0),
        Some(State::Ready)
    );
    assert_eq!(
        e.search("s1", "database host", Scope::Uploads, 3, Mode::Dense)
            .expect("s")
            .len(),
        1
    );
    drop(e);
    // No embedder: lexical-only, and it says why.
    let e = Engine::open(cfg, None, Some("model not found".into())).expect("lexical");
    assert_eq!(e.stats().mode, "lexical-only: model not found");
    assert_eq!(
        e.search("s1", "database", Scope::Uploads, 3, Mode::Hybrid)
            .expect("s")
            .len(),
        1
    );
}

#[test]
fn index_engine_system_docs_sync_is_incremental() {
    let d = tempfile::tempdir().expect("tmp");
    let docs = d.path().join("docs");
    std::fs::create_dir_all(&docs).expect("mkdir");
    std::fs::write(docs.join("a.md"), "# 日志\n日志轮转配置说明 logrotate\n").expect("w");
    std::fs::write(docs.join("b.md"), "nginx reverse proxy\n").expect("w");
    let scan = || -> Vec<SysFile> {
        let mut v: Vec<SysFile> = std::fs::read_dir(&docs)
            .expect("ls")
            .flatten()
            .map(|f| SysFile {
                path: f.path(),
                filename: f.file_name().to_string_lossy().into_owned(),
                mtime: mtime_secs(&f.path()),
                size: f.metadata().map(|m| m.len()).unwrap_or(0),
                content: None,
            })
            .collect();
        v.sort_by(|a, b| a.path.cmp(&b.path));
        v
    };
    let e = Engine::open(
        EngineConfig::new(d.path().join("index")),
        None,
        Some("off".into()),
    )
    .expect("open");
    let r = e.sync_system(&scan()).expect("sync");
    assert_eq!((r.indexed, r.unchanged, r.removed), (2, 0, 0));
    let r = e.sync_system(&scan()).expect("sync");
    assert_eq!((r.indexed, r.unchanged, r.removed), (0, 2, 0));
    let hits = e
        .search("s", "日志轮转", Scope::System, 3, Mode::Hybrid)
        .expect("s");
    assert_eq!(hits[0].filename, "a.md");
    assert!(e
        .search("s", "日志轮转", Scope::Uploads, 3, Mode::Hybrid)
        .expect("s")
        .is_empty());
    std::fs::write(
        docs.join("b.md"),
        "nginx reverse proxy and load balancing, longer now\n",
    )
    .expect("w");
    std::fs::remove_file(docs.join("a.md")).expect("rm");
    let r = e.sync_system(&scan()).expect("sync");
    assert_eq!((r.indexed, r.unchanged, r.removed), (1, 0, 1));
    assert!(e
        .search("s", "日志轮转", Scope::System, 3, Mode::Hybrid)
        .expect("s")
        .is_empty());
    assert_eq!(
        e.search("s", "load balancing", Scope::All, 3, Mode::Hybrid)
            .expect("s")[0]
            .filename,
        "b.md"
    );
}

#[test]
fn index_engine_chinese_queries_not_dragged_by_dense() {
    let d = tempfile::tempdir().expect("tmp");
    let e = Engine::open(
        EngineConfig::new(d.path().join("index")),
        dense(d.path(), 64),
        None,
    )
    .expect("open");
    e.index_upload(
        "s",
        "f1",
        "a.md",
        "/a",
        "h1",
        "数据库连接池配置：最大连接数 100\n",
    )
    .expect("i");
    e.index_upload("s", "f2", "b.md", "/b", "h2", "网络防火墙规则\n")
        .expect("i");
    assert!(e.wait_idle(Duration::from_secs(30)));
    let hits = e
        .search("s", "数据库连接", Scope::All, 3, Mode::Hybrid)
        .expect("s");
    assert_eq!(hits[0].filename, "a.md");
    assert!(hits[0].similarity >= 0.3);
}

/// An embedder that fails every passage batch until told otherwise, or the next few.
struct Flaky {
    fail: AtomicBool,
    fail_next: std::sync::atomic::AtomicU32,
}

impl Embedder for Flaky {
    fn fingerprint(&self) -> String {
        "flaky/8".into()
    }
    fn dim(&self) -> usize {
        8
    }
    fn embed(&self, texts: &[&str], _k: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        let once = self
            .fail_next
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if once || self.fail.load(Ordering::SeqCst) {
            return Err(IndexError::Embed("endpoint returned HTTP 503".into()));
        }
        HashEmbedder { dim: 8 }.embed(texts, InputKind::Passage)
    }
}

/// An engine in `dir` embedding through `flaky` (1 ms backoff), with LOG uploaded and
/// processed: the engine, its progress events and the upload's key.
fn upload_through(
    dir: &std::path::Path,
    flaky: Arc<Flaky>,
) -> (Arc<Engine>, Arc<Mutex<Vec<Progress>>>, String) {
    let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(8));
    let mut cfg = EngineConfig::new(dir.join("index"));
    cfg.embed_backoff = Duration::from_millis(1);
    let e = Engine::open(cfg, Some((flaky as Arc<dyn Embedder>, store)), None).expect("open");
    let ev = events(&e);
    e.index_upload("s", "f1", "app.log", "/p", "h1", LOG)
        .expect("idx");
    assert!(e.wait_idle(Duration::from_secs(30)));
    (e, ev, Engine::upload_key("s", "h1"))
}

#[test]
fn index_engine_embedding_failure_is_reported_and_retried() {
    let d = tempfile::tempdir().expect("tmp");
    let flaky = Arc::new(Flaky {
        fail: AtomicBool::new(true),
        fail_next: Default::default(),
    });
    let (e, ev, key) = upload_through(d.path(), flaky.clone());
    let (st, why) = e.state_of(&key).expect("state");
    assert_eq!(st, State::Failed);
    assert!(why.unwrap_or_default().contains("503"));
    let last = ev.lock().expect("ev").last().cloned().expect("event");
    assert_eq!(last.state, State::Failed);
    assert!(last.detail.unwrap_or_default().contains("503"));
    // Lexical search is unaffected.
    assert_eq!(
        e.search("s", "disk full", Scope::Uploads, 3, Mode::Hybrid)
            .expect("s")
            .len(),
        1
    );
    flaky.fail.store(false, Ordering::SeqCst);
    assert!(e.retry(&key));
    assert!(e.wait_idle(Duration::from_secs(30)));
    assert_eq!(e.state_of(&key).map(|s| s.0), Some(State::Ready));
}

/// Two failing batches are retried automatically (visible as `embedding` states with the
/// reason), and the file ends `ready` without anyone asking.
#[test]
fn index_engine_embedding_batches_retry_with_backoff() {
    let d = tempfile::tempdir().expect("tmp");
    let flaky = Arc::new(Flaky {
        fail: AtomicBool::new(false),
        fail_next: std::sync::atomic::AtomicU32::new(2),
    });
    let (e, ev, key) = upload_through(d.path(), flaky.clone());
    assert_eq!(e.state_of(&key).map(|s| s.0), Some(State::Ready));
    let ev = ev.lock().expect("ev").clone();
    let retries: Vec<&Progress> = ev
        .iter()
        .filter(|p| {
            p.state == State::Embedding && p.detail.as_deref().is_some_and(|d| d.contains("retry"))
        })
        .collect();
    assert_eq!(retries.len(), 2, "{ev:?}");
    assert!(retries[0].detail.as_deref().unwrap_or("").contains("503"));
    assert!(ev.iter().all(|p| p.state != State::Failed), "{ev:?}");
    assert_eq!(ev.last().map(|p| p.state), Some(State::Ready));
}

/// Indexes `files` (name, text) as uploads `f0`, `f1`... of session `s1`.
pub(super) fn upload_all(e: &Engine, files: &[(&str, &str)]) {
    for (i, (name, text)) in files.iter().enumerate() {
        let sha = format!("sha{i}");
        e.index_upload("s1", &format!("f{i}"), name, name, &sha, *text)
            .expect("index");
    }
}

/// Chinese questions over English files, lexical only (no embedder): the glossary's
/// translation finds the YAML key and the nginx directives, above the threshold, with the
/// snippet on the matching lines; English questions find Chinese notes the same way.
#[test]
fn index_engine_glossary_translates_queries_both_ways() {
    let d = tempfile::tempdir().expect("tmp");
    let e = Engine::open(EngineConfig::new(d.path().join("index")), None, None).expect("open");
    let nginx = "http {\n    sendfile on;\n    keepalive_timeout 65;\n    server {\n        listen 80;\n        location / {\n            proxy_pass http://app:8080;\n            proxy_read_timeout 90s;\n        }\n    }\n}\n";
    let notes = "运维笔记\n磁盘空间不足时先清理日志目录，再检查数据库备份。\n";
    let unrelated = "Release notes: the theme of the web page is now blue.\n";
    upload_all(
        &e,
        &[
            ("config.yaml", CONFIG),
            ("nginx.conf", nginx),
            ("笔记.md", notes),
            ("notes.txt", unrelated),
        ],
    );
    let top = |q: &str| -> Vec<Hit> {
        e.search("s1", q, Scope::Uploads, 3, Mode::Hybrid)
            .expect("search")
    };
    let hits = top("数据库端口是多少");
    assert_eq!(
        hits.first().map(|h| h.filename.as_str()),
        Some("config.yaml"),
        "{hits:?}"
    );
    assert!(hits[0].chunk.contains("5432"), "{hits:?}");
    let hits = top("nginx 超时设置");
    assert_eq!(
        hits.first().map(|h| h.filename.as_str()),
        Some("nginx.conf"),
        "{hits:?}"
    );
    assert!(hits[0].chunk.contains("timeout"), "{hits:?}");
    let hits = top("disk space database backup");
    assert_eq!(
        hits.first().map(|h| h.filename.as_str()),
        Some("笔记.md"),
        "{hits:?}"
    );
    // Inflected English words reach the glossary's base forms (`backups` 备份).
    let hits = top("backups");
    assert_eq!(
        hits.first().map(|h| h.filename.as_str()),
        Some("笔记.md"),
        "{hits:?}"
    );
    // A question the glossary cannot translate finds nothing across languages.
    assert!(top("天气很好").is_empty());
}

#[test]
fn index_engine_gives_older_files_their_key_paths_and_title() {
    use sha2::Digest;
    let d = tempfile::tempdir().expect("tmp");
    let cfg = EngineConfig::new(d.path().join("index"));
    let sha = |t: &str| hex::encode(sha2::Sha256::digest(t.as_bytes()));
    let yml = "spring:\n  redis:\n    timeout: 2s\n";
    let other = "a:\n  b: 1\n";
    // A flat config nests no keys; its title is what it gets.
    let flat = "# gunicorn for the invoice API\nworkers = 6\n";
    let (p1, p2) = (d.path().join("application.yml"), d.path().join("other.yml"));
    let p3 = d.path().join("gunicorn.conf.py");
    std::fs::write(&p1, yml).expect("write");
    std::fs::write(&p2, other).expect("write");
    std::fs::write(&p3, flat).expect("write");
    let (k1, k2, k3) = (
        Engine::upload_key("s1", &sha(yml)),
        Engine::upload_key("s1", &sha(other)),
        Engine::upload_key("s1", &sha(flat)),
    );
    let contexts = |e: &Engine, k: &str| -> Vec<String> {
        let chunks = e.lexical.chunks_of(k).expect("chunks");
        chunks.into_iter().map(|c| c.context).collect()
    };
    let has_paths = |e: &Engine, k: &str| {
        e.lexical
            .chunks_of(k)
            .expect("chunks")
            .iter()
            .any(|c| !c.context.is_empty())
    };
    {
        let e = Engine::open(cfg.clone(), None, None).expect("open");
        for (id, name, p, t) in [
            ("f1", "application.yml", &p1, yml),
            ("f2", "other.yml", &p2, other),
            ("f3", "gunicorn.conf.py", &p3, flat),
        ] {
            e.index_upload("s1", id, name, &p.display().to_string(), &sha(t), t)
                .expect("idx");
        }
        assert!(has_paths(&e, &k1) && has_paths(&e, &k2));
        assert_eq!(contexts(&e, &k3), ["# gunicorn for the invoice api"]);
        // As an index from before key paths: chunks without them, entries at analysis 0.
        for k in [&k1, &k2, &k3] {
            let mut docs = e.lexical.chunks_of(k).expect("chunks");
            for c in &mut docs {
                c.context.clear();
            }
            e.lexical.replace(k, docs).expect("replace");
            e.write_catalog()
                .expect("catalog")
                .get_mut(k.as_str())
                .expect("entry")
                .analysis = 0;
        }
        e.save().expect("save");
        assert!(!has_paths(&e, &k1));
    }
    // One file changed on disk since it was indexed: not this backfill's to redo.
    std::fs::write(&p2, "a:\n  b: 2\n").expect("write");
    let e = Engine::open(cfg, None, None).expect("reopen");
    assert!(has_paths(&e, &k1), "the unchanged file has its paths again");
    assert!(!has_paths(&e, &k2), "the changed file is left alone");
    assert_eq!(contexts(&e, &k3), ["# gunicorn for the invoice api"]);
    assert!(e
        .read_catalog()
        .expect("catalog")
        .values()
        .all(|x| x.analysis == super::backfill::ANALYSIS));
    let hits = e
        .search(
            "s1",
            "spring.redis.timeout",
            Scope::Uploads,
            1,
            Mode::Lexical,
        )
        .expect("search");
    assert_eq!(
        hits.iter().map(|h| h.filename.as_str()).collect::<Vec<_>>(),
        ["application.yml"]
    );
    assert_eq!(e.stats().chunks, 3, "chunks kept, not added");
}
