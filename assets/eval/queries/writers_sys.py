"""Writers of the `queries` dev set's daemon, database, load-balancer and kernel logs.

Same contract as `writers.py`: seeded, planted figures named in the comments, the truth
recomputed from the written text by `truth.py`.
"""

import json
from datetime import timedelta

from writers import at, hexid, in_minute, iso_ms, rtime, syslog_ts


def spread(rng, total, n, lo, hi):
    """n random counts in [lo, hi] summing to total."""
    counts = [rng.randrange(lo, hi + 1) for _ in range(n)]
    while sum(counts) != total:
        i = rng.randrange(n)
        step = 1 if sum(counts) < total else -1
        if lo <= counts[i] + step <= hi:
            counts[i] += step
    return counts


def sort_join(ev):
    ev.sort(key=lambda e: e[0])
    return "".join(l + "\n" for _, l in ev)


# ---------------------------------------------------------------------------------------
# messages: RFC 3164 syslog of web-01..03, 1,400 lines 00:00-03:30. Planted: nginx.service
# on web-02 killed and restarted 13 times ("Scheduled restart job", counter 1..13); dockerd
# logs 27 "container deleted" lines and is the noisiest program.
def messages_syslog(rng):
    hosts = ["web-01", "web-02", "web-03"]
    ev = []

    def line(t, host, prog, msg):
        ev.append((t, f"{syslog_ts(t)} {host} {prog}: {msg}"))

    def t_any():
        return rtime(rng, "00:00:01", "03:29:59")

    for n, t in enumerate(sorted(rtime(rng, "01:10:00", "03:10:00") for _ in range(13)), start=1):
        seq = [("nginx.service: Main process exited, code=killed, status=9/KILL", 0),
               ("nginx.service: Failed with result 'signal'.", 0),
               (f"nginx.service: Scheduled restart job, restart counter is at {n}.", 2),
               ("Stopped nginx.service - A high performance web server and a reverse proxy server.", 2),
               ("Starting nginx.service - A high performance web server and a reverse proxy server...", 2),
               ("Started nginx.service - A high performance web server and a reverse proxy server.", 3)]
        for msg, dt in seq:
            t = t + timedelta(seconds=dt)
            line(t, "web-02", "systemd[1]", msg)
    for _ in range(27):
        t = t_any()
        line(t, rng.choice(hosts), "dockerd[1021]",
             f'time="{iso_ms(t)}" level=info msg="container deleted" container={hexid(rng, 64)}')
    docker_msgs = ['level=info msg="Container failed to exit within 10s of signal 15 - using the force" container={c}',
                   'level=warning msg="cleaning up after shim disconnected" id={c} namespace=moby',
                   'level=info msg="Layer sha256:{c} cleaned up"',
                   'level=info msg="Loading containers: done."']
    for _ in range(420):
        t = t_any()
        msg = rng.choice(docker_msgs).replace("{c}", hexid(rng, 64))
        line(t, rng.choice(hosts), "dockerd[1021]", f'time="{iso_ms(t)}" {msg}')
    for h in hosts:
        for k in range(42):
            t = at("00:00:00") + timedelta(minutes=5 * k, seconds=1)
            pid = rng.randrange(20000, 60000)
            line(t, h, f"CRON[{pid}]", "(www-data) CMD (php /var/www/larkspur/bin/cron.php)")
    for _ in range(60):
        line(t_any(), rng.choice(hosts), f"chronyd[{rng.choice([611, 702, 655])}]",
             f"Selected source 10.0.0.{rng.randrange(1, 4)} (ntp.larkspur.internal)")
    while len(ev) < 1400:
        t = t_any()
        h = rng.choice(hosts)
        r = rng.random()
        if r < 0.5:
            s = rng.randrange(100, 999)
            line(t, h, "systemd[1]", rng.choice([f"Started session-{s}.scope - Session {s} of User deploy.",
                                                  "Starting apt-daily.service - Daily apt download activities...",
                                                  "logrotate.service: Deactivated successfully.",
                                                  "Finished logrotate.service - Rotate log files."]))
        elif r < 0.75:
            line(t, h, "systemd-logind[688]", f"New session {rng.randrange(100, 999)} of user deploy.")
        else:
            line(t, h, f"containerd[{rng.choice([980, 991])}]",
                 f'time="{iso_ms(t)}" level=info msg="loading plugin \\"io.containerd.event.v1.publisher\\"..."')
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# payments-5424.log: RFC 5424 syslog (facility local0), 1,000 lines 00:00-03:30. Planted:
# payments logs 83 messages at severity err (PRI 131); merchant m-5512 has the most
# declines (44); fraud-check logs 5 crit (first 02:43:20.512) and 17 err.
def payments_5424(rng):
    ev = []
    merchants = [f"m-{x}" for x in rng.sample(range(1000, 9999), 60) if x != 5512]

    def line(t, sev, host, app, procid, msgid, sd, msg):
        ev.append((t, f"<{16 * 8 + sev}>1 {iso_ms(t)} {host} {app} {procid} {msgid} {sd} {msg}"))

    def sd(m):
        return f'[ctx@32473 merchant="{m}" region="{rng.choice(["eu-west-1", "eu-central-1"])}"]'

    def t_any():
        return rtime(rng, "00:00:01", "03:29:59")

    def pay(t, sev, msgid, m, msg):
        line(t, sev, rng.choice(["app-01", "app-02"]), "payments", rng.choice([4121, 4188]), msgid, sd(m), msg)

    for _ in range(83):
        pay(t_any(), 3, "ERR", rng.choice(merchants),
            rng.choice([f"acquirer timeout txn=tx-{hexid(rng, 8)} after 8000ms",
                        f"ledger write failed txn=tx-{hexid(rng, 8)}: connection reset"]))
    declines = ["m-5512"] * 44 + [rng.choice(merchants) for _ in range(110)]
    for m in declines:
        pay(t_any(), 5, "DECLINE", m,
            f"declined txn=tx-{hexid(rng, 8)} reason={rng.choice(['insufficient_funds', 'do_not_honor', 'expired_card'])}")
    for _ in range(60):
        pay(t_any(), 4, "RETRY", rng.choice(merchants), f"retrying capture txn=tx-{hexid(rng, 8)} attempt=2")
    crit = [at("02:43:20.512")] + [rtime(rng, "02:43:21", "02:49:00") for _ in range(4)]
    for t in crit:
        line(t, 2, "app-02", "fraud-check", 5530, "MODEL", "-", "model server unreachable, failing open")
    for _ in range(17):
        line(t_any(), 3, "app-02", "fraud-check", 5530, "MODEL", "-", "feature store read failed: deadline exceeded")
    for _ in range(80):
        line(t_any(), 6, "app-02", "fraud-check", 5530, "SCORE", "-", f"scored txn=tx-{hexid(rng, 8)} score=0.{rng.randrange(10, 99)}")
    for _ in range(60):
        line(t_any(), 6, "app-01", "ledger", 3390, "POST", "-", f"posted batch {rng.randrange(1000, 9999)} entries={rng.randrange(1, 80)}")
    while len(ev) < 1000:
        pay(t_any(), 6, "AUTH", rng.choice(merchants),
            f"authorised txn=tx-{hexid(rng, 8)} amount={rng.randrange(1, 400)}.{rng.randrange(0, 100):02d} currency=EUR")
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# journal.json: `journalctl -o json` export of worker-04, 520 entries 00:00-03:19:57.
# Planted: ledger-worker.service logs 37 entries at PRIORITY 3 (its last entry 03:18:42.306);
# mq-bridge.service logs 52 at PRIORITY 3 (the most errors of any unit).
def journal_json(rng):
    boot = hexid(rng, 32)
    machine = hexid(rng, 32)
    units = {
        "ledger-worker.service": ("ledger-worker", 2291, "/usr/bin/python3"),
        "mq-bridge.service": ("mq-bridge", 1804, "/usr/local/bin/mq-bridge"),
        "cron.service": ("CRON", 0, "/usr/sbin/cron"),
        "ssh.service": ("sshd", 0, "/usr/sbin/sshd"),
        "init.scope": ("systemd", 1, "/usr/lib/systemd/systemd"),
    }
    ev = []

    def entry(t, unit, prio, msg):
        ident, pid, exe = units[unit]
        pid = pid or rng.randrange(30000, 60000)
        ev.append((t, unit, prio, ident, pid, exe, msg))

    def t_any():
        return rtime(rng, "00:00:01", "03:19:56")

    for _ in range(37):
        entry(rtime(rng, "00:00:01", "03:18:40"), "ledger-worker.service", 3,
              f"posting batch {rng.randrange(1000, 9999)} failed: deadlock detected, will retry")
    for _ in range(20):
        entry(rtime(rng, "00:00:01", "03:18:40"), "ledger-worker.service", 4, "batch took longer than 30s")
    for _ in range(130):
        entry(rtime(rng, "00:00:01", "03:18:40"), "ledger-worker.service", 6,
              f"posted batch {rng.randrange(1000, 9999)} ({rng.randrange(1, 500)} entries)")
    entry(at("03:18:42.306"), "ledger-worker.service", 6, "posted batch 9142 (17 entries)")
    for _ in range(52):
        entry(t_any(), "mq-bridge.service", 3, f"publish to amqp://mq-01:5672 failed: {rng.choice(['connection reset by peer', 'channel closed'])}")
    for _ in range(110):
        entry(t_any(), "mq-bridge.service", 6, f"forwarded {rng.randrange(1, 900)} messages")
    entry(at("03:19:57.001"), "init.scope", 6, "Started session-881.scope - Session 881 of User deploy.")
    while len(ev) < 520:
        u = rng.choice(["cron.service", "ssh.service", "init.scope"])
        msg = {"cron.service": "(root) CMD (/usr/local/bin/ledger-reconcile --quiet)",
               "ssh.service": f"Accepted publickey for deploy from 10.0.0.5 port {rng.randrange(30000, 60000)} ssh2",
               "init.scope": "Finished ledger-reconcile.service - Ledger reconciliation."}[u]
        entry(t_any(), u, 6, msg)
    ev.sort(key=lambda e: e[0])
    out = []
    for i, (t, unit, prio, ident, pid, exe, msg) in enumerate(ev):
        us = int(t.timestamp() * 1_000_000)
        d = {"__CURSOR": f"s={hexid(rng, 32)};i={0x1a2b00 + i:x};b={boot};m={i * 7919:x};t={us:x};x={hexid(rng, 16)}",
             "__REALTIME_TIMESTAMP": str(us), "__MONOTONIC_TIMESTAMP": str(86_400_000_000 + us % 10**10),
             "_BOOT_ID": boot, "PRIORITY": str(prio), "SYSLOG_FACILITY": "3", "_UID": "0", "_GID": "0",
             "_MACHINE_ID": machine, "_HOSTNAME": "worker-04", "_TRANSPORT": "stdout" if unit != "init.scope" else "journal",
             "SYSLOG_IDENTIFIER": ident, "_PID": str(pid), "_COMM": ident[:15], "_EXE": exe,
             "_SYSTEMD_UNIT": unit, "_SYSTEMD_SLICE": "system.slice" if unit != "init.scope" else "-.slice",
             "MESSAGE": msg}
        out.append(json.dumps(d))
    return "".join(l + "\n" for l in out)


