"""Independent parsers of the `queries-heldout15` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. The Classic ELB access
log by its space-separated columns (the request and the user agent quoted); Bunyan's JSON lines
with `json.loads`; java.util.logging's `SimpleFormatter` output as two-line records (a header
`Mon DD, YYYY h:mm:ss AM|PM class method`, then `LEVEL: message`) owning the stack-trace lines
under them. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta
from urllib.parse import urlsplit


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- AWS Classic Load Balancer access log

ELB = re.compile(r'^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})Z (\S+) ([\d.]+):(\d+) ([\d.]+):(\d+) (-1|\d+\.\d{6}) (-1|\d+\.\d{6}) '
                 r'(-1|\d+\.\d{6}) (\d{3}) (\d{1,3}) (\d+) (\d+) "(\S+) (\S+) (HTTP/[\d.]+)" "([^"]*)" (\S+) (\S+)$')


def parse_elb(text):
    out = []
    for line in _lines(text):
        m = ELB.match(line)
        assert m, line
        (ts, name, cip, cport, bip, bport, rq, bpt, rs, es, bs, recv, sent, method, url, proto, ua, cipher,
         tls) = m.groups()
        u = urlsplit(url)
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "elb": name, "client": cip,
                    "backend": f"{bip}:{bport}", "rq": float(rq), "bpt": float(bpt), "rs": float(rs),
                    "status": int(es), "bstatus": int(bs), "recv": int(recv), "sent": int(sent), "method": method,
                    "url": url, "path": u.path, "target": u.path + ("?" + u.query if u.query else ""), "ua": ua})
    return out


# --- Bunyan JSON lines

LEVELS = {10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal"}


def parse_bunyan(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        assert d["v"] == 0 and d["level"] in LEVELS and d["name"] == "lens-api", line
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z", d["time"])
        assert m, line
        d["t"] = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f")
        out.append(d)
    return out


# --- java.util.logging SimpleFormatter

JHEAD = re.compile(r"^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d\d), (\d{4}) (\d{1,2}):(\d\d):(\d\d) (AM|PM) (\S+) (\S+)$")
JLEVEL = re.compile(r"^(SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST): (.*)$")


def parse_jul(text):
    out = []
    lines = _lines(text)
    i = 0
    while i < len(lines):
        m = JHEAD.match(lines[i])
        if not m:
            assert out, lines[i]
            if lines[i]:
                out[-1]["more"].append(lines[i])
            i += 1
            continue
        mon, dd, yyyy, h, mi, s, ampm, cls, meth = m.groups()
        h = int(h) % 12 + (12 if ampm == "PM" else 0)
        t = datetime.strptime(f"{yyyy} {mon} {dd}", "%Y %b %d") + timedelta(hours=h, minutes=int(mi), seconds=int(s))
        lv = JLEVEL.match(lines[i + 1])
        assert lv, lines[i + 1]
        out.append({"t": t, "class": cls, "method": meth, "level": lv.group(1), "msg": lv.group(2), "more": []})
        i += 2
    for r in out:
        r["caused"] = [x[len("Caused by: "):] for x in r["more"] if x.startswith("Caused by: ")]
        r["kv"] = dict(re.findall(r"(\w+)=(\S+?)(?:ms)?[\] ]", r["msg"] + " "))
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
