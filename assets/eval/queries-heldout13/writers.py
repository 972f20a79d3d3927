"""Writers of the `queries-heldout13` fixtures: Tinderbox Photobooks, the night of 2034-05-17
(00:00-04:00 UTC). One plan (`plan()`, seeded by `PLAN_SEED`) holds every request, order and
render job of the night; each writer renders its own file from it:

- `cloudfront-E3TQK9PB6YV2LD-2034-05-17.log`: the CloudFront standard (access) log of the
  distribution in front of `www.` and `img.tinderboxbooks.example` (W3C header, 33
  tab-separated fields, `time-taken` in seconds, user agents percent-encoded);
- `order-ledger.log`: the Spring Boot 3 order service, Log4j2
  `%d{ISO8601} %-5p [%t] %c{1.}:%L - %m%n%ex` with stack traces and `Caused by:` chains;
- `imposer.log`: the Rust page-imposition/render service, `tracing-subscriber`'s JSON
  formatter (`timestamp`, `level`, `fields{message,…}`, `target`, `span`, `spans`,
  `threadName`, `threadId`), numeric fields snake_case with units (`queue_wait_ms`,
  `render_ms`, `output_bytes`, `peak_rss_mb`, …).
"""

import json
import math
import random
from datetime import datetime, timedelta

PLAN_SEED = 2034051713
DAY = datetime(2034, 5, 17)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def sec(x):
    return timedelta(seconds=x)


START, END = T(0, 0), T(4, 0)

# --- names
CF_FILE = "cloudfront-E3TQK9PB6YV2LD-2034-05-17.log"
LEDGER_FILE = "order-ledger.log"
IMPOSER_FILE = "imposer.log"
DIST = "d3k9t2mq8xw1zp.cloudfront.net"
WWW = "www.tinderboxbooks.example"
IMG = "img.tinderboxbooks.example"
SCRAPER = "198.51.100.73"
SCRAPER_UA = "python-httpx/0.27.0"
PROBE = "203.0.113.9"
PROBE_UA = "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)"
PARTNER = "192.0.2.140"
PARTNER_UA = "inkwell-connector/3.2 (+ops@inkwell.example)"
SCANNER = "45.148.10.77"
SCANNER_UA = "Mozilla/5.0 zgrab/0.x"

# --- the night's planted events
EXPORT_START = T(1, 11, 31, 204_000)     # ReportExporter: 24 partitions on a pool of 20
HIKARI_FIRST = T(1, 11, 37, 118_000)     # the first request that waits 30 s for a connection
EXPORT_END = T(1, 19, 38, 640_000)
HIKARI_PER_MIN = {12: 9, 13: 12, 14: 13, 15: 14, 16: 24, 17: 14, 18: 13, 19: 10}  # failures per minute 01:MM
HIKARI_CHECKOUT, HIKARI_RETRIES = 44, 8  # of the 107: checkouts (8 of them retries of a failed order), the rest carts
INVALIDATION = T(2, 5, 0)                # /thumbs/* and /pages/* invalidated (template v7 re-render)
SLOWDOWN_FIRST = T(2, 7, 12, 311_402)    # the asset store answers 503 SlowDown (imposer's first retry)
SLOWDOWN_LAST = T(2, 21, 48, 52_118)
CF_503_FIRST, CF_503_LAST = T(2, 7, 15), T(2, 21, 44)
SCRAPER_START, WAF_BLOCK, SCRAPER_END = T(2, 24, 10), T(2, 31, 5), T(2, 58, 40)
PAYWISE_FROM, PAYWISE_TO = T(2, 37, 30), T(2, 42, 55)   # arrivals whose two authorisation calls time out
PAYWISE_ORDERS = 29
BREAKER_OPEN = T(2, 43, 17, 402_000)
BREAKER_HALF = T(2, 44, 17, 405_000)
BREAKER_CLOSED = T(2, 44, 31, 77_000)
BREAKER_REJECTS = 6
HIGHWATER = T(3, 10, 44, 118_204)        # imposer: the 412-page job blows its memory budget
PANIC = T(3, 11, 2, 540_311)
RESTARTED = T(3, 11, 9, 12_877)
BIG_PAGES, BIG_RSS = 412, 7412
BIG_PROOF_DONE, BIG_PROOF_TT = T(3, 12, 48), 58.731
HEAP_WARN = T(3, 26, 51, 330_000)
OOM = T(3, 27, 5, 118_000)
STARTING = T(3, 28, 21, 530_000)
STARTED = T(3, 28, 39, 88_000)
N_STALE = 74
N_JACKSON = 93
DECLINES = [("do_not_honor", 62), ("insufficient_funds", 36), ("expired_card", 21), ("suspected_fraud", 12)]
AUTH_P99_MS = None                       # set by plan(): the plateau value of latencyMs p99
CO_P90_MS = None                         # set by cloudfront_log(): the plateau of checkout time-taken p90

EDGES = [("FRA56-P3", 0.27), ("LHR61-P1", 0.22), ("AMS1-C1", 0.15), ("CDG52-P2", 0.13), ("DUB56-P1", 0.10),
         ("MAD53-P1", 0.07), ("WAW51-P2", 0.06)]
BROWSERS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
]
FONTS = [("Garamond Premier Pro", "EB Garamond", 0.36), ("Brandon Grotesque", "Montserrat", 0.25),
         ("Playfair Display SC", "Playfair Display", 0.17), ("Futura PT Book", "Jost", 0.11),
         ("Gill Sans Nova", "Lato", 0.07), ("Didot LT", "Bodoni Moda", 0.04)]
WORKERS = ["w-ochre", "w-umber", "w-sienna", "w-indigo", "w-viridian", "w-cobalt"]
TIERS = [("free", 0.46), ("plus", 0.38), ("studio", 0.16)]
PAPERS = [("A4_portrait", 0.34), ("A4_landscape", 0.27), ("square_21", 0.24), ("A3_landscape", 0.15)]
PARTNERS = [("inkwell-leeds", 0.55), ("presshaus-berlin", 0.45)]


def _pick(rng, weighted):
    x = rng.random() * sum(w for *_, w in weighted)
    for item in weighted:
        x -= item[-1]
        if x <= 0:
            return item[0] if len(item) == 2 else item[:-1]
    return weighted[-1][0] if len(weighted[-1]) == 2 else weighted[-1][:-1]


def _poisson_times(rng, a, b, per_min):
    """Arrival times of a Poisson process of `per_min` a minute in [a, b)."""
    out, t = [], a
    while True:
        t += sec(rng.expovariate(per_min / 60))
        if t >= b:
            return out
        out.append(t)


def _uniform(rng, a, b, k):
    span = (b - a).total_seconds()
    return sorted(a + sec(rng.random() * span) for _ in range(k))


def _share_safe(num, den):
    """num / den as a percentage rounds to one decimal the same way however it is rounded."""
    frac = (1000 * num / den) % 1
    return not 0.4 <= frac <= 0.6


def _units_safe(b):
    """A byte count in GB and in GiB, each rounding to one decimal one way only."""
    return all(not 0.4 <= (x * 10) % 1 <= 0.6 for x in (b / 1e9, b / 2 ** 30))


def _tenths_safe(ms):
    """`ms` / 1000 rounds to one decimal the same way however it is rounded."""
    frac = (ms / 100) % 1
    return 0.1 < frac < 0.4 or 0.6 < frac < 0.9


