"""Independent parsers of the `queries-dev5` fixtures: each reads a written file back into
records the way an operator's awk, jq, csv module or grep would (a uWSGI request line is one
request stamped with its start; a Django log line owns its traceback; a Kafka log4j line owns
the exception lines under it; a PostgreSQL csvlog row may span lines inside quotes), so the
cases' truth comes from the text and not from the generators' bookkeeping. Nothing here
imports the writers.
"""

import csv
import io
import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def parse_alb(text):
    """AWS ALB access log: 30 space-separated fields, some double-quoted; `time` is when the
    response was sent; processing times are seconds or -1."""
    names = ["type", "time", "elb", "client", "target", "request_processing_time", "target_processing_time",
             "response_processing_time", "elb_status_code", "target_status_code", "received_bytes", "sent_bytes", "request",
             "user_agent", "ssl_cipher", "ssl_protocol", "target_group_arn", "trace_id", "domain_name", "chosen_cert_arn",
             "matched_rule_priority", "request_creation_time", "actions_executed", "redirect_url", "error_reason",
             "target_port_list", "target_status_code_list", "classification", "classification_reason", "conn_trace_id"]
    out = []
    for line in _lines(text):
        v = [x[1:-1] if x.startswith('"') else x for x in re.findall(r'"[^"]*"|\S+', line)]
        assert len(v) == len(names), (len(v), line)
        r = dict(zip(names, v))
        r["t"] = datetime.strptime(r["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        r["status"] = int(r["elb_status_code"])
        r["client_ip"] = r["client"].rsplit(":", 1)[0]
        r["tt"] = float(r["target_processing_time"])
        r["sent"] = int(r["sent_bytes"])
        method, url, _ = r["request"].split(" ")
        m = re.match(r"^https://([^/:]+)(?::\d+)?(/[^?]*)(\?.*)?$", url)
        r["method"], r["host"], r["path"] = method, m.group(1), m.group(2)
        r["tg"] = r["target_group_arn"].split(":targetgroup/")[1].split("/")[0]
        out.append(r)
    return out


def parse_uwsgi(text):
    """A uWSGI log: request lines, Django `asctime LEVEL logger: msg` lines (the lines under
    them that match nothing else are their traceback), the master's timestamped
    `Day Mon  d hh:mm:ss yyyy - msg` lines and its untimed lines (DAMN !, Respawned…)."""
    rq = re.compile(r"^\[pid: (\d+)\|app: \d+\|req: (\d+)/(\d+)\] (\S+) \(\) \{\d+ vars in \d+ bytes\} \[(.+?)\] (\S+) (\S+) => "
                    r"generated (\d+) bytes in (\d+) msecs \(HTTP/1\.1 (\d{3})\) \d+ headers in \d+ bytes \(\d+ switches on core \d+\)$")
    dj = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) ([\w.]+): (.*)$")
    ms = re.compile(r"^(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}) - (.*)$")
    untimed = re.compile(r"^(DAMN ! |Respawned uWSGI|\.\.\.The work of process|worker \d+ killed successfully)")
    reqs, logs, master = [], [], []
    last = None
    for line in _lines(text):
        m = rq.match(line)
        if m:
            pid, _, _, client, ts, meth, uri, size, msecs, status = m.groups()
            t = datetime.strptime(re.sub(" +", " ", ts), "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC)
            reqs.append({"t": t, "pid": int(pid), "client": client, "method": meth, "uri": uri, "path": uri.split("?")[0],
                         "size": int(size), "ms": int(msecs), "status": int(status)})
            last = None
            continue
        m = dj.match(line)
        if m:
            ts, milli, level, logger, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(milli) * 1000)
            last = {"t": t, "level": level, "logger": logger, "msg": msg, "tb": []}
            logs.append(last)
            continue
        m = ms.match(line)
        if m:
            t = datetime.strptime(re.sub(" +", " ", m.group(1)), "%a %b %d %H:%M:%S %Y").replace(tzinfo=UTC)
            master.append({"t": t, "msg": m.group(2)})
            last = None
            continue
        if untimed.match(line):
            master.append({"t": None, "msg": line})
            last = None
            continue
        assert last is not None, line
        last["tb"].append(line)
    for e in logs:
        e["exc"] = e["tb"][-1] if e["tb"] else None
    return reqs, logs, master


PG_COLS = ["log_time", "user_name", "database_name", "process_id", "connection_from", "session_id", "session_line_num",
           "command_tag", "session_start_time", "virtual_transaction_id", "transaction_id", "error_severity", "sql_state_code",
           "message", "detail", "hint", "internal_query", "internal_query_pos", "context", "query", "query_pos", "location",
           "application_name", "backend_type", "leader_pid", "query_id"]


def parse_pg_csv(text):
    """PostgreSQL csvlog (26 columns, RFC 4180 quoting, newlines inside quoted fields)."""
    out = []
    for row in csv.reader(io.StringIO(text)):
        assert len(row) == len(PG_COLS), row
        r = dict(zip(PG_COLS, row))
        r["t"] = datetime.strptime(r["log_time"], "%Y-%m-%d %H:%M:%S.%f UTC").replace(tzinfo=UTC)
        d = re.match(r"^duration: ([\d.]+) ms", r["message"])
        r["duration_ms"] = float(d.group(1)) if d else None
        r["duration_milli"] = int(d.group(1).replace(".", "")) if d else None  # thousandths, exact
        out.append(r)
    return out


def parse_kafka(text):
    """log4j `[yyyy-MM-dd HH:mm:ss,SSS] LEVEL message (logger)`; other lines belong to the
    record above (exceptions, stack frames)."""
    rx = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL) (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        if m:
            ts, milli, level, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(milli) * 1000)
            out.append({"t": t, "level": level, "msg": msg, "more": []})
        else:
            assert out, line
            out[-1]["more"].append(line)
    for r in out:
        p = re.match(r"^\[Partition (\S+) broker=\d+\] (Shrinking|Expanding) ISR from ([\d,]+) to ([\d,]+)", r["msg"])
        r["isr"] = (p.group(2), p.group(1), p.group(3), p.group(4)) if p else None
        r["nere"] = any(x.startswith("org.apache.kafka.common.errors.NotEnoughReplicasException") for x in r["more"])
        a = re.search(r"Error processing append operation on partition (\S+)", r["msg"])
        r["append_partition"] = a.group(1) if a else None
    return out


