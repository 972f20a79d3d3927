//! Sender, acknowledgements: ACK processing, RACK-style loss detection with an adaptive
//! reordering window, spurious-loss undo, and the loss-tolerant congestion window.

use std::time::{Duration, Instant};

use super::{AckScratch, Sender, SenderState, Undo, DUPTHRESH, MIN_REO_WND, REO_MULT_MAX};
use crate::rdt::chunk_len;
use crate::rdt::packet::Ack;

impl Sender {
    pub(super) fn on_ack(&mut self, a: &Ack<'_>, now: Instant) {
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

    pub(super) fn ack_slot(&mut self, seq: u32, now: Instant, acc: &mut AckScratch) {
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
    pub(super) fn spurious_loss(&mut self) {
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
    pub(super) fn detect_losses(&mut self, now: Instant) {
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
    pub(super) fn reo_wnd(&self) -> Duration {
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
    pub(super) fn grow_window(&mut self, newly: u64) {
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
    pub(super) fn end_round(&mut self) {
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
    pub(super) fn hystart(&mut self, sample: Duration) {
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

    pub(super) fn min_window(&self) -> f64 {
        f64::from(self.cfg.min_window.max(1))
    }
}
