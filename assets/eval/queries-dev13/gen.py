#!/usr/bin/env python3
"""Generates the `queries-dev13` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev13.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev13.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import math
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

HERE = Path(__file__).resolve().parent
SET = "queries-dev13"
MIN_BYTES, MAX_BYTES = 1_000_000, 3_000_000   # per fixture

PN, EC, RP = "shopfront-bff.log", "slot-allocator.ecs.ndjson", "route-planner.json"
FIXTURES = [(PN, W.bff_log), (EC, W.ecs_log), (RP, W.rp_log)]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute; the hour unpadded so `02:21` and `2:21` both pass."""
    return f"{t.hour}:{t.minute:02d}"


def hms(t):
    return f"{t.hour}:{t.minute:02d}:{t.second:02d}"


def build_fixtures():
    return {name: writer() for name, writer in FIXTURES}


def same_by_any_definition(values, p):
    a = T.percentile_nearest_rank(values, p)
    b = T.percentile_linear(values, p)
    c = T.percentile_weibull(values, p)
    d = T.percentile_lower(values, p)
    assert abs(a - b) < 1e-9 and abs(a - c) < 1e-9 and abs(a - d) < 1e-9, (p, a, b, c, d)
    return a


def peak(rows, pred, key, margin=1.0):
    """The one bucket with the most matching rows; `margin` asks it to lead the second by that factor."""
    top = sorted(T.group(rows, key, pred).items(), key=lambda kv: -kv[1])[:2]
    assert top[0][1] > margin * top[1][1], top
    return top[0][0]


def first(rows, pred):
    return min(r["t"] for r in rows if pred(r))


def last(rows, pred):
    return max(r["t"] for r in rows if pred(r))


def dec_opts(x, places):
    """`x` to `places` decimals, rounded and truncated (both are usual renderings)."""
    s = 10 ** places
    return sorted({f"{x:.{places}f}", f"{math.floor(x * s + 1e-9) / s:.{places}f}"})


def off_edge(x, places):
    """`x` is not within 0.1 of a unit of the last place from a rounding edge."""
    frac = (x * 10 ** places) % 1
    assert 0.1 < frac < 0.4 or 0.6 < frac < 0.9, (x, places)


def ms_opts(ms):
    """A duration asked in ms: whole ms (rounded or truncated, with or without separators), or
    one decimal (rounded or truncated)."""
    out = set(dec_opts(ms, 1))
    for r in {round(ms), math.floor(ms)}:
        out |= {str(r), f"{r:,}"}
    return sorted(out, key=lambda s: (not re.fullmatch(r"\d+", s), s))


def top1(counter, margin):
    """The leader of a Counter and its count, asserting it leads the runner-up by `margin`."""
    best = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:2]
    assert best[0][1] > margin * best[1][1], best
    return best[0]


def strict3(pairs):
    assert pairs[0][1] > 1.2 * pairs[1][1] and pairs[1][1] > 1.2 * pairs[2][1] and pairs[2][1] > 1.2 * pairs[3][1], pairs
    return [k for k, _ in pairs[:3]]


def mb_opts(b):
    off_edge(b / 1e6, 1)
    off_edge(b / 2 ** 20, 1)
    return sorted(set(dec_opts(b / 1e6, 1) + dec_opts(b / 2 ** 20, 1) + [str(b), f"{b:,}"]))


