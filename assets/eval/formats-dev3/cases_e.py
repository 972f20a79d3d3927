"""Cases f17-f20: Couchbase Server ns_server log, CUPS error_log, Nagios Core nagios.log, macOS 'log show' export."""
import random
from collections import Counter
from datetime import timedelta

from gen_common import (Case, Clock, MONTHS, epoch, ns_from_us, utc, wchoice)


# =====================================================================================
# f17  Couchbase Server 7 ns_server info.log
# =====================================================================================
CB_NODE = "ns_1@cb1.fernhollow.internal"
CB_PEERS = ["ns_1@cb2.fernhollow.internal", "ns_1@cb3.fernhollow.internal"]


def f17_couchbase():
    rng = random.Random(5117)
    c = Case("f17-couchbase-nsserver", "info.log",
             "Couchbase Server 7.2 ns_server info.log ('[category:level,ISO-time-with-offset,node:<erlang pid>:module:"
             "function:line]message', Erlang terms over several lines, blank line between entries)",
             ["CRITICAL", "ERROR", "WARN", "INFO", "DEBUG"])
    OFF = timedelta(hours=-7)
    clk = Clock(rng, utc(2026, 3, 14, 13, 0, 4, 551000))   # UTC; local is 06:00 -07:00
    end = utc(2026, 3, 15, 1, 2, 0)
    LV = {"debug": "DEBUG", "info": "INFO", "warn": "WARN", "error": "ERROR", "critical": "CRITICAL"}

    def epid():
        return "<0.%d.0>" % rng.randint(200, 60000)

    def L(t, cat, lvl, proc, mfl, msg, **f):
        lt = t + OFF
        stamp = lt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d-07:00" % (t.microsecond // 1000)
        lines = msg.split("\n")
        lines[0] = "[%s:%s,%s,%s:%s:%s]%s" % (cat, lvl, stamp, CB_NODE, proc, mfl, lines[0])
        c.ev(t, LV[lvl], lines, logger=cat, **f)
        c.raw([""])

    buckets = ["orders", "sessions", "telemetry"]
    down = (utc(2026, 3, 14, 17, 22, 0), utc(2026, 3, 14, 17, 29, 0))
    crash_at = utc(2026, 3, 14, 21, 3, 0)
    state = {"down": False, "crashed": False}
    next_compact = clk.t + timedelta(minutes=30)
    while clk.t < end:
        t = clk.tick(5, 140)
        if not state["crashed"] and t >= crash_at:
            state["crashed"] = True
            L(t, "ns_server", "info", "<0.17312.0>", "ns_port_server:handle_info:104",
              "Port server memcached exited with status 134. Restarting. Messages:\n"
              "2026-03-14T14:03:00.112233-07:00 CRITICAL *** Fatal error encountered during exception handling ***\n"
              "2026-03-14T14:03:00.112301-07:00 CRITICAL Caught unhandled std::exception-derived exception. what(): "
              "Checkpoint::queueDirty: Invalid state\n"
              "2026-03-14T14:03:00.118544-07:00 CRITICAL Breakpad caught a crash (Couchbase version 7.2.4-7070). Writing "
              "crash dump to /opt/couchbase/var/lib/couchbase/crash/1f8e2a4c-5b3d-4e7f-9a01-2c3d4e5f6a7b.dmp before terminating.")
            L(clk.tick(0, 0.01), "user", "critical", "ns_log<0.342.0>", "ns_log:crash_consumption_loop:70",
              "Service 'memcached' exited with status 134. Restarting. Messages:\n"
              "2026-03-14T14:03:00.112233-07:00 CRITICAL *** Fatal error encountered during exception handling ***\n"
              "2026-03-14T14:03:00.118544-07:00 CRITICAL Breakpad caught a crash (Couchbase version 7.2.4-7070).")
            for b in buckets:
                L(clk.tick(2, 9), "user", "info", "ns_memcached-%s<0.%d.0>" % (b, rng.randint(20000, 30000)),
                  "ns_memcached:handle_cast:639", "Bucket \"%s\" loaded on node '%s' in %d seconds." % (b, CB_NODE, rng.randint(0, 4)))
            continue
        if down[0] <= t < down[1]:
            if not state["down"]:
                state["down"] = True
                L(t, "user", "warn", "ns_node_disco<0.456.0>", "ns_node_disco:handle_info:179",
                  "Node '%s' saw that node '%s' went down. Details: [{nodedown_reason,\n"
                  "                                                                                                   "
                  "connection_closed}]" % (CB_NODE, CB_PEERS[1]))
                L(clk.tick(0.01, 0.2), "ns_server", "warn", "ns_doctor<0.412.0>", "ns_doctor:handle_info:212",
                  "Node '%s' is unhealthy: [{nodedown_reason,connection_closed}]" % CB_PEERS[1])
            else:
                L(t, "ns_server", "error", epid(), "menelaus_util:reply_server_error:204",
                  "Server error during processing: [\"web request failed\",\n"
                  "                                 {path,\"/pools/default/buckets/%s\"},\n"
                  "                                 {method,'GET'},\n"
                  "                                 {type,exit},\n"
                  "                                 {what,{timeout,{gen_server,call,[ns_config,get]}}},\n"
                  "                                 {trace,[{gen_server,call,2,[{file,\"gen_server.erl\"},{line,239}]},\n"
                  "                                         {menelaus_web_buckets,handle_bucket_info,3,\n"
                  "                                          [{file,\"src/menelaus_web_buckets.erl\"},{line,331}]}]}]"
                  % rng.choice(buckets))
            if clk.t + timedelta(seconds=140) >= down[1]:
                clk.t = down[1]
                L(clk.tick(0, 2), "user", "info", "ns_node_disco<0.456.0>", "ns_node_disco:handle_info:173",
                  "Node '%s' saw that node '%s' came up. Tags: []" % (CB_NODE, CB_PEERS[1]))
            continue
        if t >= next_compact:
            L(t, "ns_server", "debug", "compaction_daemon<0.601.0>", "compaction_daemon:process_scheduler_message:1312",
              "Starting compaction (compact_kv) for the following buckets: \n[<<\"orders\">>,<<\"sessions\">>,<<\"telemetry\">>]")
            for b in buckets:
                L(clk.tick(0.01, 0.3), "ns_server", "info", epid(), "compaction_daemon:spawn_scheduled_kv_compactor:471",
                  "Start compaction of vbuckets for bucket %s with config: \n"
                  "[{database_fragmentation_threshold,{30,undefined}},\n"
                  " {view_fragmentation_threshold,{30,undefined}},\n"
                  " {magma_fragmentation_percentage,50},\n"
                  " {purge_interval,3}]" % b)
            L(clk.tick(1, 20), "ns_server", "debug", "compaction_daemon<0.601.0>", "compaction_daemon:process_compaction_done:1210",
              "Finished compaction iteration.")
            next_compact = t + timedelta(minutes=30)
            continue
        kind = wchoice(rng, [("status", 26), ("ready", 4), ("slowcall", 9), ("stats", 7), ("couch", 10), ("menelaus", 8),
                             ("janitor", 6), ("cluster", 2), ("xdcr", 3)])
        if kind == "status":
            L(t, "ns_server", "debug", "ns_heart_slow_status_updater<0.419.0>", "ns_heart:current_status_slow_inner:282",
              "Ignoring failure to grab system stats:\n{error,{exit,{noproc,{gen_server,call,[{'stats_reader-@system',"
              "'%s'},\n                                                       {latest,minute}]}}}}" % CB_NODE
              if rng.random() < 0.15 else
              "Memory usage: total %d, processes %d, ets %d" % (rng.randint(10 ** 8, 4 * 10 ** 8), rng.randint(10 ** 7, 9 * 10 ** 7),
                                                               rng.randint(10 ** 6, 9 * 10 ** 6)))
        elif kind == "ready":
            L(t, "ns_server", "info", "ns_doctor<0.412.0>", "ns_doctor:update_status:315",
              "The following buckets became ready on node '%s': [\"orders\",\"sessions\",\"telemetry\"]" % rng.choice(CB_PEERS))
        elif kind == "slowcall":
            us = rng.randint(500_000, 4_000_000) if rng.random() < 0.95 else rng.randint(8_000_000, 21_000_000)
            b = rng.choice(buckets)
            L(t, "ns_server", "warn", "ns_memcached-%s<0.%d.0>" % (b, rng.randint(20000, 30000)), "ns_memcached:verify_report_long_call:336",
              "Call {stats,<<>>} took too long: %d us" % us, duration=ns_from_us(us))
        elif kind == "stats":
            L(t, "stats", "warn", epid(), "base_stats_collector:latest_tick:69",
              "(Collector: stats_collector) Dropped %d ticks" % rng.randint(1, 4))
        elif kind == "couch":
            L(t, "couchdb", "info", epid(), "couch_log:info:41",
              "10.100.%d.%d - - GET /%s/_design/reports/_view/by_%s?stale=update_after&limit=%d 200" % (
                  rng.randint(1, 3), rng.randint(10, 60), rng.choice(buckets), rng.choice(["depot", "day", "status"]),
                  rng.choice([10, 50, 100])))
        elif kind == "menelaus":
            who = rng.choice(["Administrator", "ops-ro", "svc-orders", "zoë.brandt"])
            L(t, "menelaus", "info", "menelaus_web<0.678.0>", "menelaus_auth:log_failed_auth:%d" % rng.choice([97]),
              "Failed to authenticate user \"%s\" from 10.100.%d.%d: invalid credentials" % (who, rng.randint(1, 3),
                                                                                          rng.randint(10, 60))
              if rng.random() < 0.4 else
              "Request for /pools/default/buckets/%s from %s via 10.100.%d.%d took %d ms" % (
                  rng.choice(buckets), who, rng.randint(1, 3), rng.randint(10, 60), rng.randint(2, 300)))
        elif kind == "janitor":
            L(t, "ns_server", "info", epid(), "ns_janitor:cleanup_with_membase_bucket_check_map:%d" % rng.choice([157]),
              "janitor decided to update vbucket states for bucket \"%s\": [{%d,active,undefined,undefined}]" % (
                  rng.choice(buckets), rng.randint(0, 1023)))
        elif kind == "cluster":
            L(t, "cluster", "info", epid(), "ns_cluster:handle_call:201",
              "Checking node '%s' membership: %s" % (rng.choice(CB_PEERS), "active"))
        else:
            L(t, "xdcr", "error" if rng.random() < 0.3 else "info", epid(), "goxdcr:log_replication:88",
              "Replication orders -> fh-dr/orders paused: %s" % rng.choice(
                  ["remote cluster ref 'fh-dr' unreachable", "checkpoint saved", "pipeline restarted"]))

    c.check("top", role="logger")
    c.check("count_where", role="logger", value="user")
    c.check("distinct", role="logger")
    c.check("count_contains", text="nodedown_reason")
    c.check("max", role="duration", unit="ms")
    return c


