"""Fixture writers of the `queries-heldout6` set (Corvina Ferries, Tuesday 2031-06-17,
01:00-04:00 UTC). Each takes a seeded `random.Random` and returns the file's text, written
the way the real software writes it. The planted figures are asserted by `gen.py` against
`truth.py`'s independent parses, never read from here.

The night: at 02:13:41 Cassandra node cass-03 starts long G1 Old Generation pauses; reads
time out in booking-api (504s), Varnish answers 503 and Consul marks booking-api's health
checks critical; cass-03 runs out of heap, the kernel OOM-kills its JVM at 02:31:52, systemd
restarts it and it is back at 02:33. At 03:05:26 an operator rewrites Vault's `booking-api`
policy and booking-api's database credential reads are denied (500s, a second Varnish 503
burst). On relay-01 certbot cannot renew mail-relay's certificate (01:20, 02:58) and from
03:00 notify-worker's e-mails fail with CERT_HAS_EXPIRED. Earlier, at 01:41, checkin-web
exits on checkin-01 and nginx answers the kiosks 502 until it is back.
"""

from datetime import datetime, timedelta, timezone

UTC = timezone.utc
DAY = datetime(2031, 6, 17, tzinfo=UTC)
START, END = DAY.replace(hour=1), DAY.replace(hour=4)


def at(hms, us=0):
    h, m, s = (int(x) for x in hms.split(":"))
    return DAY.replace(hour=h, minute=m, second=s, microsecond=us)


def rand_times(rng, n, a=START, b=END, avoid=()):
    """n random instants in [a, b), none inside an `avoid` interval."""
    out = []
    span = (b - a).total_seconds()
    while len(out) < n:
        t = a + timedelta(seconds=rng.random() * span)
        if any(x <= t < y for x, y in avoid):
            continue
        out.append(t)
    return sorted(out)


def split_total(rng, total, n, lo, hi):
    """n integers in [lo, hi] summing to total."""
    vals = [rng.randint(lo, hi) for _ in range(n)]
    i = 0
    while sum(vals) != total:
        d = total - sum(vals)
        j = i % n
        step = max(-(vals[j] - lo), min(hi - vals[j], d))
        vals[j] += step
        i += 1
    return vals


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


# ---------------------------------------------------------------- varnishncsa

UAS = ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
       "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36",
       "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Mobile Safari/537.36",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15",
       "CorvinaApp/7.3.1 (Android 15)", "CorvinaApp/7.3.0 (iOS 18.5)"]
STATIC = ["/img/ports/rosslare.webp", "/img/ports/fishguard.webp", "/img/ports/pembroke.webp", "/css/site.4c1e.css",
          "/js/app.93fd.js", "/js/vendor.11ab.js", "/fonts/inter-var.woff2", "/api/ports"]
ROUTES = ["FGD-RSL", "PMB-RSL", "HHD-DUB", "CRN-BEL", "LRN-BEL"]
NOT_FOUND = [("/img/ports/cairnryan-old.webp", 88), ("/api/sailings/legacy", 73), ("/timetable.pdf", 65)]
NOT_FOUND_BG = ["/wp-login.php", "/.env", "/img/ships/stena-old.jpg", "/favicon-32.png", "/api/v0/ports",
                "/robots2.txt", "/js/app.77aa.js", "/css/site.0b9e.css"]


