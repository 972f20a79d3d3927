"""Cases f13-f16: NATS server, chrony measurements.log, Db2 db2diag.log, IBM MQ AMQERR01.LOG."""
import random
from datetime import timedelta
from decimal import Decimal

from gen_common import (Case, Clock, go_duration, ns_from_s, utc, wchoice)


# =====================================================================================
# f13  NATS server (with pid prefix, debug on)
# =====================================================================================
NATS_APPS = [("order-svc", "v1.31.0:go"), ("dispatch-worker", "v1.31.0:go"), ("tracking-ingest", "v2.11.3:python3"),
             ("billing", "v1.31.0:go"), ("portal-bff", "v2.19.6:nats.js"), ("telemetry-gw", "v0.2.1:rust")]


def f13_nats():
    rng = random.Random(4313)
    c = Case("f13-nats-server", "nats-server.log",
             "NATS Server 2.10 log file with pid prefix ('[pid] YYYY/MM/DD HH:MM:SS.ffffff [INF] ...'), debug enabled",
             ["FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE"])
    clk = Clock(rng, utc(2026, 3, 12, 14, 0, 3, 512118))
    end = utc(2026, 3, 12, 22, 10, 0)
    LV = {"INF": "INFO", "WRN": "WARN", "ERR": "ERROR", "DBG": "DEBUG", "TRC": "TRACE", "FTL": "FATAL"}
    state = {"pid": 4121, "cid": 5, "rid": 4}

    def L(t, tag, msg, **f):
        line = "[%d] %s [%s] %s" % (state["pid"], t.strftime("%Y/%m/%d %H:%M:%S.%f"), tag, msg)
        return c.ev(t, LV[tag], [line], pid=state["pid"], **f)

    def startup():
        sid = "N" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(55))
        lines = ["Starting nats-server", "  Version:  2.10.11", "  Git:      [b7b5a23]", "  Cluster:  fh-core",
                 "  Name:     nats-2", "  Node:     Qz3fA9kL", "  ID:       %s" % sid,
                 "Using configuration file: /etc/nats/nats-server.conf", "Starting http monitor on 0.0.0.0:8222",
                 "Starting JetStream",
                 "    _ ___ _____ ___ _____ ___ ___   _   __  __",
                 " _ | | __|_   _/ __|_   _| _ \\ __| /_\\ |  \\/  |",
                 "| || | _|  | | \\__ \\ | | |   / _| / _ \\| |\\/| |",
                 " \\__/|___| |_| |___/ |_| |_|_\\___/_/ \\_\\_|  |_|",
                 "", "         https://docs.nats.io/jetstream", "",
                 "---------------- JETSTREAM ----------------", "  Max Memory:      2.00 GB",
                 "  Max Storage:     120.00 GB", '  Store Directory: "/data/nats/jetstream"',
                 "-------------------------------------------", "Starting JetStream cluster",
                 "Creating JetStream metadata controller", "JetStream cluster recovering state",
                 "Listening for client connections on 0.0.0.0:4222", "TLS required for client connections",
                 "Server is ready", "Cluster name is fh-core", "Listening for route connections on 0.0.0.0:6222"]
        for m in lines:
            L(clk.tick(0.0001, 0.004), "INF", m)
        for ip in ("10.80.2.5", "10.80.2.6"):
            state["rid"] += 1
            L(clk.tick(0.001, 0.05), "INF", "%s:6222 - rid:%d - Route connection created" % (ip, state["rid"]))
        L(clk.tick(0.1, 1.0), "INF", "JetStream cluster new metadata leader: nats-1/fh-core")

    startup()
    clients = {}   # cid -> (ip, port, app, ver)
    app_ips = {a: ["10.80.1.%d" % rng.randint(10, 99) for _ in range(2)] for a, _ in NATS_APPS}
    app_ips["order-svc"] = ["10.80.1.23"]
    route_down = (utc(2026, 3, 12, 16, 31, 0), utc(2026, 3, 12, 16, 36, 40))
    trace_win = (utc(2026, 3, 12, 19, 0, 0), utc(2026, 3, 12, 19, 4, 0))
    restart_at = utc(2026, 3, 12, 20, 15, 0)
    restarted = False
    rd_state = {"down": False}

    def pre(cid):
        ip, port, app, ver = clients[cid]
        return '%s:%d - cid:%d - "%s:%s"' % (ip, port, cid, ver, app), ip

    def connect(t, app=None):
        if app is None:
            app = wchoice(rng, [(a, 4 if a == "order-svc" else 1) for a, _ in NATS_APPS])
        ver = dict(NATS_APPS)[app]
        ip = rng.choice(app_ips[app])
        state["cid"] += 1
        cid = state["cid"]
        port = rng.randint(32768, 60999)
        clients[cid] = (ip, port, app, ver)
        L(t, "DBG", "%s:%d - cid:%d - Client connection created" % (ip, port, cid), client=ip)
        p, _ = pre(cid)
        L(clk.tick(0, 0.002), "DBG", "%s - Client Ping Timer" % p, client=ip)
        return cid

    for _ in range(10):
        connect(clk.tick(0.01, 0.5))
    while clk.t < end:
        t = clk.tick(0.5, 32)
        if not restarted and t >= restart_at:
            restarted = True
            L(t, "INF", "Trapped \"terminated\" signal")
            L(clk.tick(0.001, 0.01), "INF", "Initiating JetStream Shutdown...")
            L(clk.tick(0.01, 0.2), "INF", "JetStream Shutdown")
            L(clk.tick(0.001, 0.01), "INF", "Server Exiting..")
            clients.clear()
            clk.tick(1, 3)
            state["pid"] = 18834
            L(clk.tick(0, 0.01), "INF", "Starting nats-server")
            L(clk.tick(0, 0.01), "FTL", 'Error listening on port: 0.0.0.0:4222, "listen tcp 0.0.0.0:4222: bind: address '
              'already in use"')
            clk.tick(4, 6)
            state["pid"] = 18861
            startup()
            for _ in range(8):
                connect(clk.tick(0.01, 0.5))
            continue
        if trace_win[0] <= t < trace_win[1] and clients:
            cid = rng.choice(sorted(clients))
            p, ip = pre(cid)
            subj = rng.choice(["orders.created", "orders.updated", "tracking.ping.fleet7", "billing.invoice.issued"])
            n = rng.randint(60, 2048)
            L(t, "TRC", "%s - <<- [PUB %s %d]" % (p, subj, n), client=ip)
            L(clk.tick(0, 0.0005), "TRC", "%s - <<- MSG_PAYLOAD: [\"{\\\"id\\\":%d,\\\"ts\\\":\\\"%s\\\"...\"]"
              % (p, rng.randint(10 ** 6, 10 ** 7), t.strftime("%Y-%m-%dT%H:%M:%SZ")), client=ip)
            continue
        if route_down[0] <= t < route_down[1]:
            if not rd_state["down"]:
                rd_state["down"] = True
                L(t, "INF", "10.80.2.6:6222 - rid:%d - Router connection closed: Stale Connection" % state["rid"])
                L(clk.tick(0, 0.01), "WRN", "JetStream cluster stream 'ORDERS > ORDERS_EVENTS' has NO quorum, stalled")
            else:
                L(t, "ERR", "Error trying to connect to route (attempt %d): dial tcp 10.80.2.6:6222: connect: connection "
                  "refused" % rng.randint(1, 30))
            if clk.t + timedelta(seconds=32) >= route_down[1]:
                clk.t = route_down[1]
                state["rid"] += 1
                L(clk.tick(0, 1), "INF", "10.80.2.6:6222 - rid:%d - Route connection created" % state["rid"])
                L(clk.tick(0.5, 2), "INF", "JetStream cluster new stream leader for 'ORDERS > ORDERS_EVENTS'")
            continue
        kind = wchoice(rng, [("connect", 16), ("close", 14), ("slow", 3), ("readloop", 3), ("auth", 1.5),
                             ("raft", 1.5), ("health", 1), ("ping", 4)])
        if kind == "connect" or not clients:
            connect(t)
        elif kind == "close":
            cid = rng.choice(sorted(clients))
            p, ip = pre(cid)
            reason = rng.choice(["Client Closed", "Client Closed", "Read Error", "Stale Connection", "Slow Consumer (Write Deadline)"])
            L(t, "DBG", "%s - Client connection closed: %s" % (p, reason), client=ip)
            del clients[cid]
        elif kind == "slow":
            cid = wchoice(rng, [(k, 6 if clients[k][2] == "order-svc" else 1) for k in sorted(clients)])
            p, ip = pre(cid)
            L(t, "INF", "%s - Slow Consumer Detected: WriteDeadline of 10s exceeded with %d chunks of %d total bytes."
              % (p, rng.randint(1, 4), rng.randint(4096, 2 ** 20)), client=ip)
        elif kind == "readloop":
            cid = rng.choice(sorted(clients))
            p, ip = pre(cid)
            ns = rng.randint(2_000_000_000, 9_800_000_000) if rng.random() < 0.9 else rng.randint(10_000_000_000, 31_000_000_000)
            L(t, "WRN", "%s - Readloop processing time: %s" % (p, go_duration(ns)), client=ip, duration=ns)
        elif kind == "auth":
            ip = "10.80.%d.%d" % (rng.choice([1, 7]), rng.randint(100, 140))
            state["cid"] += 1
            u = rng.choice(["report", "billing-old"])
            L(t, "ERR", '%s:%d - cid:%d - "v1.31.0:go:legacy-report" - authentication error - User "%s"'
              % (ip, rng.randint(32768, 60999), state["cid"], u), client=ip, user=u)
        elif kind == "raft":
            L(t, "WRN", "RAFT [Qz3fA9kL - S-R3F-k9VfT2nE] Falling behind in health check, commit %d != applied %d"
              % (rng.randint(41000, 42000), rng.randint(40000, 40999)))
        elif kind == "health":
            L(t, "WRN", "Healthcheck failed: \"JetStream stream 'ORDERS > ORDERS_EVENTS' is not current\"")
        else:
            cid = rng.choice(sorted(clients))
            p, ip = pre(cid)
            L(t, "DBG", "%s - Client Ping Timer" % p, client=ip)

    c.check("count_where", role="client", value="10.80.1.23")
    c.check("distinct", role="client")
    c.check("count_contains", text="Slow Consumer Detected")
    c.check("max", role="duration", unit="ms")
    c.check("distinct", role="pid")
    c.check("top", role="client")
    return c


