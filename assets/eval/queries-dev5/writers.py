"""Writers of the `queries-dev5` fixtures (one function a format), seeded. The set's world:
Marrowby Health, a telehealth company (appointment booking, a patient portal, clinician
chat and video), on Thursday 2031-06-05 between 01:00 and 04:00 UTC.

The night has four incidents, each planted with its own lines in more than one log:

* 01:47-01:58 Kafka: broker 1 stops answering its followers (kafka-2 logs the fetch error
  at 01:47:12 and shrinks every ISR it leads from 01:47:42); broker 3 lags too, so the
  notify-events / appointment-events partitions fall to ISR [2] and produce requests fail
  with `NotEnoughReplicasException` (01:48:10-01:56:25). The notify-worker processes on
  app-02 crash-loop under supervisord (first exit 01:48:31; notify-worker_01 gives up,
  FATAL, at 01:51:40). Broker 3 catches up at 01:56:31, broker 1 at 01:58:03.
* 02:31-02:42 booking: a Metabase report (pid 31502) holds a lock on `booking_appointment`;
  Argo CD creates the migration job `booking-migrate-4f7c2` at 02:32:51 and its `ALTER TABLE`
  (pid 31877, 02:33:05) queues for an AccessExclusiveLock behind it, so every booking-api
  query waits and is cancelled after 5 s (`canceling statement due to lock timeout`): the ALB
  answers 500 (peak minute 02:37), uWSGI kills stuck report workers (HARAKIRI 02:35:42,
  02:36:19, 02:38:57, 02:40:03), Postgres refuses connections (53300) from 02:38. h.lindqvist
  execs into pg-toolbox-0 at 02:40:48 and terminates the report at 02:41:19; the ALTER then
  takes its lock and finishes (494004.117 ms).
* 03:09-03:18 portal: portal-app (gunicorn behind Apache on portal-01) slows (AH01102 read
  timeouts from 03:09:41), is SIGKILLed at 03:12:58, cannot rebind and gives up (FATAL) at
  03:13:24; Apache refuses every request (`(111)Connection refused: AH00957`, AH01114) from
  03:12:59 and the ALB answers 503 (peak minute 03:14) until it is started by hand at
  03:18:31.
* 03:40-03:42 chat: chat-db-a's journal fsync stalls (14213 ms, 03:40:26); chat-db-b's
  heartbeats fail (03:40:58), it calls an election at 03:41:09 and is primary at 03:41:10;
  chat-db-a steps down at 03:41:11; the ALB answers 503 on POST /chat/v1/messages.

Besides: Postgres reloads its configuration at 01:05:17 (log_min_duration_statement 200,
log_lock_waits on) and 03:48:02 (idle_in_transaction_session_timeout 60s); kafka-3 restarts
at 02:52 (kafka-2 loses it at 02:52:05, shrinks from 02:52:11); m.quaye's RBAC change at
02:09:31 makes kube-state-metrics get 403s until 02:24:52.

Each writer plants the figures the cases ask about (named in the comments) into background
traffic and returns the file's text. The cases' truth is not taken from here: `truth.py`
parses the written text again and `gen.py` asserts the two agree.
"""

import json
import math
from datetime import datetime, timedelta, timezone

UTC = timezone.utc
DAY = datetime(2031, 6, 5, tzinfo=UTC)


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


def by_minute(rng, plan, edges=None):
    """Times from {"HH:MM": k}: k uniform times inside each minute; `edges` narrows some
    minutes: {"HH:MM": ("ss", "ss")}."""
    edges = edges or {}
    return [in_minute(rng, m, *edges.get(m, ("00", "59.999"))) for m, k in plan.items() for _ in range(k)]


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


def render(out):
    """Lines from (time, seq, line) tuples, in time order (stable)."""
    out.sort(key=lambda x: (x[0], x[1]))
    return "\n".join(line for _, _, line in out) + "\n"


# ---------------------------------------------------------------------------------------
# The ALB access log of app/mb-prod-edge (AWS Application Load Balancer, HTTPS listener),
# 1,700 requests 01:00-04:00. Planted: elb 500 x209 (186 on tg-booking-api in 02:33:10-
# 02:41:18, peak minute 02:37; 23 more, none within 02:25-02:50); 503 x96 on portal
# (03:13:00-03:18:32, peak minute 03:14) and x27 on POST /chat/v1/messages (03:40:41-
# 03:42:06, peak minute 03:41); 504 x71 on /signal/v1/poll (target -1); 502 x13 on
# /api/v2/reports/daily (harakiri); 5xx by path appointments 95 > poll 71 > slots 59 >
# /portal/dashboard 44 > availability 41 > /portal/messages 29 > /chat/v1/messages 27;
# the scanner 203.0.113.58: 404 x67 + 400 x9 (the most 4xx); /api/v2/clinics/
# target_processing_time mean exactly 0.137 s, p95 0.412 on a plateau; the slowest api
# request 47.318 s (/api/v2/exports/clinic-report.csv); the largest sent_bytes 27311904
# (/portal/records/imaging/IMG-20310604-0091.dcm).
ALB_FILE = ("418207336951_elasticloadbalancing_eu-west-2_app.mb-prod-edge.5e1c7a9d03b4f281_20310605T0400Z_"
            "10.40.1.17_2q8v6kzt.log")
ACCOUNT = "418207336951"
ALB_NAME = "app/mb-prod-edge/5e1c7a9d03b4f281"
ALB_TG = {
    "api": ("tg-booking-api/3c1f9a7be2d40186", ["10.40.12.31:8000", "10.40.12.32:8000", "10.40.12.33:8000"],
            "api.marrowby.example", 10),
    "portal": ("tg-portal/8e27d4c0a9b1f355", ["10.40.21.14:443"], "portal.marrowby.example", 20),
    "chat": ("tg-chat-gw/b6d0e3a18f724c59", ["10.40.14.21:8080", "10.40.14.22:8080"], "chat.marrowby.example", 30),
    "video": ("tg-video-sig/0f4e9b2c7a1d6e83", ["10.40.15.11:7443", "10.40.15.12:7443"], "video.marrowby.example", 40),
}
ALB_CERT = f"arn:aws:acm:eu-west-2:{ACCOUNT}:certificate/7d2c9e41-3b6a-4f0e-9c85-1a2b3c4d5e6f"
ALB_UAS = ["MarrowbyApp/7.3.1 (iOS 24.2; iPhone17,3)", "MarrowbyApp/7.3.1 (Android 16; SM-S946B)",
           "MarrowbyApp/7.2.9 (Android 15; Pixel 9)",
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/158.0.0.0 Safari/537.36",
           "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/24.1 Safari/605.1.15",
           "Mozilla/5.0 (X11; Linux x86_64; rv:151.0) Gecko/20100101 Firefox/151.0"]
SCANNER = "203.0.113.58"
CLINICS = ["LDN-03", "LDN-07", "MAN-02", "BHM-01", "LDS-04", "GLA-02", "BRS-05", "NCL-01"]


def _alb_query(rng, path):
    c = rng.choice(CLINICS)
    return {"/api/v2/appointments/": f"?clinic={c}&date=2031-06-05",
            "/api/v2/slots/": f"?clinician=c-{rng.randrange(1000, 1999)}&from=2031-06-05",
            "/api/v2/clinicians/availability": f"?specialty={rng.choice(['gp', 'derm', 'mh', 'physio'])}&clinic={c}",
            "/api/v2/clinics/": f"?region={rng.choice(['north-west', 'london', 'midlands', 'scotland'])}",
            "/api/v2/reports/daily": f"?clinic={c}&date=2031-06-04",
            "/api/v2/exports/clinic-report.csv": f"?clinic={c}&month=2031-05",
            "/signal/v1/poll": f"?session={hexid(rng, 16)}",
            "/chat/v1/threads": f"?limit=20&before={rng.randrange(1938300000, 1938394000)}",
            }.get(path, "")


