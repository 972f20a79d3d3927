#!/usr/bin/env python3
"""Generates the `queries-dev4` set: the fixture logs (seeded), their truth (parsed back from
the written files by `truth.py`) and `queries-dev4.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev4.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20290314
HERE = Path(__file__).resolve().parent
MAX_BYTES = 4_000_000
METER_LOG = "b71e09c4d5a26f3e8a9d1c04f7e25b6a93c8d0e1f2a4b5c6d7e8f90a1b2c3d4e-json.log"

FIXTURES = [
    ("u_ex290314.log", W.iis_log), ("error.log", W.nginx_error), ("charge-api.log", W.charge_api),
    (METER_LOG, W.meter_ingest), ("billing_worker.log", W.billing_worker), ("redis-server.log", W.redis_log),
    ("node-07-journal.txt", W.journal), ("access.log", W.squid_log),
]

COUNTS = []  # every count an answer must hold, as registered by n()


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    COUNTS.append(x)
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def build_fixtures():
    return {name: writer(random.Random(SEED * 100 + i)) for i, (name, writer) in enumerate(FIXTURES)}


def same_by_any_definition(values, p):
    a = T.percentile_nearest_rank(values, p)
    b = T.percentile_linear(values, p)
    c = T.percentile_weibull(values, p)
    d = T.percentile_lower(values, p)
    assert abs(a - b) < 1e-9 and abs(a - c) < 1e-9 and abs(a - d) < 1e-9, (p, a, b, c, d)
    if p == 50:
        assert abs(T.median(values) - a) < 1e-9
    return a


def last_window_clean(rows, pred, end, minutes, slack):
    """No matching row within `slack` minutes either side of "the last `minutes` minutes"."""
    lo, hi = (minutes - slack) * 60, (minutes + slack) * 60
    assert T.count(rows, lambda r: pred(r) and lo <= (end - r["t"]).total_seconds() <= hi) == 0


def clock_window(rows, pred, a, b, slack=5):
    """The rows matching `pred` in [a, b) ("HH:MM"), asserting none lies within `slack`
    minutes outside either edge (so "between a and b" cannot be read two ways)."""
    def minute(r):
        return r["t"].hour * 60 + r["t"].minute

    lo = int(a[:2]) * 60 + int(a[3:])
    hi = int(b[:2]) * 60 + int(b[3:])
    assert T.count(rows, lambda r: pred(r) and (lo - slack <= minute(r) < lo or hi <= minute(r) < hi + slack)) == 0
    return T.count(rows, lambda r: pred(r) and lo <= minute(r) < hi)


def peak_minute(rows, pred):
    [(m, _)] = T.ranked(T.group(rows, lambda r: hm(r["t"]), pred))
    return m


def peak_hour(rows, pred):
    [(h, _)] = T.ranked(T.group(rows, lambda r: r["t"].hour, pred))
    return h


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    # --- u_ex290314.log (IIS W3C)
    text = texts["u_ex290314.log"]
    ii = T.parse_iis(text)
    assert len(ii) == 1600 and text.count("#Fields: ") == 2
    f["ii_500"] = T.count(ii, lambda r: r["status"] == 500)
    assert f["ii_500"] == 97
    f["ii_401"] = T.count(ii, lambda r: r["status"] == 401)
    assert f["ii_401"] == 83
    f["ii_first_500"] = hms(min(r["t"] for r in ii if r["status"] == 500))
    assert f["ii_first_500"] == "08:14:37"
    f["ii_delete_ok"] = T.count(ii, lambda r: r["cs-method"] == "DELETE" and r["cs-uri-stem"] == "/installers/api/bookings.aspx"
                                and 200 <= r["status"] < 300)
    assert f["ii_delete_ok"] == 76 and T.count(ii, lambda r: r["cs-method"] == "DELETE") == 87
    [(f["ii_top_ip"], _)] = T.ranked(T.group(ii, lambda r: r["c-ip"]))
    assert f["ii_top_ip"] == "198.51.100.73"
    [(top_user, _)] = T.ranked(T.group(ii, lambda r: r["cs-username"]))  # anonymous `-` included: still below
    assert top_user == "QUILLON\\mfenwick"
    f["ii_top_user"] = "mfenwick"
    f["ii_distinct_ip"] = len({r["c-ip"] for r in ii})
    jobs = [r["time_taken"] for r in ii if r["cs-uri-stem"] == "/installers/api/jobs.aspx"]
    assert sum(jobs) == 347 * len(jobs)
    assert all(r["status"] == 200 for r in ii if r["cs-uri-stem"] == "/installers/api/jobs.aspx")
    f["ii_jobs_mean"] = ["347"]
    assert same_by_any_definition([r["time_taken"] for r in ii], 95) == 2406
    f["ii_p95_s"] = ["2.406", "2406", "2,406", "2.41"]

    # --- error.log (nginx error log)
    text = texts["error.log"]
    ng = T.parse_nginx_error(text)
    to = lambda r: r["msg"].startswith("upstream timed out (110: Connection timed out)")  # noqa: E731
    f["ng_timeouts"] = T.count(ng, to)
    assert f["ng_timeouts"] == 143 == text.count("upstream timed out")
    [(f["ng_top_upstream"], _)] = T.ranked(T.group(ng, lambda r: r["upstream"], to))
    assert f["ng_top_upstream"] == "10.60.3.14:8080"
    f["ng_peak_minute"] = peak_minute(ng, to)
    assert f["ng_peak_minute"] == "09:58"
    f["ng_peak_hour"] = peak_hour(ng, to)
    assert f["ng_peak_hour"] == 9
    f["ng_first_nolive"] = hms(min(r["t"] for r in ng if r["msg"].startswith("no live upstreams")))
    assert f["ng_first_nolive"] == "09:53:40"
    f["ng_refused"] = T.count(ng, lambda r: "connect() failed (111: Connection refused)" in r["msg"])
    assert f["ng_refused"] == 88 == text.count("(111: Connection refused)")
    f["ng_limited_ips"] = len({r["client"] for r in ng if r["msg"].startswith("limiting requests")})
    assert f["ng_limited_ips"] == 62

    # --- charge-api.log (bunyan)
    ca = T.parse_bunyan(texts["charge-api.log"])
    assert len(ca) == 2000
    f["ca_errors"] = T.count(ca, lambda r: r["level"] == 50)
    assert f["ca_errors"] == 166 and T.count(ca, lambda r: r["level"] > 50) == 0
    five = lambda r: r["status"] is not None and r["status"] >= 500  # noqa: E731
    lat5 = [r["latency"] for r in ca if five(r)]
    assert len(lat5) == 139 and sum(lat5) == 1874 * len(lat5)
    f["ca_5xx_mean"] = ["1874", "1,874", "1.874"]
    assert same_by_any_definition([r["latency"] for r in ca if "latency" in r], 99) == 3180
    f["ca_p99"] = ["3180", "3,180", "3.18"]
    top = T.ranked(T.group(ca, lambda r: r["url"], five), 2)
    f["ca_top5xx_url"] = top[0][0]
    assert [u for u, _ in top] == ["/v2/tariffs/quote", "/v2/sessions/start"]
    f["ca_first_misconf"] = hms(min(r["t"] for r in ca if r.get("err", {}).get("message", "").startswith("MISCONF")))
    assert f["ca_first_misconf"] == "09:47:31"
    f["ca_5xx_chargers"] = len({r["charger_id"] for r in ca if five(r)})
    end = max(r["t"] for r in ca)
    assert hms(end) == "10:59:58" and end == ca[-1]["t"]
    last_window_clean(ca, five, end, 30, 4)
    f["ca_5xx_last30"] = T.count(ca, lambda r: five(r) and (end - r["t"]).total_seconds() <= 1800)
    assert f["ca_5xx_last30"] == 68
    slow = sorted((r for r in ca if "latency" in r), key=lambda r: -r["latency"])
    assert slow[0]["latency"] > slow[1]["latency"] > slow[2]["latency"] > slow[3]["latency"]
    f["ca_slowest_charger"] = slow[0]["charger_id"]
    assert (slow[0]["latency"], f["ca_slowest_charger"]) == (9120, "CP-MAN-0233")

    # --- meter-ingest (Docker json-file, slog logfmt)
    mi = T.parse_docker_logfmt(texts[METER_LOG])
    assert len(mi) == 1800
    err = lambda r: r["level"] == "ERROR"  # noqa: E731
    f["mi_errors"] = T.count(mi, err)
    assert f["mi_errors"] == 152 == texts[METER_LOG].count("level=ERROR")
    f["mi_least_site"], _ = T.least(T.group(mi, lambda r: r["site"], err))
    assert f["mi_least_site"] == "GLA-01"
    [(f["mi_top_meter"], _)] = T.ranked(T.group(mi, lambda r: r["meter_id"], err))
    sites = {r["site"] for r in mi if r.get("meter_id") == f["mi_top_meter"]}
    assert f["mi_top_meter"] == "MTR-220931" and sites == {"MAN-02"}
    f["mi_top_meter_site"] = "MAN-02"
    f["mi_err_meters"] = len({r["meter_id"] for r in mi if err(r)})
    durs = sorted((r["dur_s"] for r in mi if "dur_s" in r), reverse=True)
    assert abs(durs[0] - 7.412803) < 1e-9 and durs[1] < 6
    f["mi_max_ms"] = ["7412.8", "7,412.8", "7413", "7,413", "7.412"]
    assert abs(same_by_any_definition(durs, 50) - 0.3862) < 1e-12
    f["mi_median"] = ["386.2", "0.3862"]

    # --- billing_worker.log (Python logging)
    text = texts["billing_worker.log"]
    bw = T.parse_python_logging(text)
    e = lambda r: r["level"] == "ERROR"  # noqa: E731
    assert T.count(bw, e) == 134 == text.count(" - ERROR - ")
    f["bw_tracebacks"] = T.count(bw, lambda r: r["traceback"])
    assert f["bw_tracebacks"] == 121 == text.count("Traceback (most recent call last):")
    [(exc, _)] = T.ranked(T.group(bw, lambda r: r["exc"], lambda r: r["exc"] is not None))
    assert exc == "redis.exceptions.ResponseError"
    f["bw_top_exc"] = "ResponseError"
    [(f["bw_top_logger"], f["bw_top_logger_n"])] = T.ranked(T.group(bw, lambda r: r["logger"], e))
    assert (f["bw_top_logger"], f["bw_top_logger_n"]) == ("billing.invoices", 109)
    f["bw_window"] = clock_window(bw, e, "10:05", "10:10")
    assert f["bw_window"] == 64 and all("MISCONF" in r["lines"][-1] for r in bw if e(r) and r["t"].hour == 10 and r["t"].minute < 15)
    batches = sorted((r["batch_secs"] for r in bw if r["batch_secs"] is not None), reverse=True)
    assert len(batches) == 12 and batches[0] == 48.207 and batches[1] < 31
    f["bw_max_batch"] = ["48.207", "48207", "48,207", "48.21"]

    # --- redis-server.log
    rd = T.parse_redis(texts["redis-server.log"])
    f["rd_aof"] = T.count(rd, lambda r: r["msg"].startswith("Asynchronous AOF fsync is taking too long"))
    assert f["rd_aof"] == 71
    [(f["rd_top_closed"], _)] = T.ranked(T.group(rd, lambda r: r["addr"], lambda r: "output buffer limits" in r["msg"]))
    assert f["rd_top_closed"] == "10.60.1.31"
    bgerr = [r["t"] for r in rd if r["msg"] == "Background saving error"]
    f["rd_first_bgerr"], f["rd_last_bgerr"] = hms(min(bgerr)), hms(max(bgerr))
    assert (f["rd_first_bgerr"], f["rd_last_bgerr"]) == ("09:47:23", "10:11:52")
    ok_after = min(r["t"] for r in rd if r["msg"] == "Background saving terminated with success" and r["t"] > max(bgerr))
    assert hm(ok_after) == "10:12"

    # --- node-07-journal.txt (journalctl -o short-iso)
    jn = T.parse_journal_short_iso(texts["node-07-journal.txt"])
    sync = lambda r: r.get("klog_msg") == "Error syncing pod, skipping"  # noqa: E731
    f["jn_sync"] = T.count(jn, sync)
    assert f["jn_sync"] == 131 == texts["node-07-journal.txt"].count("Error syncing pod")
    [(pod, _)] = T.ranked(T.group(jn, lambda r: r["kv"]["pod"], sync))
    assert pod == "metering/meter-ingest-7d9c5b8f6-qx2lm"
    f["jn_top_sync_pod"] = "meter-ingest-7d9c5b8f6-qx2lm"
    f["jn_top_sync_first"] = hms(min(r["t"] for r in jn if sync(r) and r["kv"]["pod"] == pod))
    assert f["jn_top_sync_first"] == "09:52:40"
    kill = lambda r: r.get("klog_msg") == "Killing container with a grace period"  # noqa: E731
    f["jn_kills"] = T.count(jn, kill)
    assert f["jn_kills"] == 67
    [(f["jn_top_killed"], _)] = T.ranked(T.group(jn, lambda r: r["kv"]["containerName"], kill))
    assert f["jn_top_killed"] == "meter-ingest"
    restarts = [int(r["msg"].rsplit(" ", 1)[1].rstrip(".")) for r in jn
                if r["ident"] == "systemd" and r["msg"].startswith("fluent-bit.service: Scheduled restart job")]
    assert restarts == list(range(1, len(restarts) + 1)) and len(restarts) == 79
    assert max(r["t"] for r in jn if r["msg"].startswith("Started fluent-bit")).hour == 10
    f["jn_fluent_restarts"] = len(restarts)
    ooms = [r for r in jn if r["ident"] == "kernel" and r["msg"].startswith("Memory cgroup out of memory: Killed process")]
    f["jn_first_oom"] = hms(min(r["t"] for r in ooms))
    assert f["jn_first_oom"] == "09:52:11" and "(meter-ingest)" in min(ooms, key=lambda r: r["t"])["msg"]
    near = [r for r in jn if 0 <= (r["t"] - min(r2["t"] for r2 in ooms)).total_seconds() < 60 and r["ident"] == "kernel"]
    assert near
    slo = sorted(((float(r["kv"]["podStartSLOduration"]), r["kv"]["pod"]) for r in jn
                  if r.get("klog_msg") == "Observed pod startup duration"), reverse=True)
    assert slo[0] == (41.873, "billing/billing-worker-84c6d9f7b-t5kzn") and slo[1][0] < 20
    f["jn_max_slo"] = ["41.873", "41.87"]
    f["jn_max_slo_pod"] = "billing-worker"

    # --- access.log (Squid native)
    sq = T.parse_squid(texts["access.log"])
    assert len(sq) == 2400
    den = lambda r: r["code"] == "TCP_DENIED"  # noqa: E731
    f["sq_denied"] = T.count(sq, den)
    assert f["sq_denied"] == 188 == texts["access.log"].count("TCP_DENIED/403")
    [(f["sq_top_denied"], f["sq_top_denied_n"])] = T.ranked(T.group(sq, lambda r: r["client"], den))
    assert (f["sq_top_denied"], f["sq_top_denied_n"]) == ("10.60.7.33", 73)
    f["sq_denied_hour"] = peak_hour(sq, den)
    assert f["sq_denied_hour"] == 9
    f["sq_denied_window"] = clock_window(sq, den, "09:30", "10:00")
    assert f["sq_denied_window"] == 86
    f["sq_top3_hosts"] = [h for h, _ in T.ranked(T.group(sq, lambda r: r["host"]), 3)]
    assert f["sq_top3_hosts"] == ["api.tariffhub.example", "feeds.gridwatch.example", "objects.quillon-backup.example"]
    [(f["sq_top_client"], _)] = T.ranked(T.group(sq, lambda r: r["client"]))
    assert f["sq_top_client"] == "10.60.1.22"
    f["sq_distinct_clients"] = len({r["client"] for r in sq})
    th = [r["elapsed"] for r in sq if r["host"] == "api.tariffhub.example"]
    assert sum(th) == 2317 * len(th)
    f["sq_tariff_mean_s"] = ["2.317", "2317", "2,317"]
    big = sorted(sq, key=lambda r: -r["bytes"])
    assert big[0]["bytes"] == 52428800 and big[1]["bytes"] < 40_000_000
    f["sq_max_bytes"] = ["52428800", "52,428,800", "50 MiB", "50.0 MiB", "50MiB", "52.4 MB", "52.43 MB", "52.4MB"]
    f["sq_max_bytes_host"] = big[0]["host"]
    assert f["sq_max_bytes_host"] == "objects.quillon-backup.example"

    # the timelines must read one way only
    assert f["rd_first_bgerr"] < f["ca_first_misconf"] and f["jn_first_oom"] < f["ng_first_nolive"]
    return f


def check_counts(rows):
    """Every count is >= 60, no two cases share one, and no case's question holds its count."""
    assert all(x >= 60 for x in COUNTS), COUNTS
    assert len(COUNTS) == len(set(COUNTS)), sorted(x for x in COUNTS if COUNTS.count(x) > 1)
    wanted = {str(x) for x in COUNTS}
    for c in rows:
        said = c["text"] + " " + " ".join(c.get("turns", []))
        for entry in c.get("answer_has", []):
            for s in ([entry] if isinstance(entry, str) else entry):
                if s in wanted:
                    assert s not in said, (c["id"], s)


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    COUNTS.clear()
    rows = cases(f, n)
    check_counts(rows)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if not (fx / name).is_file() or (fx / name).read_text(encoding="utf-8") != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{x} (not generated)" for x in extra]
        cases_file = HERE / "queries-dev4.jsonl"
        if not cases_file.is_file() or cases_file.read_text(encoding="utf-8") != out_cases:
            stale.append("queries-dev4.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries-dev4: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text, encoding="utf-8")
    (HERE / "queries-dev4.jsonl").write_text(out_cases, encoding="utf-8")
    print(f"queries-dev4: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")
        for name, text in texts.items():
            print(f"  {name}: {text.count(chr(10))} lines, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
