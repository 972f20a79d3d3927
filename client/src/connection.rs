//! The connection actor shared by the full-screen UI and the subcommands: HELLO/WELCOME,
//! heartbeats, reconnect with backoff that resumes the session, and request/reply
//! correlation by request id. Callers talk to it through a cloneable `Client` handle.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use protocol::{ChatSend, FileInfo, Inbound, Message, Raw, UploadStart, Welcome};
use rdt_io::MessageCodec;
use tokio::io::AsyncReadExt;
use tokio::sync::{mpsc, oneshot};
use tokio_util::codec::Framed;

use crate::endpoint::Stream;
use crate::handshake::{hello, HandshakeReply, MAX_FRAMES_BEFORE_WELCOME};

/// Upload data frame size: 64 KiB less nothing, sent back to back with no pacing.
pub const UPLOAD_CHUNK: usize = 64 * 1024 - 1;
/// `auto` uploads go over RDT above this size (NPLT frames are as fast for small files and
/// need no UDP path).
pub const RDT_UPLOAD_THRESHOLD: u64 = 8 * 1024 * 1024;
/// `auto` mode: an RDT handshake unanswered this long means UDP is blocked; use NPLT.
const RDT_UPLOAD_HANDSHAKE: Duration = Duration::from_secs(3);

/// How an upload's bytes travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadMode {
    /// RDT above the threshold, falling back to NPLT when UDP gets no answer.
    Auto {
        threshold: u64,
    },
    Rdt,
    Nplt,
}

impl Default for UploadMode {
    fn default() -> Self {
        UploadMode::Auto {
            threshold: RDT_UPLOAD_THRESHOLD,
        }
    }
}

/// Outcome of an RDT upload attempt.
enum RdtTry {
    Done(FileInfo),
    /// No RDT path (no UDP answer, server without RDT): the caller may use NPLT.
    Fallback(String),
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("无法连接服务器 / cannot reach the server at {addr}: {err}")]
    Unreachable { addr: String, err: String },
    /// Something answered on the port, but not an llmops (NPLT) server.
    #[error("{addr} 不是 llmops (NPLT) 服务器 / {addr} is not an llmops (NPLT) server: {detail}")]
    NotNplt { addr: String, detail: String },
    #[error("connection lost / 连接已断开")]
    Disconnected,
    #[error("{message} ({code})")]
    Server { code: String, message: String },
    #[error("protocol error: {0}")]
    Protocol(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("timed out waiting for the server / 等待服务器超时")]
    Timeout,
    /// A download's destination folder is missing or not a folder.
    #[error("目标文件夹不存在 / the destination folder {} does not exist or is not a folder", .0.display())]
    NoSuchFolder(std::path::PathBuf),
}

/// Things the actor tells its owner, besides replies to requests.
#[derive(Debug, Clone)]
pub enum ClientEvent {
    Connected(Welcome),
    /// Lost the connection; retrying after `retry_in`.
    Reconnecting {
        attempt: u32,
        retry_in: Duration,
        reason: String,
    },
    /// Any message not consumed as a reply (stream events, snapshots, offers, status).
    Message(Message),
}

#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Where the server is: `host:port`, `unix:/path`, or several of them comma-separated
    /// (tried in order; see `endpoint`).
    pub server: String,
    pub resume_session: Option<String>,
    pub auth_token: Option<String>,
    pub client_name: String,
    /// Reconnect after losing the connection (the TUI); subcommands fail fast instead.
    pub reconnect: bool,
    pub connect_timeout: Duration,
    /// Read-only use (`status`, `search`, `files`, `sessions`): the server creates no
    /// session for this connection unless one is resumed.
    pub no_new_session: bool,
    /// Print transport notices (a download falling back from RDT to NPLT) on stderr as well
    /// as in the log: on for the script commands, off while a full-screen UI owns the
    /// terminal.
    pub stderr_notices: bool,
}

