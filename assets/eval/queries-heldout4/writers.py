"""Writers of the `queries-heldout4` set's fixture logs (one function a format), seeded.

Orrery Tickets, an event ticketing platform, on Wednesday 2028-03-22 (UTC), 17:00-21:00.
At 19:00 a stadium tour goes on sale. The database host runs out of connection slots at
19:03, PgBouncer on it crash-loops (core dumps) until about 20:11, conntrack fills up, and
the checkout (Tomcat), refunds (gunicorn/Django) and seat-map (Go) services fail in two
waves, 19:03-19:27 and 19:34-19:50, behind the ingress controller and the AWS load
balancer. The legacy box-office portal (IIS) is brute-forced, the analytics ClickHouse hits
its per-query memory limit, the edge ASA denies a scanner, someone deletes pods by hand,
and the refunds nightly batch makes gunicorn time out again from 20:43.

Each writer plants the figures the cases ask about into realistic background traffic and
returns the file's text. The cases' truth is not taken from here: `truth.py` parses the
written text again and `gen.py` asserts the two agree.
"""

import json
import math
from datetime import datetime, timedelta, timezone

DAY = datetime(2028, 3, 22, tzinfo=timezone.utc)
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
START, END = "17:00:05", "20:59:50"
WAVES = [("19:03:30", "19:26:30"), ("19:34:00", "19:50:00")]
QUIET = [("18:56:00", "19:03:30"), ("19:26:30", "19:34:00"), ("19:56:00", "20:04:00")]


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def at(hms):
    """A time of the set's day from "HH:MM:SS[.ffffff]"."""
    return DAY + timedelta(microseconds=round(secs(hms) * 1e6))


def rtime(rng, a=START, b=END, gaps=()):
    """A uniform time in [a, b) outside every (start, end) gap, microsecond resolution."""
    while True:
        t = DAY + timedelta(microseconds=int(rng.uniform(secs(a), secs(b)) * 1e6))
        if not any(at(g0) <= t < at(g1) for g0, g1 in gaps):
            return t


def in_waves(rng):
    spans = [(secs(a), secs(b)) for a, b in WAVES]
    total = sum(b - a for a, b in spans)
    x = rng.uniform(0, total)
    for a, b in spans:
        if x < b - a:
            return DAY + timedelta(microseconds=int((a + x) * 1e6))
        x -= b - a
    raise AssertionError


def outside(rng):
    """A time away from the incident and from every window edge the cases ask about."""
    return rtime(rng, START, END, QUIET + WAVES)


def in_minute(rng, hhmm):
    return rtime(rng, hhmm + ":00.5", hhmm + ":59.4")


def low_us(t):
    """The same second, with a fraction under half a second (a first/last time that cannot round up)."""
    return t.replace(microsecond=t.microsecond % 500000)


def epoch_us(t):
    return (t - EPOCH) // timedelta(microseconds=1)


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def ip_pool(rng, n, firsts=(5, 31, 37, 51, 62, 77, 82, 86, 90, 109, 145, 176, 188, 213), exclude=()):
    out, seen = [], set(exclude)
    while len(out) < n:
        ip = f"{rng.choice(firsts)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        if ip not in seen:
            seen.add(ip)
            out.append(ip)
    return out


def zipf_pick(rng, items, s=1.0, q=3):
    w = [1.0 / (i + q) ** s for i in range(len(items))]
    return rng.choices(items, w)[0]


def join(events):
    """Lines (or multi-line blocks) sorted by time; a stable sort keeps a block's order."""
    events.sort(key=lambda e: e[0])
    return "".join(text + "\n" for _, text in events)


UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
       "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Safari/605.1.15",
       "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Mobile Safari/537.36",
       "OrreryTickets/5.14.2 (iPhone; iOS 17.3.1; Scale/3.00)", "OrreryTickets/5.14.2 (Android 14; SM-S918B)"]
EVENTS = [f"EV-28{n:05d}" for n in (3917, 1044, 2210, 4471, 508, 3388, 1290, 4102, 77, 2843, 3655, 1901)]
VENUES = ["Pellow Stadium", "Brightwater Arena", "Corran Hall", "Old Mint Theatre", "Sandgate Dome", "Harrowgate Pavilion"]


# ---------------------------------------------------------------------------------------
# ingress-nginx controller log: the controller's default log_format (request_length,
# request_time, [proxy_upstream_name] [alternative], upstream addr/length/time/status,
# req_id) with a few klog lines of the controller itself in between. 3,000 requests.
# Planted: 503 x167 (checkout 104, seatmap 41, waitroom 22; peak minute 19:07 x21),
# 502 x88 (seatmap 53, checkout 23, web 12), 504 x57, 500 x29; no 5xx in the quiet spans;
# request_time p95 on a plateau.
ING_UP = {
    "tix-checkout-api-8080": ["10.42.3.21:8080", "10.42.3.22:8080", "10.42.3.23:8080"],
    "tix-seatmap-api-8080": ["10.42.4.11:8080", "10.42.4.12:8080", "10.42.4.13:8080", "10.42.4.14:8080"],
    "tix-web-80": ["10.42.5.31:80", "10.42.5.32:80"],
    "tix-waitroom-8080": ["10.42.6.7:8080", "10.42.6.8:8080"],
    "tix-accounts-8080": ["10.42.2.40:8080", "10.42.2.41:8080"],
}
ING_503_PLAN = {"19:04": 2, "19:05": 6, "19:06": 14, "19:07": 21, "19:08": 17, "19:09": 12, "19:10": 9}
ING_N = 2200


def _ing_request(rng, up):
    ev = rng.choice(EVENTS)
    if up == "tix-checkout-api-8080":
        return rng.choice([("POST", "/api/v1/checkout"), ("POST", f"/api/v1/checkout/{hexid(rng, 12)}/pay"),
                           ("GET", f"/api/v1/orders/OR-{rng.randrange(1000000, 9999999)}")])
    if up == "tix-seatmap-api-8080":
        return rng.choice([("GET", f"/api/v2/events/{ev}/seatmap"), ("GET", f"/api/v2/events/{ev}/seatmap"),
                           ("POST", f"/api/v2/events/{ev}/holds")])
    if up == "tix-web-80":
        return rng.choice([("GET", "/"), ("GET", f"/events/{ev.lower()}"), ("GET", "/static/js/app.7c41e9.js"),
                           ("GET", "/static/css/main.2b9f03.css"), ("GET", "/favicon.ico")])
    if up == "tix-waitroom-8080":
        return rng.choice([("GET", f"/queue/status?token={hexid(rng, 16)}"), ("POST", "/queue/join")])
    return rng.choice([("POST", "/api/v1/login"), ("GET", "/api/v1/me"), ("POST", "/api/v1/token/refresh")])


def ingress_nginx(rng):
    clients = ip_pool(rng, 1400)
    rows = []  # [t, ip, up, status, rt]

    def add(t, up, status, rt):
        rows.append([t, zipf_pick(rng, clients, 0.6, 20), up, status, rt])

    for hhmm, k in ING_503_PLAN.items():
        for _ in range(k):
            up = rng.choices(["tix-checkout-api-8080", "tix-seatmap-api-8080", "tix-waitroom-8080"], [5, 2, 1])[0]
            add(in_minute(rng, hhmm), up, 503, None)
    # The rest of the 503s keep the planted split by upstream.
    have = {u: sum(1 for r in rows if r[2] == u) for u in ING_UP}
    want = {"tix-checkout-api-8080": 104, "tix-seatmap-api-8080": 41, "tix-waitroom-8080": 22}
    for up, k in want.items():
        assert have[up] <= k
        for i in range(k - have[up]):
            t = outside(rng) if i < 2 else rtime(rng, "19:11:00", "19:50:00", [("19:26:30", "19:34:00")])
            add(t, up, 503, None)
    for up, k in (("tix-seatmap-api-8080", 53), ("tix-checkout-api-8080", 23)):
        for _ in range(k):
            add(in_waves(rng), up, 502, None)
    for _ in range(12):
        add(outside(rng), "tix-web-80", 502, None)
    for up, k in (("tix-checkout-api-8080", 39), ("tix-seatmap-api-8080", 18)):
        for _ in range(k):
            add(in_waves(rng), up, 504, None)
    for _ in range(29):
        add(outside(rng), rng.choice(["tix-accounts-8080", "tix-checkout-api-8080", "tix-web-80"]), 500, None)
    ups = list(ING_UP)
    while len(rows) < ING_N:
        up = rng.choices(ups, [3, 5, 6, 3, 2])[0]
        st = rng.choices([200, 201, 204, 301, 304, 400, 401, 404, 429], [70, 4, 3, 2, 8, 2, 3, 4, 2])[0]
        if st == 429 and up != "tix-waitroom-8080":
            st = 200
        add(outside(rng) if rng.random() < 0.8 else rtime(rng), up, st, None)
    for r in rows:
        st = r[3]
        if st == 503:
            r[4] = round(rng.uniform(0.002, 0.030), 3)
        elif st == 502:
            r[4] = round(rng.uniform(0.210, 1.900), 3)
        elif st == 504:
            r[4] = round(rng.uniform(60.001, 60.012), 3)
        else:
            r[4] = max(0.001, round(min(rng.lognormvariate(-2.9, 0.85), 9.0), 3))
    # p95 on a plateau: the four ranks around it share one value (sorting stays the same).
    order = sorted(range(len(rows)), key=lambda i: (rows[i][4], i))
    k = math.ceil(0.95 * len(rows)) - 1
    for i in order[k - 1:k + 3]:
        rows[i][4] = rows[order[k - 1]][4]
    out = []
    for t, ip, up, st, rt in rows:
        method, path = _ing_request(rng, up)
        addr = rng.choice(ING_UP[up])
        proto = "HTTP/2.0" if rng.random() < 0.7 else "HTTP/1.1"
        size = 0 if st in (204, 304) else (rng.randrange(150, 600) if st >= 400 else rng.randrange(400, 48000))
        ua = rng.choice(UAS)
        ref = "-" if rng.random() < 0.5 else f"https://tix.orrery.example/events/{rng.choice(EVENTS).lower()}"
        reqlen = rng.randrange(180, 1600)
        # no request length or size that reads like a 5xx status to a loose grep
        reqlen += 10 if 499 < reqlen < 505 else 0
        size += 10 if 499 < size < 505 else 0
        if st >= 500 and st != 500:
            ust = f"{max(0.0, rt - 0.001):.3f}" if st != 504 else "60.001"
        else:
            ust = f"{max(0.0, rt - rng.uniform(0, 0.004)):.3f}"
        line = (f'{ip} - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "{method} {path} {proto}" {st} {size} "{ref}" '
                f'"{ua}" {reqlen} {rt:.3f} [{up}] [] {addr} {size if st < 500 else rng.randrange(0, 200)} {ust} {st} '
                f'{hexid(rng, 32)}')
        out.append((t, line))
    pod = "ingress-nginx-controller-7d9f6c8b5-q2x7m"
    for hms in ("17:42:13", "19:30:02", "20:16:48"):
        t = at(hms + f".{rng.randrange(100000, 400000)}")
        us = lambda d: (t + timedelta(milliseconds=d)).strftime("%m%d %H:%M:%S.%f")
        out.append((t, f'I{us(0)}       7 controller.go:190] "Configuration changes detected, backend reload required"'))
        out.append((t + timedelta(milliseconds=140), f'I{us(140)}       7 controller.go:210] "Backend successfully reloaded"'))
        out.append((t + timedelta(milliseconds=141), f'I{us(141)}       7 event.go:298] Event(v1.ObjectReference{{Kind:"Pod", '
                    f'Namespace:"ingress-nginx", Name:"{pod}", UID:"{uuid(rng)}", APIVersion:"v1", '
                    f'ResourceVersion:"{rng.randrange(100000, 999999)}", FieldPath:""}}): type: \'Normal\' reason: \'RELOAD\' '
                    f'NGINX reload triggered due to a change in configuration'))
    for _ in range(6):
        t = in_waves(rng)
        out.append((t, f'W{t.strftime("%m%d %H:%M:%S.%f")}       7 controller.go:1214] Service "tix/checkout-api" does not '
                       f'have any active Endpoint.'))
    return join(out)


