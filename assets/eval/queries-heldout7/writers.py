"""Writers of the `queries-heldout7` fixtures (Ambergate Bikeshare, Wednesday 2031-10-08,
02:00-05:00 UTC). Each takes a seeded `random.Random` and returns the file's text. The planted
events sit at chosen seconds; `gen.facts` parses the text back (`truth.py`) and asserts them.
"""

import json
from datetime import datetime, timedelta, timezone

UTC = timezone.utc
DAY = datetime(2031, 10, 8, tzinfo=UTC)
START = DAY.replace(hour=2)
END = DAY.replace(hour=5)


def at(hms, us=0):
    h, m, s = (int(x) for x in hms.split(":"))
    return DAY.replace(hour=h, minute=m, second=s, microsecond=us)


def rand_t(rng, a=START, b=END, avoid=()):
    span = int((b - a).total_seconds() * 1e6)
    while True:
        t = a + timedelta(microseconds=rng.randrange(span))
        if not any(x <= t < y for x, y in avoid):
            return t


def spread(rng, n, a, b):
    return sorted(rand_t(rng, a, b) for _ in range(n))


def ip_pool(rng, n, prefixes):
    seen = []
    while len(seen) < n:
        ip = f"{rng.choice(prefixes)}.{rng.randrange(1, 255)}.{rng.randrange(1, 255)}"
        if ip not in seen:
            seen.append(ip)
    return seen


def finish(rows):
    rows.sort(key=lambda r: r[0])
    return "".join(line + "\n" for _, line in rows)


# --------------------------------------------------------------------------- traefik
ROUTERS = {
    "rides@kubernetes": (2050, ["/v1/rides/start", "/v1/rides/end", "/v1/rides/quote", "/v1/rides/active"]),
    "docks@kubernetes": (1420, ["/v1/docks/state", "/v1/docks/heartbeat", "/v1/docks/release"]),
    "payments@kubernetes": (880, ["/v1/payments/authorize", "/v1/payments/capture", "/v1/passes/renew"]),
    "fleet-admin@kubernetes": (640, ["/admin/bikes", "/admin/rebalance", "/admin/login", "/admin/static/app.js"]),
    "accounts@kubernetes": (610, ["/v1/account", "/v1/account/payment-methods", "/v1/auth/token"]),
    "stations@kubernetes": (400, ["/v1/stations", "/v1/stations/availability"]),
}


def traefik_log(rng):
    clients = ip_pool(rng, 1400, ["10.42", "10.43", "10.44"])
    planted = {  # router -> list of (time, status, duration ns)
        "rides@kubernetes": [(at("03:12:31", 204118), 504)] + [(t, 504) for t in spread(rng, 100, at("03:12:40"), at("03:25:40"))]
        + [(t, 504) for t in spread(rng, 29, at("03:14:00"), at("03:14:59"))] + [(at("03:25:50", 771020), 504)],
        "docks@kubernetes": [(t, 504) for t in spread(rng, 64, at("03:13:00"), at("03:25:40"))],
        "payments@kubernetes": [(t, 504) for t in spread(rng, 22, at("04:06:10"), at("04:18:00"))],
        "fleet-admin@kubernetes": [(at("02:31:14", 90211), 503)] + [(t, 503) for t in spread(rng, 72, at("02:31:20"), at("02:36:50"))],
    }
    rows = []
    for router, (total, paths) in ROUTERS.items():
        plan = planted.get(router, [])
        n_bg = total - len(plan)
        durs = None
        if router == "stations@kubernetes":
            durs = [rng.randrange(3_000_000, 40_000_000) for _ in range(370)] + [61_250_000] * 30
            rng.shuffle(durs)
        for i in range(n_bg + len(plan)):
            if i < len(plan):
                t, status = plan[i]
                dur = 30_000_000_000 + rng.randrange(1_000_000, 9_000_000) if status == 504 else rng.randrange(100_000, 900_000)
            else:
                t = rand_t(rng)
                status = rng.choices([200, 201, 204, 404, 401, 302], [80, 6, 4, 5, 3, 2])[0]
                dur = durs[i - len(plan)] if durs else rng.randrange(2_000_000, 300_000_000)
            host = rng.choice(clients)
            path = rng.choice(paths)
            method = "POST" if path.endswith(("start", "end", "authorize", "capture", "renew", "release", "token", "rebalance", "login", "heartbeat")) else "GET"
            size = 0 if status in (204, 503, 504) else rng.randrange(80, 9000)
            d = {"ClientAddr": f"{host}:{rng.randrange(32768, 60999)}", "ClientHost": host, "DownstreamContentSize": size,
                 "DownstreamStatus": status, "Duration": dur, "OriginStatus": 0 if status in (503, 504) else status,
                 "RequestHost": "api.ambergate.internal", "RequestMethod": method, "RequestPath": path,
                 "RouterName": router, "ServiceName": router.replace("@", "-svc@"),
                 "entryPointName": "web", "level": "info", "msg": "",
                 "time": (t.replace(microsecond=0)).strftime("%Y-%m-%dT%H:%M:%SZ")}
            rows.append(((t, router, i), json.dumps(d, separators=(",", ":"))))
    rows.sort(key=lambda r: r[0])
    return "".join(line + "\n" for _, line in rows)


