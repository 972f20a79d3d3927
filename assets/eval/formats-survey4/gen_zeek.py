"""Zeek conn.log in the default TSV format (with #-header block)."""
import random
from datetime import datetime

from common import UTC, write_log

FIELDS = ["ts", "uid", "id.orig_h", "id.orig_p", "id.resp_h", "id.resp_p", "proto", "service", "duration", "orig_bytes",
          "resp_bytes", "conn_state", "local_orig", "local_resp", "missed_bytes", "history", "orig_pkts", "orig_ip_bytes",
          "resp_pkts", "resp_ip_bytes", "tunnel_parents"]
TYPES = ["time", "string", "addr", "port", "addr", "port", "enum", "string", "interval", "count", "count", "string", "bool",
         "bool", "count", "string", "count", "count", "count", "count", "set[string]"]
B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def zeek():
    rng = random.Random(4901)
    ts = datetime(2024, 3, 31, 14, 0, 0, tzinfo=UTC).timestamp()
    hosts = ["192.168.10.%d" % rng.randint(2, 120) for _ in range(35)]
    out = ["#separator \\x09", "#set_separator\t,", "#empty_field\t(empty)", "#unset_field\t-", "#path\tconn",
           "#open\t2024-03-31-14-00-00", "#fields\t" + "\t".join(FIELDS), "#types\t" + "\t".join(TYPES)]
    for i in range(1900):
        ts += rng.uniform(0.001, 2.0)
        uid = "C" + "".join(rng.choice(B62) for _ in range(17))
        orig = rng.choice(hosts)
        op = rng.randint(32768, 60999)
        r = rng.random()
        if 1000 <= i < 1200:  # internal host port-scans a server
            orig, resp, rp, proto, svc = "192.168.10.66", "192.168.10.5", rng.randint(1, 10000), "tcp", "-"
            state = rng.choice(["S0", "S0", "REJ"])
            row = [resp, str(rp), proto, svc, "-" if state == "S0" else "0.000%03d" % rng.randint(10, 999), "-" if state == "S0" else "0",
                   "-" if state == "S0" else "0", state, "T", "T", "0", "S" if state == "S0" else "Sr", "1", "44",
                   "0" if state == "S0" else "1", "0" if state == "S0" else "40"]
        elif r < 0.45:
            resp = "192.168.10.1"
            dur = rng.uniform(0.0003, 0.08)
            row = [resp, "53", "udp", "dns", "%.6f" % dur, str(rng.randint(28, 60)), str(rng.randint(44, 300)), "SF", "T", "T", "0",
                   "Dd", "1", str(rng.randint(56, 88)), "1", str(rng.randint(72, 330))]
        elif r < 0.85:
            resp = rng.choice(["93.184.216.34", "142.250.185.78", "151.101.1.69", "104.16.132.229", "140.82.121.4"])
            dur = rng.lognormvariate(0.5, 1.4)
            if rng.random() < 0.01:
                dur = rng.uniform(1800, 7200)
            ob, rb = rng.randint(300, 90000), rng.randint(1000, 9000000)
            row = [resp, "443", "tcp", "ssl", "%.6f" % dur, str(ob), str(rb), rng.choice(["SF", "SF", "SF", "RSTO", "S1"]), "T", "F", "0",
                   "ShADadFf", str(rng.randint(8, 900)), str(ob + 400), str(rng.randint(8, 9000)), str(rb + 400)]
        elif r < 0.95:
            resp = "192.168.10.%d" % rng.choice([5, 6, 7])
            dur = rng.uniform(0.01, 30)
            row = [resp, rng.choice(["22", "445", "3389"]), "tcp", rng.choice(["ssh", "smb", "-"]), "%.6f" % dur, str(rng.randint(100, 9000)),
                   str(rng.randint(100, 90000)), "SF", "T", "T", "0", "ShADadFf", "12", "1500", "11", "9000"]
        else:
            resp = rng.choice(["8.8.8.8", "1.1.1.1", "129.6.15.28"])
            row = [resp, "123", "udp", "ntp", "%.6f" % rng.uniform(0.01, 0.2), "48", "48", "SF", "T", "F", "0", "Dd", "1", "76", "1", "76"]
        out.append("\t".join(["%.6f" % ts, uid, orig, str(op)] + row + ["(empty)"]))
    out.append("#close\t2024-03-31-15-00-00")
    write_log("zeek_conn.log", out)


def run():
    zeek()
