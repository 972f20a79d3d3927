"""Writes the `queries-heldout18` fixtures: one night (2036-02-21, 00:00-04:00 UTC) at Corvale, an
online grocer. Three logs, written from one shared schedule of requests so that the files agree
with each other:

- `haproxy.log`: the edge load balancer `lb-edge-1`, HAProxy's default HTTP log format
  (`option httplog`) as rsyslog writes it to a file: a traditional syslog header
  (`Feb 21 01:23:45 lb-edge-1 haproxy[1187]: `), then `%ci:%cp [%tr] %ft %b/%s
  %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %{+Q}r`, with the
  Host and User-Agent request headers captured (`{host|ua}`, the agent cut at 64 characters),
  plus the health-check and server state lines (`option log-health-checks`);
- `basketd.log`: the Go basket/checkout API (three instances behind `be_api`), Go's
  `log/slog` JSONHandler output, one JSON object a line (`time` in RFC 3339 with nanoseconds,
  trailing zeros dropped, `level`, `msg`, then the attributes; `slog.Duration` values are
  integer nanoseconds; the Kafka attributes are a `slog.Group`);
- `server.log`: the Kafka broker `kafka-2` (KRaft, node id 2), log4j's `[%d] %p %m (%c)%n`,
  with multi-line entries: exceptions and their `\tat ...` stack frames.

Standard library only; everything comes from one seeded `random.Random`.
"""

import math
import random
from datetime import datetime, timedelta

DAY = datetime(2036, 2, 21)
EPOCH = datetime(1970, 1, 1)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def ms(x):
    return timedelta(milliseconds=x)


START, END = T(0, 0), T(4, 0)

LB, HAPID = "lb-edge-1", 1187
SHOP, API = "shop.corvale.example", "api.corvale.example"
API_SRV = ["basket-1", "basket-2", "basket-3"]
WEB_SRV = ["web-1", "web-2"]
SEARCH_SRV = ["search-1", "search-2"]

STUFF1, STUFF2 = "198.51.100.23", "198.51.100.24"     # the credential stuffers
STUFF_UA = "python-requests/2.31.0"
PARTNER = "35.204.77.19"                              # a delivery partner polling slots
PARTNER_UA = "freshlane-slot-sync/3.2 (+https://freshlane.example/bot; ops@freshlane.example)"
PARTNER_USER = "u_partner_freshlane"
MONITOR = "203.0.113.200"
MONITOR_UA = "Blackbox-Exporter/0.25.0"
RETRIER, RETRIER_IP = "u_700101", "81.2.69.160"       # a catering account retrying its checkout
RETRIER_UA = "okhttp/4.12.0"
PROBE, PROBE2 = "10.0.3.15", "10.0.3.16"              # who send HTTP to Kafka's port

# --- the night's planted events
STUFF_A = T(1, 58, 11, 402000)          # the first stuffer's first request
FIRST_429 = T(2, 0, 37, 118000)         # haproxy starts denying it
STUFF2_A = T(2, 6, 0, 0)
STUFF2_LIMIT = T(2, 7, 41, 260000)
STUFF_BURST = T(2, 11)                  # a parallel burst: the busiest minute of the balancer
STUFF_B = T(2, 19, 50, 0)

GC_A = T(2, 26, 0)                      # basket-2's heap climbs, its requests slow down
CRASH = T(2, 41, 5, 40000)              # basket-2 is OOM-killed
DOWN = T(2, 41, 17, 602000)             # haproxy marks it DOWN
RESTART = T(2, 45, 2, 311000)           # basketd 1.42.1 starts on basket-2
UP = T(2, 45, 9, 655000)                # haproxy marks it UP
MAX_TR = T(2, 38, 51, 227000)           # the slowest server response of the night (accepted)
MAX_TR_MS = 9412

K3_DOWN = T(0, 52, 14, 318000)          # kafka-3 drops: kafka-2's fetchers from it fail
SHRINK_1 = T(0, 52, 44, 107000)         # the ISR check that drops 3
SHRINK_2 = T(0, 52, 59, 109000)
FIRST_NER = T(0, 52, 47, 611000)        # the catering account's first rejected checkout
K3_BRIEF = T(0, 58, 3, 0)               # kafka-3 back for a moment
K3_AGAIN = T(0, 59, 31, 0)              # and gone again
K3_BACK = T(1, 7, 52, 0)                # back for good
LAST_EXPAND = T(1, 8, 31, 406000)
RETRY_A, RETRY_B = T(0, 53, 2), T(1, 7, 40)

FLAP = "payments-4"                     # follower 1 lags now and then: payments-4 flaps
FLAP_TIMES = [T(3, 2, 11, 330000), T(3, 9, 40, 12000), T(3, 17, 5, 904000), T(3, 26, 31, 77000),
              T(3, 34, 58, 615000), T(3, 43, 20, 281000)]
PROBE_A, PROBE_B = T(3, 12, 7, 0), T(3, 44, 50, 0)
PROBE_BURST = T(3, 27)
MAX_ROLL_MS, MAX_ROLL_AT, MAX_ROLL_PART = 1874, T(1, 36, 44, 512000), "audit-log-12"
MAX_PG_AT, MAX_PG_NS = T(3, 33, 18, 440000), 6_412_338_901
TOPIC_DELETED_AT = T(2, 56, 20, 0)

STATUS_LIKE = {200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 409, 422, 429, 499, 500, 502, 503, 504}

HOST_IDS = {1: "10.0.1.11", 2: "10.0.1.12", 3: "10.0.1.13"}

UAS = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.3 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/133.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.3 Safari/605.1.15",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/133.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:135.0) Gecko/20100101 Firefox/135.0",
    "Corvale/7.14.2 (iPhone; iOS 18.3; Scale/3.00)",
    "Corvale/7.14.1 (Android 14; SM-S918B)",
    "okhttp/4.12.0",
]
UA_W = [22, 18, 10, 12, 4, 16, 12, 6]

CATS = ["fruit-veg", "bakery", "dairy-eggs", "meat-fish", "frozen", "drinks", "household", "baby", "pets", "pantry"]
PRODUCTS = ["organic-bananas-6pk", "sourdough-loaf-800g", "semi-skimmed-milk-2l", "free-range-eggs-12", "oat-milk-1l",
            "salmon-fillets-2x120g", "basmati-rice-1kg", "baby-spinach-200g", "greek-yoghurt-500g", "dog-food-12x400g",
            "washing-up-liquid-900ml", "avocados-ripe-2pk", "chicken-thighs-1kg", "frozen-peas-900g", "espresso-beans-1kg"]
QUERIES = ["oat+milk", "gluten+free+bread", "nappies+size+4", "tofu", "ice+cream", "bin+bags", "coffee+pods", "hummus",
           "birthday+cake", "lemons", "cat+litter", "sparkling+water"]
POSTCODES = ["EC1V%209HX", "N1%207GU", "SE1%209SG", "E8%203RL", "SW9%208BH", "NW1%200DU", "W2%201JB", "E14%205AB"]
USERNAMES_FIRST = ["anna", "ben", "chloe", "daniel", "ella", "femi", "grace", "harry", "isla", "jack", "kofi", "lena", "maya",
                   "noah", "olivia", "priya", "quinn", "ruby", "sam", "tariq", "uma", "vik", "will", "xena", "yusuf", "zara"]
