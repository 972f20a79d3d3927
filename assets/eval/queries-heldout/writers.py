"""Writers of the held-out query set's web and application logs (Tidewater Freight, a
logistics platform, 2027-03-09), seeded. Planted figures are named in the comments; the
cases' truth is parsed back from the written text by `truth.py`.
"""

import json
from datetime import datetime, timedelta, timezone

DAY = datetime(2027, 3, 9, tzinfo=timezone.utc)


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def at(hms):
    return DAY + timedelta(seconds=secs(hms))


def rtime(rng, a, b):
    return DAY + timedelta(microseconds=int(rng.uniform(secs(a), secs(b)) * 1e6))


def in_minute(rng, hhmm):
    return rtime(rng, hhmm + ":00", hhmm + ":59.999")


def avoid(rng, a, b, gaps):
    """A uniform time in [a, b) outside every [lo, hi) of `gaps`."""
    while True:
        t = rtime(rng, a, b)
        if not any(at(lo) <= t < at(hi) for lo, hi in gaps):
            return t


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def syslog_ts(t):
    return f"{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')}"


def sort_join(ev):
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)


def spread(rng, total, n, lo, hi):
    counts = [rng.randrange(lo, hi + 1) for _ in range(n)]
    while sum(counts) != total:
        i = rng.randrange(n)
        step = 1 if sum(counts) < total else -1
        if lo <= counts[i] + step <= hi:
            counts[i] += step
    return counts


def ips(rng, n, exclude, firsts=(5, 24, 37, 49, 63, 78, 86, 95, 102, 118, 136, 154, 178, 190, 201)):
    out, seen = [], set(exclude)
    while len(out) < n:
        ip = f"{rng.choice(firsts)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        if ip not in seen:
            seen.add(ip)
            out.append(ip)
    return out


# ---------------------------------------------------------------------------------------
# edge-access.log: nginx combined, 24,000 requests 03:00:00-04:59:59 on edge-lb-2. Planted:
# 502 x258 (241 in 04:11-04:17, peak minute 04:14 x63; 17 in 03:20-03:40), 504 x88 (first
# 04:12:03, all on /api/v3/shipments/quote), 500 x37, 503 x19; /api/v3/tracking/batch the
# URL with the most 5xx; 198.51.100.61 rate-limited (429) 512 times; 404s never in
# [04:43, 04:47) so "the last 15 minutes" is exact; one 71,302,114-byte export.
AGENTS = ["TidewaterDriver/2.14 (Android 13)", "TidewaterDriver/2.14 (iOS 16.6)", "Mozilla/5.0 (X11; Linux x86_64)",
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 13_2)", "Go-http-client/1.1", "PartnerSync/0.9"]


