"""Independent parsers of the held-out query set's fixtures: each reads a written file back into
records (one per event: a Java stack trace is one event), the way an operator's awk or jq
would, so the cases' truth comes from the text and not from the generator's bookkeeping.
"""

import json
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc
YEAR = 2027


def parse_common(text):
    """Apache/nginx common or combined, optionally with request and upstream times."""
    rx = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+) [^"]*" (\d{3}) (\d+|-)'
                    r'(?: "([^"]*)" "([^"]*)")?((?: \w+=\S+)*)$')
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ip, ts, method, path, status, size, ref, ua, extras = m.groups()
        kv = dict(x.split("=", 1) for x in extras.split())
        out.append({"ip": ip, "t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S %z"), "method": method,
                    "path": path, "status": int(status), "bytes": 0 if size == "-" else int(size),
                    "ref": ref, "ua": ua, "rt": float(kv["rt"]) if "rt" in kv else None,
                    "urt": float(kv["urt"]) if kv.get("urt", "-") != "-" else None})
    return out


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def parse_jsonl(text, ts_key="@timestamp"):
    out = []
    for line in text.splitlines():
        r = flatten(json.loads(line))
        r["t"] = datetime.fromisoformat(r[ts_key].replace("Z", "+00:00"))
        out.append(r)
    return out


def parse_logfmt(text):
    rx = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')
    out = []
    for line in text.splitlines():
        r = {k: v[1:-1] if v.startswith('"') else v for k, v in rx.findall(line)}
        r["t"] = datetime.fromisoformat(r["ts"].replace("Z", "+00:00"))
        out.append(r)
    return out


def parse_3164(text):
    rx = re.compile(r"^(\w{3} [ \d]\d \d\d:\d\d:\d\d) (\S+) ([^:\[\s]+)(?:\[(\d+)\])?: (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        t = datetime.strptime(f"{YEAR} {ts}", "%Y %b %d %H:%M:%S").replace(tzinfo=UTC)
        out.append({"t": t, "host": host, "prog": prog, "pid": pid, "msg": msg})
    return out


def parse_5424(text):
    rx = re.compile(r'^<(\d+)>1 (\S+) (\S+) (\S+) (\S+) (\S+) (-|\[.*?\]) (.*)$')
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        pri, ts, host, app, procid, msgid, sd, msg = m.groups()
        params = dict(re.findall(r'(\w+)="([^"]*)"', sd))
        out.append({"t": datetime.fromisoformat(ts.replace("Z", "+00:00")), "sev": int(pri) % 8,
                    "fac": int(pri) // 8, "host": host, "app": app, "msgid": msgid, "sd": params, "msg": msg})
    return out


def parse_journal(text):
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        d["t"] = datetime.fromtimestamp(int(d["__REALTIME_TIMESTAMP"]) / 1e6, UTC)
        d["prio"] = int(d["PRIORITY"])
        out.append(d)
    return out


def parse_log4j(text):
    """log4j "[ts] LEVEL [thread] logger:line - msg"; other lines continue the event."""
    rx = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})\] (\w+) +\[([^\]]+)\] ([\w.$]+):(\d+) - (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        if m:
            ts, ms, level, thread, logger, _, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(ms) * 1000)
            out.append({"t": t, "level": level, "logger": logger, "msg": msg, "lines": [line]})
        else:
            out[-1]["lines"].append(line)
    for e in out:
        e["text"] = "\n".join(e["lines"])
    return out


def parse_generic(text):
    rx = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z (\w+) (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, level, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC), "level": level, "msg": msg})
    return out


def parse_haproxy(text):
    rx = re.compile(r'haproxy\[\d+\]: (\S+):\d+ \[([^\]]+)\] (\S+) ([^/\s]+)/(\S+) (-?\d+)/(-?\d+)/(-?\d+)/(-?\d+)/(-?\d+) '
                    r'(\d{3}) (\d+) \S+ \S+ (\S{4}) \S+ \S+ "(\S+) (\S+)')
    out = []
    for line in text.splitlines():
        m = rx.search(line)
        assert m, line
        g = m.groups()
        out.append({"ip": g[0], "t": datetime.strptime(g[1], "%d/%b/%Y:%H:%M:%S.%f").replace(tzinfo=UTC),
                    "frontend": g[2], "backend": g[3], "server": g[4], "Tr": int(g[8]), "Ta": int(g[9]),
                    "Tt": int(g[9]), "status": int(g[10]), "term": g[12], "method": g[13], "path": g[14]})
    return out


def parse_postgres(text):
    rx = re.compile(r"^(\S+ \S+) UTC \[(\d+)\]: user=([^,]*),db=([^,]*),app=([^,]*),client=(\S+) (\w+):  (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, pid, user, db, app, client, level, msg = m.groups()
        d = re.match(r"duration: ([\d.]+) ms  (?:statement|execute [^:]+): (.*)$", msg)
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC), "pid": int(pid),
                    "user": user, "db": db, "app": app, "level": level, "msg": msg,
                    "duration": float(d.group(1)) if d else None, "query": d.group(2) if d else None})
    return out


def parse_mysql_slow(text):
    out = []
    for block in text.split("# Time: ")[1:]:
        lines = block.strip("\n").split("\n")
        uh = re.match(r"# User@Host: (\w+)\[\w+\] @ +\[([\d.]+)\]", lines[1])
        qt = re.match(r"# Query_time: ([\d.]+) +Lock_time: ([\d.]+) Rows_sent: (\d+) +Rows_examined: (\d+)", lines[2])
        out.append({"t": datetime.fromisoformat(lines[0].replace("Z", "+00:00")), "user": uh.group(1),
                    "host": uh.group(2), "query_time": float(qt.group(1)), "lock_time": float(qt.group(2)),
                    "rows_examined": int(qt.group(4)),
                    "query": lines[-1]})
    return out


def parse_auth(text):
    out = parse_3164(text)
    for r in out:
        m = re.match(r"Failed password for (?:invalid user )?(\S+) from (\S+) port", r["msg"])
        a = re.match(r"Accepted (\w+) for (\S+) from (\S+) port", r["msg"])
        i = re.match(r"Invalid user (\S+) from", r["msg"])
        r["failed"] = bool(m)
        r["user"] = m.group(1) if m else a.group(2) if a else None
        r["ip"] = m.group(2) if m else a.group(3) if a else None
        r["accepted"] = bool(a)
        r["invalid_user"] = i.group(1) if i else None
    return out


def parse_dmesg(text):
    """`dmesg -T`: "[Tue Mar  9 04:13:52 2027] message"."""
    rx = re.compile(r"^\[(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})\] (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, msg = m.groups()
        k = re.search(r"Killed process (\d+) \(([^)]+)\)", msg)
        s = re.match(r"(\S+?)\[\d+\]: segfault at", msg)
        out.append({"t": datetime.strptime(ts, "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC), "msg": msg,
                    "killed": (int(k.group(1)), k.group(2)) if k else None, "segfault": s.group(1) if s else None})
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


def percentile_nearest_rank(values, p):
    v = sorted(values)
    import math
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)]


def percentile_linear(values, p):
    v = sorted(values)
    x = (len(v) - 1) * p / 100
    lo = int(x)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (x - lo)
