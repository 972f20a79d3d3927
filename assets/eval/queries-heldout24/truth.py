"""Independent parsers of the `queries-heldout24` fixtures: each reads a written file back into records
the way an operator's awk or grep would. `slurmctld.log` by its `[ISO8601.ms]` prefix; `ceph.log` by the
cluster log's `<time>+0000 <entity> (<rank>) <seq> : <channel> [<level>]` prefix; `dnsmasq.log` by
dnsmasq's `ctime()` stamp and `ident[pid]:` (the year is not logged: the night is 2037-05-14). Nothing
here imports the writers.
"""

import math
import re
from collections import Counter
from datetime import datetime, timedelta

YEAR = 2037


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


# --- slurmctld.log

SLINE = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{3})\] (.*)$")


def expand_hostlist(s):
    """`cn[049-072]`, `cn[017,019-020]`, `gpu03` -> the node names."""
    m = re.fullmatch(r"([a-z]+)\[([\d,\-]+)\]", s)
    if not m:
        assert re.fullmatch(r"[a-z]+\d+", s), s
        return [s]
    prefix, body = m.groups()
    out = []
    for part in body.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += [f"{prefix}{i:0{len(a)}d}" for i in range(int(a), int(b) + 1)]
        else:
            out.append(prefix + part)
    return out


def parse_slurm(text):
    out = []
    for line in _lines(text):
        m = SLINE.match(line)
        assert m, line
        t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(milliseconds=int(m.group(2)))
        msg = m.group(3)
        r = {"t": t, "msg": msg, "kind": None}
        pats = [
            ("submit", r"_slurm_rpc_submit_batch_job: JobId=(?P<jid>\d+) InitPrio=\d+ usec=(?P<usec>\d+)"),
            ("alloc", r"sched: Allocate JobId=(?P<jid>\d+) NodeList=(?P<nl>\S+) #CPUs=(?P<cpus>\d+) Partition=(?P<part>\w+)"),
            ("backfill", r"sched/backfill: _start_job: Started JobId=(?P<jid>\d+) in (?P<part>\w+) on (?P<nl>\S+)"),
            ("salloc", r"sched: _slurm_rpc_allocate_resources JobId=(?P<jid>\d+) NodeList=(?P<nl>\S+) usec=(?P<usec>\d+)"),
            ("exit", r"_job_complete: JobId=(?P<jid>\d+) WEXITSTATUS (?P<code>\d+)"),
            ("done", r"_job_complete: JobId=(?P<jid>\d+) done"),
            ("timelimit", r"Time limit exhausted for JobId=(?P<jid>\d+)"),
            ("kill", r"_slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=(?P<jid>\d+) uid (?P<uid>\d+)"),
            ("signal", r"job_signal: 9 of running JobId=(?P<jid>\d+) successful 0x8004"),
            ("cleanup", r"cleanup_completing: JobId=(?P<jid>\d+) completion process took (?P<s>\d+) seconds"),
            ("notresp", r"error: Nodes (?P<nl>\S+) not responding"),
            ("resp", r"Node (?P<node>\S+) now responding"),
            ("rebooted", r"validate_node_specs: Node (?P<node>\S+) unexpectedly rebooted boot_time=\d+ last response=\d+"),
            ("returned", r"node (?P<node>\S+) returned to service"),
            ("requeue", r"requeue job JobId=(?P<jid>\d+) due to failure of node (?P<node>\S+)"),
            ("killfail", r"Killing JobId=(?P<jid>\d+) on failed node (?P<node>\S+)"),
            ("reason", r"update_node: node (?P<node>\S+) reason set to: (?P<reason>.+)"),
            ("state", r"update_node: node (?P<node>\S+) state set to (?P<state>[A-Z]+)"),
        ]
        for kind, p in pats:
            mm = re.fullmatch(p, msg)
            if mm:
                r["kind"] = kind
                r.update(mm.groupdict())
                break
        assert r["kind"], msg
        out.append(r)
    return out


# --- ceph.log

CLINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})\+0000 (\S+) \((\S+)\) (\d+) : (cluster|audit) \[(DBG|INF|WRN|ERR)\] (.*)$")
_BU = {"B": 1, "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30, "TiB": 2 ** 40, "PiB": 2 ** 50}


def parse_ceph(text):
    out = []
    for line in _lines(text):
        m = CLINE.match(line)
        assert m, line
        t = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S") + timedelta(microseconds=int(m.group(2)))
        r = {"t": t, "ent": m.group(3), "rank": m.group(4), "seq": int(m.group(5)), "ch": m.group(6), "lvl": m.group(7),
             "msg": m.group(8)}
        pm = re.search(r"; ([\d.]+) (B|KiB|MiB|GiB|TiB)/s rd, ([\d.]+) (B|KiB|MiB|GiB|TiB)/s wr, ([\d.]+k?) op/s", r["msg"])
        if r["msg"].startswith("pgmap v"):
            assert pm, r["msg"]
            r["wr"] = float(pm.group(3)) * _BU[pm.group(4)]
            r["wr_s"] = f"{pm.group(3)} {pm.group(4)}/s"
        out.append(r)
    return out


# --- dnsmasq.log

DLINE = re.compile(r"^([A-Z][a-z]{2}) ([ \d]\d) (\d\d:\d\d:\d\d) (dnsmasq(?:-dhcp|-tftp)?)\[(\d+)\]: (.*)$")


def parse_dnsmasq(text):
    out = []
    for line in _lines(text):
        m = DLINE.match(line)
        assert m, line
        t = datetime.strptime(f"{YEAR} {m.group(1)} {int(m.group(2))} {m.group(3)}", "%Y %b %d %H:%M:%S")
        out.append({"t": t, "ident": m.group(4), "msg": m.group(6)})
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
