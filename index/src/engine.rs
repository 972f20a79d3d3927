//! The index engine: a catalog of indexed files (uploads keyed by session + sha256, system
//! docs by path), the lexical index, the optional embedder and vector store, the background
//! embedding thread with per-file progress, and hybrid search. Blocking API; the embedding
//! thread is the engine's own (never a runtime worker).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use crate::chunker::ChunkerConfig;
use crate::embed::Embedder;
use crate::lexical::Lexical;
use crate::vectors::VectorStore;
use crate::IndexError;

mod backfill;
mod catalog;
mod concurrency;
mod embed_worker;
mod ingest;
mod search;
use catalog::Entry;
use concurrency::{Gate, QueryBatcher, QueryCache, ScanBatcher};
use embed_worker::Queue;
pub use search::AnswerLine;

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

/// One search result: a chunk of a file (several chunks of one file may be returned, up
/// to the per-file cap).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub key: String,
    pub filename: String,
    pub filepath: String,
    pub similarity: f32,
    pub chunk: String,
    /// `lines a-b`: the snippet's line range as the wire shows it.
    pub position: String,
    /// The snippet's 1-based first and last line (what `position` says, as numbers).
    pub lines: (u32, u32),
    /// The chunk's line that answers the question, with the key it sets
    /// (`search::AnswerLine`); none in dense mode or when no line holds the question.
    pub answer: Option<AnswerLine>,
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
    /// Files skipped because another entry of the list is the same file.
    pub duplicates: usize,
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
    /// Most chunks of one file in one result list (`Engine::search`).
    pub per_file: usize,
    /// Query translation (`analyzers/translate.rs`): glossary and dictionary by default.
    pub translator: crate::analyzers::translate::Translator,
    /// Every weight of the ranking (`rank::RankParams`).
    pub rank: crate::rank::RankParams,
}

impl EngineConfig {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        EngineConfig {
            dir: dir.into(),
            threshold: 0.3,
            chunker: ChunkerConfig::default(),
            embed_retries: 3,
            embed_backoff: Duration::from_millis(500),
            per_file: 3,
            translator: Default::default(),
            rank: crate::rank::RankParams::default(),
        }
    }
}
#[derive(Clone)]
struct Dense {
    embedder: Arc<dyn Embedder>,
    vectors: Arc<dyn VectorStore>,
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
        let lexical = Lexical::open(&cfg.dir.join("lexical"))?.with_params(cfg.rank.clone());
        Self::build(cfg, lexical, dense, dense_off)
    }

    fn build(
        cfg: EngineConfig,
        lexical: Lexical,
        dense: Option<DenseParts>,
        dense_off: Option<String>,
    ) -> Result<Arc<Engine>, IndexError> {
        let (catalog, ids) = catalog::load(&cfg.dir, &lexical)?;
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
            queue: Arc::new(Queue::new()),
            current_done: AtomicU64::new(0),
            vec_lock: Mutex::new(()),
            next_gen: AtomicU64::new(1),
            worker_started: AtomicBool::new(false),
        });
        engine.save()?;
        // Older entries get what the current analysis adds; search works either way.
        if let Err(e) = engine.backfill() {
            tracing::warn!("cannot add key paths to older files: {e}");
        }
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

    /// Index housekeeping between requests (blocking): see [`Lexical::housekeep`]. True when
    /// memory or disk was freed since the last call.
    pub fn housekeep(&self) -> Result<bool, IndexError> {
        self.lexical.housekeep()
    }

    /// Segments of the lexical index (each costs every query a little).
    pub fn lexical_segments(&self) -> usize {
        self.lexical.segments()
    }

    pub fn has_dense(&self) -> bool {
        self.dense().is_some()
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
