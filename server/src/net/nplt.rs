//! One task per connection: decides legacy vs extension mode from the first frame, then
//! selects over inbound frames, the running turn's events, pushed updates, timers and
//! shutdown. It is the only writer of its socket. Nothing a peer sends can panic it or
//! affect another connection; bad frames get an error (extension) or are ignored (legacy).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use protocol::{Inbound, Message, Welcome, LEGACY_HEARTBEAT, PROTOCOL_VERSION};
use rdt_io::MessageCodec;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};
use tokio_util::codec::Framed;

use crate::app::Ctx;
use crate::store::StoreError;
use crate::turn::{RunningTurn, TurnEvent};
use crate::uploads::Incoming;

mod approvals;
mod download;
mod extension;
mod legacy;
mod region;
mod request;
mod requests;
mod system;
mod transfers;
mod turns;
mod watch;

#[cfg(test)]
mod tests;

/// Upper bound on a single write to a slow peer before the connection is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// Frames of an `nplt`-mode download queued ahead of the socket (16 x 64 KiB = 1 MiB).
const TRANSFER_QUEUE: usize = 16;
/// How long a server that requires a token waits for the first frame.
const AUTH_HELLO_GRACE_MS: u64 = 10_000;
/// Reassembly share of a peer that has not completed HELLO (or speaks legacy, which never
/// fragments): far more than any HELLO needs, so unauthenticated peers hold almost nothing.
pub const PRE_AUTH_REASSEMBLY_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// Nothing received yet; the legacy welcome may or may not have been sent.
    Pending,
    Legacy,
    Extension,
}

enum UploadSlot {
    None,
    Receiving {
        inc: Box<Incoming>,
        reply: transfers::UploadReply,
        last_status: u64,
    },
    /// A refused upload: swallow this many more data bytes silently.
    Discarding {
        remaining: u64,
    },
}

/// What the loop should do after handling something.
enum Flow {
    Continue,
    Close,
}

pub struct Conn {
    ctx: Arc<Ctx>,
    peer: SocketAddr,
    mode: Dialect,
    legacy_welcome_sent: bool,
    session_id: String,
    /// Whose sessions this connection sees (its token's name; set at HELLO).
    owner: crate::store::Owner,
    upload: UploadSlot,
    turn: Option<RunningTurn>,
    /// Legacy stream text held back so no chunk is blank or exactly `HEARTBEAT`.
    legacy_pending: String,
    awaiting_heartbeat_reply: bool,
    last_inbound: Instant,
    heartbeat_sent: bool,
    partial_since: Option<Instant>,
    push_tx: mpsc::Sender<Message>,
    /// The `nplt`-mode transfer's frames (start, data, progress, end), in order, through a
    /// short queue: a peer that stops reading pins at most `TRANSFER_QUEUE` data frames.
    transfer_tx: mpsc::Sender<Message>,
    /// Stops the monitor forwarder of this connection.
    monitor: Option<tokio_util::sync::CancellationToken>,
    /// The `nplt`-mode transfer in progress (one at a time: data frames carry no id).
    transfer: Option<tokio_util::sync::CancellationToken>,
    /// Approval requests waiting for this client's answer.
    approvals: approvals::ApprovalBroker,
    /// The watch run in progress and when the last one started.
    watch: watch::WatchSlot,
}

