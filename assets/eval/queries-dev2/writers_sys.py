"""Writers of the `queries-dev2` set's system, auth, database and kernel logs.

Same contract as `writers.py`: seeded, planted figures named in the comments, the truth
recomputed from the written text by `truth.py`.
"""

import json
from datetime import timedelta

from writers import DAY, at, hexid, rtime, spread

MAR8 = DAY - timedelta(days=1)


def sort_join(ev):
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)


def iso_us(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}+00:00"


def bsd_ts(t):
    return f"{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')}"


# ---------------------------------------------------------------------------------------
# syslog: Debian rsyslog with RFC 3339 timestamps, hosts kf-app-01..04 and kf-mail-01,
# 1,200 lines 03:00-05:00. Planted: fare-engine.service on kf-app-03 SIGKILLed and
# restarted 73 times in a crash loop (`status=9/KILL`, "restart counter is at 1..73"; the
# first kill 04:11:37.482, the last before 04:42); postfix on kf-mail-01: status=deferred x64 (every one "Connection timed
# out", the only "timed out" lines), status=sent x163, status=bounced x9.
def syslog_debian(rng):
    ev = []

    def line(t, host, prog, msg):
        ev.append((t, f"{iso_us(t)} {host} {prog}: {msg}"))

    kills = [at("04:11:37.482913")] + [at("04:11:37") + timedelta(seconds=24 * i + rng.uniform(0, 9)) for i in range(1, 73)]
    assert all((b - a).total_seconds() > 12 for a, b in zip(kills, kills[1:]))
    fe_pid = 21877
    t0 = at("03:00:00")
    bounds = [t0] + kills + [at("05:00:00")]
    for i in range(len(bounds) - 1):
        # the fare engine's own lines between restarts
        a, b = bounds[i], bounds[i + 1]
        span = (b - a).total_seconds()
        for _ in range(max(1, int(span / 40))):
            t = a + timedelta(seconds=rng.uniform(6, max(7, span - 1)))
            line(t, "kf-app-03", f"fare-engine[{fe_pid}]",
                 rng.choice([f"quote served route={rng.choice(['HOL-DUB', 'CAI-BEL', 'LIV-DUB', 'FIS-ROS'])} in {rng.randrange(8, 90)}ms",
                             f"fare table cache refreshed ({rng.randrange(1200, 1500)} rules)",
                             f"heap in use {rng.randrange(2100, 3900)} MiB"]))
        if i < len(kills):
            k = kills[i]
            ms = lambda s: k + timedelta(seconds=s)  # noqa: E731
            line(k, "kf-app-03", "systemd[1]", "fare-engine.service: Main process exited, code=killed, status=9/KILL")
            line(ms(0.004), "kf-app-03", "systemd[1]", "fare-engine.service: Failed with result 'signal'.")
            line(ms(0.005), "kf-app-03", "systemd[1]",
                 f"fare-engine.service: Consumed {rng.randrange(1, 9)}min {rng.randrange(10, 59)}.{rng.randrange(100, 999)}s CPU time, "
                 f"{rng.randrange(30, 40) / 10}G memory peak.")
            line(ms(5.1), "kf-app-03", "systemd[1]", f"fare-engine.service: Scheduled restart job, restart counter is at {i + 1}.")
            line(ms(5.102), "kf-app-03", "systemd[1]", "Stopped fare-engine.service - Kestrel fare engine.")
            line(ms(5.109), "kf-app-03", "systemd[1]", "Started fare-engine.service - Kestrel fare engine.")
            fe_pid += rng.randrange(40, 400)
    relays = [("mx1.harbourline.example", "192.0.2.45"), ("mail.portauth.example", "198.51.100.150"),
              ("mx.crewagency.example", "203.0.113.61")]

    def qid():
        return hexid(rng, 10).upper()

    for _ in range(64):
        host, ip = rng.choice(relays[:2])
        delay = rng.randrange(30, 400)
        line(rtime(rng, "03:00:10", "04:59:50"), "kf-mail-01", f"postfix/smtp[{rng.randrange(3000, 9000)}]",
             f"{qid()}: to=<{rng.choice(['manifests', 'bookings', 'ops'])}@{host.split('.', 1)[1]}>, relay=none, delay={delay}, "
             f"delays=0.02/0.01/{delay - 0.03:.2f}/0, dsn=4.4.1, status=deferred (connect to {host}[{ip}]:25: Connection timed out)")
    for _ in range(163):
        host, ip = rng.choice(relays)
        q = qid()
        line(rtime(rng, "03:00:10", "04:59:50"), "kf-mail-01", f"postfix/smtp[{rng.randrange(3000, 9000)}]",
             f"{q}: to=<{rng.choice(['pax', 'agent', 'crew'])}{rng.randrange(100, 9999)}@{host.split('.', 1)[1]}>, relay={host}[{ip}]:25, "
             f"delay={rng.randrange(1, 30) / 10}, delays=0.03/0/0.11/0.2, dsn=2.0.0, status=sent (250 2.0.0 Ok: queued as {qid()})")
    for _ in range(9):
        host, ip = relays[2]
        line(rtime(rng, "03:00:10", "04:59:50"), "kf-mail-01", f"postfix/smtp[{rng.randrange(3000, 9000)}]",
             f"{qid()}: to=<deckhand{rng.randrange(10, 99)}@crewagency.example>, relay={host}[{ip}]:25, delay=0.9, "
             f"delays=0.02/0/0.4/0.5, dsn=5.1.1, status=bounced (host {host}[{ip}] said: 550 5.1.1 Recipient address "
             f"rejected: User unknown (in reply to RCPT TO command))")
    for _ in range(120):
        line(rtime(rng, "03:00:10", "04:59:50"), "kf-mail-01", f"postfix/qmgr[1184]",
             f"{qid()}: from=<noreply@kestrel-ferries.example>, size={rng.randrange(2000, 90000)}, nrcpt=1 (queue active)")
    line(at("03:00:00.004117"), "kf-app-01", "rsyslogd", '[origin software="rsyslogd" swVersion="8.2504.0" x-pid="611"] rsyslogd was HUPed')
    line(at("04:59:59.870221"), "kf-app-02", "CRON[91822]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
    hosts = ["kf-app-01", "kf-app-02", "kf-app-03", "kf-app-04"]
    while len(ev) < 1200:
        t = rtime(rng, "03:00:01", "04:59:58")
        h = rng.choice(hosts)
        r = rng.random()
        if r < 0.3:
            line(t, h, f"CRON[{rng.randrange(10000, 99999)}]", rng.choice(["(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)",
                                                                          "(deploy) CMD (/opt/kestrel/bin/sync-timetables --quiet)"]))
        elif r < 0.5:
            s = rng.randrange(4000, 9999)
            line(t, h, "systemd[1]", rng.choice([f"Started session-{s}.scope - Session {s} of User deploy.",
                                                 f"session-{s}.scope: Deactivated successfully."]))
        elif r < 0.65:
            line(t, h, "chronyd[702]", f"Selected source 10.20.0.{rng.randrange(2, 4)} (ntp{rng.randrange(1, 3)}.kestrel.internal)")
        elif r < 0.85:
            line(t, h, f"containerd[{900 + hosts.index(h)}]",
                 f'time="{iso_us(t)[:-13]}Z" level=info msg="shim disconnected" id={hexid(rng, 64)} namespace=k8s.io')
        else:
            line(t, h, "systemd[1]", rng.choice(["Starting sysstat-collect.service - system activity accounting tool...",
                                                 "sysstat-collect.service: Deactivated successfully.",
                                                 "Finished sysstat-collect.service - system activity accounting tool."]))
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# journal-kf-app-02.json: `journalctl -o json` of kf-app-02, 400 entries 03:00-05:00.
# Planted: berth-planner.service exits and is restarted 62 times ("restart counter is at
# 1..62", `UNIT=berth-planner.service` on systemd's own entries, PRIORITY 4-6); PRIORITY
# <= 3 by unit: kubelet.service 47, berth-planner.service 38, containerd.service 12.
def journal_json(rng):
    boot, machine = hexid(rng, 32), hexid(rng, 32)
    ev = []

    def entry(t, unit, prio, ident, pid, msg, exe, about=None):
        ev.append((t, unit, prio, ident, pid, msg, exe, about))

    crashes = [at("03:04:00") + timedelta(seconds=106 * i + rng.uniform(0, 40)) for i in range(62)]
    bp_pid = 30117
    for i, c in enumerate(crashes):
        s = lambda x: c + timedelta(seconds=x)  # noqa: E731
        entry(s(0.01), "init.scope", 5, "systemd", 1, "berth-planner.service: Main process exited, code=exited, status=2/INVALIDARGUMENT",
              "/usr/lib/systemd/systemd", "berth-planner.service")
        entry(s(0.011), "init.scope", 4, "systemd", 1, "berth-planner.service: Failed with result 'exit-code'.",
              "/usr/lib/systemd/systemd", "berth-planner.service")
        entry(s(10.2), "init.scope", 6, "systemd", 1, f"berth-planner.service: Scheduled restart job, restart counter is at {i + 1}.",
              "/usr/lib/systemd/systemd", "berth-planner.service")
        entry(s(10.23), "init.scope", 6, "systemd", 1, "Started berth-planner.service - Kestrel berth planner.",
              "/usr/lib/systemd/systemd", "berth-planner.service")
        bp_pid += rng.randrange(20, 300)
        crashes[i] = (c, bp_pid)

    def bp_pid_at(t):
        pid = 30117
        for c, nxt in crashes:
            if t > c:
                pid = nxt
        return pid

    for _ in range(38):
        t = rtime(rng, "03:00:05", "04:59:50")
        entry(t, "berth-planner.service", 3, "berth-planner", bp_pid_at(t),
              f"solve failed for berth {rng.randrange(1, 9)}: infeasible tide window", "/opt/kestrel/bin/berth-planner")
    for _ in range(15):
        t = rtime(rng, "03:00:05", "04:59:50")
        entry(t, "berth-planner.service", 4, "berth-planner", bp_pid_at(t), "tide window older than 300s, using cached levels",
              "/opt/kestrel/bin/berth-planner")
    for _ in range(30):
        t = rtime(rng, "03:00:05", "04:59:50")
        entry(t, "berth-planner.service", 6, "berth-planner", bp_pid_at(t),
              f"plan published: {rng.randrange(4, 14)} vessels, {rng.randrange(1, 9)} berths", "/opt/kestrel/bin/berth-planner")
    for _ in range(47):
        t = rtime(rng, "03:00:05", "04:59:50")
        pod = f"fare-cache-{hexid(rng, 9)}-{hexid(rng, 5)}"
        entry(t, "kubelet.service", 3, "kubelet", 1422,
              f'E{t.strftime("%m%d %H:%M:%S")}.{t.microsecond:06d}    1422 pod_workers.go:1301] "Error syncing pod, skipping" '
              f'err="failed to \\"StartContainer\\" for \\"fare-cache\\" with CrashLoopBackOff" pod="ferry/{pod}"',
              "/usr/bin/kubelet")
    for _ in range(12):
        t = rtime(rng, "03:00:05", "04:59:50")
        entry(t, "containerd.service", 3, "containerd", 988,
              f'time="{t.strftime("%Y-%m-%dT%H:%M:%S")}Z" level=error msg="failed to reload cni configuration" error="cni config load failed"',
              "/usr/bin/containerd")
    entry(at("03:00:00.002"), "kubelet.service", 6, "kubelet", 1422, 'I0309 03:00:00.002000    1422 kubelet.go:2410] "SyncLoop (housekeeping)"', "/usr/bin/kubelet")
    while len(ev) < 400:
        t = rtime(rng, "03:00:05", "04:59:58")
        r = rng.random()
        if r < 0.55:
            entry(t, "kubelet.service", 6, "kubelet", 1422,
                  f'I{t.strftime("%m%d %H:%M:%S")}.{t.microsecond:06d}    1422 prober.go:107] "Probe succeeded" probeType="Readiness"',
                  "/usr/bin/kubelet")
        elif r < 0.8:
            entry(t, "containerd.service", 6, "containerd", 988,
                  f'time="{t.strftime("%Y-%m-%dT%H:%M:%S")}Z" level=info msg="ImageCreate event name:\\"registry.kestrel.internal/fare-cache:3.1\\""',
                  "/usr/bin/containerd")
        else:
            entry(t, "cron.service", 6, "CRON", rng.randrange(40000, 60000), "(root) CMD (/usr/lib/sysstat/debian-sa1 1 1)", "/usr/sbin/cron")
    ev.sort(key=lambda e: e[0])
    out = []
    for i, (t, unit, prio, ident, pid, msg, exe, about) in enumerate(ev):
        us = int(t.timestamp() * 1_000_000)
        d = {"__CURSOR": f"s={hexid(rng, 32)};i={0x4c1d00 + i:x};b={boot};m={i * 104729:x};t={us:x};x={hexid(rng, 16)}",
             "__REALTIME_TIMESTAMP": str(us), "__MONOTONIC_TIMESTAMP": str(us - 1804550000000000 + 7_200_000_000),
             "_BOOT_ID": boot, "_MACHINE_ID": machine, "_HOSTNAME": "kf-app-02", "PRIORITY": str(prio),
             "SYSLOG_FACILITY": "3", "SYSLOG_IDENTIFIER": ident, "_PID": str(pid), "_UID": "0", "_GID": "0",
             "_COMM": ident.lower()[:15], "_EXE": exe, "_SYSTEMD_UNIT": unit,
             "_SYSTEMD_SLICE": "-.slice" if unit == "init.scope" else "system.slice",
             "_TRANSPORT": "journal" if unit == "init.scope" else "stdout", "MESSAGE": msg}
        if about:
            d["UNIT"] = about
            d["CODE_FILE"] = "src/core/unit.c"
        out.append(json.dumps(d, separators=(",", ":")))
    return "".join(l + "\n" for l in out)


# ---------------------------------------------------------------------------------------
# secure: sshd on kf-bastion-01 (RHEL `/var/log/secure`, RFC 3164), Mar 8 21:00 - Mar 9
# 05:00. Planted: "Failed password" x287 on Mar 8 and x456 on Mar 9; 203.0.113.9 behind 214
# of them (the most); invalid users tried under 61 distinct names; deploy logs in by
# public key 22 times, the last Mar 9 04:52:17.
INVALID = ["oracle", "postgres", "test", "ubuntu", "git", "ftpuser", "guest", "user1", "hadoop", "jenkins",
           "minecraft", "pi", "support", "teamspeak", "tomcat", "vagrant", "www", "zabbix", "nagios", "odoo",
           "steam", "mysql", "redis", "elastic", "kafka", "ansible", "centos", "debian", "dev", "devops",
           "docker", "ec2-user", "es", "ftp", "gitlab", "grafana", "hdfs", "info", "ivan", "kibana", "mongo",
           "nexus", "nginx", "opc", "operator", "prometheus", "rabbitmq", "sales", "samba", "sftp", "solr",
           "spark", "sysadmin", "testuser", "ts3", "uucp", "vpn", "webadmin", "weblogic", "wordpress", "yarn"]


def secure_log(rng):
    assert len(set(INVALID)) == 61
    ev = []

    def line(t, prog, msg):
        ev.append((t, f"{bsd_ts(t)} kf-bastion-01 {prog}: {msg}"))

    def window(day):
        return ("21:00:00", "23:59:50", MAR8) if day == 8 else ("00:00:00", "04:59:59", DAY)

    attackers = ["203.0.113.9"] + [f"{rng.choice([45, 80, 91, 179, 193, 194])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
                                   for _ in range(40)]
    names = list(INVALID)
    rng.shuffle(names)

    def attempt(day, ip, invalid_name=None, password=True):
        a, b, d = window(day)
        t = rtime(rng, a, b, d)
        pid = rng.randrange(100000, 999999)
        port = rng.randrange(30000, 65000)
        if invalid_name:
            line(t, f"sshd[{pid}]", f"Invalid user {invalid_name} from {ip} port {port}")
            if password:
                line(t + timedelta(seconds=2.1), f"sshd[{pid}]", f"Failed password for invalid user {invalid_name} from {ip} port {port} ssh2")
            else:
                line(t + timedelta(seconds=0.3), f"sshd[{pid}]", f"Connection closed by invalid user {invalid_name} {ip} port {port} [preauth]")
            return
        line(t, f"sshd[{pid}]", f"Failed password for root from {ip} port {port} ssh2")
        line(t + timedelta(seconds=1.5), f"sshd[{pid}]", f"Disconnected from authenticating user root {ip} port {port} [preauth]")

    # 203.0.113.9: 90 failures on Mar 8, 124 on Mar 9, root and invalid names alike.
    k = 0
    for day, n in ((8, 90), (9, 124)):
        for i in range(n):
            if i % 3 == 0:
                attempt(day, "203.0.113.9", names[k % len(names)])
                k += 1
            else:
                attempt(day, "203.0.113.9")
    # the rest: Mar 8 197, Mar 9 332 failures from 40 other IPs (each far below 214)
    for day, n in ((8, 197), (9, 332)):
        for i in range(n):
            ip = rng.choice(attackers[1:])
            if rng.random() < 0.45:
                attempt(day, ip, names[k % len(names)])
                k += 1
            else:
                attempt(day, ip)
    for i in range(40):
        attempt(rng.choice([8, 9]), rng.choice(attackers[1:]), rng.choice(names), password=False)
    assert k >= len(names)
    deploy = [rtime(rng, "21:00:00", "23:59:00", MAR8) for _ in range(8)] + \
             [rtime(rng, "00:00:00", "04:50:00") for _ in range(13)] + [at("04:52:17")]
    for t in deploy:
        pid = rng.randrange(100000, 999999)
        port = rng.randrange(30000, 65000)
        line(t, f"sshd[{pid}]", f"Accepted publickey for deploy from 10.20.0.5 port {port} ssh2: ED25519 SHA256:q3Fv7mDk0Lr2pXb9WnYtZsE1uHc4oKaJ8iGd6VfQxR0")
        line(t + timedelta(seconds=0.02), f"sshd[{pid}]", "pam_unix(sshd:session): session opened for user deploy(uid=1001) by deploy(uid=0)")
        line(t + timedelta(seconds=rng.randrange(60, 240)), f"sshd[{pid}]", "pam_unix(sshd:session): session closed for user deploy")
    for _ in range(5):
        t = rtime(rng, "22:00:00", "23:30:00", MAR8)
        pid = rng.randrange(100000, 999999)
        line(t, f"sshd[{pid}]", f"Accepted publickey for ops-mira from 10.20.0.9 port {rng.randrange(30000, 65000)} ssh2: RSA SHA256:Yk2bN0cR4dWq7mLp9sVt1xHf3jGz6aEoUi8KuQwTeB5")
        line(t + timedelta(seconds=40), "sudo[{}]".format(pid + 7), "ops-mira : TTY=pts/2 ; PWD=/home/ops-mira ; USER=root ; COMMAND=/usr/bin/journalctl -u fare-engine --since -1h")
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# mariadb-slow.log: MariaDB 11 slow query log of kf-db-02 (`# Time:` only when the second
# changes), 260 entries 03:00-05:00. Planted: Query_time over 5 s x37 (none within 0.05 s
# of 5); the slowest three: 37.114902 s (report_ro, crew_rosters), 29.660418 s (booking_rw,
# sailing_legs, Rows_examined 9182004), 24.807113 s (manifest_etl, fare_rules); entries by
# user: report_ro 118, booking_rw 96, manifest_etl 46.
def mariadb_slow(rng):
    hosts = {"report_ro": ("kf-bi-01", "10.20.3.40"), "booking_rw": ("kf-app-02", "10.20.1.12"),
             "manifest_etl": ("kf-etl-01", "10.20.2.7")}
    queries = {
        "report_ro": ["SELECT r.crew_id, SUM(r.hours) FROM crew_rosters r JOIN vessels v ON v.id = r.vessel_id WHERE r.shift_date >= '2027-02-01' GROUP BY r.crew_id;",
                      "SELECT route_code, COUNT(*) FROM bookings WHERE created_at >= '2027-01-01' GROUP BY route_code ORDER BY 2 DESC;"],
        "booking_rw": ["SELECT * FROM sailing_legs WHERE sailing_id = {n} AND leg_status <> 'CANCELLED' FOR UPDATE;",
                       "UPDATE seat_holds SET released_at = NOW() WHERE expires_at < NOW() AND released_at IS NULL;"],
        "manifest_etl": ["SELECT f.* FROM fare_rules f WHERE f.valid_from <= '2027-03-09' AND f.route_code IN ('HOL-DUB','CAI-BEL','LIV-DUB');",
                         "INSERT INTO manifest_export SELECT * FROM passengers p WHERE p.sailing_id = {n};"],
    }
    users = ["report_ro"] * 118 + ["booking_rw"] * 96 + ["manifest_etl"] * 46
    rng.shuffle(users)
    entries = []
    top = {0: ("report_ro", 37.114902, 0, 14203318), 1: ("booking_rw", 29.660418, 0, 9182004), 2: ("manifest_etl", 24.807113, 0, 4402117)}
    # 34 more over 5 s (5.2-19.8), the rest 0.5-4.9 s
    slow = [rng.randrange(5200, 19800) / 1000 for _ in range(34)]
    quick = [rng.randrange(500, 4900) / 1000 for _ in range(260 - 37)]
    times = slow + quick
    rng.shuffle(times)
    seen_top = {u: False for u in hosts}
    for i, u in enumerate(users):
        qt = None
        for tu, tqt, _, rows in top.values():
            if tu == u and not seen_top[u]:
                seen_top[u] = True
                qt, q, rex = tqt, queries[u][0], rows
                break
        if qt is None:
            qt = times.pop() + rng.randrange(0, 999) / 1e6
            q = rng.choice(queries[u][1:] if u in ("booking_rw",) else queries[u])
            if u == "booking_rw" and rng.random() < 0.5:
                q = queries[u][0]
            rex = int(qt * rng.randrange(20000, 240000))
        q = q.replace("{n}", str(rng.randrange(880000, 889999)))
        entries.append((rtime(rng, "03:00:05", "04:59:55"), u, round(qt, 6), rex, q))
    assert not times
    entries.sort(key=lambda e: e[0])
    out = ["/usr/sbin/mariadbd, Version: 11.4.5-MariaDB-log (MariaDB Server). started with:",
           "Tcp port: 3306  Unix socket: /run/mysqld/mysqld.sock",
           "Time\t\t    Id Command\tArgument"]
    last = None
    for t, u, qt, rex, q in entries:
        stamp = int(t.timestamp())
        if stamp != last:
            out.append(f"# Time: {t.strftime('%y%m%d')} {t.hour:2d}:{t.strftime('%M:%S')}")
            last = stamp
        h, ip = hosts[u]
        out.append(f"# User@Host: {u}[{u}] @ {h} [{ip}]")
        out.append(f"# Thread_id: {rng.randrange(4000, 9000)}  Schema: kestrel_{'booking' if u != 'report_ro' else 'dw'}  QC_hit: No")
        out.append(f"# Query_time: {qt:.6f}  Lock_time: {rng.randrange(50, 900) / 1e6:.6f}  Rows_sent: {rng.randrange(0, 500)}  Rows_examined: {rex}")
        out.append(f"# Rows_affected: {0 if q.startswith('SELECT') else rng.randrange(1, 400)}  Bytes_sent: {rng.randrange(60, 90000)}")
        if u == "report_ro":
            out.append("use kestrel_dw;")
        out.append(f"SET timestamp={stamp};")
        out.append(q)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------
# dmesg.txt: `dmesg -T` of kf-app-02, 600 lines 03:00-05:00. Planted: 9 OOM kills
# ("Killed process"): java x5 (the first 04:11:48, pid 48211), celery x3 (the last
# 04:38:09), node x1; KF-DROP (nftables log prefix) x211, 58 from 198.51.100.61 (all to
# DPT=6379), the others spread over 40 sources; I/O error dev sdb x17, dev sdc x3.
def dmesg_t(rng):
    ev = []

    def line(t, msg):
        ev.append((t, f"[{t.strftime('%a %b')} {t.day:2d} {t.strftime('%H:%M:%S %Y')}] {msg}"))

    kills = ([("java", at("04:11:48"), 48211)]
             + [("java", rtime(rng, "04:13:00", "04:19:30"), rng.randrange(48300, 52000)) for _ in range(4)]
             + [("celery", rtime(rng, "03:40:00", "04:30:00"), rng.randrange(20000, 30000)) for _ in range(2)]
             + [("celery", at("04:38:09"), 29331), ("node", rtime(rng, "03:10:00", "04:50:00"), rng.randrange(20000, 30000))])
    for comm, t, pid in kills:
        inv = comm if rng.random() < 0.7 else "kworker/u16:3"
        line(t, f"{inv} invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0")
        line(t, f"CPU: {rng.randrange(0, 8)} PID: {pid} Comm: {inv} Not tainted 6.8.0-57-generic #59-Ubuntu")
        line(t, "Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.3-debian-1.16.3-2 04/01/2014")
        line(t, f"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice,task={comm},pid={pid},uid=1001")
        rss = rng.randrange(800_000, 6_400_000)
        line(t, f"Out of memory: Killed process {pid} ({comm}) total-vm:{rss + 1_900_000}kB, anon-rss:{rss}kB, file-rss:0kB, "
                f"shmem-rss:0kB, UID:1001 pgtables:{rng.randrange(2000, 14000)}kB oom_score_adj:0")
        line(t + timedelta(seconds=rng.randrange(1, 3)), f"oom_reaper: reaped process {pid} ({comm}), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB")
    others = [f"{rng.choice([45, 80, 91, 162, 179, 194])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}" for _ in range(40)]
    counts = spread(rng, 153, 40, 1, 9)

    def drop(t, src, dpt):
        line(t, f"KF-DROP: IN=eth0 OUT= MAC=52:54:00:7a:1c:03:52:54:00:e4:11:9f:08:00 SRC={src} DST=10.20.1.12 LEN=60 TOS=0x00 "
                f"PREC=0x00 TTL={rng.randrange(40, 60)} ID={rng.randrange(1, 65535)} DF PROTO=TCP SPT={rng.randrange(1024, 65535)} "
                f"DPT={dpt} WINDOW=64240 RES=0x00 SYN URGP=0")

    for _ in range(58):
        drop(rtime(rng, "03:00:05", "04:59:55"), "198.51.100.61", 6379)
    for src, n in zip(others, counts):
        for _ in range(n):
            drop(rtime(rng, "03:00:05", "04:59:55"), src, rng.choice([22, 23, 445, 3389, 5432, 8080]))
    for dev, n in (("sdb", 17), ("sdc", 3)):
        for _ in range(n):
            t = rtime(rng, "03:00:05", "04:59:55")
            line(t, f"I/O error, dev {dev}, sector {rng.randrange(10**6, 10**9)} op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2")
            line(t, f"Buffer I/O error on dev {dev}1, logical block {rng.randrange(10**5, 10**8)}, async page read")
    for t in sorted(rtime(rng, "03:20:00", "04:40:00") for _ in range(4)):
        line(t, "ixgbe 0000:3b:00.1 eth1: NIC Link is Down")
        line(t + timedelta(seconds=3), "ixgbe 0000:3b:00.1 eth1: NIC Link is Up 10 Gbps, Flow Control: RX/TX")
    while len(ev) < 600:
        t = rtime(rng, "03:00:05", "04:59:55")
        r = rng.random()
        if r < 0.5:
            line(t, f'audit: type=1400 audit({t.timestamp():.3f}:{rng.randrange(100, 999)}): apparmor="DENIED" operation="open" '
                    f'class="file" profile="cri-containerd.apparmor.d" name="/proc/sys/kernel/osrelease" pid={rng.randrange(2000, 60000)} '
                    f'comm="node" requested_mask="r" denied_mask="r" fsuid=0 ouid=0')
        elif r < 0.8:
            line(t, f"cni0: port {rng.randrange(1, 30)}(veth{hexid(rng, 8)}) entered {rng.choice(['blocking', 'forwarding', 'disabled'])} state")
        else:
            line(t, f"EXT4-fs (sda1): mounted filesystem {hexid(rng, 8)}-{hexid(rng, 4)} r/w with ordered data mode. Quota mode: none.")
    return sort_join(ev)
