//! Deterministic lossy-link simulation of RDT: seeded RNG, virtual time, no sockets, no
//! sleeps. Drives real Sender/Receiver state machines through an impaired link (loss,
//! reordering, duplication, bit flips, delay, jitter, bandwidth queue, outages).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use protocol::rdt::{
    conn_id_from_token, peek_conn_id, seal_data, AbortCode, AbortReason, ChunkBitmap, Config,
    Receiver, ReceiverEvent, ReceiverState, Sender, SenderEvent, Transmit, DATA_HEADER_LEN,
    MAX_DATAGRAM,
};
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};

#[path = "rdt_sim/acks.rs"]
mod acks;
#[path = "rdt_sim/bottleneck.rs"]
mod bottleneck;
#[path = "rdt_sim/finish.rs"]
mod finish;

const MS: Duration = Duration::from_millis(1);
/// DATA packet type byte (offset 0 of the header, docs/rdt.md).
const DATA_TYPE: u8 = 0x03;

#[derive(Clone, Debug)]
struct LinkCfg {
    loss: f64,
    dup: f64,
    corrupt: f64,
    delay: Duration,
    jitter: Duration,
    /// Delivery times rounded up to a multiple of this since the start (zero: exact): a
    /// userspace relay whose delay line sleeps on a millisecond timer releases the packets
    /// that arrived within one tick together, so every packet of a burst shares the delay.
    tick: Duration,
    /// Bottleneck rate in bytes/s with a tail-drop queue of `queue` packets.
    rate: Option<u64>,
    queue: u32,
    /// Windows (from the start of the run) during which every packet is dropped.
    outages: Vec<(Duration, Duration)>,
}

impl Default for LinkCfg {
    fn default() -> Self {
        Self {
            loss: 0.0,
            dup: 0.0,
            corrupt: 0.0,
            delay: 10 * MS,
            jitter: Duration::ZERO,
            tick: Duration::ZERO,
            rate: Some(12_500_000), // 100 Mbit/s
            queue: 400,
            outages: Vec::new(),
        }
    }
}

/// One direction of the link.
struct Link {
    cfg: LinkCfg,
    rng: StdRng,
    start: Instant,
    busy_until: Instant,
    counter: u64,
    queue: BinaryHeap<Reverse<(Instant, u64, Vec<u8>)>>,
    sent: u64,
    /// Data packets this link dropped (random loss, outage or tail drop): the exact number
    /// of retransmissions a perfect sender would need in this direction.
    data_dropped: u64,
}

impl Link {
    fn new(cfg: LinkCfg, seed: u64, start: Instant) -> Self {
        Self {
            cfg,
            rng: StdRng::seed_from_u64(seed),
            start,
            busy_until: start,
            counter: 0,
            queue: BinaryHeap::new(),
            sent: 0,
            data_dropped: 0,
        }
    }

    fn send(&mut self, now: Instant, bytes: &[u8]) {
        self.sent += 1;
        let is_data = bytes.len() > DATA_HEADER_LEN && bytes[0] == DATA_TYPE;
        let t = now - self.start;
        if self.cfg.outages.iter().any(|(a, b)| t >= *a && t < *b) {
            self.data_dropped += u64::from(is_data);
            return;
        }
        if self.rng.gen_bool(self.cfg.loss) {
            self.data_dropped += u64::from(is_data);
            return;
        }
        let depart = match self.cfg.rate {
            Some(rate) => {
                let tx = Duration::from_secs_f64(bytes.len() as f64 / rate as f64);
                let start = self.busy_until.max(now);
                if start - now > tx * self.cfg.queue {
                    self.data_dropped += u64::from(is_data);
                    return; // tail drop: the bottleneck queue is full
                }
                self.busy_until = start + tx;
                self.busy_until
            }
            None => now,
        };
        let copies = if self.rng.gen_bool(self.cfg.dup) {
            2
        } else {
            1
        };
        for _ in 0..copies {
            let mut b = bytes.to_vec();
            if self.rng.gen_bool(self.cfg.corrupt) {
                let bit = self.rng.gen_range(0..b.len() * 8);
                b[bit / 8] ^= 1 << (bit % 8);
            }
            let jitter = self.cfg.jitter.mul_f64(self.rng.gen::<f64>());
            let mut at = depart + self.cfg.delay + jitter;
            if !self.cfg.tick.is_zero() {
                let tick = self.cfg.tick.as_nanos();
                let since = (at - self.start).as_nanos();
                at = self.start + Duration::from_nanos((since.div_ceil(tick) * tick) as u64);
            }
            self.counter += 1;
            self.queue.push(Reverse((at, self.counter, b)));
        }
    }

