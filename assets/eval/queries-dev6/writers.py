"""Writers of the `queries-dev6` fixtures (Quillmoor Cycles, an e-bike share, 2031-09-22
01:00-04:00 UTC). Each takes a seeded `random.Random` and returns the file's text. The planted
events sit at chosen seconds; `gen.py` checks them against what `truth.py` parses back.
"""

import json
from datetime import datetime, timedelta

D0 = datetime(2031, 9, 22, 1, 0, 0)
END = datetime(2031, 9, 22, 3, 59, 58)


def at(hms, ms=0):
    h, m, s = map(int, hms.split(":"))
    return datetime(2031, 9, 22, h, m, s, ms * 1000)


def rand_t(rng, a=D0, b=END, avoid=()):
    while True:
        t = a + timedelta(seconds=rng.uniform(0, (b - a).total_seconds()))
        if not any(x <= t < y for x, y in avoid):
            return t


def win(a, b):
    return (at(a), at(b))


# ------------------------------------------------------------------ haproxy (syslog, lb-01)
HA_SERVERS = [("be_rides", "rides-01", 23), ("be_rides", "rides-02", 19), ("be_rides", "rides-03", 15),
              ("be_docks", "docks-01", 12), ("be_docks", "docks-02", 10), ("be_static", "static-01", 9),
              ("be_auth", "auth-01", 7), ("be_auth", "auth-02", 5)]
HA_404 = [("/v1/stations", 96, "be_docks"), ("/img/bikes/qb-classic.png", 81, "be_static"),
          ("/v2/docks/undefined/status", 70, "be_docks"), ("/favicon.ico", 23, "be_static"), ("/.env", 17, "be_static"),
          ("/wp-login.php", 12, "be_static")]
HA_503, HA_503_PEAK, HA_504, HA_500 = 141, 40, 78, 61


