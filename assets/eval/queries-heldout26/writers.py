"""Writes the `queries-heldout26` fixtures: one night (2036-10-23, 00:00-04:00 UTC; late morning to
early afternoon for the customers) at Quillfern Kitchens, a meal-kit delivery company in Melbourne.
The on-call engineer is in Europe. Three logs are written from one shared plan of the night, so that
the files agree:

- `quillfern-edge.access.log`: the edge nginx, `log_format` "combined" with `$request_time` appended
  (`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer"
  "$http_user_agent" $request_time`), server time zone UTC, one line a request written when it ends;
  `limit_req` with `limit_req_status 429`; `/healthz` answered by nginx itself; the web pages come from
  a Next.js upstream, `/api/` and `/admin/api/` from basket-api;
- `basket-api.log`: basket-api, a Python 3.12 FastAPI service under uvicorn, logging through
  structlog's `JSONRenderer` (one JSON object a line; processors merge_contextvars, add_log_level,
  add_logger_name, TimeStamper(fmt="iso", utc=True), format_exc_info), so each object holds the call's
  keys, then `event`, then the request's context vars (`request_id`, `client_ip`, `user_id`), then
  `level`, `logger`, `timestamp` (and `exception` when a traceback was logged);
- `fulfilment-service.log`: fulfilment-service, a Spring Boot 3.1 app (Tomcat, HikariCP, Hibernate,
  OpenFeign) with the default logback console pattern
  (`%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p ${PID} --- [%15.15t] %-40.40logger{39} : %m%n`) and multi-line
  stack traces (`Caused by:`, `... N common frames omitted`).

Standard library only; everything comes from one seeded `random.Random`.
"""

import math
import random
from datetime import datetime, timedelta

DAY = datetime(2036, 10, 23)


def T(h, m, s=0.0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s)


def secs(x):
    return timedelta(seconds=x)


START, END = T(0, 0), T(4, 0)

EDGE, PY, JAVA = "quillfern-edge.access.log", "basket-api.log", "fulfilment-service.log"

# every standard HTTP status: no figure an answer must hold reads like one
STATUS_LIKE = ({100, 101, 102, 103, 226, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 510, 511}
               | set(range(200, 209)) | set(range(300, 309)) | set(range(400, 419)) | set(range(500, 509)))

# --- fixed clients of the edge
SCRAPER_IP = "45.133.172.58"         # a menu scraper (python-requests), 01:05-01:58, one storm minute
SCRAPER_UA = "python-requests/2.31.0"
UPTIME_IP = "216.245.221.84"         # the uptime monitor, GET /healthz every 30 s
UPTIME_UA = "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)"
STAFF_IP = "203.221.14.90"           # the kitchen office: the live-orders board polls every 40 s
STUFF = [("193.32.162.71", 168, T(1, 40, 21.3), T(1, 52, 48.0)),   # credential stuffing on /auth/login
         ("185.196.9.112", 64, T(1, 42, 5.0), T(1, 49, 30.0)),
         ("89.248.165.203", 47, T(1, 44, 40.0), T(1, 50, 10.0)),
         ("62.122.184.19", 33, T(1, 46, 2.0), T(1, 51, 0.0))]

# --- the night's planted events
SCRAPE = (T(1, 5, 13.4), T(1, 57, 41.0))
STORM = (T(1, 27, 1.7), T(1, 27, 58.2))          # the scraper runs a dozen threads for one minute
CARD_TEST = (T(0, 41, 12.0), T(0, 55, 30.0))     # one account tries a stack of stolen cards
REDIS_DOWN = (T(1, 33, 1.62), T(1, 33, 57.9))    # redis-basket restarted (failover): connection refused
SYNC_START = T(2, 14, 0.213)                     # StockSyncJob: a supplier sends its full catalogue
SYNC_MS = 972417
SYNC_END = SYNC_START + timedelta(milliseconds=SYNC_MS)
POOL_OUT = SYNC_START + secs(2.4)                # its 20 workers hold the whole Hikari pool
WORKER_KILL = T(2, 22, 8.91)                     # basket-api's liveness probe fails: container killed
WORKER_BACK = T(2, 22, 44.05)                    # the four uvicorn workers start again
FLOOD = 60                                       # customers retry as soon as it answers again
COURIER_JOB = T(2, 50, 0.318)                    # the nightly courier manifest
COURIER_SLOW = (T(2, 50, 38.0), T(2, 58, 9.0))   # the courier gateway answers slowly (read timeouts)
EXPORT_AT = T(3, 21, 7.44)                       # the office exports last week's orders (the slowest)
EXPORT_HUND = 4821163                            # its duration in basket-api, in 1/100 ms
NPE_QUIET = [(T(2, 38), T(2, 47)), (T(3, 8), T(3, 17)), (T(2, 12), T(2, 34))]
CARDER = "u_580337"

WEEK = "2036-W44"
HOST = "www.quillfern.com.au"


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _poisson(rng, a, b, per_s, shape=lambda t: 1.0, peak=1.0):
    """A non-homogeneous Poisson process (thinning): rate per_s * shape(t), shape <= peak."""
    out, t = [], a
    while True:
        t += secs(rng.expovariate(per_s * peak))
        if t >= b:
            return out
        if rng.random() < shape(t) / peak:
            out.append(t)


def _lunch(t):
    h = (t - START).total_seconds() / 3600
    return 1.0 + 1.6 * math.exp(-((h - 2.0) / 0.75) ** 2)


