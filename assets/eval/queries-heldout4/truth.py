"""Independent parsers of the `queries-heldout4` set's fixtures: each reads a written file
back into records (one per event: a Java stack trace, a Python traceback and a ClickHouse
stack trace belong to the line that starts them; a csvlog row may span lines), the way an
operator's awk, jq or a script would, so the cases' truth comes from the text and not from
the generator's bookkeeping.
"""

import csv
import io
import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc


def _utc(s, fmt):
    return datetime.strptime(s, fmt).replace(tzinfo=UTC)


def parse_ingress(text):
    """ingress-nginx's default log_format; the controller's own klog lines are skipped."""
    rx = re.compile(r'^(\S+) - (\S+) \[([^\]]+)\] "(\S+) (\S+) (\S+)" (\d{3}) (\d+) "([^"]*)" "([^"]*)" (\d+) ([\d.]+) '
                    r'\[([^\]]*)\] \[([^\]]*)\] (\S+) (\S+) (\S+) (\S+) ([0-9a-f]{32})$')
    out, skipped = [], 0
    for line in text.splitlines():
        m = rx.match(line)
        if not m:
            assert re.match(r"^[IWE]\d{4} ", line), line
            skipped += 1
            continue
        g = m.groups()
        out.append({"ip": g[0], "t": _utc(g[2], "%d/%b/%Y:%H:%M:%S %z"), "method": g[3], "path": g[4],
                    "status": int(g[6]), "rt": float(g[11]), "up": g[12], "addr": g[14], "ust": g[17]})
    return out, skipped


