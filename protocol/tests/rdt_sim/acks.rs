//! Simulation: ACK information under heavy loss both ways on a short fast path (the
//! namespace rows' shape: tens of microseconds each way, a window of hundreds of packets
//! with a hole every few): every retransmission must replace a packet the link dropped.

use super::*;

/// 10 MiB over a veth-like path (25 µs each way, 1 Gbit/s, a queue that never fills) with
/// `loss` each way; (DATA packets dropped, sender stats).
fn short_path_run(loss: f64, seed: u64) -> (u64, protocol::rdt::SenderStats) {
    let link = LinkCfg {
        loss,
        delay: Duration::from_micros(25),
        rate: Some(125_000_000),
        queue: 100_000,
        ..LinkCfg::default()
    };
    let sim = transfer(
        link,
        seed,
        10 * 1024 * 1024,
        Initiator::Receiver,
        &Config::default(),
    );
    drops_and_retransmissions(&sim, &format!("short path, loss {loss}"))
}

#[test]
fn rdt_sim_short_path_heavy_loss_retransmissions_match_drops() {
    // A filled hole deep below the newest SACK runs was reported in one ACK only: when
    // that ACK was lost, the sender re-sent the chunk (1.16-1.25 retransmissions per drop
    // in the namespaces at 10-20% loss each way).
    for (loss, seed) in [(0.10, 181), (0.20, 182)] {
        let (dropped, s) = short_path_run(loss, seed);
        assert!(dropped > 0);
        assert!(
            s.retransmissions * 10 <= dropped * 11,
            "loss {loss}: {} retransmissions for {dropped} drops",
            s.retransmissions
        );
    }
}
