"""Writers of the held-out query set's daemon, database, load-balancer and kernel logs.
Same contract as `writers.py`."""

import json
from datetime import timedelta

from writers import at, avoid, hexid, in_minute, rtime, sort_join, spread, syslog_ts


# ---------------------------------------------------------------------------------------
# syslog: RFC 3164 of trk-api-1/2, 1,200 lines 03:00-05:00. Planted: manifest-cleanup removes
# 64 stale manifests; systemd restarts scanner-bridge.service 11 times; postfix defers 28 mails.
def syslog_3164(rng):
    ev = []
    hosts = ["trk-api-1", "trk-api-2"]

    def line(t, host, prog, msg):
        ev.append((t, f"{syslog_ts(t)} {host} {prog}: {msg}"))

    def t_any():
        return rtime(rng, "03:00:01", "04:59:59")

    for _ in range(64):
        line(t_any(), "trk-api-1", f"manifest-cleanup[{rng.randrange(20000, 30000)}]",
             f"removed stale manifest /srv/manifests/2027-02-{rng.randrange(1, 28):02d}-{hexid(rng, 6)}.csv")
    for n in range(1, 12):
        t = rtime(rng, "03:05:00", "04:55:00")
        for msg in ("scanner-bridge.service: Main process exited, code=exited, status=1/FAILURE",
                    "scanner-bridge.service: Failed with result 'exit-code'.",
                    f"scanner-bridge.service: Scheduled restart job, restart counter is at {n}.",
                    "Started scanner-bridge.service - Depot scanner bridge."):
            line(t, "trk-api-2", "systemd[1]", msg)
            t += timedelta(seconds=1)
    for i in range(260):
        qid = hexid(rng, 10).upper()
        status = "deferred (connect to mx.partner.example[192.0.2.40]:25: Connection timed out)" if i < 28 else "sent (250 2.0.0 Ok)"
        line(t_any(), rng.choice(hosts), f"postfix/smtp[{rng.randrange(3000, 9000)}]",
             f"{qid}: to=<ops@tidewater.example>, relay=mail.tidewater.example[10.8.0.25]:25, delay=0.{rng.randrange(1, 9)}, status={status}")
    while len(ev) < 1200:
        t, h = t_any(), rng.choice(hosts)
        r = rng.random()
        if r < 0.4:
            line(t, h, f"CRON[{rng.randrange(20000, 60000)}]", "(root) CMD (/usr/local/bin/manifest-cleanup --older-than 7d)")
        elif r < 0.7:
            line(t, h, "systemd[1]", rng.choice(["Starting Cleanup of Temporary Directories...",
                                                 "systemd-tmpfiles-clean.service: Deactivated successfully.",
                                                 "Started Session 41 of User ops."]))
        else:
            line(t, h, f"kubelet[{1342 if h == 'trk-api-1' else 1377}]", f'I0309 probe="Readiness" pod="tracking/ingest-{hexid(rng, 5)}" status="success"')
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# billing-5424.log: RFC 5424, facility local3, 900 lines 03:00-05:00. Planted: invoice-gen
# logs 67 warnings (severity 4); customer c-40977 gets the most dunning retries (29);
# tax-calc raises 3 alerts (severity 1), the last at 04:31:09.
def billing_5424(rng):
    ev = []
    customers = [f"c-{x}" for x in rng.sample(range(10000, 99999), 90) if x != 40977]

    def line(t, sev, app, procid, msgid, sd, msg):
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}+00:00"
        ev.append((t, f"<{19 * 8 + sev}>1 {ts} billing-2 {app} {procid} {msgid} {sd} {msg}"))

    def sd(c):
        return f'[billing@41058 customer="{c}" plan="{rng.choice(["starter", "fleet", "enterprise"])}"]'

    def t_any():
        return rtime(rng, "03:00:01", "04:59:59")

    for _ in range(67):
        line(t_any(), 4, "invoice-gen", 811, "PDF", sd(rng.choice(customers)), "pdf render exceeded 5s, falling back to plain template")
    retries = ["c-40977"] * 29 + [c for c in rng.sample(customers, 30) for _ in range(rng.randrange(1, 9))]
    for c in retries:
        line(t_any(), 5, "dunning", 902, "RETRY", sd(c), f"card charge retry scheduled attempt={rng.randrange(2, 5)}")
    for t in (rtime(rng, "03:10:00", "03:40:00"), rtime(rng, "03:50:00", "04:20:00"), at("04:31:09.402")):
        line(t, 1, "tax-calc", 733, "CERT", "-", "tax provider certificate expired; invoices held")
    while len(ev) < 900:
        app = rng.choice(["invoice-gen", "invoice-gen", "tax-calc"])
        line(t_any(), 6, app, 811 if app == "invoice-gen" else 733, "OK", sd(rng.choice(customers)),
             f"invoice INV-{rng.randrange(10**6, 10**7)} issued")
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# journal-export.json: `journalctl -o json` of depot-gw-3, 450 entries 03:00-04:58.
# Planted: scanner-bridge.service logs 43 entries at PRIORITY 3 (first 03:07:44);
# route-optimizer.service logs the most warnings (PRIORITY 4, 61).
def journal_export(rng):
    boot, machine = hexid(rng, 32), hexid(rng, 32)
    ev = []
    meta = {"scanner-bridge.service": ("scanner-bridge", "/opt/scanner/bin/scanner-bridge"),
            "route-optimizer.service": ("route-optimizer", "/usr/bin/java"),
            "nginx.service": ("nginx", "/usr/sbin/nginx"), "init.scope": ("systemd", "/usr/lib/systemd/systemd")}

    def entry(t, unit, prio, msg):
        ev.append((t, unit, prio, msg))

    first = at("03:07:44.551")
    entry(first, "scanner-bridge.service", 3, "serial read on /dev/ttyUSB0 failed: Input/output error")
    for _ in range(42):
        entry(rtime(rng, "03:07:45", "04:57:00"), "scanner-bridge.service", 3,
              rng.choice(["serial read on /dev/ttyUSB0 failed: Input/output error", "scan upload rejected: 409 conflict"]))
    for _ in range(61):
        entry(rtime(rng, "03:00:01", "04:57:59"), "route-optimizer.service", 4, f"solver hit time limit, using best of {rng.randrange(2, 40)} candidates")
    for _ in range(25):
        entry(rtime(rng, "03:00:01", "04:57:59"), "nginx.service", 4, "upstream response is buffered to a temporary file")
    for _ in range(9):
        entry(rtime(rng, "03:00:01", "04:57:59"), "route-optimizer.service", 3, "OSRM backend unreachable")
    while len(ev) < 450:
        u = rng.choice(list(meta))
        msg = {"scanner-bridge.service": f"uploaded {rng.randrange(1, 60)} scans",
               "route-optimizer.service": f"optimized route R-{rng.randrange(1000, 9999)} in {rng.randrange(40, 900)} ms",
               "nginx.service": "reloaded", "init.scope": "Started Session 12 of User ops."}[u]
        entry(avoid(rng, "03:00:01", "04:57:59", [("03:00:00", "03:07:45")]) if u == "scanner-bridge.service"
              else rtime(rng, "03:00:01", "04:57:59"), u, 6, msg)
    ev.sort(key=lambda e: e[0])
    out = []
    for i, (t, unit, prio, msg) in enumerate(ev):
        us = int(t.timestamp() * 1_000_000)
        ident, exe = meta[unit]
        out.append(json.dumps({
            "__CURSOR": f"s={hexid(rng, 32)};i={0x4400 + i:x};b={boot};m={i * 104729:x};t={us:x};x={hexid(rng, 16)}",
            "__REALTIME_TIMESTAMP": str(us), "__MONOTONIC_TIMESTAMP": str(3_600_000_000 + i * 15_000_000),
            "_BOOT_ID": boot, "_MACHINE_ID": machine, "_HOSTNAME": "depot-gw-3", "PRIORITY": str(prio),
            "_TRANSPORT": "stdout", "SYSLOG_IDENTIFIER": ident, "_COMM": ident[:15], "_EXE": exe,
            "_PID": str({"scanner-bridge": 3312, "route-optimizer": 8812, "nginx": 901, "systemd": 1}[ident]),
            "_SYSTEMD_UNIT": unit, "MESSAGE": msg}))
    return "".join(l + "\n" for l in out)