def plateau(values, p, extra_low=0, pad=3):
    """Raises the values around every percentile definition's rank of the p-th percentile to one
    value (the window's top), so that nearest-rank, linear, Excel .EXC and floor-index agree; also
    with `extra_low` more values below them all (the same rows unfiltered)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    x = p / 100
    ranks = []
    for k in (0, extra_low):
        n = len(values) + k
        ranks += [r - k for r in (math.ceil(x * n) - 1, int((n - 1) * x), int((n - 1) * x) + 1,
                                  int((n + 1) * x - 1), int((n + 1) * x - 1) + 1, int(x * n))]
    n = len(values)
    lo, hi = max(0, min(ranks) - pad), min(n - 1, max(ranks) + pad)
    v = values[order[hi]]
    out = list(values)
    for i in order[lo:hi + 1]:
        out[i] = v
    return v, out


# ------------------------------------------------------------ the people

IOS_UA = "Quillfern/6.4.2 (com.quillfern.app; build:6420; iOS 19.0.1) Alamofire/5.9.1"
ANDROID_UAS = ["Quillfern/6.4.2 (Android 16; SM-S931B) okhttp/4.12.0",
               "Quillfern/6.4.2 (Android 15; Pixel 8a) okhttp/4.12.0",
               "Quillfern/6.4.1 (Android 14; CPH2581) okhttp/4.12.0"]
BROWSERS = ["Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/605.1.15",
            "Mozilla/5.0 (Linux; Android 16; SM-S931B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:143.0) Gecko/20100101 Firefox/143.0"]
STAFF_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36"
STUFF_UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Safari/537.36",
             "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Safari/537.36",
             "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0"]

RECIPES = ["thai-green-chicken-curry", "korean-beef-bibimbap", "harissa-lamb-flatbreads", "miso-glazed-salmon",
           "smoky-black-bean-tacos", "chicken-katsu-bowl", "pumpkin-sage-gnocchi", "beef-rendang", "prawn-laksa",
           "lemongrass-pork-noodles", "mushroom-stroganoff", "chipotle-chicken-burrito-bowl", "teriyaki-tofu-stirfry",
           "lamb-kofta-tabbouleh", "butter-chicken", "sticky-pork-bao", "cajun-barramundi", "spinach-ricotta-cannelloni",
           "peri-peri-chicken", "zucchini-fritters", "beef-pho", "chorizo-paella", "falafel-grain-bowl",
           "sesame-crusted-tuna", "moroccan-chickpea-tagine", "pesto-chicken-orzo", "bulgogi-lettuce-cups",
           "sweet-potato-dahl", "pork-schnitzel-slaw", "honey-soy-chicken-wings", "tandoori-cauliflower",
           "chilli-con-carne"]
# SKUs: RCP-<id>-2P / -4P; the week's hero recipe is added to baskets far more than any other
SKU_IDS = [1040 + 3 * i for i in range(len(RECIPES))]
HERO = 7


class User:
    def __init__(self, uid, ip, platform, ua):
        self.uid, self.ip, self.platform, self.ua = uid, ip, platform, ua

    @property
    def web(self):
        return self.platform == "web"


class Req:
    """One request at the edge; `py` is None when basket-api never saw it (an nginx-only page, a 429,
    a 502) or never logged it."""

    def __init__(self, start, ip, method, uri, ua, proto="HTTP/2.0", referer="-"):
        self.start, self.ip, self.method, self.uri, self.ua = start, ip, method, uri, ua
        self.proto, self.referer = proto, referer
        self.status = None
        self.rt_ms = None          # nginx $request_time in ms
        self.bytes = None
        self.py = None             # (duration in 1/100 ms, user_id)
        self.rid = None
        self.events = []           # basket-api events logged while handling it: (t, [(k, v)...])
        self.kind = None

    @property
    def end(self):
        return self.start + timedelta(milliseconds=self.rt_ms)

    @property
    def path(self):
        return self.uri.split("?", 1)[0]


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.reqs = []
        self.pyx = []              # basket-api lines of no request: (t, [(k, v)...])
        self.java = []             # (t, seq, level, thread, logger, message, [trace lines])
        self.seq = 0
        self.order_no = 7304100 + self.rng.randint(0, 80)
        self.old_orders = []
        self.confirmed = []        # (t, order id): tonight's orders queued for tomorrow's courier run
        self.facts = {}
        self._people()
        self._clients()
        self._sessions()
        self._java_jobs()
        self._courier()
        self._tune_checkout_mean()
        self._plateaus()

    # ------------------------------------------------------------ helpers
    def rid(self):
        return f"{self.rng.getrandbits(128):032x}"

    def J(self, t, level, thread, logger, msg, trace=None):
        self.seq += 1
        self.java.append((t, self.seq, level, thread, logger, msg, trace or []))

    def exec_thread(self):
        return f"http-nio-8080-exec-{self.rng.randint(1, 40)}"

    def new_order(self):
        self.order_no += self.rng.randint(1, 9)
        return f"QF-{self.order_no}"

    def sku(self):
        rng = self.rng
        w = [17.0 if i == HERO else 4.2 / (1 + 0.12 * ((i * 7) % len(RECIPES))) for i in range(len(RECIPES))]
        i = rng.choices(range(len(RECIPES)), weights=w)[0]
        size = ("2P" if rng.random() < 0.82 else "4P") if i == HERO else rng.choice(["2P", "2P", "4P"])
        return i, f"RCP-{SKU_IDS[i]}-{size}"

    # ------------------------------------------------------------ people
    def _people(self):
        rng = self.rng
        firsts = [1, 14, 27, 49, 58, 101, 110, 112, 115, 120, 121, 124, 139, 144, 150, 159, 175, 180, 182, 203, 210, 211, 220]
        used_uid, used_ip = set(), set()
        fixed = {SCRAPER_IP, UPTIME_IP, STAFF_IP} | {ip for ip, *_ in STUFF}

        def ip():
            while True:
                a = f"{rng.choice(firsts)}.{rng.randint(1, 254)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
                if a not in used_ip and a not in fixed:
                    used_ip.add(a)
                    return a

        def uid():
            while True:
                u = f"u_{rng.randint(100000, 999999)}"
                if u not in used_uid and u != CARDER:
                    used_uid.add(u)
                    return u
        cgnat = [ip() for _ in range(14)]
        self.users = []
        for _ in range(1500):
            p = rng.choices(["ios", "android", "web"], weights=[45, 30, 25])[0]
            ua = IOS_UA if p == "ios" else rng.choice(ANDROID_UAS) if p == "android" else rng.choice(BROWSERS)
            a = rng.choice(cgnat) if p != "web" and rng.random() < 0.12 else ip()
            self.users.append(User(uid(), a, p, ua))
        self.staff = User(uid(), STAFF_IP, "web", STAFF_UA)
        self.carder = User(CARDER, ip(), "android", ANDROID_UAS[2])
        self.old_orders = [f"QF-{n}" for n in sorted(rng.sample(range(7291000, 7304000), 900))]

    # ------------------------------------------------------------ fulfilment calls
    def fulfil(self, t, kind, order=None, sku=None, lines=None):
        """basket-api calls fulfilment at t (`reserve` or `avail`). Returns the seconds until it answers
        (None: it never answers, the pool timed out after 30 s). Logs fulfilment's side."""
        rng = self.rng
        th = self.exec_thread()
        w = None
        if POOL_OUT <= t < SYNC_END:
            r = rng.random()
            if r < 0.09:
                w = rng.uniform(0.3, 9.2)
            elif r < 0.22:
                w = rng.uniform(10.6, 28.8)
            if w is None and t + secs(30.1) > SYNC_END:
                w = (SYNC_END - t).total_seconds() + rng.uniform(0.02, 0.3)
        elif kind == "reserve":
            w = _lognorm(rng, 0.038, 0.35)
        else:
            w = _lognorm(rng, 0.007, 0.4)
        if w is None:
            at = t + secs(30.0 + rng.uniform(0.0005, 0.0125))
            trace = hikari_trace(rng, kind, rng.randint(9, 64))
            if kind == "reserve":
                self.J(at, "ERROR", th, "com.quillfern.fulfil.reservation.ReservationService",
                       f"Reservation failed for order {order} ({plural(lines, 'line')})", trace)
            else:
                self.J(at, "ERROR", th, "com.quillfern.fulfil.web.AvailabilityController",
                       f"Availability check failed for sku {sku}", trace)
            return None
        if kind == "reserve":
            self.J(t + secs(w), "INFO", th, "com.quillfern.fulfil.reservation.ReservationService",
                   f"Reserved stock for order {order} ({plural(lines, 'line')}) in {int(w * 1000)} ms")
        return w

    # ------------------------------------------------------------ basket-api requests
    def ev(self, r, t, kv):
        r.events.append((t, kv))

    def ctx(self, r, user_id):
        return [("request_id", r.rid), ("client_ip", r.ip), ("user_id", user_id)]

    def call(self, t, u, method, uri, kind, user_id="self", order=None, lines=None, amount=None, decline=None):
        """One request of a customer (or the office) to the API: what the edge and basket-api log.
        Returns the Req (status, end)."""
        rng = self.rng
        uid = u.uid if user_id == "self" else user_id
        ref = ("https://admin.quillfern.com.au/live-orders" if u is self.staff else f"https://{HOST}/menu") if u.web else "-"
        r = Req(t, u.ip, method, uri, u.ua, "HTTP/2.0", ref)
        r.kind = kind
        self.reqs.append(r)
        if WORKER_KILL <= t < WORKER_BACK:
            r.status, r.rt_ms, r.bytes = 502, rng.randint(0, 1), 157
            return r
        r.rid = self.rid()
        c = lambda: self.ctx(r, uid)  # noqa: E731
        t0 = t + secs(rng.uniform(0.0006, 0.0018))
        redis_kinds = ("basket", "items", "checkout", "login")
        status, d = None, None          # d: seconds basket-api spent
        if kind in redis_kinds and REDIS_DOWN[0] <= t < REDIS_DOWN[1]:
            d = rng.uniform(0.004, 0.013)
            self.ev(r, t + secs(d - 0.0008), [("path", r.path), ("event", "unhandled_exception")] + c()
                    + [("level", "error"), ("logger", "basket_api.middleware"), ("exception", redis_tb(rng, kind))])
            status = 500
        elif kind == "menu":
            d, status = _lognorm(rng, 0.029, 0.42), 200
        elif kind == "basket":
            d, status = _lognorm(rng, 0.0131, 0.4), 200
        elif kind == "live":
            d, status = _lognorm(rng, 0.041, 0.3), 200
        elif kind == "export":
            d, status = EXPORT_HUND / 100000, 200
        elif kind == "login":
            d = _lognorm(rng, 0.21, 0.15)
            status = 200 if user_id == "self" and rng.random() < 0.93 else 401
            if status == 401:
                self.ev(r, t + secs(d - 0.0009), [("reason", "invalid_credentials"),
                                                  ("email_hash", f"sha256:{rng.getrandbits(32):08x}"),
                                                  ("event", "login_failed")] + c()
                        + [("level", "warning"), ("logger", "basket_api.auth")])
        elif kind == "items":
            i, sku = self.sku()
            w = self.fulfil(t0, "avail", sku=sku)
            if w is None or w > 10.0:
                d = (t0 - t).total_seconds() + 10.0 + rng.uniform(0.0012, 0.0041)
                self.ev(r, t + secs(d - 0.0007), [("upstream", "fulfilment-service"), ("method", "GET"),
                                                  ("url", "http://fulfilment-service:8080/internal/availability"),
                                                  ("timeout_s", 10.0), ("error", "ReadTimeout"),
                                                  ("event", "upstream_timeout")] + c()
                        + [("level", "error"), ("logger", "basket_api.clients.fulfilment")])
                status = 504
            else:
                d = (t0 - t).total_seconds() + w + _lognorm(rng, 0.004, 0.3)
                status = 201
        elif kind == "tracking":
            oid = uri.split("/")[4]
            if COURIER_SLOW[0] <= t < COURIER_SLOW[1] and rng.random() < 0.7:
                d = 5.0 + rng.uniform(0.0015, 0.0046)
                self.ev(r, t + secs(d - 0.0006), [("upstream", "courier-gw"), ("method", "GET"),
                                                  ("url", f"https://courier-gw.internal:8443/v1/tracking/{oid}"),
                                                  ("timeout_s", 5.0), ("error", "ReadTimeout"),
                                                  ("event", "upstream_timeout")] + c()
                        + [("level", "error"), ("logger", "basket_api.clients.courier")])
                if rng.random() < 0.45:
                    # the last status basket-api cached for the order is good enough: answered 200, marked stale
                    d += rng.uniform(0.0015, 0.004)
                    self.ev(r, t + secs(d - 0.0005), [("order_id", oid), ("age_s", rng.randint(90, 2400)),
                                                      ("event", "tracking_served_stale")] + c()
                            + [("level", "warning"), ("logger", "basket_api.routes.tracking")])
                    status = 200
                else:
                    status = 504
            elif COURIER_SLOW[0] <= t < COURIER_SLOW[1]:
                d, status = rng.uniform(1.4, 4.7), 200
            else:
                d, status = _lognorm(rng, 0.24, 0.35), 200
        elif kind == "checkout":
            status, d = self._checkout(r, t, t0, uid, order, lines, amount, decline, c)
        else:
            raise AssertionError(kind)
        hund = int(round(d * 100000))
        if hund < 50:
            hund = 50 + rng.randint(0, 40)
        r.status = status
        r.py = [hund, uid]
        r.rt_ms = int(hund / 100 + rng.uniform(0.3, 2.8))
        r.bytes = body_bytes(rng, kind, status)
        # the workers were killed while it was in flight: nginx answers 502, basket-api logs nothing more
        if t < WORKER_KILL <= r.end:
            r.events = [e for e in r.events if e[0] < WORKER_KILL]
            r.py = None
            r.status, r.bytes = 502, 157
            r.rt_ms = int((WORKER_KILL - t).total_seconds() * 1000 + rng.uniform(0.2, 1.5))
            r.dropped = True
        return r

    def _checkout(self, r, t, t0, uid, order, lines, amount, decline, c):
        rng = self.rng
        w = self.fulfil(t0, "reserve", order=order, lines=lines)
        if w is None or w > 10.0:
            d = (t0 - t).total_seconds() + 10.0 + rng.uniform(0.0012, 0.0041)
            self.ev(r, t + secs(d - 0.0007), [("upstream", "fulfilment-service"), ("method", "POST"),
                                              ("url", "http://fulfilment-service:8080/internal/reservations"),
                                              ("timeout_s", 10.0), ("order_id", order), ("error", "ReadTimeout"),
                                              ("event", "upstream_timeout")] + c()
                    + [("level", "error"), ("logger", "basket_api.clients.fulfilment")])
            return 504, d
        tp = t0 + secs(w + rng.uniform(0.002, 0.006))
        psp = _lognorm(rng, 0.62, 0.3)
        tp2 = tp + secs(psp)
        th = self.exec_thread()
        amt = f"{amount // 100}.{amount % 100:02d}"
        if decline:
            self.ev(r, tp2, [("order_id", order), ("psp", "adyen"), ("result_code", "Refused"),
                             ("refusal_reason", decline), ("amount", float(amt)), ("currency", "AUD"),
                             ("event", "payment_declined")] + c()
                    + [("level", "warning"), ("logger", "basket_api.payments")])
            if not (t < WORKER_KILL <= tp2):
                self.J(tp2 + secs(rng.uniform(0.004, 0.02)), "INFO", th, "com.quillfern.fulfil.reservation.ReservationService",
                       f"Released reservation for order {order}: payment declined")
            return 402, (tp2 - t).total_seconds() + rng.uniform(0.003, 0.009)
        tc = tp2 + secs(rng.uniform(0.002, 0.005))
        if t < WORKER_KILL <= tc:
            return 201, (tc - t).total_seconds() + 0.05     # never gets there: dropped by the caller
        npe = (not any(a <= tc < b for a, b in NPE_QUIET)) and rng.random() < 0.024
        if npe:
            te = tc + secs(rng.uniform(0.006, 0.019))
            self.J(te, "ERROR", th, "org.apache.catalina.core.ContainerBase.[Tomcat].[localhost].[/].[dispatcherServlet]",
                   "Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception "
                   f"[Request processing failed: java.lang.NullPointerException: {NPE_MSG}] with root cause",
                   npe_trace(rng))
            d = (te - t).total_seconds() + rng.uniform(0.002, 0.005)
            self.ev(r, t + secs(d - 0.0008), [("upstream", "fulfilment-service"), ("method", "POST"),
                                              ("url", f"http://fulfilment-service:8080/internal/orders/{order}/confirm"),
                                              ("upstream_status", 500), ("order_id", order),
                                              ("event", "upstream_error")] + c()
                    + [("level", "error"), ("logger", "basket_api.clients.fulfilment")])
            return 500, d
        tj = tc + secs(_lognorm(rng, 0.021, 0.3))
        self.J(tj, "INFO", th, "com.quillfern.fulfil.orders.OrderConfirmationService",
               f"Order {order} confirmed; courier booking queued for 2036-10-24")
        self.confirmed.append((tj, order))
        d = (tj - t).total_seconds() + rng.uniform(0.003, 0.008)
        self.ev(r, t + secs(d - 0.0009), [("order_id", order), ("amount", float(amt)), ("currency", "AUD"),
                                          ("items", lines), ("event", "order_placed")] + c()
                + [("level", "info"), ("logger", "basket_api.checkout")])
        return 201, d

    def page(self, t, u, path):
        """A web page (server-rendered by the Next.js upstream): the edge only."""
        rng = self.rng
        r = Req(t, u.ip, "GET", path, u.ua, "HTTP/2.0", f"https://{HOST}/" if path != "/" else "-")
        r.kind = "page"
        r.status = 200
        r.rt_ms = int(_lognorm(rng, 110, 0.45))
        r.bytes = rng.randint(38000, 96000)
        self.reqs.append(r)
        return r

    # ------------------------------------------------------------ fixed clients
    def _clients(self):
        rng = self.rng
        t = START + secs(rng.uniform(2, 28))
        while t < END:
            r = Req(t, UPTIME_IP, "GET", "/healthz", UPTIME_UA, "HTTP/1.1")
            r.kind, r.status, r.rt_ms, r.bytes = "health", 200, 0, 3
            self.reqs.append(r)
            t += secs(30 + rng.uniform(-0.4, 0.4))
        # the office's live-orders board
        t = START + secs(rng.uniform(1, 39))
        while t < END:
            self.call(t, self.staff, "GET", "/admin/api/live-orders?depot=all", "live")
            t += secs(40 + rng.uniform(-0.3, 0.3))
        self.call(EXPORT_AT, self.staff, "GET", "/admin/api/exports/orders.csv?from=2036-10-16&to=2036-10-22", "export")
        # the scraper: bursts of requests, limit_req (2 r/s, burst 10) turns the excess away
        bucket = Bucket(2.0, 10)
        t = SCRAPE[0]
        page = 0
        while t < SCRAPE[1]:
            if STORM[0] <= t < STORM[1]:
                n, gap = 6, 0.0
                ts = [t + secs(rng.uniform(0, 0.9)) for _ in range(n)]
                t += secs(rng.uniform(0.78, 1.02))
            else:
                n = rng.randint(3, 10)
                ts, x = [], t
                for _ in range(n):
                    x += secs(rng.uniform(0.03, 0.25))
                    ts.append(x)
                t = x + secs(rng.uniform(12, 34))
            for x in sorted(ts):
                page += 1
                if rng.random() < 0.55:
                    uri = f"/api/v2/menu?week={rng.choice(['2036-W44', '2036-W45', '2036-W46'])}&page={page % 40 + 1}&per_page=48"
                    kind = "menu"
                else:
                    uri = f"/recipes/{rng.choice(RECIPES)}"
                    kind = "page"
                if not bucket.take(x):
                    r = Req(x, SCRAPER_IP, "GET", uri, SCRAPER_UA, "HTTP/1.1")
                    r.kind, r.status, r.rt_ms, r.bytes = "limited", 429, 0, 169
                    self.reqs.append(r)
                elif kind == "menu":
                    r = self.call(x, User(None, SCRAPER_IP, "bot", SCRAPER_UA), "GET", uri, "menu", user_id=None)
                    r.proto = "HTTP/1.1"
                else:
                    p = self.page(x, User(None, SCRAPER_IP, "bot", SCRAPER_UA), uri)
                    p.proto, p.referer = "HTTP/1.1", "-"
        # credential stuffing on the login endpoint
        for ip, k, a, b in STUFF:
            span = (b - a).total_seconds()
            ua = rng.choice(STUFF_UAS)
            bot = User(None, ip, "bot", ua)
            for x in sorted(a + secs(rng.uniform(0, span)) for _ in range(k)):
                r = self.call(x, bot, "POST", "/api/v2/auth/login", "login", user_id=None)
                r.proto = "HTTP/1.1"
        # one account tries a stack of cards
        t = CARD_TEST[0]
        c = self.carder
        self.call(t, c, "GET", "/api/v2/basket", "basket")
        t += secs(4.1)
        self.call(t, c, "POST", "/api/v2/basket/items", "items")
        order = self.new_order()
        reasons = ["Refused", "CVC Declined", "Not enough balance", "Expired Card", "Refused", "Do Not Honor",
                   "CVC Declined", "Not enough balance", "Refused", "Issuer Unavailable", "Refused"]
        for k, why in enumerate(reasons):
            t += secs(rng.uniform(50, 95))
            self.call(t, c, "POST", "/api/v2/checkout", "checkout", order=order, lines=1, amount=5996, decline=why)

    # ------------------------------------------------------------ customers
    def _sessions(self):
        rng = self.rng
        starts = _poisson(rng, START + secs(3), END - secs(150), 0.026, _lunch, peak=2.7)
        for t in starts:
            self.session(t, rng.choice(self.users))
        # people checking on an earlier order (more of them while the courier run sends its booking pushes)
        boost = lambda t: _lunch(t) * (3.0 if COURIER_JOB <= t < COURIER_SLOW[1] else 1.0)  # noqa: E731
        for t in _poisson(rng, START + secs(5), END - secs(30), 0.009, boost, peak=8.1):
            u = rng.choice(self.users)
            oid = rng.choice(self.old_orders)
            r = self.call(t, u, "GET", f"/api/v2/orders/{oid}/tracking", "tracking")
            if rng.random() < 0.3 and r.status == 200:
                self.call(r.end + secs(_lognorm(rng, 40, 0.5)), u, "GET", f"/api/v2/orders/{oid}/tracking", "tracking")
        # as soon as basket-api answers again, the customers who got 502s press the button again
        for k in range(FLOOD):
            t = WORKER_BACK + secs(rng.uniform(0.85, 5.4))
            u = rng.choice(self.users)
            if rng.random() < 0.6:
                self.call(t, u, "POST", "/api/v2/basket/items", "items")
            else:
                n = rng.randint(1, 5)
                self.call(t, u, "POST", "/api/v2/checkout", "checkout", order=self.new_order(), lines=n,
                          amount=price(rng, n))

    def session(self, t, u):
        rng = self.rng
        think = lambda: secs(_lognorm(rng, 7.0, 0.6))  # noqa: E731

        def api(t, method, uri, kind, **kw):
            """A call, retried the way the app retries: a 500 twice at once, a 502 with backoff,
            a 504 by the customer pressing again (half of them)."""
            r = self.call(t, u, method, uri, kind, **kw)
            tries = 1
            while r.status in (500, 502, 504) and tries < 3:
                if r.status == 504 and rng.random() < 0.5:
                    break
                wait = {500: rng.uniform(0.3, 1.2), 502: 2 ** tries + rng.uniform(0, 0.5), 504: rng.uniform(3, 25)}[r.status]
                r = self.call(r.end + secs(wait), u, method, uri, kind, **kw)
                tries += 1
            return r

        if u.web:
            t = self.page(t, u, "/").end + think()
        if rng.random() < 0.2:
            r = api(t, "POST", "/api/v2/auth/login", "login")
            t = r.end + think()
            if r.status == 401:
                r = api(t + secs(rng.uniform(5, 15)), "POST", "/api/v2/auth/login", "login")
                t = r.end + think()
        if u.web:
            t = self.page(t, u, "/menu").end + secs(rng.uniform(0.2, 0.8))
        diet = rng.choice(["", "", "", "&diet=vegetarian", "&diet=low-cal", "&diet=family"])
        r = self.call(t, u, "GET", f"/api/v2/menu?week={WEEK}{diet}", "menu", user_id=None)
        t = r.end + think()
        r = api(t, "GET", "/api/v2/basket", "basket")
        if r.status >= 500:
            return
        t = r.end + think()
        n = 0
        for _ in range(rng.choice([1, 2, 2, 3, 3, 4])):
            if u.web:
                t = self.page(t, u, f"/recipes/{rng.choice(RECIPES)}").end + think()
            r = api(t, "POST", "/api/v2/basket/items", "items")
            if r.status >= 500:
                return
            n += 1
            t = r.end + think()
        r = api(t, "GET", "/api/v2/basket", "basket")
        if r.status >= 500 or rng.random() > 0.8:
            return
        t = r.end + think()
        if u.web:
            t = self.page(t, u, "/checkout").end + think()
        order = self.new_order()
        amount = price(rng, n)
        decline = rng.choice(["Refused", "Not enough balance", "Expired Card", "CVC Declined"]) if rng.random() < 0.045 else None
        api(t, "POST", "/api/v2/checkout", "checkout", order=order, lines=n, amount=amount, decline=decline)

    # ------------------------------------------------------------ fulfilment's scheduled jobs
    def _java_jobs(self):
        rng = self.rng
        self.sync_runs = []
        for h in range(4):
            for m in (14, 44):
                t = T(h, m, 0.213) if (h, m) == (2, 14) else T(h, m, rng.uniform(0.19, 0.24))
                feed = rng.choice(["bidfood-vic", "pfd-melbourne", "harvest-direct"])
                self.J(t, "INFO", "scheduling-1", "com.quillfern.fulfil.stock.StockSyncJob",
                       f"StockSyncJob started (supplier feed {feed})")
                if (h, m) == (2, 14):
                    n = 18342
                    self.J(t + secs(1.87), "WARN", "scheduling-1", "com.quillfern.fulfil.stock.StockSyncJob",
                           f"Supplier feed {feed} sent a full catalogue ({n} SKUs): running a full resync with 20 workers")
                    for k, frac in enumerate((0.22, 0.47, 0.71, 0.93)):
                        self.J(t + secs(SYNC_MS / 1000 * frac + rng.uniform(-5, 5)), "INFO", "scheduling-1",
                               "com.quillfern.fulfil.stock.StockSyncJob",
                               f"StockSyncJob progress: {int(n * frac)}/{n} SKUs")
                    dur = SYNC_MS
                else:
                    n = rng.randint(870, 1690)
                    dur = int(_lognorm(rng, 52000, 0.3))
                self.J(t + timedelta(milliseconds=dur), "INFO", "scheduling-1", "com.quillfern.fulfil.stock.StockSyncJob",
                       f"StockSyncJob finished: {n} SKUs updated in {dur} ms")
                self.sync_runs.append((t, n, dur))
        # the expiry of unpaid reservations, every 5 minutes
        t = T(0, 0, 0.051)
        while t < END:
            th = f"scheduling-{rng.choice([2, 3, 4])}"
            if POOL_OUT <= t and t + secs(30.1) <= SYNC_END:
                self.J(t + secs(30.0 + rng.uniform(0.0004, 0.009)), "ERROR", th,
                       "org.springframework.scheduling.support.TaskUtils$LoggingErrorHandler",
                       "Unexpected error occurred in scheduled task", hikari_trace(rng, "expiry", rng.randint(20, 60)))
            else:
                done = t + secs(_lognorm(rng, 0.09, 0.3))
                if POOL_OUT <= t < SYNC_END:
                    done = SYNC_END + secs(rng.uniform(0.05, 0.2))
                self.J(done, "INFO", th, "com.quillfern.fulfil.reservation.OrderExpiryJob",
                       f"OrderExpiryJob: released {rng.randint(0, 7)} unpaid reservations held longer than 15 min")
            t += secs(300)

    # ------------------------------------------------------------ the courier manifest
    def _courier(self):
        rng = self.rng
        tonight = [o for t, o in sorted(self.confirmed) if t < COURIER_JOB]
        earlier = [o for o in self.old_orders[-420:] if rng.random() < 0.7]
        queue = earlier + tonight
        rng.shuffle(queue)
        self.J(COURIER_JOB, "INFO", "scheduling-3", "com.quillfern.fulfil.courier.CourierManifestJob",
               f"CourierManifestJob started: {len(queue)} orders for delivery 2036-10-24 (3 workers)")
        free = [COURIER_JOB + secs(rng.uniform(0.02, 0.3)) for _ in range(3)]
        booked = parked = 0
        qi = 0
        while qi < len(queue):
            k = min(range(3), key=lambda i: free[i])
            t = free[k]
            oid = queue[qi]
            qi += 1
            th = f"courier-batch-{k + 1}"
            for a in range(1, 5):
                slow = COURIER_SLOW[0] <= t < COURIER_SLOW[1]
                if slow and rng.random() < 0.62:
                    t += secs(5.0 + rng.uniform(0.001, 0.03))
                    self.J(t, "ERROR", th, "com.quillfern.fulfil.courier.CourierBookingService",
                           f"Courier booking attempt {a}/4 failed for order {oid}", feign_trace(rng))
                    if a == 4:
                        parked += 1
                        self.J(t + secs(0.002), "WARN", th, "com.quillfern.fulfil.courier.CourierBookingService",
                               f"Courier booking for order {oid} parked after 4 failed attempts")
                        t += secs(0.01)
                        break
                    t += secs(2 ** a + rng.uniform(0, 0.4))
                    continue
                t += secs(rng.uniform(1.3, 4.6) if slow else _lognorm(rng, 1.05, 0.3))
                slot = rng.choice(["07:00-09:00", "09:00-11:00", "11:00-13:00", "16:00-18:00", "18:00-20:00"])
                carrier = rng.choice(["couriersplease", "sendle", "zoom2u"])
                self.J(t, "INFO", th, "com.quillfern.fulfil.courier.CourierBookingService",
                       f"Booked courier slot for order {oid}: 2036-10-24 {slot} ({carrier}, ref {rng.getrandbits(40):010X})")
                booked += 1
                break
            free[k] = t + secs(rng.uniform(0.005, 0.05))
        end = max(free) + secs(rng.uniform(0.1, 0.4))
        self.J(end, "INFO", "scheduling-3", "com.quillfern.fulfil.courier.CourierManifestJob",
               f"CourierManifestJob finished: {booked} booked, {parked} parked for manual booking in "
               f"{int((end - COURIER_JOB).total_seconds() * 1000)} ms")
        self.courier_end = end

    # ------------------------------------------------------------ tuning
    def _tune_checkout_mean(self):
        """The mean duration_ms of the answered checkouts (201) off its rounding edges: a few quiet ones
        a little slower."""
        rows = [r for r in self.reqs if r.kind == "checkout" and r.py and r.status == 201]
        n = len(rows)
        s = sum(r.py[0] for r in rows)                  # in 1/100 ms
        m10 = s / (10 * n)                              # the mean in tenths of a ms
        target = math.floor(m10) + 0.27
        while target < m10 or math.floor(target) % 10 == 0:     # and its first decimal not a 0
            target += 1
        delta = round(target * 10 * n) - s
        quiet = [r for r in rows if r.start < T(0, 50)][:20]
        each = delta // len(quiet)
        for i, r in enumerate(quiet):
            add = each + (delta - each * len(quiet) if i == 0 else 0)
            r.py[0] += add
            r.rt_ms = int(r.py[0] / 100 + 1.3)
            tj = r.start + timedelta(microseconds=r.py[0] * 10)
            r.events = [(min(e[0], tj - secs(0.0009)), e[1]) for e in r.events]

    def _plateaus(self):
        # the edge: $request_time of the answered (200) menu API calls, its p95 on a plateau
        rows = [r for r in self.reqs if r.kind == "menu" and r.status == 200]
        low = [r for r in self.reqs if r.path == "/api/v2/menu" and r.status != 200]
        v, vals = plateau([r.rt_ms for r in rows], 95, len(low))
        assert all(r.rt_ms < v for r in low)
        for r, x in zip(rows, vals):
            if x != r.rt_ms:
                r.rt_ms = x
                r.py[0] = max(50, x * 100 - self.rng.randint(60, 250))
        self.facts["menu_p95_ms"] = v
        # basket-api: duration_ms of the answered (200) basket reads, its p95 on a plateau
        rows = [r for r in self.reqs if r.kind == "basket" and r.status == 200 and r.py]
        low = [r for r in self.reqs if r.kind == "basket" and r.status != 200 and r.py]
        v, vals = plateau([r.py[0] for r in rows], 95, len(low))
        assert all(r.py[0] < v for r in low)
        for r, x in zip(rows, vals):
            if x != r.py[0]:
                r.py[0] = x
                r.rt_ms = int(x / 100 + 1.1)
        self.facts["basket_p95_hund"] = v


