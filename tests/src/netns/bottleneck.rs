//! A shared bottleneck between the namespaces, and what is measured at it: the `tbf`
//! drop-tail queue (`scripts/netns.sh rate`) and its counters, per-flow byte counters
//! (nftables in the client namespace), a UDP ping through the queue, the kernel's UDP
//! counters of a namespace, and the fairness arithmetic (shares, Jain's index).

use std::net::{SocketAddr, UdpSocket};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

use super::{run_script, NetnsPair, CLIENT_IP, SERVER_IP};

/// A drop-tail bottleneck on the server -> client direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bottleneck {
    /// Rate in Mbit/s (10^6 bits; what `tc` calls `mbit`), counted on whole frames.
    pub mbit: u32,
    /// Queue limit in bytes.
    pub limit_bytes: u64,
}

impl Bottleneck {
    /// A queue holding `queue` worth of the rate: one bandwidth-delay product of a path
    /// whose RTT is `queue`.
    pub fn with_queue(mbit: u32, queue: Duration) -> Bottleneck {
        let bytes = u64::from(mbit) * 1_000_000 / 8 * queue.as_micros() as u64 / 1_000_000;
        Bottleneck {
            mbit,
            limit_bytes: bytes.max(3000),
        }
    }

    /// Bytes per second the queue drains at.
    pub fn bytes_per_sec(&self) -> f64 {
        f64::from(self.mbit) * 1e6 / 8.0
    }
}

/// The `tbf` qdisc's counters (`tc -s qdisc show`): frames it sent (bytes include the
/// 14-byte Ethernet header) and what its full queue dropped. The server's veth cuts GSO
/// bursts into packets before they reach the router (gso_max_segs 1, as made), so these
/// are packets; with GSO allowed a burst no larger than tbf's burst size is enqueued (and
/// dropped) whole and counts once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QdiscStats {
    pub sent_bytes: u64,
    pub sent_packets: u64,
    pub dropped: u64,
}

impl QdiscStats {
    /// Parses the first `Sent N bytes M pkt (dropped D, ...` line of `tc -s qdisc show`.
    pub fn parse(text: &str) -> Option<QdiscStats> {
        let line = text.lines().find(|l| l.trim_start().starts_with("Sent "))?;
        let w: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
            .filter(|w| !w.is_empty())
            .collect();
        let after = |key: &str| -> Option<u64> {
            let i = w.iter().position(|x| *x == key)?;
            w.get(i + 1)?.parse().ok()
        };
        Some(QdiscStats {
            sent_bytes: after("Sent")?,
            sent_packets: w.get(3)?.parse().ok()?,
            dropped: after("dropped")?,
        })
    }

    /// Counters gained since `earlier`.
    pub fn since(&self, earlier: &QdiscStats) -> QdiscStats {
        QdiscStats {
            sent_bytes: self.sent_bytes.saturating_sub(earlier.sent_bytes),
            sent_packets: self.sent_packets.saturating_sub(earlier.sent_packets),
            dropped: self.dropped.saturating_sub(earlier.dropped),
        }
    }
}

/// The kernel's UDP counters in one namespace (`/proc/net/snmp`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UdpSnmp {
    pub in_datagrams: u64,
    /// Datagrams dropped because a socket's receive buffer was full.
    pub rcvbuf_errors: u64,
    pub sndbuf_errors: u64,
}

impl UdpSnmp {
    pub fn parse(text: &str) -> Option<UdpSnmp> {
        let mut lines = text.lines().filter(|l| l.starts_with("Udp: "));
        let names: Vec<&str> = lines.next()?.split_whitespace().skip(1).collect();
        let values: Vec<u64> = lines
            .next()?
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse().ok())
            .collect::<Option<_>>()?;
        let get = |n: &str| names.iter().position(|x| *x == n).map(|i| values[i]);
        Some(UdpSnmp {
            in_datagrams: get("InDatagrams")?,
            rcvbuf_errors: get("RcvbufErrors")?,
            sndbuf_errors: get("SndbufErrors")?,
        })
    }
}

