"""Writes the `queries-dev15` fixtures: one night (2026-11-19, 00:00-04:00 UTC) at the Halden
distribution centre of Pellworth Distribution. Three logs are written from one shared plan of the
night, so that the files agree:

- `consul-srv-2.log`: HashiCorp Consul 1.19 server agent `consul-srv-2` (one of three servers of
  datacenter `hld1`), `log_level = "debug"`, hclog text format
  (`2026-11-19T02:06:14.208Z [WARN]  agent.server.raft: heartbeat timeout reached, starting
  election: last-leader-addr=10.30.0.11:8300 last-leader-id=...`): values quoted only when they
  hold a character outside `-`..`~` (hclog's `needsQuoting`), so `latency="142.719µs"` is quoted
  and `latency=3.281402ms` is not;
- `named.log`: BIND 9.18 `named` on the site resolver `ns1` (10.30.0.53), one file channel with
  `print-time yes; print-category yes; print-severity yes;` and query logging on
  (`19-Nov-2026 02:06:16.412 queries: info: client @0x7f... 10.44.8.57#41822
  (wms-api.service.consul): query: wms-api.service.consul IN A + (10.30.0.53)`); it is a secondary
  for three zones of a hidden primary (10.30.0.50) and forwards `consul.` to consul-srv-2's DNS
  port (8600);
- `kea-dhcp4.log`: ISC Kea 2.6 `kea-dhcp4`, multi-threaded, file output with Kea's default
  pattern (`2026-11-19 02:33:04.112 WARN  [kea-dhcp4.alloc-engine/1417.140105046414912] ...`), the
  root logger at INFO and `kea-dhcp4.bad-packets` at DEBUG (debuglevel 99), so DHCPNAKs are logged.

Standard library only; everything comes from one seeded `random.Random`.
"""

import heapq
import ipaddress
import math
import random
from datetime import datetime, timedelta

DAY = datetime(2026, 11, 19)


def T(h, m, s=0, ms=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, milliseconds=ms)


def secs(x):
    return timedelta(seconds=x)


def msec(x):
    return timedelta(milliseconds=x)


START, END = T(0, 0), T(4, 0)

CONSUL, NAMED, KEA = "consul-srv-2.log", "named.log", "kea-dhcp4.log"

# --- the consul servers (name, raft address, node id)
SRV1 = ("consul-srv-1", "10.30.0.11", "6f1d2c84-3b9a-4e57-a0c3-1f8e92d4b761")
SRV2 = ("consul-srv-2", "10.30.0.12", "b2e7a915-0c4d-4f38-9e61-7d5a03c8f2e4")
SRV3 = ("consul-srv-3", "10.30.0.13", "4c90e3f7-8a12-4b6d-b5e0-29f7c1a6d38b")
NS1 = "10.30.0.53"               # the resolver (named)
PRIMARY = "10.30.0.50"           # the hidden primary of the three zones
PROM = "10.40.0.9"               # Prometheus: /v1/agent/metrics every 15 s, a DNS probe every 15 s
DASH = "10.40.3.21"              # the NOC dashboard: /v1/health/state/critical every 30 s
SLOTTER = ["10.40.2.31", "10.40.2.32", "10.40.2.33", "10.40.2.34", "10.40.2.35", "10.40.2.36"]
DEPLOY = "10.40.7.15"            # a CI runner whose token was deleted: ACL not found every ~2 min
PRINT_HUBS = ["10.40.5.21", "10.40.5.22", "10.40.5.23", "10.40.5.24"]
EDI = "10.40.4.12"               # the EDI gateway: edi.kestrelfreight.net every 5 min (one lame NS)
GUEST_TV = "10.99.4.20"          # a lobby TV on the guest VLAN, outside allow-query-cache
LAME_NS = "198.51.100.201"
SERVERS = ["10.40.1.11", "10.40.1.12", "10.40.1.13", "10.40.1.14", "10.40.3.22", "10.40.3.23", "10.40.4.12",
           "10.40.6.31", "10.40.6.32"]
PCS = ["10.44.0.101", "10.44.0.102", "10.44.0.103", "10.44.0.104", "10.44.0.105", "10.44.0.106"]

# --- the night's planted events
W1_FIRST_HTTP = T(2, 6, 14, 593)     # a slotter KV read: the first "No cluster leader" of the night
DNS_QUIET_UNTIL = T(2, 6, 16, 0)     # no .service.consul lookup reaches consul before this in the first gap
SLOW_PUT_START = T(2, 7, 43, 512)    # a lock acquire that hangs until srv-2 steps down
FLUSH_AT = T(2, 24, 37, 118)         # `rndc flush` on ns1
PRIMARY_DOWN = (T(1, 12, 0), T(1, 19, 20))   # the hidden primary reboots for patches
RETRY_LIMIT = [T(1, 13, 50, 412), T(1, 16, 55, 131)]
PRIMARY_BACK_NOTIFY = T(1, 19, 31, 207)
BIG_AXFR_AT = T(3, 14, 22, 305)      # IPAM full resync of the reverse zone: the slowest transfer
BIG_AXFR_MS = 2846
ENROLL = (T(2, 31, 0), T(2, 36, 0))  # 40 new scanners enrolled in wh3
ENROLL_CART = (T(2, 33, 2), T(2, 33, 50))   # most of them powered on from one cart
RELOAD = T(2, 51, 7, 482)            # kea reconfigured (SIGHUP) with a second pool in 10.44.9.0/24
DECLINE_AT = T(1, 43, 26, 350)       # a new label printer finds its offered address in use
LFC_PHASE = (14, 22, 615)            # kea's hourly lease file cleanup runs at hh:14:22.615 until the reload

STATUS_CONSTANTS = {53, 67, 68, 120, 1800, 3600, 7200, 8300, 8301, 8302, 8500, 8600, 28800, 86400}

def go_dur(n):
    """Go's time.Duration.String() of n nanoseconds."""
    def frac(v, prec):
        ip, fp = divmod(v, 10 ** prec)
        fs = f"{fp:0{prec}d}".rstrip("0")
        return f"{ip}.{fs}" if fs else f"{ip}"
    if n == 0:
        return "0s"
    if n < 1000:
        return f"{n}ns"
    if n < 1_000_000:
        return frac(n, 3) + "\u00b5s"
    if n < 1_000_000_000:
        return frac(n, 6) + "ms"
    h, rem = divmod(n, 3600 * 10 ** 9)
    m, rem = divmod(rem, 60 * 10 ** 9)
    out = ""
    if h:
        out += f"{h}h"
    if h or m:
        out += f"{m}m"
    return out + frac(rem, 9) + "s"


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _every(rng, a, b, lo, hi, first=None):
    out = []
    t = a + secs(rng.uniform(0, lo) if first is None else first)
    while t < b:
        out.append(t)
        t += secs(rng.uniform(lo, hi))
    return out


