"""Writers of the `queries-heldout2` set's fixture logs (one function a format), seeded.

Kestrel Power, an electricity retailer (smart meters, tariffs, outage map), on 2027-08-21
(UTC) during an evening heat-wave peak: the tariff backend starts refusing connections at
19:13, the portal times out until about 19:26, the tariff engine crash-loops on OOM kills.

Each writer plants the figures the cases ask about (named in the comments) into realistic
background traffic and returns the file's text. The cases' truth is not taken from here:
`truth.py` parses the written text again and `gen.py` asserts the two agree.
"""

import json
import math
from datetime import datetime, timedelta, timezone

DAY = datetime(2027, 8, 21, tzinfo=timezone.utc)


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def at(hms):
    """A time of the set's day from "HH:MM:SS[.ffffff]"."""
    return DAY + timedelta(microseconds=round(secs(hms) * 1e6))


def rtime(rng, a, b, gaps=()):
    """A uniform time in [a, b) outside every (start, end) gap, microsecond resolution."""
    while True:
        t = DAY + timedelta(microseconds=int(rng.uniform(secs(a), secs(b)) * 1e6))
        if not any(at(g0) <= t < at(g1) for g0, g1 in gaps):
            return t


def in_minute(rng, hhmm):
    return rtime(rng, hhmm + ":00", hhmm + ":59.999")


def ip_pool(rng, n, exclude, firsts=(24, 31, 45, 58, 66, 73, 82, 89, 95, 103, 112, 141, 154, 178, 190, 213)):
    out, seen = [], set(exclude)
    while len(out) < n:
        ip = f"{rng.choice(firsts)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        if ip not in seen:
            seen.add(ip)
            out.append(ip)
    return out


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def zipf_weights(n, s=0.9, q=10):
    return [1.0 / (i + q) ** s for i in range(n)]


# ---------------------------------------------------------------------------------------
# portal-access.log: Apache `vhost_combined` + `%D` (microseconds), 8,000 requests,
# 17:00:00-20:59:59, three virtual hosts.
# Planted: 503 x142 (first 19:13:52), 504 x235 (195 in 19:14-19:25, peak minute 19:21 x38),
# 502 x79, 500 x69; 5xx by hour 31 / 47 / 391 / 56; 385 5xx in 19:10-19:30 and none in
# 19:07-19:13 or 19:27-19:33; POST /api/v3/tariffs/quote fails most; the slowest request
# is a 24-month usage export (27391442 us); 504s take ~20 s (the proxy timeout).
VH_PORTAL = "portal.kestrelpower.example:443"
VH_API = "api.kestrelpower.example:443"
VH_STATIC = "static.kestrelpower.example:443"
VH_PLAIN = "portal.kestrelpower.example:80"
QUOTE = "/api/v3/tariffs/quote"
UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
       "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
       "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/127.0 Safari/537.36",
       "KestrelApp/5.3.1 (Android 14)", "KestrelApp/5.3.0 (iOS 17.6)", "okhttp/4.12.0"]
PORTAL_OUTAGE = ("19:05:00", "19:35:00")


def portal_access(rng):
    plants = {"198.18.61.12"}
    pool = ip_pool(rng, 1500, plants)
    weights = zipf_weights(len(pool))
    ev = []

    def pick():
        return rng.choices(pool, weights)[0]

    def add(t, vh, method, path, status, size, dus, ip=None, ref="-", ua=None):
        ev.append((t, vh, ip or pick(), method, path, status, size, dus, ref, ua or rng.choice(UAS)))

    def usage_path():
        return f"/account/usage?range={rng.choice(['7d', '30d', '12m'])}"

    def readings_path():
        return f"/api/v3/meters/KP-M{rng.randrange(1000000, 9999999)}/readings?from=2027-08-{rng.randrange(1, 21):02d}"

    def in_hour(h):
        lo, hi = f"{h}:00:00", f"{h}:59:59"
        if h == 17:
            lo = "17:00:30"
        if h == 20:
            hi = "20:59:30"
        return rtime(rng, lo, hi, gaps=[PORTAL_OUTAGE])

    # 503: the tariff backend refuses connections (fast failures).
    add(at("19:13:52.204311"), VH_API, "POST", QUOTE, 503, 412, rng.randrange(800, 3000))
    for i in range(141):
        t = rtime(rng, "19:13:53", "19:25:40")
        if i < 99:
            add(t, VH_API, "POST", QUOTE, 503, 412, rng.randrange(800, 3000))
        else:
            add(t, VH_PORTAL, "GET", usage_path(), 503, 398, rng.randrange(800, 3000))
    # 504: proxy timeouts of 20 s, peak minute 19:21.
    per_min = {"19:14": 6, "19:15": 9, "19:16": 13, "19:17": 15, "19:18": 17, "19:19": 21, "19:20": 24,
               "19:21": 38, "19:22": 27, "19:23": 14, "19:24": 8, "19:25": 3}
    paths = [QUOTE] * 120 + ["usage"] * 50 + ["readings"] * 25
    rng.shuffle(paths)
    k = 0
    for minute, n in per_min.items():
        for _ in range(n):
            p = paths[k]
            k += 1
            dus = rng.randrange(20000100, 20004900)
            if p == QUOTE:
                add(in_minute(rng, minute), VH_API, "POST", QUOTE, 504, 437, dus)
            elif p == "usage":
                add(in_minute(rng, minute), VH_PORTAL, "GET", usage_path(), 504, 421, dus)
            else:
                add(in_minute(rng, minute), VH_API, "GET", readings_path(), 504, 437, dus)
    other5 = ["/account/bills", "/api/v3/plans", "/account/statements/2027-07.pdf", "/outages",
              "/api/v3/outages?postcode=KS4", "/login"]
    for h, n in ((17, 9), (18, 14), (20, 17)):
        for _ in range(n):
            add(in_hour(h), VH_API, "GET", rng.choice(["/api/v3/plans", "/api/v3/outages?postcode=KS4"]), 504, 437,
                rng.randrange(20000100, 20004900))
    # 502: bad gateway, in the outage and now and then.
    for i in range(40):
        t = rtime(rng, "19:13:55", "19:26:30")
        if i < 15:
            add(t, VH_API, "POST", QUOTE, 502, 405, rng.randrange(40000, 600000))
        else:
            add(t, VH_API, "GET", readings_path(), 502, 405, rng.randrange(40000, 600000))
    for h, n in ((17, 8), (18, 12), (20, 19)):
        for _ in range(n):
            add(in_hour(h), VH_API, "GET", rng.choice(["/api/v3/plans", readings_path()]), 502, 405,
                rng.randrange(40000, 600000))
    # 500: application errors all evening.
    for _ in range(8):
        add(rtime(rng, "19:14:00", "19:26:00"), VH_PORTAL, "GET", rng.choice(other5), 500, 611,
            rng.randrange(30000, 900000))
    for h, n in ((17, 14), (18, 21), (19, 6), (20, 20)):
        for _ in range(n):
            add(in_hour(h), VH_PORTAL, "GET", rng.choice(other5), 500, 611, rng.randrange(30000, 900000))
    # The slowest request of the evening.
    add(at("18:42:17.553901"), VH_API, "GET", "/api/v3/usage/export?format=csv&months=24", 200, 73912004,
        27391442, ip="198.18.61.12", ua="KestrelApp/5.3.1 (Android 14)")
    add(at("17:00:00.118000"), VH_PORTAL, "GET", "/", 200, 11842, 14211)
    add(at("20:59:59.402000"), VH_STATIC, "GET", "/assets/app.3e9d1c.js", 304, 212, 911)
    while len(ev) < 8000:
        t = rtime(rng, "17:00:01", "20:59:58")
        ev.append((t, *portal_background(rng, pick, usage_path, readings_path)))
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, vh, ip, m, p, s, size, dus, ref, ua in ev:
        ts = t.strftime("%d/%b/%Y:%H:%M:%S +0000")
        lines.append(f'{vh} {ip} - - [{ts}] "{m} {p} HTTP/1.1" {s} {size} "{ref}" "{ua}" {dus}')
    return "\n".join(lines) + "\n"


