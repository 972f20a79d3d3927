#!/usr/bin/env python3
"""Generates the held-out query set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
"""

import json
import random
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402
import writers_sys as S  # noqa: E402

SEED = 20270309
HERE = Path(__file__).resolve().parent
OUT = "queries-heldout.jsonl"

FIXTURES = [
    ("edge-access.log", W.edge_access), ("quotes-access.log", W.quotes_access),
    ("dispatch.jsonl", W.dispatch_jsonl), ("fleet-telemetry.log", W.fleet_logfmt),
    ("tracking-ingest.log", W.tracking_log4j), ("label-printer.log", W.label_printer),
    ("syslog", S.syslog_3164), ("billing-5424.log", S.billing_5424),
    ("journal-export.json", S.journal_export), ("haproxy-ingress.log", S.haproxy_ingress),
    ("postgres-main.log", S.postgres_main), ("mysql-slow-replica.log", S.mysql_replica),
    ("secure", S.secure_log), ("dmesg.txt", S.dmesg_t),
]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def web_facts(texts, f):
    ea = T.parse_common(texts["edge-access.log"])
    f["ea_502"] = T.count(ea, lambda r: r["status"] == 502)
    f["ea_5xx"] = T.count(ea, lambda r: r["status"] >= 500)
    f["ea_4xx"] = T.count(ea, lambda r: 400 <= r["status"] < 500)
    (f["ea_fail_url"], _), _ = T.top(T.group(ea, lambda r: r["path"], lambda r: r["status"] >= 500))
    (f["ea_429_ip"], f["ea_429_n"]), _ = T.top(T.group(ea, lambda r: r["ip"], lambda r: r["status"] == 429))
    f["ea_first_504"] = hms(min(r["t"] for r in ea if r["status"] == 504))
    (f["ea_502_peak"], _), _ = T.top(T.group(ea, lambda r: hm(r["t"]), lambda r: r["status"] == 502))
    f["ea_502_window"] = T.count(ea, lambda r: r["status"] == 502 and "04:10" <= hm(r["t"]) < "04:20")
    end = ea[-1]["t"]
    f["ea_404_last15"] = T.count(ea, lambda r: r["status"] == 404 and (end - r["t"]).total_seconds() <= 900)
    assert T.count(ea, lambda r: r["status"] == 404 and 780 < (end - r["t"]).total_seconds() <= 1020) == 0
    big = max(ea, key=lambda r: r["bytes"])
    f["ea_max_bytes"], f["ea_max_file"], f["ea_max_ip"] = big["bytes"], big["path"].rsplit("/", 1)[-1], big["ip"]
    f["ea_distinct_ip"] = len({r["ip"] for r in ea})
    (f["ea_top_ua"], _), _ = T.top(T.group(ea, lambda r: r["ua"]))

    qa = T.parse_common(texts["quotes-access.log"])
    rts = [r["rt"] for r in qa]
    a, b = T.percentile_nearest_rank(rts, 90), T.percentile_linear(rts, 90)
    assert abs(a - b) < 1e-9, (a, b)
    f["qa_p90"] = f"{a:.3f}"
    slow = max(qa, key=lambda r: r["rt"])
    f["qa_slow_path"] = slow["path"]
    by = {}
    for r in qa:
        by.setdefault(r["path"] if not r["path"].startswith("/v1/quote/Q") else "/v1/quote/{id}", []).append(r["rt"])
    assert max(by, key=lambda p: sum(by[p]) / len(by[p])) == slow["path"]
    f["qa_over_2s"] = T.count(qa, lambda r: r["rt"] > 2.0)
    assert T.count(qa, lambda r: 1.99 <= r["rt"] <= 2.01) == 0
    labels = [r["urt"] for r in qa if r["path"] == "/v1/labels"]
    mean_ms = round(sum(labels) * 1000) / len(labels)
    assert mean_ms == int(mean_ms)
    f["qa_labels_urt"], f["qa_labels_urt_ms"] = f"{mean_ms / 1000:.3f}", str(int(mean_ms))


