#!/usr/bin/env bash
# Starts llmops-server on the embedded defaults with the given data dir, opens the client
# against it, and stops the server when the client exits (whatever way it exits).
set -euo pipefail
data_dir="${1:-storage}"
listen="${2:-127.0.0.1:9999}"
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/target/release"
out="$(mktemp)"
"$bin/llmops-server" --listen "$listen" --data-dir "$data_dir" >"$out" 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$out"' EXIT
# Wait for the readiness line rather than sleeping a fixed time.
for _ in $(seq 1 200); do
  if grep -q "listening on" "$out"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$out" >&2; exit 1; fi
  sleep 0.05
done
addr="$(sed -n 's/.*listening on //p' "$out" | head -1)"
if [ -z "$addr" ]; then echo "server did not start:" >&2; cat "$out" >&2; exit 1; fi
echo "llmops-server on $addr (data: $data_dir, logs: $data_dir/logs)"
"$bin/llmops-tui" --server "$addr"
