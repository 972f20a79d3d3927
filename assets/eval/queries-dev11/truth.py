"""Independent parsers of the `queries-dev11` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. Apache's `vhost_combined`
+ `%D` by one regular expression (`%t` is the request's start; lines are in completion order);
zap's JSON one object a line (`ts` read as the exact decimal written, Go duration strings
parsed); Logback's pattern by its header, every line that does not start one (stack frames,
`Caused by:`, `... n common frames omitted`) owned by the record above. Nothing here imports
the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta, timezone
from decimal import Decimal


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- Apache vhost_combined + %D

VHC = re.compile(r'^([\w.-]+):(\d+) (\S+) (\S+) (\S+) \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) ([+-]\d{4})\] '
                 r'"(\S+) (\S+) (HTTP/[\d.]+)" (\d{3}) (\d+|-) "([^"]*)" "([^"]*)" (\d+)$')


def parse_vhost_access(text):
    out = []
    for line in _lines(text):
        m = VHC.match(line)
        assert m, line
        vhost, port, ip, _, user, ts, tz, method, target, proto, status, size, ref, ua, d = m.groups()
        assert tz == "+0000" and port == "443"
        out.append({"vhost": vhost, "t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S"), "client": ip, "method": method,
                    "target": target, "path": target.split("?")[0], "status": int(status),
                    "bytes": 0 if size == "-" else int(size), "ref": ref, "ua": ua, "D": int(d)})
    return out


# --- zap production JSON

GO_DUR = re.compile(r"(\d+(?:\.\d+)?)(h|ms|µs|us|ns|m|s)")
UNIT_US = {"h": 3_600_000_000, "m": 60_000_000, "s": 1_000_000, "ms": 1000, "µs": 1, "us": 1, "ns": Decimal("0.001")}


def go_duration_us(s):
    """`3m41.5s`, `845.2ms`, `1.25s`, `6h0m0s` -> microseconds (Decimal)."""
    assert re.fullmatch(r"(?:\d+(?:\.\d+)?(?:h|ms|µs|us|ns|m|s))+", s), s
    us = sum(Decimal(v) * UNIT_US[u] for v, u in GO_DUR.findall(s))
    assert us == int(us), s
    return int(us)


def parse_zap(text):
    out = []
    for line in _lines(text):
        d = json.loads(line, parse_float=Decimal)
        assert list(d)[:5] == ["level", "ts", "logger", "caller", "msg"], line
        assert d["level"] in ("debug", "info", "warn", "error", "dpanic", "panic", "fatal")
        ts = d["ts"]
        t = datetime.fromtimestamp(int(ts), tz=timezone.utc).replace(tzinfo=None) + \
            timedelta(microseconds=int((ts - int(ts)) * 1_000_000))
        d["t"] = t
        out.append(d)
    return out


# --- Logback %d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{36} - %msg%n

LB = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[([^\]]+)\] (TRACE|DEBUG|INFO |WARN |ERROR) (\S+) - (.*)$")


def parse_logback(text):
    out = []
    for line in _lines(text):
        m = LB.match(line)
        if not m:
            assert out, line
            out[-1]["more"].append(line)
            continue
        ts, thread, lvl, logger, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "thread": thread, "level": lvl.strip(),
             "logger": logger, "msg": msg, "more": []}
        r.update(re.findall(r"(\w+)=([^\s,]+)", msg))
        out.append(r)
    return out


def caused_by(rec):
    """The `Caused by:` chain of a record, outermost first (the exception class names)."""
    chain = []
    if rec["more"]:
        chain.append(rec["more"][0].split(":")[0])
    chain += [x[len("Caused by: "):].split(":")[0] for x in rec["more"] if x.startswith("Caused by: ")]
    return chain


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