# ---------------------------------------------------------------------------------------
# journalctl -o short-full on tix-db-1. Planted: PgBouncer dumps core and is restarted 64
# times (19:04-20:11), conntrack "table full, dropping packet" x103 (first 19:01:47).
PGB_CRASHES = 64
CONNTRACK = 103
CONNTRACK_FIRST = "19:01:47"


def db1_journal(rng):
    out = []
    host = "tix-db-1"

    def j(t, ident, msg):
        out.append((t, f"{t.strftime('%a %Y-%m-%d %H:%M:%S')} UTC {host} {ident}: {msg}"))

    pid = [40000]

    def newpid():
        pid[0] += rng.randrange(3, 90)
        return pid[0]

    # cron every five minutes
    for m in range(0, 240, 5):
        t = DAY + timedelta(hours=17, minutes=m, seconds=1, microseconds=rng.randrange(0, 400000))
        p = newpid()
        j(t, f"CRON[{p}]", "pam_unix(cron:session): session opened for user postgres(uid=114) by (uid=0)")
        j(t, f"CRON[{p + 1}]", "(postgres) CMD (/usr/local/bin/pg_stat_snapshot.sh >/dev/null 2>&1)")
        j(t + timedelta(seconds=rng.randrange(2, 9)), f"CRON[{p}]", "pam_unix(cron:session): session closed for user postgres")
    # sysstat every ten minutes
    for m in range(0, 240, 10):
        t = DAY + timedelta(hours=17, minutes=m, seconds=rng.randrange(3, 20))
        j(t, "systemd[1]", "Starting sysstat-collect.service - system activity accounting tool...")
        j(t, "systemd[1]", "sysstat-collect.service: Deactivated successfully.")
        j(t, "systemd[1]", "Finished sysstat-collect.service - system activity accounting tool.")
    # ssh sessions
    users = [("deploy", 1001, "10.20.0.15"), ("mhale", 1004, "10.20.0.22"), ("postgres", 114, "10.20.0.15"),
             ("dokafor", 1007, "10.20.0.31")]
    sess = 8812
    for _ in range(16):
        u, uid, ip = rng.choice(users)
        t = rtime(rng, START, "20:40:00")
        p = newpid()
        sess += 1
        j(t, f"sshd[{p}]", f"Accepted publickey for {u} from {ip} port {rng.randrange(40000, 65000)} ssh2: ED25519 SHA256:{hexid(rng, 43)}")
        j(t, f"sshd[{p}]", f"pam_unix(sshd:session): session opened for user {u}(uid={uid}) by (uid=0)")
        j(t, "systemd-logind[688]", f"New session {sess} of user {u}.")
        j(t, "systemd[1]", f"Started session-{sess}.scope - Session {sess} of User {u}.")
        t2 = t + timedelta(seconds=rng.randrange(60, 1500))
        j(t2, f"sshd[{p}]", f"pam_unix(sshd:session): session closed for user {u}")
        j(t2, "systemd[1]", f"session-{sess}.scope: Deactivated successfully.")
        j(t2, "systemd-logind[688]", f"Session {sess} logged out. Waiting for processes to exit.")
        j(t2, "systemd-logind[688]", f"Removed session {sess}.")
    # pgbouncer crash loop
    crash_times = [at("19:04:30") + timedelta(seconds=i * 62 + rng.randrange(0, 40), microseconds=rng.randrange(10 ** 6))
                   for i in range(PGB_CRASHES)]
    for a, b in zip(crash_times, crash_times[1:]):
        assert (b - a).total_seconds() > 8
    alive = [(at(START), 1873)]
    for n, t in enumerate(crash_times, 1):
        p_old = alive[-1][1]
        j(t, "systemd[1]", "pgbouncer.service: Main process exited, code=dumped, status=6/ABRT")
        j(t, "systemd[1]", "pgbouncer.service: Failed with result 'core-dump'.")
        j(t, f"systemd-coredump[{newpid()}]", f"Process {p_old} (pgbouncer) of user 115 dumped core.")
        t2 = t + timedelta(seconds=2)
        p_new = newpid()
        j(t2, "systemd[1]", f"pgbouncer.service: Scheduled restart job, restart counter is at {n}.")
        j(t2, "systemd[1]", "Stopped pgbouncer.service - connection pooler for PostgreSQL.")
        j(t2, "systemd[1]", "Starting pgbouncer.service - connection pooler for PostgreSQL...")
        j(t2, f"pgbouncer[{p_new}]", "kernel file descriptor limit: 65536 (hard: 65536); max_client_conn: 4000, max expected fd use: 4412")
        j(t2, f"pgbouncer[{p_new}]", "listening on 0.0.0.0:6432")
        j(t2, f"pgbouncer[{p_new}]", "process up: PgBouncer 1.21.0, libevent 2.1.12-stable (epoll), adns: c-ares 1.19.1, tls: OpenSSL 3.0.11 19 Sep 2023")
        j(t2, "systemd[1]", "Started pgbouncer.service - connection pooler for PostgreSQL.")
        alive.append((t2, p_new))
    # pgbouncer stats once a minute from whichever process is up
    for m in range(240):
        t = DAY + timedelta(hours=17, minutes=m, seconds=37)
        p = [q for s, q in alive if s <= t][-1]
        busy = at("19:00:00") <= t < at("20:12:00")
        x = rng.randrange(900, 1400) if busy else rng.randrange(180, 420)
        j(t, f"pgbouncer[{p}]", f"stats: {x} xacts/s, {int(x * rng.uniform(1.2, 1.6))} queries/s, 0 client parallelism, "
                               f"in {rng.randrange(90000, 400000)} B/s, out {rng.randrange(300000, 1900000)} B/s, "
                               f"xact {rng.randrange(900, 9000)} us, query {rng.randrange(500, 4000)} us, "
                               f"wait {rng.randrange(0, 400000) if busy else rng.randrange(3, 60)} us")
    # conntrack
    first = at(CONNTRACK_FIRST + ".200000")
    drops = [first] + [rtime(rng, "19:01:49", "19:40:00") for _ in range(CONNTRACK - 1)]
    for i, t in enumerate(sorted(drops)):
        j(t, "kernel", "nf_conntrack: nf_conntrack: table full, dropping packet")
        if i % 5 == 4:
            j(t + timedelta(seconds=1), "kernel", f"net_ratelimit: {rng.randrange(12, 240)} callbacks suppressed")
    j(at("17:31:09"), "systemd[1]", "Starting logrotate.service - Rotate log files...")
    j(at("17:31:09"), "systemd[1]", "logrotate.service: Deactivated successfully.")
    j(at("17:31:09"), "systemd[1]", "Finished logrotate.service - Rotate log files.")
    return join(out)


# ---------------------------------------------------------------------------------------
# seatmap-api: Go log/slog JSONHandler (time with nanoseconds, groups `req` and `event`).
# Planted: ERROR x274 (hold seats failed 231: context deadline exceeded 148 with peak minute
# 19:09, connection refused 83; publish hold event failed 43, no event group); Pellow
# Stadium the most hold failures; mean latency of the seatmap route an exact integer.
SEATMAP_ROUTE = "/v2/events/{eid}/seatmap"
HOLDS_ROUTE = "/v2/events/{eid}/holds"
DEADLINE_PLAN = {"19:05": 4, "19:06": 7, "19:07": 10, "19:08": 13, "19:09": 19, "19:10": 15, "19:11": 11, "19:12": 8}
SEATMAP_MEAN = 143