def parse_short_full(text):
    rx = re.compile(r"^\w{3} (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC (\S+) ([^\[:]+)(?:\[(\d+)\])?: (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        out.append({"t": _utc(ts, "%Y-%m-%d %H:%M:%S"), "host": host, "prog": prog, "pid": pid, "msg": msg})
    return out


def parse_slog(text):
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        ts = d["time"]
        frac = ts[20:-1]
        d["t"] = _utc(ts[:19], "%Y-%m-%dT%H:%M:%S").replace(microsecond=int(frac[:6]))
        out.append(d)
    return out


def parse_juli(text):
    """Tomcat OneLineFormatter; lines that do not start with a date continue the event."""
    rx = re.compile(r"^(\d\d-\w{3}-\d{4} \d\d:\d\d:\d\d\.\d{3}) (\w+) \[([^\]]+)\] (\S+) (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        if m:
            ts, level, thread, src, msg = m.groups()
            out.append({"t": _utc(ts, "%d-%b-%Y %H:%M:%S.%f"), "level": level, "thread": thread, "src": src,
                        "msg": msg, "lines": [line]})
        else:
            out[-1]["lines"].append(line)
    return out


def parse_gunicorn(text):
    """gunicorn's `[date +0000] [pid] [LEVEL]` lines and the app's `date,ms LEVEL logger:` lines;
    traceback lines belong to the record before them."""
    g = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \+0000\] \[(\d+)\] \[(\w+)\] (.*)$")
    a = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (\w+) ([\w.]+): (.*)$")
    out = []
    for line in text.splitlines():
        m = g.match(line)
        if m:
            ts, pid, level, msg = m.groups()
            out.append({"t": _utc(ts, "%Y-%m-%d %H:%M:%S"), "src": "gunicorn", "pid": int(pid), "level": level,
                        "msg": msg, "lines": [line]})
            continue
        m = a.match(line)
        if m:
            ts, ms, level, logger, msg = m.groups()
            out.append({"t": _utc(ts, "%Y-%m-%d %H:%M:%S").replace(microsecond=int(ms) * 1000), "src": logger,
                        "level": level, "msg": msg, "lines": [line]})
            continue
        out[-1]["lines"].append(line)
    for r in out:
        exc = [ln for ln in r["lines"][1:] if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Timeout)\b", ln)]
        r["exc"] = exc[-1].split(":")[0] if exc else None
    return out


PG_COLS = ["log_time", "user_name", "database_name", "process_id", "connection_from", "session_id", "session_line_num",
           "command_tag", "session_start_time", "virtual_transaction_id", "transaction_id", "error_severity",
           "sql_state_code", "message", "detail", "hint", "internal_query", "internal_query_pos", "context", "query",
           "query_pos", "location", "application_name", "backend_type", "leader_pid", "query_id"]


def parse_pg_csv(text):
    out = []
    for row in csv.reader(io.StringIO(text)):
        assert len(row) == len(PG_COLS), row
        d = dict(zip(PG_COLS, row))
        d["t"] = _utc(d["log_time"][:-4], "%Y-%m-%d %H:%M:%S.%f")
        m = re.match(r"duration: ([\d.]+) ms", d["message"])
        d["ms"] = float(m.group(1)) if m else None
        out.append(d)
    return out


def parse_alb(text):
    out = []
    for line in text.splitlines():
        f = next(csv.reader([line], delimiter=" "))
        assert len(f) == 29, (len(f), line)
        out.append({"t": datetime.fromisoformat(f[1].replace("Z", "+00:00")), "client": f[3].rsplit(":", 1)[0],
                    "target": f[4], "tpt": float(f[6]), "elb": int(f[8]), "tst": f[9], "request": f[12]})
    return out


def parse_iis(text):
    fields, out = None, []
    for line in text.splitlines():
        if line.startswith("#"):
            if line.startswith("#Fields: "):
                fields = line[9:].split()
            continue
        d = dict(zip(fields, line.split(" ")))
        assert len(d) == len(fields), line
        d["t"] = _utc(d["date"] + " " + d["time"], "%Y-%m-%d %H:%M:%S")
        out.append(d)
    return out


def parse_audit(text):
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        d["t"] = datetime.fromisoformat(d["requestReceivedTimestamp"].replace("Z", "+00:00"))
        out.append(d)
    return out


def parse_clickhouse(text):
    rx = re.compile(r"^(\d{4}\.\d\d\.\d\d \d\d:\d\d:\d\d\.\d{6}) \[ (\d+) \] \{([^}]*)\} <(\w+)> ([^:]+(?:\([^)]*\))*): (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        if m:
            ts, th, qid, level, logger, msg = m.groups()
            out.append({"t": _utc(ts, "%Y.%m.%d %H:%M:%S.%f"), "thread": int(th), "qid": qid, "level": level,
                        "logger": logger, "msg": msg, "lines": [line]})
        else:
            out[-1]["lines"].append(line)
    return out


def parse_bind(text):
    rx = re.compile(r"^(\d\d-\w{3}-\d{4} \d\d:\d\d:\d\d\.\d{3}) (\w+): (\w+): (.*)$")
    q = re.compile(r"^client @0x[0-9a-f]+ ([\d.]+)#(\d+) \(([^)]+)\): query: (\S+) IN (\S+) (\S+) \(([\d.]+)\)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, cat, sev, msg = m.groups()
        r = {"t": _utc(ts, "%d-%b-%Y %H:%M:%S.%f"), "cat": cat, "msg": msg}
        mq = q.match(msg)
        if cat == "queries":
            assert mq, line
            r.update(client=mq.group(1), name=mq.group(4), type=mq.group(5))
        out.append(r)
    return out


def parse_asa(text):
    rx = re.compile(r"^(\w{3} \d\d \d{4} \d\d:\d\d:\d\d) (\S+) : %ASA-(\d)-(\d{6}): (.*)$")
    d = re.compile(r"^Deny (\w+) src (\w+):([\d.]+)/(\d+) dst (\w+):([\d.]+)/(\d+) by access-group \"([^\"]+)\"")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, host, sev, mid, msg = m.groups()
        r = {"t": _utc(ts, "%b %d %Y %H:%M:%S"), "id": mid, "sev": int(sev), "msg": msg}
        md = d.match(msg)
        if mid == "106023":
            assert md, line
            r.update(proto=md.group(1), src=md.group(3), dst=md.group(6), dport=int(md.group(7)))
        mb = re.search(r" bytes (\d+) ", msg)
        if mid == "302014":
            r["bytes"] = int(mb.group(1))
        out.append(r)
    return out


def top(counter, n=2):
    """(the first, the rest) of a Counter's top n; asserts the first is a clear winner."""
    best = counter.most_common(n)
    assert best, "nothing to rank"
    assert len(best) < 2 or best[0][1] > best[1][1], best
    return best[0], best[1:]


def count(rows, pred):
    return sum(1 for r in rows if pred(r))


def group(rows, key, pred=lambda r: True):
    return Counter(key(r) for r in rows if pred(r))


def percentiles_all(values, p):
    """The p-th percentile under the usual definitions (nearest rank, linear R7, R6
    exclusive, lower, higher, midpoint): the set asks only where they all agree."""
    v = sorted(values)
    n = len(v)
    out = [v[max(0, math.ceil(p / 100 * n) - 1)], v[min(n - 1, math.floor(p / 100 * n))]]
    for x in ((n - 1) * p / 100, (n + 1) * p / 100 - 1):
        lo = max(0, min(int(math.floor(x)), n - 1))
        hi = min(lo + 1, n - 1)
        frac = x - math.floor(x)
        out += [v[lo] + (v[hi] - v[lo]) * frac, v[lo], v[hi], (v[lo] + v[hi]) / 2]
    return out
