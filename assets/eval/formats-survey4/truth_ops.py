"""Independent truth parsers for gen_ops samples."""
import re
from datetime import datetime

from common import UTC, fact, flt, iso_utc, p95, read_lines, top, write_truth

RMQ = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+\d{2}:\d{2}) \[([a-z]+)\] (<\d+\.\d+\.\d+>) (.*)$")


def rabbitmq():
    name = "rabbitmq.log"
    rows = []
    for l in read_lines(name):
        m = RMQ.match(l)
        assert m, repr(l)
        rows.append(m.groups())
    def ts(r):
        return datetime.fromisoformat(r[0])
    first_err = min(ts(r) for r in rows if r[1] == "error")
    last_up = max(ts(r) for r in rows if "Server startup complete" in r[3])
    write_truth(name, "RabbitMQ 3.12 (default log format)", len(rows),
                "one line = one event (RabbitMQ repeats the timestamp/level/pid prefix on every line of a multi-line message)", [
        fact("warning lines", "level", "level", "count", sum(1 for r in rows if r[1] == "warning"), flt("level", "level", "==", "warning")),
        fact("error lines", "level", "level", "count", sum(1 for r in rows if r[1] == "error"), flt("level", "level", "==", "error")),
        fact("lines mentioning missed heartbeats", "message", "message", "count", sum(1 for r in rows if "missed heartbeats" in r[3]),
             flt("message", "message", "contains", "missed heartbeats")),
        fact("distinct Erlang process ids (<0.N.0>)", "pid", "pid", "count_distinct", len(set(r[2] for r in rows))),
        fact("first error line", "time", "time", "first_time", iso_utc(first_err), flt("level", "level", "==", "error")),
        fact("last 'Server startup complete'", "time", "time", "last_time", iso_utc(last_up),
             flt("message", "message", "contains", "Server startup complete")),
    ])


def go_ms(s):
    total = 0.0
    for num, unit in re.findall(r"([\d.]+)(ns|µs|us|ms|s|m|h)", s):
        total += float(num) * {"ns": 1e-6, "µs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4, "h": 3.6e6}[unit]
    return total


HC = re.compile(r"^(\S+) \[([A-Z]+)\]\s+([\w.\-]+): (.*)$")


def consul():
    name = "consul.log"
    rows = []
    for l in read_lines(name):
        m = HC.match(l)
        assert m, l
        rows.append(m.groups())
    lat = [go_ms(m.group(1)) for r in rows for m in [re.search(r"\blatency=(\S+)", r[3])] if m]
    won = min(datetime.fromisoformat(r[0].replace("Z", "+00:00")) for r in rows if "election won" in r[3])
    write_truth(name, "HashiCorp Consul agent (hclog text format)", len(rows), "one line = one event", [
        fact("ERROR lines", "level", "level", "count", sum(1 for r in rows if r[1] == "ERROR"), flt("level", "level", "==", "ERROR")),
        fact("WARN lines", "level", "level", "count", sum(1 for r in rows if r[1] == "WARN"), flt("level", "level", "==", "WARN")),
        fact("most frequent module (logger name before the colon)", "module", "logger", "top", top(r[2] for r in rows)),
        fact("largest latency= value (Go durations in mixed units)", "latency", "duration", "max", round(max(lat), 6), unit="ms"),
        fact("p95 latency= over lines that have it", "latency", "duration", "p95", round(p95(lat), 6), unit="ms"),
        fact("lines with check=service:web-1", "check", "check", "count",
             sum(1 for r in rows if re.search(r"\bcheck=service:web-1(\s|$)", r[3])), flt("check", "check", "==", "service:web-1")),
        fact("first 'election won'", "time", "time", "first_time", iso_utc(won), flt("message", "message", "contains", "election won")),
    ])


LF = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)')


def logfmt(line):
    d = {}
    for k, v in LF.findall(line):
        if v.startswith('"'):
            v = v[1:-1].replace('\\"', '"')
        d.setdefault(k, v)  # first occurrence wins (Prometheus repeats 'caller')
    return d


def prometheus():
    name = "prometheus.log"
    rows = [logfmt(l) for l in read_lines(name)]
    durs = [go_ms(r["duration"]) / 1000 for r in rows if "duration" in r]
    ready = max(datetime.fromisoformat(r["ts"].replace("Z", "+00:00")) for r in rows
                if r.get("msg") == "Server is ready to receive web requests.")
    write_truth(name, "Prometheus 2.x (logfmt)", len(rows), "one line = one event", [
        fact("level=error lines", "level", "level", "count", sum(1 for r in rows if r["level"] == "error"), flt("level", "level", "==", "error")),
        fact("level=warn lines", "level", "level", "count", sum(1 for r in rows if r["level"] == "warn"), flt("level", "level", "==", "warn")),
        fact("most frequent component (lines that have one)", "component", "component", "top", top(r["component"] for r in rows if "component" in r)),
        fact("largest duration= value (Go durations in mixed units)", "duration", "duration", "max", round(max(durs), 9), unit="s"),
        fact("'Error sending alert' lines", "msg", "message", "count", sum(1 for r in rows if r.get("msg") == "Error sending alert"),
             flt("msg", "message", "==", "Error sending alert")),
        fact("distinct scrape_pool values", "scrape_pool", "pool", "count_distinct", len(set(r["scrape_pool"] for r in rows if "scrape_pool" in r))),
        fact("last 'Server is ready to receive web requests.'", "ts", "time", "last_time", iso_utc(ready),
             flt("msg", "message", "==", "Server is ready to receive web requests.")),
    ])


def run():
    rabbitmq()
    consul()
    prometheus()