USERNAMES_LAST = ["ahmed", "brown", "cohen", "davies", "evans", "fischer", "garcia", "hughes", "ito", "jones", "khan", "lopez",
                  "murphy", "novak", "okafor", "patel", "quinn", "rossi", "smith", "taylor", "usman", "vance", "walsh", "young"]
MAIL = ["mailbox.example", "post.example", "inbox.example", "webmail.example"]

# API routes: (method, path, weight, median ms, sigma, ok status, body bytes range)
API_ROUTES = [
    ("GET", "/api/v1/basket", 44, 17, 0.5, 200, (700, 5200)),
    ("POST", "/api/v1/basket/items", 19, 33, 0.45, 201, (300, 900)),
    ("GET", "/api/v1/slots", 12, 55, 0.45, 200, (1800, 4200)),
    ("GET", "/api/v1/orders/{id}", 8, 24, 0.5, 200, (900, 3100)),
    ("POST", "/api/v1/checkout", 7, 170, 0.4, 201, (400, 700)),
    ("POST", "/api/v1/login", 5, 88, 0.25, 200, (300, 420)),
    ("GET", "/api/v1/me", 5, 11, 0.4, 200, (350, 600)),
]


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _epoch_ms(t):
    return int((t - EPOCH).total_seconds() * 1000)


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _to_ms(t):
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.reqs = []       # every request haproxy logged
        self.hextra = []     # haproxy's other lines: (t, text)
        self.bextra = []     # basketd's other records: (t, ns, dict)
        self.kafka = []      # broker entries: (t, level, text, logger, [continuation lines])
        self._people()
        self._background()
        self._partner()
        self._monitor()
        self._slowest()
        self._stuffing()
        self._retrier()
        self.reqs.sort(key=lambda r: r["a"])
        self._serve()
        self._tune_share()
        self._plateau_checkout()
        self._timers()
        self._plateau_ta()
        self._basketd_misc()
        self._kafka()

    # ------------------------------------------------------------ who shops
    def _people(self):
        rng = self.rng
        firsts = [2, 5, 31, 37, 46, 62, 77, 78, 80, 81, 82, 86, 90, 92, 94, 109, 146, 151, 176, 178, 185, 188, 212, 213]
        ips = set()
        while len(ips) < 1650:
            ip = f"{rng.choice(firsts)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
            if not ip.startswith(("198.51.100.", "203.0.113.", "10.")) and ip != RETRIER_IP:
                ips.add(ip)
        self.ips = sorted(ips)
        rng.shuffle(self.ips)
        # a Zipf-ish weight: a few busy households, a long tail
        self.ip_w = [1.0 / (i + 12) ** 0.85 for i in range(len(self.ips))]
        self.user = {}
        self.ua = {}
        used = set()
        for ip in self.ips:
            self.ua[ip] = rng.choices(UAS, UA_W)[0]
            if rng.random() < 0.72:
                while True:
                    u = f"u_{rng.randint(100000, 699999)}"
                    if u not in used:
                        used.add(u)
                        break
                self.user[ip] = u

    def shopper(self):
        return self.rng.choices(self.ips, self.ip_w)[0]

    def _req(self, a, ip, be, method, uri, ua, **kw):
        host = API if be == "be_api" else SHOP
        r = {"a": _to_ms(a), "ip": ip, "cport": self.rng.randint(1025, 65535), "fe": "fe_https~", "be": be, "method": method,
             "uri": uri, "ua": ua, "host": host, "user": None, "srv": None}
        r.update(kw)
        self.reqs.append(r)
        return r

    def _rate(self, t):
        """Shopper requests per minute: a quiet night that picks up before four."""
        h = (t - START).total_seconds() / 3600
        return 58 - 9.5 * h if h < 3.2 else 27.6 + 9 * (h - 3.2)

    def _background(self):
        rng = self.rng
        t = START
        while True:
            t += timedelta(seconds=rng.expovariate(self._rate(t) / 60.0))
            if t >= END:
                break
            ip = self.shopper()
            x = rng.random()
            if x < 0.03:
                r = self._req(t, ip, "fe_http", "GET", rng.choice(["/", f"/c/{rng.choice(CATS)}"]), self.ua[ip])
                r["fe"], r["host"] = "fe_http", SHOP
            elif x < 0.33:
                y = rng.random()
                uri = ("/" if y < 0.2 else f"/c/{rng.choice(CATS)}" if y < 0.5 else
                       f"/p/{rng.choice(PRODUCTS)}" if y < 0.85 else f"/static/app.{rng.choice(['4f1c2e', '9a0d37'])}.js")
                self._req(t, ip, "be_web", "GET", uri, self.ua[ip])
            elif x < 0.42:
                self._req(t, ip, "be_search", "GET", f"/search?q={rng.choice(QUERIES)}", self.ua[ip])
            else:
                route = rng.choices(API_ROUTES, [w[2] for w in API_ROUTES])[0]
                method, path = route[0], route[1]
                uri = path
                if path == "/api/v1/slots":
                    uri = f"{path}?postcode={rng.choice(POSTCODES)}&date=2036-02-2{rng.randint(1, 4)}"
                elif "{id}" in path:
                    uri = path.replace("{id}", f"ord_{rng.randint(10 ** 7, 10 ** 8 - 1)}")
                user = self.user.get(ip)
                if path == "/api/v1/login":
                    user = None
                elif path in ("/api/v1/checkout", "/api/v1/orders/{id}", "/api/v1/me") and user is None:
                    continue
                self._req(t, ip, "be_api", method, uri, self.ua[ip], route=route, user=user)

    def _partner(self):
        rng = self.rng
        t = START + timedelta(seconds=rng.uniform(0, 12))
        while t < END:
            self._req(t, PARTNER, "be_api", "GET", f"/api/v1/slots?postcode={rng.choice(POSTCODES)}&date=2036-02-22",
                      PARTNER_UA, route=API_ROUTES[2], user=PARTNER_USER)
            t += timedelta(seconds=12, milliseconds=rng.randint(-40, 40))

    def _slowest(self):
        ip = self.shopper()
        self._req(MAX_TR, ip, "be_api", "GET", f"/api/v1/slots?postcode={POSTCODES[3]}&date=2036-02-22", self.ua[ip],
                  route=API_ROUTES[2], user=self.user.get(ip), force_srv="basket-2", max_tr=True)

    def _monitor(self):
        rng = self.rng
        t = START + timedelta(seconds=7, milliseconds=rng.randint(0, 900))
        while t < END:
            self._req(t, MONITOR, "be_api", "GET", "/api/v1/health", MONITOR_UA,
                      route=("GET", "/api/v1/health", 0, 1.6, 0.3, 200, (61, 61)))
            t += timedelta(seconds=30, milliseconds=rng.randint(-3, 3))

    # ------------------------------------------------------------ the credential stuffing
    def _login_name(self):
        rng = self.rng
        return f"{rng.choice(USERNAMES_FIRST)}.{rng.choice(USERNAMES_LAST)}{rng.choice(['', '', str(rng.randint(1, 99))])}@{rng.choice(MAIL)}"

    def _stuffing(self):
        rng = self.rng
        login = API_ROUTES[5]
        names = []
        seen = set()
        while len(names) < 4000:
            x = self._login_name()
            if x not in seen:
                seen.add(x)
                names.append(x)
        self.stuff_names = names
        k = 0

        def attempt(t, ip, deny_p, limit_at):
            nonlocal k
            # the leaked list is walked in order; now and then a name comes round again
            name = names[k] if rng.random() > 0.04 or k < 5 else names[k - rng.randint(1, 5)]
            k += 1
            denied = t >= limit_at and rng.random() < deny_p
            self._req(t, ip, "be_api", "POST", "/api/v1/login", STUFF_UA, route=login, stuff=name,
                      denied=denied)

        # the first stuffer ramps up, is rate limited from FIRST_429, keeps going, bursts in 02:11
        t = STUFF_A
        attempt(t, STUFF1, 0, FIRST_429)
        while t < STUFF_B:
            per_min = 24 if t < T(1, 59) else 88
            t += timedelta(seconds=rng.expovariate(per_min / 60.0))
            if T(2, 0, 36) < t < T(2, 0, 38):
                continue
            if t < STUFF_B:
                attempt(t, STUFF1, 0.9, FIRST_429)
        r = self._req(FIRST_429, STUFF1, "be_api", "POST", "/api/v1/login", STUFF_UA, route=login, stuff=names[k],
                      denied=True)
        k += 1
        for _ in range(310):
            attempt(STUFF_BURST + timedelta(seconds=rng.uniform(0.5, 59.5)), STUFF1, 0.9, FIRST_429)
        # the second joins later
        t = STUFF2_A
        while t < STUFF_B - timedelta(seconds=20):
            t += timedelta(seconds=rng.expovariate(50 / 60.0))
            if STUFF2_LIMIT - timedelta(seconds=1) < t < STUFF2_LIMIT + timedelta(seconds=1):
                continue
            attempt(t, STUFF2, 0.85, STUFF2_LIMIT)
        self._req(STUFF2_LIMIT, STUFF2, "be_api", "POST", "/api/v1/login", STUFF_UA, route=login, stuff=names[k],
                  denied=True)
        # the last request of the night from the stuffers is denied, alone in its second
        self._req(STUFF_B + timedelta(milliseconds=211), STUFF1, "be_api", "POST", "/api/v1/login", STUFF_UA, route=login,
                  stuff=names[k + 1], denied=True)
        self.last_429 = _to_ms(STUFF_B + timedelta(milliseconds=211))
        del r

    # ------------------------------------------------------------ the catering account
    def _retrier(self):
        rng = self.rng
        t = RETRY_A
        self._req(FIRST_NER - timedelta(milliseconds=41), RETRIER_IP, "be_api", "POST", "/api/v1/checkout", RETRIER_UA,
                  route=API_ROUTES[4], user=RETRIER)
        while t < RETRY_B:
            self._req(t, RETRIER_IP, "be_api", "POST", "/api/v1/checkout", RETRIER_UA, route=API_ROUTES[4], user=RETRIER)
            self._req(t - timedelta(seconds=rng.uniform(1, 4)), RETRIER_IP, "be_api", "GET", "/api/v1/basket", RETRIER_UA,
                      route=API_ROUTES[0], user=RETRIER)
            t += timedelta(seconds=rng.uniform(10.5, 13.0))

    # ------------------------------------------------------------ serving
    def order_partition(self, user):
        if user == RETRIER:
            return 7
        return int(user[2:]) * 7919 % 12

    def _serve(self):
        rng = self.rng
        rr = {"be_web": 0, "be_search": 0, "be_api": 0}
        srvs = {"be_web": WEB_SRV, "be_search": SEARCH_SRV, "be_api": API_SRV}
        self.search2_down = (T(1, 31, 12, 406000), T(1, 33, 40, 880000))
        # the orders partitions led by kafka-2 whose only follower is kafka-3 (RF 2, min.insync.replicas 2)
        bad = [1, 4, 7, 10]
        self.ner_windows = {}
        for p in bad:
            a = SHRINK_1 + timedelta(milliseconds=2 + p)
            b = K3_BACK + timedelta(seconds=rng.uniform(4, 30))
            self.ner_windows[p] = (a, b)
        for r in self.reqs:
            a = r["a"]
            if r["fe"] == "fe_http":
                r.update(st=301, bytes=rng.choice([107, 108]), flags="LR--", be="fe_http", srv="<NOSRV>")
                continue
            if r.get("denied"):
                r.update(st=429, bytes=222, flags="PR--", be="fe_https", srv="<NOSRV>")
                continue
            be = r["be"]
            pool = list(srvs[be])
            if be == "be_search" and self.search2_down[0] <= a < self.search2_down[1]:
                pool = ["search-1"]
            if be == "be_api" and DOWN <= a < UP:
                pool = ["basket-1", "basket-3"]
            if r.get("force_srv"):
                srv = r["force_srv"]
            else:
                srv = pool[rr[be] % len(pool)]
                rr[be] += 1
            r["srv"] = srv
            r["flags"] = "----"
            r["rc"] = "0"
            r["Tw"] = 0
            r["Tc"] = 0 if rng.random() < 0.7 else 1
            if be == "be_api" and srv == "basket-2" and CRASH <= a < DOWN:
                # connection refused: one retry, then redispatched
                r["srv"] = rng.choice(["basket-1", "basket-3"])
                r["rc"] = "+1"
                r["Tc"] = 1000 + rng.randint(1, 3)
            if be == "be_web":
                self._serve_web(r)
            elif be == "be_search":
                self._serve_search(r)
            else:
                self._serve_api(r)

    def _serve_web(self, r):
        rng = self.rng
        uri = r["uri"]
        r["dur"] = max(1.0, _lognorm(rng, 6 if uri.startswith("/static/") else 24, 0.5))
        if uri.startswith("/static/"):
            r["st"], r["bytes"] = (304, rng.randint(180, 200)) if rng.random() < 0.55 else (200, rng.randint(182000, 182400))
        elif uri.startswith("/p/") and rng.random() < 0.03:
            r["st"], r["bytes"] = 404, rng.randint(5200, 5400)
        else:
            r["st"], r["bytes"] = 200, rng.randint(14000, 78000)

    def _serve_search(self, r):
        rng = self.rng
        d = _lognorm(rng, 75, 0.55)
        if rng.random() < 0.01 and not (T(2, 5) <= r["a"] < T(3, 5)):
            d = rng.uniform(1100, 1600)   # a cold shard now and then (not near the basket-2 night)
        r["dur"] = min(d, 980) if d < 1100 else d
        r["st"], r["bytes"] = 200, rng.randint(6000, 41000)

    def _gc_factor(self, t):
        """basket-2's slowdown while its heap climbs: 1 at GC_A, about 400 by the crash."""
        x = (t - GC_A).total_seconds() / (CRASH - GC_A).total_seconds()
        return 1 + 400 * x ** 3

    def _serve_api(self, r):
        rng = self.rng
        method, path, _, med, sigma, ok, (b0, b1) = r["route"]
        r["path"] = path if "{id}" not in path else r["uri"].split("?")[0]
        d = max(0.6, _lognorm(rng, med, sigma))
        d = min(d, 850)
        r["st"], r["body"] = ok, rng.randint(b0, b1)
        r["inst"] = r["srv"]
        a = r["a"]
        if r.get("stuff"):
            r["st"], r["body"] = 401, rng.randint(88, 96)
            r["login_failed"] = "unknown_user" if rng.random() < 0.81 else "invalid_credentials"
        elif path == "/api/v1/login" and rng.random() < 0.11:
            r["st"], r["body"] = 401, rng.randint(88, 96)
            r["login_failed"] = "invalid_credentials"
            r["stuff"] = None
            r["uname"] = self._login_name()
        if path == "/api/v1/checkout":
            p = self.order_partition(r["user"])
            r["partition"] = p
            w = self.ner_windows.get(p)
            if w and K3_DOWN <= a < FIRST_NER - ms(100):
                # produce would hang waiting for kafka-3's ack: nobody checked out on these partitions then
                r["partition"] = p = (p + 1) % 12
                w = self.ner_windows.get(p)
            if w and w[0] < a + ms(d * 0.6) < w[1]:
                r["ner"] = a + ms(r["Tc"] + rng.uniform(20, 40))
                d = rng.uniform(45, 90)
                r["st"], r["body"] = 503, rng.randint(140, 150)
        if r["srv"] == "basket-2" and GC_A <= a < CRASH:
            f = self._gc_factor(a)
            d = d * f
            if path == "/api/v1/checkout" and d > 7400:
                d = rng.uniform(5000, 7400)
            if a + ms(min(d, 10000)) >= CRASH:
                # still running when the process died
                r["crashed"] = True
                return
            if d >= 10000:
                r["timeout"] = True
            elif d > 7400:
                d = rng.uniform(6000, 7400)
        if r.get("max_tr"):
            d = MAX_TR_MS - 0.6
            r.pop("timeout", None)
        r["dur"] = d

    def _tune_share(self):
        """basket-2's share of be_api lines off its rounding edge: move late requests between servers."""
        api = [r for r in self.reqs if r["be"] == "be_api"]
        late = [r for r in api if r["a"] >= T(3, 50) and r["srv"] in ("basket-1", "basket-3") and r.get("rc") == "0"
                and r["st"] < 400]
        i = 0
        while True:
            k = sum(1 for r in api if r["srv"] == "basket-2")
            p = 100 * k / len(api)
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            late[i]["srv"] = late[i]["inst"] = "basket-2"
            i += 1

    # ------------------------------------------------------------ percentiles on plateaus
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
        return v

    def _plateau_checkout(self):
        rows = [r for r in self.reqs if r.get("route") and r["route"][1] == "/api/v1/checkout" and "dur" in r
                and not r.get("timeout")]

        def fix(d):
            m = int(d) + 1
            while m % 10 >= 5 or m in STATUS_LIKE:
                m += 1
            return m + 0.2113

        self.checkout_p99_ms = self._plateau(rows, "dur", 99, fix)

    def _timers(self):
        rng = self.rng
        for r in self.reqs:
            r["TR"] = 0 if rng.random() < 0.8 else rng.randint(1, 14)
            if r["srv"] == "<NOSRV>":
                r["Tw"] = r["Tc"] = r["Tr"] = -1
                r["Ta"] = r["TR"] + (0 if rng.random() < 0.9 else 1)
                continue
            if r.get("crashed"):
                r["Tr"] = -1
                r["Ta"] = int((CRASH - r["a"]).total_seconds() * 1000) + 1
                r["st"], r["bytes"], r["flags"] = 502, 209, "SH--"
                continue
            if r.get("timeout"):
                r["Tr"] = -1
                r["Ta"] = r["TR"] + r["Tw"] + r["Tc"] + 10000 + rng.randint(0, 2)
                r["st"], r["bytes"], r["flags"] = 504, 198, "sH--"
                continue
            r["Tr"] = int(math.ceil(r["dur"])) + (1 if rng.random() < 0.3 else 0)
            if r.get("max_tr"):
                r["Tr"] = MAX_TR_MS
            big = r.get("bytes", r.get("body", 500))
            r["Td"] = 0 if big < 20000 else rng.randint(1, 30)
            r["Ta"] = r["TR"] + r["Tw"] + r["Tc"] + r["Tr"] + r["Td"]
            if "bytes" not in r:
                r["bytes"] = r["body"] + rng.randint(230, 270)
            while r["bytes"] in STATUS_LIKE:
                r["bytes"] += 1
        for r in self.reqs:
            if r["Ta"] == 1000:
                r["Ta"] = 1001

    def _plateau_ta(self):
        rows = [r for r in self.reqs if r["be"] == "be_api"]

        def fix(v):
            v += 1
            while v in STATUS_LIKE:
                v += 1
            return v

        self.ta_p95 = self._plateau(rows, "Ta", 95, fix)
        for r in rows:
            assert r["Ta"] >= r["TR"] + max(r["Tw"], 0) + max(r["Tc"], 0) + max(r["Tr"], 0)

    # ------------------------------------------------------------ basketd's other records
    def _basketd_misc(self):
        rng = self.rng
        B = self.bextra
        for i, inst in enumerate(API_SRV):
            t = START + timedelta(seconds=41 + 13 * i, microseconds=rng.randint(0, 999999))
            heap = rng.randint(180, 260)
            while t < END:
                alive = not (inst == "basket-2" and CRASH <= t < RESTART)
                if alive:
                    lvl, h = "INFO", heap + rng.randint(-30, 30)
                    if inst == "basket-2" and GC_A <= t < CRASH:
                        h = int(300 + 1200 * ((t - GC_A).total_seconds() / (CRASH - GC_A).total_seconds()))
                        lvl = "WARN" if h > 1000 else "INFO"
                    rec = {"level": lvl, "msg": "runtime stats" if lvl == "INFO" else "heap near GOMEMLIMIT",
                           "instance": inst, "goroutines": rng.randint(180, 420), "heap_alloc_mb": h,
                           "num_gc": rng.randint(10000, 90000), "gomemlimit": "1536MiB"}
                    B.append((t, rec))
                t += timedelta(minutes=5, microseconds=rng.randint(-400000, 400000))
        # the restart of basket-2
        B.append((RESTART, {"level": "INFO", "msg": "starting basketd", "instance": "basket-2", "version": "1.42.1",
                            "commit": "4be09c7", "go_version": "go1.24.2", "gomemlimit": "1280MiB"}))
        B.append((RESTART + ms(38), {"level": "INFO", "msg": "kafka producer connected", "instance": "basket-2",
                                     "brokers": "kafka-1:9092,kafka-2:9092,kafka-3:9092", "acks": "all"}))
        B.append((RESTART + ms(41), {"level": "INFO", "msg": "http server listening", "instance": "basket-2", "addr": ":8080"}))
        # slow postgres queries: a few all night, a run on basket-2 while its heap climbs, the worst on basket-3
        qs = ["SELECT s.id, s.starts_at, s.capacity FROM slots s WHERE s.postcode_area = $1 AND s.day = $2 FOR SHARE",
              "SELECT i.sku, i.qty, p.price_pence FROM basket_items i JOIN prices p ON p.sku = i.sku WHERE i.basket_id = $1",
              "UPDATE baskets SET updated_at = now() WHERE id = $1"]
        for t in _poisson(rng, START, END, 0.09):
            if T(2, 10) <= t < T(3, 0):
                continue
            B.append((t, {"level": "WARN", "msg": "postgres query slow", "instance": rng.choice(API_SRV),
                          "query": rng.choice(qs), "elapsed": int(rng.uniform(520, 2900) * 1e6) + rng.randint(0, 999999),
                          "rows": rng.randint(1, 40)}))
        for t in _poisson(rng, GC_A + timedelta(minutes=2), CRASH - timedelta(seconds=20), 2.2):
            B.append((t, {"level": "WARN", "msg": "postgres query slow", "instance": "basket-2", "query": rng.choice(qs),
                          "elapsed": int(rng.uniform(1500, 4900) * 1e6) + rng.randint(0, 999999), "rows": rng.randint(1, 40)}))
        B.append((MAX_PG_AT, {"level": "WARN", "msg": "postgres query slow", "instance": "basket-3",
                              "query": "SELECT d.driver_id, count(*) FROM deliveries d WHERE d.slot_id = ANY($1) GROUP BY 1",
                              "elapsed": MAX_PG_NS, "rows": 37}))
        # the pool on basket-2 gives up now and then while it crawls; redis hiccups all night
        for t in _poisson(rng, GC_A + timedelta(minutes=4), CRASH - timedelta(seconds=5), 1.4):
            B.append((t, {"level": "ERROR", "msg": "load basket failed", "instance": "basket-2",
                          "err": "postgres: acquire conn: context deadline exceeded"}))
        for t in _poisson(rng, START, END, 0.06):
            if T(2, 25) <= t < T(2, 50):
                continue
            B.append((t, {"level": "ERROR", "msg": "session cache unavailable", "instance": rng.choice(API_SRV),
                          "err": "redis: i/o timeout", "addr": "redis-sessions:6379"}))

    # ------------------------------------------------------------ the broker
    def _kafka(self):
        rng = self.rng
        K = self.kafka
        topics = [("basket-events", 48, 3), ("payments", 12, 3), ("order-projections", 24, 3), ("__consumer_offsets", 50, 3),
                  ("search-docs", 30, 3), ("audit-log", 24, 3), ("slot-reservations", 16, 3), ("orders", 12, 2)]
        off = {"basket-events": 2, "payments": 0, "order-projections": 1, "__consumer_offsets": 0, "search-docs": 2,
               "audit-log": 1, "slot-reservations": 0, "orders": 0}
        self.replicas = {}
        for name, n, rf in topics:
            for p in range(n):
                lead = 1 + (p + off[name]) % 3
                reps = [lead] + [1 + (lead - 1 + j) % 3 for j in range(1, rf)]
                self.replicas[f"{name}-{p}"] = reps
        led = [tp for tp, reps in self.replicas.items() if reps[0] == 2]
        with3 = [tp for tp in led if 3 in self.replicas[tp]]
        assert FLAP in with3 and MAX_ROLL_PART in led and all(f"orders-{p}" in with3 for p in self.ner_windows)
        self.led_with3 = with3
        version = {tp: rng.randint(9, 60) for tp in led}
        hw = {tp: rng.randint(10 ** 5, 9 * 10 ** 7) for tp in led}
        isr = {tp: list(self.replicas[tp]) for tp in led}

        def part(tp, t, level, text):
            K.append((t, level, f"[Partition {tp} broker=2] {text}", "kafka.cluster.Partition", []))

        def shrink(tp, t, out):
            old = ",".join(map(str, isr[tp]))
            isr[tp] = [b for b in isr[tp] if b != out]
            new = ",".join(map(str, isr[tp]))
            h = hw[tp]
            hw[tp] += rng.randint(10, 4000)
            part(tp, t, "INFO", f"Shrinking ISR from {old} to {new}. Leader: (highWatermark: {h}, endOffset: "
                                f"{h + rng.randint(1, 40)}). Out of sync replicas: (brokerId: {out}, endOffset: "
                                f"{h - rng.randint(1, 900)}, lastCaughtUpTimeMs: {_epoch_ms(t) - rng.randint(30001, 31900)}).")
            version[tp] += 1
            part(tp, t + ms(rng.randint(3, 9)), "INFO", f"ISR updated to {new} and version updated to {version[tp]}")

        def expand(tp, t, back):
            old = ",".join(map(str, isr[tp]))
            isr[tp] = [b for b in self.replicas[tp] if b in isr[tp] or b == back]
            new = ",".join(map(str, isr[tp]))
            part(tp, t, "INFO", f"Expanding ISR from {old} to {new}")
            version[tp] += 1
            part(tp, t + ms(rng.randint(3, 9)), "INFO", f"ISR updated to {new} and version updated to {version[tp]}")

        # --- kafka-3 drops out
        fetch_parts = [tp for tp, reps in self.replicas.items() if reps[0] == 3 and 2 in reps]
        for fid, dt in ((0, 0), (1, 183)):
            mine = fetch_parts[fid::2][:3]
            data = ", ".join(f"{tp}=PartitionData(topicId={_b62(rng, 22)}, fetchOffset={rng.randint(10 ** 5, 10 ** 8)}, "
                             f"logStartOffset={rng.randint(0, 10 ** 5)}, maxBytes=1048576, currentLeaderEpoch=Optional[{rng.randint(20, 40)}], "
                             f"lastFetchedEpoch=Optional[{rng.randint(20, 40)}])" for tp in mine)
            K.append((K3_DOWN + ms(dt), "WARN",
                      f"[ReplicaFetcher replicaId=2, leaderId=3, fetcherId={fid}] Error in response for fetch request "
                      f"(type=FetchRequest, replicaId=2, maxWait=500, minBytes=1, maxBytes=10485760, fetchData={{{data}, ...}}, "
                      f"isolationLevel=READ_UNCOMMITTED, removed=, replaced=, metadata=(sessionId={rng.randint(10 ** 8, 2 ** 31)}, "
                      f"epoch={rng.randint(100, 9000)}), rackId=)",
                      "kafka.server.ReplicaFetcherThread",
                      ["java.io.IOException: Connection to 3 was disconnected before the response was read"] + FETCH_STACK))
        t = K3_DOWN + ms(640)
        while t < K3_DOWN + timedelta(seconds=9):
            for fid in (0, 1):
                K.append((t + ms(rng.randint(0, 200)), "WARN",
                          f"[ReplicaFetcher replicaId=2, leaderId=3, fetcherId={fid}] Connection to node 3 "
                          f"(kafka-3.corvale.internal/10.0.1.13:9092) could not be established. Node may not be available.",
                          "org.apache.kafka.clients.NetworkClient", []))
            t += ms(rng.randint(1000, 1150))
        K.append((K3_DOWN + timedelta(seconds=9, milliseconds=512), "INFO",
                  f"[ReplicaFetcherManager on broker 2] Removed fetcher for partitions HashSet({', '.join(fetch_parts[:6])}, ...)",
                  "kafka.server.ReplicaFetcherManager", []))
        K.append((K3_DOWN + timedelta(seconds=9, milliseconds=530), "INFO",
                  f"[Broker id=2] Transitioning {len(fetch_parts) // 2 + 3} partition(s) to local leaders.",
                  "state.change.logger", []))
        # the ISR check drops 3 from everything kafka-2 leads, over two runs
        order = list(with3)
        rng.shuffle(order)
        for tp in [f"orders-{p}" for p in sorted(self.ner_windows)]:
            order.remove(tp)
        for p in sorted(self.ner_windows):
            shrink(f"orders-{p}", self.ner_windows[p][0] - ms(1), 3)
        first_run, second_run = order[:40], order[40:]
        for i, tp in enumerate(first_run):
            shrink(tp, SHRINK_1 + ms(i * 2), 3)
        for i, tp in enumerate(second_run):
            shrink(tp, SHRINK_2 + ms(i * 2), 3)
        # a brief return: the quiet partitions catch up, then it drops again
        quiet = sorted(tp for tp in with3 if not tp.startswith(("orders-", "basket-events-", FLAP)))
        rng.shuffle(quiet)
        brief = sorted(quiet[:31])
        for i, tp in enumerate(brief):
            expand(tp, K3_BRIEF + timedelta(seconds=1 + i * 1.1, milliseconds=rng.randint(0, 300)), 3)
        for i, tp in enumerate(brief):
            shrink(tp, K3_AGAIN + timedelta(seconds=31, milliseconds=100 + i * 3 + (0 if i < 20 else 15000)), 3)
        # back for good: everything catches up, the orders partitions among them
        catch = sorted(with3, key=lambda tp: rng.random())
        times = {}
        for tp in catch:
            if tp.startswith("orders-"):
                times[tp] = self.ner_windows[int(tp.split("-")[1])][1]
            else:
                times[tp] = K3_BACK + timedelta(seconds=rng.uniform(1.5, 38))
        last = max((tp for tp in catch if not tp.startswith("orders-")), key=lambda tp: times[tp])
        times[last] = LAST_EXPAND
        for tp in catch:
            assert times[tp] <= LAST_EXPAND
            expand(tp, times[tp], 3)
        # the produce requests rejected while an orders partition had only {2}
        for r in self.reqs:
            if r.get("ner"):
                tp = f"orders-{r['partition']}"
                K.append((r["ner"], "ERROR", f"[ReplicaManager broker=2] Error processing append operation on partition {tp}",
                          "kafka.server.ReplicaManager",
                          [f"org.apache.kafka.common.errors.NotEnoughReplicasException: The size of the current ISR Set(2) "
                           f"is insufficient to satisfy the min.isr requirement of 2 for partition {tp}"]))
        # --- payments-4's follower 1 lags now and then
        for t in FLAP_TIMES:
            shrink(FLAP, t, 1)
            expand(FLAP, t + timedelta(seconds=rng.uniform(40, 160)), 1)
        # --- a topic deleted while kafka-2 still fetched it
        gone = [tp for tp, reps in self.replicas.items() if tp.startswith("search-docs-") and reps[0] == 1][:3]
        for j in range(2):
            for i, tp in enumerate(gone):
                t = TOPIC_DELETED_AT + timedelta(seconds=j * 0.5, milliseconds=i * 7 + 3)
                K.append((t, "ERROR", f"[ReplicaFetcher replicaId=2, leaderId=1, fetcherId=0] Error for partition {tp} at offset "
                                      f"{rng.randint(10 ** 6, 10 ** 7)}", "kafka.server.ReplicaFetcherThread",
                          ["org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition."]))
        # --- something sends HTTP to the broker port
        probes = []
        t = PROBE_A
        while t < PROBE_B:
            probes.append((t, PROBE))
            t += timedelta(seconds=20, milliseconds=rng.randint(-300, 300))
        for i in range(43):
            probes.append((PROBE_BURST + timedelta(seconds=0.4 + i * 1.38, milliseconds=rng.randint(0, 200)), PROBE))
        for t in [T(1, 41, 3, 288000), T(1, 41, 9, 713000), T(1, 42, 30, 5000), T(3, 55, 12, 90000)]:
            probes.append((t, PROBE2))
        for t, src in probes:
            port = rng.randint(32768, 60999)
            K.append((t, "WARN", f"[SocketServer listenerType=BROKER, nodeId=2] Unexpected error from /{src} "
                                 f"(channelId=10.0.1.12:9092-{src}:{port}-{rng.randint(1, 40)}); closing connection",
                      "org.apache.kafka.common.network.Selector",
                      ["org.apache.kafka.common.network.InvalidReceiveException: Invalid receive (size = 1195725856 larger than 104857600)"]
                      + RECV_STACK))
        # --- consumer groups
        self._groups()
        # --- the steady background
        rolls = sorted(led, key=lambda tp: (not tp.startswith("basket-events"), tp))
        t = START
        worst = 0
        while True:
            t += timedelta(seconds=rng.expovariate(1 / 47))
            if t >= END:
                break
            tp = rng.choice(rolls[:16]) if rng.random() < 0.6 else rng.choice(rolls)
            took = rng.choice([0, 1, 1, 2, 2, 3, 4, 6, 9, 14]) if rng.random() < 0.95 else rng.randint(30, 1400)
            worst = max(worst, took)
            self._roll(tp, t, took, hw)
        self._roll(MAX_ROLL_PART, MAX_ROLL_AT, MAX_ROLL_MS, hw)
        assert worst < 0.8 * MAX_ROLL_MS
        t = START + timedelta(minutes=4, seconds=19)
        while t < END:
            tp = rng.choice(rolls)
            base = rng.randint(10 ** 6, 10 ** 8)
            size = rng.randint(1073700000, 1073741823)
            mod = _epoch_ms(t) - 604800000 - rng.randint(1000, 900000)
            seg = f"LogSegment(baseOffset={base}, size={size}, lastModifiedTime={mod}, largestRecordTimestamp=Some({mod - rng.randint(1, 50)}))"
            K.append((t, "INFO", f"[UnifiedLog partition={tp}, dir=/var/lib/kafka/data] Deleting segment {seg} due to log retention "
                                 f"time 604800000ms breach based on the largest record timestamp in the segment",
                      "kafka.log.UnifiedLog", []))
            K.append((t + timedelta(seconds=60, milliseconds=rng.randint(1, 30)), "INFO",
                      f"[LocalLog partition={tp}, dir=/var/lib/kafka/data] Deleting segment files {seg.replace('largestRecordTimestamp', 'largestRecordTime')}",
                      "kafka.log.LocalLog$", []))
            t += timedelta(minutes=5, seconds=rng.randint(-40, 40))
        t = START + timedelta(minutes=7, seconds=2, milliseconds=rng.randint(0, 999))
        while t < END:
            K.append((t, "INFO", f"[GroupMetadataManager brokerId=2] Removed {rng.choice([0, 0, 0, 1, 2])} expired offsets in "
                                 f"{rng.randint(0, 3)} milliseconds.", "kafka.coordinator.group.GroupMetadataManager", []))
            t += timedelta(minutes=10, milliseconds=rng.randint(-20, 20))
        t = START + timedelta(minutes=23, seconds=11)
        while t < END:
            K.append((t, "INFO", f"[SnapshotGenerator id=2] Creating new KRaft snapshot file snapshot "
                                 f"000000000000{rng.randint(10 ** 7, 10 ** 8)}-0000000{rng.randint(100, 999)} because we have waited "
                                 f"at least 60 minute(s).", "org.apache.kafka.image.publisher.SnapshotGenerator", []))
            t += timedelta(minutes=60, seconds=rng.randint(-5, 5))

    def _roll(self, tp, t, took, hw):
        rng = self.rng
        hw[tp] = hw.get(tp, 10 ** 6) + rng.randint(10 ** 4, 10 ** 6)
        o = hw[tp]
        self.kafka.append((t, "INFO", f"[LocalLog partition={tp}, dir=/var/lib/kafka/data] Rolled new log segment at offset {o} "
                                      f"in {took} ms.", "kafka.log.LocalLog", []))
        self.kafka.append((t + ms(took + rng.randint(0, 2)), "INFO",
                           f"[ProducerStateManager partition={tp}] Wrote producer snapshot at offset {o} with "
                           f"{rng.randint(0, 12)} producer ids in {rng.randint(0, 3)} ms.",
                           "org.apache.kafka.storage.internals.log.ProducerStateManager", []))

    def _groups(self):
        rng = self.rng
        K = self.kafka
        GC = "kafka.coordinator.group.GroupCoordinator"

        def member(g):
            return f"consumer-{g}-{rng.randint(1, 9)}-{_uuid(rng)}"

        def rebalance(g, t, gen, n, why, co):
            K.append((t, "INFO", f"[GroupCoordinator 2]: Preparing to rebalance group {g} in state PreparingRebalance with old "
                                 f"generation {gen} ({co}) (reason: {why})", GC, []))
            t2 = t + timedelta(seconds=rng.uniform(0.3, 3.2))
            K.append((t2, "INFO", f"[GroupCoordinator 2]: Stabilized group {g} generation {gen + 1} ({co}) with {n} members", GC, []))
            K.append((t2 + ms(rng.randint(4, 40)), "INFO",
                      f"[GroupCoordinator 2]: Assignment received from leader {member(g)} for group {g} for generation "
                      f"{gen + 1}. The group has {n} members, 0 of which are static.", GC, []))
            return gen + 1, t2

        # checkout-workers: stable, one deploy at 00:24, then a storm of heartbeat expiries 03:14-03:41
        g, co = "checkout-workers", "__consumer_offsets-27"
        gen, n = 117, 6
        t = T(0, 24, 10, 512000)
        for _ in range(2):
            gen, t = rebalance(g, t, gen, n, f"Adding new member {member(g)} with group instance id None; client reason: "
                                              f"rebalance failed due to MemberIdRequiredException", co)
            t += timedelta(seconds=rng.uniform(20, 40))
        t = T(3, 14, 2, 17000)
        while t < T(3, 41):
            m = member(g)
            K.append((t, "INFO", f"[GroupCoordinator 2]: Member {m} in group {g} has failed, removing it from the group", GC, []))
            gen, t2 = rebalance(g, t + ms(2), gen, n - 1, f"removing member {m} on heartbeat expiration", co)
            t3 = t2 + timedelta(seconds=rng.uniform(8, 30))
            m2 = member(g)
            K.append((t3, "INFO", f"[GroupCoordinator 2]: Dynamic member with unknown member id joins group {g} in Stable state. "
                                  f"Created a new member id {m2} and request the member to rejoin with this id.", GC, []))
            gen, t4 = rebalance(g, t3 + ms(3), gen, n, f"Adding new member {m2} with group instance id None; client reason: "
                                                        f"need to re-join with the given member-id: {m2}", co)
            t = t4 + timedelta(seconds=rng.uniform(40, 140))
        self.checkout_gen = gen
        # order-projector: one rebalance when a pod moved
        g, co = "order-projector", "__consumer_offsets-8"
        gen = 61
        t = T(1, 22, 41, 300000)
        gen, t = rebalance(g, t, gen, 3, f"Leaving group: consumer pro-actively leaving the group", co)
        gen, t = rebalance(g, t + timedelta(seconds=44), gen, 4, f"Adding new member {member(g)} with group instance id None; "
                                                                 f"client reason: rebalance failed due to MemberIdRequiredException", co)


