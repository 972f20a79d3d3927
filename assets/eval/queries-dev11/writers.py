"""Writes the `queries-dev11` fixtures: one night (Thu 2035-02-08, 00:30-04:00 UTC) at Halvard
Greens, a vertical-farm grower. The cross-file schedule (`world()`) is drawn once from
`PLAN_SEED`; each writer only formats it, so the three logs agree with each other.

- `other_vhosts_access.log`: Apache httpd 2.4 `vhost_combined` with `%D` appended
  (`%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i" %D`), two virtual hosts,
  written in completion order (`%t` is the request's start).
- `irrigod.log`: a Go service's zap production JSON (`level`, `ts` epoch seconds float,
  `logger`, `caller`, `msg`, fields, `stacktrace` on errors).
- `crate-allocator.log`: a Spring Boot / Spring Kafka service's Logback log,
  `%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n`, stack traces with
  `Caused by:` chains.
"""

import calendar
import functools
import json
import random
from datetime import datetime, timedelta

PLAN_SEED = 20350208
DAY = datetime(2035, 2, 8)
EPOCH_DAY = calendar.timegm(DAY.timetuple())
START, END = 30 * 60, 4 * 3600  # seconds after midnight

SHOP = "shop.halvardgreens.example"
GROW = "grow.halvardgreens.example"

# planted figures (truth.py re-derives every one of them from the written files)
RES_FAIL_FIRST = 1 * 3600 + 41 * 60 + 7      # first 503 of POST /api/alloc/reserve (%t)
RES_FAIL_LAST = 1 * 3600 + 57 * 60 + 44      # last one
RES_FAILS = 143
ROLLUP_START = 1 * 3600 + 40 * 60 + 2
ROLLUP_SECS = 1099                            # finished 01:58:21
SCANNER = "198.51.100.23"
SCAN_FIRST, SCAN_LAST = 2 * 3600 + 5 * 60 + 10, 2 * 3600 + 29 * 60 + 40
SCAN_PATHS = [("/wp-login.php", 96, 404), ("/.env", 61, 404), ("/xmlrpc.php", 44, 404), ("/.git/config", 30, 403)]
FLOOD_GW = "gw-gh4-02"
FLOOD_FIRST, FLOOD_LAST = 2 * 3600 + 18 * 60 + 30, 2 * 3600 + 33 * 60 + 50
FLOOD_PEAK_MIN = 2 * 60 + 26
QUARANTINE = 2 * 3600 + 33 * 60 + 51
DASHBOARD, MONITOR = "198.18.4.20", "198.18.7.3"
EXPORTS = 18
FAVICONS = 28
PRODUCE_P95_US = (412_050, 412_450)
KAFKA_FAIL_FIRST = 2 * 3600 + 46 * 60 + 5
KAFKA_FAILS = 83
KAFKA_RECOVERED = 2 * 3600 + 47 * 60 + 31
NC_FIRST = 2 * 3600 + 46 * 60 + 9
COMMIT_FAILED = 2 * 3600 + 46 * 60 + 40
REJOINED = 2 * 3600 + 47 * 60 + 12
POISON_FIRST, POISON_LAST, POISONS = 3 * 3600 + 12 * 60 + 5, 3 * 3600 + 19 * 60 + 40, 67
VALVE_STUCK = 3 * 3600 + 27 * 60 + 44
VALVE_ZONE = "GH2-Z05"
LOCKOUT = VALVE_STUCK + 2
OVERRIDE = 3 * 3600 + 35 * 60 + 10
ELAPSED_P90_DS = 2215                         # 3m41.5s, in tenths of a second
ABORTED = 87
THIRSTY = {"GH5-Z11": 2.6, "GH1-Z04": 2.0, "GH3-Z09": 1.55}
SLOWEST_SCHEDULE_US = 4_815_000
TOOK_P95_MS = 214
SHORT_WEIGHT_IN_HOUR2 = 74
KG20_EXACT = 7
BURST_MIN = 1 * 60 + 59

GREENHOUSES = ["GH1", "GH2", "GH3", "GH4", "GH5", "GH6"]
CROPS = ["basil", "butterhead", "kale", "arugula", "pea-shoots", "strawberry", "romaine", "mint", "chard",
         "coriander", "radish-micro", "oakleaf"]
GATEWAYS = [f"gw-gh{g}-0{k}" for g in range(1, 7) for k in range(1, 5)]
GW_IP = {gw: f"203.0.113.{31 + i * 3}" for i, gw in enumerate(GATEWAYS)}
GW_FW = {gw: ("3.9.0-rc1" if gw == FLOOD_GW else ("3.8.4" if i % 3 else "3.8.2")) for i, gw in enumerate(GATEWAYS)}
SLUGS = ["genovese-basil", "butterhead-lettuce", "lacinato-kale", "wild-arugula", "pea-shoots", "alpine-strawberries",
         "little-gem", "spearmint", "rainbow-chard", "coriander", "radish-microgreens", "red-oakleaf", "salad-box-s",
         "salad-box-l", "herb-trio", "thai-basil", "mizuna", "sorrel"]
UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
       "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
       "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
       "Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"]


def clock(t):
    return DAY + timedelta(microseconds=round(t * 1e6))


# --------------------------------------------------------------------------- the night


@functools.lru_cache(maxsize=None)
def world():
    rng = random.Random(PLAN_SEED)
    w = {"http": [], "zap": [], "lb": []}
    _shop(rng, w)
    _grow(rng, w)
    _cycles(rng, w)
    _irrigod_rest(rng, w)
    _allocator(rng, w)
    return w


def _req(w, vhost, t, ip, method, target, status, size, ref, ua, d_us):
    r = {"vhost": vhost, "t": t, "ip": ip, "method": method, "target": target, "status": status, "size": size,
         "ref": ref, "ua": ua, "D": d_us}
    w["http"].append(r)
    return r


def _shop(rng, w):
    clients = [f"{rng.choice([81, 84, 89, 92, 109, 151, 176, 185, 212])}.{rng.randint(1, 254)}.{rng.randint(0, 255)}."
               f"{rng.randint(1, 254)}" for _ in range(420)]
    clients = sorted(set(clients))
    produce = []
    for m in range(START // 60, END // 60):
        for _ in range(rng.randint(9, 17)):
            t = m * 60 + rng.uniform(0.05, 59.9)
            ip, ua = rng.choice(clients), rng.choice(UAS)
            ref = f"https://{SHOP}/"
            x = rng.random()
            if x < 0.16:
                _req(w, SHOP, t, ip, "GET", "/", 200, rng.randint(18_000, 24_000), "-", ua, rng.randint(9_000, 60_000))
            elif x < 0.46:
                slug = rng.choice(SLUGS)
                produce.append(_req(w, SHOP, t, ip, "GET", f"/produce/{slug}", 200, rng.randint(30_000, 52_000), ref, ua, 0))
            elif x < 0.47:
                # a retired product: 404 (each slug only a few times)
                produce.append(_req(w, SHOP, t, ip, "GET", f"/produce/retired-{rng.randint(1000, 9999)}", 404, 1_204, ref,
                                    ua, 0))
            elif x < 0.62:
                st = 304 if rng.random() < 0.4 else 200
                _req(w, SHOP, t, ip, "GET", f"/static/app.{rng.choice(['3f9a1c', '3f9a1c', 'b27e04'])}.js", st,
                     180 if st == 304 else rng.randint(210_000, 214_000), ref, ua, rng.randint(300, 4_000))
            elif x < 0.80:
                st = 304 if rng.random() < 0.3 else 200
                _req(w, SHOP, t, ip, "GET", f"/img/produce/{rng.choice(SLUGS)}.webp", st,
                     175 if st == 304 else rng.randint(40_000, 160_000), ref, ua, rng.randint(400, 9_000))
            elif x < 0.90:
                _req(w, SHOP, t, ip, "GET", "/cart", 200, rng.randint(9_000, 12_000), ref, ua, rng.randint(20_000, 140_000))
            elif x < 0.95:
                q = rng.choice(["basil", "kale", "salad", "mint", "strawberries", "box"])
                _req(w, SHOP, t, ip, "GET", f"/search?q={q}", 200, rng.randint(14_000, 30_000), ref, ua,
                     rng.randint(40_000, 900_000))
            else:
                _req(w, SHOP, t, ip, "GET", "/account", 302, 320, ref, ua, rng.randint(2_000, 8_000))
    # %D of the product pages: a plateau at p95 (nearest-rank, linear, .EXC, floor agree)
    n = len(produce)
    k = int(0.95 * n)
    hi_n = n - k - 6
    order = list(range(n))
    rng.shuffle(order)
    # the retired 404s go below the plateau too
    plate = [i for i in order if produce[i]["status"] == 200][:44]
    rest = [i for i in order if i not in set(plate)]
    above = [i for i in rest if produce[i]["status"] == 200][:hi_n]
    aset, pset = set(above), set(plate)
    for i in range(n):
        if i in pset:
            produce[i]["D"] = rng.randint(*PRODUCE_P95_US)
        elif i in aset:
            produce[i]["D"] = rng.randint(430_000, 1_900_000)
        else:
            produce[i]["D"] = rng.randint(18_000, 395_000)
    # reserves: 1-3 a minute, all 503 (the pool timed out after 30 s) in the failure window
    for m in range(START // 60, END // 60):
        for _ in range(rng.randint(1, 3)):
            t = m * 60 + rng.uniform(0.1, 59.8)
            if RES_FAIL_FIRST - 120 <= t <= RES_FAIL_LAST + 60:
                continue
            _req(w, SHOP, t, rng.choice(clients), "POST", "/api/alloc/reserve", 200, rng.randint(480, 620),
                 f"https://{SHOP}/cart", rng.choice(UAS), rng.randint(25_000, 140_000))
    ts = sorted([RES_FAIL_FIRST + 0.21, RES_FAIL_LAST + 0.43] +
                [rng.uniform(RES_FAIL_FIRST + 1, RES_FAIL_LAST - 1) for _ in range(RES_FAILS - 2)])
    for t in ts:
        _req(w, SHOP, t, rng.choice(clients), "POST", "/api/alloc/reserve", 503, 412, f"https://{SHOP}/cart",
             rng.choice(UAS), 30_000_000 + rng.randint(3_000, 95_000))
    # browsers fetching the favicon (a separate draw: their number only moves the 503 share off an edge)
    frng = random.Random(PLAN_SEED + 1)
    for _ in range(FAVICONS):
        _req(w, SHOP, frng.uniform(START + 5, END - 5), frng.choice(clients), "GET", "/favicon.ico", 200, 1_150,
             "-", frng.choice(UAS), frng.randint(200, 900))
    # the scanner
    paths = []
    for p, k_, st in SCAN_PATHS:
        paths += [(p, st)] * k_
    probes = ["/admin/", "/phpmyadmin/", "/wp-admin/setup-config.php", "/config.json", "/backup.zip", "/.aws/credentials",
              "/server-status", "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php", "/cgi-bin/luci", "/actuator/env",
              "/.DS_Store", "/api/.env", "/debug/default/view", "/owa/auth/logon.aspx", "/boaform/admin/formLogin",
              "/HNAP1/", "/solr/admin/info/system", "/console/", "/telescope/requests", "/_profiler/phpinfo"]
    for p in probes:
        paths += [(p, 404)] * rng.randint(1, 4)
    rng.shuffle(paths)
    ts = sorted([SCAN_FIRST + 0.33, SCAN_LAST + 0.52] + [rng.uniform(SCAN_FIRST + 1, SCAN_LAST - 1)
                                                         for _ in range(len(paths) - 2)])
    for t, (p, st) in zip(ts, paths):
        _req(w, SHOP, t, SCANNER, "GET", p, st, 196 if st == 404 else 199, "-", "Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)",
             rng.randint(250, 1_800))


def _grow(rng, w):
    gw_ua = "halvard-gw/{fw} (+linux; armv7l)"
    # every gateway posts its telemetry once a minute
    for i, gw in enumerate(GATEWAYS):
        off = rng.uniform(1, 55)
        for m in range(START // 60, END // 60):
            t = m * 60 + off + rng.uniform(0, 3)
            flood = gw == FLOOD_GW and FLOOD_FIRST + 1 <= t <= FLOOD_LAST - 1
            r = _req(w, GROW, t, GW_IP[gw], "POST", "/v2/telemetry", 429 if flood else 202, 214 if flood else 167, "-",
                     gw_ua.format(fw=GW_FW[gw]), rng.randint(600, 1_400) if flood else rng.randint(6_000, 45_000))
            r["gw"] = gw
    # the flooding gateway (a retry loop in firmware 3.9.0-rc1)
    per_min = {}
    for m in range(FLOOD_FIRST // 60, FLOOD_LAST // 60 + 1):
        per_min[m] = 188 if m == FLOOD_PEAK_MIN else rng.randint(100, 140)
    ts = [FLOOD_FIRST + 0.12, FLOOD_LAST + 0.37]
    for m, k in per_min.items():
        lo, hi = max(m * 60, FLOOD_FIRST + 1), min(m * 60 + 60, FLOOD_LAST - 1)
        k = max(1, round(k * (hi - lo) / 60))
        ts += [rng.uniform(lo, hi - 0.2) for _ in range(k)]
    for t in ts:
        r = _req(w, GROW, t, GW_IP[FLOOD_GW], "POST", "/v2/telemetry", 429, 214, "-", gw_ua.format(fw=GW_FW[FLOOD_GW]),
                 rng.randint(500, 1_300))
        r["gw"] = FLOOD_GW
    # two gateways with an occasional burst (outside the flood's half hour)
    for gw, k in (("gw-gh2-03", 41), ("gw-gh5-01", 26)):
        for _ in range(k):
            t = rng.choice([rng.uniform(40 * 60, 95 * 60), rng.uniform(214 * 60, 232 * 60)])
            r = _req(w, GROW, t, GW_IP[gw], "POST", "/v2/telemetry", 429, 214, "-", gw_ua.format(fw=GW_FW[gw]),
                     rng.randint(500, 1_300))
            r["gw"] = gw
    # the grower dashboard and the monitor
    zones = [f"{g}-Z{z:02d}" for g in GREENHOUSES for z in range(1, 13)]
    for j in range((END - START) // 15):
        t = START + j * 15 + rng.uniform(0.1, 0.9)
        _req(w, GROW, t, DASHBOARD, "GET", f"/v2/zones/{zones[j % 72]}/schedule", 200, rng.randint(4_000, 9_000),
             f"https://{GROW}/dash", "HalvardGrower/2.3 (dashboard)", rng.randint(8_000, 60_000))
    for j in range((END - START) // 30):
        t = START + j * 30 + rng.uniform(2.1, 2.9)
        _req(w, GROW, t, MONITOR, "GET", "/v2/health", 200, 95, "-", "Blackbox-Exporter/0.25.0", rng.randint(700, 2_500))
    # growers in the portal
    growers = sorted({f"192.0.2.{rng.randint(2, 250)}" for _ in range(40)})
    for m in range(START // 60, END // 60):
        for _ in range(rng.randint(0, 3)):
            t = m * 60 + rng.uniform(0.1, 59.9)
            z = rng.choice(zones)
            _req(w, GROW, t, rng.choice(growers), "GET", f"/v2/zones/{z}/history?hours=24", 200,
                 rng.randint(20_000, 80_000), f"https://{GROW}/zones/{z}", rng.choice(UAS), rng.randint(30_000, 600_000))
    for _ in range(EXPORTS):
        t = rng.uniform(START + 300, END - 300)
        g = rng.choice(GREENHOUSES)
        _req(w, GROW, t, rng.choice(growers), "GET", f"/v2/reports/export?greenhouse={g}&format=csv", 200,
             rng.randint(1_200_000, 4_200_000), f"https://{GROW}/reports", rng.choice(UAS), rng.randint(7_000_000, 12_500_000))
    # the last export's size puts the vhost's total off a rounding edge in MB and in MiB
    last = [r for r in w["http"] if r["target"].startswith("/v2/reports/export")][-1]
    total = sum(r["size"] for r in w["http"] if r["vhost"] == GROW)

    def off_edge(x):
        return abs(x * 10 - int(x * 10) - 0.5) > 0.3

    for delta in range(0, 2_000_000, 7_919):
        if off_edge((total + delta) / 1e6) and off_edge((total + delta) / 2 ** 20):
            last["size"] += delta
            break


def _go_dur(us):
    """Go's time.Duration.String for a whole number of microseconds."""
    if us < 1000:
        return f"{us}µs"
    if us < 1_000_000:
        s = f"{us / 1000:.3f}".rstrip("0").rstrip(".")
        return f"{s}ms"
    h, rem = divmod(us, 3_600_000_000)
    m, rem = divmod(rem, 60_000_000)
    s = f"{rem / 1e6:.6f}".rstrip("0").rstrip(".")
    out = f"{s}s"
    if h:
        return f"{h}h{m}m{out}"
    if m:
        return f"{m}m{out}"
    return out


def _cycles(rng, w):
    zones = [(g, z) for g in GREENHOUSES for z in range(1, 13)]
    recs = []
    for g, z in zones:
        zid = f"{g}-Z{z:02d}"
        crop = CROPS[(GREENHOUSES.index(g) * 5 + z) % len(CROPS)]
        base = 18_000 if zid in THIRSTY else rng.randint(16_500, 19_000)
        mult = THIRSTY.get(zid, 1.0)
        off = rng.uniform(0, 480)
        for j in range(14):
            t = START + off + 900 * j + rng.uniform(0, 20)
            recs.append({"t": t, "zone": zid, "gh": g, "crop": crop, "valve": f"V-{g[2]}-{z:02d}",
                         "water": int(base * mult * rng.uniform(0.92, 1.08)), "cycle": 1000 + j + z * 31})
    n = len(recs)
    order = list(range(n))
    rng.shuffle(order)
    k = int(0.9 * n)           # 907 of 1008
    above = set(order[:n - k - 20])
    plate = set(order[n - k - 20:n - k + 12])
    for i, r in enumerate(recs):
        if i in plate:
            ds = ELAPSED_P90_DS
        elif i in above:
            ds = rng.randint(2240, 3050)
        else:
            ds = rng.randint(1180, 2190)
        r["elapsed_us"] = ds * 100_000
        r["flow"] = round(r["water"] / 1000 / (ds / 600), 2)
        r["status"] = "ok"
    below = [i for i in range(n) if i not in above and i not in plate]
    for i in rng.sample(below, ABORTED):
        recs[i]["status"] = "aborted"
        recs[i]["water"] = recs[i]["water"] // 3
    for r in recs:
        fields = {"zone": {"id": r["zone"], "greenhouse": r["gh"], "crop": r["crop"]}, "valve": r["valve"],
                  "cycle": r["cycle"], "water_ml": r["water"], "flow_lpm": r["flow"],
                  "elapsed": _go_dur(r["elapsed_us"]), "status": r["status"]}
        if r["status"] == "aborted":
            fields["reason"] = "low_pressure"
        w["zap"].append((r["t"] + r["elapsed_us"] / 1e6, "info", "irrigod.cycle", "cycle/runner.go:142",
                         "irrigation cycle finished", fields, None))


STACK_EVENTS = ("github.com/halvardgreens/irrigod/internal/events.(*Publisher).Publish\n"
                "\t/src/internal/events/publisher.go:88\n"
                "github.com/halvardgreens/irrigod/internal/cycle.(*Runner).finish\n"
                "\t/src/internal/cycle/runner.go:151\n"
                "github.com/halvardgreens/irrigod/internal/cycle.(*Runner).Run\n"
                "\t/src/internal/cycle/runner.go:97")
STACK_VALVE = ("github.com/halvardgreens/irrigod/internal/valve.(*Driver).Close\n"
               "\t/src/internal/valve/driver.go:211\n"
               "github.com/halvardgreens/irrigod/internal/cycle.(*Runner).finish\n"
               "\t/src/internal/cycle/runner.go:139\n"
               "github.com/halvardgreens/irrigod/internal/cycle.(*Runner).Run\n"
               "\t/src/internal/cycle/runner.go:97")


def _irrigod_rest(rng, w):
    z = w["zap"]
    # one warning per 429 the grow vhost answered (irrigod said it)
    for r in w["http"]:
        if r["vhost"] == GROW and r["status"] == 429:
            gw = r["gw"]
            z.append((r["t"] + min(r["D"] / 2e6, (int(r["t"]) + 1 - r["t"]) / 2), "warn", "irrigod.api", "api/ratelimit.go:57", "telemetry rate limited",
                      {"gateway": {"id": gw, "ip": GW_IP[gw], "fw": GW_FW[gw]}, "path": "/v2/telemetry",
                       "limit_per_min": 6, "retry_after": "10s"}, None))
    z.append((QUARANTINE + 0.402, "info", "irrigod.api", "api/ratelimit.go:91", "gateway quarantined",
              {"gateway": {"id": FLOOD_GW, "ip": GW_IP[FLOOD_GW], "fw": GW_FW[FLOOD_GW]}, "for": "15m0s",
               "by": "ops:m.lindqvist"}, None))
    # schedule recomputations, every 5 minutes per greenhouse
    slow_slot = None
    for gi, g in enumerate(GREENHOUSES):
        for j in range((END - START) // 300):
            t = START + j * 300 + 20 + gi * 7 + rng.uniform(0, 3)
            us = rng.randint(3_000, 24_000) * 100
            if g == "GH3" and j == 31:
                us, slow_slot = SLOWEST_SCHEDULE_US, t
            z.append((t + us / 1e6, "info", "irrigod.schedule", "schedule/planner.go:98", "schedule recomputed",
                      {"greenhouse": g, "zones": 12, "horizon": "6h0m0s", "took": _go_dur(us)}, None))
    assert slow_slot
    # kafka produce failures while broker kfk-2 is away
    ts = sorted([KAFKA_FAIL_FIRST + 0.318] + [rng.uniform(KAFKA_FAIL_FIRST + 1, KAFKA_RECOVERED - 5)
                                              for _ in range(KAFKA_FAILS - 1)])
    for t in ts:
        z.append((t, "error", "irrigod.events", "events/publisher.go:88", "kafka produce failed",
                  {"topic": "irrigation.cycles", "partition": rng.randint(0, 5), "attempt": rng.randint(1, 3),
                   "error": "kafka: Failed to produce message to topic irrigation.cycles: kafka server: Request "
                            "exceeded the user-specified time limit in the request"}, STACK_EVENTS))
    z.append((KAFKA_RECOVERED + 0.077, "info", "irrigod.events", "events/publisher.go:121", "kafka producer recovered",
              {"brokers": ["kfk-1.halvard.internal:9092", "kfk-2.halvard.internal:9092", "kfk-3.halvard.internal:9092"],
               "resent": KAFKA_FAILS, "outage": "1m26s"}, None))
    # the stuck valve
    z.append((VALVE_STUCK + 0.611, "error", "irrigod.valve", "valve/driver.go:211", "valve did not close",
              {"zone": {"id": VALVE_ZONE, "greenhouse": "GH2", "crop": "pea-shoots"}, "valve": "V-2-05",
               "waited": "30s", "error": "modbus: exception '4' (server device failure), function '5'"}, STACK_VALVE))
    z.append((LOCKOUT + 0.204, "warn", "irrigod.cycle", "cycle/lockout.go:44", "zone locked out",
              {"zone": {"id": VALVE_ZONE, "greenhouse": "GH2", "crop": "pea-shoots"}, "reason": "valve_fault",
               "main_valve": "closed"}, None))
    z.append((OVERRIDE + 0.93, "info", "irrigod.api", "api/override.go:73", "manual override",
              {"zone": {"id": VALVE_ZONE, "greenhouse": "GH2"}, "user": "r.okafor", "action": "unlock"}, None))
    # humidity sensors reading over 100 %
    for _ in range(37):
        t = rng.uniform(START + 60, END - 60)
        while abs(t - VALVE_STUCK) < 400:
            t = rng.uniform(START + 60, END - 60)
        g = rng.choice(GREENHOUSES)
        zz = rng.randint(1, 12)
        z.append((t, "warn", "irrigod.sensors", "sensors/rh.go:64", "humidity reading out of range",
                  {"sensor": {"id": f"rh-{g.lower()}-{zz:02d}", "kind": "rh", "zone": f"{g}-Z{zz:02d}"},
                   "value_pct": round(rng.uniform(100.4, 108.9), 1), "action": "dropped"}, None))
    # config reloads
    for t in (START + 5 * 60 + 3.2, 3 * 3600 + 1.7):
        z.append((t, "info", "irrigod", "cmd/irrigod/main.go:133", "config reloaded",
                  {"path": "/etc/irrigod/irrigod.yaml", "zones": 72, "gateways": 24}, None))


# crate-allocator ------------------------------------------------------------

LISTEN_THREADS = [f"org.springframework.kafka.KafkaListenerEndpointContainer#0-{i}-C-1" for i in range(3)]


def abbreviate(name, target=36):
    """Logback's %logger{36}: shorten packages left to right to their first letter until it fits."""
    if len(name) <= target:
        return name
    parts = name.split(".")
    out = parts[:]
    for i in range(len(parts) - 1):
        if len(".".join(out)) <= target:
            break
        out[i] = parts[i][0]
    return ".".join(out)


L_PICKED = "com.halvard.alloc.kafka.PickedListener"
L_RESERVE = "com.halvard.alloc.web.ReserveController"
L_ROLLUP = "com.halvard.alloc.jobs.YieldRollupJob"
L_CRATE = "com.halvard.alloc.service.CrateService"
L_NC = "org.apache.kafka.clients.NetworkClient"
L_CONTAINER = "org.springframework.kafka.listener.KafkaMessageListenerContainer"
L_COORD = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"
L_EH = "org.springframework.kafka.listener.DefaultErrorHandler"
L_HIKARI = "com.zaxxer.hikari.HikariDataSource"

TRACE_POOL = """org.springframework.transaction.CannotCreateTransactionException: Could not open JPA EntityManager for transaction
\tat org.springframework.orm.jpa.JpaTransactionManager.doBegin(JpaTransactionManager.java:466)
\tat org.springframework.transaction.support.AbstractPlatformTransactionManager.startTransaction(AbstractPlatformTransactionManager.java:531)
\tat org.springframework.transaction.support.AbstractPlatformTransactionManager.getTransaction(AbstractPlatformTransactionManager.java:405)
\tat org.springframework.transaction.interceptor.TransactionAspectSupport.createTransactionIfNecessary(TransactionAspectSupport.java:617)
\tat org.springframework.transaction.interceptor.TransactionAspectSupport.invokeWithinTransaction(TransactionAspectSupport.java:386)
\tat org.springframework.transaction.interceptor.TransactionInterceptor.invoke(TransactionInterceptor.java:119)
\tat com.halvard.alloc.service.ReservationService$$SpringCGLIB$$0.reserve(<generated>)
\tat com.halvard.alloc.web.ReserveController.reserve(ReserveController.java:58)
\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
\tat org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1089)
\tat org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run(TaskThread.java:63)
\tat java.base/java.lang.Thread.run(Thread.java:1583)
Caused by: org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC Connection [HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting=37)] [n/a]
\tat org.hibernate.exception.internal.SQLExceptionTypeDelegate.convert(SQLExceptionTypeDelegate.java:51)
\tat org.hibernate.exception.internal.StandardSQLExceptionConverter.convert(StandardSQLExceptionConverter.java:58)
\tat org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:108)
\tat org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:114)
\tat org.springframework.orm.jpa.JpaTransactionManager.doBegin(JpaTransactionManager.java:420)
\t... 11 common frames omitted
Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting=37)
\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)
\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)
\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:144)
\tat com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:99)
\tat org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl.getConnection(DatasourceConnectionProviderImpl.java:122)
\t... 15 common frames omitted"""

TRACE_COMMIT = """org.apache.kafka.clients.consumer.CommitFailedException: Offset commit cannot be completed since the consumer is not part of an active group for auto partition assignment; it is likely that the consumer was kicked out of the group.
\tat org.apache.kafka.clients.consumer.internals.ConsumerCoordinator.sendOffsetCommitRequest(ConsumerCoordinator.java:1351)
\tat org.apache.kafka.clients.consumer.internals.ConsumerCoordinator.commitOffsetsSync(ConsumerCoordinator.java:1130)
\tat org.apache.kafka.clients.consumer.KafkaConsumer.commitSync(KafkaConsumer.java:1518)
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.doCommitSync(KafkaMessageListenerContainer.java:3377)
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.commitIfNecessary(KafkaMessageListenerContainer.java:3297)
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.run(KafkaMessageListenerContainer.java:1323)
\tat java.base/java.util.concurrent.CompletableFuture$AsyncRun.run(CompletableFuture.java:1804)
\tat java.base/java.lang.Thread.run(Thread.java:1583)"""

TRACE_POISON = """org.springframework.kafka.listener.ListenerExecutionFailedException: Listener failed
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.decorateException(KafkaMessageListenerContainer.java:2960)
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.checkDeser(KafkaMessageListenerContainer.java:3007)
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.invokeOnMessage(KafkaMessageListenerContainer.java:2871)
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.doInvokeRecordListener(KafkaMessageListenerContainer.java:2782)
\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.run(KafkaMessageListenerContainer.java:1319)
\tat java.base/java.lang.Thread.run(Thread.java:1583)
Caused by: org.springframework.kafka.support.serializer.DeserializationException: failed to deserialize
\tat org.springframework.kafka.support.serializer.ErrorHandlingDeserializer.deserializationException(ErrorHandlingDeserializer.java:219)
\tat org.springframework.kafka.support.serializer.ErrorHandlingDeserializer.deserialize(ErrorHandlingDeserializer.java:194)
\tat org.apache.kafka.clients.consumer.internals.CompletedFetch.parseRecord(CompletedFetch.java:321)
\t... 9 common frames omitted
Caused by: com.fasterxml.jackson.databind.exc.InvalidFormatException: Cannot deserialize value of type `java.math.BigDecimal` from String "{kg}": not a valid representation
 at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 71] (through reference chain: com.halvard.alloc.kafka.PickedEvent["kg"])
\tat com.fasterxml.jackson.databind.exc.InvalidFormatException.from(InvalidFormatException.java:67)
\tat com.fasterxml.jackson.databind.DeserializationContext.weirdStringException(DeserializationContext.java:1991)
\tat com.fasterxml.jackson.databind.deser.std.NumberDeserializers$BigDecimalDeserializer.deserialize(NumberDeserializers.java:1053)
\tat org.springframework.kafka.support.serializer.JsonDeserializer.deserialize(JsonDeserializer.java:586)
\t... 12 common frames omitted"""


def _allocator(rng, w):
    lb = w["lb"]

    def log(t, thread, level, logger, msg, trace=None):
        lb.append((t, thread, level, logger, msg, trace))

    # allocations from the harvest.picked topic
    weights = {"GH3": 30, "GH1": 22, "GH5": 16, "GH2": 12, "GH4": 11, "GH6": 9}
    ghs = [g for g, k in weights.items() for _ in range(k)]
    stall = (RES_FAIL_FIRST - 60, ROLLUP_START + ROLLUP_SECS)
    times = []
    for m in range(START // 60, END // 60):
        for _ in range(rng.randint(3, 6)):
            t = m * 60 + rng.uniform(0.1, 59.8)
            if stall[0] <= t <= stall[1] + 1 or NC_FIRST - 3 <= t <= REJOINED + 2:
                continue
            times.append(t)
    end = ROLLUP_START + ROLLUP_SECS
    times += [rng.uniform(end + 1, BURST_MIN * 60) for _ in range(22)]
    times += [rng.uniform(BURST_MIN * 60 + 0.1, BURST_MIN * 60 + 59.8) for _ in range(64)]
    times += [rng.uniform(REJOINED + 2, REJOINED + 40) for _ in range(9)]
    times.sort()
    allocs = []
    orders = []
    oid = 48_110
    for t in times:
        if not orders or rng.random() < 0.55:
            oid += rng.randint(1, 9)
            orders.append(oid)
        order = orders[-1] if rng.random() < 0.7 else rng.choice(orders[-20:])
        g = rng.choice(ghs)
        kg = rng.randint(40, 239)
        allocs.append({"t": t, "order": f"HG-{order}", "gh": g, "kg": (201 if kg == 200 else kg) / 10})
    for a in rng.sample(allocs, KG20_EXACT):
        a["kg"] = 20.0
    # took=: GH6 (the cold store across the yard) slower on average, p95 on a plateau
    n = len(allocs)
    others = [i for i in range(n) if allocs[i]["gh"] != "GH6"]
    rng.shuffle(others)
    k = int(0.95 * n)
    n_above = n - k - 5
    above, plate = set(others[:n_above]), set(others[n_above:n_above + 12])
    for i, a in enumerate(allocs):
        if i in above:
            a["took"] = rng.randint(236, 880)
        elif i in plate:
            a["took"] = TOOK_P95_MS
        elif a["gh"] == "GH6":
            a["took"] = rng.randint(150, 205)
        else:
            a["took"] = rng.randint(11, 128)
    crate = 402_117
    for a in allocs:
        crate += rng.randint(1, 4)
        log(a["t"], rng.choice(LISTEN_THREADS), "INFO", L_PICKED,
            f"allocated crate=CR-{crate} order={a['order']} greenhouse={a['gh']} kg={a['kg']:.1f} took={a['took']}ms")
    # reservations from the shop (every POST /api/alloc/reserve the shop vhost logged)
    for r in w["http"]:
        if r["vhost"] == SHOP and r["target"] == "/api/alloc/reserve":
            order = f"HG-{rng.randint(48_000, 49_999)}"
            th = f"http-nio-8080-exec-{rng.randint(1, 40)}"
            if r["status"] == 200:
                log(r["t"] + r["D"] / 1e6 - 0.002, th, "INFO", L_RESERVE,
                    f"reserve ok order={order} crates={rng.randint(1, 4)} duration_ms={r['D'] // 1000 - 3}")
            else:
                log(r["t"] + r["D"] / 1e6 - 0.004, th, "ERROR", L_RESERVE, f"reserve failed order={order}", TRACE_POOL)
    # the nightly rollup that held the pool
    log(ROLLUP_START + 0.114, "scheduling-1", "INFO", L_ROLLUP, "yield rollup started season=2035-W06 greenhouses=6")
    log(ROLLUP_START + 0.388, "scheduling-1", "INFO", L_ROLLUP,
        "refreshing materialized view yield_by_zone_daily (concurrently=false)")
    log(ROLLUP_START + ROLLUP_SECS + 0.052, "scheduling-1", "INFO", L_ROLLUP,
        f"yield rollup finished in {ROLLUP_SECS}s rows=482113")
    # kafka broker kfk-2 away
    for j in range(16):
        t = NC_FIRST + 2 * j + rng.uniform(0.1, 0.6)
        i = j % 3
        log(t, LISTEN_THREADS[i], "WARN", L_NC,
            f"[Consumer clientId=crate-allocator-{i}, groupId=crate-allocator] Connection to node 2 "
            f"(kfk-2.halvard.internal/10.61.4.12:9092) could not be established. Node may not be available.")
    log(COMMIT_FAILED + 0.233, LISTEN_THREADS[1], "ERROR", L_CONTAINER, "Consumer exception", TRACE_COMMIT)
    log(COMMIT_FAILED + 1.017, LISTEN_THREADS[1], "INFO", L_COORD,
        "[Consumer clientId=crate-allocator-1, groupId=crate-allocator] Revoke previously assigned partitions "
        "harvest.picked-2, harvest.picked-3")
    log(REJOINED + 0.44, LISTEN_THREADS[1], "INFO", L_COORD,
        "[Consumer clientId=crate-allocator-1, groupId=crate-allocator] Successfully joined group with generation "
        "Generation{generationId=57, memberId='crate-allocator-1-5d0b7e2c-91a4-4f7e-b3c1-0e6f2a9d4c18', protocol='range'}")
    log(REJOINED + 1.29, LISTEN_THREADS[1], "INFO", "org.springframework.kafka.listener.KafkaMessageListenerContainer",
        "crate-allocator: partitions assigned: [harvest.picked-2, harvest.picked-3]")
    # the scale firmware that writes kg with a decimal comma
    ts = sorted([POISON_FIRST + 0.508, POISON_LAST + 0.291] + [rng.uniform(POISON_FIRST + 1, POISON_LAST - 1)
                                                               for _ in range(POISONS - 2)])
    off = 91_207
    for t in ts:
        off += rng.randint(1, 6)
        kg = f"{rng.randint(4, 23)},{rng.randint(0, 9)}"
        log(t, LISTEN_THREADS[2], "ERROR", L_EH, f"Backoff none exhausted for harvest.picked-3@{off}",
            TRACE_POISON.replace("{kg}", kg))
    # short-weight crates: 74 between 02:05 and 02:55, the others away from 02:00 and 03:00
    sw = [rng.uniform(2 * 3600 + 5 * 60, 2 * 3600 + 55 * 60) for _ in range(SHORT_WEIGHT_IN_HOUR2)]
    sw = [t for t in sw if not (NC_FIRST - 3 <= t <= REJOINED + 2)]
    while len(sw) < SHORT_WEIGHT_IN_HOUR2:
        t = rng.uniform(2 * 3600 + 5 * 60, 2 * 3600 + 40 * 60)
        sw.append(t)
    sw += [rng.uniform(START + 60, 3600 + 35 * 60) for _ in range(23)]
    sw += [rng.uniform(3 * 3600 + 5 * 60, END - 60) for _ in range(19)]
    for t in sw:
        g = rng.choice(GREENHOUSES)
        log(t, rng.choice(LISTEN_THREADS), "WARN", L_CRATE,
            f"short weight crate=CR-{rng.randint(300_000, 399_999)} greenhouse={g} kg={rng.randint(15, 38) / 10} "
            f"min_kg=4.0")
    log(START + 2.5, "HikariPool-1 housekeeper", "WARN", "com.zaxxer.hikari.pool.HikariPool",
        "HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=1m4s28ms).")


# --------------------------------------------------------------------------- formatting


def _clf_time(t):
    return clock(t).strftime("%d/%b/%Y:%H:%M:%S") + " +0000"


def access_log():
    rows = sorted(world()["http"], key=lambda r: (r["t"] + r["D"] / 1e6, r["t"]))
    out = []
    for r in rows:
        out.append(f'{r["vhost"]}:443 {r["ip"]} - - [{_clf_time(r["t"])}] "{r["method"]} {r["target"]} HTTP/1.1" '
                   f'{r["status"]} {r["size"]} "{r["ref"]}" "{r["ua"]}" {r["D"]}\n')
    return "".join(out)


def irrigod_log():
    out = []
    for t, level, logger, caller, msg, fields, stack in sorted(world()["zap"], key=lambda e: e[0]):
        ts_us = EPOCH_DAY * 1_000_000 + round(t * 1e6)
        rec = {"level": level, "ts": ts_us / 1e6, "logger": logger, "caller": caller, "msg": msg}
        rec.update(fields)
        if stack:
            rec["stacktrace"] = stack
        out.append(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
    return "".join(out)


def allocator_log():
    out = []
    for t, thread, level, logger, msg, trace in sorted(world()["lb"], key=lambda e: e[0]):
        ct = clock(t)
        stamp = ct.strftime("%Y-%m-%d %H:%M:%S") + f".{ct.microsecond // 1000:03d}"
        out.append(f"{stamp} [{thread}] {level:<5} {abbreviate(logger)} - {msg}\n")
        if trace:
            out.append(trace + "\n")
    return "".join(out)
