"""Writes the `queries-heldout22` fixtures: one night (Black Friday, 2036-11-28, 00:00-04:00 UTC) at
Fernhollow Outfitters, an outdoor-gear WooCommerce shop on one LEMP box. Three logs, written from one
shared plan (and one simulation of the PHP-FPM pool) so that the files agree:

- `shop.access.log`: nginx 1.24 `access_log` of the `shop.fernhollow.co.uk` server, the `combined`
  layout with `$request_time $upstream_response_time` appended (`-` when nginx served the request
  itself); written when a request ends, so sorted by `$time_local`;
- `shop.error.log`: the same server's `error_log` at level `warn` (`yyyy/mm/dd hh:mm:ss [level]
  pid#tid: *conn message, client: ..., server: ..., request: "...", upstream: "...", host: "..."`);
  a PHP message a FastCGI child wrote to stderr is logged as sent, so an uncaught exception's stack
  trace runs over several lines;
- `php8.3-fpm.log`: the PHP-FPM 8.3 master's log at `log_level = notice` (`[dd-Mon-yyyy hh:mm:ss]
  LEVEL: message`) for its two pools, `shop` (the storefront, `pm = dynamic`, `pm.max_children = 24`,
  `start_servers = 6`, `min/max_spare_servers = 4/10`, `pm.max_requests = 500`,
  `request_slowlog_timeout = 5s`, `request_terminate_timeout = 90s`, `listen.backlog = 64`) and
  `admin` (`/wp-admin/` and `wp-cron.php`).

nginx's `fastcgi_read_timeout` is 30 s for the storefront and 300 s for `/wp-admin/`.
Standard library only; everything comes from one seeded `random.Random`.
"""

import heapq
import math
import random
from collections import deque
from datetime import datetime, timedelta

DAY = datetime(2036, 11, 28)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def ms(x):
    return timedelta(milliseconds=x)


def secs(x):
    return timedelta(seconds=x)


START, END = T(0, 0), T(4, 0)

ACCESS, ERROR, FPM = "shop.access.log", "shop.error.log", "php8.3-fpm.log"

# every standard HTTP status: no figure an answer must hold reads like one
STATUS_LIKE = ({100, 101, 102, 103, 226, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 510, 511}
               | set(range(200, 209)) | set(range(300, 309)) | set(range(400, 419)) | set(range(500, 509)))

HOST = "shop.fernhollow.co.uk"
ROOT = "/var/www/shop"
SOCK = {"shop": "/run/php/php8.3-fpm-shop.sock", "admin": "/run/php/php8.3-fpm-admin.sock"}
WORKERS = [2211, 2212, 2213, 2214]
FPM_MASTER = 1187
MAX_CHILDREN = 24
BACKLOG = 64

WAREHOUSE_IP = "192.0.2.58"      # the warehouse's order sync: the REST API every 10 s, all night
CRAWLER_IP = "198.51.100.34"     # a price-comparison crawler: product pages and bursts of searches
UPTIME_IP = "192.0.2.241"        # the uptime monitor, once a minute
FEED_IP = "192.0.2.199"          # the marketplace feed fetcher: the 38 MB product feed every 30 min
TRADE_IP = "198.51.100.87"       # a trade customer downloading the trade catalogue (the largest reply)
SLOWDL_IP = "203.0.113.201"      # a phone on a poor link downloading the lookbook (the slowest request)
OFFICE_IP = "198.51.100.23"      # the shop's own staff (wp-admin)
SCANNERS = ["198.51.100.201", "203.0.113.150", "192.0.2.77"]
STUFFERS = [f"203.0.113.{i}" for i in (17, 23, 31, 44, 52, 61, 68, 75, 83, 96, 104, 119)]

# --- the night's planted events
SALE = T(1, 0, 0)                            # the Black Friday sale opens: the busiest minute
HANG_FROM = T(2, 14, 7, 412000)              # the geo-pricing API starts hanging every storefront request
STORM = T(2, 24)                             # shoppers hammer "update order review": the error log's busiest minute
PLUGIN_OFF = T(2, 33, 9, 0)                  # the geo-pricing plugin is switched off: no new hangs
DEPLOY = T(3, 4, 12, 300000)                 # a deploy reloads php-fpm (opcache JIT on)
ROLLBACK = T(3, 9, 52, 600000)               # the rollback reloads it again
SEGV_MINUTES = [(T(3, 5, 3), T(3, 6), 12), (T(3, 6), T(3, 7), 15), (T(3, 7), T(3, 8), 28),
                (T(3, 8), T(3, 9), 14), (T(3, 9), T(3, 9, 47), 9)]
SEGV_STRAYS = [T(0, 38, 21, 240000), T(1, 47, 55, 610000)]
ADMIN_REPORT = T(3, 12, 5, 611000)           # the year's sales report: the slowest upstream
SLOWDL_AT = T(3, 24, 37, 118000)             # the lookbook on a poor link: the slowest request
TRADE_AT = T(3, 41, 9, 204000)               # the trade catalogue: the largest reply
LONGEST_EXIT = T(2, 57, 31, 0)               # the admin child alive since yesterday's log rotation recycles
LONGEST_BORN = datetime(2036, 11, 27, 6, 25, 2, 587873)
BIG_ALLOC = 41943048

SLUGS = ["ridgeline-3-season-tent", "alder-down-jacket", "fellrunner-gtx-trail-shoe", "kestrel-45l-rucksack",
         "tarn-merino-base-layer", "cairn-trekking-poles", "bothy-camp-stove", "scree-softshell-trousers",
         "heron-packable-waterproof", "moss-insulated-gilet", "corrie-sleeping-bag-3s", "ember-titanium-mug",
         "grough-gaiters", "bracken-fleece-hoodie", "summit-headtorch-400"]
CATS = ["tents", "jackets", "footwear", "rucksacks", "base-layers", "camp-kitchen", "sale"]
TERMS = ["tent", "down+jacket", "gtx", "rucksack", "merino", "stove", "gaiters", "headtorch", "fleece", "sleeping+bag"]

UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/605.1.15",
       "Mozilla/5.0 (iPhone; CPU iPhone OS 19_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Mobile/15E148 Safari/604.1",
       "Mozilla/5.0 (X11; Linux x86_64; rv:141.0) Gecko/20100101 Firefox/141.0",
       "Mozilla/5.0 (Linux; Android 16; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36"]
UA_WAREHOUSE = "FernhollowWMS/2.7 (+ops@fernhollow.co.uk) Guzzle/7.9"
UA_CRAWLER = "Mozilla/5.0 (compatible; PricewatchBot/3.1; +https://pricewatch.example/bot)"
UA_UPTIME = "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)"
UA_FEED = "MarketFeedFetcher/1.4 (+https://marketplace.example/feeds)"
UA_STUFF = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0"
UA_SCAN = "Mozilla/5.0 (l9scan/2.0.7; +https://leakix.net)"

THEME = "/wp-content/themes/fernhollow/assets"
STATIC = [(f"{THEME}/css/main.8f3a1c.css", 48213, 48990), (f"{THEME}/js/app.41d7e2.js", 183331, 184020),
          ("/wp-includes/js/jquery/jquery.min.js", 87553, 87553),
          ("/wp-content/plugins/woocommerce/assets/js/frontend/cart-fragments.min.js", 5620, 5620),
          (f"{THEME}/fonts/inter-var.woff2", 98112, 98112)]

W_ZONES = ("/var/www/shop/wp-content/plugins/fern-shipping-zones/includes/class-zone-matcher.php", 212,
           'Undefined array key "billing_state"')
W_RELATED = ("/var/www/shop/wp-content/themes/fernhollow/woocommerce/single-product/related.php", 37,
             'Attempt to read property "ID" on null')
W_GIFT = ("/var/www/shop/wp-content/plugins/wc-gift-wrap/includes/class-gift-wrap-cart.php", 96,
          "foreach() argument must be of type array|object, null given")