def edge_access(rng):
    pool = ips(rng, 1400, {"198.51.100.61", "203.0.113.19"})
    weights = [1.0 / (i + 20) ** 0.7 for i in range(len(pool))]
    ev = []

    def add(t, ip, m, p, s, size, ua=None, ref="-"):
        ev.append((t, ip, m, p, s, size, ref, ua or rng.choices(AGENTS, [30, 20, 10, 8, 5, 2])[0]))

    def pick():
        return rng.choices(pool, weights)[0]

    per_min = {"04:11": 9, "04:12": 22, "04:13": 41, "04:14": 63, "04:15": 54, "04:16": 38, "04:17": 14}
    paths = ["/api/v3/tracking/batch"] * 150 + ["/api/v3/tracking/{id}"] * 60 + ["/api/v3/depots"] * 31
    rng.shuffle(paths)
    k = 0
    for minute, c in per_min.items():
        for _ in range(c):
            p = paths[k].replace("{id}", f"TW{rng.randrange(10**8, 10**9)}")
            k += 1
            add(in_minute(rng, minute), pick(), "POST" if p.endswith("batch") else "GET", p, 502, 150)
    for _ in range(17):
        add(rtime(rng, "03:20:00", "03:40:00"), pick(), "GET", "/api/v3/depots", 502, 150)
    add(at("04:12:03"), pick(), "POST", "/api/v3/shipments/quote", 504, 160)
    for _ in range(87):
        add(rtime(rng, "04:12:04", "04:18:59"), pick(), "POST", "/api/v3/shipments/quote", 504, 160)
    for _ in range(37):
        add(rtime(rng, "03:00:10", "04:59:50"), pick(), "POST", rng.choice(["/api/v3/tracking/batch", "/api/v3/labels"]), 500, 190)
    for _ in range(19):
        add(rtime(rng, "03:00:10", "04:59:50"), pick(), "GET", "/api/v3/tracking/batch/status", 503, 197)
    for _ in range(512):
        add(rtime(rng, "03:30:00", "04:40:00"), "198.51.100.61", "POST", "/api/v3/tracking/batch", 429, 64, "PartnerSync/0.9")
    add(at("03:47:29"), "203.0.113.19", "GET", "/exports/manifests-2027-03.csv.gz", 200, 71302114, "curl/7.88.1")
    add(at("03:00:00"), pick(), "GET", "/", 200, 5120)
    add(at("04:59:59"), pick(), "GET", "/healthz", 200, 2)
    while len(ev) < 24000:
        t = rtime(rng, "03:00:01", "04:59:58")
        m, p, s, size = normal_request(rng, t)
        ref = "-" if rng.random() < 0.8 else "https://track.tidewater.example/"
        add(t, pick(), m, p, s, size, ref=ref)
    ev.sort(key=lambda e: e[0])
    out = []
    for t, ip, m, p, s, size, ref, ua in ev:
        out.append(f'{ip} - - [{t.strftime("%d/%b/%Y:%H:%M:%S +0000")}] "{m} {p} HTTP/1.1" {s} {size} "{ref}" "{ua}"')
    return "\n".join(out) + "\n"


def normal_request(rng, t):
    r = rng.random()
    if r < 0.35:
        m, p = "GET", f"/api/v3/tracking/TW{rng.randrange(10**8, 10**9)}"
    elif r < 0.5:
        m, p = "POST", "/api/v3/tracking/batch"
    elif r < 0.6:
        m, p = "GET", "/api/v3/depots"
    elif r < 0.7:
        m, p = "POST", "/api/v3/shipments/quote"
    elif r < 0.8:
        m, p = "GET", f"/assets/{rng.choice(['app.js', 'app.css', 'logo.svg', 'map-tiles.js'])}"
    else:
        m, p = "GET", rng.choice(["/", "/track", "/login", "/favicon.ico"])
    q = rng.random()
    no404 = at("04:43:00") <= t < at("04:47:00")
    if q < 0.03 and not no404:
        return m, p, 404, 153
    if q < 0.05 and p.startswith("/assets"):
        return m, p, 304, 0
    if q < 0.055:
        return m, p, 401, 71
    return m, p, 201 if m == "POST" and "quote" not in p else 200, rng.randrange(90, 38000)


