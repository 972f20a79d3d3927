"""Writers of the `queries-heldout9` fixtures: Thistledown Bikeshare, the night of 2036-04-09
(00:00-04:00 UTC). Each writer takes a seeded `random.Random` and returns the file's text; the
cross-file schedule (the incidents and the operators' one-off actions) is the constants below.
`truth.py` never imports this module: every figure a case asks for is parsed back from the text.
"""

import json
from datetime import datetime, timedelta

DAY = datetime(2036, 4, 9)
START, END = DAY, DAY + timedelta(hours=4)
MONTH = "Apr"


def T(h, m=0, s=0, ms=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, milliseconds=ms, microseconds=us)


def sec(x):
    return timedelta(seconds=x)


def usec(x):
    return timedelta(microseconds=x)


def rand_time(rng, lo=START, hi=END, avoid=()):
    """A uniform instant in [lo, hi) outside every (a, b) of `avoid`."""
    span = int((hi - lo).total_seconds() * 1_000_000)
    while True:
        t = lo + usec(rng.randrange(span))
        if not any(a <= t < b for a, b in avoid):
            return t


def uuid4(rng):
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[rng.randrange(4)]}{h[17:20]}-{h[20:32]}"


# ------------------------------------------------------------------ the night's schedule
# 1. an operator defragments etcd on the leader k8s-cp-1; the local kube-apiserver times out
DEFRAG_START = T(0, 44, 10, 207)
DEFRAG_TOOK_US = 14_208_312
DEFRAG_END = DEFRAG_START + usec(DEFRAG_TOOK_US)
LEADER_CHANGE = T(0, 44, 24, 431)
I1_FIRST_504 = T(0, 44, 20, 318)
I1_LAST_504 = T(0, 46, 52, 77)
I1_504_N = 118
ETCD_ME, ETCD_NEW_LEADER, ETCD_THIRD = "a3f1c2d4e5b60718", "5c27e9a0b1d34f62", "d9e8f7a6b5c41302"

# 2. the binlog volume of db-acct-1 fills, mysqld aborts (binlog_error_action=ABORT_SERVER)
DISK_FULL = T(1, 23, 41, 512)
ABORT = T(1, 23, 41, 530)
RESTART_TRY = T(1, 23, 47, 102)
RESTART_FAIL = T(1, 23, 49, 880)
MANUAL_START = T(1, 26, 58, 311)
READY = T(1, 27, 52, 604)
I2_FIRST_503 = T(1, 23, 42, 118)
I2_LAST_503 = T(1, 28, 3, 402)
I2_PER_MINUTE = [(T(1, 23, 42, 118), T(1, 24), 21), (T(1, 24), T(1, 25), 62), (T(1, 25), T(1, 26), 38),
                 (T(1, 26), T(1, 27), 33), (T(1, 27), T(1, 28), 27), (T(1, 28), T(1, 28, 3, 403), 3)]
I2_PATHS = {"unlock": 131, "end": 41, "me": 12}

# 3. an operator bans /v2/stations on cache-1
BAN = T(2, 5, 14)
BAN_EXTRA_MISSES = 74

# 4. the reporting CronJob's job runs with a rotated-away MySQL password
JOB_CREATE = T(2, 7, 0, 41)
JOB_POD = T(2, 7, 0, 388)
JOB_NAME = "nightly-export-34855327"
DENY_FIRST = T(2, 7, 12, 205)
DENY_LAST = T(2, 23, 50, 771)
DENY_N = 137
JOB_DELETE = T(2, 24, 36, 220)
REPORTING_POD_IP = "10.244.19.33"

# 5. a manual repair on cass-2 drives the JVM into long old-generation pauses
REPAIR_START = T(2, 31, 5, 412)
OLD_GCS = [(T(2, 33, 1, 118), 7412), (T(2, 35, 48, 602), 8016), (T(2, 38, 2, 245), 6904),
           (T(2, 41, 17, 733), 12840), (T(2, 44, 29, 90), 9176), (T(2, 47, 3, 511), 7733)]
I3_FIRST_503 = T(2, 33, 10, 44)
I3_LAST_503 = T(2, 48, 30, 516)
I3_503_N = 64
REPAIR_ABORT = T(2, 49, 40, 118)

# 6. varnishd's child panics on cache-1; keepalived moves the VIP to cache-2 and back
PANIC = T(3, 11, 22)
CHK_RET1 = T(3, 11, 23)
FAULT = T(3, 11, 25)
C2_MASTER = T(3, 11, 26)
CHILD_START = T(3, 11, 26)
CHK_OK = T(3, 11, 31)
C1_MASTER = T(3, 14, 47)
GAP = (PANIC, C1_MASTER)

# 7. an operator drains k8s-w-07; Elasticsearch's only pod goes with it and fluentd can't ship
CORDON = T(3, 40, 5, 118)
EVICT_DOCKD = [(T(3, 40, 7, 204), "dockd-7c9f8b6d4-x2k4l"), (T(3, 40, 7, 911), "dockd-7c9f8b6d4-mm9tq")]
EVICT_ES_429 = T(3, 40, 7, 953)
EVICT_ES = T(3, 40, 12, 377)
ABORT_BURST = (T(3, 40, 8, 40), T(3, 40, 13, 500))
ABORT_BURST_N = 47
FLUENT_FIRST = T(3, 40, 31)
ES_READY = T(3, 51, 58, 640)
FLUENT_OK = T(3, 52, 14)

# the slowest apiserver request that is not a WATCH (an operator's `kubectl logs`)
SLOW_GET = T(1, 52, 31, 506)
SLOW_GET_US = 48_712_338


