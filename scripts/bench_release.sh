#!/usr/bin/env bash
# The cold `make release` build: its wall time from an empty target directory and the
# sizes of the binaries it makes, written to docs/benchmarks.md's `release-build` section.
# Run by `make bench`; LLMOPS_BENCH_SKIP_RELEASE=1 leaves the section as it is (the build
# takes tens of minutes on a 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${LLMOPS_BENCH_SKIP_RELEASE:-0}" == "1" ]]; then
    echo "bench: release-build section skipped (LLMOPS_BENCH_SKIP_RELEASE=1)"
    exit 0
fi
# LLMOPS_BENCH_RELEASE_DIR keeps the built binaries (for the render and idle benches) in a
# directory that must not exist yet, so the build is still cold.
if [[ -n "${LLMOPS_BENCH_RELEASE_DIR:-}" ]]; then
    target="$LLMOPS_BENCH_RELEASE_DIR"
    if [[ -e "$target" ]]; then
        echo "bench: $target exists; the release build must start from an empty directory" >&2
        exit 1
    fi
    mkdir -p "$target"
else
    target="$(mktemp -d)"
    trap 'rm -rf "$target"' EXIT
fi
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
start="$(date +%s.%N)"
CARGO_TARGET_DIR="$target" cargo build --release --bins --quiet
end="$(date +%s.%N)"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
secs="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
size() { stat -c %s "$target/release/$1"; }
mib() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1048576 }'; }
server="$(size llmops-server)"
tui="$(size llmops-tui)"
body="| what | result |
|---|---|
| cold \`cargo build --release --bins\` (an empty target directory, dependencies already downloaded) | $secs s ($(awk -v s="$secs" 'BEGIN { printf "%.1f", s / 60 }') min); load average $load_before before, $load_after after |
| \`llmops-server\` | $(mib "$server") MiB ($server bytes) |
| \`llmops-tui\` | $(mib "$tui") MiB ($tui bytes) |

For comparison, the build this replaced (debug info in the shipped profile, two embedding runtimes, kernels compiled for the build host with \`-march=native\`) took about 24 minutes cold on this machine kind and made a 227 MB \`llmops-server\`.

The release profile (Cargo.toml) builds the shipped binaries without debug info (cargo strips it; symbol names stay for backtraces); a panic still names its file and line. The machine is shared: the build time moves with the other work on it (the load averages above)."
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" cargo run --quiet -p llmops-tests --bin bench_section -- \
    release-build "Release build: time and binary sizes" "scripts/bench_release.sh (cold cargo build --release --bins)" <<<"$body"
echo "bench: release build ${secs}s, llmops-server $server bytes, llmops-tui $tui bytes"
