"""Databases: PostgreSQL csvlog (PG15), MongoDB structured JSON log, Redis server log."""
import json
import random
from datetime import datetime, timedelta

from common import UTC, write_log


def q(s):
    return '"' + s.replace('"', '""') + '"'


def postgres():
    rng = random.Random(4601)
    t = datetime(2024, 3, 23, 0, 0, 0, tzinfo=UTC)
    out = []
    users = [("app", "shop", "shop-api"), ("app", "shop", "shop-worker"), ("report", "shop", "metabase"),
             ("etl", "warehouse", "airbyte"), ("postgres", "postgres", "psql")]
    st = {"start": t, "pid": 1}

    def ts(x):
        return x.strftime("%Y-%m-%d %H:%M:%S.") + "%03d UTC" % (x.microsecond // 1000)

    def row(sev, code, msg, user=None, detail="", hint="", context="", query="", cmd="", btype="client backend", pid=None):
        pid = pid or rng.randint(1000, 60000)
        sess = "%x.%x" % (int(st["start"].timestamp()) + rng.randint(0, 9999), pid)
        u, d, app = user if user else ("", "", "")
        host = ("%s:%d" % (rng.choice(["10.0.5.21", "10.0.5.22", "10.0.7.40", "10.0.9.3"]), rng.randint(30000, 60000))) if user else ""
        cols = [ts(t), q(u) if u else "", q(d) if d else "", str(pid), q(host) if host else "", sess, str(rng.randint(1, 40)),
                q(cmd) if cmd else "", st["start"].strftime("%Y-%m-%d %H:%M:%S UTC"), "%d/%d" % (rng.randint(1, 30), rng.randint(1, 99999)) if user else "",
                "0" if sev == "LOG" else str(rng.randint(0, 900000)), sev, code, q(msg), q(detail) if detail else "", q(hint) if hint else "",
                "", "", q(context) if context else "", q(query) if query else "", "", "", q(app) if app else "", q(btype), "",
                str(rng.randint(-2**62, 2**62)) if user else "0"]
        out.append(",".join(cols))

    def boot():
        row("LOG", "00000", "starting PostgreSQL 15.6 (Debian 15.6-1.pgdg120+2) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit", btype="postmaster", pid=1)
        row("LOG", "00000", 'listening on IPv4 address "0.0.0.0", port 5432', btype="postmaster", pid=1)
        row("LOG", "00000", 'listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"', btype="postmaster", pid=1)
        row("LOG", "00000", "database system was shut down at %s" % ts(t - timedelta(seconds=5)), btype="startup", pid=28)
        row("LOG", "00000", "database system is ready to accept connections", btype="postmaster", pid=1)

    boot()
    for i in range(1150):
        t += timedelta(milliseconds=rng.randint(100, 30000))
        r = rng.random()
        usr = rng.choices(users, [6, 3, 2, 1, 1])[0]
        if i == 700:  # restart
            row("LOG", "00000", "received fast shutdown request", btype="postmaster", pid=1)
            for _ in range(4):
                row("FATAL", "57P01", "terminating connection due to administrator command", user=rng.choice(users), cmd="idle")
            row("LOG", "00000", "database system is shut down", btype="postmaster", pid=1)
            t += timedelta(seconds=9)
            st["start"] = t
            boot()
        elif r < 0.30:
            row("LOG", "00000", "connection authorized: user=%s database=%s application_name=%s SSL enabled (protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)"
                % usr, user=usr, cmd="authentication", btype="client backend")
        elif r < 0.55:
            row("LOG", "00000", "disconnection: session time: 0:%02d:%02d.%03d user=%s database=%s host=10.0.5.21 port=%d"
                % (rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 999), usr[0], usr[1], rng.randint(30000, 60000)), user=usr, cmd="idle")
        elif r < 0.80 or (400 <= i < 470 and r < 0.95):
            dur = rng.uniform(500, 4000) if not 400 <= i < 470 else rng.uniform(2000, 58000)
            sql = rng.choice(["SELECT o.id, o.status, o.total\n\tFROM orders o\n\tJOIN customers c ON c.id = o.customer_id\n\tWHERE c.email = $1\n\tORDER BY o.created_at DESC",
                              "UPDATE inventory SET qty = qty - $1 WHERE sku = $2", "SELECT count(*) FROM events WHERE created_at > now() - interval '1 day'"])
            row("LOG", "00000", "duration: %.3f ms  execute <unnamed>: %s" % (dur, sql), user=usr, cmd=sql.split()[0],
                detail="parameters: $1 = '%d', $2 = 'SKU-%d'" % (rng.randint(1, 5), rng.randint(1, 999)) if sql.startswith("UPDATE") else "")
        elif r < 0.86:
            row("ERROR", "23505", 'duplicate key value violates unique constraint "orders_external_ref_key"',
                detail="Key (external_ref)=(ord_%x) already exists." % rng.getrandbits(40), user=usr, cmd="INSERT",
                query="INSERT INTO orders (external_ref, customer_id, total) VALUES ($1, $2, $3)")
        elif r < 0.89:
            row("ERROR", "57014", "canceling statement due to statement timeout", user=usr, cmd="SELECT",
                query="SELECT * FROM events WHERE payload @> $1")
        elif r < 0.90:
            a, b = rng.randint(1000, 60000), rng.randint(1000, 60000)
            row("ERROR", "40P01", "deadlock detected", user=usr, cmd="UPDATE", hint="See server log for query details.",
                detail="Process %d waits for ShareLock on transaction %d; blocked by process %d.\nProcess %d waits for ShareLock on transaction %d; blocked by process %d."
                % (a, rng.randint(1, 9e5), b, b, rng.randint(1, 9e5), a),
                context='while updating tuple (%d,%d) in relation "inventory"' % (rng.randint(0, 90), rng.randint(1, 60)),
                query="UPDATE inventory SET qty = qty - $1 WHERE sku = $2")
        elif r < 0.93:
            row("FATAL", "28P01", 'password authentication failed for user "report"', user=("report", "shop", ""), cmd="authentication",
                detail='Connection matched file "/etc/postgresql/15/main/pg_hba.conf" line 102: "host all all 0.0.0.0/0 scram-sha-256"')
        elif r < 0.97:
            row("LOG", "00000", "checkpoint starting: time", btype="checkpointer", pid=31)
            row("LOG", "00000", "checkpoint complete: wrote %d buffers (%.1f%%); 0 WAL file(s) added, 0 removed, %d recycled; write=%.3f s, sync=0.0%02d s, total=%.3f s; sync files=%d, longest=0.004 s, average=0.001 s; distance=%d kB, estimate=%d kB; lsn=0/%X, redo lsn=0/%X"
                % (rng.randint(100, 9000), rng.uniform(0.5, 20), rng.randint(0, 3), rng.uniform(20, 270), rng.randint(1, 99), rng.uniform(20, 270),
                   rng.randint(5, 80), rng.randint(1000, 90000), rng.randint(1000, 90000), rng.getrandbits(28), rng.getrandbits(28)),
                btype="checkpointer", pid=31)
        else:
            row("LOG", "00000", 'automatic vacuum of table "shop.public.orders": index scans: 1\npages: 0 removed, %d remain, %d scanned (%.2f%% of total)\ntuples: %d removed, %d remain, 0 are dead but not yet removable\navg read rate: %.3f MB/s, avg write rate: %.3f MB/s\nsystem usage: CPU: user: 0.%02d s, system: 0.01 s, elapsed: %.2f s'
                % (rng.randint(1000, 9000), rng.randint(10, 900), rng.uniform(1, 50), rng.randint(10, 5000), rng.randint(10000, 900000),
                   rng.uniform(0, 40), rng.uniform(0, 20), rng.randint(0, 99), rng.uniform(0.1, 9)), btype="autovacuum worker")
    write_log("postgresql.csv", out)


