#!/usr/bin/env bash
# Installs, runs, upgrades and removes the Debian package on this machine (needs root; it
# purges the package at the end). One line per check, then "N passed, N failed".
#   - lintian on the package: no errors;
#   - a fresh install with no network, systemd-analyze verify/security on the unit, the
#     server started from the installed paths as the unit starts it, a TUI asking it about
#     a log only the `adm` group may read, the embedding model installed with fetch-model;
#   - the previous package (LLMOPS_DEB_PREVIOUS=FILE.deb, or built from git revision
#     LLMOPS_DEB_PREVIOUS_REF, default main) installed and used, then upgraded to this one:
#     the edited conffile kept, the data directory migrated, the old session still there;
#   - `dpkg -r` keeps /var/lib/llmops, `dpkg --purge` removes it.
# Without systemd as PID 1 the unit cannot be started by systemctl: the server is started
# the way the unit would start it (its user, groups, capabilities, directories, umask,
# no_new_privs), read from the installed unit file.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
export CARGO_TARGET_DIR="$target"
unit_name=llmops-server.service
# Local operators use the socket (root always may); TCP needs a token once the packaged
# config names an operators group.
addr=unix:/run/llmops/llmops.sock
tcp_addr=127.0.0.1:9999
operator=llmops-deb-test-op
passed=0
failed=0

if [[ $(id -u) -ne 0 ]]; then
    echo "deb-test: needs root (it installs, upgrades and purges the package)" >&2
    exit 1
fi
if dpkg-query -W -f='${Status}' llmops 2>/dev/null | grep -q ' installed'; then
    if [[ "${LLMOPS_DEB_TEST_REPLACE:-0}" != "1" ]]; then
        echo "deb-test: llmops is installed here and the test purges it (data included);" \
            "set LLMOPS_DEB_TEST_REPLACE=1 to allow that" >&2
        exit 1
    fi
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
    stop_server
    userdel "$operator" >/dev/null 2>&1 || true
    dpkg --purge llmops >/dev/null 2>&1 || true
    rm -f /var/log/llmops-deb-test.log
    rm -rf "$work"
}
trap cleanup EXIT

check() {
    local what="$1"
    shift
    if "$@" >"$work/check.out" 2>&1; then
        echo "ok   $what"
        passed=$((passed + 1))
    else
        echo "FAIL $what"
        sed 's/^/     | /' "$work/check.out" | tail -20
        failed=$((failed + 1))
    fi
}

# --- the packages ----------------------------------------------------------------------

version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)"
if [[ -n "${LLMOPS_DEB_PREVIOUS:-}" ]]; then
    previous="$LLMOPS_DEB_PREVIOUS"
else
    prev_ref="${LLMOPS_DEB_PREVIOUS_REF:-main}"
    rm -rf "$target/debian/previous"
    echo "deb-test: building the previous package from $prev_ref"
    "$root/scripts/deb.sh" build-ref "$prev_ref" "$target/debian/previous" >"$work/prev.log" 2>&1 \
        || { tail -30 "$work/prev.log"; exit 1; }
    previous="$(ls "$target"/debian/previous/llmops_*_amd64.deb)"
fi
# The current package (the previous one was built in a target dir of its own).
echo "deb-test: building the package"
"$root/scripts/deb.sh" build >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
current="$target/debian/llmops_${version}_amd64.deb"
echo "deb-test: previous $(basename "$previous"), current $(basename "$current")"
schema_version="$(sed -n 's/^pub const SCHEMA_VERSION: u32 = \([0-9]*\);/\1/p' \
    "$root/server/src/store/schema.rs")"

check "the package is named llmops_${version}_amd64.deb" test -f "$current"
check "lintian: no errors" lintian --fail-on error --no-tag-display-limit "$current"
lintian "$current" 2>/dev/null | sed 's/^/     lintian: /' || true

# --- helpers ---------------------------------------------------------------------------

unit_file() {
    dpkg -L llmops | grep "/systemd/system/$unit_name\$" | head -1
}

# The value of KEY= in the installed unit (the last one wins, as in systemd).
unit_key() {
    sed -n "s/^$1=//p" "$(unit_file)" | tail -1
}

