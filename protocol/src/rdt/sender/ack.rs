//! Sender, acknowledgements: ACK processing, RACK-style loss detection with an adaptive
//! reordering window, spurious-loss undo, and the congestion window (loss-tolerant on
//! random loss, backing off when a queue stands or losses come in bursts).

use std::time::{Duration, Instant};

use super::{
    AckScratch, Frto, LossCause, Sender, SenderState, Undo, BURST_ODDS, DUPTHRESH, MIN_REO_WND,
    PROBE_GAIN, QUEUE_THRESH_MAX, QUEUE_THRESH_MIN, RENO_FRIENDLY_GAIN, REO_MULT_MAX,
};
use crate::rdt::packet::Ack;
use crate::rdt::{chunk_len, BASE_WINDOW_CAP};

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
            self.counters.bytes_skipped += self.range_bytes(self.snd_nxt, a.cum);
            self.snd_una = a.cum;
            self.snd_nxt = a.cum;
        }

        if acc.rto_spurious {
            self.undo_rto();
            // RACK's reference moves back to the originals: the RTO's retransmission was
            // acknowledged by its original, and measured against it every packet the RTO
            // put back in flight would look overdue.
            if let Some((order, sent_at)) = acc.latest_original {
                self.rack_tx_order = order;
                self.rack_rtt = now.saturating_duration_since(sent_at);
            }
        }
        if acc.newly > 0 {
            // F-RTO (RFC 5682): the first ACK after the RTO's one retransmission may only
            // cover that retransmission; then two new chunks go out and the next ACK
            // decides. An ACK for originals the RTO declared lost undid it above.
            self.frto = match self.frto {
                Frto::Retransmitted if !acc.rto_spurious && self.snd_nxt < self.total => {
                    Frto::NewData { sent: 0 }
                }
                _ => Frto::Off,
            };
        }
        if let Some((order, sent_at, tx_count)) = acc.latest {
            if tx_count == 1 && self.rto_undo.is_some_and(|u| order > u.at_order) {
                // New data sent after the RTO got through: too late to call it spurious.
                self.rto_undo = None;
            }
            self.timeouts_in_row = 0;
            let rtt = now.saturating_duration_since(sent_at);
            if tx_count == 1 {
                // Karn: only first transmissions give unambiguous samples.
                self.rtt.sample(rtt);
                self.queue.round_min_rtt =
                    Some(self.queue.round_min_rtt.map_or(rtt, |m| m.min(rtt)));
                self.hystart();
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
            self.end_round(now);
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
        if slot.lost && slot.cause == LossCause::Rto {
            // The RTO declared it lost, yet the original arrived: the RTO was spurious (a
            // stall, not an outage). Not reordering evidence; `on_ack` puts the rest of
            // what the RTO declared lost back in flight.
            self.spurious += 1;
            acc.rto_spurious = true;
        } else if slot.lost {
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
        self.counters.bytes_acked += chunk_len(self.file_size, self.chunk_size, seq) as u64;
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
        if slot.tx_count == 1 && acc.latest_original.is_none_or(|(o, _)| slot.tx_order > o) {
            acc.latest_original = Some((slot.tx_order, slot.sent_at));
        }
    }

    /// An RTO proved spurious (an original it declared lost was acknowledged): the
    /// packets it declared lost and that were not retransmitted yet are in flight again,
    /// so they are not re-sent while their ACKs are on the way (RACK declares the ones
    /// really lost, overdue behind later deliveries), and the window before the RTO comes
    /// back unless new data sent since was already acknowledged.
    pub(super) fn undo_rto(&mut self) {
        for s in self.slots.iter_mut() {
            if s.lost && !s.acked && s.cause == LossCause::Rto {
                s.lost = false;
                self.in_flight += 1;
            }
        }
        if let Some(u) = self.rto_undo.take() {
            self.cwnd = self.cwnd.max(u.cwnd);
            self.ssthresh = u.ssthresh;
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
                self.slots[idx].cause = if now >= deadline {
                    LossCause::RackTime
                } else {
                    LossCause::RackCount
                };
                self.in_flight = self.in_flight.saturating_sub(1);
                // Packets sent before the last decrease belong to the episode that caused
                // it: one burst must not shrink the window twice.
                if s.tx_order > self.cwr_tx_order {
                    self.round_lost += 1;
                    // Runs in transmission order: a full drop-tail queue drops the rest of
                    // a burst; independent random drops rarely line up.
                    if s.tx_order == self.last_lost_order + 1 {
                        self.loss_run += 1;
                    } else {
                        self.loss_run = 1;
                    }
                    self.last_lost_order = s.tx_order;
                    self.round_max_run = self.round_max_run.max(self.loss_run);
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

    /// Slow start below `ssthresh`. Above it the gain depends on the queue (in the spirit
    /// of TCP Illinois) and on the last congestion: with a standing queue, or below the
    /// window at which congestion last struck (`w_max`, as CUBIC remembers it), it adds
    /// `RENO_FRIENDLY_GAIN` packets per round trip, the increase that makes a 0.7 decrease
    /// as aggressive as Reno's halving (RFC 8312, 4.2); otherwise the path has room and the
    /// window probes fast (`PROBE_GAIN` of itself per round trip). The minimum RTT alone
    /// cannot decide: a flow that starts behind someone else's standing queue measures
    /// that queue as its base (LEDBAT's latecomer problem).
    pub(super) fn grow_window(&mut self, newly: u64) {
        let n = newly as f64;
        if self.cwnd < self.ssthresh {
            self.cwnd += n;
        } else if self.standing_queue() || self.cwnd < self.w_max {
            self.cwnd += n * RENO_FRIENDLY_GAIN / self.cwnd;
        } else {
            self.cwnd += n * (1.0 / self.cwnd).max(PROBE_GAIN);
        }
        self.cwnd = self.cwnd.min(self.window_cap());
    }

    /// Cap of the window: twice the path's bandwidth-delay product (largest recent
    /// delivery rate x minimum RTT), at least [`BASE_WINDOW_CAP`] and at most
    /// `max_window`. On loopback or a LAN the BDP is a few packets and the base cap holds;
    /// on a long fast path (the relay's 20 ms at ~100 MB/s: ~1500 packets) the window may
    /// exceed it, where a fixed 2048 bound the rate to 2048 packets per RTT.
    pub(super) fn window_cap(&self) -> f64 {
        let hard = f64::from(self.cfg.max_window.max(1));
        let floor = f64::from(BASE_WINDOW_CAP).min(hard);
        let bdp = self.max_delivery_rate * self.rtt.min_rtt().map_or(0.0, |m| m.as_secs_f64());
        (2.0 * bdp).clamp(floor, hard)
    }

    /// Queueing delay above which the path counts as having a standing queue: a quarter of
    /// the minimum RTT or half the largest standing queue seen lately (a shallow buffer
    /// never adds a quarter RTT, TCP Illinois scales by the maximum queueing delay in the
    /// same way), within [`QUEUE_THRESH_MIN`, `QUEUE_THRESH_MAX`].
    pub(super) fn queue_threshold(&self) -> Duration {
        let m = self.rtt.min_rtt().unwrap_or(Duration::ZERO);
        let seen = Duration::from_secs_f64(self.queue.max_queue_delay / 2.0);
        (m / 4).min(seen).clamp(QUEUE_THRESH_MIN, QUEUE_THRESH_MAX)
    }

    /// True when the last round's smallest RTT sample sat above the path's minimum by more
    /// than [`queue_threshold`](Self::queue_threshold) plus twice the path's RTT noise
    /// (`queue_noise`): every packet waited in a queue, and by more than chance. Through
    /// the test relay (a delay line on a millisecond timer) a round's smallest RTT moves
    /// 0-4 ms by chance; read as a queue, every random loss became congestion and 1% loss
    /// held the window to tens of packets.
    pub(super) fn standing_queue(&self) -> bool {
        let noise = Duration::from_secs_f64(2.0 * self.queue.queue_noise);
        self.queue
            .queue_delay
            .is_some_and(|q| q > self.queue_threshold() + noise)
    }

    /// Shortest run of consecutive losses that random loss at rate `p` (the larger of the
    /// smoothed and this round's rate: the average is still warming up early on) would
    /// produce in a round of `n` packets with odds below [`BURST_ODDS`] (at least 3).
    pub(super) fn burst_len(&self, n: u64, rate: f64) -> u32 {
        let p = self.loss_ewma.max(rate).max(0.001);
        let mut k = 3;
        while k < 32 && n as f64 * p.powi(k as i32) > BURST_ODDS {
            k += 1;
        }
        k
    }

    /// Once per round trip: decides whether this round's losses were congestion. Loss while
    /// a queue stands (delay up) or in a burst (a full drop-tail queue) is congestion and
    /// shrinks the window once by `decrease_factor`; loss with an empty queue, scattered, is
    /// random and ignored unless its smoothed rate passes `loss_threshold` (or a single
    /// round loses twice that: an overflow the delay signal could not see).
    pub(super) fn end_round(&mut self, now: Instant) {
        let n = self.round_acked + self.round_lost;
        if let Some(began) = self.round_began {
            let dt = now.saturating_duration_since(began).as_secs_f64();
            if dt > 0.0 {
                let rate = self.round_acked as f64 / dt;
                self.max_delivery_rate = (self.max_delivery_rate * 0.99).max(rate);
            }
        }
        self.round_began = Some(now);
        // A decrease stays undoable for one more round (late spurious-loss evidence).
        if self.undo.as_ref().is_some_and(|u| u.rounds_left == 0) {
            self.undo = None;
        } else if let Some(u) = &mut self.undo {
            u.rounds_left -= 1;
        }
        if let (Some(r), Some(m)) = (self.queue.round_min_rtt, self.rtt.min_rtt()) {
            let q = r.saturating_sub(m);
            // The previous round's delay, before this round's replaces it.
            if let Some(p) = self.queue.queue_delay {
                let d = q.abs_diff(p);
                self.queue.queue_noise = 0.875 * self.queue.queue_noise + 0.125 * d.as_secs_f64();
            }
            self.queue.queue_delay = Some(q);
            // Forget old peaks slowly (half-life about 70 rounds): the path may change.
            self.queue.max_queue_delay = (self.queue.max_queue_delay * 0.99).max(q.as_secs_f64());
        }
        if self.round_lost > 0 {
            self.loss_rounds += 1;
        }
        if n >= 4 {
            let rate = self.round_lost as f64 / n as f64;
            self.loss_ewma = 0.875 * self.loss_ewma + 0.125 * rate;
            let th = self.cfg.loss_threshold;
            let congested = self.round_lost > 0
                && (self.standing_queue() || self.round_max_run >= self.burst_len(n, rate));
            if congested || self.loss_ewma > th || rate > 2.0 * th {
                self.undo = Some(Undo {
                    cwnd: self.cwnd,
                    ssthresh: self.ssthresh,
                    lost: self.round_lost,
                    n,
                    rounds_left: 1,
                });
                // CUBIC's fast convergence: a flow whose window keeps shrinking yields
                // room to newcomers by remembering less than it had.
                let beta = self.cfg.decrease_factor;
                self.w_max = if self.cwnd < self.w_max {
                    self.cwnd * (1.0 + beta) / 2.0
                } else {
                    self.cwnd
                };
                self.cwnd = (self.cwnd * self.cfg.decrease_factor).max(self.min_window());
                self.ssthresh = self.cwnd;
                self.cwr_tx_order = self.tx_counter;
                self.congestion_events += 1;
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
        self.round_max_run = 0;
        self.round_samples = 0;
        self.queue.round_min_rtt = None;
    }

    /// Delay-based slow-start exit after HyStart++ (RFC 9406): once this round's smallest
    /// RTT (at least 8 samples, so jitter is filtered) exceeds the minimum by max(4 ms,
    /// min/8), a queue is building; stop doubling before it overflows.
    pub(super) fn hystart(&mut self) {
        self.round_samples += 1;
        let (Some(min), Some(round_min)) = (self.rtt.min_rtt(), self.queue.round_min_rtt) else {
            return;
        };
        let eta = (min / 8).clamp(Duration::from_millis(4), Duration::from_millis(16));
        // Only the initial slow start (ssthresh still unset): after an RTO, slow start
        // climbs back to the remembered ssthresh, and RTT noise on a jittery path must not
        // end it at the minimum window (growth above ssthresh is slow from there).
        if self.round_samples >= 8
            && self.ssthresh.is_infinite()
            && self.cwnd < self.ssthresh
            && round_min >= min + eta
        {
            self.ssthresh = self.cwnd;
        }
    }

    pub(super) fn min_window(&self) -> f64 {
        f64::from(self.cfg.min_window.max(1))
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use crate::rdt::{Config, Sender};

    const MS: Duration = Duration::from_millis(1);

    /// A sender whose minimum RTT is 20 ms, then `rounds` rounds whose smallest RTT is
    /// 20 ms plus `queue(i)`; whether the last one reads as a standing queue.
    fn standing_after(rounds: usize, queue: impl Fn(usize) -> Duration) -> bool {
        let now = Instant::now();
        let mut s = Sender::new(7, 10_000_000, Config::default(), now).expect("sender");
        s.rtt.sample(20 * MS);
        for i in 0..rounds {
            s.queue.round_min_rtt = Some(20 * MS + queue(i));
            s.end_round(now + 25 * MS * (i as u32 + 1));
        }
        s.standing_queue()
    }

    #[test]
    fn noise_is_no_standing_queue() {
        // A millisecond-timer relay: the round's smallest RTT jumps between 1 and 3.5 ms
        // above the minimum from round to round. 3.5 ms is above the 2 ms floor of the
        // threshold, but within the noise: no queue.
        let noisy = |i: usize| if i.is_multiple_of(2) { MS } else { 7 * MS / 2 };
        assert!(!standing_after(32, noisy), "relay noise read as a queue");
        // A queue that stands: 6 ms, moving by 0.1 ms per round (a competitor's sawtooth).
        let standing = |i: usize| 6 * MS + Duration::from_micros(100 * (i as u64 % 5));
        assert!(standing_after(31, standing), "a standing queue was missed");
        // A queue that builds after a noisy start is seen once the level holds.
        let later = |i: usize| if i < 20 { noisy(i) } else { 8 * MS };
        assert!(standing_after(36, later), "a queue after noise was missed");
    }
}