def haproxy_log(rng):
    ips = [f"{rng.choice([31, 46, 82, 92, 151, 176, 188, 212])}.{rng.randrange(1, 255)}.{rng.randrange(255)}.{rng.randrange(1, 255)}"
           for _ in range(1500)]
    paths = {"be_rides": [("POST", "/v2/rides/start"), ("POST", "/v2/rides/end"), ("GET", "/v2/rides/{}")],
             "be_docks": [("GET", "/v2/docks/nearby"), ("GET", "/v2/docks/D-0{}/status")],
             "be_static": [("GET", "/static/app.js"), ("GET", "/static/app.css"), ("GET", "/img/docks/map-tile-{}.png")],
             "be_auth": [("POST", "/v2/auth/token"), ("POST", "/v2/auth/refresh")]}
    weights = [w for _, _, w in HA_SERVERS]
    recs = []  # (accept, backend, server, tq, tw, tc, tr, ta, status, bytes, term, method, path)

    def add(t, be, srv, tr, status, method, path, term="----"):
        if tr < 0:
            ta = 0 if status == 503 else 30000 + rng.randrange(1, 9)
            recs.append((t, be, srv, "0", "-1" if status == 503 else "0", "-1" if status == 503 else "1", "-1", ta, status,
                         217 if status == 503 else 194, term, method, path))
        else:
            if 490 <= tr <= 510:  # no timing reads like a 5xx status
                tr += 25
            recs.append((t, be, srv, "0", "0", str(rng.randrange(0, 3)), str(tr), tr + rng.randrange(0, 4), status,
                         rng.randrange(1000, 24000), term, method, path))

    def tr_for(be):
        if be != "be_docks":
            return rng.randrange(3, 700)
        u = rng.random()
        if u < 0.905:
            return rng.randrange(20, 900)
        if u < 0.975:
            return 1840
        return rng.randrange(2500, 6000)

    for _ in range(5500):
        t = rand_t(rng)
        be, srv, _ = rng.choices(HA_SERVERS, weights)[0]
        method, p = rng.choice(paths[be])
        p = p.format(rng.randrange(100, 999))
        status = 201 if method == "POST" and "rides" in p else 200
        if be == "be_static" and rng.random() < 0.3:
            status = 304
        if be == "be_auth" and rng.random() < 0.12:
            status = 401
        add(t, be, srv, tr_for(be) if status == 200 else rng.randrange(3, 600), status, method, p)
    for p, k, be in HA_404:
        srvs = [s for b, s, _ in HA_SERVERS if b == be]
        for _ in range(k):
            add(rand_t(rng), be, rng.choice(srvs), rng.randrange(1, 30), 404, "GET", p)
    rides = [s for b, s, _ in HA_SERVERS if b == "be_rides"]
    for _ in range(HA_500):
        t = rand_t(rng, avoid=[win("02:35:00", "02:40:00"), win("03:00:00", "03:05:00")])
        add(t, "be_rides", rng.choice(rides), rng.randrange(50, 900), 500, "POST", "/v2/rides/end")
    ts503 = [at("02:47:31", 204), at("02:57:49", 610)]
    ts503 += [at("02:52:00") + timedelta(seconds=rng.uniform(0, 59.9)) for _ in range(HA_503_PEAK - 1)]
    while len(ts503) < HA_503:
        t = rand_t(rng, at("02:47:32"), at("02:57:49"), avoid=[win("02:52:00", "02:53:00")])
        ts503.append(t)
    for t in ts503:
        add(t, "be_rides", "<NOSRV>", -1, 503, rng.choice(["POST", "GET"]), rng.choice(["/v2/rides/start", "/v2/rides/end"]), "SC--")
    for _ in range(HA_504):
        add(rand_t(rng, at("02:47:40"), at("02:57:50")), "be_rides", rng.choice(rides), -1, 504, "POST", "/v2/rides/start", "sH--")
    lines = []
    for (t, be, srv, tq, tw, tc, tr, ta, st, by, term, method, p) in recs:
        emit = t + timedelta(milliseconds=ta)
        ip = rng.choice(ips)
        ac = rng.randrange(40, 400)
        line = (f"{emit:%b %d %H:%M:%S} lb-01 haproxy[3187]: {ip}:{rng.randrange(1024, 65535)} "
                f"[{t:%d/%b/%Y:%H:%M:%S}.{t.microsecond // 1000:03d}] fe_web~ {be}/{srv} {tq}/{tw}/{tc}/{tr}/{ta} {st} {by} "
                f"- - {term} {ac}/{ac - 2}/{rng.randrange(0, 40)}/{rng.randrange(0, 15)}/0 0/0 \"{method} {p} HTTP/1.1\"")
        lines.append((emit, line))
    lines.sort(key=lambda x: x[0])
    return "".join(l + "\n" for _, l in lines)


# ------------------------------------------------------------------ postgresql (pg-main, stderr)
PG_TOO_MANY, PG_AUTH, PG_ADMIN = 87, 9, 23
PG_CKPT_MEAN = 1874


