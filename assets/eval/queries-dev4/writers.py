"""Writers of the `queries-dev4` fixtures (one function a format), seeded. The set's world:
Quillon Energy, a home EV-charging and smart-meter company, on Wednesday 2029-03-14 between
08:00 and 11:00 UTC.

The storyline: the data disk of the Redis master on cache-01 fills up; from 09:47:23 every
BGSAVE fails (`No space left on device`) and Redis refuses writes with MISCONF until the
disk is cleaned and a save succeeds at 10:12:05. `charge-api` (Node, bunyan) answers 5xx
with `ReplyError: MISCONF ...` from 09:47:31, the Python `billing_worker` fails its invoice
batches with `redis.exceptions.ResponseError`, nginx on the edge times out on its upstreams,
and `meter-ingest` (Go, in Docker) buffers until the kernel on node-07 OOM-kills it at
09:52:11 and kubelet puts it in CrashLoopBackOff. From 10:35 the tariff partner
api.tariffhub.example fails and charge-api's `/v2/tariffs/quote` answers 502. The IIS
installer portal and the Squid egress proxy carry their own figures beside it.

Each writer plants the figures the cases ask about (named in the comments) into background
traffic and returns the file's text. The cases' truth is not taken from here: `truth.py`
parses the written text again and `gen.py` asserts the two agree.
"""

import json
import math
from datetime import datetime, timedelta, timezone

UTC = timezone.utc
DAY = datetime(2029, 3, 14, tzinfo=UTC)


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


def mean_to(rng, values, target_sum, lo, hi, step_max=50):
    """Nudges `values` (a list, in place) until they sum to target_sum, each within [lo, hi]."""
    total = sum(values)
    while total != target_sum:
        i = rng.randrange(len(values))
        diff = target_sum - total
        step = max(-step_max, min(step_max, diff))
        if lo <= values[i] + step <= hi:
            values[i] += step
            total += step
    return values


def percentile_span(n, p):
    """The sorted indices (0-based) any common percentile definition reads for p over n values."""
    q = p / 100
    idx = {math.ceil(q * n) - 1, int((n - 1) * q), int((n - 1) * q) + 1, int((n + 1) * q - 1),
           int((n + 1) * q - 1) + 1, int(q * n)}
    return min(idx), min(max(idx), n - 1)


def plateau_values(rng, fixed, n_total, p, value, low, high, margin=10):
    """Values for the n_total - len(fixed) free rows such that, with the `fixed` values, the
    p-th percentile sits inside a plateau of `value` (so every percentile definition agrees).
    low() draws below `value`, high() above."""
    assert value not in fixed
    a, b = percentile_span(n_total, p)
    start, end = a - margin, b + margin
    below = sum(1 for v in fixed if v < value)
    n_low, n_plat = start - below, end - start + 1
    n_high = n_total - len(fixed) - n_low - n_plat
    assert n_low >= 0 and n_high >= 0, (n_low, n_high)
    pool = [low() for _ in range(n_low)] + [value] * n_plat + [high() for _ in range(n_high)]
    assert all(v < value for v in pool[:n_low]) and all(v > value for v in pool[n_low + n_plat:])
    rng.shuffle(pool)
    return pool


def by_minute(rng, plan, lo="00", hi="59.999"):
    """Times from {"HH:MM": k}: k uniform times inside each minute."""
    return [in_minute(rng, m, lo, hi) for m, k in plan.items() for _ in range(k)]


# ---------------------------------------------------------------------------------------
# u_ex290314.log: IIS 10 W3C extended log of the installer portal (installers.quillon.example,
# Windows authentication), 1,600 requests 08:00-11:00 with a second header block after the
# 09:12 restart of W3SVC. Planted: 500 x97 (the first at 08:14:37; photos.ashx x70,
# bookings.aspx x27); 401 x83 (anonymous `-`); DELETE /installers/api/bookings.aspx 200 x76
# (404 x11); top c-ip 198.51.100.73 (240); top cs-username QUILLON\mfenwick (212, above the
# anonymous `-`); mean time-taken of /installers/api/jobs.aspx exactly 347 ms; time-taken
# p95 = 2406 ms on a plateau.
IIS_FIELDS = ("date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) "
              "cs(Referer) sc-status sc-substatus sc-win32-status time-taken")
IIS_USERS = ["afenwick", "bokafor", "cdlamini", "dharrow", "ekowalski", "fnairn", "gpatel", "hmorrow", "iquayle",
             "jbaptiste", "kteller", "lwynne", "mbrook", "nadeyemi", "oprice", "pvance", "rholt", "sidris",
             "tmarsh", "uokoro", "vlindqvist", "wcarrow", "yberg", "zkhan"]
IIS_UAS = ["Mozilla/5.0+(Windows+NT+10.0;+Win64;+x64)+AppleWebKit/537.36+(KHTML,+like+Gecko)+Chrome/148.0.0.0+Safari/537.36+Edg/148.0.0.0",
           "Mozilla/5.0+(Windows+NT+10.0;+Win64;+x64)+AppleWebKit/537.36+(KHTML,+like+Gecko)+Chrome/148.0.0.0+Safari/537.36",
           "Quillon-Installer/4.2.0+(Android+16;+SM-T970)", "Quillon-Installer/4.2.0+(iPadOS+22.1)"]