impl ClientOptions {
    pub fn new(server: impl Into<String>) -> Self {
        ClientOptions {
            server: server.into(),
            resume_session: None,
            auth_token: None,
            client_name: "llmops-tui".into(),
            reconnect: false,
            connect_timeout: Duration::from_secs(5),
            no_new_session: false,
            stderr_notices: true,
        }
    }
}

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<Message>>>>;
type Streams = Arc<Mutex<HashMap<u64, mpsc::UnboundedSender<Message>>>>;

/// Cloneable handle to the connection actor.
#[derive(Clone)]
pub struct Client {
    out: mpsc::Sender<Message>,
    next_id: Arc<AtomicU64>,
    pending: Pending,
    streams: Streams,
    welcome: Arc<Mutex<Welcome>>,
    stderr_notices: bool,
}

/// A request that was sent; [`PendingReply::wait`] gives its reply.
pub struct PendingReply {
    client: Client,
    id: u64,
    rx: oneshot::Receiver<Message>,
}

impl PendingReply {
    /// The request id it was sent under.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Waits for the reply (an `ERROR` reply becomes `ClientError::Server`).
    pub async fn wait(self, timeout: Duration) -> Result<Message, ClientError> {
        let PendingReply { client, id, rx } = self;
        let reply = tokio::time::timeout(timeout, rx)
            .await
            .map_err(|_| {
                client
                    .pending
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&id);
                ClientError::Timeout
            })?
            .map_err(|_| ClientError::Disconnected)?;
        if let Message::SessionReply(r) = &reply {
            client.set_session(&r.current.id, &r.current.name);
        }
        match reply {
            Message::Error(e) => Err(ClientError::from(e)),
            other => Ok(other),
        }
    }
}

/// Request id a reply answers, if it is a reply.
fn reply_id(m: &Message) -> Option<u64> {
    match m {
        Message::Error(e) => e.request_id,
        Message::SessionReply(r) => Some(r.request_id),
        Message::History(r) => Some(r.request_id),
        Message::Ack(r) => Some(r.request_id),
        Message::ModelInfo(r) => Some(r.request_id),
        Message::UploadResult(r) => Some(r.request_id),
        Message::UploadGrant(r) => Some(r.request_id),
        Message::UploadLookupReply(r) => Some(r.request_id),
        Message::FileListReply(r) => Some(r.request_id),
        Message::ServerStatus(r) => Some(r.request_id),
        Message::OutputPage(r) => Some(r.request_id),
        Message::FileRegionReply(r) => Some(r.request_id),
        Message::SearchResults(r) => r.request_id,
        Message::Offer(o) => o.request_id,
        Message::Grants(r) => Some(r.request_id),
        Message::ProcessInfo(r) => Some(r.request_id),
        Message::WatchOutput(r) => Some(r.request_id),
        _ => None,
    }
}

/// Request id of a turn's stream event.
fn turn_id(m: &Message) -> Option<u64> {
    match m {
        Message::StreamStart(s) => Some(s.request_id),
        Message::StreamDelta(s) => Some(s.request_id),
        Message::StreamEnd(s) => Some(s.request_id),
        Message::AgentEvent(s) => Some(s.request_id),
        Message::ToolOutput(s) => Some(s.request_id),
        Message::SearchResults(s) => s.request_id,
        Message::Offer(o) => o.request_id,
        Message::ApprovalRequest(a) => a.request_id,
        Message::ApprovalState(a) => a.request_id,
        Message::Error(e) => e.request_id,
        _ => None,
    }
}

