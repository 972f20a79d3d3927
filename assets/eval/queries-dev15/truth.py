"""Independent parsers of the `queries-dev15` fixtures: each reads a written file back into records the
way an operator's awk or grep would. `consul-srv-2.log` by hclog's text layout (`time [LEVEL] module:
message: key=value ...`, values quoted when they hold a character outside `-`..`~`); `named.log` by
BIND's `dd-Mon-yyyy hh:mm:ss.mmm category: severity: message` channel layout; `kea-dhcp4.log` by Kea's
default file pattern (`yyyy-mm-dd hh:mm:ss.mmm LEVEL [logger/pid.thread] MESSAGE_ID text`). Nothing here
imports the writers.
"""

import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


_UNITS = {"h": 3600 * 10 ** 9, "m": 60 * 10 ** 9, "s": 10 ** 9, "ms": 10 ** 6, "\u00b5s": 10 ** 3, "us": 10 ** 3, "ns": 1}
_DUR = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|\u00b5s|us|ns|s)")


def duration_ns(s):
    """A Go `time.Duration` string ("8.913276501s", "412.337µs", "3.2ms") in nanoseconds."""
    pos, total = 0, 0
    for m in _DUR.finditer(s):
        assert m.start() == pos, s
        num, unit = m.groups()
        ip, _, fp = num.partition(".")
        scale = _UNITS[unit]
        total += int(ip) * scale + (int(fp) * scale // 10 ** len(fp) if fp else 0)
        pos = m.end()
    assert pos == len(s) and pos, s
    return total


# --- consul-srv-2.log (hclog text)

CLINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z \[(TRACE|DEBUG|INFO|WARN|ERROR)\] {1,2}([\w.\-]+): (.*)$")
_KV = re.compile(r' ([A-Za-z][\w\-]*(?: [a-z]+)?)=("(?:[^"\\]|\\.)*"|[^ "]*)')


def _kv_tail(s):
    """The key=value pairs if `s` is made of nothing else, else None."""
    out, pos = [], 0
    for m in _KV.finditer(s):
        if m.start() != pos:
            return None
        v = m.group(2)
        if v.startswith('"'):
            v = re.sub(r"\\(.)", r"\1", v[1:-1])
        out.append((m.group(1), v))
        pos = m.end()
    return out if pos == len(s) and out else None


def parse_consul(text):
    out = []
    for line in _lines(text):
        m = CLINE.match(line)
        assert m, line
        ts, level, module, rest = m.groups()
        msg, kv = rest, {}
        i = rest.find(": ")
        while i != -1:
            pairs = _kv_tail(rest[i + 1:])
            if pairs is not None:
                msg, kv = rest[:i], dict(pairs)
                break
            i = rest.find(": ", i + 1)
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "level": level, "module": module, "msg": msg,
                    "kv": kv, "line": line})
    return out


# --- named.log (BIND file channel with print-time, print-category, print-severity)

NLINE = re.compile(r"^(\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d\.\d{3}) ([a-z\-]+): (info|notice|warning|error|critical|debug \d+): (.*)$")
QUERY = re.compile(r"^client @0x[0-9a-f]+ ([\d.]+)#(\d+) \(([^)]+)\): query: (\S+) IN (\S+) (\S+) \(([\d.]+)\)$")
QERR = re.compile(r"^client @0x[0-9a-f]+ ([\d.]+)#(\d+) \(([^)]+)\): query failed \(([^)]+)\) for (\S+)/IN/(\S+) at (\S+)$")
DENIED = re.compile(r"^client @0x[0-9a-f]+ ([\d.]+)#(\d+) \(([^)]+)\): query \(cache\) '([^']+)' denied \((.*)\)$")
XFER_DONE = re.compile(r"^transfer of '([^']+)/IN' from ([\d.]+)#53: Transfer completed: (\d+) messages, (\d+) records, "
                       r"(\d+) bytes, (\d+)\.(\d{3}) secs \((\d+) bytes/sec\) \(serial (\d+)\)$")


def parse_named(text):
    out = []
    for line in _lines(text):
        m = NLINE.match(line)
        assert m, line
        ts, cat, sev, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%d-%b-%Y %H:%M:%S.%f"), "cat": cat, "sev": sev, "msg": msg, "line": line}
        q = QUERY.match(msg)
        if cat == "queries":
            assert q, line
            assert q.group(3) == q.group(4), line
            r.update(client=q.group(1), name=q.group(4), qtype=q.group(5), flags=q.group(6))
        e = QERR.match(msg)
        if cat == "query-errors":
            assert e, line
            r.update(client=e.group(1), name=e.group(5), why=e.group(4))
        d = DENIED.match(msg)
        if cat == "security":
            assert d, line
            r.update(client=d.group(1), name=d.group(3))
        x = XFER_DONE.match(msg)
        if x:
            r.update(zone=x.group(1), msgs=int(x.group(3)), recs=int(x.group(4)), bytes=int(x.group(5)),
                     ms=int(x.group(6)) * 1000 + int(x.group(7)), serial=int(x.group(9)))
        out.append(r)
    return out


# --- kea-dhcp4.log (Kea's default file pattern)

KLINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (DEBUG|INFO|WARN|ERROR|FATAL) +\[([\w.\-]+)/(\d+)\.(\d+)\] "
                   r"([A-Z0-9_]+) (.*)$")
LABEL = re.compile(r"\[hwtype=1 ([0-9a-f:]{17})\], cid=\[([^\]]*)\], tid=0x([0-9a-f]+)")


def parse_kea(text):
    out = []
    for line in _lines(text):
        m = KLINE.match(line)
        assert m, line
        ts, level, logger, pid, thread, msgid, rest = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "level": level, "logger": logger, "id": msgid, "text": rest,
             "line": line}
        lb = LABEL.search(rest)
        if lb:
            r["mac"] = lb.group(1)
        a = re.search(r": lease ([\d.]+) has been allocated for (\d+) seconds$", rest)
        if a:
            r["ip"], r["secs"] = a.group(1), int(a.group(2))
        o = re.search(r": lease ([\d.]+) will be offered$", rest)
        if o:
            r["ip"] = o.group(1)
        n = re.search(r"requested-ip-address (\S+)$", rest)
        if n:
            r["req"] = n.group(1)
        d = re.match(r"Received DHCPDECLINE for addr ([\d.]+) from client ", rest)
        if d:
            r["ip"] = d.group(1)
        out.append(r)
    return out


# --- generic helpers (as in the earlier sets)

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


def minutes(t):
    return t - timedelta(seconds=t.second, microseconds=t.microsecond)
