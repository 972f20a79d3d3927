"""Independent parsers of the `queries-dev7` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would (a gunicorn error-log
line owns the Python traceback under it, a Keycloak line owns its Java stack trace and
`Caused by:` lines, pino's epoch milliseconds are read as UTC, hclog's quoted values keep
their escapes, the carousel controller's `dd.mm.yyyy` stamps and one-letter levels are read
as they stand). Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta, timezone


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


ACCESS = re.compile(r'^(\d+\.\d+\.\d+\.\d+) - - \[(\d\d)/(\w{3})/(\d{4}):(\d\d:\d\d:\d\d) \+0000\] '
                    r'"([A-Z]+) (\S+) HTTP/1\.1" (\d{3}) (\d+) "([^"]*)" "([^"]*)" (\d+\.\d{6})$')
MONTHS = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}


def parse_gunicorn_access(text):
    """%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(L)s (request time in seconds)."""
    out = []
    for line in _lines(text):
        m = ACCESS.match(line)
        assert m, line
        ip, dd, mon, yyyy, hms_, method, target, status, size, ref, ua, dur = m.groups()
        t = datetime.strptime(f"{yyyy}-{MONTHS[mon]:02d}-{dd} {hms_}", "%Y-%m-%d %H:%M:%S")
        out.append({"t": t, "ip": ip, "method": method, "target": target, "path": target.split("?")[0],
                    "status": int(status), "size": int(size), "ua": ua, "secs": float(dur), "dur_s": dur})
    return out


GERR = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \+0000\] \[(\d+)\] \[(DEBUG|INFO|WARNING|ERROR|CRITICAL)\] (.*)$")


def parse_gunicorn_error(text):
    """A `[ts] [pid] [LEVEL] msg` line starts an event; anything else (a traceback) belongs to it."""
    out = []
    for line in _lines(text):
        m = GERR.match(line)
        if m:
            ts, pid, lvl, msg = m.groups()
            out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S"), "pid": int(pid), "level": lvl, "msg": msg,
                        "tb": []})
        else:
            assert out, line
            out[-1]["tb"].append(line)
    return out


def parse_pino(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.fromtimestamp(d["time"] / 1000, tz=timezone.utc).replace(tzinfo=None)
        if "req" in d:
            d["path"] = d["req"]["url"].split("?")[0]
            d["method"] = d["req"]["method"]
        if "res" in d:
            d["status"] = d["res"]["statusCode"]
        out.append(d)
    return out


KC = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) +\[([^\]]+)\] \(([^)]+)\) (.*)$")
KV_QUOTED = re.compile(r'(\w+)="([^"]*)"')


def parse_keycloak(text):
    """%d %-5p [%c] (%t) %s%e : a stack trace (tab-indented frames, `Caused by:`) belongs to the line above."""
    out = []
    for line in _lines(text):
        m = KC.match(line)
        if m:
            ts, lvl, cat, thread, msg = m.groups()
            r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f"), "level": lvl, "category": cat, "thread": thread,
                 "msg": msg, "trace": []}
            if cat == "org.keycloak.events":
                r.update(KV_QUOTED.findall(msg))
            out.append(r)
        else:
            assert out and (line.startswith("\t") or line.startswith("Caused by: ")), line
            out[-1]["trace"].append(line)
    return out


HCLOG = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z \[(TRACE|DEBUG|INFO|WARN|ERROR)\] +(\S+): (.*)$")
HC_PAIR = re.compile(r'(\w[\w.-]*)=("(?:[^"\\]|\\.)*"|\S+)')


def parse_hclog(text):
    """hclog: `ts [LEVEL] name: message: k=v k="quoted \\"escaped\\""`."""
    out = []
    for line in _lines(text):
        m = HCLOG.match(line)
        assert m, line
        ts, lvl, name, rest = m.groups()
        msg, kv = rest, {}
        cut = rest.find(": ")
        while cut >= 0:
            tail = rest[cut + 2:]
            pairs = HC_PAIR.findall(tail)
            if pairs and " ".join(f"{k}={v}" for k, v in pairs) == tail:
                msg = rest[:cut]
                kv = {k: (json.loads(v) if v.startswith('"') else v) for k, v in pairs}
                break
            cut = rest.find(": ", cut + 1)
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "level": lvl, "name": name, "msg": msg, **kv})
    return out


CAROUSEL = re.compile(r"^(\d\d)\.(\d\d)\.(\d{4}) (\d\d:\d\d:\d\d\.\d{3}) \[([DIWEF])\] (\S+) *: (.*)$")


def parse_carousel(text):
    out = []
    for line in _lines(text):
        m = CAROUSEL.match(line)
        assert m, line
        dd, mm, yyyy, hms_, lvl, unit, msg = m.groups()
        r = {"t": datetime.strptime(f"{yyyy}-{mm}-{dd} {hms_}", "%Y-%m-%d %H:%M:%S.%f"), "level": lvl, "unit": unit,
             "msg": msg}
        r.update(re.findall(r"(\w+)=([^\s,]+)", msg))
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
