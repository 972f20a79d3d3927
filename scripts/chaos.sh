#!/usr/bin/env bash
# make chaos: fault injection against the release binaries (docs/reliability.md). Scenarios:
#   kill9      N kill -9s of the server during uploads and chats; every acknowledged upload
#              (file id printed) and turn (answer printed) must be in the database after a
#              restart, and PRAGMA integrity_check must say ok
#   fragments  200 pre-HELLO peers x 128 FRAGMENTs; heap under 300 MB, a client still served
#   idle       300 silent sockets; a client still served, heap under 300 MB
#   httpidle   150 idle HTTP sockets; /api/health still answers
#   noread     40 clients accept a 16 MiB nplt download and never read; heap under 300 MB
#   uploads    30 concurrent 9 MB uploads, then 100 sequential 2 MB ones (lexical index);
#              once the index's merges for them are done, their sessions are deleted;
#              RSS must be back within 10 s of the merges the deletes cause
#   (each flood: RSS back within 20% of idle within 10 s of the load ending)
#   diskfull   a 24 MiB tmpfs (unshare -rm) filled by uploads: refusals never `internal`,
#              a turn on the full disk is saved or ends with an error (never silent loss)
#   admission  no peer can hold the server (default limits; a normal client must get its
#              WELCOME within 2 s during each load): 300 idle clients past HELLO (half
#              heartbeating), 300 silent legacy sockets (no token), an HTTP slowloris that
#              reopens its sockets (/api/health must answer 30 of 30), 20 half uploads
#              holding on with heartbeats (temp space within its budget, emptied by the
#              stall deadline), 3,000 HELLO-and-close cycles (no session rows left)
#   uploadkill the server killed (-9) while `llmops-tui upload` waits for indexing, then
#              restarted: the client's exit code must match what landed
# Prints a table: scenario, trials, failures, data lost. Exit 1 when any trial failed.
# Usage: scripts/chaos.sh [KILLS]   (default 10; CHAOS_SKIP_BUILD=1 uses existing binaries;
#        CHAOS_ONLY="uploads diskfull" runs only those scenarios; CHAOS_PROFILE=debug runs
#        the debug binaries instead of the release ones)
set -uo pipefail

