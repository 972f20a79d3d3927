"""Writers of the `queries` dev set's fixture logs (one function a format), seeded.

Each writer plants the figures the cases ask about (named in the comments) into realistic
background traffic and returns the file's text. The truth the cases use is not taken from
here: `truth.py` parses the written text again, and `gen.py` checks the two agree.
"""

from datetime import datetime, timedelta, timezone

DAY = datetime(2026, 11, 14, tzinfo=timezone.utc)


def at(hms):
    """A time of the set's day from "HH:MM:SS" (or "HH:MM:SS.ffffff")."""
    return DAY + timedelta(seconds=secs(hms))


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def rtime(rng, a, b):
    """A uniform time in [a, b) (HH:MM:SS strings), microsecond resolution."""
    lo, hi = secs(a), secs(b)
    return DAY + timedelta(microseconds=int(rng.uniform(lo, hi) * 1e6))


def in_minute(rng, hhmm):
    return rtime(rng, hhmm + ":00", hhmm + ":59.999")


def ip_pool(rng, n, exclude):
    out, seen = [], set(exclude)
    while len(out) < n:
        a = rng.choice([23, 31, 37, 46, 62, 77, 81, 84, 91, 94, 109, 151, 176, 185, 188, 212, 217])
        ip = f"{a}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        if ip not in seen:
            seen.add(ip)
            out.append(ip)
    return out


def syslog_ts(t):
    return f"{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')}"