# ------------------------------------------------------------------ Go durations
def go_dur(us):
    """A Go `time.Duration.String()` of a whole number of microseconds."""
    def trim(whole, frac, width):
        f = f"{frac:0{width}d}".rstrip("0")
        return f"{whole}.{f}" if f else f"{whole}"
    if us < 1000:
        return f"{us}µs"
    if us < 1_000_000:
        return trim(us // 1000, us % 1000, 3) + "ms"
    if us < 60_000_000:
        return trim(us // 1_000_000, us % 1_000_000, 6) + "s"
    m, r = divmod(us, 60_000_000)
    return f"{m}m" + trim(r // 1_000_000, r % 1_000_000, 6) + "s"


def go_dur_ns(ns):
    if ns < 1_000_000_000:
        whole, frac = divmod(ns, 1_000_000)
        f = f"{frac:06d}".rstrip("0")
        return (f"{whole}.{f}" if f else f"{whole}") + "ms"
    whole, frac = divmod(ns, 1_000_000_000)
    f = f"{frac:09d}".rstrip("0")
    return (f"{whole}.{f}" if f else f"{whole}") + "s"


def exact_mean_fix(values, idx, unit):
    """Raise the values at `idx` (a few µs / ms each) so the mean is a whole `unit`."""
    n = len(values)
    delta = (-sum(values)) % (n * unit)
    q, r = divmod(delta, len(idx))
    for j, i in enumerate(idx):
        values[i] += q + (1 if j < r else 0)
    assert sum(values) % (n * unit) == 0
    return values


def plateau(rng, n, low, plat, high, a, b):
    """n values: the lowest fraction `a` drawn from `low`, up to `b` equal to `plat`, the rest from `high`."""
    k1, k2 = int(n * a), int(n * b)
    return ([rng.randint(*low) for _ in range(k1)] + [plat] * (k2 - k1)
            + [rng.randint(*high) for _ in range(n - k2)]), list(range(k1))


# ------------------------------------------------------------------ varnishncsa on cache-1
API = "http://api.thistledown.example"
TILES = "http://tiles.thistledown.example"
SCRAPER, AGGREGATOR, KIOSK = "198.51.100.213", "192.0.2.45", "203.0.113.160"
SCRAPER_429 = 229
P_HIST_US, P_UNLOCK_US = 1_284_000, 742_000
UA_APP = ["Thistledown/5.12.0 (iPhone; iOS 19.2; Scale/3.00)", "Thistledown/5.11.4 (iPhone; iOS 18.6; Scale/3.00)",
          "Thistledown/5.12.0 (Android 16; Pixel 10)", "Thistledown/5.12.0 (Android 15; SM-S931B)",
          "Thistledown/5.11.4 (Android 14; moto g84 5G)"]
UA_WEB = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36"
UA_KIOSK = "TDK-Kiosk/3.4.1 (station-controller)"
UA_AGG = "citybikes-fetcher/2.1 (+https://citybikes.example/bot)"
UA_SCRAPER = "python-requests/2.32.3"


def clf(t):
    return f"{t.day:02d}/{MONTH}/{t.year}:{t.hour:02d}:{t.minute:02d}:{t.second:02d} +0000"


def varnish_log(rng):
    pool = [f"{p}{i}" for p in ("192.0.2.", "198.51.100.", "203.0.113.") for i in range(2, 254)]
    pool = [ip for ip in pool if ip not in (SCRAPER, AGGREGATOR, KIOSK)]
    pool = rng.sample(pool, 612)
    weights = [1 / (i + 30) for i in range(len(pool))]
    ua_of = {ip: rng.choice(UA_APP) for ip in pool}
    recs = []

    def app():
        ip = rng.choices(pool, weights)[0]
        return ip, ua_of[ip]

    def add(t, ip, ua, method, url, status, size, handling, d, ref="-"):
        recs.append({"t": t, "ip": ip, "ua": ua, "method": method, "url": url, "status": status,
                     "size": size, "handling": handling, "D": d, "ref": ref})

    i2 = (I2_FIRST_503 - sec(1), I2_LAST_503 + sec(2))
    pad = (GAP[0] - sec(6), GAP[1])   # durations assigned below must not reach into the gap
    codes = {200, 304, 401, 402, 404, 409, 429, 503}

    def hit(lo=70, hi=950):   # no %D that reads like a status code
        while True:
            v = rng.randint(lo, hi)
            if v not in codes:
                return v

    miss = lambda: rng.randint(9_000, 95_000)  # noqa: E731

    def station(t, ip, ua):
        sid = rng.randint(1001, 1412)
        if rng.random() < 0.025:
            add(t, ip, ua, "GET", f"{API}/v2/stations/{sid}", 404, 29, "miss", miss())
        elif rng.random() < 0.85:
            add(t, ip, ua, "GET", f"{API}/v2/stations/{sid}", 200, rng.randint(1200, 2400), "hit", hit())
        else:
            add(t, ip, ua, "GET", f"{API}/v2/stations/{sid}", 200, rng.randint(1200, 2400), "miss", miss())

    def unlock(t, ip, ua):
        if rng.random() < 0.07:
            add(t, ip, ua, "POST", f"{API}/v2/unlock", 409, rng.randint(64, 72), "pass", rng.randint(30_000, 90_000))
        else:
            add(t, ip, ua, "POST", f"{API}/v2/unlock", 200, rng.randint(211, 268), "pass", 0)

    for _ in range(2900):
        ip, ua = app()
        h = rng.random() < 0.96
        add(rand_time(rng, avoid=[GAP]), ip, ua, "GET", f"{API}/v2/stations/status", 200, rng.randint(48100, 52900),
            "hit" if h else "miss", hit() if h else miss())
    for _ in range(1700):
        station(rand_time(rng, avoid=[GAP]), *app())
    for _ in range(650):
        ip, ua = app()
        lat, lon = 52.3 + rng.randint(0, 9999) / 100000, 4.8 + rng.randint(0, 9999) / 100000
        h = rng.random() < 0.3
        add(rand_time(rng, avoid=[GAP]), ip, ua, "GET", f"{API}/v2/stations/nearby?lat={lat:.5f}&lon={lon:.5f}", 200,
            rng.randint(3000, 9000), "hit" if h else "miss", hit() if h else rng.randint(20_000, 140_000))
    for _ in range(1500):
        ip, ua = app()
        if rng.random() < 0.2:
            ua = UA_WEB
        z = rng.randint(12, 16)
        url = f"{TILES}/tiles/{z}/{rng.randint(2100, 2110) * 2 ** (z - 12)}/{rng.randint(1340, 1350) * 2 ** (z - 12)}.png"
        h = rng.random() < 0.93
        if rng.random() < 0.3:
            add(rand_time(rng, avoid=[GAP]), ip, ua, "GET", url, 304, "-", "hit" if h else "miss", hit() if h else miss(),
                "https://map.thistledown.example/")
        else:
            add(rand_time(rng, avoid=[GAP]), ip, ua, "GET", url, 200, rng.randint(8000, 42000), "hit" if h else "miss",
                hit() if h else miss(), "https://map.thistledown.example/")
    for _ in range(2560):
        add(rand_time(rng, avoid=[pad]), *app(), "GET", f"{API}/v2/rides/history", 200, rng.randint(2000, 14000), "pass", 0)
    for _ in range(1400):
        unlock(rand_time(rng, avoid=[pad, i2]), *app())
    for _ in range(1050):
        add(rand_time(rng, avoid=[GAP, i2]), *app(), "POST", f"{API}/v2/rides/end", 200, rng.randint(520, 640), "pass",
            rng.randint(60_000, 300_000))
    for _ in range(880):
        ip, ua = app()
        if rng.random() < 0.08:
            add(rand_time(rng, avoid=[GAP, i2]), ip, ua, "GET", f"{API}/v2/me", 401, 41, "pass", rng.randint(3_000, 9_000))
        else:
            add(rand_time(rng, avoid=[GAP, i2]), ip, ua, "GET", f"{API}/v2/me", 200, rng.randint(600, 900), "pass",
                rng.randint(15_000, 80_000))
    for _ in range(110):
        ip, ua = app()
        st = 402 if rng.random() < 0.1 else 200
        add(rand_time(rng, avoid=[GAP, i2]), ip, ua, "POST", f"{API}/v2/payments/methods", st, rng.randint(80, 140),
            "pass", rng.randint(200_000, 900_000))
    # kiosks behind one NAT
    for _ in range(420):
        unlock(rand_time(rng, avoid=[pad, i2]), KIOSK, UA_KIOSK)
    for _ in range(280):
        station(rand_time(rng, avoid=[GAP]), KIOSK, UA_KIOSK)
    # the aggregator, every 15 s
    t = T(0, 0, 7, 250)
    while t < END:
        if not (GAP[0] <= t < GAP[1]):
            add(t + usec(rng.randint(0, 400_000)), AGGREGATOR, UA_AGG, "GET", f"{API}/v2/stations/status", 200,
                rng.randint(48100, 52900), "hit", hit())
        t += sec(15)
    # the scraper, in bursts, some of them throttled
    scr = []
    for _ in range(29):
        b0 = rand_time(rng, T(0, 50), T(3, 30), avoid=[(GAP[0] - sec(40), GAP[1])])
        for k in range(50):
            scr.append(b0 + usec(k * 500_000 + rng.randint(0, 300_000)))
    throttled = set(rng.sample(range(len(scr)), SCRAPER_429))
    for k, t in enumerate(sorted(scr)):
        sid = 1001 + k % 412
        if k in throttled:
            add(t, SCRAPER, UA_SCRAPER, "GET", f"{API}/v2/stations/{sid}", 429, 236, "synth", hit(40, 199))
        else:
            h = rng.random() < 0.8
            add(t, SCRAPER, UA_SCRAPER, "GET", f"{API}/v2/stations/{sid}", 200, rng.randint(1200, 2400),
                "hit" if h else "miss", hit() if h else miss())
    # incident 2: every database-backed call 503s from dockd until mysqld is back
    paths = [p for p, k in I2_PATHS.items() for _ in range(k)]
    rng.shuffle(paths)
    times = []
    for a, b, k in I2_PER_MINUTE:
        times += [a + usec(rng.randrange(int((b - a).total_seconds() * 1e6))) for _ in range(k)]
    times.sort()
    times[0], times[-1] = I2_FIRST_503, I2_LAST_503
    for t, p in zip(times, paths):
        if p == "unlock":
            ip, ua = (KIOSK, UA_KIOSK) if rng.random() < 0.3 else app()
            add(t, ip, ua, "POST", f"{API}/v2/unlock", 503, 27, "pass", rng.randint(800, 3500))
        elif p == "end":
            add(t, *app(), "POST", f"{API}/v2/rides/end", 503, 27, "pass", rng.randint(800, 3500))
        else:
            add(t, *app(), "GET", f"{API}/v2/me", 503, 27, "pass", rng.randint(800, 3500))
    # incident 3: ride history times out (first_byte_timeout 10 s) while cass-2 pauses
    ts = sorted(rand_time(rng, I3_FIRST_503 + sec(1), I3_LAST_503) for _ in range(I3_503_N - 2))
    for t in [I3_FIRST_503] + ts + [I3_LAST_503]:
        add(t, *app(), "GET", f"{API}/v2/rides/history", 503, 278, "pass", 10_000_000 + rng.randint(100, 4000))
    # a few unrelated fetch failures
    for _ in range(9):
        t = rand_time(rng, avoid=[GAP, (T(1, 10), T(1, 45)), (T(2, 20), T(3, 0))])
        add(t, *app(), "GET", f"{API}/v2/stations/nearby?lat=52.35012&lon=4.88211", 503, 278, "miss",
            rng.randint(2000, 5000))
    # the ban: /v2/stations objects miss for a while, and the app refetches them all
    for _ in range(BAN_EXTRA_MISSES):
        t = BAN + sec(1) + usec(rng.randrange(44_000_000))
        ip, ua = app()
        add(t, ip, ua, "GET", f"{API}/v2/stations/{rng.randint(1001, 1412)}", 200, rng.randint(1200, 2400), "miss", miss())
    cacheable = ("/v2/stations", "/tiles/")
    for r in recs:
        in_ban = BAN <= r["t"] < BAN + sec(50) and "/v2/stations" in r["url"]
        after_crash = GAP[1] <= r["t"] < GAP[1] + sec(70) and any(c in r["url"] for c in cacheable)
        if (in_ban or after_crash) and r["handling"] == "hit":
            r["handling"], r["D"] = "miss", miss()
    # the two latency shapes the cases read (plateaus so every p95 definition agrees)
    hist = [r for r in recs if r["url"].endswith("/v2/rides/history") and r["status"] == 200]
    vals, _ = plateau(rng, len(hist), (35_000, 900_000), P_HIST_US, (1_300_000, 4_800_000), 0.935, 0.99)
    rng.shuffle(vals)
    for r, v in zip(hist, vals):
        r["D"] = v
    unl = [r for r in recs if r["url"].endswith("/v2/unlock") and r["status"] == 200]
    vals, low = plateau(rng, len(unl), (110_000, 690_000), P_UNLOCK_US, (800_000, 2_600_000), 0.93, 0.965)
    vals = [v - v % 1000 for v in vals]   # whole ms, so the exact mean can be reached in ms steps
    vals = exact_mean_fix(vals, low, 1000)
    assert max(vals[i] for i in low) < P_UNLOCK_US
    order = list(range(len(vals)))
    rng.shuffle(order)
    for r, i in zip(unl, order):
        r["D"] = vals[i]
    # the child's death loses every transaction in flight
    recs = [r for r in recs if not (r["t"] < GAP[1] and r["t"] + usec(r["D"]) > GAP[0])]
    recs.sort(key=lambda r: (r["t"] + usec(r["D"]), r["ip"]))
    out = []
    for r in recs:
        out.append(f'{r["ip"]} - - [{clf(r["t"])}] "{r["method"]} {r["url"]} HTTP/1.1" {r["status"]} {r["size"]} '
                   f'"{r["ref"]}" "{r["ua"]}" {r["handling"]} {r["D"]}')
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ kube-apiserver (klog) on k8s-cp-1
NODES = [f"k8s-w-{i:02d}" for i in range(1, 71)]
NODE_IP = {n: f"10.20.8.{10 + i}" for i, n in enumerate(NODES, 1)}
CP1 = "10.20.0.11"
K8S = "v1.31.4 (linux/amd64) kubernetes/8f94681"
UA_KUBELET = f"kubelet/{K8S}"
UA_OPERATOR = "dockd-operator/0.9.2 (linux/amd64) kubernetes/4c1e0b7"
UA_ARGO = "argocd-application-controller/v2.13.1 (linux/amd64) kubernetes/af54ef8"
UA_SCHED = f"kube-scheduler/{K8S}/leader-election"
UA_PROM = "Prometheus/2.53.1"
UA_KUBECTL = f"kubectl/{K8S}"
OPERATOR_IP, ARGO_IP, PROM_IP, WORKSTATION = "10.244.3.17", "10.244.5.22", "10.244.6.40", "10.30.1.15"


def kcm(ctrl):
    return f"kube-controller-manager/{K8S}/" + ("leader-election" if ctrl == "leader" else
                                                  f"system:serviceaccount:kube-system:{ctrl}")


def klog_head(level, t, src):
    return f"{level}{t.month:02d}{t.day:02d} {t:%H:%M:%S}.{t.microsecond:06d} {11:>7d} {src}]"


def apiserver_log(rng):
    reqs, other = [], []

    def req(t, verb, uri, us, ua, ip, resp):
        reqs.append({"t": t, "verb": verb, "uri": uri, "us": us, "ua": ua, "ip": ip, "resp": resp,
                     "port": rng.randint(32768, 60999), "id": uuid4(rng)})

    i1 = (I1_FIRST_504 - sec(12), I1_LAST_504 + sec(3))
    lease = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/"
    for node in NODES:
        for _ in range(rng.randint(22, 32)):
            t = rand_time(rng, avoid=[i1])
            x = rng.random()
            if x < 0.6:
                req(t, "PUT", f"{lease}{node}?timeout=10s", rng.randint(2000, 15000), UA_KUBELET, NODE_IP[node], 200)
            elif x < 0.8:
                req(t, "GET", f"/api/v1/nodes/{node}?resourceVersion=0&timeout=10s", rng.randint(300, 4000), UA_KUBELET,
                    NODE_IP[node], 200)
            elif x < 0.97:
                req(t, "PATCH", f"/api/v1/nodes/{node}/status?timeout=10s", rng.randint(3000, 30000), UA_KUBELET,
                    NODE_IP[node], 200)
            else:
                req(t, "GET", f"/api/v1/namespaces/rides/pods/dockd-7c9f8b6d4-{rng.choice(['zz7qp', 'b8r2c', 'w4hx1'])}",
                    rng.randint(300, 3000), UA_KUBELET, NODE_IP[node], 404)
    fleets = ["fleet-north", "fleet-south", "fleet-harbour"]
    crd = "/apis/bikes.thistledown.example/v1alpha1/namespaces/rides/dockfleets/"
    for _ in range(880):
        t = rand_time(rng, avoid=[i1])
        x = rng.random()
        if x < 0.35:
            req(t, "GET", crd + rng.choice(fleets), rng.randint(400, 6000), UA_OPERATOR, OPERATOR_IP, 200)
        elif x < 0.6:
            req(t, "PUT", crd + rng.choice(fleets) + "/status", rng.randint(3000, 25000), UA_OPERATOR, OPERATOR_IP,
                409 if rng.random() < 0.09 else 200)
        elif x < 0.75:
            req(t, "LIST", "/api/v1/namespaces/rides/pods?labelSelector=app%3Ddockd", rng.randint(5000, 90000),
                UA_OPERATOR, OPERATOR_IP, 200)
        elif x < 0.9:
            req(t, "PUT", "/api/v1/namespaces/rides/configmaps/dockd-stations", rng.randint(3000, 20000), UA_OPERATOR,
                OPERATOR_IP, 409 if rng.random() < 0.12 else 200)
        else:
            req(t, "POST", "/api/v1/namespaces/rides/events", rng.randint(4000, 30000), UA_OPERATOR, OPERATOR_IP, 201)
    for _ in range(640):
        t = rand_time(rng, avoid=[i1])
        x = rng.random()
        if x < 0.4:
            req(t, "LIST", rng.choice(["/apis/apps/v1/deployments?limit=500", "/api/v1/services?limit=500",
                                       "/api/v1/configmaps?limit=500", "/apis/networking.k8s.io/v1/ingresses?limit=500"]),
                rng.randint(20000, 400000), UA_ARGO, ARGO_IP, 200)
        elif x < 0.75:
            req(t, "GET", f"/api/v1/namespaces/{rng.choice(['rides', 'logging', 'reporting'])}/configmaps/"
                f"{rng.choice(['dockd-stations', 'fluent-routes', 'export-config'])}", rng.randint(400, 5000), UA_ARGO,
                ARGO_IP, 200)
        else:
            req(t, "GET", crd + "fleet-east", rng.randint(300, 3000), UA_ARGO, ARGO_IP, 404 if rng.random() < 0.45 else 200)
    for _ in range(470):
        req(rand_time(rng, avoid=[i1]), "PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/"
            "kube-scheduler?timeout=5s", rng.randint(2000, 12000), UA_SCHED, CP1, 200)
    for ctrl, k, verb, uri in [
            ("leader", 90, "PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager?timeout=5s"),
            ("deployment-controller", 60, "PUT", "/apis/apps/v1/namespaces/rides/deployments/dockd/status"),
            ("replicaset-controller", 60, "PUT", "/apis/apps/v1/namespaces/rides/replicasets/dockd-7c9f8b6d4/status"),
            ("job-controller", 40, "GET", "/apis/batch/v1/namespaces/ledger/jobs/ledger-rollup"),
            ("cronjob-controller", 50, "GET", "/apis/batch/v1/namespaces/reporting/cronjobs/nightly-export")]:
        for _ in range(k):
            req(rand_time(rng, avoid=[i1]), verb, uri, rng.randint(2000, 20000), kcm(ctrl), CP1,
                409 if verb == "PUT" and ctrl != "leader" and rng.random() < 0.1 else 200)
    for _ in range(240):
        req(rand_time(rng, avoid=[i1]), "GET", "/metrics", rng.randint(40000, 180000), UA_PROM, PROM_IP, 200)
    for _ in range(40):
        t = rand_time(rng, T(0, 5), T(3, 35), avoid=[i1])
        x = rng.random()
        if x < 0.4:
            req(t, "LIST", "/api/v1/namespaces/rides/pods?limit=500", rng.randint(8000, 60000), UA_KUBECTL, WORKSTATION, 200)
        elif x < 0.7:
            req(t, "GET", "/api?timeout=32s", rng.randint(300, 2000), UA_KUBECTL, WORKSTATION, 200)
        else:
            req(t, "GET", "/apis?timeout=32s", rng.randint(300, 2000), UA_KUBECTL, WORKSTATION, 200)
    # long-running watches (latency = the watch's lifetime)
    for _ in range(340):
        x = rng.random()
        secs = rng.randint(300, 595)
        rv = rng.randint(88_000_000, 89_999_999)
        q = f"?allowWatchBookmarks=true&resourceVersion={rv}&timeout={secs // 60}m{secs % 60}s&timeoutSeconds={secs}&watch=true"
        t = rand_time(rng, T(0, 10), END, avoid=[i1])
        if x < 0.5:
            node = rng.choice(NODES)
            req(t, "WATCH", "/api/v1/namespaces/rides/configmaps" + q.replace("?", "?fieldSelector=metadata.name%3Ddockd-stations&", 1),
                secs * 1_000_000 + rng.randint(100, 2000), UA_KUBELET, NODE_IP[node], 200)
        elif x < 0.75:
            req(t, "WATCH", "/apis/bikes.thistledown.example/v1alpha1/dockfleets" + q, secs * 1_000_000 + rng.randint(100, 2000),
                UA_OPERATOR, OPERATOR_IP, 200)
        else:
            req(t, "WATCH", "/apis/apps/v1/deployments" + q, secs * 1_000_000 + rng.randint(100, 2000), UA_ARGO, ARGO_IP, 200)
    # a few unrelated gateway timeouts of slow discovery calls, far from incident 1
    for _ in range(7):
        t = rand_time(rng, T(1, 30), T(3, 30), avoid=[(T(3, 35), T(3, 55))])
        req(t, "GET", "/apis/metrics.k8s.io/v1beta1?timeout=10s", 10_000_000 + rng.randint(100, 9000), UA_ARGO, ARGO_IP, 504)
    # incident 1: writes and reads behind the defrag time out at 10 s (504) or fail in etcd (500)
    span = int((I1_LAST_504 - I1_FIRST_504).total_seconds() * 1e6)
    ts = sorted([I1_FIRST_504, I1_LAST_504] + [I1_FIRST_504 + usec(rng.randrange(span)) for _ in range(I1_504_N - 2)])
    for k, t in enumerate(ts):
        if k % 9 == 4:
            req(t, "PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler?timeout=5s",
                5_000_000 + rng.randint(200, 3000), UA_SCHED, CP1, 504)
        else:
            node = rng.choice(NODES)
            req(t, "PUT", f"{lease}{node}?timeout=10s", 10_000_000 + rng.randint(200, 5000), UA_KUBELET, NODE_IP[node], 504)
    e500 = sorted(rand_time(rng, DEFRAG_START + sec(7), T(0, 46, 40)) for _ in range(23))
    for t in e500:
        ua, ip, uri = rng.choice([(UA_OPERATOR, OPERATOR_IP, crd + "fleet-north"),
                                  (UA_ARGO, ARGO_IP, "/api/v1/namespaces/rides/configmaps/dockd-stations")])
        req(t, "GET", uri, 7_000_000 + rng.randint(100, 9000), ua, ip, 500)
        other.append((t - usec(300), klog_head("E", t - usec(300), "status.go:71") +
                      ' "Unhandled Error" err="apiserver received an error that is not an metav1.Status: '
                      '&errors.errorString{s:\\"etcdserver: request timed out\\"}: etcdserver: request timed out" '
                      'logger="UnhandledError"'))
    for k, t in enumerate(ts[::20]):
        tid = rng.randint(1_000_000_000, 4_000_000_000)
        st = t - sec(10)
        node = rng.choice(NODES)
        other.append((t + usec(900), klog_head("I", t + usec(900), "trace.go:236") +
                      f' Trace[{tid}]: "Update" accept:application/vnd.kubernetes.protobuf,application/json,'
                      f'audit-id:{uuid4(rng)},client:{NODE_IP[node]},api-group:coordination.k8s.io,api-version:v1,'
                      f'name:{node},subresource:,namespace:kube-node-lease,protocol:HTTP/2.0,resource:leases,'
                      f'scope:resource,url:{lease}{node},user-agent:{UA_KUBELET},verb:PUT '
                      f'(09-Apr-2036 {st:%H:%M:%S}.{st.microsecond // 1000:03d}) (total time: 10001ms):\n'
                      f'Trace[{tid}]: ---"Write to database call failed" len:512,err:Timeout: request did not complete '
                      f'within requested timeout - context deadline exceeded 10000ms ({t:%H:%M:%S}.{t.microsecond // 1000:03d})\n'
                      f'Trace[{tid}]: [10.001s] [10.001s] END'))
    for t in ts[1::6]:
        other.append((t + usec(1200), klog_head("E", t + usec(1200), "timeout.go:142") +
                      f' "Unhandled Error" err="post-timeout activity - time-elapsed: {rng.randint(2, 9)}.{rng.randint(100, 999)}ms, '
                      f'PUT \\"{lease}{rng.choice(NODES)}\\" result: <nil>" logger="UnhandledError"'))
    # the operators and the controllers around the incidents
    req(SLOW_GET, "GET", "/api/v1/namespaces/rides/pods/dockd-7c9f8b6d4-q8wzn/log?container=dockd", SLOW_GET_US,
        UA_KUBECTL, WORKSTATION, 200)
    ukj = kcm("job-controller")
    req(JOB_CREATE, "POST", "/apis/batch/v1/namespaces/reporting/jobs", 12_318, kcm("cronjob-controller"), CP1, 201)
    req(JOB_POD, "POST", "/api/v1/namespaces/reporting/pods", 18_442, ukj, CP1, 201)
    t = JOB_POD + sec(1)
    while t < JOB_DELETE:
        req(t, "PUT", f"/apis/batch/v1/namespaces/reporting/jobs/{JOB_NAME}/status", rng.randint(3000, 15000), ukj, CP1, 200)
        t += sec(rng.randint(70, 150))
    req(JOB_DELETE, "DELETE", f"/apis/batch/v1/namespaces/reporting/jobs/{JOB_NAME}", 9_871, UA_KUBECTL, WORKSTATION, 200)
    req(CORDON, "PATCH", "/api/v1/nodes/k8s-w-07", 8_215, UA_KUBECTL, WORKSTATION, 200)
    req(CORDON + usec(201_000), "LIST", "/api/v1/pods?fieldSelector=spec.nodeName%3Dk8s-w-07", 41_337, UA_KUBECTL,
        WORKSTATION, 200)
    for t, pod in EVICT_DOCKD:
        req(t, "POST", f"/api/v1/namespaces/rides/pods/{pod}/eviction", 14_220, UA_KUBECTL, WORKSTATION, 201)
    req(EVICT_ES_429, "POST", "/api/v1/namespaces/logging/pods/es-logs-0/eviction", 6_102, UA_KUBECTL, WORKSTATION, 429)
    req(EVICT_ES, "POST", "/api/v1/namespaces/logging/pods/es-logs-0/eviction", 15_904, UA_KUBECTL, WORKSTATION, 201)
    t = EVICT_ES + sec(5)
    while t < T(3, 40, 44):
        req(t, "GET", "/api/v1/namespaces/logging/pods/es-logs-0", rng.randint(400, 2500), UA_KUBECTL, WORKSTATION, 200)
        t += sec(5)
    req(T(3, 40, 44, 12), "GET", "/api/v1/namespaces/logging/pods/es-logs-0", 1_733, UA_KUBECTL, WORKSTATION, 404)
    req(ES_READY, "PATCH", "/api/v1/namespaces/logging/pods/es-logs-0/status", 9_018, UA_KUBELET, NODE_IP["k8s-w-03"], 200)
    # every LIST's latency to an exact mean in whole milliseconds
    lists = [r for r in reqs if r["verb"] == "LIST"]
    vals = exact_mean_fix([r["us"] for r in lists], list(range(len(lists))), 1000)
    for r, v in zip(lists, vals):
        r["us"] = v
    lines = [(r["t"], klog_head("I", r["t"], "httplog.go:134") +
              f' "HTTP" verb="{r["verb"]}" URI="{r["uri"]}" latency="{go_dur(r["us"])}" userAgent="{r["ua"]}" '
              f'audit-ID="{r["id"]}" srcIP="{r["ip"]}:{r["port"]}" resp={r["resp"]}') for r in reqs]
    t = T(0, 1, 12, 4)
    while t < END:
        other.append((t, klog_head("I", t, "cidrallocator.go:277") + ' "Updated ClusterIP allocator for Service CIDR" '
                      'CIDR="10.96.0.0/12"'))
        t += sec(180) + usec(rng.randint(0, 900_000))
    for _ in range(14):
        t = rand_time(rng)
        other.append((t, klog_head("I", t, "controller.go:615") + " quota admission added evaluator for: "
                      + rng.choice(["leases.coordination.k8s.io", "endpoints", "events.events.k8s.io", "jobs.batch"])))
    lines += other
    lines.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in lines) + "\n"


# ------------------------------------------------------------------ etcd 3.5 (zap JSON) on k8s-cp-1
def ts_z(t):
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}Z"


FDSYNC_MIN_NS = 1_061_000_000


def etcd_log(rng):
    out = []

    def ev(t, level, caller, msg, **kv):
        d = {"level": level, "ts": ts_z(t), "caller": caller, "msg": msg}
        d.update(kv)
        out.append((t, json.dumps(d, ensure_ascii=False, separators=(",", ":"))))

    keys = ["/registry/leases/kube-node-lease/", "/registry/pods/rides/", "/registry/configmaps/rides/dockd-stations",
            "/registry/bikes.thistledown.example/dockfleets/rides/", "/registry/events/rides/"]

    def slow_apply(t, ns):
        k = rng.choice(keys)
        if k.endswith("/"):
            req = f'key:"{k}" range_end:"{k[:-1]}0" count_only:true '
            resp = f"range_response_count:0 size:{rng.randint(7, 9)}"
            ev(t, "warn", "etcdserver/util.go:170", "apply request took too long", took=go_dur_ns(ns),
               **{"expected-duration": "100ms", "prefix": "read-only range ", "request": req, "response": resp})
        else:
            ev(t, "warn", "etcdserver/util.go:170", "apply request took too long", took=go_dur_ns(ns),
               **{"expected-duration": "100ms", "prefix": "", "request": f'header:<ID:{rng.getrandbits(60)} > put:<key:"{k}" '
                  f'value_size:{rng.randint(400, 2000)} >', "response": "size:6"})

    rev = 88_412_000
    t = T(0, 3, 41, 118)
    while t < END:
        rev += rng.randint(9000, 14000)
        ev(t, "info", "mvcc/index.go:214", "compact tree index", revision=rev)
        t2 = t + usec(rng.randint(30_000, 60_000))
        ev(t2, "info", "mvcc/kvstore_compaction.go:72", "finished scheduled compaction", **{
            "compact-revision": rev, "took": go_dur_ns(rng.randint(28_000_000, 61_000_000)),
            "hash": rng.getrandbits(32), "current-db-size-bytes": 2095104000, "current-db-size": "2.1 GB",
            "current-db-size-in-use-bytes": 640851968, "current-db-size-in-use": "641 MB"})
        ev(t2 + usec(900), "info", "mvcc/hash.go:137", "storing new hash",
           **{"hash": rng.getrandbits(32), "revision": rev, "compact-revision": rev - rng.randint(9000, 14000)})
        t += sec(300) + usec(rng.randint(0, 400_000))
    t = T(0, 21, 9, 730)
    idx = 71_200_000
    while t < END:
        idx += 100_001
        ev(t, "info", "etcdserver/server.go:1396", "triggering snapshot", **{
            "local-member-id": ETCD_ME, "local-member-applied-index": idx, "local-member-snapshot-index": idx - 100_001,
            "local-member-snapshot-count": 100000, "snapshot-forced": False})
        ev(t + usec(41_000), "info", "etcdserver/server.go:2413", "saved snapshot", **{"snapshot-index": idx})
        t += sec(rng.randint(2300, 2700))
    for _ in range(76):
        slow_apply(rand_time(rng, avoid=[(T(0, 40), T(0, 50))]), rng.randint(101_000_000, 880_000_000))
    fd = sorted(rand_time(rng, avoid=[(T(0, 40), T(0, 50))]) for _ in range(18))
    for k, t in enumerate(fd):
        ns = FDSYNC_MIN_NS if k == 7 else rng.randint(1_130_000_000, 2_900_000_000)
        ev(t, "warn", "wal/wal.go:805", "slow fdatasync", took=go_dur_ns(ns), **{"expected-duration": "1s"})
    # incident 1
    ev(DEFRAG_START, "info", "v3rpc/maintenance.go:94", "starting defragment")
    ev(DEFRAG_START + usec(1400), "info", "backend/backend.go:509", "defragmenting", **{
        "path": "/var/lib/etcd/member/snap/db", "current-db-size-bytes": 2095104000, "current-db-size": "2.1 GB",
        "current-db-size-in-use-bytes": 640851968, "current-db-size-in-use": "641 MB"})
    ev(DEFRAG_END, "info", "backend/backend.go:558", "finished defragmenting directory", **{
        "path": "/var/lib/etcd/member/snap/db", "current-db-size-bytes-diff": -1454252032,
        "current-db-size-bytes": 640851968, "current-db-size": "641 MB", "current-db-size-in-use-bytes-diff": -12288,
        "current-db-size-in-use-bytes": 640839680, "current-db-size-in-use": "641 MB", "took": go_dur(DEFRAG_TOOK_US)})
    ev(DEFRAG_END + usec(300), "info", "v3rpc/maintenance.go:102", "finished defragment")
    ev(LEADER_CHANGE - usec(900), "info", "raft/raft.go:971",
       f"{ETCD_ME} [term: 11] received a MsgHeartbeat message with higher term from {ETCD_NEW_LEADER} [term: 12]")
    ev(LEADER_CHANGE - usec(800), "info", "raft/raft.go:727", f"{ETCD_ME} became follower at term 12")
    ev(LEADER_CHANGE, "info", "raft/node.go:325",
       f"raft.node: {ETCD_ME} changed leader from {ETCD_ME} to {ETCD_NEW_LEADER} at term 12")
    for _ in range(8):
        t = DEFRAG_END + usec(rng.randint(2_000, 9_000_000))
        ev(t, "warn", "etcdserver/raft.go:416",
           "leader failed to send out heartbeat on time; took too long, leader is overloaded likely from slow disk",
           **{"to": rng.choice([ETCD_NEW_LEADER, ETCD_THIRD]), "heartbeat-interval": "100ms", "expected-duration": "200ms",
              "exceeded-duration": go_dur_ns(rng.randint(1_000_000_000, 14_000_000_000))})
    for _ in range(12):
        t = rand_time(rng, DEFRAG_START + sec(7), T(0, 46, 30))
        ev(t, "warn", "etcdserver/v3_server.go:897", "timed out waiting for read index response (local node might have slow network)",
           timeout="7s")
    for _ in range(141):
        t = rand_time(rng, DEFRAG_END + usec(5000), T(0, 46, 55))
        slow_apply(t, rng.randint(1_000_000_000, 14_100_000_000))
    out.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in out) + "\n"