# ---------------------------------------------------------------------------------------
# haproxy.log: HAProxy HTTP log via syslog on lb-01, 1,400 lines 02:00-03:20. Planted:
# 503 x133: be_search/search-03 x96, be_search/<NOSRV> x21, be_api/api-02 x16; api-02 is the
# slowest server (Tr mean and the max 8812 ms).
def haproxy_log(rng):
    ev = []
    servers = {"be_web": ["web-01", "web-02", "web-03"], "be_api": ["api-01", "api-02", "api-03"],
               "be_search": ["search-01", "search-02", "search-03", "search-04"], "be_static": ["static-01", "static-02"]}
    paths = {"be_web": ["/", "/catalog/fiction", "/account/orders"], "be_api": ["/api/cart", "/api/checkout/confirm"],
             "be_search": ["/search?q=atlas", "/search?q=poetry"], "be_static": ["/static/js/app.4f2a91.js"]}

    def line(t, be, srv, tr, status, term):
        tc = -1 if srv == "<NOSRV>" else rng.randrange(0, 3)
        trr = -1 if srv == "<NOSRV>" else tr
        ta = max(0, tc) + max(0, trr) + rng.randrange(0, 3)
        ip = f"198.51.100.{rng.randrange(1, 255)}:{rng.randrange(1024, 65535)}"
        acc = t.strftime("%d/%b/%Y:%H:%M:%S.") + f"{t.microsecond // 1000:03d}"
        m = "POST" if "checkout" in (p := rng.choice(paths[be])) else "GET"
        conns = f"{rng.randrange(200, 900)}/{rng.randrange(200, 900)}/{rng.randrange(5, 60)}/{rng.randrange(0, 20)}/0"
        size = rng.randrange(180, 24000) if status == 200 else 212
        ev.append((t, f"{syslog_ts(t)} lb-01 haproxy[1893]: {ip} [{acc}] fe_https~ {be}/{srv} "
                      f"0/0/{tc}/{trr}/{ta} {status} {size} - - {term} {conns} 0/0 \"{m} {p} HTTP/1.1\""))

    for _ in range(96):
        line(rtime(rng, "02:41:00", "02:49:59"), "be_search", "search-03", rng.randrange(1, 9), 503, "----")
    for _ in range(21):
        line(rtime(rng, "02:46:00", "02:48:59"), "be_search", "<NOSRV>", 0, 503, "SC--")
    for _ in range(16):
        line(rtime(rng, "02:00:01", "03:19:59"), "be_api", "api-02", rng.randrange(1, 9), 503, "----")
    line(at("02:52:31.208"), "be_api", "api-02", 8812, 200, "----")
    line(at("02:00:00.010"), "be_web", "web-01", 12, 200, "----")
    weights = {"be_web": 50, "be_api": 30, "be_search": 16, "be_static": 4}
    while len(ev) < 1400:
        be = rng.choices(list(weights), list(weights.values()))[0]
        srv = rng.choice(servers[be])
        tr = rng.randrange(300, 2500) if srv == "api-02" else rng.randrange(2, 400)
        line(rtime(rng, "02:00:01", "03:19:59"), be, srv, tr, 404 if rng.random() < 0.02 else 200, "----")
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# postgresql.log: log_line_prefix '%m [%p] %q%u@%d ', 1,200 lines 00:00-03:30. Planted: 300
# "duration:" lines (log_min_duration_statement = 250ms), 64 over 1000 ms (reporting 41, shop 23), the
# slowest 18734.902 ms on order_items; 23 "deadlock detected"; 37 "too many clients".
def postgres_log(rng):
    ev = []

    def line(t, pid, who, level, msg):
        ts = t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d} UTC"
        prefix = f"{ts} [{pid}] {who + ' ' if who else ''}"
        ev.append((t, f"{prefix}{level}:  {msg}"))

    def t_any():
        return rtime(rng, "00:00:01", "03:29:59")

    shop_q = ["SELECT * FROM orders WHERE customer_id = $1 ORDER BY created_at DESC LIMIT 20",
              "UPDATE stock_levels SET qty = qty - $1 WHERE sku = $2",
              "SELECT i.* FROM items i JOIN item_prices p ON p.item_id = i.id WHERE i.category = $1"]
    rep_q = ["SELECT date_trunc('hour', created_at), count(*) FROM orders GROUP BY 1",
             "SELECT customer_id, sum(total) FROM orders WHERE created_at > $1 GROUP BY customer_id"]
    durations = ([("reporting", rng.uniform(1001, 9000)) for _ in range(40)]
                 + [("shop", rng.uniform(1001, 4000)) for _ in range(23)]
                 + [("reporting", 18734.902)]
                 + [(rng.choice(["shop", "shop", "reporting"]), rng.uniform(250, 998)) for _ in range(236)])
    for db, ms in durations:
        who = "shop_app@shop" if db == "shop" else rng.choice(["report_ro@reporting", "etl@reporting"])
        if ms == 18734.902:
            q = ("SELECT oi.order_id, sum(oi.qty) FROM order_items oi JOIN orders o ON o.id = oi.order_id "
                 "WHERE o.created_at > $1 GROUP BY oi.order_id")
            t = at("02:31:44.870")
        else:
            q = rng.choice(shop_q if db == "shop" else rep_q)
            t = t_any()
        kind = rng.choice(["statement", f"execute S_{rng.randrange(1, 30)}"])
        line(t, rng.randrange(40000, 49999), who, "LOG", f"duration: {ms:.3f} ms  {kind}: {q}")
    for _ in range(23):
        t, pid = t_any(), rng.randrange(40000, 49999)
        a, b = rng.randrange(900000, 999999), rng.randrange(900000, 999999)
        line(t, pid, "shop_app@shop", "ERROR", "deadlock detected")
        line(t, pid, "shop_app@shop", "DETAIL", f"Process {pid} waits for ShareLock on transaction {a}; blocked by process {pid + 7}.")
        line(t, pid, "shop_app@shop", "HINT", "See server log for query details.")
        line(t, pid, "shop_app@shop", "CONTEXT", f'while updating tuple ({rng.randrange(1, 900)},{rng.randrange(1, 60)}) in relation "stock_levels"')
        line(t, pid, "shop_app@shop", "STATEMENT", "UPDATE stock_levels SET qty = qty - $1 WHERE sku = $2")
    for _ in range(37):
        line(rtime(rng, "02:44:00", "02:48:59"), rng.randrange(40000, 49999), "shop_app@shop", "FATAL",
             "sorry, too many clients already")
    for k in range(42):
        t = at("00:00:00") + timedelta(minutes=5 * k, seconds=3)
        line(t, 1107, "", "LOG", "checkpoint starting: time")
        line(t + timedelta(seconds=rng.randrange(20, 90)), 1107, "", "LOG",
             f"checkpoint complete: wrote {rng.randrange(100, 4000)} buffers ({rng.uniform(0.1, 9):.1f}%); "
             f"0 WAL file(s) added, 0 removed, 1 recycled; write={rng.uniform(10, 80):.3f} s, sync=0.004 s, total={rng.uniform(10, 90):.3f} s")
    while len(ev) < 1200:
        t, pid = t_any(), rng.randrange(40000, 49999)
        if rng.random() < 0.5:
            line(t, pid, "[unknown]@[unknown]", "LOG", f"connection received: host=10.0.3.{rng.randrange(2, 60)} port={rng.randrange(30000, 60000)}")
        else:
            who = rng.choice(["shop_app@shop", "report_ro@reporting"])
            line(t, pid, who, "LOG", f"disconnection: session time: 0:{rng.randrange(0, 59):02d}:{rng.randrange(0, 59):02d}.{rng.randrange(0, 999):03d} "
                                     f"user={who.split('@')[0]} database={who.split('@')[1]} host=10.0.3.{rng.randrange(2, 60)} port={rng.randrange(30000, 60000)}")
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# mysql-slow.log: MySQL 8 slow query log, 300 entries 00:00-03:30. Planted: Query_time over
# 10 s x29; the longest 41.902317 s on invoice_lines; report_ro the busiest user (171);
# Rows_examined over 1,000,000 x76.
def mysql_slow(rng):
    header = ("/usr/sbin/mysqld, Version: 8.0.36 (MySQL Community Server - GPL). started with:\n"
              "Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock\n"
              "Time                 Id Command    Argument\n")
    users = ["report_ro"] * 171 + ["shop_app"] * 92 + ["etl"] * 37
    rng.shuffle(users)
    qtimes = ([rng.uniform(10.2, 38.0) for _ in range(28)] + [41.902317]
              + [rng.uniform(1.0, 9.7) for _ in range(271)])
    big = set(rng.sample(range(300), 76))
    entries = []
    for i, (user, qt) in enumerate(zip(users, qtimes)):
        t = at("02:12:09.554120") if qt == 41.902317 else rtime(rng, "00:00:01", "03:29:59")
        rows = rng.randrange(1_000_001, 9_000_000) if i in big else rng.randrange(1, 999_000)
        if qt == 41.902317:
            q = ("SELECT l.invoice_id, SUM(l.amount) FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id "
                 "WHERE i.issued_at >= '2026-01-01' GROUP BY l.invoice_id;")
        else:
            q = rng.choice(["SELECT * FROM orders WHERE status = 'pending' ORDER BY created_at;",
                            "SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id;",
                            "UPDATE carts SET abandoned = 1 WHERE updated_at < NOW() - INTERVAL 1 DAY;",
                            "SELECT * FROM invoices WHERE customer_id IN (SELECT id FROM customers WHERE country = 'PT');"])
        host = {"report_ro": "10.0.3.17", "shop_app": "10.0.2.11", "etl": "10.0.4.40"}[user]
        ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}Z"
        entries.append((t, f"# Time: {ts}\n# User@Host: {user}[{user}] @  [{host}]  Id: {rng.randrange(1000, 99999):>5}\n"
                           f"# Query_time: {qt:.6f}  Lock_time: {rng.uniform(0, 0.01):.6f} Rows_sent: {rng.randrange(0, 500)}  "
                           f"Rows_examined: {rows}\nSET timestamp={int(t.timestamp())};\n{q}"))
    return header + sort_join(entries)