# =====================================================================================
# f14  chrony measurements.log
# =====================================================================================
CHRONY_BANNER = ["=" * 127,
                 "   Date (UTC) Time     IP Address   L St 123 567 ABCD  LP RP Score    Offset  Peer del. Peer disp.  Root del. Root disp. Refid     MTxRx",
                 "=" * 127]


def sci(x):
    """chrony-style %10.3e, returning (text, Decimal of the text)."""
    s = "%10.3e" % x
    return s, Decimal(s.strip())


def f14_chrony():
    rng = random.Random(4414)
    c = Case("f14-chrony-measurements", "measurements.log",
             "chrony 4.x measurements.log (fixed-width columns, repeated '====' banners every 32 lines, UTC)", [])
    start = utc(2026, 3, 8, 23, 2, 14)
    end = utc(2026, 3, 9, 7, 30, 0)
    sources = [  # ip, poll exponent, stratum, refid, base delay (s)
        ("192.0.2.10", 6, 2, "C0A80A01", 0.00042),
        ("192.0.2.11", 7, 2, "C0A80A02", 0.00051),
        ("203.0.113.123", 7, 1, "47505300", 0.0123),
        ("198.51.100.5", 8, 2, "D8EF2304", 0.0217),
    ]
    sched = []
    for ip, lp, st, ref, d in sources:
        t = start + timedelta(seconds=rng.uniform(0, 3))
        for _ in range(4):   # iburst
            sched.append((t, ip, lp, st, ref, d, True))
            t = t + timedelta(seconds=2, microseconds=rng.randint(0, 300000))
        while t < end:
            t = t + timedelta(seconds=2 ** lp * rng.uniform(0.97, 1.03))
            sched.append((t, ip, lp, st, ref, d, False))
    sched.sort(key=lambda x: (x[0], x[1]))
    n = 0
    offset = {ip: rng.uniform(-2e-4, 2e-4) for ip, *_ in sources}
    for t, ip, lp, st, ref, d, burst in sched:
        if t >= end:
            continue
        if n % 32 == 0:
            c.raw(CHRONY_BANNER)
        n += 1
        tests = "111 111 1111"
        score = 0.0 if ip == "192.0.2.10" else rng.choice([1.0, 1.0, 0.5, 0.25]) * rng.uniform(0.9, 3.5)
        delay = d * rng.uniform(0.8, 1.6)
        if rng.random() < 0.02:
            delay = d * rng.uniform(8, 25)
            tests = "111 111 1101"
        offset[ip] = offset[ip] * 0.7 + rng.gauss(0, 4e-5)
        off_s, _ = sci(offset[ip])
        del_s, del_d = sci(delay)
        disp_s, _ = sci(rng.uniform(1e-6, 8e-5))
        rdel_s, _ = sci(rng.uniform(1e-5, 2e-3) if st > 1 else 0.0)
        rdisp_s, _ = sci(rng.uniform(1e-4, 2e-2))
        lpx = 6 if burst else lp
        line = "%s %-15s N %2d %s  %2d %2d %4.2f %s %s %s %s %s %s 4B K K" % (
            t.strftime("%Y-%m-%d %H:%M:%S"), ip, st, tests, lpx, lpx, score, off_s, del_s, disp_s, rdel_s, rdisp_s, ref)
        c.ev(t, None, [line], upstream=ip, duration=del_d * Decimal(10) ** 9)

    c.check("top", role="upstream")
    c.check("distinct", role="upstream")
    c.check("max", role="duration", unit="us")
    c.check("min", role="duration", unit="us")
    c.check("count_contains", text="203.0.113.123")
    c.check("count_where", role="upstream", value="198.51.100.5")
    return c


