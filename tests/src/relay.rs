//! Userspace UDP impairment relay for tests and benchmarks (the kernel here has no
//! `tc netem`): listens on an ephemeral loopback port, forwards to an upstream address
//! through one socket per client (so replies find their way back), and applies loss,
//! delay, jitter, reordering, duplication, corruption, a bandwidth cap with a bounded queue
//! and an optional blackhole, per direction, from a seeded `StdRng`. Settings can be
//! changed while it runs.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// What the link does to each datagram (both directions alike).
#[derive(Debug, Clone, Default)]
pub struct Impairment {
    /// Probability a datagram is dropped.
    pub loss: f64,
    /// One-way delay.
    pub delay: Duration,
    /// Extra uniform random delay in `[0, jitter)` (reorders packets closer than it).
    pub jitter: Duration,
    /// Probability a datagram is held back by `reorder_by` (arrives after later ones).
    pub reorder: f64,
    pub reorder_by: Duration,
    /// Probability a datagram is delivered twice.
    pub duplicate: f64,
    /// Probability one random bit of a datagram is flipped.
    pub corrupt: f64,
    /// Bandwidth cap in bytes per second (per direction), with a tail-drop queue of
    /// `queue` worth of sending time.
    pub rate: Option<u64>,
    pub queue: Duration,
    /// After this many server-to-client datagrams, drop everything both ways (a dead
    /// link mid-transfer).
    pub blackhole_after: Option<u64>,
}

impl Impairment {
    /// Loss with the usual companions of a bad path: 10 ms delay, some reordering and
    /// duplication.
    pub fn lossy(loss: f64) -> Self {
        Impairment {
            loss,
            delay: Duration::from_millis(10),
            reorder: 0.02,
            reorder_by: Duration::from_millis(5),
            duplicate: 0.01,
            ..Default::default()
        }
    }
}

/// Counters of what went through.
#[derive(Debug, Default)]
pub struct RelayStats {
    pub up_packets: AtomicU64,
    pub up_bytes: AtomicU64,
    pub down_packets: AtomicU64,
    /// Server-to-client bytes delivered (duplicates included).
    pub down_bytes: AtomicU64,
    pub dropped: AtomicU64,
    /// Server-to-client datagrams dropped by the loss setting (what the RDT sender of a
    /// download must retransmit, ACK loss excluded).
    pub down_dropped: AtomicU64,
}

/// A running relay; stops when dropped.
pub struct Relay {
    pub addr: SocketAddr,
    cfg: Arc<Mutex<Impairment>>,
    upstream: Arc<Mutex<Option<SocketAddr>>>,
    pub stats: Arc<RelayStats>,
    stop: CancellationToken,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    Up,
    Down,
}

struct Shared {
    cfg: Arc<Mutex<Impairment>>,
    stats: Arc<RelayStats>,
    rng: Mutex<StdRng>,
    /// Per direction: when the bottleneck is free again.
    next_free: Mutex<[Instant; 2]>,
    /// Per direction: the delay line (one timer for all datagrams in flight, instead of a
    /// task per datagram whose wake-up order within a timer tick is arbitrary).
    delay: [mpsc::UnboundedSender<Delayed>; 2],
}

/// A datagram waiting in a delay line.
struct Delayed {
    at: Instant,
    out: Out,
    data: Vec<u8>,
}