    fn next_at(&self) -> Option<Instant> {
        self.queue.peek().map(|Reverse((t, _, _))| *t)
    }

    fn pop_due(&mut self, now: Instant) -> Option<Vec<u8>> {
        if self.next_at()? <= now {
            self.queue.pop().map(|Reverse((_, _, b))| b)
        } else {
            None
        }
    }
}

/// One transfer: the sender lives at end A, the receiver at end B.
struct Pair {
    conn: u64,
    sender: Sender,
    receiver: Receiver,
    file: Vec<u8>,
    out: Vec<u8>,
    sender_event: Option<SenderEvent>,
    receiver_event: Option<ReceiverEvent>,
    receiver_done_at: Option<Duration>,
    sender_done_at: Option<Duration>,
    max_in_flight: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Initiator {
    /// Download: the receiver asks (pull).
    Receiver,
    /// Upload: the sender asks (push).
    Sender,
}

fn file_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    StdRng::seed_from_u64(seed).fill_bytes(&mut v);
    v
}

impl Pair {
    fn new(
        token: &[u8],
        file: Vec<u8>,
        who: Initiator,
        cfg: &Config,
        have: Option<(ChunkBitmap, Vec<u8>)>,
        now: Instant,
    ) -> Self {
        let conn = conn_id_from_token(token);
        let size = file.len() as u64;
        let (bitmap, out) = match have {
            Some((b, o)) => (Some(b), o),
            None => (None, vec![0u8; file.len()]),
        };
        let (sender, receiver) = match who {
            Initiator::Receiver => (
                Sender::new(conn, size, cfg.clone(), now).expect("sender"),
                Receiver::initiate(conn, token, size, cfg.chunk_size, bitmap, cfg.clone(), now)
                    .expect("receiver"),
            ),
            Initiator::Sender => (
                Sender::initiate(conn, token, size, cfg.clone(), now).expect("sender"),
                Receiver::new(conn, size, cfg.chunk_size, bitmap, cfg.clone(), now)
                    .expect("receiver"),
            ),
        };
        Self {
            conn,
            sender,
            receiver,
            file,
            out,
            sender_event: None,
            receiver_event: None,
            receiver_done_at: None,
            sender_done_at: None,
            max_in_flight: 0,
        }
    }

    fn settled(&self) -> bool {
        self.sender_event.is_some()
            && self.receiver_event.is_some()
            && self.sender.poll_timeout().is_none()
            && !matches!(self.receiver.state(), ReceiverState::Receiving)
    }
}

struct Sim {
    start: Instant,
    now: Instant,
    a2b: Link,
    b2a: Link,
    pairs: Vec<Pair>,
    /// Stop early once every receiver holds this many bytes (for the resume test).
    stop_at_bytes: Option<u64>,
    last_trace: u128,
}

impl Sim {
    fn new(link: LinkCfg, seed: u64) -> Self {
        let start = Instant::now();
        Self {
            start,
            now: start,
            a2b: Link::new(link.clone(), seed, start),
            b2a: Link::new(link, seed ^ 0x9e37_79b9_7f4a_7c15, start),
            pairs: Vec::new(),
            stop_at_bytes: None,
            last_trace: 0,
        }
    }

    fn elapsed(&self) -> Duration {
        self.now - self.start
    }