def postgres_log(rng):
    ev = []  # (t, pid, who, lines) ; who None for background

    def add(t, pid, who, *msgs):
        ev.append((t, pid, who, msgs))

    ckpts = [at("01:00:12") + timedelta(seconds=300 * k) for k in range(36)]
    ckpts = [c for c in ckpts if not (at("02:55:00") <= c < at("02:59:00"))]
    kinds = [(c, "time") for c in ckpts] + [(at("02:41:14"), "wal"), (at("02:41:33"), "wal"), (at("02:41:52"), "wal")]
    kinds.sort()
    n = len(kinds) + 1  # + one shutdown checkpoint
    bufs = []
    while len(bufs) < n - 2:
        d = rng.randrange(0, 1200)
        bufs += [PG_CKPT_MEAN + d, PG_CKPT_MEAN - d]
    bufs = bufs[:n - 1]
    rng.shuffle(bufs)
    last = PG_CKPT_MEAN * n - sum(bufs)
    assert 300 < last < 5000, last
    bufs.append(last)
    for (c, kind), b in zip(kinds, bufs):
        w = round(rng.uniform(20, 28), 3) if kind == "time" else round(rng.uniform(3, 6), 3)
        add(c, 66, None, f"checkpoint starting: {kind}")
        add(c + timedelta(seconds=w + 0.2), 66, None,
            f"checkpoint complete: wrote {b} buffers ({b / 163.84:.1f}%); 0 WAL file(s) added, 0 removed, {rng.randrange(1, 4)} recycled; "
            f"write={w:.3f} s, sync=0.0{rng.randrange(10, 99)} s, total={w + 0.11:.3f} s; sync files={rng.randrange(8, 60)}, "
            f"longest=0.00{rng.randrange(1, 9)} s, average=0.001 s; distance={b * 8} kB, estimate={b * 8 + 512} kB; lsn=4A/{rng.randrange(16**7):07X}, redo lsn=4A/{rng.randrange(16**7):07X}")
    add(at("02:41:33", 48), 66, None, "checkpoints are occurring too frequently (19 seconds apart)",
        'HINT:  Consider increasing the configuration parameter "max_wal_size".')
    users = [("rides_app", "ridesdb", 60), ("reporting_ro", "ridesdb", 26), ("billing_batch", "ridesdb", 14)]
    stmts = {"rides_app": ["SELECT d.dock_id, d.bikes_available FROM docks d WHERE d.zone_id = $1 ORDER BY d.dist",
                           "UPDATE rides SET ended_at = now(), end_dock = $1 WHERE ride_id = $2",
                           "INSERT INTO rides (ride_id, rider_id, bike_id, start_dock) VALUES ($1, $2, $3, $4)"],
             "reporting_ro": ["SELECT zone_id, count(*) FROM rides WHERE started_at > now() - interval '1 hour' GROUP BY 1",
                              "SELECT rider_id, sum(fare_cents) FROM ride_ledger GROUP BY 1 ORDER BY 2 DESC LIMIT 50"],
             "billing_batch": ["SELECT * FROM ride_ledger WHERE settled = false ORDER BY ride_id LIMIT 500"]}
    for _ in range(880):
        u, db, _ = rng.choices(users, [w for *_, w in users])[0]
        t = rand_t(rng, avoid=[win("02:58:04", "02:58:12")])
        ms = rng.uniform(251, 1800) if rng.random() < 0.93 else rng.uniform(1800, 19000)
        add(t, rng.randrange(30000, 52000), f"{u}@{db}", f"duration: {ms:.3f} ms  statement: {rng.choice(stmts[u])}")
    add(at("02:44:02", 377), 39920, "billing_batch@ridesdb",
        "duration: 61844.207 ms  statement: UPDATE ride_ledger SET settled = true, settled_at = now() WHERE settled = false AND ride_id <= 91877122")
    for k in range(34):
        t = at("02:43:05") + timedelta(seconds=k * 6.7 + rng.uniform(0, 1))
        pid = rng.randrange(40000, 41000)
        add(t, pid, "rides_app@ridesdb",
            f"process {pid} still waiting for ShareLock on transaction 8812734 after 1000.{rng.randrange(100, 999)} ms",
            "DETAIL:  Process holding the lock: 39920. Wait queue: " + f"{pid}.",
            f"CONTEXT:  while updating tuple (1822,{rng.randrange(1, 40)}) in relation \"docks\"",
            "STATEMENT:  UPDATE docks SET bikes_available = bikes_available - 1 WHERE dock_id = $1")
    add(at("02:46:58", 311), 40817, "rides_app@ridesdb", "ERROR:  deadlock detected",
        "DETAIL:  Process 40817 waits for ShareLock on transaction 8812734; blocked by process 39920.\n"
        "\tProcess 39920 waits for ShareLock on transaction 8812790; blocked by process 40817.\n"
        "\tProcess 40817: UPDATE docks SET bikes_available = bikes_available - 1 WHERE dock_id = 'D-0412'\n"
        "\tProcess 39920: UPDATE ride_ledger SET settled = true, settled_at = now() WHERE settled = false AND ride_id <= 91877122",
        "HINT:  See server log for query details.",
        "CONTEXT:  while updating tuple (1822,14) in relation \"docks\"",
        "STATEMENT:  UPDATE docks SET bikes_available = bikes_available - 1 WHERE dock_id = 'D-0412'")
    for _ in range(16):
        t = rand_t(rng, at("02:45:10"), at("02:46:50"))
        add(t, rng.randrange(40000, 41000), "rides_app@ridesdb", "ERROR:  canceling statement due to statement timeout",
            "STATEMENT:  UPDATE docks SET bikes_available = bikes_available - 1 WHERE dock_id = $1")
    tm = [at("02:47:20", 118)] + [rand_t(rng, at("02:47:21"), at("02:58:03")) for _ in range(PG_TOO_MANY - 1)]
    for t in tm:
        add(t, rng.randrange(52000, 56000), "rides_app@ridesdb", "FATAL:  sorry, too many clients already")
    for _ in range(PG_AUTH):
        t = rand_t(rng, avoid=[win("02:40:00", "03:00:00")])
        add(t, rng.randrange(30000, 52000), "metabase@analytics", 'FATAL:  password authentication failed for user "metabase"',
            'DETAIL:  Connection matched file "/etc/postgresql/16/main/pg_hba.conf" line 98: "host all all 10.40.0.0/16 scram-sha-256"')
    sd = at("02:58:04", 117)
    add(sd, 1, None, "received fast shutdown request")
    add(sd + timedelta(milliseconds=2), 1, None, "aborting any active transactions")
    for k in range(PG_ADMIN):
        add(sd + timedelta(milliseconds=5 + k), 40100 + 37 * k, "rides_app@ridesdb",
            "FATAL:  terminating connection due to administrator command")
    add(sd + timedelta(milliseconds=60), 1, None, 'background worker "logical replication launcher" (PID 77) exited with exit code 1')
    add(sd + timedelta(milliseconds=80), 66, None, "shutting down")
    add(sd + timedelta(milliseconds=90), 66, None, "checkpoint starting: shutdown immediate")
    add(at("02:58:05", 411), 66, None,
        f"checkpoint complete: wrote {bufs[-1]} buffers ({bufs[-1] / 163.84:.1f}%); 0 WAL file(s) added, 0 removed, 0 recycled; "
        f"write=0.871 s, sync=0.044 s, total=0.952 s; sync files=31, longest=0.006 s, average=0.002 s; distance={bufs[-1] * 8} kB, "
        f"estimate={bufs[-1] * 8 + 512} kB; lsn=4A/9C0A2F8, redo lsn=4A/9C0A2F8")
    add(at("02:58:05", 530), 1, None, "database system is shut down")
    add(at("02:58:10", 12), 51877, None, "starting PostgreSQL 16.4 (Debian 16.4-1.pgdg120+2) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit")
    add(at("02:58:10", 15), 51877, None, 'listening on IPv4 address "0.0.0.0", port 5432')
    add(at("02:58:10", 40), 51880, None, "database system was shut down at 2031-09-22 02:58:05 UTC")
    add(at("02:58:11", 210), 51877, None, "database system is ready to accept connections")
    ev.sort(key=lambda e: e[0])
    out = []
    for t, pid, who, msgs in ev:
        pre = f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d} UTC [{pid}] " + (f"{who} " if who else "")
        for i, m in enumerate(msgs):
            if i == 0 and not m.startswith(("ERROR:", "FATAL:", "DETAIL:", "HINT:")):
                m = "LOG:  " + m
            out.append(pre + m)
    return "".join(l + "\n" for l in out)