# ------------------------------------------------------------------ MySQL 8.0 error log on db-acct-1
def mysql_log(rng):
    out = []
    conn = [48_112]
    used = set()

    def ev(t, thread, label, code, sub, msg):
        out.append((t, f"{ts_z(t)} {thread} [{label}] [{code}] [{sub}] {msg}"))

    def conn_at(t):
        """The connection id of a session opened at `t` (ids climb, and start over after the restart)."""
        if t > READY:
            c = 8 + int((t - READY).total_seconds() * 2.7) + rng.randint(0, 3)
        else:
            c = conn[0] + int((t - START).total_seconds() * 2.7) + rng.randint(0, 3)
        while c in used:
            c += 1
        used.add(c)
        return c

    down = (ABORT - sec(1), READY + sec(1))
    dockd_pods = [f"10.244.{rng.choice([x for x in range(11, 70) if x != 7])}.{rng.randint(10, 250)}" for _ in range(58)]
    dockd_pods = sorted(set(dockd_pods))
    evicted = [f"10.244.7.{x}" for x in (31, 58, 64, 77, 102, 119)]
    users = [("dockd", None, 310), ("ledger_etl", "10.20.5.41", 118), ("grafana_ro", "10.20.3.12", 79),
             ("reporting", "10.20.9.14", 40)]
    aborted = []
    for user, host, k in users:
        for j in range(k):
            h = host or (dockd_pods[j] if j < len(dockd_pods) else rng.choice(dockd_pods))
            aborted.append((rand_time(rng, avoid=[down, (T(3, 39), T(3, 42))]), user, h,
                            rng.choice(["Got an error reading communication packets", "Got timeout reading communication packets"])))
    for j in range(ABORT_BURST_N):
        t = ABORT_BURST[0] + usec(rng.randrange(int((ABORT_BURST[1] - ABORT_BURST[0]).total_seconds() * 1e6)))
        if j == 0:
            t = ABORT_BURST[0]
        aborted.append((t, "dockd", evicted[j % len(evicted)], "Got an error reading communication packets"))
    aborted.sort()
    for t, user, host, why in aborted:
        opened = t - sec(rng.randint(30, 900))
        c = conn_at(max(opened, READY + sec(1)) if t > READY else opened)
        ev(t, c, "Note", "MY-010914", "Server",
           f"Aborted connection {c} to db: 'tdbikes' user: '{user}' host: '{host}' ({why}).")
    # failed logins: a trickle, and the reporting job's burst
    bg_deny = [("root", "10.20.3.99", "NO")] * 9 + [("grafana_ro", "10.20.3.12", "YES")] * 6 + \
        [("dockd", dockd_pods[3], "YES")] * 5
    for user, host, pw in bg_deny:
        t = rand_time(rng, avoid=[down, (T(1, 55), T(2, 35))])
        ev(t, conn_at(t), "Note", "MY-010926", "Server",
           f"Access denied for user '{user}'@'{host}' (using password: {pw})")
    span = int((DENY_LAST - DENY_FIRST).total_seconds() * 1e6)
    dts = sorted([DENY_FIRST, DENY_LAST] + [DENY_FIRST + usec(rng.randrange(span)) for _ in range(DENY_N - 2)])
    for t in dts:
        ev(t, conn_at(t), "Note", "MY-010926", "Server",
           f"Access denied for user 'reporting'@'{REPORTING_POD_IP}' (using password: YES)")
    for _ in range(296):
        t = rand_time(rng, avoid=[down])
        ev(t, conn_at(t), "Warning", "MY-013360", "Server",
           "Plugin mysql_native_password reported: ''mysql_native_password' is deprecated and will be removed in a "
           "future release. Please use caching_sha2_password instead'")
    for _ in range(12):
        t = rand_time(rng, avoid=[down])
        ev(t, conn_at(t), "Warning", "MY-010055", "Server",
           f"IP address '10.20.9.{rng.randint(60, 90)}' could not be resolved: Name or service not known")
    pc = [rng.randint(1100, 9800) for _ in range(41)]
    pc = exact_mean_fix(pc, list(range(41)), 10)
    for ms in pc:
        t = rand_time(rng, avoid=[down])
        ev(t, 0, "Note", "MY-011953", "InnoDB",
           f"Page cleaner took {ms}ms to flush {rng.randint(300, 2400)} and evict 0 pages")
    # incident 2
    ev(DISK_FULL, 61671, "ERROR", "MY-000035", "Server",
       "Disk is full writing './binlog.000412' (OS errno 28 - No space left on device). Waiting for someone to free "
       "space... Retry in 60 secs. Message reprinted in 600 secs.")
    crash = "\n".join([
        "2036-04-09T01:23:41Z UTC - mysqld got signal 6 ;",
        "Most likely, you have hit a bug, but this error can also be caused by malfunctioning hardware.",
        "BuildID[sha1]=5d3c0b6e9a1f7c24e8b9d0a1c2e3f4a5b6c7d8e9",
        "Thread pointer: 0x7f3a5c0123a0",
        "Attempting backtrace. You can use the following information to find out",
        "where mysqld died. If you see no messages after this, something went",
        "terribly wrong...",
        "stack_bottom = 7f3a9e7fbbe0 thread_stack 0x100000",
        "/usr/sbin/mysqld(my_print_stacktrace(unsigned char const*, unsigned long)+0x41) [0x55e0c1a8e3d1]",
        "/usr/sbin/mysqld(print_fatal_signal(int)+0x2a3) [0x55e0c0b1f2c3]",
        "/usr/sbin/mysqld(my_server_abort()+0x76) [0x55e0c0b1f476]",
        "/usr/sbin/mysqld(my_abort()+0xe) [0x55e0c1a8793e]",
        "/usr/sbin/mysqld(MYSQL_BIN_LOG::handle_binlog_flush_or_sync_error(THD*, bool, bool)+0x1b1) [0x55e0c1702c11]",
        "/usr/sbin/mysqld(MYSQL_BIN_LOG::ordered_commit(THD*, bool, bool)+0x4b5) [0x55e0c1705a45]",
        "/usr/sbin/mysqld(MYSQL_BIN_LOG::commit(THD*, bool)+0x59a) [0x55e0c1706f2a]",
        "/lib/x86_64-linux-gnu/libc.so.6(+0x94ac3) [0x7f3aa0894ac3]",
        "Trying to get some variables.",
        "Some pointers may be invalid and cause the dump to abort.",
        "Query (7f3a5c0f1a28): INSERT INTO ride_ledger (ride_id, user_id, dock_id, started_at, ended_at, fare_cents) VALUES (?, ?, ?, ?, ?, ?)",
        "Connection ID (thread ID): 61671",
        "Status: NOT_KILLED",
        "",
        "The manual page at http://dev.mysql.com/doc/mysql/en/crashing.html contains",
        "information that should help you find out what is causing the crash."])
    out.append((ABORT, f"{ts_z(ABORT)} 61671 [ERROR] [MY-011072] [Server] Binary logging not possible. Message: An error "
                       "occurred during flush stage of the commit. 'binlog_error_action' is set to 'ABORT_SERVER'. "
                       "Server is being stopped..\n" + crash))
    ev(RESTART_TRY, 0, "System", "MY-010116", "Server", "/usr/sbin/mysqld (mysqld 8.0.36) starting as process 30412")
    ev(RESTART_TRY + usec(16_602), 1, "System", "MY-013576", "InnoDB", "InnoDB initialization has started.")
    ev(RESTART_FAIL - usec(2_800), 1, "ERROR", "MY-012592", "InnoDB", "Operating system error number 28 in a file operation.")
    ev(RESTART_FAIL - usec(2_700), 1, "ERROR", "MY-012596", "InnoDB", "Error number 28 means 'No space left on device'")
    ev(RESTART_FAIL, 0, "ERROR", "MY-010119", "Server", "Aborting")
    ev(RESTART_FAIL + usec(531_879), 0, "System", "MY-010910", "Server",
       "/usr/sbin/mysqld: Shutdown complete (mysqld 8.0.36)  MySQL Community Server - GPL.")
    ev(MANUAL_START, 0, "System", "MY-010116", "Server", "/usr/sbin/mysqld (mysqld 8.0.36) starting as process 31877")
    ev(MANUAL_START + usec(20_118), 1, "System", "MY-013576", "InnoDB", "InnoDB initialization has started.")
    ev(MANUAL_START + usec(812_004), 1, "Note", "MY-012551", "InnoDB", "Database was not shutdown normally!")
    ev(MANUAL_START + usec(812_310), 1, "Note", "MY-012552", "InnoDB", "Starting crash recovery.")
    ev(READY - usec(5_402_331), 1, "System", "MY-013577", "InnoDB", "InnoDB initialization has ended.")
    ev(READY - usec(802_100), 0, "Warning", "MY-010068", "Server", "CA certificate ca.pem is self signed.")
    ev(READY - usec(801_500), 0, "System", "MY-013602", "Server",
       "Channel mysql_main configured to support TLS. Encrypted connections are now supported for this channel.")
    ev(READY - usec(640_220), 0, "Warning", "MY-011810", "Server",
       "Insecure configuration for --pid-file: Location '/var/run/mysqld' in the path is accessible to all OS users. "
       "Consider choosing a different directory.")
    ev(READY, 0, "System", "MY-010931", "Server", "/usr/sbin/mysqld: ready for connections. Version: '8.0.36'  socket: "
       "'/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL.")
    ev(READY + usec(4_118), 0, "System", "MY-011323", "Server",
       "X Plugin ready for connections. Bind-address: '::' port: 33060, socket: /var/run/mysqld/mysqlx.sock")
    out.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in out) + "\n"