def app_facts(texts, f):
    dj = T.parse_jsonl(texts["dispatch.jsonl"])
    f["dj_error"] = T.count(dj, lambda r: r["log.level"] == "error")
    (f["dj_fail_depot"], f["dj_fail_depot_n"]), _ = T.top(T.group(dj, lambda r: r["driver.depot"], lambda r: r["event.outcome"] == "failure"))
    big = max(dj, key=lambda r: r["event.duration_ms"])
    f["dj_max_ms"], f["dj_max_driver"] = big["event.duration_ms"], big["driver.id"]
    f["dj_drivers"] = len({r["driver.id"] for r in dj})
    (f["dj_top_err"], _), _ = T.top(T.group(dj, lambda r: r.get("error.type"), lambda r: r["log.level"] == "error"))

    ft = T.parse_logfmt(texts["fleet-telemetry.log"])
    f["ft_error"] = T.count(ft, lambda r: r["lvl"] == "error")
    (f["ft_jump_vehicle"], f["ft_jump_n"]), _ = T.top(T.group(ft, lambda r: r["vehicle"], lambda r: r["msg"] == "gps jump"))
    big = max((r for r in ft if "speed_kmh" in r), key=lambda r: int(r["speed_kmh"]))
    f["ft_max_speed"], f["ft_max_vehicle"] = int(big["speed_kmh"]), big["vehicle"]

    ti = T.parse_log4j(texts["tracking-ingest.log"])
    f["ti_mongo"] = T.count(ti, lambda e: "MongoTimeoutException" in e["text"])
    f["ti_mongo_lines"] = texts["tracking-ingest.log"].count("MongoTimeoutException")
    f["ti_soe"] = T.count(ti, lambda e: "StackOverflowError" in e["text"])
    f["ti_first_soe"] = hms(min(e["t"] for e in ti if "StackOverflowError" in e["text"]))
    f["ti_error"] = T.count(ti, lambda e: e["level"] == "ERROR")
    (f["ti_err_logger"], _), _ = T.top(T.group(ti, lambda e: e["logger"], lambda e: e["level"] == "ERROR"))

    lp = T.parse_generic(texts["label-printer.log"])
    end = lp[-1]["t"]
    f["lp_err_window"] = T.count(lp, lambda r: r["level"] == "ERROR" and "04:10" <= hm(r["t"]) < "04:20")
    assert T.count(lp, lambda r: r["level"] == "ERROR" and ("04:07" <= hm(r["t"]) < "04:10" or "04:20" <= hm(r["t"]) < "04:23")) == 0
    f["lp_warn_last5"] = T.count(lp, lambda r: r["level"] == "WARN" and (end - r["t"]).total_seconds() <= 300)
    assert T.count(lp, lambda r: r["level"] == "WARN" and 270 < (end - r["t"]).total_seconds() <= 480) == 0
    (f["lp_top_err"], f["lp_top_err_n"]), _ = T.top(T.group(lp, lambda r: re.sub(r"\d+", "N", r["msg"]), lambda r: r["level"] == "ERROR"))