KILLS=${1:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROFILE=${CHAOS_PROFILE:-release}
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE
SERVER=$BIN/llmops-server
TUI=$BIN/llmops-tui
TOKEN=chaos-token-0123456789abcdef
CEILING_KIB=$((300 * 1024))
WORK=$(mktemp -d /tmp/llmops-chaos.XXXXXX)
SERVER_PID=""
declare -a ROWS=()

cleanup() {
    [[ -n $SERVER_PID ]] && kill -9 "$SERVER_PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

if [[ ${CHAOS_SKIP_BUILD:-0} != 1 ]]; then
    if [[ $PROFILE == release ]]; then
        (cd "$ROOT" && cargo build --release --bins) || exit 1
    else
        (cd "$ROOT" && cargo build --bins) || exit 1
    fi
fi
for b in "$SERVER" "$TUI"; do
    [[ -x $b ]] || { echo "missing $b (build release first)" >&2; exit 1; }
done

# start_server DATA_DIR LOG [EXTRA...]: starts the server on free loopback ports (PORT, if
# set, instead of a random one); sets SERVER_PID and ADDR. A wrapper command may be given in
# WRAP (an array); NO_TOKEN=1 starts it without a token (legacy clients are greeted then).
start_server() {
    local data=$1 log=$2
    shift 2
    local port=${PORT:-$((20000 + RANDOM % 20000))}
    local auth=(--auth-token "$TOKEN")
    [[ ${NO_TOKEN:-0} == 1 ]] && auth=()
    ADDR=127.0.0.1:$port
    "${WRAP[@]}" "$SERVER" --config /dev/null --data-dir "$data" "${auth[@]}" --socket none \
        --listen "$ADDR" --rdt-listen 127.0.0.1:$((port + 1)) \
        --http-listen 127.0.0.1:$((port + 2)) --embedder none "$@" >"$log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 300); do
        grep -q '^llmops-server ready' "$log" 2>/dev/null && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "server did not start; log:" >&2
    tail -20 "$log" >&2
    return 1
}

# The server's own pid under a wrapper (unshare execs it, so it is the same process).
server_rss_pid() { echo "$SERVER_PID"; }

stop_server() {
    [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    SERVER_PID=""
}

# check_db DB LEDGER: prints "lost=N integrity=ok|..." for the acknowledged items in LEDGER
# (lines `upload FILE_ID` and `turn SESSION_ID ANSWER_COUNT`).
check_db() {
    python3 - "$1" "$2" <<'PY'
import sqlite3, sys
db, ledger = sys.argv[1], sys.argv[2]
c = sqlite3.connect(db)
integrity = c.execute("PRAGMA integrity_check").fetchone()[0]
lost = 0
turns = {}
for line in open(ledger):
    parts = line.split()
    if parts[0] == "upload":
        if c.execute("SELECT 1 FROM uploads WHERE file_id = ?", (parts[1],)).fetchone() is None:
            lost += 1
    elif parts[0] == "turn":
        turns[parts[1]] = turns.get(parts[1], 0) + 1
for sid, n in turns.items():
    have = c.execute(
        "SELECT COUNT(*) FROM messages WHERE session_id = ? AND role = 'assistant'", (sid,)
    ).fetchone()[0]
    lost += max(0, n - have)
print(f"lost={lost} integrity={integrity}")
PY
}

json_field() { python3 -c 'import json,sys
try: print(json.loads(sys.stdin.read().strip().splitlines()[-1]).get(sys.argv[1], ""))
except Exception: print("")' "$1"; }

WRAP=()

# ----- kill -9 during uploads and chats ----------------------------------------------
scenario_kill9() {
    local data=$WORK/kill9 ledger=$WORK/kill9.ledger failures=0 lost_total=0
    mkdir -p "$data"
    : >"$ledger"
    for i in 1 2 3 4; do
        python3 -c "import sys; sys.stdout.write(''.join(f'2026-01-01 00:00:{n%60:02d} w$i line {n} status {200 + n%3}\n' for n in range(60000)))" >"$WORK/up$i.log"
    done
    for trial in $(seq 1 "$KILLS"); do
        start_server "$data" "$WORK/kill9-$trial.log" || { failures=$((failures + 1)); continue; }
        local sid
        sid=$("$TUI" --server "$ADDR" --token "$TOKEN" --json ask "磁盘使用情况" | json_field session_id)
        [[ -n $sid ]] && echo "turn $sid" >>"$ledger"
        local pids=()
        for w in 1 2 3 4; do
            (
                while true; do
                    out=$("$TUI" --server "$ADDR" --token "$TOKEN" --json upload --mode nplt \
                        "$WORK/up$w.log" 2>/dev/null) || exit 0
                    fid=$(json_field file_id <<<"$out")
                    [[ -n $fid ]] && echo "upload $fid" >>"$ledger"
                done
            ) &
            pids+=($!)
            (
                while [[ -n $sid ]]; do
                    out=$("$TUI" --server "$ADDR" --token "$TOKEN" --session "$sid" --json \
                        ask "内存使用情况" 2>/dev/null) || exit 0
                    [[ -n $(json_field answer <<<"$out") ]] && echo "turn $sid" >>"$ledger"
                done
            ) &
            pids+=($!)
        done
        sleep "$(python3 -c 'import random; print(round(random.uniform(1.0, 4.0), 2))')"
        kill -9 "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null
        SERVER_PID=""
        sleep 1
        # The loops and the clients they started (retrying against the dead server).
        for p in "${pids[@]}"; do
            pkill -P "$p" 2>/dev/null
            kill "$p" 2>/dev/null
        done
        wait "${pids[@]}" 2>/dev/null
        local res lost integ
        res=$(check_db "$data/llmops.sqlite" "$ledger")
        lost=${res#lost=}; lost=${lost%% *}
        integ=${res#*integrity=}
        lost_total=$((lost_total + lost))
        if [[ $lost != 0 || $integ != ok ]]; then
            failures=$((failures + 1))
            echo "kill9 trial $trial: $res" >&2
        fi
    done
    local acked
    acked=$(wc -l <"$ledger")
    ROWS+=("kill -9 during uploads and chats ($acked acknowledged)|$KILLS|$failures|$lost_total")
}

# ----- hostile peers and heavy loads ---------------------------------------------------
# flood KIND LABEL [ARGS...]: runs chaos_peers.py KIND against a fresh server. A trial fails
# when the peak RSS reaches 300 MB, RSS is not back within 20% of idle 10 s after the load
# ended, or a normal client (or, for uploads, the load itself) was not served.
scenario_flood() {
    local kind=$1 label=$2
    shift 2
    local data=$WORK/flood-$kind-$RANDOM
    mkdir -p "$data"
    local extra=() args=("$@")
    if [[ $kind == noread ]]; then
        mkdir -p "$WORK/docs"
        head -c $((16 << 20)) /dev/urandom >"$WORK/docs/big.bin"
        extra=(--docs "$WORK/docs")
        args=("$WORK/docs/big.bin")
    fi
    start_server "$data" "$WORK/flood-$kind.log" --max-connections-per-ip 1000 \
        --max-connections 1000 "${extra[@]}" || { ROWS+=("$label|1|1|-"); return; }
    local out idle peak after settle served held apeak failures=0
    out=$(python3 "$ROOT/scripts/chaos_peers.py" "$kind" "$ADDR" "$(server_rss_pid)" "$TOKEN" "${args[@]}")
    kv() { tr ' ' '\n' <<<"$out" | sed -n "s/^$1=//p"; }
    idle=$(kv idle_kib) peak=$(kv peak_kib) after=$(kv after_kib) settle=$(kv settle_s)
    served=$(kv served) held=$(kv held_kib) apeak=$(kv anon_peak_kib)
    # The ceiling is on VmRSS, mapped index files included (merges are capped in size so
    # that they fit, see docs/reliability.md); the heap (RssAnon) is reported beside it.
    if [[ -z $peak || $peak -ge $CEILING_KIB || $served != 1 || $settle == -1 || -z $settle ]]; then
        failures=1
    fi
    echo "$label: $out" >&2
    stop_server
    local kept=""
    [[ -n $held ]] && kept=", merges done $(kv merging_s) s after the last upload, index of the data $((held / 1024)) MB, after deleting it (merges done $(kv purging_s) s after the deletes)"
    ROWS+=("$label: RSS idle $((${idle:-0} / 1024)) MB, peak $((${peak:-0} / 1024)) MB (heap $((${apeak:-0} / 1024)) MB)$kept $((${after:-0} / 1024)) MB (${settle:-?} s), served=${served:-?}|1|$failures|0")
}

# ----- no peer can hold the server ---------------------------------------------------
# admission KIND LABEL [SERVER FLAGS...]: chaos_peers.py KIND against a fresh server with the
# default connection limits. A trial fails when a normal client did not get its WELCOME
# within 2 s during the load, or the kind's own check fails.
scenario_admission() {
    local kind=$1 label=$2
    shift 2
    local data=$WORK/adm-$kind
    mkdir -p "$data"
    local token=$TOKEN
    [[ ${NO_TOKEN:-0} == 1 ]] && token=-
    start_server "$data" "$WORK/adm-$kind.log" "$@" || { ROWS+=("$label|1|1|-"); return; }
    local out failures=0
    out=$(python3 "$ROOT/scripts/chaos_peers.py" "$kind" "$ADDR" "$(server_rss_pid)" "$token")
    kv() { tr ' ' '\n' <<<"$out" | sed -n "s/^$1=//p"; }
    local served_s figure
    served_s=$(kv served_s)
    if [[ -z $served_s || $served_s == None ]] || ! python3 -c "import sys; sys.exit(float('$served_s') >= 2)"; then
        failures=1
    fi
    case $kind in
        authidle) figure="new client served in ${served_s} s" ;;
        legacyidle) figure="$(kv greeted) greeted, new client served in ${served_s} s" ;;
        slowloris)
            figure="/api/health $(kv health_ok) (slowest $(kv health_worst_s) s), $(kv reopened) reopened, NPLT client served in ${served_s} s"
            [[ $(kv health_ok) == 30/30 ]] || failures=1 ;;
        halfup)
            local peak=$(kv temp_peak_kib) cleared=$(kv temp_cleared_s)
            figure="$(kv accepted) held, $(kv refused) refused at start, temp peak $((${peak:-0} / 1024)) MiB of 64, emptied ${cleared} s after the last byte, new client served in ${served_s} s"
            [[ -n $peak && $peak -le $((64 * 1024)) && $cleared != None && -n $cleared ]] || failures=1 ;;
        hellospam)
            figure="$(kv cycles) cycles, $(kv sessions_added) session rows left, new client served in ${served_s} s"
            [[ $(kv sessions_added) == 0 ]] || failures=1 ;;
    esac
    echo "$label: $out" >&2
    stop_server
    ROWS+=("$label: $figure|1|$failures|0")
}

# ----- server killed while `upload` waits for the index -----------------------------------
# Each trial: the server holds a saved upload before indexing it (fault point), is killed
# with -9 while `llmops-tui upload` waits, and restarts on the same port. The client must
# exit 0 with the file id the database holds, or non-zero with no such row.
scenario_uploadkill() {
    local data=$WORK/upkill trials=${1:-5} failures=0 landed=0
    mkdir -p "$data"
    python3 -c "import sys; sys.stdout.write(''.join(f'2026-01-01 00:00:{n%60:02d} kill wait line {n}\n' for n in range(30000)))" >"$WORK/upkill.log"
    local port=$((20000 + RANDOM % 20000))
    for trial in $(seq 1 "$trials"); do
        WRAP=(env LLMOPS_FAULT_BEFORE_INDEX_MS=4000)
        PORT=$port start_server "$data" "$WORK/upkill-$trial.log" || { WRAP=(); failures=$((failures + 1)); continue; }
        WRAP=()
        local before
        before=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from uploads').fetchone()[0])" "$data/llmops.sqlite")
        "$TUI" --server "$ADDR" --token "$TOKEN" --json upload --mode nplt "$WORK/upkill.log" \
            >"$WORK/upkill-$trial.out" 2>"$WORK/upkill-$trial.err" &
        local cli=$!
        # Saved (the row is committed) and waiting for the index: kill it there.
        for _ in $(seq 1 100); do
            local n
            n=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from uploads').fetchone()[0])" "$data/llmops.sqlite" 2>/dev/null)
            [[ ${n:-0} -gt $before ]] && break
            sleep 0.05
        done
        kill -9 "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null
        SERVER_PID=""
        sleep 0.5
        PORT=$port start_server "$data" "$WORK/upkill-$trial-restart.log" || { failures=$((failures + 1)); kill "$cli" 2>/dev/null; continue; }
        wait "$cli"
        local code=$? fid
        fid=$(json_field file_id <"$WORK/upkill-$trial.out")
        stop_server
        local in_db
        in_db=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from uploads where file_id = ?', (sys.argv[2],)).fetchone()[0])" "$data/llmops.sqlite" "$fid")
        if [[ $code == 0 && -n $fid && $in_db == 1 ]]; then
            landed=$((landed + 1))
        else
            failures=$((failures + 1))
            echo "uploadkill trial $trial: exit $code, file_id '$fid' in db $in_db; $(tail -2 "$WORK/upkill-$trial.err")" >&2
        fi
    done
    ROWS+=("server killed during the upload's index wait: $landed of $trials exits 0 with the landed file id|$trials|$failures|0")
}

# ----- disk full ------------------------------------------------------------------------
scenario_diskfull() {
    if ! unshare -rm sh -c 'mount -t tmpfs -o size=1m tmpfs /mnt' 2>/dev/null; then
        ROWS+=("disk full (skipped: no unprivileged tmpfs)|0|0|-")
        return
    fi
    local data=$WORK/full failures=0 lost=0
    mkdir -p "$data"
    WRAP=(unshare -rm sh -c "mount -t tmpfs -o size=24m tmpfs '$data' && exec \"\$0\" \"\$@\"")
    # Floor 0: this fills the disk for real (the floor itself: tests/tests/reliability.rs).
    start_server "$data" "$WORK/full.log" --upload-free-floor-mib 0 || { WRAP=(); ROWS+=("disk full|1|1|-"); return; }
    WRAP=()
    local ledger=$WORK/full.ledger
    : >"$ledger"
    head -c $((1 << 20)) /dev/zero | tr '\0' 'x' >"$WORK/fill.txt"
    local n=0 code
    while ((n < 40)); do
        out=$("$TUI" --server "$ADDR" --token "$TOKEN" --json upload --mode nplt "$WORK/fill.txt" 2>/dev/null)
        fid=$(json_field file_id <<<"$out")
        if [[ -z $fid ]]; then
            code=$(json_field code <<<"$out")
            [[ $code == internal ]] && { failures=$((failures + 1)); echo "diskfull: $out" >&2; }
            break
        fi
        echo "upload $fid" >>"$ledger"
        n=$((n + 1))
    done
    out=$("$TUI" --server "$ADDR" --token "$TOKEN" --json ask "磁盘使用情况" 2>/dev/null)
    sid=$(json_field session_id <<<"$out")
    # An answer printed without an error must be in the history after a restart.
    if [[ -n $(json_field answer <<<"$out") && -z $(json_field error <<<"$out") && -n $sid ]]; then
        echo "turn $sid" >>"$ledger"
    fi
    # The database lives on the tmpfs, inside the namespace: check it through the
    # server's own mount view (/proc/PID/root).
    # SQLite resolves symlinks in a database path, and /proc/PID/root is one (to "/" in our
    # own view): copy the database and its WAL out while the server is stopped.
    local snap=$WORK/full-snapshot
    mkdir -p "$snap"
    kill -STOP "$SERVER_PID" 2>/dev/null
    cp /proc/$SERVER_PID/root$data/llmops.sqlite* "$snap/"
    kill -CONT "$SERVER_PID" 2>/dev/null
    res=$(check_db "$snap/llmops.sqlite" "$ledger" 2>&1)
    stop_server
    lost=${res#lost=}; lost=${lost%% *}
    [[ $lost =~ ^[0-9]+$ ]] || lost=0
    if [[ $lost != 0 || $res != *integrity=ok* ]]; then
        failures=$((failures + 1))
        echo "diskfull: $res" >&2
    fi
    ROWS+=("disk full: $n uploads filled 24 MiB, refusals not internal|1|$failures|$lost")
}

# CHAOS_ONLY="kill9 fragments ..." runs only the named scenarios (all by default).
want() { [[ -z ${CHAOS_ONLY:-} || " $CHAOS_ONLY " == *" $1 "* ]]; }
want kill9 && scenario_kill9
want fragments && scenario_flood fragments "200 pre-HELLO peers x 128 FRAGMENTs"
want idle && scenario_flood idle "300 idle sockets"
want httpidle && scenario_flood httpidle "150 idle HTTP sockets, /api/health asked"
want noread && scenario_flood noread "40 never-reading nplt downloads of 16 MiB"
want uploads && scenario_flood uploads "30 concurrent 9 MB uploads" "$TUI" "$WORK/load30" 30 9000000 30
want uploads && scenario_flood uploads "100 sequential 2 MB uploads" "$TUI" "$WORK/load100" 100 2000000 1
want diskfull && scenario_diskfull
want admission && scenario_admission authidle "300 idle clients past HELLO, half heartbeating"
want admission && NO_TOKEN=1 scenario_admission legacyidle "300 silent sockets greeted as legacy"
want admission && scenario_admission slowloris "HTTP slowloris, 100 sockets reopened"
want admission && scenario_admission halfup "20 half uploads (9.9 of 10 MiB) then heartbeats" \
    --upload-stall-secs 10 --upload-temp-per-client-mib 64
want admission && scenario_admission hellospam "3,000 HELLO-and-close cycles"
want uploadkill && scenario_uploadkill 5

total_fail=0
printf '\n| %-70s | %6s | %8s | %9s |\n' scenario trials failures "data lost"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..72})" "--------" "----------" "-----------"
for r in "${ROWS[@]}"; do
    IFS='|' read -r name trials fails lost <<<"$r"
    printf '| %-70s | %6s | %8s | %9s |\n' "$name" "$trials" "$fails" "$lost"
    total_fail=$((total_fail + fails))
done
((total_fail == 0))