# ------------------------------------------------------------------ Cassandra 4.1 system.log on cass-2
TOMBSTONE = [("rides.ride_history", 140), ("rides.dock_status_log", 95), ("accounts.push_tokens", 71),
             ("rides.station_events", 28)]
PEERS = ["10.20.4.11", "10.20.4.13"]


def cass_ts(t):
    return f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}"


def cassandra_log(rng):
    out = []

    def ev(t, level, thread, src, msg):
        out.append((t, f"{level:<5} [{thread}] {cass_ts(t)} {src} - {msg}"))

    young = [rng.randint(205, 480) for _ in range(150)]
    young = exact_mean_fix(young, list(range(150)), 10)
    yts = sorted(rand_time(rng) for _ in young)
    for t, ms in zip(yts, young):
        eden = rng.randint(1400, 1600) * 1048576
        old = rng.randint(3000, 3400) * 1048576
        ev(t, "INFO", "Service Thread", "GCInspector.java:294",
           f"G1 Young Generation GC in {ms}ms.  G1 Eden Space: {eden} -> 0; G1 Old Gen: {old} -> "
           f"{old + rng.randint(1, 60) * 1048576}; G1 Survivor Space: 67108864 -> {rng.choice([67108864, 83886080])};")
    for t, ms in OLD_GCS:
        ev(t, "WARN", "Service Thread", "GCInspector.java:292",
           f"G1 Old Generation GC in {ms}ms.  G1 Old Gen: {rng.randint(7600, 7900) * 1048576} -> "
           f"{rng.randint(5600, 6100) * 1048576};")
    for k in range(62):
        t = rand_time(rng)
        tbl = rng.choice(["ride_events", "ride_history", "dock_status_log"])
        n = rng.randint(3, 6)
        a = rng.randint(120, 260)
        b = a - rng.randint(5, 20)
        ms = rng.randint(4000, 30000)
        ev(t, "INFO", f"CompactionExecutor:{rng.randint(1, 8)}", "CompactionTask.java:253",
           f"Compacted ({uuid4(rng)}) {n} sstables to [/var/lib/cassandra/data/rides/{tbl}-6f1c2a40e3b711eeb6a1a7c9d2e3f405/"
           f"nb-{rng.randint(1000, 9999)}-big,] to level=0.  {a}.{rng.randint(100, 999)}MiB to {b}.{rng.randint(100, 999)}MiB "
           f"(~{b * 100 // a}% of original) in {ms:,}ms.  Read Throughput = {a * 1000 / ms:.3f}MiB/s, Write Throughput = "
           f"{b * 1000 / ms:.3f}MiB/s, Row Throughput = ~{rng.randint(10000, 60000):,}/s.  {rng.randint(800, 2000):,} total "
           f"partitions merged to {rng.randint(700, 800):,}.  Partition merge counts were {{1:{rng.randint(600, 700)}, "
           f"2:{rng.randint(50, 120)}, }}. Time spent writing keys = {ms - rng.randint(100, 900):,}ms")
    for k in range(80):
        t = rand_time(rng)
        tbl = rng.choice(["ride_events", "dock_status_log", "ride_history"])
        mib = rng.randint(60, 130)
        ev(t, "INFO", f"NativePoolCleaner", "ColumnFamilyStore.java:1011",
           f"Enqueuing flush of rides.{tbl}, Reason: MEMTABLE_LIMIT, Usage: {mib}.{rng.randint(100, 999)}MiB "
           f"({rng.randint(10, 14)}%) on-heap, 0.000KiB (0%) off-heap")
        ev(t + usec(rng.randint(2000, 9000)), "INFO", f"PerDiskMemtableFlushWriter_0:{rng.randint(1, 60)}", "Flushing.java:153",
           f"Writing Memtable-{tbl}@{rng.randint(10 ** 8, 10 ** 9)}({mib - 2}.{rng.randint(100, 999)}MiB serialized bytes, "
           f"{rng.randint(100000, 900000)} ops, {rng.randint(10, 14)}%/0% of on/off-heap limit), flushed range = [null, null)")
    for tbl, k in TOMBSTONE:
        ks, name = tbl.split(".")
        col = {"ride_history": "user_id", "dock_status_log": "dock_id", "push_tokens": "user_id",
               "station_events": "station_id"}[name]
        for _ in range(k):
            t = rand_time(rng)
            live = rng.choice([100, 500, 1000, 5000])
            ev(t, "WARN", f"ReadStage-{rng.randint(1, 16)}", "ReadCommand.java:617",
               f"Read {rng.randint(1, live)} live rows and {rng.randint(1001, 48000)} tombstone cells for query SELECT * "
               f"FROM {tbl} WHERE {col} = {uuid4(rng)} LIMIT {live} ALLOW FILTERING; token "
               f"{rng.randint(-9 * 10 ** 18, 9 * 10 ** 18)} (see tombstone_warn_threshold)")
    # incident 3
    ev(REPAIR_START, "INFO", "Repair-Task-2", "RepairRunnable.java:236",
       "Starting repair command #7 (5e0b2a30-f4c1-11fa-9b1e-7d3c4a5b6e7f), repairing keyspace rides with repair options "
       "(parallelism: parallel, primary range: false, incremental: false, job threads: 1, ColumnFamilies: [], "
       "dataCenters: [], hosts: [], previewKind: NONE, # of ranges: 768, pull repair: false, force repair: false, "
       "optimise streams: false, ignore unreplicated keyspaces: false, repairPaxos: true, paxosOnly: false)")
    ev(REPAIR_START + usec(88_000), "INFO", "Repair#7:1", "RepairSession.java:220",
       "[repair #62a1c7e0-f4c1-11fa-9b1e-7d3c4a5b6e7f] new session: will sync /10.20.4.12:7000, /10.20.4.11:7000, "
       "/10.20.4.13:7000 on range [(-9223372036854775808,-9199354839491207168]] for rides.[ride_history, ride_events, "
       "dock_status_log]")
    for t, ms in OLD_GCS:
        for p in PEERS:
            d = t + usec(rng.randint(50_000, 900_000))
            ev(d, "INFO", "GossipTasks:1", "Gossiper.java:1102", f"InetAddress /{p}:7000 is now DOWN")
            ev(d + usec(rng.randint(1_500_000, 4_000_000)), "INFO", "GossipStage:1", "Gossiper.java:1334",
               f"InetAddress /{p}:7000 is now UP")
        ev(t + usec(rng.randint(3_000_000, 4_900_000)), "INFO", "ScheduledTasks:1", "MessagingMetrics.java:206",
           f"MUTATION_REQ messages were dropped in last 5000 ms: 0 internal and {rng.randint(40, 900)} cross node. Mean "
           f"internal dropped latency: 0 ms and Mean cross-node dropped latency: {ms + rng.randint(100, 900)} ms")
        ev(t + usec(rng.randint(3_000_000, 4_900_000)), "INFO", "ScheduledTasks:1", "MessagingMetrics.java:206",
           f"READ_REQ messages were dropped in last 5000 ms: {rng.randint(10, 200)} internal and 0 cross node. Mean "
           f"internal dropped latency: {ms + rng.randint(100, 900)} ms and Mean cross-node dropped latency: 0 ms")
    ev(REPAIR_ABORT, "INFO", "RMI TCP Connection(2214)-127.0.0.1", "ActiveRepairService.java:812",
       "Terminating all repair sessions")
    ev(REPAIR_ABORT + usec(402_551), "ERROR", "Repair#7:1", "RepairRunnable.java:178",
       "Repair #7 5e0b2a30-f4c1-11fa-9b1e-7d3c4a5b6e7f failed:\n"
       "java.lang.RuntimeException: Repair job has failed with the error message: Repair command #7 failed with error "
       "Repair session 62a1c7e0-f4c1-11fa-9b1e-7d3c4a5b6e7f for range [(-9223372036854775808,-9199354839491207168]] "
       "failed with error Terminate session is called. Check the logs on the repair participants for further details\n"
       "\tat org.apache.cassandra.repair.RepairRunnable.notifyError(RepairRunnable.java:179)\n"
       "\tat org.apache.cassandra.repair.RepairRunnable.run(RepairRunnable.java:251)\n"
       "\tat org.apache.cassandra.concurrent.FutureTask$1.call(FutureTask.java:96)\n"
       "\tat java.base/java.lang.Thread.run(Thread.java:840)")
    for _ in range(30):
        t = rand_time(rng)
        ev(t, "INFO", "OptionalTasks:1", "HintsService.java:219",
           f"Deleted hint file {uuid4(rng)}-{rng.randint(10 ** 12, 10 ** 13)}-2.hints")
    out.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in out) + "\n"