def portal_background(rng, pick, usage_path, readings_path):
    """One ordinary request: (vhost, ip, method, path, status, size, dus, referer, ua); no 5xx."""
    r = rng.random()
    ua = rng.choice(UAS)
    ref = "-"
    dus = int(min(rng.lognormvariate(math.log(85000), 0.85), 6800000))
    if r < 0.30:
        vh = VH_STATIC
        m, p = "GET", rng.choice(["/assets/app.3e9d1c.js", "/assets/site.71b2.css", "/assets/fonts/inter.woff2",
                                  f"/img/tariffs/{rng.choice(['flex', 'fixed', 'ev-night', 'solar'])}.webp"])
        status = 304 if rng.random() < 0.35 else 200
        size = 212 if status == 304 else rng.randrange(4000, 180000)
        dus = rng.randrange(300, 4000)
        ref = "https://portal.kestrelpower.example/"
    elif r < 0.58:
        vh = VH_PORTAL
        m, p = rng.choice([("GET", "/"), ("GET", "/account"), ("GET", "usage"), ("GET", "/account/bills"),
                           ("GET", "/outages"), ("GET", "/login"), ("POST", "/login"),
                           ("GET", f"/account/statements/2027-0{rng.randrange(1, 8)}.pdf")])
        if p == "usage":
            p = usage_path()
        status = 200
        ref = "https://portal.kestrelpower.example/account"
        size = rng.randrange(2000, 60000)
        if p.endswith(".pdf"):
            size = rng.randrange(90000, 900000)
        if m == "POST":
            status = 401 if rng.random() < 0.12 else 302
            size = 540
    elif r < 0.97:
        vh = VH_API
        choice = rng.random()
        if choice < 0.45:
            m, p = "GET", readings_path()
        elif choice < 0.70:
            m, p = "POST", QUOTE
        elif choice < 0.85:
            m, p = "GET", "/api/v3/plans"
        elif choice < 0.995:
            m, p = "GET", f"/api/v3/outages?postcode=KS{rng.randrange(1, 12)}"
        else:
            m, p = "GET", f"/api/v3/usage/export?format=csv&months={rng.choice([3, 6, 12])}"
            dus = rng.randrange(1800000, 8400000)
        status = 200
        size = rng.randrange(300, 24000)
        ua = rng.choice(UAS[3:])
    else:
        vh = VH_PLAIN
        m, p = "GET", rng.choice(["/", "/account", "/login"])
        status, size, dus = 301, 520, rng.randrange(200, 900)
    if vh != VH_STATIC and status == 200:
        x = rng.random()
        if x < 0.055:
            status, size = 404, 1187
        elif x < 0.072:
            status, size = 401, 388
        elif x < 0.082:
            status, size = 403, 402
        elif x < 0.094 and vh == VH_API:
            status, size = 429, 296
    return vh, pick(), m, p, status, size, dus, ref, ua


# ---------------------------------------------------------------------------------------
# apache-error.log: Apache 2.4 error log of the same servers.
# Planted: AH01114 "failed to make connection to backend" x173 (each after its AH00957
# "(111)Connection refused"; first 19:13:49, 121 for 10.40.2.17); AH01102 read timeouts;
# AH00485 "scoreboard is full" from 19:16:03; a graceful restart at 20:31:07; scanners.
def apache_ts(t):
    return t.strftime("%a %b %d %H:%M:%S") + f".{t.microsecond:06d} {t.year}"


def apache_error(rng):
    workers = [(pid, 140211893446400 + rng.randrange(0, 4000) * 4096) for pid in range(28411, 28420)]
    scanners = ip_pool(rng, 14, set())
    clients = ip_pool(rng, 300, set(scanners))
    ev = []

    def add(t, mod, msg, client=None, worker=None):
        pid, tid = worker or rng.choice(workers)
        c = f" [client {client}:{rng.randrange(1025, 65535)}]" if client else ""
        ev.append((t, f"[{mod}] [pid {pid}:tid {tid}]{c} {msg}"))

    referers = ["https://portal.kestrelpower.example/account/usage", "https://portal.kestrelpower.example/account",
                "https://portal.kestrelpower.example/"]
    backends = ["10.40.2.17"] * 121 + ["10.40.2.18"] * 52
    rng.shuffle(backends)
    times = [at("19:13:49.204117")] + sorted(rtime(rng, "19:13:50", "19:25:50") for _ in range(172))
    if backends[0] != "10.40.2.17":
        i = backends.index("10.40.2.17")
        backends[0], backends[i] = backends[i], backends[0]
    for t, be in zip(times, backends):
        w = rng.choice(workers)
        add(t - timedelta(microseconds=rng.randrange(20, 90)), "proxy:error",
            f"(111)Connection refused: AH00957: http: attempt to connect to {be}:8080 ({be}:8080) failed", worker=w)
        add(t, "proxy_http:error",
            f"AH01114: HTTP: failed to make connection to backend: {be}, referer: {rng.choice(referers)}",
            client=rng.choice(clients), worker=w)
        if rng.random() < 0.2:
            add(t + timedelta(microseconds=rng.randrange(40, 120)), "proxy:error",
                f"AH00940: http: disabled connection for ({be}:8080)", worker=w)
    for _ in range(88):
        t = rtime(rng, "19:14:05", "19:25:55")
        w = rng.choice(workers)
        add(t, "proxy_http:error", "(70007)The timeout specified has expired: AH01102: error reading status line "
            "from remote server 10.40.2.19:8080", client=rng.choice(clients), worker=w)
        add(t + timedelta(microseconds=rng.randrange(30, 90)), "proxy:error",
            f"AH00898: Error reading from remote server returned by {QUOTE}", client=rng.choice(clients), worker=w)
    sb = [at("19:16:03.771204")] + [rtime(rng, "19:16:04", "19:24:30") for _ in range(26)]
    for t in sb:
        add(t, "mpm_event:error", "AH00485: scoreboard is full, not at MaxRequestWorkers", worker=(1207, 140211902361472))
    probes = ["/srv/portal/htdocs/.env", "/srv/portal/htdocs/.git/config", "/srv/portal/htdocs/wp-login.php",
              "/srv/portal/htdocs/server-status", "/srv/portal/htdocs/.aws/credentials", "/srv/portal/htdocs/phpinfo.php"]
    for _ in range(221):
        add(rtime(rng, "17:00:05", "20:59:50"), "authz_core:error",
            f"AH01630: client denied by server configuration: {rng.choice(probes)}", client=rng.choice(scanners))
    for _ in range(35):
        add(rtime(rng, "17:00:05", "20:59:50"), "core:error",
            "AH00126: Invalid URI in request GET /..%2f..%2f..%2fetc%2fpasswd HTTP/1.1", client=rng.choice(scanners))
    for _ in range(84):
        add(rtime(rng, "17:00:05", "20:59:50"), "reqtimeout:info",
            "AH01382: Request header read timeout", client=rng.choice(clients))
    for _ in range(19):
        add(rtime(rng, "17:00:05", "20:59:50"), "ssl:info",
            "AH01964: Connection to child 212 established (server portal.kestrelpower.example:443)",
            client=rng.choice(clients))
    main = (1207, 140211902361472)
    r = at("20:31:07.004417")
    add(r, "mpm_event:notice", "AH00493: SIGUSR1 received.  Doing graceful restart", worker=main)
    add(r + timedelta(milliseconds=311), "ssl:warn", "AH01909: kp-web-02.kestrelpower.internal:443:0 server "
        "certificate does NOT include an ID which matches the server name", worker=main)
    add(r + timedelta(milliseconds=402), "mpm_event:notice", "AH00489: Apache/2.4.58 (Ubuntu) OpenSSL/3.0.13 "
        "configured -- resuming normal operations", worker=main)
    add(r + timedelta(milliseconds=403), "core:notice", "AH00094: Command line: '/usr/sbin/apache2'", worker=main)
    ev.sort(key=lambda e: e[0])
    return "".join(f"[{apache_ts(t)}] {rest}\n" for t, rest in ev)