# ------------------------------------------------------------------ redis (cache-01)
RD_FORK = 72


def redis_log(rng):
    ev = []

    def add(t, role, lvl, msg, pid=1):
        ev.append((t, f"{pid}:{role} {t:%d %b %Y %H:%M:%S}.{t.microsecond // 1000:03d} {lvl} {msg}"))

    pid = 5000
    saves = [at("01:03:41") + timedelta(seconds=300 * k + rng.uniform(0, 20)) for k in range(36)]
    for s in saves:
        if at("03:08:00") <= s < at("03:18:00"):
            continue
        pid += rng.randrange(3, 30)
        add(s, "M", "*", f"{rng.choice([100, 1000])} changes in {rng.choice([300, 60])} seconds. Saving...")
        add(s + timedelta(milliseconds=4), "M", "*", f"Background saving started by pid {pid}")
        add(s + timedelta(milliseconds=900), "C", "*", "DB saved on disk", pid)
        add(s + timedelta(milliseconds=903), "C", "*", f"Fork CoW for RDB: current {rng.randrange(2, 9)} MB, peak {rng.randrange(9, 20)} MB, average {rng.randrange(1, 5)} MB", pid)
        add(s + timedelta(milliseconds=990), "M", "*", "Background saving terminated with success")
    add(at("01:12:08", 551), "M", "#", "Connection with replica 10.40.2.12:6379 lost.")
    add(at("01:12:31", 20), "M", "*", "Replica 10.40.2.12:6379 asks for synchronization")
    add(at("01:12:31", 21), "M", "*", "Partial resynchronization not accepted: Replication ID mismatch (Replica asked for '5f1c0e2a9d', my replication IDs are 'b83e71c4aa' and '0000000000')")
    add(at("01:12:31", 23), "M", "*", "Starting BGSAVE for SYNC with target: disk")
    add(at("01:12:31", 25), "M", "*", "Background saving started by pid 6999", )
    add(at("01:12:33", 602), "C", "*", "DB saved on disk", 6999)
    add(at("01:12:33", 700), "M", "*", "Background saving terminated with success")
    add(at("01:12:36", 310), "M", "*", "Synchronization with replica 10.40.2.12:6379 succeeded")
    t = at("03:09:41", 77)
    for k in range(RD_FORK):
        add(t, "M", "*", "10000 changes in 60 seconds. Saving...")
        add(t + timedelta(milliseconds=1), "M", "#", "Can't save in background: fork: Cannot allocate memory")
        t += timedelta(seconds=6, milliseconds=rng.randrange(0, 80))
    assert t < at("03:17:20")
    add(at("03:17:22", 8), "M", "*", "10000 changes in 60 seconds. Saving...")
    add(at("03:17:22", 11), "M", "*", "Background saving started by pid 9127")
    add(at("03:17:29", 412), "C", "*", "DB saved on disk", 9127)
    add(at("03:17:29", 415), "C", "*", "Fork CoW for RDB: current 412 MB, peak 412 MB, average 206 MB", 9127)
    add(at("03:17:29", 951), "M", "*", "Background saving terminated with success")
    for k in range(6):
        t = at("03:24:10") + timedelta(seconds=k * 37 + rng.uniform(0, 5))
        add(t, "M", "#", f"Client id={88100 + k * 13} addr=10.40.1.{rng.randrange(20, 40)}:{rng.randrange(30000, 60000)} laddr=10.40.2.11:6379 fd={rng.randrange(20, 90)} name=dispatcher age={rng.randrange(100, 900)} idle=0 flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=1024 obl=0 oll={rng.randrange(2000, 9000)} omem=268442488 tot-mem=268443800 events=rw cmd=scan user=default redir=-1 resp=2 lib-name=go-redis lib-ver=9.5.1 scheduled to be closed ASAP for overcoming of output buffer limits.")
    for _ in range(420):
        t = rand_t(rng)
        a = f"10.40.1.{rng.randrange(20, 40)}:{rng.randrange(30000, 60000)}"
        add(t, "M", "-", rng.choice([f"Accepted {a}", "Client closed connection id=%d addr=%s" % (rng.randrange(80000, 90000), a)]))
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)


