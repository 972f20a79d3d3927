//! Glue between the server and the `llmops-index` engine: opening it from the config,
//! loading the embedder in the background, indexing uploads and system docs (the shipped
//! manual plus `--docs` folders, through the path policy), pushing per-file index states to
//! clients and into the uploads table, and the `SearchBackend` the semantic_search tool uses.
//! Every engine call runs on a blocking thread.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use llmops_index::embed::{CachedPassages, Embedder, HttpEmbedder, HttpEmbedderConfig, E5};
use llmops_index::vectors::{ChromaStore, InProcessStore, VectorStore};
use llmops_index::{Engine, EngineConfig, Mode, Progress, Scope, State, SysFile};
use protocol::{Message, UploadStatus};
use tokio::sync::mpsc;

use crate::config::Config;
use crate::store::{Store, UploadRow, UploadState};
use llmops_policy::PathPolicy;
use llmops_tools::{SearchBackend, SearchHit, SearchScope};

/// The product manual, shipped inside the binary so an installed server has it too.
const BUILTIN_DOCS: &[(&str, &str)] = &[(
    "llmops-manual.md",
    include_str!("../../assets/docs/llmops-manual.md"),
)];

/// Where the built-in documents are written at start, so a search hit on them is a real
/// file the tools can read and offer (`{data_dir}/docs`).
pub fn builtin_docs_dir(cfg: &Config) -> PathBuf {
    cfg.data_dir.join("docs")
}

/// Writes the built-in documents into `dir` (atomically, only when they differ).
pub fn materialize_builtin_docs(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in BUILTIN_DOCS {
        let path = dir.join(name);
        if std::fs::read(&path).is_ok_and(|b| b == text.as_bytes()) {
            continue;
        }
        let tmp = dir.join(format!(".{name}.tmp"));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &path)?;
    }
    Ok(())
}

/// Largest system document indexed (bigger files are logs or data, not docs).
const MAX_DOC_BYTES: u64 = 4 * 1024 * 1024;
const MAX_DOC_FILES: usize = 20_000;

/// The index as the server sees it.
pub struct IndexHandle {
    pub engine: Arc<Engine>,
    store: Store,
    doc_dirs: Vec<PathBuf>,
    paths: Arc<PathPolicy>,
    /// Where the built-in documents live on disk (see [`materialize_builtin_docs`]).
    builtin_dir: PathBuf,
    exclude: PathBuf,
    /// Where to push state changes of an upload: its uploader's connection.
    watchers: Mutex<HashMap<String, mpsc::Sender<Message>>>,
    /// A doc scan is running (at most one at a time).
    scanning: AtomicBool,
    /// The start-up thread has attached the embedder or turned dense search off for good;
    /// before that, an `indexed` upload may still be embedded once the model loads.
    dense_settled: AtomicBool,
}

impl IndexHandle {
    /// Opens the lexical index (fast; dense search is attached later by `start_background`).
    pub fn open(
        cfg: &Config,
        store: Store,
        doc_dirs: Vec<PathBuf>,
        paths: Arc<PathPolicy>,
    ) -> Result<Arc<IndexHandle>, llmops_index::IndexError> {
        let mut ecfg = EngineConfig::new(cfg.index_dir());
        ecfg.threshold = cfg.index.threshold;
        ecfg.per_file = cfg.index.per_file;
        let engine = Engine::open(ecfg, None, Some("loading the embedding model".into()))?;
        let h = Arc::new(IndexHandle {
            engine,
            store,
            doc_dirs,
            paths,
            builtin_dir: llmops_policy::path::resolve(&builtin_docs_dir(cfg))
                .unwrap_or_else(|_| builtin_docs_dir(cfg)),
            exclude: llmops_policy::path::resolve(&cfg.uploads_dir())
                .unwrap_or_else(|_| cfg.uploads_dir()),
            watchers: Mutex::new(HashMap::new()),
            scanning: AtomicBool::new(false),
            dense_settled: AtomicBool::new(false),
        });
        let weak = Arc::downgrade(&h);
        h.engine.set_listener(Arc::new(move |p: &Progress| {
            if let Some(h) = weak.upgrade() {
                h.on_progress(p);
            }
        }));
        Ok(h)
    }

