//! RDT sender state machine: handshake (either role), selective repeat with per-packet
//! tracking, RACK-style loss detection plus RFC 6298 RTO, loss-tolerant congestion control,
//! optional rate pacing, FIN. Sans-IO: the driver moves bytes and passes `now` in.
//! This file: the state, its construction, the public surface and the handshake (with the
//! resume bitmap); `ack`, `timers` and `transmit` hold the rest of `impl Sender`.

mod ack;
mod timers;
mod transmit;

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::packet::{
    decode, Accept, ChunkRange, Have, Mode, Packet, Request, MAX_TOKEN_LEN, UNKNOWN_SIZE,
};
use super::rtt::RttEstimator;
use super::{check_chunk_size, total_chunks, AbortCode, AbortReason, Config, RdtError};

/// Later transmissions that must be acknowledged before an earlier one counts as lost
/// (the classic three duplicate ACKs), used until reordering has been seen on the path.
const DUPTHRESH: u64 = 3;
/// Smallest reordering window, so a jitter-free path with a tiny RTT (loopback) still
/// tolerates scheduler noise.
const MIN_REO_WND: Duration = Duration::from_millis(1);
/// Largest reordering window, in quarters of the minimum RTT (capped by SRTT anyway).
const REO_MULT_MAX: u32 = 8;
/// Window growth per round trip, as a fraction of the window, while no queue stands.
const PROBE_GAIN: f64 = 1.0 / 8.0;
/// Packets added per round trip while a queue stands: with the 0.7 decrease this matches
/// Reno's one packet per round with halving, 3 (1 - 0.7) / (1 + 0.7) (RFC 8312, 4.2).
const RENO_FRIENDLY_GAIN: f64 = 0.53;
/// Bounds of the queueing delay that counts as a standing queue (a quarter of min RTT).
const QUEUE_THRESH_MIN: Duration = Duration::from_millis(2);
const QUEUE_THRESH_MAX: Duration = Duration::from_millis(25);
/// A run of losses random loss would produce in a round with lower odds than this is a
/// burst, i.e. congestion.
const BURST_ODDS: f64 = 1e-4;
/// FIN retries before a transfer whose every chunk was acknowledged ends without its
/// FIN-ACK: at the 100 ms minimum RTO, doubling, the FIN leaves at 0, 0.1, 0.3 and 0.7 s
/// (inside the receiver's linger after its last chunk, 1 s in `rdt-io`) and the transfer
/// ends at 1.5 s; `max_timeouts` (8) kept it open for 11 s when the receiver had left.
const FIN_TRIES: u32 = 3;

/// What the driver must put on the wire next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transmit {
    /// A control packet of `len` bytes was written at the start of the buffer: send it.
    Control { len: usize },
    /// Send chunk `seq`: read `len` file bytes at `offset` into `buf[DATA_HEADER_LEN..]`,
    /// then `seal_data(conn_id, seq, len, buf)` gives the datagram length (or copy with
    /// `encode_data`).
    Data { seq: u32, offset: u64, len: usize },
}

/// Coarse state, for display and for the driver's bookkeeping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SenderState {
    /// Waiting for the peer's REQUEST (responder) or ACCEPT (initiator).
    Handshake,
    Transferring,
    /// Everything acknowledged; FIN sent, waiting for FIN-ACK.
    Finishing,
    Done,
    Aborted(AbortReason),
}

/// Terminal events; each is reported once through [`Sender::poll_event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SenderEvent {
    Done,
    Aborted { reason: AbortReason },
}

