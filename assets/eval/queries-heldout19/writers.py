"""Writes the `queries-heldout19` fixtures: one night (2036-03-14, 00:00-04:00 UTC) at Merrowby
Tickets, a concert ticketing site, the night of a big on-sale. Three logs, written from one shared
plan so that the files agree with each other:

- `boxoffice.log`: the Flask API `boxoffice` on `bo-app-1` (gunicorn, four workers, one file),
  Python `logging` with the format Flask's documentation suggests,
  `[%(asctime)s] %(levelname)s in %(module)s: %(message)s` (asctime `2036-03-14 01:02:03,456`);
  a WSGI middleware (module `access`) logs one line per request; Flask logs unhandled
  exceptions as `Exception on /path [METHOD]` followed by the Python traceback (chained
  exceptions included); Flask-Limiter logs `ratelimit ... exceeded at endpoint: ...`;
- `mysql-slow.log`: the MySQL 8.0 slow query log of `db-main-1` (`long_query_time = 1`): the
  file header, then per entry `# Time:`, `# User@Host:`, `# Query_time: ... Lock_time: ...
  Rows_sent: ...  Rows_examined: ...`, `SET timestamp=...;` and the statement (which may span
  several lines);
- `mongod.log`: MongoDB 7.0's structured JSON log of `cart-db-1` (replica set `rs-carts`), one
  JSON object a line (`{"t":{"$date":...},"s":"I",  "c":"NETWORK",  "id":22943,   "ctx":...,
  "msg":...,"attr":{...}}`, with the padding mongod writes after `s`, `c` and `id`).

Standard library only; everything comes from one seeded `random.Random`.
"""

import json
import math
import random
from datetime import datetime, timedelta

DAY = datetime(2036, 3, 14)
EPOCH = datetime(1970, 1, 1)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def ms(x):
    return timedelta(milliseconds=x)


def secs(x):
    return timedelta(seconds=x)


START, END = T(0, 0), T(4, 0)

APP1, APP2 = "10.0.1.21", "10.0.1.22"        # bo-app-1 (the uploaded app log), bo-app-2
REPORTS_IP = "10.0.4.50"                      # Metabase
PAYOUT_IP = "10.0.6.14"
ETL1, ETL2, VPN = "10.0.4.61", "10.0.4.62", "10.8.0.14"
DBA_IP = "10.0.5.20"
DB2, DB3 = "10.0.3.12", "10.0.3.13"
BOT1, BOT2 = "203.0.113.77", "198.51.100.140"   # scalper bots on the on-sale
PARTNER = "35.190.12.8"                          # a ticket aggregator polling the event list
PARTNER_USER = "svc_tixhub"
HOT = 4412                                       # the on-sale event
RS_HOST = "{}.merrowby.internal:27017"

# --- the night's planted events
ONSALE = T(1, 0)
LOCK_A, LOCK_B = T(1, 0, 20), T(1, 17, 0)      # seat-row lock contention on event 4412
FIRST_LW = T(1, 0, 21, 304000)                   # the first hold that waits over a second (bo-app-1)
FIRST_TO = T(1, 1, 3, 512000)                    # the first hold that times out (bo-app-1)
LAST_TO = T(1, 15, 40, 118000)                   # the last one (bo-app-1)
LAST_LW = T(1, 17, 26, 611000)                   # the last long wait (bo-app-2)
HOT_MINUTE = T(1, 1)                             # section B opens: the most contention
BIG_REPORT = T(1, 41, 6, 220000)                 # a Metabase question scanning orders
BIG_REPORT_QT = 187.412006
EXPORT_AT = T(2, 14, 33, 408000)                 # a promoter's CSV export (the slowest request)
EXPORT_QT = 24.386114
PAYOUT_AT = T(2, 0, 4, 0)
BACKUP_AT = T(3, 0, 5, 712000)                   # mysqldump --single-transaction

PART_A = T(2, 31, 40, 500000)                    # cart-db-1 cut off from its two secondaries
HB_FAIL = T(2, 31, 44, 218000)
STEPDOWN = T(2, 31, 54, 118000)
FIRST_NP = T(2, 31, 47, 905000)                  # a hold whose write is waiting when it steps down
NEWPRI_APP = T(2, 32, 7, 0)                      # the drivers find cart-db-2 primary
HEAL = T(2, 32, 19, 402000)
NEWPRI_SEEN = T(2, 32, 21, 306000)               # cart-db-1 learns cart-db-2 is primary
TK_START = T(2, 33, 5, 214000)                   # priority takeover
TK_WON = T(2, 33, 6, 51000)
TK_A, TK_B = T(2, 33, 5, 0), T(2, 33, 7, 200000)
LAST_NP = T(2, 33, 7, 46000)

DEPLOY = T(3, 4, 58, 0)                          # boxoffice 2.18.0: cart lookups by sessionToken
COLLSCAN_A = T(3, 5, 2, 0)
INDEX_START = T(3, 40, 49, 117000)               # the DBA builds { sessionToken: 1 }
INDEX_DONE = T(3, 41, 27, 640000)

# every standard HTTP status: no figure an answer must hold reads like one
STATUS_LIKE = ({100, 101, 102, 103, 226, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 510, 511}
               | set(range(200, 209)) | set(range(300, 309)) | set(range(400, 419)) | set(range(500, 509)))

UAS = ["web", "ios", "android"]

ROUTES = [  # kind, weight, median ms, sigma
    ("events", 16, 34, 0.45),
    ("event", 20, 22, 0.45),
    ("seats", 14, 78, 0.45),
    ("hold", 10, 62, 0.4),
    ("unhold", 3, 28, 0.4),
    ("cart", 15, 17, 0.45),
    ("checkout", 6, 205, 0.35),
    ("login", 7, 92, 0.25),
    ("tickets", 8, 38, 0.45),
    ("me", 4, 11, 0.4),
]
EVENTS = [3987, 4012, 4055, 4101, 4130, 4188, 4203, 4231, 4266, 4290, 4311, 4340, 4367, 4389, 4401, 4412, 4425,
          4437, 4450, 4468, 4473, 4490, 4502, 4519, 4533, 4547, 4560, 4578, 4591, 4604]