class Bucket:
    """nginx limit_req (leaky bucket, nodelay): `rate` r/s, `burst` excess allowed."""

    def __init__(self, rate, burst):
        self.rate, self.burst = rate, burst
        self.excess, self.last = 0.0, None

    def take(self, t):
        new = 1.0
        if self.last is not None:
            new = max(0.0, self.excess - self.rate * (t - self.last).total_seconds()) + 1
        if new > self.burst:
            return False
        self.excess, self.last = new, t
        return True


def plural(k, word):
    return f"{k} {word}" + ("" if k == 1 else "s")


def price(rng, n):
    """An order's total in cents: recipes at 2 or 4 serves, shipping now and then."""
    base = sum(rng.choice([1199, 1299, 1349, 2198, 2398, 2498]) for _ in range(max(1, n)))
    return base + (999 if rng.random() < 0.4 else 0)


def body_bytes(rng, kind, status):
    if status == 500:
        return 34            # {"detail":"Internal Server Error"}
    if status == 504:
        return 31            # {"detail":"upstream timed out"}
    if status == 401:
        return 43
    if status == 402:
        return rng.randint(96, 118)
    return {"menu": lambda: rng.randint(18000, 46000), "basket": lambda: rng.randint(640, 3800),
            "items": lambda: rng.randint(700, 3900), "checkout": lambda: rng.randint(610, 980),
            "login": lambda: rng.randint(880, 940), "tracking": lambda: rng.randint(1100, 2400),
            "live": lambda: rng.randint(5200, 14800), "export": lambda: 6123397}[kind]()