/// Progress counters, cheap to read at any time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SenderStats {
    pub file_size: u64,
    /// Bytes the receiver confirmed during this session.
    pub bytes_acked: u64,
    /// Bytes the receiver already held (resume), never sent.
    pub bytes_skipped: u64,
    /// Payload bytes put on the wire, retransmissions included.
    pub bytes_sent: u64,
    pub packets_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    /// Loss calls later proven wrong (reordering).
    pub spurious_losses: u64,
    pub srtt: Option<Duration>,
    pub rto: Duration,
    pub cwnd: u32,
    pub in_flight: u32,
    /// Chunks declared lost and queued for retransmission.
    pub lost_pending: u32,
    pub peer_window: u32,
    /// Smoothed per-round loss rate (0..1).
    pub loss_rate: f64,
    /// Rounds whose losses were read as congestion (a standing queue or a burst) and shrank
    /// the window; random loss never counts here.
    pub congestion_events: u64,
    /// Queueing delay seen in the last complete round: its smallest RTT sample minus the
    /// path's minimum RTT.
    pub queue_delay: Option<Duration>,
    /// Smallest RTT sample of the transfer (the path's base RTT as far as the sender knows).
    pub min_rtt: Option<Duration>,
    /// Rounds that lost packets, read as congestion or as random loss.
    pub loss_rounds: u64,
    /// Retransmissions by what called the loss: RACK by time (overdue behind a later
    /// delivery), RACK by count (three later deliveries, before reordering was seen), an
    /// RTO (everything in flight), a tail loss probe. They add up to `retransmissions`.
    pub retx_by: RetxCauses,
    /// Datagrams dropped as corrupt, foreign or out of place.
    pub dropped: u64,
}

/// Retransmissions counted by the loss detector that called them (see
/// [`SenderStats::retx_by`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RetxCauses {
    pub rack_time: u64,
    pub rack_count: u64,
    pub rto: u64,
    pub probe: u64,
}

/// F-RTO progress after an RTO (RFC 5682).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frto {
    Off,
    /// One retransmission is out; nothing more until an ACK arrives.
    Retransmitted,
    /// The first ACK covered only that retransmission: up to two new chunks (never
    /// retransmissions) until the next ACK, whose content decides.
    NewData {
        sent: u8,
    },
}

/// Which detector declared a slot lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LossCause {
    RackTime,
    RackCount,
    Rto,
}

/// What one ACK confirmed, gathered while walking its ranges.
#[derive(Default)]
struct AckScratch {
    /// (tx_order, sent_at, tx_count) of the latest transmission confirmed.
    latest: Option<(u64, Instant, u32)>,
    newly: u64,
    round_done: bool,
    /// An original transmission the last RTO had declared lost was acknowledged: the RTO
    /// was spurious (a stall, not an outage).
    rto_spurious: bool,
    /// (tx_order, sent_at) of the latest original transmission (sent once) confirmed.
    latest_original: Option<(u64, Instant)>,
}

/// The window before an RTO, restored if the RTO proves spurious (RFC 5682's F-RTO
/// response, RFC 8985's undo).
#[derive(Debug, Clone, Copy)]
struct RtoUndo {
    cwnd: f64,
    ssthresh: f64,
    /// `tx_counter` when the RTO fired: new data sent after it, acknowledged, closes the
    /// window in which the RTO can still be undone.
    at_order: u64,
}

/// Window before a loss-triggered decrease, restored if the losses prove spurious.
#[derive(Debug, Clone, Copy)]
struct Undo {
    cwnd: f64,
    ssthresh: f64,
    lost: u64,
    n: u64,
    rounds_left: u32,
}

/// Per-chunk scoreboard entry for chunks in `[snd_una, snd_nxt)`.
#[derive(Debug, Clone, Copy)]
struct Slot {
    sent_at: Instant,
    /// Global transmission counter value of the latest transmission (orders sends that
    /// share one `Instant`).
    tx_order: u64,
    /// `delivered` when last sent: tells which round an ACK closes.
    delivered_at_send: u64,
    tx_count: u32,
    acked: bool,
    /// Declared lost and queued for retransmission (not counted in flight).
    lost: bool,
    /// Who declared it lost (meaningful while `lost`).
    cause: LossCause,
}

