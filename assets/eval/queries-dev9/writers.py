"""Writers of the `queries-dev9` fixtures: one night (2033-11-14 00:50-04:10 UTC) at Ashgrove
Public Libraries. `plan()` (seeded by `PLAN_SEED`) is the cross-file schedule: every request,
worker, AMQP connection, notice and mail of the night, with the planted incidents at chosen
seconds. Each writer renders one file from it the way the real software writes it:

- `catalog_access.log`: Apache httpd 2.4 `combined` + `%D` (microseconds), the OPAC vhost on
  agl-web-01, one line per request, written when the request completes (`%t` is its start);
- `catalog_error.log`: Apache 2.4 error log (`[Mon Nov 14 ...] [module:level] [pid P:tid T]`);
- `gunicorn-access.log` / `gunicorn-error.log`: circ-api (Flask) under gunicorn 21 on
  agl-app-02, `%({x-forwarded-for}i)s ... %(L)s` (seconds), the error log with tracebacks;
- `rabbit@agl-mq-01.log`: RabbitMQ 3.12 (`+00:00 [info] <0.N.0>`, multi-line messages
  prefixed line by line);
- `maillog`: Postfix 3 through rsyslog on agl-mail-01 (traditional timestamps, no year);
- `<container id>-json.log`: the notifier container's Docker json-file log (Python logging
  inside, one JSON record per line, Go's HTML escaping of `<`, `>`, `&`).
"""

import json
import random
from datetime import datetime, timedelta
from functools import lru_cache

PLAN_SEED = 2033111409
DAY = datetime(2033, 11, 14)


def T(h, m, s=0, us=0):
    return DAY.replace(hour=h, minute=m, second=s, microsecond=us)


def sec(x):
    return timedelta(seconds=x)


START, END = T(0, 50), T(4, 10)

VHOST = "catalog.ashgrove-libraries.org"
SITE = f"https://{VHOST}"
APP, APP_IP = "agl-app-02", "10.52.2.12"
NOTIFIER_HOST, NOTIFIER_IP = "agl-app-03.ashgrove.internal", "10.52.2.13"
BATCH_IP, MQ_IP = "10.52.2.14", "10.52.3.5"
MAILHOST = "agl-mail-01"
CRAWLER = "203.0.113.77"
CRAWLER_UA = "LibHarvest/0.9 (+https://harvest.example/bot.html)"
STUFFER = "198.51.100.14"
STUFFER_UA = "python-requests/2.31.0"
SCANNER = "192.0.2.199"
NATS = [("10.52.40.1", 0.060), ("10.52.41.1", 0.036), ("10.52.42.1", 0.026)]
CONTAINER_ID = "5e0c9b2d41f7a8e36b1c0d2f94a7e5b8c3d6f1a09e2b7c4d8f5a1e3b6c9d0f27"
NOTIFIER_FILE = f"{CONTAINER_ID}-json.log"

# --- the night's planted moments
DOWN = T(1, 24, 16, 412_000)          # the deploy: gunicorn's master gets SIGTERM
GUNI_UP = T(1, 24, 27, 803_000)       # the new master listens
HUP = T(1, 38, 4, 220_000)            # the hot fix (no more pickup_branch), gunicorn HUPed
OVERDUE_START = T(1, 45, 2, 310_000)  # the overdue batch starts publishing (5 a minute)
MAILHUB_RL = T(1, 46, 10)             # mailhub.example starts answering 421
QFULL = T(2, 2, 55)                   # postfix's queue file system is below 1.5 x the size limit
ALARM_SET = T(2, 9, 33, 604_118)      # RabbitMQ memory alarm: publishers blocked
POSTSUPER = T(2, 17, 40, 118_000)     # the mail admin deletes mailhub's deferred mail
ALARM_CLEAR = T(2, 19, 12, 388_760)
CRAWL_START = T(2, 44, 5, 20_000)
MAXREQ = T(2, 47, 13, 502_331)        # AH00484 MaxRequestWorkers
STALL = T(2, 51, 38, 40_000)          # the notifier's only worker hangs rendering a 1184-page PDF
RELOAD = T(2, 58, 41, 90_112)         # `Require not ip 203.0.113.77`, graceful restart
DENY_START = T(2, 58, 43, 300_000)
SLOW_AVAIL = T(3, 5, 41, 117_300)     # the slowest availability lookup
ACK_TIMEOUT = T(3, 22, 10, 581_004)   # RabbitMQ's consumer_timeout (30 min) closes the channel
DUE_SOON = T(3, 30, 2, 404_000)
STUFF_START, STUFF_END = T(3, 36, 2, 118_000), T(3, 48, 50)

WORKERS = 16                          # gunicorn -w 16 (sync)
RATE_PER_MIN = 64                     # 01:00-02:00 carries exactly 64 x 60 requests
SEARCH_P95 = [None]                   # /search %D plateau (p95), set by the plan
RECORD_P99 = [None]                   # /record/ %D plateau (p99), set by the plan
MAX_D_US = 44_218_907                 # the slowest request of the access log
SLOW_AVAIL_US = 7_482_313
STUCK_PAGES = 1184
SUMMARY_SIZE = 3172                   # the stuck notice, re-sent as a text-only summary
N_OVERDUE, N_DUE_SOON = 260, 120

UAS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "AshgroveLibraries/5.3.1 (iPhone; iOS 17.4; Scale/3.00)",
    "AshgroveLibraries/5.3.0 (Android 14; Pixel 7)",
]
WORDS = ["harry+potter", "dune", "python", "knitting", "jazz+history", "tax+forms", "gardening", "chess",
         "world+war+ii", "cookbook", "manga", "birds", "local+history", "ted+chiang", "le+guin", "sourdough",
         "graphic+novels", "spanish", "resume", "genealogy", "climate", "mystery", "large+print", "sci-fi"]
BRANCHES = [("ELM", 0.30), ("ASH", 0.19), ("NOR", 0.17), ("RIV", 0.14), ("PKW", 0.12), ("HLT", 0.09)]
SURNAMES = ["okafor", "lindqvist", "moreau", "tanaka", "osei", "kowalski", "nguyen", "haddad", "fischer",
            "ramos", "obrien", "petrov", "mensah", "castillo", "ito", "novak", "achebe", "larsen", "silva",
            "kaur", "dubois", "yilmaz", "hughes", "bauer", "adeyemi", "costa", "walsh", "sato"]
TAIL_A = ["linden", "harbor", "quill", "ember", "marsh", "cobalt", "fern", "slate", "willow", "tern", "basalt", "heron"]
TAIL_B = ["post", "mail", "net", "wire", "box", "link"]
BIG_DOMAINS = [("mailhub.example", 0.30), ("postbox.example", 0.24), ("corvid.example", 0.12),
               ("ashnet.example", 0.06), ("riverline.example", 0.0065)]
RELAYS = {
    "mailhub.example": [("mx1.mailhub.example", "198.51.100.25"), ("mx2.mailhub.example", "198.51.100.26")],
    "postbox.example": [("mail.postbox.example", "192.0.2.40")],
    "corvid.example": [("mx.corvid.example", "203.0.113.31")],
    "ashnet.example": [("mx.ashnet.example", "192.0.2.81")],
    "riverline.example": [("smtp-in.riverline.example", "203.0.113.60")],
}


def _pick(rng, weighted):
    x = rng.random() * sum(w for _, w in weighted)
    for v, w in weighted:
        x -= w
        if x < 0:
            return v
    return weighted[-1][0]


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += sec(rng.expovariate(per_min / 60))
        if t >= b:
            return out
        out.append(t)


def _uniform_times(rng, a, b, k):
    span = (b - a).total_seconds()
    return sorted(a + sec(round(rng.uniform(0, span), 6)) for _ in range(k))


