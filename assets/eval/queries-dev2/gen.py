#!/usr/bin/env python3
"""Generates the `queries-dev2` set: the fixture logs (seeded), their truth (parsed back from
the written files by `truth.py`) and `queries-dev2.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev2.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import random
import sys
from datetime import timedelta
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402
import writers_sys as S  # noqa: E402

SEED = 20270309
HERE = Path(__file__).resolve().parent
CRI = "tidefeed-7c9d5b8f4-x2lqp_ferry_tidefeed-3f1a9c0e.log"

FIXTURES = [
    ("edge-access.log", W.edge_nginx), ("www-vhosts_access.log", W.www_apache),
    ("ingress-access.json", W.ingress_traefik), ("booking-api.jsonl", W.booking_jsonl),
    ("manifest-svc.log", W.manifest_java), (CRI, W.tidefeed_cri),
    ("syslog", S.syslog_debian), ("journal-kf-app-02.json", S.journal_json), ("secure", S.secure_log),
    ("mariadb-slow.log", S.mariadb_slow), ("dmesg.txt", S.dmesg_t),
]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def build_fixtures():
    return {name: writer(random.Random(SEED * 100 + i)) for i, (name, writer) in enumerate(FIXTURES)}


def normalise(path):
    """A path with its ids folded (what "which endpoint" means to an operator)."""
    import re
    return re.sub(r"/(KF[A-Z0-9]{6}|\d+)(?=/|$)", "/{id}", path)


def same_by_any_definition(values, p):
    a = T.percentile_nearest_rank(values, p)
    b = T.percentile_linear(values, p)
    c = T.percentile_weibull(values, p)
    assert abs(a - b) < 1e-9 and abs(a - c) < 1e-9, (p, a, b, c)
    return a


def window_edges_empty(rows, pred, end, minutes, slack):
    """No matching row within `slack` minutes either side of "the last `minutes` minutes"."""
    lo, hi = (minutes - slack) * 60, (minutes + slack) * 60
    assert T.count(rows, lambda r: pred(r) and lo <= (end - r["t"]).total_seconds() <= hi) == 0


def facts(texts):
    """Every figure a case asks for, computed from the written text."""
    f = {}
    # --- edge-access.log (nginx, rt= uct= urt=)
    ed = T.parse_nginx_timed(texts["edge-access.log"])
    f["ed_lines"] = len(ed)
    f["ed_5xx"] = T.count(ed, lambda r: r["status"] >= 500)
    assert f["ed_5xx"] * 1000 == 42 * len(ed), (f["ed_5xx"], len(ed))
    f["ed_5xx_pct"] = "4.2%"
    in_window = lambda r, a, b: a <= hm(r["t"]) < b  # noqa: E731
    f["ed_504_window"] = T.count(ed, lambda r: r["status"] == 504 and in_window(r, "04:10", "04:20"))
    assert T.count(ed, lambda r: r["status"] == 504 and (in_window(r, "04:05", "04:10") or in_window(r, "04:20", "04:30"))) == 0
    [(f["ed_504_peak"], _)] = T.ranked(T.group(ed, lambda r: hm(r["t"]), lambda r: r["status"] == 504))
    for key in (lambda r: r["path"], lambda r: normalise(r["path"])):
        [(top5, _)] = T.ranked(T.group(ed, key, lambda r: r["status"] >= 500))
        [(top4, _)] = T.ranked(T.group(ed, key, lambda r: 400 <= r["status"] < 500))
        assert (top5, top4) == ("/api/v3/fares/quote", "/api/v3/sailings/search"), (top5, top4)
    f["ed_5xx_path"], f["ed_4xx_path"] = top5, top4
    f["ed_5xx_ips"] = [ip for ip, _ in T.ranked(T.group(ed, lambda r: r["ip"], lambda r: r["status"] >= 500), 3)]
    f["ed_distinct_ip"] = len({r["ip"] for r in ed})
    f["ed_p90"] = f"{same_by_any_definition([r['rt'] for r in ed], 90):.3f}"
    f["ed_over_2s"] = T.count(ed, lambda r: r["rt"] > 2.0)
    assert T.count(ed, lambda r: 1.99 <= r["rt"] <= 2.01) == 0
    slow = max(ed, key=lambda r: r["rt"])
    f["ed_max_rt"], f["ed_max_path"] = f"{slow['rt']:.3f}", slow["path"]
    f["ed_delete_ok"] = T.count(ed, lambda r: r["method"] == "DELETE" and r["path"].startswith("/api/v3/bookings/")
                                and 200 <= r["status"] < 300)
    end = ed[-1]["t"]
    f["ed_499_last15"] = T.count(ed, lambda r: r["status"] == 499 and (end - r["t"]).total_seconds() <= 900)
    window_edges_empty(ed, lambda r: r["status"] == 499, end, 15, 3)

    # --- www-vhosts_access.log (Apache vhost_combined + %D)
    ww = T.parse_vhost_combined(texts["www-vhosts_access.log"])
    f["ww_least_vhost"], f["ww_least_n"] = T.least(T.group(ww, lambda r: r["vhost"]))
    slow = max(ww, key=lambda r: r["us"])
    f["ww_max_us"], f["ww_max_path"] = slow["us"], slow["path"]
    ms = slow["us"] / 1000
    f["ww_max_ms"] = [f"{ms:.1f}", f"{ms:,.1f}", f"{round(ms)}", f"{round(ms):,}", f"{ms / 1000:.3f} s",
                      f"{ms / 1000:.3f}s", f"{ms / 1000:.2f} s", f"{ms / 1000:.2f}s", f"{ms / 1000:.3f} 秒"]
    assert not any(alt in str(slow["us"]) for alt in f["ww_max_ms"])  # the raw %D does not pass

    # --- ingress-access.json (Traefik)
    tr = T.parse_traefik(texts["ingress-access.json"])
    f["tr_502"] = T.count(tr, lambda r: r["DownstreamStatus"] == 502)
    f["tr_504"] = T.count(tr, lambda r: r["DownstreamStatus"] == 504)
    f["tr_first_502"] = hms(min(r["t"] for r in tr if r["DownstreamStatus"] == 502))
    [(f["tr_502_peak"], _)] = T.ranked(T.group(tr, lambda r: hm(r["t"]), lambda r: r["DownstreamStatus"] == 502))
    f["tr_retry"] = T.count(tr, lambda r: r["RetryAttempts"] > 0)
    med = same_by_any_definition([r["Duration"] for r in tr], 50)
    assert med % 1_000_000 == 0
    f["tr_median_ms"] = str(med // 1_000_000)
    [(f["tr_5xx_svc"], _)] = T.ranked(T.group(tr, lambda r: r["ServiceName"], lambda r: r["DownstreamStatus"] >= 500))

    # --- booking-api.jsonl
    bk = T.parse_jsonl(texts["booking-api.jsonl"], "when")
    err = lambda r: r["sev"] == "ERROR"  # noqa: E731
    f["bk_error"] = T.count(bk, err)
    [(f["bk_err_peak"], _)] = T.ranked(T.group(bk, lambda r: hm(r["t"]), err))
    [(f["bk_err_acct"], f["bk_err_acct_n"])] = T.ranked(T.group(bk, lambda r: r.get("pax.acct"), err))
    f["bk_err_accts"] = len({r["pax.acct"] for r in bk if err(r) and "pax.acct" in r})
    seats = [r["req.dur_ms"] for r in bk if r.get("req.route") == "/bookings/{ref}/seats"]
    assert sum(seats) % len(seats) == 0
    f["bk_seats_mean"] = str(sum(seats) // len(seats))
    f["bk_first_feu"] = hms(min(r["t"] for r in bk if r.get("fault.class") == "FareEngineUnavailable"))

    # --- manifest-svc.log (log4j2, stack traces)
    mf = T.parse_log4j(texts["manifest-svc.log"])
    f["mf_refused"] = T.count(mf, lambda e: "Connection refused" in e["text"])
    assert f["mf_refused"] == texts["manifest-svc.log"].count("Connection refused")  # events == lines
    assert "connection refused" not in texts["manifest-svc.log"].replace("Connection refused", "").lower()
    f["mf_first_rto"] = hms(min(e["t"] for e in mf if "Read timed out" in e["text"]))
    end = mf[-1]["t"]
    f["mf_warn_last15"] = T.count(mf, lambda e: e["level"] == "WARN" and (end - e["t"]).total_seconds() <= 900)
    window_edges_empty(mf, lambda e: e["level"] == "WARN", end, 15, 3)
    [(f["mf_err_logger"], _)] = T.ranked(T.group(mf, lambda e: e["logger"], lambda e: e["level"] == "ERROR"))

    # --- tidefeed CRI log
    cr = T.parse_cri(texts[CRI])
    f["cr_deadline"] = T.count(cr, lambda r: "deadline exceeded" in r["line"])
    assert texts[CRI].count("deadline exceeded") == f["cr_deadline"]
    [(f["cr_top_station"], f["cr_top_station_n"])] = T.ranked(
        T.group(cr, lambda r: r["station"], lambda r: "gauge poll failed" in r["msg"]))

    # --- syslog (Debian, RFC 3339 stamps)
    sy = T.parse_syslog_3339(texts["syslog"])
    fe_kill = lambda r: r["msg"].startswith("fare-engine.service: Main process exited, code=killed, status=9/KILL")  # noqa: E731
    f["sy_kills"] = T.count(sy, fe_kill)
    assert f["sy_kills"] == T.count(sy, lambda r: "fare-engine.service: Scheduled restart job" in r["msg"])
    assert T.count(sy, lambda r: "restart counter" in r["msg"] and "fare-engine" not in r["msg"]) == 0
    f["sy_first_kill"] = hms(min(r["t"] for r in sy if fe_kill(r)))
    f["sy_timed_out"] = T.count(sy, lambda r: "timed out" in r["msg"].lower())
    assert f["sy_timed_out"] == T.count(sy, lambda r: "status=deferred" in r["msg"])

    # --- journal
    jn = T.parse_journal(texts["journal-kf-app-02.json"])
    f["jn_bp_restarts"] = T.count(jn, lambda r: r.get("UNIT") == "berth-planner.service" and "Scheduled restart job" in r["MESSAGE"])
    assert f["jn_bp_restarts"] == T.count(jn, lambda r: r["MESSAGE"].startswith("Started berth-planner.service"))
    assert f["jn_bp_restarts"] == T.count(jn, lambda r: "berth-planner.service: Main process exited" in r["MESSAGE"])
    [(f["jn_err_unit"], _)] = T.ranked(T.group(jn, lambda r: r["_SYSTEMD_UNIT"], lambda r: r["prio"] <= 3))

    # --- secure (sshd)
    se = T.parse_secure(texts["secure"])
    f["se_failed_9"] = T.count(se, lambda r: r["failed"] and r["t"].day == 9)
    f["se_failed_8"] = T.count(se, lambda r: r["failed"] and r["t"].day == 8)
    [(f["se_top_ip"], f["se_top_ip_n"])] = T.ranked(T.group(se, lambda r: r["ip"], lambda r: r["failed"]))
    f["se_invalid_names"] = len({r["invalid_user"] for r in se if r["invalid_user"]})
    f["se_deploy_last"] = hms(max(r["t"] for r in se if r["accepted"] == ("publickey", "deploy")))

    # --- mariadb-slow.log
    my = T.parse_mariadb_slow(texts["mariadb-slow.log"])
    f["my_entries"] = len(my)
    f["my_over_5"] = T.count(my, lambda e: e["query_time"] > 5)
    assert T.count(my, lambda e: 4.95 <= e["query_time"] <= 5.05) == 0
    by_time = sorted(my, key=lambda e: -e["query_time"])
    assert by_time[0]["query_time"] > by_time[1]["query_time"] > by_time[2]["query_time"] > by_time[3]["query_time"]
    f["my_max"] = by_time[0]["qt_text"]
    f["my_max_table"] = "crew_rosters"
    assert "crew_rosters" in by_time[0]["query"]
    second = by_time[1]
    assert "sailing_legs" in second["query"]
    f["my_2nd_user"], f["my_2nd_rows"] = second["user"], second["rows_examined"]
    [(f["my_top_user"], _)] = T.ranked(T.group(my, lambda e: e["user"]))

    # --- dmesg.txt (dmesg -T)
    dm = T.parse_dmesg_t(texts["dmesg.txt"])
    f["dm_kills"] = T.count(dm, lambda r: r["killed"])
    f["dm_first_java"] = hms(min(r["t"] for r in dm if r["killed"] and r["killed"][1] == "java"))
    f["dm_last_celery"] = hms(max(r["t"] for r in dm if r["killed"] and r["killed"][1] == "celery"))
    [(f["dm_drop_src"], _)] = T.ranked(T.group(dm, lambda r: r["drop"][0], lambda r: r["drop"]))
    ports = {r["drop"][1] for r in dm if r["drop"] and r["drop"][0] == f["dm_drop_src"]}
    assert len(ports) == 1
    f["dm_drop_port"] = str(ports.pop())

    # the two timelines: which came first must be unambiguous
    assert f["dm_first_java"] < f["tr_first_502"] and f["sy_first_kill"] < f["bk_first_feu"]
    return f


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n, CRI)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if not (fx / name).is_file() or (fx / name).read_text() != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{x} (not generated)" for x in extra]
        cases_file = HERE / "queries-dev2.jsonl"
        if not cases_file.is_file() or cases_file.read_text() != out_cases:
            stale.append("queries-dev2.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries-dev2: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text)
    (HERE / "queries-dev2.jsonl").write_text(out_cases)
    total = sum(len(t.encode()) for t in texts.values())
    print(f"queries-dev2: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")
        for name, text in texts.items():
            print(f"  {name}: {text.count(chr(10))} lines, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