/// Per-round RTT samples and the queueing delay they show (seen from the smallest sample
/// of each round).
#[derive(Debug, Default)]
struct QueueEstimate {
    /// Smallest unambiguous RTT sample of the current round (jitter filtered out: a
    /// standing queue lifts every sample, random delay only some).
    round_min_rtt: Option<Duration>,
    /// `round_min_rtt - min_rtt` of the last round that had a sample.
    queue_delay: Option<Duration>,
    /// Largest recent `queue_delay` in seconds, decaying by 1% per round.
    max_queue_delay: f64,
    /// The smoothed difference between consecutive rounds' `queue_delay` (seconds): the
    /// RTT noise of the path. A queue that stands has a level that moves slowly from round
    /// to round; the phase of a userspace relay's millisecond timer, or scheduling, moves
    /// every round's smallest RTT at random.
    queue_noise: f64,
}

/// Running totals reported by [`Sender::stats`].
#[derive(Debug, Default)]
struct Counters {
    bytes_acked: u64,
    bytes_skipped: u64,
    bytes_sent: u64,
    packets_sent: u64,
    retransmissions: u64,
    retx_by: RetxCauses,
    timeouts: u64,
    dropped: u64,
}

/// The sending end of one transfer.
#[derive(Debug)]
pub struct Sender {
    conn_id: u64,
    file_size: u64,
    chunk_size: u16,
    total: u32,
    cfg: Config,
    state: SenderState,
    /// Set when we initiated (push): the token our REQUEST carries.
    token: Option<Vec<u8>>,

    send_ctrl: bool,
    send_accept: bool,
    send_abort: Option<AbortCode>,
    ctrl_deadline: Option<Instant>,
    ctrl_tries: u32,

    snd_una: u32,
    snd_nxt: u32,
    slots: VecDeque<Slot>,
    /// Chunks the receiver held before we started, sorted and merged.
    have: Vec<ChunkRange>,
    have_idx: usize,
    retx: VecDeque<u32>,
    in_flight: u32,
    highest_acked: Option<u32>,
    tx_counter: u64,
    rack_tx_order: u64,
    rack_rtt: Duration,
    rack_deadline: Option<Instant>,
    reorder_seen: bool,
    /// Reordering window in quarters of the minimum RTT (RFC 8985 `reo_wnd_mult`): grows
    /// when a loss call proves spurious, shrinks again after quiet rounds.
    reo_mult: u32,
    /// `delivered` at the last widening: at most one step per round trip.
    reo_bumped_at: u64,
    /// Rounds since the last spurious loss call.
    quiet_rounds: u32,

    cwnd: f64,
    ssthresh: f64,
    delivered: u64,
    round_start: u64,
    round_acked: u64,
    round_lost: u64,
    loss_ewma: f64,
    /// `tx_counter` at the last decrease: older packets' losses don't count again.
    cwr_tx_order: u64,
    undo: Option<Undo>,
    rto_undo: Option<RtoUndo>,
    /// F-RTO (RFC 5682) after an RTO: an ACK for originals shows the RTO was spurious
    /// before the rest of the window is re-sent.
    frto: Frto,
    spurious: u64,
    queue: QueueEstimate,
    /// Longest run of consecutively transmitted packets declared lost in this round
    /// (tail drops at a full queue come in runs; random loss rarely does).
    round_max_run: u32,
    /// RTT samples in the current round (HyStart++ waits for 8).
    round_samples: u32,
    loss_run: u32,
    last_lost_order: u64,
    congestion_events: u64,
    /// Rounds with at least one loss (for the stats).
    loss_rounds: u64,
    /// When the current round began (for the delivery rate).
    round_began: Option<Instant>,
    /// Largest recent delivery rate in packets per second (acknowledged per round over the
    /// round's length), decaying by 1% per round.
    max_delivery_rate: f64,
    /// Window when congestion last shrank it: growth stays Reno-friendly below it.
    w_max: f64,

