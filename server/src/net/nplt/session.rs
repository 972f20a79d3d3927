//! HELLO and the connection's current session: who the peer is (its token or its Unix
//! user), which session it resumes or gets reserved (stored on first use), the WELCOME it
//! is sent, and the legacy welcome for a client that never says HELLO.

use protocol::{Message, Welcome, PROTOCOL_VERSION};

use super::{Conn, Dialect, Flow};
use crate::peer::Peer;
use crate::store::{SessionRow, StoreError};

impl Conn {
    pub(super) async fn on_hello(&mut self, h: protocol::Hello, out: &mut Vec<Message>) -> Flow {
        if let Err(refusal) = self.authenticate(h.auth_token.as_deref()) {
            out.push(refusal);
            return Flow::Close;
        }
        if h.proto != PROTOCOL_VERSION {
            tracing::info!(peer = %self.peer, "client speaks proto {}; serving {}", h.proto, PROTOCOL_VERSION);
        }
        self.mode = Dialect::Extension;
        let sess = match self.stored_session(h.resume_session.clone()).await {
            Ok(v) => v,
            Err(e) => {
                let code = crate::wire::store_error_code(&e);
                out.push(Message::error(code, e.to_string(), None));
                return Flow::Close;
            }
        };
        let (name, model, resumed) =
            self.adopt_session(sess, h.resume_session.as_deref(), h.no_new_session);
        out.push(self.welcome(name, model, resumed));
        Flow::Continue
    }

    /// Sets the owner from the peer's identity. A refusal (a TCP client that may not
    /// connect without identity, a bad or missing token) is audited and is the frame to
    /// send before closing.
    // The refusal is the frame sent as it is, once per refused request.
    #[allow(clippy::result_large_err)]
    fn authenticate(&mut self, token: Option<&str>) -> Result<(), Message> {
        if matches!(self.peer, Peer::Tcp(_)) && !self.ctx.cfg.token_required() {
            if let Err(why) = self
                .ctx
                .local
                .may_connect_without_identity(self.ctx.cfg.socket.as_deref())
            {
                self.ctx
                    .audit_denial(&self.peer, "auth", "tcp client without identity");
                return Err(Message::error("unauthorized", why, None));
            }
        }
        // A local user is known by the socket's credentials (owner set at connect).
        let owner = match &self.peer {
            Peer::Unix(_) => Some(self.owner.clone()),
            Peer::Tcp(_) => self.ctx.cfg.owner_for(token),
        };
        match owner {
            Some(owner) => {
                self.owner = owner;
                Ok(())
            }
            None => {
                self.ctx
                    .audit_denial(&self.peer, "auth", "bad or missing auth token");
                Err(Message::error(
                    "unauthorized",
                    "访问令牌无效或缺失 / missing or wrong auth token",
                    None,
                ))
            }
        }
    }

    /// The stored session HELLO asks to resume, when it is one of this owner's.
    async fn stored_session(
        &self,
        resume: Option<String>,
    ) -> Result<Option<SessionRow>, StoreError> {
        let owner = self.owner.clone();
        self.ctx
            .store
            .run(move |s| {
                // Only among this token's sessions: another owner's id starts a new one. A
                // failed read is an error, never a new session in place of the one asked for
                // (a client resuming after a restart would lose its session's files).
                let Some(r) = resume else { return Ok(None) };
                match s.resolve_session_of(&owner, &r) {
                    Ok(id) => Ok(Some(s.session(&id)?)),
                    Err(StoreError::NotFound(_) | StoreError::Ambiguous { .. }) => Ok(None),
                    Err(e) => Err(e),
                }
            })
            .await
    }