D_GEO = ("/var/www/shop/wp-content/plugins/fern-geo-pricing/src/Client.php", 58,
         "Creation of dynamic property Fern\\GeoPricing\\Client::$timeout is deprecated")


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _plateau(values, p, fix, pad=3):
    """Raises the values around every percentile definition's rank of the p-th percentile to one
    value (the window's top, nudged by `fix`), so that all definitions agree. Returns (value, new list)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    n = len(values)
    x = p / 100
    ranks = [math.ceil(x * n) - 1, int((n - 1) * x), int((n - 1) * x) + 1, int((n + 1) * x - 1),
             int((n + 1) * x - 1) + 1, int(x * n)]
    lo, hi = max(0, min(ranks) - pad), min(n - 1, max(ranks) + pad)
    v = fix(values[order[hi]])
    out = list(values)
    for i in order[lo:]:
        if out[i] < v:
            out[i] = v
    return v, out


def error_page(code):
    text = {502: "Bad Gateway", 504: "Gateway Time-out", 429: "Too Many Requests", 403: "Forbidden", 404: "Not Found"}[code]
    return len(f"<html>\r\n<head><title>{code} {text}</title></head>\r\n<body>\r\n<center><h1>{code} {text}</h1></center>\r\n"
               "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")


class Req:
    """One request as nginx sees it; `pool` set for a PHP request (its outcome comes from the pool)."""
    __slots__ = ("arr", "ip", "method", "uri", "proto", "ref", "ua", "pool", "svc", "status", "bytes", "rt", "urt",
                 "end", "kind", "flag", "accepted", "pid", "hang", "crash", "eagain", "fpm_req", "script", "seq")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, None)
        for k, v in kw.items():
            setattr(self, k, v)


class Pool:
    """A small simulation of a `pm = dynamic` PHP-FPM pool behind a unix socket with a listen backlog:
    the children, the backlog, the once-a-second maintenance (spawning, idle reaping, the max_children
    warning), pm.max_requests, the slow log and request_terminate_timeout."""

    def __init__(self, night, name, born):
        self.n, self.name = night, name
        self.children = {}          # pid -> dict(start, busy, served, idle_since)
        self.queue = deque()
        self.spawn_rate, self.warn = 1, False
        for b, served in born:
            self._child(b, served, log=False)

    def _child(self, t, served=0, log=True):
        self.n.next_pid += self.n.rng.randint(1, 37)
        pid = self.n.next_pid
        self.children[pid] = {"start": t, "busy": None, "served": served, "idle_since": t}
        if log:
            self.n.F(t, "NOTICE", f"[pool {self.name}] child {pid} started")
        return pid

    def _exit(self, t, pid, how):
        c = self.children.pop(pid)
        age = (t - c["start"]).total_seconds()
        lvl = "NOTICE" if how == "code 0" else "WARNING"
        what = "exited with code 0" if how == "code 0" else f"exited on signal {how}"
        self.n.F(t, lvl, f"[pool {self.name}] child {pid} {what} after {age:.6f} seconds from start")
        self.n.exits.append((t, pid, self.name, how, age))

    def idle(self):
        return [p for p, c in self.children.items() if c["busy"] is None]

    def run(self, reqs, ticks_from, ticks_to, reloads):
        rng = self.n.rng
        ev = []
        seq = [0]

        def push(t, kind, data=None):
            seq[0] += 1
            heapq.heappush(ev, (t, seq[0], kind, data))

        for r in reqs:
            push(r.arr, "arrive", r)
        t = ticks_from + ms(rng.uniform(0, 999))
        while t < ticks_to:
            push(t, "tick")
            t += secs(1)
        for t in reloads:
            push(t, "reload")

        def start(pid, r, now):
            c = self.children[pid]
            c["busy"] = r
            r.accepted, r.pid = now, pid
            if r.crash:
                push(now + ms(rng.uniform(40, 380)), "segv", pid)
            elif HANG_FROM <= now < PLUGIN_OFF and r.flag != "nohang":
                r.hang = True
                push(now + secs(5 + rng.uniform(0.01, 0.99)), "slow", (pid, r))
                push(now + secs(90 + rng.uniform(0.01, 0.99)), "term", pid)
            else:
                if r.svc >= 5:
                    push(now + secs(5 + rng.uniform(0.01, min(0.99, r.svc - 5.01))), "slow", (pid, r))
                push(now + secs(r.svc), "done", pid)

        def dispatch(now):
            while self.queue:
                free = self.idle()
                if not free:
                    return
                start(min(free), self.queue.popleft(), now)

        while ev:
            now, _, kind, data = heapq.heappop(ev)
            if kind == "arrive":
                free = self.idle()
                if free:
                    start(rng.choice(sorted(free)), data, now)
                elif len(self.queue) < BACKLOG:
                    self.queue.append(data)
                else:
                    data.eagain = True
            elif kind == "slow":
                pid, r = data
                if pid in self.children and self.children[pid]["busy"] is r:
                    v = (now - r.accepted).total_seconds()
                    self.n.slow.append((now, pid, self.name, r.fpm_req, v))
                    self.n.F(now, "WARNING", f"[pool {self.name}] child {pid}, script '{r.script}' (request: \"{r.fpm_req}\") "
                                             f"executing too slow ({v:.6f} sec), logging")
                    self.n.F(now, "NOTICE", f"child {pid} stopped for tracing")
                    self.n.F(now, "NOTICE", f"about to trace {pid}")
                    self.n.F(now, "NOTICE", f"finished trace of {pid}")
            elif kind == "done":
                if data not in self.children:
                    continue
                c = self.children[data]
                c["busy"], c["idle_since"] = None, now
                c["served"] += 1
                if c["served"] >= 500:
                    self._exit(now, data, "code 0")
                    self._child(now)
                dispatch(now)
            elif kind == "term":
                if data not in self.children:
                    continue
                r = self.children[data]["busy"]
                v = (now - r.accepted).total_seconds()
                self.n.F(now, "WARNING", f"[pool {self.name}] child {data}, script '{r.script}' (request: \"{r.fpm_req}\") "
                                         f"execution timed out ({v:.6f} sec), terminating")
                self.n.terminated.append(now)
                self._exit(now, data, "15 (SIGTERM)")
                self._child(now)
                dispatch(now)
            elif kind == "segv":
                if data not in self.children:
                    continue
                r = self.children[data]["busy"]
                r.end = now
                self._exit(now, data, "11 (SIGSEGV - core dumped)")
                self.n.segv.append(now)
                self._child(now)
                dispatch(now)
            elif kind == "reload":
                # the master re-executes itself: the old children go without a line, start_servers new ones
                self.n.reload_lines(now)
                for pid in sorted(self.children):
                    c = self.children.pop(pid)
                    if c["busy"] is not None and c["busy"].accepted is not None and not c["busy"].hang:
                        pass    # the request in flight was answered (graceful quit)
                for _ in range(6):
                    self._child(now, 0, log=False)
                self.spawn_rate, self.warn = 1, False
                dispatch(now)
            elif kind == "tick":
                free = self.idle()
                total = len(self.children)
                if len(free) > 10:
                    pid = min(free, key=lambda p: (self.children[p]["idle_since"], p))
                    self._exit(now, pid, "code 0")
                    self.spawn_rate = 1
                elif len(free) < 4:
                    if total >= MAX_CHILDREN:
                        if not self.warn:
                            self.n.F(now, "WARNING", f"[pool {self.name}] server reached pm.max_children setting ({MAX_CHILDREN}), consider raising it")
                            self.n.maxwarn.append(now)
                            self.warn = True
                        self.spawn_rate = 1
                        continue
                    if self.spawn_rate >= 8:
                        self.n.F(now, "WARNING", f"[pool {self.name}] seems busy (you may need to increase pm.start_servers, or "
                                                 f"pm.min/max_spare_servers), spawning {self.spawn_rate} children, there are "
                                                 f"{len(free)} idle, and {total} total children")
                        self.n.busy.append(now)
                    k = min(self.spawn_rate, 4 - len(free), MAX_CHILDREN - total)
                    self.warn = False
                    for _ in range(k):
                        self._child(now)
                    if self.spawn_rate < 32:
                        self.spawn_rate *= 2
                    dispatch(now)
                else:
                    self.spawn_rate = 1


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.reqs = []
        self.fpm = []       # (t, seq, level, msg)
        self.err = []       # (t, seq, level, worker, conn, msg)
        self.seq = 0
        self.next_pid = 618400
        self.slow, self.exits, self.segv, self.terminated, self.maxwarn, self.busy = [], [], [], [], [], []
        self.reloads = []
        self._traffic()
        self._php()
        self._finish()

    def F(self, t, level, msg):
        self.seq += 1
        self.fpm.append((t, self.seq, level, msg))

    def reload_lines(self, t):
        self.reloads.append(t)
        for msg in ["Reloading in progress ...",
                    'reloading: execvp("/usr/sbin/php-fpm8.3", {"/usr/sbin/php-fpm8.3", "--nodaemonize", "--fpm-config", '
                    '"/etc/php/8.3/fpm/php-fpm.conf"})',
                    f'using inherited socket fd=8, "{SOCK["shop"]}"', f'using inherited socket fd=9, "{SOCK["admin"]}"',
                    f"fpm is running, pid {FPM_MASTER}", "ready to handle connections", "systemd monitor interval set to 10000ms"]:
            self.F(t, "NOTICE", msg)

    # ------------------------------------------------------------ requests
    def R(self, arr, ip, method, uri, ua, **kw):
        r = Req(arr=arr, ip=ip, method=method, uri=uri, ua=ua, **kw)
        if r.proto is None:
            r.proto = "HTTP/2.0" if self.rng.random() < 0.75 else "HTTP/1.1"
        if r.ref is None:
            r.ref = "-"
        self.reqs.append(r)
        return r

    def php(self, arr, ip, method, uri, ua, svc, pool="shop", **kw):
        path, _, q = uri.partition("?")
        if pool == "admin":
            script = ROOT + path if path.endswith(".php") else ROOT + path + "index.php"
            fpm_req = f"{method} {path}{'?' + q if q else ''}"
        elif path == "/wp-login.php":
            script, fpm_req = ROOT + path, f"{method} {path}{'?' + q if q else ''}"
        else:
            script, fpm_req = f"{ROOT}/index.php", f"{method} /index.php{'?' + q if q else ''}"
        return self.R(arr, ip, method, uri, ua, pool=pool, svc=svc, script=script, fpm_req=fpm_req, kind="php", **kw)

    def static(self, arr, ip, uri, ua, size, status=200, rt=None, ref=None):
        rng = self.rng
        rt = rt if rt is not None else (0.0 if rng.random() < 0.6 else rng.uniform(0.001, 0.004) + size / 9e7)
        return self.R(arr, ip, "GET", uri, ua, kind="static", status=status, bytes=size, rt=rt, ref=ref)

    def contention(self, t):
        """How much slower the storefront runs: the sale's first minutes are the worst."""
        if SALE <= t < SALE + secs(420):
            x = (t - SALE).total_seconds()
            return 11.0 if x < 95 else max(1.0, 9.0 - (x - 95) / 38)
        return 1.0

    def visit(self, t, ip, ua, sale=False):
        """A shopper's page view and what it pulls (a PHP request, then static files)."""
        rng = self.rng
        ref = f"https://{HOST}/" if rng.random() < 0.6 else "-"
        k = rng.random()
        f = self.contention(t)
        if sale:
            k = rng.choice([0.3, 0.5, 0.55, 0.72, 0.8, 0.86, 0.9, 0.95])
        if k < 0.12:
            r = self.php(t, ip, "GET", "/", ua, _lognorm(rng, 0.16, 0.3) * min(f, 3), ref=ref)
        elif k < 0.45:
            s = rng.choice(SLUGS)
            r = self.php(t, ip, "GET", f"/product/{s}/", ua, _lognorm(rng, 0.24, 0.35) * min(f, 4), ref=ref)
        elif k < 0.53:
            r = self.php(t, ip, "GET", f"/product-category/{rng.choice(CATS)}/", ua, _lognorm(rng, 0.3, 0.3) * min(f, 4), ref=ref)
        elif k < 0.62:
            r = self.php(t, ip, "POST", "/?wc-ajax=add_to_cart", ua, _lognorm(rng, 0.19, 0.35) * f,
                         ref=f"https://{HOST}/product/{rng.choice(SLUGS)}/")
        elif k < 0.7:
            r = self.php(t, ip, "POST", "/?wc-ajax=get_refreshed_fragments", ua, _lognorm(rng, 0.09, 0.3) * min(f, 3), ref=ref)
        elif k < 0.78:
            r = self.php(t, ip, "GET", "/cart/", ua, _lognorm(rng, 0.28, 0.3) * f, ref=f"https://{HOST}/")
        elif k < 0.84:
            r = self.php(t, ip, "GET", "/checkout/", ua, _lognorm(rng, 0.33, 0.3) * f, ref=f"https://{HOST}/cart/")
        elif k < 0.9:
            r = self.php(t, ip, "POST", "/?wc-ajax=update_order_review", ua, _lognorm(rng, 0.41, 0.3) * f,
                         ref=f"https://{HOST}/checkout/")
        elif k < 0.93:
            r = self.php(t, ip, "POST", "/?wc-ajax=checkout", ua, _lognorm(rng, 0.62, 0.3) * f, ref=f"https://{HOST}/checkout/")
        elif k < 0.97:
            r = self.php(t, ip, "GET", f"/?s={rng.choice(TERMS)}&post_type=product", ua, _lognorm(rng, 0.5, 0.3) * min(f, 3), ref=ref)
        else:
            r = self.php(t, ip, "GET", "/my-account/", ua, _lognorm(rng, 0.22, 0.3) * min(f, 3), ref=ref)
        if r.method == "GET" and rng.random() < 0.55:
            page = f"https://{HOST}{r.uri}"
            for _ in range(rng.randint(1, 4)):
                t2 = t + ms(rng.uniform(200, 2500))
                if rng.random() < 0.45:
                    uri, lo, hi = rng.choice(STATIC)
                    if rng.random() < 0.6:
                        a = self.static(t2, ip, uri, ua, 0, status=304, ref=page)
                    else:
                        a = self.static(t2, ip, uri, ua, rng.randint(lo, hi), ref=page)
                else:
                    s = rng.choice(SLUGS)
                    a = self.static(t2, ip, f"/wp-content/uploads/2036/{rng.choice(['09', '10', '11'])}/{s}-600x600.webp", ua,
                                    rng.randint(18000, 96000), ref=page)
                a.proto = r.proto
        return r

    def _traffic(self):
        rng = self.rng
        pool = [f"{net}.{i}" for net in ("203.0.113", "198.51.100", "192.0.2") for i in range(1, 255)]
        special = set(STUFFERS + SCANNERS + [WAREHOUSE_IP, CRAWLER_IP, UPTIME_IP, FEED_IP, TRADE_IP, SLOWDL_IP, OFFICE_IP])
        pool = [ip for ip in pool if ip not in special]
        pool = rng.sample(pool, 470)
        self.pool_ips = pool
        shopper = lambda: rng.choice(pool[:240]) if rng.random() < 0.65 else rng.choice(pool)  # noqa: E731

        # shoppers, all night
        for t in _poisson(rng, START, END, 16.0):
            self.visit(t, shopper(), rng.choice(UAS))
        # the sale: the email goes out at 01:00
        for m, rate in enumerate([500, 210, 130, 90, 70, 55, 45, 38, 32, 28]):
            for t in _poisson(rng, SALE + timedelta(minutes=m), SALE + timedelta(minutes=m + 1), rate):
                self.visit(t, rng.choice(pool), rng.choice(UAS), sale=True)
        # the storm: shoppers stuck on checkout keep pressing "place order" / changing the address
        for _ in range(96):
            t = STORM + secs(rng.uniform(0.5, 59.5))
            self.php(t, rng.choice(pool), "POST", "/?wc-ajax=update_order_review", rng.choice(UAS), _lognorm(rng, 0.41, 0.3),
                     ref=f"https://{HOST}/checkout/")
        # the first hung request, at its planted second
        self.php(HANG_FROM, rng.choice(pool), "POST", "/?wc-ajax=update_order_review", UAS[2], 0.4,
                 ref=f"https://{HOST}/checkout/")
        # the segfaults after the deploy (a product page with variations crashes the JIT), and two strays
        for a, b, k in SEGV_MINUTES:
            span = (b - a).total_seconds()
            for x in sorted(rng.uniform(0.2, span - 0.6) for _ in range(k)):
                self.php(a + secs(x), rng.choice(pool), "GET", f"/product/{rng.choice(SLUGS[:6])}/?attribute_pa_size="
                         f"{rng.choice(['s', 'm', 'l', 'xl'])}", rng.choice(UAS), 0.3, crash=True, flag="nohang")
        for t in SEGV_STRAYS:
            self.php(t, rng.choice(pool), "GET", f"/product/{SLUGS[1]}/?attribute_pa_colour=ember", UAS[0], 0.3, crash=True)
        # the warehouse's order sync: every 10 s, a big page every 5 minutes
        t = START + ms(rng.uniform(0, 9000))
        i = 0
        while t < END:
            big = i % 30 == 7
            uri = ("/wp-json/wc/v3/orders?status=processing&per_page=100&page=1&orderby=date&order=asc" if big
                   else f"/wp-json/wc/v3/orders?status=processing&per_page=20&after=2036-11-27T00:00:00&page={rng.randint(1, 3)}")
            self.php(t, WAREHOUSE_IP, "GET", uri, UA_WAREHOUSE, _lognorm(rng, 1.4 if big else 0.33, 0.25) * min(self.contention(t), 2),
                     proto="HTTP/1.1", flag="big" if big else None)
            t += secs(10) + ms(rng.uniform(-400, 400))
            i += 1
        # the crawler: product pages all night and bursts of searches (limit_req zone=search 2r/s burst=10 nodelay)
        for t in _poisson(rng, T(0, 20), T(3, 40), 4.2):
            self.php(t, CRAWLER_IP, "GET", f"/product/{rng.choice(SLUGS)}/", UA_CRAWLER, _lognorm(rng, 0.24, 0.3), proto="HTTP/1.1",
                     flag="crawl")
        self.bursts(CRAWLER_IP, UA_CRAWLER, [T(0, 31, 12), T(0, 58, 40), T(1, 22, 5), T(1, 39, 51), T(1, 58, 17), T(2, 49, 33),
                                             T(3, 1, 8), T(3, 18, 44), T(3, 29, 2), T(3, 36, 27)],
                    lambda: f"/?s={rng.choice(TERMS)}&post_type=product&paged={rng.randint(1, 6)}", 32, 3.2, "search", 10, 2)
        # credential stuffing on wp-login.php (limit_req zone=wplogin 1r/s burst=5 nodelay)
        times = []
        for ip in STUFFERS:
            for t in sorted(rng.sample(range(60, 14000), rng.randint(3, 5))):
                times.append((START + secs(t + rng.random()), ip))
        for t, ip in sorted(times):
            self.bursts(ip, UA_STUFF, [t], lambda: "/wp-login.php", rng.randint(12, 22), rng.uniform(2.5, 6), "wplogin", 5, 1,
                        method="POST")
        # the uptime monitor
        t = START + ms(rng.uniform(0, 59000))
        while t < END:
            self.php(t, UPTIME_IP, "HEAD", "/", UA_UPTIME, _lognorm(rng, 0.12, 0.2), proto="HTTP/1.1", flag="head")
            t += secs(60) + ms(rng.uniform(-30, 30))
        # the marketplace feed, every 30 minutes (a static file, regenerated by cron)
        for k in range(8):
            t = T(0, 7, 13, 500000) + timedelta(minutes=30 * k) + ms(rng.uniform(0, 800))
            size = 38112040 + rng.randint(0, 400000)
            self.static(t, FEED_IP, "/wp-content/uploads/feeds/marketplace-products.xml", UA_FEED, size, rt=size / 1.9e7,
                        ref="-").proto = "HTTP/1.1"
        # the slowest request and the largest reply
        self.static(SLOWDL_AT, SLOWDL_IP, "/wp-content/uploads/2036/10/fernhollow-winter-lookbook-2036.pdf", UAS[2], 12604118,
                    rt=187.412, ref=f"https://{HOST}/lookbook/")
        for k in range(4):
            self.visit(TRADE_AT - secs(240 - k * 47), TRADE_IP, UAS[0])
        self.static(TRADE_AT, TRADE_IP, "/wp-content/uploads/trade/fernhollow-trade-catalogue-2037.pdf", UAS[0], 74213118,
                    rt=3.118, ref=f"https://{HOST}/trade/")
        # scanners: dotfiles and backups (location ~ /\. { deny all; } and the backup rule: 403)
        probes = ["/.env", "/.git/config", "/.git/HEAD", "/.aws/credentials", "/.DS_Store", "/wp-config.php.bak",
                  "/.htpasswd", "/.vscode/sftp.json", "/backup.sql.gz", "/.env.production", "/wp-config.php~"]
        for ip, n, a in zip(SCANNERS, (118, 37, 29), (T(0, 12, 40), T(1, 51, 10), T(3, 33, 5))):
            for j in range(n):
                t = a + secs(j * 4.6 + rng.uniform(0, 4))
                self.R(t, ip, "GET", rng.choice(probes) if j % 3 else probes[j % len(probes)], UA_SCAN, kind="forbid",
                       status=403, bytes=error_page(403), rt=0.0, proto="HTTP/1.1")
        # old image links: open() failed, 404
        gone = [f"/wp-content/uploads/2034/0{m}/{s}-300x300.jpg" for m in (3, 4, 7) for s in SLUGS[:5]]
        for t in _poisson(rng, START, END, 0.45):
            self.R(t, shopper(), "GET", rng.choice(gone), rng.choice(UAS), kind="notfound", status=404, bytes=error_page(404),
                   rt=0.0, ref=f"https://{HOST}/blog/{rng.choice(['packing-list', 'winter-layers', 'tent-care'])}/")
        # staff in wp-admin (the admin pool), wp-cron, the heartbeat
        for t in _poisson(rng, T(0, 5), T(3, 55), 0.55):
            k = rng.random()
            if k < 0.6:
                self.php(t, OFFICE_IP, "POST", "/wp-admin/admin-ajax.php", UAS[1], _lognorm(rng, 0.21, 0.3), pool="admin",
                         ref=f"https://{HOST}/wp-admin/edit.php?post_type=shop_order")
            else:
                self.php(t, OFFICE_IP, "GET", rng.choice(["/wp-admin/edit.php?post_type=shop_order", "/wp-admin/admin.php?page=wc-orders",
                                                          "/wp-admin/post.php?post=918273&action=edit"]),
                         UAS[1], _lognorm(rng, 0.6, 0.3), pool="admin", ref=f"https://{HOST}/wp-admin/")
        for t in _poisson(rng, START, END, 0.5):
            self.php(t, "127.0.0.1", "POST", f"/wp-cron.php?doing_wp_cron={1795824000 + int((t - T(0, 0)).total_seconds())}.{rng.randint(100000, 999999)}0000",
                     f"WordPress/6.9; https://{HOST}", _lognorm(rng, 0.9, 0.5), pool="admin", proto="HTTP/1.1")
        self.php(ADMIN_REPORT, OFFICE_IP, "GET", "/wp-admin/admin.php?page=wc-reports&tab=orders&range=year", UAS[1], 47.31,
                 pool="admin", ref=f"https://{HOST}/wp-admin/admin.php?page=wc-reports")
        # memory-exhausted fatals: the order export (admin) and the feed's product query
        self.fatal_mem = []
        for t, alloc, pool_ in [(T(0, 52, 18, 300000), 20480, "admin"), (T(1, 26, 40, 100000), 4096, "admin"),
                                (T(2, 3, 9, 900000), 20480, "admin"), (T(3, 44, 2, 500000), BIG_ALLOC, "admin"),
                                (T(3, 45, 31, 200000), 16777224, "admin"), (T(3, 47, 12, 800000), 32768, "admin")]:
            self.fatal_mem.append(t)
            self.php(t, OFFICE_IP, "GET", "/wp-admin/admin.php?page=wc-order-export&action=run&format=csv&range=last_year", UAS[1],
                     _lognorm(rng, 6.5, 0.2), pool="admin", flag=("memfatal", alloc), ref=f"https://{HOST}/wp-admin/admin.php?page=wc-order-export")

    def bursts(self, ip, ua, starts, uri, n, span, zone, burst, rate, method="GET"):
        """A burst of n requests within `span` seconds against limit_req (rate r/s, burst, nodelay): the excess is rejected (429)."""
        rng = self.rng
        for a in starts:
            times = sorted(a + secs(rng.uniform(0, span)) for _ in range(n))
            excess, last = 0.0, None
            for t in times:
                if last is not None:
                    excess = max(0.0, excess - rate * (t - last).total_seconds())
                last = t
                if excess + 1 > burst + 1e-9:
                    self.R(t, ip, method, uri(), ua, kind="limit", status=429, bytes=error_page(429), rt=0.0,
                           flag=(zone, excess + 1), proto="HTTP/1.1")
                else:
                    excess += 1
                    if zone == "wplogin":
                        self.php(t, ip, method, uri(), ua, _lognorm(rng, 0.34, 0.2), proto="HTTP/1.1", ref=f"https://{HOST}/wp-login.php")
                    else:
                        self.php(t, ip, method, uri(), ua, _lognorm(rng, 0.5, 0.3), proto="HTTP/1.1")

    # ------------------------------------------------------------ the PHP pools
    def _php(self):
        rng = self.rng
        # the storefront pool: 10 children alive at midnight, born yesterday evening
        born = [(datetime(2036, 11, 27, 17, 0) + secs(rng.uniform(0, 24000)), rng.randint(120, 470)) for _ in range(10)]
        shop = Pool(self, "shop", sorted(born))
        shop_reqs = sorted((r for r in self.reqs if r.pool == "shop"), key=lambda r: r.arr)
        shop.run(shop_reqs, START, END + secs(60), [DEPLOY, ROLLBACK])
        # the admin pool: quiet; its slow requests, its long-lived child's recycling
        self.next_pid += 40
        report = None
        for r in (r for r in self.reqs if r.pool == "admin"):
            r.accepted = r.arr
            if r.svc >= 5:
                pid = 402117 + rng.randint(0, 3) * 9
                v = 5 + rng.uniform(0.01, 0.99)
                self.slow.append((r.arr + secs(v), pid, "admin", r.fpm_req, v))
                self.F(r.arr + secs(v), "WARNING", f"[pool admin] child {pid}, script '{r.script}' (request: \"{r.fpm_req}\") "
                                                  f"executing too slow ({v:.6f} sec), logging")
                if r.arr == ADMIN_REPORT:
                    report = (len(self.slow) - 1, len(self.fpm) - 1, r, pid)
                for msg in (f"child {pid} stopped for tracing", f"about to trace {pid}", f"finished trace of {pid}"):
                    self.F(r.arr + secs(v), "NOTICE", msg)
        self._tune_mean(report)
        pid = 388112
        age = (LONGEST_EXIT - LONGEST_BORN).total_seconds()
        self.F(LONGEST_EXIT, "NOTICE", f"[pool admin] child {pid} exited with code 0 after {age:.6f} seconds from start")
        self.exits.append((LONGEST_EXIT, pid, "admin", "code 0", age))
        self.F(LONGEST_EXIT, "NOTICE", f"[pool admin] child {self.next_pid} started")
        self.longest = (pid, age)

    def _tune_mean(self, report):
        """The mean of the slow log's seconds off its 2-decimal rounding edge: the report's own figure moved."""
        i, j, r, pid = report
        others = sum(x[4] for k, x in enumerate(self.slow) if k != i)
        n = len(self.slow)
        for k in range(0, 980):
            v = 5.011 + k * 0.001 + 0.000317
            m = (others + v) * 100 / n
            if 0.12 < m % 1 < 0.38:
                break
        t, _, _, req, _ = self.slow[i]
        t = r.arr + secs(v)
        self.slow[i] = (t, pid, "admin", req, v)
        _, seq, lvl, _ = self.fpm[j]
        self.fpm[j] = (t, seq, lvl, f"[pool admin] child {pid}, script '{r.script}' (request: \"{r.fpm_req}\") "
                                    f"executing too slow ({v:.6f} sec), logging")
        for x in range(1, 4):
            a, sq, lv, msg = self.fpm[j + x]
            self.fpm[j + x] = (t, sq, lv, msg)

    def _finish(self):
        """What nginx logged for each request, given what the pool did."""
        rng = self.rng
        for r in self.reqs:
            if r.kind != "php":
                r.end = r.arr + secs(r.rt)
                r.urt = None
                continue
            if r.pool == "admin":
                r.urt = round(r.svc, 3)
                if r.flag and r.flag[0] == "memfatal":
                    r.status, r.bytes = 500, rng.randint(2580, 2660)
                else:
                    r.status, r.bytes = 200, self.body(r)
            elif r.eagain:
                r.status, r.bytes, r.urt = 502, error_page(502), 0.0
                r.end = r.arr
                r.kind = "eagain"
            elif r.crash:
                r.status, r.bytes = 502, error_page(502)
                r.urt = round((r.end - r.arr).total_seconds(), 3)
                r.kind = "reset"
            else:
                answered = None if r.hang else r.accepted + secs(r.svc)
                if answered is None or (answered - r.arr).total_seconds() >= 30:
                    r.urt = round(30 + rng.uniform(0.0005, 0.004), 3)
                    r.status, r.bytes = 504, error_page(504)
                    r.kind = "timeout"
                else:
                    r.urt = round((answered - r.arr).total_seconds(), 3)
                    r.status, r.bytes = 200, self.body(r)
            if r.kind == "eagain":
                r.rt = 0.0
            elif r.kind == "reset":
                r.rt = r.urt
            else:
                r.rt = round(r.urt + rng.choice([0.0, 0.0, 0.001, 0.002]), 3)
                r.end = r.arr + secs(r.rt) + ms(rng.uniform(0.05, 0.5))
            if r.method == "HEAD":
                r.bytes = 0
        # the gift-wrap fee crashes some cart pages (uncaught TypeError): 500s all night
        carts = [r for r in self.reqs if r.uri == "/cart/" and r.status == 200 and r.pool == "shop"
                 and not (SALE <= r.arr < SALE + secs(600)) and not (HANG_FROM - secs(60) <= r.arr < PLUGIN_OFF + secs(180))]
        for r in rng.sample(carts, 71):
            r.status, r.bytes, r.flag = 500, rng.randint(2580, 2660), "typeerror"
        # PHP warnings and deprecations on some answered pages (one message a request)
        ok = [r for r in self.reqs if r.pool == "shop" and r.status == 200 and r.flag is None]
        for r in ok:
            x = rng.random()
            if r.uri in ("/checkout/", "/?wc-ajax=update_order_review", "/?wc-ajax=checkout") and x < 0.42:
                r.flag = ("warn", W_ZONES, "Warning")
            elif r.uri.startswith("/product/") and x < 0.045:
                r.flag = ("warn", W_RELATED, "Warning")
            elif r.uri == "/cart/" and x < 0.1:
                r.flag = ("warn", W_GIFT, "Warning")
            elif r.uri == "/" and x < 0.22:
                r.flag = ("warn", D_GEO, "Deprecated")
        # no byte count reads like a status of these logs
        for r in self.reqs:
            if r.bytes and 100 <= r.bytes <= 599 and r.kind in ("php", "static") and r.status in (200, 304):
                r.bytes += 640
        self.reqs = [r for r in self.reqs if r.end < END - secs(1)]
        self._plateau_orders()
        self._tune_share()
        self.reqs.sort(key=lambda r: (r.end, r.arr))

    def body(self, r):
        rng = self.rng
        u = r.uri
        if r.flag == "big":
            return rng.randint(301000, 342000)
        if u.startswith("/wp-json/"):
            return rng.randint(14000, 32000)
        if r.flag == "crawl":
            return rng.randint(98000, 131000)
        if u.startswith("/product/") or u.startswith("/product-category/"):
            return rng.randint(71000, 118000)
        if u == "/":
            return rng.randint(64000, 70000)
        if u.startswith("/?wc-ajax="):
            return rng.randint(610, 9400)
        if u.startswith("/wp-admin/admin-ajax"):
            return rng.randint(640, 1900)
        if u.startswith("/wp-admin/"):
            return rng.randint(88000, 210000)
        if u.startswith("/wp-cron"):
            return 0
        if u.startswith("/?s="):
            return rng.randint(52000, 90000)
        if u == "/wp-login.php":
            return rng.randint(6100, 6400)
        return rng.randint(42000, 76000)

    def _plateau_orders(self):
        """The warehouse's answered (200) order polls: their request_time p95 on a plateau."""
        rows = [r for r in self.reqs if r.ip == WAREHOUSE_IP and r.status == 200]

        def fix(x):
            return round(math.floor(x * 1000) / 1000 + 0.001, 3)
        self.orders_p95, vals = _plateau([r.rt for r in rows], 95, fix)
        for r, v in zip(rows, vals):
            if v != r.rt:
                d = v - r.rt
                r.rt = v
                r.urt = round(r.urt + d, 3)
                r.end += secs(d)

    def _tune_share(self):
        """The share of 5xx off its rounding edge: a few more late page views."""
        rng = self.rng
        while True:
            n = len(self.reqs)
            d = sum(1 for r in self.reqs if r.status >= 500)
            p = 100 * d / n
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            t = T(3, 52) + secs(rng.uniform(0, 300))
            uri, lo, hi = STATIC[rng.randint(0, 4)]
            self.static(t, rng.choice(self.pool_ips), uri, rng.choice(UAS), rng.randint(lo, hi), ref=f"https://{HOST}/")
            self.reqs[-1].end = t + secs(self.reqs[-1].rt)