def _ip(rng):
    return f"{rng.choice([31, 37, 46, 78, 81, 86, 90, 109, 176, 185, 212])}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def varnish_log(rng):
    rows = []  # (t, path, method, status, bytes, D, hitmiss, handling)
    # cache hits: %D plateau at 4180 us from the 93rd to the 99th percentile
    n_hit = 2400
    lo_n, hi_n = int(0.93 * n_hit), int(0.99 * n_hit)
    ds = [rng.randint(1000, 3900) for _ in range(lo_n)] + [4180] * (hi_n - lo_n) + \
         [rng.randint(4500, 9400) for _ in range(n_hit - hi_n)]
    rng.shuffle(ds)
    for t, d in zip(rand_times(rng, n_hit), ds):
        rows.append((t, rng.choice(STATIC), "GET", 200, rng.randint(1200, 88000), d, "hit", "hit"))
    # 503s: cass-03 (02:14:10-02:32:50, minute 02:21 the most) and the Vault burst (03:07-03:16)
    rest = split_total(rng, 161 - 19, 18, 5, 11)
    per_min = [19 if m == 21 else rest.pop() for m in range(14, 33)]
    for m, k in zip(range(14, 33), per_min):
        a = DAY.replace(hour=2, minute=m) + (timedelta(seconds=10) if m == 14 else timedelta())
        b = DAY.replace(hour=2, minute=m + 1) - (timedelta(seconds=10) if m == 32 else timedelta())
        for t in rand_times(rng, k, a, b):
            path = rng.choice([f"/api/sailings?route={rng.choice(ROUTES)}&date=2031-06-2{rng.randint(0, 9)}",
                               "/api/fares?route=" + rng.choice(ROUTES), "/api/bookings"])
            rows.append((t, path, "POST" if path == "/api/bookings" else "GET", 503, 282, rng.randint(5000100, 5004900),
                         "miss", "miss" if path != "/api/bookings" else "pass"))
    first_503 = min(r[0] for r in rows if r[3] == 503)
    rows = [r if r[0] != first_503 else (at("2:14:13", 402118),) + r[1:] for r in rows]
    for t in rand_times(rng, 52, at("3:07:00"), at("3:16:00")):
        rows.append((t, "/api/bookings", "POST", 503, 282, rng.randint(1000, 1900) * 100 + 17, "miss", "pass"))
    # 502s (backend fetch failed on a reload), scattered outside both bursts
    avoid = [(at("2:10:00"), at("2:40:00")), (at("3:02:00"), at("3:21:00"))]
    for t in rand_times(rng, 64, avoid=avoid):
        rows.append((t, "/api/sailings?route=" + rng.choice(ROUTES), "GET", 502, 278, rng.randint(1100, 9800) * 10 + 3,
                     "miss", "miss"))
    # 404s
    for path, k in NOT_FOUND:
        for t in rand_times(rng, k):
            rows.append((t, path, "GET", 404, 196, rng.randint(1100, 9900), "miss", "miss"))
    for t in rand_times(rng, 34):
        rows.append((t, rng.choice(NOT_FOUND_BG), "GET", 404, 196, rng.randint(1100, 9900), "miss", "miss"))
    # ordinary misses and passes
    ok = 6000 - len(rows)
    for t in rand_times(rng, ok, avoid=[(at("2:14:00"), at("2:33:00"))]):
        x = rng.random()
        if x < 0.55:
            path, method, handling = f"/api/sailings?route={rng.choice(ROUTES)}&date=2031-06-{rng.randint(18, 30)}", "GET", "miss"
        elif x < 0.85:
            path, method, handling = "/api/fares?route=" + rng.choice(ROUTES), "GET", "miss"
        else:
            path, method, handling = "/api/bookings", "POST", "pass"
        status = 200 if method == "GET" or rng.random() < 0.7 else 201
        rows.append((t, path, method, status, rng.randint(1100, 64000), rng.randint(18000, 640000), "miss", handling))
    rows.sort(key=lambda r: r[0])
    # every client address appears at least once: 1437 of them
    ips = set()
    while len(ips) < 1437:
        ips.add(_ip(rng))
    ips = sorted(ips)
    rng.shuffle(ips)
    order = list(range(len(rows)))
    rng.shuffle(order)
    who = [None] * len(rows)
    for i, j in enumerate(order):
        who[j] = ips[i] if i < len(ips) else rng.choice(ips)
    out = []
    for (t, path, method, status, size, d, hm, handling), ip in zip(rows, who):
        ref = "-" if path.startswith("/api/") else "https://www.corvinaferries.example/"
        out.append(f'{ip} - - [{t:%d/%b/%Y:%H:%M:%S} +0000] "{method} http://www.corvinaferries.example{path} HTTP/1.1" '
                   f'{status} {size} "{ref}" "{rng.choice(UAS)}" {d} {hm} {handling}\n')
    return "".join(out)


# ---------------------------------------------------------------- cassandra system.log

def _cass(t, level, thread, src, msg):
    return f"{level:<5} [{thread}] {t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} {src} - {msg}\n"


OOM_TRACE = ["java.lang.OutOfMemoryError: Java heap space",
             "\tat java.base/java.nio.HeapByteBuffer.<init>(HeapByteBuffer.java:64)",
             "\tat java.base/java.nio.ByteBuffer.allocate(ByteBuffer.java:363)",
             "\tat org.apache.cassandra.io.util.BufferPool.allocate(BufferPool.java:187)",
             "\tat org.apache.cassandra.db.rows.UnfilteredSerializer.deserializeRowBody(UnfilteredSerializer.java:618)",
             "\tat org.apache.cassandra.db.ReadCommandVerbHandler.doVerb(ReadCommandVerbHandler.java:78)",
             "\tat org.apache.cassandra.net.InboundSink.lambda$new$0(InboundSink.java:78)",
             "\tat java.base/java.lang.Thread.run(Thread.java:829)"]


