"""Writers of the `queries-dev2` set's web, application and container logs (one function a
format), seeded. The set's world: Kestrel Ferries, a ferry booking platform, on Tuesday
2027-03-09 (UTC); the fare engine falls over around 04:11-04:20 and takes bookings, the
edge and the ingress with it.

Each writer plants the figures the cases ask about (named in the comments) into background
traffic and returns the file's text. The cases' truth is not taken from here: `truth.py`
parses the written text again and `gen.py` asserts the two agree.
"""

import json
from datetime import datetime, timedelta, timezone

DAY = datetime(2027, 3, 9, tzinfo=timezone.utc)


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def at(hms, day=DAY):
    """A time of the set's day from "HH:MM:SS" (or "HH:MM:SS.ffffff")."""
    return day + timedelta(seconds=secs(hms))


def rtime(rng, a, b, day=DAY):
    """A uniform time in [a, b) ("HH:MM:SS"), microsecond resolution."""
    lo, hi = secs(a), secs(b)
    return day + timedelta(microseconds=int(rng.uniform(lo, hi) * 1e6))


def in_minute(rng, hhmm):
    return rtime(rng, hhmm + ":00", hhmm + ":59.999")


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


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


def booking_ref(rng):
    return "KF" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))


MOBILE_UAS = ["KestrelFerries/7.4.2 (iPhone; iOS 20.3; Scale/3.00)", "KestrelFerries/7.4.2 (Android 16; Pixel 9)",
              "KestrelFerries/7.3.9 (Android 15; SM-S928B)", "Mozilla/5.0 (X11; Linux x86_64; rv:139.0) Gecko/20100101 Firefox/139.0",
              "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Safari/605.1.15",
              "okhttp/5.1.0", "Go-http-client/2.0"]
APP_UAS = ["KestrelFerries/7.4.2 (iOS 20.3)", "KestrelFerries/7.4.2 (Android 16)", "okhttp/5.1.0"]
PORTS = ["HOL", "DUB", "LIV", "BEL", "CAI", "ROS", "CHE", "SCR", "FIS", "PEM", "ARM", "STR"]