# =====================================================================================
# f15  IBM Db2 11.5 db2diag.log
# =====================================================================================
DB2_APPS = [("ETLUSER", "10.90.1.23", 9), ("APPSRV", "10.90.2.11", 6), ("APPSRV", "10.90.2.12", 6),
            ("REPORTS", "10.90.3.40", 3), ("DB2INST1", None, 2)]


def f15_db2diag():
    rng = random.Random(4515)
    c = Case("f15-db2diag", "db2diag.log",
             "IBM Db2 11.5 db2diag.log (multi-line records, 'YYYY-MM-DD-HH.MM.SS.ffffff-300' with minute offset, "
             "'LEVEL:' field, blank-line separated)", ["CRITICAL", "ERROR", "WARN", "INFO"])
    OFF = -300
    start_utc = utc(2026, 3, 14, 0, 3, 11, 402118)
    end_utc = utc(2026, 3, 14, 21, 50, 0)
    clk = Clock(rng, start_utc)
    LVMAP = {"Info": "INFO", "Warning": "WARN", "Error": "ERROR", "Critical": "CRITICAL", "Severe": None, "Event": None}
    state = {"pid": 28411, "offset": 0, "apphdl": 7012, "eduid": 0, "tid": 140207455549184}

    def stamp(t_utc):
        lt = t_utc + timedelta(minutes=OFF)
        return lt.strftime("%Y-%m-%d-%H.%M.%S.%f") + "%+04d" % OFF

    def record(t, level, kind, body_lines, pid=None, proc="db2sysc 0", user=None, app_ip=None, db="SALESDB", edu=None):
        pid = pid or state["pid"]
        tid = state["tid"] + rng.randint(0, 60) * 4096 * 16
        eduid, eduname = edu or (rng.randint(20, 400), "db2agent (%s) 0" % db)
        body = ["PID     : %-20d TID : %-15d PROC : %s" % (pid, tid, proc),
                "INSTANCE: %-20s NODE : 000             DB   : %s" % ("db2inst1", db) if db else
                "INSTANCE: %-20s NODE : 000" % "db2inst1"]
        if user:
            state["apphdl"] += rng.randint(0, 3)
            appid = ("%s.%d.%s" % (app_ip, rng.randint(32768, 60999), (t + timedelta(minutes=OFF)).strftime("%y%m%d%H%M%S"))
                     if app_ip else "*LOCAL.db2inst1.%s" % (t + timedelta(minutes=OFF)).strftime("%y%m%d%H%M%S"))
            body.append("APPHDL  : 0-%-18d APPID: %s" % (state["apphdl"], appid))
            body.append("AUTHID  : %-20s HOSTNAME: fhdb01" % user)
        else:
            body.append("HOSTNAME: fhdb01")
        body.append("EDUID   : %-20d EDUNAME: %s" % (eduid, eduname))
        body += body_lines
        body_text = "\n".join(body) + "\n"
        prefix = "%s %s" % (stamp(t), kind)
        length = 0
        for _ in range(5):
            rid = "%s%dE%d" % (kind, state["offset"], length)
            head = "%-52s LEVEL: %s" % ("%s %s" % (stamp(t), rid), level)
            new_len = len((head + "\n" + body_text).encode("utf-8"))
            if new_len == length:
                break
            length = new_len
        assert prefix
        rec_lines = [head] + body
        state["offset"] += length + 1   # + the blank separator line
        c.ev(t, LVMAP[level], rec_lines, pid=pid, user=user, host="fhdb01")
        c.raw([""])

    def callstack():
        fr = ["pdLog", "sqlpgResSpace", "sqlpWriteLR", "sqldInsertRow", "sqlriInsert", "sqlrr_process_execute_request",
              "sqlrr_execute", "sqljs_ddm_excsqlstt", "sqljsParseRdbAccessed", "sqljsSqlam", "sqljsDriveRequests",
              "sqljsDrdaAsInnerDriver", "sqljsDrdaAsDriver", "sqeAgent::RunEDU", "sqzEDUObj::EDUDriver", "sqloEDUEntry"]
        out = ["CALLSTCK: (Static functions may not be resolved correctly, as they are resolved to the nearest symbol)"]
        for i, f in enumerate(fr):
            out.append("  [%d] 0x00007F%010X %s + 0x%X" % (i, rng.getrandbits(40), f, rng.randint(0x20, 0x1FFF)))
        return out

    def pick_app():
        user, ip, _ = wchoice(rng, [((u, i, w), w) for u, i, w in DB2_APPS])
        return user, ip

    # start of file: the instance is already up; db2diag begins after a rotation
    record(clk.t, "Event", "E", ["START   : New Diagnostic Log file",
                                 "DATA #1 : Build Level, 128 bytes",
                                 "Instance \"db2inst1\" uses \"64\" bits and DB2 code release \"SQL11059\"",
                                 "with level identifier \"0A0A0110\".",
                                 "Informational tokens are \"DB2 v11.5.9.0\", \"s2310270807\", \"DYN2310270807AMD64\", Fix Pack \"0\".",
                                 "DATA #2 : Host Info, 1176 bytes",
                                 "System: Linux fhdb01.corp.fernhollow.internal 5 14 x86_64",
                                 "CPU: total:16 online:16 Cores per socket:8 Threading degree per core:1",
                                 "Physical Memory(MB): total:128523 free:20314 available:97112",
                                 "Virtual  Memory(MB): total:136715 free:28506",
                                 "Cur cpu time limit (seconds)  = 0xFFFFFFFF",
                                 "Cur file size limit (bytes)   = 0xFFFFFFFF"], db=None, edu=(1, "db2sysc 0"))
    panic_at = utc(2026, 3, 14, 15, 41, 7, 903221)
    panicked = False
    logfull = (utc(2026, 3, 14, 9, 12, 0), utc(2026, 3, 14, 9, 31, 0))
    while clk.t < end_utc:
        t = clk.tick(30, 420)
        if not panicked and t >= panic_at:
            panicked = True
            record(t, "Critical", "E", [
                "FUNCTION: DB2 UDB, base sys utilities, sqleDumpFODC, probe:10",
                "MESSAGE : ADM14001C  An unexpected and critical error has occurred: \"Panic\". The",
                "          instance may have been shutdown as a result. \"Automatic\" FODC (First",
                "          Occurrence Data Capture) has been invoked and diagnostic information has",
                "          been recorded in directory",
                "          \"/db2/db2dump/FODC_Panic_2026-03-14-10.41.07.903221_0000/\". Please look in",
                "          this directory for detailed evidence about what happened and contact IBM",
                "          support if necessary to diagnose the problem."], edu=(rng.randint(40, 90), "db2agent (SALESDB) 0"))
            record(clk.tick(0.01, 0.2), "Severe", "I", [
                "FUNCTION: DB2 UDB, oper system services, sqloEDUCodeTrapHandler, probe:10",
                "MESSAGE : Trap Handler called, signal 11 (SIGSEGV) received",
                "DATA #1 : Signal Number Recieved, 4 bytes",
                "11",
                "DATA #2 : Siginfo, 128 bytes",
                "0x00007F8B2C7FD1B0 : 0B00 0000 0000 0000 0100 0000 0000 0000    ................"] + callstack(),
                edu=(rng.randint(40, 90), "db2agent (SALESDB) 0"))
            clk.tick(60, 120)
            state["pid"] = 31877
            record(clk.tick(0, 1), "Event", "E", ["FUNCTION: DB2 UDB, RAS/PD component, pdLogInternal, probe:120",
                                                  "START   : DB2 DBM", "DATA #1 : Build Level, 128 bytes",
                                                  "Instance \"db2inst1\" uses \"64\" bits and DB2 code release \"SQL11059\""],
                   db=None, edu=(1, "db2sysc 0"))
            record(clk.tick(1, 5), "Info", "I", ["FUNCTION: DB2 UDB, base sys utilities, sqledint, probe:30",
                                                 "MESSAGE : Crash Recovery is needed."], user="DB2INST1")
            record(clk.tick(1, 5), "Warning", "I", ["FUNCTION: DB2 UDB, recovery manager, sqlpresr, probe:3170",
                                                    "MESSAGE : ADM1530E  Crash recovery has been initiated."], user="DB2INST1")
            record(clk.tick(20, 60), "Warning", "I", ["FUNCTION: DB2 UDB, recovery manager, sqlpresr, probe:3230",
                                                      "MESSAGE : ADM1531E  Crash recovery has completed successfully."], user="DB2INST1")
            continue
        if logfull[0] <= t < logfull[1]:
            record(t, "Error", "I", [
                "FUNCTION: DB2 UDB, data protection services, sqlpgResSpace, probe:6666",
                "MESSAGE : ADM1823E  The active log is full and is held by application handle",
                "          \"0-%d\".  Terminate this application by COMMIT, ROLLBACK or FORCE" % (state["apphdl"] - 40),
                "          APPLICATION."], user="ETLUSER", app_ip="10.90.1.23")
            if rng.random() < 0.5:
                record(clk.tick(0, 0.01), "Error", "I", [
                    "FUNCTION: DB2 UDB, data protection services, sqlpgResSpace, probe:2860",
                    "MESSAGE : ZRC=0x85100009=-2062548983=SQLP_NOSPACE",
                    "          \"Log File has reached its saturation point\"",
                    "          DIA8309C Log file was full.",
                    "DATA #1 : String, 53 bytes",
                    "Transaction log full - rolling back statement SALES.ORDERS"] + callstack(),
                    user="ETLUSER", app_ip="10.90.1.23")
            continue
        kind = wchoice(rng, [("esc", 14), ("ltimeout", 10), ("comm", 9), ("archive", 5), ("stmm", 6), ("backup", 1.2),
                             ("deadlock", 3), ("acd", 3), ("unicode", 1.5), ("severe_arch", 0.8)])
        user, ip = pick_app()
        if kind == "esc":
            n = rng.randint(5000, 90000)
            tbl = rng.choice(["SALES.ORDERS", "SALES.ORDER_LINES", "FLEET.TRIPS", "FIN.LEDGER_ENTRIES"])
            record(t, "Warning", "I", [
                "FUNCTION: DB2 UDB, data management, sqldEscalateLocks, probe:3",
                "MESSAGE : ADM5502W  The escalation of \"%d\" locks on table \"%s\" to lock" % (n, tbl),
                "          intent \"X\" was successful."], user=user, app_ip=ip)
        elif kind == "ltimeout":
            record(t, "Warning", "I", [
                "FUNCTION: DB2 UDB, lock manager, sqlplnfd, probe:999",
                "MESSAGE : ZRC=0x80100044=-2146435004=SQLP_LTIMEOUT \"Lock timeout\"",
                "          DIA8544C A lock timeout has occurred.",
                "DATA #1 : String, %d bytes" % 62,
                "Lock timeout on %s while waiting for application handle 0-%d" % (
                    rng.choice(["SALES.ORDERS", "SALES.ORDER_LINES", "FIN.LEDGER_ENTRIES"]), state["apphdl"] - rng.randint(1, 30))],
                user=user, app_ip=ip)
        elif kind == "comm":
            cip = ip or "10.90.2.11"
            record(t, "Error", "I", [
                "FUNCTION: DB2 UDB, common communication, sqlcctcprecv, probe:50",
                "MESSAGE : ZRC=0x8135001B=-2127233003=SQLZ_RC_CMERR, SQLT_SQLCC",
                "          \"CommErr, Communication error\"",
                "          DIA3202C The TCP/IP call \"recv\" returned an errno=\"104\".",
                "CALLED  : OS, -, recv",
                "OSERR   : ECONNRESET (104) \"Connection reset by peer\"",
                "DATA #1 : String with size, 43 bytes",
                "%s" % cip,
                "DATA #2 : unsigned integer, 4 bytes",
                "%d" % rng.randint(32768, 60999)], user=user if ip else "APPSRV", app_ip=cip)
        elif kind == "archive":
            lognum = 12000 + int((t - start_utc).total_seconds() // 600)
            record(t, "Info", "I", [
                "FUNCTION: DB2 UDB, data protection services, sqlpgArchiveLogFile, probe:3180",
                "MESSAGE : ADM1846I  Completed archive for log file \"S%07d.LOG\" to" % lognum,
                "          \"DISK:/db2/archive/db2inst1/SALESDB/NODE0000/LOGSTREAM0000/C0000003/\" from",
                "          \"/db2/logs/NODE0000/LOGSTREAM0000/\" for database \"SALESDB\"."], edu=(rng.randint(20, 30), "db2logmgr (SALESDB) 0"))
        elif kind == "severe_arch":
            lognum = 12000 + int((t - start_utc).total_seconds() // 600)
            record(t, "Severe", "I", [
                "FUNCTION: DB2 UDB, data protection services, sqlpgArchiveLogFile, probe:3108",
                "MESSAGE : ZRC=0x870F0011=-2029060079=SQLO_NOSP \"No Space left on device\"",
                "          DIA8312C Disk was full.",
                "DATA #1 : String, 54 bytes",
                "Failed to archive log file S%07d.LOG to the archive device" % lognum], edu=(rng.randint(20, 30), "db2logmgr (SALESDB) 0"))
        elif kind == "stmm":
            old = rng.randint(20000, 90000)
            record(t, "Info", "I", [
                "FUNCTION: DB2 UDB, Self tuning memory manager, stmmLogRecordBeforeResizes, probe:590",
                "DATA #1 : String, %d bytes" % 118,
                "Package cache resized from %d to %d pages; sortheap resized from %d to %d pages" % (
                    old, old + rng.randint(-4000, 8000), rng.randint(256, 2048), rng.randint(256, 2048))],
                edu=(rng.randint(20, 30), "db2stmm (SALESDB) 0"))
        elif kind == "backup":
            record(t, "Info", "I", [
                "FUNCTION: DB2 UDB, database utilities, sqlubcka, probe:745",
                "MESSAGE : ADM8000I  Online backup database operation completed successfully. Backup",
                "          image timestamp: %s" % (t + timedelta(minutes=OFF)).strftime("%Y%m%d%H%M%S")],
                user="DB2INST1")
        elif kind == "deadlock":
            record(t, "Error", "I", [
                "FUNCTION: DB2 UDB, lock manager, sqlplWaitOnWP, probe:999",
                "MESSAGE : ZRC=0x80100002=-2146435070=SQLP_DEADLOCK \"Deadlock detected\"",
                "          DIA8002C A deadlock has occurred, rolling back transaction."], user=user, app_ip=ip)
        elif kind == "acd":
            record(t, "Warning", "I", [
                "FUNCTION: DB2 UDB, Health Monitor, HealthIndicator::update, probe:600",
                "MESSAGE : ADM10500E  Health indicator \"Log Filesystem Utilization\"",
                "          (\"db.log_fs_util\") breached the \"upper\" warning threshold of \"75 %\" with",
                "          value \"%d %%\" on \"database\" \"db2inst1.SALESDB\"." % rng.randint(76, 88)],
                pid=27902, proc="db2acd 0", edu=(rng.randint(100, 130), "db2acd 0"))
        else:
            record(t, "Warning", "I", [
                "FUNCTION: DB2 UDB, SQO Memory Management, sqloMemLogPoolConditions, probe:30",
                "MESSAGE : ADM1022W  Application \"%s\" (%s) used a code page conversion that" % (
                    rng.choice(["Lieferschein-Export", "Tōkyō-Sync", "Årsrapport"]), user),
                "          substituted characters: \"Müller Spedition – Zürich\"."], user=user, app_ip=ip)

    c.check("count_where", role="user", value="ETLUSER")
    c.check("top", role="user")
    c.check("distinct", role="pid")
    c.check("count_contains", text="ADM1823E")
    c.check("count_contains", text="ECONNRESET")
    return c


# =====================================================================================
# f16  IBM MQ 9.3 queue manager error log AMQERR01.LOG
# =====================================================================================
MQ_CHANNELS = ["APP.SVRCONN", "APP.SVRCONN", "ORDERS.SVRCONN", "ADMIN.SVRCONN"]
MQ_CLIENTS = ["10.95.1.23", "10.95.1.24", "10.95.1.31", "10.95.2.40", "10.95.2.41", "10.95.3.7"]


def f16_mq():
    rng = random.Random(4616)
    c = Case("f16-ibm-mq-amqerr", "AMQERR01.LOG",
             "IBM MQ 9.3 queue manager error log AMQERR01.LOG (multi-line records, 12-hour clock header, "
             "'----- file.c : line ----' trailer)", [])
    clk = Clock(rng, utc(2026, 3, 13, 21, 47, 2, 117000))
    end = utc(2026, 3, 15, 7, 55, 0)
    pids = {"amqrmppa": [4121, 4377], "amqzlaa0": [3988], "amqzmuc0": [3871], "runmqchl": [5210], "amqzxma0": [3850]}
    srcs = {"AMQ9209E": ("amqccita.c", 4214), "AMQ9999E": ("amqrmrsa.c", 938), "AMQ9002I": ("amqrccca.c", 1092),
            "AMQ9001I": ("amqrmrsa.c", 1011), "AMQ5534E": ("amqzfuca.c", 4812), "AMQ5542I": ("amqzfuca.c", 4813),
            "AMQ8077W": ("amqzfubn.c", 3219), "AMQ7467I": ("amqzmuc0.c", 1418), "AMQ7468I": ("amqzmuc0.c", 1422),
            "AMQ9545I": ("amqrmrsa.c", 1180), "AMQ9206E": ("amqccita.c", 4021), "AMQ6209W": ("amqxfdcx.c", 1510)}

    def header(t, prog, user="mqm", inserts=None):
        pid = rng.choice(pids[prog])
        tid = rng.randint(1, 60)
        lines = ["%s - Process(%d.%d) User(%s) Program(%s)" % (t.strftime("%m/%d/%Y %I:%M:%S %p"), pid, tid, user, prog),
                 "                    Host(fhmq01) Installation(Installation1)",
                 "                    VRMF(9.3.0.15) QMgr(FHQM01)",
                 "                    Time(%s)" % (t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000))]
        for k, v in (inserts or []):
            lines.append("                    %s(%s)" % (k, v))
        lines.append("                   ")
        return lines, pid

    def rec(t, prog, code, text, expl, action, inserts=None, client=None, user="mqm"):
        lines, pid = header(t, prog, user, inserts)
        lines.append("%s: %s" % (code, text[0]))
        lines += text[1:]
        lines.append("")
        lines.append("EXPLANATION:")
        lines += expl
        lines.append("ACTION:")
        lines += action
        f, ln = srcs[code]
        trailer = "----- %s : %d " % (f, ln)
        lines.append(trailer + "-" * (79 - len(trailer)))
        c.ev(t, None, lines, pid=pid, user=user, program=prog, host="fhmq01", client=client)

    def conn_closed(t):
        ip = rng.choice(MQ_CLIENTS)
        ch = rng.choice(MQ_CHANNELS)
        rec(t, "amqrmppa", "AMQ9209E", ["Connection to host '%s' for channel '%s' closed." % (ip, ch)],
            ["An error occurred receiving data from '%s' over TCP/IP. The connection" % ip,
             "to the remote host has unexpectedly terminated.", "",
             "The channel name is '%s'; in some cases it cannot be determined and so" % ch,
             "is shown as '????'."],
            ["Tell the systems administrator."],
            [("RemoteHost", ip), ("CommentInsert1", ch), ("CommentInsert2", ip), ("CommentInsert3", "TCP/IP")], client=ip)
        if rng.random() < 0.5:
            rec(clk.tick(0, 0.01), "amqrmppa", "AMQ9999E", ["Channel '%s' to host '%s' ended abnormally." % (ch, ip)],
                ["The channel program running under process ID %d(%d) for channel" % (rng.choice(pids["amqrmppa"]), rng.randint(1000, 90000)),
                 "'%s' ended abnormally. The host name is '%s'; in some cases" % (ch, ip),
                 "the host name cannot be determined and so is shown as '????'."],
                ["Look at previous error messages for the channel program in the error logs to",
                 "determine the cause of the failure. Note that this message can be excluded",
                 "completely or suppressed by tuning the \"ExcludeMessage\" or \"SuppressMessage\"",
                 "attributes under the \"QMErrorLog\" stanza in qm.ini. Further information can be",
                 "found in the System Administration Guide."],
                [("RemoteHost", ip), ("ArithInsert1", str(rng.randint(1000, 90000))), ("CommentInsert1", ch),
                 ("CommentInsert2", str(rng.choice(pids["amqrmppa"]))), ("CommentInsert3", ip)], client=ip)

    next_media = clk.t + timedelta(hours=rng.randint(2, 4))
    lognum = 4123
    while clk.t < end:
        t = clk.tick(60, 1100)
        if t >= next_media:
            lognum += rng.randint(3, 9)
            rec(t, "amqzmuc0", "AMQ7467I", ["The oldest log file required to start queue manager FHQM01 is",
                                            "S%07d.LOG." % lognum],
                ["The log file S%07d.LOG contains the oldest log record required to" % lognum,
                 "restart the queue manager. Log records older than this may be required for",
                 "media recovery."],
                ["You can move log files older than S%07d.LOG to an archive medium to" % lognum,
                 "release space in the log directory. If you move any of the log files required",
                 "to recreate objects from their media images, you will have to restore them to",
                 "recreate the objects."], [("CommentInsert1", "FHQM01"), ("CommentInsert2", "S%07d.LOG" % lognum)])
            rec(clk.tick(0, 0.01), "amqzmuc0", "AMQ7468I", ["The oldest log file required to perform media recovery of",
                                                            "queue manager FHQM01 is S%07d.LOG." % (lognum - 21)],
                ["The log file S%07d.LOG contains the oldest log record required to" % (lognum - 21),
                 "recreate any of the objects from their media images. Any log files prior to",
                 "this will not be accessed by media recovery operations."],
                ["You can move log files older than S%07d.LOG to an archive medium to" % (lognum - 21),
                 "release space in the log directory."], [("CommentInsert1", "FHQM01"), ("CommentInsert2", "S%07d.LOG" % (lognum - 21))])
            next_media = t + timedelta(hours=rng.randint(2, 5))
            continue
        kind = wchoice(rng, [("closed", 14), ("chstart", 6), ("auth", 4), ("authz", 4), ("discint", 3), ("send", 2),
                             ("sig", 0.6)])
        if kind == "closed":
            conn_closed(t)
        elif kind == "chstart":
            ch = "FHQM01.TO.FHQM02"
            rec(t, "runmqchl", "AMQ9002I", ["Channel '%s' is starting." % ch],
                ["Channel '%s' is starting." % ch], ["None."], [("CommentInsert1", ch)])
            if rng.random() < 0.6:
                rec(clk.tick(60, 900), "amqrmppa", "AMQ9001I", ["Channel '%s' ended normally." % ch],
                    ["Channel '%s' ended normally." % ch], ["None."], [("CommentInsert1", ch)])
        elif kind == "auth":
            ip = rng.choice(MQ_CLIENTS[3:])
            u = rng.choice(["svc_legacy", "svc_legacy", "jürgen.k"])
            rec(t, "amqzlaa0", "AMQ5534E", ["User ID '%s' authentication failed" % u],
                ["The user ID and password supplied by the 'amqsputc' program could not be",
                 "authenticated.", "", "Additional information: 'N/A'."],
                ["Ensure that the correct user ID and password are provided by the application.",
                 "Ensure that the authentication repository is correctly configured. Look at",
                 "previous error messages for any additional information."],
                [("CommentInsert1", u), ("CommentInsert2", "N/A"), ("CommentInsert3", "amqsputc")], client=None)
            rec(clk.tick(0, 0.002), "amqzlaa0", "AMQ5542I", ["The failed authentication check was caused by the queue",
                                                            "manager CONNAUTH CHCKCLNT(REQDADM) configuration."],
                ["The user ID '%s' and its password were checked because the queue" % u,
                 "manager connection authority (CONNAUTH) configuration refers to an",
                 "authentication information (AUTHINFO) object named 'SYSTEM.DEFAULT.AUTHINFO.IDPWOS'",
                 "with CHCKCLNT(REQDADM).", "", "This message accompanies a previous error to clarify the reason for the user",
                 "ID and password check."],
                ["Refer to the previous error for more information.", "",
                 "Ensure that a password is specified by the client application and that the",
                 "password is correct for the user ID. The authentication configuration of the",
                 "queue manager connection determines the user ID repository."],
                [("CommentInsert1", u), ("CommentInsert2", "SYSTEM.DEFAULT.AUTHINFO.IDPWOS"), ("CommentInsert3", "REQDADM")])
        elif kind == "authz":
            u = rng.choice(["svc_report", "svc_report", "svc_billing"])
            q = rng.choice(["FH.ORDERS.IN", "FH.INVOICES.OUT", "SYSTEM.ADMIN.COMMAND.QUEUE"])
            rec(t, "amqzlaa0", "AMQ8077W", ["Entity '%s' has insufficient authority to access object" % u, "'%s'." % q],
                ["The specified entity is not authorized to access the required object. The",
                 "following requested permissions are unauthorized: %s" % rng.choice(["put", "get", "inq", "get,browse"])],
                ["Ensure that the correct level of authority has been set for this entity",
                 "against the required object, or ensure that the entity is a member of a",
                 "privileged group."], [("CommentInsert1", u), ("CommentInsert2", q)])
        elif kind == "discint":
            ch = rng.choice(MQ_CHANNELS)
            rec(t, "amqrmppa", "AMQ9545I", ["Disconnect interval expired."],
                ["Channel '%s' closed because no messages arrived on the" % ch,
                 "transmission queue within the disconnect interval period."], ["None."],
                [("CommentInsert1", ch)])
        elif kind == "send":
            ip = rng.choice(MQ_CLIENTS)
            rec(t, "amqrmppa", "AMQ9206E", ["Error sending data to host '%s (%s)(1414)'." % (ip, ip)],
                ["An error occurred sending data over TCP/IP to '%s (%s)(1414)'. This" % (ip, ip),
                 "may be due to a communications failure.", "",
                 "The return code from the TCP/IP send() call was 32 (X'20'). Record these",
                 "values and tell your systems administrator."],
                ["Record the TCP/IP return code 32 (X'20') and tell the systems administrator."],
                [("RemoteHost", ip), ("ArithInsert1", "32"), ("ArithInsert2", "32"), ("CommentInsert1", "%s (%s)(1414)" % (ip, ip)),
                 ("CommentInsert2", "TCP/IP"), ("CommentInsert3", "send")], client=ip)
        else:
            rec(t, "amqzxma0", "AMQ6209W", ["An unexpected asynchronous signal (15 : SIGTERM) has been received and",
                                            "ignored."],
                ["Process %d received an unexpected asynchronous signal and ignored it." % pids["amqzxma0"][0]],
                ["None."], [("ArithInsert1", "15"), ("ArithInsert2", str(pids["amqzxma0"][0])), ("CommentInsert1", "SIGTERM")])

    c.check("top", role="program")
    c.check("count_where", role="program", value="amqzlaa0")
    c.check("count_contains", text="AMQ9209E")
    c.check("distinct", role="pid")
    c.check("distinct", role="client")
    return c


CASES = [f13_nats, f14_chrony, f15_db2diag, f16_mq]
