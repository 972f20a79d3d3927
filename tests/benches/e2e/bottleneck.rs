//! The shared-bottleneck section of `make bench`: network namespaces joined through a `tbf`
//! drop-tail queue (`scripts/netns.sh rate`), each protocol alone (goodput, rate while
//! sending, queueing delay by UDP ping, queue drops vs RDT retransmissions), then RDT
//! sharing the bottleneck with one TCP and with one QUIC flow for 20 s (shares, Jain's
//! index, ping).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use llmops_tests::netns::{
    self, jain_index, quantile, rate_while_sending, shares, Bottleneck, Flow, FlowCounters,
    NetnsPair, QdiscStats, Transport, UdpPing,
};
use llmops_tests::{bin, ServerProc};

use super::{
    measure, metric, ms, rdt_transfers_ended, tui_get, wait_rdt_transfers_ended, QuicBench,
    QuicServer, Side, MIB,
};

/// DATA datagrams of a fresh 100 MiB RDT download: ceil(100 MiB / 1400).
const CHUNKS_100MIB: u64 = (100 * 1024 * 1024u64).div_ceil(1400);
/// Other datagrams the server sends the client per download on a path without random loss:
/// one ACCEPT and one FIN (repeated only if its FIN-ACK is lost).
const CONTROL_TO_CLIENT: u64 = 2;

/// Bottleneck rates, Mbit/s.
const RATES: [u32; 2] = [100, 500];
/// The queue holds this much time at the rate: one bandwidth-delay product of a 10 ms
/// RTT path (the veth itself adds tens of microseconds).
const QUEUE: Duration = Duration::from_millis(10);
/// How long two flows share the bottleneck.
const SHARE: Duration = Duration::from_secs(20);
const PING_EVERY: Duration = Duration::from_millis(50);

/// What to run: everything by default; for trials, `LLMOPS_BENCH_RATES=500` (Mbit/s, comma
/// separated), `LLMOPS_BENCH_PROTOS=rdt,quic` (rdt, cubic, reno, bbr, quic: the alone rows,
/// and the competitors of the shared ones), `LLMOPS_BENCH_SHARE=0` (no shared rows) and
/// `LLMOPS_BENCH_RUNS=5` (downloads per alone row, 3 by default).
struct Selection {
    rates: Vec<u32>,
    protos: Vec<Proto>,
    share: bool,
    runs: usize,
}

impl Selection {
    fn from_env() -> Selection {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        let rates = var("LLMOPS_BENCH_RATES")
            .map(|v| v.split(',').filter_map(|r| r.trim().parse().ok()).collect())
            .unwrap_or_else(|| RATES.to_vec());
        let all = [Proto::Rdt, TCP_CUBIC, TCP_RENO, TCP_BBR, Proto::Quic];
        let protos = match var("LLMOPS_BENCH_PROTOS") {
            Some(v) => all
                .into_iter()
                .filter(|p| v.split(',').any(|n| n.trim() == p.key()))
                .collect(),
            None => all.to_vec(),
        };
        Selection {
            rates,
            protos,
            share: var("LLMOPS_BENCH_SHARE").as_deref() != Some("0"),
            runs: var("LLMOPS_BENCH_RUNS")
                .and_then(|v| v.parse().ok())
                .unwrap_or(3),
        }
    }
}

/// The protocols measured at the bottleneck.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Proto {
    Rdt,
    /// nplt over TCP with this congestion control (set in both namespaces).
    Tcp(&'static str),
    Quic,
}

/// TCP competitors: loss-based (cubic, Linux's default; reno, always allowed in a
/// namespace) and model-based (bbr, this host's default).
const TCP_CUBIC: Proto = Proto::Tcp("cubic");
const TCP_RENO: Proto = Proto::Tcp("reno");
const TCP_BBR: Proto = Proto::Tcp("bbr");