def alb_log(rng):
    ev = []
    pool = ip_pool(rng, 760, [SCANNER], [2, 5, 31, 37, 46, 62, 77, 78, 81, 82, 86, 90, 92, 109, 145, 151, 176, 185, 188, 212, 217])
    weights = [1.0 / (i + 30) ** 0.7 for i in range(len(pool))]

    def add(t, svc, m, path, s, tt=None, client=None, sent=None, ts=None, q=None, ua=None):
        ev.append({"t": t, "svc": svc, "m": m, "path": path, "q": _alb_query(rng, path) if q is None else q, "s": s,
                   "ts": str(s) if ts is None else ts, "tt": tt, "c": client, "sent": sent, "ua": ua})

    # booking incident: 500 x186 (lock timeouts, ~5 s), peak minute 02:37
    plan = {"02:33": 11, "02:34": 19, "02:35": 24, "02:36": 29, "02:37": 52, "02:38": 21, "02:39": 14, "02:40": 10, "02:41": 6}
    times = by_minute(rng, plan, {"02:33": ("10", "59.999"), "02:41": ("00", "18")})
    paths = ["/api/v2/appointments/"] * 86 + ["/api/v2/slots/"] * 59 + ["/api/v2/clinicians/availability"] * 41
    rng.shuffle(paths)
    for t, p in zip(times, paths):
        add(t, "api", "GET", p, 500, rng.randrange(5003, 5090))
    # 23 more 500s, none within 02:25-02:50
    quiet = [("01:02:00", "02:20:00"), ("02:55:00", "03:10:00"), ("03:20:00", "03:38:00"), ("03:45:00", "03:58:00")]
    for i in range(23):
        p = "/api/v2/appointments/" if i < 9 else "/api/v2/payments/intent"
        add(rtime_in(rng, quiet), "api", "POST", p, 500, rng.randrange(120, 9000), q="")
    # harakiri: 502 x13 on the daily report, the target closed the connection after 60 s
    hk = [at("02:35:42.013"), at("02:36:19.020"), at("02:38:57.011"), at("02:40:03.016")]
    hk += [rtime(rng, "02:35:30", "02:41:10") for _ in range(9)]
    for t in hk:
        add(t, "api", "GET", "/api/v2/reports/daily", 502, -1, ts="-")
    # portal: 503 x96 from Apache (backend refused), peak minute 03:14
    plan = {"03:13": 14, "03:14": 31, "03:15": 19, "03:16": 13, "03:17": 11, "03:18": 8}
    times = by_minute(rng, plan, {"03:18": ("00", "32")})
    paths = ["/portal/dashboard"] * 44 + ["/portal/messages"] * 29 + ["/portal/login"] * 23
    rng.shuffle(paths)
    for t, p in zip(times, paths):
        add(t, "portal", "GET" if p != "/portal/login" or rng.random() < 0.5 else "POST", p, 503, rng.randrange(0, 4))
    # chat: 503 x27 on POST /chat/v1/messages while the replica set has no primary
    for t in by_minute(rng, {"03:40": 6, "03:41": 18, "03:42": 3}, {"03:40": ("41", "59.999"), "03:42": ("00", "06")}):
        add(t, "chat", "POST", "/chat/v1/messages", 503, rng.randrange(30, 2400))
    # video signalling long-polls: 504 x71 (idle timeout)
    for _ in range(71):
        add(rtime(rng, "01:01:00", "03:59:00"), "video", "GET", "/signal/v1/poll", 504, -1, ts="-")
    # the scanner: 404 x67, 400 x9
    probes = ["/.env", "/wp-login.php", "/.git/config", "/phpmyadmin/index.php", "/server-status", "/actuator/env",
              "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php", "/.aws/credentials", "/config.json"]
    for i in range(76):
        t = rtime(rng, "02:58:00", "03:07:00") if i % 4 else rtime(rng, "01:05:00", "03:55:00")
        if i < 67:
            add(t, "portal", "GET", rng.choice(probes), 404, rng.randrange(1, 9), SCANNER, q="", ua="Mozilla/5.0 zgrab/0.x")
        else:
            add(t, "portal", "GET", "/portal/%2e%2e/%2e%2e/etc/passwd", 400, rng.randrange(0, 3), SCANNER, q="",
                ua="Mozilla/5.0 zgrab/0.x")
    # other 4xx from the app: 401 x89, 404 x38
    for _ in range(89):
        p = rng.choice(["/api/v2/me", "/api/v2/auth/token"])
        add(rtime(rng, "01:00:05", "03:59:55"), "api", "GET" if p == "/api/v2/me" else "POST", p, 401, rng.randrange(4, 40), q="")
    for _ in range(38):
        add(rtime(rng, "01:00:05", "03:59:55"), "api", "GET", f"/api/v2/appointments/{rng.randrange(880000, 899999)}/", 404,
            rng.randrange(8, 60), q="")
    # /api/v2/clinics/: 140 requests, mean target time exactly 137 ms, p95 412 ms on a plateau
    vals = plateau_values(rng, [], 140, 95, 412, lambda: rng.randrange(20, 300), lambda: rng.randrange(413, 1400), margin=3)
    low = [v for v in vals if v < 412]
    mean_to(rng, low, 137 * 140 - sum(v for v in vals if v >= 412), 5, 411, 20)
    it = iter(low)
    vals = [v if v >= 412 else next(it) for v in vals]
    for v in vals:
        add(rtime(rng, "01:00:05", "03:59:55"), "api", "GET", "/api/v2/clinics/", 200, v)
    # the slowest api requests (the clinic report export), the largest response
    add(at("03:28:31.522"), "api", "GET", "/api/v2/exports/clinic-report.csv", 200, 47318, "81.2.69.142", 9_114_207,
        ua=ALB_UAS[3])
    add(at("01:41:43.190"), "api", "GET", "/api/v2/exports/clinic-report.csv", 200, 33877, None, 7_802_155, ua=ALB_UAS[4])
    add(at("02:14:51.377"), "portal", "GET", "/portal/records/imaging/IMG-20310604-0091.dcm", 200, 2310, None, 27_311_904,
        q="", ua=ALB_UAS[3])
    # background
    bg = [("api", "GET", "/api/v2/appointments/", 200, 16), ("api", "POST", "/api/v2/appointments/", 201, 4),
          ("api", "GET", "/api/v2/slots/", 200, 12), ("api", "GET", "/api/v2/clinicians/availability", 200, 8),
          ("api", "GET", "/api/v2/me", 200, 10), ("api", "POST", "/api/v2/auth/token", 200, 5),
          ("api", "POST", "/api/v2/payments/intent", 201, 2), ("api", "GET", "/api/v2/reports/daily", 200, 1),
          ("portal", "GET", "/portal/dashboard", 200, 7), ("portal", "GET", "/portal/messages", 200, 4),
          ("portal", "GET", "/portal/login", 200, 3), ("portal", "GET", "/portal/static/app.4f9c1e.js", 304, 4),
          ("portal", "GET", "/portal/records", 200, 2), ("chat", "GET", "/chat/v1/threads", 200, 8),
          ("chat", "POST", "/chat/v1/messages", 201, 6), ("chat", "GET", "/chat/v1/ws", 101, 2),
          ("video", "GET", "/signal/v1/poll", 200, 7), ("video", "POST", "/signal/v1/offer", 201, 2)]
    while len(ev) < 1700:
        svc, m, p, s, _ = rng.choices(bg, [b[-1] for b in bg])[0]
        if p == "/api/v2/reports/daily":
            tt = rng.randrange(900, 21000)
        elif p == "/chat/v1/ws":
            tt = rng.randrange(1, 6)
        else:
            tt = rng.choice([rng.randrange(3, 120), rng.randrange(20, 600), rng.randrange(40, 2400)])
        add(rtime(rng, "01:00:02", "03:59:58"), svc, m, p, s, tt)
    for e in ev:
        if e["c"] is None:
            e["c"] = rng.choices(pool, weights)[0]
        if e["ua"] is None:
            e["ua"] = rng.choice(ALB_UAS)
        if e["sent"] is None:
            e["sent"] = {"/portal/static/app.4f9c1e.js": 0 if e["s"] == 304 else 412_118}.get(
                e["path"], rng.randrange(180, 2_600) if e["s"] >= 400 else rng.randrange(420, 48_000))
            if e["path"] == "/portal/static/app.4f9c1e.js":
                e["sent"] += 310
            if e["path"] == "/api/v2/reports/daily" and e["s"] == 200:
                e["sent"] = rng.randrange(200_000, 3_000_000)
            if e["path"] == "/portal/records" and e["s"] == 200:
                e["sent"] = rng.randrange(40_000, 2_400_000)
    ev.sort(key=lambda e: e["t"])
    lines = []
    for e in ev:
        tg, targets, domain, prio = ALB_TG[e["svc"]]
        target = targets[0] if e["svc"] == "portal" else rng.choice(targets)
        if e["path"] in ("/api/v2/exports/clinic-report.csv",) and e["tt"] == 47318:
            target = "10.40.12.31:8000"
        if e["path"] == "/api/v2/reports/daily" and e["s"] == 502 and e["t"] in hk[:4]:
            target = "10.40.12.31:8000"
        if e["tt"] == -1:
            req_t, tt_s, resp_t = "0.000", "-1", "-1"
            took = 60.0 + rng.randrange(0, 9) / 1000
        else:
            rq, rp = rng.choice([0, 0, 0, 1]), 0
            req_t, tt_s, resp_t = f"{rq / 1000:.3f}", f"{e['tt'] / 1000:.3f}", f"{rp / 1000:.3f}"
            took = (rq + e["tt"] + rp) / 1000
        created = e["t"] - timedelta(seconds=took)
        iso = lambda d: d.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"  # noqa: E731
        proto = "HTTP/1.1" if e["ua"].startswith("Mozilla/5.0 zgrab") else "HTTP/2.0"
        req = f"{e['m']} https://{domain}:443{e['path']}{e['q']} {proto}"
        recv = rng.randrange(600, 1400) + (rng.randrange(200, 3000) if e["m"] == "POST" else 0)
        sent = e["sent"] + 600 if 100 <= e["sent"] < 600 else e["sent"]  # no byte count reads as a status
        trace = f"Root=1-{int(created.timestamp()):08x}-{hexid(rng, 24)}"
        lines.append(f'https {iso(e["t"])} {ALB_NAME} {e["c"]}:{rng.randrange(1024, 65535)} {target} {req_t} {tt_s} {resp_t} '
                     f'{e["s"]} {e["ts"]} {recv} {sent} "{req}" "{e["ua"]}" TLS_AES_128_GCM_SHA256 TLSv1.3 '
                     f'arn:aws:elasticloadbalancing:eu-west-2:{ACCOUNT}:targetgroup/{tg} "{trace}" "{domain}" "{ALB_CERT}" '
                     f'{prio} {iso(created)} "forward" "-" "-" "{target}" "{e["ts"]}" "-" "-" TID_{hexid(rng, 32)}')
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# booking-api-uwsgi.log: the uWSGI log of booking-api-1 (10.40.12.31; Django behind the ALB):
# request lines (`[pid: …|app: 0|req: n/N] … [start time] METHOD URI => generated … bytes in
# M msecs (HTTP/1.1 S) …`, written when the request ends, stamped with its start), Django's
# `%(asctime)s %(levelname)s %(name)s: %(message)s` lines with tracebacks, and the uWSGI
# master's messages (HARAKIRI, DAMN !, Respawned, max-requests recycling). Planted: 500 x70
# (lock timeout x64, 02:33:10-02:41:13, peak minute 02:37: appointments 31 > slots 22 >
# availability 11; Stripe x6 on /api/v2/payments/intent); HARAKIRI at 02:35:42, 02:36:19,
# 02:38:57, 02:40:03 (all GET /api/v2/reports/daily); /api/v2/slots/ mean msecs exactly
# 683; msecs p90 1270 on a plateau; the three slowest 47312 (start 03:27:44), 33871, 29450.
UWSGI_FILE = "booking-api-uwsgi.log"
UWSGI_INI = "booking-api-uwsgi.ini"
VENV = "/srv/booking/.venv/lib/python3.13/site-packages"


def uwsgi_ctime(t):
    return t.strftime("%a %b ") + f"{t.day:2d}" + t.strftime(" %H:%M:%S %Y")


def django_ts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"


LOCK_TB = {
    "/api/v2/appointments/": ("appointments.py", 88, "list", "return Response(self.get_serializer(page, many=True).data)"),
    "/api/v2/slots/": ("slots.py", 57, "get_queryset", "return list(qs.exclude(appointment__status=\"booked\")[:200])"),
    "/api/v2/clinicians/availability": ("availability.py", 131, "get", "booked = set(Appointment.objects.filter(**window).values_list(\"slot_id\", flat=True))"),
}


def lock_traceback(path):
    f, line, fn, code = LOCK_TB[path]
    return ["Traceback (most recent call last):",
            f'  File "{VENV}/django/core/handlers/exception.py", line 55, in inner',
            "    response = get_response(request)",
            f'  File "{VENV}/django/core/handlers/base.py", line 197, in _get_response',
            "    response = wrapped_callback(request, *callback_args, **callback_kwargs)",
            f'  File "/srv/booking/booking/api/views/{f}", line {line}, in {fn}',
            f"    {code}",
            f'  File "{VENV}/django/db/models/query.py", line 400, in __iter__',
            "    self._fetch_all()",
            f'  File "{VENV}/django/db/backends/utils.py", line 105, in _execute',
            "    return self.cursor.execute(sql, params)",
            f'  File "{VENV}/psycopg/cursor.py", line 97, in execute',
            "    raise ex.with_traceback(None)",
            "django.db.utils.OperationalError: canceling statement due to lock timeout"]


STRIPE_TB = ["Traceback (most recent call last):",
             f'  File "{VENV}/django/core/handlers/exception.py", line 55, in inner',
             "    response = get_response(request)",
             '  File "/srv/booking/booking/payments/stripe_client.py", line 41, in create_intent',
             "    return stripe.PaymentIntent.create(**params)",
             f'  File "{VENV}/stripe/_http_client.py", line 1012, in _handle_request_error',
             "    raise APIConnectionError(msg, should_retry=should_retry)",
             "stripe._error.APIConnectionError: Unexpected error communicating with Stripe. If this problem persists, "
             "let us know at support@stripe.com."]


