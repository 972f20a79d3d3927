#!/usr/bin/env python3
"""Generates the `queries-dev11` set: the fixture logs (planned once from `writers.PLAN_SEED`),
their truth (parsed back from the written files by `truth.py`) and `queries-dev11.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-dev11.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import re
import sys
from datetime import timedelta
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

HERE = Path(__file__).resolve().parent
SET = "queries-dev11"
MAX_BYTES = 5_000_000

AC, ZP, LB = "other_vhosts_access.log", "irrigod.log", "crate-allocator.log"
FIXTURES = [(AC, W.access_log), (ZP, W.irrigod_log), (LB, W.allocator_log)]
SHOP, GROW = W.SHOP, W.GROW


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute as an answer must hold it; the hour unpadded so `02:21` and `2:21` both pass."""
    return f"{t.hour}:{t.minute:02d}"


def hms(t):
    return f"{t.hour}:{t.minute:02d}:{t.second:02d}"


def build_fixtures():
    return {name: writer() for name, writer in FIXTURES}


def all_definitions(values, p):
    return [T.percentile_nearest_rank(values, p), T.percentile_linear(values, p), T.percentile_weibull(values, p),
            T.percentile_lower(values, p)]


def same_by_any_definition(values, p):
    a, b, c, d = all_definitions(values, p)
    assert abs(a - b) < 1e-9 and abs(a - c) < 1e-9 and abs(a - d) < 1e-9, (p, a, b, c, d)
    return a


def minute_of(t):
    return t.hour * 60 + t.minute


def clock_window(rows, pred, a, b, key="t", slack=5):
    """The rows matching `pred` with `key` in [a, b) ("HH:MM"), asserting none lies within
    `slack` minutes outside either edge (so "between a and b" cannot be read two ways)."""
    lo = int(a[:2]) * 60 + int(a[3:])
    hi = int(b[:2]) * 60 + int(b[3:])
    assert T.count(rows, lambda r: pred(r) and (lo - slack <= minute_of(r[key]) < lo or hi <= minute_of(r[key]) < hi + slack)) == 0
    return T.count(rows, lambda r: pred(r) and lo <= minute_of(r[key]) < hi)


def peak(rows, pred, key, margin=1.0):
    """The one bucket with the most matching rows; `margin` asks it to lead the second by that factor."""
    top = sorted(T.group(rows, key, pred).items(), key=lambda kv: -kv[1])[:2]
    assert top[0][1] > margin * top[1][1], top
    return top[0][0]


def first(rows, pred):
    return min(r["t"] for r in rows if pred(r))


def last(rows, pred):
    return max(r["t"] for r in rows if pred(r))


def ordered(*times):
    """Timeline events, each in its own second and in one order only."""
    secs = [hms(t) for t in times]
    assert all(a < b for a, b in zip(times, times[1:])), secs
    assert len(set(secs)) == len(secs), secs
    return secs


def strict_top(counter, k, gap=1.2):
    """The top k keys, each at least `gap` times the next (the (k+1)th included)."""
    top = T.ranked(counter, k + 1) if len(counter) > k else T.ranked(counter, k)
    for (_, a), (_, b) in zip(top, top[1:]):
        assert a >= gap * b, top
    return [key for key, _ in top[:k]]


def decimals(x, places=(1, 2), slack=0.15):
    """`x` rounded and truncated to each number of places, asserting it is off the rounding edge."""
    out = set()
    for p in places:
        scaled = x * 10 ** p
        frac = scaled - int(scaled)
        assert abs(frac - 0.5) > slack, (x, p)
        out.add(f"{round(x, p):.{p}f}")
        out.add(f"{int(scaled) / 10 ** p:.{p}f}")
    return out


def pct(part, whole):
    x = 100 * part / whole
    return sorted(decimals(x))


def ms_opts(us):
    """A duration asked in ms (or seconds): whole ms rounded/truncated, and seconds to 3 places."""
    ms = us / 1000
    out = {str(int(ms)), str(round(ms)), f"{us / 1e6:.3f}"}
    out |= {f"{int(x):,}" for x in (ms,) if ms >= 1000}
    return sorted(out)


