//! Server-wide state shared by every connection (`Ctx`) and the glue between sessions and
//! the subsystems: turns, uploads, offers, status and audit helpers.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use protocol::{EndStatus, IndexProgress, Message, Offer, ServerStatus};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::audit::{Audit, AuditOp};
use crate::config::Config;
use crate::store::{OfferRow, Store, UploadRow};
use crate::turn::{stream_pieces, RunningTurn, TurnEvent, TurnOutcome, TurnRequest};
use crate::uploads::UploadError;

/// Extension features this server speaks (sent in WELCOME).
pub const FEATURES: &[&str] = &[
    "fragment",
    "stream",
    "agent_events",
    "sessions",
    "history",
    "models",
    "upload",
    "files",
    "cancel",
    "status",
];

pub struct Ctx {
    pub cfg: Arc<Config>,
    pub store: Store,
    pub audit: Audit,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    pub started: Instant,
    pub connections: AtomicUsize,
}

impl Ctx {
    pub fn new(cfg: Config, store: Store, audit: Audit) -> Ctx {
        Ctx {
            cfg: Arc::new(cfg),
            store,
            audit,
            shutdown: CancellationToken::new(),
            tracker: TaskTracker::new(),
            started: Instant::now(),
            connections: AtomicUsize::new(0),
        }
    }

    pub fn welcome_text(&self, session_id: &str) -> String {
        format!(
            "欢迎使用 llmops 智能运维助手 v{} / Welcome to llmops.\n会话 / session: {}\n规划器 / planner: {}；数据外发 / egress: {}\n输入问题开始对话，例如「CPU使用率是多少？」",
            env!("CARGO_PKG_VERSION"),
            session_id,
            self.planner_name(),
            self.egress()
        )
    }

    pub fn planner_name(&self) -> String {
        "offline".into()
    }

    pub fn default_model(&self) -> String {
        "offline".into()
    }

    pub fn models(&self) -> Vec<String> {
        vec!["offline".into()]
    }

    /// Where data can leave this box: nowhere with the offline planner.
    pub fn egress(&self) -> String {
        "none".into()
    }

    pub fn audit_denial(&self, peer: &SocketAddr, what: &str, reason: &str) {
        let p = peer.to_string();
        self.audit
            .deny(&[("peer", p.as_str()), ("target", what)], reason);
    }

    pub fn audit_upload_refused(&self, session_id: &str, filename: &str, e: &UploadError) {
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

    /// Called once an upload is on disk and recorded: audit, and make it searchable.
    pub async fn after_upload(&self, mut row: UploadRow) -> UploadRow {
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
        // Raw-text search reads the file directly, so it is searchable as soon as it is
        // saved; the index issue replaces this with real lexical indexing.
        let id = row.file_id.clone();
        if self
            .store
            .run(move |s| s.set_upload_state(&id, "indexed", None))
            .await
            .is_ok()
        {
            row.state = "indexed".into();
        }
        row
    }

    pub async fn remove_upload_files(&self, row: &UploadRow) {
        let dir = self.cfg.uploads_dir().join(&row.file_id);
        // Only ever delete inside the uploads root, whatever the database says.
        if dir.starts_with(self.cfg.uploads_dir()) && row.file_id.chars().all(|c| c.is_ascii_alphanumeric()) {
            let _ = tokio::fs::remove_dir_all(&dir).await;
        }
    }

    pub async fn delete_upload(&self, row: &UploadRow) -> Result<(), String> {
        let id = row.file_id.clone();
        self.store
            .run(move |s| s.delete_upload(&id))
            .await
            .map_err(|e| e.to_string())?;
        self.remove_upload_files(row).await;
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

    pub fn status(&self, request_id: u64) -> Message {
        let files = self.store.all_uploads().map(|u| u.len() as u64).unwrap_or(0);
        Message::ServerStatus(ServerStatus {
            request_id,
            server_version: env!("CARGO_PKG_VERSION").into(),
            uptime_secs: self.started.elapsed().as_secs(),
            connections: self.connections.load(Ordering::Relaxed) as u32,
            index: IndexProgress {
                files,
                chunks: 0,
                embedding_backlog: 0,
                mode: "raw-text".into(),
            },
        })
    }

    /// Starts a turn task; the session reads its events.
    pub fn spawn_turn(self: &Arc<Self>, req: TurnRequest) -> RunningTurn {
        let (tx, rx) = mpsc::channel(64);
        let cancel = self.shutdown.child_token();
        let request_id = req.request_id;
        let ctx = self.clone();
        let c = cancel.clone();
        self.tracker.spawn(async move {
            let outcome = run_turn(ctx, req, &tx, c).await;
            let _ = tx.send(TurnEvent::Done(outcome)).await;
        });
        RunningTurn {
            request_id,
            cancel,
            events: rx,
        }
    }
}

/// The turn body until the agent loop is wired in: echoes the message back through the
/// real streaming path and stores both sides in history.
async fn run_turn(
    ctx: Arc<Ctx>,
    req: TurnRequest,
    tx: &mpsc::Sender<TurnEvent>,
    cancel: CancellationToken,
) -> TurnOutcome {
    let sid = req.session_id.clone();
    let text = req.text.clone();
    let _ = ctx
        .store
        .run(move |s| s.append_message(&sid, "user", &text, &[]))
        .await;
    let answer = format!("收到 / received: {}", req.text);
    let _ = tx.send(TurnEvent::AnswerStart).await;
    let mut sent = String::new();
    let mut status = EndStatus::Ok;
    for piece in stream_pieces(&answer) {
        if cancel.is_cancelled() {
            status = EndStatus::Cancelled;
            break;
        }
        sent.push_str(&piece);
        if tx.send(TurnEvent::Delta(piece)).await.is_err() {
            break;
        }
    }
    let sid = req.session_id.clone();
    let stored = sent.clone();
    let _ = ctx
        .store
        .run(move |s| s.append_message(&sid, "assistant", &stored, &[]))
        .await;
    TurnOutcome {
        status,
        message: None,
        answer: sent,
        tool_calls: Vec::new(),
    }
}

pub fn offer_msg(o: &OfferRow) -> Offer {
    Offer {
        offer_id: o.offer_id.clone(),
        file_id: o.file_id.clone(),
        filename: o.filename.clone(),
        size: o.size,
        sha256: o.sha256.clone(),
        expires_at: o.expires_at,
        request_id: o.request_id,
        tool_call: o.tool_call.clone(),
        mode: o.mode.clone(),
    }
}