# ---------------------------------------------------------------------------------------
# edge-access.log: nginx with a custom log_format "timed": combined + ` rt=$request_time
# uct="$upstream_connect_time" urt="$upstream_response_time"`, 5,000 requests 03:00:00-
# 04:59:59 on kf-edge-01. Planted: 5xx x210 (4.2%): 504 x150 (138 in 04:11-04:19, none in
# 04:05-04:11 or 04:20-04:30, peak minute 04:16 x35), 502 x42, 500 x18; /api/v3/fares/quote
# the path with the most 5xx; 5xx by client 198.51.100.23 x27, 203.0.113.140 x20,
# 192.0.2.77 x14 (top 3); 4xx: 429 x114 on /api/v3/sailings/search (the 4xx top path), 401
# x73 on /api/v3/auth/token; DELETE of a booking x178 (204 x163, 409 x10, 404 x5); 499 x102,
# 68 of them in 04:48-04:58 and none in 04:25-04:48; rt p90 = 0.612 (a plateau: every
# percentile definition agrees); the slowest request /api/v3/manifests/export rt=27.816.
def edge_nginx(rng):
    planted_ips = ["198.51.100.23", "203.0.113.140", "192.0.2.77"]
    pool = ip_pool(rng, 1200, planted_ips, [5, 31, 46, 62, 78, 86, 89, 92, 109, 141, 151, 178, 185, 193, 212])
    weights = [1.0 / (i + 20) ** 0.8 for i in range(len(pool))]
    ev = []

    def pick():
        return rng.choices(pool, weights)[0]

    def add(t, m, p, s, ip=None, rt=None):
        ev.append({"t": t, "ip": ip or pick(), "m": m, "p": p, "s": s, "rt": rt})

    def search_path():
        a, b = rng.sample(PORTS, 2)
        return f"/api/v3/sailings/search?from={a}&to={b}&d=03{rng.randrange(10, 31)}"

    fives = []
    per_min = {"04:11": 8, "04:12": 12, "04:13": 14, "04:14": 19, "04:15": 22, "04:16": 35,
               "04:17": 16, "04:18": 8, "04:19": 4}
    paths504 = ["quote"] * 95 + ["search"] * 33 + ["book"] * 10
    rng.shuffle(paths504)
    k = 0
    for minute, n in per_min.items():
        for _ in range(n):
            kind = paths504[k]
            k += 1
            p = {"quote": "/api/v3/fares/quote", "search": None, "book": "/api/v3/bookings"}[kind] or search_path()
            add(in_minute(rng, minute), "GET" if kind == "search" else "POST", p, 504,
                rt=rng.randrange(10000, 10010) / 1000)
            fives.append(len(ev) - 1)
    for i in range(12):
        t = rtime(rng, "03:00:30", "03:55:00") if i < 8 else rtime(rng, "04:35:00", "04:58:00")
        add(t, "POST", "/api/v3/bookings", 504, rt=rng.randrange(10000, 10010) / 1000)
        fives.append(len(ev) - 1)
    for i in range(42):
        t = rtime(rng, "04:12:00", "04:18:59") if i < 20 else rtime(rng, "03:00:30", "04:58:00")
        p = rng.choice(["/api/v3/fares/quote", "/api/v3/bookings", f"/api/v3/sailings/{rng.randrange(120000, 129999)}"])
        add(t, "GET" if "sailings" in p else "POST", p, 502, rt=rng.randrange(1, 30) / 1000)
        fives.append(len(ev) - 1)
    for _ in range(18):
        p = rng.choice([f"/api/v3/checkin/{booking_ref(rng)}", "/api/v3/fares/quote", "/api/v3/account/trips"])
        add(rtime(rng, "03:00:30", "04:58:00"), "GET" if "trips" in p else "POST", p, 500,
            rt=rng.randrange(40, 400) / 1000)
        fives.append(len(ev) - 1)
    slots = rng.sample(fives, 27 + 20 + 14)
    for j, idx in enumerate(slots):
        ev[idx]["ip"] = planted_ips[0] if j < 27 else planted_ips[1] if j < 47 else planted_ips[2]
    for _ in range(114):
        add(rtime(rng, "03:20:00", "04:50:00"), "GET", search_path(), 429, rt=rng.randrange(0, 3) / 1000)
    for _ in range(73):
        add(rtime(rng, "03:00:30", "04:58:00"), "POST", "/api/v3/auth/token", 401)
    for i in range(178):
        s = 204 if i < 163 else 409 if i < 173 else 404
        add(rtime(rng, "03:00:30", "04:58:00"), "DELETE", f"/api/v3/bookings/{booking_ref(rng)}", s)
    for i in range(102):
        t = rtime(rng, "04:48:00", "04:58:59") if i < 68 else rtime(rng, "03:00:30", "04:24:00")
        add(t, "GET", search_path(), 499, rt=rng.randrange(200, 9500) / 1000)
    add(at("03:38:41.552"), "GET", "/api/v3/manifests/export?sailing=KF1207&format=csv", 200, rt=27.816)
    add(at("03:00:00"), "GET", "/healthz", 200)
    add(at("04:59:59"), "GET", "/healthz", 200)
    bg = [("GET", "search", 22), ("GET", "sailing", 16), ("POST", "/api/v3/fares/quote", 12),
          ("POST", "/api/v3/bookings", 5), ("GET", "booking", 9), ("POST", "checkin", 4),
          ("GET", "/api/v3/account/trips", 6), ("POST", "/api/v3/auth/token", 5),
          ("GET", "/static/app.7f3c2e.js", 5), ("GET", "/static/app.51ab09.css", 4),
          ("GET", "/static/img/route-map.webp", 3), ("GET", "/", 6), ("GET", "/favicon.ico", 1)]
    while len(ev) < 5000:
        m, p, _ = rng.choices(bg, [w for _, _, w in bg])[0]
        p = {"search": search_path(), "sailing": f"/api/v3/sailings/{rng.randrange(120000, 129999)}",
             "booking": f"/api/v3/bookings/{booking_ref(rng)}", "checkin": f"/api/v3/checkin/{booking_ref(rng)}"}.get(p, p)
        s = 201 if m == "POST" and p == "/api/v3/bookings" else 200
        r = rng.random()
        if ("sailings/1" in p or "bookings/KF" in p) and r < 0.06:
            s = 404
        elif p.startswith("/static") and r < 0.35:
            s = 304
        add(rtime(rng, "03:00:01", "04:59:58"), m, p, s)
    assign_edge_times(rng, ev)
    ev.sort(key=lambda e: e["t"])
    lines = []
    for e in ev:
        static = e["p"].startswith("/static") or e["p"] in ("/", "/favicon.ico", "/healthz")
        size = 2 if e["p"] == "/healthz" else 0 if e["s"] in (204, 304, 499) else rng.randrange(90, 800) if e["s"] >= 400 else rng.randrange(300, 48000)
        if e["p"].startswith("/api/v3/manifests/export"):
            size = 3817402
        ts = e["t"].strftime("%d/%b/%Y:%H:%M:%S +0000")
        ref = "https://www.kestrel-ferries.example/" if static and e["p"] != "/healthz" else "-"
        rt = e["rt"]
        if static:
            uct = urt = "-"
        elif e["s"] == 504:
            uct, urt = "0.001", f"{rt - 0.001:.3f}"
        elif e["s"] == 502:
            uct, urt = "-", f"{rt:.3f}"
        else:
            uct = f"{rng.randrange(0, 3) / 1000:.3f}"
            urt = f"{max(0.0, rt - rng.randrange(0, 3) / 1000):.3f}"
        lines.append(f'{e["ip"]} - - [{ts}] "{e["m"]} {e["p"]} HTTP/1.1" {e["s"]} {size} "{ref}" '
                     f'"{rng.choice(APP_UAS) if rng.random() < 0.8 else rng.choice(MOBILE_UAS)}" rt={rt:.3f} uct="{uct}" urt="{urt}"')
    return "\n".join(lines) + "\n"