    /// Runs until every pair settled (or the stop condition); panics past `limit` of
    /// virtual time, which is how "terminates in bounded time" is asserted.
    fn run(&mut self, limit: Duration) {
        let mut buf = vec![0u8; MAX_DATAGRAM];
        loop {
            for p in &mut self.pairs {
                while let Some(t) = p.sender.poll_transmit(self.now, &mut buf) {
                    let n = match t {
                        Transmit::Control { len } => len,
                        Transmit::Data { seq, offset, len } => {
                            let off = offset as usize;
                            buf[DATA_HEADER_LEN..DATA_HEADER_LEN + len]
                                .copy_from_slice(&p.file[off..off + len]);
                            seal_data(p.conn, seq, len, &mut buf).expect("fits")
                        }
                    };
                    self.a2b.send(self.now, &buf[..n]);
                }
                p.max_in_flight = p.max_in_flight.max(p.sender.stats().in_flight);
                while let Some(n) = p.receiver.poll_transmit(self.now, &mut buf) {
                    self.b2a.send(self.now, &buf[..n]);
                }
            }
            if self.pairs.iter().all(Pair::settled) {
                return;
            }
            if let Some(b) = self.stop_at_bytes {
                if self
                    .pairs
                    .iter()
                    .all(|p| p.receiver.stats().bytes_held >= b)
                {
                    return;
                }
            }
            let next = [self.a2b.next_at(), self.b2a.next_at()]
                .into_iter()
                .chain(
                    self.pairs
                        .iter()
                        .flat_map(|p| [p.sender.poll_timeout(), p.receiver.poll_timeout()]),
                )
                .flatten()
                .min()
                .expect("something is always pending until settled");
            self.now = self.now.max(next);
            assert!(
                self.elapsed() <= limit,
                "no termination within {limit:?} of virtual time"
            );
            let now = self.now;
            if std::env::var("RDT_TRACE").is_ok() {
                let ms = self.elapsed().as_millis();
                if ms / 20 != self.last_trace {
                    self.last_trace = ms / 20;
                    let s = self.pairs[0].sender.stats();
                    eprintln!("{ms} ms: cwnd {} inflight {} acked {} retx {} srtt {:?} rto {:?} loss {:.3} q {}", s.cwnd, s.in_flight, s.bytes_acked, s.retransmissions, s.srtt, s.rto, s.loss_rate, self.a2b.queue.len());
                }
            }
            while let Some(d) = self.a2b.pop_due(now) {
                // Demux like a server with one socket would.
                let Some(p) = self.route(&d) else { continue };
                if let Some(w) = p.receiver.handle(&d, now) {
                    let off = w.offset as usize;
                    p.out[off..off + w.data.len()].copy_from_slice(w.data);
                }
            }
            while let Some(d) = self.b2a.pop_due(now) {
                let Some(p) = self.route(&d) else { continue };
                p.sender.handle(&d, now);
            }
            let elapsed = self.elapsed();
            for p in &mut self.pairs {
                if p.sender.poll_timeout().is_some_and(|t| t <= now) {
                    p.sender.handle_timeout(now);
                }
                if p.receiver.poll_timeout().is_some_and(|t| t <= now) {
                    p.receiver.handle_timeout(now);
                }
                while let Some(e) = p.sender.poll_event() {
                    assert!(p.sender_event.is_none(), "one terminal event per side");
                    p.sender_event = Some(e);
                    p.sender_done_at = Some(elapsed);
                }
                while let Some(e) = p.receiver.poll_event() {
                    assert!(p.receiver_event.is_none(), "one terminal event per side");
                    p.receiver_event = Some(e);
                    p.receiver_done_at = Some(elapsed);
                }
            }
        }
    }

    fn route(&mut self, d: &[u8]) -> Option<&mut Pair> {
        let id = peek_conn_id(d)?;
        // A corrupted id may match no transfer (dropped) or another one (its CRC check
        // must then reject it).
        self.pairs.iter_mut().find(|p| p.conn == id)
    }
}

fn assert_delivered(p: &Pair) {
    assert_eq!(p.sender_event, Some(SenderEvent::Done), "sender outcome");
    assert_eq!(
        p.receiver_event,
        Some(ReceiverEvent::Done),
        "receiver outcome"
    );
    assert!(p.out == p.file, "delivered bytes differ from the source");
}

fn goodput_mb_s(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e6
}

/// One transfer over `link`; returns the sim after it settled.
fn transfer(link: LinkCfg, seed: u64, size: usize, who: Initiator, cfg: &Config) -> Sim {
    let mut sim = Sim::new(link, seed);
    let file = file_bytes(seed, size);
    let now = sim.now;
    sim.pairs
        .push(Pair::new(b"token-one", file, who, cfg, None, now));
    sim.run(Duration::from_secs(120));
    sim
}