fn ns_output(ns: &str, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new("ip")
        .args(["netns", "exec", ns])
        .args(args)
        .output()
        .with_context(|| format!("ip netns exec {ns} {}", args.join(" ")))?;
    if !out.status.success() {
        bail!(
            "{} in {ns} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Which side of the pair a counter is read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NsSide {
    Server,
    Client,
}

impl NetnsPair {
    /// Puts (or replaces) a `tbf` bottleneck on the server -> client direction, in a router
    /// namespace the first call inserts between the two (`scripts/netns.sh rate`): a queue
    /// in the server's own qdisc would throttle TCP through TCP Small Queues, which no
    /// remote bottleneck does.
    pub fn set_bottleneck(&self, b: Bottleneck) -> anyhow::Result<()> {
        run_script(&[
            "rate",
            &self.name,
            &b.mbit.to_string(),
            &b.limit_bytes.to_string(),
        ])
    }

    /// Sets the TCP congestion control in both namespaces (`cubic`, `bbr`, `reno`).
    pub fn set_tcp_cc(&self, algo: &str) -> anyhow::Result<()> {
        run_script(&["cc", &self.name, algo])
    }

    /// The bottleneck's counters (zero when there is none).
    pub fn qdisc_stats(&self) -> anyhow::Result<QdiscStats> {
        let text = ns_output(
            &self.router_ns(),
            &["tc", "-s", "qdisc", "show", "dev", "rc"],
        )?;
        QdiscStats::parse(&text).ok_or_else(|| anyhow!("no counters in `tc -s qdisc`: {text}"))
    }

    /// UDP counters of one side's namespace.
    pub fn udp_snmp(&self, side: NsSide) -> anyhow::Result<UdpSnmp> {
        let ns = match side {
            NsSide::Server => self.server_ns(),
            NsSide::Client => self.client_ns(),
        };
        let text = ns_output(&ns, &["cat", "/proc/net/snmp"])?;
        UdpSnmp::parse(&text).ok_or_else(|| anyhow!("no Udp lines in /proc/net/snmp"))
    }

    /// Packets the nftables loss rule of one side dropped (the client side drops what the
    /// server sent: a download's DATA; the server side drops ACKs).
    pub fn dropped_on(&self, side: NsSide) -> anyhow::Result<u64> {
        let ns = match side {
            NsSide::Server => self.server_ns(),
            NsSide::Client => self.client_ns(),
        };
        let text = ns_output(&ns, &["nft", "list", "chain", "inet", "llmops_loss", "in"])?;
        Ok(counter_values(&text, "packets").iter().sum())
    }
}

/// Every number following `key` in an nft listing, in order.
fn counter_values(text: &str, key: &str) -> Vec<u64> {
    let mut v = Vec::new();
    let mut words = text.split_whitespace();
    while let Some(w) = words.next() {
        if w == key {
            if let Some(n) = words.next().and_then(|n| n.parse().ok()) {
                v.push(n);
            }
        }
    }
    v
}

/// Transport of a flow from the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Udp,
    Tcp,
}

impl Transport {
    fn nft(self) -> &'static str {
        match self {
            Transport::Udp => "udp",
            Transport::Tcp => "tcp",
        }
    }
}

/// One flow from the server to the client, told apart by the server's source port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flow {
    pub transport: Transport,
    pub server_port: u16,
}

/// nftables byte counters, one per flow, on what the client namespace receives from the
/// server (IP bytes: headers included, no Ethernet header).
#[derive(Debug, Clone)]
pub struct FlowCounters {
    ns: String,
    flows: Vec<Flow>,
}

