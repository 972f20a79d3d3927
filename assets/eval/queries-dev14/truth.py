"""Independent parsers of the `queries-dev14` fixtures: each reads a written file back into
records the way an operator's awk/grep/jq would. Nothing here imports the writers.

- Gin (release mode) stdout+stderr: `[GIN] 2036/04/18 - 01:12:41 | 500 |    2.104118ms |
  10.20.1.11 | POST     "/v1/..."` access lines (latency a Go `time.Duration` string: `ns`,
  `µs`, `ms`, `s`, `1m4s`), `Error #NN: ...` lines belonging to the access line above, the
  standard `log` package's `2036/04/18 01:31:09 msg` lines, gin's Recovery blocks (ANSI red,
  `[Recovery] ... panic recovered:`, a stack, ANSI reset) and a Go runtime `fatal error:` dump
  (no timestamp; it ends at the next timestamped line).
- Laravel (Monolog LineFormatter): entries start `[Y-m-d H:i:s] channel.LEVEL: `; the JSON
  context at the end of the entry may span lines (raw line breaks inside its strings); an entry
  without context ends in two spaces.
- `aws logs tail --format detailed`: `<isoformat> <log stream> <message>`; a line that does not
  start with a timestamp continues the previous event's message.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime
from decimal import Decimal


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text[:-1].split("\n")


# --- Go durations

_DUR_TOKEN = re.compile(r"(\d+(?:\.\d+)?)(ns|µs|us|ms|s|m|h)")
_UNIT_NS = {"ns": 1, "µs": 1000, "us": 1000, "ms": 10 ** 6, "s": 10 ** 9, "m": 60 * 10 ** 9, "h": 3600 * 10 ** 9}


def go_duration_ns(s):
    """`12.345678ms`, `38.211µs`, `1m4s` -> integer nanoseconds."""
    pos, total = 0, Decimal(0)
    for m in _DUR_TOKEN.finditer(s):
        assert m.start() == pos, s
        total += Decimal(m.group(1)) * _UNIT_NS[m.group(2)]
        pos = m.end()
    assert pos == len(s) and pos > 0, s
    assert total == total.to_integral_value(), s
    return int(total)


# --- gin

GIN = re.compile(r'^\[GIN\] (\d{4}/\d\d/\d\d - \d\d:\d\d:\d\d) \| (\d{3}) \| +(\S+) \| +(\S+) \| (\S+) +("(?:[^"\\]|\\.)*")$')
GOLOG = re.compile(r"^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) (.*)$")
RECOVERY = re.compile(r"^\x1b\[31m(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) \[Recovery\] (\d{4}/\d\d/\d\d - \d\d:\d\d:\d\d) panic recovered:$")


def parse_gin(text):
    out = {"req": [], "log": [], "panic": [], "fatal": []}
    state = None
    for line in _lines(text):
        if state == "panic":
            if line == "\x1b[0m":
                state = None
            elif "err" not in out["panic"][-1]:
                out["panic"][-1]["err"] = line
            else:
                assert re.match(r"^(/\S+:\d+ \(0x[0-9a-f]+\)|\t.+)$", line), line
            continue
        m = GIN.match(line)
        if m:
            state = None
            t = datetime.strptime(m.group(1), "%Y/%m/%d - %H:%M:%S")
            url = json.loads(m.group(6))
            path, _, q = url.partition("?")
            out["req"].append(dict(t=t, status=int(m.group(2)), ns=go_duration_ns(m.group(3)), lat=m.group(3),
                                   ip=m.group(4), method=m.group(5), url=url, path=path, q=q, errors=[]))
            continue
        m = re.match(r"^Error #(\d\d): (.*)$", line)
        if m:
            assert state is None and out["req"], line
            assert int(m.group(1)) == len(out["req"][-1]["errors"]) + 1
            out["req"][-1]["errors"].append(m.group(2))
            continue
        m = RECOVERY.match(line)
        if m:
            out["panic"].append(dict(t=datetime.strptime(m.group(1), "%Y/%m/%d %H:%M:%S")))
            state = "panic"
            continue
        m = GOLOG.match(line)
        if m:
            state = None
            out["log"].append(dict(t=datetime.strptime(m.group(1), "%Y/%m/%d %H:%M:%S"), msg=m.group(2)))
            continue
        if line.startswith("fatal error: "):
            out["fatal"].append(dict(msg=line[len("fatal error: "):],
                                     after=out["req"][-1]["t"] if out["req"] else None))
            state = "fatal"
            continue
        if line == "":
            continue
        assert state == "fatal", repr(line)
    return out


# --- laravel

LV_HEAD = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\] (\w+)\.([A-Z]+): (.*)$")
EXC = re.compile(r"^\[object\] \(([\w\\]+)\(code: (\w+)\): ")


def parse_laravel(text):
    entries = []
    for line in _lines(text):
        m = LV_HEAD.match(line)
        if m:
            entries.append(dict(t=datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S"), channel=m.group(2),
                                level=m.group(3), body=m.group(4)))
        else:
            assert entries, line
            entries[-1]["body"] += "\n" + line
    for e in entries:
        b = e.pop("body")
        assert b.endswith(" "), b[-40:]
        if b.endswith("  ") and not b.endswith("} "):
            e["msg"], e["ctx"] = b[:-2], {}
            continue
        b = b[:-1]
        for m in re.finditer(r" \{", b):
            try:
                ctx = json.loads(b[m.start() + 1:], strict=False)
            except ValueError:
                continue
            if isinstance(ctx, dict):
                e["msg"], e["ctx"] = b[:m.start()], ctx
                break
        else:
            raise AssertionError(f"no context in {b[:120]!r}")
        x = e["ctx"].get("exception")
        if x is not None:
            mm = EXC.match(x)
            assert mm, x[:120]
            e["exc_class"], e["exc_code"] = mm.group(1), mm.group(2)
    return entries


# --- aws logs tail (Lambda)

TAIL = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{6})?)\+00:00 (\d{4}/\d\d/\d\d/\[\$LATEST\][0-9a-f]{32}) (.*)$")
RID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def _tail_t(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%f" if "." in s else "%Y-%m-%dT%H:%M:%S")


def parse_lambda(text):
    events = []
    for line in _lines(text):
        m = TAIL.match(line)
        if m:
            events.append(dict(t=_tail_t(m.group(1)), stream=m.group(2), msg=m.group(3)))
        else:
            assert events, line
            events[-1]["msg"] += "\n" + line
    inv = {}
    inits = []
    for e in events:
        msg = e["msg"]
        if msg.startswith("INIT_START "):
            inits.append(e)
            continue
        m = re.match(rf"^START RequestId: ({RID}) Version: \$LATEST$", msg)
        if m:
            assert m.group(1) not in inv
            inv[m.group(1)] = dict(rid=m.group(1), start=e["t"], stream=e["stream"], lines=[], timeout=None,
                                   exit=None)
            continue
        m = re.match(rf"^END RequestId: ({RID})$", msg)
        if m:
            inv[m.group(1)]["end"] = e["t"]
            continue
        if msg.startswith("REPORT RequestId: "):
            parts = msg.rstrip("\t").split("\t")
            rid = parts[0][len("REPORT RequestId: "):]
            rep = {}
            for p in parts[1:]:
                k, v = p.split(": ", 1)
                rep[k] = v
            inv[rid]["report"] = rep
            inv[rid]["report_t"] = e["t"]
            continue
        m = re.match(rf"^(\S+Z) ({RID}) Task timed out after ([\d.]+) seconds$", msg)
        if m:
            inv[m.group(2)]["timeout"] = e["t"]
            continue
        m = re.match(rf"^RequestId: ({RID}) Error: (.*)$", msg, re.S)
        if m:
            inv[m.group(1)]["exit"] = (e["t"], m.group(2))
            continue
        m = re.match(rf"^(\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{{3}})Z\t({RID})\t(INFO|WARN|ERROR|DEBUG)\t(.*)$", msg, re.S)
        assert m, msg[:200]
        assert abs((datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f") - e["t"]).total_seconds()) < 0.001
        inv[m.group(2)]["lines"].append(dict(t=e["t"], level=m.group(3), msg=m.group(4)))
    out = []
    for d in inv.values():
        rep = d["report"]
        d["duration_ms"] = Decimal(rep["Duration"].removesuffix(" ms"))
        d["billed_ms"] = int(rep["Billed Duration"].removesuffix(" ms"))
        d["mem_mb"] = int(rep["Max Memory Used"].removesuffix(" MB"))
        d["init_ms"] = Decimal(rep["Init Duration"].removesuffix(" ms")) if "Init Duration" in rep else None
        d["status"] = rep.get("Status")
        rec = [x for x in d["lines"] if x["msg"].startswith("received ")]
        assert len(rec) == 1, d["rid"]
        m = re.match(r"^received (evt_\w+) type=(\S+) order=(\S+)$", rec[0]["msg"])
        d["evt"], d["type"], d["order"] = m.groups()
        out.append(d)
    out.sort(key=lambda d: d["start"])
    return out, inits, events


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


def minute(t):
    return t.replace(second=0, microsecond=0)


def template(path):
    """A path with its ids replaced (`/v1/showtimes/ST-90417/seats` -> `/v1/showtimes/:id/seats`)."""
    return re.sub(r"/(ST-\d+|H-[0-9a-f]+)(?=/|$)", "/:id", path)