#[test]
fn rdt_sim_loss_matrix() {
    let cfg = Config::default();
    let size = 2 * 1024 * 1024;
    let mut report = Vec::new();
    for (i, loss) in [0.0, 0.01, 0.05, 0.10, 0.20, 0.30].into_iter().enumerate() {
        let link = LinkCfg {
            loss,
            dup: 0.01,
            corrupt: 0.01,
            jitter: 2 * MS,
            ..LinkCfg::default()
        };
        // Alternate directions: the engine must not care who initiated.
        let who = if i % 2 == 0 {
            Initiator::Receiver
        } else {
            Initiator::Sender
        };
        let sim = transfer(link, 100 + i as u64, size, who, &cfg);
        let p = &sim.pairs[0];
        assert_delivered(p);
        let t = p.receiver_done_at.expect("done");
        let s = p.sender.stats();
        assert!(t < Duration::from_secs(30), "loss {loss}: took {t:?}");
        assert!(p.max_in_flight <= cfg.max_window);
        report.push(format!(
            "loss {:>4.0}%: {:>6.2} MB/s virtual ({:?}), retx {}, spurious {}, timeouts {}, final cwnd {}",
            loss * 100.0,
            goodput_mb_s(size, t),
            t,
            s.retransmissions,
            s.spurious_losses,
            s.timeouts,
            s.cwnd
        ));
    }
    println!("{}", report.join("\n"));
}

#[test]
fn rdt_sim_goodput_does_not_collapse_under_random_loss() {
    // Same 10 ms path without a bottleneck queue, so only random loss differs.
    let cfg = Config::default();
    let size = 3 * 1024 * 1024;
    let base = LinkCfg {
        delay: 10 * MS,
        ..LinkCfg::default()
    };
    let t0 = transfer(base.clone(), 7, size, Initiator::Receiver, &cfg).pairs[0]
        .receiver_done_at
        .expect("done");
    let lossy = LinkCfg { loss: 0.05, ..base };
    let sim = transfer(lossy, 7, size, Initiator::Receiver, &cfg);
    assert_delivered(&sim.pairs[0]);
    let t5 = sim.pairs[0].receiver_done_at.expect("done");
    println!(
        "lossless {:?} ({:.2} MB/s), 5% loss {:?} ({:.2} MB/s)",
        t0,
        goodput_mb_s(size, t0),
        t5,
        goodput_mb_s(size, t5)
    );
    assert!(t5 < t0 * 3, "5% random loss: {t5:?} vs lossless {t0:?}");
}

#[test]
fn rdt_sim_reorder_duplicate_corrupt() {
    let cfg = Config::default();
    let link = LinkCfg {
        loss: 0.02,
        dup: 0.10,
        corrupt: 0.10,
        jitter: 15 * MS, // wider than the delay: heavy reordering
        delay: 5 * MS,
        rate: None,
        ..LinkCfg::default()
    };
    let sim = transfer(link, 11, 1_500_000, Initiator::Receiver, &cfg);
    let p = &sim.pairs[0];
    assert_delivered(p);
    let r = p.receiver.stats();
    assert!(r.duplicates > 0, "duplication must have been exercised");
    assert!(r.dropped > 0, "corrupt packets must have been dropped");
    assert!(p.sender.stats().dropped > 0);
}

#[test]
fn rdt_sim_long_outage_recovers() {
    let cfg = Config::default();
    let link = LinkCfg {
        loss: 0.01,
        outages: vec![(300 * MS, 4300 * MS)],
        rate: Some(2_000_000),
        ..LinkCfg::default()
    };
    let sim = transfer(link, 12, 2_000_000, Initiator::Sender, &cfg);
    let p = &sim.pairs[0];
    assert_delivered(p);
    assert!(
        p.sender.stats().timeouts > 0,
        "the outage must have caused timeouts"
    );
    assert!(p.receiver_done_at.expect("done") > Duration::from_secs(4));
}

#[test]
fn rdt_sim_resume_sends_less() {
    let cfg = Config::default();
    let size = 2_000_000;
    let link = LinkCfg {
        loss: 0.05,
        jitter: 3 * MS,
        ..LinkCfg::default()
    };
    let file = file_bytes(21, size);
    // First attempt: interrupted once the receiver holds about half.
    let mut sim = Sim::new(link.clone(), 21);
    let now = sim.now;
    sim.pairs.push(Pair::new(
        b"resume",
        file.clone(),
        Initiator::Receiver,
        &cfg,
        None,
        now,
    ));
    sim.stop_at_bytes = Some(size as u64 / 2);
    sim.run(Duration::from_secs(60));
    let first = sim.pairs.pop().expect("pair");
    assert!(first.receiver_event.is_none(), "stopped mid-transfer");
    // Persisting the bitmap is part of the contract: round-trip it through bytes.
    let bitmap = ChunkBitmap::from_bytes(&first.receiver.bitmap().to_bytes()).expect("bitmap");
    let held = first.receiver.stats().bytes_held;
    assert!(held >= size as u64 / 2 && held < size as u64);
    // Second attempt: fresh machines, receiver starts from its bitmap and partial file.
    let mut sim = Sim::new(link, 22);
    let now = sim.now;
    let have = Some((bitmap, first.out));
    sim.pairs.push(Pair::new(
        b"resume",
        file,
        Initiator::Receiver,
        &cfg,
        have,
        now,
    ));
    sim.run(Duration::from_secs(60));
    let p = &sim.pairs[0];
    assert_delivered(p);
    let s = p.sender.stats();
    assert_eq!(s.bytes_skipped + s.bytes_acked, size as u64);
    assert!(
        s.bytes_skipped >= size as u64 / 2 - 1400 * 300,
        "skipped {}",
        s.bytes_skipped
    );
    assert!(
        s.bytes_sent < (size as u64 - held) * 13 / 10,
        "resumed sender sent {} for {} missing",
        s.bytes_sent,
        size as u64 - held
    );
}

