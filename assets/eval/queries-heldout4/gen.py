#!/usr/bin/env python3
"""Generates the `queries-heldout4` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout4.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout4.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure (this is a held-out set: don't, unless retiring it)
"""

import json
import random
import re
import sys
from datetime import timedelta
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20280322
HERE = Path(__file__).resolve().parent
SET_FILE = "queries-heldout4.jsonl"

from cases import ING, JRN, SLOG, CAT, GUNI, PG, ALB, IIS, K8S, CH, BIND, ASA  # noqa: E402

FIXTURES = [
    (ING, W.ingress_nginx), (JRN, W.db1_journal), (SLOG, W.seatmap_slog), (CAT, W.catalina_out),
    (GUNI, W.refunds_gunicorn), (PG, W.postgres_csv), (ALB, W.alb_access), (IIS, W.iis_boxoffice),
    (K8S, W.k8s_audit), (CH, W.clickhouse_log), (BIND, W.bind_queries), (ASA, W.asa_log),
]
MAX_FILE, MAX_TOTAL = 2_000_000, 5_000_000


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def hms_exact(t):
    """HH:MM:SS of a first/last event, asserted clear of rounding up to the next second."""
    assert t.microsecond < 500000, t
    return hms(t)


def in_window(t, a, b):
    return a <= hms(t) < b


def near(t, edge, minutes=3):
    """Within `minutes` of the clock time `edge` (HH:MM:SS) on the set's day."""
    return abs((t - W.at(edge)).total_seconds()) < minutes * 60


def build_fixtures():
    return {name: writer(random.Random(SEED * 100 + i)) for i, (name, writer) in enumerate(FIXTURES)}


def exact_mean(values):
    s, n = sum(values), len(values)
    assert s % n == 0, (s, n)
    return s // n


