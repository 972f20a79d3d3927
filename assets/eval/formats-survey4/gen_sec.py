"""Mail/security: Postfix+Dovecot maillog (syslog), Suricata eve.json, Zeek conn.log (TSV)."""
import json
import random
from datetime import datetime, timedelta

from common import UTC, write_log


def maillog():
    rng = random.Random(4801)
    t = datetime(2024, 3, 29, 22, 0, 0)
    out = []

    def log(prog, pid, msg):
        out.append("%s %2d %s mx1 %s[%d]: %s" % (t.strftime("%b"), t.day, t.strftime("%H:%M:%S"), prog, pid, msg))

    senders = [("mail-wr1-f54.google.com", "209.85.221.54"), ("mail-ed1-f45.google.com", "209.85.208.45"),
               ("a48-93.smtp-out.amazonses.com", "54.240.48.93"), ("mx.partner.example", "198.51.100.40"), ("unknown", "203.0.113.77")]
    rcpts = ["alice", "bob", "carol", "dave", "erin", "frank", "sales", "support"]
    qmgr = 1187
    for i in range(330):
        t += timedelta(seconds=rng.randint(1, 120))
        r = rng.random()
        smtpd = rng.randint(20000, 40000)
        qid = "%X" % rng.getrandbits(40)
        qid = qid[:11]
        if 100 <= i < 130 and r < 0.8:  # brute-force on imap
            ip = "185.220.101.%d" % rng.randint(1, 60)
            out_user = rng.choice(["admin", "test", "info", "postmaster", "alice"])
            out.append("%s %2d %s mx1 dovecot: imap-login: Disconnected: Connection closed (auth failed, %d attempts in %d secs): user=<%s>, method=PLAIN, rip=%s, lip=10.0.0.25, TLS, session=<%s>"
                       % (t.strftime("%b"), t.day, t.strftime("%H:%M:%S"), rng.randint(1, 3), rng.randint(2, 15), out_user, ip,
                          "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(16))))
            continue
        if r < 0.15:
            ip = "%d.%d.%d.%d" % (rng.choice([45, 185, 193, 91]), rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254))
            log("postfix/smtpd", smtpd, "connect from unknown[%s]" % ip)
            log("postfix/smtpd", smtpd, "NOQUEUE: reject: RCPT from unknown[%s]: 554 5.7.1 <%s@gmail.com>: Relay access denied; from=<%s@spam.example> to=<%s@gmail.com> proto=ESMTP helo=<WIN-%X>"
                % (ip, rng.choice(rcpts), rng.choice(rcpts), rng.choice(rcpts), rng.getrandbits(24)))
            log("postfix/smtpd", smtpd, "disconnect from unknown[%s] ehlo=1 mail=1 rcpt=0/1 quit=1 commands=3/4" % ip)
            continue
        if r < 0.25:
            sess = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(16))
            u = rng.choice(rcpts)
            out.append("%s %2d %s mx1 dovecot: imap-login: Login: user=<%s@example.org>, method=PLAIN, rip=10.0.%d.%d, lip=10.0.0.25, mpid=%d, TLS, session=<%s>"
                       % (t.strftime("%b"), t.day, t.strftime("%H:%M:%S"), u, rng.randint(1, 9), rng.randint(2, 250), rng.randint(2000, 60000), sess))
            continue
        inbound = r < 0.70
        if inbound:
            host, ip = rng.choice(senders)
            log("postfix/smtpd", smtpd, "connect from %s[%s]" % (host, ip))
            log("postfix/smtpd", smtpd, "%s: client=%s[%s]" % (qid, host, ip))
        else:
            host, ip = "unknown", "10.0.%d.%d" % (rng.randint(1, 9), rng.randint(2, 250))
            log("postfix/submission/smtpd", smtpd, "connect from %s[%s]" % (host, ip))
            log("postfix/submission/smtpd", smtpd, "%s: client=%s[%s], sasl_method=PLAIN, sasl_username=%s@example.org" % (qid, host, ip, rng.choice(rcpts)))
        log("postfix/cleanup", rng.randint(20000, 40000), "%s: message-id=<%x.%x@%s>" % (qid, rng.getrandbits(40), rng.getrandbits(20), "example.org" if not inbound else host))
        frm = "%s@%s" % (rng.choice(["noreply", "billing", "newsletter", "jane.doe"]), host if host != "unknown" else "example.org")
        log("postfix/qmgr", qmgr, "%s: from=<%s>, size=%d, nrcpt=1 (queue active)" % (qid, frm, rng.randint(2000, 900000)))
        d = [round(rng.uniform(0, 0.3), 2), round(rng.uniform(0, 0.05), 2), round(rng.uniform(0, 0.3), 2), round(rng.uniform(0, 1.5), 2)]
        dg = ["%g" % x for x in d]
        if inbound:
            rc = "%s@example.org" % rng.choice(rcpts)
            log("postfix/lmtp", rng.randint(20000, 40000), "%s: to=<%s>, relay=mail.example.org[private/dovecot-lmtp], delay=%.2g, delays=%s/%s/%s/%s, dsn=2.0.0, status=sent (250 2.0.0 <%s> %s Saved)"
                % (qid, rc, sum(d), dg[0], dg[1], dg[2], dg[3], rc, "".join(rng.choice("abcdefghijklmnop0123456789") for _ in range(22))))
            log("postfix/qmgr", qmgr, "%s: removed" % qid)
        else:
            rc = "%s@%s" % (rng.choice(["j.smith", "orders", "info"]), rng.choice(["example.net", "example.com", "partner.example"]))
            mx = {"example.net": "198.51.100.25", "example.com": "93.184.216.34", "partner.example": "198.51.100.40"}[rc.split("@")[1]]
            if 200 <= i < 260 and rc.endswith("example.net"):
                d[2] = 30.0
                log("postfix/smtp", rng.randint(20000, 40000), "%s: to=<%s>, relay=none, delay=%s, delays=%s/%s/%s/0, dsn=4.4.1, status=deferred (connect to mx.%s[%s]:25: Connection timed out)"
                    % (qid, rc, "%g" % round(d[0] + d[1] + 30, 2), dg[0], dg[1], "30", rc.split("@")[1], mx))
            elif rng.random() < 0.06:
                log("postfix/smtp", rng.randint(20000, 40000), "%s: to=<%s>, relay=mx.%s[%s]:25, delay=%g, delays=%s/%s/%s/%s, dsn=5.1.1, status=bounced (host mx.%s[%s] said: 550 5.1.1 <%s>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))"
                    % (qid, rc, rc.split("@")[1], mx, round(sum(d), 2), dg[0], dg[1], dg[2], dg[3], rc.split("@")[1], mx, rc))
                log("postfix/bounce", rng.randint(20000, 40000), "%s: sender non-delivery notification: %X" % (qid, rng.getrandbits(40)))
                log("postfix/qmgr", qmgr, "%s: removed" % qid)
            else:
                log("postfix/smtp", rng.randint(20000, 40000), "%s: to=<%s>, relay=mx.%s[%s]:25, delay=%g, delays=%s/%s/%s/%s, dsn=2.0.0, status=sent (250 2.0.0 OK  %d %s - gsmtp)"
                    % (qid, rc, rc.split("@")[1], mx, round(sum(d), 2), dg[0], dg[1], dg[2], dg[3], int(t.replace(tzinfo=UTC).timestamp()), "".join(rng.choice("abcdefghijklmnop0123456789") for _ in range(20))))
                log("postfix/qmgr", qmgr, "%s: removed" % qid)
        log("postfix/submission/smtpd" if not inbound else "postfix/smtpd", smtpd,
            "disconnect from %s[%s] ehlo=1 mail=1 rcpt=1 data=1 quit=1 commands=5" % (host, ip))
    write_log("maillog", out)


