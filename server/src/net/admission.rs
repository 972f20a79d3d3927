//! Connection admission shared by the NPLT listeners (TCP and the Unix socket) and the HTTP
//! listener: a total cap, a cap per remote address and per local user, and (NPLT) a budget
//! of peers that have not completed HELLO yet. When a limit is reached a newcomer takes the
//! place of the peer that has done the least useful work for the longest, so idle or silent
//! sockets can never lock anyone out: first the peers still opening (before HELLO, or an
//! HTTP request head still arriving), then greeted-but-silent legacy sockets, then peers
//! idle apart from heartbeats; among those, the one from the peer key holding the most
//! connections, then the longest idle. A peer with a turn or a transfer in progress is
//! never evicted; only when every candidate is busy is the newcomer refused, with the limit
//! and when to retry.
//!
//! The place moves at once: the victim leaves the counts when it is told to close, and the
//! newcomer is admitted in the same step. Victims still closing are bounded separately.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::peer::PeerKey;

/// The caps one listener's connections share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub total: usize,
    /// Connections one remote address may hold (loopback TCP is not capped per address).
    pub per_address: usize,
    /// Connections one local user may hold on the Unix socket.
    pub per_user: usize,
    /// Peers still opening at once; `None`: no separate budget (HTTP).
    pub opening: Option<usize>,
    /// Evicted peers that may still be closing; beyond it newcomers are refused instead.
    pub closing: usize,
}

/// How much useful work a peer has shown, lowest first evicted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Phase {
    /// Before HELLO (NPLT) or before its request head (HTTP).
    Opening = 0,
    /// Greeted as a legacy client and has said nothing since.
    Silent = 1,
    /// Has done useful work; may be idle now (heartbeats do not count).
    Active = 2,
}

impl Phase {
    fn from_u8(v: u8) -> Phase {
        match v {
            0 => Phase::Opening,
            1 => Phase::Silent,
            _ => Phase::Active,
        }
    }
}

/// Whether a peer has work in progress (a turn, an upload, a transfer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Busy {
    No,
    /// Work in progress now.
    Now,
    /// Work that may still be going on elsewhere (a transfer over UDP or HTTP this
    /// connection started) until this instant, unless it reports again.
    Until(Instant),
}

/// Which limit a refusal or an eviction is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Total,
    PerAddress,
    PerUser,
    Opening,
}

/// Why a newcomer was refused, or an idle peer closed; with when to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub limit: Limit,
    pub n: usize,
    pub retry_secs: u64,
}

/// Retry hint when every candidate was busy (turns and transfers take seconds to minutes).
const RETRY_BUSY_SECS: u64 = 10;
/// Retry hint when evicted peers are still closing.
const RETRY_CLOSING_SECS: u64 = 2;

impl Refusal {
    /// What the limit is, in both languages.
    fn limit_text(self) -> String {
        let n = self.n;
        match self.limit {
            Limit::Total => format!("连接数已达上限 ({n}) / connection limit reached ({n})"),
            Limit::PerAddress => format!(
                "来自同一地址的连接过多 (上限 {n}) / too many connections from your address \
                 (limit {n})"
            ),
            Limit::PerUser => format!(
                "同一用户的连接过多 (上限 {n}) / too many connections from your user (limit {n})"
            ),
            Limit::Opening => format!(
                "未完成握手的连接过多 (上限 {n}) / too many connections have not completed \
                 HELLO (limit {n})"
            ),
        }
    }

    /// The refusal a newcomer gets: which limit, that the others are busy, when to retry.
    pub fn text(self) -> String {
        let s = self.retry_secs;
        format!(
            "服务器繁忙：{}；其余连接都在工作中，请 {s} 秒后重试 / server busy: {}; every other \
             connection is working, retry in {s} s",
            self.limit_text(),
            self.limit_text()
        )
    }

    /// What an evicted peer is told.
    pub fn eviction_text(self) -> String {
        format!(
            "服务器繁忙：{}；本连接空闲，已关闭以接纳新连接 / server busy: {}; this idle \
             connection was closed to make room for a new one",
            self.limit_text(),
            self.limit_text()
        )
    }

