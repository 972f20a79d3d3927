"""Independent parsers of the `queries-dev10` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. Traefik's CLF access log
by one regular expression (router, server URL and `<n>ms` last); Rails' `production.log` by
its `L, [time #pid] LEVEL -- : [request id]` prefix, a line without the prefix (the `):` after
a PG message) joined to the record above, and the records of one request id folded into a
request (`Started` ... `Completed`); logback's default pattern, the stack-trace lines owned by
the record above; pino's JSON lines (epoch-ms `time`); RFC 3164 syslog (no year: 2034);
structlog's key=value pairs (Python reprs). Nothing here imports the writers.
"""

import ast
import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta

YEAR = 2034


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- traefik (CLF)

CLF = re.compile(r'^(\S+) - (\S+) \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) ([+-]\d{4})\] "(\S+) (\S+) (HTTP/[\d.]+)" (\d{3}) (\d+|-) '
                 r'"([^"]*)" "([^"]*)" (\d+) "([^"]*)" "([^"]*)" (\d+)ms$')


def parse_traefik(text):
    out = []
    for line in _lines(text):
        m = CLF.match(line)
        assert m, line
        ip, user, ts, tz, method, target, proto, status, size, ref, ua, n, router, url, dur = m.groups()
        assert tz == "+0000"
        out.append({"t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S"), "client": ip, "method": method, "target": target,
                    "path": target.split("?")[0], "status": int(status), "bytes": 0 if size == "-" else int(size),
                    "ua": ua, "n": int(n), "router": router, "url": url, "ms": int(dur)})
    return out


# --- Rails production.log

RAILS = re.compile(r"^([DIWEFU]), \[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}) #(\d+)\]\s+(DEBUG|INFO|WARN|ERROR|FATAL|ANY) -- : "
                   r"(?:\[([0-9a-f-]{36})\] )?(.*)$")


def parse_rails(text):
    """Returns (lines, requests): every prefixed line, and one record per request id."""
    lines = []
    for line in _lines(text):
        m = RAILS.match(line)
        if not m:
            assert lines, line
            lines[-1]["msg"] += "\n" + line
            continue
        sev, ts, pid, lvl, rid, msg = m.groups()
        lines.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "pid": int(pid), "level": lvl, "rid": rid, "msg": msg})
    reqs = {}
    for r in lines:
        q = reqs.setdefault(r["rid"], {"rid": r["rid"], "fatal": []})
        m = re.match(r'Started (\w+) "([^"]+)" for (\S+) at', r["msg"])
        if m:
            q.update(t=r["t"], method=m.group(1), target=m.group(2), path=m.group(2).split("?")[0], client=m.group(3))
        m = re.match(r"Processing by (\S+) as", r["msg"])
        if m:
            q["action"] = m.group(1)
        m = re.match(r"Completed (\d{3}) .*? in (\d+)ms", r["msg"])
        if m:
            q.update(status=int(m.group(1)), ms=int(m.group(2)), done=r["t"])
        if r["level"] == "FATAL":
            q["fatal"].append(r["msg"])
    out = sorted(reqs.values(), key=lambda q: q["t"])
    assert all("status" in q and "method" in q for q in out)
    return lines, out


# --- Spring Boot logback (default console pattern)

LOGBACK = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(TRACE|DEBUG|INFO|WARN|ERROR) (\d+) --- \[\s*([^\]]+)\] "
                     r"(\S+)\s+: (.*)$")


def parse_logback(text):
    out = []
    for line in _lines(text):
        m = LOGBACK.match(line)
        if not m:
            assert out, line
            out[-1]["more"].append(line)
            continue
        ts, lvl, pid, thread, logger, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "level": lvl, "pid": int(pid), "thread": thread,
             "logger": logger, "msg": msg, "more": []}
        if logger.endswith("RequestTimingFilter"):
            kv = dict(re.findall(r"(\w+)=(\S+)", msg))
            r.update(method=kv["method"], uri=kv["uri"], status=int(kv["status"]), took=int(kv["took"].rstrip("ms")))
        out.append(r)
    return out


# --- pino

EPOCH = datetime(1970, 1, 1)


def parse_pino(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = EPOCH + timedelta(milliseconds=d["time"])
        out.append(d)
    return out


# --- syslog (RFC 3164)

SYSLOG = re.compile(r"^(\w{3}) ([ \d]\d) (\d\d:\d\d:\d\d) (\S+) ([\w.-]+)(?:\[(\d+)\])?: (.*)$")


def parse_syslog(text):
    out = []
    for line in _lines(text):
        m = SYSLOG.match(line)
        assert m, line
        mon, day, hms, host, prog, pid, msg = m.groups()
        out.append({"t": datetime.strptime(f"{YEAR} {mon} {int(day)} {hms}", "%Y %b %d %H:%M:%S"), "host": host, "prog": prog,
                    "pid": int(pid) if pid else None, "msg": msg})
    return out


# --- structlog key=value

KV = re.compile(r"(\w+)=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)")


def parse_structlog(text):
    out = []
    for line in _lines(text):
        d = {}
        for k, v in KV.findall(line):
            d[k] = ast.literal_eval(v) if v[0] in "'\"" else int(v) if re.fullmatch(r"-?\d+", v) else v
        d["t"] = datetime.strptime(d["timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ")
        out.append(d)
    return out


# --- generic helpers (as in the earlier sets)

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
