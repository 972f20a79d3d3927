"""Independent parsers of the `queries-dev13` fixtures: each reads a written file back into
flat records, one per JSON line, the way an operator's `jq` would. pino (numeric `level`,
`time` in epoch ms, pino-http's `req`/`res`/`responseTime`/`err`); ECS JSON as ecszap writes
it (dotted keys such as `log.level` beside nested objects such as `http.response`, flattened
into one dotted namespace, asserting no key is written both ways); Cloud Logging structured
JSON (`severity`, `time`, `httpRequest.latency` as a protobuf Duration string such as
`0.231s`, `logging.googleapis.com/*` keys). Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone
from urllib.parse import urlsplit


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def flatten(obj, prefix="", out=None):
    """`{"a": {"b": 1}, "c.d": 2}` -> `{"a.b": 1, "c.d": 2}`, failing on a key written both ways."""
    out = {} if out is None else out
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            flatten(v, key + ".", out)
        else:
            assert key not in out, key
            out[key] = v
    return out


# --- pino / pino-http

def parse_pino(text):
    out = []
    for line in _lines(text):
        r = json.loads(line)
        assert list(r)[:4] == ["level", "time", "pid", "hostname"] and list(r)[-1] == "msg", line[:120]
        assert r["level"] in (10, 20, 30, 40, 50, 60)
        f = flatten(r)
        f["t"] = datetime.fromtimestamp(r["time"] / 1000, tz=timezone.utc).replace(tzinfo=None)
        if "req" in r:
            u = urlsplit(r["req"]["url"])
            f["path"] = u.path
            f["qs"] = u.query
            f["status"] = r["res"]["statusCode"]
        out.append(f)
    return out


# --- ECS (ecszap)

def parse_ecs(text):
    out = []
    for line in _lines(text):
        r = json.loads(line)
        f = flatten(r)
        assert {"@timestamp", "log.level", "message", "service.name", "ecs.version"} <= set(f), line[:120]
        f["t"] = datetime.strptime(f["@timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ")
        out.append(f)
    return out


# --- Google Cloud Logging structured JSON

DUR = re.compile(r"^(\d+)(?:\.(\d{3}|\d{6}|\d{9}))?s$")


def duration_us(s):
    """A protobuf Duration string (`2s`, `0.231s`, `10.004117s`) in microseconds."""
    m = DUR.match(s)
    assert m, s
    whole, frac = m.groups()
    frac = (frac or "").ljust(9, "0")
    return int(whole) * 1_000_000 + int(frac[:6])


SEVERITIES = ["DEFAULT", "DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL", "ALERT", "EMERGENCY"]


def parse_gcp(text):
    out = []
    for line in _lines(text):
        r = json.loads(line)
        assert r["severity"] in SEVERITIES, line[:120]
        f = flatten(r)
        f["t"] = datetime.strptime(r["time"], "%Y-%m-%dT%H:%M:%S.%fZ")
        if "httpRequest" in r:
            u = urlsplit(r["httpRequest"]["requestUrl"])
            f["path"] = u.path
            f["status"] = r["httpRequest"]["status"]
            f["lat_us"] = duration_us(r["httpRequest"]["latency"])
        out.append(f)
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