def sys_facts(texts, f):
    sl = T.parse_3164(texts["syslog"])
    f["sl_removed"] = T.count(sl, lambda r: r["prog"] == "manifest-cleanup" and r["msg"].startswith("removed stale manifest"))
    f["sl_restarts"] = T.count(sl, lambda r: "scanner-bridge.service: Scheduled restart job" in r["msg"])
    f["sl_deferred"] = T.count(sl, lambda r: "status=deferred" in r["msg"])

    bl = T.parse_5424(texts["billing-5424.log"])
    f["bl_inv_warn"] = T.count(bl, lambda r: r["app"] == "invoice-gen" and r["sev"] == 4)
    (f["bl_retry_cust"], _), _ = T.top(T.group(bl, lambda r: r["sd"].get("customer"), lambda r: r["msgid"] == "RETRY"))
    f["bl_last_alert"] = hms(max(r["t"] for r in bl if r["sev"] <= 1))

    je = T.parse_journal(texts["journal-export.json"])
    f["je_scan_err"] = T.count(je, lambda r: r["_SYSTEMD_UNIT"] == "scanner-bridge.service" and r["prio"] <= 3)
    (f["je_warn_unit"], _), _ = T.top(T.group(je, lambda r: r["_SYSTEMD_UNIT"], lambda r: r["prio"] == 4))
    f["je_scan_first_err"] = hms(min(r["t"] for r in je if r["_SYSTEMD_UNIT"] == "scanner-bridge.service" and r["prio"] <= 3))

    hi = T.parse_haproxy(texts["haproxy-ingress.log"])
    f["hi_504"] = T.count(hi, lambda r: r["status"] == 504)
    (f["hi_504_srv"], f["hi_504_srv_n"]), _ = T.top(T.group(hi, lambda r: r["server"], lambda r: r["status"] == 504))
    (f["hi_504_peak"], _), _ = T.top(T.group(hi, lambda r: hm(r["t"]), lambda r: r["status"] == 504))
    f["hi_auth_401"] = T.count(hi, lambda r: r["backend"] == "bk_auth" and r["status"] == 401)

    pm = T.parse_postgres(texts["postgres-main.log"])
    f["pm_over_2s"] = T.count(pm, lambda r: (r["duration"] or 0) > 2000)
    slow = max((r for r in pm if r["duration"]), key=lambda r: r["duration"])
    f["pm_max"] = f"{slow['duration']:.3f}"
    assert "ping_history" in slow["query"]
    (f["pm_slow_app"], _), _ = T.top(T.group(pm, lambda r: r["app"], lambda r: (r["duration"] or 0) > 2000))
    f["pm_timeouts"] = T.count(pm, lambda r: r["msg"] == "canceling statement due to statement timeout")
    (f["pm_timeout_peak"], _), _ = T.top(T.group(pm, lambda r: hm(r["t"]), lambda r: r["msg"] == "canceling statement due to statement timeout"))

    mr = T.parse_mysql_slow(texts["mysql-slow-replica.log"])
    f["mr_lock_1s"] = T.count(mr, lambda r: r["lock_time"] > 1.0)
    slow = max(mr, key=lambda r: r["query_time"])
    f["mr_max"] = f"{slow['query_time']:.6f}"
    assert "stop_events" in slow["query"]
    f["mr_over_5"] = T.count(mr, lambda r: r["query_time"] > 5)

    se = T.parse_auth(texts["secure"])
    f["se_failed"] = T.count(se, lambda r: r["failed"])
    (f["se_top_ip"], f["se_top_ip_n"]), _ = T.top(T.group(se, lambda r: r["ip"], lambda r: r["failed"]))
    (f["se_top_user"], _), _ = T.top(T.group(se, lambda r: r["invalid_user"], lambda r: r["invalid_user"]))
    f["se_accepted"] = T.count(se, lambda r: r["accepted"])

    dm = T.parse_dmesg(texts["dmesg.txt"])
    f["dm_kills"] = T.count(dm, lambda r: r["killed"])
    (f["dm_top_comm"], _), _ = T.top(T.group(dm, lambda r: r["killed"][1], lambda r: r["killed"]))
    f["dm_last_top"] = hms(max(r["t"] for r in dm if r["killed"] and r["killed"][1] == f["dm_top_comm"]))
    f["dm_io_sdb"] = T.count(dm, lambda r: "I/O error, dev sdb" in r["msg"])
    f["dm_segv"] = sorted(T.group(dm, lambda r: r["segfault"], lambda r: r["segfault"]))
    java_0413 = [r for r in dm if r["killed"] and r["killed"][1] == "java" and hm(r["t"]) == "04:13"]
    assert len(java_0413) == 1
    f["dm_0413_pid"] = str(java_0413[0]["killed"][0])


def main():
    texts = {name: w(random.Random(SEED * 100 + i)) for i, (name, w) in enumerate(FIXTURES)}
    f = {}
    web_facts(texts, f)
    app_facts(texts, f)
    sys_facts(texts, f)
    from cases import cases

    rows = cases(f)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if (fx / name).read_text() != text]
        if (HERE / OUT).read_text() != out_cases:
            stale.append(OUT)
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries-heldout: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text)
    (HERE / OUT).write_text(out_cases)
    total = sum(len(t.encode()) for t in texts.values())
    print(f"queries-heldout: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")


if __name__ == "__main__":
    main()
