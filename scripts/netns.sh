#!/usr/bin/env bash
# Kernel-level random packet loss for TCP and UDP alike (this kernel has no `tc netem`):
# two network namespaces joined by a veth pair, with an nftables rule in each dropping
# N% of the packets it receives on the veth (`numgen random mod 100 < N drop`), so both
# directions lose N%. No delay can be added this way: nftables only drops.
#
#   scripts/netns.sh install          install nftables via apt if `nft` is missing (root)
#   scripts/netns.sh up NAME [LOSS]   create NAME-s (10.203.0.1, the server side) and
#                                     NAME-c (10.203.0.2, the client side); replaces any
#                                     earlier pair of that name
#   scripts/netns.sh loss NAME LOSS   set the drop percentage (integer 0-100) both ways
#   scripts/netns.sh gso NAME SEGS    set the veth's gso_max_segs (1 as made by `up`; 65535
#                                     lets TCP and UDP send 64 KiB GSO bursts again, which a
#                                     drop rule would drop whole: only meaningful at 0% loss)
#   scripts/netns.sh rate NAME MBIT LIMIT
#                                     a drop-tail bottleneck server -> client (the direction
#                                     downloads flow) in a router namespace NAME-r that the
#                                     first call puts between the two (veth-s <-> rs, rc <->
#                                     veth-c, IP forwarding, proxy ARP; addresses, device
#                                     names and nftables rules of NAME-s / NAME-c unchanged):
#                                     `tc qdisc tbf rate MBITmbit limit LIMIT` (queue bytes)
#                                     on rc, burst 1 ms of the rate (at least 16 KB); MBIT 0
#                                     removes it (the router stays). tbf works in namespaces
#                                     here (netem does not). Not on the server's own veth: a
#                                     queue in the sender's qdisc throttles TCP through TCP
#                                     Small Queues (a socket may keep only ~1 ms of its rate
#                                     there), which no remote bottleneck does; a routed hop
#                                     orphans the packets before they queue
#   scripts/netns.sh cc NAME ALGO     TCP congestion control in both namespaces (cubic, bbr,
#                                     reno: what `net.ipv4.tcp_available_congestion_control`
#                                     offers); a new namespace starts with the host's default
#   scripts/netns.sh down NAME        delete the namespaces (and so the veth pairs)
#
# Run programs inside with `ip netns exec NAME-s CMD`. Needs root. The veth advertises
# gso_max_segs 1 so the kernel segments TCP and UDP-GSO super-packets before they cross
# it: the drop rule then sees (and drops) single wire-sized packets, not 64 KiB bursts.
set -euo pipefail

SERVER_IP=10.203.0.1
CLIENT_IP=10.203.0.2

die() { echo "netns.sh: $*" >&2; exit 1; }

need_root() {
    [[ $(id -u) -eq 0 ]] || die "需要 root / must run as root"
}

install_nft() {
    if command -v nft >/dev/null 2>&1; then
        return 0
    fi
    need_root
    command -v apt-get >/dev/null 2>&1 || die "nft 不存在且没有 apt-get / nft is missing and apt-get is not available"
    echo "netns.sh: installing nftables"
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q nftables >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q nftables >/dev/null
    fi
    command -v nft >/dev/null 2>&1 || die "nftables installed but nft not found"
}

check_loss() {
    [[ "$1" =~ ^[0-9]+$ ]] && (( $1 <= 100 )) || die "丢包率必须是 0-100 的整数 / loss must be an integer 0-100, got '$1'"
}

# The input chain of one side: drop LOSS% of what arrives on its veth.
set_loss_in() {
    local ns="$1" dev="$2" loss="$3"
    {
        echo "table inet llmops_loss { chain in { type filter hook input priority 0; policy accept; }; }"
        echo "flush chain inet llmops_loss in"
        if (( loss > 0 )); then
            echo "add rule inet llmops_loss in iifname \"$dev\" numgen random mod 100 < $loss counter drop"
        fi
    } | ip netns exec "$ns" nft -f -
}

cmd_loss() {
    local name="$1" loss="$2"
    check_loss "$loss"
    set_loss_in "$name-s" veth-s "$loss"
    set_loss_in "$name-c" veth-c "$loss"
}

cmd_down() {
    local name="$1"
    ip netns del "$name-s" 2>/dev/null || true
    ip netns del "$name-c" 2>/dev/null || true
    ip netns del "$name-r" 2>/dev/null || true
}

cmd_up() {
    local name="$1" loss="${2:-0}"
    check_loss "$loss"
    need_root
    install_nft
    cmd_down "$name"
    ip netns add "$name-s"
    ip netns add "$name-c"
    # Created straight inside the namespaces, so the short fixed names never clash.
    ip link add veth-s netns "$name-s" type veth peer name veth-c netns "$name-c"
    ip -n "$name-s" addr add "$SERVER_IP/24" dev veth-s
    ip -n "$name-c" addr add "$CLIENT_IP/24" dev veth-c
    for side in s c; do
        ip -n "$name-$side" link set "veth-$side" gso_max_segs 1
        ip -n "$name-$side" link set "veth-$side" up
        ip -n "$name-$side" link set lo up
    done
    cmd_loss "$name" "$loss"
}