# ------------------------------------------------------------------ Fluentd 1.16 on logship-1
FLUENT_OUTS = ["out_es_containers", "out_es_journal", "out_es_varnish"]
BACKTRACE = [
    "/usr/lib/ruby/gems/3.2.0/gems/fluent-plugin-elasticsearch-5.4.3/lib/fluent/plugin/out_elasticsearch.rb:1150:in `rescue in send_bulk'",
    "/usr/lib/ruby/gems/3.2.0/gems/fluent-plugin-elasticsearch-5.4.3/lib/fluent/plugin/out_elasticsearch.rb:1112:in `send_bulk'",
    "/usr/lib/ruby/gems/3.2.0/gems/fluent-plugin-elasticsearch-5.4.3/lib/fluent/plugin/out_elasticsearch.rb:886:in `block in write'",
    "/usr/lib/ruby/gems/3.2.0/gems/fluentd-1.16.5/lib/fluent/plugin/output.rb:1225:in `try_flush'",
    "/usr/lib/ruby/gems/3.2.0/gems/fluentd-1.16.5/lib/fluent/plugin/output.rb:1538:in `flush_thread_run'",
    "/usr/lib/ruby/gems/3.2.0/gems/fluentd-1.16.5/lib/fluent/plugin_helper/thread.rb:78:in `block in thread_create'"]


