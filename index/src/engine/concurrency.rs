//! What concurrent searches share: a gate that lets one search per core compute at a time
//! (oldest search first), an LRU cache of query vectors, a batcher that embeds the queries
//! of concurrent searches in one forward pass, and one that runs their vector scans in one
//! pass over the rows. All blocking (searches run on blocking threads).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::embed::{Embedder, InputKind};
use crate::vectors::{Query, VectorStore};
use crate::IndexError;

/// A counting semaphore that serves waiters oldest ticket first. A search takes its
/// ticket when it starts, so one that spent longer waiting for its vector scan batch is not
/// also overtaken at the gate. A released permit is handed straight to the next waiter and
/// wakes only that thread: waking every waiter to let one through (a shared condvar) cost
/// more context switches than the searches themselves.
pub(crate) struct Gate {
    state: Mutex<GateState>,
    tickets: AtomicU64,
}

struct GateState {
    free: usize,
    /// Waiters by (ticket, arrival): two waiters may hold the same ticket (a scan leader
    /// queues in the place of a search of its batch).
    queue: BTreeMap<(u64, u64), Arc<Waiter>>,
    arrivals: u64,
}

#[derive(Default)]
struct Waiter {
    granted: Mutex<bool>,
    cv: Condvar,
}

pub(crate) struct Permit<'a>(&'a Gate);

impl Gate {
    pub(crate) fn new(permits: usize) -> Gate {
        Gate {
            state: Mutex::new(GateState {
                free: permits.max(1),
                queue: BTreeMap::new(),
                arrivals: 0,
            }),
            tickets: AtomicU64::new(0),
        }
    }

    /// A place in line, taken when a search starts.
    pub(crate) fn ticket(&self) -> u64 {
        self.tickets.fetch_add(1, Ordering::Relaxed)
    }

    /// Waits for a permit, lowest ticket first (a poisoned lock lets the caller through:
    /// the gate only shapes latency, it guards no data).
    pub(crate) fn acquire(&self, ticket: u64) -> Option<Permit<'_>> {
        let w = {
            let mut g = self.state.lock().ok()?;
            if g.free > 0 && g.queue.is_empty() {
                g.free -= 1;
                return Some(Permit(self));
            }
            let w = Arc::new(Waiter::default());
            let key = (ticket, g.arrivals);
            g.arrivals += 1;
            g.queue.insert(key, w.clone());
            w
        };
        let mut granted = w.granted.lock().ok()?;
        while !*granted {
            granted = w.cv.wait(granted).ok()?;
        }
        Some(Permit(self))
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let Ok(mut g) = self.0.state.lock() else {
            return;
        };
        match g.queue.pop_first() {
            // The permit passes to the next waiter without going back to the pool.
            Some((_, w)) => {
                drop(g);
                if let Ok(mut granted) = w.granted.lock() {
                    *granted = true;
                }
                w.cv.notify_one();
            }
            None => g.free += 1,
        }
    }
}

/// Query text -> vector, least recently used dropped first.
pub(crate) struct QueryCache {
    inner: Mutex<CacheInner>,
    cap: usize,
}

struct CacheInner {
    map: HashMap<String, (Arc<Vec<f32>>, u64)>,
    tick: u64,
}

impl QueryCache {
    pub(crate) fn new(cap: usize) -> QueryCache {
        QueryCache {
            inner: Mutex::new(CacheInner {
                map: HashMap::new(),
                tick: 0,
            }),
            cap: cap.max(1),
        }
    }

    pub(crate) fn get(&self, q: &str) -> Option<Vec<f32>> {
        let mut g = self.inner.lock().ok()?;
        g.tick += 1;
        let t = g.tick;
        let e = g.map.get_mut(q)?;
        e.1 = t;
        Some(e.0.to_vec())
    }

    pub(crate) fn put(&self, q: &str, v: &[f32]) {
        let Ok(mut g) = self.inner.lock() else { return };
        g.tick += 1;
        let t = g.tick;
        if g.map.len() >= self.cap && !g.map.contains_key(q) {
            // O(cap) eviction, only on a miss when full: cheap next to an embedding.
            if let Some(old) = g
                .map
                .iter()
                .min_by_key(|(_, v)| v.1)
                .map(|(k, _)| k.clone())
            {
                g.map.remove(&old);
            }
        }
        g.map.insert(q.to_string(), (Arc::new(v.to_vec()), t));
    }

    /// Forgets everything (another embedder).
    pub(crate) fn clear(&self) {
        if let Ok(mut g) = self.inner.lock() {
            g.map.clear();
        }
    }
}

/// Concurrent requests coalesce: the first caller becomes the leader and runs every
/// request waiting at that moment in one call; callers arriving meanwhile wait for the next
/// leader, which takes all of them at once.
struct Coalescer<R, T> {
    state: Mutex<Coalescing<R, T>>,
    cv: Condvar,
}