# Starts the installed server as the unit does; waits for its readiness line.
start_server() {
    local exec user group groups caps umask state runtime
    exec="$(unit_key ExecStart)"
    user="$(unit_key User)"
    group="$(unit_key Group)"
    groups="$(unit_key SupplementaryGroups | tr ' ' ',')"
    caps="$(unit_key AmbientCapabilities | tr 'A-Z' 'a-z' | sed 's/cap_//g')"
    umask="$(unit_key UMask)"
    state="/var/lib/$(unit_key StateDirectory)"
    runtime="/run/$(unit_key RuntimeDirectory)"
    install -d -o "$user" -g "$group" -m "$(unit_key StateDirectoryMode)" "$state"
    install -d -o "$user" -g "$group" -m "$(unit_key RuntimeDirectoryMode)" "$runtime"
    local nnp=()
    [[ "$(unit_key NoNewPrivileges)" != "yes" ]] || nnp=(--no-new-privs)
    local capargs=()
    if [[ -n "$caps" ]]; then
        capargs=(--inh-caps="-all,+$caps" --ambient-caps="+$caps" --bounding-set="-all,+$caps")
    else
        capargs=(--inh-caps=-all --bounding-set=-all)
    fi
    : >"$work/server.out"
    # shellcheck disable=SC2086
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$state" USER="$user" LOGNAME="$user" \
        STATE_DIRECTORY="$state" RUNTIME_DIRECTORY="$runtime" \
        setpriv --reuid="$user" --regid="$group" --groups="$groups" "${capargs[@]}" "${nnp[@]}" \
        -- /bin/sh -c "umask $umask; exec $exec" >"$work/server.out" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 600); do
        grep -q "llmops-server ready" "$work/server.out" && return 0
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.out"; return 1; }
        sleep 0.1
    done
    cat "$work/server.out"
    return 1
}

stop_server() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid"
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}

tui() {
    HOME="$work/home" XDG_STATE_HOME="$work/home/state" /usr/bin/llmops-tui --server "$addr" "$@"
}

# The server's process runs as the unit's user with only the unit's capabilities.
server_identity() {
    local pid
    pid="$(pgrep -f -o -u llmops '^/usr/bin/llmops-server')"
    [[ "$(stat -c %U "/proc/$pid")" == llmops ]]
    grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$pid/status"
    # CAP_KILL is bit 5: 0x20 in the effective and ambient sets, nothing else.
    grep -q '^CapEff:[[:space:]]*0000000000000020' "/proc/$pid/status"
    grep -q '^CapAmb:[[:space:]]*0000000000000020' "/proc/$pid/status"
}

# A member of the operators group reaches the server by the default endpoint (the socket,
# no --server, no token); a user outside it is refused on the socket and on TCP.
operators_by_identity() {
    getent passwd "$operator" >/dev/null \
        || useradd --system --no-create-home --shell /usr/sbin/nologin --groups llmops "$operator"
    # The clients' HOME, reachable by the two users (the work dir is root's, 0700).
    chmod 0711 "$work"
    mkdir -p "$work/ophome"
    chmod 0777 "$work/ophome"
    as_user() {
        local user="$1"
        shift
        env -i PATH=/usr/bin:/bin HOME="$work/ophome" \
            setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups -- "$@"
    }
    as_user "$operator" /usr/bin/llmops-tui --json status >"$work/op.json"
    grep -q '"server_version"' "$work/op.json" || { cat "$work/op.json"; return 1; }
    if as_user nobody /usr/bin/llmops-tui --json --server "$addr" status >"$work/nobody.json" 2>&1; then
        echo "nobody connected over the socket"; cat "$work/nobody.json"; return 1
    fi
    if as_user nobody /usr/bin/llmops-tui --json --server "$tcp_addr" status >"$work/nobody.json" 2>&1; then
        echo "nobody connected over TCP without a token"; cat "$work/nobody.json"; return 1
    fi
    grep -q 'members of llmops' "$work/nobody.json" || { cat "$work/nobody.json"; return 1; }
}

sql() {
    python3 - "$1" "$2" <<'PY'
import sqlite3, sys
c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
print(c.execute(sys.argv[2]).fetchone()[0])
PY
}

answer_has() {
    local want="$1"
    shift
    tui --json ask "$@" >"$work/ask.json"
    python3 - "$work/ask.json" "$want" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["answer"]
sys.exit(0 if sys.argv[2] in a else f"answer lacks {sys.argv[2]!r}: {a}")
PY
}

installed_layout() {
    id llmops
    getent group llmops >/dev/null
    getent group llmops-approvers >/dev/null
    [[ "$(stat -c '%U:%G %a' /var/lib/llmops)" == "llmops:llmops 700" ]]
    [[ "$(stat -c '%U %a' /etc/llmops/server.toml)" == "llmops 600" ]]
    grep -qx /etc/llmops/server.toml /var/lib/dpkg/info/llmops.conffiles
    test -x /usr/bin/llmops-server && test -x /usr/bin/llmops-tui
    test -f /usr/share/man/man1/llmops-server.1.gz && test -f /usr/share/man/man1/llmops-tui.1.gz
    test -n "$(unit_file)"
}