    /// Makes the session HELLO resumes (`sess`, or one reserved by another connection of
    /// this owner) current, or a new one; returns its name, its model and whether it was
    /// resumed.
    fn adopt_session(
        &mut self,
        sess: Option<SessionRow>,
        resume: Option<&str>,
        lazy: bool,
    ) -> (String, Option<String>, bool) {
        // A session shown to another connection of this owner but not stored yet is
        // resumed as it is (by its full id).
        let reserved = match (&sess, resume) {
            (None, Some(id)) => self
                .ctx
                .reservations
                .find(&self.owner, id)
                .map(|r| (id.trim().to_string(), r)),
            _ => None,
        };
        let resumed = sess.is_some() || reserved.is_some();
        let (sid, sname, smodel) = match (sess, reserved) {
            (Some(s), _) => (s.id, s.name, s.model),
            (None, Some((id, r))) => {
                let name = r.name.clone();
                self.reserved = Some(r);
                (id, name, None)
            }
            // A read-only client gets no session until it needs one; anyone else gets one
            // reserved now and stored on first use.
            (None, None) if lazy => (String::new(), String::new(), None),
            (None, None) => {
                self.reserve_session(None);
                let name = self
                    .reserved
                    .as_ref()
                    .map(|r| r.name.clone())
                    .unwrap_or_default();
                (self.session_id.clone(), name, None)
            }
        };
        self.session_id = sid;
        (sname, smodel, resumed)
    }

    /// WELCOME for the current session.
    fn welcome(&self, session_name: String, model: Option<String>, resumed: bool) -> Message {
        let planner = self.ctx.planner_name();
        Message::Welcome(Box::new(Welcome {
            proto: PROTOCOL_VERSION,
            session_id: self.session_id.clone(),
            session_name,
            resumed,
            server_version: env!("CARGO_PKG_VERSION").into(),
            heartbeat_secs: self.ctx.cfg.heartbeat_secs as u32,
            model: model.unwrap_or_else(|| self.ctx.default_model()),
            models: self.ctx.models(),
            features: crate::app::FEATURES.iter().map(|s| s.to_string()).collect(),
            planner: planner.clone(),
            egress: self.ctx.agent.egress(),
            motd: self.ctx.welcome_text(&self.session_id),
            commands: self.allowed_commands(),
        }))
    }

    /// The command names `command_executor` runs here: the configured whitelist, only names
    /// with a grammar (what the policy enforces), sorted.
    fn allowed_commands(&self) -> Vec<String> {
        let known = llmops_policy::command_names();
        let mut names: Vec<String> = self
            .ctx
            .agent
            .tool_base
            .commands
            .config()
            .allowed
            .iter()
            .filter(|n| known.contains(&n.as_str()))
            .cloned()
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The legacy welcome, naming a session reserved for this connection (stored on
    /// first use).
    pub(super) fn start_legacy(&mut self, out: &mut Vec<Message>) {
        if self.session_id.is_empty() {
            self.reserve_session(None);
        }
        self.legacy_welcome_sent = true;
        out.push(Message::ChatText(self.ctx.welcome_text(&self.session_id)));
    }

    /// Makes a new session current without storing it: it is written on first use.
    pub(super) fn reserve_session(&mut self, name: Option<&str>) {
        let r = crate::store::Reserved {
            name: crate::store::session_name(name),
            created_at: crate::store::now_rfc3339(),
        };
        self.session_id = crate::store::new_session_id();
        self.ctx
            .reservations
            .remember(&self.owner, &self.session_id, &r);
        self.reserved = Some(r);
    }

    /// Stores the current session if it is only reserved, or makes one if there is none
    /// (a read-only client that now needs one).
    pub(super) async fn ensure_session(&mut self) -> Result<(), crate::store::StoreError> {
        if !self.session_id.is_empty() && self.reserved.is_none() {
            return Ok(());
        }
        let owner = self.owner.clone();
        let row = match self.reserved.clone() {
            Some(r) => {
                let id = self.session_id.clone();
                self.ctx
                    .store
                    .run(move |s| s.create_session_with_id(&owner, &id, &r.name, &r.created_at))
                    .await?
            }
            None => {
                self.ctx
                    .store
                    .run(move |s| s.create_session_for(&owner, None))
                    .await?
            }
        };
        self.ctx.reservations.forget(&row.id);
        self.session_id = row.id;
        self.reserved = None;
        Ok(())
    }
}
