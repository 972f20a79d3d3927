"""Writers of the `queries-heldout5` fixtures (one function a format), seeded. The set's world:
Quillon Charge, a UK network of EV charging stations, on Thursday 2030-03-14 between 07:00
and 10:00 UTC.

The storyline: at 08:40:12 a `deploy` migration on pg-main-01 takes an ACCESS EXCLUSIVE lock
on `tariff_windows`; PostgreSQL backends queue behind it (the first "still waiting for" at
08:40:14), statements are cancelled by lock timeouts, connection slots run out, and
ledger-svc's Hikari pool times out (the first SQLTransientConnectionException at 08:41:05).
HAProxy's be_ledger answers 504 and 503 and Traefik answers 502 for charge-api. From
08:49:58 Redis's disk is slow (AOF fsync is taking too long), the ocpp-gw publisher fails
(08:50:03), its readiness probes fail and kubelet backs it off (CrashLoopBackOff from
08:53:20); the tariff-worker container times out on Redis (08:50:27). A second attempt of the
migration at 09:36 brings a second burst of lock timeouts. The IIS fleet portal, the MySQL
fleet database's slow log carry their own figures beside it.

Each writer plants the figures the cases ask about (named in the comments) into background
traffic and returns the file's text. The cases' truth is not taken from here: `truth.py`
parses the written text again and `gen.py` asserts the two agree.
"""

import json
from datetime import datetime, timedelta, timezone

UTC = timezone.utc
DAY = datetime(2030, 3, 14, tzinfo=UTC)


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
    lens = [secs(b) - secs(a) for a, b in ranges]
    a, b = rng.choices(ranges, lens)[0]
    return rtime(rng, a, b)


def in_minute(rng, hhmm, lo="00", hi="59.9"):
    return rtime(rng, f"{hhmm}:{lo}", f"{hhmm}:{hi}")


def minute_plan(rng, plan):
    """One time per planted event: `plan` maps "HH:MM" to how many fall in that minute."""
    return [in_minute(rng, m) for m, k in plan.items() for _ in range(k)]


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
    assert n * lo <= total <= n * hi
    counts = [rng.randrange(lo, hi + 1) for _ in range(n)]
    while sum(counts) != total:
        i = rng.randrange(n)
        step = 1 if sum(counts) < total else -1
        if lo <= counts[i] + step <= hi:
            counts[i] += step
    return counts


def exact_sum(rng, n, total, lo, hi, draw):
    """n integers in [lo, hi] (drawn by draw(), then nudged) summing to exactly `total`."""
    vals = [min(hi, max(lo, draw())) for _ in range(n)]
    diff = total - sum(vals)
    while diff:
        i = rng.randrange(n)
        if diff > 0:
            step = min(diff, hi - vals[i], rng.randrange(1, 40))
        else:
            step = max(diff, lo - vals[i], -rng.randrange(1, 40))
        vals[i] += step
        diff -= step
    assert sum(vals) == total and all(lo <= v <= hi for v in vals)
    return vals


def plateau_pool(rng, n_low, n_plateau, n_high, value, low, high):
    """n_low values drawn by low(), n_plateau equal to `value`, n_high drawn by high(); shuffled.
    Percentiles inside the plateau agree by any definition."""
    pool = [low() for _ in range(n_low)] + [value] * n_plateau + [high() for _ in range(n_high)]
    assert all(v < value for v in pool[:n_low]) and all(v > value for v in pool[n_low + n_plateau:])
    rng.shuffle(pool)
    return pool


BROWSER_UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/158.0.0.0 Safari/537.36",
               "Mozilla/5.0 (Macintosh; Intel Mac OS X 17_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/23.2 Safari/605.1.15",
               "Mozilla/5.0 (X11; Linux x86_64; rv:162.0) Gecko/20100101 Firefox/162.0"]
APP_UAS = ["QuillonCharge/7.4.2 (iPhone; iOS 23.3; Scale/3.00)", "QuillonCharge/7.4.2 (Android 19; Pixel 12)",
           "QuillonCharge/7.3.9 (Android 18; SM-S958B)", "okhttp/5.3.0"]
SITES = [("LDS", "leeds-kirkstall"), ("MAN", "manchester-ancoats"), ("YRK", "york-clifton"),
         ("SHF", "sheffield-kelham"), ("BRD", "bradford-cityparc"), ("HUL", "hull-marina")]


