"""Independent truth parsers for gen_cloud samples."""
import json
import re
from datetime import datetime

from common import fact, flt, iso_utc, p95, read_lines, top, write_truth

TOK = re.compile(r'"[^"]*"|\S+')


def alb():
    name = "aws_alb.log"
    rows = [TOK.findall(l) for l in read_lines(name)]
    for r in rows:
        assert len(r) == 29, (len(r), r)
    es = [int(r[8]) for r in rows]
    tpt = [float(r[6]) for r in rows]
    tpt200 = [float(r[6]) for r in rows if r[8] == "200"]
    last502 = max(datetime.fromisoformat(r[1].replace("Z", "+00:00")) for r in rows if r[8] == "502")
    write_truth(name, "AWS Application Load Balancer (access log)", len(rows), "one line = one event", [
        fact("requests with elb_status_code >= 500", "elb_status_code", "status", "count",
             sum(1 for s in es if s >= 500), flt("elb_status_code", "status", ">=", 500)),
        fact("gateway timeouts (elb_status_code 504)", "elb_status_code", "status", "count",
             sum(1 for s in es if s == 504), flt("elb_status_code", "status", "==", 504)),
        fact("distinct client IPs (port excluded)", "client", "client", "count_distinct",
             len(set(r[3].rsplit(":", 1)[0] for r in rows))),
        fact("largest target_processing_time", "target_processing_time", "duration", "max", max(tpt), unit="s"),
        fact("p95 target_processing_time of requests with elb_status_code 200", "target_processing_time", "duration",
             "p95", p95(tpt200), flt("elb_status_code", "status", "==", 200), unit="s"),
        fact("target that served most requests", "target:port", "target", "top", top(r[4] for r in rows)),
        fact("time of the last 502", "time", "time", "last_time", iso_utc(last502),
             flt("elb_status_code", "status", "==", 502)),
    ])


def cloudfront():
    name = "cloudfront.tsv"
    lines = read_lines(name)
    fields = [l for l in lines if l.startswith("#Fields:")][0][len("#Fields: "):].split(" ")
    rows = [dict(zip(fields, l.split("\t"))) for l in lines if not l.startswith("#")]
    for r in rows:
        assert len(r) == len(fields)
    st = [int(r["sc-status"]) for r in rows]
    tt = [float(r["time-taken"]) for r in rows]
    first504 = min(datetime.fromisoformat(r["date"] + "T" + r["time"] + "+00:00") for r in rows if r["sc-status"] == "504")
    write_truth(name, "Amazon CloudFront (standard access log)", len(rows),
                "one data line = one event; '#' header lines are not events", [
        fact("responses with sc-status >= 500", "sc-status", "status", "count",
             sum(1 for s in st if s >= 500), flt("sc-status", "status", ">=", 500)),
        fact("edge results of type Error", "x-edge-result-type", "result", "count",
             sum(1 for r in rows if r["x-edge-result-type"] == "Error"), flt("x-edge-result-type", "result", "==", "Error")),
        fact("distinct viewer IPs", "c-ip", "client", "count_distinct", len(set(r["c-ip"] for r in rows))),
        fact("longest time-taken", "time-taken", "duration", "max", max(tt), unit="s"),
        fact("p95 time-taken", "time-taken", "duration", "p95", p95(tt), unit="s"),
        fact("busiest edge location", "x-edge-location", "location", "top", top(r["x-edge-location"] for r in rows)),
        fact("first 504 (date+time columns, UTC)", "time", "time", "first_time", iso_utc(first504),
             flt("sc-status", "status", "==", 504)),
    ])


def gcp():
    name = "gcp_cloud_run.jsonl"
    recs = [json.loads(l) for l in read_lines(name)]
    reqs = [r for r in recs if "httpRequest" in r]
    lat = [float(r["httpRequest"]["latency"].rstrip("s")) for r in reqs]
    last503 = max(datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")) for r in reqs if r["httpRequest"]["status"] == 503)
    write_truth(name, "Google Cloud Logging export (Cloud Run, JSON lines)", len(recs),
                "one JSON object per line = one event (request entries and stdout/system entries alike)", [
        fact("entries with severity ERROR", "severity", "level", "count",
             sum(1 for r in recs if r.get("severity") == "ERROR"), flt("severity", "level", "==", "ERROR")),
        fact("requests with httpRequest.status >= 500", "httpRequest.status", "status", "count",
             sum(1 for r in reqs if r["httpRequest"]["status"] >= 500), flt("httpRequest.status", "status", ">=", 500)),
        fact("largest httpRequest.latency", "httpRequest.latency", "duration", "max", max(lat), unit="s"),
        fact("p95 httpRequest.latency over entries that have it", "httpRequest.latency", "duration", "p95", p95(lat), unit="s"),
        fact("distinct httpRequest.remoteIp", "httpRequest.remoteIp", "client", "count_distinct",
             len(set(r["httpRequest"]["remoteIp"] for r in reqs))),
        fact("timestamp of the last 503", "timestamp", "time", "last_time", iso_utc(last503),
             flt("httpRequest.status", "status", "==", 503)),
    ])


def run():
    alb()
    cloudfront()
    gcp()