# ====================================================================== the consul leader election storm
# consul-srv-2's view, episode by episode: how a gap without a leader starts (a heartbeat timeout, with the
# leader it last knew, or a step-down), its candidate rounds (each after an election timeout), and how it
# ends (srv-2 wins, or another server's leadership reaches it). Terms: 1184 before the storm (consul-srv-1
# leading). Between episodes: srv-2 leading until it can no longer reach a quorum, or another server leading.
EPISODES = [
    # (step-down, heartbeat timeout, last leader, candidate rounds, outcome)
    (None, T(2, 6, 14, 208), SRV1, [T(2, 6, 14, 208), T(2, 6, 21, 634), T(2, 6, 29, 871), T(2, 6, 37, 402)],
     ("won", T(2, 6, 37, 430), SRV3)),
    (T(2, 7, 52, 425), T(2, 7, 59, 731), None, [T(2, 7, 59, 731), T(2, 8, 7, 112), T(2, 8, 15, 6)],
     ("follow", T(2, 8, 21, 870), SRV3)),
    (None, T(2, 9, 40, 205), SRV3, [T(2, 9, 40, 205), T(2, 9, 47, 918), T(2, 9, 56, 337)],
     ("won", T(2, 9, 56, 361), SRV1)),
    (T(2, 11, 5, 702), T(2, 11, 12, 884), None, [T(2, 11, 12, 884), T(2, 11, 20, 997), T(2, 11, 28, 603), T(2, 11, 36, 114)],
     ("follow", T(2, 11, 39, 218), SRV1)),
    (None, T(2, 13, 2, 477), SRV1, [T(2, 13, 2, 477), T(2, 13, 9, 351), T(2, 13, 17, 160), T(2, 13, 24, 882)],
     ("won", T(2, 13, 24, 909), SRV3)),
    (T(2, 14, 44, 912), T(2, 14, 51, 805), None, [T(2, 14, 51, 805)],
     ("follow", T(2, 15, 0, 230), SRV3)),
    (None, T(2, 16, 21, 309), SRV3, [T(2, 16, 21, 309), T(2, 16, 28, 772), T(2, 16, 36, 455), T(2, 16, 43, 990),
                                     T(2, 16, 51, 562)],
     ("won", T(2, 16, 51, 590), SRV1)),
    (T(2, 17, 39, 566), T(2, 17, 46, 402), None, [T(2, 17, 46, 402), T(2, 17, 54, 118), T(2, 18, 1, 987), T(2, 18, 9, 660)],
     ("won", T(2, 18, 9, 688), SRV3)),
]
# a leader's lost contact before each step-down, and votes refused while another server leads
CONTACT = {T(2, 7, 52, 425): [(SRV1, 7.413), (SRV3, 2.507)], T(2, 11, 5, 702): [(SRV1, 2.611), (SRV3, 6.090)],
           T(2, 14, 44, 912): [(SRV1, 2.522), (SRV3, 2.519)], T(2, 17, 39, 566): [(SRV1, 2.533), (SRV3, 4.871)]}
REJECTS = [(T(2, 9, 2, 718), SRV1, SRV3), (T(2, 12, 40, 66), SRV3, SRV1), (T(2, 15, 47, 301), SRV1, SRV3)]


def _build_storm():
    ev = []
    term = 1184
    for k, (down, hb, last, rounds, (outcome, t_end, other)) in enumerate(EPISODES):
        if down is not None:
            ev.append((down - msec(2522), "contact", CONTACT[down]))
            ev.append((down, "stepdown", None))
        ev.append((hb, "hb", last))
        for i, t in enumerate(rounds):
            if i:
                ev.append((t, "et", None))
            term += 1
            ev.append((t, "cand", term))
            nxt = rounds[i + 1] if i + 1 < len(rounds) else t_end
            if nxt - t > secs(5.2):
                peers = [SRV1, SRV3] if (k + i) % 3 else [SRV3 if k % 2 else SRV1]
                for j, s in enumerate(peers):
                    ev.append((t + msec(5006 + j), "rv_fail", s))
        if outcome == "won":
            ev.append((t_end - msec(1), "granted", (other, term, 2)))
            ev.append((t_end, "won", 2))
        else:
            term += 1
            ev.append((t_end, "follow", (other, term)))
    for t, cand, lead in REJECTS:
        ev.append((t, "reject", (cand, lead)))
    ev.sort(key=lambda e: e[0])
    return ev, term


STORM, MAX_TERM = _build_storm()



def storm_windows():
    """consul-srv-2's spans without a known leader, and its spans as leader."""
    gaps, lead = [], []
    gap_start = None
    lead_start = None
    for t, kind, _ in STORM:
        if kind in ("hb", "stepdown") and gap_start is None:
            gap_start = t
        if kind == "stepdown":
            lead.append((lead_start, t))
            lead_start = None
        if kind in ("won", "follow") and gap_start is not None:
            gaps.append((gap_start, t))
            gap_start = None
        if kind == "won":
            lead_start = t
    lead.append((lead_start, END))
    return gaps, lead


GAPS, LEADS = storm_windows()


def no_leader(t):
    return any(a <= t < b for a, b in GAPS)


def srv2_leads(t):
    return any(a <= t < b for a, b in LEADS)


# ====================================================================== Kea: subnets and devices
SUBNETS = {
    1: {"net": "10.44.0.0/24", "pools": [("10.44.0.100", "10.44.0.199")], "valid": 28800},
    2: {"net": "10.44.4.0/23", "pools": [("10.44.4.20", "10.44.5.250")], "valid": 1800},
    3: {"net": "10.44.8.0/23", "pools": [("10.44.8.20", "10.44.8.139")], "valid": 1800},
    4: {"net": "10.44.12.0/24", "pools": [("10.44.12.50", "10.44.12.199")], "valid": 86400},
    5: {"net": "10.44.16.0/24", "pools": [("10.44.16.20", "10.44.16.220")], "valid": 7200},
}
NEW_POOL = ("10.44.9.10", "10.44.9.250")
KEA_PID = 1417
KEA_MAIN = 140105093641344
KEA_WORKERS = [140105054807616 - k * 8392704 for k in range(4)]
FLT_TOP = "94:fb:29:3c:0e:71"        # the forklift terminal that roams between the two warehouses all night
DECLINE_MAC = "00:07:4d:3a:91:c4"    # the new label printer


def _pool(pools):
    out = []
    for a, b in pools:
        x, y = int(ipaddress.IPv4Address(a)), int(ipaddress.IPv4Address(b))
        out += [str(ipaddress.IPv4Address(i)) for i in range(x, y + 1)]
    return out