def cassandra_log(rng):
    ev = []  # (t, text)
    dead = (at("2:31:48"), at("2:33:04"))
    # young collections at INFO, mean exactly 294 ms
    young = split_total(rng, 240 * 294, 240, 203, 389)
    for t, ms in zip(rand_times(rng, 240, avoid=[dead]), young):
        eden = rng.randint(600, 900) * 1048576
        ev.append((t, _cass(t, "INFO", "Service Thread", "GCInspector.java:294",
                            f"G1 Young Generation GC in {ms}ms.  G1 Eden Space: {eden} -> 0; G1 Old Gen: "
                            f"{rng.randint(3000, 5000) * 1048576} -> {rng.randint(3000, 5000) * 1048576}; G1 Survivor Space: "
                            f"{rng.randint(40, 90) * 1048576} -> {rng.randint(40, 90) * 1048576}; ")))
    # old generation pauses at WARN: 74 from 02:13:41, the longest 11873 ms
    old_t = [at("2:13:41", 208000)] + rand_times(rng, 73, at("2:13:50"), at("2:31:30"))
    old_ms = [rng.randint(1200, 9800) for _ in range(74)]
    old_ms[50] = 11873
    for t, ms in zip(old_t, old_ms):
        ev.append((t, _cass(t, "WARN", "Service Thread", "GCInspector.java:292",
                            f"G1 Old Generation GC in {ms}ms.  G1 Old Gen: {rng.randint(7600, 7900) * 1048576} -> "
                            f"{rng.randint(7400, 7600) * 1048576}; ")))
    # dropped messages: READ_REQ internal sums to 9317 over 40 reports, and some MUTATION_REQ
    reads = split_total(rng, 9317, 40, 110, 390)
    for t, k in zip(rand_times(rng, 40, at("2:15:00"), at("2:31:00")), reads):
        ev.append((t, _cass(t, "INFO", "ScheduledTasks:1", "MessagingMetrics.java:206",
                            f"READ_REQ messages were dropped in last 5000 ms: {k} internal and {rng.randint(0, 40)} cross node. "
                            f"Mean internal dropped latency: {rng.randint(5001, 5900)} ms and Mean cross-node dropped latency: "
                            f"{rng.randint(5001, 5900)} ms")))
    for t in rand_times(rng, 12, at("2:16:00"), at("2:31:00")):
        ev.append((t, _cass(t, "INFO", "ScheduledTasks:1", "MessagingMetrics.java:206",
                            f"MUTATION_REQ messages were dropped in last 5000 ms: {rng.randint(20, 400)} internal and 0 cross node. "
                            f"Mean internal dropped latency: {rng.randint(2001, 4900)} ms and Mean cross-node dropped latency: 0 ms")))
    # ERRORs: 64 read-stage heap exhaustions, 2 in compaction, the JVM's exit
    for t in rand_times(rng, 64, at("2:24:00"), at("2:31:40")):
        k = rng.randint(1, 16)
        ev.append((t, _cass(t, "ERROR", f"ReadStage-{k}", "AbstractLocalAwareExecutorService.java:166",
                            f"Uncaught exception on thread Thread[ReadStage-{k},5,main]") + "".join(x + "\n" for x in OOM_TRACE)))
    for t in rand_times(rng, 2, at("2:26:00"), at("2:31:00")):
        ev.append((t, _cass(t, "ERROR", "CompactionExecutor:3", "CassandraDaemon.java:581",
                            "Exception in thread Thread[CompactionExecutor:3,1,main]") + "".join(x + "\n" for x in OOM_TRACE[:3])))
    t = at("2:31:47", 611000)
    ev.append((t, _cass(t, "ERROR", "ReadStage-7", "JVMStabilityInspector.java:196",
                        "JVM state determined to be unstable.  Exiting forcefully due to:") + OOM_TRACE[0] + "\n"))
    # compactions and flushes
    for t in rand_times(rng, 160, avoid=[dead]):
        if rng.random() < 0.5:
            ev.append((t, _cass(t, "INFO", f"CompactionExecutor:{rng.randint(1, 4)}", "CompactionTask.java:258",
                                f"Compacted ({uuid(rng)}) 4 sstables to [/var/lib/cassandra/data/booking/sailings_by_route-"
                                f"{hexid(rng, 32)}/nb-{rng.randint(1000, 9999)}-big,] to level=0.  {rng.randint(10, 99)}.{rng.randint(100, 999)}MiB "
                                f"to {rng.randint(10, 99)}.{rng.randint(100, 999)}MiB (~{rng.randint(80, 99)}% of original) in "
                                f"{rng.randint(1, 9)},{rng.randint(100, 999)}ms.  Read Throughput = {rng.randint(1, 9)}.{rng.randint(100, 999)}MiB/s, "
                                f"Write Throughput = {rng.randint(1, 9)}.{rng.randint(100, 999)}MiB/s, Row Throughput = ~{rng.randint(10, 99)},"
                                f"{rng.randint(100, 999)}/s.  {rng.randint(10, 99)},{rng.randint(100, 999)} total partitions merged to "
                                f"{rng.randint(10, 99)},{rng.randint(100, 999)}.  Partition merge counts were {{1:{rng.randint(1000, 9999)}, }}")))
        else:
            table = rng.choice(["bookings", "sailings_by_route", "fares_by_route", "holds"])
            ev.append((t, _cass(t, "INFO", f"NativePoolCleaner", "ColumnFamilyStore.java:878",
                                f"Enqueuing flush of booking.{table}, Reason: MEMTABLE_LIMIT, Usage: {rng.randint(100, 300)}.{rng.randint(100, 999)}MiB "
                                f"(12%) on-heap, {rng.randint(10, 90)}.{rng.randint(100, 999)}MiB (4%) off-heap")))
    # the restart
    boot = [("2:33:04", 118000, "CassandraDaemon.java:601", "Hostname: cass-03:7000:7001"),
            ("2:33:04", 131000, "CassandraDaemon.java:608", "JVM vendor/version: OpenJDK 64-Bit Server VM/11.0.24"),
            ("2:33:05", 20000, "CassandraDaemon.java:609", "Heap size: 8.000GiB/8.000GiB"),
            ("2:33:11", 448000, "CommitLog.java:195", "Replaying /var/lib/cassandra/commitlog/CommitLog-7-1939421188201.log"),
            ("2:33:16", 902000, "StorageService.java:1709", "JOINING: Finish joining ring"),
            ("2:33:19", 377000, "PipelineConfigurator.java:125",
             "Starting listening for CQL clients on /10.40.3.13:9042 (unencrypted)..."),
            ("2:33:19", 402000, "CassandraDaemon.java:782", "Startup complete")]
    for hms, us, src, msg in boot:
        t = at(hms, us)
        ev.append((t, _cass(t, "INFO", "main", src, msg)))
    for k, (hms, us) in enumerate([("2:33:20", 14000), ("2:33:20", 61000)]):
        t = at(hms, us)
        ev.append((t, _cass(t, "INFO", "GossipStage:1", "Gossiper.java:1398",
                            f"InetAddress /10.40.3.1{k + 1}:7000 is now UP")))
    ev.sort(key=lambda e: e[0])
    return "".join(x for _, x in ev)


