//! RDT sender state machine: handshake (either role), selective repeat with per-packet
//! tracking, RACK-style loss detection plus RFC 6298 RTO, loss-tolerant congestion control,
//! optional rate pacing, FIN. Sans-IO: the driver moves bytes and passes `now` in.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::packet::{
    decode, Accept, Ack, ChunkRange, Fin, Have, Mode, Packet, Ranges, Request, MAX_DATAGRAM,
    MAX_TOKEN_LEN, UNKNOWN_SIZE,
};
use super::rtt::RttEstimator;
use super::{
    check_chunk_size, chunk_len, total_chunks, AbortCode, AbortReason, Config, RdtError,
    DATA_HEADER_LEN,
};

/// Later transmissions that must be acknowledged before an earlier one counts as lost
/// (the classic three duplicate ACKs), used until reordering has been seen on the path.
const DUPTHRESH: u64 = 3;
/// Smallest reordering window, so a jitter-free path with a tiny RTT (loopback) still
/// tolerates scheduler noise.
const MIN_REO_WND: Duration = Duration::from_millis(1);
/// Largest reordering window, in quarters of the minimum RTT (capped by SRTT anyway).
const REO_MULT_MAX: u32 = 8;

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
    /// Datagrams dropped as corrupt, foreign or out of place.
    pub dropped: u64,
}

/// What one ACK confirmed, gathered while walking its ranges.
#[derive(Default)]
struct AckScratch {
    /// (tx_order, sent_at, tx_count) of the latest transmission confirmed.
    latest: Option<(u64, Instant, u32)>,
    newly: u64,
    round_done: bool,
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
    rtt_samples: u32,
    spurious: u64,

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

    bytes_acked: u64,
    bytes_skipped: u64,
    bytes_sent: u64,
    packets_sent: u64,
    retransmissions: u64,
    timeouts: u64,
    dropped: u64,
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
        let min_window = cfg.min_window.max(1);
        let cwnd = f64::from(
            cfg.initial_window
                .clamp(min_window, cfg.max_window.max(min_window)),
        );
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
            rtt_samples: 0,
            spurious: 0,
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
            bytes_acked: 0,
            bytes_skipped: 0,
            bytes_sent: 0,
            packets_sent: 0,
            retransmissions: 0,
            timeouts: 0,
            dropped: 0,
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
            bytes_acked: self.bytes_acked,
            bytes_skipped: self.bytes_skipped,
            bytes_sent: self.bytes_sent,
            packets_sent: self.packets_sent,
            retransmissions: self.retransmissions,
            timeouts: self.timeouts,
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
            dropped: self.dropped,
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
                self.dropped += 1;
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
            _ => self.dropped += 1,
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
        self.bytes_skipped = merged
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

    fn on_ack(&mut self, a: &Ack<'_>, now: Instant) {
        if !matches!(self.state, SenderState::Transferring) || a.cum > self.total {
            return;
        }
        self.peer_window = a.window.max(1);
        let mut acc = AckScratch::default();
        let upto = a.cum.min(self.snd_nxt);
        for seq in self.snd_una..upto {
            self.ack_slot(seq, now, &mut acc);
        }
        for r in a.sacks.iter() {
            let s = r.start.max(self.snd_una);
            let e = r.end.min(self.snd_nxt);
            for seq in s..e {
                self.ack_slot(seq, now, &mut acc);
            }
        }
        while self.slots.front().is_some_and(|s| s.acked) {
            self.slots.pop_front();
            self.snd_una += 1;
        }
        if a.cum > self.snd_nxt && self.slots.is_empty() {
            // The receiver holds chunks our (truncated) have-list did not mention.
            self.bytes_skipped += self.range_bytes(self.snd_nxt, a.cum);
            self.snd_una = a.cum;
            self.snd_nxt = a.cum;
        }

        if let Some((order, sent_at, tx_count)) = acc.latest {
            self.timeouts_in_row = 0;
            let rtt = now.saturating_duration_since(sent_at);
            if tx_count == 1 {
                // Karn: only first transmissions give unambiguous samples.
                self.rtt.sample(rtt);
                self.hystart(rtt);
            }
            if order > self.rack_tx_order {
                self.rack_tx_order = order;
                self.rack_rtt = rtt;
            }
            self.grow_window(acc.newly);
            self.rto_deadline = (self.in_flight > 0).then(|| now + self.rtt.rto());
            self.tlp_sent = false;
            self.tlp_deadline = (self.in_flight > 0).then(|| now + self.pto());
        }
        self.detect_losses(now);
        if acc.round_done {
            self.end_round();
        }
        self.maybe_finish(now);
    }