/// Serves one connection. `preauth` is its place in the budget of peers before HELLO,
/// given back as soon as the peer completed HELLO or was greeted as a legacy client; if a
/// newer peer evicts it first, the connection is refused as busy.
pub async fn serve(
    ctx: Arc<Ctx>,
    stream: TcpStream,
    peer: SocketAddr,
    preauth: super::limits::PreAuthPass,
) {
    let mut preauth = Some(preauth);
    if let Err(e) = stream.set_nodelay(true) {
        tracing::debug!(%peer, "TCP_NODELAY not set: {e}");
    }
    // Reads wake the loop even mid-frame, so the stall timer starts at a frame's first byte.
    let (stream, activity) = super::activity::Watched::new(stream);
    let mut framed = Framed::new(
        stream,
        MessageCodec::with_budget(ctx.reassembly.clone(), PRE_AUTH_REASSEMBLY_BYTES),
    );
    let mut share_raised = false;
    let (push_tx, mut push_rx) = mpsc::channel::<Message>(256);
    let (transfer_tx, mut transfer_rx) = mpsc::channel::<Message>(TRANSFER_QUEUE);
    let mut conn = Conn {
        ctx: ctx.clone(),
        peer,
        mode: Dialect::Pending,
        legacy_welcome_sent: false,
        session_id: String::new(),
        owner: crate::store::Owner::unnamed(),
        upload: UploadSlot::None,
        turn: None,
        legacy_pending: String::new(),
        awaiting_heartbeat_reply: false,
        last_inbound: Instant::now(),
        heartbeat_sent: false,
        partial_since: None,
        push_tx,
        transfer_tx,
        monitor: None,
        transfer: None,
        approvals: approvals::ApprovalBroker::default(),
        watch: watch::WatchSlot::default(),
    };
    // With a token required, a silent peer cannot be a legacy client we must greet (legacy
    // clients can't authenticate), so give a HELLO delayed by TCP retransmissions on a lossy
    // link time to arrive instead of refusing after the legacy welcome delay.
    let wait_ms = if ctx.cfg.token_required() {
        ctx.cfg.legacy_welcome_delay_ms.max(AUTH_HELLO_GRACE_MS)
    } else {
        ctx.cfg.legacy_welcome_delay_ms
    };
    let welcome_deadline = Instant::now() + Duration::from_millis(wait_ms);
    tracing::debug!(%peer, "connection open");
    loop {
        let deadline = conn.next_deadline(welcome_deadline);
        let mut out: Vec<Message> = Vec::new();
        let flow = tokio::select! {
            biased;
            _ = ctx.shutdown.cancelled() => {
                if let Some(t) = &conn.turn { t.cancel.cancel(); }
                Flow::Close
            }
            frame = framed.next() => match frame {
                None => Flow::Close,
                Some(Err(protocol::FrameError::OverBudget { scope, limit })) => {
                    tracing::warn!(%peer, %scope, limit, mode = ?conn.mode,
                        "fragment reassembly over budget; closing");
                    out.push(Message::error(
                        "too_large",
                        format!(
                            "分片消息超出内存预算 ({scope}, {limit} 字节)，连接关闭 / \
                             fragmented message over the {scope} reassembly budget of \
                             {limit} bytes; closing"
                        ),
                        None,
                    ));
                    Flow::Close
                }
                Some(Err(e)) => {
                    tracing::debug!(%peer, "frame error: {e}");
                    Flow::Close
                }
                Some(Ok(item)) => {
                    conn.last_inbound = Instant::now();
                    conn.heartbeat_sent = false;
                    // A whole frame arrived: the peer is making progress.
                    conn.partial_since = None;
                    conn.on_inbound(item, &mut out).await
                }
            },
            ev = recv_turn(&mut conn.turn) => {
                conn.on_turn_event(ev, &mut out).await;
                Flow::Continue
            }
            Some(msg) = push_rx.recv() => {
                if conn.mode == Dialect::Extension { out.push(msg); }
                Flow::Continue
            }
            Some(msg) = transfer_rx.recv() => {
                if conn.mode == Dialect::Extension { out.push(msg); }
                Flow::Continue
            }
            _ = sleep_until(deadline) => conn.on_timer(welcome_deadline, &mut out).await,
            _ = evicted(&preauth) => {
                tracing::info!(%peer, "evicted before HELLO to make room for a newer peer");
                let n = ctx.cfg.max_preauth_connections;
                out.push(Message::error("busy", super::limits::Refusal::PreAuth(n).text(), None));
                Flow::Close
            }
            // Bytes of an incomplete frame arrived: only the stall tracking below runs.
            _ = activity.notified() => Flow::Continue,
        };
        if preauth.is_some() && (conn.mode != Dialect::Pending || conn.legacy_welcome_sent) {
            preauth = None;
        }
        if !share_raised && conn.mode == Dialect::Extension {
            // Authenticated (or no token required and HELLO done): one message's share.
            share_raised = true;
            framed
                .codec_mut()
                .set_conn_cap(protocol::MAX_MESSAGE_BYTES.min(ctx.reassembly.limit()));
        }
        // Track a header that arrived without its payload (stalled peer).
        conn.partial_since = if framed.read_buffer().is_empty() {
            None
        } else {
            conn.partial_since.or(Some(Instant::now()))
        };
        for m in out {
            match tokio::time::timeout(WRITE_TIMEOUT, framed.send(m)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    tracing::debug!(%peer, "write failed: {e}");
                    conn.close().await;
                    return;
                }
                Err(_) => {
                    tracing::info!(%peer, "peer stopped reading; closing");
                    conn.close().await;
                    return;
                }
            }
        }
        if let Flow::Close = flow {
            break;
        }
    }
    let _ = tokio::time::timeout(
        Duration::from_secs(2),
        SinkExt::<Message>::flush(&mut framed),
    )
    .await;
    conn.close().await;
    tracing::debug!(%peer, "connection closed");
}