#[test]
fn rdt_sim_empty_file_both_directions() {
    for who in [Initiator::Receiver, Initiator::Sender] {
        let link = LinkCfg {
            loss: 0.2,
            ..LinkCfg::default()
        };
        let sim = transfer(link, 31, 0, who, &Config::default());
        let p = &sim.pairs[0];
        assert_delivered(p);
        assert_eq!(p.sender.stats().packets_sent, 0);
    }
}

#[test]
fn rdt_sim_resume_when_everything_is_held() {
    let cfg = Config::default();
    let file = file_bytes(32, 10_000);
    let n = protocol::rdt::total_chunks(10_000, cfg.chunk_size).expect("chunks");
    let all = ChunkBitmap::from_ranges(n, [protocol::rdt::ChunkRange::new(0, n)]);
    let mut sim = Sim::new(LinkCfg::default(), 32);
    let now = sim.now;
    let have = Some((all, file.clone()));
    sim.pairs.push(Pair::new(
        b"all",
        file,
        Initiator::Receiver,
        &cfg,
        have,
        now,
    ));
    sim.run(Duration::from_secs(10));
    assert_delivered(&sim.pairs[0]);
    assert_eq!(sim.pairs[0].sender.stats().bytes_sent, 0);
}

#[test]
fn rdt_sim_more_than_65536_chunks() {
    // Tiny chunks make a small file need 2^16+ sequence numbers (the legacy u16 wrapped).
    let cfg = Config {
        chunk_size: 8,
        max_window: 4096,
        initial_window: 512,
        ..Config::default()
    };
    let size = 70_000 * 8 + 5;
    let link = LinkCfg {
        loss: 0.01,
        rate: None,
        delay: 2 * MS,
        ..LinkCfg::default()
    };
    let sim = transfer(link, 41, size, Initiator::Sender, &cfg);
    let p = &sim.pairs[0];
    assert_delivered(p);
    assert!(p.receiver.stats().total_chunks > 1 << 16);
}

#[test]
fn rdt_sim_two_transfers_interleaved() {
    let cfg = Config::default();
    let link = LinkCfg {
        loss: 0.05,
        dup: 0.02,
        corrupt: 0.05,
        jitter: 4 * MS,
        ..LinkCfg::default()
    };
    let mut sim = Sim::new(link, 51);
    let now = sim.now;
    let a = file_bytes(52, 1_000_000);
    let b = file_bytes(53, 700_001);
    sim.pairs.push(Pair::new(
        b"alpha-token",
        a,
        Initiator::Receiver,
        &cfg,
        None,
        now,
    ));
    sim.pairs.push(Pair::new(
        b"beta-token",
        b,
        Initiator::Sender,
        &cfg,
        None,
        now,
    ));
    assert_ne!(sim.pairs[0].conn, sim.pairs[1].conn);
    sim.run(Duration::from_secs(60));
    for p in &sim.pairs {
        assert_delivered(p);
    }
}