# ------------------------------------------------------------ stack traces

NPE_MSG = ('Cannot invoke "com.quillfern.fulfil.orders.Address.postcode()" because the return value of '
           '"com.quillfern.fulfil.orders.Order.deliveryAddress()" is null')

_TOMCAT_TAIL = [
    "org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod.invokeAndHandle(ServletInvocableHandlerMethod.java:118)",
    "org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter.invokeHandlerMethod(RequestMappingHandlerAdapter.java:884)",
    "org.springframework.web.servlet.mvc.method.AbstractHandlerMethodAdapter.handle(AbstractHandlerMethodAdapter.java:87)",
    "org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1081)",
    "org.springframework.web.servlet.DispatcherServlet.doService(DispatcherServlet.java:974)",
    "org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1011)",
    "org.springframework.web.servlet.FrameworkServlet.doPost(FrameworkServlet.java:914)",
    "jakarta.servlet.http.HttpServlet.service(HttpServlet.java:590)",
    "org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:205)",
    "org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:166)",
    "org.apache.catalina.connector.CoyoteAdapter.service(CoyoteAdapter.java:341)",
    "org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:391)",
    "org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun(NioEndpoint.java:1740)",
    "org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)",
    "java.base/java.lang.Thread.run(Thread.java:1583)",
]

