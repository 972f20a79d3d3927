"""Independent parsers of the `queries-dev3` fixtures: each reads a written file back into
records (one per event: a Python traceback belongs to its Celery line, a Rails request is
its `Completed` line plus the error lines tagged with the same request id, an audit event is
its records sharing one serial), the way an operator's awk, jq or grep would, so the cases'
truth comes from the text and not from the generators' bookkeeping. Nothing here imports
the writers.
"""

import json
import math
import re
from collections import Counter
from datetime import datetime, timezone

UTC = timezone.utc


def _lines(text):
    assert text.endswith("\n") and "\r" not in text
    return text.splitlines()


def parse_caddy(text):
    """Caddy v2 JSON access log: epoch `ts`, nested `request`."""
    out = []
    for line in _lines(text):
        d = json.loads(line)
        req = d["request"]
        t = datetime.fromtimestamp(round(d["ts"] * 1e6) / 1e6, UTC)
        out.append({"t": t, "ip": req["remote_ip"], "host": req["host"], "method": req["method"], "uri": req["uri"],
                    "path": req["uri"].split("?")[0], "status": d["status"], "size": d["size"], "duration": d["duration"],
                    "level": d["level"]})
    return out


def parse_envoy(text):
    """Envoy's default format: `[start] "METHOD PATH PROTO" code flags rx tx duration ust "xff" "ua" "id" "authority" "upstream"`."""
    rx = re.compile(r'^\[(\S+)\] "(\S+) (\S+) (\S+)" (\d{3}) (\S+) (\d+) (\d+) (\d+) (\S+) "([^"]*)" "([^"]*)" "([^"]*)" "([^"]*)" "([^"]*)"$')
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, method, path, _, code, flags, rx_b, tx_b, dur, ust, xff, ua, rid, auth, up = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        out.append({"t": t, "method": method, "path": path, "status": int(code), "flags": flags, "duration": int(dur),
                    "authority": auth, "upstream": up})
    return out


def parse_rabbitmq(text):
    """RabbitMQ 3.12: every line carries `date time+00:00 [level] <pid>`; consecutive lines of
    one pid at one instant form one message."""
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6})\+00:00 \[(\w+)\] (<[\d.]+>) ?(.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, level, pid, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
        if out and out[-1]["t"] == t and out[-1]["pid"] == pid and out[-1]["level"] == level and (
                out[-1]["msg"].endswith(":") or msg.startswith("*") or msg == "" or out[-1]["lines"][-1] == ""):
            out[-1]["lines"].append(msg)
        else:
            out.append({"t": t, "level": level, "pid": pid, "msg": msg, "lines": [msg]})
    for e in out:
        e["text"] = "\n".join(e["lines"])
        c = re.search(r"\((\d+\.\d+\.\d+\.\d+):\d+ -> ", e["msg"])
        e["client"] = c.group(1) if c else None
    return out


def parse_celery(text):
    """`[YYYY-MM-DD HH:MM:SS,mmm: LEVEL/Process] msg`; other lines (tracebacks) continue the event."""
    rx = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}): (\w+)/([\w-]+)\] (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        if m:
            ts, ms, level, proc, msg = m.groups()
            t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(ms) * 1000)
            task = re.match(r"Task ([\w.]+)\[[0-9a-f-]+\] (received|succeeded in ([\d.]+)s|raised unexpected|retry)", msg)
            out.append({"t": t, "level": level, "proc": proc, "msg": msg, "lines": [line],
                        "task": task.group(1) if task else None,
                        "outcome": task.group(2).split(" ")[0] if task else None,
                        "runtime": float(task.group(3)) if task and task.group(3) else None})
        else:
            assert out, line
            out[-1]["lines"].append(line)
    return out


def parse_jenkins(text):
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\+0000 \[id=\d+\]\t(\w+)\t(\S+): (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, level, src, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
        done = re.match(r"(\S+) #(\d+) completed: (\w+)$", msg)
        out.append({"t": t, "level": level, "src": src, "msg": msg,
                    "job": done.group(1) if done else None, "build": int(done.group(2)) if done else None,
                    "result": done.group(3) if done else None})
    return out


def parse_exim(text):
    """Exim main log: `date time [msgid] flag address ...`; flags <= => -> == ** and others."""
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        t = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        rest = m.group(2)
        f = re.match(r"(\w{6}-\w{6}-\w{2}) (<=|=>|->|==|\*\*) (\S+)", rest)
        r = {"t": t, "rest": rest, "flag": f.group(2) if f else None, "addr": f.group(3) if f else None}
        r["domain"] = r["addr"].split("@")[1] if r["addr"] and "@" in r["addr"] else None
        r["rejected_rcpt"] = " rejected RCPT " in rest
        out.append(r)
    return out


def parse_coredns(text):
    rx = re.compile(r'^(\S+) \[(\w+)\] ([\d.]+):(\d+) - (\d+) "(\S+) IN (\S+) (\w+) \d+ \w+ \d+" (\w+) (\S+) (\d+) ([\d.]+)s$')
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, _, client, _, _, qtype, name, proto, rcode, flags, size, dur = m.groups()
        t = datetime.strptime(ts[:26] + "Z", "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        out.append({"t": t, "client": client, "qtype": qtype, "name": name, "rcode": rcode, "duration": float(dur),
                    "dur_text": dur})
    return out