impl Proto {
    /// Its name in `LLMOPS_BENCH_PROTOS`.
    fn key(self) -> &'static str {
        match self {
            Proto::Rdt => "rdt",
            Proto::Tcp(cc) => cc,
            Proto::Quic => "quic",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Proto::Rdt => "RDT",
            Proto::Tcp("cubic") => "TCP cubic (nplt)",
            Proto::Tcp("bbr") => "TCP bbr (nplt)",
            Proto::Tcp("reno") => "TCP reno (nplt)",
            Proto::Tcp(_) => "TCP (nplt)",
            Proto::Quic => "QUIC",
        }
    }

    /// Index of its flow counter (the order given to `FlowCounters::install`).
    fn counter(self) -> usize {
        match self {
            Proto::Rdt => 0,
            Proto::Tcp(_) => 1,
            Proto::Quic => 2,
        }
    }
}

/// The namespace pair with its servers and counters for one bottleneck rate.
struct Rig<'a> {
    pair: &'a NetnsPair,
    server: &'a ServerProc,
    quic: Option<&'a QuicServer>,
    counters: FlowCounters,
    out: &'a Path,
}

impl Rig<'_> {
    /// The download client of `p` for `file`, not yet started (output discarded: the bench
    /// kills it when the sharing window ends).
    fn command(&self, p: Proto, file: &Path, out: &Path) -> Option<Command> {
        let side = Side::Ns(self.pair);
        match p {
            Proto::Rdt | Proto::Tcp(_) => {
                let mut cmd = side.command(&bin("llmops-tui"));
                let mode = if p == Proto::Rdt { "rdt" } else { "nplt" };
                cmd.args([
                    "download",
                    "--server",
                    &self.server.addr.to_string(),
                    "--out",
                ])
                .arg(out)
                .args(["--mode", mode, "--force", "--json", "--token", netns::TOKEN])
                .arg(file)
                .env_remove("LLMOPS_SERVER")
                .env_remove("LLMOPS_AUTH_TOKEN");
                Some(cmd)
            }
            Proto::Quic => {
                let q = self.quic?;
                let ns = self.pair.client_ns();
                Some(q.get_command(Some(&ns), q.addr, file, out))
            }
        }
    }

    fn rdt_retx(&self) -> u64 {
        metric(
            self.server,
            Side::Ns(self.pair),
            "llmops_rdt_retransmissions_total",
        )
    }

    fn qdisc(&self) -> QdiscStats {
        self.pair.qdisc_stats().unwrap_or_default()
    }
}

/// Flow counter samples every 100 ms on a thread, to find the rate while a flow sends.
struct Sampler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    handle: std::thread::JoinHandle<Vec<(Instant, Vec<u64>)>>,
}

