//! Server-wide state shared by every connection (`Ctx`) and the glue between sessions and
//! the subsystems: turns, uploads, offers, status and audit helpers.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use protocol::{IndexProgress, Message, Offer, ServerStatus};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Config;
use crate::store::{OfferRow, OfferState, Store, UploadRow, UploadState};
use crate::turn::{RunningTurn, TurnEvent, TurnRequest};
use crate::uploads::UploadError;
use llmops_policy::{CommandPolicy, CommandPolicyConfig, PathPolicy};
use llmops_tools::audit::{Audit, AuditOp};
use llmops_tools::{RawTextSearch, Sampler, SamplerHandle, ToolRegistry, UploadCatalog, UploadRef};

/// The session catalog the tools see, read from SQLite.
pub struct StoreCatalog(pub Store);

impl UploadCatalog for StoreCatalog {
    fn list(&self, session_id: &str) -> Vec<UploadRef> {
        self.0
            .list_uploads(session_id)
            .map(|rows| rows.iter().map(crate::agent::run::upload_ref).collect())
            .unwrap_or_default()
    }
}

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
    "monitor",
    "search_events",
    "offers",
    "tool_output",
    "output_pages",
];

pub struct Ctx {
    pub cfg: Arc<Config>,
    pub store: Store,
    pub audit: Audit,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    pub started: Instant,
    pub connections: AtomicUsize,
    pub tools: ToolRegistry,
    pub paths: Arc<PathPolicy>,
    pub commands: Arc<CommandPolicy>,
    pub catalog: Arc<dyn UploadCatalog>,
    pub sampler: SamplerHandle,
    pub search_slots: Arc<tokio::sync::Semaphore>,
    /// The configured LLM; `None`: every turn uses the offline planner. Tests may replace
    /// it before wrapping the `Ctx` in an `Arc`.
    pub llm: Option<crate::llm::LlmBackend>,
    /// Per-session LLM failure counts and offline cool-downs.
    pub llm_health: Arc<crate::llm::LlmHealth>,
    /// Download grants (RDT/HTTP tokens), transfer attempts and transfer counters.
    pub transfers: Arc<crate::rdt::Transfers>,
    /// Whole tool outputs per session, for paging (OUTPUT_GET).
    pub outputs: llmops_tools::outputs::OutputStore,
    /// The document index; None when it could not open (search falls back to raw text).
    pub index: Option<Arc<crate::index::IndexHandle>>,
    /// Memory all NPLT connections together may hold for fragment reassembly.
    pub reassembly: Arc<protocol::ByteBudget>,
    /// Returns freed memory to the OS after connections close (see memory.rs).
    pub trimmer: Arc<crate::memory::Trimmer>,
}