def iso_ms(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


# ---------------------------------------------------------------------------------------
# access.log: Apache common log format, 36,000 requests 00:30:00-03:29:58.
# Planted: 503 x163 (first 02:41:07), 502 x412 (382 in 02:41-02:48, peak minute 02:47 x97),
# 500 x58, 504 x29; 192.0.2.144 behind 57 of the 310 5xx of /api/checkout/confirm;
# 203.0.113.77 sends 2,914 requests (the top client); 198.51.100.201 401 x41 in 03:22-03:28
# (no 401 from 03:12 on otherwise); one 48,213,771-byte PDF download.
def access_log(rng):
    plants = {"203.0.113.77", "192.0.2.144", "198.51.100.201", "198.51.100.88"}
    pool = ip_pool(rng, 1850, plants)
    weights = [1.0 / (i + 12) ** 0.85 for i in range(len(pool))]
    ev = []

    def add(t, ip, method, path, status, size):
        ev.append((t, ip, method, path, status, size))

    def pick():
        return rng.choices(pool, weights)[0]

    checkout = []  # indexes of the /api/checkout/confirm 5xx, for the 192.0.2.144 plant
    add(at("02:41:07"), pick(), "POST", "/api/checkout/confirm", 503, 299)
    checkout.append(len(ev) - 1)
    for i in range(162):
        t = rtime(rng, "02:41:08", "02:48:59")
        path = "/api/checkout/confirm" if i < 120 else "/api/cart"
        add(t, pick(), "POST" if i < 120 else "GET", path, 503, 299)
        if i < 120:
            checkout.append(len(ev) - 1)
    per_min = {"02:41": 12, "02:42": 25, "02:43": 38, "02:44": 51, "02:45": 64, "02:46": 71,
               "02:47": 97, "02:48": 24}
    paths502 = (["/api/checkout/confirm"] * 180 + ["/api/payments/authorize"] * 140
                + ["/api/cart"] * 62)
    rng.shuffle(paths502)
    k = 0
    for minute, n in per_min.items():
        for _ in range(n):
            p = paths502[k]
            k += 1
            add(in_minute(rng, minute), pick(), "GET" if p == "/api/cart" else "POST", p, 502, 166)
            if p == "/api/checkout/confirm":
                checkout.append(len(ev) - 1)
    for i in range(30):
        t = rtime(rng, "00:35:00", "02:10:00") if i < 22 else rtime(rng, "03:05:00", "03:15:00")
        add(t, pick(), "GET", rng.choice(["/api/search?q=atlas", "/catalog/fiction", "/api/cart"]), 502, 166)
    for i in range(58):
        t = rtime(rng, "00:31:00", "03:29:00")
        if i < 9:
            add(t, pick(), "POST", "/api/checkout/confirm", 500, 531)
            checkout.append(len(ev) - 1)
        else:
            add(t, pick(), "GET", rng.choice(["/account/orders", "/api/search?q=poetry", "/catalog/item/20931"]), 500, 531)
    for _ in range(29):
        add(rtime(rng, "02:43:00", "02:48:59"), pick(), "POST", "/api/payments/authorize", 504, 247)
    for j in rng.sample(checkout, 57):
        t, _, m, p, s, b = ev[j]
        ev[j] = (t, "192.0.2.144", m, p, s, b)
    for _ in range(41):
        add(rtime(rng, "03:22:00", "03:28:59"), "198.51.100.201", "POST", "/api/login", 401, 87)
    for _ in range(2914):
        item = rng.randrange(10000, 99999)
        add(rtime(rng, "00:30:01", "03:29:57"), "203.0.113.77", "GET", f"/catalog/item/{item}", 200,
            rng.randrange(9000, 31000))
    add(at("01:58:13"), "198.51.100.88", "GET", "/downloads/catalog-2026-winter.pdf", 200, 48213771)
    add(at("00:30:00"), pick(), "GET", "/", 200, 10342)
    add(at("03:29:58"), pick(), "GET", "/healthz", 200, 2)
    while len(ev) < 36000:
        t = rtime(rng, "00:30:01", "03:29:57")
        add(t, pick(), *background_request(rng, t))
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, ip, m, p, s, b in ev:
        proto = "HTTP/2.0" if rng.random() < 0.3 else "HTTP/1.1"
        size = "-" if b == 0 else str(b)
        ts = t.strftime("%d/%b/%Y:%H:%M:%S +0000")
        lines.append(f'{ip} - - [{ts}] "{m} {p} {proto}" {s} {size}')
    return "\n".join(lines) + "\n"


BG_PATHS = [("GET", "/", 8), ("GET", "/catalog/{cat}", 15), ("GET", "/catalog/item/{id}", 25),
            ("GET", "/api/cart", 8), ("GET", "/api/search?q={q}", 10),
            ("GET", "/static/js/app.4f2a91.js", 7), ("GET", "/static/css/site.9c1e.css", 6),
            ("GET", "/static/img/{img}.webp", 8), ("POST", "/api/cart/items", 3),
            ("POST", "/api/checkout/confirm", 1.5), ("POST", "/api/payments/authorize", 1.5),
            ("POST", "/api/login", 2), ("GET", "/favicon.ico", 1), ("GET", "/robots.txt", 0.2),
            ("GET", "/downloads/{pdf}", 0.3), ("GET", "/account/orders", 2)]
CATS = ["fiction", "poetry", "history", "science", "children", "travel", "cookery", "art"]
WORDS = ["atlas", "dune", "tolkien", "garden", "python", "ramen", "marx", "orwell", "bridges"]


def background_request(rng, t):
    """A normal request: (method, path, status, bytes), never a 5xx; a 401 only before 03:12."""
    m, p, _ = rng.choices(BG_PATHS, [w for _, _, w in BG_PATHS])[0]
    p = (p.replace("{cat}", rng.choice(CATS)).replace("{id}", str(rng.randrange(10000, 99999)))
         .replace("{q}", rng.choice(WORDS)).replace("{img}", f"cover-{rng.randrange(1, 900)}")
         .replace("{pdf}", rng.choice(["catalog-2026-autumn.pdf", "gift-guide.pdf"])))
    r = rng.random()
    if p == "/api/login":
        late = t >= at("03:12:00")
        return m, p, (401 if r < 0.06 and not late else 200), 87 if r < 0.06 and not late else 412
    if p.startswith("/static") and r < 0.3:
        return m, p, 304, 0
    if r < 0.035:
        return m, p, 404, rng.randrange(196, 512)
    if r < 0.039:
        return m, p, 403, 199
    if r < 0.05:
        return m, p, 302, 0
    if r < 0.056:
        return m, p, 400, 226
    if p.startswith("/downloads"):
        return m, p, 200, rng.randrange(1200000, 9800000)
    return m, p, 200, rng.randrange(180, 42000)


# ---------------------------------------------------------------------------------------
# gateway-access.log: nginx combined + "$request_time $upstream_response_time", 2,000
# requests 02:00-03:20. Planted: request_time p50 = 0.041 and p95 = 0.873 (plateaus, so
# every percentile definition agrees), /v2/reports/export the slowest (max 14.872), 56
# requests over 1 s, the /v2/search mean an exact whole number of ms, 5xx 73 (peak minute
# 02:47 x21; 64 in hour 02, 9 in hour 03), 499 x57.
UAS = ["LarkspurApp/5.3.1 (iOS 17.4)", "LarkspurApp/5.3.1 (Android 14)", "okhttp/4.12.0",
       "Mozilla/5.0 (Windows NT 10.0; Win64; x64)", "python-requests/2.31.0", "curl/8.5.0"]


def gateway_log(rng):
    n = 2000
    reqs = []

    def req(t, method, path, status):
        reqs.append({"t": t, "m": method, "p": path, "s": status, "rt": None})

    for _ in range(25):
        req(rtime(rng, "02:00:05", "03:19:50"), "GET", "/v2/reports/export", 200)
    spike = {"02:44": 6, "02:45": 10, "02:46": 13, "02:47": 21, "02:48": 9, "02:49": 5}
    statuses = [504] * 24 + [502] * 40
    rng.shuffle(statuses)
    k = 0
    for minute, c in spike.items():
        for _ in range(c):
            req(in_minute(rng, minute), "POST", "/v2/orders", statuses[k])
            k += 1
    for _ in range(9):
        req(rtime(rng, "03:05:00", "03:12:00"), "GET", f"/v2/orders/{rng.randrange(110000, 130000)}", 502)
    for _ in range(57):
        req(rtime(rng, "02:00:05", "03:19:50"), "GET", f"/v2/track/{rng.randrange(10**7, 10**8)}", 499)
    for _ in range(260):
        req(rtime(rng, "02:00:05", "03:19:50"), "GET", f"/v2/search?q={rng.choice(WORDS)}", 200)
    others = [("GET", "/v2/orders/{o}", 20), ("POST", "/v2/orders", 12), ("GET", "/v2/track/{t}", 25),
              ("POST", "/v2/auth/token", 10), ("GET", "/v2/inventory/BK-{s}", 18), ("GET", "/v2/me", 15)]
    req(at("02:00:00"), "GET", "/v2/me", 200)
    req(at("03:20:00"), "GET", "/v2/me", 200)
    while len(reqs) < n:
        m, p, _ = rng.choices(others, [w for _, _, w in others])[0]
        p = (p.replace("{o}", str(rng.randrange(110000, 130000))).replace("{t}", str(rng.randrange(10**7, 10**8)))
             .replace("{s}", str(rng.randrange(10000, 99999))))
        r = rng.random()
        s = 404 if r < 0.03 else 401 if r < 0.04 else 201 if m == "POST" else 200
        req(rtime(rng, "02:00:05", "03:19:50"), m, p, s)
    assign_gateway_times(rng, reqs)
    reqs.sort(key=lambda r: r["t"])
    out = []
    for r in reqs:
        ip = f"{rng.choice([100, 172, 185])}.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        ts = r["t"].strftime("%d/%b/%Y:%H:%M:%S +0000")
        size = 0 if r["s"] == 499 else rng.randrange(120, 9000)
        if r["s"] == 499:
            urt = "-"
        elif r["s"] == 504:
            urt = "5.000"
        else:
            urt = f"{max(0.0, r['rt'] - rng.randrange(0, 3) / 1000):.3f}"
        ua = rng.choice(UAS)
        out.append(f'{ip} - - [{ts}] "{r["m"]} {r["p"]} HTTP/1.1" {r["s"]} {size} "-" "{ua}" {r["rt"]:.3f} {urt}')
    return "\n".join(out) + "\n"


def assign_gateway_times(rng, reqs):
    n = len(reqs)
    low = [rng.randrange(2, 41) for _ in range(940)]
    mid = [rng.randrange(42, 873) for _ in range(800)]
    plateau = [41] * 120 + [873] * 80
    export = [rng.randrange(2100, 14000) for _ in range(24)] + [14872]
    gw504 = [rng.randrange(5001, 5010) for _ in range(24)]
    high = [rng.randrange(900, 981) for _ in range(4)] + [rng.randrange(1004, 4500) for _ in range(7)]
    assert len(low) + len(mid) + len(plateau) + len(export) + len(gw504) + len(high) == n
    ex = [r for r in reqs if r["p"] == "/v2/reports/export"]
    for r, v in zip(ex, export):
        r["rt"] = v
    for r, v in zip([r for r in reqs if r["s"] == 504], gw504):
        r["rt"] = v
    f502 = [r for r in reqs if r["s"] == 502]
    rng.shuffle(low)
    for r in f502:
        r["rt"] = low.pop()
    rest = [r for r in reqs if r["rt"] is None]
    plain = [r for r in rest if r["s"] in (200, 201) and not r["p"].startswith("/v2/search")]
    for r, v in zip(rng.sample(plain, len(high)), high):
        r["rt"] = v
    pool = low + mid + plateau
    rng.shuffle(pool)
    for r in [r for r in reqs if r["rt"] is None]:
        r["rt"] = pool.pop()
    assert not pool
    # The /v2/search mean is a whole number of ms: move one mid-range search time.
    search = [r for r in reqs if r["p"].startswith("/v2/search")]
    rem = sum(r["rt"] for r in search) % len(search)
    fix = next(r for r in search if 42 + rem <= r["rt"] < 873 and r["rt"] != 41)
    fix["rt"] -= rem
    for r in reqs:
        r["rt"] = r["rt"] / 1000


# ---------------------------------------------------------------------------------------
# orders-api.jsonl: JSON lines with nested keys, 1,200 lines 01:30-03:30. Planted: level
# ERROR x176 (UpstreamTimeout x131 with http.status 504 in 02:41-02:48, peak minute 02:47
# x38; DBPoolExhausted x27 with 503; InternalError x18 with 500); user.id u-70315 behind 23
# errors; the largest http.latency_ms 9871 on route /v1/orders/{id}/refund.
def orders_jsonl(rng):
    import json

    users = [f"u-{x}" for x in rng.sample(range(10000, 99999), 900) if x != 70315]
    plans = ["free", "plus", "gold"]
    ev = []

    def line(t, level, logger, msg, http=None, user=True, extra=None):
        d = {"ts": iso_ms(t), "level": level, "logger": logger, "msg": msg}
        if http:
            d["http"] = http
        if user:
            uid = user if isinstance(user, str) else rng.choice(users)
            d["user"] = {"id": uid, "plan": rng.choice(plans)}
        if extra:
            d.update(extra)
        d["trace_id"] = hexid(rng, 16)
        ev.append((t, d))

    errors = []
    per_min = {"02:41": 6, "02:42": 9, "02:43": 13, "02:44": 17, "02:45": 21, "02:46": 24,
               "02:47": 38, "02:48": 3}
    for minute, c in per_min.items():
        for _ in range(c):
            errors.append((in_minute(rng, minute), "UpstreamTimeout", 504, "POST", "/v1/orders",
                           rng.randrange(5000, 5021), "upstream timeout calling payments"))
    for _ in range(27):
        errors.append((rtime(rng, "01:31:00", "03:29:00"), "DBPoolExhausted", 503, "GET",
                       rng.choice(["/v1/orders/{id}", "/v1/orders", "/v1/carts/{id}"]), rng.randrange(3001, 3051),
                       "HikariPool-1 - Connection is not available, request timed out after 3000ms"))
    for _ in range(18):
        errors.append((rtime(rng, "01:31:00", "03:29:00"), "InternalError", 500, "POST",
                       rng.choice(["/v1/orders", "/v1/orders/{id}/refund"]), rng.randrange(5, 300),
                       "unexpected nil fulfilment plan"))
    heavy = set(rng.sample(range(len(errors)), 23))
    for i, (t, kind, st, m, route, lat, msg) in enumerate(errors):
        uid = "u-70315" if i in heavy else rng.choice(users)
        extra = {"error": {"kind": kind, "message": msg}}
        if kind == "UpstreamTimeout":
            extra["upstream"] = {"name": "payments", "host": "10.4.2.17:8443"}
        line(t, "ERROR", "orders.http", msg, {"method": m, "route": route, "status": st, "latency_ms": lat},
             uid, extra)
    line(at("01:52:40.118"), "INFO", "orders.http", "request completed",
         {"method": "POST", "route": "/v1/orders/{id}/refund", "status": 200, "latency_ms": 9871})
    for _ in range(90):
        t = rtime(rng, "01:30:01", "03:29:59")
        if rng.random() < 0.5:
            line(t, "WARN", "orders.http", "slow request",
                 {"method": "GET", "route": rng.choice(["/v1/orders", "/v1/orders/{id}"]), "status": 200,
                  "latency_ms": rng.randrange(1000, 4800)})
        else:
            line(t, "WARN", "orders.validation", "order rejected by validation",
                 {"method": "POST", "route": "/v1/orders", "status": 422, "latency_ms": rng.randrange(3, 40)},
                 extra={"error": {"kind": "ValidationError", "message": "postcode does not match country"}})
    for _ in range(30):
        line(rtime(rng, "01:30:01", "03:29:59"), "DEBUG", "orders.outbox", "outbox flushed", user=False,
             extra={"outbox": {"batch": rng.randrange(1, 60)}})
    line(at("01:30:00.004"), "INFO", "orders.main", "orders-api 4.12.0 listening on :8080", user=False)
    while len(ev) < 1200:
        route = rng.choice(["/v1/orders", "/v1/orders/{id}", "/v1/carts/{id}", "/v1/orders/{id}/status"])
        line(rtime(rng, "01:30:01", "03:29:59"), "INFO", "orders.http", "request completed",
             {"method": "POST" if route == "/v1/orders" else "GET", "route": route,
              "status": 201 if route == "/v1/orders" else 200, "latency_ms": rng.randrange(3, 900)})
    ev.sort(key=lambda e: e[0])
    return "".join(json.dumps(d, separators=(",", ":")) + "\n" for _, d in ev)


# ---------------------------------------------------------------------------------------
# inventory-sync.log: logfmt, 1,000 lines 00:00-03:00. Planted: level=error x47; level=warn
# x111 by warehouse lis-1 41, ams-2 24, fra-1 19, waw-3 15, mad-1 12; the largest took_ms
# 12904 (warehouse=waw-3); msg="stock mismatch" for sku=BK-77120 x9.
def inventory_logfmt(rng):
    whs = ["ams-2", "lis-1", "fra-1", "waw-3", "mad-1"]
    ev = []

    def line(t, level, msg, **kv):
        parts = [f"time={iso_ms(t)}", f"level={level}", "component=sync", f'msg="{msg}"']
        parts += [f'{k}="{v}"' if " " in str(v) else f"{k}={v}" for k, v in kv.items()]
        ev.append((t, " ".join(parts)))

    def t_any():
        return rtime(rng, "00:00:01", "02:59:59")

    for _ in range(47):
        if rng.random() < 0.6:
            line(t_any(), "error", "supplier feed rejected", warehouse=rng.choice(whs),
                 supplier=rng.choice(["acme-books", "folio-dist", "nordbok"]), code=422)
        else:
            line(t_any(), "error", "db write failed", warehouse=rng.choice(whs), err="context deadline exceeded")
    warn_whs = ["lis-1"] * 41 + ["ams-2"] * 24 + ["fra-1"] * 19 + ["waw-3"] * 15 + ["mad-1"] * 12
    rng.shuffle(warn_whs)
    slow_idx = warn_whs.index("waw-3")
    bk77120 = set(rng.sample([i for i in range(len(warn_whs)) if i != slow_idx], 9))
    for i, wh in enumerate(warn_whs):
        if i == slow_idx:
            line(at("01:37:22.604"), "warn", "slow batch", warehouse=wh, batch=rng.randrange(10000, 99999),
                 skus=1840, took_ms=12904)
        elif i in bk77120:
            line(t_any(), "warn", "stock mismatch", warehouse=wh, sku="BK-77120",
                 expected=rng.randrange(2, 40), actual=0)
        elif rng.random() < 0.5:
            line(t_any(), "warn", "stock mismatch", warehouse=wh, sku=f"BK-{rng.randrange(10000, 99999)}",
                 expected=rng.randrange(2, 40), actual=rng.randrange(0, 2))
        else:
            line(t_any(), "warn", "slow batch", warehouse=wh, batch=rng.randrange(10000, 99999),
                 skus=rng.randrange(200, 900), took_ms=rng.randrange(2000, 3900))
    for _ in range(60):
        line(t_any(), "debug", "poll", warehouse=rng.choice(whs), queue_depth=rng.randrange(0, 300))
    line(at("00:00:00.112"), "info", "inventory-sync 2.7.1 started", warehouse="all")
    line(at("03:00:00.004"), "info", "batch applied", warehouse="ams-2", batch=99120, skus=88, took_ms=412)
    while len(ev) < 1000:
        line(t_any(), "info", "batch applied", warehouse=rng.choice(whs), batch=rng.randrange(10000, 99999),
             skus=rng.randrange(1, 400), took_ms=rng.randrange(40, 1999))
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)


