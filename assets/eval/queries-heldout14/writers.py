"""Writes the `queries-heldout14` fixtures: one harvest night (2035-09-18, 00:00-04:00 UTC) at
the Tallgrass Grain Co-operative, seen by three logs that share one plan (`plan()`):

- `tg-web-1.access.log`: lighttpd 1.4 `mod_accesslog`, its default format
  (`%h %V %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`) with `%D` (microseconds) appended;
- `weighbridge-gw.json`: the weighbridge gateway, a .NET 8 worker logging through
  `Microsoft.Extensions.Logging`'s JSON console formatter (one object a line, `State` nested);
- `intake-service.log`: the intake service, Quarkus 3 on the JVM, its default log format
  (`%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%c{3.}] (%t) %s%e%n`) with stack traces and `Caused by:`.

Every planted event sits at a chosen second; `gen.py` checks the parsed files against it.
"""

import json
import random
from datetime import datetime, timedelta

PLAN_SEED = 35091802
DAY = datetime(2035, 9, 18)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def S(x):
    return timedelta(seconds=x)


START, END = T(0, 0, 20), T(3, 59, 30)

# --- the planted events
E1_A, E1_B = T(1, 12, 2, 400000), T(1, 19, 40)          # requests starting here fail (DB in recovery)
FIRST_E1_BOOKING = E1_A                                  # its ERROR at E1_A + 5 s
FIRST_E1_TICKET_WEIGH = T(1, 12, 4, 600000)              # posted 0.5 s later, fails 5 s after that
AGROAL_WARN = T(1, 12, 3, 118000)
RESTORED = T(1, 19, 52, 306000)
FLUSH = T(1, 20, 5, 204000)
RETRY_MINUTE = T(1, 15)                                  # farmers hammering "book" while it fails
RETRY_EXTRA = 28
STOPPED = T(3, 40, 5, 912000)
DEPLOY_503 = [T(3, 40, 6, 311000), T(3, 40, 7, 84000), T(3, 40, 8, 640000), T(3, 40, 9, 27000),
              T(3, 40, 9, 950000), T(3, 40, 10, 402000), T(3, 40, 11, 618000)]
STARTED = T(3, 40, 12, 447000)
WB3_LOST = T(2, 31, 18, 204000)
WB3_RETRIES = [T(2, 31, 23, 210000), T(2, 31, 33, 215000), T(2, 31, 53, 219000), T(2, 32, 33, 224000),
               T(2, 33, 33, 230000), T(2, 34, 33, 233000), T(2, 35, 33, 240000), T(2, 36, 33, 244000)]
WB3_CONNECTED = T(2, 36, 52, 517000)
WB3_FIRST_AFTER = T(2, 37, 40, 88000)
REJECT_WEIGH = T(3, 7, 32, 512000)                       # its post fails with 422 (moisture probe NaN)
HEAVY_WEIGH = T(2, 52, 10, 35000)
HEAVY = (22120, 46220)                                   # tare, net: gross 68,340 kg
SCRAPER_A, SCRAPER_B = T(2, 5), T(2, 25)
SCRAPER_BURST = T(2, 17)
SCRAPER_IP, SCRAPER_UA = "198.51.100.23", "AgPriceBot/2.1 (+http://agpricebot.example/bot)"
GW_IP, GW_UA = "10.61.0.15", "Tallgrass.Weighbridge/3.4.0"
MON_IP, MON_UA = "10.61.0.9", "monit/5.33.0"
STAFF_IP = "10.61.0.40"
BRIDGES = {"WB-1": 400, "WB-2": 520, "WB-3": 190, "WB-4": 290}
BRIDGE_HOST = {"WB-1": "10.61.3.11", "WB-2": "10.61.3.16", "WB-3": "10.61.3.21", "WB-4": "10.61.3.27"}
P99_RANK = 0.99
BOOK_P90_MS = 268
SLOTS_P95_US = 131_840
GE_MS = 750
SILOS = {"S-03": 150, "S-07": 110, "S-11": 82, "S-01": 50, "S-05": 46, "S-02": 44, "S-09": 40,
         "S-04": 36, "S-06": 33, "S-08": 30, "S-10": 28, "S-12": 26}
N_SMS = 74
N_REPORTS = 6
VHOST_BOOK, VHOST_API, VHOST_PRICES = "book.tallgrass-coop.example", "api.tallgrass-coop.example", "prices.tallgrass-coop.example"

FARMER_UAS = [
    "Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Linux; Android 13; moto g54 5G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
]

_PLAN = None


def _uniform(rng, a, b, k, avoid=()):
    out = []
    span = (b - a).total_seconds()
    while len(out) < k:
        t = a + timedelta(microseconds=int(rng.random() * span * 1e6))
        if any(x <= t < y for x, y in avoid):
            continue
        out.append(t)
    return sorted(out)


def _farmer_ip(rng):
    if rng.random() < 0.3:
        return rng.choice(["203.0.113.", "192.0.2."]) + f"{rng.randint(1, 254)}"
    return rng.choice(["100.71.", "100.88."]) + f"{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def _plate(rng):
    return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3)) + "-" + f"{rng.randint(100, 999)}"