SECTIONS = ["A", "B", "C", "D", "F", "G", "Floor"]
TERMS = ["jazz", "comedy", "arena", "tribute", "festival", "opera", "orchestra", "rock", "indie", "family"]
TABLES = [  # mysqldump's slow tables (alphabetical), rows, seconds
    ("audit_log", 9_812_447, 40.8), ("email_log", 3_120_905, 14.2), ("holds_archive", 2_204_118, 8.9),
    ("order_items", 5_533_912, 24.9), ("orders", 4_108_376, 21.3), ("payments", 3_941_220, 18.6),
    ("payouts", 402_117, 2.4), ("price_bands", 611_930, 1.9), ("refunds", 288_406, 1.6),
    ("seats", 2_918_805, 11.7), ("sessions", 1_772_093, 6.3), ("tickets", 12_604_551, 58.2),
    ("users", 1_204_630, 6.8), ("venues_layout", 935_118, 3.1),
]


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _epoch(t):
    return (t - EPOCH).total_seconds()


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _uuid(rng):
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def _tok(rng, n):
    return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(n))


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _minute(t):
    return t.replace(second=0, microsecond=0)


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.reqs = []      # bo-app-1's requests
        self.app_extra = []  # bo-app-1's other log records: (t, level, module, text, [traceback lines])
        self.my = []        # mysql slow entries
        self.mg = []        # mongod records: (t, s, c, id, ctx, msg, attr)
        self.mids = 48_100  # mysql connection ids
        self._people()
        self._background()
        self._partner()
        self._onsale()
        self._bots()
        self._planted()
        self.reqs.sort(key=lambda r: r["a"])
        self._limit()
        self._serve()
        self._app2()
        self._mysql_misc()
        self._plateau_mysql()
        self._derive_mysql()
        self._mongo()
        self._tune_share()
        self._plateau_checkout()
        self._finish_app()

    # ------------------------------------------------------------ who buys tickets
    def _ips(self, k, avoid):
        rng = self.rng
        firsts = [2, 5, 24, 31, 37, 46, 62, 73, 77, 81, 86, 90, 92, 94, 101, 109, 146, 151, 176, 185, 188, 212, 213]
        out = set()
        while len(out) < k:
            ip = f"{rng.choice(firsts)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
            if ip not in avoid:
                out.add(ip)
        out = sorted(out)
        rng.shuffle(out)
        return out

    def _people(self):
        rng = self.rng
        self.fans = self._ips(1500, set())
        self.onsale_fans = self._ips(1300, set(self.fans))
        self.w_fans = [1.0 / (i + 15) ** 0.8 for i in range(len(self.fans))]
        self.user = {}
        used = set()
        for ip in self.fans + self.onsale_fans:
            if ip in self.onsale_fans or rng.random() < 0.8:
                while True:
                    u = f"u_{rng.randint(100000, 899999)}"
                    if u not in used:
                        used.add(u)
                        break
                self.user[ip] = u
        self.bot_users = {BOT1: [f"u_9{rng.randint(10000, 99999)}" for _ in range(30)],
                          BOT2: [f"u_9{rng.randint(10000, 99999)}" for _ in range(18)]}

    def _req(self, a, ip, kind, **kw):
        r = {"a": a, "ip": ip, "kind": kind, "user": self.user.get(ip)}
        r.update(kw)
        self.reqs.append(r)
        return r

    def _path(self, kind, event):
        rng = self.rng
        return {"events": ("GET", "/api/v1/events"),
                "event": ("GET", f"/api/v1/events/{event}"),
                "seats": ("GET", f"/api/v1/events/{event}/seats"),
                "hold": ("POST", "/api/v1/holds"),
                "unhold": ("DELETE", f"/api/v1/holds/h_{_hex(rng, 10)}"),
                "cart": ("GET", "/api/v1/cart"),
                "checkout": ("POST", "/api/v1/checkout"),
                "login": ("POST", "/api/v1/login"),
                "tickets": ("GET", "/api/v1/me/tickets"),
                "me": ("GET", "/api/v1/me"),
                "export": ("GET", "/api/v1/orders/export")}[kind]

    def _rate(self, t):
        h = (t - START).total_seconds() / 3600
        return 30 - 3.6 * h if h < 2.5 else 21 + 2.5 * (h - 2.5)

    def _background(self):
        rng = self.rng
        t = START
        while True:
            t += timedelta(seconds=rng.expovariate(self._rate(t) / 60.0))
            if t >= END:
                break
            ip = rng.choices(self.fans, self.w_fans)[0]
            kind = rng.choices([x[0] for x in ROUTES], [x[1] for x in ROUTES])[0]
            if kind in ("hold", "unhold", "cart", "checkout", "tickets", "me") and ip not in self.user:
                kind = "event"
            self._req(t, ip, kind, event=rng.choice(EVENTS), section=rng.choice(SECTIONS))

    def _partner(self):
        rng = self.rng
        t = START + timedelta(seconds=rng.uniform(0, 30))
        while t < END:
            self._req(t, PARTNER, "events", user=PARTNER_USER, event=None)
            t += timedelta(seconds=30, milliseconds=rng.randint(-60, 60))

    def _onsale(self):
        """Fans at the on-sale: a surge at 01:00 that decays over half an hour."""
        rng = self.rng
        for m in range(30):
            k = int(round(610 * math.exp(-m / 1.8) + 14 + rng.uniform(-3, 3)))
            a = ONSALE + timedelta(minutes=m)
            for _ in range(k):
                t = a + timedelta(seconds=rng.uniform(0, 59.999) if m else rng.betavariate(1, 2.2) * 59.999)
                ip = rng.choice(self.onsale_fans)
                kind = rng.choices(["seats", "hold", "cart", "checkout", "login", "event"], [40, 30, 11, 8, 6, 5])[0]
                self._req(t, ip, kind, event=HOT, section=rng.choice(SECTIONS[:6]))

    def _bots(self):
        rng = self.rng
        for ip, a, b, per_min in ((BOT1, T(1, 0, 1, 204000), T(1, 21, 0), 92), (BOT2, T(1, 2, 0), T(1, 19, 0), 41)):
            for t in [a] + _poisson(rng, a, b, per_min):
                self._req(t, ip, "hold", event=HOT, section=rng.choice(["A", "B", "Floor"]), bot=True,
                          user=rng.choice(self.bot_users[ip]))

    def _planted(self):
        rng = self.rng
        fan = lambda: rng.choice(self.onsale_fans)  # noqa: E731
        self._req(FIRST_LW, fan(), "hold", event=HOT, section="A", plant="lw", L=1.372118)
        self._req(FIRST_TO, fan(), "hold", event=HOT, section="B", plant="to")
        self._req(LAST_TO, fan(), "hold", event=HOT, section="C", plant="to")
        bg = lambda: rng.choices([f for f in self.fans if f in self.user], k=1)[0]  # noqa: E731
        self._req(EXPORT_AT, "81.2.69.160", "export", user="u_promoter_4412", plant="export")
        self._req(FIRST_NP, bg(), "hold", event=rng.choice(EVENTS), section="D")
        self._req(LAST_NP, bg(), "unhold", event=None)
        # a mobile client build that posts holds without a section: a KeyError now and then
        for t in (T(0, 37, 12, 871000), T(2, 48, 3, 119000), T(3, 52, 40, 502000)):
            self._req(t, bg(), "hold", event=rng.choice(EVENTS), plant="keyerror")

    # ------------------------------------------------------------ Flask-Limiter: 20 per 1 minute on holds
    def _limit(self):
        seen = {}
        for r in self.reqs:
            if r["kind"] != "hold":
                continue
            k = (r["ip"], _minute(r["a"]))
            seen[k] = seen.get(k, 0) + 1
            r["limited"] = seen[k] > 20

    # ------------------------------------------------------------ serving (bo-app-1)
    def _wait(self, a, hot_ok=True):
        """The seat-row lock wait of a hold on event 4412: None, a long wait (s) or a timeout."""
        rng = self.rng
        if not (LOCK_A + secs(3) <= a < LOCK_B):
            return None
        u = rng.random()
        pt = 0.07 if FIRST_TO + secs(1) < a < LAST_TO - secs(10) else 0
        pw = 0.55 if _minute(a) == HOT_MINUTE else 0.3
        if u < pt:
            return "to"
        if u < pt + pw:
            return rng.uniform(1.05, 9.9)
        return None

    def _serve(self):
        rng = self.rng
        for r in self.reqs:
            a, kind = r["a"], r["kind"]
            r["method"], r["path"] = self._path(kind, r.get("event"))
            if r.get("limited"):
                r.update(st=429, dur=rng.uniform(1.2, 4.4))
                continue
            med, sig = {x[0]: (x[2], x[3]) for x in ROUTES}.get(kind, (30, 0.4))
            if kind == "seats" and r.get("event") == HOT and a >= ONSALE:
                med = 140
            if kind == "hold" and ONSALE <= a < T(1, 30):
                med = 88
            d = min(_lognorm(rng, med, sig), 880.0)
            st = {"events": 200, "event": 200, "seats": 200, "hold": 201, "unhold": 204, "cart": 200, "checkout": 201,
                  "login": 200, "tickets": 200, "me": 200}.get(kind, 200)
            if kind == "event" and rng.random() < 0.02:
                st = 404
            if kind == "login" and rng.random() < 0.1:
                st = 401
            if kind == "checkout":
                x = rng.random()
                st = 402 if x < 0.06 else 409 if x < 0.1 else 201
            if kind == "hold" and r.get("event") == HOT and a >= T(1, 6) and rng.random() < 0.25:
                st = 409
            r["st"], r["dur"] = st, d
            if r.get("plant") == "keyerror":
                r.update(st=500, err="keyerror", dur=rng.uniform(6, 14))
                continue
            if r.get("plant") == "export":
                r["my"] = {"kind": "export", "host": APP1, "start": a + ms(9.4), "qt": EXPORT_QT}
                continue
            # the stepdown and the takeover: writes to the carts replica set fail
            if kind in ("hold", "unhold", "checkout"):
                if PART_A <= a < NEWPRI_APP:
                    at = max(a + ms(rng.uniform(20, 160)), STEPDOWN + secs(rng.uniform(1.1, 1.8)))
                    r.update(st=500, err="notprimary", err_at=at, dur=(at - a).total_seconds() * 1000 + rng.uniform(1.5, 4))
                    continue
                if TK_A <= a < TK_B:
                    at = a + ms(rng.uniform(20, 110))
                    r.update(st=500, err="notprimary", err_at=at, dur=(at - a).total_seconds() * 1000 + rng.uniform(1.5, 4))
                    continue
            if kind == "hold" and r.get("event") == HOT:
                w = {"lw": r.get("L"), "to": "to"}.get(r.get("plant")) if r.get("plant") else self._wait(a)
                if w is not None:
                    r["my"] = {"kind": "forupdate", "host": APP1, "start": a + ms(rng.uniform(4, 15)), "w": w,
                               "section": r["section"]}
                    if w == "to":
                        r.update(st=500, err="lock")
                    continue
                if ONSALE <= a < T(1, 8) and rng.random() < 0.05:
                    r["mg_write"] = rng.randint(110, 480)
                    r["dur"] = min(r["dur"], 480) + r["mg_write"]
            if kind == "seats" and r.get("event") == HOT and ONSALE <= a < T(1, 5) and rng.random() < 0.12:
                r["my"] = {"kind": "seatmap", "host": APP1, "start": a + ms(rng.uniform(3, 9)), "qt": rng.uniform(1.0, 1.9)}
                continue
            if kind == "events" and r["ip"] != PARTNER and not (T(2, 45) <= a < T(3, 55)) and rng.random() < 0.05:
                r["my"] = {"kind": "search", "host": APP1, "start": a + ms(rng.uniform(3, 9)), "qt": rng.uniform(1.0, 2.7)}
                continue
            if kind == "cart" and COLLSCAN_A <= a < INDEX_DONE - secs(1):
                r["collscan"] = True

    def _pool(self, host, t):
        """A mysql connection id of `host`'s pool (40 connections, recycled every hour)."""
        key = (host, t.hour)
        if not hasattr(self, "_pools"):
            self._pools = {}
        if key not in self._pools:
            base = self.mids
            self.mids += self.rng.randint(41, 60)
            self._pools[key] = [base + i for i in range(40)]
        return self.rng.choice(self._pools[key])

    def _app2(self):
        """bo-app-2 serves the other half of the fans: only its slow queries are seen (in mysql)."""
        rng = self.rng
        per_min = {}
        for r in self.reqs:
            if r["kind"] == "hold" and r.get("event") == HOT and not r.get("bot") and not r.get("limited"):
                m = _minute(r["a"])
                per_min[m] = per_min.get(m, 0) + 1
        self.app2 = []
        for m in sorted(per_min):
            for _ in range(int(per_min[m] * rng.uniform(0.9, 1.1))):
                a = m + timedelta(seconds=rng.uniform(0, 59.999))
                w = self._wait(a)
                if w is not None:
                    self.my.append({"kind": "forupdate", "host": APP2, "start": a + ms(rng.uniform(4, 15)), "w": w,
                                    "section": rng.choice(SECTIONS[:6])})
        self.my.append({"kind": "forupdate", "host": APP2, "start": LAST_LW, "w": 2.410377, "section": "F"})
        for a in _poisson(rng, START, END, 0.14):
            self.my.append({"kind": "search", "host": APP2, "start": a, "qt": rng.uniform(1.0, 2.7)})

    def _mysql_misc(self):
        rng = self.rng
        for r in self.reqs:
            if "my" in r:
                r["my"]["req"] = r
                self.my.append(r["my"])
        # Metabase: a dashboard on the office TV refreshes every five minutes
        t = T(0, 2, 11, 0)
        while t < T(3, 57):
            for _ in range(1 if rng.random() < 0.55 else 2):
                self.my.append({"kind": "report", "start": t + secs(rng.uniform(0, 4)), "qt": rng.uniform(18, 62),
                                "q": rng.randrange(4)})
            t += timedelta(minutes=5, seconds=rng.uniform(-2, 2))
        self.my.append({"kind": "report", "start": BIG_REPORT, "qt": BIG_REPORT_QT, "q": 4})
        # payouts
        for i in range(5):
            self.my.append({"kind": "payout", "start": PAYOUT_AT + secs(9 * i + rng.uniform(0, 3)), "qt": rng.uniform(1.1, 4.3),
                            "q": i})
        # mysqldump (sequential; starts derived after the plateau)
        for name, rows, sec in TABLES:
            self.my.append({"kind": "backup", "table": name, "rows": rows, "qt": sec + rng.uniform(0.01, 0.4)})

    def _plateau(self, rows, key, p, fix, pad=3):
        """Sets the values around every definition's rank of the p-th percentile to one value (the
        window's top, nudged by `fix`), so that all definitions agree. Only raises values."""
        rows = sorted(rows, key=lambda r: r[key])
        n = len(rows)
        x = p / 100
        ranks = [math.ceil(x * n) - 1, int((n - 1) * x), int((n - 1) * x) + 1, int((n + 1) * x - 1),
                 int((n + 1) * x - 1) + 1, int(x * n)]
        lo, hi = max(0, min(ranks) - pad), min(n - 1, max(ranks) + pad)
        v = fix(rows[hi][key])
        for r in rows[lo:]:
            if r[key] < v:
                r[key] = v
        return v, rows[lo:hi + 1]

    def _plateau_mysql(self):
        rng = self.rng
        for e in self.my:
            if e["kind"] == "forupdate":
                w = e["w"]
                e["lt"] = 10 + rng.uniform(0.0005, 0.004) if w == "to" else w
                e["qt"] = e["lt"] + rng.uniform(0.0001, 0.0009 if w == "to" else 0.004)

        def fix(q):
            v = math.floor(q * 100) / 100 + 0.01
            return round(v + 0.001 + rng.randint(0, 3000) / 1e6, 6)

        self.qt_p95, region = self._plateau(self.my, "qt", 95, fix)
        assert all(e["kind"] in ("report", "backup", "export") for e in region), [e["kind"] for e in region]

    def _derive_mysql(self):
        rng = self.rng
        t = BACKUP_AT
        for e in self.my:
            if e["kind"] == "backup":
                e["start"] = t
                t = t + secs(e["qt"]) + ms(rng.uniform(30, 400))
        for e in self.my:
            e["end"] = e["start"] + secs(e["qt"])
            k = e["kind"]
            if k == "forupdate":
                e.update(user="boxoffice", ip=e["host"], id=self._pool(e["host"], e["start"]),
                         rs=0 if e["w"] == "to" else rng.choice([2, 4, 4, 4, 6]), re=rng.randint(300, 2400),
                         sql=("SELECT seats.id, seats.row_label, seats.seat_no, seats.status \nFROM seats \n"
                              f"WHERE seats.event_id = {HOT} AND seats.section = '{e['section']}' AND seats.status = "
                              "'available' ORDER BY seats.row_label, seats.seat_no \n LIMIT 4 FOR UPDATE;"))
            elif k == "seatmap":
                e.update(user="boxoffice", ip=e["host"], id=self._pool(e["host"], e["start"]), rs=18240, re=18240,
                         lt=rng.uniform(0.000002, 0.00001),
                         sql=("SELECT seats.id, seats.section, seats.row_label, seats.seat_no, seats.status, "
                              f"seats.price_band_id \nFROM seats \nWHERE seats.event_id = {HOT};"))
            elif k == "search":
                term = rng.choice(TERMS)
                e.update(user="boxoffice", ip=e["host"], id=self._pool(e["host"], e["start"]), rs=rng.randint(0, 50),
                         re=rng.randint(40000, 52000), lt=rng.uniform(0.000002, 0.00001),
                         sql=("SELECT events.id, events.title, events.starts_at, venues.name AS venue_name \nFROM events "
                              "INNER JOIN venues ON venues.id = events.venue_id \nWHERE events.title LIKE "
                              f"'%{term}%' AND events.starts_at > now() ORDER BY events.starts_at \n LIMIT 50;"))
            elif k == "export":
                e.update(user="boxoffice", ip=e["host"], id=self._pool(e["host"], e["start"]), rs=41877, re=3_208_114,
                         lt=0.000008,
                         sql=("SELECT orders.id, orders.created_at, orders.total_cents, tickets.id AS ticket_id, "
                              "tickets.section, tickets.row_label, tickets.seat_no, users.email \nFROM orders "
                              "INNER JOIN tickets ON tickets.order_id = orders.id INNER JOIN users ON users.id = "
                              f"orders.user_id \nWHERE orders.event_id = {HOT} ORDER BY orders.created_at;"))
            elif k == "report":
                q = e["q"]
                sql = [
                    "SELECT date(`orders`.`created_at`) AS `created_at`, count(*) AS `count`, sum(`orders`.`total_cents`) "
                    "AS `sum` FROM `orders` WHERE `orders`.`created_at` >= date(date_add(now(6), INTERVAL -30 day)) "
                    "GROUP BY date(`orders`.`created_at`) ORDER BY date(`orders`.`created_at`) ASC;",
                    "SELECT `events`.`title` AS `title`, count(*) AS `count` FROM `tickets` LEFT JOIN `events` ON "
                    "`tickets`.`event_id` = `events`.`id` WHERE `tickets`.`status` = 'issued' GROUP BY `events`.`title` "
                    "ORDER BY `count` DESC, `events`.`title` ASC LIMIT 10;",
                    "SELECT `refunds`.`reason` AS `reason`, sum(`refunds`.`amount_cents`) AS `sum` FROM `refunds` WHERE "
                    "`refunds`.`created_at` >= date(date_add(now(6), INTERVAL -7 day)) GROUP BY `refunds`.`reason` "
                    "ORDER BY `sum` DESC;",
                    "SELECT `venues`.`name` AS `name`, avg(`orders`.`total_cents`) AS `avg` FROM `orders` LEFT JOIN "
                    "`events` ON `orders`.`event_id` = `events`.`id` LEFT JOIN `venues` ON `events`.`venue_id` = "
                    "`venues`.`id` GROUP BY `venues`.`name` ORDER BY `avg` DESC;",
                    "SELECT `orders`.`user_id` AS `user_id`, count(distinct `orders`.`event_id`) AS `events`, "
                    "sum(`orders`.`total_cents`) AS `spent` FROM `orders` LEFT JOIN `order_items` ON "
                    "`order_items`.`order_id` = `orders`.`id` GROUP BY `orders`.`user_id` HAVING count(distinct "
                    "`orders`.`event_id`) > 3 ORDER BY `spent` DESC;",
                ][q]
                re_ = [rng.randint(4_000_000, 4_300_000), rng.randint(6_100_000, 6_900_000), rng.randint(280_000, 300_000),
                       rng.randint(4_100_000, 4_400_000), 7_906_331][q]
                e.update(user="reports", ip=REPORTS_IP, id=31877 + rng.randrange(4), rs=rng.randint(7, 60) if q < 4 else 2204,
                         re=re_, lt=rng.uniform(0.000003, 0.00002),
                         sql=f"-- Metabase:: userID: {rng.choice([7, 12, 19])} queryType: MBQL queryHash: {_hex(rng, 64)}\n{sql}")
            elif k == "payout":
                q = e["q"]
                e.update(user="payout_worker", ip=PAYOUT_IP, id=50233, rs=0, re=rng.randint(200_000, 400_000),
                         lt=rng.uniform(0.4, 0.9),
                         sql=(f"UPDATE payouts SET status = 'queued', queued_at = now() WHERE status = 'pending' "
                              f"AND promoter_id BETWEEN {q * 2000 + 1} AND {q * 2000 + 2000} "
                              "AND event_date < '2036-03-14';"))
            elif k == "backup":
                e.update(user="backup", ip="", host_name="localhost", id=50612, rs=e["rows"], re=e["rows"],
                         lt=0.0, sql=f"SELECT /*!40001 SQL_NO_CACHE */ * FROM `{e['table']}`;")
        # the requests behind bo-app-1's slow queries end after them
        for e in self.my:
            r = e.get("req")
            if not r:
                continue
            if e["kind"] == "forupdate" and e["w"] == "to":
                r["err_at"] = e["end"] + ms(rng.uniform(1, 4))
                r["dur"] = (r["err_at"] - r["a"]).total_seconds() * 1000 + rng.uniform(1.5, 3)
            elif e["kind"] == "export":
                base = (e["end"] - r["a"]).total_seconds() * 1000
                x = base + 400
                while not (0.05 < x % 1 < 0.45 and 0.05 < (x / 10) % 1 < 0.45 and int(x) not in STATUS_LIKE):
                    x += 0.7
                r["dur"] = round(x, 1) + 0.01
            else:
                r["dur"] = (e["end"] - r["a"]).total_seconds() * 1000 + rng.uniform(8, 60 if e["kind"] == "forupdate" else 120)

    # ------------------------------------------------------------ mongod (cart-db-1)
    def _mongo(self):
        rng = self.rng
        M = self.mg
        self.conns = []
        self.next_conn = 81230

        def dt(t):
            return t

        def conn(t, ip, who, close=None, fail=None):
            cid = self.next_conn
            self.next_conn += 1
            port = rng.randint(32768, 60999)
            c = {"id": cid, "remote": f"{ip}:{port}", "ip": ip, "open": t, "close": close, "uuid": _uuid(rng), "who": who}
            self.conns.append(c)
            return c

        # connections open before midnight (not logged as accepted)
        pre = {APP1: [], APP2: []}
        old_ids = rng.sample(range(60000, 81000), 124)
        for ip in (APP1, APP2):
            for _ in range(60):
                cid = old_ids.pop()
                c = {"id": cid, "remote": f"{ip}:{rng.randint(32768, 60999)}", "ip": ip, "open": None, "close": None,
                     "uuid": _uuid(rng), "who": "app"}
                pre[ip].append(c)
                self.conns.append(c)
        for ip in (DB2, DB3):
            for _ in range(2):
                c = {"id": old_ids.pop(), "remote": f"{ip}:{rng.randint(32768, 60999)}", "ip": ip, "open": None,
                     "close": PART_A + secs(rng.uniform(9.5, 12)), "uuid": _uuid(rng), "who": "repl"}
                self.conns.append(c)
        # app pools: churn all night (maxIdleTimeMS), growth at the on-sale, reset at the stepdown
        for ip in (APP1, APP2):
            for t in _poisson(rng, START, END, 1.1):
                if PART_A - secs(60) < t < TK_WON + secs(120):
                    continue
                conn(t, ip, "app", close=t + timedelta(minutes=rng.uniform(4, 16)))
            for _ in range(36):
                t = ONSALE + secs(rng.betavariate(1.3, 2.5) * 100)
                conn(t, ip, "app", close=T(1, 12) + timedelta(minutes=rng.uniform(0, 14)))
        for c in list(self.conns):
            if c["who"] == "app" and (c["open"] is None or c["open"] < STEPDOWN) and (c["close"] is None or c["close"] > STEPDOWN):
                c["close"] = STEPDOWN + ms(rng.uniform(900, 4200))
        for ip in (APP1, APP2):
            for _ in range(8):
                conn(NEWPRI_APP + ms(rng.uniform(50, 3000)), ip, "app", close=TK_START + ms(rng.uniform(900, 2500)))
            for _ in range(62):
                conn(TK_WON + ms(rng.uniform(300, 50000)), ip, "app", close=None)
        for ip in (DB2, DB3):
            for _ in range(2):
                conn(HEAL + ms(rng.uniform(200, 1500)), ip, "repl", close=None)
        # the ETL job with a rotated password, a second cron, someone on the VPN
        for ip, every, jit, a in ((ETL1, 120, 6, T(0, 0, 41)), (ETL2, 540, 40, T(0, 3, 12))):
            t = a
            while t < END:
                c = conn(t, ip, "etl")
                c["fail"] = "etl_reader"
                c["close"] = t + ms(rng.uniform(9, 18))
                t += secs(every + rng.uniform(-jit, jit))
        for t in (T(0, 44, 2, 118000), T(0, 44, 19, 530000), T(0, 44, 51, 6000), T(0, 45, 30, 771000), T(0, 47, 2, 290000)):
            c = conn(t, VPN, "shell")
            c["fail"] = "admin"
            c["close"] = t + ms(rng.uniform(30, 90))
        dba = conn(T(3, 39, 40, 303000), DBA_IP, "shell", close=T(3, 44, 10, 88000))
        # connection ids grow with time
        for i, c in enumerate(sorted((c for c in self.conns if c["open"] is not None), key=lambda c: c["open"])):
            c["id"] = 81230 + i

        # what each connection logs
        drivers = {"app": ({"name": "PyMongo", "version": "4.6.2"}, "CPython 3.12.2.final.0", "boxoffice"),
                   "etl": ({"name": "PyMongo", "version": "4.3.3"}, "CPython 3.10.12.final.0", "nightly-etl"),
                   "shell": ({"name": "nodejs|mongosh", "version": "6.3.0|2.2.5"}, "Node.js v20.12.0, LE", "mongosh 2.2.5")}
        ev = []  # connection opens and closes, for connectionCount
        for c in self.conns:
            if c["open"] is not None:
                ev.append((c["open"], 1, c))
            if c["close"] is not None:
                ev.append((c["close"], -1, c))
        ev.sort(key=lambda x: (x[0], -x[1]))
        count = 187
        for t, d, c in ev:
            count += d
            uu = {"uuid": {"$uuid": c["uuid"]}}
            if d == 1:
                M.append((t, "I", "NETWORK", 22943, "listener", "Connection accepted",
                          {"remote": c["remote"], "isLoadBalanced": False, "uuid": uu, "connectionId": c["id"],
                           "connectionCount": count}))
                ctx = f"conn{c['id']}"
                if c["who"] == "repl":
                    M.append((t + ms(1), "I", "NETWORK", 51800, ctx, "client metadata",
                              {"remote": c["remote"], "client": ctx, "negotiatedCompressors": ["snappy", "zstd", "zlib"],
                               "doc": {"driver": {"name": "NetworkInterfaceTL-ReplNetwork", "version": "7.0.8"},
                                       "os": {"type": "Linux", "name": "Ubuntu", "architecture": "x86_64", "version": "22.04"}}}))
                    continue
                drv, plat, app = drivers[c["who"]]
                doc = {"application": {"name": app}, "driver": drv,
                       "os": {"type": "Linux", "name": "Linux", "architecture": "x86_64", "version": "6.5.0-1017-aws"},
                       "platform": plat}
                t1 = t + ms(rng.uniform(1, 3))
                M.append((t1, "I", "NETWORK", 51800, ctx, "client metadata",
                          {"remote": c["remote"], "client": ctx, "negotiatedCompressors": [], "doc": doc}))
                t2 = t1 + ms(rng.uniform(2, 7))
                user = c.get("fail") or ("boxoffice" if c["who"] == "app" else "dba_mara")
                metrics = {"conversation_duration": {"micros": rng.randint(2800, 9000),
                                                     "summary": {"0": {"step": 1, "step_total": 2, "duration_micros": rng.randint(300, 900)},
                                                                 "1": {"step": 2, "step_total": 2, "duration_micros": rng.randint(60, 200)}}}}
                if c.get("fail"):
                    M.append((t2, "I", "ACCESS", 5286307, ctx, "Failed to authenticate",
                              {"client": c["remote"], "isSpeculative": False, "isClusterMember": False,
                               "mechanism": "SCRAM-SHA-256", "user": user, "db": "admin",
                               "error": "AuthenticationFailed: SCRAM authentication failed, storedKey mismatch",
                               "result": 18, "metrics": metrics, "extraInfo": {}}))
                    continue
                M.append((t2, "I", "ACCESS", 5286306, ctx, "Successfully authenticated",
                          {"client": c["remote"], "isSpeculative": c["who"] == "app", "isClusterMember": False,
                           "mechanism": "SCRAM-SHA-256", "user": user, "db": "admin", "result": 0, "metrics": metrics,
                           "extraInfo": {}}))
                M.append((t2 + ms(rng.uniform(0.3, 2)), "I", "NETWORK", 6788700, ctx,
                          "Received first command on ingress connection since session start or auth handshake",
                          {"elapsedMillis": rng.randint(0, 3)}))
            else:
                M.append((t, "I", "NETWORK", 22944, f"conn{c['id']}", "Connection ended",
                          {"remote": c["remote"], "isLoadBalanced": False, "uuid": uu, "connectionId": c["id"],
                           "connectionCount": count}))

        def alive(ip, t):
            xs = [c for c in self.conns if c["ip"] == ip and c["who"] == "app" and (c["open"] is None or c["open"] < t)
                  and (c["close"] is None or c["close"] > t)]
            return rng.choice(xs)

        # slow operations
        slow = []  # (t_start, dm, kind, ip, extra)
        for r in self.reqs:
            if r.get("mg_write"):
                slow.append({"start": r["a"] + ms(rng.uniform(5, 20)), "dm": r["mg_write"], "kind": "hold", "ip": APP1})
            if r.get("collscan"):
                slow.append({"start": r["a"] + ms(rng.uniform(2, 4)), "dm": rng.randint(900, 2600), "kind": "collscan",
                             "ip": APP1, "req": r})
        for _ in range(sum(1 for s in slow if s["kind"] == "hold")):
            slow.append({"start": ONSALE + secs(rng.uniform(0, 480)), "dm": rng.randint(110, 480), "kind": "hold", "ip": APP2})
        for t in _poisson(rng, COLLSCAN_A, INDEX_DONE - secs(1), 3.9):
            slow.append({"start": t, "dm": rng.randint(900, 2600), "kind": "collscan", "ip": APP2})
        t = T(0, 4, 30)
        while t < END:
            if rng.random() < 0.55:
                slow.append({"start": t + secs(rng.uniform(0, 5)), "dm": rng.randint(100, 380), "kind": "sweep", "ip": APP1})
            t += timedelta(minutes=5)
        slow.append({"start": INDEX_START, "dm": 0, "kind": "index", "ip": DBA_IP})

        def fix(v):
            v += 1
            while v in STATUS_LIKE or v % 10 == 0:
                v += 1
            return v

        self.dm_p95, region = self._plateau([s for s in slow if s["kind"] != "index"], "dm", 95, fix)
        idx = [s for s in slow if s["kind"] == "index"][0]
        idx["dm"] = int((INDEX_DONE - INDEX_START).total_seconds() * 1000) + 91
        self.dm_max = idx["dm"]
        self.slow = slow
        for s in slow:
            s["end"] = s["start"] + ms(s["dm"])
            k = s["kind"]
            if k == "index":
                c = dba
                ctx = f"conn{c['id']}"
            else:
                c = alive(s["ip"], s["start"])
                ctx = f"conn{c['id']}"
            locks = {"FeatureCompatibilityVersion": {"acquireCount": {"r" if k in ("collscan",) else "w": rng.randint(1, 3)}},
                     "Global": {"acquireCount": {"r" if k in ("collscan",) else "w": rng.randint(1, 3)}}}
            if k == "collscan":
                docs = rng.randint(1_196_000, 1_212_000)
                attr = {"type": "command", "ns": "carts.carts", "appName": "boxoffice",
                        "command": {"find": "carts", "filter": {"sessionToken": _tok(rng, 32), "status": "open"}, "limit": 1,
                                    "singleBatch": True, "lsid": {"id": {"$uuid": _uuid(rng)}},
                                    "$db": "carts", "$readPreference": {"mode": "primaryPreferred"}},
                        "planSummary": "COLLSCAN", "planningTimeMicros": rng.randint(40, 140), "keysExamined": 0,
                        "docsExamined": docs, "cursorExhausted": True, "numYields": docs // 1000 + rng.randint(0, 9),
                        "nreturned": rng.choice([0, 1, 1, 1]), "queryHash": "5B7C2A10", "planCacheKey": "9E03D7F2",
                        "queryFramework": "classic", "reslen": rng.randint(230, 2900), "locks": locks,
                        "readConcern": {"level": "local", "provenance": "implicitDefault"},
                        "storage": {"data": {"bytesRead": rng.randint(10_000, 900_000), "timeReadingMicros": rng.randint(900, 40_000)}},
                        "remote": c["remote"], "protocol": "op_msg", "durationMillis": s["dm"]}
                M.append((s["end"], "I", "COMMAND", 51803, ctx, "Slow query", attr))
            elif k == "hold":
                attr = {"type": "update", "ns": "carts.holds", "appName": "boxoffice",
                        "command": {"q": {"_id": {"$oid": _hex(rng, 24)}},
                                    "u": {"$set": {"eventId": HOT, "seats": rng.randint(1, 6), "status": "held"}},
                                    "multi": False, "upsert": True},
                        "planSummary": "IDHACK", "keysExamined": 0, "docsExamined": 0, "nMatched": 0, "nModified": 0,
                        "nUpserted": 1, "keysInserted": 3, "numYields": 0, "locks": locks, "flowControl": {"acquireCount": 1},
                        "storage": {}, "remote": c["remote"], "durationMillis": s["dm"]}
                M.append((s["end"], "I", "WRITE", 51803, ctx, "Slow query", attr))
            elif k == "sweep":
                n = rng.randint(3, 40)
                attr = {"type": "remove", "ns": "carts.holds", "appName": "boxoffice",
                        "command": {"q": {"expiresAt": {"$lt": {"$date": f"{s['start']:%Y-%m-%dT%H:%M:%S}.000Z"}},
                                          "status": "held"}, "limit": 0},
                        "planSummary": "IXSCAN { expiresAt: 1 }", "keysExamined": n, "docsExamined": n, "ndeleted": n,
                        "keysDeleted": 3 * n, "numYields": 0, "locks": locks, "flowControl": {"acquireCount": 1},
                        "storage": {}, "remote": c["remote"], "durationMillis": s["dm"]}
                M.append((s["end"], "I", "WRITE", 51803, ctx, "Slow query", attr))
            else:
                bu = {"uuid": {"$uuid": _uuid(rng)}}
                cu = {"uuid": {"$uuid": "5f2c0a4e-91d7-4c3b-8a6e-0d1f7b2e9c41"}}
                cmd = {"createIndexes": "carts", "indexes": [{"key": {"sessionToken": 1}, "name": "sessionToken_1"}],
                       "lsid": {"id": {"$uuid": _uuid(rng)}}, "$db": "carts"}
                M.append((INDEX_START + ms(3), "I", "INDEX", 20438, ctx, "Index build: registering",
                          {"buildUUID": bu, "namespace": "carts.carts", "collectionUUID": cu, "indexes": 1,
                           "firstIndex": {"name": "sessionToken_1"}, "command": cmd}))
                M.append((INDEX_START + ms(19), "I", "INDEX", 20384, "IndexBuildsCoordinatorMongod-0", "Index build: starting",
                          {"buildUUID": bu, "collectionUUID": cu, "namespace": "carts.carts",
                           "properties": {"v": 2, "key": {"sessionToken": 1}, "name": "sessionToken_1"},
                           "specIndex": 0, "numSpecs": 1, "method": "Hybrid", "maxTemporaryMemoryUsageMB": 200}))
                M.append((INDEX_DONE - secs(5.412), "I", "INDEX", 20391, "IndexBuildsCoordinatorMongod-0",
                          "Index build: collection scan done",
                          {"buildUUID": bu, "collectionUUID": cu, "namespace": "carts.carts", "totalRecords": 1_208_112,
                           "readSource": "kNoTimestamp", "durationMillis": int((INDEX_DONE - INDEX_START).total_seconds() * 1000) - 5450}))
                M.append((INDEX_DONE - secs(0.38), "I", "INDEX", 20685, "IndexBuildsCoordinatorMongod-0",
                          "Index build: inserted keys from external sorter into index",
                          {"namespace": "carts.carts", "index": "sessionToken_1", "keysInserted": 1_208_112, "durationMillis": 4987}))
                M.append((INDEX_DONE - ms(21), "I", "STORAGE", 20663, "IndexBuildsCoordinatorMongod-0",
                          "Index build: done building",
                          {"buildUUID": bu, "collectionUUID": cu, "namespace": "carts.carts", "index": "sessionToken_1",
                           "ident": f"index-{rng.randint(300, 900)}-{rng.randint(10 ** 18, 10 ** 19)}",
                           "collectionIdent": "collection-41-8830521448013359904", "commitTimestamp": None}))
                M.append((INDEX_DONE - ms(2), "I", "INDEX", 20447, "IndexBuildsCoordinatorMongod-0", "Index build: completed",
                          {"buildUUID": bu}))
                attr = {"type": "command", "ns": "carts.$cmd", "appName": "mongosh 2.2.5", "command": cmd,
                        "numYields": 0, "reslen": 271, "locks": locks, "writeConcern": {"w": "majority", "wtimeout": 0,
                                                                                         "provenance": "implicitDefault"},
                        "storage": {}, "remote": c["remote"], "protocol": "op_msg", "durationMillis": s["dm"]}
                M.append((s["end"], "I", "COMMAND", 51803, ctx, "Slow query", attr))

        # the replica set: cut off at 02:31, steps down, cart-db-2 takes over, cart-db-1 takes back
        tgt = lambda h: RS_HOST.format(h)  # noqa: E731
        t = HB_FAIL
        first = True
        while t < HEAL:
            for h, ip in (("cart-db-2", DB2), ("cart-db-3", DB3)):
                tt = t + (ms(0) if h == "cart-db-2" else ms(rng.uniform(300, 900)))
                if first and h == "cart-db-3":
                    tt = HB_FAIL + ms(612)
                M.append((tt, "I", "REPL_HB", 23974, "ReplCoord-12", "Heartbeat failed after max retries",
                          {"target": tgt(h), "maxHeartbeatRetries": 2,
                           "error": {"code": 6, "codeName": "HostUnreachable",
                                     "errmsg": f"Error connecting to {tgt(h)} ({ip}:27017) :: caused by :: Connection timed out"}}))
            first = False
            t += secs(2) + ms(rng.uniform(0, 40))
        M.append((STEPDOWN, "I", "REPL", 21809, "ReplCoord-3", "Can't see a majority of the set, relinquishing primary", {}))
        M.append((STEPDOWN + ms(2), "I", "REPL", 21402, "ReplCoord-3", "Stepping down from primary in response to heartbeat",
                  {}))
        M.append((STEPDOWN + ms(4), "I", "REPL", 21358, "ReplCoord-3", "Replica set state transition",
                  {"newState": "SECONDARY", "oldState": "PRIMARY"}))
        M.append((STEPDOWN + ms(5), "I", "REPL", 21340, "RstlKillOpThread", "State transition ops metrics",
                  {"lastStateTransition": "stepDown", "userOpsKilled": 4, "userOpsRunning": 41}))
        M.append((NEWPRI_SEEN, "I", "REPL", 21215, "ReplCoord-14", "Member is in new state",
                  {"hostAndPort": tgt("cart-db-2"), "newState": "PRIMARY"}))
        M.append((NEWPRI_SEEN + ms(7), "I", "REPL", 21215, "ReplCoord-14", "Member is in new state",
                  {"hostAndPort": tgt("cart-db-3"), "newState": "SECONDARY"}))
        M.append((NEWPRI_SEEN + ms(1402), "I", "REPL", 21799, "BackgroundSync", "Sync source candidate chosen",
                  {"syncSource": tgt("cart-db-2")}))
        M.append((NEWPRI_SEEN + ms(1410), "I", "REPL", 21088, "BackgroundSync", "Changed sync source",
                  {"oldSyncSource": "empty", "newSyncSource": tgt("cart-db-2")}))
        M.append((TK_START, "I", "ELECTION", 21434, "ReplCoord-9", "Starting an election for a priority takeover", {}))
        M.append((TK_START + ms(3), "I", "ELECTION", 21438, "ReplCoord-9",
                  "Conducting a dry run election to see if we could be elected", {"currentTerm": 18}))
        M.append((TK_START + ms(11), "I", "ELECTION", 21444, "ReplCoord-11", "Dry election run succeeded, running for election",
                  {"newTerm": 19}))
        M.append((TK_WON, "I", "ELECTION", 21450, "ReplCoord-12", "Election succeeded, assuming primary role", {"term": 19}))
        M.append((TK_WON + ms(2), "I", "REPL", 21358, "ReplCoord-12", "Replica set state transition",
                  {"newState": "PRIMARY", "oldState": "SECONDARY"}))
        M.append((TK_WON + ms(318), "I", "REPL", 21331, "OplogApplier-0",
                  "Transition to primary complete; database writes are now permitted", {}))
        # WiredTiger checkpoints, every minute
        t = START + secs(17.4)
        gen = 23_455
        while t < END:
            gen += rng.randint(3, 9)
            sn = rng.randint(10 ** 6, 10 ** 7)
            ts = int(_epoch(t))
            M.append((t, "I", "WTCHKPT", 22430, "Checkpointer", "WiredTiger message",
                      {"message": {"ts_sec": ts, "ts_usec": t.microsecond, "thread": f"2231:0x7f3a{_hex(rng, 8)}",
                                   "session_name": "WT_SESSION.checkpoint", "category": "WT_VERB_CHECKPOINT_PROGRESS",
                                   "category_id": 6, "verbose_level": "DEBUG_1", "verbose_level_id": 1,
                                   "msg": f"saving checkpoint snapshot min: {sn}, snapshot max: {sn} snapshot count: 0, "
                                          f"oldest timestamp: ({ts - 300}, 1) , meta checkpoint timestamp: ({ts}, 1) "
                                          f"base write gen: {gen}"}}))
            t += secs(60) + ms(rng.uniform(-30, 30))
        # the requests behind the COLLSCANs end after them
        for s in slow:
            r = s.get("req")
            if r:
                r["dur"] = (s["end"] - r["a"]).total_seconds() * 1000 + rng.uniform(4, 15)

    # ------------------------------------------------------------ tuning of bo-app-1's figures
    def _tune_share(self):
        """The share of 429s among the holds off its rounding edge: a few late holds that went through."""
        rng = self.rng
        while True:
            holds = [r for r in self.reqs if r["kind"] == "hold"]
            p = 100 * sum(1 for r in holds if r["st"] == 429) / len(holds)
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            ip = rng.choice([f for f in self.fans if f in self.user])
            r = self._req(T(3, 50) + secs(rng.uniform(0, 540)), ip, "hold", event=rng.choice(EVENTS), section="C")
            r.update(method="POST", path="/api/v1/holds", st=201, dur=_lognorm(rng, 62, 0.4), limited=False)
        self.reqs.sort(key=lambda r: r["a"])

    def _plateau_checkout(self):
        rows = [r for r in self.reqs if r["kind"] == "checkout"]

        def fix(d):
            m = int(d) + 1
            while m % 10 >= 5 or m in STATUS_LIKE:
                m += 1
            return m + 0.2

        self.checkout_p95, _ = self._plateau(rows, "dur", 95, fix)

    def _finish_app(self):
        rng = self.rng
        for r in self.reqs:
            r["dur"] = round(r["dur"], 1)
            if abs(r["dur"] - 1000) < 0.05:
                r["dur"] = 1000.3
            r["end"] = r["a"] + timedelta(microseconds=int(r["dur"] * 1000) + rng.randint(20, 900))
            if "err" in r and "err_at" not in r:
                r["err_at"] = r["end"] - ms(rng.uniform(0.5, 2))
        # other records: the hold sweeper, deploys, webhooks, slow payments
        X = self.app_extra
        t = START + secs(7.3)
        while t < END:
            if PART_A < t < NEWPRI_APP + secs(1):
                X.append((t, "ERROR", "sweeper", "hold sweep failed: not primary", []))
            else:
                X.append((t, "INFO", "sweeper", f"released {rng.randint(0, 9) if not ONSALE <= t < T(1, 40) else rng.randint(20, 140)} expired holds", []))
            t += secs(60) + ms(rng.uniform(-40, 40))
        for i in range(4):
            X.append((DEPLOY + ms(300 + 410 * i), "INFO", "app",
                      f"boxoffice 2.18.0 (git 4f9a1c2) worker started, pid {31877 + i}", []))
        for t in _poisson(rng, START, END, 0.03):
            X.append((t, "ERROR", "webhooks", f"stripe signature verification failed from 54.187.{rng.randint(170, 250)}.{rng.randint(2, 250)}", []))
        for t in _poisson(rng, START, END, 0.05):
            X.append((t, "WARNING", "payments", f"stripe charge slow: {rng.randint(2100, 4800)}ms order=ord_{_hex(rng, 12)}", []))


