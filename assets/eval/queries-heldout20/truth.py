"""Independent parsers of the `queries-heldout20` fixtures: each reads a written file back into
records the way an operator's awk, jq or grep would. `squid-access.log` by one expression per line
(Squid's native format, the epoch time converted to UTC); `kubelet.log` as klog lines (the level
letter, `mmdd hh:mm:ss.uuuuuu`, the thread id, `file:line]`, then the quoted message and its
`key=value` pairs, values quoted, bare, or JSON), under klog's file header; `vault_audit.log` with
`json.loads`. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta, timezone

YEAR = 2036  # klog lines carry no year


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- squid-access.log (native: %ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm %ru %[un %Sh/%<a %mt)

SQUID = re.compile(r"^(\d{10})\.(\d{3}) +(\d+) (\S+) ([A-Z_]+)/(\d{3}) (\d+) ([A-Z]+) (\S+) (\S+) ([A-Z_]+)/(\S+) (\S+)$")


def parse_squid(text):
    out = []
    for line in _lines(text):
        m = SQUID.match(line)
        assert m, line
        sec, msec, el, ip, code, st, size, method, url, user, hier, peer, mime = m.groups()
        t = datetime.fromtimestamp(int(sec), timezone.utc).replace(tzinfo=None) + timedelta(milliseconds=int(msec))
        host = url.split(":", 1)[0] if method == "CONNECT" else re.match(r"^\w+://([^/:]+)", url).group(1)
        out.append({"t": t, "el": int(el), "ip": ip, "code": code, "st": int(st), "bytes": int(size), "method": method,
                    "url": url, "host": host, "user": user, "hier": hier, "peer": peer, "mime": mime,
                    "start": t - timedelta(milliseconds=int(el))})
    return out


# --- kubelet.log (klog: Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg)

KLOG = re.compile(r"^([IWEF])(\d\d)(\d\d) (\d\d:\d\d:\d\d)\.(\d{6}) +(\d+) ([\w.-]+:\d+)\] (.*)$")


def _kv(rest):
    """The quoted message and the key=value pairs after it."""
    dec = json.JSONDecoder()
    msg, i = dec.raw_decode(rest)
    kv = {}
    while i < len(rest):
        assert rest[i] == " ", rest[i:]
        i += 1
        eq = rest.index("=", i)
        key = rest[i:eq]
        i = eq + 1
        if rest[i] in '"[{':
            val, i = dec.raw_decode(rest, i)
        else:
            j = rest.find(" ", i)
            j = len(rest) if j < 0 else j
            val = rest[i:j]
            i = j
        kv[key] = val
    return msg, kv


def parse_kubelet(text):
    out = []
    lines = _lines(text)
    assert lines[0].startswith("Log file created at:") and lines[3].startswith("Log line format:")
    for line in lines[4:]:
        m = KLOG.match(line)
        assert m, line
        lvl, mo, d, hms, us, tid, src, rest = m.groups()
        t = datetime.strptime(f"{YEAR}-{mo}-{d} {hms}", "%Y-%m-%d %H:%M:%S") + timedelta(microseconds=int(us))
        msg, kv = _kv(rest)
        out.append({"t": t, "level": lvl, "src": src, "msg": msg, "kv": kv})
    return out


def go_duration(s):
    """A Go duration string (`2m6.118466339s`, `1.5s`) in seconds."""
    m = re.fullmatch(r"(?:(\d+)m)?(\d+(?:\.\d+)?)s", s)
    assert m, s
    return int(m.group(1) or 0) * 60 + float(m.group(2))


def go_time(s):
    """`2036-05-22 03:05:12.118466339 +0000 UTC m=+...` to a datetime (to the microsecond)."""
    m = re.match(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(?:\.(\d+))? \+0000 UTC", s)
    assert m, s
    t = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")
    return t + timedelta(microseconds=int((m.group(2) or "0")[:6].ljust(6, "0")))


# --- vault_audit.log (file audit device, JSON lines)

def parse_vault(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z", d["time"])
        assert m, d["time"]
        d["ts"] = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(
            microseconds=int((m.group(2) or "0")[:6].ljust(6, "0")))
        out.append(d)
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
