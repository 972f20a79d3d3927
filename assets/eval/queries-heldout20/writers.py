"""Writes the `queries-heldout20` fixtures: one night (2036-05-22, 00:00-04:00 UTC) at Tallowmere
Freight, a freight-booking platform on Kubernetes. Three logs, written from one shared plan so that
the files agree with each other:

- `squid-access.log`: the egress proxy `egress-proxy-1` (Squid 6) in Squid's native access.log
  format, `%ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm %ru %[un %Sh/%<a %mt`
  (`1779412345.678    312 10.244.7.44 TCP_TUNNEL/200 6204 CONNECT api.example:443 - HIER_DIRECT/203.0.113.40 -`),
  one line per request, written when it ends; every pod and node leaves the cluster through it;
- `kubelet.log`: the kubelet of the worker node `k8s-wk-07`, klog text
  (`I0522 01:15:02.118204    1187 kubelet.go:2421] "SyncLoop ADD" source="api" pods=["booking/x"]`),
  structured `"msg" key=value` pairs, under klog's four-line file header;
- `vault_audit.log`: the file audit device of HashiCorp Vault `vault-0`, one JSON object a line, a
  `request` entry for every request and a `response` entry for every one that was allowed; strings
  in `auth`, request data and response data are HMAC'd (`hmac-sha256:...`).

Standard library only; everything comes from one seeded `random.Random`.
"""

import json
import math
import random
from datetime import datetime, timedelta

DAY = datetime(2036, 5, 22)
EPOCH = datetime(1970, 1, 1)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def ms(x):
    return timedelta(milliseconds=x)


def secs(x):
    return timedelta(seconds=x)


START, END = T(0, 0), T(4, 0)

NODE, NODE_IP, KPID = "k8s-wk-07", "10.40.3.21", 1187
KUBELET_BOOT = datetime(2036, 5, 19, 8, 14, 3, 204118)
OTHER_NODES = ["10.40.3.11", "10.40.3.12", "10.40.3.13", "10.40.3.14", "10.40.3.15", "10.40.3.16", "10.40.3.22"]
BIG_NODE = "10.40.3.14"                     # pulls the ml-scorer image at 00:50
DANA_IP = "10.40.8.15"                      # the on-call platform engineer, on the VPN
NOTEBOOK_IP = "10.244.4.31"                 # analytics-notebook-0: tries sites the proxy denies
PROM_IP = "10.244.6.15"
ESO_IP = "10.244.2.40"
ALERT_IP = "10.244.1.18"
GRAFANA_IP = "10.244.6.22"
CERT_IP = "10.244.1.27"
RESTORE_IP = "10.244.6.77"                  # db-restore-test: the night's biggest download

NORTHWIND = "api.northwind-carriers.com"
NORTHWIND_IP = "198.51.100.24"
BLUEFIN = "rates.bluefin-shipping.net"
PKG = "pkg-containers.githubusercontent.com"

# --- the night's planted events
POLICY_READ = T(1, 12, 11, 402118)
POLICY_BAD = T(1, 12, 40, 118234)           # dana rewrites the quote-api policy: database/creds/quote-ro is gone
DANA_LOGIN = T(1, 11, 52, 730412)
ROLLOUT = T(1, 15, 2, 118407)               # quote-api and quote-worker 2.31.0: new pods on k8s-wk-07
POLICY_READ2 = T(1, 37, 49, 611204)
POLICY_FIX = T(1, 38, 20, 540377)           # dana puts the path back
CARRIER_A = T(2, 5, 31, 200417)             # northwind's API slows down
FIRST_PROBE = T(2, 6, 3, 412318)            # quote-api readiness (it checks the carrier) starts timing out
FIRST_503 = T(2, 11, 42, 318000)            # northwind refuses connections
LAST_503 = T(2, 22, 7, 904000)
CARRIER_B = T(2, 26, 50, 0)
LAST_PROBE = T(2, 26, 43, 77291)
REPORT_AT = T(2, 30, 0, 0)                  # report-builder (cron) pulls its image and leaks memory
EVICT = T(2, 48, 13, 402613)
FULL_SYNC = T(3, 0, 3, 0)                   # rate-sync's nightly full sync
INGEST_ADD = T(3, 5, 11, 612447)            # tracking-ingest 4.2.0: a 1.8 GB image through the proxy
LABELS = T(3, 20, 4, 310582)                # label-render: a Job of 12 pods at once
RESTORE_AT = T(3, 30, 12, 0)                # db-restore-test downloads last night's dump

# every standard HTTP status: no figure an answer must hold reads like one
STATUS_LIKE = ({100, 101, 102, 103, 226, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 510, 511}
               | set(range(200, 209)) | set(range(300, 309)) | set(range(400, 419)) | set(range(500, 509)))

K8S_ALNUM = "bcdfghjklmnpqrstvwxz2456789"


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _epoch(t):
    return (t - EPOCH).total_seconds()


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _uuid(rng):
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def _sfx(rng, n=5):
    return "".join(rng.choice(K8S_ALNUM) for _ in range(n))


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _minute(t):
    return t.replace(second=0, microsecond=0)


def _ms_floor(t):
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


def _ns(td):
    return int(round(td.total_seconds() * 1e9))