# ------------------------------------------------------------ rendering

MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def _clf(t):
    return f"{t.day:02d}/{MON[t.month - 1]}/{t.year}:{t:%H:%M:%S} +0000"


def access_log(night):
    out = []
    for r in night.reqs:
        urt = "-" if r.urt is None else f"{r.urt:.3f}"
        out.append(f'{r.ip} - - [{_clf(r.end)}] "{r.method} {r.uri} {r.proto}" {r.status} {r.bytes} "{r.ref}" "{r.ua}" '
                   f"{r.rt:.3f} {urt}")
    return "\n".join(out) + "\n"


def _trace_gift():
    f = W_GIFT[0]
    return ("PHP message: PHP Fatal error:  Uncaught TypeError: number_format(): Argument #1 ($num) must be of type float, "
            f"string given in {f}:148\nStack trace:\n#0 {f}(148): number_format()\n"
            "#1 /var/www/shop/wp-includes/class-wp-hook.php(324): Gift_Wrap_Cart->render_fee()\n"
            "#2 /var/www/shop/wp-includes/class-wp-hook.php(348): WP_Hook->apply_filters()\n"
            "#3 /var/www/shop/wp-includes/plugin.php(517): WP_Hook->do_action()\n"
            "#4 /var/www/shop/wp-content/plugins/woocommerce/templates/cart/cart-totals.php(31): do_action()\n"
            "#5 /var/www/shop/wp-content/plugins/woocommerce/includes/wc-core-functions.php(345): include('...')\n"
            "#6 {main}\n"
            f"  thrown in {f} on line 148")