# ---------------------------------------------------------------------------------------
# quotes-access.log: nginx with "rt=... urt=..." key=value extras, 1,800 requests 04:00-05:00.
# Planted: rt p90 = 0.612 (a plateau over ranks 88%-92%), /v1/quote/bulk the slowest (max
# 9.406, highest mean), 46 requests over 2 s, the urt mean of /v1/labels a whole number of ms.
def quotes_access(rng):
    n = 1800
    reqs = []
    for _ in range(30):
        reqs.append({"p": "/v1/quote/bulk", "m": "POST"})
    for _ in range(240):
        reqs.append({"p": "/v1/labels", "m": "POST"})
    while len(reqs) < n:
        reqs.append(rng.choice([{"p": "/v1/quote", "m": "POST"}, {"p": "/v1/rates", "m": "GET"},
                                {"p": f"/v1/quote/Q{rng.randrange(10**6, 10**7)}", "m": "GET"}]))
    # rt in ms: low 88% (< 612), plateau 4% (= 612), mid 5% (613..1999), high 3% (> 2000).
    low = [rng.randrange(3, 612) for _ in range(1584)]
    plateau = [612] * 72
    mid = [rng.randrange(613, 1980) for _ in range(90)]
    bulk = [rng.randrange(2100, 9000) for _ in range(29)] + [9406]
    rest_high = [rng.randrange(2050, 4400) for _ in range(16)] + [rng.randrange(1500, 1980) for _ in range(8)]
    assert len(low) + len(plateau) + len(mid) + len(bulk) + len(rest_high) == n
    for r, v in zip([r for r in reqs if r["p"] == "/v1/quote/bulk"], bulk):
        r["rt"] = v
    others = [r for r in reqs if "rt" not in r and r["p"] != "/v1/labels"]
    for r, v in zip(rng.sample(others, len(rest_high)), rest_high):
        r["rt"] = v
    pool = low + plateau + mid
    rng.shuffle(pool)
    for r in reqs:
        if "rt" not in r:
            r["rt"] = pool.pop()
    for r in reqs:
        r["urt"] = max(1, r["rt"] - rng.randrange(0, 4))
    labels = [r for r in reqs if r["p"] == "/v1/labels"]
    rem = sum(r["urt"] for r in labels) % len(labels)
    fix = next(r for r in labels if r["rt"] < 612 and r["urt"] - rem >= 1 and r["rt"] - rem >= 3)
    fix["urt"] -= rem
    fix["rt"] -= rem
    times = sorted(rtime(rng, "04:00:00", "04:59:59") for _ in range(n))
    rng.shuffle(reqs)
    out = []
    for t, r in zip(times, reqs):
        ip = f"10.8.{rng.randrange(0, 4)}.{rng.randrange(2, 250)}"
        st = 200 if rng.random() > 0.02 else 422
        out.append(f'{ip} - - [{t.strftime("%d/%b/%Y:%H:%M:%S +0000")}] "{r["m"]} {r["p"]} HTTP/1.1" {st} '
                   f'{rng.randrange(200, 4000)} rt={r["rt"] / 1000:.3f} urt={r["urt"] / 1000:.3f}')
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# dispatch.jsonl: ECS-like JSON lines (log.level, event.duration_ms, driver.depot ...), 1,000
# lines 03:00-05:00. Planted: log.level error x93 (GeocodeTimeout x58, RouteInfeasible x35);
# depot ROT-2 behind the most failures (31); the longest event.duration_ms 27,114
# (driver drv-5170); 212 distinct driver.id.
def dispatch_jsonl(rng):
    depots = ["ROT-1", "ROT-2", "ANR-1", "HAM-3", "FXT-1"]
    drivers = [f"drv-{x}" for x in rng.sample(range(1000, 9999), 211) if x != 5170]
    ev = []

    def line(t, level, msg, duration, outcome, driver, depot, err=None):
        d = {"@timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}+00:00",
             "log": {"level": level, "logger": "dispatch.router"}, "message": msg,
             "service": {"name": "dispatch", "version": "7.3.0"},
             "event": {"duration_ms": duration, "outcome": outcome},
             "driver": {"id": driver, "depot": depot}}
        if err:
            d["error"] = {"type": err, "message": msg}
        ev.append((t, json.dumps(d)))

    rest = [d for d in depots if d != "ROT-2"]
    fail_depots = ["ROT-2"] * 31 + [d for d, c in zip(rest, spread(rng, 62, len(rest), 10, 20)) for _ in range(c)]
    rng.shuffle(fail_depots)
    for i, dep in enumerate(fail_depots):
        err = "GeocodeTimeout" if i < 58 else "RouteInfeasible"
        t = rtime(rng, "04:10:00", "04:19:59") if err == "GeocodeTimeout" and i < 40 else rtime(rng, "03:00:05", "04:59:55")
        msg = "geocoder did not answer within 5s" if err == "GeocodeTimeout" else "no feasible route for stop sequence"
        line(t, "error", msg, rng.randrange(5000, 5100) if err == "GeocodeTimeout" else rng.randrange(80, 900),
             "failure", rng.choice(drivers), dep, err)
    line(at("03:41:18.226"), "info", "route planned", 27114, "success", "drv-5170", "HAM-3")
    for _ in range(80):
        line(rtime(rng, "03:00:05", "04:59:55"), "warn", "route recomputed after traffic update",
             rng.randrange(900, 9000), "success", rng.choice(drivers), rng.choice(depots))
    while len(ev) < 1000:
        line(rtime(rng, "03:00:05", "04:59:55"), "info", "route planned", rng.randrange(40, 4000),
             "success", rng.choice(drivers), rng.choice(depots))
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# fleet-telemetry.log: logfmt (lvl=, caller=), 900 lines 03:00-05:00. Planted: lvl=error x39;
# "gps jump" warnings most often from vehicle TRK-4412 (17); the largest speed_kmh 287.
def fleet_logfmt(rng):
    vehicles = [f"TRK-{x}" for x in rng.sample(range(1000, 9999), 80) if x != 4412]
    ev = []

    def line(t, lvl, caller, msg, **kv):
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
        extra = " ".join(f"{k}={v}" for k, v in kv.items())
        ev.append((t, f'ts={ts} lvl={lvl} caller={caller} msg="{msg}" {extra}'))

    def t_any():
        return rtime(rng, "03:00:02", "04:59:58")

    for _ in range(39):
        line(t_any(), "error", "sink.go:141", "write to timeseries failed", vehicle=rng.choice(vehicles),
             err='"i/o timeout"')
    jumps = ["TRK-4412"] * 17 + [v for v in rng.sample(vehicles, 20) for _ in range(rng.randrange(1, 6))]
    for v in jumps:
        line(t_any(), "warn", "ingest.go:88", "gps jump", vehicle=v, speed_kmh=rng.randrange(160, 260),
             jump_m=rng.randrange(800, 9000))
    line(at("04:02:51.377"), "warn", "ingest.go:88", "gps jump", vehicle="TRK-2093", speed_kmh=287, jump_m=15230)
    while len(ev) < 900:
        line(t_any(), "info", "ingest.go:61", "ping stored", vehicle=rng.choice(vehicles),
             speed_kmh=rng.randrange(0, 120), lag_ms=rng.randrange(20, 3000))
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# tracking-ingest.log: log4j "[%d] %-5p [%t] %c:%L - %m" with stack traces, 03:00-05:00.
# Planted events: com.mongodb.MongoTimeoutException x44 (the wrapper message names it too,
# two lines each), java.lang.StackOverflowError x6 (first 04:13:37), IllegalStateException
# x21; 71 ERROR events, the most from com.tidewater.tracking.PingRepository (44); the JVM
# (pid 7419) is killed by the kernel at 04:13:52.
def tracking_log4j(rng):
    events = []

    def ev(t, level, thread, logger, line_no, msg, trace=()):
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        events.append((t, [f"[{ts}] {level:<5} [{thread}] {logger}:{line_no} - {msg}", *trace]))

    def t_any():
        return avoid(rng, "03:00:05", "04:59:55", [("04:13:30", "04:15:00")])

    frames = ["\tat com.tidewater.tracking.IngestWorker.run(IngestWorker.java:97)",
              "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)",
              "\tat java.base/java.lang.Thread.run(Thread.java:840)"]
    for _ in range(44):
        ev(t_any(), "ERROR", f"pool-3-thread-{rng.randrange(1, 9)}", "com.tidewater.tracking.PingRepository", 88,
           "Failed to persist ping batch: com.mongodb.MongoTimeoutException: Timed out after 30000 ms while "
           "waiting for a server that matches WritableServerSelector",
           ["com.mongodb.MongoTimeoutException: Timed out after 30000 ms while waiting for a server that matches "
            "WritableServerSelector",
            "\tat com.mongodb.internal.connection.BaseCluster.createTimeoutException(BaseCluster.java:380)",
            "\tat com.tidewater.tracking.PingRepository.saveAll(PingRepository.java:88)", *frames])
    for t in [at("04:13:37.018")] + [rtime(rng, "04:13:38", "04:13:50") for _ in range(5)]:
        ev(t, "ERROR", "pool-3-thread-4", "com.tidewater.tracking.RouteMatcher", 140, "Unexpected error in matcher",
           ["java.lang.StackOverflowError", *["\tat com.tidewater.tracking.RouteMatcher.walk(RouteMatcher.java:151)"] * 6])
    for _ in range(21):
        ev(t_any(), "ERROR", f"pool-3-thread-{rng.randrange(1, 9)}", "com.tidewater.tracking.IngestWorker", 97,
           "Batch rejected", ["java.lang.IllegalStateException: ping batch out of order", *frames])
    for _ in range(60):
        ev(t_any(), "WARN", "main", "com.tidewater.tracking.LagMonitor", 33, f"consumer lag {rng.randrange(500, 9000)} msgs")
    while len(events) < 600:
        ev(t_any(), "INFO", f"pool-3-thread-{rng.randrange(1, 9)}", "com.tidewater.tracking.IngestWorker", 61,
           f"stored {rng.randrange(1, 500)} pings in {rng.randrange(3, 400)} ms")
    events.sort(key=lambda e: e[0])
    return "".join("\n".join(lines) + "\n" for _, lines in events)


