"""Independent truth parsers for gen_db samples."""
import csv
import io
import json
import re
from datetime import datetime

from common import OUT, fact, flt, iso_naive, iso_utc, p95, read_lines, top, write_truth


def postgres():
    name = "postgresql.csv"
    with open(OUT + "/" + name, newline="") as f:
        rows = list(csv.reader(f))
    for r in rows:
        assert len(r) == 26, (len(r), r)
    durs = [float(m.group(1)) for r in rows for m in [re.match(r"duration: ([\d.]+) ms", r[13])] if m]
    first_fatal = min(datetime.strptime(r[0], "%Y-%m-%d %H:%M:%S.%f UTC") for r in rows if r[11] == "FATAL")
    first_fatal = first_fatal.replace(tzinfo=__import__("datetime").timezone.utc)
    write_truth(name, "PostgreSQL 15 (csvlog)", len(rows),
                "one CSV record = one event (quoted fields may contain newlines, so a record can span several lines); no header row", [
        fact("ERROR records", "error_severity", "level", "count", sum(1 for r in rows if r[11] == "ERROR"),
             flt("error_severity", "level", "==", "ERROR")),
        fact("FATAL records", "error_severity", "level", "count", sum(1 for r in rows if r[11] == "FATAL"),
             flt("error_severity", "level", "==", "FATAL")),
        fact("unique-violation records (sql_state_code 23505)", "sql_state_code", "code", "count",
             sum(1 for r in rows if r[12] == "23505"), flt("sql_state_code", "code", "==", "23505")),
        fact("distinct user_name among client backend records", "user_name", "user", "count_distinct",
             len(set(r[1] for r in rows if r[23] == "client backend")), flt("backend_type", "backend_type", "==", "client backend")),
        fact("longest statement duration (message 'duration: N ms')", "duration", "duration", "max", max(durs), unit="ms"),
        fact("first FATAL record (log_time, UTC)", "log_time", "time", "first_time", iso_utc(first_fatal),
             flt("error_severity", "level", "==", "FATAL")),
    ])


def mongodb():
    name = "mongod.log"
    recs = [json.loads(l) for l in read_lines(name)]
    durs = [r["attr"]["durationMillis"] for r in recs if "durationMillis" in r.get("attr", {})]
    first_e = min(r["t"]["$date"] for r in recs if r["s"] == "E")
    write_truth(name, "MongoDB 7 (structured JSON log)", len(recs), "one JSON object per line = one event", [
        fact("warning entries (s = W)", "s", "level", "count", sum(1 for r in recs if r["s"] == "W"), flt("s", "level", "==", "W")),
        fact("slow query entries (msg = Slow query)", "msg", "message", "count", sum(1 for r in recs if r["msg"] == "Slow query"),
             flt("msg", "message", "==", "Slow query")),
        fact("largest attr.durationMillis", "attr.durationMillis", "duration", "max", max(durs), unit="ms"),
        fact("p95 attr.durationMillis over entries that have it", "attr.durationMillis", "duration", "p95", p95(durs), unit="ms"),
        fact("namespace with most entries (attr.ns)", "attr.ns", "namespace", "top",
             top(r["attr"]["ns"] for r in recs if "ns" in r.get("attr", {}))),
        fact("first error entry (s = E)", "t", "time", "first_time",
             iso_utc(datetime.fromisoformat(first_e)), flt("s", "level", "==", "E")),
    ])


RD = re.compile(r"^(\d+):([XCSM]) (\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2}\.\d{3}) ([.\-*#]) (.*)$")


def redis():
    name = "redis-server.log"
    rows = []
    for l in read_lines(name):
        m = RD.match(l)
        assert m, l
        rows.append(m.groups())
    def ts(r):
        return datetime.strptime(r[2], "%d %b %Y %H:%M:%S.%f")
    first_err = min(ts(r) for r in rows if "Background saving error" in r[4])
    last_ready = max(ts(r) for r in rows if "Ready to accept connections" in r[4])
    write_truth(name, "Redis 7 (server log)", len(rows), "one line = one event", [
        fact("warning-level lines (level mark '#')", "level", "level", "count", sum(1 for r in rows if r[3] == "#"),
             flt("level", "level", "==", "#")),
        fact("lines written by a child process (role C)", "role", "role", "count", sum(1 for r in rows if r[1] == "C"),
             flt("role", "role", "==", "C")),
        fact("distinct pids", "pid", "pid", "count_distinct", len(set(r[0] for r in rows))),
        fact("first 'Background saving error' (local time, no zone)", "time", "time", "first_time", iso_naive(first_err),
             flt("message", "message", "contains", "Background saving error")),
        fact("last 'Ready to accept connections' (local time, no zone)", "time", "time", "last_time", iso_naive(last_ready),
             flt("message", "message", "contains", "Ready to accept connections")),
        fact("lines containing 'Connection with replica'", "message", "message", "count",
             sum(1 for r in rows if "Connection with replica" in r[4]), flt("message", "message", "contains", "Connection with replica")),
    ])


def run():
    postgres()
    mongodb()
    redis()
