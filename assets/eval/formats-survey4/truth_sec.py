"""Independent truth parsers for gen_sec / gen_zeek samples."""
import json
import re
from datetime import datetime

from common import UTC, fact, flt, iso_utc, p95, read_lines, top, write_truth

SYS = re.compile(r"^([A-Z][a-z]{2}) ([ \d]\d) (\d{2}:\d{2}:\d{2}) (\S+) ([^\[:]+)(?:\[(\d+)\])?: (.*)$")


def maillog():
    name = "maillog"
    rows = []
    for l in read_lines(name):
        m = SYS.match(l)
        assert m, l
        rows.append(m.groups())
    msgs = [r[6] for r in rows]
    delays = [float(m.group(1)) for s in msgs for m in [re.search(r", delay=([\d.]+),", s)] if m]
    write_truth(name, "Postfix + Dovecot maillog (rsyslog traditional format)", len(rows),
                "one line = one event; syslog timestamps have no year, so no time facts are asked", [
        fact("deliveries with status=sent", "status", "status", "count", sum(1 for s in msgs if re.search(r"\bstatus=sent\b", s)),
             flt("status", "status", "==", "sent")),
        fact("deliveries with status=deferred", "status", "status", "count", sum(1 for s in msgs if re.search(r"\bstatus=deferred\b", s)),
             flt("status", "status", "==", "deferred")),
        fact("NOQUEUE rejections (message contains 'NOQUEUE: reject')", "message", "message", "count",
             sum(1 for s in msgs if "NOQUEUE: reject" in s), flt("message", "message", "contains", "NOQUEUE: reject")),
        fact("largest delay= value", "delay", "duration", "max", max(delays), unit="s"),
        fact("most frequent syslog program tag (without pid)", "program", "program", "top", top(r[4] for r in rows)),
        fact("failed IMAP logins (message contains 'auth failed')", "message", "message", "count",
             sum(1 for s in msgs if "auth failed" in s), flt("message", "message", "contains", "auth failed")),
    ])


def suricata():
    name = "suricata_eve.json"
    recs = [json.loads(l) for l in read_lines(name)]
    ages = [r["flow"]["age"] for r in recs if "age" in r.get("flow", {})]
    alerts = [r for r in recs if r["event_type"] == "alert"]
    first_sev1 = min(datetime.strptime(r["timestamp"], "%Y-%m-%dT%H:%M:%S.%f%z") for r in alerts if r["alert"]["severity"] == 1)
    write_truth(name, "Suricata (eve.json)", len(recs), "one JSON object per line = one event (stats records included)", [
        fact("alert events", "event_type", "type", "count", len(alerts), flt("event_type", "type", "==", "alert")),
        fact("alerts with alert.severity 1", "alert.severity", "severity", "count",
             sum(1 for r in alerts if r["alert"]["severity"] == 1), flt("alert.severity", "severity", "==", 1)),
        fact("most frequent alert.signature", "alert.signature", "signature", "top", top(r["alert"]["signature"] for r in alerts)),
        fact("distinct src_ip", "src_ip", "client", "count_distinct", len(set(r["src_ip"] for r in recs if "src_ip" in r))),
        fact("largest flow.age", "flow.age", "duration", "max", max(ages), unit="s"),
        fact("first alert with severity 1", "timestamp", "time", "first_time", iso_utc(first_sev1), flt("alert.severity", "severity", "==", 1)),
    ])


def zeek():
    name = "zeek_conn.log"
    lines = read_lines(name)
    fields = [l for l in lines if l.startswith("#fields\t")][0].split("\t")[1:]
    rows = [dict(zip(fields, l.split("\t"))) for l in lines if not l.startswith("#")]
    durs = [float(r["duration"]) for r in rows if r["duration"] != "-"]
    first_rej = min(float(r["ts"]) for r in rows if r["conn_state"] == "REJ")
    write_truth(name, "Zeek conn.log (default TSV)", len(rows), "one data line = one event; '#' header/footer lines are not events", [
        fact("connections with conn_state S0", "conn_state", "state", "count", sum(1 for r in rows if r["conn_state"] == "S0"),
             flt("conn_state", "state", "==", "S0")),
        fact("connections with service dns", "service", "service", "count", sum(1 for r in rows if r["service"] == "dns"),
             flt("service", "service", "==", "dns")),
        fact("distinct id.orig_h", "id.orig_h", "client", "count_distinct", len(set(r["id.orig_h"] for r in rows))),
        fact("longest duration (unset '-' ignored)", "duration", "duration", "max", max(durs), unit="s"),
        fact("p95 duration over rows where it is set", "duration", "duration", "p95", p95(durs), unit="s"),
        fact("most frequent id.resp_p", "id.resp_p", "port", "top", int(top(r["id.resp_p"] for r in rows))),
        fact("first REJ connection (ts is epoch seconds)", "ts", "time", "first_time",
             iso_utc(datetime.fromtimestamp(first_rej, UTC)), flt("conn_state", "state", "==", "REJ")),
    ])


def run():
    maillog()
    suricata()
    zeek()