_TX_HEAD = [
    "org.springframework.orm.jpa.JpaTransactionManager.doBegin(JpaTransactionManager.java:466)",
    "org.springframework.transaction.support.AbstractPlatformTransactionManager.startTransaction(AbstractPlatformTransactionManager.java:531)",
    "org.springframework.transaction.support.AbstractPlatformTransactionManager.getTransaction(AbstractPlatformTransactionManager.java:405)",
    "org.springframework.transaction.interceptor.TransactionAspectSupport.createTransactionIfNecessary(TransactionAspectSupport.java:610)",
    "org.springframework.transaction.interceptor.TransactionAspectSupport.invokeWithinTransaction(TransactionAspectSupport.java:373)",
    "org.springframework.transaction.interceptor.TransactionInterceptor.invoke(TransactionInterceptor.java:119)",
    "org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:184)",
    "org.springframework.aop.framework.CglibAopProxy$CglibMethodInvocation.proceed(CglibAopProxy.java:765)",
    "org.springframework.aop.framework.CglibAopProxy$DynamicAdvisedInterceptor.intercept(CglibAopProxy.java:717)",
]

_HIKARI = [
    "com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)",
    "com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)",
    "com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:144)",
    "com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:127)",
    "org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl.getConnection(DatasourceConnectionProviderImpl.java:122)",
    "org.hibernate.internal.NonContextualJdbcConnectionAccess.obtainConnection(NonContextualJdbcConnectionAccess.java:46)",
    "org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:113)",
]