# ---------------------------------------------------------------------------------------
# haproxy-ingress.log: HAProxy HTTP log on ingress-1, 1,200 lines 04:00-05:00. Planted: 504
# x66 (bk_quotes/q-2 x57, peak minute 04:14, q-1 x9); bk_auth answers 401 73 times; q-2 has
# the largest total time (Tt).
def haproxy_ingress(rng):
    ev = []
    servers = {"bk_tracking": ["trk-1", "trk-2", "trk-3"], "bk_quotes": ["q-1", "q-2"], "bk_auth": ["auth-1"]}
    paths = {"bk_tracking": "/v3/tracking/batch", "bk_quotes": "/v1/quote", "bk_auth": "/oauth/token"}

    def line(t, be, srv, status, tr, term="----"):
        tt = tr + rng.randrange(0, 4)
        acc = t.strftime("%d/%b/%Y:%H:%M:%S.") + f"{t.microsecond // 1000:03d}"
        ev.append((t, f"{syslog_ts(t)} ingress-1 haproxy[2210]: 10.8.{rng.randrange(0, 4)}.{rng.randrange(2, 250)}:{rng.randrange(1024, 65535)} "
                      f"[{acc}] ft_public {be}/{srv} 0/0/1/{tr}/{tt} {status} {rng.randrange(150, 9000)} - - {term} "
                      f"{rng.randrange(50, 400)}/{rng.randrange(50, 400)}/{rng.randrange(1, 40)}/{rng.randrange(0, 20)}/0 0/0 "
                      f"\"POST {paths[be]} HTTP/1.1\""))

    spike = {"04:12": 5, "04:13": 11, "04:14": 19, "04:15": 12, "04:16": 6, "04:17": 3, "04:18": 1}
    for minute, c in spike.items():
        for _ in range(c):
            line(in_minute(rng, minute), "bk_quotes", "q-2", 504, 30000 + rng.randrange(0, 3), "sH--")
    for _ in range(9):
        line(rtime(rng, "04:00:01", "04:59:59"), "bk_quotes", "q-1", 504, 30000 + rng.randrange(0, 3), "sH--")
    for _ in range(73):
        line(rtime(rng, "04:00:01", "04:59:59"), "bk_auth", "auth-1", 401, rng.randrange(2, 30))
    while len(ev) < 1200:
        be = rng.choices(list(servers), [60, 25, 15])[0]
        line(rtime(rng, "04:00:01", "04:59:59"), be, rng.choice(servers[be]), 200, rng.randrange(3, 2500))
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# postgres-main.log: prefix '%t [%p]: user=%u,db=%d,app=%a,client=%h ', 1,000 lines
# 03:00-05:00. Planted: 220 "duration:" lines (log_min_duration_statement = 500ms), 38 over
# 2 s (quote-engine 24, the most), the slowest 31877.240 ms on ping_history; 49 statement
# timeouts in 04:12-04:18 (peak minute 04:14).
def postgres_main(rng):
    ev = []

    def line(t, pid, app, level, msg, user="dispatch", db="fleet"):
        prefix = f"{t.strftime('%Y-%m-%d %H:%M:%S')} UTC [{pid}]: user={user},db={db},app={app},client=10.8.0.{rng.randrange(2, 60)} "
        ev.append((t, f"{prefix}{level}:  {msg}"))

    apps = {"quote-engine": "SELECT lane_id, min(price) FROM lane_rates WHERE origin = $1 AND dest = $2 GROUP BY lane_id",
            "dispatch-api": "UPDATE stops SET eta = $1 WHERE route_id = $2",
            "tracking": "INSERT INTO pings (vehicle_id, ts, lat, lon) VALUES ($1, $2, $3, $4)"}
    slow = ([("quote-engine", rng.uniform(2001, 12000)) for _ in range(24)]
            + [(rng.choice(["dispatch-api", "tracking"]), rng.uniform(2001, 9000)) for _ in range(13)]
            + [("tracking", 31877.240)] + [(rng.choice(list(apps)), rng.uniform(500, 1998)) for _ in range(182)])
    for app, ms in slow:
        if ms == 31877.240:
            t, q = at("03:52:06"), "SELECT vehicle_id, count(*) FROM ping_history WHERE ts > now() - interval '30 days' GROUP BY vehicle_id"
        else:
            t, q = rtime(rng, "03:00:01", "04:59:59"), apps[app]
        line(t, rng.randrange(5000, 9000), app, "LOG", f"duration: {ms:.3f} ms  statement: {q}")
    spike = {"04:12": 4, "04:13": 9, "04:14": 16, "04:15": 10, "04:16": 6, "04:17": 3, "04:18": 1}
    for minute, c in spike.items():
        for _ in range(c):
            t, pid = in_minute(rng, minute), rng.randrange(5000, 9000)
            line(t, pid, "quote-engine", "ERROR", "canceling statement due to statement timeout")
            line(t, pid, "quote-engine", "STATEMENT", apps["quote-engine"])
    while len(ev) < 1000:
        t, pid = rtime(rng, "03:00:01", "04:59:59"), rng.randrange(5000, 9000)
        app = rng.choice(list(apps))
        line(t, pid, app, "LOG", rng.choice([f"connection authorized: user=dispatch database=fleet application_name={app}",
                                             "automatic vacuum of table \"fleet.public.pings\": index scans: 1"]))
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# mysql-slow-replica.log: MySQL 5.7 slow log with `use` lines, 220 entries 03:00-05:00.
# Planted: 17 entries with Lock_time over 1 s; the longest Query_time 63.118204 on
# stop_events; 41 entries over 5 s.
def mysql_replica(rng):
    head = ("/usr/sbin/mysqld, Version: 5.7.44-log (MySQL Community Server (GPL)). started with:\n"
            "Tcp port: 3306  Unix socket: /var/lib/mysql/mysql.sock\nTime                 Id Command    Argument\n")
    qts = [63.118204] + [rng.uniform(5.2, 40) for _ in range(40)] + [rng.uniform(2.0, 4.9) for _ in range(179)]
    locks = set(rng.sample(range(220), 17))
    entries = []
    for i, qt in enumerate(qts):
        t = at("04:16:40.018221") if qt == 63.118204 else rtime(rng, "03:00:01", "04:59:59")
        lock = rng.uniform(1.2, 9.0) if i in locks else rng.uniform(0, 0.05)
        q = ("SELECT s.route_id, COUNT(*) FROM stop_events s WHERE s.created_at > '2027-02-01' GROUP BY s.route_id;"
             if qt == 63.118204 else rng.choice(["SELECT * FROM shipments WHERE status = 'in_transit';",
                                                  "SELECT depot_id, SUM(weight_kg) FROM parcels GROUP BY depot_id;",
                                                  "DELETE FROM scan_buffer WHERE processed = 1 LIMIT 5000;"]))
        user, host = rng.choice([("bi_reader", "10.9.1.44"), ("fleet_app", "10.9.0.12")])
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}Z"
        entries.append((t, f"# Time: {ts}\n# User@Host: {user}[{user}] @  [{host}]  Id: {rng.randrange(100, 9999)}\n"
                           f"# Query_time: {qt:.6f}  Lock_time: {lock:.6f} Rows_sent: {rng.randrange(0, 900)}  Rows_examined: {rng.randrange(10, 5_000_000)}\n"
                           f"use fleet;\nSET timestamp={int(t.timestamp())};\n{q}"))
    return head + sort_join(entries)


