"""Independent parsers of the `queries-dev12` fixtures: each reads a written file back into
records, one per event, the way an operator's awk or grep would. The nginx key=value access
log by its columns (`urt`/`upstream` may be `-` or a `, `-separated list); logrus' text
formatter as logfmt (bare or double-quoted values with backslash escapes, Go duration strings
read to microseconds); Log4j2's `%d{ISO8601} %-5p [%t] %c{1.} - %m%n` with every line that
does not open a record (stack frames, `Caused by:`) owned by the record above. Nothing here
imports the writers.
"""

import math
import re
from collections import Counter
from datetime import datetime


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- nginx key=value access log

NGX = re.compile(r'^time=(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\+00:00 client=(\S+) method=([A-Z]+) uri=(\S+) '
                 r'status=(\d{3}) bytes=(\d+) rt=(\d+\.\d{3}) urt=(-|\d+\.\d{3}(?:, \d+\.\d{3})*) '
                 r'upstream=(-|[\d.:]+(?:, [\d.:]+)*) ua="([^"]*)"$')


def _ms(s):
    whole, frac = s.split(".")
    return int(whole) * 1000 + int(frac)


def parse_nginx(text):
    out = []
    for line in _lines(text):
        m = NGX.match(line)
        assert m, line
        ts, client, method, uri, status, size, rt, urt, up, ua = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S"), "client": client, "method": method, "uri": uri,
                    "path": uri.split("?")[0], "status": int(status), "bytes": int(size), "rt_ms": _ms(rt),
                    "urt": [] if urt == "-" else [_ms(x) for x in urt.split(", ")],
                    "up": [] if up == "-" else up.split(", "), "ua": ua})
    return out


# --- logrus text formatter (logfmt)

KV = re.compile(r'([\w.]+)=("(?:[^"\\]|\\.)*"|\S*)(?: |$)')


def _unq(v):
    if v.startswith('"'):
        return re.sub(r"\\(.)", r"\1", v[1:-1])
    return v


def go_us(s):
    """A Go duration string (`850ms`, `1.2s`, `19m34s`) in microseconds."""
    unit = {"h": 3600e6, "m": 60e6, "s": 1e6, "ms": 1e3, "us": 1, "µs": 1, "ns": 1e-3}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)", s)
    assert "".join(a + b for a, b in parts) == s, s
    return round(sum(float(a) * unit[b] for a, b in parts))


def parse_logrus(text):
    out = []
    for line in _lines(text):
        pos, kv = 0, {}
        while pos < len(line):
            m = KV.match(line, pos)
            assert m, (line, pos)
            kv[m.group(1)] = _unq(m.group(2))
            pos = m.end()
        assert list(kv)[:3] == ["time", "level", "msg"], line
        rest = list(kv)[3:]
        assert rest == sorted(rest), line
        kv["t"] = datetime.strptime(kv["time"], "%Y-%m-%dT%H:%M:%SZ")
        if "latency" in kv:
            kv["latency_us"] = go_us(kv["latency"])
        out.append(kv)
    return out


# --- Log4j2 %d{ISO8601} %-5p [%t] %c{1.} - %m%n

L4J = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d),(\d{3}) (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \[([^\]]+)\] "
                 r"(\S+) - (.*)$")


def parse_log4j(text):
    out = []
    for line in _lines(text):
        m = L4J.match(line)
        if not m:
            assert out and (line.startswith("\t") or line.startswith("Caused by: ") or re.match(r"^[\w.$]+(Exception|Error)", line)), line
            out[-1]["more"].append(line)
            continue
        ts, ms, lvl, th, lg, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S").replace(microsecond=int(ms) * 1000)
        out.append({"t": t, "level": lvl.strip(), "thread": th, "logger": lg, "msg": msg, "more": []})
    for r in out:
        r.update(re.findall(r"(\w+)=([\w.-]+)", r["msg"]))
        causes = [x[len("Caused by: "):] for x in r["more"] if x.startswith("Caused by: ")]
        r["root"] = causes[-1] if causes else None
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


def minute(t):
    return t.replace(second=0, microsecond=0)
