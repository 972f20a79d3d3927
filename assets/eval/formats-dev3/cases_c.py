"""Cases f09-f12: Windows Event Viewer CSV export, Ansible log_path, Ceph OSD, Logstash plain log."""
import csv
import io
import random
import textwrap
from datetime import timedelta

from gen_common import (Case, Clock, epoch, ns_from_s, utc, wchoice)


# =====================================================================================
# f09  Windows Event Viewer "Save All Events As... CSV" (System log), newest first
# =====================================================================================
LRM = "\u200e"
WIN_HOST = "FH-APP-07"
WIN_SERVICES = ["Windows Modules Installer", "Background Intelligent Transfer Service", "WinHTTP Web Proxy Auto-Discovery Service",
                "Windows Update", "Microsoft Edge Update Service (edgeupdate)", "Software Protection",
                "Fernhollow Telemetry Agent", "Windows Defender Antivirus Network Inspection Service",
                "Device Setup Manager", "Windows Error Reporting Service", "Network Setup Service", "Update Orchestrator Service"]


def win_time(t):
    h12 = t.hour % 12 or 12
    return "%d/%d/%d %d:%02d:%02d %s" % (t.month, t.day, t.year, h12, t.minute, t.second, "AM" if t.hour < 12 else "PM")


def f09_wincsv():
    rng = random.Random(3909)
    c = Case("f09-windows-eventlog-csv", "System-export.csv",
             "Windows Server 2022 Event Viewer 'Save All Events As' CSV (System log; newest first; 12-hour clock; "
             "multi-line quoted messages; CRLF)", ["CRITICAL", "ERROR", "WARN", "INFO"], eol="\r\n")
    clk = Clock(rng, utc(2026, 3, 9, 6, 0, 7))
    end = utc(2026, 3, 11, 5, 12, 0)
    recs = []   # (t, level_word, source, event_id, task, message)

    def R(t, lv, src, eid, task, msg):
        recs.append((t, lv, src, eid, task, msg))

    def svc_cycle(t, name):
        R(t, "Information", "Service Control Manager", 7036, "None", "The %s service entered the running state." % name)
        t2 = t + timedelta(seconds=rng.randint(5, 600))
        R(t2, "Information", "Service Control Manager", 7036, "None", "The %s service entered the stopped state." % name)

    def reboot(t, planned):
        if planned:
            R(t, "Information", "User32", 1074, "None",
              "The process C:\\Windows\\uus\\AMD64\\MoUsoCoreWorker.exe (%s) has initiated the restart of computer %s on "
              "behalf of user NT AUTHORITY\\SYSTEM for the following reason: Operating System: Service pack (Planned)\r\n"
              " Reason Code: 0x80020010\r\n Shutdown Type: restart\r\n Comment: " % (WIN_HOST, WIN_HOST))
            R(t + timedelta(seconds=4), "Information", "EventLog", 6006, "None", "The Event log service was stopped.")
            R(t + timedelta(seconds=5), "Information", "Microsoft-Windows-Kernel-Power", 109, "(103)",
              "The kernel power manager has initiated a shutdown transition.\r\n\r\nShutdown Reason: Kernel API")
            t = t + timedelta(seconds=rng.randint(70, 110))
        else:
            t = t + timedelta(seconds=rng.randint(200, 400))
        R(t, "Information", "Microsoft-Windows-Kernel-General", 12, "(1)",
          "The operating system started at system time %s2026%s-%s03%s-%s%02d%sT%s.500000000Z." % (
              LRM, LRM, LRM, LRM, LRM, t.day, LRM, (t - timedelta(seconds=30)).strftime("%H:%M:%S")))
        R(t + timedelta(seconds=2), "Information", "EventLog", 6009, "None",
          "Microsoft (R) Windows (R) 10.00. 20348  Multiprocessor Free.")
        R(t + timedelta(seconds=2), "Information", "EventLog", 6005, "None", "The Event log service was started.")
        if not planned:
            crash = t - timedelta(seconds=rng.randint(250, 380))
            ch12 = crash.hour % 12 or 12
            R(t + timedelta(seconds=1), "Critical", "Microsoft-Windows-Kernel-Power", 41, "(63)",
              "The system has rebooted without cleanly shutting down first. This error could be caused if the system "
              "stopped responding, crashed, or lost power unexpectedly.")
            R(t + timedelta(seconds=3), "Error", "EventLog", 6008, "None",
              "The previous system shutdown at %d:%02d:%02d %s on %s3/%s%d/%s2026 was unexpected." % (
                  ch12, crash.minute, crash.second, "AM" if crash.hour < 12 else "PM", LRM, LRM, crash.day, LRM))
        return t + timedelta(seconds=30)

    while clk.t < end:
        t = clk.tick(20, 420)
        kind = wchoice(rng, [("svc", 40), ("time", 7), ("timewarn", 2), ("gp", 7), ("gperr", 1.2), ("netlogon", 1.5),
                             ("schannel", 5), ("dcom", 4), ("disk", 1.5), ("dns", 2), ("uptime", 0), ("nic", 0.6),
                             ("hive", 2), ("telemetry", 1.2), ("printsvc", 0.5), ("clock", 1)])
        if kind == "svc":
            svc_cycle(t, wchoice(rng, [(s, 6 if i < 4 else 2) for i, s in enumerate(WIN_SERVICES)]))
        elif kind == "time":
            R(t, "Information", "Microsoft-Windows-Time-Service", 37, "None",
              "The time provider NtpClient is currently receiving valid time data from DC01.corp.fernhollow.internal "
              "(ntp.d|10.40.0.10:123->10.40.2.31:123).")
        elif kind == "timewarn":
            R(t, "Warning", "Microsoft-Windows-Time-Service", 129, "None",
              "NtpClient was unable to set a domain peer to use as a time source because of discovery error. NtpClient "
              "will try again in 15 minutes and double the reattempt interval thereafter. The error was: The entry is not "
              "found. (0x800706E1)")
        elif kind == "gp":
            R(t, "Information", "Microsoft-Windows-GroupPolicy", 1500 if rng.random() < 0.5 else 1502, "None",
              "The Group Policy settings for the computer were processed successfully. There were no changes detected "
              "since the last successful processing of Group Policy.")
        elif kind == "gperr":
            R(t, "Error", "Microsoft-Windows-GroupPolicy", 1129, "None",
              "The processing of Group Policy failed because of lack of network connectivity to a domain controller. "
              "This may be a transient condition. A success message would be generated once the machine gets connected "
              "to the domain controller and Group Policy has successfully processed. If you do not see a success message "
              "for several hours, then contact your administrator.")
        elif kind == "netlogon":
            R(t, "Error", "NETLOGON", 5719, "None",
              "This computer was not able to set up a secure session with a domain controller in domain FERNHOLLOW due "
              "to the following: \r\nThere are currently no logon servers available to service the logon request. \r\n"
              "This may lead to authentication problems. Make sure that this computer is connected to the network. If "
              "the problem persists, please contact your domain administrator.  \r\n\r\nADDITIONAL INFO \r\nIf this "
              "computer is a domain controller for the specified domain, it sets up the secure session to the primary "
              "domain controller emulator in the specified domain. Otherwise, this computer sets up the secure session "
              "to any domain controller in the specified domain.")
        elif kind == "schannel":
            if rng.random() < 0.7:
                R(t, "Error", "Schannel", 36887, "None", "A fatal alert was received from the remote endpoint. The TLS "
                  "protocol defined fatal alert code is %d." % rng.choice([46, 46, 48, 42]))
            else:
                R(t, "Error", "Schannel", 36874, "None", "An TLS 1.2 connection request was received from a remote client "
                  "application, but none of the cipher suites supported by the client application are supported by the "
                  "server. The TLS connection request has failed.")
        elif kind == "dcom":
            R(t, "Warning", "Microsoft-Windows-DistributedCOM", 10016, "None",
              "The application-specific permission settings do not grant Local Activation permission for the COM Server "
              "application with CLSID \r\n{2593F8B9-4EAF-457C-B68A-50F6B8EA6B54}\r\n and APPID \r\n"
              "{15C20B67-12E7-4BB6-92BB-7AFF07997402}\r\n to the user NT AUTHORITY\\LOCAL SERVICE SID (S-1-5-19) from "
              "address LocalHost (Using LRPC) running in the application container Unavailable SID (Unavailable). This "
              "security permission can be modified using the Component Services administrative tool.")
        elif kind == "disk":
            R(t, "Warning", "disk", 153, "None", "The IO operation at logical block address 0x%x for Disk 1 (PDO name: "
              "\\Device\\0000002f) was retried." % rng.randint(0x100000, 0x3ffffff))
        elif kind == "dns":
            R(t, "Warning", "Microsoft-Windows-DNS-Client", 1014, "(1014)",
              "Name resolution for the name %s timed out after none of the configured DNS servers responded."
              % rng.choice(["wpad.corp.fernhollow.internal", "ctldl.windowsupdate.com", "fh-files.corp.fernhollow.internal"]))
        elif kind == "nic":
            R(t, "Warning", "e1iexpress", 27, "None", "Intel(R) Ethernet Connection (7) I219-LM\r\n Network link is disconnected.")
            R(t + timedelta(seconds=rng.randint(3, 40)), "Information", "e1iexpress", 32, "None",
              "Intel(R) Ethernet Connection (7) I219-LM\r\n Network link has been established at 1Gbps full duplex.")
        elif kind == "hive":
            R(t, "Information", "Microsoft-Windows-Kernel-General", 16, "(15)",
              "The access history in hive \\??\\C:\\Users\\svc-fhtelemetry\\ntuser.dat was cleared updating %d keys and "
              "creating %d modified pages." % (rng.randint(1, 300), rng.randint(1, 60)))
        elif kind == "telemetry":
            R(t, "Error", "Service Control Manager", 7031, "None",
              "The Fernhollow Telemetry Agent service terminated unexpectedly.  It has done this %d time(s).  The "
              "following corrective action will be taken in 60000 milliseconds: Restart the service." % rng.randint(1, 3))
        elif kind == "printsvc":
            R(t, "Error", "Service Control Manager", 7000, "None",
              "The FH Print Bridge service failed to start due to the following error: \r\nThe system cannot find the "
              "file specified.")
        elif kind == "clock":
            old = t + timedelta(microseconds=rng.randint(1000, 900000))
            R(t, "Information", "Microsoft-Windows-Kernel-General", 1, "(5)",
              "The system time has changed to %s2026%s-%s03%s-%s%02d%sT%s.500000000Z from %s2026%s-%s03%s-%s%02d%sT%s.%06d600Z."
              "\r\n\r\nChange Reason: An application or system component changed the time." % (
                  LRM, LRM, LRM, LRM, LRM, t.day, LRM, t.strftime("%H:%M:%S"),
                  LRM, LRM, LRM, LRM, LRM, old.day, LRM, old.strftime("%H:%M:%S"), old.microsecond // 10))
        if t.hour == 12 and t.minute < 8 and not any(r[3] == 6013 and r[0].date() == t.date() for r in recs):
            R(t + timedelta(seconds=1), "Information", "EventLog", 6013, "None",
              "The system uptime is %d seconds." % rng.randint(100000, 900000))
    # patch night: updates, then a planned reboot; one unexpected crash the next night
    t = utc(2026, 3, 10, 3, 0, 14)
    kb = [("2026-03 Cumulative Update for Microsoft server operating system version 21H2 for x64-based Systems (KB5035857)", True),
          ("Security Intelligence Update for Microsoft Defender Antivirus - KB2267602 (Version 1.407.412.0)", True),
          ("2026-03 Cumulative Update for .NET Framework 3.5, 4.8 and 4.8.1 for Microsoft server operating system version 21H2 for x64 (KB5034612)", False)]
    for title, ok in kb:
        R(t, "Information", "Microsoft-Windows-WindowsUpdateClient", 43, "Windows Update Agent",
          "Installation Started: Windows has started installing the following update: %s" % title)
        t = t + timedelta(seconds=rng.randint(60, 900))
        if ok:
            R(t, "Information", "Microsoft-Windows-WindowsUpdateClient", 19, "Windows Update Agent",
              "Installation Successful: Windows successfully installed the following update: %s" % title)
        else:
            R(t, "Error", "Microsoft-Windows-WindowsUpdateClient", 20, "Windows Update Agent",
              "Installation Failure: Windows failed to install the following update with error 0x80073712: %s." % title)
    reboot(t + timedelta(seconds=30), True)
    reboot(utc(2026, 3, 11, 2, 17, 40), False)

    recs.sort(key=lambda r: r[0], reverse=True)     # Event Viewer exports newest first
    c.raw(["Level,Date and Time,Source,Event ID,Task Category"])
    lvmap = {"Information": "INFO", "Warning": "WARN", "Error": "ERROR", "Critical": "CRITICAL"}
    for t, lv, src, eid, task, msg in recs:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
        w.writerow([lv, win_time(t), src, str(eid), task, msg])
        row = buf.getvalue()[:-2]
        c.ev(t, lvmap[lv], row.split("\r\n"), program=src)

    c.check("top", role="program")
    c.check("count_where", role="program", value="Schannel")
    c.check("distinct", role="program")
    c.check("count_contains", text="secure session with a domain controller")
    c.check("count_contains", text="KB5035857")
    return c


# =====================================================================================
# f10  Ansible log_path (ansible-core 2.16 format with level)
# =====================================================================================
AN_HOSTS = {"route-planner": ["fh-rp-0%d.corp.fernhollow.internal" % i for i in range(1, 7)],
            "web": ["fh-web-0%d.corp.fernhollow.internal" % i for i in range(1, 5)],
            "db": ["fh-db-01.corp.fernhollow.internal", "fh-db-02.corp.fernhollow.internal"]}
AN_PLAYS = {
    "route-planner": ("Rolling restart of route-planner", "deploy-route-planner.yml",
                      ["Gathering Facts", "route-planner : Pull image fh-registry.corp.fernhollow.internal/route-planner",
                       "route-planner : Render /etc/route-planner/config.yml", "route-planner : Drain node from load balancer",
                       "route-planner : Restart route-planner container", "route-planner : Wait for /healthz",
                       "route-planner : Show deployed version", "route-planner : Re-enable node in load balancer"]),
    "web": ("Apply baseline to web tier", "site.yml",
            ["Gathering Facts", "common : Install base packages", "common : Configure chrony", "common : Set timezone to UTC",
             "nginx : Template vhost fh-portal.conf", "nginx : Validate config", "users : Ensure ops accounts",
             "users : Authorized keys for ops accounts"]),
    "db": ("Rotate DB credentials", "rotate-db-creds.yml",
           ["Gathering Facts", "db-creds : Generate new password", "db-creds : ALTER ROLE app_rw",
            "db-creds : Update Vault secret", "db-creds : Show rotation summary"]),
}


def f10_ansible():
    rng = random.Random(4010)
    c = Case("f10-ansible-log", "ansible.log",
             "Ansible (ansible-core 2.16) log_path file: 'date time,ms p=PID u=USER n=ansible LEVEL| message'",
             ["ERROR", "WARN", "INFO"])
    t0 = utc(2026, 3, 10, 6, 30, 2, 118000)
    LV = {"INFO": "INFO", "WARNING": "WARN", "ERROR": "ERROR"}

    def L(t, pid, user, level, msg, **f):
        lines = msg.split("\n")
        stamp = t.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (t.microsecond // 1000)
        lines[0] = "%s p=%d u=%s n=ansible %s| %s" % (stamp, pid, user, level, lines[0])
        return c.ev(t, LV[level], lines, pid=pid, user=user, logger="ansible", **f)

    def banner(msg):
        return "%s %s" % (msg, "*" * max(3, 79 - len(msg)))

    def wrap(prefix, msg):
        return "\n".join(textwrap.wrap(prefix + msg, 79)) + "\n"

    runs = []
    t = t0
    users = [("awx", 9), ("deploy", 5), ("mokafor", 2), ("k.tanaka", 1)]
    while t < utc(2026, 3, 11, 2, 40, 0):
        runs.append((t, wchoice(rng, users), wchoice(rng, [("route-planner", 5), ("web", 3), ("db", 1)])))
        t = t + timedelta(minutes=rng.randint(25, 110))

    clk = Clock(rng, t0)
    for start, user, play in runs:
        clk.t = max(clk.t, start)
        pid = rng.randint(3000, 98000)
        title, book, tasks = AN_PLAYS[play]
        hosts = AN_HOSTS[play]
        if rng.random() < 0.08:
            L(clk.tick(0.5, 1.5), pid, user, "ERROR", wrap("ERROR! ", "the role 'fernhollow.%s' was not found in "
              "/home/%s/playbooks/roles:/home/%s/.ansible/roles:/usr/share/ansible/roles:/etc/ansible/roles:"
              "/home/%s/playbooks" % (rng.choice(["nginx_v2", "routeplanner"]), user, user, user)))
            continue
        if rng.random() < 0.3:
            h = rng.choice(hosts)
            L(clk.tick(0.5, 1.5), pid, user, "WARNING", wrap("[WARNING]: ", "Platform linux on host %s is using the "
              "discovered Python interpreter at /usr/bin/python3.11, but future installation of another Python "
              "interpreter could change the meaning of that path. See https://docs.ansible.com/ansible-core/2.16/"
              "reference_appendices/interpreter_discovery.html for more information." % h))
        L(clk.tick(0.2, 1.0), pid, user, "INFO", banner("PLAY [%s]" % title))
        stats = {h: {"ok": 0, "changed": 0, "unreachable": 0, "failed": 0, "skipped": 0, "ignored": 0} for h in hosts}
        dead = set()
        if rng.random() < 0.25:
            dead.add(rng.choice(hosts))
        for ti, task in enumerate(tasks):
            L(clk.tick(0.1, 2.0), pid, user, "INFO", banner("TASK [%s]" % task))
            for h in hosts:
                if any(stats[h][k] for k in ("unreachable", "failed")):
                    continue
                tt = clk.tick(0.3, 9.0 if ti else 3.0)
                if h in dead:
                    L(tt, pid, user, "INFO", 'fatal: [%s]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to '
                      'the host via ssh: ssh: connect to host %s port 22: Connection timed out", "unreachable": true}' % (h, h))
                    stats[h]["unreachable"] += 1
                    continue
                if "Show" in task:
                    if play == "db":
                        body = ('{\n    "msg": [\n        "role app_rw rotated on %s",\n        "vault path: '
                                'secret/data/fh/db/app_rw (version %d)",\n        "next rotation: 2026-04-10"\n    ]\n}'
                                % (h.split(".")[0], rng.randint(20, 80)))
                    else:
                        body = ('{\n    "msg": "route-planner %s running, image digest sha256:%s, started %s"\n}'
                                % (rng.choice(["4.12.0", "4.12.1"]), "%064x" % rng.getrandbits(256), tt.strftime("%Y-%m-%dT%H:%M:%SZ")))
                    L(tt, pid, user, "INFO", "ok: [%s] => %s" % (h, body))
                    stats[h]["ok"] += 1
                    continue
                r = rng.random()
                if r < 0.03 and ti > 0:
                    err = rng.choice([
                        '{"changed": false, "msg": "Timeout (62s) waiting for privilege escalation prompt: "}',
                        '{"changed": false, "elapsed": 120, "msg": "Status code was -1 and not [200]: Request failed: '
                        '<urlopen error [Errno 111] Connection refused>", "redirected": false, "status": -1, '
                        '"url": "http://127.0.0.1:8080/healthz"}',
                        '{"changed": true, "cmd": ["nginx", "-t"], "delta": "0:00:00.021044", "end": "%s", "msg": '
                        '"non-zero return code", "rc": 1, "start": "%s", "stderr": "nginx: [emerg] unknown directive '
                        '\\"proxy_pas\\" in /etc/nginx/conf.d/fh-portal.conf:41\\nnginx: configuration file '
                        '/etc/nginx/nginx.conf test failed", "stderr_lines": ["nginx: [emerg] unknown directive '
                        '\\"proxy_pas\\" in /etc/nginx/conf.d/fh-portal.conf:41", "nginx: configuration file '
                        '/etc/nginx/nginx.conf test failed"], "stdout": "", "stdout_lines": []}'
                        % (tt.strftime("%Y-%m-%d %H:%M:%S.%f"), tt.strftime("%Y-%m-%d %H:%M:%S.%f")),
                    ])
                    L(tt, pid, user, "INFO", "fatal: [%s]: FAILED! => %s" % (h, err))
                    if rng.random() < 0.3:
                        L(clk.tick(0, 0.01), pid, user, "INFO", "...ignoring")
                        stats[h]["ignored"] += 1
                    else:
                        stats[h]["failed"] += 1
                elif r < 0.10 and ti > 0:
                    L(tt, pid, user, "INFO", "skipping: [%s]" % h)
                    stats[h]["skipped"] += 1
                elif r < 0.45 and ti > 0:
                    L(tt, pid, user, "INFO", "changed: [%s]" % h)
                    stats[h]["changed"] += 1
                    stats[h]["ok"] += 1
                else:
                    L(tt, pid, user, "INFO", "ok: [%s]" % h)
                    stats[h]["ok"] += 1
        if play == "web" and any(s["changed"] for s in stats.values()):
            L(clk.tick(0.1, 1.0), pid, user, "INFO", banner("RUNNING HANDLER [nginx : reload nginx]"))
            for h in hosts:
                if stats[h]["changed"] and not stats[h]["failed"] and not stats[h]["unreachable"]:
                    L(clk.tick(0.3, 2.0), pid, user, "INFO", "changed: [%s]" % h)
                    stats[h]["changed"] += 1
                    stats[h]["ok"] += 1
        L(clk.tick(0.1, 0.5), pid, user, "INFO", banner("PLAY RECAP"))
        for h in hosts:
            s = stats[h]
            L(clk.tick(0, 0.002), pid, user, "INFO", "%-26s : %s %s %s %s %s %s %s" % (
                h, "ok=%-4s" % s["ok"], "changed=%-4s" % s["changed"], "unreachable=%-4s" % s["unreachable"],
                "failed=%-4s" % s["failed"], "skipped=%-4s" % s["skipped"], "rescued=%-4s" % 0,
                "ignored=%-4s" % s["ignored"]))

    c.check("count_where", role="user", value="deploy")
    c.check("top", role="user")
    c.check("distinct", role="pid")
    c.check("count_contains", text="FAILED!")
    c.check("count_contains", text="UNREACHABLE!")
    return c


# =====================================================================================
# f11  Ceph OSD daemon log (Reef)
# =====================================================================================
CEPH_VER = "ceph version 18.2.1 (7fe91d5d5842e04be3b4f514d6dd990c54b29c76) reef (stable)"


def f11_ceph():
    rng = random.Random(4111)
    c = Case("f11-ceph-osd", "ceph-osd.7.log",
             "Ceph 18 (Reef) OSD daemon log: 'ISO time+0000 thread-hex level message' with numeric debug levels",
             [])
    clk = Clock(rng, utc(2026, 3, 14, 0, 0, 1, 234000))
    end = utc(2026, 3, 14, 13, 58, 0)

    def newthreads():
        base = rng.randint(0x7f0000000000, 0x7fffffffffff) & ~0xfff
        return {"main": "%x" % (base + 0x480), "dispatch": "%x" % (base - 0x3000 * 7 + 0x640),
                "tick": "%x" % (base - 0x3000 * 9 + 0x640),
                "tp": ["%x" % (base - 0x3000 * (20 + i) + 0x640) for i in range(4)],
                "rocksdb": "%x" % (base - 0x3000 * 30 + 0x640), "hb": "%x" % (base - 0x3000 * 12 + 0x640)}

    th = newthreads()
    state = {"epoch": 4521, "pgv": 123456, "job": 1234, "log": 567}

    def L(t, thread, lvl, msg, cont=None, **f):
        stamp = t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d+0000" % (t.microsecond // 1000)
        lines = ["%s %s %2d %s" % (stamp, thread, lvl, msg)] + (cont or [])
        return c.ev(t, None, lines, thread=thread, **f)

    L(clk.t, th["main"], -1, "received  signal: Hangup from killall -q -1 ceph-mon ceph-mgr ceph-mds ceph-osd ceph-fuse "
      "radosgw rbd-mirror cephfs-mirror  (PID: 1843021) UID: 0")
    pgs = ["2.%x" % i for i in range(0x0, 0x40, 3)] + ["5.%x" % i for i in range(0x1, 0x20, 4)]
    outage = (utc(2026, 3, 14, 4, 12, 0), utc(2026, 3, 14, 4, 19, 30))
    slow_win = [(utc(2026, 3, 14, 4, 13, 0), utc(2026, 3, 14, 4, 21, 0)),
                (utc(2026, 3, 14, 10, 2, 0), utc(2026, 3, 14, 10, 9, 0))]
    crash_at = utc(2026, 3, 14, 9, 12, 33, 441235)
    crashed = False
    peered = False

    def osdop():
        obj = "rbd_data.%x.%016x" % (rng.randint(0x100000000000, 0xffffffffffff), rng.randint(0, 0x4000))
        return "osd_op(client.%d.0:%d %s %d:%08x:::%s:head [write %d~4096 in=4096b] snapc 0=[] ondisk+write+known_if_redirected e%d)" % (
            rng.randint(4100, 4200), rng.randint(1000, 99999), rng.choice(pgs), 2, rng.getrandbits(32), obj,
            rng.randint(0, 1023) * 4096, state["epoch"])

    def pgline(pg, tail):
        v = state["pgv"]
        e = state["epoch"]
        return ("osd.7 pg_epoch: %d pg[%s( v %d'%d (%d'%d,%d'%d] local-lis/les=4500/4501 n=%d ec=100/100 lis/c=4500/4500 "
                "les/c/f=4501/4501/0 sis=%d) [7,3,12] r=0 lpr=%d pi=[4500,%d)/1 crt=%d'%d lcod %d'%d mlcod 0'0 unknown "
                "mbc={}] %s" % (e, pg, e - 1, v, e - 100, v - 3000, e - 1, v, rng.randint(800, 2400), e, e, e, e - 1, v,
                                e - 1, v - 1, tail))

    while clk.t < end:
        t = clk.tick(1.5, 72)
        if not crashed and t >= crash_at:
            crashed = True
            t = crash_at
            fn = ("void BlueStore::_txc_add_transaction(BlueStore::TransContext*, ceph::os::Transaction*)")
            stack = [
                " 1: (ceph::__ceph_assert_fail(char const*, char const*, int, char const*)+0x12e) [0x55d3e1b2c5b6]",
                " 2: /usr/bin/ceph-osd(+0x3f5a1c) [0x55d3e1b2ca1c]",
                " 3: (BlueStore::_txc_add_transaction(BlueStore::TransContext*, ceph::os::Transaction*)+0x1f3a) [0x55d3e21a3e6a]",
                " 4: (BlueStore::queue_transactions(boost::intrusive_ptr<ObjectStore::CollectionImpl>&, std::vector<ceph::os::Transaction, std::allocator<ceph::os::Transaction> >&, boost::intrusive_ptr<TrackedOp>, ThreadPool::TPHandle*)+0x2b1) [0x55d3e21a8b21]",
                " 5: (ReplicatedBackend::submit_transaction(hobject_t const&, object_stat_sum_t const&, eversion_t const&, std::unique_ptr<PGTransaction, std::default_delete<PGTransaction> >&&, eversion_t const&, eversion_t const&, std::vector<pg_log_entry_t, std::allocator<pg_log_entry_t> >&&, std::optional<pg_hit_set_history_t>&, Context*, unsigned long, osd_reqid_t, boost::intrusive_ptr<OpRequest>)+0x8d4) [0x55d3e1e4f2a4]",
                " 6: (PrimaryLogPG::issue_repop(PrimaryLogPG::RepGather*, PrimaryLogPG::OpContext*)+0x4d2) [0x55d3e1d5c8f2]",
                " 7: (PrimaryLogPG::execute_ctx(PrimaryLogPG::OpContext*)+0xd3c) [0x55d3e1d6a9dc]",
                " 8: (PrimaryLogPG::do_op(boost::intrusive_ptr<OpRequest>&)+0x2f1e) [0x55d3e1d71b6e]",
                " 9: (OSD::dequeue_op(boost::intrusive_ptr<PG>, boost::intrusive_ptr<OpRequest>, ThreadPool::TPHandle&)+0x1c3) [0x55d3e1bd3b13]",
                " 10: (ShardedThreadPool::shardedthreadpool_worker(unsigned int)+0xa24) [0x55d3e1f8a614]",
                " 11: /lib64/libc.so.6(+0x9f802) [0x7f3a2f29f802]",
                " 12: clone()",
            ]
            tpth = th["tp"][2]
            L(t, tpth, -1, "./src/os/bluestore/BlueStore.cc: In function '%s' thread %s time %s" % (
                fn, tpth, t.strftime("%Y-%m-%dT%H:%M:%S.%f+0000")),
              ["./src/os/bluestore/BlueStore.cc: 14326: FAILED ceph_assert(r == 0)", "", " " + CEPH_VER, ""] + stack + [""])
            t2 = t + timedelta(microseconds=8000)
            L(t2, tpth, -1, "*** Caught signal (Aborted) **",
              [" in thread %s thread_name:tp_osd_tp" % tpth, "", " " + CEPH_VER,
               " 1: /lib64/libc.so.6(+0x54db0) [0x7f3a2f254db0]", " 2: /lib64/libc.so.6(+0xa154c) [0x7f3a2f2a154c]",
               " 3: raise()", " 4: abort()"] + [" %d:%s" % (i + 5, ln.split(":", 1)[1]) for i, ln in enumerate(stack)] +
              [" NOTE: a copy of the executable, or `objdump -rdS <executable>` is needed to interpret this.", ""])
            clk.t = t2 + timedelta(seconds=rng.randint(10, 16))
            th = newthreads()
            m = th["main"]
            state["epoch"] += 10
            boot = [
                (0, "set uid:gid to 167:167 (ceph:ceph)"),
                (0, CEPH_VER + ", process ceph-osd, pid 48213"),
                (0, "pidfile_write: ignore empty --pid-file"),
                (1, "bdev(0x55d3e4a2c000 /var/lib/ceph/osd/ceph-7/block) open path /var/lib/ceph/osd/ceph-7/block"),
                (1, "bdev(0x55d3e4a2c000 /var/lib/ceph/osd/ceph-7/block) open size 4000783007744 (0x3a381400000, 3.6 TiB) "
                    "block_size 4096 (4 KiB) rotational device, discard not supported"),
                (1, "bluestore(/var/lib/ceph/osd/ceph-7) _set_cache_sizes cache_size 1073741824 meta 0.45 kv 0.45 data 0.06"),
                (1, "bluestore(/var/lib/ceph/osd/ceph-7) _open_db opened rocksdb path db options "
                    "compression=kLZ4Compression,max_write_buffer_number=64,min_write_buffer_number_to_merge=6,"
                    "compaction_style=kCompactionStyleLevel,write_buffer_size=16777216,max_background_jobs=4,"
                    "level0_file_num_compaction_trigger=8,max_bytes_for_level_base=1073741824,"
                    "max_bytes_for_level_multiplier=8,compaction_readahead_size=2MB,max_total_wal_size=1073741824,"
                    "writable_file_max_buffer_size=0"),
                (0, "_get_class not permitted to load lua"),
                (0, "osd.7 0 load: jerasure load: lrc "),
                (0, "osd.7 %d crush map has features 288514051259236352, adjusting msgr requires for clients" % state["epoch"]),
                (0, "osd.7 %d load_pgs" % state["epoch"]),
                (0, "osd.7 %d load_pgs opened %d pgs" % (state["epoch"], len(pgs) + 58)),
                (0, "osd.7 %d log_to_monitors true" % state["epoch"]),
                (0, "osd.7 %d done with init, starting boot process" % state["epoch"]),
                (1, "osd.7 %d start_boot" % state["epoch"]),
                (1, "osd.7 %d state: booting -> active" % (state["epoch"] + 2)),
            ]
            for lvl, msg in boot:
                L(clk.tick(0.001, 0.9), m, lvl, msg)
            continue
        in_out = outage[0] <= t < outage[1]
        in_slow = any(a <= t < b for a, b in slow_win)
        if in_out:
            if not peered:
                peered = True
                state["epoch"] += 1
                for pg in rng.sample(pgs, 6):
                    L(clk.tick(0, 0.01), rng.choice(th["tp"]), 1, pgline(pg, "start_peering_interval up [7,3,12] -> [7,3], "
                      "acting [7,3,12] -> [7,3], acting_primary 7 -> 7, up_primary 7 -> 7, role 0 -> 0, features acting "
                      "4540138322906710015 upacting 4540138322906710015"))
                    L(clk.tick(0, 0.002), rng.choice(th["tp"]), 1, pgline(pg, "state<Start>: transitioning to Primary"))
            since = t - timedelta(seconds=rng.randint(20, 25))
            L(t, th["hb"], -1, "osd.7 %d heartbeat_check: no reply from 10.60.0.13:6804 osd.12 since back %s front %s "
              "(oldest deadline %s)" % (state["epoch"], since.strftime("%Y-%m-%dT%H:%M:%S.%f+0000"),
                                        since.strftime("%Y-%m-%dT%H:%M:%S.%f+0000"),
                                        (since + timedelta(seconds=20)).strftime("%Y-%m-%dT%H:%M:%S.%f+0000")))
            continue
        if in_slow and rng.random() < 0.7:
            n = rng.randint(1, 14)
            secs = "%d.%06d" % (rng.randint(30, 95), rng.randint(0, 999999))
            L(t, th["dispatch"], -1, "osd.7 %d get_health_metrics reporting %d slow ops, oldest is %s" % (state["epoch"], n, osdop()))
            L(clk.tick(0, 0.01), rng.choice(th["tp"]), 0, "log_channel(cluster) log [WRN] : %d slow requests, 1 included "
              "below; oldest blocked for > %s secs" % (n, secs), duration=ns_from_s(secs))
            ini = t - timedelta(seconds=int(float(secs)))
            L(clk.tick(0, 0.002), rng.choice(th["tp"]), 0, "log_channel(cluster) log [WRN] : slow request %s initiated %s "
              "currently waiting for sub ops" % (osdop(), ini.strftime("%Y-%m-%dT%H:%M:%S.%f+0000")))
            continue
        kind = wchoice(rng, [("scrub", 22), ("deep", 4), ("rocks", 8), ("event", 3), ("tick", 12), ("cephx", 1.5),
                             ("beacon", 20), ("compact", 2)])
        if kind == "scrub" or kind == "deep":
            pg = rng.choice(pgs)
            w = "scrub" if kind == "scrub" else "deep-scrub"
            tp = rng.choice(th["tp"])
            L(t, tp, 0, "log_channel(cluster) log [DBG] : %s %s starts" % (pg, w))
            L(clk.tick(0.2, 40 if kind == "deep" else 4), tp, 0, "log_channel(cluster) log [DBG] : %s %s ok" % (pg, w))
        elif kind == "rocks":
            state["job"] += 1
            state["log"] += 1
            L(t, th["rocksdb"], 4, "rocksdb: [db/flush_job.cc:1012] [default] [JOB %d] Flushing memtable with next log "
              "file: %d" % (state["job"], state["log"]))
            L(clk.tick(0, 0.001), th["rocksdb"], 4, "rocksdb: EVENT_LOG_v1 {\"time_micros\": %d, \"job\": %d, \"event\": "
              "\"flush_started\", \"num_memtables\": 1, \"num_entries\": %d, \"num_deletes\": %d, \"total_data_size\": %d, "
              "\"memory_usage\": %d, \"flush_reason\": \"Write Buffer Full\"}" % (
                  epoch(clk.t) * 1000000 + clk.t.microsecond, state["job"], rng.randint(20000, 90000),
                  rng.randint(100, 5000), rng.randint(10 ** 7, 4 * 10 ** 7), rng.randint(10 ** 7, 4 * 10 ** 7)))
            L(clk.tick(0.05, 0.4), th["rocksdb"], 4, "rocksdb: [db/flush_job.cc:1046] [default] [JOB %d] Level-0 flush "
              "table #%d: %d bytes OK" % (state["job"], rng.randint(9000, 12000), rng.randint(10 ** 6, 3 * 10 ** 7)))
        elif kind == "event":
            L(t, th["rocksdb"], 4, "rocksdb: (Original Log Time %s) [db/db_impl/db_impl_compaction_flush.cc:3390] "
              "[default] Moving #%d to level-1 %d bytes" % (t.strftime("%Y/%m/%d-%H:%M:%S.%f"), rng.randint(9000, 12000),
                                                          rng.randint(10 ** 6, 3 * 10 ** 7)))
        elif kind == "tick":
            L(t, th["dispatch"], 1, "osd.7 %d tick checking mon for new map" % state["epoch"])
        elif kind == "beacon":
            L(t, th["dispatch"], 5, "osd.7 %d heartbeat osd_stat(store_statfs(0x%x/0x0/0x3a381400000, data "
              "0x%x/0x%x, compress 0x0/0x0/0x0, omap 0x%x, meta 0x%x), peers [3,5,9,12,14] op hist [])" % (
                  state["epoch"], rng.randint(0x1000000000, 0x2000000000), rng.randint(0x1000000000, 0x2000000000),
                  rng.randint(0x1000000000, 0x2000000000), rng.randint(0x100000, 0x900000), rng.randint(0x10000000, 0x90000000)))
        elif kind == "cephx":
            L(t, th["dispatch"], 0, "cephx: verify_authorizer could not get service secret for service osd secret_id=%d"
              % rng.randint(1100, 1200))
        else:
            L(t, th["main"], 0, "bluestore(/var/lib/ceph/osd/ceph-7) _reclaim_free_space reclaimed %d bytes" %
              (rng.randint(1, 900) * 65536))

    c.check("top", role="thread")
    c.check("distinct", role="thread")
    c.check("count_contains", text="slow request")
    c.check("max", role="duration", unit="s")
    c.check("count_contains", text="FAILED ceph_assert")
    return c


# =====================================================================================
# f12  Logstash 8 logstash-plain.log
# =====================================================================================
def f12_logstash():
    rng = random.Random(4212)
    c = Case("f12-logstash-plain", "logstash-plain.log",
             "Logstash 8.12 logstash-plain.log ('[ISO8601][LEVEL][padded logger][pipeline][plugin] message')",
             ["FATAL", "ERROR", "WARN", "INFO", "DEBUG"])
    clk = Clock(rng, utc(2026, 3, 5, 22, 14, 9, 377000))
    end = utc(2026, 3, 6, 8, 30, 0)
    BEATS_ID = "f3b7c0d1e2a94c1b8e5d6a7b9c0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9"
    ES_ID = "es-fh-apps"
    GROK_ID = "grok-access"

    def L(t, level, logger, msg, pipeline=None, plugin=None, cont=None, exc=None):
        stamp = t.strftime("%Y-%m-%dT%H:%M:%S,") + "%03d" % (t.microsecond // 1000)
        head = "[%s][%-5s][%-25s]" % (stamp, level, logger)
        if pipeline:
            head += "[%s]" % pipeline
        if plugin:
            head += "[%s]" % plugin
        lines = [head + " " + msg] + (cont or [])
        return c.ev(t, level, lines, logger=logger, exception=exc)

    def startup():
        L(clk.t, "INFO", "logstash.runner", "Log4j configuration path used is: /usr/share/logstash/config/log4j2.properties")
        L(clk.tick(0.001, 0.01), "INFO", "logstash.runner", 'Starting Logstash {"logstash.version"=>"8.12.2", '
          '"jruby.version"=>"jruby 9.4.5.0 (3.1.4) 2023-11-02 1abae2700f OpenJDK 64-Bit Server VM 17.0.10+7 on 17.0.10+7 '
          '+indy +jit [x86_64-linux]"}')
        L(clk.tick(0.001, 0.01), "INFO", "logstash.runner", "JVM bootstrap flags: [-Xms1g, -Xmx1g, "
          "-Djava.awt.headless=true, -Dfile.encoding=UTF-8, -Djruby.compile.invokedynamic=true, "
          "-XX:+HeapDumpOnOutOfMemoryError, -Djava.security.egd=file:/dev/urandom, "
          "-Dlog4j2.isThreadContextMapInheritable=true, -Dlogstash.jackson.stream-read-constraints.max-string-length=200000000, "
          "-Dlogstash.jackson.stream-read-constraints.max-number-length=10000, -Djruby.regexp.interruptible=true, "
          "-Djdk.io.File.enableADS=true, --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED, "
          "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED, "
          "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED, "
          "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED, "
          "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED, --add-opens=java.base/java.security=ALL-UNNAMED, "
          "--add-opens=java.base/java.io=ALL-UNNAMED, --add-opens=java.base/java.nio.channels=ALL-UNNAMED, "
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED, --add-opens=java.management/sun.management=ALL-UNNAMED, "
          "-Dio.netty.allocator.maxOrder=11]")
        L(clk.tick(0.5, 2), "INFO", "logstash.agent", "Successfully started Logstash API endpoint {:port=>9600, :ssl_enabled=>false}")
        L(clk.tick(0.2, 1), "INFO", "org.reflections.Reflections", "Reflections took %d ms to scan 1 urls, producing 132 keys "
          "and 468 values" % rng.randint(90, 200))
        L(clk.tick(0.2, 1), "INFO", "logstash.javapipeline", "Pipeline `main` is configured with "
          "`pipeline.ecs_compatibility: v8` setting. All plugins in this pipeline will default to `ecs_compatibility => v8` "
          "unless explicitly configured otherwise.")
        L(clk.tick(0.01, 0.1), "INFO", "logstash.outputs.elasticsearch", 'New Elasticsearch output {:class=>'
          '"LogStash::Outputs::ElasticSearch", :hosts=>["https://10.70.0.5:9200", "https://10.70.0.6:9200"]}', "main")
        L(clk.tick(0.01, 0.1), "INFO", "logstash.outputs.elasticsearch", "Elasticsearch pool URLs updated {:changes=>"
          "{:removed=>[], :added=>[https://logstash_writer:xxxxxx@10.70.0.5:9200/, https://logstash_writer:xxxxxx@10.70.0.6:9200/]}}",
          "main")
        for ip in ("10.70.0.5", "10.70.0.6"):
            L(clk.tick(0.05, 0.3), "WARN", "logstash.outputs.elasticsearch", 'Restored connection to ES instance {:url=>'
              '"https://logstash_writer:xxxxxx@%s:9200/"}' % ip, "main")
        L(clk.tick(0.01, 0.1), "INFO", "logstash.outputs.elasticsearch", "Elasticsearch version determined (8.12.2) "
          "{:es_version=>8}", "main")
        L(clk.tick(0.05, 0.3), "INFO", "logstash.javapipeline", 'Starting pipeline {:pipeline_id=>"main", '
          '"pipeline.workers"=>4, "pipeline.batch.size"=>125, "pipeline.batch.delay"=>50, "pipeline.max_inflight"=>500, '
          '"pipeline.sources"=>["/usr/share/logstash/pipeline/fh-apps.conf"], :thread=>"#<Thread:0x%08x '
          '/usr/share/logstash/logstash-core/lib/logstash/java_pipeline.rb:134 run>"}' % rng.getrandbits(32), "main")
        L(clk.tick(0.5, 1.2), "INFO", "logstash.javapipeline", 'Pipeline Java execution initialization time '
          '{"seconds"=>%.2f}' % rng.uniform(0.5, 1.2), "main")
        L(clk.tick(0.01, 0.1), "INFO", "logstash.inputs.beats", 'Starting input listener {:address=>"0.0.0.0:5044"}', "main")
        L(clk.tick(0.01, 0.1), "INFO", "logstash.javapipeline", 'Pipeline started {"pipeline.id"=>"main"}', "main")
        L(clk.tick(0.001, 0.02), "INFO", "org.logstash.beats.Server", "Starting server on port: 5044", "main", BEATS_ID)
        L(clk.tick(0.01, 0.1), "INFO", "logstash.agent", "Pipelines running {:count=>1, :running_pipelines=>[:main], "
          ":non_running_pipelines=>[]}")

    startup()
    es_down = (utc(2026, 3, 6, 1, 40, 0), utc(2026, 3, 6, 1, 52, 0))
    debug_win = (utc(2026, 3, 6, 3, 0, 0), utc(2026, 3, 6, 3, 6, 0))
    fatal_at = utc(2026, 3, 6, 5, 27, 0)
    fataled = False
    beats = ["10.70.1.%d" % i for i in (23, 24, 31, 40, 41, 57)]
    netty_trace = ["java.net.SocketException: Connection reset",
                   "\tat sun.nio.ch.SocketChannelImpl.throwConnectionReset(SocketChannelImpl.java:401) ~[?:?]",
                   "\tat sun.nio.ch.SocketChannelImpl.read(SocketChannelImpl.java:434) ~[?:?]",
                   "\tat io.netty.buffer.PooledByteBuf.setBytes(PooledByteBuf.java:254) ~[netty-buffer-4.1.100.Final.jar:4.1.100.Final]",
                   "\tat io.netty.buffer.AbstractByteBuf.writeBytes(AbstractByteBuf.java:1132) ~[netty-buffer-4.1.100.Final.jar:4.1.100.Final]",
                   "\tat io.netty.channel.socket.nio.NioSocketChannel.doReadBytes(NioSocketChannel.java:357) ~[netty-transport-4.1.100.Final.jar:4.1.100.Final]",
                   "\tat io.netty.channel.nio.AbstractNioByteChannel$NioByteUnsafe.read(AbstractNioByteChannel.java:151) ~[netty-transport-4.1.100.Final.jar:4.1.100.Final]",
                   "\tat io.netty.channel.nio.NioEventLoop.processSelectedKey(NioEventLoop.java:788) ~[netty-transport-4.1.100.Final.jar:4.1.100.Final]",
                   "\tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:566) ~[netty-transport-4.1.100.Final.jar:4.1.100.Final]",
                   "\tat io.netty.util.concurrent.SingleThreadEventExecutor$4.run(SingleThreadEventExecutor.java:997) ~[netty-common-4.1.100.Final.jar:4.1.100.Final]",
                   "\tat java.lang.Thread.run(Thread.java:840) [?:?]"]
    while clk.t < end:
        t = clk.tick(3, 110)
        if not fataled and t >= fatal_at:
            fataled = True
            L(t, "ERROR", "logstash.javapipeline", 'Pipeline worker error, the pipeline will be stopped {:pipeline_id=>"main", '
              ':error=>"(ArgumentError) invalid byte sequence in UTF-8", :exception=>Java::OrgJrubyExceptions::ArgumentError, '
              ':backtrace=>["org.jruby.RubyString.gsub(org/jruby/RubyString.java:3013)", '
              '"usr.share.logstash.vendor.bundle.jruby.$3_dot_1_dot_0.gems.logstash_minus_filter_minus_mutate_minus_3_dot_5_dot_8.'
              'lib.logstash.filters.mutate.gsub_dynamic_fields(/usr/share/logstash/vendor/bundle/jruby/3.1.0/gems/'
              'logstash-filter-mutate-3.5.8/lib/logstash/filters/mutate.rb:367)", "org.jruby.RubyArray.each(org/jruby/'
              'RubyArray.java:1989)", "usr.share.logstash.logstash_minus_core.lib.logstash.java_pipeline.worker_loop('
              '/usr/share/logstash/logstash-core/lib/logstash/java_pipeline.rb:304)"], :thread=>"#<Thread:0x4d1e7f2a@'
              '/usr/share/logstash/logstash-core/lib/logstash/java_pipeline.rb:134 sleep>"}', "main")
            L(clk.tick(0.5, 2), "INFO", "logstash.javapipeline", 'Pipeline terminated {"pipeline.id"=>"main"}', "main")
            L(clk.tick(0.1, 0.5), "FATAL", "org.logstash.Logstash", "Logstash stopped processing because of an error: "
              "(SystemExit) exit", cont=[
                  "org.jruby.exceptions.SystemExit: (SystemExit) exit",
                  "\tat org.jruby.RubyKernel.exit(org/jruby/RubyKernel.java:921) ~[jruby.jar:?]",
                  "\tat org.jruby.RubyKernel.exit(org/jruby/RubyKernel.java:880) ~[jruby.jar:?]",
                  "\tat usr.share.logstash.lib.bootstrap.environment.<main>(/usr/share/logstash/lib/bootstrap/environment.rb:90) ~[?:?]"],
              exc="org.jruby.exceptions.SystemExit")
            clk.tick(12, 20)
            startup()
            continue
        if debug_win[0] <= t < debug_win[1]:
            m = rng.choice([
                ("logstash.instrument.periodicpoller.cgroup", "One or more required cgroup files or directories not found: "
                 "/proc/self/cgroup, /sys/fs/cgroup/cpuacct, /sys/fs/cgroup/cpu", None),
                ("org.logstash.execution.PeriodicFlush", "Pushing flush onto pipeline.", "main"),
                ("logstash.instrument.periodicpoller.jvm", 'collector name {:name=>"G1 Young Generation"}', None),
                ("logstash.instrument.periodicpoller.jvm", 'collector name {:name=>"G1 Old Generation"}', None)])
            L(t, "DEBUG", m[0], m[1], m[2])
            continue
        if es_down[0] <= t < es_down[1]:
            if rng.random() < 0.5:
                L(t, "ERROR", "logstash.outputs.elasticsearch", 'Attempted to send a bulk request but Elasticsearch appears '
                  'to be unreachable or down {:message=>"Elasticsearch Unreachable: [https://logstash_writer:xxxxxx@10.70.0.6:'
                  '9200/][Manticore::SocketTimeout] Read timed out", :exception=>LogStash::Outputs::ElasticSearch::HttpClient::'
                  'Pool::HostUnreachableError, :will_retry_in_seconds=>%d}' % rng.choice([2, 4, 8, 16, 32, 64]), "main", ES_ID)
            else:
                L(t, "WARN", "logstash.outputs.elasticsearch", 'Attempted to resurrect connection to dead ES instance, but '
                  'got an error {:url=>"https://logstash_writer:xxxxxx@10.70.0.6:9200/", :exception=>LogStash::Outputs::'
                  'ElasticSearch::HttpClient::Pool::HostUnreachableError, :message=>"Elasticsearch Unreachable: '
                  '[https://10.70.0.6:9200/][Manticore::ConnectTimeout] Connect to 10.70.0.6:9200 [/10.70.0.6] failed: '
                  'connect timed out"}', "main")
            if clk.t + timedelta(seconds=75) >= es_down[1]:
                clk.t = es_down[1]
                L(clk.tick(0, 3), "WARN", "logstash.outputs.elasticsearch", 'Restored connection to ES instance {:url=>'
                  '"https://logstash_writer:xxxxxx@10.70.0.6:9200/"}', "main")
            continue
        kind = wchoice(rng, [("reset", 30), ("netty", 4), ("index", 9), ("grok", 6), ("slowlog", 3), ("dlq", 1)])
        ip = rng.choice(beats)
        if kind == "reset":
            L(t, "INFO", "org.logstash.beats.BeatsHandler", "[local: 10.70.0.9:5044, remote: %s:%d] Handling exception: "
              "java.net.SocketException: Connection reset (caused by: java.net.SocketException: Connection reset)"
              % (ip, rng.randint(32768, 60999)), "main", BEATS_ID, exc="java.net.SocketException")
        elif kind == "netty":
            L(t, "WARN", "io.netty.channel.DefaultChannelPipeline", "An exceptionCaught() event was fired, and it reached at "
              "the tail of the pipeline. It usually means the last handler in the pipeline did not handle the exception.",
              "main", BEATS_ID, netty_trace, exc="java.net.SocketException")
        elif kind == "index":
            doc_id = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(20))
            svc = rng.choice(["route-planner", "order-api", "fh-portal"])
            msg = rng.choice(['GET /api/shipments/%d 200 OK' % rng.randint(1, 90000),
                              'Zustellung an Müller GmbH bestätigt (Tour %d)' % rng.randint(100, 999),
                              'POST /v2/orders 201 Created'])
            L(t, "WARN", "logstash.outputs.elasticsearch", 'Could not index event to Elasticsearch. status: 400, action: '
              '["index", {:_id=>nil, :_index=>"fh-apps-2026.03.%02d", :routing=>nil}, {"@timestamp"=>%s, "message"=>"%s", '
              '"service"=>{"name"=>"%s"}, "host"=>{"name"=>"%s", "ip"=>["%s"]}, "http"=>{"response"=>{"status_code"=>"OK"}}, '
              '"event"=>{"original"=>"%s"}, "@version"=>"1", "ecs"=>{"version"=>"8.0.0"}, "agent"=>{"type"=>"filebeat", '
              '"version"=>"8.12.2"}}], response: {"index"=>{"status"=>400, "error"=>{"type"=>"document_parsing_exception", '
              '"reason"=>"[1:%d] failed to parse field [http.response.status_code] of type [long] in document with id '
              '\'%s\'. Preview of field\'s value: \'OK\'", "caused_by"=>{"type"=>"illegal_argument_exception", '
              '"reason"=>"For input string: \\"OK\\""}}}}' % (
                  t.day, t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000), msg, svc,
                  "%s-%02d" % (svc, rng.randint(1, 6)), ip, msg, rng.randint(200, 900), doc_id), "main", ES_ID)
        elif kind == "grok":
            L(t, "WARN", "logstash.filters.grok", "Timeout executing grok '%%{COMBINEDAPACHELOG}' against field 'message' "
              "with value 'Value too large to output (%d bytes)! First 255 chars are: %s - - [%s +0000] \"GET "
              "/api/shipments/export?from=2026-01-01&to=2026-03-31&format=csv&fields=id,status,depot,eta,driver,"
              "customer,weight_kg,volume_m3,notes HTTP/1.1\" 200 8812345 \"-\" \"Mozilla/5.0 (Windows NT 10.0; Win64; x'"
              % (rng.randint(2000, 9000), ip, t.strftime("%d/%b/%Y:%H:%M:%S")), "main", GROK_ID)
        elif kind == "slowlog":
            L(t, "WARN", "logstash.filters.ruby", "Ruby exception occurred: undefined method `downcase' for nil:NilClass "
              "{:class=>\"NoMethodError\", :backtrace=>[\"(ruby filter code):3:in `block in filter_method'\"]}", "main", "ruby-normalize")
        else:
            L(t, "WARN", "org.logstash.common.io.DeadLetterQueueWriter", "Cannot write event to DLQ(path: "
              "/usr/share/logstash/data/dead_letter_queue/main): reached maxQueueSize of 1073741824", "main")

    c.check("top", role="logger")
    c.check("count_where", role="logger", value="logstash.outputs.elasticsearch")
    c.check("distinct", role="logger")
    c.check("count_contains", text="document_parsing_exception")
    c.check("count_where", role="exception", value="java.net.SocketException")
    return c


CASES = [f09_wincsv, f10_ansible, f11_ceph, f12_logstash]
