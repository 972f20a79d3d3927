"""Writes the `queries-heldout15` fixtures: one night (2035-02-08, 00:30-04:00 UTC) at Pellucid
Optics, an online eyeglasses shop. Three logs, one shared schedule of orders, quotes and
requests so that the files agree with each other:

- `pellucid-web-elb.log`: the AWS Classic Load Balancer access log of `pellucid-web`
  (space-separated, `backend_processing_time` in seconds with 6 decimals, `-1` and backend
  status `0` when the backend never answered);
- `lens-api.log`: the Node.js shop API's Bunyan JSON lines (numeric levels 20-60, `req`/`res`/
  `err`/`order`/`quote` objects, ISO times with milliseconds);
- `lab-router.log`: the Java lab router's java.util.logging output with the JDK's default
  `SimpleFormatter` (two lines per record, 12-hour clock, stack traces with `Caused by:`, a
  blank line after each trace).

Standard library only; everything comes from one seeded `random.Random`.
"""

import json
import random
from datetime import datetime, timedelta

DAY = datetime(2035, 2, 8)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


START, END = T(0, 30), T(4, 0)
ELB = "pellucid-web"
SITE = "https://shop.pellucid-optics.example:443"
B1, B2 = "10.60.1.11:8080", "10.60.1.12:8080"
HOSTS = {B1: "lens-api-1", B2: "lens-api-2"}
SCRAPER, OFFICE, MONITOR = "198.51.100.23", "203.0.113.40", "192.0.2.77"
LABS = {"kestrel": 3.0, "nordlys": 2.2, "ambrose": 1.5, "vantage": 0.9, "hollin": 0.35}
LENS = ["single-vision", "progressive", "bifocal", "occupational"]

# the night's planted events
FIRST_WARN = T(0, 41, 7, 512000)        # first WARNING of lab-router (a slow ack)
OUT_A = T(1, 18, 40, 300000)            # first order to nordlys whose TLS handshake fails
DEGRADED_AT = T(1, 19, 55, 100000)      # third failure: nordlys marked DEGRADED
ERR_MIN = T(1, 31)                      # a minute with a burst of failed nordlys orders
LAST_FAIL = T(1, 51, 37, 100000)        # the last failure
RELOAD = T(1, 52, 4, 0)                 # the trust store is reloaded
HEALTHY = T(1, 52, 11, 0)
REPLAY = T(1, 52, 19, 0)                # parked submissions replayed
FIRST_SYNC_NORDLYS = T(1, 52, 31, 100000)   # lens-api's first nordlys order after the fix (logged)
HEAP_WARN = T(2, 36, 12, 344000)
STALL = T(2, 38, 49, 400000)            # lens-api-2 stops answering (first 504 is 60 s later)
LAG_WARN = T(2, 38, 50, 871000)
UNHEALTHY = T(2, 40, 16, 0)             # the ELB stops sending to lens-api-2
FATAL = T(2, 41, 17, 233000)
LISTEN = T(2, 41, 24, 610000)
DB_A, DB_B = T(3, 6, 12), T(3, 11, 37)  # pg-orders-1 refuses connections (status polls every 5 s)
DB_WARN = T(3, 6, 7, 0)
SCRAPE_A, SCRAPE_B = T(3, 28, 5, 0), T(3, 51, 40, 200000)
BURST_MIN = T(3, 37)