def parse_fail2ban(text):
    rx = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (\S+) +\[(\d+)\]: (\w+) +(.*)$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, ms, src, _, level, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC, microsecond=int(ms) * 1000)
        a = re.match(r"\[([\w-]+)\] (Found|Ban|Unban) (\S+)", msg)
        out.append({"t": t, "src": src, "level": level, "msg": msg, "jail": a.group(1) if a else None,
                    "action": a.group(2) if a else None, "ip": a.group(3) if a else None})
    return out


def parse_audit(text):
    """auditd RAW: one record a line; an event is the records sharing `audit(SECONDS:SERIAL)`."""
    rx = re.compile(r"^type=(\w+) msg=audit\((\d+)\.(\d{3}):(\d+)\): (.*)$")
    records = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        typ, sec, ms, serial, body = m.groups()
        t = datetime.fromtimestamp(int(sec), UTC).replace(microsecond=int(ms) * 1000)
        kv = dict(re.findall(r'(\w[\w-]*)=("[^"]*"|\S+)', body.replace("msg='", "").rstrip("'")))
        kv = {k: v.strip('"') for k, v in kv.items()}
        records.append({"type": typ, "t": t, "serial": int(serial), "body": body, "kv": kv, "line": line})
    return records


def parse_es_slowlog(text):
    rx = re.compile(r"^\[(\S+)\]\[(\w+) *\]\[index\.search\.slowlog\.(\w+)\] \[(\S+)\] \[(\S+)\]\[(\d+)\] "
                    r"took\[([^\]]+)\], took_millis\[(\d+)\], .*$")
    out = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        ts, level, phase, node, index, shard, took, ms = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S,%f").replace(tzinfo=UTC)
        out.append({"t": t, "level": level, "phase": phase, "node": node, "index": index, "took_millis": int(ms)})
    return out


def parse_pipes(text):
    """nginx `$time_iso8601|$remote_addr|$request_method|$host|$request_uri|$status|$body_bytes_sent|
    $request_time|$upstream_response_time|$http_x_rider_id`."""
    out = []
    for line in _lines(text):
        f = line.split("|")
        assert len(f) == 10, line
        out.append({"t": datetime.fromisoformat(f[0]), "ip": f[1], "method": f[2], "host": f[3], "uri": f[4],
                    "status": int(f[5]), "bytes": int(f[6]), "request_time": float(f[7]), "rider": f[9]})
    return out


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[prefix + k] = v
    return out


def parse_ecs(text):
    out = []
    for line in _lines(text):
        r = flatten(json.loads(line))
        r["t"] = datetime.strptime(r["@timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        out.append(r)
    return out


def parse_rails(text):
    """Ruby Logger lines `S, [time #pid] LEVEL -- : [request-id] msg`; one record a request
    (its Started, Processing and Completed lines and the ERROR lines with its id)."""
    rx = re.compile(r"^([DIWEF]), \[(\S+) #(\d+)\] +(\w+) -- : \[([0-9a-f-]{36})\] (.*)$")
    reqs = {}
    order = []
    for line in _lines(text):
        m = rx.match(line)
        assert m, line
        _, ts, pid, level, rid, msg = m.groups()
        t = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC)
        r = reqs.get(rid)
        if r is None:
            r = reqs[rid] = {"rid": rid, "errors": []}
            order.append(rid)
        if msg.startswith("Started "):
            s = re.match(r'Started (\S+) "([^"]+)"', msg)
            r["t_start"], r["method"], r["path"] = t, s.group(1), s.group(2)
        elif msg.startswith("Processing by "):
            r["action"] = msg.split()[2]
        elif msg.startswith("Completed "):
            c = re.match(r"Completed (\d{3}) .* in (\d+)ms", msg)
            r["t"], r["status"], r["ms"] = t, int(c.group(1)), int(c.group(2))
        elif level == "ERROR" and msg.strip():
            r["errors"].append((t, msg))
    return [reqs[rid] for rid in order]


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
    """The other common reading of nearest rank: floor(p n) (0-based), as `sort | awk 'NR==int(n*p)'` might."""
    v = sorted(values)
    return v[min(len(v) - 1, int(p / 100 * len(v)))]
