"""Independent truth parsers for gen_node samples."""
import json
import re
from datetime import datetime

from common import UTC, fact, flt, iso_utc, p95, read_lines, top, write_truth


def pino():
    name = "fastify_pino.ndjson"
    recs = [json.loads(l) for l in read_lines(name)]
    rts = [r["responseTime"] for r in recs if "responseTime" in r]
    first50 = min(r["time"] for r in recs if r["level"] == 50)
    write_truth(name, "Fastify (pino NDJSON)", len(recs), "one JSON object per line = one event", [
        fact("entries at level 50 (error)", "level", "level", "count", sum(1 for r in recs if r["level"] == 50),
             flt("level", "level", "==", 50)),
        fact("entries with res.statusCode >= 500 (error entries and 'request completed' entries both carry it)",
             "res.statusCode", "status", "count",
             sum(1 for r in recs if r.get("res", {}).get("statusCode", 0) >= 500), flt("res.statusCode", "status", ">=", 500)),
        fact("largest responseTime", "responseTime", "duration", "max", max(rts), unit="ms"),
        fact("p95 responseTime over entries that have it", "responseTime", "duration", "p95", p95(rts), unit="ms"),
        fact("distinct process ids", "pid", "pid", "count_distinct", len(set(r["pid"] for r in recs))),
        fact("distinct req.remoteAddress", "req.remoteAddress", "client", "count_distinct",
             len(set(r["req"]["remoteAddress"] for r in recs if "req" in r))),
        fact("first level-50 entry (time is epoch milliseconds)", "time", "time", "first_time",
             iso_utc(datetime.fromtimestamp(first50 / 1000, UTC)), flt("level", "level", "==", 50)),
    ])


HDR = re.compile(r"^(trce|dbug|info|warn|fail|crit): (.+)\[(\d+)\]$")
FIN = re.compile(r"^      Request finished .* (\d+(?:\.\d+)?)ms$")


def dotnet():
    name = "aspnetcore_console.log"
    ev = []
    for l in read_lines(name):
        m = HDR.match(l)
        if m:
            ev.append([m.groups(), []])
        else:
            assert ev and l.startswith("      "), l
            ev[-1][1].append(l)
    durs = [float(FIN.match(b[0]).group(1)) for h, b in ev if b and FIN.match(b[0])]
    cmd = "Microsoft.EntityFrameworkCore.Database.Command"
    write_truth(name, "ASP.NET Core (default console logger, SimpleConsoleFormatter)", len(ev),
                "a line 'level: Category[EventId]' starts an event; the 6-space-indented lines after it "
                "(message, exception, SQL) belong to it; the log has no timestamps", [
        fact("fail entries", "level", "level", "count", sum(1 for h, _ in ev if h[0] == "fail"), flt("level", "level", "==", "fail")),
        fact("warn entries", "level", "level", "count", sum(1 for h, _ in ev if h[0] == "warn"), flt("level", "level", "==", "warn")),
        fact("most frequent category", "category", "logger", "top", top(h[1] for h, _ in ev)),
        fact("distinct categories", "category", "logger", "count_distinct", len(set(h[1] for h, _ in ev))),
        fact("entries in category " + cmd, "category", "logger", "count", sum(1 for h, _ in ev if h[1] == cmd),
             flt("category", "logger", "==", cmd)),
        fact("longest 'Request finished' elapsed time (the trailing NNN.NNNNms)", "duration", "duration", "max", max(durs),
             flt("message", "message", "contains", "Request finished"), unit="ms"),
    ])


def run():
    pino()
    dotnet()