    /// Short name for logs and HTTP bodies.
    pub fn limit_word(self) -> &'static str {
        match self.limit {
            Limit::Total => "total",
            Limit::PerAddress => "per_address",
            Limit::PerUser => "per_user",
            Limit::Opening => "opening",
        }
    }
}

struct Entry {
    id: u64,
    key: PeerKey,
    phase: AtomicU8,
    /// Milliseconds since the epoch of the last useful work (the accept at first).
    useful_ms: AtomicU64,
    /// Busy until this many milliseconds since the epoch (`u64::MAX`: now, until told).
    busy_until_ms: AtomicU64,
    evicted: CancellationToken,
    reason: Mutex<Option<Refusal>>,
}

#[derive(Default)]
struct State {
    next_id: u64,
    /// Admitted peers by accept order.
    live: BTreeMap<u64, Arc<Entry>>,
    per_key: HashMap<PeerKey, usize>,
    opening: usize,
    closing: usize,
}

/// The admission of one listener family (NPLT, or HTTP).
pub struct Admission {
    limits: Limits,
    epoch: Instant,
    state: Mutex<State>,
}

/// An admitted connection's place; dropping it gives the place back.
pub struct Slot {
    entry: Arc<Entry>,
    adm: Arc<Admission>,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    // A poisoned lock only means a panic elsewhere mid-update of plain counters.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Admission {
    pub fn new(limits: Limits) -> Arc<Admission> {
        Arc::new(Admission {
            limits,
            epoch: Instant::now(),
            state: Mutex::new(State::default()),
        })
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn ms(&self, t: Instant) -> u64 {
        t.saturating_duration_since(self.epoch).as_millis() as u64
    }

    /// Connections now admitted (victims still closing not counted).
    pub fn live(&self) -> usize {
        lock(&self.state).live.len()
    }

    /// Connections now admitted for `key`.
    pub fn count(&self, key: PeerKey) -> usize {
        lock(&self.state).per_key.get(&key).copied().unwrap_or(0)
    }

    fn cap_for(&self, key: PeerKey) -> Option<(usize, Limit)> {
        match key {
            PeerKey::Remote(_) => Some((self.limits.per_address, Limit::PerAddress)),
            PeerKey::User(_) => Some((self.limits.per_user, Limit::PerUser)),
            PeerKey::Loopback => None,
        }
    }

    /// Admits a newcomer from `key` (in phase `Opening`), evicting whom the limits require.
    pub fn admit(self: &Arc<Self>, key: PeerKey) -> Result<Slot, Refusal> {
        self.admit_at(key, Instant::now())
    }

    pub(crate) fn admit_at(self: &Arc<Self>, key: PeerKey, now: Instant) -> Result<Slot, Refusal> {
        let now_ms = self.ms(now);
        let mut st = lock(&self.state);
        if let Some((cap, limit)) = self.cap_for(key) {
            if st.per_key.get(&key).copied().unwrap_or(0) >= cap {
                self.make_room(&mut st, now_ms, limit, cap, |e| e.key == key)?;
            }
        }
        if st.live.len() >= self.limits.total {
            self.make_room(&mut st, now_ms, Limit::Total, self.limits.total, |_| true)?;
        }
        if let Some(n) = self.limits.opening {
            if st.opening >= n {
                self.make_room(&mut st, now_ms, Limit::Opening, n, |e| {
                    e.phase() == Phase::Opening
                })?;
            }
        }
        st.next_id += 1;
        let entry = Arc::new(Entry {
            id: st.next_id,
            key,
            phase: AtomicU8::new(Phase::Opening as u8),
            useful_ms: AtomicU64::new(now_ms),
            busy_until_ms: AtomicU64::new(0),
            evicted: CancellationToken::new(),
            reason: Mutex::new(None),
        });
        st.live.insert(entry.id, entry.clone());
        *st.per_key.entry(key).or_insert(0) += 1;
        st.opening += 1;
        Ok(Slot {
            entry,
            adm: self.clone(),
        })
    }

    /// Evicts the best candidate among `eligible` peers, or says why none can go.
    fn make_room(
        &self,
        st: &mut State,
        now_ms: u64,
        limit: Limit,
        n: usize,
        eligible: impl Fn(&Entry) -> bool,
    ) -> Result<(), Refusal> {
        let refusal = |retry_secs| Refusal {
            limit,
            n,
            retry_secs,
        };
        if st.closing >= self.limits.closing {
            return Err(refusal(RETRY_CLOSING_SECS));
        }
        let victim = st
            .live
            .values()
            .filter(|e| eligible(e) && e.busy_until_ms.load(Ordering::Acquire) <= now_ms)
            .min_by_key(|e| {
                let held = st.per_key.get(&e.key).copied().unwrap_or(0);
                (
                    std::cmp::Reverse(held),
                    e.phase(),
                    e.useful_ms.load(Ordering::Acquire),
                    e.id,
                )
            })
            .cloned();
        let Some(v) = victim else {
            return Err(refusal(RETRY_BUSY_SECS));
        };
        Self::remove_live(st, &v);
        st.closing += 1;
        *v.reason.lock().unwrap_or_else(|p| p.into_inner()) = Some(refusal(0));
        v.evicted.cancel();
        tracing::info!(key = %v.key, phase = ?v.phase(), limit = ?limit, "evicting an idle peer to make room");
        Ok(())
    }

    fn remove_live(st: &mut State, e: &Entry) -> bool {
        if st.live.remove(&e.id).is_none() {
            return false;
        }
        if let Some(c) = st.per_key.get_mut(&e.key) {
            *c = c.saturating_sub(1);
            if *c == 0 {
                st.per_key.remove(&e.key);
            }
        }
        if e.phase() == Phase::Opening {
            st.opening = st.opening.saturating_sub(1);
        }
        true
    }

    fn release(&self, e: &Entry) {
        let mut st = lock(&self.state);
        if !Self::remove_live(&mut st, e) {
            // Evicted earlier: it was counted as closing since.
            st.closing = st.closing.saturating_sub(1);
        }
    }
}

impl Entry {
    fn phase(&self) -> Phase {
        Phase::from_u8(self.phase.load(Ordering::Acquire))
    }
}

impl Slot {
    /// Moves the peer to `phase` (never back to `Opening`); leaving `Opening` frees its
    /// place in the opening budget.
    pub fn set_phase(&self, phase: Phase) {
        // Called after every step of a connection: the lock only when the phase moves.
        if phase <= self.entry.phase() {
            return;
        }
        let mut st = lock(&self.adm.state);
        let before = self.entry.phase();
        if phase <= before {
            return;
        }
        self.entry.phase.store(phase as u8, Ordering::Release);
        if before == Phase::Opening && st.live.contains_key(&self.entry.id) {
            st.opening = st.opening.saturating_sub(1);
        }
    }