# ---------------------------------------------------------------------------------------
# catalog-service.log: Spring Boot (logback) with multi-line stack traces, 00:00-03:30.
# Planted ERROR events: java.net.SocketTimeoutException x58 (two lines each: the Spring
# message names it and a "Caused by"), java.lang.OutOfMemoryError x17 (two lines each,
# first 02:38:12, last 02:44:49), NullPointerException x27, DataIntegrityViolation x9: 111
# ERROR events, the most from c.l.catalog.client.PricingClient (58). The JVM is pid 31337
# until the kernel kills it at 02:44:51; the restarted one is pid 31502.
SPRING_FRAMES = [
    "org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1014)",
    "org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1089)",
    "org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:166)",
    "org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)",
    "java.base/java.lang.Thread.run(Thread.java:1583)",
]


def catalog_java(rng):
    events = []  # (t, level, thread, logger, [lines])

    def ev(t, level, logger, msg, trace=(), thread=None):
        thread = thread or f"nio-8080-exec-{rng.randrange(1, 41)}"
        events.append((t, level, thread, logger, msg, list(trace)))

    def t_any():
        t = rtime(rng, "00:00:05", "03:29:55")
        return t if not at("02:44:40") <= t <= at("02:45:30") else t_any()

    for _ in range(58):
        item = rng.randrange(10000, 99999)
        ev(t_any(), "ERROR", "c.l.catalog.client.PricingClient", f"Price lookup failed for item {item}", [
            f'org.springframework.web.client.ResourceAccessException: I/O error on GET request for '
            f'"http://pricing:8080/v1/prices/{item}": Read timed out; nested exception is '
            f'java.net.SocketTimeoutException: Read timed out',
            "\tat org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:791)",
            "\tat org.springframework.web.client.RestTemplate.getForObject(RestTemplate.java:333)",
            "\tat com.larkspur.catalog.client.PricingClient.price(PricingClient.java:58)",
            "\tat com.larkspur.catalog.service.ItemService.enrich(ItemService.java:121)",
            *("\tat " + f for f in SPRING_FRAMES),
            "Caused by: java.net.SocketTimeoutException: Read timed out",
            "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)",
            "\tat java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:314)",
            f"\t... {rng.randrange(38, 52)} common frames omitted"])
    oom_times = [at("02:38:12.407")] + sorted(rtime(rng, "02:38:13", "02:44:48") for _ in range(15)) \
        + [at("02:44:49.933")]
    for t in oom_times:
        ev(t, "ERROR", "o.a.c.c.C.[.[.[/].[dispatcherServlet]",
           "Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception "
           "[Handler dispatch failed; nested exception is java.lang.OutOfMemoryError: Java heap space] "
           "with root cause", [
               "java.lang.OutOfMemoryError: Java heap space",
               "\tat java.base/java.util.Arrays.copyOf(Arrays.java:3541)",
               "\tat com.larkspur.catalog.search.FacetAggregator.collect(FacetAggregator.java:204)",
               "\tat com.larkspur.catalog.web.SearchController.search(SearchController.java:77)",
               *("\tat " + f for f in SPRING_FRAMES)])
    for _ in range(27):
        ev(t_any(), "ERROR", "c.l.catalog.web.SearchController", "Search request failed", [
            'java.lang.NullPointerException: Cannot invoke "com.larkspur.catalog.model.Facet.getName()" '
            'because "facet" is null',
            "\tat com.larkspur.catalog.web.SearchController.facets(SearchController.java:131)",
            "\tat com.larkspur.catalog.web.SearchController.search(SearchController.java:82)",
            *("\tat " + f for f in SPRING_FRAMES)])
    for _ in range(9):
        ev(t_any(), "ERROR", "c.l.catalog.repo.ItemRepository", "Could not save item", [
            "org.springframework.dao.DataIntegrityViolationException: could not execute statement; "
            "SQL [n/a]; constraint [items_isbn_key]",
            "\tat com.larkspur.catalog.repo.ItemRepository.save(ItemRepository.java:45)",
            *("\tat " + f for f in SPRING_FRAMES[:2])])
    for _ in range(60):
        if rng.random() < 0.5:
            ev(t_any(), "WARN", "com.zaxxer.hikari.pool.HikariPool",
               "HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=1m2s).",
               thread="HikariPool-1 housekeeper")
        else:
            ev(t_any(), "WARN", "c.l.catalog.client.PricingClient",
               f"Pricing slow for item {rng.randrange(10000, 99999)}: {rng.randrange(800, 2900)} ms")
    startup = ["Starting CatalogApplication v3.8.2 using Java 21.0.2",
               "Tomcat initialized with port 8080 (http)", "HikariPool-1 - Start completed.",
               "Tomcat started on port 8080 (http) with context path ''",
               "Started CatalogApplication in 14.208 seconds (process running for 15.1)"]
    for i, msg in enumerate(startup):
        ev(at("02:45:06") + timedelta(seconds=i * 3.5), "INFO", "c.l.catalog.CatalogApplication", msg,
           thread="main")
    for _ in range(30):
        ev(t_any(), "DEBUG", "c.l.catalog.cache.FacetCache", f"facet cache refreshed ({rng.randrange(200, 900)} keys)",
           thread="scheduling-1")
    while len(events) < 700:
        ev(t_any(), "INFO", "c.l.catalog.web.SearchController",
           f'search q="{rng.choice(WORDS)}" hits={rng.randrange(0, 400)} took={rng.randrange(4, 700)}ms')
    events.sort(key=lambda e: e[0])
    out = []
    for t, level, thread, logger, msg, trace in events:
        pid = 31337 if t < at("02:44:51") else 31502
        ts = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d}"
        out.append(f"{ts} {level:>5} {pid} --- [{thread[-15:]:>15}] {logger[:40]:<40} : {msg}")
        out.extend(trace)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# mailer.log: generic "date time,ms LEVEL [thread] message", 1,200 lines 00:00-03:25:00.
