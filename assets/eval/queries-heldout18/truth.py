"""Independent parsers of the `queries-heldout18` fixtures: each reads a written file back into
records the way an operator's awk, jq or grep would. HAProxy's syslog lines by the syslog header
and the `option httplog` fields (the client, the bracketed accept date, the frontend,
backend/server, the five timers, the status, the bytes, the termination state, the connection
counts, the captured headers and the quoted request), or as a free-text message (health checks,
server states); the slog JSON lines with `json.loads`; Kafka's `server.log` as entries, each a
`[date] LEVEL message (logger)` line with the lines below it that do not open an entry (the
exception and its `\\tat` frames). Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta

YEAR = 2036  # the syslog header has no year; the accept date says 2036


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- HAProxy (rsyslog file, option httplog)

SYSLOG = re.compile(r"^([A-Z][a-z]{2}) ([ \d]\d) (\d\d:\d\d:\d\d) (\S+) haproxy\[(\d+)\]: (.*)$")
HTTPLOG = re.compile(
    r"^(?P<ip>[\d.]+):(?P<cport>\d+) \[(?P<tr>\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d\.\d{3})\] (?P<fe>\S+) "
    r"(?P<be>[^/\s]+)/(?P<srv>\S+) (?P<TR>-?\d+)/(?P<Tw>-?\d+)/(?P<Tc>-?\d+)/(?P<Tr>-?\d+)/(?P<Ta>\+?\d+) "
    r"(?P<st>-?\d+) (?P<bytes>\+?\d+) (?P<cc>\S+) (?P<cs>\S+) (?P<flags>\S{4}) "
    r"(?P<ac>\d+)/(?P<fc>\d+)/(?P<bc>\d+)/(?P<sc>\d+)/(?P<rc>\+?\d+) (?P<sq>\d+)/(?P<bq>\d+) "
    r"\{(?P<host>[^|}]*)\|(?P<ua>[^}]*)\} \"(?P<method>\S+) (?P<uri>\S+) (?P<proto>[^\"]+)\"$")


def parse_haproxy(text):
    out = []
    for line in _lines(text):
        m = SYSLOG.match(line)
        assert m, line
        mon, day, hms, _host, _pid, msg = m.groups()
        d = {"t": datetime.strptime(f"{YEAR} {mon} {int(day)} {hms}", "%Y %b %d %H:%M:%S"), "msg": msg}
        h = HTTPLOG.match(msg)
        if h:
            g = h.groupdict()
            d.update(g)
            d["tr"] = datetime.strptime(g["tr"], "%d/%b/%Y:%H:%M:%S.%f")
            for k in ("TR", "Tw", "Tc", "Tr", "Ta", "st", "bytes"):
                d[k] = int(g[k])
            d["path"] = g["uri"].split("?")[0]
        out.append(d)
    return out


# --- Go log/slog JSONHandler

SLOG_TIME = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$")


def parse_slog(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        m = SLOG_TIME.match(d["time"])
        assert m, line
        frac = (m.group(2) or "").ljust(9, "0")
        d["t"] = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(frac[:6]))
        d["ns"] = int(frac)
        out.append(d)
    return out


# --- Kafka server.log (log4j "[%d] %p %m (%c)%n", multi-line entries)

KAFKA_HEAD = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) (.*) \(([\w.$]+)\)$")


def parse_kafka(text):
    out = []
    for line in _lines(text):
        m = KAFKA_HEAD.match(line)
        if m:
            ts, msec, level, msg, logger = m.groups()
            out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S") + timedelta(milliseconds=int(msec)),
                        "level": level, "msg": msg, "logger": logger, "cont": []})
        else:
            assert out, line
            out[-1]["cont"].append(line)
    return out


EXC = re.compile(r"^(?:Caused by: )?([a-z][\w$]*(?:\.[\w$]+)*\.([A-Z]\w*(?:Exception|Error)))(?::|$)")


def exceptions(entry):
    """The exception classes of an entry's continuation lines (simple names)."""
    return [m.group(2) for m in (EXC.match(x) for x in entry["cont"]) if m]


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
