"""Writes the `queries-heldout17` fixtures: one night (Tuesday 2036-02-19, 00:00-04:00 UTC) at
Kestrel Bay Provisions, an online grocer. Three logs, written from one shared schedule of
requests so that the files agree with each other:

- `larder-web-heroku.log`: `heroku logs` output of the storefront app `larder-web` (Node, three
  `web` dynos and a `worker`): the Heroku router's `at=info|error ... key=value` lines, the
  dynos' system lines (`heroku[web.N]`: state changes, `Error R14`, log-runtime-metrics
  `sample#memory_total=...`), the platform's `app[api]` release lines and the app's own output;
- `kong-file-log.json`: Kong Gateway 3.x `file-log` plugin output, one JSON object per line
  (`request`, `upstream_uri`, `response`, `tries`, `latencies`, `route`, `service`, `consumer`,
  `client_ip`, `started_at` in epoch ms), in front of the API;
- `cartwright.log`: the Elixir/Phoenix API `cartwright` behind Kong, Elixir `Logger` console
  output (`$date $time $metadata[$level] $message`, metadata `request_id`), with Phoenix's
  `GET /path` + `Sent 200 in 12ms` pairs, Cowboy/Plug crash reports and `GenServer ...
  terminating` reports spanning several lines (stack traces, `Last message:`, `State:`).

Standard library only; everything comes from seeded `random.Random`s.
"""

import calendar
import json
import random
import uuid
from datetime import datetime, timedelta

DAY = datetime(2036, 2, 19)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def ms(x):
    return timedelta(milliseconds=x)


START, END = T(0, 0), T(4, 0)

HOST = "www.kestrelbay.example"
API = "api.kestrelbay.example"
CART_IP = ["10.60.2.14", "10.60.2.15"]
HEROKU_EGRESS = ["54.86.41.203", "3.215.88.17"]
MONITOR = ("34.201.77.18", "Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)")
SCRAPER = "185.244.31.96"
OFFICE_NAT = "81.2.69.160"

# --- the night's planted events
RELEASE = T(0, 47, 12, 488120)          # v318 released (deploy-bot)
DB_DROP = T(1, 31, 38, 204000)          # Postgrex connections to cartwright-db-1 drop (failover)
POOL_A = T(1, 31, 41, 0)                # first request dropped from the queue (crash report)
POOL_B = T(1, 44, 9, 0)                 # the last one
STUFF_A = T(2, 18, 3, 0)                # credential stuffing on POST /v1/session starts
STUFF_B = T(2, 36, 40, 0)
STUFF_PEAK = T(2, 27)                   # the loud bots' burst: the most 429s
QUIET_BURST = T(2, 31)                  # the quiet bots' burst: the most failed logins at cartwright
R14_A = T(3, 2, 0)                      # about when web.3 first exceeds its memory quota
H12_PEAK = T(3, 9)                      # minute with the most H12s
RESTART = T(3, 13, 55, 120411)          # web.3 restarted by the operator
UP_AGAIN = T(3, 14, 21, 906233)         # State changed from starting to up
GATEWAY_TIMEOUT = T(2, 52, 31, 0)       # the one 504: a /v1/orders/export that hit read_timeout

STATUS_LIKE = {200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 422, 429, 499, 500, 502, 503, 504}

AISLES = ["bakery", "dairy", "fruit-veg", "meat-fish", "frozen", "pantry", "drinks", "household", "baby", "pets",
          "world-foods", "free-from", "snacks", "health-beauty", "deli"]
SEARCH = ["oat milk", "sourdough", "eggs", "bananas", "coffee beans", "toilet roll", "avocado", "pasta", "cheddar",
          "tofu", "dog food", "nappies", "olive oil", "rice", "tomatoes", "yoghurt", "gin", "crisps"]
BROWSER_UAS = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 19_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.2 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Safari/605.1.15",
    "Mozilla/5.0 (Linux; Android 16; Pixel 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/151.0.0.0 Mobile Safari/537.36",
]
APP_UA = {"mobile-ios": "KestrelBay/7.14.2 (iPhone; iOS 19.2; Scale/3.00)",
          "mobile-android": "KestrelBay/7.14.1 (Android 16; Pixel 10) okhttp/4.12.0",
          "larder-web": "undici",
          "partner-feedhub": "FeedHub-Sync/3.2 (+https://feedhub.example/bots)"}
BOT_UA = "python-requests/2.32.3"
GENSERVERS = {"Cartwright.StockSync": 9, "Cartwright.SlotReservations": 3, "Cartwright.PriceCache": 2}


def epoch_ms(t):
    return calendar.timegm(t.timetuple()) * 1000 + t.microsecond // 1000


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _ips(rng, n, avoid=()):
    firsts = [2, 5, 31, 37, 46, 51, 62, 77, 78, 80, 81, 82, 86, 90, 92, 94, 109, 148, 151, 176, 178, 185, 188, 212, 213]
    out = set()
    while len(out) < n:
        ip = f"{rng.choice(firsts)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        if ip not in avoid:
            out.add(ip)
    return sorted(out)


def off_edge(total, step):
    """The smallest multiple of `step` to add to a byte total so that it reads the same rounded or
    truncated to one decimal in MB and in MiB."""
    k = 0
    while True:
        b = total + k * step
        if all(0.1 < (b / sc * 10) % 1 < 0.4 for sc in (1e6, 2 ** 20)):
            return k * step
        k += 1


