#!/usr/bin/env bash
# Runs the benchmarks against release binaries and rewrites docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bins
cargo bench -p llmops-tests --bench e2e
# The index benchmark needs the model and appends its own section.
scripts/setup.sh storage
cargo bench -p llmops-tests --bench index