def seatmap_slog(rng):
    evs = [f"EV-28{n:05d}" for n in rng.sample(range(100, 9999), 190)]
    venue_of = {e: rng.choice(VENUES) for e in evs}
    rows = []

    def ts(t):
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{rng.randrange(1000):03d}Z"

    def rec(t, level, msg, **kw):
        d = {"time": ts(t), "level": level, "msg": msg}
        d.update(kw)
        rows.append((t, d))

    def event_for(venue):
        pool = [e for e in evs if venue_of[e] == venue]
        return zipf_pick(rng, pool, 0.8, 2)

    hold_venues = (["Pellow Stadium"] * 97 + ["Brightwater Arena"] * 61 + ["Corran Hall"] * 33 +
                   ["Sandgate Dome"] * 22 + ["Old Mint Theatre"] * 12 + ["Harrowgate Pavilion"] * 6)
    rng.shuffle(hold_venues)
    times = []
    for hhmm, k in DEADLINE_PLAN.items():
        times += [(in_minute(rng, hhmm), "context deadline exceeded") for _ in range(k)]
    times += [(rtime(rng, "19:13:00", "19:50:00", [("19:26:30", "19:34:00")]), "context deadline exceeded")
              for _ in range(148 - len(times))]
    times += [(in_waves(rng), "dial tcp 10.20.1.11:6432: connect: connection refused") for _ in range(83)]
    for (t, err), venue in zip(times, hold_venues):
        e = event_for(venue)
        rec(t, "ERROR", "hold seats failed",
            req={"id": hexid(rng, 16), "method": "POST", "route": HOLDS_ROUTE, "path": f"/v2/events/{e}/holds",
                 "status": 503, "latency_ms": rng.randrange(2000, 5000) if "deadline" in err else rng.randrange(1, 9)},
            event={"id": e, "venue": venue}, seats=rng.randrange(1, 7), err=err)
    for _ in range(43):
        rec(in_waves(rng), "ERROR", "publish hold event failed", subject="holds.created", attempt=rng.randrange(1, 4),
            err="nats: timeout")
    # seat map reads: latencies summing to an exact mean
    n_map = 600
    lat = []
    for i in range(n_map):
        st = 304 if rng.random() < 0.22 else 200
        lat.append([st, max(3, int(rng.lognormvariate(4.75, 0.55) * (0.4 if st == 304 else 1.0)))])
    diff = SEATMAP_MEAN * n_map - sum(x for _, x in lat)
    i = 0
    while diff:
        step = max(-lat[i][1] + 3, min(diff, 40)) if diff < 0 else min(diff, 40)
        if lat[i][0] == 200:
            lat[i][1] += step
            diff -= step
        i = (i + 1) % n_map
    for st, ms in lat:
        e = zipf_pick(rng, evs, 0.7, 4)
        rec(rtime(rng), "INFO", "request served",
            req={"id": hexid(rng, 16), "method": "GET", "route": SEATMAP_ROUTE, "path": f"/v2/events/{e}/seatmap",
                 "status": st, "latency_ms": ms}, event={"id": e, "venue": venue_of[e]})
    for _ in range(380):
        e = zipf_pick(rng, evs, 0.7, 4)
        rec(rtime(rng), "INFO", "request served",
            req={"id": hexid(rng, 16), "method": "POST", "route": HOLDS_ROUTE, "path": f"/v2/events/{e}/holds",
                 "status": 201, "latency_ms": rng.randrange(18, 700)}, event={"id": e, "venue": venue_of[e]}, seats=rng.randrange(1, 7))
    for _ in range(120):
        e = zipf_pick(rng, evs, 0.7, 4)
        rec(rtime(rng), "WARN", "slow seatmap render", event={"id": e, "venue": venue_of[e]},
            render_ms=rng.randrange(800, 3000), sections=rng.randrange(20, 140))
    for m in range(0, 240, 2):
        t = DAY + timedelta(hours=17, minutes=m, seconds=rng.randrange(0, 50), microseconds=rng.randrange(10 ** 6))
        rec(t, "INFO", "inventory cache refreshed", events=rng.randrange(150, 200), took_ms=rng.randrange(40, 400))
    rows.sort(key=lambda r: r[0])
    return "".join(json.dumps(d, separators=(",", ":")) + "\n" for _, d in rows)


# ---------------------------------------------------------------------------------------
# Tomcat 10 catalina.out (JULI OneLineFormatter: `dd-MMM-yyyy HH:mm:ss.SSS LEVEL [thread]
# class.method message`), stack traces after SEVERE. Planted: SEVERE x146 (HikariPool
# timeouts 92, first 19:03:41; SocketTimeoutException 41; IllegalStateException 13), two
# restarts (19:41, 20:06).
HIKARI_FIRST = "19:03:41.204"
JULI_SEVERE = 146

HIKARI_STACK = """java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms.
\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:696)
\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:197)
\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:162)
\tat com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:128)
\tat org.springframework.jdbc.datasource.DataSourceTransactionManager.doBegin(DataSourceTransactionManager.java:265)
\tat org.springframework.transaction.support.AbstractPlatformTransactionManager.startTransaction(AbstractPlatformTransactionManager.java:400)
\tat org.springframework.transaction.support.AbstractPlatformTransactionManager.getTransaction(AbstractPlatformTransactionManager.java:373)
\tat com.orrery.checkout.service.OrderService.confirm(OrderService.java:211)
\tat com.orrery.checkout.web.CheckoutController.confirm(CheckoutController.java:118)
\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
\tat org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:885)
\tat jakarta.servlet.http.HttpServlet.service(HttpServlet.java:658)
\tat org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:205)
\tat org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:166)
\tat org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun(NioEndpoint.java:1744)
\tat org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)
\tat java.base/java.lang.Thread.run(Thread.java:1583)"""

READ_STACK = """java.net.SocketTimeoutException: Read timed out
\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)
\tat java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:314)
\tat java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)
\tat org.apache.hc.core5.http.impl.io.SessionInputBufferImpl.fillBuffer(SessionInputBufferImpl.java:149)
\tat org.apache.hc.client5.http.impl.classic.InternalHttpClient.doExecute(InternalHttpClient.java:170)
\tat com.orrery.checkout.pay.PaygateClient.authorize(PaygateClient.java:92)
\tat com.orrery.checkout.service.OrderService.pay(OrderService.java:264)
\tat com.orrery.checkout.web.CheckoutController.pay(CheckoutController.java:141)
\tat jakarta.servlet.http.HttpServlet.service(HttpServlet.java:658)
\tat org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:166)
\tat java.base/java.lang.Thread.run(Thread.java:1583)"""

HOLD_STACK = """java.lang.IllegalStateException: Seat hold {hd} expired before payment
\tat com.orrery.checkout.service.HoldGuard.check(HoldGuard.java:57)
\tat com.orrery.checkout.service.OrderService.confirm(OrderService.java:198)
\tat com.orrery.checkout.web.CheckoutController.confirm(CheckoutController.java:118)
\tat jakarta.servlet.http.HttpServlet.service(HttpServlet.java:658)
\tat org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:166)
\tat java.base/java.lang.Thread.run(Thread.java:1583)"""


def catalina_out(rng):
    out = []
    restarts = [(at("19:41:10.113"), 41207), (at("20:06:40.482"), 38904)]
    down = [(t, t + timedelta(milliseconds=ms + 9000)) for t, ms in restarts]

    def ok(t):
        return not any(a - timedelta(seconds=2) <= t <= b + timedelta(seconds=2) for a, b in down)

    def line(t, level, thread, src, msg):
        out.append((t, f"{t.strftime('%d-%b-%Y %H:%M:%S')}.{t.microsecond // 1000:03d} {level} [{thread}] {src} {msg}"))

    def when(f):
        while True:
            t = f()
            if ok(t):
                return t

    exe = lambda: f"http-nio-8080-exec-{rng.randrange(1, 201)}"
    sev = []
    sev.append((at(HIKARI_FIRST), "hikari"))
    sev += [(when(lambda: rtime(rng, "19:03:43", "19:50:00", [("19:26:30", "19:34:00")])), "hikari") for _ in range(91)]
    sev += [(when(lambda: rtime(rng)), "read") for _ in range(41)]
    sev += [(when(lambda: rtime(rng, "19:00:00", "20:30:00")), "hold") for _ in range(13)]
    assert min(t for t, k in sev if k == "hikari") == at(HIKARI_FIRST)
    for t, kind in sev:
        if kind == "hikari":
            cause, stack = ("org.springframework.transaction.CannotCreateTransactionException: Could not open JDBC "
                            "Connection for transaction"), HIKARI_STACK
            path = "/checkout"
        elif kind == "read":
            cause, stack = "org.springframework.web.client.ResourceAccessException: I/O error on POST request for " \
                           "\"https://api.paygate.example/v3/authorize\": Read timed out", READ_STACK
            path = "/checkout"
        else:
            hd = f"HD-{rng.randrange(10 ** 7, 10 ** 8)}"
            cause, stack = f"java.lang.IllegalStateException: Seat hold {hd} expired before payment", HOLD_STACK.replace("{hd}", hd)
            path = "/checkout"
        line(t, "SEVERE", exe(), "org.apache.catalina.core.StandardWrapperValve.invoke",
             f"Servlet.service() for servlet [dispatcherServlet] in context with path [{path}] threw exception "
             f"[Request processing failed: {cause}] with root cause\n{stack}")
    for _ in range(450):
        t = when(lambda: rtime(rng))
        line(t, "INFO", exe(), "org.apache.catalina.core.ApplicationContext.log",
             f"checkout: order OR-{rng.randrange(1000000, 9999999)} confirmed ({rng.randrange(1, 7)} tickets, "
             f"{rng.randrange(80, 1900)} ms)")
    for _ in range(44):
        t = when(lambda: rtime(rng))
        line(t, "WARNING", exe(), "org.apache.catalina.core.ApplicationContext.log",
             f"checkout: paygate retry for OR-{rng.randrange(1000000, 9999999)} (attempt {rng.randrange(2, 4)})")
    for t, ms in restarts:
        d = lambda s: t + timedelta(milliseconds=s)
        line(d(0), "INFO", "main", "org.apache.catalina.core.StandardServer.await",
             "A valid shutdown command was received via the shutdown port. Stopping the Server instance.")
        line(d(2), "INFO", "main", "org.apache.coyote.AbstractProtocol.pause", 'Pausing ProtocolHandler ["http-nio-8080"]')
        line(d(9), "INFO", "main", "org.apache.catalina.core.StandardService.stopInternal", "Stopping service [Catalina]")
        line(d(1210), "WARNING", "main", "org.apache.catalina.loader.WebappClassLoaderBase.clearReferencesThreads",
             "The web application [checkout] appears to have started a thread named [HikariPool-1 housekeeper] but has "
             "failed to stop it. This is very likely to create a memory leak. Stack trace of thread:\n"
             "\tjava.base/jdk.internal.misc.Unsafe.park(Native Method)\n"
             "\tjava.base/java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:269)\n"
             "\tjava.base/java.lang.Thread.run(Thread.java:1583)")
        line(d(1260), "INFO", "main", "org.apache.coyote.AbstractProtocol.stop", 'Stopping ProtocolHandler ["http-nio-8080"]')
        line(d(1290), "INFO", "main", "org.apache.coyote.AbstractProtocol.destroy", 'Destroying ProtocolHandler ["http-nio-8080"]')
        s = d(7400)
        line(s, "INFO", "main", "org.apache.catalina.startup.VersionLoggerListener.log",
             "Server version name:   Apache Tomcat/10.1.19")
        line(s + timedelta(milliseconds=3), "INFO", "main", "org.apache.catalina.startup.VersionLoggerListener.log",
             "JVM Version:           21.0.2+13-LTS")
        line(s + timedelta(milliseconds=610), "INFO", "main", "org.apache.coyote.AbstractProtocol.init",
             'Initializing ProtocolHandler ["http-nio-8080"]')
        line(s + timedelta(milliseconds=640), "INFO", "main", "org.apache.catalina.startup.Catalina.load",
             f"Server initialization in [{rng.randrange(500, 700)}] milliseconds")
        line(s + timedelta(milliseconds=660), "INFO", "main", "org.apache.catalina.core.StandardService.startInternal",
             "Starting service [Catalina]")
        line(s + timedelta(milliseconds=700), "INFO", "main", "org.apache.catalina.startup.HostConfig.deployWAR",
             "Deploying web application archive [/opt/tomcat/webapps/checkout.war]")
        line(s + timedelta(milliseconds=ms - 60), "INFO", "main", "org.apache.catalina.startup.HostConfig.deployWAR",
             f"Deployment of web application archive [/opt/tomcat/webapps/checkout.war] has finished in [{ms - 800}] ms")
        line(s + timedelta(milliseconds=ms - 20), "INFO", "main", "org.apache.coyote.AbstractProtocol.start",
             'Starting ProtocolHandler ["http-nio-8080"]')
        line(s + timedelta(milliseconds=ms), "INFO", "main", "org.apache.catalina.startup.Catalina.start",
             f"Server startup in [{ms}] milliseconds")
    return join(out)


