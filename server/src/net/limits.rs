//! Connection admission shared by the NPLT and HTTP listeners: a per-peer-address count, so
//! one address cannot take every slot with idle sockets; a budget of NPLT peers before
//! HELLO that makes room for a newcomer by evicting the oldest such peer; and the refusal
//! reasons told to peers.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

/// Live connections per peer address, capped.
#[derive(Debug)]
pub struct PeerLimits {
    per_ip: usize,
    counts: Mutex<HashMap<IpAddr, usize>>,
}

impl PeerLimits {
    pub fn new(per_ip: usize) -> Arc<PeerLimits> {
        Arc::new(PeerLimits {
            per_ip,
            counts: Mutex::new(HashMap::new()),
        })
    }

    pub fn per_ip(&self) -> usize {
        self.per_ip
    }

    /// Admits one more connection from `ip`, or `None` when it already has `per_ip`.
    pub fn try_admit(self: &Arc<Self>, ip: IpAddr) -> Option<PeerPermit> {
        // A poisoned lock only means a panic elsewhere mid-update of a plain counter map.
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let n = counts.entry(ip).or_insert(0);
        if *n >= self.per_ip {
            return None;
        }
        *n += 1;
        Some(PeerPermit {
            limits: self.clone(),
            ip,
        })
    }

    /// Connections now open from `ip`.
    pub fn count(&self, ip: IpAddr) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.get(&ip).copied().unwrap_or(0)
    }
}

/// One admitted connection; dropping it frees the address's slot.
#[derive(Debug)]
pub struct PeerPermit {
    limits: Arc<PeerLimits>,
    ip: IpAddr,
}

impl Drop for PeerPermit {
    fn drop(&mut self) {
        let mut counts = self.limits.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = counts.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// Places for NPLT peers that have not completed HELLO. When all are taken, the oldest
/// peer holding one is evicted, so idle or silent sockets cannot keep new clients from
/// trying. "Oldest" is accept order: each peer takes its place in the queue in the accept
/// loop (`ticket`), before its task runs; the tasks of a multi-threaded runtime may start
/// in another order under load, and a newer silent peer must not outlive older ones.
#[derive(Debug)]
pub struct PreAuthBudget {
    limit: usize,
    permits: Arc<Semaphore>,
    /// The peers holding or awaiting a place, in accept order (dead entries: left HELLO
    /// or gave up).
    queue: Mutex<VecDeque<Weak<Waiting>>>,
}

/// One accepted peer in the eviction queue.
#[derive(Debug, Default)]
struct Waiting {
    /// Cancelled when a newer peer needs the place: the holder should close.
    evicted: CancellationToken,
    /// Holds a place (only a holder's eviction frees one).
    holding: AtomicBool,
}

/// A peer's place in the eviction order, taken when it was accepted.
#[derive(Debug)]
pub struct PreAuthTicket(Arc<Waiting>);

/// A pre-HELLO place; drop it once the peer completed HELLO (or was greeted as legacy).
#[derive(Debug)]
pub struct PreAuthPass {
    _permit: OwnedSemaphorePermit,
    peer: Arc<Waiting>,
}

impl PreAuthPass {
    /// Resolves when a newer peer needs the place: the holder should close.
    pub async fn evicted(&self) {
        self.peer.evicted.cancelled().await
    }

    pub fn is_evicted(&self) -> bool {
        self.peer.evicted.is_cancelled()
    }
}

impl PreAuthBudget {
    pub fn new(limit: usize) -> Arc<PreAuthBudget> {
        Arc::new(PreAuthBudget {
            limit,
            permits: Arc::new(Semaphore::new(limit)),
            queue: Mutex::new(VecDeque::new()),
        })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A newly accepted peer's place in the eviction order (call in accept order).
    pub fn ticket(&self) -> PreAuthTicket {
        let peer = Arc::new(Waiting::default());
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        if q.len() > 2 * self.limit {
            q.retain(|w| w.strong_count() > 0);
        }
        q.push_back(Arc::downgrade(&peer));
        PreAuthTicket(peer)
    }

    /// A place for the ticket's peer: a free one, or the oldest holder's after evicting it
    /// (waiting up to `wait` for it to leave). `None` when no place came free in time.
    pub async fn enter(&self, ticket: PreAuthTicket, wait: Duration) -> Option<PreAuthPass> {
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                self.evict_oldest();
                tokio::time::timeout(wait, self.permits.clone().acquire_owned())
                    .await
                    .ok()?
                    .ok()?
            }
        };
        ticket.0.holding.store(true, Ordering::Release);
        Some(PreAuthPass {
            _permit: permit,
            peer: ticket.0,
        })
    }

    /// Tells the oldest peer holding a place to leave.
    fn evict_oldest(&self) {
        let mut q = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        let mut i = 0;
        while i < q.len() {
            match q[i].upgrade() {
                // Still waiting for a place: keeps its turn.
                Some(w) if !w.holding.load(Ordering::Acquire) => i += 1,
                Some(w) if !w.evicted.is_cancelled() => {
                    w.evicted.cancel();
                    q.remove(i);
                    return;
                }
                _ => {
                    q.remove(i);
                }
            }
        }
    }
}

/// Why a new NPLT connection is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Every connection slot is taken.
    Total(usize),
    /// This peer address has its maximum of connections open.
    PerAddress(usize),
    /// Too many peers have connected without completing HELLO yet.
    PreAuth(usize),
}

