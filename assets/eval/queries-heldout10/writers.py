"""Writers of the `queries-heldout10` fixtures: Brackenfold Ticketing, one night
(2037-02-17 01:00-04:30 UTC), six neighbouring logs. The cross-file schedule (which second
each planted event falls on) is built once at import from its own seed (`SCHED`), so the
same incident lands in the same seconds in every log that sees it. Every writer takes a
`random.Random` for its own noise. Standard library only.
"""

import json
import random
from datetime import datetime, timedelta

DAY = datetime(2037, 2, 17)


def T(h, m=0, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


START, END = T(1), T(4, 30)

# ---------------------------------------------------------------- the night's schedule
# I1: redis cannot fork for its RDB save; writes refused (MISCONF); queue joins fail (500).
FORK_FIRST = T(1, 37, 14, 302_000)
FORK_EVERY_US = 5_050_000
FORK_N = 79
REWRITE = T(1, 43, 58, 731_000)
SAVE_OK = T(1, 44, 2, 118_000)
SAVE_DONE = T(1, 44, 4, 655_000)
I1_FIRST_500 = T(1, 37, 15, 233_000)
I1_LAST_500 = T(1, 44, 1, 870_000)
# I4: kafka broker 3 goes away, broker 2 shrinks its ISRs, seatd's clients cannot connect.
KFK3_DOWN = T(2, 21, 6, 418_000)
KFK3_BACK = T(2, 29, 31, 0)
ISR_PARTS = ["seat-events-1", "seat-events-4", "holds.v1-0", "holds.v1-2", "audit.trail-1"]
# I2: a schema migration waits for AccessExclusiveLock behind a reporting query and every
# seat_hold write queues behind it; seatd's Hikari pool runs dry; holds/checkout get 503.
REPORT_PID, ALTER_PID = 27311, 28001
REPORT_START = T(2, 38, 12, 407_000)
REPORT_END = T(3, 14, 22, 519_000)
ONSALE = T(2, 50, 0, 4_000)
ALTER = T(2, 51, 58, 412_000)
I2_FIRST_WAIT = T(2, 52, 3, 0)
CANCEL = T(3, 2, 41, 266_000)
POOL = list(range(27402, 27418))
STMT_TIMEOUT_US = 30_000_000
# I3: CoreDNS's upstream 10.0.0.2 stops answering; external names SERVFAIL; payments fail.
DNS_FIRST = T(3, 48, 9, 114_000)
RELOAD = T(3, 55, 12, 640_000)
DNS_PEAK_MIN = T(3, 51)
SLOWEST_DNS = T(3, 52, 40, 200_000)
# a seatd rolling restart (noise, well away from the windows asked)
RESTART_DOWN = T(4, 12, 3, 310_000)
RESTART_UP = T(4, 12, 40, 95_000)

SCRAPER, RESELLER, CARRIER = "198.51.100.77", "203.0.113.45", "100.64.12.8"
P_SEAT_NS = 387_000_000       # p95 plateau of GET /api/v3/seatmap
P_QSTAT_NS = 171_000_000      # p95 plateau of GET /api/v3/queue/status
P_TOOK_MS = 640               # p95 plateau of seatd's Hold created took=


def _schedule():
    r = random.Random(1702)
    s = {}
    s["fork"] = [FORK_FIRST + timedelta(microseconds=i * FORK_EVERY_US + r.randint(0, 60_000)) for i in range(FORK_N)]
    span = int((I1_LAST_500 - I1_FIRST_500).total_seconds() * 1e6)
    mid = sorted(I1_FIRST_500 + timedelta(microseconds=r.randint(1, span - 1)) for _ in range(171))
    s["join500"] = [I1_FIRST_500] + mid + [I1_LAST_500]
    # I2: pool connections cycle (statement starts, waits, is cancelled at 30 s), Hikari
    # waiters time out at 30 s, the expiry job fails every ~31 s
    cyc = []
    for k, pid in enumerate(POOL):
        t = I2_FIRST_WAIT + timedelta(microseconds=r.randint(0, 28_000_000))
        while True:
            start = t - timedelta(microseconds=1_000_000 + r.randint(0, 300_000))
            end = start + timedelta(microseconds=STMT_TIMEOUT_US + r.randint(0, 9000))
            if end >= CANCEL:
                cyc.append((pid, start, t, None))
                break
            cyc.append((pid, start, t, end))
            t = end + timedelta(microseconds=1_000_000 + r.randint(50_000, 400_000))
            if t >= CANCEL:
                break
    s["cycles"] = cyc
    lo, hi = T(2, 52, 33, 500_000), CANCEL - timedelta(seconds=1)
    w = int((hi - lo).total_seconds() * 1e6)
    s["hold503"] = sorted(lo + timedelta(microseconds=r.randint(0, w)) for _ in range(247))
    s["checkout503"] = sorted(lo + timedelta(microseconds=r.randint(0, w)) for _ in range(83))
    s["jobfail"] = []
    t = T(2, 52, 40, 11_000)
    while t < CANCEL:
        s["jobfail"].append(t)
        t += timedelta(microseconds=31_000_000 + r.randint(0, 900_000))
    lo, hi = T(3, 48, 11, 20_000), RELOAD - timedelta(seconds=4)
    w = int((hi - lo).total_seconds() * 1e6)
    s["pay502"] = sorted([lo] + [lo + timedelta(microseconds=r.randint(1, w)) for _ in range(96)])
    s["restart502"] = sorted(RESTART_DOWN + timedelta(microseconds=r.randint(100_000, 9_000_000)) for _ in range(7))
    s["restart503"] = sorted(RESTART_DOWN + timedelta(microseconds=r.randint(9_500_000, 35_000_000)) for _ in range(9))
    s["kconn"] = []
    for client in ("seatd-events-1", "seatd-holds-consumer"):
        t = KFK3_DOWN + timedelta(microseconds=r.randint(200_000, 900_000))
        while t < KFK3_BACK - timedelta(seconds=1):
            s["kconn"].append((t, client))
            t += timedelta(microseconds=r.randint(1_800_000, 4_600_000))
    s["kconn"].sort()
    return s


SCHED = _schedule()


def _lines_sorted(items):
    items.sort(key=lambda x: x[0])
    return "".join(text for _, text in items)


def _rand_time(r, lo=START, hi=END):
    return lo + timedelta(microseconds=r.randint(0, int((hi - lo).total_seconds() * 1e6) - 1))


def _fix_mean(vals, idx, unit):
    """Nudges vals[i] (i in idx) so that sum(vals) is a multiple of len(vals) * unit."""
    m = len(vals) * unit
    rem = sum(vals) % m
    per, extra = divmod(rem, len(idx))
    for i in idx:
        vals[i] -= per
    vals[idx[0]] -= extra
    assert sum(vals) % m == 0


# ---------------------------------------------------------------- Caddy (edge-1) JSON access log

UAS = ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1",
       "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36",
       "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.6167.101 Mobile Safari/537.36",
       "Brackenfold/5.3.1 (iOS 17.2; iPhone15,2)", "Brackenfold/5.3.0 (Android 14; SM-S911B)",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15"]
EVENTS = ["E-7781", "E-7702", "E-7690", "E-7815", "E-7644"]


def _tok(r, n=10):
    return "".join(r.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(n))


def _dur(ns):
    s = f"{ns / 1e9:.9f}".rstrip("0").rstrip(".")
    return s if s != "0" else "0"


def caddy_log(r):
    reqs = []  # (ts, ip, method, host, uri, status, ns, size, ua)
    pool = [f"{r.choice([81, 92, 109, 151, 176, 185, 212, 86, 94, 5])}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
            for _ in range(430)]
    pool_ua = {ip: r.choice(UAS) for ip in pool}

    def add(ts, ip, method, host, uri, status, ns, ua, size=None):
        if size is None:
            size = 0 if status == 204 else r.randint(700, 24000)
        reqs.append([ts, ip, method, host, uri, status, ns, size, ua])

    def api_req(ts, ip, ua, kind=None):
        kind = kind or r.choices(["events", "seatmap", "qstat", "join", "holds", "checkout", "static", "root"],
                                 [10, 22, 20, 8, 8, 5, 9, 5])[0]
        if kind == "events":
            add(ts, ip, "GET", "api.brackenfold.example", "/api/v3/events?city=" + r.choice(["leeds", "york", "hull", "bath"]),
                200, r.randint(8, 90) * 1_000_000 + r.randint(0, 999_999), ua)
        elif kind == "seatmap":
            add(ts, ip, "GET", "api.brackenfold.example", f"/api/v3/seatmap?event={r.choice(EVENTS)}", 200, 0, ua)
        elif kind == "qstat":
            add(ts, ip, "GET", "api.brackenfold.example", f"/api/v3/queue/status?token=q_{_tok(r)}", 200, 0, ua)
        elif kind == "join":
            add(ts, ip, "POST", "api.brackenfold.example", "/api/v3/queue/join", 200, r.randint(3, 40) * 1_000_000 + r.randint(0, 999_999), ua)
        elif kind == "holds":
            add(ts, ip, "POST", "api.brackenfold.example", "/api/v3/holds", 201, r.randint(30, 260) * 1_000_000 + r.randint(0, 999_999), ua)
        elif kind == "checkout":
            add(ts, ip, "POST", "api.brackenfold.example", "/api/v3/checkout", 200, 0, ua)
        elif kind == "static":
            st = r.choice([200, 304, 304])
            add(ts, ip, "GET", "tix.brackenfold.example", r.choice(["/static/app.9f3c21.js", "/static/app.41be07.css", "/static/seatmap.wasm"]),
                st, r.randint(300_000, 9_000_000), ua, size=0 if st == 304 else r.randint(30000, 480000))
        else:
            add(ts, ip, "GET", "tix.brackenfold.example", "/", 200, r.randint(2, 15) * 1_000_000 + r.randint(0, 999_999), ua)

    # ordinary fans
    for _ in range(2800):
        ts = _rand_time(r)
        if r.random() < 0.35:
            ts = _rand_time(r, T(2, 45), T(3, 20))
        ip = r.choice(pool)
        api_req(ts, ip, pool_ua[ip])
    # the three heavy clients
    for _ in range(1100):
        ts = _rand_time(r, T(1, 58), T(2, 16))
        add(ts, SCRAPER, "GET", "api.brackenfold.example", f"/api/v3/seatmap?event={r.choice(EVENTS)}", 200, 0, "python-requests/2.31.0")
    for _ in range(700):
        api_req(_rand_time(r), RESELLER, "TixHub-Sync/4.2 (+https://tixhub.example/bot)", r.choice(["events", "seatmap", "seatmap"]))
    for _ in range(470):
        api_req(_rand_time(r), CARRIER, r.choice(UAS[3:5]))
    # health checks of the monitoring box
    t = START + timedelta(microseconds=r.randint(0, 119_000_000))
    while t < END:
        add(t, "10.20.0.5", "GET", "api.brackenfold.example", "/healthz", 200, r.randint(200_000, 900_000), "Blackbox-Exporter/0.24.0", size=2)
        t += timedelta(seconds=120)
    # 404s: junk probes and stale event ids
    for _ in range(117):
        ip = r.choice(pool[:60] + ["45.155.205.9", "45.155.205.9", "193.41.206.3"])
        uri = r.choice(["/wp-login.php", "/.env", "/api/v3/events/E-0000", "/favicon.ico", "/api/v2/seatmap", "/.git/config"])
        add(_rand_time(r), ip, "GET", r.choice(["api.brackenfold.example", "tix.brackenfold.example"]), uri, 404,
            r.randint(150_000, 2_000_000), pool_ua.get(ip, "curl/8.4.0"), size=r.randint(700, 1400))
    # the scraper gets rate-limited: 429s, most in one minute
    sc = [q for q in reqs if q[1] == SCRAPER]
    burst = [q for q in sc if T(2, 7) <= q[0] < T(2, 8)]
    rest = [q for q in sc if not (T(2, 7) <= q[0] < T(2, 8))]
    r.shuffle(rest)
    limited = burst + rest[:283]
    for q in limited:
        q[5], q[6], q[7] = 429, r.randint(90_000, 700_000), r.randint(700, 760)
    # noise 500s elsewhere
    for _ in range(3):
        ip = r.choice(pool)
        add(_rand_time(r, T(3, 20), T(3, 40)), ip, "GET", "api.brackenfold.example", "/api/v3/events?city=york", 500,
            r.randint(5, 30) * 1_000_000, pool_ua[ip], size=812)
    # I1: queue joins fail
    for ts in SCHED["join500"]:
        ip = r.choice(pool)
        add(ts + timedelta(microseconds=r.randint(2000, 9000)), ip, "POST", "api.brackenfold.example", "/api/v3/queue/join", 500,
            r.randint(3_000_000, 9_000_000), pool_ua[ip], size=r.randint(1100, 1190))
    # I2: holds / checkout 503 after 30 s of waiting for a connection, or a cancelled statement
    for key, uri in (("hold503", "/api/v3/holds"), ("checkout503", "/api/v3/checkout")):
        for ts in SCHED[key]:
            ip = r.choice(pool)
            add(ts + timedelta(microseconds=r.randint(1500, 6000)), ip, "POST", "api.brackenfold.example", uri, 503,
                30_000_000_000 + r.randint(1_000_000, 90_000_000), pool_ua[ip], size=r.randint(900, 990))
    for pid, start, waited, end in SCHED["cycles"]:
        if end is not None:
            ip = r.choice(pool)
            add(end + timedelta(microseconds=r.randint(4000, 9000)), ip, "POST", "api.brackenfold.example", "/api/v3/holds", 503,
                int((end - start).total_seconds() * 1e9) + r.randint(3_000_000, 9_000_000), pool_ua[ip], size=r.randint(900, 990))
    # I3: checkout 502 (payment provider name does not resolve)
    for ts in SCHED["pay502"]:
        ip = r.choice(pool)
        add(ts + timedelta(microseconds=r.randint(1500, 6000)), ip, "POST", "api.brackenfold.example", "/api/v3/checkout", 502,
            5_000_000_000 + r.randint(5_000_000, 80_000_000), pool_ua[ip], size=r.randint(1000, 1090))
    # the 04:12 restart: 502 while dialing fails, 503 while no upstream is healthy
    for key, st in (("restart502", 502), ("restart503", 503)):
        for ts in SCHED[key]:
            ip = r.choice(pool)
            add(ts, ip, "GET", "api.brackenfold.example", f"/api/v3/seatmap?event={r.choice(EVENTS)}", st,
                r.randint(1_000_000, 3_000_000), pool_ua[ip], size=0)
    # no other request of the outage minutes succeeds on the broken endpoints
    def broken(q):
        if q[4] == "/api/v3/queue/join" and q[5] == 200:
            return I1_FIRST_500 - timedelta(seconds=3) <= q[0] <= I1_LAST_500 + timedelta(seconds=3)
        if q[4] == "/api/v3/checkout" and q[5] == 200:
            return (T(3, 48, 8) <= q[0] <= RELOAD) or (T(2, 52, 0) <= q[0] <= CANCEL + timedelta(seconds=2))
        if q[4] == "/api/v3/holds" and q[5] == 201:
            return T(2, 52, 0) <= q[0] <= CANCEL + timedelta(seconds=2)
        if q[5] < 500 and q[0] >= RESTART_DOWN and q[0] <= RESTART_UP and q[4].startswith("/api/v3/seatmap"):
            return True
        return False
    reqs = [q for q in reqs if not broken(q)]
    # durations of the asked endpoints, shaped so the figures are unambiguous
    seat = [q for q in reqs if q[2] == "GET" and q[4].startswith("/api/v3/seatmap") and q[5] == 200]
    seat_all = sum(1 for q in reqs if q[2] == "GET" and q[4].startswith("/api/v3/seatmap"))
    r.shuffle(seat)
    a, p = len(seat) * 2 // 100, seat_all * 7 // 100
    for i, q in enumerate(seat):
        if i < a:
            q[6] = r.randint(520_000_000, 1_900_000_000)
        elif i < a + p:
            q[6] = P_SEAT_NS
        else:
            q[6] = r.randint(4_000_000, 300_000_000)
    qs = [q for q in reqs if q[4].startswith("/api/v3/queue/status")]
    r.shuffle(qs)
    a, p = len(qs) * 2 // 100, len(qs) * 6 // 100
    vals = []
    for i in range(len(qs)):
        vals.append(r.randint(200_000_000, 600_000_000) if i < a else P_QSTAT_NS if i < a + p
                    else r.randint(40_000_000, 120_000_000))
    _fix_mean(vals, list(range(a + p, len(qs))), 1_000_000)
    for q, v in zip(qs, vals):
        q[6] = v
    co = [q for q in reqs if q[4] == "/api/v3/checkout" and q[5] == 200]
    vals = [r.randint(150_000_000, 620_000_000) for _ in co]
    _fix_mean(vals, list(range(len(co))), 1_000_000)
    for q, v in zip(co, vals):
        q[6] = v
    out = []
    for ts, ip, method, host, uri, status, ns, size, ua in reqs:
        rec = {"level": "error" if status >= 500 else "info", "ts": ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}Z",
               "logger": "http.log.access.log0", "msg": "handled request",
               "request": {"remote_ip": ip, "remote_port": str(r.randint(1024, 65535)), "client_ip": ip,
                           "proto": "HTTP/1.1" if ua.startswith(("python", "Blackbox", "curl")) else "HTTP/2.0",
                           "method": method, "host": host, "uri": uri,
                           "headers": {"User-Agent": [ua]}},
               "bytes_read": r.randint(120, 900) if method == "POST" else 0, "user_id": "", "duration": 0, "size": size,
               "status": status,
               "resp_headers": {"Server": ["Caddy"]}}
        s = json.dumps(rec, separators=(",", ":"))
        s = s.replace('"duration":0,', f'"duration":{_dur(ns)},')
        out.append((ts, s + "\n"))
    return _lines_sorted(out)


