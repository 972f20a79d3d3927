"""Independent parsers of the `queries-heldout19` fixtures: each reads a written file back into
records the way an operator's awk, jq or grep would. `boxoffice.log` as entries, each a
`[date] LEVEL in module: message` line with the lines below it that open no entry (a Python
traceback, SQLAlchemy's `[SQL: ...]` block), the access lines' fields read by one expression;
`mysql-slow.log` as entries that open at `# Time:` (the `# User@Host:` and `# Query_time:` lines,
`SET timestamp=`, the statement lines up to the next entry); `mongod.log` with `json.loads`.
Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta, timezone


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- boxoffice.log (Python logging, Flask's "[%(asctime)s] %(levelname)s in %(module)s: %(message)s")

APP_HEAD = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})\] (DEBUG|INFO|WARNING|ERROR|CRITICAL) in (\w+): (.*)$")
ACCESS = re.compile(r'^(?P<ip>[\d.]+) "(?P<method>[A-Z]+) (?P<path>\S+)" (?P<st>\d{3}) (?P<dur>\d+\.\d)ms user=(?P<user>\S+)$')


def parse_app(text):
    out = []
    for line in _lines(text):
        m = APP_HEAD.match(line)
        if m:
            ts, msec, level, module, msg = m.groups()
            d = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S") + timedelta(milliseconds=int(msec)),
                 "level": level, "module": module, "msg": msg, "cont": []}
            if module == "access":
                a = ACCESS.match(msg)
                assert a, line
                d.update(a.groupdict())
                d["st"], d["dur"] = int(d["st"]), float(d["dur"])
            out.append(d)
        else:
            assert out, line
            out[-1]["cont"].append(line)
    return out


PY_EXC = re.compile(r"^(?:[a-z_]\w*\.)*([A-Z]\w*(?:Error|Exception))(?::|$)")


def py_exceptions(entry):
    """The exception classes (simple names) of a traceback's closing lines, in order."""
    return [m.group(1) for m in (PY_EXC.match(x) for x in entry["cont"]) if m]


# --- mysql-slow.log (MySQL 8.0 slow query log)

MY_TIME = re.compile(r"^# Time: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z$")
MY_USER = re.compile(r"^# User@Host: (\S+)\[(\S*)\] @ (\S*) \[([\d.]*)\]\s+Id:\s+(\d+)$")
MY_QT = re.compile(r"^# Query_time: (\d+\.\d+)\s+Lock_time: (\d+\.\d+)\s+Rows_sent: (\d+)\s+Rows_examined: (\d+)$")
MY_SETTS = re.compile(r"^SET timestamp=(\d+);$")


def parse_mysql(text):
    out = []
    for line in _lines(text):
        m = MY_TIME.match(line)
        if m:
            out.append({"t": datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(m.group(2))),
                        "sql": []})
            continue
        if not out:
            continue  # the file header
        e = out[-1]
        if "user" not in e:
            m = MY_USER.match(line)
            assert m, line
            e["user"], _, e["host"], e["ip"], e["id"] = m.groups()
            e["id"] = int(e["id"])
        elif "qt" not in e:
            m = MY_QT.match(line)
            assert m, line
            e["qt"], e["lt"] = float(m.group(1)), float(m.group(2))
            e["rs"], e["re"] = int(m.group(3)), int(m.group(4))
        elif "start" not in e:
            m = MY_SETTS.match(line)
            if m:
                e["start"] = datetime.fromtimestamp(int(m.group(1)), timezone.utc).replace(tzinfo=None)
            else:
                assert line.startswith("use "), line
        else:
            e["sql"].append(line)
    for e in out:
        e["sql"] = "\n".join(e["sql"])
        assert e["sql"].endswith(";"), e
    return out


def mysql_table(sql):
    """The first table a statement reads (`FROM x` or ``FROM `x` ``), outside comments."""
    body = "\n".join(x for x in sql.split("\n") if not x.startswith("--"))
    m = re.search(r"\bFROM\s+`?(\w+)`?", body)
    return m.group(1) if m else None


# --- mongod.log (MongoDB 4.4+ structured JSON)

def parse_mongo(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        t = datetime.fromisoformat(d["t"]["$date"]).astimezone(timezone.utc).replace(tzinfo=None)
        d["ts"] = t
        d.setdefault("attr", {})
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
