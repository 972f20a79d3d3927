//! Server-wide state shared by every connection (`Ctx`) and the glue between sessions and
//! the subsystems: turns, uploads, offers, status and audit helpers.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use protocol::{IndexProgress, Message, ServerStatus};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::agent::AgentEnv;
use crate::config::Config;
use crate::store::Store;
use crate::turn::{RunningTurn, TurnEvent, TurnRequest};
use llmops_policy::{CommandPolicy, CommandPolicyConfig, PathPolicy};
use llmops_tools::audit::Audit;
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
    "file_region",
    "approvals",
    "upload_lookup",
    "process_view",
    "process_details",
    "propose",
    "watch",
];

pub struct Ctx {
    pub cfg: Arc<Config>,
    pub store: Store,
    pub audit: Audit,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    pub started: Instant,
    pub connections: AtomicUsize,
    /// What turns run with: tools, their policies, the LLM backend, the output store.
    pub agent: Arc<AgentEnv>,
    pub sampler: SamplerHandle,
    pub search_slots: Arc<tokio::sync::Semaphore>,
    /// Download grants (RDT/HTTP tokens), transfer attempts and transfer counters.
    pub transfers: Arc<crate::transfer::Transfers>,
    /// Uploaded files: completion, indexing, deletion.
    pub uploads: crate::uploads::Uploads,
    /// Offers and transfer outcomes, recorded in the store and the audit log.
    pub offers: crate::transfer::offers::OfferBook,
    /// The document index; None when it could not open (search falls back to raw text).
    pub index: Option<Arc<crate::index::IndexHandle>>,
    /// Memory all NPLT connections together may hold for fragment reassembly.
    pub reassembly: Arc<protocol::ByteBudget>,
    /// Returns freed memory to the OS after connections close (see memory.rs).
    pub trimmer: Arc<crate::memory::Trimmer>,
    /// Standing grants, the approval timeout and the approval audit records.
    pub approvals: crate::approvals::Approvals,
    /// Admission of NPLT peers (TCP and the Unix socket share its limits).
    pub admission: Arc<crate::net::admission::Admission>,
    /// Who may connect and approve over the Unix socket.
    pub local: crate::peer::LocalAccess,
    /// Sessions shown to clients but not stored yet (resumable by their full id).
    pub reservations: crate::store::Reservations,
}

impl Ctx {
    /// Builds the shared state; needs a tokio runtime (starts the system sampler).
    pub fn new(cfg: Config, store: Store, audit: Audit) -> Ctx {
        let (docs, paths) = doc_roots_and_paths(&cfg);
        let commands = Arc::new(CommandPolicy::new(CommandPolicyConfig::with_defaults(
            &cfg.data_dir,
        )));
        let catalog: Arc<dyn UploadCatalog> = Arc::new(StoreCatalog(store.clone()));
        let (index, search) = open_search(&cfg, &store, docs, &paths, &catalog);
        let sampler = Sampler::spawn(std::time::Duration::from_secs(1));
        let tools = tool_registry(&cfg, sampler.clone(), search);
        let max_searches = cfg.max_concurrent_searches.max(1);
        let llm = llm_backend(&cfg);
        let offers = crate::transfer::offers::OfferBook::new(
            store.clone(),
            audit.clone(),
            cfg.uploads_dir(),
        );
        let uploads = crate::uploads::Uploads::new(
            store.clone(),
            audit.clone(),
            index.clone(),
            cfg.uploads_dir(),
            crate::uploads::TempBudget::new(cfg.upload_guard, &cfg.data_dir),
        );
        let tool_base = llmops_tools::ToolCtx {
            session_id: String::new(),
            client: None,
            paths,
            commands,
            audit: audit.clone(),
            data_dir: cfg.data_dir.clone(),
            cancel: CancellationToken::new(),
            uploads: catalog,
            live: llmops_tools::LiveSink::none(),
            budget: llmops_tools::TimeBudget::default(),
            follow: cfg.follow_limits(),
        };
        let agent = Arc::new(agent_env(&cfg, &store, tools, tool_base, llm));
        let approvals = crate::approvals::Approvals::new(
            store.clone(),
            audit.clone(),
            std::time::Duration::from_secs(cfg.approval_timeout_secs),
        );
        let admission = crate::net::admission::for_nplt(&cfg);
        // Root and the server's own user only, until `start` applies the configured groups.
        let local = crate::peer::LocalAccess {
            server_uid: nix::unistd::geteuid().as_raw(),
            operators: None,
            approvers: None,
        };
        Ctx {
            agent,
            approvals,
            admission,
            local,
            reservations: crate::store::Reservations::default(),
            reassembly: protocol::ByteBudget::new(cfg.reassembly_budget_bytes),
            trimmer: Arc::default(),
            cfg: Arc::new(cfg),
            store,
            audit,
            shutdown: CancellationToken::new(),
            tracker: TaskTracker::new(),
            started: Instant::now(),
            connections: AtomicUsize::new(0),
            sampler,
            search_slots: Arc::new(tokio::sync::Semaphore::new(max_searches)),
            transfers: Arc::new(crate::transfer::Transfers::default()),
            offers,
            uploads,
            index,
        }
    }

    /// Tool context for requests made outside a turn (search, download requests).
    pub fn tool_ctx(&self, session_id: &str) -> llmops_tools::ToolCtx {
        llmops_tools::ToolCtx {
            session_id: session_id.to_string(),
            client: None,
            cancel: self.shutdown.child_token(),
            ..self.agent.tool_base.clone()
        }
    }