def iis_log(rng):
    top_ip, lb = "198.51.100.73", "10.20.0.2"
    pool = ip_pool(rng, 900, [top_ip, lb], [5, 31, 37, 46, 62, 77, 78, 81, 86, 90, 109, 151, 176, 185, 188, 212, 217])
    weights = [1.0 / (i + 25) ** 0.8 for i in range(len(pool))]
    ev = []

    def add(t, m, stem, s, sub=0, win=0, user=None, ip=None, q="-", tt=None):
        ev.append({"t": t, "m": m, "stem": stem, "q": q, "s": s, "sub": sub, "win": win, "user": user, "ip": ip, "tt": tt})

    def bq():
        return f"id={rng.randrange(410000, 499999)}"

    add(at("08:14:37"), "POST", "/installers/api/photos.ashx", 500, q=f"job={rng.randrange(880000, 889999)}")
    for i in range(96):
        if i < 69:
            add(rtime(rng, "08:16:00", "10:58:00"), "POST", "/installers/api/photos.ashx", 500, q=f"job={rng.randrange(880000, 889999)}")
        else:
            add(rtime(rng, "08:16:00", "10:58:00"), "POST", "/installers/api/bookings.aspx", 500, q=bq())
    for _ in range(83):
        stem = rng.choice(["/installers/default.aspx", "/installers/jobs/list.aspx", "/installers/api/bookings.aspx"])
        add(rtime(rng, "08:00:05", "10:59:50"), "GET", stem, 401, rng.choice([2, 2, 2, 1]), rng.choice([0, 5]), user="-")
    for i in range(87):
        add(rtime(rng, "08:02:00", "10:58:00"), "DELETE", "/installers/api/bookings.aspx", 200 if i < 76 else 404, q=bq())
    for k in range(36):
        add(DAY + timedelta(hours=8, minutes=5 * k, seconds=rng.randrange(0, 59)), "GET", "/healthcheck.htm", 200, user="-", ip=lb)
    for _ in range(212):
        add(rtime(rng, "08:00:10", "10:59:50"), "GET", rng.choice(["/installers/api/jobs.aspx", "/installers/jobs/list.aspx",
                                                                   "/installers/default.aspx"]), 200, user="mfenwick")
    for _ in range(240):
        add(rtime(rng, "08:00:10", "10:59:50"), "GET", rng.choice(["/installers/api/jobs.aspx", "/installers/Content/site.css",
                                                                   "/installers/jobs/list.aspx", "/installers/Scripts/app.min.js"]),
            200, ip=top_ip)
    bg = [("GET", "/installers/default.aspx", 10), ("GET", "/installers/jobs/list.aspx", 14), ("GET", "/installers/api/jobs.aspx", 16),
          ("GET", "/installers/api/bookings.aspx", 9), ("POST", "/installers/api/bookings.aspx", 4),
          ("POST", "/installers/api/photos.ashx", 6), ("GET", "/installers/Content/site.css", 8),
          ("GET", "/installers/Scripts/app.min.js", 8), ("GET", "/installers/docs/wiring-guide-v7.pdf", 2),
          ("GET", "/installers/img/logo.png", 5)]
    while len(ev) < 1600:
        m, stem, _ = rng.choices(bg, [w for *_, w in bg])[0]
        s = 200
        if stem.startswith("/installers/Content") or stem.startswith("/installers/Scripts") or stem.endswith(".png"):
            s = 304 if rng.random() < 0.4 else 200
        q = {"/installers/api/jobs.aspx": f"installer={rng.randrange(1000, 1999)}&date=2029-03-14",
             "/installers/api/bookings.aspx": bq(), "/installers/api/photos.ashx": f"job={rng.randrange(880000, 889999)}"}.get(stem, "-")
        add(rtime(rng, "08:00:03", "10:59:57"), m, stem, s, q=q)
    for e in ev:
        if e["user"] is None:
            e["user"] = rng.choice(IIS_USERS)
        if e["ip"] is None:
            e["ip"] = rng.choices(pool, weights)[0]
        if e["stem"] == "/installers/api/jobs.aspx" and e["q"] == "-":
            e["q"] = f"installer={rng.randrange(1000, 1999)}&date=2029-03-14"
    # time-taken: jobs.aspx averages exactly 347 ms (all below the plateau); the rest put
    # 2406 on a plateau around p95
    jobs = [e for e in ev if e["stem"] == "/installers/api/jobs.aspx"]
    vals = mean_to(rng, [rng.choice([rng.randrange(31, 300), rng.randrange(120, 900)]) for _ in jobs], 347 * len(jobs), 31, 1900)
    for e, v in zip(jobs, vals):
        e["tt"] = v
    rest = [e for e in ev if e["tt"] is None]
    pool_tt = plateau_values(rng, vals, len(ev), 95, 2406,
                             lambda: rng.choice([rng.randrange(0, 40), rng.randrange(15, 600), rng.randrange(100, 2405)]),
                             lambda: rng.choice([rng.randrange(2407, 4000), rng.randrange(2407, 15000)]))
    for e, v in zip(rest, pool_tt):
        e["tt"] = v
    ev.sort(key=lambda e: e["t"])
    header = ["#Software: Microsoft Internet Information Services 10.0", "#Version: 1.0", None, f"#Fields: {IIS_FIELDS}"]
    lines = []
    restarted = False
    for i, e in enumerate(ev):
        if i == 0 or (not restarted and e["t"] >= at("09:12:00")):
            stamp = "2029-03-14 08:00:00" if i == 0 else "2029-03-14 09:12:04"
            restarted = i > 0
            lines += [h if h else f"#Date: {stamp}" for h in header]
        ref = "-" if e["stem"].startswith("/healthcheck") or rng.random() < 0.3 else \
            "https://installers.quillon.example/installers/jobs/list.aspx"
        ua = "HealthCheck/1.0" if e["ip"] == lb else rng.choice(IIS_UAS)
        user = e["user"] if e["user"] == "-" else f"QUILLON\\{e['user']}"
        lines.append(f"{e['t'].strftime('%Y-%m-%d %H:%M:%S')} 10.20.0.15 {e['m']} {e['stem']} {e['q']} 443 {user} {e['ip']} "
                     f"{ua} {ref} {e['s']} {e['sub']} {e['win']} {e['tt']}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# error.log: nginx error log of edge-01 (api.quillon.example). Planted: `upstream timed out`
# x143 (10.60.3.14:8080 the most; peak minute 09:58; hour 09 the most); first `no live
# upstreams` 09:53:40; `connect() failed (111: Connection refused)` x88; `limiting requests`
# from 62 distinct clients.
NGX_UP = {"charge_api": ["10.60.3.14:8080", "10.60.3.15:8080", "10.60.3.16:8080"],
          "meter_ingest": ["10.60.4.21:9000", "10.60.4.22:9000"]}
NGX_REQ = {"charge_api": [("POST", "/v2/sessions/start"), ("POST", "/v2/sessions/stop"), ("GET", "/v2/tariffs/quote"),
                          ("GET", "/v2/chargers/status")],
           "meter_ingest": [("POST", "/v1/readings"), ("POST", "/v1/readings/batch")]}


def nginx_error(rng):
    out = []
    cid = [8810000]
    clients = ip_pool(rng, 500, [], [5, 31, 46, 62, 77, 81, 86, 92, 109, 146, 176, 185, 212])

    def log(t, level, msg, client=None, upstream_text=None, req=None):
        cid[0] += rng.randrange(3, 900)
        pid = rng.choice([2231, 2232, 2233, 2234])
        line = f"{t.strftime('%Y/%m/%d %H:%M:%S')} [{level}] {pid}#{pid}: *{cid[0]} {msg}"
        if client:
            line += f", client: {client}, server: api.quillon.example"
            if req:
                line += f', request: "{req[0]} {req[1]} HTTP/1.1"'
            if upstream_text:
                line += f', upstream: "{upstream_text}"'
            line += ', host: "api.quillon.example"'
        out.append((t, len(out), line))

    def upstream_err(t, msg, group, addr):
        req = rng.choice(NGX_REQ[group])
        text = f"http://{addr}{req[1]}" if addr else f"http://{group}{req[1]}"
        log(t, "error", msg, rng.choice(clients), upstream_text=text, req=req)

    plan = {"09:47": 2, "09:48": 3, "09:49": 4, "09:50": 5, "09:51": 6, "09:52": 6, "09:53": 7, "09:54": 8, "09:55": 8,
            "09:56": 9, "09:57": 10, "09:58": 15, "09:59": 9, "10:00": 6, "10:01": 5, "10:02": 4, "10:03": 3, "10:04": 3,
            "10:05": 2, "10:06": 2, "10:07": 1, "10:08": 1, "10:09": 1, "10:10": 1, "10:11": 1}
    times = by_minute(rng, plan)
    while len(times) < 143:
        times.append(rtime_in(rng, [("08:05:00", "09:40:00"), ("10:20:00", "10:58:00")]))
    ups = ["10.60.3.14:8080"] * 61 + ["10.60.3.15:8080"] * 34 + ["10.60.3.16:8080"] * 27 + ["10.60.4.21:9000"] * 12 + \
        ["10.60.4.22:9000"] * 9
    rng.shuffle(ups)
    for t, addr in zip(times, ups):
        group = "charge_api" if addr.endswith(":8080") else "meter_ingest"
        upstream_err(t, "upstream timed out (110: Connection timed out) while reading response header from upstream", group, addr)
    upstream_err(at("09:53:40"), "no live upstreams while connecting to upstream", "meter_ingest", None)
    for _ in range(23):
        upstream_err(rtime(rng, "09:53:41", "10:04:00"), "no live upstreams while connecting to upstream", "meter_ingest", None)
    for _ in range(88):
        t = rtime_in(rng, [("08:01:00", "10:59:00"), ("09:52:00", "10:05:00")])
        upstream_err(t, "connect() failed (111: Connection refused) while connecting to upstream", "meter_ingest",
                     rng.choice(NGX_UP["meter_ingest"]))
    limited = ip_pool(rng, 62, clients, [45, 94, 103, 157, 188])
    hits = limited + [rng.choice(limited) for _ in range(91)]
    for ip in hits:
        t = rtime(rng, "08:01:00", "10:59:00")
        log(t, "error", f'limiting requests, excess: {rng.randrange(10, 60)}.{rng.randrange(0, 999):03d} by zone "perip"', ip,
            req=rng.choice(NGX_REQ["charge_api"]))
    for _ in range(60):
        log(rtime(rng, "08:01:00", "10:59:00"), "error",
            f'open() "/usr/share/nginx/html/{rng.choice(["favicon.ico", "robots.txt", ".env", "wp-login.php", "apple-touch-icon.png"])}" '
            'failed (2: No such file or directory)', rng.choice(clients), req=("GET", "/favicon.ico"))
    for _ in range(31):
        log(rtime(rng, "08:01:00", "10:59:00"), "crit",
            f"SSL_do_handshake() failed (SSL: error:0A00006C:SSL routines::bad key share) while SSL handshaking, "
            f"client: {rng.choice(clients)}, server: 0.0.0.0:443")
    for _ in range(84):
        req = rng.choice(NGX_REQ["meter_ingest"])
        log(rtime(rng, "08:01:00", "10:59:00"), "warn",
            f"a client request body is buffered to a temporary file /var/cache/nginx/client_temp/00000{rng.randrange(10000, 99999)}",
            rng.choice(clients), req=req)
    for t in ["08:00:00", "09:12:31"]:
        log(at(t), "notice", "signal process started")
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# charge-api.log: bunyan JSON lines of the Node charge-api (numeric `level`: 30 info, 40
# warn, 50 error), 2,000 lines, request lines with `req`, `res.statusCode` and `latency`
# (ms). Planted: level 50 x166 (5xx requests x139 + 27 `tariff cache refresh failed`);
# 5xx: /v2/tariffs/quote 68 (all in 10:35-10:59:30, the last 30 minutes) >
# /v2/sessions/start 60 > /v2/sessions/stop 11; the first MISCONF 09:47:31; mean latency
# of the 5xx exactly 1874 ms; latency p99 = 3180 on a plateau; the three slowest 9120
# (CP-MAN-0233), 8045, 7311.
def charger(rng):
    site = rng.choice(["LON", "LON", "MAN", "BRS", "LDS", "GLA", "CDF"])
    return f"CP-{site}-{rng.randrange(1, 420):04d}"


MISCONF = ("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. "
           "Commands that may modify the data set are disabled, because this instance is configured to report errors "
           "during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for "
           "details about the RDB error.")


def charge_api(rng):
    ev = []
    pods = ["charge-api-6d8f7c9b5-k2x9p", "charge-api-6d8f7c9b5-r7tmw", "charge-api-6d8f7c9b5-vq4hd"]

    def req(t, m, url, s, ch=None, lat=None):
        ev.append({"kind": "req", "t": t, "m": m, "url": url, "s": s, "ch": ch or charger(rng), "lat": lat})

    req(at("09:47:31.208"), "POST", "/v2/sessions/start", 503)
    for i in range(70):
        t = rtime(rng, "09:47:32", "10:11:59")
        if i < 59:
            req(t, "POST", "/v2/sessions/start", 503)
        else:
            req(t, "POST", "/v2/sessions/stop", 503)
    for _ in range(68):
        req(rtime(rng, "10:35:00", "10:59:30"), "GET", "/v2/tariffs/quote", 502)
    for t, lat, ch in [("08:41:19.551", 9120, "CP-MAN-0233"), ("10:18:02.914", 8045, "CP-LON-0108"),
                       ("09:05:44.370", 7311, "CP-BRS-0391")]:
        req(at(t), "POST", "/v2/sessions/start", 201, ch, lat)
    for _ in range(27):
        ev.append({"kind": "bgerr", "t": rtime(rng, "09:47:40", "10:11:50")})
    for _ in range(40):
        ev.append({"kind": "warn", "t": rtime(rng, "08:01:00", "10:59:00")})
    ev.append({"kind": "req", "t": at("10:59:58.412"), "m": "GET", "url": "/healthz", "s": 200, "ch": None, "lat": 2})
    bg = [("POST", "/v2/sessions/start", 201, 12), ("POST", "/v2/sessions/stop", 200, 10), ("GET", "/v2/tariffs/quote", 200, 14),
          ("GET", "/v2/chargers/status", 200, 22), ("POST", "/v2/chargers/heartbeat", 204, 30), ("GET", "/healthz", 200, 4),
          ("GET", "/v2/sessions/history", 200, 5)]
    while len(ev) < 2000:
        m, url, s, _ = rng.choices(bg, [w for *_, w in bg])[0]
        if url == "/v2/chargers/status" and rng.random() < 0.05:
            s = 404
        if url == "/v2/sessions/start" and rng.random() < 0.04:
            s = 409
        req(rtime(rng, "08:00:01", "10:59:50"), m, url, s)
    reqs = [e for e in ev if e["kind"] == "req"]
    five = [e for e in reqs if e["s"] >= 500]
    lat5 = mean_to(rng, [rng.choice([rng.randrange(5, 60), rng.randrange(1500, 3100), rng.randrange(2000, 3100)]) for _ in five],
                   1874 * len(five), 5, 3100)
    for e, v in zip(five, lat5):
        e["lat"] = v
    fixed = [e["lat"] for e in reqs if e["lat"] is not None]
    free = [e for e in reqs if e["lat"] is None]
    vals = plateau_values(rng, fixed, len(reqs), 99, 3180,
                          lambda: rng.choice([rng.randrange(2, 40), rng.randrange(8, 300), rng.randrange(30, 3179)]),
                          lambda: rng.randrange(3181, 6900))
    for e, v in zip(free, vals):
        e["lat"] = v
    ev.sort(key=lambda e: e["t"])
    lines = []
    for e in ev:
        ts = e["t"].strftime("%Y-%m-%dT%H:%M:%S.") + f"{e['t'].microsecond // 1000:03d}Z"
        base = {"name": "charge-api", "hostname": rng.choice(pods), "pid": 1}
        if e["kind"] == "req":
            level = 50 if e["s"] >= 500 else 40 if e["s"] >= 400 else 30
            rec = dict(base, level=level, req_id=uuid4(rng))
            if e["url"] != "/healthz":
                rec["charger_id"] = e["ch"]
            rec["req"] = {"method": e["m"], "url": e["url"], "remoteAddress": f"::ffff:10.60.1.{rng.randrange(20, 40)}"}
            rec["res"] = {"statusCode": e["s"]}
            rec["latency"] = e["lat"]
            if e["s"] in (503,):
                rec["err"] = {"message": MISCONF, "name": "ReplyError", "command": {"name": "hset", "args": ["session:" + hexid(rng, 12)]},
                              "stack": f"ReplyError: {MISCONF}\n    at parseError (/app/node_modules/redis-parser/lib/parser.js:179:12)"
                                       "\n    at parseType (/app/node_modules/redis-parser/lib/parser.js:302:14)"}
            elif e["s"] == 502:
                rec["err"] = {"message": "upstream api.tariffhub.example responded 502 Bad Gateway", "name": "TariffHubError",
                              "stack": "TariffHubError: upstream api.tariffhub.example responded 502 Bad Gateway\n"
                                       "    at TariffClient.quote (/app/src/tariffs/client.js:88:13)"}
            rec["msg"] = "request failed" if e["s"] >= 500 else "request completed"
        elif e["kind"] == "bgerr":
            rec = dict(base, level=50, job="tariff-cache-refresh",
                       err={"message": MISCONF, "name": "ReplyError",
                            "stack": f"ReplyError: {MISCONF}\n    at parseError (/app/node_modules/redis-parser/lib/parser.js:179:12)"},
                       msg="tariff cache refresh failed")
        else:
            rec = dict(base, level=40, redis={"command": rng.choice(["hgetall", "hset", "zadd"]), "ms": rng.randrange(120, 900)},
                       msg="slow redis command")
        rec["time"] = ts
        rec["v"] = 0
        lines.append(json.dumps(rec, separators=(",", ":")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# <id>-json.log: Docker json-file log of the meter-ingest container (Go, log/slog text
# handler: logfmt with Go duration strings `950µs`, `386.2ms`, `1.204s`), 1,800 lines.
# Planted: level=ERROR x152 by site LON-04 47 > MAN-02 38 > BRS-01 31 > LDS-03 27 > GLA-01 9;
# meter MTR-220931 (at MAN-02) has the most errors (14); max `dur` 7.412803s; median `dur`
# 386.2ms on a plateau; restarts after the OOM kills (startup lines without dur).
METER_SITES = ["LON-04", "MAN-02", "BRS-01", "LDS-03", "GLA-01"]


def go_duration(us):
    if us < 1000:
        return f"{us}µs"
    if us < 1_000_000:
        return f"{us / 1000:.3f}".rstrip("0").rstrip(".") + "ms"
    return f"{us / 1e6:.6f}".rstrip("0").rstrip(".") + "s"


def meter_ingest(rng):
    meters = {s: [f"MTR-{rng.randrange(100000, 999999)}" for _ in range(40)] for s in METER_SITES}
    meters["MAN-02"][0] = "MTR-220931"
    ev = []

    def flush(t, level, site, meter=None, dur=None):
        ev.append({"kind": "flush", "t": t, "level": level, "site": site, "meter": meter or rng.choice(meters[site][1:]), "dur": dur})

    err_sites = ["LON-04"] * 46 + ["MAN-02"] * 24 + ["BRS-01"] * 31 + ["LDS-03"] * 27 + ["GLA-01"] * 9
    for i, site in enumerate(err_sites):
        t = rtime(rng, "09:47:30", "10:12:00") if i % 3 else rtime(rng, "08:02:00", "10:58:00")
        flush(t, "ERROR", site)
    for _ in range(14):
        flush(rtime(rng, "08:02:00", "10:58:00"), "ERROR", "MAN-02", "MTR-220931")
    flush(at("09:51:48.913"), "ERROR", "LON-04", None, 7412803)
    restarts = ["09:52:14.102", "09:53:01.877", "09:54:29.340", "09:57:12.661", "10:02:31.025"]
    for r in restarts:
        ev.append({"kind": "start", "t": at(r)})
    for _ in range(90):
        ev.append({"kind": "warn", "t": rtime(rng, "08:02:00", "10:58:00")})
    while len(ev) + 2 * len(restarts) < 1800:
        flush(rtime(rng, "08:00:02", "10:59:58"), "INFO", rng.choice(METER_SITES))
    flushes = [e for e in ev if e["kind"] == "flush"]
    fixed = [e["dur"] for e in flushes if e["dur"] is not None]
    free = [e for e in flushes if e["dur"] is None]
    vals = plateau_values(rng, fixed, len(flushes), 50, 386200,
                          lambda: rng.choice([rng.randrange(300, 999), rng.randrange(1000, 386199), rng.randrange(90000, 386199)]),
                          lambda: rng.choice([rng.randrange(386201, 999999), rng.randrange(386201, 5900000)]))
    for e, v in zip(free, vals):
        e["dur"] = v
    ev.sort(key=lambda e: e["t"])
    lines = []

    def emit(t, inner, stream="stderr"):
        docker_ts = t.strftime("%Y-%m-%dT%H:%M:%S.%f") + f"{rng.randrange(0, 1000):03d}Z"
        lines.append(json.dumps({"log": inner + "\n", "stream": stream, "time": docker_ts}, ensure_ascii=False,
                                separators=(",", ":")))

    for e in ev:
        t = e["t"]
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
        if e["kind"] == "flush":
            rows = rng.randrange(64, 2049)
            if e["level"] == "ERROR":
                err = rng.choice(['"write redis: MISCONF Redis is configured to save RDB snapshots"',
                                  '"context deadline exceeded"', '"dial tcp 10.60.2.5:6379: i/o timeout"'])
                emit(t, f'time={ts} level=ERROR msg="flush failed" site={e["site"]} meter_id={e["meter"]} rows={rows} '
                        f'dur={go_duration(e["dur"])} err={err}')
            else:
                emit(t, f'time={ts} level=INFO msg="batch flushed" site={e["site"]} meter_id={e["meter"]} rows={rows} '
                        f'dur={go_duration(e["dur"])}')
        elif e["kind"] == "warn":
            emit(t, f'time={ts} level=WARN msg="backpressure: queue depth high" depth={rng.randrange(5000, 48000)} '
                    f'site={rng.choice(METER_SITES)}')
        else:
            emit(t, f'time={ts} level=INFO msg="starting meter-ingest" version=2.14.1 go=go1.25.3 pid=1')
            t2 = t + timedelta(milliseconds=rng.randrange(20, 300))
            ts2 = t2.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t2.microsecond // 1000:03d}Z"
            emit(t2, f'time={ts2} level=INFO msg="connected to redis" addr=cache-01.internal:6379')
            t3 = t2 + timedelta(milliseconds=rng.randrange(5, 80))
            ts3 = t3.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t3.microsecond // 1000:03d}Z"
            emit(t3, f'time={ts3} level=INFO msg="listening" addr=:9000', "stdout")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# billing_worker.log: Python `logging` (`%(asctime)s - %(name)s - %(levelname)s -
# %(message)s`) with tracebacks. Invoice batches at :05, :20, :35, :50. Planted: ERROR x134
# (billing.invoices 109: 45 in the 09:50 batch and 64 in the 10:05 batch, all
# redis.exceptions.ResponseError MISCONF; billing.tariffs 13 without traceback;
# billing.payouts 12 psycopg2.OperationalError); `Traceback` x121; no ERROR in 10:00-10:05
# or 10:10-10:15; the longest batch 48.207 s (10:05).
PY_TB_REDIS = [
    "Traceback (most recent call last):",
    '  File "/opt/billing/billing/invoices.py", line 214, in post_invoice',
    "    self.cache.hset(key, mapping=payload)",
    '  File "/opt/billing/.venv/lib/python3.11/site-packages/redis/commands/core.py", line 4961, in hset',
    '    return self.execute_command("HSET", name, *items)',
    '  File "/opt/billing/.venv/lib/python3.11/site-packages/redis/client.py", line 545, in execute_command',
    "    return conn.retry.call_with_retry(",
    '  File "/opt/billing/.venv/lib/python3.11/site-packages/redis/client.py", line 581, in _send_command_parse_response',
    "    return self.parse_response(conn, command_name, **options)",
    f"redis.exceptions.ResponseError: {MISCONF}",
]
PY_TB_PG = [
    "Traceback (most recent call last):",
    '  File "/opt/billing/billing/payouts.py", line 77, in settle',
    "    cur.execute(SETTLE_SQL, (batch_id,))",
    'psycopg2.OperationalError: could not connect to server: Connection timed out',
    '\tIs the server running on host "pg-billing.internal" (10.60.5.10) and accepting',
    "\tTCP/IP connections on port 5432?",
]


def billing_worker(rng):
    out = []

    def log(t, name, level, msg, extra=()):
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        out.append((t, len(out), "\n".join([f"{ts} - {name} - {level} - {msg}", *extra])))

    def inv():
        return f"INV-20290314-{rng.randrange(1000, 9999)}", f"AC-{rng.randrange(10000, 99999)}"

    durations = {}
    for h in (8, 9, 10):
        for m in (5, 20, 35, 50):
            durations[(h, m)] = rng.randrange(8000, 30000) / 1000
    durations[(10, 5)] = 48.207
    fails = {(9, 50): 45, (10, 5): 64}
    for (h, m), dur in durations.items():
        start = DAY + timedelta(hours=h, minutes=m, seconds=1, microseconds=rng.randrange(0, 900000))
        n = rng.randrange(60, 90)
        nf = fails.get((h, m), 0)
        log(start, "billing.scheduler", "INFO", f"invoice batch {start.strftime('%H:%M')} started ({n + nf} invoices)")
        span = dur - 0.5
        for i in range(n + nf):
            t = start + timedelta(seconds=rng.uniform(0.2, span))
            no, ac = inv()
            if i < nf:
                log(t, "billing.invoices", "ERROR", f"failed to post invoice {no} for account {ac}", PY_TB_REDIS)
            else:
                log(t, "billing.invoices", "INFO", f"posted invoice {no} for account {ac} amount={rng.randrange(800, 24000) / 100:.2f} GBP")
        log(start + timedelta(seconds=dur), "billing.scheduler", "INFO",
            f"invoice batch {start.strftime('%H:%M')} finished in {dur:.3f}s: ok={n} failed={nf}")
    calm = [("08:00:30", "09:40:00"), ("10:20:00", "10:59:30")]
    for _ in range(13):
        log(rtime_in(rng, calm), "billing.tariffs", "ERROR",
            f"tariff refresh failed: HTTP {rng.choice([502, 503, 504])} from https://api.tariffhub.example/v1/rates")
    for _ in range(12):
        log(rtime_in(rng, calm), "billing.payouts", "ERROR", f"settlement run {rng.randrange(9000, 9999)} failed", PY_TB_PG)
    for _ in range(57):
        log(rtime(rng, "08:00:30", "10:59:30"), "urllib3.connectionpool", "WARNING",
            "Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken by "
            "'ReadTimeoutError(\"HTTPSConnectionPool(host='api.tariffhub.example', port=443): Read timed out. (read timeout=10)\")': /v1/rates")
    for _ in range(21):
        log(rtime(rng, "08:00:30", "10:59:30"), "billing.tariffs", "WARNING", "rates for region UKPN older than 15 minutes, using cached")
    for k in range(36):
        t = DAY + timedelta(hours=8, minutes=5 * k, seconds=rng.randrange(0, 50))
        log(t, "billing.tariffs", "INFO", f"refreshed {rng.randrange(140, 160)} tariff rows")
    log(at("08:00:00.118"), "billing.worker", "INFO", "billing_worker 3.8.2 starting (pid 7731)")
    out.sort()
    return "\n".join(text for _, _, text in out) + "\n"


# ---------------------------------------------------------------------------------------
# redis-server.log: Redis 7 server log of the master on cache-01 (`pid:role dd Mon yyyy
# hh:mm:ss.mmm <c> msg`). Planted: saves every ~60 s; from 09:47:23 every BGSAVE fails
# (`No space left on device`, `Background saving error`) until the last at 10:11:52, then
# success at 10:12:05; `Asynchronous AOF fsync is taking too long` x71; clients closed for
# output buffer limits, 10.60.1.31 the most (15).
def redis_log(rng):
    out = []
    child = [4100]

    def log(t, pid, role, c, msg):
        ts = t.strftime("%d %b %Y %H:%M:%S.") + f"{t.microsecond // 1000:03d}"
        out.append((t, len(out), f"{pid}:{role} {ts} {c} {msg}"))

    def ms(t, k):
        return t + timedelta(milliseconds=k)

    def save(t, ok):
        child[0] += rng.randrange(3, 40)
        cp = child[0]
        log(t, 1, "M", "*", rng.choice(["10000 changes in 60 seconds. Saving...", "100 changes in 300 seconds. Saving..."]))
        log(ms(t, 1), 1, "M", "*", f"Background saving started by pid {cp}")
        if ok:
            t2 = ms(t, rng.randrange(900, 4200))
            log(t2, cp, "C", "*", "DB saved on disk")
            mb = rng.randrange(2, 40)
            log(ms(t2, 1), cp, "C", "*", f"Fork CoW for RDB: current {mb} MB, peak {mb} MB, average {max(1, mb // 2)} MB")
            log(ms(t2, rng.randrange(40, 120)), 1, "M", "*", "Background saving terminated with success")
        else:
            t2 = ms(t, rng.randrange(3, 40))
            log(t2, cp, "C", "#", f"Failed opening the temp RDB file temp-{cp}.rdb (in server root dir /data) for saving: No space left on device")
            log(ms(t2, rng.randrange(40, 120)), 1, "M", "#", "Background saving error")

    t = at("08:00:41.207")
    while t < at("09:47:00"):
        save(t, True)
        t += timedelta(seconds=rng.randrange(60, 75), milliseconds=rng.randrange(0, 999))
    t = at("09:47:23.004")
    last = at("10:11:52.400")
    while t <= last:
        save(t, False)
        t += timedelta(seconds=5, milliseconds=rng.randrange(30, 900))
    save(last, False)
    t = at("10:12:05.118")
    while t < at("10:59:30"):
        save(t, True)
        t += timedelta(seconds=rng.randrange(60, 75), milliseconds=rng.randrange(0, 999))
    for i in range(71):
        tt = rtime(rng, "09:21:00", "10:12:00") if i < 60 else rtime(rng, "08:05:00", "09:20:00")
        log(tt, 1, "M", "*", "Asynchronous AOF fsync is taking too long (disk is busy?). Writing the AOF buffer without waiting "
                             "for fsync to complete, this may slow down Redis.")
    closers = ["10.60.1.31"] * 15 + ["10.60.1.32"] * 9 + ["10.60.1.22"] * 7 + ["10.60.4.21"] * 5 + ["10.60.4.22"] * 4
    for ip in closers:
        tt = rtime(rng, "08:10:00", "10:55:00")
        omem = rng.randrange(268435457, 300000000)
        log(tt, 1, "M", "#", f"Client id={rng.randrange(40000, 99999)} addr={ip}:{rng.randrange(32768, 60999)} laddr=10.60.2.5:6379 "
                             f"fd={rng.randrange(20, 300)} name= age={rng.randrange(1, 4000)} idle=0 flags=N db=0 sub=0 psub=0 "
                             f"ssub=0 multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 "
                             f"oll={rng.randrange(500, 4000)} omem={omem} tot-mem={omem + 2048} events=rw cmd=hgetall "
                             f"user=default redir=-1 resp=2 lib-name= lib-ver= closed for overcoming of output buffer limits.")
    for tt in ["09:49:10.551", "10:13:02.118"]:
        log(at(tt), 1, "M", "#", "Connection with replica 10.60.2.6:6379 lost.")
    log(at("10:13:04.950"), 1, "M", "*", "Replica 10.60.2.6:6379 asks for synchronization")
    log(at("10:13:04.951"), 1, "M", "*", "Partial resynchronization request from 10.60.2.6:6379 accepted. Sending 48213 bytes of backlog "
                                         "starting from offset 91824411.")
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# node-07-journal.txt: `journalctl -o short-iso` of the Kubernetes node node-07 (kubelet
# and containerd in klog / logrus, the kernel, systemd). Planted: kubelet `Error syncing
# pod` x131 (meter-ingest-7d9c5b8f6-qx2lm 58, first 09:52:40; tariff-cache-5f6d7c8b9-zz7pq
# 41; meter-ingest-7d9c5b8f6-wk4tn 32); `Killing container with a grace period` x67
# (containerName meter-ingest the most, 29); the kernel's first OOM kill (meter-ingest)
# 09:52:11; fluent-bit.service restarted 79 times (restart counter 1..79); the largest
# podStartSLOduration 41.873 (billing/billing-worker-84c6d9f7b-t5kzn).
def journal(rng):
    out = []

    def log(t, ident, msg):
        out.append((t, len(out), f"{t.strftime('%Y-%m-%dT%H:%M:%S')}+00:00 node-07 {ident}: {msg}"))

    def klog(t, sev, src, msg):
        log(t, "kubelet[1187]", f"{sev}{t.strftime('%m%d %H:%M:%S.%f')}    1187 {src}] {msg}")

    uids = {}

    def uid(pod):
        return uids.setdefault(pod, uuid4(rng))

    def sync_err(t, ns, pod, container, reason):
        if reason == "crash":
            backoff = rng.choice(["20s", "40s", "1m20s", "2m40s", "5m0s"])
            err = (f'failed to \\"StartContainer\\" for \\"{container}\\" with CrashLoopBackOff: \\"back-off {backoff} restarting '
                   f'failed container={container} pod={pod}_{ns}({uid(pod)})\\"')
        else:
            err = (f'failed to \\"StartContainer\\" for \\"{container}\\" with ImagePullBackOff: \\"Back-off pulling image '
                   f'\\\\\\"registry.quillon.example/platform/{container}:1.9.4\\\\\\"\\"')
        klog(t, "E", "pod_workers.go:1301", f'"Error syncing pod, skipping" err="{err}" pod="{ns}/{pod}" podUID="{uid(pod)}"')

    qx, wk, tc = "meter-ingest-7d9c5b8f6-qx2lm", "meter-ingest-7d9c5b8f6-wk4tn", "tariff-cache-5f6d7c8b9-zz7pq"
    sync_err(at("09:52:40.118204"), "metering", qx, "meter-ingest", "crash")
    for _ in range(57):
        sync_err(rtime(rng, "09:52:41", "10:58:00"), "metering", qx, "meter-ingest", "crash")
    for _ in range(41):
        sync_err(rtime(rng, "08:03:00", "10:58:00"), "pricing", tc, "tariff-cache", "pull")
    for _ in range(32):
        sync_err(rtime(rng, "09:55:30", "10:58:00"), "metering", wk, "meter-ingest", "crash")
    # OOM kills
    ooms = [("09:52:11", qx, 48213), ("09:53:58", wk, 48977), ("09:56:40", qx, 49410), ("10:01:05", qx, 50122),
            ("10:07:51", wk, 50987)]
    for hms, pod, pid in ooms:
        t = at(hms)
        log(t, "kernel", "meter-ingest invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=999")
        log(t, "kernel", f"Memory cgroup out of memory: Killed process {pid} (meter-ingest) total-vm:2874312kB, "
                         f"anon-rss:{rng.randrange(1040000, 1049000)}kB, file-rss:0kB, shmem-rss:0kB, UID:65532 pgtables:2412kB oom_score_adj:999")
        log(t + timedelta(seconds=1), "containerd[902]", f'time="{t.strftime("%Y-%m-%dT%H:%M:%S")}.{rng.randrange(100000000, 999999999)}Z" '
                                                         f'level=info msg="TaskOOM event container_id:\\"{hexid(rng, 64)}\\""')
    kills = ["meter-ingest"] * 29 + ["tariff-cache"] * 14 + ["charge-api"] * 13 + ["fluentd-forwarder"] * 11
    pods_of = {"meter-ingest": ("metering", [qx, wk]), "tariff-cache": ("pricing", [tc]),
               "charge-api": ("charging", ["charge-api-6d8f7c9b5-k2x9p", "charge-api-6d8f7c9b5-r7tmw"]),
               "fluentd-forwarder": ("logging", ["fluentd-forwarder-x8kq2"])}
    for c in kills:
        ns, pods = pods_of[c]
        t = rtime(rng, "09:52:12", "10:58:00") if c == "meter-ingest" else rtime(rng, "08:03:00", "10:58:00")
        pod = rng.choice(pods)
        klog(t, "I", "kuberuntime_container.go:779", f'"Killing container with a grace period" pod="{ns}/{pod}" podUID="{uid(pod)}" '
                                                     f'containerName="{c}" containerID="containerd://{hexid(rng, 64)}" gracePeriod=30')
    # pod startups
    starts = [("billing/billing-worker-84c6d9f7b-t5kzn", "10:14:22.615", 41.873)]
    others = ["metering/" + wk, "metering/" + qx, "charging/charge-api-6d8f7c9b5-vq4hd", "pricing/" + tc,
              "logging/fluentd-forwarder-x8kq2", "kube-system/kube-proxy-n7dqk", "monitoring/node-exporter-2rp9c"]
    for _ in range(38):
        starts.append((rng.choice(others), None, rng.randrange(800, 19000) / 1000))
    for pod, hms, d in starts:
        t = at(hms) if hms else rtime(rng, "08:03:00", "10:58:00")
        e2e = d + rng.randrange(100, 3000) / 1000
        klog(t, "I", "pod_startup_latency_tracker.go:102",
             f'"Observed pod startup duration" pod="{pod}" podStartSLOduration={d:g} podStartE2EDuration="{e2e:g}s" '
             f'podCreationTimestamp="{(t - timedelta(seconds=e2e)).strftime("%Y-%m-%d %H:%M:%S")} +0000 UTC"')
    # fluent-bit.service crash loop: 79 restarts
    t = at("08:01:12")
    for k in range(1, 80):
        log(t, "systemd[1]", "fluent-bit.service: Main process exited, code=exited, status=1/FAILURE")
        log(t, "systemd[1]", "fluent-bit.service: Failed with result 'exit-code'.")
        t2 = t + timedelta(seconds=5)
        log(t2, "systemd[1]", f"fluent-bit.service: Scheduled restart job, restart counter is at {k}.")
        log(t2, "systemd[1]", "Stopped fluent-bit.service - Fluent Bit.")
        log(t2, "systemd[1]", "Started fluent-bit.service - Fluent Bit.")
        log(t2 + timedelta(seconds=1), "fluent-bit[%d]" % (30000 + 37 * k),
            "[error] [output:forward:forward.0] no upstream connections available to fluentd-forwarder.logging.svc:24224")
        t += timedelta(seconds=rng.randrange(120, 140))
    # background kubelet / containerd chatter
    for _ in range(260):
        t = rtime(rng, "08:00:05", "10:59:55")
        r = rng.random()
        if r < 0.4:
            pod = rng.choice(others)
            klog(t, "I", "kubelet.go:2544", f'"SyncLoop (probe)" probe="readiness" status="ready" pod="{pod}"')
        elif r < 0.6:
            klog(t, "I", "scope.go:117", f'"RemoveContainer" containerID="{hexid(rng, 64)}"')
        elif r < 0.75:
            klog(t, "W", "prober.go:104", f'"Probe failed" probeType="Liveness" pod="charging/charge-api-6d8f7c9b5-k2x9p" '
                                          f'containerName="charge-api" probeResult="failure" output="Get \\"http://10.60.3.14:8080/healthz\\": '
                                          'context deadline exceeded (Client.Timeout exceeded while awaiting headers)"')
        elif r < 0.9:
            log(t, "containerd[902]", f'time="{t.strftime("%Y-%m-%dT%H:%M:%S.%f")}000Z" level=info msg="ImageCreate event '
                                      f'name:\\"sha256:{hexid(rng, 64)}\\" labels:{{key:\\"io.cri-containerd.image\\" value:\\"managed\\"}}"')
        else:
            log(t, "systemd-journald[412]", f"Data hash table of /var/log/journal/{hexid(rng, 32)}/system.journal has a fill level at "
                                            f"75.{rng.randrange(0, 9)} ({rng.randrange(8000, 9000)} of 11650 items), suggesting rotation.")
    out.sort()
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# access.log: Squid 6 native access log of the egress proxy egress-01 (`epoch.ms elapsed
# client code/status bytes method URL user hierarchy/peer type`), 2,400 lines. Planted:
# TCP_DENIED/403 x188 (10.60.7.33 73; hour 09 100 of them, 86 in 09:30-10:00, none in
# 09:25-09:30 or 10:00-10:05); top destinations (requests) api.tariffhub.example >
# feeds.gridwatch.example > objects.quillon-backup.example; top client 10.60.1.22 (310);
# mean elapsed to api.tariffhub.example exactly 2317 ms; largest transfer 52428800 bytes
# (objects.quillon-backup.example).
SQUID_DEST = {"api.tariffhub.example": ("203.0.113.20", "CONNECT"), "objects.quillon-backup.example": ("198.51.100.90", "CONNECT"),
              "feeds.gridwatch.example": ("198.51.100.40", "GET"), "registry.npmjs.org": ("104.16.24.35", "CONNECT"),
              "pypi.org": ("151.101.0.223", "CONNECT"), "files.pythonhosted.org": ("151.101.64.223", "CONNECT"),
              "github.com": ("140.82.121.4", "CONNECT"), "api.openmeteo.example": ("192.0.2.140", "GET"),
              "time.quillon-ntp.example": ("192.0.2.12", "GET")}
DENIED_DEST = ["pastebin.example:443", "transfer.sh.example:443", "mega.example:443", "tunnelbroker.example:443", "ngrok.example:443"]


def squid_log(rng):
    ev = []
    clients = [f"10.60.{rng.choice([1, 2, 3, 4, 5, 6, 7])}.{rng.randrange(2, 250)}" for _ in range(400)]
    clients = sorted(set(clients) - {"10.60.1.22", "10.60.7.33"})[:180]
    rng.shuffle(clients)

    def add(t, dest, client=None, code=None, bytes_=None, el=None):
        ev.append({"t": t, "dest": dest, "c": client or rng.choice(clients), "code": code, "bytes": bytes_, "el": el})

    # denials
    den = [("08:02:00", "08:59:00", 44), ("09:05:00", "09:25:00", 14), ("09:30:00", "10:00:00", 86), ("10:05:00", "10:58:00", 44)]
    slots = [(a, b) for a, b, k in den for _ in range(k)]
    rng.shuffle(slots)
    who = ["10.60.7.33"] * 73 + [rng.choice(clients) for _ in range(188 - 73)]
    for (a, b), c in zip(slots, who):
        add(rtime(rng, a, b), rng.choice(DENIED_DEST), c, "TCP_DENIED/403", 3871, rng.randrange(0, 3))
    add(at("09:12:40.551"), "objects.quillon-backup.example", "10.60.5.10", "TCP_TUNNEL/200", 52428800, 48211)
    plan = {"api.tariffhub.example": 420, "objects.quillon-backup.example": 330, "feeds.gridwatch.example": 260,
            "registry.npmjs.org": 210, "pypi.org": 180, "files.pythonhosted.org": 170, "github.com": 150,
            "api.openmeteo.example": 120}
    for dest, k in plan.items():
        k -= dest == "objects.quillon-backup.example"
        for _ in range(k):
            add(rtime(rng, "08:00:02", "10:59:58"), dest)
    for _ in range(310):
        add(rtime(rng, "08:00:02", "10:59:58"), rng.choice(["api.tariffhub.example", "feeds.gridwatch.example"]), "10.60.1.22")
    while len(ev) < 2400:
        add(rtime(rng, "08:00:02", "10:59:58"), "time.quillon-ntp.example")
    tariff = [e for e in ev if e["dest"] == "api.tariffhub.example"]
    els = mean_to(rng, [rng.choice([rng.randrange(300, 2500), rng.randrange(1200, 4800)]) for _ in tariff], 2317 * len(tariff), 120, 9000)
    for e, v in zip(tariff, els):
        e["el"] = v
    ev.sort(key=lambda e: e["t"])
    base = int(DAY.timestamp())
    lines = []
    for e in ev:
        ms = (e["t"] - DAY) // timedelta(milliseconds=1)
        ts = f"{base + ms // 1000}.{ms % 1000:03d}"
        dest = e["dest"]
        if e["code"] == "TCP_DENIED/403":
            lines.append(f"{ts} {e['el']:>6} {e['c']} TCP_DENIED/403 3871 CONNECT {dest} - HIER_NONE/- text/html")
            continue
        ip, method = SQUID_DEST[dest]
        el = e["el"] if e["el"] is not None else rng.randrange(5, 1800)
        if method == "CONNECT":
            code = e["code"] or ("TCP_TUNNEL/200" if not (dest == "api.tariffhub.example" and e["t"] >= at("10:35:00")
                                                         and rng.random() < 0.3) else "TCP_TUNNEL/503")
            size = e["bytes"] if e["bytes"] is not None else rng.randrange(3000, 900000 if dest != "objects.quillon-backup.example"
                                                                               else 31000000)
            lines.append(f"{ts} {el:>6} {e['c']} {code} {size} CONNECT {dest}:443 - HIER_DIRECT/{ip} -")
        else:
            path = {"feeds.gridwatch.example": f"/v1/frequency?window={rng.choice([1, 5, 15])}m",
                    "api.openmeteo.example": f"/v1/forecast?lat=51.5&lon=-0.1&hourly=temperature_2m",
                    "time.quillon-ntp.example": "/now"}[dest]
            hit = rng.random() < 0.3 and dest == "feeds.gridwatch.example"
            code = "TCP_MEM_HIT/200" if hit else "TCP_MISS/200"
            size = rng.randrange(300, 24000)
            lines.append(f"{ts} {el:>6} {e['c']} {code} {size} GET http://{dest}{path} - "
                         f"{'HIER_NONE/-' if hit else 'HIER_DIRECT/' + ip} application/json")
    return "\n".join(lines) + "\n"
