"""Cases f01-f04: etcd capnslog, Postfix maillog, OpenVPN, Jetty StdErrLog."""
import random
from datetime import timedelta

from gen_common import (Case, Clock, DAYS, MONTHS, go_duration, ns_from_s, utc, wchoice)


# =====================================================================================
# f01  etcd 3.3 capnslog
# =====================================================================================
ETCD_LV = {"C": "CRITICAL", "E": "ERROR", "W": "WARN", "N": "NOTICE", "I": "INFO", "D": "DEBUG"}
ETCD_SELF = "8211f1d0f64f3269"
ETCD_PEERS = ["91bc3c398fb3c146", "fd422379fda50e48"]
ETCD_PEER_IP = {"91bc3c398fb3c146": "10.20.0.12", "fd422379fda50e48": "10.20.0.13"}

K8S_PREFIXES = [
    "/registry/pods/fh-prod/", "/registry/pods/kube-system/", "/registry/events/",
    "/registry/configmaps/fh-prod/", "/registry/secrets/fh-prod/", "/registry/deployments/fh-prod/",
    "/registry/services/endpoints/fh-prod/", "/registry/minions/", "/registry/jobs/fh-batch/",
]
K8S_KEYS = [
    "/registry/leases/kube-node-lease/fh-node-07", "/registry/leases/kube-system/kube-controller-manager",
    "/registry/services/endpoints/default/kubernetes", "/registry/deployments/fh-prod/checkout-api",
    "/registry/configmaps/fh-prod/route-planner-config", "/registry/leases/kube-system/kube-scheduler",
    "/registry/health", "/registry/pods/fh-prod/dispatch-worker-6c9f7d-x2kqp",
]


