#!/usr/bin/env bash
# Idle CPU of the release server and the full-screen client: both started as `make run`
# starts them (the TUI in a 160x45 tmux pane), left alone until the server's start-up
# indexing is over, then their CPU time (user + system, /proc/PID/stat) over 60 s, first
# with the Chat pane in front and then with the System pane (its per-second snapshots and
# sparklines drawn). Writes docs/benchmarks.md's `idle-cpu` section.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${LLMOPS_BIN_DIR:-${CARGO_TARGET_DIR:-target}/release}"
window="${LLMOPS_IDLE_SECS:-60}"
work="$(mktemp -d)"
session="llmops-idle-$$"
server_pid=""
cleanup() {
    tmux kill-session -t "$session" 2>/dev/null || true
    if [[ -n "$server_pid" ]]; then kill -TERM "$server_pid" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# The model the server embeds with, when the checkout has it (setup fetched it).
mkdir -p "$work/data"
if [[ -d storage/models ]]; then cp -r storage/models "$work/data/"; fi
"$bin/llmops-server" --listen 127.0.0.1:0 --data-dir "$work/data" >"$work/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 1 400); do
    grep -q "listening on" "$work/server.out" && break
    sleep 0.05
done
addr="$(sed -n 's/.*listening on //p' "$work/server.out" | head -1)"
[[ -n "$addr" ]] || { echo "bench_idle: the server did not start" >&2; cat "$work/server.out" >&2; exit 1; }
tmux new-session -d -s "$session" -x 160 -y 45 "XDG_RUNTIME_DIR=$work '$bin/llmops-tui' --server $addr"
sleep 2
tui_pid="$(pgrep -n -f "llmops-tui --server $addr")"
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz="$(getconf CLK_TCK)"
pct() { awk -v t="$1" -v hz="$hz" -v s="$2" 'BEGIN { printf "%.2f", 100 * t / hz / s }'; }
# Start-up indexing of the shipped docs: wait until a 5 s window of the server is quiet.
for _ in $(seq 1 60); do
    a="$(ticks "$server_pid")"; sleep 5; b="$(ticks "$server_pid")"
    (( b - a <= hz / 20 )) && break
done
measure() {
    local s0 t0 s1 t1
    s0="$(ticks "$server_pid")"; t0="$(ticks "$tui_pid")"
    sleep "$window"
    s1="$(ticks "$server_pid")"; t1="$(ticks "$tui_pid")"
    echo "$(pct $((s1 - s0)) "$window") $(pct $((t1 - t0)) "$window")"
}
read -r chat_server chat_tui <<<"$(measure)"
tmux send-keys -t "$session" M-4
sleep 2
read -r sys_server sys_tui <<<"$(measure)"
body="| client in front | \`llmops-server\` CPU | \`llmops-tui\` CPU |
|---|---|---|
| Chat pane, nothing typed | $chat_server % | $chat_tui % |
| System pane (snapshots every second, per-core bars, sparklines) | $sys_server % | $sys_tui % |

CPU time (user + system from /proc/PID/stat) over ${window} s of each, as a share of one core, after the server's start-up indexing went quiet; release binaries, the TUI in a 160x45 tmux pane. Load average when measured: $(cut -d' ' -f1-3 /proc/loadavg)."
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}" cargo run --quiet -p llmops-tests --bin bench_section -- \
    idle-cpu "Idle CPU: server and full-screen client" "scripts/bench_idle.sh" <<<"$body"
echo "bench: idle CPU chat server ${chat_server}% tui ${chat_tui}%, system server ${sys_server}% tui ${sys_tui}%"
