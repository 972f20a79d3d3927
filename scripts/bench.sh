#!/usr/bin/env bash
# Runs the benchmarks against release binaries. Each bench rewrites only its own sections
# of docs/benchmarks.md (between `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->`,
# with the CPU, the command and the date; `llmops_common::bench_doc`), so no section is
# lost whichever benches run; the e2e bench also draws docs/benchmarks-goodput.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bins
# The QUIC comparison program (bench/quic) is its own cargo workspace, built only here,
# into the shared target dir so the bench finds it next to the other release binaries.
cargo build --release --manifest-path bench/quic/Cargo.toml --target-dir "${CARGO_TARGET_DIR:-target}"
# Setup first: it installs nftables (the network-namespace loss rows) and the index
# benchmark's model.
scripts/setup.sh storage
cargo bench -p llmops-tests --bench e2e
# Transcript render time (writes its section between the tui-render markers).
cargo bench -p llmops-tui --bench render
# Idle CPU of the server and the full-screen client (writes the idle-cpu section).
scripts/bench_idle.sh
# Whole-file log analysis throughput (writes its section between the loganalysis markers).
cargo bench -p llmops-loganalysis --bench throughput
# Log query throughput against grep/awk (writes its section between the bench:logquery markers).
cargo bench -p llmops-loganalysis --bench logquery
# Learned layouts, header tables and fields cut from the text (the bench:layouts markers).
cargo bench -p llmops-loganalysis --bench layouts
# The index sections: uploads, search latency, retrieval quality, embedding throughput.
cargo bench -p llmops-tests --bench index
# The cold release build's time and the binaries' sizes (LLMOPS_BENCH_SKIP_RELEASE=1
# skips it).
scripts/bench_release.sh