# =====================================================================================
# f18  CUPS 2.4 error_log
# =====================================================================================
CUPS_USERS = [("oskar.nyström", 9), ("zoë.brandt", 4), ("j.morales", 3), ("k.tanaka", 3), ("lager-terminal-2", 5),
              ("p.silva", 2), ("r.haddad", 2)]
CUPS_PRINTERS = ["FH-3F-Color", "FH-2F-Mono", "FH-Lager-Label", "FH-Buero-A3"]


def f18_cups():
    rng = random.Random(5218)
    c = Case("f18-cups-errorlog", "error_log",
             "CUPS 2.4 scheduler error_log ('L [dd/Mon/yyyy:HH:MM:SS +0100] message', one-letter levels)",
             ["ERROR", "WARN", "INFO", "DEBUG"])
    OFF = timedelta(hours=1)
    clk = Clock(rng, utc(2026, 3, 14, 5, 0, 2))   # UTC; local +0100
    end = utc(2026, 3, 14, 17, 40, 0)
    LV = {"E": "ERROR", "W": "WARN", "I": "INFO", "D": "DEBUG"}
    pidc = [23100]

    def L(t, letter, msg, **f):
        lt = t + OFF
        stamp = "[%02d/%s/%d:%s +0100]" % (lt.day, MONTHS[lt.month - 1], lt.year, lt.strftime("%H:%M:%S"))
        return c.ev(t, LV[letter], ["%s %s %s" % (letter, stamp, msg)], **f)

    def startup():
        for m in ["Loaded configuration file \"/etc/cups/cupsd.conf\"", "Using default TempDir of /var/spool/cups/tmp...",
                  "Cleaning out old temporary files in \"/var/spool/cups/tmp\"...", "Configured for up to 100 clients.",
                  "Allowing up to 100 client connections per host.", "Using policy \"default\" as the default.",
                  "Full reload is required.", "Loaded MIME database from \"/usr/share/cups/mime\" and \"/etc/cups\": 47 "
                  "types, 73 filters...", "Loading job cache file \"/var/cache/cups/job.cache\"...",
                  "Full reload complete.", "Cleaning out old files in \"/var/spool/cups/tmp\".",
                  "Listening to 0.0.0.0:631 (IPv4)", "Listening to /run/cups/cups.sock:0 (Domain)",
                  "Remote access is enabled.", "Started \"/usr/lib/cups/daemon/cups-deviced\" (pid=%d)" % rng.randint(900, 999)]:
            L(clk.tick(0, 0.05), "I", m)

    L(clk.t, "W", "Unknown directive BrowseLocalProtocols on line 12 of /etc/cups/cupsd.conf.")
    startup()
    job = [1038]
    client_no = [3]
    jam = (utc(2026, 3, 14, 9, 40, 0), utc(2026, 3, 14, 10, 5, 0))
    debug_win = (utc(2026, 3, 14, 13, 0, 0), utc(2026, 3, 14, 13, 12, 0))

    while clk.t < end:
        t = clk.tick(15, 400)
        if debug_win[0] <= t < debug_win[1]:
            client_no[0] += 1
            cl = client_no[0]
            ip = "10.110.4.%d" % rng.randint(20, 90)
            L(t, "D", "[Client %d] Accepted from %s:%d (IPv4)" % (cl, ip, rng.randint(40000, 60000)), client=ip)
            L(clk.tick(0, 0.01), "D", "[Client %d] POST / HTTP/1.1" % cl, client=ip)
            L(clk.tick(0, 0.01), "D", "[Client %d] Get-Jobs ipp://localhost:631/printers/%s" % (cl, rng.choice(CUPS_PRINTERS)), client=ip)
            L(clk.tick(0, 0.01), "D", "[Client %d] Returning IPP successful-ok for Get-Jobs (ipp://localhost:631/printers/%s) "
              "from %s." % (cl, rng.choice(CUPS_PRINTERS), ip), client=ip)
            L(clk.tick(0, 0.05), "D", "[Client %d] Closing connection." % cl, client=ip)
            continue
        kind = wchoice(rng, [("job", 60), ("cache", 6), ("ippfail", 4), ("forbid", 2), ("dnssd", 1.5), ("expire", 4)])
        if kind == "job":
            job[0] += 1
            j = job[0]
            user = wchoice(rng, CUPS_USERS)
            pr = "FH-Lager-Label" if user == "lager-terminal-2" else rng.choice(CUPS_PRINTERS[:2] + CUPS_PRINTERS[3:])
            L(t, "I", "[Job %d] Queued on \"%s\" by \"%s\"." % (j, pr, user), user=user)
            L(clk.tick(0, 0.01), "I", "[Job %d] File of type %s queued by \"%s\"." % (
                j, "application/vnd.cups-raw" if "Label" in pr else "application/pdf", user), user=user)
            L(clk.tick(0, 0.01), "I", "[Job %d] Adding start banner page \"none\"." % j)
            L(clk.tick(0, 0.01), "I", "[Job %d] Adding end banner page \"none\"." % j)
            if "Label" not in pr:
                for f in ("pdftopdf", "gstoraster"):
                    pidc[0] += rng.randint(1, 40)
                    L(clk.tick(0, 0.02), "I", "[Job %d] Started filter /usr/lib/cups/filter/%s (PID %d)" % (j, f, pidc[0]))
            pidc[0] += rng.randint(1, 40)
            L(clk.tick(0, 0.02), "I", "[Job %d] Started backend /usr/lib/cups/backend/%s (PID %d)" % (
                j, "socket" if "Label" in pr else "ipp", pidc[0]))
            jammed = jam[0] <= t < jam[1] and pr == "FH-3F-Color"
            r = rng.random()
            if jammed or r < 0.05:
                L(clk.tick(1, 10), "E", "[Job %d] The printer is not responding." % j)
                if rng.random() < 0.5:
                    L(clk.tick(30, 31), "W", "[Job %d] Printer is busy, will retry in 30 seconds" % j)
                L(clk.tick(60, 300), "E", "[Job %d] Job stopped due to backend errors; please consult the error_log file "
                  "for details." % j)
            elif r < 0.09:
                L(clk.tick(1, 5), "E", "[Job %d] Unable to locate printer \"%s.corp.fernhollow.internal\"." % (j, pr.lower()))
                L(clk.tick(0, 0.2), "E", "[Job %d] Job stopped due to backend errors; please consult the error_log file "
                  "for details." % j)
            elif r < 0.12:
                L(clk.tick(0.5, 3), "E", "[Job %d] Job stopped due to filter errors; please consult the error_log file for "
                  "details." % j)
            elif r < 0.16:
                L(clk.tick(2, 30), "I", "[Job %d] Canceled by \"%s\"." % (j, user), user=user)
            else:
                L(clk.tick(2, 40), "I", "[Job %d] Job completed." % j)
        elif kind == "cache":
            L(t, "I", rng.choice(["Saving job.cache...", "Saving printers.conf...", "Saving subscriptions.conf..."]))
        elif kind == "ippfail":
            client_no[0] += 1
            ip = "10.110.4.%d" % rng.randint(20, 90)
            L(t, "E", "[Client %d] Returning IPP client-error-not-possible for Cancel-Job (ipp://localhost/jobs/%d) from %s."
              % (client_no[0], job[0] - rng.randint(1, 5), ip), client=ip)
        elif kind == "forbid":
            client_no[0] += 1
            ip = "10.110.%d.%d" % (rng.choice([4, 9]), rng.randint(20, 200))
            L(t, "E", "[Client %d] Returning HTTP Forbidden for CUPS-Add-Modify-Printer (ipp://localhost/admin/) from %s."
              % (client_no[0], ip), client=ip)
        elif kind == "dnssd":
            L(t, "E", "[cups-deviced] PID %d (dnssd) stopped with status 1!" % rng.randint(5000, 9000))
        else:
            L(t, "I", "Expiring subscriptions...")

    c.check("count_where", role="user", value="oskar.nyström")
    c.check("top", role="user")
    c.check("distinct", role="user")
    c.check("count_contains", text="The printer is not responding")
    c.check("count_contains", text="Job stopped due to filter errors")
    c.check("distinct", role="client")
    return c


