//! `make bench`: end-to-end timings of the real release binaries, medians of repeated runs
//! measured side by side in one process: uploads and chat turns on loopback, then downloads
//! (RDT, the TCP fallbacks and QUIC from `bench/quic`) on loopback, through the UDP
//! impairment relay and through nftables loss in network namespaces. Writes its two
//! sections of docs/benchmarks.md (`e2e`, `downloads`: `llmops_common::bench_doc`, every
//! other section kept) and the goodput chart.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use llmops_common::bench_doc;
use llmops_tests::netns::{self, NetnsPair, NsSide, QuicServer};
use llmops_tests::relay::{Impairment, Relay};
use llmops_tests::{bin, http_get, run_tui, ExtConn, ServerProc};
use protocol::*;
use rand::{RngCore, SeedableRng};

#[path = "e2e/bottleneck.rs"]
mod bottleneck;
#[path = "e2e/netns_only.rs"]
mod netns_only;
#[path = "e2e/relay.rs"]
mod relay;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn upload(c: &mut ExtConn, name: &str, body: &[u8]) -> FileInfo {
    let rid = c.next_id();
    c.send(&Message::UploadStart(UploadStart {
        request_id: rid,
        filename: name.into(),
        size: body.len() as u64,
        sha256: None,
        result_on_save: false,
    }))
    .expect("send");
    for chunk in body.chunks(64 * 1024 - 1) {
        c.send(&Message::UploadData(Raw(bytes::Bytes::copy_from_slice(
            chunk,
        ))))
        .expect("send");
    }
    let msgs = c
        .recv_until(|m| matches!(m, Message::UploadResult(_) | Message::Error(_)))
        .expect("reply");
    match msgs.last() {
        Some(Message::UploadResult(r)) => r.file.clone(),
        other => panic!("upload failed: {other:?}"),
    }
}

fn text_file(bytes: usize) -> Vec<u8> {
    let mut s = String::with_capacity(bytes + 100);
    let mut i = 0u64;
    while s.len() < bytes {
        s.push_str(&format!(
            "2026-11-02 08:{:02}:{:02} INFO request {i} served in {} ms 请求完成\n",
            (i / 60) % 60,
            i % 60,
            i % 997
        ));
        i += 1;
    }
    s.truncate(bytes);
    // Keep the cut on a char boundary and the file pure text.
    while !s.is_char_boundary(s.len()) {
        s.pop();
    }
    s.into_bytes()
}

/// One chat turn, from sending to STREAM_END.
fn timed_turn(c: &mut ExtConn, text: &str) -> Duration {
    let rid = c.next_id();
    let t = Instant::now();
    c.send(&Message::Chat(ChatSend {
        request_id: rid,
        text: text.into(),
        file_ids: vec![],
        action: None,
    }))
    .expect("send");
    c.recv_until(|m| matches!(m, Message::StreamEnd(e) if e.request_id == rid))
        .expect("turn");
    t.elapsed()
}

