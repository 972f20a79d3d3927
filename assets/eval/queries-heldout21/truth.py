"""Independent parsers of the `queries-heldout21` fixtures: each reads a written file back into
records the way an operator's awk, jq or grep would. `alb-access.log` by splitting each line into
its space-separated and quoted fields (the ALB access-log layout); `postgresql-16-main.log` by its
`log_line_prefix` (`%m [%p] %q%u@%d `), a tab-led line continuing the entry above; `redis-server.log`
by Redis's `pid:role dd Mon yyyy hh:mm:ss.mmm level message`. Nothing here imports the writers.
"""

import math
import re
from collections import Counter
from datetime import datetime, timedelta


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def _iso(s):
    m = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z", s)
    assert m, s
    return datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(m.group(2)))


# --- alb-access.log (AWS Application Load Balancer access log)

ALB_FIELDS = ["type", "time", "elb", "client", "target", "request_processing_time", "target_processing_time",
              "response_processing_time", "elb_status_code", "target_status_code", "received_bytes", "sent_bytes",
              "request", "user_agent", "ssl_cipher", "ssl_protocol", "target_group_arn", "trace_id", "domain_name",
              "chosen_cert_arn", "matched_rule_priority", "request_creation_time", "actions_executed", "redirect_url",
              "error_reason", "target_port_list", "target_status_code_list", "classification",
              "classification_reason", "conn_trace_id"]


def parse_alb(text):
    out = []
    for line in _lines(text):
        toks = re.findall(r'"[^"]*"|\S+', line)
        assert len(toks) == len(ALB_FIELDS), (len(toks), line)
        d = {k: (v[1:-1] if v.startswith('"') else v) for k, v in zip(ALB_FIELDS, toks)}
        method, url, proto = d["request"].split(" ")
        m = re.fullmatch(r"https://([^/:]+):443(/[^?]*)(\?.*)?", url)
        assert m, url
        tpt = float(d["target_processing_time"])
        out.append({"t": _iso(d["time"]), "start": _iso(d["request_creation_time"]), "ip": d["client"].rsplit(":", 1)[0],
                    "target": d["target"], "tpt": None if tpt < 0 else tpt, "st": int(d["elb_status_code"]),
                    "tst": d["target_status_code"], "sent": int(d["sent_bytes"]), "recv": int(d["received_bytes"]),
                    "method": method, "host": m.group(1), "path": m.group(2), "query": m.group(3) or "", "raw": d})
    return out


# --- postgresql-16-main.log (stderr, log_line_prefix '%m [%p] %q%u@%d ')

PGLINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC \[(\d+)\] (?:(\w+)@(\w+) )?"
                    r"(LOG|ERROR|FATAL|PANIC|WARNING|DETAIL|HINT|CONTEXT|STATEMENT):  (.*)$")


def parse_pg(text):
    """One record per prefixed line (a message or one of its DETAIL/HINT/CONTEXT/STATEMENT parts),
    tab-led continuation lines joined to it."""
    out = []
    for line in _lines(text):
        if line.startswith("\t"):
            out[-1]["msg"] += "\n" + line[1:]
            continue
        m = PGLINE.match(line)
        assert m, line
        ts, pid, user, db, sev, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f"), "pid": int(pid), "user": user, "db": db,
                    "sev": sev, "msg": msg})
    return out


def pg_duration(msg):
    m = re.match(r"duration: (\d+\.\d{3}) ms  (statement|execute [^:]+): ", msg)
    return float(m.group(1)) if m else None


# --- redis-server.log (pid:role dd Mon yyyy hh:mm:ss.mmm level message)

RLINE = re.compile(r"^(\d+):([MCSX]) (\d\d) (\w{3}) (\d{4}) (\d\d:\d\d:\d\d)\.(\d{3}) ([.\-*#]) (.*)$")


def parse_redis(text):
    out = []
    for line in _lines(text):
        m = RLINE.match(line)
        assert m, line
        pid, role, d, mon, y, hms, msec, lvl, msg = m.groups()
        t = datetime.strptime(f"{d} {mon} {y} {hms}", "%d %b %Y %H:%M:%S") + timedelta(milliseconds=int(msec))
        out.append({"t": t, "pid": int(pid), "role": role, "level": lvl, "msg": msg})
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