# ---------------------------------------------------------------- booking-api (zap production JSON)

def _ts(t):
    return f"{t.timestamp():.7f}".rstrip("0").rstrip(".")


def booking_log(rng):
    ev = []
    end_t = at("3:59:57", 480000)

    def req(t, method, path, status, secs, level="info"):
        return (t, json_line({"level": level, "ts": _ts(t), "caller": "httpx/middleware.go:71", "msg": "request",
                              "method": method, "path": path, "status": status, "elapsed": round(secs, 6),
                              "remote": f"10.40.1.{rng.randint(10, 40)}", "trace_id": hexid(rng, 16)}))

    # /v1/ports: 250 requests, mean elapsed exactly 37.4 ms
    for t, us in zip(rand_times(rng, 250, START, at("3:59:00")), split_total(rng, 250 * 37400, 250, 12000, 69000)):
        ev.append(req(t, "GET", "/v1/ports", 200, us / 1e6))
    # cass-03: 118 + 69 + 23 read timeouts, each an error then a 504
    slow = [("/v1/sailings", "GET", "sailings_by_route", 118), ("/v1/fares", "GET", "fares_by_route", 69),
            ("/v1/bookings", "POST", "holds", 23)]
    first = True
    for path, method, table, k in slow:
        for t in rand_times(rng, k, at("2:14:20"), at("2:32:40")):
            if first:
                t, first = at("2:14:12", 730512), False
            err = {"level": "error", "ts": _ts(t), "caller": "store/cassandra.go:144", "msg": "cassandra query failed",
                   "table": table, "consistency": "LOCAL_QUORUM", "error": "Operation timed out - received only 0 responses.",
                   "stacktrace": "github.com/corvina/booking/store.(*Cass).Query\n\t/src/store/cassandra.go:144\n"
                                 "github.com/corvina/booking/api.(*Server).handle\n\t/src/api/server.go:212"}
            ev.append((t, json_line(err)))
            done = t + timedelta(microseconds=rng.randint(30, 900))
            ev.append(req(done, method, path, 504, 5.0 + rng.randint(1000, 9000) / 1e6, "warn"))
    # Vault: 71 denied credential reads from 03:06:14
    for i, t in enumerate([at("3:06:14", 88102)] + rand_times(rng, 70, at("3:06:20"), at("3:18:50"))):
        err = {"level": "error", "ts": _ts(t), "caller": "secrets/vault.go:88", "msg": "vault read failed",
               "path": "database/creds/booking-rw",
               "error": "Error making API request.\n\nURL: GET https://vault.corvina.internal:8200/v1/database/creds/booking-rw\n"
                        "Code: 403. Errors:\n\n* 1 error occurred:\n\t* permission denied\n\n",
               "stacktrace": "github.com/corvina/booking/secrets.(*Vault).DBCreds\n\t/src/secrets/vault.go:88"}
        ev.append((t, json_line(err)))
        ev.append(req(t + timedelta(microseconds=rng.randint(2000, 9000)), "POST", "/v1/bookings", 500,
                      rng.randint(4000, 30000) / 1e6, "warn"))
    # ordinary traffic
    outage = [(at("2:14:00"), at("2:33:00")), (at("3:06:00"), at("3:19:00"))]
    n = 4000 - len(ev) - 1
    for t in rand_times(rng, n, START, at("3:59:00"), avoid=outage):
        path, method = rng.choice([("/v1/sailings", "GET")] * 5 + [("/v1/fares", "GET")] * 3 + [("/v1/bookings", "POST")] * 2)
        status = rng.choice([200] * 20 + [400, 404]) if method == "GET" else rng.choice([201] * 12 + [409, 422])
        ev.append(req(t, method, path, status, rng.randint(8000, 480000) / 1e6))
    ev.append(req(end_t, "GET", "/v1/sailings", 200, 0.041882))
    ev.sort(key=lambda e: e[0])
    return "".join(x for _, x in ev)


def json_line(d):
    """One compact JSON record; a zap `ts` (epoch seconds, written by `_ts`) goes out as a bare number."""
    import json
    s = json.dumps(d, separators=(",", ":"))
    if isinstance(d.get("ts"), str):
        s = s.replace(f'"ts":"{d["ts"]}"', f'"ts":{d["ts"]}', 1)
    return s + "\n"


# ---------------------------------------------------------------- consul (hclog)

def _consul(t, level, msg):
    pad = f"[{level}]"
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z {pad:<8}{msg}\n"


