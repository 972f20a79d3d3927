//! The background embedding worker: a queue of files waiting for vectors, the engine's
//! own `llmops-embed` thread, per-file progress, batches retried with backoff, the backlog
//! shown in status, and `wait_idle`.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

use super::catalog::Entry;
use super::{Dense, Engine, State};
use crate::embed::{Embedder, InputKind};
use crate::IndexError;

pub(super) struct Queue {
    pub(super) keys: Mutex<VecDeque<String>>,
    pub(super) cv: Condvar,
    pub(super) stop: AtomicBool,
    /// Files being embedded right now (for `wait_idle`).
    pub(super) busy: AtomicU64,
}

impl Queue {
    pub(super) fn new() -> Queue {
        Queue {
            keys: Mutex::new(VecDeque::new()),
            cv: Condvar::new(),
            stop: AtomicBool::new(false),
            busy: AtomicU64::new(0),
        }
    }
}

impl Engine {
    /// Chunks waiting for their vectors.
    pub(super) fn backlog(&self) -> u64 {
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

    pub(super) fn enqueue(&self, key: &str) {
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

    pub(super) fn spawn_worker(engine: &Arc<Engine>) -> Result<(), IndexError> {
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
                    let keys = engine.small_files_with(key);
                    if keys.len() == 1 {
                        engine.embed_file(&keys[0]);
                    } else {
                        engine.embed_small_files(&keys);
                    }
                }
                queue.busy.fetch_sub(1, Ordering::SeqCst);
            })?;
        Ok(())
    }

    /// One passage batch, retried with exponential backoff (an endpoint's 500 or 429 is
    /// usually gone a moment later). Each retry is visible: an `embedding` state whose
    /// detail says why and when. Gives up early when the file was replaced or deleted.
    pub(super) fn embed_with_retry(
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

    /// `key` and, when it has fewer chunks than one batch, the queued files after it that
    /// fit in the same batch (taken off the queue): embedded in one call, the model runs
    /// their chunks in parallel instead of one small call per file. Keys that do not fit
    /// go back to the front of the queue in their order.
    fn small_files_with(&self, key: String) -> Vec<String> {
        let Some(Dense { embedder, .. }) = self.dense() else {
            return vec![key];
        };
        let batch = embedder.batch_size().max(1);
        let chunks_of = |k: &str| -> usize {
            self.read_catalog()
                .ok()
                .and_then(|c| c.get(k).map(|e| e.chunks as usize))
                .unwrap_or(usize::MAX)
        };
        let mut total = chunks_of(&key);
        if total >= batch {
            return vec![key];
        }
        // Candidates are taken under the queue lock; the catalog is read without it.
        let candidates: Vec<String> = match self.queue.keys.lock() {
            Ok(mut q) => {
                let n = q.len().min(batch - 1);
                q.drain(..n).collect()
            }
            Err(_) => return vec![key],
        };
        let mut keys = vec![key];
        let mut back = vec![];
        for k in candidates {
            let c = chunks_of(&k);
            if back.is_empty() && total.saturating_add(c) <= batch {
                total += c;
                keys.push(k);
            } else {
                back.push(k);
            }
        }
        if let Ok(mut q) = self.queue.keys.lock() {
            for k in back.into_iter().rev() {
                q.push_front(k);
            }
        }
        keys
    }

    /// Several small files (together at most one batch of chunks) embedded in one call.
    /// Any failure (the call, a file replaced meanwhile, a store write) falls back to
    /// `embed_file` for the files concerned, which retries and reports per file.
    fn embed_small_files(&self, keys: &[String]) {
        let Some(Dense { embedder, vectors }) = self.dense() else {
            return;
        };
        let mut files = vec![];
        for key in keys {
            let entry = self.read_catalog().ok().and_then(|c| c.get(key).cloned());
            match (entry, self.lexical.chunks_of(key)) {
                (Some(entry), Ok(chunks)) => files.push((entry, chunks)),
                (Some(_), Err(_)) => self.embed_file(key),
                (None, _) => {}
            }
        }
        let texts: Vec<&str> = files
            .iter()
            .flat_map(|(_, ch)| ch.iter().map(|c| c.text.as_str()))
            .collect();
        let Some((first, _)) = files.first() else {
            return;
        };
        for (entry, ch) in &files {
            self.emit(Self::progress_of(
                entry,
                State::Embedding,
                0,
                ch.len() as u64,
                None,
            ));
        }
        let all = texts.len() as u64;
        let Ok(vecs) = self.embed_with_retry(&embedder, &texts, first, 0, all) else {
            for (entry, _) in &files {
                self.embed_file(&entry.key);
            }
            return;
        };
        let mut vecs = vecs.into_iter();
        let fp = embedder.fingerprint();
        for (entry, chunks) in &files {
            let items: Vec<(u64, String, Vec<f32>)> = chunks
                .iter()
                .zip(vecs.by_ref())
                .map(|(c, v)| (c.chunk_id, c.tag.clone(), v))
                .collect();
            let stored: Result<bool, IndexError> = (|| {
                let _g = self.vec_lock.lock().map_err(|_| IndexError::Poisoned)?;
                if !self.current(&entry.key, entry.generation) {
                    return Ok(false);
                }
                vectors.upsert(&items)?;
                Ok(true)
            })();
            match stored {
                Ok(true) => self.mark_embedded(entry, &fp),
                // Replaced or deleted meanwhile: its new version is queued on its own.
                Ok(false) => {}
                Err(e) => {
                    tracing::info!("embedding {} with others: {e}; alone now", entry.filename);
                    self.embed_file(&entry.key);
                }
            }
        }
    }

    /// Records that `entry`'s vectors are stored (unless it was replaced meanwhile) and
    /// says so.
    fn mark_embedded(&self, entry: &Entry, fp: &str) {
        let total = entry.chunks as u64;
        let ok = self
            .write_catalog()
            .ok()
            .and_then(|mut c| {
                c.get_mut(&entry.key)
                    .filter(|e| e.generation == entry.generation)
                    .map(|e| e.embedded = Some(fp.to_string()))
            })
            .is_some();
        if ok {
            if let Err(e) = self.save_debounced_or_idle() {
                tracing::warn!("cannot save the index catalog: {e}");
            }
            self.emit(Self::progress_of(entry, State::Ready, total, total, None));
        }
    }

    pub(super) fn current(&self, key: &str, generation: u64) -> bool {
        self.read_catalog()
            .map(|c| c.get(key).is_some_and(|e| e.generation == generation))
            .unwrap_or(false)
    }

    pub(super) fn embed_file(&self, key: &str) {
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
            Ok(()) => self.mark_embedded(&entry, &fp),
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
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::super::{EngineConfig, Mode, Scope};
    use super::*;
    use crate::embed::HashEmbedder;
    use crate::vectors::{InProcessStore, VectorStore};

    /// The hash embedder, recording each call's size; its first call waits for `release`
    /// after saying it started, so the test can queue files while the worker is busy.
    struct Gated {
        inner: HashEmbedder,
        calls: Mutex<Vec<usize>>,
        started: Mutex<Option<mpsc::Sender<()>>>,
        release: Mutex<Option<mpsc::Receiver<()>>>,
    }

    impl Embedder for Gated {
        fn fingerprint(&self) -> String {
            self.inner.fingerprint()
        }
        fn dim(&self) -> usize {
            self.inner.dim
        }
        fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
            if kind == InputKind::Passage {
                if let Some(tx) = self.started.lock().expect("lock").take() {
                    tx.send(()).expect("test waits");
                    let rx = self.release.lock().expect("lock").take().expect("gate");
                    rx.recv().expect("test releases");
                }
                self.calls.lock().expect("lock").push(texts.len());
            }
            self.inner.embed(texts, kind)
        }
    }

    #[test]
    fn index_worker_batches_small_files_in_one_call() {
        let d = tempfile::tempdir().expect("tmp");
        let (started_tx, started_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel();
        let emb = Arc::new(Gated {
            inner: HashEmbedder { dim: 64 },
            calls: Mutex::new(vec![]),
            started: Mutex::new(Some(started_tx)),
            release: Mutex::new(Some(release_rx)),
        });
        let store: Arc<dyn VectorStore> =
            Arc::new(InProcessStore::open(&d.path().join("vectors"), 64).expect("store"));
        let e = Engine::open(
            EngineConfig::new(d.path().join("index")),
            Some((emb.clone() as Arc<dyn Embedder>, store)),
            None,
        )
        .expect("open");
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
        let up = |i: usize| {
            let w = words[i];
            e.index_upload(
                "s",
                &format!("f{i}"),
                &format!("{w}.txt"),
                &format!("/u/{w}.txt"),
                &format!("sha{i}"),
                format!("{w} {w} {w} service notes"),
            )
            .expect("index");
        };
        up(0);
        started_rx.recv().expect("worker started on the first file");
        for i in 1..words.len() {
            up(i);
        }
        release_tx.send(()).expect("release");
        assert!(e.wait_idle(Duration::from_secs(30)));
        // The five files queued behind the first one went to the model in one call.
        assert_eq!(*emb.calls.lock().expect("lock"), vec![1, 5]);
        assert_eq!(e.backlog(), 0);
        let catalog = e.read_catalog().expect("catalog");
        assert!(catalog.values().all(|x| x.embedded.is_some()));
        drop(catalog);
        // Each file's vectors are its own: a dense search for its word finds it first.
        for w in words {
            let hits = e
                .search("s", w, Scope::Uploads, 3, Mode::Dense)
                .expect("search");
            assert_eq!(hits[0].filename, format!("{w}.txt"));
        }
    }
}