# ---------------------------------------------------------------------------------------
# traefik-access.json: Traefik v2 JSON access log, 1,700 requests 17:00-21:00.
# Planted: 429 x389 from the rate limiter (router partner-webhooks 233, meter-readings 97,
# outage-map 59; no service); 5xx by service: outage-map 146 (502 x82, 504 x64),
# meter-readings 93 (503), billing-api 27 (500); Duration p95 1384.0-1384.4 ms (a plateau
# of 16 values, so every percentile definition agrees).
ROUTES = {
    "meter-readings": ("readings.kestrelpower.example", 35),
    "outage-map": ("outages.kestrelpower.example", 25),
    "billing-api": ("billing.kestrelpower.example", 20),
    "grid-status": ("status.kestrelpower.example", 10),
    "partner-webhooks": ("hooks.kestrelpower.example", 10),
}
ROUTER_HASH = {"meter-readings": "4f1c2a", "outage-map": "9b07e3", "billing-api": "c52d18",
               "grid-status": "71aa40", "partner-webhooks": "e8d913"}


def traefik_path(rng, app):
    if app == "meter-readings":
        return rng.choice(["GET", "GET", "POST"]), f"/v2/readings/KP-M{rng.randrange(1000000, 9999999)}"
    if app == "outage-map":
        return "GET", rng.choice([f"/api/map/tiles/11/{rng.randrange(1000, 1100)}/{rng.randrange(640, 700)}.pbf",
                                  "/api/map/incidents", f"/api/map/feeders/FDR-{rng.randrange(1000, 4999)}"])
    if app == "billing-api":
        return rng.choice([("GET", f"/v1/invoices/INV-{rng.randrange(200000, 299999)}"), ("POST", "/v1/payments"),
                           ("GET", "/v1/balance")])
    if app == "grid-status":
        return "GET", "/v1/status"
    return "POST", f"/hooks/retailer/{rng.choice(['octo', 'bulbz', 'ovo-flex', 'edf-x'])}"