impl FlowCounters {
    /// Installs (replacing earlier ones) a counting rule per flow, in order.
    pub fn install(pair: &NetnsPair, flows: &[Flow]) -> anyhow::Result<FlowCounters> {
        let mut script = String::from(
            "table inet llmops_flows { chain in { type filter hook input priority -10; policy accept; }; }\n\
             flush chain inet llmops_flows in\n",
        );
        for f in flows {
            script.push_str(&format!(
                "add rule inet llmops_flows in iifname \"veth-c\" ip saddr {SERVER_IP} {t} sport {p} counter\n",
                t = f.transport.nft(),
                p = f.server_port
            ));
        }
        let ns = pair.client_ns();
        let mut child = Command::new("ip")
            .args(["netns", "exec", &ns, "nft", "-f", "-"])
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .context("spawn nft")?;
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().ok_or_else(|| anyhow!("nft stdin"))?;
            stdin
                .write_all(script.as_bytes())
                .context("write nft rules")?;
        }
        let out = child.wait_with_output().context("nft -f")?;
        if !out.status.success() {
            bail!(
                "nft flow counters: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(FlowCounters {
            ns,
            flows: flows.to_vec(),
        })
    }

    /// Bytes received per flow so far, in the order given to `install`.
    pub fn bytes(&self) -> anyhow::Result<Vec<u64>> {
        self.read("bytes")
    }

    /// Packets received per flow so far, in the order given to `install` (single packets
    /// while the veth's gso_max_segs is 1, as made; with GSO allowed a burst counts once).
    pub fn packets(&self) -> anyhow::Result<Vec<u64>> {
        self.read("packets")
    }

    fn read(&self, what: &str) -> anyhow::Result<Vec<u64>> {
        let text = ns_output(
            &self.ns,
            &["nft", "list", "chain", "inet", "llmops_flows", "in"],
        )?;
        let v = counter_values(&text, what);
        if v.len() != self.flows.len() {
            bail!(
                "expected {} flow counters, found {}: {text}",
                self.flows.len(),
                v.len()
            );
        }
        Ok(v)
    }
}

/// Runs `f` on a thread that has joined the network namespace `ns` (`/run/netns/NS`):
/// sockets it creates live in that namespace and stay there when used from elsewhere.
pub fn in_namespace<T: Send>(
    ns: &str,
    f: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    let path = std::path::Path::new("/run/netns").join(ns);
    std::thread::scope(|s| {
        s.spawn(move || {
            let file =
                std::fs::File::open(&path).with_context(|| format!("open {}", path.display()))?;
            use std::os::fd::AsRawFd;
            // SAFETY: setns on a valid namespace fd changes only this thread's network
            // namespace; the thread ends when the scope does.
            let rc = unsafe { libc::setns(file.as_raw_fd(), libc::CLONE_NEWNET) };
            if rc != 0 {
                bail!("setns {}: {}", ns, std::io::Error::last_os_error());
            }
            f()
        })
        .join()
        .map_err(|_| anyhow!("namespace thread panicked"))?
    })
}