# =====================================================================================
# f19  Nagios Core 4 nagios.log (epoch seconds in brackets)
# =====================================================================================
NG_HOSTS = ["fh-web-0%d" % i for i in range(1, 5)] + ["fh-rp-0%d" % i for i in range(1, 4)] + \
           ["fh-db-01", "fh-db-02", "fh-mq-01", "fh-nas-01", "fh-gw-01"]
NG_SVCS = {"web": ["HTTPS", "Load", "Disk /", "SSH", "Memory"], "rp": ["route-planner API", "Load", "Disk /", "SSH"],
           "db": ["PostgreSQL connections", "Replication lag", "Disk /var", "Load", "SSH"],
           "mq": ["Queue depth FH.ORDERS.IN", "Disk /", "SSH"], "nas": ["Disk /volume1", "SMART", "SSH"],
           "gw": ["Uplink", "IPsec tunnel fh-dr", "SSH"]}
NG_OK = {"HTTPS": "HTTP OK: HTTP/1.1 200 OK - %d bytes in 0.0%02d second response time",
         "Load": "OK - load average: 0.%02d, 0.41, 0.38", "Disk /": "DISK OK - free space: / %d MiB (61%% inode=92%%):",
         "SSH": "SSH OK - OpenSSH_9.6 (protocol 2.0)", "Memory": "OK - %d%% used",
         "route-planner API": "HTTP OK: HTTP/1.1 200 OK - %d bytes in 0.0%02d second response time",
         "PostgreSQL connections": "POSTGRES_BACKENDS OK: DB \"fleet\" %d of 400 connections",
         "Replication lag": "POSTGRES_HOT_STANDBY_DELAY OK: DB \"fleet\" (host:fh-db-02) %d",
         "Disk /var": "DISK OK - free space: /var %d MiB (48%% inode=95%%):",
         "Queue depth FH.ORDERS.IN": "OK - queue depth %d", "Disk /volume1": "DISK OK - free space: /volume1 %d GiB (34%%):",
         "SMART": "OK - all %d disks healthy", "Uplink": "PING OK - Packet loss = 0%%, RTA = %d.21 ms",
         "IPsec tunnel fh-dr": "OK - tunnel up, %d bytes in"}