#[test]
fn rdt_sim_foreign_packets_are_ignored() {
    // Packets of transfer A delivered to transfer B's machines change nothing.
    let cfg = Config::default();
    let mut sim = Sim::new(LinkCfg::default(), 54);
    let now = sim.now;
    sim.pairs.push(Pair::new(
        b"aaa",
        file_bytes(1, 50_000),
        Initiator::Receiver,
        &cfg,
        None,
        now,
    ));
    sim.pairs.push(Pair::new(
        b"bbb",
        file_bytes(2, 50_000),
        Initiator::Receiver,
        &cfg,
        None,
        now,
    ));
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let n = sim.pairs[0]
        .receiver
        .poll_transmit(now, &mut buf)
        .expect("REQUEST");
    let (first, second) = sim.pairs.split_at_mut(1);
    second[0].sender.handle(&buf[..n], now);
    assert!(second[0].sender.poll_transmit(now, &mut buf).is_none());
    assert_eq!(second[0].sender.stats().dropped, 1);
    first[0].sender.handle(&buf[..n], now);
    assert!(first[0].sender.poll_transmit(now, &mut buf).is_some());
}

#[test]
fn rdt_sim_dead_link_aborts_both_sides() {
    let cfg = Config::default();
    let link = LinkCfg {
        outages: vec![(200 * MS, Duration::from_secs(10_000))],
        rate: Some(1_000_000),
        ..LinkCfg::default()
    };
    let mut sim = Sim::new(link, 61);
    let now = sim.now;
    sim.pairs.push(Pair::new(
        b"dead",
        file_bytes(61, 5_000_000),
        Initiator::Receiver,
        &cfg,
        None,
        now,
    ));
    sim.run(Duration::from_secs(60));
    let p = &sim.pairs[0];
    let Some(SenderEvent::Aborted { reason: s }) = p.sender_event else {
        panic!("sender: {:?}", p.sender_event);
    };
    let Some(ReceiverEvent::Aborted { reason: r }) = p.receiver_event else {
        panic!("receiver: {:?}", p.receiver_event);
    };
    assert!(
        matches!(s, AbortReason::RetryLimit | AbortReason::IdleTimeout),
        "{s:?}"
    );
    assert_eq!(r, AbortReason::IdleTimeout);
    println!(
        "dead link: sender {s:?} after {:?}, receiver {r:?} after {:?}",
        p.sender_done_at, p.receiver_done_at
    );
}

#[test]
fn rdt_sim_handshake_never_answered() {
    // Nobody listens: the initiating receiver gives up with RetryLimit (the idle limit is
    // raised so the retry budget is what ends it).
    let cfg = Config {
        idle_timeout: Duration::from_secs(600),
        ..Config::default()
    };
    let start = Instant::now();
    let mut r = Receiver::initiate(9, b"t", 100, 1400, None, cfg, start).expect("receiver");
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let mut now = start;
    let mut requests = 0;
    loop {
        while r.poll_transmit(now, &mut buf).is_some() {
            requests += 1;
        }
        let Some(t) = r.poll_timeout() else { break };
        now = t;
        r.handle_timeout(now);
    }
    assert!(matches!(
        r.poll_event(),
        Some(ReceiverEvent::Aborted {
            reason: AbortReason::RetryLimit
        })
    ));
    assert!(requests > 3);
    assert!(now - start < Duration::from_secs(30));
}

#[test]
fn rdt_sim_local_abort_reaches_peer() {
    let cfg = Config::default();
    let mut sim = Sim::new(LinkCfg::default(), 71);
    let now = sim.now;
    sim.pairs.push(Pair::new(
        b"cancel",
        file_bytes(71, 3_000_000),
        Initiator::Receiver,
        &cfg,
        None,
        now,
    ));
    sim.stop_at_bytes = Some(500_000);
    sim.run(Duration::from_secs(30));
    sim.pairs[0].receiver.abort(AbortCode::Cancelled);
    sim.stop_at_bytes = None;
    sim.run(Duration::from_secs(60));
    let p = &sim.pairs[0];
    assert_eq!(
        p.receiver_event,
        Some(ReceiverEvent::Aborted {
            reason: AbortReason::Local(AbortCode::Cancelled)
        })
    );
    assert_eq!(
        p.sender_event,
        Some(SenderEvent::Aborted {
            reason: AbortReason::Peer(AbortCode::Cancelled)
        })
    );
}

#[test]
fn rdt_sim_size_mismatch_aborts() {
    let cfg = Config::default();
    let start = Instant::now();
    let mut r = Receiver::initiate(5, b"t", 1000, 1400, None, cfg.clone(), start).expect("r");
    let mut s = Sender::new(5, 999, cfg, start).expect("s");
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let n = r.poll_transmit(start, &mut buf).expect("REQUEST");
    s.handle(&buf[..n], start);
    assert_eq!(
        s.poll_event(),
        Some(SenderEvent::Aborted {
            reason: AbortReason::Mismatch
        })
    );
    let Some(Transmit::Control { len }) = s.poll_transmit(start, &mut buf) else {
        panic!("ABORT expected");
    };
    assert!(r.handle(&buf[..len], start).is_none());
    assert_eq!(
        r.poll_event(),
        Some(ReceiverEvent::Aborted {
            reason: AbortReason::Peer(AbortCode::Mismatch)
        })
    );
}