# ------------------------------------------------------------------ ride-api (docker json-file, python logging)
DK_DB_ERR, DK_PRICING_ERR, DK_PAY_ERR = 112, 17, 8
DK_END_MEAN = 412


def rideapi_log(rng):
    ev = []

    def emit(t, text):
        ev.append((t, text))

    def log(t, lvl, name, msg, tb=None):
        emit(t, f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} {lvl} [{name}] {msg}")
        for i, l in enumerate(tb or []):
            emit(t + timedelta(microseconds=200 + i), l)

    routes = [("GET", "/v2/docks/nearby", 200), ("POST", "/v2/rides/start", 201), ("GET", "/v2/rides/{}", 200),
              ("POST", "/v2/rides/end", 200)]
    ends = []
    for _ in range(2300):
        t = rand_t(rng, avoid=[win("02:47:20", "02:58:12")])
        m, p, st = rng.choice(routes)
        p = p.format(91870000 + rng.randrange(10000))
        d = rng.randrange(12, 2900)
        if p == "/v2/rides/end":
            ends.append([t, m, p, st, d])
            continue
        log(t, "INFO", "rides.http", f"{m} {p} {st} dur_ms={d} rider=r_{rng.randrange(10000, 99999)}")
    tot = DK_END_MEAN * len(ends)
    s = sum(e[4] for e in ends[:-1])
    ends[-1][4] = tot - s
    while not (12 <= ends[-1][4] <= 2900):  # rebalance until the last one is plausible
        i = rng.randrange(len(ends) - 1)
        delta = ends[-1][4] - DK_END_MEAN
        step = max(-(ends[i][4] - 12), min(2900 - ends[i][4], delta))
        ends[i][4] += step
        ends[-1][4] -= step
    for t, m, p, st, d in ends:
        log(t, "INFO", "rides.http", f"{m} {p} {st} dur_ms={d} rider=r_{rng.randrange(10000, 99999)}")
    log(at("02:31:06", 240), "INFO", "rides.http", f"GET /v2/docks/nearby 200 dur_ms=7415 rider=r_{rng.randrange(10000, 99999)}")
    err = ('(psycopg2.OperationalError) connection to server at "pg-main" (10.40.3.5), port 5432 failed: '
           'FATAL:  sorry, too many clients already')
    tb = ["Traceback (most recent call last):", '  File "/app/rides/db.py", line 88, in checkout',
          "    conn = self._pool.getconn()",
          '  File "/usr/local/lib/python3.12/site-packages/psycopg2/pool.py", line 169, in getconn',
          "    return self._getconn(key)", "psycopg2.OperationalError: " + err.split(") ", 1)[1]]
    ts = [at("02:47:21", 402)] + [rand_t(rng, at("02:47:22"), at("02:58:03")) for _ in range(DK_DB_ERR - 1)]
    for t in ts:
        log(t, "ERROR", "rides.db", "pool checkout failed: " + err, tb if rng.random() < 0.5 or t == ts[0] else None)
    for _ in range(DK_PRICING_ERR):
        log(rand_t(rng, avoid=[win("02:40:00", "03:05:00")]), "ERROR", "rides.pricing",
            f"fare quote failed for zone Z{rng.randrange(10, 60)}: surge table missing")
    for _ in range(DK_PAY_ERR):
        log(rand_t(rng, avoid=[win("02:40:00", "03:05:00")]), "ERROR", "rides.payments",
            "capture failed: upstream returned 502 Bad Gateway")
    for _ in range(40):
        log(rand_t(rng), "WARNING", "rides.http", f"slow request: POST /v2/rides/start took {rng.randrange(2, 6)}s")
    log(at("02:58:15", 640), "INFO", "rides.db", "database pool reconnected (20 connections)")
    ev.sort(key=lambda e: e[0])
    out = []
    for t, text in ev:
        out.append(json.dumps({"log": text + "\n", "stream": "stderr",
                               "time": f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}{rng.randrange(100, 999)}Z"},
                              separators=(",", ":")))
    return "".join(l + "\n" for l in out)