def assign_edge_times(rng, ev):
    """Request times: the planted ones keep theirs; the rest come from a pool shaped so the
    sorted times hold 0.612 at ranks 4461-4540 (p90 is rank 4500/4501 by any definition)."""
    fixed = [e for e in ev if e["rt"] is not None]
    below = sum(1 for e in fixed if e["rt"] < 0.612)
    above = sum(1 for e in fixed if e["rt"] > 0.612)
    rest = [e for e in ev if e["rt"] is None]
    n_low, n_plateau, n_high = 4460 - below, 80, 460 - above
    assert n_high > 34 and n_low + n_plateau + n_high == len(rest), (below, above, len(rest))
    low = [rng.choice([rng.randrange(2, 90), rng.randrange(2, 200), rng.randrange(30, 612)]) for _ in range(n_low)]
    high = [rng.randrange(613, 1990) for _ in range(n_high - 34)] + [rng.randrange(2010, 6500) for _ in range(34)]
    pool = [v / 1000 for v in low + high] + [0.612] * n_plateau
    rng.shuffle(pool)
    for e in rest:
        static = e["p"].startswith("/static") or e["p"] in ("/", "/favicon.ico", "/healthz")
        e["rt"] = pool.pop()
        if static and e["rt"] > 0.612:
            # a static file served slowly is odd: swap with a dynamic request's time
            for o in rest:
                if o["rt"] is not None and o["rt"] < 0.3 and not (o["p"].startswith("/static") or o["p"] in ("/", "/favicon.ico", "/healthz")):
                    e["rt"], o["rt"] = o["rt"], e["rt"]
                    break
    assert not pool


