"""Independent parsers of the `queries-heldout25` fixtures: each reads a written file back into records
the way an operator's awk or grep would. `pacemaker.log` by Pacemaker's prefix (`Mon DD HH:MM:SS.mmm node
daemon [pid] (function) \\tlevel: message`); `rabbit@fh-mq-2.log` by RabbitMQ's prefix (`date time+00:00
[level] <pid> message`, one record a line, the lines of a multi-line message kept apart); `full` by
Asterisk's prefix (`[date time] LEVEL[lwp][callid] source: message`). Nothing here imports the writers.
"""

import math
import re
from collections import Counter
from datetime import datetime, timedelta

YEAR = 2026


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- pacemaker.log

PLINE = re.compile(r"^(\w{3} \d\d \d\d:\d\d:\d\d)\.(\d{3}) (\S+) (pacemaker[\w-]*) *\[(\d+)\] \((\w+)\) \t(\w+): (.*)$")


def parse_pacemaker(text):
    out = []
    for line in _lines(text):
        m = PLINE.match(line)
        assert m, line
        stamp, msec, node, daemon, pid, func, level, msg = m.groups()
        t = datetime.strptime(f"{YEAR} {stamp}", "%Y %b %d %H:%M:%S") + timedelta(milliseconds=int(msec))
        out.append({"t": t, "node": node, "daemon": daemon, "pid": int(pid), "func": func, "level": level, "msg": msg})
    return out


# --- rabbit@fh-mq-2.log

QLINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6})\+00:00 \[(\w+)\] <(\d+\.\d+\.\d+)>(?: (.*))?$")


def parse_rabbit(text):
    out = []
    for line in _lines(text):
        m = QLINE.match(line)
        assert m, line
        stamp, level, pid, msg = m.groups()
        out.append({"t": datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f"), "level": level, "pid": f"<{pid}>",
                    "msg": msg or ""})
    return out


CONN = re.compile(r"\(([\d.]+):(\d+) -> ([\d.]+):(\d+)(?: - ([^,)]+))?")


def conn_ip(msg):
    m = CONN.search(msg)
    return m.group(1) if m else None


# --- full (Asterisk)

ALINE = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\] ([A-Z]+)\[(\d+)\](?:\[(C-[0-9a-f]{8})\])? (.+?): (.*)$")


def parse_asterisk(text):
    out = []
    for line in _lines(text):
        m = ALINE.match(line)
        assert m, line
        stamp, level, tid, cid, src, msg = m.groups()
        out.append({"t": datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S"), "level": level, "tid": int(tid), "cid": cid,
                    "src": src, "msg": msg})
    return out


SUMMARY = re.compile(r"call-summary queue=(\S+) caller=(\S+) hold=(\d+) talk=(\d+) status=(\w+) agent=(\S+)")


def summaries(rows):
    """The `h` extension's `fh-summary.agi` records (AGI `VERBOSE` through res_agi.c): one line a call."""
    out = []
    for r in rows:
        if r["src"] == "res_agi.c" and r["msg"].startswith("fh-summary.agi: "):
            m = SUMMARY.fullmatch(r["msg"][len("fh-summary.agi: "):])
            assert m, r["msg"]
            q, caller, hold, talk, status, agent = m.groups()
            out.append({"t": r["t"], "queue": q, "caller": caller, "hold": int(hold), "talk": int(talk), "status": status,
                        "agent": agent, "cid": r["cid"]})
    return out


# --- generic helpers (as in the earlier sets)

def count(rows, pred):
    return sum(1 for r in rows if pred(r))


def group(rows, key, pred=lambda r: True):
    return Counter(key(r) for r in rows if pred(r))


def percentile_nearest_rank(values, p):
    v = sorted(values)
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)]


def minutes(t):
    return t - timedelta(seconds=t.second, microseconds=t.microsecond)