def plateau(values, p, ok=_tenths_safe):
    """Makes the p-th percentile of `values` (a list of ints, changed in place) the same
    whatever the definition: the sorted ranks around every definition's index get one value,
    the one nearest the middle rank's that `ok` accepts (and that keeps the order)."""
    n = len(values)
    order = sorted(range(n), key=lambda i: values[i])
    idx = {math.ceil(p / 100 * n) - 1, int((n - 1) * p / 100), int((n - 1) * p / 100) + 1,
           int((n + 1) * p / 100 - 1), int((n + 1) * p / 100 - 1) + 1, int(p / 100 * n)}
    lo, hi = max(0, min(idx) - 2), min(n - 1, max(idx) + 2)
    v = values[order[(lo + hi) // 2]]
    floor = values[order[lo - 1]] if lo > 0 else v - 1000
    ceil = values[order[hi + 1]] if hi + 1 < n else v + 1000
    v = min((x for x in range(floor, ceil + 1) if ok(x)), key=lambda x: (abs(x - v), x))
    for r in range(lo, hi + 1):
        values[order[r]] = v
    return v


# ---------------------------------------------------------------------------------------
# the plan

_PLAN = None


def _clients(rng):
    ips = set()
    while len(ips) < 760:
        a = rng.choice([31, 37, 46, 62, 77, 79, 81, 84, 86, 88, 90, 92, 94, 109, 151, 176, 178, 185, 188, 212, 217])
        ips.add(f"{a}.{rng.randrange(1, 255)}.{rng.randrange(0, 255)}.{rng.randrange(1, 255)}")
    ips = sorted(ips)
    rng.shuffle(ips)
    return [(ip, rng.choice(BROWSERS), 1 / (1 + i) ** 0.35) for i, ip in enumerate(ips)]


def plan():
    global _PLAN, AUTH_P99_MS
    if _PLAN is not None:
        return _PLAN
    rng = random.Random(PLAN_SEED)
    clients = _clients(rng)
    weights = [w for *_, w in clients]

    def client():
        ip, ua, _ = rng.choices(clients, weights)[0]
        return ip, ua

    order_no = [581000]

    def new_order():
        order_no[0] += rng.randrange(1, 4)
        return f"TB-{order_no[0]}"

    def items_total():
        items = _pick(rng, [(1, .40), (2, .22), (3, .14), (4, .09), (5, .06), (6, .04), (7, .03), (8, .02)])
        cents = sum(rng.choice([2490, 3490, 4590, 5990, 7490, 8990, 12900, 18900]) for _ in range(items))
        cents += rng.choice([0, 0, 0, 490, 690])  # shipping
        return items, cents

    def auth_latency():
        return max(120, min(4800, int(rng.lognormvariate(math.log(430), 0.45))))

    hikari_lo, hikari_hi = HIKARI_FIRST, T(1, 19, 5)
    oom_lo, oom_hi = OOM - sec(5), STARTED
    reqs = []   # every API request: dict(t=arrival, kind, ip, ua, ...)

    # --- checkouts (POST /api/v2/checkout)
    bg = [t for t in _poisson_times(rng, START, END, 4.2)
          if not (hikari_lo - sec(5) <= t < hikari_hi + sec(5)) and not (PAYWISE_FROM - sec(5) <= t < BREAKER_HALF)
          and not (T(1, 59, 54) <= t < T(2, 0, 1)) and not (T(2, 59, 54) <= t < T(3, 1))]
    cos = []
    for t in bg:
        ip, ua = client()
        items, cents = items_total()
        c = {"t": t, "kind": "checkout", "ip": ip, "ua": ua, "order": new_order(), "items": items, "cents": cents,
             "lat": auth_latency(), "fate": "ok"}
        if oom_lo <= t < oom_hi:
            c["fate"] = "oomgap"
        cos.append(c)
    # declines: exact counts per reason, among ordinary checkouts outside the incident windows
    pool = [c for c in cos if c["fate"] == "ok"]
    chosen = rng.sample(pool, sum(k for _, k in DECLINES))
    i = 0
    for reason, k in DECLINES:
        for c in chosen[i:i + k]:
            c["fate"], c["reason"] = "declined", reason
        i += k
    for t in _uniform(rng, BREAKER_HALF + sec(1), T(2, 44, 29), 2):   # the half-open trial calls succeed
        ip, ua = client()
        items, cents = items_total()
        cos.append({"t": t, "kind": "checkout", "ip": ip, "ua": ua, "order": new_order(), "items": items,
                    "cents": cents, "lat": rng.randrange(300, 700), "fate": "ok"})
    # the declined share (of authorised + declined) is not near a rounding edge: more early orders if it is
    n_dec = sum(k for _, k in DECLINES)
    while not _share_safe(n_dec, n_dec + sum(1 for c in cos if c["fate"] == "ok")):
        t = T(0, 0, 30) + sec(rng.uniform(0, 600))
        ip, ua = client()
        items, cents = items_total()
        cos.append({"t": t, "kind": "checkout", "ip": ip, "ua": ua, "order": None, "items": items, "cents": cents,
                    "lat": auth_latency(), "fate": "ok"})
    for i, c in enumerate(c for c in cos if c["order"] is None):
        c["order"] = f"tmp-{i}"
    # p99 of latencyMs over the authorised ones, on a plateau
    oks = [c for c in cos if c["fate"] == "ok"]
    lats = [c["lat"] for c in oks]
    AUTH_P99_MS = plateau(lats, 99)
    for c, v in zip(oks, lats):
        c["lat"] = v
    # the Hikari window: 107 requests wait 30 s and fail, failures per minute as planned
    fails = []
    for m, k in sorted(HIKARI_PER_MIN.items()):
        lo = max(T(1, m, 0) - sec(30), HIKARI_FIRST)
        hi = min(T(1, m + 1, 0) - sec(30), hikari_hi)
        fails += _uniform(rng, lo + sec(0.2), hi - sec(0.2), k)
    fails = sorted(fails)
    fails[0] = HIKARI_FIRST
    n = len(fails)
    co_idx = [0] + sorted(rng.sample(range(1, n), HIKARI_CHECKOUT - 1))
    retry_idx = set(rng.sample(co_idx[4:], HIKARI_RETRIES))
    failed_orders = []
    for i, t in enumerate(fails):
        ip, ua = client()
        if i in co_idx:
            r = {"t": t, "kind": "checkout", "ip": ip, "ua": ua, "fate": "hikari", "lat": 0}
            if i in retry_idx:
                # a shopper whose checkout spun for 30 s clicks again: the same order id
                prev = rng.choice(failed_orders)
                r.update(order=prev["order"], items=prev["items"], cents=prev["cents"], ip=prev["ip"], ua=prev["ua"],
                         retry=True)
            else:
                items, cents = items_total()
                r.update(order=new_order(), items=items, cents=cents)
                failed_orders.append(r)
            cos.append(r)
        else:
            reqs.append({"t": t, "kind": "cart", "ip": ip, "ua": ua, "fate": "hikari",
                         "cart": f"c_{rng.getrandbits(40):010x}"})
    # Paywise read timeouts: two 10 s attempts each, then the breaker opens and rejects
    for t in _uniform(rng, PAYWISE_FROM, PAYWISE_TO, PAYWISE_ORDERS):
        ip, ua = client()
        items, cents = items_total()
        cos.append({"t": t, "kind": "checkout", "ip": ip, "ua": ua, "order": new_order(), "items": items,
                    "cents": cents, "lat": 0, "fate": "paywise"})
    for t in _uniform(rng, BREAKER_OPEN + sec(0.5), BREAKER_HALF - sec(0.5), BREAKER_REJECTS):
        ip, ua = client()
        items, cents = items_total()
        cos.append({"t": t, "kind": "checkout", "ip": ip, "ua": ua, "order": new_order(), "items": items,
                    "cents": cents, "lat": 0, "fate": "breaker"})
    # order numbers in the order the orders were placed (a retry keeps its order's number)
    renum = {}
    for c in sorted(cos, key=lambda c: c["t"]):
        if c["order"] not in renum:
            renum[c["order"]] = new_order()
        c["order"] = renum[c["order"]]
    reqs += cos

    # --- carts (GET /api/v2/cart): only their failures reach the ledger's log
    for t in _poisson_times(rng, START, END, 2.5):
        if hikari_lo - sec(5) <= t < hikari_hi + sec(5) + sec(300):
            continue
        ip, ua = client()
        reqs.append({"t": t, "kind": "cart", "ip": ip, "ua": ua, "fate": "oomgap" if oom_lo <= t < oom_hi else "ok",
                     "cart": f"c_{rng.getrandbits(40):010x}"})
    # --- order edits (PATCH): exactly N_STALE optimistic-lock conflicts, none in the Hikari window
    patches = [t for t in _poisson_times(rng, START, END, 1.3) if not (T(1, 5) <= t < T(1, 25))]
    stale = set(rng.sample([i for i, t in enumerate(patches) if not oom_lo <= t < oom_hi], N_STALE))
    for i, t in enumerate(patches):
        ip, ua = client()
        fate = "oomgap" if oom_lo <= t < oom_hi else ("stale" if i in stale else "ok")
        reqs.append({"t": t, "kind": "patch", "ip": ip, "ua": ua, "fate": fate, "order": f"TB-{rng.randrange(560000, 581000)}",
                     "entity": rng.randrange(55000, 58100)})
    # --- address posts: exactly N_JACKSON unparsable dates
    posts = [t for t in _poisson_times(rng, START, END, 1.6) if not (oom_lo - sec(2) <= t < oom_hi + sec(2))]
    bad = set(rng.sample(range(len(posts)), N_JACKSON))
    for i, t in enumerate(posts):
        ip, ua = client()
        reqs.append({"t": t, "kind": "address", "ip": ip, "ua": ua, "fate": "jackson" if i in bad else "ok",
                     "date": f"{rng.randrange(1, 29):02d}/{rng.randrange(1, 13):02d}/19{rng.randrange(50, 99)}"})
    for kind, rate in (("order_get", 1.0), ("templates", 0.8)):
        for t in _poisson_times(rng, START, END, rate):
            ip, ua = client()
            reqs.append({"t": t, "kind": kind, "ip": ip, "ua": ua, "fate": "oomgap" if oom_lo <= t < oom_hi else "ok"})
    # health probe every 30 s, partner poll every minute
    t = START + sec(7.3)
    while t < END:
        reqs.append({"t": t, "kind": "health", "ip": PROBE, "ua": PROBE_UA, "fate": "oomgap" if oom_lo <= t < oom_hi else "ok"})
        t += sec(40)
    t = START + sec(41.9)
    while t < END:
        reqs.append({"t": t, "kind": "partner", "ip": PARTNER, "ua": PARTNER_UA,
                     "fate": "oomgap" if oom_lo <= t < oom_hi else "ok"})
        t += sec(90)
    # the template scraper: 200s until the WAF rule, 403s after
    t = SCRAPER_START
    page = 1
    while t <= SCRAPER_END:
        reqs.append({"t": t, "kind": "scrape", "ip": SCRAPER, "ua": SCRAPER_UA, "page": page,
                     "fate": "ok" if t < WAF_BLOCK else "waf"})
        page += 1
        t += sec(rng.uniform(2.2, 4.6))
        if t > SCRAPER_END:
            break
    reqs[-1]["t"] = SCRAPER_END
    next(r for r in reqs if r["kind"] == "scrape" and r["fate"] == "waf")["t"] = WAF_BLOCK + sec(0.1)
    reqs.sort(key=lambda r: r["t"])

    # --- render jobs of the imposer
    jobs = _jobs(rng)
    _PLAN = {"reqs": reqs, "jobs": jobs, "clients": clients}
    return _PLAN


def _jobs(rng):
    """The imposer's render jobs: arrival, queue wait, pages, tier, worker, fate."""
    arrivals = _poisson_times(rng, START, T(1, 55), 1.6) + _poisson_times(rng, T(1, 55), T(2, 30), 8.0) \
        + _poisson_times(rng, T(2, 30), END - sec(120), 1.6)
    seq = [0]

    def jid():
        seq[0] += 1
        return f"bk-{rng.getrandbits(24):06x}"

    jobs = []
    for a in arrivals:
        j = {"arrive": a, "id": jid(), "tier": _pick(rng, TIERS), "paper": _pick(rng, PAPERS),
             "pages": max(20, min(240, int(rng.gauss(64, 34)))), "attempt": 1}
        if j["pages"] in (40, 60):
            j["pages"] += 1
        jobs.append(j)
    # the 412-page job
    big = {"arrive": HIGHWATER - sec(101.4), "id": "bk-7e41c9", "tier": "studio", "paper": "A3_landscape",
           "pages": BIG_PAGES, "attempt": 1, "big": True}
    jobs.append(big)
    jobs.sort(key=lambda j: j["arrive"])
    out = []
    queue = list(jobs)
    while queue:
        j = queue.pop(0)
        wait = int(rng.lognormvariate(math.log(900 if j["tier"] != "studio" else 650), 0.7))
        wait = max(40, min(60_000, wait))
        j["wait"] = wait
        j["recv"] = j["arrive"] + timedelta(milliseconds=wait)
        j["fetch"] = j["recv"] + timedelta(milliseconds=rng.randrange(40, 300))
        j["worker"] = rng.choice(WORKERS)
        if j.get("big"):
            j["worker"] = "w-indigo"
            j["fate"] = "panic"
        elif SLOWDOWN_FIRST <= j["fetch"] <= SLOWDOWN_LAST - sec(4):
            j["fate"] = "assetfail" if rng.random() < 0.55 else "retried"
        else:
            j["fate"] = "ok"
        if j["fate"] == "ok":
            r = rng.random()
            if r < 0.014:
                j["fate"] = "font"
            elif r < 0.026:
                j["fate"] = "timeout"
        if j["fate"] in ("assetfail", "font", "timeout"):
            j["worker"] = rng.choices(WORKERS, [0.12, 0.12, 0.40, 0.12, 0.12, 0.12])[0]
        out.append(j)
        if j["fate"] == "assetfail":  # re-queued a few minutes later
            again = dict(j)
            again.update(arrive=j["fetch"] + sec(rng.uniform(60, 200)), attempt=j["attempt"] + 1)
            for k in ("fate", "wait", "recv", "fetch", "worker"):
                again.pop(k)
            queue.append(again)
            queue.sort(key=lambda x: x["arrive"])
    out.sort(key=lambda j: j["recv"])
    # the first and last SlowDown retries at their planted instants
    slow = [j for j in out if j["fate"] in ("assetfail", "retried")]
    slow[0]["fetch"] = SLOWDOWN_FIRST
    slow[0]["recv"] = SLOWDOWN_FIRST - timedelta(milliseconds=120)
    slow[0]["arrive"] = slow[0]["recv"] - timedelta(milliseconds=slow[0]["wait"])
    max(slow, key=lambda j: j["fetch"])["last_retry"] = True
    # the failed share (render failed / job received) off a rounding edge: a few more late jobs if not
    n_fail = sum(1 for j in out if j["fate"] in ("assetfail", "font", "timeout"))
    while not _share_safe(n_fail, len(out)):
        a = T(3, 40) + sec(rng.uniform(0, 900))
        wait = rng.randrange(300, 2000)
        recv = a + timedelta(milliseconds=wait)
        out.append({"arrive": a, "id": jid(), "tier": _pick(rng, TIERS), "paper": _pick(rng, PAPERS),
                    "pages": rng.randrange(24, 90), "attempt": 1, "wait": wait, "recv": recv,
                    "fetch": recv + timedelta(milliseconds=rng.randrange(40, 300)), "worker": rng.choice(WORKERS),
                    "fate": "ok"})
    # the studio tier's mean queue_wait_ms is a whole number of milliseconds
    studio = [j for j in out if j["tier"] == "studio"]
    fix = next(j for j in studio if j["fate"] == "ok" and j["recv"] < T(0, 50) and j["wait"] > 400)
    d = sum(j["wait"] for j in studio) % len(studio)
    fix["wait"] -= d
    fix["recv"] -= timedelta(milliseconds=d)
    fix["fetch"] -= timedelta(milliseconds=d)
    out.sort(key=lambda j: j["recv"])
    return out


# ---------------------------------------------------------------------------------------
# CloudFront standard log

CF_FIELDS = ("date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) "
             "cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol "
             "cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type "
             "cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte "
             "x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end")
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _ua(s):
    out = []
    for ch in s:
        if ch.isalnum() or ch in "-_.~/();:,+=!*'":
            out.append(ch)
        else:
            out.append("%{:02X}".format(ord(ch)))
    return "".join(out)


def cloudfront_log(rng):
    global CO_P90_MS
    P = plan()
    rows = []   # (t_done, fields dict)

    def row(t_done, ip, ua, method, host, stem, status, result, tt, sc_bytes, query="-", referer="-", ctype="-",
            clen="-", detailed=None, rs="-", re_="-", cs_bytes=None):
        if ctype == "application/pdf":
            ttfb = min(tt, rng.randrange(30, 420) / 1000)      # a download: the first byte comes early
        elif tt > 5:
            ttfb = tt - rng.randrange(0, 3) / 1000             # the origin answered (or timed out) late
        else:
            ttfb = min(tt, round(tt * rng.uniform(0.55, 0.97), 3)) if tt > 0.002 else tt
        rows.append((t_done, {
            "x-edge-location": _pick(rng, EDGES), "sc-bytes": str(sc_bytes), "c-ip": ip, "cs-method": method,
            "cs(Host)": DIST, "cs-uri-stem": stem, "sc-status": str(status), "cs(Referer)": referer,
            "cs(User-Agent)": _ua(ua), "cs-uri-query": query, "cs(Cookie)": "-", "x-edge-result-type": result,
            "x-edge-request-id": "".join(rng.choice(B64) for _ in range(54)) + "==", "x-host-header": host,
            "cs-protocol": "https", "cs-bytes": str(cs_bytes or rng.randrange(180, 520)), "time-taken": f"{tt:.3f}",
            "x-forwarded-for": "-", "ssl-protocol": "TLSv1.3", "ssl-cipher": "TLS_AES_128_GCM_SHA256",
            "x-edge-response-result-type": result, "cs-protocol-version": "HTTP/2.0", "fle-status": "-",
            "fle-encrypted-fields": "-", "c-port": str(rng.randrange(1024, 65535)), "time-to-first-byte": f"{ttfb:.3f}",
            "x-edge-detailed-result-type": detailed or result, "sc-content-type": ctype, "sc-content-len": clen,
            "sc-range-start": rs, "sc-range-end": re_}))

    ref_editor = f"https://{WWW}/editor"
    checkout_rows = []
    for r in P["reqs"]:
        k, t, f = r["kind"], r["t"], r["fate"]
        if f == "oomgap":
            tt = rng.uniform(0.004, 0.030)
            method = {"checkout": "POST", "patch": "PATCH", "address": "POST"}.get(k, "GET")
            stem = {"checkout": "/api/v2/checkout", "cart": "/api/v2/cart", "patch": f"/api/v2/orders/{r.get('order')}",
                    "order_get": f"/api/v2/orders/TB-{rng.randrange(560000, 581000)}", "templates": "/api/v2/templates",
                    "health": "/api/v2/health", "partner": "/api/v2/partner/jobs"}[k]
            row(max(t, OOM + sec(0.3)) + sec(tt), r["ip"], r["ua"], method, WWW, stem, 502, "Error", tt, rng.randrange(520, 600),
                detailed="OriginConnectError", ctype="text/html", clen="-",
                query="page=1&size=48" if k == "templates" else ("status=ready" if k == "partner" else "-"))
            if k == "checkout":
                checkout_rows.append(len(rows) - 1)
            continue
        if k == "checkout":
            if f == "ok":
                tt = (r["lat"] + rng.randrange(35, 95)) / 1000
                st, res, by = 201, "Miss", rng.randrange(780, 1400)
            elif f == "declined":
                tt = (r["lat"] + rng.randrange(30, 80)) / 1000
                st, res, by = 402, "Error", rng.randrange(610, 720)
            elif f == "hikari":
                tt = 30.0 + rng.randrange(1, 5) / 1000
                st, res, by = 504, "Error", rng.randrange(880, 960)
            elif f == "paywise":
                tt = 20.2 + rng.randrange(40, 160) / 1000
                st, res, by = 503, "Error", rng.randrange(600, 680)
            else:  # breaker
                tt = rng.randrange(9, 30) / 1000
                st, res, by = 503, "Error", rng.randrange(600, 680)
            row(t + sec(tt), r["ip"], r["ua"], "POST", WWW, "/api/v2/checkout", st, res, tt, by, referer=f"https://{WWW}/cart",
                ctype="application/json", detailed="OriginReadError" if st == 504 else None, cs_bytes=rng.randrange(900, 2400))
            checkout_rows.append(len(rows) - 1)
        elif k == "cart":
            if f == "hikari":
                tt = 30.0 + rng.randrange(1, 5) / 1000
                row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, "/api/v2/cart", 504, "Error", tt, rng.randrange(880, 960),
                    referer=ref_editor, ctype="text/html", detailed="OriginReadError")
            else:
                tt = rng.randrange(18, 140) / 1000
                row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, "/api/v2/cart", 200, "Miss", tt, rng.randrange(900, 4200),
                    referer=ref_editor, ctype="application/json")
        elif k == "patch":
            tt = rng.randrange(30, 160) / 1000
            st, res = (409, "Error") if f == "stale" else (200, "Miss")
            row(t + sec(tt), r["ip"], r["ua"], "PATCH", WWW, f"/api/v2/orders/{r['order']}", st, res, tt,
                rng.randrange(520, 1900), referer=f"https://{WWW}/account/orders", ctype="application/json")
        elif k == "address":
            tt = rng.randrange(12, 90) / 1000
            st, res = (400, "Error") if f == "jackson" else (201, "Miss")
            row(t + sec(tt), r["ip"], r["ua"], "POST", WWW, "/api/v2/addresses", st, res, tt, rng.randrange(480, 900),
                referer=f"https://{WWW}/checkout", ctype="application/json")
        elif k == "order_get":
            tt = rng.randrange(15, 120) / 1000
            row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, f"/api/v2/orders/TB-{rng.randrange(560000, 581000)}", 200,
                "Miss", tt, rng.randrange(1200, 5200), referer=f"https://{WWW}/account/orders", ctype="application/json")
        elif k == "templates":
            tt = rng.randrange(40, 260) / 1000
            row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, "/api/v2/templates", 200, "Miss", tt,
                rng.randrange(18000, 42000), query=f"page={rng.randrange(1, 9)}&size=48", referer=ref_editor,
                ctype="application/json")
        elif k == "scrape":
            if f == "ok":
                tt = rng.randrange(60, 300) / 1000
                row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, "/api/v2/templates", 200, "Miss", tt,
                    rng.randrange(18000, 42000), query=f"page={r['page']}&size=48", ctype="application/json")
            else:
                tt = rng.randrange(1, 4) / 1000
                row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, "/api/v2/templates", 403, "Error", tt,
                    rng.randrange(540, 560), query=f"page={r['page']}&size=48", ctype="text/html")
        elif k == "health":
            tt = rng.randrange(4, 22) / 1000
            row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, "/api/v2/health", 200, "Miss", tt, rng.randrange(330, 360),
                ctype="application/json")
        elif k == "partner":
            tt = rng.randrange(40, 210) / 1000
            row(t + sec(tt), r["ip"], r["ua"], "GET", WWW, "/api/v2/partner/jobs", 200, "Miss", tt,
                rng.randrange(900, 9000), query="status=ready", ctype="application/json")

    # checkout time-taken: p90 on a plateau (whole milliseconds)
    tts = [round(float(rows[i][1]["time-taken"]) * 1000) for i in checkout_rows]
    CO_P90_MS = plateau(tts, 90)
    for i, v in zip(checkout_rows, tts):
        rows[i][1]["time-taken"] = f"{v / 1000:.3f}"
        if float(rows[i][1]["time-to-first-byte"]) > v / 1000:
            rows[i][1]["time-to-first-byte"] = f"{v / 1000:.3f}"

    clients = P["clients"]
    cw = [w for *_, w in clients]

    def bg_client():
        ip, ua, _ = rng.choices(clients, cw)[0]
        return ip, ua

    # --- www: static assets and pages
    statics = [("/assets/app.7c1e9b.js", "application/javascript", 212_000), ("/assets/vendor.51f0a2.js",
               "application/javascript", 388_000), ("/assets/app.3d9e71.css", "text/css", 61_000),
               ("/fonts/inter-var.woff2", "font/woff2", 96_000), ("/img/hero-summer.avif", "image/avif", 142_000),
               ("/favicon.ico", "image/x-icon", 15_000)]
    for t in _poisson_times(rng, START, END, 2.2):
        ip, ua = bg_client()
        stem, ct, size = rng.choice(statics)
        res = "Hit" if rng.random() < 0.93 else "Miss"
        tt = rng.randrange(1, 20) / 1000 if res == "Hit" else rng.randrange(30, 180) / 1000
        if res == "Hit" and rng.random() < 0.12:
            row(t + sec(tt), ip, ua, "GET", WWW, stem, 304, "Hit", tt, rng.randrange(300, 420), referer=f"https://{WWW}/",
                ctype="-")
            continue
        row(t + sec(tt), ip, ua, "GET", WWW, stem, 200, res, tt, size + rng.randrange(300, 500), referer=f"https://{WWW}/",
            ctype=ct, clen=str(size))
    pages = ["/", "/editor", "/pricing", "/account/orders", "/books/summer-in-lisbon", "/books/grandmas-recipes",
             "/books/baby-first-year", "/gift-cards"]
    for t in _poisson_times(rng, START, END, 1.2):
        ip, ua = bg_client()
        tt = rng.randrange(40, 320) / 1000
        st = 404 if rng.random() < 0.02 else 200
        row(t + sec(tt), ip, ua, "GET", WWW, rng.choice(pages), st, "Miss" if st == 200 else "Error", tt,
            rng.randrange(9000, 36000) if st == 200 else rng.randrange(1900, 2100), ctype="text/html")
    # a scanner at 00:4x, blocked by the WAF
    for t in _uniform(rng, T(0, 41, 3), T(0, 44, 50), 31):
        tt = rng.randrange(1, 3) / 1000
        row(t + sec(tt), SCANNER, SCANNER_UA, "GET", WWW, rng.choice(["/.env", "/wp-login.php", "/.git/config",
            "/phpmyadmin/index.php", "/server-status"]), 403, "Error", tt, rng.randrange(540, 560), ctype="text/html")

    # --- img: thumbnails and page previews (cache), the invalidation, the SlowDown 503s, proofs
    def img_stem():
        if rng.random() < 0.55:
            return f"/thumbs/{rng.getrandbits(32):08x}_{rng.choice([320, 640])}.webp", "image/webp", rng.randrange(9000, 64000)
        return f"/pages/bk-{rng.getrandbits(24):06x}/p{rng.randrange(1, 90):03d}.jpg", "image/jpeg", rng.randrange(90_000, 420_000)

    surge = {0: 74, 1: 44, 2: 22, 3: 12, 4: 8}          # extra misses in the minutes after 02:05
    img_times = [(t, "bg") for t in _poisson_times(rng, START, END, 3.0)]
    for m, k in surge.items():
        img_times += [(t, "surge") for t in _uniform(rng, INVALIDATION + sec(60 * m), INVALIDATION + sec(60 * m + 59.9), k)]
    err_times = _uniform(rng, CF_503_FIRST + sec(1), CF_503_LAST - sec(1), 45)
    err_times[0], err_times[-1] = CF_503_FIRST + sec(0.2), CF_503_LAST + sec(0.3)
    img_times += [(t, "slowdown") for t in err_times]
    for t, why in sorted(img_times):
        ip, ua = bg_client()
        stem, ct, size = img_stem()
        ref = rng.choice([ref_editor, f"https://{WWW}/", f"https://{WWW}/account/orders"])
        if why == "slowdown":
            tt = rng.randrange(200, 900) / 1000
            row(t, ip, ua, "GET", IMG, stem, 503, "Error", tt, rng.randrange(640, 700), referer=ref,
                ctype="application/xml")
            continue
        after = (t - INVALIDATION).total_seconds()
        if why == "surge" or (0 <= after < 300 and rng.random() < 0.8):
            res = "Miss"
        elif rng.random() < 0.02:
            tt = rng.randrange(20, 90) / 1000
            row(t + sec(tt), ip, ua, "GET", IMG, stem, 404, "Error", tt, rng.randrange(600, 680), referer=ref,
                ctype="application/xml")
            continue
        else:
            res = "Hit" if rng.random() < 0.86 else "Miss"
        if SLOWDOWN_FIRST <= t <= SLOWDOWN_LAST and res == "Miss":
            res = "Hit"   # during the SlowDown only cached objects are served
        tt = rng.randrange(1, 25) / 1000 if res == "Hit" else rng.randrange(60, 700) / 1000
        if res == "Hit" and rng.random() < 0.08:
            row(t + sec(tt), ip, ua, "GET", IMG, stem, 304, "Hit", tt, rng.randrange(300, 420), referer=ref)
            continue
        row(t + sec(tt), ip, ua, "GET", IMG, stem, 200, res, tt, size + rng.randrange(300, 500), referer=ref, ctype=ct,
            clen=str(size))
    # proofs: big PDFs, some fetched in ranges
    for t in _poisson_times(rng, START, END, 0.62):
        ip, ua = bg_client()
        size = rng.randrange(3_000_000, 48_000_000)
        res = "Hit" if rng.random() < 0.3 else "Miss"
        stem = f"/proofs/bk-{rng.getrandbits(24):06x}-v{rng.randrange(1, 4)}.pdf"
        if rng.random() < 0.22:
            a = rng.randrange(0, size // 2)
            b = min(size - 1, a + rng.randrange(500_000, 4_000_000))
            tt = rng.uniform(0.3, 4.0)
            row(t + sec(tt), ip, ua, "GET", IMG, stem, 206, res, tt, b - a + 1 + 420, ctype="application/pdf",
                clen=str(b - a + 1), rs=str(a), re_=str(b))
            continue
        tt = max(0.4, min(44.0, size / rng.uniform(0.9e6, 8e6)))
        if 9.0 <= tt <= 11.0:
            tt = rng.choice([8.6, 11.4]) + rng.random() * 0.3
        row(t + sec(tt), ip, ua, "GET", IMG, stem, 200, res, tt, size + 430, ctype="application/pdf", clen=str(size))
    # the slowest request of the night: a 412-page proof over a slow line; its size keeps the
    # night's proof bytes off a rounding edge in GB and GiB
    other = sum(int(d["sc-bytes"]) for _, d in rows if d["cs-uri-stem"].startswith("/proofs/"))
    size = 61_482_113
    while not _units_safe(other + size + 430):
        size += 1_048_576
    row(BIG_PROOF_DONE + sec(0.4), "86.41.203.17", BROWSERS[2], "GET", IMG, "/proofs/bk-7e41c9-v1.pdf", 200, "Miss",
        BIG_PROOF_TT, size + 430, ctype="application/pdf", clen=str(size))
    # the img host's hit share off a rounding edge: a few more missing thumbnails if not
    while True:
        im = [d for _, d in rows if d["x-host-header"] == IMG]
        if _share_safe(sum(1 for d in im if d["x-edge-result-type"] == "Hit"), len(im)):
            break
        t = T(0, 20) + sec(rng.uniform(0, 1800))
        ip, ua = bg_client()
        row(t, ip, ua, "GET", IMG, f"/thumbs/{rng.getrandbits(32):08x}_320.webp", 404, "Error", 0.031,
            rng.randrange(600, 680), ctype="application/xml")

    rows.sort(key=lambda x: x[0])
    out = ["#Version: 1.0", "#Fields: " + CF_FIELDS]
    names = CF_FIELDS.split()
    for t, d in rows:
        d["date"] = t.strftime("%Y-%m-%d")
        d["time"] = t.strftime("%H:%M:%S")
        out.append("\t".join(d[n] for n in names))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# order-ledger (Spring Boot 3, Log4j2)

def _l4j(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S,") + f"{t.microsecond // 1000:03d}"


TX_FRAMES = """	at org.springframework.orm.jpa.JpaTransactionManager.doBegin(JpaTransactionManager.java:466)
	at org.springframework.transaction.support.AbstractPlatformTransactionManager.getTransaction(AbstractPlatformTransactionManager.java:405)
	at org.springframework.transaction.interceptor.TransactionAspectSupport.createTransactionIfNecessary(TransactionAspectSupport.java:610)
	at org.springframework.transaction.interceptor.TransactionAspectSupport.invokeWithinTransaction(TransactionAspectSupport.java:373)
	at org.springframework.transaction.interceptor.TransactionInterceptor.invoke(TransactionInterceptor.java:119)
	at org.springframework.aop.framework.CglibAopProxy$CglibMethodInvocation.proceed(CglibAopProxy.java:765)
	at org.springframework.aop.framework.CglibAopProxy$DynamicAdvisedInterceptor.intercept(CglibAopProxy.java:717)
	at com.tinderbox.ledger.service.{svc}$$SpringCGLIB$$0.{meth}(<generated>)
	at com.tinderbox.ledger.web.{ctl}.{handler}({ctl}.java:{line})
	at java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
	at org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:255)
	at org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter.invokeHandlerMethod(RequestMappingHandlerAdapter.java:917)
	at org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1089)
	at jakarta.servlet.http.HttpServlet.service(HttpServlet.java:590)
	at org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun(NioEndpoint.java:1736)
	at org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)
	at java.base/java.lang.Thread.run(Thread.java:1583)"""

HIKARI_TRACE = """org.springframework.transaction.CannotCreateTransactionException: Could not open JPA EntityManager for transaction
{tx}
Caused by: org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC Connection [HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting={w})] [n/a]
	at org.hibernate.exception.internal.SQLStateConversionDelegate.convert(SQLStateConversionDelegate.java:100)
	at org.hibernate.exception.internal.StandardSQLExceptionConverter.convert(StandardSQLExceptionConverter.java:58)
	at org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:108)
	at org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:111)
	at org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.getPhysicalConnection(LogicalConnectionManagedImpl.java:138)
	at org.springframework.orm.jpa.vendor.HibernateJpaDialect.beginTransaction(HibernateJpaDialect.java:164)
	at org.springframework.orm.jpa.JpaTransactionManager.doBegin(JpaTransactionManager.java:420)
	... 21 more
Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting={w})
	at com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)
	at com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)
	at com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:144)
	at com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:127)
	at org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl.getConnection(DatasourceConnectionProviderImpl.java:122)
	at org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:108)
	... 25 more"""

PAYWISE_TRACE = """org.springframework.web.client.ResourceAccessException: I/O error on POST request for "https://api.paywise.example/v3/authorisations": Read timed out
	at org.springframework.web.client.RestTemplate.createResourceAccessException(RestTemplate.java:905)
	at org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:885)
	at org.springframework.web.client.RestTemplate.execute(RestTemplate.java:781)
	at org.springframework.web.client.RestTemplate.postForEntity(RestTemplate.java:531)
	at com.tinderbox.ledger.payments.PaywiseClient.authorise(PaywiseClient.java:74)
	at io.github.resilience4j.circuitbreaker.CircuitBreaker.lambda$decorateCheckedSupplier$0(CircuitBreaker.java:69)
	at com.tinderbox.ledger.payments.PaywiseClient.authoriseWithRetry(PaywiseClient.java:58)
	at com.tinderbox.ledger.service.CheckoutService.placeOrder(CheckoutService.java:88)
	at com.tinderbox.ledger.web.CheckoutController.checkout(CheckoutController.java:112)
	at java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
	at org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)
	at java.base/java.lang.Thread.run(Thread.java:1583)
Caused by: java.net.SocketTimeoutException: Read timed out
	at java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)
	at java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:304)
	at java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:346)
	at java.base/sun.nio.ch.NioSocketImpl$1.read(NioSocketImpl.java:796)
	at java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)
	at java.base/sun.security.ssl.SSLSocketInputRecord.read(SSLSocketInputRecord.java:489)
	at java.base/sun.security.ssl.SSLSocketInputRecord.readHeader(SSLSocketInputRecord.java:483)
	at java.base/sun.security.ssl.SSLSocketImpl.readApplicationRecord(SSLSocketImpl.java:1461)
	at java.base/sun.security.ssl.SSLSocketImpl$AppInputStream.read(SSLSocketImpl.java:1066)
	at org.apache.hc.core5.http.impl.io.SessionInputBufferImpl.fillBuffer(SessionInputBufferImpl.java:149)
	at org.apache.hc.client5.http.impl.classic.InternalHttpClient.doExecute(InternalHttpClient.java:174)
	at org.springframework.http.client.HttpComponentsClientHttpRequest.executeInternal(HttpComponentsClientHttpRequest.java:95)
	at org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:879)
	... 10 more"""

BREAKER_TRACE = """io.github.resilience4j.circuitbreaker.CallNotPermittedException: CircuitBreaker 'paywise' is OPEN and does not permit further calls
	at io.github.resilience4j.circuitbreaker.CallNotPermittedException.createCallNotPermittedException(CallNotPermittedException.java:48)
	at io.github.resilience4j.circuitbreaker.internal.CircuitBreakerStateMachine$OpenState.acquirePermission(CircuitBreakerStateMachine.java:696)
	at io.github.resilience4j.circuitbreaker.internal.CircuitBreakerStateMachine.acquirePermission(CircuitBreakerStateMachine.java:206)
	at io.github.resilience4j.circuitbreaker.CircuitBreaker.lambda$decorateCheckedSupplier$0(CircuitBreaker.java:66)
	at com.tinderbox.ledger.payments.PaywiseClient.authoriseWithRetry(PaywiseClient.java:58)
	at com.tinderbox.ledger.service.CheckoutService.placeOrder(CheckoutService.java:88)
	at com.tinderbox.ledger.web.CheckoutController.checkout(CheckoutController.java:112)
	at org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)
	at java.base/java.lang.Thread.run(Thread.java:1583)"""

STALE_TRACE = """org.springframework.orm.ObjectOptimisticLockingFailureException: Row was updated or deleted by another transaction (or unsaved-value mapping was incorrect) : [com.tinderbox.ledger.model.PhotoOrder#{e}]
	at org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:325)
	at org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:244)
	at org.springframework.orm.jpa.JpaTransactionManager.doCommit(JpaTransactionManager.java:566)
	at org.springframework.transaction.support.AbstractPlatformTransactionManager.processCommit(AbstractPlatformTransactionManager.java:794)
	at org.springframework.transaction.support.AbstractPlatformTransactionManager.commit(AbstractPlatformTransactionManager.java:757)
	at org.springframework.transaction.interceptor.TransactionAspectSupport.commitTransactionAfterReturning(TransactionAspectSupport.java:669)
	at com.tinderbox.ledger.service.OrderService$$SpringCGLIB$$0.updateShipping(<generated>)
	at com.tinderbox.ledger.web.OrderController.patch(OrderController.java:77)
	at org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)
	at java.base/java.lang.Thread.run(Thread.java:1583)
Caused by: org.hibernate.StaleObjectStateException: Row was updated or deleted by another transaction (or unsaved-value mapping was incorrect) : [com.tinderbox.ledger.model.PhotoOrder#{e}]
	at org.hibernate.persister.entity.AbstractEntityPersister.check(AbstractEntityPersister.java:2581)
	at org.hibernate.persister.entity.AbstractEntityPersister.doUpdate(AbstractEntityPersister.java:3407)
	at org.hibernate.event.internal.AbstractFlushingEventListener.performExecutions(AbstractFlushingEventListener.java:359)
	at org.hibernate.internal.SessionImpl.doFlush(SessionImpl.java:1415)
	at org.springframework.orm.jpa.JpaTransactionManager.doCommit(JpaTransactionManager.java:562)
	... 14 more"""

OOM_TRACE = """java.lang.OutOfMemoryError: Java heap space
	at java.base/java.util.Arrays.copyOf(Arrays.java:3541)
	at java.base/java.io.ByteArrayOutputStream.ensureCapacity(ByteArrayOutputStream.java:100)
	at java.base/java.io.ByteArrayOutputStream.write(ByteArrayOutputStream.java:132)
	at org.apache.pdfbox.cos.COSWriter.doWriteObject(COSWriter.java:522)
	at org.apache.pdfbox.pdmodel.PDDocument.save(PDDocument.java:1386)
	at com.tinderbox.ledger.invoice.InvoiceRenderer.render(InvoiceRenderer.java:81)
	at com.tinderbox.ledger.invoice.InvoiceBatchJob.lambda$run$2(InvoiceBatchJob.java:64)
	at java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)
	at java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:642)
	at java.base/java.lang.Thread.run(Thread.java:1583)"""


def ledger_log(rng):
    P = plan()
    ev = []   # (t, level, thread, logger, line, msg, trace or None)

    def log(t, level, thread, logger, line, msg, trace=None):
        ev.append((t, level, thread, logger, line, msg, trace))

    def http_thread():
        return f"http-nio-8443-exec-{rng.randrange(1, 201)}"

    waiting = [0]
    for r in P["reqs"]:
        k, t, f = r["kind"], r["t"], r["fate"]
        if k == "checkout":
            th = http_thread()
            amount = f"{r['cents'] // 100}.{r['cents'] % 100:02d}"
            if f == "ok":
                done = t + timedelta(milliseconds=r["lat"])
                log(done, "INFO", th, "c.t.l.p.PaywiseClient", 63,
                    f"Payment authorised order={r['order']} amountCents={r['cents']} latencyMs={r['lat']}")
                log(done + timedelta(milliseconds=rng.randrange(8, 30)), "INFO", th, "c.t.l.w.CheckoutController", 121,
                    f"Checkout ok order={r['order']} total={amount} EUR items={r['items']}")
            elif f == "declined":
                done = t + timedelta(milliseconds=r["lat"])
                log(done, "WARN", th, "c.t.l.p.PaywiseClient", 69,
                    f"Payment declined order={r['order']} reason={r['reason']} latencyMs={r['lat']}")
            elif f == "hikari":
                done = t + sec(30) + timedelta(milliseconds=rng.randrange(2, 9))
                w = rng.randrange(9, 41)
                log(done, "WARN", th, "o.h.e.j.s.SqlExceptionHelper", 145, "SQL Error: 0, SQLState: null")
                log(done, "ERROR", th, "o.h.e.j.s.SqlExceptionHelper", 150,
                    f"HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting={w})")
                tx = TX_FRAMES.format(svc="CheckoutService", meth="placeOrder", ctl="CheckoutController", handler="checkout",
                                      line=112)
                log(done + timedelta(milliseconds=1), "ERROR", th, "c.t.l.w.CheckoutController", 131,
                    f"Checkout failed order={r['order']}", HIKARI_TRACE.format(tx=tx, w=w))
            elif f == "paywise":
                a1 = t + timedelta(milliseconds=10_000 + rng.randrange(3, 40))
                a2 = a1 + timedelta(milliseconds=200 + 10_000 + rng.randrange(3, 40))
                log(a1, "ERROR", th, "c.t.l.p.PaywiseClient", 81,
                    f"Authorisation call failed order={r['order']} attempt=1 timeoutMs=10000", PAYWISE_TRACE)
                log(a2, "ERROR", th, "c.t.l.p.PaywiseClient", 81,
                    f"Authorisation call failed order={r['order']} attempt=2 timeoutMs=10000", PAYWISE_TRACE)
                log(a2 + timedelta(milliseconds=2), "ERROR", th, "c.t.l.w.CheckoutController", 137,
                    f"Checkout failed order={r['order']}: payment provider unavailable")
            elif f == "breaker":
                log(t + timedelta(milliseconds=rng.randrange(3, 12)), "ERROR", th, "c.t.l.w.CheckoutController", 137,
                    f"Checkout failed order={r['order']}: payment provider unavailable", BREAKER_TRACE)
        elif k == "cart" and f == "hikari":
            th = http_thread()
            done = t + sec(30) + timedelta(milliseconds=rng.randrange(2, 9))
            w = rng.randrange(9, 41)
            log(done, "WARN", th, "o.h.e.j.s.SqlExceptionHelper", 145, "SQL Error: 0, SQLState: null")
            log(done, "ERROR", th, "o.h.e.j.s.SqlExceptionHelper", 150,
                f"HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting={w})")
            tx = TX_FRAMES.format(svc="CartService", meth="load", ctl="CartController", handler="get", line=54)
            log(done + timedelta(milliseconds=1), "ERROR", th, "c.t.l.w.CartController", 61, f"Cart lookup failed cart={r['cart']}",
                HIKARI_TRACE.format(tx=tx, w=w))
        elif k == "patch" and f == "stale":
            done = t + timedelta(milliseconds=rng.randrange(30, 120))
            log(done, "ERROR", http_thread(), "c.t.l.s.OrderService", 142, f"Order update conflict order={r['order']}",
                STALE_TRACE.format(e=r["entity"]))
        elif k == "address" and f == "jackson":
            d = r["date"]
            log(t + timedelta(milliseconds=rng.randrange(5, 30)), "WARN", http_thread(), "o.s.w.s.m.m.a.ExceptionHandlerExceptionResolver",
                208, "Resolved [org.springframework.http.converter.HttpMessageNotReadableException: JSON parse error: "
                f"Cannot deserialize value of type `java.time.LocalDate` from String \"{d}\": Failed to deserialize "
                f"java.time.LocalDate: (java.time.format.DateTimeParseException) Text '{d}' could not be parsed at index 2]")
    # the breaker's transitions
    log(BREAKER_OPEN, "WARN", "http-nio-8443-exec-88", "c.t.l.p.PaywiseBreakerEvents", 29,
        "CircuitBreaker 'paywise' changed state from CLOSED to OPEN (failureRate=100.0%, slowCallRate=100.0%)")
    log(BREAKER_HALF, "INFO", "paywise-breaker-scheduler", "c.t.l.p.PaywiseBreakerEvents", 29,
        "CircuitBreaker 'paywise' changed state from OPEN to HALF_OPEN")
    log(BREAKER_CLOSED, "INFO", "http-nio-8443-exec-142", "c.t.l.p.PaywiseBreakerEvents", 29,
        "CircuitBreaker 'paywise' changed state from HALF_OPEN to CLOSED")
    # the nightly export that starved the pool
    log(EXPORT_START, "INFO", "scheduling-1", "c.t.l.j.ReportExporter", 61, "Nightly export started partitions=24 parallelism=24")
    for p in range(24):
        log(EXPORT_START + timedelta(milliseconds=40 + 11 * p), "INFO", f"export-{p + 1}", "c.t.l.j.ReportExporter", 74,
            f"Exporting partition {p + 1}/24 (orders 2034-04)")
    log(EXPORT_END, "INFO", "scheduling-1", "c.t.l.j.ReportExporter", 97,
        f"Nightly export finished in {(EXPORT_END - EXPORT_START).total_seconds():.1f}s rows=1843221")
    # payout reconciliation every ten minutes (not while the ledger is down)
    t = START + sec(120.457)
    while t < END:
        if not (OOM <= t < STARTED):
            log(t, "INFO", "scheduling-1", "c.t.l.j.PayoutReconciler", 40, f"Reconciled {rng.randrange(12, 60)} payouts (paywise)")
        t += sec(600)
    # heap trouble, the OOM, the restart
    log(HEAP_WARN, "WARN", "heap-watchdog", "c.t.l.m.HeapWatchdog", 52,
        "Heap usage 96% after full GC (used=3.84 GiB, max=4.00 GiB)")
    log(OOM, "ERROR", "invoice-pool-2", "c.t.l.i.InvoiceRenderer", 88,
        "Invoice batch failed batch=inv-20340517-03 invoices=1840", OOM_TRACE)
    s = STARTING
    boot = [
        (0, "c.t.l.OrderLedgerApplication", 50, "Starting OrderLedgerApplication v4.8.2 using Java 21.0.3 with PID 51877 "
         "(/opt/order-ledger/order-ledger.jar started by ledger in /opt/order-ledger)"),
        (4, "c.t.l.OrderLedgerApplication", 654, 'The following 1 profile is active: "prod"'),
        (3210, "o.s.d.r.c.RepositoryConfigurationDelegate", 143, "Finished Spring Data repository scanning in 212 ms. Found 14 JPA repository interfaces."),
        (7572, "o.s.b.w.e.t.TomcatWebServer", 111, "Tomcat initialized with port 8443 (https)"),
        (7601, "o.a.c.c.StandardService", 173, "Starting service [Tomcat]"),
        (7603, "o.a.c.c.StandardEngine", 173, "Starting Servlet engine: [Apache Tomcat/10.1.24]"),
        (11934, "c.z.h.HikariDataSource", 79, "HikariPool-1 - Starting..."),
        (12381, "c.z.h.p.HikariPool", 554, "HikariPool-1 - Added connection org.postgresql.jdbc.PgConnection@5b1f0f26"),
        (12385, "c.z.h.HikariDataSource", 81, "HikariPool-1 - Start completed."),
        (17344, "o.s.b.w.e.t.TomcatWebServer", 243, "Tomcat started on port 8443 (https) with context path '/'"),
    ]
    for ms, logger, line, msg in boot:
        log(s + timedelta(milliseconds=ms), "INFO", "main", logger, line, msg)
    log(STARTED, "INFO", "main", "c.t.l.OrderLedgerApplication", 56,
        f"Started OrderLedgerApplication in {(STARTED - STARTING).total_seconds() + 0.646:.3f} seconds (process running for 19.113)")

    ev = [e for e in ev if not (OOM < e[0] < STARTING)]
    ev.sort(key=lambda e: e[0])
    out = []
    for t, level, thread, logger, line, msg, trace in ev:
        out.append(f"{_l4j(t)} {level:<5} [{thread}] {logger}:{line} - {msg}")
        if trace:
            out.append(trace)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# imposer (Rust, tracing-subscriber JSON)

def _rfc(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}Z"


def imposer_log(rng):
    P = plan()
    ev = []

    def emit(t, level, target, fields, job=None, worker=None, thread=None):
        d = {"timestamp": _rfc(t), "level": level, "fields": fields, "target": target}
        if job is not None:
            span = {"job_id": job["id"], "tier": job["tier"], "name": "render_job"}
            d["span"] = span
            d["spans"] = [{"worker": worker, "name": "worker"}, span]
        ev.append((t, json.dumps(d, separators=(",", ":"))))

    tid = {w: 2 + i for i, w in enumerate(WORKERS)}
    # font fallbacks: about one job in six, the fonts drawn from a bag in fixed proportions
    fb = [j["id"] for j in P["jobs"] if j["fate"] not in ("assetfail", "panic") and (j["fate"] == "font" or rng.random() < 0.16)]
    bag = [(f, s) for f, s, w in FONTS for _ in range(round(w * len(fb)))]
    while len(bag) < len(fb):
        bag.append(FONTS[-1][:2])
    rng.shuffle(bag)
    fallback = dict(zip(fb, bag))
    for j in P["jobs"]:
        w, th = j["worker"], tid[j["worker"]]
        recv = j["recv"]
        fields = {"message": "job received", "queue_wait_ms": j["wait"], "pages": j["pages"], "paper": j["paper"]}
        if j["attempt"] > 1:
            fields["attempt"] = j["attempt"]
        emit(recv, "INFO", "imposer::queue", fields, j, w, th)
        t = j["fetch"]
        n_assets = j["pages"] + rng.randrange(2, 12)
        if j["fate"] in ("assetfail", "retried"):
            tries = 4 if j["fate"] == "assetfail" else rng.choice([1, 1, 2, 3])
            n_warn = 3 if j["fate"] == "assetfail" else tries
            backoff = 200
            for a in range(1, n_warn + 1):
                key = f"pages/{j['id']}/p{rng.randrange(1, j['pages'] + 1):03d}.jpg"
                bo = backoff + rng.randrange(0, 120)
                if j.get("last_retry") and a == n_warn:
                    t = SLOWDOWN_LAST
                emit(t, "WARN", "imposer::fetch", {"message": "asset fetch retry", "attempt": a, "backoff_ms": bo,
                                                   "status": 503, "code": "SlowDown", "key": key}, j, w, th)
                t += timedelta(milliseconds=bo + rng.randrange(30, 200))
                backoff *= 2
            if j["fate"] == "assetfail":
                emit(t, "ERROR", "imposer::job", {"message": "render failed", "error_kind": "AssetFetch",
                                                  "error": "asset store answered 503 SlowDown after 4 attempts"}, j, w, th)
                continue
            fetch_ms = int((t - j["fetch"]).total_seconds() * 1000) + rng.randrange(200, 900)
            t = j["fetch"] + timedelta(milliseconds=fetch_ms)
            emit(t, "INFO", "imposer::fetch", {"message": "assets fetched", "count": n_assets, "fetch_ms": fetch_ms,
                                               "bytes_in": n_assets * rng.randrange(180_000, 900_000), "retries": tries}, j, w, th)
        else:
            fetch_ms = rng.randrange(150, 1600)
            t = j["fetch"] + timedelta(milliseconds=fetch_ms)
            emit(t, "INFO", "imposer::fetch", {"message": "assets fetched", "count": n_assets, "fetch_ms": fetch_ms,
                                               "bytes_in": n_assets * rng.randrange(180_000, 900_000), "retries": 0}, j, w, th)
        if j["id"] in fallback:
            font, sub = fallback[j["id"]]
            t += timedelta(milliseconds=rng.randrange(20, 200))
            emit(t, "WARN", "imposer::fonts", {"message": "font fallback", "font": font, "substitute": sub}, j, w, th)
        if j["fate"] == "font":
            t += timedelta(milliseconds=rng.randrange(300, 4000))
            emit(t, "ERROR", "imposer::job", {"message": "render failed", "error_kind": "FontMissing",
                                              "error": "no glyph for U+1F98A in any fallback font"}, j, w, th)
            continue
        if j["fate"] == "timeout":
            t += sec(300)
            emit(t, "ERROR", "imposer::job", {"message": "render failed", "error_kind": "RenderTimeout",
                                              "error": "render exceeded 300s deadline"}, j, w, th)
            continue
        if j["fate"] == "panic":
            emit(HIGHWATER, "WARN", "imposer::render", {"message": "memory high-water", "peak_rss_mb": BIG_RSS,
                                                        "budget_mb": 6144, "page": 318}, j, w, th)
            emit(PANIC, "ERROR", "imposer::supervisor",
                 {"message": "worker panicked", "panic": "called `Result::unwrap()` on an `Err` value: AllocError { size: 268435456 }",
                  "location": "src/raster/tile.rs:211:38"}, j, w, th)
            emit(PANIC + timedelta(milliseconds=3), "WARN", "imposer::queue",
                 {"message": "job parked for manual review", "reason": "worker panicked"}, j, w, th)
            emit(RESTARTED, "INFO", "imposer::supervisor", {"message": "worker restarted", "worker": w, "generation": 2},
                 thread=th)
            continue
        render_ms = int(j["pages"] * rng.uniform(55, 140) + rng.randrange(200, 1500))
        j["render_ms"] = render_ms
        t += timedelta(milliseconds=render_ms)
        j["done"] = t
        out_bytes = j["pages"] * rng.randrange(380_000, 1_400_000)
        rss = int(220 + j["pages"] * rng.uniform(6, 14))
        j["fin"] = {"message": "render finished", "render_ms": render_ms, "pages": j["pages"], "output_bytes": out_bytes,
                    "peak_rss_mb": rss}
        j["tail"] = t
        j["w"], j["th"] = w, th
    # p90 of render_ms on a plateau, then the finished renders and hand-offs
    done = [j for j in P["jobs"] if "fin" in j]
    while not _units_safe(sum(j["fin"]["output_bytes"] for j in done)):
        done[0]["fin"]["output_bytes"] += 1_048_576
    rms = [j["render_ms"] for j in done]
    global RENDER_P90_MS
    RENDER_P90_MS = plateau(rms, 90)
    for j, v in zip(done, rms):
        j["fin"]["render_ms"] = v
        emit(j["tail"], "INFO", "imposer::render", j["fin"], j, j["w"], j["th"])
        partner = _pick(rng, PARTNERS)
        up = rng.randrange(300, 5000)
        emit(j["tail"] + timedelta(milliseconds=up), "INFO", "imposer::upload",
             {"message": "handed off to print partner", "partner": partner, "upload_ms": up,
              "bytes": j["fin"]["output_bytes"]}, j, j["w"], j["th"])
    # queue stats every five minutes
    t = START + sec(3.021)
    while t < END:
        emit(t, "INFO", "imposer::metrics", {"message": "queue stats", "depth": rng.randrange(0, 40),
                                             "inflight": rng.randrange(1, 7)}, thread=1)
        t += sec(300)
    ev.sort(key=lambda e: e[0])
    return "".join(line + "\n" for _, line in ev)


RENDER_P90_MS = None
