"""Independent parsers of the `queries-heldout17` fixtures: each reads a written file back into
records the way an operator's awk, jq or grep would. `heroku logs` lines by their time, source
(`heroku[router]`, `heroku[web.3]`, `app[api]`, ...) and message, the router's `key=value` pairs
(quoted values unquoted); Kong's file-log with `json.loads` (the time from `started_at`, epoch
ms, UTC); the Elixir Logger lines by date, time, `request_id=` metadata and `[level]`, a line
that does not start with a date continuing the entry above it. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta, timezone


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- heroku logs

HK_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})\+00:00 ([a-z]+\[[\w.]+\]): (.*)$")
KV = re.compile(r'(?:^| )([\w#]+)=("[^"]*"|\S*)')


def kv(msg):
    return {k: (v[1:-1] if v.startswith('"') else v) for k, v in KV.findall(msg)}


def parse_heroku(text):
    out = []
    for line in _lines(text):
        m = HK_LINE.match(line)
        assert m, line
        ts, src, msg = m.groups()
        d = {"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "src": src, "msg": msg}
        if src == "heroku[router]":
            f = kv(msg)
            d.update(f)
            d["status"] = int(f["status"])
            d["service_ms"] = int(f["service"][:-2])
            d["bytes"] = int(f["bytes"])
        out.append(d)
    return out


# --- Kong file-log

def parse_kong(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.fromtimestamp(d["started_at"] / 1000, tz=timezone.utc).replace(tzinfo=None)
        out.append(d)
    return out


# --- Elixir Logger console

CW_HEAD = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (?:request_id=(\S+) )?\[(debug|info|notice|warning|error)\] (.*)$")


def parse_cartwright(text):
    out = []
    for line in _lines(text):
        m = CW_HEAD.match(line)
        if not m:
            assert out, line
            out[-1]["body"] += "\n" + line
            continue
        ts, rid, level, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "rid": rid, "level": level, "msg": msg,
                    "body": msg})
    for e in out:
        s = re.fullmatch(r"Sent (\d{3}) in (\d+)ms", e["msg"])
        if s:
            e["sent"], e["ms"] = int(s.group(1)), int(s.group(2))
        r = re.fullmatch(r"(GET|POST|PUT|PATCH|DELETE|HEAD) (/\S*)", e["msg"])
        if r:
            e["method"], e["path"] = r.groups()
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