# ---------------------------------------------------------------------------------------
# refunds: gunicorn 21 error log (`[date +0000] [pid] [LEVEL] msg`) with the Django app's
# own logging (`date,ms LEVEL logger: msg`) and tracebacks in the same stream. Planted:
# WORKER TIMEOUT x133 (71 in the waves, 62 in 20:43-20:58:30), SIGKILL x7 (first 19:18:27),
# tracebacks: OperationalError 58 (chained psycopg2 -> django.db.utils), ReadTimeout 31,
# IntegrityError 9.
GUNI_MASTER = 812
SIGKILL_FIRST = "19:18:27"

OPERR_TB = """Traceback (most recent call last):
  File "/srv/refunds/venv/lib/python3.11/site-packages/django/db/backends/base/base.py", line 289, in ensure_connection
    self.connect()
  File "/srv/refunds/venv/lib/python3.11/site-packages/django/db/backends/postgresql/base.py", line 269, in get_new_connection
    connection = self.Database.connect(**conn_params)
  File "/srv/refunds/venv/lib/python3.11/site-packages/psycopg2/__init__.py", line 122, in connect
    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)
psycopg2.OperationalError: connection to server at "tix-db-1.orrery.internal" (10.20.1.11), port 6432 failed: Connection refused
\tIs the server running on that host and accepting TCP/IP connections?

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/refunds/venv/lib/python3.11/site-packages/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
  File "/srv/refunds/refunds/api/views.py", line 142, in confirm
    refund = Refund.objects.select_for_update().get(ref=ref)
  File "/srv/refunds/venv/lib/python3.11/site-packages/django/db/utils.py", line 91, in __exit__
    raise dj_exc_value.with_traceback(traceback) from exc_value
django.db.utils.OperationalError: connection to server at "tix-db-1.orrery.internal" (10.20.1.11), port 6432 failed: Connection refused
\tIs the server running on that host and accepting TCP/IP connections?"""

TIMEOUT_TB = """Traceback (most recent call last):
  File "/srv/refunds/venv/lib/python3.11/site-packages/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
  File "/srv/refunds/refunds/api/views.py", line 171, in confirm
    result = paygate.refund(refund.payment_ref, refund.amount)
  File "/srv/refunds/refunds/paygate.py", line 64, in refund
    resp = self.session.post(url, json=body, timeout=10)
  File "/srv/refunds/venv/lib/python3.11/site-packages/requests/adapters.py", line 713, in send
    raise ReadTimeout(e, request=request)
requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.paygate.example', port=443): Read timed out. (read timeout=10)"""

INTEGRITY_TB = """Traceback (most recent call last):
  File "/srv/refunds/venv/lib/python3.11/site-packages/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
  File "/srv/refunds/refunds/api/views.py", line 98, in create
    Refund.objects.create(order_ref=order_ref, amount=amount, reason=reason)
  File "/srv/refunds/venv/lib/python3.11/site-packages/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
django.db.utils.IntegrityError: duplicate key value violates unique constraint "refunds_refund_order_ref_key"
DETAIL:  Key (order_ref)=({o}) already exists."""


def refunds_gunicorn(rng):
    out = []

    def g(t, pid, level, msg):
        out.append((t, f"[{t.strftime('%Y-%m-%d %H:%M:%S')} +0000] [{pid}] [{level}] {msg}"))

    def app(t, level, logger, msg):
        out.append((t, f"{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d} {level} {logger}: {msg}"))

    workers = list(range(1431, 1439))
    nxt = [2140]
    ev_to = sorted([rtime(rng, "19:04:00", "19:50:00", [("19:26:30", "19:34:00")]) for _ in range(71)] +
                   [rtime(rng, "20:43:00", "20:58:30") for _ in range(62)])
    ev_kill = sorted([at(SIGKILL_FIRST + ".100000")] + [rtime(rng, "19:18:40", "20:30:00") for _ in range(6)])
    kinds = sorted([(t, "timeout") for t in ev_to] + [(t, "kill") for t in ev_kill])
    for a, b in zip(kinds, kinds[1:]):
        assert (b[0] - a[0]).total_seconds() >= 1.0 or a[0].second != b[0].second or True
    for t, kind in kinds:
        victim = rng.choice(workers)
        nxt[0] += rng.randrange(2, 40)
        new = nxt[0]
        workers[workers.index(victim)] = new
        if kind == "timeout":
            g(t, GUNI_MASTER, "CRITICAL", f"WORKER TIMEOUT (pid:{victim})")
            g(t, victim, "INFO", f"Worker exiting (pid: {victim})")
            g(t + timedelta(seconds=1), GUNI_MASTER, "ERROR", f"Worker (pid:{victim}) was sent code 134!")
        else:
            g(t, GUNI_MASTER, "ERROR", f"Worker (pid:{victim}) was sent SIGKILL! Perhaps out of memory?")
        g(t + timedelta(seconds=1, microseconds=200000), new, "INFO", f"Booting worker with pid: {new}")
    tbs = ([("op", in_waves(rng)) for _ in range(58)] + [("rt", rtime(rng)) for _ in range(31)] +
           [("ie", rtime(rng)) for _ in range(9)])
    for kind, t in tbs:
        ref = f"RF-{rng.randrange(100000, 999999)}"
        if kind == "op":
            tb, path = OPERR_TB, f"/api/refunds/{ref}/confirm"
        elif kind == "rt":
            tb, path = TIMEOUT_TB, f"/api/refunds/{ref}/confirm"
        else:
            tb, path = INTEGRITY_TB.replace("{o}", f"OR-{rng.randrange(1000000, 9999999)}"), "/api/refunds/"
        app(t, "ERROR", "django.request", f"Internal Server Error: {path}\n{tb}")
    for _ in range(760):
        t = rtime(rng)
        app(t, "INFO", "refunds.api", f"refund RF-{rng.randrange(100000, 999999)} queued for OR-{rng.randrange(1000000, 9999999)} "
                                       f"(amount={rng.randrange(8, 400)}.{rng.choice(['00', '50', '95'])} GBP)")
    for _ in range(85):
        t = rtime(rng)
        app(t, "WARNING", "refunds.paygate", f"paygate slow response {rng.uniform(3, 9.5):.1f}s for RF-{rng.randrange(100000, 999999)}")
    for _ in range(40):
        t = rtime(rng, "20:40:00", "20:59:00")
        app(t, "INFO", "refunds.batch", f"nightly batch: settled {rng.randrange(20, 90)} refunds for merchant M-{rng.randrange(100, 999)}")
    g(at("20:59:44"), GUNI_MASTER, "INFO", "Handling signal: hup")
    g(at("20:59:44"), GUNI_MASTER, "INFO", "Hang up: Master")
    return join(out)


# ---------------------------------------------------------------------------------------
# PostgreSQL 15 csvlog (26 columns, multi-line fields quoted). Planted: deadlocks x61
# (40P01), statements over 1 s x118 (none in 950-1050 ms), the slowest 27419.382 ms on
# refund_ledger, "remaining connection slots" x79 from 19:03:12, admin terminations x66.
PG_SLOWEST = 27419.382
PG_SLOTS_FIRST = "19:03:12.337"


def _csv(v):
    if v is None or v == "":
        return ""
    s = str(v)
    if any(c in s for c in ',"\n') or s != s.strip():
        return '"' + s.replace('"', '""') + '"'
    return s


SQL = {
    "tix_app": ["SELECT s.id, s.section, s.row_label, s.number, s.state FROM seats s WHERE s.event_id = $1 AND s.section = ANY($2)",
                "UPDATE seat_holds SET state = 'released' WHERE held_until < now() AND state = 'held'",
                "INSERT INTO orders (ref, customer_id, event_id, total_pence, created_at) VALUES ($1, $2, $3, $4, now()) RETURNING id"],
    "refunds": ["SELECT * FROM refunds_refund WHERE ref = $1 FOR UPDATE",
                "UPDATE refunds_refund SET state = 'settled', settled_at = now() WHERE id = $1"],
    "reporting": ["SELECT date_trunc('hour', o.created_at) AS h, count(*), sum(o.total_pence) FROM orders o\n"
                  "  JOIN order_lines l ON l.order_id = o.id\n WHERE o.created_at >= $1 GROUP BY 1 ORDER BY 1",
                  "SELECT merchant_id, sum(amount_pence) FROM refund_ledger WHERE booked_on = $1 GROUP BY merchant_id"],
}