# ---------------------------------------------------------------------------------------
# auth.log: sshd and friends on bastion-01, 1,700 lines 00:00-03:30. Planted: 684 "Failed
# password" lines from 37 IPs, 311 of them from 203.0.113.250, which also logs in as admin
# with a password twice (02:39:41, 03:02:15).
def auth_log(rng):
    ev = []
    attackers = [f"{rng.choice([45, 80, 92, 141, 185, 193])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
                 for _ in range(36)]
    assert len(set(attackers)) == 36 and "203.0.113.250" not in attackers
    names = ["admin", "oracle", "test", "ubuntu", "git", "postgres", "user", "support", "ftpuser", "pi"]

    def line(t, prog, msg):
        ev.append((t, f"{syslog_ts(t)} bastion-01 {prog}: {msg}"))

    def failed(t, ip):
        pid, port = rng.randrange(10000, 99999), rng.randrange(1024, 65535)
        if rng.random() < 0.6:
            u = rng.choice(names)
            line(t, f"sshd[{pid}]", f"Invalid user {u} from {ip} port {port}")
            line(t + timedelta(seconds=2), f"sshd[{pid}]", f"Failed password for invalid user {u} from {ip} port {port} ssh2")
        else:
            line(t + timedelta(seconds=2), f"sshd[{pid}]", f"Failed password for root from {ip} port {port} ssh2")
        if rng.random() < 0.3:
            line(t + timedelta(seconds=3), f"sshd[{pid}]", f"Connection closed by authenticating user root {ip} port {port} [preauth]")

    for _ in range(311):
        failed(rtime(rng, "00:00:01", "03:29:50"), "203.0.113.250")
    counts = spread(rng, 373, 36, 4, 30)
    for ip, c in zip(attackers, counts):
        for _ in range(c):
            failed(rtime(rng, "00:00:01", "03:29:50"), ip)
    for t in (at("02:39:41"), at("03:02:15")):
        pid = rng.randrange(10000, 99999)
        line(t, f"sshd[{pid}]", f"Accepted password for admin from 203.0.113.250 port {rng.randrange(1024, 65535)} ssh2")
        line(t, f"sshd[{pid}]", "pam_unix(sshd:session): session opened for user admin(uid=1004) by (uid=0)")
    for _ in range(20):
        t, pid = rtime(rng, "00:00:01", "03:29:50"), rng.randrange(10000, 99999)
        who, ip = rng.choice([("deploy", "10.0.0.5"), ("ops-jin", "10.0.0.8")])
        line(t, f"sshd[{pid}]", f"Accepted publickey for {who} from {ip} port {rng.randrange(1024, 65535)} ssh2: ED25519 SHA256:{hexid(rng, 43)}")
        line(t, f"sshd[{pid}]", f"pam_unix(sshd:session): session opened for user {who}(uid=1001) by (uid=0)")
        line(t + timedelta(minutes=rng.randrange(1, 30)), f"sshd[{pid}]", f"pam_unix(sshd:session): session closed for user {who}")
    while len(ev) < 1700:
        t = rtime(rng, "00:00:01", "03:29:59")
        if rng.random() < 0.5:
            line(t, f"CRON[{rng.randrange(10000, 99999)}]", "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)")
        else:
            line(t, "sudo", "  deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/systemctl status nginx")
    return sort_join(ev)


