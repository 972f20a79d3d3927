"""Independent parsers of the `queries-heldout11` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. Envoy's default access
log is read positionally (START_TIME, the quoted request line, code, flags, bytes, DURATION
in ms, the upstream service time, then the quoted XFF, UA, request id, authority and upstream
host); a logrus text line is `time= level= msg=` and sorted key=value pairs, quoted values
unescaped, Go durations converted to nanoseconds; a NATS server line is `[pid] date time
[LVL] msg` with the client's `ip:port - cid:N` and name pulled out; an etcd line is zap JSON
with its Go-duration `took`; a ZooKeeper line owns the stack trace under it; an auth.log line
is an RFC 3339 stamp, host, program[pid] and message. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta
from decimal import Decimal


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.split("\n")[:-1]


GO_UNIT = {"h": 3600 * 10**9, "m": 60 * 10**9, "s": 10**9, "ms": 10**6, "µs": 1000, "us": 1000, "ns": 1}
GO_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|µs|us|ns|h|m|s)")


def go_ns(s):
    """A Go duration string (`1m14.6s`, `312.581ms`, `4.812s`) in integer nanoseconds."""
    parts = GO_PART.findall(s)
    assert parts and "".join(a + b for a, b in parts) == s, s
    return int(sum(Decimal(a) * GO_UNIT[b] for a, b in parts))


ENVOY = re.compile(r'^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z\] "(\S+) (\S+) (\S+)" (\d{3}) (\S+) (\d+) (\d+) (\d+) (\S+) '
                   r'"([^"]*)" "([^"]*)" "([^"]*)" "([^"]*)" "([^"]*)"$')


def parse_envoy(text):
    out = []
    for line in _lines(text):
        m = ENVOY.match(line)
        assert m, line
        ts, method, path, proto, code, flags, rx, tx, dur, ust, xff, ua, rid, auth, up = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "method": method, "uri": path,
                    "path": path.split("?")[0], "proto": proto, "status": int(code), "flags": flags, "rx": int(rx),
                    "tx": int(tx), "ms": int(dur), "ust": None if ust == "-" else int(ust), "xff": xff, "ua": ua,
                    "auth": auth, "up": up})
    return out


LR_PAIR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def _unq(v):
    if v.startswith('"'):
        return re.sub(r"\\(.)", r"\1", v[1:-1])
    return v


def parse_logrus(text):
    out = []
    for line in _lines(text):
        pairs = LR_PAIR.findall(line)
        assert " ".join(f"{k}={v}" for k, v in pairs) == line, line
        d = {k: _unq(v) for k, v in pairs}
        r = {"t": datetime.strptime(d.pop("time"), "%Y-%m-%dT%H:%M:%S.%fZ"), "level": d.pop("level"), "msg": d.pop("msg")}
        r.update(d)
        if "wait" in r:
            r["wait_ns"] = go_ns(r["wait"])
        out.append(r)
    return out


NATS = re.compile(r"^\[(\d+)\] (\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{6}) \[(DBG|INF|WRN|ERR|FTL|TRC)\] (.*)$")
NATS_CLIENT = re.compile(r'^(\d+\.\d+\.\d+\.\d+):(\d+) - cid:(\d+) - (?:"([^"]*)" - )?(.*)$')


def parse_nats(text):
    out = []
    for line in _lines(text):
        m = NATS.match(line)
        assert m, line
        pid, ts, lvl, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y/%m/%d %H:%M:%S.%f"), "level": lvl, "msg": msg}
        c = NATS_CLIENT.match(msg)
        if c:
            r.update(ip=c.group(1), cid=int(c.group(3)), client=c.group(4), text=c.group(5))
            if c.group(4):
                r["name"] = c.group(4).split(":", 2)[2]
            k = re.match(r"Readloop processing time: (\S+)$", c.group(5))
            if k:
                r["readloop_ns"] = go_ns(k.group(1))
        out.append(r)
    return out


def parse_etcd(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        r = dict(d)
        r["t"] = datetime.strptime(d["ts"], "%Y-%m-%dT%H:%M:%S.%fZ")
        if "took" in d:
            r["took_ns"] = go_ns(d["took"])
        if "remote-addr" in d:
            r["remote_ip"] = d["remote-addr"].rsplit(":", 1)[0]
        out.append(r)
    return out


ZK = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \[myid:(\d*)\] - (TRACE|DEBUG|INFO|WARN|ERROR) +\[(.*?)\] - (.*)$")


def parse_zk(text):
    out = []
    for line in _lines(text):
        m = ZK.match(line)
        if not m:
            assert out and (line.startswith("\tat ") or not line[:4].isdigit()), line
            out[-1]["more"].append(line)
            continue
        ts, myid, lvl, where, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f"), "level": lvl, "where": where, "msg": msg, "more": []}
        e = re.match(r"Established session (0x[0-9a-f]+) with negotiated timeout (\d+) for client /([\d.]+):(\d+)$", msg)
        if e:
            r.update(session=e.group(1), client_ip=e.group(3))
        f = re.match(r"fsync-ing the write ahead log in \S+ took (\d+)ms ", msg)
        if f:
            r["fsync_ms"] = int(f.group(1))
        x = re.match(r"Expiring session (0x[0-9a-f]+), timeout of (\d+)ms exceeded$", msg)
        if x:
            r["expired"] = x.group(1)
        out.append(r)
    return out


AUTH = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})\+00:00 (\S+) ([\w\-]+)(?:\[(\d+)\])?: (.*)$")


def parse_auth(text):
    out = []
    for line in _lines(text):
        m = AUTH.match(line)
        assert m, line
        ts, host, prog, pid, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "host": host, "prog": prog, "pid": pid, "msg": msg}
        f = re.match(r"Failed password for (invalid user )?(\S+) from (\S+) port (\d+) ssh2$", msg)
        if f:
            r.update(failed=True, invalid=bool(f.group(1)), user=f.group(2), ip=f.group(3))
        i = re.match(r"Invalid user (\S*) from (\S+) port (\d+)$", msg)
        if i:
            r.update(invalid_user=i.group(1), ip=i.group(2))
        d = re.match(r"drop connection #\d+ from \[(\S+)\]:\d+ on \[\S+\]:22 past MaxStartups$", msg)
        if d:
            r.update(dropped=d.group(1))
        s = re.match(r" *(\S+) : TTY=(\S+) ; PWD=(\S+) ; USER=(\S+) ; COMMAND=(.*)$", msg)
        if prog == "sudo" and s:
            r.update(sudo_user=s.group(1), command=s.group(5))
        out.append(r)
    return out


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
