"""Writers of the `queries-dev3` fixtures (one function a format), seeded. The set's world:
Amberline Fresh, an online grocery delivery company, on Monday 2028-01-17 between 12:00 and
15:00 UTC.

The storyline: `basket-svc` deploy-prod #1841 finishes in Jenkins at 13:58:31 and ships a
publisher leak; RabbitMQ on mq-01 raises its memory alarm at 14:06:58 (a first, brief one
came at 13:31:12) and blocks publishers until 14:19:41; basket-svc throws
AmqpBlockedException, Envoy marks the basket pods UF/UO, Caddy answers 502 and the Celery
workers lose their broker. At 14:32 the cluster's upstream resolver flaps: CoreDNS
SERVFAILs api.paywell.example and the Rails storefront's checkout fails with
Faraday::ConnectionFailed. Fail2ban, auditd, Exim, the Elasticsearch slow log and the
riders' gateway carry their own figures beside it.

Each writer plants the figures the cases ask about (named in the comments) into background
traffic and returns the file's text. The cases' truth is not taken from here: `truth.py`
parses the written text again and `gen.py` asserts the two agree.
"""

import json
from datetime import datetime, timedelta, timezone

UTC = timezone.utc
DAY = datetime(2028, 1, 17, tzinfo=UTC)


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def at(hms):
    """A time of the set's day from "HH:MM:SS" (or "HH:MM:SS.ffffff")."""
    return DAY + timedelta(seconds=secs(hms))


def rtime(rng, a, b):
    """A uniform time in [a, b) ("HH:MM:SS"), microsecond resolution."""
    lo, hi = secs(a), secs(b)
    return DAY + timedelta(microseconds=int(rng.uniform(lo, hi) * 1e6))


def rtime_in(rng, ranges):
    """A uniform time in one of several [a, b) ranges, weighted by their length."""
    lens = [secs(b) - secs(a) for a, b in ranges]
    a, b = rng.choices(ranges, lens)[0]
    return rtime(rng, a, b)


def in_minute(rng, hhmm, lo="00", hi="59.999"):
    return rtime(rng, f"{hhmm}:{lo}", f"{hhmm}:{hi}")


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid4(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def ip_pool(rng, n, exclude, firsts):
    out, seen = [], set(exclude)
    while len(out) < n:
        ip = f"{rng.choice(firsts)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        if ip not in seen:
            seen.add(ip)
            out.append(ip)
    return out


def spread(rng, total, n, lo, hi):
    """n random counts in [lo, hi] summing to total."""
    counts = [rng.randrange(lo, hi + 1) for _ in range(n)]
    while sum(counts) != total:
        i = rng.randrange(n)
        step = 1 if sum(counts) < total else -1
        if lo <= counts[i] + step <= hi:
            counts[i] += step
    return counts


def plateau_pool(rng, n_low, n_plateau, n_high, value, low, high):
    """Values for the unplanted rows: n_low drawn by low(), n_plateau equal to `value`,
    n_high drawn by high(); shuffled. Percentiles inside the plateau agree by any definition."""
    pool = [low() for _ in range(n_low)] + [value] * n_plateau + [high() for _ in range(n_high)]
    assert all(v < value for v in pool[:n_low]) and all(v > value for v in pool[n_low + n_plateau:])
    rng.shuffle(pool)
    return pool


PRODUCTS = ["oat-milk-1l", "sourdough-loaf-800g", "free-range-eggs-12", "cavolo-nero-200g", "greek-yoghurt-500g",
            "basmati-rice-1kg", "cherry-tomatoes-250g", "salted-butter-250g", "smoked-salmon-100g", "bananas-5pk",
            "avocados-ripe-2pk", "cheddar-mature-400g", "chickpeas-400g", "coffee-beans-1kg", "dark-choc-70-100g",
            "spinach-baby-260g", "lemons-4pk", "penne-500g", "olive-oil-extra-virgin-1l", "frozen-peas-900g"]
SEARCHES = ["oat+milk", "gluten+free+bread", "organic+eggs", "vegan+cheese", "coffee", "nappies", "dog+food",
            "tofu", "sparkling+water", "ice+cream", "kimchi", "halloumi", "baby+spinach", "wine"]
POSTCODES = ["N7", "E8", "SE15", "NW3", "SW9", "E17", "N16", "W12", "SE22", "EC1V"]
BROWSER_UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
               "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/20.1 Safari/605.1.15",
               "Mozilla/5.0 (iPhone; CPU iPhone OS 21_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/21.2 Mobile/15E148 Safari/604.1",
               "Mozilla/5.0 (X11; Linux x86_64; rv:146.0) Gecko/20100101 Firefox/146.0",
               "Mozilla/5.0 (Linux; Android 17; Pixel 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36"]
APP_UAS = ["Amberline/5.18.0 (iPhone; iOS 21.2; Scale/3.00)", "Amberline/5.18.0 (Android 17; Pixel 10)",
           "Amberline/5.17.3 (Android 16; SM-S938B)", "Amberline/5.18.0 (iPad; iPadOS 21.1)"]
RIDER_UAS = ["AmberlineRider/3.9.1 (Android 16)", "AmberlineRider/3.9.1 (Android 17)", "AmberlineRider/3.8.7 (iOS 21.1)"]


# ---------------------------------------------------------------------------------------
# caddy-access.json: Caddy v2 JSON access log (epoch `ts`, nested `request`, `duration` in
# seconds, `level` error for 5xx), 1,800 requests 12:00-15:00 over four hosts. Planted: 502
# x187, 171 of them 14:07:12-14:19 (the first of the day 14:07:12, peak minute 14:11 x29),
# the rest in 14:40-14:58; 503 x64; 500 x23; top client 198.51.100.147 (183 requests,
# a price scraper); least requested host partners.amberline.example (43); DELETE
# /api/cart/items/{id} 204 x96; `duration` p95 = 1.284 (a plateau: every percentile
# definition agrees).
SHOP, API, IMG, PARTNERS = ("shop.amberline.example", "api.amberline.example", "img.amberline.example",
                            "partners.amberline.example")