def consul_log(rng):
    ev = []
    crit = lambda t, c: ev.append((t, _consul(t, "WARN", f"agent: Check is now critical: check={c}")))  # noqa: E731
    # booking-api health checks while cass-03 stalls: 49 / 44 / 31
    first = True
    for c, k in [("service:booking-api-1", 49), ("service:booking-api-2", 44), ("service:booking-api-3", 31)]:
        ts = rand_times(rng, k, at("2:15:10"), at("2:32:50"))
        if first:
            ts, first = [at("2:14:52", 306000)] + ts[1:], False
        for t in ts:
            crit(t, c)
    last1 = max(t for t, x in ev if "booking-api-1" in x)
    ev = [(t, x) for t, x in ev if not (t == last1)]
    crit(at("2:32:51", 774000), "service:booking-api-1")
    # cass-03's CQL check while it is down: 5
    for t in [at("2:31:58", 12000), at("2:32:08", 9000), at("2:32:18", 15000), at("2:32:28", 11000), at("2:32:38", 13000)]:
        crit(t, "service:cassandra-cass-03")
    # checkin-web: 8 (01:41:12 on)
    for i in range(8):
        t = at("1:41:12", 250000) + timedelta(seconds=20 * i)
        ev.append((t, _consul(t, "WARN", "agent: Check socket connection failed: check=service:checkin-web "
                                         "error=\"dial tcp 10.40.6.4:8080: connect: connection refused\"")))
        crit(t + timedelta(microseconds=400), "service:checkin-web")
    # flaps: 6
    for t in rand_times(rng, 6, avoid=[(at("1:30:00"), at("2:45:00"))]):
        crit(t, rng.choice(["service:fare-sync", "service:notify-worker", "service:pricing-cache"]))
    # membership of cass-03
    for hms, us, lvl, msg in [
        ("2:16:37", 220000, "INFO", "agent.server.memberlist.lan: memberlist: Suspect cass-03 has failed, no acks received"),
        ("2:31:55", 810000, "INFO", "agent.server.memberlist.lan: memberlist: Suspect cass-03 has failed, no acks received"),
        ("2:31:58", 4000, "INFO", "agent.server.serf.lan: serf: EventMemberFailed: cass-03 10.40.3.13"),
        ("2:31:58", 9000, "INFO", "agent.server: member failed, marking health critical: member=cass-03 partition=default"),
        ("2:33:24", 517000, "INFO", "agent.server.serf.lan: serf: EventMemberJoin: cass-03 10.40.3.13"),
        ("2:33:24", 522000, "INFO", "agent.server: member joined, marking health alive: member=cass-03 partition=default")]:
        t = at(hms, us)
        ev.append((t, _consul(t, lvl, msg)))
    # background: syncs, raft snapshots, rpc
    for t in rand_times(rng, 700):
        x = rng.random()
        if x < 0.6:
            msg = f"agent: Synced check: check=service:{rng.choice(['booking-api-1', 'booking-api-2', 'booking-api-3', 'fare-sync', 'notify-worker', 'checkin-web'])}"
            ev.append((t, _consul(t, "INFO", msg)))
        elif x < 0.9:
            ev.append((t, _consul(t, "DEBUG", f"agent.http: Request finished: method=GET url=/v1/health/service/"
                                               f"{rng.choice(['booking-api', 'cassandra', 'fare-sync'])}?passing=1 from=10.40.1.{rng.randint(10, 40)}:"
                                               f"{rng.randint(30000, 60000)} latency=\"{rng.randint(80, 900)}.{rng.randint(100, 999)}µs\"")))
        else:
            ev.append((t, _consul(t, "INFO", f"agent.server.fsm: snapshot created: duration=\"{rng.randint(2, 40)}.{rng.randint(100, 999)}ms\"")))
    ev.sort(key=lambda e: e[0])
    return "".join(x for _, x in ev)


# ---------------------------------------------------------------- vault audit (file device)