#[test]
fn rdt_sim_rate_cap_is_obeyed() {
    let cfg = Config {
        max_rate: Some(1_000_000),
        ..Config::default()
    };
    let link = LinkCfg {
        rate: None,
        delay: 5 * MS,
        ..LinkCfg::default()
    };
    let size = 1_000_000;
    let sim = transfer(link, 81, size, Initiator::Receiver, &cfg);
    let p = &sim.pairs[0];
    assert_delivered(p);
    let t = p.receiver_done_at.expect("done");
    // ~1.01 MB of datagrams at 1 MB/s: about one second, never much faster.
    assert!(t >= Duration::from_millis(950), "{t:?}");
    assert!(t <= Duration::from_millis(1300), "{t:?}");
}

#[test]
fn rdt_sim_window_cap_is_obeyed() {
    let cfg = Config {
        max_window: 64,
        ..Config::default()
    };
    let link = LinkCfg {
        rate: None,
        ..LinkCfg::default()
    };
    let sim = transfer(link, 91, 1_000_000, Initiator::Sender, &cfg);
    let p = &sim.pairs[0];
    assert_delivered(p);
    assert!(p.max_in_flight <= 64);
    // Window-limited: 64 packets per ~20 ms round trip.
    let t = p.receiver_done_at.expect("done");
    assert!(t > Duration::from_millis(200), "{t:?}");
}

#[test]
fn rdt_sim_offsets_past_4_gib() {
    // Sequence arithmetic for a 6 GB file without moving 6 GB: the last chunk lands at
    // its u64 offset and has the short length.
    let size = 6_000_000_000u64;
    let cfg = Config::default();
    let start = Instant::now();
    let conn = 77;
    let mut r = Receiver::new(conn, size, 1400, None, cfg.clone(), start).expect("r");
    let mut s = Sender::initiate(conn, b"big", size, cfg, start).expect("s");
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let Some(Transmit::Control { len }) = s.poll_transmit(start, &mut buf) else {
        panic!("REQUEST expected");
    };
    assert!(r.handle(&buf[..len], start).is_none());
    let n = r.poll_transmit(start, &mut buf).expect("ACCEPT");
    s.handle(&buf[..n], start);
    let Some(Transmit::Data {
        seq: 0,
        offset: 0,
        len: 1400,
    }) = s.poll_transmit(start, &mut buf)
    else {
        panic!("first chunk expected");
    };
    let last = (size.div_ceil(1400) - 1) as u32;
    let last_len = (size - u64::from(last) * 1400) as usize;
    let payload = vec![7u8; last_len];
    let n = protocol::rdt::encode_data(conn, last, &payload, &mut buf).expect("fits");
    // Outside the receive window from a fresh start: refused, not mis-placed.
    assert!(r.handle(&buf[..n], start).is_none());
    let cfg_wide = Config {
        recv_window: u32::MAX,
        ..Config::default()
    };
    let mut r = Receiver::new(conn, size, 1400, None, cfg_wide, start).expect("r");
    let w = r.handle(&buf[..n], start).expect("write");
    assert_eq!(w.offset, u64::from(last) * 1400);
    assert!(w.offset > u64::from(u32::MAX));
    assert_eq!(w.data.len(), last_len);
}