def caddy_access(rng):
    scraper = "198.51.100.147"
    pool = ip_pool(rng, 1500, [scraper], [2, 5, 31, 37, 51, 62, 78, 81, 86, 90, 109, 146, 148, 176, 185, 212, 217])
    weights = [1.0 / (i + 30) ** 0.7 for i in range(len(pool))]
    ev = []

    def add(t, host, m, uri, s, ip=None, dur=None, size=None, ua=None):
        ev.append({"t": t, "host": host, "m": m, "uri": uri, "s": s, "ip": ip or rng.choices(pool, weights)[0],
                   "dur": dur, "size": size, "ua": ua})

    def item():
        return f"/api/cart/items/{rng.randrange(100000, 999999)}"

    def failing():
        return rng.choice([(API, "POST", "/v1/basket/items"), (API, "GET", "/v1/basket"), (SHOP, "POST", "/api/cart/items"),
                           (SHOP, "DELETE", item()), (SHOP, "POST", "/api/checkout"), (API, "POST", "/v1/basket/items")])

    bg_ranges = [("12:05:00", "13:50:00"), ("14:40:00", "14:58:00")]
    # 502: the first at 14:07:12, then the rest of the incident minute by minute
    plan = {"14:07": 6, "14:08": 11, "14:09": 15, "14:10": 19, "14:11": 29, "14:12": 22, "14:13": 18, "14:14": 14,
            "14:15": 12, "14:16": 9, "14:17": 7, "14:18": 5, "14:19": 4}
    add(at("14:07:12.418305"), API, "POST", "/v1/basket/items", 502, dur=0.002114)
    for minute, k in plan.items():
        for _ in range(k - (minute == "14:07")):
            h, m, u = failing()
            lo = "13" if minute == "14:07" else "00"
            add(in_minute(rng, minute, lo), h, m, u, 502, dur=rng.randrange(400, 30000) / 1e6)
    for _ in range(16):
        h, m, u = failing()
        add(rtime(rng, "14:40:00", "14:58:00"), h, m, u, 502, dur=rng.randrange(400, 30000) / 1e6)
    for i in range(64):
        t = rtime(rng, "14:09:00", "14:18:59") if i < 40 else rtime_in(rng, bg_ranges)
        add(t, API, "GET", f"/v1/slots?postcode={rng.choice(POSTCODES)}&date=2028-01-18", 503, dur=rng.randrange(50, 900) / 1e6)
    for _ in range(23):
        h, m, u = rng.choice([(SHOP, "GET", "/checkout"), (API, "GET", f"/v1/orders/{rng.randrange(7000000, 7999999)}")])
        add(rtime(rng, "12:01:00", "14:59:00"), h, m, u, 500, dur=rng.randrange(20, 900) / 1000)
    for i in range(107):
        add(rtime(rng, "12:00:30", "14:59:30"), SHOP, "DELETE", item(), 204 if i < 96 else 404)
    bot = "Mozilla/5.0 (compatible; PriceWatchBot/2.1; +https://pricewatch.example/bot)"
    for _ in range(183):
        add(rtime(rng, "12:00:10", "14:59:50"), SHOP, "GET", f"/products/{rng.choice(PRODUCTS)}", 200, ip=scraper, ua=bot)
    partner_ips = ["192.0.2.61", "192.0.2.62"]
    for _ in range(43):
        add(rtime(rng, "12:00:10", "14:59:50"), PARTNERS, "GET", rng.choice(["/feeds/stock.csv", "/feeds/prices.csv", "/v1/orders/export?since=2028-01-17"]),
            200, ip=rng.choice(partner_ips), ua="Go-http-client/2.0")
    add(at("13:12:40.551902"), SHOP, "GET", "/media/video/how-we-pack-chilled-1080p.mp4", 200, size=73204118, dur=0.981)
    add(at("12:00:00.004711"), SHOP, "GET", "/healthz", 200)
    add(at("14:59:59.640233"), SHOP, "GET", "/healthz", 200)
    bg = [(SHOP, "GET", "product", 18), (SHOP, "GET", "search", 10), (SHOP, "GET", "/api/cart", 9), (SHOP, "POST", "/api/cart/items", 5),
          (SHOP, "GET", "static", 10), (SHOP, "GET", "/", 4), (SHOP, "POST", "/api/checkout", 2), (SHOP, "GET", "/account/orders", 2),
          (API, "GET", "/v1/basket", 8), (API, "POST", "/v1/basket/items", 5), (API, "GET", "slots", 6), (API, "GET", "order", 3),
          (IMG, "GET", "img", 16)]
    while len(ev) < 1800:
        host, m, p, _ = rng.choices(bg, [w for *_, w in bg])[0]
        p = {"product": f"/products/{rng.choice(PRODUCTS)}", "search": f"/search?q={rng.choice(SEARCHES)}",
             "static": f"/_next/static/chunks/{hexid(rng, 16)}.js", "slots": f"/v1/slots?postcode={rng.choice(POSTCODES)}&date=2028-01-18",
             "order": f"/v1/orders/{rng.randrange(7000000, 7999999)}", "img": f"/p/{rng.randrange(1000, 9999)}/{rng.choice([320, 640, 1280])}.webp"}.get(p, p)
        s = 201 if m == "POST" and "items" in p else 200
        r = rng.random()
        if (p.startswith("/products/") or p.startswith("/v1/orders/")) and r < 0.05:
            s = 404
        elif (p.startswith("/_next") or p.startswith("/p/")) and r < 0.3:
            s = 304
        elif p == "/api/checkout" and r < 0.15:
            s = 401
        add(rtime(rng, "12:00:01", "14:59:58"), host, m, p, s)

    # durations: the planted keep theirs; the rest put 1.284 at sorted ranks 1681-1740
    fixed = [e for e in ev if e["dur"] is not None]
    below = sum(1 for e in fixed if e["dur"] < 1.284)
    assert all(e["dur"] != 1.284 for e in fixed) and below == len(fixed)
    rest = [e for e in ev if e["dur"] is None]
    n_low, n_plat = 1680 - below, 60
    n_high = len(rest) - n_low - n_plat
    vals = plateau_pool(rng, n_low, n_plat, n_high, 1284000,
                        lambda: rng.choice([rng.randrange(900, 40000), rng.randrange(5000, 300000), rng.randrange(40000, 1283000)]),
                        lambda: rng.choice([rng.randrange(1285000, 2400000), rng.randrange(1285000, 8800000)]))
    for e, v in zip(rest, vals):
        e["dur"] = v / 1e6
    ev.sort(key=lambda e: e["t"])
    lines = []
    for e in ev:
        mobile = e["host"] == API
        ua = e["ua"] or (rng.choice(APP_UAS) if mobile else rng.choice(BROWSER_UAS))
        ct = ("image/webp" if e["host"] == IMG else "text/csv" if e["uri"].startswith("/feeds") else
              "application/javascript" if e["uri"].startswith("/_next") else "video/mp4" if e["uri"].endswith(".mp4") else
              "application/json" if mobile or e["uri"].startswith("/api") else "text/html; charset=utf-8")
        size = e["size"]
        if size is None:
            size = (0 if e["s"] in (204, 304) or e["s"] >= 502 else rng.randrange(40, 400) if e["s"] >= 400 else
                    2 if e["uri"] == "/healthz" else rng.randrange(800, 180000))
        body_in = rng.randrange(60, 900) if e["m"] == "POST" else 0
        ts = round(e["t"].timestamp(), 6)
        rec = {"level": "error" if e["s"] >= 500 else "info", "ts": ts, "logger": "http.log.access.log0",
               "msg": "handled request",
               "request": {"remote_ip": e["ip"], "remote_port": str(rng.randrange(1024, 65535)), "client_ip": e["ip"],
                           "proto": "HTTP/2.0" if rng.random() < 0.8 else "HTTP/1.1", "method": e["m"], "host": e["host"],
                           "uri": e["uri"], "headers": {"User-Agent": [ua]}},
               "bytes_read": body_in, "user_id": "", "duration": e["dur"], "size": size, "status": e["s"],
               "resp_headers": {"Server": ["Caddy"], "Content-Type": [ct]}}
        lines.append(json.dumps(rec, separators=(",", ":")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# envoy-access.log: Envoy's default access log format (edge sidecar in front of the
# services), 2,000 requests 12:00-15:00. Planted: response flag UF x118 (upstream host
# 10.42.7.23:8080 x71 > 10.42.7.24:8080 x29); 503 x197 (UF 118, UO 57, UH 22), 162 of them
# in 14:07-14:20 and none in 13:55-14:07 or 14:20-14:30; UO peak minute 14:14 (x11); UT
# 504 x31; mean DURATION of authority basket-svc exactly 213 ms.
ENVOY_UPSTREAMS = {"basket-svc": ["10.42.7.22:8080", "10.42.7.23:8080", "10.42.7.24:8080"],
                   "catalog-svc": ["10.42.8.11:8080", "10.42.8.12:8080", "10.42.8.13:8080"],
                   "slots-svc": ["10.42.9.31:9090", "10.42.9.32:9090", "10.42.9.33:9090"],
                   "payments-svc": ["10.42.6.40:8443", "10.42.6.41:8443"],
                   "rider-svc": ["10.42.10.5:8080", "10.42.10.6:8080"]}


def envoy_access(rng):
    ev = []
    xff = ip_pool(rng, 700, [], [5, 31, 62, 81, 86, 92, 100, 109, 151, 178, 185, 212])

    def add(t, auth, m, p, s, flag="-", host=None, dur=None):
        ev.append({"t": t, "auth": auth, "m": m, "p": p, "s": s, "flag": flag,
                   "host": host if host is not None else rng.choice(ENVOY_UPSTREAMS[auth]), "dur": dur})

    def basket_call():
        return rng.choice([("POST", "/v1/basket/items"), ("GET", "/v1/basket"), ("POST", "/v1/basket/checkout"),
                           ("DELETE", f"/v1/basket/items/{rng.randrange(100000, 999999)}")])

    bg = [("12:05:00", "13:55:00"), ("14:30:00", "14:58:00")]
    incident = ("14:07:05", "14:19:59")
    uf_incident = ["10.42.7.23:8080"] * 64 + ["10.42.7.24:8080"] * 27 + ["10.42.7.22:8080"] * 4
    uf_bg = (["10.42.7.23:8080"] * 7 + ["10.42.7.24:8080"] * 2 + ["10.42.7.22:8080"] * 4)
    for host in uf_incident:
        m, p = basket_call()
        add(rtime(rng, *incident), "basket-svc", m, p, 503, "UF", host, rng.randrange(0, 4))
    for host in uf_bg:
        m, p = basket_call()
        add(rtime_in(rng, bg), "basket-svc", m, p, 503, "UF", host, rng.randrange(0, 4))
    for _ in range(10):
        add(rtime_in(rng, bg), "slots-svc", "GET", f"/v1/slots?postcode={rng.choice(POSTCODES)}", 503, "UF",
            rng.choice(ENVOY_UPSTREAMS["slots-svc"]), rng.randrange(0, 4))
    uo = {"14:08": 2, "14:09": 3, "14:10": 4, "14:11": 5, "14:12": 6, "14:13": 7, "14:14": 11, "14:15": 7,
          "14:16": 5, "14:17": 3, "14:18": 2, "14:19": 2}
    for minute, k in uo.items():
        for _ in range(k):
            m, p = basket_call()
            add(in_minute(rng, minute), "basket-svc", m, p, 503, "UO", "-", 0)
    for i in range(22):
        t = rtime(rng, "14:10:00", "14:17:00") if i < 10 else rtime_in(rng, bg)
        add(t, "slots-svc", "GET", f"/v1/slots?postcode={rng.choice(POSTCODES)}", 503, "UH", "-", 0)
    for _ in range(31):
        add(rtime(rng, "12:02:00", "14:58:00"), "payments-svc", "POST", "/v1/payments/authorize", 504, "UT", None,
            15000 + rng.randrange(0, 12))
    background = [("catalog-svc", "GET", "products", 30), ("catalog-svc", "GET", "search", 12), ("basket-svc", "GET", "/v1/basket", 14),
                  ("basket-svc", "POST", "/v1/basket/items", 9), ("basket-svc", "POST", "/v1/basket/checkout", 3),
                  ("slots-svc", "GET", "slots", 10), ("payments-svc", "POST", "/v1/payments/authorize", 3),
                  ("rider-svc", "GET", "eta", 8), ("rider-svc", "POST", "/v1/riders/assign", 2)]
    while len(ev) < 2000:
        auth, m, p, _ = rng.choices(background, [w for *_, w in background])[0]
        p = {"products": f"/v1/products/{rng.choice(PRODUCTS)}", "search": f"/v1/search?q={rng.choice(SEARCHES)}",
             "slots": f"/v1/slots?postcode={rng.choice(POSTCODES)}", "eta": f"/v1/orders/{rng.randrange(7000000, 7999999)}/eta"}.get(p, p)
        s = 201 if p.endswith("/items") and m == "POST" else 200
        if p.startswith("/v1/products/") and rng.random() < 0.04:
            s = 404
        dur = None if auth == "basket-svc" else rng.choice([rng.randrange(2, 60), rng.randrange(5, 400), rng.randrange(40, 1800)])
        add(rtime(rng, "12:00:01", "14:59:58"), auth, m, p, s, dur=dur)
    # basket-svc durations: a mean of exactly 213 ms over all its requests
    basket = [e for e in ev if e["auth"] == "basket-svc"]
    free = [e for e in basket if e["dur"] is None]
    for e in free:
        e["dur"] = rng.choice([rng.randrange(20, 180), rng.randrange(60, 420), rng.randrange(120, 900)])
    target, total = 213 * len(basket), sum(e["dur"] for e in basket)
    while total != target:
        e = rng.choice(free)
        step = 1 if total < target else -1
        if 15 <= e["dur"] + step <= 1400:
            e["dur"] += step
            total += step
    ev.sort(key=lambda e: e["t"])
    lines = []
    for e in ev:
        ts = e["t"].strftime("%Y-%m-%dT%H:%M:%S.") + f"{e['t'].microsecond // 1000:03d}Z"
        sent = {"UF": 91, "UO": 81, "UH": 19, "UT": 24}.get(e["flag"], rng.randrange(120, 24000) if e["s"] < 300 else 64)
        recv = rng.randrange(200, 1400) if e["m"] == "POST" else 0
        ust = "-" if e["flag"] != "-" else str(max(0, e["dur"] - rng.randrange(0, 3)))
        ua = rng.choice(APP_UAS + BROWSER_UAS[:2])
        lines.append(f'[{ts}] "{e["m"]} {e["p"]} HTTP/1.1" {e["s"]} {e["flag"]} {recv} {sent} {e["dur"]} {ust} '
                     f'"{rng.choice(xff)}" "{ua}" "{uuid4(rng)}" "{e["auth"]}" "{e["host"]}"')
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# rabbit@mq-01.log: RabbitMQ 3.12 (`YYYY-MM-DD HH:MM:SS.ffffff+00:00 [level] <pid> msg`,
# each line of a multi-line message carries the prefix). Planted: memory alarm set at
# 13:31:12 (cleared 13:31:40) and at 14:06:58 (cleared 14:19:41); connections closed for
# missed heartbeats x73 (10.42.5.31 x29 the most), the reason on the second line only.
def rabbitmq_log(rng):
    out = []
    pid_n = [8800]

    def new_pid():
        pid_n[0] += rng.randrange(3, 40)
        return f"<0.{pid_n[0]}.0>"

    def log(t, level, pid, msg):
        out.append((t, len(out), f"{t.strftime('%Y-%m-%d %H:%M:%S.%f')}+00:00 [{level}] {pid} {msg}"))

    clients = {"10.42.5.31": "celery", "10.42.5.32": "celery", "10.42.5.14": "basket", "10.42.5.15": "basket",
               "10.42.5.16": "basket", "10.42.5.40": "notify", "10.42.5.41": "notify", "10.42.5.52": "rider-events"}
    hb = ["10.42.5.31"] * 29 + ["10.42.5.32"] * 18 + ["10.42.5.14"] * 11
    hb += [ip for ip, k in zip(["10.42.5.15", "10.42.5.16", "10.42.5.40", "10.42.5.41", "10.42.5.52"], [4, 3, 3, 3, 2]) for _ in range(k)]
    assert len(hb) == 73
    rng.shuffle(hb)
    closes = []
    for i, ip in enumerate(hb):
        t = rtime(rng, "14:08:00", "14:20:30") if i < 50 else rtime(rng, "12:03:00", "14:58:00")
        closes.append((t, ip, "hb"))
    for _ in range(170):
        closes.append((rtime(rng, "12:02:00", "14:59:30"), rng.choice(list(clients)), "normal"))
    for _ in range(24):
        closes.append((rtime(rng, "12:02:00", "14:59:30"), rng.choice(list(clients)), "reset"))
    for t_close, ip, kind in closes:
        pid = new_pid()
        port = rng.randrange(32768, 61000)
        conn = f"({ip}:{port} -> 10.42.2.5:5672)"
        t_open = t_close - timedelta(seconds=rng.randrange(30, 5400))
        if t_open < at("12:00:02"):
            t_open = at("12:00:02") + timedelta(microseconds=rng.randrange(0, 9000000))
        log(t_open, "info", pid, f"accepting AMQP connection {pid} {conn}")
        log(t_open + timedelta(microseconds=rng.randrange(900, 4000)), "info", pid,
            f"connection {pid} {conn}: user '{clients[ip]}' authenticated and granted access to vhost 'orders'")
        if kind == "hb":
            log(t_close, "error", pid, f"closing AMQP connection {pid} {conn}:")
            log(t_close, "error", pid, "missed heartbeats from client, timeout: 60s")
        elif kind == "reset":
            log(t_close, "warning", pid, f"closing AMQP connection {pid} {conn}:")
            log(t_close, "warning", pid, "client unexpectedly closed TCP connection")
        else:
            log(t_close, "info", pid, f"closing AMQP connection {pid} ({ip}:{port} -> 10.42.2.5:5672, vhost: 'orders', user: '{clients[ip]}')")
    alarm_pid = "<0.441.0>"
    for t_set, t_clear, used_set, used_clear in [("13:31:12.204117", "13:31:40.880412", 6875125760, 6702473216),
                                                 ("14:06:58.371226", "14:19:41.092554", 6912716800, 6010884096)]:
        t = at(t_set)
        log(t, "info", alarm_pid, f"vm_memory_high_watermark set. Memory used:{used_set} allowed:6871947673")
        log(t, "warning", alarm_pid, "memory resource limit alarm set on node 'rabbit@mq-01'.")
        for text in ["", "**********************************************************",
                     "*** Publishers will be blocked until this alarm clears ***",
                     "**********************************************************", ""]:
            log(t, "warning", alarm_pid, text)
        t = at(t_clear)
        log(t, "info", alarm_pid, f"vm_memory_high_watermark clear. Memory used:{used_clear} allowed:6871947673")
        log(t, "warning", alarm_pid, "memory resource limit alarm cleared on node 'rabbit@mq-01'")
        log(t, "warning", alarm_pid, "memory resource limit alarm cleared across the cluster")
    for minute in range(12 * 60 + 5, 15 * 60, 15):
        t = DAY + timedelta(minutes=minute, microseconds=rng.randrange(0, 59000000))
        log(t, "info", "<0.612.0>", f"Free disk space is sufficient. Free bytes: {rng.randrange(41000000000, 42000000000)}. Limit: 50000000")
    for q in ["celery", "basket.events", "notify.receipts"]:
        t = rtime(rng, "14:08:00", "14:19:00")
        log(t, "warning", new_pid(), f"queue '{q}' in vhost 'orders': message store memory use is above the paging threshold")
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# celery-worker.log: Celery 5 worker log (`[date time,ms: LEVEL/Process] msg`), tracebacks
# after each `raised unexpected`. Planted: raised unexpected by task reserve_slot x58 (peak
# minute 14:12, x13), charge_card x31, assign_rider x17; retries x84; send_receipt
# succeeded x180 with a mean runtime of exactly 0.412 s.
TRACEBACKS = {
    "orders.tasks.reserve_slot": ["ConnectionResetError(104, 'Connection reset by peer')", [
        'Traceback (most recent call last):',
        '  File "/srv/app/.venv/lib/python3.12/site-packages/celery/app/trace.py", line 453, in trace_task',
        '    R = retval = fun(*args, **kwargs)',
        '  File "/srv/app/orders/tasks.py", line 88, in reserve_slot',
        '    publisher.publish(event, routing_key="slots.reserved")',
        '  File "/srv/app/.venv/lib/python3.12/site-packages/kombu/messaging.py", line 202, in publish',
        '    return _publish(',
        'ConnectionResetError: [Errno 104] Connection reset by peer']],
    "orders.tasks.charge_card": ["PaywellDeclined('card_declined: insufficient_funds')", [
        'Traceback (most recent call last):',
        '  File "/srv/app/.venv/lib/python3.12/site-packages/celery/app/trace.py", line 453, in trace_task',
        '    R = retval = fun(*args, **kwargs)',
        '  File "/srv/app/orders/tasks.py", line 131, in charge_card',
        '    paywell.capture(order.payment_ref, order.total_pence)',
        "orders.payments.PaywellDeclined: card_declined: insufficient_funds"]],
    "riders.tasks.assign_rider": ["NoRiderAvailable('zone SE15 has no free rider')", [
        'Traceback (most recent call last):',
        '  File "/srv/app/.venv/lib/python3.12/site-packages/celery/app/trace.py", line 453, in trace_task',
        '    R = retval = fun(*args, **kwargs)',
        '  File "/srv/app/riders/tasks.py", line 57, in assign_rider',
        '    raise NoRiderAvailable(f"zone {zone} has no free rider")',
        "riders.dispatch.NoRiderAvailable: zone SE15 has no free rider"]],
}


def celery_log(rng):
    out = []

    def log(t, level, proc, msg, extra=()):
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        out.append((t, len(out), "\n".join([f"[{ts}: {level}/{proc}] {msg}", *extra])))

    def worker():
        return f"ForkPoolWorker-{rng.randrange(1, 9)}"

    def task(t_recv, name, outcome, runtime=None):
        tid = uuid4(rng)
        log(t_recv, "INFO", "MainProcess", f"Task {name}[{tid}] received")
        t_end = t_recv + timedelta(microseconds=rng.randrange(2000, 900000))
        if outcome == "fail":
            exc, tb = TRACEBACKS[name]
            log(t_end, "ERROR", worker(), f"Task {name}[{tid}] raised unexpected: {exc}", tb)
        elif outcome == "retry":
            reason = rng.choice(["Retry in 30s: PaywellTimeout('authorize timed out after 15s')",
                                 "Retry in 10s: OperationalError('could not connect to server: Connection refused')",
                                 "Retry in 60s: ConnectionResetError(104, 'Connection reset by peer')"])
            log(t_end, "INFO", worker(), f"Task {name}[{tid}] retry: {reason}")
        else:
            rt = runtime if runtime is not None else rng.randrange(8000, 2400000)
            result = {"notify.tasks.send_receipt": "None", "orders.tasks.reserve_slot": "{'held': True}",
                      "orders.tasks.charge_card": "'captured'", "riders.tasks.assign_rider": "{'rider': 'R-3%04d'}" % rng.randrange(10000),
                      "catalog.tasks.refresh_prices": "None"}[name]
            log(t_recv + timedelta(microseconds=rt + rng.randrange(100, 900)), "INFO", worker(),
                f"Task {name}[{tid}] succeeded in {rt / 1e6:.6f}s: {result}")

    # reserve_slot failures: 45 in the incident (14:12 the peak minute), 13 outside it
    rs_plan = {"14:07": 2, "14:08": 3, "14:09": 4, "14:10": 5, "14:11": 6, "14:12": 13, "14:13": 5, "14:14": 3,
               "14:15": 2, "14:16": 1, "14:17": 1}
    for minute, k in rs_plan.items():
        for _ in range(k):
            task(in_minute(rng, minute, "00", "58"), "orders.tasks.reserve_slot", "fail")
    for _ in range(13):
        task(rtime(rng, "12:02:00", "13:58:00"), "orders.tasks.reserve_slot", "fail")
    for _ in range(31):
        task(rtime(rng, "12:02:00", "14:58:00"), "orders.tasks.charge_card", "fail")
    for _ in range(17):
        task(rtime(rng, "12:02:00", "14:58:00"), "riders.tasks.assign_rider", "fail")
    for _ in range(84):
        task(rtime(rng, "12:02:00", "14:58:00"), rng.choice(["orders.tasks.charge_card", "orders.tasks.charge_card",
                                                             "orders.tasks.reserve_slot"]), "retry")
    runtimes = [rng.choice([rng.randrange(150000, 500000), rng.randrange(250000, 700000)]) for _ in range(180)]
    target = 412000 * 180
    while sum(runtimes) != target:
        i = rng.randrange(180)
        diff = target - sum(runtimes)
        step = max(-2000, min(2000, diff))
        if 120000 <= runtimes[i] + step <= 900000:
            runtimes[i] += step
    for rt in runtimes:
        task(rtime(rng, "12:01:00", "14:59:00"), "notify.tasks.send_receipt", "ok", rt)
    for _ in range(310):
        task(rtime(rng, "12:01:00", "14:59:00"), rng.choice(["orders.tasks.reserve_slot", "orders.tasks.reserve_slot",
                                                             "orders.tasks.charge_card", "riders.tasks.assign_rider",
                                                             "catalog.tasks.refresh_prices"]), "ok")
    for t in ["14:07:31.118", "14:12:02.540", "14:16:47.913"]:
        log(at(t), "WARNING", "MainProcess", "consumer: Connection to broker lost. Trying to re-establish the connection...")
        log(at(t) + timedelta(seconds=2), "ERROR", "MainProcess",
            "consumer: Cannot connect to amqp://celery:**@mq-01.internal:5672/orders: [Errno 104] Connection reset by peer.")
        log(at(t) + timedelta(seconds=2, milliseconds=3), "INFO", "MainProcess", "Trying again in 2.00 seconds... (1/100)")
    log(at("12:00:00.311"), "INFO", "MainProcess", "Connected to amqp://celery:**@mq-01.internal:5672/orders")
    log(at("12:00:00.402"), "INFO", "MainProcess", "celery@worker-7c4d9 ready.")
    out.sort()
    return "\n".join(text for _, _, text in out) + "\n"


# ---------------------------------------------------------------------------------------
# jenkins.log: Jenkins controller log (`date time.ms+0000 [id=N]<TAB>LEVEL<TAB>source: msg`).
# Planted: amberline/basket-svc/deploy-prod #1840 SUCCESS 12:41:09, #1841 SUCCESS 13:58:31,
# #1842 FAILURE 14:16:02, #1843 SUCCESS 14:23:47 (its last success); the job with the most
# FAILUREs amberline/storefront/integration (9, the next 5).
def jenkins_log(rng):
    out = []

    def log(t, level, src, msg):
        ts = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d}+0000"
        out.append((t, len(out), f"{ts} [id={rng.randrange(40, 9800)}]\t{level}\t{src}: {msg}"))

    done = [("12:41:09.552", "amberline/basket-svc/deploy-prod", 1840, "SUCCESS"),
            ("13:58:31.204", "amberline/basket-svc/deploy-prod", 1841, "SUCCESS"),
            ("14:16:02.871", "amberline/basket-svc/deploy-prod", 1842, "FAILURE"),
            ("14:23:47.066", "amberline/basket-svc/deploy-prod", 1843, "SUCCESS"),
            ("12:20:13.418", "amberline/storefront/deploy-prod", 977, "SUCCESS"),
            ("14:44:10.730", "amberline/storefront/deploy-prod", 978, "SUCCESS")]
    fails = {"amberline/storefront/integration": 9, "amberline/riders-api/ci": 5, "amberline/catalog/ci": 4,
             "amberline/basket-svc/ci": 3, "amberline/storefront/PR-4412": 2}
    oks = {"amberline/storefront/integration": 6, "amberline/riders-api/ci": 11, "amberline/catalog/ci": 9,
           "amberline/basket-svc/ci": 14, "amberline/storefront/PR-4412": 3, "amberline/storefront/PR-4419": 4,
           "amberline/slots/ci": 7}
    nums = {"amberline/storefront/integration": 2210, "amberline/riders-api/ci": 655, "amberline/catalog/ci": 3120,
            "amberline/basket-svc/ci": 5031, "amberline/storefront/PR-4412": 1, "amberline/storefront/PR-4419": 1,
            "amberline/slots/ci": 812}
    runs = []
    for job, k in fails.items():
        runs += [(job, "FAILURE")] * k
    for job, k in oks.items():
        runs += [(job, "SUCCESS")] * k
    runs += [("amberline/catalog/ci", "ABORTED"), ("amberline/riders-api/ci", "UNSTABLE"), ("amberline/riders-api/ci", "UNSTABLE")]
    timed = sorted((rtime(rng, "12:03:00", "14:57:00"), job, res) for job, res in runs)
    for t, job, res in timed:
        nums[job] += 1
        done.append((t, job, nums[job], res))
    for t, job, num, res in done:
        t = at(t) if isinstance(t, str) else t
        log(t, "INFO", "o.j.p.workflow.job.WorkflowRun#finish", f"{job} #{num} completed: {res}")
    for _ in range(120):
        t = rtime(rng, "12:00:30", "14:59:30")
        agent = f"k8s-agent-{hexid(rng, 5)}"
        choice = rng.random()
        if choice < 0.45:
            log(t, "INFO", "hudson.slaves.NodeProvisioner#update",
                f"{agent} provisioning successfully completed. We have now {rng.randrange(2, 9)} computer(s)")
        elif choice < 0.7:
            log(t, "INFO", "o.c.j.p.k.KubernetesSlave#_terminate", f"Terminating Kubernetes instance for agent {agent}")
        elif choice < 0.85:
            log(t, "INFO", "hudson.model.AsyncPeriodicWork#lambda$doRun$1", "Started Periodic background build discarder")
            log(t + timedelta(milliseconds=rng.randrange(3, 400)), "INFO", "hudson.model.AsyncPeriodicWork#lambda$doRun$1",
                f"Finished Periodic background build discarder. {rng.randrange(3, 400)} ms")
        elif choice < 0.95:
            log(t, "WARNING", "o.c.j.p.k.KubernetesLauncher#launch",
                f"Error in provisioning; agent=KubernetesSlave name: {agent}, template=PodTemplate{{id='{hexid(rng, 12)}', name='maven-jdk21'}}")
        else:
            log(t, "WARNING", "hudson.plugins.git.GitSCM#fetchFrom", "Fetch timed out after 10 minutes, retrying (1/3)")
    for minute in range(12 * 60, 15 * 60, 20):
        t = DAY + timedelta(minutes=minute, seconds=rng.randrange(0, 59))
        log(t, "INFO", "j.b.MultiBranchProject$BranchIndexing#run", "amberline/storefront #branch-indexing completed: SUCCESS")
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# exim_mainlog: Exim 4 main log on mx-out-01. Planted: bounces (`**`) x61; deferrals (`==`)
# x150 by domain mailhaven.example x66 > postbox-uk.example x37 > inboxly.example x22 > the
# rest (<= 8 each); 68 in 14:35-14:59 and none in 14:25-14:35, so "the last 30 minutes"
# (the log ends 14:59:58) is not an edge case; `rejected RCPT` x79.
def exim_log(rng):
    out = []
    seq = [0]

    def log(t, text):
        out.append((t, seq[0], f"{t.strftime('%Y-%m-%d %H:%M:%S')} {text}"))
        seq[0] += 1

    def msgid():
        a = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        return f"1tQ{''.join(rng.choice(a) for _ in range(3))}-000{''.join(rng.choice(a) for _ in range(3))}-{''.join(rng.choice(a) for _ in range(2))}"

    names = ["ana", "ben.w", "chloe", "dev", "ella", "farah", "george", "hana", "ivan", "jo", "kemi", "liam",
             "maya", "noor", "oscar", "priya", "quinn", "rosa", "sam", "tariq", "uma", "vik", "wren", "yusuf"]
    good = ["gmail.example", "outlook.example", "icloud.example", "proton.example", "btmail.example", "yahoo.example"]
    mx = {d: (f"mx{rng.randrange(1, 4)}.{d}", f"198.51.100.{rng.randrange(2, 250)}") for d in good}
    defer_doms = (["mailhaven.example"] * 66 + ["postbox-uk.example"] * 37 + ["inboxly.example"] * 22)
    others = ["fastmail-uk.example", "skymail.example", "virginpost.example", "talkmail.example", "zoho-eu.example"]
    defer_doms += [d for d, k in zip(others, [8, 6, 5, 4, 2]) for _ in range(k)]
    for d in sorted(set(defer_doms)):
        mx[d] = (f"mx.{d}", f"203.0.113.{rng.randrange(2, 250)}")
    senders = ["receipts@amberline.example", "orders@amberline.example", "noreply@amberline.example", "riders@amberline.example"]
    app_hosts = [("app-04.internal", "10.42.5.14"), ("app-05.internal", "10.42.5.15"), ("notify-1.internal", "10.42.5.40")]

    def arrival(t, rcpt):
        mid = msgid()
        h, ip = rng.choice(app_hosts)
        log(t, f"{mid} <= {rng.choice(senders)} H=({h}) [{ip}] P=esmtp S={rng.randrange(2400, 48000)} id={hexid(rng, 16)}@amberline.example")
        return mid

    def delivered(t, mid, rcpt):
        d = rcpt.split("@")[1]
        h, ip = mx[d]
        log(t, f"{mid} => {rcpt} R=dnslookup T=remote_smtp H={h} [{ip}] X=TLS1.3:TLS_AES_256_GCM_SHA384:256 CV=yes "
               f'C="250 2.0.0 Ok: queued as {hexid(rng, 10).upper()}"')
        log(t, f"{mid} Completed")

    # defers (one `==` line each); each deferred message is delivered later or stays queued
    defer_times = []
    rng.shuffle(defer_doms)
    for i, d in enumerate(defer_doms):
        defer_times.append((rtime(rng, "14:35:00", "14:59:00") if i < 68 else rtime(rng, "12:02:00", "14:25:00"), d))
    by_dom = {}
    for t, d in sorted(defer_times):
        by_dom.setdefault(d, []).append(t)
    for d, times in by_dom.items():
        # a few messages each retried several times
        i = 0
        while i < len(times):
            k = min(len(times) - i, rng.randrange(1, 5))
            rcpt = f"{rng.choice(names)}@{d}"
            mid = arrival(times[i] - timedelta(seconds=rng.randrange(1, 4)), rcpt)
            h, ip = mx[d]
            for t in times[i:i + k]:
                why = (f"SMTP error from remote mail server after RCPT TO:<{rcpt}>: 451 4.7.1 Greylisted, please try again later"
                       if d != "postbox-uk.example" else "Connection timed out")
                log(t, f"{mid} == {rcpt} R=dnslookup T=remote_smtp defer ({-44 if d != 'postbox-uk.example' else 110}) H={h} [{ip}]: {why}")
            if rng.random() < 0.6 and times[i + k - 1] < at("14:50:00"):
                delivered(times[i + k - 1] + timedelta(minutes=rng.randrange(6, 9)), mid, rcpt)
            i += k
    for _ in range(61):
        t = rtime(rng, "12:01:00", "14:59:00")
        d = rng.choice(good + ["inboxly.example"])
        rcpt = f"{rng.choice(['old', 'test', 'nobody', 'x', 'billing'])}{rng.randrange(10, 999)}@{d}"
        mid = arrival(t, rcpt)
        h, ip = mx[d]
        t2 = t + timedelta(seconds=rng.randrange(1, 3))
        log(t2, f"{mid} ** {rcpt} R=dnslookup T=remote_smtp H={h} [{ip}]: SMTP error from remote mail server after RCPT TO:<{rcpt}>: "
                f"550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown")
        log(t2, f"{mid} <= <> R={mid} U=Debian-exim P=local S={rng.randrange(1800, 4000)}")
        log(t2, f"{mid} Completed")
    for _ in range(79):
        t = rtime(rng, "12:01:00", "14:59:00")
        ip = f"{rng.choice([45, 80, 91, 185, 193])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        log(t, f"H=({rng.choice(['User', 'ylmf-pc', 'WIN-' + hexid(rng, 6).upper()])}) [{ip}]:{rng.randrange(40000, 65000)} "
               f"F=<{rng.choice(names)}@{rng.choice(good)}> rejected RCPT <{rng.choice(names)}@relay-test.example>: relay not permitted")
    while len(out) < 1100:
        t = rtime(rng, "12:00:30", "14:59:30")
        rcpt = f"{rng.choice(names)}{rng.randrange(1, 99)}@{rng.choice(good)}"
        mid = arrival(t, rcpt)
        delivered(t + timedelta(seconds=rng.randrange(0, 3)), mid, rcpt)
    for minute in range(12 * 60 + 10, 15 * 60, 30):
        pid = rng.randrange(20000, 40000)
        t = DAY + timedelta(minutes=minute)
        log(t, f"Start queue run: pid={pid}")
        log(t + timedelta(seconds=rng.randrange(2, 20)), f"End queue run: pid={pid}")
    log(at("14:59:58"), "Start queue run: pid=39911")
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# coredns.log: CoreDNS `log` plugin as `kubectl logs --timestamps` prints it. Planted:
# SERVFAIL x96: api.paywell.example. x71 (first 14:32:07, all in 14:32-14:38, peak minute
# 14:35 x19), the rest <= 9 a name; the slowest answer 6.412087311s for
# cdn.grocer-img.example. (every other one under 4.1 s).
def coredns_log(rng):
    out = []
    pods = [f"10.42.{a}.{b}" for a, b in [(5, 14), (5, 15), (5, 16), (5, 31), (5, 32), (5, 40), (1, 9), (1, 10), (9, 31), (10, 5)]]

    def log(t, client, qtype, name, rcode, flags, size, dur, proto="udp"):
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{rng.randrange(0, 1000):03d}Z"
        d = f"{dur:.9f}".rstrip("0").rstrip(".")
        out.append((t, len(out), f'{ts} [INFO] {client}:{rng.randrange(32768, 60999)} - {rng.randrange(1, 65535)} '
                                 f'"{qtype} IN {name} {proto} {rng.randrange(40, 90)} false 1232" {rcode} {flags} {size} {d}s'))

    internal = ["basket-svc.shop.svc.cluster.local.", "catalog-svc.shop.svc.cluster.local.", "slots-svc.shop.svc.cluster.local.",
                "mq-01.internal.", "postgres-primary.data.svc.cluster.local.", "redis-sessions.data.svc.cluster.local.",
                "payments-svc.shop.svc.cluster.local.", "es-data-2.search.svc.cluster.local."]
    external = ["api.paywell.example.", "cdn.grocer-img.example.", "hooks.slack-mirror.example.", "sentry.ingest.example.",
                "s3.eu-west-2.objstore.example.", "maps.routeplan.example."]
    plan = {"14:32": 6, "14:33": 12, "14:34": 15, "14:35": 19, "14:36": 11, "14:37": 6, "14:38": 2}
    log(at("14:32:07.118204"), rng.choice(pods), "A", "api.paywell.example.", "SERVFAIL", "qr,rd", 59, 2.000814221)
    for minute, k in plan.items():
        for _ in range(k - (minute == "14:32")):
            lo = "08" if minute == "14:32" else "00"
            log(in_minute(rng, minute, lo), rng.choice(pods), rng.choice(["A", "AAAA"]), "api.paywell.example.", "SERVFAIL",
                "qr,rd", 59, 2.0 + rng.randrange(200, 9000) / 1e6)
    other_sf = [n for n, k in zip(["hooks.slack-mirror.example.", "sentry.ingest.example.", "maps.routeplan.example.",
                                   "s3.eu-west-2.objstore.example."], [9, 7, 5, 4]) for _ in range(k)]
    for name in other_sf:
        log(rtime_in(rng, [("12:01:00", "14:20:00"), ("14:45:00", "14:59:00")]), rng.choice(pods), "A", name, "SERVFAIL",
            "qr,rd", 59, rng.choice([2.0, 4.0]) + rng.randrange(200, 9000) / 1e6)
    log(at("13:44:19.660731"), "10.42.1.9", "A", "cdn.grocer-img.example.", "NOERROR", "qr,rd,ra", 233, 6.412087311)
    while len(out) < 1500:
        t = rtime(rng, "12:00:01", "14:59:59")
        client = rng.choice(pods)
        r = rng.random()
        if r < 0.55:
            log(t, client, rng.choice(["A", "A", "AAAA", "SRV"]), rng.choice(internal), "NOERROR", "qr,aa,rd", rng.randrange(100, 260),
                rng.randrange(40, 900) / 1e6)
        elif r < 0.75:
            name = rng.choice(external)
            if name == "api.paywell.example." and at("14:31:00") <= t < at("14:40:00"):
                continue
            log(t, client, "A", name, "NOERROR", "qr,rd,ra", rng.randrange(90, 300),
                rng.choice([rng.randrange(300, 9000), rng.randrange(8000, 90000), rng.randrange(20000, 400000)]) / 1e6)
        else:
            base = rng.choice(external)
            suffix = rng.choice(["shop.svc.cluster.local.", "svc.cluster.local.", "cluster.local."])
            log(t, client, rng.choice(["A", "AAAA"]), base + suffix, "NXDOMAIN", "qr,aa,rd", rng.randrange(140, 200),
                rng.randrange(40, 700) / 1e6)
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# fail2ban.log on mq-01 / mx-out-01's shared log host. Planted: Ban x167: sshd 88 >
# caddy-auth 47 > exim 21 > recidive 11; by hour 12:xx 41, 13:xx 79 (62 in 13:00-13:30),
# 14:xx 47; none in 12:55-13:00 or 13:30-13:35, so 13:00-13:30 is not an edge case;
# 203.0.113.186 banned the
# most (9 times, the first at 12:07:44).
def fail2ban_log(rng):
    out = []
    pid = 911

    def log(t, src, level, msg):
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        out.append((t, len(out), f"{ts} {src:<24}[{pid}]: {level:<7} {msg}"))

    top = "203.0.113.186"
    ips = ip_pool(rng, 140, [top], [27, 45, 61, 80, 91, 103, 112, 141, 159, 171, 180, 185, 193, 194, 218, 222])
    # ban slots: (hour range, count); the window gaps are kept by the ranges
    hour_ranges = {12: ("12:00:40", "12:55:00"), 13: ("13:00:20", "13:30:00"), 13.5: ("13:35:00", "13:59:50"),
                   14: ("14:00:10", "14:59:00")}
    hours = [12] * 41 + [13] * 62 + [13.5] * 17 + [14] * 47
    jails = ["sshd"] * 88 + ["caddy-auth"] * 47 + ["exim"] * 21 + ["recidive"] * 11
    rng.shuffle(jails)
    # recidive bans only IPs banned before; keep them in the later hours
    slots = sorted(zip(hours, [rtime(rng, *hour_ranges[h]) for h in hours]), key=lambda x: x[1])
    bans = []
    top_slots = {0, 11, 23, 40, 57, 79, 96, 120, 150}
    for i, (h, t) in enumerate(slots):
        bans.append([t, None, top if i in top_slots else None])
    bans[0][0] = at("12:07:44.309")
    bans.sort(key=lambda b: b[0])
    # assign jails: the top IP: sshd 8 times + recidive once (its last)
    top_idx = [i for i, b in enumerate(bans) if b[2] == top]
    jail_pool = [j for j in jails]
    for k, i in enumerate(top_idx):
        j = "recidive" if k == len(top_idx) - 1 else "sshd"
        bans[i][1] = j
        jail_pool.remove(j)
    rng.shuffle(jail_pool)
    counts = {}
    earlier = []
    for b in bans:
        if b[1] is None:
            b[1] = jail_pool.pop()
        if b[2] is None:
            if b[1] == "recidive":
                cands = [ip for ip in earlier if counts.get(ip, 0) < 4]
                b[2] = rng.choice(cands) if cands else rng.choice(ips)
            else:
                cands = [ip for ip in ips if counts.get(ip, 0) < 4]
                b[2] = rng.choice(cands)
        counts[b[2]] = counts.get(b[2], 0) + 1
        earlier.append(b[2])
    for t, jail, ip in bans:
        if jail != "recidive":
            n_found = rng.randrange(3, 6)
            for k in range(n_found):
                tf = t - timedelta(seconds=(n_found - k) * rng.randrange(2, 25), milliseconds=rng.randrange(0, 999))
                log(tf, "fail2ban.filter", "INFO", f"[{jail}] Found {ip} - {tf.strftime('%Y-%m-%d %H:%M:%S')}")
        log(t, "fail2ban.actions", "NOTICE", f"[{jail}] Ban {ip}")
        bantime = {"sshd": 600, "caddy-auth": 3600, "exim": 1800}.get(jail)
        if bantime and t + timedelta(seconds=bantime) < at("14:59:59"):
            log(t + timedelta(seconds=bantime, milliseconds=rng.randrange(1, 400)), "fail2ban.actions", "NOTICE", f"[{jail}] Unban {ip}")
    for _ in range(90):
        t = rtime(rng, "12:00:10", "14:59:50")
        jail = rng.choice(["sshd", "caddy-auth", "exim"])
        ip = rng.choice(ips)
        log(t, "fail2ban.filter", "INFO", f"[{jail}] Found {ip} - {t.strftime('%Y-%m-%d %H:%M:%S')}")
    for _ in range(9):
        t = rtime(rng, "12:30:00", "14:50:00")
        log(t, "fail2ban.actions", "WARNING", f"[sshd] {rng.choice(ips)} already banned")
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# audit.log: auditd RAW log on mq-01 (epoch `msg=audit(SECONDS.mmm:SERIAL)`). Planted:
# failed sshd authentications x67, each a USER_AUTH and a USER_LOGIN record with
# res=failed (134 records), 192.0.2.211 the top source (19); key="sudoers-change" first at
# 12:44:18 (an ansible run), again 14:12:37 and 14:27:03.
def audit_log(rng):
    events = []

    def stamp(t):
        return f"{int(t.timestamp())}.{t.microsecond // 1000:03d}"

    def event(t, records):
        events.append((t, len(events), records))

    attackers = ["192.0.2.211"] * 19 + ["198.51.100.93"] * 12 + ["203.0.113.58"] * 8
    pool = ip_pool(rng, 20, ["192.0.2.211", "198.51.100.93", "203.0.113.58"], [45, 61, 91, 103, 141, 185, 193, 222])
    attackers += [ip for ip, k in zip(pool, spread(rng, 28, 20, 1, 3)) for _ in range(k)]
    assert len(attackers) == 67
    for ip in attackers:
        t = rtime(rng, "12:00:20", "14:59:40")
        pid = rng.randrange(40000, 60000)
        acct = rng.choice(["root", "admin", "ubuntu", "rabbitmq", "deploy", "oracle", "test"])
        base = f"pid={pid} uid=0 auid=4294967295 ses=4294967295 subj=unconfined"
        event(t, [("USER_AUTH", f"{base} msg='op=PAM:authentication grantors=? acct=\"{acct}\" exe=\"/usr/sbin/sshd\" hostname={ip} addr={ip} terminal=ssh res=failed'")])
        event(t + timedelta(milliseconds=rng.randrange(5, 60)),
              [("USER_LOGIN", f"{base} msg='op=login acct=\"{acct}\" exe=\"/usr/sbin/sshd\" hostname=? addr={ip} terminal=sshd res=failed'")])

    def session(t, user, uid, ses, addr):
        pid = rng.randrange(40000, 60000)
        base = f"pid={pid} uid=0 auid=4294967295 ses=4294967295 subj=unconfined"
        event(t, [("USER_AUTH", f"{base} msg='op=pubkey_auth grantors=auth-key acct=\"{user}\" exe=\"/usr/sbin/sshd\" hostname=? addr={addr} terminal=? res=success'")])
        event(t, [("USER_ACCT", f"{base} msg='op=PAM:accounting grantors=pam_permit acct=\"{user}\" exe=\"/usr/sbin/sshd\" hostname={addr} addr={addr} terminal=ssh res=success'")])
        base = f"pid={pid} uid=0 auid={uid} ses={ses} subj=unconfined"
        event(t, [("USER_START", f"{base} msg='op=PAM:session_open grantors=pam_selinux,pam_loginuid,pam_keyinit,pam_limits,pam_systemd,pam_unix acct=\"{user}\" exe=\"/usr/sbin/sshd\" hostname={addr} addr={addr} terminal=ssh res=success'")])
        event(t, [("USER_LOGIN", f"{base} msg='op=login id={uid} exe=\"/usr/sbin/sshd\" hostname={addr} addr={addr} terminal=/dev/pts/{ses % 5} res=success'")])

    def watch(t, uid, ses, comm, exe, path, key, syscall=257):
        pid = rng.randrange(40000, 60000)
        event(t, [("SYSCALL", f"arch=c000003e syscall={syscall} success=yes exit=3 a0=ffffff9c a1={hexid(rng, 12)} a2=241 a3=1b6 items=2 "
                              f"ppid={pid - rng.randrange(1, 40)} pid={pid} auid={uid} uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 "
                              f"tty={'pts1' if uid != 1001 else '(none)'} ses={ses} comm=\"{comm}\" exe=\"{exe}\" subj=unconfined key=\"{key}\""),
                  ("CWD", f"cwd=\"{'/root' if uid == 1001 else '/home/mira'}\""),
                  ("PATH", f"item=0 name=\"{path.rsplit('/', 1)[0]}/\" inode={rng.randrange(100000, 999999)} dev=fd:00 mode=040755 ouid=0 ogid=0 rdev=00:00 nametype=PARENT"),
                  ("PATH", f"item=1 name=\"{path}\" inode={rng.randrange(100000, 999999)} dev=fd:00 mode=0100440 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL"),
                  ("PROCTITLE", f"proctitle={(comm + ' ' + path).encode().hex().upper()}")])

    def sudo(t, user, uid, ses, cmd):
        pid = rng.randrange(40000, 60000)
        base = f"pid={pid} uid={uid} auid={uid} ses={ses} subj=unconfined"
        event(t, [("USER_ACCT", f"{base} msg='op=PAM:accounting grantors=pam_unix acct=\"{user}\" exe=\"/usr/bin/sudo\" hostname=? addr=? terminal=/dev/pts/1 res=success'")])
        event(t, [("USER_CMD", f"{base} msg='cwd=\"/home/{user}\" cmd={cmd.encode().hex().upper()} exe=\"/usr/bin/sudo\" terminal=pts/1 res=success'")])
        event(t, [("CRED_REFR", f"{base} msg='op=PAM:setcred grantors=pam_env,pam_unix acct=\"root\" exe=\"/usr/bin/sudo\" hostname=? addr=? terminal=/dev/pts/1 res=success'")])
        argv = cmd.split()
        event(t + timedelta(milliseconds=40), [
            ("SYSCALL", f"arch=c000003e syscall=59 success=yes exit=0 a0=55d{hexid(rng, 9)} a1=55d{hexid(rng, 9)} a2=55d{hexid(rng, 9)} a3=0 items=2 "
                        f"ppid={pid} pid={pid + 1} auid={uid} uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=pts1 ses={ses} "
                        f"comm=\"{argv[0].rsplit('/', 1)[-1][:15]}\" exe=\"{argv[0]}\" subj=unconfined key=\"privileged-exec\""),
            ("EXECVE", f"argc={len(argv)} " + " ".join(f'a{i}="{a}"' for i, a in enumerate(argv)))])

    session(at("12:44:02.310"), "ansible", 1001, 311, "10.8.0.2")
    watch(at("12:44:18.772"), 1001, 311, "python3", "/usr/bin/python3.12", "/etc/sudoers.d/90-ansible", "sudoers-change")
    watch(at("12:44:19.104"), 1001, 311, "python3", "/usr/bin/python3.12", "/etc/rabbitmq/rabbitmq.conf", "rabbit-conf")
    session(at("14:11:50.116"), "mira", 1004, 318, "10.8.0.14")
    sudo(at("14:12:21.540"), "mira", 1004, 318, "/usr/sbin/rabbitmqctl list_connections name peer_host state")
    watch(at("14:12:37.018"), 1004, 318, "visudo", "/usr/sbin/visudo", "/etc/sudoers.d/rabbit-ops", "sudoers-change")
    sudo(at("14:14:02.881"), "mira", 1004, 318, "/usr/sbin/rabbitmqctl set_vm_memory_high_watermark 0.6")
    watch(at("14:14:40.277"), 1004, 318, "vim", "/usr/bin/vim.basic", "/etc/rabbitmq/rabbitmq.conf", "rabbit-conf")
    sudo(at("14:17:55.392"), "mira", 1004, 318, "/usr/sbin/rabbitmqctl close_all_connections stale-publishers")
    watch(at("14:27:03.645"), 1004, 318, "visudo", "/usr/sbin/visudo", "/etc/sudoers.d/rabbit-ops", "sudoers-change")
    for minute in range(12 * 60, 15 * 60, 5):
        t = DAY + timedelta(minutes=minute, milliseconds=rng.randrange(1, 900))
        pid, ses = rng.randrange(40000, 60000), rng.randrange(9000, 9999)
        for typ, op in [("CRED_ACQ", "PAM:setcred grantors=pam_env,pam_unix"), ("LOGIN", None),
                        ("USER_START", "PAM:session_open grantors=pam_loginuid,pam_env,pam_keyinit,pam_limits,pam_unix"),
                        ("CRED_DISP", "PAM:setcred grantors=pam_env,pam_unix"),
                        ("USER_END", "PAM:session_close grantors=pam_loginuid,pam_env,pam_keyinit,pam_limits,pam_unix")]:
            if op is None:
                event(t, [("LOGIN", f"pid={pid} uid=0 subj=unconfined old-auid=4294967295 auid=0 tty=(none) old-ses=4294967295 ses={ses} res=1")])
            else:
                event(t, [(typ, f"pid={pid} uid=0 auid=0 ses={ses} subj=unconfined msg='op={op} acct=\"root\" exe=\"/usr/sbin/cron\" hostname=? addr=? terminal=cron res=success'")])
    for _ in range(70):
        t = rtime(rng, "12:00:20", "14:59:40")
        user, uid = rng.choice([("ops", 1002), ("deploy", 1003), ("ops", 1002)])
        session(t, user, uid, rng.randrange(200, 310), f"10.8.0.{rng.randrange(3, 13)}")
    for _ in range(40):
        t = rtime(rng, "12:00:20", "14:59:40")
        event(t, [("SERVICE_START" if rng.random() < 0.5 else "SERVICE_STOP",
                   f"pid=1 uid=0 auid=4294967295 ses=4294967295 subj=unconfined msg='unit={rng.choice(['sysstat-collect', 'logrotate', 'man-db', 'apt-daily', 'fstrim'])} comm=\"systemd\" exe=\"/usr/lib/systemd/systemd\" hostname=? addr=? terminal=? res=success'")])
    events.sort(key=lambda e: (e[0], e[1]))
    lines, serial = [], 88100
    for t, _, records in events:
        serial += rng.randrange(1, 4)
        for typ, body in records:
            lines.append(f"type={typ} msg=audit({stamp(t)}:{serial}): {body}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# es-search-slowlog.log: Elasticsearch 7 search slow log (plain text). Planted: WARN x77
# (es-data-2 logs the most); the slowest took_millis 23916 on orders-2028.01 (es-data-3),
# then 17402 on recipes-v2 (es-data-1), then 15088 on products-v7 (es-data-2), the 4th under
# 14000; products-v7 has the most entries.
def es_slowlog(rng):
    out = []
    nodes = ["es-data-1", "es-data-2", "es-data-3"]
    queries = {
        "products-v7": ['{"size":24,"query":{"bool":{"must":[{"multi_match":{"query":"%s","fields":["name^3","brand","tags"]}}],"filter":[{"term":{"in_stock":true}}]}}}',
                        '{"size":0,"aggs":{"by_brand":{"terms":{"field":"brand.keyword","size":50}}},"query":{"match":{"category":"%s"}}}'],
        "recipes-v2": ['{"size":12,"query":{"match_phrase":{"ingredients":"%s"}},"sort":[{"rating":"desc"}]}'],
        "orders-2028.01": ['{"size":500,"query":{"bool":{"filter":[{"range":{"placed_at":{"gte":"now-30d"}}},{"term":{"status":"%s"}}]}},"sort":[{"placed_at":"desc"}]}'],
        "riders-locations": ['{"size":50,"query":{"geo_distance":{"distance":"%s","location":{"lat":51.5,"lon":-0.1}}}}'],
    }
    words = {"products-v7": ["oat milk", "gluten free", "organic eggs", "vegan cheese", "coffee", "nappies", "tofu"],
             "recipes-v2": ["chickpeas", "salmon", "spinach", "lentils"], "orders-2028.01": ["delivered", "cancelled", "refunded"],
             "riders-locations": ["2km", "5km"]}

    def log(t, ms, index, node, phase="query", level=None):
        level = level or ("WARN" if ms >= 2000 else "INFO" if ms >= 1000 else "DEBUG" if ms >= 500 else "TRACE")
        took = f"{ms // 100 / 10:.1f}s" if ms >= 1000 else f"{ms}ms"
        src = rng.choice(queries[index]) % rng.choice(words[index])
        ts = t.strftime("%Y-%m-%dT%H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        shards = {"products-v7": 6, "recipes-v2": 2, "orders-2028.01": 3, "riders-locations": 1}[index]
        out.append((t, len(out), f"[{ts}][{level:<5}][index.search.slowlog.{phase}] [{node}] [{index}][{rng.randrange(shards)}] "
                                 f"took[{took}], took_millis[{ms}], total_hits[{rng.randrange(0, 40000)} hits], types[], stats[], "
                                 f"search_type[QUERY_THEN_FETCH], total_shards[{shards}], source[{src}], id[{rng.choice(['storefront', 'ops-dashboard', 'rider-app', ''])}], "))

    log(at("14:09:41.220"), 23916, "orders-2028.01", "es-data-3")
    log(at("13:36:05.871"), 17402, "recipes-v2", "es-data-1")
    log(at("13:37:12.118"), 15088, "products-v7", "es-data-2")
    # WARN (>= 2 s): 74 more, es-data-2 the node with the most
    warn_nodes = ["es-data-2"] * 34 + ["es-data-1"] * 22 + ["es-data-3"] * 18
    for node in warn_nodes:
        index = rng.choices(["products-v7", "recipes-v2", "orders-2028.01", "riders-locations"], [6, 2, 2, 1])[0]
        log(rtime(rng, "12:00:30", "14:59:30"), rng.randrange(2000, 13900), index, node)
    while len(out) < 600:
        index = rng.choices(["products-v7", "recipes-v2", "orders-2028.01", "riders-locations"], [6, 3, 2, 2])[0]
        ms = rng.choice([rng.randrange(200, 500), rng.randrange(500, 1000), rng.randrange(1000, 1990)])
        log(rtime(rng, "12:00:30", "14:59:30"), ms, index, rng.choice(nodes), rng.choice(["query", "query", "query", "fetch"]))
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# riders-gw.log: nginx with a custom pipe-separated log_format for the riders' app:
# `$time_iso8601|$remote_addr|$request_method|$host|$request_uri|$status|$body_bytes_sent|
# $request_time|$upstream_response_time|$http_x_rider_id`, 2,500 requests 12:00-15:00.
# Planted: 5xx x143 (12:xx 21, 13:xx 38, 14:xx 84); 429 x73, R-30877 the top rider (41);
# request_time p99 = 3.206 (a plateau).
def riders_gw(rng):
    ev = []
    riders = [f"R-{rng.randrange(30000, 31999)}" for _ in range(260)]
    riders = sorted(set(riders) - {"R-30877"})
    addrs = {r: f"100.{rng.randrange(64, 128)}.{rng.randrange(256)}.{rng.randrange(1, 255)}" for r in riders + ["R-30877"]}

    def add(t, m, p, s, rider=None, rt=None):
        rider = rider or rng.choice(riders)
        ev.append({"t": t, "m": m, "p": p, "s": s, "rider": rider, "rt": rt})

    def order():
        return rng.randrange(7000000, 7999999)

    fives = {12: 21, 13: 38, 14: 84}
    for h, k in fives.items():
        for i in range(k):
            if h == 14 and i < 60:
                t = rtime(rng, "14:07:00", "14:20:00")
            else:
                t = rtime(rng, f"{h}:00:05", f"{h}:59:55")
            m, p = rng.choice([("POST", f"/v2/orders/{order()}/pickup"), ("POST", f"/v2/orders/{order()}/delivered"),
                               ("GET", "/v2/jobs/next")])
            add(t, m, p, rng.choice([502, 502, 503, 504]), rt=rng.randrange(1, 900) / 1000)
    for i in range(73):
        rider = "R-30877" if i < 41 else None
        add(rtime(rng, "12:00:30", "14:59:30"), "POST", "/v2/riders/location", 429, rider=rider, rt=0.0)
    # other riders' 429s: at most 2 each
    seen = {}
    for e in ev:
        if e["s"] == 429 and e["rider"] != "R-30877":
            while seen.get(e["rider"], 0) >= 2:
                e["rider"] = rng.choice(riders)
            seen[e["rider"]] = seen.get(e["rider"], 0) + 1
    bg = [("POST", "/v2/riders/location", 40), ("GET", "/v2/jobs/next", 14), ("POST", "pickup", 6), ("POST", "delivered", 6),
          ("GET", "/v2/riders/me", 3), ("POST", "/v2/riders/shift/start", 1), ("GET", "route", 4)]
    while len(ev) < 2500:
        m, p, _ = rng.choices(bg, [w for *_, w in bg])[0]
        p = {"pickup": f"/v2/orders/{order()}/pickup", "delivered": f"/v2/orders/{order()}/delivered",
             "route": f"/v2/orders/{order()}/route?mode=bike"}.get(p, p)
        s = 204 if p == "/v2/riders/location" else 200
        if "/orders/" in p and rng.random() < 0.03:
            s = 409
        add(rtime(rng, "12:00:01", "14:59:58"), m, p, s)
    fixed = [e for e in ev if e["rt"] is not None]
    assert all(e["rt"] < 3.206 for e in fixed)
    rest = [e for e in ev if e["rt"] is None]
    n_low, n_plat = 2455 - len(fixed), 40
    vals = plateau_pool(rng, n_low, n_plat, len(rest) - n_low - n_plat, 3206,
                        lambda: rng.choice([rng.randrange(1, 40), rng.randrange(2, 300), rng.randrange(20, 3205)]),
                        lambda: rng.randrange(3207, 9800))
    for e, v in zip(rest, vals):
        e["rt"] = v / 1000
    ev.sort(key=lambda e: e["t"])
    lines = []
    for e in ev:
        size = 0 if e["s"] in (204,) else rng.randrange(150, 4000) if e["s"] < 300 else rng.randrange(100, 600)
        urt = "-" if e["s"] == 429 else f"{max(0.0, e['rt'] - rng.randrange(0, 3) / 1000):.3f}"
        lines.append(f"{e['t'].strftime('%Y-%m-%dT%H:%M:%S+00:00')}|{addrs[e['rider']]}|{e['m']}|riders.amberline.example|"
                     f"{e['p']}|{e['s']}|{size}|{e['rt']:.3f}|{urt}|{e['rider']}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# basket-svc.ecs.json: Elastic Common Schema JSON (ecs-logging-java style: dotted top-level
# keys such as "log.level", "url.path", "user.id", "event.duration" in ns, beside a nested
# "http" object). Planted: ERROR x188: AmqpBlockedException 121 (all 14:07-14:19:37, the
# last at 14:19:37), ReservationConflict 38, UpstreamTimeout 29; peak error minute 14:13;
# the largest event.duration 9387402113 ns on /v1/basket/checkout.
def basket_ecs(rng):
    ev = []
    users = [f"c-{rng.randrange(400000, 499999)}" for _ in range(1200)]

    def add(t, level, msg, path, method, status, dur, user, logger, err=None):
        ev.append({"t": t, "level": level, "msg": msg, "path": path, "method": method, "status": status, "dur": dur,
                   "user": user, "logger": logger, "err": err})

    paths = [("/v1/basket/items", "POST"), ("/v1/basket", "GET"), ("/v1/basket/checkout", "POST"),
             ("/v1/basket/items/{id}", "DELETE"), ("/v1/basket/slot", "PUT")]
    amqp = {"14:07": 4, "14:08": 7, "14:09": 9, "14:10": 11, "14:11": 12, "14:12": 13, "14:13": 19, "14:14": 12,
            "14:15": 10, "14:16": 9, "14:17": 7, "14:18": 5, "14:19": 3}
    for minute, k in amqp.items():
        for i in range(k):
            if minute == "14:19" and i == 0:
                t = at("14:19:37.204")
            elif minute == "14:19":
                t = rtime(rng, "14:19:00", "14:19:36")
            else:
                t = in_minute(rng, minute)
            path, m = rng.choice(paths[:3] + paths[4:])
            add(t, "ERROR", "publish to exchange 'basket.events' failed: connection blocked by broker", path, m, 503,
                rng.randrange(2000000, 90000000), rng.choice(users), "com.amberline.basket.events.EventPublisher",
                ("com.amberline.basket.mq.AmqpBlockedException", "Connection blocked: low on memory (rabbit@mq-01)"))
    for _ in range(38):
        path, m = ("/v1/basket/slot", "PUT")
        add(rtime(rng, "12:01:00", "14:59:00"), "ERROR", "slot reservation rejected", path, m, 409,
            rng.randrange(20000000, 400000000), rng.choice(users), "com.amberline.basket.slots.SlotReserver",
            ("com.amberline.basket.slots.ReservationConflict", "slot already held by another basket"))
    for _ in range(29):
        add(rtime(rng, "12:01:00", "14:59:00"), "ERROR", "catalog price lookup timed out", "/v1/basket/items", "POST", 504,
            rng.randrange(5000000000, 5100000000), rng.choice(users), "com.amberline.basket.catalog.PriceClient",
            ("com.amberline.basket.catalog.UpstreamTimeout", "GET http://catalog-svc/v1/prices timed out after 5000 ms"))
    add(at("14:15:22.640"), "WARN", "checkout completed slowly", "/v1/basket/checkout", "POST", 200, 9387402113,
        rng.choice(users), "com.amberline.basket.api.CheckoutController")
    for _ in range(40):
        add(rtime(rng, "12:01:00", "14:59:00"), "WARN", "basket total recalculated after price change", "/v1/basket", "GET", 200,
            rng.randrange(3000000, 80000000), rng.choice(users), "com.amberline.basket.pricing.Repricer")
    msgs = {"/v1/basket/items": "item added", "/v1/basket": "basket fetched", "/v1/basket/checkout": "checkout completed",
            "/v1/basket/items/{id}": "item removed", "/v1/basket/slot": "delivery slot held"}
    while len(ev) < 900:
        path, m = rng.choices(paths, [5, 8, 2, 2, 2])[0]
        dur = rng.choice([rng.randrange(1500000, 60000000), rng.randrange(10000000, 400000000), rng.randrange(50000000, 2500000000)])
        add(rtime(rng, "12:00:05", "14:59:55"), "INFO", msgs[path], path, m, 201 if m == "POST" and path.endswith("items") else 200,
            dur, rng.choice(users), "com.amberline.basket.api.BasketController")
    ev.sort(key=lambda e: e["t"])
    lines = []
    for e in ev:
        ts = e["t"].strftime("%Y-%m-%dT%H:%M:%S.") + f"{e['t'].microsecond // 1000:03d}Z"
        d = {"@timestamp": ts, "log.level": e["level"], "message": e["msg"], "ecs.version": "1.2.0", "service.name": "basket-svc",
             "service.version": "4.31.0", "event.dataset": "basket-svc.app", "process.thread.name": f"http-nio-8080-exec-{rng.randrange(1, 40)}",
             "log.logger": e["logger"], "trace.id": hexid(rng, 32),
             "http": {"request": {"method": e["method"]}, "response": {"status_code": e["status"]}},
             "url.path": e["path"], "user.id": e["user"], "event.duration": e["dur"]}
        if e["err"]:
            d["error.type"], d["error.message"] = e["err"]
        lines.append(json.dumps(d, separators=(",", ":")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# storefront-production.log: Rails 7 production log (Ruby Logger format `I, [time #pid]
# INFO -- : [request-id] msg`, requests interleaved across puma workers). Planted: Completed
# 500 x106: BasketClient::UpstreamError 27 (14:08-14:19), Faraday::ConnectionFailed 74 (first
# 14:32:10, all in 14:32-14:38: the only 500s of the last 30 minutes), ActionView::Template::
# Error 5 (before 14:05); the
# slowest request Completed in 12408ms (OrdersController#invoice).
def rails_log(rng):
    out = []
    pids = [2412, 2419, 2431, 2440]
    actions = [("GET", "/", "HomeController#index", "HTML"), ("GET", "/cart", "CartsController#show", "HTML"),
               ("GET", "product", "ProductsController#show", "HTML"), ("GET", "search", "SearchController#index", "HTML"),
               ("POST", "/checkout", "CheckoutsController#create", "HTML"), ("GET", "/account/orders", "OrdersController#index", "HTML"),
               ("POST", "/cart/items", "CartItemsController#create", "TURBO_STREAM")]

    def log(t, sev, pid, rid, msg):
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.%f")
        out.append((t, len(out), f"{sev[0]}, [{ts} #{pid}] {sev:>5} -- : [{rid}] {msg}"))

    def request(t, m, path, action, fmt, status, ms, err=None):
        pid, rid = rng.choice(pids), uuid4(rng)
        ip = f"10.42.1.{rng.choice([9, 10, 11])}"
        log(t, "INFO", pid, rid, f'Started {m} "{path}" for {ip} at {t.strftime("%Y-%m-%d %H:%M:%S")} +0000')
        log(t + timedelta(microseconds=rng.randrange(300, 2000)), "INFO", pid, rid, f"Processing by {action} as {fmt}")
        if m == "POST":
            log(t + timedelta(microseconds=rng.randrange(2000, 2500)), "INFO", pid, rid,
                '  Parameters: {"authenticity_token"=>"[FILTERED]", "commit"=>"Place order"}' if "checkout" in path
                else '  Parameters: {"authenticity_token"=>"[FILTERED]", "sku"=>"' + rng.choice(PRODUCTS) + '", "qty"=>"1"}')
        t_end = t + timedelta(milliseconds=ms)
        text = {200: "OK", 302: "Found", 404: "Not Found", 500: "Internal Server Error", 422: "Unprocessable Entity"}[status]
        ar = ms * rng.randrange(5, 40) / 100
        if status == 500:
            log(t_end, "INFO", pid, rid, f"Completed 500 Internal Server Error in {ms}ms (ActiveRecord: {ar:.1f}ms | Allocations: {rng.randrange(2000, 90000)})")
            log(t_end, "ERROR", pid, rid, "  ")
            log(t_end, "ERROR", pid, rid, err[0])
            log(t_end, "ERROR", pid, rid, "  ")
            for frame in err[1]:
                log(t_end, "ERROR", pid, rid, frame)
        else:
            views = f"Views: {ms * rng.randrange(20, 60) / 100:.1f}ms | " if status == 200 else ""
            log(t_end, "INFO", pid, rid, f"Completed {status} {text} in {ms}ms ({views}ActiveRecord: {ar:.1f}ms | Allocations: {rng.randrange(2000, 90000)})")

    basket_err = ("BasketClient::UpstreamError (POST http://basket-svc/v1/basket/items returned 503: connection blocked by broker):",
                  ["app/clients/basket_client.rb:58:in `post!'", "app/controllers/cart_items_controller.rb:14:in `create'"])
    dns_err = ("Faraday::ConnectionFailed (Failed to open TCP connection to api.paywell.example:443 (getaddrinfo: Temporary failure in name resolution)):",
               ["app/services/paywell_client.rb:41:in `authorize'", "app/controllers/checkouts_controller.rb:27:in `create'"])
    view_err = ("ActionView::Template::Error (undefined method `name' for nil):",
                ["app/views/products/_substitutes.html.erb:7", "app/views/products/show.html.erb:42"])
    for _ in range(27):
        request(rtime(rng, "14:08:00", "14:19:50"), "POST", "/cart/items", "CartItemsController#create", "TURBO_STREAM", 500,
                rng.randrange(30, 400), basket_err)
    request(at("14:32:05.118"), "POST", "/checkout", "CheckoutsController#create", "HTML", 500, 5012, dns_err)
    for _ in range(73):
        request(rtime(rng, "14:32:10", "14:38:40"), "POST", "/checkout", "CheckoutsController#create", "HTML", 500,
                rng.randrange(5001, 5030), dns_err)
    for _ in range(5):
        request(rtime(rng, "12:03:00", "14:05:00"), "GET", f"/products/{rng.choice(PRODUCTS)}",
                "ProductsController#show", "HTML", 500, rng.randrange(40, 300), view_err)
    request(at("13:47:22.905"), "GET", "/account/orders/7711203/invoice.pdf", "OrdersController#invoice", "PDF", 200, 12408)
    request(at("12:00:00.512"), "GET", "/up", "Rails::HealthController#show", "HTML", 200, 1)
    request(at("14:59:55.004"), "GET", "/up", "Rails::HealthController#show", "HTML", 200, 1)
    while len(out) < 2000:
        m, path, action, fmt = rng.choices(actions, [4, 6, 10, 5, 2, 2, 4])[0]
        path = {"product": f"/products/{rng.choice(PRODUCTS)}", "search": f"/search?q={rng.choice(SEARCHES)}"}.get(path, path)
        status = 302 if m == "POST" else 200
        if path.startswith("/products/") and rng.random() < 0.04:
            status = 404
        ms = rng.choice([rng.randrange(8, 120), rng.randrange(40, 600), rng.randrange(200, 3800)])
        request(rtime(rng, "12:00:02", "14:59:40"), m, path, action, fmt, status, ms)
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"