# --------------------------------------------------------------------------- caddy
URIS = [("/v2/rides/current", 790), ("/v2/account/me", 610), ("/v2/unlock", 540), ("/v2/passes", 470),
        ("/v2/rides/history", 380), ("/v2/stations/nearby", 250), ("/v2/auth/refresh", 190), ("/v2/support/ticket", 120),
        ("/v2/promo/redeem", 150)]


def caddy_log(rng):
    clients = ip_pool(rng, 900, ["81.2", "86.14", "92.40", "109.150", "176.24"])
    rows = []
    alarm = (at("04:05:50"), at("04:19:00"))
    unlock503 = [at("04:05:52", 318402)] + spread(rng, 94, at("04:06:00"), at("04:18:40")) + [at("04:18:47", 90115)]
    near = []
    for k in range(125):
        off = rng.randrange(1, 300) / 10000
        near += [round(0.0436 - off / 10, 6), round(0.0436 + off / 10, 6)]
    rng.shuffle(near)
    slow = None
    for uri, total in URIS:
        for i in range(total):
            method = "POST" if uri in ("/v2/unlock", "/v2/auth/refresh", "/v2/support/ticket", "/v2/promo/redeem") else "GET"
            status, dur = 200, round(rng.uniform(0.004, 0.9), 6)
            if uri == "/v2/unlock" and i < len(unlock503):
                t, status, dur = unlock503[i], 503, round(rng.uniform(2.0, 5.0), 6)
            else:
                t = rand_t(rng, avoid=[alarm] if uri == "/v2/unlock" else ())
                if uri == "/v2/stations/nearby":
                    dur = near[i]
                elif uri == "/v2/account/me" and rng.random() < 0.12:
                    status = 401
                elif uri == "/v2/promo/redeem" and rng.random() < 0.5:
                    status = 404
                elif uri == "/v2/passes" and rng.random() < 0.05:
                    status = 429
                elif uri == "/v2/rides/history" and slow is None:
                    slow = t = at("03:47:12", 402118)
                    dur = 9.876512
            q = ""
            if uri == "/v2/stations/nearby":
                q = f"?lat=51.{rng.randrange(4000, 5999)}&lon=-0.{rng.randrange(1000, 2999)}"
            elif uri == "/v2/rides/history":
                q = f"?page={rng.randrange(1, 9)}"
            ip = rng.choice(clients)
            d = {"level": "error" if status >= 400 else "info", "ts": round(t.timestamp(), 6),
                 "logger": "http.log.access.log0", "msg": "handled request",
                 "request": {"remote_ip": ip, "remote_port": str(rng.randrange(1024, 65535)),
                             "proto": "HTTP/2.0", "method": method, "host": "api.ambergate.bike", "uri": uri + q,
                             "headers": {"User-Agent": [rng.choice(["Ambergate/5.2.1 (iOS 19.1)", "Ambergate/5.2.0 (Android 16)", "okhttp/4.12.0"])]}},
                 "bytes_read": 0 if method == "GET" else rng.randrange(40, 400), "user_id": "", "duration": dur,
                 "size": 0 if status >= 500 else rng.randrange(60, 6000), "status": status,
                 "resp_headers": {"Content-Type": ["application/json"]}}
            rows.append(((t, uri, i), json.dumps(d, separators=(",", ":"))))
    rows.sort(key=lambda r: r[0])
    return "".join(line + "\n" for _, line in rows)


