"""Writers of the `queries-heldout3` set's fixture logs (one function a format), seeded.

Brambleway, an online grocer (delivery slots, baskets, checkout, warehouse picking), on
Saturday 2028-01-15 (UTC), 05:00-09:00. At 07:00 next week's delivery slots are released;
the message broker hits its memory watermark at 07:01:58 and blocks publishers, checkout
overflows its circuit breaker, the slot store's Cassandra nodes stall in GC and one of them
crash-loops on OOM kills until about 08:35.

Each writer plants the figures the cases ask about (named in the comments) into realistic
background traffic and returns the file's text. The cases' truth is not taken from here:
`truth.py` parses the written text again and `gen.py` asserts the two agree.
"""

import json
import math
from datetime import datetime, timedelta, timezone

DAY = datetime(2028, 1, 15, tzinfo=timezone.utc)
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


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
    return rtime(rng, hhmm + ":00.5", hhmm + ":59.4")


def epoch(t):
    return (t - EPOCH) / timedelta(seconds=1)


def epoch_us(t):
    return (t - EPOCH) // timedelta(microseconds=1)


def ip_pool(rng, n, exclude=(), firsts=(31, 37, 46, 62, 77, 81, 86, 90, 94, 109, 146, 151, 176, 185, 212)):
    out, seen = [], set(exclude)
    while len(out) < n:
        ip = f"{rng.choice(firsts)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        if ip not in seen:
            seen.add(ip)
            out.append(ip)
    return out


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def zipf_weights(n, s=0.9, q=8):
    return [1.0 / (i + q) ** s for i in range(n)]


def hour_range(h):
    """(start, end) of hour h, clear of the hour's edges."""
    lo, hi = f"{h:02d}:00:20", f"{h:02d}:59:40"
    return lo, hi


STORES = ["LDN-07", "MAN-02", "BRS-11", "LDS-04", "GLA-01", "CDF-03"]
UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36",
       "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 Version/17.2 Safari/605.1.15",
       "BramblewayApp/8.2.0 (iOS 17.2)", "BramblewayApp/8.2.0 (Android 14)", "BramblewayApp/8.1.4 (Android 13)"]


# ---------------------------------------------------------------------------------------
# caddy-shop-access.log: Caddy v2 JSON access log (`http.log.access`), 2,200 requests.
# Planted: 502 x193 (112 in 07:03-07:06, peak minute 07:04 x31; 63 in 07:13-07:24; 18
# other hours), 504 x143 (129 in 07:13-07:24, 96 of them POST /api/v2/slots/reserve), 500
# x41, 503 x31; 5xx by hour 20 / 25 / 324 / 39; no 5xx in 07:07-07:13 or 07:27-07:36; the
# slowest request a 24-month order export (58.417326 s); 504s take ~30 s.
SHOP, API, IMG = "shop.brambleway.example", "api.brambleway.example", "img.brambleway.example"
RESERVE = "/api/v2/slots/reserve"
CADDY_QUIET = [("06:55:00", "07:36:00")]