cmd_gso() {
    local name="$1" segs="$2"
    [[ "$segs" =~ ^[0-9]+$ ]] && (( segs >= 1 && segs <= 65535 )) || die "SEGS must be 1-65535, got '$segs'"
    ip -n "$name-s" link set veth-s gso_max_segs "$segs"
    ip -n "$name-c" link set veth-c gso_max_segs "$segs"
}

cmd_rate() {
    local name="$1" mbit="$2" limit="$3"
    [[ "$mbit" =~ ^[0-9]+$ ]] && (( mbit <= 100000 )) || die "MBIT must be an integer 0-100000, got '$mbit'"
    [[ "$limit" =~ ^[0-9]+$ ]] && (( limit >= 3000 )) || die "LIMIT must be a byte count >= 3000, got '$limit'"
    if (( mbit == 0 )); then
        ip netns exec "$name-r" tc qdisc del dev rc root 2>/dev/null || true
        return 0
    fi
    add_router "$name"
    # 1 ms worth of tokens: small enough to keep the rate smooth, large enough for a
    # full-size frame even at low rates.
    local burst=$(( mbit * 1000000 / 8 / 1000 ))
    (( burst >= 16000 )) || burst=16000
    ip netns exec "$name-r" tc qdisc replace dev rc root tbf rate "${mbit}mbit" burst "$burst" limit "$limit"
}

# Puts a router namespace NAME-r between NAME-s and NAME-c (once): the direct veth pair
# is replaced by veth-s <-> rs and rc <-> veth-c, same addresses and names on the ends.
add_router() {
    local name="$1" r="$1-r"
    ip netns list | grep -qx "$r\( .*\)\?" && return 0
    local segs
    segs=$(ip -d -n "$name-s" link show veth-s | grep -o 'gso_max_segs [0-9]*' | awk '{print $2}')
    ip netns add "$r"
    ip -n "$name-s" link del veth-s
    ip link add veth-s netns "$name-s" type veth peer name rs netns "$r"
    ip link add veth-c netns "$name-c" type veth peer name rc netns "$r"
    ip -n "$name-s" addr add "$SERVER_IP/24" dev veth-s
    ip -n "$name-c" addr add "$CLIENT_IP/24" dev veth-c
    ip netns exec "$r" sysctl -q -w net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 \
        net.ipv4.conf.default.rp_filter=0 >/dev/null
    for d in rs rc; do
        # proxy_delay 0: proxy ARP answers at once (the default delays them up to 0.8 s, which
        # held the first second of traffic, idle pings included, behind address resolution).
        ip netns exec "$r" sysctl -q -w "net.ipv4.conf.$d.proxy_arp=1" "net.ipv4.conf.$d.rp_filter=0" \
            "net.ipv4.neigh.$d.proxy_delay=0" >/dev/null
        # The router's own ARP requests need a source address on the subnet.
        ip -n "$r" addr add 10.203.0.254/32 dev "$d"
        ip -n "$r" link set "$d" up
    done
    ip -n "$r" link set lo up
    ip -n "$r" route add "$SERVER_IP/32" dev rs
    ip -n "$r" route add "$CLIENT_IP/32" dev rc
    for side in s c; do
        ip -n "$name-$side" link set "veth-$side" gso_max_segs "${segs:-1}"
        ip -n "$name-$side" link set "veth-$side" up
    done
}

cmd_cc() {
    local name="$1" algo="$2"
    [[ "$algo" =~ ^[a-z0-9_]+$ ]] || die "ALGO must be a congestion control name, got '$algo'"
    # A namespace may only default to an algorithm in the host's allowed list (the host's
    # default and reno unless configured): add it there (loading its module) when missing.
    local allowed
    allowed="$(sysctl -n net.ipv4.tcp_allowed_congestion_control)"
    if [[ " $allowed " != *" $algo "* ]]; then
        modprobe -q "tcp_$algo" 2>/dev/null || true
        sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed $algo" >/dev/null \
            || die "cannot allow TCP congestion control '$algo' (net.ipv4.tcp_allowed_congestion_control)"
    fi
    for side in s c; do
        ip netns exec "$name-$side" sysctl -q -w "net.ipv4.tcp_congestion_control=$algo" >/dev/null
    done
}

[[ $# -ge 1 ]] || die "usage: netns.sh install | up NAME [LOSS] | loss NAME LOSS | gso NAME SEGS | rate NAME MBIT LIMIT | cc NAME ALGO | down NAME"
case "$1" in
    install) install_nft ;;
    up) [[ $# -ge 2 ]] || die "usage: netns.sh up NAME [LOSS]"; cmd_up "$2" "${3:-0}" ;;
    loss) [[ $# -eq 3 ]] || die "usage: netns.sh loss NAME LOSS"; need_root; cmd_loss "$2" "$3" ;;
    gso) [[ $# -eq 3 ]] || die "usage: netns.sh gso NAME SEGS"; need_root; cmd_gso "$2" "$3" ;;
    rate) [[ $# -eq 4 ]] || die "usage: netns.sh rate NAME MBIT LIMIT"; need_root; cmd_rate "$2" "$3" "$4" ;;
    cc) [[ $# -eq 3 ]] || die "usage: netns.sh cc NAME ALGO"; need_root; cmd_cc "$2" "$3" ;;
    down) [[ $# -eq 2 ]] || die "usage: netns.sh down NAME"; need_root; cmd_down "$2" ;;
    *) die "unknown command '$1' (install | up | loss | gso | rate | cc | down)" ;;
esac