#[test]
fn rdt_sim_random_links_always_terminate() {
    // Many small transfers over randomly impaired links: each must end byte-exact, with
    // both sides reporting exactly one terminal event, in bounded virtual time.
    let mut pick = StdRng::seed_from_u64(2024);
    // RDT_SEEDS=N widens the search when hunting bugs; 40 keeps the suite fast.
    let seeds = std::env::var("RDT_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40u64);
    for seed in 0..seeds {
        let link = LinkCfg {
            // Loss + corruption up to 30% each way, the worst level the issue asks for.
            loss: pick.gen_range(0.0..0.25),
            dup: pick.gen_range(0.0..0.1),
            corrupt: pick.gen_range(0.0..0.05),
            delay: Duration::from_micros(pick.gen_range(50..40_000)),
            jitter: Duration::from_micros(pick.gen_range(0..20_000)),
            tick: Duration::ZERO,
            rate: if pick.gen_bool(0.5) {
                Some(pick.gen_range(200_000..20_000_000))
            } else {
                None
            },
            queue: pick.gen_range(8..500),
            outages: Vec::new(),
        };
        let cfg = Config {
            chunk_size: pick.gen_range(200..=1400),
            ack_every: pick.gen_range(1..9),
            ..Config::default()
        };
        let size = pick.gen_range(0..150_000);
        let who = if seed % 2 == 0 {
            Initiator::Receiver
        } else {
            Initiator::Sender
        };
        if std::env::var("RDT_ONLY_SEED").is_ok_and(|v| v != seed.to_string()) {
            continue;
        }
        if std::env::var("RDT_SEEDS").is_ok() {
            eprintln!("seed {seed}");
        }
        let sim = transfer(link.clone(), 1000 + seed, size, who, &cfg);
        let p = &sim.pairs[0];
        if std::env::var("RDT_ONLY_SEED").is_ok() {
            eprintln!(
                "{:?}\n{:?}\n{:?} {:?}",
                p.sender.stats(),
                p.receiver.stats(),
                p.sender_done_at,
                p.receiver_done_at
            );
        }
        assert!(
            p.out == p.file
                && p.receiver_event == Some(ReceiverEvent::Done)
                && p.sender_event == Some(SenderEvent::Done),
            "seed {seed}: {link:?} {:?} {:?}",
            p.sender_event,
            p.receiver_event
        );
    }
}

/// One 4 MB download over a 25 MB/s, 10 ms path with `loss` each way and `jitter`;
/// returns (data packets the link dropped, sender stats).
fn retx_run(loss: f64, jitter: Duration, seed: u64) -> (u64, protocol::rdt::SenderStats) {
    let link = LinkCfg {
        loss,
        jitter,
        rate: Some(25_000_000),
        queue: 100_000,
        ..LinkCfg::default()
    };
    let sim = transfer(
        link,
        seed,
        4_000_000,
        Initiator::Receiver,
        &Config::default(),
    );
    drops_and_retransmissions(&sim, &format!("loss {loss} jitter {jitter:?}"))
}

/// A finished one-transfer simulation's (data packets the link dropped, sender stats),
/// printed under `label`.
fn drops_and_retransmissions(sim: &Sim, label: &str) -> (u64, protocol::rdt::SenderStats) {
    let p = &sim.pairs[0];
    assert_delivered(p);
    let s = p.sender.stats();
    println!(
        "{label}: dropped {} retx {} spurious {} timeouts {} max in flight {} in {:?}",
        sim.a2b.data_dropped,
        s.retransmissions,
        s.spurious_losses,
        s.timeouts,
        p.max_in_flight,
        p.receiver_done_at.expect("done")
    );
    (sim.a2b.data_dropped, s)
}

#[test]
fn rdt_sim_retransmissions_track_random_loss() {
    // Pure random loss on both paths (ACKs too), no reordering: nearly every
    // retransmission must replace a packet the link really dropped.
    for (loss, seed) in [(0.01, 41), (0.05, 42), (0.10, 43), (0.20, 44)] {
        let (dropped, s) = retx_run(loss, Duration::ZERO, seed);
        assert!(dropped > 0);
        assert!(
            s.retransmissions * 10 <= dropped * 13 + 200,
            "loss {loss}: {} retransmissions for {dropped} dropped data packets",
            s.retransmissions
        );
    }
}

#[test]
fn rdt_sim_reordering_keeps_spurious_retransmissions_bounded() {
    // Jitter of 1 and 5 ms reorders packets 50 µs apart by dozens of positions: the
    // reordering window must absorb it instead of retransmitting what is only late.
    for (loss, jitter, seed) in [(0.0, 5 * MS, 51), (0.05, MS, 52), (0.10, 5 * MS, 53)] {
        let (dropped, s) = retx_run(loss, jitter, seed);
        assert!(
            s.retransmissions <= dropped * 3 / 2 + 100,
            "loss {loss}, jitter {jitter:?}: {} retransmissions for {dropped} dropped",
            s.retransmissions
        );
        assert!(
            s.spurious_losses <= dropped / 5 + 100,
            "loss {loss}, jitter {jitter:?}: {} spurious loss calls",
            s.spurious_losses
        );
    }
}
