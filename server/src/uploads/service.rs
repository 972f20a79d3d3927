//! The uploads service: what happens to a file once its bytes are in, whatever the
//! transport (NPLT frames or RDT): verify and record it, audit it, index it; delete it with
//! its files and index entries; audit refusals.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use llmops_tools::audit::{Audit, AuditOp};
use protocol::Message;
use tokio::sync::mpsc;

use super::{InFlight, Incoming, TempBudget, UploadError};
use crate::index::IndexHandle;
use crate::store::{Store, UploadRow, UploadState};

/// Uploads lexically indexed at once. Indexing holds a file's whole text and its tokens
/// (tens of MB for a 9 MB log); unbounded, 30 concurrent 9 MB uploads peaked at 1.27 GB.
/// Later uploads wait their turn, already saved. One at a time: the lexical writer is one
/// lock anyway, so a second turn only overlapped the chunking and doubled the peak.
pub const CONCURRENT_INDEXING: usize = 1;

/// How long UPLOAD_LOOKUP waits for an upload of the same content still in flight on another
/// connection (its last bytes being read or its row committed). Under the client's 30 s
/// request timeout.
pub const LOOKUP_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// Uploads on disk, in the store and in the index. Cheap to clone.
#[derive(Clone)]
pub struct Uploads {
    store: Store,
    audit: Audit,
    index: Option<Arc<IndexHandle>>,
    dir: PathBuf,
    /// Turns to index (`CONCURRENT_INDEXING`).
    indexing: Arc<tokio::sync::Semaphore>,
    /// Uploads announcing a sha256, from their start until saved or dropped.
    in_flight: InFlight,
    /// Temp space of uploads in progress, and the free-space floor.
    budget: TempBudget,
}

impl Uploads {
    pub fn new(
        store: Store,
        audit: Audit,
        index: Option<Arc<IndexHandle>>,
        dir: PathBuf,
        budget: TempBudget,
    ) -> Self {
        Self {
            store,
            audit,
            index,
            dir,
            indexing: Arc::new(tokio::sync::Semaphore::new(CONCURRENT_INDEXING)),
            in_flight: InFlight::default(),
            budget,
        }
    }

    /// The temp-space budget uploads reserve their announced size from at their start.
    pub fn budget(&self) -> &TempBudget {
        &self.budget
    }

    /// The uploads root.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The one way an upload ends, whether its bytes came in NPLT frames or over RDT: verify
    /// (sha256, text), rename into place, record, audit and index. Refusals are audited and the
    /// temp file is gone.
    pub async fn complete(
        &self,
        session_id: &str,
        inc: Incoming,
        push: Option<tokio::sync::mpsc::Sender<protocol::Message>>,
    ) -> Result<UploadRow, UploadError> {
        let row = self.save(session_id, inc).await?;
        Ok(self.after_upload(row, push).await)
    }

    /// The first half of [`complete`](Self::complete): verify (sha256, text), rename into
    /// place and record. When this returns `Ok` the file is durable (file and folder
    /// fsync'd, row committed) in state `saved`; [`after_upload`](Self::after_upload) audits
    /// and indexes it. Refusals are audited and the temp file is gone.
    pub async fn save(&self, session_id: &str, inc: Incoming) -> Result<UploadRow, UploadError> {
        let filename = inc.filename.clone();
        if let Some(hold) = fault_before_save() {
            tokio::time::sleep(hold).await;
        }
        let row = inc
            .finish(&self.dir, &self.store, session_id)
            .await
            .inspect_err(|e| self.audit_refused(session_id, &filename, e))?;
        if let Some(hold) = fault_after_save() {
            tokio::time::sleep(hold).await;
        }
        Ok(row)
    }

    /// Marks an upload of `session_id` that announced its sha256 as in flight until it is
    /// saved or dropped.
    pub fn track(&self, session_id: &str, inc: &mut Incoming) {
        if let Some(sha) = inc.expected_sha256.clone() {
            inc.track(self.in_flight.start(session_id, &sha));
        }
    }

    /// This session's uploads whose content has `sha256`, oldest first (UPLOAD_LOOKUP), once
    /// no upload of that content is in flight for the session (waiting at most `wait`), and
    /// how many still are.
    pub async fn with_sha256(
        &self,
        session_id: &str,
        sha256: &str,
        wait: std::time::Duration,
    ) -> Result<(Vec<UploadRow>, usize), crate::store::StoreError> {
        let pending = self.in_flight.settled(session_id, sha256, wait).await;
        let (sid, sha) = (session_id.to_string(), sha256.trim().to_ascii_lowercase());
        let rows = self.store.run(move |s| s.list_uploads(&sid)).await?;
        // `list_uploads` is in upload order already.
        Ok((
            rows.into_iter().filter(|u| u.sha256 == sha).collect(),
            pending,
        ))
    }