def postgres_csv(rng):
    rows = []
    pid = [88000]
    line_no = {}
    start_of = {}

    def row(t, user, db, sev, state, msg, tag="", detail="", hint="", context="", query="", app="", backend="client backend",
            client=None, p=None):
        if p is None:
            pid[0] += rng.randrange(1, 30)
            p = pid[0]
        line_no[p] = line_no.get(p, 0) + 1
        start_of.setdefault(p, t - timedelta(seconds=rng.randrange(0, 600)))
        sid = f"{int(start_of[p].timestamp()):x}.{p:x}"
        if client is None:
            client = f"10.20.3.{rng.randrange(10, 90)}:{rng.randrange(30000, 65000)}" if user else ""
        vals = [t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d} UTC", user, db, p, client, sid,
                line_no[p], tag, start_of[p].strftime("%Y-%m-%d %H:%M:%S UTC"),
                f"{rng.randrange(1, 60)}/{rng.randrange(1000, 99999)}" if user else "", 0, sev, state, msg, detail,
                hint, "", "", context, query, "", "", app, backend, "", 0 if user else ""]
        rows.append((t, ",".join(_csv(v) for v in vals)))

    apps = {"tix_app": "checkout", "refunds": "refunds", "reporting": "metabase", "seatmap": "seatmap-api"}
    # slow statements (log_min_duration_statement = 250ms)
    durs = []
    while len(durs) < 560:
        d = round(250 + rng.lognormvariate(4.6, 0.9), 3)
        if d < 950:
            durs.append(d)
    while len(durs) < 560 + 117:
        d = round(rng.uniform(1050, 14500), 3)
        durs.append(d)
    for d in durs:
        user = rng.choice(["tix_app", "tix_app", "refunds", "reporting"])
        sql = rng.choice(SQL[user])
        if "refund_ledger" in sql:
            sql = SQL["reporting"][0]
        t = in_waves(rng) if d > 1000 and rng.random() < 0.6 else rtime(rng)
        row(t, user, "tix", "LOG", "00000", f"duration: {d:.3f} ms  execute <unnamed>: {sql}",
            tag=sql.split()[0], detail=f"parameters: $1 = '{rng.randrange(1, 99999)}'", app=apps[user])
    row(at("20:14:52.618"), "reporting", "tix", "LOG", "00000", f"duration: {PG_SLOWEST:.3f} ms  statement: {SQL['reporting'][1].replace('$1', chr(39) + '2028-03-22' + chr(39))}",
        tag="SELECT", app="metabase")
    for _ in range(240):
        t = rtime(rng)
        user = rng.choice(list(apps))
        pid[0] += rng.randrange(1, 30)
        p = pid[0]
        c = f"10.20.3.{rng.randrange(10, 90)}"
        row(t, "", "", "LOG", "00000", f"connection received: host={c} port={rng.randrange(30000, 65000)}", p=p, client=f"{c}:{rng.randrange(30000, 65000)}", backend="not initialized")
        row(t + timedelta(milliseconds=3), user, "tix", "LOG", "00000",
            f"connection authorized: user={user} database=tix application_name={apps[user]}", tag="authentication", p=p)
    for m in range(0, 240, 5):
        t = DAY + timedelta(hours=17, minutes=m, seconds=rng.randrange(0, 3), microseconds=rng.randrange(10 ** 6))
        row(t, "", "", "LOG", "00000", "checkpoint starting: time", backend="checkpointer", p=71)
        w = rng.randrange(800, 9000)
        row(t + timedelta(seconds=269, milliseconds=rng.randrange(900)), "", "", "LOG", "00000",
            f"checkpoint complete: wrote {w} buffers ({w / 163.84:.1f}%); 0 WAL file(s) added, 0 removed, {rng.randrange(1, 6)} recycled; "
            f"write=269.{rng.randrange(100, 999)} s, sync=0.0{rng.randrange(10, 99)} s, total=269.{rng.randrange(100, 999)} s; "
            f"sync files={rng.randrange(40, 140)}, longest=0.00{rng.randrange(1, 9)} s, average=0.001 s; "
            f"distance={rng.randrange(20000, 90000)} kB, estimate={rng.randrange(40000, 90000)} kB",
            backend="checkpointer", p=71)
    for _ in range(61):
        t = in_waves(rng) if rng.random() < 0.7 else rtime(rng)
        a, b = rng.randrange(2000, 9000), rng.randrange(2000, 9000)
        x = rng.randrange(4000000, 4100000)
        row(t, "tix_app", "tix", "ERROR", "40P01", "deadlock detected", tag="UPDATE",
            detail=f"Process {a} waits for ShareLock on transaction {x}; blocked by process {b}.\n"
                   f"Process {b} waits for ShareLock on transaction {x + 1}; blocked by process {a}.\n"
                   f"Process {a}: UPDATE seat_holds SET state = 'held', held_until = now() + interval '8 minutes' WHERE event_id = $1 AND seat_id = ANY($2)\n"
                   f"Process {b}: UPDATE seat_holds SET state = 'held', held_until = now() + interval '8 minutes' WHERE event_id = $1 AND seat_id = ANY($2)",
            hint="See server log for query details.",
            context=f"while updating tuple ({rng.randrange(100, 3000)},{rng.randrange(1, 40)}) in relation \"seat_holds\"",
            query="UPDATE seat_holds SET state = 'held', held_until = now() + interval '8 minutes' WHERE event_id = $1 AND seat_id = ANY($2)",
            app="checkout")
    slots = [at(PG_SLOTS_FIRST)] + [rtime(rng, "19:03:14", "19:50:00", [("19:26:30", "19:34:00")]) for _ in range(78)]
    for t in slots:
        user = rng.choice(["tix_app", "seatmap", "refunds"])
        row(t, user, "tix", "FATAL", "53300", "remaining connection slots are reserved for non-replication superuser connections",
            tag="startup", app="")
    for _ in range(66):
        t = rtime(rng, "19:19:00", "19:25:00")
        user = rng.choice(["tix_app", "tix_app", "seatmap", "reporting"])
        row(t, user, "tix", "FATAL", "57P01", "terminating connection due to administrator command", tag="idle in transaction",
            app=apps[user])
    for _ in range(34):
        t = rtime(rng)
        user = rng.choice(["reporting", "refunds", "tix_app"])
        row(t, user, "tix", "ERROR", "57014", "canceling statement due to statement timeout", tag="SELECT",
            query=rng.choice(SQL[user]), app=apps[user])
    return join(rows)


# ---------------------------------------------------------------------------------------
# AWS Application Load Balancer access log (space-separated, quoted request/UA/trace
# fields, ISO times with microseconds). Planted: ELB 502 x94 (first 19:03:58, target
# status "-"), target 5xx most on 10.20.7.14:8080; no 5xx near 19:30 or 20:00.
ALB_TARGETS = ["10.20.7.11:8080", "10.20.7.12:8080", "10.20.7.13:8080", "10.20.7.14:8080"]
ALB_WEB = ["10.20.8.21:80", "10.20.8.22:80"]
ALB_FIRST_502 = "19:03:58.214337"
ALB_ARN = "arn:aws:elasticloadbalancing:eu-west-1:481226730091:targetgroup/{}/{}"


def alb_access(rng):
    clients = ip_pool(rng, 700, firsts=(2, 5, 31, 46, 78, 81, 92, 109, 151, 185, 212))
    recs = []  # t, client, target, elb, target_status, kind

    def add(t, target, elb, tst):
        recs.append((t, zipf_pick(rng, clients, 0.5, 30), target, elb, tst))

    add(at(ALB_FIRST_502), "10.20.7.14:8080", 502, "-")
    for tgt, k in (("10.20.7.14:8080", 49), ("10.20.7.12:8080", 20), ("10.20.7.11:8080", 14), ("10.20.7.13:8080", 10)):
        for _ in range(k):
            add(rtime(rng, "19:04:00", "19:50:00", [("19:26:30", "19:34:00")]), tgt, 502, "-")
    for tgt, k in (("10.20.7.14:8080", 31), ("10.20.7.11:8080", 13), ("10.20.7.12:8080", 10), ("10.20.7.13:8080", 7)):
        for _ in range(k):
            add(in_waves(rng), tgt, 503, "503")
    for tgt, k in (("10.20.7.14:8080", 6), ("10.20.7.11:8080", 7), ("10.20.7.12:8080", 6), ("10.20.7.13:8080", 5)):
        for _ in range(k):
            add(outside(rng), tgt, 500, "500")
    for _ in range(27):
        add(in_waves(rng), rng.choice(ALB_TARGETS), 504, "-")
    while len(recs) < 950:
        st = rng.choices([200, 201, 302, 304, 400, 401, 404], [75, 5, 3, 6, 3, 3, 5])[0]
        tgt = rng.choice(ALB_TARGETS + ALB_WEB)
        add(outside(rng) if rng.random() < 0.85 else rtime(rng), tgt, st, str(st))
    out = []
    for t, ip, tgt, elb, tst in recs:
        api = tgt in ALB_TARGETS
        if api:
            method, path = rng.choice([("POST", "/api/v1/checkout"), ("GET", f"/api/v1/orders/OR-{rng.randrange(10 ** 6, 10 ** 7)}"),
                                       ("POST", f"/api/v1/checkout/{hexid(rng, 12)}/pay")])
            tg = ALB_ARN.format("tix-checkout-api", "7f3c0a91d2b84e65")
        else:
            method, path = "GET", rng.choice(["/", "/events", "/static/js/app.7c41e9.js", "/help/refunds"])
            tg = ALB_ARN.format("tix-web", "2a9be4c01f6d3378")
        if elb in (502, 504):
            rq, tp, rp = "0.000", "-1", "-1"
            if elb == 504:
                t0 = t - timedelta(seconds=60)
            else:
                t0 = t - timedelta(milliseconds=rng.randrange(1, 900))
        else:
            rq = f"{rng.uniform(0, 0.002):.3f}"
            tp = f"{min(rng.lognormvariate(-2.4, 0.9), 25):.3f}"
            rp = "0.000"
            t0 = t - timedelta(seconds=float(tp))
        recv, sent = rng.randrange(120, 2400), rng.randrange(180, 40000)
        ts = lambda x: x.strftime("%Y-%m-%dT%H:%M:%S.") + f"{x.microsecond:06d}Z"
        trace = f"Root=1-{int(t0.timestamp()):08x}-{hexid(rng, 24)}"
        line = (f'h2 {ts(t)} app/tix-prod-alb/50dc6c495c0c9188 {ip}:{rng.randrange(1024, 65535)} {tgt} {rq} {tp} {rp} '
                f'{elb} {tst} {recv} {sent} "{method} https://tix.orrery.example:443{path} HTTP/2.0" "{rng.choice(UAS)}" '
                f'ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 {tg} "{trace}" "tix.orrery.example" '
                f'"arn:aws:acm:eu-west-1:481226730091:certificate/5e2b8d0c-3f41-4a7e-9c18-b0d6e2f4a913" 0 {ts(t0)} '
                f'"forward" "-" "-" "{tgt}" "{tst}" "-" "-"')
        out.append((t, line))
    return join(out)