class Dev:
    def __init__(self, mac, kind, subnet, cid=True, vendor=None):
        self.mac, self.kind, self.subnet, self.cid, self.vendor = mac, kind, subnet, cid, vendor
        self.ip = None          # the address in use now
        self.gen = 0            # bumps on every state change; stale events are ignored
        self.sessions = []      # [start, end, ip, fresh]
        self.tid = None
        self.fails = 0

    @property
    def label(self):
        cid = f"01:{self.mac}" if self.cid else "no info"
        return f"[hwtype=1 {self.mac}], cid=[{cid}], tid=0x{self.tid:x}"


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seq = 0
        self.cl = []        # consul: (t, seq, level, module, msg, kvs)
        self.nl = []        # named: (t, seq, category, severity, msg)
        self.kl = []        # kea: (t, seq, level, logger, thread, msgid, text)
        self.xfers = []
        self._kea()
        self._dns()
        self._consul()
        self._named_misc()

    # ------------------------------------------------------------ emitters
    def C(self, t, level, module, msg, *kvs):
        self.seq += 1
        self.cl.append((t, self.seq, level, module, msg, list(kvs)))

    def N(self, t, cat, sev, msg):
        self.seq += 1
        self.nl.append((t, self.seq, cat, sev, msg))

    def K(self, t, level, logger, msgid, text, thread=None):
        self.seq += 1
        if thread is None:
            thread = self.rng.choice(KEA_WORKERS)
        self.kl.append((t, self.seq, level, logger, thread, msgid, text))

    # ================================================================== Kea
    def _kea(self):
        rng = self.rng
        self.pools = {k: _pool(v["pools"]) for k, v in SUBNETS.items()}
        self.cursor = {k: rng.randrange(len(p)) for k, p in self.pools.items()}
        self.db = {k: {} for k in SUBNETS}            # ip -> [mac, expiry, state]
        self.held = {k: {} for k in SUBNETS}          # mac -> ip
        self.q = []
        self.devs = []
        used_macs = set()

        def mac(prefix):
            while True:
                m = prefix + ":" + ":".join(f"{rng.randrange(256):02x}" for _ in range(3))
                if m not in used_macs and m != FLT_TOP and m != DECLINE_MAC:
                    used_macs.add(m)
                    return m

        zebra = ["94:fb:29", "84:24:8d", "40:83:de", "00:a0:f8"]
        for _ in range(86):
            self.devs.append(Dev(mac(rng.choice(zebra)), "scanner", 2, vendor="android-dhcp-13"))
        for _ in range(104):
            self.devs.append(Dev(mac(rng.choice(zebra)), "scanner", 3, vendor="android-dhcp-13"))
        roamers = [Dev(FLT_TOP, "flt", 3, vendor="android-dhcp-11")]
        used_macs.add(FLT_TOP)
        for i in range(14):
            roamers.append(Dev(mac("94:fb:29"), "flt", 2 if i % 2 else 3, vendor="android-dhcp-11"))
        self.devs += roamers
        pcs = [Dev(mac("d4:81:d7"), "pc", 1, vendor="MSFT 5.0") for _ in PCS]
        self.devs += pcs
        self.voip = [Dev(mac("64:16:7f"), "voip", 5, vendor="Polycom-VVX250") for _ in range(36)]
        self.devs += self.voip
        self.printers = [Dev(mac("00:07:4d"), "printer", 4, cid=False, vendor=None) for _ in range(30)]
        self.devs += self.printers
        used_macs.add(DECLINE_MAC)

        # leases held at midnight
        for d in self.devs:
            valid = SUBNETS[d.subnet]["valid"]
            free = [ip for ip in self.pools[d.subnet] if ip not in self.db[d.subnet]]
            ip = rng.choice(free)
            if d.kind == "pc":
                ip = PCS[pcs.index(d)]
            last = START - secs(rng.uniform(0, valid / 2))
            self._hold(d, d.subnet, ip, last + secs(valid))
            d.ip = ip
            d.sessions.append([START, None, ip, False])
            self._at(last + secs(valid / 2 + rng.uniform(-4, 4)), "renew", d)
        # the wh3 pool's allocator cursor sits after the addresses handed out last
        used3 = sorted(self.db[3], key=lambda ip: int(ipaddress.IPv4Address(ip)))
        self.cursor[3] = self.pools[3].index(used3[-1]) + 1
        # roaming: the forklift terminals drive between the two warehouses
        for d in roamers:
            lo, hi = (480, 720) if d.mac == FLT_TOP else (2100, 4200)
            t = START + secs(rng.uniform(60, hi))
            while t < END - secs(120):
                self._at(t, "move", d, check=False)
                t += secs(rng.uniform(lo, hi))
        # a few wh1 scanners are switched off for a while
        for d in rng.sample([x for x in self.devs if x.kind == "scanner" and x.subnet == 2], 8):
            t = START + secs(rng.uniform(1800, 12600))
            self._at(t, "release", d, check=False)
        # enrollment: 40 new scanners in wh3
        self.new = []
        for i in range(40):
            d = Dev(mac("94:fb:29"), "new", 3, vendor="android-dhcp-13")
            if i < 8:
                t = ENROLL[0] + secs(rng.uniform(0, 110))
            elif i < 34:
                t = ENROLL_CART[0] + secs(rng.uniform(0, (ENROLL_CART[1] - ENROLL_CART[0]).total_seconds()))
            else:
                t = ENROLL[0] + secs(rng.uniform(200, 300))
            self.new.append(d)
            self.devs.append(d)
            self._at(t, "discover", d, check=False)
        # the new label printer and its declined address
        self.nprinter = Dev(DECLINE_MAC, "printer", 4, cid=False)
        self.devs.append(self.nprinter)
        self._at(DECLINE_AT - secs(1.9), "discover", self.nprinter)
        self.reloaded = False
        self._at(RELOAD, "reload", None)
        while self.q:
            t, _, kind, d, gen, arg = heapq.heappop(self.q)
            if t >= END:
                break
            if d is not None and gen is not None and gen != d.gen:
                continue
            getattr(self, "_k_" + kind)(t, d, arg)
        for d in self.devs:
            for s in d.sessions:
                if s[1] is None:
                    s[1] = END
        # hourly lease file cleanup (main thread), restarted by the reload
        t = T(0, LFC_PHASE[0], LFC_PHASE[1], LFC_PHASE[2])
        while t < END:
            if t < RELOAD or t >= RELOAD + secs(3600):
                self._lfc(t)
            t += secs(3600)
        t = RELOAD + secs(3600) + msec(2)
        while t < END:
            self._lfc(t)
            t += secs(3600)

    def _lfc(self, t):
        self.K(t, "INFO", "kea-dhcp4.dhcpsrv", "DHCPSRV_MEMFILE_LFC_START", "starting Lease File Cleanup", KEA_MAIN)
        self.K(t + msec(1), "INFO", "kea-dhcp4.dhcpsrv", "DHCPSRV_MEMFILE_LFC_EXECUTE",
               "executing Lease File Cleanup using: /usr/sbin/kea-lfc -4 -x /var/lib/kea/kea-leases4.csv.2 "
               "-i /var/lib/kea/kea-leases4.csv.1 -o /var/lib/kea/kea-leases4.csv.output "
               "-f /var/lib/kea/kea-leases4.csv.completed -p /var/lib/kea/kea-leases4.csv.pid -c ignored-path",
               KEA_MAIN)

    def _at(self, t, kind, d, arg=None, check=True):
        """Schedules an event; a checked one is dropped if the device changed state meanwhile."""
        self.seq += 1
        heapq.heappush(self.q, (t, self.seq, kind, d, d.gen if (d is not None and check) else None, arg))

    def _hold(self, d, sn, ip, expiry, state="active"):
        old = self.db[sn].get(ip)
        if old and old[0] != d.mac and self.held[sn].get(old[0]) == ip:
            del self.held[sn][old[0]]
        self.db[sn][ip] = [d.mac, expiry, state]
        self.held[sn][d.mac] = ip

    def _free(self, sn, ip, now):
        e = self.db[sn].get(ip)
        return e is None or e[1] <= now

    def _alloc(self, d, sn, now):
        ip = self.held[sn].get(d.mac)
        if ip is not None:
            e = self.db[sn].get(ip)
            if e and e[0] == d.mac and e[2] == "active":
                return ip
        pool = self.pools[sn]
        n = len(pool)
        for k in range(n):
            i = (self.cursor[sn] + k) % n
            if self._free(sn, pool[i], now):
                self.cursor[sn] = i + 1
                return pool[i]
        return None

    def _close(self, d, t):
        if d.sessions and d.sessions[-1][1] is None:
            d.sessions[-1][1] = t

    # ------------------------------------------------------------ kea events
    def _k_reload(self, t, _d, _arg):
        rng = self.rng
        self.K(t, "INFO", "kea-dhcp4.dhcp4", "DHCP4_DYNAMIC_RECONFIGURATION",
               "initiate server reconfiguration using file: /etc/kea/kea-dhcp4.conf, after receiving SIGHUP signal", KEA_MAIN)
        u = t + msec(38)
        self.K(u, "WARN", "kea-dhcp4.dhcp4", "DHCP4_MULTI_THREADING_INFO",
               "enabled: yes, number of threads: 4, queue size: 64", KEA_MAIN)
        for k in sorted(SUBNETS):
            u += msec(rng.uniform(0.2, 0.9))
            self.K(u, "INFO", "kea-dhcp4.dhcpsrv", "DHCPSRV_CFGMGR_USE_ALLOCATOR",
                   f"using the iterative allocator for V4 leases in subnet {SUBNETS[k]['net']}", KEA_MAIN)
        u += msec(3)
        self.K(u, "INFO", "kea-dhcp4.dhcpsrv", "DHCPSRV_MEMFILE_LFC_SETUP",
               "setting up the Lease File Cleanup interval to 3600 sec", KEA_MAIN)
        u += msec(11)
        self.K(u, "INFO", "kea-dhcp4.dhcp4", "DHCP4_CONFIG_COMPLETE",
               "DHCPv4 server has completed configuration: added IPv4 subnets: 5; DDNS: disabled", KEA_MAIN)
        self.K(u + msec(1), "INFO", "kea-dhcp4.dhcp4", "DHCP4_DYNAMIC_RECONFIGURATION_SUCCESS",
               "dynamic server reconfiguration succeeded with file: /etc/kea/kea-dhcp4.conf", KEA_MAIN)
        self.pools[3] = _pool(SUBNETS[3]["pools"] + [NEW_POOL])
        self.reload_done = u + msec(1)
        self.reloaded = True

    def _grant(self, t, d, ip, offer):
        rng = self.rng
        sn = d.subnet
        valid = SUBNETS[sn]["valid"]
        thread = rng.choice(KEA_WORKERS)
        if offer:
            self.K(t, "INFO", "kea-dhcp4.leases", "DHCP4_LEASE_OFFER", f"{d.label}: lease {ip} will be offered", thread)
            t = t + msec(rng.uniform(14, 95))
        self._hold(d, sn, ip, t + secs(valid))
        self.K(t, "INFO", "kea-dhcp4.leases", "DHCP4_LEASE_ALLOC",
               f"{d.label}: lease {ip} has been allocated for {valid} seconds", rng.choice(KEA_WORKERS))
        return t

    def _k_renew(self, t, d, _arg):
        rng = self.rng
        if d.ip is None:
            return
        d.tid = rng.getrandbits(32)
        t2 = self._grant(t, d, d.ip, offer=False)
        d.gen += 1
        self._at(t2 + secs(SUBNETS[d.subnet]["valid"] / 2 + rng.uniform(-4, 4)), "renew", d)

    def _k_discover(self, t, d, arg):
        rng = self.rng
        attempt = arg or 0
        if RELOAD <= t < RELOAD + secs(1.6):
            # the server is reloading its configuration: the packet goes unanswered and the client retransmits
            d.gen += 1
            self._at(t + secs(4 + rng.uniform(-0.5, 0.5)), "discover", d, attempt)
            return
        if attempt % 6 == 0:
            d.tid = rng.getrandbits(32)
        ip = self._alloc(d, d.subnet, t)
        if ip is None:
            th = rng.choice(KEA_WORKERS)
            sn = d.subnet
            net = SUBNETS[sn]["net"]
            self.K(t, "WARN", "kea-dhcp4.alloc-engine", "ALLOC_ENGINE_V4_ALLOC_FAIL_SUBNET",
                   f"{d.label}: failed to allocate an IPv4 lease in the subnet {net}, subnet-id {sn}, shared network (none)", th)
            self.K(t, "WARN", "kea-dhcp4.alloc-engine", "ALLOC_ENGINE_V4_ALLOC_FAIL",
                   f"{d.label}: failed to allocate an IPv4 address after {len(self.pools[sn])} attempt(s)", th)
            classes = "ALL, " + (f"VENDOR_CLASS_{d.vendor}, " if d.vendor else "") + "UNKNOWN"
            self.K(t, "WARN", "kea-dhcp4.alloc-engine", "ALLOC_ENGINE_V4_ALLOC_FAIL_CLASSES",
                   f"{d.label}: Failed to allocate an IPv4 address for client with classes: {classes}", th)
            self.K(t + msec(rng.uniform(0.05, 0.3)), "DEBUG", "kea-dhcp4.bad-packets", "DHCP4_PACKET_NAK_0003",
                   f"{d.label}: failed to advertise a lease, client sent ciaddr 0.0.0.0, requested-ip-address (no address)", th)
            d.fails += 1
            delay = [4, 8, 16, 32, 64][attempt] if attempt < 5 else 64
            d.gen += 1
            self._at(t + secs(delay + rng.uniform(-1, 1)), "discover", d, attempt + 1)
            return
        t2 = self._grant(t, d, ip, offer=True)
        if d is self.nprinter and not getattr(self, "declined", False):
            # the address is statically configured on an older printer: ARP says it is taken
            self.declined = True
            d.gen += 1
            self._at(DECLINE_AT, "decline", d, ip)
            return
        d.ip = ip
        d.sessions.append([t2, None, ip, True])
        d.gen += 1
        self._at(t2 + secs(SUBNETS[d.subnet]["valid"] / 2 + rng.uniform(-4, 4)), "renew", d)

    def _k_decline(self, t, d, ip):
        self.K(t, "INFO", "kea-dhcp4.leases", "DHCP4_DECLINE_LEASE",
               f"Received DHCPDECLINE for addr {ip} from client {d.label}. The lease will be unavailable for 86400 seconds.")
        self._hold(d, d.subnet, ip, t + secs(86400), state="declined")
        del self.held[d.subnet][d.mac]
        self.declined_ip = ip
        d.gen += 1
        self._at(t + secs(self.rng.uniform(2, 4)), "discover", d, 0)

    def _k_move(self, t, d, _arg):
        rng = self.rng
        new = 3 if d.subnet == 2 else 2
        old_ip = d.ip
        self._close(d, t)
        d.subnet = new
        d.ip = None
        d.gen += 1
        if old_ip is not None:
            d.tid = rng.getrandbits(32)
            self.K(t, "DEBUG", "kea-dhcp4.bad-packets", "DHCP4_PACKET_NAK_0004",
                   f"{d.label}: failed to grant a lease, client sent ciaddr 0.0.0.0, requested-ip-address {old_ip}")
            self._at(t + secs(rng.uniform(0.4, 1.6)), "discover", d, 0)
        else:
            self._at(t + secs(rng.uniform(0.4, 1.6)), "discover", d, 0)

    def _k_release(self, t, d, _arg):
        rng = self.rng
        if d.ip is None:
            return
        d.tid = rng.getrandbits(32)
        self.K(t, "INFO", "kea-dhcp4.leases", "DHCP4_RELEASE", f"{d.label}: address {d.ip} was released properly.")
        del self.db[d.subnet][d.ip]
        del self.held[d.subnet][d.mac]
        self._close(d, t)
        d.ip = None
        d.gen += 1
        self._at(t + secs(rng.uniform(900, 2700)), "discover", d, 0)

    # ================================================================== DNS (named, and consul's DNS interface)
    def _dns(self):
        rng = self.rng
        self.queries = []       # (t, client, name, qtype, flags)
        ptrs = [f"0x7f{rng.getrandbits(36) << 4 | 8:010x}" for _ in range(64)]
        self.ptrs = ptrs

        def q(t, ip, name, qtype="A", flags="+"):
            self.queries.append((t, ip, name, qtype, flags))

        # scanners and forklift terminals, while they hold an address
        for d in self.devs:
            if d.kind not in ("scanner", "flt", "new"):
                continue
            for a, b, ip, fresh in d.sessions:
                if b <= a:
                    continue
                if fresh:
                    u = a + secs(rng.uniform(0.4, 3.0))
                    if u < b:
                        q(u, ip, "connectivitycheck.gstatic.com")
                        q(u + msec(rng.uniform(0.2, 2)), ip, "connectivitycheck.gstatic.com", "AAAA")
                    u = a + secs(rng.uniform(3.2, 7.0))
                    if u < b:
                        q(u, ip, "wms-api.service.consul")
                for t in _every(rng, a, b, 420, 720):
                    q(t, ip, "wms-api.service.consul")
                for t in _every(rng, a, b, 1500, 2100):
                    q(t, ip, "connectivitycheck.gstatic.com")
                    q(t + msec(rng.uniform(0.2, 2)), ip, "connectivitycheck.gstatic.com", "AAAA")
                for t in _every(rng, a, b, 1500, 2100):
                    q(t, ip, "mdm.pellworth.internal")
                for t in _every(rng, a, b, 3300, 3900):
                    q(t, ip, "ntp.pellworth.internal")
        # Prometheus' blackbox DNS probe
        for t in _every(rng, START, END, 14.95, 15.05):
            q(t, PROM, "probe.pellworth.internal", "A", "+E(0)")
        # print hubs: the label printers' gateway service
        for ip in PRINT_HUBS:
            for t in _every(rng, START, END, 90, 150):
                q(t, ip, "printer-gw.service.consul", "A", "+")
            for t in _every(rng, START, END, 3400, 3800):
                q(t, ip, "ntp.pellworth.internal", "A", "+")
        # slotter hosts: vault, and time
        for ip in SLOTTER:
            for t in _every(rng, START, END, 250, 350):
                q(t, ip, "vault.service.consul", "A", "+E(0)")
            for t in _every(rng, START, END, 3400, 3800):
                q(t, ip, "ntp.pellworth.internal", "A", "+E(0)")
        # other servers: time, the package mirrors at the patch window
        for ip in SERVERS:
            for t in _every(rng, START, END, 3400, 3800):
                q(t, ip, "ntp.pellworth.internal", "A", "+E(0)")
        for ip in SERVERS[:6] + [PRIMARY]:
            t0 = T(1, 5, 0) + secs(rng.uniform(0, 280)) if ip == PRIMARY else T(0, 15, 0) + secs(rng.uniform(0, 300))
            for k, name in enumerate(["deb.debian.org", "security.debian.org", "deb.debian.org"]):
                t = t0 + secs(k * rng.uniform(1, 9))
                q(t, ip, name, "A", "+E(0)")
                q(t + msec(rng.uniform(0.1, 1)), ip, name, "AAAA", "+E(0)")
        # the EDI gateway
        for t in _every(rng, START, END, 299, 301):
            q(t, EDI, "edi.kestrelfreight.net", "A", "+E(0)")
        # dispatchers' PCs
        office = ["outlook.office365.com", "login.microsoftonline.com", "teams.microsoft.com", "wms.pellworth.internal",
                  "www.bing.com", "ctldl.windowsupdate.com"]
        for ip in PCS:
            for t in _every(rng, START, END, 40, 110):
                name = rng.choice(office)
                q(t, ip, name, "A")
                q(t + msec(rng.uniform(0.1, 1.5)), ip, name, "AAAA")
            for t in _every(rng, START, END, 600, 1100):
                q(t, ip, "portal.ridgeway-carriers.com", "A")
        # the lobby TV on the guest VLAN
        for t in _every(rng, START, END, 100, 200):
            q(t, GUEST_TV, rng.choice(["time.samsungcloud.com", "api.samsungosp.com", "www.youtube.com"]), "A")
        # no .service.consul lookup reaches consul in the first 1.8 s of the first gap
        fixed = []
        for t, ip, name, qt, fl in self.queries:
            if name.endswith(".service.consul") and GAPS[0][0] <= t < DNS_QUIET_UNTIL:
                t = t + secs(2.0)
            fixed.append((t, ip, name, qt, fl))
        self.queries = sorted(fixed, key=lambda x: x[0])

    # ================================================================== consul
    def _consul(self):
        rng = self.rng
        C = self.C
        name1, addr1, id1 = SRV1
        name2, addr2, id2 = SRV2
        name3, addr3, id3 = SRV3

        def err_or_ok(t, method, url, ip, lat_ns, extra_error=None, leader=True):
            port = rng.randint(32768, 60999)
            end = t + timedelta(microseconds=lat_ns / 1000)
            if extra_error is not None:
                C(end, "ERROR", "agent.http", "Request error", ("method", method), ("url", url), ("from", f"{ip}:{port}"),
                  ("error", extra_error))
            elif leader and no_leader(t):
                C(end, "ERROR", "agent.http", "Request error", ("method", method), ("url", url), ("from", f"{ip}:{port}"),
                  ("error", "No cluster leader"))
            C(end, "DEBUG", "agent.http", "Request finished", ("method", method), ("url", url), ("from", f"{ip}:{port}"),
              ("latency", go_dur(int(lat_ns))))

        # --- DNS forwarded by ns1
        self.consul_dns = []
        self.named_q = []
        for t, ip, name, qt, fl in self.queries:
            ptr = rng.choice(self.ptrs)
            port = rng.randint(1025, 65535)
            rec = {"t": t, "ip": ip, "port": port, "name": name, "qt": qt, "fl": fl, "ptr": ptr, "fail": None}
            if name.endswith(".service.consul"):
                tc = t + timedelta(microseconds=rng.uniform(250, 900))
                fail = no_leader(tc)
                lat = int(_lognorm(rng, 160e3, 0.35)) + rng.randint(0, 999)
                end = tc + timedelta(microseconds=lat / 1000)
                cport = rng.randint(1025, 65535)
                if fail:
                    C(end, "ERROR", "agent.dns", "rpc error", ("error", "No cluster leader"))
                C(end, "DEBUG", "agent.dns", "request served from client", ("name", name + "."), ("type", qt), ("class", "IN"),
                  ("latency", go_dur(lat)), ("client", f"{NS1}:{cport}"), ("client_network", "udp"))
                self.consul_dns.append((end, name, fail))
                if fail:
                    rec["fail"] = ("SERVFAIL", end + timedelta(microseconds=rng.uniform(300, 1500)))
            self.named_q.append(rec)

        # --- HTTP API
        for t in _every(rng, START, END, 14.98, 15.02, first=rng.uniform(0, 15)):
            err_or_ok(t, "GET", "/v1/agent/metrics?format=prometheus", PROM, _lognorm(rng, 3.2e6, 0.25) + rng.randint(0, 999),
                      leader=False)
        for t in _every(rng, START, END, 29.9, 30.1, first=rng.uniform(0, 30)):
            err_or_ok(t, "GET", "/v1/health/state/critical", DASH, _lognorm(rng, 0.9e6, 0.3) + rng.randint(0, 999))
        keys = ["lanes", "docks", "waves", "thresholds"]
        for ip in SLOTTER:
            for t in _every(rng, START, END, 18, 22):
                if GAPS[0][0] <= t < W1_FIRST_HTTP + msec(500):
                    continue        # the planted read below is the first one in the first gap
                if SLOW_PUT_START - secs(1) <= t <= GAPS[1][0] + secs(1) and ip == SLOTTER[0]:
                    continue        # this host is blocked on its lock acquire
                err_or_ok(t, "GET", f"/v1/kv/config/slotter/{rng.choice(keys)}", ip, _lognorm(rng, 0.55e6, 0.35) + rng.randint(0, 999))
        # the planted read: the first "No cluster leader" of the night
        err_or_ok(W1_FIRST_HTTP, "GET", "/v1/kv/config/slotter/waves", SLOTTER[2], 412_337)
        # the lock acquire that hangs until srv-2 steps down
        step1 = GAPS[1][0]
        lat = int((step1 - SLOW_PUT_START).total_seconds() * 1e9) + 1_218
        self.slow_put = (SLOW_PUT_START, lat)
        err_or_ok(SLOW_PUT_START, "PUT", "/v1/kv/locks/slotter/leader?acquire=3f7c1e2a-9b84-4d0e-a6f1-5c2b8e9d7a40", SLOTTER[0],
                  lat, extra_error="leadership lost while committing log")
        # the CI runner with a deleted token
        self.deploy_times = []
        t = T(0, 37, 12, 406)
        while t < T(3, 58):
            if not any(a - secs(2) <= t < b + secs(2) for a, b in GAPS):
                self.deploy_times.append(t)
                err_or_ok(t, "PUT", "/v1/agent/service/register", DEPLOY, _lognorm(rng, 0.35e6, 0.3) + rng.randint(0, 999),
                          extra_error="ACL not found")
            t += secs(rng.uniform(115, 125))

        # --- anti-entropy and coordinates
        t = START + secs(rng.uniform(0, 60))
        while t < END:
            if no_leader(t):
                C(t + msec(rng.uniform(1, 4)), "ERROR", "agent.anti_entropy", "failed to sync remote state",
                  ("error", "No cluster leader"))
            else:
                C(t + msec(rng.uniform(1, 4)), "DEBUG", "agent", "Node info in sync")
                C(t + msec(rng.uniform(4, 6)), "DEBUG", "agent", "Service in sync", ("service", "node-exporter"))
                C(t + msec(rng.uniform(6, 8)), "DEBUG", "agent", "Check in sync", ("check", "service:node-exporter"))
            t += secs(rng.uniform(55, 85))
        t = START + secs(rng.uniform(0, 15))
        while t < END:
            if no_leader(t):
                C(t, "ERROR", "agent", "Coordinate update error", ("error", "No cluster leader"))
            t += secs(rng.uniform(14, 20))

        # --- gossip
        peers = ["10.40.1.11", "10.40.1.12", "10.40.1.13", "10.40.1.14", "10.40.2.31", "10.40.2.32", "10.40.2.33",
                 "10.40.2.34", "10.40.2.35", "10.40.2.36", "10.40.3.21", "10.40.3.22", "10.40.3.23", "10.40.4.12",
                 "10.40.5.11", "10.40.5.12", "10.40.5.21", "10.40.5.22", "10.40.5.23", "10.40.5.24", "10.40.6.8",
                 "10.40.6.24", "10.40.6.31", "10.40.6.32", "10.30.0.11", "10.30.0.13", "10.30.0.53"]
        for t in _every(rng, START, END, 24, 36):
            C(t, "DEBUG", "agent.server.memberlist.lan",
              f"memberlist: Stream connection from={rng.choice(peers)}:{rng.randint(32768, 60999)}")
        for t in _every(rng, START, END, 27, 33):
            n, a, _ = rng.choice([SRV1, SRV3])
            C(t, "DEBUG", "agent.server.memberlist.wan", f"memberlist: Initiating push/pull sync with: {n}.hld1 {a}:8302")
        # flapping members
        self.member_fails = []
        flaps = ([("wh3-scan-gw-2", "10.40.5.12", t) for t in
                  (T(0, 18, 41, 233), T(0, 52, 3, 716), T(1, 27, 19, 48), T(1, 58, 40, 512), T(2, 44, 11, 905),
                   T(3, 12, 57, 340), T(3, 41, 8, 622))]
                 + [("yard-cam-nvr-1", "10.40.6.8", T(0, 33, 28, 117)), ("yard-cam-nvr-1", "10.40.6.8", T(3, 2, 14, 870)),
                    ("dock-kiosk-4", "10.40.6.24", T(1, 9, 52, 301)), ("print-hub-3", "10.40.5.23", T(2, 58, 36, 444))])
        self.member_joins = []
        for node, ip, t in flaps:
            C(t, "INFO", "agent.server.memberlist.lan", f"memberlist: Suspect {node} has failed, no acks received")
            u = t + secs(rng.uniform(5, 9))
            C(u, "INFO", "agent.server.memberlist.lan",
              f"memberlist: Marking {node} as failed, suspect timeout reached (2 peer confirmations)")
            C(u + msec(rng.uniform(0.1, 0.6)), "INFO", "agent.server.serf.lan", f"serf: EventMemberFailed: {node} {ip}")
            self.member_fails.append((u, node))
            if srv2_leads(u):
                C(u + msec(rng.uniform(1, 3)), "INFO", "agent.server", "member failed, marking health critical",
                  ("member", node), ("partition", "default"))
            v = u + secs(rng.uniform(40, 210))
            C(v, "INFO", "agent.server.serf.lan", f"serf: EventMemberJoin: {node} {ip}")
            self.member_joins.append((v, node))
            if srv2_leads(v):
                C(v + msec(rng.uniform(1, 3)), "INFO", "agent.server", "member joined, marking health alive",
                  ("member", node), ("partition", "default"))

        # --- raft snapshots
        self.snapshots = []
        prev_to = 48_098_113
        for t in (T(0, 21, 7, 311), T(1, 8, 44, 402), T(1, 56, 13, 457), T(2, 49, 30, 118), T(3, 37, 2, 264)):
            idx = 48_112_517 + int(9.37 * (t - START).total_seconds()) + rng.randint(0, 40)
            C(t, "INFO", "agent.server.raft", "starting snapshot up to", ("index", str(idx)))
            u = t + msec(rng.uniform(90, 420))
            C(u, "INFO", "agent.server.raft", "snapshot complete up to", ("index", str(idx)))
            to = idx - 10240
            C(u + msec(rng.uniform(2, 9)), "INFO", "agent.server.raft", "compacting logs", ("from", str(prev_to + 1)), ("to", str(to)))
            prev_to = to
            self.snapshots.append((t, u, idx))

        # --- the election storm
        routines = ["CA root pruning", "CA root expiration metric", "CA signing expiration metric",
                    "config entry controllers", "intermediate cert renew watch", "metrics for streaming peering resources"]

        def voter(s):
            return f"{{Voter {s[2]} {s[1]}:8300}}"

        term = 1184
        for t, kind, data in STORM:
            if kind == "hb":
                la, li = (f"{data[1]}:8300", data[2]) if data else ("", "")
                C(t, "WARN", "agent.server.raft", "heartbeat timeout reached, starting election",
                  ("last-leader-addr", la), ("last-leader-id", li))
            elif kind == "et":
                C(t, "WARN", "agent.server.raft", "Election timeout reached, restarting election")
            elif kind == "cand":
                term = data
                C(t, "INFO", "agent.server.raft", "entering candidate state", ("node", f"Node at {addr2}:8300 [Candidate]"),
                  ("term", str(term)))
                C(t + msec(0.9), "DEBUG", "agent.server.raft", "votes", ("needed", "2"))
                C(t + msec(1.0), "DEBUG", "agent.server.raft", "vote granted", ("from", id2), ("term", str(term)), ("tally", "1"))
            elif kind == "rv_fail":
                s = data
                C(t, "ERROR", "agent.server.raft", "failed to make requestVote RPC", ("target", voter(s)),
                  ("error", f"dial tcp {s[1]}:8300: i/o timeout"))
            elif kind == "granted":
                s, tm, tally = data
                C(t, "DEBUG", "agent.server.raft", "vote granted", ("from", s[2]), ("term", str(tm)), ("tally", str(tally)))
            elif kind == "won":
                C(t, "INFO", "agent.server.raft", "election won", ("tally", str(data)))
                C(t, "INFO", "agent.server.raft", "entering leader state", ("leader", f"Node at {addr2}:8300 [Leader]"))
                C(t + msec(0.3), "INFO", "agent.server.raft", "added peer, starting replication", ("peer", id1))
                C(t + msec(0.4), "INFO", "agent.server.raft", "added peer, starting replication", ("peer", id3))
                C(t + msec(2.6), "INFO", "agent.server", "cluster leadership acquired")
                C(t + msec(6.8), "INFO", "agent.server", "New leader elected", ("payload", name2))
                for k, r in enumerate(routines):
                    C(t + msec(9 + k * 0.2), "INFO", "agent.leader", "started routine", ("routine", r))
                C(t + msec(11.5), "DEBUG", "agent.server.serf.lan", "serf: messageUserEventType: consul:new-leader")
                C(t + msec(58), "INFO", "agent.server.raft", "pipelining replication", ("peer", voter(SRV3 if rng.random() < .5 else SRV1)))
                if t < T(2, 18):
                    u = t + secs(rng.uniform(4.5, 6))
                    C(u, "ERROR", "agent.server.raft", "failed to appendEntries to", ("peer", voter(SRV1)),
                      ("error", f"dial tcp {addr1}:8300: i/o timeout"))
                    C(u + secs(rng.uniform(8, 15)), "ERROR", "agent.server.raft", "failed to heartbeat to",
                      ("peer", f"{addr3}:8300"), ("backoff time", "10ms"), ("error", f"dial tcp {addr3}:8300: i/o timeout"))
            elif kind == "contact":
                for s, d in data:
                    C(t, "WARN", "agent.server.raft", "failed to contact", ("server-id", s[2]),
                      ("time", go_dur(int(d * 1e9) + rng.randint(0, 999999))))
            elif kind == "stepdown":
                C(t, "WARN", "agent.server.raft", "failed to contact quorum of nodes, stepping down")
                C(t, "INFO", "agent.server.raft", "entering follower state", ("follower", f"Node at {addr2}:8300 [Follower]"),
                  ("leader-address", ""), ("leader-id", ""))
                C(t + msec(0.8), "INFO", "agent.server.raft", "aborting pipeline replication", ("peer", voter(SRV3)))
                C(t + msec(1.9), "INFO", "agent.server", "cluster leadership lost")
                for k, r in enumerate(routines):
                    C(t + msec(2.4 + k * 0.1), "INFO", "agent.leader", "stopped routine", ("routine", r))
            elif kind == "follow":
                s, tm = data
                term = tm
                C(t, "INFO", "agent.server.raft", "entering follower state", ("follower", f"Node at {addr2}:8300 [Follower]"),
                  ("leader-address", ""), ("leader-id", ""))
                C(t + msec(21), "DEBUG", "agent.server.serf.lan", "serf: messageUserEventType: consul:new-leader")
                C(t + msec(23), "INFO", "agent.server", "New leader elected", ("payload", s[0]))
            elif kind == "reject":
                cand, lead = data
                C(t, "WARN", "agent.server.raft", "rejecting vote request since we have a leader", ("from", f"{cand[1]}:8300"),
                  ("leader", f"{lead[1]}:8300"), ("leader-id", lead[2]))
        assert term == MAX_TERM

    # ================================================================== named: everything but the queries
    def _named_misc(self):
        rng = self.rng
        N = self.N

        def client():
            return f"client @{rng.choice(self.ptrs)}"

        # --- query lines, their failures, lame servers and DNSSEC
        last_lame = None
        last_edi_fetch = None
        last_val = None
        for r in self.named_q:
            t, ip, name = r["t"], r["ip"], r["name"]
            pre = f"{client_fmt(r)} ({name})"
            if ip == GUEST_TV:
                N(t, "queries", "info", f"{pre}: query: {name} IN {r['qt']} {r['fl']} ({NS1})")
                N(t + timedelta(microseconds=rng.uniform(40, 200)), "security", "info",
                  f"{pre}: query (cache) '{name}/{r['qt']}/IN' denied (allow-query-cache did not match)")
                r["denied"] = True
                continue
            N(t, "queries", "info", f"{pre}: query: {name} IN {r['qt']} {r['fl']} ({NS1})")
            if r["fail"]:
                _, tf = r["fail"]
                N(tf, "query-errors", "info", f"{pre}: query failed (SERVFAIL) for {name}/IN/{r['qt']} at query.c:7837")
            if name == "edi.kestrelfreight.net" and (last_edi_fetch is None or t - last_edi_fetch >= secs(300)):
                last_edi_fetch = t
                if (last_lame is None or t - last_lame >= secs(600)) and rng.random() < 0.55:
                    last_lame = t
                    N(t + msec(rng.uniform(18, 60)), "lame-servers", "info",
                      f"lame server resolving 'edi.kestrelfreight.net' (in 'kestrelfreight.net'?): {LAME_NS}#53")
            if name == "portal.ridgeway-carriers.com":
                if last_val is None or t - last_val >= secs(600):
                    last_val = t
                    u = t + msec(rng.uniform(30, 90))
                    N(u, "dnssec", "info", "validating ridgeway-carriers.com/DNSKEY: verify failed due to bad signature "
                                           "(keyid=40213): RRSIG has expired")
                    N(u + msec(0.2), "dnssec", "info", "validating ridgeway-carriers.com/DNSKEY: no valid signature found")
                    tf = u + msec(rng.uniform(0.5, 2))
                else:
                    tf = t + timedelta(microseconds=rng.uniform(90, 400))
                N(tf, "query-errors", "info",
                  f"{pre}: query failed (broken trust chain) for {name}/IN/A at query.c:7837")

        # --- zone transfers from the hidden primary
        def xfer(t, zone, serial, recs, nbytes, ms, notify=True):
            nport = rng.randint(1025, 65535)
            if notify:
                N(t, "notify", "info", f"{client()} {PRIMARY}#{nport}: received notify for zone '{zone}'")
                N(t + msec(0.3), "general", "info", f"zone {zone}/IN: notify from {PRIMARY}#{nport}: serial {serial}")
            u = t + msec(rng.uniform(1, 3))
            N(u, "general", "info", f"zone {zone}/IN: Transfer started.")
            N(u + msec(rng.uniform(0.5, 2)), "xfer-in", "info",
              f"transfer of '{zone}/IN' from {PRIMARY}#53: connected using {NS1}#{rng.randint(32768, 60999)}")
            end = u + msec(ms)
            N(end, "general", "info", f"zone {zone}/IN: transferred serial {serial}")
            N(end + msec(0.1), "xfer-in", "info", f"transfer of '{zone}/IN' from {PRIMARY}#53: Transfer status: success")
            nmsg = max(1, math.ceil(nbytes / 20480))
            N(end + msec(0.2), "xfer-in", "info",
              f"transfer of '{zone}/IN' from {PRIMARY}#53: Transfer completed: {nmsg} messages, {recs} records, "
              f"{nbytes} bytes, {ms // 1000}.{ms % 1000:03d} secs ({nbytes * 1000 // ms} bytes/sec) (serial {serial})")
            self.xfers.append({"start": u, "end": end, "zone": zone, "serial": serial, "recs": recs, "bytes": nbytes, "ms": ms})

        down = lambda t: PRIMARY_DOWN[0] <= t < PRIMARY_BACK_NOTIFY  # noqa: E731
        # pellworth.internal: AXFR on each change
        axfr_pw = lambda: (1842 + rng.randint(-3, 6), 0)  # noqa: E731
        for t, serial in ((T(0, 42, 18, 640), 2026111901), (PRIMARY_BACK_NOTIFY, 2026111902), (T(3, 5, 40, 913), 2026111903)):
            recs, _ = axfr_pw()
            xfer(t, "pellworth.internal", serial, recs, recs * 33 + rng.randint(200, 900), rng.randint(120, 340))
        for t in RETRY_LIMIT:
            N(t, "general", "info", f"zone pellworth.internal/IN: refresh: retry limit for primary {PRIMARY}#53 exceeded "
                                    "(source 0.0.0.0#0)")
        # wh.pellworth.internal: IXFR after each IPAM push (serials are Unix times)
        t = START + secs(rng.uniform(60, 600))
        while t < END:
            if down(t):
                t = PRIMARY_BACK_NOTIFY + msec(412)
            changes = rng.randint(1, 18)
            recs = 4 + 2 * changes
            serial = int((t - secs(rng.uniform(1, 4)) - datetime(1970, 1, 1)).total_seconds())
            xfer(t, "wh.pellworth.internal", serial, recs, 180 + recs * rng.randint(38, 46), rng.randint(3, 31))
            t += secs(rng.uniform(360, 1200))
        # 44.10.in-addr.arpa: IXFR now and then; the 03:14 full resync is an AXFR of the whole zone
        rev = 2026111850
        t = START + secs(rng.uniform(900, 2400))
        while t < END:
            if down(t):
                t += secs(600)
                continue
            if BIG_AXFR_AT - secs(600) <= t < BIG_AXFR_AT + secs(600):
                t = BIG_AXFR_AT + secs(rng.uniform(900, 1400))
                continue
            rev += 1
            recs = 4 + 2 * rng.randint(1, 9)
            xfer(t, "44.10.in-addr.arpa", rev, recs, 160 + recs * rng.randint(40, 48), rng.randint(3, 24))
            t += secs(rng.uniform(1500, 3600))
        rev += 1
        xfer(BIG_AXFR_AT, "44.10.in-addr.arpa", rev, 4127, 118492, BIG_AXFR_MS)
        # the primary's startup NOTIFY for the reverse zone, whose serial did not change
        u = PRIMARY_BACK_NOTIFY + msec(903)
        nport = rng.randint(1025, 65535)
        cur = max(x["serial"] for x in self.xfers if x["zone"] == "44.10.in-addr.arpa" and x["start"] < u)
        N(u, "notify", "info", f"{client()} {PRIMARY}#{nport}: received notify for zone '44.10.in-addr.arpa'")
        N(u + msec(0.3), "general", "info", f"zone 44.10.in-addr.arpa/IN: notify from {PRIMARY}#{nport}: zone is up to date")
        self.rev_serial_at_notify = cur
        # rndc flush
        N(FLUSH_AT, "general", "info", "received control channel command 'flush'")
        N(FLUSH_AT + msec(3), "general", "info", "flushing caches in all views succeeded")


