"""Independent parsers of the `queries-dev2` fixtures: each reads a written file back into
records (one per event: a Java stack trace is one event, a slow-log entry is one event),
the way an operator's awk, jq or grep would, so the cases' truth comes from the text and
not from the generators' bookkeeping. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc
YEAR = 2027


def parse_nginx_timed(text):
    """nginx combined + ` rt=... uct="..." urt="..."`."""
    rx = re.compile(r'^(\S+) - (\S+) \[([^\]]+)\] "(\S+) (\S+) (HTTP/[\d.]+)" (\d{3}) (\d+) "([^"]*)" "([^"]*)" '
                    r'rt=([\d.]+) uct="([^"]*)" urt="([^"]*)"$')
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ip, _, ts, method, target, _, status, size, _, ua, rt, _, urt = m.groups()
        out.append({"ip": ip, "t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S %z"), "method": method,
                    "target": target, "path": target.split("?")[0], "status": int(status), "bytes": int(size),
                    "rt": float(rt), "urt": None if urt == "-" else float(urt)})
    return out


def parse_vhost_combined(text):
    """Apache `%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i" %D`."""
    rx = re.compile(r'^(\S+):(\d+) (\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+) [^"]*" (\d{3}) (\d+) "[^"]*" "[^"]*" (\d+)$')
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        vhost, port, ip, ts, method, path, status, size, us = m.groups()
        out.append({"vhost": vhost, "port": int(port), "ip": ip, "t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S %z"),
                    "method": method, "path": path, "status": int(status), "bytes": int(size), "us": int(us)})
    return out


def parse_traefik(text):
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        d["t"] = datetime.fromisoformat(d["StartUTC"][:26] + "+00:00")
        out.append(d)
    return out


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def parse_jsonl(text, ts_key):
    out = []
    for line in text.splitlines():
        r = flatten(json.loads(line))
        r["t"] = datetime.fromisoformat(r[ts_key])
        out.append(r)
    return out


def parse_log4j(text):
    """`yyyy-MM-dd HH:mm:ss,SSS LEVEL [thread] logger - msg`; other lines continue the event."""
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) +\[([^\]]+)\] (\S+) - (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        if m:
            ts, ms, level, thread, logger, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(ms) * 1000)
            out.append({"t": t, "level": level, "thread": thread, "logger": logger, "msg": msg, "lines": [line]})
        else:
            assert out, line
            out[-1]["lines"].append(line)
    for e in out:
        e["text"] = "\n".join(e["lines"])
    return out


def parse_cri(text):
    """CRI container log: `<RFC3339Nano> <stream> <P|F> <content>`; content is klog here."""
    rx = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{9})Z (stdout|stderr) ([PF]) (.*)$")
    klog = re.compile(r"^([IWEF])\d{4} [\d:.]+ +\d+ (\S+)\] (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, ns, stream, tag, content = m.groups()
        k = klog.match(content)
        assert k, content
        t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC, microsecond=int(ns[:6]))
        st = re.search(r'station="([^"]+)"', content)
        out.append({"t": t, "stream": stream, "tag": tag, "level": k.group(1), "src": k.group(2), "msg": k.group(3),
                    "station": st.group(1) if st else None, "line": line})
    return out


def parse_syslog_3339(text):
    rx = re.compile(r"^(\d{4}-\d\d-\d\dT\S+) (\S+) ([^:\[\s]+)(?:\[(\d+)\])?: (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        out.append({"t": datetime.fromisoformat(ts), "host": host, "prog": prog, "pid": pid, "msg": msg})
    return out


def parse_bsd_syslog(text):
    rx = re.compile(r"^(\w{3} [ \d]\d \d\d:\d\d:\d\d) (\S+) ([^:\[\s]+)(?:\[(\d+)\])?: (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        t = datetime.strptime(f"{YEAR} {ts}", "%Y %b %d %H:%M:%S").replace(tzinfo=UTC)
        out.append({"t": t, "host": host, "prog": prog, "pid": pid, "msg": msg})
    return out


def parse_secure(text):
    out = parse_bsd_syslog(text)
    for r in out:
        f = re.match(r"Failed password for (invalid user )?(\S+) from (\S+) port \d+ ssh2$", r["msg"])
        inv = re.match(r"Invalid user (\S+) from (\S+) port \d+$", r["msg"])
        acc = re.match(r"Accepted (\w+) for (\S+) from (\S+) port \d+", r["msg"])
        r["failed"] = bool(f)
        r["invalid_user"] = inv.group(1) if inv else None
        r["accepted"] = (acc.group(1), acc.group(2)) if acc else None
        r["ip"] = f.group(3) if f else inv.group(2) if inv else acc.group(3) if acc else None
    return out


def parse_journal(text):
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        d["t"] = datetime.fromtimestamp(int(d["__REALTIME_TIMESTAMP"]) / 1e6, UTC)
        d["prio"] = int(d["PRIORITY"])
        out.append(d)
    return out


def parse_mariadb_slow(text):
    """One entry per `# User@Host:` header; its time is the `SET timestamp=` line."""
    out = []
    cur = None
    for line in text.splitlines():
        if line.startswith("# User@Host: "):
            m = re.match(r"# User@Host: (\w+)\[\w+\] @ (\S+) \[([\d.]+)\]$", line)
            cur = {"user": m.group(1), "host": m.group(2), "ip": m.group(3), "sql": []}
            out.append(cur)
        elif line.startswith("# Query_time: "):
            m = re.match(r"# Query_time: ([\d.]+) +Lock_time: ([\d.]+) +Rows_sent: (\d+) +Rows_examined: (\d+)$", line)
            cur["query_time"], cur["rows_examined"] = float(m.group(1)), int(m.group(4))
            cur["qt_text"] = m.group(1)
        elif line.startswith("SET timestamp="):
            cur["t"] = datetime.fromtimestamp(int(line[len("SET timestamp="):-1]), UTC)
        elif cur is not None and not line.startswith(("#", "use ")):
            cur["sql"].append(line)
    for e in out:
        e["query"] = " ".join(e["sql"])
    return out


def parse_dmesg_t(text):
    rx = re.compile(r"^\[(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})\] (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        t = datetime.strptime(m.group(1), "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC)
        msg = m.group(2)
        k = re.search(r"Killed process (\d+) \(([^)]+)\)", msg)
        d = re.match(r"KF-DROP: .*SRC=(\S+) .*DPT=(\d+)", msg)
        out.append({"t": t, "msg": msg, "killed": (int(k.group(1)), k.group(2)) if k else None,
                    "drop": (d.group(1), int(d.group(2))) if d else None})
    return out


def ranked(counter, n=1):
    """The top n of a Counter, asserting ranks 1..n are strictly above the next one."""
    best = counter.most_common(n + 1)
    assert len(best) >= n, best
    for i in range(min(n, len(best) - 1)):
        assert best[i][1] > best[i + 1][1], best
    return best[:n]


def least(counter):
    worst = sorted(counter.items(), key=lambda kv: kv[1])
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
    """numpy's default (C = 1): rank (n - 1) p."""
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