def share_opts(part, whole):
    share = 100 * part / whole
    off_edge(share, 1)
    assert not f"{share:.1f}".endswith(".0"), share
    return [f"{share:.1f}"]


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # --- shopfront-bff (pino)
    pt = texts[PN]
    pl = T.parse_pino(pt)
    req = [r for r in pl if "req.url" in r]
    f["pn_lvl50"] = T.count(pl, lambda r: r["level"] == 50)
    assert f["pn_lvl50"] == pt.count('{"level":50,')
    f["pn_lvl40"] = T.count(pl, lambda r: r["level"] == 40)
    assert f["pn_lvl40"] == pt.count('{"level":40,')
    f["pn_4xx"] = T.count(req, lambda r: 400 <= r["status"] < 500)
    f["pn_5xx"] = T.count(req, lambda r: r["status"] >= 500)
    assert f["pn_5xx"] == W.CHECKOUT_503 + W.CHECKOUT_504 + W.SLOTS_503 + W.CATALOG_502 + W.ORDERS_500
    assert T.count(req, lambda r: r["status"] >= 500 and r["level"] != 50) == 0
    g5 = T.group(req, lambda r: r["path"], lambda r: r["status"] >= 500)
    f["pn_top3_5xx"] = strict3(T.ranked(g5, 3) + [("rest", max(v for k, v in g5.items() if not k.startswith("/api/c") and k != "/api/slots"))])
    assert f["pn_top3_5xx"] == ["/api/checkout/slot", "/api/slots", "/api/catalog/search"]
    slots = [r["responseTime"] for r in req if r["req.method"] == "GET" and r["path"] == "/api/slots"]
    p95 = same_by_any_definition(slots, 95)
    assert p95 == P["bff_p95"]
    f["pn_slots_p95"] = sorted({str(p95), f"{p95:,}", f"{p95 / 1000:.3f}"})
    s, c = {}, {}
    for r in req:
        s[r["path"]] = s.get(r["path"], 0) + r["responseTime"]
        c[r["path"]] = c.get(r["path"], 0) + 1
    means = sorted(((s[k] / c[k], k) for k in s if c[k] >= 20), reverse=True)
    assert means[0][1] == "/api/checkout/slot" and means[1][0] * 1.4 < means[0][0], means[:3]
    f["pn_worst_avg"] = means[0][1]
    rts = sorted(req, key=lambda r: -r["responseTime"])
    assert rts[1]["responseTime"] < 0.5 * rts[0]["responseTime"]
    top = rts[0]
    assert top["req.url"] == W.SLOWEST_BFF_URL and top["responseTime"] == W.SLOWEST_BFF_MS
    f["pn_slowest_url"] = top["path"]
    f["pn_slowest_ms"] = sorted({str(top["responseTime"]), f"{top['responseTime']:,}", f"{top['responseTime'] / 1000:.1f}"})
    f["pn_peak"] = hm(peak(req, lambda r: True, lambda r: T.minute(r["t"]), margin=1.5))
    assert f["pn_peak"] == hm(peak(pl, lambda r: True, lambda r: T.minute(r["t"]), margin=1.5)) == hm(W.PROMO_MIN)
    f["pn_timeout"] = T.count(pl, lambda r: r.get("err.type") == "TimeoutError")
    assert f["pn_timeout"] == sum(1 for line in pt.splitlines() if "TimeoutError" in line) == W.CHECKOUT_504
    [fatal] = [r for r in pl if r["level"] == 60]
    f["pn_fatal"] = fatal["t"]
    assert fatal["err.message"] == "Cannot read properties of undefined (reading 'slotId')"
    pids = [r["pid"] for r in pl]
    assert sorted(set(pids)) == sorted({W.OLD_PID, W.NEW_PID})
    assert all(r["pid"] == W.OLD_PID for r in pl if r["t"] <= fatal["t"])
    assert all(r["pid"] == W.NEW_PID for r in pl if r["t"] > fatal["t"])
    f["pn_new_pid"] = W.NEW_PID
    b = sum(int(r["res.headers.content-length"]) for r in req if r["path"] == "/api/catalog/search")
    f["pn_search_mb"] = mb_opts(b)
    f["pn_first_503"] = first(req, lambda r: r["status"] == 503)

    # --- slot-allocator (ECS)
    et = texts[EC]
    el = T.parse_ecs(et)
    http = [r for r in el if "http.response.status_code" in r]
    f["ec_errors"] = T.count(el, lambda r: r["log.level"] == "error")
    assert f["ec_errors"] == et.count('"log.level":"error"')
    errtype = T.group(el, lambda r: r["error.type"], lambda r: "error.type" in r)
    f["ec_top_errtype"], f["ec_top_errtype_n"] = top1(errtype, 1.5)
    assert f["ec_top_errtype"] == "*net.OpError"
    assert f["ec_top_errtype_n"] == et.count('"type":"*net.OpError"')
    av = [r["event.duration"] for r in http if r["url.path"] == "/v2/slots/availability"]
    p99 = same_by_any_definition(av, 99)
    assert p99 == P["ecs_p99_ns"]
    f["ec_avail_p99"] = ms_opts(p99 / 1e6)
    rs = [r["event.duration"] for r in http if r["http.request.method"] == "POST" and r["url.path"] == "/v2/slots/reserve"]
    f["ec_reserve_avg"] = ms_opts(sum(rs) / len(rs) / 1e6)
    st503 = T.group(http, lambda r: r["labels.store_id"], lambda r: r["http.response.status_code"] == 503)
    f["ec_top_store"] = top1(st503, 1.3)[0]
    assert f["ec_top_store"] == W.HOT_STORE
    durs = sorted(http, key=lambda r: -r["event.duration"])
    assert durs[1]["event.duration"] < 0.5 * durs[0]["event.duration"]
    f["ec_slowest_trace"] = durs[0]["trace.id"]
    assert f["ec_slowest_trace"] == W.SLOWEST_ECS_TRACE and et.count(W.SLOWEST_ECS_TRACE) == 1
    f["ec_stores"] = len({r["labels.store_id"] for r in el if "labels.store_id" in r})
    assert f["ec_stores"] == len(W.STORES)
    f["ec_peak_503"] = hm(peak(http, lambda r: r["http.response.status_code"] == 503, lambda r: T.minute(r["t"]), 1.3))
    assert f["ec_peak_503"] == hm(W.ECS_503_BURST)
    f["ec_breaker"] = first(el, lambda r: r["message"] == "circuit breaker opened")
    assert f["ec_breaker"] == W.BREAKER_OPEN
    f["ec_5xx_share"] = share_opts(T.count(http, lambda r: r["http.response.status_code"] >= 500), len(http))
    f["ec_409"] = T.count(http, lambda r: r["http.response.status_code"] == 409)
    assert f["ec_409"] == et.count('"status_code":409')
    assert T.count(http, lambda r: 4.5e9 <= r["event.duration"] <= 5.5e9) == 0
    f["ec_over5s"] = T.count(http, lambda r: r["event.duration"] > 5e9)
    f["ec_first_error"] = first(el, lambda r: r["log.level"] == "error")
    assert f["ec_first_error"] == W.REDIS_FROM

    # --- route-planner (Cloud Logging)
    rt = texts[RP]
    rl = T.parse_gcp(rt)
    rh = [r for r in rl if "lat_us" in r]
    sev = lambda *s: (lambda r: r["severity"] in s)  # noqa: E731
    f["rp_warn_up"] = T.count(rl, sev("WARNING", "ERROR", "CRITICAL", "ALERT", "EMERGENCY"))
    assert f["rp_warn_up"] == sum(rt.count(f'"severity": "{s}"') for s in ("WARNING", "ERROR", "CRITICAL"))
    opt = [r["lat_us"] for r in rh if r["path"] == "/v1/routes:optimize"]
    p90 = same_by_any_definition(opt, 90)
    assert p90 == P["rp_p90_us"]
    f["rp_opt_p90"] = ms_opts(p90 / 1000)
    lats = sorted(rh, key=lambda r: -r["lat_us"])
    assert lats[1]["lat_us"] < 0.7 * lats[0]["lat_us"]
    f["rp_slowest_msg"] = lats[0]["message"]
    assert f["rp_slowest_msg"] == W.SLOWEST_RP_MSG and rt.count(W.SLOWEST_RP_MSG) == 1
    f["rp_slowest_trace"] = lats[0]["logging.googleapis.com/trace"].rsplit("/", 1)[1]
    assert f["rp_slowest_trace"] == W.SLOWEST_RP_TRACE
    f["rp_stops"] = sum(r["stops"] for r in rl if "stops" in r)
    assert T.count(rl, lambda r: "stops" in r) == T.count(rl, lambda r: r["message"].startswith("route optimized"))
    et_ = T.group(rl, lambda r: r["logging.googleapis.com/labels.depot"], sev("ERROR"))
    f["rp_top_depot"] = top1(et_, 1.3)[0]
    assert f["rp_top_depot"] == W.HOT_DEPOT
    f["rp_vans"] = len({r["logging.googleapis.com/labels.van_id"] for r in rl if "logging.googleapis.com/labels.van_id" in r})
    assert f["rp_vans"] == len(W.VANS)
    eta = [r["lat_us"] for r in rh if r["path"] == "/v1/eta" and r["httpRequest.requestMethod"] == "GET"]
    m = sum(eta) / len(eta) / 1e6
    off_edge(m, 2)
    f["rp_eta_mean"] = sorted(set(dec_opts(m, 2) + dec_opts(m, 3)) | {str(round(m * 1000)), str(math.floor(m * 1000))})
    [crit] = [r for r in rl if r["severity"] == "CRITICAL"]
    f["rp_critical"] = crit["t"]
    f["rp_504"] = T.count(rh, lambda r: r["status"] == 504)
    assert f["rp_504"] == rt.count('"status": 504')
    f["rp_peak_err"] = hm(peak(rl, sev("ERROR"), lambda r: T.minute(r["t"]), 1.3))
    assert f["rp_peak_err"] == hm(W.OSRM_BURST)
    assert T.count(rh, lambda r: 4_500_000 <= r["lat_us"] <= 5_500_000) == 0
    f["rp_over5s"] = T.count(rh, lambda r: r["lat_us"] > 5_000_000)
    assert f["rp_over5s"] == f["rp_504"] + 1

    # --- the night reads one way only
    assert f["ec_first_error"] < f["pn_first_503"] and hms(f["ec_first_error"]) != hms(f["pn_first_503"])
    assert hms(f["pn_first_503"]) == hms(W.BFF_FIRST_503)
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


