"""Independent truth parsers for gen_web samples (read the written files back)."""
import json
import re
from datetime import datetime

from common import fact, flt, iso_utc, p95, read_lines, top, write_truth


def traefik():
    name = "traefik_access.json"
    recs = [json.loads(l) for l in read_lines(name) if l.strip()]
    st = [r["DownstreamStatus"] for r in recs]
    dur = [r["Duration"] for r in recs]
    last502 = max(r["StartUTC"] for r in recs if r["DownstreamStatus"] == 502)
    last502 = datetime.fromisoformat(last502[:19] + "+00:00")
    write_truth(name, "Traefik (JSON access log)", len(recs), "one JSON object per line = one event", [
        fact("requests answered with a 5xx status", "DownstreamStatus", "status", "count",
             sum(1 for s in st if s >= 500), flt("DownstreamStatus", "status", ">=", 500)),
        fact("distinct client IPs", "ClientHost", "client", "count_distinct", len(set(r["ClientHost"] for r in recs))),
        fact("slowest request", "Duration", "duration", "max", max(dur), unit="ns"),
        fact("p95 request duration", "Duration", "duration", "p95", p95(dur), unit="ns"),
        fact("busiest router", "RouterName", "router", "top", top(r["RouterName"] for r in recs)),
        fact("start time of the last 502", "StartUTC", "time", "last_time", iso_utc(last502),
             flt("DownstreamStatus", "status", "==", 502)),
    ])


ENVOY = re.compile(r'^\[(\S+)\] "(\S+) (\S+) (\S+)" (\d+) (\S+) (\d+) (\d+) (\d+) (\S+) "([^"]*)" "([^"]*)" "([^"]*)" "([^"]*)" "([^"]*)"$')


def envoy():
    name = "envoy_access.log"
    rows = []
    for l in read_lines(name):
        m = ENVOY.match(l)
        assert m, l
        rows.append(m.groups())
    st = [int(r[4]) for r in rows]
    dur = [int(r[8]) for r in rows]
    first504 = min(datetime.fromisoformat(r[0].replace("Z", "+00:00")) for r in rows if r[4] == "504")
    write_truth(name, "Envoy (default access log format)", len(rows), "one line = one event", [
        fact("responses with status >= 500", "response_code", "status", "count",
             sum(1 for s in st if s >= 500), flt("response_code", "status", ">=", 500)),
        fact("responses flagged UH (no healthy upstream)", "response_flags", "flags", "count",
             sum(1 for r in rows if r[5] == "UH"), flt("response_flags", "flags", "==", "UH")),
        fact("longest request duration", "duration", "duration", "max", max(dur), unit="ms"),
        fact("p95 request duration", "duration", "duration", "p95", p95(dur), unit="ms"),
        fact("most requested authority", "authority", "host", "top", top(r[13] for r in rows)),
        fact("distinct x-forwarded-for clients", "x-forwarded-for", "client", "count_distinct", len(set(r[10] for r in rows))),
        fact("first 504 response", "start_time", "time", "first_time", iso_utc(first504),
             flt("response_code", "status", "==", 504)),
    ])


NCSA = re.compile(r'^(\S+) (\S+) (\S+) \[([^\]]+)\] "([^"]*)" (\d{3}) (\S+) "([^"]*)" "([^"]*)"$')


def varnishncsa():
    name = "varnishncsa.log"
    rows = []
    for l in read_lines(name):
        m = NCSA.match(l)
        assert m, l
        rows.append(m.groups())
    st = [int(r[5]) for r in rows]
    sizes = [int(r[6]) for r in rows if r[6] != "-"]
    first503 = min(datetime.strptime(r[3], "%d/%b/%Y:%H:%M:%S %z") for r in rows if r[5] == "503")
    write_truth(name, "Varnish (varnishncsa default format)", len(rows), "one line = one event", [
        fact("responses with status >= 500", "status", "status", "count",
             sum(1 for s in st if s >= 500), flt("status", "status", ">=", 500)),
        fact("304 Not Modified responses", "status", "status", "count",
             sum(1 for s in st if s == 304), flt("status", "status", "==", 304)),
        fact("distinct client addresses", "client", "client", "count_distinct", len(set(r[0] for r in rows))),
        fact("first 503 (log times are +0100)", "time", "time", "first_time", iso_utc(first503),
             flt("status", "status", "==", 503)),
        fact("largest response body", "bytes", "bytes", "max", max(sizes), unit="bytes"),
        fact("requests by authenticated user editor", "user", "user", "count",
             sum(1 for r in rows if r[2] == "editor"), flt("user", "user", "==", "editor")),
    ])


def run():
    traefik()
    envoy()
    varnishncsa()