# ---------------------------------------------------------------------------------------
# IIS 10 W3C extended log of the legacy box-office portal; a second header block after the
# 19:52 app pool recycle. Planted: sc-status 500 x77; 401 by c-ip 152 > 96 > 71 > the rest
# (the top one on /BoxOffice/api/session); Settlement.aspx mean time-taken 4186 ms.
IIS_FIELDS = ("date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) "
              "sc-status sc-substatus sc-win32-status time-taken")
IIS_BRUTE = [("185.220.101.47", 152, "/BoxOffice/api/session"), ("45.155.205.233", 96, "/BoxOffice/Login.aspx"),
             ("194.26.29.113", 71, "/BoxOffice/api/session")]
SETTLEMENT = "/BoxOffice/Reports/Settlement.aspx"
SETTLEMENT_MEAN = 4186
IIS_RECYCLE = "19:52:07"


def iis_boxoffice(rng):
    agents = [f"10.60.{rng.randrange(1, 12)}.{rng.randrange(2, 250)}" for _ in range(70)]
    users = [f"ORRERY\\{u}" for u in ("jsmythe", "akhan", "boxoffice01", "boxoffice02", "lmorel", "tgrady", "venue-pellow",
                                      "venue-corran", "pbrandt", "svc-settle")]
    ua_b = "Mozilla/5.0+(Windows+NT+10.0;+Win64;+x64)+AppleWebKit/537.36+(KHTML,+like+Gecko)+Chrome/122.0.0.0+Safari/537.36+Edg/122.0.2365.80"
    recs = []
    rec_t = at(IIS_RECYCLE)

    def add(t, method, stem, query, user, ip, ua, ref, st, sub, win, tt):
        tt += 10 if 499 < tt < 505 else 0  # no time-taken that reads like a 5xx status
        recs.append((t, f"{t.strftime('%Y-%m-%d %H:%M:%S')} 10.60.0.12 {method} {stem} {query} 443 {user} {ip} {ua} {ref} "
                        f"{st} {sub} {win} {tt}"))

    def when():
        while True:
            t = rtime(rng)
            if abs((t - rec_t).total_seconds()) > 30:
                return t

    for ip, k, stem in IIS_BRUTE:
        for i in range(k):
            s = stem if i % 9 else "/BoxOffice/Login.aspx"
            if ip == "45.155.205.233":
                s = "/BoxOffice/Login.aspx" if i % 7 else "/BoxOffice/api/session"
            add(when(), "POST", s, "-", "-", ip, "python-requests/2.31.0", "-", 401, 1, 1326, rng.randrange(2, 40))
    # normal challenge-response: the first request of a session is a 401.2
    for _ in range(330):
        ip, user = rng.choice(agents), rng.choice(users)
        t = when()
        stem = rng.choice(["/BoxOffice/Default.aspx", "/BoxOffice/Sales/Counter.aspx", "/BoxOffice/Events.aspx"])
        add(t, "GET", stem, "-", "-", ip, ua_b, "-", 401, 2, 5, rng.randrange(0, 4))
        add(t + timedelta(seconds=1), "GET", stem, "-", user, ip, ua_b, "-", 200, 0, 0, rng.randrange(15, 900))
    n_set = 64
    tts = [rng.randrange(1800, 7500) for _ in range(n_set)]
    diff = SETTLEMENT_MEAN * n_set - sum(tts)
    i = 0
    while diff:
        step = max(-400, min(400, diff))
        if 1200 < tts[i] + step < 9000:
            tts[i] += step
            diff -= step
        i = (i + 1) % n_set
    for tt in tts:
        add(when(), "GET", SETTLEMENT, f"venue={rng.choice(['PEL', 'BRW', 'COR', 'OMT', 'SGD'])}&date=2028-03-22",
            "ORRERY\\svc-settle" if rng.random() < 0.3 else rng.choice(users), rng.choice(agents), ua_b,
            "https://boxoffice.orrery.example/BoxOffice/Reports/", 200, 0, 0, tt)
    for _ in range(77):
        t = in_waves(rng) if rng.random() < 0.7 else when()
        add(t, "POST", rng.choice(["/BoxOffice/Sales/Counter.aspx", "/BoxOffice/api/tickets/issue"]), "-", rng.choice(users),
            rng.choice(agents), ua_b, "-", 500, 0, 0, rng.randrange(30000, 31000) if rng.random() < 0.6 else rng.randrange(40, 900))
    while len(recs) < 1500:
        stem = rng.choice(["/BoxOffice/Sales/Counter.aspx", "/BoxOffice/Events.aspx", "/BoxOffice/api/tickets/issue",
                           "/BoxOffice/Scripts/jquery-3.7.1.min.js", "/BoxOffice/Content/site.css", "/BoxOffice/Default.aspx"])
        st = rng.choices([200, 304, 302, 404], [80, 12, 4, 4])[0]
        tt = rng.randrange(0, 40) if st == 304 or stem.endswith(("js", "css")) else rng.randrange(20, 1500)
        add(when(), "POST" if "api" in stem else "GET", stem, "-", rng.choice(users), rng.choice(agents), ua_b, "-", st, 0,
            0 if st != 404 else 2, tt)
    recs.sort(key=lambda r: r[0])
    head = lambda t: (f"#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n"
                      f"#Date: {t.strftime('%Y-%m-%d %H:%M:%S')}\n#Fields: {IIS_FIELDS}\n")
    first = recs[0][0].replace(microsecond=0)
    text = head(first)
    headed = False
    for t, line in recs:
        if not headed and t >= rec_t:
            text += head(rec_t)
            headed = True
        text += line + "\n"
    return text


