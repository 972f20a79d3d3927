"""Independent parsers of the `queries-heldout5` fixtures: each reads a written file back into
records (one per event: a Java stack trace belongs to the logback line above it, a Python
traceback to its logging line even when Docker split it over JSON records, a PostgreSQL
entry owns its DETAIL/HINT/CONTEXT/STATEMENT lines and tab-indented continuations, a MySQL
slow-log entry is its `# Time:` block), the way an operator's awk, jq or grep would, so the
cases' truth comes from the text and not from the generators' bookkeeping. Nothing here
imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc
YEAR = 2030  # syslog and klog lines carry no year


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


HAPROXY = re.compile(
    r"^(\w{3} [ \d]\d \d\d:\d\d:\d\d) (\S+) haproxy\[\d+\]: ([\d.]+):\d+ \[(\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d\.\d{3})\] "
    r"(\S+) ([\w-]+)/(\S+) (-?\d+)/(-?\d+)/(-?\d+)/(-?\d+)/(\d+) (\d{3}) (\d+) \S+ \S+ (\S{4}) "
    r"\d+/\d+/\d+/\d+/\+?\d+ \d+/\d+ \"(\S+) (\S+) (\S+)\"$")


def parse_haproxy(text):
    """HAProxy HTTP log via syslog; `t` is the accept date, `logged` the syslog time. Other
    lines (server state notices) are returned apart."""
    out, other = [], []
    for line in _lines(text):
        m = HAPROXY.match(line)
        if not m:
            assert " Server be_" in line, line
            other.append(line)
            continue
        (syslog, host, ip, accept, fe, be, srv, tq, tw, tc, tr, ta, status, size, term, method, path, _) = m.groups()
        t = datetime.strptime(accept, "%d/%b/%Y:%H:%M:%S.%f").replace(tzinfo=UTC)
        logged = datetime.strptime(f"{YEAR} {syslog}", "%Y %b %d %H:%M:%S").replace(tzinfo=UTC)
        out.append({"t": t, "logged": logged, "ip": ip, "backend": be, "server": srv, "Ta": int(ta), "Tr": int(tr),
                    "status": int(status), "size": int(size), "term": term, "method": method, "path": path})
    return out, other


def parse_traefik(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        s = d["StartUTC"]
        d["t"] = datetime.strptime(s[:26], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC)
        d["logged"] = datetime.strptime(d["time"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        d["router"] = d["RouterName"].split("@")[0]
        out.append(d)
    return out


SPRING = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z +(TRACE|DEBUG|INFO|WARN|ERROR) (\d+) --- \[([^\]]*)\] "
                    r"\[ *([^\]]*)\] (\S+) *: (.*)$")
JAVA_EXC = re.compile(r"^(?:Caused by: )?((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error))(?::|$)")


def parse_spring(text):
    """Spring Boot logback lines; every other line (stack frames, `Caused by:`) belongs to the
    event above. `exceptions` lists every exception class named at the head of a trace or a
    `Caused by:`."""
    out = []
    for line in _lines(text):
        m = SPRING.match(line)
        if m:
            ts, level, _, app, thread, logger, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC)
            out.append({"t": t, "level": level, "thread": thread, "logger": logger, "msg": msg, "trace": []})
        else:
            assert out, line
            out[-1]["trace"].append(line)
    for e in out:
        e["exceptions"] = [x.group(1) for x in (JAVA_EXC.match(ln) for ln in e["trace"]) if x]
    return out


PG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC \[(\d+)\] (?:(\w+)@(\w+) )?"
                r"(LOG|ERROR|FATAL|PANIC|WARNING|DETAIL|HINT|CONTEXT|STATEMENT|QUERY):  (.*)$")


def parse_postgres(text):
    """One entry per LOG/ERROR/FATAL line, with its DETAIL/HINT/CONTEXT/STATEMENT lines (same pid)
    and tab-indented continuation lines."""
    out = []
    for line in _lines(text):
        if line.startswith("\t"):
            out[-1]["more"].append(line)
            continue
        m = PG.match(line)
        assert m, line
        ts, pid, user, db, sev, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
        if sev in ("DETAIL", "HINT", "CONTEXT", "STATEMENT", "QUERY"):
            assert out and out[-1]["pid"] == int(pid), line
            out[-1][sev.lower()] = msg
            continue
        d = re.match(r"duration: ([\d.]+) ms", msg)
        out.append({"t": t, "pid": int(pid), "user": user, "db": db, "sev": sev, "msg": msg, "more": [],
                    "duration_ms": float(d.group(1)) if d else None, "duration_text": d.group(1) if d else None})
    return out


def parse_mysql_slow(text):
    out = []
    cur = None
    db = None
    for line in _lines(text):
        if line.startswith("# Time: "):
            cur = {"t": datetime.strptime(line[8:], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC), "sql": [], "db": db}
            out.append(cur)
        elif cur is None:
            continue  # the server's header
        elif line.startswith("# User@Host: "):
            m = re.match(r"# User@Host: (\w+)\[(\w*)\] @ (\S*) \[([\d.]*)\]", line)
            cur["user"], cur["client"] = m.group(1), m.group(4)
        elif line.startswith("# Query_time: "):
            m = re.match(r"# Query_time: ([\d.]+)\s+Lock_time: ([\d.]+)\s+Rows_sent: (\d+)\s+Rows_examined: (\d+)", line)
            cur["query_time"], cur["qt_text"] = float(m.group(1)), m.group(1)
            cur["rows_examined"] = int(m.group(4))
        elif line.startswith("use "):
            db = cur["db"] = line[4:].rstrip(";")
        elif line.startswith("SET timestamp="):
            cur["start"] = int(line[14:].rstrip(";"))
        else:
            cur["sql"].append(line)
    for e in out:
        e["sql"] = " ".join(e["sql"])
        e["verb"] = e["sql"].split()[0].upper()
    return out


REDIS = re.compile(r"^(\d+):([MSCX]) (\d\d \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) ([.\-*#]) (.*)$")


def parse_redis(text):
    out = []
    for line in _lines(text):
        m = REDIS.match(line)
        assert m, line
        pid, role, ts, level, msg = m.groups()
        t = datetime.strptime(ts, "%d %b %Y %H:%M:%S.%f").replace(tzinfo=UTC)
        a = re.search(r"\baddr=([\d.]+):\d+", msg)
        out.append({"t": t, "pid": int(pid), "role": role, "level": level, "msg": msg, "addr": a.group(1) if a else None})
    return out


KLOG = re.compile(r"^([IWEF])(\d\d)(\d\d) (\d\d:\d\d:\d\d\.\d{6}) +(\d+) ([\w.]+:\d+)\] (.*)$")


def parse_klog(text):
    out = []
    for line in _lines(text):
        m = KLOG.match(line)
        assert m, line
        sev, mo, dd, hms, _, src, msg = m.groups()
        t = datetime.strptime(f"{YEAR}-{mo}-{dd} {hms}", "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
        kv = dict(re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)', msg))
        kv = {k: v[1:-1] if v.startswith('"') else v for k, v in kv.items()}
        head = re.match(r'"([^"]*)"', msg)
        out.append({"t": t, "sev": sev, "src": src, "msg": msg, "what": head.group(1) if head else msg, "kv": kv})
    return out


PYLOG = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) \[([\w.]+)\] (.*)$")


def parse_docker_python(text):
    """Docker json-file records, joined back into Python logging events (a traceback's lines
    are records of their own, on the same stream after their event)."""
    out = []
    for line in _lines(text):
        d = json.loads(line)
        body = d["log"]
        assert body.endswith("\n")
        body = body[:-1]
        m = PYLOG.match(body)
        if m:
            ts, ms, level, name, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(ms) * 1000)
            out.append({"t": t, "level": level, "logger": name, "msg": msg, "stream": d["stream"], "trace": []})
        elif d["stream"] == "stderr" and out and (body.startswith(" ") or body.startswith("Traceback") or
                                                  re.match(r"^[\w.]+(Error|Exception): ", body)):
            out[-1]["trace"].append(body)
        else:
            out.append({"t": None, "level": None, "logger": None, "msg": body, "stream": d["stream"], "trace": []})
    return out


def parse_w3c(text):
    """W3C extended log: the latest `#Fields:` names the columns of the lines after it."""
    out, fields = [], None
    for line in _lines(text):
        if line.startswith("#"):
            if line.startswith("#Fields: "):
                fields = line[9:].split(" ")
            continue
        vals = line.split(" ")
        assert fields and len(vals) == len(fields), line
        r = dict(zip(fields, vals))
        r["t"] = datetime.strptime(f"{r['date']} {r['time']}", "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        out.append(r)
    return out


LOGFMT = re.compile(r'(\w[\w.-]*)=("(?:[^"\\]|\\.)*"|\S*)')


def parse_logfmt(text):
    out = []
    for line in _lines(text):
        kv = {k: (v[1:-1] if v.startswith('"') else v) for k, v in LOGFMT.findall(line)}
        kv["t"] = datetime.strptime(kv["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        out.append(kv)
    return out


def ranked(counter, n=1):
    """The top n of a Counter, asserting ranks 1..n are strictly above the next one."""
    best = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:n + 1]
    assert len(best) >= n, best
    for i in range(min(n, len(best) - 1)):
        assert best[i][1] > best[i + 1][1], best
    return best[:n]


def least(counter):
    worst = sorted(counter.items(), key=lambda kv: (kv[1], str(kv[0])))
    assert len(worst) < 2 or worst[0][1] < worst[1][1], worst
    return worst[0]


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
