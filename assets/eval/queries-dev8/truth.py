"""Independent parsers of the `queries-dev8` fixtures: each reads a written file back into
records, one per event, the way an operator's awk, jq or grep would. Zeek's columns come
from the `#fields` line of each header block (the file is four hourly logs back to back);
zap's `ts` is epoch seconds; PHP-FPM's `[dd-Mon-yyyy HH:MM:SS]`; logrus `key=value` pairs
with Go-quoted values; a Sidekiq line owns the backtrace lines under it; PgBouncer's
`C-0x…: db/user@ip:port` prefix and its `stats:` figures; journald's short-iso lines with
postgres' own prefix inside the message. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta

EPOCH = datetime(1970, 1, 1)


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def from_epoch(s):
    """An epoch-seconds string to a naive UTC datetime, to the microsecond."""
    whole, _, frac = s.partition(".")
    return EPOCH + timedelta(seconds=int(whole), microseconds=int((frac + "000000")[:6]))


# --- Zeek conn.log

def parse_zeek(text):
    out, fields, blocks = [], None, 0
    for line in _lines(text):
        if line.startswith("#"):
            if line.startswith("#fields\t"):
                fields = line.split("\t")[1:]
                blocks += 1
            continue
        vals = line.split("\t")
        assert fields and len(vals) == len(fields), line
        d = dict(zip(fields, vals))
        rec = {"t": from_epoch(d["ts"]), "uid": d["uid"], "orig_h": d["id.orig_h"], "orig_p": int(d["id.orig_p"]),
               "resp_h": d["id.resp_h"], "resp_p": int(d["id.resp_p"]), "proto": d["proto"], "service": d["service"],
               "state": d["conn_state"], "history": d["history"]}
        rec["duration"] = None if d["duration"] == "-" else float(d["duration"])
        for k in ("orig_bytes", "resp_bytes", "orig_ip_bytes", "resp_ip_bytes"):
            rec[k] = None if d[k] == "-" else int(d[k])
        out.append(rec)
    assert blocks == 4, blocks
    return out


# --- zap JSON

def parse_zap(text):
    out = []
    for line in _lines(text):
        raw_ts = re.search(r'"ts":([0-9.]+)', line).group(1)
        d = json.loads(line)
        d["t"] = from_epoch(raw_ts)
        out.append(d)
    return out


# --- PHP-FPM error log

FPM = re.compile(r"^\[(\d\d-\w{3}-\d{4} \d\d:\d\d:\d\d)\] (DEBUG|NOTICE|WARNING|ERROR|ALERT): (.*)$")
FPM_CHILD = re.compile(r"^\[pool (\w+)\] child (\d+)")


def parse_fpm(text):
    out = []
    for line in _lines(text):
        m = FPM.match(line)
        assert m, line
        ts, lvl, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%d-%b-%Y %H:%M:%S"), "level": lvl, "msg": msg}
        c = FPM_CHILD.match(msg)
        if c:
            r["pool"], r["child"] = c.group(1), int(c.group(2))
        out.append(r)
    return out


# --- logrus text (dockerd / containerd)

LOGRUS_PAIR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s"]*)')


def parse_logrus(text):
    out = []
    for line in _lines(text):
        pairs = LOGRUS_PAIR.findall(line)
        assert " ".join(f"{k}={v}" for k, v in pairs) == line, line
        d = {k: (json.loads(v) if v.startswith('"') else v) for k, v in pairs}
        ts = d["time"]
        m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z", ts)
        t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(((m.group(2) or "") + "000000")[:6]))
        d["t"] = t
        out.append(d)
    return out


# --- Sidekiq 7 pretty formatter

SK = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z pid=(\d+) tid=(\w+)((?: \w+=\S+)*) (DEBUG|INFO|WARN|ERROR|FATAL): (.*)$")


def parse_sidekiq(text):
    out = []
    for line in _lines(text):
        m = SK.match(line)
        if not m:
            assert out and line.startswith("/"), line
            out[-1]["more"].append(line)
            continue
        ts, pid, tid, ctx, lvl, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f"), "pid": int(pid), "tid": tid, "level": lvl, "msg": msg,
             "more": []}
        r.update(re.findall(r"(\w+)=(\S+)", ctx))
        out.append(r)
    return out


# --- PgBouncer

PGB = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC \[(\d+)\] (LOG|WARNING|ERROR|FATAL|NOISE|DEBUG) (.*)$")
PGB_SOCK = re.compile(r"^([CS])-0x([0-9a-f]+): ([^/]+)/([^@]+)@([\d.]+):(\d+) (.*)$")
STATS = re.compile(r"^stats: (\d+) xacts/s, (\d+) queries/s, .* xact (\d+) us, query (\d+) us, wait (\d+) us$")


def parse_pgbouncer(text):
    out = []
    for line in _lines(text):
        m = PGB.match(line)
        assert m, line
        ts, pid, lvl, msg = m.groups()
        r = {"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "level": lvl, "msg": msg}
        s = PGB_SOCK.match(msg)
        if s:
            side, ptr, db, user, ip, port, rest = s.groups()
            r.update(side=side, ptr=ptr, db=db, user=user, ip=ip, port=int(port), rest=rest)
        st = STATS.match(msg)
        if st:
            r.update(stats=True, xacts=int(st.group(1)), queries=int(st.group(2)), xact_us=int(st.group(3)),
                     query_us=int(st.group(4)), wait_us=int(st.group(5)))
        out.append(r)
    return out


# --- journalctl -o short-iso

JOURNAL = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\+0000 (\S+) ([^\s\[:]+)(?:\[(\d+)\])?: (.*)$")


def parse_journal(text):
    out = []
    for line in _lines(text):
        m = JOURNAL.match(line)
        assert m, line
        ts, host, ident, pid, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S"), "host": host, "ident": ident,
                    "pid": int(pid) if pid else None, "msg": msg})
    return out


# --- generic helpers (as in the earlier sets)

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
