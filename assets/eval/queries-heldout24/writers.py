"""Writes the `queries-heldout24` fixtures: one night (2037-05-14, 00:00-04:00 UTC) on `ridge`, the HPC
cluster of the Quillon Bay Research Institute. The head node (`ridge-head`, 10.44.0.1) runs the Slurm
controller and dnsmasq (DHCP, PXE/TFTP and DNS for the cluster network); six storage hosts
(`stor01`-`stor06`) run a Ceph cluster whose CephFS `scratch` every node mounts. Three logs are written
from one shared plan of the night, so that the files agree:

- `slurmctld.log`: Slurm 23.11's controller with the default `LogTimeFormat=iso8601_ms`
  (`[2037-05-14T00:00:01.123] message`): batch submissions (`_slurm_rpc_submit_batch_job: JobId=N
  InitPrio=N usec=N`), starts by the main scheduler (`sched: Allocate JobId=N NodeList=... #CPUs=N
  Partition=P`) and by backfill (`sched/backfill: _start_job: Started JobId=N in P on NODES`),
  `_job_complete`, time limits, cancels, node events, requeues, `cleanup_completing`;
- `ceph.log`: the Ceph 18.2 (Reef) cluster log on the monitor host (`<ISO time>+0000 <entity>
  (<rank>) <seq> : cluster [LVL] message`): the mgr's pgmap every 2 s, scrubs, health checks, OSD
  slow requests, the MDS's slow requests and evictions, the audit channel;
- `dnsmasq.log`: dnsmasq 2.90 with `log-queries`, `log-facility=/var/log/dnsmasq.log` (its own
  `ctime()` stamp: `May 14 00:00:01 dnsmasq[1187]: ...`), DHCP with static `dhcp-host` entries and
  TFTP for PXE.

Standard library only; everything comes from one seeded `random.Random` (no set is iterated).
"""

import calendar
import math
import random
from datetime import datetime, timedelta

DAY = datetime(2037, 5, 14)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def secs(x):
    return timedelta(seconds=x)


def epoch(t):
    return calendar.timegm(t.utctimetuple())


START, END = T(0, 0), T(4, 0)

SLURM, CEPH, DNS = "slurmctld.log", "ceph.log", "dnsmasq.log"

COMPUTE = [f"cn{i:03d}" for i in range(1, 97)]
GPU = [f"gpu{i:02d}" for i in range(1, 9)]
BIGMEM = [f"bm{i:02d}" for i in range(1, 5)]
PARTS = {"compute": COMPUTE, "gpu": GPU, "bigmem": BIGMEM}
CPUS = {"compute": 64, "gpu": 48, "bigmem": 96}
RACK_C = [f"cn{i:03d}" for i in range(49, 73)]
ALL_NODES = COMPUTE + GPU + BIGMEM
DOMAIN = "ridge.lan"


def node_ip(n):
    if n.startswith("cn"):
        return f"10.44.1.{int(n[2:])}"
    if n.startswith("gpu"):
        return f"10.44.2.{int(n[3:])}"
    return f"10.44.3.{int(n[2:])}"


def node_mac(n):
    k = ALL_NODES.index(n)
    return f"3c:ec:ef:4a:{k // 256:02x}:{(k * 37 + 11) % 256:02x}"


LOGIN = {"login01": "10.44.0.11", "login02": "10.44.0.12"}
HOSTS = {"ridge-head": "10.44.0.1", "login01": "10.44.0.11", "login02": "10.44.0.12", "lic01": "10.44.0.20",
         **{f"stor{i:02d}": f"10.44.8.{i}" for i in range(1, 7)}}
UPSTREAM = ["10.0.0.53", "10.0.0.54"]

# --- slurm: planted jobs and events
FIRST_JID = 7830114
BURST_UID = 51408                     # a submit loop gone wrong, cancelled five minutes later
BURST_CANCEL = T(0, 22, 14, 306000)
SCRAPER_UID = 51877                   # a web-scraping job that floods the resolver
ADMIN_UID = 0
FLAKY = "cn090"                       # a node whose slurmd stalls now and then
FLAKY_BLIPS = [(T(0, 33, 12, 418000), T(0, 34, 52, 77000)), (T(1, 58, 41, 902000), T(2, 0, 22, 310000)),
               (T(3, 33, 5, 644000), T(3, 34, 47, 15000))]
SCRAPES = [dict(submit=T(0, 38, 51, 223000), start=T(0, 40, 12, 604000), node="cn052",
                flood=(T(0, 40, 20, 117000), T(0, 51, 39, 204000)), kill=T(0, 51, 38, 517000), burst=(T(0, 40, 47), T(0, 51, 36))),
           dict(submit=T(2, 11, 33, 871000), start=T(2, 12, 4, 245000), node="cn018",
                flood=(T(2, 12, 9, 660000), T(2, 13, 52, 90000)), kill=T(2, 13, 51, 377000), burst=(T(2, 12, 31), T(2, 13, 49)))]
CN037 = "cn037"
C037_A = (T(1, 2, 41, 377000), T(1, 55, 10, 214000))    # exits 0, then its epilog hangs on the blocklisted mount
C037_B = T(1, 11, 5, 93000)
C037_C = T(1, 20, 48, 660000)
EVICT_037 = T(1, 52, 26, 581204)      # the admin evicts cn037's CephFS client
DRAIN_037 = T(2, 1, 9, 448000)
DRAIN_REASON = "cephfs client blocklisted, hung mounts -mk"
DOWN_037 = C037_A[1] + secs(1161.3)   # set DOWN: its jobs requeued, the hung completion ends
REBOOT_037 = T(2, 23, 49)
PXE_037 = T(2, 24, 37, 410000)
NR_037 = T(2, 25, 14, 802000)
RESP_037 = T(2, 27, 51, 116000)
RESUME_037 = T(2, 29, 4, 530000)

# --- ceph
SLOW17 = (T(1, 29, 10), T(1, 38, 14))
SLOWOPS_HC = T(1, 30, 44, 120551)
OSD17_FAILED = T(1, 38, 15, 884213)
OSD17_OUT = T(1, 48, 17, 902331)
MDS_R1 = T(1, 44, 13, 902118)          # the oldest request blocked behind cn037's caps
MDS_R1_AGE = 483.352104                # its last report (the first 5-second tick past 480 s)
CLEANUP_OSD = (T(1, 38, 35), 115)      # epilogs hung on scratch come back after osd.17 is failed
RECOVERED = T(2, 36, 42, 118230)
REPAIR_FROM = T(2, 41, 5)
WR_BURST = T(2, 43, 18)                # a checkpoint burst: the night's highest client write rate
WR_BURST_BYTES = 4.8 * 2 ** 30
ERRS = [3, 6, 2, 5, 14, 4, 8, 7, 2, 5, 6, 3, 4, 7]   # read errors per inconsistent PG, in scrub order
ERR_FROM = T(1, 14, 22, 517000)

# --- the rack C power blip
POWER_LOSS = T(3, 5, 17)
RACK_NR = T(3, 6, 41, 227000)
POWER_BACK = T(3, 7, 2)
EVICT_RACK_FROM = T(3, 10, 4, 318221)