    /// Records a state change in the uploads table and pushes it to the uploader.
    fn on_progress(&self, p: &Progress) {
        let Some(file_id) = &p.file_id else { return };
        // Every upload row with this content in the session shares the state.
        let ids: Vec<String> = match (
            &p.session,
            self.store.list_uploads(p.session.as_deref().unwrap_or("")),
        ) {
            (Some(_), Ok(rows)) => {
                let sha = p.key.rsplit(':').next().unwrap_or("");
                rows.into_iter()
                    .filter(|r| r.sha256 == sha)
                    .map(|r| r.file_id)
                    .collect()
            }
            _ => vec![file_id.clone()],
        };
        let detail = match p.state {
            State::Failed => p.detail.clone(),
            State::Embedding => Some(format!("{}/{}", p.done, p.total)),
            _ => None,
        };
        // The table holds coarse states; `embedding` progress only travels to the client.
        if p.state != State::Embedding || p.done == 0 {
            for id in &ids {
                if let Err(e) = self
                    .store
                    .set_upload_state(id, p.state.into(), detail.as_deref())
                {
                    tracing::warn!("cannot record index state of {id}: {e}");
                }
            }
        }
        let Ok(mut w) = self.watchers.lock() else {
            return;
        };
        for id in &ids {
            if let Some(tx) = w.get(id) {
                let msg = Message::UploadStatus(UploadStatus {
                    file_id: id.clone(),
                    filename: p.filename.clone(),
                    state: p.state.as_str().into(),
                    detail: p.detail.clone(),
                    done: p.done,
                    total: p.total,
                });
                // Never block the embedding thread on a slow client; a full queue drops a
                // progress step, the final state is in the table either way.
                if let Err(mpsc::error::TrySendError::Closed(_)) = tx.try_send(msg) {
                    w.remove(id);
                }
            }
        }
        if matches!(p.state, State::Ready | State::Failed) {
            for id in &ids {
                w.remove(id);
            }
        }
    }

    /// Indexes a saved upload (blocking). Returns the state to record.
    pub fn index_upload(
        &self,
        row: &UploadRow,
        push: Option<mpsc::Sender<Message>>,
    ) -> (UploadState, Option<String>) {
        // Every state is pushed, in order, through the uploader's connection: `saved` now,
        // `indexed` by the engine's listener before embedding is queued (so it always
        // precedes `embedding`), then embedding n/m and ready or failed.
        if let Some(tx) = &push {
            let _ = tx.try_send(state_msg(row, UploadState::Saved, None));
        }
        self.watch(&row.file_id, push.clone());
        let (state, detail) = self.index_text(row);
        // No engine event for these two: lexical indexing failed, or the content was
        // already indexed in this session (its state is shared).
        let dup = detail
            .as_deref()
            .is_some_and(|d| d.starts_with("same content"));
        if let (Some(tx), true) = (&push, state == UploadState::Failed || dup) {
            let _ = tx.try_send(state_msg(row, state, detail.clone()));
        }
        if let Err(e) = self
            .store
            .set_upload_state(&row.file_id, state, detail.as_deref())
        {
            tracing::warn!("cannot record the state of {}: {e}", row.file_id);
        }
        // The embedding thread may have finished (and recorded `ready`) before the write
        // above: re-read the engine's state so the table never goes backwards.
        let key = Engine::upload_key(&row.session_id, &row.sha256);
        let (state, detail) = match self.engine.state_of(&key) {
            Some((st @ (State::Ready | State::Failed), d)) if state == UploadState::Indexed => {
                let res = self
                    .store
                    .set_upload_state(&row.file_id, st.into(), d.as_deref());
                crate::store::log_unsaved(res, &row.file_id, "upload index state");
                (st.into(), d)
            }
            _ => (state, detail),
        };
        // No later state will come (no embedder for good, or the last one was just
        // recorded): the uploader's sender would otherwise keep its connection's queue
        // allocated for good. While the model loads, embedding states may still follow.
        let no_embedder = self.dense_settled.load(Ordering::Acquire) && !self.engine.has_dense();
        if dup || state != UploadState::Indexed || no_embedder {
            self.unwatch(&row.file_id);
        }
        (state, detail)
    }