/// Releases datagrams at their time, in time order (FIFO among equal times).
async fn delay_line(mut rx: mpsc::UnboundedReceiver<Delayed>, stop: CancellationToken) {
    let mut heap: BinaryHeap<Reverse<(Instant, u64)>> = BinaryHeap::new();
    let mut items: HashMap<u64, (Out, Vec<u8>)> = HashMap::new();
    let mut seq = 0u64;
    loop {
        let next = heap.peek().map(|Reverse((t, _))| *t);
        let sleep = async {
            match next {
                Some(t) => tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = stop.cancelled() => return,
            d = rx.recv() => match d {
                Some(d) => {
                    seq += 1;
                    heap.push(Reverse((d.at, seq)));
                    items.insert(seq, (d.out, d.data));
                }
                None => return,
            },
            _ = sleep => {
                let now = Instant::now();
                while let Some(Reverse((t, k))) = heap.peek().copied() {
                    if t > now {
                        break;
                    }
                    heap.pop();
                    if let Some((out, data)) = items.remove(&k) {
                        out.send(&data).await;
                    }
                }
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Relay {
    /// Starts a relay to `upstream` on 127.0.0.1 with an ephemeral port.
    pub fn start(upstream: SocketAddr, imp: Impairment, seed: u64) -> anyhow::Result<Relay> {
        let r = Self::bind(imp, seed)?;
        r.set_upstream(upstream);
        Ok(r)
    }

    /// Starts a relay whose upstream is given later with [`set_upstream`](Self::set_upstream)
    /// (a server must be told the relay's address before its own port is known); datagrams
    /// arriving before that are dropped.
    pub fn bind(imp: Impairment, seed: u64) -> anyhow::Result<Relay> {
        let std_sock = big_socket()?;
        let addr = std_sock.local_addr()?;
        let cfg = Arc::new(Mutex::new(imp));
        let stats = Arc::new(RelayStats::default());
        let stop = CancellationToken::new();
        let upstream = Arc::new(Mutex::new(None));
        let up = upstream.clone();
        let (up_tx, up_rx) = mpsc::unbounded_channel();
        let (down_tx, down_rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            cfg: cfg.clone(),
            stats: stats.clone(),
            rng: Mutex::new(StdRng::seed_from_u64(seed)),
            next_free: Mutex::new([Instant::now(); 2]),
            delay: [up_tx, down_tx],
        });
        let s = stop.clone();
        let thread = std::thread::spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(_) => return,
            };
            rt.block_on(async move {
                tokio::spawn(delay_line(up_rx, s.clone()));
                tokio::spawn(delay_line(down_rx, s.clone()));
                if let Ok(sock) = UdpSocket::from_std(std_sock) {
                    run(sock, up, shared, s).await;
                }
            });
        });
        Ok(Relay {
            addr,
            cfg,
            upstream,
            stats,
            stop,
            thread: Some(thread),
        })
    }

    /// Where new clients' datagrams go.
    pub fn set_upstream(&self, a: SocketAddr) {
        *lock(&self.upstream) = Some(a);
    }

    /// Changes the impairment from now on.
    pub fn set(&self, imp: Impairment) {
        *lock(&self.cfg) = imp;
    }

    pub fn down_bytes(&self) -> u64 {
        self.stats.down_bytes.load(Ordering::Relaxed)
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.cancel();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn run(
    listen: UdpSocket,
    upstream: Arc<Mutex<Option<SocketAddr>>>,
    sh: Arc<Shared>,
    stop: CancellationToken,
) {
    let listen = Arc::new(listen);
    let mut clients: HashMap<SocketAddr, Arc<UdpSocket>> = HashMap::new();
    let mut buf = vec![0u8; 65536];
    loop {
        let (n, from) = tokio::select! {
            _ = stop.cancelled() => return,
            r = listen.recv_from(&mut buf) => match r {
                Ok(v) => v,
                Err(_) => continue,
            },
        };
        let up = match clients.get(&from) {
            Some(s) => s.clone(),
            None => {
                let Some(target) = *lock(&upstream) else {
                    continue;
                };
                let Ok(s) = new_upstream(target) else {
                    continue;
                };
                let s = Arc::new(s);
                clients.insert(from, s.clone());
                tokio::spawn(downstream(
                    s.clone(),
                    listen.clone(),
                    from,
                    sh.clone(),
                    stop.clone(),
                ));
                s
            }
        };
        forward(&sh, Dir::Up, &buf[..n], Out::Connected(up)).await;
    }
}

/// A nonblocking loopback UDP socket with 4 MiB buffers: the relay must not add loss of
/// its own when a sender bursts a full window (the default 208 KB would).
fn big_socket() -> std::io::Result<std::net::UdpSocket> {
    let s = socket2::Socket::new(
        socket2::Domain::IPV4,
        socket2::Type::DGRAM,
        Some(socket2::Protocol::UDP),
    )?;
    let _ = s.set_recv_buffer_size(4 << 20);
    let _ = s.set_send_buffer_size(4 << 20);
    s.set_nonblocking(true)?;
    s.bind(&SocketAddr::from(([127, 0, 0, 1], 0)).into())?;
    Ok(s.into())
}

fn new_upstream(upstream: SocketAddr) -> std::io::Result<UdpSocket> {
    let s = big_socket()?;
    s.connect(upstream)?;
    UdpSocket::from_std(s)
}

async fn downstream(
    up: Arc<UdpSocket>,
    listen: Arc<UdpSocket>,
    client: SocketAddr,
    sh: Arc<Shared>,
    stop: CancellationToken,
) {
    let mut buf = vec![0u8; 65536];
    loop {
        let n = tokio::select! {
            _ = stop.cancelled() => return,
            r = up.recv(&mut buf) => match r {
                Ok(n) => n,
                Err(_) => continue,
            },
        };
        forward(&sh, Dir::Down, &buf[..n], Out::To(listen.clone(), client)).await;
    }
}

#[derive(Clone)]
enum Out {
    Connected(Arc<UdpSocket>),
    To(Arc<UdpSocket>, SocketAddr),
}

impl Out {
    async fn send(&self, b: &[u8]) {
        let _ = match self {
            Out::Connected(s) => s.send(b).await,
            Out::To(s, a) => s.send_to(b, *a).await,
        };
    }
}

/// Applies the impairment to one datagram and sends (or schedules) its copies.
async fn forward(sh: &Shared, dir: Dir, data: &[u8], out: Out) {
    let cfg = lock(&sh.cfg).clone();
    let st = &sh.stats;
    if let Some(n) = cfg.blackhole_after {
        if st.down_packets.load(Ordering::Relaxed) >= n {
            st.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
    }
    let mut sends: Vec<(Instant, Vec<u8>)> = Vec::with_capacity(2);
    {
        let mut rng = lock(&sh.rng);
        if cfg.loss > 0.0 && rng.gen_bool(cfg.loss.min(1.0)) {
            st.dropped.fetch_add(1, Ordering::Relaxed);
            if dir == Dir::Down {
                st.down_dropped.fetch_add(1, Ordering::Relaxed);
            }
            return;
        }
        let copies = if cfg.duplicate > 0.0 && rng.gen_bool(cfg.duplicate.min(1.0)) {
            2
        } else {
            1
        };
        let now = Instant::now();
        for _ in 0..copies {
            let mut b = data.to_vec();
            if cfg.corrupt > 0.0 && rng.gen_bool(cfg.corrupt.min(1.0)) && !b.is_empty() {
                let i = rng.gen_range(0..b.len());
                b[i] ^= 1 << rng.gen_range(0..8);
            }
            let mut at = now;
            if let Some(rate) = cfg.rate.filter(|r| *r > 0) {
                let mut nf = lock(&sh.next_free);
                let slot = &mut nf[dir as usize];
                let start = (*slot).max(now);
                if start.duration_since(now) > cfg.queue {
                    st.dropped.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                let tx_time = Duration::from_secs_f64(b.len() as f64 / rate as f64);
                *slot = start + tx_time;
                at = *slot;
            }
            at += cfg.delay;
            if !cfg.jitter.is_zero() {
                at += cfg.jitter.mul_f64(rng.gen::<f64>());
            }
            if cfg.reorder > 0.0 && rng.gen_bool(cfg.reorder.min(1.0)) {
                at += cfg.reorder_by;
            }
            sends.push((at, b));
        }
    }
    for (at, b) in sends {
        match dir {
            Dir::Up => {
                st.up_packets.fetch_add(1, Ordering::Relaxed);
                st.up_bytes.fetch_add(b.len() as u64, Ordering::Relaxed);
            }
            Dir::Down => {
                st.down_packets.fetch_add(1, Ordering::Relaxed);
                st.down_bytes.fetch_add(b.len() as u64, Ordering::Relaxed);
            }
        }
        if at <= Instant::now() {
            out.send(&b).await;
        } else {
            let _ = sh.delay[dir as usize].send(Delayed {
                at,
                out: out.clone(),
                data: b,
            });
        }
    }
}