PRESC_P95 = 0.412318    # backend_processing_time plateau of /api/v1/prescriptions/
QUOTE_P90 = 2871        # durationMs plateau of the quotes
TOOK_P50 = 318          # took= plateau of lab-router's routed orders
MAX_BPT = 8.734521      # the slowest request of the night (an occupational quote)
PID1, PID2, PID2B = 1187, 1204, 2930


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _iso_ms(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _q(t):
    """Microseconds rounded down to the millisecond (what a Bunyan time can hold)."""
    return t - timedelta(microseconds=t.microsecond % 1000)


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.elb = []      # dicts: t (log time), client, port, backend, rq, bpt, rs, es, bs, recv, sent, method, path, ua
        self.bun = []      # (t, host, pid, level, fields, msg)
        self.jul = []      # (t, source, level, msg, trace lines)
        self._orders()
        self._quotes()
        self._background()
        self._tune()
        self._lab_router_misc()
        self._lens_api_misc()

    # --- orders: lens-api POST /api/v1/orders -> lab-router -> a lab
    def _orders(self):
        rng = self.rng
        arrivals = []
        for lab, rate in sorted(LABS.items()):
            ts = _poisson(rng, START + timedelta(minutes=1), END - timedelta(minutes=1), rate)
            if lab == "nordlys":
                ts = [t for t in ts if not (T(1, 18, 0) <= t < T(1, 53, 0))]
                fails = [OUT_A, T(1, 19, 12, 800000), DEGRADED_AT - timedelta(milliseconds=300)]
                fails += [t for t in _poisson(rng, T(1, 20, 10), T(1, 51, 20), 2.2) if t.minute != 31]
                fails += sorted(T(1, 31, rng.randint(1, 58), rng.randint(0, 999999)) for _ in range(12))
                fails.append(LAST_FAIL - timedelta(milliseconds=300))
                arrivals += [(t, lab, True, None) for t in fails]
                arrivals.append((FIRST_SYNC_NORDLYS - timedelta(milliseconds=334), lab, False, 284))
            arrivals += [(t, lab, False, None) for t in ts]
        arrivals.sort()
        customers = [f"C-{rng.randint(100000, 999999)}" for _ in range(1300)]
        self.orders = []
        for i, (a, lab, fail, took) in enumerate(arrivals):
            lens = rng.choices(LENS, weights=[45, 27, 17, 11])[0]
            base = {"single-vision": 12900, "progressive": 34900, "bifocal": 22900, "occupational": 29900}[lens]
            cents = base + rng.choice([0, 2500, 3900, 6400]) + rng.choice([0, 0, 4900, 9900])
            o = {"a": a, "id": f"PO-{61000 + i * 3 + rng.randint(0, 2)}", "lab": lab, "fail": fail,
                 "customer": rng.choice(customers), "lens": lens, "cents": cents}
            if not fail:
                o["took"] = took or self._took(lab)
            self.orders.append(o)
        # lab-router parks the failed submissions and replays them after the fix
        self.replays = []
        t = REPLAY + timedelta(milliseconds=600)
        for o in self.orders:
            if o["fail"]:
                took = self._took("nordlys")
                t += timedelta(milliseconds=rng.randint(20, 80))
                self.replays.append({"t": t + timedelta(milliseconds=took), "o": o, "took": took})
                t += timedelta(milliseconds=took)
        assert self.replays[-1]["t"] < T(1, 52, 59)

    def _took(self, lab):
        rng = self.rng
        if lab == "vantage":
            return rng.randint(900, 1400) if rng.random() < 0.55 else rng.randint(2250, 2700)
        u = rng.random()
        if u < 0.45:
            return rng.randint(60, 300)
        if u < 0.65:
            return TOOK_P50
        return rng.randint(340, 700)

    # --- quotes: POST /api/v1/quote, priced in lens-api
    def _quotes(self):
        rng = self.rng
        ts = _poisson(rng, START + timedelta(seconds=20), END - timedelta(minutes=1), 3.0)
        n = len(ts)
        occ = round(n * 0.15)
        prog, bif = round(n * 0.30), round(n * 0.15)
        kinds = ["occupational"] * occ + ["progressive"] * prog + ["bifocal"] * bif + ["single-vision"] * (n - occ - prog - bif)
        rng.shuffle(kinds)
        lo, hi = round(occ * 0.2), round(occ * 0.2)
        occ_d = [rng.randint(2300, 2800) for _ in range(lo)] + [QUOTE_P90] * (occ - lo - hi) + \
                [rng.randint(2900, 4500) for _ in range(hi)]
        rng.shuffle(occ_d)
        self.quotes = []
        for t, k in zip(ts, kinds):
            if k == "occupational":
                d = occ_d.pop()
            else:
                d = {"single-vision": (150, 700), "bifocal": (200, 800), "progressive": (500, 1600)}[k]
                d = rng.randint(*d)
            self.quotes.append({"a": t, "lens": k, "ms": d, "coating": rng.choice(["none", "anti-glare", "blue-filter", "photochromic"]),
                                "index": rng.choice(["1.50", "1.60", "1.67", "1.74"])})
        # the slowest request of the night: one occupational quote at 8.734 s (a 4500 one becomes it)
        big = max((q for q in self.quotes if q["lens"] == "occupational"), key=lambda q: q["ms"])
        big["ms"] = int(MAX_BPT * 1000)
        big["bpt"] = MAX_BPT

    # --- every request the ELB logged
    def _backend(self, a, path):
        if STALL - timedelta(seconds=2) <= a < LISTEN + timedelta(seconds=20):
            if a >= UNHEALTHY or not (path.startswith("/api/v1/frames") or path.startswith("/api/v1/cart") or path.startswith("/static/")):
                return B1
        return self.rng.choice([B1, B2])

    def _req(self, a, client, method, path, status, bpt, sent, recv=0, ua=None, backend=None):
        rng = self.rng
        backend = backend or self._backend(a, path)
        rq = rng.randint(30, 80) / 1e6
        rs = rng.randint(18, 60) / 1e6
        bpt = round(bpt, 6)
        r = {"a": a, "client": client, "port": rng.randint(1024, 65535), "backend": backend, "rq": rq, "bpt": bpt,
             "rs": rs, "es": status, "bs": status, "recv": recv, "sent": sent, "method": method, "path": path,
             "ua": ua or rng.choice(UAS)}
        r["t"] = a + timedelta(seconds=rq + bpt + rs)
        if backend == B2 and STALL <= a < UNHEALTHY:
            r.update(rq=-1, bpt=-1, rs=-1, es=504, bs=0, sent=0, t=a + timedelta(seconds=60))
        self.elb.append(r)
        return r

    def _background(self):
        rng = self.rng
        pool = [f"{rng.choice([24, 31, 46, 67, 73, 82, 89, 95, 109, 151, 176, 185, 212])}.{rng.randint(0, 255)}."
                f"{rng.randint(0, 255)}.{rng.randint(1, 254)}" for _ in range(420)]
        pool = sorted(set(pool) - {SCRAPER, OFFICE, MONITOR})
        weights = [rng.uniform(0.5, 1.5) for _ in pool]
        pick = lambda: rng.choices(pool, weights)[0]  # noqa: E731
        # orders
        for o in self.orders:
            body = rng.randint(600, 1400)
            if o["fail"]:
                r = self._req(o["a"], pick(), "POST", "/api/v1/orders", 503, 0.742 + rng.randint(0, 999) / 1e6, 164, body)
            else:
                r = self._req(o["a"], pick(), "POST", "/api/v1/orders", 201, o["took"] / 1000 + 0.078 + rng.randint(0, 999) / 1e6,
                              rng.randint(380, 520), body)
            o["req"] = r
        for q in self.quotes:
            bpt = q.get("bpt", q["ms"] / 1000 + 0.0031 + rng.randint(0, 800) / 1e6)
            q["req"] = self._req(q["a"], pick(), "POST", "/api/v1/quote", 200, bpt, rng.randint(700, 1300), rng.randint(180, 320))
        # browsing
        presc = []
        for a in _poisson(rng, START + timedelta(seconds=5), END - timedelta(seconds=30), 20.0):
            client = pick()
            u = rng.random()
            if u < 0.36:
                shape = rng.choice(["round", "square", "aviator", "cat-eye", "rectangle"])
                self._req(a, client, "GET", f"/api/v1/frames?shape={shape}&page={rng.randint(1, 6)}", 200,
                          rng.uniform(0.012, 0.25), rng.randint(4000, 18000))
            elif u < 0.50:
                self._req(a, client, "GET", f"/api/v1/frames/FR-{rng.randint(1000, 4999)}-{rng.choice(['BLK', 'TOR', 'GLD', 'CLR'])}",
                          200, rng.uniform(0.008, 0.09), rng.randint(1800, 3600))
            elif u < 0.63:
                presc.append(self._req(a, client, "GET", f"/api/v1/prescriptions/RX-{rng.randint(100000, 999999)}", 200, 0.1,
                                       rng.randint(900, 1700)))
            elif u < 0.73:
                self._req(a, client, "POST", "/api/v1/cart/items", 200, rng.uniform(0.01, 0.1), rng.randint(300, 900),
                          rng.randint(90, 240))
            elif u < 0.80:
                ok = rng.random() < 0.8
                self._req(a, client, "POST", "/api/v1/login", 200 if ok else 401, rng.uniform(0.03, 0.12),
                          rng.randint(420, 560) if ok else 61, rng.randint(70, 130))
            else:
                f = rng.choice(["/static/js/app.7f3c9e1.js", "/static/css/app.7f3c9e1.css", "/static/img/logo.svg"])
                hit = rng.random() < 0.3
                self._req(a, client, "GET", f, 304 if hit else 200, rng.uniform(0.001, 0.01),
                          0 if hit else {"j": 482113, "c": 61840, "i": 7421}[f[8]])
        self._req(STALL, pick(), "GET", "/api/v1/frames?shape=aviator&page=2", 200, 0.05, 9000, backend=B2)
        # prescriptions: backend_processing_time on a plateau at p95
        n = len(presc)
        lo, pl = int(n * 0.88), int(n * 0.09)
        vals = [rng.randint(20000, 380000) / 1e6 for _ in range(lo)] + [PRESC_P95] * pl + \
               [rng.randint(450000, 620000) / 1e6 for _ in range(n - lo - pl)]
        rng.shuffle(vals)
        for r, v in zip(presc, vals):
            assert r["es"] == 200
            r["bpt"] = v
            r["t"] = r["a"] + timedelta(seconds=r["rq"] + v + r["rs"])
        # the office, the monitor and the scraper
        for a in _poisson(rng, START + timedelta(minutes=2), END - timedelta(minutes=2), 1.7):
            self._req(a, OFFICE, "GET", f"/api/v1/frames?shape=round&page={rng.randint(1, 3)}", 200, rng.uniform(0.012, 0.2),
                      rng.randint(4000, 18000), ua="PellucidBackoffice/3.4 (+ops)")
        m = START + timedelta(seconds=11, microseconds=250000)
        while m < END:
            self._req(m, MONITOR, "GET", "/api/v1/frames?shape=round&page=1", 200, rng.uniform(0.012, 0.06), 5120,
                      ua="Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)")
            m += timedelta(minutes=1)
        sc = [SCRAPE_A] + _poisson(rng, SCRAPE_A, SCRAPE_B - timedelta(seconds=1), 26.0)
        sc += [BURST_MIN + timedelta(seconds=rng.uniform(0.5, 59.0)) for _ in range(70)]
        sc = sorted(sc) + [SCRAPE_B]
        self.scrape_429 = []
        for i, a in enumerate(sc):
            limited = i >= 110 and (rng.random() < 0.7 or a == SCRAPE_B)
            r = self._req(a, SCRAPER, "GET", f"/api/v1/frames?shape={rng.choice(['round', 'square', 'aviator'])}&page={i % 40 + 1}",
                          429 if limited else 200, rng.uniform(0.001, 0.003) if limited else rng.uniform(0.012, 0.2),
                          58 if limited else rng.randint(4000, 18000), ua="python-httpx/0.27.0", backend=B1 if i % 2 else B2)
            if limited:
                self.scrape_429.append(r)
        # a few others rate-limited too
        for a in sorted(rng.sample(range(40, 200 * 60), 14)):
            t = START + timedelta(seconds=a, microseconds=rng.randint(0, 999999))
            if STALL - timedelta(minutes=2) < t < LISTEN + timedelta(minutes=2):
                continue
            self._req(t, pick(), "GET", "/api/v1/frames?shape=square&page=2", 429, rng.uniform(0.001, 0.003), 58)

    def _tune(self):
        """Puts the shares and the means asked for off their rounding edges, by moving the fewest planted values."""
        # 4xx share of all requests: turn background frame lookups into 404s until it sits well inside a 0.1 %
        n = len(self.elb)
        cand = [r for r in self.elb if r["path"].startswith("/api/v1/frames/FR-") and r["es"] == 200]
        i = 0
        while True:
            k = sum(1 for r in self.elb if 400 <= r["es"] < 500)
            p = 100 * k / n
            if k > 0.05 * n and 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            r = cand[i * 7]
            r.update(es=404, bs=404, sent=96)
            i += 1
        # progressive share of lens-api's routed orders
        sync = [o for o in self.orders if not o["fail"]]
        i = 0
        while True:
            p = 100 * sum(1 for o in sync if o["lens"] == "progressive") / len(sync)
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            sv = [o for o in sync if o["lens"] == "single-vision" and o["lab"] != "kestrel"]
            sv[i * 5]["lens"] = "progressive"
            i += 1
        # kestrel's mean totalCents exact; the total ends in 50 cents
        kes = [o for o in sync if o["lab"] == "kestrel"]
        rest = sum(o["cents"] for o in kes[:-1])
        mean = round(rest / (len(kes) - 1))
        self.kestrel_mean = mean - mean % 10 + 3
        kes[-1]["cents"] = self.kestrel_mean * len(kes) - rest
        assert 9000 < kes[-1]["cents"] < 70000, kes[-1]["cents"]
        tot = sum(o["cents"] for o in sync)
        amb = [o for o in sync if o["lab"] == "ambrose"][-1]
        amb["cents"] += (50 - tot) % 100

    # --- lab-router's own records
    def _lab_router_misc(self):
        rng = self.rng
        J = self.jul
        for o in self.orders:
            if o["fail"]:
                t = o["a"] + timedelta(milliseconds=300)
                J.append((t, "com.pellucid.labrouter.LabClient submit", "SEVERE",
                          f"Submission of order {o['id']} to lab nordlys failed; parked for retry", _pkix_trace(rng)))
            else:
                t = o["a"] + timedelta(milliseconds=o["took"] + 20)
                J.append((t, "com.pellucid.labrouter.RoutingService route", "INFO",
                          f"Routed order {o['id']} to lab {o['lab']} [lens={o['lens']} took={o['took']}ms]", []))
        for rp in self.replays:
            o = rp["o"]
            J.append((rp["t"], "com.pellucid.labrouter.RoutingService route", "INFO",
                      f"Routed order {o['id']} to lab nordlys [lens={o['lens']} took={rp['took']}ms]", []))
        J.append((DEGRADED_AT, "com.pellucid.labrouter.LabHealth markDegraded", "WARNING",
                  "Lab nordlys marked DEGRADED after 3 consecutive submission failures; new submissions are parked", []))
        J.append((RELOAD, "com.pellucid.labrouter.TrustStoreWatcher reload", "INFO",
                  "Reloaded trust store /etc/lab-router/truststore.jks (38 entries, added alias nordlys-lab-2035)", []))
        J.append((HEALTHY, "com.pellucid.labrouter.LabHealth markHealthy", "INFO", "Lab nordlys marked HEALTHY (probe ok)", []))
        J.append((REPLAY, "com.pellucid.labrouter.ParkingLot replay", "INFO", "Replaying parked submissions for lab nordlys", []))
        # status polls: one summary a minute; every 5 s during the database outage a failure
        m = START + timedelta(seconds=3)
        while m < END:
            if not (DB_A - timedelta(minutes=1) < m < DB_B + timedelta(seconds=30)):
                J.append((m + timedelta(milliseconds=rng.randint(5, 90)), "com.pellucid.labrouter.StatusPoller poll", "INFO",
                          f"Status poll complete: 5 labs, {rng.randint(180, 260)} jobs in progress", []))
            m += timedelta(minutes=1)
        J.append((DB_WARN, "com.zaxxer.hikari.pool.PoolBase isConnectionDead", "WARNING",
                  "HikariPool-1 - Failed to validate connection org.postgresql.jdbc.PgConnection@5e2c3d1a (This connection "
                  "has been closed.). Possibly consider using a shorter maxLifetime value.", []))
        t, labs = DB_A, sorted(LABS)
        i = 0
        while t <= DB_B:
            J.append((t + timedelta(milliseconds=rng.randint(1, 40)), "com.pellucid.labrouter.StatusPoller poll", "SEVERE",
                      f"Status poll for lab {labs[i % 5]} failed", _db_trace(rng)))
            t += timedelta(seconds=5)
            i += 1
        J.append((DB_B + timedelta(seconds=6), "com.zaxxer.hikari.pool.HikariPool checkFailFast", "INFO",
                  "HikariPool-1 - Added connection org.postgresql.jdbc.PgConnection@7a1d93e4", []))
        # slow acknowledgements (WARNING), the first one planted
        ws = [FIRST_WARN] + sorted(START + timedelta(minutes=16 + rng.uniform(0, 190)) for _ in range(24))
        for t in ws:
            lab = rng.choice(["kestrel", "ambrose", "vantage", "hollin"])
            J.append((t, "com.pellucid.labrouter.AckTracker check", "WARNING",
                      f"Lab {lab} slow to acknowledge job J-{rng.randint(400000, 499999)} (ack after {rng.randint(31, 95)} s)", []))
        J.sort(key=lambda x: x[0])

    # --- lens-api's own records
    def _lens_api_misc(self):
        rng = self.rng
        B = self.bun

        def host(r):
            b = r["backend"]
            return HOSTS[b], (PID1 if b == B1 else (PID2 if r["a"] < FATAL else PID2B))

        for o in self.orders:
            r = o["req"]
            h, pid = host(r)
            order = {"id": o["id"], "customerId": o["customer"], "lab": o["lab"], "lensType": o["lens"], "totalCents": o["cents"]}
            rid = f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}"
            if o["fail"]:
                t = o["a"] + timedelta(milliseconds=550)
                err = {"message": "lab-router responded 502: submission to lab nordlys failed", "name": "LabRouterError",
                       "stack": "LabRouterError: lab-router responded 502: submission to lab nordlys failed\n"
                                "    at LabRouterClient.submit (/srv/lens-api/lib/lab-router-client.js:74:13)\n"
                                "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n"
                                "    at async OrderService.place (/srv/lens-api/lib/orders.js:131:5)",
                       "code": "LAB_SUBMIT_FAILED"}
                B.append((t, h, pid, 50, {"req_id": rid, "order": order, "err": err}, "order submission failed"))
            else:
                t = o["a"] + timedelta(milliseconds=o["took"] + 50)
                B.append((t, h, pid, 30, {"req_id": rid, "order": order, "labLatencyMs": o["took"]}, "order routed"))
        for q in self.quotes:
            r = q["req"]
            h, pid = host(r)
            B.append((q["a"] + timedelta(milliseconds=q["ms"]), h, pid, 30,
                      {"quote": {"lensType": q["lens"], "coating": q["coating"], "index": q["index"]}, "durationMs": q["ms"]},
                      "quote computed"))
        for r in self.elb:
            if r["es"] == 429:
                h, pid = host(r)
                B.append((r["t"] - timedelta(milliseconds=1), h, pid, 40,
                          {"client": {"ip": r["client"]}, "req": {"method": "GET", "url": r["path"]}, "limit": "120/min"},
                          "rate limit exceeded"))
        m = START + timedelta(seconds=37)
        while m < END:
            for h, pid in (("lens-api-1", PID1), ("lens-api-2", PID2 if m < FATAL else PID2B)):
                if h == "lens-api-2" and STALL <= m < LISTEN:
                    continue
                B.append((m + timedelta(milliseconds=rng.randint(0, 400)), h, pid, 20,
                          {"entries": rng.randint(1400, 1500)}, "price table cache refreshed"))
            m += timedelta(minutes=2)
        B.append((HEAP_WARN, "lens-api-2", PID2, 40, {"heapUsedMB": 1711, "heapLimitMB": 2048}, "heap usage above 80%"))
        B.append((LAG_WARN, "lens-api-2", PID2, 40, {"lagMs": 4212}, "event loop delay high"))
        B.append((FATAL, "lens-api-2", PID2, 60,
                  {"err": {"message": "Invalid string length", "name": "RangeError",
                           "stack": "RangeError: Invalid string length\n    at JSON.stringify (<anonymous>)\n"
                                    "    at PrescriptionExport.render (/srv/lens-api/lib/export.js:88:21)\n"
                                    "    at async exportAll (/srv/lens-api/lib/export.js:41:7)"}},
                  "uncaught exception, exiting"))
        B.append((LISTEN, "lens-api-2", PID2B, 30, {"port": 8080, "version": "4.18.2"}, "lens-api listening"))
        B.sort(key=lambda x: x[0])