def plan():
    """The night's shared schedule: every ticket the weighbridges post and every /api/ request."""
    global _PLAN
    if _PLAN is not None:
        return _PLAN
    rng = random.Random(PLAN_SEED)
    P = {}
    # --- trucks on the weighbridges
    plates = sorted({_plate(rng) for _ in range(420)})
    hot = plates[:60]
    avoid_all = [(T(1, 11, 58), T(1, 12, 4, 900000)), (T(3, 39, 55), T(3, 40, 20)),
                 (T(3, 7, 25), T(3, 7, 40)), (T(2, 52, 5), T(2, 52, 15)), (T(1, 19, 35), T(1, 20, 30))]
    weighs = []
    for b, k in BRIDGES.items():
        extra = 0
        avoid = list(avoid_all)
        if b == "WB-3":
            avoid.append((T(2, 31, 0), WB3_FIRST_AFTER + S(5)))
            extra = 1
        if b == "WB-2":
            extra = 2
        if b == "WB-1":
            extra = 1
        for t in _uniform(rng, START, END, k - extra, avoid):
            weighs.append({"t": t, "bridge": b})
    weighs.append({"t": FIRST_E1_TICKET_WEIGH, "bridge": "WB-1"})
    weighs.append({"t": WB3_FIRST_AFTER, "bridge": "WB-3"})
    weighs.append({"t": REJECT_WEIGH, "bridge": "WB-2", "reject": True})
    weighs.append({"t": HEAVY_WEIGH, "bridge": "WB-2", "heavy": True})
    weighs.sort(key=lambda w: w["t"])
    for w in weighs:
        w["plate"] = rng.choice(hot) if rng.random() < 0.55 else rng.choice(plates)
        if w.get("heavy"):
            w["tare"], w["net"] = HEAVY
        else:
            w["tare"] = rng.randint(14100, 19800)
            w["net"] = rng.randint(17800, 41200)
    # sum of net weights: tonnes with .2-ish fraction (off every rounding edge)
    tot = sum(w["net"] for w in weighs)
    want = (tot // 1000) * 1000 + 237
    weighs[len(weighs) // 2]["net"] += want - tot
    P["net_total_kg"] = want
    # tickets: ids in post order; posts
    tid = 90417
    posts = []
    for w in weighs:
        w["ticket"] = tid
        tid += 1
        start = w["t"] + S(0.5 if w["t"] == FIRST_E1_TICKET_WEIGH else 0.3 + rng.random() * 0.5)
        w["post"] = start
        if E1_A <= start < E1_B:
            posts.append({"t": start, "w": w, "status": 500, "ms": 5000 + rng.randint(4, 41)})
            w["queued"] = True
        elif w.get("reject"):
            posts.append({"t": start, "w": w, "status": 422, "ms": 87})
            P["reject_ticket"] = w["ticket"]
        else:
            posts.append({"t": start, "w": w, "status": 201, "ms": None})
    queued = [w for w in weighs if w.get("queued")]
    P["queued"] = len(queued)
    t = FLUSH + S(0.15)
    for w in queued:
        posts.append({"t": t, "w": w, "status": 201, "ms": None, "flush": True})
        t += S(0.21 + rng.random() * 0.1)
    P["flush_end"] = t
    ok = [p for p in posts if p["status"] == 201]
    for p in ok:
        b = p["w"]["bridge"]
        if b == "WB-4":
            p["ms"] = min(1690, int(260 + rng.expovariate(1 / 380)))
        else:
            p["ms"] = int(70 + rng.expovariate(1 / 95)) + (25 if b == "WB-3" else 0)
        if p["ms"] in range(740, 761):
            p["ms"] = 772
    w4 = [p for p in ok if p["w"]["bridge"] == "WB-4" and 560 < p["ms"] < 720]
    for p in w4[:3]:
        p["ms"] = GE_MS                      # `>=` and `>` differ by these three
    srt = sorted(ok, key=lambda p: p["ms"])
    n = len(srt)
    mid = int(P99_RANK * n)
    lo, hi = mid - 5, mid + 5
    val = srt[mid]["ms"]
    for p in srt[lo:hi + 1]:
        p["ms"] = val
    P["p99_ms"] = val
    # WB-4's mean an exact integer
    w4 = [p for p in ok if p["w"]["bridge"] == "WB-4"]
    r = sum(p["ms"] for p in w4) % len(w4)
    adj = next(p for p in w4 if 400 < p["ms"] < 700)
    adj["ms"] -= r
    P["wb4_mean"] = sum(p["ms"] for p in w4) // len(w4)
    for p in posts:
        p["done"] = p["t"] + timedelta(milliseconds=p["ms"]) + timedelta(microseconds=rng.randint(100, 900))
    P["weighs"], P["posts"] = weighs, sorted(posts, key=lambda p: p["t"])

    # --- bookings from the portal (POST /api/bookings), their follow-up GETs and slot lookups
    farms = [f"F-{rng.randint(1000, 4999)}" for _ in range(520)]
    silos = list(SILOS)
    silo_w = [SILOS[s] for s in silos]
    sess_avoid = [(E1_A - S(40), E1_A + S(1)), (T(1, 19, 30), T(1, 20, 0)), (T(3, 39, 50), T(3, 40, 25)),
                  (T(1, 5), T(1, 10)), (T(1, 20), T(1, 25))]
    sess_t = _uniform(rng, START, END - S(120), 820, sess_avoid)
    sess = []
    for t in sess_t:
        sess.append({"t": t, "ip": _farmer_ip(rng), "ua": rng.choice(FARMER_UAS), "farm": rng.choice(farms),
                     "silo": rng.choices(silos, silo_w)[0], "book": rng.random() < 0.78})
    # a first failing booking at E1_A exactly, and the retry storm at 01:15
    sess.append({"t": FIRST_E1_BOOKING - S(6.2), "ip": "100.71.14.203", "ua": FARMER_UAS[0], "farm": "F-2718",
                 "silo": "S-03", "book": True, "book_at": FIRST_E1_BOOKING})
    storm_ips = ["100.88.3.77", "203.0.113.145", "100.71.201.9", "192.0.2.61"]
    storm = []
    for i, t in enumerate(_uniform(rng, RETRY_MINUTE - S(4), RETRY_MINUTE + S(50), RETRY_EXTRA)):
        storm.append({"t": t, "ip": storm_ips[i % 4], "ua": FARMER_UAS[i % 4 + 1], "farm": f"F-{3300 + i % 4}",
                      "silo": "S-07"})
    deploy = list(DEPLOY_503)
    api = []  # every /api/ request (not the tickets)
    bid = 61250
    for s in sorted(sess, key=lambda x: x["t"]):
        t0 = s["t"]
        s["static_at"] = t0
        t_slots = t0 + S(1.4 + rng.random() * 3)
        api.append({"t": t_slots, "ip": s["ip"], "ua": s["ua"], "method": "GET",
                    "target": f"/api/slots?silo={s['silo']}", "kind": "slots", "referer": f"https://{VHOST_BOOK}/"})
        if not s["book"]:
            continue
        tb = s.get("book_at") or t_slots + S(8 + rng.random() * 40)
        took = None
        api.append({"t": tb, "ip": s["ip"], "ua": s["ua"], "method": "POST", "target": "/api/bookings",
                    "kind": "book", "farm": s["farm"], "silo": s["silo"], "took": took,
                    "referer": f"https://{VHOST_BOOK}/book?silo={s['silo']}"})
    for s in storm:
        api.append({"t": s["t"], "ip": s["ip"], "ua": s["ua"], "method": "POST", "target": "/api/bookings",
                    "kind": "book", "farm": s["farm"], "silo": s["silo"], "took": None,
                    "referer": f"https://{VHOST_BOOK}/book?silo={s['silo']}"})
    for t in deploy:
        api.append({"t": t, "ip": _farmer_ip(rng), "ua": rng.choice(FARMER_UAS), "method": "GET",
                    "target": f"/api/slots?silo={rng.choice(silos[:3])}", "kind": "slots", "referer": f"https://{VHOST_BOOK}/"})
    for t in _uniform(rng, START, END, N_REPORTS, [(E1_A - S(60), E1_B + S(60)), (T(3, 39), T(3, 42))]):
        api.append({"t": t, "ip": STAFF_IP, "ua": FARMER_UAS[2], "method": "GET",
                    "target": f"/api/reports/daily-intake.csv?date=2035-09-1{rng.randint(5, 7)}", "kind": "report",
                    "referer": f"https://{VHOST_BOOK}/admin/reports"})
    gap = (STOPPED - S(1), STARTED + S(0.5))
    api = [r for r in api if r["t"] in deploy or not (gap[0] <= r["t"] < gap[1])]
    api.sort(key=lambda r: r["t"])
    books_ok = []
    for r in api:
        t = r["t"]
        if any(abs((t - d).total_seconds()) < 0.05 for d in deploy):
            r["status"], r["D"] = 503, rng.randint(180, 900)
        elif r["kind"] == "slots":
            r["status"], r["D"] = 200, rng.randint(2100, 19000)
        elif r["kind"] == "report":
            r["status"], r["D"] = 200, rng.randint(3_100_000, 8_700_000)
        elif r["kind"] == "book" and E1_A <= t < E1_B:
            r["status"], r["D"] = 500, 5_000_000 + rng.randint(2000, 39000)
        elif r["kind"] == "book":
            r["status"] = 201
            r["id"] = bid
            bid += 1
            books_ok.append(r)
        elif r["kind"] == "get":
            pass
    # /api/slots lookups (%D): p95 on a plateau, with or without the seven 503s
    slots = [r for r in api if r["kind"] == "slots" and r["status"] == 200]
    n = len(slots)
    lo, hi = int(0.93 * n), int(0.965 * n)
    vals = ([rng.randint(8_000, 124_000) for _ in range(lo)] + [SLOTS_P95_US] * (hi + 1 - lo)
            + [rng.randint(141_000, 420_000) for _ in range(n - hi - 1)])
    rng.shuffle(vals)
    for r, v in zip(slots, vals):
        r["D"] = v
    # booking durations (took=..ms): p90 on a plateau
    n = len(books_ok)
    vals = sorted(int(60 + rng.expovariate(1 / 90)) for _ in range(n))
    mid = int(0.9 * n)
    for i in range(mid - 8, mid + 9):
        vals[i] = BOOK_P90_MS
    assert vals[mid - 9] < BOOK_P90_MS < vals[mid + 9]
    rng.shuffle(vals)
    for r, v in zip(books_ok, vals):
        r["took"] = v
        r["D"] = v * 1000 + rng.randint(600, 2400)
    # each booking shows its confirmation page
    gets = []
    for r in books_ok:
        gets.append({"t": r["t"] + timedelta(milliseconds=r["took"]) + S(0.4 + rng.random()), "ip": r["ip"],
                     "ua": r["ua"], "method": "GET", "target": f"/api/bookings/{r['id']}", "kind": "get",
                     "status": 200, "D": rng.randint(3000, 24000), "referer": f"https://{VHOST_BOOK}/book?silo={r['silo']}"})
    gets = [g for g in gets if not (E1_A - S(1) <= g["t"] < E1_B + S(1)) and not (gap[0] <= g["t"] < gap[1])]
    api += gets
    api.sort(key=lambda r: r["t"])
    P["api"], P["sessions"], P["books_ok"] = api, sess, books_ok
    # the SMS confirmations that failed (none within 5 min outside 01:10-01:20)
    cand = [r for r in books_ok if not (T(1, 4) <= r["t"] < T(1, 11)) and not (T(1, 19) <= r["t"] < T(1, 26))]
    sms = rng.sample(cand, N_SMS - 1)
    inside = [r for r in books_ok if T(1, 11) <= r["t"] < T(1, 11, 55) and r not in sms]
    assert inside                                   # one failed SMS inside 01:10-01:20, before the failover
    P["sms_fail"] = sorted(sms + inside[:1], key=lambda r: r["t"])
    # the scheduled silo-level sync (every 30 s) while the DB is down
    P["sync_fail"] = [T(1, 12, 15, 5000) + S(30 * i) for i in range(15)]
    _PLAN = P
    return P


# ---------------------------------------------------------------- lighttpd

def _clf(t):
    return t.strftime("%d/%b/%Y:%H:%M:%S +0000")


def _line(ip, vhost, t, method, target, status, size, referer, ua, D):
    return f'{ip} {vhost} - [{_clf(t)}] "{method} {target} HTTP/1.1" {status} {size if size else "-"} "{referer}" "{ua}" {D}'


def _clear(b):
    """A byte total whose MB and MiB read the same rounded or truncated to 1 or 2 decimals."""
    return all(0.12 < (b / u * 10) % 1 < 0.38 and not 0.4 < (b / u * 100) % 1 < 0.6 for u in (1e6, 2 ** 20))


def lighttpd_log(rng):
    P = plan()
    rows = []  # (t, seq, line)

    def add(t, *a):
        rows.append((t, len(rows), _line(*a)))

    for p in P["posts"]:
        st = p["status"]
        size = {201: rng.randint(180, 230), 500: 0, 422: 97}[st]
        D = p["ms"] * 1000 - rng.randint(250, 1400)
        add(p["t"], GW_IP, VHOST_API, p["t"], "POST", "/api/tickets", st, size, "-", GW_UA, D)
    for r in P["api"]:
        st = r["status"]
        if st == 503:
            size = 0
        elif r["kind"] == "slots":
            size = rng.randint(1800, 4200)
        elif r["kind"] == "report":
            size = rng.randint(380_000, 960_000)
        elif r["kind"] == "book":
            size = rng.randint(310, 360) if st == 201 else 0
        else:
            size = rng.randint(640, 900)
        add(r["t"], r["ip"], VHOST_BOOK, r["t"], r["method"], r["target"], st, size, r["referer"], r["ua"], r["D"])
    # the portal's pages and static files, per session
    cached_flags = [rng.random() < 0.45 for _ in P["sessions"]]
    k = cached_flags.count(False)
    svg = next(x for x in range(6_912, 8_000) if _clear(k * (183_406 + 41_877 + x)))
    assets = [("/static/app.7c41e9.js", 183_406), ("/static/app.7c41e9.css", 41_877), ("/static/logo.svg", svg)]
    for s, cached in zip(P["sessions"], cached_flags):
        t = s["static_at"]
        add(t, s["ip"], VHOST_BOOK, t, "GET", "/", 200, 5_214 + rng.randint(0, 60), "-", s["ua"], rng.randint(300, 1400))
        for path, size in assets:
            t = t + timedelta(milliseconds=rng.randint(40, 300))
            if cached:
                add(t, s["ip"], VHOST_BOOK, t, "GET", path, 304, 0, f"https://{VHOST_BOOK}/", s["ua"], rng.randint(90, 400))
            else:
                add(t, s["ip"], VHOST_BOOK, t, "GET", path, 200, size, f"https://{VHOST_BOOK}/", s["ua"],
                    rng.randint(400, 5200))
    # health checks, every 15 s
    t = T(0, 0, 7, 14000)
    while t < T(4, 0):
        add(t, MON_IP, VHOST_API, t, "GET", "/healthz", 200, 2, "-", MON_UA, rng.randint(60, 240))
        t += S(15)
    # the price scraper, 02:05-02:25, with a burst at 02:17
    comm = ["wheat", "barley", "canola", "oats", "sorghum", "lupins"]
    grades = ["APW1", "H2", "ASW1", "F1", "MALT1", "CAN1"]
    times = _uniform(rng, SCRAPER_A, SCRAPER_B, 2150) + _uniform(rng, SCRAPER_BURST, SCRAPER_BURST + S(59), 85)
    sizes = [rng.randint(2900, 3600) for _ in times]
    cur = sum(sizes)
    want = next(b for d in range(0, 1_000_000) for b in (cur + d, cur - d) if _clear(b))
    step, rest = divmod(want - cur, len(sizes))
    sizes = [x + step for x in sizes]
    sizes[0] += rest
    for t, size in zip(times, sizes):
        tgt = f"/prices?commodity={rng.choice(comm)}&grade={rng.choice(grades)}&site=S-{rng.randint(1, 12):02d}"
        add(t, SCRAPER_IP, VHOST_PRICES, t, "GET", tgt, 200, size, "-", SCRAPER_UA, rng.randint(1800, 9000))
    # farmers checking prices, mostly cached
    for t in _uniform(rng, START, END, 610):
        ua = rng.choice(FARMER_UAS)
        if rng.random() < 0.6:
            add(t, _farmer_ip(rng), VHOST_PRICES, t, "GET", "/prices/today", 304, 0, "-", ua, rng.randint(90, 500))
        else:
            add(t, _farmer_ip(rng), VHOST_PRICES, t, "GET", "/prices/today", 200, rng.randint(11_000, 12_400), "-", ua,
                rng.randint(2000, 11000))
    # scanners: 404s
    probes = ["/wp-login.php", "/.env", "/.git/config", "/phpmyadmin/", "/admin.php", "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php"]
    for t in _uniform(rng, START, END, 140):
        add(t, f"45.{rng.randint(10, 250)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}", rng.choice([VHOST_BOOK, VHOST_PRICES]),
            t, "GET", rng.choice(probes), 404, 345, "-", "Mozilla/5.0 zgrab/0.x", rng.randint(80, 300))
    rows.sort()
    return "".join(r[2] + "\n" for r in rows)


# ---------------------------------------------------------------- .NET weighbridge gateway (JSON console)

def _ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _rec(t, event, level, category, fmt, args, exception=None):
    msg = fmt
    for k, v in args.items():
        msg = msg.replace("{" + k + "}", str(v))
    d = {"Timestamp": _ts(t), "EventId": event, "LogLevel": level, "Category": category, "Message": msg}
    if exception:
        d["Exception"] = exception
    st = {"Message": msg}
    st.update(args)
    st["{OriginalFormat}"] = fmt
    d["State"] = st
    # System.Text.Json's default encoder escapes HTML-sensitive characters
    return json.dumps(d, separators=(",", ":")).replace(">", "\\u003E").replace("<", "\\u003C")


GW_SCALE, GW_POST = "Tallgrass.Weighbridge.ScaleReader", "Tallgrass.Weighbridge.TicketPoster"
GW_DRIFT, GW_PLATE = "Tallgrass.Weighbridge.DriftMonitor", "Tallgrass.Weighbridge.PlateReader"

RESET_EXC = (
    "System.IO.IOException: Unable to read data from the transport connection: Connection reset by peer.\n"
    " ---> System.Net.Sockets.SocketException (104): Connection reset by peer\n"
    "   at System.Net.Sockets.NetworkStream.Read(Byte[] buffer, Int32 offset, Int32 count)\n"
    "   --- End of inner exception stack trace ---\n"
    "   at System.Net.Sockets.NetworkStream.Read(Byte[] buffer, Int32 offset, Int32 count)\n"
    "   at Tallgrass.Weighbridge.Protocol.FrameReader.ReadFrame(Stream stream) in /src/Tallgrass.Weighbridge/Protocol/FrameReader.cs:line 58\n"
    "   at Tallgrass.Weighbridge.ScaleReader.PollAsync(String bridge, CancellationToken ct) in /src/Tallgrass.Weighbridge/ScaleReader.cs:line 143"
)

DRIFT_BY_BRIDGE = {"WB-1": 96, "WB-4": 31, "WB-2": 14, "WB-3": 9}


def gateway_log(rng):
    P = plan()
    rows = []

    def add(t, *a, **k):
        rows.append((t, len(rows), _rec(t, *a, **k)))

    warn_post = 0
    for w in P["weighs"]:
        gross = w["tare"] + w["net"]
        add(w["t"], 1001, "Information", GW_SCALE, "Weighed {Plate} on {Bridge}: gross {GrossKg} kg, tare {TareKg} kg, net {NetKg} kg",
            {"Plate": w["plate"], "Bridge": w["bridge"], "GrossKg": gross, "TareKg": w["tare"], "NetKg": w["net"],
             "TicketId": w["ticket"]})
    for p in P["posts"]:
        w = p["w"]
        if p["status"] == 201:
            add(p["done"], 2101, "Information", GW_POST, "Posted ticket {TicketId} to intake in {ElapsedMs} ms ({StatusCode})",
                {"TicketId": w["ticket"], "Bridge": w["bridge"], "ElapsedMs": p["ms"], "StatusCode": 201})
        else:
            add(p["done"], 2102, "Error", GW_POST, "Posting ticket {TicketId} failed: intake returned {StatusCode} after {ElapsedMs} ms",
                {"TicketId": w["ticket"], "Bridge": w["bridge"], "ElapsedMs": p["ms"], "StatusCode": p["status"]})
            if p["status"] == 500:
                warn_post += 1
                add(p["done"] + timedelta(milliseconds=2), 2103, "Warning", GW_POST,
                    "Ticket {TicketId} queued for retry ({Pending} pending)", {"TicketId": w["ticket"], "Pending": warn_post})
    add(FLUSH, 2104, "Information", GW_POST, "Intake reachable again, flushing {Count} queued tickets", {"Count": P["queued"]})
    # WB-3 drops out
    add(WB3_LOST, 1090, "Error", GW_SCALE, "Lost connection to {Bridge} at {Endpoint}",
        {"Bridge": "WB-3", "Endpoint": BRIDGE_HOST["WB-3"] + ":4001"}, exception=RESET_EXC)
    delays = [10, 20, 40, 60, 60, 60, 60, 60]
    for i, (t, d) in enumerate(zip(WB3_RETRIES, delays), 1):
        add(t, 1091, "Warning", GW_SCALE, "Reconnect to {Bridge} failed (attempt {Attempt}), retrying in {DelaySeconds} s",
            {"Bridge": "WB-3", "Attempt": i, "DelaySeconds": d})
    add(WB3_CONNECTED, 1092, "Information", GW_SCALE, "Connected to {Bridge} at {Endpoint}",
        {"Bridge": "WB-3", "Endpoint": BRIDGE_HOST["WB-3"] + ":4001"})
    # drift warnings (DriftMonitor), unstable readings (ScaleReader), plate confidence (PlateReader)
    n_scale = int(warn_post / 1.5) - len(WB3_RETRIES)
    n_plate = int((n_scale + len(WB3_RETRIES)) / 1.6)
    quiet = [(T(2, 28), T(2, 40)), (T(1, 10), T(1, 22)), (T(3, 5), T(3, 10)), (T(3, 38), T(3, 43)), (T(2, 50), T(2, 55))]
    for b, k in DRIFT_BY_BRIDGE.items():
        for t in _uniform(rng, T(0, 3) if b != "WB-1" else T(0, 41, 7), END, k, quiet):
            add(t, 3001, "Warning", GW_DRIFT, "Scale drift on {Bridge}: zero offset {DriftKg} kg exceeds tolerance {ToleranceKg} kg",
                {"Bridge": b, "DriftKg": rng.choice([-1, 1]) * rng.randint(42, 95), "ToleranceKg": 40})
    for t in _uniform(rng, START, END, n_scale, quiet):
        b = rng.choice(["WB-1", "WB-2", "WB-4"])
        add(t, 1010, "Warning", GW_SCALE, "Unstable reading on {Bridge}: spread {SpreadKg} kg over {Samples} samples",
            {"Bridge": b, "SpreadKg": rng.randint(60, 240), "Samples": 20})
    for t in _uniform(rng, START, END, n_plate, quiet):
        add(t, 4001, "Warning", GW_PLATE, "Low plate confidence {Confidence} for {Plate} on {Bridge}",
            {"Confidence": round(0.41 + rng.random() * 0.3, 2), "Plate": rng.choice(P["weighs"])["plate"],
             "Bridge": rng.choice(list(BRIDGES))})
    rows.sort()
    return "".join(r[2] + "\n" for r in rows)


# ---------------------------------------------------------------- Quarkus intake service

def _qts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"


def _q(t, level, cat, thread, msg):
    return f"{_qts(t)} {level:<5} [{cat}] ({thread}) {msg}"


JDBC_TRACE = """org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC Connection [Acquisition timeout while waiting for new connection] [n/a]
\tat org.hibernate.exception.internal.SQLStateConversionDelegate.convert(SQLStateConversionDelegate.java:100)
\tat org.hibernate.exception.internal.StandardSQLExceptionConverter.convert(StandardSQLExceptionConverter.java:58)
\tat org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:108)
\tat org.hibernate.engine.jdbc.connections.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:113)
\tat org.hibernate.engine.jdbc.internal.JdbcCoordinatorImpl.getLogicalConnection(JdbcCoordinatorImpl.java:174)
\tat org.hibernate.internal.SessionImpl.persist(SessionImpl.java:758)
\tat io.quarkus.hibernate.orm.panache.common.runtime.AbstractJpaOperations.persist(AbstractJpaOperations.java:102)
\tat com.tallgrass.intake.{pkg}.{res}.{meth}({res}.java:{line})
\tat com.tallgrass.intake.{pkg}.{res}_Subclass.{meth}$$superforward(Unknown Source)
\tat io.quarkus.narayana.jta.runtime.interceptor.TransactionalInterceptorBase.invokeInOurTx(TransactionalInterceptorBase.java:136)
\tat io.quarkus.narayana.jta.runtime.interceptor.TransactionalInterceptorRequired.doIntercept(TransactionalInterceptorRequired.java:32)
\tat io.quarkus.arc.impl.InterceptorChain.proceed(InterceptorChain.java:42)
\tat io.quarkus.vertx.core.runtime.VertxCoreRecorder$14.runWith(VertxCoreRecorder.java:635)
\tat org.jboss.threads.EnhancedQueueExecutor$Task.run(EnhancedQueueExecutor.java:2516)
\tat org.jboss.threads.JBossThread.run(JBossThread.java:483)
Caused by: java.sql.SQLException: Acquisition timeout while waiting for new connection
\tat io.agroal.pool.ConnectionPool.handlerFromSharedCache(ConnectionPool.java:358)
\tat io.agroal.pool.ConnectionPool.getConnection(ConnectionPool.java:293)
\tat io.agroal.pool.DataSource.getConnection(DataSource.java:86)
\tat org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl.getConnection(DatasourceConnectionProviderImpl.java:122)
\t... 24 more
Caused by: org.postgresql.util.PSQLException: FATAL: the database system is in recovery mode
\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:693)
\tat org.postgresql.core.v3.ConnectionFactoryImpl.tryConnect(ConnectionFactoryImpl.java:203)
\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:258)
\tat org.postgresql.jdbc.PgConnection.<init>(PgConnection.java:263)
\tat io.agroal.pool.ConnectionFactory.createConnection(ConnectionFactory.java:232)
\tat io.agroal.pool.ConnectionPool$CreateConnectionTask.call(ConnectionPool.java:545)
\t... 3 more"""

REJECT_TRACE = """com.tallgrass.intake.ticket.TicketRejectedException: ticket {tid} could not be graded
\tat com.tallgrass.intake.ticket.TicketService.grade(TicketService.java:214)
\tat com.tallgrass.intake.ticket.TicketService.accept(TicketService.java:97)
\tat com.tallgrass.intake.ticket.TicketResource.create(TicketResource.java:61)
\tat com.tallgrass.intake.ticket.TicketResource$quarkusrestinvoker$create_6c1f0e.invoke(Unknown Source)
\tat org.jboss.resteasy.reactive.server.handlers.InvocationHandler.handle(InvocationHandler.java:29)
\tat io.quarkus.resteasy.reactive.server.runtime.QuarkusResteasyReactiveRequestContext.invokeHandler(QuarkusResteasyReactiveRequestContext.java:141)
\tat org.jboss.resteasy.reactive.common.core.AbstractResteasyReactiveContext.run(AbstractResteasyReactiveContext.java:147)
\tat org.jboss.threads.EnhancedQueueExecutor$Task.run(EnhancedQueueExecutor.java:2516)
\tat org.jboss.threads.JBossThread.run(JBossThread.java:483)
Caused by: com.tallgrass.intake.grading.MoistureProbeException: probe MP-6 on WB-2 returned an unreadable moisture value
\tat com.tallgrass.intake.grading.MoistureProbeClient.read(MoistureProbeClient.java:88)
\tat com.tallgrass.intake.grading.GradingService.moisture(GradingService.java:51)
\tat com.tallgrass.intake.ticket.TicketService.grade(TicketService.java:205)
\t... 8 more
Caused by: java.lang.NumberFormatException: For input string: "NaN%"
\tat java.base/jdk.internal.math.FloatingDecimal.readJavaFormatString(FloatingDecimal.java:2054)
\tat java.base/jdk.internal.math.FloatingDecimal.parseDouble(FloatingDecimal.java:110)
\tat java.base/java.lang.Double.parseDouble(Double.java:792)
\tat com.tallgrass.intake.grading.MoistureProbeClient.read(MoistureProbeClient.java:81)
\t... 10 more"""

Q_HANDLER = "io.qua.ver.htt.run.QuarkusErrorHandler"
Q_SQLHELPER = "org.hib.eng.jdb.spi.SqlExceptionHelper"
Q_BOOK, Q_TICKET = "com.tal.int.boo.BookingResource", "com.tal.int.tic.TicketResource"
Q_SMS, Q_SLOT, Q_SYNC = "com.tal.int.not.SmsNotifier", "com.tal.int.boo.SlotAllocator", "com.tal.int.job.SiloLevelSync"
FEATURES = ("[agroal, cdi, hibernate-orm, hibernate-orm-panache, jdbc-postgresql, narayana-jta, rest, rest-client, "
            "rest-jackson, scheduler, smallrye-context-propagation, smallrye-fault-tolerance, smallrye-health, vertx]")


def _uuid(rng):
    h = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def intake_log(rng):
    P = plan()
    rows = []
    err_prefix = _uuid(rng)
    err_n = [0]

    def add(t, level, cat, thread, msg):
        rows.append((t, len(rows), _q(t, level, cat, thread, msg)))

    def th():
        return f"executor-thread-{rng.randint(1, 16)}"

    def jdbc_fail(t, path, pkg, res, meth, line):
        thread = th()
        err_n[0] += 1
        add(t, "WARN", Q_SQLHELPER, thread, "SQL Error: 0, SQLState: 08001")
        trace = JDBC_TRACE.replace("{pkg}", pkg).replace("{res}", res).replace("{meth}", meth).replace("{line}", str(line))
        if path is None:
            add(t + timedelta(microseconds=700), "ERROR", Q_SYNC, thread, "Scheduled silo level sync failed: " + trace)
        else:
            add(t + timedelta(microseconds=700), "ERROR", Q_HANDLER, thread,
                f"HTTP Request to {path} failed, error id: {err_prefix}-{err_n[0]}: " + trace)

    for r in P["api"]:
        if r["kind"] == "book" and r["status"] == 201:
            add(r["t"] + timedelta(milliseconds=r["took"]), "INFO", Q_BOOK, th(),
                f"Booking {r['id']} confirmed: farm={r['farm']} silo={r['silo']} took={r['took']}ms")
        elif r["kind"] == "book" and r["status"] == 500:
            jdbc_fail(r["t"] + S(5.0), "/api/bookings", "booking", "BookingResource", "create", 74)
    for p in P["posts"]:
        w = p["w"]
        if p["status"] == 201:
            add(p["done"] - timedelta(milliseconds=min(p["ms"] - 5, rng.randint(2, 9))), "INFO", Q_TICKET, th(),
                f"Ticket {w['ticket']} accepted: bridge={w['bridge']} plate={w['plate']} net={w['net']}kg")
        elif p["status"] == 500:
            jdbc_fail(p["t"] + S(5.0), "/api/tickets", "ticket", "TicketResource", "create", 58)
        else:
            add(p["done"] - timedelta(milliseconds=3), "ERROR", Q_TICKET, th(),
                f"Ticket {w['ticket']} rejected, returning 422: " + REJECT_TRACE.replace("{tid}", str(w["ticket"])))
    for t in P["sync_fail"]:
        jdbc_fail(t, None, "job", "SiloLevelSync", "refresh", 40)
    add(AGROAL_WARN, "WARN", "io.agr.pool", "agroal-11",
        "Datasource '<default>': FATAL: terminating connection due to administrator command")
    add(RESTORED, "INFO", "com.tal.int.hea.DatabaseHealthCheck", "vert.x-worker-thread-2",
        "Datasource '<default>' is reachable again, pool refilled (20 connections)")
    for r in P["sms_fail"]:
        add(r["t"] + timedelta(milliseconds=r["took"] + rng.randint(900, 2600)), "ERROR", Q_SMS,
            f"vert.x-worker-thread-{rng.randint(0, 19)}",
            f"SMS confirmation for booking {r['id']} failed: HTTP 429 Too Many Requests from sms gateway, giving up after 3 attempts")
    # slot allocator warnings
    quiet = [(T(1, 5), T(1, 25)), (T(3, 38), T(3, 43)), (T(3, 5), T(3, 10))]
    for t in _uniform(rng, START, END, 131, quiet):
        s = rng.choice(["S-03", "S-07", "S-11", "S-01"])
        add(t, "WARN", Q_SLOT, th(), f"Silo {s} above {rng.randint(90, 98)}% of capacity, next slots oversubscribed")
    # the deploy at 03:40
    add(STOPPED - S(0.31), "INFO", "io.quarkus", "Shutdown thread", "intake-service stopped in 0.284s")
    add(STOPPED, "INFO", "io.quarkus", "Shutdown thread", "intake-service on JVM shutdown complete")
    add(STARTED, "INFO", "io.quarkus", "main",
        "intake-service 4.2.1 on JVM (powered by Quarkus 3.8.4) started in 3.118s. Listening on: http://0.0.0.0:8080")
    add(STARTED + timedelta(microseconds=1000), "INFO", "io.quarkus", "main", "Profile prod activated. ")
    add(STARTED + timedelta(microseconds=2000), "INFO", "io.quarkus", "main", f"Installed features: {FEATURES}")
    rows.sort()
    return "".join(r[2] + "\n" for r in rows)
