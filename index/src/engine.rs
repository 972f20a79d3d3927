//! The index engine: a catalog of indexed files (uploads keyed by session + sha256, system
//! docs by path), the lexical index, the optional embedder and vector store, the background
//! embedding thread with per-file progress, and hybrid search. Blocking API; the embedding
//! thread is the engine's own (never a runtime worker).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock, Weak};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::chunker::{self, ChunkerConfig};
use crate::embed::{Embedder, InputKind};
use crate::lexical::{ChunkDoc, Lexical};
use crate::rank;
use crate::vectors::VectorStore;
use crate::{chunk_id, IndexError};

mod concurrency;
use concurrency::{Gate, QueryBatcher, QueryCache, ScanBatcher};

/// Where to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    All,
    System,
    Uploads,
}

/// Which evidence to use (benchmarks compare them; the server uses `Hybrid`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Hybrid,
    Lexical,
    Dense,
}

/// Per-file index state, as pushed to clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Indexed,
    Embedding,
    Ready,
    Failed,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Indexed => "indexed",
            State::Embedding => "embedding",
            State::Ready => "ready",
            State::Failed => "failed",
        }
    }
}

/// A state change of one file.
#[derive(Debug, Clone)]
pub struct Progress {
    pub key: String,
    pub file_id: Option<String>,
    pub session: Option<String>,
    pub filename: String,
    pub state: State,
    pub done: u64,
    pub total: u64,
    pub detail: Option<String>,
}

pub type Listener = Arc<dyn Fn(&Progress) + Send + Sync>;

/// An embedder with the store its vectors go to.
pub type DenseParts = (Arc<dyn Embedder>, Arc<dyn VectorStore>);

/// One search result (one per file).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub key: String,
    pub filename: String,
    pub filepath: String,
    pub similarity: f32,
    pub chunk: String,
    pub position: String,
    pub match_type: String,
    pub file_id: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    pub files: u64,
    pub chunks: u64,
    pub embedding_backlog: u64,
    pub mode: String,
}

/// A system document found by a scan.
#[derive(Debug, Clone)]
pub struct SysFile {
    pub path: PathBuf,
    pub filename: String,
    pub mtime: u64,
    pub size: u64,
    /// Built-in documents carry their text; files on disk are read when changed.
    pub content: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SyncReport {
    pub indexed: usize,
    pub unchanged: usize,
    pub removed: usize,
    pub failed: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    key: String,
    tag: String,
    session: Option<String>,
    file_id: Option<String>,
    filename: String,
    path: String,
    sha256: String,
    mtime: u64,
    size: u64,
    chunks: u32,
    /// Fingerprint of the embedder whose vectors are stored for this file.
    embedded: Option<String>,
    failed: Option<String>,
    #[serde(skip)]
    generation: u64,
}

#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// `{data}/index`.
    pub dir: PathBuf,
    /// Results below this similarity are dropped.
    pub threshold: f32,
    pub chunker: ChunkerConfig,
    /// A failed embedding batch is retried this many times, after `embed_backoff`,
    /// doubling, before the file is marked failed (an explicit retry starts over).
    pub embed_retries: u32,
    pub embed_backoff: Duration,
}

impl EngineConfig {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        EngineConfig {
            dir: dir.into(),
            threshold: 0.3,
            chunker: ChunkerConfig::default(),
            embed_retries: 3,
            embed_backoff: Duration::from_millis(500),
        }
    }
}

#[derive(Clone)]
struct Dense {
    embedder: Arc<dyn Embedder>,
    vectors: Arc<dyn VectorStore>,
}

struct Queue {
    keys: Mutex<VecDeque<String>>,
    cv: Condvar,
    stop: AtomicBool,
    /// Files being embedded right now (for `wait_idle`).
    busy: AtomicU64,
}

pub struct Engine {
    cfg: EngineConfig,
    lexical: Lexical,
    catalog: RwLock<BTreeMap<String, Entry>>,
    /// Serialises catalog file writes.
    save_lock: Mutex<()>,
    /// The catalog changed since it was last written; when it was.
    dirty: AtomicBool,
    last_save: Mutex<Instant>,
    dense: RwLock<Option<Dense>>,
    dense_off: RwLock<Option<String>>,
    listener: RwLock<Option<Listener>>,
    queue: Arc<Queue>,
    /// Chunks of the file being embedded that are already done (backlog = chunks of files
    /// not embedded yet, minus this).
    current_done: AtomicU64,
    /// Held while checking a file is still current and writing its vectors, and while
    /// deleting them, so a removed file never gets vectors back.
    vec_lock: Mutex<()>,
    next_gen: AtomicU64,
    worker_started: AtomicBool,
    /// Chunk id -> doc key of every indexed chunk: lexical and dense hits find their file
    /// without reading stored documents.
    ids: RwLock<HashMap<u64, Arc<str>>>,
    gate: Gate,
    qcache: QueryCache,
    qbatch: QueryBatcher,
    scans: ScanBatcher,
}

/// Query vectors remembered (repeated searches skip the model).
const QUERY_CACHE: usize = 4096;
/// Most queries embedded in one forward pass.
const QUERY_BATCH: usize = 64;

