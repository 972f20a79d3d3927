//! An offer's life as the server records it: created from a tool result (or a download
//! request), its transfer's outcome written to the store and the audit log, and the
//! TRANSFER_COMPLETE report sent to the session. Transport-independent: the NPLT, RDT and
//! HTTP senders all end here.

use std::path::{Path, PathBuf};
use std::time::Duration;

use llmops_tools::audit::{Audit, AuditOp};
use protocol::{Message, TransferComplete};

use super::grants::{Grant, Transfers};
use crate::store::{now_rfc3339, OfferRow, OfferState, Store};
use llmops_common::TransferMode;

/// Offers expire after this long.
pub const OFFER_TTL_SECS: u64 = 600;

/// What a new offer is for: the file as a tool (or a request) found it.
#[derive(Debug, Clone)]
pub struct OfferFile<'a> {
    pub path: &'a str,
    pub filename: &'a str,
    pub size: u64,
    pub sha256: &'a str,
    /// Transport the client should use.
    pub mode: TransferMode,
}

/// Where offers are recorded: their rows in the store and the audit log. Cheap to clone.
#[derive(Clone)]
pub struct OfferBook {
    store: Store,
    audit: Audit,
    uploads_dir: PathBuf,
}

impl OfferBook {
    pub fn new(store: Store, audit: Audit, uploads_dir: PathBuf) -> Self {
        Self {
            store,
            audit,
            uploads_dir,
        }
    }

    /// Builds a pending offer; the file id is set when the path is an upload.
    pub fn new_offer(
        &self,
        session_id: &str,
        file: OfferFile<'_>,
        request_id: Option<u64>,
        tool_call: Option<String>,
    ) -> OfferRow {
        new_offer(&self.uploads_dir, session_id, file, request_id, tool_call)
    }

    /// Records a new offer; the client is told about it only once this succeeded.
    pub async fn insert(&self, row: &OfferRow) -> Result<(), crate::store::StoreError> {
        let r = row.clone();
        self.store.run(move |s| s.insert_offer(&r)).await
    }

    /// A client's completion report, recorded in the audit log.
    pub fn reported(&self, session_id: &str, c: &TransferComplete) {
        let bytes = c.bytes.to_string();
        let ok = c.ok.to_string();
        self.audit.record(
            AuditOp::DownloadDone,
            &[
                ("session", session_id),
                ("offer", c.offer_id.as_str()),
                ("side", c.side.as_str()),
                ("ok", ok.as_str()),
                ("bytes", bytes.as_str()),
                ("sha256", c.sha256.as_str()),
                ("error", c.error.as_deref().unwrap_or("")),
            ],
        );
    }

    /// The end of a transfer as the server records it: offer state, audit line
    /// (DOWNLOAD_DONE, side server), and the report to send to the session.
    #[allow(clippy::too_many_arguments)]
    pub async fn record_outcome(
        &self,
        offer: &OfferRow,
        session_id: &str,
        ok: bool,
        bytes: u64,
        sha256: String,
        error: Option<String>,
    ) -> TransferComplete {
        let state = if ok {
            OfferState::Transferred
        } else {
            OfferState::Failed
        };
        let id = offer.offer_id.clone();
        let err = error.clone();
        let res = self
            .store
            .run(move |s| s.set_offer_state(&id, state, err.as_deref()))
            .await;
        crate::store::log_unsaved(res, session_id, &format!("offer state `{state}`"));
        let report = TransferComplete {
            offer_id: offer.offer_id.clone(),
            ok,
            bytes,
            sha256,
            side: "server".into(),
            error,
        };
        self.reported(session_id, &report);
        report
    }

    /// Records the end of an RDT or HTTP transfer attempt: offer state, audit line
    /// (DOWNLOAD_DONE, side server) and TRANSFER_COMPLETE to the session. An attempt that a
    /// retry superseded reports nothing (the client is already on the new attempt).
    pub async fn finish(
        &self,
        transfers: &Transfers,
        g: &Grant,
        ok: bool,
        bytes: u64,
        error: Option<String>,
    ) {
        let offer = &g.offer;
        if transfers.superseded(&offer.offer_id, g.attempt) {
            return;
        }
        transfers.end_attempt(&offer.offer_id, g.attempt);
        // The server sends what it hashed when offering (and checked the size at open); the
        // client verifies the bytes it wrote.
        let sha = if ok {
            offer.sha256.clone()
        } else {
            String::new()
        };
        let report = self
            .record_outcome(offer, &g.session_id, ok, bytes, sha, error)
            .await;
        let sent = tokio::time::timeout(
            Duration::from_secs(2),
            g.push.send(Message::TransferComplete(report)),
        )
        .await;
        if !matches!(sent, Ok(Ok(()))) {
            // The outcome is in the store and the audit log; only the live notice is lost.
            tracing::debug!(offer = %offer.offer_id, "transfer report not delivered: session gone or stalled");
        }
    }
}

/// Builds a pending offer; the file id is set when the path is an upload.
pub fn new_offer(
    uploads_dir: &Path,
    session_id: &str,
    file: OfferFile<'_>,
    request_id: Option<u64>,
    tool_call: Option<String>,
) -> OfferRow {
    let file_id = std::path::Path::new(file.path)
        .strip_prefix(uploads_dir)
        .ok()
        .and_then(|rest| rest.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    let now = chrono::Utc::now().timestamp().max(0) as u64;
    OfferRow {
        offer_id: uuid::Uuid::new_v4().simple().to_string(),
        session_id: session_id.to_string(),
        file_id,
        file_path: file.path.to_string(),
        filename: file.filename.to_string(),
        size: file.size,
        sha256: file.sha256.to_string(),
        mode: file.mode,
        state: OfferState::Pending,
        created_at: now_rfc3339(),
        expires_at: now + OFFER_TTL_SECS,
        request_id,
        tool_call,
        reason: None,
    }
}