def _plateau(values_by_key, keys, lo, hi, p, rounder):
    """Sets the values at sorted ranks [lo*n, hi*n] of `keys` to one value, the p-th rank's value
    rounded by `rounder` (the order is kept); returns that value."""
    order = sorted(keys, key=lambda k: values_by_key[k])
    n = len(order)
    a, b = int(lo * n), int(hi * n)
    value = rounder(values_by_key[order[int(p * n)]])
    assert values_by_key[order[a]] <= value <= values_by_key[order[b]], (values_by_key[order[a]], value, values_by_key[order[b]])
    for k in order[a:b + 1]:
        values_by_key[k] = value
    return value


# ---------------------------------------------------------------- the plan

@lru_cache(maxsize=1)
def plan():
    rng = random.Random(PLAN_SEED)
    P = {}
    patrons = []
    for net in ("198.51.100", "203.0.113", "192.0.2"):
        for host in rng.sample(range(2, 250), 50):
            ip = f"{net}.{host}"
            if ip not in (CRAWLER, STUFFER, SCANNER) and not ip.startswith("192.0.2.4") and ip not in (
                    "198.51.100.25", "198.51.100.26", "192.0.2.81", "203.0.113.31", "203.0.113.60"):
                patrons.append(ip)
    patrons = sorted(set(patrons))
    weights = [(ip, rng.uniform(0.5, 2.0)) for ip in patrons]
    share = 1 - sum(w for _, w in NATS)
    tot = sum(w for _, w in weights)
    clients = list(NATS) + [(ip, share * w / tot) for ip, w in weights]
    P["patrons"] = patrons

    reqs = []

    def new_req(t, client, method, target, kind):
        r = {"t": t, "client": client, "port": rng.randint(40000, 64999), "method": method, "target": target,
             "kind": kind, "ref": "-", "ua": rng.choice(UAS), "fate": None, "g": None}
        reqs.append(r)
        return r

    # --- the POSTs that publish to RabbitMQ (holds, renewals), then the rest
    forbid_api = [(DOWN - sec(0.3), DOWN + sec(0.9))]
    forbid_post = [(HUP - sec(2), HUP + sec(1.5)), (ALARM_SET - sec(1), ALARM_SET + sec(1)),
                   (ALARM_CLEAR - sec(31.5), ALARM_CLEAR - sec(29.5)), (ALARM_CLEAR - sec(1), ALARM_CLEAR + sec(1))]
    alarm_hi = T(2, 18, 42)
    holds = []
    for a, b, rate in [(START, T(1, 0), 1.4), (T(1, 0), T(1, 20), 3.8), (T(1, 20), T(1, 40), 7.6),
                       (T(1, 40), T(2, 0), 3.8), (T(2, 0), ALARM_SET, 1.8), (ALARM_SET, alarm_hi, 6.2),
                       (alarm_hi, T(3, 0), 1.8), (T(3, 0), END - sec(60), 1.2)]:
        holds += _poisson(rng, a, b, rate)
    renews = []
    for a, b, rate in [(START, ALARM_SET, 1.1), (ALARM_SET, alarm_hi, 8.6), (alarm_hi, END - sec(60), 1.0)]:
        renews += _poisson(rng, a, b, rate)
    bad = lambda t: any(a <= t < b for a, b in forbid_api + forbid_post)  # noqa: E731
    for t in holds:
        if not bad(t):
            new_req(t, _pick(rng, clients), "POST", "/api/v2/holds", "holds")["ref"] = \
                f"{SITE}/record/b{rng.randint(1_000_000, 2_999_999)}"
    for t in renews:
        if not bad(t):
            new_req(t, _pick(rng, clients), "POST", "/api/v2/loans/renew", "renew")["ref"] = f"{SITE}/account/loans"

    # --- background browsing: exact counts per stretch (01:00-02:00 tops up to the planted rate)
    kinds = [("static", 0.20), ("cover", 0.17), ("home", 0.06), ("search", 0.22), ("record", 0.15),
             ("avail", 0.10), ("account", 0.04), ("fines", 0.02), ("history", 0.02), ("login", 0.02)]
    posts_h1 = sum(1 for r in reqs if T(1, 0) <= r["t"] < T(2, 0))
    stretches = [(START, T(1, 0), 330), (T(1, 0), T(2, 0), RATE_PER_MIN * 60 - posts_h1),
                 (T(2, 0), T(3, 0), 1980), (T(3, 0), T(4, 0), 1850), (T(4, 0), END, 290)]
    for a, b, k in stretches:
        for t in _uniform_times(rng, a, b, k):
            kind = _pick(rng, kinds)
            if kind in ("avail", "account", "fines", "history", "login") and any(x <= t < y for x, y in forbid_api):
                t = t + sec(1.5)
            client = _pick(rng, clients)
            _background(rng, new_req(t, client, "GET", "", kind))

    # --- the crawler, then the deny
    per_min = [118, 146, 171, 196, 224, 247, 318, 251, 239, 228, 214, 203, 191, 182, 96]
    m0 = T(2, 44)
    for i, k in enumerate(per_min):
        a = max(m0 + sec(60 * i), CRAWL_START)
        b = min(m0 + sec(60 * (i + 1)), RELOAD - sec(0.5))
        for t in _uniform_times(rng, a, b, k):
            r = new_req(t, CRAWLER, "GET", f"/search?q={rng.choice(WORDS)}&page={rng.randint(1, 400)}&sort=relevance",
                        "crawl")
            r["ua"] = CRAWLER_UA
    deny = [(DENY_START, T(2, 59), 31), (T(2, 59), T(3, 0), 214), (T(3, 0), T(3, 1), 187), (T(3, 1), T(3, 1, 55), 41)]
    for a, b, k in deny:
        for t in _uniform_times(rng, a, b, k):
            r = new_req(t, CRAWLER, "GET", f"/search?q={rng.choice(WORDS)}&page={rng.randint(1, 400)}&sort=relevance",
                        "denied")
            r["ua"] = CRAWLER_UA
    # the first denial is at DENY_START itself
    first_deny = min((r for r in reqs if r["kind"] == "denied"), key=lambda r: r["t"])
    first_deny["t"] = DENY_START

    # --- the credential stuffer, and a small scanner
    for i, t in enumerate(_uniform_times(rng, STUFF_START, STUFF_END, 741)):
        r = new_req(t, STUFFER, "POST", "/api/v2/login", "stuff" if i % 240 != 117 else "login_ok")
        r["ua"] = STUFFER_UA
        if r["kind"] == "login_ok":  # a hit: the stuffer reads the account it got into
            r2 = new_req(t + sec(rng.uniform(0.6, 1.4)), STUFFER, "GET", "/api/v2/account", "account_ok")
            r2["ua"] = STUFFER_UA
    for i, t in enumerate(_uniform_times(rng, T(3, 12, 4), T(3, 12, 40), 26)):
        r = new_req(t, SCANNER, "GET", ["/.env", "/wp-login.php", "/cgi-bin/.%2e/.%2e/.%2e/.%2e/bin/sh", "/server-status",
                                         "/.git/config", "/phpmyadmin/"][i % 6], "scan")
        r["ua"] = "Mozilla/5.0 zgrab/0.x"

    reqs.sort(key=lambda r: r["t"])
    _fates(rng, reqs)
    P["reqs"] = reqs
    _gunicorn(rng, P)
    _apache_times(rng, P)
    _rabbit(rng, P)
    _notices(rng, P)
    _mail(rng, P)
    return P