def uwsgi_log(rng):
    reqs = []
    alb_nodes = ["10.40.1.17", "10.40.2.23", "10.40.3.9"]

    def req(t, m, path, q, s, ms=None):
        reqs.append({"t": t, "m": m, "path": path, "q": q, "s": s, "ms": ms})

    # lock timeouts: 64 (start times), peak minute 02:37
    plan = {"02:33": 4, "02:34": 7, "02:35": 8, "02:36": 10, "02:37": 17, "02:38": 7, "02:39": 5, "02:40": 4, "02:41": 2}
    times = by_minute(rng, plan, {"02:33": ("10", "59.999"), "02:41": ("00", "13")})
    paths = ["/api/v2/appointments/"] * 31 + ["/api/v2/slots/"] * 22 + ["/api/v2/clinicians/availability"] * 11
    rng.shuffle(paths)
    for t, p in zip(times, paths):
        req(t, "GET", p, _alb_query(rng, p), 500, rng.randrange(5003, 5072))
    for _ in range(6):
        req(rtime_in(rng, [("01:03:00", "02:20:00"), ("02:55:00", "03:55:00")]), "POST", "/api/v2/payments/intent", "", 500,
            rng.randrange(8000, 20000))
    for t, ms, c in [("03:27:44.208", 47312, "MAN-02"), ("01:41:09.311", 33871, "LDN-07"), ("02:12:37.904", 29450, None)]:
        if c:
            req(at(t), "GET", "/api/v2/exports/clinic-report.csv", f"?clinic={c}&month=2031-05", 200, ms)
        else:
            req(at(t), "GET", "/api/v2/reports/daily", "?clinic=LDN-03&date=2031-06-04", 200, ms)
    for _ in range(26):
        req(rtime(rng, "01:00:05", "03:59:00"), "GET", f"/api/v2/appointments/{rng.randrange(880000, 899999)}/", "", 404)
    for _ in range(31):
        req(rtime(rng, "01:00:05", "03:59:00"), "GET", "/api/v2/me", "", 401)
    bg = [("GET", "/api/v2/appointments/", 200, 16), ("POST", "/api/v2/appointments/", 201, 4), ("GET", "/api/v2/slots/", 200, 13),
          ("GET", "/api/v2/clinicians/availability", 200, 8), ("GET", "/api/v2/clinics/", 200, 5), ("GET", "/api/v2/me", 200, 10),
          ("POST", "/api/v2/auth/token", 200, 5), ("POST", "/api/v2/payments/intent", 201, 2), ("GET", "/api/v2/reports/daily", 200, 1)]
    while len(reqs) < 1350:
        m, p, s, _ = rng.choices(bg, [b[-1] for b in bg])[0]
        t = rtime(rng, "01:00:02", "03:59:00")
        if p in LOCK_TB and at("02:33:00") <= t <= at("02:41:30"):
            continue  # every query on booking_appointment waited then
        req(t, m, p, _alb_query(rng, p) if m == "GET" else "", s)
    # /api/v2/slots/: mean msecs exactly 683 (its lock timeouts included)
    slots = [r for r in reqs if r["path"] == "/api/v2/slots/"]
    fixed = sum(r["ms"] for r in slots if r["ms"] is not None)
    free = [r for r in slots if r["ms"] is None]
    vals = mean_to(rng, [rng.randrange(20, 300) for _ in free], 683 * len(slots) - fixed, 9, 1100, 25)
    for r, v in zip(free, vals):
        r["ms"] = v
    # the rest: msecs p90 = 1270 on a plateau; heavy endpoints get the larger values
    fixed = [r["ms"] for r in reqs if r["ms"] is not None]
    free = [r for r in reqs if r["ms"] is None]
    pool = plateau_values(rng, fixed, len(reqs), 90, 1270,
                          lambda: rng.choice([rng.randrange(3, 60), rng.randrange(15, 400), rng.randrange(60, 1269)]),
                          lambda: rng.choice([rng.randrange(1271, 3000), rng.randrange(1271, 24000)]))
    heavy = {"/api/v2/reports/daily": 0, "/api/v2/exports/clinic-report.csv": 0, "/api/v2/appointments/": 1,
             "/api/v2/clinicians/availability": 1, "/api/v2/payments/intent": 1}
    free.sort(key=lambda r: heavy.get(r["path"], 2) + rng.random() * 1.6)
    for r, v in zip(free, sorted(pool, reverse=True)):
        r["ms"] = v
    # records: (emitted, seq, lines, worker-or-None, req-or-None)
    out = []
    for r in reqs:
        out.append((r["t"] + timedelta(milliseconds=r["ms"]), len(out), "req", r))
    harakiri = [("02:35:42.004", 3, "02:34:41.9"), ("02:36:19.011", 1, "02:35:18.7"), ("02:38:57.002", 3, "02:37:56.4"),
                ("02:40:03.009", 2, "02:39:02.8")]
    recycle = [("01:52:14.417", 2), ("03:05:40.862", 4)]
    for t, w, started in harakiri:
        out.append((at(t), len(out), "harakiri", (w, at(started))))
    for t, w in recycle:
        out.append((at(t), len(out), "recycle", w))
    t = at("01:01:31.118")
    while t < at("03:59:00"):
        out.append((t, len(out), "reminder", None))
        t += timedelta(seconds=rng.randrange(80, 110), milliseconds=rng.randrange(0, 999))
    out.sort(key=lambda x: (x[0], x[1]))
    pids = {1: 24817, 2: 24818, 3: 24819, 4: 24820}
    counts = {1: 0, 2: 0, 3: 0, 4: 0}
    total = 88211
    next_pid = [25002]
    lines = []

    def new_pid():
        next_pid[0] += rng.randrange(9, 60)
        return next_pid[0]

    for emitted, _, kind, x in out:
        if kind == "req":
            r = x
            w = rng.choice([1, 2, 3, 4])
            counts[w] += 1
            total += 1
            if r["s"] == 500:
                e = emitted - timedelta(milliseconds=rng.randrange(1, 4))
                lines.append(f"{django_ts(e)} ERROR django.request: Internal Server Error: {r['path']}")
                lines.extend(lock_traceback(r["path"]) if r["path"] in LOCK_TB else STRIPE_TB)
            elif r["s"] == 404:
                lines.append(f"{django_ts(emitted)} WARNING django.request: Not Found: {r['path']}")
            elif r["s"] == 401:
                lines.append(f"{django_ts(emitted)} WARNING django.request: Unauthorized: {r['path']}")
            size = rng.randrange(120, 600) if r["s"] >= 400 else rng.randrange(400, 48000)
            if r["path"] == "/api/v2/exports/clinic-report.csv":
                size = rng.randrange(7_000_000, 9_500_000)
            nvars = rng.randrange(38, 52)
            lines.append(f"[pid: {pids[w]}|app: 0|req: {counts[w]}/{total}] {rng.choice(alb_nodes)} () {{{nvars} vars in "
                         f"{nvars * 21 + rng.randrange(0, 200)} bytes}} [{uwsgi_ctime(r['t'])}] {r['m']} {r['path']}{r['q']} => "
                         f"generated {size} bytes in {r['ms']} msecs (HTTP/1.1 {r['s']}) {rng.randrange(5, 9)} headers in "
                         f"{rng.randrange(180, 320)} bytes (1 switches on core 0)")
        elif kind == "harakiri":
            w, started = x
            ct = uwsgi_ctime(emitted)
            clinic = rng.choice(CLINICS)
            lines += [f"{ct} - *** HARAKIRI ON WORKER {w} (pid: {pids[w]}, try: 1, graceful: no) ***",
                      f"{ct} - HARAKIRI !!! worker {w} status !!!",
                      f"{ct} - HARAKIRI [core 0] {rng.choice(alb_nodes)} - GET /api/v2/reports/daily?clinic={clinic}&date=2031-06-04 "
                      f"since {int(started.timestamp())}",
                      f"{ct} - HARAKIRI !!! end of worker {w} status !!!",
                      f"DAMN ! worker {w} (pid: {pids[w]}) died, killed by signal 9 :( trying respawn ..."]
            pids[w] = new_pid()
            counts[w] = 0
            lines.append(f"Respawned uWSGI worker {w} (new pid: {pids[w]})")
        elif kind == "recycle":
            w = x
            lines += [f"...The work of process {pids[w]} is done (max requests reached ({counts[w]} >= {counts[w]})). Seeya!",
                      f"worker {w} killed successfully (pid: {pids[w]})"]
            pids[w] = new_pid()
            counts[w] = 0
            lines.append(f"Respawned uWSGI worker {w} (new pid: {pids[w]})")
        else:
            lines.append(f"{django_ts(emitted)} INFO booking.reminders: queued {rng.randrange(3, 40)} reminder(s) for clinic "
                         f"{rng.choice(CLINICS)}")
    return "\n".join(lines) + "\n"


UWSGI_INI_TEXT = """[uwsgi]
; booking-api (Django) on booking-api-1, behind the ALB target group tg-booking-api
chdir = /srv/booking
module = booking.wsgi:application
virtualenv = /srv/booking/.venv
master = true
processes = 4
threads = 1
http-socket = 0.0.0.0:8000
harakiri = 60
harakiri-verbose = true
max-requests = 4096
buffer-size = 16384
post-buffering = 65536
logto = /var/log/uwsgi/booking-api-uwsgi.log
env = DJANGO_SETTINGS_MODULE=booking.settings.production
; booking/settings/production.py: DATABASES["default"] connects with options "-c lock_timeout=5000";
; DATABASES["reports"] (the daily report, same primary) sets no lock_timeout
"""


# ---------------------------------------------------------------------------------------
# postgresql-2031-06-05_010000.csv: PostgreSQL 16 csvlog of pg-main-1 (26 columns; quoted
# fields may hold newlines: Metabase's SQL, autovacuum reports). Planted: config reloads
# 01:05:17 (log_min_duration_statement -> 200, log_lock_waits -> on) and 03:48:02
# (idle_in_transaction_session_timeout -> 60s); ERROR x238: 55P03 `canceling statement due
# to lock timeout` x197 (booking_app 186, booking_worker 11; 02:33:11-02:41:17), 23505 x24
# (booking_app), 57014 x17 (reporting_ro); FATAL x117: 53300 x66 (02:38:10-02:40:40), 28P01
# x41 (grafana_ro), 57P01 x1 (pid 31502 at 02:41:19), 25P03 x9 (after 03:48); the ALTER TABLE
# of booking_migrate (pid 31877) logged at 02:33:05, waiting from 02:33:06, done at 02:41:19
# in 494004.117 ms (the slowest `duration:`; the next 88412.550 ms); `duration:` lines x380
# with a mean of exactly 2846.250 ms; `still waiting for` lock waits x198, peak minute 02:37.
PG_FILE = "postgresql-2031-06-05_010000.csv"
BOOKING_SQL = ('SELECT "booking_appointment"."id", "booking_appointment"."clinic_id", "booking_appointment"."clinician_id", '
               '"booking_appointment"."slot_id", "booking_appointment"."status", "booking_appointment"."starts_at" FROM '
               '"booking_appointment" WHERE ("booking_appointment"."clinic_id" = $1 AND "booking_appointment"."starts_at" >= $2) '
               'ORDER BY "booking_appointment"."starts_at" ASC LIMIT 50')
SLOT_SQL = ('SELECT "booking_slot"."id", "booking_slot"."clinician_id", "booking_slot"."starts_at" FROM "booking_slot" '
            'WHERE ("booking_slot"."clinic_id" = $1 AND "booking_slot"."starts_at" >= $2) ORDER BY "booking_slot"."starts_at" '
            'ASC LIMIT 200')
OUTBOX_SQL = ('UPDATE "notify_outbox" SET "sent_at" = $1, "attempts" = ("notify_outbox"."attempts" + 1) WHERE '
              '"notify_outbox"."id" = ANY($2)')
INSERT_SQL = ('INSERT INTO "booking_appointment" ("clinic_id", "clinician_id", "slot_id", "patient_id", "status", '
              '"starts_at", "created_at") VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING "booking_appointment"."id"')
ALTER_SQL = 'ALTER TABLE "booking_appointment" ADD COLUMN "triage_score" integer DEFAULT 0 NOT NULL'


def metabase_sql(rng):
    return (f"-- Metabase:: userID: {rng.choice([14, 14, 22, 31])} queryType: MBQL queryHash: {hexid(rng, 64)}\n"
            'SELECT "source"."clinic_id" AS "clinic_id", count(*) AS "count"\n'
            'FROM (SELECT "public"."booking_appointment"."clinic_id" AS "clinic_id", '
            '"public"."booking_appointment"."created_at" AS "created_at"\n'
            'FROM "public"."booking_appointment"\n'
            'LEFT JOIN "public"."booking_payment" "Booking Payment" ON "public"."booking_appointment"."id" = '
            '"Booking Payment"."appointment_id"\n'
            f"WHERE \"public\".\"booking_appointment\".\"created_at\" >= timestamp with time zone '2031-0{rng.randrange(1, 6)}-01 "
            "00:00:00.000Z') \"source\"\n"
            'GROUP BY "source"."clinic_id"\n'
            'ORDER BY "count" DESC, "source"."clinic_id" ASC')