AREAS = {"pino", "ecs", "gcp", "proc"}
CATS = {"count", "top", "distinct", "stat", "sum", "share", "peak", "time", "cross", "followup", "process",
        "socket", "action"}


def well_formed(rows, texts):
    """What `query_sets_are_well_formed` (tests/tests/eval/query_case.rs) asserts, plus this set's fields."""
    assert len(rows) >= 40, len(rows)
    kinds = ("pid", "pids", "count", "port", "user")
    for c in rows:
        cid = c["id"]
        specs = c.get("procs", [])
        for s in specs:
            assert isinstance(s["name"], str) and 1 <= len(s["name"]) <= 15 and "/" not in s["name"], (cid, s)
            assert set(s) <= {"name", "args", "count", "user", "listen", "interp", "mem_mb"}, (cid, s)
        for name in c.get("files", []):
            assert name in texts, (cid, name)
        blobs = [json.dumps(c.get("text")), json.dumps(c.get("answer_has")), json.dumps(c.get("turns"))]
        if isinstance(c.get("approval"), dict) and "kill" in c["approval"]:
            blobs.append("{count:%s}" % c["approval"]["kill"])
        for blob in blobs:
            for piece in blob.split("{")[1:]:
                if "}" not in piece:
                    continue
                inner = piece.split("}")[0]
                if ":" not in inner:
                    continue
                kind, name = inner.split(":", 1)
                if kind not in kinds:
                    continue
                mine = [s for s in specs if s["name"] == name]
                assert mine, (cid, kind, name, "not planted")
                copies = sum(max(1, s.get("count", 1)) for s in mine)
                assert kind != "pid" or copies == 1, (cid, "pid of", copies)
                assert kind != "port" or mine[0].get("listen"), (cid, name, "no port")
        assert (isinstance(c.get("answer_has"), list) and c["answer_has"]) or "approval" in c, (cid, "scores nothing")
        for want in c.get("answer_has", []):
            assert isinstance(want, str) or (isinstance(want, list) and want and all(isinstance(o, str) for o in want)), cid
        assert c["area"] in AREAS and c["cat"] in CATS and c.get("fmt"), cid
        assert set(c) <= {"id", "text", "files", "answer_has", "turns", "procs", "approval", "cat", "area", "fmt"}, cid


def balance(rows):
    """50 cases, 25 Chinese and 25 English; each area 12-13."""
    zh = lambda c: bool(re.search(r"[\u4e00-\u9fff]", c["text"] + "".join(c.get("turns", []))))  # noqa: E731
    assert len(rows) == 50, len(rows)
    assert sum(map(zh, rows)) == 25, sum(map(zh, rows))
    for a in AREAS:
        k = sum(1 for c in rows if c["area"] == a)
        assert 12 <= k <= 13, (a, k)
    for c in rows:
        assert c["id"].endswith("-zh") == zh(c), c["id"]


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, texts)
    check_cases(rows)
    balance(rows)
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    for name, text in texts.items():
        assert MIN_BYTES <= len(text.encode()) <= MAX_BYTES, (name, len(text.encode()))
    total = sum(len(t.encode()) for t in texts.values())
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