    pub fn phase(&self) -> Phase {
        self.entry.phase()
    }

    /// The peer did useful work now (any request but a heartbeat).
    pub fn mark_useful(&self) {
        self.mark_useful_at(Instant::now());
    }

    pub(crate) fn mark_useful_at(&self, now: Instant) {
        let ms = self.adm.ms(now);
        self.entry.useful_ms.fetch_max(ms, Ordering::AcqRel);
        if self.entry.phase() == Phase::Silent {
            self.set_phase(Phase::Active);
        }
    }

    pub fn set_busy(&self, busy: Busy) {
        let v = match busy {
            Busy::No => 0,
            Busy::Now => u64::MAX,
            Busy::Until(t) => self.adm.ms(t),
        };
        self.entry.busy_until_ms.store(v, Ordering::Release);
    }

    /// Resolves when a newcomer took this peer's place; gives the limit that required it.
    pub async fn evicted(&self) -> Refusal {
        self.entry.evicted.cancelled().await;
        self.eviction().unwrap_or(Refusal {
            limit: Limit::Total,
            n: self.adm.limits.total,
            retry_secs: 0,
        })
    }

    /// The limit this peer was evicted for, if it was.
    pub fn eviction(&self) -> Option<Refusal> {
        *self.entry.reason.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.adm.release(&self.entry);
    }
}

/// The admission every NPLT listener shares (one total across TCP and the socket).
pub fn for_nplt(cfg: &crate::config::Config) -> Arc<Admission> {
    Admission::new(Limits {
        total: cfg.max_connections,
        per_address: cfg.max_connections_per_ip,
        per_user: cfg.max_connections_per_user,
        opening: Some(cfg.max_preauth_connections),
        // Evicted peers close within a write timeout at most; a flood of newcomers must
        // not turn into unbounded half-closed sockets.
        closing: cfg.max_connections.clamp(16, 256),
    })
}

/// How long a busy mark from a remote transfer lasts without a new report.
pub const REMOTE_TRANSFER_QUIET: Duration = Duration::from_secs(60);

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn limits(total: usize, per: usize, opening: Option<usize>) -> Limits {
        Limits {
            total,
            per_address: per,
            per_user: per,
            opening,
            closing: 64,
        }
    }