def vault_log(rng):
    ev = []
    clients = [("kubernetes-booking-booking-api", ["default", "booking-api"], [f"10.40.7.{i}" for i in (11, 12, 13, 14)]),
               ("kubernetes-notify-notify-worker", ["default", "notify-worker"], ["10.40.8.21", "10.40.8.22"]),
               ("approle-fare-sync", ["default", "fare-sync"], ["10.40.5.31"]),
               ("kubernetes-ci-runner", ["default", "ci-read"], [f"10.40.11.{i}" for i in range(20, 95)])]
    assert len({a for c in clients for a in c[2]}) == 82  # and the operator's 10.40.9.30

    def pair(t, who, pols, addr, op, path, mount, error=""):
        tok, acc = "hmac-sha256:" + hexid(rng, 64), "hmac-sha256:" + hexid(rng, 64)
        auth = {"client_token": tok, "accessor": acc, "display_name": who, "policies": pols, "token_policies": pols,
                "metadata": {"role": who.split("-")[-1]}, "entity_id": uuid(rng), "token_type": "service",
                "token_ttl": 3600, "token_issue_time": "2031-06-17T00:41:07Z"}
        rid = uuid(rng)
        r = {"id": rid, "operation": op, "mount_point": mount + "/", "mount_type": mount, "client_token": tok,
             "client_token_accessor": acc, "namespace": {"id": "root"}, "path": path, "remote_address": addr,
             "remote_port": rng.randint(30000, 60000)}
        t2 = t + timedelta(microseconds=rng.randint(300, 9000))
        a = {"time": f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}{rng.randint(100, 999)}Z", "type": "request", "auth": auth,
             "request": r}
        b = {"time": f"{t2:%Y-%m-%dT%H:%M:%S}.{t2.microsecond:06d}{rng.randint(100, 999)}Z", "type": "response",
             "auth": auth, "request": r, "response": {"mount_point": mount + "/", "mount_type": mount}}
        if error:
            a["error"] = b["error"] = error
        elif op == "read":
            b["response"]["data"] = {"username": "hmac-sha256:" + hexid(rng, 64), "password": "hmac-sha256:" + hexid(rng, 64)}
        ev.append((t, json_line(a)))
        ev.append((t2, json_line(b)))

    denied = "1 error occurred:\n\t* permission denied\n\n"
    ba = clients[0]
    # booking-api's credential reads: fine until 03:04:51, denied 71 times from 03:06:14
    for t in rand_times(rng, 150, START, at("3:04:00")) + [at("3:04:51", 300412)]:
        pair(t, ba[0], ba[1], rng.choice(ba[2]), "read", "database/creds/booking-rw", "database")
    for t in [at("3:06:14", 79000)] + rand_times(rng, 70, at("3:06:20"), at("3:18:50")):
        pair(t, ba[0], ba[1], rng.choice(ba[2]), "read", "database/creds/booking-rw", "database", denied)
    for t in rand_times(rng, 23, at("3:06:30"), at("3:18:00")):
        pair(t, ba[0], ba[1], rng.choice(ba[2]), "read", "secret/data/booking/stripe", "kv", denied)
    t = at("3:05:26", 640000)
    pair(t, "userpass-tdevlin", ["default", "vault-admin"], "10.40.9.30", "update", "sys/policies/acl/booking-api", "system")
    # the others
    for t in rand_times(rng, 60):
        c = clients[1]
        pair(t, c[0], c[1], rng.choice(c[2]), "read", "secret/data/notify/smtp", "kv")
    for t in rand_times(rng, 40):
        pair(t, clients[2][0], clients[2][1], "10.40.5.31", "read", "secret/data/fares/upstream", "kv")
    ci = clients[3]
    for a in ci[2]:  # every runner once, then at random
        pair(rand_times(rng, 1)[0], ci[0], ci[1], a, "read", "secret/data/ci/registry", "kv")
    for t in rand_times(rng, 38):
        pair(t, ci[0], ci[1], rng.choice(ci[2]), "read", "secret/data/ci/registry", "kv")
    for t in rand_times(rng, 5, START, at("2:00:00")):
        pair(t, ci[0], ci[1], rng.choice(ci[2]), "read", "secret/data/booking/stripe", "kv", denied)
    ev.sort(key=lambda e: e[0])
    return "".join(x for _, x in ev)


# ---------------------------------------------------------------- notify-worker (pino)

TEMPLATES = [("booking-confirmed", 290), ("checkin-reminder", 210), ("sailing-delayed", 120), ("refund-issued", 41)]


def _ref(rng):
    return "CF-" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))


def notify_log(rng):
    ev = []
    base = {"pid": 2471, "hostname": "notify-1"}

    def line(t, level, **kw):
        d = {"level": level, "time": int(t.timestamp() * 1000) + 0}
        d.update(base)
        d.update(kw)
        return (t, json_line(d))

    sms_refs = set()
    while len(sms_refs) < 377:
        sms_refs.add(_ref(rng))
    sms_refs = sorted(sms_refs)
    # sends per hour: 01: 250, 02: 300, 03: 111 (e-mail fails from 03:00)
    tmpl = [name for name, k in TEMPLATES for _ in range(k)]
    rng.shuffle(tmpl)
    times = rand_times(rng, 250, START, at("2:00:00")) + rand_times(rng, 300, at("2:00:00"), at("3:00:00")) + \
        rand_times(rng, 111, at("3:00:00"), END)
    chans = ["sms"] * 520 + ["email"] * 141
    rng.shuffle(chans)
    # after 03:00 only SMS gets through
    late = [i for i, t in enumerate(times) if t >= at("3:00:00")]
    early_sms = [i for i in range(len(times)) if i not in late and chans[i] == "sms"]
    for i in late:
        if chans[i] == "email":
            j = early_sms.pop()
            chans[i], chans[j] = "sms", "email"
    durs = [rng.randint(120, 8900) for _ in times]
    durs[333] = 18422
    order = list(range(520))
    rng.shuffle(order)
    k_sms = 0
    for i, t in enumerate(times):
        if chans[i] == "sms":
            ref = sms_refs[order[k_sms]] if order[k_sms] < len(sms_refs) else rng.choice(sms_refs)
            k_sms += 1
            ev.append(line(t, 30, channel="sms", template=tmpl[i], booking_ref=ref, provider="smsrelay",
                           durationMs=durs[i], msg="notification sent"))
        else:
            ev.append(line(t, 30, channel="email", template=tmpl[i], booking_ref=_ref(rng), relay="mail-relay.corvinaferries.example:465",
                           durationMs=durs[i], msg="notification sent"))
    # e-mails fail from 03:00:04: 90 errors
    stack = ("Error: certificate has expired\n    at TLSSocket.onConnectSecure (node:_tls_wrap:1674:34)\n"
             "    at TLSSocket.emit (node:events:519:28)\n    at TLSSocket._finishInit (node:_tls_wrap:1085:8)\n"
             "    at ssl.onhandshakedone (node:_tls_wrap:871:12)")
    for t in [at("3:00:04", 517000)] + rand_times(rng, 89, at("3:00:10"), END - timedelta(seconds=20)):
        ev.append(line(t, 50, channel="email", template=rng.choice(["booking-confirmed", "checkin-reminder"]),
                       booking_ref=_ref(rng), relay="mail-relay.corvinaferries.example:465",
                       err={"type": "Error", "message": "certificate has expired", "stack": stack, "code": "CERT_HAS_EXPIRED"},
                       msg="send failed"))
    # 6 other errors earlier
    for t in rand_times(rng, 6, START, at("2:40:00")):
        ev.append(line(t, 50, channel="sms", template="sailing-delayed-cy", booking_ref=_ref(rng),
                       err={"type": "TemplateError", "message": "template sailing-delayed-cy not found",
                            "stack": "TemplateError: template sailing-delayed-cy not found\n    at render (/app/src/templates.js:41:11)"},
                       msg="render failed"))
    # queue heartbeats and warnings
    for t in rand_times(rng, 1500 - len(ev) - 40):
        ev.append(line(t, 20, queue="notify.outbound", depth=rng.randint(0, 40), msg="queue poll"))
    for t in rand_times(rng, 40):
        ev.append(line(t, 40, provider="smsrelay", attempt=2, msg="provider slow, retrying"))
    ev.sort(key=lambda e: e[0])
    return "".join(x for _, x in ev)