fn main() {
    // `LLMOPS_BENCH_ONLY=bottleneck`: only the shared-bottleneck section, printed (not
    // written to docs/), to try it alone.
    if std::env::var("LLMOPS_BENCH_ONLY").as_deref() == Ok("bottleneck") {
        bottleneck_only();
        return;
    }
    // `LLMOPS_BENCH_ONLY=netns`: only RDT's namespace rows, printed.
    if std::env::var("LLMOPS_BENCH_ONLY").as_deref() == Ok("netns") {
        netns_only::netns_only();
        return;
    }
    // `LLMOPS_BENCH_ONLY=relay`: only the relay rows without loss, printed.
    if std::env::var("LLMOPS_BENCH_ONLY").as_deref() == Ok("relay") {
        relay::relay_only();
        return;
    }
    let runs = 7;
    let server = ServerProc::start().expect("server (build with `cargo build --release --bins`)");
    let addr = server.addr.to_string();
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let body = text_file(5 * 1024 * 1024);

    let mut up = Vec::new();
    let mut last = None;
    for i in 0..runs {
        let t = Instant::now();
        last = Some(upload(&mut c, &format!("big{i}.log"), &body));
        up.push(t.elapsed());
    }
    let f = last.expect("one upload");

    let out = tempfile::tempdir().expect("tempdir");
    let sid = c.session_id();
    let mut down = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let (code, o, e) = run_tui(&[
            "download",
            "--server",
            &addr,
            "--session",
            &sid,
            "--force",
            "--out",
            out.path().to_str().expect("utf8"),
            "--mode",
            "nplt",
            &f.file_id,
        ])
        .expect("run");
        assert_eq!(code, 0, "{o} {e}");
        down.push(t.elapsed());
    }

    let mut turns = Vec::new();
    for _ in 0..(runs * 3) {
        turns.push(timed_turn(&mut c, "CPU使用率是多少？"));
    }

    // Nothing blocks the runtime: while another session runs a 5 s command (`tail -f`,
    // killed by the executor's timeout), this session's turns keep completing.
    let mut busy = ExtConn::connect(server.addr, None, None).expect("second session");
    upload(&mut busy, "follow.log", b"2026-11-02 INFO one line\n");
    let busy_rid = busy.next_id();
    busy.send(&Message::Chat(ChatSend {
        request_id: busy_rid,
        text: "tail -f follow.log".into(),
        file_ids: vec![],
        action: None,
    }))
    .expect("send");
    // Wait until the command is really running before measuring.
    busy.recv_until(|m| {
        matches!(
            m,
            Message::AgentEvent(AgentEvent {
                event: AgentEventKind::ToolCall { .. },
                ..
            })
        )
    })
    .expect("tool call");
    let cmd_started = Instant::now();
    let mut during = Vec::new();
    while cmd_started.elapsed() < Duration::from_secs(4) {
        during.push(timed_turn(&mut c, "CPU使用率是多少？"));
    }
    // `tail -f` is a live follow now (it runs up to its cap): the operator stops it, as at a
    // terminal, and its turn ends.
    busy.send(&Message::Cancel(Cancel {
        request_id: Some(busy_rid),
    }))
    .expect("cancel");
    busy.recv_until(|m| matches!(m, Message::StreamEnd(e) if e.request_id == busy_rid))
        .expect("the long command's turn ends");
    let cmd_secs = cmd_started.elapsed().as_secs_f64();
    let during_n = during.len();
    let during_max = during.iter().max().copied().unwrap_or_default();
    let during_med = median(during);

    let mb = body.len() as f64 / (1024.0 * 1024.0);
    let (u, d, t) = (median(up), median(down), median(turns));
    let report = format!(
        "Release binaries, {runs} runs each ({} for turns), medians, one server process, measured side by side in one run.\n\n\
         | what | median | throughput |\n|---|---|---|\n\
         | upload {mb:.1} MiB text file (64 KiB frames, sha256 while receiving, validate, atomic rename, SQLite record) | {:.1} ms | {:.0} MiB/s |\n\
         | download the same file, `nplt` mode, via `llmops-tui download` (process start, handshake, offer, verify sha256, rename) | {:.1} ms | {:.0} MiB/s |\n\
         | chat turn \"CPU使用率是多少？\" (offline planner, sys_monitor, streamed answer, history write) | {:.1} ms | |\n\
         | the same turn while another session follows a log live (`tail -f`, stopped by a cancel after {cmd_secs:.1} s): {during_n} turns | {:.1} ms (max {:.1} ms) | |\n",
        runs * 3,
        ms(u), mb / u.as_secs_f64(),
        ms(d), mb / d.as_secs_f64(),
        ms(t),
        ms(during_med), ms(during_max),
    );
    let (downloads, chart, bottleneck_chart) = downloads_bench();
    println!("{report}\n{downloads}");
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    let path = docs.join("benchmarks.md");
    let command = "cargo bench -p llmops-tests --bench e2e";
    for (name, title, body) in [
        ("e2e", "End-to-end on loopback", report.as_str()),
        (
            "downloads",
            "Downloads: RDT vs TCP (nplt, http) vs QUIC",
            downloads.as_str(),
        ),
    ] {
        let s = bench_doc::Section {
            name,
            title,
            command,
            body,
        };
        bench_doc::write(&path, &s).expect("write docs/benchmarks.md");
    }
    std::fs::write(docs.join("benchmarks-goodput.svg"), chart).expect("write the chart");
    if let Some(svg) = bottleneck_chart {
        std::fs::write(docs.join("benchmarks-bottleneck.svg"), svg)
            .expect("write the bottleneck chart");
    }
    eprintln!("wrote {}", path.display());
}

/// The shared-bottleneck section alone, printed.
fn bottleneck_only() {
    if let Some(why) = netns::unavailable() {
        eprintln!("bottleneck rows skipped: {why}");
        return;
    }
    let docs = tempfile::tempdir().expect("tempdir");
    let out = tempfile::tempdir().expect("tempdir");
    let f100 = docs.path().join("hundred.bin");
    random_file(&f100, 100 * MIB, 2);
    let big = docs.path().join("share.bin");
    random_file(&big, bottleneck::share_file_size(), 3);
    let d = docs.path().to_str().expect("utf8");
    let quic_built = bin("quic-bench").is_file();
    let (text, svg) =
        bottleneck::bottleneck_rows(docs.path(), d, &f100, &big, out.path(), quic_built);
    println!("{text}");
    // A trial run: the chart goes to the temp dir, not into docs/.
    let chart = std::env::temp_dir().join("llmops-benchmarks-bottleneck.svg");
    match std::fs::write(&chart, svg) {
        Ok(()) => eprintln!("bottleneck chart: {}", chart.display()),
        Err(e) => eprintln!("write {}: {e}", chart.display()),
    }
}

/// Writes `size` seeded random bytes (incompressible, like real binaries) to `path`.
fn random_file(path: &std::path::Path, size: usize, seed: u64) {
    use std::io::Write;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    let mut buf = vec![0u8; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(buf.len());
        rng.fill_bytes(&mut buf[..n]);
        f.write_all(&buf[..n]).expect("write");
        left -= n;
    }
    f.flush().expect("flush");
}

/// Hang guards (not measurements): a transfer still running after this is killed and its
/// cell reported as "did not finish", so a protocol that crawls under heavy loss cannot
/// stall the bench. A run slower than `LONG_RUN` ends that cell's repetitions (median of
/// fewer runs, said in the table) to keep `make bench` within minutes.
const CAP_10: Duration = Duration::from_secs(60);
const CAP_100: Duration = Duration::from_secs(90);
const LONG_RUN: Duration = Duration::from_secs(15);

const MIB: usize = 1024 * 1024;

fn mibps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / MIB as f64 / d.as_secs_f64()
}

/// One table cell: the median of the runs that finished, or a run that hit the cap.
#[derive(Clone, Copy)]
struct Cell {
    size: usize,
    median: Option<Duration>,
    runs: usize,
    cap: Duration,
    /// RDT only: server retransmissions per run.
    retx: Option<u64>,
    /// Not run: the same protocol did not finish at a lower loss on this path.
    skipped: bool,
    /// The last run failed (exited non-zero) with this message.
    failed: Option<&'static str>,
}

