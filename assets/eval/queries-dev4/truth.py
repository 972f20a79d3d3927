"""Independent parsers of the `queries-dev4` fixtures: each reads a written file back into
records (one per event: a Python traceback belongs to its log line, a Redis BGSAVE child's
lines stay their own records, a Docker json-file line is unwrapped and its logfmt parsed),
the way an operator's awk, jq or grep would, so the cases' truth comes from the text and not
from the generators' bookkeeping. Nothing here imports the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timedelta, timezone

UTC = timezone.utc


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def parse_iis(text):
    """IIS W3C extended: `#` directives (the `#Fields:` line names the columns), then
    space-separated rows; times are UTC."""
    fields = None
    out = []
    for line in _lines(text):
        if line.startswith("#"):
            if line.startswith("#Fields: "):
                fields = line[len("#Fields: "):].split()
            continue
        v = line.split(" ")
        assert fields and len(v) == len(fields), line
        r = dict(zip(fields, v))
        r["t"] = datetime.strptime(r["date"] + " " + r["time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        r["status"] = int(r["sc-status"])
        r["time_taken"] = int(r["time-taken"])
        out.append(r)
    return out


def parse_nginx_error(text):
    """`YYYY/MM/DD HH:MM:SS [level] pid#tid: *cid message, client: …, server: …, request: "…",
    upstream: "…", host: "…"`."""
    rx = re.compile(r"^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) \[(\w+)\] (\d+)#(\d+): (?:\*(\d+) )?(.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, level, _, _, _, rest = m.groups()
        r = {"t": datetime.strptime(ts, "%Y/%m/%d %H:%M:%S").replace(tzinfo=UTC), "level": level, "rest": rest}
        r["msg"] = rest.split(", client: ")[0]
        c = re.search(r", client: ([\d.]+)", rest)
        r["client"] = c.group(1) if c else None
        u = re.search(r', upstream: "http://([^/"]+)', rest)
        r["upstream"] = u.group(1) if u else None
        out.append(r)
    return out


def parse_bunyan(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        assert d["v"] == 0 and isinstance(d["level"], int)
        d["t"] = datetime.strptime(d["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        d["status"] = d.get("res", {}).get("statusCode")
        d["url"] = d.get("req", {}).get("url")
        out.append(d)
    return out


def logfmt(s):
    """key=value pairs, values bare or double-quoted with backslash escapes."""
    out = {}
    for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)', s):
        k, v = m.groups()
        if v.startswith('"'):
            v = json.loads(v)
        out[k] = v
    return out


GO_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def go_duration_seconds(s):
    """A Go time.Duration string (`950µs`, `386.2ms`, `7.412803s`, `1m20s`) in seconds."""
    parts = re.findall(r"([\d.]+)(ns|us|µs|μs|ms|s|m|h)", s)
    assert parts and "".join(a + b for a, b in parts) == s, s
    return sum(float(a) * GO_UNITS[b] for a, b in parts)


def parse_docker_logfmt(text):
    """Docker json-file lines `{"log": "...\\n", "stream": ..., "time": ...}` whose `log` is
    a log/slog text line."""
    out = []
    for line in _lines(text):
        d = json.loads(line)
        assert d["log"].endswith("\n") and d["log"].count("\n") == 1
        r = logfmt(d["log"][:-1])
        r["stream"] = d["stream"]
        r["docker_time"] = d["time"]
        r["t"] = datetime.strptime(r["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        assert d["time"].startswith(r["time"][:-1])
        if "dur" in r:
            r["dur_s"] = go_duration_seconds(r["dur"])
        out.append(r)
    return out


def parse_python_logging(text):
    """`date time,ms - logger - LEVEL - message`; other lines (tracebacks) continue the event."""
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) - (\S+) - (\w+) - (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        if m:
            ts, ms, name, level, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(ms) * 1000)
            out.append({"t": t, "logger": name, "level": level, "msg": msg, "lines": [line]})
        else:
            assert out, line
            out[-1]["lines"].append(line)
    for e in out:
        tb = e["lines"][1:]
        e["traceback"] = bool(tb) and tb[0] == "Traceback (most recent call last):"
        exc = [x for x in tb if re.match(r"^[A-Za-z_][\w.]*(Error|Exception)\b", x)]
        e["exc"] = exc[-1].split(":")[0] if exc else None
        b = re.match(r"invoice batch (\d\d:\d\d) finished in ([\d.]+)s", e["msg"])
        e["batch_secs"] = float(b.group(2)) if b else None
    return out


def parse_redis(text):
    """Redis 7 `pid:role dd Mon yyyy hh:mm:ss.mmm <level-char> message`."""
    rx = re.compile(r"^(\d+):([MSCX]) (\d\d \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) ([.\-*#]) (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        pid, role, ts, c, msg = m.groups()
        t = datetime.strptime(ts, "%d %b %Y %H:%M:%S.%f").replace(tzinfo=UTC)
        a = re.search(r" addr=([\d.]+):\d+ ", msg)
        out.append({"t": t, "pid": int(pid), "role": role, "c": c, "msg": msg, "addr": a.group(1) if a else None})
    return out


def parse_journal_short_iso(text):
    """`journalctl -o short-iso`: `ISO-time host ident[pid]: message`; kubelet messages are
    klog (`Lmmdd hh:mm:ss.uuuuuu pid file:line] msg key=value ...`)."""
    rx = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d) (\S+) ([^\s\[:]+)(?:\[(\d+)\])?: (.*)$")
    klog = re.compile(r"^([IWEF])(\d{4} \d\d:\d\d:\d\d\.\d{6}) +(\d+) ([\w.]+:\d+)\] (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, host, ident, pid, msg = m.groups()
        r = {"t": datetime.fromisoformat(ts).astimezone(UTC), "host": host, "ident": ident, "msg": msg, "kv": {}}
        k = klog.match(msg)
        if k:
            sev, _, _, src, body = k.groups()
            r["sev"], r["src"] = sev, src
            head = re.match(r'^"((?:[^"\\]|\\.)*)"(.*)$', body)
            r["klog_msg"] = json.loads('"' + head.group(1) + '"') if head else body
            rest = head.group(2) if head else ""
            r["kv"] = {a: (json.loads(b) if b.startswith('"') else b)
                       for a, b in re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)', rest)}
        out.append(r)
    return out


def parse_squid(text):
    """Squid native: `epoch.ms elapsed client code/status bytes method URL user hier/peer type`."""
    out = []
    for line in _lines(text):
        f = line.split()
        assert len(f) == 10, line
        sec, ms = f[0].split(".")
        t = datetime.fromtimestamp(int(sec), UTC) + timedelta(milliseconds=int(ms))
        code, status = f[3].split("/")
        url = f[6]
        host = re.sub(r":\d+$", "", url) if f[5] == "CONNECT" else re.match(r"^\w+://([^/:]+)", url).group(1)
        out.append({"t": t, "elapsed": int(f[1]), "client": f[2], "code": code, "status": int(status), "bytes": int(f[4]),
                    "method": f[5], "url": url, "host": host})
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


def percentile_lower(values, p):
    """The other common reading of nearest rank: floor(p n) (0-based)."""
    v = sorted(values)
    return v[min(len(v) - 1, int(p / 100 * len(v)))]


def median(values):
    """The statistics-module median (mean of the middle two for an even count)."""
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
