"""Independent parsers of the `queries-heldout22` fixtures: each reads a written file back into
records the way an operator's awk or grep would. `shop.access.log` by the nginx `combined` layout
with `$request_time $upstream_response_time` appended; `shop.error.log` by nginx's error-log prefix
(`yyyy/mm/dd hh:mm:ss [level] pid#tid: *conn `), a line without the prefix continuing the entry
above (a PHP stack trace); `php8.3-fpm.log` by PHP-FPM's `[dd-Mon-yyyy hh:mm:ss] LEVEL: `.
Nothing here imports the writers.
"""

import math
import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- shop.access.log (nginx: combined + $request_time $upstream_response_time)

ALINE = re.compile(r'^(\S+) - (\S+) \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) \+0000\] "(\S+) (\S+) (HTTP/[\d.]+)" (\d{3}) (\d+) '
                   r'"([^"]*)" "([^"]*)" (\d+\.\d{3}) (\d+\.\d{3}|-)$')


def parse_access(text):
    out = []
    for line in _lines(text):
        m = ALINE.match(line)
        assert m, line
        ip, user, ts, method, uri, proto, st, size, ref, ua, rt, urt = m.groups()
        t = datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S")
        rt = float(rt)
        out.append({"t": t, "start": t - timedelta(seconds=rt), "ip": ip, "method": method, "uri": uri,
                    "path": uri.split("?", 1)[0], "st": int(st), "bytes": int(size), "ua": ua, "rt": rt,
                    "urt": None if urt == "-" else float(urt)})
    return out


# --- shop.error.log (nginx error_log)

ELINE = re.compile(r"^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) \[(\w+)\] (\d+)#(\d+): (?:\*(\d+) )?(.*)$")


def parse_error(text):
    """One record per prefixed line; lines without the prefix (a stack trace) join the record above."""
    out = []
    for line in _lines(text):
        m = ELINE.match(line)
        if not m:
            assert out, line
            out[-1]["msg"] += "\n" + line
            out[-1]["lines"] += 1
            continue
        ts, level, pid, tid, conn, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y/%m/%d %H:%M:%S"), "level": level, "pid": int(pid),
                    "conn": int(conn) if conn else None, "msg": msg, "lines": 1})
    for r in out:
        c = re.search(r", client: ([\d.]+), server: ", r["msg"])
        r["client"] = c.group(1) if c else None
    return out


# --- php8.3-fpm.log

FLINE = re.compile(r"^\[(\d\d-\w{3}-\d{4} \d\d:\d\d:\d\d)\] (NOTICE|WARNING|ERROR|ALERT|DEBUG): (.*)$")


def parse_fpm(text):
    out = []
    for line in _lines(text):
        m = FLINE.match(line)
        assert m, line
        ts, level, msg = m.groups()
        pool = re.match(r"\[pool (\w+)\] ", msg)
        out.append({"t": datetime.strptime(ts, "%d-%b-%Y %H:%M:%S"), "level": level, "msg": msg,
                    "pool": pool.group(1) if pool else None})
    return out


# --- generic helpers (as in the earlier sets)

def count(rows, pred):
    return sum(1 for r in rows if pred(r))


def group(rows, key, pred=lambda r: True):
    return Counter(key(r) for r in rows if pred(r))


def total(rows, key, value, pred=lambda r: True):
    out = Counter()
    for r in rows:
        if pred(r):
            out[key(r)] += value(r)
    return out


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