struct Coalescing<R, T> {
    /// (ticket, request) in arrival order.
    pending: Vec<(u64, R)>,
    done: HashMap<u64, Result<T, String>>,
    leader: bool,
    next: u64,
}

impl<R, T> Coalescer<R, T> {
    fn new() -> Self {
        Coalescer {
            state: Mutex::new(Coalescing {
                pending: Vec::new(),
                done: HashMap::new(),
                leader: false,
                next: 0,
            }),
            cv: Condvar::new(),
        }
    }

    /// Queues `req` and waits for its result. A leader takes its batch out of the queue
    /// with `take` (given the leader's own ticket) and runs it with `run`, which answers
    /// each request of the batch in order and must not panic (the leader slot would stay
    /// taken).
    fn run(
        &self,
        req: R,
        take: impl Fn(&mut Vec<(u64, R)>, u64) -> Vec<(u64, R)>,
        run: impl Fn(&[(u64, R)]) -> Vec<Result<T, String>>,
    ) -> Result<Result<T, String>, IndexError> {
        let mut g = self.state.lock().map_err(|_| IndexError::Poisoned)?;
        let ticket = g.next;
        g.next += 1;
        g.pending.push((ticket, req));
        loop {
            if let Some(r) = g.done.remove(&ticket) {
                return Ok(r);
            }
            if g.leader {
                g = self.cv.wait(g).map_err(|_| IndexError::Poisoned)?;
                continue;
            }
            g.leader = true;
            let batch = take(&mut g.pending, ticket);
            drop(g);
            let res = run(&batch);
            g = self.state.lock().map_err(|_| IndexError::Poisoned)?;
            for ((t, _), r) in batch.iter().zip(res) {
                g.done.insert(*t, r);
            }
            g.leader = false;
            self.cv.notify_all();
        }
    }
}

/// Concurrent query embeddings coalesce (`Coalescer`): one forward pass for every query
/// waiting, at most `max` a call.
pub(crate) struct QueryBatcher {
    inner: Coalescer<String, Vec<f32>>,
    max: usize,
}

impl QueryBatcher {
    pub(crate) fn new(max: usize) -> QueryBatcher {
        QueryBatcher {
            inner: Coalescer::new(),
            max: max.max(1),
        }
    }

    pub(crate) fn embed(
        &self,
        embedder: &Arc<dyn Embedder>,
        query: &str,
    ) -> Result<Vec<f32>, IndexError> {
        let take = |pending: &mut Vec<(u64, String)>, _| {
            let n = pending.len().min(self.max);
            pending.drain(..n).collect()
        };
        let run = |batch: &[(u64, String)]| {
            let texts: Vec<&str> = batch.iter().map(|(_, t)| t.as_str()).collect();
            let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                embedder.embed(&texts, InputKind::Query)
            }))
            .unwrap_or_else(|_| Err(IndexError::Embed("the embedder panicked".into())));
            match res {
                Ok(vs) if vs.len() == batch.len() => vs.into_iter().map(Ok).collect(),
                Ok(vs) => {
                    let msg = format!("asked for {} query vectors, got {}", batch.len(), vs.len());
                    vec![Err(msg); batch.len()]
                }
                Err(e) => vec![Err(e.to_string()); batch.len()],
            }
        };
        self.inner
            .run(query.to_string(), take, run)?
            .map_err(IndexError::Embed)
    }
}

struct ScanReq {
    place: u64,
    store: Arc<dyn VectorStore>,
    vector: Vec<f32>,
    tags: Vec<String>,
    k: usize,
}

/// Concurrent dense searches coalesce the same way: the leader runs every waiting search
/// of its store in one `search_batch`, so the in-process store reads its rows once for all
/// of them.
pub(crate) struct ScanBatcher {
    inner: Coalescer<ScanReq, Vec<(u64, f32)>>,
    max: usize,
}

impl ScanBatcher {
    pub(crate) fn new(max: usize) -> ScanBatcher {
        ScanBatcher {
            inner: Coalescer::new(),
            max: max.max(1),
        }
    }

