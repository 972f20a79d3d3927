//! A planted memory-hungry process for the incident e2e scenario: allocates and touches
//! `MIB` mebibytes (first argument, default 512), prints `ready PID RSS_KIB` and sleeps
//! until its stdin closes or 300 s pass, so a test that dies never leaves it behind long.

use std::io::{Read, Write};
use std::time::Duration;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(512);
    let mut block = vec![0u8; mib << 20];
    // Touch every page so the memory is resident, not just reserved.
    for i in (0..block.len()).step_by(4096) {
        block[i] = (i / 4096) as u8;
    }
    println!("ready {} {}", std::process::id(), rss_kib());
    if std::io::stdout().flush().is_err() {
        return;
    }
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_secs(300));
        std::process::exit(0);
    });
    // Returns when the parent closes our stdin (or dies).
    let mut sink = [0u8; 64];
    while matches!(std::io::stdin().read(&mut sink), Ok(n) if n > 0) {}
    std::hint::black_box(&block);
}
