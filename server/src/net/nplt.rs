//! One task per connection: decides legacy vs extension mode from the first frame, then
//! selects over inbound frames, the running turn's events, pushed updates, timers and
//! shutdown. It is the only writer of its socket. Nothing a peer sends can panic it or
//! affect another connection; bad frames get an error (extension) or are ignored (legacy).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use protocol::{Inbound, Message, LEGACY_HEARTBEAT};
use rdt_io::MessageCodec;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};
use tokio_util::codec::Framed;

use super::admission::{Busy, Phase, Refusal, Slot, REMOTE_TRANSFER_QUIET};
use crate::app::Ctx;
use crate::peer::Peer;
use crate::turn::{RunningTurn, TurnEvent};
use crate::uploads::Incoming;

/// Who an approval audit record is about: the connection's session, peer and owner
/// (field borrows, so it can be passed while another field is borrowed mutably).
macro_rules! who {
    ($c:expr) => {
        crate::approvals::Who {
            session_id: &$c.session_id,
            peer: &$c.peer,
            owner: &$c.owner,
        }
    };
}

mod approvals;
mod download;
mod extension;
mod legacy;
mod region;
mod request;
mod requests;
mod session;
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
        /// When data last arrived (or the upload started): the stall deadline counts from
        /// here; heartbeats do not move it.
        progress_at: Instant,
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
    peer: Peer,
    /// Its place in admission: phase, useful work and busy-ness tell whom to evict.
    slot: Slot,
    mode: Dialect,
    legacy_welcome_sent: bool,
    /// The current session's id; empty when there is none (a read-only client).
    session_id: String,
    /// Set while the current session is reserved but not stored yet: the row is written on
    /// first use (a message, an upload, a setting), so a connection that only said HELLO,
    /// or a silent legacy one, leaves nothing behind.
    reserved: Option<crate::store::Reserved>,
    /// Whose sessions this connection sees (its token's name or its Unix user).
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
    /// Transfers this connection started that run elsewhere (RDT, HTTP), by `o:OFFER` or
    /// `u:REQUEST`, with when they last reported: the connection counts as busy for them.
    remote: HashMap<String, Instant>,
    /// The watch run in progress and when the last one started.
    watch: watch::WatchSlot,
}