def f01_etcd():
    rng = random.Random(3101)
    c = Case("f01-etcd-capnslog", "etcd.log",
             "etcd 3.3 server log (capnslog text: 'YYYY-MM-DD HH:MM:SS.ffffff L | package: message')",
             ["CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG"])
    clk = Clock(rng, utc(2026, 2, 17, 8, 12, 3, 118402))
    end = utc(2026, 2, 17, 17, 31, 0)

    def L(t, letter, pkg, msg, dur=None):
        line = "%s %s | %s: %s" % (t.strftime("%Y-%m-%d %H:%M:%S.%f"), letter, pkg, msg)
        return c.ev(t, ETCD_LV[letter], [line], logger=pkg, duration=dur)

    state = {"commit": 3528122, "rev": 2617301, "term": 41, "snap": 3500031, "wal": 0x12}

    def startup(restart):
        t = clk.tick(0, 0.001)
        banner = [
            ("I", "etcdmain", "etcd Version: 3.3.27"),
            ("I", "etcdmain", "Git SHA: 973882f69"),
            ("I", "etcdmain", "Go Version: go1.12.17"),
            ("I", "etcdmain", "Go OS/Arch: linux/amd64"),
            ("I", "etcdmain", "setting maximum number of CPUs to 8, total number of available CPUs is 8"),
            ("N", "etcdmain", "the server is already initialized as member before, starting as etcd member..."),
            ("I", "embed", "peerTLS: cert = /etc/etcd/pki/peer.crt, key = /etc/etcd/pki/peer.key, ca = , "
                           "trusted-ca = /etc/etcd/pki/ca.crt, client-cert-auth = true, crl-file = "),
            ("I", "embed", "listening for peers on https://10.20.0.11:2380"),
            ("I", "embed", "listening for client requests on 10.20.0.11:2379"),
            ("I", "etcdserver", "name = etcd-fh-1"),
            ("I", "etcdserver", "data dir = /var/lib/etcd"),
            ("I", "etcdserver", "member dir = /var/lib/etcd/member"),
            ("I", "etcdserver", "heartbeat = 100ms"),
            ("I", "etcdserver", "election = 1000ms"),
            ("I", "etcdserver", "snapshot count = 100000"),
            ("I", "etcdserver", "advertise client URLs = https://10.20.0.11:2379"),
            ("I", "etcdserver", "restarting member %s in cluster ef37ad9dc622a7c4 at commit index %d"
             % (ETCD_SELF, state["commit"])),
            ("I", "raft", "%s became follower at term %d" % (ETCD_SELF, state["term"])),
            ("I", "raft", "newRaft %s [peers: [], term: %d, commit: %d, applied: %d, lastindex: %d, lastterm: %d]"
             % (ETCD_SELF, state["term"], state["commit"], state["snap"], state["commit"], state["term"])),
            ("I", "mvcc", "restore compact to %d" % state["rev"]),
            ("I", "etcdserver", "starting server... [version: 3.3.27, cluster version: to_be_decided]"),
        ]
        for p in ETCD_PEERS:
            banner += [
                ("I", "rafthttp", "started HTTP pipelining with peer %s" % p),
                ("I", "rafthttp", "starting peer %s..." % p),
                ("I", "rafthttp", "started streaming with peer %s (writer)" % p),
                ("I", "rafthttp", "started peer %s" % p),
                ("I", "rafthttp", "added peer %s" % p),
            ]
        for lt, pkg, msg in banner:
            L(clk.tick(0.0005, 0.02), lt, pkg, msg)
        if restart:
            # the gRPC library logs through Go's std log, not capnslog
            for _ in range(3):
                t = clk.tick(0.01, 0.4)
                line = ("WARNING: %s grpc: addrConn.createTransport failed to connect to {10.20.0.11:2379 0  <nil>}. "
                        "Err :connection error: desc = \"transport: authentication handshake failed: remote error: "
                        "tls: bad certificate\". Reconnecting..." % t.strftime("%Y/%m/%d %H:%M:%S"))
                c.ev(t, "WARN", [line])
        for p in ETCD_PEERS:
            for kind in ("stream Message reader", "stream MsgApp v2 reader"):
                L(clk.tick(0.001, 0.05), "I", "rafthttp",
                  "established a TCP streaming connection with peer %s (%s)" % (p, kind))
            L(clk.tick(0.001, 0.05), "I", "rafthttp", "peer %s became active" % p)
        state["term"] += 1
        L(clk.tick(0.05, 0.9), "I", "raft", "%s [term: %d] received a MsgHeartbeat message with higher term from %s [term: %d]"
          % (ETCD_SELF, state["term"] - 1, ETCD_PEERS[0], state["term"]))
        L(clk.tick(0, 0.001), "I", "raft", "%s became follower at term %d" % (ETCD_SELF, state["term"]))
        L(clk.tick(0, 0.001), "I", "raft", "raft.node: %s elected leader %s at term %d" % (ETCD_SELF, ETCD_PEERS[0], state["term"]))
        if restart:
            L(clk.tick(5, 7.5), "E", "etcdserver", "publish error: etcdserver: request timed out")
        L(clk.tick(0.01, 0.3), "I", "etcdserver",
          "published {Name:etcd-fh-1 ClientURLs:[https://10.20.0.11:2379]} to cluster ef37ad9dc622a7c4")
        L(clk.tick(0, 0.001), "I", "embed", "ready to serve client requests")
        L(clk.tick(0, 0.003), "I", "embed", "serving client requests on 10.20.0.11:2379")
        if not restart:
            L(clk.tick(0.1, 0.5), "N", "etcdserver/membership", "set the initial cluster version to 3.3")
            L(clk.tick(0, 0.001), "I", "etcdserver/api", "enabled capabilities for version 3.3")

    def range_req():
        if rng.random() < 0.6:
            pre = rng.choice(K8S_PREFIXES)
            end_key = pre[:-1] + "0"
            n = rng.randint(0, 420)
            size = 120 + n * rng.randint(900, 4200)
            co = " count_only:true" if pre == "/registry/events/" and rng.random() < 0.5 else ""
            if co:
                res = "range_response_count:0 size:%d" % rng.randint(7, 9)
            else:
                res = "range_response_count:%d size:%d" % (n, size)
            req = 'key:\\"%s\\" range_end:\\"%s\\"%s ' % (pre, end_key, co)
        else:
            key = rng.choice(K8S_KEYS)
            req = 'key:\\"%s\\" ' % key
            res = "range_response_count:1 size:%d" % rng.randint(180, 9000)
        if rng.random() < 0.04:
            ns = rng.randint(1_000_000_000, 2_900_000_000)
        else:
            ns = rng.randint(100_000_000, 640_000_000)
        return 'read-only range request "%s" with result "%s" took too long (%s) to execute' % (
            req, res, go_duration(ns)), ns

    def txn_req():
        key = rng.choice(["/registry/configmaps/fh-prod/route-planner-config",
                          "/registry/leases/kube-node-lease/fh-node-%02d" % rng.randint(1, 14),
                          "/registry/pods/fh-prod/dispatch-worker-6c9f7d-%s" % "".join(
                              rng.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(5))])
        rid = rng.randint(7587853284871000000, 7587853284879999999)
        mod = state["rev"] + rng.randint(1000, 90000)
        ns = rng.randint(100_000_000, 420_000_000)
        msg = ('request "header:<ID:%d username:\\"kube-apiserver-etcd-client\\" auth_revision:1 > '
               'txn:<compare:<target:MOD key:\\"%s\\" mod_revision:%d > success:<request_put:<key:\\"%s\\" '
               'value_size:%d >> failure:<request_range:<key:\\"%s\\" > >>" with result "size:%d" took too long (%s) to execute'
               % (rid, key, mod, key, rng.randint(300, 24000), key, rng.choice([18, 20, 22]), go_duration(ns)))
        return msg, ns

    startup(False)
    next_compact = clk.t + timedelta(minutes=5)
    next_snap = clk.t + timedelta(minutes=rng.randint(30, 50))
    outages = [(utc(2026, 2, 17, 10, 4, 0), utc(2026, 2, 17, 10, 7, 30)),
               (utc(2026, 2, 17, 14, 41, 0), utc(2026, 2, 17, 14, 43, 10))]
    crash_at = utc(2026, 2, 17, 12, 52, 0)
    crashed = False
    out_state = {}
    while clk.t < end:
        t = clk.tick(2.0, 50.0)
        if t >= next_compact:
            state["rev"] += rng.randint(9000, 16000)
            L(t, "I", "mvcc", "store.index: compact %d" % state["rev"])
            ns = rng.randint(400_000, 4_800_000)
            L(clk.tick(0.0005, 0.006), "I", "mvcc", "finished scheduled compaction at %d (took %s)"
              % (state["rev"], go_duration(ns)), dur=ns)
            next_compact += timedelta(minutes=5)
            continue
        if t >= next_snap:
            state["commit"] += rng.randint(90000, 110000)
            applied = state["commit"]
            L(t, "I", "etcdserver", "start to snapshot (applied: %d, lastsnap: %d)" % (applied, state["snap"]))
            L(clk.tick(0.005, 0.06), "I", "etcdserver", "saved snapshot at index %d" % applied)
            L(clk.tick(0.001, 0.01), "I", "etcdserver", "compacted raft log at %d" % (applied - 5000))
            state["snap"] = applied
            state["wal"] += 1
            L(clk.tick(0.01, 0.5), "I", "wal", "segmented wal file /var/lib/etcd/member/wal/%016x-%016x.wal is created"
              % (state["wal"], applied + 1))
            L(clk.tick(1, 25), "I", "pkg/fileutil", "purged file /var/lib/etcd/member/snap/%016x-%016x.snap successfully"
              % (state["term"], applied - 500000))
            next_snap = clk.t + timedelta(minutes=rng.randint(35, 55))
            continue
        if not crashed and t >= crash_at:
            crashed = True
            msg = "cannot commit tx (write /var/lib/etcd/member/snap/db: no space left on device)"
            e = L(t, "C", "mvcc/backend", msg)
            gopath = "/tmp/etcd-release-3.3.27/etcd/release/etcd/gopath/src/github.com/coreos/etcd"
            c.append_lines([
                "panic: " + msg,
                "",
                "goroutine 187 [running]:",
                "github.com/coreos/etcd/cmd/vendor/github.com/coreos/pkg/capnslog.(*PackageLogger).Panicf(0xc4201b4f60, 0x10a3b2d, 0x17, 0xc42128bd70, 0x1, 0x1)",
                "\t%s/cmd/vendor/github.com/coreos/pkg/capnslog/pkg_logger.go:75 +0x16a" % gopath,
                "github.com/coreos/etcd/cmd/vendor/github.com/coreos/etcd/mvcc/backend.(*batchTx).commit(0xc4201c2a80, 0xc420132d00)",
                "\t%s/cmd/vendor/github.com/coreos/etcd/mvcc/backend/batch_tx.go:200 +0x2f6" % gopath,
                "github.com/coreos/etcd/cmd/vendor/github.com/coreos/etcd/mvcc/backend.(*batchTxBuffered).unsafeCommit(0xc4201c2a80, 0xc420132d00)",
                "\t%s/cmd/vendor/github.com/coreos/etcd/mvcc/backend/batch_tx.go:264 +0x61" % gopath,
                "github.com/coreos/etcd/cmd/vendor/github.com/coreos/etcd/mvcc/backend.(*batchTxBuffered).commit(0xc4201c2a80, 0xc420132d00)",
                "\t%s/cmd/vendor/github.com/coreos/etcd/mvcc/backend/batch_tx.go:252 +0x80" % gopath,
                "github.com/coreos/etcd/cmd/vendor/github.com/coreos/etcd/mvcc/backend.(*backend).run(0xc4201c0000)",
                "\t%s/cmd/vendor/github.com/coreos/etcd/mvcc/backend/backend.go:247 +0x1b1" % gopath,
                "created by github.com/coreos/etcd/cmd/vendor/github.com/coreos/etcd/mvcc/backend.newBackend",
                "\t%s/cmd/vendor/github.com/coreos/etcd/mvcc/backend/backend.go:154 +0x3a8" % gopath,
            ])
            clk.tick(240, 420)  # operator frees the disk, systemd restarts the unit
            startup(True)
            continue
        in_out = None
        for a, b in outages:
            if a <= t < b:
                in_out = (a, b)
        if in_out:
            p = ETCD_PEERS[1]
            if out_state.get(in_out) is None:
                out_state[in_out] = True
                L(t, "W", "rafthttp", "lost the TCP streaming connection with peer %s (stream MsgApp v2 reader)" % p)
                L(clk.tick(0, 0.01), "E", "rafthttp", "failed to read %s on stream MsgApp v2 (read tcp 10.20.0.11:2380->%s:%d: i/o timeout)"
                  % (p, ETCD_PEER_IP[p], rng.randint(40000, 60000)))
                L(clk.tick(0, 0.01), "I", "rafthttp", "peer %s became inactive (message send to peer failed)" % p)
                L(clk.tick(0, 0.02), "W", "rafthttp", "lost the TCP streaming connection with peer %s (stream Message reader)" % p)
            L(t, "W", "rafthttp", "health check for peer %s could not connect: dial tcp %s:2380: connect: connection refused"
              % (p, ETCD_PEER_IP[p]))
            if clk.t + timedelta(seconds=40) >= in_out[1]:
                clk.t = max(clk.t, in_out[1])
                L(clk.tick(0, 1), "I", "rafthttp", "peer %s became active" % p)
                for kind in ("stream Message reader", "stream MsgApp v2 reader"):
                    L(clk.tick(0.001, 0.05), "I", "rafthttp",
                      "established a TCP streaming connection with peer %s (%s)" % (p, kind))
            continue
        kind = wchoice(rng, [("range", 36), ("txn", 6), ("apply", 9), ("hb", 5), ("readidx", 3),
                             ("watch", 5), ("reject", 4), ("large", 2), ("elect", 0.6)])
        if kind == "range":
            msg, ns = range_req()
            L(t, "W", "etcdserver", msg, dur=ns)
        elif kind == "txn":
            msg, ns = txn_req()
            L(t, "W", "etcdserver", msg, dur=ns)
        elif kind == "apply":
            ns = rng.randint(100_000_000, 900_000_000)
            L(t, "W", "etcdserver", "apply entries took too long [%s for %d entries]" % (go_duration(ns), rng.choice([1, 1, 1, 2, 3])), dur=ns)
            if rng.random() < 0.5:
                L(clk.tick(0, 0.001), "W", "etcdserver", "avoid queries with large range/delete range!")
        elif kind == "hb":
            L(t, "W", "etcdserver", "failed to send out heartbeat on time (exceeded the 100ms timeout for %s, to %s)"
              % (go_duration(rng.randint(5_000_000, 95_000_000)), rng.choice(ETCD_PEERS)))
            L(clk.tick(0, 0.001), "W", "etcdserver", "server is likely overloaded")
        elif kind == "readidx":
            L(t, "W", "etcdserver", "timed out waiting for read index response (local node might have slow network)")
        elif kind == "watch":
            L(t, "W", "etcdserver/api/v3rpc", 'failed to receive watch request from gRPC stream ("rpc error: code = '
              'Unavailable desc = client disconnected")')
        elif kind == "reject":
            L(t, "W", "embed", 'rejected connection from "10.20.%d.%d:%d" (error "remote error: tls: bad certificate", ServerName "")'
              % (rng.choice([4, 4, 9]), rng.randint(10, 60), rng.randint(32768, 60999)))
        elif kind == "large":
            L(t, "W", "etcdserver", "failed to apply request \"header:<ID:%d > lease_revoke:<id:%x>\" with response \"size:29\" "
              "took (%s) to execute, err is lease not found" % (rng.randint(10 ** 17, 10 ** 18), rng.randint(2 ** 60, 2 ** 62),
                                                                go_duration(rng.randint(30_000, 900_000))))
        elif kind == "elect":
            state["term"] += 1
            L(t, "I", "raft", "%s [term: %d] received a MsgVote message with higher term from %s [term: %d]"
              % (ETCD_SELF, state["term"] - 1, ETCD_PEERS[1], state["term"]))
            L(clk.tick(0, 0.001), "I", "raft", "%s became follower at term %d" % (ETCD_SELF, state["term"]))
            L(clk.tick(0, 0.001), "I", "raft", "%s [logterm: %d, index: %d, vote: 0] cast MsgVote for %s [logterm: %d, index: %d] at term %d"
              % (ETCD_SELF, state["term"] - 1, state["commit"], ETCD_PEERS[1], state["term"] - 1, state["commit"], state["term"]))
            L(clk.tick(0, 0.001), "I", "raft", "raft.node: %s lost leader %s at term %d" % (ETCD_SELF, ETCD_PEERS[0], state["term"]))
            L(clk.tick(0.01, 0.2), "I", "raft", "raft.node: %s elected leader %s at term %d" % (ETCD_SELF, ETCD_PEERS[1], state["term"]))

    c.check("top", role="logger")
    c.check("count_where", role="logger", value="rafthttp")
    c.check("max", role="duration", unit="ms")
    c.check("count_contains", text="took too long")
    c.check("distinct", role="logger")
    c.check("count_contains", text="no space left on device")
    return c