def plateau(vals, p, width=0.04):
    """Flattens the ranks around the p-th percentile onto the value at that rank, so that every
    percentile definition gives the same figure. Returns the value."""
    order = sorted(range(len(vals)), key=lambda i: vals[i])
    n = len(vals)
    k = max(0, -(-p * n // 100) - 1)
    v = vals[order[k]]
    w = max(3, int(n * width))
    for j in range(max(0, k - w), min(n, k + w + 1)):
        vals[order[j]] = v
    return v


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.kong = []      # requests through Kong
        self.cw_extra = []  # cartwright lines not tied to a Kong request: (t, level, rid, msg)
        self.router = []    # heroku router requests
        self.hk_extra = []  # other heroku lines: (t, source, msg)
        self.browsers = _ips(self.rng, 900, {SCRAPER, OFFICE_NAT, MONITOR[0]})
        self.bweights = [self.rng.uniform(0.3, 1.7) for _ in self.browsers]
        self.bua = {ip: self.rng.choice(BROWSER_UAS) for ip in self.browsers}
        self.bots = _ips(self.rng, 14, set(self.browsers) | {SCRAPER, OFFICE_NAT})
        self.basket_ids = list(range(4_410_000, 4_414_000))
        self._kong_traffic()
        self._stuffing()
        self._tune_share()
        self._pool_outage()
        self._tune_kong()
        self._router_traffic()
        self._web3_memory()
        self._heroku_misc()
        self._cw_misc()

    # ------------------------------------------------------------ Kong + cartwright
    def _kreq(self, t, consumer, ip, method, uri, route, status, proxy, ua=None, **kw):
        rng = self.rng
        r = {"t": t, "consumer": consumer, "ip": ip, "method": method, "uri": uri, "route": route, "status": status,
             "proxy": proxy, "kong": rng.choice([0, 0, 1, 1, 1, 2, 3]), "ua": ua or APP_UA.get(consumer, BOT_UA),
             "id": uuid.UUID(int=rng.getrandbits(128), version=4).hex, "rid": self._rid(),
             "cart": rng.choice(CART_IP), "req_size": rng.randint(380, 760)}
        r.update(kw)
        self.kong.append(r)
        return r

    def _rid(self):
        a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        return "GG" + "".join(self.rng.choice(a) for _ in range(18))

    def in_pool(self, t):
        return DB_DROP <= t <= POOL_B

    def _kong_traffic(self):
        rng = self.rng
        cons = ["mobile-ios", "larder-web", "mobile-android", "partner-feedhub"]
        cw = [40, 27, 17, 5]
        ipof = {"mobile-ios": _ips(rng, 260, set(self.bots)), "mobile-android": _ips(rng, 150, set(self.bots)),
                "partner-feedhub": ["44.208.12.90"], "larder-web": HEROKU_EGRESS}
        self.app_ips = ipof
        for t in _poisson(rng, START, END, 3.5):
            c = rng.choices(cons, cw)[0]
            ip = rng.choice(ipof[c])
            x = rng.random()
            if c == "partner-feedhub" or x < 0.45:
                uri = rng.choice([f"/v1/catalog/aisles/{rng.choice(AISLES)}", f"/v1/catalog/products/{rng.randint(100000, 999999)}",
                                  f"/v1/catalog/search?q={rng.choice(SEARCH).replace(' ', '+')}"])
                lat = int(rng.lognormvariate(3.3, 0.5)) + 4
                st = 200 if rng.random() > 0.03 else 404
                self._kreq(t, c, ip, "GET", uri, "cartwright-catalog", st, lat)
            elif x < 0.78:
                b = rng.choice(self.basket_ids)
                m, uri, st = rng.choice([("GET", f"/v1/baskets/{b}", 200), ("POST", f"/v1/baskets/{b}/items", 201),
                                         ("DELETE", f"/v1/baskets/{b}/items/{rng.randint(100000, 999999)}", 204)])
                lat = int(rng.lognormvariate(3.6, 0.45)) + 6
                if self.in_pool(t) and rng.random() < 0.5:
                    self._kreq(t, c, ip, m, uri, "cartwright-baskets", 500, 0, crash=True, basket=b)
                else:
                    self._kreq(t, c, ip, m, uri, "cartwright-baskets", st, lat, basket=b)
            elif x < 0.86:
                b = rng.choice(self.basket_ids)
                uri = f"/v1/baskets/{b}/checkout"
                if self.in_pool(t):
                    self._kreq(t, c, ip, "POST", uri, "cartwright-baskets", 500, 0, crash=True, basket=b)
                else:
                    psp = rng.randint(180, 900)
                    st = 201 if rng.random() > 0.06 else 402
                    self._kreq(t, c, ip, "POST", uri, "cartwright-baskets", st, psp + rng.randint(40, 160), basket=b, psp=psp)
            elif x < 0.95:
                uri = f"/v1/orders?page={rng.randint(1, 4)}"
                self._kreq(t, c, ip, "GET", uri, "cartwright-orders", 200, int(rng.lognormvariate(3.9, 0.4)) + 10)
            else:
                uri = "/v1/session"
                st = 201 if rng.random() > 0.12 else 401
                self._kreq(t, c, ip, "POST", uri, "cartwright-session", st, rng.randint(90, 180), login=True)
        # the one request that hit the service's read_timeout
        self._kreq(GATEWAY_TIMEOUT, "partner-feedhub", "44.208.12.90", "GET", "/v1/orders/export?since=2036-01-01",
                   "cartwright-orders", 504, 15001, timeout=True)

    def _stuffing(self):
        """A botnet replays leaked credentials against POST /v1/session with the Android app's key;
        the rate-limiting plugin (10/minute per IP) answers 429 to the loud ones."""
        rng = self.rng
        rates = [18, 13.5, 11] + [rng.uniform(1, 3) for _ in self.bots[3:]]
        self.heavy = self.bots[:3]
        for ip, rate in zip(self.bots, rates):
            times = _poisson(rng, STUFF_A, STUFF_B, rate)
            if ip in self.heavy:
                times += [STUFF_PEAK + timedelta(seconds=rng.uniform(0, 59.9)) for _ in range(int(rate * 1.5))]
            else:   # the quiet ones stay under the limit, but all fire together in one minute
                times += [QUIET_BURST + timedelta(seconds=rng.uniform(0, 59.9)) for _ in range(8)]
            times.sort()
            per_min = {}
            for t in times:
                if ip == self.bots[0] and t == times[0]:
                    t = STUFF_A
                k = (t.hour, t.minute)
                per_min[k] = per_min.get(k, 0) + 1
                if per_min[k] > 10:
                    self._kreq(t, "mobile-android", ip, "POST", "/v1/session", "cartwright-session", 429, -1, ua=BOT_UA,
                               limited=True, remaining=0, reset=60 - t.second)
                else:
                    self._kreq(t, "mobile-android", ip, "POST", "/v1/session", "cartwright-session", 401,
                               rng.randint(95, 170), ua=BOT_UA, login=True, bot=True)

    def _tune_share(self):
        """Adds ordinary app logins until the 429 share of POST /v1/session reads the same rounded or
        truncated to one decimal."""
        rng = self.rng
        while True:
            ses = [r for r in self.kong if r["uri"] == "/v1/session"]
            p = 100 * sum(1 for r in ses if r["status"] == 429) / len(ses)
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                return
            c = rng.choice(["mobile-ios", "mobile-android"])
            t = START + timedelta(seconds=rng.uniform(0, 4 * 3600 - 1))
            self._kreq(t, c, rng.choice(self.app_ips[c]), "POST", "/v1/session", "cartwright-session", 201,
                       rng.randint(90, 180), login=True)

    def _pool_outage(self):
        rng = self.rng
        # the storefront's checkout confirmations keep coming while the pool is gone
        for t in _poisson(rng, DB_DROP + timedelta(seconds=2), POOL_B - timedelta(seconds=6), 6.0):
            b = rng.choice(self.basket_ids)
            self._kreq(t, "larder-web", rng.choice(HEROKU_EGRESS), "POST", f"/v1/baskets/{b}/checkout",
                       "cartwright-baskets", 500, 0, crash=True, basket=b)
        crashes = sorted((r for r in self.kong if r.get("crash")), key=lambda r: r["t"])
        crashes[0]["t"] = POOL_A - ms(rng.randint(2100, 2900))
        crashes[-1]["t"] = POOL_B - ms(rng.randint(2100, 2900))
        for r in crashes:
            if r["t"] < DB_DROP + timedelta(seconds=1):
                r["t"] = DB_DROP + timedelta(seconds=1, milliseconds=rng.randint(0, 900))
            r["queue"] = rng.randint(2100, 2999)
            r["proxy"] = r["queue"] + rng.randint(3, 9)
        crashes[0]["t"] = POOL_A - ms(crashes[0]["proxy"])
        crashes[-1]["t"] = POOL_B - ms(crashes[-1]["proxy"])
        crashes[-1]["queue"] = 2999
        crashes[-1]["proxy"] = 2999 + 6
        crashes[-1]["t"] = POOL_B - ms(crashes[-1]["proxy"])
        big = crashes[len(crashes) // 2]
        big["queue"], big["proxy"] = 4817, 4823    # the longest wait in the queue
        self.max_queue = 4817

    def _tune_kong(self):
        # the p99 of latencies.proxy on routes that reached cartwright sits on a plateau
        up = [r for r in self.kong if r["proxy"] >= 0]
        vals = [r["proxy"] for r in up]
        self.proxy_p99 = plateau(vals, 99, 0.006)
        for r, v in zip(up, vals):
            r["proxy"] = v
        for r in self.kong:
            if r.get("crash") and r["queue"] != self.max_queue:
                r["queue"] = r["proxy"] - 6
        # the mean psp_ms of the authorized payments is a whole number
        paid = [r for r in self.kong if r.get("psp") and r["status"] == 201]
        s = sum(r["psp"] for r in paid)
        paid[0]["psp"] -= s % len(paid)
        if (s - s % len(paid)) // len(paid) % 10 == 0:
            paid[0]["psp"] += len(paid)
        self.psp_mean = sum(r["psp"] for r in paid) // len(paid)
        for r in self.kong:
            r["cw"] = r["proxy"] - 1 if r["proxy"] >= 2 else r["proxy"]

    # ------------------------------------------------------------ Heroku router
    def _hreq(self, t, ip, method, path, status, service, dyno, bytes_, ua=None, **kw):
        rng = self.rng
        r = {"t": t, "ip": ip, "method": method, "path": path, "status": status, "service": service, "dyno": dyno,
             "bytes": bytes_, "connect": rng.choice([0, 0, 0, 1, 1, 2]), "id": str(uuid.UUID(int=rng.getrandbits(128), version=4))}
        r.update(kw)
        self.router.append(r)
        return r

    def web3_bad(self, t):
        return R14_A <= t <= RESTART

    def _router_traffic(self):
        rng = self.rng
        for t in _poisson(rng, START, END, 16.0):
            ip = rng.choices(self.browsers, self.bweights)[0]
            self._page(t, ip)
        for t in _poisson(rng, START, END, 1.0):
            self._page(t, OFFICE_NAT)
        for t in _poisson(rng, T(0, 35), T(2, 50), 5.5):
            self._hreq(t, SCRAPER, "GET", f"/product/{rng.randint(100000, 999999)}", 200,
                       int(rng.lognormvariate(4.2, 0.4)), self._dyno(t), rng.randint(41000, 64000))
        t = START + timedelta(seconds=7, microseconds=rng.randint(0, 999999))
        while t < END:
            for path in ("/", "/healthz"):
                self._hreq(t + ms(rng.randint(0, 900)), MONITOR[0], "GET" if path == "/" else "HEAD", path, 200,
                           rng.randint(3, 9) if path == "/healthz" else int(rng.lognormvariate(4.0, 0.3)),
                           self._dyno(t), 0 if path == "/healthz" else rng.randint(52000, 56000))
            t += timedelta(seconds=60, microseconds=rng.randint(-2000, 2000))
        # checkout confirmations that failed while cartwright's pool was gone: the app answers 502
        for r in self.kong:
            if r.get("crash") and r["consumer"] == "larder-web" and "/checkout" in r["uri"]:
                self._hreq(r["t"] - ms(rng.randint(40, 90)), rng.choices(self.browsers, self.bweights)[0], "POST",
                           "/checkout/confirm", 502, r["proxy"] + rng.randint(60, 140), self._dyno(r["t"]), 2143,
                           upstream=r)
        # the total of `bytes` reads cleanly in MB and MiB
        tot = sum(r["bytes"] for r in self.router)
        pages = [r for r in self.router if r["path"].startswith("/aisle/") and r["status"] == 200]
        d = off_edge(tot, 4999)
        assert d // 4999 < len(pages) // 2, d
        for i in range(d // 4999):
            pages[i]["bytes"] += 4999
        # the service-time p95 of at=info lines, and the mean of POST /checkout/confirm, are planted
        info = [r for r in self.router if r["status"] != 503]
        vals = [r["service"] for r in info]
        self.service_p95 = plateau(vals, 95, 0.02)
        for r, v in zip(info, vals):
            r["service"] = v
        # the mean service of the POST /checkout/confirm that went through is off the .5 edge
        conf = sorted((r for r in self.router if r["path"] == "/checkout/confirm" and r["status"] == 303),
                      key=lambda r: r["service"])
        assert conf[-1]["service"] > self.service_p95 * 1.2
        while not 0.15 < (sum(r["service"] for r in conf) / len(conf)) % 1 < 0.4:
            conf[-1]["service"] += 1

    def _dyno(self, t):
        if RESTART <= t <= UP_AGAIN:
            return self.rng.choice(["web.1", "web.2"])
        return self.rng.choices(["web.1", "web.2", "web.3"], [1, 1, 1])[0]

    def _page(self, t, ip):
        rng = self.rng
        x = rng.random()
        dyno = self._dyno(t)
        if x < 0.16:
            m, p, st, b, s = "GET", "/", 200, rng.randint(52000, 56000), int(rng.lognormvariate(4.0, 0.35))
        elif x < 0.40:
            m, p, st, b, s = "GET", f"/aisle/{rng.choice(AISLES)}", 200, rng.randint(70000, 140000), int(rng.lognormvariate(4.6, 0.4))
        elif x < 0.62:
            m, p, st, b, s = "GET", f"/product/{rng.randint(100000, 999999)}", 200, rng.randint(41000, 64000), int(rng.lognormvariate(4.2, 0.4))
        elif x < 0.72:
            q = rng.choice(SEARCH).replace(" ", "+")
            m, p, st, b, s = "GET", f"/search?q={q}", 200, rng.randint(60000, 120000), int(rng.lognormvariate(4.8, 0.4))
        elif x < 0.82:
            m, p, st, b, s = "GET", "/api/basket-count", 200, rng.randint(28, 34), rng.randint(6, 40)
        elif x < 0.88:
            m, p, st, b, s = "GET", "/basket", 200, rng.randint(30000, 48000), int(rng.lognormvariate(4.4, 0.4))
        elif x < 0.92:
            m, p, st, b, s = "GET", "/checkout", 200, rng.randint(30000, 40000), int(rng.lognormvariate(4.5, 0.4))
        elif x < 0.945:
            m, p, st, b, s = "POST", "/checkout/confirm", 303, 0, int(rng.lognormvariate(6.3, 0.3))
        elif x < 0.965:
            m, p, st, b, s = "GET", f"/aisles/{rng.choice(AISLES)}", 301, 0, rng.randint(1, 4)
        elif x < 0.985:
            m, p, st, b, s = "GET", rng.choice(["/wp-login.php", "/favicon.png", "/product/0", "/offers/summer-2035"]), 404, 9481, rng.randint(8, 30)
        else:
            m, p, st, b, s = "GET", f"/aisle/{rng.choice(AISLES)}", 499, 0, rng.randint(800, 9000)
        if dyno == "web.3" and self.web3_bad(t) and st in (200, 303) and rng.random() < 0.55:
            return self._hreq(t, ip, m, p, 503, 30000, dyno, 0, h12=True)
        return self._hreq(t, ip, m, p, st, s, dyno, b, h27=(st == 499))

    def _web3_memory(self):
        rng = self.rng
        # a burst of H12s in 03:09, when web.3 swaps hardest
        for _ in range(31):
            t = H12_PEAK + timedelta(seconds=rng.uniform(0, 59.5)) - timedelta(seconds=30)
            ip = rng.choices(self.browsers, self.bweights)[0]
            self._hreq(t, ip, "GET", rng.choice(["/", f"/aisle/{rng.choice(AISLES)}", "/basket"]), 503, 30000, "web.3", 0,
                       h12=True)
        # two stray H12s on healthy dynos earlier in the night
        for t, d in ((T(0, 21, 40, 120000), "web.1"), (T(2, 2, 5, 880000), "web.2")):
            self._hreq(t, rng.choice(self.browsers), "GET", "/search?q=gluten+free+bread", 503, 30000, d, 0, h12=True)
        # H13 for the requests still in flight on web.3 when its processes were killed
        for i in range(3):
            self._hreq(RESTART + ms(12230 + 3 * i) - ms(8200 + i * 400), rng.choice(self.browsers), "GET", "/basket", 503,
                       8200 + i * 400, "web.3", 0, h13=True)

    def _heroku_misc(self):
        rng = self.rng
        X = self.hk_extra
        X.append((RELEASE - timedelta(seconds=2, microseconds=130000), "app[api]",
                  "Deploy 9c1e4b7 by user deploy-bot@kestrelbay.example"))
        X.append((RELEASE, "app[api]", "Release v318 created by user deploy-bot@kestrelbay.example"))
        for i, d in enumerate(["web.1", "web.2", "web.3", "worker.1"]):
            a = RELEASE + timedelta(seconds=6 + 4 * i, microseconds=rng.randint(0, 999999))
            X += [(a, f"heroku[{d}]", "Restarting"),
                  (a + ms(11), f"heroku[{d}]", "State changed from up to starting"),
                  (a + ms(1200), f"heroku[{d}]", "Stopping all processes with SIGTERM"),
                  (a + ms(1420), f"heroku[{d}]", "Process exited with status 143"),
                  (a + ms(2700), f"heroku[{d}]", "Starting process with command `" + ("npm run worker" if d == "worker.1" else "npm start") + "`"),
                  (a + ms(6300 + rng.randint(0, 900)), f"heroku[{d}]", "State changed from starting to up")]
        # log-runtime-metrics, every 20 s per web dyno
        self.mem = {}
        peak_done = False
        for d in ["web.1", "web.2", "web.3"]:
            dyno_id = f"heroku.51829034.{uuid.UUID(int=rng.getrandbits(128), version=4)}"
            t = START + timedelta(seconds=rng.uniform(0, 19))
            base = rng.uniform(380, 470)
            while t < END:
                if d == "web.3" and T(2, 30) <= t < RESTART:
                    climb = (t - T(2, 30)).total_seconds() / 60
                    used = min(base + climb * 19.5, 1150) + rng.uniform(-4, 4)
                elif d == "web.3" and RESTART <= t < UP_AGAIN:
                    t += timedelta(seconds=20)   # no samples while the dyno is down
                    continue
                elif d == "web.3" and t >= UP_AGAIN:
                    used = base + rng.uniform(-20, 20) - 60
                else:
                    used = base + rng.uniform(-25, 25)
                if d == "web.3" and not peak_done and t >= T(3, 11, 2):
                    used, peak_done = 1268.47, True
                used = round(used, 2)
                rss = round(min(used, 1024.0) - rng.uniform(5, 30), 2)
                swap = round(used - 1024.0 + rng.uniform(0, 1), 2) if used > 1024 else 0.0
                cache = round(used - rss - swap, 2)
                X.append((t, f"heroku[{d}]",
                          f"source={d} dyno={dyno_id} sample#memory_total={used:.2f}MB sample#memory_rss={rss:.2f}MB "
                          f"sample#memory_cache={cache:.2f}MB sample#memory_swap={swap:.2f}MB "
                          f"sample#memory_pgpgin={rng.randint(200000, 900000)}pages sample#memory_pgpgout={rng.randint(150000, 800000)}pages "
                          f"sample#memory_quota=1024.00MB"))
                self.mem.setdefault(d, []).append(used)
                if used > 1024:
                    X.append((t + ms(6), f"heroku[{d}]", f"Process running mem={int(used)}M({used / 1024 * 100:.1f}%)"))
                    X.append((t + ms(7), f"heroku[{d}]", "Error R14 (Memory quota exceeded)"))
                t += timedelta(seconds=20, microseconds=rng.randint(-3000, 3000))
        # the operator restarts web.3
        a = RESTART
        X += [(a - timedelta(seconds=1, microseconds=304000), "app[api]", "Restart web.3 by user dana.whitlock@kestrelbay.example"),
              (a, "heroku[web.3]", "Restarting"),
              (a + ms(14), "heroku[web.3]", "State changed from up to starting"),
              (a + ms(1800), "heroku[web.3]", "Stopping all processes with SIGTERM"),
              (a + ms(11900), "heroku[web.3]", "Error R12 (Exit timeout) -> At least one process failed to exit within 30 seconds of SIGTERM"),
              (a + ms(12000), "heroku[web.3]", "Stopping remaining processes with SIGKILL"),
              (a + ms(12230), "heroku[web.3]", "Process exited with status 137"),
              (a + ms(14800), "heroku[web.3]", "Starting process with command `npm start`"),
              (UP_AGAIN, "heroku[web.3]", "State changed from starting to up")]
        # the worker's own output and the scheduler
        for t in _poisson(rng, START, END, 0.5):
            X.append((t, "app[worker.1]", f"[larder-worker] job=email.order-confirmation status=sent ms={rng.randint(90, 700)}"))
        for h in range(4):
            a = T(h, 10, rng.randint(0, 9), rng.randint(0, 999999))
            sid = rng.randint(1000, 9999)
            X += [(a, f"heroku[scheduler.{sid}]", "Starting process with command `npm run sitemap`"),
                  (a + ms(900), f"heroku[scheduler.{sid}]", "State changed from starting to up"),
                  (a + ms(1100), f"app[scheduler.{sid}]", f"[sitemap] wrote {rng.randint(18000, 19000)} urls to s3://kestrelbay-sitemaps/sitemap.xml.gz"),
                  (a + ms(9000 + rng.randint(0, 4000)), f"heroku[scheduler.{sid}]", "Process exited with status 0"),
                  (a + ms(9100 + rng.randint(4000, 5000)), f"heroku[scheduler.{sid}]", "State changed from up to complete")]

    # ------------------------------------------------------------ cartwright's own lines
    def _cw_misc(self):
        rng = self.rng
        X = self.cw_extra
        # stock sync every minute; it crashes on a supplier timeout now and then
        crash_at = {}
        slots = [T(h, m) for h in range(4) for m in range(60)]
        picks = rng.sample(slots[5:-5], sum(GENSERVERS.values()))
        i = 0
        for name, k in GENSERVERS.items():
            for _ in range(k):
                crash_at[picks[i]] = name
                i += 1
        for s in slots:
            t = s + timedelta(seconds=2, microseconds=rng.randint(0, 999999))
            if crash_at.get(s) == "Cartwright.StockSync":
                X.append((t + ms(5003), "error", None,
                          "GenServer Cartwright.StockSync terminating\n"
                          "** (MatchError) no match of right hand side value: {:error, %Req.TransportError{reason: :timeout}}\n"
                          "    (cartwright 0.9.4) lib/cartwright/stock_sync.ex:57: Cartwright.StockSync.handle_info/2\n"
                          "    (stdlib 5.2.3) gen_server.erl:1095: :gen_server.try_handle_info/3\n"
                          "    (stdlib 5.2.3) gen_server.erl:1183: :gen_server.handle_msg/6\n"
                          "    (stdlib 5.2.3) proc_lib.erl:241: :proc_lib.init_p_do_apply/3\n"
                          "Last message: :sync\n"
                          f"State: %{{interval: 60000, supplier: \"brakes-uk\", last_ok: ~U[{(s - timedelta(minutes=1)).strftime('%Y-%m-%d %H:%M:%S')}Z]}}"))
            else:
                n = rng.randint(1700, 1900)
                X.append((t + ms(rng.randint(400, 1300)), "info", None,
                          f"stock sync done supplier=brakes-uk skus={n} changed={rng.randint(0, 40)}"))
            if crash_at.get(s) == "Cartwright.SlotReservations":
                p1, p2 = rng.randint(4000, 9000), rng.randint(4000, 9000)
                X.append((t + ms(300), "error", None,
                          "GenServer Cartwright.SlotReservations terminating\n"
                          "** (KeyError) key :van_id not found in: %{slot: ~T[18:00:00], zone: \"LS6\"}\n"
                          "    (cartwright 0.9.4) lib/cartwright/slot_reservations.ex:112: Cartwright.SlotReservations.handle_call/3\n"
                          "    (stdlib 5.2.3) gen_server.erl:1131: :gen_server.try_handle_call/4\n"
                          "    (stdlib 5.2.3) gen_server.erl:1160: :gen_server.handle_msg/6\n"
                          "    (stdlib 5.2.3) proc_lib.erl:241: :proc_lib.init_p_do_apply/3\n"
                          f"Last message (from #PID<0.{p1}.0>): {{:reserve, \"LS6\", ~D[2036-02-20]}}\n"
                          "State: %{zone: \"LS6\", held: 14}\n"
                          f"Client #PID<0.{p2}.0> is alive\n"
                          "    (stdlib 5.2.3) gen.erl:240: :gen.do_call/4\n"
                          "    (elixir 1.17.3) lib/gen_server.ex:1125: GenServer.call/3"))
            if crash_at.get(s) == "Cartwright.PriceCache":
                X.append((t + ms(800), "error", None,
                          "GenServer Cartwright.PriceCache terminating\n"
                          "** (ArgumentError) errors were found at the given arguments:\n\n"
                          "  * 1st argument: the table identifier does not refer to an existing ETS table\n\n"
                          "    (stdlib 5.2.3) :ets.lookup(:price_cache, 104233)\n"
                          "    (cartwright 0.9.4) lib/cartwright/price_cache.ex:41: Cartwright.PriceCache.handle_info/2\n"
                          "    (stdlib 5.2.3) gen_server.erl:1095: :gen_server.try_handle_info/3\n"
                          "    (stdlib 5.2.3) gen_server.erl:1183: :gen_server.handle_msg/6\n"
                          "Last message: :refresh\n"
                          "State: %{refreshed_at: nil}"))
        # the database failover: every pooled connection drops, then reconnects
        for i in range(10):
            X.append((DB_DROP + ms(i * 7 + rng.randint(0, 5)), "error", None,
                      f"Postgrex.Protocol (#PID<0.{2610 + i * 3}.0>) disconnected: ** (DBConnection.ConnectionError) "
                      "tcp recv (idle): closed"))
        for i in range(10):
            X.append((POOL_B + timedelta(seconds=4, milliseconds=200 + i * 37), "error", None,
                      f"Postgrex.Protocol (#PID<0.{2610 + i * 3}.0>) failed to connect: ** (DBConnection.ConnectionError) "
                      "tcp connect (cartwright-db.internal:5432): connection refused - :econnrefused"))
        X.append((POOL_B + timedelta(seconds=9, milliseconds=611), "info", None,
                  "Repo Cartwright.Repo pool reconnected host=cartwright-db-2.internal size=10"))
        X.append((DB_DROP + ms(2), "warning", None,
                  "Cartwright.Repo: primary cartwright-db-1.internal unreachable, waiting for failover"))
        # internal pickers' app traffic (not through Kong): one line pair per request, own ids
        for t in _poisson(rng, START, END, 3.0):
            if self.in_pool(t):
                continue
            X.append((t, "internal", self._rid(), (rng.choice([f"/internal/picklists/{rng.randint(2000, 2999)}",
                                                               "/internal/vans/status"]), rng.randint(8, 50))))
        X.append((T(0, 0, 0, 412000), "info", None, "Running CartwrightWeb.Endpoint with Bandit 1.5.7 at :::4000 (http)"))
        X.append((T(0, 0, 0, 431000), "info", None, "Access CartwrightWeb.Endpoint at https://api.kestrelbay.example"))


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


# ------------------------------------------------------------ rendering: heroku logs

def _hts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"


DESC = {"h12": ("H12", "Request timeout"), "h13": ("H13", "Connection closed without response")}


def heroku_log(night, seed):
    rng = random.Random(seed + 1)
    L = []
    for r in night.router:
        end = r["t"] + ms(r["connect"] + r["service"])
        q = f'method={r["method"]} path="{r["path"]}" host={HOST} request_id={r["id"]} fwd="{r["ip"]}" dyno={r["dyno"]} ' \
            f'connect={r["connect"]}ms service={r["service"]}ms status={r["status"]} bytes={r["bytes"]} protocol=https'
        if r.get("h12") or r.get("h13"):
            code, desc = DESC["h12" if r.get("h12") else "h13"]
            L.append((end, "heroku[router]", f'at=error code={code} desc="{desc}" {q}'))
        elif r.get("h27"):
            L.append((end, "heroku[router]", f'at=info code=H27 desc="Client Request Interrupted" {q}'))
        else:
            L.append((end, "heroku[router]", f"at=info {q}"))
        if r.get("upstream"):
            u = r["upstream"]
            L.append((end - ms(2), f"app[{r['dyno']}]",
                      f"[larder-web] checkout failed basket={u['basket']} upstream=https://{API}{u['uri']} status=500 "
                      f"request_id={r['id']}"))
    for t, src, msg in night.hk_extra:
        L.append((t, src, msg))
    L.sort(key=lambda x: x[0])
    return "".join(f"{_hts(t)} {src}: {msg}\n" for t, src, msg in L)


# ------------------------------------------------------------ rendering: Kong file-log

ROUTES = {
    "cartwright-catalog": ("/v1/catalog", ["GET"]),
    "cartwright-baskets": ("/v1/baskets", ["GET", "POST", "DELETE"]),
    "cartwright-orders": ("/v1/orders", ["GET"]),
    "cartwright-session": ("/v1/session", ["POST"]),
}
WS = "4f2c8b1e-9d3a-4e6f-a1b7-0c5d2e8f9a31"
SERVICE = {"id": "b7e41c20-5a9f-4d38-8e26-91f0c3a7d5e4", "name": "cartwright", "host": "cartwright.internal", "port": 4000,
           "protocol": "http", "path": "/api", "retries": 5, "connect_timeout": 60000, "write_timeout": 60000,
           "read_timeout": 15000, "enabled": True, "created_at": 2066889112, "updated_at": 2085012877, "ws_id": WS}
CONSUMER_ID = {c: str(uuid.UUID(int=random.Random(c).getrandbits(128), version=4)) for c in APP_UA}
ROUTE_ID = {k: str(uuid.UUID(int=random.Random(k).getrandbits(128), version=4)) for k in ROUTES}
REASON = {500: "Internal Server Error", 504: "Gateway Timeout"}


def kong_log(night, seed):
    rng = random.Random(seed + 2)
    out = []
    for r in sorted(night.kong, key=lambda r: r["t"]):
        started = epoch_ms(r["t"])
        status = r["status"]
        body = {200: rng.randint(900, 14000), 201: rng.randint(300, 2400), 204: 0, 401: 62, 402: 118, 404: 56, 429: 41,
                500: 0, 504: 51}[status]
        if r.get("crash"):
            body = 12
        upstream = r["proxy"] >= 0
        hdr = {"content-type": "application/json; charset=utf-8", "content-length": str(body), "connection": "keep-alive"}
        if upstream and status != 504:
            hdr.update({"x-request-id": r["rid"], "cache-control": "max-age=0, private, must-revalidate",
                        "x-kong-upstream-latency": str(r["proxy"]), "x-kong-proxy-latency": str(r["kong"])})
        if r["route"] == "cartwright-session":
            hdr.update({"x-ratelimit-limit-minute": "10", "ratelimit-limit": "10",
                        "x-ratelimit-remaining-minute": str(r.get("remaining", rng.randint(0, 9))),
                        "ratelimit-remaining": str(r.get("remaining", rng.randint(0, 9))),
                        "ratelimit-reset": str(r.get("reset", 60 - r["t"].second))})
            if r.get("limited"):
                hdr["retry-after"] = str(r["reset"])
        hdr["via"] = "1.1 kong/3.7.1"
        if status == 504:
            hdr["server"] = "kong/3.7.1"
        req_hdr = {"host": API, "user-agent": r["ua"], "accept": "application/json", "x-forwarded-proto": "https",
                   "apikey": "REDACTED"}
        if r["method"] == "POST":
            req_hdr["content-type"] = "application/json"
            req_hdr["content-length"] = str(rng.randint(40, 400))
        path, methods = ROUTES[r["route"]]
        rec = {"request": {"id": r["id"], "method": r["method"], "uri": r["uri"], "url": f"https://{API}:443{r['uri']}",
                           "size": r["req_size"], "querystring": _qs(r["uri"]), "headers": req_hdr,
                           "tls": {"version": "TLSv1.3", "cipher": "TLS_AES_256_GCM_SHA384", "client_verify": "NONE"}}}
        if upstream:
            rec["upstream_uri"] = "/api" + r["uri"]
            rec["upstream_status"] = str(status)
        rec["response"] = {"status": status, "size": body + 260 + sum(len(k) + len(v) + 4 for k, v in hdr.items()),
                           "headers": hdr}
        if upstream:
            bs = started + r["kong"]
            rec["tries"] = [{"balancer_start": bs, "balancer_start_ns": bs * 1_000_000 + rng.randint(0, 999_999),
                             "ip": r["cart"], "port": 4000, "balancer_latency": 0,
                             "balancer_latency_ns": rng.randint(3000, 40000)}]
        rec["latencies"] = {"kong": r["kong"], "proxy": r["proxy"], "request": r["kong"] + max(r["proxy"], 0) + rng.choice([0, 0, 1]),
                            "receive": 0}
        rec["route"] = {"id": ROUTE_ID[r["route"]], "name": r["route"], "paths": [path], "methods": methods,
                        "protocols": ["https"], "strip_path": False, "preserve_host": False, "regex_priority": 0,
                        "https_redirect_status_code": 426, "request_buffering": True, "response_buffering": True,
                        "path_handling": "v0", "service": {"id": SERVICE["id"]}, "created_at": 2066889140,
                        "updated_at": 2085012877, "ws_id": WS}
        rec["service"] = SERVICE
        rec["consumer"] = {"id": CONSUMER_ID[r["consumer"]], "username": r["consumer"], "custom_id": None,
                           "created_at": 2066890011, "ws_id": WS}
        rec["client_ip"] = r["ip"]
        rec["started_at"] = started
        rec["workspace"] = WS
        rec["workspace_name"] = "default"
        out.append(rec)
    # the mean latencies.request of the baskets route is off the .5 edge (nudging its slowest request)
    cat = sorted((x for x in out if x["route"]["name"] == "cartwright-baskets"), key=lambda x: x["latencies"]["request"])
    while not 0.15 < (sum(x["latencies"]["request"] for x in cat) / len(cat)) % 1 < 0.4:
        cat[-1]["latencies"]["request"] += 1
    # the total of response.size reads cleanly in MB and MiB
    d = off_edge(sum(x["response"]["size"] for x in out), 613)
    big = [x for x in out if x["response"]["status"] == 200]
    for i in range(d // 613):
        big[i]["response"]["size"] += 613
    return "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in out)


def _qs(uri):
    if "?" not in uri:
        return {}
    q = {}
    for kv in uri.split("?", 1)[1].split("&"):
        k, v = kv.split("=", 1)
        q[k] = v
    return q


# ------------------------------------------------------------ rendering: cartwright (Elixir Logger)

POOL_MSG = ("connection not available and request was dropped from queue after {q}ms. This means requests are "
            "coming in and your connection pool cannot serve them fast enough. You can address this by:\n\n"
            "  1. Ensuring your database is available and that you can connect to it\n"
            "  2. Tracking down slow queries and making sure they are running fast enough\n"
            "  3. Increasing the pool_size (although this increases resource consumption)\n"
            "  4. Allowing requests to wait longer by increasing :queue_target and :queue_interval\n\n"
            "See DBConnection.start_link/2 for more information\n")


def _crash(r, rng):
    up = "/api" + r["uri"]
    fn = "checkout/2" if up.endswith("/checkout") else {"GET": "get_basket!/1", "POST": "add_item/3",
                                                          "DELETE": "remove_item/2"}[r["method"]]
    ctl = ("CheckoutController.create/2", "checkout_controller.ex", 21) if up.endswith("/checkout") else \
        ({"GET": "BasketController.show/2", "POST": "BasketItemController.create/2",
          "DELETE": "BasketItemController.delete/2"}[r["method"]], "basket_controller.ex", 14)
    msg = POOL_MSG.format(q=r["queue"]).replace("\n", "\n        ").replace("\n        \n", "\n\n").rstrip()
    return (f"** (DBConnection.ConnectionError) {msg}\n"
            "        (ecto_sql 3.12.1) lib/ecto/adapters/sql.ex:1096: Ecto.Adapters.SQL.raise_sql_call_error/1\n"
            "        (ecto_sql 3.12.1) lib/ecto/adapters/sql.ex:994: Ecto.Adapters.SQL.execute/6\n"
            "        (ecto 3.12.4) lib/ecto/repo/queryable.ex:232: Ecto.Repo.Queryable.execute/4\n"
            "        (ecto 3.12.4) lib/ecto/repo/queryable.ex:19: Ecto.Repo.Queryable.all/3\n"
            f"        (cartwright 0.9.4) lib/cartwright/baskets.ex:{rng.choice([61, 88, 140])}: Cartwright.Baskets.{fn}\n"
            f"        (cartwright 0.9.4) lib/cartwright_web/controllers/{ctl[1]}:{ctl[2]}: CartwrightWeb.{ctl[0]}\n"
            f"        (cartwright 0.9.4) lib/cartwright_web/controllers/{ctl[1]}:1: CartwrightWeb.{ctl[0].split('.')[0]}.action/2\n"
            f"        (cartwright 0.9.4) lib/cartwright_web/controllers/{ctl[1]}:1: CartwrightWeb.{ctl[0].split('.')[0]}.phoenix_controller_pipeline/2")


def cartwright_log(night, seed):
    rng = random.Random(seed + 3)
    L = []   # (t, level, request_id or None, message)
    for r in night.kong:
        if r["proxy"] < 0:
            continue
        a = r["t"] + ms(r["kong"]) + timedelta(microseconds=rng.randint(100, 900))
        up = "/api" + r["uri"].split("?")[0]
        L.append((a, "info", r["rid"], f"{r['method']} {up}"))
        if r.get("crash"):
            done = a + ms(r["queue"] + 2)
            L.append((done, "error", r["rid"],
                      f"#PID<0.{rng.randint(20000, 90000)}.0> running CartwrightWeb.Endpoint (connection "
                      f"#PID<0.{rng.randint(20000, 90000)}.0>, stream id {rng.randint(1, 9)}) terminated\n"
                      f"Server: cartwright.internal:4000 (http)\nRequest: {r['method']} {up}\n"
                      f"** (exit) an exception was raised:\n    " + _crash(r, rng)))
            continue
        if r.get("timeout"):
            L.append((a + ms(38_412), "info", r["rid"], ["SENT", 200, 38_412]))
            continue
        if r.get("psp") and r["status"] == 201:
            L.append((a + ms(r["psp"] + 20), "info", r["rid"],
                      f"payment authorized basket={r['basket']} psp=adyen psp_ms={r['psp']} amount={rng.randint(1800, 16000) / 100:.2f} currency=GBP"))
        if r.get("psp") and r["status"] == 402:
            L.append((a + ms(r["psp"] + 20), "warning", r["rid"],
                      f"payment refused basket={r['basket']} psp=adyen psp_ms={r['psp']} refusal_reason=\"{rng.choice(['Not enough balance', 'Expired Card', 'CVC Declined'])}\""))
        if r.get("login") and r["status"] == 401:
            who = f"{_hex(rng, 6)}@{rng.choice(['gmail.com', 'hotmail.co.uk', 'yahoo.com', 'outlook.com', 'icloud.com'])}"
            L.append((a + ms(r["cw"] - 2), "warning", r["rid"],
                      f"login failed email={who} reason={rng.choice(['invalid_password', 'invalid_password', 'unknown_user'])} remote_ip={r['ip']}"))
        L.append((a + ms(r["cw"]), "info", r["rid"], ["SENT", r["status"], r["cw"]]))
    for t, level, rid, msg in night.cw_extra:
        if level == "internal":
            path, d = msg
            L.append((t, "info", rid, f"GET {path}"))
            L.append((t + ms(d), "info", rid, ["SENT", 200, d]))
        else:
            L.append((t, level, rid, msg))
    # the p95 of "Sent 200 in Nms" sits on a plateau
    sent200 = [x for x in L if isinstance(x[3], list) and x[3][1] == 200]
    vals = [x[3][2] for x in sent200]
    night.sent200_p95 = plateau(vals, 95, 0.02)
    for x, v in zip(sent200, vals):
        x[3][2] = v
    L.sort(key=lambda x: x[0])
    out = []
    for t, level, rid, msg in L:
        if isinstance(msg, list):
            msg = f"Sent {msg[1]} in {msg[2]}ms"
        head = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d} "
        if rid:
            head += f"request_id={rid} "
        out.append(f"{head}[{level}] {msg}\n")
    return "".join(out)


HK, KONG, CW = "larder-web-heroku.log", "kong-file-log.json", "cartwright.log"


def write_all(seed):
    night = Night(seed)
    return {HK: heroku_log(night, seed), KONG: kong_log(night, seed), CW: cartwright_log(night, seed)}, night
