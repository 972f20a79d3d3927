//! RDT receiver state machine: handshake (either role), out-of-order DATA into a chunk
//! bitmap, delayed cumulative+SACK ACKs, resume, completion, FIN-ACK and linger. It never
//! buffers file data: each new chunk is handed to the driver as "write these bytes here".

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::bitmap::ChunkBitmap;
use super::packet::{
    decode, max_accept_ranges, max_ack_ranges, max_request_ranges, Accept, Ack, ChunkRange, Data,
    FinAck, Have, Mode, Packet, Ranges, Request, MAX_TOKEN_LEN,
};
use super::{check_chunk_size, chunk_len, total_chunks, AbortCode, AbortReason, Config, RdtError};

/// Hole fills whose runs the next ACKs repeat: at 20% ACK loss all of 8 ACKs are lost
/// with odds of 2.6e-6.
const RECENT_FILLS: usize = 8;

/// A chunk to store: write `data` at byte `offset` of the destination file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Write<'a> {
    pub seq: u32,
    pub offset: u64,
    pub data: &'a [u8],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiverState {
    /// Initiator: REQUEST sent, nothing heard yet. Responder: waiting for the REQUEST.
    Handshake,
    Receiving,
    /// Every chunk held (Done was reported); still answering FIN and late DATA.
    Complete,
    /// Linger over: drop the machine.
    Closed,
    Aborted(AbortReason),
}