ERR_SHARD = 17


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _plateau(values, p, fix, pad=3):
    """Raises the values around every percentile definition's rank of the p-th percentile to one
    value (the window's top, nudged by `fix`), so that all definitions agree. Returns (value, new list)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    n = len(values)
    x = p / 100
    ranks = [math.ceil(x * n) - 1, int((n - 1) * x), int((n - 1) * x) + 1, int((n + 1) * x - 1),
             int((n + 1) * x - 1) + 1, int(x * n)]
    lo, hi = max(0, min(ranks) - pad), min(n - 1, max(ranks) + pad)
    v = fix(values[order[hi]])
    out = list(values)
    for i in order[lo:]:
        if out[i] < v:
            out[i] = v
    return v, out


def hostlist(nodes):
    """Slurm's compressed host list: `cn[049-072]`, `cn[017,019-020]`, `gpu03`."""
    nodes = sorted(nodes)
    if len(nodes) == 1:
        return nodes[0]
    prefix = nodes[0].rstrip("0123456789")
    width = len(nodes[0]) - len(prefix)
    nums = [int(n[len(prefix):]) for n in nodes]
    parts, i = [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(f"{nums[i]:0{width}d}" if i == j else f"{nums[i]:0{width}d}-{nums[j]:0{width}d}")
        i = j + 1
    return f"{prefix}[{','.join(parts)}]"


class Job:
    __slots__ = ("jid", "uid", "part", "cpus", "nodes", "submit", "start", "end", "kind", "fate", "exit", "how",
                 "limit", "cancel", "usec", "requeue_ok", "sched", "cancel_uid", "failed_node", "failed_at")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seq = 0
        self.sl = []          # (t, seq, msg)
        self.ce = []          # (t, seq, entity, channel, level, msg)
        self.dn = []          # (t, seq, ident, msg)
        self.rack_ret = {}    # rack C node -> when slurm returns it to service
        self.rack_pxe = {}    # rack C node -> its PXE DHCPDISCOVER
        self.rack_os = {}     # rack C node -> its OS DHCPACK
        self._rack_plan()
        self._slurm()
        self._ceph()
        self._dns()

    # ------------------------------------------------------------ helpers
    def S(self, t, msg):
        self.seq += 1
        self.sl.append((t, self.seq, msg))

    def C(self, t, entity, level, msg, channel="cluster"):
        self.seq += 1
        self.ce.append((t, self.seq, entity, channel, level, msg))

    def D(self, t, msg, ident="dnsmasq"):
        self.seq += 1
        self.dn.append((t, self.seq, ident, msg))

    def _rack_plan(self):
        rng = self.rng
        for n in RACK_C:
            pxe = POWER_BACK + secs(rng.uniform(28.0, 56.0))
            self.rack_pxe[n] = pxe
            self.rack_os[n] = pxe + secs(rng.uniform(56.0, 74.0))
            self.rack_ret[n] = self.rack_os[n] + secs(rng.uniform(18.0, 34.0))

    def blocked(self, node, a, b):
        """A random job may not run on `node` in [a, b)."""
        if node == CN037 and a < RESUME_037 + secs(30) and b > T(0, 58):
            return True
        if node in RACK_C and a < self.rack_ret[node] + secs(20) and a >= POWER_LOSS - secs(1):
            return True
        if node in ("cn052", "cn018") and any(a < s["kill"] + secs(5) and b > s["start"] - secs(5)
                                             for s in SCRAPES if s["node"] == node):
            return True
        return False

    # ------------------------------------------------------------ slurm
    def _pick(self, part, nn, a, b):
        rng = self.rng
        pool = PARTS[part]
        for _ in range(200):
            if nn == 1:
                nodes = [rng.choice(pool)]
            else:
                i = rng.randrange(0, len(pool) - nn + 1)
                nodes = pool[i:i + nn]
            if not any(self.blocked(n, a, b) for n in nodes):
                return nodes
        raise AssertionError("no node")

    def _mk(self, kind, uid, part, cpus, nn, t, dur, limit, fate):
        rng = self.rng
        j = Job(kind=kind, uid=uid if uid is not None else rng.choice(self.uids), part=part, cpus=cpus,
                submit=t, limit=limit, fate=fate, exit=0, requeue_ok=rng.random() < 0.88)
        j.how = nn
        j.end = dur          # the planned run time, replaced by the end time when it starts
        return j

    def _slurm(self):
        rng = self.rng
        self.uids = sorted(rng.sample(range(51000, 53999), 38))
        for u in (BURST_UID, SCRAPER_UID):
            if u in self.uids:
                self.uids.remove(u)
        jobs = []
        # jobs already running at midnight
        pre = []
        for _ in range(420):
            st = START - secs(rng.uniform(60, 7 * 3600))
            j = self._mk("batch", None, None, None, 1, st, None, None, None)
            self._fill(j)
            if st + secs(min(j.end, j.limit * 60)) > START + secs(30):
                pre.append(j)
        pre.sort(key=lambda j: j.submit)
        for k, j in enumerate(pre):
            j.jid = FIRST_JID - 900 + k
            j.start = j.submit + secs(rng.uniform(1, 600))
            j.kind = "pre"
        # the night's submissions
        subs = [(t, "batch", {}) for t in _poisson(rng, START, END - secs(60), 13.5)]
        subs += [(t, "inter", {}) for t in _poisson(rng, START, END - secs(300), 0.3)]
        b0 = T(0, 16, 55)
        for i in range(300):
            if i < 16:
                t = b0 + secs(rng.uniform(0, 4.9))
            elif i < 284:
                t = T(0, 17) + secs(rng.uniform(0.05, 59.9))
            else:
                t = T(0, 18) + secs(rng.uniform(0.05, 4.9))
            subs.append((t, "batch", {"burst": i}))
        for k, s in enumerate(SCRAPES):
            subs.append((s["submit"], "batch", {"scrape": k}))
        for name, st in (("A", C037_A[0]), ("B", C037_B), ("C", C037_C)):
            subs.append((st - secs(rng.uniform(2, 9)), "batch", {"c037": name}))
        subs.sort(key=lambda x: x[0])
        jid = FIRST_JID
        for t, kind, tag in subs:
            if "burst" in tag:
                j = self._mk("batch", BURST_UID, "compute", 4, 1, t, rng.uniform(300, 700), 30, "burst")
            elif "scrape" in tag:
                s = SCRAPES[tag["scrape"]]
                j = self._mk("batch", SCRAPER_UID, "compute", 32, 1, t, 4 * 3600, 720, ("scrape", tag["scrape"]))
            elif "c037" in tag:
                j = self._mk("batch", rng.choice(self.uids), "compute", 16, 1, t, 9 * 3600, 720, ("c037", tag["c037"]))
            elif kind == "inter":
                j = self._mk("inter", None, "compute", rng.choice([1, 4, 8]), 1, t, _lognorm(rng, 25 * 60, 0.7), 240, None)
            else:
                j = self._mk("batch", None, None, None, 1, t, None, None, None)
                self._fill(j)
            j.jid = jid
            jid += 1
            jobs.append(j)
        self.jobs = pre + jobs
        for j in self.jobs:
            self._schedule(j)
        self._node_events()
        self._emit_jobs()

    def _fill(self, j):
        rng = self.rng
        x = rng.random()
        j.part = "compute" if x < 0.80 else ("gpu" if x < 0.92 else "bigmem")
        nn = 1
        if j.part == "compute":
            if rng.random() < 0.05:
                nn = rng.choice([2, 2, 3, 4])
                j.cpus = 64 * nn
            else:
                j.cpus = rng.choice([1, 2, 4, 4, 8, 8, 16, 16, 32, 64])
        elif j.part == "gpu":
            j.cpus = rng.choice([8, 12, 12, 16, 24, 48])
        else:
            j.cpus = rng.choice([16, 24, 48, 96])
        j.how = nn
        j.limit = rng.choice([30, 60, 60, 120, 120, 240, 480, 720])
        dur = min(_lognorm(rng, 22 * 60, 0.85), 11 * 3600)
        if rng.random() < 0.07:
            dur = j.limit * 60 + rng.uniform(60, 3600)
        j.end = dur

    def _schedule(self, j):
        """Start, nodes and fate of one job (before node failures are applied)."""
        rng = self.rng
        dur = j.end
        nn = j.how
        tag = j.fate
        if j.kind == "pre":
            j.sched = "pre"
        elif tag == "burst":
            k = sum(1 for x in self.jobs if x.fate == "burst" and x.jid < j.jid)
            if k >= 150:                    # still pending when its owner cancels them all
                j.start = None
                j.cancel = BURST_CANCEL + secs(k * 0.031)
                j.sched = None
                j.nodes = None
                return
            j.start = j.submit + secs(rng.uniform(0.3, 70))
            j.sched = "main"
        elif isinstance(tag, tuple) and tag[0] == "scrape":
            s = SCRAPES[tag[1]]
            j.start, j.nodes, j.sched = s["start"], [s["node"]], "main"
            j.end = s["kill"] + secs(3600)
            j.cancel = s["kill"]
            j.cancel_uid = ADMIN_UID
            return
        elif isinstance(tag, tuple) and tag[0] == "c037":
            j.start = {"A": C037_A[0], "B": C037_B, "C": C037_C}[tag[1]]
            j.nodes, j.sched = [CN037], "main"
            j.end = C037_A[1] if tag[1] == "A" else None
            return
        elif j.kind == "inter":
            j.start = j.submit + secs(rng.uniform(0.01, 0.4))
            j.sched = "inter"
            j.usec = int(_lognorm(rng, 1500, 0.4))
        elif rng.random() < 0.7:
            j.start = j.submit + secs(rng.uniform(0.2, 25) if rng.random() < 0.85 else rng.uniform(25, 900))
            j.sched = "main"
        else:
            j.start = j.submit + secs(rng.uniform(40, 1500))
            j.sched = "backfill"
        run = min(dur, j.limit * 60 + 30)
        if j.nodes is None:
            j.nodes = self._pick(j.part, nn, j.start, j.start + secs(run))
        if dur > j.limit * 60:
            j.end = j.start + secs(j.limit * 60 + rng.uniform(1, 29))
            j.how = "timeout"
        else:
            j.end = j.start + secs(dur)
            j.how = "exit"
            if rng.random() < 0.075 and tag != "burst":
                j.exit = rng.choice([1, 1, 1, 2, 3, 127, 255])
        if j.kind == "batch" and tag is None and rng.random() < 0.035:
            j.cancel = j.start + secs(rng.uniform(5, max(10, (j.end - j.start).total_seconds() - 5)))
            j.cancel_uid = j.uid

    def _node_events(self):
        rng = self.rng
        for a, b in FLAKY_BLIPS:
            self.S(a, f"error: Nodes {FLAKY} not responding")
            self.S(b, f"Node {FLAKY} now responding")
        # cn037
        self.S(DRAIN_037, f"update_node: node {CN037} reason set to: {DRAIN_REASON}")
        self.S(DRAIN_037 + secs(0.001), f"update_node: node {CN037} state set to DRAINING")
        self.S(DOWN_037, f"update_node: node {CN037} state set to DOWN")
        self.S(NR_037, f"error: Nodes {CN037} not responding")
        self.S(RESP_037, f"Node {CN037} now responding")
        self.S(RESUME_037, f"update_node: node {CN037} state set to IDLE")
        # rack C
        self.S(RACK_NR, f"error: Nodes {hostlist(RACK_C)} not responding")
        boot = epoch(POWER_BACK + secs(21))
        last = epoch(POWER_LOSS - secs(rng.uniform(5, 40)))
        for n in sorted(RACK_C, key=lambda n: self.rack_ret[n]):
            self.S(self.rack_ret[n], f"validate_node_specs: Node {n} unexpectedly rebooted boot_time={boot} last response={last}")

    def _emit_jobs(self):
        rng = self.rng
        requeued = []
        # the submit RPC's usec: a burst of submissions is slower; its p95 on a plateau (all definitions agree,
        # its last digit below 5 so that milliseconds to 2 decimals read the same rounded or truncated)
        batch = [j for j in self.jobs if j.kind == "batch"]
        us = [int(_lognorm(rng, 3400, 0.45)) if j.fate == "burst" else int(_lognorm(rng, 760, 0.5)) for j in batch]

        def fix(x):
            v = x + 1
            while v % 10 >= 5:
                v += 1
            return v
        self.p95_usec, us = _plateau(us, 95, fix)
        for j, u in zip(batch, us):
            j.usec = u
        for j in self.jobs:
            # node failures: cn037's jobs, and every job running on rack C at the power loss
            if isinstance(j.fate, tuple) and j.fate[0] == "c037":
                if j.fate[1] != "A":
                    j.how = "requeue037"
                    j.end = None
                else:
                    j.how = "exit"
                continue
            if j.start is None or j.nodes is None:
                continue
            rn = [n for n in j.nodes if n in RACK_C]
            if rn and j.start < POWER_LOSS < j.end and not (j.cancel and j.cancel < POWER_LOSS):
                first = min(rn, key=lambda n: self.rack_ret[n])
                j.how = "rack"
                j.failed_node = first
                j.failed_at = self.rack_ret[first]
                j.end = None
                j.cancel = None
        for j in self.jobs:
            self._emit_one(j)
        # the rack's returns: requeues, kills, back in service
        by_node = {}
        for j in self.jobs:
            if j.how == "rack":
                by_node.setdefault(j.failed_node, []).append(j)
        for n in sorted(RACK_C, key=lambda n: self.rack_ret[n]):
            t = self.rack_ret[n] + secs(0.002)
            for j in sorted(by_node.get(n, []), key=lambda j: j.jid):
                if j.requeue_ok and j.kind != "inter":     # an salloc session is never requeued
                    self.S(t, f"requeue job JobId={j.jid} due to failure of node {n}")
                    requeued.append((j, t))
                else:
                    self.S(t, f"Killing JobId={j.jid} on failed node {n}")
                t += secs(0.001)
            self.S(t + secs(0.003), f"node {n} returned to service")
        # cn037: set DOWN, its running jobs requeued, the hung completion ends
        t = DOWN_037 + secs(0.002)
        for j in self.jobs:
            if j.how == "requeue037":
                self.S(t, f"requeue job JobId={j.jid} due to failure of node {CN037}")
                requeued.append((j, t))
                t += secs(0.001)
        a = next(j for j in self.jobs if j.fate == ("c037", "A"))
        self.S(t + secs(0.001), f"cleanup_completing: JobId={a.jid} completion process took "
                                f"{int((DOWN_037 - a.end).total_seconds())} seconds")
        # requeued jobs start again elsewhere (a requeued job waits for its BeginTime)
        for j, t in requeued:
            st = t + secs(rng.uniform(125, 480))
            dur = min(_lognorm(rng, 25 * 60, 0.7), j.limit * 60 - 60)
            nodes = self._pick(j.part, len(j.nodes), st, st + secs(dur))
            self.S(st, f"sched: Allocate JobId={j.jid} NodeList={hostlist(nodes)} #CPUs={j.cpus} Partition={j.part}")
            e = st + secs(dur)
            if e < END:
                self.S(e, f"_job_complete: JobId={j.jid} WEXITSTATUS 0")
                self.S(e + secs(0.001), f"_job_complete: JobId={j.jid} done")

    def _emit_one(self, j):
        rng = self.rng
        if j.kind == "batch":
            self.S(j.submit, f"_slurm_rpc_submit_batch_job: JobId={j.jid} InitPrio={rng.randint(9000, 48000)} usec={j.usec}")
        if j.start is None:
            if j.cancel:
                self.S(j.cancel, f"_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId={j.jid} uid {j.uid}")
            return
        nl = hostlist(j.nodes)
        if j.kind == "inter":
            self.S(j.start, f"sched: _slurm_rpc_allocate_resources JobId={j.jid} NodeList={nl} usec={j.usec}")
        elif j.sched == "main":
            self.S(j.start, f"sched: Allocate JobId={j.jid} NodeList={nl} #CPUs={j.cpus} Partition={j.part}")
        elif j.sched == "backfill":
            self.S(j.start, f"sched/backfill: _start_job: Started JobId={j.jid} in {j.part} on {nl}")
        if j.how in ("rack", "requeue037"):
            return
        if j.cancel and j.cancel < j.end:
            if j.cancel < END:
                uid = j.cancel_uid if j.cancel_uid is not None else j.uid
                self.S(j.cancel, f"_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId={j.jid} uid {uid}")
                self.S(j.cancel + secs(0.0004), f"job_signal: 9 of running JobId={j.jid} successful 0x8004")
            return
        if j.end >= END:
            return
        if j.how == "timeout":
            self.S(j.end, f"Time limit exhausted for JobId={j.jid}")
        else:
            self.S(j.end, f"_job_complete: JobId={j.jid} WEXITSTATUS {j.exit}")
            self.S(j.end + secs(0.001), f"_job_complete: JobId={j.jid} done")
        # epilogs that wiped /scratch while osd.17 stalled, back once the osd was failed
        if SLOW17[0] + secs(20) <= j.end < OSD17_FAILED and rng.random() < 0.85:
            c = max(j.end + secs(61), CLEANUP_OSD[0] + secs(rng.uniform(0, CLEANUP_OSD[1])))
            self.S(c, f"cleanup_completing: JobId={j.jid} completion process took {int((c - j.end).total_seconds())} seconds")

    # ------------------------------------------------------------ ceph
    def _ceph(self):
        rng = self.rng
        MON, MGR, MDS = "mon.stor01", "mgr.stor01.kqzjpw", "mds.scratch.stor02.vxkfpe"
        self.ent_rank = {MON: "mon.0", MGR: "mgr.24105", MDS: "mds.0"}
        self.MON, self.MGR, self.MDS = MON, MGR, MDS
        pgids = ["1.0"] + [f"2.{i:x}" for i in range(2048)] + [f"3.{i:x}" for i in range(64)]
        # scrubs
        scrubs = []     # (start, end, pg, kind, primary)
        for kind, rate in (("scrub", 1.45), ("deep-scrub", 0.42)):
            for t in _poisson(rng, START - secs(120), END, rate):
                d = rng.uniform(3, 45) if kind == "scrub" else rng.uniform(50, 420)
                scrubs.append([t, t + secs(d), rng.choice(pgids), kind, rng.choice([o for o in range(36) if o != ERR_SHARD])])
        # a few PGs scrubbed and then deep-scrubbed in the same night
        for _ in range(9):
            s = rng.choice([x for x in scrubs if x[3] == "scrub" and x[0] < T(3, 20)])
            t = s[1] + secs(rng.uniform(300, 1800))
            scrubs.append([t, t + secs(rng.uniform(60, 300)), s[2], "deep-scrub", s[4]])
        # the PGs with a shard on osd.17 whose deep-scrub finds read errors
        used = [x[2] for x in scrubs]
        errpgs = []
        t = ERR_FROM
        for k, n in enumerate(ERRS):
            pg = rng.choice([p for p in pgids if p.startswith("2.") and p not in used and p not in [e[0] for e in errpgs]])
            st = t - secs(rng.uniform(60, 160))
            errpgs.append((pg, st, t, n, rng.choice([o for o in range(36) if o not in (ERR_SHARD, 9, 28, 4)])))
            t = t + secs(100)
        self.errpgs = errpgs
        # no ordinary scrub by osd.17 once it slows; none of the error PGs scrubbed otherwise
        errset = [e[0] for e in errpgs]
        scrubs = [x for x in scrubs if x[2] not in errset and x[0] >= START and x[1] < END]
        self.scrubs = scrubs
        for st, en, pg, kind, prim in scrubs:
            ent = f"osd.{prim}"
            if st >= START:
                self.C(st, ent, "DBG", f"{pg} {kind} starts")
            if START <= en < END:
                self.C(en, ent, "DBG", f"{pg} {kind} ok")
        total_err, incons = 0, 0
        for pg, st, en, n, prim in errpgs:
            ent = f"osd.{prim}"
            self.C(st, ent, "DBG", f"{pg} deep-scrub starts")
            ino = rng.randint(0x10000a00000, 0x10000afffff)
            for i in range(n):
                h = rng.getrandbits(32)
                self.C(en + secs(i * 0.0003), ent, "ERR",
                       f"{pg} shard {ERR_SHARD} soid 2:{h:08x}:::{ino + i * 7:x}.{rng.randint(0, 400):08x}:head : candidate had a read error")
            self.C(en + secs(0.01), ent, "ERR", f"{pg} deep-scrub 0 missing, {n} inconsistent objects")
            self.C(en + secs(0.011), ent, "ERR", f"{pg} deep-scrub {n} errors")
            total_err += n
            incons += 1
            hc = en + secs(rng.uniform(1.2, 4.8))
            if incons == 1:
                self.C(hc, MON, "ERR", f"Health check failed: {total_err} scrub errors (OSD_SCRUB_ERRORS)")
                self.C(hc + secs(0.0002), MON, "ERR", "Health check failed: Possible data damage: 1 pg inconsistent (PG_DAMAGED)")
            else:
                self.C(hc, MON, "ERR", f"Health check update: {total_err} scrub errors (OSD_SCRUB_ERRORS)")
                self.C(hc + secs(0.0002), MON, "ERR",
                       f"Health check update: Possible data damage: {incons} pgs inconsistent (PG_DAMAGED)")
        self.total_scrub_errors = total_err
        # the repairs
        t = REPAIR_FROM
        self.repairs = []
        for pg, st, en, n, prim in errpgs:
            self.C(t, MON, "INF", f"from='client.? 10.44.0.1:0/{rng.randint(1000000000, 4000000000)}' entity='client.admin' "
                                 f"cmd=[{{\"prefix\": \"pg repair\", \"pgid\": \"{pg}\"}}]: dispatch", channel="audit")
            rs = t + secs(rng.uniform(0.8, 3))
            re_ = rs + secs(rng.uniform(12, 28))
            self.C(rs, f"osd.{prim}", "DBG", f"{pg} repair starts")
            self.C(re_, f"osd.{prim}", "DBG", f"{pg} repair ok")
            self.repairs.append((pg, rs, re_))
            t = re_ + secs(rng.uniform(3, 9))
        last_rep = self.repairs[-1][2]
        self.C(last_rep + secs(2.1), MON, "INF", f"Health check cleared: OSD_SCRUB_ERRORS (was: {total_err} scrub errors)")
        self.C(last_rep + secs(2.1002), MON, "INF", f"Health check cleared: PG_DAMAGED (was: Possible data damage: 1 pg inconsistent)")
        self.healthy = [T(0, 26, 3, 117733), last_rep + secs(2.1004), T(3, 10, 52, 402981)]
        self.C(self.healthy[1], MON, "INF", "Cluster is now healthy")
        # OSD slow requests: osd.4 briefly at 00:24, osd.17 (its disk dying) and its peers at 01:29-01:38
        self.slow_lines = {}
        for osd, a, b, gap, kind in ((4, T(0, 24, 2), T(0, 25, 40), (4, 6), "delayed"),
                                     (ERR_SHARD, SLOW17[0], SLOW17[1], (3, 5), "delayed"),
                                     (28, T(1, 29, 41), T(1, 38, 13), (6, 10), "waiting for sub ops"),
                                     (9, T(1, 30, 6), T(1, 38, 10), (8, 12), "waiting for sub ops")):
            t = a + secs(rng.uniform(0, 1))
            k = 0
            while t < b:
                n = min(40, 1 + int((t - a).total_seconds() / 25) + rng.randint(0, 2))
                d = n if kind == "delayed" else rng.randint(0, n // 3)
                w = n - d
                kinds = f"'delayed' : {d}" + (f" 'waiting for sub ops' : {w}" if w else "")
                if kind == "delayed":
                    kinds = f"'delayed' : {n}"
                self.C(t, f"osd.{osd}", "WRN", f"{n} slow requests (by type [ {kinds} ] most affected pool [ 'scratch_data' : {n} ])")
                k += 1
                t += secs(rng.uniform(*gap))
            self.slow_lines[osd] = k
        # health: the 00:24 blip
        self.C(T(0, 24, 35, 611204), MON, "WRN", "Health check failed: 1 slow ops, oldest one blocked for 31 sec, osd.4 has slow ops (SLOW_OPS)")
        self.C(T(0, 25, 5, 712090), MON, "WRN", "Health check update: 6 slow ops, oldest one blocked for 61 sec, osd.4 has slow ops (SLOW_OPS)")
        self.C(T(0, 25, 44, 31877), MON, "INF", "Health check cleared: SLOW_OPS (was: 6 slow ops, oldest one blocked for 98 sec, osd.4 has slow ops)")
        # health: osd.17
        self.C(SLOWOPS_HC, MON, "WRN", "Health check failed: 2 slow ops, oldest one blocked for 31 sec, osd.17 has slow ops (SLOW_OPS)")
        t, k = SLOWOPS_HC + secs(30.5), 2
        while t < OSD17_FAILED:
            k += rng.randint(1, 3)
            age = int((t - SLOWOPS_HC).total_seconds()) + 31
            self.C(t, MON, "WRN", f"Health check update: {k} slow ops, oldest one blocked for {age} sec, osd.17 has slow ops (SLOW_OPS)")
            t += secs(rng.uniform(28, 34))
        self.C(OSD17_FAILED, MON, "INF", f"osd.{ERR_SHARD} failed (root=default,host=stor03) (2 reporters from different host after "
                                         f"23.481931 >= grace 20.000000)")
        self.C(OSD17_FAILED + secs(0.9), MON, "DBG", "osdmap e41235: 36 total, 35 up, 36 in")
        self.C(OSD17_FAILED + secs(1.2), MON, "WRN", "Health check failed: 1 osds down (OSD_DOWN)")
        self.C(OSD17_FAILED + secs(7.1), MON, "INF",
               f"Health check cleared: SLOW_OPS (was: {k} slow ops, oldest one blocked for "
               f"{int((OSD17_FAILED - SLOWOPS_HC).total_seconds()) + 31} sec, osd.17 has slow ops)")
        tot_obj = 82712345
        deg0 = 411876
        self.C(OSD17_FAILED + secs(6.3), MON, "WRN",
               f"Health check failed: Degraded data redundancy: {deg0}/{tot_obj} objects degraded ({100 * deg0 / tot_obj:.3f}%), "
               f"61 pgs degraded, 61 pgs undersized (PG_DEGRADED)")
        self.C(OSD17_OUT, MON, "INF", f"Marking osd.{ERR_SHARD} out (has been down for 602 seconds)")
        self.C(OSD17_OUT + secs(0.8), MON, "DBG", "osdmap e41236: 36 total, 35 up, 35 in")
        self.C(OSD17_OUT + secs(1.1), MON, "INF", "Health check cleared: OSD_DOWN (was: 1 osds down)")
        t = OSD17_OUT + secs(60)
        while t < RECOVERED - secs(30):
            f = 1 - (t - OSD17_OUT) / (RECOVERED - OSD17_OUT)
            d = int(deg0 * f)
            pgs = max(1, int(61 * f))
            self.C(t, MON, "WRN", f"Health check update: Degraded data redundancy: {d}/{tot_obj} objects degraded "
                                  f"({100 * d / tot_obj:.3f}%), {pgs} pgs degraded, {pgs} pgs undersized (PG_DEGRADED)")
            t += secs(rng.uniform(55, 75))
        self.C(RECOVERED, MON, "INF", "Health check cleared: PG_DEGRADED (was: Degraded data redundancy: 1184/82712345 objects "
                                      "degraded (0.001%), 1 pg degraded, 1 pg undersized)")
        self.deg = (deg0, tot_obj)
        # the MDS
        self._mds()
        # the overall health line every ten minutes
        t = T(0, 3, 27, 551002)
        while t < END:
            st = self._health_at(t)
            if not st:
                self.C(t, MON, "INF", "overall HEALTH_OK")
            else:
                lvl = "ERR" if any(s[0] == "ERR" for s in st) else "WRN"
                self.C(t, MON, lvl, f"overall HEALTH_{'ERR' if lvl == 'ERR' else 'WARN'} " + "; ".join(s[1] for s in st))
            t += secs(600)
        # pgmap every 2 s
        self._pgmap()

    def _health_at(self, t):
        out = []
        if T(0, 24, 35) <= t < T(0, 25, 44):
            out.append(("WRN", "6 slow ops, oldest one blocked for 61 sec, osd.4 has slow ops"))
        first_err = self.errpgs[0][2]
        last_rep = self.repairs[-1][2]
        if first_err <= t < last_rep:
            k = sum(1 for e in self.errpgs if e[2] <= t)
            n = sum(e[3] for e in self.errpgs if e[2] <= t)
            inc = k - sum(1 for r in self.repairs if r[2] <= t)
            out.append(("ERR", f"{n} scrub errors"))
            if inc > 0:
                out.append(("ERR", f"Possible data damage: {inc} pg{'s' if inc > 1 else ''} inconsistent"))
        if OSD17_FAILED <= t < OSD17_OUT:
            out.append(("WRN", "1 osds down"))
        if OSD17_FAILED <= t < RECOVERED:
            out.append(("WRN", "Degraded data redundancy"))
        if SLOWOPS_HC <= t < OSD17_FAILED:
            out.append(("WRN", "slow ops, osd.17 has slow ops"))
        if self.mds_hc[0] <= t < self.mds_hc[1] or self.mds_hc[2] <= t < self.mds_hc[3]:
            out.append(("WRN", "1 MDSs report slow requests"))
        return out

    def _mds(self):
        rng = self.rng
        MDS, MON = self.MDS, self.MON
        self.mds_detail = []
        # client ids of the nodes' CephFS sessions
        ids = sorted(rng.sample(range(884000, 886999), len(ALL_NODES)))
        self.client_id = dict(zip(ALL_NODES, ids))
        self.client_id[CN037] = 884213
        nonce = {n: rng.randint(1000000000, 4200000000) for n in ALL_NODES}
        self.nonce = nonce

        def episode(reqs, until, ticks_from):
            """reqs: [(received, client, op)], blocked until `until`: the MDS reports each one when it passes
            30, 60, 120, 240 and 480 s, grouped per 5-second tick."""
            tick = ticks_from
            levels = {i: 0 for i in range(len(reqs))}
            ident = [(rng.randint(100000, 999999), rng.randint(0x10000a00000, 0x10000bfffff), rng.choice(self.uids)) for _ in reqs]
            out = []
            while tick < until:
                due = [i for i, (r, _, _) in enumerate(reqs)
                       if levels[i] < 5 and (tick - r).total_seconds() >= 30 * 2 ** levels[i]]
                if due:
                    blocked = [i for i, (r, _, _) in enumerate(reqs) if (tick - r).total_seconds() >= 30]
                    oldest = max((tick - reqs[i][0]).total_seconds() for i in blocked)
                    out.append((tick, len(blocked), due, oldest))
                    for i in due:
                        while levels[i] < 5 and (tick - reqs[i][0]).total_seconds() >= 30 * 2 ** levels[i]:
                            levels[i] += 1
                tick += secs(5)
            for tick, nb, due, oldest in out:
                self.C(tick, MDS, "WRN", f"{nb} slow requests, {len(due)} included below; oldest blocked for > {oldest:.6f} secs")
                for k, i in enumerate(due):
                    r, cl, op = reqs[i]
                    age = (tick - r).total_seconds()
                    self.C(tick + secs(0.00001 * (k + 1)), MDS, "WRN",
                           f"slow request {age:.6f} seconds old, received at {r:%Y-%m-%dT%H:%M:%S.%f}+0000: "
                           f"client_request(client.{cl}:{ident[i][0]} {op} #0x{ident[i][1]:x} "
                           f"{r:%Y-%m-%dT%H:%M:%S.%f}+0000 caller_uid={ident[i][2]}, caller_gid=5000{{}}) "
                           f"currently failed to rdlock, waiting")
                    self.mds_detail.append((tick, age))
            return out

        ops = ["getattr pAsLsXsFs", "lookup", "getattr pAsLsXsFs", "open", "setattr size", "create"]
        others = [n for n in COMPUTE if n != CN037 and n not in RACK_C]
        # 00:24: osd.4's blip
        reqs = [(T(0, 23, 58) + secs(rng.uniform(0, 40)), self.client_id[rng.choice(others)], rng.choice(ops)) for _ in range(4)]
        reqs.sort(key=lambda x: x[0])
        ep1 = episode(reqs, T(0, 25, 44), T(0, 24, 0, 770000))
        # 01:44-01:52: requests blocked behind cn037's caps, until the client is evicted
        reqs = [(MDS_R1, self.client_id[rng.choice(others)], "getattr pAsLsXsFs")]
        r1_final = MDS_R1 + secs(MDS_R1_AGE)
        for t in _poisson(rng, MDS_R1 + secs(20), MDS_R1 + secs(445), 5.6):
            reqs.append((t, self.client_id[rng.choice(others)], rng.choice(ops)))
        ep2 = episode(reqs, r1_final + secs(1), r1_final - secs(5 * 97))
        self.mds_r1_final = r1_final
        # 03:06-03:10: requests blocked behind rack C's dead sessions
        reqs = [(POWER_LOSS + secs(rng.uniform(15, 75)), self.client_id[rng.choice(others)], rng.choice(ops)) for _ in range(9)]
        reqs.sort(key=lambda x: x[0])
        ep3 = episode(reqs, EVICT_RACK_FROM, T(3, 5, 1, 880000))
        self.mds_eps = (ep1, ep2, ep3)
        # health checks of the MDS
        h = [ep1[0][0] + secs(3.4), T(0, 25, 52, 118032), ep2[0][0] + secs(3.9), EVICT_037 + secs(4.2),
             ep3[0][0] + secs(2.7), EVICT_RACK_FROM + secs(38.2)]
        self.mds_hc = h
        self.C(h[0], MON, "WRN", "Health check failed: 1 MDSs report slow requests (MDS_SLOW_REQUEST)")
        self.C(h[1], MON, "INF", "Health check cleared: MDS_SLOW_REQUEST (was: 1 MDSs report slow requests)")
        self.C(h[1] + secs(0.0003), MON, "INF", "Cluster is now healthy")
        assert abs((h[1] + secs(0.0003) - self.healthy[0]).total_seconds()) < 60
        self.healthy[0] = h[1] + secs(0.0003)
        self.C(h[2], MON, "WRN", "Health check failed: 1 MDSs report slow requests (MDS_SLOW_REQUEST)")
        self.C(h[3], MON, "INF", "Health check cleared: MDS_SLOW_REQUEST (was: 1 MDSs report slow requests)")
        self.C(h[4], MON, "WRN", "Health check failed: 1 MDSs report slow requests (MDS_SLOW_REQUEST)")
        self.C(h[5], MON, "INF", "Health check cleared: MDS_SLOW_REQUEST (was: 1 MDSs report slow requests)")
        # cn037's client holds caps it cannot release
        c037 = self.client_id[CN037]
        t, late = MDS_R1 + secs(61.2), 61.2
        first_late = t
        while t < EVICT_037:
            self.C(t, MDS, "WRN", f"client.{c037} isn't responding to mclientcaps(revoke), ino 0x10000a3f2e1 pending "
                                  f"pAsLsXsFsc issued pAsLsXsFscb, sent {late + rng.uniform(0, 0.9):.6f} seconds ago")
            t += secs(late)
            late *= 2
        self.C(first_late + secs(2.6), MON, "WRN",
               "Health check failed: 1 clients failing to respond to capability release (MDS_CLIENT_LATE_RELEASE)")
        self.C(EVICT_037, MDS, "INF", f"Evicting (and blocklisting) client session {c037} (v1:{node_ip(CN037)}:0/{nonce[CN037]})")
        self.C(EVICT_037 + secs(3.9), MON, "INF",
               "Health check cleared: MDS_CLIENT_LATE_RELEASE (was: 1 clients failing to respond to capability release)")
        # rack C: the dead sessions' caps, then the evictions
        t = POWER_LOSS + secs(64)
        for n in RACK_C[:6]:
            self.C(t, MDS, "WRN", f"client.{self.client_id[n]} isn't responding to mclientcaps(revoke), ino "
                                  f"0x{rng.randint(0x10000b00000, 0x10000bfffff):x} pending pAsLsXsFsc issued pAsLsXsFscb, "
                                  f"sent {rng.uniform(60.0, 62.0):.6f} seconds ago")
            t += secs(rng.uniform(3, 14))
        self.C(POWER_LOSS + secs(71.5), MON, "WRN",
               "Health check failed: 6 clients failing to respond to capability release (MDS_CLIENT_LATE_RELEASE)")
        t = EVICT_RACK_FROM
        order = list(RACK_C)
        rng.shuffle(order)
        self.rack_evict = []
        for n in order:
            age = 300 + (t - EVICT_RACK_FROM).total_seconds() * 0.02 + rng.uniform(0.1, 4.9)
            self.C(t, MDS, "WRN", f"evicting unresponsive client {n}:scratch ({self.client_id[n]}), after {age:.6f} seconds")
            self.C(t + secs(0.0004), MDS, "INF",
                   f"Evicting (and blocklisting) client session {self.client_id[n]} (v1:{node_ip(n)}:0/{nonce[n]})")
            self.rack_evict.append((t, n))
            t += secs(rng.uniform(0.4, 2.2))
        self.C(EVICT_RACK_FROM + secs(37.5), MON, "INF",
               "Health check cleared: MDS_CLIENT_LATE_RELEASE (was: 6 clients failing to respond to capability release)")
        self.C(self.healthy[2], MON, "INF", "Cluster is now healthy")

    def _pgmap(self):
        rng = self.rng
        v = 912345
        t = START + secs(1.482913)
        wr = 1.1 * 2 ** 30
        rd = 380 * 2 ** 20
        ops = 4800.0
        burst_done = False
        while t < END:
            wr = min(3.3 * 2 ** 30, max(180 * 2 ** 20, wr * math.exp(rng.gauss(0, 0.09))))
            rd = min(1.6 * 2 ** 30, max(40 * 2 ** 20, rd * math.exp(rng.gauss(0, 0.1))))
            ops = min(19000, max(900, ops * math.exp(rng.gauss(0, 0.07))))
            w = wr
            if not burst_done and t >= WR_BURST:
                w = WR_BURST_BYTES
                burst_done = True
                self.wr_burst_at = t
            states = {}
            for st, en, pg, kind, prim in self.scrubs:
                if st <= t < en:
                    k = "active+clean+scrubbing+deep" if kind == "deep-scrub" else "active+clean+scrubbing"
                    states[k] = states.get(k, 0) + 1
            for pg, st, en, n, prim in self.errpgs:
                if st <= t < en:
                    states["active+clean+scrubbing+deep"] = states.get("active+clean+scrubbing+deep", 0) + 1
            inc = sum(1 for e in self.errpgs if e[2] <= t) - sum(1 for r in self.repairs if r[2] <= t)
            if inc:
                states["active+clean+inconsistent"] = inc
            deg = ""
            rec = ""
            if OSD17_FAILED <= t < RECOVERED:
                if t < OSD17_OUT:
                    states["active+undersized+degraded"] = 61
                    d = self.deg[0]
                else:
                    f = 1 - (t - OSD17_OUT) / (RECOVERED - OSD17_OUT)
                    left = max(1, int(61 * f))
                    bf = min(left, 4)
                    states["active+undersized+degraded+remapped+backfilling"] = bf
                    if left - bf:
                        states["active+undersized+degraded+remapped+backfill_wait"] = left - bf
                    d = max(1184, int(self.deg[0] * f))
                    rec = f"; {fmt_bytes(rng.uniform(380, 1400) * 2 ** 20)}/s, {rng.randint(90, 360)} objects/s recovering"
                deg = f"; {d}/{self.deg[1]} objects degraded ({100 * d / self.deg[1]:.3f}%)"
            clean = 2113 - sum(states.values())
            parts = sorted(states.items(), key=lambda kv: kv[1]) + [("active+clean", clean)]
            pgs = ", ".join(f"{n} {s}" for s, n in parts)
            used = 853 + (t - START).total_seconds() / 14400 * 2
            self.C(t, self.MGR, "DBG",
                   f"pgmap v{v}: 2113 pgs: {pgs}; 284 TiB data, {used:.0f} TiB used, {1229 - used:.0f} TiB / 1.2 PiB avail; "
                   f"{fmt_bytes(rd)}/s rd, {fmt_bytes(w)}/s wr, {fmt_ops(ops)} op/s{deg}{rec}")
            v += 1
            t += secs(2 + rng.uniform(-0.03, 0.03))

    # ------------------------------------------------------------ dnsmasq
    def _dns(self):
        rng = self.rng
        self.cache = {}
        self.ext = _ext_names()
        # DHCP renewals (12 h leases renewed at half time)
        for n in ALL_NODES:
            if n == CN037:
                continue
            r = START + secs(rng.uniform(0, 6 * 3600))
            if r >= END - secs(60):
                continue
            if n in RACK_C and r >= POWER_LOSS - secs(30):
                continue
            ip, mac = node_ip(n), node_mac(n)
            self.D(r, f"DHCPREQUEST(eth1) {ip} {mac}", "dnsmasq-dhcp")
            self.D(r + secs(0.0005), f"DHCPACK(eth1) {ip} {mac} {n}", "dnsmasq-dhcp")
        # PXE boots: cn037, then rack C
        self._pxe(CN037, PXE_037, PXE_037 + secs(70.3))
        for n in RACK_C:
            self._pxe(n, self.rack_pxe[n], self.rack_os[n])
        # queries
        down = {CN037: (REBOOT_037, PXE_037 + secs(70.3))}
        for n in RACK_C:
            down[n] = (POWER_LOSS, self.rack_os[n])
        evts = []
        for n in COMPUTE:
            for t in _poisson(rng, START, END, 0.1):
                evts.append((t, node_ip(n), n, "compute"))
        for n in GPU:
            for t in _poisson(rng, START, END, 0.75):
                evts.append((t, node_ip(n), n, "gpu"))
        for n in BIGMEM:
            for t in _poisson(rng, START, END, 0.3):
                evts.append((t, node_ip(n), n, "compute"))
        for n, ip in LOGIN.items():
            for t in _poisson(rng, START, END, 1.4):
                evts.append((t, ip, n, "login"))
        for i in range(1, 7):
            for t in _poisson(rng, START, END, 0.05):
                evts.append((t, f"10.44.8.{i}", f"stor{i:02d}", "stor"))
        # after a boot: slurmd, the CephFS mount
        for n, (a, b) in sorted(down.items()):
            t = b + secs(rng.uniform(4, 12))
            for name in ("ridge-head", "stor01", "stor02", "stor03"):
                evts.append((t, node_ip(n), n, ("boot", name)))
                t += secs(rng.uniform(0.01, 0.3))
        evts.sort(key=lambda e: e[0])
        for t, ip, n, kind in evts:
            if n in down and down[n][0] <= t < down[n][1] and not isinstance(kind, tuple):
                continue
            self._client_query(t, ip, kind)
        # the floods
        self.flood_names = []
        for s in SCRAPES:
            self._flood(s)
        self._tune_share()

    def _pxe(self, n, t, os_ack):
        rng = self.rng
        ip, mac = node_ip(n), node_mac(n)
        d = "dnsmasq-dhcp"
        self.D(t, f"DHCPDISCOVER(eth1) {mac}", d)
        self.D(t + secs(0.0004), f"DHCPOFFER(eth1) {ip} {mac}", d)
        t2 = t + secs(rng.uniform(0.9, 1.3))
        self.D(t2, f"DHCPREQUEST(eth1) {ip} {mac}", d)
        self.D(t2 + secs(0.0004), f"DHCPACK(eth1) {ip} {mac} {n}", d)
        self.D(t2 + secs(rng.uniform(0.6, 1.1)), f"sent /srv/tftp/ipxe.efi to {ip}", "dnsmasq-tftp")
        t3 = t2 + secs(rng.uniform(3.2, 5.4))
        self.D(t3, f"DHCPDISCOVER(eth1) {mac}", d)
        self.D(t3 + secs(0.0004), f"DHCPOFFER(eth1) {ip} {mac}", d)
        t4 = t3 + secs(rng.uniform(1.0, 1.2))
        self.D(t4, f"DHCPREQUEST(eth1) {ip} {mac}", d)
        self.D(t4 + secs(0.0004), f"DHCPACK(eth1) {ip} {mac} {n}", d)
        self.D(os_ack - secs(0.0004), f"DHCPREQUEST(eth1) {ip} {mac}", d)
        self.D(os_ack, f"DHCPACK(eth1) {ip} {mac} {n}", d)

    def _answer_ext(self, t, name, qtype, upstream=None, drop=0.0, nx=None):
        """Forwards (or answers from the cache) one external query; returns the upstream used (None: cache)."""
        rng = self.rng
        key = (name, qtype)
        c = self.cache.get(key)
        if c and c[0] > t:
            for k, (n, a) in enumerate(c[1]):
                self.D(t + secs(0.0002 + 0.00001 * k), f"cached {n} is {a}")
            return None
        up = upstream or (UPSTREAM[0] if rng.random() < 0.93 else UPSTREAM[1])
        self.D(t + secs(0.0001), f"forwarded {name} to {up}")
        if rng.random() < drop:
            return up
        rt = t + secs(rng.uniform(0.004, 0.09))
        cname = None
        if nx is None:
            ans = self.ext.get(name)
            if ans is None:
                answers, ttl = ["NXDOMAIN"], 60
            else:
                answers, ttl, cname = (ans[0] if qtype == "A" else ans[1]), ans[2], ans[3]
                if not answers:
                    answers, cname = ["NODATA-IPv6"], None
        else:
            answers, ttl = nx
        pairs = ([(name, "<CNAME>")] if cname else []) + [(cname or name, a) for a in answers]
        for k, (n, a) in enumerate(pairs):
            self.D(rt + secs(0.00002 * (k + 1)), f"reply {n} is {a}")
        self.cache[key] = (rt + secs(ttl), pairs)
        return up

    def _client_query(self, t, ip, kind):
        rng = self.rng
        D = self.D
        if isinstance(kind, tuple):
            name = f"{kind[1]}.{DOMAIN}"
            D(t, f"query[A] {name} from {ip}")
            D(t + secs(0.0001), f"/etc/hosts {name} is {HOSTS[kind[1]]}")
            return
        if kind == "stor":
            n = rng.choice(ALL_NODES)
            octs = node_ip(n).split(".")
            rev = ".".join(reversed(octs)) + ".in-addr.arpa"
            D(t, f"query[PTR] {rev} from {ip}")
            D(t + secs(0.0001), f"DHCP {node_ip(n)} is {n}.{DOMAIN}")
            return
        x = rng.random()
        local_share = {"compute": 0.62, "gpu": 0.25, "login": 0.45}[kind]
        if x < local_share:
            if rng.random() < 0.08:
                bad = rng.choice(["stor07", "wpad", "lic02", "cn097", "ridge-head01", "slurmdbd", "stor00"])
                name = f"{bad}.{DOMAIN}"
                D(t, f"query[A] {name} from {ip}")
                D(t + secs(0.0001), f"config {name} is NXDOMAIN")
                return
            if kind == "login" and rng.random() < 0.4:
                n = rng.choice(ALL_NODES)
                name = f"{n}.{DOMAIN}"
                D(t, f"query[A] {name} from {ip}")
                D(t + secs(0.0001), f"DHCP {name} is {node_ip(n)}")
                return
            h = rng.choice(["ridge-head", "stor01", "stor02", "stor03", "stor04", "stor05", "stor06", "lic01", "lic01"])
            name = f"{h}.{DOMAIN}"
            D(t, f"query[A] {name} from {ip}")
            D(t + secs(0.0001), f"/etc/hosts {name} is {HOSTS[h]}")
            if rng.random() < 0.3:
                D(t + secs(0.0003), f"query[AAAA] {name} from {ip}")
                D(t + secs(0.0004), f"config {name} is NODATA-IPv6")
            return
        pool = {"compute": EXT_COMPUTE, "gpu": EXT_GPU, "login": EXT_LOGIN}[kind]
        name = rng.choice(pool)
        D(t, f"query[A] {name} from {ip}")
        self._answer_ext(t, name, "A")
        if rng.random() < 0.55:
            t2 = t + secs(0.0008)
            D(t2, f"query[AAAA] {name} from {ip}")
            self._answer_ext(t2, name, "AAAA")

    def _flood(self, s):
        rng = self.rng
        ip = node_ip(s["node"])
        a, b = s["flood"]
        t = a
        words = FLOOD_WORDS
        tlds = ["com", "com", "com", "net", "org", "io", "de", "co.uk", "info", "shop"]
        recent = []
        while t < b:
            if recent and rng.random() < 0.06:
                name = rng.choice(recent[-200:])
            else:
                sep = rng.choice(["", "", "", "-"])
                num = str(rng.randint(1, 99)) if rng.random() < 0.2 else ""
                name = f"{rng.choice(words)}{sep}{rng.choice(words)}{num}.{rng.choice(tlds)}"
                recent.append(name)
            self.flood_names.append(name)
            self.D(t, f"query[A] {name} from {ip}")
            exists = (zlib_hash(name) % 100) < 58
            nx = ([f"{(zlib_hash(name) >> 8) % 200 + 23}.{(zlib_hash(name) >> 16) % 250 + 1}.{zlib_hash(name) % 250 + 3}.{(zlib_hash(name) >> 4) % 250 + 2}"], 300) \
                if exists else (["NXDOMAIN"], 900)
            up = UPSTREAM[0] if rng.random() < 0.7 else UPSTREAM[1]
            self._answer_ext(t, name, "A", upstream=up, drop=0.35, nx=nx)
            t += secs(rng.expovariate(6.2))
        # the resolver's table fills: warned at most once every 5 s
        t = s["burst"][0]
        while t <= s["burst"][1]:
            self.D(t + secs(0.5), "Maximum number of concurrent DNS queries reached (max: 150)")
            t += secs(rng.choice([6, 6, 7, 7, 8, 9]))

    def _tune_share(self):
        """The share of AAAA queries off its rounding edge: a few more login-node AAAA lookups late on."""
        rng = self.rng
        while True:
            q = [m for _, _, i, m in self.dn if m.startswith("query[")]
            p = 100 * sum(1 for m in q if m.startswith("query[AAAA]")) / len(q)
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            t = T(3, 45) + secs(rng.uniform(0, 600))
            name = f"ridge-head.{DOMAIN}"
            self.D(t, f"query[AAAA] {name} from {LOGIN['login02']}")
            self.D(t + secs(0.0001), f"config {name} is NODATA-IPv6")


def zlib_hash(s):
    """A stable hash (not Python's, which PYTHONHASHSEED changes)."""
    h = 2166136261
    for ch in s.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


def fmt_bytes(v):
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    i = 0
    while v >= 1024 and i < len(units) - 1:
        v /= 1024
        i += 1
    s = f"{v:.1f}" if v < 9.95 and i else f"{int(round(v))}"
    return f"{s} {units[i]}"


def fmt_ops(v):
    if v < 1000:
        return f"{int(v)}"
    if v < 9950:
        return f"{v / 1000:.1f}k"
    return f"{int(round(v / 1000))}k"


FLOOD_WORDS = ["blue", "river", "stone", "maple", "north", "cedar", "pixel", "harbor", "orbit", "lumen", "vertex", "nova",
               "amber", "delta", "ember", "fjord", "glade", "haven", "iris", "jade", "kite", "lotus", "mesa", "nimbus", "onyx",
               "prism", "quartz", "ridge", "sable", "tundra", "umber", "vale", "willow", "yonder", "zephyr", "atlas", "birch",
               "coral", "dune", "echo", "fable", "garnet", "hollow", "inlet", "juniper", "karst", "lark", "moss", "nectar",
               "opal", "pine", "quill", "rune", "sage", "thistle", "unity", "velvet", "wren", "yarrow", "zinc", "shop", "deals",
               "market", "news", "daily", "store", "hub", "labs", "works", "media"]


def _ext_names():
    """External names: (A answers, AAAA answers, ttl, CNAME target or None)."""
    return {
        "pypi.org": (["151.101.0.223", "151.101.64.223", "151.101.128.223", "151.101.192.223"],
                     ["2a04:4e42::223", "2a04:4e42:200::223"], 300, None),
        "files.pythonhosted.org": (["151.101.1.63", "151.101.65.63"], ["2a04:4e42::319"], 300, "dualstack.python.map.fastly.net"),
        "github.com": (["140.82.121.4"], [], 60, None),
        "api.github.com": (["140.82.121.6"], [], 60, None),
        "objects.githubusercontent.com": (["185.199.108.133", "185.199.109.133", "185.199.110.133"],
                                          ["2606:50c0:8000::154", "2606:50c0:8001::154"], 300, None),
        "conda.anaconda.org": (["104.19.144.37", "104.19.145.37"], ["2606:4700::6813:9025", "2606:4700::6813:9125"], 300, None),
        "repo.anaconda.com": (["104.16.131.3", "104.16.130.3"], ["2606:4700::6810:8303"], 300, None),
        "ftp.ncbi.nlm.nih.gov": (["130.14.250.7", "130.14.250.13"], ["2607:f220:41e:250::7"], 120, None),
        "ftp.ebi.ac.uk": (["193.62.193.165"], [], 600, None),
        "registry-1.docker.io": (["54.227.20.253", "54.236.113.205"], [], 60, None),
        "huggingface.co": (["18.239.50.16", "18.239.50.49", "18.239.50.80"], [], 60, None),
        "cdn-lfs.huggingface.co": (["18.155.68.12", "18.155.68.77"], [], 60, "d3u1x5q0b9kx8e.cloudfront.net"),
        "api.wandb.ai": (["35.186.228.49"], [], 300, None),
        "ntp.ubuntu.com": (["185.125.190.56", "91.189.91.157"], ["2620:2d:4000:1::40"], 300, None),
        "security.ubuntu.com": (["91.189.91.81", "185.125.190.82"], ["2620:2d:4000:1::101"], 60, None),
        "download.pytorch.org": (["18.66.102.31"], [], 60, "d3ly7z2v8b1s6t.cloudfront.net"),
        "cran.r-project.org": (["137.208.57.37"], [], 3600, None),
        "bioconductor.org": (["52.20.184.3"], [], 300, None),
    }


EXT_COMPUTE = ["pypi.org", "files.pythonhosted.org", "conda.anaconda.org", "repo.anaconda.com", "github.com",
               "objects.githubusercontent.com", "ftp.ncbi.nlm.nih.gov", "ftp.ebi.ac.uk", "ntp.ubuntu.com",
               "cran.r-project.org", "bioconductor.org", "api.github.com"]
EXT_GPU = ["huggingface.co", "cdn-lfs.huggingface.co", "api.wandb.ai", "pypi.org", "files.pythonhosted.org",
           "download.pytorch.org", "registry-1.docker.io", "github.com"]
EXT_LOGIN = ["github.com", "api.github.com", "pypi.org", "security.ubuntu.com", "conda.anaconda.org",
             "objects.githubusercontent.com", "registry-1.docker.io", "ntp.ubuntu.com", "cran.r-project.org"]


# ------------------------------------------------------------ rendering

def slurm_log(night):
    out = []
    for t, _, msg in sorted(night.sl, key=lambda e: (e[0], e[1])):
        if not (START <= t < END):
            continue
        out.append(f"[{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}] {msg}")
    return "\n".join(out) + "\n"


def ceph_log(night):
    rng = random.Random(7)
    seqs = {}
    out = []
    for t, _, ent, ch, lvl, msg in sorted(night.ce, key=lambda e: (e[0], e[1])):
        if not (START <= t < END):
            continue
        if ent not in seqs:
            seqs[ent] = rng.randint(200, 90000)
        seqs[ent] += 1
        rank = night.ent_rank.get(ent, ent)
        out.append(f"{t:%Y-%m-%dT%H:%M:%S.%f}+0000 {ent} ({rank}) {seqs[ent]} : {ch} [{lvl}] {msg}")
    return "\n".join(out) + "\n"


def dns_log(night):
    out = []
    for t, _, ident, msg in sorted(night.dn, key=lambda e: (e[0], e[1])):
        if not (START <= t < END):
            continue
        out.append(f"{t:%b} {t.day:2d} {t:%H:%M:%S} {ident}[1187]: {msg}")
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {SLURM: slurm_log(night), CEPH: ceph_log(night), DNS: dns_log(night)}, night