# ---------------------------------------------------------------------------------------
# www-vhosts_access.log: Apache `vhost_combined` + `%D` (microseconds), 1,000 requests
# 03:00-04:59 on kf-web-02. Planted: status.kestrel-ferries.example:80 the least requested
# vhost (23); agents.* 401 x74 on /agents/login; the largest %D 8412906 us (8.413 s) on
# /agents/reports/commission-2027-02.csv; the largest %O 61847203 bytes
# (kf-timetable-summer-2027.pdf).
def www_apache(rng):
    pool = ip_pool(rng, 700, [], [24, 37, 51, 79, 82, 90, 94, 176, 188, 213, 217])
    ev = []

    def add(t, vhost, m, p, s, size, d):
        ev.append((t, vhost, rng.choice(pool), m, p, s, size, d))

    www, agents, media, status = ("www.kestrel-ferries.example:443", "agents.kestrel-ferries.example:443",
                                  "media.kestrel-ferries.example:443", "status.kestrel-ferries.example:80")
    for _ in range(23):
        add(rtime(rng, "03:00:10", "04:59:50"), status, "GET", rng.choice(["/", "/api/v2/status.json"]), 200,
            rng.randrange(700, 4000), rng.randrange(300, 2000))
    for _ in range(74):
        add(rtime(rng, "03:00:10", "04:59:50"), agents, "POST", "/agents/login", 401, 512, rng.randrange(20000, 90000))
    add(at("04:02:17"), agents, "GET", "/agents/reports/commission-2027-02.csv", 200, 2210348, 8412906)
    add(at("03:26:55"), media, "GET", "/brochures/kf-timetable-summer-2027.pdf", 200, 61847203, 4183220)
    add(at("03:00:00"), www, "GET", "/", 200, 18422, 3121)
    add(at("04:59:59"), www, "GET", "/robots.txt", 200, 312, 402)
    www_paths = ["/", "/routes/holyhead-dublin", "/routes/cairnryan-belfast", "/timetables", "/offers/spring",
                 "/help/baggage", "/help/pets", "/manage-booking", "/css/site.4a1c.css", "/js/site.88be.js"]
    agent_paths = ["/agents/dashboard", "/agents/bookings", "/agents/bookings/new", "/agents/commission",
                   "/agents/reports"]
    media_paths = ["/img/ships/kestrel-star.jpg", "/img/ships/north-wind.jpg", "/img/routes/map-irish-sea.png",
                   "/brochures/kf-freight-rates-2027.pdf", "/video/onboard-tour.mp4"]
    while len(ev) < 1000:
        r = rng.random()
        t = rtime(rng, "03:00:01", "04:59:58")
        if r < 0.62:
            p = rng.choice(www_paths)
            s = 404 if rng.random() < 0.03 else 304 if p.startswith(("/css", "/js")) and rng.random() < 0.4 else 200
            add(t, www, "GET", p, s, 0 if s == 304 else rng.randrange(2000, 90000), rng.randrange(800, 900000))
        elif r < 0.84:
            p = rng.choice(agent_paths)
            m = "POST" if p.endswith("/new") else "GET"
            add(t, agents, m, p, 200, rng.randrange(3000, 120000), rng.randrange(5000, 4_900_000))
        else:
            p = rng.choice(media_paths)
            big = p.endswith((".pdf", ".mp4"))
            add(t, media, "GET", p, 200, rng.randrange(2_000_000, 40_000_000) if big else rng.randrange(40000, 900000),
                rng.randrange(2000, 3_500_000))
    ev.sort(key=lambda e: e[0])
    lines = []
    for t, vhost, ip, m, p, s, size, d in ev:
        ts = t.strftime("%d/%b/%Y:%H:%M:%S +0000")
        ref = "-" if rng.random() < 0.5 else f"https://{vhost.split(':')[0]}/"
        ua = rng.choice(["Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/141.0", "Mozilla/5.0 (iPhone; CPU iPhone OS 20_3) Mobile/15E148",
                         "Mozilla/5.0 (X11; Linux x86_64; rv:139.0) Firefox/139.0", "Googlebot/2.1 (+http://www.google.com/bot.html)"])
        lines.append(f'{vhost} {ip} - - [{ts}] "{m} {p} HTTP/1.1" {s} {size} "{ref}" "{ua}" {d}')
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# ingress-access.json: Traefik v3 JSON access log (keys sorted, Duration in nanoseconds),
# 1,000 requests 03:30-04:50 on the k8s ingress. Planted: DownstreamStatus 502 x77 (the
# first 04:12:03.418, peak minute 04:14 x19), 504 x67, 503 x8; ferry-manifest-8080 the
# service with the most 5xx; RetryAttempts > 0 x63; the median Duration 238 ms exactly (a
# plateau).
def ingress_traefik(rng):
    services = {"booking": ("ferry-booking-api-80@kubernetes", "booking.kestrel-ferries.example", 10, "/v1/bookings"),
                "fares": ("ferry-fares-80@kubernetes", "api.kestrel-ferries.example", 8, "/fares"),
                "manifest": ("ferry-manifest-8080@kubernetes", "manifest.kestrel-ferries.internal", 4, "/manifests"),
                "web": ("ferry-web-80@kubernetes", "www.kestrel-ferries.example", 9, "/"),
                "tidefeed": ("ferry-tidefeed-9100@kubernetes", "tides.kestrel-ferries.internal", 2, "/v1/levels")}
    ev = []

    def add(t, svc, status, dur=None):
        ev.append({"t": t, "svc": svc, "s": status, "dur": dur, "retry": 0})

    per_min = {"04:12": 8, "04:13": 14, "04:14": 19, "04:15": 16, "04:16": 11, "04:17": 6}
    svc502 = ["manifest"] * 52 + ["booking"] * 16 + ["fares"] * 8
    rng.shuffle(svc502)
    add(at("04:12:03.418"), "manifest", 502, rng.randrange(900_000, 4_000_000))
    k = 0
    for minute, n in per_min.items():
        for i in range(n - (1 if minute == "04:12" else 0)):
            t = in_minute(rng, minute)
            if minute == "04:12":
                t = rtime(rng, "04:12:04", "04:12:59")
            add(t, svc502[k], 502, rng.randrange(900_000, 4_000_000))
            k += 1
    for hms in ("04:27:40", "04:31:40", "04:44:03"):
        add(at(hms + "." + str(rng.randrange(100000, 999999))), svc502[k], 502, rng.randrange(900_000, 4_000_000))
        k += 1
    assert k == len(svc502)
    for i in range(67):
        add(rtime(rng, "04:13:00", "04:19:59"), "manifest" if i < 30 else "booking", 504,
            30_000_000_000 + rng.randrange(100_000, 9_000_000))
    for _ in range(8):
        add(rtime(rng, "04:14:00", "04:16:59"), "fares", 503, rng.randrange(80_000, 400_000))
    add(at("03:30:00.012"), "web", 200)
    add(at("04:50:00.004"), "web", 200)
    names = list(services)
    while len(ev) < 1000:
        svc = rng.choices(names, [services[s][2] for s in names])[0]
        r = rng.random()
        s = 201 if svc == "booking" and r < 0.2 else 404 if r < 0.03 else 200
        add(rtime(rng, "03:30:01", "04:49:59"), svc, s)
    # Durations: 470 below 238 ms, 60 at exactly 238 ms (ranks 471-530: the median is rank
    # 500/501 whatever the definition), 470 above (the 67 504s among them).
    fixed = [e for e in ev if e["dur"] is not None]
    rest = [e for e in ev if e["dur"] is None]
    n_low = 470 - sum(1 for e in fixed if e["dur"] < 238_000_000)
    n_high = 470 - sum(1 for e in fixed if e["dur"] > 238_000_000)
    pool = ([rng.randrange(800_000, 237_000_000) for _ in range(n_low)] + [238_000_000] * 60
            + [rng.randrange(239_000_000, 1_900_000_000) if rng.random() < 0.97 else rng.randrange(1_900_000_000, 9_000_000_000)
               for _ in range(n_high)])
    assert len(pool) == len(rest), (len(pool), len(rest))
    rng.shuffle(pool)
    for e, d in zip(rest, pool):
        e["dur"] = d
    for e in rng.sample([e for e in ev if e["s"] != 504], 63):
        e["retry"] = rng.choice([1, 1, 1, 2])
    ev.sort(key=lambda e: e["t"])
    out = []
    for n, e in enumerate(ev, 1):
        name, host, _, _ = services[e["svc"]]
        if e["svc"] == "booking":
            method, path = rng.choice([("GET", f"/v1/bookings/{booking_ref(rng)}"), ("POST", "/v1/bookings"),
                                       ("POST", f"/v1/bookings/{booking_ref(rng)}/seats")])
        elif e["svc"] == "fares":
            method, path = "POST", "/fares/quote"
        elif e["svc"] == "manifest":
            method, path = rng.choice([("PUT", f"/manifests/KF{rng.randrange(1000, 1300)}/passengers"),
                                       ("GET", f"/manifests/KF{rng.randrange(1000, 1300)}")])
        elif e["svc"] == "tidefeed":
            method, path = "GET", f"/v1/levels/{rng.choice(['KF-HARBOUR-7', 'KF-PIER-3', 'KF-QUAY-1'])}"
        else:
            method, path = "GET", rng.choice(["/", "/timetables", "/offers/spring", "/manage-booking"])
        client = f"10.42.{rng.randrange(0, 8)}.{rng.randrange(2, 250)}"
        pod = f"10.244.{rng.randrange(1, 6)}.{rng.randrange(2, 250)}"
        origin = 0 if e["s"] in (502, 503) else e["s"]
        start = e["t"].strftime("%Y-%m-%dT%H:%M:%S.") + f"{e['t'].microsecond:06d}" + f"{rng.randrange(0, 999):03d}Z"
        done = e["t"] + timedelta(microseconds=e["dur"] // 1000)
        d = {"ClientHost": client, "DownstreamContentSize": rng.randrange(90, 30000) if e["s"] < 500 else 11 if e["s"] == 502 else 15 if e["s"] == 504 else 19,
             "DownstreamStatus": e["s"], "Duration": e["dur"], "OriginStatus": origin, "RequestHost": host,
             "RequestMethod": method, "RequestPath": path, "RequestProtocol": "HTTP/2.0" if rng.random() < 0.6 else "HTTP/1.1",
             "RetryAttempts": e["retry"], "RouterName": f"websecure-ferry-{e['svc']}@kubernetes",
             "ServiceAddr": f"{pod}:{name.split('-')[-1].split('@')[0]}", "ServiceName": name,
             "StartUTC": start, "entryPointName": "websecure", "level": "info", "msg": "",
             "time": done.strftime("%Y-%m-%dT%H:%M:%SZ")}
        out.append(json.dumps(d, sort_keys=True, separators=(",", ":")))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# booking-api.jsonl: JSON lines with the service's own nested keys (`when`, `sev`,
# `req.{verb,route,code,dur_ms}`, `pax.{acct,tier}`, `fault.{class,text}`), 1,000 lines
# 03:00-05:00. Planted: sev ERROR x203 (FareEngineUnavailable x118 in 04:11-04:19, the
# first 04:11:41.207, ManifestPushFailed x56, DbDeadlock x29); ERROR peak minute 04:15;
# pax.acct A-40917 behind 19 errors; the mean req.dur_ms of /bookings/{ref}/seats a whole
# number of ms; WARN SeatHoldConflict x77 (409), PaymentDeclined x41 (402).
def booking_jsonl(rng):
    accts = [f"A-{x}" for x in rng.sample(range(10000, 99999), 820) if x != 40917]
    tiers = ["saver", "flexi", "club", "freight"]
    ev = []

    def line(t, sev, evt, req=None, acct=True, fault=None, extra=None):
        d = {"when": t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}+00:00", "sev": sev,
             "svc": "booking-api", "host": rng.choice(["kf-app-01", "kf-app-02"]), "evt": evt}
        if req:
            d["req"] = req
        if acct:
            d["pax"] = {"acct": acct if isinstance(acct, str) else rng.choice(accts), "tier": rng.choice(tiers)}
        if fault:
            d["fault"] = fault
        if extra:
            d.update(extra)
        d["trace"] = hexid(rng, 16)
        ev.append((t, d))

    errors = []
    per_min = {"04:11": 7, "04:12": 12, "04:13": 15, "04:14": 19, "04:15": 27, "04:16": 18, "04:17": 11,
               "04:18": 6, "04:19": 3}
    errors.append((at("04:11:41.207"), "FareEngineUnavailable", "POST", "/fares/quote", 503, 5004,
                   "fare-engine: dial tcp 10.20.1.31:7070: connect: connection refused"))
    for minute, n in per_min.items():
        for _ in range(n - (1 if minute == "04:11" else 0)):
            t = in_minute(rng, minute) if minute != "04:11" else rtime(rng, "04:11:42", "04:11:59")
            errors.append((t, "FareEngineUnavailable", "POST", rng.choice(["/fares/quote", "/bookings"]), 503,
                           rng.randrange(5001, 5040), "fare-engine: dial tcp 10.20.1.31:7070: connect: connection refused"))
    for _ in range(56):
        errors.append((rtime(rng, "03:00:05", "04:59:50"), "ManifestPushFailed", "POST", "/bookings/{ref}/confirm", 500,
                       rng.randrange(200, 2500), "manifest-svc returned 500 for passenger list"))
    for _ in range(29):
        errors.append((rtime(rng, "03:00:05", "04:59:50"), "DbDeadlock", "POST", "/bookings/{ref}/seats", 500,
                       rng.randrange(40, 900), "Deadlock found when trying to get lock; try restarting transaction"))
    heavy = set(rng.sample(range(len(errors)), 19))
    for i, (t, cls, verb, route, code, dur, text) in enumerate(errors):
        line(t, "ERROR", "http.done", {"verb": verb, "route": route, "code": code, "dur_ms": dur},
             "A-40917" if i in heavy else True, {"class": cls, "text": text})
    for _ in range(77):
        line(rtime(rng, "03:00:05", "04:59:50"), "WARN", "seat.hold", {"verb": "POST", "route": "/bookings/{ref}/seats",
             "code": 409, "dur_ms": rng.randrange(8, 60)}, fault={"class": "SeatHoldConflict",
             "text": f"seat {rng.randrange(1, 40)}{rng.choice('ABCDEF')} already held by another booking"})
    for _ in range(41):
        line(rtime(rng, "03:00:05", "04:59:50"), "WARN", "payment.result", {"verb": "POST", "route": "/bookings/{ref}/pay",
             "code": 402, "dur_ms": rng.randrange(300, 2400)}, fault={"class": "PaymentDeclined",
             "text": rng.choice(["card declined: insufficient funds", "3DS challenge failed"])})
    for _ in range(35):
        line(rtime(rng, "03:00:05", "04:59:50"), "DEBUG", "outbox.flush", acct=False,
             extra={"outbox": {"batch": rng.randrange(1, 80), "lag_ms": rng.randrange(5, 900)}})
    line(at("03:00:00.006"), "INFO", "service.ready", acct=False, extra={"build": {"version": "2027.3.1", "commit": "9c4e1b2"}})
    routes = [("GET", "/bookings/{ref}", 200, 20), ("POST", "/bookings", 201, 10), ("POST", "/bookings/{ref}/seats", 200, 12),
              ("POST", "/bookings/{ref}/pay", 200, 8), ("POST", "/fares/quote", 200, 18), ("POST", "/bookings/{ref}/confirm", 200, 6)]
    while len(ev) < 1000:
        verb, route, code, _ = rng.choices(routes, [w for *_, w in routes])[0]
        dur = rng.randrange(300, 2600) if route.endswith("/pay") else rng.randrange(6, 1200)
        line(rtime(rng, "03:00:05", "04:59:50"), "INFO", "http.done", {"verb": verb, "route": route, "code": code,
             "dur_ms": dur})
    # The seats route's mean dur_ms is a whole number: move one INFO line's time.
    seats = [d for _, d in ev if d.get("req", {}).get("route") == "/bookings/{ref}/seats"]
    rem = sum(d["req"]["dur_ms"] for d in seats) % len(seats)
    fix = next(d for d in seats if d["sev"] == "INFO" and d["req"]["dur_ms"] > rem + 10)
    fix["req"]["dur_ms"] -= rem
    ev.sort(key=lambda e: e[0])
    return "".join(json.dumps(d, separators=(",", ":")) + "\n" for _, d in ev)