# ------------------------------------------------------------ rendering: boxoffice.log (Flask + logging)

VENV = "/srv/boxoffice/venv/lib/python3.12/site-packages"
FLASK_FRAMES = [
    f'  File "{VENV}/flask/app.py", line 1511, in wsgi_app',
    "    response = self.full_dispatch_request()",
    "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    f'  File "{VENV}/flask/app.py", line 919, in full_dispatch_request',
    "    rv = self.handle_user_exception(e)",
    "         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    f'  File "{VENV}/flask/app.py", line 917, in full_dispatch_request',
    "    rv = self.dispatch_request()",
    "         ^^^^^^^^^^^^^^^^^^^^^^",
    f'  File "{VENV}/flask/app.py", line 902, in dispatch_request',
    "    return self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)  # type: ignore[no-any-return]",
    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    f'  File "{VENV}/flask_limiter/extension.py", line 1297, in __inner',
    "    return cast(R, flask.current_app.ensure_sync(obj)(*a, **k))",
    "                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
]


def _lock_tb(section):
    return [
        "Traceback (most recent call last):",
        f'  File "{VENV}/sqlalchemy/engine/base.py", line 1967, in _exec_single_context',
        "    self.dialect.do_execute(",
        f'  File "{VENV}/sqlalchemy/engine/default.py", line 924, in do_execute',
        "    cursor.execute(statement, parameters)",
        f'  File "{VENV}/pymysql/cursors.py", line 153, in execute',
        "    result = self._query(query)",
        "             ^^^^^^^^^^^^^^^^^^",
        f'  File "{VENV}/pymysql/cursors.py", line 322, in _query',
        "    conn.query(q)",
        f'  File "{VENV}/pymysql/connections.py", line 563, in query',
        "    self._affected_rows = self._read_query_result(unbuffered=unbuffered)",
        "                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{VENV}/pymysql/connections.py", line 825, in _read_query_result',
        "    result.read()",
        f'  File "{VENV}/pymysql/connections.py", line 1199, in read',
        "    first_packet = self.connection._read_packet()",
        "                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{VENV}/pymysql/connections.py", line 775, in _read_packet',
        "    packet.raise_for_error()",
        f'  File "{VENV}/pymysql/protocol.py", line 219, in raise_for_error',
        "    err.raise_mysql_exception(self._data)",
        f'  File "{VENV}/pymysql/err.py", line 150, in raise_mysql_exception',
        "    raise errorclass(errno, errval)",
        "pymysql.err.OperationalError: (1205, 'Lock wait timeout exceeded; try restarting transaction')",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        *FLASK_FRAMES,
        '  File "/srv/boxoffice/boxoffice/holds.py", line 88, in create_hold',
        '    seats = lock_seats(db.session, event_id, body["section"], body["qty"])',
        "            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "/srv/boxoffice/boxoffice/holds.py", line 41, in lock_seats',
        "    ).scalars().all()",
        "      ^^^^^^^^^",
        f'  File "{VENV}/sqlalchemy/orm/session.py", line 2351, in execute',
        "    return self._execute_internal(",
        f'  File "{VENV}/sqlalchemy/engine/base.py", line 1986, in _exec_single_context',
        "    self._handle_dbapi_exception(",
        f'  File "{VENV}/sqlalchemy/engine/base.py", line 2355, in _handle_dbapi_exception',
        "    raise sqlalchemy_exception.with_traceback(exc_info[2]) from e",
        "sqlalchemy.exc.OperationalError: (pymysql.err.OperationalError) (1205, 'Lock wait timeout exceeded; try restarting transaction')",
        "[SQL: SELECT seats.id, seats.row_label, seats.seat_no, seats.status ",
        "FROM seats ",
        "WHERE seats.event_id = %(event_id_1)s AND seats.section = %(section_1)s AND seats.status = %(status_1)s "
        "ORDER BY seats.row_label, seats.seat_no ",
        " LIMIT %(param_1)s FOR UPDATE]",
        f"[parameters: {{'event_id_1': {HOT}, 'section_1': '{section}', 'status_1': 'available', 'param_1': 4}}]",
        "(Background on this error at: https://sqlalche.me/e/20/e3q8)",
    ]