    fn ack_slot(&mut self, seq: u32, now: Instant, acc: &mut AckScratch) {
        let idx = (seq - self.snd_una) as usize;
        let Some(slot) = self.slots.get_mut(idx) else {
            return;
        };
        if slot.acked {
            return;
        }
        slot.acked = true;
        let slot = *slot;
        let age = now.saturating_duration_since(slot.sent_at);
        let min_rtt = self.rtt.min_rtt().unwrap_or(Duration::ZERO);
        // An ACK sooner than the minimum RTT after a retransmission is for the original:
        // ambiguous for RTT and RACK purposes (RFC 8985, step 2).
        let ambiguous = slot.tx_count > 1 && age < min_rtt;
        if slot.lost {
            // Delivered before we even retransmitted: the loss call was wrong.
            self.spurious_loss();
        } else {
            self.in_flight = self.in_flight.saturating_sub(1);
            if slot.tx_count > 1 && age < min_rtt / 2 {
                // Far too fast for the retransmission: the original arrived late, so the
                // loss call was wrong (Eifel-style check).
                self.spurious_loss();
            }
        }
        if slot.tx_order < self.rack_tx_order && slot.tx_count == 1 {
            self.reorder_seen = true;
        }
        acc.newly += 1;
        self.delivered += 1;
        self.round_acked += 1;
        self.bytes_acked += chunk_len(self.file_size, self.chunk_size, seq) as u64;
        self.highest_acked = Some(self.highest_acked.map_or(seq, |h| h.max(seq)));
        if slot.delivered_at_send >= self.round_start {
            acc.round_done = true;
        }
        let later = match acc.latest {
            Some((o, _, _)) => slot.tx_order > o,
            None => true,
        };
        if !ambiguous && later {
            acc.latest = Some((slot.tx_order, slot.sent_at, slot.tx_count));
        }
    }

    /// A packet declared lost was in fact only reordered: stop counting it as loss, learn
    /// that the path reorders, and undo a window decrease it caused.
    fn spurious_loss(&mut self) {
        self.reorder_seen = true;
        self.spurious += 1;
        self.quiet_rounds = 0;
        if self.reo_bumped_at <= self.round_start {
            // One widening per round trip: a burst of late packets is one piece of evidence.
            self.reo_bumped_at = self.delivered.max(1);
            self.reo_mult = (self.reo_mult + 1).min(REO_MULT_MAX);
        }
        self.round_lost = self.round_lost.saturating_sub(1);
        if let Some(u) = &mut self.undo {
            u.lost = u.lost.saturating_sub(1);
            if u.lost as f64 <= self.cfg.loss_threshold * u.n as f64 {
                self.cwnd = self.cwnd.max(u.cwnd);
                self.ssthresh = self.ssthresh.max(u.ssthresh);
                self.undo = None;
            }
        }
    }

