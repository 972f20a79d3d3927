"""Independent parsers of the `queries-heldout8` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. nginx and Tomcat lines are
split into their fields (Tomcat's `%t` is the request's start, its `%D` milliseconds); a slapd
RESULT is joined to the BIND of the same `conn`/`op` and to the `ACCEPT` of its connection
(client IP); an hclog line's `key=value` tail is unquoted; an Airflow line owns the lines under
it (the scheduler's tab-indented task lists, a task's traceback) and its `TaskInstance
Finished:` / `DagRun Finished:` fields are read; Prometheus and Grafana logfmt is read with
quoted values unescaped (Grafana's nanosecond times are cut to microseconds). Nothing here
imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta

YEAR = 2033
MONTHS = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def _clf(s):
    dd, mon, rest = s.split("/")
    yyyy, hms_ = rest.split(" ")[0].split(":", 1)
    assert s.endswith(" +0000"), s
    return datetime.strptime(f"{yyyy}-{MONTHS[mon]:02d}-{dd} {hms_}", "%Y-%m-%d %H:%M:%S")


NGINX = re.compile(r'^(\d+\.\d+\.\d+\.\d+) - (\S+) \[([^\]]+)\] "([A-Z]+) (\S+) HTTP/1\.1" (\d{3}) (\d+) '
                   r'"([^"]*)" "([^"]*)" rt=(\d+\.\d{3}) uct="([^"]*)" uht="([^"]*)" urt="([^"]*)"$')


def parse_nginx(text):
    """`... "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time
    uct="$upstream_connect_time" uht="$upstream_header_time" urt="$upstream_response_time"`."""
    out = []
    for line in _lines(text):
        m = NGINX.match(line)
        assert m, line
        ip, user, ts, method, target, status, size, ref, ua, rt, uct, uht, urt = m.groups()
        out.append({"t": _clf(ts), "ip": ip, "method": method, "target": target, "path": target.split("?")[0],
                    "status": int(status), "size": int(size), "ua": ua, "rt": float(rt), "rt_s": rt,
                    "urt": None if urt == "-" else float(urt), "urt_s": urt})
    return out


TOMCAT = re.compile(r'^(\d+\.\d+\.\d+\.\d+) - (\S+) \[([^\]]+)\] "([A-Z]+) (\S+) HTTP/1\.1" (\d{3}) (\d+|-) (\d+)$')


def parse_tomcat(text):
    """Tomcat 9 AccessLogValve `%h %l %u %t "%r" %s %b %D` (%D in milliseconds)."""
    out = []
    for line in _lines(text):
        m = TOMCAT.match(line)
        assert m, line
        ip, user, ts, method, target, status, size, ms = m.groups()
        out.append({"t": _clf(ts), "ip": ip, "user": user, "method": method, "target": target,
                    "path": target.split("?")[0], "status": int(status), "size": size, "ms": int(ms)})
    return out


SYSLOG = re.compile(r"^(\w{3}) +(\d+) (\d\d:\d\d:\d\d) (\S+) slapd\[(\d+)\]: (.*)$")


def parse_slapd(text):
    """One record per syslog line; RESULTs of binds are joined to their BIND dn and client IP."""
    out = []
    accept_ip, bind_dn = {}, {}
    for line in _lines(text):
        m = SYSLOG.match(line)
        assert m, line
        mon, dd, hms_, host, pid, msg = m.groups()
        t = datetime.strptime(f"{YEAR}-{MONTHS[mon]:02d}-{int(dd):02d} {hms_}", "%Y-%m-%d %H:%M:%S")
        r = {"t": t, "host": host, "msg": msg}
        c = re.match(r"conn=(\d+) (?:fd=\d+|op=(\d+)) (.*)$", msg)
        assert c, line
        conn, op, rest = int(c.group(1)), c.group(2), c.group(3)
        r["conn"] = conn
        if rest.startswith("ACCEPT from IP="):
            accept_ip[conn] = re.match(r"ACCEPT from IP=([\d.]+):\d+", rest).group(1)
        if op is not None:
            op = int(op)
            r["op"] = op
            b = re.match(r'BIND dn="([^"]*)" method=', rest)
            if b:
                bind_dn[(conn, op)] = b.group(1)
            res = re.match(r"RESULT tag=(\d+) err=(\d+) ", rest)
            if res:
                r["tag"], r["err"] = int(res.group(1)), int(res.group(2))
                if r["tag"] == 97:
                    r["dn"] = bind_dn[(conn, op)]
                    r["ip"] = accept_ip[conn]
            s = re.match(r'SRCH base="([^"]*)" .* filter="([^"]*)"', rest)
            if s:
                r["filter"] = s.group(2)
            mod = re.match(r'MOD dn="([^"]*)"', rest)
            if mod:
                r["mod_dn"] = mod.group(1)
        out.append(r)
    return out


HCLOG = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z \[(TRACE|DEBUG|INFO|WARN|ERROR)\] +(\S+): (.*)$")
HC_PAIR = re.compile(r'(\w[\w.-]*)=("(?:[^"\\]|\\.)*"|\S+)')


def parse_hclog(text):
    """hclog: `ts [LEVEL] name: message: k=v k="quoted \\"escaped\\""`."""
    out = []
    for line in _lines(text):
        m = HCLOG.match(line)
        assert m, line
        ts, lvl, name, rest = m.groups()
        msg, kv = rest, {}
        cut = rest.find(": ")
        while cut >= 0:
            tail = rest[cut + 2:]
            pairs = HC_PAIR.findall(tail)
            if pairs and " ".join(f"{k}={v}" for k, v in pairs) == tail:
                msg = rest[:cut]
                kv = {k: (json.loads(v) if v.startswith('"') else v) for k, v in pairs}
                break
            cut = rest.find(": ", cut + 1)
        r = {"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "level": lvl, "name": name, "msg": msg}
        for k, v in kv.items():   # a `msg=` pair (a task event's text) must not hide the message
            r[k if k not in r else "kv_" + k] = v
        out.append(r)
    return out


AIRFLOW = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})\+0000\] \{([^}]+)\} (DEBUG|INFO|WARNING|ERROR|CRITICAL) - (.*)$")


def parse_airflow(text):
    """`[%(asctime)s] {%(filename)s:%(lineno)d} %(levelname)s - %(message)s`; a line that does not
    start so (a tab-indented task list, a traceback) belongs to the event above."""
    out = []
    for line in _lines(text):
        m = AIRFLOW.match(line)
        if m:
            ts, src, lvl, msg = m.groups()
            r = {"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "src": src, "level": lvl, "msg": msg, "more": []}
            for head in ("TaskInstance Finished: ", "DagRun Finished: "):
                if msg.startswith(head):
                    r["kind"] = head.split()[0]
                    r.update(dict(p.split("=", 1) for p in msg[len(head):].split(", ")))
            out.append(r)
        else:
            assert out, line
            out[-1]["more"].append(line)
    return out


LOGFMT = re.compile(r'(\w[\w.]*)=("(?:[^"\\]|\\.)*"|\S*)')


def logfmt(line):
    """key=value pairs, quoted values unescaped; a repeated key keeps its first value."""
    d = {}
    for k, v in LOGFMT.findall(line):
        if v.startswith('"'):
            v = json.loads(v)
        d.setdefault(k, v)
    assert " ".join(f"{k}={v}" for k, v in LOGFMT.findall(line)) == line, line
    return d


def parse_prometheus(text):
    out = []
    for line in _lines(text):
        d = logfmt(line)
        d["t"] = datetime.strptime(d["ts"], "%Y-%m-%dT%H:%M:%S.%fZ")
        out.append(d)
    return out


def parse_grafana(text):
    out = []
    for line in _lines(text):
        d = logfmt(line)
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z", d["t"])
        assert m, line
        frac = (m.group(2) or "").ljust(6, "0")[:6]
        d["time"] = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(frac))
        out.append(d)
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