def _np_tb(rng, kind, t):
    where = {"hold": ('  File "/srv/boxoffice/boxoffice/holds.py", line 96, in create_hold',
                      "    carts.add_hold(g.session_token, hold)"),
             "unhold": ('  File "/srv/boxoffice/boxoffice/holds.py", line 131, in release_hold',
                        "    carts.remove_hold(g.session_token, hold_id)"),
             "checkout": ('  File "/srv/boxoffice/boxoffice/checkout.py", line 74, in checkout',
                          "    carts.close(g.session_token, order.id)")}[kind]
    pid, counter = ("65f1c2a09b3e4d7c8a1f0e26", 7) if t < TK_A else ("65f1c2b17c0d2e9f4b6a3c58", 12)
    return [
        "Traceback (most recent call last):",
        *FLASK_FRAMES,
        *where,
        '  File "/srv/boxoffice/boxoffice/carts.py", line 57, in update',
        "    res = self.col.update_one({\"sessionToken\": token, \"status\": \"open\"}, change, upsert=True)",
        "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "{VENV}/pymongo/collection.py", line 1087, in update_one',
        "    self._update_retryable(",
        f'  File "{VENV}/pymongo/collection.py", line 883, in _update_retryable',
        "    return self.__database.client._retryable_write(",
        f'  File "{VENV}/pymongo/mongo_client.py", line 1523, in _retryable_write',
        "    return self._retry_with_session(retryable, func, s, None)",
        f'  File "{VENV}/pymongo/helpers.py", line 239, in _check_command_response',
        "    raise NotPrimaryError(errmsg, response)",
        "pymongo.errors.NotPrimaryError: not primary, full error: {'topologyVersion': {'processId': "
        f"ObjectId('{pid}'), 'counter': {counter}}}, 'ok': 0.0, 'errmsg': 'not primary', 'code': 10107, "
        "'codeName': 'NotWritablePrimary'}",
    ]


