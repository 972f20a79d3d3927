//! `LLMOPS_BENCH_ONLY=netns`: only RDT's namespace rows (nftables loss each way, no added
//! delay), printed, to try the retransmission bound alone: per row the time, the server's
//! retransmissions per run read 100 ms after the last client exited (the old reading) and
//! after the server ended every transfer (the table's reading), the DATA packets the client
//! side's rule dropped, and each transfer's retransmissions by cause from the server's log.
//! `LLMOPS_BENCH_NETNS_LOSS=10,20` (percent, default 20), `LLMOPS_BENCH_NETNS_SIZES=10,100`
//! (MiB, default 10), `LLMOPS_BENCH_RUNS` (default 3); `LLMOPS_BENCH_NETNS_QUIC=1` adds a
//! QUIC cell after each RDT cell (`quic-bench` built), `LLMOPS_BENCH_NETNS_GSO=1` lets the
//! veth carry GSO bursts (the table's last rows; loss then drops whole bursts).

use std::time::Duration;

use llmops_tests::netns::{self, NetnsPair, NsSide};

use super::{
    bin, drops_text, metric, random_file, rdt_transfers_ended, tui_get, wait_rdt_transfers_ended,
    QuicBench, QuicServer, Side, MIB,
};

pub(super) fn netns_only() {
    if let Some(why) = netns::unavailable() {
        eprintln!("netns rows skipped: {why}");
        return;
    }
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let list = |k: &str, default: &[u32]| -> Vec<u32> {
        var(k)
            .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
            .unwrap_or_else(|| default.to_vec())
    };
    let losses = list("LLMOPS_BENCH_NETNS_LOSS", &[20]);
    let sizes = list("LLMOPS_BENCH_NETNS_SIZES", &[10]);
    let runs: usize = var("LLMOPS_BENCH_RUNS")
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let docs = tempfile::tempdir().expect("tempdir");
    let out = tempfile::tempdir().expect("tempdir");
    let d = docs.path().to_str().expect("utf8");
    let mut pair = NetnsPair::create(0).expect("network namespaces (scripts/netns.sh)");
    let server = netns::start_server(&pair, &["--docs", d]).expect("server in the namespace");
    let with_quic = var("LLMOPS_BENCH_NETNS_QUIC").as_deref() == Some("1");
    let quic = (with_quic && bin("quic-bench").is_file()).then(|| {
        let listen = format!("{}:0", netns::SERVER_IP);
        QuicServer::start_on(Side::Ns(&pair), &listen, docs.path())
            .expect("quic server in the namespace")
    });
    if var("LLMOPS_BENCH_NETNS_GSO").as_deref() == Some("1") {
        pair.set_gso_max_segs(65535).expect("veth gso_max_segs");
    }
    for &mib in &sizes {
        let file = docs.path().join(format!("f{mib}.bin"));
        random_file(&file, mib as usize * MIB, u64::from(mib));
        for &loss in &losses {
            pair.set_loss(loss.min(100) as u8)
                .expect("set nftables loss");
            let side = Side::Ns(&pair);
            let r0 = metric(&server, side, "llmops_rdt_retransmissions_total");
            let e0 = rdt_transfers_ended(&server, side);
            let d0 = pair.dropped_on(NsSide::Client).unwrap_or(0);
            let cell = super::measure(mib as usize * MIB, runs, |cap| {
                tui_get(side, server.addr, &file, "rdt", out.path(), cap)
            });
            std::thread::sleep(Duration::from_millis(100));
            let early = metric(&server, side, "llmops_rdt_retransmissions_total") - r0;
            let early_ended = rdt_transfers_ended(&server, side) - e0;
            wait_rdt_transfers_ended(&server, side, e0 + cell.attempts() as u64);
            let mut c = cell;
            let late = metric(&server, side, "llmops_rdt_retransmissions_total") - r0;
            c.retx = Some(late / c.runs.max(1) as u64);
            let drops = pair
                .dropped_on(NsSide::Client)
                .unwrap_or(0)
                .saturating_sub(d0);
            println!(
                "netns {mib} MiB {loss}%: RDT {} | retx/run 100 ms after the last client: {} \
                 ({early_ended} of {} transfers ended) | retx/run once all ended: {} | DATA \
                 drops/run (retx/drops): {}",
                c.text(runs),
                early / c.runs.max(1) as u64,
                c.attempts(),
                late / c.runs.max(1) as u64,
                drops_text(&c, drops),
            );
            if let Some(q) = &quic {
                let qc = super::measure(mib as usize * MIB, runs, |cap| {
                    q.get(side, q.addr, &file, out.path(), cap)
                });
                println!("netns {mib} MiB {loss}%: QUIC {}", qc.text(runs));
            }
        }
    }
    let logs = server.data_dir.path().join("logs");
    if let Ok(rd) = std::fs::read_dir(&logs) {
        for e in rd.flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            for l in text.lines().filter(|l| l.contains("rdt transfer end")) {
                println!("{l}");
            }
        }
    }
}