# =====================================================================================
# f02  Postfix maillog (syslog-wrapped, no year)
# =====================================================================================
PF_PARTNERS = [("mail.spedition-kraus.example", "198.51.100.23"), ("mx2.portline.example", "198.51.100.41"),
               ("smtp.harborfreight-partners.example", "198.51.100.58"), ("out.mailgun-relay.example", "203.0.113.17"),
               ("mta7.bankofnowhere.example", "203.0.113.30"), ("smtp-out.tiendas-sol.example", "198.51.100.99"),
               ("mail.nordlicht-logistik.example", "198.51.100.112"), ("relay.acme-tooling.example", "203.0.113.66")]
PF_SPAM = ["203.0.113.%d" % i for i in (141, 142, 177, 189, 201, 203, 219, 240)] + \
          ["192.0.2.%d" % i for i in (15, 77, 88, 130, 191)]
PF_LOCAL_USERS = ["j.morales", "a.kowalski", "l.nguyen", "z.brandt", "o.nystrom", "k.tanaka", "p.silva", "m.okafor",
                  "s.oconnor", "r.haddad"]
PF_INTERNAL_CLIENTS = ["10.30.4.%d" % i for i in (21, 22, 37, 48, 53, 61, 75)]
PF_EXT_DOMAINS = [("mx.customer-one.example", "203.0.113.90"), ("mx1.lagoon-freight.example", "192.0.2.55"),
                  ("aspmx.l.examplemail.example", "203.0.113.120"), ("mail.kuehne-partner.example", "198.51.100.140"),
                  ("mx.tokyo-shipping.example", "198.51.100.161")]