# Planted ERROR x71: "connection to relay mx2.relay.example:25 timed out after <n>s" x36
# (the most frequent), TLS handshake x21, bounce processing x14; 43 of them in
# 02:41-02:48 and none in [02:37, 02:41) or [02:49, 02:53); WARN x29 in 03:16-03:24 and none
# in [03:12, 03:16).
def mailer_log(rng):
    ev = []

    def line(t, level, msg):
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        ev.append((t, f"{ts} {level:<5} [smtp-pool-{rng.randrange(1, 9)}] {msg}"))

    def outside(lo="00:00:01", hi="03:11:59"):
        while True:
            t = rtime(rng, lo, hi)
            if not at("02:37:00") <= t < at("02:53:00"):
                return t

    kinds = ([("mx2", True)] * 30 + [("tls", True)] * 8 + [("bounce", True)] * 5
             + [("mx2", False)] * 6 + [("tls", False)] * 13 + [("bounce", False)] * 9)
    for kind, window in kinds:
        t = rtime(rng, "02:41:00", "02:48:59") if window else outside()
        if kind == "mx2":
            msg = f"connection to relay mx2.relay.example:25 timed out after {rng.choice([15, 30, 45])}s"
        elif kind == "tls":
            msg = f"TLS handshake with {rng.choice(['mx1.relay.example', 'smtp.partner.example'])} failed: certificate expired"
        else:
            msg = f"bounce processing failed for msg {hexid(rng, 10)}: mailbox unavailable"
        line(t, "ERROR", msg)
    for i in range(29):
        line(rtime(rng, "03:16:00", "03:24:59"), "WARN", f"delivery deferred for msg {hexid(rng, 10)}: 421 4.7.0 try again later")
    for _ in range(100):
        line(outside(), "WARN", rng.choice([f"delivery deferred for msg {hexid(rng, 10)}: 421 4.7.0 try again later",
                                            f"queue depth {rng.randrange(500, 3000)} above soft limit"]))
    for _ in range(50):
        line(rtime(rng, "00:00:01", "03:24:59"), "DEBUG", f"pool stats active={rng.randrange(0, 9)} idle={rng.randrange(0, 9)}")
    line(at("03:25:00.000"), "INFO", "shutdown requested, draining queue")
    while len(ev) < 1200:
        line(rtime(rng, "00:00:01", "03:24:59"), "INFO",
             f"delivered msg {hexid(rng, 10)} to {rng.choice(['gmail.com', 'outlook.com', 'web.de', 'yahoo.co.jp'])} in {rng.randrange(80, 2400)}ms")
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)