def error_log(night, seed):
    rng = random.Random(seed + 2)
    ev = []
    conn = [8803112]
    order = sorted(night.reqs, key=lambda r: r.arr)
    cid = {}
    for r in order:
        conn[0] += rng.randint(1, 9)
        cid[id(r)] = conn[0]

    def E(t, level, r, msg, upstream=True, ref=True):
        tail = f", client: {r.ip}, server: {HOST}, request: \"{r.method} {r.uri} {r.proto}\""
        if upstream:
            tail += f', upstream: "fastcgi://unix:{SOCK[r.pool]}:"'
        tail += f', host: "{HOST}"'
        if ref and r.ref != "-":
            tail += f', referrer: "{r.ref}"'
        ev.append((t, len(ev), level, rng.choice(WORKERS), cid[id(r)], msg + tail))

    for r in order:
        if r.kind == "timeout":
            E(r.end, "error", r, "upstream timed out (110: Connection timed out) while reading response header from upstream")
        elif r.kind == "eagain":
            E(r.arr, "error", r, f"connect() to unix:{SOCK[r.pool]} failed (11: Resource temporarily unavailable) while connecting to upstream")
        elif r.kind == "reset":
            E(r.end, "error", r, "recv() failed (104: Connection reset by peer) while reading response header from upstream")
        elif r.kind == "limit":
            zone, excess = r.flag
            E(r.arr, "error", r, f'limiting requests, excess: {excess:.3f} by zone "{zone}"', upstream=False)
        elif r.kind == "forbid":
            E(r.arr, "error", r, "access forbidden by rule", upstream=False, ref=False)
        elif r.kind == "notfound":
            E(r.arr, "error", r, f'open() "{ROOT}{r.uri}" failed (2: No such file or directory)', upstream=False)
        elif r.flag == "typeerror":
            E(r.end, "error", r, f'FastCGI sent in stderr: "{_trace_gift()}" while reading response header from upstream')
        elif isinstance(r.flag, tuple) and r.flag[0] == "memfatal":
            E(r.end, "error", r, f'FastCGI sent in stderr: "PHP message: PHP Fatal error:  Allowed memory size of 268435456 bytes '
                                 f'exhausted (tried to allocate {r.flag[1]} bytes) in /var/www/shop/wp-includes/class-wpdb.php on line 2351" '
                                 "while reading response header from upstream")
        elif isinstance(r.flag, tuple) and r.flag[0] == "warn":
            (f, line, text), kind = r.flag[1], r.flag[2]
            E(r.end - ms(rng.uniform(5, 60)), "error", r, f'FastCGI sent in stderr: "PHP message: PHP {kind}:  {text} in {f} on line {line}" '
                                                        "while reading response header from upstream")
        elif r.flag == "big" and r.status == 200:
            E(r.end - ms(rng.uniform(30, 200)), "warn", r, "an upstream response is buffered to a temporary file "
              f"/var/cache/nginx/fastcgi_temp/{rng.randint(1, 9)}/{rng.randint(10, 99)}/00000{rng.randint(10000, 99999)} while reading upstream")
    out = []
    for t, _, level, w, c, msg in sorted(ev, key=lambda e: (e[0], e[1])):
        out.append(f"{t:%Y/%m/%d %H:%M:%S} [{level}] {w}#{w}: *{c} {msg}")
    return "\n".join(out) + "\n"


def fpm_log(night):
    out = []
    for t, _, level, msg in sorted(night.fpm, key=lambda e: (e[0], e[1])):
        out.append(f"[{t.day:02d}-{MON[t.month - 1]}-{t.year} {t:%H:%M:%S}] {level}: {msg}")
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {ACCESS: access_log(night), ERROR: error_log(night, seed), FPM: fpm_log(night)}, night
