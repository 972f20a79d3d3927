#!/usr/bin/env python3
"""Generates the `queries-heldout15` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout15.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout15.jsonl
    python3 gen.py --check    # regenerate in memory; fail if anything on disk differs or a case is malformed
    python3 gen.py -v         # also print every figure
"""

import json
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20350208
HERE = Path(__file__).resolve().parent
SET = "queries-heldout15"
MAX_BYTES = 5_000_000

ELB, BUN, JUL = "pellucid-web-elb.log", "lens-api.log", "lab-router.log"


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute; the hour unpadded so `02:21` and `2:21` both pass."""
    return f"{t.hour}:{t.minute:02d}"


def hms(t):
    return f"{t.hour}:{t.minute:02d}:{t.second:02d}"


def same_by_any_definition(values, p):
    a = T.percentile_nearest_rank(values, p)
    b = T.percentile_linear(values, p)
    c = T.percentile_weibull(values, p)
    d = T.percentile_lower(values, p)
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


def ms_opts(seconds):
    """A duration asked in ms: the whole milliseconds (truncated and rounded) and the seconds to 3 places."""
    ms = seconds * 1000
    out = {str(int(ms + 1e-9)), str(round(ms))}
    out |= {f"{seconds:.3f}", f"{int(seconds * 1000 + 1e-9) / 1000:.3f}"}
    out |= {f"{int(x):,}" for x in (ms,) if ms >= 1000}
    return sorted(out)


def pct(k, total):
    """A share in percent to one decimal, asserted off the rounding edge (rounded = truncated)."""
    p = 100 * k / total
    assert 0.1 < (p * 10) % 1 < 0.45 and int(p * 10) % 10, p
    return f"{p:.1f}"


def strict_top(counter, k, margin=1.2):
    top = T.ranked(counter, k + 1)
    for i in range(k):
        assert top[i][1] > margin * top[i + 1][1], top
    return [x for x, _ in top[:k]]


def build_fixtures():
    return W.write_all(SEED)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- the Classic ELB access log
    et = texts[ELB]
    el = T.parse_elb(et)
    assert all(r["elb"] == W.ELB for r in el)
    f["e_other_status"] = T.count(el, lambda r: r["status"] not in (200, 201, 304))
    slow = lambda r: r["bpt"] > 2.0  # noqa: E731
    assert T.count(el, lambda r: 1.8 <= r["bpt"] <= 2.2) == 0
    f["e_slow2"] = T.count(el, slow)
    clients = T.group(el, lambda r: r["client"])
    f["e_top3_clients"] = strict_top(clients, 3)
    assert f["e_top3_clients"] == [W.SCRAPER, W.OFFICE, W.MONITOR]
    presc = [r["bpt"] for r in el if r["path"].startswith("/api/v1/prescriptions/")]
    assert min(presc) > 0
    p95 = same_by_any_definition(presc, 95)
    assert p95 == W.PRESC_P95
    f["e_presc_p95"] = ms_opts(p95)
    sums, cnts = {}, {}
    for r in el:
        if r["bpt"] < 0:
            continue
        for key in (("path", r["path"]), ("target", r["target"])):
            sums[key] = sums.get(key, 0) + r["bpt"]
            cnts[key] = cnts.get(key, 0) + 1
    for kind in ("path", "target"):
        means = sorted(((sums[k] / cnts[k], k[1]) for k in sums if k[0] == kind), reverse=True)
        assert means[0][1] == "/api/v1/quote" and means[1][0] * 1.5 < means[0][0], means[:3]
    f["e_slowest_path"] = "/api/v1/quote"
    four = T.count(el, lambda r: 400 <= r["status"] < 500)
    f["e_4xx_pct"] = pct(four, len(el))
    s503 = lambda r: r["status"] == 503  # noqa: E731
    f["e_503_window"] = clock_window(el, s503, "01:15", "02:00")
    assert f["e_503_window"] == T.count(el, s503) == len(re.findall(r" 503 503 ", et))
    f["e_peak_minute"] = hm(peak(el, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["e_peak_minute"] == hm(W.BURST_MIN)
    mx = sorted((r["bpt"] for r in el), reverse=True)
    assert mx[0] == W.MAX_BPT and mx[1] < 0.8 * mx[0]
    f["e_max_bpt_ms"] = ms_opts(mx[0])
    s504 = lambda r: r["status"] == 504  # noqa: E731
    f["e_first_504"] = first(el, s504)
    assert hms(f["e_first_504"]) == hms(W.STALL.replace(minute=39))
    assert T.count(el, s504) == et.count(" 504 0 0 0 ") and all(r["backend"] == W.B2 for r in el if s504(r))
    f["e_distinct_clients"] = len(clients)
    f["e_scraper_429"] = T.count(el, lambda r: r["client"] == W.SCRAPER and r["status"] == 429)
    f["e_first_503"] = first(el, s503)

    # --- lens-api (Bunyan)
    bl = T.parse_bunyan(texts[BUN])
    f["b_not30"] = T.count(bl, lambda r: r["level"] != 30)
    f["b_ge40"] = T.count(bl, lambda r: r["level"] >= 40)
    assert f["b_not30"] > f["b_ge40"] + 60
    routed = [r for r in bl if r["msg"] == "order routed"]
    lens = T.group(routed, lambda r: r["order"]["lensType"])
    f["b_top_lens"] = strict_top(lens, 1)[0]
    orders = [r for r in bl if "order" in r]
    assert strict_top(T.group(orders, lambda r: r["order"]["lensType"]), 1) == [f["b_top_lens"]]
    assert f["b_top_lens"] == "single-vision"
    cents = sum(r["order"]["totalCents"] for r in routed)
    assert cents % 100 == 50
    f["b_sum_eur"] = [f"{cents / 100:.1f}", f"{cents / 100:,.1f}"]
    quotes = [r for r in bl if r["msg"] == "quote computed"]
    p90 = same_by_any_definition([r["durationMs"] for r in quotes], 90)
    assert p90 == W.QUOTE_P90
    f["b_quote_p90_s"] = [f"{p90 / 1000:.3f}", f"{p90 / 1000:.2f}", str(p90), f"{p90:,}"]
    qs, qc = {}, {}
    for r in quotes:
        k = r["quote"]["lensType"]
        qs[k] = qs.get(k, 0) + r["durationMs"]
        qc[k] = qc.get(k, 0) + 1
    qm = sorted(((qs[k] / qc[k], k) for k in qs), reverse=True)
    assert qm[0][1] == "occupational" and qm[1][0] * 2 < qm[0][0], qm
    f["b_slowest_quote_lens"] = "occupational"
    f["b_distinct_customers"] = len({r["order"]["customerId"] for r in routed})
    assert f["b_distinct_customers"] < len(routed)
    rl = [r for r in bl if r["msg"] == "rate limit exceeded"]
    f["b_last_ratelimit"] = max(r["t"] for r in rl)
    assert T.count(rl, lambda r: r["client"]["ip"] == W.SCRAPER) == f["e_scraper_429"]
    assert len(rl) == T.count(el, lambda r: r["status"] == 429)
    f["b_err_minute"] = hm(peak(bl, lambda r: r["level"] >= 50, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["b_err_minute"] == hm(W.ERR_MIN)
    f["b_prog_pct"] = pct(lens["progressive"], len(routed))
    labs = T.group(routed, lambda r: r["order"]["lab"])
    top_lab = strict_top(labs, 1)[0]
    assert top_lab == "kestrel"
    kc = [r["order"]["totalCents"] for r in routed if r["order"]["lab"] == top_lab]
    assert sum(kc) == night.kestrel_mean * len(kc) and 0 < night.kestrel_mean % 10 < 5
    f["b_kestrel_mean_eur"] = [f"{night.kestrel_mean / 100:.1f}"]
    [f["b_heap"]] = [r["t"] for r in bl if r["msg"].startswith("heap usage")]
    [f["b_lag"]] = [r["t"] for r in bl if r["msg"].startswith("event loop delay")]
    [f["b_fatal"]] = [r["t"] for r in bl if r["level"] == 60]
    [f["b_listen"]] = [r["t"] for r in bl if r["msg"] == "lens-api listening"]
    fails = [r for r in bl if r["msg"] == "order submission failed"]
    assert len(fails) == f["e_503_window"]
    f["b_first_nordlys_after"] = min(r["t"] for r in routed if r["order"]["lab"] == "nordlys" and r["t"] > max(x["t"] for x in fails))
    # the ELB's 201s are lens-api's routed orders, its 503s lens-api's failures
    assert T.count(el, lambda r: r["path"] == "/api/v1/orders" and r["status"] == 201) == len(routed)
    assert T.count(el, lambda r: r["path"] == "/api/v1/quote") == len(quotes)

    # --- lab-router (java.util.logging)
    jt = texts[JUL]
    jl = T.parse_jul(jt)
    sev = lambda r: r["level"] == "SEVERE"  # noqa: E731
    f["j_severe"] = T.count(jl, sev)
    assert f["j_severe"] == jt.count("SEVERE:") == len(re.findall(r"^SEVERE: ", jt, re.M))
    f["j_not_info"] = T.count(jl, lambda r: r["level"] != "INFO")
    assert f["j_not_info"] == jt.count("\nWARNING: ") + f["j_severe"]
    pk = [r for r in jl if sev(r) and any("SunCertPathBuilderException" in c for c in r["caused"])]
    db = [r for r in jl if sev(r) and any("ConnectException" in c for c in r["caused"])]
    assert len(pk) + len(db) == f["j_severe"] and len(pk) == len(fails)
    f["j_first_severe"] = first(jl, sev)
    f["j_last_severe"] = last(jl, sev)
    assert hms(f["j_first_severe"]) == "1:18:40" and f["j_last_severe"] == W.DB_B
    assert min(r["t"] for r in db) == W.DB_A and db[0]["caused"][-1] == "java.net.ConnectException: Connection refused"
    assert pk[0]["caused"][-1].startswith("sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid")
    rt = [r for r in jl if r["msg"].startswith("Routed order ")]
    for r in rt:
        m = re.fullmatch(r"Routed order (PO-\d+) to lab (\w+) \[lens=([\w-]+) took=(\d+)ms\]", r["msg"])
        assert m, r["msg"]
        r["lab"], r["took"] = m.group(2), int(m.group(4))
    assert len(rt) == len(routed) + len(fails)
    f["j_top3_labs"] = strict_top(T.group(rt, lambda r: r["lab"]), 3)
    assert f["j_top3_labs"] == ["kestrel", "nordlys", "ambrose"]
    ts, tc = {}, {}
    for r in rt:
        ts[r["lab"]] = ts.get(r["lab"], 0) + r["took"]
        tc[r["lab"]] = tc.get(r["lab"], 0) + 1
    tm = sorted(((ts[k] / tc[k], k) for k in ts), reverse=True)
    assert tm[0][1] == "vantage" and tm[1][0] * 2 < tm[0][0], tm
    f["j_slowest_lab"] = "vantage"
    p50 = same_by_any_definition([r["took"] for r in rt], 50)
    assert p50 == W.TOOK_P50
    f["j_took_p50_s"] = [f"{p50 / 1000:.3f}", f"{p50 / 1000:.2f}", str(p50)]
    f["j_db_window"] = clock_window(jl, lambda r: sev(r) and r["class"].endswith("StatusPoller"), "03:00", "03:20")
    assert f["j_db_window"] == len(db)
    assert T.count(rt, lambda r: 1400 < r["took"] < 2250) == 0
    f["j_took_ge1500"] = T.count(rt, lambda r: r["took"] >= 1500)
    warn = lambda r: r["level"] == "WARNING"  # noqa: E731
    f["j_first_warn"] = first(jl, warn)
    assert hms(f["j_first_warn"]) == "0:41:07"
    f["j_peak_minute"] = hm(peak(rt, lambda r: True, lambda r: T.minutes(r["t"]), margin=2.0))
    assert f["j_peak_minute"] == "1:52"
    [f["j_degraded"]] = [r["t"] for r in jl if "marked DEGRADED" in r["msg"]]
    [f["j_reload"]] = [r["t"] for r in jl if r["msg"].startswith("Reloaded trust store")]
    [f["j_replay"]] = [r["t"] for r in jl if r["msg"].startswith("Replaying parked")]
    f["j_last_pkix"] = max(r["t"] for r in pk)

    # --- the night reads one way only (each timeline's events in distinct seconds)
    f["tl_1818"] = ordered(f["j_first_severe"], f["e_first_503"], f["j_degraded"])
    f["tl_0240"] = ordered(f["b_heap"], f["b_lag"], f["b_fatal"], f["b_listen"])
    f["tl_0152"] = ordered(f["j_last_pkix"], f["j_reload"], f["j_replay"], f["b_first_nordlys_after"])
    assert hms(f["b_first_nordlys_after"]) == hms(W.FIRST_SYNC_NORDLYS)
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


AREAS = {"elb", "bunyan", "jul", "proc"}
PH_KINDS = ("pid", "pids", "count", "port", "user")


def _placeholders(s):
    """`{kind:arg}` placeholders naming planted processes, as `query_case.rs`'s test reads them."""
    out = []
    for piece in s.split("{")[1:]:
        if "}" not in piece:
            continue
        inner = piece.split("}", 1)[0]
        if ":" in inner:
            kind, arg = inner.split(":", 1)
            if kind in PH_KINDS:
                out.append((kind, arg))
    return out