# ---------------------------------------------------------------------------------------
# manifest-svc.log: log4j2 `%d{yyyy-MM-dd HH:mm:ss,SSS} %-5level [%t] %c{1.} - %m%n%ex`,
# stack traces with `Caused by:`, 600 events 03:00:00-04:59:58 (a stack trace is one
# event). Planted: ERROR x128: c.k.m.p.SealClient x83 (`Caused by:
# java.net.ConnectException: Connection refused`, once an event, first 04:11:52.306),
# c.k.m.t.TideClient x23 (`java.net.SocketTimeoutException: Read timed out`, first
# 03:47:16.094), c.k.m.v.ManifestValidator x22; WARN x117, 74 of them in 04:49-04:59:50
# and none in 04:38-04:49.
def manifest_java(rng):
    ev = []
    threads = [f"http-nio-8080-exec-{i}" for i in range(1, 21)] + [f"pool-3-thread-{i}" for i in range(1, 9)]

    def event(t, level, logger, msg, trace=None, thread=None):
        ev.append((t, level, thread or rng.choice(threads), logger, msg, trace or []))

    def seal_trace():
        return ["com.kestrel.manifest.push.PushException: push to port authority failed",
                "\tat com.kestrel.manifest.push.SealClient.push(SealClient.java:141)",
                "\tat com.kestrel.manifest.push.PushScheduler.lambda$run$2(PushScheduler.java:77)",
                "\tat java.base/java.util.concurrent.FutureTask.run(FutureTask.java:317)",
                "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)",
                "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
                "Caused by: java.net.ConnectException: Connection refused",
                "\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)",
                "\tat java.base/sun.nio.ch.NioSocketImpl.timedFinishConnect(NioSocketImpl.java:554)",
                "\tat java.base/java.net.Socket.connect(Socket.java:752)",
                "\tat org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator.connect(DefaultHttpClientConnectionOperator.java:205)",
                "\t... 9 more"]

    def tide_trace():
        return ["java.net.SocketTimeoutException: Read timed out",
                "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)",
                "\tat java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)",
                "\tat com.kestrel.manifest.tide.TideClient.fetchWindow(TideClient.java:88)",
                "\tat com.kestrel.manifest.tide.TideWindowCache.refresh(TideWindowCache.java:52)",
                "\tat java.base/java.lang.Thread.run(Thread.java:1583)"]

    def validator_trace(field):
        return [f"java.lang.IllegalStateException: passenger list incomplete: {field} missing",
                "\tat com.kestrel.manifest.validate.ManifestValidator.check(ManifestValidator.java:63)",
                "\tat com.kestrel.manifest.api.ManifestController.put(ManifestController.java:118)",
                "\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)"]

    seal_times = [at("04:11:52.306")] + [rtime(rng, "04:11:53", "04:19:50") for _ in range(82)]
    for t in seal_times:
        sailing = f"KF{rng.randrange(1000, 1300)}"
        event(t, "ERROR", "c.k.m.p.SealClient", f"manifest push for sailing {sailing} failed after 3 attempts",
              seal_trace(), thread=f"pool-3-thread-{rng.randrange(1, 9)}")
    tide_times = [at("03:47:16.094")] + [rtime(rng, "03:47:17", "04:58:00") for _ in range(22)]
    for t in tide_times:
        event(t, "ERROR", "c.k.m.t.TideClient", "tide window refresh failed for KF-HARBOUR-7", tide_trace())
    for _ in range(22):
        field = rng.choice(["dateOfBirth", "nationality", "documentNumber"])
        event(rtime(rng, "03:00:10", "04:59:00"), "ERROR", "c.k.m.v.ManifestValidator",
              f"rejecting manifest update: {field}", validator_trace(field))
    for i in range(117):
        t = rtime(rng, "04:49:00", "04:59:50") if i < 74 else rtime(rng, "03:00:10", "04:38:00")
        logger, msg = rng.choice([("c.k.m.p.PushScheduler", f"push queue depth {rng.randrange(40, 400)} above threshold 32"),
                                  ("c.k.m.t.TideWindowCache", "serving stale tide window (age 312s)"),
                                  ("o.h.e.j.s.SqlExceptionHelper", "SQL Warning Code: 1265, SQLState: 01000")])
        event(t, "WARN", logger, msg)
    event(at("03:00:00.118"), "INFO", "c.k.m.ManifestApplication", "Started ManifestApplication in 9.412 seconds (process running for 10.1)", thread="main")
    event(at("04:59:58.771"), "INFO", "c.k.m.p.PushScheduler", "push cycle done: 24 manifests, 0 pending", thread="pool-3-thread-1")
    while len(ev) < 600:
        t = rtime(rng, "03:00:10", "04:59:50")
        if rng.random() < 0.1:
            event(t, "DEBUG", "c.k.m.a.ManifestController", f"GET /manifests/KF{rng.randrange(1000, 1300)} -> 200")
        else:
            logger, msg = rng.choice([("c.k.m.p.PushScheduler", f"pushed manifest for sailing KF{rng.randrange(1000, 1300)} ({rng.randrange(40, 900)} passengers)"),
                                      ("c.k.m.a.ManifestController", f"manifest KF{rng.randrange(1000, 1300)} updated by booking-api"),
                                      ("c.k.m.t.TideWindowCache", "tide window refreshed for KF-HARBOUR-7")])
            event(t, "INFO", logger, msg)
    ev.sort(key=lambda e: e[0])
    out = []
    for t, level, thread, logger, msg, trace in ev:
        ts = t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
        out.append(f"{ts} {level:<5} [{thread}] {logger} - {msg}")
        out.extend(trace)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# tidefeed CRI log (/var/log/containers/...): `<RFC3339Nano> <stream> F <klog line>`, 900
