//! What a turn needs from the server, and nothing more: the session's records behind a
//! narrow trait (`TurnStore`, SQLite in production, memory in tests), the tools with the
//! context they run in, the output store and the LLM backend. No sockets, no `Ctx`.

use std::path::PathBuf;
use std::sync::Arc;

use futures::future::BoxFuture;
use llmops_tools::outputs::OutputStore;
use llmops_tools::{ToolCtx, ToolRegistry};

use crate::llm::{LlmBackend, LlmHealth};
use crate::store::{MessageRow, OfferRow, Store, ToolCallRow, UploadRow};
use crate::turn::Role;

/// Messages of history a turn loads (the planner budgets them further by characters).
pub const HISTORY_LOAD: usize = 60;

/// A session as a turn starts from it.
#[derive(Debug, Clone, Default)]
pub struct TurnContext {
    pub history: Vec<MessageRow>,
    pub uploads: Vec<UploadRow>,
    /// The model chosen with `/model`, when one was.
    pub model: Option<String>,
}

/// The session records a turn reads and writes.
pub trait TurnStore: Send + Sync {
    /// The session's last `limit` messages, its uploads and its model. A session that cannot
    /// be read starts empty (the turn still answers).
    fn load(&self, session_id: &str, limit: usize) -> BoxFuture<'_, TurnContext>;
    /// Appends one message; the error says why it was not saved (and is already logged).
    fn append(
        &self,
        session_id: &str,
        role: Role,
        text: &str,
        calls: &[ToolCallRow],
    ) -> BoxFuture<'_, Result<(), String>>;
    /// Records a new offer; the client hears of it only after this succeeded.
    fn insert_offer(&self, row: &OfferRow) -> BoxFuture<'_, Result<(), String>>;
}

impl TurnStore for Store {
    fn load(&self, session_id: &str, limit: usize) -> BoxFuture<'_, TurnContext> {
        let s = session_id.to_string();
        Box::pin(async move {
            let sid = s.clone();
            let res = self
                .run(move |st| {
                    let model = st.session(&sid).ok().and_then(|r| r.model);
                    Ok(TurnContext {
                        history: st.history(&sid, limit)?,
                        uploads: st.list_uploads(&sid)?,
                        model,
                    })
                })
                .await;
            res.unwrap_or_else(|e| {
                tracing::warn!(session = %s, "session not readable, the turn starts without its history: {e}");
                TurnContext::default()
            })
        })
    }

    fn append(
        &self,
        session_id: &str,
        role: Role,
        text: &str,
        calls: &[ToolCallRow],
    ) -> BoxFuture<'_, Result<(), String>> {
        let (sid, t, c) = (session_id.to_string(), text.to_string(), calls.to_vec());
        Box::pin(async move { crate::turn::save_history(self, &sid, role, &t, &c).await })
    }

    fn insert_offer(&self, row: &OfferRow) -> BoxFuture<'_, Result<(), String>> {
        let r = row.clone();
        Box::pin(async move {
            let id = r.offer_id.clone();
            let res = self.run(move |s| s.insert_offer(&r)).await;
            res.map_err(|e| {
                tracing::warn!(offer = %id, "offer not recorded, not shown to the client: {e}");
                e.to_string()
            })
        })
    }
}

/// Everything a turn uses. Built once by the server; tests build one on a temp dir.
pub struct AgentEnv {
    pub store: Arc<dyn TurnStore>,
    pub tools: ToolRegistry,
    /// The context every tool call starts from; the turn sets the session and its cancel
    /// token.
    pub tool_base: ToolCtx,
    pub outputs: OutputStore,
    /// Where uploads live (an offered upload carries its file id).
    pub uploads_dir: PathBuf,
    pub llm: Option<LlmBackend>,
    pub llm_health: Arc<LlmHealth>,
    /// The grammar, configured actions and deny rules `run_action` proposals are checked
    /// against (`[actions]`).
    pub actions: Arc<llmops_policy::ActionPolicy>,
}

impl AgentEnv {
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
}
