//! `LLMOPS_BENCH_ONLY=relay`: only the relay rows without loss (10 ms one-way delay, RDT
//! against QUIC, the transfer table's 0% rows), printed, with each RDT transfer's
//! congestion-controller summary from the server's log, to try the relay gap alone.
//! `LLMOPS_BENCH_RELAY_LOSS=1` (percent, each way) runs a lossy row instead;
//! `LLMOPS_BENCH_RELAY_QUIC=0` leaves QUIC out.

use std::sync::atomic::Ordering;
use std::time::Duration;

use llmops_tests::relay::{Impairment, Relay};
use llmops_tests::ServerProc;

use super::{bin, random_file, rdt_cell, tui_get, QuicBench, QuicServer, Side, MIB};

pub(super) fn relay_only() {
    let docs = tempfile::tempdir().expect("tempdir");
    let out = tempfile::tempdir().expect("tempdir");
    let f10 = docs.path().join("ten.bin");
    let f100 = docs.path().join("hundred.bin");
    random_file(&f10, 10 * MIB, 1);
    random_file(&f100, 100 * MIB, 2);
    let d = docs.path().to_str().expect("utf8");
    let var = |k: &str| std::env::var(k).ok();
    let loss: f64 = var("LLMOPS_BENCH_RELAY_LOSS")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    let with_quic = var("LLMOPS_BENCH_RELAY_QUIC").as_deref() != Some("0");
    let quic = (with_quic && bin("quic-bench").is_file()).then(|| {
        QuicServer::start_on(Side::Host, "127.0.0.1:0", docs.path()).expect("quic server")
    });
    let imp = Impairment {
        delay: Duration::from_millis(10),
        loss: loss / 100.0,
        ..Default::default()
    };
    let relay = Relay::bind(imp.clone(), 99).expect("relay");
    let adv = relay.addr.to_string();
    let behind = ServerProc::start_with(&[
        "--docs",
        d,
        "--rdt-advertise",
        &adv,
        "--log-level",
        "info,llmops_server::net::rdt=debug",
    ])
    .expect("server");
    relay.set_upstream(behind.rdt_addr.expect("rdt addr"));
    let qrelay = Relay::bind(imp, 98).expect("relay");
    if let Some(q) = &quic {
        qrelay.set_upstream(q.addr);
    }
    let runs = std::env::var("LLMOPS_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    for (file, size, label) in [(&f10, 10 * MIB, "10 MiB"), (&f100, 100 * MIB, "100 MiB")] {
        let d0 = relay.stats.down_dropped.load(Ordering::Relaxed);
        let rdt = rdt_cell(&behind, Side::Host, size, runs, |cap| {
            tui_get(Side::Host, behind.addr, file, "rdt", out.path(), cap)
        });
        let drops = relay.stats.down_dropped.load(Ordering::Relaxed) - d0;
        let q = quic.as_ref().map(|q| {
            super::measure(size, runs, |cap| {
                q.get(Side::Host, qrelay.addr, file, out.path(), cap)
            })
        });
        println!(
            "relay {loss}% {label}: RDT {} (retx/run {}, relay drops {drops}) | QUIC {}",
            rdt.text(runs),
            rdt.retx_text(),
            q.map(|c| c.text(runs))
                .unwrap_or_else(|| "not built".into())
        );
    }
    // The controller's trace and end-of-transfer lines (window, RTTs, congestion events).
    let logs = behind.data_dir.path().join("logs");
    if let Ok(rd) = std::fs::read_dir(&logs) {
        for e in rd.flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            for l in text
                .lines()
                .filter(|l| l.contains("rdt transfer end") || l.contains("rdt cc"))
            {
                println!("{l}");
            }
        }
    }
}