# ---------------------------------------------------------------- Spring Boot (seatd) console log

def _sb(ts, level, thread, logger, msg):
    return (f"{ts.strftime('%Y-%m-%d %H:%M:%S')}.{ts.microsecond // 1000:03d} {level:>5} 1 --- [{thread[-15:]:>15}] "
            f"{logger[:40]:<40} : {msg}\n")


MISCONF = ("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that "
           "may modify the data set are disabled, because this instance is configured to report errors during writes if RDB "
           "snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.")
AT_REDIS = ["\tat io.lettuce.core.internal.ExceptionFactory.createExecutionException(ExceptionFactory.java:147)",
            "\tat io.lettuce.core.internal.ExceptionFactory.createExecutionException(ExceptionFactory.java:116)",
            "\tat io.lettuce.core.protocol.AsyncCommand.completeResult(AsyncCommand.java:120)",
            "\tat io.lettuce.core.protocol.CommandHandler.decode(CommandHandler.java:742)",
            "\tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:569)",
            "\tat java.base/java.lang.Thread.run(Thread.java:840)"]
AT_WEB = ["\tat com.brackenfold.seatd.hold.HoldService.create(HoldService.java:88)",
          "\tat com.brackenfold.seatd.hold.HoldController.create(HoldController.java:54)",
          "\tat org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:883)",
          "\tat org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)",
          "\tat java.base/java.lang.Thread.run(Thread.java:840)"]