const CATALOG: &str = "catalog.json";

impl Engine {
    /// Opens the index under `cfg.dir`. With an embedder and a vector store, dense search is
    /// on and files not yet embedded with this embedder are queued; otherwise `dense_off`
    /// says why (shown in status).
    pub fn open(
        cfg: EngineConfig,
        dense: Option<DenseParts>,
        dense_off: Option<String>,
    ) -> Result<Arc<Engine>, IndexError> {
        std::fs::create_dir_all(&cfg.dir)?;
        let lexical = Lexical::open(&cfg.dir.join("lexical"))?;
        Self::build(cfg, lexical, dense, dense_off)
    }

    /// An engine whose lexical index lives in memory (catalog still under `cfg.dir`).
    pub fn open_in_memory(
        cfg: EngineConfig,
        dense: Option<DenseParts>,
    ) -> Result<Arc<Engine>, IndexError> {
        std::fs::create_dir_all(&cfg.dir)?;
        Self::build(
            cfg,
            Lexical::in_memory()?,
            dense,
            Some("no embedder".into()),
        )
    }

    fn build(
        cfg: EngineConfig,
        lexical: Lexical,
        dense: Option<DenseParts>,
        dense_off: Option<String>,
    ) -> Result<Arc<Engine>, IndexError> {
        let mut catalog: BTreeMap<String, Entry> = match std::fs::read(cfg.dir.join(CATALOG)) {
            Ok(b) => serde_json::from_slice(&b).map_err(|e| IndexError::Catalog(e.to_string()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(e.into()),
        };
        // Reconcile: lexical docs without a catalog entry (a crash between commit and
        // catalog write) are dropped; entries without docs are forgotten.
        let keys = lexical.doc_keys()?;
        for k in &keys {
            if !catalog.contains_key(k) {
                lexical.remove(k)?;
            }
        }
        catalog.retain(|k, e| e.chunks == 0 || keys.contains(k));
        let mut ids = HashMap::new();
        for e in catalog.values() {
            let k: Arc<str> = Arc::from(e.key.as_str());
            for i in 0..e.chunks {
                ids.insert(chunk_id(&e.key, i), k.clone());
            }
        }
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2);
        let engine = Arc::new(Engine {
            ids: RwLock::new(ids),
            gate: Gate::new(cores),
            qcache: QueryCache::new(QUERY_CACHE),
            qbatch: QueryBatcher::new(QUERY_BATCH),
            scans: ScanBatcher::new(QUERY_BATCH),
            dense_off: RwLock::new(dense_off),
            cfg,
            lexical,
            catalog: RwLock::new(catalog),
            save_lock: Mutex::new(()),
            dirty: AtomicBool::new(false),
            last_save: Mutex::new(Instant::now()),
            dense: RwLock::new(None),
            listener: RwLock::new(None),
            queue: Arc::new(Queue {
                keys: Mutex::new(VecDeque::new()),
                cv: Condvar::new(),
                stop: AtomicBool::new(false),
                busy: AtomicU64::new(0),
            }),
            current_done: AtomicU64::new(0),
            vec_lock: Mutex::new(()),
            next_gen: AtomicU64::new(1),
            worker_started: AtomicBool::new(false),
        });
        engine.save()?;
        if let Some((e, v)) = dense {
            Self::attach_dense(&engine, e, v)?;
        }
        Ok(engine)
    }

    /// Turns dense search on (the model may load after the engine opened, so start-up is
    /// not held up by it). Files not embedded yet, failed ones included (a restart is a
    /// retry), are queued. Vectors of another embedder are dropped and every file is
    /// re-embedded, visibly (log line, per-file progress, backlog in status).
    pub fn attach_dense(
        engine: &Arc<Engine>,
        embedder: Arc<dyn Embedder>,
        vectors: Arc<dyn VectorStore>,
    ) -> Result<(), IndexError> {
        let fp = embedder.fingerprint();
        let stale = engine
            .read_catalog()?
            .values()
            .filter(|x| x.embedded.as_deref().is_some_and(|f| f != fp))
            .count();
        if stale > 0 {
            tracing::warn!(
                "embedder changed to {fp}: re-embedding {stale} files (vectors cleared)"
            );
            vectors.clear()?;
            for x in engine.write_catalog()?.values_mut() {
                x.embedded = None;
            }
            engine.save()?;
        }
        engine.qcache.clear();
        *engine.dense.write().map_err(|_| IndexError::Poisoned)? =
            Some(Dense { embedder, vectors });
        *engine.dense_off.write().map_err(|_| IndexError::Poisoned)? = None;
        if !engine.worker_started.swap(true, Ordering::SeqCst) {
            Self::spawn_worker(engine)?;
        }
        let pending: Vec<String> = engine
            .read_catalog()?
            .values()
            .filter(|e| e.embedded.is_none() && e.chunks > 0)
            .map(|e| e.key.clone())
            .collect();
        for k in pending {
            engine.enqueue(&k);
        }
        Ok(())
    }

    /// Records why dense search is off (shown in status).
    pub fn set_dense_off(&self, reason: impl Into<String>) {
        if let Ok(mut g) = self.dense_off.write() {
            *g = Some(reason.into());
        }
    }

    fn dense(&self) -> Option<Dense> {
        self.dense.read().ok().and_then(|g| g.clone())
    }

    pub fn set_listener(&self, l: Listener) {
        if let Ok(mut g) = self.listener.write() {
            *g = Some(l);
        }
    }

    fn emit(&self, p: Progress) {
        let l = self.listener.read().ok().and_then(|g| g.clone());
        if let Some(l) = l {
            l(&p);
        }
    }

    fn read_catalog(
        &self,
    ) -> Result<std::sync::RwLockReadGuard<'_, BTreeMap<String, Entry>>, IndexError> {
        self.catalog.read().map_err(|_| IndexError::Poisoned)
    }