impl Cell {
    fn goodput(&self) -> Option<f64> {
        self.median.map(|m| mibps(self.size, m))
    }

    /// "83.2 MiB/s (121 ms)", with the run count when it is not the planned one.
    fn text(&self, planned: usize) -> String {
        if self.skipped {
            return "not run (did not finish at a lower loss)".into();
        }
        if let Some(m) = self.failed {
            return format!("failed after {} good run(s): {m}", self.runs);
        }
        match self.median {
            Some(m) => {
                let runs = if self.runs == planned {
                    String::new()
                } else {
                    format!(
                        ", {} run{}",
                        self.runs,
                        if self.runs == 1 { "" } else { "s" }
                    )
                };
                format!("{:.1} MiB/s ({:.0} ms{runs})", mibps(self.size, m), ms(m))
            }
            None => format!(
                "did not finish in {} s (< {:.2} MiB/s)",
                self.cap.as_secs(),
                mibps(self.size, self.cap)
            ),
        }
    }

    /// Transfers started, the killed one included.
    fn attempts(&self) -> usize {
        self.runs + usize::from(self.median.is_none() && !self.skipped)
    }

    fn retx_text(&self) -> String {
        self.retx
            .map(|r| r.to_string())
            .unwrap_or_else(|| "-".into())
    }
}

/// Runs `one` up to `runs` times (fewer after a long run, none after one hit the cap).
fn measure(
    size: usize,
    runs: usize,
    mut one: impl FnMut(Duration) -> Result<Duration, Stop>,
) -> Cell {
    let cap = if size > 10 * MIB { CAP_100 } else { CAP_10 };
    let mut times = Vec::new();
    for _ in 0..runs {
        match one(cap) {
            Ok(d) => {
                times.push(d);
                if d > LONG_RUN {
                    break;
                }
            }
            Err(stop) => {
                return Cell {
                    size,
                    median: None,
                    runs: times.len(),
                    cap,
                    retx: None,
                    skipped: false,
                    // Leaked so Cell stays Copy; a bench process has a handful at most.
                    failed: match stop {
                        Stop::Timeout => None,
                        Stop::Failed(m) => Some(&*Box::leak(m.into_boxed_str())),
                    },
                };
            }
        }
    }
    Cell {
        size,
        runs: times.len(),
        median: Some(median(times)),
        cap,
        retx: None,
        skipped: false,
        failed: None,
    }
}

/// Measures with `f` unless an earlier (lower-loss) cell of the same series did not
/// finish; more loss will not make it finish, and skipping keeps the bench short.
fn unless_dnf(dnf: &mut bool, size: usize, f: impl FnOnce() -> Cell) -> Cell {
    if *dnf {
        return Cell {
            size,
            median: None,
            runs: 0,
            cap: Duration::ZERO,
            retx: None,
            skipped: true,
            failed: None,
        };
    }
    let c = f();
    *dnf = c.median.is_none();
    c
}

/// Runs a download command; its wall time, or None when the hang guard killed it. Panics
/// when it fails any other way: every measured transfer must have verified its file.
fn timed(cmd: Command, cap: Duration, what: &str) -> Result<(Duration, String), Stop> {
    let t = Instant::now();
    let (code, out, err) = netns::run_with_timeout(cmd, cap).expect("spawn");
    let d = t.elapsed();
    if code == -1 && d >= cap {
        eprintln!("{what}: killed after {} s", cap.as_secs());
        return Err(Stop::Timeout);
    }
    if code != 0 {
        // A transfer that gives up (e.g. TCP under heavy loss) is a result, not a bench bug.
        eprintln!("{what} failed (exit {code}): {out} {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_default();
        let msg = v["error"]
            .as_str()
            .map(str::to_string)
            .or_else(|| err.lines().last().map(str::to_string))
            .unwrap_or_else(|| format!("exit {code}"));
        return Err(Stop::Failed(msg));
    }
    Ok((d, out))
}

/// Why a measured transfer produced no time.
#[derive(Debug)]
enum Stop {
    /// The hang guard killed it.
    Timeout,
    /// It exited non-zero with this message.
    Failed(String),
}

/// Where a download runs: the bench's own namespace (loopback, relay) or a netns pair's
/// client side.
#[derive(Clone, Copy)]
enum Side<'a> {
    Host,
    Ns(&'a NetnsPair),
}

impl Side<'_> {
    fn pair(&self) -> Option<&NetnsPair> {
        match self {
            Side::Host => None,
            Side::Ns(p) => Some(p),
        }
    }

    fn command(&self, program: &Path) -> Command {
        match self {
            Side::Host => Command::new(program),
            Side::Ns(p) => p.client_command(program),
        }
    }
}

/// `llmops-tui download --mode MODE` of `file`; its wall time (None: hit the cap).
fn tui_get(
    side: Side,
    server: SocketAddr,
    file: &Path,
    mode: &str,
    out: &Path,
    cap: Duration,
) -> Result<Duration, Stop> {
    let mut cmd = side.command(&bin("llmops-tui"));
    cmd.args(["download", "--server", &server.to_string(), "--out"])
        .arg(out)
        .args(["--mode", mode, "--force", "--json"])
        .arg(file)
        .env_remove("LLMOPS_SERVER")
        .env_remove("LLMOPS_AUTH_TOKEN");
    if let Side::Ns(_) = side {
        cmd.args(["--token", netns::TOKEN]);
    }
    let (d, out) = timed(cmd, cap, &format!("llmops-tui --mode {mode}"))?;
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_default();
    assert_eq!(v["mode"], mode, "{v}");
    Ok(d)
}