/// Resolves when a newer peer evicted this one from the pre-HELLO budget.
async fn evicted(preauth: &Option<super::limits::PreAuthPass>) {
    match preauth {
        Some(p) => p.evicted().await,
        None => std::future::pending().await,
    }
}

async fn recv_turn(turn: &mut Option<RunningTurn>) -> Option<TurnEvent> {
    match turn {
        Some(t) => t.events.recv().await,
        None => std::future::pending().await,
    }
}

impl Conn {
    fn next_deadline(&self, welcome_deadline: Instant) -> Instant {
        let cfg = &self.ctx.cfg;
        let mut d = if self.heartbeat_sent {
            self.last_inbound + Duration::from_secs(cfg.idle_timeout_secs)
        } else {
            self.last_inbound + Duration::from_secs(cfg.heartbeat_secs)
        };
        if self.mode == Dialect::Pending && !self.legacy_welcome_sent {
            d = d.min(welcome_deadline);
        }
        if let Some(p) = self.partial_since {
            d = d.min(p + Duration::from_secs(cfg.partial_frame_timeout_secs));
        }
        if let Some(a) = self.approvals.next_deadline() {
            d = d.min(a);
        }
        d
    }

    /// Who an approval audit record is about.
    fn who(&self) -> crate::approvals::Who<'_> {
        crate::approvals::Who {
            session_id: &self.session_id,
            peer: &self.peer,
        }
    }

    async fn close(&mut self) {
        // Pending approvals end rejected (audited); the frames have nowhere to go.
        let who = crate::approvals::Who {
            session_id: &self.session_id,
            peer: &self.peer,
        };
        self.approvals.abandon(
            &self.ctx.approvals,
            who,
            None,
            approvals::Abandon::Disconnected,
            &mut Vec::new(),
        );
        if let Some(t) = self.turn.take() {
            t.cancel.cancel();
        }
        for tok in [self.monitor.take(), self.transfer.take()]
            .into_iter()
            .flatten()
        {
            tok.cancel();
        }
        if let UploadSlot::Receiving { inc, .. } =
            std::mem::replace(&mut self.upload, UploadSlot::None)
        {
            inc.abort().await;
        }
    }

    async fn on_timer(&mut self, welcome_deadline: Instant, out: &mut Vec<Message>) -> Flow {
        let now = Instant::now();
        let cfg = self.ctx.cfg.clone();
        let who = crate::approvals::Who {
            session_id: &self.session_id,
            peer: &self.peer,
        };
        self.approvals
            .expire_due(&self.ctx.approvals, who, now, out);
        if let Some(p) = self.partial_since {
            if now >= p + Duration::from_secs(cfg.partial_frame_timeout_secs) {
                tracing::info!(peer = %self.peer, "partial frame timed out; closing");
                return Flow::Close;
            }
        }
        if self.mode == Dialect::Pending && !self.legacy_welcome_sent && now >= welcome_deadline {
            // A silent peer is a legacy client waiting for the welcome.
            if self.ctx.cfg.token_required() {
                out.push(Message::ChatText(
                    "连接被拒绝：需要访问令牌 / access token required".into(),
                ));
                return Flow::Close;
            }
            if let Err(e) = self.start_legacy(out).await {
                tracing::warn!("legacy session setup failed: {e}");
                return Flow::Close;
            }
            return Flow::Continue;
        }
        let idle = now.saturating_duration_since(self.last_inbound);
        if idle >= Duration::from_secs(cfg.idle_timeout_secs) {
            tracing::info!(peer = %self.peer, "idle timeout; closing");
            return Flow::Close;
        }
        if idle >= Duration::from_secs(cfg.heartbeat_secs) && !self.heartbeat_sent {
            self.heartbeat_sent = true;
            self.awaiting_heartbeat_reply = true;
            match self.mode {
                Dialect::Extension => out.push(Message::Heartbeat(protocol::Empty)),
                // Never inside a legacy stream: the client would swallow it as a chunk.
                _ if self.turn.is_none() => out.push(Message::ChatText(LEGACY_HEARTBEAT.into())),
                _ => {}
            }
        }
        Flow::Continue
    }

    // ----- mode decision -------------------------------------------------------------

    async fn start_legacy(&mut self, out: &mut Vec<Message>) -> Result<(), StoreError> {
        if self.session_id.is_empty() {
            let owner = self.owner.clone();
            let s = self
                .ctx
                .store
                .run(move |s| s.create_session_for(&owner, None))
                .await?;
            self.session_id = s.id;
        }
        self.legacy_welcome_sent = true;
        out.push(Message::ChatText(self.ctx.welcome_text(&self.session_id)));
        Ok(())
    }

    async fn on_inbound(&mut self, item: Inbound, out: &mut Vec<Message>) -> Flow {
        if self.mode == Dialect::Pending {
            match &item {
                Inbound::Msg(Message::Hello(h)) => {
                    let h = h.clone();
                    return self.on_hello(h, out).await;
                }
                _ => {
                    if self.ctx.cfg.token_required() {
                        out.push(Message::ChatText(
                            "连接被拒绝：需要访问令牌 / access token required".into(),
                        ));
                        return Flow::Close;
                    }
                    self.mode = Dialect::Legacy;
                    if !self.legacy_welcome_sent {
                        if let Err(e) = self.start_legacy(out).await {
                            tracing::warn!("legacy session setup failed: {e}");
                            return Flow::Close;
                        }
                    }
                }
            }
        }
        match item {
            Inbound::Bad { ty, error } => {
                tracing::debug!(peer = %self.peer, "bad frame 0x{ty:02x}: {error}");
                if self.mode == Dialect::Extension {
                    out.push(Message::error(
                        error.code(),
                        format!("无法解析的帧 / bad frame 0x{ty:02x}: {error}"),
                        None,
                    ));
                }
                Flow::Continue
            }
            Inbound::Msg(m) => match self.mode {
                Dialect::Legacy => self.on_legacy(m, out).await,
                _ => self.on_extension(m, out).await,
            },
        }
    }

    async fn on_hello(&mut self, h: protocol::Hello, out: &mut Vec<Message>) -> Flow {
        match self.ctx.cfg.owner_for(h.auth_token.as_deref()) {
            Some(owner) => self.owner = owner,
            None => {
                self.ctx
                    .audit_denial(&self.peer, "auth", "bad or missing auth token");
                out.push(Message::error(
                    "unauthorized",
                    "访问令牌无效或缺失 / missing or wrong auth token",
                    None,
                ));
                return Flow::Close;
            }
        }
        if h.proto != PROTOCOL_VERSION {
            tracing::info!(peer = %self.peer, "client speaks proto {}; serving {}", h.proto, PROTOCOL_VERSION);
        }
        self.mode = Dialect::Extension;
        let store = self.ctx.store.clone();
        let resume = h.resume_session.clone();
        let lazy = h.no_new_session;
        let owner = self.owner.clone();
        let res = store
            .run(move |s| {
                // Only among this token's sessions: another owner's id starts a new one.
                if let Some(r) = resume {
                    if let Ok(id) = s.resolve_session_of(&owner, &r) {
                        return Ok((Some(s.session(&id)?), true));
                    }
                }
                // A read-only client gets no session until it needs one.
                if lazy {
                    return Ok((None, false));
                }
                Ok((Some(s.create_session_for(&owner, None)?), false))
            })
            .await;
        let (sess, resumed) = match res {
            Ok(v) => v,
            Err(e) => {
                let code = crate::wire::store_error_code(&e);
                out.push(Message::error(code, e.to_string(), None));
                return Flow::Close;
            }
        };
        let (sid, sname, smodel) = match sess {
            Some(s) => (s.id, s.name, s.model),
            None => (String::new(), String::new(), None),
        };
        self.session_id = sid.clone();
        let planner = self.ctx.planner_name();
        out.push(Message::Welcome(Box::new(Welcome {
            proto: PROTOCOL_VERSION,
            session_id: sid.clone(),
            session_name: sname,
            resumed,
            server_version: env!("CARGO_PKG_VERSION").into(),
            heartbeat_secs: self.ctx.cfg.heartbeat_secs as u32,
            model: smodel.unwrap_or_else(|| self.ctx.default_model()),
            models: self.ctx.models(),
            features: crate::app::FEATURES.iter().map(|s| s.to_string()).collect(),
            planner: planner.clone(),
            egress: self.ctx.agent.egress(),
            motd: self.ctx.welcome_text(&sid),
            commands: self.allowed_commands(),
        })));
        Flow::Continue
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

    fn on_client_heartbeat(&mut self, legacy: bool, out: &mut Vec<Message>) {
        // The answer to our heartbeat is not echoed, or the two sides would ping-pong.
        if self.awaiting_heartbeat_reply {
            self.awaiting_heartbeat_reply = false;
            return;
        }
        out.push(if legacy {
            Message::ChatText(LEGACY_HEARTBEAT.into())
        } else {
            Message::Heartbeat(protocol::Empty)
        });
    }
}