UAS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "PellucidApp/7.2.1 (Android 15; Pixel 8)",
]


def _pkix_trace(rng):
    msg = "PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: " \
          "unable to find valid certification path to requested target"
    return [
        "com.pellucid.labrouter.LabSubmissionException: lab nordlys: TLS handshake failed for "
        "https://orders.nordlys-lab.example/api/v3/jobs",
        "\tat com.pellucid.labrouter.LabClient.submit(LabClient.java:142)",
        "\tat com.pellucid.labrouter.RoutingService.route(RoutingService.java:77)",
        "\tat com.pellucid.labrouter.http.RouteHandler.handle(RouteHandler.java:51)",
        "\tat jdk.httpserver/com.sun.net.httpserver.Filter$Chain.doFilter(Filter.java:98)",
        "\tat jdk.httpserver/sun.net.httpserver.ServerImpl$Exchange.run(ServerImpl.java:851)",
        "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)",
        "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
        "Caused by: javax.net.ssl.SSLHandshakeException: " + msg,
        "\tat java.base/sun.security.ssl.Alert.createSSLException(Alert.java:130)",
        "\tat java.base/sun.security.ssl.TransportContext.fatal(TransportContext.java:378)",
        "\tat java.base/sun.security.ssl.CertificateMessage$T13CertificateConsumer.checkServerCerts(CertificateMessage.java:1297)",
        "\tat java.net.http/jdk.internal.net.http.HttpClientImpl.send(HttpClientImpl.java:908)",
        "\tat com.pellucid.labrouter.LabClient.submit(LabClient.java:128)",
        "\t... 6 more",
        "Caused by: sun.security.validator.ValidatorException: " + msg,
        "\tat java.base/sun.security.validator.PKIXValidator.doBuild(PKIXValidator.java:388)",
        "\tat java.base/sun.security.validator.PKIXValidator.engineValidate(PKIXValidator.java:271)",
        "\tat java.base/sun.security.validator.Validator.validate(Validator.java:256)",
        "\t... 19 more",
        "Caused by: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target",
        "\tat java.base/sun.security.provider.certpath.SunCertPathBuilder.build(SunCertPathBuilder.java:148)",
        "\tat java.base/java.security.cert.CertPathBuilder.build(CertPathBuilder.java:297)",
        "\t... 24 more",
    ]


