//! Sender, transmit: control packets, pacing and the choice of the next DATA packet
//! (retransmissions first, then new chunks within the window).

use std::time::Instant;

use super::{Frto, LossCause, Sender, SenderState, Slot, Transmit};
use crate::rdt::packet::{Accept, Fin, Have, Mode, Packet, Ranges, Request, MAX_DATAGRAM};
use crate::rdt::{chunk_len, AbortReason, DATA_HEADER_LEN};

impl Sender {
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

    pub(super) fn poll_inner(&mut self, now: Instant, buf: &mut [u8]) -> Option<Transmit> {
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

    pub(super) fn control(&mut self, pkt: Packet<'_>, buf: &mut [u8]) -> Option<Transmit> {
        match pkt.encode(self.conn_id, buf) {
            Ok(len) => Some(Transmit::Control { len }),
            // Only a too-small caller buffer gets here (our packets are sized to fit).
            Err(_) => None,
        }
    }

    pub(super) fn pacing_allows(&mut self, now: Instant) -> bool {
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

    pub(super) fn next_data(&mut self, now: Instant) -> Option<Transmit> {
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
        // F-RTO: one retransmission after an RTO, then (if needed) two new chunks, each
        // step waiting for an ACK.
        let window = match self.frto {
            Frto::Off => self.cwnd.max(1.0),
            Frto::Retransmitted => 1.0,
            Frto::NewData { sent } if sent < 2 => f64::from(self.in_flight) + 1.0,
            Frto::NewData { .. } => 0.0,
        };
        if f64::from(self.in_flight) >= window || !self.pacing_allows(now) {
            return None;
        }
        if let Frto::NewData { sent } = self.frto {
            self.frto = Frto::NewData { sent: sent + 1 };
        }
        while let Some(seq) = self.retx.pop_front() {
            if matches!(self.frto, Frto::NewData { .. }) {
                // Retransmissions wait for the deciding ACK.
                self.retx.push_front(seq);
                break;
            }
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
            cause: LossCause::RackTime,
        });
        self.snd_nxt += 1;
        self.send_slot(self.slots.len() - 1, now)
    }

    /// Transmits scoreboard slot `idx` (new or lost) and returns what the driver sends.
    pub(super) fn send_slot(&mut self, idx: usize, now: Instant) -> Option<Transmit> {
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
            cause: s.cause,
        };
        if s.tx_count > 0 {
            self.counters.retransmissions += 1;
            let by = &mut self.counters.retx_by;
            match (s.lost, s.cause) {
                (false, _) => by.probe += 1,
                (true, LossCause::RackTime) => by.rack_time += 1,
                (true, LossCause::RackCount) => by.rack_count += 1,
                (true, LossCause::Rto) => by.rto += 1,
            }
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
        self.counters.bytes_sent += len as u64;
        self.counters.packets_sent += 1;
        Some(Transmit::Data {
            seq,
            offset: u64::from(seq) * u64::from(self.chunk_size),
            len,
        })
    }
}
