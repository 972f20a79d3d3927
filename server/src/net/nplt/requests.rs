//! Session, history and model requests: switching, deleting and listing sessions,
//! reading history, choosing and describing models.

use protocol::{Message, ModelInfo, SessionInfo, SessionOp, SessionReply};

use crate::store::{SessionRow, StoreError};

use super::Conn;
use crate::wire::session_info;

impl Conn {
    pub(super) async fn history(
        &self,
        limit: usize,
    ) -> Result<Vec<crate::store::MessageRow>, StoreError> {
        let id = self.session_id.clone();
        self.ctx.store.run(move |s| s.history(&id, limit)).await
    }

    pub(super) async fn switch_session(&mut self, prefix: &str) -> Result<SessionRow, StoreError> {
        let (p, owner) = (prefix.to_string(), self.owner.clone());
        let s = self
            .ctx
            .store
            .run(move |s| {
                let id = s.resolve_session_of(&owner, &p)?;
                s.session(&id)
            })
            .await?;
        self.session_id = s.id.clone();
        // A reserved session left without being used is simply forgotten.
        self.reserved = None;
        Ok(s)
    }

    /// Deletes a session other than the current one; returns its id.
    pub(super) async fn delete_session(&mut self, prefix: &str) -> Result<String, StoreError> {
        let current = || {
            StoreError::Forbidden(
                "不能删除当前会话，请先切换到其他会话 / cannot delete the current session".into(),
            )
        };
        // The current session may not be stored yet (it is on first use): its id is
        // checked before the store is asked.
        if !prefix.is_empty() && self.session_id.starts_with(prefix) {
            return Err(current());
        }
        let (p, owner) = (prefix.to_string(), self.owner.clone());
        let id = match self
            .ctx
            .store
            .run(move |s| s.resolve_session_of(&owner, &p))
            .await
        {
            Ok(id) => id,
            // A session shown but never used is not stored: deleting it forgets it.
            Err(e) => match self.ctx.reservations.find_prefix(&self.owner, prefix) {
                Some(id) => {
                    self.ctx.reservations.forget(&id);
                    return Ok(id);
                }
                None => return Err(e),
            },
        };
        if id == self.session_id {
            return Err(current());
        }
        let i = id.clone();
        let uploads = self.ctx.store.run(move |s| s.delete_session(&i)).await?;
        // Its chunks and vectors go now, not at the next restart's orphan sweep.
        if let Some(h) = &self.ctx.index {
            let (h, i) = (h.clone(), id.clone());
            let removal = tokio::task::spawn_blocking(move || {
                let res = h.engine.remove_session(&i);
                // The session's share of the catalog and reader caches was freed here.
                crate::memory::trim();
                res
            });
            match removal.await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::warn!("cannot remove session {id} from the index: {e}"),
                Err(e) => tracing::warn!("index removal of session {id} panicked: {e}"),
            }
        }
        for u in uploads {
            self.ctx.uploads.remove_files(&u).await;
        }
        let (outputs, i) = (self.ctx.agent.outputs.clone(), id.clone());
        match tokio::task::spawn_blocking(move || outputs.delete_session(&i)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("cannot remove the tool outputs of session {id}: {e}"),
            Err(e) => tracing::warn!("tool output removal of session {id} panicked: {e}"),
        }
        Ok(id)
    }

    /// Renames session `id` of this owner, or the current one (storing it first).
    async fn rename_session(&mut self, id: Option<String>, name: String) -> Result<(), StoreError> {
        if name.trim().is_empty() {
            return Err(StoreError::Forbidden(
                "会话名称不能为空 / name must not be empty".into(),
            ));
        }
        if id.is_none() {
            // Naming the current session is a use of it.
            self.ensure_session().await?;
        }
        let (current, owner) = (self.session_id.clone(), self.owner.clone());
        self.ctx
            .store
            .run(move |s| {
                let target = match id {
                    Some(p) => s.resolve_session_of(&owner, &p)?,
                    None => current,
                };
                s.rename_session(&target, &name)
            })
            .await?;
        Ok(())
    }

    pub(super) async fn session_cmd(
        &mut self,
        op: SessionOp,
    ) -> Result<SessionReplyParts, StoreError> {
        let op_name = match &op {
            SessionOp::List => "list",
            SessionOp::New { .. } => "new",
            SessionOp::Switch { .. } => "switch",
            SessionOp::Delete { .. } => "delete",
            SessionOp::Rename { .. } => "rename",
        };
        let mut deleted = None;
        match op {
            SessionOp::List => {}
            // Stored on first use, like the one a connection starts with.
            SessionOp::New { name } => self.reserve_session(name.as_deref()),
            SessionOp::Switch { id } => {
                self.switch_session(&id).await?;
            }
            SessionOp::Delete { id } => {
                deleted = Some(self.delete_session(&id).await?);
            }
            SessionOp::Rename { id, name } => self.rename_session(id, name).await?,
        }
        let (cur, owner) = (self.session_id.clone(), self.owner.clone());
        let stored = self.reserved.is_none() && !cur.is_empty();
        let (current, sessions) = self
            .ctx
            .store
            .run(move |s| {
                let current = if stored { Some(s.session(&cur)?) } else { None };
                Ok((current, s.list_sessions_of(&owner)?))
            })
            .await?;
        let mut sessions: Vec<SessionInfo> = sessions.iter().map(session_info).collect();
        let current = match (current, &self.reserved) {
            (Some(row), _) => session_info(&row),
            // Reserved: this connection shows it (first, newest) though nothing is stored.
            (None, Some(r)) => {
                let info = SessionInfo {
                    id: self.session_id.clone(),
                    name: r.name.clone(),
                    created_at: r.created_at.clone(),
                    updated_at: r.created_at.clone(),
                    messages: 0,
                };
                sessions.insert(0, info.clone());
                info
            }
            // A read-only connection without a session has an empty current one.
            (None, None) => SessionInfo {
                id: String::new(),
                name: String::new(),
                created_at: String::new(),
                updated_at: String::new(),
                messages: 0,
            },
        };
        Ok(SessionReplyParts {
            op: op_name.into(),
            current,
            sessions,
            deleted,
        })
    }

    pub(super) async fn set_model(&mut self, model: &str) -> Result<(), String> {
        let models = self.ctx.models();
        if !models.iter().any(|m| m == model) {
            return Err(format!(
                "未知模型 / unknown model '{model}'; 可用 / available: {}",
                models.join(", ")
            ));
        }
        // A setting is a use of the session.
        self.ensure_session().await.map_err(|e| e.to_string())?;
        let id = self.session_id.clone();
        let m = model.to_string();
        self.ctx
            .store
            .run(move |s| s.set_session_model(&id, &m))
            .await
            .map_err(|e| e.to_string())?;
        // The next turn reads the stored model; a deliberate switch also gives the LLM a
        // fresh start after earlier failures.
        self.ctx.agent.llm_health.success(&self.session_id);
        Ok(())
    }

    pub(super) async fn model_info(&self, request_id: u64) -> Message {
        let id = self.session_id.clone();
        let current = self
            .ctx
            .store
            .run(move |s| s.session(&id))
            .await
            .ok()
            .and_then(|s| s.model)
            // A stored model the configuration no longer offers is not what turns use.
            .filter(|m| self.ctx.models().contains(m))
            .unwrap_or_else(|| self.ctx.default_model());
        Message::ModelInfo(ModelInfo {
            request_id,
            current,
            models: self.ctx.models(),
            planner: self.ctx.planner_name(),
        })
    }
}

#[derive(Debug)]
pub(super) struct SessionReplyParts {
    pub(super) op: String,
    pub(super) current: SessionInfo,
    pub(super) sessions: Vec<SessionInfo>,
    /// The session a delete removed.
    pub(super) deleted: Option<String>,
}

impl SessionReplyParts {
    pub(super) fn with_request(self, request_id: u64) -> SessionReply {
        SessionReply {
            request_id,
            op: self.op,
            current: self.current,
            sessions: self.sessions,
        }
    }
}
