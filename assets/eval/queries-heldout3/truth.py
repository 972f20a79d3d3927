"""Independent parsers of the `queries-heldout3` set's fixtures: each reads a written file
back into records (one per event: a Java stack trace belongs to the line before it, the
lines of one RabbitMQ message share a timestamp and process), the way an operator's awk, jq
or a script would, so the cases' truth comes from the text and not from the generator's
bookkeeping.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc
YEAR = 2028


def from_epoch(x):
    return datetime.fromtimestamp(float(x), UTC)


def parse_caddy(text):
    """Caddy v2 JSON access log: one object a line; the request's fields flattened."""
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        r = d["request"]
        out.append({"t": from_epoch(d["ts"]), "level": d["level"], "ip": r["client_ip"], "remote_ip": r["remote_ip"],
                    "host": r["host"],
                    "method": r["method"], "uri": r["uri"], "path": r["uri"].split("?")[0], "status": d["status"],
                    "size": d["size"], "duration": d["duration"]})
    return out


def parse_envoy(text):
    """Envoy's default access log format."""
    rx = re.compile(r'^\[(\S+)\] "(\S+) (\S+) (\S+)" (\d{3}) (\S+) (\d+) (\d+) (\d+) (\S+) "([^"]*)" "([^"]*)" '
                    r'"([^"]*)" "([^"]*)" "([^"]*)"$')
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, method, path, proto, code, flags, recv, sent, dur, ust, xff, ua, rid, auth, up = m.groups()
        out.append({"t": datetime.fromisoformat(ts.replace("Z", "+00:00")), "method": method, "path": path,
                    "code": int(code), "flags": flags, "recv": int(recv), "sent": int(sent), "dur": int(dur),
                    "ust": None if ust == "-" else int(ust), "xff": xff, "authority": auth,
                    "upstream": None if up == "-" else up})
    return out


def parse_nginx_error(text):
    rx = re.compile(r"^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) \[(\w+)\] (\d+)#(\d+): (?:\*(\d+) )?(.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, level, pid, tid, cid, msg = m.groups()
        up = re.search(r', upstream: "\w+://([^/"]+)', msg)
        out.append({"t": datetime.strptime(ts, "%Y/%m/%d %H:%M:%S").replace(tzinfo=UTC), "level": level,
                    "pid": int(pid), "msg": msg, "upstream": up.group(1) if up else None})
    return out


def parse_rabbit(text):
    """RabbitMQ 3.12: every line `DATE TIME+00:00 [level] <pid> text`; consecutive lines with
    the same timestamp and process are one message."""
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6})\+00:00 \[(\w+)\] (<[\d.]+>) ?(.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, level, pid, body = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
        if out and out[-1]["t"] == t and out[-1]["pid"] == pid and out[-1]["level"] == level:
            out[-1]["lines"].append(body)
        else:
            out.append({"t": t, "level": level, "pid": pid, "lines": [body]})
    for e in out:
        e["text"] = "\n".join(e["lines"])
        u = re.search(r"user: '([^']+)'", e["lines"][0])
        e["user"] = u.group(1) if u else None
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


def parse_kafka(text):
    rx = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\] (TRACE|DEBUG|INFO|WARN|ERROR) (.*) \(([\w.$]+)\)$")

    def build(m):
        ts, level, msg, cls = m.groups()
        return {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f").replace(tzinfo=UTC), "level": level,
                "msg": msg, "cls": cls}
    return parse_multiline(text, rx, build)


def parse_cassandra(text):
    rx = re.compile(r"^(TRACE|DEBUG|INFO|WARN|ERROR) +\[([^\]]+)\] (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) (\S+) - (.*)$")

    def build(m):
        level, thread, ts, src, msg = m.groups()
        return {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f").replace(tzinfo=UTC), "level": level,
                "thread": thread, "src": src, "msg": msg}
    return parse_multiline(text, rx, build)


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def parse_pino(text):
    out = []
    for line in text.splitlines():
        r = flatten(json.loads(line))
        r["t"] = datetime.fromtimestamp(r["time"] / 1000, UTC)
        out.append(r)
    return out


def parse_syslog(text):
    """`Mon DD HH:MM:SS[.ffffff] HOST PROG[PID]: MSG` (the year is the set's)."""
    rx = re.compile(r"^(\w{3} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{6})?) (\S+) ([^\[:\s]+)(?:\[(\d+)\])?: (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        fmt = "%Y %b %d %H:%M:%S.%f" if "." in ts else "%Y %b %d %H:%M:%S"
        out.append({"t": datetime.strptime(f"{YEAR} {ts}", fmt).replace(tzinfo=UTC), "host": host, "prog": prog,
                    "pid": pid, "msg": msg})
    return out


def parse_postfix(text):
    out = parse_syslog(text)
    for r in out:
        m = re.match(r"([0-9A-F]{10}): (.*)$", r["msg"])
        r["qid"] = m.group(1) if m else None
        st = re.search(r"\bto=<([^>]+)>.*\bstatus=(\w+)", r["msg"])
        r["to"], r["status"] = (st.group(1), st.group(2)) if st else (None, None)
        r["domain"] = r["to"].split("@")[1] if r["to"] else None
    return out


def parse_docker_json(text):
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        assert d["log"].endswith("\n")
        body = d["log"][:-1]
        t = datetime.fromisoformat(d["time"][:26] + "+00:00")
        r = {"t": t, "stream": d["stream"], "log": body, "level": None}
        m = re.match(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})Z +(TRACE|DEBUG|INFO|WARN|ERROR) (\S+): (.*)$", body)
        if m:
            r["t_inner"] = datetime.fromisoformat(m.group(1) + "+00:00")
            r["level"], r["target"], r["msg"] = m.group(2), m.group(3), m.group(4)
            r.update(dict(re.findall(r"(\w+)=(\S+)", m.group(4))))
        out.append(r)
    return out


def parse_audit(text):
    rx = re.compile(r"^type=(\S+) msg=audit\((\d+\.\d{3}):(\d+)\): (.*)$")
    out = []
    for line in text.splitlines():
        m = rx.match(line)
        assert m, line
        typ, ts, serial, body = m.groups()
        inner = re.search(r"msg='([^']*)'", body)
        fields = dict(re.findall(r'(\S+?)=("[^"]*"|\S+)', re.sub(r"msg='[^']*'", "", body)))
        if inner:
            fields.update(re.findall(r'(\S+?)=("[^"]*"|\S+)', inner.group(1)))
        fields = {k: v.strip('"') for k, v in fields.items()}
        out.append({"t": from_epoch(ts), "type": typ, "serial": int(serial), **fields})
    return out


def parse_squid(text):
    out = []
    for line in text.splitlines():
        f = line.split()
        assert len(f) == 10, line
        code, status = f[3].split("/")
        out.append({"t": from_epoch(f[0]), "elapsed": int(f[1]), "client": f[2], "code": code, "status": int(status),
                    "bytes": int(f[4]), "method": f[5], "url": f[6], "hier": f[8]})
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
    out = [v[max(0, math.ceil(p / 100 * n) - 1)]]
    for x in ((n - 1) * p / 100, (n + 1) * p / 100 - 1):
        lo = max(0, min(int(math.floor(x)), n - 1))
        hi = min(lo + 1, n - 1)
        frac = x - math.floor(x)
        out += [v[lo] + (v[hi] - v[lo]) * frac, v[lo], v[hi], (v[lo] + v[hi]) / 2]
    return out
