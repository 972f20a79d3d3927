#!/usr/bin/env bash
# Chroma (the external vector engine) for development and tests.
#   scripts/chroma.sh install          create .venv and pip install chromadb (idempotent)
#   scripts/chroma.sh start PORT DIR   run `chroma run` on 127.0.0.1:PORT with data in DIR,
#                                      in the background; prints the pid; waits until ready
#   scripts/chroma.sh stop PID         stop a server started by `start`
#   scripts/chroma.sh run PORT DIR     run in the foreground
# The venv lives in .venv at the repo root (git-ignored). CHROMA_VERSION pins the release.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
version="${CHROMA_VERSION:-1.5.9}"

install() {
    if [[ -x "$venv/bin/chroma" ]] && "$venv/bin/python" -c "import chromadb,sys; sys.exit(0 if chromadb.__version__ == '$version' else 1)" 2>/dev/null; then
        return 0
    fi
    if [[ ! -x "$venv/bin/python" ]]; then
        if ! python3 -m venv "$venv" 2>/dev/null; then
            # Debian splits venv out of python3.
            if command -v apt-get >/dev/null 2>&1; then
                apt-get install -y -qq python3-venv >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }
            fi
            rm -rf "$venv"
            python3 -m venv "$venv"
        fi
    fi
    echo "chroma: installing chromadb==$version into $venv" >&2
    "$venv/bin/pip" install --disable-pip-version-check -q "chromadb==$version" >&2
}

start() {
    local port="$1" dir="$2"
    install
    mkdir -p "$dir"
    "$venv/bin/chroma" run --host 127.0.0.1 --port "$port" --path "$dir" >"$dir/chroma.log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 300); do
        if curl -fsS "http://127.0.0.1:$port/api/v2/heartbeat" >/dev/null 2>&1 \
            || python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/api/v2/heartbeat', timeout=1)" 2>/dev/null; then
            echo "$pid"
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "chroma: server exited; see $dir/chroma.log" >&2
            cat "$dir/chroma.log" >&2 || true
            return 1
        fi
        sleep 0.2
    done
    kill "$pid" 2>/dev/null || true
    echo "chroma: not ready after 60 s; see $dir/chroma.log" >&2
    return 1
}

case "${1:-}" in
    install) install ;;
    start) start "${2:?port}" "${3:?data dir}" ;;
    stop) kill "${2:?pid}" 2>/dev/null || true ;;
    run) install; exec "$venv/bin/chroma" run --host 127.0.0.1 --port "${2:?port}" --path "${3:?data dir}" ;;
    *) sed -n '2,9p' "$0"; exit 2 ;;
esac