def pg_csvlog(rng):
    recs = []
    used_pids = {1123, 1131, 31502, 31877}

    def newpid(lo=28000, hi=39999):
        while True:
            p = rng.randrange(lo, hi)
            if p not in used_pids:
                used_pids.add(p)
                return p

    def sess(user, host, app, start, pid=None, backend="client backend", db="marrowby"):
        return {"pid": pid or newpid(), "user": user, "db": db, "conn": f"{host}:{rng.randrange(32768, 60999)}" if host else "",
                "start": start, "backend": backend, "app": app, "bid": rng.randrange(3, 90), "busy": DAY}

    def rec(t, s, sev, state, msg, cmd="", detail="", hint="", context="", query="", backend=None, user=None):
        recs.append({"t": t, "s": s, "sev": sev, "state": state, "msg": msg, "cmd": cmd, "detail": detail, "hint": hint,
                     "context": context, "query": query, "backend": backend or s["backend"],
                     "user": s["user"] if user is None else user})

    boot = at("00:00:00") - timedelta(days=3, hours=19, minutes=47, seconds=51)
    postmaster = sess("", None, "", boot, 1123, "postmaster", db="")
    checkpointer = sess("", None, "", boot, 1131, "checkpointer", db="")
    hosts = ["10.40.12.31", "10.40.12.32", "10.40.12.33"]
    app_s = [sess("booking_app", h, "booking-api", rtime(rng, "00:41:00", "00:59:00")) for h in hosts for _ in range(8)]
    worker_s = [sess("booking_worker", f"10.40.13.{rng.randrange(20, 90)}", "booking-worker", rtime(rng, "00:30:00", "00:59:00"))
                for _ in range(4)]
    meta_s = [sess("reporting_ro", "10.40.9.20", "Metabase v0.61.2", rtime(rng, "00:10:00", "00:59:00")) for _ in range(2)]
    report = sess("reporting_ro", "10.40.9.20", "Metabase v0.61.2", at("01:58:40.118"), 31502)

    def connect(s, t):
        """connection received / authorized (the session starts inside the log)."""
        rec(t, s, "LOG", "00000", f"connection received: host={s['conn'].split(':')[0]} port={s['conn'].split(':')[1]}",
            backend="not initialized", user="")
        rec(t + timedelta(milliseconds=rng.randrange(3, 12)), s, "LOG", "00000",
            f"connection authorized: user={s['user']} database={s['db']} application_name={s['app']} SSL enabled "
            "(protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)", cmd="authentication")

    def disconnect(s, t):
        d = t - s["start"]
        h, rest = divmod(d.total_seconds(), 3600)
        m, sec = divmod(rest, 60)
        rec(t, s, "LOG", "00000", f"disconnection: session time: {int(h)}:{int(m):02d}:{sec:06.3f} user={s['user']} "
                                  f"database={s['db']} host={s['conn'].split(':')[0]} port={s['conn'].split(':')[1]}", cmd="idle")

    # connection churn (log_connections, log_disconnections)
    for _ in range(90):
        t = rtime(rng, "01:00:10", "03:58:00")
        kind = rng.choices(["app", "worker", "meta"], [6, 3, 1])[0]
        if kind == "app":
            s = sess("booking_app", rng.choice(hosts), "booking-api", t)
            app_s.append(s)
        elif kind == "worker":
            s = sess("booking_worker", f"10.40.13.{rng.randrange(20, 90)}", "booking-worker", t)
            worker_s.append(s)
        else:
            s = sess("reporting_ro", "10.40.9.20", "Metabase v0.61.2", t)
            meta_s.append(s)
        connect(s, t)
        end = t + timedelta(seconds=rng.randrange(30, 5400), milliseconds=rng.randrange(0, 999))
        if end < at("03:59:50"):
            disconnect(s, end)
            s["ended"] = end
    live = lambda ss, t: [s for s in ss if s["start"] < t and s.get("ended", at("05:00:00")) > t]  # noqa: E731

    # configuration reloads
    rec(at("01:05:17.312"), postmaster, "LOG", "00000", "received SIGHUP, reloading configuration files")
    rec(at("01:05:17.314"), postmaster, "LOG", "00000", 'parameter "log_min_duration_statement" changed to "200"')
    rec(at("01:05:17.314"), postmaster, "LOG", "00000", 'parameter "log_lock_waits" changed to "on"')
    rec(at("03:48:02.507"), postmaster, "LOG", "00000", "received SIGHUP, reloading configuration files")
    rec(at("03:48:02.509"), postmaster, "LOG", "00000", 'parameter "idle_in_transaction_session_timeout" changed to "60s"')
    # checkpoints every 5 minutes
    t = at("01:04:31.004")
    while t < at("03:59:00"):
        rec(t, checkpointer, "LOG", "00000", "checkpoint starting: time")
        b = rng.randrange(900, 4200)
        w = 269.8 + rng.randrange(0, 150) / 1000
        done = t + timedelta(seconds=w + 0.05)
        if done < at("03:59:59"):
            lsn = rng.randrange(0x10000000, 0xF0000000)
            rec(done, checkpointer, "LOG", "00000",
                f"checkpoint complete: wrote {b} buffers ({b / 163.84:.1f}%); 0 WAL file(s) added, 0 removed, "
                f"{rng.randrange(1, 4)} recycled; write={w:.3f} s, sync=0.0{rng.randrange(10, 99)} s, total={w + 0.05:.3f} s; "
                f"sync files={rng.randrange(30, 90)}, longest=0.00{rng.randrange(2, 9)} s, average=0.001 s; "
                f"distance={rng.randrange(9000, 40000)} kB, estimate={rng.randrange(20000, 40000)} kB; "
                f"lsn=1A/{lsn:08X}, redo lsn=1A/{lsn - rng.randrange(100000, 900000):08X}")
        t += timedelta(seconds=300)
    # autovacuum reports (multi-line messages)
    for _ in range(25):
        tbl = rng.choice(["booking_slot", "notify_outbox", "chat_receipt_index", "booking_payment", "audit_event"])
        av = sess("", None, "", rtime(rng, "01:00:30", "03:59:30"), backend="autovacuum worker", db="marrowby")
        pages = rng.randrange(800, 90000)
        sc = rng.randrange(100, pages)
        rec(av["start"] + timedelta(seconds=rng.randrange(1, 40)), av, "LOG", "00000",
            f'automatic vacuum of table "marrowby.public.{tbl}": index scans: 1\n'
            f"pages: 0 removed, {pages} remain, {sc} scanned ({100 * sc / pages:.2f}% of total)\n"
            f"tuples: {rng.randrange(100, 9000)} removed, {rng.randrange(10000, 900000)} remain, 0 are dead but not yet removable\n"
            f"removable cutoff: {rng.randrange(91800000, 91900000)}, which was {rng.randrange(2, 900)} XIDs old when operation ended\n"
            f"index scan needed: {rng.randrange(10, 800)} pages from table ({rng.randrange(1, 900) / 100:.2f}% of total) had "
            f"{rng.randrange(100, 9000)} dead item identifiers removed\n"
            f"avg read rate: {rng.randrange(100, 9000) / 1000:.3f} MB/s, avg write rate: {rng.randrange(100, 9000) / 1000:.3f} MB/s\n"
            f"buffer usage: {rng.randrange(1000, 90000)} hits, {rng.randrange(0, 900)} misses, {rng.randrange(0, 900)} dirtied\n"
            f"WAL usage: {rng.randrange(100, 9000)} records, {rng.randrange(0, 300)} full page images, "
            f"{rng.randrange(10000, 900000)} bytes\n"
            f"system usage: CPU: user: 0.{rng.randrange(10, 99)} s, system: 0.0{rng.randrange(1, 9)} s, "
            f"elapsed: {rng.randrange(50, 4000) / 100:.2f} s")
    # grafana_ro with a wrong password: FATAL 28P01 x41
    t = at("01:02:41.870")
    for _ in range(41):
        s = sess("grafana_ro", "10.40.9.14", "", t)
        rec(t, s, "LOG", "00000", f"connection received: host=10.40.9.14 port={s['conn'].split(':')[1]}", backend="not initialized",
            user="")
        rec(t + timedelta(milliseconds=rng.randrange(2, 9)), s, "FATAL", "28P01", 'password authentication failed for user "grafana_ro"',
            cmd="authentication", detail='Connection matched file "/etc/postgresql/16/main/pg_hba.conf" line 118: '
                                         '"hostssl all all 10.40.0.0/16 scram-sha-256"')
        t += timedelta(seconds=rng.randrange(230, 290), milliseconds=rng.randrange(0, 999))
    quiet = [("01:00:30", "02:30:00"), ("02:45:00", "03:59:30")]
    # duplicate bookings: ERROR 23505 x24
    for _ in range(24):
        t = rtime_in(rng, quiet)
        s = rng.choice(live(app_s, t))
        rec(t, s, "ERROR", "23505", 'duplicate key value violates unique constraint "booking_appointment_slot_id_key"',
            cmd="INSERT", detail=f"Key (slot_id)=({rng.randrange(880000, 899999)}) already exists.", query=INSERT_SQL)
    # report timeouts: ERROR 57014 x17
    for _ in range(17):
        t = rtime_in(rng, quiet)
        s = rng.choice(live(meta_s, t))
        rec(t, s, "ERROR", "57014", "canceling statement due to statement timeout", cmd="SELECT", query=metabase_sql(rng))
    # the migration
    connect(report, at("01:58:40.118"))
    mig = sess("booking_migrate", "10.40.13.57", "django-migrate", at("02:33:04.871"), 31877)
    connect(mig, at("02:33:04.871"))
    rec(at("02:33:05.201"), mig, "LOG", "00000", f"statement: {ALTER_SQL}", cmd="ALTER TABLE")
    rec(at("02:33:06.203"), mig, "LOG", "00000",
        "process 31877 still waiting for AccessExclusiveLock on relation 16711 of database 16384 after 1000.112 ms",
        cmd="ALTER TABLE", detail="Process holding the lock: 31502. Wait queue: 31877.", query=ALTER_SQL)
    # lock timeouts: 197 (booking_app 186, booking_worker 11), peak minute 02:37
    plan = {"02:33": 12, "02:34": 20, "02:35": 26, "02:36": 31, "02:37": 55, "02:38": 22, "02:39": 15, "02:40": 10, "02:41": 6}
    errs = sorted(by_minute(rng, plan, {"02:33": ("11", "59.999"), "02:41": ("00", "17")}))
    who = ["booking_worker"] * 11 + ["booking_app"] * 186
    rng.shuffle(who)
    for e, u in zip(errs, who):
        start = e - timedelta(seconds=5, milliseconds=rng.randrange(1, 9))
        cands = [s for s in live(app_s if u == "booking_app" else worker_s, start) if s["busy"] < start]
        s = rng.choice(cands)
        s["busy"] = e
        sql = BOOKING_SQL if u == "booking_app" else ('SELECT "booking_appointment"."id" FROM "booking_appointment" WHERE '
                                                      '"booking_appointment"."reminder_due_at" <= $1 FOR UPDATE SKIP LOCKED')
        rec(start + timedelta(milliseconds=1000 + rng.randrange(40, 140)), s, "LOG", "00000",
            f"process {s['pid']} still waiting for AccessShareLock on relation 16711 of database 16384 after "
            f"{1000 + rng.randrange(0, 200) / 1000:.3f} ms", cmd="SELECT",
            detail=f"Process holding the lock: 31502. Wait queue: 31877, {s['pid']}.", query=sql)
        rec(e, s, "ERROR", "55P03", "canceling statement due to lock timeout", cmd="SELECT", query=sql)
    # connection slots: FATAL 53300 x66
    for _ in range(66):
        t = rtime(rng, "02:38:10", "02:40:40")
        s = sess("booking_app", rng.choice(hosts), "", t)
        rec(t, s, "LOG", "00000", f"connection received: host={s['conn'].split(':')[0]} port={s['conn'].split(':')[1]}",
            backend="not initialized", user="")
        rec(t + timedelta(milliseconds=rng.randrange(2, 9)), s, "FATAL", "53300",
            "remaining connection slots are reserved for roles with the SUPERUSER attribute", cmd="startup")
    # worker pods deleted at 02:39: their connections reset
    for i in range(5):
        t = at("02:39:12.400") + timedelta(seconds=2 * i, milliseconds=rng.randrange(0, 900))
        s = rng.choice(live(worker_s, t))
        rec(t, s, "LOG", "08006", "could not receive data from client: Connection reset by peer", cmd="idle")
    # the report is terminated, the ALTER gets its lock
    rec(at("02:41:19.006"), report, "FATAL", "57P01", "terminating connection due to administrator command", cmd="SELECT",
        query=metabase_sql(rng))
    rec(at("02:41:19.011"), mig, "LOG", "00000",
        "process 31877 acquired AccessExclusiveLock on relation 16711 of database 16384 after 493808.921 ms", cmd="ALTER TABLE",
        query=ALTER_SQL)
    disconnect(mig, at("02:41:19.488"))
    # idle-in-transaction timeouts after the 03:48 reload: FATAL 25P03 x9
    for i in range(9):
        t = rtime(rng, "03:49:05", "03:58:30")
        s = rng.choice(live(worker_s if i < 6 else meta_s, t))
        rec(t, s, "FATAL", "25P03", "terminating connection due to idle-in-transaction timeout", cmd="idle in transaction")
    # `duration:` lines: 380, mean exactly 2846.250 ms (thousandths)
    durs = [(at("02:41:19.209"), mig, 494004117, f"statement: {ALTER_SQL}", "ALTER TABLE", ""),
            (at("02:05:33.918"), None, 88412550, None, "SELECT", "")]
    early = [rtime(rng, "01:00:20", "01:05:10") for _ in range(6)]
    late = [rtime_in(rng, [("01:05:20", "02:32:50"), ("02:41:25", "03:59:40")]) for _ in range(372)]
    vals_early = [rng.randrange(1_000_000, 6_000_000) for _ in early]
    vals_late = [rng.choice([rng.randrange(200_000, 900_000), rng.randrange(300_000, 2_400_000), rng.randrange(1_000_000, 9_000_000)])
                 for _ in late]
    need = 2_846_250 * 380 - 494004117 - 88412550 - sum(vals_early)
    mean_to(rng, vals_late, need, 200_000, 45_000_000, 40_000)
    for t, v in list(zip(early, vals_early)) + list(zip(late, vals_late)):
        durs.append((t, None, v, None, None, None))
    for t, s, v, text, cmd, _ in durs:
        if s is None:
            kind = rng.choices(["app", "worker", "meta"], [6, 2, 2])[0] if v < 30_000_000 else "meta"
            if text is None and cmd == "SELECT":
                kind = "meta"
            s = rng.choice(live({"app": app_s, "worker": worker_s, "meta": meta_s}[kind], t))
            if kind == "app":
                text, cmd = f"execute <unnamed>: {SLOT_SQL}", "SELECT"
                detail = f"parameters: $1 = '{rng.choice(CLINICS)}', $2 = '2031-06-05 00:00:00+00'"
            elif kind == "worker":
                text, cmd = f"execute <unnamed>: {OUTBOX_SQL}", "UPDATE"
                detail = f"parameters: $1 = '{t.strftime('%Y-%m-%d %H:%M:%S')}+00', $2 = '{{{rng.randrange(4000000, 4999999)}}}'"
            else:
                text, cmd, detail = f"execute s_{rng.randrange(1, 9)}: {metabase_sql(rng)}", "SELECT", ""
        else:
            detail = ""
        rec(t, s, "LOG", "00000", f"duration: {v // 1000}.{v % 1000:03d} ms  {text}", cmd=cmd, detail=detail)
    # render
    recs.sort(key=lambda r: r["t"])
    lines_of = {}
    out = []

    def q(x):
        return '"' + x.replace('"', '""') + '"' if x else ""

    for r in recs:
        s = r["s"]
        sid = f"{int(s['start'].timestamp()):x}.{s['pid']:x}"
        lines_of[sid] = lines_of.get(sid, 0) + 1
        client = r["backend"] in ("client backend", "not initialized")
        vxid = f"{s['bid']}/{rng.randrange(100000, 999999)}" if r["backend"] in ("client backend", "autovacuum worker") else ""
        if r["backend"] == "not initialized" or r["cmd"] in ("authentication", "startup"):
            vxid = ""
        fields = [r["t"].strftime("%Y-%m-%d %H:%M:%S.") + f"{r['t'].microsecond // 1000:03d} UTC",
                  q(r["user"]), q(s["db"] if r["backend"] != "not initialized" else ""), str(s["pid"]),
                  q(s["conn"] if client else ""), sid, str(lines_of[sid]), q(r["cmd"]),
                  s["start"].strftime("%Y-%m-%d %H:%M:%S UTC"), vxid, "9182331" if r["cmd"] == "ALTER TABLE" else "0",
                  r["sev"], r["state"], q(r["msg"]), q(r["detail"]), q(r["hint"]), "", "", q(r["context"]), q(r["query"]), "", "",
                  ('"' + s["app"].replace('"', '""') + '"') if r["backend"] == "client backend" else "",
                  q(r["backend"]), "", "0"]
        out.append(",".join(fields))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# server.log: the log4j server log of Kafka broker 2 (kafka-2, ZooKeeper mode, 3.7;
