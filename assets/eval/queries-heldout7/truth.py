"""Independent parsers of the `queries-heldout7` fixtures: each reads a written file back into
records, the way an operator's jq, awk or grep would, so the cases' truth comes from the text
and not from the writers' bookkeeping (nothing here imports them). A RabbitMQ line whose
message is empty or a banner row is kept as its own record (3.12 prefixes every line of a
multi-line message), so only named messages are ever counted.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc
YEAR = 2031  # klog lines carry no year


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def parse_traefik(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.strptime(d["time"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        out.append(d)
    return out


def parse_caddy(text):
    out = []
    for line in _lines(text):
        d = json.loads(line)
        d["t"] = datetime.fromtimestamp(d["ts"], UTC)
        d["stem"] = d["request"]["uri"].split("?")[0]
        out.append(d)
    return out


MYSQL = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})Z (\d+) \[(System|ERROR|Warning|Note)\] \[(MY-\d{6})\] \[(\w+)\] (.*)$")


def parse_mysql(text):
    out = []
    for line in _lines(text):
        m = MYSQL.match(line)
        assert m, line
        ts, thread, prio, code, sub, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC), "thread": int(thread),
                    "prio": prio, "code": code, "sub": sub, "msg": msg})
    return out


RABBIT = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6})\+00:00 \[(debug|info|notice|warning|error)\] (<[\d.]+>) ?(.*)$")


def parse_rabbit(text):
    out = []
    for line in _lines(text):
        m = RABBIT.match(line)
        assert m, line
        ts, level, pid, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC), "level": level, "pid": pid, "msg": msg})
    return out


KLOG = re.compile(r"^([IWEF])(\d{4} \d\d:\d\d:\d\d\.\d{6}) +(\d+) ([\w.]+:\d+)\] (.*)$")


def parse_klog(text):
    out = []
    for line in _lines(text):
        m = KLOG.match(line)
        assert m, line
        sev, ts, _, src, msg = m.groups()
        pod = re.search(r' pod="([^"]+)"', msg)
        out.append({"t": datetime.strptime(f"{YEAR}{ts}", "%Y%m%d %H:%M:%S.%f").replace(tzinfo=UTC), "sev": sev, "src": src,
                    "msg": msg, "pod": pod.group(1) if pod else None})
    return out


APACHE = re.compile(r"^\[(\w{3} \w{3} \d\d \d\d:\d\d:\d\d\.\d{6} \d{4})\] \[(\w+):(\w+)\] \[pid (\d+):tid (\d+)\] "
                    r"(?:\((\d+)\)[^:]+: )?(?:\[client ([\d.]+):(\d+)\] )?(AH\d{5}): (.*)$")


def parse_apache(text):
    out = []
    for line in _lines(text):
        m = APACHE.match(line)
        assert m, line
        ts, mod, level, _, _, errno, client, _, code, msg = m.groups()
        out.append({"t": datetime.strptime(ts, "%a %b %d %H:%M:%S.%f %Y").replace(tzinfo=UTC), "module": mod, "level": level,
                    "client": client, "code": code, "msg": msg})
    return out


TRACING = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6})Z +(TRACE|DEBUG|INFO|WARN|ERROR) ([\w:]+): (.*)$")


def parse_tracing(text):
    out = []
    for line in _lines(text):
        m = TRACING.match(line)
        assert m, line
        ts, level, target, msg = m.groups()
        kv = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', msg))
        out.append({"t": datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC), "level": level, "target": target,
                    "msg": msg, "kv": {k: v.strip('"') for k, v in kv.items()}})
    return out


def ranked(counter, n=1):
    """The top n of a Counter, asserting ranks 1..n are strictly above the next one."""
    best = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:n + 1]
    assert len(best) >= n, best
    for i in range(min(n, len(best) - 1)):
        assert best[i][1] > best[i + 1][1], best
    return best[:n]


def least(counter):
    worst = sorted(counter.items(), key=lambda kv: (kv[1], str(kv[0])))
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