# ---------------------------------------------------------------------------------------
# secure: RHEL-style sshd log of jump-01, 1,100 lines 03:00-05:00. Planted: 402 "Failed
# password" from 23 IPs, 209 of them from 192.0.2.201; "oracle" the most tried invalid user
# (41); 26 accepted publickey logins.
def secure_log(rng):
    ev = []
    others = ["oracle"] * 41 + [u for u in ("admin", "test", "guest", "hadoop", "nagios", "ftp") for _ in range(rng.randrange(10, 30))]
    rng.shuffle(others)
    attackers = [f"{rng.choice([61, 103, 116, 179, 222])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}" for _ in range(22)]
    assert len(set(attackers)) == 22

    def line(t, prog, msg):
        ev.append((t, f"{syslog_ts(t)} jump-01 {prog}: {msg}"))

    sources = ["192.0.2.201"] * 209 + [ip for ip, c in zip(attackers, spread(rng, 193, 22, 3, 15)) for _ in range(c)]
    rng.shuffle(sources)
    for i, ip in enumerate(sources):
        t, pid, port = rtime(rng, "03:00:01", "04:59:50"), rng.randrange(10000, 40000), rng.randrange(1024, 65535)
        if i < len(others):
            u = others[i]
            line(t, f"sshd[{pid}]", f"Invalid user {u} from {ip} port {port}")
            line(t + timedelta(seconds=1), f"sshd[{pid}]", f"Failed password for invalid user {u} from {ip} port {port} ssh2")
        else:
            line(t + timedelta(seconds=1), f"sshd[{pid}]", f"Failed password for root from {ip} port {port} ssh2")
    for _ in range(26):
        t, pid = rtime(rng, "03:00:01", "04:59:50"), rng.randrange(10000, 40000)
        u, ip = rng.choice([("ops", "10.8.0.3"), ("ci", "10.8.0.9")])
        line(t, f"sshd[{pid}]", f"Accepted publickey for {u} from {ip} port {rng.randrange(1024, 65535)} ssh2: RSA SHA256:{hexid(rng, 43)}")
        line(t, f"sshd[{pid}]", f"pam_unix(sshd:session): session opened for user {u} by (uid=0)")
    while len(ev) < 1100:
        line(rtime(rng, "03:00:01", "04:59:59"), "sudo", "     ops : TTY=pts/1 ; PWD=/home/ops ; USER=root ; COMMAND=/bin/journalctl -u scanner-bridge")
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# dmesg.txt: `dmesg -T` of depot-gw-3, 700 lines 03:00-05:00. Planted: 14 OOM kills
# (route-optimizer x8, the last 04:41:05; java x4 incl. pid 7419 at 04:13:52; python3 x2);
# segfaults: scanner-bridge x5, zbarimg x3; 27 I/O errors on sdb.
def dmesg_t(rng):
    ev = []

    def line(t, msg):
        ev.append((t, f"[{t.strftime('%a %b')} {t.day:2d} {t.strftime('%H:%M:%S %Y')}] {msg}"))

    kills = ([("route-optimizer", at("04:41:05"), 8812)]
             + [("route-optimizer", rtime(rng, "03:00:30", "04:40:00"), rng.randrange(8000, 9999)) for _ in range(7)]
             + [("java", at("04:13:52"), 7419)] + [("java", rtime(rng, "03:00:30", "04:55:00"), rng.randrange(6000, 7999)) for _ in range(3)]
             + [("python3", rtime(rng, "03:00:30", "04:55:00"), rng.randrange(10000, 19999)) for _ in range(2)])
    for comm, t, pid in kills:
        line(t, f"{comm} invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0")
        line(t, f"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice,task={comm},pid={pid},uid=998")
        line(t, f"Out of memory: Killed process {pid} ({comm}) total-vm:{rng.randrange(2_000_000, 9_000_000)}kB, anon-rss:{rng.randrange(900_000, 5_000_000)}kB, "
                f"file-rss:0kB, shmem-rss:0kB, UID:998 pgtables:{rng.randrange(2000, 9000)}kB oom_score_adj:0")
    for comm, c in (("scanner-bridge", 5), ("zbarimg", 3)):
        for _ in range(c):
            line(rtime(rng, "03:00:30", "04:59:00"), f"{comm}[{rng.randrange(3000, 9000)}]: segfault at 18 ip 0000558d{hexid(rng, 8)} "
                                                     f"sp 00007ffc{hexid(rng, 8)} error 4 in {comm}[558d1a400000+6b000]")
    for _ in range(27):
        line(rtime(rng, "03:30:00", "04:30:00"), f"I/O error, dev sdb, sector {rng.randrange(10**6, 10**8)} op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2")
    while len(ev) < 700:
        t = rtime(rng, "03:00:01", "04:59:59")
        line(t, rng.choice(["usb 1-1.2: USB disconnect, device number 7", "cdc_acm 1-1.2:1.0: ttyACM0: USB ACM device",
                            "IPv6: ADDRCONF(NETDEV_CHANGE): wlan0: link becomes ready",
                            f"audit: type=1400 audit({int(t.timestamp())}.{rng.randrange(100, 999)}:{rng.randrange(100, 999)}): apparmor=\"DENIED\" operation=\"open\" profile=\"snap.cups\""]))
    return sort_join(ev)
