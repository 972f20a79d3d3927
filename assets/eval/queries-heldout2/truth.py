"""Independent parsers of the `queries-heldout2` set's fixtures: each reads a written file
back into records (one per event: a Java stack trace or a Python traceback belongs to the
line before it, CRI partial lines are joined), the way an operator's awk, jq or a script
would, so the cases' truth comes from the text and not from the generator's bookkeeping.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc


def parse_apache_vhost(text):
    """Apache `vhost_combined` with `%D` (microseconds) appended."""
    rx = re.compile(r'^(\S+):(\d+) (\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+) [^"]*" (\d{3}) (\d+|-) '
                    r'"([^"]*)" "([^"]*)" (\d+)$')
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        vh, port, ip, ts, method, path, status, size, ref, ua, dus = m.groups()
        out.append({"vhost": vh, "port": int(port), "ip": ip, "t": datetime.strptime(ts, "%d/%b/%Y:%H:%M:%S %z"),
                    "method": method, "path": path, "route": path.split("?")[0], "status": int(status),
                    "bytes": 0 if size == "-" else int(size), "us": int(dus)})
    return out


def parse_apache_error(text):
    rx = re.compile(r"^\[(\w{3} \w{3} \d\d \d\d:\d\d:\d\d)\.(\d{6}) (\d{4})\] \[([\w-]+):(\w+)\] "
                    r"\[pid (\d+)(?::tid \d+)?\](?: \[client ([\d.]+):\d+\])? (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, us, year, module, level, pid, client, msg = m.groups()
        t = datetime.strptime(f"{ts} {year}", "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC, microsecond=int(us))
        code = re.search(r"\bAH(\d{5}):", msg)
        out.append({"t": t, "module": module, "level": level, "pid": int(pid), "client": client, "msg": msg,
                    "code": "AH" + code.group(1) if code else None})
    return out


def parse_json_lines(text):
    return [json.loads(line) for line in text.splitlines()]


def parse_traefik(text):
    out = parse_json_lines(text)
    for r in out:
        r["t"] = datetime.fromisoformat(r["StartUTC"][:26] + "+00:00")
    return out


def parse_multiline(text, rx, build):
    """Lines matching `rx` start an event; any other line continues the previous one."""
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        if m:
            e = build(m)
            e["lines"] = [line]
            out.append(e)
        else:
            assert out, line
            out[-1]["lines"].append(line)
    for e in out:
        e["text"] = "\n".join(e["lines"])
    return out


def parse_logback(text):
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[([^\]]+)\] (TRACE|DEBUG|INFO|WARN|ERROR) +(\S+) - (.*)$")

    def build(m):
        ts, thread, level, logger, msg = m.groups()
        return {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC), "thread": thread,
                "level": level, "logger": logger, "msg": msg}
    return parse_multiline(text, rx, build)


def parse_pylog(text):
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) - (\S+) - (DEBUG|INFO|WARNING|ERROR|CRITICAL) - (.*)$")

    def build(m):
        ts, ms, name, level, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(ms) * 1000)
        return {"t": t, "name": name, "level": level, "msg": msg}
    return parse_multiline(text, rx, build)


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def parse_zap(text):
    out = []
    for line in text.splitlines():
        r = flatten(json.loads(line))
        r["t"] = datetime.fromtimestamp(r["ts"], UTC)
        out.append(r)
    return out


def parse_logfmt_body(body):
    rx = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)')
    return {k: v[1:-1] if v.startswith('"') else v for k, v in rx.findall(body)}


def parse_cri(text):
    """CRI container log lines; P chunks are joined to the next F line; the body is logrus text."""
    rx = re.compile(r"^(\S+) (stdout|stderr) ([PF]) (.*)$")
    out, pending = [], ""
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, stream, tag, body = m.groups()
        pending += body
        if tag == "P":
            continue
        r = parse_logfmt_body(pending)
        r["stream"] = stream
        r["t"] = datetime.fromisoformat(r["time"].replace("Z", "+00:00"))
        out.append(r)
        pending = ""
    assert pending == ""
    return out


def parse_redis(text):
    rx = re.compile(r"^(\d+):([MSCX]) (\d\d \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) ([.\-*#]) (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        pid, role, ts, sym, msg = m.groups()
        out.append({"pid": int(pid), "role": role, "t": datetime.strptime(ts, "%d %b %Y %H:%M:%S.%f").replace(tzinfo=UTC),
                    "level": sym, "msg": msg})
    return out


def parse_prog_lines(text, ts_parse):
    """`TIMESTAMP HOST PROG[PID]: MSG` (journalctl short-iso, rsyslog file format)."""
    rx = re.compile(r"^(\S+) (\S+) ([^\[:\s]+)(?:\[(\d+)\])?: (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        out.append({"t": ts_parse(ts), "host": host, "prog": prog, "pid": pid, "msg": msg})
    return out


def parse_journal_short_iso(text):
    return parse_prog_lines(text, lambda s: datetime.strptime(s, "%Y-%m-%dT%H:%M:%S%z"))


def parse_rsyslog_auth(text):
    out = parse_prog_lines(text, datetime.fromisoformat)
    for r in out:
        f = re.match(r"Failed password for (?:invalid user )?(\S+) from (\S+) port \d+", r["msg"])
        ip = re.search(r"\b(\d+\.\d+\.\d+\.\d+)\b", r["msg"])
        r["failed"] = bool(f)
        r["user"] = f.group(1) if f else None
        r["ip"] = ip.group(1) if ip else None
    return out


def parse_mongo(text):
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        d["ts"] = datetime.fromisoformat(d["t"]["$date"])
        out.append(d)
    return out


def parse_dmesg(text):
    rx = re.compile(r"^\[\s*(\d+\.\d{6})\] (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        k = re.search(r"Killed process (\d+) \(([^)]+)\)", m.group(2))
        out.append({"up": float(m.group(1)), "msg": m.group(2), "killed": (int(k.group(1)), k.group(2)) if k else None})
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
    exclusive, lower, higher, midpoint): the set asks only where they all round the same."""
    v = sorted(values)
    n = len(v)
    out = [v[max(0, math.ceil(p / 100 * n) - 1)]]
    for x in ((n - 1) * p / 100, (n + 1) * p / 100 - 1):
        lo = max(0, min(int(math.floor(x)), n - 1))
        hi = min(lo + 1, n - 1)
        frac = x - math.floor(x)
        out += [v[lo] + (v[hi] - v[lo]) * frac, v[lo], v[hi], (v[lo] + v[hi]) / 2]
    return out