def well_formed(rows, fixture_names):
    """The rules of `query_sets_are_well_formed` (tests/tests/eval/query_case.rs), plus this set's own."""
    assert len(rows) >= 40, len(rows)
    for c in rows:
        cid = c["id"]
        specs = c.get("procs", [])
        assert isinstance(specs, list), cid
        for s in specs:
            assert isinstance(s.get("name"), str), cid
            assert 1 <= len(s["name"]) <= 15 and "/" not in s["name"], (cid, s["name"])
            assert set(s) <= {"name", "args", "count", "user", "listen", "interp", "mem_mb"}, (cid, s)
            assert all(isinstance(a, str) for a in s.get("args", [])), cid
        for name in c.get("files", []):
            assert name in fixture_names, (cid, name)
        texts = [json.dumps(c["text"], ensure_ascii=False), json.dumps(c.get("answer_has"), ensure_ascii=False),
                 json.dumps(c.get("turns"), ensure_ascii=False)]
        if "approval" in c and "kill" in c["approval"]:
            texts.append("{count:" + c["approval"]["kill"] + "}")
        for kind, name in (p for t in texts for p in _placeholders(t)):
            mine = [s for s in specs if s["name"] == name]
            assert mine, (cid, kind, name, "not planted")
            copies = sum(max(1, s.get("count", 1)) for s in mine)
            assert kind != "pid" or copies == 1, (cid, "pid of", copies)
            assert kind != "port" or mine[0].get("listen"), (cid, name, "no port")
        assert (isinstance(c.get("answer_has"), list) and c["answer_has"]) or "approval" in c, (cid, "scores nothing")
        for want in c.get("answer_has", []):
            assert isinstance(want, str) or (isinstance(want, list) and want and all(isinstance(x, str) for x in want)), cid
        assert c["area"] in AREAS and c["cat"] and c["fmt"], cid
        assert (c["area"] == "proc") == (not c["files"]), cid
        assert all(isinstance(t, str) for t in c.get("turns", [])), cid


def main():
    texts, night = build_fixtures()
    f = facts(texts, night)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, set(texts))
    check_cases(rows)
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