    fn write_catalog(
        &self,
    ) -> Result<std::sync::RwLockWriteGuard<'_, BTreeMap<String, Entry>>, IndexError> {
        self.catalog.write().map_err(|_| IndexError::Poisoned)
    }

    /// Marks the catalog changed and writes it if the last write is a second old: a scan of
    /// thousands of docs must not rewrite the catalog per file. What a crash loses is
    /// redone at start (docs re-scanned, files re-embedded).
    fn save_debounced(&self) {
        self.dirty.store(true, Ordering::SeqCst);
        let due = self
            .last_save
            .lock()
            .map(|t| t.elapsed() >= Duration::from_secs(1))
            .unwrap_or(true);
        if due {
            if let Err(e) = self.save() {
                tracing::warn!("cannot save the index catalog: {e}");
            }
        }
    }

    /// Debounced, but written at once when no more embedding is queued.
    fn save_debounced_or_idle(&self) -> Result<(), IndexError> {
        let idle = self.queue.keys.lock().map(|q| q.is_empty()).unwrap_or(true);
        if idle {
            self.save()
        } else {
            self.save_debounced();
            Ok(())
        }
    }

    /// Writes the catalog atomically (temp file + rename).
    fn save(&self) -> Result<(), IndexError> {
        let _g = self.save_lock.lock().map_err(|_| IndexError::Poisoned)?;
        self.dirty.store(false, Ordering::SeqCst);
        if let Ok(mut t) = self.last_save.lock() {
            *t = Instant::now();
        }
        let bytes = {
            let c = self.read_catalog()?;
            serde_json::to_vec(&*c).map_err(|e| IndexError::Catalog(e.to_string()))?
        };
        let tmp = self.cfg.dir.join("catalog.json.tmp");
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, self.cfg.dir.join(CATALOG))?;
        Ok(())
    }

    /// Segments of the lexical index (each costs every query a little).
    pub fn lexical_segments(&self) -> usize {
        self.lexical.segments()
    }

    pub fn has_dense(&self) -> bool {
        self.dense().is_some()
    }

    /// Keys of every indexed file.
    pub fn keys(&self) -> Vec<String> {
        self.read_catalog()
            .map(|c| c.keys().cloned().collect())
            .unwrap_or_default()
    }

    pub fn upload_key(session: &str, sha256: &str) -> String {
        format!("u:{session}:{sha256}")
    }

    fn progress_of(
        e: &Entry,
        state: State,
        done: u64,
        total: u64,
        detail: Option<String>,
    ) -> Progress {
        Progress {
            key: e.key.clone(),
            file_id: e.file_id.clone(),
            session: e.session.clone(),
            filename: e.filename.clone(),
            state,
            done,
            total,
            detail,
        }
    }

    /// Chunks and indexes `text` under `entry.key`, replacing what was there; the text is
    /// searchable when this returns. Queues dense embedding.
    fn index_entry(&self, mut entry: Entry, text: &str, durable: bool) -> Result<u32, IndexError> {
        let chunks = chunker::chunk(text, &self.cfg.chunker);
        let docs: Vec<ChunkDoc> = chunks
            .iter()
            .enumerate()
            .map(|(i, c)| ChunkDoc {
                chunk_id: chunk_id(&entry.key, i as u32),
                doc_key: entry.key.clone(),
                tag: entry.tag.clone(),
                ord: i as u32,
                first_line: c.first_line as u32,
                last_line: c.last_line as u32,
                text: c.text.clone(),
            })
            .collect();
        // Vectors of the previous version go first (ids are reused by position).
        let new_gen = self.next_gen.fetch_add(1, Ordering::Relaxed);
        let mut old_n = 0u32;
        {
            // Supersede a running embedding of the old version before its vectors go, so
            // it cannot write any back.
            let _g = self.vec_lock.lock().map_err(|_| IndexError::Poisoned)?;
            let old_chunks = {
                let mut c = self.write_catalog()?;
                c.get_mut(&entry.key).map(|e| {
                    e.generation = new_gen;
                    e.chunks
                })
            };
            if let Some(n) = old_chunks {
                old_n = n;
                self.delete_vectors_locked(&entry.key, n)?;
            }
        }
        self.lexical.replace(&entry.key, &docs)?;
        self.map_ids(&entry.key, old_n, docs.len() as u32)?;
        entry.chunks = docs.len() as u32;
        entry.embedded = None;
        entry.failed = None;
        entry.generation = new_gen;
        let key = entry.key.clone();
        let progress = Self::progress_of(
            &entry,
            State::Indexed,
            docs.len() as u64,
            docs.len() as u64,
            None,
        );
        self.write_catalog()?.insert(key.clone(), entry);
        if durable {
            self.save()?;
        } else {
            self.save_debounced();
        }
        self.emit(progress);
        if self.has_dense() && !docs.is_empty() {
            self.enqueue(&key);
        }
        Ok(docs.len() as u32)
    }

    /// Indexes an upload. Returns `Some(file_id)` of an earlier upload with the same
    /// content in this session instead of indexing it twice.
    pub fn index_upload(
        &self,
        session: &str,
        file_id: &str,
        filename: &str,
        path: &str,
        sha256: &str,
        text: &str,
    ) -> Result<Option<String>, IndexError> {
        let key = Self::upload_key(session, sha256);
        if let Some(e) = self.read_catalog()?.get(&key) {
            if e.file_id.as_deref() != Some(file_id) {
                return Ok(e.file_id.clone());
            }
        }
        let entry = Entry {
            key,
            tag: format!("u:{session}"),
            session: Some(session.into()),
            file_id: Some(file_id.into()),
            filename: filename.into(),
            path: path.into(),
            sha256: sha256.into(),
            mtime: 0,
            size: text.len() as u64,
            chunks: 0,
            embedded: None,
            failed: None,
            generation: 0,
        };
        self.index_entry(entry, text, true)?;
        Ok(None)
    }

    /// The state of the file indexed under `key` (for duplicates and status).
    pub fn state_of(&self, key: &str) -> Option<(State, Option<String>)> {
        let c = self.read_catalog().ok()?;
        let e = c.get(key)?;
        Some(if let Some(f) = &e.failed {
            (State::Failed, Some(f.clone()))
        } else if e.embedded.is_some() {
            (State::Ready, None)
        } else if self.has_dense() {
            (State::Embedding, None)
        } else {
            (State::Indexed, None)
        })
    }

    /// Points an upload's entry at another file with the same content (the indexed one was
    /// deleted but a duplicate remains): no re-indexing needed.
    pub fn repoint_upload(
        &self,
        session: &str,
        sha256: &str,
        file_id: &str,
        filename: &str,
        path: &str,
    ) -> Result<bool, IndexError> {
        let key = Self::upload_key(session, sha256);
        let changed = {
            let mut c = self.write_catalog()?;
            match c.get_mut(&key) {
                Some(e) => {
                    e.file_id = Some(file_id.into());
                    e.filename = filename.into();
                    e.path = path.into();
                    true
                }
                None => false,
            }
        };
        if changed {
            self.save()?;
        }
        Ok(changed)
    }

    /// Removes a file's chunks and vectors.
    pub fn remove(&self, key: &str) -> Result<bool, IndexError> {
        let Some(e) = self.write_catalog()?.remove(key) else {
            return Ok(false);
        };
        self.drop_vectors(key, e.chunks)?;
        self.lexical.remove(key)?;
        self.map_ids(key, e.chunks, 0)?;
        self.save()?;
        Ok(true)
    }

    pub fn remove_upload(&self, session: &str, sha256: &str) -> Result<bool, IndexError> {
        self.remove(&Self::upload_key(session, sha256))
    }

    /// Removes every upload of a session (session deleted).
    pub fn remove_session(&self, session: &str) -> Result<usize, IndexError> {
        let keys: Vec<String> = self
            .read_catalog()?
            .values()
            .filter(|e| e.session.as_deref() == Some(session))
            .map(|e| e.key.clone())
            .collect();
        for k in &keys {
            self.remove(k)?;
        }
        Ok(keys.len())
    }

    /// Replaces the id map entries of `key`'s `old` chunks with its `new` ones.
    fn map_ids(&self, key: &str, old: u32, new: u32) -> Result<(), IndexError> {
        let mut ids = self.ids.write().map_err(|_| IndexError::Poisoned)?;
        for i in new..old {
            ids.remove(&chunk_id(key, i));
        }
        let k: Arc<str> = Arc::from(key);
        for i in 0..new {
            ids.insert(chunk_id(key, i), k.clone());
        }
        Ok(())
    }

    fn drop_vectors(&self, key: &str, chunks: u32) -> Result<(), IndexError> {
        let _g = self.vec_lock.lock().map_err(|_| IndexError::Poisoned)?;
        self.delete_vectors_locked(key, chunks)
    }

    /// Deletes a file's vectors; the caller holds `vec_lock`.
    fn delete_vectors_locked(&self, key: &str, chunks: u32) -> Result<(), IndexError> {
        if let Some(Dense { vectors: v, .. }) = self.dense() {
            let ids: Vec<u64> = (0..chunks).map(|i| chunk_id(key, i)).collect();
            for part in ids.chunks(1000) {
                v.delete(part)?;
            }
        }
        Ok(())
    }

    /// Brings system docs in line with `files`: new or changed (mtime/size, then sha256)
    /// files are indexed, unchanged ones skipped, vanished ones removed.
    pub fn sync_system(&self, files: &[SysFile]) -> Result<SyncReport, IndexError> {
        use sha2::Digest;
        let mut report = SyncReport::default();
        let mut seen = std::collections::HashSet::new();
        for f in files {
            let key = format!("s:{}", f.path.display());
            seen.insert(key.clone());
            let existing = self.read_catalog()?.get(&key).cloned();
            if let Some(e) = &existing {
                if e.mtime == f.mtime && e.size == f.size && f.content.is_none() {
                    report.unchanged += 1;
                    continue;
                }
            }
            let text = match &f.content {
                Some(t) => t.clone(),
                None => match std::fs::read(&f.path) {
                    Ok(b) => String::from_utf8_lossy(
                        b.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(&b),
                    )
                    .into_owned(),
                    Err(e) => {
                        tracing::warn!("cannot read doc {}: {e}", f.path.display());
                        report.failed += 1;
                        continue;
                    }
                },
            };
            let sha = hex::encode(sha2::Sha256::digest(text.as_bytes()));
            if let Some(e) = existing {
                if e.sha256 == sha {
                    // Touched but not changed: remember the new stamp only.
                    if let Some(x) = self.write_catalog()?.get_mut(&key) {
                        x.mtime = f.mtime;
                        x.size = f.size;
                    }
                    report.unchanged += 1;
                    continue;
                }
            }
            let entry = Entry {
                key,
                tag: "sys".into(),
                session: None,
                file_id: None,
                filename: f.filename.clone(),
                path: f.path.display().to_string(),
                sha256: sha,
                mtime: f.mtime,
                size: f.size,
                chunks: 0,
                embedded: None,
                failed: None,
                generation: 0,
            };
            match self.index_entry(entry, &text, false) {
                Ok(_) => report.indexed += 1,
                Err(e) => {
                    tracing::warn!("cannot index doc {}: {e}", f.path.display());
                    report.failed += 1;
                }
            }
        }
        let gone: Vec<String> = self
            .read_catalog()?
            .keys()
            .filter(|k| k.starts_with("s:") && !seen.contains(*k))
            .cloned()
            .collect();
        for k in gone {
            self.remove(&k)?;
            report.removed += 1;
        }
        self.save()?;
        Ok(report)
    }

    pub fn stats(&self) -> Stats {
        let (files, _) = self
            .read_catalog()
            .map(|c| (c.len() as u64, ()))
            .unwrap_or((0, ()));
        let mode = match self.dense() {
            Some(d) => format!(
                "hybrid ({}, {})",
                d.embedder.fingerprint(),
                d.vectors.kind()
            ),
            None => format!(
                "lexical-only: {}",
                self.dense_off
                    .read()
                    .ok()
                    .and_then(|g| g.clone())
                    .unwrap_or_else(|| "dense search is off".into())
            ),
        };
        Stats {
            files,
            chunks: self.lexical.num_chunks(),
            embedding_backlog: self.backlog(),
            mode,
        }
    }

    // ----- embedding ---------------------------------------------------------------------

    /// Chunks waiting for their vectors.
    fn backlog(&self) -> u64 {
        if !self.has_dense() {
            return 0;
        }
        let pending: u64 = self
            .read_catalog()
            .map(|c| {
                c.values()
                    .filter(|e| e.embedded.is_none() && e.failed.is_none())
                    .map(|e| e.chunks as u64)
                    .sum()
            })
            .unwrap_or(0);
        pending.saturating_sub(self.current_done.load(Ordering::Relaxed))
    }

    fn enqueue(&self, key: &str) {
        let chunks = self
            .read_catalog()
            .ok()
            .and_then(|c| c.get(key).map(|e| e.chunks))
            .unwrap_or(0);
        if let Ok(mut q) = self.queue.keys.lock() {
            if !q.iter().any(|k| k == key) && chunks > 0 {
                q.push_back(key.to_string());
            }
        }
        self.queue.cv.notify_one();
    }

    /// Re-queues a failed file.
    pub fn retry(&self, key: &str) -> bool {
        let ok = self
            .write_catalog()
            .ok()
            .and_then(|mut c| c.get_mut(key).map(|e| e.failed = None))
            .is_some();
        if ok && self.has_dense() {
            self.enqueue(key);
        }
        ok
    }

    fn spawn_worker(engine: &Arc<Engine>) -> Result<(), IndexError> {
        let weak: Weak<Engine> = Arc::downgrade(engine);
        let queue = engine.queue.clone();
        std::thread::Builder::new()
            .name("llmops-embed".into())
            .spawn(move || loop {
                let key = {
                    let Ok(mut q) = queue.keys.lock() else { return };
                    loop {
                        if queue.stop.load(Ordering::Relaxed) {
                            return;
                        }
                        if let Some(k) = q.pop_front() {
                            queue.busy.fetch_add(1, Ordering::SeqCst);
                            break k;
                        }
                        if weak.strong_count() == 0 {
                            return;
                        }
                        // Wake up now and then to notice the engine is gone.
                        match queue.cv.wait_timeout(q, Duration::from_millis(500)) {
                            Ok((g, _)) => q = g,
                            Err(_) => return,
                        }
                    }
                };
                if let Some(engine) = weak.upgrade() {
                    engine.embed_file(&key);
                }
                queue.busy.fetch_sub(1, Ordering::SeqCst);
            })?;
        Ok(())
    }

    /// One passage batch, retried with exponential backoff (an endpoint's 500 or 429 is
    /// usually gone a moment later). Each retry is visible: an `embedding` state whose
    /// detail says why and when. Gives up early when the file was replaced or deleted.
    fn embed_with_retry(
        &self,
        embedder: &Arc<dyn Embedder>,
        texts: &[&str],
        entry: &Entry,
        done: u64,
        total: u64,
    ) -> Result<Vec<Vec<f32>>, IndexError> {
        let mut wait = self.cfg.embed_backoff;
        let mut attempt = 0u32;
        loop {
            match embedder.embed(texts, InputKind::Passage) {
                Ok(v) => return Ok(v),
                Err(e)
                    if attempt < self.cfg.embed_retries
                        && !self.queue.stop.load(Ordering::Relaxed) =>
                {
                    attempt += 1;
                    let why = format!(
                        "retry {attempt}/{} in {} ms: {e}",
                        self.cfg.embed_retries,
                        wait.as_millis()
                    );
                    tracing::info!("embedding {}: {why}", entry.filename);
                    self.emit(Self::progress_of(
                        entry,
                        State::Embedding,
                        done,
                        total,
                        Some(why),
                    ));
                    std::thread::sleep(wait);
                    if !self.current(&entry.key, entry.generation) {
                        return Err(IndexError::Catalog("superseded".into()));
                    }
                    wait = wait.saturating_mul(2);
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn current(&self, key: &str, generation: u64) -> bool {
        self.read_catalog()
            .map(|c| c.get(key).is_some_and(|e| e.generation == generation))
            .unwrap_or(false)
    }

    fn embed_file(&self, key: &str) {
        let Some(Dense { embedder, vectors }) = self.dense() else {
            return;
        };
        let Some(entry) = self.read_catalog().ok().and_then(|c| c.get(key).cloned()) else {
            return;
        };
        let total = entry.chunks as u64;
        self.current_done.store(0, Ordering::Relaxed);
        let result: Result<(), IndexError> = (|| {
            let chunks = self.lexical.chunks_of(key)?;
            let mut done = 0u64;
            self.emit(Self::progress_of(&entry, State::Embedding, 0, total, None));
            let mut last_emit = Instant::now();
            for batch in chunks.chunks(embedder.batch_size().max(1)) {
                let texts: Vec<&str> = batch.iter().map(|c| c.text.as_str()).collect();
                let vecs = self.embed_with_retry(&embedder, &texts, &entry, done, total)?;
                let items: Vec<(u64, String, Vec<f32>)> = batch
                    .iter()
                    .zip(vecs)
                    .map(|(c, v)| (c.chunk_id, c.tag.clone(), v))
                    .collect();
                {
                    let _g = self.vec_lock.lock().map_err(|_| IndexError::Poisoned)?;
                    if !self.current(key, entry.generation) {
                        return Err(IndexError::Catalog("superseded".into()));
                    }
                    vectors.upsert(&items)?;
                }
                done += batch.len() as u64;
                self.current_done.store(done, Ordering::Relaxed);
                if last_emit.elapsed() >= Duration::from_millis(250) || done == total {
                    last_emit = Instant::now();
                    self.emit(Self::progress_of(
                        &entry,
                        State::Embedding,
                        done,
                        total,
                        None,
                    ));
                }
            }
            Ok(())
        })();
        let fp = embedder.fingerprint();
        match result {
            Ok(()) => {
                let ok = self
                    .write_catalog()
                    .ok()
                    .and_then(|mut c| {
                        c.get_mut(key)
                            .filter(|e| e.generation == entry.generation)
                            .map(|e| e.embedded = Some(fp.clone()))
                    })
                    .is_some();
                if ok {
                    if let Err(e) = self.save_debounced_or_idle() {
                        tracing::warn!("cannot save the index catalog: {e}");
                    }
                    self.emit(Self::progress_of(&entry, State::Ready, total, total, None));
                }
            }
            Err(_) if !self.current(key, entry.generation) => {}
            Err(e) => {
                let msg = e.to_string();
                tracing::warn!("embedding {} failed: {msg}", entry.filename);
                if let Ok(mut c) = self.write_catalog() {
                    if let Some(x) = c.get_mut(key) {
                        x.failed = Some(msg.clone());
                    }
                }
                let _ = self.save();
                self.emit(Self::progress_of(
                    &entry,
                    State::Failed,
                    0,
                    total,
                    Some(msg),
                ));
            }
        }
        self.current_done.store(0, Ordering::Relaxed);
    }

    /// Waits until no embedding is queued or running (tests, benchmarks, `make` targets).
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            let queued = self.queue.keys.lock().map(|q| q.len()).unwrap_or(0);
            if queued == 0 && self.queue.busy.load(Ordering::SeqCst) == 0 {
                if self.dirty.load(Ordering::SeqCst) {
                    let _ = self.save();
                }
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    // ----- search -------------------------------------------------------------------------

    fn tags(scope: Scope, session: &str) -> Vec<String> {
        let up = format!("u:{session}");
        match scope {
            Scope::All => vec!["sys".into(), up],
            Scope::System => vec!["sys".into()],
            Scope::Uploads => vec![up],
        }
    }

    /// The query's vector: from the LRU cache, or embedded together with whatever other
    /// queries arrive meanwhile (one forward pass for a burst of concurrent searches).
    fn query_vector(
        &self,
        embedder: &Arc<dyn Embedder>,
        query: &str,
    ) -> Result<Vec<f32>, IndexError> {
        if let Some(v) = self.qcache.get(query) {
            return Ok(v);
        }
        let v = self.qbatch.embed(embedder, query)?;
        self.qcache.put(query, &v);
        Ok(v)
    }

    /// Hybrid search: one hit per file, best first, similarity in [0, 1], at most `top_k`,
    /// none below the threshold.
    pub fn search(
        &self,
        session: &str,
        query: &str,
        scope: Scope,
        top_k: usize,
        mode: Mode,
    ) -> Result<Vec<Hit>, IndexError> {
        let query = query.trim();
        if query.is_empty() || top_k == 0 {
            return Ok(vec![]);
        }
        let ticket = self.gate.ticket();
        let tags = Self::tags(scope, session);
        let pool = (top_k * 10).max(50);
        let simple = rank::simple_tokens(query);

        // The query embedding first, outside the gate below, so concurrent searches batch.
        let mut wd = 0.0f32;
        let mut qdense: Option<(Vec<f32>, Arc<dyn VectorStore>)> = None;
        if let (
            Some(Dense {
                embedder: e,
                vectors: v,
            }),
            true,
        ) = (self.dense(), mode != Mode::Lexical)
        {
            wd = if mode == Mode::Dense {
                1.0
            } else {
                rank::dense_weight(e.coverage(query))
            };
            if wd > 0.0 {
                // A failing embedder (endpoint down) degrades the search to lexical.
                match self.query_vector(&e, query) {
                    Ok(q) => qdense = Some((q, v)),
                    Err(err) => tracing::warn!("dense search skipped: {err}"),
                }
            }
        }
        // The vector scan too (batched with concurrent searches: one pass over the rows).
        let found = qdense.map(|(q, v)| self.scans.search(&v, q, &tags, pool, &self.gate, ticket));
        // At most one search per core computes at a time: 50 threads time-slicing two
        // cores made every search as slow as the slowest; queued, each runs to completion.
        let _permit = self.gate.acquire(ticket);

        // Lexical candidates, best chunk per file (ids only: no stored text is read yet).
        let mut lex: Vec<(String, u64, f32)> = Vec::new();
        if mode != Mode::Dense {
            let qt = self.lexical.query_tokens(query);
            let ids = self.ids.read().map_err(|_| IndexError::Poisoned)?;
            let hits = self.lexical.search_ids(&qt, &tags, pool)?;
            for (score, id) in hits {
                if let Some(k) = ids.get(&id) {
                    if !lex.iter().any(|(x, _, _)| x.as_str() == &**k) {
                        lex.push((k.to_string(), id, score));
                    }
                }
            }
        }
        let bm25_max = lex.first().map(|x| x.2).unwrap_or(1.0).max(1e-6);

        // Dense candidates, weighted by how much of the query the embedder can represent.
        let mut dense: Vec<(String, u64, f32)> = Vec::new();
        if let Some(found) = found {
            match found {
                Ok(found) => {
                    let ids = self.ids.read().map_err(|_| IndexError::Poisoned)?;
                    for (id, s) in found {
                        if let Some(k) = ids.get(&id) {
                            if !dense.iter().any(|(x, _, _)| x.as_str() == &**k) {
                                dense.push((k.to_string(), id, s));
                            }
                        }
                    }
                }
                // Chroma gone: lexical only.
                Err(err) => tracing::warn!("dense search skipped: {err}"),
            }
        }
        self.fuse(query, &simple, lex, bm25_max, dense, wd, &tags, top_k, mode)
    }

    #[allow(clippy::too_many_arguments)]
    fn fuse(
        &self,
        query: &str,
        simple: &[String],
        lex: Vec<(String, u64, f32)>,
        bm25_max: f32,
        dense: Vec<(String, u64, f32)>,
        wd: f32,
        tags: &[String],
        top_k: usize,
        mode: Mode,
    ) -> Result<Vec<Hit>, IndexError> {
        struct Cand {
            key: String,
            rrf: f32,
            fname: f32,
            bm25: Option<f32>,
            lexical: Option<f32>,
            dense: Option<f32>,
            chunk: u64,
            abs: f32,
        }
        let mut cands: HashMap<String, Cand> = HashMap::new();
        let blank = |k: &str| Cand {
            key: k.to_string(),
            rrf: 0.0,
            fname: 0.0,
            bm25: None,
            lexical: None,
            dense: None,
            chunk: chunk_id(k, 0),
            abs: 0.0,
        };
        let catalog = self.read_catalog()?;
        for (r, (k, id, score)) in lex.into_iter().enumerate() {
            let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
            e.rrf += rank::rrf(1.0, r);
            e.bm25 = Some(score);
            e.chunk = id;
        }
        for (r, (k, id, cos)) in dense.into_iter().enumerate() {
            let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
            e.rrf += rank::rrf(wd, r);
            e.dense = Some(rank::dense_evidence(cos) * wd.min(1.0));
            if e.bm25.is_none() {
                e.chunk = id;
            }
        }
        if mode != Mode::Dense {
            let mut fnames: Vec<(String, f32)> = catalog
                .values()
                .filter(|e| tags.contains(&e.tag))
                .map(|e| {
                    (
                        e.key.clone(),
                        rank::filename_score(&e.filename, query, simple),
                    )
                })
                .filter(|(_, s)| *s >= 0.3)
                .collect();
            fnames.sort_by(|a, b| b.1.total_cmp(&a.1));
            fnames.truncate(50);
            for (r, (k, s)) in fnames.into_iter().enumerate() {
                let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
                // A file-name match outranks content: `config.yaml` finds that file first.
                e.rrf += rank::rrf(3.0 * s, r);
                e.fname = s;
            }
        }
        let mut order: Vec<Cand> = cands
            .into_values()
            .filter(|c| catalog.contains_key(&c.key))
            .collect();
        order.sort_by(|a, b| b.rrf.total_cmp(&a.rrf).then_with(|| a.key.cmp(&b.key)));
        // The similarity (and the threshold) needs each candidate's chunk text: read it for
        // candidates in rank order, a batch at a time, until `top_k` pass and no candidate
        // with the same fused score as the last one is left unread (ties order by
        // similarity). Usually one batch: a handful of stored documents, not hundreds.
        let mut texts: HashMap<u64, ChunkDoc> = HashMap::new();
        let mut kept: Vec<Cand> = Vec::new();
        let mut rest = order.into_iter().peekable();
        let batch = (top_k * 2).max(8);
        loop {
            let mut next: Vec<Cand> = Vec::new();
            while let Some(c) =
                rest.next_if(|c| next.len() < batch || next.last().is_some_and(|l| l.rrf == c.rrf))
            {
                next.push(c);
            }
            if next.is_empty() {
                break;
            }
            let want: Vec<u64> = next
                .iter()
                .map(|c| c.chunk)
                .filter(|id| !texts.contains_key(id))
                .collect();
            for c in self.lexical.chunks_by_id(&want)? {
                texts.insert(c.chunk_id, c);
            }
            for mut c in next {
                if let Some(score) = c.bm25 {
                    let cov = texts
                        .get(&c.chunk)
                        .map(|ch| rank::coverage(&ch.text.to_lowercase(), simple))
                        .unwrap_or(0.0);
                    c.lexical = Some(0.9 * cov * (0.7 + 0.3 * (score / bm25_max).min(1.0)));
                }
                let l = c.lexical.unwrap_or(0.0);
                let d = c.dense.unwrap_or(0.0);
                let content = l.max(d) + 0.15 * l.min(d);
                c.abs = c.fname.max(content).min(1.0);
                if c.abs >= self.cfg.threshold {
                    kept.push(c);
                }
            }
            let last_rrf = kept.last().map(|c| c.rrf);
            if kept.len() >= top_k && rest.peek().map(|c| Some(c.rrf) != last_rrf).unwrap_or(true) {
                break;
            }
        }
        kept.sort_by(|a, b| {
            b.rrf
                .total_cmp(&a.rrf)
                .then_with(|| b.abs.total_cmp(&a.abs))
                .then_with(|| a.key.cmp(&b.key))
        });
        kept.truncate(top_k);
        let mut out = Vec::with_capacity(kept.len());
        let mut cap = 1.0f32;
        for c in kept {
            let Some(entry) = catalog.get(&c.key) else {
                continue;
            };
            let (text, a, b) = match texts.get(&c.chunk) {
                Some(ch) => rank::snippet(&ch.text, ch.first_line, simple, 200),
                None => (String::new(), 1, 1),
            };
            let content = c.lexical.unwrap_or(0.0).max(c.dense.unwrap_or(0.0));
            let match_type = if c.fname >= content && c.fname > 0.0 {
                "filename"
            } else if c.lexical.is_some() && c.dense.is_some() {
                "hybrid"
            } else if c.dense.is_some() {
                "semantic"
            } else {
                "lexical"
            };
            // Shown similarities never increase down the list.
            let sim = c.abs.min(cap);
            cap = sim;
            out.push(Hit {
                key: c.key.clone(),
                filename: entry.filename.clone(),
                filepath: entry.path.clone(),
                similarity: (sim * 1000.0).round() / 1000.0,
                chunk: text,
                position: format!("lines {a}-{b}"),
                match_type: match_type.into(),
                file_id: entry.file_id.clone(),
            });
        }
        Ok(out)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.dirty.load(Ordering::SeqCst) {
            let _ = self.save();
        }
        self.queue.stop.store(true, Ordering::Relaxed);
        self.queue.cv.notify_all();
    }
}

/// Reads a catalog-independent path's modification time in seconds (0 if unknown).
pub fn mtime_secs(p: &Path) -> u64 {
    std::fs::metadata(p)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests;