def mongo_line(t, s, c, mid, ctx, msg, attr=None):
    d = '{"t":{"$date":"%s"},"s":"%s",%s"c":"%s",%s"id":%d,%s"ctx":"%s","msg":%s' % (
        t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d+00:00" % (t.microsecond // 1000), s, " " * (3 - len(s)),
        c, " " * max(1, 10 - len(c)), mid, " " * max(1, 8 - len(str(mid))), ctx, json.dumps(msg))
    if attr is not None:
        d += ',"attr":' + json.dumps(attr, separators=(",", ":"))
    return d + "}"


def mongodb():
    rng = random.Random(4602)
    t = datetime(2024, 3, 24, 10, 0, 0, tzinfo=UTC)
    out = []
    remotes = ["10.0.4.%d" % rng.randint(2, 60) for _ in range(20)]
    conns = {}
    cid = 100
    for i in range(1400):
        t += timedelta(milliseconds=rng.randint(10, 6000))
        r = rng.random()
        if r < 0.2 or not conns:
            cid += 1
            rem = "%s:%d" % (rng.choice(remotes), rng.randint(30000, 60000))
            conns[cid] = rem
            out.append(mongo_line(t, "I", "NETWORK", 22943, "listener", "Connection accepted",
                                  {"remote": rem, "uuid": {"uuid": {"$uuid": "%08x-%04x-4%03x-8%03x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12), rng.getrandbits(12), rng.getrandbits(48))}},
                                   "connectionId": cid, "connectionCount": len(conns)}))
        elif r < 0.35:
            k = rng.choice(list(conns))
            rem = conns.pop(k)
            out.append(mongo_line(t, "I", "NETWORK", 22944, "conn%d" % k, "Connection ended",
                                  {"remote": rem, "connectionId": k, "connectionCount": len(conns)}))
        elif r < 0.45:
            k = rng.choice(list(conns))
            out.append(mongo_line(t, "I", "NETWORK", 51800, "conn%d" % k, "client metadata",
                                  {"remote": conns[k], "client": "conn%d" % k, "negotiatedCompressors": [],
                                   "doc": {"driver": {"name": "nodejs", "version": "6.3.0"}, "platform": "Node.js v20.11.1, LE"}}))
        elif r < 0.55:
            k = rng.choice(list(conns))
            out.append(mongo_line(t, "I", "ACCESS", 5286306, "conn%d" % k, "Authentication succeeded",
                                  {"mechanism": "SCRAM-SHA-256", "speculative": True, "principalName": "orders-api",
                                   "authenticationDatabase": "admin", "remote": conns[k], "extraInfo": {}}))
        elif r < 0.80 or 900 <= i < 960:
            k = rng.choice(list(conns))
            ns = rng.choices(["shop.orders", "shop.products", "shop.sessions", "analytics.events"], [5, 3, 2, 2])[0]
            dur = rng.randint(100, 900) if not 900 <= i < 960 else rng.randint(2000, 45000)
            scan = rng.random() < 0.4 or 900 <= i < 960
            out.append(mongo_line(t, "I", "COMMAND", 51803, "conn%d" % k, "Slow query", {
                "type": "command", "ns": ns, "appName": "orders-api",
                "command": {"find": ns.split(".")[1], "filter": {"customerId": rng.randint(1, 90000)}, "$db": ns.split(".")[0]},
                "planSummary": "COLLSCAN" if scan else "IXSCAN { customerId: 1 }", "keysExamined": 0 if scan else rng.randint(1, 50),
                "docsExamined": rng.randint(100000, 900000) if scan else rng.randint(1, 50), "cursorExhausted": True,
                "numYields": rng.randint(0, 900), "nreturned": rng.randint(0, 40), "queryHash": "%08X" % rng.getrandbits(32),
                "reslen": rng.randint(200, 90000), "protocol": "op_msg", "remote": conns[k], "durationMillis": dur}))
        elif r < 0.90:
            out.append(mongo_line(t, "I", "STORAGE", 22430, "Checkpointer", "WiredTiger message", {"message": {
                "ts_sec": int(t.timestamp()), "ts_usec": t.microsecond, "thread": "1:0x7f2b1c5fe640",
                "session_name": "WT_SESSION.checkpoint", "category": "WT_VERB_CHECKPOINT_PROGRESS", "category_id": 6,
                "verbose_level": "DEBUG_1", "verbose_level_id": 1,
                "msg": "saving checkpoint snapshot min: %d, snapshot max: %d snapshot count: 0, oldest timestamp: (0, 0) , meta checkpoint timestamp: (0, 0) base write gen: %d"
                % ((x := rng.randint(1000, 99999)), x, rng.randint(10000, 999999))}}))
        elif 600 <= i < 620 or r < 0.93:
            out.append(mongo_line(t, "W", "REPL_HB", 23974, "ReplCoord-%d" % rng.randint(0, 9), "Heartbeat failed after max retries",
                                  {"target": "mongo-2.mongo:27017", "maxHeartbeatRetries": 2,
                                   "error": {"code": 6, "codeName": "HostUnreachable", "errmsg": "Error connecting to mongo-2.mongo:27017 :: caused by :: Connection refused"}}))
        elif r < 0.95:
            out.append(mongo_line(t, "W", "NETWORK", 4615610, "conn%d" % rng.choice(list(conns)), "Failed to check socket connectivity",
                                  {"error": {"code": 6, "codeName": "HostUnreachable", "errmsg": "Connection reset by peer"}}))
        elif r < 0.96:
            out.append(mongo_line(t, "E", "WRITE", 20276, "conn%d" % rng.choice(list(conns)), "Plan executor error during findAndModify",
                                  {"error": {"code": 11000, "codeName": "DuplicateKey", "errmsg": "E11000 duplicate key error collection: shop.orders index: externalRef_1"}}))
        else:
            out.append(mongo_line(t, "I", "REPL", 21358, "ReplCoord-1", "Replica set state transition",
                                  {"newState": rng.choice(["SECONDARY", "PRIMARY"]), "oldState": rng.choice(["PRIMARY", "SECONDARY"])}))
    write_log("mongod.log", out)


def redis():
    rng = random.Random(4603)
    t = datetime(2024, 3, 25, 6, 0, 0, 1000)
    out = []

    def log(pid, role, lvl, msg):
        out.append("%d:%s %s %s %s" % (pid, role, t.strftime("%d %b %Y %H:%M:%S.") + "%03d" % (t.microsecond // 1000), lvl, msg))

    def boot():
        log(1, "C", "#", "oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo")
        log(1, "C", "#", "Redis version=7.2.4, bits=64, commit=00000000, modified=0, pid=1, just started")
        log(1, "C", "#", "Configuration loaded")
        log(1, "M", "*", "monotonic clock: POSIX clock_gettime")
        log(1, "M", "*", "Running mode=standalone, port=6379.")
        log(1, "M", "#", "WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.")
        log(1, "M", "*", "Server initialized")
        log(1, "M", "*", "Loading RDB produced by version 7.2.4")
        log(1, "M", "*", "RDB age %d seconds" % rng.randint(10, 900))
        log(1, "M", "*", "RDB memory usage when created %.2f Mb" % rng.uniform(50, 900))
        log(1, "M", "*", "Done loading RDB, keys loaded: %d, keys expired: %d." % (rng.randint(10000, 900000), rng.randint(0, 900)))
        log(1, "M", "*", "DB loaded from disk: %.3f seconds" % rng.uniform(0.1, 9))
        log(1, "M", "*", "Ready to accept connections tcp")

    boot()
    child = 40
    for i in range(260):
        t += timedelta(seconds=rng.randint(20, 300))
        r = rng.random()
        if i == 150:
            log(1, "M", "#", "User requested shutdown...")
            log(1, "M", "*", "Saving the final RDB snapshot before exiting.")
            log(1, "M", "*", "DB saved on disk")
            log(1, "M", "#", "Redis is now ready to exit, bye bye...")
            t += timedelta(seconds=4)
            boot()
        elif r < 0.55:
            log(1, "M", "*", "%d changes in %d seconds. Saving..." % (rng.choice([1, 100, 10000]), rng.choice([60, 300, 3600])))
            child += rng.randint(1, 30)
            log(1, "M", "*", "Background saving started by pid %d" % child)
            t += timedelta(milliseconds=rng.randint(200, 9000))
            if 90 <= i < 110:  # disk permission problem
                log(child, "C", "#", "Failed opening the temp RDB file temp-%d.rdb (in server root dir /data) for saving: Permission denied" % child)
                log(1, "M", "#", "Background saving error")
            else:
                log(child, "C", "*", "DB saved on disk")
                log(child, "C", "*", "Fork CoW for RDB: current %d MB, peak %d MB, average %d MB" % (rng.randint(0, 9), rng.randint(1, 20), rng.randint(0, 9)))
                log(1, "M", "*", "Background saving terminated with success")
        elif r < 0.70:
            rep = "10.0.6.%d:6379" % rng.choice([11, 12])
            log(1, "M", "*", "Replica %s asks for synchronization" % rep)
            log(1, "M", "*", "Partial resynchronization request from %s accepted. Sending %d bytes of backlog starting from offset %d." % (rep, rng.randint(0, 9000), rng.randint(1, 9**9)))
        elif r < 0.80:
            log(1, "M", "#", "Connection with replica %s lost." % ("10.0.6.%d:6379" % rng.choice([11, 12])))
        elif r < 0.90:
            log(1, "M", "-", "Accepted 10.0.2.%d:%d" % (rng.randint(2, 90), rng.randint(30000, 60000)))
        else:
            log(1, "M", "#", "Client id=%d addr=10.0.2.%d:%d laddr=10.0.6.10:6379 fd=12 name= age=%d idle=0 flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=20474 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=1 omem=20504 tot-mem=22296 events=r cmd=psubscribe user=default redir=-1 resp=2 lib-name= lib-ver= scheduled to be closed ASAP for overcoming of output buffer limits."
                % (rng.randint(10, 9999), rng.randint(2, 90), rng.randint(30000, 60000), rng.randint(1, 900)))
    write_log("redis-server.log", out)


def run():
    postgres()
    mongodb()
    redis()