    /// RACK (RFC 8985): a packet is lost when a packet sent after it was delivered and it
    /// is overdue by the reordering window; before any reordering was seen, three later
    /// deliveries are enough (fast retransmit).
    fn detect_losses(&mut self, now: Instant) {
        self.rack_deadline = None;
        let Some(high) = self.highest_acked else {
            return;
        };
        if high < self.snd_una || self.rack_tx_order == 0 {
            return;
        }
        let reo = self.reo_wnd();
        let wait = self.rack_rtt + reo;
        let end = (high.min(self.snd_nxt) - self.snd_una) as usize;
        let mut next_deadline: Option<Instant> = None;
        for idx in 0..end {
            let s = self.slots[idx];
            if s.acked || s.lost || s.tx_order >= self.rack_tx_order {
                continue;
            }
            let by_count = !self.reorder_seen && s.tx_order + DUPTHRESH <= self.rack_tx_order;
            let deadline = s.sent_at + wait;
            if by_count || now >= deadline {
                self.slots[idx].lost = true;
                self.in_flight = self.in_flight.saturating_sub(1);
                // Packets sent before the last decrease belong to the episode that caused
                // it: one burst must not shrink the window twice.
                if s.tx_order > self.cwr_tx_order {
                    self.round_lost += 1;
                }
                self.retx.push_back(self.snd_una + idx as u32);
            } else {
                next_deadline = Some(next_deadline.map_or(deadline, |d| d.min(deadline)));
            }
        }
        self.rack_deadline = next_deadline;
    }

    /// RACK reordering window: a quarter of the minimum RTT per step of `reo_mult`, never
    /// more than the smoothed RTT (waiting longer would be slower than an RTO-free repair).
    fn reo_wnd(&self) -> Duration {
        let Some(m) = self.rtt.min_rtt() else {
            return MIN_REO_WND;
        };
        let w = (m / 4) * self.reo_mult;
        let cap = self.rtt.srtt().unwrap_or(m).max(m);
        w.min(cap).max(MIN_REO_WND)
    }

    /// Slow start below `ssthresh`; above it, grow by 1/16 of the window per round trip
    /// (at least one packet), so the window regains its size within a few dozen round trips
    /// after a decrease instead of hundreds (plain additive increase).
    fn grow_window(&mut self, newly: u64) {
        let n = newly as f64;
        if self.cwnd < self.ssthresh {
            self.cwnd += n;
        } else {
            self.cwnd += n * (1.0 / self.cwnd).max(1.0 / 16.0);
        }
        self.cwnd = self.cwnd.min(f64::from(self.cfg.max_window.max(1)));
    }

    /// Once per round trip: loss below the threshold is treated as random and ignored; above
    /// it, the window shrinks once for the whole round (never below `min_window`).
    fn end_round(&mut self) {
        let n = self.round_acked + self.round_lost;
        // A decrease stays undoable for one more round (late spurious-loss evidence).
        if self.undo.as_ref().is_some_and(|u| u.rounds_left == 0) {
            self.undo = None;
        } else if let Some(u) = &mut self.undo {
            u.rounds_left -= 1;
        }
        if n >= 4 {
            let rate = self.round_lost as f64 / n as f64;
            self.loss_ewma = 0.875 * self.loss_ewma + 0.125 * rate;
            // Random loss near the threshold makes single rounds cross it by chance (ACK
            // loss and lost retransmissions inflate the count): decide on the smoothed rate,
            // and react at once only to a round losing twice the threshold (an overflow).
            let th = self.cfg.loss_threshold;
            if self.loss_ewma > th || rate > 2.0 * th {
                self.undo = Some(Undo {
                    cwnd: self.cwnd,
                    ssthresh: self.ssthresh,
                    lost: self.round_lost,
                    n,
                    rounds_left: 1,
                });
                self.cwnd = (self.cwnd * self.cfg.decrease_factor).max(self.min_window());
                self.ssthresh = self.cwnd;
                self.cwr_tx_order = self.tx_counter;
            }
        }
        self.quiet_rounds += 1;
        if self.quiet_rounds >= 16 {
            self.quiet_rounds = 0;
            self.reo_mult = (self.reo_mult - 1).max(1);
        }
        self.round_start = self.delivered;
        self.round_acked = 0;
        self.round_lost = 0;
    }