FETCH_STACK = [
    "\tat org.apache.kafka.clients.NetworkClientUtils.sendAndReceive(NetworkClientUtils.java:99)",
    "\tat kafka.server.BrokerBlockingSender.sendRequest(BrokerBlockingSender.scala:113)",
    "\tat kafka.server.RemoteLeaderEndPoint.fetch(RemoteLeaderEndPoint.scala:79)",
    "\tat kafka.server.AbstractFetcherThread.processFetchRequest(AbstractFetcherThread.scala:316)",
    "\tat kafka.server.AbstractFetcherThread.$anonfun$maybeFetch$3(AbstractFetcherThread.scala:130)",
    "\tat kafka.server.AbstractFetcherThread.$anonfun$maybeFetch$3$adapted(AbstractFetcherThread.scala:129)",
    "\tat scala.Option.foreach(Option.scala:437)",
    "\tat kafka.server.AbstractFetcherThread.maybeFetch(AbstractFetcherThread.scala:129)",
    "\tat kafka.server.AbstractFetcherThread.doWork(AbstractFetcherThread.scala:112)",
    "\tat kafka.server.ReplicaFetcherThread.doWork(ReplicaFetcherThread.scala:98)",
    "\tat org.apache.kafka.server.util.ShutdownableThread.run(ShutdownableThread.java:136)",
]
RECV_STACK = [
    "\tat org.apache.kafka.common.network.NetworkReceive.readFrom(NetworkReceive.java:94)",
    "\tat org.apache.kafka.common.network.KafkaChannel.receive(KafkaChannel.java:462)",
    "\tat org.apache.kafka.common.network.KafkaChannel.read(KafkaChannel.java:412)",
    "\tat org.apache.kafka.common.network.Selector.attemptRead(Selector.java:680)",
    "\tat org.apache.kafka.common.network.Selector.pollSelectionKeys(Selector.java:582)",
    "\tat org.apache.kafka.common.network.Selector.poll(Selector.java:486)",
    "\tat kafka.network.Processor.poll(SocketServer.scala:1147)",
    "\tat kafka.network.Processor.run(SocketServer.scala:1050)",
    "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
]