impl Ctx {
    /// Builds the shared state; needs a tokio runtime (starts the system sampler).
    pub fn new(cfg: Config, store: Store, audit: Audit) -> Ctx {
        let mut docs = vec![];
        for d in &cfg.docs {
            // Canonical doc roots, so policy and search agree on what a doc path is.
            docs.push(std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()));
        }
        // The built-in manual as a real file, so its search hits can be read and offered.
        let builtin = crate::index::builtin_docs_dir(&cfg);
        if let Err(e) = crate::index::materialize_builtin_docs(&builtin) {
            tracing::warn!(
                "built-in docs not written to {} ({e}); their hits cannot be opened",
                builtin.display()
            );
        }
        let mut path_cfg = cfg.path_policy_config(&docs);
        path_cfg
            .allow
            .push(std::fs::canonicalize(&builtin).unwrap_or(builtin));
        let paths = Arc::new(PathPolicy::new(&path_cfg));
        let commands = Arc::new(CommandPolicy::new(CommandPolicyConfig::with_defaults(
            &cfg.data_dir,
        )));
        let catalog: Arc<dyn UploadCatalog> = Arc::new(StoreCatalog(store.clone()));
        // The index opens quickly (lexical only); the embedder loads in the background.
        let opened =
            crate::index::IndexHandle::open(&cfg, store.clone(), docs.clone(), paths.clone());
        let index = match opened {
            Ok(h) => Some(h),
            Err(e) => {
                tracing::warn!("index unavailable ({e}); search falls back to raw text");
                None
            }
        };
        let search: Arc<dyn llmops_tools::SearchBackend> = match &index {
            Some(h) => Arc::new(crate::index::IndexSearch(h.clone())),
            None => Arc::new(RawTextSearch::new(
                catalog.clone(),
                docs,
                paths.clone(),
                Some(cfg.uploads_dir()),
            )),
        };
        let sampler = Sampler::spawn(std::time::Duration::from_secs(1));
        let mut tools = ToolRegistry::standard(sampler.clone(), search);
        // file_read carries the analyze cap of local files (uploads are analysed whole).
        tools.register(Arc::new(llmops_tools::FileReadTool::new(
            cfg.analyze_max_bytes,
        )));
        let max_searches = cfg.max_concurrent_searches.max(1);
        let llm = cfg.llm.as_ref().and_then(|s| {
            crate::llm::LlmBackend::from_settings(s)
                .map_err(|e| tracing::error!("LLM disabled, offline planner only: {e}"))
                .ok()
        });
        if let Some(b) = &llm {
            tracing::info!(provider = %b.provider, model = %b.default_model, egress = %b.egress, "llm configured");
        }
        Ctx {
            outputs: llmops_tools::outputs::OutputStore::new(&cfg.data_dir),
            reassembly: protocol::ByteBudget::new(cfg.reassembly_budget_bytes),
            trimmer: Arc::default(),
            cfg: Arc::new(cfg),
            store,
            audit,
            shutdown: CancellationToken::new(),
            tracker: TaskTracker::new(),
            started: Instant::now(),
            connections: AtomicUsize::new(0),
            tools,
            paths,
            commands,
            catalog,
            sampler,
            search_slots: Arc::new(tokio::sync::Semaphore::new(max_searches)),
            llm,
            llm_health: Arc::new(crate::llm::LlmHealth::default()),
            transfers: Arc::new(crate::rdt::Transfers::default()),
            index,
        }
    }

    /// Tool context for requests made outside a turn (search, download requests).
    pub fn tool_ctx(&self, session_id: &str) -> llmops_tools::ToolCtx {
        llmops_tools::ToolCtx {
            session_id: session_id.to_string(),
            paths: self.paths.clone(),
            commands: self.commands.clone(),
            audit: self.audit.clone(),
            data_dir: self.cfg.data_dir.clone(),
            cancel: self.shutdown.child_token(),
            uploads: self.catalog.clone(),
            live: llmops_tools::LiveSink::none(),
            budget: llmops_tools::TimeBudget::default(),
            follow: self.cfg.follow_limits(),
        }
    }

    /// A client's completion report, recorded in the audit log.
    pub fn transfer_reported(&self, session_id: &str, c: &protocol::TransferComplete) {
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

    pub fn welcome_text(&self, session_id: &str) -> String {
        let egress_note = match &self.llm {
            Some(_) => "（对话内容会发送到该服务 / conversation text is sent there）",
            None => "",
        };
        format!(
            "欢迎使用 llmops 智能运维助手 v{} / Welcome to llmops.\n会话 / session: {}\n规划器 / planner: {}（默认模型 / default model: {}）；数据外发 / egress: {}{}\n输入问题开始对话，例如「CPU使用率是多少？」；/model 切换模型 / switch models",
            env!("CARGO_PKG_VERSION"),
            session_id,
            self.planner_name(),
            self.default_model(),
            self.egress(),
            egress_note
        )
    }

    /// `offline`, or the LLM provider's name (`zhipu`).
    pub fn planner_name(&self) -> String {
        self.llm
            .as_ref()
            .map_or_else(|| "offline".into(), |b| b.provider.clone())
    }

    /// The provider's default model when an LLM is configured, else `offline`.
    pub fn default_model(&self) -> String {
        self.llm
            .as_ref()
            .map_or_else(|| "offline".into(), |b| b.default_model.clone())
    }

    /// `offline` plus the provider's models.
    pub fn models(&self) -> Vec<String> {
        let mut m = vec!["offline".to_string()];
        if let Some(b) = &self.llm {
            m.extend(b.models.iter().filter(|x| *x != "offline").cloned());
        }
        m
    }

    /// Where data can leave this box: nowhere with the offline planner, else the LLM
    /// endpoint's host.
    pub fn egress(&self) -> String {
        self.llm
            .as_ref()
            .map_or_else(|| "none".into(), |b| b.egress.clone())
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
        if let Some(h) = &self.index {
            // Indexes and records the state itself (ordered against the embedding thread).
            let (h, r) = (h.clone(), row.clone());
            let (state, detail) = tokio::task::spawn_blocking(move || h.index_upload(&r, push))
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

    pub async fn remove_upload_files(&self, row: &UploadRow) {
        let dir = self.cfg.uploads_dir().join(&row.file_id);
        // Only ever delete inside the uploads root, whatever the database says.
        if dir.starts_with(self.cfg.uploads_dir())
            && row.file_id.chars().all(|c| c.is_ascii_alphanumeric())
        {
            let _ = tokio::fs::remove_dir_all(&dir).await;
        }
    }

    pub async fn delete_upload(&self, row: &UploadRow) -> Result<(), String> {
        let id = row.file_id.clone();
        self.store
            .run(move |s| s.delete_upload(&id))
            .await
            .map_err(|e| e.to_string())?;
        if let Some(h) = &self.index {
            let (h, r) = (h.clone(), row.clone());
            let res = tokio::task::spawn_blocking(move || h.remove_upload(&r))
                .await
                .unwrap_or_else(|_| Err("index removal panicked".into()));
            if let Err(e) = res {
                tracing::warn!("cannot remove {} from the index: {e}", row.file_id);
            }
        }
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

    pub async fn status(&self, request_id: u64) -> Message {
        let index = match &self.index {
            Some(h) => {
                // Doc folders are re-scanned on request; status is that request.
                h.request_rescan();
                let s = h.engine.stats();
                IndexProgress {
                    files: s.files,
                    chunks: s.chunks,
                    embedding_backlog: s.embedding_backlog,
                    mode: s.mode,
                }
            }
            None => IndexProgress {
                files: self.store.run(|s| s.count_uploads()).await.unwrap_or(0),
                chunks: 0,
                embedding_backlog: 0,
                mode: "raw-text (index unavailable)".into(),
            },
        };
        Message::ServerStatus(ServerStatus {
            request_id,
            server_version: env!("CARGO_PKG_VERSION").into(),
            uptime_secs: self.started.elapsed().as_secs(),
            connections: self.connections.load(Ordering::Relaxed) as u32,
            index,
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
            let outcome = crate::agent::run::run_turn(ctx, req, &tx, c).await;
            let _ = tx.send(TurnEvent::Done(outcome)).await;
        });
        RunningTurn {
            request_id,
            cancel,
            events: rx,
        }
    }
}

/// The wire form of a sampler snapshot.
pub fn snapshot_msg(s: &llmops_tools::Snapshot) -> protocol::MonitorSnapshot {
    protocol::MonitorSnapshot {
        ts_ms: chrono::DateTime::parse_from_rfc3339(&s.taken_at)
            .map(|t| t.timestamp_millis().max(0) as u64)
            .unwrap_or(0),
        cpu: protocol::CpuStats {
            usage_percent: s.cpu.usage_percent,
            cores: s.cpu.cores as u32,
            frequency_mhz: s.cpu.frequency_mhz,
            load_avg: s.cpu.load_avg,
        },
        memory: protocol::MemoryStats {
            total_bytes: s.memory.total_bytes,
            used_bytes: s.memory.used_bytes,
            available_bytes: s.memory.available_bytes,
            usage_percent: s.memory.usage_percent as f32,
        },
        disks: s
            .disks
            .iter()
            .map(|d| protocol::DiskStats {
                mount: d.mount.clone(),
                fs: d.fs.clone(),
                total_bytes: d.total_bytes,
                used_bytes: d.used_bytes,
                available_bytes: d.available_bytes,
                usage_percent: d.usage_percent as f32,
            })
            .collect(),
        top_processes: s
            .top_processes
            .iter()
            .map(|p| protocol::ProcessStats {
                pid: p.pid,
                user: p.user.clone(),
                name: p.name.clone(),
                cpu_percent: p.cpu_percent,
                rss_bytes: p.rss_bytes,
                mem_percent: p.mem_percent,
                command: p.command.clone(),
            })
            .collect(),
        process_count: u32::try_from(s.process_count).ok(),
    }
}

/// Streams an accepted offer's file over this connection (`nplt` mode) from `resume`,
/// hashing what is sent, and reports completion. Reads from disk as it goes: memory stays
/// flat whatever the file size, and the bounded queue paces it to the peer.
pub async fn send_file_nplt(
    ctx: Arc<Ctx>,
    offer: OfferRow,
    resume: u64,
    tx: mpsc::Sender<Message>,
    cancel: CancellationToken,
) {
    use sha2::Digest;
    use tokio::io::{AsyncReadExt, AsyncSeekExt};
    let started = Instant::now();
    let result: Result<(u64, String), String> = async {
        let mut f = tokio::fs::File::open(&offer.file_path)
            .await
            .map_err(|e| format!("无法打开文件 / cannot open: {e}"))?;
        let mut hasher = sha2::Sha256::new();
        // The whole-file hash is verified by the receiver; hash the skipped prefix too so
        // the server's report covers the file, not just the resumed part.
        let mut buf = vec![0u8; protocol::MAX_PAYLOAD];
        let mut pos = 0u64;
        while pos < resume {
            let want = ((resume - pos) as usize).min(buf.len());
            let n = f.read(&mut buf[..want]).await.map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            pos += n as u64;
        }
        f.seek(std::io::SeekFrom::Start(pos))
            .await
            .map_err(|e| e.to_string())?;
        let mut sent = 0u64;
        let mut last_progress = Instant::now();
        loop {
            if cancel.is_cancelled() {
                return Err("已取消 / cancelled".into());
            }
            let n = f.read(&mut buf).await.map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            sent += n as u64;
            let data = protocol::Raw(bytes::Bytes::copy_from_slice(&buf[..n]));
            tx.send(Message::TransferData(data))
                .await
                .map_err(|_| "连接已断开 / connection closed".to_string())?;
            if last_progress.elapsed() >= std::time::Duration::from_millis(250) {
                last_progress = Instant::now();
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                let _ = tx.try_send(Message::TransferProgress(protocol::TransferProgress {
                    offer_id: offer.offer_id.clone(),
                    bytes: pos + sent,
                    total: offer.size,
                    bytes_per_sec: (sent as f64 / secs) as u64,
                    ..Default::default()
                }));
            }
        }
        Ok((pos + sent, hex::encode(hasher.finalize())))
    }
    .await;
    let (ok, bytes, sha, error) = match result {
        Ok((b, sha)) if sha == offer.sha256 => (true, b, sha, None),
        Ok((b, sha)) => (
            false,
            b,
            sha,
            Some("文件在提供下载后被修改 / file changed since the offer".to_string()),
        ),
        Err(e) => (false, 0, String::new(), Some(e)),
    };
    let m = &ctx.transfers.metrics.nplt;
    m.bytes_sent
        .fetch_add(bytes.saturating_sub(resume), Ordering::Relaxed);
    if ok {
        m.completed.fetch_add(1, Ordering::Relaxed);
    } else {
        m.failed.fetch_add(1, Ordering::Relaxed);
    }
    let report = record_outcome(&ctx, &offer, &offer.session_id, ok, bytes, sha, error).await;
    let _ = tx.send(Message::TransferComplete(report)).await;
    cancel.cancel();
}

/// The end of a transfer as the server records it: offer state, audit line
/// (DOWNLOAD_DONE, side server), and the report to send to the session.
async fn record_outcome(
    ctx: &Ctx,
    offer: &OfferRow,
    session_id: &str,
    ok: bool,
    bytes: u64,
    sha256: String,
    error: Option<String>,
) -> protocol::TransferComplete {
    let state = if ok {
        OfferState::Transferred
    } else {
        OfferState::Failed
    };
    let id = offer.offer_id.clone();
    let err = error.clone();
    let res = ctx
        .store
        .run(move |s| s.set_offer_state(&id, state, err.as_deref()))
        .await;
    crate::store::log_unsaved(res, session_id, &format!("offer state `{state}`"));
    let report = protocol::TransferComplete {
        offer_id: offer.offer_id.clone(),
        ok,
        bytes,
        sha256,
        side: "server".into(),
        error,
    };
    ctx.transfer_reported(session_id, &report);
    report
}

/// Records the end of an RDT or HTTP transfer attempt: offer state, audit line
/// (DOWNLOAD_DONE, side server) and TRANSFER_COMPLETE to the session. An attempt that a
/// retry superseded reports nothing (the client is already on the new attempt).
pub async fn finish_transfer(
    ctx: &Ctx,
    g: &crate::rdt::Grant,
    ok: bool,
    bytes: u64,
    error: Option<String>,
) {
    let offer = &g.offer;
    if ctx.transfers.superseded(&offer.offer_id, g.attempt) {
        return;
    }
    ctx.transfers.end_attempt(&offer.offer_id, g.attempt);
    // The server sends what it hashed when offering (and checked the size at open); the
    // client verifies the bytes it wrote.
    let sha = if ok {
        offer.sha256.clone()
    } else {
        String::new()
    };
    let report = record_outcome(ctx, offer, &g.session_id, ok, bytes, sha, error).await;
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        g.push.send(Message::TransferComplete(report)),
    )
    .await;
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
        mode: o.mode.as_str().into(),
    }
}

#[cfg(test)]
mod snapshot_msg_tests {
    use llmops_tools::sys_monitor::ProcessInfo;

    #[test]
    fn processes_go_on_the_wire_unchanged() {
        let s = llmops_tools::Snapshot {
            process_count: 312,
            top_processes: vec![ProcessInfo {
                pid: 4242,
                user: "root".into(),
                name: "burn-cpu".into(),
                cpu_percent: 99.5,
                rss_bytes: 3 << 20,
                mem_percent: 0.1,
                command: "/usr/bin/burn-cpu --serve".into(),
            }],
            ..Default::default()
        };
        let m = super::snapshot_msg(&s);
        assert_eq!(m.process_count, Some(312));
        assert_eq!(m.top_processes.len(), 1);
        let p = &m.top_processes[0];
        assert_eq!(
            (p.pid, p.name.as_str(), p.user.as_str()),
            (4242, "burn-cpu", "root")
        );
        assert_eq!(
            (p.cpu_percent, p.rss_bytes, p.mem_percent),
            (99.5, 3 << 20, 0.1)
        );
        assert_eq!(p.command, "/usr/bin/burn-cpu --serve");
    }
}