    /// Delay-based slow-start exit in the spirit of HyStart++ (RFC 9406): once an RTT
    /// sample exceeds the minimum by max(4 ms, min/8), a queue is building; stop doubling
    /// before it overflows (the loss threshold alone would let slow start overshoot).
    fn hystart(&mut self, sample: Duration) {
        self.rtt_samples += 1;
        let Some(min) = self.rtt.min_rtt() else {
            return;
        };
        let eta = (min / 8).clamp(Duration::from_millis(4), Duration::from_millis(16));
        // Only the initial slow start (ssthresh still unset): after an RTO, slow start
        // climbs back to the remembered ssthresh, and RTT noise on a jittery path must not
        // end it at the minimum window (growth above ssthresh is slow from there).
        if self.rtt_samples >= 8
            && self.ssthresh.is_infinite()
            && self.cwnd < self.ssthresh
            && sample >= min + eta
        {
            self.ssthresh = self.cwnd;
        }
    }

    fn min_window(&self) -> f64 {
        f64::from(self.cfg.min_window.max(1))
    }

    /// Next instant at which [`handle_timeout`](Self::handle_timeout) must run.
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.terminal() {
            return None;
        }
        let mut t = self.last_heard + self.cfg.idle_timeout;
        for d in [
            self.tlp_deadline,
            self.ctrl_deadline,
            self.rto_deadline,
            self.rack_deadline,
            self.pacing_wake(),
        ]
        .into_iter()
        .flatten()
        {
            t = t.min(d);
        }
        Some(t)
    }

    fn pacing_wake(&self) -> Option<Instant> {
        let rate = self.cfg.max_rate?;
        if self.state != SenderState::Transferring || self.tokens > 0.0 || !self.has_data_to_send()
        {
            return None;
        }
        let secs = (-self.tokens + 1.0) / rate.max(1) as f64;
        Some(self.last_refill + Duration::from_secs_f64(secs))
    }

    fn has_data_to_send(&self) -> bool {
        (!self.retx.is_empty() || self.snd_nxt < self.total)
            && f64::from(self.in_flight) < self.cwnd
    }

    /// Runs timers: idle limit, handshake/FIN retries, RACK reordering timer, RTO.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.terminal() {
            return;
        }
        if now >= self.last_heard + self.cfg.idle_timeout {
            if self.state == SenderState::Finishing {
                // All data was acknowledged: only the FIN exchange went unanswered.
                self.finish();
            } else {
                self.fail(AbortReason::IdleTimeout);
            }
            return;
        }
        if self.ctrl_deadline.is_some_and(|d| now >= d) {
            self.ctrl_deadline = None;
            self.ctrl_tries += 1;
            self.rtt.back_off();
            if self.ctrl_tries > self.cfg.max_timeouts {
                if self.state == SenderState::Finishing {
                    // Every chunk was acknowledged, so the data is delivered; only the
                    // FIN-ACK got lost (or the receiver already closed).
                    self.finish();
                } else {
                    self.fail(AbortReason::RetryLimit);
                }
                return;
            }
            self.send_ctrl = true;
        }
        if self.state != SenderState::Transferring {
            return;
        }
        if self.rack_deadline.is_some_and(|d| now >= d) {
            self.detect_losses(now);
        }
        if self.tlp_deadline.is_some_and(|d| now >= d) {
            self.on_probe_timeout();
        }
        if self.rto_deadline.is_some_and(|d| now >= d) {
            self.on_rto();
        }
    }

    /// Probe timeout: the tail of the window may be lost and no later packet exists to
    /// reveal it; retransmit the newest outstanding chunk once so its ACK (or SACK) lets RACK
    /// find the rest, instead of waiting for a full RTO.
    fn on_probe_timeout(&mut self) {
        self.tlp_deadline = None;
        if self.tlp_sent || self.in_flight == 0 {
            return;
        }
        let newest = (0..self.slots.len()).rev().find(|&i| {
            let s = self.slots[i];
            !s.acked && !s.lost && s.tx_count > 0
        });
        if let Some(idx) = newest {
            self.probe = Some(self.snd_una + idx as u32);
            self.tlp_sent = true;
        }
    }

    /// Probe timeout per RFC 8985: two smoothed RTTs plus the receiver's ACK delay.
    fn pto(&self) -> Duration {
        let srtt = self.rtt.srtt().unwrap_or(self.cfg.initial_rto / 2);
        srtt * 2 + self.cfg.ack_delay
    }

    fn on_rto(&mut self) {
        self.rto_deadline = None;
        self.tlp_deadline = None;
        self.tlp_sent = false;
        self.probe = None;
        self.timeouts += 1;
        self.timeouts_in_row += 1;
        if self.timeouts_in_row > self.cfg.max_timeouts {
            self.fail(AbortReason::RetryLimit);
            return;
        }
        if self.timeouts_in_row == 1 {
            // Remember the pre-outage window: slow start climbs back to it quickly.
            self.ssthresh = (self.cwnd * self.cfg.decrease_factor).max(self.min_window());
            self.cwnd = self.min_window();
            self.cwr_tx_order = self.tx_counter;
            self.undo = None;
        }
        self.rtt.back_off();
        for idx in 0..self.slots.len() {
            let s = self.slots[idx];
            if !s.acked && !s.lost && s.tx_count > 0 {
                self.slots[idx].lost = true;
                self.retx.push_back(self.snd_una + idx as u32);
            }
        }
        self.in_flight = 0;
    }

    /// Next datagram to send, if any. `buf` must hold at least [`MAX_DATAGRAM`] bytes.
    /// Call repeatedly until `None`, then wait for input or [`poll_timeout`](Self::poll_timeout).
    pub fn poll_transmit(&mut self, now: Instant, buf: &mut [u8]) -> Option<Transmit> {
        if self.send_abort.is_none() {
            if let Some(t) = self.poll_inner(now, buf) {
                return Some(t);
            }
        }
        // An abort may have been decided just now (retry limit): announce it at once.
        let code = self.send_abort.take()?;
        self.control(Packet::Abort(code), buf)
    }

    fn poll_inner(&mut self, now: Instant, buf: &mut [u8]) -> Option<Transmit> {
        match self.state {
            SenderState::Done | SenderState::Aborted(_) => None,
            SenderState::Handshake => {
                if !self.send_ctrl {
                    return None;
                }
                self.send_ctrl = false;
                self.ctrl_deadline = Some(now + self.rtt.rto());
                let pkt = Packet::Request(Request {
                    mode: Mode::Push,
                    chunk_size: self.chunk_size,
                    file_size: self.file_size,
                    token: self.token.as_deref().unwrap_or_default(),
                    have: Have::NONE,
                });
                pkt.encode(self.conn_id, buf)
                    .ok()
                    .map(|len| Transmit::Control { len })
            }
            SenderState::Transferring | SenderState::Finishing => {
                if self.send_accept {
                    self.send_accept = false;
                    let pkt = Packet::Accept(Accept {
                        file_size: self.file_size,
                        chunk_size: self.chunk_size,
                        total_chunks: self.total,
                        have: Have {
                            prefix: 0,
                            ranges: Ranges::EMPTY,
                        },
                    });
                    return self.control(pkt, buf);
                }
                if self.state == SenderState::Finishing {
                    if !self.send_ctrl {
                        return None;
                    }
                    self.send_ctrl = false;
                    self.ctrl_deadline = Some(now + self.rtt.rto());
                    let pkt = Packet::Fin(Fin {
                        total_chunks: self.total,
                        file_size: self.file_size,
                    });
                    return self.control(pkt, buf);
                }
                self.next_data(now)
            }
        }
    }

    fn control(&mut self, pkt: Packet<'_>, buf: &mut [u8]) -> Option<Transmit> {
        match pkt.encode(self.conn_id, buf) {
            Ok(len) => Some(Transmit::Control { len }),
            // Only a too-small caller buffer gets here (our packets are sized to fit).
            Err(_) => None,
        }
    }

    fn pacing_allows(&mut self, now: Instant) -> bool {
        let Some(rate) = self.cfg.max_rate else {
            return true;
        };
        let rate = rate.max(1) as f64;
        let burst = (rate / 100.0).max(2.0 * MAX_DATAGRAM as f64);
        let dt = now
            .saturating_duration_since(self.last_refill)
            .as_secs_f64();
        self.tokens = (self.tokens + dt * rate).min(burst);
        self.last_refill = now;
        self.tokens > 0.0
    }

    fn next_data(&mut self, now: Instant) -> Option<Transmit> {
        // The single tail probe goes out even with a full window: it replaces a packet
        // that is probably gone.
        if let Some(seq) = self.probe.take() {
            let idx = seq.wrapping_sub(self.snd_una) as usize;
            let live = seq >= self.snd_una
                && self
                    .slots
                    .get(idx)
                    .is_some_and(|s| !s.acked && !s.lost && s.tx_count > 0);
            if live {
                // The probe stands in for the RTO's first move: give its ACK a full RTO.
                self.rto_deadline = Some(now + self.rtt.rto());
                return self.send_slot(idx, now);
            }
        }
        if f64::from(self.in_flight) >= self.cwnd.max(1.0) || !self.pacing_allows(now) {
            return None;
        }
        while let Some(seq) = self.retx.pop_front() {
            let Some(idx) = seq.checked_sub(self.snd_una).map(|i| i as usize) else {
                continue;
            };
            match self.slots.get(idx) {
                Some(s) if !s.acked && s.lost => return self.send_slot(idx, now),
                _ => continue,
            }
        }
        self.skip_held(now);
        if self.snd_nxt >= self.total || self.snd_nxt - self.snd_una >= self.peer_window {
            return None;
        }
        self.slots.push_back(Slot {
            sent_at: now,
            tx_order: 0,
            delivered_at_send: 0,
            tx_count: 0,
            acked: false,
            lost: true,
        });
        self.snd_nxt += 1;
        self.send_slot(self.slots.len() - 1, now)
    }

    /// Transmits scoreboard slot `idx` (new or lost) and returns what the driver sends.
    fn send_slot(&mut self, idx: usize, now: Instant) -> Option<Transmit> {
        let seq = self.snd_una + idx as u32;
        let s = self.slots[idx];
        if s.tx_count >= self.cfg.max_packet_transmissions {
            // poll_transmit sends the ABORT this queues.
            self.fail(AbortReason::RetryLimit);
            return None;
        }
        self.tx_counter += 1;
        self.slots[idx] = Slot {
            sent_at: now,
            tx_order: self.tx_counter,
            delivered_at_send: self.delivered,
            tx_count: s.tx_count + 1,
            acked: false,
            lost: false,
        };
        if s.tx_count > 0 {
            self.retransmissions += 1;
        }

        if s.tx_count == 0 || s.lost {
            // A probe re-sends a packet that is still counted in flight.
            self.in_flight += 1;
        }
        if self.tlp_deadline.is_none() && !self.tlp_sent {
            self.tlp_deadline = Some(now + self.pto());
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        let len = chunk_len(self.file_size, self.chunk_size, seq);
        if self.cfg.max_rate.is_some() {
            self.tokens -= (len + DATA_HEADER_LEN) as f64;
        }
        self.bytes_sent += len as u64;
        self.packets_sent += 1;
        Some(Transmit::Data {
            seq,
            offset: u64::from(seq) * u64::from(self.chunk_size),
            len,
        })
    }
}