async fn open(
    opts: &ClientOptions,
    resume: Option<String>,
) -> Result<(Framed<Stream, MessageCodec>, Welcome), ClientError> {
    let unreachable = |err: String| ClientError::Unreachable {
        addr: opts.server.clone(),
        err,
    };
    let stream = crate::endpoint::connect(&opts.server, opts.connect_timeout)
        .await
        .map_err(unreachable)?;
    let mut framed = Framed::new(stream, MessageCodec::new());
    framed
        .send(hello(
            &opts.client_name,
            env!("CARGO_PKG_VERSION"),
            resume,
            opts.auth_token.clone(),
            opts.no_new_session,
        ))
        .await
        .map_err(|e| unreachable(e.to_string()))?;
    let deadline = tokio::time::Instant::now() + opts.connect_timeout;
    let not_nplt = |detail: String| ClientError::NotNplt {
        addr: opts.server.clone(),
        detail,
    };
    let mut frames = 0u32;
    loop {
        let next = tokio::time::timeout_at(deadline, framed.next())
            .await
            .map_err(|_| {
                not_nplt(format!(
                    "no WELCOME within {} s of HELLO",
                    opts.connect_timeout.as_secs()
                ))
            })?;
        match next {
            // A legacy welcome may precede ours on a slow link: skip anything before WELCOME.
            Some(Ok(Inbound::Msg(m))) => match HandshakeReply::from(m) {
                HandshakeReply::Welcome(w) => return Ok((framed, w)),
                HandshakeReply::Refused(e) => return Err(ClientError::from(e)),
                HandshakeReply::Other if frames < MAX_FRAMES_BEFORE_WELCOME => frames += 1,
                HandshakeReply::Other => {
                    return Err(not_nplt("no WELCOME in its first frames".into()))
                }
            },
            Some(Ok(_)) if frames < MAX_FRAMES_BEFORE_WELCOME => frames += 1,
            Some(Ok(_)) => return Err(not_nplt("no WELCOME in its first frames".into())),
            // Bytes that do not frame as NPLT (an HTTP or SSH banner, a half frame at close).
            Some(Err(e)) => return Err(not_nplt(format!("unexpected bytes ({e})"))),
            None => return Err(unreachable("connection closed during handshake".into())),
        }
    }
}

impl Client {
    /// Connects and completes the handshake; events go to the returned receiver.
    pub async fn connect(
        opts: ClientOptions,
    ) -> Result<(Client, mpsc::UnboundedReceiver<ClientEvent>), ClientError> {
        let (framed, welcome) = open(&opts, opts.resume_session.clone()).await?;
        let (out_tx, out_rx) = mpsc::channel::<Message>(64);
        let (ev_tx, ev_rx) = mpsc::unbounded_channel();
        let client = Client {
            out: out_tx,
            next_id: Arc::new(AtomicU64::new(1)),
            pending: Arc::default(),
            streams: Arc::default(),
            welcome: Arc::new(Mutex::new(welcome.clone())),
            stderr_notices: opts.stderr_notices,
        };
        let _ = ev_tx.send(ClientEvent::Connected(welcome));
        let c = client.clone();
        tokio::spawn(async move { c.actor(opts, framed, out_rx, ev_tx).await });
        Ok((client, ev_rx))
    }