impl Sampler {
    fn start(counters: &FlowCounters) -> Sampler {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let st = stop.clone();
        let c = counters.clone();
        let handle = std::thread::spawn(move || {
            let mut v = Vec::new();
            while !st.load(std::sync::atomic::Ordering::Relaxed) {
                if let Ok(b) = c.bytes() {
                    v.push((Instant::now(), b));
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            v
        });
        Sampler { stop, handle }
    }

    fn finish(self) -> Vec<(Instant, Vec<u64>)> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.handle.join().unwrap_or_default()
    }
}

/// The earlier reading of the same samples, for comparison on stderr: from the first to
/// the last sample that saw the flow grow, gaps between runs included.
fn rate_first_to_last(samples: &[(Instant, Vec<u64>)], i: usize) -> Option<f64> {
    let grew: Vec<usize> = (1..samples.len())
        .filter(|&k| samples[k].1[i] > samples[k - 1].1[i])
        .collect();
    let (&a, &b) = (grew.first()?, grew.last()?);
    if b <= a {
        return None;
    }
    let dt = samples[b].0.duration_since(samples[a].0).as_secs_f64();
    Some((samples[b].1[i] - samples[a].1[i]) as f64 / dt)
}

fn ping_text(rtts: &[Duration], sent: u64) -> String {
    match (quantile(rtts, 0.5), quantile(rtts, 0.9)) {
        (Some(m), Some(p)) => format!("{:.2} / {:.2} ms ({} of {sent})", ms(m), ms(p), rtts.len()),
        _ => format!("no replies (of {sent})"),
    }
}

/// The queueing delay the flows add: the ping's median during the run minus its median
/// through the idle queue.
fn queueing_text(rtts: &[Duration], idle: Option<Duration>) -> String {
    match (quantile(rtts, 0.5), idle) {
        (Some(m), Some(i)) => format!("{:.2} ms", ms(m.saturating_sub(i))),
        _ => "-".into(),
    }
}

/// The bottleneck tables. `f100` is the 100 MiB file; `big` a file large enough that no
/// flow finishes within the sharing window at the highest rate.
pub(super) fn bottleneck_rows(
    dir: &Path,
    docs: &str,
    f100: &Path,
    big: &Path,
    out: &Path,
    quic_built: bool,
) -> (String, String) {
    let mut bars: Vec<Bar> = Vec::new();
    let mut alone = String::from(
        "| bottleneck | protocol | goodput (wall, median of the runs) | IP rate while sending | of the bottleneck | ping median / p90 (replies) | queueing delay added | queue drops/run | RDT retx/run | RDT packets lost/run | retx ÷ lost |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut shared = String::from(
        "| bottleneck | RDT with | RDT | other | RDT share | other share | Jain's index | ping median / p90 (replies) | queueing delay added | queue drops |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut idle = Vec::new();
    let sel = Selection::from_env();
    let runs_alone = sel.runs;
    for &mbit in &sel.rates {
        let b = Bottleneck::with_queue(mbit, QUEUE);
        let pair = NetnsPair::create(0).expect("network namespaces (scripts/netns.sh)");
        // gso_max_segs stays 1 (as made): bursts are cut into packets before they cross
        // the veth, so the client's counters count single packets.
        pair.set_bottleneck(b)
            .expect("tbf bottleneck (scripts/netns.sh rate)");
        let mut args = vec!["--docs", docs];
        if trace_enabled() {
            args.extend(["--log-level", "info,llmops_server::net::rdt=debug"]);
        }
        let server = netns::start_server(&pair, &args).expect("server in the namespace");
        let listen = format!("{}:0", netns::SERVER_IP);
        let quic = quic_built.then(|| {
            QuicServer::start_on(Side::Ns(&pair), &listen, dir)
                .expect("quic server in the namespace")
        });
        let mut flows = vec![
            Flow {
                transport: Transport::Udp,
                server_port: server.rdt_addr.expect("rdt addr").port(),
            },
            Flow {
                transport: Transport::Tcp,
                server_port: server.addr.port(),
            },
        ];
        if let Some(q) = &quic {
            flows.push(Flow {
                transport: Transport::Udp,
                server_port: q.addr.port(),
            });
        }
        let counters = FlowCounters::install(&pair, &flows).expect("flow counters");
        let rig = Rig {
            pair: &pair,
            server: &server,
            quic: quic.as_ref(),
            counters,
            out,
        };
        let label = format!("{mbit} Mbit/s, {} KB queue", b.limit_bytes / 1000);

        // Idle round trip through the empty queue.
        let ping = UdpPing::start(&pair, PING_EVERY).expect("udp ping");
        std::thread::sleep(Duration::from_secs(2));
        let (sent, rtts) = ping.finish();
        idle.push(format!("{mbit} Mbit/s: {}", ping_text(&rtts, sent)));
        let idle_median = quantile(&rtts, 0.5);

        // (a) each protocol alone: 3 downloads of 100 MiB.
        for &p in &sel.protos {
            if let Proto::Tcp(cc) = p {
                if let Err(e) = pair.set_tcp_cc(cc) {
                    alone.push_str(&format!(
                        "| {label} | {} | not run: {e:#} | | | | | | | | |\n",
                        p.label()
                    ));
                    continue;
                }
            }
            if p == Proto::Quic && rig.quic.is_none() {
                alone.push_str(&format!(
                    "| {label} | QUIC | not built (scripts/bench.sh builds bench/quic) | | | | | | | | |\n"
                ));
                continue;
            }
            let (q0, r0) = (rig.qdisc(), rig.rdt_retx());
            let e0 = rdt_transfers_ended(&server, Side::Ns(&pair));
            let pk0 = rig.counters.packets().unwrap_or_default();
            let sampler = Sampler::start(&rig.counters);
            let ping = UdpPing::start(&pair, PING_EVERY).expect("udp ping");
            let side = Side::Ns(&pair);
            let cell = measure(100 * MIB, runs_alone, |cap| match p {
                Proto::Rdt => tui_get(side, server.addr, f100, "rdt", out, cap),
                Proto::Tcp(_) => tui_get(side, server.addr, f100, "nplt", out, cap),
                Proto::Quic => {
                    let q = rig.quic.expect("checked above");
                    q.get(side, q.addr, f100, out, cap)
                }
            });
            let (sent, rtts) = ping.finish();
            let samples = sampler.finish();
            if p == Proto::Rdt {
                // The server counts a transfer's retransmissions when it ends (FIN exchange).
                let target = e0 + cell.attempts() as u64;
                wait_rdt_transfers_ended(&server, Side::Ns(&pair), target);
            } else {
                std::thread::sleep(Duration::from_millis(100));
            }
            let (q1, r1) = (rig.qdisc(), rig.rdt_retx());
            let pk1 = rig.counters.packets().unwrap_or_default();
            let runs = cell.attempts().max(1) as u64;
            let drops = q1.since(&q0).dropped;
            let rate = rate_while_sending(&samples, p.counter());
            if let (Some(r), Some(span)) = (rate, rate_first_to_last(&samples, p.counter())) {
                eprintln!(
                    "bottleneck {label} {} alone: {:.1}% of the rate while sending, {:.1}% first to last growth",
                    p.label(),
                    100.0 * r / b.bytes_per_sec(),
                    100.0 * span / b.bytes_per_sec()
                );
            }
            if let Some(r) = rate {
                bars.push(Bar {
                    group: format!("{mbit} Mbit/s"),
                    label: format!("{} alone", p.label()),
                    value: r / b.bytes_per_sec(),
                });
            }
            let (rate_text, pct) = match rate {
                Some(r) => (
                    format!("{:.1} Mbit/s", r * 8.0 / 1e6),
                    format!("{:.1}%", 100.0 * r / b.bytes_per_sec()),
                ),
                None => ("-".into(), "-".into()),
            };
            let retx = if p == Proto::Rdt {
                let r = r1.saturating_sub(r0);
                // Only when every run finished: a killed one's counters are not all in.
                let all_done = cell.median.is_some() && cell.runs as u64 == runs;
                let received = pk1
                    .get(p.counter())
                    .zip(pk0.get(p.counter()))
                    .map(|(a, b)| a - b);
                match received {
                    Some(got) if all_done => {
                        let sent = (CHUNKS_100MIB + CONTROL_TO_CLIENT) * runs + r;
                        let lost = sent.saturating_sub(got);
                        let ratio = if lost > 0 {
                            format!("{:.2}", r as f64 / lost as f64)
                        } else {
                            "-".into()
                        };
                        format!("{} | {} | {ratio}", r / runs, lost / runs)
                    }
                    _ => format!("{} | - | -", r / runs),
                }
            } else {
                "- | - | -".into()
            };
            alone.push_str(&format!(
                "| {label} | {} | {} | {rate_text} | {pct} | {} | {} | {} | {retx} |\n",
                p.label(),
                cell.text(runs_alone),
                ping_text(&rtts, sent),
                queueing_text(&rtts, idle_median),
                drops / runs,
            ));
            eprintln!(
                "bottleneck {label} {} alone: {} rate {rate_text} ({pct}) ping {} drops/run {} retx/run {retx}",
                p.label(),
                cell.text(runs_alone),
                ping_text(&rtts, sent),
                drops / runs
            );
        }

        // (b), (c) RDT with one TCP flow, then with one QUIC flow, for 20 s.
        let others = sel.protos.iter().filter(|p| sel.share && **p != Proto::Rdt);
        for &other in others {
            if let Proto::Tcp(cc) = other {
                if let Err(e) = pair.set_tcp_cc(cc) {
                    shared.push_str(&format!(
                        "| {label} | {} | not run: {e:#} | | | | | | | |\n",
                        other.label()
                    ));
                    continue;
                }
            }
            let row = share_row(&rig, other, big, idle_median);
            match row {
                Some((r, sh)) => {
                    if let Some([a, o]) = sh {
                        for (label, value) in [
                            (format!("RDT with {}", other.label()), a),
                            (format!("{} with RDT", other.label()), o),
                        ] {
                            bars.push(Bar {
                                group: format!("{mbit} Mbit/s"),
                                label,
                                value,
                            });
                        }
                    }
                    shared.push_str(&format!("| {label} | {r}\n"));
                    eprintln!("bottleneck {label} RDT + {}: {r}", other.label());
                }
                None => shared.push_str(&format!(
                    "| {label} | {} | not built (scripts/bench.sh builds bench/quic) | | | | | | | |\n",
                    other.label()
                )),
            }
        }
        drop(quic);
        drop(server);
    }
    let text = format!(
        "\n### Shared bottleneck: `tbf` between network namespaces\n\n\
         `scripts/netns.sh rate`: the namespace pair of the table above, without nftables loss, the veths still cutting GSO \
         bursts into single packets (so the counters count packets), with a router namespace between the two whose \
         egress towards the client (the direction downloads flow) is a `tc qdisc tbf`: \
         rate R, burst 1 ms of R, a drop-tail queue of R x {} ms (one bandwidth-delay product of a {} ms RTT path; \
         the veths add no delay, so the queue is the only delay there is). The queue sits in a router, not in the \
         server's own qdisc: there TCP Small Queues let a TCP socket keep only about 1 ms of its rate queued, so \
         TCP throttled itself to 2-3 packets in flight behind any standing queue (cwnd 16-26 unused, 0.04-0.11 \
         shares against RDT in earlier runs) while UDP senders are not held back; a routed hop frees the packets \
         before they queue, as any remote bottleneck does. The rate counts whole frames (Ethernet \
         header included); RDT's 1400-byte chunks in 1462-byte IP packets put at most 94.8% of it in file bytes. \
         Ping: a UDP probe every {} ms from the client namespace to an echo socket in the server namespace; the \
         reply waits in the bottleneck's queue, so the median minus the idle median is the queueing delay a \
         transfer adds (the queueing-delay column). Idle: {}. IP rate while sending: nftables byte counters per flow in the client namespace, \
         sampled every 100 ms, over the 100 ms intervals inside a transfer (the interval and both its neighbours \
         saw the flow grow: the gaps between the runs and the partial intervals at each run's start and end \
         are left out). Queue drops: the tbf \
         qdisc's `dropped` counter (single packets: the server's veth cut the bursts before the router). RDT packets lost: what the server sent (its chunks, its retransmissions from \
         `llmops_rdt_retransmissions_total`, one ACCEPT and one FIN per run) minus the packets the client's flow \
         counter received; exact per packet, and what retransmissions should match.\n\n\
         TCP runs with cubic (the Linux default), reno and bbr (this host's default, which new namespaces \
         inherit), set with `scripts/netns.sh cc` in both namespaces; a namespace may only pick an \
         algorithm in the host's `net.ipv4.tcp_allowed_congestion_control`, so the script adds a missing one \
         there (and loads its module); if that fails, the row says why it did not run. \
         Each protocol alone, 100 MiB:\n\n{alone}\n\
         RDT sharing the bottleneck with one other flow: both downloads of a {} MiB file start together; once both \
         have received data, the flow counters are read, and again {} s later, when both clients are killed (the \
         files are not completed; `tests/tests/netns.rs` checks completed shared transfers byte for byte). Shares \
         and rates are of the bytes each flow received in those {} s; queue drops are for the same window, all flows \
         together (the server counts RDT's retransmissions when a transfer ends, which a killed one does only at \
         its idle timeout, so they are not shown here; the alone table has them).\n\n{shared}",
        QUEUE.as_millis(),
        QUEUE.as_millis(),
        PING_EVERY.as_millis(),
        idle.join("; "),
        std::fs::metadata(big).map(|m| m.len() as usize / MIB).unwrap_or(0),
        SHARE.as_secs(),
        SHARE.as_secs(),
    );
    (text, svg_bars(&bars))
}

/// One bar of the bottleneck chart: a fraction of the bottleneck (alone) or a share.
struct Bar {
    group: String,
    label: String,
    value: f64,
}

/// A plain SVG bar chart (no dependency) of the bottleneck results, grouped by rate:
/// each protocol's rate alone as a fraction of the bottleneck (90% line), then the shares
/// of RDT and the other flow (1/3 and 2/3 lines).
fn svg_bars(bars: &[Bar]) -> String {
    let (left, top, ph, bw, gap) = (60.0, 50.0, 260.0, 26.0, 30.0);
    let mut groups: Vec<&str> = Vec::new();
    for b in bars {
        if !groups.contains(&b.group.as_str()) {
            groups.push(&b.group);
        }
    }
    let width =
        left + bars.len() as f64 * (bw + 4.0) + groups.len().saturating_sub(1) as f64 * gap + 40.0;
    let height = top + ph + 170.0;
    let y = |v: f64| top + ph * (1.0 - v.clamp(0.0, 1.0));
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"24\" font-size=\"14\">tbf bottleneck: rate alone (fraction of the bottleneck) and shares when two flows compete</text>\n"
    );
    for (v, label) in [
        (0.0, "0"),
        (1.0 / 3.0, "1/3"),
        (2.0 / 3.0, "2/3"),
        (0.9, "90%"),
        (1.0, "100%"),
    ] {
        let yv = y(v);
        o.push_str(&format!(
            "<line x1=\"{left}\" x2=\"{:.0}\" y1=\"{yv:.1}\" y2=\"{yv:.1}\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>\n\
             <text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>\n",
            width - 20.0,
            left - 6.0,
            yv + 4.0,
        ));
    }
    let mut x = left + 4.0;
    let mut last_group: Option<&str> = None;
    let mut group_start = x;
    for b in bars {
        if last_group.is_some_and(|g| g != b.group) {
            o.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"middle\" font-size=\"13\">{}</text>\n",
                (group_start + x) / 2.0,
                top + ph + 160.0,
                last_group.unwrap_or_default()
            ));
            x += gap;
            group_start = x;
        }
        last_group = Some(&b.group);
        let color = if b.label.starts_with("RDT") {
            "#d62728"
        } else if b.label.starts_with("TCP") {
            "#1f77b4"
        } else {
            "#2ca02c"
        };
        o.push_str(&format!(
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bw}\" height=\"{:.1}\" fill=\"{color}\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"9\">{:.0}%</text>\n\
             <text transform=\"translate({:.1},{:.0}) rotate(60)\" font-size=\"10\">{}</text>\n",
            y(b.value),
            top + ph - y(b.value),
            x + bw / 2.0,
            y(b.value) - 3.0,
            b.value * 100.0,
            x + bw / 2.0 - 3.0,
            top + ph + 8.0,
            b.label
        ));
        x += bw + 4.0;
    }
    if let Some(g) = last_group {
        o.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"middle\" font-size=\"13\">{g}</text>\n",
            (group_start + x) / 2.0,
            top + ph + 160.0
        ));
    }
    o.push_str("</svg>\n");
    o
}

