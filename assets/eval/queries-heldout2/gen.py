#!/usr/bin/env python3
"""Generates the `queries-heldout2` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout2.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout2.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure (this is a held-out set: don't, unless retiring it)
"""

import json
import random
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20270821
HERE = Path(__file__).resolve().parent
SET_FILE = "queries-heldout2.jsonl"

FIXTURES = [
    ("portal-access.log", W.portal_access), ("apache-error.log", W.apache_error),
    ("traefik-access.json", W.traefik_access), ("tariff-engine.log", W.tariff_engine),
    ("meter-ingest.log", W.meter_ingest), ("outage-api.jsonl", W.outage_api),
    ("grid-balancer-6d9f7c8b5-x2kqp.log", W.grid_balancer), ("redis.log", W.redis_log),
    ("node-journal.log", W.node_journal), ("bastion-auth.log", W.bastion_auth),
    ("mongod.log", W.mongod_log), ("dmesg-node7.txt", W.dmesg_node7),
]
MAX_FILE, MAX_TOTAL = 2_500_000, 5_000_000


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def build_fixtures():
    return {name: writer(random.Random(SEED * 100 + i)) for i, (name, writer) in enumerate(FIXTURES)}


def in_window(t, a, b):
    return a <= hms(t) < b


def facts(texts):
    """Every figure a case asks for, computed from the written text (and checked against the
    planted one, so a writer bug cannot slip a wrong answer in)."""
    f = {}

    # portal-access.log -------------------------------------------------------------------
    pa = T.parse_apache_vhost(texts["portal-access.log"])
    assert len(pa) == 8000
    f["pa_504"] = T.count(pa, lambda r: r["status"] == 504)
    f["pa_4xx"] = T.count(pa, lambda r: 400 <= r["status"] < 500)
    f["pa_5xx"] = T.count(pa, lambda r: r["status"] >= 500)
    assert (f["pa_504"], f["pa_5xx"]) == (235, 525), (f["pa_504"], f["pa_5xx"])
    f["pa_ips"] = len({r["ip"] for r in pa})
    (f["pa_fail_route"], _), _ = T.top(T.group(pa, lambda r: r["route"], lambda r: r["status"] >= 500))
    (top_full, _), _ = T.top(T.group(pa, lambda r: r["path"], lambda r: r["status"] >= 500))
    assert top_full == f["pa_fail_route"] == W.QUOTE
    slow = sorted(pa, key=lambda r: r["us"])
    f["pa_slow_us"], f["pa_slow_route"] = slow[-1]["us"], slow[-1]["route"]
    assert (f["pa_slow_us"], f["pa_slow_route"]) == (27391442, "/api/v3/usage/export")
    assert slow[-2]["us"] < 21_000_000
    (f["pa_504_peak"], f["pa_504_peak_n"]), _ = T.top(T.group(pa, lambda r: hm(r["t"]), lambda r: r["status"] == 504))
    assert f["pa_504_peak"] == "19:21"
    f["pa_5xx_window"] = T.count(pa, lambda r: r["status"] >= 500 and in_window(r["t"], "19:10:00", "19:30:00"))
    # Edges: no 5xx near either end of the window, so [), [] and minute-granular readings agree.
    assert T.count(pa, lambda r: r["status"] >= 500 and (in_window(r["t"], "19:07:00", "19:13:00")
                                                         or in_window(r["t"], "19:27:00", "19:33:00"))) == 0
    by_hour = T.group(pa, lambda r: r["t"].hour, lambda r: r["status"] >= 500)
    f["pa_5xx_by_hour"] = [by_hour[h] for h in (17, 18, 19, 20)]
    assert f["pa_5xx_by_hour"] == [31, 47, 391, 56], f["pa_5xx_by_hour"]
    f["pa_first_503"] = hms(min(r["t"] for r in pa if r["status"] == 503))
    f["pa_429"] = T.count(pa, lambda r: r["status"] == 429)

    # apache-error.log --------------------------------------------------------------------
    ae = T.parse_apache_error(texts["apache-error.log"])
    f["ae_01114"] = T.count(ae, lambda r: r["code"] == "AH01114")
    assert f["ae_01114"] == 173
    assert f["ae_01114"] == T.count(ae, lambda r: "failed to make connection to backend" in r["msg"])
    assert f["ae_01114"] == T.count(ae, lambda r: "Connection refused" in r["msg"])
    f["ae_first_01114"] = hms(min(r["t"] for r in ae if r["code"] == "AH01114"))
    first_refused = min(r["t"] for r in ae if "Connection refused" in r["msg"])
    assert hms(first_refused) == f["ae_first_01114"] == "19:13:49"
    assert f["ae_first_01114"] < f["pa_first_503"] == "19:13:52"

    # traefik-access.json -----------------------------------------------------------------
    tr = T.parse_traefik(texts["traefik-access.json"])
    f["tr_429"] = T.count(tr, lambda r: r["DownstreamStatus"] == 429)
    assert f["tr_429"] == 389 and f["tr_429"] != f["pa_429"]
    rt429 = T.group(tr, lambda r: r["RouterName"], lambda r: r["DownstreamStatus"] == 429)
    (r1, f["tr_429_r1_n"]), rest = T.top(rt429)
    (r2, f["tr_429_r2_n"]) = rest[0]
    f["tr_429_r1"] = re.match(r"kp-prod-(.+)-[0-9a-f]{6}@", r1).group(1)
    f["tr_429_r2"] = re.match(r"kp-prod-(.+)-[0-9a-f]{6}@", r2).group(1)
    assert (f["tr_429_r1"], f["tr_429_r1_n"], f["tr_429_r2"], f["tr_429_r2_n"]) == ("partner-webhooks", 233, "meter-readings", 97)
    (svc, f["tr_5xx_svc_n"]), _ = T.top(T.group(tr, lambda r: r.get("ServiceName"), lambda r: r["DownstreamStatus"] >= 500))
    f["tr_5xx_svc"] = re.match(r"kp-prod-(.+)-8080@", svc).group(1)
    assert f["tr_5xx_svc"] == "outage-map"
    # The 5xx by router too name the same service.
    (rt, _), _ = T.top(T.group(tr, lambda r: r["RouterName"], lambda r: r["DownstreamStatus"] >= 500))
    assert "outage-map" in rt
    p95 = [v / 1e6 for v in T.percentiles_all([r["Duration"] for r in tr], 95)]
    assert all(1384.0 <= v <= 1384.4 for v in p95), p95
    f["tr_p95_ms"] = "1384"

    # tariff-engine.log -------------------------------------------------------------------
    te = T.parse_logback(texts["tariff-engine.log"])
    f["te_hikari"] = T.count(te, lambda e: "Connection is not available" in e["text"])
    assert f["te_hikari"] == 64 == texts["tariff-engine.log"].count("Connection is not available")
    assert T.count(te, lambda e: "HikariPool" in e["text"]) > f["te_hikari"]
    oom = [e for e in te if "OutOfMemoryError" in e["text"]]
    assert len(oom) == 9
    f["te_first_oom"] = hms(min(e["t"] for e in oom))
    assert f["te_first_oom"] == "19:09:47"
    assert T.count(te, lambda e: e["msg"].startswith("Starting TariffEngineApplication")) == len(W.RESTARTS)

    # meter-ingest.log --------------------------------------------------------------------
    mi = T.parse_pylog(texts["meter-ingest.log"])
    f["mi_readtimeout"] = T.count(mi, lambda e: "ReadTimeout" in e["text"])
    assert f["mi_readtimeout"] == 71 == texts["meter-ingest.log"].count("ReadTimeout")
    (f["mi_err_logger"], f["mi_err_logger_n"]), _ = T.top(T.group(mi, lambda e: e["name"], lambda e: e["level"] == "ERROR"))
    assert (f["mi_err_logger"], f["mi_err_logger_n"]) == ("meter_ingest.sink", 96)
    assert T.count(mi, lambda e: e["level"] == "ERROR") == 157
    f["mi_warn_window"] = T.count(mi, lambda e: e["level"] == "WARNING" and in_window(e["t"], "19:00:00", "19:30:00"))
    assert T.count(mi, lambda e: e["level"] == "WARNING" and (in_window(e["t"], "18:57:00", "19:03:00")
                                                              or in_window(e["t"], "19:27:00", "19:33:00"))) == 0
    deleted = [re.search(r"deleted expired partition (\S+)", e["msg"]) for e in mi]
    names = [m.group(1) for m in deleted if m]
    f["mi_deleted"] = len(set(names))
    assert f["mi_deleted"] == len(names) == 43
    summaries = [int(m.group(1)) for e in mi for m in [re.match(r"retention sweep: (\d+) partitions", e["msg"])] if m]
    assert sum(summaries) == f["mi_deleted"]
    f["mi_first_readtimeout"] = hms(min(e["t"] for e in mi if "ReadTimeout" in e["text"]))
    assert f["mi_first_readtimeout"] == "19:12:30"

    # outage-api.jsonl --------------------------------------------------------------------
    oa = T.parse_zap(texts["outage-api.jsonl"])
    errs = [r for r in oa if r["level"] == "error"]
    (f["oa_err_feeder"], f["oa_err_feeder_n"]), _ = T.top(T.group(errs, lambda r: r.get("feeder.id")))
    assert (f["oa_err_feeder"], f["oa_err_feeder_n"]) == ("FDR-3318", 41)
    f["oa_err_feeder_last"] = hms(max(r["t"] for r in errs if r.get("feeder.id") == f["oa_err_feeder"]))
    assert f["oa_err_feeder_last"] == "20:14:07"
    f["oa_err_feeders"] = len({r["feeder.id"] for r in errs if "feeder.id" in r})
    assert f["oa_err_feeders"] != len({r["feeder.id"] for r in oa if "feeder.id" in r})
    (f["oa_dl_peak"], _), _ = T.top(T.group(oa, lambda r: hm(r["t"]), lambda r: r.get("err") == "context deadline exceeded"))
    assert f["oa_dl_peak"] == "19:22"
    durs = [r["req.dur_ms"] for r in oa if r["req.route"] == "/v1/outages/{feeder}"]
    assert sum(durs) % len(durs) == 0
    f["oa_mean"] = sum(durs) // len(durs)
    # A whole mean that no other route shares (a mean over the wrong rows cannot pass).
    for route in {r["req.route"] for r in oa} - {"/v1/outages/{feeder}"}:
        d = [r["req.dur_ms"] for r in oa if r["req.route"] == route]
        assert abs(sum(d) / len(d) - f["oa_mean"]) > 5, route
    all_mean = sum(r["req.dur_ms"] for r in oa) / len(oa)
    assert abs(all_mean - f["oa_mean"]) > 5

    # grid-balancer (CRI + logrus) ----------------------------------------------------------
    gb = T.parse_cri(texts["grid-balancer-6d9f7c8b5-x2kqp.log"])
    assert texts["grid-balancer-6d9f7c8b5-x2kqp.log"].count(" P ") > 0
    (f["gb_warn_zone"], f["gb_warn_zone_n"]), _ = T.top(T.group(gb, lambda r: r.get("zone"), lambda r: r["level"] == "warning"))
    assert (f["gb_warn_zone"], f["gb_warn_zone_n"]) == ("coastal", 94)
    drift = sorted((float(r["drift_kw"]), r["feeder"]) for r in gb if "drift_kw" in r)
    f["gb_max_drift"], f["gb_max_drift_feeder"] = f"{drift[-1][0]:.1f}", drift[-1][1]
    assert (f["gb_max_drift"], f["gb_max_drift_feeder"]) == ("213.6", "FDR-1172") and drift[-2][0] < 100

    # redis.log ---------------------------------------------------------------------------
    rd = T.parse_redis(texts["redis.log"])
    fails = [r for r in rd if r["msg"].startswith("Can't save in background")]
    f["rd_fork_fail"] = len(fails)
    assert f["rd_fork_fail"] == 47
    assert T.count(rd, lambda r: "Background saving error" in r["msg"]) == 0
    f["rd_last_fail"] = hms(max(r["t"] for r in fails))
    assert f["rd_last_fail"] == "20:07:44"

    # node-journal.log --------------------------------------------------------------------
    nj = T.parse_journal_short_iso(texts["node-journal.log"])
    restarts = [int(m.group(1)) for r in nj
                for m in [re.match(r"tariff-engine\.service: Scheduled restart job, restart counter is at (\d+)", r["msg"])] if m]
    f["nj_restarts"] = len(restarts)
    assert f["nj_restarts"] == max(restarts) == 17
    assert T.count(nj, lambda r: r["msg"].startswith("Started tariff-engine.service")) == f["nj_restarts"]
    assert T.count(nj, lambda r: r["msg"].startswith("tariff-engine.service: Main process exited")) == f["nj_restarts"]

    # bastion-auth.log --------------------------------------------------------------------
    au = T.parse_rsyslog_auth(texts["bastion-auth.log"])
    f["au_failed"] = T.count(au, lambda r: r["failed"])
    assert f["au_failed"] == 1146
    ranked = T.group(au, lambda r: r["ip"], lambda r: r["failed"]).most_common(3)
    assert ranked[0][1] > ranked[1][1] > ranked[2][1], ranked
    (f["au_top_ip"], f["au_top_ip_n"]), (f["au_2nd_ip"], f["au_2nd_ip_n"]) = ranked[0], ranked[1]
    assert (f["au_top_ip"], f["au_top_ip_n"], f["au_2nd_ip"], f["au_2nd_ip_n"]) == ("198.18.233.41", 377, "198.19.7.150", 203)
    f["au_2nd_first"] = hms(min(r["t"] for r in au if r["ip"] == f["au_2nd_ip"]))
    assert f["au_2nd_first"] == hms(min(r["t"] for r in au if r["ip"] == f["au_2nd_ip"] and r["failed"])) == "18:26:14"
    f["au_failed_ips"] = len({r["ip"] for r in au if r["failed"]})
    end = au[-1]["t"]
    f["au_last15"] = T.count(au, lambda r: r["failed"] and (end - r["t"]).total_seconds() <= 900)
    assert T.count(au, lambda r: r["failed"] and 720 <= (end - r["t"]).total_seconds() <= 1200) == 0

    # mongod.log --------------------------------------------------------------------------
    mg = T.parse_mongo(texts["mongod.log"])
    slowq = [r for r in mg if r["msg"] == "Slow query"]
    f["mg_over5s"] = T.count(slowq, lambda r: r["attr"]["durationMillis"] > 5000)
    assert f["mg_over5s"] == 83
    assert T.count(slowq, lambda r: 4200 <= r["attr"]["durationMillis"] <= 5800) == 0
    s = sorted(slowq, key=lambda r: r["attr"]["durationMillis"])
    f["mg_max"], f["mg_max_ns"] = s[-1]["attr"]["durationMillis"], s[-1]["attr"]["ns"]
    assert (f["mg_max"], f["mg_max_ns"]) == (63127, "meters.readings_hourly")
    (f["mg_collscan_ns"], f["mg_collscan_n"]), _ = T.top(T.group(slowq, lambda r: r["attr"]["ns"],
                                                                 lambda r: r["attr"]["planSummary"] == "COLLSCAN"))
    assert (f["mg_collscan_ns"], f["mg_collscan_n"]) == ("billing.invoices_draft", 58)
    f["mg_first_10s"] = hms(min(r["ts"] for r in slowq if r["attr"]["durationMillis"] > 10000))
    assert f["mg_first_10s"] == "19:11:57" < f["mi_first_readtimeout"]

    # dmesg-node7.txt ---------------------------------------------------------------------
    dm = T.parse_dmesg(texts["dmesg-node7.txt"])
    f["dm_kills"] = T.count(dm, lambda r: r["killed"])
    (f["dm_top_victim"], f["dm_top_victim_n"]), _ = T.top(T.group(dm, lambda r: r["killed"][1], lambda r: r["killed"]))
    assert (f["dm_kills"], f["dm_top_victim"], f["dm_top_victim_n"]) == (26, "java", 21)
    f["dm_ioerr"] = T.count(dm, lambda r: "I/O error" in r["msg"])
    assert f["dm_ioerr"] == 29 == texts["dmesg-node7.txt"].count("I/O error")
    return f


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
        assert c.get("answer_has") or c.get("approval"), c["id"]
    sizes = {name: len(t.encode()) for name, t in texts.items()}
    assert max(sizes.values()) < MAX_FILE and sum(sizes.values()) < MAX_TOTAL, sizes
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items()
                 if not (fx / name).is_file() or (fx / name).read_text() != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{e} (not generated)" for e in extra]
        if not (HERE / SET_FILE).is_file() or (HERE / SET_FILE).read_text() != out_cases:
            stale.append(SET_FILE)
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries-heldout2: {len(rows)} cases and {len(texts)} fixtures up to date")
    else:
        fx.mkdir(exist_ok=True)
        for name, text in texts.items():
            (fx / name).write_text(text)
        (HERE / SET_FILE).write_text(out_cases)
        print(f"queries-heldout2: wrote {len(rows)} cases, {len(texts)} fixtures "
              f"({sum(sizes.values()) / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for name, size in sizes.items():
            print(f"  {name}: {size} bytes, {texts[name].count(chr(10))} lines")
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")


if __name__ == "__main__":
    main()
