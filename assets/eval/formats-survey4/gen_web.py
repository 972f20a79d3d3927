"""Web proxies/caches: Traefik JSON access log, Envoy default access log, varnishncsa."""
import json
import random
import uuid
from datetime import datetime, timedelta, timezone

from common import UTC, go_frac, write_log

UAS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0",
    "curl/8.5.0",
    "okhttp/4.12.0",
    "Go-http-client/1.1",
    "python-requests/2.31.0",
]


def traefik():
    rng = random.Random(4101)
    t = datetime(2024, 3, 12, 8, 0, 0, 120000, tzinfo=UTC)
    routers = [
        ("api@docker", "api@docker", "http://172.18.0.5:8080", "api.example.com",
         ["/api/v1/orders", "/api/v1/users/me", "/api/v1/cart", "/api/v1/search"]),
        ("web@docker", "web@docker", "http://172.18.0.6:3000", "www.example.com",
         ["/", "/static/app.js", "/static/app.css", "/login", "/products"]),
        ("auth@file", "auth@file", "http://10.0.2.10:9000", "auth.example.com",
         ["/oauth/token", "/oauth/authorize", "/userinfo"]),
    ]
    clients = ["198.51.100.%d" % rng.randint(2, 250) for _ in range(50)]
    clients += ["203.0.113.%d" % rng.randint(2, 250) for _ in range(20)]
    lines = []
    for i in range(1500):
        t += timedelta(microseconds=rng.randint(20000, 2500000))
        router, service, url, host, paths = rng.choices(routers, [5, 8, 2])[0]
        path = rng.choice(paths)
        method = "POST" if path in ("/oauth/token", "/api/v1/cart") and rng.random() < 0.7 else \
            rng.choices(["GET", "POST", "PUT", "DELETE"], [85, 8, 4, 3])[0]
        status = rng.choices([200, 201, 204, 301, 304, 400, 401, 404], [70, 4, 3, 2, 8, 3, 3, 4])[0]
        dur = int(rng.lognormvariate(16.5, 0.8))  # ns, median ~15ms
        origin_status = status
        if 600 <= i < 690 and router == "auth@file":  # auth backend down
            status, origin_status, dur = 502, 0, int(rng.uniform(0.3e6, 3e6))
        elif 1000 <= i < 1120 and router == "api@docker":  # api slow, some timeouts
            dur = int(rng.uniform(1.5e9, 9e9))
            if rng.random() < 0.3:
                status, origin_status, dur = 504, 0, int(30e9 + rng.randint(0, 9e6))
        elif rng.random() < 0.006:
            status = origin_status = 500
        overhead = int(rng.uniform(40e3, 600e3))
        size = 0 if status in (204, 304, 502, 504) else rng.randint(200, 60000)
        client = rng.choice(clients)
        cport = str(rng.randint(1025, 65535))
        start = t - timedelta(microseconds=dur // 1000)
        sns = rng.randint(0, 999)
        rec = {
            "ClientAddr": "%s:%s" % (client, cport), "ClientHost": client, "ClientPort": cport,
            "ClientUsername": "-", "DownstreamContentSize": size, "DownstreamStatus": status,
            "Duration": dur, "OriginContentSize": size if origin_status else 0,
            "OriginDuration": max(dur - overhead, 0), "OriginStatus": origin_status,
            "Overhead": overhead, "RequestAddr": host, "RequestContentSize": 0 if method == "GET" else rng.randint(20, 4000),
            "RequestCount": i + 1, "RequestHost": host, "RequestMethod": method, "RequestPath": path,
            "RequestPort": "-", "RequestProtocol": "HTTP/2.0" if rng.random() < 0.6 else "HTTP/1.1",
            "RequestScheme": "https", "RetryAttempts": 0 if origin_status else rng.choice([0, 1, 2]),
            "RouterName": router, "ServiceAddr": url[7:], "ServiceName": service, "ServiceURL": url,
            "StartLocal": start.strftime("%Y-%m-%dT%H:%M:%S") + go_frac(start, sns) + "Z",
            "StartUTC": start.strftime("%Y-%m-%dT%H:%M:%S") + go_frac(start, sns) + "Z",
            "TLSCipher": "TLS_AES_128_GCM_SHA256", "TLSVersion": "1.3",
            "entryPointName": "websecure", "level": "info", "msg": "",
            "time": t.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        if origin_status == 0:
            del rec["ServiceAddr"]
        lines.append(json.dumps(rec, sort_keys=True, separators=(",", ":")))
    write_log("traefik_access.json", lines)


def envoy():
    rng = random.Random(4102)
    t = datetime(2024, 3, 13, 14, 0, 0, 5000, tzinfo=UTC)
    routes = [("shop.internal:8080", ["10.1.7.15:8080", "10.1.7.16:8080", "10.1.7.17:8080"],
               ["/api/v1/products", "/api/v1/products/%d", "/api/v1/cart", "/healthz"]),
              ("payments.internal:9090", ["10.1.9.4:9090", "10.1.9.5:9090"],
               ["/v2/charge", "/v2/refund", "/v2/status/%d"]),
              ("catalog.internal:8000", ["10.1.8.21:8000"], ["/catalog/items", "/catalog/items/%d"])]
    xffs = ["10.1.4.%d" % rng.randint(2, 200) for _ in range(40)]
    lines = []
    for i in range(1800):
        t += timedelta(microseconds=rng.randint(5000, 1500000))
        auth, hosts, paths = rng.choices(routes, [6, 2, 3])[0]
        p = rng.choice(paths)
        if "%d" in p:
            p = p % rng.randint(1, 9999)
        if p.endswith("products") and rng.random() < 0.4:
            p += "?page=%d" % rng.randint(1, 20)
        method = "POST" if p.startswith("/v2/charge") or p.startswith("/v2/refund") or p == "/api/v1/cart" else "GET"
        status = rng.choices([200, 201, 204, 304, 400, 404], [80, 3, 2, 6, 3, 4])[0]
        flags = "-"
        dur = max(1, int(rng.lognormvariate(2.8, 0.6)))
        ust = str(max(0, dur - rng.randint(0, 3)))
        uhost = rng.choice(hosts)
        rx = 0 if method == "GET" else rng.randint(50, 2000)
        tx = rng.randint(100, 40000)
        if 700 <= i < 760 and auth.startswith("payments"):  # payments pool empty
            status, flags, dur, ust, uhost, tx = 503, "UH", 0, "-", "-", 19
        elif 1300 <= i < 1420 and auth.startswith("catalog"):  # catalog overloaded
            if rng.random() < 0.5:
                status, flags, dur, ust, tx = 504, "UT", 15000 + rng.randint(0, 4), "-", 24
            else:
                dur = rng.randint(2000, 14000)
                ust = str(dur - 1)
        elif rng.random() < 0.004:
            status, flags, ust, tx = 503, "UF,URX", "-", 91
            dur = rng.randint(1000, 3000)
        elif rng.random() < 0.004:
            status, flags, ust, tx, uhost = 0, "DC", "-", 0, uhost
        elif 1500 <= i < 1530:
            status, flags, dur, ust, uhost, tx = 429, "RL", 0, "-", "-", 18
        if status == 304:
            tx = 0
        xff = rng.choice(xffs)
        ua = rng.choice(UAS)
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)
        lines.append('[%s] "%s %s HTTP/1.1" %d %s %d %d %d %s "%s" "%s" "%s" "%s" "%s"' % (
            ts, method, p, status, flags, rx, tx, dur, ust, xff, ua,
            str(uuid.UUID(int=rng.getrandbits(128), version=4)), auth, uhost))
    write_log("envoy_access.log", lines)


def varnishncsa():
    rng = random.Random(4103)
    tz = timezone(timedelta(hours=1))
    t = datetime(2024, 3, 14, 6, 0, 0, tzinfo=tz)
    clients = ["192.0.2.%d" % rng.randint(2, 254) for _ in range(70)] + ["2001:db8::%x" % rng.randint(1, 4000) for _ in range(10)]
    paths = ["/", "/products/%d", "/images/p%d.jpg", "/css/site.css", "/js/bundle.js", "/search?q=shoes",
             "/blog/2024/03/spring-sale", "/wp-login.php", "/admin/orders", "/favicon.ico"]
    users = ["-"] * 40 + ["editor", "mkt-bot"]
    lines = []
    for i in range(1700):
        t += timedelta(milliseconds=rng.randint(50, 4000))
        p = rng.choice(paths)
        if "%d" in p:
            p = p % rng.randint(1, 500)
        user = "-"
        if p.startswith("/admin"):
            user = rng.choice(users[-2:]) if rng.random() < 0.9 else "-"
        status = rng.choices([200, 304, 301, 404, 206], [70, 18, 3, 5, 1])[0]
        if p == "/wp-login.php":
            status = 404
        if p.startswith("/admin") and user == "-":
            status = 401
        if 900 <= i < 980 and rng.random() < 0.6:  # backend fetch failures
            status = 503
        elif rng.random() < 0.003:
            status = 500
        size = "-" if status == 304 else str(rng.randint(300, 250000) if status in (200, 206) else rng.randint(200, 900))
        ref = rng.choice(["-", "https://www.example.com/", "https://www.google.com/", "https://www.example.com/products/12"])
        ts = t.strftime("%d/%b/%Y:%H:%M:%S %z")
        lines.append('%s - %s [%s] "%s http://www.example.com%s HTTP/1.1" %d %s "%s" "%s"' % (
            rng.choice(clients), user, ts, "POST" if p == "/wp-login.php" and rng.random() < 0.5 else "GET",
            p, status, size, ref, rng.choice(UAS)))
    write_log("varnishncsa.log", lines)


def run():
    traefik()
    envoy()
    varnishncsa()