# `[yyyy-MM-dd HH:mm:ss,SSS] LEVEL message (logger)`, exceptions on the following lines).
# kafka-2 leads 32 partitions (replication factor 3). Planted: `Shrinking ISR` x95 (32 at
# 01:47:42-01:47:58 dropping broker 1, 8 at 01:48:06-01:48:09 dropping broker 3, 32 at
# 02:52:11-02:52:25 dropping broker 3, 23 lag flaps: notify-events-7 8 in all (the last
# 03:36:14) > notify-events-4 6); `Expanding ISR` x99; NotEnoughReplicasException x68
# (01:48:10-01:56:25; 22 in 01:40-01:50, 46 in 01:50-02:00); fetch errors from leader 1 at
# 01:47:12 and from leader 3 at 02:52:05.
KAFKA_FILE = "server.log"
KAFKA_LEADS = ([f"notify-events-{i}" for i in (1, 4, 7, 10)] + [f"appointment-events-{i}" for i in (0, 3, 6, 9)]
               + [f"chat-fanout-{i}" for i in range(2, 24, 3)] + [f"__consumer_offsets-{i}" for i in range(2, 50, 3)])
MIN_ISR2 = [p for p in KAFKA_LEADS if p.startswith(("notify-events", "appointment-events"))]


def kafka_log(rng):
    ev = []  # (t, seq, kind, data)

    def add(t, kind, data=None):
        ev.append((t, len(ev), kind, data))

    def spread(a, b, items):
        """Times in [a, b) for the items, the first one within 250 ms of a."""
        ts = sorted(rtime(rng, a, b) for _ in items)
        ts[0] = at(a) + timedelta(milliseconds=rng.randrange(5, 250))
        return list(zip(sorted(ts), items))

    for t, p in spread("01:47:42", "01:47:58.999", KAFKA_LEADS):
        add(t, "shrink", (p, [1]))
    for t, p in spread("01:48:06", "01:48:09.999", MIN_ISR2):
        add(t, "shrink", (p, [3]))
    for t, p in spread("01:56:31", "01:56:35.999", MIN_ISR2):
        add(t, "expand", (p, 3))
    for t, p in spread("01:58:03", "01:58:20.999", KAFKA_LEADS):
        add(t, "expand", (p, 1))
    for t, p in spread("02:52:11", "02:52:25.999", KAFKA_LEADS):
        add(t, "shrink", (p, [3]))
    for t, p in spread("02:55:40", "02:55:58.999", KAFKA_LEADS):
        add(t, "expand", (p, 3))
    # lag flaps: 23 shrinks (4 of them drop both followers), 27 expands
    flaps = [("notify-events-7", t) for t in ("01:21:33.207", "02:07:48.551", "02:39:02.118", "03:04:52.940", "03:36:14.326")]
    flaps += [("notify-events-4", t) for t in ("01:33:10.481", "02:19:40.067", "03:22:05.733")]
    others = [p for p in KAFKA_LEADS if p not in ("notify-events-7", "notify-events-4")]
    rng.shuffle(others)
    franges = [("01:03:00", "01:40:00"), ("02:06:00", "02:28:00"), ("03:02:00", "03:55:00")]
    for p in others[:15]:
        flaps.append((p, rtime_in(rng, franges).strftime("%H:%M:%S.%f")))
    doubles = [p for p in others[:15] if p.startswith(("chat-fanout", "__consumer"))][:4]
    assert len(doubles) == 4
    for p, hms in flaps:
        t = at(hms)
        if p in doubles:
            add(t, "shrink", (p, "both"))
            add(t + timedelta(seconds=rng.randrange(8, 20), milliseconds=rng.randrange(0, 999)), "expand", (p, "first"))
            add(t + timedelta(seconds=rng.randrange(22, 40), milliseconds=rng.randrange(0, 999)), "expand", (p, "second"))
        else:
            add(t, "shrink", (p, "one"))
            add(t + timedelta(seconds=rng.randrange(9, 40), milliseconds=rng.randrange(0, 999)), "expand", (p, "back"))
    # produce failures while the min.isr=2 partitions sit at ISR [2]
    nerr = sorted([rtime(rng, "01:48:10", "01:49:59.999") for _ in range(21)] + [rtime(rng, "01:50:00", "01:56:25") for _ in range(46)])
    for t in [at("01:48:10.") + timedelta(milliseconds=rng.randrange(5, 300))] + nerr:
        add(t, "nerr", rng.choice(MIN_ISR2))
    # fetcher errors
    for t, leader in [("01:47:12.402", 1), ("01:47:44.517", 1), ("01:48:16.630", 1), ("02:52:05.318", 3), ("02:52:37.441", 3)]:
        add(at(t), "fetch", leader)
    # consumer group churn while the notify workers crash (01:48-01:52) and at other times
    gen = {"notify-workers": 141, "chat-fanout-consumers": 88, "appointment-projector": 23}
    for t, g in [("01:48:41.229", "notify-workers"), ("01:49:13.902", "notify-workers"), ("01:50:41.377", "notify-workers"),
                 ("01:51:33.018", "notify-workers"), ("01:58:31.904", "notify-workers")]:
        add(at(t), "rebalance", g)
    for _ in range(14):
        add(rtime_in(rng, [("01:01:00", "01:40:00"), ("02:05:00", "02:45:00"), ("03:00:00", "03:58:00")]), "rebalance",
            rng.choice(["chat-fanout-consumers", "appointment-projector"]))
    # housekeeping noise
    t = at("01:00:07.331")
    while t < at("04:00:00"):
        add(t, "roll", rng.choice([p for p in KAFKA_LEADS if not p.startswith("__")]))
        t += timedelta(seconds=rng.randrange(25, 60), milliseconds=rng.randrange(0, 999))
    for _ in range(60):
        add(rtime(rng, "01:00:30", "03:59:30"), "delete", rng.choice([p for p in KAFKA_LEADS if p.startswith("chat")]))
    t = at("01:04:12.006")
    while t < at("04:00:00"):
        add(t, "expire", None)
        t += timedelta(minutes=10, milliseconds=rng.randrange(0, 50))
    ev.sort(key=lambda e: (e[0], e[1]))
    replicas = {p: [2, 1, 3] if i % 2 else [2, 3, 1] for i, p in enumerate(KAFKA_LEADS)}
    isr = {p: list(r) for p, r in replicas.items()}
    offs = {p: rng.randrange(2_000_000, 40_000_000) for p in KAFKA_LEADS}
    removed = {}
    lines = []

    def stamp(t):
        return f"[{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d}]"

    def fmt(x):
        return ",".join(str(b) for b in x)

    for t, _, kind, d in ev:
        ts = stamp(t)
        for p in KAFKA_LEADS:
            offs[p] += rng.randrange(0, 40)
        if kind == "shrink":
            p, what = d
            cur = isr[p]
            if what == "one":
                drop = [rng.choice([b for b in cur if b != 2])]
            elif what == "both":
                drop = [b for b in cur if b != 2]
            else:
                drop = what
            assert all(b in cur for b in drop) and len(drop) < len(cur), (p, cur, drop)
            new = [b for b in cur if b not in drop]
            removed[p] = drop
            hw = offs[p] - rng.randrange(20, 400)
            oos = ", ".join(f"(brokerId: {b}, endOffset: {hw}, lastCaughtUpTimeMs: {int(t.timestamp() * 1000) - rng.randrange(30001, 31500)})"
                            for b in drop)
            lines.append(f"{ts} INFO [Partition {p} broker=2] Shrinking ISR from {fmt(cur)} to {fmt(new)}. Leader: (highWatermark: "
                         f"{hw}, endOffset: {offs[p]}). Out of sync replicas: {oos}. (kafka.cluster.Partition)")
            isr[p] = new
        elif kind == "expand":
            p, what = d
            cur = isr[p]
            if isinstance(what, int):
                add_b = what
            else:
                add_b = removed[p][1] if what == "second" else removed[p][0]
            assert add_b not in cur, (p, cur, add_b)
            new = cur + [add_b]
            lines.append(f"{ts} INFO [Partition {p} broker=2] Expanding ISR from {fmt(cur)} to {fmt(new)} (kafka.cluster.Partition)")
            isr[p] = new
        elif kind == "nerr":
            p = d
            assert isr[p] == [2], (p, isr[p])
            lines.append(f"{ts} ERROR [ReplicaManager broker=2] Error processing append operation on partition {p} "
                         "(kafka.server.ReplicaManager)")
            lines.append("org.apache.kafka.common.errors.NotEnoughReplicasException: The size of the current ISR Set(2) is "
                         f"insufficient to satisfy the min.isr requirement of 2 for partition {p}")
        elif kind == "fetch":
            fo = rng.randrange(9_000_000, 40_000_000)
            parts = ", ".join(f"{p}=(fetchOffset={fo + rng.randrange(0, 90)}, logStartOffset={fo - 9_000_000}, "
                              f"maxBytes=1048576, currentLeaderEpoch=Optional[{rng.randrange(40, 90)}], lastFetchedEpoch=Optional.empty)"
                              for p in rng.sample(["notify-events-2", "chat-fanout-0", "appointment-events-1"], 2))
            lines.append(f"{ts} WARN [ReplicaFetcher replicaId=2, leaderId={d}, fetcherId=0] Error in response for fetch request "
                         f"(type=FetchRequest, replicaId=2, maxWait=500, minBytes=1, maxBytes=10485760, fetchData={{{parts}}}, "
                         f"isolationLevel=READ_UNCOMMITTED, removed=, replaced=, metadata=(sessionId={rng.randrange(10**9, 2 * 10**9)}, "
                         f"epoch={rng.randrange(10000, 99999)}), rackId=) (kafka.server.ReplicaFetcherThread)")
            lines += [f"java.io.IOException: Connection to {d} was disconnected before the response was read",
                      "\tat org.apache.kafka.clients.NetworkClientUtils.sendAndReceive(NetworkClientUtils.java:99)",
                      "\tat kafka.server.BrokerBlockingSender.sendRequest(BrokerBlockingSender.scala:113)",
                      "\tat kafka.server.RemoteLeaderEndPoint.fetch(RemoteLeaderEndPoint.scala:79)",
                      "\tat kafka.server.AbstractFetcherThread.processFetchRequest(AbstractFetcherThread.scala:316)"]
        elif kind == "rebalance":
            g = d
            member = f"{'notify-worker-0' + str(rng.randrange(0, 4)) if g == 'notify-workers' else g[:-1]}-{uuid4(rng)}"
            part = {"notify-workers": 17, "chat-fanout-consumers": 41, "appointment-projector": 8}[g]
            lines.append(f"{ts} INFO [GroupCoordinator 2]: Member {member} in group {g} has failed, removing it from the group "
                         "(kafka.coordinator.group.GroupCoordinator)")
            lines.append(f"{ts} INFO [GroupCoordinator 2]: Preparing to rebalance group {g} in state PreparingRebalance with old "
                         f"generation {gen[g]} (__consumer_offsets-{part}) (reason: removing member {member} on heartbeat "
                         "expiration) (kafka.coordinator.group.GroupCoordinator)")
            gen[g] += 1
            t2 = t + timedelta(seconds=rng.randrange(2, 6), milliseconds=rng.randrange(0, 999))
            n = rng.randrange(2, 4)
            lines.append(f"{stamp(t2)} INFO [GroupCoordinator 2]: Stabilized group {g} generation {gen[g]} "
                         f"(__consumer_offsets-{part}) with {n} members (kafka.coordinator.group.GroupCoordinator)")
        elif kind == "roll":
            p = d
            lines.append(f"{ts} INFO [LocalLog partition={p}, dir=/var/lib/kafka/data] Rolled new log segment at offset {offs[p]} "
                         f"in {rng.randrange(1, 6)} ms. (kafka.log.LocalLog)")
            lines.append(f"{ts} INFO [ProducerStateManager partition={p}] Wrote producer snapshot at offset {offs[p]} with "
                         f"{rng.randrange(0, 4)} producer ids in {rng.randrange(0, 3)} ms. "
                         "(org.apache.kafka.storage.internals.log.ProducerStateManager)")
        elif kind == "delete":
            p = d
            base = offs[p] - rng.randrange(9_000_000, 12_000_000)
            lm = int((t - timedelta(days=7, minutes=rng.randrange(1, 50))).timestamp() * 1000)
            lines.append(f"{ts} INFO [UnifiedLog partition={p}, dir=/var/lib/kafka/data] Deleting segment LogSegment(baseOffset={base}, "
                         f"size={rng.randrange(1_060_000_000, 1_073_741_800)}, lastModifiedTime={lm}, largestRecordTimestamp=Some({lm - 13})) "
                         "due to log retention time 604800000ms breach based on the largest record timestamp in the segment "
                         "(kafka.log.UnifiedLog)")
        else:
            lines.append(f"{ts} INFO [GroupMetadataManager brokerId=2] Removed 0 expired offsets in {rng.randrange(0, 3)} milliseconds. "
                         "(kafka.coordinator.group.GroupMetadataManager)")
    assert all(isr[p] and sorted(isr[p]) == [1, 2, 3] for p in KAFKA_LEADS), isr
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# supervisord.log of app-02 (portal-app, notify-worker_00..03, pdf-renderer). Planted:
# pdf-renderer exits (`exit status 0; expected`) x88; notify-worker exits (not expected)
# from 01:48:31, notify-worker_01 `gave up ... FATAL` at 01:51:40 and started by hand at
# 01:58:30; portal-app `terminated by SIGKILL` at 03:12:58, `gave up` at 03:13:24, started
# by hand at 03:18:31 (RUNNING 03:18:37).
SUPERVISOR_FILE = "supervisord.log"


