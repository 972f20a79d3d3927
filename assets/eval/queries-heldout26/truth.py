"""Independent parsers of the `queries-heldout26` fixtures: each reads a written file back into records
the way an operator's awk, jq or grep would. `quillfern-edge.access.log` as nginx "combined" plus
`$request_time`; `basket-api.log` as JSON lines (structlog); `fulfilment-service.log` by logback's
Spring Boot pattern, a stack trace's lines belonging to the entry above them. Nothing here imports
the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.split("\n")[:-1]


# --- quillfern-edge.access.log (nginx combined + $request_time)

NGX = re.compile(r'^(\S+) - (\S+) \[(\d\d)/(\w{3})/(\d{4}):(\d\d):(\d\d):(\d\d) \+0000\] "(\S+) (\S+) (HTTP/[\d.]+)" '
                 r'(\d{3}) (\d+) "([^"]*)" "([^"]*)" (\d+\.\d{3})$')
MON = {m: i + 1 for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])}


def parse_edge(text):
    """Requests: `t` is $time_local (when the request ended, to the second); `start` is that minus
    $request_time (what an operator reads as when it came in)."""
    out = []
    for line in _lines(text):
        m = NGX.match(line)
        assert m, line
        ip, user, d, mon, y, hh, mm, ss, method, uri, proto, st, nbytes, ref, ua, rt = m.groups()
        t = datetime(int(y), MON[mon], int(d), int(hh), int(mm), int(ss))
        rt_ms = int(rt.replace(".", ""))
        out.append({"t": t, "start": t - timedelta(milliseconds=rt_ms), "ip": ip, "method": method, "uri": uri,
                    "path": uri.split("?", 1)[0], "st": int(st), "bytes": int(nbytes), "ref": ref, "ua": ua,
                    "rt_ms": rt_ms, "rt": rt})
    return out


# --- basket-api.log (structlog JSON lines)

def _iso(s):
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z", s)
    assert m, s
    return datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(m.group(2)))


def parse_py(text):
    out = []
    for line in _lines(text):
        o = json.loads(line)
        keys = list(o)
        assert keys[-1] == "timestamp" or keys[-2:] == ["timestamp", "exception"], keys
        assert o["level"] in ("info", "warning", "error"), o
        o["t"] = _iso(o["timestamp"])
        out.append(o)
    return out


# --- fulfilment-service.log (Spring Boot's default logback pattern)

JHEAD = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z ([A-Z ]{5}) (\d+) --- \[(.{15})\] (.{40}) : (.*)$")


def parse_java(text):
    """Entries: the header line and the lines under it (stack traces, blank lines)."""
    out = []
    for line in _lines(text):
        m = JHEAD.match(line)
        if m:
            ts, level, pid, th, logger, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f")
            out.append({"t": t, "level": level.strip(), "thread": th.strip(), "logger": logger.strip(), "msg": msg,
                        "trace": []})
        else:
            assert out and (line == "" or line.startswith("\tat ") or line.startswith("\t... ")
                            or line.startswith("Caused by: ") or re.match(r"^[\w.$]+(Exception|Error)\b", line)), line
            out[-1]["trace"].append(line)
    return out


# --- generic helpers (as in the earlier sets)

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