def dt(sec):
    return W.DAY + timedelta(seconds=sec)


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # ------------------------------------------------------------ Apache vhost_combined + %D
    at = texts[AC]
    ac = T.parse_vhost_access(at)
    shop = [r for r in ac if r["vhost"] == SHOP]
    grow = [r for r in ac if r["vhost"] == GROW]
    assert len(shop) + len(grow) == len(ac)
    f["ac_shop_not_200_304"] = T.count(shop, lambda r: r["status"] not in (200, 304))
    f["ac_grow_ge400"] = T.count(grow, lambda r: r["status"] >= 400)
    assert f["ac_grow_ge400"] == T.count(grow, lambda r: r["status"] == 429)
    # over 5 s: the 503s (30 s) and the exports; nothing between 4 and 6 s
    assert T.count(ac, lambda r: 4_000_000 <= r["D"] <= 6_000_000) == 0
    f["ac_over_5s"] = T.count(ac, lambda r: r["D"] > 5_000_000)
    res503 = [r for r in shop if r["status"] == 503]
    assert len(res503) == W.RES_FAILS and all(r["path"] == "/api/alloc/reserve" for r in res503)
    assert f["ac_over_5s"] == W.RES_FAILS + W.EXPORTS
    f["ac_grow_top3"] = strict_top(T.group(grow, lambda r: r["client"]), 3)
    assert f["ac_grow_top3"] == [W.GW_IP[W.FLOOD_GW], W.DASHBOARD, W.MONITOR]
    f["ac_shop_distinct"] = len({r["client"] for r in shop})
    prod = [r["D"] for r in shop if r["path"].startswith("/produce/")]
    prod200 = [r["D"] for r in shop if r["path"].startswith("/produce/") and r["status"] == 200]
    lo, hi = W.PRODUCE_P95_US
    for vals in (prod, prod200):
        assert all(lo <= v <= hi for v in all_definitions(vals, 95)), all_definitions(vals, 95)
    assert lo // 1000 == hi // 1000 and round(lo / 1000) == round(hi / 1000)
    f["ac_produce_p95"] = sorted({str(lo // 1000), f"{lo / 1e6:.3f}"[:5]})  # "412", "0.412"
    tot = sum(r["bytes"] for r in grow)
    f["ac_grow_bytes"] = sorted({str(tot), f"{tot:,}"} | decimals(tot / 1e6, (1,)) | decimals(tot / 2 ** 20, (1,)))
    f["ac_shop_503_pct"] = pct(len(res503), len(shop))
    scan = lambda r: r["client"] == W.SCANNER  # noqa: E731
    f["ac_scanner_window"] = clock_window(ac, scan, "02:00", "02:40")
    assert f["ac_scanner_window"] == T.count(ac, scan)
    f["ac_grow_peak"] = hm(peak(grow, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.1))
    assert f["ac_grow_peak"] == "2:26"
    f["ac_last_503"] = last(shop, lambda r: r["status"] == 503)
    assert f["ac_last_503"] == dt(W.RES_FAIL_LAST)
    f["ac_first_503"] = first(shop, lambda r: r["status"] == 503)
    assert f["ac_first_503"] == dt(W.RES_FAIL_FIRST)
    # the last 503 is also the last line with 503 (completion order kept it last)
    assert [r for r in ac if r["status"] == 503][-1]["t"] == f["ac_last_503"]
    p404 = strict_top(T.group(shop, lambda r: r["path"], lambda r: r["status"] == 404), 1)
    assert p404 == ["/wp-login.php"]
    f["ac_top404_path"] = p404[0]
    f["ac_top404_n"] = T.count(shop, lambda r: r["path"] == p404[0] and r["status"] == 404)
    assert f["ac_top404_n"] == T.count(shop, lambda r: r["path"] == p404[0]) == at.count("/wp-login.php")

    # ------------------------------------------------------------ zap (irrigod)
    zp = T.parse_zap(texts[ZP])
    zt = texts[ZP]
    f["zp_not_info"] = T.count(zp, lambda r: r["level"] != "info")
    assert f["zp_not_info"] == len(zp) - zt.count('"level":"info"')
    kf = lambda r: r["msg"] == "kafka produce failed"  # noqa: E731
    f["zp_kafka_fails"] = T.count(zp, kf)
    assert f["zp_kafka_fails"] == W.KAFKA_FAILS == zt.count("kafka produce failed") == T.count(zp, lambda r: r["level"] == "error") - 1
    cyc = [r for r in zp if r["msg"] == "irrigation cycle finished"]
    water = T.Counter()
    for r in cyc:
        water[r["zone"]["id"]] += int(r["water_ml"])
    f["zp_top3_water_zones"] = strict_top(water, 3)
    assert f["zp_top3_water_zones"] == list(W.THIRSTY)
    f["zp_distinct_zones"] = len({r["zone"]["id"] for r in cyc})
    assert f["zp_distinct_zones"] == 72 == len({r["zone"]["id"] for r in zp if isinstance(r.get("zone"), dict)})
    el = [T.go_duration_us(r["elapsed"]) for r in cyc]
    p90 = same_by_any_definition(el, 90)
    p90ok = same_by_any_definition([T.go_duration_us(r["elapsed"]) for r in cyc if r["status"] == "ok"], 90)
    assert p90 == p90ok == W.ELAPSED_P90_DS * 100_000
    f["zp_elapsed_p90"] = ["221.5", "3m41.5s", "3:41.5", "221500", "221,500"]
    assert p90 == 221_500_000
    gh2 = [int(r["water_ml"]) for r in cyc if r["zone"]["greenhouse"] == "GH2"]
    f["zp_gh2_mean_l"] = sorted(decimals(sum(gh2) / len(gh2) / 1000))
    totw = sum(int(r["water_ml"]) for r in cyc)
    lit = totw / 1000
    f["zp_total_l"] = sorted({str(int(lit)), f"{int(lit):,}", str(round(lit)), f"{round(lit):,}"}
                             | decimals(lit / 1000, (2,)))
    ab = T.count(cyc, lambda r: r["status"] == "aborted")
    assert ab == W.ABORTED == zt.count('"status":"aborted"')
    f["zp_aborted_pct"] = pct(ab, len(cyc))
    sched = [T.go_duration_us(r["took"]) for r in zp if r["msg"] == "schedule recomputed"]
    srt = sorted(sched, reverse=True)
    assert srt[0] == W.SLOWEST_SCHEDULE_US and srt[1] < 0.6 * srt[0]
    f["zp_sched_max"] = ms_opts(int(srt[0]))
    [f["zp_valve"]] = [r["t"] for r in zp if r["msg"] == "valve did not close"]
    [f["zp_lockout"]] = [r["t"] for r in zp if r["msg"] == "zone locked out"]
    [f["zp_override"]] = [r["t"] for r in zp if r["msg"] == "manual override"]
    f["tl_valve"] = ordered(f["zp_valve"], f["zp_lockout"])
    assert [r["zone"]["id"] for r in zp if r["msg"] == "valve did not close"] == [W.VALVE_ZONE]
    # nothing else non-info within 5 minutes of the valve fault
    near = [r for r in zp if r["level"] != "info" and abs((r["t"] - f["zp_valve"]).total_seconds()) < 300]
    assert len(near) == 2, [r["msg"] for r in near]
    rl = [r for r in zp if r["msg"] == "telemetry rate limited"]
    gws = T.group(rl, lambda r: r["gateway"]["id"])
    assert strict_top(gws, 1, gap=5) == [W.FLOOD_GW]
    [fw] = {r["gateway"]["fw"] for r in rl if r["gateway"]["id"] == W.FLOOD_GW}
    f["zp_flood_fw"] = fw
    assert sum(1 for r in rl if r["gateway"]["fw"] == fw) == gws[W.FLOOD_GW]
    # every 429 of the grow vhost is one rate-limit warning, same gateway, same second
    a429 = sorted((r["t"], r["client"]) for r in grow if r["status"] == 429)
    z429 = sorted((r["t"].replace(microsecond=0), r["gateway"]["ip"]) for r in rl)
    assert a429 == z429
    f["zp_kafka_first"] = first(zp, kf)
    [f["zp_kafka_recovered"]] = [r["t"] for r in zp if r["msg"] == "kafka producer recovered"]

    # ------------------------------------------------------------ Logback (crate-allocator)
    lt = texts[LB]
    lb = T.parse_logback(lt)
    f["lb_errors"] = T.count(lb, lambda r: r["level"] == "ERROR")
    assert f["lb_errors"] == lt.count(" ERROR ") == W.RES_FAILS + W.POISONS + 1
    alloc = [r for r in lb if r["msg"].startswith("allocated crate=")]
    f["lb_kg_ge20"] = T.count(alloc, lambda r: float(r["kg"]) >= 20)
    assert f["lb_kg_ge20"] - T.count(alloc, lambda r: float(r["kg"]) > 20) == W.KG20_EXACT
    fails = [r for r in lb if r["msg"].startswith("reserve failed")]
    oks = [r for r in lb if r["msg"].startswith("reserve ok")]
    assert len(fails) == W.RES_FAILS
    assert len(oks) == T.count(shop, lambda r: r["path"] == "/api/alloc/reserve" and r["status"] == 200)
    chains = {tuple(T.caused_by(r)) for r in fails}
    assert chains == {("org.springframework.transaction.CannotCreateTransactionException",
                       "org.hibernate.exception.JDBCConnectionException",
                       "java.sql.SQLTransientConnectionException")}, chains
    poison = [r for r in lb if r["msg"].startswith("Backoff none exhausted for harvest.picked-3@")]
    assert len(poison) == W.POISONS
    chains = {tuple(T.caused_by(r)) for r in poison}
    assert chains == {("org.springframework.kafka.listener.ListenerExecutionFailedException",
                       "org.springframework.kafka.support.serializer.DeserializationException",
                       "com.fasterxml.jackson.databind.exc.InvalidFormatException")}, chains
    assert T.count(lb, lambda r: r["level"] == "ERROR" and r["t"] >= dt(3 * 3600)) == W.POISONS
    f["lb_first_poison"] = first(poison, lambda r: True)
    kg = T.Counter()
    for r in alloc:
        kg[r["greenhouse"]] += float(r["kg"])
    f["lb_top3_kg"] = strict_top(kg, 3)
    took = [int(r["took"][:-2]) for r in alloc]
    p95 = same_by_any_definition(took, 95)
    assert p95 == W.TOOK_P95_MS
    f["lb_took_p95"] = ["0.214", "214"]
    means = {}
    for g in W.GREENHOUSES:
        v = [int(r["took"][:-2]) for r in alloc if r["greenhouse"] == g]
        means[g] = sum(v) / len(v)
    top = sorted(means.items(), key=lambda kv: -kv[1])
    assert top[0][0] == "GH6" and top[0][1] > 1.3 * top[1][1], top
    f["lb_slowest_gh"] = "GH6"
    f["lb_distinct_orders"] = len({r["order"] for r in alloc})
    f["lb_peak_alloc"] = hm(peak(alloc, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.5))
    assert f["lb_peak_alloc"] == "1:59"
    sw = lambda r: r["msg"].startswith("short weight")  # noqa: E731
    f["lb_short_weight_window"] = clock_window(lb, sw, "02:00", "03:00")
    assert f["lb_short_weight_window"] == W.SHORT_WEIGHT_IN_HOUR2
    hik = lambda r: r["level"] == "ERROR" and any("Connection is not available" in x for x in r["more"])  # noqa: E731
    f["lb_first_hikari"], f["lb_last_hikari"] = first(lb, hik), last(lb, hik)
    assert T.count(lb, hik) == W.RES_FAILS
    [f["lb_rollup_start"]] = [r["t"] for r in lb if r["msg"].startswith("yield rollup started")]
    [f["lb_rollup_end"]] = [r["t"] for r in lb if r["msg"].startswith("yield rollup finished")]
    f["lb_fail_pct"] = pct(len(fails), len(fails) + len(oks))
    f["lb_nc_first"] = first(lb, lambda r: "could not be established" in r["msg"])
    [f["lb_commit_failed"]] = [r["t"] for r in lb if any("CommitFailedException" in x for x in r["more"])]
    [f["lb_rejoined"]] = [r["t"] for r in lb if "Successfully joined group" in r["msg"]]

    # ------------------------------------------------------------ across the logs
    f["tl_pool"] = ordered(f["lb_rollup_start"], f["ac_first_503"], f["ac_last_503"], f["lb_rollup_end"])
    f["tl_kafka"] = ordered(f["zp_kafka_first"], f["lb_nc_first"], f["lb_commit_failed"], f["zp_kafka_recovered"])
    f["tl_scan"] = ordered(first(ac, scan), last(ac, scan))
    return f


def check_cases(rows):
    """Every integer an answer must hold is 60 or more, no two cases share one, and no case's
    question (or earlier turn) contains it."""
    seen = {}
    for c in rows:
        asked = set(re.findall(r"\d+", c["text"] + " " + " ".join(c.get("turns", []))))
        for want in c.get("answer_has", []):
            options = want if isinstance(want, list) else [want]
            ints = [o for o in options if re.fullmatch(r"\d[\d,]*", o)]
            if not ints:
                continue
            v = int(ints[0].replace(",", ""))
            assert v >= 60, (c["id"], v)
            assert str(v) not in asked, (c["id"], v)
            assert v not in seen, (c["id"], seen.get(v), v)
            seen[v] = c["id"]
    return seen


AREAS = {"apache", "zap", "logback", "proc"}
CATS = {"count", "top", "distinct", "stat", "share", "window", "peak", "first_last", "timeline", "cause", "followup",
        "process", "action"}
PLACEHOLDER = re.compile(r"\{(pid|pids|count|port|user):([^}]*)\}")


def check_harness_rules(rows):
    """What the harness's `query_sets_are_well_formed` (tests/tests/eval/query_case.rs) asserts,
    plus the set's own fields (`cat`, `area`, `fmt`)."""
    assert len(rows) >= 40, len(rows)
    for c in rows:
        cid = c["id"]
        specs = c.get("procs", [])
        assert isinstance(specs, list), cid
        for s in specs:
            assert isinstance(s.get("name"), str) and 1 <= len(s["name"]) <= 15 and "/" not in s["name"], (cid, s)
            assert set(s) <= {"name", "args", "count", "user", "listen", "interp", "mem_mb"}, (cid, s)
            assert all(isinstance(a, str) for a in s.get("args", [])), cid
        for name in c.get("files", []):
            assert (HERE / "fixtures" / name).is_file() or name in dict(FIXTURES), (cid, name)
        texts = [json.dumps(c["text"], ensure_ascii=False), json.dumps(c.get("answer_has"), ensure_ascii=False),
                 json.dumps(c.get("turns"), ensure_ascii=False)]
        if isinstance(c.get("approval"), dict) and "kill" in c["approval"]:
            texts.append("{count:%s}" % c["approval"]["kill"])
        for kind, name in (m for t in texts for m in PLACEHOLDER.findall(t)):
            mine = [s for s in specs if s["name"] == name]
            assert mine, (cid, kind, name, "not planted")
            copies = sum(max(1, s.get("count", 1)) for s in mine)
            assert kind != "pid" or copies == 1, (cid, "pid of", copies)
            assert kind != "port" or mine[0].get("listen"), (cid, name, "no port")
        ah = c.get("answer_has")
        assert (isinstance(ah, list) and ah) or "approval" in c, (cid, "scores nothing")
        for want in ah or []:
            assert isinstance(want, str) or (isinstance(want, list) and want and all(isinstance(x, str) for x in want)), cid
        assert c["cat"] in CATS and c["area"] in AREAS and c["fmt"], cid
        assert isinstance(c["text"], str) and c["text"], cid


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    check_cases(rows)
    check_harness_rules(rows)
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if not (fx / name).is_file() or (fx / name).read_text() != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{x} (not generated)" for x in extra]
        cases_file = HERE / f"{SET}.jsonl"
        if not cases_file.is_file() or cases_file.read_text() != out_cases:
            stale.append(f"{SET}.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"{SET}: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text)
    (HERE / f"{SET}.jsonl").write_text(out_cases)
    print(f"{SET}: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")
        for name, text in texts.items():
            print(f"  {name}: {text.count(chr(10))} lines, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