    /// Called once an upload is on disk and recorded: audit, and make it searchable (indexed
    /// lexically before this returns; dense embedding continues in the background and its
    /// states are pushed to `push`, the uploader's connection, when given).
    pub async fn after_upload(
        &self,
        mut row: UploadRow,
        push: Option<mpsc::Sender<Message>>,
    ) -> UploadRow {
        let size = row.size.to_string();
        self.audit.record(
            AuditOp::Upload,
            &[
                ("session", row.session_id.as_str()),
                ("file_id", row.file_id.as_str()),
                ("filename", row.filename.as_str()),
                ("size", size.as_str()),
                ("sha256", row.sha256.as_str()),
            ],
        );
        if let Some(hold) = fault_before_index() {
            tokio::time::sleep(hold).await;
        }
        if let Some(h) = &self.index {
            // Indexes and records the state itself (ordered against the embedding thread).
            let (h, r) = (h.clone(), row.clone());
            // The semaphore is never closed, so a permit always comes.
            let permit = self.indexing.clone().acquire_owned().await;
            let (state, detail) = tokio::task::spawn_blocking(move || {
                let res = h.index_upload(&r, push);
                drop(permit);
                // The text and tokens just freed sit in this thread's arena: give them back.
                crate::memory::trim();
                res
            })
            .await
            .unwrap_or_else(|_| (UploadState::Failed, Some("indexing panicked".into())));
            row.state = state;
            row.detail = detail;
            return row;
        }
        // Raw-text search reads the file directly: searchable as soon as it is saved.
        let (state, detail) = (UploadState::Indexed, None::<String>);
        let id = row.file_id.clone();
        let d = detail.clone();
        if self
            .store
            .run(move |s| s.set_upload_state(&id, state, d.as_deref()))
            .await
            .is_ok()
        {
            row.state = state;
            row.detail = detail;
        }
        row
    }

    pub async fn remove_files(&self, row: &UploadRow) {
        let dir = self.dir.join(&row.file_id);
        // Only ever delete inside the uploads root, whatever the database says.
        if dir.starts_with(&self.dir) && row.file_id.chars().all(|c| c.is_ascii_alphanumeric()) {
            super::removed(tokio::fs::remove_dir_all(&dir).await, &dir);
        }
    }

    pub async fn delete(&self, row: &UploadRow) -> Result<(), String> {
        let id = row.file_id.clone();
        self.store
            .run(move |s| s.delete_upload(&id))
            .await
            .map_err(|e| e.to_string())?;
        if let Some(h) = &self.index {
            let (h, r) = (h.clone(), row.clone());
            let res = tokio::task::spawn_blocking(move || {
                let res = h.remove_upload(&r);
                // The file's share of the catalog and reader caches was freed here.
                crate::memory::trim();
                res
            })
            .await
            .unwrap_or_else(|_| Err("index removal panicked".into()));
            if let Err(e) = res {
                tracing::warn!("cannot remove {} from the index: {e}", row.file_id);
            }
        }
        self.remove_files(row).await;
        // Space was freed: make the reserve again if a full disk used it.
        let store = self.store.clone();
        if let Err(e) = tokio::task::spawn_blocking(move || store.restore_reserve()).await {
            tracing::warn!("restoring the disk reserve failed: {e}");
        }
        self.audit.record(
            AuditOp::Upload,
            &[
                ("action", "delete"),
                ("file_id", row.file_id.as_str()),
                ("filename", row.filename.as_str()),
            ],
        );
        Ok(())
    }

    pub fn audit_refused(&self, session_id: &str, filename: &str, e: &UploadError) {
        let reason = e.to_string();
        self.audit.record(
            AuditOp::Deny,
            &[
                ("action", "upload"),
                ("session", session_id),
                ("filename", filename),
                ("reason", reason.as_str()),
            ],
        );
    }
}

/// Fault points for the crash tests and `make chaos` (unset in production), each read once:
/// `LLMOPS_FAULT_AFTER_SAVE_MS` holds a saved upload this long after its row is committed,
/// before its result is sent and before indexing starts (the window in which a retry could duplicate it);
/// `LLMOPS_FAULT_BEFORE_SAVE_MS` holds a fully received upload before it is verified and
/// committed (a lookup from another connection must wait for it).
fn fault_hold(
    var: &'static str,
    cell: &'static std::sync::OnceLock<Option<std::time::Duration>>,
) -> Option<std::time::Duration> {
    *cell.get_or_init(|| {
        let ms: u64 = std::env::var(var).ok()?.parse().ok()?;
        tracing::warn!(ms, var, "fault point on: uploads are held while saving");
        Some(std::time::Duration::from_millis(ms))
    })
}

fn fault_after_save() -> Option<std::time::Duration> {
    static HOLD: std::sync::OnceLock<Option<std::time::Duration>> = std::sync::OnceLock::new();
    fault_hold("LLMOPS_FAULT_AFTER_SAVE_MS", &HOLD)
}

/// Holds a saved upload before its indexing (a crash there leaves it `saved` for the
/// start-up catch-up, while its client waits for the index).
fn fault_before_index() -> Option<std::time::Duration> {
    static HOLD: std::sync::OnceLock<Option<std::time::Duration>> = std::sync::OnceLock::new();
    fault_hold("LLMOPS_FAULT_BEFORE_INDEX_MS", &HOLD)
}

fn fault_before_save() -> Option<std::time::Duration> {
    static HOLD: std::sync::OnceLock<Option<std::time::Duration>> = std::sync::OnceLock::new();
    fault_hold("LLMOPS_FAULT_BEFORE_SAVE_MS", &HOLD)
}