def parse_supervisord(text):
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (\w+) (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, milli, level, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(milli) * 1000)
        e = re.match(r"^exited: (\S+) \((.*); (not )?expected\)$", msg)
        out.append({"t": t, "level": level, "msg": msg, "exited": e.group(1) if e else None,
                    "how": e.group(2) if e else None, "expected": bool(e) and e.group(3) is None})
    return out


def parse_apache_error(text):
    """Apache 2.4 `[Day Mon dd hh:mm:ss.uuuuuu yyyy] [module:level] [pid N:tid T] (errno)text:
    [client ip:port] AHnnnnn: message`."""
    rx = re.compile(r"^\[(\w{3} \w{3} \d\d \d\d:\d\d:\d\d\.\d{6} \d{4})\] \[(\w+):(\w+)\] \[pid (\d+):tid (\d+)\] "
                    r"(?:(\(\d+\)[^:]+): )?(?:\[client ([\d.]+):\d+\] )?(AH\d{5}): (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, mod, level, pid, _, errno, client, code, msg = m.groups()
        t = datetime.strptime(ts, "%a %b %d %H:%M:%S.%f %Y").replace(tzinfo=UTC)
        out.append({"t": t, "module": mod, "level": level, "pid": int(pid), "errno": errno, "client": client, "code": code, "msg": msg})
    return out


def parse_mongo(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["ts"] = datetime.strptime(d["t"]["$date"], "%Y-%m-%dT%H:%M:%S.%f%z").astimezone(UTC)
        d.setdefault("attr", {})
        out.append(d)
    return out


def parse_audit(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        assert d["kind"] == "Event" and d["apiVersion"] == "audit.k8s.io/v1"
        d["ts"] = datetime.strptime(d["requestReceivedTimestamp"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        d["username"] = d["user"]["username"]
        d["code"] = d["responseStatus"]["code"]
        out.append(d)
    return out


def ranked(counter, n=1):
    """The top n of a Counter, asserting ranks 1..n are strictly above the next one."""
    best = counter.most_common(n + 1)
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