def _at(frames):
    return [f"\tat {f}" for f in frames]


def hikari_trace(rng, kind, waiting):
    """A connection the pool could not hand out within connectionTimeout (30 s)."""
    wait_ms = 30000 + rng.randint(0, 12)
    hik = f"HikariPool-1 - Connection is not available, request timed out after {wait_ms}ms (total=20, active=20, idle=0, waiting={waiting})"
    if kind == "reserve":
        mid = ["com.quillfern.fulfil.reservation.ReservationService$$SpringCGLIB$$0.reserve(<generated>)",
               "com.quillfern.fulfil.web.ReservationController.reserve(ReservationController.java:52)",
               "java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
               "java.base/java.lang.reflect.Method.invoke(Method.java:580)",
               "org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:255)",
               "org.springframework.web.method.support.InvocableHandlerMethod.invokeForRequest(InvocableHandlerMethod.java:188)"]
        tail = _TOMCAT_TAIL
    elif kind == "avail":
        mid = ["com.quillfern.fulfil.stock.StockService$$SpringCGLIB$$0.availability(<generated>)",
               "com.quillfern.fulfil.web.AvailabilityController.check(AvailabilityController.java:41)",
               "java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
               "java.base/java.lang.reflect.Method.invoke(Method.java:580)",
               "org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:255)",
               "org.springframework.web.method.support.InvocableHandlerMethod.invokeForRequest(InvocableHandlerMethod.java:188)"]
        tail = [f.replace("doPost", "doGet") for f in _TOMCAT_TAIL]
    else:
        mid = ["com.quillfern.fulfil.reservation.OrderExpiryJob$$SpringCGLIB$$0.run(<generated>)",
               "java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
               "java.base/java.lang.reflect.Method.invoke(Method.java:580)",
               "org.springframework.scheduling.support.ScheduledMethodRunnable.run(ScheduledMethodRunnable.java:84)",
               "org.springframework.scheduling.support.DelegatingErrorHandlingRunnable.run(DelegatingErrorHandlingRunnable.java:54)"]
        tail = ["java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:572)",
                "java.base/java.util.concurrent.FutureTask.runAndReset(FutureTask.java:358)",
                "java.base/java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(ScheduledThreadPoolExecutor.java:305)",
                "java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)",
                "java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:642)",
                "java.base/java.lang.Thread.run(Thread.java:1583)"]
    top = _TX_HEAD + mid + tail
    lines = ["org.springframework.transaction.CannotCreateTransactionException: Could not open JPA EntityManager for transaction"]
    lines += _at(top)
    lines.append(f"Caused by: org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC Connection [{hik}] [n/a]")
    hib = ["org.hibernate.exception.internal.SQLStateConversionDelegate.convert(SQLStateConversionDelegate.java:100)",
           "org.hibernate.exception.internal.StandardSQLExceptionConverter.convert(StandardSQLExceptionConverter.java:58)",
           "org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:108)",
           "org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:94)",
           "org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:116)",
           "org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.getPhysicalConnection(LogicalConnectionManagedImpl.java:143)",
           "org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.getConnectionForTransactionManagement(LogicalConnectionManagedImpl.java:273)",
           "org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.begin(LogicalConnectionManagedImpl.java:281)",
           "org.hibernate.resource.transaction.backend.jdbc.internal.JdbcResourceLocalTransactionCoordinatorImpl$TransactionDriverControlImpl.begin(JdbcResourceLocalTransactionCoordinatorImpl.java:232)",
           "org.hibernate.engine.transaction.internal.TransactionImpl.begin(TransactionImpl.java:83)",
           "org.springframework.orm.jpa.vendor.HibernateJpaDialect.beginTransaction(HibernateJpaDialect.java:176)",
           "org.springframework.orm.jpa.JpaTransactionManager.doBegin(JpaTransactionManager.java:420)"]
    lines += _at(hib)
    lines.append(f"\t... {len(top) - 1} common frames omitted")
    lines.append(f"Caused by: java.sql.SQLTransientConnectionException: {hik}")
    lines += _at(_HIKARI)
    lines.append(f"\t... {len(top) + len(hib) - 6} common frames omitted")
    return lines