SIGS = [(2013028, "ET POLICY curl User-Agent Outbound", "Attempted Information Leak", 2),
        (2024897, "ET USER_AGENTS Go HTTP Client User-Agent", "Misc activity", 3),
        (2001219, "ET SCAN Potential SSH Scan", "Attempted Information Leak", 2),
        (2034647, "ET EXPLOIT Apache log4j RCE Attempt (http ldap) (CVE-2021-44228)", "Attempted Administrator Privilege Gain", 1),
        (2100498, "GPL ATTACK_RESPONSE id check returned root", "Potentially Bad Traffic", 2)]


def suricata():
    rng = random.Random(4802)
    t = datetime(2024, 3, 30, 12, 0, 0, tzinfo=UTC)
    out = []
    internal = ["10.10.1.%d" % rng.randint(2, 200) for _ in range(40)]
    external = ["93.184.216.34", "142.250.185.78", "151.101.1.69", "104.16.132.229", "52.84.150.39"]

    def ts(x):
        return x.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+0000"

    def base(et, src, sp, dst, dp, proto):
        return {"timestamp": ts(t), "flow_id": rng.getrandbits(51), "in_iface": "eth0", "event_type": et, "src_ip": src,
                "src_port": sp, "dest_ip": dst, "dest_port": dp, "proto": proto}

    for i in range(1700):
        t += timedelta(microseconds=rng.randint(1000, 3000000))
        r = rng.random()
        src, dst = rng.choice(internal), rng.choice(external)
        sp = rng.randint(32768, 60999)
        if 900 <= i < 980:  # ssh scan from outside
            e = base("alert", "45.134.26.%d" % rng.choice([3, 3, 3, 17]), sp, rng.choice(internal), 22, "TCP")
            sid, sig, cat, sev = SIGS[2]
            e.update({"tx_id": 0, "alert": {"action": "allowed", "gid": 1, "signature_id": sid, "rev": 7, "signature": sig,
                                            "category": cat, "severity": sev}, "flow": {"pkts_toserver": 1, "pkts_toclient": 0,
                                            "bytes_toserver": 74, "bytes_toclient": 0, "start": ts(t)}})
        elif r < 0.40:
            age = rng.randint(0, 120) if rng.random() < 0.97 else rng.randint(600, 7200)
            e = base("flow", src, sp, dst, 443, "TCP")
            e.update({"app_proto": "tls", "flow": {"pkts_toserver": rng.randint(5, 900), "pkts_toclient": rng.randint(5, 900),
                      "bytes_toserver": rng.randint(500, 90000), "bytes_toclient": rng.randint(500, 9000000),
                      "start": ts(t - timedelta(seconds=age)), "end": ts(t), "age": age, "state": "closed",
                      "reason": rng.choice(["timeout", "timeout", "shutdown"]), "alerted": False},
                      "tcp": {"tcp_flags": "1b", "tcp_flags_ts": "1b", "tcp_flags_tc": "1b", "syn": True, "fin": True,
                              "psh": True, "ack": True, "state": "closed"}})
        elif r < 0.70:
            e = base("dns", src, sp, "10.10.0.2", 53, "UDP")
            e["dns"] = {"type": "query", "id": rng.randint(1, 65535), "rrname": rng.choice(["api.github.com", "www.google.com", "updates.example.org", "time.cloudflare.com", "s3.eu-west-1.amazonaws.com"]),
                        "rrtype": rng.choice(["A", "AAAA"]), "tx_id": 0, "opcode": 0}
        elif r < 0.85:
            e = base("tls", src, sp, dst, 443, "TCP")
            e["tls"] = {"subject": "CN=*.example.com", "issuerdn": "C=US, O=Let's Encrypt, CN=R3", "serial": "04:%02X:9A:11" % rng.randint(0, 255),
                        "fingerprint": ":".join("%02x" % rng.randint(0, 255) for _ in range(20)), "sni": rng.choice(["www.example.com", "cdn.example.com"]),
                        "version": "TLS 1.3", "notbefore": "2024-02-01T00:00:00", "notafter": "2024-05-01T23:59:59", "ja3": {}, "ja3s": {}}
        elif r < 0.95:
            e = base("http", src, sp, "10.10.0.80", 80, "TCP")
            e.update({"tx_id": rng.randint(0, 5), "http": {"hostname": "intranet.example.org", "url": rng.choice(["/", "/wiki/Main", "/login"]),
                      "http_user_agent": rng.choice(["Mozilla/5.0", "curl/8.5.0", "Go-http-client/1.1"]), "http_content_type": "text/html",
                      "http_method": "GET", "protocol": "HTTP/1.1", "status": rng.choice([200, 200, 302, 404]), "length": rng.randint(100, 90000)}})
        else:
            sid, sig, cat, sev = rng.choices(SIGS, [8, 6, 1, 1, 1])[0]
            if sid == 2001219:
                sid, sig, cat, sev = SIGS[0]
            e = base("alert", src if sev > 1 else "194.26.29.%d" % rng.randint(1, 99), sp, dst if sev > 1 else "10.10.0.80",
                     80, "TCP")
            e.update({"tx_id": 0, "alert": {"action": "allowed", "gid": 1, "signature_id": sid, "rev": rng.randint(2, 9),
                      "signature": sig, "category": cat, "severity": sev}, "app_proto": "http",
                      "flow": {"pkts_toserver": rng.randint(3, 20), "pkts_toclient": rng.randint(2, 20), "bytes_toserver": rng.randint(300, 3000),
                               "bytes_toclient": rng.randint(300, 30000), "start": ts(t - timedelta(seconds=1))}})
        out.append(json.dumps(e, separators=(",", ":")))
        if i % 400 == 399:
            out.append(json.dumps({"timestamp": ts(t), "event_type": "stats", "stats": {"uptime": i * 3,
                       "capture": {"kernel_packets": rng.randint(10**6, 10**8), "kernel_drops": rng.randint(0, 5000)},
                       "decoder": {"pkts": rng.randint(10**6, 10**8), "bytes": rng.randint(10**9, 10**11), "ipv4": rng.randint(10**6, 10**8)},
                       "flow": {"memuse": rng.randint(10**6, 10**8)}}}, separators=(",", ":")))
    write_log("suricata_eve.json", out)


def run():
    maillog()
    suricata()