    rtt: RttEstimator,
    rto_deadline: Option<Instant>,
    timeouts_in_row: u32,
    tlp_deadline: Option<Instant>,
    tlp_sent: bool,
    /// Chunk the probe timeout chose; sent next, ahead of everything else.
    probe: Option<u32>,

    tokens: f64,
    last_refill: Instant,
    peer_window: u32,
    last_heard: Instant,
    events: VecDeque<SenderEvent>,

    counters: Counters,
}

/// The first congestion window: `initial_window` within `[min_window, max_window]`.
fn initial_cwnd(cfg: &Config) -> f64 {
    let min_window = cfg.min_window.max(1);
    f64::from(
        cfg.initial_window
            .clamp(min_window, cfg.max_window.max(min_window)),
    )
}

impl Sender {
    /// Responder: the peer initiated (a download). Feed its REQUEST through
    /// [`handle`](Self::handle); its chunk size overrides `config.chunk_size`.
    pub fn new(
        conn_id: u64,
        file_size: u64,
        config: Config,
        now: Instant,
    ) -> Result<Self, RdtError> {
        Self::build(conn_id, None, file_size, config, now)
    }

    /// Initiator: we push (an upload). Sends REQUEST with retries until ACCEPT arrives.
    pub fn initiate(
        conn_id: u64,
        token: &[u8],
        file_size: u64,
        config: Config,
        now: Instant,
    ) -> Result<Self, RdtError> {
        if token.len() > MAX_TOKEN_LEN {
            return Err(RdtError::TokenTooLong);
        }
        Self::build(conn_id, Some(token.to_vec()), file_size, config, now)
    }

    fn build(
        conn_id: u64,
        token: Option<Vec<u8>>,
        file_size: u64,
        cfg: Config,
        now: Instant,
    ) -> Result<Self, RdtError> {
        check_chunk_size(cfg.chunk_size)?;
        let total = total_chunks(file_size, cfg.chunk_size).ok_or(RdtError::TooManyChunks)?;
        let cwnd = initial_cwnd(&cfg);
        let send_ctrl = token.is_some();
        Ok(Self {
            conn_id,
            file_size,
            chunk_size: cfg.chunk_size,
            total,
            state: SenderState::Handshake,
            token,
            send_ctrl,
            send_accept: false,
            send_abort: None,
            ctrl_deadline: None,
            ctrl_tries: 0,
            snd_una: 0,
            snd_nxt: 0,
            slots: VecDeque::new(),
            have: Vec::new(),
            have_idx: 0,
            retx: VecDeque::new(),
            in_flight: 0,
            highest_acked: None,
            tx_counter: 0,
            rack_tx_order: 0,
            rack_rtt: Duration::ZERO,
            rack_deadline: None,
            reorder_seen: false,
            reo_mult: 1,
            reo_bumped_at: 0,
            quiet_rounds: 0,
            cwnd,
            ssthresh: f64::INFINITY,
            delivered: 0,
            round_start: 0,
            round_acked: 0,
            round_lost: 0,
            loss_ewma: 0.0,
            cwr_tx_order: 0,
            undo: None,
            rto_undo: None,
            frto: Frto::Off,
            spurious: 0,
            queue: QueueEstimate::default(),
            round_max_run: 0,
            round_samples: 0,
            loss_run: 0,
            last_lost_order: 0,
            congestion_events: 0,
            loss_rounds: 0,
            round_began: None,
            max_delivery_rate: 0.0,
            w_max: 0.0,
            rtt: RttEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
            rto_deadline: None,
            timeouts_in_row: 0,
            tlp_deadline: None,
            tlp_sent: false,
            probe: None,
            tokens: 0.0,
            last_refill: now,
            peer_window: cfg.recv_window.max(1),
            last_heard: now,
            events: VecDeque::new(),
            counters: Counters::default(),
            cfg,
        })
    }

    pub fn conn_id(&self) -> u64 {
        self.conn_id
    }