def _background(rng, r):
    k = r["kind"]
    if k == "static":
        r["target"] = rng.choice(["/static/css/opac.css?v=5.3.1", "/static/js/opac.js?v=5.3.1", "/static/img/logo.svg",
                                  "/favicon.ico"])
        r["ref"] = f"{SITE}/"
    elif k == "cover":
        r["target"] = f"/covers/978{rng.randint(0, 9_999_999_999):010d}.jpg"
        r["ref"] = f"{SITE}/search?q={rng.choice(WORDS)}&type=keyword"
    elif k == "home":
        r["target"] = "/"
        r["ref"] = rng.choice(["-", "https://www.ashgrove-libraries.org/", "https://www.google.com/"])
    elif k == "search":
        r["target"] = f"/search?q={rng.choice(WORDS)}&type={rng.choice(['keyword', 'title', 'author', 'subject'])}"
        r["ref"] = f"{SITE}/"
    elif k == "record":
        r["target"] = f"/record/b{rng.randint(1_000_000, 2_999_999)}"
        r["ref"] = f"{SITE}/search?q={rng.choice(WORDS)}&type=keyword"
    elif k == "avail":
        r["target"] = f"/api/v2/availability/b{rng.randint(1_000_000, 2_999_999)}"
        r["ref"] = f"{SITE}/record/b{rng.randint(1_000_000, 2_999_999)}"
    elif k == "account":
        r["target"] = "/api/v2/account"
        r["ref"] = f"{SITE}/account"
    elif k == "fines":
        r["target"] = "/api/v2/account/fines"
        r["ref"] = f"{SITE}/account"
    elif k == "history":
        r["target"] = "/api/v2/reading-history"
        r["ref"] = f"{SITE}/account/history"
    elif k == "login":
        r["method"] = "POST"
        r["target"] = "/api/v2/login"
        r["ref"] = f"{SITE}/login"


API = ("avail", "account", "fines", "history", "login", "holds", "renew", "stuff", "login_ok", "account_ok")