    /// Pushes this upload's later states to `push`. Senders of closed connections are
    /// dropped here, so the table holds only live uploaders.
    fn watch(&self, file_id: &str, push: Option<mpsc::Sender<Message>>) {
        let (Some(tx), Ok(mut w)) = (push, self.watchers.lock()) else {
            return;
        };
        w.retain(|_, t| !t.is_closed());
        w.insert(file_id.to_string(), tx);
    }

    fn unwatch(&self, file_id: &str) {
        if let Ok(mut w) = self.watchers.lock() {
            w.remove(file_id);
        }
    }

    /// Uploads whose states are still pushed (tests).
    #[cfg(test)]
    fn watched(&self) -> usize {
        self.watchers.lock().map(|w| w.len()).unwrap_or(0)
    }

    /// Retries a `failed` upload (blocking): re-queues its embedding, or indexes it again
    /// when even the lexical indexing failed. Later states are pushed to `push`. Returns
    /// the state recorded now.
    pub fn retry_upload(
        &self,
        row: &UploadRow,
        push: Option<mpsc::Sender<Message>>,
    ) -> (UploadState, Option<String>) {
        let key = Engine::upload_key(&row.session_id, &row.sha256);
        match self.engine.state_of(&key) {
            Some((State::Failed, _)) => {
                self.watch(&row.file_id, push);
                self.engine.retry(&key);
                // Lexically searchable all along; embedding n/m and ready follow.
                let (st, d) = self
                    .engine
                    .state_of(&key)
                    .map(|(s, d)| (UploadState::from(s), d))
                    .unwrap_or((UploadState::Indexed, None));
                let res = self.store.set_upload_state(&row.file_id, st, d.as_deref());
                crate::store::log_unsaved(res, &row.file_id, "upload index state (retry)");
                (st, d)
            }
            Some((st, d)) => (st.into(), d),
            None => self.index_upload(row, push),
        }
    }

    fn index_text(&self, row: &UploadRow) -> (UploadState, Option<String>) {
        let text = match std::fs::read(&row.path) {
            Ok(b) => decode_text(b),
            Err(e) => {
                return (
                    UploadState::Failed,
                    Some(format!("cannot read the file: {e}")),
                )
            }
        };
        match self.engine.index_upload(
            &row.session_id,
            &row.file_id,
            &row.filename,
            &row.path,
            &row.sha256,
            text,
        ) {
            // Searchable now; embedding (if on) follows in the background.
            Ok(None) => (UploadState::Indexed, None),
            Ok(Some(first)) => {
                let key = Engine::upload_key(&row.session_id, &row.sha256);
                let (st, d) = self.engine.state_of(&key).unwrap_or((State::Indexed, None));
                (
                    st.into(),
                    d.or(Some(format!("same content as {first}, indexed once"))),
                )
            }
            Err(e) => (UploadState::Failed, Some(e.to_string())),
        }
    }