def fluent_ts(t):
    return f"{t:%Y-%m-%d %H:%M:%S} +0000"


def fluentd_log(rng):
    out = []

    def ev(t, level, msg, plugin=None, worker=True):
        head = f"{fluent_ts(t)} [{level}]: " + ("#0 " if worker else "") + (f"[{plugin}] " if plugin else "")
        out.append((t, head + msg))

    ev(T(0, 0, 0, 412), "info", "#0 fluentd worker is now running worker=0", worker=False)
    for p in FLUENT_OUTS:
        ev(T(0, 0, 1, 100), "info", 'Connection opened to Elasticsearch cluster => {:host=>"es-logs.thistledown.internal", '
           ':port=>9200, :scheme=>"http"}', p)
    for _ in range(38):
        t = rand_time(rng, avoid=[(T(3, 38), T(3, 55))])
        p = rng.choice(FLUENT_OUTS)
        ev(t, "warn", f"buffer flush took longer time than slow_flush_log_threshold: elapsed_time="
           f"{rng.randint(20, 38)}.{rng.randint(10 ** 8, 10 ** 9 - 1)} slow_flush_log_threshold=20.0 plugin_id=\"{p}\"", p)
    for _ in range(152):
        t = rand_time(rng)
        line = rng.choice(["-- upstream connect timeout, retrying", "<<truncated 4096 bytes>>", "\\x16\\x03\\x01\\x02\\x00"])
        ev(t, "warn", f'dump an error event: error_class=Fluent::Plugin::Parser::ParserError error="pattern not matched '
           f'with data \'{line}\'" location=nil tag="varnish.access" time={fluent_ts(t)} record={{"message"=>"{line}"}}')
    for _ in range(23):
        t = rand_time(rng)
        ev(t, "info", f"following tail of /var/log/journal-export/cache-{rng.randint(1, 2)}.json", "in_tail_journal")
    # incident 5: each output retries with exponential backoff (1 s doubling, capped at 30 s) until ES is back
    fails = []
    for k, p in enumerate(FLUENT_OUTS):
        t = FLUENT_FIRST if k == 0 else FLUENT_FIRST + sec(rng.randint(1, 4))
        n = 0
        while t < FLUENT_OK:
            wait = min(2 ** n, 30) * (0.875 + 0.25 * rng.random())
            nxt = t + timedelta(seconds=wait)
            fails.append((t, p, n, nxt))
            n += 1
            t = nxt.replace(microsecond=0) + sec(1)
        ok = FLUENT_OK if k == 0 else FLUENT_OK + sec(rng.randint(1, 20))
        ev(ok, "warn", f'retry succeeded. chunk_id="{rng.getrandbits(128):032x}"', p)
    seen = set()
    for t, p, n, nxt in fails:
        ev(t, "warn", f"failed to flush the buffer. retry_times={n} next_retry_time={fluent_ts(nxt)} "
           f'chunk="{rng.getrandbits(128):032x}" error_class=Fluent::Plugin::ElasticsearchOutput::RecoverableRequestFailure '
           f'error="could not push logs to Elasticsearch cluster ({{:host=>\\"es-logs.thistledown.internal\\", '
           f':port=>9200, :scheme=>\\"http\\"}}): Connection refused - connect(2) for 10.20.6.31:9200 (Errno::ECONNREFUSED)"', p)
        if p in seen:
            out.append((t + usec(1), f"{fluent_ts(t)} [warn]: #0 suppressed same stacktrace"))
        else:
            seen.add(p)
            out.append((t + usec(1), "\n".join(f"  {fluent_ts(t)} [warn]: #0 {b}" for b in BACKTRACE)))
        if n in (3, 9):
            ev(t, "warn", "Could not communicate to Elasticsearch, resetting connection and trying again. Connection "
               "refused - connect(2) for 10.20.6.31:9200 (Errno::ECONNREFUSED)", p)
    for _ in range(16):
        t = rand_time(rng, T(3, 47), T(3, 52))
        ev(t, "warn", "failed to write data into buffer by buffer overflow action=:block", "out_es_containers")
    out.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in out) + "\n"