def facts(texts):
    """Every figure a case asks for, computed from the written text (and checked against the
    planted one, so a writer bug cannot slip a wrong answer in)."""
    f = {}

    # ingress-nginx ---------------------------------------------------------------------
    ing, klog = T.parse_ingress(texts[ING])
    assert len(ing) == 2200 and klog == 15
    f["ing_503"] = T.count(ing, lambda r: r["status"] == 503)
    assert f["ing_503"] == 167 == sum(" 503 " in ln for ln in texts[ING].splitlines())
    f["ing_ips"] = len({r["ip"] for r in ing})
    assert f["ing_ips"] == 1020
    (f["ing_5xx_up"], f["ing_5xx_up_n"]), _ = T.top(T.group(ing, lambda r: r["up"], lambda r: r["status"] >= 500))
    assert f["ing_5xx_up"] == "tix-checkout-api-8080" and f["ing_5xx_up_n"] == 172
    # By the upstream address's service instead of the name: the same winner.
    (svc, _), _ = T.top(T.group(ing, lambda r: r["addr"].rsplit(".", 1)[0], lambda r: r["status"] >= 500))
    assert svc == "10.42.3"
    p95 = T.percentiles_all([r["rt"] for r in ing], 95)
    assert len(set(p95)) == 1, p95
    f["ing_p95"] = p95[0]
    assert f["ing_p95"] == 0.913
    # The upstream's own time gives another figure: the question is about request_time.
    assert 0.913 not in T.percentiles_all([float(r["ust"]) for r in ing], 95)
    f["ing_503_peak"], f["ing_503_peak_n"] = T.top(T.group(ing, lambda r: hm(r["t"]), lambda r: r["status"] == 503))[0]
    assert (f["ing_503_peak"], f["ing_503_peak_n"]) == ("19:07", 21)
    f["ing_5xx_win"] = T.count(ing, lambda r: r["status"] >= 500 and in_window(r["t"], "19:00:00", "19:30:00"))
    assert T.count(ing, lambda r: r["status"] >= 500 and (near(r["t"], "19:00:00") or near(r["t"], "19:30:00"))) == 0
    assert f["ing_5xx_win"] == 197
    f["ing_502"] = T.count(ing, lambda r: r["status"] == 502)
    assert f["ing_502"] == 88
    (f["ing_502_up"], f["ing_502_up_n"]), _ = T.top(T.group(ing, lambda r: r["up"], lambda r: r["status"] == 502))
    assert (f["ing_502_up"], f["ing_502_up_n"]) == ("tix-seatmap-api-8080", 53)

    # tix-db-1 journal --------------------------------------------------------------------
    jn = T.parse_short_full(texts[JRN])
    f["jn_conntrack"] = T.count(jn, lambda r: r["prog"] == "kernel" and "table full, dropping packet" in r["msg"])
    assert f["jn_conntrack"] == W.CONNTRACK == texts[JRN].count("table full") == texts[JRN].count("conntrack: table full")
    f["jn_conntrack_first"] = hms(min(r["t"] for r in jn if "table full" in r["msg"]))
    assert f["jn_conntrack_first"] == W.CONNTRACK_FIRST
    counters = [int(m.group(1)) for r in jn
                for m in [re.match(r"pgbouncer\.service: Scheduled restart job, restart counter is at (\d+)", r["msg"])] if m]
    f["jn_pgb_restarts"] = len(counters)
    assert f["jn_pgb_restarts"] == max(counters) == W.PGB_CRASHES
    assert T.count(jn, lambda r: r["msg"].startswith("Started pgbouncer.service")) == W.PGB_CRASHES
    assert T.count(jn, lambda r: "dumped core" in r["msg"]) == W.PGB_CRASHES
    assert T.count(jn, lambda r: r["msg"].startswith("pgbouncer.service: Main process exited")) == W.PGB_CRASHES
    crashes = [r["t"] for r in jn if r["msg"].startswith("pgbouncer.service: Main process exited")]
    f["jn_pgb_last"] = hms(max(crashes))
    assert f["jn_pgb_last"] == "20:09:48"

    # seatmap-api slog --------------------------------------------------------------------
    sl = T.parse_slog(texts[SLOG])
    errs = [r for r in sl if r["level"] == "ERROR"]
    f["sl_err"] = len(errs)
    assert f["sl_err"] == 274 == texts[SLOG].count('"level":"ERROR"')
    f["sl_err_events"] = len({r["event"]["id"] for r in errs if "event" in r})
    holds = [r for r in errs if r["msg"] == "hold seats failed"]
    assert len(holds) == 231 and all("event" in r for r in holds)
    assert f["sl_err_events"] >= 60
    (f["sl_venue"], f["sl_venue_n"]), _ = T.top(T.group(holds, lambda r: r["event"]["venue"]))
    assert (f["sl_venue"], f["sl_venue_n"]) == ("Pellow Stadium", 97)
    first = min(r["t"] for r in errs if r.get("event", {}).get("venue") == f["sl_venue"])
    f["sl_venue_first"] = hms_exact(first)
    assert f["sl_venue_first"] == "19:04:32" and f["sl_err_events"] == 92
    maps = [r["req"]["latency_ms"] for r in sl if r.get("req", {}).get("route") == W.SEATMAP_ROUTE]
    f["sl_map_mean"] = exact_mean(maps)
    assert f["sl_map_mean"] == W.SEATMAP_MEAN
    ok = [r["req"]["latency_ms"] for r in sl if r.get("req", {}).get("route") == W.SEATMAP_ROUTE and r["req"]["status"] == 200]
    allr = [r["req"]["latency_ms"] for r in sl if "req" in r]
    assert abs(sum(ok) / len(ok) - f["sl_map_mean"]) > 5 and abs(sum(allr) / len(allr) - f["sl_map_mean"]) > 5
    f["sl_dl_peak"], f["sl_dl_peak_n"] = T.top(T.group(errs, lambda r: hm(r["t"]),
                                                       lambda r: r.get("err") == "context deadline exceeded"))[0]
    assert (f["sl_dl_peak"], f["sl_dl_peak_n"]) == ("19:09", 19)

    # catalina.out ------------------------------------------------------------------------
    ca = T.parse_juli(texts[CAT])
    f["ca_severe"] = T.count(ca, lambda e: e["level"] == "SEVERE")
    assert f["ca_severe"] == W.JULI_SEVERE == texts[CAT].count("SEVERE")
    hik = [e["t"] for e in ca if "HikariPool-1 - Connection is not available" in "\n".join(e["lines"])]
    f["ca_hikari_first"] = hms_exact(min(hik))
    assert f["ca_hikari_first"] == W.HIKARI_FIRST[:8]

    # refunds gunicorn --------------------------------------------------------------------
    gu = T.parse_gunicorn(texts[GUNI])
    to = [r for r in gu if r["src"] == "gunicorn" and r["msg"].startswith("WORKER TIMEOUT")]
    f["gu_timeouts"] = len(to)
    assert f["gu_timeouts"] == 133 == texts[GUNI].count("WORKER TIMEOUT")
    end = max(r["t"] for r in gu)
    assert gu[-1]["t"] == end
    f["gu_last20"] = T.count(to, lambda r: (end - r["t"]).total_seconds() <= 1200)
    assert T.count(to, lambda r: 1020 <= (end - r["t"]).total_seconds() <= 1380) == 0
    assert f["gu_last20"] == 62
    kills = [r["t"] for r in gu if "was sent SIGKILL" in r["msg"]]
    f["gu_first_kill"] = hms(min(kills))
    assert f["gu_first_kill"] == W.SIGKILL_FIRST and len(kills) == 7
    excs = T.group(gu, lambda r: r["exc"].rsplit(".", 1)[-1], lambda r: r["exc"])
    (f["gu_top_exc"], f["gu_top_exc_n"]), rest = T.top(excs)
    assert f["gu_top_exc"] == "OperationalError" and f["gu_top_exc_n"] == 58 and rest[0][0] == "ReadTimeout"
    # Every exception line counted (the chained one twice) gives the same winner.
    every = T.group([ln for r in gu for ln in r["lines"][1:]], lambda ln: ln.split(":")[0].rsplit(".", 1)[-1],
                    lambda ln: re.match(r"^[a-z][\w.]*\.\w+(Error|Timeout): ", ln))
    assert every.most_common(1)[0][0] == "OperationalError"

    # postgres csvlog ---------------------------------------------------------------------
    pg = T.parse_pg_csv(texts[PG])
    f["pg_deadlocks"] = T.count(pg, lambda r: r["sql_state_code"] == "40P01")
    assert f["pg_deadlocks"] == 61 == texts[PG].count("deadlock detected")
    durs = sorted((r["ms"], r["message"]) for r in pg if r["ms"] is not None)
    f["pg_slowest"] = durs[-1][0]
    assert f["pg_slowest"] == W.PG_SLOWEST and "refund_ledger" in durs[-1][1] and durs[-2][0] < 15000
    assert T.count(pg, lambda r: r["ms"] is not None and 950 <= r["ms"] <= 1050) == 0
    f["pg_over1s"] = T.count(pg, lambda r: r["ms"] is not None and r["ms"] > 1000)
    assert f["pg_over1s"] == 118
    f["pg_terminated"] = T.count(pg, lambda r: r["sql_state_code"] == "57P01")
    assert f["pg_terminated"] == 66 == texts[PG].count("terminating connection due to administrator command")
    slots = [r["t"] for r in pg if r["sql_state_code"] == "53300"]
    f["pg_slots_first"] = hms_exact(min(slots))
    assert f["pg_slots_first"] == W.PG_SLOTS_FIRST[:8] < f["ca_hikari_first"]

    # ALB ---------------------------------------------------------------------------------
    al = T.parse_alb(texts[ALB])
    assert len(al) == 950
    f["al_502"] = T.count(al, lambda r: r["elb"] == 502)
    assert f["al_502"] == 94 and T.count(al, lambda r: r["tst"] == "502") == 0
    f["al_first_502"] = hms_exact(min(r["t"] for r in al if r["elb"] == 502))
    assert f["al_first_502"] == W.ALB_FIRST_502[:8] and f["jn_conntrack_first"] < f["al_first_502"]
    (f["al_top_tgt"], f["al_top_tgt_n"]), _ = T.top(T.group(al, lambda r: r["target"], lambda r: r["elb"] >= 500))
    (t2, _), _ = T.top(T.group(al, lambda r: r["target"], lambda r: r["tst"].startswith("5")))
    assert f["al_top_tgt"] == t2 == "10.20.7.14:8080"
    f["al_5xx_win"] = T.count(al, lambda r: r["elb"] >= 500 and in_window(r["t"], "19:30:00", "20:00:00"))
    assert T.count(al, lambda r: r["elb"] >= 500 and (near(r["t"], "19:30:00") or near(r["t"], "20:00:00"))) == 0
    assert f["al_5xx_win"] == 65 and f["al_top_tgt_n"] == 93

    # IIS ---------------------------------------------------------------------------------
    ii = T.parse_iis(texts[IIS])
    f["ii_500"] = T.count(ii, lambda r: r["sc-status"] == "500")
    assert f["ii_500"] == 77 == sum(" 500 " in ln for ln in texts[IIS].splitlines())
    awk = T.group([ln.split(" ") for ln in texts[IIS].splitlines() if not ln.startswith("#")], lambda x: x[8],
                  lambda x: x[11] == "401").most_common(4)
    assert awk[0][1] > awk[1][1] > awk[2][1] > awk[3][1], awk
    f["ii_top3"] = awk[:3]
    assert [ip for ip, _ in awk[:3]] == [ip for ip, _, _ in W.IIS_BRUTE]
    (f["ii_top_uri"], f["ii_top_uri_n"]), _ = T.top(T.group(ii, lambda r: r["cs-uri-stem"],
                                                            lambda r: r["c-ip"] == awk[0][0]))
    assert f["ii_top_uri"] == "/BoxOffice/api/session"
    f["ii_settle_mean"] = exact_mean([int(r["time-taken"]) for r in ii if r["cs-uri-stem"] == W.SETTLEMENT])
    assert f["ii_settle_mean"] == W.SETTLEMENT_MEAN
    assert texts[IIS].count("#Fields:") == 2

    # kube audit --------------------------------------------------------------------------
    ka = T.parse_audit(texts[K8S])
    f["ka_403"] = T.count(ka, lambda r: r["responseStatus"]["code"] == 403)
    assert f["ka_403"] == 69 == texts[K8S].count('"code":403')
    (f["ka_deleter"], f["ka_deleter_n"]), _ = T.top(T.group(ka, lambda r: r["user"]["username"],
                                                            lambda r: r["verb"] == "delete" and r["objectRef"]["resource"] == "pods"))
    assert (f["ka_deleter"], f["ka_deleter_n"]) == ("dana.okafor@orrery-tickets.example", 73)

    # clickhouse --------------------------------------------------------------------------
    ch = T.parse_clickhouse(texts[CH])
    mem = [e for e in ch if "(MEMORY_LIMIT_EXCEEDED)" in e["msg"]]
    assert len(mem) == texts[CH].count("MEMORY_LIMIT_EXCEEDED") == sum(W.CH_MEM_BY_HOUR.values())
    by_h = T.group(mem, lambda e: e["t"].hour)
    f["ch_mem_by_hour"] = [by_h[h] for h in (17, 18, 19, 20)]
    assert f["ch_mem_by_hour"] == list(W.CH_MEM_BY_HOUR.values()) == [12, 17, 68, 31]
    assert T.count(mem, lambda e: e["t"].minute == 59 and e["t"].second >= 30 or e["t"].minute == 0 and e["t"].second < 30) == 0
    secs = sorted(float(m.group(1)) for e in ch for m in [re.search(r" in ([\d.]+) sec\., ", e["msg"])] if m)
    f["ch_slowest"] = secs[-1]
    assert f["ch_slowest"] == W.CH_SLOWEST and secs[-2] < 100
    proc = sorted(float(m.group(1)) for e in ch for m in [re.match(r"Processed in ([\d.]+) sec\.", e["msg"])] if m)
    assert f"{proc[-1]:.1f}" == f"{f['ch_slowest']:.1f}"

    # bind --------------------------------------------------------------------------------
    bq = [r for r in T.parse_bind(texts[BIND]) if r["cat"] == "queries"]
    (f["bd_top"], f["bd_top_n"]), _ = T.top(T.group(bq, lambda r: r["client"]))
    assert f["bd_top"] == W.DNS_TOP and f["bd_top_n"] == 660
    f["bd_names"] = len({r["name"] for r in bq})
    assert f["bd_names"] == len({r["name"].lower().rstrip(".") for r in bq}) >= 60

    # asa ---------------------------------------------------------------------------------
    fw = T.parse_asa(texts[ASA])
    deny = [r for r in fw if r["id"] == "106023"]
    assert len(deny) == texts[ASA].count("%ASA-4-106023") == texts[ASA].count("Deny ")
    f["fw_peak"], f["fw_peak_n"] = T.top(T.group(deny, lambda r: hm(r["t"])))[0]
    assert f["fw_peak"] == "20:17"
    (f["fw_top_src"], f["fw_top_src_n"]), _ = T.top(T.group(deny, lambda r: r["src"]))
    assert f["fw_top_src"] == W.ASA_SCANNER
    (f["fw_top_port"], f["fw_top_port_n"]), _ = T.top(T.group(deny, lambda r: r["dport"], lambda r: r["src"] == f["fw_top_src"]))
    assert f["fw_top_port"] == 3389
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
    # No two cases ask for the same count, and no count is a number its question contains.
    seen = {}
    for c in rows:
        for a in c.get("answer_has", []):
            a = a[0] if isinstance(a, list) else a
            if re.fullmatch(r"\d+", a) and len(a) >= 2:
                assert a not in seen or seen[a] == c["id"], (a, c["id"], seen[a])
                seen[a] = c["id"]
                assert a not in c["text"], (c["id"], a)
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
        print(f"queries-heldout4: {len(rows)} cases and {len(texts)} fixtures up to date")
    else:
        fx.mkdir(exist_ok=True)
        for name, text in texts.items():
            (fx / name).write_text(text)
        (HERE / SET_FILE).write_text(out_cases)
        print(f"queries-heldout4: wrote {len(rows)} cases, {len(texts)} fixtures "
              f"({sum(sizes.values()) / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for name, size in sizes.items():
            print(f"  {name}: {size} bytes, {texts[name].count(chr(10))} lines")
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")


if __name__ == "__main__":
    main()
