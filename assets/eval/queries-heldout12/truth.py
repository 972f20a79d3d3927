"""Independent parsers of the `queries-heldout12` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. zap's console encoder by
its tabs (time, level, caller, message, JSON fields); Tomcat's AccessLogValve by its
`%h %l %u %t "%r" %s %b %D` columns (`%t` is the request's start, lines in completion order,
`%D` in ms); Serilog's compact JSON by its `@t`/`@mt`/`@l` keys (no `@l` is Information);
ProxySQL's `time file:line:func(): [LEVEL] msg` lines owning the table lines under them;
winston's JSON lines; OpenVPN's `YYYY-MM-DD HH:MM:SS` prefix with the peer (`cn/ip:port` or
`ip:port`) in front of the message. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def _iso(s):
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z", s)
    assert m, s
    return datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(((m.group(2) or "") + "000000")[:6]))


# --- zap console encoder

def parse_zap(text):
    out = []
    for line in _lines(text):
        parts = line.split("\t")
        assert len(parts) in (4, 5), line
        r = {"t": _iso(parts[0]), "level": parts[1], "caller": parts[2], "msg": parts[3]}
        r.update(json.loads(parts[4]) if len(parts) == 5 else {})
        out.append(r)
    return out


# --- Tomcat AccessLogValve %h %l %u %t "%r" %s %b %D

TC = re.compile(r'^(\S+) (\S+) (\S+) \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) \+0000\] "(\S+) (\S+) (HTTP/[\d.]+)" (\d{3}) (\d+|-) (\d+)$')


def parse_tomcat(text):
    out = []
    for line in _lines(text):
        m = TC.match(line)
        assert m, line
        ip, _, _, ts, method, target, _, status, size, d = m.groups()
        out.append({"t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S"), "client": ip, "method": method, "target": target,
                    "path": target.split("?")[0], "status": int(status), "bytes": 0 if size == "-" else int(size),
                    "D": int(d)})
    return out


# --- Serilog compact JSON (CLEF)

def parse_clef(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        r = dict(d)
        r["t"] = _iso(d["@t"])
        r["level"] = d.get("@l", "Information")
        r["mt"] = d["@mt"]
        out.append(r)
    return out


# --- ProxySQL

PX = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (\S+?\.cpp:\d+:\S+\(\)): \[(INFO|WARNING|ERROR)\] (.*)$")


def parse_proxysql(text):
    out = []
    for line in _lines(text):
        m = PX.match(line)
        if not m:
            assert out and (line.startswith("+") or line.startswith("|")), line
            out[-1]["more"].append(line)
            continue
        ts, src, lvl, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S"), "src": src, "level": lvl, "msg": msg, "more": []})
    return out


# --- winston JSON

def parse_winston(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = _iso(d["timestamp"])
        out.append(d)
    return out


# --- OpenVPN

OV = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (.*)$")
PEER = re.compile(r"^(?:([\w.-]+)/)?(\d+\.\d+\.\d+\.\d+):(\d+) (.*)$")


def parse_openvpn(text):
    out = []
    for line in _lines(text):
        m = OV.match(line)
        assert m, line
        ts, rest = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S"), "cn": None, "ip": None, "msg": rest}
        p = PEER.match(rest)
        if p:
            r["cn"], r["ip"], _, r["msg"] = p.groups()
        c = re.search(r"CN=([\w-]+)", r["msg"])
        if r["cn"] is None and c and "Kiosk CA" not in r["msg"]:
            r["cn"] = c.group(1)
        out.append(r)
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
