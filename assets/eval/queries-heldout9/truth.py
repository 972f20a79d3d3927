"""Independent parsers of the `queries-heldout9` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. varnishncsa lines are split
into their fields (`%t` the request's start, `%D` microseconds, `%r` carrying the absolute URL);
kube-apiserver klog lines are read by their header, an `httplog` line's key="value" pairs are
unquoted and its Go-duration `latency` converted, a `Trace[...]` continuation belongs to the line
above; etcd lines are JSON (Go durations converted); a MySQL error-log line owns the crash dump
under it; a Cassandra line owns its stack trace; a Fluentd line owns its indented backtrace;
syslog's year-less stamps are read as 2036. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta

YEAR = 2036
MONTHS = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.split("\n")[:-1]


def _clf(s):
    dd, mon, rest = s.split("/")
    yyyy, hms_ = rest.split(" ")[0].split(":", 1)
    assert s.endswith(" +0000"), s
    return datetime.strptime(f"{yyyy}-{MONTHS[mon]:02d}-{dd} {hms_}", "%Y-%m-%d %H:%M:%S")


GO_UNITS = {"ns": 1e-3, "µs": 1, "us": 1, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}


def go_duration_us(s):
    """A Go duration string (`412.5ms`, `1.204517331s`, `7m41.000512s`, `512µs`) in microseconds."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(ns|µs|us|ms|s|m|h)", s)
    assert parts and "".join(a + b for a, b in parts) == s, s
    return sum(float(a) * GO_UNITS[b] for a, b in parts)


VARNISH = re.compile(r'^(\d+\.\d+\.\d+\.\d+) (\S+) (\S+) \[([^\]]+)\] "([A-Z]+) (\S+) (HTTP/\d\.\d)" (\d{3}) (\d+|-) '
                     r'"([^"]*)" "([^"]*)" (hit|miss|pass|pipe|synth) (\d+)$')


def parse_varnish(text):
    """varnishncsa `-F '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %{Varnish:handling}x %D'`."""
    out = []
    for line in _lines(text):
        m = VARNISH.match(line)
        assert m, line
        ip, _, _, ts, method, url, _, status, size, ref, ua, handling, d = m.groups()
        u = re.match(r"^https?://([^/]+)(/[^?]*)(\?.*)?$", url)
        assert u, url
        out.append({"t": _clf(ts), "ip": ip, "method": method, "url": url, "host": u.group(1), "path": u.group(2),
                    "target": u.group(2) + (u.group(3) or ""), "status": int(status), "size": size, "ua": ua,
                    "handling": handling, "us": int(d)})
    return out


KLOG = re.compile(r"^([IWEF])(\d\d)(\d\d) (\d\d:\d\d:\d\d\.\d{6}) +(\d+) ([^\]\s]+:\d+)\] (.*)$")
KV = re.compile(r'([\w-]+)=("(?:[^"\\]|\\.)*"|\S+)')


def parse_klog(text):
    out = []
    for line in _lines(text):
        m = KLOG.match(line)
        if not m:
            assert out and line.startswith("Trace["), line
            out[-1]["more"].append(line)
            continue
        lvl, mm, dd, hms_, tid, src, msg = m.groups()
        r = {"t": datetime.strptime(f"{YEAR}-{mm}-{dd} {hms_}", "%Y-%m-%d %H:%M:%S.%f"), "level": lvl, "src": src,
             "msg": msg, "more": []}
        if msg.startswith('"HTTP" '):
            kv = {k: (json.loads(v) if v.startswith('"') else v) for k, v in KV.findall(msg[7:])}
            r.update(kv)
            r["http"] = True
            r["resp"] = int(kv["resp"])
            r["lat_us"] = go_duration_us(kv["latency"])
            r["src_ip"] = kv["srcIP"].rsplit(":", 1)[0]
        out.append(r)
    return out


def parse_etcd(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.strptime(d["ts"], "%Y-%m-%dT%H:%M:%S.%fZ")
        if "took" in d:
            d["took_us"] = go_duration_us(d["took"])
        out.append(d)
    return out


MYSQL = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})Z (\d+) \[(\w+)\] \[(MY-\d{6})\] \[(\w+)\] (.*)$")


def parse_mysql(text):
    """MySQL 8 error log; lines that do not start with the full header (a crash dump) belong above."""
    out = []
    for line in _lines(text):
        m = MYSQL.match(line)
        if not m:
            assert out, line
            out[-1]["more"].append(line)
            continue
        ts, thread, label, code, sub, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "thread": int(thread), "label": label, "code": code,
             "sub": sub, "msg": msg, "more": []}
        a = re.match(r"Aborted connection (\d+) to db: '([^']*)' user: '([^']*)' host: '([^']*)' \((.*)\)\.$", msg)
        if a:
            r.update(kind="aborted", db=a.group(2), user=a.group(3), host=a.group(4))
        d = re.match(r"Access denied for user '([^']*)'@'([^']*)' \(using password: (YES|NO)\)$", msg)
        if d:
            r.update(kind="denied", user=d.group(1), host=d.group(2))
        p = re.match(r"Page cleaner took (\d+)ms to flush (\d+) and evict (\d+) pages$", msg)
        if p:
            r.update(kind="pagecleaner", ms=int(p.group(1)))
        out.append(r)
    return out


CASS = re.compile(r"^(TRACE|DEBUG|INFO|WARN|ERROR) +\[([^\]]+)\] (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) (\S+?):(\d+) - (.*)$")


def parse_cassandra(text):
    out = []
    for line in _lines(text):
        m = CASS.match(line)
        if not m:
            assert out, line
            out[-1]["more"].append(line)
            continue
        lvl, thread, ts, f, ln, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S,%f"), "level": lvl, "thread": thread, "file": f,
             "msg": msg, "more": []}
        g = re.match(r"(G1 (?:Young|Old) Generation) GC in (\d+)ms\.", msg)
        if g:
            r.update(gc=g.group(1), ms=int(g.group(2)))
        tb = re.match(r"Read \d+ live rows and \d+ tombstone cells for query SELECT \* FROM (\S+) WHERE", msg)
        if tb:
            r["tombstone_table"] = tb.group(1)
        out.append(r)
    return out


FLUENT = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) \+0000 \[(trace|debug|info|warn|error|fatal)\]: (?:#(\d+) )?"
                    r"(?:\[([\w-]+)\] )?(.*)$")


def parse_fluentd(text):
    out = []
    for line in _lines(text):
        if line.startswith("  "):
            assert out, line
            out[-1]["more"].append(line)
            continue
        m = FLUENT.match(line)
        assert m, line
        ts, lvl, worker, plugin, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S"), "level": lvl, "plugin": plugin, "msg": msg,
                    "more": []})
    return out


SYSLOG = re.compile(r"^(\w{3}) +(\d+) (\d\d:\d\d:\d\d) (\S+) ([^\[:\s]+)(?:\[(\d+)\])?: (.*)$")


def parse_syslog(text):
    out = []
    for line in _lines(text):
        m = SYSLOG.match(line)
        assert m, line
        mon, dd, hms_, host, prog, pid, msg = m.groups()
        t = datetime.strptime(f"{YEAR}-{MONTHS[mon]:02d}-{int(dd):02d} {hms_}", "%Y-%m-%d %H:%M:%S")
        out.append({"t": t, "host": host, "prog": prog, "pid": pid, "msg": msg})
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