impl Refusal {
    pub fn text(self) -> String {
        match self {
            Refusal::Total(n) => format!(
                "服务器繁忙：连接数已达上限 ({n})，请稍后重试 / server busy: connection limit \
                 reached ({n})"
            ),
            Refusal::PerAddress(n) => format!(
                "来自同一地址的连接过多 (上限 {n})，请关闭空闲连接后重试 / too many connections \
                 from your address (limit {n}); close idle ones and retry"
            ),
            Refusal::PreAuth(n) => format!(
                "服务器繁忙：未完成握手的连接过多 (上限 {n})，请稍后重试 / server busy: too many \
                 connections have not completed HELLO (limit {n})"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A peer accepted now whose task waits for a place (up to 5 s).
    fn newcomer(b: &Arc<PreAuthBudget>) -> tokio::task::JoinHandle<Option<PreAuthPass>> {
        let (b, t) = (b.clone(), b.ticket());
        tokio::spawn(async move { b.enter(t, Duration::from_secs(5)).await })
    }

    #[tokio::test]
    async fn a_full_pre_auth_budget_evicts_the_oldest_waiting_peer() {
        let b = PreAuthBudget::new(2);
        let wait = Duration::from_secs(5);
        let first = b.enter(b.ticket(), wait).await.expect("free place");
        let second = b.enter(b.ticket(), wait).await.expect("free place");
        // A third peer: the first is told to leave; its place is taken once it does.
        let third = newcomer(&b);
        first.evicted().await;
        assert!(!second.is_evicted());
        drop(first);
        let third = third.await.expect("task").expect("place after eviction");
        // A peer that completed HELLO (pass dropped) is never evicted: the next eviction
        // skips it and picks the oldest still waiting.
        drop(second);
        let fourth = b.enter(b.ticket(), wait).await.expect("free place");
        assert!(!third.is_evicted() && !fourth.is_evicted());
    }

    #[tokio::test]
    async fn eviction_follows_accept_order_not_task_start_order() {
        let b = PreAuthBudget::new(2);
        let wait = Duration::from_secs(5);
        // Accepted as a, b; their tasks run in the other order.
        let (ta, tb) = (b.ticket(), b.ticket());
        let pb = b.enter(tb, wait).await.expect("free place");
        let pa = b.enter(ta, wait).await.expect("free place");
        // A third peer evicts the first accepted, not the first to start.
        let third = newcomer(&b);
        pa.evicted().await;
        assert!(!pb.is_evicted());
        drop(pa);
        let third = third.await.expect("task").expect("place after eviction");
        assert!(!third.is_evicted());
    }

    #[tokio::test]
    async fn a_peer_still_waiting_for_a_place_is_not_evicted() {
        let b = PreAuthBudget::new(1);
        let wait = Duration::from_secs(5);
        // Accepted first, its task not started yet: it holds nothing, so a newer peer
        // evicts the holder, which frees a place, and not the waiting one.
        let early = b.ticket();
        let holder = b.enter(b.ticket(), wait).await.expect("free place");
        let newer = newcomer(&b);
        holder.evicted().await;
        drop(holder);
        let newer = newer.await.expect("task").expect("place after eviction");
        // The early peer's task starts now: the full budget evicts the newer holder.
        let early = {
            let b = b.clone();
            tokio::spawn(async move { b.enter(early, Duration::from_secs(5)).await })
        };
        newer.evicted().await;
        drop(newer);
        assert!(!early.await.expect("task").expect("place").is_evicted());
    }

    #[test]
    fn per_address_count_is_capped_and_freed_on_drop() {
        let l = PeerLimits::new(2);
        let a: IpAddr = "10.0.0.1".parse().expect("ip");
        let b: IpAddr = "10.0.0.2".parse().expect("ip");
        let p1 = l.try_admit(a).expect("first");
        let _p2 = l.try_admit(a).expect("second");
        assert!(l.try_admit(a).is_none());
        let _q = l.try_admit(b).expect("another address is not affected");
        drop(p1);
        assert_eq!(l.count(a), 1);
        assert!(l.try_admit(a).is_some());
        assert!(Refusal::PerAddress(2).text().contains("limit 2"));
    }
}
