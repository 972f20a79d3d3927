//! One task per connection: decides legacy vs extension mode from the first frame, then
//! selects over inbound frames, the running turn's events, pushed updates, timers and
//! shutdown. It is the only writer of its socket. Nothing a peer sends can panic it or
//! affect another connection; bad frames get an error (extension) or are ignored (legacy).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use protocol::{
    Ack, AgentEvent, AgentEventKind, AgentThought, EndStatus, FileInfo, FileListReply, History,
    HistoryMessage, Inbound, Message, MessageCodec, ModelInfo, SessionInfo, SessionOp,
    SessionReply, StreamDelta, StreamEnd, StreamStart, ToolCallRecord, ToolOutput, UploadResult,
    UploadStatus, Welcome, LEGACY_HEARTBEAT, PROTOCOL_VERSION,
};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};
use tokio_util::codec::Framed;

use crate::app::Ctx;
use crate::store::{SessionRow, StoreError, UploadRow};
use crate::turn::{RunningTurn, TurnEvent, TurnRequest};
use crate::uploads::{Incoming, UploadError};

/// Upper bound on a single write to a slow peer before the connection is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a server that requires a token waits for the first frame.
const AUTH_HELLO_GRACE_MS: u64 = 10_000;
/// Reassembly share of a peer that has not completed HELLO (or speaks legacy, which never
/// fragments): far more than any HELLO needs, so unauthenticated peers hold almost nothing.
pub const PRE_AUTH_REASSEMBLY_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Nothing received yet; the legacy welcome may or may not have been sent.
    Pending,
    Legacy,
    Extension,
}