# ---------------------------------------------------------------------------------------
# kern.log: kernel messages of app-02 via syslog, 800 lines 00:00-03:30. Planted: 19 OOM
# kills ("Killed process"): java x11 (pid 31337 at 02:44:51, the last java kill 03:07:26),
# node x5, python3 x3; segfaults: imgproc x6, thumbd x2.
def kern_log(rng):
    ev = []
    boot = 812000.0

    def line(t, msg):
        up = boot + (t - at("00:00:00")).total_seconds()
        ev.append((t, f"{syslog_ts(t)} app-02 kernel: [{up:12.6f}] {msg}"))

    kills = ([("java", at("02:44:51"), 31337), ("java", at("03:07:26"), rng.randrange(32000, 39000))]
             + [("java", rtime(rng, "00:10:00", "03:05:00"), rng.randrange(20000, 39000)) for _ in range(9)]
             + [("node", rtime(rng, "00:10:00", "03:20:00"), rng.randrange(20000, 39000)) for _ in range(5)]
             + [("python3", rtime(rng, "00:10:00", "03:20:00"), rng.randrange(20000, 39000)) for _ in range(3)])
    for comm, t, pid in kills:
        invoker = comm if rng.random() < 0.8 else "kworker/u8:2"
        memcg = "/system.slice/catalog.service" if comm == "java" else "/system.slice/batch.slice"
        line(t, f"{invoker} invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0")
        line(t, f"oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg={memcg},"
                f"task_memcg={memcg},task={comm},pid={pid},uid=1001")
        rss = rng.randrange(900_000, 6_500_000)
        line(t, f"Memory cgroup out of memory: Killed process {pid} ({comm}) total-vm:{rss + 2_000_000}kB, "
                f"anon-rss:{rss}kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:{rng.randrange(2000, 14000)}kB oom_score_adj:0")
    for comm, n, lib in (("imgproc", 6, "libvips.so.42.17.1"), ("thumbd", 2, "libjpeg.so.8.2.2")):
        for _ in range(n):
            t = rtime(rng, "00:05:00", "03:25:00")
            line(t, f"{comm}[{rng.randrange(4000, 9000)}]: segfault at 0 ip 00007f3a{hexid(rng, 8)} sp 00007ffd{hexid(rng, 8)} "
                    f"error 4 in {lib}[7f3a1c200000+2a0000] likely on CPU {rng.randrange(0, 4)} (core {rng.randrange(0, 4)}, socket 0)")
            line(t, "Code: 48 8b 07 48 85 c0 74 0d 48 8b 40 08 c3 0f 1f 80 00 00 00 00 <48> 8b 47 08 c3 66 90")
    for _ in range(40):
        line(rtime(rng, "02:40:00", "02:50:00"), "nf_conntrack: nf_conntrack: table full, dropping packet")
    while len(ev) < 800:
        t = rtime(rng, "00:00:01", "03:29:59")
        r = rng.random()
        if r < 0.8:
            line(t, f"[UFW BLOCK] IN=eth0 OUT= MAC=52:54:00:12:34:56 SRC={rng.choice([45, 80, 185])}.{rng.randrange(256)}."
                    f"{rng.randrange(256)}.{rng.randrange(1, 255)} DST=10.0.1.12 LEN=40 TOS=0x00 PREC=0x00 TTL=243 ID={rng.randrange(1, 65535)} "
                    f"PROTO=TCP SPT={rng.randrange(1024, 65535)} DPT={rng.choice([23, 3389, 5900, 8081])} WINDOW=1024 RES=0x00 SYN URGP=0")
        elif r < 0.9:
            line(t, "TCP: request_sock_TCP: Possible SYN flooding on port 443. Sending cookies.  Check SNMP counters.")
        else:
            line(t, "EXT4-fs (nvme0n1p2): re-mounted. Quota mode: none.")
    return sort_join(ev)