    pub fn state(&self) -> SenderState {
        self.state
    }

    /// Chunk size in use (may change once, when a responder adopts the REQUEST's).
    pub fn chunk_size(&self) -> u16 {
        self.chunk_size
    }

    /// True once Done or Aborted and nothing is left to transmit: drop the machine.
    pub fn is_finished(&self) -> bool {
        matches!(self.state, SenderState::Done | SenderState::Aborted(_))
            && self.send_abort.is_none()
    }

    pub fn poll_event(&mut self) -> Option<SenderEvent> {
        self.events.pop_front()
    }

    pub fn stats(&self) -> SenderStats {
        SenderStats {
            file_size: self.file_size,
            bytes_acked: self.counters.bytes_acked,
            bytes_skipped: self.counters.bytes_skipped,
            bytes_sent: self.counters.bytes_sent,
            packets_sent: self.counters.packets_sent,
            retransmissions: self.counters.retransmissions,
            timeouts: self.counters.timeouts,
            spurious_losses: self.spurious,
            srtt: self.rtt.srtt(),
            rto: self.rtt.rto(),
            cwnd: self.cwnd as u32,
            in_flight: self.in_flight,
            // Counted from the scoreboard: `retx` may still hold chunks acknowledged since.
            lost_pending: self
                .slots
                .iter()
                .filter(|s| s.lost && !s.acked && s.tx_count > 0)
                .count() as u32,
            peer_window: self.peer_window,
            loss_rate: self.loss_ewma,
            congestion_events: self.congestion_events,
            queue_delay: self.queue.queue_delay,
            min_rtt: self.rtt.min_rtt(),
            loss_rounds: self.loss_rounds,
            retx_by: self.counters.retx_by,
            dropped: self.counters.dropped,
        }
    }

    /// Aborts locally; an ABORT with `code` goes out on the next `poll_transmit`.
    pub fn abort(&mut self, code: AbortCode) {
        self.fail(AbortReason::Local(code));
    }

    fn terminal(&self) -> bool {
        matches!(self.state, SenderState::Done | SenderState::Aborted(_))
    }

    fn fail(&mut self, reason: AbortReason) {
        if self.terminal() {
            return;
        }
        self.state = SenderState::Aborted(reason);
        if !matches!(reason, AbortReason::Peer(_)) {
            self.send_abort = Some(reason.wire_code());
        }
        self.events.push_back(SenderEvent::Aborted { reason });
    }

    fn finish(&mut self) {
        if !self.terminal() {
            self.state = SenderState::Done;
            self.events.push_back(SenderEvent::Done);
        }
    }

    /// Feeds one datagram from the peer. Corrupt or foreign datagrams are dropped.
    pub fn handle(&mut self, datagram: &[u8], now: Instant) {
        let pkt = match decode(datagram) {
            Ok((id, pkt)) if id == self.conn_id => pkt,
            _ => {
                self.counters.dropped += 1;
                return;
            }
        };
        if self.terminal() {
            return;
        }
        self.last_heard = now;
        match pkt {
            Packet::Request(r) if self.token.is_none() => self.on_request(&r, now),
            Packet::Accept(a) if self.token.is_some() => self.on_accept(&a, now),
            Packet::Ack(a) => self.on_ack(&a, now),
            Packet::FinAck(f) => {
                if self.state == SenderState::Finishing && f.total_chunks == self.total {
                    self.finish();
                }
            }
            Packet::Abort(code) => self.fail(AbortReason::Peer(code)),
            _ => self.counters.dropped += 1,
        }
    }