def _db_trace(rng):
    return [
        "java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after "
        f"{rng.randint(5000, 5003)}ms (total=0, active=0, idle=0, waiting={rng.randint(1, 4)})",
        "\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)",
        "\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)",
        "\tat com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:100)",
        "\tat com.pellucid.labrouter.JobStore.openJobs(JobStore.java:64)",
        "\tat com.pellucid.labrouter.StatusPoller.poll(StatusPoller.java:39)",
        "\tat java.base/java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(ScheduledThreadPoolExecutor.java:304)",
        "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
        "Caused by: org.postgresql.util.PSQLException: Connection to pg-orders-1:5432 refused. Check that the hostname and port "
        "are correct and that the postmaster is accepting TCP/IP connections.",
        "\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:346)",
        "\tat org.postgresql.core.ConnectionFactory.openConnection(ConnectionFactory.java:54)",
        "\tat org.postgresql.jdbc.PgConnection.<init>(PgConnection.java:273)",
        "\tat com.zaxxer.hikari.pool.PoolBase.newConnection(PoolBase.java:359)",
        "\t... 3 more",
        "Caused by: java.net.ConnectException: Connection refused",
        "\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)",
        "\tat java.base/sun.nio.ch.Net.pollConnectNow(Net.java:682)",
        "\tat java.base/sun.nio.ch.NioSocketImpl.timedFinishConnect(NioSocketImpl.java:542)",
        "\tat java.base/java.net.Socket.connect(Socket.java:751)",
        "\tat org.postgresql.core.PGStream.createSocket(PGStream.java:243)",
        "\t... 11 more",
    ]


