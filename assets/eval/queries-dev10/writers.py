"""Writers of the `queries-dev10` fixtures: one night (2034-03-07 00:30-04:00 UTC) at Larkspur
Freight. `plan()` (seeded by `PLAN_SEED`) is the cross-file schedule: every request, job and
database error of the night, with the planted incidents at chosen seconds. Each writer renders
one file from it the way the real software writes it:

- `traefik-access.log`: Traefik v2 access log in its CLF format on lfr-edge-01 (router, server
  URL, request count, `<n>ms` duration), one line per request, ordered by the request's start;
- `production.log`: the `dispatch` Rails 7 app (Puma cluster, tagged request ids), multi-line
  request blocks `Started` / `Processing by` / `Parameters` / `Completed 500 ... in 18ms`, the
  FATAL exception block after a 500 (the PG message carries its own newline, so a bare `):`
  line follows);
- `billing-service.log`: the `billing` Spring Boot 2.7 app, logback's default console pattern,
  a request-timing filter line per request, Hibernate's SqlExceptionHelper, multi-line Java
  stack traces, a restart (deploy) with its banner lines;
- `tracker.log`: the `tracker` Node service, pino / pino-http JSON (numeric `level`, epoch-ms
  `time`, `responseTime` in ms, `res.statusCode`, `x-forwarded-for` in the request headers);
- `lfr-db-syslog.log`: the database pair's syslog collected centrally (RFC 3164, no year):
  Keepalived_vrrp, postgres (`[N-1]` line numbers, `ERROR:` + `STATEMENT:`), CRON, pg-backup,
  sshd and systemd;
- `label-worker.log`: the Python label worker, structlog's KeyValueRenderer (`timestamp=` ISO
  with `Z`, `level=`, `event=` first, values as Python reprs).
"""

import json
import math
import random
from datetime import datetime, timedelta
from functools import lru_cache

PLAN_SEED = 2034030710
DAY = datetime(2034, 3, 7)


def T(h, m, s=0, us=0):
    return DAY.replace(hour=h, minute=m, second=s, microsecond=us)


def sec(x):
    return timedelta(seconds=x)


START, END = T(0, 30), T(4, 0)

EDGE_IP = "10.40.0.5"
DISPATCH_URL, BILLING_URL, TRACKER_URL = "http://10.40.1.11:3000", "http://10.40.1.21:8080", "http://10.40.1.31:8081"
VIP = "10.40.0.50"
DB1_IP, DB2_IP = "10.40.0.21", "10.40.0.22"
PARTNER, PARTNER_UA = "192.0.2.44", "LarkLink/2.1 (+https://larkspur-freight.example/partners)"
WAREHOUSE, WAREHOUSE_UA = "203.0.113.9", "LFR-Scanner/5.2.0 (Android 12; Zebra TC52)"
FLOOD, FLOOD_UA = "198.51.100.23", "lfr-gw/1.4.2 (gw-17)"
POOL_A = [f"203.0.113.{i}" for i in range(20, 100)]
POOL_B = [f"198.51.100.{i}" for i in range(100, 160)]
PROBERS = ["45.155.205.11", "185.220.101.47", "94.102.61.29"]
CARRIERS = [("dhl", 0.30), ("dpd", 0.21), ("ups", 0.19), ("gls", 0.16), ("parcelnet", 0.14)]

# --- the night's planted moments
BILL_SHUTDOWN = T(0, 41, 3, 412_000)     # the billing deploy: graceful shutdown begins
BILL_DOWN = (T(0, 41, 4), T(0, 41, 18))  # nothing listens on :8080
BILL_502 = [T(0, 41, 5, 210_000), T(0, 41, 8, 705_000), T(0, 41, 11, 118_000), T(0, 41, 14, 630_000), T(0, 41, 17, 302_000)]
TOMCAT_UP = T(0, 41, 18, 604_000)
BILL_STARTED = T(0, 41, 19, 77_000)
FLOOD_START = T(1, 15, 4, 120_000)       # gw-17 starts re-sending its whole buffer
FLOOD_PER_MIN = {m: 235 for m in range(15, 28)}
FLOOD_PER_MIN[21] = 300                  # 13 minutes, 3,120 requests: 240 a minute
LIMIT_RATE, LIMIT_BURST = 1.0, 6         # traefik rateLimit middleware on the tracker router
BIG_MANIFEST = T(1, 52, 17, 402_000)     # a 212-page bulk shipment label, 48 s to render
BACKUP_START = T(2, 30, 2, 118_000)      # cron's nightly pg_basebackup on lfr-db-01
CHK_TIMEOUTS = [T(2, 46, 56, 210_000), T(2, 47, 1, 214_000), T(2, 47, 6, 219_000)]
FAULT = T(2, 47, 6, 301_000)             # lfr-db-01: VI_DB to FAULT, the VIP removed
HIKARI_1 = T(2, 47, 7, 512_000)          # billing's pooled connections break
DB2_MASTER = T(2, 47, 9, 402_000)        # lfr-db-02 (a hot standby) takes the VIP
GAP_1 = (T(2, 47, 6), T(2, 47, 12))
FIRST_RO = {"dispatch": T(2, 47, 12, 318_000), "billing": T(2, 47, 13, 204_000),
            "tracker": T(2, 47, 15, 611_000), "worker": T(2, 47, 17, 220_000)}
BACKUP_DONE = T(3, 9, 36, 804_000)
CHK_OK = T(3, 9, 38, 112_000)
DB1_MASTER = T(3, 9, 41, 330_000)        # lfr-db-01 preempts, the VIP moves back
HIKARI_2 = T(3, 9, 42, 208_000)
GAP_2 = (T(3, 9, 39), T(3, 9, 44))
FIRST_OK = {"dispatch": T(3, 9, 45, 120_000), "billing": T(3, 9, 46, 407_000)}
RO = (FAULT, DB1_MASTER)
TRK_CRASH = T(3, 22, 0, 412_000)
TRK_502 = [T(3, 22, 1, 301_000), T(3, 22, 2, 215_000), T(3, 22, 3, 540_000), T(3, 22, 4, 118_000)]
TRK_GAP = (T(3, 22, 0), T(3, 22, 6))
TRK_LISTEN = T(3, 22, 5, 733_000)
PN_FAILS = [T(3, 34, 12, 88_000), T(3, 34, 25, 301_000), T(3, 34, 39, 7_000), T(3, 34, 50, 612_000), T(3, 35, 2, 95_000)]
PN_OPEN = T(3, 35, 2, 96_000)
PN_HALF_1, PN_PROBE_FAIL = T(3, 40, 2, 96_000), T(3, 40, 12, 104_000)
PN_HALF_2, PN_CLOSED = T(3, 45, 12, 104_000), T(3, 45, 14, 377_000)
PN_DEFERRED = [T(3, 36, 20, 5_000), T(3, 38, 5, 811_000), T(3, 41, 40, 230_000), T(3, 43, 10, 902_000)]
PN_QUIET = (T(3, 33, 30), T(3, 46, 30))

DISPATCH_PER_HOUR = {0: 400, 1: 850, 2: 1100, 3: 900}
BILLING_PER_HOUR = {0: 300, 1: 700, 2: 1000, 3: 800}
PINGS_PER_HOUR = {0: 600, 1: 1300, 2: 1400, 3: 1400}
SLOW_EXPORT = T(1, 33, 48, 615_000)     # someone exports every open shipment: 8.4 s
RATES_500 = [T(1, 7, 33, 402_000), T(1, 48, 12, 77_000), T(3, 27, 40, 918_000), T(3, 51, 9, 260_000)]


def in_(t, span):
    return span[0] <= t < span[1]


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f")


def arrivals(rng, per_hour):
    out = []
    for h, n in per_hour.items():
        lo = max(START, T(h, 0))
        span = (T(h, 59, 59, 999_999) - lo).total_seconds()
        out += [lo + sec(rng.random() * span) for _ in range(n)]
    return sorted(out)