def caddy_access(rng):
    pool = ip_pool(rng, 1150, {"86.143.22.91"})
    weights = zipf_weights(len(pool))
    ev = []

    def add(t, host, method, uri, status, size, dur, ip=None, ua=None, ctype="application/json"):
        ev.append((t, host, method, uri, status, size, dur, ip or rng.choices(pool, weights)[0],
                   ua or rng.choice(UAS), ctype))

    def slots_uri():
        return f"/api/v2/slots?postcode={rng.choice(['BR4', 'LS6', 'M14', 'BS7', 'G12', 'CF24', 'SE22', 'N16'])}" \
               f"&date=2028-01-{rng.randrange(16, 23)}"

    def scattered(h):
        lo, hi = hour_range(h)
        return rtime(rng, lo, hi, gaps=CADDY_QUIET)

    def bad_gateway_dur():
        return rng.uniform(0.0008, 0.004)

    # Wave 1: the basket service refuses connections (502, and 503 when no upstream is left).
    wave1 = {"07:03": 24, "07:04": 31, "07:05": 29, "07:06": 28}
    basket = ["/api/v2/basket", "/api/v2/basket/items", "/api/v2/checkout"]
    for minute, k in wave1.items():
        for _ in range(k):
            t = in_minute(rng, minute)
            if minute == "07:03":
                t = rtime(rng, "07:03:05", "07:03:59.4")
            m = "GET" if rng.random() < 0.4 else "POST"
            add(t, API, m, rng.choice(basket), 502, 0, bad_gateway_dur())
    for _ in range(14):
        add(rtime(rng, "07:03:05", "07:06:59"), API, "POST", rng.choice(basket), 503, 0, rng.uniform(0.0001, 0.0009))
    # Wave 2: slot reservations time out behind a stalled slot store (504 after 30 s) and the
    # basket service flaps again (502).
    kinds = ["reserve"] * 96 + ["slots"] * 33
    rng.shuffle(kinds)
    for k in kinds:
        t = rtime(rng, "07:13:05", "07:24:30")
        dur = 30.0 + rng.uniform(0.0002, 0.0041)
        if k == "reserve":
            add(t, API, "POST", RESERVE, 504, 0, dur)
        else:
            add(t, API, "GET", slots_uri(), 504, 0, dur)
    for _ in range(63):
        add(rtime(rng, "07:13:05", "07:24:30"), API, rng.choice(["GET", "POST"]), rng.choice(basket), 502, 0,
            bad_gateway_dur())
    # Now and then all morning.
    other = ["/api/v2/basket", "/api/v2/orders", "/account/orders", "/api/v2/promotions/active", "/api/v2/substitutions"]
    for h, k in ((5, 4), (6, 5), (8, 9)):
        for _ in range(k):
            add(scattered(h), API, "GET", rng.choice(other), 502, 0, bad_gateway_dur())
    for h, k in ((5, 3), (6, 4), (8, 7)):
        for _ in range(k):
            add(scattered(h), API, "GET", rng.choice([slots_uri(), "/api/v2/orders", "/account/orders"]), 504, 0,
                30.0 + rng.uniform(0.0002, 0.0041))
    for h, k in ((5, 9), (6, 11), (7, 6), (8, 15)):
        for _ in range(k):
            host = rng.choice([SHOP, API])
            add(scattered(h), host, "GET", rng.choice(other + ["/checkout/confirm", "/account"]), 500, 147,
                rng.uniform(0.02, 0.9))
    for h, k in ((5, 4), (6, 5), (8, 8)):
        for _ in range(k):
            add(scattered(h), API, "GET", rng.choice(other), 503, 0, rng.uniform(0.0001, 0.0009))
    # The slowest request of the morning.
    add(at("08:12:44.205913"), SHOP, "GET", "/account/orders/export.csv?months=24", 200, 18204417, 58.417326142,
        ip="86.143.22.91", ua=UAS[2], ctype="text/csv")
    add(at("05:00:00.731004"), SHOP, "GET", "/", 200, 48211, 0.041177, ctype="text/html; charset=utf-8")
    add(at("08:59:59.118230"), IMG, "GET", "/p/40412/400x400.webp", 200, 21877, 0.003911, ctype="image/webp")
    weights_h = {5: 300, 6: 450, 7: 900, 8: 542}
    hours = [h for h, w in weights_h.items() for _ in range(w)]
    rng.shuffle(hours)
    while len(ev) < 2200:
        h = hours[(len(ev)) % len(hours)]
        t = rtime(rng, f"{h:02d}:00:01", f"{h:02d}:59:58")
        add(t, *caddy_background(rng, slots_uri))
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, host, method, uri, status, size, dur, ip, ua, ctype in ev:
        rec = {
            "level": "error" if status >= 500 else "info",
            "ts": round(epoch(t), 6),
            "logger": "http.log.access.log0",
            "msg": "handled request",
            "request": {
                "remote_ip": ip, "remote_port": str(rng.randrange(1024, 65535)), "client_ip": ip,
                "proto": "HTTP/2.0" if rng.random() < 0.8 else "HTTP/1.1", "method": method, "host": host,
                "uri": uri, "headers": {"User-Agent": [ua]},
                "tls": {"resumed": rng.random() < 0.3, "version": 772, "cipher_suite": 4865, "proto": "h2",
                        "server_name": host},
            },
            "bytes_read": rng.randrange(120, 900) if method == "POST" else 0,
            "user_id": "",
            "duration": round(dur, 9),
            "size": size,
            "status": status,
            "resp_headers": {"Server": ["Caddy"], "Content-Type": [ctype] if size else []},
        }
        if not size:
            del rec["resp_headers"]["Content-Type"]
        lines.append(json.dumps(rec, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def caddy_background(rng, slots_uri):
    """One ordinary request: (host, method, uri, status, size, dur); never 5xx."""
    r = rng.random()
    dur = min(rng.lognormvariate(math.log(0.045), 0.9), 6.5)
    ctype = "application/json"
    if r < 0.25:
        host, method = IMG, "GET"
        uri = f"/p/{rng.randrange(10000, 99999)}/{rng.choice(['200x200', '400x400', '800x800'])}.webp"
        status = 304 if rng.random() < 0.3 else 200
        size = 0 if status == 304 else rng.randrange(4000, 90000)
        dur = rng.uniform(0.0007, 0.012)
        ctype = "image/webp"
    elif r < 0.50:
        host, method = SHOP, "GET"
        uri = rng.choice(["/", "/slots", "/basket", "/account", "/account/orders", "/offers",
                          f"/c/{rng.choice(['fruit-veg', 'bakery', 'dairy-eggs', 'frozen', 'drinks'])}",
                          f"/search?q={rng.choice(['milk', 'bread', 'oat+milk', 'bananas', 'coffee'])}"])
        status, size = 200, rng.randrange(9000, 90000)
        ctype = "text/html; charset=utf-8"
    else:
        host = API
        x = rng.random()
        if x < 0.34:
            method, uri = "GET", slots_uri()
        elif x < 0.52:
            method, uri = "POST", RESERVE
        elif x < 0.70:
            method, uri = "POST", "/api/v2/basket/items"
        elif x < 0.82:
            method, uri = "GET", "/api/v2/basket"
        elif x < 0.90:
            method, uri = "POST", "/api/v2/checkout"
        elif x < 0.97:
            method, uri = "GET", "/api/v2/promotions/active"
        else:
            method, uri = "GET", "/api/v2/orders"
        status = 201 if method == "POST" else 200
        size = rng.randrange(200, 14000)
    if host != IMG:
        y = rng.random()
        if y < 0.05:
            status, size = 404, 38
        elif y < 0.07:
            status, size = 401, 61
        elif y < 0.085 and uri == RESERVE:
            status, size = 409, 94
        elif y < 0.10 and host == API:
            status, size = 429, 55
    return host, method, uri, status, size, dur, None, None, ctype


# ---------------------------------------------------------------------------------------
# envoy-ingress.log: Envoy default access log format, 2,500 requests.
# Planted: UT (upstream request timeout, 504, ~15 s) x117; UF (503 connection failure) x96,
# 10.42.7.31:8080 behind 58; UO (503 circuit-breaker overflow, checkout-svc) x74, the first
# at 07:03:31.208; UH x9; 503 x179, 155 of them in 07:00-07:30 and none in 06:57-07:03 or
# 07:27-07:33; DURATION p90 238 ms (a plateau of 90 requests at 238 covering ranks 2201-2290).
ENVOY_UPSTREAMS = {
    "basket-svc": ["10.42.7.31:8080", "10.42.7.44:8080", "10.42.6.12:8080"],
    "slot-svc": ["10.42.8.11:8080", "10.42.8.12:8080"],
    "checkout-svc": ["10.42.9.21:8080", "10.42.9.22:8080"],
    "catalog-svc": ["10.42.4.5:8080", "10.42.4.6:8080"],
    "promo-svc": ["10.42.3.8:8080"],
}
ENVOY_PATHS = {
    "basket-svc": ["/v1/baskets/{id}", "/v1/baskets/{id}/items", "/v1/baskets/{id}/items/{sku}"],
    "slot-svc": ["/v1/slots/search", "/v1/slots/{id}/hold", "/v1/slots/{id}/release"],
    "checkout-svc": ["/v1/checkout", "/v1/checkout/{id}/confirm"],
    "catalog-svc": ["/v1/products/{sku}", "/v1/categories/{c}/products"],
    "promo-svc": ["/v1/promotions/eligible"],
}
ENVOY_QUIET = [("06:57:00", "07:33:00")]


def envoy_access(rng):
    xff = ip_pool(rng, 700)
    ev = []

    def path_for(svc):
        p = rng.choice(ENVOY_PATHS[svc])
        return (p.replace("{id}", hexid(rng, 10)).replace("{sku}", str(rng.randrange(100000, 999999)))
                .replace("{c}", rng.choice(["bakery", "dairy", "frozen", "drinks"])))

    def add(t, svc, code, flags, dur, upstream, sent=None, method=None, ust=None):
        method = method or ("GET" if rng.random() < 0.55 else "POST")
        if sent is None:
            sent = rng.randrange(80, 9000)
        recv = rng.randrange(60, 1200) if method == "POST" else 0
        if ust is None:
            ust = "-" if upstream == "-" or flags != "-" else str(max(0, dur - rng.randrange(0, 3)))
        ev.append((t, method, path_for(svc), code, flags, recv, sent, dur, ust, rng.choice(xff), rng.choice(UAS),
                   uuid(rng), svc, upstream))

    outside = lambda: rtime(rng, "05:00:30", "08:59:30", gaps=ENVOY_QUIET)  # noqa: E731
    # UT: slot-svc stalls behind the slot store.
    for i in range(117):
        svc = "slot-svc" if i < 96 else "basket-svc"
        t = rtime(rng, "07:13:00", "07:24:59") if i % 7 else outside()
        add(t, svc, 504, "UT", 15000 + rng.randrange(0, 5), rng.choice(ENVOY_UPSTREAMS[svc]), sent=24)
    # UF: basket pods refuse connections.
    hosts_in = ["10.42.7.31:8080"] * 53 + ["10.42.7.44:8080"] * 16 + ["10.42.6.12:8080"] * 12
    hosts_out = ["10.42.7.31:8080"] * 5 + ["10.42.7.44:8080"] * 5 + ["10.42.6.12:8080"] * 5
    for h in hosts_in:
        add(rtime(rng, "07:03:20", "07:26:00"), "basket-svc", 503, "UF", rng.randrange(1, 7), h, sent=91)
    for h in hosts_out:
        add(outside(), "basket-svc", 503, "UF", rng.randrange(1, 7), h, sent=91)
    # UO: checkout's circuit breaker overflows while its publishes are blocked.
    add(at("07:03:31.208"), "checkout-svc", 503, "UO", 0, "-", sent=81, method="POST")
    for _ in range(73):
        add(rtime(rng, "07:03:32", "07:19:30"), "checkout-svc", 503, "UO", 0, "-", sent=81, method="POST")
    for _ in range(9):
        add(outside(), "promo-svc", 503, "UH", 0, "-", sent=19)
    n_fault = len(ev)
    # Ordinary traffic: 93 slow, 90 at exactly 238 ms, the rest under it.
    n_normal = 2500 - n_fault
    durs = ([rng.randrange(260, 9800) for _ in range(93)] + [238] * 90
            + [min(237, max(2, int(rng.lognormvariate(math.log(38), 0.8)))) for _ in range(n_normal - 183)])
    rng.shuffle(durs)
    svcs = list(ENVOY_PATHS)
    for d in durs:
        svc = rng.choices(svcs, [30, 26, 12, 26, 6])[0]
        code, sent = 200, None
        y = rng.random()
        if y < 0.04:
            code, sent = 404, 22
        elif y < 0.05:
            code = 201
        elif y < 0.06 and svc == "slot-svc":
            code, sent = 409, 57
        elif y < 0.072:
            code, sent = 500, 112
        add(rtime(rng, "05:00:05", "08:59:55"), svc, code, "-", d, rng.choice(ENVOY_UPSTREAMS[svc]), sent=sent)
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, method, path, code, flags, recv, sent, dur, ust, x, ua, rid, svc, up in ev:
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
        lines.append(f'[{ts}] "{method} {path} HTTP/1.1" {code} {flags} {recv} {sent} {dur} {ust} '
                     f'"{x}" "{ua}" "{rid}" "{svc}" "{up}"')
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# nginx-pick-error.log: nginx error log of the warehouse picking gateway.
# Planted: "upstream timed out (110: Connection timed out)" x157; "connect() failed (111:
# Connection refused)" x84 (10.42.8.21:9090 behind 51); "no live upstreams" x37;
# "worker_connections are not enough" x23, the first at 07:05:17.
PICK_UP = ["10.42.8.21:9090", "10.42.8.22:9090", "10.42.8.23:9090"]


def nginx_error(rng):
    ev = []
    workers = [2417, 2418, 2419, 2420]
    cid = [881000]
    clients = [f"10.42.{rng.choice([3, 13, 14])}.{rng.randrange(10, 250)}" for _ in range(60)]

    def pick_req():
        return rng.choice([f"POST /v1/picklists/PL-{rng.randrange(80000, 99999)}/confirm",
                           f"GET /v1/picklists/PL-{rng.randrange(80000, 99999)}",
                           f"POST /v1/totes/T{rng.randrange(1000, 9999)}/scan",
                           f"GET /v1/locations/{rng.choice('ABCDEF')}{rng.randrange(1, 40):02d}-{rng.randrange(1, 9)}"])

    def add(t, level, body, conn=True):
        w = rng.choice(workers)
        if conn:
            cid[0] += rng.randrange(1, 40)
            ev.append((t, f"[{level}] {w}#{w}: *{cid[0]} {body}"))
        else:
            ev.append((t, f"[{level}] {w}#{w}: {body}"))

    def tail(req, up, client=None):
        path = req.split(" ", 1)[1]
        return (f', client: {client or rng.choice(clients)}, server: pick.brambleway.internal, request: "{req} HTTP/1.1", '
                f'upstream: "http://{up}{path}", host: "pick.brambleway.internal"')

    for i in range(157):
        t = rtime(rng, "07:05:00", "07:31:00") if i < 140 else rtime(rng, "05:00:10", "08:59:50")
        req = pick_req()
        add(t, "error", "upstream timed out (110: Connection timed out) while reading response header from upstream"
            + tail(req, rng.choice(PICK_UP)))
    refused = ["10.42.8.21:9090"] * 51 + ["10.42.8.22:9090"] * 20 + ["10.42.8.23:9090"] * 13
    for up in refused:
        t = rtime(rng, "07:08:00", "07:26:00") if rng.random() < 0.85 else rtime(rng, "05:00:10", "08:59:50")
        req = pick_req()
        add(t, "error", "connect() failed (111: Connection refused) while connecting to upstream" + tail(req, up))
    for _ in range(37):
        req = pick_req()
        path = req.split(" ", 1)[1]
        add(rtime(rng, "07:12:00", "07:22:00"), "error",
            f'no live upstreams while connecting to upstream, client: {rng.choice(clients)}, server: '
            f'pick.brambleway.internal, request: "{req} HTTP/1.1", upstream: "http://picking_backend{path}", '
            f'host: "pick.brambleway.internal"')
    add(at("07:05:17"), "alert", "4096 worker_connections are not enough", conn=False)
    for _ in range(22):
        add(rtime(rng, "07:05:18", "07:29:00"), "alert", "4096 worker_connections are not enough", conn=False)
    for _ in range(61):
        req = pick_req()
        add(rtime(rng, "07:06:00", "07:30:00"), "warn",
            "upstream server temporarily disabled while reading response header from upstream"
            + tail(req, rng.choice(PICK_UP)))
    for _ in range(318):
        req = pick_req()
        add(rtime(rng, "05:00:10", "08:59:50"), "warn",
            f"an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/"
            f"{rng.randrange(1, 9)}/{rng.randrange(10, 99)}/{rng.randrange(10 ** 9, 10 ** 10)} while reading upstream"
            + tail(req, rng.choice(PICK_UP)))
    for _ in range(143):
        f = rng.choice(["favicon.ico", "robots.txt", "apple-touch-icon.png", ".env", "wp-login.php"])
        add(rtime(rng, "05:00:10", "08:59:50"), "error",
            f'open() "/usr/share/nginx/html/{f}" failed (2: No such file or directory), client: {rng.choice(clients)}, '
            f'server: pick.brambleway.internal, request: "GET /{f} HTTP/1.1", host: "pick.brambleway.internal"')
    for _ in range(29):
        add(rtime(rng, "05:00:10", "08:59:50"), "error",
            f"client intended to send too large body: {rng.randrange(1100000, 9000000)} bytes, client: "
            f'{rng.choice(clients)}, server: pick.brambleway.internal, request: "POST /v1/photos HTTP/1.1", '
            f'host: "pick.brambleway.internal"')
    for _ in range(26):
        add(rtime(rng, "05:00:10", "08:59:50"), "crit",
            "SSL_do_handshake() failed (SSL: error:0A00006C:SSL routines::bad key share) while SSL handshaking, "
            f"client: {rng.choice(ip_pool(rng, 1))}, server: 0.0.0.0:443")
    ev.append((at("05:00:02"), "[notice] 2410#2410: signal process started"))
    ev.append((at("08:31:40"), "[notice] 2410#2410: signal process started"))
    ev.sort(key=lambda e: e[0])
    return "".join(t.strftime("%Y/%m/%d %H:%M:%S ") + body + "\n" for t, body in ev)


# ---------------------------------------------------------------------------------------
# rabbit@bw-mq-2.log: RabbitMQ 3.12 log (each line of a multi-line message prefixed).
# Planted: memory alarm set at 07:01:58.412339, cleared at 07:19:43.207115; "missed
# heartbeats from client" x68 (order-worker 39, slot-allocator 18, mailer 11, the user on
# the line before); "client unexpectedly closed TCP connection" x40 (slot-allocator 31).
RABBIT_NODE = "rabbit@bw-mq-2"
RABBIT_USERS = {"order-worker": ("/orders", "10.42.5.17"), "slot-allocator": ("/slots", "10.42.8.40"),
                "mailer": ("/notify", "10.42.2.9"), "stock-sync": ("/stock", "10.42.6.30")}


def rabbit_log(rng):
    ev = []  # (t, level, erl_pid, [lines])
    pid_n = [9000]

    def erl():
        pid_n[0] += rng.randrange(3, 60)
        return f"<0.{pid_n[0]}.0>"

    def conn_tuple(user):
        _, ip = RABBIT_USERS[user]
        return f"{ip}:{rng.randrange(32768, 60999)} -> 10.42.9.2:5672"

    def add(t, level, p, lines):
        ev.append((t, level, p, lines))

    def lifecycle(t_open, user, close=None):
        p = erl()
        vhost, _ = RABBIT_USERS[user]
        ct = conn_tuple(user)
        add(t_open, "info", p, [f"accepting AMQP connection {p} ({ct})"])
        add(t_open + timedelta(microseconds=rng.randrange(900, 4000)), "info", p,
            [f"connection {p} ({ct}): user '{user}' authenticated and granted access to vhost '{vhost}'"])
        if close is None:
            return
        t_close, kind = close
        head = f"closing AMQP connection {p} ({ct}, vhost: '{vhost}', user: '{user}')"
        if kind == "normal":
            add(t_close, "info", p, [head])
        elif kind == "heartbeat":
            add(t_close, "error", p, [head + ":", "missed heartbeats from client, timeout: 60s"])
        else:
            add(t_close, "warning", p, [head + ":", "client unexpectedly closed TCP connection"])

    users = list(RABBIT_USERS)
    for _ in range(190):
        t = rtime(rng, "05:00:05", "08:58:00")
        lifecycle(t, rng.choices(users, [40, 25, 20, 15])[0],
                  (t + timedelta(seconds=rng.uniform(20, 900)), "normal") if rng.random() < 0.8 else None)
    hb = ["order-worker"] * 39 + ["slot-allocator"] * 18 + ["mailer"] * 11
    for u in hb:
        t = rtime(rng, "07:03:00", "07:30:00")
        lifecycle(t - timedelta(seconds=rng.uniform(70, 400)), u, (t, "heartbeat"))
    unexpected = ["slot-allocator"] * 31 + ["order-worker"] * 9
    for u in unexpected:
        t = rtime(rng, "05:06:00", "08:58:00")
        lifecycle(t - timedelta(seconds=rng.uniform(5, 300)), u, (t, "unexpected"))
    alarm = "<0.482.0>"
    add(at("07:01:58.412339"), "info", alarm,
        ["vm_memory_high_watermark set. Memory used:3436289024 allowed:3435973836"])
    add(at("07:01:58.412391"), "warning", alarm, [f"memory resource limit alarm set on node '{RABBIT_NODE}'."])
    add(at("07:01:58.412511"), "warning", alarm, [
        "", "**********************************************************",
        "*** Publishers will be blocked until this alarm clears ***",
        "**********************************************************", ""])
    add(at("07:19:43.207115"), "info", alarm,
        ["vm_memory_high_watermark clear. Memory used:3221105664 allowed:3435973836"])
    add(at("07:19:43.207170"), "warning", alarm, [f"memory resource limit alarm cleared on node '{RABBIT_NODE}'"])
    add(at("07:19:43.207301"), "warning", alarm, ["memory resource limit alarm cleared across the cluster"])
    for _ in range(24):
        t = rtime(rng, "05:00:05", "08:58:00")
        q = rng.choice(["orders.placed", "slot.holds", "email.outbound", "stock.adjust"])
        add(t, "info", erl(), [f"queue '{q}' in vhost '{rng.choice(['/orders', '/slots', '/notify', '/stock'])}': "
                               f"segment file {rng.randrange(1, 400)} rotated"])
    ev.sort(key=lambda e: e[0])
    out = []
    for t, level, p, lines in ev:
        ts = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond:06d}+00:00"
        for ln in lines:
            out.append(f"{ts} [{level}] {p} {ln}".rstrip(" ") if ln else f"{ts} [{level}] {p} ")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# kafka-server.log: a Kafka 3.6 broker's server.log (log4j, broker 2).
# Planted: "Shrinking ISR" x71 (orders.placed 38, slot.reservations 21, basket.events 12);
# "Deleting segment files" x86 (retention); fetch errors with stack traces; rebalances.
def kafka_log(rng):
    ev = []  # (t, level, msg, trace)

    def add(t, level, msg, trace=()):
        ev.append((t, level, msg, list(trace)))

    topics = {"orders.placed": 12, "slot.reservations": 12, "basket.events": 24, "stock.adjustments": 6,
              "email.outbound": 6, "__consumer_offsets": 50}
    hw = {}

    def part(topic):
        return f"{topic}-{rng.randrange(topics[topic])}"

    def offsets(p):
        hw[p] = hw.get(p, rng.randrange(50000, 900000)) + rng.randrange(10, 900)
        return hw[p]

    shrink = ["orders.placed"] * 38 + ["slot.reservations"] * 21 + ["basket.events"] * 12
    for topic in shrink:
        t = rtime(rng, "07:04:00", "07:40:00")
        p = part(topic)
        o = offsets(p)
        add(t, "INFO", f"[Partition {p} broker=2] Shrinking ISR from 2,3,1 to 2,1. Leader: (highWatermark: {o - 7}, "
                       f"endOffset: {o}). Out of sync replicas: (brokerId: 3, endOffset: {o - rng.randrange(9, 400)}, "
                       f"lastCaughtUpTimeMs: {int(epoch(t) * 1000) - 30000 - rng.randrange(0, 900)}).",
            ())
        t2 = t + timedelta(seconds=rng.uniform(600, 4000))
        if t2 < at("08:59:30"):
            add(t2, "INFO", f"[Partition {p} broker=2] ISR updated to 2,1,3 and version updated to {rng.randrange(40, 90)}")
    for _ in range(86):
        topic = rng.choice(["basket.events", "stock.adjustments", "email.outbound", "orders.placed"])
        p = part(topic)
        base = rng.randrange(10 ** 5, 10 ** 7)
        lm = int(epoch(DAY) * 1000) - 7 * 86400000 - rng.randrange(0, 86400000)
        add(rtime(rng, "05:00:10", "08:59:50"), "INFO",
            f"[LocalLog partition={p}, dir=/var/lib/kafka/data] Deleting segment files LogSegment(baseOffset={base}, "
            f"size={rng.randrange(10 ** 8, 1073741824)}, lastModifiedTime={lm}, largestRecordTimestamp=Some({lm - 13}))")
    for _ in range(42):
        t = rtime(rng, "07:04:00", "07:40:00")
        add(t, "WARN", "[ReplicaFetcher replicaId=2, leaderId=3, fetcherId=0] Error in response for fetch request "
                       f"(type=FetchRequest, replicaId=2, maxWait=500, minBytes=1, maxBytes=10485760, fetchData={{}}, "
                       f"isolationLevel=READ_UNCOMMITTED, removed=, replaced=, metadata=(sessionId={rng.randrange(10 ** 8, 10 ** 9)}, "
                       f"epoch={rng.randrange(1, 9000)}), rackId=)",
            ["java.io.IOException: Connection to 3 was disconnected before the response was read",
             "\tat org.apache.kafka.clients.NetworkClientUtils.sendAndReceive(NetworkClientUtils.java:99)",
             "\tat kafka.server.BrokerBlockingSender.sendRequest(BrokerBlockingSender.scala:113)",
             "\tat kafka.server.RemoteLeaderEndPoint.fetch(RemoteLeaderEndPoint.scala:79)",
             "\tat kafka.server.AbstractFetcherThread.processFetchRequest(AbstractFetcherThread.scala:316)",
             "\tat kafka.server.AbstractFetcherThread.doWork(AbstractFetcherThread.scala:135)",
             "\tat org.apache.kafka.server.util.ShutdownableThread.run(ShutdownableThread.java:131)"])
    gen = 41
    for _ in range(33):
        t = rtime(rng, "05:00:10", "08:59:00")
        grp = rng.choice(["slot-allocator", "order-worker", "mailer", "slot-allocator"])
        add(t, "INFO", f"[GroupCoordinator 2]: Preparing to rebalance group {grp} in state PreparingRebalance with "
                       f"old generation {gen} (__consumer_offsets-17) (reason: Removing member {grp}-{rng.randrange(1, 6)}-"
                       f"{uuid(rng)} on heartbeat expiration)")
        add(t + timedelta(seconds=rng.uniform(3, 40)), "INFO",
            f"[GroupCoordinator 2]: Stabilized group {grp} generation {gen + 1} (__consumer_offsets-17) with "
            f"{rng.randrange(2, 6)} members")
        gen += 1
    for _ in range(24):
        t = rtime(rng, "05:00:10", "08:59:50")
        add(t, "INFO", f"[GroupMetadataManager brokerId=2] Finished loading offsets and group metadata from "
                       f"__consumer_offsets-{rng.randrange(50)} in {rng.randrange(2, 90)} milliseconds for epoch "
                       f"{rng.randrange(10, 40)}, of which {rng.randrange(0, 5)} milliseconds was spent in the scheduler.")
    for m in range(5 * 60, 9 * 60, 10):
        t = DAY + timedelta(minutes=m, seconds=rng.uniform(1, 5))
        add(t, "INFO", f"[GroupMetadataManager brokerId=2] Removed {rng.randrange(0, 4)} expired offsets in "
                       f"{rng.randrange(0, 3)} milliseconds.")
    for _ in range(420):
        topic = rng.choice(list(topics))
        p = part(topic)
        o = offsets(p)
        t = rtime(rng, "05:00:10", "08:59:50")
        if rng.random() < 0.6:
            add(t, "INFO", f"[ProducerStateManager partition={p}] Wrote producer snapshot at offset {o} with "
                           f"{rng.randrange(0, 12)} producer ids in {rng.randrange(0, 9)} ms.")
        else:
            add(t, "INFO", f"[LocalLog partition={p}, dir=/var/lib/kafka/data] Rolled new log segment at offset {o} "
                           f"in {rng.randrange(0, 6)} ms.")
    ev.sort(key=lambda e: e[0])
    logger = {
        "Shrinking": "kafka.cluster.Partition", "ISR updat": "kafka.cluster.Partition",
        "[LocalLog": "kafka.log.LocalLog$", "[ReplicaF": "kafka.server.ReplicaFetcherThread",
        "[GroupCoo": "kafka.coordinator.group.GroupCoordinator", "[GroupMet": "kafka.coordinator.group.GroupMetadataManager",
        "[Producer": "org.apache.kafka.storage.internals.log.ProducerStateManager",
    }
    out = []
    for t, level, msg, trace in ev:
        key = "Shrinking" if "Shrinking ISR" in msg else "ISR updat" if "ISR updated" in msg else msg[:9]
        if msg.startswith("[LocalLog") and "Rolled" in msg:
            cls = "kafka.log.LocalLog"
        else:
            cls = logger[key]
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        out.append(f"[{ts}] {level} {msg} ({cls})")
        out += trace
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# order-worker.ndjson: Node.js pino NDJSON (numeric levels: 30 info, 40 warn, 50 error,
# 60 fatal; `time` in epoch ms), 2,100 lines.
# Planted: level 50 x229 (TimeoutError 152 in 07:02-07:19, peak minute 07:09 x18;
# SlotUnavailableError 49; ValidationError 28) over 181 distinct orderIds, LDN-07 the store
# with the most; level 60 x3 (no order, no store); LDN-07's first error at 05:41:26.318.
TIMEOUT_PER_MIN = [3, 5, 7, 9, 11, 12, 14, 18, 11, 10, 9, 8, 8, 7, 6, 6, 5, 3]  # 07:02 .. 07:19


def order_worker(rng):
    ev = []
    pids = [4121, 5307, 5544, 5891]
    host = "order-worker-6d8f9c-x7k2p"
    fatal_times = [at("07:11:52.604"), at("07:15:07.120"), at("07:18:33.871")]
    used = set()

    def new_order():
        while True:
            o = f"BW-{rng.randrange(7000000, 7999999)}"
            if o not in used:
                used.add(o)
                return o

    def pid_at(t):
        return pids[sum(1 for f in fatal_times if t > f)]

    def add(t, level, msg, **fields):
        rec = {"level": level, "time": int(epoch(t) * 1000), "pid": pid_at(t), "hostname": host,
               "name": "order-worker", "reqId": f"req-{hexid(rng, 6)}"}
        rec.update(fields)
        rec["msg"] = msg
        ev.append((t, rec))

    def stack(etype, message, frames):
        return f"{etype}: {message}\n" + "\n".join(f"    at {f}" for f in frames)

    store_w = [34, 22, 17, 13, 11, 9]
    # TimeoutError: 104 orders, 64 failing once, 32 twice, 8 three times.
    mult = [1] * 64 + [2] * 32 + [3] * 8
    rng.shuffle(mult)
    slots = []
    for i, k in enumerate(TIMEOUT_PER_MIN):
        minute = f"07:{2 + i:02d}"
        slots += [minute] * k
    rng.shuffle(slots)
    k = 0
    for m in mult:
        order, store = new_order(), rng.choices(STORES, store_w)[0]
        times = sorted(in_minute(rng, slots[k + j]) for j in range(m))
        k += m
        for t in times:
            msg_ = "publish to exchange 'orders.events' timed out after 5000ms"
            add(t, 50, "order publish failed", orderId=order, store=store, attempt=times.index(t) + 1,
                err={"type": "TimeoutError", "message": msg_,
                     "stack": stack("TimeoutError", msg_, ["Timeout._onTimeout (/app/node_modules/@bw/amqp-confirm/lib/confirm.js:88:19)",
                                                            "listOnTimeout (node:internal/timers:573:17)",
                                                            "process.processTimers (node:internal/timers:514:7)"])})
    for _ in range(49):
        store = rng.choices(STORES, store_w)[0]
        t = rtime(rng, "07:00:10", "07:40:00") if rng.random() < 0.8 else rtime(rng, "07:40:00", "08:59:00")
        slot = f"S-20280122-{rng.choice(['0800', '1000', '1200', '1600', '1800'])}-{store.replace('-', '')}"
        msg_ = f"slot {slot} no longer available"
        add(t, 50, "order rejected", orderId=new_order(), store=store,
            err={"type": "SlotUnavailableError", "message": msg_,
                 "stack": stack("SlotUnavailableError", msg_, ["SlotClient.confirm (/app/dist/slots/client.js:142:13)",
                                                               "async OrderService.place (/app/dist/orders/service.js:77:5)"])})
    add(at("05:41:26.318"), 50, "order rejected", orderId=new_order(), store="LDN-07",
        err={"type": "ValidationError", "message": "basket total below minimum order value (GBP 40.00)",
             "stack": stack("ValidationError", "basket total below minimum order value (GBP 40.00)",
                            ["OrderService.validate (/app/dist/orders/service.js:41:11)",
                             "OrderService.place (/app/dist/orders/service.js:70:10)"])})
    for _ in range(27):
        store = rng.choices(STORES, store_w)[0]
        t = rtime(rng, "05:50:00", "08:59:00")
        msg_ = rng.choice(["basket total below minimum order value (GBP 40.00)", "delivery address outside store zone",
                           "substitution preference missing for restricted item"])
        add(t, 50, "order rejected", orderId=new_order(), store=store,
            err={"type": "ValidationError", "message": msg_,
                 "stack": stack("ValidationError", msg_, ["OrderService.validate (/app/dist/orders/service.js:41:11)",
                                                          "OrderService.place (/app/dist/orders/service.js:70:10)"])})
    for t in fatal_times:
        msg_ = "Channel closed by server: 320 (CONNECTION-FORCED) with message \"CONNECTION_FORCED - broker forced connection closure\""
        add(t, 60, "uncaughtException",
            err={"type": "Error", "message": msg_,
                 "stack": stack("Error", msg_, ["ConfirmChannel.C.accept (/app/node_modules/amqplib/lib/channel.js:421:17)",
                                                "Connection.mainAccept [as accept] (/app/node_modules/amqplib/lib/connection.js:64:33)"])})
        add(t + timedelta(seconds=rng.uniform(4, 9)), 30, "order-worker started", version="3.14.2", node="v20.11.0")
    for _ in range(312):
        t = rtime(rng, "05:00:05", "08:59:55")
        if at("07:02:00") <= t < at("07:20:00") and rng.random() < 0.7:
            add(t, 40, "publish slow, retrying", orderId=f"BW-{rng.randrange(7000000, 7999999)}",
                store=rng.choice(STORES), attempt=rng.randrange(1, 3), waitedMs=rng.randrange(1200, 4999))
        else:
            add(t, 40, rng.choice(["slot hold expires in under 60s", "payment authorisation slow"]),
                orderId=f"BW-{rng.randrange(7000000, 7999999)}", store=rng.choice(STORES))
    while len(ev) < 1900:
        t = rtime(rng, "05:00:05", "08:59:55")
        add(t, 30, "order placed", orderId=f"BW-{rng.randrange(7000000, 7999999)}", store=rng.choice(STORES),
            items=rng.randrange(3, 60), totalPence=rng.randrange(4000, 21000), durationMs=rng.randrange(40, 900))
    ev.sort(key=lambda e: e[0])
    return "".join(json.dumps(rec, separators=(",", ":")) + "\n" for _, rec in ev)


# ---------------------------------------------------------------------------------------
# maillog: Postfix on bw-mx-1 (RHEL-style /var/log/maillog, syslog timestamps).
# Planted: 65 messages deferred, every retry logged again (status=deferred lines: owlpost.example
# by far the most, its MX timing out until 07:45:30); status=bounced x37 (550 5.1.1), each
# with its non-delivery notice.
MAIL_DOMAINS = ["owlpost.example", "fernmail.example", "bluebell.example.net", "tinmail.example", "quaymail.example",
                "hedgerow.example.org", "pebble.example.com"]


def maillog(rng):
    ev = []
    qids = set()
    mx = {"owlpost.example": ("mx1.owlpost.example", "198.51.100.25"),
          "fernmail.example": ("mx.fernmail.example", "203.0.113.61"),
          "bluebell.example.net": ("mail.bluebell.example.net", "192.0.2.40"),
          "tinmail.example": ("mx.tinmail.example", "198.51.100.140"),
          "quaymail.example": ("in1.quaymail.example", "203.0.113.7"),
          "hedgerow.example.org": ("mx.hedgerow.example.org", "192.0.2.201"),
          "pebble.example.com": ("mx00.pebble.example.com", "198.51.100.9")}
    first = ["sam", "alex", "priya", "tom", "nia", "omar", "ellie", "josh", "mei", "ruth", "kai", "ben", "lola", "dev"]

    def qid():
        while True:
            q = "".join(rng.choice("0123456789ABCDEF") for _ in range(10))
            if q not in qids:
                qids.add(q)
                return q

    def pid():
        return rng.randrange(20000, 40000)

    def add(t, prog, msg):
        ev.append((t, prog, msg))

    def submit(t, q, sender="orders@brambleway.example", local=False):
        if local:
            add(t, "postfix/cleanup", f"{q}: message-id=<{q.lower()}@bw-mx-1.brambleway.internal>")
            add(t + timedelta(milliseconds=4), "postfix/qmgr", f"{q}: from=<>, size={rng.randrange(3000, 9000)}, nrcpt=1 (queue active)")
            return
        sp = pid()
        add(t, f"postfix/smtpd[{sp}]", "connect from order-worker.brambleway.internal[10.42.5.17]")
        add(t + timedelta(milliseconds=9), f"postfix/smtpd[{sp}]", f"{q}: client=order-worker.brambleway.internal[10.42.5.17]")
        add(t + timedelta(milliseconds=15), "postfix/cleanup", f"{q}: message-id=<{hexid(rng, 16)}@brambleway.example>")
        add(t + timedelta(milliseconds=19), "postfix/qmgr", f"{q}: from=<{sender}>, size={rng.randrange(9000, 60000)}, nrcpt=1 (queue active)")
        add(t + timedelta(milliseconds=23), f"postfix/smtpd[{sp}]",
            "disconnect from order-worker.brambleway.internal[10.42.5.17] ehlo=1 mail=1 rcpt=1 data=1 quit=1 commands=5")

    def rcpt(domain):
        return f"{rng.choice(first)}.{rng.choice(first)}{rng.randrange(1, 99)}@{domain}"

    def deliver(t, q, to, domain, delay, status):
        host, ip = mx[domain]
        d = f"{delay:.1f}" if delay < 10 else str(int(delay))
        a = rng.uniform(0.01, 0.2)
        c = rng.uniform(0.01, 0.5)
        tail = {"sent": f"dsn=2.0.0, status=sent (250 2.0.0 OK {rng.randrange(10 ** 9, 10 ** 10)} - gsmtp)",
                "bounced": f"dsn=5.1.1, status=bounced (host {host}[{ip}] said: 550 5.1.1 <{to}>: Recipient address "
                           f"rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))"}[status]
        add(t, f"postfix/smtp[{pid()}]", f"{q}: to=<{to}>, relay={host}[{ip}]:25, delay={d}, "
                                         f"delays={a:.2f}/0.01/{c:.2f}/{max(0.0, delay - a - c):.2f}, {tail}")

    def removed(t, q):
        add(t, "postfix/qmgr", f"{q}: removed")

    dom_w = [18, 14, 12, 10, 8, 7, 6]
    # Deferred: owlpost's MX times out until 07:45:30 and fernmail greylists until 07:31;
    # qmgr retries after 5, 10, 20, 40 ... minutes (at most 4000 s), each retry logged.
    recover = {"owlpost.example": at("07:45:30"), "fernmail.example": at("07:31:00")}
    deferred = ["owlpost.example"] * 34 + ["fernmail.example"] * 17 + \
               ["bluebell.example.net", "tinmail.example", "quaymail.example", "hedgerow.example.org"] * 3 + \
               ["pebble.example.com"] * 2
    rng.shuffle(deferred)
    for i, domain in enumerate(deferred):
        if domain in recover:
            t = rtime(rng, "07:01:00", "07:44:00" if domain == "owlpost.example" else "07:29:00")
        else:
            t = rtime(rng, "05:10:00", "08:20:00", gaps=[("07:00:00", "07:50:00")])
        q = qid()
        submit(t, q)
        to = rcpt(domain)
        host, ip = mx[domain]
        ok_at = recover.get(domain, t + timedelta(seconds=60))
        attempt, backoff, first_try = t + timedelta(seconds=rng.uniform(0.3, 2)), 300, True
        while attempt < at("08:59:00"):
            if not first_try:
                add(attempt - timedelta(milliseconds=3), "postfix/qmgr",
                    f"{q}: from=<orders@brambleway.example>, size={rng.randrange(9000, 60000)}, nrcpt=1 (queue active)")
            delay = (attempt - t).total_seconds()
            if attempt >= ok_at:
                deliver(attempt + timedelta(seconds=rng.uniform(0.2, 2)), q, to, domain, delay + 1.1, "sent")
                removed(attempt + timedelta(seconds=2.5), q)
                break
            if domain == "owlpost.example":
                d = delay + 30.2
                add(attempt + timedelta(seconds=30.2), f"postfix/smtp[{pid()}]",
                    f"{q}: to=<{to}>, relay=none, delay={d:.0f}, delays={max(0.0, delay):.0f}/0.01/30/0, dsn=4.4.1, "
                    f"status=deferred (connect to {host}[{ip}]:25: Connection timed out)")
            else:
                d = delay + 0.6
                add(attempt + timedelta(seconds=0.6), f"postfix/smtp[{pid()}]",
                    f"{q}: to=<{to}>, relay={host}[{ip}]:25, delay={d:.1f}, delays={max(0.0, delay):.1f}/0.01/0.3/0.29, "
                    f"dsn=4.7.0, status=deferred (host {host}[{ip}] said: 421 4.7.0 Try again later, closing "
                    f"connection. (in reply to RCPT TO command))")
            attempt += timedelta(seconds=backoff + rng.uniform(0, 40))
            backoff = min(backoff * 2, 4000)
            first_try = False
    for _ in range(37):
        t = rtime(rng, "05:05:00", "08:50:00")
        q = qid()
        submit(t, q)
        domain = rng.choices(MAIL_DOMAINS, dom_w)[0]
        to = rcpt(domain)
        td = t + timedelta(seconds=rng.uniform(0.3, 2))
        deliver(td, q, to, domain, (td - t).total_seconds(), "bounced")
        nq = qid()
        add(td + timedelta(milliseconds=20), f"postfix/bounce[{pid()}]", f"{q}: sender non-delivery notification: {nq}")
        submit(td + timedelta(milliseconds=25), nq, local=True)
        removed(td + timedelta(milliseconds=30), q)
        add(td + timedelta(milliseconds=260), f"postfix/smtp[{pid()}]",
            f"{nq}: to=<orders@brambleway.example>, relay=mailhub.brambleway.internal[10.42.2.5]:25, delay=0.23, "
            f"delays=0/0.01/0.02/0.2, dsn=2.0.0, status=sent (250 2.0.0 Ok: queued as {hexid(rng, 10).upper()})")
        removed(td + timedelta(milliseconds=270), nq)
    while len(ev) < 2330:
        t = rtime(rng, "05:00:10", "08:58:00", gaps=[("07:01:00", "07:44:00")] if rng.random() < 0.5 else ())
        q = qid()
        submit(t, q)
        domain = rng.choices(MAIL_DOMAINS, dom_w)[0]
        if domain == "owlpost.example" and at("07:00:00") <= t < at("07:46:00"):
            domain = "tinmail.example"
        td = t + timedelta(seconds=rng.uniform(0.3, 3))
        deliver(td, q, rcpt(domain), domain, (td - t).total_seconds(), "sent")
        removed(td + timedelta(milliseconds=4), q)
    ev.sort(key=lambda e: e[0])
    fixed = {"postfix/qmgr": "postfix/qmgr[1611]", "postfix/cleanup": "postfix/cleanup[30412]"}
    out = []
    for t, prog, msg in ev:
        prog = fixed.get(prog, prog)
        out.append(f"{t.strftime('%b %d %H:%M:%S')} bw-mx-1 {prog}: {msg}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# Docker json-file log of the slot-api container (Rust, `tracing` fmt lines inside).
# Planted: 64 panics ("panicked at", the note only after the first); "slot hold expired"
# peak minute 07:22 (x29); ERROR lines from the Cassandra driver.
SLOT_CONTAINER = "4e1b7c2d9a03f58e6b1c0d2a7f94e3b5c8d1a6f0e2b9c4d7a1f3e8b5c0d6a2f9-json.log"
HOLD_EXPIRED_PER_MIN = {"07:15": 6, "07:16": 9, "07:17": 12, "07:18": 15, "07:19": 18, "07:20": 21, "07:21": 24,
                        "07:22": 29, "07:23": 22, "07:24": 17, "07:25": 11, "07:26": 7}


def slot_api_docker(rng):
    ev = []  # (t, stream, text)

    def slot_id(store):
        return f"S-20280122-{rng.choice(['0800', '1000', '1200', '1400', '1600', '1800', '2000'])}-{store.replace('-', '')}"

    def line(t, level, target, msg):
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}Z"
        ev.append((t, "stdout", f"{ts} {level:>5} {target}: {msg}"))

    for minute, k in HOLD_EXPIRED_PER_MIN.items():
        for _ in range(k):
            s = rng.choice(STORES)
            line(in_minute(rng, minute), "WARN", "slot_api::holds",
                 f"slot hold expired slot_id={slot_id(s)} basket_id=bk_{hexid(rng, 8)} store={s} held_s=900")
    for _ in range(41):
        s = rng.choice(STORES)
        line(rtime(rng, "05:00:10", "07:14:50"), "WARN", "slot_api::holds",
             f"slot hold expired slot_id={slot_id(s)} basket_id=bk_{hexid(rng, 8)} store={s} held_s=900")
    for _ in range(38):
        s = rng.choice(STORES)
        line(rtime(rng, "07:27:05", "08:59:50"), "WARN", "slot_api::holds",
             f"slot hold expired slot_id={slot_id(s)} basket_id=bk_{hexid(rng, 8)} store={s} held_s=900")
    panics = sorted(rtime(rng, "07:06:00", "07:25:00") for _ in range(64))
    for i, t in enumerate(panics):
        f = rng.choice([("src/holds.rs", 214, 31), ("src/reserve.rs", 133, 58)])
        ev.append((t, "stderr", f"thread 'tokio-runtime-worker' panicked at {f[0]}:{f[1]}:{f[2]}:"))
        ev.append((t + timedelta(microseconds=40), "stderr",
                   "called `Result::unwrap()` on an `Err` value: Timeout(Elapsed(()))"))
        if i == 0:
            ev.append((t + timedelta(microseconds=75), "stderr",
                       "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"))
    for _ in range(133):
        s = rng.choice(STORES)
        line(rtime(rng, "07:05:00", "07:27:00"), "ERROR", "slot_api::db",
             f"cassandra query failed error=ReadTimeout {{ consistency: LocalQuorum, received: 1, block_for: 2, "
             f"data_present: false }} store={s}")
    while len(ev) < 1700:
        t = rtime(rng, "05:00:05", "08:59:55")
        s = rng.choice(STORES)
        if rng.random() < 0.55:
            line(t, "INFO", "slot_api::reserve",
                 f"slot reserved slot_id={slot_id(s)} basket_id=bk_{hexid(rng, 8)} store={s} "
                 f"latency_ms={rng.randrange(4, 220)}")
        elif rng.random() < 0.75:
            line(t, "INFO", "slot_api::search", f"slots searched postcode={rng.choice(['BR4', 'LS6', 'M14', 'BS7', 'G12'])} "
                                                f"results={rng.randrange(0, 40)} latency_ms={rng.randrange(3, 90)}")
        else:
            line(t, "DEBUG", "hyper::proto::h1::io", f"flushed {rng.randrange(100, 9000)} bytes")
    ev.sort(key=lambda e: e[0])
    out = []
    for t, stream, text in ev:
        tt = t + timedelta(microseconds=rng.randrange(15, 90))
        ts = tt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{tt.microsecond:06d}{rng.randrange(100, 999)}Z"
        out.append(json.dumps({"log": text + "\n", "stream": stream, "time": ts}, separators=(",", ":")))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# audit.log of the bastion (auditd raw format, epoch timestamps).
# Planted: USER_AUTH res=failed x612 (198.51.100.77 behind 288, 203.0.113.190 133 after
# 08:05, 19 others at most 18 each) over 47 distinct accounts; none in the 6 minutes around
# "30 minutes before the last record" (08:59:41.338).
AUDIT_END = "08:59:41.338"


def audit_log(rng):
    ev = []  # (t, type, body)
    serial = [48211]
    accts = ["root", "admin", "ubuntu", "oracle", "postgres", "test", "user", "git", "deploy", "ftpuser", "pi",
             "support", "guest", "jenkins", "hadoop", "ansible", "centos", "debian", "www-data", "mysql", "nagios",
             "minecraft", "steam", "es", "elastic", "kafka", "zabbix", "tomcat", "backup", "operator", "dev",
             "developer", "student", "ubnt", "vagrant", "docker", "gitlab", "sysadmin", "administrator", "testuser",
             "odoo", "redis", "sftp", "webadmin", "mail", "nginx", "grafana"]
    assert len(accts) == 47
    others = ip_pool(rng, 19, firsts=(45, 61, 91, 103, 118, 139, 157, 171, 180, 193, 218, 222))
    other_n = [18, 17, 16, 15, 14, 13, 12, 11, 10, 10, 9, 9, 8, 8, 7, 5, 4, 3, 2]
    assert sum(other_n) == 191
    attackers = ["198.51.100.77"] * 288 + ["203.0.113.190"] * 133 + [ip for ip, k in zip(others, other_n) for _ in range(k)]
    names = accts + [rng.choice(accts[:12]) for _ in range(len(attackers) - len(accts))]
    rng.shuffle(names)
    gap = [("08:26:41.338", "08:32:41.338")]

    def add(t, typ, body):
        ev.append((t, typ, body))

    for ip, acct in zip(attackers, names):
        if ip == "198.51.100.77":
            t = rtime(rng, "05:10:00", "07:40:00", gaps=gap)
        elif ip == "203.0.113.190":
            t = rtime(rng, "08:05:00", "08:59:30", gaps=gap)
        else:
            t = rtime(rng, "05:00:30", "08:59:30", gaps=gap)
        p = rng.randrange(100000, 200000)
        add(t - timedelta(milliseconds=rng.randrange(300, 900)), "CRYPTO_KEY_USER",
            f"pid={p} uid=0 auid=4294967295 ses=4294967295 subj=unconfined msg='op=destroy kind=server "
            f"fp=SHA256:{hexid(rng, 8)} direction=? spid={p} suid=0  exe=\"/usr/sbin/sshd\" hostname=? addr={ip} "
            f"terminal=? res=success'")
        add(t, "USER_AUTH", f"pid={p} uid=0 auid=4294967295 ses=4294967295 subj=unconfined msg='op=PAM:authentication "
                            f"grantors=? acct=\"{acct}\" exe=\"/usr/sbin/sshd\" hostname={ip} addr={ip} terminal=ssh res=failed'")
    ses = [310]
    ops = [("mkowalski", 1003, "10.9.0.14"), ("aokafor", 1007, "10.9.0.22"), ("jlindqvist", 1011, "10.9.0.31")]
    for _ in range(34):
        user, uid, ip = rng.choice(ops)
        t = rtime(rng, "05:00:30", "08:55:00")
        p = rng.randrange(100000, 200000)
        ses[0] += 1
        s = ses[0]
        base = f"pid={p} uid=0 auid=4294967295 ses=4294967295 subj=unconfined msg='"
        add(t, "USER_AUTH", base + f"op=pubkey acct=\"{user}\" exe=\"/usr/sbin/sshd\" hostname=? addr={ip} terminal=ssh res=success'")
        add(t + timedelta(milliseconds=2), "USER_ACCT", base + f"op=PAM:accounting grantors=pam_unix acct=\"{user}\" "
                                                               f"exe=\"/usr/sbin/sshd\" hostname={ip} addr={ip} terminal=ssh res=success'")
        add(t + timedelta(milliseconds=4), "CRED_ACQ", base + f"op=PAM:setcred grantors=pam_env,pam_unix acct=\"{user}\" "
                                                              f"exe=\"/usr/sbin/sshd\" hostname={ip} addr={ip} terminal=ssh res=success'")
        add(t + timedelta(milliseconds=9), "LOGIN", f"pid={p} uid=0 subj=unconfined old-auid=4294967295 auid={uid} "
                                                    f"tty=(none) old-ses=4294967295 ses={s} res=1")
        sb = f"pid={p} uid=0 auid={uid} ses={s} subj=unconfined msg='"
        add(t + timedelta(milliseconds=30), "USER_START", sb + f"op=PAM:session_open grantors=pam_unix acct=\"{user}\" "
                                                              f"exe=\"/usr/sbin/sshd\" hostname={ip} addr={ip} terminal=ssh res=success'")
        add(t + timedelta(milliseconds=41), "USER_LOGIN", sb + f"op=login id={uid} exe=\"/usr/sbin/sshd\" hostname={ip} "
                                                              f"addr={ip} terminal=/dev/pts/{rng.randrange(0, 5)} res=success'")
        end = t + timedelta(seconds=rng.uniform(60, 2400))
        if end < at("08:59:00"):
            add(end, "USER_END", sb + f"op=PAM:session_close grantors=pam_unix acct=\"{user}\" exe=\"/usr/sbin/sshd\" "
                                      f"hostname={ip} addr={ip} terminal=ssh res=success'")
            add(end + timedelta(milliseconds=3), "CRED_DISP", sb + f"op=PAM:setcred grantors=pam_unix acct=\"{user}\" "
                                                                  f"exe=\"/usr/sbin/sshd\" hostname={ip} addr={ip} terminal=ssh res=success'")
    # cron sessions every 5 minutes, the last one the file's last record.
    for m in range(5 * 60, 9 * 60, 5):
        t = DAY + timedelta(minutes=m, seconds=1, milliseconds=rng.randrange(0, 900))
        if m == 8 * 60 + 55:
            t = at("08:55:01.204")
        ses[0] += 1
        p = rng.randrange(200000, 300000)
        base = f"pid={p} uid=0 auid=0 ses={ses[0]} subj=unconfined msg='"
        add(t, "USER_ACCT", f"pid={p} uid=0 auid=4294967295 ses=4294967295 subj=unconfined msg='op=PAM:accounting "
                            f"grantors=pam_unix acct=\"root\" exe=\"/usr/sbin/cron\" hostname=? addr=? terminal=cron res=success'")
        add(t + timedelta(milliseconds=1), "USER_START", base + "op=PAM:session_open grantors=pam_unix acct=\"root\" "
                                                                "exe=\"/usr/sbin/cron\" hostname=? addr=? terminal=cron res=success'")
        e = t + timedelta(milliseconds=rng.randrange(60, 900))
        if m == 8 * 60 + 55:
            e = at(AUDIT_END) - timedelta(milliseconds=2)
        add(e, "CRED_DISP", base + "op=PAM:setcred grantors=pam_unix acct=\"root\" exe=\"/usr/sbin/cron\" "
                                  "hostname=? addr=? terminal=cron res=success'")
        add(e + timedelta(milliseconds=2), "USER_END", base + "op=PAM:session_close grantors=pam_unix acct=\"root\" "
                                                              "exe=\"/usr/sbin/cron\" hostname=? addr=? terminal=cron res=success'")
    ev.sort(key=lambda e: e[0])
    out = []
    for t, typ, body in ev:
        serial[0] += 1
        ts = f"{(t - EPOCH) // timedelta(milliseconds=1) / 1000:.3f}"
        out.append(f"type={typ} msg=audit({ts}:{serial[0]}): {body}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# bw-db-3-journal.txt: `journalctl -o short-precise` of the Cassandra node bw-db-3.
# Planted: 67 OOM kills (java 63: Cassandra crash-looping from 07:08:47.318877, restarted
# by systemd 63 times, a java kill the last one; python3 4, a cron snapshot script).
def db3_journal(rng):
    ev = []  # (t, ident, msg)

    def add(t, ident, msg):
        ev.append((t, ident, msg))

    t = at("07:08:47.311204")
    java_pid = 2214
    py_slots = {11, 26, 38, 49}
    for i in range(63):
        if i:
            t = t + timedelta(seconds=rng.uniform(74, 88))
        k = t
        add(k, "kernel", "java invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0")
        add(k + timedelta(microseconds=61), "kernel",
            f"CPU: {rng.randrange(0, 8)} PID: {java_pid} Comm: java Not tainted 6.1.0-17-amd64 #1  Debian 6.1.69-1")
        add(k + timedelta(microseconds=4002), "kernel", "Mem-Info:")
        add(k + timedelta(microseconds=4090), "kernel",
            f"active_anon:{rng.randrange(3900000, 4000000)} inactive_anon:{rng.randrange(9000, 14000)} isolated_anon:0")
        add(k + timedelta(microseconds=7300), "kernel",
            f"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,"
            f"task_memcg=/system.slice/cassandra.service,task=java,pid={java_pid},uid=112")
        kt = k + timedelta(microseconds=7673)
        if i == 0:
            kt = at("07:08:47.318877")
        add(kt, "kernel", f"Out of memory: Killed process {java_pid} (java) total-vm:{rng.randrange(23000000, 25000000)}kB, "
                          f"anon-rss:{rng.randrange(15500000, 15900000)}kB, file-rss:0kB, shmem-rss:0kB, UID:112 "
                          f"pgtables:{rng.randrange(30000, 34000)}kB oom_score_adj:0")
        add(kt + timedelta(milliseconds=rng.randrange(180, 400)), "kernel",
            f"oom_reaper: reaped process {java_pid} (java), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB")
        s = kt + timedelta(milliseconds=rng.randrange(420, 700))
        add(s, "systemd[1]", "cassandra.service: A process of this unit has been killed by the OOM killer.")
        add(s + timedelta(microseconds=90), "systemd[1]", "cassandra.service: Main process exited, code=killed, status=9/KILL")
        add(s + timedelta(microseconds=410), "systemd[1]", "cassandra.service: Failed with result 'oom-kill'.")
        add(s + timedelta(microseconds=600), "systemd[1]",
            f"cassandra.service: Consumed {rng.randrange(1, 3)}min {rng.uniform(0, 59):.3f}s CPU time.")
        r = s + timedelta(seconds=10, microseconds=rng.randrange(100, 900))
        add(r, "systemd[1]", f"cassandra.service: Scheduled restart job, restart counter is at {i + 1}.")
        add(r + timedelta(microseconds=300), "systemd[1]", "Stopped cassandra.service - Apache Cassandra.")
        add(r + timedelta(microseconds=5200), "systemd[1]", "Started cassandra.service - Apache Cassandra.")
        java_pid += rng.randrange(40, 400)
        if i in py_slots:
            pt = r + timedelta(seconds=rng.uniform(20, 40))
            pp = rng.randrange(90000, 99999)
            add(pt, "kernel", "java invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0")
            add(pt + timedelta(microseconds=5100), "kernel",
                f"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,"
                f"task_memcg=/user.slice,task=python3,pid={pp},uid=0")
            add(pt + timedelta(microseconds=5400), "kernel",
                f"Out of memory: Killed process {pp} (python3) total-vm:{rng.randrange(2000000, 3000000)}kB, "
                f"anon-rss:{rng.randrange(1500000, 2100000)}kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4110kB "
                f"oom_score_adj:0")
            add(pt + timedelta(milliseconds=120), "kernel",
                f"oom_reaper: reaped process {pp} (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB")
    for m in range(5 * 60, 9 * 60, 10):
        tt = DAY + timedelta(minutes=m, seconds=1, microseconds=rng.randrange(0, 900000))
        p = rng.randrange(30000, 90000)
        add(tt, f"CRON[{p}]", "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)")
        add(tt + timedelta(microseconds=2100), f"CRON[{p + 1}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
        add(tt + timedelta(milliseconds=31), f"CRON[{p}]", "pam_unix(cron:session): session closed for user root")
    for h in (5, 6, 7, 8):
        tt = DAY + timedelta(hours=h, minutes=17, seconds=1, microseconds=rng.randrange(0, 900000))
        p = rng.randrange(30000, 90000)
        add(tt, f"CRON[{p}]", "(root) CMD (/usr/local/bin/cass-snap.py --keyspace slots --upload s3://bw-db-snapshots)")
    for _ in range(40):
        tt = rtime(rng, "05:00:05", "08:59:55")
        add(tt, "chronyd[712]", f"Selected source 10.42.0.{rng.choice([2, 3])} (ntp.brambleway.internal)" if rng.random() < 0.3
            else f"System clock wrong by {rng.uniform(-0.0009, 0.0009):.6f} seconds")
    for m in range(5 * 60, 9 * 60, 15):
        tt = DAY + timedelta(minutes=m, seconds=rng.uniform(0, 2))
        add(tt, "systemd[1]", "Starting sysstat-collect.service - system activity accounting tool...")
        add(tt + timedelta(milliseconds=40), "systemd[1]", "sysstat-collect.service: Deactivated successfully.")
        add(tt + timedelta(milliseconds=41), "systemd[1]", "Finished sysstat-collect.service - system activity accounting tool.")
    ev.sort(key=lambda e: e[0])
    out = []
    for tt, ident, msg in ev:
        out.append(f"{tt.strftime('%b %d %H:%M:%S')}.{tt.microsecond:06d} bw-db-3 {ident}: {msg}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# squid-access.log: Squid native access log of the egress proxy (epoch.ms elapsed client
# code/status bytes method URL user hierarchy/peer type).
# Planted: TCP_DENIED/403 x214 (10.42.12.9 97 - all its requests, xmr-eu1.poolhub.example
# 61 of them; 10.42.3.51 46; 10.42.5.17 29; 8 others at most 9); api.payrail.example:443
# 380 tunnels (3 aborted after 60 s) with a mean elapsed of exactly PAYRAIL_MEAN ms.
PAYRAIL = "api.payrail.example:443"
PAYRAIL_MEAN = 2911


def squid_access(rng):
    ev = []  # (t, elapsed, client, code, bytes, method, url, hier, ctype)

    def add(t, elapsed, client, code, size, method, url, hier, ctype="-"):
        ev.append((t, elapsed, client, code, size, method, url, hier, ctype))

    denied = ([("10.42.12.9", "xmr-eu1.poolhub.example:443")] * 61 + [("10.42.12.9", "paste.example:443")] * 22
              + [("10.42.12.9", "raw.codehost.example:443")] * 14)
    denied += [("10.42.3.51", rng.choice(["api.telemetry-sink.example:443", "updates.vendorx.example:443"])) for _ in range(46)]
    denied += [("10.42.5.17", rng.choice(["hooks.chatops.example:443", "api.telemetry-sink.example:443"])) for _ in range(29)]
    small = [9, 8, 7, 5, 5, 4, 2, 2]
    for i, k in enumerate(small):
        ip = f"10.42.{rng.choice([2, 4, 6, 8, 11])}.{20 + 7 * i}"
        for _ in range(k):
            denied.append((ip, rng.choice(["paste.example:443", "api.telemetry-sink.example:443", "ifconfig.example:443"])))
    for client, dest in denied:
        t = rtime(rng, "06:20:00", "08:40:00") if client == "10.42.12.9" else rtime(rng, "05:00:10", "08:59:50")
        add(t, rng.randrange(0, 3), client, "TCP_DENIED/403", 3912 + rng.randrange(0, 40), "CONNECT", dest, "HIER_NONE/-",
            "text/html")
    # payrail: 380 tunnels, mean elapsed exactly PAYRAIL_MEAN ms.
    clients_pay = ["10.42.9.21", "10.42.9.22"]
    el = []
    for i in range(379):
        if i < 70:
            el.append(rng.randrange(3500, 10500) if i % 25 else 60000 + rng.randrange(0, 12))
        else:
            el.append(rng.randrange(350, 2600))
    target = 380 * PAYRAIL_MEAN
    last = target - sum(el)
    while not 350 <= last <= 2600:
        j = rng.randrange(70, 379)
        step = 1 if last > 2600 else -1
        if 350 <= el[j] + step <= 2600:
            el[j] += step
            last -= step
    el.append(last)
    assert sum(el) == target
    for i, e in enumerate(el):
        t = rtime(rng, "07:03:00", "07:25:00") if i < 70 else rtime(rng, "05:00:10", "08:59:50", gaps=[("07:03:00", "07:25:00")])
        if e >= 60000:
            add(t, e, rng.choice(clients_pay), "TCP_MISS_ABORTED/000", 0, "CONNECT", PAYRAIL, "HIER_DIRECT/203.0.113.40")
        else:
            add(t, e, rng.choice(clients_pay), "TCP_TUNNEL/200", rng.randrange(3000, 19000), "CONNECT", PAYRAIL,
                "HIER_DIRECT/203.0.113.40")
    others = [("geo.postcodes.example:443", "HIER_DIRECT/198.51.100.81", (40, 400)),
              ("sms.textbridge.example:443", "HIER_DIRECT/192.0.2.150", (120, 900)),
              ("objects.s3store.example:443", "HIER_DIRECT/203.0.113.90", (300, 14000)),
              ("registry.npmjs.org:443", "HIER_DIRECT/104.16.2.35", (80, 1600)),
              ("hooks.chatops.example:443", "HIER_DIRECT/198.51.100.200", (90, 700))]
    int_clients = [f"10.42.{a}.{b}" for a in (2, 4, 5, 6, 8) for b in (9, 17, 30, 40, 41)]
    while len(ev) < 2400:
        t = rtime(rng, "05:00:10", "08:59:50")
        if rng.random() < 0.1:
            path = rng.choice(["debian/dists/bookworm/InRelease", "debian-security/dists/bookworm-security/InRelease",
                               "debian/pool/main/c/curl/curl_7.88.1-10+deb12u5_amd64.deb"])
            hit = rng.random() < 0.4
            add(t, rng.randrange(1, 40) if hit else rng.randrange(60, 900), rng.choice(int_clients),
                "TCP_MEM_HIT/200" if hit else "TCP_MISS/200", rng.randrange(500, 400000), "GET",
                f"http://deb.debian.org/{path}", "HIER_NONE/-" if hit else "HIER_DIRECT/151.101.2.132",
                "application/octet-stream")
            continue
        dest, hier, (lo, hi) = rng.choice(others)
        add(t, rng.randrange(lo, hi), rng.choice(int_clients), "TCP_TUNNEL/200", rng.randrange(1000, 300000), "CONNECT",
            dest, hier)
    ev.sort(key=lambda e: e[0])
    out = []
    for t, e, c, code, size, method, url, hier, ctype in ev:
        ts = f"{(t - EPOCH) // timedelta(milliseconds=1) / 1000:.3f}"
        out.append(f"{ts} {e:6d} {c} {code} {size} {method} {url} - {hier} {ctype}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# cassandra-system.log: Cassandra 4.1 system.log of bw-db-1 (`%-5level [%thread] %date
# %F:%L - %msg`, stack traces).
# Planted: GC pauses over 1 s x76 (all WARN; none in 900-1100 ms), the longest 11834 ms,
# the first over 5 s at 07:06:12,448; "Writing large partition" with MiB and GiB sizes, the
# largest slots/slot_holds:LDN-07:2028-01-15 (1.184GiB); bw-db-3 DOWN x63.
def cassandra_system(rng):
    ev = []  # (t, level, thread, src, msg, trace)

    def add(t, level, thread, src, msg, trace=()):
        ev.append((t, level, thread, src, msg, list(trace)))

    def gc_line(t, ms, old):
        kind = "G1 Old Generation" if old else "G1 Young Generation"
        a = rng.randrange(6_000_000_000, 8_000_000_000)
        detail = (f"G1 Old Gen: {a} -> {a - rng.randrange(10 ** 8, 10 ** 9)}; " if old else
                  f"G1 Eden Space: {rng.randrange(10 ** 9, 2 * 10 ** 9)} -> 0; G1 Old Gen: {a} -> {a + rng.randrange(10 ** 6, 10 ** 8)}; "
                  f"G1 Survivor Space: {rng.randrange(10 ** 7, 10 ** 8)} -> {rng.randrange(10 ** 7, 10 ** 8)};")
        if ms >= 1000:
            add(t, "WARN", "Service Thread", "GCInspector.java:299", f"{kind} GC in {ms}ms.  {detail}")
        else:
            add(t, "INFO", "Service Thread", "GCInspector.java:294", f"{kind} GC in {ms}ms.  {detail}")

    long_gc = [(at("07:06:12.448"), 5712)] + [(at("07:14:37.912"), 11834)]
    for _ in range(11):
        long_gc.append((rtime(rng, "07:06:30", "07:40:00"), rng.randrange(5100, 9800)))
    for _ in range(48):
        long_gc.append((rtime(rng, "07:06:30", "08:40:00"), rng.randrange(1100, 4900)))
    for _ in range(15):
        long_gc.append((rtime(rng, "05:00:30", "07:05:30"), rng.randrange(1100, 4900)))
    for t, ms in long_gc:
        gc_line(t, ms, ms > 2500)
    for _ in range(260):
        gc_line(rtime(rng, "05:00:10", "08:59:50"), rng.randrange(201, 900), False)
    parts = [("LDN-07:2028-01-15", "1.184GiB"), ("MAN-02:2028-01-15", "1.031GiB"), ("LDN-07:2028-01-22", "912.406MiB"),
             ("BRS-11:2028-01-15", "743.118MiB"), ("LDS-04:2028-01-15", "611.902MiB"), ("MAN-02:2028-01-22", "588.270MiB"),
             ("GLA-01:2028-01-15", "402.655MiB"), ("CDF-03:2028-01-15", "317.044MiB"), ("LDN-07:2028-01-14", "296.517MiB"),
             ("BRS-11:2028-01-22", "244.981MiB"), ("LDS-04:2028-01-22", "198.330MiB"), ("GLA-01:2028-01-22", "151.776MiB"),
             ("MAN-02:2028-01-14", "138.019MiB"), ("CDF-03:2028-01-22", "121.444MiB")]
    rng.shuffle(parts)
    for key, size in parts:
        add(rtime(rng, "05:00:10", "08:59:50"), "WARN", f"CompactionExecutor:{rng.randrange(1, 8)}", "BigTableWriter.java:274",
            f"Writing large partition slots/slot_holds:{key} ({size}) to sstable /var/lib/cassandra/data/slots/"
            f"slot_holds-7a2e0c10a4b111ee9f3b6d1c2e8f0a11/nb-{rng.randrange(3000, 6000)}-big-Data.db")
    t = at("07:09:02.114")
    for i in range(63):
        if i:
            t += timedelta(seconds=rng.uniform(74, 88))
        add(t, "INFO", "GossipStage:1", "Gossiper.java:1242", "InetAddress /10.42.11.3:7000 is now DOWN")
        add(t + timedelta(seconds=rng.uniform(38, 60)), "INFO", "GossipStage:1", "Gossiper.java:1404",
            "Node /10.42.11.3:7000 has restarted, now UP")
    for _ in range(27):
        add(rtime(rng, "07:06:00", "07:40:00"), "ERROR", f"Native-Transport-Requests-{rng.randrange(1, 32)}",
            "ErrorMessage.java:457", "Unexpected exception during request; channel = [id: 0x" + hexid(rng, 8) +
            f", L:/10.42.11.1:9042 - R:/10.42.8.{rng.randrange(11, 13)}:{rng.randrange(30000, 60000)}]",
            ["org.apache.cassandra.exceptions.ReadTimeoutException: Operation timed out - received only 1 responses.",
             "\tat org.apache.cassandra.service.reads.ReadCallback.awaitResults(ReadCallback.java:160)",
             "\tat org.apache.cassandra.service.reads.AbstractReadExecutor.awaitResponses(AbstractReadExecutor.java:386)",
             "\tat org.apache.cassandra.service.StorageProxy.fetchRows(StorageProxy.java:2093)",
             "\tat org.apache.cassandra.cql3.statements.SelectStatement.execute(SelectStatement.java:264)",
             "\tat java.base/java.lang.Thread.run(Thread.java:829)"])
    for _ in range(64):
        tt = rtime(rng, "07:05:00", "07:45:00")
        add(tt, "INFO", "ScheduledTasks:1", "MessagingMetrics.java:206",
            f"READ_REQ messages were dropped in last 5000 ms: 0 internal and {rng.randrange(20, 2400)} cross node. Mean "
            f"internal dropped latency: 0 ms and Mean cross-node dropped latency: {rng.randrange(5001, 9000)} ms")
    for _ in range(180):
        tt = rtime(rng, "05:00:10", "08:59:50")
        a = rng.uniform(50, 400)
        add(tt, "INFO", f"CompactionExecutor:{rng.randrange(1, 8)}", "CompactionTask.java:253",
            f"Compacted ({uuid(rng)}) {rng.randrange(2, 6)} sstables to [/var/lib/cassandra/data/slots/"
            f"slot_holds-7a2e0c10a4b111ee9f3b6d1c2e8f0a11/nb-{rng.randrange(3000, 6000)}-big,] to level=0.  {a:.3f}MiB to "
            f"{a * 0.97:.3f}MiB (~97% of original) in {rng.randrange(900, 9000):,}ms.  Read Throughput = "
            f"{rng.uniform(10, 60):.3f}MiB/s, Write Throughput = {rng.uniform(10, 60):.3f}MiB/s, Row Throughput = "
            f"~{rng.randrange(1000, 90000):,}/s.  {rng.randrange(100, 9000):,} total partitions merged to "
            f"{rng.randrange(100, 9000):,}.  Partition merge counts were {{1:{rng.randrange(100, 9000)}, }}. Time spent "
            f"writing keys = {rng.randrange(500, 8000):,} ms")
    for _ in range(120):
        tt = rtime(rng, "05:00:10", "08:59:50")
        add(tt, "INFO", "NativePoolCleaner", "ColumnFamilyStore.java:1004",
            f"Enqueuing flush of slots.slot_holds, Reason: MEMTABLE_LIMIT, Usage: {rng.uniform(300, 520):.3f}MiB "
            f"({rng.randrange(15, 26)}%) on-heap, 0.000KiB (0%) off-heap")
    ev.sort(key=lambda e: e[0])
    out = []
    for tt, level, thread, src, msg, trace in ev:
        ts = tt.strftime("%Y-%m-%d %H:%M:%S,") + f"{tt.microsecond // 1000:03d}"
        out.append(f"{level:<5} [{thread}] {ts} {src} - {msg}")
        out += trace
    return "\n".join(out) + "\n"