# ------------------------------------------------------------------ dispatcher (Go, logrus text)
DP_BLOCK, DP_MISCONF, DP_WEBHOOK = 64, 95, 15
DP_DOCKS = [("D-0412", 31), ("D-0107", 22)]


def dispatcher_log(rng):
    ev = []

    def log(t, level, msg, **kv):
        s = f'time="{t:%Y-%m-%dT%H:%M:%S}Z" level={level} msg="{msg}"'
        for k, v in kv.items():
            v = str(v)
            s += f' {k}="{v}"' if (" " in v or '"' in v or "=" in v) else f" {k}={v}"
        ev.append((t, s))

    bikes = [f"QB-{rng.randrange(10000, 19999)}" for _ in range(800)]
    docks = [f"D-0{rng.randrange(100, 999)}" for _ in range(150)]
    for _ in range(2300):
        t = rand_t(rng)
        log(t, "info", "dispatch assigned", bike=rng.choice(bikes), dock=rng.choice(docks), rider=f"r_{rng.randrange(10000, 99999)}",
            latency_ms=rng.randrange(8, 240))
    for _ in range(120):
        t = rand_t(rng)
        log(t, "warning", "redis call slow", cmd=rng.choice(["HINCRBY", "GET", "ZADD"]), took=f"{rng.randrange(120, 900)}ms")
    for _ in range(110):
        t = rand_t(rng, at("02:44:00"), at("02:58:10"))
        log(t, "warning", "ride lookup slow", took=f"{rng.randrange(2, 9)}.{rng.randrange(10)}s", bike=rng.choice(bikes))
    log(at("01:12:10"), "warning", "redis replica read failed, falling back to primary", addr="10.40.2.12:6379")
    blk = ("cluster_block_exception: index [dock-events-2031.09] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded "
           "flood-stage watermark, index has read-only-allow-delete block]")
    ts = [at("01:36:24")] + [rand_t(rng, at("01:36:25"), at("01:57:50")) for _ in range(DP_BLOCK - 1)]
    for t in ts:
        log(t, "error", "bulk index failed", index="dock-events-2031.09", docs=rng.randrange(20, 200), error=blk)
    mis = ("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may "
           "modify the data set are disabled, because this instance is configured to report errors during writes if RDB "
           "snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB error.")
    plan = [(at("03:10:07"), "D-0107"), (at("03:17:12"), "D-0300"), (at("03:17:04"), "D-0412")]
    plan += [(rand_t(rng, at("03:10:08"), at("03:17:03")), "D-0412") for _ in range(30)]
    plan += [(rand_t(rng, at("03:10:08"), at("03:17:11")), "D-0107") for _ in range(21)]
    others = [f"D-0{k}" for k in range(500, 540)]
    while len(plan) < DP_MISCONF:
        plan.append((rand_t(rng, at("03:10:08"), at("03:17:11")), rng.choice(others)))
    for t, d in plan:
        log(t, "error", "reserve dock slot failed", dock=d, bike=rng.choice(bikes), error=mis)
    for _ in range(DP_WEBHOOK):
        t = rand_t(rng, avoid=[win("01:25:00", "02:05:00"), win("02:55:00", "03:35:00")])
        log(t, "error", "payment webhook rejected", provider="stripe", status=400)
    log(at("03:17:33"), "info", "reservation writes resumed", redis="10.40.2.11:6379")
    search = [at("03:31:19")] + [rand_t(rng, at("03:31:20"), at("03:33:30")) for _ in range(11)]
    for t in search:
        log(t, "warning", "dock search timed out", index="docks", took="10s")
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)


