//! Kernel-level loss end to end: the real server in one network namespace, the real
//! `llmops-tui download --mode rdt` in another, 10% of packets dropped each way by nftables
//! (`scripts/netns.sh`). Skips, saying why, when not root or `nft` is missing; CI runs as
//! root after `make setup` installed nftables, so there it really runs. The drops come from
//! the kernel's random numbers (not seedable); what is asserted does not depend on them.

use std::path::Path;
use std::time::Duration;

use llmops_tests::netns::{self, NetnsPair};
use rand::{Rng, SeedableRng};

#[test]
fn rdt_download_through_nftables_loss_is_byte_exact() {
    if let Some(why) = netns::unavailable() {
        eprintln!("SKIPPED rdt_download_through_nftables_loss_is_byte_exact: {why}");
        return;
    }
    let docs = tempfile::tempdir().expect("tempdir");
    let mut body = vec![0u8; 3 * 1024 * 1024 + 77];
    rand::rngs::StdRng::seed_from_u64(5).fill(&mut body[..]);
    let src = docs.path().join("netns.bin");
    std::fs::write(&src, &body).expect("write");

    // Dropped at the end of the test (or while unwinding from a failed assert).
    let pair = NetnsPair::create(10).expect("namespaces (scripts/netns.sh up)");
    let d = docs.path().to_str().expect("utf8");
    let server = netns::start_server(&pair, &["--docs", d]).expect("server in the namespace");
    assert_eq!(server.addr.ip(), netns::SERVER_IP);
    assert_eq!(server.rdt_addr.map(|a| a.ip()), Some(netns::SERVER_IP));

    let out = tempfile::tempdir().expect("tempdir");
    // A hang guard only: a healthy run takes about a second.
    let (code, v, err) = netns::tui_download(
        &pair,
        server.addr,
        &src,
        "rdt",
        out.path(),
        Duration::from_secs(120),
    )
    .expect("run llmops-tui in the client namespace");
    assert_eq!(code, 0, "download failed: {v} {err}");
    assert_eq!(v["mode"], "rdt", "{v}");
    let got = std::fs::read(out.path().join("netns.bin")).expect("downloaded file");
    assert_eq!(got.len(), body.len());
    assert!(got == body, "content differs");
    let left: Vec<_> = std::fs::read_dir(out.path())
        .expect("dir")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 1, "only the file is left: {left:?}");
    // The kernel really dropped packets on the way (some 300 of ~2400 at 10%).
    let dropped = pair.dropped_packets().expect("nft counters");
    assert!(dropped > 0, "nftables dropped nothing");
    eprintln!("netns: {dropped} packets dropped by nftables, file verified");
    drop(server);
    let names = [pair.server_ns(), pair.client_ns()];
    drop(pair);
    for n in names {
        assert!(
            !Path::new("/run/netns").join(&n).exists(),
            "namespace {n} removed"
        );
    }
}