/// Round-trip times of a UDP ping from the client namespace to an echo socket in the
/// server namespace: the echo comes back through the bottleneck's queue, so during a
/// transfer it measures the queueing delay the transfer causes.
pub struct UdpPing {
    stop: Arc<AtomicBool>,
    rtts: Arc<Mutex<Vec<Duration>>>,
    sent: Arc<Mutex<u64>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl UdpPing {
    /// Starts pinging every `every` until [`UdpPing::finish`].
    pub fn start(pair: &NetnsPair, every: Duration) -> anyhow::Result<UdpPing> {
        let echo = in_namespace(&pair.server_ns(), || {
            UdpSocket::bind(SocketAddr::new(SERVER_IP, 0)).context("bind echo")
        })?;
        let echo_addr = echo.local_addr()?;
        let sock = in_namespace(&pair.client_ns(), || {
            UdpSocket::bind(SocketAddr::new(CLIENT_IP, 0)).context("bind ping")
        })?;
        sock.connect(echo_addr)?;
        // Short read timeouts: the loops check `stop`, and the pinger sends on time.
        echo.set_read_timeout(Some(Duration::from_millis(50)))?;
        sock.set_read_timeout(Some(Duration::from_millis(2)))?;
        let stop = Arc::new(AtomicBool::new(false));
        let rtts = Arc::new(Mutex::new(Vec::new()));
        let sent = Arc::new(Mutex::new(0u64));
        let mut threads = Vec::new();
        let st = stop.clone();
        threads.push(std::thread::spawn(move || {
            let mut buf = [0u8; 64];
            while !st.load(Ordering::Relaxed) {
                if let Ok((n, from)) = echo.recv_from(&mut buf) {
                    if let Err(e) = echo.send_to(&buf[..n], from) {
                        eprintln!("udp ping echo: send failed: {e}");
                    }
                }
            }
        }));
        let (st, r, sn) = (stop.clone(), rtts.clone(), sent.clone());
        threads.push(std::thread::spawn(move || {
            // Probe n carries n; a reply is matched to its send time, late ones included.
            let t0 = Instant::now();
            let mut sends: Vec<Duration> = Vec::new();
            let mut next = Instant::now();
            let mut buf = [0u8; 64];
            while !st.load(Ordering::Relaxed) {
                if Instant::now() >= next {
                    let n = sends.len() as u64;
                    sends.push(t0.elapsed());
                    if sock.send(&n.to_be_bytes()).is_ok() {
                        *sn.lock().expect("ping counter lock") += 1;
                    }
                    next += every;
                }
                if let Ok(8) = sock.recv(&mut buf) {
                    let n = u64::from_be_bytes(buf[..8].try_into().expect("8 bytes"));
                    if let Some(at) = sends.get(n as usize) {
                        r.lock()
                            .expect("ping rtt lock")
                            .push(t0.elapsed().saturating_sub(*at));
                    }
                }
            }
        }));
        Ok(UdpPing {
            stop,
            rtts,
            sent,
            threads,
        })
    }

    /// Stops; (probes sent, round-trip times of the replies).
    pub fn finish(mut self) -> (u64, Vec<Duration>) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            if t.join().is_err() {
                eprintln!("udp ping: a thread panicked");
            }
        }
        let sent = *self.sent.lock().expect("ping counter lock");
        let rtts = std::mem::take(&mut *self.rtts.lock().expect("ping rtt lock"));
        (sent, rtts)
    }
}