# ---------------------------------------------------------------------------------------
# label-printer.log: generic "ISO-timestamp LEVEL message", 900 lines 03:00:00-04:58:00.
# Planted: ERROR x52, the most frequent "printer ZB-07 reported: ribbon out" (23); 19 ERROR
# in 04:10-04:19 and none in [04:07, 04:10) or [04:20, 04:23); WARN x14 in the last 5 minutes
# (04:53:30-04:57:59), none in [04:50, 04:53:30).
def label_printer(rng):
    ev = []

    def line(t, level, msg):
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
        ev.append((t, f"{ts} {level} {msg}"))

    gaps = [("04:07:00", "04:23:00"), ("04:50:00", "04:58:00")]
    kinds = [("ribbon", True)] * 9 + [("jam", True)] * 6 + [("offline", True)] * 4 \
        + [("ribbon", False)] * 14 + [("jam", False)] * 11 + [("offline", False)] * 8
    for kind, window in kinds:
        t = rtime(rng, "04:10:00", "04:19:59") if window else avoid(rng, "03:00:05", "04:49:59", gaps)
        msg = {"ribbon": "printer ZB-07 reported: ribbon out",
               "jam": f"printer ZB-{rng.choice(['03', '11'])} paper jam at label {rng.randrange(10**5, 10**6)}",
               "offline": f"printer ZB-{rng.choice(['02', '05'])} offline, requeued {rng.randrange(2, 40)} jobs"}[kind]
        line(t, "ERROR", msg)
    for _ in range(14):
        line(rtime(rng, "04:53:30", "04:57:59"), "WARN", f"spool queue depth {rng.randrange(200, 900)}")
    for _ in range(70):
        line(avoid(rng, "03:00:05", "04:49:59", gaps[1:]), "WARN", f"spool queue depth {rng.randrange(50, 200)}")
    line(at("04:58:00.000"), "INFO", "printed label 990121 on ZB-01")
    while len(ev) < 900:
        line(rtime(rng, "03:00:05", "04:57:59"), "INFO", f"printed label {rng.randrange(10**5, 10**6)} on ZB-0{rng.randrange(1, 9)}")
    return sort_join(ev)