    pub fn welcome(&self) -> Welcome {
        self.welcome
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn session_id(&self) -> String {
        self.welcome().session_id
    }

    /// Whether transport notices also go to stderr (see [`ClientOptions::stderr_notices`]).
    pub fn stderr_notices(&self) -> bool {
        self.stderr_notices
    }

    pub fn next_request_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    async fn actor(
        self,
        opts: ClientOptions,
        mut framed: Framed<Stream, MessageCodec>,
        mut out_rx: mpsc::Receiver<Message>,
        ev_tx: mpsc::UnboundedSender<ClientEvent>,
    ) {
        let mut attempt = 0u32;
        loop {
            let heartbeat = Duration::from_secs(u64::from(self.welcome().heartbeat_secs.max(5)));
            let reason = self.pump(&mut framed, &mut out_rx, &ev_tx, heartbeat).await;
            // Everything waiting on this connection fails now.
            self.fail_all();
            let Some(reason) = reason else { return };
            if !opts.reconnect {
                return;
            }
            loop {
                attempt += 1;
                let retry_in = Duration::from_millis((250u64 << attempt.min(6)).min(10_000));
                let _ = ev_tx.send(ClientEvent::Reconnecting {
                    attempt,
                    retry_in,
                    reason: reason.clone(),
                });
                tokio::time::sleep(retry_in).await;
                if ev_tx.is_closed() {
                    return;
                }
                match open(&opts, Some(self.session_id())).await {
                    Ok((f, w)) => {
                        framed = f;
                        attempt = 0;
                        *self.welcome.lock().unwrap_or_else(|p| p.into_inner()) = w.clone();
                        let _ = ev_tx.send(ClientEvent::Connected(w));
                        break;
                    }
                    Err(e) => tracing::debug!("reconnect failed: {e}"),
                }
            }
        }
    }

    /// Runs one connection until it fails (Some(reason)) or the owner is gone (None).
    async fn pump(
        &self,
        framed: &mut Framed<Stream, MessageCodec>,
        out_rx: &mut mpsc::Receiver<Message>,
        ev_tx: &mpsc::UnboundedSender<ClientEvent>,
        heartbeat: Duration,
    ) -> Option<String> {
        let mut last_in = tokio::time::Instant::now();
        loop {
            // Silence for two heartbeat periods means the server or the path is gone.
            let dead_at = last_in + heartbeat * 2 + Duration::from_secs(10);
            tokio::select! {
                m = out_rx.recv() => match m {
                    Some(m) => {
                        if let Err(e) = framed.send(m).await {
                            return Some(e.to_string());
                        }
                    }
                    None => return None,
                },
                inbound = framed.next() => match inbound {
                    None => return Some("server closed the connection".into()),
                    Some(Err(e)) => return Some(e.to_string()),
                    Some(Ok(Inbound::Bad { ty, error })) => {
                        tracing::debug!("bad frame 0x{ty:02x} from server: {error}");
                    }
                    Some(Ok(Inbound::Msg(m))) => {
                        last_in = tokio::time::Instant::now();
                        if matches!(m, Message::Heartbeat(_)) {
                            if let Err(e) = framed.send(Message::Heartbeat(protocol::Empty)).await {
                                return Some(e.to_string());
                            }
                            continue;
                        }
                        self.route(m, ev_tx);
                    }
                },
                _ = tokio::time::sleep_until(dead_at) => return Some("server stopped responding".into()),
            }
        }
    }

    fn route(&self, m: Message, ev_tx: &mpsc::UnboundedSender<ClientEvent>) {
        if let Some(id) = turn_id(&m) {
            let mut streams = self.streams.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(tx) = streams.get(&id) {
                let end = matches!(m, Message::StreamEnd(_));
                let _ = tx.send(m.clone());
                if end {
                    streams.remove(&id);
                }
                // Search hits and offers also go to the UI's panes.
                if matches!(m, Message::SearchResults(_) | Message::Offer(_)) {
                    let _ = ev_tx.send(ClientEvent::Message(m));
                }
                return;
            }
        }
        if let Some(id) = reply_id(&m) {
            let tx = self
                .pending
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&id);
            if let Some(tx) = tx {
                let _ = tx.send(m);
                return;
            }
        }
        if let Message::SessionReply(r) = &m {
            self.set_session(&r.current.id, &r.current.name);
        }
        let _ = ev_tx.send(ClientEvent::Message(m));
    }

    fn set_session(&self, id: &str, name: &str) {
        let mut w = self.welcome.lock().unwrap_or_else(|p| p.into_inner());
        w.session_id = id.to_string();
        w.session_name = name.to_string();
    }