/// The size the sharing file needs: the highest rate for the window and then some, so
/// no flow finishes inside it.
pub(super) fn share_file_size() -> usize {
    let top = RATES.iter().copied().max().unwrap_or(100);
    let bytes = f64::from(top) * 1e6 / 8.0 * (SHARE.as_secs_f64() + 4.0);
    (bytes as usize).div_ceil(MIB) * MIB
}

fn kill(mut c: Child) -> bool {
    let finished = matches!(c.try_wait(), Ok(Some(_)));
    if !finished {
        if let Err(e) = c.kill() {
            eprintln!("bottleneck: kill client: {e}");
        }
    }
    if let Err(e) = c.wait() {
        eprintln!("bottleneck: wait for client: {e}");
    }
    finished
}

/// RDT and `other` sharing for [`SHARE`]; the row's cells after the bottleneck label, or
/// None when `other` is not available.
fn share_row(
    rig: &Rig,
    other: Proto,
    big: &Path,
    idle: Option<Duration>,
) -> Option<(String, Option<[f64; 2]>)> {
    let o_rdt = tempfile::tempdir_in(rig.out).expect("tempdir");
    let o_other = tempfile::tempdir_in(rig.out).expect("tempdir");
    let mut other_cmd = rig.command(other, big, o_other.path())?;
    let mut rdt_cmd = rig.command(Proto::Rdt, big, o_rdt.path())?;
    let quiet = |c: &mut Command| {
        c.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
    };
    quiet(&mut rdt_cmd);
    quiet(&mut other_cmd);
    let (ri, oi) = (Proto::Rdt.counter(), other.counter());
    let rdt = rdt_cmd.spawn().expect("spawn the RDT client");
    let oth = other_cmd.spawn().expect("spawn the other client");
    // Both start by hashing the file on the server; wait until both receive data.
    let begin = rig.counters.bytes().unwrap_or_default();
    let deadline = Instant::now() + Duration::from_secs(120);
    let start = loop {
        let b = rig.counters.bytes().unwrap_or_default();
        if b.len() > oi && b[ri] > begin[ri] + 64 * 1024 && b[oi] > begin[oi] + 64 * 1024 {
            break Some(b);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let Some(start) = start else {
        kill(rdt);
        kill(oth);
        return Some((
            format!(
                "{} | both flows did not start within 120 s | | | | | | | |",
                other.label()
            ),
            None,
        ));
    };
    let q0 = rig.qdisc();
    let ping = UdpPing::start(rig.pair, PING_EVERY).expect("udp ping");
    let t0 = Instant::now();
    let tcp_trace = trace_enabled().then(|| TcpTrace::start(rig.pair));
    std::thread::sleep(SHARE);
    if let Some(t) = tcp_trace {
        t.finish();
    }
    let end = rig.counters.bytes().unwrap_or_default();
    let secs = t0.elapsed().as_secs_f64();
    let (sent, rtts) = ping.finish();
    let finished = [kill(rdt), kill(oth)];
    let q1 = rig.qdisc();
    let got = [
        end[ri].saturating_sub(start[ri]) as f64,
        end[oi].saturating_sub(start[oi]) as f64,
    ];
    let sh = shares(&got);
    let note = if finished.iter().any(|f| *f) {
        " (a client exited inside the window)"
    } else {
        ""
    };
    let text = format!(
        "{} | {:.1} Mbit/s | {:.1} Mbit/s | {:.2} | {:.2} | {:.3}{note} | {} | {} | {} |",
        other.label(),
        got[0] * 8.0 / 1e6 / secs,
        got[1] * 8.0 / 1e6 / secs,
        sh[0],
        sh[1],
        jain_index(&got),
        ping_text(&rtts, sent),
        queueing_text(&rtts, idle),
        q1.since(&q0).dropped,
    );
    if trace_enabled() {
        print_rdt_trace(rig.server);
    }
    Some((text, Some([sh[0], sh[1]])))
}

/// `LLMOPS_BENCH_TRACE=1`: the server logs RDT's controller (`rdt cc` lines, printed after
/// each shared row) and the TCP competitor's `ss -tin` is printed every second of the
/// sharing window (bbr's bandwidth and min-RTT estimates, cwnd, pacing rate).
fn trace_enabled() -> bool {
    std::env::var("LLMOPS_BENCH_TRACE").as_deref() == Ok("1")
}

/// Prints the server's `rdt cc` / `rdt transfer end` lines logged since the last call.
fn print_rdt_trace(server: &ServerProc) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static SEEN: AtomicUsize = AtomicUsize::new(0);
    let logs = server.data_dir.path().join("logs");
    let mut lines = Vec::new();
    if let Ok(rd) = std::fs::read_dir(&logs) {
        for e in rd.flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            lines.extend(
                text.lines()
                    .filter(|l| l.contains("rdt cc") || l.contains("rdt transfer end"))
                    .map(str::to_owned),
            );
        }
    }
    let from = SEEN.swap(lines.len(), Ordering::Relaxed);
    for l in lines.iter().skip(from) {
        println!("trace {l}");
    }
}

/// `ss -tin` in the server's namespace once a second, printed, until `finish`.
struct TcpTrace {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl TcpTrace {
    fn start(pair: &NetnsPair) -> TcpTrace {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let ns = pair.server_ns();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let t0 = Instant::now();
            while !flag.load(Ordering::Relaxed) {
                if let Ok(o) = Command::new("ip")
                    .args(["netns", "exec", &ns, "ss", "-tinH", "state", "established"])
                    .output()
                {
                    let text = String::from_utf8_lossy(&o.stdout);
                    for l in text.lines().filter(|l| l.contains("cwnd")) {
                        println!("trace ss {:.1}s {}", t0.elapsed().as_secs_f64(), l.trim());
                    }
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        });
        TcpTrace { stop, thread }
    }

    fn finish(self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if self.thread.join().is_err() {
            eprintln!("bottleneck: the ss trace thread panicked");
        }
    }
}