def plateau(rows, key, p, width=4):
    """Makes every percentile definition agree: the values around rank p made equal."""
    s = sorted(rows, key=lambda r: r[key])
    k = max(0, math.ceil(p / 100 * len(s)) - 1)
    for i in range(max(0, k - width), min(len(s), k + width + 1)):
        s[i][key] = s[k][key]


def pick(rng, weighted):
    x = rng.random()
    for v, w in weighted:
        x -= w
        if x < 0:
            return v
    return weighted[-1][0]


def lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


# --- the plan ---------------------------------------------------------------------------

@lru_cache(maxsize=1)
def plan():
    rng = random.Random(PLAN_SEED)
    P = {"dispatch": [], "billing": [], "tracker": [], "edge_only": [], "jobs": [], "pg_ro": []}
    next_ship = [118_400]

    # dispatch (Rails)
    kinds = [("index", .15), ("show", .25), ("create", .22), ("update", .20), ("labels", .10), ("depots", .08)]
    ts = [t for t in arrivals(rng, DISPATCH_PER_HOUR) if not in_(t, GAP_1) and not in_(t, GAP_2)]
    ts += [FIRST_RO["dispatch"], FIRST_OK["dispatch"], SLOW_EXPORT]
    for t in sorted(ts):
        kind = pick(rng, kinds)
        if t == SLOW_EXPORT:
            kind = "index"
        if t == FIRST_RO["dispatch"] or t == FIRST_OK["dispatch"]:
            kind = "create"
        elif kind in ("create", "update") and (FIRST_RO["dispatch"] > t >= FAULT or FIRST_OK["dispatch"] > t >= DB1_MASTER):
            kind = "show"
        x = rng.random()
        client = PARTNER if x < .25 else WAREHOUSE if x < .5 else rng.choice(POOL_A)
        r = {"t": t, "client": client, "kind": kind, "pid": rng.choice([2841, 2843, 2845, 2847]),
             "rid": "%08x-%04x-4%03x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                    0x8000 | rng.getrandbits(14), rng.getrandbits(48))}
        sid = rng.randint(100_000, next_ship[0])
        ro = in_(t, RO)
        if kind == "index":
            r.update(method="GET", path="/api/shipments", query=f"?page={rng.randint(1, 40)}&status=open",
                     status=200, ms=max(8, int(lognorm(rng, 85, .35))), bytes=rng.randint(9_000, 42_000))
        elif kind == "show":
            st = 404 if rng.random() < .03 else 200
            r.update(method="GET", path=f"/api/shipments/{sid}", query="", status=st,
                     ms=max(4, int(lognorm(rng, 31, .3))), bytes=rng.randint(1_400, 4_800) if st == 200 else 54, sid=sid)
        elif kind == "create":
            next_ship[0] += 1
            st = 500 if ro else 201 if t == FIRST_OK["dispatch"] else 422 if rng.random() < .04 else 201
            ms = int(lognorm(rng, 14, .25)) if st == 500 else max(20, int(lognorm(rng, 96, .35)))
            r.update(method="POST", path="/api/shipments", query="", status=st, ms=ms,
                     bytes={500: 0, 422: rng.randint(90, 160), 201: rng.randint(700, 1_100)}[st], sid=next_ship[0])
        elif kind == "update":
            st = 500 if ro else 200
            ms = int(lognorm(rng, 12, .25)) if st == 500 else max(15, int(lognorm(rng, 58, .3)))
            r.update(method="PATCH", path=f"/api/shipments/{sid}", query="", status=st, ms=ms,
                     bytes=0 if st == 500 else rng.randint(700, 1_100), sid=sid)
        elif kind == "labels":
            r.update(method="POST", path=f"/api/shipments/{sid}/labels", query="", status=202,
                     ms=max(3, int(lognorm(rng, 9, .3))), bytes=rng.randint(60, 90), sid=sid)
        else:
            r.update(method="GET", path="/api/depots", query="", status=200, ms=max(2, int(lognorm(rng, 6, .3))),
                     bytes=rng.randint(5_100, 5_300))
        if t == SLOW_EXPORT:
            r.update(query="?page=1&per_page=5000&status=open", ms=8_421, bytes=4_118_532)
        r["ms"] = max(1, r["ms"])
        P["dispatch"].append(r)
    plateau([r for r in P["dispatch"] if r["method"] == "POST" and r["path"] == "/api/shipments"], "ms", 90)
    for r in P["dispatch"]:
        r["dur"] = r["ms"] + rng.randint(1, 4)
        if r["status"] == 500:
            op = "INSERT" if r["method"] == "POST" else "UPDATE"
            P["pg_ro"].append((r["t"] + sec(r["ms"] * .0006), "dispatch", "dispatch_prod", op,
                               'INSERT INTO "shipments" ("origin", "destination", "weight_kg", "pieces", "created_at", "updated_at") VALUES ($1, $2, $3, $4, $5, $6) RETURNING "id"'
                               if op == "INSERT" else 'UPDATE "shipments" SET "status" = $1, "updated_at" = $2 WHERE "shipments"."id" = $3'))
    plateau(P["dispatch"], "dur", 95)
    plateau(P["dispatch"], "dur", 99)

    # billing (Spring Boot)
    bkinds = [("invoices", .36), ("payments", .22), ("quotes", .12), ("rates", .20), ("get_invoice", .10)]
    ts = [t for t in arrivals(rng, BILLING_PER_HOUR) if not in_(t, GAP_1) and not in_(t, GAP_2)
          and not (BILL_SHUTDOWN <= t < BILL_DOWN[1] + sec(1))]
    ts += [FIRST_RO["billing"], FIRST_OK["billing"]] + RATES_500
    for t in sorted(ts):
        kind = pick(rng, bkinds)
        if t in (FIRST_RO["billing"], FIRST_OK["billing"]):
            kind = "invoices"
        elif t in RATES_500:
            kind = "rates"
        elif kind in ("invoices", "payments", "quotes") and (FIRST_RO["billing"] > t >= FAULT or FIRST_OK["billing"] > t >= DB1_MASTER):
            kind = "rates"
        client = PARTNER if rng.random() < .2 else rng.choice(POOL_A)
        r = {"t": t, "client": client, "kind": kind, "thread": f"nio-8080-exec-{rng.randint(1, 10)}"}
        ro = in_(t, RO)
        if kind == "invoices":
            st = 500 if ro else 201
            r.update(method="POST", uri="/v2/invoices", status=st, took=int(lognorm(rng, 16, .3)) if ro else max(30, int(lognorm(rng, 140, .4))),
                     bytes=rng.randint(180, 260) if ro else rng.randint(900, 1_600))
        elif kind == "payments":
            st = 500 if ro else 402 if rng.random() < .03 else 200
            r.update(method="POST", uri="/v2/payments", status=st, took=int(lognorm(rng, 15, .3)) if ro else max(120, int(lognorm(rng, 420, .35))),
                     bytes=rng.randint(180, 260) if ro else rng.randint(300, 520))
        elif kind == "quotes":
            st = 500 if ro else 400 if rng.random() < .02 else 200
            r.update(method="POST", uri="/v2/quotes", status=st, took=int(lognorm(rng, 14, .3)) if ro else max(25, int(lognorm(rng, 88, .35))),
                     bytes=rng.randint(180, 260) if ro or st == 400 else rng.randint(600, 980))
        elif kind == "rates":
            st = 500 if t in RATES_500 else 200
            r.update(method="GET", uri="/v2/rates", query=f"?lane={rng.choice(['NLRTM-DEHAM', 'BEANR-FRPAR', 'DEHAM-PLWAW', 'NLRTM-GBFXT'])}",
                     status=st, took=max(3, int(lognorm(rng, 14, .4))), bytes=rng.randint(180, 260) if st == 500 else rng.randint(2_000, 3_400))
        else:
            st = 404 if rng.random() < .05 else 200
            r.update(method="GET", uri=f"/v2/invoices/INV-2034-{rng.randint(1000, 9999):06d}", status=st,
                     took=max(4, int(lognorm(rng, 22, .3))), bytes=rng.randint(1_200, 2_400) if st == 200 else 120)
        r.setdefault("query", "")
        r["dur"] = r["took"] + rng.randint(1, 3)
        if r["status"] == 500 and r["kind"] != "rates":
            table = {"invoices": "invoice", "payments": "payment", "quotes": "quote"}[kind]
            P["pg_ro"].append((t + sec(r["took"] * .0006), "billing", "billing", "INSERT",
                               f"insert into {table} (amount, currency, customer_id, created_at, id) values ($1, $2, $3, $4, $5)"))
        P["billing"].append(r)
    plateau(P["billing"], "dur", 95)
    for t in BILL_502:
        P["edge_only"].append({"t": t, "client": rng.choice(POOL_A), "method": "POST", "path": "/v2/quotes", "query": "",
                               "status": 502, "bytes": 11, "router": "billing@docker", "url": BILLING_URL,
                               "dur": rng.randint(1, 3), "ua": "okhttp/4.12.0"})

    # tracker (Node): truck gateways' pings, tracking pages, the fleet map
    gw_of = {ip: f"gw-{i + 21}" for i, ip in enumerate(POOL_B)}
    tkinds = [("ping", .78), ("track", .19), ("fleet", .03)]
    ts = [t for t in arrivals(rng, PINGS_PER_HOUR) if not in_(t, GAP_1) and not in_(t, GAP_2) and not in_(t, TRK_GAP)]
    ts.append(FIRST_RO["tracker"])
    reqs = []
    for t in ts:
        kind = "ping" if t == FIRST_RO["tracker"] else pick(rng, tkinds)
        if kind == "ping" and FIRST_RO["tracker"] > t >= FAULT:
            kind = "track"
        client = rng.choice(POOL_B)
        reqs.append({"t": t, "client": client, "kind": kind, "ua": f"lfr-gw/1.4.2 ({gw_of[client]})"})
    # the flood: gw-17 re-sends its buffer, 240 a minute for 13 minutes
    for m, k in FLOOD_PER_MIN.items():
        lo = FLOOD_START if m == 15 else T(1, m)
        span = (T(1, m, 59, 999_999) - lo).total_seconds()
        pts = sorted(lo + sec(rng.random() * span) for _ in range(k - (1 if m == 15 else 0)))
        if m == 15:
            pts = [FLOOD_START] + pts
        reqs += [{"t": t, "client": FLOOD, "kind": "ping", "ua": FLOOD_UA, "flood": True} for t in pts]
    reqs.sort(key=lambda r: r["t"])
    tokens, last = float(LIMIT_BURST), START
    for r in reqs:
        if r.get("flood") or r["client"] == FLOOD:
            tokens = min(LIMIT_BURST, tokens + (r["t"] - last).total_seconds() * LIMIT_RATE)
            last = r["t"]
            if tokens < 1:
                r["limited"] = True
            else:
                tokens -= 1
    n_id = [48_100]
    for r in reqs:
        t, ro = r["t"], in_(r["t"], RO)
        if r.get("limited"):
            P["edge_only"].append({"t": t, "client": FLOOD, "method": "POST", "path": "/v1/pings", "query": "", "status": 429,
                                   "bytes": 17, "router": "tracker@docker", "url": "-", "dur": 0, "ua": FLOOD_UA})
            continue
        n_id[0] += 1
        r["id"] = n_id[0]
        r["port"] = rng.randint(32_768, 60_999)
        if r["kind"] == "ping":
            flood = 1.8 if T(1, 15) <= t < T(1, 28) else 1.0
            r.update(method="POST", url="/v1/pings", status=503 if ro else 204, bytes=0 if not ro else 64,
                     rt=rng.randint(6, 14) if ro else max(60, int(lognorm(rng, 92 * flood, .3))))
            if ro:
                P["pg_ro"].append((t + sec(.004), "tracker", "tracker", "INSERT",
                                   "INSERT INTO pings (truck_id, lat, lon, speed_kmh, recorded_at) VALUES ($1, $2, $3, $4, $5)"))
        elif r["kind"] == "track":
            st = 404 if rng.random() < .06 else 200
            r.update(method="GET", url=f"/v1/track/LF{rng.randint(10_000_000, 99_999_999)}", status=st,
                     bytes=rng.randint(800, 1_900) if st == 200 else 46, rt=max(3, int(lognorm(rng, 18, .35))))
        else:
            r.update(method="GET", url=f"/v1/fleet/positions?bbox={rng.choice(['3.1,50.7,7.3,53.6', '5.8,47.2,15.1,55.1', '-1.2,48.1,4.9,51.4'])}",
                     status=200, bytes=rng.randint(48_000, 96_000), rt=max(250, int(lognorm(rng, 780, .3))))
        r["dur"] = r["rt"] + rng.randint(1, 3)
        P["tracker"].append(r)
    plateau([r for r in P["tracker"] if r["method"] == "POST"], "rt", 50)
    plateau([r for r in P["tracker"] if r["method"] == "POST"], "rt", 99)
    for r in P["tracker"]:
        r["dur"] = max(r["dur"], r["rt"] + 1)
    for t in TRK_502:
        P["edge_only"].append({"t": t, "client": rng.choice(POOL_B), "method": "POST", "path": "/v1/pings", "query": "",
                               "status": 502, "bytes": 11, "router": "tracker@docker", "url": TRACKER_URL, "dur": 1,
                               "ua": "lfr-gw/1.4.2 (gw-40)"})
    for _ in range(64):
        t = START + sec(rng.random() * (END - START).total_seconds())
        P["edge_only"].append({"t": t, "client": rng.choice(PROBERS), "method": "GET",
                               "path": rng.choice(["/wp-login.php", "/.env", "/admin/config.php", "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php", "/.git/config"]),
                               "query": "", "status": 404, "bytes": 19, "router": "-", "url": "-", "dur": 0,
                               "ua": "Mozilla/5.0 zgrab/0.x"})

    # the label worker's jobs: one per 202 of POST .../labels
    for r in P["dispatch"]:
        if r["kind"] != "labels":
            continue
        carrier = pick(rng, CARRIERS)
        start = r["t"] + sec(r["ms"] / 1000 + .15 + rng.random() * .6)
        if carrier == "parcelnet" and in_(start, PN_QUIET):
            carrier = "dhl"
        pages = 1 if rng.random() < .85 else rng.randint(2, 6)
        med = {"ups": 2400, "dhl": 610, "dpd": 540, "gls": 480, "parcelnet": 700}[carrier]
        P["jobs"].append({"recv": start, "carrier": carrier, "sid": r["sid"], "pages": pages,
                          "render": max(120, int(lognorm(rng, med * (1 + .25 * (pages - 1)), .25)))})
    # the big manifest and parcelnet's outage
    P["jobs"].append({"recv": BIG_MANIFEST, "carrier": "dhl", "sid": 118_999, "pages": 212, "render": 48_213})
    P["jobs"].append({"recv": FIRST_RO["worker"] - sec(1.2), "carrier": "gls", "sid": 118_731, "pages": 1, "render": 640})
    for t in PN_FAILS:
        P["jobs"].append({"recv": t - sec(10.004), "carrier": "parcelnet", "sid": rng.randint(100_000, 118_900), "pages": 1,
                          "render": 0, "pn": "fail"})
    for t in PN_DEFERRED:
        P["jobs"].append({"recv": t, "carrier": "parcelnet", "sid": rng.randint(100_000, 118_900), "pages": 1,
                          "render": int(lognorm(rng, 700, .2)), "pn": "deferred"})
    P["jobs"].sort(key=lambda j: j["recv"])
    for i, j in enumerate(P["jobs"]):
        j["id"] = "lbl_%010x" % rng.getrandbits(40)
        j["upload"] = rng.randint(90, 420)
        j["bytes"] = rng.randint(38_000, 61_000) * j["pages"]
    return P


# --- worker events (shared by the worker log and the database's errors) -----------------

@lru_cache(maxsize=1)
def worker_events():
    """(time, level, event, fields) of the label worker, and the RO errors it caused."""
    P = plan()
    rng = random.Random(PLAN_SEED + 7)
    ev, ro_errs = [], []
    deferred = []

    def attempt(j, t0, n):
        """Renders, uploads and updates one job from t0; returns None when done, else the next try."""
        t = t0 + sec(rng.random() * .05)
        render = j["render"] if n == 1 else int(j["render"] * (.9 + rng.random() * .2))
        t += sec(render / 1000)
        ev.append((t, "info", "label_rendered", [("job_id", j["id"]), ("carrier", j["carrier"]), ("pages", j["pages"]),
                                                  ("duration_ms", render)]))
        t += sec(j["upload"] / 1000)
        ev.append((t, "info", "label_uploaded", [("job_id", j["id"]), ("key", f"labels/2034/03/07/{j['sid']}.pdf"),
                                                  ("bytes", j["bytes"])]))
        t += sec(.003 + rng.random() * .01)
        if FAULT <= t < FIRST_RO["worker"]:
            t = FIRST_RO["worker"] + sec(.05 + rng.random() * .3)
        if in_(t, RO):
            backoff = min(600, 30 * 2 ** (n - 1))
            ev.append((t, "error", "job_failed", [("job_id", j["id"]), ("attempt", n), ("error_type", "ReadOnlySqlTransaction"),
                                                   ("error", "cannot execute UPDATE in a read-only transaction"), ("retry_in_s", backoff)]))
            ro_errs.append((t, "labelworker", "labels", "UPDATE",
                            "UPDATE label_jobs SET status = 'done', object_key = $1, finished_at = now() WHERE id = $2"))
            return t + sec(backoff)
        total = int((t - j["recv"]).total_seconds() * 1000)
        ev.append((t, "info", "job_done", [("job_id", j["id"]), ("attempt", n), ("total_ms", total)]))
        return None

    queue = []
    for j in P["jobs"]:
        if j.get("pn") == "deferred":
            ev.append((j["recv"], "info", "job_received", [("job_id", j["id"]), ("shipment_id", j["sid"]), ("carrier", j["carrier"])]))
            ev.append((j["recv"] + sec(.002), "warning", "job_deferred", [("job_id", j["id"]), ("carrier", "parcelnet"),
                                                                          ("reason", "circuit_open")]))
            deferred.append(j)
            continue
        if j.get("pn") == "fail":
            ev.append((j["recv"], "info", "job_received", [("job_id", j["id"]), ("shipment_id", j["sid"]), ("carrier", j["carrier"])]))
            continue
        ev.append((j["recv"], "info", "job_received", [("job_id", j["id"]), ("shipment_id", j["sid"]), ("carrier", j["carrier"])]))
        queue.append((j["recv"], 1, j))
    # the worker-side placement of the first RO failure: a job whose update lands at FIRST_RO
    while queue:
        queue.sort(key=lambda q: q[0])
        t0, n, j = queue.pop(0)
        if n > 1:
            ev.append((t0, "info", "job_retry", [("job_id", j["id"]), ("attempt", n)]))
        nxt = attempt(j, t0, n)
        if nxt is not None:
            queue.append((nxt, n + 1, j))
    # parcelnet: 504s, the breaker
    def pn_fail(t, j, n):
        ev.append((t, "warning", "carrier_request_failed", [("job_id", j["id"]), ("carrier", "parcelnet"), ("status", 504),
                                                            ("elapsed_ms", 10_004)]))
        ev.append((t + sec(.001), "error", "job_failed", [("job_id", j["id"]), ("attempt", n), ("error_type", "CarrierTimeout"),
                                                          ("error", "parcelnet POST /v1/labels: 504 Gateway Timeout after 10.0s"),
                                                          ("retry_in_s", 300)]))
    fails = [j for j in P["jobs"] if j.get("pn") == "fail"]
    for t, j in zip(PN_FAILS, fails):
        pn_fail(t, j, 1)
    ev.append((PN_OPEN, "warning", "circuit_open", [("carrier", "parcelnet"), ("failures", 5), ("cooldown_s", 300)]))
    ev.append((PN_HALF_1, "info", "circuit_half_open", [("carrier", "parcelnet"), ("probe_job", fails[0]["id"])]))
    pn_fail(PN_PROBE_FAIL, fails[0], 2)
    ev.append((PN_PROBE_FAIL + sec(.002), "warning", "circuit_open", [("carrier", "parcelnet"), ("failures", 1), ("cooldown_s", 300)]))
    ev.append((PN_HALF_2, "info", "circuit_half_open", [("carrier", "parcelnet"), ("probe_job", fails[1]["id"])]))
    ev.append((PN_CLOSED - sec(.3), "info", "label_rendered", [("job_id", fails[1]["id"]), ("carrier", "parcelnet"), ("pages", 1),
                                                              ("duration_ms", 2_270)]))
    ev.append((PN_CLOSED, "info", "circuit_closed", [("carrier", "parcelnet")]))
    t = PN_CLOSED + sec(1.1)
    for j in fails[:1] + fails[2:] + deferred:
        ev.append((t, "info", "job_retry", [("job_id", j["id"]), ("attempt", 2 if j.get("pn") == "deferred" else 3 if j is fails[0] else 2)]))
        j2 = dict(j, render=j["render"] or int(lognorm(rng, 700, .2)))
        attempt(j2, t, 2)
        t += sec(1.5 + rng.random())
    # three PDF render errors (a glyph the label font lacks)
    for k, tt in enumerate([T(0, 58, 41, 220_000), T(2, 12, 7, 930_000), T(3, 55, 30, 14_000)]):
        ev.append((tt, "error", "job_failed", [("job_id", "lbl_%010x" % rng.getrandbits(40)), ("attempt", 1),
                                               ("error_type", "PdfRenderError"),
                                               ("error", f"glyph U+{[0x0150, 0x0171, 0x1E9E][k]:04X} missing from font 'LabelMono'"),
                                               ("retry_in_s", 0)]))
    # the heartbeat
    hb = START + sec(11.2)
    while hb < END:
        ev.append((hb, "info", "heartbeat", [("queue", "labels"), ("depth", rng.randint(0, 4)), ("inflight", rng.randint(0, 3))]))
        hb += sec(30)
    ev.sort(key=lambda e: e[0])
    return ev, ro_errs


# --- traefik ------------------------------------------------------------------------------

def traefik_log(rng):
    P = plan()
    rows = []
    for r in P["dispatch"]:
        ua = PARTNER_UA if r["client"] == PARTNER else WAREHOUSE_UA if r["client"] == WAREHOUSE else "okhttp/4.12.0"
        rows.append((r["t"], r["client"], r["method"], r["path"] + r["query"], r["status"], r["bytes"], ua, "dispatch@docker",
                     DISPATCH_URL, r["dur"]))
    for r in P["billing"]:
        ua = PARTNER_UA if r["client"] == PARTNER else "okhttp/4.12.0"
        rows.append((r["t"], r["client"], r["method"], r["uri"] + r["query"], r["status"], r["bytes"], ua, "billing@docker",
                     BILLING_URL, r["dur"]))
    for r in P["tracker"]:
        rows.append((r["t"], r["client"], r["method"], r["url"], r["status"], r["bytes"], r["ua"], "tracker@docker",
                     TRACKER_URL, r["dur"]))
    for r in P["edge_only"]:
        rows.append((r["t"], r["client"], r["method"], r["path"] + r["query"], r["status"], r["bytes"], r["ua"], r["router"],
                     r["url"], r["dur"]))
    rows.sort(key=lambda x: x[0])
    out, n = [], 1_843_211
    for t, ip, m, target, st, size, ua, router, url, dur in rows:
        n += 1
        out.append(f'{ip} - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "{m} {target} HTTP/1.1" {st} {size} "-" "{ua}" {n} '
                   f'"{router}" "{url}" {dur}ms\n')
    return "".join(out)


# --- Rails production.log -------------------------------------------------------------------

STATUS_TEXT = {200: "OK", 201: "Created", 202: "Accepted", 404: "Not Found", 422: "Unprocessable Entity",
               500: "Internal Server Error"}


def production_log(rng):
    P = plan()
    recs = []  # (time, pid, lines)

    def line(t, pid, lvl, rid, msg):
        full = {"I": "INFO", "F": "FATAL", "W": "WARN", "D": "DEBUG", "E": "ERROR"}[lvl]
        tag = f"[{rid}] " if rid else ""
        return f"{lvl}, [{iso(t)} #{pid}] {full:>5} -- : {tag}{msg}\n"

    controller = {"index": "Api::V1::ShipmentsController#index", "show": "Api::V1::ShipmentsController#show",
                  "create": "Api::V1::ShipmentsController#create", "update": "Api::V1::ShipmentsController#update",
                  "labels": "Api::V1::LabelsController#create", "depots": "Api::V1::DepotsController#index"}
    for r in P["dispatch"]:
        t, pid, rid = r["t"], r["pid"], r["rid"]
        L = [line(t, pid, "I", rid, f'Started {r["method"]} "{r["path"]}{r["query"]}" for {r["client"]} at {t.strftime("%Y-%m-%d %H:%M:%S")} +0000'),
             line(t + sec(.0004), pid, "I", rid, f'Processing by {controller[r["kind"]]} as JSON')]
        if r["kind"] == "index":
            q = dict(x.split("=") for x in r["query"][1:].split("&"))
            L.append(line(t + sec(.0005), pid, "I", rid, f'  Parameters: {{"page"=>"{q["page"]}", "status"=>"open"}}'))
        elif r["kind"] in ("show", "labels"):
            L.append(line(t + sec(.0005), pid, "I", rid, f'  Parameters: {{"id"=>"{r["sid"]}"}}'))
        elif r["kind"] == "create":
            o, d = rng.sample(["NLRTM", "DEHAM", "BEANR", "FRPAR", "PLWAW", "GBFXT", "CZPRG"], 2)
            L.append(line(t + sec(.0005), pid, "I", rid, f'  Parameters: {{"shipment"=>{{"origin"=>"{o}", "destination"=>"{d}", '
                                                           f'"weight_kg"=>{rng.randint(40, 2400)}, "pieces"=>{rng.randint(1, 12)}}}}}'))
        elif r["kind"] == "update":
            L.append(line(t + sec(.0005), pid, "I", rid, f'  Parameters: {{"shipment"=>{{"status"=>"{rng.choice(["picked_up", "in_transit", "delivered"])}"}}, "id"=>"{r["sid"]}"}}'))
        done = t + sec(r["ms"] / 1000)
        ar = r["ms"] * (.2 + rng.random() * .5)
        views = "" if r["status"] in (500, 202) else f"Views: {r['ms'] * .1 + rng.random():.1f}ms | "
        if r["kind"] == "labels":
            ar = 0
        L.append(line(done, pid, "I", rid, f'Completed {r["status"]} {STATUS_TEXT[r["status"]]} in {r["ms"]}ms '
                                           f'({views}ActiveRecord: {ar:.1f}ms | Allocations: {rng.randint(900, 14_000)})'))
        if r["status"] == 500:
            op = "INSERT" if r["method"] == "POST" else "UPDATE"
            where = ("app/models/shipment.rb:141:in `assign_tracking_code!'", "app/controllers/api/v1/shipments_controller.rb:27:in `create'") \
                if op == "INSERT" else ("app/models/shipment.rb:212:in `transition_to!'", "app/controllers/api/v1/shipments_controller.rb:44:in `update'")
            f = done + sec(.0003)
            L += [line(f, pid, "F", rid, "  "),
                  line(f, pid, "F", rid, f"ActiveRecord::StatementInvalid (PG::ReadOnlySqlTransaction: ERROR:  cannot execute {op} in a read-only transaction"),
                  "):\n",
                  line(f, pid, "F", rid, "  "),
                  line(f, pid, "F", rid, where[0]),
                  line(f, pid, "F", rid, where[1])]
        recs.append((t, L))
    # Puma's health endpoint, hit by traefik every 15 s
    t = START + sec(7.31)
    while t < END:
        pid = rng.choice([2841, 2843, 2845, 2847])
        rid = "%08x-%04x-4%03x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                              0x8000 | rng.getrandbits(14), rng.getrandbits(48))
        recs.append((t, [line(t, pid, "I", rid, f'Started GET "/up" for {EDGE_IP} at {t.strftime("%Y-%m-%d %H:%M:%S")} +0000'),
                         line(t + sec(.0002), pid, "I", rid, "Processing by Rails::HealthController#show as HTML"),
                         line(t + sec(.0009), pid, "I", rid, f"Completed 200 OK in 0ms (Views: 0.1ms | ActiveRecord: 0.0ms | Allocations: {rng.randint(60, 90)})")]))
        t += sec(15)
    recs.sort(key=lambda x: x[0])
    return "".join("".join(L) for _, L in recs)


# --- Spring Boot billing-service.log --------------------------------------------------------

PSQL_TRACE = """org.postgresql.util.PSQLException: ERROR: cannot execute INSERT in a read-only transaction
	at org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2676)
	at org.postgresql.core.v3.QueryExecutorImpl.processResults(QueryExecutorImpl.java:2366)
	at org.postgresql.core.v3.QueryExecutorImpl.execute(QueryExecutorImpl.java:356)
	at org.postgresql.jdbc.PgStatement.executeInternal(PgStatement.java:496)
	at org.postgresql.jdbc.PgStatement.execute(PgStatement.java:413)
	at org.postgresql.jdbc.PgPreparedStatement.executeWithFlags(PgPreparedStatement.java:190)
	at org.postgresql.jdbc.PgPreparedStatement.executeUpdate(PgPreparedStatement.java:152)
	at com.zaxxer.hikari.pool.ProxyPreparedStatement.executeUpdate(ProxyPreparedStatement.java:61)
	at com.zaxxer.hikari.pool.HikariProxyPreparedStatement.executeUpdate(HikariProxyPreparedStatement.java)
	at org.hibernate.engine.jdbc.internal.ResultSetReturnImpl.executeUpdate(ResultSetReturnImpl.java:197)
	at org.hibernate.engine.jdbc.batch.internal.NonBatchingBatch.addToBatch(NonBatchingBatch.java:46)
	at org.hibernate.persister.entity.AbstractEntityPersister.insert(AbstractEntityPersister.java:3375)
	at org.hibernate.action.internal.EntityInsertAction.execute(EntityInsertAction.java:107)
	at org.hibernate.engine.spi.ActionQueue.executeActions(ActionQueue.java:604)
	at org.springframework.transaction.support.TransactionTemplate.execute(TransactionTemplate.java:140)
	at com.larkspur.billing.{svc}.{cls}.{meth}({cls}.java:{ln})
	at com.larkspur.billing.web.{ctl}.{cmeth}({ctl}.java:{cln})
	at java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	at org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1006)
	at org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run(TaskThread.java:61)
	at java.base/java.lang.Thread.run(Thread.java:840)
"""

NPE_TRACE = """java.lang.NullPointerException: Cannot invoke "java.math.BigDecimal.multiply(java.math.BigDecimal)" because "surcharge" is null
	at com.larkspur.billing.rates.LaneRateService.fuelAdjusted(LaneRateService.java:118)
	at com.larkspur.billing.rates.LaneRateService.rateFor(LaneRateService.java:71)
	at com.larkspur.billing.web.RateController.rates(RateController.java:39)
	at java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
	at org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1006)
	at java.base/java.lang.Thread.run(Thread.java:840)
"""

BROKEN_TRACE = """org.postgresql.util.PSQLException: An I/O error occurred while sending to the backend.
	at org.postgresql.core.v3.QueryExecutorImpl.execute(QueryExecutorImpl.java:395)
	at org.postgresql.jdbc.PgStatement.executeInternal(PgStatement.java:496)
	at com.zaxxer.hikari.pool.PoolBase.isConnectionAlive(PoolBase.java:163)
	at com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:186)
	at java.base/java.lang.Thread.run(Thread.java:840)
Caused by: java.net.SocketException: Connection reset
	at java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:328)
	at org.postgresql.core.PGStream.receiveChar(PGStream.java:467)
	... 4 common frames omitted
"""


def billing_log(rng):
    P = plan()
    recs = []

    def rec(t, lvl, pid, thread, logger, msg, trace=""):
        lg = logger if len(logger) <= 40 else logger[-40:]
        recs.append((t, f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} {lvl:>5} {pid} --- [{thread:>15}] "
                        f"{lg:<40} : {msg}\n{trace}"))

    for r in P["billing"]:
        pid = 2954 if r["t"] < BILL_SHUTDOWN else 3177
        t, th = r["t"], r["thread"]
        done = t + sec(r["took"] / 1000)
        if r["status"] == 500 and r["kind"] != "rates":
            cls = {"invoices": ("invoice", "InvoiceService", "create", 88, "InvoiceController", "create", 52),
                   "payments": ("payment", "PaymentService", "capture", 131, "PaymentController", "capture", 47),
                   "quotes": ("quote", "QuoteService", "price", 64, "QuoteController", "quote", 33)}[r["kind"]]
            rec(done - sec(.006), "WARN", pid, th, "o.h.engine.jdbc.spi.SqlExceptionHelper", "SQL Error: 0, SQLState: 25006")
            rec(done - sec(.006), "ERROR", pid, th, "o.h.engine.jdbc.spi.SqlExceptionHelper",
                "ERROR: cannot execute INSERT in a read-only transaction")
            rec(done - sec(.002), "ERROR", pid, th, "o.a.c.c.C.[.[.[/].[dispatcherServlet]",
                "Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed; "
                "nested exception is org.springframework.orm.jpa.JpaSystemException: could not execute statement; nested exception is "
                "org.hibernate.exception.GenericJDBCException: could not execute statement] with root cause",
                PSQL_TRACE.format(svc=cls[0], cls=cls[1], meth=cls[2], ln=cls[3], ctl=cls[4], cmeth=cls[5], cln=cls[6]))
        elif r["status"] == 500:
            rec(done - sec(.002), "ERROR", pid, th, "o.a.c.c.C.[.[.[/].[dispatcherServlet]",
                "Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed; "
                "nested exception is java.lang.NullPointerException: Cannot invoke \"java.math.BigDecimal.multiply(java.math.BigDecimal)\" "
                "because \"surcharge\" is null] with root cause", NPE_TRACE)
        elif r["kind"] == "quotes" and r["status"] == 200:
            rec(done - sec(.001), "INFO", pid, th, "c.l.billing.quote.QuoteService",
                f"quote lane={rng.choice(['NLRTM-DEHAM', 'BEANR-FRPAR', 'DEHAM-PLWAW'])} weight={rng.randint(40, 2400)}kg "
                f"price={rng.randint(80, 2600)}.{rng.randint(0, 99):02d} EUR")
        elif r["kind"] == "payments" and r["status"] == 200:
            rec(done - sec(.001), "INFO", pid, th, "c.l.billing.payment.PaymentService",
                f"captured psp_ref=pi_{rng.getrandbits(48):012x} amount={rng.randint(80, 9000)}.{rng.randint(0, 99):02d} EUR")
        elif r["status"] in (400, 402):
            rec(done - sec(.001), "WARN", pid, th, "o.s.w.s.m.s.DefaultHandlerExceptionResolver",
                "Resolved [org.springframework.http.converter.HttpMessageNotReadableException: JSON parse error: Cannot deserialize value of type `java.math.BigDecimal` from String \"n/a\"]"
                if r["status"] == 400 else "Resolved [com.larkspur.billing.payment.CardDeclinedException: card_declined]")
        rec(done, "INFO", pid, th, "c.l.billing.web.RequestTimingFilter",
            f"method={r['method']} uri={r['uri']} status={r['status']} took={r['took']}ms")
    # the deploy
    rec(BILL_SHUTDOWN, "INFO", 2954, "ionShutdownHook", "o.s.b.w.e.tomcat.GracefulShutdown",
        "Commencing graceful shutdown. Waiting for active requests to complete")
    rec(BILL_SHUTDOWN + sec(.31), "INFO", 2954, "tomcat-shutdown", "o.s.b.w.e.tomcat.GracefulShutdown", "Graceful shutdown complete")
    rec(BILL_SHUTDOWN + sec(.35), "INFO", 2954, "ionShutdownHook", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Shutdown initiated...")
    rec(BILL_SHUTDOWN + sec(.37), "INFO", 2954, "ionShutdownHook", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Shutdown completed.")
    b = T(0, 41, 7, 201_000)
    for dt, logger, msg in [
        (0, "c.l.billing.BillingApplication", "Starting BillingApplication v3.14.2 using Java 17.0.10 on lfr-bill-01 with PID 3177 (/srv/billing/billing-3.14.2.jar started by billing in /srv/billing)"),
        (.004, "c.l.billing.BillingApplication", "The following 1 profile is active: \"prod\""),
        (2.91, "o.s.d.r.c.RepositoryConfigurationDelegate", "Bootstrapping Spring Data JPA repositories in DEFAULT mode."),
        (3.12, "o.s.d.r.c.RepositoryConfigurationDelegate", "Finished Spring Data repository scanning in 188 ms. Found 9 JPA repository interfaces."),
        (4.53, "o.s.b.w.embedded.tomcat.TomcatWebServer", "Tomcat initialized with port(s): 8080 (http)"),
        (4.56, "o.apache.catalina.core.StandardService", "Starting service [Tomcat]"),
        (4.56, "org.apache.catalina.core.StandardEngine", "Starting Servlet engine: [Apache Tomcat/9.0.83]"),
        (4.71, "o.s.b.w.s.c.ServletWebServerApplicationContext", "Root WebApplicationContext: initialization completed in 4512 ms"),
        (5.02, "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Starting..."),
        (5.33, "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Start completed."),
        (5.61, "o.hibernate.jpa.internal.util.LogHelper", "HHH000204: Processing PersistenceUnitInfo [name: default]"),
        (7.02, "org.hibernate.dialect.Dialect", "HHH000400: Using dialect: org.hibernate.dialect.PostgreSQL10Dialect"),
        (9.8, "j.LocalContainerEntityManagerFactoryBean", "Initialized JPA EntityManagerFactory for persistence unit 'default'"),
        (10.9, "o.s.b.a.e.web.EndpointLinksResolver", "Exposing 3 endpoint(s) beneath base path '/actuator'"),
    ]:
        rec(b + sec(dt), "INFO", 3177, "main", logger, msg)
    rec(TOMCAT_UP, "INFO", 3177, "main", "o.s.b.w.embedded.tomcat.TomcatWebServer", "Tomcat started on port(s): 8080 (http) with context path ''")
    rec(BILL_STARTED, "INFO", 3177, "main", "c.l.billing.BillingApplication", "Started BillingApplication in 11.873 seconds (JVM running for 12.611)")
    # the VIP moves: pooled connections break
    for t0 in (HIKARI_1, HIKARI_2):
        for k in range(3):
            rec(t0 + sec(k * .011), "WARN", 3177, f"nio-8080-exec-{k + 2}", "com.zaxxer.hikari.pool.PoolBase",
                f"HikariPool-1 - Failed to validate connection org.postgresql.jdbc.PgConnection@{rng.getrandbits(28):07x} "
                "(This connection has been closed.). Possibly consider using a shorter maxLifetime value.")
        rec(t0 + sec(.04), "WARN", 3177, "nio-8080-exec-5", "com.zaxxer.hikari.pool.ProxyConnection",
            f"HikariPool-1 - Connection org.postgresql.jdbc.PgConnection@{rng.getrandbits(28):07x} marked as broken because of SQLSTATE(08006), ErrorCode(0)",
            BROKEN_TRACE)
    # fx refresh every 10 minutes, housekeeping
    t = T(0, 30, 0, 512_000)
    while t < END:
        pid = 2954 if t < BILL_SHUTDOWN else 3177
        if not (BILL_SHUTDOWN <= t < BILL_STARTED):
            rec(t + sec(rng.random()), "INFO", pid, "   scheduling-1", "c.l.billing.fx.FxRateRefresher",
                f"refreshed 31 fx rates from ecb in {rng.randint(140, 420)}ms")
        t += sec(600)
    recs.sort(key=lambda x: x[0])
    return "".join(x for _, x in recs)


# --- tracker (pino) -------------------------------------------------------------------------

def tracker_log(rng):
    P = plan()
    recs = []

    def put(t, obj):
        recs.append((t, obj))

    base = {"pid": 412, "hostname": "lfr-trk-01"}
    for r in P["tracker"]:
        pid = 412 if r["t"] < TRK_CRASH else 1288
        done = r["t"] + sec(r["rt"] / 1000)
        if r["status"] == 503:
            put(done - sec(.001), {"level": 50, "pid": pid, "reqId": r["id"],
                                   "err": {"type": "DatabaseError", "message": "cannot execute INSERT in a read-only transaction",
                                           "stack": "error: cannot execute INSERT in a read-only transaction\n    at Parser.parseErrorMessage (/srv/tracker/node_modules/pg-protocol/dist/parser.js:287:98)\n    at Parser.handlePacket (/srv/tracker/node_modules/pg-protocol/dist/parser.js:126:29)\n    at async insertPing (/srv/tracker/src/pings.js:41:5)",
                                           "length": 105, "name": "error", "severity": "ERROR", "code": "25006"},
                                   "msg": "ping insert failed"})
        put(done, {"level": 50 if r["status"] >= 500 else 30, "pid": pid,
                   "req": {"id": r["id"], "method": r["method"], "url": r["url"],
                           "headers": {"host": "track.larkspur-freight.example", "user-agent": r["ua"], "x-forwarded-for": r["client"]},
                           "remoteAddress": EDGE_IP, "remotePort": r["port"]},
                   "res": {"statusCode": r["status"]}, "responseTime": r["rt"], "msg": "request completed"})
    t = T(1, 16, 10, 402_000)
    while t < T(1, 27, 45):
        put(t, {"level": 40, "pid": 412, "lagMs": rng.randint(180, 640), "msg": "event loop lag"})
        t += sec(20 + rng.random() * 12)
    put(TRK_CRASH, {"level": 60, "pid": 412, "err": {"type": "RangeError", "message": "Maximum call stack size exceeded",
                                                     "stack": "RangeError: Maximum call stack size exceeded\n    at simplifyRoute (/srv/tracker/src/geo.js:88:21)\n    at simplifyRoute (/srv/tracker/src/geo.js:97:12)\n    at simplifyRoute (/srv/tracker/src/geo.js:97:12)"},
                    "msg": "uncaughtException"})
    put(TRK_LISTEN - sec(.21), {"level": 30, "pid": 1288, "host": VIP, "db": "tracker", "msg": "connected to postgres"})
    put(TRK_LISTEN, {"level": 30, "pid": 1288, "msg": "Server listening at http://0.0.0.0:8081"})
    t = T(0, 30, 30, 117_000)
    while t < END:
        if not in_(t, TRK_GAP):
            pid = 412 if t < TRK_CRASH else 1288
            put(t, {"level": 30, "pid": pid, "rssMb": rng.randint(180, 260), "heapUsedMb": rng.randint(70, 140),
                    "activeTrucks": rng.randint(380, 460), "msg": "stats"})
        t += sec(60)
    recs.sort(key=lambda x: x[0])
    out = []
    epoch = datetime(1970, 1, 1)
    for t, obj in recs:
        ms = int((t - epoch).total_seconds() * 1000 + 1e-6)
        d = {"level": obj.pop("level"), "time": ms, "pid": obj.pop("pid"), "hostname": base["hostname"]}
        d.update(obj)
        out.append(json.dumps(d, separators=(",", ":")) + "\n")
    return "".join(out)


# --- the database pair's syslog ---------------------------------------------------------------

def db_syslog(rng):
    P = plan()
    _, wro = worker_events()
    recs = []

    def sl(t, host, prog, msg):
        recs.append((t, f"{t.strftime('%b')} {t.day:>2} {t.strftime('%H:%M:%S')} {host} {prog}: {msg}\n"))

    seq = {}

    def pg(t, host, pid, who, lines):
        n = seq[pid] = seq.get(pid, 0) + 1
        for k, (lvl, text) in enumerate(lines, 1):
            who_ = f"{who} " if who != "@" else ""
            sl(t, host, f"postgres[{pid}]", f"[{n}-{k}] {t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} UTC [{pid}] {who_}{lvl}:  {text}")

    # postgres: checkpoints / restartpoints every 5 minutes, slow statements, autovacuum
    t = T(0, 31, 12, 5_000)
    while t < END:
        busy = BACKUP_START <= t < BACKUP_DONE
        w = rng.randint(900, 4_000) * (3 if busy else 1)
        pg(t, "lfr-db-01", 1042, "@", [("LOG", "checkpoint starting: time")])
        tc = t + sec(rng.randint(120, 200))
        pg(tc, "lfr-db-01", 1042, "@", [("LOG", f"checkpoint complete: wrote {w} buffers ({w / 163.84:.1f}%); 0 WAL file(s) added, 0 removed, "
                                               f"{rng.randint(1, 4)} recycled; write={rng.randint(100, 180)}.{rng.randint(0, 999):03d} s, "
                                               f"sync={rng.randint(0, 9)}.{rng.randint(0, 999):03d} s, total={rng.randint(110, 200)}.{rng.randint(0, 999):03d} s")])
        t2 = t + sec(7.3)
        pg(t2, "lfr-db-02", 988, "@", [("LOG", "restartpoint starting: time")])
        pg(t2 + sec(rng.randint(100, 190)), "lfr-db-02", 988, "@",
           [("LOG", f"restartpoint complete: wrote {rng.randint(800, 3800)} buffers; 0 WAL file(s) added, 0 removed")])
        pg(t2 + sec(200), "lfr-db-02", 988, "@", [("LOG", f"recovery restart point at 3A/{rng.getrandbits(28):08X}")])
        t += sec(300)
    for _ in range(950):
        t = START + sec(rng.random() * (END - START).total_seconds())
        slow = 3 if BACKUP_START <= t < BACKUP_DONE else 1
        who = rng.choice(["dispatch@dispatch_prod", "billing@billing", "tracker@tracker", "reporting@dispatch_prod"])
        host = "lfr-db-02" if who.startswith("reporting") or in_(t, RO) else "lfr-db-01"
        q = rng.choice(['SELECT "shipments".* FROM "shipments" WHERE "shipments"."status" = $1 ORDER BY "shipments"."created_at" DESC LIMIT $2 OFFSET $3',
                        "select i1_0.id,i1_0.amount,i1_0.currency from invoice i1_0 where i1_0.customer_id=$1",
                        "SELECT truck_id, lat, lon FROM latest_positions WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)",
                        "SELECT count(*) FROM shipments WHERE depot_id = $1 AND created_at > now() - interval '1 day'"])
        pg(t, host, rng.randint(20_000, 39_999), who, [("LOG", f"duration: {rng.uniform(500, 2400) * slow:.3f} ms  execute <unnamed>: {q}")])
    for _ in range(70):
        t = START + sec(rng.random() * (END - START).total_seconds())
        tb = rng.choice(["public.pings", "public.shipments", "public.label_jobs", "public.invoice"])
        pg(t, "lfr-db-01", rng.randint(40_000, 49_999), "@",
           [("LOG", f"automatic vacuum of table \"{'tracker' if 'pings' in tb else 'billing' if 'invoice' in tb else 'dispatch_prod'}.{tb}\": index scans: 1")])
    # the read-only errors on the standby, one per failed write
    for t, user, db, op, stmt in sorted(P["pg_ro"] + wro):
        pg(t, "lfr-db-02", rng.randint(50_000, 59_999), f"{user}@{db}",
           [("ERROR", f"cannot execute {op} in a read-only transaction"), ("STATEMENT", stmt)])
    # cron and its sessions
    for host in ("lfr-db-01", "lfr-db-02"):
        t = T(0, 30, 1, 300_000 if host == "lfr-db-01" else 410_000)
        while t < END:
            pid = rng.randint(30_000, 39_999)
            sl(t, host, f"CRON[{pid}]", "pam_unix(cron:session): session opened for user postgres(uid=110) by (uid=0)")
            sl(t, host, f"CRON[{pid + 1}]", "(postgres) CMD (/usr/local/bin/pg_stat_snapshot.sh >/dev/null 2>&1)")
            sl(t + sec(rng.random() * 2 + .5), host, f"CRON[{pid}]", "pam_unix(cron:session): session closed for user postgres")
            if t.minute % 10 == 0:
                sl(t, host, f"CRON[{pid + 2}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
            t += sec(300)
    # the nightly backup
    sl(BACKUP_START - sec(1), "lfr-db-01", "CRON[31544]", "(postgres) CMD (/usr/local/bin/pg-backup-nightly.sh)")
    sl(BACKUP_START, "lfr-db-01", "pg-backup[31546]", "starting pg_basebackup to /backup/base/20340307T023002 (compress=gzip:6, max-rate=none)")
    pg(BACKUP_START + sec(.3), "lfr-db-01", 31551, "replicator@[unknown]", [("LOG", "connection authorized: user=replicator replication=true application_name=pg_basebackup")])
    pg(BACKUP_START + sec(.4), "lfr-db-01", 1042, "@", [("LOG", "checkpoint starting: force wait")])
    sl(BACKUP_DONE, "lfr-db-01", "pg-backup[31546]", "base backup finished in 2374s (41.8 GB)")
    # keepalived
    for t in CHK_TIMEOUTS:
        sl(t, "lfr-db-01", "Keepalived_vrrp[1187]", "Script `chk_pgsql` timed out")
    sl(FAULT, "lfr-db-01", "Keepalived_vrrp[1187]", "Script `chk_pgsql` now returning 1")
    sl(FAULT, "lfr-db-01", "Keepalived_vrrp[1187]", "VRRP_Script(chk_pgsql) failed (exited due to timeout)")
    sl(FAULT, "lfr-db-01", "Keepalived_vrrp[1187]", "(VI_DB) Entering FAULT STATE")
    sl(FAULT, "lfr-db-01", "Keepalived_vrrp[1187]", "(VI_DB) sent 0 priority")
    sl(FAULT, "lfr-db-01", "Keepalived_vrrp[1187]", "(VI_DB) removing VIPs.")
    sl(DB2_MASTER - sec(.001), "lfr-db-02", "Keepalived_vrrp[1203]", "(VI_DB) Receive advertisement timeout")
    sl(DB2_MASTER, "lfr-db-02", "Keepalived_vrrp[1203]", "(VI_DB) Entering MASTER STATE")
    sl(DB2_MASTER, "lfr-db-02", "Keepalived_vrrp[1203]", "(VI_DB) setting VIPs.")
    sl(DB2_MASTER, "lfr-db-02", "Keepalived_vrrp[1203]", f"(VI_DB) Sending/queueing gratuitous ARPs on eth0 for {VIP}")
    for k in range(5):
        sl(DB2_MASTER + sec(.002 * (k + 1)), "lfr-db-02", "Keepalived_vrrp[1203]", f"Sending gratuitous ARP on eth0 for {VIP}")
    sl(DB2_MASTER + sec(.4), "lfr-db-02", "systemd[1]", "Started keepalived-notify-master@VI_DB.service - Keepalived notify (MASTER).")
    sl(CHK_OK, "lfr-db-01", "Keepalived_vrrp[1187]", "Script `chk_pgsql` now returning 0")
    sl(CHK_OK, "lfr-db-01", "Keepalived_vrrp[1187]", "VRRP_Script(chk_pgsql) succeeded")
    sl(CHK_OK, "lfr-db-01", "Keepalived_vrrp[1187]", "(VI_DB) Entering BACKUP STATE")
    sl(DB1_MASTER - sec(.01), "lfr-db-01", "Keepalived_vrrp[1187]", f"(VI_DB) received lower priority (100) advert from {DB2_IP} - discarding")
    sl(DB1_MASTER, "lfr-db-01", "Keepalived_vrrp[1187]", "(VI_DB) Entering MASTER STATE")
    sl(DB1_MASTER, "lfr-db-01", "Keepalived_vrrp[1187]", "(VI_DB) setting VIPs.")
    sl(DB1_MASTER, "lfr-db-02", "Keepalived_vrrp[1203]", f"(VI_DB) Master received advert from {DB1_IP} with higher priority 150, ours 100")
    sl(DB1_MASTER, "lfr-db-02", "Keepalived_vrrp[1203]", "(VI_DB) Entering BACKUP STATE")
    sl(DB1_MASTER, "lfr-db-02", "Keepalived_vrrp[1203]", "(VI_DB) removing VIPs.")
    # the on-call logs in
    for t, host in [(T(2, 55, 48, 201_000), "lfr-db-01"), (T(2, 57, 3, 880_000), "lfr-db-02")]:
        pid = rng.randint(40_000, 49_999)
        sl(t, host, f"sshd[{pid}]", "Accepted publickey for mkovacs from 10.8.0.14 port 51532 ssh2: ED25519 SHA256:q8Zk3vR0bT1nWwYc2fJ9pL4xH6sA7dE5uG0iK3mN8oQ")
        sl(t + sec(.05), host, f"sshd[{pid}]", "pam_unix(sshd:session): session opened for user mkovacs(uid=1004) by (uid=0)")
        sl(t + sec(.08), host, "systemd-logind[611]", f"New session {rng.randint(300, 900)} of user mkovacs.")
    recs.sort(key=lambda x: x[0])
    return "".join(x for _, x in recs)


# --- the label worker (structlog key=value) ---------------------------------------------------

def _kv(v):
    return repr(v) if isinstance(v, str) else str(v)


def worker_log(rng):
    ev, _ = worker_events()
    out = []
    for t, lvl, event, fields in ev:
        logger = "labelworker.breaker" if event.startswith("circuit") else "labelworker.carrier" if event.startswith("carrier") \
            else "labelworker.main" if event == "heartbeat" else "labelworker.consumer"
        parts = [f"timestamp='{iso(t)}Z'", f"level='{lvl}'", f"event='{event}'", f"logger='{logger}'"]
        parts += [f"{k}={_kv(v)}" for k, v in fields]
        out.append(" ".join(parts) + "\n")
    return "".join(out)
