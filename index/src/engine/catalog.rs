//! The catalog of indexed files: one entry per file (key, scope tag, names, sha256, stamps,
//! chunk count, embedder fingerprint of its vectors, failure), its atomic and debounced
//! writes, the reconciliation with the lexical index at start, and the chunk id -> file map.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Engine, Progress, State};
use crate::lexical::Lexical;
use crate::{chunk_id, IndexError};

const CATALOG: &str = "catalog.json";

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct Entry {
    pub(super) key: String,
    pub(super) tag: String,
    pub(super) session: Option<String>,
    pub(super) file_id: Option<String>,
    pub(super) filename: String,
    pub(super) path: String,
    pub(super) sha256: String,
    pub(super) mtime: u64,
    pub(super) size: u64,
    pub(super) chunks: u32,
    /// Fingerprint of the embedder whose vectors are stored for this file.
    pub(super) embedded: Option<String>,
    pub(super) failed: Option<String>,
    /// Which analysis indexed the file (`backfill::ANALYSIS`; 0 before key paths).
    #[serde(default)]
    pub(super) analysis: u32,
    #[serde(skip)]
    pub(super) generation: u64,
}

/// The catalog under `dir` reconciled with the lexical index, and the chunk id -> doc key
/// map of every indexed chunk.
pub(super) type Loaded = (BTreeMap<String, Entry>, HashMap<u64, Arc<str>>);

/// Reads the catalog under `dir` and reconciles it with `lexical`.
pub(super) fn load(dir: &Path, lexical: &Lexical) -> Result<Loaded, IndexError> {
    let mut catalog: BTreeMap<String, Entry> = match std::fs::read(dir.join(CATALOG)) {
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
    Ok((catalog, ids))
}

impl Engine {
    pub(super) fn read_catalog(
        &self,
    ) -> Result<std::sync::RwLockReadGuard<'_, BTreeMap<String, Entry>>, IndexError> {
        self.catalog.read().map_err(|_| IndexError::Poisoned)
    }

    pub(super) fn write_catalog(
        &self,
    ) -> Result<std::sync::RwLockWriteGuard<'_, BTreeMap<String, Entry>>, IndexError> {
        self.catalog.write().map_err(|_| IndexError::Poisoned)
    }

    /// Marks the catalog changed and writes it if the last write is a second old: a scan of
    /// thousands of docs must not rewrite the catalog per file. What a crash loses is
    /// redone at start (docs re-scanned, files re-embedded).
    pub(super) fn save_debounced(&self) {
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
    pub(super) fn save_debounced_or_idle(&self) -> Result<(), IndexError> {
        let idle = self.queue.keys.lock().map(|q| q.is_empty()).unwrap_or(true);
        if idle {
            self.save()
        } else {
            self.save_debounced();
            Ok(())
        }
    }

    /// Writes the catalog atomically (temp file + rename).
    pub(super) fn save(&self) -> Result<(), IndexError> {
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

    /// Keys of every indexed file.
    pub fn keys(&self) -> Vec<String> {
        self.read_catalog()
            .map(|c| c.keys().cloned().collect())
            .unwrap_or_default()
    }

    pub fn upload_key(session: &str, sha256: &str) -> String {
        format!("u:{session}:{sha256}")
    }

    pub(super) fn progress_of(
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

    /// Replaces the id map entries of `key`'s `old` chunks with its `new` ones.
    pub(super) fn map_ids(&self, key: &str, old: u32, new: u32) -> Result<(), IndexError> {
        let mut ids = self.ids.write().map_err(|_| IndexError::Poisoned)?;
        for i in new..old {
            ids.remove(&chunk_id(key, i));
        }
        // A map that grew for a large file keeps its table after the file goes: give the
        // memory back once it is mostly empty (deleting a big upload must free its RAM).
        if ids.capacity() > 4096 && ids.len() < ids.capacity() / 4 {
            ids.shrink_to_fit();
        }
        let k: Arc<str> = Arc::from(key);
        for i in 0..new {
            ids.insert(chunk_id(key, i), k.clone());
        }
        Ok(())
    }
}