    fn remote(s: &str) -> PeerKey {
        PeerKey::Remote(s.parse::<IpAddr>().expect("ip"))
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_full_address_evicts_its_own_least_useful_peer_never_anothers() {
        let a = Admission::new(limits(100, 2, None));
        let t0 = Instant::now();
        let p1 = a.admit_at(remote("10.0.0.1"), t0).expect("first");
        let p2 = a.admit_at(remote("10.0.0.1"), t0 + ms(1)).expect("second");
        let other = a.admit_at(remote("10.0.0.2"), t0).expect("other address");
        for p in [&p1, &p2, &other] {
            p.set_phase(Phase::Active);
        }
        // p1 did something later than p2: p2 is the least useful for the longest.
        p1.mark_useful_at(t0 + ms(50));
        let p3 = a.admit_at(remote("10.0.0.1"), t0 + ms(60)).expect("third");
        assert!(p2
            .eviction()
            .is_some_and(|r| r.limit == Limit::PerAddress && r.n == 2));
        assert!(p1.eviction().is_none() && other.eviction().is_none());
        assert_eq!(a.count(remote("10.0.0.1")), 2);
        // The evicted slot's drop does not give back a place it no longer holds.
        drop(p2);
        assert_eq!(a.count(remote("10.0.0.1")), 2);
        drop((p1, p3));
        assert_eq!(a.count(remote("10.0.0.1")), 0);
        assert_eq!(a.live(), 1);
    }

    #[test]
    fn busy_peers_are_never_evicted_and_the_refusal_says_when_to_retry() {
        let a = Admission::new(limits(2, 10, None));
        let t0 = Instant::now();
        let p1 = a.admit_at(PeerKey::Loopback, t0).expect("first");
        let p2 = a.admit_at(PeerKey::Loopback, t0).expect("second");
        p1.set_busy(Busy::Now);
        p2.set_busy(Busy::Until(t0 + Duration::from_secs(30)));
        let r = a
            .admit_at(PeerKey::Loopback, t0 + ms(10))
            .err()
            .expect("refused");
        assert_eq!((r.limit, r.n), (Limit::Total, 2));
        assert!(
            r.text().contains("connection limit reached (2)"),
            "{}",
            r.text()
        );
        assert!(r.text().contains("retry in 10 s"), "{}", r.text());
        // The transfer's busy mark runs out: then it is idle and can go.
        let p3 = a
            .admit_at(PeerKey::Loopback, t0 + Duration::from_secs(31))
            .expect("after the mark ran out");
        assert!(p2.eviction().is_some() && p1.eviction().is_none());
        drop(p3);
    }

    #[test]
    fn loopback_is_not_capped_per_address_and_users_are_capped_each() {
        let a = Admission::new(limits(1000, 3, None));
        let t0 = Instant::now();
        let local: Vec<Slot> = (0..10)
            .map(|_| a.admit_at(PeerKey::Loopback, t0).expect("loopback"))
            .collect();
        assert!(local.iter().all(|s| s.eviction().is_none()));
        let alice: Vec<Slot> = (0..5)
            .map(|i| a.admit_at(PeerKey::User(1001), t0 + ms(i)).expect("alice"))
            .collect();
        assert_eq!(a.count(PeerKey::User(1001)), 3);
        // Alice's oldest made room for her newest; bob is untouched by her limit.
        assert!(alice[0]
            .eviction()
            .is_some_and(|r| r.limit == Limit::PerUser));
        let bob = a.admit_at(PeerKey::User(1002), t0).expect("bob");
        assert!(bob.eviction().is_none());
    }

    #[test]
    fn the_total_limit_takes_from_the_key_holding_the_most_and_the_least_useful_first() {
        let a = Admission::new(limits(6, 100, None));
        let t0 = Instant::now();
        // Bob: one peer, still opening (the least useful phase) and the oldest.
        let bob = a.admit_at(PeerKey::User(2), t0).expect("bob");
        // Alice: five peers, all past HELLO, idle since different times.
        let alice: Vec<Slot> = (0..5)
            .map(|i| {
                let s = a.admit_at(PeerKey::User(1), t0 + ms(1 + i)).expect("alice");
                s.set_phase(Phase::Active);
                s.mark_useful_at(t0 + ms(100 - i));
                s
            })
            .collect();
        let _new = a
            .admit_at(PeerKey::User(3), t0 + ms(200))
            .expect("newcomer");
        assert!(
            bob.eviction().is_none(),
            "the hog pays, not the one-peer user"
        );
        // Alice's least recently useful peer is the last one (useful at 96 ms).
        assert!(alice[4].eviction().is_some());
        assert!(alice[..4].iter().all(|s| s.eviction().is_none()));
    }

    #[test]
    fn the_opening_budget_evicts_the_oldest_opening_peer_in_accept_order() {
        let a = Admission::new(limits(100, 100, Some(2)));
        let t0 = Instant::now();
        let first = a.admit_at(PeerKey::Loopback, t0).expect("1");
        let second = a.admit_at(PeerKey::Loopback, t0).expect("2");
        let third = a.admit_at(PeerKey::Loopback, t0).expect("3");
        assert!(first.eviction().is_some_and(|r| r.limit == Limit::Opening));
        assert!(second.eviction().is_none());
        assert!(first
            .eviction()
            .expect("why")
            .eviction_text()
            .contains("completed HELLO (limit 2)"));
        // A peer past HELLO leaves the budget: the next newcomer evicts nobody.
        second.set_phase(Phase::Active);
        let fourth = a.admit_at(PeerKey::Loopback, t0).expect("4");
        assert!(third.eviction().is_none() && fourth.eviction().is_none());
        // Greeted-but-silent legacy peers go before those that did work.
        let b = Admission::new(limits(2, 100, None));
        let worked = b.admit_at(PeerKey::Loopback, t0).expect("w");
        worked.set_phase(Phase::Active);
        let silent = b.admit_at(PeerKey::Loopback, t0 + ms(5)).expect("s");
        silent.set_phase(Phase::Silent);
        let _n = b.admit_at(PeerKey::Loopback, t0 + ms(9)).expect("n");
        assert!(silent.eviction().is_some() && worked.eviction().is_none());
    }

    #[tokio::test]
    async fn an_evicted_peer_hears_why_and_victims_still_closing_are_bounded() {
        let a = Admission::new(Limits {
            total: 1,
            per_address: 10,
            per_user: 10,
            opening: None,
            closing: 1,
        });
        let first = a.admit(PeerKey::Loopback).expect("first");
        let second = a.admit(PeerKey::Loopback).expect("second");
        let why = tokio::time::timeout(Duration::from_secs(5), first.evicted())
            .await
            .expect("evicted");
        assert_eq!(why.limit, Limit::Total);
        // `first` has not closed yet: no second victim may be closing at once.
        let r = a.admit(PeerKey::Loopback).err().expect("refused");
        assert_eq!(r.retry_secs, 2);
        drop(first);
        let _third = a.admit(PeerKey::Loopback).expect("third");
        assert!(second.eviction().is_some());
    }
}