    fn on_request(&mut self, r: &Request<'_>, now: Instant) {
        if r.mode != Mode::Pull {
            self.fail(AbortReason::Protocol);
            return;
        }
        if self.state != SenderState::Handshake {
            // Our ACCEPT was lost (or is late): repeat it.
            self.send_accept = true;
            return;
        }
        if r.chunk_size != 0 {
            if check_chunk_size(r.chunk_size).is_err() {
                self.fail(AbortReason::Protocol);
                return;
            }
            match total_chunks(self.file_size, r.chunk_size) {
                Some(t) => {
                    self.chunk_size = r.chunk_size;
                    self.total = t;
                }
                None => {
                    self.fail(AbortReason::Mismatch);
                    return;
                }
            }
        }
        if r.file_size != UNKNOWN_SIZE && r.file_size != self.file_size {
            self.fail(AbortReason::Mismatch);
            return;
        }
        self.apply_have(&r.have);
        self.send_accept = true;
        self.start(now);
    }

    fn on_accept(&mut self, a: &Accept<'_>, now: Instant) {
        if self.state != SenderState::Handshake {
            return;
        }
        if a.file_size != self.file_size
            || a.chunk_size != self.chunk_size
            || a.total_chunks != self.total
        {
            self.fail(AbortReason::Mismatch);
            return;
        }
        self.apply_have(&a.have);
        self.send_ctrl = false;
        self.ctrl_deadline = None;
        self.ctrl_tries = 0;
        self.rtt = RttEstimator::new(self.cfg.initial_rto, self.cfg.min_rto, self.cfg.max_rto);
        self.start(now);
    }

    fn start(&mut self, now: Instant) {
        self.state = SenderState::Transferring;
        self.last_refill = now;
        self.maybe_finish(now);
    }

    /// Records what the receiver already holds, so those chunks are never sent.
    fn apply_have(&mut self, h: &Have<'_>) {
        let mut v: Vec<ChunkRange> = Vec::with_capacity(h.ranges.len() + 1);
        v.push(ChunkRange::new(0, h.prefix));
        v.extend(h.ranges.iter());
        for r in &mut v {
            r.end = r.end.min(self.total);
        }
        v.retain(|r| r.start < r.end);
        v.sort_unstable_by_key(|r| r.start);
        let mut merged: Vec<ChunkRange> = Vec::with_capacity(v.len());
        for r in v {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        self.counters.bytes_skipped = merged
            .iter()
            .map(|r| self.range_bytes(r.start, r.end))
            .sum();
        self.have = merged;
        self.have_idx = 0;
    }

    fn range_bytes(&self, start: u32, end: u32) -> u64 {
        let cs = u64::from(self.chunk_size);
        (u64::from(end) * cs).min(self.file_size) - (u64::from(start) * cs).min(self.file_size)
    }

    /// Moves `snd_nxt` past chunks the receiver already holds. Jumps when nothing is
    /// outstanding; otherwise fills the scoreboard with pre-acknowledged slots, bounded by
    /// the window span so memory stays bounded.
    fn skip_held(&mut self, now: Instant) {
        while let Some(r) = self.have.get(self.have_idx).copied() {
            if self.snd_nxt >= r.end {
                self.have_idx += 1;
            } else if self.snd_nxt < r.start {
                break;
            } else if self.slots.is_empty() {
                self.snd_una = r.end;
                self.snd_nxt = r.end;
                self.have_idx += 1;
            } else if self.snd_nxt - self.snd_una < self.peer_window {
                self.slots.push_back(Slot {
                    sent_at: now,
                    tx_order: 0,
                    delivered_at_send: 0,
                    tx_count: 0,
                    acked: true,
                    lost: false,
                    cause: LossCause::RackTime,
                });
                self.snd_nxt += 1;
            } else {
                break;
            }
        }
    }

    fn maybe_finish(&mut self, now: Instant) {
        if self.state != SenderState::Transferring {
            return;
        }
        self.skip_held(now);
        if self.snd_una >= self.total {
            self.state = SenderState::Finishing;
            self.send_ctrl = true;
            self.ctrl_tries = 0;
            self.ctrl_deadline = None;
            self.rto_deadline = None;
            self.rack_deadline = None;
            self.tlp_deadline = None;
        }
    }
}