# lines 03:00-05:00. Planted: "gauge poll failed" x111: `context deadline exceeded` x93
# (once a line), `connection reset by peer` x18; station KF-PIER-3 fails the most (44).
def tidefeed_cri(rng):
    stations = ["KF-HARBOUR-7", "KF-PIER-3", "KF-QUAY-1", "KF-BERTH-12", "KF-SOUND-2", "KF-LOCK-5"]
    ev = []

    def klog(t, level, src, msg, stream="stderr"):
        head = f"{level}{t.strftime('%m%d %H:%M:%S.')}{t.microsecond:06d}       1 {src}] {msg}"
        ev.append((t, stream, head))

    others = spread(rng, 67, 5, 9, 17)
    fails = ["KF-PIER-3"] * 44 + [s for s, n in zip([s for s in stations if s != "KF-PIER-3"], others) for _ in range(n)]
    rng.shuffle(fails)
    reset_at = set(rng.sample(range(len(fails)), 18))
    assert sum(1 for i in reset_at if fails[i] == "KF-PIER-3") < 10
    for i, st in enumerate(fails):
        err = "read: connection reset by peer" if i in reset_at else "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
        url = f"https://gauges.tidewatch.example/v1/stations/{st}/latest"
        klog(rtime(rng, "03:00:20", "04:59:40"), "E", "poller.go:88",
             f'"gauge poll failed" station="{st}" err="Get \\"{url}\\": {err}"')
    for _ in range(70):
        klog(rtime(rng, "03:00:20", "04:59:40"), "W", "cache.go:57",
             f'"serving stale level" station="{rng.choice(stations)}" age="{rng.randrange(60, 600)}s"')
    klog(at("03:00:00.412731"), "I", "main.go:61", '"tidefeed starting" version="2.8.1" stations=6', stream="stdout")
    while len(ev) < 900:
        klog(rtime(rng, "03:00:20", "04:59:58"), "I", "poller.go:141",
             f'"poll cycle done" stations=6 ok={rng.randrange(4, 7)} took="{rng.randrange(180, 2900)}ms"')
    ev.sort(key=lambda e: e[0])
    out = []
    for t, stream, line in ev:
        ns = f"{t.microsecond:06d}{rng.randrange(0, 999):03d}"
        out.append(f"{t.strftime('%Y-%m-%dT%H:%M:%S.')}{ns}Z {stream} F {line}")
    return "\n".join(out) + "\n"