def supervisord_log(rng):
    out = []

    def log(t, level, msg):
        out.append((t, len(out), f"{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d} {level} {msg}"))

    def spawn(t, name, running_after=None):
        log(t, "INFO", f"spawned: '{name}' with pid {{PID}}")
        if running_after is not None:
            secs_ = 1 if name == "pdf-renderer" else 5
            log(t + timedelta(seconds=running_after), "INFO",
                f"success: {name} entered RUNNING state, process has stayed up for > than {secs_} seconds (startsecs)")

    t = at("01:01:07.204")
    for _ in range(88):
        log(t, "INFO", "exited: pdf-renderer (exit status 0; expected)")
        spawn(t + timedelta(milliseconds=rng.randrange(5, 30)), "pdf-renderer", 1.01)
        t += timedelta(seconds=rng.randrange(115, 124), milliseconds=rng.randrange(0, 999))
    assert t < at("04:00:00")
    # notify workers crash while kafka refuses their produce requests
    crashes = {"notify-worker_00": ["01:48:31.207", "01:49:12.884", "01:50:40.118"],
               "notify-worker_02": ["01:48:44.530", "01:50:02.661"],
               "notify-worker_03": ["01:49:58.073", "01:51:21.940"],
               "notify-worker_01": ["01:48:33.412", "01:50:05.226"]}
    for name, ts in crashes.items():
        for x in ts:
            log(at(x), "INFO", f"exited: {name} (exit status 1; not expected)")
            spawn(at(x) + timedelta(seconds=1, milliseconds=rng.randrange(0, 90)), name, 5.0)
    for x, nxt in [("01:51:31.602", "01:51:32.611"), ("01:51:33.705", "01:51:35.716"), ("01:51:36.802", "01:51:39.811")]:
        log(at(x), "INFO", "exited: notify-worker_01 (exit status 1; not expected)")
        spawn(at(nxt), "notify-worker_01")
    log(at("01:51:40.902"), "INFO", "exited: notify-worker_01 (exit status 1; not expected)")
    log(at("01:51:40.903"), "INFO", "gave up: notify-worker_01 entered FATAL state, too many start retries too quickly")
    spawn(at("01:58:30.447"), "notify-worker_01", 5.0)
    # portal-app: OOM-killed, cannot rebind, gives up; started by hand
    log(at("03:12:58.114"), "INFO", "exited: portal-app (terminated by SIGKILL; not expected)")
    spawn(at("03:12:59.120"), "portal-app")
    for x, nxt in [("03:13:04.018", "03:13:06.030"), ("03:13:11.112", "03:13:14.121"), ("03:13:19.207", "03:13:22.216")]:
        log(at(x), "INFO", "exited: portal-app (exit status 1; not expected)")
        spawn(at(nxt), "portal-app")
    log(at("03:13:24.301"), "INFO", "exited: portal-app (exit status 1; not expected)")
    log(at("03:13:24.302"), "INFO", "gave up: portal-app entered FATAL state, too many start retries too quickly")
    spawn(at("03:18:31.509"), "portal-app", 6.0)
    for _ in range(11):
        log(rtime(rng, "01:02:00", "03:58:00"), "INFO", "reaped unknown pid {PID} (exit status 0)")
    out.sort(key=lambda x: (x[0], x[1]))
    pid = 40112
    lines = []
    for _, _, line in out:
        if "{PID}" in line:
            pid += rng.randrange(3, 400)
            line = line.replace("{PID}", str(pid - rng.randrange(1, 3) if "reaped" in line else pid))
        lines.append(line)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# portal-ssl_error_log: Apache 2.4 error log of portal-01 (mod_proxy to portal-app on
# 127.0.0.1:8081 with retry=0, mod_remoteip; an internal vhost for VPN users). Planted:
# AH01630 `client denied by server configuration` from 10.50.3.77 x71 (01:12-01:48; top
# path .git/config 19 > .env 14), others x41 (none within 01:55-02:05); AH01102 read
# timeouts x23 (03:09:41-03:12:55); AH00957 `(111)Connection refused` / AH00959 / AH01114
# x131 each (03:12:59.4-03:18:32; peak minute 03:14); a graceful restart at 01:00:02.
APACHE_FILE = "portal-ssl_error_log"


def apache_error(rng):
    out = []
    workers = [rng.randrange(21000, 24000) for _ in range(6)]
    tids = [rng.randrange(139_900_000_000_000, 140_300_000_000_000) for _ in range(40)]
    vpn = [f"10.50.{rng.randrange(1, 8)}.{rng.randrange(2, 250)}" for _ in range(14)]
    vpn = sorted(set(vpn) - {"10.50.3.77"})[:10]
    pub = ip_pool(rng, 30, [SCANNER], [31, 46, 62, 77, 81, 86, 92, 109, 176, 185, 212])

    def log(t, mod, level, msg, client=None, pid=None, errno=None, tid=None):
        pid = pid or rng.choice(workers)
        tid = tid or rng.choice(tids)
        stamp = t.strftime("%a %b %d %H:%M:%S.%f %Y")
        pre = f"{errno}: " if errno else ""
        cl = f"[client {client}:{rng.randrange(1024, 65535)}] " if client else ""
        out.append((t, len(out), f"[{stamp}] [{mod}:{level}] [pid {pid}:tid {tid}] {pre}{cl}{msg}"))

    t0 = at("01:00:02.118203")
    log(t0, "mpm_event", "notice", "AH00493: SIGUSR1 received.  Doing graceful restart", pid=1187, tid=139986201143488)
    log(t0 + timedelta(milliseconds=41), "ssl", "warn",
        "AH01909: portal-internal.marrowby.internal:443:0 server certificate does NOT include an ID which matches the server name",
        pid=1187, tid=139986201143488)
    log(t0 + timedelta(milliseconds=96), "mpm_event", "notice",
        "AH00489: Apache/2.4.62 (Rocky Linux) OpenSSL/3.2.2 configured -- resuming normal operations", pid=1187,
        tid=139986201143488)
    log(t0 + timedelta(milliseconds=97), "core", "notice", "AH00094: Command line: '/usr/sbin/httpd -D FOREGROUND'", pid=1187,
        tid=139986201143488)
    # AH01630: the VPN scanner and others
    paths = (["/var/www/portal/.git/config"] * 19 + ["/var/www/portal/.env"] * 14 + ["/var/www/portal/server-status"] * 11
             + ["/var/www/portal/.git/HEAD"] * 9 + ["/var/www/portal/backup.sql"] * 8 + ["/var/www/portal/wp-config.php.bak"] * 6
             + ["/var/www/portal/.DS_Store"] * 4)
    rng.shuffle(paths)
    for p in paths:
        log(rtime(rng, "01:12:00", "01:47:59"), "authz_core", "error", f"AH01630: client denied by server configuration: {p}",
            "10.50.3.77")
    for i in range(41):
        t = rtime_in(rng, [("01:00:30", "01:55:00"), ("02:05:00", "03:59:30")])
        who = vpn[i % len(vpn)] if i < 30 else rng.choice(pub)
        p = rng.choice(["/var/www/portal/admin/", "/var/www/portal/server-status", "/var/www/portal/internal/metrics",
                        "/var/www/portal/.htaccess"])
        log(t, "authz_core", "error", f"AH01630: client denied by server configuration: {p}", who)
    # portal-app slows down: read timeouts
    slow = sorted(rtime(rng, "03:09:42", "03:12:55") for _ in range(22))
    for t in [at("03:09:41.") + timedelta(milliseconds=rng.randrange(5, 900))] + slow:
        c = rng.choice(pub)
        page = rng.choice(["dashboard", "messages", "records"])
        pid, tid = rng.choice(workers), rng.choice(tids)
        log(t, "proxy_http", "error", "AH01102: error reading status line from remote server 127.0.0.1:8081, "
                                      f"referer: https://portal.marrowby.example/portal/{page}", c,
            errno="(70007)The timeout specified has expired", pid=pid, tid=tid)
        log(t + timedelta(microseconds=80), "proxy", "error", f"AH00898: Error reading from remote server returned by /portal/{page}", c,
            pid=pid, tid=tid)
    # portal-app is down: every request refused
    plan = {"03:12": 3, "03:13": 22, "03:14": 37, "03:15": 26, "03:16": 19, "03:17": 15, "03:18": 9}
    times = by_minute(rng, plan, {"03:12": ("59.41", "59.999"), "03:18": ("00", "32")})
    for t in times:
        c = rng.choice(pub)
        pid, tid = rng.choice(workers), rng.choice(tids)
        log(t, "proxy", "error", "AH00957: http: attempt to connect to 127.0.0.1:8081 (127.0.0.1:8081) failed", pid=pid,
            errno="(111)Connection refused", tid=tid)
        log(t + timedelta(microseconds=31), "proxy", "error", "AH00959: ap_proxy_connect_backend disabling worker for "
                                                              "(127.0.0.1:8081) for 0s", pid=pid, tid=tid)
        log(t + timedelta(microseconds=44), "proxy_http", "error",
            "AH01114: HTTP: failed to make connection to backend: 127.0.0.1, referer: "
            f"https://portal.marrowby.example/portal/{rng.choice(['dashboard', 'messages', 'login'])}", c, pid=pid, tid=tid)
    # noise
    for _ in range(17):
        log(rtime(rng, "01:00:30", "03:59:30"), "core", "error",
            "AH10244: invalid URI path (/cgi-bin/.%2e/.%2e/.%2e/.%2e/bin/sh)", rng.choice(pub))
    for _ in range(24):
        log(rtime(rng, "01:00:30", "03:59:30"), "ssl", "error",
            "AH02032: Hostname portal.marrowby.example provided via SNI and hostname 10.40.21.14 provided via HTTP have no "
            "compatible SSL setup", rng.choice(pub))
    for _ in range(12):
        c = rng.choice(pub)
        log(rtime(rng, "01:00:30", "03:59:30"), "proxy_http", "error",
            f"AH01095: prefetch request body failed to 127.0.0.1:8081 (127.0.0.1) from {c} ()", c,
            errno="(104)Connection reset by peer")
    for _ in range(9):
        log(rtime(rng, "01:00:30", "03:59:30"), "proxy", "warn",
            "AH01144: No protocol handler was valid for the URL /portal/ws (scheme 'ws'). If you are using a DSO version of "
            "mod_proxy, make sure the proxy submodules are included in the configuration using LoadModule.", rng.choice(pub))
    return render(out)


# ---------------------------------------------------------------------------------------
# mongod-chat-db-a.log / mongod-chat-db-b.log: MongoDB 7 structured JSON logs of two members
# of the replica set rs-chat (padded `"s":"I",  "c":"REPL",     "id":…,   ` fields).
# chat-db-a (primary until 03:41:11): `Slow query` x241 (chat.messages 88, mean
# durationMillis exactly 287; chat.threads 66; read_receipts 41; attachments 24; presence
# 13; user_prefs 9); COLLSCAN: retention-job 23 > MongoDB Compass 9 > chat-gw 4; `Connection
# accepted` x187; fdatasync 14213 ms at 03:40:26; steps down at 03:41:11. chat-db-b:
# `Slow query` x163 (messages 47 > read_receipts 36 > threads 29 > presence 21 > audit 15 >
# attachments 9 > user_prefs 6; max durationMillis 8233; p90 1460 on a plateau);
# `Connection accepted` x212; heartbeats to chat-db-a fail at 03:40:58; election 03:41:09,
# primary 03:41:09.913, writes permitted 03:41:10.
MONGO_A, MONGO_B = "mongod-chat-db-a.log", "mongod-chat-db-b.log"
MONGO_APPS = {"chat-gw": ("10.40.14.21", "mongo-go-driver", "v1.17.2"), "chat-fanout-consumer": ("10.40.14.31", "mongo-go-driver", "v1.17.2"),
              "retention-job": ("10.40.16.5", "PyMongo", "4.13.1"), "MongoDB Compass": ("10.50.2.14", "nodejs", "6.16.0"),
              "chat-audit-sink": ("10.40.16.9", "mongo-java-driver|sync", "5.5.1")}


def mongo_line(t, s, c, id_, ctx, msg, attr=None):
    ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}+00:00"
    line = (f'{{"t":{{"$date":"{ts}"}},"s":"{s}",' + " " * max(1, 3 - len(s)) + f'"c":"{c}",' + " " * max(1, 9 - len(c))
            + f'"id":{id_},' + " " * max(1, 8 - len(str(id_))) + f'"ctx":{json.dumps(ctx)},"msg":{json.dumps(msg)}')
    if attr is not None:
        line += ',"attr":' + json.dumps(attr, separators=(",", ":"))
    return line + "}"


