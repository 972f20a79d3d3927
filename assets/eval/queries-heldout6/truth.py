"""Independent parsers of the `queries-heldout6` fixtures: each reads a written file back into
records (one per event: a Cassandra line owns the stack trace under it, a zap or pino record
is one JSON line whatever its escaped newlines, a Vault audit request and its response are two
records sharing `request.id`), the way an operator's awk, jq or grep would, so the cases'
truth comes from the text and not from the generators' bookkeeping. Nothing here imports the
writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc
YEAR = 2031  # syslog lines carry no year


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


VARNISH = re.compile(r'^(\S+) - - \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) \+0000\] "(\S+) (\S+) HTTP/1\.1" (\d{3}) (\d+) '
                     r'"([^"]*)" "([^"]*)" (\d+) (hit|miss) (hit|miss|pass|pipe|synth)$')


def parse_varnish(text):
    """varnishncsa -F '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %D %{Varnish:hitmiss}x %{Varnish:handling}x'."""
    out = []
    for line in _lines(text):
        m = VARNISH.match(line)
        assert m, line
        ip, ts, method, url, status, size, ref, ua, d, hm, handling = m.groups()
        path = re.sub(r"^https?://[^/]+", "", url)
        out.append({"t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S").replace(tzinfo=UTC), "ip": ip, "method": method,
                    "path": path, "stem": path.split("?")[0], "status": int(status), "D": int(d), "hitmiss": hm,
                    "handling": handling})
    return out


CASS = re.compile(r"^(TRACE|DEBUG|INFO|WARN|ERROR) +\[([^\]]+)\] (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) (\S+):(\d+) - (.*)$")


def parse_cassandra(text):
    """Cassandra system.log (`%-5level [%thread] %date{ISO8601} %F:%L - %msg`); any other line
    (a stack trace) belongs to the event above."""
    out = []
    for line in _lines(text):
        m = CASS.match(line)
        if not m:
            assert out and (line.startswith("\t") or line.startswith("java.")), line
            out[-1]["trace"].append(line)
            continue
        level, thread, ts, src, _, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f").replace(tzinfo=UTC), "level": level,
                    "thread": thread, "src": src, "msg": msg, "trace": []})
    return out


def parse_zap(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.fromtimestamp(float(d["ts"]), UTC)
        out.append(d)
    return out


HCLOG = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z \[(TRACE|DEBUG|INFO|WARN|ERROR)\] +(.*)$")


def parse_hclog(text):
    out = []
    for line in _lines(text):
        m = HCLOG.match(line)
        assert m, line
        ts, level, msg = m.groups()
        c = re.search(r"\bcheck=(\S+)", msg)
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC), "level": level, "msg": msg,
                    "check": c.group(1) if c else None})
    return out


def parse_vault(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        s = d["time"]
        d["t"] = datetime.strptime(s[:26], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC)
        out.append(d)
    return out


def parse_pino(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.fromtimestamp(d["time"] / 1000, UTC)
        out.append(d)
    return out


SYSLOG = re.compile(r"^(\w{3} [ \d]\d \d\d:\d\d:\d\d) (\S+) ([\w.-]+)(?:\[(\d+)\])?: (.*)$")


def parse_syslog(text):
    out = []
    for line in _lines(text):
        m = SYSLOG.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        out.append({"t": datetime.strptime(f"{YEAR} {ts}", "%Y %b %d %H:%M:%S").replace(tzinfo=UTC), "host": host,
                    "prog": prog, "msg": msg})
    return out


COMBINED = re.compile(r'^(\S+) \S+ \S+ \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) [+-]\d{4}\] "(\S+) (\S+) (\S+)" (\d{3}) (\d+|-) '
                      r'"([^"]*)" "([^"]*)"$')


def parse_combined(text):
    out = []
    for line in _lines(text):
        m = COMBINED.match(line)
        assert m, line
        ip, ts, method, path, _, status, size, ref, ua = m.groups()
        out.append({"t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S").replace(tzinfo=UTC), "ip": ip, "method": method,
                    "path": path, "status": int(status), "size": 0 if size == "-" else int(size)})
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