# ---------------------------------------------------------------- syslog (RFC 3164)

def _sys(t, host, tag, msg):
    return f"{t:%b} {t.day:>2} {t:%H:%M:%S} {host} {tag}: {msg}\n"


def syslog(rng):
    ev = []
    add = lambda t, h, tag, m: ev.append((t, _sys(t, h, tag, m)))  # noqa: E731
    hosts = ["cass-03", "relay-01", "checkin-01", "bastion-01", "booking-2"]
    t = START
    while t < END:  # sysstat every 10 minutes on each host
        for h in hosts:
            tt = t + timedelta(seconds=1 + hosts.index(h))
            add(tt, h, f"CRON[{rng.randint(20000, 60000)}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
        t += timedelta(minutes=10)
    # sshd on bastion-01: 118 failed passwords, 45.146.165.37 the most
    attackers = [("45.146.165.37", 41), ("193.32.162.70", 29), ("80.94.95.115", 22), ("141.98.11.23", 15), ("92.118.39.61", 11)]
    for ip, k in attackers:
        for t in rand_times(rng, k):
            user = rng.choice(["root", "admin", "ubuntu", "oracle", "postgres"])
            inv = "" if user == "root" else "invalid user "
            add(t, "bastion-01", f"sshd[{rng.randint(20000, 60000)}]",
                f"Failed password for {inv}{user} from {ip} port {rng.randint(30000, 65000)} ssh2")
    for t in rand_times(rng, 6):
        add(t, "bastion-01", f"sshd[{rng.randint(20000, 60000)}]",
            f"Accepted publickey for tdevlin from 10.40.9.30 port {rng.randint(30000, 65000)} ssh2: ED25519 SHA256:qk3N2v0b7m1YtGz8c4hJmE5pXwS9aLrT6uVdFe0iKoU")
    # checkin-web on checkin-01
    add(at("1:41:03"), "checkin-01", "systemd[1]", "checkin-web.service: Main process exited, code=exited, status=1/FAILURE")
    add(at("1:41:03"), "checkin-01", "systemd[1]", "checkin-web.service: Failed with result 'exit-code'.")
    add(at("1:43:49"), "checkin-01", "systemd[1]", "checkin-web.service: Scheduled restart job, restart counter is at 1.")
    add(at("1:43:49"), "checkin-01", "systemd[1]", "Started checkin-web.service - Corvina kiosk check-in web.")
    # certbot on relay-01
    for hms in ("1:20:14", "2:58:41"):
        pid = rng.randint(20000, 60000)
        t = at(hms)
        add(t - timedelta(seconds=9), "relay-01", "systemd[1]", "Starting certbot.service - Certbot...")
        add(t, "relay-01", f"certbot[{pid}]", "Certbot failed to authenticate some domains (authenticator: standalone). "
            "The Certificate Authority reported these problems:")
        add(t, "relay-01", f"certbot[{pid}]", "  Domain: mail-relay.corvinaferries.example")
        add(t, "relay-01", f"certbot[{pid}]", "  Type:   connection")
        add(t, "relay-01", f"certbot[{pid}]", "  Detail: 185.44.12.9: Fetching http://mail-relay.corvinaferries.example/"
            ".well-known/acme-challenge/x0Qe: Timeout during connect (likely firewall problem)")
        add(t + timedelta(seconds=1), "relay-01", "systemd[1]", "certbot.service: Main process exited, code=exited, status=1/FAILURE")
        add(t + timedelta(seconds=1), "relay-01", "systemd[1]", "certbot.service: Failed with result 'exit-code'.")
        add(t + timedelta(seconds=1), "relay-01", "systemd[1]", "Failed to start certbot.service - Certbot.")
    # cass-03's JVM OOM-killed
    k = "kernel"
    add(at("2:31:51"), "cass-03", k, "[8812344.501277] java invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0")
    add(at("2:31:51"), "cass-03", k, "[8812344.501302] CPU: 3 PID: 4187 Comm: java Not tainted 6.8.0-45-generic #45-Ubuntu")
    add(at("2:31:52"), "cass-03", k, "[8812344.717940] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=cassandra.service,"
        "mems_allowed=0,global_oom,task_memcg=/system.slice/cassandra.service,task=java,pid=4121,uid=112")
    add(at("2:31:52"), "cass-03", k, "[8812344.718011] Out of memory: Killed process 4121 (java) total-vm:24117248kB, "
        "anon-rss:15934212kB, file-rss:0kB, shmem-rss:0kB, UID:112 pgtables:33112kB oom_score_adj:0")
    add(at("2:31:52"), "cass-03", "systemd[1]", "cassandra.service: Main process exited, code=killed, status=9/KILL")
    add(at("2:31:52"), "cass-03", "systemd[1]", "cassandra.service: Failed with result 'signal'.")
    add(at("2:32:57"), "cass-03", "systemd[1]", "cassandra.service: Scheduled restart job, restart counter is at 1.")
    add(at("2:32:58"), "cass-03", "systemd[1]", "Started cassandra.service - Apache Cassandra.")
    # chatter
    for t in rand_times(rng, 120):
        h = rng.choice(hosts)
        add(t, h, "systemd[1]", rng.choice(["Starting sysstat-collect.service - system activity accounting tool...",
                                             "sysstat-collect.service: Deactivated successfully.",
                                             "Finished sysstat-collect.service - system activity accounting tool."]))
    for t in rand_times(rng, 40):
        add(t, rng.choice(hosts), f"systemd-timesyncd[{rng.randint(400, 900)}]",
            "Contacted time server 10.40.0.2:123 (ntp.corvina.internal).")
    ev.sort(key=lambda e: e[0])
    return "".join(x for _, x in ev)


# ---------------------------------------------------------------- nginx combined (kiosk check-in)

KIOSK_PATHS = [("/kiosk/api/checkin", 880), ("/kiosk/api/lookup", 640), ("/kiosk/api/boardingpass", 470),
               ("/kiosk/static/app.js", 340), ("/kiosk/api/seatmap", 255), ("/kiosk/static/app.css", 165),
               ("/kiosk/api/baggage", 92), ("/healthz", 64)]


def nginx_log(rng):
    paths = [p for p, k in KIOSK_PATHS for _ in range(k)]
    rng.shuffle(paths)
    spike = {41: 40, 42: 62, 43: 30}
    times = []
    for m, k in spike.items():
        a = DAY.replace(hour=1, minute=m) + (timedelta(seconds=4) if m == 41 else timedelta())
        times += rand_times(rng, k, a, DAY.replace(hour=1, minute=m + 1))
    times += rand_times(rng, len(paths) - len(times))
    times.sort()
    rng.shuffle(times)
    heavy = [("10.60.4.21", 141), ("10.60.2.9", 118), ("10.60.7.33", 97)]
    pool = [f"10.60.{a}.{b}" for a in range(1, 9) for b in range(2, 30)]
    pool = [p for p in pool if p not in {h for h, _ in heavy}]
    who = [h for h, k in heavy for _ in range(k)]
    who += [rng.choice(pool) for _ in range(len(paths) - len(who))]
    rng.shuffle(who)
    rows = sorted(zip(times, paths, who))
    down = (at("1:41:04"), at("1:43:50"))
    # the first request after checkin-web exits is a check-in, at 01:41:04
    i = min(k for k, r in enumerate(rows) if r[0] >= down[0])
    j = next(k for k in range(i, len(rows)) if rows[k][1] == "/kiosk/api/checkin")
    (ti, pi, wi), (tj, pj, wj) = rows[i], rows[j]
    rows[i], rows[j] = (down[0], pj, wi), (tj, pi, wj)
    out = []
    for t, path, ip in rows:
        api = path.startswith("/kiosk/api/")
        if path == "/kiosk/api/boardingpass":
            path = f"/kiosk/api/boardingpass/{_ref(rng)}"
        method = "POST" if path in ("/kiosk/api/checkin", "/kiosk/api/baggage") else "GET"
        if api and down[0] <= t < down[1]:
            status, size = 502, 157
        else:
            status = 200 if rng.random() < 0.96 or not api else rng.choice([400, 404, 409])
            size = rng.randint(1200, 48000)
        ua = "CorvinaKiosk/3.2 (Linux; kiosk)" if ip.startswith("10.60.") else "curl/8.5.0"
        out.append(f'{ip} - - [{t:%d/%b/%Y:%H:%M:%S} +0000] "{method} {path} HTTP/1.1" {status} {size} "-" "{ua}"\n')
    return "".join(out)