    /// Removes an upload's index entries unless another upload of the session has the same
    /// content, in which case the entry is pointed at that one.
    pub fn remove_upload(&self, row: &UploadRow) -> Result<(), String> {
        self.unwatch(&row.file_id);
        let others: Vec<UploadRow> = self
            .store
            .list_uploads(&row.session_id)
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|r| r.sha256 == row.sha256 && r.file_id != row.file_id)
            .collect();
        match others.first() {
            Some(o) => self
                .engine
                .repoint_upload(
                    &row.session_id,
                    &row.sha256,
                    &o.file_id,
                    &o.filename,
                    &o.path,
                )
                .map(|_| ())
                .map_err(|e| e.to_string()),
            None => self
                .engine
                .remove_upload(&row.session_id, &row.sha256)
                .map(|_| ())
                .map_err(|e| e.to_string()),
        }
    }

    /// Finds the system documents: the built-in manual plus every allowed file under the
    /// doc folders (hidden files skipped, symlinks not followed, the uploads root excluded).
    pub fn scan_system_docs(&self) -> Vec<SysFile> {
        let builtin: Vec<SysFile> = BUILTIN_DOCS
            .iter()
            .map(|(name, text)| SysFile {
                path: self.builtin_dir.join(name),
                filename: (*name).into(),
                mtime: 0,
                size: text.len() as u64,
                content: Some((*text).into()),
            })
            .collect();
        let mut out: Vec<SysFile> = Vec::new();
        let mut files = Vec::new();
        for d in &self.doc_dirs {
            llmops_tools::semantic_search::walk_files(
                d,
                0,
                MAX_DOC_FILES,
                Some(&self.exclude),
                &mut files,
            );
        }
        for p in files {
            let Ok(resolved) = self.paths.check(&p) else {
                continue;
            };
            let Ok(meta) = std::fs::metadata(&resolved) else {
                continue;
            };
            if !meta.is_file() || meta.len() > MAX_DOC_BYTES || !looks_like_text(&resolved) {
                continue;
            }
            out.push(SysFile {
                filename: llmops_policy::path::display_name(&resolved),
                mtime: llmops_index::engine::mtime_secs(&resolved),
                size: meta.len(),
                path: resolved,
                content: None,
            });
        }
        // A doc folder holding the same document (the repo's assets/docs under `make run`)
        // already lists it: one copy, not two.
        for b in builtin {
            let text = b.content.as_deref().unwrap_or("");
            let dup = out.iter().any(|f| {
                f.size == b.size
                    && std::fs::read(&f.path).is_ok_and(|bytes| bytes == text.as_bytes())
            });
            if !dup {
                out.insert(0, b);
            }
        }
        out
    }

    /// One doc scan (blocking), unless one is already running (the start-up scan or an
    /// earlier tick of the periodic re-scan).
    fn scan_once(&self) {
        if self.scanning.swap(true, Ordering::SeqCst) {
            return;
        }
        self.rescan();
        self.scanning.store(false, Ordering::SeqCst);
    }

    /// Re-scans the system docs (blocking): at start and periodically.
    pub fn rescan(&self) {
        let files = self.scan_system_docs();
        // The built-in manual changes only with the binary: compare by content.
        match self.engine.sync_system(&files) {
            Ok(r) => tracing::info!(
                "system docs: {} indexed, {} unchanged, {} removed, {} failed",
                r.indexed,
                r.unchanged,
                r.removed,
                r.failed
            ),
            Err(e) => tracing::warn!("system docs scan failed: {e}"),
        }
    }

    /// Drops index entries of uploads the database no longer has (deleted sessions).
    fn drop_orphans(&self) {
        let Ok(rows) = self.store.all_uploads() else {
            return;
        };
        let live: std::collections::HashSet<String> = rows
            .iter()
            .map(|r| Engine::upload_key(&r.session_id, &r.sha256))
            .collect();
        for key in self.engine.keys() {
            if key.starts_with("u:") && !live.contains(&key) {
                if let Err(e) = self.engine.remove(&key) {
                    tracing::warn!(
                        "orphan index entry {key} not removed (kept until next start): {e}"
                    );
                }
            }
        }
        // Uploads still recorded as `saved`: never indexed (a crash right after the rename)
        // get indexed now; indexed ones whose state write was lost (a crash between indexing
        // and the write) get the index's state, so none stays `saved` forever.
        for r in rows {
            if r.state != UploadState::Saved {
                continue;
            }
            let key = Engine::upload_key(&r.session_id, &r.sha256);
            // One at a time on this thread, so with the uploads' limit of two at most three
            // files are in memory at once; each one's text is given back right after.
            let (state, detail) = match self.engine.state_of(&key) {
                None => {
                    let res = self.index_upload(&r, None);
                    crate::memory::trim();
                    res
                }
                Some((s, d)) => (UploadState::from(s), d),
            };
            let res = self
                .store
                .set_upload_state(&r.file_id, state, detail.as_deref());
            crate::store::log_unsaved(res, &r.file_id, "upload index state (catch-up)");
        }
    }

    /// Background start-up work on a dedicated thread: load the embedder (dense search is
    /// off until it is ready, and stays off with a logged reason if it cannot load), drop
    /// orphans, index the system docs.
    pub fn start_background(self: &Arc<Self>, cfg: &Config) {
        let h = self.clone();
        let cfg = cfg.clone();
        let spawned = std::thread::Builder::new()
            .name("llmops-index-start".into())
            .spawn(move || {
                h.drop_orphans();
                h.scan_once();
                match load_dense(&cfg) {
                    Ok((e, v)) => {
                        tracing::info!("dense search on: {} in {}", e.fingerprint(), v.kind());
                        if let Err(err) = Engine::attach_dense(&h.engine, e, v) {
                            tracing::warn!("dense search off: {err}");
                            h.engine.set_dense_off(err.to_string());
                        }
                    }
                    Err(reason) => {
                        tracing::warn!("search runs lexical-only: {reason}");
                        h.engine.set_dense_off(reason);
                    }
                }
                h.dense_settled.store(true, Ordering::Release);
            });
        if let Err(e) = spawned {
            tracing::warn!("cannot start index background work: {e}");
        }
    }
}