def traefik_access(rng):
    n_total = 1700
    clients = ip_pool(rng, 420, set(), firsts=(31, 62, 81, 86, 92, 109, 145, 176, 188, 217))
    cw = zipf_weights(len(clients), 0.8, 5)
    apps = list(ROUTES)
    aw = [ROUTES[a][1] for a in apps]
    specs = []  # (app, status, duration class)
    for app, n in (("partner-webhooks", 233), ("meter-readings", 97), ("outage-map", 59)):
        specs += [(app, 429, "tiny")] * n
    specs += [("outage-map", 502, "low")] * 82 + [("outage-map", 504, "timeout")] * 64
    specs += [("meter-readings", 503, "tiny")] * 93 + [("billing-api", 500, "low")] * 27
    specs += [(rng.choices(apps, aw)[0], 200, "plateau") for _ in range(16)]
    specs += [(rng.choice(["billing-api", "meter-readings"]), 200, "slow") for _ in range(14)]
    while len(specs) < n_total:
        specs.append((rng.choices(apps, aw)[0], rng.choice([200] * 30 + [201, 204, 304, 404, 401]), "low"))
    rows = []
    for app, status, cls in specs:
        if app == "partner-webhooks" and status == 429:
            t = rtime(rng, "18:10:00", "20:40:00")
        elif status in (502, 504) or (status == 503):
            t = rtime(rng, "19:13:30", "19:40:00")
        else:
            t = rtime(rng, "17:00:00", "20:59:59")
        if cls == "tiny":
            ns = rng.randrange(40000, 400000)
        elif cls == "low":
            ns = int(min(rng.lognormvariate(math.log(60e6), 1.0), 1.37e9))
        elif cls == "plateau":
            ns = int(1384.0e6 + rng.uniform(0, 0.4e6))
        elif cls == "slow":
            ns = rng.randrange(1500000000, 9200000000)
        else:
            ns = rng.randrange(30000400000, 30004000000)
        rows.append((t, app, status, ns))
    rows.sort(key=lambda r: r[0])
    lines = []
    for t, app, status, ns in rows:
        host = ROUTES[app][0]
        method, path = traefik_path(rng, app)
        ip = rng.choices(clients, cw)[0]
        port = rng.randrange(20000, 65000)
        d = {"ClientAddr": f"{ip}:{port}", "ClientHost": ip,
             "DownstreamContentSize": 18 if status == 429 else rng.randrange(40, 30000), "DownstreamStatus": status,
             "Duration": ns}
        if status != 429:
            origin = 0 if status == 503 else status
            d.update({"OriginContentSize": 0 if origin == 0 else d["DownstreamContentSize"],
                      "OriginDuration": max(ns - rng.randrange(20000, 90000), 1000), "OriginStatus": origin})
        d.update({"RequestHost": host, "RequestMethod": method, "RequestPath": path,
                  "RequestProtocol": "HTTP/2.0", "RetryAttempts": 0 if status < 500 else rng.choice([0, 1, 2]),
                  "RouterName": f"kp-prod-{app}-{ROUTER_HASH[app]}@kubernetescrd"})
        if status != 429:
            d["ServiceAddr"] = f"10.42.{rng.randrange(0, 8)}.{rng.randrange(2, 250)}:8080"
            d["ServiceName"] = f"kp-prod-{app}-8080@kubernetescrd"
        d.update({"StartUTC": t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{rng.randrange(100, 999)}Z",
                  "entryPointName": "websecure", "level": "info", "msg": "",
                  "time": (t + timedelta(microseconds=ns // 1000)).strftime("%Y-%m-%dT%H:%M:%SZ")})
        lines.append(json.dumps(d, separators=(",", ":")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# tariff-engine.log: logback `%d [%thread] %-5level %logger{36} - %msg` with stack traces.
# Planted: "Connection is not available" (HikariPool timeout) x64 events, once each;
# OutOfMemoryError x9 events (first 19:09:47.331); ResourceAccessException caused by
# SocketTimeoutException x21; RateTableMissingException x23; NPE x17; 17 JVM restarts that
# match the journal's (HikariPool start-up and housekeeper lines are not timeouts).
RESTARTS = ["19:18:41", "19:23:07", "19:27:55", "19:31:12", "19:36:40", "19:41:03", "19:46:27", "19:52:19",
            "19:57:48", "20:03:02", "20:08:31", "20:14:56", "20:19:10", "20:25:44", "20:31:29", "20:37:05",
            "20:44:10"]


def frames(rng, pkg, n):
    names = {"quote": ["QuoteService.price", "QuoteService.quote", "QuoteController.create"],
             "rates": ["RateTableCache.load", "RateTableCache.refresh", "RateTableCache.lambda$scheduleRefresh$0"],
             "db": ["TariffRepository.findPlan", "TariffRepository.findRates", "QuoteService.price"],
             "client": ["MeterClient.recentUsage", "QuoteService.enrich", "QuoteService.quote"]}[pkg]
    out = []
    for i in range(n):
        cls, meth = names[i % len(names)].split(".")
        sub = {"quote": "quote", "rates": "rates", "db": "db", "client": "client"}[pkg]
        out.append(f"\tat com.kestrel.tariff.{sub}.{cls}.{meth}({cls}.java:{rng.randrange(40, 400)})")
    out += ["\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)",
            "\tat java.base/java.lang.Thread.run(Thread.java:1583)"]
    return out


def tariff_engine(rng):
    ev = []  # (t, thread, level, logger, msg, trace lines)
    execs = [f"http-nio-8080-exec-{i}" for i in range(1, 41)]
    plans = ["TOU-EV-2", "FLEX-24", "FIXED-12", "SOLAR-EXPORT", "NIGHT-SAVER", "HEATPUMP-1"]
    regions = ["SW-4", "NE-2", "MID-7", "LDN-1", "SCT-3"]

    def acct():
        return f"KP-{rng.randrange(1000000, 9999999)}"

    def add(t, thread, level, logger, msg, trace=()):
        ev.append((t, thread, level, logger, msg, list(trace)))

    incident = ("19:09:00", "19:40:00")
    for i in range(64):
        t = rtime(rng, *incident) if i < 58 else rtime(rng, "20:00:00", "20:50:00")
        add(t, rng.choice(execs), "ERROR", "c.k.tariff.quote.QuoteController", f"Quote failed for account {acct()}",
            ["org.springframework.jdbc.CannotGetJdbcConnectionException: Failed to obtain JDBC Connection",
             "\tat org.springframework.jdbc.datasource.DataSourceUtils.getConnection(DataSourceUtils.java:84)"]
            + frames(rng, "db", 3)
            + ["Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, "
               "request timed out after 30000ms (total=40, active=40, idle=0, waiting=112)",
               "\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)",
               "\t... 14 common frames omitted"])
    oom_times = [at("19:09:47.331208")] + [rtime(rng, "19:10:00", "20:40:00") for _ in range(8)]
    for t in oom_times:
        add(t, "scheduling-1", "ERROR", "c.k.tariff.rates.RateTableCache", "Rate table refresh failed",
            ["java.lang.OutOfMemoryError: Java heap space"] + frames(rng, "rates", 3))
    for _ in range(21):
        add(rtime(rng, *incident), rng.choice(execs), "ERROR", "c.k.tariff.client.MeterClient",
            "Usage lookup failed, quoting without history",
            ["org.springframework.web.client.ResourceAccessException: I/O error on GET request for "
             "\"http://meter-api.kp.internal/v3/usage\": Read timed out"]
            + frames(rng, "client", 3)
            + ["Caused by: java.net.SocketTimeoutException: Read timed out",
               "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)",
               "\t... 31 common frames omitted"])
    for _ in range(23):
        r = rng.choice(regions)
        add(rtime(rng, "17:00:10", "20:59:00"), rng.choice(execs), "ERROR", "c.k.tariff.quote.QuoteService",
            f"No rates for region {r}",
            [f"com.kestrel.tariff.rates.RateTableMissingException: no rate table for region={r} date=2027-08-21"]
            + frames(rng, "quote", 3))
    for _ in range(17):
        add(rtime(rng, "17:00:10", "20:59:00"), rng.choice(execs), "ERROR", "c.k.tariff.quote.QuoteController",
            f"Unexpected error for account {acct()}",
            ["java.lang.NullPointerException: Cannot invoke \"com.kestrel.tariff.model.Plan.standingCharge()\" "
             "because \"plan\" is null"] + frames(rng, "quote", 3))
    for _ in range(12):
        add(rtime(rng, "17:00:10", "20:59:00"), rng.choice(execs), "ERROR", "c.k.tariff.quote.QuoteController",
            f"Quote rejected: meter KP-M{rng.randrange(1000000, 9999999)} is not smart-enabled")
    for _ in range(3):
        add(rtime(rng, "19:12:00", "19:30:00"), "HikariPool-1 housekeeper", "WARN", "com.zaxxer.hikari.pool.HikariPool",
            f"HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta={rng.randrange(61, 99)}s).")
    for _ in range(96):
        t = rtime(rng, "17:00:10", "20:59:00")
        add(t, rng.choice(execs), "WARN", "c.k.tariff.quote.QuoteService",
            f"Slow quote computation: {rng.randrange(2100, 9800)} ms (plan={rng.choice(plans)})")
    pid = 31822

    def startup(t, pid):
        add(t, "main", "INFO", "c.k.tariff.TariffEngineApplication",
            f"Starting TariffEngineApplication v4.12.0 using Java 17.0.12 with PID {pid}")
        add(t + timedelta(milliseconds=8231), "main", "INFO", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Starting...")
        add(t + timedelta(milliseconds=8790), "main", "INFO", "com.zaxxer.hikari.HikariDataSource",
            "HikariPool-1 - Start completed.")
        add(t + timedelta(milliseconds=14238), "main", "INFO", "c.k.tariff.TariffEngineApplication",
            "Started TariffEngineApplication in 14.238 seconds (process running for 15.1)")

    for r in RESTARTS:
        pid += rng.randrange(40, 400)
        startup(at(r) + timedelta(seconds=10, milliseconds=rng.randrange(100, 900)), pid)
    while len(ev) < 760:
        t = rtime(rng, "17:00:05", "20:59:55")
        if rng.random() < 0.8:
            add(t, rng.choice(execs), "INFO", "c.k.tariff.quote.QuoteService",
                f"Quote computed plan={rng.choice(plans)} account={acct()} in {rng.randrange(40, 1900)} ms")
        elif rng.random() < 0.5:
            add(t, "scheduling-1", "INFO", "c.k.tariff.rates.RateTableCache",
                f"Rate table refreshed: {rng.randrange(1200, 1320)} tariffs (version 2027.08.3)")
        else:
            add(t, rng.choice(execs), "DEBUG", "c.k.tariff.client.MeterClient",
                f"GET http://meter-api.kp.internal/v3/usage -> 200 ({rng.randrange(8, 300)} ms)")
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, thread, level, logger, msg, trace in ev:
        ts = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d}"
        lines.append(f"{ts} [{thread}] {level:<5} {logger} - {msg}")
        lines += trace
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# meter-ingest.log: Python `logging` with "%(asctime)s - %(name)s - %(levelname)s -
# %(message)s" and tracebacks.
# Planted: ERROR x157 (meter_ingest.sink 96: ReadTimeout 71, first 19:12:30.418, and
# ConnectionError 25; validate 38; consumer 23); "ReadTimeout" once per event; 43 expired
# partitions deleted (summaries agree); WARNING in 19:00-19:30 counted, none in
# 18:57-19:03 or 19:27-19:33.
WARN_GAPS = [("18:57:00", "19:03:00"), ("19:27:00", "19:33:00")]


def tb(rng, kind):
    lines = ["Traceback (most recent call last):",
             '  File "/opt/meter-ingest/meter_ingest/sink.py", line 142, in flush',
             "    resp = self.session.post(self.url, data=payload, timeout=self.timeout)",
             '  File "/opt/meter-ingest/venv/lib/python3.11/site-packages/requests/sessions.py", line 637, in post',
             '    return self.request("POST", url, data=data, json=json, **kwargs)',
             '  File "/opt/meter-ingest/venv/lib/python3.11/site-packages/requests/sessions.py", line 589, in request',
             "    resp = self.send(prep, **send_kwargs)",
             '  File "/opt/meter-ingest/venv/lib/python3.11/site-packages/requests/adapters.py", line 713, in send',
             "    raise exc_cls(err, request=request)"]
    if kind == "read":
        lines.append("requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='tsdb.kp.internal', port=8443): "
                     "Read timed out. (read timeout=5)")
    else:
        lines.append("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='tsdb.kp.internal', port=8443): "
                     "Max retries exceeded with url: /api/v1/write (Caused by NewConnectionError('<urllib3.connection."
                     "HTTPSConnection object at 0x7f3a" + hexid(rng, 8) + ">: Failed to establish a new connection: "
                     "[Errno 111] Connection refused'))")
    return lines


def meter_ingest(rng):
    ev = []

    def add(t, name, level, msg, trace=()):
        ev.append((t, name, level, msg, list(trace)))

    def batch():
        return rng.randrange(88000, 89999)

    add(at("19:12:30.418204"), "meter_ingest.sink", "ERROR", f"flush to tsdb failed (batch {batch()}, 5000 readings)",
        tb(rng, "read"))
    for i in range(70):
        t = rtime(rng, "19:12:31", "19:58:00") if i < 62 else rtime(rng, "20:05:00", "20:50:00")
        add(t, "meter_ingest.sink", "ERROR", f"flush to tsdb failed (batch {batch()}, 5000 readings)", tb(rng, "read"))
    for _ in range(25):
        add(rtime(rng, "19:14:00", "19:26:00"), "meter_ingest.sink", "ERROR",
            f"flush to tsdb failed (batch {batch()}, 5000 readings)", tb(rng, "conn"))
    for _ in range(38):
        add(rtime(rng, "17:00:10", "20:59:00"), "meter_ingest.validate", "ERROR",
            f"schema validation failed for meter=KP-M{rng.randrange(1000000, 9999999)}: missing field 'interval_end'")
    for _ in range(23):
        add(rtime(rng, "19:15:00", "20:30:00"), "meter_ingest.consumer", "ERROR",
            f"offset commit failed on partition {rng.randrange(0, 12)}: CommitFailedError (group rebalanced)")
    # WARNINGs: lag during the incident, out-of-range readings and retries all evening.
    for _ in range(118):
        add(rtime(rng, "19:03:00", "19:27:00"), "meter_ingest.consumer", "WARNING",
            f"consumer lag {rng.randrange(5000, 48000)} readings on partition {rng.randrange(0, 12)}")
    for _ in range(57):
        add(rtime(rng, "17:00:10", "20:59:00", gaps=WARN_GAPS), "meter_ingest.validate", "WARNING",
            f"reading out of range meter=KP-M{rng.randrange(1000000, 9999999)} kwh=-{rng.randrange(1, 90) / 10} (dropped)")
    for _ in range(41):
        add(rtime(rng, "17:00:10", "20:59:00", gaps=WARN_GAPS), "urllib3.connectionpool", "WARNING",
            "Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken "
            "by 'RemoteDisconnected('Remote end closed connection without response')': /api/v1/write")
    # Retention: 43 expired partitions deleted in four sweeps.
    day = 0
    for when, n in (("17:05:00.2", 8), ("18:05:00.2", 7), ("19:05:00.2", 9), ("20:05:00.3", 19)):
        t = at(when)
        add(t, "meter_ingest.retention", "INFO", f"retention sweep: {n} partitions older than 30d")
        for _ in range(n):
            t += timedelta(milliseconds=rng.randrange(200, 900))
            add(t, "meter_ingest.retention", "INFO",
                f"deleted expired partition readings_p202707{(day // 24) + 15:02d}_h{day % 24:02d}")
            day += 1
        add(t + timedelta(milliseconds=40), "meter_ingest.retention", "INFO", f"retention sweep done ({n} dropped)")
    while len(ev) < 1150:
        t = rtime(rng, "17:00:02", "20:59:58")
        if rng.random() < 0.55:
            add(t, "meter_ingest.consumer", "INFO",
                f"consumed 5000 readings from partition {rng.randrange(0, 12)} (offset {rng.randrange(88000000, 89000000)})")
        else:
            add(t, "meter_ingest.sink", "INFO",
                f"flushed batch {batch()} (5000 readings) in {rng.randrange(120, 2400) / 1000:.3f}s")
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, name, level, msg, trace in ev:
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        lines.append(f"{ts} - {name} - {level} - {msg}")
        lines += trace
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# outage-api.jsonl: Go zap production JSON (epoch `ts`, `caller`, `stacktrace` on errors)
# with nested `req` and `feeder` objects.
# Planted: errors by feeder.id: FDR-3318 41 (its last 20:14:07), FDR-2071 29; "context
# deadline exceeded" peak minute 19:22; the mean req.dur_ms of /v1/outages/{feeder} a whole
# number of ms.
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def outage_api(rng):
    feeders = [f"FDR-{n}" for n in rng.sample(range(1000, 4999), 140) if n not in (3318, 2071)]
    subs = ["SS-HALLOWAY", "SS-BRENT-CROSS", "SS-MARSH-LANE", "SS-KILNWORTH", "SS-ODDINGLEY", "SS-PELHAM"]
    sub_of = {f: rng.choice(subs) for f in feeders + ["FDR-3318", "FDR-2071"]}
    recs = []

    def add(t, level, msg, route, status, dur, feeder=None, err=None, caller=None):
        recs.append([t, level, msg, route, status, dur, feeder, err, caller])

    # errors
    err_feeders = ["FDR-3318"] * 40 + ["FDR-2071"] * 29
    for i, f in enumerate(rng.sample(feeders, 60)):
        err_feeders += [f] * (1 + i % 7 if i % 3 else 1 + i % 5)
    rng.shuffle(err_feeders)
    peak = {"19:16": 4, "19:17": 7, "19:18": 9, "19:19": 12, "19:20": 14, "19:21": 17, "19:22": 23, "19:23": 15,
            "19:24": 8, "19:25": 5}
    dl_times = [in_minute(rng, m) for m, n in peak.items() for _ in range(n)]
    for i, f in enumerate(err_feeders):
        if i < len(dl_times):
            t, err = dl_times[i], "context deadline exceeded"
        else:
            t = rtime(rng, "17:00:10", "20:59:00") if f != "FDR-3318" else rtime(rng, "17:00:10", "19:59:00")
            err = rng.choice(["feeder not found in GIS snapshot", "pq: canceling statement due to statement timeout",
                              "dial tcp 10.40.5.12:5432: connect: connection refused"])
        if f == "FDR-3318" and t >= at("20:00:00"):
            t = rtime(rng, "18:00:00", "19:59:00")
        route = rng.choice(["/v1/outages/{feeder}", "/v1/feeders/{feeder}/status"])
        status = 504 if err == "context deadline exceeded" else (404 if "not found" in err else 500)
        dur = rng.randrange(5000, 5090) if status == 504 else rng.randrange(20, 3000)
        add(t, "error", "feeder lookup failed", route, status, dur, f, err, "outage/handler.go:212")
    add(at("20:14:07.522"), "error", "feeder lookup failed", "/v1/outages/{feeder}", 500, 2211, "FDR-3318",
        "pq: canceling statement due to statement timeout", "outage/handler.go:212")
    for _ in range(74):
        add(rtime(rng, "17:00:10", "20:59:00"), "warn", "slow upstream", "/v1/outages/nearby", 200,
            rng.randrange(1500, 4200), rng.choice(feeders), None, "outage/nearby.go:88")
    while len(recs) < 1250:
        t = rtime(rng, "17:00:02", "20:59:58")
        r = rng.random()
        if r < 0.45:
            add(t, "info", "request", "/v1/outages/{feeder}", 200, rng.randrange(60, 1200), rng.choice(feeders))
        elif r < 0.65:
            add(t, "info", "request", "/v1/feeders/{feeder}/status", 200, rng.randrange(20, 400), rng.choice(feeders))
        elif r < 0.85:
            add(t, "info", "request", "/v1/outages/nearby", 200, rng.randrange(80, 1400))
        elif r < 0.95:
            add(t, "info", "request", f"/v1/incidents/INC-{rng.randrange(40000, 49999)}", 200, rng.randrange(15, 300))
        else:
            add(t, "debug", "healthz", "/healthz", 200, rng.randrange(1, 4))
    # Make the mean dur_ms of /v1/outages/{feeder} a whole number with one info record.
    rows = [r for r in recs if r[3] == "/v1/outages/{feeder}"]
    info = [r for r in rows if r[1] == "info"]
    fix = info[len(info) // 2]
    fix[5] = 0
    rest = sum(r[5] for r in rows)
    target = -(-(rest + 300) // len(rows))
    fix[5] = target * len(rows) - rest
    assert 300 <= fix[5] < 300 + len(rows), fix[5]
    recs.sort(key=lambda r: r[0])
    lines = []
    for t, level, msg, route, status, dur, feeder, err, caller in recs:
        d = {"level": level, "ts": float(f"{(t - EPOCH).total_seconds():.3f}"),
             "caller": caller or "http/middleware.go:64", "msg": msg, "svc": "outage-api",
             "req": {"id": hexid(rng, 16), "method": "GET", "route": route, "status": status, "dur_ms": dur}}
        if feeder:
            d["feeder"] = {"id": feeder, "substation": sub_of[feeder]}
        if err:
            d["err"] = err
            d["stacktrace"] = ("main.(*Server).lookupFeeder\n\t/src/outage/handler.go:212\n"
                               "main.(*Server).ServeOutage\n\t/src/outage/handler.go:97\nnet/http.HandlerFunc.ServeHTTP"
                               "\n\t/usr/local/go/src/net/http/server.go:2171")
        lines.append(json.dumps(d, separators=(",", ":")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# grid-balancer-6d9f7c8b5-x2kqp.log: a Kubernetes container log (CRI: RFC 3339 nano
# timestamp, stream, P/F tag) of a Go service logging with logrus' text formatter; a few
# long lines are split into partial (P) chunks.
# Planted: warnings by zone coastal 94, metro 71, north 52, valley 40, ridge 33; max
# drift_kw 213.6 on FDR-1172 (the only level=error drift); level=error x37.
def cri_ts(t, rng):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{rng.randrange(0, 999):03d}Z"


def grid_balancer(rng):
    feeders = [f"FDR-{n}" for n in rng.sample(range(1000, 4999), 90) if n != 1172]
    ev = []

    def add(t, level, msg, kv="", stream="stderr"):
        ts = t.strftime("%Y-%m-%dT%H:%M:%SZ")
        body = f'time="{ts}" level={level} msg="{msg}"' + (f" {kv}" if kv else "")
        ev.append((t, stream, body))

    for zone, n in (("coastal", 94), ("metro", 71), ("north", 52), ("valley", 40), ("ridge", 33)):
        for _ in range(n):
            add(rtime(rng, "17:00:05", "20:59:50"), "warning", "setpoint drift above threshold",
                f"drift_kw={rng.randrange(250, 900) / 10} feeder={rng.choice(feeders)} zone={zone}")
    add(at("19:19:44.210"), "error", "setpoint drift critical, shedding load",
        "drift_kw=213.6 feeder=FDR-1172 zone=valley")
    for _ in range(36):
        add(rtime(rng, "19:10:00", "20:30:00"), "error", "failed to publish setpoint",
            f'error="rpc error: code = DeadlineExceeded desc = context deadline exceeded" feeder={rng.choice(feeders)}')
    for _ in range(6):
        t = rtime(rng, "17:00:05", "20:59:50")
        summary = " ".join(f"{f}={rng.randrange(-400, 400) / 10}" for f in rng.sample(feeders, 85))
        add(t, "info", "reconcile summary", f"setpoints=\"{summary}\"")
    while len(ev) < 1040:
        t = rtime(rng, "17:00:02", "20:59:58")
        r = rng.random()
        if r < 0.6:
            add(t, "info", "setpoint applied",
                f"feeder={rng.choice(feeders)} target_kw={rng.randrange(1000, 9000) / 10} zone="
                f"{rng.choice(['coastal', 'metro', 'north', 'valley', 'ridge'])}")
        elif r < 0.9:
            add(t, "debug", "telemetry batch", f"points={rng.randrange(200, 5000)} lag_ms={rng.randrange(5, 900)}")
        else:
            add(t, "info", "GET /metrics 200", f"dur={rng.randrange(1, 40)}ms", stream="stdout")
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, stream, body in ev:
        if len(body) > 1000:
            chunks = [body[i:i + 600] for i in range(0, len(body), 600)]
            for c in chunks[:-1]:
                lines.append(f"{cri_ts(t, rng)} {stream} P {c}")
            lines.append(f"{cri_ts(t, rng)} {stream} F {chunks[-1]}")
        else:
            lines.append(f"{cri_ts(t, rng)} {stream} F {body}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# redis.log: Redis 7 server log (`pid:role dd Mon yyyy hh:mm:ss.mmm level message`).
# Planted: "Can't save in background: fork: Cannot allocate memory" x47 (19:06-20:07, the
# last 20:07:44.512); normal BGSAVEs otherwise; output-buffer disconnects.
def redis_ts(t):
    return t.strftime("%d %b %Y %H:%M:%S.") + f"{t.microsecond // 1000:03d}"


def redis_log(rng):
    ev = []

    def add(t, pid, role, sym, msg):
        ev.append((t, f"{pid}:{role} {redis_ts(t)} {sym} {msg}"))

    fails = sorted(rtime(rng, "19:06:00", "20:07:30") for _ in range(46)) + [at("20:07:44.512")]
    for t in fails:
        add(t - timedelta(milliseconds=1), 1, "M", "*", "10000 changes in 60 seconds. Saving...")
        add(t, 1, "M", "#", "Can't save in background: fork: Cannot allocate memory")
    # normal background saves outside the fork failures
    t = at("17:01:12.804")
    while t < at("20:58:00"):
        if not (at("19:05:00") <= t < at("20:09:00")):
            child = rng.randrange(20000, 60000)
            add(t, 1, "M", "*", f"{rng.choice([100, 10000])} changes in {rng.choice([300, 60])} seconds. Saving...")
            add(t + timedelta(milliseconds=2), 1, "M", "*", f"Background saving started by pid {child}")
            d = timedelta(milliseconds=rng.randrange(900, 4000))
            add(t + d, child, "C", "*", "DB saved on disk")
            mb = rng.randrange(4, 60)
            add(t + d + timedelta(milliseconds=1), child, "C", "*",
                f"Fork CoW for RDB: current {mb} MB, peak {mb} MB, average {mb // 2} MB")
            add(t + d + timedelta(milliseconds=90), 1, "M", "*", "Background saving terminated with success")
        t += timedelta(seconds=rng.randrange(150, 420), milliseconds=rng.randrange(0, 999))
    for _ in range(23):
        t = rtime(rng, "19:10:00", "20:20:00")
        add(t, 1, "M", "#", f"Client id={rng.randrange(3000, 9000)} addr=10.40.3.{rng.randrange(10, 60)}:"
            f"{rng.randrange(30000, 60000)} laddr=10.40.3.9:6379 fd={rng.randrange(9, 80)} name= age={rng.randrange(1, 900)} "
            "idle=0 flags=P db=0 sub=3 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 "
            f"rbp=0 obl=0 oll={rng.randrange(900, 4000)} omem={rng.randrange(33554432, 67108864)} tot-mem=67120184 "
            "events=rw cmd=subscribe user=default redir=-1 resp=2 lib-name= lib-ver= "
            "closed for overcoming of output buffer limits.")
    for _ in range(40):
        t = rtime(rng, "17:00:05", "20:59:50")
        add(t, 1, "M", "*", "Replica 10.40.3.10:6379 asks for synchronization"
            if rng.random() < 0.1 else f"DB {rng.choice([0, 0, 2])}: {rng.randrange(80000, 90000)} keys "
            f"({rng.randrange(1000, 3000)} volatile) in {rng.choice([131072, 262144])} slots HT.")
    ev.sort(key=lambda e: e[0])
    return "".join(line + "\n" for _, line in ev)


# ---------------------------------------------------------------------------------------
# node-journal.log: `journalctl -o short-iso` of kp-node-7.
# Planted: tariff-engine.service crash-loops: 17 "Scheduled restart job" (counter 1..17,
# after a status=9/KILL each); meter-ingest.service restarts twice.
def node_journal(rng):
    ev = []
    host = "kp-node-7"

    def add(t, prog, msg, pid=None):
        ev.append((t, f"{prog}[{pid}]" if pid else prog, msg))

    tpid = 31822
    for i, r in enumerate(RESTARTS, 1):
        t = at(r) + timedelta(milliseconds=rng.randrange(0, 900))
        add(t, "systemd", "tariff-engine.service: Main process exited, code=killed, status=9/KILL", 1)
        add(t, "systemd", "tariff-engine.service: Failed with result 'signal'.", 1)
        add(t, "systemd", f"tariff-engine.service: Consumed {rng.randrange(1, 40)}min {rng.randrange(0, 59)}.{rng.randrange(100, 999)}s CPU time.", 1)
        t2 = t + timedelta(seconds=10)
        add(t2, "systemd", f"tariff-engine.service: Scheduled restart job, restart counter is at {i}.", 1)
        add(t2, "systemd", "Stopped tariff-engine.service - Kestrel tariff engine.", 1)
        add(t2, "systemd", "Started tariff-engine.service - Kestrel tariff engine.", 1)
        tpid += rng.randrange(40, 400)
    for i, r in enumerate(["19:33:20", "20:22:48"], 1):
        t = at(r)
        add(t, "systemd", "meter-ingest.service: Main process exited, code=killed, status=9/KILL", 1)
        add(t, "systemd", "meter-ingest.service: Failed with result 'signal'.", 1)
        add(t + timedelta(seconds=5), "systemd", f"meter-ingest.service: Scheduled restart job, restart counter is at {i}.", 1)
        add(t + timedelta(seconds=5), "systemd", "Stopped meter-ingest.service - Kestrel meter ingest.", 1)
        add(t + timedelta(seconds=5), "systemd", "Started meter-ingest.service - Kestrel meter ingest.", 1)
    for h in range(17, 21):
        for m in range(0, 60, 5):
            t = at(f"{h}:{m:02d}:01") + timedelta(milliseconds=rng.randrange(0, 900))
            add(t, "CRON", "(root) CMD (/usr/local/bin/kp-node-health --push)", rng.randrange(100000, 200000))
    while len(ev) < 900:
        t = rtime(rng, "17:00:00", "20:59:59")
        r = rng.random()
        if r < 0.3:
            add(t, "node_exporter", f'ts={t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]}Z caller=collector.go:169 '
                'level=error msg="collector failed" name=textfile duration_seconds=0.0001', 1488)
        elif r < 0.55:
            add(t, "chronyd", f"Selected source 10.40.0.{rng.choice([2, 3])} (ntp{rng.choice([1, 2])}.kp.internal)", 702)
        elif r < 0.75:
            add(t, "systemd-logind", f"New session {rng.randrange(4000, 9000)} of user deploy.", 811)
        elif r < 0.9:
            add(t, "systemd", f"Started session-{rng.randrange(4000, 9000)}.scope - Session of User deploy.", 1)
        else:
            add(t, "dockerd", 'level=info msg="ignoring event" container=' + hexid(rng, 12)
                + ' module=libcontainerd namespace=moby topic=/tasks/delete type="*events.TaskDelete"', 944)
    ev.sort(key=lambda e: e[0])
    return "".join(f"{t.strftime('%Y-%m-%dT%H:%M:%S%z')} {host} {prog}: {msg}\n" for t, prog, msg in ev)


# ---------------------------------------------------------------------------------------
# bastion-auth.log: sshd through rsyslog's RSYSLOG_FileFormat (RFC 3339 microseconds).
# Planted: "Failed password" x1,146; 198.18.233.41 the most (377), 198.19.7.150 second (203,
# first seen 18:26:14), the third at most 150; a burst from 20:48:10 on and none
# in 20:39:50-20:48:10; deploy and ops-oncall log in with keys.
def bastion_auth(rng):
    ev = []
    host = "kp-bastion-1"
    bots = ["root", "admin", "ubuntu", "oracle", "postgres", "git", "test", "user", "ftpuser", "deploy"]

    def pid():
        return rng.randrange(20000, 99999)

    def failed(t, ip, user=None):
        user = user or rng.choice(bots)
        p, port = pid(), rng.randrange(30000, 65000)
        invalid = user not in ("root", "deploy")
        if invalid:
            ev.append((t - timedelta(microseconds=rng.randrange(500000, 2000000)), "sshd", p,
                       f"Invalid user {user} from {ip} port {port}"))
        else:
            ev.append((t - timedelta(microseconds=rng.randrange(5000, 40000)), "sshd", p,
                       f"pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost={ip}  user={user}"))
        ev.append((t, "sshd", p, f"Failed password for {'invalid user ' if invalid else ''}{user} from {ip} port {port} ssh2"))
        ev.append((t + timedelta(microseconds=rng.randrange(100000, 900000)), "sshd", p,
                   f"Connection closed by {'invalid' if invalid else 'authenticating'} user {user} {ip} port {port} [preauth]"))

    gaps = [("20:40:00", "20:47:30")]
    for _ in range(377):
        failed(rtime(rng, "17:20:00", "20:38:00", gaps), "198.18.233.41", rng.choice(["root", "root", "admin", "oracle"]))
    failed(at("18:26:14.882051"), "198.19.7.150", "root")
    for _ in range(202):
        failed(rtime(rng, "18:26:17", "20:20:00"), "198.19.7.150")
    others = ip_pool(rng, 60, {"198.18.233.41", "198.19.7.150", "198.19.244.9"})
    counts = [150, 121] + [rng.randrange(1, 14) for _ in others[2:]]
    n_other = 1146 - 377 - 203 - 61
    # scale the long tail so the total is exact
    tail = counts[2:]
    left = n_other - 150 - 121
    while sum(tail) != left:
        i = rng.randrange(len(tail))
        if sum(tail) < left:
            tail[i] += 1
        elif tail[i] > 1:
            tail[i] -= 1
    counts = [150, 121] + tail
    for ip, n in zip(others, counts):
        for _ in range(n):
            failed(rtime(rng, "17:00:10", "20:39:50", gaps), ip)
    for _ in range(61):
        failed(rtime(rng, "20:48:10", "20:59:40"), "198.19.244.9", rng.choice(["root", "admin", "ubuntu"]))
    for _ in range(34):
        t = rtime(rng, "17:00:10", "20:58:00")
        user, ip = rng.choice([("deploy", "10.20.4.11"), ("deploy", "10.20.4.12"), ("ops-oncall", "10.20.9.30")])
        p = pid()
        fp = "SHA256:" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(43))
        ev.append((t, "sshd", p, f"Accepted publickey for {user} from {ip} port {rng.randrange(30000, 65000)} ssh2: ED25519 {fp}"))
        ev.append((t + timedelta(milliseconds=4), "sshd", p, f"pam_unix(sshd:session): session opened for user {user}(uid={1001 if user == 'deploy' else 1002}) by (uid=0)"))
    for _ in range(40):
        t = rtime(rng, "17:00:10", "20:58:00")
        ev.append((t, "sshd", pid(), f"Received disconnect from {rng.choice(others)} port {rng.randrange(30000, 65000)}:11: Bye Bye [preauth]"))
    ev.append((at("20:59:58.100000"), "sshd", 1032, "Server listening on 0.0.0.0 port 22."))
    ev.sort(key=lambda e: e[0])
    return "".join(f"{t.isoformat(timespec='microseconds')} {host} {prog}[{p}]: {msg}\n" for t, prog, p, msg in ev)


# ---------------------------------------------------------------------------------------
# mongod.log: MongoDB 7 structured JSON log (one object a line).
# Planted: "Slow query" x~430; 83 over 5000 ms (none in 4200-5800); the slowest 63127 ms,
# an aggregate on meters.readings_hourly; the first over 10000 ms at 19:11:57.304;
# COLLSCAN by namespace: billing.invoices_draft 58, meters.readings 31.
def mongo_ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}+00:00"


def mongod_log(rng):
    ev = []

    def add(t, s, c, id_, ctx, msg, attr):
        ev.append((t, s, c, id_, ctx, msg, attr))

    def conn():
        return f"conn{rng.randrange(40000, 49999)}"

    namespaces = ["meters.readings", "meters.readings_hourly", "billing.invoices", "billing.invoices_draft",
                  "tariffs.plans", "outages.incidents"]

    def slow(t, ns, ms, plan):
        coll = ns.split(".")[1]
        cmd = ({"aggregate": coll, "pipeline": [{"$match": {"meter_id": {"$in": ["..."]}}}, {"$group": {"_id": "$meter_id"}}]}
               if ns == "meters.readings_hourly" else {"find": coll, "filter": {"status": "open"} if "invoices" in ns
                                                        else {"meter_id": f"KP-M{rng.randrange(1000000, 9999999)}"}})
        cmd["$db"] = ns.split(".")[0]
        docs = rng.randrange(900000, 19000000) if plan == "COLLSCAN" else rng.randrange(10, 40000)
        attr = {"type": "command", "ns": ns, "appName": rng.choice(["tariff-engine", "meter-api", "billing-batch"]),
                "command": cmd, "planSummary": plan, "keysExamined": 0 if plan == "COLLSCAN" else docs,
                "docsExamined": docs, "nreturned": rng.randrange(0, 500), "queryHash": hexid(rng, 8).upper(),
                "reslen": rng.randrange(200, 90000), "protocol": "op_msg", "durationMillis": ms}
        add(t, "I", "COMMAND", 51803, conn(), "Slow query", attr)

    def ixscan(ns):
        return "IXSCAN { meter_id: 1, ts: -1 }" if ns.startswith("meters") else "IXSCAN { account_id: 1 }"

    # >5000 ms: 83, all from 19:11:57 on; the first over 10 s planted.
    slow(at("19:11:57.304"), "meters.readings_hourly", 12840, "COLLSCAN")
    slow(at("19:38:12.077"), "meters.readings_hourly", 63127, "COLLSCAN")
    big_ns = ["billing.invoices_draft"] * 30 + ["meters.readings"] * 20 + ["meters.readings_hourly"] * 20 + ["billing.invoices"] * 11
    for ns in big_ns:
        t = rtime(rng, "19:11:58", "20:30:00")
        ms = rng.randrange(5800, 41000)
        slow(t, ns, ms, "COLLSCAN" if ns in ("billing.invoices_draft", "meters.readings") else ixscan(ns))
    # COLLSCAN top-up: invoices_draft 58 in all (30 above), meters.readings 31 (20 above), meters.readings_hourly
    # 2 above plus 20 here.
    for ns, n in (("billing.invoices_draft", 28), ("meters.readings", 11), ("meters.readings_hourly", 20),
                  ("tariffs.plans", 9)):
        for _ in range(n):
            slow(rtime(rng, "17:00:05", "20:59:50"), ns, rng.randrange(110, 4200), "COLLSCAN")
    while sum(1 for e in ev if e[5] == "Slow query") < 430:
        ns = rng.choice(namespaces)
        slow(rtime(rng, "17:00:05", "20:59:50"), ns, rng.randrange(101, 4200), ixscan(ns))
    for _ in range(200):
        t = rtime(rng, "17:00:05", "20:59:50")
        c = rng.randrange(40000, 49999)
        remote = f"10.40.{rng.randrange(1, 6)}.{rng.randrange(2, 250)}:{rng.randrange(30000, 60000)}"
        add(t, "I", "NETWORK", 22943, "listener", "Connection accepted",
            {"remote": remote, "uuid": {"uuid": {"$uuid": f"{hexid(rng, 8)}-{hexid(rng, 4)}-4{hexid(rng, 3)}-a{hexid(rng, 3)}-{hexid(rng, 12)}"}},
             "connectionId": c, "connectionCount": rng.randrange(180, 900)})
        add(t + timedelta(seconds=rng.randrange(1, 600)), "I", "NETWORK", 22944, f"conn{c}", "Connection ended",
            {"remote": remote, "connectionId": c, "connectionCount": rng.randrange(180, 900)})
    for h in range(17, 21):
        for m in range(0, 60, 4):
            t = at(f"{h}:{m:02d}:30") + timedelta(milliseconds=rng.randrange(0, 999))
            add(t, "I", "STORAGE", 22430, "Checkpointer", "WiredTiger message",
                {"message": {"ts_sec": int((t - EPOCH).total_seconds()), "ts_usec": 0, "thread": "1:0x7f3a11c4e640",
                             "session_name": "WT_SESSION.checkpoint", "category": "WT_VERB_CHECKPOINT_PROGRESS",
                             "verbose_level": "DEBUG_1", "msg": f"saving checkpoint snapshot min: {rng.randrange(10**6, 10**7)}"}})
    for _ in range(19):
        add(rtime(rng, "19:12:00", "20:20:00"), "W", "COMMAND", 20525, conn(),
            "Failed to gather storage statistics for slow operation",
            {"opId": rng.randrange(10**6, 10**7), "error": "lock acquire timeout"})
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, s, c, id_, ctx, msg, attr in ev:
        head = json.dumps({"t": {"$date": mongo_ts(t)}}, separators=(",", ":"))[:-1]
        rest = (f',"s":"{s}",  "c":"{c}",{" " * (10 - len(c))}"id":{id_},{" " * (8 - len(str(id_)))}'
                f'"ctx":"{ctx}","msg":{json.dumps(msg)},"attr":{json.dumps(attr, separators=(",", ":"))}}}')
        lines.append(head + rest)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# dmesg-node7.txt: raw `dmesg` of kp-node-7 (seconds since boot, no wall clock).
# Planted: 26 OOM kills ("Killed process"): java 21, python3 4, redis-server 1 (the
# invoking task is sometimes another thread); "I/O error, dev nvme1n1" x29; nvme timeouts;
# SYN flood notices; UFW blocks.
def dmesg_node7(rng):
    boot = at("17:00:00") - timedelta(seconds=1209613.402117)
    ev = []

    def add(t, msg):
        ev.append((t, msg))

    victims = ["java"] * 21 + ["python3"] * 4 + ["redis-server"]
    rng.shuffle(victims)
    cg = {"java": "tariff-engine.service", "python3": "meter-ingest.service", "redis-server": "redis-server.service"}
    for v in victims:
        t = rtime(rng, "18:40:00", "20:50:00")
        pid = rng.randrange(30000, 60000)
        invoker = rng.choice(["C2 CompilerThre", "java", "GC Thread#3"]) if v == "java" else v
        add(t, f"{invoker} invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0")
        add(t, f"CPU: {rng.randrange(0, 8)} PID: {pid + rng.randrange(1, 90)} Comm: {invoker} Not tainted 6.8.0-41-generic #41-Ubuntu")
        add(t, "Hardware name: Amazon EC2 m6i.2xlarge/, BIOS 1.0 10/16/2017")
        add(t, f"memory: usage {rng.randrange(4100000, 4194304)}kB, limit 4194304kB, failcnt {rng.randrange(1, 900)}")
        add(t, f"oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/system.slice/{cg[v]},"
            f"task_memcg=/system.slice/{cg[v]},task={v},pid={pid},uid={998 if v == 'java' else 997}")
        add(t + timedelta(microseconds=rng.randrange(800, 3000)),
            f"Memory cgroup out of memory: Killed process {pid} ({v}) total-vm:{rng.randrange(2000000, 9000000)}kB, "
            f"anon-rss:{rng.randrange(1000000, 4100000)}kB, file-rss:0kB, shmem-rss:0kB, UID:{998 if v == 'java' else 997} "
            f"pgtables:{rng.randrange(2000, 9999)}kB oom_score_adj:0")
    for _ in range(29):
        t = rtime(rng, "19:40:00", "20:10:00")
        add(t, f"I/O error, dev nvme1n1, sector {rng.randrange(10**7, 10**9)} op 0x1:(WRITE) flags 0x8800 phys_seg 1 prio class 2")
    for _ in range(12):
        add(rtime(rng, "19:40:00", "20:10:00"), f"nvme nvme1: I/O tag {rng.randrange(1, 1000)} (b{hexid(rng, 3)}) QID {rng.randrange(1, 8)} timeout, aborting")
    for _ in range(9):
        add(rtime(rng, "19:13:00", "19:30:00"), "TCP: request_sock_TCP: Possible SYN flooding on port 443. Sending cookies.  Check SNMP counters.")
    while len(ev) < 640:
        t = rtime(rng, "17:00:00", "20:59:59")
        add(t, f"[UFW BLOCK] IN=ens5 OUT= MAC=0a:1b:2c:3d:4e:5f:0a:9b:8c:7d:6e:5f:08:00 SRC={rng.randrange(1, 223)}."
            f"{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)} DST=10.40.1.7 LEN=44 TOS=0x00 PREC=0x00 "
            f"TTL={rng.randrange(30, 250)} ID={rng.randrange(1, 65535)} PROTO=TCP SPT={rng.randrange(1024, 65535)} "
            f"DPT={rng.choice([22, 23, 3389, 5900, 6379, 8080, 9200])} WINDOW=1024 RES=0x00 SYN URGP=0")
    ev.sort(key=lambda e: e[0])
    out = []
    for t, msg in ev:
        s = (t - boot).total_seconds()
        out.append(f"[{s:12.6f}] {msg}")
    return "\n".join(out) + "\n"