KEYERR_TB = [
    "Traceback (most recent call last):",
    *FLASK_FRAMES,
    '  File "/srv/boxoffice/boxoffice/holds.py", line 88, in create_hold',
    '    seats = lock_seats(db.session, event_id, body["section"], body["qty"])',
    "                                             ~~~~^^^^^^^^^^^",
    "KeyError: 'section'",
]


def _asctime(t):
    return f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}"


def app_log(night, seed):
    rng = random.Random(seed + 1)
    L = []  # (t, seq, [lines])
    seq = 0

    def rec(t, level, module, text, tb=()):
        nonlocal seq
        seq += 1
        L.append((t, seq, [f"[{_asctime(t)}] {level} in {module}: {text}", *tb]))

    for r in night.reqs:
        if r.get("limited"):
            rec(r["a"] + ms(rng.uniform(0.4, 1.0)), "WARNING", "extension",
                f"ratelimit 20 per 1 minute ({r['ip']}) exceeded at endpoint: holds.create_hold")
        if r.get("err"):
            tb = {"lock": lambda: _lock_tb(r["section"]), "notprimary": lambda: _np_tb(rng, r["kind"], r["err_at"]),
                  "keyerror": lambda: KEYERR_TB}[r["err"]]()
            rec(r["err_at"], "ERROR", "app", f"Exception on {r['path']} [{r['method']}]", tb)
        rec(r["end"], "INFO", "access", f"{r['ip']} \"{r['method']} {r['path']}\" {r['st']} {r['dur']:.1f}ms "
                                        f"user={r['user'] or '-'}")
    for t, level, module, text, tb in night.app_extra:
        rec(t, level, module, text, tb)
    L.sort(key=lambda x: (_asctime(x[0]), x[0], x[1]))
    return "\n".join(line for _, _, lines in L for line in lines) + "\n"