    /// `gate` and `place` (the search's gate ticket): the leader scans holding a gate
    /// permit in the place of the oldest search in its batch, so scans and the rest of the
    /// searches share the cores in arrival order instead of time-slicing them.
    pub(crate) fn search(
        &self,
        store: &Arc<dyn VectorStore>,
        vector: Vec<f32>,
        tags: &[String],
        k: usize,
        gate: &Gate,
        place: u64,
    ) -> Result<Vec<(u64, f32)>, IndexError> {
        let take = |pending: &mut Vec<(u64, ScanReq)>, ticket: u64| {
            // This caller's store (another one only while dense search is re-attached).
            let mine = pending
                .iter()
                .find(|r| r.0 == ticket)
                .map_or_else(|| store.clone(), |r| r.1.store.clone());
            let (mut batch, mut rest) = (Vec::new(), Vec::new());
            for r in pending.drain(..) {
                if batch.len() < self.max && Arc::ptr_eq(&r.1.store, &mine) {
                    batch.push(r);
                } else {
                    rest.push(r);
                }
            }
            *pending = rest;
            batch
        };
        let run = |batch: &[(u64, ScanReq)]| {
            let Some((_, first)) = batch.first() else {
                return Vec::new();
            };
            let oldest = batch.iter().map(|r| r.1.place).min().unwrap_or(place);
            let _permit = gate.acquire(oldest);
            let reqs: Vec<Query<'_>> = batch
                .iter()
                .map(|(_, r)| Query {
                    vector: &r.vector,
                    tags: &r.tags,
                    k: r.k,
                })
                .collect();
            let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                first.store.search_batch(&reqs)
            }))
            .unwrap_or_default();
            let mut res = res.into_iter();
            batch
                .iter()
                .map(|_| match res.next() {
                    Some(Ok(v)) => Ok(v),
                    Some(Err(e)) => Err(e.to_string()),
                    None => Err("vector store answered too few searches".into()),
                })
                .collect()
        };
        let req = ScanReq {
            place,
            store: store.clone(),
            vector,
            tags: tags.to_vec(),
            k,
        };
        self.inner.run(req, take, run)?.map_err(IndexError::Vector)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::HashEmbedder;

    #[test]
    fn index_batcher_answers_every_caller_with_its_own_vector() {
        let e: Arc<dyn Embedder> = Arc::new(HashEmbedder { dim: 64 });
        let b = Arc::new(QueryBatcher::new(8));
        let qs: Vec<String> = (0..40)
            .map(|i| format!("query number {i} about disk{i}"))
            .collect();
        std::thread::scope(|s| {
            for q in &qs {
                let (b, e) = (b.clone(), e.clone());
                s.spawn(move || {
                    let got = b.embed(&e, q).expect("embed");
                    let want = e.embed(&[q.as_str()], InputKind::Query).expect("direct");
                    assert_eq!(got, want[0]);
                });
            }
        });
    }

    #[test]
    fn index_scan_batcher_matches_single_searches() {
        use crate::vectors::InProcessStore;
        let e = HashEmbedder { dim: 32 };
        let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(32));
        let texts: Vec<String> = (0..300)
            .map(|i| format!("row {i} word{} word{}", i % 7, i % 13))
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let vs = e.embed(&refs, InputKind::Passage).expect("embed");
        let items: Vec<(u64, String, Vec<f32>)> = vs
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                (
                    i as u64,
                    if i % 2 == 0 { "sys" } else { "u:a" }.to_string(),
                    v,
                )
            })
            .collect();
        store.upsert(&items).expect("put");
        let b = Arc::new(ScanBatcher::new(16));
        let gate = Gate::new(2);
        std::thread::scope(|s| {
            for i in 0..24 {
                let (b, store, e, gate) = (b.clone(), store.clone(), &e, &gate);
                s.spawn(move || {
                    let q = e
                        .embed(&[&format!("word{} word{}", i % 7, i % 5)], InputKind::Query)
                        .expect("q")
                        .remove(0);
                    let tags = vec![if i % 2 == 0 { "sys" } else { "u:a" }.to_string()];
                    let got = b
                        .search(&store, q.clone(), &tags, 5, gate, gate.ticket())
                        .expect("batched");
                    let want = store.search(&q, &tags, 5).expect("single");
                    assert_eq!(got, want);
                });
            }
        });
    }

    #[test]
    fn index_query_cache_evicts_least_recent() {
        let c = QueryCache::new(2);
        c.put("a", &[1.0]);
        c.put("b", &[2.0]);
        assert_eq!(c.get("a"), Some(vec![1.0]));
        c.put("c", &[3.0]);
        assert_eq!(c.get("b"), None, "b was least recently used");
        assert_eq!(c.get("a"), Some(vec![1.0]));
        assert_eq!(c.get("c"), Some(vec![3.0]));
    }

    /// A released permit goes to the lowest waiting ticket, whatever the order of arrival
    /// at the gate.
    #[test]
    fn index_gate_serves_lowest_ticket_first() {
        let g = Gate::new(1);
        let first = g.acquire(0);
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for (n, t) in [5u64, 3, 4].into_iter().enumerate() {
                let (g, order) = (&g, &order);
                s.spawn(move || {
                    let _p = g.acquire(t);
                    order.lock().expect("order").push(t);
                });
                // Each waiter queued before the next arrives.
                while g.state.lock().expect("state").queue.len() <= n {
                    std::thread::yield_now();
                }
            }
            drop(first);
        });
        assert_eq!(*order.lock().expect("order"), [3, 4, 5]);
    }

    #[test]
    fn index_gate_admits_at_most_its_permits() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let g = Gate::new(2);
        let (now, max) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|s| {
            for _ in 0..16 {
                s.spawn(|| {
                    for _ in 0..20 {
                        let _p = g.acquire(g.ticket());
                        let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                        max.fetch_max(n, Ordering::SeqCst);
                        std::thread::yield_now();
                        now.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(max.load(Ordering::SeqCst) <= 2);
    }
}