class Pod:
    def __init__(self, rng, ns, name, ip, add, kind, vols=(), pull=None, runtime=None, vault=None):
        self.ns, self.name, self.ip, self.add, self.kind = ns, name, ip, add, kind
        self.uid = _uuid(rng)
        self.sa_uid = _uuid(rng)
        self.vols = ["kube-api-access-" + _sfx(rng)] + list(vols)
        self.pull = pull            # seconds the image pull takes, or None (cached)
        self.runtime = runtime      # seconds the container runs (a job), or None (a server)
        self.vault = vault          # what it asks vault at start
        # metav1.Time: whole seconds (a pod created before tonight has none here)
        self.created = (add - ms(rng.uniform(40, 400))).replace(microsecond=0) if add else None
        self.sandbox = _hex(rng, 64)
        self.cids = [_hex(rng, 64)]

    @property
    def ref(self):
        return f"{self.ns}/{self.name}"


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.kl = []        # kubelet lines: (t, seq, line)
        self.kseq = 0
        self.sq = []        # squid requests
        self.va = []        # vault requests (each becomes one or two entries)
        self.ip7 = 60       # k8s-wk-07's next pod address for new pods
        self.ip4 = 100
        self.ip3 = 120
        self._plan_pods()
        self._plateau_pods()
        self._kubelet()
        self._vault()
        self._squid()
        self._tune_share()

    # ------------------------------------------------------------ pods on k8s-wk-07
    def _new_ip7(self):
        self.ip7 += 1
        return f"10.244.7.{self.ip7}"

    def _plan_pods(self):
        rng = self.rng
        P = self.pods = []
        # rate-sync (every 5 min) and stale-quote-cleanup (every 15 min): CronJobs pinned to this node
        for m in range(0, 240, 5):
            at = START + timedelta(minutes=m)
            full = at == _minute(FULL_SYNC)
            name = f"rate-sync-{int(_epoch(at)) // 60}-{_sfx(rng)}"
            p = Pod(rng, "booking", name, None, at + ms(rng.uniform(110, 480)), "rate-sync", vols=["rate-sync-config"],
                    runtime=rng.uniform(52, 58) if full else rng.uniform(18, 44), vault="rate-sync")
            p.full = full
            P.append(p)
        for m in range(1, 240, 15):
            at = START + timedelta(minutes=m)
            name = f"stale-quote-cleanup-{int(_epoch(at)) // 60}-{_sfx(rng)}"
            P.append(Pod(rng, "booking", name, None, at + ms(rng.uniform(110, 480)), "cleanup",
                         vols=["cleanup-db"], runtime=rng.uniform(6, 15), pull=4.612 if m == 16 else None))
        # the release at 01:15: one new pod of each, both on this node (maxSurge 1)
        self.qa1 = Pod(rng, "booking", "quote-api-6d8f7c9b54-7xk2p", "10.244.7.44", ROLLOUT, "quote-api",
                       vols=["quote-api-config"], vault="crash")
        self.qw1 = Pod(rng, "booking", "quote-worker-5b7d9f8c6-k4m2z", "10.244.7.45", ROLLOUT + ms(371), "quote-worker",
                       vols=["quote-worker-config"], vault="crash")
        P += [self.qa1, self.qw1]
        self.report = Pod(rng, "reports", f"report-builder-{int(_epoch(REPORT_AT)) // 60}-{_sfx(rng)}", None,
                          REPORT_AT + ms(208), "report", vols=["report-scratch"], pull=21.318, vault="report")
        P.append(self.report)
        self.ingest = Pod(rng, "logistics", "tracking-ingest-7c8d9e6f5-9hj2q", "10.244.7.46", INGEST_ADD, "ingest",
                          vols=["ingest-certs", "ingest-config"], pull=118.606, vault="ingest")
        P.append(self.ingest)
        job = _sfx(rng)
        for i in range(12):
            P.append(Pod(rng, "booking", f"label-render-{job}-{_sfx(rng)}", None, LABELS + ms(rng.uniform(0, 700)),
                         "label", vols=["label-templates", "label-out"], runtime=rng.uniform(95, 150)))
        # the second new quote-api pod lands here once the first is ready (set after the crash loop)
        self.qa2 = Pod(rng, "booking", "quote-api-6d8f7c9b54-m8r4t", "10.244.7.51", ROLLOUT, "quote-api",
                       vols=["quote-api-config"], vault="quote")
        P.append(self.qa2)
        P.sort(key=lambda p: p.add)
        for p in P:
            if p.ip is None:
                p.ip = self._new_ip7()
        # start-up durations (seconds): SLO (without the pull) and end to end
        for p in P:
            base = {"rate-sync": (1.9, 0.22), "cleanup": (1.7, 0.2), "label": (3.6, 0.25)}.get(p.kind, (2.3, 0.2))
            p.slo = round(_lognorm(rng, *base), 9)
            p.slo = min(p.slo, 3.1) if p.kind in ("rate-sync", "cleanup") else p.slo
            # the container starts at least a second after the kubelet sees the pod
            p.slo = round(max(p.slo, (p.add - p.created).total_seconds() + 1.0 + rng.uniform(0, 0.2)), 9)
        self.qa2.slo = round(max(self.qa2.slo, 2.4 + rng.uniform(0, 0.2)), 9)
        self.qa2.add = None  # set once the first new pod is ready

    def _plateau(self, rows, get, put, p, fix, pad=3):
        """Sets the values around every definition's rank of the p-th percentile to one value (the
        window's top, nudged by `fix`), so that all definitions agree. Only raises values."""
        rows = sorted(rows, key=get)
        n = len(rows)
        x = p / 100
        ranks = [math.ceil(x * n) - 1, int((n - 1) * x), int((n - 1) * x) + 1, int((n + 1) * x - 1),
                 int((n + 1) * x - 1) + 1, int(x * n)]
        lo, hi = max(0, min(ranks) - pad), min(n - 1, max(ranks) + pad)
        v = fix(get(rows[hi]))
        for r in rows[lo:]:
            if get(r) < v:
                put(r, v)
        return v, rows[lo:hi + 1]

    def _plateau_pods(self):
        rng = self.rng
        P = list(self.pods)

        def fix(x):
            v = math.floor(x * 100) / 100 + 0.01
            return round(v + 0.0012 + rng.randint(0, 2800) / 1e6 + rng.randint(1, 999) / 1e9, 9)

        for p in P:
            p.e2e = round(p.slo + (p.pull or 0), 9)

        def put_e2e(p, v):
            p.e2e = v
            p.slo = round(v - (p.pull or 0), 9)

        def put_slo(p, v):
            p.slo = v
            p.e2e = round(v + (p.pull or 0), 9)

        self.e2e_p50, reg = self._plateau(P, lambda p: p.e2e, put_e2e, 50, fix)
        assert all(p.pull is None for p in reg)
        self.slo_p95, reg = self._plateau(P, lambda p: p.slo, put_slo, 95, fix)
        assert min(p.e2e for p in reg) > self.e2e_p50
        ing = self.ingest   # its start-up, the night's longest, read to 2 decimals: truncated = rounded
        while not 0.12 < (ing.e2e * 100) % 1 < 0.38:
            ing.pull = round(ing.pull + 0.001, 3)
            ing.e2e = round(ing.slo + ing.pull, 9)
        for p in P:
            if p.add is not None:
                p.run = p.created + timedelta(seconds=p.e2e)     # watchObservedRunningTime
                assert p.run > p.add + ms(900) + timedelta(seconds=p.pull or 0), (p.name, p.run, p.add)

    # ------------------------------------------------------------ kubelet.log
    def K(self, t, level, src, msg, **kv):
        self.kseq += 1
        parts = [json.dumps(msg)]
        for k, v in kv.items():
            if isinstance(v, Raw):
                parts.append(f"{k}={v.s}")
            elif isinstance(v, str):
                parts.append(f"{k}={json.dumps(v)}")
            elif isinstance(v, (list, dict)):
                parts.append(f"{k}={json.dumps(v, separators=(',', ':'))}")
            else:
                parts.append(f"{k}={v}")
        line = f"{level}{t:%m%d %H:%M:%S}.{t.microsecond:06d} {KPID:7d} {src}] " + " ".join(parts)
        self.kl.append((t, self.kseq, line))

    def _vol_unique(self, p, v):
        if v.startswith("kube-api-access"):
            return f"kubernetes.io/projected/{p.uid}-{v}"
        if v.endswith("config") or v.endswith("templates"):
            return f"kubernetes.io/configmap/{p.uid}-{v}"
        if v in ("report-scratch", "label-out"):
            return f"kubernetes.io/empty-dir/{p.uid}-{v}"
        return f"kubernetes.io/secret/{p.uid}-{v}"

    def _start(self, p):
        """ADD, volumes, sandbox, container started, the startup latency line."""
        rng = self.rng
        K = self.K
        t = p.add
        K(t, "I", "kubelet.go:2421", "SyncLoop ADD", source="api", pods=[p.ref])
        t += ms(rng.uniform(2, 9))
        for v in p.vols:
            K(t, "I", "reconciler_common.go:245",
              f"operationExecutor.VerifyControllerAttachedVolume started for volume \"{v}\" (UniqueName: "
              f"\"{self._vol_unique(p, v)}\") pod \"{p.name}\" (UID: \"{p.uid}\") ", pod=p.ref)
            t += ms(rng.uniform(0.2, 3))
        t += ms(rng.uniform(80, 120))
        for v in p.vols:
            K(t, "I", "reconciler_common.go:218",
              f"operationExecutor.MountVolume started for volume \"{v}\" (UniqueName: \"{self._vol_unique(p, v)}\") "
              f"pod \"{p.name}\" (UID: \"{p.uid}\") ", pod=p.ref)
            t += ms(rng.uniform(0.3, 2))
        for v in p.vols:
            t += ms(rng.uniform(5, 90))
            K(t, "I", "operation_generator.go:637",
              f"MountVolume.SetUp succeeded for volume \"{v}\" (UniqueName: \"{self._vol_unique(p, v)}\") "
              f"pod \"{p.name}\" (UID: \"{p.uid}\") ", pod=p.ref)
        t += ms(rng.uniform(20, 60))
        K(t, "I", "util.go:30", "No sandbox for pod can be found. Need to start a new one", pod=p.ref)
        sb = t + ms(rng.uniform(500, 700))
        K(sb, "I", "kubelet.go:2472", "SyncLoop (PLEG): event for pod", pod=p.ref,
          event={"ID": p.uid, "Type": "ContainerStarted", "Data": p.sandbox})
        if p.pull:
            p.pull_a = sb + ms(rng.uniform(30, 90))
            p.pull_b = p.pull_a + timedelta(seconds=p.pull)
        # the container runs from here; the startup tracker sees it at p.run
        p.cstart = p.run - ms(rng.uniform(4, 30))
        assert p.cstart > sb + ms(50), p.name
        obs = p.run - ms(rng.uniform(0.5, 3))
        K(p.cstart + ms(rng.uniform(0.5, 2)), "I", "kubelet.go:2472", "SyncLoop (PLEG): event for pod", pod=p.ref,
          event={"ID": p.uid, "Type": "ContainerStarted", "Data": p.cids[0]})
        zero = "0001-01-01 00:00:00 +0000 UTC"
        K(p.run + ms(rng.uniform(0.2, 1.5)), "I", "pod_startup_latency_tracker.go:104", "Observed pod startup duration",
          pod=p.ref, podStartSLOduration=Raw(_gofloat(p.slo)), podStartE2EDuration=_godur(p.e2e),
          podCreationTimestamp=f"{p.created:%Y-%m-%d %H:%M:%S} +0000 UTC",
          firstStartedPulling=_gotime(p.pull_a) if p.pull else zero,
          lastFinishedPulling=_gotime(p.pull_b) if p.pull else zero,
          observedRunningTime=_gotime(obs), watchObservedRunningTime=_gotime(p.run))
        if rng.random() < 0.12:
            self.K(p.run + ms(rng.uniform(2000, 9000)), "E", "cadvisor_stats_provider.go:501",
                   "Partial failure issuing cadvisor.ContainerInfoV2",
                   err=f"partial failures: [\"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod"
                       f"{p.uid.replace('-', '_')}.slice/cri-containerd-{p.cids[0]}.scope\": RecentStats: unable to find "
                       f"data in memory cache]")

    def _died(self, p, t, cid):
        self.K(t, "I", "kubelet.go:2472", "SyncLoop (PLEG): event for pod", pod=p.ref,
               event={"ID": p.uid, "Type": "ContainerDied", "Data": cid})

    def _finish_job(self, p, t_end):
        """A job's container exits 0, then the sandbox; the pod is deleted later."""
        rng = self.rng
        self._died(p, t_end + ms(rng.uniform(300, 1000)), p.cids[0])
        self._died(p, t_end + ms(rng.uniform(1200, 2100)), p.sandbox)
        p.done = t_end

    def _delete(self, p, t, kill=None):
        rng = self.rng
        K = self.K
        K(t, "I", "kubelet.go:2437", "SyncLoop DELETE", source="api", pods=[p.ref])
        if kill is not None:
            K(t + ms(rng.uniform(0.3, 2)), "I", "kuberuntime_container.go:779", "Killing container with a grace period",
              pod=p.ref, podUID=p.uid, containerName=p.kind, containerID=f"containerd://{p.cids[-1]}", gracePeriod=kill)
            end = t + ms(rng.uniform(1800, 4000))
            self._died(p, end, p.cids[-1])
            self._died(p, end + ms(rng.uniform(40, 300)), p.sandbox)
            t = end + ms(rng.uniform(300, 900))
        t += ms(rng.uniform(20, 90))
        for v in p.vols:
            K(t, "I", "reconciler_common.go:159",
              f"operationExecutor.UnmountVolume started for volume \"{v}\" (UniqueName: \"{self._vol_unique(p, v)}\") "
              f"pod \"{p.uid}\" (UID: \"{p.uid}\") ")
            t += ms(rng.uniform(1, 8))
        for v in p.vols:
            t += ms(rng.uniform(4, 30))
            K(t, "I", "operation_generator.go:803",
              f"UnmountVolume.TearDown succeeded for volume \"{self._vol_unique(p, v)}\" (OuterVolumeSpecName: \"{v}\") "
              f"pod \"{p.uid}\" (UID: \"{p.uid}\"). InnerVolumeSpecName \"{v}\". PluginName "
              f"\"kubernetes.io/{self._vol_unique(p, v).split('/')[1]}\", VolumeGidValue \"\"")
        t += ms(rng.uniform(60, 120))
        for v in p.vols:
            K(t, "I", "reconciler_common.go:288",
              f"Volume detached for volume \"{v}\" (UniqueName: \"{self._vol_unique(p, v)}\") on node \"{NODE}\" "
              "DevicePath \"\"")
            t += ms(rng.uniform(0.5, 3))
        t += ms(rng.uniform(300, 900))
        K(t, "I", "kubelet.go:2431", "SyncLoop REMOVE", source="api", pods=[p.ref])
        for cid in [p.sandbox] + p.cids:
            t += ms(rng.uniform(5, 40))
            K(t, "I", "scope.go:117", "RemoveContainer", containerID=cid)
            if cid != p.sandbox and rng.random() < 0.3:
                t += ms(rng.uniform(1, 4))
                K(t, "E", "remote_runtime.go:432", "ContainerStatus from runtime service failed",
                  err=f"rpc error: code = NotFound desc = an error occurred when try to find container \"{cid}\": not found",
                  containerID=cid)
                K(t + ms(0.2), "I", "pod_container_deletor.go:53", "DeleteContainer returned error",
                  containerID={"Type": "containerd", "ID": cid},
                  err=f"failed to get container status \"{cid}\": rpc error: code = NotFound desc = an error occurred "
                      f"when try to find container \"{cid}\": not found")
        t += ms(rng.uniform(1500, 2500))
        K(t, "I", "kubelet_volumes.go:163", "Cleaned up orphaned pod volumes dir", podUID=p.uid,
          path=f"/var/lib/kubelet/pods/{p.uid}/volumes")

    def _crashloop(self, p, retries):
        """The new pods read database/creds/quote-ro at start; while the policy lacks it every read is
        denied, the app exits after `retries` reads and the kubelet backs off (10 s doubling to 5 min)."""
        rng = self.rng
        p.attempts = []
        t = p.cstart
        k = 0
        while True:
            login = t + ms(rng.uniform(420, 640))
            reads = [login + ms(rng.uniform(60, 110)) + ms(800 + rng.uniform(0, 40)) * i for i in range(retries)]
            if reads[0] >= POLICY_FIX:
                p.attempts.append({"start": t, "login": login, "reads": reads[:1], "ok": True})
                p.ready = t + ms(rng.uniform(5400, 6600))
                return
            assert reads[-1] < POLICY_BAD + timedelta(minutes=30) and reads[-1] < POLICY_FIX
            exit_ = reads[-1] + ms(rng.uniform(300, 500))
            died = exit_ + ms(rng.uniform(400, 1000))
            back = min(10 * 2 ** k, 300)
            restart = died + secs(back) + ms(rng.uniform(300, 1900))
            p.attempts.append({"start": t, "login": login, "reads": reads, "ok": False, "died": died, "back": back,
                               "restart": restart})
            t = restart
            k += 1
            p.cids.append(_hex(rng, 64))

    def _kubelet(self):
        rng = self.rng
        K = self.K
        P = [p for p in self.pods if p.add is not None]
        for p in P:
            self._start(p)
        # jobs finish; cronjob pods are deleted 15-20 minutes later (the job's history)
        for p in P:
            if p.runtime:
                self._finish_job(p, p.run + secs(p.runtime))
                gone = p.done + timedelta(minutes=rng.uniform(15, 20))
                if gone < END:
                    self._delete(p, gone)
        # the crash loop
        self._crashloop(self.qa1, 5)
        self._crashloop(self.qw1, 3)
        for p in (self.qa1, self.qw1):
            for i, a in enumerate(p.attempts):
                if i:
                    K(a["start"] + ms(rng.uniform(0.5, 2)), "I", "kubelet.go:2472", "SyncLoop (PLEG): event for pod",
                      pod=p.ref, event={"ID": p.uid, "Type": "ContainerStarted", "Data": p.cids[i]})
                if a["ok"]:
                    K(p.ready, "I", "kubelet.go:2540", "SyncLoop (probe)", probe="readiness", status="ready", pod=p.ref)
                    continue
                self._died(p, a["died"], p.cids[i])
                t = a["died"] + ms(rng.uniform(3, 12))
                while t < a["restart"] - ms(200):
                    K(t, "E", "pod_workers.go:1301", "Error syncing pod, skipping",
                      err=f"failed to \"StartContainer\" for \"{p.kind}\" with CrashLoopBackOff: \"back-off "
                          f"{_backoff(a['back'])} restarting failed container={p.kind} pod={p.name}_{p.ns}({p.uid})\"",
                      pod=p.ref, podUID=p.uid)
                    t += ms(rng.uniform(10000, 12600))
        # once the first new quote-api pod is ready: the old one here goes, the next new one comes
        old = Pod(rng, "booking", "quote-api-58c9d7f6b-q9v2l", "10.244.7.12", None, "quote-api", vols=["quote-api-config"])
        self._delete(old, self.qa1.ready + ms(rng.uniform(900, 1600)), kill=30)
        self.qa2.add = self.qa1.ready + ms(rng.uniform(700, 1200))
        self.qa2.created = (self.qa2.add - ms(300)).replace(microsecond=0)
        self.qa2.run = self.qa2.created + timedelta(seconds=self.qa2.e2e)
        assert self.qa2.run > self.qa2.add + ms(900)
        self._start(self.qa2)
        self.qa2.ready = self.qa2.run + ms(rng.uniform(5400, 6600))
        K(self.qa2.ready, "I", "kubelet.go:2540", "SyncLoop (probe)", probe="readiness", status="ready", pod=self.qa2.ref)
        self.pods.sort(key=lambda p: p.add)
        # readiness of the two new quote-api pods here: it checks the carrier, which fails 02:05-02:27
        self.probe_fail = []
        for p, planted in ((self.qa1, FIRST_PROBE), (self.qa2, LAST_PROBE)):
            k0 = -int((planted - p.ready).total_seconds() // 10) + 1
            streak, ready = 0, True
            for k in range(k0, 10 ** 4):
                t = planted + secs(10 * k) + (timedelta(microseconds=rng.randint(-900, 900)) if k else timedelta(0))
                if t >= END:
                    break
                fail = FIRST_PROBE <= t <= LAST_PROBE and (k == 0 or rng.random() < 0.8)
                if fail:
                    out = (f"Get \"http://{p.ip}:8080/readyz\": context deadline exceeded (Client.Timeout exceeded while "
                           "awaiting headers)") if not (FIRST_503 <= t < LAST_503 + secs(20)) or rng.random() < 0.4 \
                        else "HTTP probe failed with statuscode: 503"
                    K(t, "I", "prober.go:107", "Probe failed", probeType="Readiness", pod=p.ref, podUID=p.uid,
                      containerName="quote-api", probeResult="failure", output=out)
                    self.probe_fail.append((t, p.name))
                    streak += 1
                    if streak == 3 and ready:
                        ready = False
                        K(t + ms(rng.uniform(1, 4)), "I", "kubelet.go:2540", "SyncLoop (probe)", probe="readiness",
                          status="", pod=p.ref)
                else:
                    streak = 0
                    if not ready:
                        ready = True
                        K(t + ms(rng.uniform(1, 4)), "I", "kubelet.go:2540", "SyncLoop (probe)", probe="readiness",
                          status="ready", pod=p.ref)
            assert ready
        # geo-cache-0 (liveness every 5 s) fails a probe now and then, never three in a row
        geo_uid = _uuid(rng)
        last = START
        for t in _poisson(rng, START + secs(40), T(3, 56), 0.78):
            if t - last < secs(11) or T(2, 0) <= t < T(2, 5) or T(2, 30) <= t < T(2, 35):
                continue
            last = t
            K(t, "I", "prober.go:107", "Probe failed", probeType="Liveness", pod="cache/geo-cache-0", podUID=geo_uid,
              containerName="geo-cache", probeResult="failure",
              output="Get \"http://10.244.7.9:9090/healthz\": context deadline exceeded (Client.Timeout exceeded "
                     "while awaiting headers)")
            self.probe_fail.append((t, "geo-cache-0"))
        # 02:48 report-builder has eaten the node's memory: evicted
        rb = self.report
        ranked = [rb.ref, "cache/geo-cache-0", self.qa2.ref, self.qa1.ref, self.qw1.ref]
        e = EVICT
        K(e - ms(212), "W", "eviction_manager.go:366", "Eviction manager: attempting to reclaim", resourceName="memory")
        K(e - ms(211), "I", "eviction_manager.go:377", "Eviction manager: must evict pod(s) to reclaim",
          resourceName="memory")
        K(e - ms(204), "I", "eviction_manager.go:395", "Eviction manager: pods ranked for eviction", pods=ranked)
        K(e - ms(203), "I", "kuberuntime_container.go:779", "Killing container with a grace period", pod=rb.ref,
          podUID=rb.uid, containerName="report-builder", containerID=f"containerd://{rb.cids[0]}", gracePeriod=0)
        K(e, "I", "eviction_manager.go:616", "Eviction manager: pod is evicted successfully", pod=rb.ref)
        K(e + ms(1.3), "I", "eviction_manager.go:205", "Eviction manager: pods evicted, waiting for pod to be cleaned up",
          pods=[rb.ref])
        self._died(rb, e + ms(rng.uniform(700, 1100)), rb.cids[0])
        self._died(rb, e + ms(rng.uniform(1200, 1500)), rb.sandbox)
        self._delete(rb, e + timedelta(minutes=4, seconds=rng.uniform(0, 30)))
        # the old quote-worker elsewhere, nothing here; a few stray lines of the night
        for t in _poisson(rng, START, END, 0.05):
            K(t, "E", "cadvisor_stats_provider.go:501", "Partial failure issuing cadvisor.ContainerInfoV2",
              err=f"partial failures: [\"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
                  f"{_uuid(rng).replace('-', '_')}.slice\": RecentStats: unable to find data in memory cache]")
        self.kl = [x for x in self.kl if START <= x[0] < END]

    # ------------------------------------------------------------ vault
    def _token(self, display, policies, meta, ip, issued, ttl=3600):
        rng = self.rng
        return {"display_name": display, "policies": policies, "metadata": meta, "entity_id": _uuid(rng),
                "client_token": "hmac-sha256:" + _hex(rng, 64), "accessor": "hmac-sha256:" + _hex(rng, 64),
                "ttl": ttl, "issued": issued, "ip": ip}

    def _k8s_token(self, ns, sa, role, policies, ip, issued):
        meta = {"role": role, "service_account_name": sa, "service_account_namespace": ns,
                "service_account_secret_name": "", "service_account_uid": _uuid(self.rng)}
        return self._token(f"kubernetes-{ns}-{sa}", ["default"] + policies, meta, ip, issued)

    def V(self, t, tok, op, path, ip, denied=False, login=None, data=None, resp=None, took=None):
        rng = self.rng
        r = {"t": t, "tok": tok, "op": op, "path": path, "ip": ip, "denied": denied, "login": login, "data": data,
             "resp": resp, "id": _uuid(rng), "port": rng.randint(32768, 60999),
             "took": took if took is not None else rng.uniform(0.4, 6)}
        self.va.append(r)
        return r

    def _login(self, t, ns, sa, role, policies, ip):
        tok = self._k8s_token(ns, sa, role, policies, ip, t)
        self.V(t, None, "update", "auth/kubernetes/login", ip, login=tok,
               data={"jwt": None, "role": None}, took=self.rng.uniform(8, 22))
        return tok

    def _vault(self):
        rng = self.rng
        V = self.V
        # prometheus scrapes sys/metrics every 2 minutes with a long-lived periodic token
        prom = self._k8s_token("monitoring", "prometheus-k8s", "prometheus", ["metrics-read"], PROM_IP,
                               datetime(2036, 5, 21, 9, 0, 2))
        t = START + secs(47.3)
        while t < END:
            V(t, prom, "read", "sys/metrics", PROM_IP, resp="metrics")
            t += secs(120) + ms(rng.uniform(-40, 40))
        # external-secrets refreshes 8 secrets every 10 minutes and logs in again every hour
        paths = ["kv/data/booking/quote-api/carrier-keys", "kv/data/booking/rate-sync/bluefin",
                 "kv/data/payments/ledger-api/stripe", "kv/data/payments/ledger-api/webhook",
                 "kv/data/logistics/tracking-ingest/mqtt", "kv/data/reports/smtp", "kv/data/platform/slack-webhook",
                 "kv/data/booking/label-render/printer-keys"]
        eso = None
        for m in range(4, 240, 10):
            at = START + timedelta(minutes=m, seconds=rng.uniform(12, 14))
            if eso is None or m % 60 == 4:
                eso = self._login(at - ms(rng.uniform(30, 60)), "external-secrets", "external-secrets",
                                  "external-secrets", ["eso-read"], ESO_IP)
            for i, pth in enumerate(paths):
                V(at + ms(i * rng.uniform(8, 30)), eso, "read", pth, ESO_IP, resp="kv")
        # long-running services: lease renewals and token renewals
        self.renewers = []
        svc = [("booking", "quote-api", "quote-api", ["quote-api"], "10.244.7.12", None),
               ("booking", "quote-api", "quote-api", ["quote-api"], "10.244.2.23", None),
               ("booking", "quote-api", "quote-api", ["quote-api"], "10.244.5.18", None),
               ("booking", "quote-worker", "quote-worker", ["quote-api"], "10.244.4.16", None),
               ("payments", "ledger-api", "ledger-api", ["ledger-api"], "10.244.1.31", None),
               ("payments", "ledger-api", "ledger-api", ["ledger-api"], "10.244.3.14", None),
               ("payments", "ledger-api", "ledger-api", ["ledger-api"], "10.244.6.27", None)]
        for ns, sa, role, pol, ip, _ in svc:
            tok = self._k8s_token(ns, sa, role, pol, ip, T(0, 0) - timedelta(minutes=rng.uniform(5, 50)))
            every = 15 if sa == "ledger-api" else 20
            self._renewals(tok, ip, START + timedelta(minutes=rng.uniform(0, every)), every)
        # the crash loop: each start logs in and reads the creds `retries` times, denied until 01:38:20
        for p, sa in ((self.qa1, "quote-api"), (self.qw1, "quote-worker")):
            for a in p.attempts:
                tok = self._login(a["login"], "booking", sa, sa, ["quote-api"], p.ip)
                for r in a["reads"]:
                    V(r, tok, "read", "database/creds/quote-ro", p.ip, denied=not a["ok"], resp="creds",
                      took=rng.uniform(40, 110))
                if a["ok"]:
                    V(a["reads"][0] + ms(rng.uniform(120, 200)), tok, "read", "kv/data/booking/quote-api/carrier-keys",
                      p.ip, resp="kv")
                    self._renewals(tok, p.ip, a["reads"][0] + timedelta(minutes=20), 20)
        p = self.qa2
        tok = self._login(p.cstart + ms(rng.uniform(420, 640)), "booking", "quote-api", "quote-api", ["quote-api"], p.ip)
        V(tok["issued"] + ms(80), tok, "read", "database/creds/quote-ro", p.ip, resp="creds", took=rng.uniform(40, 110))
        V(tok["issued"] + ms(260), tok, "read", "kv/data/booking/quote-api/carrier-keys", p.ip, resp="kv")
        self._renewals(tok, p.ip, tok["issued"] + timedelta(minutes=20), 20)
        # the third new quote-api pod (k8s-wk-03)
        t3 = self.qa2.ready + secs(rng.uniform(3, 6))
        tok = self._login(t3, "booking", "quote-api", "quote-api", ["quote-api"], "10.244.3.29")
        V(t3 + ms(90), tok, "read", "database/creds/quote-ro", "10.244.3.29", resp="creds", took=rng.uniform(40, 110))
        V(t3 + ms(270), tok, "read", "kv/data/booking/quote-api/carrier-keys", "10.244.3.29", resp="kv")
        self._renewals(tok, "10.244.3.29", t3 + timedelta(minutes=20), 20)
        # old quote-api / quote-worker pods stop renewing when replaced
        self.va = [r for r in self.va if not (r["path"] in ("sys/leases/renew", "auth/token/renew-self")
                                              and ((r["ip"] == "10.244.7.12" and r["t"] > self.qa1.ready)
                                                   or (r["ip"] == "10.244.2.23" and r["t"] > self.qa2.ready)
                                                   or (r["ip"] == "10.244.5.18" and r["t"] > t3 + secs(8))
                                                   or (r["ip"] == "10.244.4.16" and r["t"] > self.qw1.ready)))]
        # cron pods here
        for p in self.pods:
            if p.vault == "rate-sync":
                tok = self._login(p.cstart + ms(rng.uniform(300, 500)), "booking", "rate-sync", "rate-sync", ["rate-sync"],
                                  p.ip)
                V(tok["issued"] + ms(rng.uniform(60, 120)), tok, "read", "kv/data/booking/rate-sync/bluefin", p.ip, resp="kv")
            elif p.vault == "report":
                tok = self._login(p.cstart + ms(rng.uniform(300, 500)), "reports", "report-builder", "report-builder",
                                  ["reports"], p.ip)
                V(tok["issued"] + ms(rng.uniform(60, 120)), tok, "read", "database/creds/reports-ro", p.ip, resp="creds",
                  took=rng.uniform(40, 110))
            elif p.vault == "ingest":
                tok = self._login(p.cstart + ms(rng.uniform(300, 500)), "logistics", "tracking-ingest", "tracking-ingest",
                                  ["tracking-ingest"], p.ip)
                V(tok["issued"] + ms(rng.uniform(60, 120)), tok, "read", "kv/data/logistics/tracking-ingest/mqtt", p.ip,
                  resp="kv")
        # legacy-invoicer (k8s-wk-04, every 15 min at :02): its policy never had the stripe key
        self.legacy_ips = []
        for m in range(2, 240, 15):
            ip = f"10.244.4.{self.ip4}"
            self.ip4 += 1
            at = START + timedelta(minutes=m, seconds=rng.uniform(3, 6))
            tok = self._login(at, "billing", "legacy-invoicer", "legacy-invoicer", ["invoicer"], ip)
            for i in range(2):
                V(at + ms(rng.uniform(70, 110) + 1000 * i), tok, "read", "kv/data/payments/stripe", ip, denied=True)
            self.legacy_ips.append((at, ip))
        # dana, on the VPN
        dana = self._token("userpass-dana.kovac", ["default", "platform-admin"], {"username": "dana.kovac"}, DANA_IP,
                           DANA_LOGIN, ttl=28800)
        V(DANA_LOGIN, None, "update", "auth/userpass/login/dana.kovac", DANA_IP, login=dana, data={"password": None},
          took=rng.uniform(60, 90))
        V(DANA_LOGIN + ms(812), dana, "read", "auth/token/lookup-self", DANA_IP, resp="lookup")
        V(POLICY_READ, dana, "read", "sys/policies/acl/quote-api", DANA_IP, resp="policy")
        V(POLICY_BAD, dana, "update", "sys/policies/acl/quote-api", DANA_IP, data={"policy": None}, resp="empty")
        V(POLICY_BAD + secs(6.204), dana, "read", "sys/policies/acl/quote-api", DANA_IP, resp="policy")
        V(POLICY_READ2, dana, "read", "sys/policies/acl/quote-api", DANA_IP, resp="policy")
        V(POLICY_READ2 + secs(11.2), dana, "update", "sys/capabilities-self", DANA_IP, data={"paths": None}, resp="caps")
        V(POLICY_FIX, dana, "update", "sys/policies/acl/quote-api", DANA_IP, data={"policy": None}, resp="empty")
        V(POLICY_FIX + secs(4.77), dana, "read", "sys/policies/acl/quote-api", DANA_IP, resp="policy")
        self.va.sort(key=lambda r: r["t"])

    def _renewals(self, tok, ip, t, every):
        rng = self.rng
        k = 0
        while t < END:
            self.V(t, tok, "update", "sys/leases/renew", ip, data={"increment": 3600, "lease_id": None}, resp="renew")
            if k % 2 == 1:
                self.V(t + ms(rng.uniform(200, 900)), tok, "update", "auth/token/renew-self", ip, data={}, resp="renew-self")
            k += 1
            t += timedelta(minutes=every, seconds=rng.uniform(-20, 20))

    def _tune_share(self):
        """The share of denied requests off its rounding edge: a few late kv reads by external-secrets."""
        rng = self.rng
        eso = next(r["tok"] for r in self.va if r["ip"] == ESO_IP and r["tok"] is not None and r["t"] > T(3, 0))
        while True:
            n = len(self.va)
            d = sum(1 for r in self.va if r["denied"])
            p = 100 * d / n
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            t = T(3, 57) + secs(rng.uniform(0, 150))
            self.V(t, eso, "read", "kv/data/platform/slack-webhook", ESO_IP, resp="kv")
        self.va.sort(key=lambda r: r["t"])

    # ------------------------------------------------------------ squid
    def S(self, start, el, ip, code, st, size, method, url, hier, peer, mime="-"):
        el = max(0, int(round(el)))
        end = _ms_floor(start) + ms(el)
        self.sq.append({"end": end, "el": el, "ip": ip, "code": code, "st": st, "bytes": size,
                        "method": method, "url": url, "hier": hier, "peer": peer, "mime": mime})

    def _tunnel(self, start, el, ip, host, peer, size):
        self.S(start, el, ip, "TCP_TUNNEL", 200, size, "CONNECT", f"{host}:443", "HIER_DIRECT", peer)

    def _denied(self, t, ip, host):
        self.S(t, self.rng.randint(0, 2), ip, "TCP_DENIED", 403, 3872 + self.rng.randint(0, 60), "CONNECT", f"{host}:443",
               "HIER_NONE", "-", "text/html")

    def _squid(self):
        rng = self.rng
        # quote-api / quote-worker call the carrier (a pod's address changes with the release)
        def quote_ips(t):
            worker = ["10.244.4.16"] if t < self.qw1.ready else ["10.244.7.45"]
            if t < self.qa1.ready:
                return ["10.244.7.12", "10.244.2.23", "10.244.5.18"], worker
            if t < self.qa2.ready:
                return ["10.244.7.44", "10.244.2.23", "10.244.5.18"], worker
            return ["10.244.7.44", "10.244.7.51", "10.244.3.29"], worker

        self.outage = []
        for t in _poisson(rng, START, END, 21.5):
            api, worker = quote_ips(t)
            ip = rng.choice(api) if rng.random() < 0.84 else worker[0]
            size = rng.randint(2100, 14800)
            if CARRIER_A <= t < CARRIER_B:
                if FIRST_503 < t < LAST_503 and rng.random() < 0.62:
                    self.S(t, rng.uniform(2, 80), ip, "NONE_NONE", 503, 3961 + rng.randint(0, 40), "CONNECT",
                           f"{NORTHWIND}:443", "HIER_NONE", "-", "text/html")
                    continue
                el = math.exp(rng.uniform(math.log(2500), math.log(28000)))
                if t < CARRIER_A + secs(3):
                    el = min(el, 9400)
                self.outage.append(t)
                self._tunnel(t, el, ip, NORTHWIND, NORTHWIND_IP, size)
                continue
            self._tunnel(t, min(_lognorm(rng, 240, 0.45), 2400), ip, NORTHWIND, NORTHWIND_IP, size)
        # the planted ones: the first tunnel of the outage (12.4 s), the first and last refusals
        self._tunnel(CARRIER_A + ms(1.7), 12418, "10.244.2.23", NORTHWIND, NORTHWIND_IP, 6311)
        self.S(FIRST_503, 41, "10.244.7.44", "NONE_NONE", 503, 3978, "CONNECT", f"{NORTHWIND}:443", "HIER_NONE", "-",
               "text/html")
        self.S(LAST_503, 37, "10.244.3.29", "NONE_NONE", 503, 3978, "CONNECT", f"{NORTHWIND}:443", "HIER_NONE", "-",
               "text/html")
        # ledger-api -> stripe
        for t in _poisson(rng, START, END, 6.1):
            ip = rng.choice(["10.244.1.31", "10.244.3.14", "10.244.6.27"])
            self._tunnel(t, min(_lognorm(rng, 380, 0.35), 3000), ip, "api.stripe.com", "54.187.174.169",
                         rng.randint(1500, 8200))
        # rate-sync pods -> bluefin rate sheets (the 03:00 run is the full sync)
        for p in self.pods:
            if p.kind != "rate-sync":
                continue
            k = 700 if p.full else rng.randint(28, 46)
            a = p.cstart + ms(rng.uniform(900, 1400))
            span = p.runtime - 3.5
            for i in range(k):
                t = a + secs(span * i / k + rng.uniform(0, span / k))
                self._tunnel(t, min(_lognorm(rng, 330, 0.4), 2400), p.ip, BLUEFIN, "203.0.113.88", rng.randint(18000, 92000))
        # alertmanager -> slack: a few all night, more while things break
        for a, b, r in ((START, END, 0.05), (T(1, 16), T(1, 42), 0.5), (T(2, 7), T(2, 28), 0.6), (T(2, 48), T(2, 53), 0.6)):
            for t in _poisson(rng, a, b, r):
                self._tunnel(t, _lognorm(rng, 190, 0.3), ALERT_IP, "hooks.slack.com", "34.226.36.54", rng.randint(4800, 6100))
        # cert-manager, hourly
        for h in range(4):
            t = T(h, 33, rng.uniform(0, 50))
            for i in range(3):
                self._tunnel(t + ms(400 * i), _lognorm(rng, 260, 0.3), CERT_IP, "acme-v02.api.letsencrypt.org",
                             "172.65.32.248", rng.randint(3900, 7100))
        # CI runners (k8s-wk-03): debian mirror over plain http, pypi over https
        for t in _poisson(rng, START, END, 0.05):
            ip = f"10.244.3.{self.ip3}"
            self.ip3 += 1
            for i, (path, size, mime) in enumerate([
                    ("/debian/dists/bookworm/InRelease", 151234, "application/octet-stream"),
                    ("/debian/dists/bookworm-updates/InRelease", 55410, "application/octet-stream"),
                    ("/debian/dists/bookworm/main/binary-amd64/Packages.xz", 8826452, "application/x-xz"),
                    ("/debian/pool/main/c/curl/curl_7.88.1-10+deb12u5_amd64.deb", 315652, "application/vnd.debian.binary-package"),
                    ("/debian/pool/main/g/git/git_2.39.2-1.1_amd64.deb", 7264244, "application/vnd.debian.binary-package"),
                    ("/debian/pool/main/j/jq/jq_1.6-2.1_amd64.deb", 65196, "application/vnd.debian.binary-package")]):
                code = rng.choice(["TCP_MISS", "TCP_REFRESH_UNMODIFIED", "TCP_HIT", "TCP_MEM_HIT"]) if i < 2 else \
                    rng.choice(["TCP_MISS", "TCP_HIT", "TCP_HIT"])
                hier = ("HIER_DIRECT", "151.101.2.132") if code in ("TCP_MISS", "TCP_REFRESH_UNMODIFIED") else ("HIER_NONE", "-")
                el = rng.randint(40, 900) if hier[0] == "HIER_DIRECT" else rng.randint(0, 12)
                self.S(t + secs(i * 0.9), el, ip, code, 200, size + 300, "GET", f"http://deb.debian.org{path}", *hier, mime)
            for i in range(rng.randint(6, 14)):
                host = rng.choice(["pypi.org", "files.pythonhosted.org", "files.pythonhosted.org", "github.com"])
                self._tunnel(t + secs(8 + i * 1.3), _lognorm(rng, 420, 0.5), ip, host, "151.101.64.223",
                             rng.randint(9000, 2400000))
        # the analytics notebook keeps trying sites the proxy does not allow; its S3 reads go through
        for t in _poisson(rng, START + secs(20), END, 1.25):
            self._denied(t, NOTEBOOK_IP, rng.choice(["pastebin.com", "pypi.org", "files.pythonhosted.org",
                                                      "api.openai.com", "huggingface.co", "pypi.org"]))
        for t in _poisson(rng, START, END, 0.17):
            self._tunnel(t, _lognorm(rng, 900, 0.6), NOTEBOOK_IP, "s3.eu-west-1.amazonaws.com", "52.218.48.110",
                         rng.randint(40000, 9000000))
        for at, ip in self.legacy_ips:
            self._denied(at + secs(rng.uniform(2.5, 3.5)), ip, "api.sendgrid.com")
        for h in range(4):
            self._denied(T(h, 17, rng.uniform(0, 59)), GRAFANA_IP, "grafana.com")
        # image pulls: other nodes now and then; ml-scorer on k8s-wk-14 at 00:50
        for t in _poisson(rng, START, END, 0.045):
            node = rng.choice([n for n in OTHER_NODES if n != BIG_NODE])
            self._pull_hub(t, node, rng.randint(2_000_000, 160_000_000))
        self._pull_ghcr(T(0, 50, 7, 220000), BIG_NODE, 641_552_118, 31.4)
        # k8s-wk-07's pulls match the kubelet's pulling window
        for p in self.pods:
            if p.pull and p.add:
                size = {"cleanup": 38_211_604, "report": 412_908_377, "ingest": 1_842_417_209}[p.kind]
                if p.kind == "cleanup":
                    self._pull_hub(p.pull_a + ms(30), NODE_IP, size, until=p.pull_b - ms(400))
                else:
                    self._pull_ghcr(p.pull_a + ms(30), NODE_IP, size, None, until=p.pull_b - ms(700))
        # label-render uploads its PDFs to S3
        for p in self.pods:
            if p.kind == "label":
                for i in range(rng.randint(3, 6)):
                    self._tunnel(p.run + secs(rng.uniform(20, p.runtime - 5)), _lognorm(rng, 600, 0.3), p.ip,
                                 "s3.eu-west-1.amazonaws.com", "52.218.48.110", rng.randint(900, 1800))
        # db-restore-test: last night's dump, the largest reply of the night
        self._tunnel(RESTORE_AT, 41228, RESTORE_IP, "s3.eu-west-1.amazonaws.com", "52.218.48.110", 3_206_093_557)
        self.sq = [r for r in self.sq if START <= r["end"] < END]
        self._plateau_squid()
        self.sq.sort(key=lambda r: r["end"])

    def _plateau_squid(self):
        """The carrier's elapsed p95 on a plateau (raised values keep their end time: they started earlier)."""
        rows = [r for r in self.sq if r["url"] == f"{NORTHWIND}:443"]

        def fix(v):
            v += 1
            while v % 10 not in (1, 2, 3, 4) or v in STATUS_LIKE:
                v += 1
            return v

        def put(r, v):
            r["el"] = v

        self.nw_p95, region = self._plateau(rows, lambda r: r["el"], put, 95, fix)
        assert self.nw_p95 < 10000 and all(CARRIER_A <= r["end"] < CARRIER_B + secs(30) for r in region), self.nw_p95

    def _pull_hub(self, t, node, size, until=None):
        rng = self.rng
        self._tunnel(t, rng.uniform(120, 300), node, "auth.docker.io", "3.216.34.172", rng.randint(4200, 4600))
        t2 = t + ms(rng.uniform(320, 400))
        self._tunnel(t2, rng.uniform(200, 400), node, "registry-1.docker.io", "3.216.34.172", rng.randint(6000, 9000))
        t3 = t2 + ms(rng.uniform(420, 520))
        el = size / 42e6 * 1000 + rng.uniform(300, 800) if until is None else (until - t3).total_seconds() * 1000
        self._tunnel(t3, el, node, "production.cloudflare.docker.com", "104.16.101.215", size)

    def _pull_ghcr(self, t, node, size, secs_, until=None):
        rng = self.rng
        self._tunnel(t, rng.uniform(150, 300), node, "ghcr.io", "140.82.121.33", rng.randint(5000, 9000))
        t2 = t + ms(rng.uniform(320, 400))
        el = secs_ * 1000 if until is None else int((until - t2).total_seconds() * 1000)
        while el % 10 not in (1, 2, 3, 4):   # read as seconds to 2 decimals: truncated = rounded
            el -= 1
        self._tunnel(t2, el, node, PKG, "185.199.108.154", size)


class Raw:
    def __init__(self, s):
        self.s = s


def _gofloat(x):
    s = repr(float(x))
    return s


def _godur(x):
    """A Go time.Duration's String() for x seconds (ns precision)."""
    ns = int(round(x * 1e9))
    m, rest = divmod(ns, 60 * 10 ** 9)
    s, frac = divmod(rest, 10 ** 9)
    f = f"{frac:09d}".rstrip("0")
    sec = f"{s}.{f}s" if f else f"{s}s"
    return f"{m}m{sec}" if m else sec


def _gotime(t):
    """Go's time.Time String() with the monotonic reading kubelet's clock carries."""
    mono = (t - KUBELET_BOOT).total_seconds()
    frac = f"{t.microsecond:06d}{(t.microsecond * 7) % 1000:03d}".rstrip("0")
    return f"{t:%Y-%m-%d %H:%M:%S}.{frac} +0000 UTC m=+{mono:.9f}"


def _backoff(s):
    return {10: "10s", 20: "20s", 40: "40s", 80: "1m20s", 160: "2m40s", 300: "5m0s"}[s]


# ------------------------------------------------------------ rendering: squid-access.log

def squid_log(night, seed):
    out = []
    for r in night.sq:
        e = r["end"]
        out.append(f"{int(_epoch(e))}.{e.microsecond // 1000:03d} {r['el']:6d} {r['ip']} {r['code']}/{r['st']:03d} "
                   f"{r['bytes']} {r['method']} {r['url']} - {r['hier']}/{r['peer']} {r['mime']}")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------ rendering: kubelet.log

def kubelet_log(night, seed):
    head = ["Log file created at: 2036/05/22 00:00:00",
            f"Running on machine: {NODE}",
            "Binary: Built with gc go1.22.5 for linux/amd64",
            "Log line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg"]
    L = sorted(night.kl, key=lambda x: (x[0], x[1]))
    return "\n".join(head + [x[2] for x in L]) + "\n"


# ------------------------------------------------------------ rendering: vault_audit.log

MOUNTS = [  # prefix, type, accessor, running version, class
    ("auth/kubernetes/", "kubernetes", "auth_kubernetes_3d9e4f1a", "v0.19.0+builtin", "auth"),
    ("auth/userpass/", "userpass", "auth_userpass_7a6b5c4d", "v1.16.3+builtin.vault", "auth"),
    ("auth/token/", "token", "auth_token_0b4c2d1e", "v1.16.3+builtin.vault", "auth"),
    ("database/", "database", "database_8f2c1a0b", "v1.16.3+builtin.vault", "secret"),
    ("kv/", "kv", "kv_5c1e7a2b", "v0.20.0+builtin", "secret"),
    ("sys/", "system", "system_9e8d7c6b", "v1.16.3+builtin.vault", ""),
]


def _mount(path):
    for m in MOUNTS:
        if path.startswith(m[0]):
            return m
    raise ValueError(path)


def _vtime(t, rng):
    frac = f"{t.microsecond:06d}{rng.randint(0, 999):03d}".rstrip("0")
    return f"{t:%Y-%m-%dT%H:%M:%S}." + frac + "Z" if frac else f"{t:%Y-%m-%dT%H:%M:%S}Z"


def _auth(tok, with_ttl=True):
    a = {"client_token": tok["client_token"], "accessor": tok["accessor"], "display_name": tok["display_name"],
         "policies": tok["policies"], "token_policies": tok["policies"], "metadata": tok["metadata"],
         "entity_id": tok["entity_id"], "token_type": "service"}
    if with_ttl:
        a["token_ttl"] = tok["ttl"]
        a["token_issue_time"] = f"{tok['issued']:%Y-%m-%dT%H:%M:%S}Z"
    return a


def vault_log(night, seed):
    rng = random.Random(seed + 2)
    H = lambda: "hmac-sha256:" + _hex(rng, 64)  # noqa: E731
    L = []
    for r in night.va:
        m = _mount(r["path"])
        req = {"id": r["id"]}
        if r["tok"]:
            req["client_id"] = r["tok"]["entity_id"]
        req.update({"operation": r["op"], "mount_point": m[0], "mount_type": m[1], "mount_accessor": m[2],
                    "mount_running_version": m[3]})
        if m[4]:
            req["mount_class"] = m[4]
        if r["tok"]:
            req["client_token"] = r["tok"]["client_token"]
            req["client_token_accessor"] = r["tok"]["accessor"]
        req["namespace"] = {"id": "root"}
        req["path"] = r["path"]
        if r["data"] is not None:
            req["data"] = {k: (v if v is not None else H()) for k, v in r["data"].items()}
        req["remote_address"] = r["ip"]
        req["remote_port"] = r["port"]
        if r["tok"]:
            auth = _auth(r["tok"])
            pol = [x for x in r["tok"]["policies"] if x != "default"][0]
            auth["policy_results"] = {"allowed": False} if r["denied"] else \
                {"allowed": True, "granting_policies": [{"name": pol, "namespace_id": "root", "type": "acl"}]}
        else:
            auth = {"policy_results": {"allowed": True}, "token_type": "default"}
        e = {"time": _vtime(r["t"], rng), "type": "request", "auth": auth, "request": req}
        if r["denied"]:
            e["error"] = "permission denied"
            L.append((r["t"], json.dumps(e, separators=(",", ":"))))
            continue
        L.append((r["t"], json.dumps(e, separators=(",", ":"))))
        t2 = r["t"] + ms(r["took"])
        resp = {"mount_point": m[0], "mount_type": m[1], "mount_accessor": m[2], "mount_running_plugin_version": m[3]}
        if m[4]:
            resp["mount_class"] = m[4]
        kind = r["resp"]
        auth2 = dict(auth)
        auth2.pop("policy_results", None)
        if r["login"]:
            tok = r["login"]
            auth2 = _auth(tok)
            resp["auth"] = _auth(tok, with_ttl=False)
            resp["auth"]["token_ttl"] = tok["ttl"]
        elif kind == "creds":
            role = r["path"].rsplit("/", 1)[1]
            resp["secret"] = {"lease_id": f"database/creds/{role}/{_tok(rng, 24)}"}
            resp["data"] = {"password": H(), "username": H()}
        elif kind == "kv":
            resp["data"] = {"data": {"value": H()}, "metadata": {"created_time": H(), "custom_metadata": None,
                                                                 "deletion_time": H(), "destroyed": False,
                                                                 "version": 2 + len(r["path"]) % 5}}
        elif kind == "metrics":
            resp["data"] = {"http_content_type": H(), "http_raw_body": H(), "http_status_code": 200}
        elif kind == "renew":
            resp["secret"] = {"lease_id": f"database/creds/{_tok(rng, 24)}"}
        elif kind == "renew-self":
            resp["auth"] = _auth(r["tok"], with_ttl=False)
        elif kind == "policy":
            resp["data"] = {"name": H(), "rules": H()}
        elif kind == "lookup":
            resp["data"] = {"accessor": H(), "display_name": H(), "policies": [H(), H()], "ttl": 28790}
        elif kind == "caps":
            resp["data"] = {"capabilities": [H()], "database/creds/quote-ro": [H()]}
        e = {"time": _vtime(t2, rng), "type": "response", "auth": auth2, "request": req, "response": resp}
        L.append((t2, json.dumps(e, separators=(",", ":"))))
    L.sort(key=lambda x: x[0])
    return "\n".join(x[1] for x in L) + "\n"


def _tok(rng, n):
    return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))


SQUID, KUBELET, VAULT = "squid-access.log", "kubelet.log", "vault_audit.log"


def write_all(seed):
    night = Night(seed)
    return {SQUID: squid_log(night, seed), KUBELET: kubelet_log(night, seed), VAULT: vault_log(night, seed)}, night