# A log only root and the adm group may read, with a known number of ERROR lines.
plant_log() {
    {
        for i in $(seq 1 37); do echo "2024-05-01T10:00:$((i % 60)) ERROR request $i failed"; done
        for i in $(seq 1 50); do echo "2024-05-01T10:01:$((i % 60)) INFO request $i ok"; done
    } >/var/log/llmops-deb-test.log
    chown root:adm /var/log/llmops-deb-test.log
    chmod 0640 /var/log/llmops-deb-test.log
}

# --- a fresh install, no network -------------------------------------------------------

dpkg --purge llmops >/dev/null 2>&1 || true
check "a fresh install with no network" unshare -n dpkg -i "$current"
check "the user, groups, directories, conffile, man pages and unit are in place" installed_layout
check "systemd-analyze verify on the unit" systemd-analyze verify "$(unit_file)"
systemd-analyze security --offline=yes "$(unit_file)" 2>/dev/null | tail -1 | sed 's/^/     /' || true
plant_log
check "the server starts from the installed paths as the unit starts it" start_server
check "it runs as llmops with CAP_KILL only and no_new_privs" server_identity
check "llmops-tui status connects over the socket" tui status
check "an operator connects by the default endpoint; others are refused on the socket and TCP" \
    operators_by_identity
check "llmops-tui ask counts the ERROR lines of a log only adm may read (37)" \
    answer_has 37 "/var/log/llmops-deb-test.log 里有多少个 ERROR"
check "the database was made at schema version $schema_version" \
    test "$(sql /var/lib/llmops/llmops.sqlite 'PRAGMA user_version')" = "$schema_version"
stop_server
model="$root/storage/models/multilingual-e5-small-q4/e5-small-q4.bin"
if [[ -f "$model" ]]; then
    check "fetch-model installs the model from a local file" /usr/lib/llmops/fetch-model "$model"
    check "the server starts with the model" start_server
    dense_on() {
        for _ in $(seq 1 300); do
            tui --json status >"$work/status.json"
            grep -q '"mode":"hybrid ' "$work/status.json" && return 0
            sleep 0.2
        done
        cat "$work/status.json"
        return 1
    }
    check "dense search is on" dense_on
    stop_server
else
    echo "skip fetch-model: no $model (make setup)"
fi
check "dpkg --purge of a fresh install removes /var/lib/llmops" \
    bash -c "dpkg --purge llmops >/dev/null && ! test -e /var/lib/llmops && ! test -e /etc/llmops"

# --- previous -> current ---------------------------------------------------------------

check "the previous package installs" dpkg -i "$previous"
check "the previous server starts" start_server
old_session=""
old_session_made() {
    tui --json --new-session ask "/var/log/llmops-deb-test.log 里有多少个 ERROR" >"$work/old.json"
    old_session="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["session_id"])' \
        "$work/old.json")"
    test -n "$old_session"
}
check "a session is made with the previous server" old_session_made
stop_server
echo "# edited by deb-test" >>/etc/llmops/server.toml
check "the upgrade installs over the previous package" \
    dpkg -i --force-confdef --force-confold "$current"
check "the edited conffile is kept" grep -qx "# edited by deb-test" /etc/llmops/server.toml
check "the upgraded server starts on the old data directory" start_server
check "the data directory is at schema version $schema_version" \
    test "$(sql /var/lib/llmops/llmops.sqlite 'PRAGMA user_version')" = "$schema_version"
old_session_kept() {
    tui --json sessions >"$work/sessions.json"
    grep -q "\"$old_session\"" "$work/sessions.json"
    tui --json --session "$old_session" ask "/var/log/llmops-deb-test.log 里有多少个 ERROR" \
        >"$work/again.json"
    grep -q 37 "$work/again.json"
}
check "the session made before the upgrade is listed and answers" old_session_kept
stop_server

# --- remove, purge ---------------------------------------------------------------------

check "dpkg -r removes the programs" bash -c "dpkg -r llmops >/dev/null && ! test -e /usr/bin/llmops-server"
check "dpkg -r keeps /var/lib/llmops and the conffile" \
    bash -c "test -s /var/lib/llmops/llmops.sqlite && test -f /etc/llmops/server.toml"
check "dpkg --purge removes /var/lib/llmops and /etc/llmops" \
    bash -c "dpkg --purge llmops >/dev/null && ! test -e /var/lib/llmops && ! test -e /etc/llmops"

echo "deb-test: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
