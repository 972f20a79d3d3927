"""Independent parsers of the `queries-heldout23` fixtures: each reads a written file back into records
the way an operator's awk or grep would. `reefer-api.log` as JSON lines (Echo's logger middleware: one
object a request; the app's own gommon/log lines have a `level` and no `status`);
`mosquitto.log` by its Unix-time prefix; `telegraf.log` by Telegraf's `time L! ` prefix. Nothing here
imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta, timezone


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


_UNITS = {"h": 3600 * 10 ** 9, "m": 60 * 10 ** 9, "s": 10 ** 9, "ms": 10 ** 6, "\u00b5s": 10 ** 3, "us": 10 ** 3, "ns": 1}
_DUR = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|\u00b5s|us|ns|s)")


def duration_ns(s):
    """A Go `time.Duration` string ("2m13s", "4.981726413s", "812.402µs") in nanoseconds."""
    pos, total = 0, 0
    for m in _DUR.finditer(s):
        assert m.start() == pos, s
        num, unit = m.groups()
        ip, _, fp = num.partition(".")
        scale = _UNITS[unit]
        total += int(ip) * scale + (int(fp) * scale // 10 ** len(fp) if fp else 0)
        pos = m.end()
    assert pos == len(s) and pos, s
    return total


# --- reefer-api.log (Echo's logger middleware, JSON; the app's own gommon/log lines, JSON)

def _rfc3339nano(s):
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z", s)
    assert m, s
    t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")
    frac = (m.group(2) or "").ljust(9, "0")
    return t, int(frac)


def parse_api(text):
    """Requests (the logger middleware's objects) and the app's log lines. `t` is when the request
    ended, to the second; `start` is that instant (to the nanosecond) minus `latency`."""
    reqs, logs = [], []
    for line in _lines(text):
        o = json.loads(line)
        t, ns = _rfc3339nano(o["time"])
        if "status" not in o:
            assert set(o) == {"time", "level", "prefix", "file", "line", "message"}, o
            logs.append({"t": t, "level": o["level"], "msg": o["message"]})
            continue
        assert list(o) == ["time", "id", "remote_ip", "host", "method", "uri", "user_agent", "status", "error",
                           "latency", "latency_human", "bytes_in", "bytes_out"], list(o)
        lat = o["latency"]
        assert duration_ns(o["latency_human"]) == lat, o
        start_ns = ns - lat
        start = t + timedelta(seconds=start_ns // 10 ** 9, microseconds=(start_ns % 10 ** 9) // 1000)
        reqs.append({"t": t, "ns": ns, "start": start, "st": o["status"], "lat": lat, "lat_s": o["latency_human"],
                     "ip": o["remote_ip"], "method": o["method"], "uri": o["uri"], "path": o["uri"].split("?", 1)[0],
                     "error": o["error"], "bytes_out": o["bytes_out"], "ua": o["user_agent"]})
    return reqs, logs


# --- mosquitto.log (Unix time prefix)

MLINE = re.compile(r"^(\d{10}): (.*)$")


def parse_mosquitto(text):
    out = []
    for line in _lines(text):
        m = MLINE.match(line)
        assert m, line
        e = int(m.group(1))
        out.append({"epoch": e, "t": datetime.fromtimestamp(e, timezone.utc).replace(tzinfo=None), "msg": m.group(2)})
    for r in out:
        c = re.fullmatch(r"New client connected from ([\d.]+):(\d+) as (\S+) \(p(\d), c(\d), k(\d+)(?:, u'([^']*)')?\)\.", r["msg"])
        r["client"] = c.group(3) if c else None
        r["ip"] = c.group(1) if c else None
        n = re.fullmatch(r"New connection from ([\d.]+):(\d+) on port (\d+)\.", r["msg"])
        if n:
            r["ip"], r["port"] = n.group(1), int(n.group(3))
        k = re.fullmatch(r"Client (\S+) (?:has exceeded timeout, disconnecting|closed its connection|disconnected"
                         r"|already connected, closing old connection|disconnected, not authorised)\.", r["msg"])
        if k:
            r["client"] = k.group(1)
    return out


# --- telegraf.log

TLINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) ([DIWE])! (.*)$")


def parse_telegraf(text):
    out = []
    for line in _lines(text):
        m = TLINE.match(line)
        assert m, line
        ts, level, msg = m.groups()
        p = re.match(r"\[([^\]]+)\] ", msg)
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ"), "level": level, "msg": msg,
                    "plugin": p.group(1) if p else None})
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
