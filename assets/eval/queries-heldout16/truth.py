"""Independent parsers of the `queries-heldout16` fixtures: each reads a written file back into
records, one per line, the way an operator's awk, jq or grep would. The S3 server access log
by its space-separated fields (the time in brackets, the request, the referrer and the user
agent quoted, `-` for an empty field); feedsmith's `tracing-subscriber` fmt lines by their time,
level, span chain, target and message; Suricata's EVE JSON with `json.loads`. Nothing here
imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- AWS S3 server access log

S3_TOKEN = re.compile(r'\[[^\]]*\]|"[^"]*"|\S+')
S3_FIELDS = ["owner", "bucket", "time", "ip", "requester", "request_id", "op", "key", "request", "status", "err", "sent",
             "size", "total", "tat", "referer", "ua", "version_id", "host_id", "sigv", "cipher", "auth", "host", "tls",
             "ap_arn", "acl_required"]


def _num(v):
    return None if v == "-" else int(v)


def parse_s3(text):
    out = []
    for line in _lines(text):
        toks = S3_TOKEN.findall(line)
        assert len(toks) == len(S3_FIELDS), (len(toks), line)
        d = dict(zip(S3_FIELDS, toks))
        d["t"] = datetime.strptime(d["time"], "[%d/%b/%Y:%H:%M:%S +0000]")
        for k in ("request", "referer", "ua"):
            assert d[k][0] == d[k][-1] == '"', line
            d[k] = d[k][1:-1]
        d["method"], d["uri"], _ = d["request"].split(" ")
        d["status"] = int(d["status"])
        for k in ("sent", "size", "total", "tat"):
            d[k] = _num(d[k])
        out.append(d)
    return out


# --- tracing-subscriber fmt ("full" format)

FS_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})Z +(TRACE|DEBUG|INFO|WARN|ERROR) (.*)$")
TARGET = re.compile(r"^[a-z_]+(::[a-z_]+)+$")
REQ_SPAN = re.compile(r"request\{method=(\S+) uri=(\S+) version=(\S+) client=(\S+)\}")


def parse_fs(text):
    out = []
    for line in _lines(text):
        m = FS_LINE.match(line)
        assert m, line
        ts, level, rest = m.groups()
        parts = rest.split(": ")
        i = next(i for i, p in enumerate(parts) if TARGET.match(p))
        spans = ": ".join(parts[:i])
        d = {"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "level": level, "spans": spans, "target": parts[i],
             "body": ": ".join(parts[i + 1:])}
        rq = REQ_SPAN.search(spans)
        if rq:
            d["method"], d["uri"], d["version"], d["client"] = rq.groups()
        fin = re.fullmatch(r"finished processing request latency=(\d+) ms status=(\d{3})", d["body"])
        if fin:
            d["latency"], d["status"] = int(fin.group(1)), int(fin.group(2))
        out.append(d)
    return out


def fs_fields(body):
    """`key=value` fields whose value has no space (enough for the numeric and name fields)."""
    return dict(re.findall(r"(?:^| )([\w.]+)=([^\s\"]+)(?= |$)", body))


# --- Suricata EVE JSON

def parse_eve(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})\+0000", d["timestamp"])
        assert m, line
        d["t"] = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f")
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
