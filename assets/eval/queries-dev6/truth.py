"""Independent parsers of the `queries-dev6` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would (a PostgreSQL message owns
its DETAIL/HINT/CONTEXT/STATEMENT lines and tab continuations, a Docker json-file record is
unwrapped and a Python traceback belongs to the log line above it, HAProxy is read by its
accept date, Redis by its role and level characters, logrus by its key=value pairs). Nothing
here imports the writers.
"""

import json
import math
import re
import shlex
from collections import Counter
from datetime import datetime

YEAR = 2031


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


HAPROXY = re.compile(r'^(\w{3} \d\d \d\d:\d\d:\d\d) (\S+) haproxy\[(\d+)\]: (\S+):(\d+) \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d\.\d{3})\] '
                     r'(\S+) (\S+)/(\S+) (-?\d+)/(-?\d+)/(-?\d+)/(-?\d+)/(-?\d+) (\d{3}) (\d+) - - (\S{4}) \S+ \S+ "(\S+) (\S+) HTTP/1\.1"$')


def parse_haproxy(text):
    out = []
    for line in _lines(text):
        m = HAPROXY.match(line)
        assert m, line
        g = m.groups()
        out.append({"t": datetime.strptime(g[5], "%d/%b/%Y:%H:%M:%S.%f"), "ip": g[3], "frontend": g[6], "backend": g[7],
                    "server": g[8], "Tr": int(g[12]), "Ta": int(g[13]), "status": int(g[14]), "bytes": int(g[15]),
                    "term": g[16], "method": g[17], "path": g[18]})
    return out


PG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC \[(\d+)\] (?:(\S+)@(\S+) )?(LOG|ERROR|FATAL|PANIC|WARNING|DETAIL|HINT|CONTEXT|STATEMENT):  (.*)$")


def parse_postgres(text):
    """%m [%p] %q%u@%d : a DETAIL/HINT/CONTEXT/STATEMENT line or a tab continuation belongs to the message above."""
    out = []
    for line in _lines(text):
        m = PG.match(line)
        if m and m.group(5) not in ("DETAIL", "HINT", "CONTEXT", "STATEMENT"):
            ts, pid, user, db, sev, msg = m.groups()
            out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "pid": int(pid), "user": user, "db": db,
                        "sev": sev, "msg": msg, "extra": []})
        else:
            assert out and (m or line.startswith("\t")), line
            out[-1]["extra"].append(line)
    return out


REDIS = re.compile(r"^(\d+):([XCSM]) (\d\d \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) ([.\-*#]) (.*)$")


def parse_redis(text):
    out = []
    for line in _lines(text):
        m = REDIS.match(line)
        assert m, line
        pid, role, ts, lvl, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%d %b %Y %H:%M:%S.%f"), "pid": int(pid), "role": role, "lvl": lvl, "msg": msg})
    return out


PYLOG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) \[([\w.]+)\] (.*)$")


def parse_docker_python(text):
    """Docker json-file records unwrapped; a line that is not a Python log line (a traceback) belongs to the one above."""
    out = []
    for line in _lines(text):
        d = json.loads(line)
        body = d["log"]
        assert body.endswith("\n") and d["stream"] == "stderr"
        body = body[:-1]
        m = PYLOG.match(body)
        if not m:
            assert out, body
            out[-1]["tb"].append(body)
            continue
        ts, lvl, name, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f"), "level": lvl, "logger": name, "msg": msg, "tb": []}
        h = re.match(r"(GET|POST) (\S+) (\d{3}) dur_ms=(\d+)", msg)
        if h:
            r.update(method=h.group(1), path=h.group(2), status=int(h.group(3)), dur=int(h.group(4)))
        out.append(r)
    return out


def parse_logrus(text):
    out = []
    for line in _lines(text):
        kv = dict(p.split("=", 1) for p in shlex.split(line))
        kv["t"] = datetime.strptime(kv.pop("time"), "%Y-%m-%dT%H:%M:%SZ")
        out.append(kv)
    return out


def parse_ecs(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.strptime(d["@timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ")
        out.append(d)
    return out


def ranked(counter, n=1):
    """The top n of a Counter, asserting ranks 1..n are strictly above the next one."""
    best = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:n + 1]
    assert len(best) >= n, best
    for i in range(min(n, len(best) - 1)):
        assert best[i][1] > best[i + 1][1], best
    return best[:n]


def least(counter):
    worst = sorted(counter.items(), key=lambda kv: (kv[1], str(kv[0])))
    assert len(worst) < 2 or worst[0][1] < worst[1][1], worst
    return worst[0]


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
