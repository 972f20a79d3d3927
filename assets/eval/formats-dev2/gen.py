#!/usr/bin/env python3
"""Generator for the formats-dev2 evaluation set (DEV).

Standard library only, seeded, deterministic.  Run `python3 gen.py` from this
directory; it rewrites every case under cases/.  The truth for each case is
computed from the generator's own event records, never by parsing the log.

Fictional company: Brackenridge Seed Vault (brackenseed.io) - a seed bank with
services lot-tracker, seed-catalog, germination-lab, vault-climate, order-desk.
"""
import collections
import datetime as dt
import json
import os
import random
import shutil

SEED = 424242
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
UTC = dt.timezone.utc
CANON = ["FATAL", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG", "TRACE"]


# ----------------------------------------------------------------- helpers
def spread(start, span_s, n):
    offs = sorted(R.uniform(0, span_s) for _ in range(n))
    return [start + dt.timedelta(seconds=o) for o in offs]


def wpick(top, rest, p):
    return top if R.random() < p else R.choice(rest)


def hx(n):
    return "".join(R.choice("0123456789abcdef") for _ in range(n))


def uid():
    return "%s-%s-4%s-%s%s-%s" % (hx(8), hx(4), hx(3), R.choice("89ab"), hx(3), hx(12))


def ms3(t):
    return t.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (t.microsecond // 1000)


def epoch(t):
    return (t.replace(tzinfo=UTC) - dt.datetime(1970, 1, 1, tzinfo=UTC)).total_seconds()


def godur(ns):
    """Go time.Duration.String() for durations < 1 minute."""
    def frac(whole, rem, width):
        s = str(rem).rjust(width, "0").rstrip("0")
        return str(whole) + ("." + s if s else "")
    if ns < 1000:
        return "%dns" % ns
    if ns < 10**6:
        return frac(ns // 1000, ns % 1000, 3) + "\u00b5s"
    if ns < 10**9:
        return frac(ns // 10**6, ns % 10**6, 6) + "ms"
    return frac(ns // 10**9, ns % 10**9, 9) + "s"


class Case:
    def __init__(self, cid, fname, software):
        self.cid, self.fname, self.software = cid, fname, software
        self.ev = []
        self.header = []          # non-event lines at the top of the file
        self.blank_rate = 0.0     # chance of a blank (non-event) line between events
        self.final_newline = True
        self.checks = []
        self.sort = True

    def add(self, t, lvl, lines, **f):
        if isinstance(lines, str):
            lines = [lines]
        assert lvl is None or lvl in CANON, lvl
        self.ev.append(dict(t=t, lvl=lvl, lines=lines, f=f, seq=len(self.ev)))

    # check specs -------------------------------------------------------
    def _check(self, spec):
        kind = spec[0]
        evs = self.ev
        if kind == "count_where":
            _, role, value = spec
            n = sum(1 for e in evs if role in e["f"] and str(e["f"][role]).lower() == value.lower())
            assert n > 0, spec
            return {"kind": kind, "role": role, "value": value, "expected": n}
        if kind == "count_contains":
            _, text = spec
            n = sum(1 for e in evs if text.lower() in "\n".join(e["lines"]).lower())
            assert n > 0, spec
            return {"kind": kind, "text": text, "expected": n}
        if kind in ("max", "min", "sum"):
            _, role, unit = spec
            vals = [e["f"][role] for e in evs if role in e["f"]]
            v = {"max": max, "min": min, "sum": sum}[kind](vals)
            v = round(v, 6)
            if v == int(v):
                v = int(v)
            return {"kind": kind, "role": role, "unit": unit, "expected": v}
        if kind == "top":
            _, role = spec
            cnt = collections.Counter(str(e["f"][role]) for e in evs if role in e["f"])
            (a, na), (b, nb) = cnt.most_common(2)
            assert na >= 1.2 * nb, (self.cid, spec, cnt.most_common(3))
            return {"kind": kind, "role": role, "expected": a}
        if kind == "distinct":
            _, role = spec
            return {"kind": kind, "role": role,
                    "expected": len(set(str(e["f"][role]) for e in evs if role in e["f"]))}
        raise ValueError(spec)

    def write(self):
        if self.sort:
            self.ev.sort(key=lambda e: (e["t"], e["seq"]))
        d = os.path.join(HERE, "cases", self.cid)
        os.makedirs(d, exist_ok=True)
        out = list(self.header)
        for i, e in enumerate(self.ev):
            if i and self.blank_rate and R.random() < self.blank_rate:
                out.append("")
            out.extend(e["lines"])
        data = "\n".join(out) + ("\n" if self.final_newline else "")
        with open(os.path.join(d, self.fname), "w", encoding="utf-8", newline="") as fh:
            fh.write(data)
        levels = collections.Counter(e["lvl"] for e in self.ev if e["lvl"])
        truth = {
            "id": self.cid,
            "file": self.fname,
            "software": self.software,
            "events": len(self.ev),
            "levels": {k: levels[k] for k in CANON if levels[k]},
            "first_time": self.ev[0]["t"].strftime("%Y-%m-%d %H:%M:%S"),
            "last_time": self.ev[-1]["t"].strftime("%Y-%m-%d %H:%M:%S"),
            "checks": [self._check(s) for s in self.checks],
        }
        with open(os.path.join(d, "truth.json"), "w", encoding="utf-8") as fh:
            json.dump(truth, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
        size = len(data.encode("utf-8"))
        span = (self.ev[-1]["t"] - self.ev[0]["t"]).total_seconds()
        ok = 150 <= len(self.ev) <= 4000 and size < 400 * 1024 and 600 <= span <= 2 * 86400 and 4 <= len(self.checks) <= 8
        if not ok:
            print("LIMIT VIOLATION", self.cid)
        print("%-26s %5d events %7d bytes  span %.1fh" % (self.cid, len(self.ev), size, span / 3600))


# ----------------------------------------------------------------- f01
def f01():
    c = Case("f01-k8s-audit", "kube-apiserver-audit.log",
             "Kubernetes kube-apiserver audit log backend (audit.k8s.io/v1 Event JSON, one object per line)")
    top_user = "system:serviceaccount:seedvault:lot-tracker"
    users = ["system:serviceaccount:kube-system:namespace-controller", "system:kube-scheduler",
             "system:node:vault-node-3", "system:node:vault-node-1", "system:apiserver",
             "maren.okafor@brackenseed.io", "tobias.lindqvist@brackenseed.io", "aiko.brandt@brackenseed.io",
             "system:serviceaccount:seedvault:germination-lab", "system:kube-controller-manager",
             "system:serviceaccount:monitoring:prometheus"]
    ips = ["10.40.3.5", "10.40.3.9", "10.40.3.11", "10.40.3.23", "10.40.0.10", "10.40.0.11",
           "10.40.0.12", "172.20.4.18", "172.20.4.19", "10.40.7.21"]
    uas = ["kubectl/v1.29.2 (linux/amd64) kubernetes/4b8e819", "kube-scheduler/v1.29.2 (linux/amd64) kubernetes/4b8e819/leader-election",
           "lot-tracker/3.4.1 (linux/amd64) client-go/v0.29.2", "kubelet/v1.29.2 (linux/amd64) kubernetes/4b8e819",
           "prometheus/2.51.1", "seed-portal-admin/2.3 (Gr\u00fcner Kiosk; linux/arm64) client-go/v0.28.4"]
    resources = [("pods", "", "v1"), ("configmaps", "", "v1"), ("leases", "coordination.k8s.io", "v1"),
                 ("secrets", "", "v1"), ("events", "", "v1"), ("deployments", "apps", "v1"), ("jobs", "batch", "v1")]
    names = ["lot-tracker-7d9f8b6c5-x2kq9", "vault-climate-thresholds", "germination-lab-0", "kube-scheduler",
             "seed-catalog-db-creds", "order-desk-5b7c9d-4mfrt", "nightly-lot-audit-28519440"]
    for t in spread(dt.datetime(2026, 3, 14, 6, 0, 3), 4 * 3600 + 1500, 340):
        if t.microsecond >= 900000:
            t = t.replace(microsecond=t.microsecond - 100000)
        u = wpick(top_user, users, 0.34)
        ip = wpick("10.40.3.17", ips, 0.3)
        verb = R.choice(["get", "get", "get", "list", "list", "watch", "update", "patch", "create", "delete"])
        res, grp, ver = R.choice(resources)
        ns = R.choice(["seedvault", "seedvault", "kube-system", "monitoring"])
        base = "/api/v1" if not grp else "/apis/%s/%s" % (grp, ver)
        name = R.choice(names)
        if verb in ("list", "watch", "create"):
            uri = "%s/namespaces/%s/%s" % (base, ns, res)
            if verb == "list":
                uri += "?limit=500&resourceVersion=0"
            elif verb == "watch":
                uri += "?allowWatchBookmarks=true&resourceVersion=%d&timeout=7m41s&timeoutSeconds=461&watch=true" % R.randint(10**6, 9 * 10**6)
        else:
            uri = "%s/namespaces/%s/%s/%s" % (base, ns, res, name)
        human = u.endswith("@brackenseed.io")
        if human and verb in ("create", "delete", "patch", "update", "get") and R.random() < 0.35:
            code = 403
        elif verb == "get" and R.random() < 0.15:
            code = 404
        elif verb in ("update", "patch") and R.random() < 0.15:
            code = 409
        elif R.random() < 0.01:
            code = 500
        else:
            code = 201 if verb == "create" else 200
        objref = {"resource": res, "namespace": ns}
        if verb not in ("list", "watch", "create"):
            objref["name"] = name
        if grp:
            objref["apiGroup"] = grp
        objref["apiVersion"] = ver
        if code < 300:
            rs = {"metadata": {}, "code": code}
        elif code == 403:
            rs = {"metadata": {}, "status": "Failure",
                  "message": '%s "%s" is forbidden: User "%s" cannot %s resource "%s" in API group "%s" in the namespace "%s"' % (res, name, u, verb, res, grp, ns),
                  "reason": "Forbidden", "details": {"name": name, "group": grp, "kind": res}, "code": 403}
        elif code == 404:
            rs = {"metadata": {}, "status": "Failure", "message": '%s "%s" not found' % (res, name),
                  "reason": "NotFound", "details": {"name": name, "kind": res}, "code": 404}
        elif code == 409:
            rs = {"metadata": {}, "status": "Failure",
                  "message": 'Operation cannot be fulfilled on %s "%s": the object has been modified; please apply your changes to the latest version and try again' % (res, name),
                  "reason": "Conflict", "details": {"name": name, "kind": res}, "code": 409}
        else:
            rs = {"metadata": {}, "status": "Failure", "message": "etcdserver: request timed out",
                  "reason": "InternalError", "code": 500}
        level = "Metadata"
        ev = {"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": level, "auditID": uid(),
              "stage": "ResponseStarted" if verb == "watch" else "ResponseComplete", "requestURI": uri, "verb": verb,
              "user": {"username": u, "uid": uid(),
                       "groups": (["system:serviceaccounts", "system:serviceaccounts:seedvault"] if "serviceaccount" in u else
                                  ["seedvault-operators", "system:authenticated"] if human else ["system:authenticated"])},
              "sourceIPs": [ip], "userAgent": R.choice(uas), "objectRef": objref, "responseStatus": rs}
        if res == "configmaps" and verb in ("update", "patch") and code == 200 and R.random() < 0.5:
            ev["level"] = "RequestResponse"
            ev["requestObject"] = {"kind": "ConfigMap", "apiVersion": "v1",
                                   "metadata": {"name": "vault-climate-thresholds", "namespace": ns},
                                   "data": {"notes": "K\u00fchlzone B \u2014 relative humidity must stay \u2264 35 %, temperature \u221218 \u00b0C \u00b1 1",
                                            "thresholds.yaml": "zones:\\n" + "".join("  - id: B%02d\\n    rh_max: %d\\n    temp_c: -18\\n" % (k, R.randint(30, 36)) for k in range(1, 30))}}
        lat = R.randint(300, 89000)
        ev["requestReceivedTimestamp"] = t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        ev["stageTimestamp"] = (t + dt.timedelta(microseconds=lat)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        ev["annotations"] = {"authorization.k8s.io/decision": "forbid" if code == 403 else "allow",
                             "authorization.k8s.io/reason": "" if code == 403 else
                             'RBAC: allowed by ClusterRoleBinding "seedvault-edit" of ClusterRole "edit" to Group "seedvault-operators"'}
        c.add(t, None, json.dumps(ev, separators=(",", ":"), ensure_ascii=False),
              user=u, client=ip, status=str(code))
    c.checks = [("count_where", "status", "404"), ("count_where", "status", "403"), ("top", "user"),
                ("top", "client"), ("distinct", "user"), ("count_contains", "coordination.k8s.io")]
    return c


# ----------------------------------------------------------------- f02
def f02():
    c = Case("f02-suricata-eve", "eve.json",
             "Suricata EVE JSON output (eve.json with alert/http/dns/tls/flow/stats event types)")
    ext = ["198.51.100.7", "198.51.100.23", "203.0.113.40", "203.0.113.77", "192.0.2.15", "45.83.64.9"]
    internal = ["10.40.5.%d" % i for i in (3, 8, 14, 30, 42)] + ["10.40.1.10", "10.40.1.12"]
    hosts = ["catalog.brackenseed.io", "api.brackenseed.io", "lots.seedvault.internal", "updates.vendor-hygro.example"]
    paths = ["/v1/seeds?variety=tomato", "/v1/lots/L-2291", "/v1/orders", "/healthz", "/wp-login.php", "/.env",
             "/v1/germination/batches/4412", "/static/app.9f3c1e.js"]
    sigs = [(2010937, "ET SCAN Suspicious inbound to mySQL port 3306", "Potentially Bad Traffic", 2),
            (2001219, "ET SCAN Potential SSH Scan", "Attempted Information Leak", 2),
            (2013028, "ET POLICY curl User-Agent Outbound", "Attempted Information Leak", 2),
            (2027390, "ET INFO User-Agent (python-requests) Inbound to Webserver", "Unknown Traffic", 3),
            (2024364, "ET SCAN Possible Nmap User-Agent Observed", "Web Application Attack", 1),
            (2100498, "GPL ATTACK_RESPONSE id check returned root", "Potentially Bad Traffic", 2)]
    start = dt.datetime(2026, 3, 15, 1, 30, 11)
    ts = spread(start, 2 * 3600 + 600, 720)
    stats_at = {100, 380, 650}
    for i, t in enumerate(ts):
        stamp = t.strftime("%Y-%m-%dT%H:%M:%S.%f+0000")
        if i in stats_at:
            st = {"uptime": int((t - start).total_seconds()) + 86400,
                  "capture": {"kernel_packets": R.randint(10**7, 10**8), "kernel_drops": R.randint(0, 4000), "errors": 0},
                  "decoder": {k: R.randint(0, 10**7) for k in ["pkts", "bytes", "invalid", "ipv4", "ipv6", "ethernet", "raw", "null", "sll", "tcp", "udp", "sctp", "icmpv4", "icmpv6", "ppp", "pppoe", "geneve", "gre", "vlan", "vlan_qinq", "vxlan", "vntag", "ieee8021ah", "teredo", "ipv4_in_ipv6", "ipv6_in_ipv6", "mpls", "avg_pkt_size", "max_pkt_size", "max_mac_addrs_src", "max_mac_addrs_dst", "erspan"]},
                  "flow": {k: R.randint(0, 10**6) for k in ["memcap", "tcp", "udp", "icmpv4", "icmpv6", "tcp_reuse", "get_used", "get_used_eval", "get_used_eval_reject", "get_used_eval_busy", "get_used_failed", "wrk_spare_sync_avg", "wrk_spare_sync", "wrk_spare_sync_incomplete", "wrk_spare_sync_empty", "spare", "emerg_mode_entered", "emerg_mode_over", "memuse"]},
                  "tcp": {k: R.randint(0, 10**6) for k in ["sessions", "ssn_memcap_drop", "pseudo", "pseudo_failed", "invalid_checksum", "midstream_pickups", "pkt_on_wrong_thread", "segment_memcap_drop", "stream_depth_reached", "reassembly_gap", "overlap", "overlap_diff_data", "insert_data_normal_fail", "insert_data_overlap_fail", "memuse", "reassembly_memuse"]},
                  "detect": {"engines": [{"id": 0, "last_reload": "2026-03-14T03:00:02.118822+0000", "rules_loaded": 41127, "rules_failed": 3, "rules_skipped": 0}], "alert": R.randint(100, 999), "alert_queue_overflow": 0, "alerts_suppressed": 0}}
            c.add(t, None, json.dumps({"timestamp": stamp, "event_type": "stats", "stats": st}, separators=(",", ":")))
            continue
        et = R.choices(["dns", "http", "flow", "tls", "alert"], [30, 30, 18, 10, 12])[0]
        src = wpick("10.40.5.21", internal + ext, 0.28)
        f = {"client": src}
        ev = {"timestamp": stamp, "flow_id": R.randint(10**14, 2 * 10**15), "in_iface": "ens192", "event_type": et,
              "src_ip": src, "src_port": R.randint(1025, 65535)}
        if et == "dns":
            ev.update({"dest_ip": "10.40.0.53", "dest_port": 53, "proto": "UDP"})
            ev["dns"] = {"type": "query", "id": R.randint(1, 65535), "rrname": R.choice(hosts), "rrtype": R.choice(["A", "AAAA", "A", "HTTPS"]), "tx_id": 0, "opcode": 0}
        elif et == "http":
            ev.update({"dest_ip": "10.40.1.10", "dest_port": 80, "proto": "TCP", "tx_id": R.randint(0, 3)})
            m = R.choices(["GET", "POST", "PUT", "HEAD"], [62, 25, 8, 5])[0]
            p = R.choice(paths)
            st = R.choices([200, 404, 301, 304, 500, 403], [70, 10, 5, 8, 3, 4])[0]
            ln = R.randint(0, 40000) if m != "HEAD" else 0
            ev["http"] = {"hostname": R.choice(hosts[:3]), "url": p,
                          "http_user_agent": R.choice(["Mozilla/5.0 (X11; Linux x86_64; rv:124.0) Gecko/20100101 Firefox/124.0", "python-requests/2.31.0", "curl/8.5.0", "SeedScanner/1.2 (+https://brackenseed.io/bot)"]),
                          "http_content_type": "application/json", "http_method": m, "protocol": "HTTP/1.1", "status": st, "length": ln}
            f.update(method=m, status=str(st), path=p.split("?")[0])
        elif et == "tls":
            sni = R.choice(hosts)
            ev.update({"dest_ip": R.choice(ext), "dest_port": 443, "proto": "TCP"})
            ev["tls"] = {"subject": "CN=" + sni, "issuerdn": "C=US, O=Let's Encrypt, CN=R3", "serial": ":".join(hx(2).upper() for _ in range(9)),
                         "fingerprint": ":".join(hx(2) for _ in range(20)), "sni": sni, "version": "TLS 1.3",
                         "notbefore": "2026-01-10T00:00:00", "notafter": "2026-04-10T23:59:59",
                         "ja3": {"hash": hx(32), "string": "771,4865-4866-4867-49195,0-23-65281-10-11-35-16-5-13-18-51-45-43-27,29-23-24,0"}}
        elif et == "flow":
            ev.update({"dest_ip": R.choice(internal), "dest_port": R.choice([80, 443, 5432, 8883]), "proto": "TCP", "app_proto": R.choice(["http", "tls", "failed"])})
            ev["flow"] = {"pkts_toserver": R.randint(1, 90), "pkts_toclient": R.randint(0, 90), "bytes_toserver": R.randint(60, 90000),
                          "bytes_toclient": R.randint(0, 900000), "start": (t - dt.timedelta(seconds=R.randint(1, 120))).strftime("%Y-%m-%dT%H:%M:%S.%f+0000"),
                          "end": stamp, "age": R.randint(1, 120), "state": "closed", "reason": "timeout", "alerted": False}
            ev["tcp"] = {"tcp_flags": "1b", "tcp_flags_ts": "1b", "tcp_flags_tc": "1b", "syn": True, "fin": True, "psh": True, "ack": True, "state": "closed"}
        else:
            sid, sig, cat, sev = R.choice(sigs)
            ev.update({"dest_ip": R.choice(internal), "dest_port": R.choice([22, 3306, 80, 443]), "proto": "TCP"})
            ev["alert"] = {"action": "allowed", "gid": 1, "signature_id": sid, "rev": R.randint(2, 9), "signature": sig,
                           "category": cat, "severity": sev}
            ev["flow"] = {"pkts_toserver": 2, "pkts_toclient": 1, "bytes_toserver": 140, "bytes_toclient": 66,
                          "start": stamp, "src_ip": src, "dest_ip": ev["dest_ip"]}
        c.add(t, None, json.dumps(ev, separators=(",", ":")), **f)
    c.checks = [("top", "client"), ("count_where", "status", "404"), ("count_where", "method", "POST"),
                ("count_contains", "ET SCAN"), ("count_where", "path", "/.env")]
    return c


# ----------------------------------------------------------------- f03
def f03():
    c = Case("f03-prometheus-gokit", "prometheus.log",
             "Prometheus server 2.x stderr (go-kit logfmt: ts= caller= level= component= msg=)")
    c.blank_rate = 0.004
    start = dt.datetime(2026, 3, 14, 22, 0, 0, 120000)

    def ts(t):
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)
    boot = ['caller=main.go:617 level=info msg="Starting Prometheus Server" mode=server version="(version=2.51.1, branch=HEAD, revision=855b5ac4b80956874c4c0c1ee8fb4d7e6bd7e3c7)"',
            'caller=main.go:622 level=info build_context="(go=go1.22.1, platform=linux/amd64, user=root@6a5e8c3b3f1e, date=20240328-09:36:35, tags=netgo,builtinassets,stringlabels)"',
            'caller=main.go:623 level=info host_details="(Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64 mon-01 (none))"',
            'caller=main.go:624 level=info fd_limits="(soft=1048576, hard=1048576)"',
            'caller=web.go:568 level=info component=web msg="Start listening for connections" address=0.0.0.0:9090',
            'caller=main.go:1129 level=info msg="Starting TSDB ..."',
            'caller=head.go:616 level=info component=tsdb msg="Replaying on-disk memory mappable chunks if any"',
            'caller=main.go:1150 level=info fs_type=EXT4_SUPER_MAGIC',
            'caller=main.go:1153 level=info msg="TSDB started"',
            'caller=main.go:1169 level=info msg="Server is ready to receive web requests."',
            'caller=manager.go:163 level=info component="rule manager" msg="Starting rule manager..."']
    t = start
    for line in boot:
        comp = "tsdb" if "component=tsdb" in line else ("web" if "component=web" in line else ("rule manager" if "rule manager" in line else None))
        f = {"logger": comp} if comp else {}
        c.add(t, "INFO", "ts=%s %s" % (ts(t), line), **f)
        t += dt.timedelta(milliseconds=R.randint(1, 400))
    c.add(t, "INFO", 'ts=%s caller=head.go:698 level=info component=tsdb msg="On-disk memory mappable chunks replay completed" duration=4.82\u00b5s' % ts(t), logger="tsdb", duration=0.00482)
    span = 8 * 3600 + 1200
    targets = ["http://10.40.8.%d:9100/metrics" % i for i in (21, 22, 23, 31)] + ["http://10.40.3.17:8080/metrics", "http://10.40.5.9:9187/metrics"]
    pools = {"http://10.40.3.17:8080/metrics": "lot-tracker", "http://10.40.5.9:9187/metrics": "postgres"}
    for t in spread(start + dt.timedelta(seconds=5), span, 1150):
        r = R.random()
        if r < 0.72:
            tg = R.choice(targets)
            pool = pools.get(tg, "vault-climate")
            if R.random() < 0.5:
                msg = "Error on ingesting out-of-order samples"
            else:
                msg = "Error on ingesting samples that are too old or are too far into the future"
            c.add(t, "WARN", 'ts=%s caller=scrape.go:1777 level=warn component="scrape manager" scrape_pool=%s target=%s msg="%s" num_dropped=%d'
                  % (ts(t), pool, tg, msg, R.randint(1, 40)), logger="scrape manager")
        elif r < 0.84:
            rule = R.choice(["VaultHumidityHigh", "VaultTempDrift", "GerminationQueueStuck"])
            c.add(t, "WARN", 'ts=%s caller=manager.go:703 level=warn component="rule manager" file=/etc/prometheus/rules/vault.yml group=vault-climate name=%s index=%d msg="Evaluating rule failed" rule="alert: %s\\nexpr: avg_over_time(vault_rh_percent{zone=~\\"B.*\\"}[10m]) > 35\\nfor: 5m\\nlabels:\\n  severity: page\\nannotations:\\n  summary: Relative humidity above 35 %% in K\u00fchlzone {{ $labels.zone }}\\n" err="query processing would load too many samples into memory in query execution"'
                  % (ts(t), rule, R.randint(0, 4), rule), logger="rule manager")
        elif r < 0.93:
            c.add(t, "ERROR", 'ts=%s caller=notifier.go:530 level=error component=notifier alertmanager=http://10.40.0.30:9093/api/v2/alerts count=%d msg="Error sending alert" err="Post \\"http://10.40.0.30:9093/api/v2/alerts\\": context deadline exceeded"'
                  % (ts(t), R.randint(1, 6)), logger="notifier")
        else:
            c.add(t, "WARN", 'ts=%s caller=klog.go:108 level=warn component=k8s_client_runtime func=Warningf msg="pkg/mod/k8s.io/client-go@v0.29.3/tools/cache/reflector.go:229: watch of *v1.Endpoints ended with: an error on the server (\\"unable to decode an event from the watch stream: http2: client connection lost\\") has prevented the request from succeeding"'
                  % ts(t), logger="k8s_client_runtime")
    # tsdb housekeeping every 2h, config reloads
    for k in range(1, 5):
        t = start + dt.timedelta(hours=2 * k, seconds=R.uniform(1, 40))
        mint = int(epoch(start + dt.timedelta(hours=2 * k - 3))) * 1000
        ns = R.randint(600 * 10**6, 3200 * 10**6)
        if k == 3:
            ns = 7412563981
        c.add(t, "INFO", 'ts=%s caller=compact.go:580 level=info component=tsdb msg="write block" mint=%d maxt=%d ulid=01HS%s duration=%s'
              % (ts(t), mint, mint + 7200000, hx(22).upper(), godur(ns)), logger="tsdb", duration=ns / 1e6)
        t += dt.timedelta(seconds=R.uniform(0.5, 2))
        ns = R.randint(12 * 10**6, 95 * 10**6)
        c.add(t, "INFO", 'ts=%s caller=head.go:1302 level=info component=tsdb msg="Head GC completed" caller=truncateMemory duration=%s' % (ts(t), godur(ns)), logger="tsdb", duration=ns / 1e6)
        t += dt.timedelta(seconds=R.uniform(0.1, 1))
        c.add(t, "INFO", 'ts=%s caller=checkpoint.go:100 level=info component=tsdb msg="Creating checkpoint" from_segment=%d to_segment=%d mint=%d' % (ts(t), 40 + 3 * k, 42 + 3 * k, mint + 7200000), logger="tsdb")
        t += dt.timedelta(seconds=R.uniform(0.5, 3))
        ns = R.randint(200 * 10**6, 1900 * 10**6)
        c.add(t, "INFO", 'ts=%s caller=head.go:1270 level=info component=tsdb msg="WAL checkpoint complete" first=%d last=%d duration=%s' % (ts(t), 40 + 3 * k, 42 + 3 * k, godur(ns)), logger="tsdb", duration=ns / 1e6)
    for h in (3.3, 6.8):
        t = start + dt.timedelta(hours=h)
        c.add(t, "INFO", 'ts=%s caller=main.go:1372 level=info msg="Loading configuration file" filename=/etc/prometheus/prometheus.yml' % ts(t))
        t += dt.timedelta(milliseconds=31)
        tot = R.randint(15 * 10**6, 40 * 10**6)
        c.add(t, "INFO", 'ts=%s caller=main.go:1409 level=info msg="Completed loading of configuration file" filename=/etc/prometheus/prometheus.yml totalDuration=%s db_storage=1.3\u00b5s remote_storage=2.1\u00b5s web_handler=700ns query_engine=1.05\u00b5s scrape=%s scrape_sd=1.802ms notify=40.1\u00b5s notify_sd=22.7\u00b5s rules=8.91ms tracing=5.1\u00b5s'
              % (ts(t), godur(tot), godur(tot // 2)), duration=tot / 1e6)
    c.checks = [("max", "duration", "ms"), ("top", "logger"), ("count_where", "logger", "tsdb"),
                ("count_contains", "out-of-order"), ("count_contains", "context deadline exceeded")]
    return c


# ----------------------------------------------------------------- f04
KEYERR_TB = """Traceback (most recent call last):

  File "/srv/seedcatalog/worker.py", line 212, in <module>
    run_forever()
    \u2514 <function run_forever at 0x7f8a1c2b3d30>

  File "/srv/seedcatalog/worker.py", line 198, in run_forever
    refresh_lot(lot_id)
    \u2502           \u2514 '{lot}'
    \u2514 <function refresh_lot at 0x7f8a1c2b3ca0>

> File "/srv/seedcatalog/worker.py", line 141, in refresh_lot
    rate = stats["germination_rate"]
           \u2514 {{'lot': '{lot}', 'viability': 0.{v}, 'origin': 'Ober\u00f6sterreich'}}

KeyError: 'germination_rate'"""

POOL_TB = """Traceback (most recent call last):
  File "/srv/seedcatalog/db.py", line 77, in acquire
    conn = await self.pool.acquire(timeout=5)
  File "/opt/venv/lib/python3.12/site-packages/asyncpg/pool.py", line 864, in acquire
    return await _acquire_impl()
  File "/opt/venv/lib/python3.12/site-packages/asyncpg/pool.py", line 849, in _acquire_impl
    proxy = await ch.acquire()  # type: PoolConnectionProxy
  File "/opt/venv/lib/python3.12/site-packages/asyncpg/connect_utils.py", line 1012, in _connect_addr
    return await __connect_addr(params, timeout, True, *args)
asyncpg.exceptions.TooManyConnectionsError: sorry, too many clients already"""


def f04():
    c = Case("f04-loguru", "seed-catalog.log",
             "Python loguru default file sink format (time | LEVEL | name:function:line - message, with backtrace/diagnose tracebacks)")
    mods = {"seedcatalog.api": [("handle_request", 88), ("auth_middleware", 41)],
            "seedcatalog.db": [("acquire", 79), ("run_query", 133)], "seedcatalog.cache": [("get", 52), ("set", 67)],
            "seedcatalog.search": [("suggest", 204)], "seedcatalog.worker": [("refresh_lot", 141), ("import_feed", 260)]}
    paths = ["/v1/seeds", "/v1/seeds/4411", "/v1/lots/L-2291", "/v1/search?q=paradeiser", "/v1/varieties/\u00e4pfel-boskoop"]

    def line(t, lv, name, msg):
        fn, ln = R.choice(mods[name])
        return "%s | %-8s | %s:%s:%d - %s" % (ms3(t), lv, name, fn, ln, msg)
    for t in spread(dt.datetime(2026, 3, 16, 13, 5, 2), 3 * 3600 + 400, 1050):
        r = R.random()
        if r < 0.42:
            name = "seedcatalog.api"
            lv, canon = ("INFO", "INFO") if R.random() < 0.8 else ("DEBUG", "DEBUG")
            st = R.choice([200, 200, 200, 201, 304, 404, 422])
            msg = "%s %s \u2192 %d (%.1f ms)" % (R.choice(["GET", "GET", "POST"]), R.choice(paths), st, R.uniform(0.8, 480))
        elif r < 0.60:
            name = "seedcatalog.cache"
            lv, canon = ("DEBUG", "DEBUG") if R.random() < 0.85 else ("TRACE", "TRACE")
            msg = "cache %s for key seed:%d" % (R.choice(["hit", "hit", "miss"]), R.randint(1000, 9999))
        elif r < 0.72:
            name = "seedcatalog.db"
            lv, canon = "WARNING", "WARN"
            msg = "slow query on lots table: %.2f s (rows=%d)" % (R.uniform(1, 6), R.randint(1, 90000))
        elif r < 0.80:
            name = "seedcatalog.worker"
            lv, canon = "SUCCESS", None
            msg = "Imported %d seed lots from K\u00e4rnten partner feed" % R.randint(10, 900)
        elif r < 0.88:
            name = "seedcatalog.search"
            lv, canon = "INFO", "INFO"
            msg = "suggest index rebuilt: %d terms, %d varieties \u2014 took %.2fs" % (R.randint(10**4, 9 * 10**4), R.randint(200, 900), R.uniform(0.2, 4))
        elif r < 0.93:
            lot = "L-%d" % R.randint(1000, 3000)
            c.add(t, "ERROR", ["%s | %-8s | seedcatalog.worker:refresh_lot:141 - %s" % (ms3(t), "ERROR",
                                    "An error has been caught in function 'refresh_lot', process 'MainProcess' (8123), thread 'MainThread' (140232129824576):")]
                  + KEYERR_TB.format(lot=lot, v=R.randint(50, 99)).split("\n"), logger="seedcatalog.worker")
            continue
        elif r < 0.97:
            c.add(t, "ERROR", [line(t, "ERROR", "seedcatalog.db", "Pool acquire failed after 5.0 s, giving up on request %s" % hx(12))]
                  + POOL_TB.split("\n"), logger="seedcatalog.db")
            continue
        elif r < 0.985:
            name = "seedcatalog.worker"
            lv, canon = "CRITICAL", "CRITICAL"
            msg = "Vault climate feed unreachable for 300 s \u2014 switching to cached readings"
        else:
            name = "seedcatalog.api"
            lv, canon = "INFO", "INFO"
            msg = "request body preview: " + json.dumps({"lots": [{"id": "L-%d" % R.randint(1000, 3000), "variety": "Ochsenherz", "grams": R.randint(1, 500)} for _ in range(25)]}, ensure_ascii=False)
        c.add(t, canon, line(t, lv, name, msg), logger=name)
    c.checks = [("count_contains", "KeyError: 'germination_rate'"), ("count_contains", "TooManyConnectionsError"),
                ("top", "logger"), ("distinct", "logger"), ("count_where", "logger", "seedcatalog.db")]
    return c


# ----------------------------------------------------------------- f05
def f05():
    c = Case("f05-airflow-scheduler", "scheduler.log",
             "Apache Airflow 2.x scheduler log ([ts] {file.py:line} LEVEL - msg, tab-indented TaskInstance lists, tracebacks)")
    start = dt.datetime(2026, 3, 16, 0, 0, 0)

    def ts(t):
        return "[" + t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d+0000]" % (t.microsecond // 1000)

    def L(t, src, lv, msg):
        return "%s {%s} %s - %s" % (ts(t), src, lv, msg)
    canon = {"INFO": "INFO", "WARNING": "WARN", "ERROR": "ERROR"}

    def add(t, src, lv, msg, extra=(), **f):
        c.add(t, canon[lv], [L(t, src, lv, msg)] + list(extra), logger=src.split(":")[0], **f)
    dags = {"seed_inventory_sync": (60, ["extract_lots", "load_lots"]), "germination_report": (120, ["collect_trays", "render_pdf"]),
            "vault_climate_rollup": (30, ["rollup"]), "lot_label_export": (240, ["export_labels", "upload_sftp"])}
    end = start + dt.timedelta(hours=10)
    for dag, (every, tasks) in dags.items():
        T = start + dt.timedelta(minutes=every)
        while T < end:
            run_id = "scheduled__" + (T - dt.timedelta(minutes=every)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
            t = T + dt.timedelta(seconds=R.uniform(0.2, 4))
            tis = ["\t<TaskInstance: %s.%s %s [scheduled]>" % (dag, tk, run_id) for tk in tasks]
            add(t, "scheduler_job_runner.py:417", "INFO", "%d tasks up for execution:" % len(tasks), tis)
            t += dt.timedelta(milliseconds=R.randint(3, 30))
            add(t, "scheduler_job_runner.py:480", "INFO", "DAG %s has 0/16 running and queued tasks" % dag)
            t += dt.timedelta(milliseconds=R.randint(3, 30))
            add(t, "scheduler_job_runner.py:596", "INFO", "Setting the following tasks to queued state:", tis)
            failed_run = R.random() < 0.12
            dr_start = t
            for j, tk in enumerate(tasks):
                key = "TaskInstanceKey(dag_id='%s', task_id='%s', run_id='%s', try_number=1, map_index=-1)" % (dag, tk, run_id)
                t += dt.timedelta(milliseconds=R.randint(3, 30))
                add(t, "scheduler_job_runner.py:639", "INFO", "Sending %s to executor with priority %d and queue default" % (key, len(tasks) - j))
                t += dt.timedelta(milliseconds=R.randint(1, 9))
                add(t, "base_executor.py:146", "INFO", "Adding to queue: ['airflow', 'tasks', 'run', '%s', '%s', '%s', '--local', '--subdir', 'DAGS_FOLDER/%s.py']" % (dag, tk, run_id, dag))
                dur = round(R.uniform(2, 400), 6)
                if dag == "lot_label_export" and tk == "upload_sftp" and T.hour == 4:
                    dur = 1893.412066
                t2 = t + dt.timedelta(seconds=dur + R.uniform(1, 6))
                state = "failed" if (failed_run and j == len(tasks) - 1) else "success"
                add(t2, "scheduler_job_runner.py:686", "INFO", "Received executor event with state %s for task instance %s" % (state, key))
                t2b = t2 + dt.timedelta(milliseconds=R.randint(5, 40))
                rs = t2 - dt.timedelta(seconds=dur)
                add(t2b, "scheduler_job_runner.py:723", "INFO",
                    "TaskInstance Finished: dag_id=%s, task_id=%s, run_id=%s, map_index=-1, run_start_date=%s+00:00, run_end_date=%s+00:00, run_duration=%s, state=%s, executor_state=%s, try_number=1, max_tries=2, job_id=%d, pool=default_pool, queue=default, priority_weight=%d, operator=PythonOperator, queued_dttm=%s+00:00, queued_by_job_id=1, pid=%d"
                    % (dag, tk, run_id, rs.strftime("%Y-%m-%d %H:%M:%S.%f"), t2.strftime("%Y-%m-%d %H:%M:%S.%f"), dur, state, state,
                       R.randint(4000, 9000), len(tasks) - j, t.strftime("%Y-%m-%d %H:%M:%S.%f"), R.randint(20000, 60000)),
                    duration=dur)
                t = t2b
            t += dt.timedelta(seconds=R.uniform(1, 5))
            st = "failed" if failed_run else "success"
            add(t, "dagrun.py:653", "INFO" if st == "success" else "ERROR",
                "Marking run <DagRun %s @ %s+00:00: %s, state:running, queued_at: %s+00:00. externally triggered: False> %s"
                % (dag, (T - dt.timedelta(minutes=every)).strftime("%Y-%m-%d %H:%M:%S"), run_id, T.strftime("%Y-%m-%d %H:%M:%S.%f"), "successful" if st == "success" else "failed"))
            rd = round((t - dr_start).total_seconds(), 6)
            add(t + dt.timedelta(milliseconds=2), "dagrun.py:704", "INFO",
                "DagRun Finished: dag_id=%s, execution_date=%s+00:00, run_id=%s, run_start_date=%s+00:00, run_end_date=%s+00:00, run_duration=%s, state=%s, external_trigger=False, run_type=scheduled, data_interval_start=%s+00:00, data_interval_end=%s+00:00, dag_hash=%s"
                % (dag, (T - dt.timedelta(minutes=every)).strftime("%Y-%m-%d %H:%M:%S"), run_id, dr_start.strftime("%Y-%m-%d %H:%M:%S.%f"),
                   t.strftime("%Y-%m-%d %H:%M:%S.%f"), rd, st, (T - dt.timedelta(minutes=every)).strftime("%Y-%m-%d %H:%M:%S"), T.strftime("%Y-%m-%d %H:%M:%S"), hx(32)),
                duration=rd)
            T += dt.timedelta(minutes=every)
    T = start + dt.timedelta(seconds=17)
    while T < end:
        add(T, "scheduler_job_runner.py:1608", "INFO", "Adopting or resetting orphaned tasks for active dag runs")
        T += dt.timedelta(minutes=5, milliseconds=R.randint(0, 900))
    for t in spread(start + dt.timedelta(minutes=3), 9.5 * 3600, 30):
        if R.random() < 0.5:
            add(t, "scheduler_job_runner.py:1720", "WARNING", "Failing (%d) jobs without heartbeat after %s+00:00" % (R.randint(1, 3), (t - dt.timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M:%S.%f")))
        else:
            add(t, "manager.py:1057", "WARNING", "Processor for /opt/airflow/dags/germination_report.py with PID %d started at %s+00:00 has timed out, killing it." % (R.randint(3000, 9000), (t - dt.timedelta(seconds=50)).isoformat()))
    tb = """Traceback (most recent call last):
  File "/home/airflow/.local/lib/python3.11/site-packages/sqlalchemy/engine/base.py", line 1910, in _execute_context
    self.dialect.do_execute(
  File "/home/airflow/.local/lib/python3.11/site-packages/sqlalchemy/engine/default.py", line 736, in do_execute
    cursor.execute(statement, parameters)
psycopg2.OperationalError: could not translate host name "airflow-pg.seedvault.internal" to address: Temporary failure in name resolution

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/jobs/scheduler_job_runner.py", line 847, in _execute
    self._run_scheduler_loop()
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/jobs/scheduler_job_runner.py", line 979, in _run_scheduler_loop
    num_queued_tis = self._do_scheduling(session)
sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not translate host name "airflow-pg.seedvault.internal" to address: Temporary failure in name resolution

(Background on this error at: https://sqlalche.me/e/14/e3q8)"""
    for t in spread(start + dt.timedelta(hours=2), 6 * 3600, 4):
        add(t, "scheduler_job_runner.py:863", "ERROR", "Exception when executing SchedulerJob._run_scheduler_loop", tb.split("\n"))
    c.checks = [("max", "duration", "s"), ("count_contains", "<TaskInstance: germination_report"),
                ("count_contains", "psycopg2.OperationalError"), ("top", "logger"), ("count_where", "logger", "dagrun.py")]
    return c


# ----------------------------------------------------------------- f06
def f06():
    c = Case("f06-zookeeper", "zookeeper-server.log",
             "Apache ZooKeeper 3.8 server log (logback: %d{ISO8601} [myid:%X{myid}] - %-5p [%t:%C{1}@%L] - %m%n)")
    lvmap = {"INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR"}

    def L(t, lv, thread, cls, ln, msg):
        return "%s,%03d [myid:2] - %-5s [%s:%s@%d] - %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000, lv, thread, cls, ln, msg)

    def add(t, lv, thread, cls, ln, msg, extra=()):
        c.add(t, lvmap[lv], [L(t, lv, thread, cls, ln, msg)] + list(extra), thread=thread, logger=cls)
    clients = ["10.40.2.%d" % i for i in (11, 12, 13, 27, 28)] + ["10.40.3.17"]
    zxid = 0x300000000 + 0xa1f2
    for t in spread(dt.datetime(2026, 3, 13, 18, 0, 1), 20 * 3600, 900):
        r = R.random()
        sid = "0x200%s" % hx(11)
        nio = "NIOWorkerThread-%d" % R.randint(1, 8)
        if r < 0.32:
            add(t, "INFO", "SessionTracker", "ZooKeeperServer", 628, "Expiring session %s, timeout of 40000ms exceeded" % sid)
        elif r < 0.45:
            add(t, "INFO", nio, "ZooKeeperServer", 1086, "Submitting global closeSession request for session %s" % sid)
        elif r < 0.58:
            ip = R.choice(clients)
            add(t, "WARN", nio, "NIOServerCnxn", 371, "Unexpected exception", [
                "org.apache.zookeeper.server.ServerCnxn$EndOfStreamException: Unable to read additional data from client, it probably closed the socket: address = /%s:%d, session = %s" % (ip, R.randint(30000, 60000), sid),
                "\tat org.apache.zookeeper.server.NIOServerCnxn.handleFailedRead(NIOServerCnxn.java:170)",
                "\tat org.apache.zookeeper.server.NIOServerCnxn.doIO(NIOServerCnxn.java:333)",
                "\tat org.apache.zookeeper.server.NIOServerCnxnFactory$IOWorkRequest.doWork(NIOServerCnxnFactory.java:508)",
                "\tat org.apache.zookeeper.server.WorkerService$ScheduledWorkRequest.run(WorkerService.java:154)",
                "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)",
                "\tat java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)",
                "\tat java.base/java.lang.Thread.run(Thread.java:840)"])
        elif r < 0.66:
            add(t, "WARN", nio, "NIOServerCnxn", 380, "Close of session %s" % sid, [
                "java.io.IOException: Connection reset by peer",
                "\tat java.base/sun.nio.ch.FileDispatcherImpl.read0(Native Method)",
                "\tat java.base/sun.nio.ch.SocketDispatcher.read(SocketDispatcher.java:47)",
                "\tat java.base/sun.nio.ch.IOUtil.readIntoNativeBuffer(IOUtil.java:330)",
                "\tat java.base/sun.nio.ch.IOUtil.read(IOUtil.java:284)",
                "\tat java.base/sun.nio.ch.SocketChannelImpl.read(SocketChannelImpl.java:425)",
                "\tat org.apache.zookeeper.server.NIOServerCnxn.doIO(NIOServerCnxn.java:324)",
                "\tat org.apache.zookeeper.server.NIOServerCnxnFactory$IOWorkRequest.doWork(NIOServerCnxnFactory.java:508)",
                "\tat java.base/java.lang.Thread.run(Thread.java:840)"])
        elif r < 0.78:
            zxid += R.randint(2000, 90000)
            add(t, "INFO", "SyncThread:2", "FileTxnLog", 284, "Creating new log file: log.%x" % zxid)
        elif r < 0.86:
            add(t, "WARN", "SyncThread:2", "FileTxnLog", 402,
                "fsync-ing the write ahead log in SyncThread:2 took %dms which will adversely effect operation latency.File size is %d bytes. See the ZooKeeper troubleshooting guide" % (R.randint(1001, 9000), R.choice([67108880, 134217744])))
        elif r < 0.93:
            add(t, "INFO", "Snapshot Thread", "FileTxnSnapLog", 479, "Snapshotting: 0x%x to /data/zookeeper/version-2/snapshot.%x" % (zxid, zxid))
        elif r < 0.985:
            add(t, "INFO", "NIOWorkerThread-%d" % R.randint(1, 8), "AuthenticationHelper", 73,
                "Authentication succeeded for client /%s:%d with principal lot-tracker/seedvault@BRACKENSEED.IO" % (R.choice(clients), R.randint(30000, 60000)))
        else:
            q = "QuorumPeer[myid=2](plain=[0:0:0:0:0:0:0:0]:2181)(secure=disabled)"
            add(t, "ERROR", q, "Follower", 131, "Exception when following the leader", [
                "java.net.SocketTimeoutException: Read timed out",
                "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)",
                "\tat java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:314)",
                "\tat java.base/java.io.BufferedInputStream.fill(BufferedInputStream.java:244)",
                "\tat org.apache.jute.BinaryInputArchive.readInt(BinaryInputArchive.java:96)",
                "\tat org.apache.zookeeper.server.quorum.Learner.readPacket(Learner.java:236)",
                "\tat org.apache.zookeeper.server.quorum.Follower.followLeader(Follower.java:124)",
                "\tat org.apache.zookeeper.server.quorum.QuorumPeer.run(QuorumPeer.java:1556)"])
    c.checks = [("count_contains", "FileDispatcherImpl.read0"), ("count_contains", "EndOfStreamException"),
                ("top", "thread"), ("count_where", "logger", "FileTxnLog"), ("distinct", "logger")]
    return c


# ----------------------------------------------------------------- f07
def f07():
    c = Case("f07-solr", "solr.log",
             "Apache Solr 9 solr.log (log4j2: time LEVEL (thread) [c: s: r: x:] logger webapp=/solr path= params={} hits= status= QTime=)")
    cores = [("seeds", "shard1", "core_node3", "seeds_shard1_replica_n1"), ("seeds", "shard2", "core_node5", "seeds_shard2_replica_n4"),
             ("lots", "shard1", "core_node2", "lots_shard1_replica_n2")]
    lvmap = {"INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR"}

    def L(t, lv, th, core, logger, msg):
        mdc = "[c:%s s:%s r:%s x:%s]" % core if core else "[]"
        return "%s %-5s (%s) %s %s %s" % (ms3(t), lv, th, mdc, logger, msg)
    qs = ["q=variety:tomato&rows=10&wt=json", "q=*:*&fq=origin:%22Ober%C3%B6sterreich%22&rows=50&wt=json",
          "q=name:paradeiser*&defType=edismax&qf=name^2+description&rows=20&wt=json", "q=lot_id:L-2291&wt=javabin&version=2",
          "q=germinated_at:[NOW-7DAYS+TO+NOW]&facet=true&facet.field=vault_zone&rows=0&wt=json"]
    for t in spread(dt.datetime(2026, 3, 15, 8, 0, 4), 4 * 3600, 1000):
        th = "qtp1859039536-%d" % R.randint(12, 80)
        core = R.choice(cores)
        r = R.random()
        if r < 0.66:
            q = R.choice(qs)
            qt = int(R.expovariate(1 / 25.0)) + 1
            msg = "webapp=/solr path=/select params={%s} hits=%d status=0 QTime=%d" % (q, R.randint(0, 40000), qt)
            c.add(t, "INFO", L(t, "INFO", th, core, "o.a.s.c.S.Request", msg), thread=th, path="/select", status="0", duration=qt)
            if qt > 60 and R.random() < 0.3:
                qt = R.randint(1000, 4800)
                t2 = t + dt.timedelta(milliseconds=1)
                msg = "webapp=/solr path=/select params={%s} hits=%d status=0 QTime=%d" % (q, R.randint(0, 40000), qt)
                c.add(t2, "WARN", L(t2, "WARN", th, core, "o.a.s.c.S.SlowRequest", "slow: " + msg), thread=th, path="/select", status="0", duration=qt)
        elif r < 0.84:
            adds = ", ".join("LOT-%d (%d)" % (R.randint(1000, 3000), R.randint(10**18, 2 * 10**18)) for _ in range(R.randint(1, 4)))
            c.add(t, "INFO", L(t, "INFO", th, core, "o.a.s.u.p.LogUpdateProcessorFactory",
                               "[%s]  webapp=/solr path=/update params={wt=javabin&version=2}{add=[%s]} 0 %d" % (core[3], adds, R.randint(2, 60))),
                  thread=th, path="/update")
        elif r < 0.92:
            cth = "commitScheduler-%d-thread-1" % R.randint(20, 24)
            c.add(t, "INFO", L(t, "INFO", cth, core, "o.a.s.u.DirectUpdateHandler2",
                               "start commit{_version_=%d,optimize=false,openSearcher=true,waitSearcher=true,expungeDeletes=false,softCommit=true,prepareCommit=false}" % R.randint(10**18, 2 * 10**18)), thread=cth)
            t2 = t + dt.timedelta(milliseconds=R.randint(2, 40))
            c.add(t2, "INFO", L(t2, "INFO", cth, core, "o.a.s.s.SolrIndexSearcher", "Opening [Searcher@%s[%s] main]" % (hx(8), core[3])), thread=cth)
            t3 = t2 + dt.timedelta(milliseconds=R.randint(2, 40))
            c.add(t3, "INFO", L(t3, "INFO", cth, core, "o.a.s.u.DirectUpdateHandler2", "end_commit_flush"), thread=cth)
        elif r < 0.97:
            fld = R.choice(["germ_rate", "vault_zne", "harvest_yr"])
            q = "q=%s:[0.8+TO+*]&defType=edismax&wt=json" % fld
            e = "org.apache.solr.common.SolrException: undefined field %s" % fld
            c.add(t, "ERROR", [L(t, "ERROR", th, core, "o.a.s.h.RequestHandlerBase", "%s => %s" % (e, e)),
                               "\tat org.apache.solr.schema.IndexSchema.getField(IndexSchema.java:1285)",
                               e,
                               "\tat org.apache.solr.schema.IndexSchema.getField(IndexSchema.java:1285) ~[?:?]",
                               "\tat org.apache.solr.search.ExtendedDismaxQParser$ExtendedSolrQueryParser.getFieldQuery(ExtendedDismaxQParser.java:1368) ~[?:?]",
                               "\tat org.apache.solr.parser.SolrQueryParserBase.handleBareTokenQuery(SolrQueryParserBase.java:868) ~[?:?]",
                               "\tat org.apache.solr.search.ExtendedDismaxQParser.parse(ExtendedDismaxQParser.java:198) ~[?:?]",
                               "\tat org.apache.solr.search.QParser.getQuery(QParser.java:189) ~[?:?]",
                               "\tat org.apache.solr.handler.component.QueryComponent.prepare(QueryComponent.java:172) ~[?:?]",
                               "\tat org.apache.solr.handler.RequestHandlerBase.handleRequest(RequestHandlerBase.java:226) ~[?:?]",
                               "\tat org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.run(QueuedThreadPool.java:1149) ~[jetty-util-10.0.19.jar:10.0.19]",
                               "\tat java.base/java.lang.Thread.run(Thread.java:840) [?:?]"], thread=th)
            t2 = t + dt.timedelta(milliseconds=1)
            qt = R.randint(1, 9)
            c.add(t2, "INFO", L(t2, "INFO", th, core, "o.a.s.c.S.Request", "webapp=/solr path=/select params={%s} status=400 QTime=%d" % (q, qt)),
                  thread=th, path="/select", status="400", duration=qt)
        else:
            zth = "zkCallback-13-thread-%d" % R.randint(1, 9)
            c.add(t, "WARN", L(t, "WARN", zth, None, "o.a.s.c.c.ZkStateReader",
                               "Collection lots has no live replicas on node solr-2.seedvault.internal:8983_solr; state.json version %d" % R.randint(100, 900)), thread=zth)
    c.checks = [("max", "duration", "ms"), ("count_where", "status", "400"), ("count_where", "path", "/update"),
                ("count_contains", "ExtendedDismaxQParser"), ("count_contains", "end_commit_flush")]
    return c


# ----------------------------------------------------------------- f08
def f08():
    c = Case("f08-keycloak", "keycloak.log",
             "Keycloak 22 on Quarkus, file log (%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%c] (%t) %s%e) with org.keycloak.events key=value lines")
    realm = "3c5e91a2-7b1d-4f0e-9c44-2d8e6a1b0f37"
    ips = ["10.40.7.%d" % i for i in (3, 9, 15, 22, 40)] + ["198.51.100.7", "203.0.113.77", "192.0.2.15"]
    users = ["maren.okafor", "tobias.lindqvist", "aiko.brandt", "j\u00f6rg.h\u00e4fner", "svc-lot-tracker", "pia.nguyen", "admin"]
    uids = {u: uid() for u in users}
    lvmap = {"INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR", "DEBUG": "DEBUG"}

    def L(t, lv, cat, th, msg):
        return "%s,%03d %-5s [%s] (%s) %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000, lv, cat, th, msg)

    def add(t, lv, cat, th, msg, extra=(), **f):
        c.add(t, lvmap[lv], [L(t, lv, cat, th, msg)] + list(extra), logger=cat, thread=th, **f)
    for t in spread(dt.datetime(2026, 3, 17, 7, 30, 12), 11 * 3600, 640):
        th = "executor-thread-%d" % R.randint(1, 40)
        ip = wpick("10.40.7.21", ips, 0.3)
        sess = uid()
        r = R.random()
        if r < 0.45:
            u = R.choice(users[:-1])
            add(t, "INFO", "org.keycloak.events", th,
                "type=LOGIN, realmId=%s, clientId=seed-portal, userId=%s, sessionId=%s, ipAddress=%s, auth_method=openid-connect, auth_type=code, response_type=code, redirect_uri=https://portal.brackenseed.io/callback, consent=no_consent_required, code_id=%s, username=%s, authSessionParentId=%s, authSessionTabId=%s"
                % (realm, uids[u], sess, ip, sess, u, sess, hx(11)), client=ip, user=u)
        elif r < 0.62:
            u = R.choice(users)
            err = R.choice(["invalid_user_credentials", "invalid_user_credentials", "user_not_found", "user_temporarily_disabled"])
            add(t, "WARN", "org.keycloak.events", th,
                "type=LOGIN_ERROR, realmId=%s, clientId=seed-portal, userId=%s, sessionId=null, ipAddress=%s, error=%s, auth_method=openid-connect, auth_type=code, redirect_uri=https://portal.brackenseed.io/callback, code_id=%s, username=%s, authSessionParentId=%s, authSessionTabId=%s"
                % (realm, "null" if err == "user_not_found" else uids[u], ip, err, sess, u, sess, hx(11)), client=ip, user=u)
        elif r < 0.80:
            u = R.choice(users[:-1])
            add(t, "INFO", "org.keycloak.events", th,
                "type=%s, realmId=%s, clientId=%s, userId=%s, sessionId=%s, ipAddress=%s, token_id=%s, grant_type=%s, refresh_token_type=Refresh, scope='openid profile email', refresh_token_id=%s, client_auth_method=client-secret"
                % (R.choice(["CODE_TO_TOKEN", "REFRESH_TOKEN"]), realm, R.choice(["seed-portal", "lot-tracker-api", "order-desk"]), uids[u], sess, ip, uid(), R.choice(["authorization_code", "refresh_token"]), uid()),
                client=ip)
        elif r < 0.86:
            add(t, "INFO", "org.infinispan.CLUSTER", "jgroups-%d,kc-1-%d" % (R.randint(4, 9), R.randint(1000, 9999)),
                "ISPN000094: Received new cluster view for channel ISPN: [kc-0-58213|%d] (2) [kc-0-58213, kc-1-40917]" % R.randint(3, 30))
        elif r < 0.93:
            add(t, "WARN", "org.keycloak.services", th, "KC-SERVICES0013: Failed authentication: org.keycloak.authentication.AuthenticationFlowException", [
                "\tat org.keycloak.authentication.AuthenticationProcessor.authenticateOnly(AuthenticationProcessor.java:1005)",
                "\tat org.keycloak.authentication.AuthenticationProcessor.authenticate(AuthenticationProcessor.java:890)",
                "\tat org.keycloak.protocol.AuthorizationEndpointBase.handleBrowserAuthenticationRequest(AuthorizationEndpointBase.java:139)",
                "\tat org.keycloak.protocol.oidc.endpoints.AuthorizationEndpoint.process(AuthorizationEndpoint.java:218)",
                "\tat io.quarkus.vertx.core.runtime.VertxCoreRecorder$14.runWith(VertxCoreRecorder.java:576)",
                "\tat java.base/java.lang.Thread.run(Thread.java:840)"])
        elif r < 0.97:
            add(t, "ERROR", "org.keycloak.services.error.KeycloakErrorHandler", th,
                "Uncaught server error: org.keycloak.models.ModelException: javax.naming.CommunicationException: ldap.brackenseed.local:636 [Root exception is java.net.SocketTimeoutException: Read timed out]", [
                    "\tat org.keycloak.storage.ldap.idm.store.ldap.LDAPOperationManager.authenticate(LDAPOperationManager.java:561)",
                    "\tat org.keycloak.storage.ldap.LDAPStorageProvider.validPassword(LDAPStorageProvider.java:869)",
                    "\tat org.keycloak.authentication.authenticators.browser.AbstractUsernameFormAuthenticator.validatePassword(AbstractUsernameFormAuthenticator.java:231)",
                    "\tat java.base/java.lang.Thread.run(Thread.java:840)",
                    "Caused by: javax.naming.CommunicationException: ldap.brackenseed.local:636",
                    "\tat java.naming/com.sun.jndi.ldap.Connection.readReply(Connection.java:496)",
                    "\tat java.naming/com.sun.jndi.ldap.LdapClient.authenticate(LdapClient.java:300)",
                    "\t... 71 more",
                    "Caused by: java.net.SocketTimeoutException: Read timed out",
                    "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)",
                    "\tat java.base/sun.security.ssl.SSLSocketInputRecord.read(SSLSocketInputRecord.java:489)",
                    "\t... 3 more"])
        else:
            add(t, "DEBUG", "org.keycloak.transaction.JtaTransactionWrapper", th, "JtaTransactionWrapper end. Request Context: HTTP POST /realms/brackenseed/protocol/openid-connect/token")
    c.checks = [("top", "client"), ("count_where", "logger", "org.keycloak.events"), ("distinct", "user"),
                ("count_contains", "Caused by: java.net.SocketTimeoutException"), ("count_contains", "AuthorizationEndpoint.process")]
    return c


# ----------------------------------------------------------------- f09
def f09():
    c = Case("f09-nestjs", "order-desk.log",
             "NestJS built-in ConsoleLogger, colours off, stdout+stderr captured ([Nest] pid  - MM/DD/YYYY, h:mm:ss AM     LEVEL [Context] msg)")
    lvmap = {"LOG": "INFO", "ERROR": "ERROR", "WARN": "WARN", "DEBUG": "DEBUG", "VERBOSE": None}

    def stamp(t):
        h = t.hour % 12 or 12
        return "%s, %d:%s %s" % (t.strftime("%m/%d/%Y"), h, t.strftime("%M:%S"), "AM" if t.hour < 12 else "PM")

    def L(t, pid, lv, ctx, msg):
        return "[Nest] %d  - %s %7s [%s] %s" % (pid, stamp(t), lv, ctx, msg)

    def add(t, pid, lv, ctx, msg, extra=()):
        c.add(t, lvmap[lv], [L(t, pid, lv, ctx, msg)] + list(extra), pid=str(pid), logger=ctx)
    start = dt.datetime(2026, 3, 18, 7, 41, 9)
    boots = [(start, 4312), (start + dt.timedelta(hours=4, minutes=12), 5120), (start + dt.timedelta(hours=9, minutes=3), 5977)]
    ends = [b[0] for b in boots[1:]] + [start + dt.timedelta(hours=12, minutes=30)]
    ips = ["10.40.1.%d" % i for i in (5, 6, 7, 18)] + ["10.40.9.30"]
    for (bt, pid), et in zip(boots, ends):
        t = bt
        add(t, pid, "LOG", "NestFactory", "Starting Nest application...")
        for mod in ["AppModule", "TypeOrmModule", "ConfigHostModule", "HttpModule", "OrdersModule", "LotsModule", "HealthModule"]:
            t += dt.timedelta(milliseconds=R.randint(0, 30))
            add(t, pid, "LOG", "InstanceLoader", "%s dependencies initialized" % mod)
        for ctl, routes in [("OrdersController", ["{/v1/orders, GET}", "{/v1/orders/:id, GET}", "{/v1/orders, POST}"]),
                            ("LotsController", ["{/v1/lots/:lotId/reserve, POST}"]), ("HealthController", ["{/health, GET}"])]:
            add(t, pid, "LOG", "RoutesResolver", "%s {/}:" % ctl)
            for rt in routes:
                add(t, pid, "LOG", "RouterExplorer", "Mapped %s route" % rt)
        t += dt.timedelta(milliseconds=R.randint(5, 90))
        add(t, pid, "LOG", "NestApplication", "Nest application successfully started")
        n = int((et - bt).total_seconds() / 40)
        for t in spread(t + dt.timedelta(seconds=2), (et - t).total_seconds() - 30, n):
            r = R.random()
            if r < 0.55:
                st = R.choice([200, 200, 200, 201, 404, 409])
                add(t, pid, "LOG", "HTTP", "%s /v1/orders/%d %d %dms - %s" % (R.choice(["GET", "GET", "POST"]), R.randint(8000, 9999), st, R.randint(2, 900), R.choice(ips)))
            elif r < 0.68:
                add(t, pid, "DEBUG", "LotReservationService", "reserving %d g of lot L-%d for order %d (Saatgut \u201eOchsenherz\u201c)" % (R.randint(1, 500), R.randint(1000, 3000), R.randint(8000, 9999)))
            elif r < 0.78:
                add(t, pid, "WARN", "LotReservationService", "lot L-%d below safety stock: %d g left" % (R.randint(1000, 3000), R.randint(0, 40)))
            elif r < 0.84:
                add(t, pid, "VERBOSE", "TypeOrmLogger", "query: SELECT \"lot\".\"id\" FROM \"lots\" \"lot\" WHERE \"lot\".\"id\" = $1 -- PARAMETERS: [\"L-%d\"]" % R.randint(1000, 3000))
            elif r < 0.92:
                add(t, pid, "ERROR", "ExceptionsHandler", "Cannot read properties of undefined (reading 'lotId')", [
                    "TypeError: Cannot read properties of undefined (reading 'lotId')",
                    "    at OrdersService.reserve (/app/dist/orders/orders.service.js:88:41)",
                    "    at OrdersController.create (/app/dist/orders/orders.controller.js:31:39)",
                    "    at /app/node_modules/@nestjs/core/router/router-execution-context.js:38:29",
                    "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
                    "    at async /app/node_modules/@nestjs/core/router/router-proxy.js:9:17"])
            elif r < 0.97:
                add(t, pid, "ERROR", "TypeOrmModule", "Unable to connect to the database. Retrying (%d)..." % R.randint(1, 9), [
                    "Error: connect ECONNREFUSED 10.40.5.9:5432",
                    "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)"])
            else:
                add(t, pid, "LOG", "HealthController", "health check: db=up cache=up vault-climate=degraded \u2014 %d ms" % R.randint(1, 90))
    c.checks = [("count_contains", "at OrdersService.reserve"), ("count_contains", "TCPConnectWrap.afterConnect"),
                ("distinct", "pid"), ("top", "logger"), ("count_where", "logger", "LotReservationService")]
    return c


# ----------------------------------------------------------------- f10
def f10():
    c = Case("f10-jvm-gc", "gc.log",
             "HotSpot JDK 17 unified GC log, G1 (-Xlog:gc*,gc+heap=info:file=gc.log:time,uptime,level,tags)")
    start = dt.datetime(2026, 3, 19, 10, 0, 0, 412000)
    lvmap = {"info": "INFO", "warning": "WARN"}

    def L(t, lv, tags, msg):
        up = (t - start).total_seconds() + 2.113
        return "[%s.%03d+0000][%.3fs][%-5s][%-13s] %s" % (t.strftime("%Y-%m-%dT%H:%M:%S"), t.microsecond // 1000, up, lv, tags, msg)

    def add(t, lv, tags, msg, **f):
        c.add(t, lvmap[lv], L(t, lv, tags, msg), logger=tags, **f)
    add(start, "info", "gc,init", "Version: 17.0.10+7 (release)")
    add(start, "info", "gc,init", "CPUs: 8 total, 8 available")
    add(start, "info", "gc,init", "Memory: 15986M")
    add(start, "info", "gc,init", "Heap Region Size: 2M")
    add(start, "info", "gc,init", "Heap Min Capacity: 1G")
    add(start, "info", "gc,init", "Heap Max Capacity: 4G")
    add(start, "info", "gc", "Using G1")
    gcs = spread(start + dt.timedelta(seconds=20), 4 * 3600, 240)
    full_at = {60, 171}
    tse_at = {59, 170, 120}
    for i, t in enumerate(gcs):
        gid = i
        if i in full_at:
            add(t, "info", "gc,start", "GC(%d) Pause Full (G1 Compaction Pause)" % gid)
            ms = R.uniform(900, 2400) if i == 60 else 2871.406
            before, after = R.randint(3900, 4090), R.randint(1200, 1900)
            add(t, "info", "gc,heap", "GC(%d) Eden regions: 0->0(102)" % gid)
            add(t, "info", "gc,heap", "GC(%d) Old regions: %d->%d" % (gid, before // 2, after // 2))
            t2 = t + dt.timedelta(milliseconds=ms)
            add(t2, "info", "gc", "GC(%d) Pause Full (G1 Compaction Pause) %dM->%dM(4096M) %.3fms" % (gid, before, after, ms), duration=round(ms, 3))
            add(t2, "info", "gc,cpu", "GC(%d) User=%.2fs Sys=%.2fs Real=%.2fs" % (gid, ms * 6 / 1000, ms / 9000, int(ms / 10) / 100))
            continue
        kind = "Pause Young (Normal) (G1 Evacuation Pause)"
        if i % 25 == 24:
            kind = "Pause Young (Concurrent Start) (G1 Humongous Allocation)"
        add(t, "info", "gc,start", "GC(%d) %s" % (gid, kind))
        add(t, "info", "gc,task", "GC(%d) Using 8 workers of 8 for evacuation" % gid)
        if i in tse_at:
            add(t, "info", "gc", "GC(%d) To-space exhausted" % gid)
        eden = R.randint(80, 180)
        add(t, "info", "gc,heap", "GC(%d) Eden regions: %d->0(%d)" % (gid, eden, R.randint(80, 180)))
        add(t, "info", "gc,heap", "GC(%d) Survivor regions: %d->%d(%d)" % (gid, R.randint(2, 12), R.randint(2, 12), R.randint(12, 24)))
        add(t, "info", "gc,heap", "GC(%d) Old regions: %d->%d" % (gid, R.randint(300, 900), R.randint(300, 900)))
        add(t, "info", "gc,metaspace", "GC(%d) Metaspace: %dK(%dK)->%dK(%dK) NonClass: 98213K(99584K)->98213K(99584K) Class: 12931K(13568K)->12931K(13568K)" % (gid, 111144, 113152, 111144, 113152))
        ms = round(R.uniform(3, 60) if i not in tse_at else R.uniform(300, 800), 3)
        t2 = t + dt.timedelta(milliseconds=ms)
        add(t2, "info", "gc", "GC(%d) %s %dM->%dM(4096M) %.3fms" % (gid, kind, R.randint(900, 2600), R.randint(400, 1300), ms), duration=ms)
        add(t2, "info", "gc,cpu", "GC(%d) User=%.2fs Sys=%.2fs Real=%.2fs" % (gid, ms * 7 / 1000, ms / 12000, int(ms / 10) / 100))
        if "Concurrent Start" in kind:
            add(t2, "info", "gc", "GC(%d) Concurrent Mark Cycle" % gid)
            cm = round(R.uniform(80, 600), 3)
            add(t2 + dt.timedelta(milliseconds=cm), "info", "gc", "GC(%d) Concurrent Mark Cycle %.3fms" % (gid, cm), duration=cm)
    for t in spread(start + dt.timedelta(hours=1), 2 * 3600, 5):
        add(t, "warning", "os,thread", 'Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 0k, detached.')
    c.checks = [("max", "duration", "ms"), ("count_contains", "Pause Full"), ("count_contains", "To-space exhausted"),
                ("count_where", "logger", "gc,heap"), ("count_contains", "Concurrent Mark Cycle")]
    return c


# ----------------------------------------------------------------- f11
def f11():
    c = Case("f11-oracle-listener", "listener.log",
             "Oracle Net listener log, text form (DD-MON-YYYY HH:MI:SS * connect data * protocol info * event * SID/service * return code; TNS- error lines follow)")

    def st(t):
        return t.strftime("%d-") + t.strftime("%b").upper() + t.strftime("-%Y %H:%M:%S")
    cl = [("JDBC Thin Client", "__jdbc__", "lottrk"), ("sqlplus", "ws-0142", "tlindqvist"), ("python3", "germlab-batch-2", "germlab"),
          ("JDBC Thin Client", "__jdbc__", "orderdesk"), ("C:\\app\\client\\Toad.exe", "LAPTOP-MOKAFOR", "maren.okafor"), ("sqlplus", "vault-node-1", "oracle")]
    ips = ["10.40.3.%d" % i for i in (5, 9, 11, 23)] + ["10.40.9.30", "10.40.9.31", "10.40.1.12"]
    for t in spread(dt.datetime(2026, 3, 20, 0, 0, 4), 23 * 3600, 1150):
        r = R.random()
        if r < 0.08:
            c.add(t, None, "%s * service_update * SEEDDB * 0" % st(t))
            continue
        if r < 0.11:
            c.add(t, None, "%s * ping * 0" % st(t))
            continue
        if r < 0.14:
            c.add(t, None, ["%s * 12502" % st(t), "TNS-12502: TNS:listener received no CONNECT_DATA from client"])
            continue
        prog, chost, user = cl[0] if R.random() < 0.3 else R.choice(cl)
        ip = wpick("10.40.3.17", ips, 0.3)
        svc = "SEEDPDB.brackenseed.local"
        code = 0
        extra = []
        if R.random() < 0.08:
            svc, code = "SEEDDEV", 12514
            extra = ["TNS-12514: TNS:listener does not currently know of service requested in connect descriptor"]
        elif R.random() < 0.03:
            code = 12518
            extra = ["TNS-12518: TNS:listener could not hand off client connection",
                     " TNS-12560: TNS:protocol adapter error",
                     "  TNS-00517: Lost contact",
                     "   Linux Error: 32: Broken pipe"]
        line = "%s * (CONNECT_DATA=(SERVICE_NAME=%s)(CID=(PROGRAM=%s)(HOST=%s)(USER=%s))) * (ADDRESS=(PROTOCOL=tcp)(HOST=%s)(PORT=%d)) * establish * %s * %d" % (
            st(t), svc, prog, chost, user, ip, R.randint(30000, 65000), svc, code)
        c.add(t, None, [line] + extra, client=ip, user=user, program=prog)
    c.checks = [("top", "client"), ("distinct", "user"), ("count_contains", "TNS-12514"), ("count_contains", "Linux Error: 32"),
                ("count_contains", "service_update"), ("count_where", "user", "germlab")]
    return c


# ----------------------------------------------------------------- f12
def f12():
    c = Case("f12-mssql-errorlog", "ERRORLOG",
             "Microsoft SQL Server 2019 ERRORLOG (yyyy-mm-dd hh:mm:ss.cc Source(padded) message), stored as UTF-8")

    def L(t, src, msg):
        return "%s.%02d %-12s%s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 10000, src, msg)
    start = dt.datetime(2026, 3, 21, 6, 2, 41, 330000)
    t = start
    boot = [("Server", "Microsoft SQL Server 2019 (RTM-CU25) (KB5033688) - 15.0.4355.3 (X64) \n\tJan 30 2024 17:02:22 \n\tCopyright (C) 2019 Microsoft Corporation\n\tStandard Edition (64-bit) on Windows Server 2022 Datacenter 10.0 <X64> (Build 20348: ) (Hypervisor)"),
            ("Server", "UTC adjustment: 1:00"), ("Server", "(c) Microsoft Corporation."), ("Server", "All rights reserved."),
            ("Server", "Server process ID is 4312."), ("Server", "System Manufacturer: 'VMware, Inc.', System Model: 'VMware7,1'."),
            ("Server", "Authentication mode is MIXED."),
            ("Server", "Logging SQL Server messages in file 'D:\\MSSQL15.MSSQLSERVER\\MSSQL\\Log\\ERRORLOG'."),
            ("Server", "The service account is 'BRACKENSEED\\svc-sqlvault'. This is an informational message; no user action is required."),
            ("spid9s", "Starting up database 'master'."), ("spid9s", "Starting up database 'msdb'."), ("spid14s", "Starting up database 'seedvault'."),
            ("spid14s", "Recovery completed for database seedvault (database ID 7) in 2 second(s) (analysis 31 ms, redo 1204 ms, undo 88 ms [system undo 0 ms, regular undo 88 ms].) This is an informational message only. No user action is required."),
            ("spid9s", "SQL Server is now ready for client connections. This is an informational message; no user action is required.")]
    for src, msg in boot:
        c.add(t, None, L(t, src, msg).split("\n"))
        t += dt.timedelta(milliseconds=R.randint(0, 600))
    ips = ["10.40.3.%d" % i for i in (5, 9, 11)] + ["10.40.9.30", "10.40.1.12", "<local machine>"]
    users = ["seed_ro", "sa", "BRACKENSEED\\tlindqvist", "lot_writer", "report_svc"]
    reasons = ["Password did not match that for the login provided.", "Could not find a login matching the name provided.",
               "Failed to open the explicitly specified database 'seedvault_archiv'."]
    states = {reasons[0]: 8, reasons[1]: 5, reasons[2]: 38}
    for tt in spread(start + dt.timedelta(minutes=3), 40 * 3600, 260):
        r = R.random()
        if r < 0.6:
            ip = wpick("10.40.3.17", ips, 0.32)
            u, rs = R.choice(users), R.choice(reasons)
            c.add(tt, None, L(tt, "Logon", "Error: 18456, Severity: 14, State: %d." % states[rs]))
            c.add(tt, None, L(tt, "Logon", "Login failed for user '%s'. Reason: %s [CLIENT: %s]" % (u, rs, ip)), client=ip, user=u)
        elif r < 0.8:
            sp = "spid%ds" % R.randint(12, 30)
            c.add(tt, None, L(tt, sp, "SQL Server has encountered %d occurrence(s) of I/O requests taking longer than 15 seconds to complete on file [E:\\SQLData\\seedvault_log.ldf] in database id 7.  The OS file handle is 0x0000000000000F3C.  The offset of the latest long I/O is: 0x000000%s" % (R.randint(1, 40), hx(8))))
        else:
            sp = "spid%d" % R.randint(51, 90)
            c.add(tt, None, L(tt, sp, "Setting database option %s to %s for database '%s'." % (R.choice(["RECOVERY", "AUTO_CLOSE", "READ_COMMITTED_SNAPSHOT"]), R.choice(["SIMPLE", "OFF", "ON"]), R.choice(["seedvault", "germlab_stage", "K\u00e4ltelager_hist"]))))
    tt = start + dt.timedelta(minutes=15)
    while tt < start + dt.timedelta(hours=40):
        bt = tt + dt.timedelta(seconds=R.uniform(0, 5))
        c.add(bt, None, L(bt, "Backup", "Log was backed up. Database: seedvault, creation date(time): 2025/11/02(10:12:44), first LSN: 35:%d:1, last LSN: 35:%d:1, number of dump devices: 1, device information: (FILE=1, TYPE=DISK: {'\\\\backup01\\sql\\seedvault\\seedvault_log_%s.trn'}). This is an informational message only. No user action is required." % (R.randint(1000, 5000), R.randint(5000, 9000), bt.strftime("%Y%m%d%H%M"))))
        tt += dt.timedelta(minutes=15)
    for d in (1,):
        m = dt.datetime(2026, 3, 22, 0, 0, 0, 20000)
        c.add(m, None, L(m, "spid29s", "This instance of SQL Server has been using a process ID of 4312 since 3/21/2026 6:02:41 AM (local) 3/21/2026 5:02:41 AM (UTC). This is an informational message only; no user action is required."))
    c.checks = [("top", "client"), ("count_contains", "Error: 18456"), ("count_contains", "Log was backed up"),
                ("count_where", "user", "sa"), ("count_contains", "I/O requests taking longer than 15 seconds")]
    return c


# ----------------------------------------------------------------- f13
def f13():
    c = Case("f13-openstack-nova-api", "nova-api.log",
             "OpenStack Nova API (oslo.log: time pid LEVEL logger [request context] msg; wsgi lines with status: len: time:)")
    c.blank_rate = 0.002
    pids = [21873, 21874, 21875, 21876]
    users = [hx(32) for _ in range(6)]
    projs = [hx(32) for _ in range(3)]
    ips = ["10.40.2.%d" % i for i in (11, 12, 13)] + ["10.40.9.30", "10.40.1.5"]
    lvmap = {"INFO": "INFO", "WARNING": "WARN", "ERROR": "ERROR", "DEBUG": "DEBUG"}
    reqs = [("GET", "/v2.1/servers/detail?all_tenants=True", 200), ("GET", "/v2.1/flavors/detail", 200), ("POST", "/v2.1/servers", 202),
            ("GET", "/v2.1/os-hypervisors/detail", 200), ("DELETE", "/v2.1/servers/%s", 204), ("GET", "/v2.1/servers/%s", 200),
            ("POST", "/v2.1/servers/%s/action", 202), ("GET", "/v2.1/limits", 200)]
    for t in spread(dt.datetime(2026, 3, 22, 9, 0, 2), 6 * 3600, 1200):
        pid = R.choice(pids)
        ctx = "[None req-%s %s %s - - default default]" % (uid(), R.choice(users), R.choice(projs))
        head = "%s %d %%s %%s %s " % (ms3(t), pid, ctx)
        r = R.random()
        if r < 0.78:
            m, p, st = R.choice(reqs)
            if "%s" in p:
                p = p % uid()
            if "servers/" in p and m == "GET" and R.random() < 0.2:
                st = 404
            if m == "POST" and R.random() < 0.05:
                st = 409
            if R.random() < 0.01:
                st = 500
            ip = wpick("10.40.2.14", ips, 0.3)
            ln = 0 if st == 204 else R.randint(300, 40000)
            dur = R.uniform(0.01, 1.2) if R.random() < 0.97 else R.uniform(2, 31)
            dur_s = "%.7f" % dur
            lv = "INFO"
            c.add(t, "INFO", (head % (lv, "nova.osapi_compute.wsgi.server")) + '%s "%s %s HTTP/1.1" status: %d len: %d time: %s' % (ip, m, p, st, ln, dur_s),
                  pid=str(pid), logger="nova.osapi_compute.wsgi.server", client=ip, method=m, status=str(st), bytes=ln, duration=float(dur_s) * 1000)
        elif r < 0.88:
            c.add(t, "INFO", (head % ("INFO", "nova.api.openstack.wsgi")) + "HTTP exception thrown: Instance %s could not be found." % uid(), pid=str(pid), logger="nova.api.openstack.wsgi")
        elif r < 0.95:
            c.add(t, "WARN", (head % ("WARNING", "nova.compute.api")) + "[instance: %s] instance's host vault-cmp-0%d is down, deleting from database" % (uid(), R.randint(1, 6)), pid=str(pid), logger="nova.compute.api")
        elif r < 0.98:
            c.add(t, "WARN", (head % ("WARNING", "keystonemiddleware.auth_token")) + "Identity response: {\"error\":{\"code\":401,\"message\":\"The request you have made requires authentication.\",\"title\":\"Unauthorized\"}}", pid=str(pid), logger="keystonemiddleware.auth_token")
        else:
            c.add(t, "ERROR", (head % ("ERROR", "nova.scheduler.client.report")) + "[instance: %s] Failed to update inventory for resource provider vault-cmp-03: 409 {\"errors\": [{\"status\": 409, \"title\": \"Conflict\", \"detail\": \"There was a conflict when trying to complete your request.\\n\\n resource provider generation conflict  \", \"code\": \"placement.concurrent_update\"}]}" % uid(), pid=str(pid), logger="nova.scheduler.client.report")
    c.checks = [("count_where", "status", "404"), ("max", "duration", "ms"), ("sum", "bytes", "b"), ("top", "client"),
                ("distinct", "pid"), ("count_where", "method", "DELETE")]
    return c


# ----------------------------------------------------------------- f14
def f14():
    c = Case("f14-cloudflare-logpush", "http_requests_20260323T1400Z.log",
             "Cloudflare Logpush http_requests dataset, NDJSON, timestamps as unixnano (alphabetical field list)")
    ips = ["198.51.100.%d" % i for i in (7, 23, 44, 90)] + ["203.0.113.%d" % i for i in (5, 40, 77)] + ["2a02:8108:1dc0:4e00::3f", "192.0.2.15"]
    hosts = ["catalog.brackenseed.io", "api.brackenseed.io", "portal.brackenseed.io", "static.brackenseed.io"]
    paths = ["/v1/seeds?variety=tomato", "/v1/lots/L-2291", "/v1/orders", "/login", "/wp-login.php", "/static/app.9f3c1e.js",
             "/v1/search?q=k%C3%BCrbis", "/favicon.ico"]
    start = dt.datetime(2026, 3, 23, 14, 0, 0, 312000)
    for t in spread(start, 50 * 60, 640):
        ip = wpick("203.0.113.77", ips, 0.27)
        m = R.choices(["GET", "POST", "PUT", "OPTIONS"], [68, 22, 5, 5])[0]
        p = R.choice(paths)
        es = R.choices([200, 304, 404, 403, 522, 301, 499], [64, 10, 8, 8, 3, 5, 2])[0]
        os_ = 0 if es in (403, 499) else (es if es != 522 else 0)
        cache = "hit" if p.startswith("/static") and es == 200 else R.choice(["miss", "dynamic", "dynamic", "expired"])
        b = R.randint(300, 90000) if es in (200,) else R.randint(150, 1200)
        start_ns = int(round(epoch(t) * 1e6)) * 1000 + R.randint(0, 999)
        end_ns = start_ns + R.randint(2, 900) * 10**6 + R.randint(0, 10**6)
        ev = {"CacheCacheStatus": cache, "CacheResponseBytes": b if cache == "hit" else 0, "ClientCountry": R.choice(["de", "at", "us", "nl", "ch"]),
              "ClientIP": ip, "ClientRequestHost": R.choice(hosts), "ClientRequestMethod": m, "ClientRequestProtocol": "HTTP/2",
              "ClientRequestURI": p, "ClientRequestUserAgent": R.choice(["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Safari/605.1.15", "python-requests/2.31.0", "SeedScanner/1.2 (+https://brackenseed.io/bot)"]),
              "EdgeEndTimestamp": end_ns, "EdgeResponseBytes": b, "EdgeResponseStatus": es, "EdgeStartTimestamp": start_ns,
              "OriginResponseStatus": os_, "RayID": hx(16), "SecurityAction": "block" if es == 403 else "", "WAFAttackScore": R.randint(1, 99) if es == 403 else 80}
        c.add(t, None, json.dumps(ev, separators=(",", ":")), client=ip, method=m, status=str(es), bytes=b, host=ev["ClientRequestHost"])
    c.checks = [("top", "client"), ("count_where", "status", "403"), ("count_where", "status", "522"), ("sum", "bytes", "b"),
                ("count_where", "method", "POST"), ("distinct", "host")]
    return c


# ----------------------------------------------------------------- f15
def f15():
    c = Case("f15-bind9", "named.log",
             "ISC BIND 9.18 named channel log with print-time/print-category/print-severity (dd-Mon-yyyy hh:mm:ss.mmm category: severity: msg)")
    ips = ["10.40.3.%d" % i for i in (5, 9, 11, 23)] + ["10.40.5.21", "10.40.9.30", "198.51.100.7"]
    names = ["lots.seedvault.internal", "api.brackenseed.io", "pg-primary.seedvault.internal", "ldap.brackenseed.local", "vault-climate.seedvault.internal", "_ldap._tcp.brackenseed.local"]
    lvmap = {"info": "INFO", "notice": "NOTICE", "warning": "WARN", "error": "ERROR"}

    def L(t, cat, sev, msg):
        return "%s.%03d %s: %s: %s" % (t.strftime("%d-%b-%Y %H:%M:%S"), t.microsecond // 1000, cat, sev, msg)

    def add(t, cat, sev, msg, **f):
        c.add(t, lvmap[sev], L(t, cat, sev, msg), logger=cat, **f)
    for t in spread(dt.datetime(2026, 3, 24, 11, 20, 3), 70 * 60, 1700):
        ip = wpick("10.40.3.17", ips, 0.28)
        cp = "client @0x7f3a%s %s#%d" % (hx(8), ip, R.randint(1025, 65535))
        r = R.random()
        n = R.choice(names)
        if r < 0.78:
            add(t, "queries", "info", "%s (%s): query: %s IN %s +E(0)K (10.40.0.53)" % (cp, n, n, R.choice(["A", "AAAA", "A", "SRV", "HTTPS"])), client=ip)
        elif r < 0.84:
            add(t, "security", "info", "%s (brackenseed.io): query (cache) 'brackenseed.io/ANY/IN' denied" % cp, client=ip)
        elif r < 0.90:
            add(t, "lame-servers", "info", "REFUSED unexpected RCODE resolving 'seed-partner.example/A/IN': 203.0.113.40#53")
        elif r < 0.94:
            add(t, "resolver", "notice", "DNS format error from 203.0.113.41#53 resolving cdn.partner-hygro.example/AAAA for <unknown>: reply has no answer")
        elif r < 0.98:
            add(t, "dnssec", "warning", "validating partner-hygro.example/DNSKEY: no valid signature found")
        else:
            add(t, "network", "error", "sendmsg: Operation not permitted (10.40.0.53#53 -> 198.51.100.7#%d)" % R.randint(1025, 65535))
    c.checks = [("top", "client"), ("count_contains", "denied"), ("count_where", "logger", "lame-servers"),
                ("count_contains", "no valid signature found")]
    return c


# ----------------------------------------------------------------- f16
def f16():
    c = Case("f16-mosquitto", "mosquitto.log",
             "Eclipse Mosquitto 2.0 broker log, default log_timestamp (unix epoch seconds prefix, no level)")
    c.blank_rate = 0.003
    start = dt.datetime(2026, 3, 25, 3, 0, 0)

    def L(t, msg):
        return "%d: %s" % (int(epoch(t)), msg)
    t = start
    for m in ["mosquitto version 2.0.18 starting", "Config loaded from /etc/mosquitto/mosquitto.conf.",
              "Opening ipv4 listen socket on port 8883.", "Opening ipv6 listen socket on port 8883.", "mosquitto version 2.0.18 running"]:
        c.add(t, None, L(t, m))
    sensors = []
    for z in range(1, 4):
        for k in range(1, 9):
            gw = "10.40.8.21" if z == 3 else "10.40.8.%d" % (40 + z * 10 + k)
            sensors.append(("vault%d-hygro-%02d" % (z, k), gw if R.random() < 0.8 else "10.40.8.%d" % R.randint(40, 90), "vaultsensor"))
    sensors += [("germlab-tray-scanner", "10.40.6.14", "germlab"), ("K\u00fchlraum-2-panel", "10.40.8.77", "facility"),
                ("lot-tracker-bridge", "10.40.3.17", "lottrk"), ("grafana-mqtt-%s" % hx(6), "10.40.0.31", "readonly")]
    for t in spread(start + dt.timedelta(seconds=3), 12 * 3600, 1500):
        cid, ip, user = R.choice(sensors)
        if ip == "10.40.8.21" or (cid.startswith("vault3") and R.random() < 0.6):
            ip = "10.40.8.21"
        r = R.random()
        port = R.randint(30000, 60999)
        if r < 0.3:
            c.add(t, None, L(t, "New connection from %s:%d on port 8883." % (ip, port)), client=ip)
        elif r < 0.58:
            c.add(t, None, L(t, "New client connected from %s:%d as %s (p2, c1, k60, u'%s')." % (ip, port, cid, user)), client=ip, user=user)
        elif r < 0.72:
            c.add(t, None, L(t, "Client %s disconnected." % cid))
        elif r < 0.80:
            c.add(t, None, L(t, "Client %s closed its connection." % cid))
        elif r < 0.87:
            c.add(t, None, L(t, "Client %s has exceeded timeout, disconnecting." % cid))
        elif r < 0.93:
            c.add(t, None, L(t, "Socket error on client %s, disconnecting." % cid))
        elif r < 0.96:
            c.add(t, None, L(t, "OpenSSL Error[0]: error:0A000416:SSL routines::sslv3 alert certificate unknown"))
        elif r < 0.98:
            c.add(t, None, L(t, "Client %s already connected, closing old connection." % cid))
        else:
            c.add(t, None, L(t, "Saving in-memory database to /var/lib/mosquitto/mosquitto.db."))
    c.checks = [("count_contains", "Socket error"), ("count_contains", "exceeded timeout"), ("top", "client"),
                ("distinct", "user"), ("count_where", "user", "germlab")]
    return c


# ----------------------------------------------------------------- f17
def f17():
    c = Case("f17-fluent-bit", "fluent-bit.log",
             "Fluent Bit 3.0 log ([yyyy/mm/dd hh:mm:ss] [ level] [component] msg; HTTP error bodies on the following line)")
    c.header = ["Fluent Bit v3.0.4", "* Copyright (C) 2015-2024 The Fluent Bit Authors",
                "* Fluent Bit is a CNCF sub-project under the umbrella of Fluentd", "* https://fluentbit.io", ""]
    lvmap = {"error": "ERROR", " warn": "WARN", " info": "INFO", "debug": "DEBUG"}

    def L(t, lv, comp, msg):
        return "[%s] [%s] [%s] %s" % (t.strftime("%Y/%m/%d %H:%M:%S"), lv, comp, msg)

    def add(t, lv, comp, msg, extra=(), **f):
        c.add(t, lvmap[lv], [L(t, lv, comp, msg)] + list(extra), logger=comp, **f)
    start = dt.datetime(2026, 3, 26, 5, 12, 40)
    t = start
    add(t, " info", "fluent bit", "version=3.0.4, commit=f6c8a3e1d2, pid=1")
    add(t, " info", "storage", "ver=1.5.2, type=memory+filesystem, sync=normal, checksum=off, max_chunks_up=128")
    add(t, " info", "storage", "backlog input plugin: storage_backlog.1")
    add(t, " info", "cmetrics", "version=0.9.0")
    add(t, " info", "ctraces ", "version=0.5.1")
    add(t, " info", "input:tail:tail.0", "initializing")
    add(t, " info", "input:tail:tail.0", "storage_strategy='filesystem' (memory + filesystem)")
    add(t, " info", "output:es:es.0", "worker #0 started")
    add(t, " info", "sp", "stream processor started")
    pods = ["lot-tracker-7d9f8b6c5-x2kq9_seedvault_app", "germination-lab-0_seedvault_worker", "order-desk-5b7c9d-4mfrt_seedvault_api"]
    for t in spread(start + dt.timedelta(seconds=4), 10 * 3600, 850):
        r = R.random()
        task = R.randint(0, 12)
        chunk = "1-%d.%09d.flb" % (int(epoch(t)) - R.randint(0, 30), R.randint(0, 999999999))
        if r < 0.30:
            add(t, " warn", "engine", "failed to flush chunk '%s', retry in %d seconds: task_id=%d, input=tail.0 > output=es.0 (out_id=0)" % (chunk, R.randint(6, 60), task))
        elif r < 0.52:
            add(t, " info", "engine", "flush chunk '%s' succeeded at retry %d: task_id=%d, input=tail.0 > output=es.0 (out_id=0)" % (chunk, R.randint(1, 4), task))
        elif r < 0.64:
            add(t, "error", "output:es:es.0", "HTTP status=429 URI=/_bulk, response:", [
                '{"error":{"root_cause":[{"type":"es_rejected_execution_exception","reason":"rejected execution of coordinating operation [coordinating_and_primary_bytes=%d, replica_bytes=0, all_bytes=%d, coordinating_operation_bytes=%d, max_coordinating_and_primary_bytes=107374182]"}],"type":"es_rejected_execution_exception","reason":"rejected execution of coordinating operation"},"status":429}'
                % (R.randint(10**8, 11 * 10**7), R.randint(10**8, 11 * 10**7), R.randint(10**5, 10**6))], status="429")
        elif r < 0.70:
            add(t, "error", "output:http:http.0", "10.40.6.2:8080, HTTP status=503", ["upstream connect error or disconnect/reset before headers. reset reason: connection failure"], status="503")
        elif r < 0.78:
            add(t, " info", "input:tail:tail.0", "inotify_fs_add(): inode=%d watch_fd=%d name=/var/log/containers/%s-%s.log" % (R.randint(10**6, 9 * 10**6), R.randint(5, 90), R.choice(pods), hx(64)))
        elif r < 0.84:
            add(t, " info", "input:tail:tail.0", "inotify_fs_remove(): inode=%d watch_fd=%d" % (R.randint(10**6, 9 * 10**6), R.randint(5, 90)))
        elif r < 0.90:
            if R.random() < 0.5:
                add(t, " warn", "input", "tail.0 paused (mem buf overlimit)")
            else:
                add(t, " info", "input", "tail.0 resume (mem buf overlimit)")
        elif r < 0.95:
            add(t, "error", "net", "TCP connection failed: 10.40.6.9:9200 (Connection refused)")
        elif r < 0.98:
            add(t, "error", "engine", "chunk '%s' cannot be retried: task_id=%d, input=tail.0 > output=es.0" % (chunk, task))
        else:
            add(t, "debug", "filter:kubernetes:kubernetes.0", "could not merge JSON log as requested: lot \u201eL-%d\u201c note contains invalid escape" % R.randint(1000, 3000))
    c.checks = [("count_where", "status", "429"), ("top", "logger"), ("count_contains", "es_rejected_execution_exception"),
                ("count_contains", "retry in"), ("count_contains", "reset reason: connection failure")]
    return c


# ----------------------------------------------------------------- f18
def f18():
    c = Case("f18-cisco-asa", "asa-fw-edge-01.log",
             "Cisco ASA syslog messages as received with 'logging timestamp' + device-id hostname (Mon DD YYYY HH:MM:SS host : %ASA-sev-id: msg)")
    sevmap = {2: "CRITICAL", 3: "ERROR", 4: "WARN", 5: "NOTICE", 6: "INFO", 7: "DEBUG"}

    def add(t, sev, mid, msg, **f):
        c.add(t, sevmap[sev], "%s %s : %%ASA-%d-%d: %s" % (t.strftime("%b %d %Y %H:%M:%S"), "fw-edge-01", sev, mid, msg), **f)
    ext = ["198.51.100.%d" % i for i in (7, 23, 44, 90, 91)] + ["203.0.113.%d" % i for i in (5, 40)] + ["192.0.2.15", "45.83.64.9"]
    inside = ["10.40.1.10", "10.40.1.12", "10.40.7.21", "10.40.3.17"]
    conns = []
    cid = 48211900
    for t in spread(dt.datetime(2026, 3, 27, 16, 0, 1), 3 * 3600, 1550):
        r = R.random()
        if r < 0.36 or (r < 0.66 and not conns):
            cid += R.randint(1, 40)
            src = wpick("198.51.100.23", ext, 0.3)
            dst, dp = R.choice(inside), R.choice([443, 443, 80, 8883])
            sp = R.randint(1025, 65535)
            conns.append((cid, src, sp, dst, dp, t))
            add(t, 6, 302013, "Built inbound TCP connection %d for outside:%s/%d (%s/%d) to inside:%s/%d (%s/%d)" % (cid, src, sp, src, sp, dst, dp, dst, dp), client=src)
        elif r < 0.66:
            k, src, sp, dst, dp, t0 = conns.pop(R.randrange(len(conns)))
            secs = int((t - t0).total_seconds())
            b = R.randint(0, 900000) if R.random() < 0.95 else R.randint(10**6, 5 * 10**7)
            reason = R.choice(["TCP FINs", "TCP FINs", "TCP Reset-I", "TCP Reset-O", "Conn-timeout"])
            add(t, 6, 302014, "Teardown TCP connection %d for outside:%s/%d to inside:%s/%d duration %d:%02d:%02d bytes %d %s" % (k, src, sp, dst, dp, secs // 3600, secs // 60 % 60, secs % 60, b, reason),
                client=src, duration=secs, bytes=b)
        elif r < 0.86:
            src = R.choice(ext)
            add(t, 4, 106023, 'Deny tcp src outside:%s/%d dst inside:%s/%d by access-group "outside_in" [0x0, 0x0]' % (src, R.randint(1025, 65535), R.choice(inside), R.choice([22, 3389, 5432, 23])), client=src)
        elif r < 0.91:
            src = R.choice(ext)
            add(t, 2, 106001, "Inbound TCP connection denied from %s/%d to 10.40.1.10/%d flags SYN  on interface outside" % (src, R.randint(1025, 65535), R.choice([445, 139])), client=src)
        elif r < 0.95:
            u = R.choice(["tlindqvist", "mokafor", "abrandt", "netops"])
            add(t, 6, 113004, "AAA user authentication Successful : server =  10.40.0.9 : user = %s" % u, user=u)
        elif r < 0.98:
            add(t, 5, 111008, "User 'netops' executed the 'show conn count' command.", user="netops")
        else:
            add(t, 3, 313001, "Denied ICMP type=8, code=0 from %s on interface outside" % R.choice(ext))
    c.checks = [("max", "duration", "s"), ("sum", "bytes", "b"), ("count_contains", "Deny tcp"), ("top", "client"),
                ("count_contains", "%ASA-6-302013")]
    return c


# ----------------------------------------------------------------- f19
def f19():
    c = Case("f19-snort-fast", "alert.fast",
             "Snort 2.9 alert_fast output (MM/DD-hh:mm:ss.uuuuuu  [**] [gid:sid:rev] msg [**] [Classification] [Priority] {PROTO} src -> dst), no year")
    sigs = [("1:2010937:3", "ET SCAN Suspicious inbound to mySQL port 3306", "Potentially Bad Traffic", 2, "TCP", 3306),
            ("1:2001219:20", "ET SCAN Potential SSH Scan", "Attempted Information Leak", 2, "TCP", 22),
            ("1:2402000:6795", "ET DROP Dshield Block Listed Source", "Misc Attack", 2, "TCP", 443),
            ("1:2008578:6", "ET SCAN Sipvicious Scan", "Attempted Information Leak", 2, "UDP", 5060),
            ("1:366:7", "ICMP PING *NIX", "Misc activity", 3, "ICMP", None),
            ("1:2019401:3", "ET POLICY Vulnerable Java Version 1.8.x Detected", "Potential Corporate Privacy Violation", 1, "TCP", 80),
            ("129:12:1", "(stream5) TCP Small Segment Threshold Exceeded", "Potentially Bad Traffic", 3, "TCP", 443)]
    ext = ["198.51.100.%d" % i for i in (7, 44, 90)] + ["203.0.113.%d" % i for i in (5, 40)] + ["192.0.2.15", "185.220.101.33"]
    inside = ["10.40.1.10", "10.40.1.12", "10.40.7.21"]
    for t in spread(dt.datetime(2026, 3, 28, 9, 0, 2), 20 * 3600, 880):
        gsr, msg, cl, pr, proto, port = R.choice(sigs)
        src = wpick("45.83.64.9", ext, 0.3)
        dst = R.choice(inside)
        if proto == "ICMP":
            addr = "%s -> %s" % (src, dst)
        else:
            addr = "%s:%d -> %s:%d" % (src, R.randint(1025, 65535), dst, port)
        c.add(t, None, "%s  [**] [%s] %s [**] [Classification: %s] [Priority: %d] {%s} %s" % (
            t.strftime("%m/%d-%H:%M:%S.%f"), gsr, msg, cl, pr, proto, addr), client=src)
    t = c.ev[-1]["t"] + dt.timedelta(seconds=3.2)
    # sensor killed while writing: the last record is cut short and has no newline
    c.add(t, None, "%s  [**] [1:2402000:6795] ET DROP Dshield Block Listed Source [**] [Classif" % t.strftime("%m/%d-%H:%M:%S.%f"))
    c.final_newline = False
    c.checks = [("top", "client"), ("count_contains", "ET SCAN"), ("count_contains", "{UDP}"),
                ("count_contains", "[Priority: 1]"), ("distinct", "client")]
    return c


# ----------------------------------------------------------------- f20
DHCP_HEADER = """\t\tMicrosoft DHCP Service Activity Log


Event ID  Meaning
00\tThe log was started.
01\tThe log was stopped.
02\tThe log was temporarily paused due to low disk space.
10\tA new IP address was leased to a client.
11\tA lease was renewed by a client.
12\tA lease was released by a client.
13\tAn IP address was found to be in use on the network.
14\tA lease request could not be satisfied because the scope's address pool was exhausted.
15\tA lease was denied.
16\tA lease was deleted.
17\tA lease was expired and DNS records for an expired leases have not been deleted.
18\tA lease was expired and DNS records were deleted.
20\tA BOOTP address was leased to a client.
21\tA dynamic BOOTP address was leased to a client.
22\tA BOOTP request could not be satisfied because the scope's address pool for BOOTP was exhausted.
23\tA BOOTP IP address was deleted after checking to see it was not in use.
24\tIP address cleanup operation has began.
25\tIP address cleanup statistics.
30\tDNS update request to the named DNS server.
31\tDNS update failed.
32\tDNS update successful.
33\tPacket dropped due to NAP policy.
34\tDNS update request failed.as the DNS update request queue limit exceeded.
35\tDNS update request failed.
36\tPacket dropped because the server is in failover standby role or the hash of the client ID does not match.
50+\tCodes above 50 are used for Rogue Server Detection information.

QResult: 0: NoQuarantine, 1:Quarantine, 2:Drop Packet, 3:Probation,6:No Quarantine Information ProbationTime:Year-Month-Day Hour:Minute:Second:MilliSecond.

ID,Date,Time,Description,IP Address,Host Name,MAC Address,User Name, TransactionID, QResult,Probationtime, CorrelationID,Dhcid,VendorClass(Hex),VendorClass(ASCII),UserClass(Hex),UserClass(ASCII),RelayAgentInformation,DnsRegError."""


def f20():
    c = Case("f20-windows-dhcp", "DhcpSrvLog-Sun.log",
             "Windows Server DHCP audit log (DhcpSrvLog-<Day>.log: explanatory header, then CSV rows ID,Date(MM/DD/YY),Time,Description,...)")
    c.header = DHCP_HEADER.split("\n")
    c.sort = True
    hosts = ["lab-scale-%02d.brackenseed.local" % i for i in range(1, 9)] + ["germlab-tray-scanner.brackenseed.local", "WS-0142.brackenseed.local",
                                                                             "LAPTOP-MOKAFOR.brackenseed.local", "vault3-hygro-gw.brackenseed.local", "printer-labels-2.brackenseed.local"]
    macs = {h: ("00155D" if i % 3 == 0 else "F4A1B2") + hx(6).upper() for i, h in enumerate(hosts)}
    ips = {h: "10.40.20.%d" % (30 + i) for i, h in enumerate(hosts)}
    day = dt.datetime(2026, 3, 29, 0, 0, 0)

    def row(t, eid, desc, ip="", host="", mac="", tx="0", q="6", dnserr="0"):
        return "%02d,%s,%s,%s,%s,%s,%s,,%s,%s,,,,,,,,,%s" % (eid, t.strftime("%m/%d/%y"), t.strftime("%H:%M:%S"), desc, ip, host, mac, tx, q, dnserr)
    t0 = day + dt.timedelta(seconds=7)
    c.add(t0, None, row(t0, 0, "Started"))
    for t in spread(day + dt.timedelta(minutes=1), 23.8 * 3600, 720):
        h = wpick("vault3-hygro-gw.brackenseed.local", hosts, 0.3)
        tx = str(R.randint(10**8, 4 * 10**9))
        r = R.random()
        if r < 0.45:
            c.add(t, None, row(t, 11, "Renew", ips[h], h, macs[h], tx, "0"), host=h)
            t2 = t + dt.timedelta(seconds=R.randint(0, 2))
            c.add(t2, None, row(t2, 30, "DNS Update Request", ips[h], h, "", "0", "6"), host=h)
            t3 = t2 + dt.timedelta(seconds=R.randint(0, 2))
            if R.random() < 0.9:
                c.add(t3, None, row(t3, 32, "DNS Update Successful", ips[h], h, "", "0", "6"), host=h)
            else:
                c.add(t3, None, row(t3, 31, "DNS Update Failed", ips[h], h, "", "0", "6", "9005"), host=h)
        elif r < 0.65:
            c.add(t, None, row(t, 10, "Assign", ips[h], h, macs[h], tx, "0"), host=h)
        elif r < 0.80:
            c.add(t, None, row(t, 12, "Release", ips[h], h, macs[h], tx, "0"), host=h)
        elif r < 0.88:
            c.add(t, None, row(t, 15, "NACK", ips[h], "", macs[h], tx, "6"))
        elif r < 0.95:
            c.add(t, None, row(t, 18, "Expired", ips[h], h, "", "0", "6"), host=h)
        else:
            c.add(t, None, row(t, 24, "Database Cleanup Begin", "", "", "", "0", "6"))
            c.add(t + dt.timedelta(seconds=1), None, row(t + dt.timedelta(seconds=1), 25, "0 leases expired and 0 leases deleted", "", "", "", "0", "6"))
    c.checks = [("top", "host"), ("distinct", "host"), ("count_contains", "DNS Update Failed,"), ("count_contains", ",00155D"),
                ("count_where", "host", "WS-0142.brackenseed.local")]
    return c


# ----------------------------------------------------------------- main
CASES = [f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20]


def main():
    out = os.path.join(HERE, "cases")
    if os.path.isdir(out):
        shutil.rmtree(out)
    for fn in CASES:
        fn().write()


if __name__ == "__main__":
    main()