def npe_trace(rng):
    frames = ["com.quillfern.fulfil.orders.OrderConfirmationService.confirm(OrderConfirmationService.java:88)",
              "com.quillfern.fulfil.orders.OrderConfirmationService$$SpringCGLIB$$0.confirm(<generated>)",
              "com.quillfern.fulfil.web.OrderController.confirm(OrderController.java:64)",
              "java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
              "java.base/java.lang.reflect.Method.invoke(Method.java:580)",
              "org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:255)",
              "org.springframework.web.method.support.InvocableHandlerMethod.invokeForRequest(InvocableHandlerMethod.java:188)"]
    return ["", f"java.lang.NullPointerException: {NPE_MSG}"] + _at(frames + _TOMCAT_TAIL)


def feign_trace(rng):
    url = "http://courier-gw.internal:8443/v1/bookings"
    lines = [f"feign.RetryableException: Read timed out executing POST {url}"]
    top = ["feign.FeignException.errorExecuting(FeignException.java:268)",
           "feign.SynchronousMethodHandler.executeAndDecode(SynchronousMethodHandler.java:131)",
           "feign.SynchronousMethodHandler.invoke(SynchronousMethodHandler.java:91)",
           "feign.ReflectiveFeign$FeignInvocationHandler.invoke(ReflectiveFeign.java:100)",
           "jdk.proxy2/jdk.proxy2.$Proxy187.createBooking(Unknown Source)",
           "com.quillfern.fulfil.courier.CourierBookingService.book(CourierBookingService.java:77)",
           "com.quillfern.fulfil.courier.CourierManifestJob.lambda$run$2(CourierManifestJob.java:64)",
           "java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)",
           "java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:642)",
           "java.base/java.lang.Thread.run(Thread.java:1583)"]
    lines += _at(top)
    lines.append("Caused by: java.net.SocketTimeoutException: Read timed out")
    lines += _at(["java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)",
                  "java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:304)",
                  "java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:346)",
                  "java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)",
                  "java.base/java.io.BufferedInputStream.fill(BufferedInputStream.java:291)",
                  "java.base/sun.net.www.http.HttpClient.parseHTTPHeader(HttpClient.java:827)",
                  "java.base/sun.net.www.http.HttpClient.parseHTTP(HttpClient.java:759)",
                  "java.base/sun.net.www.protocol.http.HttpURLConnection.getInputStream0(HttpURLConnection.java:1705)",
                  "java.base/java.net.HttpURLConnection.getResponseCode(HttpURLConnection.java:531)",
                  "feign.Client$Default.convertResponse(Client.java:111)",
                  "feign.Client$Default.execute(Client.java:107)",
                  "feign.SynchronousMethodHandler.executeAndDecode(SynchronousMethodHandler.java:121)"])
    lines.append("\t... 8 common frames omitted")
    return lines


