"""Independent parsers of the `queries-heldout14` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. lighttpd's access log by
its columns (`%h %V %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D`, `-` for an empty
body); the .NET JSON console log one object a line (`State` nested, the exception a string);
Quarkus's log by its `date level [category] (thread) message` prefix, a record owning the stack
trace and `Caused by:` lines under it. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- lighttpd mod_accesslog

LIGHTTPD = re.compile(r'^(\S+) (\S+) (\S+) \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) \+0000\] "(\S+) (\S+) (HTTP/1\.[01])" '
                      r'(\d{3}) (\d+|-) "([^"]*)" "([^"]*)" (\d+)$')


def parse_lighttpd(text):
    out = []
    for line in _lines(text):
        m = LIGHTTPD.match(line)
        assert m, line
        ip, vhost, user, ts, method, target, _, status, size, ref, ua, d = m.groups()
        out.append({"t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S"), "client": ip, "vhost": vhost, "method": method,
                    "target": target, "path": target.split("?")[0], "status": int(status),
                    "bytes": 0 if size == "-" else int(size), "ref": ref, "ua": ua, "D": int(d)})
    return out


# --- .NET JSON console formatter

LEVELS = {"Trace", "Debug", "Information", "Warning", "Error", "Critical"}


def parse_dotnet_json(text):
    out = []
    for line in _lines(text):
        assert ">" not in line and "<" not in line, line
        d = json.loads(line)
        assert d["LogLevel"] in LEVELS, line
        ts = d["Timestamp"]
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{3})Z", ts)
        assert m, ts
        t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(milliseconds=int(m.group(2)))
        st = d.get("State", {})
        assert st.get("Message") == d["Message"], line
        out.append({"t": t, "event": d["EventId"], "level": d["LogLevel"], "category": d["Category"],
                    "msg": d["Message"], "exc": d.get("Exception"), "state": st})
    return out


# --- Quarkus (JBoss log manager) default format

QUARKUS = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) +\[([^\]]+)\] "
                     r"\(([^)]*)\) (.*)$")


def parse_quarkus(text):
    out = []
    for line in _lines(text):
        m = QUARKUS.match(line)
        if not m:
            assert out and (line.startswith("\t") or line.startswith("Caused by: ")), line
            out[-1]["more"].append(line)
            continue
        ts, ms, lvl, cat, thread, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S") + timedelta(milliseconds=int(ms)), "level": lvl,
                    "category": cat, "thread": thread, "msg": msg, "more": []})
    for r in out:
        kv = dict(re.findall(r"(\w+)=(\S+)", r["msg"]))
        r.update({k: v for k, v in kv.items() if k in ("farm", "silo", "took", "bridge", "plate", "net")})
        r["causes"] = [x[len("Caused by: "):] for x in r["more"] if x.startswith("Caused by: ")]
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