# ---------------------------------------------------------------------------------------
# Kubernetes API server audit log (audit.k8s.io/v1 Event per line, ResponseComplete stage
# only, level Metadata). Planted: pod deletes by dana.okafor 73 > rui.tanaka 29 >
# replicaset-controller 18; 403 x69 (the waitroom-scaler service account patching
# deployments/scale).
K8S_DELETERS = [("dana.okafor@orrery-tickets.example", ["oidc:sre", "system:authenticated"], 73, "10.20.0.31"),
                ("rui.tanaka@orrery-tickets.example", ["oidc:sre", "system:authenticated"], 29, "10.20.0.44"),
                ("system:serviceaccount:kube-system:replicaset-controller",
                 ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"], 18, "10.20.0.5")]
K8S_403 = 69
SCALER = "system:serviceaccount:tix:waitroom-scaler"


def k8s_audit(rng):
    out = []
    pods = {d: [f"{d}-{hexid(rng, 9)}-{''.join(rng.choice('bcdfghjklmnpqrstvwxz2456789') for _ in range(5))}" for _ in range(40)]
            for d in ("seatmap-api", "checkout-api", "waitroom", "web", "accounts")}

    def ev(t, user, groups, ip, ua, verb, uri, obj, code, decision, reason, extra=None):
        t2 = t + timedelta(microseconds=rng.randrange(800, 40000))
        d = {"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "Metadata", "auditID": uuid(rng),
             "stage": "ResponseComplete", "requestURI": uri, "verb": verb,
             "user": {"username": user, "groups": groups}, "sourceIPs": [ip], "userAgent": ua, "objectRef": obj}
        rs = {"metadata": {}, "code": code}
        if code == 403:
            rs = {"metadata": {}, "status": "Failure", "message": extra, "reason": "Forbidden",
                  "details": {"group": "apps", "kind": "deployments"}, "code": 403}
        d["responseStatus"] = rs
        ts = lambda x: x.strftime("%Y-%m-%dT%H:%M:%S.") + f"{x.microsecond:06d}Z"
        d["requestReceivedTimestamp"], d["stageTimestamp"] = ts(t), ts(t2)
        d["annotations"] = {"authorization.k8s.io/decision": decision, "authorization.k8s.io/reason": reason}
        out.append((t, json.dumps(d, separators=(",", ":"))))

    kubectl = "kubectl/v1.29.2 (linux/amd64) kubernetes/4b8e819"
    for user, groups, k, ip in K8S_DELETERS:
        for _ in range(k):
            dep = rng.choice(["seatmap-api", "checkout-api", "waitroom"]) if "controller" not in user else rng.choice(list(pods))
            name = rng.choice(pods[dep])
            t = rtime(rng, "19:05:00", "20:20:00") if "controller" not in user else rtime(rng)
            why = ('RBAC: allowed by ClusterRoleBinding "sre-admin" of ClusterRole "cluster-admin" to Group "oidc:sre"'
                   if "controller" not in user else
                   'RBAC: allowed by ClusterRoleBinding "system:controller:replicaset-controller" of ClusterRole '
                   '"system:controller:replicaset-controller" to ServiceAccount "replicaset-controller/kube-system"')
            ua = kubectl if "controller" not in user else "kube-controller-manager/v1.29.2 (linux/amd64) kubernetes/4b8e819/system:serviceaccount:kube-system:replicaset-controller"
            ev(t, user, groups, ip, ua, "delete", f"/api/v1/namespaces/tix/pods/{name}",
               {"resource": "pods", "namespace": "tix", "name": name, "apiVersion": "v1"}, 200, "allow", why)
    sa_groups = ["system:serviceaccounts", "system:serviceaccounts:tix", "system:authenticated"]
    for _ in range(K8S_403):
        t = rtime(rng, "18:50:00", "20:30:00")
        dep = rng.choice(["waitroom", "seatmap-api"])
        ev(t, SCALER, sa_groups, "10.42.6.19", "waitroom-scaler/0.4.1", "patch",
           f"/apis/apps/v1/namespaces/tix/deployments/{dep}/scale",
           {"resource": "deployments", "namespace": "tix", "name": dep, "apiGroup": "apps", "apiVersion": "v1",
            "subresource": "scale"}, 403, "forbid", "",
           extra=f'deployments.apps "{dep}" is forbidden: User "{SCALER}" cannot patch resource "deployments/scale" '
                 f'in API group "apps" in the namespace "tix"')
    nodes = [f"ip-10-20-{rng.randrange(1, 9)}-{rng.randrange(10, 250)}.eu-west-1.compute.internal" for _ in range(6)]
    bg = [
        ("system:kube-scheduler", ["system:authenticated"], "kube-scheduler/v1.29.2", "get", "leases", "kube-system", "kube-scheduler", "coordination.k8s.io"),
        ("system:kube-controller-manager", ["system:authenticated"], "kube-controller-manager/v1.29.2", "update", "leases", "kube-system", "kube-controller-manager", "coordination.k8s.io"),
        ("system:serviceaccount:kube-system:deployment-controller", sa_groups, "kube-controller-manager/v1.29.2", "update", "deployments", "tix", "seatmap-api", "apps"),
        ("system:serviceaccount:monitoring:prometheus", sa_groups, "Prometheus/2.50.1", "list", "endpoints", "tix", "", ""),
        ("system:serviceaccount:argocd:argocd-application-controller", sa_groups, "argocd-application-controller/v2.10.2", "get", "configmaps", "tix", "checkout-config", ""),
        ("mhale@orrery-tickets.example", ["oidc:dev", "system:authenticated"], kubectl, "get", "pods", "tix", "", ""),
        ("rui.tanaka@orrery-tickets.example", ["oidc:sre", "system:authenticated"], kubectl, "list", "pods", "tix", "", ""),
        ("dana.okafor@orrery-tickets.example", ["oidc:sre", "system:authenticated"], kubectl, "get", "pods", "tix", "", ""),
        ("system:serviceaccount:tix:waitroom-scaler", sa_groups, "waitroom-scaler/0.4.1", "get", "deployments", "tix", "waitroom", "apps"),
        ("svc-ci@orrery-tickets.example", ["oidc:ci", "system:authenticated"], "argocd/v2.10.2", "patch", "deployments", "tix", "web", "apps"),
    ]
    for _ in range(300):
        user, groups, ua, verb, res, ns, name, grp = rng.choice(bg)
        if user.startswith("system:node") or rng.random() < 0.12:
            node = rng.choice(nodes)
            user, groups, ua, verb, res, ns, name, grp = (f"system:node:{node}", ["system:nodes", "system:authenticated"],
                                                          "kubelet/v1.29.2 (linux/amd64) kubernetes/4b8e819", "update",
                                                          "leases", "kube-node-lease", node, "coordination.k8s.io")
        if res == "pods" and verb == "get":
            name = rng.choice(pods[rng.choice(list(pods))])
        base = f"/apis/{grp}/v1" if grp else "/api/v1"
        uri = f"{base}/namespaces/{ns}/{res}" + (f"/{name}" if name else "")
        obj = {"resource": res, "namespace": ns, "apiVersion": "v1"}
        if name:
            obj["name"] = name
        if grp:
            obj["apiGroup"] = grp
        ev(rtime(rng), user, groups, "10.20.0." + str(rng.randrange(2, 60)), ua, verb, uri, obj, 200, "allow",
           "RBAC: allowed by RoleBinding or ClusterRoleBinding")
    return join(out)


# ---------------------------------------------------------------------------------------
# ClickHouse 23.8 server log (`yyyy.mm.dd hh:mm:ss.ffffff [ tid ] {query_id} <Level>
# logger: msg`, exceptions with their stack trace). Planted: MEMORY_LIMIT_EXCEEDED by hour
# 12 / 17 / 68 / 31 (most from 10.20.5.31); slowest query 187.402316 s.
CH_MEM_BY_HOUR = {17: 12, 18: 17, 19: 68, 20: 31}
CH_SLOWEST = 187.402316
CH_STACK = """0. DB::Exception::Exception(DB::Exception::MessageMasked&&, int, bool) @ 0x000000000c6b4bd7 in /usr/bin/clickhouse
1. DB::Exception::Exception<char const*, char const*, String, String, String>(int, FormatStringHelperImpl<...>, char const*&&, char const*&&, String&&, String&&, String&&) @ 0x000000000c6d1ec5 in /usr/bin/clickhouse
2. MemoryTracker::allocImpl(long, bool, MemoryTracker*) @ 0x000000000c6d1a3e in /usr/bin/clickhouse
3. MemoryTracker::allocImpl(long, bool, MemoryTracker*) @ 0x000000000c6d1594 in /usr/bin/clickhouse
4. Allocator<false, false>::realloc(void*, unsigned long, unsigned long, unsigned long) @ 0x000000000c6a2e6d in /usr/bin/clickhouse
5. DB::Aggregator::executeOnBlock(DB::Block const&, DB::AggregatedDataVariants&, std::vector<DB::IColumn const*>&, std::vector<std::vector<DB::IColumn const*>>&, bool&) const @ 0x00000000126a8af2 in /usr/bin/clickhouse
6. DB::AggregatingTransform::consume(DB::Chunk) @ 0x0000000013f0d9a6 in /usr/bin/clickhouse
7. DB::AggregatingTransform::work() @ 0x0000000013f0c3b5 in /usr/bin/clickhouse
8. DB::ExecutionThreadContext::executeTask() @ 0x0000000013cc2c9a in /usr/bin/clickhouse
9. DB::PipelineExecutor::executeStepImpl(unsigned long, std::atomic<bool>*) @ 0x0000000013cb8970 in /usr/bin/clickhouse
10. ThreadPoolImpl<ThreadFromGlobalPoolImpl<false>>::worker(std::__list_iterator<ThreadFromGlobalPoolImpl<false>, void*>) @ 0x000000000c794733 in /usr/bin/clickhouse
11. ThreadPoolImpl<std::thread>::worker(std::__list_iterator<std::thread, void*>) @ 0x000000000c790e63 in /usr/bin/clickhouse
12. ? @ 0x00007f6a1e894ac3 in ?
13. ? @ 0x00007f6a1e926850 in ?"""
CH_QUERIES = [
    "SELECT event_id, toStartOfMinute(ts) AS m, uniqExact(session_id) FROM tix.page_views WHERE ts >= now() - INTERVAL 6 HOUR GROUP BY event_id, m ORDER BY m",
    "SELECT venue, count(), sum(price_pence) FROM tix.sales WHERE sale_date = today() GROUP BY venue",
    "SELECT customer_id, groupArray(event_id) FROM tix.sales GROUP BY customer_id HAVING count() > 8",
    "INSERT INTO tix.page_views FORMAT RowBinary",
]


def clickhouse_log(rng):
    out = []
    tid = [48100]

    def ln(t, th, qid, level, logger, msg):
        out.append((t, f"{t.strftime('%Y.%m.%d %H:%M:%S')}.{t.microsecond:06d} [ {th} ] {{{qid}}} <{level}> {logger}: {msg}"))

    clients = {"10.20.5.31": "bi_reader", "10.20.5.32": "bi_reader", "10.20.6.14": "etl_writer", "10.20.6.15": "etl_writer",
               "10.20.0.22": "mhale"}
    mem_from = ["10.20.5.31"] * 75 + ["10.20.5.32"] * 29 + ["10.20.0.22"] * 24
    rng.shuffle(mem_from)
    mem_times = []
    for h, k in CH_MEM_BY_HOUR.items():
        mem_times += [rtime(rng, f"{h}:00:40", f"{h}:59:20") if h != 17 else rtime(rng, "17:00:40", "17:59:20") for _ in range(k)]
    for t, ip in zip(mem_times, mem_from):
        th, qid = rng.randrange(48100, 48400), uuid(rng)
        q = rng.choice(CH_QUERIES[:3])
        ln(t - timedelta(seconds=rng.uniform(2, 40)), th, qid, "Debug", "executeQuery",
           f"(from {ip}:{rng.randrange(30000, 65000)}, user: {clients[ip]}) {q} (stage: Complete)")
        use = rng.uniform(9.32, 9.9)
        ln(t, th, qid, "Error", "executeQuery",
           f"Code: 241. DB::Exception: Memory limit (for query) exceeded: would use {use:.2f} GiB (attempt to allocate chunk "
           f"of {rng.choice([4194304, 8388608, 2097152])} bytes), maximum: 9.31 GiB.: While executing AggregatingTransform. "
           f"(MEMORY_LIMIT_EXCEEDED) (version 23.8.9.54 (official build)) (from {ip}:{rng.randrange(30000, 65000)}) "
           f"(in query: {q}), Stack trace (when copying this message, always include the lines below):\n\n{CH_STACK}\n")
    elapsed = [round(rng.lognormvariate(0.2, 1.2), 6) for _ in range(300)]
    elapsed = [min(e, 88.0) for e in elapsed] + [CH_SLOWEST]
    for e in elapsed:
        ip = rng.choice(list(clients))
        q = rng.choice(CH_QUERIES)
        t = rtime(rng, "17:03:20", END)
        th, qid = rng.randrange(48100, 48400), uuid(rng)
        if e == CH_SLOWEST:
            t, ip, q = at("20:22:51.118204"), "10.20.0.22", CH_QUERIES[2]
        ln(t - timedelta(seconds=e), th, qid, "Debug", "executeQuery",
           f"(from {ip}:{rng.randrange(30000, 65000)}, user: {clients[ip]}) {q} (stage: Complete)")
        rows = int(e * rng.randrange(2_000_000, 9_000_000))
        mib = rows * rng.uniform(20, 70) / 2 ** 20
        size = f"{mib / 1024:.2f} GiB" if mib > 1024 else f"{mib:.2f} MiB"
        ln(t, th, qid, "Information", "executeQuery",
           f"Read {rows} rows, {size} in {e:.6f} sec., {int(rows / e)} rows/sec., {mib / e:.2f} MiB/sec.")
        ln(t + timedelta(microseconds=90), th, qid, "Debug", "MemoryTracker",
           f"Peak memory usage (for query): {rng.uniform(0.1, 9.0):.2f} GiB.")
        ln(t + timedelta(microseconds=160), th, "", "Debug", "TCPHandler", f"Processed in {e + 0.0004:.3f} sec.")
    for m in range(0, 240, 3):
        t = DAY + timedelta(hours=17, minutes=m, seconds=rng.randrange(0, 170), microseconds=rng.randrange(10 ** 6))
        part = f"20280322_{rng.randrange(4000, 9000)}_{rng.randrange(9000, 9999)}_{rng.randrange(1, 4)}"
        ln(t, rng.randrange(600, 700), "", "Debug", "tix.page_views (6f1e3c2a-0b7d-4d15-9a8e-c3f52e0b91d4) (MergerMutator)",
           f"Selected 6 parts from 20280322_{rng.randrange(1000, 4000)}_{rng.randrange(4000, 9000)}_1 to {part}")
        ln(t + timedelta(milliseconds=rng.randrange(300, 5000)), rng.randrange(600, 700), "", "Information",
           "tix.page_views (6f1e3c2a-0b7d-4d15-9a8e-c3f52e0b91d4) (MergerMutator)",
           f"Merged 6 parts: [20280322_{rng.randrange(1000, 4000)}_{rng.randrange(4000, 9000)}_1, {part}] -> {part}")
    return join(out)


# ---------------------------------------------------------------------------------------
# BIND 9.18 query log (`print-time yes; print-category yes; print-severity yes;`).
# Planted: 10.20.9.41 the busiest client (a pod walking its search path); qnames lowercase.
DNS_TOP = "10.20.9.41"


def bind_queries(rng):
    zones = ["orrery.internal", "orrery.example", "svc.cluster.local"]
    names = ([f"{h}.orrery.internal" for h in ("tix-db-1", "tix-db-2", "ch-1", "ch-2", "mq-1", "vault", "ldap", "smtp-relay",
                                                 "grafana", "loki", "build-01", "build-02", "nfs-01", "bastion")] +
             [f"{s}.tix.svc.cluster.local" for s in ("checkout-api", "seatmap-api", "waitroom", "web", "accounts", "refunds")] +
             ["api.paygate.example", "sentry.io", "o4505.ingest.sentry.io", "api.github.com", "registry-1.docker.io",
              "auth.docker.io", "production.cloudflare.docker.com", "pypi.org", "files.pythonhosted.org", "repo1.maven.org",
              "sts.eu-west-1.amazonaws.com", "s3.eu-west-1.amazonaws.com", "ec2.eu-west-1.amazonaws.com",
              "logs.eu-west-1.amazonaws.com", "ntp.ubuntu.com", "archive.ubuntu.com", "security.ubuntu.com",
              "hooks.slack.com", "api.pagerduty.com", "events.pagerduty.com", "smtp.sendgrid.net"] +
             [f"{rng.choice(['cdn', 'img', 'static', 'edge'])}{i}.tixcdn.example" for i in range(40)] +
             [f"{i}.{rng.randrange(1, 250)}.20.10.in-addr.arpa" for i in range(1, 60)])
    names = list(dict.fromkeys(names))
    clients = [f"10.20.{rng.randrange(1, 10)}.{rng.randrange(2, 250)}" for _ in range(45)]
    clients = [c for c in dict.fromkeys(clients) if c != DNS_TOP]
    out = []

    def q(t, ip, name, typ):
        flags = rng.choice(["+E(0)K", "+E(0)", "+", "+ED"])
        out.append((t, f"{t.strftime('%d-%b-%Y %H:%M:%S')}.{t.microsecond // 1000:03d} queries: info: client "
                       f"@0x7f{hexid(rng, 10)} {ip}#{rng.randrange(1024, 65535)} ({name}): query: {name} IN {typ} {flags} "
                       f"(10.20.0.53)"))

    for _ in range(1200):
        name = zipf_pick(rng, names, 0.9, 4)
        typ = "PTR" if name.endswith("arpa") else rng.choices(["A", "AAAA", "SRV", "TXT", "MX"], [60, 30, 3, 2, 1])[0]
        q(rtime(rng), zipf_pick(rng, clients, 0.7, 5), name, typ)
    # the looping pod: ndots:5 makes it try every search domain first
    for _ in range(110):
        t = rtime(rng, "18:40:00", "20:30:00")
        base = "tix-db-1.orrery.internal"
        for suffix in ("tix.svc.cluster.local", "svc.cluster.local", "cluster.local"):
            q(t, DNS_TOP, f"{base}.{suffix}", "A")
            q(t + timedelta(milliseconds=1), DNS_TOP, f"{base}.{suffix}", "AAAA")
            t += timedelta(milliseconds=3)
    out.append((at("17:00:00.004"), "22-Mar-2028 17:00:00.004 general: info: zone orrery.internal/IN: loaded serial 2028032201"))
    out.append((at("18:15:02.771"), "22-Mar-2028 18:15:02.771 general: info: received control channel command 'reload'"))
    out.append((at("18:15:02.793"), "22-Mar-2028 18:15:02.793 general: info: reloading configuration succeeded"))
    out.append((at("18:15:02.801"), "22-Mar-2028 18:15:02.801 general: info: reloading zones succeeded"))
    return join(out)


# ---------------------------------------------------------------------------------------
# Cisco ASA syslog (`logging timestamp`, `logging device-id hostname`). Planted: %ASA-4-106023
# denies; 198.51.100.73 denied the most (mostly dst port 3389); deny peak minute 20:17.
ASA_SCANNER = "198.51.100.73"
ASA_PEAK = {"20:14": 4, "20:15": 9, "20:16": 16, "20:17": 27, "20:18": 19, "20:19": 11, "20:20": 6}


def asa_log(rng):
    out = []

    def a(t, msg):
        out.append((t, f"{t.strftime('%b %d %Y %H:%M:%S')} fw-edge-1 : {msg}"))

    others = ip_pool(rng, 140, firsts=(45, 80, 89, 103, 141, 162, 179, 185, 193, 194, 222))
    dmz = ["10.30.1.10", "10.30.1.11", "10.30.1.20", "10.30.1.21"]

    def deny(t, src, port):
        proto = "udp" if port in (161, 1900, 123) else "tcp"
        a(t, f"%ASA-4-106023: Deny {proto} src outside:{src}/{rng.randrange(1024, 65535)} dst dmz:{rng.choice(dmz)}/{port} "
             f'by access-group "outside_access_in" [0x0, 0x0]')

    scan_ports = [3389] * 74 + [22] * 19 + [445] * 11 + [5432] * 8
    rng.shuffle(scan_ports)
    plan = [(in_minute(rng, hhmm)) for hhmm, k in ASA_PEAK.items() for _ in range(k)]
    scan_times = plan[:70] + [rtime(rng, "17:10:00", "20:05:00") for _ in range(len(scan_ports) - 70)]
    for t, p in zip(scan_times, scan_ports):
        deny(t, ASA_SCANNER, p)
    for t in plan[70:]:
        deny(t, rng.choice(others), rng.choice([22, 23, 3389, 445, 8080]))
    for _ in range(520):
        deny(rtime(rng, START, END, [("20:10:00", "20:24:00")]), zipf_pick(rng, others, 0.8, 6),
             rng.choice([22, 23, 80, 445, 1433, 3306, 3389, 5900, 6379, 8080, 8443, 161, 1900, 123]))
    conn = 28111000
    for _ in range(500):
        t = rtime(rng)
        conn += rng.randrange(1, 400)
        src = rng.choice(others + ip_pool(rng, 5, firsts=(2, 31, 78, 86, 92)))
        dst = rng.choice(["10.30.1.10", "10.30.1.11"])
        sp = rng.randrange(1024, 65535)
        a(t, f"%ASA-6-302013: Built inbound TCP connection {conn} for outside:{src}/{sp} ({src}/{sp}) to dmz:{dst}/443 ({dst}/443)")
        dur = rng.randrange(0, 400)
        t2 = t + timedelta(seconds=dur, milliseconds=rng.randrange(0, 900))
        why = rng.choices(["TCP FINs", "TCP Reset-I", "TCP Reset-O", "SYN Timeout"], [80, 8, 8, 4])[0]
        a(t2, f"%ASA-6-302014: Teardown TCP connection {conn} for outside:{src}/{sp} to dmz:{dst}/443 duration "
              f"{dur // 3600}:{dur // 60 % 60:02d}:{dur % 60:02d} bytes {rng.randrange(0, 3_000_000) if why != 'SYN Timeout' else 0} {why}")
    for _ in range(60):
        t = rtime(rng)
        a(t, f"%ASA-6-305011: Built dynamic TCP translation from inside:10.20.{rng.randrange(1, 10)}.{rng.randrange(2, 250)}/"
             f"{rng.randrange(1024, 65535)} to outside:203.0.113.10/{rng.randrange(1024, 65535)}")
    for h in (17, 18, 19, 20):
        t = at(f"{h}:{rng.randrange(10, 50)}:{rng.randrange(10, 50)}")
        a(t, f"%ASA-4-733100: [ Scanning] drop rate-1 exceeded. Current burst rate is {rng.randrange(10, 60)} per second, "
             f"max configured rate is 10; Current average rate is {rng.randrange(5, 40)} per second, max configured rate is 5; "
             f"Cumulative total count is {rng.randrange(3000, 30000)}")
    return join(out)
