"""Independent parsers of the `queries-heldout10` fixtures: each reads a written file back into
records, one per event, the way an operator's jq, awk or grep would. Caddy's access log is
JSON (ISO `ts`, `duration` in seconds, converted to integer nanoseconds through Decimal);
a Spring Boot line owns the stack trace under it; a PostgreSQL stderr line owns its
tab-indented continuation lines (DETAIL/STATEMENT/CONTEXT lines are their own records with
the same pid, as grep sees them); a Redis line is `pid:role date time level msg`; a Kafka
log4j line owns its stack trace; a CoreDNS line carries kubectl's RFC 3339 nano timestamp,
and its Go-duration is converted to nanoseconds. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta
from decimal import Decimal

MONTHS = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.split("\n")[:-1]


def parse_caddy(text):
    out = []
    for line in _lines(text):
        d = json.loads(line, parse_float=Decimal)
        q = d["request"]
        uri = q["uri"]
        out.append({"t": datetime.strptime(d["ts"], "%Y-%m-%dT%H:%M:%S.%fZ"), "level": d["level"], "ip": q["remote_ip"],
                    "method": q["method"], "host": q["host"], "uri": uri, "path": uri.split("?")[0],
                    "ua": q["headers"]["User-Agent"][0], "status": int(d["status"]), "size": int(d["size"]),
                    "ns": int(Decimal(d["duration"]) * 1_000_000_000)})
    return out


SB = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) +(TRACE|DEBUG|INFO|WARN|ERROR) (\d+) --- \[ *([^\]]*)\] (\S+) *: (.*)$")


def parse_spring(text):
    out = []
    for line in _lines(text):
        m = SB.match(line)
        if not m:
            assert out, line
            out[-1]["more"].append(line)
            continue
        ts, lvl, pid, thread, logger, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "level": lvl, "thread": thread, "logger": logger,
             "msg": msg, "more": []}
        k = re.search(r"took=(\d+)ms$", msg)
        if k and msg.startswith("Hold created"):
            r["took_ms"] = int(k.group(1))
        out.append(r)
    return out


PG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC \[(\d+)\] (?:(\S+)@(\S+) )?"
                r"(LOG|ERROR|FATAL|PANIC|WARNING|DETAIL|HINT|CONTEXT|STATEMENT):  (.*)$")


def parse_postgres(text):
    out = []
    for line in _lines(text):
        if line.startswith("\t"):
            assert out, line
            out[-1]["more"].append(line)
            continue
        m = PG.match(line)
        assert m, line
        ts, pid, user, db, sev, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "pid": int(pid), "user": user, "db": db, "sev": sev,
             "msg": msg, "more": []}
        d = re.match(r"duration: (\d+\.\d{3}) ms  statement: (.*)$", msg)
        if d:
            r["dur_us"] = int(Decimal(d.group(1)) * 1000)
        c = re.match(r"connection authorized: user=(\S+) database=(\S+)", msg)
        if c:
            r["auth_user"] = c.group(1)
        k = re.match(r"checkpoint complete: .* total=(\d+\.\d{3}) s;", msg)
        if k:
            r["cp_total_ms"] = int(Decimal(k.group(1)) * 1000)
        out.append(r)
    return out


REDIS = re.compile(r"^(\d+):([MSCX]) (\d\d) (\w{3}) (\d{4}) (\d\d:\d\d:\d\d\.\d{3}) ([.\-*#]) (.*)$")


def parse_redis(text):
    out = []
    for line in _lines(text):
        m = REDIS.match(line)
        assert m, line
        pid, role, dd, mon, yyyy, hms, lvl, msg = m.groups()
        t = datetime.strptime(f"{yyyy}-{MONTHS[mon]:02d}-{dd} {hms}", "%Y-%m-%d %H:%M:%S.%f")
        out.append({"t": t, "pid": int(pid), "role": role, "lvl": lvl, "msg": msg})
    return out


KAFKA = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) (.*) \(([\w.$]+)\)$")


def parse_kafka(text):
    out = []
    for line in _lines(text):
        m = KAFKA.match(line)
        if not m:
            assert out, line
            out[-1]["more"].append(line)
            continue
        ts, lvl, msg, cls = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f"), "level": lvl, "msg": msg, "cls": cls, "more": []}
        p = re.search(r"partition=([\w.\-]+?)-(\d+)[,\]]", msg)
        if p:
            r["topic"] = p.group(1)
        out.append(r)
    return out


GO = {"ns": 1, "µs": 1_000, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}
DNS = re.compile(r'^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{9})Z \[(INFO|ERROR|WARNING)\] (.*)$')
QLINE = re.compile(r'^(\d+\.\d+\.\d+\.\d+):(\d+) - (\d+) "(\w+) IN (\S+) (udp|tcp) (\d+) (true|false) (\d+)" '
                   r'([A-Z]+) (\S+) (\d+) ([\d.]+)(ns|µs|us|ms|s)$')


def parse_coredns(text):
    out = []
    for line in _lines(text):
        m = DNS.match(line)
        assert m, line
        ts, frac, lvl, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(frac[:6]))
        r = {"t": t, "level": lvl, "msg": msg}
        q = QLINE.match(msg)
        if q:
            r.update(ip=q.group(1), qtype=q.group(4), name=q.group(5), rcode=q.group(10),
                     ns=int(Decimal(q.group(13)) * GO[q.group(14)]))
        out.append(r)
    return out


def ranked(counter, n=1):
    """The top n of a Counter, asserting ranks 1..n are strictly above the next one."""
    best = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:n + 1]
    assert len(best) >= n, best
    for i in range(min(n, len(best) - 1)):
        assert best[i][1] > best[i + 1][1], best
    return best[:n]


def count(rows, pred):
    return sum(1 for r in rows if pred(r))


def group(rows, key, pred=lambda r: True):
    return Counter(key(r) for r in rows if pred(r))


def percentile_nearest_rank(values, p):
    v = sorted(values)
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)]


def percentile_linear(values, p):
    """numpy's default: rank (n - 1) p."""
    v = sorted(values)
    x = (len(v) - 1) * p / 100
    lo = int(x)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (x - lo)


def percentile_weibull(values, p):
    """Excel PERCENTILE.EXC / R type 6: rank (n + 1) p."""
    v = sorted(values)
    x = (len(v) + 1) * p / 100 - 1
    lo = max(0, min(int(x), len(v) - 1))
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (x - lo)


def percentile_lower(values, p):
    """floor(p n) (0-based), as `sort -n | awk 'NR==int(n*p)'` might."""
    v = sorted(values)
    return v[min(len(v) - 1, int(p / 100 * len(v)))]


def minutes(t):
    return t - timedelta(seconds=t.second, microseconds=t.microsecond)