    /// Replaces the LLM backend before the server starts (tests plug in fake providers).
    pub fn set_llm(&mut self, llm: Option<crate::llm::LlmBackend>) {
        match Arc::get_mut(&mut self.agent) {
            Some(env) => env.llm = llm,
            None => tracing::error!("set_llm after the server started: ignored"),
        }
    }

    pub fn welcome_text(&self, session_id: &str) -> String {
        let egress_note = match &self.agent.llm {
            Some(_) => "（对话内容会发送到该服务 / conversation text is sent there）",
            None => "",
        };
        format!(
            "欢迎使用 llmops 智能运维助手 v{} / Welcome to llmops.\n会话 / session: {}\n规划器 / planner: {}（默认模型 / default model: {}）；数据外发 / egress: {}{}\n输入问题开始对话，例如「CPU使用率是多少？」；/model 切换模型 / switch models",
            env!("CARGO_PKG_VERSION"),
            session_id,
            self.planner_name(),
            self.default_model(),
            self.agent.egress(),
            egress_note
        )
    }

    pub fn planner_name(&self) -> String {
        self.agent.planner_name()
    }

    pub fn default_model(&self) -> String {
        self.agent.default_model()
    }

    pub fn models(&self) -> Vec<String> {
        self.agent.models()
    }

    pub fn audit_denial(&self, peer: &crate::peer::Peer, what: &str, reason: &str) {
        let fields = peer.audit_fields();
        let mut all: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        all.push(("target", what));
        self.audit.deny(&all, reason);
    }

    pub async fn status(&self, request_id: u64) -> Message {
        let index = match &self.index {
            Some(h) => {
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
            let outcome = crate::agent::run::run_turn(ctx.agent.clone(), req, &tx, c).await;
            let _ = tx.send(TurnEvent::Done(outcome)).await;
        });
        RunningTurn {
            request_id,
            cancel,
            events: rx,
        }
    }
}

/// The canonical doc roots and the path policy: the configured roots plus the built-in
/// manual, written out as real files so its search hits can be read and offered.
fn doc_roots_and_paths(cfg: &Config) -> (Vec<PathBuf>, Arc<PathPolicy>) {
    let mut docs = vec![];
    for d in &cfg.docs {
        // Canonical doc roots, so policy and search agree on what a doc path is.
        docs.push(std::fs::canonicalize(d).unwrap_or_else(|_| d.clone()));
    }
    let builtin = crate::index::builtin_docs_dir(cfg);
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
    (docs, Arc::new(PathPolicy::new(&path_cfg)))
}

/// Opens the document index and the search the tools use: the index's, or a raw-text
/// search over uploads and docs when the index cannot open.
fn open_search(
    cfg: &Config,
    store: &Store,
    docs: Vec<PathBuf>,
    paths: &Arc<PathPolicy>,
    catalog: &Arc<dyn UploadCatalog>,
) -> (
    Option<Arc<crate::index::IndexHandle>>,
    Arc<dyn llmops_tools::SearchBackend>,
) {
    // The index opens quickly (lexical only); the embedder loads in the background.
    let opened = crate::index::IndexHandle::open(cfg, store.clone(), docs.clone(), paths.clone());
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
    (index, search)
}

/// The standard tools, with the configured analyze cap.
fn tool_registry(
    cfg: &Config,
    sampler: SamplerHandle,
    search: Arc<dyn llmops_tools::SearchBackend>,
) -> ToolRegistry {
    let mut tools = ToolRegistry::standard(sampler, search);
    // file_read carries the analyze cap of local files (uploads are analysed whole).
    tools.register(Arc::new(llmops_tools::FileReadTool::new(
        cfg.analyze_max_bytes,
    )));
    tools.register(Arc::new(llmops_tools::LogQueryTool::new(
        cfg.analyze_max_bytes,
    )));
    tools
}

/// The configured LLM backend; none (the offline planner) when unset or unusable.
fn llm_backend(cfg: &Config) -> Option<crate::llm::LlmBackend> {
    let llm = cfg.llm.as_ref().and_then(|s| {
        crate::llm::LlmBackend::from_settings(s)
            .map_err(|e| tracing::error!("LLM disabled, offline planner only: {e}"))
            .ok()
    });
    if let Some(b) = &llm {
        tracing::info!(provider = %b.provider, model = %b.default_model, egress = %b.egress, "llm configured");
    }
    llm
}

/// What turns run with; a broken action policy leaves the built-in actions and deny rules.
fn agent_env(
    cfg: &Config,
    store: &Store,
    tools: ToolRegistry,
    tool_base: llmops_tools::ToolCtx,
    llm: Option<crate::llm::LlmBackend>,
) -> AgentEnv {
    AgentEnv {
        store: Arc::new(store.clone()),
        tools,
        tool_base,
        outputs: llmops_tools::outputs::OutputStore::new(&cfg.data_dir),
        uploads_dir: cfg.uploads_dir(),
        llm,
        llm_health: Arc::new(crate::llm::LlmHealth::default()),
        actions: Arc::new(cfg.action_policy().unwrap_or_else(|e| {
            tracing::error!("{e}; only the built-in actions and default deny rules apply");
            llmops_policy::ActionPolicy::defaults(
                std::process::id(),
                Some(std::os::unix::process::parent_id()),
            )
        })),
    }
}