# ------------------------------------------------------------------ syslog (RFC 3164) of cache-1 and cache-2
CONNTRACK_N = 143
CONNTRACK = (T(0, 12, 4), T(0, 26, 51))


def sl_ts(t):
    return f"{MONTH} {t.day:>2d} {t:%H:%M:%S}"


def syslog_log(rng):
    out = []

    def ev(t, host, prog, msg):
        out.append((t, f"{sl_ts(t)} {host} {prog}: {msg}"))

    for host, vpid in (("cache-1", 812), ("cache-2", 806)):
        t = T(0, 0, 1) + usec(rng.randint(0, 900_000))
        while t < END:
            pid = rng.randint(20000, 60000)
            ev(t, host, f"CRON[{pid}]", "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)")
            ev(t, host, f"CRON[{pid + 1}]", "(root) CMD (/usr/local/sbin/varnish-metrics.sh >/dev/null 2>&1)")
            ev(t + sec(1), host, f"CRON[{pid}]", "pam_unix(cron:session): session closed for user root")
            t += sec(300)
        t = T(0, 0, 5) + usec(rng.randint(0, 900_000))
        while t < END:
            ev(t, host, "systemd[1]", "Starting sysstat-collect.service - system activity accounting tool...")
            ev(t + usec(80_000), host, "systemd[1]", "sysstat-collect.service: Deactivated successfully.")
            ev(t + usec(81_000), host, "systemd[1]", "Finished sysstat-collect.service - system activity accounting tool.")
            t += sec(600)
        for _ in range(5):
            t = rand_time(rng)
            ev(t, host, f"chronyd[{rng.choice([640, 655])}]", "Selected source 10.20.0.2 (ntp1.thistledown.internal)")
    # unrelated: cache-2's conntrack table fills for a quarter of an hour
    span = int((CONNTRACK[1] - CONNTRACK[0]).total_seconds() * 1e6)
    ct = sorted([CONNTRACK[0], CONNTRACK[1]] + [CONNTRACK[0] + usec(rng.randrange(span)) for _ in range(CONNTRACK_N - 2)])
    up = 8211.0
    for k, t in enumerate(ct):
        up_t = up + (t - T(0, 12)).total_seconds()
        ev(t, "cache-2", "kernel", f"[{up_t:.6f}] nf_conntrack: nf_conntrack: table full, dropping packet")
        if k % 11 == 5:
            ev(t + usec(2), "cache-2", "kernel", f"[{up_t + 0.000004:.6f}] net_ratelimit: {rng.randint(200, 2400)} callbacks suppressed")
    # the ban
    ev(BAN, "cache-1", "sudo", "opsadmin : TTY=pts/1 ; PWD=/home/opsadmin ; USER=root ; COMMAND=/usr/bin/varnishadm ban "
       "req.url ~ ^/v2/stations")
    ev(BAN, "cache-1", "sudo", "pam_unix(sudo:session): session opened for user root(uid=0) by opsadmin(uid=1001)")
    ev(BAN + sec(1), "cache-1", "sudo", "pam_unix(sudo:session): session closed for user root")
    # incident 4
    v = "varnishd[812]"
    ev(PANIC, "cache-1", v, "Child (24117) died signal=6")
    ev(PANIC, "cache-1", v, "Child (24117) Panic at: Wed, 09 Apr 2036 03:11:22 GMT")
    ev(PANIC, "cache-1", v, "Assert error in VBO_ReleaseBusyObj(), cache/cache_busyobj.c line 195:")
    ev(PANIC, "cache-1", v, "  Condition((bo->magic) == 0x23b95567) not true.")
    ev(PANIC, "cache-1", v, "version = varnish-7.5.0 revision 1ac1c7d2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8, vrt api = 19.0")
    ev(PANIC, "cache-1", v, "ident = Linux,6.8.0-52-generic,x86_64,-junix,-sdefault,-sdefault,-hcritbit,epoll")
    ev(CHK_RET1, "cache-1", v, "Child cleanup complete")
    ev(CHK_RET1, "cache-1", "Keepalived_vrrp[1021]", "Script `chk_varnish` now returning 1")
    ev(FAULT, "cache-1", "Keepalived_vrrp[1021]", "VRRP_Script(chk_varnish) failed (exited with status 1)")
    ev(FAULT, "cache-1", "Keepalived_vrrp[1021]", "(VI_EDGE) Entering FAULT STATE")
    ev(C2_MASTER, "cache-2", "Keepalived_vrrp[998]", "(VI_EDGE) Entering MASTER STATE")
    ev(CHILD_START, "cache-1", v, "Child (25990) Started")
    ev(CHILD_START + sec(1), "cache-1", v, "Child (25990) said Child starts")
    ev(CHK_OK, "cache-1", "Keepalived_vrrp[1021]", "VRRP_Script(chk_varnish) succeeded")
    ev(CHK_OK, "cache-1", "Keepalived_vrrp[1021]", "(VI_EDGE) Entering BACKUP STATE")
    ev(C1_MASTER, "cache-1", "Keepalived_vrrp[1021]", "(VI_EDGE) Entering MASTER STATE")
    ev(C1_MASTER, "cache-2", "Keepalived_vrrp[998]",
       "(VI_EDGE) Master received advert from 10.20.1.11 with higher priority 150, ours 100")
    ev(C1_MASTER, "cache-2", "Keepalived_vrrp[998]", "(VI_EDGE) Entering BACKUP STATE")
    out.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in out) + "\n"