/// Serves one connection. `slot` is its place in admission: it leaves the budget before
/// HELLO once the peer completed HELLO or was greeted as a legacy client, and tells whom
/// to evict by the work the peer does; if a newcomer takes its place, the connection is
/// told why and closed.
pub async fn serve<S>(ctx: Arc<Ctx>, stream: S, peer: Peer, slot: Slot)
where
    S: AsyncRead + AsyncWrite + Unpin + Send,
{
    // Reads wake the loop even mid-frame, so the stall timer starts at a frame's first byte.
    let (stream, activity) = super::activity::Watched::new(stream);
    let mut framed = Framed::new(
        stream,
        MessageCodec::with_budget(ctx.reassembly.clone(), PRE_AUTH_REASSEMBLY_BYTES),
    );
    let mut share_raised = false;
    let (push_tx, mut push_rx) = mpsc::channel::<Message>(256);
    let (transfer_tx, mut transfer_rx) = mpsc::channel::<Message>(TRANSFER_QUEUE);
    let mut conn = Conn::new(ctx.clone(), peer.clone(), slot, push_tx, transfer_tx);
    let welcome_deadline = Instant::now() + conn.welcome_wait();
    tracing::debug!(%peer, "connection open");
    loop {
        let deadline = conn.next_deadline(welcome_deadline);
        let mut out: Vec<Message> = Vec::new();
        // Whether a frame other than a heartbeat arrived (useful work, for eviction).
        let mut useful = false;
        let flow = tokio::select! {
            biased;
            _ = ctx.shutdown.cancelled() => {
                if let Some(t) = &conn.turn { t.cancel.cancel(); }
                Flow::Close
            }
            frame = framed.next() => conn.on_frame(frame, &mut useful, &mut out).await,
            ev = recv_turn(&mut conn.turn) => {
                conn.on_turn_event(ev, &mut out).await;
                Flow::Continue
            }
            Some(msg) = push_rx.recv() => conn.on_push(msg, &mut out),
            Some(msg) = transfer_rx.recv() => conn.on_transfer_frame(msg, &mut out),
            _ = sleep_until(deadline) => conn.on_timer(welcome_deadline, &mut out).await,
            why = conn.slot.evicted() => conn.on_evicted(why, &mut out),
            // Bytes of an incomplete frame arrived: only the stall tracking below runs.
            _ = activity.notified() => Flow::Continue,
        };
        conn.update_admission(useful);
        track_framing(&mut conn, &mut framed, &mut share_raised);
        if send_all(&mut framed, out, &peer).await.is_err() {
            conn.close().await;
            return;
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

/// After each event: the reassembly share grows to one message once HELLO is done, and
/// bytes of a frame not complete yet start (or keep running) the stall clock.
fn track_framing<T>(
    conn: &mut Conn,
    framed: &mut Framed<T, MessageCodec>,
    share_raised: &mut bool,
) {
    if !*share_raised && conn.mode == Dialect::Extension {
        // Authenticated (or no token required and HELLO done): one message's share.
        *share_raised = true;
        framed
            .codec_mut()
            .set_conn_cap(protocol::MAX_MESSAGE_BYTES.min(conn.ctx.reassembly.limit()));
    }
    // Track a header that arrived without its payload (stalled peer).
    conn.partial_since = if framed.read_buffer().is_empty() {
        None
    } else {
        conn.partial_since.or(Some(Instant::now()))
    };
}

/// The write failed or timed out (already logged): the connection is closed at once.
struct WriteFailed;

/// Writes a loop iteration's frames in order, each within `WRITE_TIMEOUT`.
async fn send_all<T>(
    framed: &mut Framed<T, MessageCodec>,
    out: Vec<Message>,
    peer: &Peer,
) -> Result<(), WriteFailed>
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    for m in out {
        match tokio::time::timeout(WRITE_TIMEOUT, framed.send(m)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::debug!(%peer, "write failed: {e}");
                return Err(WriteFailed);
            }
            Err(_) => {
                tracing::info!(%peer, "peer stopped reading; closing");
                return Err(WriteFailed);
            }
        }
    }
    Ok(())
}

/// Heartbeats keep a connection open but are not useful work (for eviction).
fn is_heartbeat(item: &Inbound) -> bool {
    match item {
        Inbound::Msg(Message::Heartbeat(_)) => true,
        Inbound::Msg(Message::ChatText(t)) => t.trim() == LEGACY_HEARTBEAT,
        _ => false,
    }
}

async fn recv_turn(turn: &mut Option<RunningTurn>) -> Option<TurnEvent> {
    match turn {
        Some(t) => t.events.recv().await,
        None => std::future::pending().await,
    }
}

impl Conn {
    /// A connection that has received nothing yet.
    fn new(
        ctx: Arc<Ctx>,
        peer: Peer,
        slot: Slot,
        push_tx: mpsc::Sender<Message>,
        transfer_tx: mpsc::Sender<Message>,
    ) -> Conn {
        // A token names a remote client; a tokenless TCP client has no identity to check
        // against the approvers group.
        let may_approve = match peer.local_user() {
            Some(u) => ctx.local.may_approve(u),
            None if ctx.cfg.token_required() => Ok(()),
            None => ctx.local.may_approve_without_identity(),
        };
        let approvals = match may_approve {
            Err(why) => approvals::ApprovalBroker::refusing(why),
            Ok(()) => approvals::ApprovalBroker::default(),
        };
        let owner = match peer.local_user() {
            Some(u) => ctx.cfg.owner_for_local(u.uid),
            None => crate::store::Owner::unnamed(),
        };
        Conn {
            ctx,
            peer,
            slot,
            mode: Dialect::Pending,
            legacy_welcome_sent: false,
            session_id: String::new(),
            reserved: None,
            owner,
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
            approvals,
            remote: HashMap::new(),
            watch: watch::WatchSlot::default(),
        }
    }

    /// How long a silent peer may wait before it is taken for a legacy client. With a
    /// token required, a silent peer cannot be a legacy client we must greet (legacy
    /// clients can't authenticate), so give a HELLO delayed by TCP retransmissions on a
    /// lossy link time to arrive instead of refusing after the legacy welcome delay.
    fn welcome_wait(&self) -> Duration {
        let wait_ms = if self.token_required() {
            self.ctx
                .cfg
                .legacy_welcome_delay_ms
                .max(AUTH_HELLO_GRACE_MS)
        } else {
            self.ctx.cfg.legacy_welcome_delay_ms
        };
        Duration::from_millis(wait_ms)
    }

    /// What the codec yielded: a frame, a decoding error or the end of the stream.
    /// `useful` is set when the frame is more than a heartbeat.
    async fn on_frame(
        &mut self,
        frame: Option<Result<Inbound, protocol::FrameError>>,
        useful: &mut bool,
        out: &mut Vec<Message>,
    ) -> Flow {
        match frame {
            None => Flow::Close,
            Some(Err(protocol::FrameError::OverBudget { scope, limit })) => {
                tracing::warn!(peer = %self.peer, %scope, limit, mode = ?self.mode,
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
                tracing::debug!(peer = %self.peer, "frame error: {e}");
                Flow::Close
            }
            Some(Ok(item)) => {
                self.last_inbound = Instant::now();
                self.heartbeat_sent = false;
                // A whole frame arrived: the peer is making progress.
                self.partial_since = None;
                *useful = !is_heartbeat(&item);
                self.on_inbound(item, out).await
            }
        }
    }

    /// A frame pushed by another part of the server (a transfer's report, an index state).
    fn on_push(&mut self, msg: Message, out: &mut Vec<Message>) -> Flow {
        self.track_remote(&msg);
        if self.mode == Dialect::Extension {
            out.push(msg);
        }
        Flow::Continue
    }

    /// A frame of this connection's `nplt`-mode transfer.
    fn on_transfer_frame(&mut self, msg: Message, out: &mut Vec<Message>) -> Flow {
        if matches!(msg, Message::TransferComplete(_)) {
            // The nplt transfer is over: the connection is no longer busy with it.
            self.transfer = None;
        }
        if self.mode == Dialect::Extension {
            out.push(msg);
        }
        Flow::Continue
    }

    /// A newcomer took this connection's place in admission: the peer hears why.
    fn on_evicted(&self, why: Refusal, out: &mut Vec<Message>) -> Flow {
        tracing::info!(peer = %self.peer, phase = ?self.slot.phase(), "evicted to make room for a new peer");
        let text = why.eviction_text();
        // A peer that may be a legacy client only ever gets legacy frames; one that
        // must present a token cannot be one.
        let legacy = match self.mode {
            Dialect::Extension => false,
            Dialect::Legacy => true,
            Dialect::Pending => !self.token_required(),
        };
        out.push(if legacy {
            Message::ChatText(text)
        } else {
            Message::error("busy", text, None)
        });
        Flow::Close
    }

    /// Tells admission what this connection is after an event: its phase, whether it
    /// did useful work, whether it is busy.
    fn update_admission(&mut self, useful: bool) {
        // HELLO done: active. Greeted as legacy: silent until it does something useful.
        match self.mode {
            Dialect::Extension => self.slot.set_phase(Phase::Active),
            _ if self.legacy_welcome_sent => self.slot.set_phase(Phase::Silent),
            _ => {}
        }
        if useful {
            self.slot.mark_useful();
        }
        let busy = self.busy(Instant::now());
        self.slot.set_busy(busy);
    }

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
        if let UploadSlot::Receiving { progress_at, .. } = &self.upload {
            d = d.min(*progress_at + cfg.upload_guard.stall);
        }
        d
    }

    /// Whether this peer must identify itself in HELLO: TCP peers when tokens are
    /// configured, or when an operators group restricts local use (a TCP peer without a
    /// token could be any user of the host); local users on the Unix socket are known by
    /// their credentials instead.
    fn token_required(&self) -> bool {
        matches!(self.peer, Peer::Tcp(_))
            && (self.ctx.cfg.token_required() || self.ctx.local.operators.is_some())
    }

    /// Why a peer that cannot identify itself (no HELLO, or a HELLO without a usable
    /// token) is refused.
    fn identity_refusal(&self) -> String {
        match self
            .ctx
            .local
            .may_connect_without_identity(self.ctx.cfg.socket.as_deref())
        {
            Err(why) if !self.ctx.cfg.token_required() => why,
            _ => "连接被拒绝：需要访问令牌 / access token required".into(),
        }
    }

    /// Work in progress on this connection: a turn, an upload, an nplt transfer, or a
    /// transfer over RDT or HTTP it started that reported recently.
    fn busy(&mut self, now: Instant) -> Busy {
        let transferring = self.transfer.as_ref().is_some_and(|t| !t.is_cancelled());
        if self.turn.is_some()
            || matches!(self.upload, UploadSlot::Receiving { .. })
            || transferring
        {
            return Busy::Now;
        }
        self.remote
            .retain(|_, at| now.saturating_duration_since(*at) < REMOTE_TRANSFER_QUIET);
        match self.remote.values().max() {
            Some(at) => Busy::Until((*at + REMOTE_TRANSFER_QUIET).into_std()),
            None => Busy::No,
        }
    }

    /// Follows the reports of transfers that run outside this connection (pushed to it).
    fn track_remote(&mut self, m: &Message) {
        let now = Instant::now();
        match m {
            Message::TransferProgress(p) => {
                if let Some(at) = self.remote.get_mut(&format!("o:{}", p.offer_id)) {
                    *at = now;
                }
            }
            Message::TransferComplete(c) => {
                self.remote.remove(&format!("o:{}", c.offer_id));
            }
            Message::UploadStatus(_) => {
                for (k, at) in self.remote.iter_mut() {
                    if k.starts_with("u:") {
                        *at = now;
                    }
                }
            }
            Message::UploadResult(r) => {
                self.remote.remove(&format!("u:{}", r.request_id));
            }
            Message::Error(e) => {
                if let Some(r) = e.request_id {
                    self.remote.remove(&format!("u:{r}"));
                }
            }
            _ => {}
        }
    }

    async fn close(&mut self) {
        // Pending approvals end rejected (audited); the frames have nowhere to go.
        self.approvals.abandon(
            &self.ctx.approvals,
            who!(self),
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
        self.approvals
            .expire_due(&self.ctx.approvals, who!(self), now, out);
        self.drop_stalled_upload(now, out).await;
        if let Some(p) = self.partial_since {
            if now >= p + Duration::from_secs(cfg.partial_frame_timeout_secs) {
                tracing::info!(peer = %self.peer, "partial frame timed out; closing");
                return Flow::Close;
            }
        }
        if self.mode == Dialect::Pending && !self.legacy_welcome_sent && now >= welcome_deadline {
            // A silent peer is a legacy client waiting for the welcome.
            if self.token_required() {
                out.push(Message::ChatText(self.identity_refusal()));
                return Flow::Close;
            }
            self.start_legacy(out);
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

    /// Drops an upload that has received nothing for the stall time: its temp file goes,
    /// the client hears why, and any data it still sends is discarded.
    async fn drop_stalled_upload(&mut self, now: Instant, out: &mut Vec<Message>) {
        let stall = self.ctx.cfg.upload_guard.stall;
        let due = matches!(&self.upload, UploadSlot::Receiving { progress_at, .. } if now >= *progress_at + stall);
        if !due {
            return;
        }
        let UploadSlot::Receiving { inc, reply, .. } =
            std::mem::replace(&mut self.upload, UploadSlot::None)
        else {
            return;
        };
        let remaining = inc.announced.saturating_sub(inc.received);
        let (filename, got, total) = (inc.filename.clone(), inc.received, inc.announced);
        inc.abort().await;
        if remaining > 0 {
            self.upload = UploadSlot::Discarding { remaining };
        }
        let e = crate::uploads::UploadError::Stalled {
            secs: stall.as_secs(),
            received: got,
            announced: total,
        };
        tracing::info!(peer = %self.peer, %filename, got, total, "upload stalled; dropped");
        self.ctx
            .uploads
            .audit_refused(&self.session_id, &filename, &e);
        out.push(self.upload_error(reply.request_id(), &e));
    }

    // ----- mode decision -------------------------------------------------------------

    async fn on_inbound(&mut self, item: Inbound, out: &mut Vec<Message>) -> Flow {
        if self.mode == Dialect::Pending {
            match &item {
                Inbound::Msg(Message::Hello(h)) => {
                    let h = h.clone();
                    return self.on_hello(h, out).await;
                }
                _ => {
                    if self.token_required() {
                        out.push(Message::ChatText(self.identity_refusal()));
                        return Flow::Close;
                    }
                    self.mode = Dialect::Legacy;
                    if !self.legacy_welcome_sent {
                        self.start_legacy(out);
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