def client_fmt(r):
    return f"client @{r['ptr']} {r['ip']}#{r['port']}"


# ====================================================================== rendering
def _hclog_val(v):
    if all("-" <= ch <= "~" for ch in v):
        return v
    out = '"'
    for ch in v:
        if ch in '"\\':
            out += "\\" + ch
        else:
            out += ch
    return out + '"'


def consul_log(night):
    lv = {"DEBUG": "[DEBUG]", "INFO": "[INFO] ", "WARN": "[WARN] ", "ERROR": "[ERROR]"}
    out = []
    for t, _, level, module, msg, kvs in sorted(night.cl, key=lambda e: (e[0], e[1])):
        line = f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z {lv[level]} {module}: {msg}"
        if kvs:
            line += ":" + "".join(f" {k}={_hclog_val(v)}" for k, v in kvs)
        out.append(line)
    return "\n".join(out) + "\n"


def named_log(night):
    out = []
    for t, _, cat, sev, msg in sorted(night.nl, key=lambda e: (e[0], e[1])):
        out.append(f"{t.day:02d}-{t:%b}-{t.year} {t:%H:%M:%S}.{t.microsecond // 1000:03d} {cat}: {sev}: {msg}")
    return "\n".join(out) + "\n"


def kea_log(night):
    out = []
    for t, _, level, logger, thread, msgid, text in sorted(night.kl, key=lambda e: (e[0], e[1])):
        out.append(f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d} {level:<5} [{logger}/{KEA_PID}.{thread}] {msgid} {text}")
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {CONSUL: consul_log(night), NAMED: named_log(night), KEA: kea_log(night)}, night