impl Drop for UdpPing {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Bytes per second of counter `i` of timed samples (e.g. [`FlowCounters::bytes`] every
/// 100 ms) while the flow sends: over the sampling intervals that lie
/// inside a transfer (the interval and both its neighbours saw the flow grow, so it was
/// sending at both ends), or None without such an interval. The runs of a cell follow
/// one another with gaps (process start, the server hashing the file per offer): a rate
/// from the first to the last growth would count those gaps as sending time.
pub fn rate_while_sending(samples: &[(Instant, Vec<u64>)], i: usize) -> Option<f64> {
    let grew = |k: usize| k >= 1 && k < samples.len() && samples[k].1[i] > samples[k - 1].1[i];
    let (mut bytes, mut secs) = (0u64, 0f64);
    for k in 2..samples.len().saturating_sub(1) {
        if grew(k - 1) && grew(k) && grew(k + 1) {
            bytes += samples[k].1[i] - samples[k - 1].1[i];
            secs += samples[k].0.duration_since(samples[k - 1].0).as_secs_f64();
        }
    }
    (secs > 0.0).then(|| bytes as f64 / secs)
}

/// Each value's share of the total (all zero when the total is).
pub fn shares(x: &[f64]) -> Vec<f64> {
    let total: f64 = x.iter().sum();
    x.iter()
        .map(|v| if total > 0.0 { v / total } else { 0.0 })
        .collect()
}

/// Jain's fairness index (Σx)² / (n·Σx²): 1 when all are equal, 1/n when one has all.
pub fn jain_index(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    if sq == 0.0 {
        return 0.0;
    }
    sum * sum / (x.len() as f64 * sq)
}

/// The `q`-quantile (0..=1, nearest rank) of `v`.
pub fn quantile(v: &[Duration], q: f64) -> Option<Duration> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort();
    let i = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1;
    Some(s[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tbf_counters() {
        let text = "qdisc tbf 8001: root refcnt 3 rate 100Mbit burst 15000b lat 8.8ms \n Sent 1234567 bytes 890 pkt (dropped 12, overlimits 40 requeues 0) \n backlog 0b 0p requeues 0\n";
        let s = QdiscStats::parse(text).expect("parsed");
        assert_eq!(
            s,
            QdiscStats {
                sent_bytes: 1234567,
                sent_packets: 890,
                dropped: 12
            }
        );
        let later = QdiscStats {
            sent_bytes: 1234667,
            sent_packets: 891,
            dropped: 15,
        };
        assert_eq!(later.since(&s).dropped, 3);
        assert_eq!(later.since(&s).sent_bytes, 100);
    }

    #[test]
    fn parses_udp_snmp() {
        let text = "Ip: Forwarding\nIp: 1\nUdp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\nUdp: 70 1 5 60 4 2 0 0 0\nUdpLite: InDatagrams NoPorts\nUdpLite: 0 0\n";
        let s = UdpSnmp::parse(text).expect("parsed");
        assert_eq!(
            s,
            UdpSnmp {
                in_datagrams: 70,
                rcvbuf_errors: 4,
                sndbuf_errors: 2
            }
        );
    }

    #[test]
    fn flow_counter_values_in_order() {
        let text = "table inet llmops_flows {\n chain in {\n  iifname \"veth-c\" ip saddr 10.203.0.1 udp sport 4000 counter packets 3 bytes 4260\n  iifname \"veth-c\" ip saddr 10.203.0.1 tcp sport 5000 counter packets 1 bytes 52\n }\n}\n";
        assert_eq!(counter_values(text, "bytes"), vec![4260, 52]);
        assert_eq!(counter_values(text, "packets"), vec![3, 1]);
    }

    #[test]
    fn fairness_arithmetic() {
        assert_eq!(jain_index(&[5.0, 5.0]), 1.0);
        assert_eq!(jain_index(&[10.0, 0.0]), 0.5);
        // (3+1)^2 / (2 * (9+1)) = 0.8
        assert!((jain_index(&[3.0, 1.0]) - 0.8).abs() < 1e-12);
        assert_eq!(shares(&[3.0, 1.0]), vec![0.75, 0.25]);
        assert_eq!(shares(&[0.0, 0.0]), vec![0.0, 0.0]);
    }

    #[test]
    fn queue_is_rate_times_delay() {
        // 100 Mbit/s for 10 ms = 125 000 bytes; 500 Mbit/s = 625 000.
        let b = Bottleneck::with_queue(100, Duration::from_millis(10));
        assert_eq!(b.limit_bytes, 125_000);
        assert_eq!(
            Bottleneck::with_queue(500, Duration::from_millis(10)).limit_bytes,
            625_000
        );
        assert_eq!(b.bytes_per_sec(), 12_500_000.0);
    }

    #[test]
    fn rate_while_sending_leaves_out_gaps_and_partial_intervals() {
        let t0 = Instant::now();
        let ms = |m: u64| t0 + Duration::from_millis(m);
        // Two runs of the flow (index 1; index 0 is another flow): 1000 bytes per 100 ms
        // inside each, partial intervals of 300 bytes at their edges, an idle gap of 500 ms.
        let mut v = Vec::new();
        let mut b = 0u64;
        let mut t = 0u64;
        let mut push = |add: u64, t: &mut u64, b: &mut u64| {
            *b += add;
            v.push((ms(*t), vec![7, *b]));
            *t += 100;
        };
        for add in [
            0, 0, 300, 1000, 1000, 1000, 300, 0, 0, 0, 0, 0, 300, 1000, 1000, 300, 0,
        ] {
            push(add, &mut t, &mut b);
        }
        let r = rate_while_sending(&v, 1).expect("a rate");
        // Interior intervals: 3 + 2 of 1000 bytes, 100 ms each.
        assert!((r - 10_000.0).abs() < 1e-6, "{r}");
        assert_eq!(rate_while_sending(&v, 0), None, "a flow that never grew");
        assert_eq!(rate_while_sending(&v[..4], 1), None, "no interior interval");
    }

    #[test]
    fn quantiles_nearest_rank() {
        let v: Vec<Duration> = (1..=10).map(Duration::from_millis).collect();
        assert_eq!(quantile(&v, 0.5), Some(Duration::from_millis(5)));
        assert_eq!(quantile(&v, 0.9), Some(Duration::from_millis(9)));
        assert_eq!(quantile(&v, 1.0), Some(Duration::from_millis(10)));
        assert_eq!(quantile(&[], 0.5), None);
    }
}