# --------------------------------------------------------------------------- mysql
def mysql_log(rng):
    rows = []
    ts = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")  # noqa: E731
    hosts = ip_pool(rng, 70, ["10.42"])
    users = ["rides_app"] * 150 + ["dock_sync"] * 61 + ["reporting"] * 36
    rng.shuffle(users)
    times = spread(rng, 40, START, at("03:00:00")) + spread(rng, 167, at("03:00:00"), at("04:00:00")) + spread(rng, 40, at("04:00:00"), END)
    conn = 88412
    for t, u in zip(times, users):
        conn += rng.randrange(1, 40)
        why = "Got timeout reading communication packets" if rng.random() < 0.6 else "Got an error reading communication packets"
        rows.append((t, f"{ts(t)} {conn} [Note] [MY-010914] [Server] Aborted connection {conn} to db: "
                        f"'{'rides' if u != 'reporting' else 'rides_ro'}' user: '{u}' host: '{rng.choice(hosts)}' ({why})."))
    unres = ["10.42.17.203"] * 38 + [h for h in ip_pool(rng, 30, ["10.44"]) for _ in range(rng.randrange(1, 4))][:74]
    first = at("02:07:44", 551203)
    rows.append((first, f"{ts(first)} {conn + 3} [Warning] [MY-010055] [Server] IP address '10.42.17.203' could not be resolved: Name or service not known"))
    for ip in unres[1:]:
        t = rand_t(rng, first + timedelta(seconds=1)) if ip == "10.42.17.203" else rand_t(rng)
        rows.append((t, f"{ts(t)} {rng.randrange(88000, 99000)} [Warning] [MY-010055] [Server] IP address '{ip}' could not be resolved: Name or service not known"))
    for t in spread(rng, 40, START, END):
        rows.append((t, f"{ts(t)} {rng.randrange(88000, 99000)} [Warning] [MY-013360] [Server] Plugin mysql_native_password reported: "
                        "''mysql_native_password' is deprecated and will be removed in a future release. Please use caching_sha2_password instead'"))
    for k in range(13):
        t = at("03:12:07", 118342) + timedelta(seconds=60 * k)
        rows.append((t, f"{ts(t)} 0 [ERROR] [MY-000035] [Server] Disk is full writing './binlog.000412' (OS errno 28 - No space "
                        "left on device). Waiting for someone to free space... Retry in 60 secs. Message reprinted in 600 secs."))
    for t in spread(rng, 6, START, END):
        rows.append((t, f"{ts(t)} 0 [System] [MY-010116] [Server] /usr/sbin/mysqld (mysqld 8.0.39) checkpoint: InnoDB buffer pool dump skipped"))
    return finish(rows)


