"""Writes the `queries-dev12` fixtures: one night (2035-02-17, 00:40-04:20 UTC) at Marlowe
Tollways. Three logs share one plan (`plan()`, seeded by `PLAN_SEED`): the TollPay edge's
nginx key=value access log, `gantryd` (Go, logrus text formatter) and `toll-settlement`
(Java, Log4j2 PatternLayout `%d{ISO8601} %-5p [%t] %c{1.} - %m%n`). Standard library only.
Every planted event sits at a chosen second; the truth is parsed back from the written text
by `truth.py`, which does not import this module.
"""

import random
from datetime import datetime, timedelta

PLAN_SEED = 20350217
DAY = datetime(2035, 2, 17)
START, END = DAY.replace(hour=0, minute=40), DAY.replace(hour=4, minute=20)


def T(h, m, s=0, ms=0):
    return DAY.replace(hour=h, minute=m, second=s) + timedelta(milliseconds=ms)


# --- the planted cast
HEALTH = "10.20.0.5"
PARTNER = "198.51.100.23"
SCRAPER = "203.0.113.45"
API_UP = ["10.20.1.11:8080", "10.20.1.12:8080", "10.20.1.13:8080"]
PAY_UP = ["10.20.2.21:8081", "10.20.2.22:8081"]
STATIC = {"/static/app.3f9c1e.js": 184332, "/static/vendor.8b21d0.js": 412907,
          "/static/app.3f9c1e.css": 38211, "/static/logo.svg": 6480}
RETRY_FROM, RETRY_TO = T(1, 48), T(1, 59, 59)        # 10.20.1.13 restarting: nginx retries
OUTAGE_FROM, OUTAGE_TO = T(2, 14, 6), T(2, 30, 41)   # payments start here -> 504 after 60 s
SCRAPE_FROM, SCRAPE_TO = T(3, 40), T(3, 55, 59)
BURST_MIN = T(3, 47)
SLOW_TRIPS = 93                                      # trips pages between 1.3 and 4.4 s

GANTRIES = [f"G{n}" for n in range(101, 169)]        # 68 gantries
DOWN_GANTRY = "G122"
HB_FIRST, HB_LAST, HB_BACK, HB_SEEN = T(1, 12, 40), T(1, 31, 10), T(1, 31, 44), T(1, 12, 10)
LOWCONF = {"G131": 88, "G117": 70, "G145": 52}       # planted low-confidence warnings
PUB_FROM, PUB_TO = T(2, 14, 20), T(2, 31, 30)        # gantryd publishes fail
PUB_BURST = T(2, 22)
SPOOL_DRAINED = T(2, 32, 3)
SLOW_READS = 85
MAX_READ_US = 11804127
MAX_READ_AT = T(3, 5, 12)

WORKER_ERRORS = {3: 41, 5: 33, 1: 26, 2: 18, 4: 17, 6: 16, 8: 15, 7: 14}
JOB_START, JOB_END = T(2, 0, 3, 118), T(3, 2, 17, 640)
FIRST_ERR, LAST_ERR_BY = T(2, 14, 7, 412), T(2, 31, 40, 77)
RESUME = T(2, 31, 58)
MAX_CHUNK_MS = 47380
LEDGER_START, LEDGER_ERR, LEDGER_END = T(3, 20, 0, 52), T(3, 26, 33, 905), T(3, 41, 9, 310)

_PLAN = None


def plan():
    global _PLAN
    if _PLAN is None:
        _PLAN = _make_plan(random.Random(PLAN_SEED))
    return _PLAN


def _plateau(objs, key, p, lo_frac, hi_frac):
    """Sets the values ranked lo_frac..hi_frac (of `objs` sorted by `key`) to the one there at
    rank p, so every percentile definition lands on that value."""
    objs = sorted(objs, key=lambda o: o[key])
    n = len(objs)
    lo, hi = int(lo_frac * n), int(hi_frac * n)
    v = objs[int(p * n)][key]
    for o in objs[lo:hi + 1]:
        o[key] = v
    return v


def _ip(rng):
    a = rng.choice([81, 86, 92, 109, 151, 5, 90, 176])
    return f"{a}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