def ng_group(h):
    return h.split("-")[1][:-1] if h.split("-")[1][-1].isdigit() else h.split("-")[1]


def f19_nagios():
    rng = random.Random(5319)
    c = Case("f19-nagios-log", "nagios.log",
             "Nagios Core 4.5 nagios.log ('[epoch] TYPE: fields;separated;by;semicolons')", [])
    t0 = utc(2026, 3, 14, 0, 0, 0)
    end = utc(2026, 3, 14, 23, 48, 0)

    def svc_list(h):
        g = h.split("-")[1].rstrip("0123456789")
        return NG_SVCS[g]

    def okmsg(s):
        m = NG_OK[s]
        n = m.count("%d") + m.count("%02d")
        return m % tuple(rng.randint(1, 99) if i else rng.randint(100, 60000) for i in range(n)) if n else m % ()

    def L(t, msg, **f):
        return c.ev(t, None, ["[%d] %s" % (epoch(t), msg)], **f)

    L(t0, "LOG ROTATION: DAILY")
    L(t0, "LOG VERSION: 2.0")
    for h in NG_HOSTS:
        L(t0, "CURRENT HOST STATE: %s;UP;HARD;1;PING OK - Packet loss = 0%%, RTA = 0.%02d ms" % (h, rng.randint(10, 99)), host=h)
    for h in NG_HOSTS:
        for s in svc_list(h):
            L(t0, "CURRENT SERVICE STATE: %s;%s;OK;HARD;1;%s" % (h, s, okmsg(s)), host=h)

    clk = Clock(rng, t0)
    problems = {}   # (h, s) -> (state, attempt, hard)
    weights = [(h, 10 if h == "fh-web-03" else 2 if h.startswith("fh-db") else 1) for h in NG_HOSTS]
    crit_text = {"HTTPS": "CRITICAL - Socket timeout after 10 seconds", "Load": "CRITICAL - load average: 18.22, 12.90, 7.41",
                 "Disk /": "DISK CRITICAL - free space: / 812 MiB (3% inode=88%):",
                 "Disk /var": "DISK CRITICAL - free space: /var 1204 MiB (4% inode=91%):",
                 "Replication lag": "POSTGRES_HOT_STANDBY_DELAY CRITICAL: DB \"fleet\" (host:fh-db-02) 734003200",
                 "route-planner API": "HTTP CRITICAL: HTTP/1.1 503 Service Unavailable - 312 bytes in 0.004 second response time",
                 "Queue depth FH.ORDERS.IN": "CRITICAL - queue depth 48211",
                 "IPsec tunnel fh-dr": "CRITICAL - tunnel fh-dr down (no SA)", "Memory": "CRITICAL - 97% used"}
    warn_text = {"Load": "WARNING - load average: 6.12, 5.40, 4.02", "Memory": "WARNING - 91% used",
                 "PostgreSQL connections": "POSTGRES_BACKENDS WARNING: DB \"fleet\" 352 of 400 connections",
                 "Disk /var": "DISK WARNING - free space: /var 4410 MiB (14% inode=93%):",
                 "Queue depth FH.ORDERS.IN": "WARNING - queue depth 5120",
                 "HTTPS": "HTTP WARNING: HTTP/1.1 200 OK - 18211 bytes in 4.211 second response time"}
    next_save = t0 + timedelta(hours=1)
    reload_at = utc(2026, 3, 14, 13, 5, 12)
    reloaded = False
    host_down = {"fh-db-02": (utc(2026, 3, 14, 16, 2, 0), utc(2026, 3, 14, 16, 19, 0))}
    hd_state = {}
    while clk.t < end:
        t = clk.tick(20, 240)
        if t >= next_save:
            L(t, "Auto-save of retention data completed successfully.")
            next_save += timedelta(hours=1)
            continue
        if not reloaded and t >= reload_at:
            reloaded = True
            L(t, "Caught SIGHUP, restarting...")
            pid = 3410
            for m in ["Nagios 4.5.1 starting... (PID=%d)" % pid,
                      "Local time is %s" % t.strftime("%a %b %d %H:%M:%S UTC %Y"), "LOG VERSION: 2.0",
                      "qh: Socket '/usr/local/nagios/var/rw/nagios.qh' successfully initialized",
                      "qh: core query handler registered", "qh: echo service query handler registered",
                      "qh: help for the query handler registered",
                      "wproc: Successfully registered manager as @wproc with query handler"]:
                L(clk.tick(0, 0.2), m)
            for i in range(4):
                wp = pid + 7 + i
                L(clk.tick(0, 0.2), "wproc: Registry request: name=Core Worker %d;pid=%d" % (wp, wp))
            L(clk.tick(0, 0.2), "Successfully launched command file worker with pid %d" % (pid + 11))
            continue
        for h, (a, b) in host_down.items():
            if a <= t < b and not hd_state.get("down"):
                hd_state["down"] = True
                for att in (1, 2, 3):
                    L(t, "HOST ALERT: %s;DOWN;%s;%d;CRITICAL - Host Unreachable (10.40.5.12)" % (h, "SOFT" if att < 3 else "HARD", att), host=h)
                    t = clk.tick(30, 60)
                L(t, "HOST NOTIFICATION: oncall-platform;%s;DOWN;notify-host-by-email;CRITICAL - Host Unreachable (10.40.5.12)" % h, host=h)
            if t >= b and hd_state.get("down") and not hd_state.get("up"):
                hd_state["up"] = True
                L(t, "HOST ALERT: %s;UP;HARD;1;PING OK - Packet loss = 0%%, RTA = 0.38 ms" % h, host=h)
                L(t, "HOST NOTIFICATION: oncall-platform;%s;UP;notify-host-by-email;PING OK - Packet loss = 0%%, RTA = 0.38 ms" % h, host=h)
        r = rng.random()
        if problems and r < 0.42:
            key = rng.choice(sorted(problems))
            h, s = key
            st, att, hard = problems[key]
            if rng.random() < 0.45:
                L(t, "SERVICE ALERT: %s;%s;OK;%s;%d;%s" % (h, s, "HARD" if hard else "SOFT", att if not hard else 3, okmsg(s)), host=h)
                if hard:
                    L(t, "SERVICE NOTIFICATION: oncall-platform;%s;%s;OK;notify-service-by-email;%s" % (h, s, okmsg(s)), host=h)
                del problems[key]
            elif not hard:
                att += 1
                hard = att >= 3
                txt = crit_text.get(s, "CRITICAL - check failed") if st == "CRITICAL" else warn_text.get(s, "WARNING - degraded")
                L(t, "SERVICE ALERT: %s;%s;%s;%s;%d;%s" % (h, s, st, "HARD" if hard else "SOFT", att, txt), host=h)
                if hard:
                    L(t, "SERVICE NOTIFICATION: oncall-platform;%s;%s;%s;notify-service-by-email;%s" % (h, s, st, txt), host=h)
                    if rng.random() < 0.35:
                        who = rng.choice(["k.tanaka", "mokafor", "zoë.brandt"])
                        ta = clk.tick(60, 600)
                        L(ta, "EXTERNAL COMMAND: ACKNOWLEDGE_SVC_PROBLEM;%s;%s;2;1;1;%s;Looking into it — ticket OPS-%d"
                          % (h, s, who, rng.randint(1000, 9999)), host=h)
                        L(ta, "SERVICE NOTIFICATION: oncall-platform;%s;%s;ACKNOWLEDGEMENT (%s);notify-service-by-email;%s;%s;"
                          "Looking into it" % (h, s, st, txt, who), host=h)
                problems[key] = (st, att, hard)
            else:
                # hard problem re-notification
                txt = crit_text.get(s, "CRITICAL - check failed") if st == "CRITICAL" else warn_text.get(s, "WARNING - degraded")
                L(t, "SERVICE NOTIFICATION: oncall-platform;%s;%s;%s;notify-service-by-email;%s" % (h, s, st, txt), host=h)
        elif r < 0.72:
            h = wchoice(rng, weights)
            s = rng.choice(svc_list(h))
            if (h, s) in problems:
                continue
            st = "CRITICAL" if (s in crit_text and (s not in warn_text or rng.random() < 0.5)) else "WARNING"
            if s not in crit_text and s not in warn_text:
                st = "UNKNOWN"
            txt = {"CRITICAL": crit_text.get(s), "WARNING": warn_text.get(s),
                   "UNKNOWN": "(Service check timed out after 60.01 seconds)"}[st]
            L(t, "SERVICE ALERT: %s;%s;%s;SOFT;1;%s" % (h, s, st, txt), host=h)
            problems[(h, s)] = (st, 1, False)
        elif r < 0.80:
            h = wchoice(rng, weights)
            s = rng.choice(svc_list(h))
            L(t, "Warning: The check of service '%s' on host '%s' looks like it was orphaned (results never came back; "
              "last_check=%d).  I'm scheduling an immediate check of the service..." % (s, h, epoch(t) - rng.randint(300, 900)), host=h)
        elif r < 0.86:
            L(t, "wproc: Core Worker %d: job %d (pid=%d): Dormant child reaped" % (rng.choice([3417, 3418, 3419, 3420]),
                                                                                 rng.randint(1000, 90000), rng.randint(10000, 90000)))
        elif r < 0.92:
            h = rng.choice(["fh-rp-02", "fh-web-03"])
            s = "Load"
            L(t, "SERVICE FLAPPING ALERT: %s;%s;%s; Service appears to have %s flapping (%.1f%% change %s 20.0%% threshold)" % (
                h, s, rng.choice(["STARTED", "STOPPED"]), "started", rng.uniform(20.5, 38.0), ">="), host=h)
        else:
            h = "fh-db-02"
            s = "Disk /var"
            st = epoch(t) + 600
            L(t, "EXTERNAL COMMAND: SCHEDULE_SVC_DOWNTIME;%s;%s;%d;%d;1;0;7200;mokafor;Volume resize (CHG-2026-%04d)"
              % (h, s, st, st + 7200, rng.randint(100, 999)), host=h)

    c.check("count_where", role="host", value="fh-web-03")
    c.check("top", role="host")
    c.check("distinct", role="host")
    c.check("count_contains", text="SERVICE NOTIFICATION")
    c.check("count_contains", text=";HARD;")
    return c


