"""Independent parsers of the `queries-dev9` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. Apache's access log by
its `combined` + `%D` columns (`%t` is the request's start, lines are in completion order);
Apache's 2.4 error log by its `[time] [module:level] [pid P:tid T]` prefix; gunicorn's access
log with `%(L)s` seconds last, its error log owning the traceback lines under a record;
RabbitMQ 3.12's prefixed lines (a multi-line message repeats the prefix, so a record is a run
of lines with the same time, level and process); Postfix through syslog (no year: 2033); the
Docker json-file log unwrapped (`log`, `stream`, `time`), Python's logging line inside it, a
traceback's lines joined to the record above. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta

YEAR = 2033


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- Apache access (combined + %D) and gunicorn access (... %(L)s)

CLF = re.compile(r'^(\S+) (\S+) (\S+) \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d) ([+-]\d{4})\] "(\S+) (\S+) (HTTP/[\d.]+)" '
                 r'(\d{3}) (\d+|-) "([^"]*)" "([^"]*)" (\S+)$')


def _clf(text, last):
    out = []
    for line in _lines(text):
        m = CLF.match(line)
        assert m, line
        ip, _, user, ts, tz, method, target, proto, status, size, ref, ua, tail = m.groups()
        assert tz == "+0000"
        r = {"t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S"), "client": ip, "method": method, "target": target,
             "path": target.split("?")[0], "status": int(status), "bytes": 0 if size == "-" else int(size),
             "ref": ref, "ua": ua}
        r[last] = int(tail) if last == "D" else tail
        out.append(r)
    return out


def parse_access(text):
    return _clf(text, "D")


def parse_gunicorn_access(text):
    out = _clf(text, "L")
    for r in out:
        whole, frac = r["L"].split(".")
        assert len(frac) == 6
        r["L_us"] = int(whole) * 1_000_000 + int(frac)
    return out


# --- Apache 2.4 error log

AERR = re.compile(r"^\[(\w{3}) (\w{3}) (\d\d) (\d\d:\d\d:\d\d)\.(\d{6}) (\d{4})\] \[(\w+):(\w+)\] \[pid (\d+):tid (\d+)\] (.*)$")


def parse_apache_error(text):
    out = []
    for line in _lines(text):
        m = AERR.match(line)
        assert m, line
        dow, mon, day, hms, us, year, mod, lvl, pid, tid, msg = m.groups()
        t = datetime.strptime(f"{year} {mon} {day} {hms}", "%Y %b %d %H:%M:%S") + timedelta(microseconds=int(us))
        assert t.strftime("%a") == dow
        r = {"t": t, "module": mod, "level": lvl, "pid": int(pid), "msg": msg}
        c = re.search(r"\[client ([\d.]+):(\d+)\]", msg)
        if c:
            r["client"] = c.group(1)
        a = re.search(r"\b(AH\d{5}):", msg)
        r["ah"] = a.group(1) if a else None
        out.append(r)
    return out


# --- gunicorn error log

GERR = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \+0000\] \[(\d+)\] \[(DEBUG|INFO|WARNING|ERROR|CRITICAL)\] (.*)$")


def parse_gunicorn_error(text):
    out = []
    for line in _lines(text):
        m = GERR.match(line)
        if not m:
            assert out, line
            out[-1]["more"].append(line)
            continue
        ts, pid, lvl, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S"), "pid": int(pid), "level": lvl, "msg": msg,
                    "more": []})
    return out


# --- RabbitMQ 3.12

RMQ = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6})\+00:00 \[(debug|info|notice|warning|error|critical)\] "
                 r"(<\d+\.\d+\.\d+>)(?: (.*))?$")


def parse_rabbit(text):
    """One record per message: consecutive lines with the same time, level and process."""
    out = []
    for line in _lines(text):
        m = RMQ.match(line)
        assert m, line
        ts, lvl, proc, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f")
        if out and (out[-1]["t"], out[-1]["level"], out[-1]["proc"]) == (t, lvl, proc):
            out[-1]["lines"].append(msg or "")
            continue
        out.append({"t": t, "level": lvl, "proc": proc, "msg": msg or "", "lines": [msg or ""]})
    for r in out:
        u = re.search(r"user '(\w+)' authenticated", r["msg"])
        r["user"] = u.group(1) if u else None
    return out


# --- Postfix through syslog

SYSLOG = re.compile(r"^(\w{3}) ([ \d]\d) (\d\d:\d\d:\d\d) (\S+) postfix/(\w+)\[(\d+)\]: (.*)$")


def parse_maillog(text):
    out = []
    for line in _lines(text):
        m = SYSLOG.match(line)
        assert m, line
        mon, day, hms, host, proc, pid, msg = m.groups()
        r = {"t": datetime.strptime(f"{YEAR} {mon} {int(day)} {hms}", "%Y %b %d %H:%M:%S"), "host": host, "proc": proc,
             "pid": int(pid), "msg": msg}
        q = re.match(r"^([0-9A-F]{10}): (.*)$", msg)
        if q:
            r["qid"], rest = q.groups()
            kv = dict(re.findall(r"(\w+)=([^,]*?)(?:, |$| \()", rest + " ("))
            r.update({k: v for k, v in kv.items() if k in ("to", "relay", "delay", "status", "from", "size", "dsn")})
        out.append(r)
    return out


# --- Docker json-file with Python logging inside

PYLOG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) ([\w.]+): (.*)$")


def parse_docker_json(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        assert set(d) == {"log", "stream", "time"} and d["log"].endswith("\n"), line
        assert "<" not in line and ">" not in line and "&" not in line  # Go's encoder escapes them
        log = d["log"][:-1]
        m = PYLOG.match(log)
        if not m:
            if d["stream"] == "stderr":
                assert out and out[-1]["stream"] == "stderr", line
                out[-1]["more"].append(log)
            else:
                out.append({"t": _rfc3339(d["time"]), "stream": "stdout", "level": None, "logger": None, "msg": log,
                            "more": []})
            continue
        ts, ms, lvl, logger, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S") + timedelta(milliseconds=int(ms)), "stream": d["stream"],
             "level": lvl, "logger": logger, "msg": msg, "more": []}
        r.update(re.findall(r"(\w+)=(<[^>]*>|\S+)", msg))
        out.append(r)
    return out


def _rfc3339(s):
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z", s)
    return datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(((m.group(2) or "") + "000000")[:6]))


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