# --------------------------------------------------------------------------- rabbitmq
def rabbit_log(rng):
    rows = []
    ts = lambda t: t.strftime("%Y-%m-%d %H:%M:%S.%f") + "+00:00"  # noqa: E731
    ips = ip_pool(rng, 95, ["10.42", "10.43"])
    users = ["rides"] * 150 + ["docks"] * 98 + ["payments"] * 70
    rng.shuffle(users)
    pid = 4100
    for u in users:
        t = rand_t(rng, START, END - timedelta(minutes=3))
        pid += rng.randrange(3, 60)
        ip = rng.choice(ips)
        c = f"<0.{pid}.0> ({ip}:{rng.randrange(32768, 60999)} -> 10.43.9.12:5672)"
        rows.append((t, f"{ts(t)} [info] <0.{pid}.0> accepting AMQP connection {c}"))
        t2 = t + timedelta(milliseconds=rng.randrange(3, 40))
        rows.append((t2, f"{ts(t2)} [info] <0.{pid}.0> connection {c}: user '{u}' authenticated and granted access to vhost '/'"))
        t3 = t2 + timedelta(seconds=rng.randrange(5, 150))
        if rng.random() < 0.2:
            rows.append((t3, f"{ts(t3)} [warning] <0.{pid}.0> closing AMQP connection {c}:\n{ts(t3)} [warning] <0.{pid}.0> client unexpectedly closed TCP connection"))
        else:
            rows.append((t3, f"{ts(t3)} [info] <0.{pid}.0> closing AMQP connection {c} (vhost: '/', user: '{u}')"))
    for t in spread(rng, 120, START, END):
        rows.append((t, f"{ts(t)} [info] <0.{rng.randrange(600, 900)}.0> Free disk space is sufficient. Free bytes: {rng.randrange(20_000_000_000, 30_000_000_000)}. Limit: 50000000"))
    a = at("04:05:37", 412907)
    banner = ["memory resource limit alarm set on node 'rabbit@mq-2'.", "",
              "**********************************************************",
              "*** Publishers will be blocked until this alarm clears ***",
              "**********************************************************"]
    rows.append((a, "\n".join(f"{ts(a)} [warning] <0.517.0> {x}" for x in banner)))
    c = at("04:19:02", 8116)
    rows.append((c, f"{ts(c)} [warning] <0.517.0> memory resource limit alarm cleared on node 'rabbit@mq-2'"))
    c2 = at("04:19:02", 9004)
    rows.append((c2, f"{ts(c2)} [warning] <0.517.0> memory resource limit alarm cleared across the cluster"))
    return finish(rows)


# --------------------------------------------------------------------------- kubelet
def kubelet_log(rng):
    rows = []
    kl = lambda sev, t, src, msg: (t, f"{sev}{t.strftime('%m%d %H:%M:%S.%f')}    1873 {src}] {msg}")  # noqa: E731
    pods = {"rides/rides-api-7d9f8c6b5-x2k4q": 0, "rides/rides-api-7d9f8c6b5-m8zpl": 27, "docks/docks-api-5b8c9d7f6-t4hnr": 19,
            "payments/payments-api-84f7c5d9b-wq2lz": 11, "fleet/fleet-admin-6c5d7f9b8-q7wtn": 8}
    for pod, k in pods.items():
        for t in spread(rng, k, START, END):
            rows.append(kl("I", t, "prober.go:107", f'"Probe failed" probeType="Readiness" pod="{pod}" podUID="{sum(map(ord, pod)) * 7919:08x}-2f1c" '
                            f'containerName="{pod.split("/")[1].rsplit("-", 2)[0]}" probeResult="failure" output="HTTP probe failed with statuscode: 503"'))
    x = "rides/rides-api-7d9f8c6b5-x2k4q"
    live = [at("03:12:58", 301772)] + spread(rng, 63, at("03:13:05"), at("03:25:30"))
    for t in live:
        rows.append(kl("I", t, "prober.go:107", f'"Probe failed" probeType="Liveness" pod="{x}" podUID="7a1e93c4-2f1c" containerName="rides-api" '
                        'probeResult="failure" output="Get \\"http://10.42.3.17:8080/healthz\\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"'))
    k = at("03:13:28", 640021)
    rows.append(kl("I", k, "kuberuntime_manager.go:1030", f'"Message for Container of pod" containerName="rides-api" containerStatusID={{"Type":"containerd","ID":"4f1d"}} pod="{x}" containerMessage="Container rides-api failed liveness probe, will be restarted"'))
    rows.append(kl("I", k + timedelta(microseconds=812), "kuberuntime_container.go:779", f'"Killing container with a grace period" pod="{x}" podUID="7a1e93c4-2f1c" containerName="rides-api" containerID="containerd://4f1d" gracePeriod=30'))
    w = at("02:31:05", 17730)
    rows.append(kl("W", w, "eviction_manager.go:369", '"Eviction manager: attempting to reclaim" resourceName="memory"'))
    e = at("02:31:06", 402281)
    rows.append(kl("I", e, "eviction_manager.go:395", '"Eviction manager: must evict pod(s) to reclaim" resourceName="memory"'))
    rows.append(kl("I", e + timedelta(microseconds=951), "eviction_manager.go:413", '"Eviction manager: pods ranked for eviction" pods=["fleet/fleet-admin-6c5d7f9b8-q7wtn","rides/rides-api-7d9f8c6b5-x2k4q"]'))
    e2 = at("02:31:07", 88314)
    rows.append(kl("I", e2, "eviction_manager.go:612", '"Eviction manager: pod is evicted successfully" pod="fleet/fleet-admin-6c5d7f9b8-q7wtn"'))
    for t in spread(rng, 142, START, END):
        rows.append(kl("W", t, "container.go:586", f'Failed to get RecentStats("/kubepods.slice/kubepods-burstable.slice/pod{rng.randrange(10**7):07x}.slice") while determining the next housekeeping: unable to find data in memory cache'))
    errs = spread(rng, 71, at("03:13:40"), at("03:26:00")) + spread(rng, 23, START, END)
    for i, t in enumerate(errs):
        if i < 71:
            rows.append(kl("E", t, "pod_workers.go:1301", f'"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"rides-api\\" with CrashLoopBackOff: \\"back-off 20s restarting failed container=rides-api pod={x.split("/")[1]}_rides(7a1e93c4-2f1c)\\"" pod="{x}" podUID="7a1e93c4-2f1c"'))
        else:
            rows.append(kl("E", t, "summary_sys_containers.go:48", '"Failed to get system container stats" err="failed to get cgroup stats for \\"/system.slice/containerd.service\\": failed to get container info for \\"/system.slice/containerd.service\\": unknown container \\"/system.slice/containerd.service\\"" containerName="/system.slice/containerd.service"'))
    for t in spread(rng, 700, START, END):
        pod = rng.choice(list(pods))
        rows.append(kl("I", t, "kubelet.go:2536", f'"SyncLoop (probe)" probe="readiness" status="ready" pod="{pod}"'))
    return finish(rows)