def f02_postfix():
    rng = random.Random(3202)
    c = Case("f02-postfix-maillog", "maillog",
             "Postfix 3.5 + OpenDKIM via rsyslog (RFC 3164 syslog lines, no year)", ["FATAL", "WARN"])
    start = utc(2026, 3, 14, 8, 0, 0)
    end = utc(2026, 3, 15, 7, 20, 0)
    lines = []  # (time, seq, program, pid, msg, fields)
    seq = [0]

    def add(t, prog, pid, msg, **f):
        seq[0] += 1
        lines.append((t, seq[0], prog, pid, msg, f))

    pidpool = {"smtpd": [rng.randint(20000, 29999) for _ in range(4)],
               "submission/smtpd": [rng.randint(20000, 29999)], "cleanup": [rng.randint(20000, 29999)],
               "lmtp": [rng.randint(20000, 29999)], "smtp": [rng.randint(20000, 29999) for _ in range(2)],
               "bounce": [rng.randint(20000, 29999)], "pickup": [rng.randint(20000, 29999)]}
    QMGR, MASTER, ANVIL, DKIM = 1187, 1180, rng.randint(20000, 29999), 812

    def pid(kind, t):
        if rng.random() < 0.01:
            pidpool[kind][rng.randrange(len(pidpool[kind]))] = rng.randint(30000, 45000)
        return rng.choice(pidpool[kind])

    def qid():
        return "".join(rng.choice("0123456789ABCDEF") for _ in range(11))

    def dtime(t):
        return t + timedelta(microseconds=rng.randint(20_000, 900_000))

    def delays():
        a, b, cc, d = (rng.randint(1, 80) / 100, rng.randint(0, 5) / 100, rng.randint(1, 30) / 100,
                       rng.randint(1, 120) / 100)
        return a, b, cc, d

    def fmt_delays(parts):
        def g(x):
            return ("%.2f" % x).rstrip("0").rstrip(".") if x >= 0.01 else "0"
        total = sum(parts)
        if total < 1:
            tot = "%.2g" % total
        elif total < 10:
            tot = "%.1f" % total
        else:
            tot = "%d" % total
        assert "e" not in tot
        return tot, "/".join(g(x) for x in parts)

    seen_clients = []

    def inbound(t):
        host, ip = rng.choice(PF_PARTNERS)
        seen_clients.append(ip)
        p = pid("smtpd", t)
        q = qid()
        add(t, "postfix/smtpd", p, "connect from %s[%s]" % (host, ip), client=ip)
        t = dtime(t)
        add(t, "postfix/smtpd", p, "Anonymous TLS connection established from %s[%s]: TLSv1.3 with cipher "
            "TLS_AES_256_GCM_SHA384 (256/256 bits) key-exchange X25519 server-signature RSA-PSS (2048 bits) "
            "server-digest SHA256" % (host, ip), client=ip)
        t = dtime(t)
        add(t, "postfix/smtpd", p, "%s: client=%s[%s]" % (q, host, ip), client=ip)
        t = dtime(t)
        dom = host.split(".", 1)[1]
        add(t, "postfix/cleanup", pid("cleanup", t), "%s: message-id=<%s.%d@%s>" % (
            q, "".join(rng.choice("abcdef0123456789") for _ in range(16)), rng.randint(1000, 9999), dom))
        t = dtime(t)
        add(t, "opendkim", DKIM, "%s: %s [%s] not internal" % (q, host, ip))
        add(t, "opendkim", DKIM, "%s: DKIM verification successful" % q if rng.random() < 0.85 else
            "%s: s=selector1 d=%s SSL error:04091068:rsa routines:INT_RSA_VERIFY:bad signature" % (q, dom))
        size = rng.randint(2400, 950000) if rng.random() < 0.3 else rng.randint(1800, 60000)
        nrcpt = rng.choice([1, 1, 1, 2])
        t = dtime(t)
        add(t, "postfix/qmgr", QMGR, "%s: from=<%s@%s>, size=%d, nrcpt=%d (queue active)" % (
            q, rng.choice(["dispatch", "invoices", "noreply", "k.fischer", "ops"]), dom, size, nrcpt), bytes=size)
        t = dtime(t)
        add(t, "postfix/smtpd", p, "disconnect from %s[%s] ehlo=2 starttls=1 mail=1 rcpt=%d data=1 quit=1 commands=%d"
            % (host, ip, nrcpt, 6 + nrcpt), client=ip)
        for _ in range(nrcpt):
            t = dtime(t)
            parts = delays()
            tot, ds = fmt_delays(parts)
            u = rng.choice(PF_LOCAL_USERS)
            add(t, "postfix/lmtp", pid("lmtp", t), "%s: to=<%s@fernhollow.example>, relay=mailstore1.fernhollow.internal"
                "[10.30.0.21]:24, delay=%s, delays=%s, dsn=2.0.0, status=sent (250 2.0.0 <%s@fernhollow.example> "
                "%s Saved)" % (q, u, tot, ds, u, "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789+/")
                                                        for _ in range(22))), duration=ns_from_s(tot))
        t = dtime(t)
        add(t, "postfix/qmgr", QMGR, "%s: removed" % q)

    def outbound(t):
        ip = rng.choice(PF_INTERNAL_CLIENTS)
        seen_clients.append(ip)
        user = rng.choice(PF_LOCAL_USERS)
        host = "ws-%s.corp.fernhollow.internal" % ip.split(".")[-1]
        p = pid("submission/smtpd", t)
        q = qid()
        add(t, "postfix/submission/smtpd", p, "connect from %s[%s]" % (host, ip), client=ip)
        t = dtime(t)
        add(t, "postfix/submission/smtpd", p, "%s: client=%s[%s], sasl_method=PLAIN, sasl_username=%s@fernhollow.example"
            % (q, host, ip, user), client=ip, user=user + "@fernhollow.example")
        t = dtime(t)
        add(t, "postfix/cleanup", pid("cleanup", t), "%s: message-id=<%08x-%04x-%04x@fernhollow.example>"
            % (q, rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16)))
        t = dtime(t)
        add(t, "opendkim", DKIM, "%s: DKIM-Signature field added (s=fh2025, d=fernhollow.example)" % q)
        size = rng.randint(1500, 2_400_000) if rng.random() < 0.15 else rng.randint(1500, 45000)
        t = dtime(t)
        add(t, "postfix/qmgr", QMGR, "%s: from=<%s@fernhollow.example>, size=%d, nrcpt=1 (queue active)"
            % (q, user, size), bytes=size)
        t = dtime(t)
        add(t, "postfix/submission/smtpd", p, "disconnect from %s[%s] ehlo=2 starttls=1 auth=1 mail=1 rcpt=1 data=1 quit=1 commands=8"
            % (host, ip), client=ip)
        rhost, rip = rng.choice(PF_EXT_DOMAINS)
        rdom = rhost.split(".", 1)[1]
        rcpt = "%s@%s" % (rng.choice(["orders", "m.weber", "accounts", "logistik", "ap", "haruka.sato"]), rdom)
        t = t + timedelta(microseconds=rng.randint(100_000, 2_500_000))
        outcome = wchoice(rng, [("sent", 85), ("deferred", 9), ("bounced", 6)])
        sp = pid("smtp", t)
        parts = delays()
        if outcome == "sent":
            parts = (parts[0], parts[1], parts[2] + rng.randint(0, 300) / 100, parts[3] + rng.randint(0, 200) / 100)
            tot, ds = fmt_delays(parts)
            add(t, "postfix/smtp", sp, "%s: to=<%s>, relay=%s[%s]:25, delay=%s, delays=%s, dsn=2.0.0, status=sent "
                "(250 2.0.0 OK  %d %s - gsmtp)" % (q, rcpt, rhost, rip, tot, ds, 1773400000 + rng.randint(0, 99999),
                                                 "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(12))),
                duration=ns_from_s(tot))
            t = dtime(t)
            add(t, "postfix/qmgr", QMGR, "%s: removed" % q)
        elif outcome == "deferred":
            parts = (parts[0], parts[1], 30.0 + rng.randint(0, 99) / 100, 0.0)
            tot, ds = fmt_delays(parts)
            add(t + timedelta(seconds=30), "postfix/smtp", sp, "%s: to=<%s>, relay=none, delay=%s, delays=%s, dsn=4.4.1, "
                "status=deferred (connect to %s[%s]:25: Connection timed out)" % (q, rcpt, tot, ds, rhost, rip),
                duration=ns_from_s(tot))
        else:
            tot, ds = fmt_delays(parts)
            add(t, "postfix/smtp", sp, "%s: to=<%s>, relay=%s[%s]:25, delay=%s, delays=%s, dsn=5.1.1, status=bounced "
                "(host %s[%s] said: 550 5.1.1 <%s>: Recipient address rejected: User unknown in virtual mailbox table "
                "(in reply to RCPT TO command))" % (q, rcpt, rhost, rip, tot, ds, rhost, rip, rcpt), duration=ns_from_s(tot))
            q2 = qid()
            t = dtime(t)
            add(t, "postfix/cleanup", pid("cleanup", t), "%s: message-id=<%s.%s@fh-mx1.fernhollow.example>"
                % (q2, t.strftime("%Y%m%d%H%M%S"), q))
            t = dtime(t)
            add(t, "postfix/bounce", pid("bounce", t), "%s: sender non-delivery notification: %s" % (q, q2))
            bsize = rng.randint(3800, 9000)
            add(t, "postfix/qmgr", QMGR, "%s: from=<>, size=%d, nrcpt=1 (queue active)" % (q2, bsize), bytes=bsize)
            add(t, "postfix/qmgr", QMGR, "%s: removed" % q)
            t = dtime(t)
            tot2, ds2 = fmt_delays(delays())
            add(t, "postfix/lmtp", pid("lmtp", t), "%s: to=<%s@fernhollow.example>, relay=mailstore1.fernhollow.internal"
                "[10.30.0.21]:24, delay=%s, delays=%s, dsn=2.0.0, status=sent (250 2.0.0 <%s@fernhollow.example> "
                "Saved)" % (q2, user, tot2, ds2, user), duration=ns_from_s(tot2))
            add(dtime(t), "postfix/qmgr", QMGR, "%s: removed" % q2)

    def spam(t):
        ip = rng.choice(PF_SPAM)
        seen_clients.append(ip)
        p = pid("smtpd", t)
        if rng.random() < 0.5:
            add(t, "postfix/smtpd", p, "warning: hostname %s.static.example-isp.example does not resolve to address %s: "
                "Name or service not known" % (ip.replace(".", "-"), ip), client=ip)
        add(t, "postfix/smtpd", p, "connect from unknown[%s]" % ip, client=ip)
        t = dtime(t)
        kind = rng.random()
        if kind < 0.55:
            add(t, "postfix/smtpd", p, "NOQUEUE: reject: RCPT from unknown[%s]: 554 5.7.1 Service unavailable; Client host "
                "[%s] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/%s; from=<%s@%s> "
                "to=<%s@fernhollow.example> proto=ESMTP helo=<%s>" % (
                    ip, ip, ip, rng.choice(["info", "sales", "admin", "promo"]),
                    rng.choice(["bestdeals.example", "cheap-meds.example", "win-now.example"]),
                    rng.choice(PF_LOCAL_USERS + ["info", "sales"]), rng.choice(["User", "localhost", "ylmf-pc", ip])),
                client=ip)
            cmds = "ehlo=1 mail=1 rcpt=0/1 quit=1 commands=3/4"
        elif kind < 0.85:
            add(t, "postfix/smtpd", p, "warning: unknown[%s]: SASL LOGIN authentication failed: UGFzc3dvcmQ6" % ip, client=ip)
            cmds = "ehlo=1 auth=0/1 quit=1 commands=2/3"
        else:
            add(t, "postfix/smtpd", p, "lost connection after AUTH from unknown[%s]" % ip, client=ip)
            cmds = "ehlo=1 auth=0/1 commands=1/2"
        t = dtime(t)
        add(t, "postfix/smtpd", p, "disconnect from unknown[%s] %s" % (ip, cmds), client=ip)

    def cronmail(t):
        q = qid()
        pp = pid("pickup", t)
        add(t, "postfix/pickup", pp, "%s: uid=0 from=<root>" % q)
        add(dtime(t), "postfix/cleanup", pid("cleanup", t), "%s: message-id=<%s.%s@fh-mx1.fernhollow.example>"
            % (q, t.strftime("%Y%m%d%H%M%S"), q))
        size = rng.randint(700, 4000)
        add(dtime(t), "postfix/qmgr", QMGR, "%s: from=<root@fh-mx1.fernhollow.example>, size=%d, nrcpt=1 (queue active)"
            % (q, size), bytes=size)
        t2 = dtime(dtime(t))
        tot, ds = fmt_delays(delays())
        add(t2, "postfix/lmtp", pid("lmtp", t), "%s: to=<ops-alerts@fernhollow.example>, orig_to=<root>, relay=mailstore1."
            "fernhollow.internal[10.30.0.21]:24, delay=%s, delays=%s, dsn=2.0.0, status=sent (250 2.0.0 "
            "<ops-alerts@fernhollow.example> Saved)" % (q, tot, ds), duration=ns_from_s(tot))
        add(dtime(t2), "postfix/qmgr", QMGR, "%s: removed" % q)

    t = start
    next_anvil = start + timedelta(minutes=10)
    next_cron = start + timedelta(minutes=rng.randint(20, 60))
    broke = [utc(2026, 3, 14, 16, 2, 11), None]
    while t < end:
        hour = t.hour
        busy = 1.0 if 7 <= hour < 19 else 0.35
        t = t + timedelta(microseconds=int(rng.uniform(25, 300) / busy * 1e6))
        if t >= end:
            break
        if t >= next_anvil:
            if seen_clients:
                ip = rng.choice(seen_clients[-40:])
                st = t - timedelta(seconds=rng.randint(30, 580))
                add(t, "postfix/anvil", ANVIL, "statistics: max connection rate %d/60s for (smtp:%s) at %s %2d %s" % (
                    rng.randint(1, 6), ip, MONTHS[st.month - 1], st.day, st.strftime("%H:%M:%S")))
                add(t, "postfix/anvil", ANVIL, "statistics: max connection count %d for (smtp:%s) at %s %2d %s" % (
                    rng.randint(1, 3), ip, MONTHS[st.month - 1], st.day, st.strftime("%H:%M:%S")))
                add(t, "postfix/anvil", ANVIL, "statistics: max cache size %d at %s %2d %s" % (
                    rng.randint(1, 9), MONTHS[st.month - 1], st.day, st.strftime("%H:%M:%S")))
            next_anvil = t + timedelta(minutes=rng.randint(10, 40))
            continue
        if t >= next_cron:
            cronmail(t)
            next_cron = t + timedelta(minutes=rng.randint(45, 120))
            continue
        if broke[0] and t >= broke[0] and broke[1] is None:
            # a bad main.cf change: smtpd dies at start-up three times, then the operator reloads
            tt = t
            for _ in range(3):
                bp = rng.randint(30000, 45000)
                add(tt, "postfix/smtpd", bp, "fatal: no SASL authentication mechanisms")
                tt = tt + timedelta(seconds=1)
                add(tt, "postfix/master", MASTER, "warning: process /usr/libexec/postfix/smtpd pid %d exit status 1" % bp)
                add(tt, "postfix/master", MASTER, "warning: /usr/libexec/postfix/smtpd: bad command startup -- throttling")
                tt = tt + timedelta(seconds=60)
            tt = tt + timedelta(seconds=rng.randint(20, 90))
            add(tt, "postfix/postfix-script", rng.randint(30000, 45000), "refreshing the Postfix mail system")
            add(tt, "postfix/master", MASTER, "reload -- version 3.5.25, configuration /etc/postfix")
            broke[1] = tt
            t = tt
            continue
        r = rng.random()
        if r < 0.40:
            inbound(t)
        elif r < 0.70:
            outbound(t)
        elif r < 0.97:
            spam(t)
        else:
            p = pid("smtpd", t)
            ip = rng.choice(PF_SPAM)
            seen_clients.append(ip)
            add(t, "postfix/smtpd", p, "connect from unknown[%s]" % ip, client=ip)
            add(dtime(t), "postfix/smtpd", p, "warning: TLS library problem: error:0A000126:SSL routines::unexpected eof "
                "while reading:ssl/record/rec_layer_s3.c:322:")
            add(dtime(dtime(t)), "postfix/smtpd", p, "lost connection after STARTTLS from unknown[%s]" % ip, client=ip)

    lines.sort(key=lambda x: (x[0], x[1]))
    for t, _, prog, p, msg, f in lines:
        if t >= end:
            continue
        stamp = "%s %2d %s" % (MONTHS[t.month - 1], t.day, t.strftime("%H:%M:%S"))
        lvl = "WARN" if msg.startswith("warning:") else "FATAL" if msg.startswith("fatal:") else None
        c.ev(t, lvl, ["%s fh-mx1 %s[%d]: %s" % (stamp, prog, p, msg)], program=prog, pid=p, host="fh-mx1", **f)

    c.check("top", role="program")
    c.check("count_where", role="program", value="opendkim")
    c.check("count_contains", text="status=deferred")
    c.check("sum", role="bytes", unit="b")
    c.check("max", role="duration", unit="ms")
    c.check("distinct", role="client")
    return c


# =====================================================================================
# f03  OpenVPN 2.4 server log (ctime timestamps + us=)
# =====================================================================================
VPN_USERS = ["jmorales", "akowalski", "lnguyen", "zbrandt", "onystrom", "ktanaka", "psilva", "mokafor", "soconnor",
             "rhaddad", "fweber", "hsato", "cdupont", "eivanova", "tbakker", "ymensah", "gromano", "dlindqvist",
             "bfarouk", "nkaur", "vhorvath", "ipetrova"]


def ctime(t):
    return "%s %s %2d %s %d" % (DAYS[t.weekday()], MONTHS[t.month - 1], t.day, t.strftime("%H:%M:%S"), t.year)


def f03_openvpn():
    rng = random.Random(3303)
    c = Case("f03-openvpn", "openvpn.log",
             "OpenVPN 2.4 server (--log file; ctime timestamps 'Sat Mar  7 17:00:02 2026 us=123456')", [])
    clk = Clock(rng, utc(2026, 3, 7, 17, 0, 2, 481220))
    end = utc(2026, 3, 8, 11, 5, 0)

    def L(t, msg, **f):
        return c.ev(t, None, ["%s us=%06d %s" % (ctime(t), t.microsecond, msg)], **f)

    banner = [
        "OpenVPN 2.4.12 x86_64-redhat-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] built on Mar 17 2022",
        "library versions: OpenSSL 1.1.1k  FIPS 25 Mar 2021, LZO 2.08",
        "Diffie-Hellman initialized with 2048 bit key",
        "Outgoing Control Channel Authentication: Using 256 bit message hash 'SHA256' for HMAC authentication",
        "Incoming Control Channel Authentication: Using 256 bit message hash 'SHA256' for HMAC authentication",
        "ROUTE_GATEWAY 10.0.0.1/255.255.255.0 IFACE=eth0 HWADDR=52:54:00:8a:1c:3e",
        "TUN/TAP device tun0 opened",
        "TUN/TAP TX queue length set to 100",
        "/sbin/ip link set dev tun0 up mtu 1500",
        "/sbin/ip addr add dev tun0 10.8.0.1/24 broadcast 10.8.0.255",
        "Could not determine IPv4/IPv6 protocol. Using AF_INET",
        "Socket Buffers: R=[212992->212992] S=[212992->212992]",
        "UDPv4 link local (bound): [AF_INET][undef]:1194",
        "UDPv4 link remote: [AF_UNDEF]",
        "MULTI: multi_init called, r=256 v=256",
        "IFCONFIG POOL: base=10.8.0.2 size=252, ipv6=0",
        "IFCONFIG POOL LIST",
        "Initialization Sequence Completed",
    ]
    for b in banner:
        L(clk.tick(0.0002, 0.02), b)

    home_ips = {}
    for u in VPN_USERS:
        home_ips[u] = "198.51.100.%d" % rng.randint(2, 250)
    active = {}   # user -> (ip, port, vip, since)
    vips = list(range(6, 250))
    rng.shuffle(vips)
    scanners = ["203.0.113.%d" % i for i in (9, 44, 87, 150, 222)]

    def handshake(t, u, ip, port, reneg=False):
        peer = "%s:%d" % (ip, port)
        pre = "%s/%s" % (u, peer) if reneg else peer
        f = dict(client=ip, user=u) if reneg else dict(client=ip)
        if not reneg:
            L(t, "%s TLS: Initial packet from [AF_INET]%s, sid=%08x %08x" % (peer, peer, rng.getrandbits(32), rng.getrandbits(32)), **f)
        else:
            L(t, "%s TLS: soft reset sec=3600/3600 bytes=%d/-1 pkts=%d/0" % (pre, rng.randint(10 ** 5, 10 ** 9), rng.randint(900, 900000)), **f)
        L(clk.tick(0.05, 0.3), "%s VERIFY OK: depth=1, CN=Fernhollow VPN CA" % pre, **f)
        L(clk.tick(0, 0.002), "%s VERIFY OK: depth=0, CN=%s" % (pre, u), client=ip, user=u)
        if not reneg:
            for iv in ("IV_VER=2.6.8", "IV_PLAT=%s" % rng.choice(["win", "mac", "linux"]), "IV_PROTO=6", "IV_NCP=2",
                       "IV_CIPHERS=AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305", "IV_LZ4=1", "IV_COMP_STUB=1"):
                L(clk.tick(0, 0.001), "%s peer info: %s" % (pre, iv), **f)
        for d in ("Outgoing", "Incoming"):
            L(clk.tick(0, 0.002), "%s %s Data Channel: Cipher 'AES-256-GCM' initialized with 256 bit key" % (pre, d), **f)
        L(clk.tick(0, 0.01), "%s Control Channel: TLSv1.3, cipher TLSv1.3 TLS_AES_256_GCM_SHA384, 2048 bit RSA" % pre, **f)
        if not reneg:
            L(clk.tick(0, 0.002), "%s [%s] Peer Connection Initiated with [AF_INET]%s" % (peer, u, peer), client=ip, user=u)

    def connect(t, u):
        ip = home_ips[u] if rng.random() < 0.8 else "192.0.2.%d" % rng.randint(2, 250)
        port = rng.randint(1025, 65000)
        handshake(t, u, ip, port)
        vip = "10.8.0.%d" % vips.pop()
        pre = "%s/%s:%d" % (u, ip, port)
        f = dict(client=ip, user=u)
        L(clk.tick(0, 0.002), "%s MULTI_sva: pool returned IPv4=%s, IPv6=(Not enabled)" % (pre, vip), **f)
        L(clk.tick(0, 0.002), "%s MULTI: Learn: %s -> %s" % (pre, vip, pre), **f)
        L(clk.tick(0, 0.002), "%s MULTI: primary virtual IP for %s: %s" % (pre, pre, vip), **f)
        L(clk.tick(0.8, 1.6), "%s PUSH: Received control message: 'PUSH_REQUEST'" % pre, **f)
        L(clk.tick(0, 0.002), "%s SENT CONTROL [%s]: 'PUSH_REPLY,route 10.40.0.0 255.255.0.0,route 10.30.0.0 255.255.0.0,"
          "dhcp-option DNS 10.40.0.53,dhcp-option DOMAIN corp.fernhollow.internal,route-gateway 10.8.0.1,topology subnet,"
          "ping 10,ping-restart 120,ifconfig %s 255.255.255.0,peer-id %d,cipher AES-256-GCM' (status=1)"
          % (pre, u, vip, rng.randint(0, 40)), **f)
        active[u] = (ip, port, vip, clk.t)

    def disconnect(t, u):
        ip, port, vip, _ = active.pop(u)
        pre = "%s/%s:%d" % (u, ip, port)
        f = dict(client=ip, user=u)
        if rng.random() < 0.55:
            L(t, "%s [%s] Inactivity timeout (--ping-restart), restarting" % (pre, u), **f)
            L(clk.tick(0, 0.001), "%s SIGUSR1[soft,ping-restart] received, client-instance restarting" % pre, **f)
        else:
            L(t, "%s SIGTERM[soft,remote-exit] received, client-instance exiting" % pre, **f)
        vips.insert(0, int(vip.rsplit(".", 1)[1]))

    while clk.t < end:
        t = clk.tick(12, 320) if 7 <= clk.t.hour < 20 else clk.tick(40, 900)
        r = rng.random()
        idle = [u for u in VPN_USERS if u not in active]
        if r < 0.34 and idle:
            # a few people connect much more often (flaky home links)
            u = rng.choice(idle + [x for x in ("jmorales", "jmorales", "ktanaka") if x in idle])
            connect(t, u)
        elif r < 0.62 and active:
            disconnect(t, rng.choice(sorted(active)))
        elif r < 0.72 and active:
            u = rng.choice(sorted(active))
            ip, port, _, since = active[u]
            handshake(t, u, ip, port, reneg=True)
        elif r < 0.80 and active:
            u = rng.choice(sorted(active))
            ip, port, _, _ = active[u]
            L(t, "%s/%s:%d MULTI: bad source address from client [192.168.%d.%d], packet dropped"
              % (u, ip, port, rng.choice([0, 1, 178]), rng.randint(2, 200)), client=ip, user=u)
        elif r < 0.93:
            ip = rng.choice(scanners)
            peer = "%s:%d" % (ip, rng.randint(1025, 65000))
            L(t, "%s TLS: Initial packet from [AF_INET]%s, sid=%08x %08x" % (peer, peer, rng.getrandbits(32), rng.getrandbits(32)), client=ip)
            if rng.random() < 0.5:
                L(clk.tick(0.1, 0.4), "%s VERIFY ERROR: depth=0, error=certificate has expired: CN=%s" % (peer, rng.choice(["old-laptop-07", "contractor-2023"])), client=ip)
                L(clk.tick(0, 0.001), "%s OpenSSL: error:1417C086:SSL routines:tls_process_client_certificate:certificate verify failed" % peer, client=ip)
                L(clk.tick(0, 0.001), "%s TLS_ERROR: BIO read tls_read_plaintext error" % peer, client=ip)
                L(clk.tick(0, 0.001), "%s TLS Error: TLS object -> incoming plaintext read error" % peer, client=ip)
                L(clk.tick(0, 0.001), "%s TLS Error: TLS handshake failed" % peer, client=ip)
            else:
                L(clk.tick(60, 60.01), "%s TLS Error: TLS key negotiation failed to occur within 60 seconds (check your network connectivity)" % peer, client=ip)
                L(clk.tick(0, 0.001), "%s TLS Error: TLS handshake failed" % peer, client=ip)
            L(clk.tick(0, 0.001), "%s SIGUSR1[soft,tls-error] received, client-instance restarting" % peer, client=ip)
        elif active:
            u = rng.choice(sorted(active))
            ip, port, _, _ = active[u]
            L(t, "%s/%s:%d WARNING: 'link-mtu' is used inconsistently, local='link-mtu 1549', remote='link-mtu 1550'"
              % (u, ip, port), client=ip, user=u)

    c.check("count_contains", text="Peer Connection Initiated")
    c.check("count_contains", text="TLS Error")
    c.check("top", role="user")
    c.check("count_where", role="user", value="ktanaka")
    c.check("distinct", role="client")
    return c


# =====================================================================================
# f04  Jetty 9.4 StdErrLog
# =====================================================================================
JETTY_STACKS = {
    "java.util.concurrent.TimeoutException": (
        "Idle timeout expired: 30000/30000 ms",
        ["org.eclipse.jetty.io.IdleTimeout.checkIdleTimeout(IdleTimeout.java:171)",
         "org.eclipse.jetty.io.IdleTimeout.idleCheck(IdleTimeout.java:113)",
         "java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:539)",
         "java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)",
         "java.base/java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(ScheduledThreadPoolExecutor.java:304)",
         "java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)",
         "java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)",
         "java.base/java.lang.Thread.run(Thread.java:840)"], None),
    "javax.servlet.ServletException": (
        "org.springframework.web.util.NestedServletException: Request processing failed; nested exception is "
        "org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection",
        ["org.eclipse.jetty.server.handler.HandlerCollection.handle(HandlerCollection.java:162)",
         "org.eclipse.jetty.server.handler.HandlerWrapper.handle(HandlerWrapper.java:127)",
         "org.eclipse.jetty.server.Server.handle(Server.java:516)",
         "org.eclipse.jetty.server.HttpChannel.lambda$handle$1(HttpChannel.java:487)",
         "org.eclipse.jetty.server.HttpChannel.dispatch(HttpChannel.java:732)",
         "org.eclipse.jetty.server.HttpChannel.handle(HttpChannel.java:479)",
         "org.eclipse.jetty.server.HttpConnection.onFillable(HttpConnection.java:277)",
         "org.eclipse.jetty.io.AbstractConnection$ReadCallback.succeeded(AbstractConnection.java:311)",
         "org.eclipse.jetty.io.FillInterest.fillable(FillInterest.java:105)",
         "org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.run(QueuedThreadPool.java:1034)",
         "java.base/java.lang.Thread.run(Thread.java:840)"],
        ("com.zaxxer.hikari.pool.HikariPool$PoolInitializationException",
         "HikariPool-1 - Connection is not available, request timed out after 30005ms.",
         ["com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:696)",
          "com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:181)",
          "com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:146)",
          "com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:100)",
          "com.fernhollow.billing.repo.InvoiceRepository.findOpen(InvoiceRepository.java:88)"], 41)),
    "org.eclipse.jetty.io.EofException": (
        None,
        ["org.eclipse.jetty.io.ChannelEndPoint.flush(ChannelEndPoint.java:279)",
         "org.eclipse.jetty.io.WriteFlusher.flush(WriteFlusher.java:422)",
         "org.eclipse.jetty.io.WriteFlusher.write(WriteFlusher.java:277)",
         "org.eclipse.jetty.io.AbstractEndPoint.write(AbstractEndPoint.java:381)",
         "org.eclipse.jetty.server.HttpConnection$SendCallback.process(HttpConnection.java:831)",
         "org.eclipse.jetty.util.IteratingCallback.processing(IteratingCallback.java:241)",
         "org.eclipse.jetty.util.IteratingCallback.iterate(IteratingCallback.java:223)",
         "org.eclipse.jetty.server.HttpConnection.send(HttpConnection.java:550)"],
        ("java.io.IOException", "Broken pipe",
         ["java.base/sun.nio.ch.FileDispatcherImpl.write0(Native Method)",
          "java.base/sun.nio.ch.SocketDispatcher.write(SocketDispatcher.java:62)",
          "java.base/sun.nio.ch.IOUtil.writeFromNativeBuffer(IOUtil.java:132)",
          "java.base/sun.nio.ch.SocketChannelImpl.write(SocketChannelImpl.java:532)",
          "org.eclipse.jetty.io.ChannelEndPoint.flush(ChannelEndPoint.java:273)"], 19)),
    "java.lang.IllegalStateException": (
        "STREAM",
        ["org.eclipse.jetty.server.Response.getWriter(Response.java:1005)",
         "com.fernhollow.billing.web.ExportController.writeCsv(ExportController.java:214)",
         "com.fernhollow.billing.web.ExportController.export(ExportController.java:97)",
         "java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
         "java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke(NativeMethodAccessorImpl.java:77)",
         "org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:883)",
         "javax.servlet.http.HttpServlet.service(HttpServlet.java:790)",
         "org.eclipse.jetty.servlet.ServletHolder.handle(ServletHolder.java:799)"], None),
}
JETTY_PATHS = ["/billing/api/invoices", "/billing/api/invoices/export", "/billing/api/payments/callback",
               "/billing/api/customers/%d/statement", "/billing/api/reports/monthly", "/billing/health"]
JETTY_CUSTOMERS = ["Müller Spedition GmbH", "Łódź Cargo Sp. z o.o.", "Transportes Peña S.L.", "Nordhavn ApS",
                   "Kōbe Marine Services", "Fernhollow Internal", "Česká Logistika s.r.o.", "Atlas Freight Ltd"]


def f04_jetty():
    rng = random.Random(3404)
    c = Case("f04-jetty-stderrlog", "jetty-stderr.log",
             "Eclipse Jetty 9.4 default StdErrLog ('date time.ms:LEVEL:abbrev.logger:thread: message', DBUG level, stack traces)",
             ["WARN", "INFO", "DEBUG"])
    clk = Clock(rng, utc(2026, 3, 3, 7, 55, 12, 345000))
    end = utc(2026, 3, 3, 15, 40, 0)
    qtp = "qtp1525037790"
    lvname = {"INFO": "INFO", "WARN": "WARN", "DEBUG": "DBUG"}

    def L(t, level, logger, thread, msg, extra=None, exc=None):
        stamp = t.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (t.microsecond // 1000)
        lines = ["%s:%s:%s:%s: %s" % (stamp, lvname[level], logger, thread, msg)]
        if extra:
            lines += extra
        return c.ev(t, level, lines, logger=logger or None, thread=thread, exception=exc)

    def trace(cls):
        msg, frames, cause = JETTY_STACKS[cls]
        out = ["%s: %s" % (cls, msg) if msg else cls]
        out += ["\tat " + f for f in frames]
        if cause:
            ccls, cmsg, cframes, more = cause
            out.append("Caused by: %s: %s" % (ccls, cmsg))
            out += ["\tat " + f for f in cframes]
            out.append("\t... %d more" % more)
        return out

    def startup(first):
        th = "main"
        if first:
            L(clk.t, "INFO", "", th, "Logging initialized @812ms to org.eclipse.jetty.util.log.StdErrLog")
            L(clk.tick(0.2, 0.4), "INFO", "oejs.Server", th, "jetty-9.4.53.v20231009; built: 2023-10-09T12:29:09.265Z; "
              "git: 27bde00a0b95a1d5bbee0eae7984f891d2d0f8c9; jvm 17.0.10+7-Ubuntu-122.04.1")
            L(clk.tick(0.01, 0.05), "INFO", "oejdp.ScanningAppProvider", th, "Deployment monitor [file:///opt/jetty-base/webapps/] at interval 1")
        else:
            th = "Scanner-0"
        L(clk.tick(0.3, 1.2), "INFO", "oejw.StandardDescriptorProcessor", th,
          "NO JSP Support for /billing, did not find org.eclipse.jetty.jsp.JettyJspServlet")
        L(clk.tick(0.01, 0.05), "INFO", "oejs.session", th, "DefaultSessionIdManager workerName=node0")
        L(clk.tick(0, 0.01), "INFO", "oejs.session", th, "No SessionScavenger set, using defaults")
        L(clk.tick(0, 0.01), "INFO", "oejs.session", th, "node0 Scavenging every 660000ms")
        L(clk.tick(0.5, 1.5), "INFO", "oejshC.billing", th, "Initializing Spring root WebApplicationContext")
        L(clk.tick(1.5, 3.0), "INFO", "oejshC.billing", th, "Initializing Spring DispatcherServlet 'dispatcher'")
        L(clk.tick(0.1, 0.4), "INFO", "oejsh.ContextHandler", th, "Started o.e.j.w.WebAppContext@%08x{billing,/billing,"
          "file:///opt/jetty-base/webapps/billing/,AVAILABLE}{/opt/jetty-base/webapps/billing.war}" % rng.getrandbits(32))
        if first:
            L(clk.tick(0.01, 0.05), "INFO", "oejs.AbstractConnector", th, "Started ServerConnector@4f8e5cde{HTTP/1.1, (http/1.1)}{0.0.0.0:8080}")
            L(clk.tick(0, 0.01), "INFO", "oejs.Server", th, "Started @%dms" % rng.randint(4000, 6000))

    startup(True)
    redeploy_at = utc(2026, 3, 3, 11, 47, 0)
    redeployed = False
    debug_win = (utc(2026, 3, 3, 13, 10, 0), utc(2026, 3, 3, 13, 32, 0))
    next_scav = clk.t + timedelta(seconds=660)
    while clk.t < end:
        t = clk.tick(2, 55)
        th = "%s-%d" % (qtp, rng.randint(18, 61))
        if not redeployed and t >= redeploy_at:
            redeployed = True
            L(t, "INFO", "oejsh.ContextHandler", "Scanner-0", "Stopped o.e.j.w.WebAppContext@%08x{billing,/billing,"
              "file:///opt/jetty-base/webapps/billing/,STOPPED}{/opt/jetty-base/webapps/billing.war}" % rng.getrandbits(32))
            L(clk.tick(0.2, 0.5), "INFO", "oejshC.billing", "Scanner-0", "Closing Spring root WebApplicationContext")
            startup(False)
            continue
        if t >= next_scav:
            L(t, "INFO", "oejs.session", "Session-HouseKeeper-3b9a45b3-1", "node0 Scavenging every 660000ms")
            next_scav = t + timedelta(seconds=660)
            continue
        if debug_win[0] <= t < debug_win[1] and rng.random() < 0.8:
            sid = "node0%s" % "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(26))
            m = rng.choice(["Session %s created for request" % sid, "Session %s accessed, stopping timer" % sid,
                            "Session %s complete, active requests=0" % sid,
                            "Checking for idle %s" % sid, "Reference count=0 for %s" % sid])
            L(t, "DEBUG", "oejs.session", th, m)
            continue
        kind = wchoice(rng, [("app", 60), ("timeout", 7), ("servlet", 3), ("eof", 5), ("illegal", 2),
                             ("parser", 4), ("slow", 6), ("auth", 5)])
        if kind == "app":
            cust = rng.choice(JETTY_CUSTOMERS)
            m = rng.choice([
                "Invoice INV-2026-%06d rendered for '%s' in %d ms" % (rng.randint(1, 20000), cust, rng.randint(20, 900)),
                "Payment callback accepted for invoice INV-2026-%06d (provider=adyen, amount=%d.%02d EUR)"
                % (rng.randint(1, 20000), rng.randint(20, 9000), rng.randint(0, 99)),
                "Statement generated for customer %d ('%s'), %d lines" % (rng.randint(1000, 9999), cust, rng.randint(1, 300)),
            ])
            L(t, "INFO", "oejshC.billing", th, m)
        elif kind == "timeout":
            cls = "java.util.concurrent.TimeoutException"
            L(t, "WARN", "oejs.HttpChannel", th, rng.choice(JETTY_PATHS[:3]), trace(cls), exc=cls)
        elif kind == "servlet":
            cls = "javax.servlet.ServletException"
            path = rng.choice([JETTY_PATHS[3] % rng.randint(1000, 9999), JETTY_PATHS[4]])
            L(t, "WARN", "oejs.HttpChannel", th, path, trace(cls), exc=cls)
        elif kind == "eof":
            cls = "org.eclipse.jetty.io.EofException"
            L(t, "WARN", "oejs.HttpChannel", th, "/billing/api/invoices/export", trace(cls), exc=cls)
        elif kind == "illegal":
            cls = "java.lang.IllegalStateException"
            L(t, "WARN", "oejs.ServletHandler", th, "Error for /billing/api/invoices/export", trace(cls), exc=cls)
        elif kind == "parser":
            buf = "".join(rng.choice("0123456789abcdef") for _ in range(32))
            dump = "<<<\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x01\\xFc\\x03\\x03" + "".join("\\x%02X" % rng.randint(0, 255) for _ in range(120)) + ">>>" + \
                   "\\x00" * 60 + "..." + "\\x00" * 40
            L(t, "WARN", "oejh.HttpParser", th, "Illegal character CNTL=0x16 in state=START for buffer "
              "HeapByteBuffer@%s[p=1,l=517,c=8192,r=516]={\\x16%s}" % (buf[:8], dump))
            L(clk.tick(0, 0.001), "WARN", "oejh.HttpParser", th, "bad HTTP parsed: 400 Illegal character CNTL=0x16 for "
              "HttpChannelOverHttp@%s{s=HttpChannelState@%s{s=IDLE rs=IDLE os=OPEN is=IDLE awp=false se=false i=true "
              "al=0},r=0,c=false/false,a=IDLE,uri=null,age=0}" % (buf[8:16], buf[16:24]))
        elif kind == "slow":
            L(t, "WARN", "oejshC.billing", th, "Slow query on invoice_lines for customer '%s': %d ms (threshold 2000 ms)"
              % (rng.choice(JETTY_CUSTOMERS), rng.randint(2001, 14000)))
        else:
            L(t, "INFO", "oejshC.billing", th, "Login failed for user '%s' from 10.44.%d.%d (bad credentials)"
              % (rng.choice(["svc-erp", "j.morales", "zoë.brandt", "admin"]), rng.randint(0, 9), rng.randint(2, 250)))

    c.check("count_where", role="logger", value="oejs.HttpChannel")
    c.check("top", role="logger")
    c.check("count_where", role="exception", value="java.util.concurrent.TimeoutException")
    c.check("distinct", role="thread")
    c.check("count_contains", text="Caused by:")
    return c


CASES = [f01_etcd, f02_postfix, f03_openvpn, f04_jetty]