def _b62(rng, n):
    return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(n))


def _uuid(rng):
    h = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


# ------------------------------------------------------------ rendering: haproxy

def _syslog(t):
    return f"{t:%b} {t.day:2d} {t:%H:%M:%S} {LB} haproxy[{HAPID}]: "


def haproxy_log(night, seed):
    rng = random.Random(seed + 1)
    L = []
    load = 60
    for r in night.reqs:
        emit = r["a"] + ms(r["Ta"]) + timedelta(microseconds=rng.randint(0, 900))
        r["emit"] = emit
        load = max(12, min(400, load + rng.randint(-3, 3)))
        fc = load - rng.randint(0, 3)
        if r["srv"] == "<NOSRV>":
            bc, sc = 0, 0
        else:
            bc = max(1, fc // 2 - rng.randint(0, 8))
            sc = max(1, bc // 3 + rng.randint(-2, 2))
            if r["srv"] == "basket-2" and GC_A <= r["a"] < CRASH:
                sc = min(64, sc + int(night._gc_factor(r["a"]) / 2))
        ua = r["ua"][:64]
        host = r["host"][:32]
        tr = f"{r['a']:%d/%b/%Y:%H:%M:%S}.{r['a'].microsecond // 1000:03d}"
        timers = f"{r['TR']}/{r['Tw']}/{r['Tc']}/{r['Tr']}/{r['Ta']}"
        rc = r.get("rc", "0")
        L.append((emit, f"{_syslog(emit)}{r['ip']}:{r['cport']} [{tr}] {r['fe']} {r['be']}/{r['srv']} {timers} {r['st']} "
                        f"{r['bytes']} - - {r['flags']} {load}/{fc}/{bc}/{sc}/{rc} 0/0 {{{host}|{ua}}} "
                        f"\"{r['method']} {r['uri']} HTTP/1.1\""))
    # health checks and server states
    H = []
    s2a, s2b = night.search2_down
    H.append((s2a - timedelta(seconds=8), "Health check for server be_search/search-2 failed, reason: Layer7 wrong status, "
                                          "code: 503, info: \"Service Unavailable\", check duration: 4ms, status: 2/3 UP."))
    H.append((s2a - timedelta(seconds=4), "Health check for server be_search/search-2 failed, reason: Layer7 wrong status, "
                                          "code: 503, info: \"Service Unavailable\", check duration: 3ms, status: 1/3 UP."))
    H.append((s2a, "Server be_search/search-2 is DOWN, reason: Layer7 wrong status, code: 503, info: \"Service Unavailable\", "
                   "check duration: 3ms. 1 active and 0 backup servers left. 2 sessions active, 0 requeued, 0 remaining in queue."))
    H.append((s2b - timedelta(seconds=4), "Health check for server be_search/search-2 succeeded, reason: Layer7 check passed, "
                                          "code: 200, check duration: 5ms, status: 1/2 DOWN."))
    H.append((s2b, "Server be_search/search-2 is UP, reason: Layer7 check passed, code: 200, check duration: 4ms. 2 active and "
                   "0 backup servers online. 0 sessions requeued, 0 total in queue."))
    H.append((T(2, 39, 48, 217000), "Health check for server be_api/basket-2 failed, reason: Layer7 timeout, check duration: "
                                    "2001ms, status: 2/3 UP."))
    H.append((T(2, 39, 53, 905000), "Health check for server be_api/basket-2 succeeded, reason: Layer7 check passed, code: 200, "
                                    "check duration: 1688ms, status: 3/3 UP."))
    H.append((DOWN - timedelta(seconds=8), "Health check for server be_api/basket-2 failed, reason: Layer4 connection problem, "
                                           "info: \"Connection refused\", check duration: 0ms, status: 2/3 UP."))
    H.append((DOWN - timedelta(seconds=4), "Health check for server be_api/basket-2 failed, reason: Layer4 connection problem, "
                                           "info: \"Connection refused\", check duration: 0ms, status: 1/3 UP."))
    H.append((DOWN, "Server be_api/basket-2 is DOWN, reason: Layer4 connection problem, info: \"Connection refused\", check "
                    "duration: 0ms. 2 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue."))
    H.append((UP - timedelta(seconds=4), "Health check for server be_api/basket-2 succeeded, reason: Layer7 check passed, code: "
                                         "200, check duration: 3ms, status: 1/2 DOWN."))
    H.append((UP, "Server be_api/basket-2 is UP, reason: Layer7 check passed, code: 200, check duration: 2ms. 3 active and 0 "
                  "backup servers online. 0 sessions requeued, 0 total in queue."))
    for t, text in H:
        L.append((t, _syslog(t) + text))
    L.sort(key=lambda x: x[0])
    return "\n".join(x[1] for x in L) + "\n"


# ------------------------------------------------------------ rendering: basketd (slog JSON)

def _slog_time(t, ns):
    frac = f"{t.microsecond * 1000 + ns:09d}".rstrip("0")
    return f"{t:%Y-%m-%dT%H:%M:%S}" + (f".{frac}" if frac else "") + "Z"


def _json_str(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "<":
            out.append("\\u003c")
        elif ch == ">":
            out.append("\\u003e")
        elif ch == "&":
            out.append("\\u0026")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _slog(t, ns, rec):
    parts = [f'"time":"{_slog_time(t, ns)}"']
    for k, v in rec.items():
        parts.append(f'"{k}":{_slog_val(v)}')
    return "{" + ",".join(parts) + "}"


def _slog_val(v):
    if isinstance(v, dict):
        return "{" + ",".join(f'"{k}":{_slog_val(x)}' for k, x in v.items()) + "}"
    if isinstance(v, str):
        return _json_str(v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def basketd_log(night, seed):
    rng = random.Random(seed + 2)
    L = []
    for r in night.reqs:
        if r["be"] != "be_api" or r["srv"] == "<NOSRV>" or r.get("crashed"):
            continue
        inst = r["srv"]
        rid = _hex(rng, 16)
        srv_at = r["a"] + ms(r["TR"] + r["Tw"] + r["Tc"])
        path = r["path"]
        if r.get("login_failed"):
            name = r["stuff"] if r.get("stuff") else r["uname"]
            L.append((srv_at + ms(r["dur"] * 0.9), rng.randint(0, 999), {
                "level": "WARN", "msg": "login failed", "instance": inst, "request_id": rid, "username": name,
                "remote_ip": r["ip"], "reason": r["login_failed"]}))
        if r.get("ner"):
            L.append((r["ner"] + ms(rng.randint(2, 6)), rng.randint(0, 999), {
                "level": "ERROR", "msg": "publish order event failed", "instance": inst, "request_id": rid,
                "order_id": f"ord_{rng.randint(10 ** 7, 10 ** 8 - 1)}", "user_id": r["user"],
                "kafka": {"topic": "orders", "partition": r["partition"]},
                "err": "NOT_ENOUGH_REPLICAS: Messages are rejected since there are fewer in-sync replicas than required."}))
        if r.get("timeout"):
            d_ns = (r["Ta"] - r["TR"] - r["Tw"] - r["Tc"]) * 1_000_000 + rng.randint(200_000, 3_000_000)
            rec = {"level": "WARN", "msg": "request canceled", "instance": inst, "request_id": rid, "method": r["method"],
                   "path": path, "duration": d_ns, "remote_ip": r["ip"], "err": "context canceled"}
            if r["user"]:
                rec["user_id"] = r["user"]
            L.append((srv_at + timedelta(microseconds=d_ns // 1000 + rng.randint(20, 400)), rng.randint(0, 999), rec))
            continue
        d_ns = int(round(r["dur"] * 1_000_000))
        rec = {"level": "INFO", "msg": "request completed", "instance": inst, "request_id": rid, "method": r["method"],
               "path": path, "status": r["st"], "duration": d_ns, "bytes": r["body"], "remote_ip": r["ip"]}
        if r["user"]:
            rec["user_id"] = r["user"]
        L.append((srv_at + timedelta(microseconds=d_ns // 1000 + rng.randint(20, 400)), rng.randint(0, 999), rec))
    for t, rec in night.bextra:
        L.append((t, rng.randint(0, 999), rec))
    L.sort(key=lambda x: (x[0], x[1]))
    return "\n".join(_slog(t, ns, rec) for t, ns, rec in L) + "\n"


# ------------------------------------------------------------ rendering: kafka server.log

def kafka_log(night, seed):
    E = sorted(night.kafka, key=lambda x: x[0])
    out = []
    for t, level, text, logger, cont in E:
        out.append(f"[{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}] {level} {text} ({logger})")
        out.extend(cont)
    return "\n".join(out) + "\n"


HAP, BASKETD, KAFKA = "haproxy.log", "basketd.log", "server.log"


def write_all(seed):
    night = Night(seed)
    return {HAP: haproxy_log(night, seed), BASKETD: basketd_log(night, seed), KAFKA: kafka_log(night, seed)}, night