# --------------------------------------------------------------------------- apache
def apache_log(rng):
    rows = []
    ts = lambda t: t.strftime("[%a %b %d %H:%M:%S.%f %Y]")  # noqa: E731
    pidtid = lambda: f"[pid {rng.choice([2291, 2292, 2307, 2318])}:tid {rng.choice([139958230484736, 139958213699328, 139958205306624])}]"  # noqa: E731
    staff = ip_pool(rng, 40, ["10.8"])
    cl = lambda ip=None: f"[client {ip or rng.choice(staff)}:{rng.randrange(32768, 60999)}]"  # noqa: E731
    first = at("02:31:09", 482113)
    refused = [first] + spread(rng, 137, at("02:31:10"), at("02:36:50"))
    for i, t in enumerate(refused):
        c = cl()
        rows.append((t, f"{ts(t)} [proxy:error] {pidtid()} (111)Connection refused: {c} AH00957: http: attempt to connect to 10.42.5.21:8080 (fleet-admin.internal) failed"))
        t2 = t + timedelta(microseconds=310)
        if i % 9 == 0:
            rows.append((t2, f"{ts(t2)} [proxy_http:error] {pidtid()} {c} AH00959: ap_proxy_connect_backend disabling worker for (fleet-admin.internal:8080) for 60s"))
        t3 = t + timedelta(microseconds=620)
        rows.append((t3, f"{ts(t3)} [proxy_http:error] {pidtid()} {c} AH01114: HTTP: failed to make connection to backend: fleet-admin.internal"))
    scanners = ["185.220.101.47"] * 73 + [ip for ip in ip_pool(rng, 12, ["45.155", "193.32", "103.77"]) for _ in range(rng.randrange(3, 12))][:87]
    for ip in scanners:
        t = rand_t(rng)
        rows.append((t, f"{ts(t)} [authz_core:error] {pidtid()} {cl(ip)} AH01630: client denied by server configuration: /srv/fleet-admin/{rng.choice(['.git/config', '.env', 'wp-login.php', 'server-status'])}"))
    for t in spread(rng, 60, START, END):
        rows.append((t, f"{ts(t)} [ssl:warn] {pidtid()} AH01909: admin.ambergate.bike:443:0 server certificate does NOT include an ID which matches the server name"))
    return finish(rows)