/// The QUIC server of the comparison rows (`llmops_tests::netns::QuicServer`), started on
/// the host or in a pair's server namespace, and its timed `quic-bench get`.
trait QuicBench: Sized {
    fn start_on(side: Side, listen: &str, dir: &Path) -> anyhow::Result<Self>;
    /// `quic-bench get` of `file` through `to` (the server itself or a relay).
    fn get(
        &self,
        side: Side,
        to: SocketAddr,
        file: &Path,
        out: &Path,
        cap: Duration,
    ) -> Result<Duration, Stop>;
}

impl QuicBench for QuicServer {
    fn start_on(side: Side, listen: &str, dir: &Path) -> anyhow::Result<QuicServer> {
        // The server runs in the server namespace, not the client's.
        let ns = side.pair().map(NetnsPair::server_ns);
        QuicServer::start(ns.as_deref(), listen, dir)
    }

    fn get(
        &self,
        side: Side,
        to: SocketAddr,
        file: &Path,
        out: &Path,
        cap: Duration,
    ) -> Result<Duration, Stop> {
        let ns = side.pair().map(NetnsPair::client_ns);
        let cmd = self.get_command(ns.as_deref(), to, file, out);
        timed(cmd, cap, "quic-bench get").map(|(d, _)| d)
    }
}

/// A counter from the server's /metrics, fetched from wherever the server runs (inside a
/// namespace: bash's /dev/tcp run there, no extra tool needed).
fn metric(server: &ServerProc, side: Side, name: &str) -> u64 {
    let Some(h) = server.http_addr else { return 0 };
    let body = match side {
        Side::Host => http_get(h, "/metrics")
            .map(|(_, _, b)| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default(),
        Side::Ns(p) => {
            let script = format!(
                "exec 3<>/dev/tcp/{}/{} && printf 'GET /metrics HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' >&3 && cat <&3",
                h.ip(),
                h.port()
            );
            Command::new("ip")
                .args(["netns", "exec", &p.server_ns(), "bash", "-c", &script])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default()
        }
    };
    body.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.trim().parse().ok()))
        .unwrap_or(0)
}

/// An RDT cell with the server's retransmissions per run.
/// One row of the namespace table (RDT, TCP, QUIC, drops per run), echoed to stderr.
fn ns_row(
    s: &mut String,
    label: &str,
    cond: &str,
    [rdt, tcp]: [Cell; 2],
    q: Option<Cell>,
    runs: usize,
    (rdt_drops, dropped): (String, u64),
) {
    let quic = q
        .map(|c| c.text(runs))
        .unwrap_or_else(|| "not built".into());
    s.push_str(&format!(
        "| {label} | {cond} | {} | {} | {rdt_drops} | {} | {quic} | {dropped} |\n",
        rdt.text(runs),
        rdt.retx_text(),
        tcp.text(runs),
    ));
    eprintln!(
        "netns {label} {cond}: rdt {} tcp {} quic {quic}",
        rdt.text(runs),
        tcp.text(runs)
    );
}

fn rdt_cell(
    server: &ServerProc,
    side: Side,
    size: usize,
    runs: usize,
    one: impl FnMut(Duration) -> Result<Duration, Stop>,
) -> Cell {
    let r0 = metric(server, side, "llmops_rdt_retransmissions_total");
    let e0 = rdt_transfers_ended(server, side);
    let mut c = measure(size, runs, one);
    // The server adds a transfer's retransmissions to the metric when its sender ends,
    // after the FIN exchange; under heavy loss that is well after the client exited (FIN
    // retries, or the idle timeout when the last ACKs were lost). Reading sooner missed
    // the last run's count here and charged it to the next cell.
    wait_rdt_transfers_ended(server, side, e0 + c.attempts() as u64);
    let r1 = metric(server, side, "llmops_rdt_retransmissions_total");
    // Only for finished cells: a killed transfer's counters are not all in yet.
    if c.median.is_some() {
        c.retx = Some(r1.saturating_sub(r0) / c.runs.max(1) as u64);
    }
    c
}

/// RDT transfers the server has ended (completed or failed): the retransmission metric
/// is updated just before either counter.
fn rdt_transfers_ended(server: &ServerProc, side: Side) -> u64 {
    metric(
        server,
        side,
        "llmops_transfers_completed_total{mode=\"rdt\"}",
    ) + metric(server, side, "llmops_transfers_failed_total{mode=\"rdt\"}")
}