# ------------------------------------------------------------------ elasticsearch 8 (ECS JSON, es-master-1)
def es_log(rng):
    ev = []
    node = "es-master-1"

    def log(t, level, logger, msg, thread="elasticsearch[es-master-1][generic][T#3]"):
        d = {"@timestamp": f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z", "log.level": level, "message": msg,
             "ecs.version": "1.2.0", "service.name": "ES_ECS", "event.dataset": "elasticsearch.server",
             "process.thread.name": thread, "log.logger": logger, "elasticsearch.cluster.uuid": "pX3r0tq9S2mQ1dQv0m7f2A",
             "elasticsearch.node.id": "k8Lw2hVmTz6yYc0bqf1JdQ", "elasticsearch.node.name": node,
             "elasticsearch.cluster.name": "quillmoor-search"}
        ev.append((t, json.dumps(d, separators=(",", ":"))))

    dtm = "org.elasticsearch.cluster.routing.allocation.DiskThresholdMonitor"
    gcm = "org.elasticsearch.monitor.jvm.JvmGcMonitorService"
    for _ in range(700):
        t = rand_t(rng)
        lg, msg = rng.choice([
            ("org.elasticsearch.cluster.metadata.MetadataMappingService", "[dock-events-2031.09/Zr1qS0k2TWe8Vq1m3o0bQA] update_mapping [_doc]"),
            ("org.elasticsearch.xpack.ilm.IndexLifecycleRunner", "policy [dock-events] for index [dock-events-2031.08] on an error step due to a transient error, moving back to the failed step [check-rollover-ready] for execution. retry attempt [3]"),
            ("org.elasticsearch.cluster.service.MasterService", "node-join[{es-data-3}{q0Pz}{es-data-3} rejoining], term: 14, version: 88121, delta: "),
            ("org.elasticsearch.indices.breaker.HierarchyCircuitBreakerService", "attempting to trigger G1GC due to high heap usage [7912312832]"),
        ])
        log(t, "INFO", lg, msg)
    for _ in range(26):
        t = rand_t(rng, avoid=[win("03:30:00", "03:33:00")])
        log(t, "WARN", gcm, f"[gc][{rng.randrange(80000, 90000)}] overhead, spent [{rng.randrange(5, 19) / 10}s] collecting in the last [{rng.randrange(20, 29) / 10}s]",
            "elasticsearch[es-master-1][scheduler][T#1]")
    log(at("03:31:14", 88), "WARN", gcm, "[gc][old][88120][57] duration [12.4s], collections [1]/[12.9s], total [12.4s]/[3.1m], memory [7.6gb]->[6.9gb]/[8gb], all_pools {[young] [0b]->[0b]/[0b]}{[old] [7.4gb]->[6.9gb]/[8gb]}",
        "elasticsearch[es-master-1][scheduler][T#1]")
    for k in range(5):
        log(at("01:33:47", 120) + timedelta(seconds=30 * k), "WARN", dtm,
            "high disk watermark [90%] exceeded on [s7nN1wVQR8ix][es-data-2][/var/lib/elasticsearch/nodes/0] free: 9.1gb[8.9%], "
            "shards will be relocated away from this node; currently relocating away shards totalling [0] bytes; the node is "
            "expected to continue to exceed the high disk watermark when these relocations are complete")
    t = at("01:36:19", 402)
    while t < at("01:58:20"):
        log(t, "WARN", dtm, "flood stage disk watermark [95%] exceeded on [s7nN1wVQR8ix][es-data-2][/var/lib/elasticsearch/nodes/0] "
            "free: 4.6gb[4.5%], all indices on this node will be marked read-only")
        t += timedelta(seconds=30)
    log(at("01:58:30", 5), "INFO", dtm, "releasing read-only-allow-delete block on indices: [[dock-events-2031.09/Zr1qS0k2TWe8Vq1m3o0bQA]]")
    log(at("01:41:02", 330), "INFO", "org.elasticsearch.cluster.routing.allocation.AllocationService",
        "Cluster health status changed from [GREEN] to [YELLOW] (reason: [shards started [[dock-events-2031.09][2]]]).")
    log(at("02:03:40", 71), "INFO", "org.elasticsearch.cluster.routing.allocation.AllocationService",
        "Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started [[dock-events-2031.09][4]]]).")
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)
