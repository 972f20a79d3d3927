//! Sender, timers: the next deadline, idle/handshake/RTO/probe timeouts and what each
//! one does when it fires.

use std::time::{Duration, Instant};

use super::{Frto, LossCause, RtoUndo, Sender, SenderState, FIN_TRIES};
use crate::rdt::AbortReason;

impl Sender {
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

    pub(super) fn pacing_wake(&self) -> Option<Instant> {
        let rate = self.cfg.max_rate?;
        if self.state != SenderState::Transferring || self.tokens > 0.0 || !self.has_data_to_send()
        {
            return None;
        }
        let secs = (-self.tokens + 1.0) / rate.max(1) as f64;
        Some(self.last_refill + Duration::from_secs_f64(secs))
    }

    pub(super) fn has_data_to_send(&self) -> bool {
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
            let limit = if self.state == SenderState::Finishing {
                FIN_TRIES.min(self.cfg.max_timeouts)
            } else {
                self.cfg.max_timeouts
            };
            if self.ctrl_tries > limit {
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
    pub(super) fn on_probe_timeout(&mut self) {
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
    pub(super) fn pto(&self) -> Duration {
        let srtt = self.rtt.srtt().unwrap_or(self.cfg.initial_rto / 2);
        srtt * 2 + self.cfg.ack_delay
    }

    pub(super) fn on_rto(&mut self) {
        self.rto_deadline = None;
        self.tlp_deadline = None;
        self.tlp_sent = false;
        self.probe = None;
        self.counters.timeouts += 1;
        self.timeouts_in_row += 1;
        if self.timeouts_in_row > self.cfg.max_timeouts {
            self.fail(AbortReason::RetryLimit);
            return;
        }
        if self.timeouts_in_row == 1 {
            self.rto_undo = Some(RtoUndo {
                cwnd: self.cwnd,
                ssthresh: self.ssthresh,
                at_order: self.tx_counter,
            });
            // Remember the pre-outage window: slow start climbs back to it quickly.
            self.ssthresh = (self.cwnd * self.cfg.decrease_factor).max(self.min_window());
            self.cwnd = self.min_window();
            self.cwr_tx_order = self.tx_counter;
            self.undo = None;
        }
        self.rtt.back_off();
        self.frto = Frto::Retransmitted;
        for idx in 0..self.slots.len() {
            let s = self.slots[idx];
            if !s.acked && !s.lost && s.tx_count > 0 {
                self.slots[idx].lost = true;
                self.slots[idx].cause = LossCause::Rto;
                self.retx.push_back(self.snd_una + idx as u32);
            }
        }
        self.in_flight = 0;
    }
}