/// An UPLOAD_STATUS with one of the coarse states of a stored upload.
fn state_msg(row: &UploadRow, state: UploadState, detail: Option<String>) -> Message {
    Message::UploadStatus(UploadStatus {
        file_id: row.file_id.clone(),
        filename: row.filename.clone(),
        state: state.as_str().into(),
        detail,
        done: row.size,
        total: row.size,
    })
}

/// Builds the configured embedder and vector store, or says why dense search is off.
fn load_dense(cfg: &Config) -> Result<llmops_index::DenseParts, String> {
    let embedder: Arc<dyn Embedder> = match cfg.index.embedder.as_str() {
        "none" => return Err("embedder = none in the config".into()),
        "openai" => {
            let url = cfg
                .index
                .embedding_url
                .clone()
                .ok_or("embedder = openai needs embedding_url in the config")?;
            let key = cfg
                .index
                .embedding_key_env
                .as_deref()
                .and_then(|v| std::env::var(v).ok());
            Arc::new(
                HttpEmbedder::connect(HttpEmbedderConfig {
                    base_url: url,
                    model: cfg
                        .index
                        .embedding_model
                        .clone()
                        .unwrap_or_else(|| "embedding-3".into()),
                    api_key: key,
                    query_prefix: cfg.index.embedding_query_prefix.clone(),
                    passage_prefix: cfg.index.embedding_passage_prefix.clone(),
                    send_input_type: cfg.index.embedding_input_type,
                })
                .map_err(|e| format!("embedding endpoint unusable: {e}"))?,
            )
        }
        _ => Arc::new(E5::load(&cfg.model_dir()).map_err(|e| e.to_string())?),
    };
    // Log chunks are embedded without their volatile fields, identical chunks once.
    let embedder: Arc<dyn Embedder> = Arc::new(CachedPassages::new(embedder));
    let store: Arc<dyn VectorStore> = match cfg.index.vector_store.as_str() {
        "chroma" => Arc::new(
            ChromaStore::connect(&cfg.index.chroma_url, &embedder.fingerprint())
                .map_err(|e| format!("chroma at {} unusable: {e}", cfg.index.chroma_url))?,
        ),
        _ => {
            let dir = cfg.index_dir().join("vectors");
            Arc::new(InProcessStore::open(&dir, embedder.dim()).map_err(|e| e.to_string())?)
        }
    };
    Ok((embedder, store))
}