UAS = ["TollPay-iOS/5.2.1 (iPhone; iOS 18.3)", "TollPay-Android/5.1.9 (Pixel 9)",
       "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/133.0",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 Safari/605.1.15",
       "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36"]


def _plate(rng):
    L = "ABCDEFGHJKLMNPRSTUVWXYZ"
    return f"{rng.choice(L)}{rng.choice(L)}{rng.randint(10, 99)}{rng.choice(L)}{rng.choice(L)}{rng.choice(L)}"


def _make_plan(rng):
    P = {}
    # ---------------- nginx
    custs = [(_ip(rng), rng.choice(UAS)) for _ in range(420)]
    custs = sorted(set(custs))
    weights = [rng.uniform(0.3, 3.0) for _ in custs]
    reqs = []
    t = START
    minute = START
    while minute < END:
        k = 40 + rng.randint(-6, 6)
        for _ in range(k):
            at = minute + timedelta(seconds=rng.randint(0, 59))
            (ip, ua), = rng.choices(custs, weights)
            reqs.append(_customer_req(rng, at, ip, ua))
        minute += timedelta(minutes=1)
    # slow trips pages (planted)
    trips = [r for r in reqs if r["kind"] == "trips"]
    for r in rng.sample(trips, SLOW_TRIPS):
        r["rt"] = rng.randint(1300, 4400)
        r["urt"] = [r["rt"] - rng.randint(0, 2)]
    # the health checker, the partner
    t = START + timedelta(seconds=7)
    i = 0
    while t < END:
        reqs.append(dict(t=t, client=HEALTH, method="GET", uri="/healthz", status=200, bytes=2, rt=1, urt=[1],
                         up=[API_UP[i % 3]], ua="ELB-HealthChecker/2.0", kind="health"))
        t += timedelta(seconds=20)
        i += 1
    t = START + timedelta(seconds=13)
    while t < END:
        rt = rng.randint(80, 400)
        since = (t - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
        reqs.append(dict(t=t, client=PARTNER, method="GET", uri=f"/api/v1/trips?fleet=BW-0042&since={since}",
                         status=200, bytes=rng.randint(3000, 12000), rt=rt, urt=[rt - 1], up=[rng.choice(API_UP)],
                         ua="FleetSync/2.3 (+ops@brightwagon.example)", kind="partner"))
        t += timedelta(seconds=30)
    # the scraper
    minute = SCRAPE_FROM
    while minute <= SCRAPE_TO:
        k = 50 + (40 if minute == BURST_MIN else 0)
        for _ in range(k):
            at = minute + timedelta(seconds=rng.randint(0, 59))
            uri = f"/api/v1/plates/{_plate(rng)}"
            if rng.random() < 0.65:
                reqs.append(dict(t=at, client=SCRAPER, method="GET", uri=uri, status=429, bytes=162, rt=0, urt=None,
                                 up=None, ua="python-httpx/0.27.0", kind="scrape"))
            else:
                rt = rng.randint(8, 60)
                st = 200 if rng.random() < 0.3 else 404
                reqs.append(dict(t=at, client=SCRAPER, method="GET", uri=uri, status=st,
                                 bytes=rng.randint(140, 400) if st == 200 else 153, rt=rt, urt=[rt - 1],
                                 up=[rng.choice(API_UP)], ua="python-httpx/0.27.0", kind="scrape"))
        minute += timedelta(minutes=1)
    # the payments outage: every payment started in the window is a 504 logged 60 s later
    pays = [r for r in reqs if r["kind"] == "pay"]
    forced = dict(t=OUTAGE_FROM, client=custs[5][0], method="POST", uri="/api/v1/payments", status=201, bytes=331,
                  rt=200, urt=[199], up=[PAY_UP[0]], ua=custs[5][1], kind="pay")
    reqs.append(forced)
    pays.append(forced)
    up504 = []
    for r in pays:
        if OUTAGE_FROM <= r["t"] <= OUTAGE_TO:
            rt = 60000 + rng.randint(1, 9)
            up = PAY_UP[0] if rng.random() < 0.7 else PAY_UP[1]
            r.update(t=r["t"] + timedelta(seconds=60), status=504, bytes=167, rt=rt, urt=[rt - 1], up=[up])
            up504.append(up)
    # nginx retried 10.20.1.13 while it restarted
    for r in reqs:
        if RETRY_FROM <= r["t"] <= RETRY_TO and r["up"] and r["up"][0] == API_UP[2] and r["kind"] in (
                "balance", "trips", "plates", "auth"):
            other = rng.choice(API_UP[:2])
            r["urt"] = [rng.randint(0, 1)] + [r["urt"][0]]
            r["up"] = [API_UP[2], other]
    # p80 of POST /api/v1/payments on a plateau of 201s
    pays = [r for r in reqs if r["kind"] == "pay"]
    ok = sorted((r for r in pays if r["status"] == 201), key=lambda r: r["rt"])
    n = len(pays)
    n504 = n - len(ok)
    assert int(0.84 * n) < n - n504 - 2, (n, n504)
    srt = sorted(pays, key=lambda r: r["rt"])
    v = srt[int(0.8 * n)]["rt"]
    for r in srt[int(0.76 * n):int(0.84 * n) + 1]:
        r["rt"] = v
        r["urt"] = [v - 1]
    P["pay_p80_ms"] = v
    reqs.sort(key=lambda r: r["t"])
    # the 429 share off a rounding edge: pad with customer requests in quiet minutes
    while True:
        n429 = sum(1 for r in reqs if r["status"] == 429)
        share = 1000 * n429 / len(reqs)
        if 0.2 < share % 1 < 0.4 and int(share) % 10 != 0:
            break
        at = T(0, 41) + timedelta(seconds=rng.randint(0, 3000))
        (ip, ua), = rng.choices(custs, weights)
        r = _customer_req(rng, at, ip, ua)
        if r["kind"] == "pay" or r["kind"] == "trips":
            continue
        reqs.append(r)
    reqs.sort(key=lambda r: r["t"])
    P["reqs"] = reqs

    # ---------------- gantryd
    G = []
    minute = START
    tripno = 88400000
    while minute < END:
        k = 18 + rng.randint(-4, 4) + (30 if minute == PUB_BURST else 0)
        for _ in range(k):
            at = minute + timedelta(seconds=rng.randint(0, 59))
            g = rng.choice(GANTRIES)
            if g == DOWN_GANTRY and HB_SEEN <= at <= HB_BACK:
                g = "G123"
            lane = rng.randint(1, 4)
            us = rng.randint(300_000, 1_400_000) if lane == 4 else rng.randint(60_000, 700_000)
            tripno += rng.randint(1, 9)
            G.append(dict(t=at, level="info", msg="plate read ingested", f=dict(
                conf=f"0.{rng.randint(82, 99)}", gid=g, lane=lane, us=us, plate=_plate(rng), trip=f"T-{tripno}")))
        minute += timedelta(minutes=1)
    reads = [e for e in G]
    for e in rng.sample([e for e in reads if e["f"]["lane"] != 4], SLOW_READS):
        e["f"]["us"] = rng.randint(2_300_000, 6_800_000)
    mx = [e for e in reads if e["t"].replace(second=0) == MAX_READ_AT.replace(second=0)][0]
    mx["t"] = MAX_READ_AT
    mx["f"]["us"] = MAX_READ_US
    mx["f"]["lane"] = 2
    # p90 latency on a plateau
    P["lat_p90_us"] = _plateau([e["f"] for e in reads], "us", 0.9, 0.86, 0.94)
    # low-confidence reads
    counts = dict(LOWCONF)
    for g in GANTRIES:
        counts.setdefault(g, rng.randint(0, 4))
    for g, k in counts.items():
        for _ in range(k):
            at = START + timedelta(seconds=rng.randint(60, 13140))
            if g == DOWN_GANTRY and HB_SEEN <= at <= HB_BACK + timedelta(seconds=5):
                at += timedelta(minutes=25)
            G.append(dict(t=at, level="warning", msg="ocr confidence below threshold",
                          f=dict(conf=f"0.{rng.randint(21, 58)}", gid=g, lane=rng.randint(1, 4), plate="UNREAD",
                                 threshold="0.6")))
    # the gantry that went away
    t = HB_FIRST
    missed = 1
    while t <= HB_LAST:
        G.append(dict(t=t, level="warning", msg="gantry heartbeat missed",
                      f=dict(gid=DOWN_GANTRY, last_seen=HB_SEEN.strftime("%Y-%m-%dT%H:%M:%SZ"), missed=missed)))
        t += timedelta(seconds=30)
        missed += 1
    G.append(dict(t=HB_BACK, level="info", msg="gantry reconnected", f=dict(gid=DOWN_GANTRY, downtime="19m34s")))
    # publishes fail while settlement cannot get a connection
    nfail = 0
    for e in reads:
        if PUB_FROM <= e["t"] + timedelta(seconds=5) <= PUB_TO and e["t"] >= PUB_FROM - timedelta(seconds=5):
            G.append(dict(t=e["t"] + timedelta(seconds=5), level="error", msg="publish to settlement failed", f=dict(
                attempt=1, gid=e["f"]["gid"], took=f"5.00{rng.randint(1000, 9999)}s", trip=e["f"]["trip"])))
            nfail += 1
    G.append(dict(t=SPOOL_DRAINED, level="info", msg="spool drained", f=dict(replayed=nfail, took="41.2s")))
    # the error share off a rounding edge: a few more periodic stats lines
    t = START + timedelta(seconds=30)
    while True:
        share = 1000 * sum(1 for e in G if e["level"] == "error") / len(G)
        if 0.2 < share % 1 < 0.4:
            break
        G.append(dict(t=t, level="info", msg="stats flushed", f=dict(sink="statsd", queue=rng.randint(0, 40))))
        t += timedelta(seconds=rng.randint(100, 140))
    G.sort(key=lambda e: e["t"])
    P["gantry"] = G

    # ---------------- toll-settlement
    S = []
    for r in reqs:
        if r["kind"] == "pay" and r["status"] == 201:
            S.append(dict(t=r["t"] - timedelta(milliseconds=rng.randint(5, 900)), lvl="INFO",
                          th=f"http-nio-8080-exec-{rng.randint(1, 12)}", lg="c.m.t.s.a.PaymentController",
                          msg=f"Payment accepted: account=A-{rng.randint(100000, 999999)} "
                              f"amount={rng.randint(150, 9000) / 100:.2f} GBP took={max(5, r['rt'] - rng.randint(3, 30))} ms"))
    t = START + timedelta(seconds=11, milliseconds=rng.randint(0, 999))
    while t < END:
        if OUTAGE_FROM - timedelta(seconds=10) <= t <= RESUME:
            stats = f"total={rng.randint(4, 6)}, active={rng.randint(4, 6)}, idle=0, waiting={rng.randint(9, 16)}"
        else:
            a = rng.randint(1, 5)
            stats = f"total=20, active={a}, idle={20 - a}, waiting=0"
        S.append(dict(t=t, lvl="DEBUG", th="HikariPool-1 housekeeper", lg="c.z.h.p.HikariPool",
                      msg=f"HikariPool-1 - Pool stats ({stats})"))
        t += timedelta(seconds=30)
    S.append(dict(t=JOB_START, lvl="INFO", th="main", lg="c.m.t.s.b.NightlySettlementJob",
                  msg="Job NightlySettlementJob started (run_id=20350217-01, partitions=8, chunk_size=250)"))
    chunks = []
    chunk_no = [1]
    err_times = {}
    span = (LAST_ERR_BY - FIRST_ERR).total_seconds()
    for w, k in WORKER_ERRORS.items():
        step = span / k
        ts = []
        for j in range(k):
            off = j * step + (0 if (w == 3 and j == 0) else rng.uniform(0.5, step - 23))
            ts.append(FIRST_ERR + timedelta(seconds=off))
        if w == 3:
            ts[0] = FIRST_ERR
        if w == 1:
            ts[-1] = LAST_ERR_BY
        err_times[w] = ts
    for w in range(1, 9):
        t = JOB_START + timedelta(milliseconds=rng.randint(200, 1500))
        errs = err_times[w]
        while True:
            d = rng.randint(11000, 18000) if w == 7 else rng.randint(3500, 9000)
            end = t + timedelta(milliseconds=d)
            if errs and end >= errs[0] - timedelta(seconds=20):
                # this worker is now stuck in the pool: one failure per planted time
                no = chunk_no[0]
                chunk_no[0] += 1
                for k, et in enumerate(errs):
                    S.append(dict(t=et, lvl="ERROR", th=f"settle-worker-{w}", lg="c.m.t.s.b.ChunkProcessor",
                                  msg=f"Chunk {no:04d} failed on attempt {k + 1}, will retry", trace=_pool_trace(rng)))
                    S.append(dict(t=et + timedelta(milliseconds=3), lvl="WARN", th=f"settle-worker-{w}",
                                  lg="c.m.t.s.b.ChunkProcessor", msg=f"Retrying chunk {no:04d} in 2000 ms"))
                errs = []
                back = 412 if w == 3 else rng.randint(1500, 9000)
                t = RESUME + timedelta(milliseconds=back) - timedelta(milliseconds=d)
                end = t + timedelta(milliseconds=d)
                chunks.append(dict(t=end, w=w, no=no, d=d))
                t = end
                continue
            if end > JOB_END - timedelta(seconds=6):
                break
            chunks.append(dict(t=end, w=w, no=chunk_no[0], d=d))
            chunk_no[0] += 1
            t = end + timedelta(milliseconds=rng.randint(20, 120))
    # the slowest chunk, and the p50 on a plateau
    c2 = [c for c in chunks if c["w"] == 2 and c["t"] > T(2, 40)][0]
    c2["d"] = MAX_CHUNK_MS
    P["chunk_p50_ms"] = _plateau([c for c in chunks if c is not c2], "d", 0.5, 0.45, 0.55)
    for c in chunks:
        trips = rng.randint(200, 250)
        c["trips"] = trips
        c["amount"] = sum(rng.randint(150, 420) for _ in range(trips))
        S.append(dict(t=c["t"], lvl="INFO", th=f"settle-worker-{c['w']}", lg="c.m.t.s.b.ChunkProcessor",
                      msg=f"Chunk {c['no']:04d} committed: trips={trips} amount={c['amount'] // 100}."
                          f"{c['amount'] % 100:02d} GBP duration={c['d']} ms"))
    P["chunks"] = chunks
    S.append(dict(t=T(2, 13, 41, 7), lvl="WARN", th="HikariPool-1 housekeeper", lg="c.z.h.p.HikariPool",
                  msg="HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=46s212ms)."))
    S.append(dict(t=JOB_END, lvl="INFO", th="main", lg="c.m.t.s.b.NightlySettlementJob",
                  msg=f"Job NightlySettlementJob completed in 62m14s: chunks={len(chunks)} "
                      f"trips={sum(c['trips'] for c in chunks)} status=COMPLETED"))
    # the ledger posting job and its one failure
    S.append(dict(t=LEDGER_START, lvl="INFO", th="main", lg="c.m.t.s.l.LedgerPostingJob",
                  msg="Job LedgerPostingJob started (run_id=20350217-02)"))
    t = LEDGER_START + timedelta(seconds=4)
    b = 1
    while t < LEDGER_END - timedelta(seconds=10):
        S.append(dict(t=t, lvl="INFO", th="ledger-poster-1", lg="c.m.t.s.l.LedgerWriter",
                      msg=f"Posted ledger batch {b:03d}: entries=500"))
        t += timedelta(milliseconds=rng.randint(9000, 14000))
        b += 1
    S.append(dict(t=LEDGER_ERR, lvl="ERROR", th="ledger-poster-1", lg="c.m.t.s.l.LedgerWriter",
                  msg="Failed to post ledger entry for trip T-88412907 (account A-604118, fare 3.275 GBP)",
                  trace=LEDGER_TRACE))
    S.append(dict(t=LEDGER_END, lvl="INFO", th="main", lg="c.m.t.s.l.LedgerPostingJob",
                  msg=f"Job LedgerPostingJob completed: batches={b - 1} failed_entries=1 status=PARTIAL"))
    S.sort(key=lambda e: e["t"])
    P["settle"] = S
    return P


def _customer_req(rng, at, ip, ua):
    x = rng.random()
    acct = f"A-{rng.randint(100000, 999999)}"
    if x < 0.30:
        rt = rng.randint(15, 180)
        return dict(t=at, client=ip, method="GET", uri=f"/api/v1/accounts/{acct}/balance", status=200,
                    bytes=rng.randint(180, 260), rt=rt, urt=[rt - 1], up=[rng.choice(API_UP)], ua=ua, kind="balance")
    if x < 0.50:
        rt = rng.randint(40, 600)
        return dict(t=at, client=ip, method="GET", uri=f"/api/v1/trips?account={acct}&page={rng.randint(1, 6)}",
                    status=200, bytes=rng.randint(2000, 9000), rt=rt, urt=[rt - 1], up=[rng.choice(API_UP)], ua=ua,
                    kind="trips")
    if x < 0.60:
        rt = rng.randint(90, 900)
        return dict(t=at, client=ip, method="POST", uri="/api/v1/payments", status=201, bytes=rng.randint(310, 350),
                    rt=rt, urt=[rt - 1], up=[rng.choice(PAY_UP)], ua=ua, kind="pay")
    if x < 0.70:
        rt = rng.randint(8, 60)
        st = 200 if rng.random() < 0.8 else 404
        return dict(t=at, client=ip, method="GET", uri=f"/api/v1/plates/{_plate(rng)}", status=st,
                    bytes=rng.randint(140, 400) if st == 200 else 153, rt=rt, urt=[rt - 1], up=[rng.choice(API_UP)],
                    ua=ua, kind="plates")
    if x < 0.90:
        path = rng.choice(sorted(STATIC))
        st = 304 if rng.random() < 0.3 else 200
        return dict(t=at, client=ip, method="GET", uri=path, status=st, bytes=STATIC[path] if st == 200 else 0,
                    rt=rng.randint(0, 3), urt=None, up=None, ua=ua, kind="static")
    rt = rng.randint(30, 150)
    st = 200 if rng.random() < 0.9 else 401
    return dict(t=at, client=ip, method="POST", uri="/api/v1/auth/token", status=st,
                bytes=420 if st == 200 else 62, rt=rt, urt=[rt - 1], up=[rng.choice(API_UP)], ua=ua, kind="auth")


def _pool_trace(rng):
    more = rng.randint(9, 14)
    return [
        "org.springframework.jdbc.CannotGetJdbcConnectionException: Failed to obtain JDBC Connection",
        "\tat org.springframework.jdbc.datasource.DataSourceUtils.getConnection(DataSourceUtils.java:84)",
        "\tat org.springframework.jdbc.core.JdbcTemplate.execute(JdbcTemplate.java:653)",
        "\tat org.springframework.jdbc.core.JdbcTemplate.batchUpdate(JdbcTemplate.java:1025)",
        "\tat com.marlowe.tollways.settlement.batch.TripSettlementWriter.write(TripSettlementWriter.java:77)",
        "\tat com.marlowe.tollways.settlement.batch.ChunkProcessor.process(ChunkProcessor.java:142)",
        "\tat com.marlowe.tollways.settlement.batch.ChunkProcessor.run(ChunkProcessor.java:96)",
        "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)",
        "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
        "Caused by: java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, "
        "request timed out after 20000ms (total=5, active=5, idle=0, waiting=12)",
        "\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)",
        "\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)",
        "\tat com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:100)",
        "\tat org.springframework.jdbc.datasource.DataSourceUtils.fetchConnection(DataSourceUtils.java:160)",
        "\t... 8 more",
        "Caused by: org.postgresql.util.PSQLException: FATAL: remaining connection slots are reserved for "
        "non-replication superuser connections",
        "\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:693)",
        "\tat org.postgresql.core.v3.ConnectionFactoryImpl.tryConnect(ConnectionFactoryImpl.java:203)",
        "\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:258)",
        "\tat com.zaxxer.hikari.pool.PoolBase.newConnection(PoolBase.java:359)",
        "\tat com.zaxxer.hikari.pool.HikariPool$PoolEntryCreator.call(HikariPool.java:720)",
        f"\t... {more} more",
    ]


LEDGER_TRACE = [
    "com.marlowe.tollways.settlement.ledger.LedgerPostingException: Cannot post entry T-88412907 to ledger",
    "\tat com.marlowe.tollways.settlement.ledger.LedgerWriter.post(LedgerWriter.java:118)",
    "\tat com.marlowe.tollways.settlement.ledger.LedgerWriter.postBatch(LedgerWriter.java:83)",
    "\tat com.marlowe.tollways.settlement.ledger.LedgerPostingJob.run(LedgerPostingJob.java:61)",
    "\tat java.base/java.lang.Thread.run(Thread.java:1583)",
    "Caused by: java.lang.ArithmeticException: Rounding necessary",
    "\tat java.base/java.math.BigDecimal.commonNeedIncrement(BigDecimal.java:4628)",
    "\tat java.base/java.math.BigDecimal.needIncrement(BigDecimal.java:4684)",
    "\tat java.base/java.math.BigDecimal.divideAndRound(BigDecimal.java:4592)",
    "\tat java.base/java.math.BigDecimal.setScale(BigDecimal.java:2916)",
    "\tat com.marlowe.tollways.settlement.ledger.Money.toMinorUnits(Money.java:42)",
    "\tat com.marlowe.tollways.settlement.ledger.LedgerWriter.post(LedgerWriter.java:104)",
    "\t... 3 more",
]


# ---------------- formatting

def _secs(ms):
    return f"{ms / 1000:.3f}"


def nginx_log(rng=None):
    out = []
    for r in plan()["reqs"]:
        urt = ", ".join(_secs(x) for x in r["urt"]) if r["urt"] else "-"
        up = ", ".join(r["up"]) if r["up"] else "-"
        out.append(f"time={r['t'].strftime('%Y-%m-%dT%H:%M:%S')}+00:00 client={r['client']} method={r['method']} "
                   f"uri={r['uri']} status={r['status']} bytes={r['bytes']} rt={_secs(r['rt'])} urt={urt} "
                   f"upstream={up} ua=\"{r['ua']}\"\n")
    return "".join(out)


def go_duration(us):
    if us < 1_000_000:
        s = f"{us / 1000:.3f}".rstrip("0").rstrip(".")
        return s + "ms"
    return f"{us / 1e6:.6f}".rstrip("0").rstrip(".") + "s"


def _needs_quoting(s):
    return not s or any(not (c.isascii() and (c.isalnum() or c in "-._/@^+")) for c in s)


def _lv(v):
    v = str(v)
    if _needs_quoting(v):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return v


PUB_ERR = ('Post "http://settlement.internal:8080/v1/trips": context deadline exceeded '
           '(Client.Timeout exceeded while awaiting headers)')


def gantryd_log(rng=None):
    out = []
    for e in plan()["gantry"]:
        f = dict(e["f"])
        kv = {}
        for k, v in f.items():
            if k == "gid":
                kv["gantry.id"] = v
            elif k == "lane":
                kv["gantry.lane"] = v
            elif k == "us":
                kv["latency"] = go_duration(v)
            else:
                kv[k] = v
        if e["msg"] == "publish to settlement failed":
            kv["error"] = PUB_ERR
        fields = " ".join(f"{k}={_lv(kv[k])}" for k in sorted(kv))
        out.append(f"time=\"{e['t'].strftime('%Y-%m-%dT%H:%M:%S')}Z\" level={e['level']} msg={_lv(e['msg'])} "
                   f"{fields}\n")
    return "".join(out)


def settlement_log(rng=None):
    out = []
    for e in plan()["settle"]:
        t = e["t"]
        ts = t.strftime("%Y-%m-%dT%H:%M:%S") + f",{t.microsecond // 1000:03d}"
        out.append(f"{ts} {e['lvl']:<5} [{e['th']}] {e['lg']} - {e['msg']}\n")
        for line in e.get("trace", []):
            out.append(line + "\n")
    return "".join(out)