# ---------------------------------------------------------------------------------------
# haproxy.log: HAProxy 2.8 HTTP log through rsyslog (`Mon DD HH:MM:SS host haproxy[pid]:`, the
# accept date inside brackets, Tq/Tw/Tc/Tr/Ta timers, termination state), 2,400 requests
# (and two maintenance notices). The syslog time is when the line was written (accept + Ta).
# Planted: 504 x138 (`sH--`, Ta ~30 s, be_ledger: ledger-02 x70, ledger-01 x40, ledger-03
# x28); 503 x171 (`sC--`, ledger-02 x60, ledger-01 x58, ledger-03 x53), 149 of them accepted
# in 08:45:05-09:14:50 and none in 08:40-08:45 or 09:15-09:20; auth-01/02 500 x14/x9 (so
# ledger-02 has the most 5xx, 130); be_charge_api exactly 1,200 requests, none 5xx, Ta p95 =
# 1840 ms (a plateau).
def haproxy_log(rng):
    clients = ip_pool(rng, 900, [], [2, 5, 31, 46, 62, 77, 81, 86, 94, 109, 151, 176, 185, 212])
    weights = [1.0 / (i + 20) ** 0.8 for i in range(len(clients))]
    ev = []

    def add(t, be, srv, method, path, status, timers, term="----", size=None, retries=0):
        ev.append({"t": t, "be": be, "srv": srv, "m": method, "p": path, "s": status, "timers": timers, "term": term,
                   "size": size, "retries": retries})

    def ledger_call():
        return rng.choice([("POST", f"/v1/settlements/INV-2030-03{rng.randrange(10000, 99999)}"),
                           ("GET", f"/v1/invoices/INV-2030-03{rng.randrange(10000, 99999)}"),
                           ("POST", "/v1/invoices"), ("GET", f"/v1/accounts/{rng.randrange(100000, 999999)}/balance")])

    s504 = ["ledger-02"] * 70 + ["ledger-01"] * 40 + ["ledger-03"] * 28
    rng.shuffle(s504)
    s504.remove("ledger-02")
    add(at("08:41:37.204000"), "be_ledger", "ledger-02", "POST", "/v1/settlements/INV-2030-0318812", 504,
        (0, 0, 1, -1, 30001), "sH--", 194)
    for i, srv in enumerate(s504):
        t = rtime(rng, "08:41:40", "09:12:00") if i < 125 else rtime(rng, "09:25:00", "09:55:00")
        m, p = ledger_call()
        add(t, "be_ledger", srv, m, p, 504, (0, 0, rng.randrange(0, 3), -1, 30000 + rng.randrange(0, 9)), "sH--", 194)
    s503 = ["ledger-02"] * 60 + ["ledger-01"] * 58 + ["ledger-03"] * 53
    rng.shuffle(s503)
    for i, srv in enumerate(s503):
        t = rtime(rng, "08:45:05", "09:14:50") if i < 149 else rtime_in(rng, [("07:05:00", "08:35:00"), ("09:25:00", "09:55:00")])
        m, p = ledger_call()
        add(t, "be_ledger", srv, m, p, 503, (0, 0, -1, -1, 3000 + rng.randrange(0, 12)), "sC--", 217, retries=3)
    for srv, k in (("auth-01", 14), ("auth-02", 9)):
        for _ in range(k):
            add(rtime(rng, "07:02:00", "09:58:00"), "be_auth", srv, "POST", "/oauth/token", 500,
                (0, 0, 1, rng.randrange(20, 400), 0), "----", rng.randrange(180, 260))
    # be_charge_api: 1,200 requests; Ta at sorted ranks 1125-1154 (0-based) is 1840
    ta = plateau_pool(rng, 1125, 30, 45, 1840,
                      lambda: rng.choice([rng.randrange(3, 60), rng.randrange(20, 400), rng.randrange(200, 1839)]),
                      lambda: rng.randrange(1841, 9800))
    for v in ta:
        r = rng.random()
        m, p, s = (("GET", f"/v2/sessions/S-{rng.randrange(80000000, 89999999)}", 200) if r < 0.35 else
                   ("POST", "/v2/sessions", 201) if r < 0.55 else
                   ("POST", f"/v2/sessions/S-{rng.randrange(80000000, 89999999)}/stop", 200) if r < 0.7 else
                   ("GET", f"/v2/chargers/QE-{rng.choice(SITES)[0]}-{rng.randrange(100, 999):05d}/status", 200) if r < 0.9 else
                   ("GET", f"/v2/sessions/S-{rng.randrange(80000000, 89999999)}", 404) if r < 0.95 else
                   ("POST", "/v2/sessions", 409) if r < 0.98 else ("POST", "/v2/sessions", 429))
        tc = rng.randrange(0, 3)
        tr = max(0, v - tc - rng.randrange(0, 2))
        add(rtime(rng, "07:00:05", "09:59:00"), "be_charge_api", f"chg-api-0{rng.randrange(1, 5)}", m, p, s,
            (0, 0, tc, tr, v))
    for _ in range(520):
        m, p = ledger_call()
        tr = rng.choice([rng.randrange(4, 80), rng.randrange(30, 900)])
        add(rtime(rng, "07:00:05", "09:59:00"), "be_ledger", f"ledger-0{rng.randrange(1, 4)}", m, p,
            201 if p == "/v1/invoices" else 404 if rng.random() < 0.03 else 200, (0, 0, 1, tr, tr + 1))
    for _ in range(330):
        r = rng.random()
        add(rtime(rng, "07:00:05", "09:59:00"), "be_auth", f"auth-0{rng.randrange(1, 3)}",
            "POST", "/oauth/token", 401 if r < 0.12 else 200, (0, 0, 1, rng.randrange(8, 120), 0))
    while len(ev) < 2400:
        tr = rng.randrange(0, 12)
        add(rtime(rng, "07:00:05", "09:59:00"), "be_static", "static-01", "GET",
            rng.choice(["/assets/app.", "/assets/vendor.", "/img/map-pin."]) + hexid(rng, 8) + rng.choice([".js", ".css", ".svg"]),
            rng.choice([200, 200, 304]), (0, 0, 0, tr, tr))
    lines = []
    conns = 700
    for e in ev:
        tq, tw, tc, tr, ta_ = e["timers"]
        if ta_ == 0:
            ta_ = tq + tw + tc + tr + rng.randrange(0, 2)
            e["timers"] = (tq, tw, tc, tr, ta_)
        e["emit"] = e["t"] + timedelta(milliseconds=ta_)
    ev.sort(key=lambda e: (e["emit"], e["t"]))
    for e in ev:
        size = e["size"]
        if size is None:
            size = 0 if e["s"] == 304 else rng.choice([rng.randrange(90, 499), rng.randrange(600, 48000)])
        conns = max(300, min(1400, conns + rng.randrange(-9, 10)))
        ip = rng.choices(clients, weights)[0]
        tq, tw, tc, tr, ta_ = e["timers"]
        accept = e["t"].strftime("%d/%b/%Y:%H:%M:%S.") + f"{e['t'].microsecond // 1000:03d}"
        syslog = e["emit"].strftime("%b %d %H:%M:%S")
        beconn = rng.randrange(5, 60) if e["be"] != "be_ledger" or e["s"] < 500 else rng.randrange(180, 240)
        lines.append(f"{syslog} edge-lb-02 haproxy[2714]: {ip}:{rng.randrange(1024, 65535)} [{accept}] fe_https~ "
                     f"{e['be']}/{e['srv']} {tq}/{tw}/{tc}/{tr}/{ta_} {e['s']} {size} - - {e['term']} "
                     f"{conns}/{conns - rng.randrange(0, 20)}/{beconn}/{rng.randrange(1, beconn + 1)}/{e['retries']} 0/0 "
                     f'"{e["m"]} {e["p"]} HTTP/1.1"')
    lines.insert(next(i for i, e in enumerate(ev) if e["emit"] >= at("09:31:02")),
                 "Mar 14 09:31:02 edge-lb-02 haproxy[2714]: Server be_static/static-02 is going DOWN for maintenance. "
                 "1 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.")
    lines.insert(next(i for i, e in enumerate(ev) if e["emit"] >= at("09:33:40")) + 1,
                 "Mar 14 09:33:40 edge-lb-02 haproxy[2714]: Server be_static/static-02 is UP (leaving forced maintenance).")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# traefik-access.json: Traefik v3 JSON access log (`Duration` in ns, `DownstreamStatus`,
# `RouterName`, `ClientHost`, `StartUTC` with ns), 1,600 requests. Planted: 502 x156
# (charge-api 120, tariffs-api 24, stations-api 12), 132 in 08:43-08:58 with the peak minute
# 08:47 (x24); 5xx by router charge-api 188 > tariffs-api 129 > stations-api 83 >
# account-web 37 > webhooks 12; the longest `Duration` 27418552113 ns (POST
# /v2/sessions/S-88213407/stop, a 200), every other one under 16 s.
TRAEFIK_ROUTERS = {
    "charge-api": ("api.quillon.example", "charging-charge-api-8080@kubernetes", ["10.244.2.17", "10.244.4.31"]),
    "tariffs-api": ("api.quillon.example", "charging-tariffs-api-8080@kubernetes", ["10.244.2.40", "10.244.5.12"]),
    "stations-api": ("api.quillon.example", "charging-stations-api-8080@kubernetes", ["10.244.3.8", "10.244.4.9"]),
    "account-web": ("my.quillon.example", "web-account-web-3000@kubernetes", ["10.244.1.22"]),
    "webhooks": ("hooks.quillon.example", "charging-webhooks-8080@kubernetes", ["10.244.5.51"]),
}