/// Terminal events; each is reported once through [`Receiver::poll_event`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiverEvent {
    /// Every chunk has been handed out as a [`Write`]: flush and finalise the file.
    Done,
    Aborted {
        reason: AbortReason,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiverStats {
    pub file_size: u64,
    /// Bytes held, including those held before a resume.
    pub bytes_held: u64,
    /// New bytes received during this session.
    pub bytes_received: u64,
    pub chunks_held: u32,
    pub total_chunks: u32,
    pub duplicates: u64,
    pub out_of_window: u64,
    /// Datagrams dropped as corrupt, foreign or malformed.
    pub dropped: u64,
    pub acks_sent: u64,
}

/// The receiving end of one transfer.
#[derive(Debug)]
pub struct Receiver {
    conn_id: u64,
    file_size: u64,
    chunk_size: u16,
    total: u32,
    cfg: Config,
    state: ReceiverState,
    /// Set when we initiated (pull): the token our REQUEST carries.
    token: Option<Vec<u8>>,

    bitmap: ChunkBitmap,
    /// First chunk not held: everything below is held.
    cum: u32,
    /// One past the highest chunk held.
    max_seen: u32,
    last_arrival: Option<u32>,
    /// The latest arrivals that filled a hole below the top (newest last): their runs are
    /// repeated in the next ACKs, see [`fill_sacks`](Self::fill_sacks).
    recent_fills: VecDeque<u32>,
    /// What we held at start, as sent in REQUEST/ACCEPT.
    have_prefix: u32,
    have_ranges: Vec<ChunkRange>,
    sack_buf: Vec<ChunkRange>,

    ack_now: bool,
    unacked: u32,
    ack_deadline: Option<Instant>,
    final_ack_deadline: Option<Instant>,
    final_ack_interval: Duration,
    send_ctrl: bool,
    ctrl_deadline: Option<Instant>,
    ctrl_rto: Duration,
    ctrl_tries: u32,
    send_accept: bool,
    send_fin_ack: bool,
    send_abort: Option<AbortCode>,
    last_heard: Instant,
    events: VecDeque<ReceiverEvent>,

    bytes_held: u64,
    bytes_received: u64,
    duplicates: u64,
    out_of_window: u64,
    dropped: u64,
    acks_sent: u64,
}

impl Receiver {
    /// Responder: the peer initiated (an upload). Feed its REQUEST through
    /// [`handle`](Self::handle); `chunk_size` is the one that REQUEST carries.
    /// `already_have` is the resume bitmap of a previous attempt (same chunk size).
    pub fn new(
        conn_id: u64,
        file_size: u64,
        chunk_size: u16,
        already_have: Option<ChunkBitmap>,
        config: Config,
        now: Instant,
    ) -> Result<Self, RdtError> {
        Self::build(
            conn_id,
            None,
            file_size,
            chunk_size,
            already_have,
            config,
            now,
        )
    }

    /// Initiator: we pull (a download). Sends REQUEST (with what we hold) and retries it
    /// until ACCEPT or DATA arrives.
    pub fn initiate(
        conn_id: u64,
        token: &[u8],
        file_size: u64,
        chunk_size: u16,
        already_have: Option<ChunkBitmap>,
        config: Config,
        now: Instant,
    ) -> Result<Self, RdtError> {
        if token.len() > MAX_TOKEN_LEN {
            return Err(RdtError::TokenTooLong);
        }
        let token = Some(token.to_vec());
        Self::build(
            conn_id,
            token,
            file_size,
            chunk_size,
            already_have,
            config,
            now,
        )
    }

    fn build(
        conn_id: u64,
        token: Option<Vec<u8>>,
        file_size: u64,
        chunk_size: u16,
        already_have: Option<ChunkBitmap>,
        cfg: Config,
        now: Instant,
    ) -> Result<Self, RdtError> {
        check_chunk_size(chunk_size)?;
        let total = total_chunks(file_size, chunk_size).ok_or(RdtError::TooManyChunks)?;
        let bitmap = match already_have {
            Some(b) if b.len() != total => {
                return Err(RdtError::BitmapMismatch {
                    got: b.len(),
                    want: total,
                })
            }
            Some(b) => b,
            None => ChunkBitmap::new(total),
        };
        let cum = bitmap.next_clear(0);
        let max_ranges = match &token {
            Some(t) => max_request_ranges(t.len()),
            None => max_accept_ranges(),
        };
        // Ranges past what fits are simply re-sent by the peer and counted as duplicates.
        let have_ranges: Vec<ChunkRange> = bitmap.runs(cum, total).take(max_ranges).collect();
        let cs = u64::from(chunk_size);
        let bytes_held = bitmap
            .runs(0, total)
            .map(|r| (u64::from(r.end) * cs).min(file_size) - u64::from(r.start) * cs)
            .sum();
        let max_seen = have_ranges.last().map_or(cum, |r| r.end);
        let send_ctrl = token.is_some();
        let sack_cap = cfg.max_sack_ranges.min(max_ack_ranges());
        Ok(Self {
            conn_id,
            file_size,
            chunk_size,
            total,
            state: ReceiverState::Handshake,
            token,
            bitmap,
            cum,
            max_seen,
            last_arrival: None,
            recent_fills: VecDeque::with_capacity(RECENT_FILLS),
            have_prefix: cum,
            have_ranges,
            sack_buf: Vec::with_capacity(sack_cap),
            ack_now: false,
            unacked: 0,
            ack_deadline: None,
            final_ack_deadline: None,
            final_ack_interval: Duration::ZERO,
            send_ctrl,
            ctrl_deadline: None,
            ctrl_rto: cfg.initial_rto,
            ctrl_tries: 0,
            send_accept: false,
            send_fin_ack: false,
            send_abort: None,
            last_heard: now,
            events: VecDeque::new(),
            bytes_held,
            bytes_received: 0,
            duplicates: 0,
            out_of_window: 0,
            dropped: 0,
            acks_sent: 0,
            cfg,
        })
    }

    pub fn conn_id(&self) -> u64 {
        self.conn_id
    }

    pub fn state(&self) -> ReceiverState {
        self.state
    }

    /// Chunks held so far: persist it to resume an interrupted transfer later.
    pub fn bitmap(&self) -> &ChunkBitmap {
        &self.bitmap
    }

    /// True once Closed or Aborted with nothing left to transmit: drop the machine.
    pub fn is_finished(&self) -> bool {
        matches!(
            self.state,
            ReceiverState::Closed | ReceiverState::Aborted(_)
        ) && self.send_abort.is_none()
    }

    pub fn poll_event(&mut self) -> Option<ReceiverEvent> {
        self.events.pop_front()
    }

    /// Bytes from the start of the file that are all held: the prefix a driver can hash
    /// while receiving.
    pub fn contiguous_bytes(&self) -> u64 {
        (u64::from(self.cum) * u64::from(self.chunk_size)).min(self.file_size)
    }

    pub fn stats(&self) -> ReceiverStats {
        ReceiverStats {
            file_size: self.file_size,
            bytes_held: self.bytes_held,
            bytes_received: self.bytes_received,
            chunks_held: self.bitmap.count(),
            total_chunks: self.total,
            duplicates: self.duplicates,
            out_of_window: self.out_of_window,
            dropped: self.dropped,
            acks_sent: self.acks_sent,
        }
    }

    /// Aborts locally (user cancel, disk error); an ABORT goes out on the next poll.
    pub fn abort(&mut self, code: AbortCode) {
        self.fail(AbortReason::Local(code));
    }

    fn terminal(&self) -> bool {
        matches!(
            self.state,
            ReceiverState::Closed | ReceiverState::Aborted(_)
        )
    }

    fn fail(&mut self, reason: AbortReason) {
        if self.terminal() {
            return;
        }
        self.state = ReceiverState::Aborted(reason);
        if !matches!(reason, AbortReason::Peer(_)) {
            self.send_abort = Some(reason.wire_code());
        }
        self.events.push_back(ReceiverEvent::Aborted { reason });
    }

    /// The peer is known to take part: stop repeating REQUEST, start counting completion.
    fn establish(&mut self, now: Instant) {
        if self.state == ReceiverState::Handshake {
            self.state = ReceiverState::Receiving;
            self.send_ctrl = false;
            self.ctrl_deadline = None;
        }
        self.check_complete(now);
    }

    fn check_complete(&mut self, now: Instant) {
        if self.state == ReceiverState::Receiving && self.bitmap.is_complete() {
            self.state = ReceiverState::Complete;
            self.events.push_back(ReceiverEvent::Done);
            self.ack_now = true;
            // The sender only learns we are done from an ACK: repeat the final one (with
            // backoff) until its FIN shows it got one, so a lost tail ACK costs no RTOs.
            self.final_ack_interval = self.cfg.min_rto.max(Duration::from_millis(1));
            self.final_ack_deadline = Some(now + self.final_ack_interval);
        }
    }

    /// Feeds one datagram from the peer. Returns the chunk to write when it carried new
    /// data; write it before acting on [`poll_event`](Self::poll_event).
    pub fn handle<'a>(&mut self, datagram: &'a [u8], now: Instant) -> Option<Write<'a>> {
        let pkt = match decode(datagram) {
            Ok((id, pkt)) if id == self.conn_id => pkt,
            _ => {
                self.dropped += 1;
                return None;
            }
        };
        if self.terminal() {
            return None;
        }
        self.last_heard = now;
        match pkt {
            Packet::Request(r) if self.token.is_none() => self.on_request(&r, now),
            Packet::Accept(a) if self.token.is_some() => self.on_accept(&a, now),
            Packet::Data(d) => {
                self.establish(now);
                return self.on_data(d, now);
            }
            Packet::Fin(f) => {
                self.establish(now);
                if f.total_chunks != self.total || f.file_size != self.file_size {
                    self.fail(AbortReason::Mismatch);
                } else if self.state == ReceiverState::Complete {
                    self.send_fin_ack = true;
                    self.final_ack_deadline = None;
                } else {
                    // The sender believes we hold everything; show it what we hold.
                    self.ack_now = true;
                }
            }
            Packet::Abort(code) => self.fail(AbortReason::Peer(code)),
            _ => self.dropped += 1,
        }
        None
    }

    fn on_request(&mut self, r: &Request<'_>, now: Instant) {
        if r.mode != Mode::Push {
            self.fail(AbortReason::Protocol);
            return;
        }
        if r.file_size != self.file_size || r.chunk_size != self.chunk_size {
            self.fail(AbortReason::Mismatch);
            return;
        }
        // First REQUEST or a repeat because our ACCEPT was lost: (re)send ACCEPT.
        self.send_accept = true;
        self.establish(now);
    }

    fn on_accept(&mut self, a: &Accept<'_>, now: Instant) {
        if a.file_size != self.file_size
            || a.chunk_size != self.chunk_size
            || a.total_chunks != self.total
        {
            self.fail(AbortReason::Mismatch);
            return;
        }
        self.establish(now);
    }

    fn on_data<'a>(&mut self, d: Data<'a>, now: Instant) -> Option<Write<'a>> {
        let seq = d.seq;
        if seq >= self.total || d.payload.len() != chunk_len(self.file_size, self.chunk_size, seq) {
            self.dropped += 1;
            return None;
        }
        if u64::from(seq) >= u64::from(self.cum) + u64::from(self.cfg.recv_window.max(1)) {
            self.out_of_window += 1;
            self.ack_now = true;
            return None;
        }
        if !self.bitmap.set(seq) {
            // A duplicate usually means our ACK was lost: repeat it now.
            self.duplicates += 1;
            self.ack_now = true;
            return None;
        }
        let len = d.payload.len() as u64;
        self.bytes_held += len;
        self.bytes_received += len;
        self.last_arrival = Some(seq);
        if seq + 1 < self.max_seen {
            if self.recent_fills.len() == RECENT_FILLS {
                self.recent_fills.pop_front();
            }
            self.recent_fills.push_back(seq);
        }
        if seq == self.cum {
            let had_gap = self.max_seen > seq + 1;
            self.cum = self.bitmap.next_clear(seq);
            if had_gap {
                // A hole was filled: tell the sender promptly.
                self.ack_now = true;
            }
        } else {
            // Out of order means a hole: SACK it at once so the sender can recover fast.
            self.ack_now = true;
        }
        self.max_seen = self.max_seen.max(seq + 1);
        self.unacked += 1;
        if self.unacked >= self.cfg.ack_every.max(1) {
            self.ack_now = true;
        } else if self.ack_deadline.is_none() {
            self.ack_deadline = Some(now + self.cfg.ack_delay);
        }
        self.check_complete(now);
        Some(Write {
            seq,
            offset: u64::from(seq) * u64::from(self.chunk_size),
            data: d.payload,
        })
    }

    /// Next instant at which [`handle_timeout`](Self::handle_timeout) must run.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let base = match self.state {
            ReceiverState::Closed | ReceiverState::Aborted(_) => return None,
            ReceiverState::Complete => self.last_heard + self.cfg.linger,
            _ => self.last_heard + self.cfg.idle_timeout,
        };
        Some(
            [
                self.ctrl_deadline,
                self.ack_deadline,
                self.final_ack_deadline,
            ]
            .into_iter()
            .flatten()
            .fold(base, Instant::min),
        )
    }

    /// Runs timers: REQUEST retries, delayed ACK, idle limit, linger.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.terminal() {
            return;
        }
        if self.ack_deadline.is_some_and(|d| now >= d) {
            self.ack_deadline = None;
            self.ack_now = true;
        }
        if self.state == ReceiverState::Complete {
            if now >= self.last_heard + self.cfg.linger {
                self.state = ReceiverState::Closed;
            } else if self.final_ack_deadline.is_some_and(|d| now >= d) {
                self.ack_now = true;
                self.final_ack_interval = (self.final_ack_interval * 2).min(self.cfg.max_rto);
                self.final_ack_deadline = Some(now + self.final_ack_interval);
            }
            return;
        }
        if now >= self.last_heard + self.cfg.idle_timeout {
            self.fail(AbortReason::IdleTimeout);
            return;
        }
        if self.ctrl_deadline.is_some_and(|d| now >= d) {
            self.ctrl_deadline = None;
            self.ctrl_tries += 1;
            if self.ctrl_tries > self.cfg.max_timeouts {
                self.fail(AbortReason::RetryLimit);
                return;
            }
            self.ctrl_rto = (self.ctrl_rto * 2).min(self.cfg.max_rto);
            self.send_ctrl = true;
        }
    }

    /// Next datagram to send (REQUEST, ACCEPT, ACK, FIN-ACK, ABORT), written into `buf`
    /// (at least `MAX_DATAGRAM` bytes); returns its length. Call until `None`.
    pub fn poll_transmit(&mut self, now: Instant, buf: &mut [u8]) -> Option<usize> {
        if let Some(code) = self.send_abort.take() {
            return Packet::Abort(code).encode(self.conn_id, buf).ok();
        }
        if self.terminal() {
            return None;
        }
        if self.send_ctrl {
            self.send_ctrl = false;
            self.ctrl_deadline = Some(now + self.ctrl_rto);
            let pkt = Packet::Request(Request {
                mode: Mode::Pull,
                chunk_size: self.chunk_size,
                file_size: self.file_size,
                token: self.token.as_deref().unwrap_or_default(),
                have: self.have(),
            });
            return pkt.encode(self.conn_id, buf).ok();
        }
        if self.state == ReceiverState::Handshake {
            return None;
        }
        if self.send_accept {
            self.send_accept = false;
            let pkt = Packet::Accept(Accept {
                file_size: self.file_size,
                chunk_size: self.chunk_size,
                total_chunks: self.total,
                have: self.have(),
            });
            return pkt.encode(self.conn_id, buf).ok();
        }
        if self.send_fin_ack {
            self.send_fin_ack = false;
            let pkt = Packet::FinAck(FinAck {
                total_chunks: self.total,
            });
            return pkt.encode(self.conn_id, buf).ok();
        }
        if self.ack_now {
            self.ack_now = false;
            self.unacked = 0;
            self.ack_deadline = None;
            self.fill_sacks();
            self.acks_sent += 1;
            let pkt = Packet::Ack(Ack {
                cum: self.cum,
                window: self.cfg.recv_window.max(1),
                sacks: Ranges::List(&self.sack_buf),
            });
            return pkt.encode(self.conn_id, buf).ok();
        }
        None
    }

    fn have(&self) -> Have<'_> {
        Have {
            prefix: self.have_prefix,
            ranges: Ranges::List(&self.have_ranges),
        }
    }

    /// SACK blocks: first the run holding the latest arrival (freshest news for the
    /// sender's loss detection), then the runs of the other latest arrivals that filled a
    /// hole (RFC 2018's "repeat the most recently reported blocks"), then the runs nearest
    /// the top, newest first. The sender declares a chunk lost once a chunk sent after it
    /// is acknowledged (RACK), so every run must keep being reported for a while: listing
    /// the newest runs means each run near the top appears in many consecutive ACKs. A
    /// retransmission filling a hole far below the top (more than `max_sack_ranges` runs
    /// down, common with a hole every few chunks at 10-20% loss) was listed only by the one
    /// ACK it triggered; when that ACK was lost the sender re-sent the chunk (1.16-1.25
    /// retransmissions per drop in the namespaces). Repeating the last
    /// [`RECENT_FILLS`] fills puts each in several ACKs.
    fn fill_sacks(&mut self) {
        self.sack_buf.clear();
        let cap = self.cfg.max_sack_ranges.min(max_ack_ranges());
        if cap == 0 {
            return;
        }
        let mut first = None;
        if let Some(last) = self.last_arrival {
            if last > self.cum && self.bitmap.get(last) {
                let r = ChunkRange::new(self.bitmap.run_start(last), self.bitmap.next_clear(last));
                self.sack_buf.push(r);
                first = Some(r);
            }
        }
        for &seq in self.recent_fills.iter().rev() {
            if self.sack_buf.len() >= cap / 2 {
                break;
            }
            if seq < self.cum || !self.bitmap.get(seq) {
                continue;
            }
            let r = ChunkRange::new(self.bitmap.run_start(seq), self.bitmap.next_clear(seq));
            if !self.sack_buf.contains(&r) {
                self.sack_buf.push(r);
            }
        }
        let repeated = self.sack_buf.len();
        for r in self.bitmap.runs_rev(self.cum, self.max_seen) {
            if self.sack_buf.len() >= cap {
                break;
            }
            if Some(r) != first && !self.sack_buf[..repeated].contains(&r) {
                self.sack_buf.push(r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use crate::rdt::packet::{decode, seal_data, Accept, Have, Packet, DATA_HEADER_LEN};
    use crate::rdt::{conn_id_from_token, Config, Receiver, MAX_DATAGRAM};

    /// Whether the ACK in `buf` lists `seq` in its cumulative part or a SACK range.
    fn acks(buf: &[u8], seq: u32) -> bool {
        match decode(buf) {
            Ok((_, Packet::Ack(a))) => {
                a.cum > seq || a.sacks.iter().any(|r| r.start <= seq && seq < r.end)
            }
            other => panic!("expected an ACK, got {other:?}"),
        }
    }

    #[test]
    fn a_filled_hole_far_below_the_top_is_repeated_in_the_next_acks() {
        let now = Instant::now();
        let token = b"fills";
        let conn = conn_id_from_token(token);
        let (chunk, total) = (1400u16, 400u32);
        let size = u64::from(chunk) * u64::from(total);
        let mut rx =
            Receiver::initiate(conn, token, size, chunk, None, Config::default(), now).expect("rx");
        let mut buf = vec![0u8; MAX_DATAGRAM];
        assert!(rx.poll_transmit(now, &mut buf).is_some(), "REQUEST");
        let accept = Packet::Accept(Accept {
            file_size: size,
            chunk_size: chunk,
            total_chunks: total,
            have: Have::NONE,
        });
        let n = accept.encode(conn, &mut buf).expect("encode ACCEPT");
        rx.handle(&buf[..n], now);
        let mut feed = |rx: &mut Receiver, seq: u32| {
            let len = usize::from(chunk);
            let n = seal_data(conn, seq, len, &mut buf[..DATA_HEADER_LEN + len]).expect("seal");
            let pkt = buf[..n].to_vec();
            assert!(rx.handle(&pkt, now).is_some(), "chunk {seq} is new");
        };
        // A hole every fifth chunk: 60 runs above the first hole, more than the 32 SACK
        // ranges an ACK carries.
        for seq in (0..300).filter(|s| s % 5 != 4) {
            feed(&mut rx, seq);
        }
        let mut out = vec![0u8; MAX_DATAGRAM];
        while rx.poll_transmit(now, &mut out).is_some() {}
        // The retransmission of chunk 9 arrives; the ACK it triggers is lost.
        feed(&mut rx, 9);
        let n = rx.poll_transmit(now, &mut out).expect("ACK for the fill");
        assert!(acks(&out[..n], 9));
        // New chunks at the top: each ACK they trigger must still report chunk 9.
        for seq in 300..304 {
            feed(&mut rx, seq);
            let n = rx.poll_transmit(now, &mut out).expect("ACK");
            assert!(
                acks(&out[..n], 9),
                "the ACK after chunk {seq} forgot chunk 9"
            );
        }
    }
}