# --------------------------------------------------------------------------- rides-api (tracing fmt)
def rides_log(rng):
    rows = []
    ts = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")  # noqa: E731
    line = lambda t, lvl, target, msg: (t, f"{ts(t)} {lvl:>5} {target}: {msg}")  # noqa: E731
    inc = (at("03:12:19"), at("03:25:44"))
    last = at("04:59:58", 771203)
    warn_band = (last - timedelta(minutes=65), last - timedelta(minutes=55))
    # requests
    ends = []
    for _ in range(120):
        k = rng.randrange(0, 120)
        ends += [187 - k, 188 + k]
    for lat in ends:
        t = rand_t(rng, START, at("04:59:50"), avoid=[inc])
        rows.append(line(t, "INFO", "rides_api::http", f"request completed method=POST path=/v1/rides/end status=200 latency_ms={lat}"))
    other = ["/v1/rides/start", "/v1/rides/quote", "/v1/rides/active", "/v1/docks/state", "/v1/account"]
    for _ in range(2100):
        t = rand_t(rng, START, at("04:59:50"))
        p = rng.choice(other)
        rows.append(line(t, "INFO", "rides_api::http", f"request completed method={'POST' if p.endswith(('start', 'quote')) else 'GET'} path={p} status=200 latency_ms={rng.randrange(4, 900)}"))
    s = at("03:47:12", 118555)
    rows.append(line(s, "INFO", "rides_api::http", "request completed method=POST path=/v1/passes/renew status=200 latency_ms=12408"))
    # the incident: pool timeouts and 500s
    f = at("03:12:19", 482113)
    rows.append(line(f, "WARN", "rides_api::db", 'pool timed out waiting for a connection pool="rides" waited_ms=5000'))
    fails = [("/v1/rides/start", 91), ("/v1/docks/state", 68), ("/v1/rides/quote", 43), ("/v1/account", 12)]
    times = [t for t in spread(rng, 214 - 40, at("03:12:21"), at("03:25:40"))] + spread(rng, 40, at("03:15:00"), at("03:15:59"))
    rng.shuffle(times)
    it = iter(times)
    for p, k in fails:
        for _ in range(k):
            t = next(it)
            rows.append(line(t, "WARN", "rides_api::db", f'pool timed out waiting for a connection pool="rides" waited_ms=5000'))
            e = t + timedelta(microseconds=rng.randrange(200, 900))
            rows.append(line(e, "ERROR", "rides_api::http", f'request failed method={"POST" if p.endswith(("start", "quote")) else "GET"} path={p} status=500 latency_ms={rng.randrange(5000, 5012)} error="pool timed out"'))
    r = at("03:13:40", 20331)
    rows.append(line(r, "INFO", "rides_api", 'starting rides-api version="3.14.2" git_sha="9c1f0e4"'))
    rows.append(line(r + timedelta(microseconds=900114), "INFO", "rides_api", "listening on 0.0.0.0:8080"))
    ok = at("03:25:44", 310207)
    rows.append(line(ok, "INFO", "rides_api::db", 'pool recovered pool="rides" idle=32 in_use=4'))
    # the broker alarm
    b = at("04:05:41", 77610)
    rows.append(line(b, "WARN", "rides_api::events", 'publish blocked by broker reason="low on memory" exchange="unlock.commands"'))
    for t in spread(rng, 86, at("04:05:45"), at("04:19:00")):
        rows.append(line(t, "WARN", "rides_api::events", 'publish blocked by broker reason="low on memory" exchange="unlock.commands"'))
    u = at("04:19:03", 441020)
    rows.append(line(u, "INFO", "rides_api::events", 'publish unblocked by broker exchange="unlock.commands"'))
    for t in [rand_t(rng, START, at("04:59:50"), avoid=[inc, warn_band]) for _ in range(57)]:
        rows.append(line(t, "WARN", "rides_api::http", f"slow request method=GET path=/v1/rides/active latency_ms={rng.randrange(1000, 3000)}"))
    rows.append(line(last, "INFO", "rides_api::jobs", "rebalance plan refreshed stations=212"))
    return finish(rows)