enum UploadSlot {
    None,
    Receiving {
        inc: Box<Incoming>,
        request_id: Option<u64>,
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
    mode: Mode,
    legacy_welcome_sent: bool,
    session_id: String,
    upload: UploadSlot,
    turn: Option<RunningTurn>,
    /// Legacy stream text held back so no chunk is blank or exactly `HEARTBEAT`.
    legacy_pending: String,
    awaiting_heartbeat_reply: bool,
    last_inbound: Instant,
    heartbeat_sent: bool,
    partial_since: Option<Instant>,
    push_tx: mpsc::Sender<Message>,
    /// Stops the monitor forwarder of this connection.
    monitor: Option<tokio_util::sync::CancellationToken>,
    /// The `nplt`-mode transfer in progress (one at a time: data frames carry no id).
    transfer: Option<tokio_util::sync::CancellationToken>,
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
    let _ = stream.set_nodelay(true);
    // Reads wake the loop even mid-frame, so the stall timer starts at a frame's first byte.
    let (stream, activity) = super::activity::Watched::new(stream);
    let mut framed = Framed::new(
        stream,
        MessageCodec::with_budget(ctx.reassembly.clone(), PRE_AUTH_REASSEMBLY_BYTES),
    );
    let mut share_raised = false;
    let (push_tx, mut push_rx) = mpsc::channel::<Message>(256);
    let mut conn = Conn {
        ctx: ctx.clone(),
        peer,
        mode: Mode::Pending,
        legacy_welcome_sent: false,
        session_id: String::new(),
        upload: UploadSlot::None,
        turn: None,
        legacy_pending: String::new(),
        awaiting_heartbeat_reply: false,
        last_inbound: Instant::now(),
        heartbeat_sent: false,
        partial_since: None,
        push_tx,
        monitor: None,
        transfer: None,
    };
    // With a token required, a silent peer cannot be a legacy client we must greet (legacy
    // clients can't authenticate), so give a HELLO delayed by TCP retransmissions on a lossy
    // link time to arrive instead of refusing after the legacy welcome delay.
    let wait_ms = if ctx.cfg.auth_token.is_some() {
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
                if conn.mode == Mode::Extension { out.push(msg); }
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
        if preauth.is_some() && (conn.mode != Mode::Pending || conn.legacy_welcome_sent) {
            preauth = None;
        }
        if !share_raised && conn.mode == Mode::Extension {
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
        Some(p) => p.evicted.cancelled().await,
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
        if self.mode == Mode::Pending && !self.legacy_welcome_sent {
            d = d.min(welcome_deadline);
        }
        if let Some(p) = self.partial_since {
            d = d.min(p + Duration::from_secs(cfg.partial_frame_timeout_secs));
        }
        d
    }

    async fn close(&mut self) {
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
        if let Some(p) = self.partial_since {
            if now >= p + Duration::from_secs(cfg.partial_frame_timeout_secs) {
                tracing::info!(peer = %self.peer, "partial frame timed out; closing");
                return Flow::Close;
            }
        }
        if self.mode == Mode::Pending && !self.legacy_welcome_sent && now >= welcome_deadline {
            // A silent peer is a legacy client waiting for the welcome.
            if self.ctx.cfg.auth_token.is_some() {
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
                Mode::Extension => out.push(Message::Heartbeat(protocol::Empty)),
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
            let s = self.ctx.store.run(|s| s.create_session(None)).await?;
            self.session_id = s.id;
        }
        self.legacy_welcome_sent = true;
        out.push(Message::ChatText(self.ctx.welcome_text(&self.session_id)));
        Ok(())
    }

    async fn on_inbound(&mut self, item: Inbound, out: &mut Vec<Message>) -> Flow {
        if self.mode == Mode::Pending {
            match &item {
                Inbound::Msg(Message::Hello(h)) => {
                    let h = h.clone();
                    return self.on_hello(h, out).await;
                }
                _ => {
                    if self.ctx.cfg.auth_token.is_some() {
                        out.push(Message::ChatText(
                            "连接被拒绝：需要访问令牌 / access token required".into(),
                        ));
                        return Flow::Close;
                    }
                    self.mode = Mode::Legacy;
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
                if self.mode == Mode::Extension {
                    out.push(Message::error(
                        error.code(),
                        format!("无法解析的帧 / bad frame 0x{ty:02x}: {error}"),
                        None,
                    ));
                }
                Flow::Continue
            }
            Inbound::Msg(m) => match self.mode {
                Mode::Legacy => self.on_legacy(m, out).await,
                _ => self.on_extension(m, out).await,
            },
        }
    }

    async fn on_hello(&mut self, h: protocol::Hello, out: &mut Vec<Message>) -> Flow {
        if let Some(expected) = &self.ctx.cfg.auth_token {
            let ok = h
                .auth_token
                .as_deref()
                .is_some_and(|t| constant_time_eq(t.as_bytes(), expected.as_bytes()));
            if !ok {
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
        self.mode = Mode::Extension;
        let store = self.ctx.store.clone();
        let resume = h.resume_session.clone();
        let lazy = h.no_new_session;
        let res = store
            .run(move |s| {
                if let Some(r) = resume {
                    if let Ok(id) = s.resolve_session(&r) {
                        return Ok((Some(s.session(&id)?), true));
                    }
                }
                // A read-only client gets no session until it needs one.
                if lazy {
                    return Ok((None, false));
                }
                Ok((Some(s.create_session(None)?), false))
            })
            .await;
        let (sess, resumed) = match res {
            Ok(v) => v,
            Err(e) => {
                out.push(Message::error("internal", e.to_string(), None));
                return Flow::Close;
            }
        };
        let (sid, sname, smodel) = match sess {
            Some(s) => (s.id, s.name, s.model),
            None => (String::new(), String::new(), None),
        };
        self.session_id = sid.clone();
        let planner = self.ctx.planner_name();
        out.push(Message::Welcome(Welcome {
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
            egress: self.ctx.egress(),
            motd: self.ctx.welcome_text(&sid),
        }));
        Flow::Continue
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

    // ----- legacy --------------------------------------------------------------------

    async fn on_legacy(&mut self, m: Message, out: &mut Vec<Message>) -> Flow {
        match m {
            Message::ChatText(t) if t.trim() == LEGACY_HEARTBEAT => {
                self.on_client_heartbeat(true, out)
            }
            Message::ChatText(t) if t.trim().is_empty() => {}
            Message::ChatText(t) => {
                if self.turn.is_some() {
                    tracing::debug!("legacy chat during a turn ignored");
                } else {
                    self.start_turn(0, t, Vec::new());
                }
            }
            // The legacy client's UDP port is not used: downloads are client-initiated
            // over RDT, so the server never pushes to a registered port.
            Message::ClientUdpPort(_) => {}
            Message::FileMetadata(meta) => {
                let r = self
                    .begin_upload(None, &meta.filename, meta.size, None)
                    .await;
                if let Err(e) = r {
                    out.push(Message::ChatText(format!("文件上传失败: {e}")));
                } else if meta.size == 0 {
                    self.finish_upload(out).await;
                }
            }
            Message::FileData(raw) => self.upload_data(&raw.0, out).await,
            Message::HistoryRequest(_) => {
                let text = match self.history(50).await {
                    Ok(h) => legacy_history_text(&h),
                    Err(e) => format!("获取历史记录失败: {e}"),
                };
                out.push(Message::ChatText(text));
            }
            Message::ClearRequest(_) => {
                let id = self.session_id.clone();
                let text = match self.ctx.store.run(move |s| s.clear_history(&id)).await {
                    Ok(n) => format!("历史记录已清空 ({n} 条消息)"),
                    Err(e) => format!("清空历史记录失败: {e}"),
                };
                out.push(Message::ChatText(text));
            }
            Message::SessionList(_) => {
                let text = match self.ctx.store.run(|s| s.list_sessions()).await {
                    Ok(list) => legacy_sessions_text(&list, &self.session_id),
                    Err(e) => format!("获取会话列表失败: {e}"),
                };
                out.push(Message::ChatText(text));
            }
            Message::SessionNew(_) => {
                let text = match self.ctx.store.run(|s| s.create_session(None)).await {
                    Ok(s) => {
                        self.session_id = s.id.clone();
                        format!("已创建新会话: {} ({})", s.name, s.id)
                    }
                    Err(e) => format!("创建会话失败: {e}"),
                };
                out.push(Message::ChatText(text));
            }
            Message::SessionSwitch(r) => {
                let text = match self.switch_session(&r.session_id).await {
                    Ok(s) => format!("已切换到会话: {} ({})", s.name, s.id),
                    Err(e) => format!("切换会话失败: {e}"),
                };
                out.push(Message::ChatText(text));
            }
            Message::SessionDelete(r) => {
                let text = match self.delete_session(&r.session_id).await {
                    Ok(id) => format!("已删除会话: {id}"),
                    Err(e) => format!("删除会话失败: {e}"),
                };
                out.push(Message::ChatText(text));
            }
            Message::ModelSwitch(m) => {
                let text = match self.set_model(&m.model).await {
                    Ok(()) => format!("已切换模型: {}", m.model),
                    Err(e) => format!("切换模型失败: {e}"),
                };
                out.push(Message::ChatText(text));
            }
            other => {
                // Extension or server-only types from a legacy client: ignored, as the
                // legacy server did with anything it did not know.
                tracing::debug!("legacy client sent {:?}; ignored", other.msg_type());
            }
        }
        Flow::Continue
    }

    // ----- extension -----------------------------------------------------------------

    async fn on_extension(&mut self, m: Message, out: &mut Vec<Message>) -> Flow {
        // A read-only connection (HELLO no_new_session) gets its session on first need.
        if self.session_id.is_empty() && needs_session(&m) {
            match self.ctx.store.run(|s| s.create_session(None)).await {
                Ok(s) => self.session_id = s.id,
                Err(e) => {
                    out.push(Message::error("internal", e.to_string(), None));
                    return Flow::Continue;
                }
            }
        }
        match m {
            Message::Hello(_) => out.push(Message::error(
                "protocol",
                "HELLO 只能是第一帧 / HELLO must be the first frame",
                None,
            )),
            Message::Heartbeat(_) => self.on_client_heartbeat(false, out),
            Message::ChatText(t) if t.trim() == LEGACY_HEARTBEAT => {
                self.on_client_heartbeat(false, out)
            }
            Message::Chat(c) => {
                if c.text.trim().is_empty() && c.file_ids.is_empty() {
                    out.push(Message::error(
                        "empty",
                        "消息为空 / empty message",
                        Some(c.request_id),
                    ));
                } else if let Some(t) = &self.turn {
                    out.push(Message::error(
                        "busy",
                        format!(
                            "上一个请求 ({}) 仍在处理中；可发送取消 / turn {} is still running; cancel it first",
                            t.request_id, t.request_id
                        ),
                        Some(c.request_id),
                    ));
                } else {
                    self.start_turn(c.request_id, c.text, c.file_ids);
                }
            }
            Message::Cancel(c) => {
                if let Some(t) = &self.turn {
                    if c.request_id.is_none_or(|r| r == t.request_id) {
                        t.cancel.cancel();
                    }
                }
            }
            Message::SessionCmd(cmd) => {
                let rid = cmd.request_id;
                match self.session_cmd(cmd.op).await {
                    Ok(reply) => out.push(Message::SessionReply(reply.with_request(rid))),
                    Err(e) => out.push(store_error(e, rid)),
                }
            }
            Message::HistoryGet(h) => match self.history(h.limit.unwrap_or(200) as usize).await {
                Ok(rows) => out.push(Message::History(History {
                    request_id: h.request_id,
                    session_id: self.session_id.clone(),
                    messages: rows.into_iter().map(history_message).collect(),
                })),
                Err(e) => out.push(store_error(e, h.request_id)),
            },
            Message::ClearHistory(r) => {
                let id = self.session_id.clone();
                match self.ctx.store.run(move |s| s.clear_history(&id)).await {
                    Ok(n) => out.push(Message::Ack(Ack {
                        request_id: r.request_id,
                        message: format!("历史记录已清空 ({n} 条消息) / history cleared"),
                    })),
                    Err(e) => out.push(store_error(e, r.request_id)),
                }
            }
            Message::ModelList(r) => out.push(self.model_info(r.request_id).await),
            Message::ModelSet(m) => match self.set_model(&m.model).await {
                Ok(()) => out.push(self.model_info(m.request_id).await),
                Err(e) => out.push(Message::error("bad_model", e, Some(m.request_id))),
            },
            Message::UploadStart(u) => {
                // A new start ends the discarding of a refused upload's data; a clean client
                // stops sending after the error, a streaming one may not.
                if matches!(self.upload, UploadSlot::Receiving { .. }) {
                    out.push(Message::error(
                        "busy",
                        "已有上传正在进行 / another upload is in progress on this connection",
                        Some(u.request_id),
                    ));
                    // Its data must not be mistaken for the running upload's.
                    return Flow::Close;
                }
                match self
                    .begin_upload(Some(u.request_id), &u.filename, u.size, u.sha256.clone())
                    .await
                {
                    Err(e) => {
                        out.push(Message::error(e.code(), e.message(), Some(u.request_id)));
                        self.upload = UploadSlot::Discarding { remaining: u.size };
                    }
                    Ok(()) if u.size == 0 => self.finish_upload(out).await,
                    Ok(()) => {}
                }
            }
            Message::UploadRdtStart(u) => out.push(self.rdt_upload_grant(&u).await),
            Message::UploadData(raw) => self.upload_data(&raw.0, out).await,
            Message::FileList(r) => match self.uploads().await {
                Ok(rows) => out.push(Message::FileListReply(FileListReply {
                    request_id: r.request_id,
                    files: rows.iter().map(file_info).collect(),
                })),
                Err(e) => out.push(store_error(e, r.request_id)),
            },
            Message::FileDelete(d) => out.push(self.delete_file(d).await),
            Message::IndexRetry(d) => out.push(self.retry_index(d).await),
            Message::StatusRequest(r) => out.push(self.ctx.status(r.request_id).await),
            Message::MonitorSubscribe(m) => self.subscribe_monitor(m.interval_ms),
            Message::MonitorUnsubscribe(_) => {
                if let Some(t) = self.monitor.take() {
                    t.cancel();
                }
            }
            Message::Search(q) => out.push(self.search(q).await),
            Message::OutputGet(g) => out.push(self.output_page(g).await),
            Message::DownloadRequest(d) => out.push(self.download_request(d).await),
            Message::OfferAccept(a) => {
                if let Some(m) = self.accept_offer(a).await {
                    out.push(m);
                }
            }
            Message::OfferReject(r) => out.push(self.reject_offer(r).await),
            Message::TransferComplete(c) => self.ctx.transfer_reported(&self.session_id, &c),
            Message::TransferProgress(_) => {}
            other => {
                let t = other.msg_type();
                let (code, text) = if t.direction() == protocol::Direction::ServerToClient {
                    (
                        "unexpected",
                        format!(
                            "{} 是服务器发往客户端的消息 / is a server-to-client message",
                            t.wire_name()
                        ),
                    )
                } else {
                    (
                        "unsupported",
                        format!(
                            "{} 尚未支持 / is not supported by this server yet",
                            t.wire_name()
                        ),
                    )
                };
                out.push(Message::error(code, text, None));
            }
        }
        Flow::Continue
    }

    // ----- monitor, search, offers ---------------------------------------------------

    fn subscribe_monitor(&mut self, interval_ms: u32) {
        if let Some(t) = self.monitor.take() {
            t.cancel();
        }
        let interval = Duration::from_millis(u64::from(interval_ms).clamp(250, 60_000));
        let tok = self.ctx.shutdown.child_token();
        self.monitor = Some(tok.clone());
        let tx = self.push_tx.clone();
        let sampler = self.ctx.sampler.clone();
        self.ctx.tracker.spawn(async move {
            let mut tick = tokio::time::interval(interval);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tokio::select! {
                    _ = tok.cancelled() => break,
                    _ = tick.tick() => {}
                }
                let snap = crate::app::snapshot_msg(&sampler.latest());
                // A full queue means the peer is slow: skip this sample rather than pile up.
                match tx.try_send(Message::MonitorSnapshot(snap)) {
                    Ok(()) | Err(mpsc::error::TrySendError::Full(_)) => {}
                    Err(mpsc::error::TrySendError::Closed(_)) => break,
                }
            }
        });
    }

    /// A page of a stored tool output of this session (OUTPUT_GET).
    async fn output_page(&self, g: protocol::OutputGet) -> Message {
        let store = self.ctx.outputs.clone();
        let sid = self.session_id.clone();
        let (id, offset, count) = (g.output_id.clone(), g.offset, g.count);
        match tokio::task::spawn_blocking(move || store.page(&sid, &id, offset, count)).await {
            Ok(Ok(p)) => Message::OutputPage(protocol::OutputPage {
                request_id: g.request_id,
                output_id: g.output_id,
                offset: p.offset,
                lines: p.lines,
                total_lines: p.total_lines,
                total_bytes: p.total_bytes,
                truncated: p.truncated,
            }),
            Ok(Err(e)) => Message::error(e.code(), e.to_string(), Some(g.request_id)),
            Err(e) => {
                tracing::warn!("output page task failed: {e}");
                Message::error(
                    "internal",
                    "读取输出失败 / reading the output failed",
                    Some(g.request_id),
                )
            }
        }
    }

    async fn search(&self, q: protocol::SearchReq) -> Message {
        let args = serde_json::json!({"query": q.query, "scope": q.scope, "top_k": q.top_k});
        let Ok(_permit) = self.ctx.search_slots.clone().try_acquire_owned() else {
            return Message::error(
                "busy",
                "搜索请求过多，请稍后重试 / too many concurrent searches",
                Some(q.request_id),
            );
        };
        let r = self
            .ctx
            .tools
            .call(
                "semantic_search",
                args,
                &self.ctx.tool_ctx(&self.session_id),
            )
            .await;
        if !r.ok {
            return Message::error(
                "search_failed",
                r.error.unwrap_or_else(|| "search failed".into()),
                Some(q.request_id),
            );
        }
        let results = r.data["results"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|h| serde_json::from_value(h.clone()).ok())
                    .collect()
            })
            .unwrap_or_default();
        Message::SearchResults(protocol::SearchResults {
            request_id: Some(q.request_id),
            query: q.query,
            scope: q.scope,
            results,
        })
    }

    async fn download_request(&self, d: protocol::DownloadRequest) -> Message {
        // A target is an upload id (or unique prefix) of this session, else a path.
        let path = match self.uploads().await {
            Ok(rows) => {
                let t = d.target.trim();
                let hits: Vec<&UploadRow> = rows
                    .iter()
                    .filter(|u| !t.is_empty() && u.file_id.starts_with(t))
                    .collect();
                match hits.as_slice() {
                    [one] => one.path.clone(),
                    _ => t.to_string(),
                }
            }
            Err(e) => return store_error(e, d.request_id),
        };
        let args = serde_json::json!({"file_path": path, "transport_mode": d.mode});
        let r = self
            .ctx
            .tools
            .call(
                "file_download",
                args.clone(),
                &self.ctx.tool_ctx(&self.session_id),
            )
            .await;
        if !r.ok {
            return Message::error(
                "refused",
                r.error.unwrap_or_else(|| "download refused".into()),
                Some(d.request_id),
            );
        }
        let o = &r.data["offer"];
        let row = crate::agent::run::new_offer(
            &self.ctx,
            &self.session_id,
            o["file_path"].as_str().unwrap_or_default(),
            o["filename"].as_str().unwrap_or_default(),
            o["size"].as_u64().unwrap_or(0),
            o["sha256"].as_str().unwrap_or_default(),
            &d.mode,
            Some(d.request_id),
            Some(format!("download {}", d.target)),
        );
        let rr = row.clone();
        match self.ctx.store.run(move |s| s.insert_offer(&rr)).await {
            Ok(()) => Message::Offer(crate::app::offer_msg(&row)),
            Err(e) => store_error(e, d.request_id),
        }
    }

    /// Loads an offer of this session that is still pending, or explains why not.
    async fn pending_offer(&self, offer_id: &str) -> Result<crate::store::OfferRow, Message> {
        let id = offer_id.to_string();
        let now = chrono::Utc::now().timestamp().max(0) as u64;
        let row = self
            .ctx
            .store
            .run(move |s| {
                s.expire_offers(now)?;
                s.offer(&id)
            })
            .await
            .map_err(|e| Message::error("internal", e.to_string(), None))?;
        match row {
            Some(o) if o.session_id != self.session_id => Err(Message::error(
                "not_found",
                format!("没有这个下载邀请 / no offer {offer_id} in this session"),
                None,
            )),
            Some(o) if o.state == "pending" => Ok(o),
            Some(o) => Err(Message::error(
                "offer_closed",
                format!(
                    "下载邀请已{} / offer is {}",
                    offer_state_zh(&o.state),
                    o.state
                ),
                None,
            )),
            None => Err(Message::error(
                "not_found",
                format!("没有这个下载邀请 / no offer {offer_id}"),
                None,
            )),
        }
    }

    async fn reject_offer(&self, r: protocol::OfferReject) -> Message {
        let o = match self.pending_offer(&r.offer_id).await {
            Ok(o) => o,
            Err(m) => return m,
        };
        let id = o.offer_id.clone();
        let reason = r
            .reason
            .clone()
            .unwrap_or_else(|| "用户拒绝 / declined".into());
        let rs = reason.clone();
        let res = self
            .ctx
            .store
            .run(move |s| s.set_offer_state(&id, "rejected", Some(&rs)))
            .await;
        crate::store::log_unsaved(res, &self.session_id, "offer state `rejected`");
        self.ctx.audit.record(
            crate::audit::AuditOp::DownloadReject,
            &[
                ("session", self.session_id.as_str()),
                ("offer", o.offer_id.as_str()),
                ("file", o.file_path.as_str()),
                ("reason", reason.as_str()),
            ],
        );
        // Told to the session's history so the agent's next answer knows.
        let sid = self.session_id.clone();
        let note = format!(
            "（用户拒绝了下载 {} / the user declined the download）",
            o.filename
        );
        let res = self
            .ctx
            .store
            .run(move |s| s.append_message(&sid, "assistant", &note, &[]))
            .await;
        crate::store::log_unsaved(res, &self.session_id, "history note of a declined download");
        Message::Ack(Ack {
            request_id: o.request_id.unwrap_or(0),
            message: format!("已拒绝下载 {} / download declined", o.filename),
        })
    }

    /// Loads an offer of this session that may be accepted: pending, or accepted/failed
    /// before its expiry (a retry or resume of an interrupted transfer).
    async fn acceptable_offer(&self, offer_id: &str) -> Result<crate::store::OfferRow, Message> {
        let o = match self.pending_offer(offer_id).await {
            Ok(o) => return Ok(o),
            Err(m) => m,
        };
        let id = offer_id.to_string();
        let now = chrono::Utc::now().timestamp().max(0) as u64;
        match self.ctx.store.run(move |s| s.offer(&id)).await {
            Ok(Some(row))
                if row.session_id == self.session_id
                    && (row.state == "accepted" || row.state == "failed")
                    && row.expires_at > now =>
            {
                Ok(row)
            }
            _ => Err(o),
        }
    }

    async fn accept_offer(&mut self, a: protocol::OfferAccept) -> Option<Message> {
        use crate::rdt::GrantKind;
        let o = match self.acceptable_offer(&a.offer_id).await {
            Ok(o) => o,
            Err(m) => return Some(m),
        };
        let transfers = self.ctx.transfers.clone();
        let rdt_addr = transfers.rdt_addr.get().copied();
        let http_addr = transfers.http_addr.get().copied();
        let mode = match (a.mode.as_str(), rdt_addr, http_addr) {
            ("auto" | "rdt", Some(_), _) => "rdt",
            ("auto" | "nplt", _, _) => "nplt",
            ("http", _, Some(_)) => "http",
            (other @ ("rdt" | "http"), _, _) => {
                return Some(Message::error(
                    "unsupported_mode",
                    format!("传输模式 {other} 未启用 / mode {other} is not running on this server; use nplt"),
                    o.request_id,
                ))
            }
            (other, _, _) => {
                return Some(Message::error(
                    "unsupported_mode",
                    format!("未知传输模式 {other} / unknown mode {other}; use auto, rdt, nplt or http"),
                    o.request_id,
                ))
            }
        };
        if mode == "nplt" && self.transfer.as_ref().is_some_and(|t| !t.is_cancelled()) {
            return Some(Message::error(
                "busy",
                "已有传输正在进行 / a transfer is already running on this connection",
                o.request_id,
            ));
        }
        let id = o.offer_id.clone();
        let res = self
            .ctx
            .store
            .run(move |s| s.set_offer_state(&id, "accepted", None))
            .await;
        crate::store::log_unsaved(res, &self.session_id, "offer state `accepted`");
        let now = std::time::Instant::now();
        let mut start = protocol::TransferStart {
            offer_id: o.offer_id.clone(),
            mode: mode.into(),
            token: String::new(),
            rdt_addr: None,
            url: None,
            size: o.size,
            sha256: o.sha256.clone(),
        };
        match (mode, rdt_addr, http_addr) {
            ("rdt", Some(addr), _) => {
                let (token, _) = transfers.issue(
                    GrantKind::Rdt,
                    &o,
                    &self.session_id,
                    self.push_tx.clone(),
                    &self.ctx.shutdown,
                    now,
                );
                start.token = token;
                start.rdt_addr = Some(addr.to_string());
                return Some(Message::TransferStart(start));
            }
            ("http", _, Some(addr)) => {
                let (token, _) = transfers.issue(
                    GrantKind::Http,
                    &o,
                    &self.session_id,
                    self.push_tx.clone(),
                    &self.ctx.shutdown,
                    now,
                );
                start.url = Some(format!(
                    "http://{}/api/files/download/{token}",
                    crate::http::url_host(addr)
                ));
                start.token = token;
                return Some(Message::TransferStart(start));
            }
            _ => {}
        }
        let attempt = transfers.begin_attempt(&o.offer_id, &self.ctx.shutdown);
        let tok = attempt.cancel.clone();
        self.transfer = Some(tok.clone());
        start.token = hex::encode(rand::random::<[u8; 16]>());
        // TRANSFER_START must precede the data: send it through the same queue.
        if self
            .push_tx
            .send(Message::TransferStart(start))
            .await
            .is_err()
        {
            return None;
        }
        let ctx = self.ctx.clone();
        let tx = self.push_tx.clone();
        let resume = a.resume_from.min(o.size);
        self.ctx.tracker.spawn(async move {
            let offer_id = o.offer_id.clone();
            crate::app::send_file_nplt(ctx.clone(), o, resume, tx, tok).await;
            ctx.transfers.end_attempt(&offer_id, attempt.id);
        });
        None
    }

    // ----- turns ---------------------------------------------------------------------

    fn start_turn(&mut self, request_id: u64, text: String, file_ids: Vec<String>) {
        let req = TurnRequest {
            request_id,
            session_id: self.session_id.clone(),
            text,
            file_ids,
        };
        self.turn = Some(self.ctx.spawn_turn(req));
        self.legacy_pending.clear();
    }

    async fn on_turn_event(&mut self, ev: Option<TurnEvent>, out: &mut Vec<Message>) {
        let Some(rid) = self.turn.as_ref().map(|t| t.request_id) else {
            return;
        };
        let legacy = self.mode == Mode::Legacy;
        let ev = match ev {
            Some(ev) => ev,
            None => {
                // The turn task ended without a Done event (it panicked): say so.
                self.turn = None;
                if legacy {
                    self.legacy_flush_end(out, Some("内部错误，本轮对话中止 / internal error"));
                } else {
                    out.push(Message::StreamEnd(StreamEnd {
                        request_id: rid,
                        status: EndStatus::Error,
                        message: Some("内部错误，本轮对话中止 / internal error".into()),
                    }));
                }
                return;
            }
        };
        if legacy {
            self.legacy_turn_event(ev, out);
            return;
        }
        match ev {
            TurnEvent::Status(text) => out.push(agent_event(rid, AgentEventKind::Status { text })),
            TurnEvent::ToolCall { step, tool, args } => out.push(agent_event(
                rid,
                AgentEventKind::ToolCall { step, tool, args },
            )),
            TurnEvent::ToolOutput {
                step,
                tool,
                lines,
                dropped,
                total,
            } => out.push(Message::ToolOutput(ToolOutput {
                request_id: rid,
                step,
                tool,
                lines,
                dropped,
                total,
            })),
            TurnEvent::ToolResult {
                step,
                tool,
                ok,
                duration_ms,
                summary,
                output,
            } => out.push(agent_event(
                rid,
                AgentEventKind::ToolResult {
                    step,
                    tool,
                    ok,
                    duration_ms,
                    summary,
                    output,
                },
            )),
            TurnEvent::AnswerStart => {
                out.push(Message::StreamStart(StreamStart { request_id: rid }))
            }
            TurnEvent::Delta(text) => out.push(Message::StreamDelta(StreamDelta {
                request_id: rid,
                text,
            })),
            TurnEvent::Search(mut s) => {
                s.request_id = Some(rid);
                out.push(Message::SearchResults(s));
            }
            TurnEvent::Offer(o) => out.push(Message::Offer(crate::app::offer_msg(&o))),
            TurnEvent::Done(outcome) => {
                self.turn = None;
                out.push(Message::StreamEnd(StreamEnd {
                    request_id: rid,
                    status: outcome.status,
                    message: outcome.message,
                }));
            }
        }
    }

    fn legacy_turn_event(&mut self, ev: TurnEvent, out: &mut Vec<Message>) {
        let thought = |kind: &str, content: String| {
            Message::AgentThought(AgentThought {
                kind: kind.into(),
                content: Some(content),
            })
        };
        match ev {
            TurnEvent::Status(t) => out.push(thought("thinking", t)),
            TurnEvent::ToolCall { tool, args, .. } => {
                out.push(thought("tool_call", format!("调用工具 {tool} {args}")))
            }
            TurnEvent::ToolResult {
                tool, ok, summary, ..
            } => out.push(thought(
                "thinking",
                format!("{tool} {}: {summary}", if ok { "完成" } else { "失败" }),
            )),
            TurnEvent::AnswerStart => {
                out.push(thought("generating", "正在生成回答…".into()));
                out.push(Message::AgentThought(AgentThought {
                    kind: "stream_start".into(),
                    content: None,
                }));
            }
            TurnEvent::Delta(d) => {
                self.legacy_pending.push_str(&d);
                if legacy_chunk_ok(&self.legacy_pending) {
                    out.push(Message::ChatText(std::mem::take(&mut self.legacy_pending)));
                }
            }
            // Legacy clients get no live lines: the final result is all they see.
            TurnEvent::Search(_) | TurnEvent::ToolOutput { .. } => {}
            TurnEvent::Offer(o) => {
                // Legacy clients can only be told about offers in text: their RDT deadlocks
                // and their offer frame carries an MD5 we do not compute.
                self.legacy_pending.push_str(&format!(
                    "\n[下载] {} ({} 字节) 可通过 `llmops-tui download {}` 获取\n",
                    o.filename,
                    o.size,
                    o.file_id.clone().unwrap_or_else(|| o.file_path.clone())
                ));
            }
            TurnEvent::Done(outcome) => {
                self.turn = None;
                let note = match (outcome.status, outcome.message) {
                    (EndStatus::Ok, _) => None,
                    (EndStatus::Cancelled, _) => Some("（已取消 / cancelled）".to_string()),
                    (EndStatus::Error, Some(m)) => Some(format!("\n（{m}）")),
                    (EndStatus::Error, None) => Some("（出错 / error）".to_string()),
                };
                self.legacy_flush_end(out, note.as_deref());
            }
        }
    }

    /// Ends a legacy stream: flushes held-back text and sends the empty end marker.
    fn legacy_flush_end(&mut self, out: &mut Vec<Message>, note: Option<&str>) {
        if let Some(n) = note {
            self.legacy_pending.push_str(n);
        }
        let rest = std::mem::take(&mut self.legacy_pending);
        if !rest.trim().is_empty() {
            let rest = if rest.trim() == LEGACY_HEARTBEAT {
                format!("{rest}.")
            } else {
                rest
            };
            out.push(Message::ChatText(rest));
        }
        out.push(Message::ChatText(String::new()));
    }

    // ----- uploads -------------------------------------------------------------------

    async fn begin_upload(
        &mut self,
        request_id: Option<u64>,
        filename: &str,
        size: u64,
        sha256: Option<String>,
    ) -> Result<(), UploadError> {
        let res = Incoming::begin(
            &self.ctx.cfg.uploads_dir(),
            filename,
            size,
            self.ctx.cfg.upload_limit,
            sha256,
        )
        .await;
        match res {
            Ok(inc) => {
                self.upload = UploadSlot::Receiving {
                    inc: Box::new(inc),
                    request_id,
                    last_status: 0,
                };
                Ok(())
            }
            Err(e) => {
                self.ctx
                    .audit_upload_refused(&self.session_id, filename, &e);
                if request_id.is_none() {
                    // Legacy: discard the data frames that follow the refused metadata.
                    self.upload = UploadSlot::Discarding { remaining: size };
                }
                Err(e)
            }
        }
    }

    /// UPLOAD_RDT_START: the same checks as UPLOAD_START, then a grant the client redeems on
    /// the RDT port; the RDT receiver task answers with UPLOAD_RESULT through `push_tx`.
    async fn rdt_upload_grant(&mut self, u: &protocol::UploadStart) -> Message {
        let Some(addr) = self.ctx.transfers.rdt_addr.get().copied() else {
            return Message::error(
                "rdt_unavailable",
                "服务器未开启 RDT / the server's RDT port is not running; upload with nplt",
                Some(u.request_id),
            );
        };
        let inc = match Incoming::begin(
            &self.ctx.cfg.uploads_dir(),
            &u.filename,
            u.size,
            self.ctx.cfg.upload_limit,
            u.sha256.clone(),
        )
        .await
        {
            Ok(inc) => inc,
            Err(e) => {
                self.ctx
                    .audit_upload_refused(&self.session_id, &u.filename, &e);
                return Message::error(e.code(), e.message(), Some(u.request_id));
            }
        };
        let token = self.ctx.transfers.issue_upload(
            inc,
            &self.session_id,
            u.request_id,
            self.push_tx.clone(),
            self.mode == Mode::Extension,
            std::time::Instant::now(),
        );
        Message::UploadGrant(protocol::UploadGrant {
            request_id: u.request_id,
            token,
            rdt_addr: addr.to_string(),
            size: u.size,
        })
    }

    async fn upload_data(&mut self, data: &[u8], out: &mut Vec<Message>) {
        match &mut self.upload {
            UploadSlot::None => {
                if self.mode == Mode::Extension {
                    out.push(Message::error(
                        "no_upload",
                        "没有正在进行的上传 / data without UPLOAD_START",
                        None,
                    ));
                }
            }
            UploadSlot::Discarding { remaining } => {
                *remaining = remaining.saturating_sub(data.len() as u64);
                if *remaining == 0 {
                    self.upload = UploadSlot::None;
                }
            }
            UploadSlot::Receiving {
                inc,
                request_id,
                last_status,
            } => {
                if let Err(e) = inc.write(data).await {
                    let rid = *request_id;
                    let remaining = inc
                        .announced
                        .saturating_sub(inc.received + data.len() as u64);
                    let filename = inc.filename.clone();
                    if let UploadSlot::Receiving { inc, .. } =
                        std::mem::replace(&mut self.upload, UploadSlot::Discarding { remaining })
                    {
                        inc.abort().await;
                    }
                    if remaining == 0 {
                        self.upload = UploadSlot::None;
                    }
                    self.ctx
                        .audit_upload_refused(&self.session_id, &filename, &e);
                    out.push(self.upload_error(rid, &e));
                    return;
                }
                // Progress for the files pane about every 5% (extension clients only).
                if self.mode == Mode::Extension && inc.announced > 0 {
                    let pct = inc.received * 20 / inc.announced;
                    if pct > *last_status && !inc.is_complete() {
                        *last_status = pct;
                        out.push(Message::UploadStatus(UploadStatus {
                            file_id: String::new(),
                            filename: inc.filename.clone(),
                            state: "receiving".into(),
                            detail: None,
                            done: inc.received,
                            total: inc.announced,
                        }));
                    }
                }
                if inc.is_complete() {
                    self.finish_upload(out).await;
                }
            }
        }
    }

    fn upload_error(&self, rid: Option<u64>, e: &UploadError) -> Message {
        match rid {
            Some(r) => Message::error(e.code(), e.message(), Some(r)),
            None => Message::ChatText(format!("文件上传失败: {e}")),
        }
    }

    async fn finish_upload(&mut self, out: &mut Vec<Message>) {
        let UploadSlot::Receiving {
            inc, request_id, ..
        } = std::mem::replace(&mut self.upload, UploadSlot::None)
        else {
            return;
        };
        // Extension clients get the index states (indexed, embedding n/m, ready).
        let push = (self.mode == Mode::Extension).then(|| self.push_tx.clone());
        match crate::uploads::complete(&self.ctx, &self.session_id, *inc, push).await {
            Ok(row) => match request_id {
                Some(r) => out.push(Message::UploadResult(UploadResult {
                    request_id: r,
                    file: file_info(&row),
                })),
                None => out.push(Message::ChatText(format!(
                    "文件上传成功: {} (ID: {})",
                    row.filename, row.file_id
                ))),
            },
            Err(e) => out.push(self.upload_error(request_id, &e)),
        }
    }

    async fn uploads(&self) -> Result<Vec<UploadRow>, StoreError> {
        let id = self.session_id.clone();
        self.ctx.store.run(move |s| s.list_uploads(&id)).await
    }

    /// INDEX_RETRY: a `failed` upload of this session is indexed / embedded again.
    async fn retry_index(&self, d: protocol::FileDelete) -> Message {
        let rows = match self.uploads().await {
            Ok(r) => r,
            Err(e) => return store_error(e, d.request_id),
        };
        let p = d.file_id.trim();
        let found: Vec<&UploadRow> = rows
            .iter()
            .filter(|u| !p.is_empty() && u.file_id.starts_with(p))
            .collect();
        let row = match found.as_slice() {
            [one] => (*one).clone(),
            [] => {
                return Message::error(
                    "not_found",
                    format!("本会话没有文件 {p} / no such file in this session"),
                    Some(d.request_id),
                )
            }
            many => {
                return Message::error(
                    "ambiguous",
                    format!(
                        "文件 ID 前缀 {p} 匹配 {} 个文件 / ambiguous prefix",
                        many.len()
                    ),
                    Some(d.request_id),
                )
            }
        };
        if row.state != "failed" {
            return Message::error(
                "not_failed",
                format!(
                    "文件 {} 的索引状态是 {}，无需重试 / only a failed file can be retried",
                    row.filename, row.state
                ),
                Some(d.request_id),
            );
        }
        let Some(h) = self.ctx.index.clone() else {
            return Message::error(
                "unavailable",
                "文档索引未启用 / the document index is off".to_string(),
                Some(d.request_id),
            );
        };
        let push = (self.mode == Mode::Extension).then(|| self.push_tx.clone());
        let r = row.clone();
        let (state, _) = tokio::task::spawn_blocking(move || h.retry_upload(&r, push))
            .await
            .unwrap_or_else(|_| ("failed".into(), Some("indexing panicked".into())));
        Message::Ack(Ack {
            request_id: d.request_id,
            message: format!("已重新开始索引 {} ({state}) / retrying", row.filename),
        })
    }

    async fn delete_file(&self, d: protocol::FileDelete) -> Message {
        let rows = match self.uploads().await {
            Ok(r) => r,
            Err(e) => return store_error(e, d.request_id),
        };
        let matches: Vec<&UploadRow> = rows
            .iter()
            .filter(|u| u.file_id.starts_with(d.file_id.trim()) && !d.file_id.trim().is_empty())
            .collect();
        let row = match matches.as_slice() {
            [one] => (*one).clone(),
            [] => {
                return Message::error(
                    "not_found",
                    format!(
                        "本会话没有文件 {} / no such file in this session",
                        d.file_id
                    ),
                    Some(d.request_id),
                )
            }
            many => {
                return Message::error(
                    "ambiguous",
                    format!(
                        "文件 ID 前缀 {} 匹配 {} 个文件 / ambiguous prefix",
                        d.file_id,
                        many.len()
                    ),
                    Some(d.request_id),
                )
            }
        };
        match self.ctx.delete_upload(&row).await {
            Ok(()) => Message::Ack(Ack {
                request_id: d.request_id,
                message: format!("已删除文件 {} / deleted", row.filename),
            }),
            Err(e) => Message::error("io_error", e, Some(d.request_id)),
        }
    }

    // ----- sessions, history, models -------------------------------------------------

    async fn history(&self, limit: usize) -> Result<Vec<crate::store::MessageRow>, StoreError> {
        let id = self.session_id.clone();
        self.ctx.store.run(move |s| s.history(&id, limit)).await
    }

    async fn switch_session(&mut self, prefix: &str) -> Result<SessionRow, StoreError> {
        let p = prefix.to_string();
        let s = self
            .ctx
            .store
            .run(move |s| {
                let id = s.resolve_session(&p)?;
                s.session(&id)
            })
            .await?;
        self.session_id = s.id.clone();
        Ok(s)
    }

    /// Deletes a session other than the current one; returns its id.
    async fn delete_session(&mut self, prefix: &str) -> Result<String, StoreError> {
        let p = prefix.to_string();
        let id = self.ctx.store.run(move |s| s.resolve_session(&p)).await?;
        if id == self.session_id {
            return Err(StoreError::Forbidden(
                "不能删除当前会话，请先切换到其他会话 / cannot delete the current session".into(),
            ));
        }
        let i = id.clone();
        let uploads = self.ctx.store.run(move |s| s.delete_session(&i)).await?;
        // Its chunks and vectors go now, not at the next restart's orphan sweep.
        if let Some(h) = &self.ctx.index {
            let (h, i) = (h.clone(), id.clone());
            match tokio::task::spawn_blocking(move || h.engine.remove_session(&i)).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::warn!("cannot remove session {id} from the index: {e}"),
                Err(e) => tracing::warn!("index removal of session {id} panicked: {e}"),
            }
        }
        for u in uploads {
            self.ctx.remove_upload_files(&u).await;
        }
        let (outputs, i) = (self.ctx.outputs.clone(), id.clone());
        match tokio::task::spawn_blocking(move || outputs.delete_session(&i)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("cannot remove the tool outputs of session {id}: {e}"),
            Err(e) => tracing::warn!("tool output removal of session {id} panicked: {e}"),
        }
        Ok(id)
    }

    async fn session_cmd(&mut self, op: SessionOp) -> Result<SessionReplyParts, StoreError> {
        let op_name = match &op {
            SessionOp::List => "list",
            SessionOp::New { .. } => "new",
            SessionOp::Switch { .. } => "switch",
            SessionOp::Delete { .. } => "delete",
            SessionOp::Rename { .. } => "rename",
        };
        match op {
            SessionOp::List => {}
            SessionOp::New { name } => {
                let s = self
                    .ctx
                    .store
                    .run(move |s| s.create_session(name.as_deref()))
                    .await?;
                self.session_id = s.id;
            }
            SessionOp::Switch { id } => {
                self.switch_session(&id).await?;
            }
            SessionOp::Delete { id } => {
                self.delete_session(&id).await?;
            }
            SessionOp::Rename { id, name } => {
                if name.trim().is_empty() {
                    return Err(StoreError::Forbidden(
                        "会话名称不能为空 / name must not be empty".into(),
                    ));
                }
                let current = self.session_id.clone();
                self.ctx
                    .store
                    .run(move |s| {
                        let target = match id {
                            Some(p) => s.resolve_session(&p)?,
                            None => current,
                        };
                        s.rename_session(&target, &name)
                    })
                    .await?;
            }
        }
        let cur = self.session_id.clone();
        let (current, sessions) = self
            .ctx
            .store
            .run(move |s| {
                let current = if cur.is_empty() {
                    None
                } else {
                    Some(s.session(&cur)?)
                };
                Ok((current, s.list_sessions()?))
            })
            .await?;
        Ok(SessionReplyParts {
            op: op_name.into(),
            // A read-only connection without a session has an empty current one.
            current: current.as_ref().map_or_else(
                || SessionInfo {
                    id: String::new(),
                    name: String::new(),
                    created_at: String::new(),
                    updated_at: String::new(),
                    messages: 0,
                },
                session_info,
            ),
            sessions: sessions.iter().map(session_info).collect(),
        })
    }

    async fn set_model(&self, model: &str) -> Result<(), String> {
        let models = self.ctx.models();
        if !models.iter().any(|m| m == model) {
            return Err(format!(
                "未知模型 / unknown model '{model}'; 可用 / available: {}",
                models.join(", ")
            ));
        }
        let id = self.session_id.clone();
        let m = model.to_string();
        self.ctx
            .store
            .run(move |s| s.set_session_model(&id, &m))
            .await
            .map_err(|e| e.to_string())?;
        // The next turn reads the stored model; a deliberate switch also gives the LLM a
        // fresh start after earlier failures.
        self.ctx.llm_health.success(&self.session_id);
        Ok(())
    }

    async fn model_info(&self, request_id: u64) -> Message {
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

/// Whether a message of a connection without a session makes one first: everything but
/// reading (status, search, files, history, the session list) and housekeeping.
fn needs_session(m: &Message) -> bool {
    !matches!(
        m,
        Message::Heartbeat(_)
            | Message::ChatText(_)
            | Message::StatusRequest(_)
            | Message::Search(_)
            | Message::FileList(_)
            | Message::HistoryGet(_)
            | Message::ModelList(_)
            | Message::MonitorSubscribe(_)
            | Message::MonitorUnsubscribe(_)
            | Message::Cancel(_)
            | Message::SessionCmd(protocol::SessionCmd {
                op: protocol::SessionOp::List
                    | protocol::SessionOp::New { .. }
                    | protocol::SessionOp::Switch { .. }
                    | protocol::SessionOp::Delete { .. },
                ..
            })
    )
}

struct SessionReplyParts {
    op: String,
    current: SessionInfo,
    sessions: Vec<SessionInfo>,
}

impl SessionReplyParts {
    fn with_request(self, request_id: u64) -> SessionReply {
        SessionReply {
            request_id,
            op: self.op,
            current: self.current,
            sessions: self.sessions,
        }
    }
}

fn store_error(e: StoreError, request_id: u64) -> Message {
    let (code, msg) = match &e {
        StoreError::NotFound(_) => ("not_found", e.to_string()),
        StoreError::Ambiguous { .. } => ("ambiguous", e.to_string()),
        StoreError::Forbidden(m) => ("forbidden", m.clone()),
        _ => ("internal", e.to_string()),
    };
    Message::error(code, msg, Some(request_id))
}

fn agent_event(request_id: u64, event: AgentEventKind) -> Message {
    Message::AgentEvent(AgentEvent { request_id, event })
}

/// A legacy stream chunk must not be blank (ends the stream) or exactly `HEARTBEAT`
/// (swallowed).
fn legacy_chunk_ok(s: &str) -> bool {
    !s.trim().is_empty() && s.trim() != LEGACY_HEARTBEAT
}

pub fn session_info(s: &SessionRow) -> SessionInfo {
    SessionInfo {
        id: s.id.clone(),
        name: s.name.clone(),
        created_at: s.created_at.clone(),
        updated_at: s.updated_at.clone(),
        messages: s.messages,
    }
}

pub fn file_info(u: &UploadRow) -> FileInfo {
    FileInfo {
        file_id: u.file_id.clone(),
        filename: u.filename.clone(),
        size: u.size,
        sha256: u.sha256.clone(),
        content_type: u.content_type.clone(),
        uploaded_at: u.uploaded_at.clone(),
        state: u.state.clone(),
        detail: u.detail.clone(),
    }
}

fn history_message(m: crate::store::MessageRow) -> HistoryMessage {
    HistoryMessage {
        role: m.role,
        text: m.text,
        time: m.time,
        tool_calls: m
            .tool_calls
            .into_iter()
            .map(|c| ToolCallRecord {
                tool: c.tool,
                args: c.args,
                ok: c.ok,
                duration_ms: c.duration_ms,
                summary: c.summary,
                output: c.output,
            })
            .collect(),
    }
}

fn legacy_history_text(rows: &[crate::store::MessageRow]) -> String {
    if rows.is_empty() {
        return "暂无历史记录".into();
    }
    let mut s = String::from("历史记录:\n");
    for m in rows {
        let who = if m.role == "user" { "用户" } else { "助手" };
        s.push_str(&format!("[{}] {}: {}\n", m.time, who, m.text));
        for c in &m.tool_calls {
            s.push_str(&format!(
                "    工具 {} {} ({} ms): {}\n",
                c.tool,
                if c.ok { "成功" } else { "失败" },
                c.duration_ms,
                c.summary
            ));
        }
    }
    s
}

fn legacy_sessions_text(list: &[SessionRow], current: &str) -> String {
    let mut s = String::from("会话列表:\n");
    for r in list {
        s.push_str(&format!(
            "{} {} {} ({} 条消息, 更新于 {})\n",
            if r.id == current { "*" } else { " " },
            &r.id,
            r.name,
            r.messages,
            r.updated_at
        ));
    }
    s
}

fn offer_state_zh(state: &str) -> &'static str {
    match state {
        "accepted" => "接受",
        "rejected" => "拒绝",
        "expired" => "过期",
        "transferred" => "完成传输",
        "failed" => "失败",
        _ => "关闭",
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_chunks_are_never_blank_or_heartbeat() {
        assert!(!legacy_chunk_ok(""));
        assert!(!legacy_chunk_ok("  \n"));
        assert!(!legacy_chunk_ok("HEARTBEAT"));
        assert!(legacy_chunk_ok("HEARTBEAT is"));
        assert!(legacy_chunk_ok(" a"));
    }

    #[test]
    fn token_comparison() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