def redis_tb(rng, kind):
    """The traceback structlog's format_exc_info writes for a refused redis connection."""
    handler = {"basket": ("basket_api/routes/basket.py", 37, "get_basket", "basket = await store.load(user.id)"),
               "items": ("basket_api/routes/basket.py", 61, "add_item", "basket = await store.load(user.id)"),
               "checkout": ("basket_api/routes/checkout.py", 44, "checkout", "basket = await store.load(user.id)"),
               "login": ("basket_api/routes/auth.py", 29, "login", "await sessions.create(account.id, token)")}[kind]
    site = "/app/.venv/lib/python3.12/site-packages"
    return "\n".join([
        "Traceback (most recent call last):",
        f'  File "{site}/redis/asyncio/connection.py", line 275, in connect',
        "    await self.retry.call_with_retry(",
        f'  File "{site}/redis/asyncio/retry.py", line 59, in call_with_retry',
        "    return await do()",
        "           ^^^^^^^^^^",
        f'  File "{site}/redis/asyncio/connection.py", line 690, in _connect',
        "    reader, writer = await asyncio.open_connection(",
        '  File "/usr/local/lib/python3.12/asyncio/streams.py", line 48, in open_connection',
        "    transport, _ = await loop.create_connection(",
        "ConnectionRefusedError: [Errno 111] Connect call failed ('10.42.7.19', 6379)",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "/app/basket_api/middleware.py", line 58, in dispatch',
        "    response = await call_next(request)",
        "               ^^^^^^^^^^^^^^^^^^^^^^^^",
        f'  File "/app/{handler[0]}", line {handler[1]}, in {handler[2]}',
        f"    {handler[3]}",
        f'  File "{site}/redis/asyncio/client.py", line 611, in execute_command',
        "    conn = self.connection or await pool.get_connection(command_name, **options)",
        f'  File "{site}/redis/asyncio/connection.py", line 283, in connect',
        "    raise ConnectionError(self._error_message(e))",
        "redis.exceptions.ConnectionError: Error 111 connecting to redis-basket.internal:6379. Connect call failed ('10.42.7.19', 6379).",
    ])


# ------------------------------------------------------------ rendering

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def time_local(t):
    return f"{t.day:02d}/{MONTHS[t.month - 1]}/{t.year}:{t:%H:%M:%S} +0000"


def edge_log(night):
    rows = sorted(((r.end, i, r) for i, r in enumerate(night.reqs)), key=lambda x: (x[0], x[1]))
    out = []
    for end, _, r in rows:
        out.append(f'{r.ip} - - [{time_local(end)}] "{r.method} {r.uri} {r.proto}" {r.status} {r.bytes} '
                   f'"{r.referer}" "{r.ua}" {r.rt_ms // 1000}.{r.rt_ms % 1000:03d}')
    return "\n".join(out) + "\n"


def iso_us(t):
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}Z"


def _json(pairs):
    import json
    return json.dumps(dict(pairs))


def py_log(night, seed):
    rng = random.Random(seed + 7)
    rows = []
    k = 0
    for r in night.reqs:
        for t, kv in r.events:
            k += 1
            rows.append((t, k, kv))
        if r.py is None:
            continue
        hund, uid = r.py
        t = r.start + timedelta(microseconds=hund * 10)
        k += 1
        level = "error" if r.status >= 500 else "warning" if r.status >= 400 else "info"
        rows.append((t, k, [("method", r.method), ("path", r.path), ("status", r.status),
                            ("duration_ms", hund / 100), ("event", "request_finished"),
                            ("request_id", r.rid), ("client_ip", r.ip), ("user_id", uid),
                            ("level", level), ("logger", "basket_api.access")]))
    for t, kv in night.pyx:
        k += 1
        rows.append((t, k, kv))
    # the uvicorn workers started again after the container was killed
    for w in range(1, 5):
        t = WORKER_BACK + timedelta(microseconds=w * 130000 + rng.randint(0, 90000))
        k += 1
        rows.append((t, k, [("pid", 7 + w), ("worker", w), ("event", "worker_started"), ("level", "info"),
                            ("logger", "basket_api.lifespan")]))
    # the menu cache, every 10 minutes
    t = START + timedelta(seconds=rng.uniform(20, 200))
    while t < END:
        k += 1
        if not (WORKER_KILL <= t < WORKER_BACK):
            rows.append((t, k, [("week", WEEK), ("recipes", len(RECIPES)), ("took_ms", round(rng.uniform(180, 420), 2)),
                                ("event", "menu_cache_refreshed"), ("level", "info"), ("logger", "basket_api.menu")]))
        t += timedelta(seconds=600 + rng.uniform(-1, 1))
    out = []
    for t, _, kv in sorted(rows, key=lambda x: (x[0], x[1])):
        kv = list(kv)
        # TimeStamper runs after add_logger_name; format_exc_info's `exception` comes last
        exc = [p for p in kv if p[0] == "exception"]
        kv = [p for p in kv if p[0] != "exception"] + [("timestamp", iso_us(t))] + exc
        out.append(_json(kv))
    return "\n".join(out) + "\n"


def abbreviate(name, target=39):
    """logback's %logger{39}: package segments cut to their first letter, from the left, until it fits."""
    if len(name) <= target:
        return name
    parts = name.split(".")
    for i in range(len(parts) - 1):
        parts[i] = parts[i][:1]
        if len(".".join(parts)) <= target:
            break
    return ".".join(parts)


def thread15(name):
    return name[-15:].rjust(15)


def java_log(night):
    out = []
    for t, _, level, th, logger, msg, trace in sorted(night.java, key=lambda e: (e[0], e[1])):
        lg = abbreviate(logger)
        lg = lg[-40:].ljust(40)
        stamp = f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z"
        out.append(f"{stamp} {level:>5} 1 --- [{thread15(th)}] {lg} : {msg}")
        out.extend(trace)
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {EDGE: edge_log(night), PY: py_log(night, seed), JAVA: java_log(night)}, night