def traefik_access(rng):
    pool = ip_pool(rng, 1400, [], [2, 5, 31, 37, 46, 62, 78, 81, 86, 90, 109, 146, 176, 185, 212, 217])
    weights = [1.0 / (i + 40) ** 0.6 for i in range(len(pool))]
    ev = []

    def path(router):
        sid = f"S-{rng.randrange(80000000, 89999999)}"
        return rng.choice({
            "charge-api": [("GET", f"/v2/sessions/{sid}"), ("POST", "/v2/sessions"), ("POST", f"/v2/sessions/{sid}/stop")],
            "tariffs-api": [("GET", f"/v2/tariffs/{rng.choice(SITES)[1]}"), ("GET", "/v2/tariffs/current")],
            "stations-api": [("GET", f"/v2/stations/QE-{rng.choice(SITES)[0]}"), ("GET", "/v2/stations/nearby?lat=53.80&lon=-1.55")],
            "account-web": [("GET", "/account"), ("GET", "/account/invoices"), ("POST", "/account/payment-methods")],
            "webhooks": [("POST", "/hooks/paygrid"), ("POST", "/hooks/octopus-grid")],
        }[router])

    def add(t, router, status, dur=None, mp=None):
        m, p = mp or path(router)
        ev.append({"t": t, "router": router, "s": status, "dur": dur, "m": m, "p": p})

    bg = [("07:05:00", "08:30:00"), ("09:10:00", "09:55:00")]
    plan502 = {"08:43": 3, "08:44": 6, "08:45": 9, "08:46": 15, "08:47": 24, "08:48": 18, "08:49": 14, "08:50": 11,
               "08:51": 9, "08:52": 7, "08:53": 5, "08:54": 4, "08:55": 3, "08:56": 2, "08:57": 1, "08:58": 1}
    times502 = minute_plan(rng, plan502) + [rtime_in(rng, bg) for _ in range(24)]
    routers502 = ["charge-api"] * 120 + ["tariffs-api"] * 24 + ["stations-api"] * 12
    rng.shuffle(routers502)
    for t, r in zip(times502, routers502):
        add(t, r, 502, rng.randrange(300000, 45000000))
    for r, k in (("charge-api", 40), ("tariffs-api", 60), ("stations-api", 20)):
        for _ in range(k):
            add(rtime(rng, "08:40:00", "09:20:00") if rng.random() < 0.6 else rtime_in(rng, bg), r, 503,
                rng.randrange(50000, 900000))
    for r, k in (("charge-api", 28), ("tariffs-api", 45), ("stations-api", 51), ("account-web", 37), ("webhooks", 12)):
        for _ in range(k):
            add(rtime(rng, "07:00:10", "09:59:30"), r, 500, None)
    add(at("08:49:12.301774"), "charge-api", 200, 27418552113, ("POST", "/v2/sessions/S-88213407/stop"))
    mix = [("charge-api", 40), ("tariffs-api", 14), ("stations-api", 18), ("account-web", 16), ("webhooks", 6)]
    while len(ev) < 1600:
        r = rng.choices([m for m, _ in mix], [w for _, w in mix])[0]
        m, p = path(r)
        s = 201 if m == "POST" and p == "/v2/sessions" else 200
        x = rng.random()
        if x < 0.04:
            s = 404
        elif x < 0.07 and r == "account-web":
            s = 302
        elif x < 0.09 and r == "charge-api":
            s = 409
        add(rtime(rng, "07:00:02", "09:59:50"), r, s, None, (m, p))
    for e in ev:
        if e["dur"] is None:
            e["dur"] = rng.choice([rng.randrange(2, 80), rng.randrange(20, 400), rng.randrange(200, 4000),
                                   rng.randrange(1000, 15900)]) * 1000000 + rng.randrange(0, 1000000)
        e["end"] = e["t"] + timedelta(microseconds=e["dur"] // 1000)
    ev.sort(key=lambda e: (e["end"], e["t"]))
    lines = []
    for i, e in enumerate(ev):
        host, svc, backends = TRAEFIK_ROUTERS[e["router"]]
        ip = rng.choices(pool, weights)[0]
        port = str(rng.randrange(1024, 65535))
        overhead = rng.randrange(40000, 900000)
        origin = e["s"] not in (502, 503)
        backend = rng.choice(backends)
        t = e["t"]
        start = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{rng.randrange(0, 1000):03d}Z"
        size = 0 if e["s"] in (302,) else rng.randrange(11, 60) if e["s"] >= 500 else rng.randrange(120, 28000)
        rec = {"ClientAddr": f"{ip}:{port}", "ClientHost": ip, "ClientPort": port, "ClientUsername": "-",
               "DownstreamContentSize": size, "DownstreamStatus": e["s"], "Duration": e["dur"],
               "OriginContentSize": size if origin else 0, "OriginDuration": max(0, e["dur"] - overhead) if origin else 0,
               "OriginStatus": e["s"] if origin else 0, "Overhead": overhead if origin else e["dur"],
               "RequestAddr": host, "RequestContentSize": rng.randrange(80, 900) if e["m"] == "POST" else 0,
               "RequestCount": 48211 + i, "RequestHost": host, "RequestMethod": e["m"], "RequestPath": e["p"],
               "RequestPort": "-", "RequestProtocol": "HTTP/2.0" if rng.random() < 0.7 else "HTTP/1.1",
               "RequestScheme": "https", "RetryAttempts": 0 if origin else rng.randrange(0, 3),
               "RouterName": f"{e['router']}@kubernetescrd", "ServiceAddr": f"{backend}:8080",
               "ServiceName": svc, "ServiceURL": f"http://{backend}:8080", "StartLocal": start, "StartUTC": start,
               "entryPointName": "websecure", "level": "info", "msg": "",
               "request_User-Agent": rng.choice(APP_UAS + BROWSER_UAS),
               "time": e["end"].strftime("%Y-%m-%dT%H:%M:%SZ")}
        lines.append(json.dumps(rec, separators=(",", ":")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# ledger-svc.log: Spring Boot 3 (logback default console pattern: `ts %5p pid --- [app]
# [%15.15t] %-40.40logger : msg`), stack traces on the lines after an event. Planted: ERROR
# x211 (SQLTransientConnectionException x97, the first at 08:41:05, PSQLException x58,
# ResourceAccessException caused by SocketTimeoutException x31, InvoiceStateException x25);
# the peak minute of ERRORs 08:52 (16 SQLTransient alone).
JAVA_TAIL = ["\tat org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:885)",
             "\tat org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)",
             "\tat java.base/java.lang.Thread.run(Thread.java:1583)"]


def ledger_log(rng):
    ev = []

    def add(t, level, thread, logger, msg, trace=()):
        ev.append((t, len(ev), level, thread, logger, msg, list(trace)))

    def exec_thread():
        return f"http-nio-8080-exec-{rng.randrange(1, 41)}"

    def inv():
        return f"INV-2030-03{rng.randrange(10000, 99999)}"

    sqlt = {"08:41": 1, "08:42": 2, "08:43": 3, "08:44": 3, "08:45": 4, "08:46": 4, "08:47": 5, "08:48": 5, "08:49": 4,
            "08:50": 5, "08:51": 5, "08:52": 16, "08:53": 5, "08:54": 4, "08:55": 4, "08:56": 3, "08:57": 3, "08:58": 3,
            "08:59": 2, "09:00": 2, "09:01": 2, "09:02": 2, "09:03": 2, "09:04": 1, "09:05": 1, "09:06": 1, "09:07": 1,
            "09:08": 1, "09:09": 1, "09:10": 2}
    assert sum(sqlt.values()) == 97
    times = [at("08:41:05.418000")] + [in_minute(rng, m, "06" if m == "08:41" else "00")
                                         for m, k in sqlt.items() for _ in range(k - (m == "08:41"))]
    for t in times:
        add(t, "ERROR", exec_thread(), "c.q.ledger.api.SettlementController", f"Settlement failed for invoice {inv()}", [
            "java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after "
            f"30000ms (total=40, active=40, idle=0, waiting={rng.randrange(20, 96)})",
            "\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)",
            "\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)",
            "\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:144)",
            "\tat com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:127)",
            "\tat org.hibernate.engine.jdbc.connections.internal.DatasourceConnectionProviderImpl.getConnection(DatasourceConnectionProviderImpl.java:122)",
            "\tat com.quillon.ledger.service.SettlementService.settle(SettlementService.java:91)",
            "\tat com.quillon.ledger.api.SettlementController.settle(SettlementController.java:58)",
            *JAVA_TAIL])
    for i in range(58):
        t = rtime(rng, "08:40:30", "09:11:00") if i < 33 else rtime(rng, "09:36:30", "09:56:00")
        add(t - timedelta(milliseconds=2), " WARN", "scheduling-1", "o.h.engine.jdbc.spi.SqlExceptionHelper",
            "SQL Error: 0, SQLState: 55P03")
        add(t, "ERROR", "scheduling-1", "c.q.ledger.jobs.TariffApplyJob", f"Tariff apply failed for batch TB-20300314-{rng.randrange(1000, 9999)}", [
            "org.postgresql.util.PSQLException: ERROR: canceling statement due to lock timeout",
            "  Where: while locking tuple (4412,7) in relation \"tariff_windows\"",
            "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2733)",
            "\tat org.postgresql.core.v3.QueryExecutorImpl.processResults(QueryExecutorImpl.java:2420)",
            "\tat org.postgresql.jdbc.PgPreparedStatement.executeUpdate(PgPreparedStatement.java:152)",
            "\tat com.zaxxer.hikari.pool.HikariProxyPreparedStatement.executeUpdate(HikariProxyPreparedStatement.java)",
            "\tat com.quillon.ledger.jobs.TariffApplyJob.apply(TariffApplyJob.java:64)",
            "\tat org.springframework.scheduling.support.ScheduledMethodRunnable.run(ScheduledMethodRunnable.java:84)",
            "\tat java.base/java.lang.Thread.run(Thread.java:1583)"])
    for _ in range(31):
        add(rtime(rng, "07:01:00", "09:59:00"), "ERROR", exec_thread(), "c.q.ledger.client.PaygridClient",
            f"Call to paygrid failed for {inv()}", [
                'org.springframework.web.client.ResourceAccessException: I/O error on POST request for '
                '"https://api.paygrid.example/v3/charges": Read timed out',
                "\tat org.springframework.web.client.RestTemplate.createResourceAccessException(RestTemplate.java:915)",
                "\tat org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:895)",
                "\tat com.quillon.ledger.client.PaygridClient.charge(PaygridClient.java:77)",
                *JAVA_TAIL,
                "Caused by: java.net.SocketTimeoutException: Read timed out",
                "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)",
                "\tat java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:304)",
                "\t... 41 common frames omitted"])
    for _ in range(25):
        i = inv()
        add(rtime(rng, "07:01:00", "09:59:00"), "ERROR", exec_thread(), "c.q.ledger.service.InvoiceService",
            f"Invoice {i} rejected", [
                f"com.quillon.ledger.domain.InvoiceStateException: invoice {i} is already SETTLED",
                "\tat com.quillon.ledger.service.InvoiceService.transition(InvoiceService.java:142)",
                "\tat com.quillon.ledger.service.InvoiceService.settle(InvoiceService.java:97)",
                *JAVA_TAIL])
    for _ in range(9):
        add(rtime(rng, "08:42:00", "09:10:00"), " WARN", "HikariPool-1 housekeeper", "com.zaxxer.hikari.pool.HikariPool",
            f"HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta={rng.randrange(31, 80)}s).")
    n_bg = 2100
    for _ in range(n_bg):
        t = rtime(rng, "07:00:01", "09:59:58")
        r = rng.random()
        if r < 0.55:
            add(t, " INFO", exec_thread(), "c.q.ledger.api.SettlementController",
                f"Settled invoice {inv()} amount=GBP {rng.randrange(180, 9000) / 100:.2f} in {rng.randrange(8, 240)}ms")
        elif r < 0.8:
            add(t, " INFO", exec_thread(), "c.q.ledger.api.InvoiceController", f"Created invoice {inv()} for session "
                f"S-{rng.randrange(80000000, 89999999)}")
        elif r < 0.9:
            add(t, " INFO", "scheduling-1", "c.q.ledger.jobs.TariffApplyJob",
                f"Applied {rng.randrange(40, 900)} tariff windows for batch TB-20300314-{rng.randrange(1000, 9999)}")
        elif r < 0.97:
            add(t, "DEBUG", exec_thread(), "c.q.ledger.client.PaygridClient", f"paygrid charge ok ref=pg_{hexid(rng, 14)}")
        else:
            add(t, " WARN", exec_thread(), "c.q.ledger.api.InvoiceController", "Missing X-Request-Id header, generated one")
    ev.sort(key=lambda e: (e[0], e[1]))
    lines = []
    for t, _, level, thread, logger, msg, trace in ev:
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
        lines.append(f"{ts} {level} 1 --- [ledger-svc] [{thread[-15:]:>15}] {logger[:40]:<40} : {msg}")
        lines.extend(trace)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# postgresql-2030-03-14_000000.log: PostgreSQL 16 stderr log, `log_line_prefix = '%m [%p]
# %q%u@%d '`, log_min_duration_statement = 500 ms, log_lock_waits on, DETAIL/STATEMENT lines
# after an entry, a deadlock's DETAIL continued on tab-indented lines. Planted: the first
# "still waiting for" at 08:40:14; lock timeouts x148 (ledger_app 88, tariff_sync 41,
# billing_batch 19): 85 in 08:40:30-09:11, 63 in 09:36:30-09:56 (none 09:20-09:36); the log
# ends 09:59:57; FATAL "remaining connection slots" x117; deadlock detected x12 (the last
# 09:07:44); slowest `duration:` 48211.907 ms by reporting@ledger, every other under 32 s.
def postgres_log(rng):
    ev = []
    pids = [rng.randrange(40000, 60000) for _ in range(60)]

    def add(t, pid, who, lines):
        ev.append((t, len(ev), pid, who, lines))

    def stmt_for(user):
        return {
            "ledger_app": rng.choice(["UPDATE invoices SET state = 'SETTLED', settled_at = now() WHERE id = $1",
                                      "SELECT * FROM tariff_windows WHERE site_id = $1 AND valid_from <= $2 ORDER BY valid_from DESC LIMIT 1",
                                      "INSERT INTO ledger_entries (invoice_id, amount_pence, kind) VALUES ($1, $2, $3)"]),
            "tariff_sync": "UPDATE tariff_windows SET price_pence_kwh = $1 WHERE site_id = $2 AND valid_from = $3",
            "billing_batch": "UPDATE invoices SET batch_id = $1 WHERE state = 'OPEN' AND created_at < $2",
            "reporting": "SELECT site_id, date_trunc('hour', read_at), sum(kwh) FROM meter_readings WHERE read_at >= $1 GROUP BY 1, 2",
            "grafana": "SELECT count(*) FROM sessions WHERE state = 'ACTIVE'",
        }[user]

    add(at("08:40:12.004117"), 51877, "deploy@ledger", [
        "LOG:  statement: ALTER TABLE tariff_windows ADD COLUMN grid_zone text NOT NULL DEFAULT 'GB-N';"])
    waits = [at("08:40:14.019552")] + [rtime(rng, "08:40:15", "09:10:00") for _ in range(43)] + \
        [rtime(rng, "09:36:05", "09:55:00") for _ in range(21)]
    for t in waits:
        pid = rng.choice(pids)
        user = rng.choice(["ledger_app", "ledger_app", "tariff_sync", "billing_batch"])
        add(t, pid, f"{user}@ledger", [
            f"LOG:  process {pid} still waiting for RowExclusiveLock on relation 16431 of database 16384 after "
            f"{1000 + rng.randrange(0, 120)}.{rng.randrange(0, 1000):03d} ms",
            f"DETAIL:  Process holding the lock: 51877. Wait queue: {pid}, {rng.choice(pids)}.",
            f"STATEMENT:  {stmt_for(user)}"])
    users = ["ledger_app"] * 88 + ["tariff_sync"] * 41 + ["billing_batch"] * 19
    rng.shuffle(users)
    for i, user in enumerate(users):
        t = rtime(rng, "08:40:30", "09:11:00") if i < 85 else rtime(rng, "09:36:30", "09:56:00")
        add(t, rng.choice(pids), f"{user}@ledger", ["ERROR:  canceling statement due to lock timeout",
                                                    f"STATEMENT:  {stmt_for(user)}"])
    for _ in range(117):
        user = rng.choice(["ledger_app", "ledger_app", "ledger_app", "tariff_sync", "grafana", "reporting"])
        add(rtime(rng, "08:42:00", "09:10:00"), rng.randrange(60000, 64000), f"{user}@ledger",
            ["FATAL:  remaining connection slots are reserved for roles with the SUPERUSER attribute"])
    dl = [rtime(rng, "08:44:00", "09:07:00") for _ in range(11)] + [at("09:07:44.250913")]
    for t in dl:
        a, b = rng.sample(pids, 2)
        tx = rng.randrange(99180000, 99190000)
        add(t, a, "ledger_app@ledger", [
            "ERROR:  deadlock detected",
            f"DETAIL:  Process {a} waits for ShareLock on transaction {tx}; blocked by process {b}.",
            f"\tProcess {b} waits for ShareLock on transaction {tx - rng.randrange(1, 40)}; blocked by process {a}.",
            f"\tProcess {a}: UPDATE invoices SET state = 'SETTLED', settled_at = now() WHERE id = $1",
            f"\tProcess {b}: UPDATE invoices SET batch_id = $1 WHERE state = 'OPEN' AND created_at < $2",
            "HINT:  See server log for query details.",
            f"CONTEXT:  while updating tuple ({rng.randrange(1000, 9000)},{rng.randrange(1, 40)}) in relation \"invoices\"",
            "STATEMENT:  UPDATE invoices SET state = 'SETTLED', settled_at = now() WHERE id = $1"])
    add(at("07:22:31.508224"), 47120, "reporting@ledger", [
        "LOG:  duration: 48211.907 ms  execute <unnamed>: " + stmt_for("reporting"),
        "DETAIL:  parameters: $1 = '2030-02-12 00:00:00+00'"])
    add(at("08:42:44.118020"), 51877, "deploy@ledger", [
        "LOG:  duration: 31877.412 ms  statement: ALTER TABLE tariff_windows ADD COLUMN grid_zone text NOT NULL DEFAULT 'GB-N';"])
    for k in range(35):
        t0 = at("07:02:30") + timedelta(minutes=5 * k, microseconds=rng.randrange(0, 900000))
        add(t0, 62, "", ["LOG:  checkpoint starting: time"])
        w = rng.randrange(300, 9000)
        add(t0 + timedelta(seconds=rng.randrange(100, 269), microseconds=rng.randrange(0, 999999)), 62, "", [
            f"LOG:  checkpoint complete: wrote {w} buffers ({w / 163.84:.1f}%); 0 WAL file(s) added, 0 removed, "
            f"{rng.randrange(0, 4)} recycled; write=269.{rng.randrange(100, 999)} s, sync=0.0{rng.randrange(10, 99)} s, "
            f"total=269.{rng.randrange(100, 999)} s; sync files={rng.randrange(40, 400)}, longest=0.00{rng.randrange(1, 9)} s, "
            f"average=0.001 s; distance={rng.randrange(9000, 40000)} kB, estimate={rng.randrange(20000, 40000)} kB; "
            f"lsn=3A/{hexid(rng, 8).upper()}, redo lsn=3A/{hexid(rng, 8).upper()}"])
    for _ in range(1150):
        user = rng.choices(["ledger_app", "tariff_sync", "billing_batch", "reporting", "grafana"], [50, 20, 10, 8, 12])[0]
        ms = rng.choice([rng.randrange(500, 900), rng.randrange(500, 2000), rng.randrange(800, 9000), rng.randrange(2000, 19000)])
        add(rtime(rng, "07:00:02", "09:59:50"), rng.choice(pids), f"{user}@ledger" if user != "reporting" else "reporting@ledger", [
            f"LOG:  duration: {ms}.{rng.randrange(0, 1000):03d} ms  execute <unnamed>: {stmt_for(user)}"])
    for _ in range(40):
        add(rtime(rng, "07:00:02", "09:59:50"), rng.randrange(64000, 66000), "", [
            f"LOG:  automatic vacuum of table \"ledger.public.{rng.choice(['sessions', 'meter_readings', 'ledger_entries'])}\": "
            f"index scans: 1",
            f"\tpages: 0 removed, {rng.randrange(1000, 90000)} remain, {rng.randrange(10, 900)} scanned",
            f"\ttuples: {rng.randrange(10, 9000)} removed, {rng.randrange(100000, 9000000)} remain, 0 are dead but not yet removable"])
    add(at("09:59:57.902113"), 62, "", ["LOG:  checkpoint starting: time"])
    ev.sort(key=lambda e: (e[0], e[1]))
    out = []
    for t, _, pid, who, lines in ev:
        prefix = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d} UTC [{pid}] " + (f"{who} " if who else "")
        for ln in lines:
            out.append(ln if ln.startswith("\t") else prefix + ln)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# mysql-slow.log: MySQL 8.0 slow query log (the server header, `# Time:`, `# User@Host:`,
# `# Query_time:`, `use db;` when the schema changes, `SET timestamp=`), 520 entries.
# Planted: Query_time over 5 s x131 (5.6-40 s, and one of 61.882013 by etl_reader), the rest
# 1.0-4.4 s; DELETE statements x76; users fleet_app 262 > fleet_sync 131 > etl_reader 85 >
# metabase 35 > grafana_ro 7 (the least).
def mysql_slow(rng):
    users = ["fleet_app"] * 262 + ["fleet_sync"] * 131 + ["etl_reader"] * 85 + ["metabase"] * 35 + ["grafana_ro"] * 7
    rng.shuffle(users)
    hosts = {"fleet_app": ["10.60.3.14", "10.60.3.15", "10.60.3.16"], "fleet_sync": ["10.60.3.21"],
             "etl_reader": ["10.60.4.7"], "metabase": ["10.60.4.30"], "grafana_ro": ["10.60.4.41"]}
    slow = [True] * 131 + [False] * (520 - 131)
    rng.shuffle(slow)
    delete_idx = [i for i, u in enumerate(users) if u in ("fleet_sync", "fleet_app")]
    rng.shuffle(delete_idx)
    deletes = set(delete_idx[:76])
    max_i = next(i for i, u in enumerate(users) if u == "etl_reader" and slow[i])
    times = sorted(rtime(rng, "07:00:30", "09:59:30") for _ in range(520))
    lines = ["/usr/sbin/mysqld, Version: 8.0.41 (MySQL Community Server - GPL). started with:",
             "Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock",
             "Time                 Id Command    Argument"]
    db = None
    for i, (t, user) in enumerate(zip(times, users)):
        qt = 61.882013 if i == max_i else (rng.randrange(5600000, 40000000) / 1e6 if slow[i] else rng.randrange(1000000, 4400000) / 1e6)
        if i in deletes:
            q = f"DELETE FROM telemetry_raw WHERE recorded_at < '2030-02-{rng.randrange(10, 14)} 00:00:00' LIMIT 5000;"
            rows_sent, rows_ex, schema = 0, rng.randrange(5000, 900000), "fleet"
        elif user == "etl_reader":
            q = ("SELECT v.vin, v.depot, SUM(t.kwh) FROM vehicles v JOIN telemetry_raw t ON t.vin = v.vin "
                 f"WHERE t.recorded_at >= '2030-03-{rng.randrange(1, 14):02d}' GROUP BY v.vin, v.depot;")
            rows_sent, rows_ex, schema = rng.randrange(300, 3000), rng.randrange(2000000, 48000000), "fleet_archive"
        elif user == "grafana_ro":
            q = "SELECT depot, COUNT(*) FROM vehicles WHERE soc_pct < 20 GROUP BY depot;"
            rows_sent, rows_ex, schema = rng.randrange(5, 30), rng.randrange(4000, 9000), "fleet"
        else:
            q = rng.choice([f"SELECT * FROM telemetry_raw WHERE vin = 'QVN{rng.randrange(100000, 999999)}' ORDER BY recorded_at DESC LIMIT 200;",
                            f"UPDATE vehicles SET soc_pct = {rng.randrange(5, 100)}, last_seen = NOW() WHERE vin = 'QVN{rng.randrange(100000, 999999)}';",
                            f"SELECT depot, AVG(soc_pct) FROM vehicles WHERE fleet_id = {rng.randrange(1, 90)} GROUP BY depot;",
                            f"INSERT INTO telemetry_raw (vin, recorded_at, kwh, soc_pct) VALUES ('QVN{rng.randrange(100000, 999999)}', NOW(), 0.{rng.randrange(10, 99)}, {rng.randrange(5, 100)});"])
            rows_sent, rows_ex, schema = (0 if not q.startswith("SELECT") else rng.randrange(1, 200)), rng.randrange(1, 2000000), "fleet"
        end = t
        start = end - timedelta(seconds=qt)
        lines.append("# Time: " + end.strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
        lines.append(f"# User@Host: {user}[{user}] @  [{rng.choice(hosts[user])}]  Id: {rng.randrange(80000, 99999)}")
        lines.append(f"# Query_time: {qt:.6f}  Lock_time: {rng.randrange(1, 400) / 1e6:.6f} Rows_sent: {rows_sent}  Rows_examined: {rows_ex}")
        if schema != db:
            lines.append(f"use {schema};")
            db = schema
        lines.append(f"SET timestamp={int(start.timestamp())};")
        lines.append(q)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# redis.log: Redis 7.2 (`pid:role DD Mon YYYY HH:MM:SS.mmm level msg`). Planted: "Asynchronous
# AOF fsync is taking too long" x97, the first at 08:49:58 (all in 08:49:58-09:14); clients
# closed for output buffer limits x73 (addr 10.244.3.17 x31, 10.244.3.22 x19, 10.244.5.40
# x14, 10.244.2.9 x9); RDB saves every 5 minutes, two failing (08:55, 09:00), the last
# "Background saving terminated with success" 09:55:03.
def redis_log(rng):
    ev = []

    def add(t, who, level, msg):
        ev.append((t, len(ev), who, level, msg))

    for k in range(36):
        t0 = at("07:00:00") + timedelta(minutes=5 * k, microseconds=rng.randrange(1000, 90000))
        child = 3300 + 17 * k
        add(t0, "1:M", "*", "100 changes in 300 seconds. Saving...")
        add(t0 + timedelta(microseconds=rng.randrange(500, 3000)), "1:M", "*", f"Background saving started by pid {child}")
        hhmm = t0.strftime("%H:%M")
        if hhmm in ("08:55", "09:00"):
            add(t0 + timedelta(seconds=6, microseconds=rng.randrange(0, 900000)), f"{child}:C", "#",
                f"Failed opening the temp RDB file temp-{child}.rdb (in server root dir /data) for saving: Input/output error")
            add(t0 + timedelta(seconds=6, microseconds=950000), "1:M", "#", "Background saving error")
            continue
        done = t0 + timedelta(seconds=3, microseconds=rng.randrange(0, 500000)) if hhmm == "09:55" else \
            t0 + timedelta(seconds=rng.randrange(1, 4), microseconds=rng.randrange(0, 900000))
        mb = rng.randrange(2, 9)
        add(done - timedelta(milliseconds=30), f"{child}:C", "*", "DB saved on disk")
        add(done - timedelta(milliseconds=29), f"{child}:C", "*", f"Fork CoW for RDB: current {mb} MB, peak {mb} MB, average {max(1, mb - 2)} MB")
        add(done, "1:M", "*", "Background saving terminated with success")
    aof = [at("08:49:58.117000")] + [rtime(rng, "08:50:00", "09:14:00") for _ in range(96)]
    for t in aof:
        add(t, "1:M", "*", "Asynchronous AOF fsync is taking too long (disk is busy?). Writing the AOF buffer without "
                          "waiting for fsync to complete, this may slow down Redis.")
    addrs = ["10.244.3.17"] * 31 + ["10.244.3.22"] * 19 + ["10.244.5.40"] * 14 + ["10.244.2.9"] * 9
    rng.shuffle(addrs)
    for a in addrs:
        om = 33554432 + rng.randrange(0, 900000)
        lib = "go-redis" if a.startswith("10.244.3.") else "redis-py"
        add(rtime(rng, "08:50:30", "09:16:00"), "1:M", "#",
            f"Client id={rng.randrange(40000, 90000)} addr={a}:{rng.randrange(30000, 61000)} laddr=10.244.1.9:6379 "
            f"fd={rng.randrange(12, 900)} name= age={rng.randrange(1, 4000)} idle=0 flags=P db=0 sub=0 psub={rng.randrange(1, 4)} "
            f"ssub=0 multi=-1 watch=0 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=5 obl=0 oll={rng.randrange(900, 4000)} "
            f"omem={om} tot-mem={om + 3072} events=rw cmd=psubscribe user=default redir=-1 resp=2 lib-name={lib} "
            f"lib-ver={'9.7.0' if lib == 'go-redis' else '5.2.1'} scheduled to be closed ASAP for overcoming of output buffer limits.")
    for t in (at("07:41:12.552000"), at("09:20:31.004000")):
        add(t, "1:M", "*", "Connection with replica 10.60.2.12:6379 lost.")
        add(t + timedelta(seconds=2), "1:M", "*", "Replica 10.60.2.12:6379 asks for synchronization")
        add(t + timedelta(seconds=2, milliseconds=1), "1:M", "*",
            f"Partial resynchronization request from 10.60.2.12:6379 accepted. Sending {rng.randrange(100, 90000)} bytes of backlog starting from offset {rng.randrange(10**9, 10**10)}.")
    for _ in range(14):
        t = rtime(rng, "07:00:30", "09:50:00")
        child = rng.randrange(4000, 9000)
        add(t, "1:M", "*", f"Starting automatic rewriting of AOF on {rng.randrange(100, 160)}% growth")
        add(t + timedelta(milliseconds=2), "1:M", "*", f"Background append only file rewriting started by pid {child}")
        add(t + timedelta(seconds=rng.randrange(2, 9)), f"{child}:C", "*", f"Successfully created the temporary AOF base file temp-rewriteaof-bg-{child}.aof")
        add(t + timedelta(seconds=10), "1:M", "*", "Background AOF rewrite finished successfully")
    ev.sort(key=lambda e: (e[0], e[1]))
    out = []
    for t, _, who, level, msg in ev:
        out.append(f"{who} {t.strftime('%d %b %Y %H:%M:%S.')}{t.microsecond // 1000:03d} {level} {msg}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# kubelet.log: kubelet klog (`Lmmdd hh:mm:ss.uuuuuu pid file:line] msg`, no year). Planted:
# "Probe failed" for ocpp-gw-7c9d8f6b5-x2kqp x104 (readiness 80, liveness 24; its peak minute
# 08:56 with 10 readiness + 3 liveness, every other minute at most 5 + 1),
# ocpp-gw-7c9d8f6b5-m8dzn x67 (readiness 55, liveness 12), tariff-worker x22, ledger-svc
# x15; CrashLoopBackOff "Error syncing pod" x89 (x2kqp 52, m8dzn 37), the first 08:53:20.
PODS = {"x2kqp": ("charging", "ocpp-gw-7c9d8f6b5-x2kqp", "ocpp-gw", "10.244.3.17", "8080"),
        "m8dzn": ("charging", "ocpp-gw-7c9d8f6b5-m8dzn", "ocpp-gw", "10.244.3.22", "8080"),
        "tariff": ("charging", "tariff-worker-5b8c9d7f4-qq7lw", "tariff-worker", "10.244.3.30", "8000"),
        "ledger": ("billing", "ledger-svc-6f7d8c9b5-h4jtn", "ledger-svc", "10.244.3.41", "8081")}


def kubelet_log(rng):
    ev = []
    uids = {k: uuid4(rng) for k in PODS}

    def add(t, lvl, src, msg):
        ev.append((t, len(ev), lvl, src, msg))

    def probe_failed(t, key, kind):
        ns, pod, c, ip, port = PODS[key]
        path = "/readyz" if kind == "Readiness" else "/livez"
        add(t, "I", "prober.go:107", f'"Probe failed" probeType="{kind}" pod="{ns}/{pod}" podUID="{uids[key]}" '
            f'containerName="{c}" probeResult="failure" output="Get \\"http://{ip}:{port}{path}\\": context deadline '
            f'exceeded (Client.Timeout exceeded while awaiting headers)"')

    # x2kqp: readiness 80 (10 in 08:56), liveness 24 (3 in 08:56)
    minutes = [f"08:{m:02d}" for m in range(50, 60)] + [f"09:{m:02d}" for m in range(0, 16)]
    ready = {m: 0 for m in minutes}
    ready["08:56"] = 10
    rest = spread(rng, 70, len(minutes) - 1, 1, 5)
    for m, k in zip([m for m in minutes if m != "08:56"], rest):
        ready[m] = k
    live = {m: 0 for m in minutes}
    live["08:56"] = 3
    for m in rng.sample([m for m in minutes if m != "08:56"], 21):
        live[m] = 1
    for m in minutes:
        for j, s in enumerate(sorted(rng.sample(range(0, 12), ready[m]))):
            probe_failed(in_minute(rng, m, f"{s * 5:02d}.0", f"{s * 5 + 4:02d}.9"), "x2kqp", "Readiness")
        if live[m]:
            for s in sorted(rng.sample(range(0, 6), live[m])):
                probe_failed(in_minute(rng, m, f"{s * 10 + 2:02d}.0", f"{s * 10 + 6:02d}.9"), "x2kqp", "Liveness")
    for kind, k in (("Readiness", 55), ("Liveness", 12)):
        for _ in range(k):
            probe_failed(rtime(rng, "08:51:00", "09:15:00"), "m8dzn", kind)
    for key, k in (("tariff", 22), ("ledger", 15)):
        for _ in range(k):
            probe_failed(rtime(rng, "08:41:00", "09:12:00"), key, "Readiness")
    crash = [("x2kqp", at("08:53:20.412233"))] + [("x2kqp", rtime(rng, "08:53:30", "09:40:00")) for _ in range(51)] + \
        [("m8dzn", rtime(rng, "08:55:00", "09:40:00")) for _ in range(37)]
    for key, t in crash:
        ns, pod, c, _, _ = PODS[key]
        back = rng.choice(["10s", "20s", "40s", "1m20s", "2m40s", "5m0s"])
        add(t, "E", "pod_workers.go:1301", f'"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"{c}\\" with '
            f'CrashLoopBackOff: \\"back-off {back} restarting failed container={c} pod={pod}_{ns}({uids[key]})\\"" '
            f'pod="{ns}/{pod}" podUID="{uids[key]}"')
    for _ in range(20):
        key = rng.choice(["x2kqp", "m8dzn"])
        ns, pod, c, _, _ = PODS[key]
        add(rtime(rng, "08:52:00", "09:40:00"), "I", "kuberuntime_manager.go:1056",
            f'"Message for Container of pod" containerName="{c}" containerStatusID={{"Type":"containerd","ID":"{hexid(rng, 64)}"}} '
            f'pod="{ns}/{pod}" containerMessage="Container {c} failed liveness probe, will be restarted"')
    others = ["monitoring/node-exporter-7xq2d", "kube-system/cilium-4hx9r", "charging/stations-api-7d9c6b8f5-p2wqz",
              "charging/charge-api-6c8b7d9f4-l9kds", "web/account-web-5f6d7c8b9-zq4ht"]
    while len(ev) < 1500:
        t = rtime(rng, "07:00:01", "09:59:58")
        r = rng.random()
        if r < 0.35:
            add(t, "I", "kubelet.go:2473", f'"SyncLoop (probe)" probe="readiness" status="ready" pod="{rng.choice(others)}"')
        elif r < 0.6:
            add(t, "I", "reconciler_common.go:258", f'"operationExecutor.VerifyControllerAttachedVolume started for volume '
                f'\\"kube-api-access-{hexid(rng, 5)}\\" (UniqueName: \\"kubernetes.io/projected/{uuid4(rng)}-kube-api-access-'
                f'{hexid(rng, 5)}\\") pod=\\"{rng.choice(others).split("/")[1]}\\"" pod="{rng.choice(others)}"')
        elif r < 0.78:
            add(t, "I", "log.go:245", f"http: TLS handshake error from 10.60.0.{rng.randrange(2, 9)}:{rng.randrange(30000, 61000)}: EOF")
        elif r < 0.92:
            add(t, "W", "watcher.go:93", f'Error while processing event ("/sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice/'
                f'kubepods-burstable-pod{hexid(rng, 8)}.slice": 0x40000100 == IN_CREATE|IN_ISDIR): inotify_add_watch '
                "/sys/fs/cgroup/kubepods.slice: no such file or directory")
        else:
            add(t, "I", "scope.go:117", f'"RemoveContainer" containerID="{hexid(rng, 64)}"')
    ev.sort(key=lambda e: (e[0], e[1]))
    out = []
    for t, _, lvl, src, msg in ev:
        out.append(f"{lvl}{t.strftime('%m%d %H:%M:%S.%f')}    2231 {src}] {msg}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# tariff-worker-json.log: Docker json-file log of the tariff-worker container (one JSON
# object a line: `log` with its newline, `stream`, `time` in ns); inside, Python logging
# `%(asctime)s %(levelname)s [%(name)s] %(message)s` with tracebacks one line a record.
# Planted: "tariff rejected" WARNINGs x240 over 137 distinct stations; "sync finished in
# X.XXs" x180 with a mean of exactly 4.37 s; redis TimeoutError tracebacks x44, the first
# ERROR 08:50:27.
def tariff_docker(rng):
    ev = []

    def add(t, level, name, msg, tb=(), stream="stderr"):
        ev.append((t, len(ev), level, name, msg, list(tb), stream))

    stations = []
    for code, _ in SITES:
        for n in rng.sample(range(100, 999), 40):
            stations.append(f"QE-{code}-{n:05d}")
    rng.shuffle(stations)
    chosen = stations[:137]
    counts = spread(rng, 240, 137, 1, 4)
    reasons = ["window overlaps existing window", "price below floor (12.0p/kWh)", "missing grid_zone", "currency mismatch"]
    for st, k in zip(chosen, counts):
        for _ in range(k):
            add(rtime(rng, "07:00:10", "09:59:40"), "WARNING", "tariff.sync", f"station {st} tariff rejected: {rng.choice(reasons)}")
    hund = exact_sum(rng, 180, 437 * 180, 150, 990, lambda: rng.choice([rng.randrange(180, 420), rng.randrange(300, 700)]))
    for k, h in enumerate(hund):
        t = at("07:00:40") + timedelta(minutes=k, microseconds=rng.randrange(0, 15000000))
        add(t, "INFO", "tariff.sync", f"sync finished in {h // 100}.{h % 100:02d}s ({rng.randrange(300, 900)} tariffs, "
            f"{rng.randrange(0, 6)} rejected)")
        add(t - timedelta(seconds=h / 100), "INFO", "tariff.sync", f"sync started batch=TB-20300314-{1000 + k}")
    tb = ["Traceback (most recent call last):",
          '  File "/app/tariff/cache.py", line 88, in publish',
          "    self.r.publish(channel, payload)",
          '  File "/usr/local/lib/python3.12/site-packages/redis/commands/core.py", line 5939, in publish',
          '    return self.execute_command("PUBLISH", channel, message, **kwargs)',
          '  File "/usr/local/lib/python3.12/site-packages/redis/connection.py", line 647, in read_response',
          "    raise TimeoutError(f\"Timeout reading from {self.host}:{self.port}\")",
          "redis.exceptions.TimeoutError: Timeout reading from redis-sess-01.charging.svc:6379"]
    for t in [at("08:50:27.118000")] + [rtime(rng, "08:50:30", "09:12:00") for _ in range(43)]:
        add(t, "ERROR", "tariff.cache", f"publish to redis failed for batch TB-20300314-{rng.randrange(1100, 1180)}", tb)
    for _ in range(600):
        t = rtime(rng, "07:00:05", "09:59:55")
        if rng.random() < 0.7:
            add(t, "INFO", "tariff.fetch", f"fetched {rng.randrange(40, 400)} windows from octopus-grid in {rng.randrange(80, 900)}ms")
        else:
            add(t, "", "", f'10.244.0.1 - - [{t.strftime("%d/%b/%Y %H:%M:%S")}] "GET /healthz HTTP/1.1" 200 -', stream="stdout")
    ev.sort(key=lambda e: (e[0], e[1]))
    out = []
    for t, _, level, name, msg, trace, stream in ev:
        text = msg if not level else f"{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d} {level} [{name}] {msg}"
        dt = t
        for ln in [text] + trace:
            dt = dt + timedelta(microseconds=rng.randrange(3, 40))
            stamp = dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond:06d}{rng.randrange(0, 1000):03d}Z"
            out.append(json.dumps({"log": ln + "\n", "stream": stream, "time": stamp}, separators=(",", ":")))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# u_ex300314.log: IIS 10 W3C extended log of the fleet portal (`#Software`/`#Fields` header,
# written again after a service restart at 08:58:41; `+` for spaces in the user agent;
# time-taken in ms). Planted: 401 x233 (c-ip 185.220.101.47 x88, every other under 25);
# 500 x94 (07: 9, 08: 61, 09: 24), the first 07:14:22; /fleet/api/telemetry x300 with a
# mean time-taken of exactly 312 ms.
IIS_FIELDS = ("date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) "
              "sc-status sc-substatus sc-win32-status time-taken")


def iis_log(rng):
    pool = ip_pool(rng, 420, ["185.220.101.47"], [31, 46, 51, 62, 77, 81, 86, 90, 109, 151, 176, 188, 212])
    weights = [1.0 / (i + 10) ** 0.9 for i in range(len(pool))]
    ev = []

    def add(t, m, stem, q, s, sub, win32, taken, ip=None, user="-", ua=None):
        ev.append((t, len(ev), m, stem, q, s, sub, win32, taken, ip or rng.choices(pool, weights)[0], user, ua))

    ua_browser = [u.replace(" ", "+") for u in BROWSER_UAS]
    brute = "185.220.101.47"
    others401 = rng.sample(pool[:120], 40)
    other_counts = spread(rng, 233 - 88, 40, 1, 8)
    for i in range(88):
        add(rtime(rng, "07:20:00", "09:50:00"), "POST", "/fleet/login", "-", 401, 1, 1326, rng.randrange(15, 60), brute,
            "-", "python-requests/2.33.1")
    for ip, k in zip(others401, other_counts):
        for _ in range(k):
            add(rtime(rng, "07:00:30", "09:59:30"), "GET", rng.choice(["/fleet/api/vehicles", "/fleet/api/depots"]), "-",
                401, 2, 5, rng.randrange(1, 9), ip)
    hours = [("07:00:30", "07:59:30", 9), ("08:00:30", "08:59:30", 61), ("09:00:30", "09:59:30", 24)]
    for a, b, k in hours:
        for j in range(k):
            t = at("07:14:22") if (a == "07:00:30" and j == 0) else rtime(rng, "07:14:30" if a == "07:00:30" else a, b)
            t = t.replace(microsecond=0)
            add(t, rng.choice(["GET", "POST"]), rng.choice(["/fleet/api/vehicles", "/fleet/reports/utilisation.aspx"]),
                "-", 500, 0, 0, rng.randrange(200, 9000), user=rng.choice(["QUILLON\\fleetops", "QUILLON\\depot-mgr", "-"]))
    taken = exact_sum(rng, 300, 312 * 300, 40, 2400,
                      lambda: rng.choice([rng.randrange(60, 300), rng.randrange(120, 500), rng.randrange(200, 900)]))
    for v in taken:
        add(rtime(rng, "07:00:30", "09:59:30"), "GET", "/fleet/api/telemetry", f"vin=QVN{rng.randrange(100000, 999999)}&window=15m",
            200, 0, 0, v, user="QUILLON\\svc-telemetry", ua="okhttp/5.3.0")
    pages = [("GET", "/fleet/default.aspx", 8), ("GET", "/fleet/api/vehicles", 14), ("GET", "/fleet/api/depots", 5),
             ("GET", "/fleet/reports/utilisation.aspx", 3), ("GET", "/fleet/Content/site.css", 6),
             ("GET", "/fleet/Scripts/app.min.js", 6), ("POST", "/fleet/api/bookings", 3), ("GET", "/fleet/login", 4)]
    while len(ev) < 2200:
        m, stem, _ = rng.choices(pages, [w for *_, w in pages])[0]
        s, sub = (304, 0) if stem.endswith((".css", ".js")) and rng.random() < 0.5 else (200, 0)
        if stem == "/fleet/api/bookings" and rng.random() < 0.1:
            s = 400
        add(rtime(rng, "07:00:30", "09:59:30"), m, stem, "-" if rng.random() < 0.7 else f"page={rng.randrange(1, 9)}", s, sub,
            0, rng.randrange(1, 700), user=rng.choice(["-", "-", "QUILLON\\fleetops", "QUILLON\\depot-mgr"]))
    ev = [(e[0].replace(microsecond=0),) + e[1:] for e in ev]
    ev.sort(key=lambda e: (e[0], e[1]))

    def header(t):
        return ["#Software: Microsoft Internet Information Services 10.0", "#Version: 1.0",
                f"#Date: {t.strftime('%Y-%m-%d %H:%M:%S')}", f"#Fields: {IIS_FIELDS}"]

    out = header(at("07:00:00"))
    restart = at("08:58:41")
    done_restart = False
    for t, _, m, stem, q, s, sub, win32, taken_ms, ip, user, ua in ev:
        if not done_restart and t >= restart:
            out += header(restart)
            done_restart = True
        out.append(f"{t.strftime('%Y-%m-%d %H:%M:%S')} 10.70.1.20 {m} {stem} {q} 443 {user} {ip} "
                   f"{ua or rng.choice(ua_browser)} {'-' if rng.random() < 0.5 else 'https://fleet.quillon.example/fleet/default.aspx'} "
                   f"{s} {sub} {win32} {taken_ms}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# ocpp-gw.log: the OCPP gateway (Go, log/slog TextHandler: logfmt `time= level= msg=`).
# Planted: level=ERROR x127 ("redis publish failed" x78, the first 08:50:03; "websocket write
# failed" x30; "meter values rejected" x19); "heartbeat timeout" WARNs x409 from 96 distinct
# charger_id (QE-LDS-00412 the most, 23, its last 09:41:33), by site leeds-kirkstall 131 >
# manchester-ancoats 104 > york-clifton 77 > sheffield-kelham 52 > bradford-cityparc 30 >
# hull-marina 15; "session stopped" x420 whose energy_kwh sum to exactly 9437.62.
def ocpp_log(rng):
    ev = []

    def add(t, level, msg, **kv):
        ev.append((t, len(ev), level, msg, kv))

    site_of = dict(SITES)
    per_site = {"LDS": (131, 19), "MAN": (104, 18), "YRK": (77, 17), "SHF": (52, 17), "BRD": (30, 15), "HUL": (15, 10)}
    assert sum(n for _, n in per_site.values()) == 96
    chargers_all = []
    hb = []
    for code, (total, n) in per_site.items():
        ids = [f"QE-{code}-{x:05d}" for x in rng.sample(range(100, 999), n + 12)]
        if code == "LDS":
            ids = [i for i in ids if i != "QE-LDS-00412"]
            ids = ["QE-LDS-00412"] + ids
        chargers_all += ids
        with_hb = ids[:n]
        if code == "LDS":
            counts = [23] + spread(rng, total - 23, n - 1, 1, 12)
        else:
            counts = spread(rng, total, n, 1, 12)
        for cid, k in zip(with_hb, counts):
            hb += [cid] * k
    last_top = hb.index("QE-LDS-00412")
    for i, cid in enumerate(hb):
        code = cid.split("-")[1]
        t = (at("09:41:33.870000") if i == last_top else rtime(rng, "07:00:30", "09:41:30") if cid == "QE-LDS-00412"
             else rtime(rng, "07:00:30", "09:59:30"))
        add(t, "WARN", "heartbeat timeout", charger_id=cid, site=site_of[code], last_seen=f"{rng.randrange(61, 600)}s")
    errs = [("redis publish failed", at("08:50:03.551000"))] + \
        [("redis publish failed", rtime(rng, "08:50:05", "09:15:00")) for _ in range(77)] + \
        [("websocket write failed", rtime(rng, "07:00:30", "09:59:30")) for _ in range(30)] + \
        [("meter values rejected", rtime(rng, "07:00:30", "09:59:30")) for _ in range(19)]
    for msg, t in errs:
        cid = rng.choice(chargers_all)
        if msg == "redis publish failed":
            add(t, "ERROR", msg, channel="meter-values", err="i/o timeout", addr="redis-sess-01.charging.svc:6379")
        elif msg == "websocket write failed":
            add(t, "ERROR", msg, charger_id=cid, err="write tcp 10.244.3.17:8080->10.60.9.4:44120: write: broken pipe")
        else:
            add(t, "ERROR", msg, charger_id=cid, err="sampledValue out of range", measurand="Energy.Active.Import.Register")
    kwh = exact_sum(rng, 420, 943762, 50, 8000, lambda: rng.choice([rng.randrange(300, 2500), rng.randrange(1000, 4500)]))
    for v in kwh:
        cid = rng.choice(chargers_all)
        code = cid.split("-")[1]
        t = rtime(rng, "07:00:30", "09:59:30")
        mins = rng.randrange(8, 140)
        sid = f"S-{rng.randrange(80000000, 89999999)}"
        if t - timedelta(minutes=mins) >= at("07:00:05"):  # else it started before the log begins
            add(t - timedelta(minutes=mins), "INFO", "session started", charger_id=cid, site=site_of[code],
                connector=rng.randrange(1, 3), session_id=sid, id_tag=hexid(rng, 14).upper())
        add(t, "INFO", "session stopped", charger_id=cid, site=site_of[code], session_id=sid,
            energy_kwh=f"{v // 100}.{v % 100:02d}", duration=f"{mins}m{rng.randrange(0, 60)}s",
            reason=rng.choice(["EVDisconnected", "EVDisconnected", "Local", "Remote"]))
    while len(ev) < 3000:
        cid = rng.choice(chargers_all)
        code = cid.split("-")[1]
        t = rtime(rng, "07:00:05", "09:59:55")
        if rng.random() < 0.75:
            add(t, "INFO", "meter values", charger_id=cid, connector=rng.randrange(1, 3), power_kw=f"{rng.randrange(30, 3500) / 10:.1f}",
                soc=rng.randrange(5, 100))
        else:
            add(t, "INFO", "status notification", charger_id=cid, connector=rng.randrange(1, 3),
                status=rng.choice(["Available", "Preparing", "Charging", "SuspendedEV", "Finishing"]))
    ev.sort(key=lambda e: (e[0], e[1]))
    out = []
    for t, _, level, msg, kv in ev:
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
        parts = [f"time={ts}", f"level={level}", f'msg="{msg}"']
        for k, v in kv.items():
            v = str(v)
            parts.append(f'{k}="{v}"' if (" " in v or '"' in v or "=" in v) else f"{k}={v}")
        out.append(" ".join(parts))
    return "\n".join(out) + "\n"