# ------------------------------------------------------------ rendering: mysql-slow.log

def mysql_log(night, seed):
    E = sorted(night.my, key=lambda e: e["end"])
    out = ["/usr/sbin/mysqld, Version: 8.0.36-0ubuntu0.22.04.1 ((Ubuntu)). started with:",
           "Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock",
           "Time                 Id Command    Argument"]
    db = None
    for e in E:
        host = e.get("host_name", "")
        out.append(f"# Time: {e['end']:%Y-%m-%dT%H:%M:%S}.{e['end'].microsecond:06d}Z")
        out.append(f"# User@Host: {e['user']}[{e['user']}] @ {host} [{e['ip']}]  Id: {e['id']:5d}")
        out.append(f"# Query_time: {e['qt']:.6f}  Lock_time: {e['lt']:.6f} Rows_sent: {e['rs']}  Rows_examined: {e['re']}")
        want = "boxoffice"
        if db != want:
            out.append(f"use {want};")
            db = want
        out.append(f"SET timestamp={int(_epoch(e['start']))};")
        out.extend(e["sql"].split("\n"))
    return "\n".join(out) + "\n"


# ------------------------------------------------------------ rendering: mongod.log (7.0 JSON)

def _mongo_date(t):
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}+00:00"


def _mongo_line(t, s, c, id_, ctx, msg, attr):
    head = ('{"t":{"$date":"' + _mongo_date(t) + '"},"s":' + f'"{s}",'.ljust(6) + '"c":' + f'"{c}",'.ljust(12)
            + '"id":' + f"{id_},".ljust(9) + '"ctx":' + json.dumps(ctx) + ',"msg":' + json.dumps(msg))
    if attr:
        head += ',"attr":' + json.dumps(attr, separators=(",", ":"))
    return head + "}"


def mongo_log(night, seed):
    M = sorted(night.mg, key=lambda x: x[0])
    return "\n".join(_mongo_line(*x) for x in M) + "\n"


APP, MYSQL, MONGO = "boxoffice.log", "mysql-slow.log", "mongod.log"


def write_all(seed):
    night = Night(seed)
    return {APP: app_log(night, seed), MYSQL: mysql_log(night, seed), MONGO: mongo_log(night, seed)}, night