def seatd_log(r):
    out = []
    L = lambda ts, *a: out.append((ts, _sb(ts, *a)))  # noqa: E731
    ex = lambda: f"http-nio-8080-exec-{r.randint(1, 200)}"  # noqa: E731

    def block(ts, lines):
        out.append((ts, "".join(x + "\n" for x in lines)))

    # ordinary work: holds created (took= shaped for a clean p95), queue joins, payments
    n_holds = 830
    a, p = n_holds * 2 // 100, n_holds * 6 // 100
    took = [r.randint(900, 2400) if i < a else P_TOOK_MS if i < a + p else r.randint(35, 560) for i in range(n_holds)]
    r.shuffle(took)
    for ms in took:
        ts = _rand_time(r)
        while T(2, 51, 50) <= ts <= CANCEL + timedelta(seconds=1):
            ts = _rand_time(r)
        L(ts, "INFO", ex(), "c.b.seatd.hold.HoldService",
          f"Hold created hold=H-{_tok(r, 8)} event={r.choice(EVENTS)} seats={r.randint(1, 6)} took={ms}ms")
    for _ in range(260):
        ts = _rand_time(r)
        if T(3, 48, 5) <= ts <= RELOAD:
            continue
        L(ts, "INFO", ex(), "c.b.seatd.pay.PaystreamClient",
          f"Authorized order=O-{r.randint(100000, 999999)} amount={r.randint(20, 400)}.{r.randint(0, 99):02d} GBP psp_ref=ps_{_tok(r, 14)}")
    t = START + timedelta(seconds=r.randint(1, 50))
    while t < END:
        L(t, "INFO", "scheduling-1", "c.b.seatd.hold.HoldExpiryJob", f"Expired {r.randint(0, 40)} holds, released {r.randint(0, 90)} seats")
        t += timedelta(seconds=60, microseconds=r.randint(0, 40_000))
    for _ in range(14):
        L(_rand_time(r), "WARN", ex(), "o.s.web.servlet.PageNotFound", "No mapping for GET /api/v3/events/E-0000")
    L(T(1, 20, 11, 3000), "WARN", "HikariPool-1 housekeeper", "com.zaxxer.hikari.pool.HikariPool",
      "HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=1m4s54ms).")
    L(ONSALE, "INFO", "scheduling-1", "c.b.seatd.onsale.OnsaleScheduler", "Onsale opened event=E-7781 inventory=18400 queue_rate=600/min")
    # noise errors of another controller
    for _ in range(3):
        ts = _rand_time(r, T(3, 20), T(3, 40))
        L(ts, "ERROR", ex(), "c.b.seatd.event.EventController", "Listing failed city=york")
        block(ts, ["java.lang.NullPointerException: Cannot invoke \"com.brackenfold.seatd.event.Venue.getCity()\" because \"venue\" is null",
                   "\tat com.brackenfold.seatd.event.EventController.list(EventController.java:71)"] + AT_WEB[2:])
    # I1
    for ts in SCHED["join500"]:
        L(ts, "ERROR", ex(), "c.b.seatd.queue.QueueTokenStore", f"Queue join failed token=q_{_tok(r)} event=E-7702")
        block(ts, ["org.springframework.data.redis.RedisSystemException: Error in execution; nested exception is "
                   "io.lettuce.core.RedisCommandExecutionException: " + MISCONF,
                   "\tat org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter.convert(LettuceExceptionConverter.java:54)",
                   "\tat com.brackenfold.seatd.queue.QueueTokenStore.join(QueueTokenStore.java:63)",
                   "Caused by: io.lettuce.core.RedisCommandExecutionException: " + MISCONF] + AT_REDIS)
    # I4: kafka clients cannot reach broker 3
    L(KFK3_DOWN - timedelta(microseconds=51_000), "WARN", "kafka-producer-network-thread | seatd-events-1",
      "org.apache.kafka.clients.NetworkClient", "[Producer clientId=seatd-events-1] Node 3 disconnected.")
    for ts, client in SCHED["kconn"]:
        kind = "Producer clientId=seatd-events-1" if client == "seatd-events-1" else \
            "Consumer clientId=seatd-holds-consumer-1, groupId=seatd-holds"
        thread = "kafka-producer-network-thread | seatd-events-1" if client == "seatd-events-1" else "ntainer#0-0-C-1"
        L(ts, "WARN", thread, "org.apache.kafka.clients.NetworkClient",
          f"[{kind}] Connection to node 3 (kfk-3.brackenfold.internal/10.20.4.13:9092) could not be established. Broker may not be available.")
    L(T(2, 21, 21, 870_000), "INFO", "ntainer#0-0-C-1", "o.a.k.c.c.internals.ConsumerCoordinator",
      "[Consumer clientId=seatd-holds-consumer-1, groupId=seatd-holds] Request joining group due to: group is already rebalancing")
    # I2
    for pid, start, waited, end in SCHED["cycles"]:
        if end is not None:
            L(end, "WARN", ex(), "o.h.engine.jdbc.spi.SqlExceptionHelper", "SQL Error: 0, SQLState: 57014")
            L(end + timedelta(microseconds=300), "ERROR", ex(), "o.h.engine.jdbc.spi.SqlExceptionHelper",
              "ERROR: canceling statement due to statement timeout")
    for key, logger, msg in (("hold503", "c.b.seatd.hold.HoldController", "Hold request failed event=E-7781 seats={}"),
                             ("checkout503", "c.b.seatd.checkout.CheckoutController", "Checkout failed order=O-{}")):
        for ts in SCHED[key]:
            L(ts, "ERROR", ex(), logger, msg.format(r.randint(1, 6) if key == "hold503" else r.randint(100000, 999999)))
            block(ts, ["org.springframework.transaction.CannotCreateTransactionException: Could not open JPA EntityManager for "
                       "transaction; nested exception is org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC Connection",
                       "\tat org.springframework.orm.jpa.JpaTransactionManager.doBegin(JpaTransactionManager.java:467)"] + AT_WEB +
                  ["Caused by: org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC Connection",
                   "\tat org.hibernate.exception.internal.SQLStateConversionDelegate.convert(SQLStateConversionDelegate.java:112)",
                   "Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms.",
                   "\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:696)",
                   "\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:181)",
                   "\t... 58 common frames omitted"])
    for ts in SCHED["jobfail"]:
        L(ts, "ERROR", "scheduling-1", "o.s.s.s.TaskUtils$LoggingErrorHandler", "Unexpected error occurred in scheduled task")
        block(ts, ["org.springframework.transaction.CannotCreateTransactionException: Could not open JPA EntityManager for transaction",
                   "\tat com.brackenfold.seatd.hold.HoldExpiryJob.run(HoldExpiryJob.java:39)",
                   "Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms.",
                   "\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:696)",
                   "\t... 21 common frames omitted"])
    # I3
    for ts in SCHED["pay502"]:
        L(ts, "ERROR", ex(), "c.b.seatd.pay.PaystreamClient", f"Authorize failed order=O-{r.randint(100000, 999999)}")
        block(ts, ['org.springframework.web.client.ResourceAccessException: I/O error on POST request for '
                   '"https://api.paystream.example/v2/authorize": api.paystream.example; nested exception is '
                   'java.net.UnknownHostException: api.paystream.example',
                   "\tat org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:791)",
                   "\tat com.brackenfold.seatd.pay.PaystreamClient.authorize(PaystreamClient.java:102)",
                   "Caused by: java.net.UnknownHostException: api.paystream.example",
                   "\tat java.base/java.net.InetAddress$CachedAddresses.get(InetAddress.java:801)",
                   "\tat java.base/java.net.InetAddress.getAllByName0(InetAddress.java:1533)",
                   "\t... 77 common frames omitted"])
    # the restart
    L(RESTART_DOWN - timedelta(seconds=2), "INFO", "SpringApplicationShutdownHook", "o.s.b.w.e.tomcat.GracefulShutdown",
      "Commencing graceful shutdown. Waiting for active requests to complete")
    L(RESTART_DOWN - timedelta(seconds=1), "INFO", "tomcat-shutdown", "o.s.b.w.e.tomcat.GracefulShutdown", "Graceful shutdown complete")
    L(RESTART_DOWN, "INFO", "SpringApplicationShutdownHook", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Shutdown initiated...")
    L(RESTART_DOWN + timedelta(microseconds=40_000), "INFO", "SpringApplicationShutdownHook", "com.zaxxer.hikari.HikariDataSource",
      "HikariPool-1 - Shutdown completed.")
    up = RESTART_UP - timedelta(seconds=21, microseconds=700_000)
    L(up, "INFO", "main", "c.b.seatd.SeatdApplication",
      "Starting SeatdApplication v2.14.3 using Java 17.0.9 on seatd-7c9f8d-xk2lp with PID 1 (/app/seatd.jar started by app in /app)")
    L(up + timedelta(microseconds=3000), "INFO", "main", "c.b.seatd.SeatdApplication", 'The following 1 profile is active: "prod"')
    L(up + timedelta(seconds=6), "INFO", "main", "o.s.b.w.embedded.tomcat.TomcatWebServer", "Tomcat initialized with port(s): 8080 (http)")
    L(up + timedelta(seconds=9), "INFO", "main", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Starting...")
    L(up + timedelta(seconds=9, microseconds=400_000), "INFO", "main", "com.zaxxer.hikari.HikariDataSource", "HikariPool-1 - Start completed.")
    L(RESTART_UP - timedelta(microseconds=30_000), "INFO", "main", "o.s.b.w.embedded.tomcat.TomcatWebServer",
      "Tomcat started on port(s): 8080 (http) with context path ''")
    L(RESTART_UP, "INFO", "main", "c.b.seatd.SeatdApplication", "Started SeatdApplication in 21.7 seconds (JVM running for 23.114)")
    return _lines_sorted(out)


# ---------------------------------------------------------------- PostgreSQL (pg-seats-1) stderr log
# log_line_prefix = '%m [%p] %q%u@%d ', log_connections/disconnections on, log_lock_waits on,
# log_statement = 'ddl', log_min_duration_statement = 250ms, log_checkpoints on.

def _pgts(ts):
    return f"{ts.strftime('%Y-%m-%d %H:%M:%S')}.{ts.microsecond // 1000:03d} UTC"


HOLD_SQL = "INSERT INTO seat_hold (hold_id, event_id, seat_id, session_id, expires_at) VALUES ($1, $2, $3, $4, $5)"


def postgres_log(r):
    out = []

    def L(ts, pid, who, sev, msg):
        out.append((ts, f"{_pgts(ts)} [{pid}] {who + ' ' if who else ''}{sev}:  {msg}\n"))

    next_pid = [21000]

    def newpid():
        next_pid[0] += r.randint(3, 40)
        while next_pid[0] in POOL or next_pid[0] in (REPORT_PID, ALTER_PID):
            next_pid[0] += 1
        return next_pid[0]

    def session(ts, user, app, host, length_s):
        pid = newpid()
        port = r.randint(32768, 60999)
        L(ts, pid, "[unknown]@[unknown]", "LOG", f"connection received: host={host} port={port}")
        L(ts + timedelta(microseconds=r.randint(2000, 9000)), pid, f"{user}@seats", "LOG",
          f"connection authorized: user={user} database=seats application_name={app}")
        end = ts + timedelta(seconds=length_s, microseconds=r.randint(0, 999_999))
        if end < END:
            sl = end - ts
            L(end, pid, f"{user}@seats", "LOG",
              f"disconnection: session time: {sl.seconds // 3600}:{sl.seconds // 60 % 60:02d}:{sl.seconds % 60:02d}.{sl.microseconds // 1000:03d} "
              f"user={user} database=seats host={host} port={port}")
        return pid

    t = START + timedelta(seconds=r.randint(0, 29))
    while t < END:
        session(t, "grafana_ro", "Grafana", "10.20.5.9", 0)
        t += timedelta(seconds=30, microseconds=r.randint(0, 200_000))
    seatd_pids = []
    t = START + timedelta(seconds=r.randint(30, 400))
    while t < END:
        seatd_pids.append(session(t, "seatd", "PostgreSQL JDBC Driver", f"10.20.3.{r.randint(40, 49)}", r.randint(1700, 1800)))
        t += timedelta(seconds=r.randint(90, 140))
    for _ in range(71):
        session(_rand_time(r), "reporting", "Metabase", "10.20.6.2", r.randint(1, 50))
    for _ in range(6):
        session(_rand_time(r), "postgres", "psql", "10.20.0.8", r.randint(30, 600))
    # the long reporting query and the migration
    L(REPORT_START - timedelta(microseconds=9000), REPORT_PID, "[unknown]@[unknown]", "LOG", "connection received: host=10.20.6.2 port=50412")
    L(REPORT_START - timedelta(microseconds=4000), REPORT_PID, "reporting@seats", "LOG",
      "connection authorized: user=reporting database=seats application_name=Metabase")
    L(ALTER - timedelta(microseconds=812_000), ALTER_PID, "[unknown]@[unknown]", "LOG", "connection received: host=10.20.7.14 port=41777")
    L(ALTER - timedelta(microseconds=807_000), ALTER_PID, "flyway@seats", "LOG",
      "connection authorized: user=flyway database=seats application_name=Flyway by Redgate")
    alter_sql = "ALTER TABLE seat_hold ADD COLUMN resale_ref text"
    L(ALTER, ALTER_PID, "flyway@seats", "LOG", f"statement: {alter_sql}")
    w = ALTER + timedelta(microseconds=1_000_104)
    L(w, ALTER_PID, "flyway@seats", "LOG",
      f"process {ALTER_PID} still waiting for AccessExclusiveLock on relation 16421 of database 16384 after 1000.104 ms")
    L(w, ALTER_PID, "flyway@seats", "DETAIL", f"Process holding the lock: {REPORT_PID}. Wait queue: {ALTER_PID}.")
    L(w, ALTER_PID, "flyway@seats", "STATEMENT", alter_sql)
    for pid, start, waited, end in SCHED["cycles"]:
        ms = (waited - start).total_seconds() * 1000
        L(waited, pid, "seatd@seats", "LOG",
          f"process {pid} still waiting for RowExclusiveLock on relation 16421 of database 16384 after {ms:.3f} ms")
        L(waited, pid, "seatd@seats", "DETAIL", f"Process holding the lock: {REPORT_PID}. Wait queue: {ALTER_PID}, {pid}.")
        L(waited, pid, "seatd@seats", "STATEMENT", HOLD_SQL)
        if end is not None:
            L(end, pid, "seatd@seats", "ERROR", "canceling statement due to statement timeout")
            L(end, pid, "seatd@seats", "STATEMENT", HOLD_SQL)
    L(CANCEL, ALTER_PID, "flyway@seats", "ERROR", "canceling statement due to user request")
    L(CANCEL, ALTER_PID, "flyway@seats", "STATEMENT", alter_sql)
    L(CANCEL + timedelta(microseconds=9000), ALTER_PID, "flyway@seats", "LOG",
      "disconnection: session time: 0:10:43.663 user=flyway database=seats host=10.20.7.14 port=41777")
    durations = []  # (ts, pid, who, ms_us, sql)
    for pid, start, waited, end in SCHED["cycles"]:
        if end is None:
            done = CANCEL + timedelta(microseconds=r.randint(2000, 60_000))
            durations.append([done, pid, "seatd", int((done - start).total_seconds() * 1e6), HOLD_SQL])
    durations.append([REPORT_END, REPORT_PID, "reporting", int((REPORT_END - REPORT_START).total_seconds() * 1e6),
                      "SELECT e.event_id, count(*) AS holds, sum(h.seats) FROM seat_hold h JOIN event e USING (event_id) "
                      "GROUP BY 1 ORDER BY 2 DESC"])
    L(REPORT_END + timedelta(microseconds=40_000), REPORT_PID, "reporting@seats", "LOG",
      "disconnection: session time: 0:36:10.151 user=reporting database=seats host=10.20.6.2 port=50412")
    # ordinary slow statements
    sqls = ["SELECT s.seat_id, s.row_label, s.price_band FROM seat s WHERE s.event_id = $1 AND s.state = 'free'",
            "UPDATE seat SET state = 'sold', order_id = $1 WHERE seat_id = ANY($2)",
            HOLD_SQL, "DELETE FROM seat_hold WHERE expires_at < now() RETURNING seat_id"]
    norm = []
    for _ in range(640):
        ts = _rand_time(r)
        if T(2, 51, 55) <= ts <= CANCEL + timedelta(seconds=1):
            continue
        norm.append([ts, r.choice(seatd_pids[:5] + POOL), "seatd", r.randint(251_000, 2_400_000), r.choice(sqls)])
    for _ in range(37):
        norm.append([_rand_time(r), newpid(), "reporting", r.randint(300_000, 9_000_000),
                     "SELECT date_trunc('hour', created_at), count(*) FROM orders GROUP BY 1"])
    allsd = [d for d in norm + durations if d[2] == "seatd"]
    vals = [d[3] for d in allsd]
    idx = [i for i, d in enumerate(allsd) if d in norm]
    _fix_mean(vals, idx, 1000)
    for d, v in zip(allsd, vals):
        d[3] = v
    for ts, pid, user, us, sql in norm + durations:
        L(ts, pid, f"{user}@seats", "LOG", f"duration: {us / 1000:.3f} ms  statement: {sql}")
    # lock waits far from the incident (vacuum / a manual fix)
    for base, n in ((T(1, 20, 40), 3), (T(4, 14, 5), 2)):
        for k in range(n):
            pid = r.choice(POOL)
            ts = base + timedelta(seconds=k * 3, microseconds=r.randint(0, 500_000))
            L(ts, pid, "seatd@seats", "LOG",
              f"process {pid} still waiting for ShareLock on transaction {88123400 + k} after {1000 + r.random():.3f} ms")
            L(ts, pid, "seatd@seats", "DETAIL", f"Process holding the lock: {21033 + k}. Wait queue: {pid}.")
            L(ts, pid, "seatd@seats", "CONTEXT", f"while updating tuple (41,{k + 7}) in relation \"seat\"")
            L(ts, pid, "seatd@seats", "STATEMENT", sqls[1])
    # checkpoints
    t = START + timedelta(seconds=r.randint(5, 200))
    cps = []
    while t < END - timedelta(minutes=5):
        total_ms = r.randint(269_100, 270_300)
        if T(2, 48) <= t <= T(3, 8):
            total_ms = r.randint(180_000, 269_000)
        cps.append([t, total_ms])
        t += timedelta(minutes=5)
    vals = [c[1] for c in cps]
    _fix_mean(vals, list(range(len(vals))), 1)
    tot = sum(vals)
    m = tot // len(vals)
    for c, v in zip(cps, vals):
        c[1] = v
    cp_pid = 1187
    for t, total_ms in cps:
        L(t, cp_pid, "", "LOG", "checkpoint starting: time")
        bufs = r.randint(900, 9000)
        write_ms = total_ms - r.randint(8, 60)
        sync_ms = total_ms - write_ms - 1
        L(t + timedelta(milliseconds=total_ms), cp_pid, "", "LOG",
          f"checkpoint complete: wrote {bufs} buffers ({bufs / 16384 * 100:.1f}%); 0 WAL file(s) added, 0 removed, "
          f"{r.randint(0, 4)} recycled; write={write_ms / 1000:.3f} s, sync={sync_ms / 1000:.3f} s, total={total_ms / 1000:.3f} s; "
          f"sync files={r.randint(10, 80)}, longest=0.00{r.randint(1, 9)} s, average=0.001 s; distance={r.randint(9000, 90000)} kB, "
          f"estimate={r.randint(40000, 90000)} kB")
    assert m >= 60
    # autovacuum
    for _ in range(24):
        ts = _rand_time(r)
        L(ts, newpid(), "", "LOG",
          f"automatic vacuum of table \"seats.public.seat_hold\": index scans: 1\n"
          f"\tpages: 0 removed, {r.randint(800, 2000)} remain, 0 skipped due to pins, 0 skipped frozen\n"
          f"\ttuples: {r.randint(1000, 40000)} removed, {r.randint(30000, 90000)} remain, 0 are dead but not yet removable\n"
          f"\tsystem usage: CPU: user: 0.0{r.randint(1, 9)} s, system: 0.00 s, elapsed: 0.{r.randint(10, 99)} s")
    return _lines_sorted(out)


# ---------------------------------------------------------------- Redis (redis-q1) server log

def _rts(ts):
    return f"{ts.strftime('%d %b %Y %H:%M:%S')}.{ts.microsecond // 1000:03d}"


def redis_log(r):
    out = []
    L = lambda ts, who, ch, msg: out.append((ts, f"{who} {_rts(ts)} {ch} {msg}\n"))  # noqa: E731
    child = 40100
    t = START + timedelta(seconds=r.randint(20, 200))
    while t < END:
        if FORK_FIRST - timedelta(seconds=300) < t < SAVE_DONE + timedelta(seconds=200):
            t += timedelta(seconds=301)
            continue
        child += r.randint(200, 900)
        L(t, "1:M", "*", "100 changes in 300 seconds. Saving...")
        L(t + timedelta(microseconds=4000), "1:M", "*", f"Background saving started by pid {child}")
        d = timedelta(microseconds=r.randint(1_600_000, 2_900_000))
        L(t + d, f"{child}:C", "*", "DB saved on disk")
        cow = r.randint(2, 40)
        L(t + d + timedelta(microseconds=1000), f"{child}:C", "*", f"Fork CoW for RDB: current {cow} MB, peak {cow} MB, average {cow // 2} MB")
        L(t + d + timedelta(microseconds=r.randint(90_000, 110_000)), "1:M", "*", "Background saving terminated with success")
        t += timedelta(seconds=300, microseconds=r.randint(0, 900_000))
    for ts in SCHED["fork"]:
        L(ts, "1:M", "*", "100 changes in 300 seconds. Saving...")
        L(ts + timedelta(microseconds=r.randint(100, 900)), "1:M", "#", "Can't save in background: fork: Cannot allocate memory")
    L(REWRITE, "1:M", "*", "CONFIG REWRITE executed with success.")
    child += 377
    L(SAVE_OK - timedelta(microseconds=4000), "1:M", "*", "100 changes in 300 seconds. Saving...")
    L(SAVE_OK, "1:M", "*", f"Background saving started by pid {child}")
    L(SAVE_DONE - timedelta(microseconds=98_000), f"{child}:C", "*", "DB saved on disk")
    L(SAVE_DONE - timedelta(microseconds=97_000), f"{child}:C", "*", "Fork CoW for RDB: current 311 MB, peak 311 MB, average 176 MB")
    L(SAVE_DONE, "1:M", "*", "Background saving terminated with success")
    for _ in range(3):
        ts = _rand_time(r)
        L(ts, "1:M", "#", f"Client id={r.randint(1000, 99999)} addr=10.20.3.{r.randint(40, 49)}:{r.randint(32768, 60999)} "
          f"laddr=10.20.2.11:6379 fd=17 name= age=0 idle=0 flags=P db=0 sub=0 psub=1 ssub=0 multi=-1 qbuf=0 qbuf-free=0 "
          f"argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=312 omem=8401120 tot-mem=8403200 events=rw cmd=psubscribe "
          f"user=default redir=-1 resp=2 scheduled to be closed ASAP for overcoming of output buffer limits.")
    return _lines_sorted(out)


# ---------------------------------------------------------------- Kafka (kfk-2) server.log

def _kts(ts):
    return f"[{ts.strftime('%Y-%m-%d %H:%M:%S')},{ts.microsecond // 1000:03d}]"


def kafka_log(r):
    out = []
    L = lambda ts, lvl, msg, cls: out.append((ts, f"{_kts(ts)} {lvl} {msg} ({cls})\n"))  # noqa: E731
    offsets = {}
    for topic, parts, n in (("seat-events", 6, 152), ("holds.v1", 3, 97), ("audit.trail", 2, 73), ("mail.outbox", 2, 21),
                            ("__consumer_offsets", 50, 6)):
        for _ in range(n):
            p = f"{topic}-{r.randrange(parts)}"
            ts = _rand_time(r)
            off = offsets.get(p, r.randint(100_000, 9_000_000)) + r.randint(20_000, 90_000)
            offsets[p] = off
            L(ts, "INFO", f"[ProducerStateManager partition={p}] Wrote producer snapshot at offset {off} with {r.randint(0, 6)} "
              f"producer ids in {r.randint(0, 4)} ms.", "kafka.log.ProducerStateManager")
            L(ts + timedelta(microseconds=r.randint(1000, 4000)), "INFO",
              f"[LocalLog partition={p}, dir=/var/lib/kafka/data] Rolled new log segment at offset {off} in {r.randint(0, 9)} ms.",
              "kafka.log.LocalLog")
    for _ in range(22):
        p = f"audit.trail-{r.randrange(2)}"
        ts = _rand_time(r)
        base = r.randint(10_000, 900_000)
        L(ts, "INFO", f"[UnifiedLog partition={p}, dir=/var/lib/kafka/data] Deleting segment LogSegment(baseOffset={base}, "
          f"size={r.randint(900_000, 1_073_000_000)}, lastModifiedTime=2118{r.randint(100000, 999999)}000, "
          f"largestRecordTimestamp=Some(2118{r.randint(100000, 999999)}412)) due to retention time 604800000ms breach based on the "
          f"largest record timestamp in the segment", "kafka.log.UnifiedLog")
    for _ in range(18):
        ts = _rand_time(r)
        g = r.choice(["ticket-mailer", "audit-sink", "seatd-holds"])
        gen = r.randint(40, 90)
        L(ts, "INFO", f"[GroupCoordinator 2]: Preparing to rebalance group {g} in state PreparingRebalance with old generation "
          f"{gen} (__consumer_offsets-{r.randrange(50)}) (reason: Adding new member {g}-{_tok(r, 6)} with group instance id None; "
          f"client reason: rebalance failed due to MemberIdRequiredException)", "kafka.coordinator.group.GroupCoordinator")
        L(ts + timedelta(seconds=3, microseconds=r.randint(0, 99_999)), "INFO",
          f"[GroupCoordinator 2]: Stabilized group {g} generation {gen + 1} (__consumer_offsets-{r.randrange(50)}) with 3 members",
          "kafka.coordinator.group.GroupCoordinator")
    # I4
    L(KFK3_DOWN, "WARN", "[ReplicaFetcher replicaId=2, leaderId=3, fetcherId=0] Error in response for fetch request "
      "(type=FetchRequest, replicaId=2, maxWait=500, minBytes=1, maxBytes=10485760, fetchData={seat-events-2=PartitionData("
      "topicId=kV3cP0aXQ2u1bY7mN9sTqA, fetchOffset=3318820, logStartOffset=1120004, maxBytes=1048576, currentLeaderEpoch=Optional[14], "
      "lastFetchedEpoch=Optional[14])}, isolationLevel=READ_UNCOMMITTED, removed=, replaced=, metadata=(sessionId=1893301772, "
      "epoch=51122), rackId=)", "kafka.server.ReplicaFetcherThread")
    out.append((KFK3_DOWN, "java.io.IOException: Connection to 3 was disconnected before the response was read\n"
                "\tat org.apache.kafka.clients.NetworkClientUtils.sendAndReceive(NetworkClientUtils.java:99)\n"
                "\tat kafka.server.BrokerBlockingSender.sendRequest(BrokerBlockingSender.scala:113)\n"
                "\tat kafka.server.RemoteLeaderEndPoint.fetch(RemoteLeaderEndPoint.scala:79)\n"
                "\tat kafka.server.AbstractFetcherThread.processFetchRequest(AbstractFetcherThread.scala:316)\n"
                "\tat kafka.server.AbstractFetcherThread.doWork(AbstractFetcherThread.scala:130)\n"
                "\tat org.apache.kafka.server.util.ShutdownableThread.run(ShutdownableThread.java:130)\n"))
    t = KFK3_DOWN + timedelta(seconds=2, microseconds=130_000)
    while t < T(2, 21, 30):
        L(t, "WARN", "[ReplicaFetcher replicaId=2, leaderId=3, fetcherId=0] Connection to node 3 "
          "(kfk-3.brackenfold.internal/10.20.4.13:9092) could not be established. Broker may not be available.",
          "org.apache.kafka.clients.NetworkClient")
        t += timedelta(seconds=2, microseconds=r.randint(0, 300_000))
    t = T(2, 21, 17, 902_000)
    for p in ISR_PARTS:
        hw = r.randint(100_000, 9_000_000)
        L(t, "INFO", f"[Partition {p} broker=2] Shrinking ISR from 2,3,1 to 2,1. Leader: (highWatermark: {hw}, endOffset: "
          f"{hw + r.randint(1, 30)}). Out of sync replicas: (brokerId: 3, endOffset: {hw}, lastCaughtUpTimeMs: 21182{r.randint(10000000, 99999999)}).",
          "kafka.cluster.Partition")
        L(t + timedelta(microseconds=9000), "INFO", f"[Partition {p} broker=2] ISR updated to 2,1 and version updated to {r.randint(30, 90)}",
          "kafka.cluster.Partition")
        t += timedelta(microseconds=r.randint(3000, 40_000))
    L(T(2, 21, 19, 77_000), "INFO", "[ReplicaFetcherManager on broker 2] Removed fetcher for partitions Set(seat-events-2, holds.v1-1)",
      "kafka.server.ReplicaFetcherManager")
    L(T(2, 21, 19, 90_000), "INFO", "[Partition seat-events-2 broker=2] seat-events-2 starts at leader epoch 15 from offset 3318871 "
      "with partition epoch 33, high watermark 3318820. Previous leader epoch was 14.", "kafka.cluster.Partition")
    L(T(2, 21, 20, 412_000), "INFO", "[GroupCoordinator 2]: Preparing to rebalance group seatd-holds in state PreparingRebalance with "
      "old generation 88 (__consumer_offsets-23) (reason: Leader seatd-holds-consumer-1-5d2e rejoining)",
      "kafka.coordinator.group.GroupCoordinator")
    t = T(2, 29, 40, 118_000)
    for p in ISR_PARTS:
        L(t, "INFO", f"[Partition {p} broker=2] Expanding ISR from 2,1 to 2,1,3", "kafka.cluster.Partition")
        t += timedelta(microseconds=r.randint(200_000, 900_000))
    return _lines_sorted(out)


# ---------------------------------------------------------------- CoreDNS (kubectl logs --timestamps)

def _cts(ts, r):
    return ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond:06d}{r.randint(0, 999):03d}Z"


def _gods(ns):
    """A Go time.Duration string for durations between 1µs and 60s."""
    if ns >= 1_000_000_000:
        return (f"{ns / 1e9:.9f}".rstrip("0").rstrip(".")) + "s"
    if ns >= 1_000_000:
        return (f"{ns / 1e6:.6f}".rstrip("0").rstrip(".")) + "ms"
    return (f"{ns / 1e3:.3f}".rstrip("0").rstrip(".")) + "µs"


def coredns_log(r):
    out = []
    pods = sorted({f"10.244.{r.randint(0, 5)}.{r.randint(2, 250)}" for _ in range(120)})
    internal = [("redis-q1.data.svc.cluster.local.", 30), ("pg-seats-1.data.svc.cluster.local.", 21),
                ("kfk-bootstrap.kafka.svc.cluster.local.", 14), ("seatd.tickets.svc.cluster.local.", 5),
                ("checkout.tickets.svc.cluster.local.", 4), ("kube-dns.kube-system.svc.cluster.local.", 2),
                ("otel-collector.observability.svc.cluster.local.", 3)]
    external = ["api.paystream.example.", "hooks.mailrelay.example.", "cdn.tixassets.example."]

    def q(ts, ip, name, rcode, ns, qtype=None, flags=None):
        qtype = qtype or r.choice(["A", "A", "AAAA"])
        size = len(name) + 12 + r.choice([0, 11])
        flags = flags or ("qr,aa,rd" if name.endswith("cluster.local.") else "qr,rd,ra")
        rsize = size + (r.randint(30, 140) if rcode == "NOERROR" else 90 if rcode == "NXDOMAIN" else 0)
        out.append((ts, f'{_cts(ts, r)} [INFO] {ip}:{r.randint(32768, 60999)} - {r.randint(1, 65535)} "{qtype} IN {name} udp {size} '
                        f'false {r.choice([512, 1232])}" {rcode} {flags} {rsize} {_gods(ns)}\n'))

    names, weights = zip(*internal)
    for _ in range(2300):
        ts = _rand_time(r)
        q(ts, r.choice(pods), r.choices(names, weights)[0], "NOERROR", r.randint(40_000, 900_000))
    for _ in range(520):
        ts = _rand_time(r)
        if DNS_FIRST - timedelta(seconds=2) <= ts <= RELOAD + timedelta(seconds=1):
            continue
        ip, name = r.choice(pods), r.choice(external)
        for sfx in ("tickets.svc.cluster.local.", "svc.cluster.local."):
            q(ts, ip, name + sfx, "NXDOMAIN", r.randint(30_000, 200_000))
        q(ts + timedelta(microseconds=r.randint(500, 3000)), ip, name, "NOERROR", r.randint(900_000, 30_000_000))
    # I3: the upstream times out; external names SERVFAIL after ~2s
    t = DNS_FIRST
    while t < RELOAD:
        ip, name = r.choice(pods), r.choice(external + external[:1] * 2)
        qtype = r.choice(["A", "AAAA"])
        up = f"10.244.0.9:{r.randint(32768, 60999)}->10.0.0.2:53"
        out.append((t, f"{_cts(t, r)} [ERROR] plugin/errors: 2 {name} {qtype}: read udp {up}: i/o timeout\n"))
        ns = 2_000_000_000 + r.randint(100_000, 9_000_000)
        if t >= SLOWEST_DNS and not any("4.012s" in x for _, x in out):
            name, ns = "hooks.mailrelay.example.", 4_012_000_000
        q(t + timedelta(microseconds=r.randint(50, 400)), ip, name, "SERVFAIL", ns, qtype=qtype, flags="qr,rd")
        gap = r.randint(600_000, 2_600_000)
        if DNS_PEAK_MIN <= t < DNS_PEAK_MIN + timedelta(minutes=1):
            gap //= 4
        t += timedelta(microseconds=gap)
    out.append((RELOAD, f"{_cts(RELOAD, r)} [INFO] Reloading\n"))
    rl = RELOAD + timedelta(microseconds=512_000)
    out.append((rl, f"{_cts(rl, r)} [INFO] plugin/reload: Running configuration SHA512 = "
                    f"{''.join(r.choice('0123456789abcdef') for _ in range(128))}\n"))
    out.append((rl, f"{_cts(rl, r)} [INFO] Reloading complete\n"))
    return _lines_sorted(out)