# --- rendering

def elb_log(night):
    out = []
    for r in sorted(night.elb, key=lambda r: r["t"]):
        def f(x):
            return "-1" if x == -1 else f"{x:.6f}"
        t = r["t"].strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        out.append(f'{t} {ELB} {r["client"]}:{r["port"]} {r["backend"]} {f(r["rq"])} {f(r["bpt"])} {f(r["rs"])} '
                   f'{r["es"]} {r["bs"]} {r["recv"]} {r["sent"]} "{r["method"]} {SITE}{r["path"]} HTTP/1.1" "{r["ua"]}" '
                   f'ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2')
    return "\n".join(out) + "\n"


def bunyan_log(night):
    out = []
    for t, h, pid, level, fields, msg in night.bun:
        rec = {"name": "lens-api", "hostname": h, "pid": pid, "level": level}
        rec.update(fields)
        rec.update({"msg": msg, "time": _iso_ms(t), "v": 0})
        out.append(json.dumps(rec, separators=(",", ":")))
    return "\n".join(out) + "\n"


def _jul_time(t):
    h12 = t.hour % 12 or 12
    return f"{t.strftime('%b %d, %Y')} {h12}:{t.strftime('%M:%S')} {'AM' if t.hour < 12 else 'PM'}"


def jul_log(night):
    out = []
    for t, source, level, msg, trace in night.jul:
        out.append(f"{_jul_time(t)} {source}")
        out.append(f"{level}: {msg}")
        if trace:
            out.extend(trace)
            out.append("")
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {"pellucid-web-elb.log": elb_log(night), "lens-api.log": bunyan_log(night), "lab-router.log": jul_log(night)}, night