    fn fail_all(&self) {
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        self.streams
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    /// Sends a message without waiting for anything.
    pub async fn send(&self, m: Message) -> Result<(), ClientError> {
        self.out
            .send(m)
            .await
            .map_err(|_| ClientError::Disconnected)
    }

    /// Sends a request built with a fresh id and waits for its reply (an `ERROR` reply
    /// becomes `ClientError::Server`).
    pub async fn request(
        &self,
        build: impl FnOnce(u64) -> Message,
        timeout: Duration,
    ) -> Result<Message, ClientError> {
        self.send_request(build).await?.wait(timeout).await
    }

    /// Sends a request built with a fresh id and returns at once with the wait for its
    /// reply. A caller that sends its requests one after another this way keeps them in
    /// the order it made them (the server handles a connection's frames in order), while
    /// the replies are awaited concurrently.
    pub async fn send_request(
        &self,
        build: impl FnOnce(u64) -> Message,
    ) -> Result<PendingReply, ClientError> {
        let id = self.next_request_id();
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, tx);
        if let Err(e) = self.send(build(id)).await {
            self.pending
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&id);
            return Err(e);
        }
        Ok(PendingReply {
            client: self.clone(),
            id,
            rx,
        })
    }

    /// Answers an approval request (`APPROVAL_REPLY`). The outcome arrives in the turn's
    /// stream as `APPROVAL_STATE`; a reply to an unknown or finished id gets an `ERROR`
    /// `not_found` without a request id (a `ClientEvent::Message`).
    pub async fn reply_approval(
        &self,
        approval_id: &str,
        decision: protocol::ApprovalDecision,
    ) -> Result<(), ClientError> {
        self.send(Message::ApprovalReply(protocol::ApprovalReply {
            approval_id: approval_id.to_string(),
            decision,
        }))
        .await
    }

    /// The standing grants this session can see (`GRANTS_LIST`).
    pub async fn grants(&self, timeout: Duration) -> Result<Vec<protocol::GrantInfo>, ClientError> {
        match self
            .request(
                |id| Message::GrantsList(protocol::Req { request_id: id }),
                timeout,
            )
            .await?
        {
            Message::Grants(g) => Ok(g.grants),
            other => Err(ClientError::Protocol(format!(
                "GRANTS_LIST answered with {}",
                other.msg_type().wire_name()
            ))),
        }
    }

    /// Revokes a standing grant (`GRANT_REVOKE`); returns the server's acknowledgement text.
    /// An unknown id is `ClientError::Server { code: "not_found", .. }`.
    pub async fn revoke_grant(
        &self,
        grant_id: &str,
        timeout: Duration,
    ) -> Result<String, ClientError> {
        let gid = grant_id.to_string();
        match self
            .request(
                move |id| {
                    Message::GrantRevoke(protocol::GrantRevoke {
                        request_id: id,
                        grant_id: gid,
                    })
                },
                timeout,
            )
            .await?
        {
            Message::Ack(a) => Ok(a.message),
            other => Err(ClientError::Protocol(format!(
                "GRANT_REVOKE answered with {}",
                other.msg_type().wire_name()
            ))),
        }
    }

    /// Starts a chat turn; the receiver yields its events through `STREAM_END`.
    pub async fn chat(
        &self,
        text: &str,
        file_ids: Vec<String>,
    ) -> Result<(u64, mpsc::UnboundedReceiver<Message>), ClientError> {
        self.chat_with(text, file_ids, None).await
    }

    /// Starts a turn that proposes exactly `argv` for approval (the operator's own
    /// proposal, e.g. a signal from the process pane); `text` says it in words.
    pub async fn propose(
        &self,
        text: &str,
        argv: Vec<String>,
    ) -> Result<(u64, mpsc::UnboundedReceiver<Message>), ClientError> {
        self.chat_with(text, Vec::new(), Some(argv)).await
    }

    async fn chat_with(
        &self,
        text: &str,
        file_ids: Vec<String>,
        action: Option<Vec<String>>,
    ) -> Result<(u64, mpsc::UnboundedReceiver<Message>), ClientError> {
        let id = self.next_request_id();
        let (tx, rx) = mpsc::unbounded_channel();
        self.streams
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, tx);
        self.send(Message::Chat(ChatSend {
            request_id: id,
            text: text.to_string(),
            file_ids,
            action,
        }))
        .await?;
        Ok((id, rx))
    }

    /// Uploads a local file in the default mode (`auto`), waiting for the server's result.
    pub async fn upload(&self, path: &Path) -> Result<FileInfo, ClientError> {
        self.upload_with(path, UploadMode::default(), &mut |_, _| {})
            .await
    }

    /// Uploads a local file over RDT or in 64 KiB NPLT frames (see [`UploadMode`]), with its
    /// sha256, waiting for the server's result. `progress(sent, total)` runs during RDT.
    pub async fn upload_with(
        &self,
        path: &Path,
        mode: UploadMode,
        progress: &mut (dyn FnMut(u64, u64) + Send),
    ) -> Result<FileInfo, ClientError> {
        let filename = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| ClientError::Protocol(format!("not a file name: {}", path.display())))?
            .to_string();
        let meta = tokio::fs::metadata(path).await?;
        if !meta.is_file() {
            return Err(ClientError::Protocol(format!(
                "不是普通文件 / not a regular file: {}",
                path.display()
            )));
        }
        let sha = sha256_file(path).await?;
        let rdt = match mode {
            UploadMode::Nplt => false,
            UploadMode::Rdt => true,
            UploadMode::Auto { threshold } => meta.len() > threshold,
        };
        if rdt {
            let auto = matches!(mode, UploadMode::Auto { .. });
            match self
                .upload_rdt(path, &filename, meta.len(), &sha, auto, progress)
                .await?
            {
                RdtTry::Done(f) => return Ok(f),
                RdtTry::Fallback(why) if auto => {
                    tracing::info!("rdt upload unavailable, using nplt: {why}");
                }
                RdtTry::Fallback(why) => {
                    return Err(ClientError::Protocol(format!(
                        "RDT 上传不可用 / RDT upload unavailable: {why}"
                    )))
                }
            }
        }
        self.upload_nplt(path, filename, meta.len(), sha).await
    }

    /// UPLOAD_RDT_START, then the push over UDP, then the server's UPLOAD_RESULT.
    async fn upload_rdt(
        &self,
        path: &Path,
        filename: &str,
        size: u64,
        sha: &str,
        auto: bool,
        progress: &mut (dyn FnMut(u64, u64) + Send),
    ) -> Result<RdtTry, ClientError> {
        let id = self.next_request_id();
        let rx = self.expect_reply(id);
        self.send(Message::UploadRdtStart(UploadStart {
            request_id: id,
            filename: filename.to_string(),
            size,
            sha256: Some(sha.to_string()),
            result_on_save: true,
        }))
        .await?;
        let grant = match self.await_reply(rx, Duration::from_secs(30)).await? {
            Message::UploadGrant(g) => g,
            Message::Error(e) if e.code == "rdt_unavailable" || e.code == "unknown_type" => {
                return Ok(RdtTry::Fallback(e.message))
            }
            other => return Err(reply_error(other)),
        };
        let token = hex::decode(&grant.token)
            .map_err(|_| ClientError::Protocol("bad token in UPLOAD_GRANT".into()))?;
        let addr: std::net::SocketAddr = grant
            .rdt_addr
            .parse()
            .map_err(|_| ClientError::Protocol("bad rdt_addr in UPLOAD_GRANT".into()))?;
        // Registered before the push: the result can only follow it.
        let result = self.expect_reply(id);
        let handshake = auto.then_some(RDT_UPLOAD_HANDSHAKE);
        // The control connection is watched while the datagrams flow: when it closes (the
        // server died or restarted) the push stops at once as a lost connection, which the
        // caller can resume (the server keeps what arrived), instead of retrying into the
        // void until the RDT retry limit.
        let pushed = tokio::select! {
            r = crate::rdt::upload(addr, &token, path, size, handshake, progress) => r,
            _ = self.out.closed() => {
                self.forget_reply(id);
                return Err(ClientError::Disconnected);
            }
        };
        match pushed {
            Ok(()) => {}
            Err(crate::rdt::RdtError::NoAnswer(a)) => {
                self.forget_reply(id);
                return Ok(RdtTry::Fallback(format!("no answer from {a}")));
            }
            Err(e) => {
                // The server usually says why (refused content, I/O): prefer its words.
                return match self.await_reply(result, Duration::from_secs(5)).await {
                    Ok(Message::Error(se)) => Err(ClientError::Server {
                        code: se.code,
                        message: se.message,
                    }),
                    Err(ClientError::Disconnected) => Err(ClientError::Disconnected),
                    _ => {
                        self.forget_reply(id);
                        Err(ClientError::Protocol(e.to_string()))
                    }
                };
            }
        }
        match self.await_reply(result, Duration::from_secs(120)).await? {
            Message::UploadResult(r) => Ok(RdtTry::Done(r.file)),
            other => Err(reply_error(other)),
        }
    }

    fn expect_reply(&self, id: u64) -> oneshot::Receiver<Message> {
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, tx);
        rx
    }

    fn forget_reply(&self, id: u64) {
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
    }

    async fn await_reply(
        &self,
        rx: oneshot::Receiver<Message>,
        limit: Duration,
    ) -> Result<Message, ClientError> {
        tokio::time::timeout(limit, rx)
            .await
            .map_err(|_| ClientError::Timeout)?
            .map_err(|_| ClientError::Disconnected)
    }

    /// UPLOAD_START and 64 KiB UPLOAD_DATA frames on this connection.
    async fn upload_nplt(
        &self,
        path: &Path,
        filename: String,
        size: u64,
        sha: String,
    ) -> Result<FileInfo, ClientError> {
        let meta_len = size;
        let reply = self
            .send_request(|id| {
                Message::UploadStart(UploadStart {
                    request_id: id,
                    filename,
                    size: meta_len,
                    sha256: Some(sha),
                    // The result as soon as the file is durable (indexing can take a
                    // while, and a crash during it must not look like a lost upload).
                    result_on_save: true,
                })
            })
            .await?;
        let mut f = tokio::fs::File::open(path).await?;
        let mut sent = 0u64;
        let mut buf = vec![0u8; UPLOAD_CHUNK];
        while sent < meta_len {
            let n = f.read(&mut buf).await?;
            if n == 0 {
                break;
            }
            sent += n as u64;
            self.send(Message::UploadData(Raw(Bytes::copy_from_slice(&buf[..n]))))
                .await?;
        }
        match reply.wait(Duration::from_secs(120)).await? {
            Message::UploadResult(r) => Ok(r.file),
            other => Err(reply_error(other)),
        }
    }
}

