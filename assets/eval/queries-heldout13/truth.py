"""Independent parsers of the `queries-heldout13` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. The CloudFront log by its
`#Fields:` header (tab-separated, `-` for empty); the Log4j2 log by its
`yyyy-MM-ddTHH:mm:ss,SSS LEVEL [thread] logger:line - message` prefix, a record owning the
stack-trace lines under it (`Caused by:` chains read from them); the tracing JSON one object a
line (`fields`, `span`, `spans`). Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- CloudFront standard log

def parse_cloudfront(text):
    names, out = None, []
    for line in _lines(text):
        if line.startswith("#"):
            if line.startswith("#Fields: "):
                names = line[len("#Fields: "):].split(" ")
            continue
        cols = line.split("\t")
        assert names and len(cols) == len(names) == 33, line
        d = dict(zip(names, cols))
        whole, frac = d["time-taken"].split(".")
        assert len(frac) == 3
        r = {"t": datetime.strptime(d["date"] + " " + d["time"], "%Y-%m-%d %H:%M:%S"), "ip": d["c-ip"],
             "method": d["cs-method"], "host": d["x-host-header"], "stem": d["cs-uri-stem"],
             "query": d["cs-uri-query"], "status": int(d["sc-status"]), "bytes": int(d["sc-bytes"]),
             "result": d["x-edge-result-type"], "detailed": d["x-edge-detailed-result-type"],
             "tt_ms": int(whole) * 1000 + int(frac), "edge": d["x-edge-location"], "ua": d["cs(User-Agent)"]}
        out.append(r)
    return out


# --- Log4j2 (Spring Boot) with stack traces

L4J = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d),(\d{3}) (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) +\[([^\]]+)\] "
                 r"(\S+):(\d+) - (.*)$")
EXC = re.compile(r"^(?:Caused by: )?([a-zA-Z_$][\w$]*(?:\.[\w$]+)+(?:Exception|Error))(?::|$)")


def parse_log4j2(text):
    out = []
    for line in _lines(text):
        m = L4J.match(line)
        if not m:
            assert out and (line.startswith("\t") or EXC.match(line)), line
            out[-1]["trace"].append(line)
            continue
        ts, ms, lvl, thread, logger, ln, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S") + timedelta(milliseconds=int(ms)), "level": lvl,
                    "thread": thread, "logger": logger, "line": int(ln), "msg": msg, "trace": []})
    for r in out:
        chain = [EXC.match(x).group(1) for x in r["trace"] if not x.startswith("\t") and EXC.match(x)]
        r["chain"] = chain
        r["top"] = chain[0] if chain else None
        r["root"] = chain[-1] if chain else None
        r.update(re.findall(r"(\w+)=([^\s,]+)", r["msg"]))
    return out


# --- tracing-subscriber JSON

def parse_tracing(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z", d["timestamp"])
        t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(m.group(2)))
        out.append({"t": t, "level": d["level"], "target": d["target"], "fields": d["fields"],
                    "msg": d["fields"]["message"], "span": d.get("span"), "spans": d.get("spans", [])})
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