/// The file's bytes as text. Takes the bytes by value: valid UTF-8 (the usual log) becomes
/// the String without a second copy of the file in memory.
fn decode_text(mut b: Vec<u8>) -> String {
    if let Some(rest) = b.strip_prefix(&[0xFF, 0xFE]) {
        let u: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        return String::from_utf16_lossy(&u);
    }
    if let Some(rest) = b.strip_prefix(&[0xFE, 0xFF]) {
        let u: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        return String::from_utf16_lossy(&u);
    }
    if b.starts_with(&[0xEF, 0xBB, 0xBF]) {
        b.drain(..3);
    }
    match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

fn looks_like_text(p: &Path) -> bool {
    use std::io::Read;
    let mut buf = [0u8; 4096];
    let Ok(mut f) = std::fs::File::open(p) else {
        return false;
    };
    let n = f.read(&mut buf).unwrap_or(0);
    !buf[..n].contains(&0)
}

/// The semantic_search tool's backend over the engine.
pub struct IndexSearch(pub Arc<IndexHandle>);

impl SearchBackend for IndexSearch {
    fn search(
        &self,
        session_id: &str,
        query: &str,
        scope: SearchScope,
        top_k: usize,
    ) -> Result<Vec<SearchHit>, String> {
        let scope = match scope {
            SearchScope::All => Scope::All,
            SearchScope::System => Scope::System,
            SearchScope::Uploads => Scope::Uploads,
        };
        let hits = self
            .0
            .engine
            .search(session_id, query, scope, top_k, Mode::Hybrid)
            .map_err(|e| e.to_string())?;
        Ok(hits
            .into_iter()
            .map(|h| SearchHit {
                filename: h.filename,
                filepath: h.filepath,
                similarity: h.similarity,
                chunk: h.chunk,
                position: h.position,
                match_type: h.match_type,
                file_id: h.file_id,
                answer: h.answer,
            })
            .collect())
    }
}

/// How often the doc folders are re-scanned. A scan walks the folders and compares sizes
/// and times; it is cheap but not free on a large man-page tree, so not every few seconds.
pub const DOC_RESCAN_EVERY: Duration = Duration::from_secs(15);

/// Re-scans the doc folders every [`DOC_RESCAN_EVERY`] until shutdown.
pub async fn rescan_periodically(
    h: Arc<IndexHandle>,
    shutdown: tokio_util::sync::CancellationToken,
) {
    let mut tick = tokio::time::interval(DOC_RESCAN_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = tick.tick() => {
                let scan = h.clone();
                if let Err(e) = tokio::task::spawn_blocking(move || scan.scan_once()).await {
                    tracing::warn!("doc re-scan failed: {e}");
                }
            }
        }
    }
}

/// How often the index is tidied after background merges (see [`housekeep_periodically`]).
pub const HOUSEKEEP_EVERY: Duration = Duration::from_secs(2);