# =====================================================================================
# f20  macOS unified log: 'log show --info --debug' text export
# =====================================================================================
def f20_macos():
    rng = random.Random(5420)
    c = Case("f20-macos-logshow", "logshow-export.txt",
             "macOS 14 unified logging 'log show --info --debug --predicate ...' default (compact columns) text output",
             ["ERROR", "INFO", "DEBUG"])
    OFF = timedelta(hours=-7)
    clk = Clock(rng, utc(2026, 3, 14, 15, 2, 11, 104331))   # UTC; local 08:02 -0700
    end = utc(2026, 3, 14, 18, 1, 0)
    c.raw(['Filtering the log data using "subsystem BEGINSWITH "com.fernhollow" OR process == "configd" OR '
           'process == "FHSyncAgent" OR process == "FHPrinterHelper""',
           "Timestamp                       Thread     Type        Activity             PID    TTL  "])
    types = Counter()
    TYPEMAP = {"Default": None, "Info": "INFO", "Debug": "DEBUG", "Error": "ERROR", "Fault": None}
    procs = {"FHSyncAgent": 812, "configd": 121, "FHPrinterHelper": 977, "FHVPNStatus": 1433}
    threads = {p: ["0x%x" % rng.randint(0x1000, 0x3fffff) for _ in range(n)] for p, n in
               (("FHSyncAgent", 4), ("configd", 2), ("FHPrinterHelper", 2), ("FHVPNStatus", 1))}

    def L(t, proc, typ, msg, act="0x0", ttl=0):
        lt = t + OFF
        stamp = lt.strftime("%Y-%m-%d %H:%M:%S.%f") + "-0700"
        th = rng.choice(threads[proc])
        pid = procs[proc]
        lines = msg.split("\n")
        lines[0] = "%-31s %-10s %-11s %-20s %-6d %-4d %s: %s" % (stamp, th, typ, act, pid, ttl, proc, lines[0])
        types[typ] += 1
        c.ev(t, TYPEMAP[typ], lines, pid=pid, thread=th, program=proc)

    files = ["Lieferscheine/März/LS-2026-03%02d-%03d.pdf", "Touren/KW11/Tour-%02d-%03d.xlsx",
             "Kunden/Müller GmbH/Angebot-%02d-%03d.docx", "Fotos/Schäden/IMG_%02d%03d.HEIC", "報告/月次-%02d-%03d.pdf"]
    restart_at = utc(2026, 3, 14, 16, 37, 0)
    restarted = False
    while clk.t < end:
        t = clk.tick(0.1, 16)
        if not restarted and t >= restart_at:
            restarted = True
            L(t, "FHSyncAgent", "Fault", "[com.fernhollow.sync:engine] Assertion failed: pendingQueue.count >= 0 "
              "(SyncEngine.swift:412) — terminating")
            procs["FHSyncAgent"] = 3310
            threads["FHSyncAgent"] = ["0x%x" % rng.randint(0x1000, 0x3fffff) for _ in range(4)]
            clk.tick(8, 12)
            L(clk.tick(0, 0.1), "FHSyncAgent", "Default", "[com.fernhollow.sync:engine] FHSyncAgent 3.8.2 (build 3820) "
              "starting, account=%s" % rng.choice(["o.nystrom@fernhollow.example"]))
            continue
        kind = wchoice(rng, [("upload", 22), ("uploaddbg", 16), ("uploadfail", 2.5), ("summary", 2), ("net", 9),
                             ("netinfo", 6), ("print", 7), ("printerr", 1), ("vpn", 5), ("cfnet", 3), ("keychain", 1)])
        if kind == "upload":
            f = rng.choice(files) % (rng.randint(1, 28), rng.randint(1, 999))
            L(t, "FHSyncAgent", "Info", "[com.fernhollow.sync:upload] Uploaded '%s' (%d bytes) in %d ms" % (
                f, rng.randint(2000, 9_000_000), rng.randint(40, 9000)), act="0x%x" % rng.randint(0x10000, 0x9ffff))
        elif kind == "uploaddbg":
            L(t, "FHSyncAgent", "Debug", "[com.fernhollow.sync:upload] chunk %d/%d acknowledged etag=\"%08x\"" % (
                rng.randint(1, 40), 40, rng.getrandbits(32)), act="0x%x" % rng.randint(0x10000, 0x9ffff))
        elif kind == "uploadfail":
            f = rng.choice(files) % (rng.randint(1, 28), rng.randint(1, 999))
            L(t, "FHSyncAgent", "Error", "[com.fernhollow.sync:upload] Upload failed for '%s': Error "
              "Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\" UserInfo={_kCFStreamErrorCodeKey=-2102, "
              "NSUnderlyingError=0x600002c1e4f0 {Error Domain=kCFErrorDomainCFNetwork Code=-1001 \"(null)\" "
              "UserInfo={_kCFStreamErrorCodeKey=-2102, _kCFStreamErrorDomainKey=4}}, NSErrorFailingURLStringKey="
              "https://sync.fernhollow.example/v2/files/upload?session=%032x, NSErrorFailingURLKey="
              "https://sync.fernhollow.example/v2/files/upload?session=%032x, _kCFStreamErrorDomainKey=4, "
              "NSLocalizedDescription=The request timed out.}" % (f, rng.getrandbits(128), rng.getrandbits(128)))
        elif kind == "summary":
            L(t, "FHSyncAgent", "Default", "[com.fernhollow.sync:engine] Sync pass finished:\n\tuploaded: %d\n\tskipped: %d\n"
              "\tfailed: %d\n\tduration: %.1fs" % (rng.randint(0, 40), rng.randint(0, 300), rng.randint(0, 3),
                                                   rng.uniform(1, 90)))
        elif kind == "net":
            L(t, "configd", "Default", "[com.apple.SystemConfiguration:IPMonitor] IPMonitor: %s" % rng.choice([
                "network changed: v4(en0:192.168.1.%d) DNS Proxy SMB" % rng.randint(20, 60),
                "network changed: v4(en0!:192.168.1.%d, utun4+:10.8.0.%d) DNS* Proxy SMB" % (rng.randint(20, 60), rng.randint(6, 90)),
                "no change"]))
        elif kind == "netinfo":
            L(t, "configd", "Info", "[com.apple.SystemConfiguration:IPMonitor] setting DNS configuration: "
              "resolver #1 domain: corp.fernhollow.internal nameserver[0]: 10.40.0.53 flags: Request A records, "
              "Request AAAA records reach: 0x00000003 (Reachable,Transient Connection)")
        elif kind == "print":
            L(t, "FHPrinterHelper", rng.choice(["Default", "Info"]), "[com.fernhollow.print:queue] Job %d sent to FH-3F-Color "
              "via ipp://print01.corp.fernhollow.internal:631/printers/FH-3F-Color" % rng.randint(1000, 1300))
        elif kind == "printerr":
            L(t, "FHPrinterHelper", "Error", "[com.fernhollow.print:queue] IPP request failed: "
              "client-error-not-authorized (0x0401) for Print-Job")
        elif kind == "vpn":
            L(t, "FHVPNStatus", rng.choice(["Default", "Debug"]), "[com.fernhollow.vpn:status] tunnel utun4 state=%s rx=%d tx=%d"
              % (rng.choice(["connected", "connected", "reasserting"]), rng.randint(10 ** 5, 10 ** 9), rng.randint(10 ** 5, 10 ** 8)))
        elif kind == "cfnet":
            L(t, "FHSyncAgent", "Default", "(CFNetwork) [com.apple.CFNetwork:Summary] Task <%08X-%04X-%04X-%04X-%012X>.<%d> "
              "summary for task success {transaction_duration_ms=%d, response_status=200, connection=%d, protocol=\"h2\", "
              "domain_lookup_duration_ms=0, connect_duration_ms=0, request_start_ms=0, response_start_ms=%d, "
              "response_duration_ms=%d, request_bytes=%d, response_bytes=%d, cache_hit=false}" % (
                  rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(48),
                  rng.randint(1, 40), rng.randint(30, 4000), rng.randint(1, 30), rng.randint(20, 900), rng.randint(0, 200),
                  rng.randint(200, 9000000), rng.randint(100, 4000)))
        else:
            L(t, "FHSyncAgent", "Error", "(Security) [com.apple.securityd:SecError] SecItemCopyMatching: "
              "errSecItemNotFound (-25300) for service \"com.fernhollow.sync.token\"")
    c.raw(["-" * 116,
           "Log      - Default: %12d, Info: %16d, Debug: %13d, Error: %11d, Fault: %11d" % (
               types["Default"], types["Info"], types["Debug"], types["Error"], types["Fault"]),
           "Activity - Create: %13d, Transition: %10d, Actions: %11d" % (0, 0, 0)])

    c.check("top", role="program")
    c.check("count_where", role="program", value="configd")
    c.check("distinct", role="pid")
    c.check("count_contains", text="[com.fernhollow.sync:upload]")
    c.check("distinct", role="thread")
    return c


CASES = [f17_couchbase, f18_cups, f19_nagios, f20_macos]