/// Waits until the server has ended `target` RDT transfers in total (the sender's idle
/// timeout, 15 s, bounds how long a transfer outlives its client; 30 s is a hang guard).
fn wait_rdt_transfers_ended(server: &ServerProc, side: Side, target: u64) {
    let t = Instant::now();
    while rdt_transfers_ended(server, side) < target {
        if t.elapsed() > Duration::from_secs(30) {
            eprintln!("rdt: the server has not ended {target} transfers after 30 s");
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

const LOSSES: [u8; 5] = [0, 1, 5, 10, 20];

/// UDP datagrams this namespace's kernel dropped for a full socket receive buffer so far.
fn host_rcvbuf_errors() -> u64 {
    std::fs::read_to_string("/proc/net/snmp")
        .ok()
        .and_then(|t| netns::UdpSnmp::parse(&t))
        .map(|u| u.rcvbuf_errors)
        .unwrap_or(0)
}

/// Drops of RDT's DATA per run (`drops` counted over all of the cell's attempts) and the
/// cell's retransmissions per run divided by it.
fn drops_text(rdt: &Cell, drops: u64) -> String {
    if rdt.skipped {
        return "-".into();
    }
    let per = drops / rdt.attempts().max(1) as u64;
    match rdt.retx {
        Some(r) if per > 0 => format!("{per} ({:.2})", r as f64 / per as f64),
        _ => per.to_string(),
    }
}

/// Everything the chart needs: goodput per loss for one protocol on one path.
struct Series {
    path: &'static str,
    proto: &'static str,
    points: Vec<(u8, Cell)>,
}

/// Goodput of RDT, the TCP fallbacks and QUIC: loopback, the impairment relay (10 ms delay,
/// loss), nftables loss in network namespaces, and 20 concurrent downloads. Returns the
/// markdown and the SVG chart.
fn downloads_bench() -> (String, String, Option<String>) {
    let docs = tempfile::tempdir().expect("tempdir");
    let out = tempfile::tempdir().expect("tempdir");
    let small = 10 * MIB;
    let big = 100 * MIB;
    let f10 = docs.path().join("ten.bin");
    let f100 = docs.path().join("hundred.bin");
    random_file(&f10, small, 1);
    random_file(&f100, big, 2);
    let d = docs.path().to_str().expect("utf8").to_string();
    let files = [(&f10, small, "10 MiB"), (&f100, big, "100 MiB")];
    let quic_built = bin("quic-bench").is_file();
    if !quic_built {
        eprintln!(
            "quic-bench is not built (scripts/bench.sh builds bench/quic); QUIC rows skipped"
        );
    }
    let na = || "not built".to_string();

    let mut s = String::from(
        "\
         All in one run of `make bench` (`cargo bench -p llmops-tests --bench e2e`, release builds). Seeded random \
         (incompressible) files in a temp dir. Every number is the wall time of a whole client process, median of \
         the runs: `llmops-tui download --mode M` (process start, connect, offer, transfer, sha256 of the written \
         file, rename) and, for QUIC, `quic-bench get` from `bench/quic` (process start, QUIC/TLS 1.3 handshake, \
         transfer on one stream, sha256 while writing a temp file, rename; its server hashes the file per request as \
         the llmops server does per offer). quinn 0.11 with rustls/ring, its default Cubic congestion control and \
         MTU discovery (GSO on); the only changes from quinn's defaults: stream / connection receive windows 16 / \
         32 MiB and a 32 MiB send window, so flow control never caps below the bandwidth-delay product, and \
         4 MiB socket buffers (what RDT's sockets ask for). Cells are \
         goodput (median time); runs: 5 for 10 MiB and 3 for 100 MiB on loopback, 3 on the lossy paths; a run longer \
         than 15 s ends the repetitions (run count shown), and a run still going after 60 s (10 MiB) / 90 s \
         (100 MiB) is killed and shown as \"did not finish\" (that protocol is then not run at higher losses on that \
         path). RDT retransmissions are the server's \
         `llmops_rdt_retransmissions_total` per run.\n\n",
    );

    // --- Loopback ---------------------------------------------------------------------
    let direct = ServerProc::start_with(&["--docs", &d]).expect("server");
    let quic = quic_built.then(|| {
        QuicServer::start_on(Side::Host, "127.0.0.1:0", docs.path()).expect("quic server")
    });
    s.push_str(
        "### Loopback\n\n| file | RDT | RDT retx/run | nplt (TCP) | http (TCP) | QUIC |\n|---|---|---|---|---|---|\n",
    );
    let mut loopback = Vec::new();
    for (file, size, label) in files {
        let runs = if size == small { 5 } else { 3 };
        let rdt = rdt_cell(&direct, Side::Host, size, runs, |cap| {
            tui_get(Side::Host, direct.addr, file, "rdt", out.path(), cap)
        });
        let nplt = measure(size, runs, |cap| {
            tui_get(Side::Host, direct.addr, file, "nplt", out.path(), cap)
        });
        let http = measure(size, runs, |cap| {
            tui_get(Side::Host, direct.addr, file, "http", out.path(), cap)
        });
        let q = quic.as_ref().map(|q| {
            measure(size, runs, |cap| {
                q.get(Side::Host, q.addr, file, out.path(), cap)
            })
        });
        s.push_str(&format!(
            "| {label} | {} | {} | {} | {} | {} |\n",
            rdt.text(runs),
            rdt.retx_text(),
            nplt.text(runs),
            http.text(runs),
            q.map(|c| c.text(runs)).unwrap_or_else(na)
        ));
        eprintln!(
            "loopback {label}: rdt {} nplt {} http {} quic {:?}",
            rdt.text(runs),
            nplt.text(runs),
            http.text(runs),
            q.map(|c| c.text(runs))
        );
        loopback.push((label, rdt, q));
    }

    // --- Relay: 10 ms one-way delay and loss --------------------------------------------
    let relay = Relay::bind(Impairment::default(), 99).expect("relay");
    let adv = relay.addr.to_string();
    let behind = ServerProc::start_with(&["--docs", &d, "--rdt-advertise", &adv]).expect("server");
    relay.set_upstream(behind.rdt_addr.expect("rdt addr"));
    let qrelay = Relay::bind(Impairment::default(), 98).expect("relay");
    if let Some(q) = &quic {
        qrelay.set_upstream(q.addr);
    }
    s.push_str(
        "\n### Through the userspace impairment relay: 10 ms one-way delay, random loss each way\n\n\
         `tests/src/relay.rs` (seeded) between client and server. TCP (nplt, http) cannot go through this UDP relay: \
         see the network-namespace table below for TCP under loss.\n\n\
         RDT DATA drops/run: the relay's count of server-to-client datagrams it dropped during the RDT runs, per run, \
         and RDT's retransmissions divided by it. UDP rcvbuf drops/run: this namespace's `RcvbufErrors` \
         (/proc/net/snmp) during the RDT runs, per run: datagrams the kernel dropped because a socket's receive \
         buffer was full (the relay's, the client's or the server's), which the relay cannot count.\n\n\
         | file | loss | RDT | RDT retx/run | RDT DATA drops/run (retx ÷ drops) | UDP rcvbuf drops/run | QUIC | TCP |\n|---|---|---|---|---|---|---|---|\n",
    );
    let mut relay_rdt = Vec::new();
    let mut relay_quic = Vec::new();
    for (file, size, label) in files {
        let (mut rdt_dnf, mut quic_dnf) = (false, false);
        for loss in LOSSES {
            let imp = Impairment {
                loss: f64::from(loss) / 100.0,
                delay: Duration::from_millis(10),
                ..Default::default()
            };
            relay.set(imp.clone());
            qrelay.set(imp);
            let runs = 3;
            let d0 = relay.stats.down_dropped.load(Ordering::Relaxed);
            let k0 = host_rcvbuf_errors();
            let rdt = unless_dnf(&mut rdt_dnf, size, || {
                rdt_cell(&behind, Side::Host, size, runs, |cap| {
                    tui_get(Side::Host, behind.addr, file, "rdt", out.path(), cap)
                })
            });
            let rdt_drops = relay.stats.down_dropped.load(Ordering::Relaxed) - d0;
            let kernel = host_rcvbuf_errors().saturating_sub(k0) / rdt.attempts().max(1) as u64;
            let q = quic.as_ref().map(|q| {
                unless_dnf(&mut quic_dnf, size, || {
                    measure(size, runs, |cap| {
                        q.get(Side::Host, qrelay.addr, file, out.path(), cap)
                    })
                })
            });
            s.push_str(&format!(
                "| {label} | {loss}% | {} | {} | {} | {kernel} | {} | n/a |\n",
                rdt.text(runs),
                rdt.retx_text(),
                drops_text(&rdt, rdt_drops),
                q.map(|c| c.text(runs)).unwrap_or_else(na)
            ));
            eprintln!(
                "relay {label} {loss}%: rdt {} quic {:?}",
                rdt.text(runs),
                q.map(|c| c.text(runs))
            );
            if size == big {
                relay_rdt.push((loss, rdt));
                if let Some(c) = q {
                    relay_quic.push((loss, c));
                }
            }
        }
    }
    drop(relay);
    drop(qrelay);

    // --- Network namespaces: nftables random drop, no delay ------------------------------
    let mut series = vec![
        Series {
            path: "relay",
            proto: "RDT",
            points: relay_rdt,
        },
        Series {
            path: "relay",
            proto: "QUIC",
            points: relay_quic,
        },
    ];
    let mut bottleneck_svg = None;
    match netns::unavailable() {
        Some(why) => {
            s.push_str(&format!(
                "\n### Network namespaces with nftables loss\n\nSkipped in this run: {why}.\n"
            ));
            eprintln!("netns rows skipped: {why}");
        }
        None => {
            let (text, mut more) = netns_rows(docs.path(), &d, &files, out.path(), quic_built);
            s.push_str(&text);
            series.append(&mut more);
            let big = docs.path().join("share.bin");
            random_file(&big, bottleneck::share_file_size(), 3);
            let (text, svg) =
                bottleneck::bottleneck_rows(docs.path(), &d, &f100, &big, out.path(), quic_built);
            s.push_str(&text);
            bottleneck_svg = Some(svg);
            if let Err(e) = std::fs::remove_file(&big) {
                eprintln!("remove {}: {e}", big.display());
            }
        }
    }

    // --- 20 concurrent RDT downloads ------------------------------------------------------
    let outs: Vec<tempfile::TempDir> = (0..20)
        .map(|_| tempfile::tempdir().expect("tempdir"))
        .collect();
    let r0 = metric(&direct, Side::Host, "llmops_rdt_retransmissions_total");
    let e0 = rdt_transfers_ended(&direct, Side::Host);
    let t = Instant::now();
    let ok = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|sc| {
        for o in &outs {
            let (srv, f, ok) = (&direct, &f10, &ok);
            sc.spawn(move || {
                if tui_get(Side::Host, srv.addr, f, "rdt", o.path(), CAP_100).is_ok() {
                    ok.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    let all = t.elapsed();
    wait_rdt_transfers_ended(&direct, Side::Host, e0 + outs.len() as u64);
    let r1 = metric(&direct, Side::Host, "llmops_rdt_retransmissions_total");
    // "Verified" means the client exited 0 and the file is in place at full size.
    let in_place = outs
        .iter()
        .filter(|o| {
            std::fs::metadata(o.path().join("ten.bin")).is_ok_and(|m| m.len() == small as u64)
        })
        .count();
    let verified = ok.load(Ordering::Relaxed).min(in_place);
    s.push_str(&format!(
        "\n### 20 concurrent RDT downloads\n\n20 `llmops-tui download --mode rdt` processes of the 10 MiB file at once \
         on loopback, one server socket: {verified} of 20 verified in {:.0} ms, {:.0} MiB/s aggregate, {} \
         retransmissions in total.\n",
        ms(all),
        mibps(verified * small, all),
        r1.saturating_sub(r0)
    ));

    let chart = svg_chart(&series, &loopback);
    s.push_str(
        "\n### Chart\n\n![goodput vs loss, 100 MiB](benchmarks-goodput.svg)\n\n\
         `docs/benchmarks-goodput.svg` (written by the same run): 100 MiB goodput against loss, log scale; the left \
         panel is the relay (10 ms one-way delay), the right one the namespaces (no delay). A hollow marker is a run \
         that did not finish (killed at the cap, or failed): the true goodput is below it.\n",
    );
    if bottleneck_svg.is_some() {
        s.push_str(
            "\n![tbf bottleneck: rate alone and shares](benchmarks-bottleneck.svg)\n\n\
             `docs/benchmarks-bottleneck.svg` (same run): per bottleneck rate, each protocol's IP rate alone as a \
             fraction of the bottleneck (dashed line at 90%), then RDT's and the other flow's shares while they \
             compete (lines at 1/3 and 2/3).\n",
        );
    }
    (s, chart, bottleneck_svg)
}

/// The namespace table: RDT, TCP (nplt) and QUIC at each nftables drop rate.
fn netns_rows(
    dir: &Path,
    docs: &str,
    files: &[(&PathBuf, usize, &'static str)],
    out: &Path,
    quic_built: bool,
) -> (String, Vec<Series>) {
    let mut pair = NetnsPair::create(0).expect("network namespaces (scripts/netns.sh)");
    let server = netns::start_server(&pair, &["--docs", docs]).expect("server in the namespace");
    let listen = format!("{}:0", netns::SERVER_IP);
    let quic = quic_built.then(|| {
        QuicServer::start_on(Side::Ns(&pair), &listen, dir).expect("quic server in the namespace")
    });
    let mut s = String::from(
        "\n### Network namespaces, kernel-level loss (nftables), no added delay\n\n\
         `scripts/netns.sh`: server and client in two network namespaces joined by a veth pair; in each, an \
         nftables input rule `numgen random mod 100 < N drop` drops N% of the packets arriving on the veth, so both \
         directions lose N% (the veth has gso_max_segs 1, so single packets are dropped, not 64 KiB GSO bursts). \
         nftables can only drop: there is no netem here to add delay, so the RTT is the veth's (tens of \
         microseconds) and timeouts that have floors (TCP's 200 ms minimum RTO, QUIC's 1 ms timer granularity and \
         25 ms max ACK delay) weigh far more than on a real path. Times include `ip netns exec`. Sending single \
         packets through the veth is costly on this VM (TCP's 64 KiB segments become ~45 packets each), so the \
         last rows repeat 0% loss with GSO allowed, for reference: there a drop would hit a whole burst, so no \
         loss is applied.\n\n\
         RDT DATA drops/run: the client namespace's drop-rule counter (what the server sent) during the RDT runs, \
         per run, and RDT's retransmissions divided by it; the last column is both rules, all protocols, per \
         transfer.\n\n\
         | file | loss | RDT | RDT retx/run | RDT DATA drops/run (retx ÷ drops) | TCP (nplt) | QUIC | packets dropped/run |\n|---|---|---|---|---|---|---|---|\n",
    );
    let (mut rdt_pts, mut tcp_pts, mut quic_pts) = (Vec::new(), Vec::new(), Vec::new());
    for &(file, size, label) in files {
        let (mut rdt_dnf, mut tcp_dnf, mut quic_dnf) = (false, false, false);
        for loss in LOSSES {
            pair.set_loss(loss).expect("set nftables loss");
            let side = Side::Ns(&pair);
            let runs = 3;
            let d0 = pair.dropped_on(NsSide::Client).unwrap_or(0);
            let rdt = unless_dnf(&mut rdt_dnf, size, || {
                rdt_cell(&server, side, size, runs, |cap| {
                    tui_get(side, server.addr, file, "rdt", out, cap)
                })
            });
            let rdt_drops = pair
                .dropped_on(NsSide::Client)
                .unwrap_or(0)
                .saturating_sub(d0);
            let tcp = unless_dnf(&mut tcp_dnf, size, || {
                measure(size, runs, |cap| {
                    tui_get(side, server.addr, file, "nplt", out, cap)
                })
            });
            let q = quic.as_ref().map(|q| {
                unless_dnf(&mut quic_dnf, size, || {
                    measure(size, runs, |cap| q.get(side, q.addr, file, out, cap))
                })
            });
            let runs_total =
                (rdt.attempts() + tcp.attempts() + q.map(|c| c.attempts()).unwrap_or(0)).max(1);
            let dropped = pair.dropped_packets().unwrap_or(0) / runs_total as u64;
            ns_row(
                &mut s,
                label,
                &format!("{loss}%"),
                [rdt, tcp],
                q,
                runs,
                (drops_text(&rdt, rdt_drops), dropped),
            );
            if size == 100 * MIB {
                rdt_pts.push((loss, rdt));
                tcp_pts.push((loss, tcp));
                if let Some(c) = q {
                    quic_pts.push((loss, c));
                }
            }
        }
    }
    // The same 0% rows with GSO allowed again: the price of per-packet drops is that every
    // packet crosses the stack alone, which costs TCP (64 KiB segments otherwise) the most.
    pair.set_loss(0).expect("set nftables loss");
    pair.set_gso_max_segs(65535).expect("veth gso_max_segs");
    for &(file, size, label) in files {
        let side = Side::Ns(&pair);
        let runs = 3;
        let rdt = rdt_cell(&server, side, size, runs, |cap| {
            tui_get(side, server.addr, file, "rdt", out, cap)
        });
        let tcp = measure(size, runs, |cap| {
            tui_get(side, server.addr, file, "nplt", out, cap)
        });
        let q = quic
            .as_ref()
            .map(|q| measure(size, runs, |cap| q.get(side, q.addr, file, out, cap)));
        ns_row(
            &mut s,
            label,
            "0%, GSO bursts allowed",
            [rdt, tcp],
            q,
            runs,
            ("0".into(), 0),
        );
    }
    drop(quic);
    drop(server);
    (
        s,
        vec![
            Series {
                path: "netns",
                proto: "RDT",
                points: rdt_pts,
            },
            Series {
                path: "netns",
                proto: "TCP (nplt)",
                points: tcp_pts,
            },
            Series {
                path: "netns",
                proto: "QUIC",
                points: quic_pts,
            },
        ],
    )
}

/// A plain-text SVG line chart (no dependency): two panels, goodput (log scale) against
/// loss, one line per protocol; loopback values as dashed reference lines.
fn svg_chart(series: &[Series], loopback: &[(&str, Cell, Option<Cell>)]) -> String {
    let (pw, ph, left, top, gap) = (420.0, 300.0, 70.0, 60.0, 90.0);
    let width = left + 2.0 * pw + gap + 30.0;
    let height = top + ph + 110.0;
    let (ymin, ymax) = (0.1f64.log10(), 1000f64.log10());
    let color = |proto: &str| match proto {
        "RDT" => "#d62728",
        "QUIC" => "#1f77b4",
        _ => "#2ca02c",
    };
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">Goodput vs random loss, 100 MiB file \
         (make bench, medians)</text>\n",
        width / 2.0
    );
    for (i, (path, title)) in [
        ("relay", "UDP relay, 10 ms one-way delay (no TCP)"),
        ("netns", "netns + nftables drop, no delay"),
    ]
    .iter()
    .enumerate()
    {
        let x0 = left + i as f64 * (pw + gap);
        let xs = |loss: f64| x0 + loss / 20.0 * pw;
        let ys = |v: f64| top + ph - (v.max(0.1).log10() - ymin) / (ymax - ymin) * ph;
        o.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"13\">{title}</text>\n\
             <rect x=\"{x0}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#444\"/>\n",
            x0 + pw / 2.0,
            top - 10.0
        ));
        for v in [0.1, 1.0, 10.0, 100.0, 1000.0] {
            let y = ys(v);
            o.push_str(&format!(
                "<line x1=\"{x0}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\n\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v}</text>\n",
                x0 + pw,
                x0 - 6.0,
                y + 4.0
            ));
        }
        for l in LOSSES {
            let x = xs(f64::from(l));
            o.push_str(&format!(
                "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#eee\"/>\n\
                 <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{l}%</text>\n",
                top + ph,
                top + ph + 18.0
            ));
        }
        o.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">loss each way</text>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 {:.1} {:.1})\">MiB/s (log)</text>\n",
            x0 + pw / 2.0,
            top + ph + 38.0,
            x0 - 45.0,
            top + ph / 2.0,
            x0 - 45.0,
            top + ph / 2.0
        ));
        for sr in series.iter().filter(|sr| sr.path == *path) {
            let c = color(sr.proto);
            let pts: Vec<(f64, f64, bool)> = sr
                .points
                .iter()
                .filter(|(_, cell)| !cell.skipped)
                .map(|(l, cell)| {
                    let v = cell.goodput().unwrap_or_else(|| mibps(cell.size, cell.cap));
                    (xs(f64::from(*l)), ys(v), cell.median.is_some())
                })
                .collect();
            let line: Vec<String> = pts
                .iter()
                .map(|(x, y, _)| format!("{x:.1},{y:.1}"))
                .collect();
            o.push_str(&format!(
                "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"{}\"/>\n",
                line.join(" ")
            ));
            for (x, y, done) in pts {
                let fill = if done { c } else { "white" };
                o.push_str(&format!(
                    "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"{fill}\" stroke=\"{c}\" stroke-width=\"2\"/>\n"
                ));
            }
        }
    }
    // Legend, with the loopback 100 MiB numbers for reference.
    let ly = top + ph + 62.0;
    let mut lx = left;
    for proto in ["RDT", "TCP (nplt)", "QUIC"] {
        o.push_str(&format!(
            "<line x1=\"{lx}\" y1=\"{ly}\" x2=\"{}\" y2=\"{ly}\" stroke=\"{}\" stroke-width=\"3\"/>\n\
             <text x=\"{}\" y=\"{}\">{proto}</text>\n",
            lx + 24.0,
            color(proto),
            lx + 30.0,
            ly + 4.0
        ));
        lx += 120.0;
    }
    if let Some((_, rdt, q)) = loopback.iter().find(|(l, _, _)| *l == "100 MiB") {
        let g = |c: &Cell| {
            c.goodput()
                .map(|v| format!("{v:.0}"))
                .unwrap_or_else(|| "-".into())
        };
        o.push_str(&format!(
            "<text x=\"{left}\" y=\"{:.1}\">Loopback, 100 MiB: RDT {} MiB/s, QUIC {} MiB/s. Hollow marker: did not \
             finish (killed at the cap, or failed); true goodput is lower.</text>\n",
            ly + 28.0,
            g(rdt),
            q.as_ref().map(g).unwrap_or_else(|| "-".into())
        ));
    }
    o.push_str("</svg>\n");
    o
}