def _fates(rng, reqs):
    """Statuses, sizes and times of every request; the deploy's refused / disabled window."""
    first_refused = None
    for r in reqs:
        k, t = r["kind"], r["t"]
        if k in API and t >= DOWN and first_refused is None:
            first_refused = t
            r["fate"] = "refused"
            continue
        if k in API and first_refused is not None and t < first_refused + sec(60):
            r["fate"] = "disabled"
    for r in reqs:
        k, t = r["kind"], r["t"]
        if r["fate"] in ("refused", "disabled"):
            r.update(status=503, bytes=380, D=rng.randint(700, 2900) if r["fate"] == "refused" else rng.randint(90, 310))
            continue
        if k == "static":
            if rng.random() < 0.45:
                r.update(status=304, bytes=None, D=rng.randint(150, 600))
            else:
                size = {"/static/css": 41877, "/static/js/": 118342, "/static/img": 6120, "/favicon.ic": 1150}[r["target"][:11]]
                r.update(status=200, bytes=size, D=rng.randint(220, 1900))
        elif k == "cover":
            if rng.random() < 0.03:
                r.update(status=404, bytes=274, D=rng.randint(250, 700))
            else:
                r.update(status=200, bytes=rng.randint(6200, 64000), D=rng.randint(900, 6200))
        elif k == "home":
            r.update(status=200, bytes=rng.randint(18300, 18900), D=rng.randint(4000, 16000))
        elif k in ("search", "crawl"):
            slow = MAXREQ - sec(60) <= t < RELOAD
            if k == "crawl":
                d = rng.randint(600_000, 9_800_000) if slow else rng.randint(190_000, 880_000)
            elif slow:
                d = rng.randint(300_000, 3_000_000)
            else:
                d = int(rng.lognormvariate(11.8, 0.45)) if rng.random() < 0.95 else rng.randint(500_000, 2_600_000)
                d = max(d, 41_000)
            r.update(status=200, bytes=rng.randint(22000, 61000), D=d)
        elif k == "record":
            r.update(status=200, bytes=rng.randint(14000, 30500), D=rng.randint(20_000, 150_000))
        elif k == "denied":
            r.update(status=403, bytes=279, D=rng.randint(140, 420))
        elif k == "scan":
            bad = "%2e" in r["target"]
            r.update(status=400 if bad else 404, bytes=226 if bad else 196 + len(r["target"]), D=rng.randint(120, 500))
        else:
            _api_fate(rng, r)
    crawl = sorted((r for r in reqs if r["kind"] == "crawl" and MAXREQ < r["t"] < RELOAD - sec(60)), key=lambda r: r["t"])
    crawl[len(crawl) // 2]["D"] = MAX_D_US
    # the /search p95 plateau (all /search lines, the crawler's and its 403s included)
    rec = [id(r) for r in reqs if r["kind"] == "record"]
    by = {id(r): r["D"] for r in reqs if r["kind"] == "record"}
    RECORD_P99[0] = _plateau(by, rec, 0.98, 0.995, 0.99, lambda v: int(v))
    for r in reqs:
        if id(r) in by:
            r["D"] = by[id(r)]
    search = [id(r) for r in reqs if r["target"].startswith("/search")]
    by = {id(r): r["D"] for r in reqs if r["target"].startswith("/search")}
    SEARCH_P95[0] = _plateau(by, search, 0.935, 0.965, 0.95, lambda v: int(v))
    for r in reqs:
        if id(r) in by:
            r["D"] = by[id(r)]


def _api_fate(rng, r):
    """The backend's answer (status, bytes, gunicorn's request time in us)."""
    k, t = r["kind"], r["t"]
    blocked = ALARM_SET <= t < ALARM_CLEAR
    if k == "avail":
        if rng.random() < 0.02:
            r.update(status=404, bytes=43, L=rng.randint(5_000, 9_000))
        else:
            r.update(status=200, bytes=rng.randint(180, 420), L=rng.randint(8_000, 90_000))
    elif k == "account":
        if rng.random() < 0.03:
            r.update(status=401, bytes=37, L=rng.randint(3_000, 6_000))
        else:
            r.update(status=200, bytes=rng.randint(900, 1600), L=rng.randint(30_000, 150_000))
    elif k == "fines":
        r.update(status=200, bytes=rng.randint(120, 800), L=rng.randint(40_000, 200_000))
    elif k == "history":
        if rng.random() < 0.18:
            r.update(status=500, bytes=265, L=rng.randint(5_000_300, 5_060_000), fate="qcancel")
        else:
            r.update(status=200, bytes=rng.randint(4000, 40000), L=rng.randint(400_000, 2_500_000))
    elif k == "login":
        if rng.random() < 0.2:
            r.update(status=401, bytes=44, L=rng.randint(180_000, 240_000))
        else:
            r.update(status=200, bytes=412, L=rng.randint(190_000, 260_000))
    elif k == "stuff":
        r.update(status=401, bytes=44, L=rng.randint(180_000, 240_000))
    elif k == "login_ok":
        r.update(status=200, bytes=412, L=rng.randint(190_000, 260_000))
    elif k == "account_ok":
        r.update(status=200, bytes=rng.randint(900, 1600), L=rng.randint(30_000, 150_000))
    elif k == "holds":
        if rng.random() < 0.16:
            r.update(status=409, bytes=61, L=rng.randint(30_000, 60_000))
        elif t < HUP:
            if t >= DOWN:
                r.update(status=500, bytes=265, L=rng.randint(20_000, 50_000), fate="undefcol")
            else:
                r.update(status=201, bytes=rng.randint(290, 330), L=rng.randint(90_000, 450_000), fate="publish")
        else:
            r.update(status=201, bytes=rng.randint(290, 330), L=rng.randint(90_000, 450_000), fate="publish")
    elif k == "renew":
        if rng.random() < 0.10:
            r.update(status=422, bytes=88, L=rng.randint(30_000, 45_000))
        else:
            r.update(status=200, bytes=rng.randint(350, 420), L=rng.randint(80_000, 300_000), fate="publish")
    if r.get("fate") == "publish" and blocked:
        if t < ALARM_CLEAR - sec(30.5):
            r["fate"] = "timeout"
            r["kill"] = t + sec(30 + rng.uniform(0.15, 0.95))
        else:
            r["fate"] = "unblocked"
            r["L"] = int((ALARM_CLEAR - t).total_seconds() * 1e6) + rng.randint(20_000, 250_000)


def _gunicorn(rng, P):
    """Which worker serves what; the deploy, the HUP and every WORKER TIMEOUT."""
    reqs = P["reqs"]
    # the slowest availability lookup
    near = min((r for r in reqs if r["kind"] == "avail" and r.get("L") and r["status"] == 200),
               key=lambda r: abs((r["t"] - SLOW_AVAIL).total_seconds()))
    near["t"], near["L"] = SLOW_AVAIL, SLOW_AVAIL_US
    reqs.sort(key=lambda r: r["t"])
    # the p90 plateau of POST /api/v2/holds as gunicorn logs it
    hk = [id(r) for r in reqs if r["kind"] == "holds" and r.get("L") is not None and r["fate"] != "timeout"]
    hs = set(hk)
    by = {id(r): r["L"] for r in reqs if id(r) in hs}
    P["holds_p90"] = _plateau(by, hk, 0.875, 0.925, 0.90, lambda v: int(v))
    for r in reqs:
        if id(r) in by:
            r["L"] = by[id(r)]
    ev = []  # (t, pid, level, msg, more_lines)
    pid_next = [4126]

    def new_pid():
        p = pid_next[0]
        pid_next[0] += rng.randint(1, 6)
        return p

    old = [3017, 3018, 3020, 3021, 3023, 3024, 3026, 3027, 3029, 3030, 3032, 3033, 3035, 3036, 3038, 3039]
    master_old, master = 3011, 4120
    ev.append((DOWN, master_old, "INFO", "Handling signal: term", []))
    for i, p in enumerate(old):
        ev.append((DOWN + sec(0.05 + 0.02 * i), p, "INFO", f"Worker exiting (pid: {p})", []))
    ev.append((DOWN + sec(0.95), master_old, "INFO", "Shutting down: Master", []))
    ev.append((GUNI_UP - sec(0.31), master, "INFO", "Starting gunicorn 21.2.0", []))
    ev.append((GUNI_UP, master, "INFO", "Listening at: http://0.0.0.0:8000 (4120)", []))
    ev.append((GUNI_UP + sec(0.001), master, "INFO", "Using worker: sync", []))
    pool = []
    for i in range(WORKERS):
        p = new_pid()
        pool.append(p)
        ev.append((GUNI_UP + sec(0.004 + 0.011 * i), p, "INFO", f"Booting worker with pid: {p}", []))
    pool_before = list(old)
    P["boot_deploy"] = list(pool)
    hup_pool = []
    handled = [r for r in reqs if r.get("L") is not None or r["fate"] == "timeout"]
    kills = []  # (kill time, pid)
    busy = {}
    hup_done = False
    for r in handled:
        t = r["t"]
        if t >= HUP and not hup_done:
            hup_done = True
            ev.append((HUP, master, "INFO", "Handling signal: hup", []))
            ev.append((HUP + sec(0.002), master, "INFO", "Hang up: Master", []))
            for i in range(WORKERS):
                p = new_pid()
                hup_pool.append(p)
                ev.append((HUP + sec(0.31 + 0.012 * i), p, "INFO", f"Booting worker with pid: {p}", []))
            for i, p in enumerate(pool):
                ev.append((HUP + sec(0.52 + 0.03 * i), p, "INFO", f"Worker exiting (pid: {p})", []))
            pool = list(hup_pool)
        for kt, kp in sorted(kills):
            if kt <= t and kp in pool:
                np_ = new_pid()
                pool[pool.index(kp)] = np_
                busy.pop(kp, None)
                ev.append((kt, master, "CRITICAL", f"WORKER TIMEOUT (pid:{kp})", []))
                ev.append((kt + sec(0.004), master, "ERROR", f"Worker (pid:{kp}) exited with code 1", []))
                ev.append((kt + sec(0.09 + rng.random() * 0.05), np_, "INFO", f"Booting worker with pid: {np_}", []))
        kills = [(kt, kp) for kt, kp in kills if kp in pool]
        cur = pool_before if t < DOWN else pool
        free = [p for p in cur if busy.get(p, START) <= t]
        pid = rng.choice(free) if free else min(cur, key=lambda p: busy.get(p, START))
        assert free or all(kp != pid for _, kp in kills), (t, "every worker blocked")
        start = max(t, busy.get(pid, START)) + sec(rng.randint(300, 800) / 1e6)
        r["g"] = {"pid": pid, "start": start}
        if r["fate"] == "timeout":
            busy[pid] = r["kill"]
            kills.append((r["kill"], pid))
        else:
            end = start + sec(r["L"] / 1e6)
            r["g"]["end"] = end
            busy[pid] = end
            if r["fate"] in ("undefcol", "qcancel"):
                ev.append((end - sec(0.0012), pid, "ERROR", f"Exception on {r['target']} [{r['method']}]",
                           _traceback(r["fate"])))
    for kt, kp in sorted(kills):
        np_ = new_pid()
        ev.append((kt, master, "CRITICAL", f"WORKER TIMEOUT (pid:{kp})", []))
        ev.append((kt + sec(0.004), master, "ERROR", f"Worker (pid:{kp}) exited with code 1", []))
        ev.append((kt + sec(0.1), np_, "INFO", f"Booting worker with pid: {np_}", []))
    ev.sort(key=lambda e: e[0])
    P["guni_err"] = ev
    P["boot_hup"] = hup_pool


FLASK_FRAMES = [
    '  File "/srv/circ-api/venv/lib/python3.11/site-packages/flask/app.py", line 1463, in wsgi_app',
    "    response = self.full_dispatch_request()",
    "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    '  File "/srv/circ-api/venv/lib/python3.11/site-packages/flask/app.py", line 872, in full_dispatch_request',
    "    rv = self.handle_user_exception(e)",
    "         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    '  File "/srv/circ-api/venv/lib/python3.11/site-packages/flask/app.py", line 870, in full_dispatch_request',
    "    rv = self.dispatch_request()",
    "         ^^^^^^^^^^^^^^^^^^^^^^^",
    '  File "/srv/circ-api/venv/lib/python3.11/site-packages/flask/app.py", line 855, in dispatch_request',
    "    return self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)  # type: ignore[no-any-return]",
    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
]


def _traceback(fate):
    if fate == "undefcol":
        tail = [
            '  File "/srv/circ-api/circ/api/holds.py", line 88, in place_hold',
            '    hold = repo.create_hold(patron.id, body["bib_id"], body.get("pickup_branch"))',
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "/srv/circ-api/circ/repo.py", line 141, in create_hold',
            "    cur.execute(INSERT_HOLD, (patron_id, bib_id, branch))",
            'psycopg2.errors.UndefinedColumn: column "pickup_branch" of relation "holds" does not exist',
            "LINE 1: INSERT INTO holds (patron_id, bib_id, pickup_branch, placed_...",
            "                                              ^",
        ]
    else:
        tail = [
            '  File "/srv/circ-api/circ/api/account.py", line 57, in reading_history',
            "    rows = repo.reading_history(patron.id, limit=500)",
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "/srv/circ-api/circ/repo.py", line 212, in reading_history',
            "    cur.execute(READING_HISTORY, (patron_id, limit))",
            "psycopg2.errors.QueryCanceled: canceling statement due to statement timeout",
        ]
    return ["Traceback (most recent call last):"] + FLASK_FRAMES + tail


def _apache_times(rng, P):
    """%D of the proxied requests, and the error log's events."""
    apids = [29811, 29812, 29813, 29940]
    npids = [31402, 31403, 31404, 31405]
    tids = {p: [rng.randint(139_900_000_000_000, 140_300_000_000_000) // 64 * 64 for _ in range(6)] for p in apids + npids}
    parent, ptid = 1043, 140233052800896
    err = []

    def who(t):
        p = rng.choice(apids if t < RELOAD else npids)
        return p, rng.choice(tids[p])

    backend = f"{APP}:8000"
    for r in P["reqs"]:
        t = r["t"]
        cli = f"{r['client']}:{r['port']}"
        ref = "" if r["ref"] == "-" else f", referer: {r['ref']}"
        if r["fate"] == "refused":
            p, tid = who(t)
            err.append((t + sec(0.0006), "proxy", "error", p, tid,
                        f"(111)Connection refused: AH00957: HTTP: attempt to connect to {APP_IP}:8000 ({backend}) failed"))
            err.append((t + sec(0.00062), "proxy", "error", p, tid,
                        f"AH00959: ap_proxy_connect_backend disabling worker for ({backend}) for 60s"))
            err.append((t + sec(0.00066), "proxy_http", "error", p, tid,
                        f"[client {cli}] AH01114: HTTP: failed to make connection to backend: {APP}{ref}"))
        elif r["fate"] == "disabled":
            p, tid = who(t)
            err.append((t + sec(0.00008), "proxy", "error", p, tid, f"AH00940: HTTP: disabled connection for ({backend})"))
        elif r["fate"] == "timeout":
            p, tid = who(t)
            kt = r["kill"] + sec(rng.randint(400, 1500) / 1e6)
            err.append((kt, "proxy_http", "error", p, tid,
                        f"(104)Connection reset by peer: [client {cli}] AH01102: error reading status line from remote server {backend}{ref}"))
            err.append((kt + sec(0.00004), "proxy", "error", p, tid,
                        f"[client {cli}] AH00898: Error reading from remote server returned by {r['target']}{ref}"))
            r.update(status=502, bytes=365, D=int((kt - t).total_seconds() * 1e6) + 60)
        elif r["kind"] == "denied":
            p, tid = who(t)
            err.append((t + sec(r["D"] / 2e6), "authz_core", "error", p, tid,
                        f"[client {cli}] AH01630: client denied by server configuration: /var/www/opac/public/search"))
        elif r["kind"] == "scan" and r["status"] == 400:
            p, tid = who(t)
            err.append((t + sec(0.0001), "core", "error", p, tid,
                        f"[client {cli}] AH10244: invalid URI path ({r['target']})"))
        if r.get("g") and r["g"].get("end"):
            r["D"] = int((r["g"]["end"] - t).total_seconds() * 1e6) + rng.randint(250, 1400)
    # PHP warnings from the OPAC's search pages (proxy_fcgi), one every few minutes
    searches = [r for r in P["reqs"] if r["kind"] == "search"]
    for r in rng.sample(searches, 34):
        p, tid = who(r["t"])
        err.append((r["t"] + sec(r["D"] / 1e6 * 0.9), "proxy_fcgi", "error", p, tid,
                    f"[client {r['client']}:{r['port']}] AH01071: Got error 'PHP message: PHP Warning:  Undefined array key "
                    f"\"facet\" in /var/www/opac/src/Search/Facets.php on line 212', referer: {r['ref']}"))
    err.append((MAXREQ, "mpm_event", "error", parent, ptid,
                "AH00484: server reached MaxRequestWorkers setting, consider raising the MaxRequestWorkers setting"))
    err.append((RELOAD, "mpm_event", "notice", parent, ptid, "AH00493: SIGUSR1 received.  Doing graceful restart"))
    err.append((RELOAD + sec(1.204), "mpm_event", "notice", parent, ptid,
                "AH00489: Apache/2.4.58 (Ubuntu) OpenSSL/3.0.13 configured -- resuming normal operations"))
    err.append((RELOAD + sec(1.2041), "core", "notice", parent, ptid, "AH00094: Command line: '/usr/sbin/apache2'"))
    err.sort(key=lambda e: e[0])
    P["apache_err"] = err


def _rabbit(rng, P):
    """AMQP connections: one per publish from circ-api, the batch jobs', the notifier's."""
    conns = []  # dicts: accept, auth, close, kind ('ok', 'unexpected'), ip, port, user
    for r in P["reqs"]:
        if r["fate"] not in ("publish", "timeout", "unblocked"):
            continue
        g = r["g"]
        if r["fate"] == "publish":
            acc = g["start"] + sec(r["L"] * 0.55 / 1e6)
            close = g["end"] - sec(0.0012)
        elif r["fate"] == "unblocked":
            acc = g["start"] + sec(0.04)
            close = ALARM_CLEAR + sec(0.02 + (g["end"] - ALARM_CLEAR).total_seconds() * 0.5)
        else:
            acc = g["start"] + sec(0.041)
            close = r["kill"] + sec(rng.randint(800, 3000) / 1e6)
        c = {"accept": acc, "auth": acc + sec(rng.randint(3100, 6500) / 1e6), "close": close, "ip": APP_IP,
             "port": rng.randint(33000, 60999), "user": "circ",
             "kind": "unexpected" if r["fate"] == "timeout" else "ok", "req": r}
        r["amqp"] = c
        conns.append(c)
    P["conns"] = conns


def _notices(rng, P):
    """Every notice published, and the notifier's single worker sending them through postfix."""
    reqs = P["reqs"]
    notes = []
    for r in reqs:
        if r["fate"] in ("publish", "unblocked"):
            notes.append({"enq": r["amqp"]["close"] - sec(0.002), "kind": "hold_placed" if r["kind"] == "holds" else "renewal_receipt"})
    # the overdue batch: 5 a minute, blocked by the alarm, and the notice that hangs the worker
    t = OVERDUE_START
    over = []
    while len(over) < N_OVERDUE:
        if ALARM_SET <= t < ALARM_CLEAR:
            t = ALARM_CLEAR + sec(0.051)
        over.append(t)
        t += sec(12 + rng.uniform(-0.8, 0.8))
    i = min(range(len(over)), key=lambda j: abs((over[j] - STALL).total_seconds()))
    over[i] = STALL - sec(0.118)
    for j, t in enumerate(over):
        notes.append({"enq": t, "kind": "overdue", "stuck": j == i})
    for j in range(N_DUE_SOON):
        notes.append({"enq": DUE_SOON + sec(j * 0.21 + rng.uniform(0, 0.05)), "kind": "due_soon"})
    notes.sort(key=lambda n: n["enq"])
    big = [d for d, _ in BIG_DOMAINS]
    tail = sorted({a + b + ".example" for a in TAIL_A for b in TAIL_B})
    rng.shuffle(tail)
    tail = tail[:66]
    P["tail_domains"] = sorted(tail)
    for n in notes:
        n["id"] = None
        n["branch"] = _pick(rng, BRANCHES)
        x = rng.random()
        acc = 0.0
        dom = None
        for d, w in BIG_DOMAINS:
            acc += w
            if x < acc:
                dom = d
                break
        dom = dom or rng.choice(tail)
        n["to"] = f"{rng.choice('abcdefghijklmnoprstvwy')}.{rng.choice(SURNAMES)}{rng.choice(['', '', str(rng.randint(1, 99))])}@{dom}"
        lo, hi = {"hold_placed": (180, 720), "renewal_receipt": (150, 600), "overdue": (1700, 3400),
                  "due_soon": (260, 900)}[n["kind"]]
        n["took"] = rng.randint(lo, hi)
        n["smtp_ms"] = rng.randint(40, 160)
        n["size"] = {"hold_placed": (6100, 9000), "renewal_receipt": (5800, 8000), "overdue": (2_100_000, 2_900_000),
                     "due_soon": (5000, 7000)}[n["kind"]]
        n["size"] = rng.randint(*n["size"])
    nid = 771_200
    for n in notes:
        nid += rng.randint(1, 4)
        n["id"] = nid
    stuck = next(n for n in notes if n.get("stuck"))
    stuck.update(took=rng.randint(300, 480), size=SUMMARY_SIZE, smtp_ms=rng.randint(40, 80))
    stuck["to"] = "r.haddad@postbox.example"
    # the median plateau of took_ms, then one exact mean (the busiest branch's)
    keys = list(range(len(notes)))
    by = {i: n["took"] for i, n in enumerate(notes)}
    med = _plateau(by, keys, 0.465, 0.535, 0.5, lambda v: v)
    for i, n in enumerate(notes):
        n["took"] = by[i]
    P["took_p50"] = med
    cnt = {}
    for n in notes:
        cnt[n["branch"]] = cnt.get(n["branch"], 0) + 1
    top = max(cnt, key=cnt.get)
    mine = [n for n in notes if n["branch"] == top]
    s = sum(n["took"] for n in mine)
    target = round(s / len(mine))
    heavy = max(mine, key=lambda n: n["took"])
    heavy["took"] += target * len(mine) - s
    P["branch_mean"] = (top, target)
    # the worker: one notice at a time; 452s retried every 5 s; the 30-minute hang
    free = START
    resume = ACK_TIMEOUT + sec(5.76)
    out = []
    rejects = []
    for n in notes:
        if n.get("stuck"):
            n["start"] = max(STALL, free + sec(rng.uniform(0.004, 0.03)))
            assert (ACK_TIMEOUT - n["start"]).total_seconds() > 1805, n["start"]
            n["redelivered"] = resume
            a = resume + sec(0.21)
            n["attempt"] = a
            n["sent"] = a + sec(n["smtp_ms"] / 1000)
            free = n["sent"]
            out.append(n)
            continue
        s = max(n["enq"] + sec(rng.uniform(0.04, 0.25)), free + sec(rng.uniform(0.004, 0.03)))
        if STALL <= s < resume:
            s = max(s, free) + sec(rng.uniform(0.004, 0.03))
        n["start"] = s
        a = s + sec((n["took"] - n["smtp_ms"]) / 1000)
        while QFULL <= a < POSTSUPER + sec(0.5):
            rejects.append((a, n))
            a += sec(5 + rng.uniform(0.01, 0.05))
        n["attempt"] = a
        n["sent"] = a + sec(n["smtp_ms"] / 1000)
        free = n["sent"]
        out.append(n)
    assert all(n["sent"] < END - sec(30) for n in out)
    P["notes"] = sorted(out, key=lambda n: n["sent"])
    P["rejects"] = rejects
    P["resume"] = resume
    # rabbit: the batch jobs' and the notifier's own connections
    ov = [n["enq"] for n in notes if n["kind"] == "overdue"]
    ds = [n["enq"] for n in notes if n["kind"] == "due_soon"]
    P["conns"].append({"accept": min(ov) - sec(2.113), "auth": min(ov) - sec(2.108), "close": max(ov) + sec(0.507),
                       "ip": BATCH_IP, "port": 41877, "user": "batch", "kind": "ok"})
    P["conns"].append({"accept": min(ds) - sec(1.302), "auth": min(ds) - sec(1.297), "close": max(ds) + sec(0.412),
                       "ip": BATCH_IP, "port": 52290, "user": "batch", "kind": "ok"})
    P["notifier_old"] = {"ip": NOTIFIER_IP, "port": 40122, "user": "notifier", "close": ACK_TIMEOUT + sec(4.6)}
    P["conns"].append({"accept": ACK_TIMEOUT + sec(4.93), "auth": ACK_TIMEOUT + sec(4.936), "close": None,
                       "ip": NOTIFIER_IP, "port": 40988, "user": "notifier", "kind": "ok"})
    P["conns"].append({"accept": None, "auth": None, "close": ACK_TIMEOUT + sec(4.61), "ip": NOTIFIER_IP, "port": 40122,
                       "user": "notifier", "kind": "ok"})
    conns = sorted(P["conns"], key=lambda c: c["accept"] or START)
    erl = 18_044
    for c in conns:
        erl += rng.randint(7, 60)
        c["erl"] = erl if c["accept"] else 9101
    P["conns"] = conns


def _mail(rng, P):
    """Postfix on agl-mail-01: every accepted notice, its delivery, retries, bounces, the 452s."""
    qids = set()

    def qid():
        while True:
            q = "".join(rng.choice("0123456789ABCDEF") for _ in range(10))
            if q not in qids and not q.isdigit():
                qids.add(q)
                return q

    recs = []  # (t, proc, pid, msg)
    smtpd = [20411, 20977, 21310]
    cleanup = [20415, 21002]
    smtp = [20419, 20988, 21006, 21120, 21377]
    qmgr = 1187
    deliveries = []  # status=sent deliveries: dict(t, relay, delay...) for the p99 plateau
    pending = []  # deferred messages awaiting retry

    def line(t, proc, pid, msg):
        recs.append((t, proc, pid, msg))

    def session(t, ok):
        pid = rng.choice(smtpd)
        line(t, "smtpd", pid, f"connect from {NOTIFIER_HOST}[{NOTIFIER_IP}]")
        return pid

    for a, n in P["rejects"]:
        pid = session(a - sec(0.004), False)
        free = rng.randint(1_600_000, 2_900_000) // 4096 * 4096
        line(a - sec(0.001), "smtpd", pid, f"warning: not enough free space in mail queue: {free} bytes < 1.5*message size limit")
        line(a, "smtpd", pid, f"NOQUEUE: reject: MAIL from {NOTIFIER_HOST}[{NOTIFIER_IP}]: 452 4.3.1 Insufficient system "
                              f"storage; proto=ESMTP helo=<{NOTIFIER_HOST}>")
        line(a + sec(0.003), "smtpd", pid, f"disconnect from {NOTIFIER_HOST}[{NOTIFIER_IP}] ehlo=1 mail=0/1 quit=1 commands=2/3")
    msgs = []
    for n in P["notes"]:
        a = n["attempt"]
        q = qid()
        n["qid"] = q
        pid = session(a + sec(0.002), True)
        line(a + sec(0.006), "smtpd", pid, f"{q}: client={NOTIFIER_HOST}[{NOTIFIER_IP}]")
        arr = a + sec(n["smtp_ms"] * 0.4 / 1000)
        line(arr, "cleanup", rng.choice(cleanup), f"{q}: message-id=<notice-{n['id']}@ashgrove-libraries.org>")
        qa = n["sent"] - sec(0.001)
        line(qa, "qmgr", qmgr, f"{q}: from=<notices@ashgrove-libraries.org>, size={n['size']}, nrcpt=1 (queue active)")
        line(n["sent"] + sec(0.0005), "smtpd", pid,
             f"disconnect from {NOTIFIER_HOST}[{NOTIFIER_IP}] ehlo=1 mail=1 rcpt=1 data=1 quit=1 commands=5")
        msgs.append({"qid": q, "arr": arr, "qa": qa, "to": n["to"], "size": n["size"], "note": n})
    # deliveries
    for m in msgs:
        dom = m["to"].split("@")[1]
        relay = rng.choice(RELAYS[dom]) if dom in RELAYS else (f"mx.{dom}", f"203.0.113.{rng.randint(100, 199)}")
        m["relay"] = relay
        first = m["qa"] + sec(rng.uniform(0.25, 2.3) if rng.random() < 0.98 else rng.uniform(2.8, 6.5))
        if dom == "mailhub.example" and first >= MAILHUB_RL:
            m["attempts"] = [(first, "deferred", "421")]
            t = first
            back = 300
            while True:
                t = t + sec(back + rng.uniform(2, 90))
                back = min(back * 2, 4000)
                if m["arr"] < POSTSUPER <= t or t >= END:
                    break
                m["attempts"].append((t, "deferred", "421"))
            m["deleted"] = m["arr"] < POSTSUPER and not any(x >= POSTSUPER for x, _, _ in m["attempts"])
        elif dom == "riverline.example":
            m["attempts"] = [(first, "deferred", "450"), (first + sec(rng.uniform(310, 560)), "sent", "250")]
        elif (dom == "ashnet.example" and rng.random() < 0.35) or (dom not in RELAYS and rng.random() < 0.012):
            m["attempts"] = [(first, "bounced", "550")]
        else:
            m["attempts"] = [(first, "sent", "250")]
        m.setdefault("deleted", False)
        if m["note"].get("stuck"):
            assert m["attempts"][-1][1] == "sent"
    # the p99 plateau of status=sent delays
    sent = [m for m in msgs if m["attempts"][-1][1] == "sent"]
    dl = {id(m): (m["attempts"][-1][0] - m["arr"]).total_seconds() for m in sent}
    P["delay_p95"] = _plateau(dl, [id(m) for m in sent], 0.925, 0.965, 0.95, lambda v: int(v * 10) / 10)
    for m in sent:
        t = m["arr"] + sec(dl[id(m)])
        m["attempts"][-1] = (t, "sent", "250")
    P["postsuper_n"] = sum(1 for m in msgs if m["deleted"])
    for m in msgs:
        host, ip = m["relay"]
        rcpt = m["to"]
        for k, (t, status, code) in enumerate(m["attempts"]):
            if k > 0:
                line(t - sec(rng.uniform(0.2, 0.6)), "qmgr", qmgr,
                     f"{m['qid']}: from=<notices@ashgrove-libraries.org>, size={m['size']}, nrcpt=1 (queue active)")
            delay = (t - m["arr"]).total_seconds()
            dstr = _pdelay(delay)
            a_ = min(delay * 0.3, rng.uniform(0.01, 0.08)) if k == 0 else delay - rng.uniform(0.4, 1.6)
            b_ = rng.uniform(0, 0.02)
            c_ = rng.uniform(0.04, 0.35)
            d_ = max(delay - a_ - b_ - c_, 0.0)
            delays = "/".join(_pdelay(x) for x in (a_, b_, c_, d_))
            pre = f"{m['qid']}: to=<{rcpt}>, relay={host}[{ip}]:25, delay={dstr}, delays={delays}, "
            if status == "sent":
                remote = "".join(rng.choice("0123456789ABCDEF") for _ in range(10))
                line(t, "smtp", rng.choice(smtp), pre + f"dsn=2.0.0, status=sent (250 2.0.0 Ok: queued as {remote})")
                line(t + sec(0.0008), "qmgr", qmgr, f"{m['qid']}: removed")
            elif status == "deferred" and code == "421":
                line(t, "smtp", rng.choice(smtp), pre + f"dsn=4.7.0, status=deferred (host {host}[{ip}] said: 421 4.7.0 "
                     "[MH-RL2] Messages from 203.0.113.40 temporarily deferred due to excessive volume (in reply to MAIL FROM command))")
            elif status == "deferred":
                line(t, "smtp", rng.choice(smtp), pre + f"dsn=4.7.1, status=deferred (host {host}[{ip}] said: 450 4.7.1 "
                     f"<{rcpt}>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/"
                     f"{rcpt.split('@')[1]}.html (in reply to RCPT TO command))")
            else:
                line(t, "smtp", rng.choice(smtp), pre + f"dsn=5.1.1, status=bounced (host {host}[{ip}] said: 550 5.1.1 "
                     f"<{rcpt}>: Recipient address rejected: User unknown in local recipient table (in reply to RCPT TO command))")
                b = qid()
                line(t + sec(0.004), "cleanup", rng.choice(cleanup),
                     f"{b}: message-id=<{t.strftime('%Y%m%d%H%M%S')}.{b}@{MAILHOST}.ashgrove.internal>")
                line(t + sec(0.005), "bounce", 22107, f"{m['qid']}: sender non-delivery notification: {b}")
                bsize = rng.randint(4900, 7600)
                line(t + sec(0.006), "qmgr", qmgr, f"{b}: from=<>, size={bsize}, nrcpt=1 (queue active)")
                line(t + sec(0.007), "qmgr", qmgr, f"{m['qid']}: removed")
                line(t + sec(0.019), "local", 22110, f"{b}: to=<notices@ashgrove-libraries.org>, relay=local, delay=0.01, "
                     "delays=0/0/0/0, dsn=2.0.0, status=sent (delivered to mailbox)")
                line(t + sec(0.020), "qmgr", qmgr, f"{b}: removed")
    # postsuper -d of mailhub's deferred mail
    gone = sorted((m for m in msgs if m["deleted"]), key=lambda m: m["qid"])
    for i, m in enumerate(gone):
        line(POSTSUPER + sec(0.0003 * i), "postsuper", 23011, f"{m['qid']}: removed")
    line(POSTSUPER + sec(0.0003 * len(gone) + 0.001), "postsuper", 23011, f"Deleted: {len(gone)} messages")
    recs = [x for x in recs if START <= x[0] < END]
    recs.sort(key=lambda x: x[0])
    P["mail"] = recs
    P["msgs"] = msgs


def _pdelay(x):
    """Postfix's rendering of a delay: whole seconds from 10 s, one decimal from 1 s, two below."""
    if x >= 10:
        return str(int(round(x)))
    if x >= 1:
        s = f"{x:.1f}"
    elif x < 0.005:
        return "0"
    else:
        s = f"{x:.2f}"
    s = s.rstrip("0").rstrip(".")
    return s or "0"


# ---------------------------------------------------------------- the writers

MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DOW = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _clf(t):
    return f"[{t.day:02d}/{MON[t.month - 1]}/{t.year}:{t:%H:%M:%S} +0000]"


def access_log(rng):
    lines = []
    for r in plan()["reqs"]:
        size = "-" if r["bytes"] is None else str(r["bytes"])
        text = (f'{r["client"]} - - {_clf(r["t"])} "{r["method"]} {r["target"]} HTTP/1.1" {r["status"]} {size} '
                f'"{r["ref"]}" "{r["ua"]}" {r["D"]}')
        lines.append((r["t"] + sec(r["D"] / 1e6), text))
    lines.sort(key=lambda x: x[0])
    return "".join(t + "\n" for _, t in lines)


def error_log(rng):
    out = []
    for t, mod, lvl, pid, tid, msg in plan()["apache_err"]:
        ts = f"{DOW[t.weekday()]} {MON[t.month - 1]} {t.day:02d} {t:%H:%M:%S}.{t.microsecond:06d} {t.year}"
        out.append(f"[{ts}] [{mod}:{lvl}] [pid {pid}:tid {tid}] {msg}\n")
    return "".join(out)


def gunicorn_access_log(rng):
    lines = []
    for r in plan()["reqs"]:
        g = r.get("g")
        if not g or not g.get("end"):
            continue
        L = r["L"]
        text = (f'{r["client"]} - - {_clf(g["end"])} "{r["method"]} {r["target"]} HTTP/1.1" {r["status"]} {r["bytes"]} '
                f'"{r["ref"]}" "{r["ua"]}" {L // 1_000_000}.{L % 1_000_000:06d}')
        lines.append((g["end"], text))
    lines.sort(key=lambda x: x[0])
    return "".join(t + "\n" for _, t in lines)


def gunicorn_error_log(rng):
    out = []
    for t, pid, lvl, msg, more in plan()["guni_err"]:
        out.append(f"[{t:%Y-%m-%d %H:%M:%S} +0000] [{pid}] [{lvl}] {msg}\n")
        out.extend(m + "\n" for m in more)
    return "".join(out)


def _rts(t):
    return f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond:06d}+00:00"


def rabbit_log(rng):
    P = plan()
    ev = []
    node = "rabbit@agl-mq-01"
    for c in P["conns"]:
        pid = f"<0.{c['erl']}.0>"
        peer = f"{c['ip']}:{c['port']} -> {MQ_IP}:5672"
        if c["accept"]:
            ev.append((c["accept"], "info", pid, [f"accepting AMQP connection {pid} ({peer})"]))
            ev.append((c["auth"], "info", pid,
                       [f"connection {pid} ({peer}): user '{c['user']}' authenticated and granted access to vhost 'notices'"]))
        if c["close"] is None:
            continue
        head = f"closing AMQP connection {pid} ({peer}, vhost: 'notices', user: '{c['user']}')"
        if c["kind"] == "unexpected":
            ev.append((c["close"], "warning", pid, [head + ":", "client unexpectedly closed TCP connection"]))
        else:
            ev.append((c["close"], "info", pid, [head]))
    alarm = "<0.486.0>"
    ev.append((ALARM_SET - sec(0.0021), "info", "<0.488.0>",
               ["vm_memory_high_watermark set. Memory used:3435982848 allowed:3435973836"]))
    ev.append((ALARM_SET, "warning", alarm, [f"memory resource limit alarm set on node '{node}'.", "",
                                             "**********************************************************",
                                             "*** Publishers will be blocked until this alarm clears ***",
                                             "**********************************************************", ""]))
    ev.append((ALARM_CLEAR - sec(0.0019), "info", "<0.488.0>",
               ["vm_memory_high_watermark clear. Memory used:2960137216 allowed:3435973836"]))
    ev.append((ALARM_CLEAR, "warning", alarm, [f"memory resource limit alarm cleared on node '{node}'"]))
    ev.append((ALARM_CLEAR + sec(0.0004), "warning", alarm, ["memory resource limit alarm cleared across the cluster"]))
    ch = "<0.9127.0>"
    old = P["notifier_old"]
    peer = f"{old['ip']}:{old['port']} -> {MQ_IP}:5672"
    ev.append((ACK_TIMEOUT, "warning", ch,
               ["Consumer amq.ctag-x3bW0hZ7lYbQv1u8mP2k9g on channel 1 has timed out waiting for delivery acknowledgement. "
                "Timeout used: 1800000 ms. This timeout value can be configured, see consumers doc guide to learn more"]))
    ev.append((ACK_TIMEOUT + sec(0.0009), "error", ch,
               [f"Channel error on connection <0.9101.0> ({peer}, vhost: 'notices', user: 'notifier'), channel 1:",
                "operation none caused a channel exception precondition_failed: delivery acknowledgement on channel 1 "
                "timed out. Timeout value used: 1800000 ms. This timeout value can be configured, see consumers doc guide "
                "to learn more"]))
    ev.sort(key=lambda e: e[0])
    out = []
    for t, lvl, pid, msgs in ev:
        for m in msgs:
            out.append(f"{_rts(t)} [{lvl}] {pid} {m}".rstrip(" ") + "\n")
    return "".join(out)


def maillog(rng):
    out = []
    for t, proc, pid, msg in plan()["mail"]:
        out.append(f"{MON[t.month - 1]} {t.day:2d} {t:%H:%M:%S} {MAILHOST} postfix/{proc}[{pid}]: {msg}\n")
    return "".join(out)


NOTIFIER_TB = [
    "Traceback (most recent call last):",
    '  File "/app/notifier/consumer.py", line 74, in run',
    "    self.channel.start_consuming()",
    '  File "/usr/local/lib/python3.12/site-packages/pika/adapters/blocking_connection.py", line 1883, in start_consuming',
    "    self._process_data_events(time_limit=None)",
    '  File "/usr/local/lib/python3.12/site-packages/pika/adapters/blocking_connection.py", line 2044, in _process_data_events',
    "    self.connection.process_data_events(time_limit=time_limit)",
    '  File "/usr/local/lib/python3.12/site-packages/pika/adapters/blocking_connection.py", line 842, in process_data_events',
    "    self._flush_output(common_terminator)",
    '  File "/usr/local/lib/python3.12/site-packages/pika/adapters/blocking_connection.py", line 523, in _flush_output',
    "    raise self._closed_result.value.error",
    "pika.exceptions.ChannelClosedByBroker: (406, 'PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. "
    "Timeout value used: 1800000 ms. This timeout value can be configured, see consumers doc guide to learn more')",
]


def _asctime(t):
    return f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}"


def _go_json(s):
    return json.dumps(s, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _docker_time(t, ns):
    frac = f"{t.microsecond:06d}{ns:03d}".rstrip("0")
    return f"{t:%Y-%m-%dT%H:%M:%S}" + (f".{frac}" if frac else "") + "Z"


def notifier_log(rng):
    P = plan()
    ev = []  # (t, stream, text)

    def log(t, lvl, name, msg, more=()):
        ev.append((t, "stderr", f"{_asctime(t)} {lvl} {name}: {msg}"))
        for i, m in enumerate(more):
            ev.append((t + sec(0.000004 * (i + 1)), "stderr", m))

    for n in P["notes"]:
        if n.get("stuck"):
            log(n["start"] + sec(0.0021), "INFO", "notifier.render",
                f"large statement notice={n['id']} kind=overdue pages={STUCK_PAGES}, rendering may take a while")
            for k in (1, 2, 3):
                log(n["start"] + sec(600 * k + 0.0131), "WARNING", "notifier.watchdog",
                    f"worker-1 busy on notice={n['id']} for {600 * k}s")
            log(n["redelivered"] + sec(0.0103), "WARNING", "notifier.worker",
                f"notice={n['id']} redelivered (pages={STUCK_PAGES} > max_pages=400), sending summary without attachment")
            extra = " redelivered=True"
        else:
            extra = ""
        log(n["sent"] + sec(0.0004), "INFO", "notifier.worker",
            f"sent notice={n['id']} kind={n['kind']} branch={n['branch']} to=<{n['to']}> queued_as={n['qid']} "
            f"took_ms={n['took']}{extra}")
    for a, n in P["rejects"]:
        log(a + sec(0.0011), "WARNING", "notifier.smtp",
            f"notice={n['id']} rejected by {MAILHOST}: 452 4.3.1 Insufficient system storage; retry in 5s")
    log(ACK_TIMEOUT + sec(0.6211), "ERROR", "notifier.consumer", "consumer crashed, reconnecting in 4s", NOTIFIER_TB)
    log(ACK_TIMEOUT + sec(4.902), "INFO", "notifier.consumer", "connecting to amqp://notifier@agl-mq-01:5672/notices")
    log(P["resume"] + sec(0.0021), "INFO", "notifier.consumer", "consuming queue=notices.outbound prefetch=1")
    # the worker's ten-minute stats on stdout
    t = T(0, 50)
    while t < END:
        t2 = t + sec(600)
        k = sum(1 for n in P["notes"] if t <= n["sent"] < t2)
        r = sum(1 for a, _ in P["rejects"] if t <= a < t2)
        ev.append((t2 - sec(0.0), "stdout", f"[stats] {t2:%H:%M} sent_10m={k} retries_10m={r}"))
        t = t2
    ev = [e for e in ev if START <= e[0] < END]
    ev.sort(key=lambda e: e[0])
    out = []
    prev = START
    for t, stream, text in ev:
        ns = rng.randint(0, 999)
        dt = max(t + sec(rng.randint(30, 400) / 1e6), prev + sec(0.000002))
        prev = dt
        out.append(f'{{"log":{_go_json(text + chr(10))},"stream":"{stream}","time":"{_docker_time(dt, ns)}"}}\n')
    return "".join(out)