impl From<protocol::ErrorMsg> for ClientError {
    fn from(e: protocol::ErrorMsg) -> Self {
        ClientError::Server {
            code: e.code,
            message: e.message,
        }
    }
}

/// An error reply as a `ClientError`.
fn reply_error(m: Message) -> ClientError {
    match m {
        Message::Error(e) => ClientError::from(e),
        other => ClientError::Protocol(format!("unexpected reply {:?}", other.msg_type())),
    }
}

/// The file's sha256, computed on the blocking pool (one hasher for the whole client).
pub async fn sha256_file(path: &Path) -> Result<String, std::io::Error> {
    let p = path.to_path_buf();
    tokio::task::spawn_blocking(move || crate::rdt::sha256_of(&p))
        .await
        .map_err(std::io::Error::other)?
}

#[cfg(test)]
mod handshake_tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    /// A peer that answers HELLO with `reply` (then closes, unless `hold`).
    async fn peer(reply: &'static [u8], hold: bool) -> String {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = l.local_addr().expect("addr").to_string();
        tokio::spawn(async move {
            if let Ok((mut s, _)) = l.accept().await {
                let mut buf = [0u8; 256];
                let _ = s.read(&mut buf).await;
                let _ = s.write_all(reply).await;
                if hold {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                }
            }
        });
        addr
    }

    #[tokio::test]
    async fn an_http_server_is_not_an_nplt_server() {
        let addr = peer(
            b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            false,
        )
        .await;
        let err = Client::connect(ClientOptions::new(addr.clone()))
            .await
            .err()
            .expect("must fail");
        assert!(
            matches!(&err, ClientError::NotNplt { addr: a, .. } if *a == addr),
            "{err:?}"
        );
        assert!(err.to_string().contains("is not an llmops (NPLT) server"));
    }

    #[tokio::test]
    async fn a_silent_peer_is_reported_after_the_handshake_timeout() {
        let addr = peer(b"", true).await;
        let mut o = ClientOptions::new(addr);
        o.connect_timeout = Duration::from_millis(200);
        let err = Client::connect(o).await.err().expect("must fail");
        assert!(matches!(err, ClientError::NotNplt { .. }), "{err:?}");
    }
}