def _slow_attr(rng, ns, app, collscan, ms, port):
    coll = ns.split(".", 1)[1]
    oid = {"$oid": hexid(rng, 24)}
    if collscan:
        field = {"attachments": "uploadedAt", "messages": "createdAt", "threads": "lastMessageAt", "presence": "seenAt"}[coll]
        cmd = {"find": coll, "filter": {field: {"$lt": {"$date": "2031-03-07T00:00:00.000Z"}}}, "$db": "chat"}
        plan, keys, docs = "COLLSCAN", 0, rng.randrange(400_000, 9_000_000)
    else:
        cmd, plan = {"messages": ({"find": "messages", "filter": {"threadId": oid}, "sort": {"ts": -1}, "limit": 50, "$db": "chat"},
                                  "IXSCAN { threadId: 1, ts: -1 }"),
                     "threads": ({"find": "threads", "filter": {"members": f"u-{rng.randrange(100000, 999999)}", "archived": False},
                                  "sort": {"lastMessageAt": -1}, "limit": 20, "$db": "chat"}, "IXSCAN { members: 1, lastMessageAt: -1 }"),
                     "read_receipts": ({"update": "read_receipts", "ordered": True, "$db": "chat"}, "IXSCAN { threadId: 1, userId: 1 }"),
                     "attachments": ({"find": "attachments", "filter": {"messageId": oid}, "$db": "chat"}, "IXSCAN { messageId: 1 }"),
                     "presence": ({"findAndModify": "presence", "query": {"_id": f"u-{rng.randrange(100000, 999999)}"}, "$db": "chat"},
                                  "IDHACK"),
                     "user_prefs": ({"find": "user_prefs", "filter": {"_id": f"u-{rng.randrange(100000, 999999)}"}, "$db": "chat"},
                                    "IDHACK"),
                     "audit": ({"insert": "audit", "ordered": False, "$db": "chat"}, "")}[coll]
        keys = 1 if plan == "IDHACK" else rng.randrange(1, 400)
        docs = keys if plan == "IDHACK" else keys + rng.randrange(0, 50)
    attr = {"type": "command", "ns": ns, "appName": app, "command": cmd}
    if plan:
        attr["planSummary"] = plan
    attr.update({"keysExamined": keys, "docsExamined": docs, "numYields": rng.randrange(0, 60), "nreturned": rng.randrange(0, 51),
                 "queryHash": hexid(rng, 8).upper(), "queryFramework": "classic", "reslen": rng.randrange(200, 60000),
                 "storage": {"data": {"bytesRead": rng.randrange(0, 9_000_000), "timeReadingMicros": rng.randrange(0, ms * 900)}},
                 "remote": f"{MONGO_APPS[app][0]}:{port}", "protocol": "op_msg", "durationMillis": ms})
    return attr


def mongo_log(rng, node):
    out = []

    def log(t, *a, **k):
        out.append((t, len(out), mongo_line(t, *a, **k)))

    a = node == "a"
    # checkpoints every minute
    t = at("01:00:41.207" if a else "01:00:17.918")
    snap = rng.randrange(80_000_000, 90_000_000)
    while t < at("04:00:00"):
        snap += rng.randrange(1000, 9000)
        e = int(t.timestamp())
        log(t, "I", "WTCHKPT", 22430, "Checkpointer", "WiredTiger message",
            {"message": {"ts_sec": e, "ts_usec": t.microsecond, "thread": f"1187:0x7f3a2c1fe640",
                         "session_name": "WT_SESSION.checkpoint", "category": "WT_VERB_CHECKPOINT_PROGRESS", "category_id": 6,
                         "verbose_level": "DEBUG_1", "verbose_level_id": 1,
                         "msg": f"saving checkpoint snapshot min: {snap}, snapshot max: {snap} snapshot count: 0, oldest timestamp: "
                                f"({e - 300}, 1) , meta checkpoint timestamp: ({e}, 1) base write gen: {snap // 31}"}})
        t += timedelta(seconds=60, milliseconds=rng.randrange(0, 40))
    # slow queries
    if a:
        spec = {"chat.messages": 88, "chat.threads": 66, "chat.read_receipts": 41, "chat.attachments": 24, "chat.presence": 13,
                "chat.user_prefs": 9}
        collscans = ([("retention-job", "chat.attachments")] * 18 + [("retention-job", "chat.messages")] * 5
                     + [("MongoDB Compass", "chat.messages")] * 4 + [("MongoDB Compass", "chat.threads")] * 5
                     + [("chat-gw", "chat.presence")] * 4)
        stall = [("chat.threads", "03:40:21.118", 9114), ("chat.read_receipts", "03:40:29.902", 14455),
                 ("chat.threads", "03:40:38.441", 12083), ("chat.read_receipts", "03:40:47.015", 11270),
                 ("chat.threads", "03:40:55.730", 10391), ("chat.read_receipts", "03:41:04.386", 13602)]
    else:
        spec = {"chat.messages": 47, "chat.read_receipts": 36, "chat.threads": 29, "chat.presence": 21, "chat.audit": 15,
                "chat.attachments": 9, "chat.user_prefs": 6}
        collscans = [("retention-job", "chat.attachments")] * 9 + [("MongoDB Compass", "chat.messages")] * 2
        stall = []
    qs = []
    for app, ns in collscans:
        qs.append({"ns": ns, "app": app, "scan": True, "ms": None, "t": None})
    for ns, k, ms in [(ns, hms, ms) for ns, hms, ms in stall]:
        qs.append({"ns": ns, "app": "chat-gw" if ns == "chat.threads" else "chat-fanout-consumer", "scan": False, "ms": ms, "t": at(k)})
    for ns, k in spec.items():
        have = sum(1 for q in qs if q["ns"] == ns)
        for _ in range(k - have):
            app = {"chat.read_receipts": "chat-fanout-consumer", "chat.audit": "chat-audit-sink"}.get(ns, "chat-gw")
            qs.append({"ns": ns, "app": app, "scan": False, "ms": None, "t": None})
    assert {ns: sum(1 for q in qs if q["ns"] == ns) for ns in spec} == spec
    if a:
        msgs = [q for q in qs if q["ns"] == "chat.messages"]
        vals = mean_to(rng, [rng.randrange(100, 700) for _ in msgs], 287 * len(msgs), 100, 1500, 20)
        for q, v in zip(msgs, vals):
            q["ms"] = v
        for q in qs:
            if q["ms"] is None:
                q["ms"] = rng.randrange(800, 6000) if q["scan"] else rng.randrange(100, 3000)
            if q["t"] is None:
                q["t"] = rtime(rng, "01:00:10", "03:40:15")
    else:
        free = [q for q in qs if q["ms"] is None]
        top = free[-1]
        top["ms"] = 8233
        vals = plateau_values(rng, [8233], len(qs), 90, 1460,
                              lambda: rng.choice([rng.randrange(100, 400), rng.randrange(100, 1459)]),
                              lambda: rng.randrange(1461, 7900))
        for q, v in zip(free[:-1], vals):
            q["ms"] = v
        for i, q in enumerate(qs):
            q["t"] = rtime(rng, "01:00:10", "03:41:05") if (q["app"] != "chat-gw" and i % 2) or q["scan"] else \
                rtime(rng, "03:41:12", "03:59:50")
        top["t"] = at("03:44:37.662")
    for q in qs:
        log(q["t"], "I", "COMMAND", 51803, f"conn{rng.randrange(181000, 189000)}", "Slow query",
            _slow_attr(rng, q["ns"], q["app"], q["scan"], q["ms"], rng.randrange(32768, 60999)))
    # connections
    n_acc = 187 if a else 212
    cid = rng.randrange(180000, 190000)
    count = rng.randrange(40, 70)
    acc = [rtime(rng, "01:00:05", "03:59:40") for _ in range(n_acc - (0 if a else 40))]
    if not a:
        acc += [rtime(rng, "03:41:10", "03:41:40") for _ in range(40)]
    for t in sorted(acc):
        cid += rng.randrange(1, 30)
        app = rng.choices(list(MONGO_APPS), [8, 3, 1, 1, 1])[0]
        if app == "chat-audit-sink" and a:
            app = "chat-gw"
        ip, drv, ver = MONGO_APPS[app]
        remote = f"{ip}:{rng.randrange(32768, 60999)}"
        u = uuid4(rng)
        count += 1
        log(t, "I", "NETWORK", 22943, "listener", "Connection accepted",
            {"remote": remote, "uuid": {"uuid": {"$uuid": u}}, "connectionId": cid, "connectionCount": count})
        log(t + timedelta(milliseconds=rng.randrange(1, 6)), "I", "NETWORK", 51800, f"conn{cid}", "client metadata",
            {"remote": remote, "client": f"conn{cid}", "negotiatedCompressors": [],
             "doc": {"driver": {"name": drv, "version": ver}, "application": {"name": app}}})
        end = t + timedelta(seconds=rng.randrange(5, 7200))
        if end < at("03:59:55"):
            count -= 1
            log(end, "I", "NETWORK", 22944, f"conn{cid}", "Connection ended",
                {"remote": remote, "uuid": {"uuid": {"$uuid": u}}, "connectionId": cid, "connectionCount": count})
    # the failover
    if a:
        e = at("03:40:26.811")
        log(e, "W", "STORAGE", 22430, "WTJournalFlusher", "WiredTiger message",
            {"message": {"ts_sec": int(e.timestamp()), "ts_usec": e.microsecond, "thread": "1187:0x7f3a2b9f4640",
                         "session_name": "WT_SESSION.log_flush", "category": "WT_VERB_DEFAULT", "category_id": 9,
                         "verbose_level": "WARNING", "verbose_level_id": -2,
                         "msg": "__posix_file_sync:176:/data/db/journal/WiredTigerLog.0000004211: fdatasync took 14213ms"}})
        log(at("03:40:44.306"), "W", "COMMAND", 20525, "conn188123", "Failed to gather storage statistics for slow operation",
            {"opId": 99182231, "error": "lock acquire timeout"})
        log(at("03:41:11.396"), "I", "REPL", 21809, "ReplCoord-7", "Stepping down from primary, because a new term has begun",
            {"term": 58})
        log(at("03:41:11.398"), "I", "REPL", 21358, "ReplCoord-7", "Replica set state transition",
            {"newState": "SECONDARY", "oldState": "PRIMARY"})
        log(at("03:41:11.401"), "I", "REPL", 21343, "RstlKillOpThread", "Starting to kill user operations")
        log(at("03:41:11.409"), "I", "REPL", 21344, "RstlKillOpThread", "Stopped killing user operations")
        log(at("03:41:11.410"), "I", "REPL", 21340, "RstlKillOpThread", "State transition ops metrics",
            {"metrics": {"lastStateTransition": "stepDown", "userOpsKilled": 37, "userOpsRunning": 112}})
    else:
        log(at("03:40:58.702"), "I", "REPL_HB", 23974, "ReplCoord-12", "Heartbeat failed after max retries",
            {"target": "chat-db-a.marrowby.internal:27017", "maxHeartbeatRetries": 2,
             "error": {"code": 202, "codeName": "NetworkInterfaceExceededTimeLimit",
                       "errmsg": "Request 881224 timed out, deadline was 2031-06-05T03:40:58.700+00:00, op was RemoteCommand "
                                 "881224 -- target:[chat-db-a.marrowby.internal:27017] db:admin cmd:{ replSetHeartbeat: \"rs-chat\", "
                                 "configVersion: 12, configTerm: 57, hbv: 1, from: \"chat-db-b.marrowby.internal:27017\", "
                                 "fromId: 1, term: 57 }"}})
        log(at("03:41:09.221"), "I", "REPL", 21438, "ReplCoord-12",
            "Starting an election, since we've seen no PRIMARY in election timeout period", {"electionTimeoutPeriodMillis": 10000})
        log(at("03:41:09.233"), "I", "ELECTION", 21444, "ReplCoord-14", "Dry election run succeeded, running for election",
            {"newTerm": 58})
        log(at("03:41:09.912"), "I", "ELECTION", 21450, "ReplCoord-15", "Election succeeded, assuming primary role", {"term": 58})
        log(at("03:41:09.913"), "I", "REPL", 21358, "ReplCoord-15", "Replica set state transition",
            {"newState": "PRIMARY", "oldState": "SECONDARY"})
        log(at("03:41:10.412"), "I", "REPL", 21331, "OplogApplier-0", "Transition to primary complete; database writes are now permitted")
    return render(out)


def mongo_a(rng):
    return mongo_log(rng, "a")


def mongo_b(rng):
    return mongo_log(rng, "b")


# ---------------------------------------------------------------------------------------
# kube-apiserver-audit.log: Kubernetes audit events (audit.k8s.io/v1, level Metadata, one
# JSON object a line). Planted: 403 x201 (kube-state-metrics 112, 97 of them in 02:10:00-
# 02:24:40 and none other within 02:05-02:10 or 02:25-02:30; prometheus-adapter 63;
# system:anonymous 19; j.marsh 7); patches: argocd-application-controller 99 (deployments
# 74), every node <= 2; deletes: generic-garbage-collector 73 (the last 03:57:31) >
# replicaset-controller 38 > job-controller 22 > r.okonkwo 5 (booking-worker pods,
# 02:39:12-02:39:20); Argo CD creates job booking-migrate-4f7c2 at 02:32:51; h.lindqvist
# execs into data/pg-toolbox-0 at 02:40:48; m.quaye updates clusterrole kube-state-metrics
# at 02:09:31 and 02:24:52.
AUDIT_FILE = "kube-apiserver-audit.log"
K8S_UA = "kubernetes/3b9e41c"