/// Deletes index files background merges left behind and, when merges or deletes freed
/// something, asks `trimmer` to give the freed heap back to the OS: a merge's memory is freed
/// on tantivy's thread, long after the request that caused it has trimmed.
pub async fn housekeep_periodically(
    h: Arc<IndexHandle>,
    trimmer: Arc<crate::memory::Trimmer>,
    shutdown: tokio_util::sync::CancellationToken,
) {
    let mut tick = tokio::time::interval(HOUSEKEEP_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        let engine = h.engine.clone();
        match tokio::task::spawn_blocking(move || engine.housekeep()).await {
            Ok(Ok(true)) => trimmer.request(),
            Ok(Ok(false)) => {}
            Ok(Err(e)) => tracing::warn!("index housekeeping failed: {e}"),
            Err(e) => tracing::warn!("index housekeeping task failed: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        _dir: tempfile::TempDir,
        cfg: Config,
        store: Store,
        sid: String,
        paths: Arc<PathPolicy>,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let cli = crate::config::Cli {
            config: Some(PathBuf::from("/dev/null")),
            data_dir: Some(dir.path().join("data")),
            llm_provider: Some("offline".into()),
            ..Default::default()
        };
        let cfg = Config::resolve(cli).expect("config");
        std::fs::create_dir_all(cfg.uploads_dir()).expect("uploads dir");
        let store = Store::open(&cfg.db_path()).expect("db");
        let sid = store.create_session(None).expect("session").id;
        let paths = Arc::new(PathPolicy::new(&cfg.path_policy_config(&[])));
        Fixture {
            _dir: dir,
            cfg,
            store,
            sid,
            paths,
        }
    }

    impl Fixture {
        /// A saved upload `id` with `text`, recorded in the uploads table.
        fn upload(&self, id: &str, text: &str) -> UploadRow {
            let path = self.cfg.uploads_dir().join(id).join("app.log");
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
            let row = UploadRow {
                file_id: id.into(),
                session_id: self.sid.clone(),
                filename: "app.log".into(),
                size: text.len() as u64,
                content_type: "text/plain".into(),
                sha256: format!("{id}-sha"),
                path: path.to_string_lossy().into_owned(),
                uploaded_at: crate::store::now_rfc3339(),
                state: UploadState::Saved,
                detail: None,
            };
            self.store.insert_upload(&row).expect("insert");
            row
        }

        fn handle(&self) -> Arc<IndexHandle> {
            IndexHandle::open(&self.cfg, self.store.clone(), vec![], self.paths.clone())
                .expect("index")
        }
    }

    #[test]
    fn an_upload_left_saved_gets_its_state_at_start_up() {
        let f = fixture();
        let (store, sid) = (&f.store, &f.sid);
        // One indexed but whose state write was lost, one never indexed at all.
        let indexed = f.upload("aaa111", "disk quota exceeded on /var\n");
        let never = f.upload("bbb222", "connection refused by upstream\n");
        let h = f.handle();
        let (state, _) = h.index_upload(&indexed, None);
        assert_eq!(state, UploadState::Indexed);
        store
            .set_upload_state(&indexed.file_id, UploadState::Saved, None)
            .expect("simulate the lost write");
        h.drop_orphans();
        let states: Vec<(String, UploadState)> = store
            .list_uploads(sid)
            .expect("list")
            .into_iter()
            .map(|u| (u.file_id, u.state))
            .collect();
        assert!(
            states.iter().all(|(_, s)| *s == UploadState::Indexed),
            "{states:?} (never: {})",
            never.file_id
        );
    }

    /// An upload's sender leaves the table once its state is final, also when no state
    /// follows `indexed` (no embedder): a closed connection's queue must not stay allocated.
    #[test]
    fn pushed_states_stop_holding_the_uploader_once_final() {
        let f = fixture();
        let h = f.handle();
        assert!(!h.engine.has_dense(), "this test needs lexical-only");
        // While the model may still load, embedding states can follow `indexed`.
        let (early_tx, _early_rx) = mpsc::channel(16);
        let early = f.upload("bbb222", "connection reset by peer\n");
        h.index_upload(&early, Some(early_tx));
        assert_eq!(
            h.watched(),
            1,
            "the model may still load: keep the uploader"
        );
        h.unwatch("bbb222");
        // Dense search off for good (as the start-up thread decides).
        h.dense_settled.store(true, Ordering::Release);
        let (tx, mut rx) = mpsc::channel(16);
        let row = f.upload("ccc333", "upstream timed out while reading\n");
        let (state, _) = h.index_upload(&row, Some(tx.clone()));
        assert_eq!(state, UploadState::Indexed);
        assert_eq!(h.watched(), 0, "no embedder: indexed is final");
        let mut states = vec![];
        while let Ok(Message::UploadStatus(s)) = rx.try_recv() {
            states.push(s.state);
        }
        assert_eq!(states, ["saved", "indexed"]);
        // Senders of closed connections go at the next upload's registration.
        let (open_tx, _open_rx) = mpsc::channel(16);
        h.watch("gone", Some(tx));
        drop(rx);
        h.watch("live", Some(open_tx));
        assert_eq!(h.watched(), 1);
    }

    #[test]
    fn index_glue_decodes_text_encodings() {
        assert_eq!(decode_text(b"\xEF\xBB\xBFhi".to_vec()), "hi");
        assert_eq!(decode_text(vec![0xFF, 0xFE, b'h', 0, b'i', 0]), "hi");
        assert_eq!(decode_text(vec![0xFE, 0xFF, 0, b'h', 0, b'i']), "hi");
        assert_eq!(decode_text(b"ok \xFF end".to_vec()), "ok \u{FFFD} end");
    }
}