def audit_log(rng):
    out = []
    nodes = sorted({f"ip-10-40-{rng.randrange(16, 48)}-{rng.randrange(2, 250)}.eu-west-2.compute.internal" for _ in range(90)})
    rng.shuffle(nodes)
    nodes = nodes[:68]

    def sa(ns, name):
        return (f"system:serviceaccount:{ns}:{name}", ["system:serviceaccounts", f"system:serviceaccounts:{ns}", "system:authenticated"])

    U = {"argocd": sa("argocd", "argocd-application-controller"), "gc": sa("kube-system", "generic-garbage-collector"),
         "rs": sa("kube-system", "replicaset-controller"), "job": sa("kube-system", "job-controller"),
         "deploy": sa("kube-system", "deployment-controller"), "eps": sa("kube-system", "endpointslice-controller"),
         "ksm": sa("monitoring", "kube-state-metrics"), "adapter": sa("monitoring", "prometheus-adapter"),
         "certm": sa("cert-manager", "cert-manager"), "dns": sa("kube-system", "external-dns"), "karp": sa("karpenter", "karpenter"),
         "coredns": sa("kube-system", "coredns"), "lbc": sa("kube-system", "aws-load-balancer-controller"),
         "fluent": sa("logging", "fluent-bit"),
         "sched": ("system:kube-scheduler", ["system:authenticated"]), "kcm": ("system:kube-controller-manager", ["system:authenticated"]),
         "anon": ("system:anonymous", ["system:unauthenticated"])}
    for h in ["h.lindqvist", "r.okonkwo", "m.quaye", "j.marsh", "s.achebe"]:
        U[h] = (f"{h}@marrowby.example", ["sre" if h != "j.marsh" else "developers", "system:authenticated"])
    IP = {"argocd": "10.40.11.7", "ksm": "10.40.11.23", "adapter": "10.40.11.24", "certm": "10.40.11.31", "dns": "10.40.11.33",
          "karp": "10.40.11.40", "coredns": "10.40.11.12", "lbc": "10.40.11.18", "fluent": "10.40.11.51", "anon": "198.51.100.203"}
    UA = {"argocd": "argocd-application-controller/v3.2.1 (linux/amd64) kubernetes/$Format",
          "ksm": f"kube-state-metrics/v2.17.0 (linux/amd64) {K8S_UA}", "adapter": f"prometheus-adapter/v0.13.0 (linux/amd64) {K8S_UA}",
          "certm": "cert-manager-controller/v1.19.2 (linux/amd64) cert-manager/8a1c0f2", "dns": "external-dns/0.17.0",
          "karp": f"karpenter/v1.8.1 (linux/amd64) {K8S_UA}", "coredns": f"coredns/v1.12.4 (linux/amd64) {K8S_UA}",
          "lbc": f"aws-load-balancer-controller/v2.14.0 (linux/amd64) {K8S_UA}", "fluent": "fluent-bit/4.1.0",
          "anon": "Go-http-client/1.1", "sched": f"kube-scheduler/v1.36.2 (linux/amd64) {K8S_UA}/scheduler",
          "kcm": f"kube-controller-manager/v1.36.2 (linux/amd64) {K8S_UA}/leader-election"}

    def event(t, who, verb, obj, code=200, uri=None, stage="ResponseComplete", ip=None, ua=None, user=None):
        user, groups = user or U[who]
        if ip is None:
            ip = IP.get(who, "172.16.44.10" if who in ("gc", "rs", "job", "deploy", "eps", "sched", "kcm") else
                        f"10.50.{rng.randrange(1, 8)}.{rng.randrange(2, 250)}")
        if ua is None:
            ua = UA.get(who) or (f"kube-controller-manager/v1.36.2 (linux/amd64) {K8S_UA}/{user.rsplit(':', 1)[1]}"
                                 if user.startswith("system:serviceaccount:kube-system") else
                                 f"kubectl/v1.36.0 (darwin/arm64) {K8S_UA}")
        res, ns, name, group, sub = obj
        if uri is None:
            base = f"/apis/{group}/v1" if group else "/api/v1"
            uri = base + (f"/namespaces/{ns}" if ns else "") + f"/{res}" + (f"/{name}" if name else "") + (f"/{sub}" if sub else "")
            if verb == "watch":
                uri += f"?allowWatchBookmarks=true&resourceVersion={rng.randrange(10**8, 10**9)}&timeout=8m{rng.randrange(0, 60)}s&watch=true"
        ref = {"resource": res}
        if ns:
            ref["namespace"] = ns
        if name:
            ref["name"] = name
        if group:
            ref["apiGroup"] = group
        ref["apiVersion"] = "v1"
        if sub:
            ref["subresource"] = sub
        if code == 403:
            scope = f'in the namespace "{ns}"' if ns else "at the cluster scope"
            what = f'{res}{"." + group if group else ""}'
            msg = (f'{what}{" " + json.dumps(name) if name else ""} is forbidden: User "{user}" cannot {verb} resource "{res}" '
                   f'in API group "{group}" {scope}')
            status = {"metadata": {}, "status": "Failure", "message": msg, "reason": "Forbidden", "details": {"kind": res}, "code": 403}
            ann = {"authorization.k8s.io/decision": "forbid", "authorization.k8s.io/reason": ""}
        else:
            status = {"metadata": {}, "code": code}
            ann = {"authorization.k8s.io/decision": "allow", "authorization.k8s.io/reason": ""}
        done = t + timedelta(microseconds=rng.randrange(900, 40000))
        d = {"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "Metadata", "auditID": uuid4(rng), "stage": stage,
             "requestURI": uri, "verb": verb, "user": {"username": user, "groups": groups}, "sourceIPs": [ip], "userAgent": ua,
             "objectRef": ref, "responseStatus": status,
             "requestReceivedTimestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "stageTimestamp": done.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
             "annotations": ann}
        out.append((t, len(out), json.dumps(d, separators=(",", ":"))))

    everywhere = ("01:00:05", "03:59:55")

    def pod(ns, app):
        return f"{app}-{hexid(rng, 9)[:9]}-{hexid(rng, 5)}" if rng.random() < 0.8 else f"{app}-{hexid(rng, 5)}"

    apps = [("booking", "booking-api"), ("booking", "booking-worker"), ("chat", "chat-gw"), ("chat", "chat-fanout-consumer"),
            ("video", "video-sig"), ("monitoring", "node-exporter"), ("logging", "fluent-bit"), ("payments", "payments-api")]
    # 403s
    for i in range(112):
        t = rtime(rng, "02:10:00", "02:24:40") if i < 97 else rtime_in(rng, [("01:00:30", "02:05:00"), ("02:30:00", "03:59:30")])
        res = rng.choice(["secrets", "configmaps", "leases", "persistentvolumeclaims"])
        event(t, "ksm", "list", (res, None, None, "coordination.k8s.io" if res == "leases" else "", None), 403)
    okish = [("01:00:30", "02:05:00"), ("02:10:00", "02:25:00"), ("02:30:00", "03:59:30")]
    for _ in range(63):
        event(rtime_in(rng, okish), "adapter", "list", ("horizontalpodautoscalers", None, None, "autoscaling", None), 403)
    for _ in range(19):
        event(rtime_in(rng, okish), "anon", "list", ("secrets", "kube-system", None, "", None), 403)
    for _ in range(7):
        event(rtime_in(rng, okish), "j.marsh", "get", ("secrets", "payments", f"stripe-{rng.choice(['live', 'webhook'])}-key", "", None),
              403)
    # the RBAC change and its fix
    for t in ("02:09:31.204", "02:24:52.617"):
        event(at(t), "m.quaye", "update", ("clusterroles", None, "kube-state-metrics", "rbac.authorization.k8s.io", None))
    # patches: argocd 99 (deployments 74); nodes patch their status
    for res, k in [("deployments", 74), ("configmaps", 14), ("services", 11)]:
        for _ in range(k):
            ns_app = rng.choice(apps[:5] + apps[7:])
            group = "apps" if res == "deployments" else ""
            name = ns_app[1] if res != "configmaps" else ns_app[1] + "-config"
            event(rtime(*[rng, *everywhere]), "argocd", "patch", (res, ns_app[0], name, group, None))
    for node in nodes:
        for _ in range(rng.choice([1, 1, 2])):
            event(rtime(rng, *everywhere), None, "patch", ("nodes", None, node, "", "status"),
                  user=(f"system:node:{node}", ["system:nodes", "system:authenticated"]),
                  ip=node[3:].split(".")[0].replace("-", "."), ua=f"kubelet/v1.36.2 (linux/amd64) {K8S_UA}")
    # deletes
    for i in range(73):
        t = at("03:57:31.604") if i == 0 else rtime(rng, "01:00:30", "03:57:00")
        ns, app = rng.choice(apps)
        res = rng.choice(["pods", "replicasets"])
        event(t, "gc", "delete", (res, ns, pod(ns, app) if res == "pods" else f"{app}-{hexid(rng, 9)}", "apps" if res == "replicasets"
                                  else "", None))
    for _ in range(38):
        ns, app = rng.choice(apps[:5])
        event(rtime(rng, "01:00:30", "03:57:00"), "rs", "delete", ("pods", ns, pod(ns, app), "", None))
    for _ in range(22):
        event(rtime(rng, "01:00:30", "03:57:00"), "job", "delete", ("pods", "booking", f"reminder-sweep-2906{rng.randrange(10, 99)}-"
                                                                                      f"{hexid(rng, 5)}", "", None))
    for i in range(5):
        event(at("02:39:12.118") + timedelta(seconds=2 * i, milliseconds=rng.randrange(0, 900)), "r.okonkwo", "delete",
              ("pods", "booking", pod("booking", "booking-worker"), "", None))
    # the migration job, the exec
    event(at("02:32:51.340"), "argocd", "create", ("jobs", "booking", "booking-migrate-4f7c2", "batch", None), 201)
    event(at("02:32:51.902"), "job", "create", ("pods", "booking", "booking-migrate-4f7c2-xk2pz", "", None), 201)
    event(at("02:32:52.015"), "sched", "create", ("pods", "booking", "booking-migrate-4f7c2-xk2pz", "", "binding"), 201)
    event(at("02:40:29.551"), "h.lindqvist", "list", ("pods", "data", None, "", None), ip="10.50.4.61")
    event(at("02:40:48.207"), "h.lindqvist", "create", ("pods", "data", "pg-toolbox-0", "", "exec"), 101,
          uri="/api/v1/namespaces/data/pods/pg-toolbox-0/exec?command=psql&command=-h&command=pg-main-1.marrowby.internal"
              "&command=-U&command=postgres&container=toolbox&stdin=true&stdout=true&tty=true",
          stage="ResponseStarted", ip="10.50.4.61")
    # background
    for _ in range(40):
        ns, app = rng.choice(apps[:5])
        p = pod(ns, app)
        t = rtime(rng, *everywhere)
        event(t, "rs", "create", ("pods", ns, None, "", None), 201)
        event(t + timedelta(milliseconds=rng.randrange(5, 60)), "sched", "create", ("pods", ns, p, "", "binding"), 201)
    bg = [("deploy", "update", ("deployments", "*", "*", "apps", "status"), 20),
          ("eps", "update", ("endpointslices", "*", "*", "discovery.k8s.io", None), 24),
          ("coredns", "watch", ("endpointslices", None, None, "discovery.k8s.io", None), 15),
          ("certm", "get", ("secrets", "*", "*-tls", "", None), 20), ("certm", "update", ("certificates", "*", "*-tls", "cert-manager.io", "status"), 8),
          ("dns", "list", ("services", None, None, "", None), 15), ("karp", "list", ("nodes", None, None, "", None), 15),
          ("lbc", "get", ("targetgroupbindings", "*", "*", "elbv2.k8s.aws", None), 20), ("fluent", "get", ("pods", "*", "*", "", None), 18),
          ("argocd", "get", ("deployments", "*", "*", "apps", None), 18), ("argocd", "list", ("pods", "*", None, "", None), 12),
          ("kcm", "update", ("leases", "kube-system", "kube-controller-manager", "coordination.k8s.io", None), 18),
          ("s.achebe", "get", ("pods", "*", "*", "", None), 8), ("h.lindqvist", "get", ("pods", "*", "*", "", None), 6),
          ("ksm", "list", ("pods", None, None, "", None), 12), ("adapter", "list", ("pods", None, None, "", None), 10)]
    for who, verb, (res, ns, name, group, sub), k in bg:
        for _ in range(k):
            t = rtime(rng, *everywhere)
            if who in ("ksm",) and at("02:09:00") <= t <= at("02:25:30"):
                continue
            n_s, n_a = rng.choice(apps)
            event(t, who, verb, (res, n_s if ns == "*" else ns, (pod(n_s, n_a) if res == "pods" else
                                                                 name.replace("*", n_a)) if name else None, group, sub))
    return render(out)
