#!/usr/bin/env python3
"""Generates the `queries-heldout26` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout26.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout26.jsonl
    python3 gen.py --check    # regenerate in memory; fail if anything on disk differs or a case is malformed
    python3 gen.py -v         # also print every figure (reveals the answers: not for tuners)
"""

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20361023
HERE = Path(__file__).resolve().parent
SET = "queries-heldout26"
MAX_FIXTURE = 2_000_000

EDGE, PY, JAVA = W.EDGE, W.PY, W.JAVA


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute; the hour unpadded so `02:21` and `2:21` both pass."""
    return f"{t.hour}:{t.minute:02d}"


def hms(t):
    return f"{t.hour}:{t.minute:02d}:{t.second:02d}"


def readings(*ts):
    """One event read several ways (each a time): any of their seconds passes."""
    return sorted({hms(t) for t in ts})


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
    c = Counter(key(r) for r in rows if pred(r))
    top = sorted(c.items(), key=lambda kv: -kv[1])[:2]
    assert top[0][1] > margin * top[1][1], top
    return top[0][0]


def ordered(*times):
    """Timeline events, each in its own second and in one order only."""
    secs = [hms(t) for t in times]
    assert all(a < b for a, b in zip(times, times[1:])), secs
    assert len(set(secs)) == len(secs), secs
    return secs


def strict_top(counter, k, margin=1.2):
    """The top k, each ahead of the next by `margin` (ties further down do not matter)."""
    top = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:k + 1]
    assert len(top) == k + 1, top
    for i in range(k):
        assert top[i][1] > margin * top[i + 1][1], top
    return [x for x, _ in top[:k]]


def standout(values, margin=1.25):
    """The largest value, above `margin` times the next."""
    v = sorted(values, reverse=True)
    assert v[0] > margin * v[1], v[:3]
    return v[0]


def dec1(x):
    """x to one decimal, asserted off the rounding edge (rounded = truncated)."""
    assert 0.05 < (x * 10) % 1 < 0.45, x
    return f"{x:.1f}"


def only_token(text, token, k):
    """`grep -c` of a token agrees with the parse: the token appears on exactly k lines."""
    got = sum(1 for line in text.splitlines() if token in line)
    assert got == k, (token, got, k)


def money(cents):
    s = f"{cents // 100}.{cents % 100:02d}"
    return [s, f"{cents // 100:,}.{cents % 100:02d}"] if cents >= 100000 else s


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- quillfern-edge.access.log
    et = texts[EDGE]
    el = T.parse_edge(et)
    assert all(el[i]["t"] <= el[i + 1]["t"] for i in range(len(el) - 1))
    st = lambda s: [r for r in el if r["st"] == s]  # noqa: E731
    e504, e429, e502 = st(504), st(429), st(502)
    for code, rows in ((504, e504), (429, e429), (502, e502), (401, st(401)), (500, st(500))):
        only_token(et, f" {code} ", len(rows))
    f["e_504"], f["e_429"] = len(e504), len(e429)
    menu = [r for r in el if r["path"] == "/api/v2/menu"]
    assert not [r for r in el if r["path"].startswith("/api/v2/menu") and r["path"] != "/api/v2/menu"]
    p95 = same_by_any_definition([r["rt_ms"] for r in menu if r["st"] == 200], 95)
    assert same_by_any_definition([r["rt_ms"] for r in menu], 95) == p95   # nor can the 200 filter
    assert p95 == night.facts["menu_p95_ms"] and p95 < 1000
    f["e_menu_p95"] = [f"0.{p95:03d}", f"{p95} ms", f"{p95}ms", f"{p95} 毫秒", f"{p95}毫秒"]
    slow = max(el, key=lambda r: r["rt_ms"])
    standout([r["rt_ms"] for r in el], 3.0)
    assert "exports/orders.csv" in slow["path"]
    f["e_slowest_path"] = "orders.csv"
    f["e_slowest"] = [dec1(slow["rt_ms"] / 1000), str(slow["rt_ms"])]
    f["e_top3"] = strict_top(T.group(el, lambda r: r["ip"]), 3)
    assert f["e_top3"] == [W.SCRAPER_IP, W.UPTIME_IP, W.STAFF_IP], f["e_top3"]
    f["e_top401"] = strict_top(T.group(st(401), lambda r: r["ip"]), 1, 1.5)[0]
    assert f["e_top401"] == W.STUFF[0][0]
    assert all(r["path"] == "/api/v2/auth/login" for r in st(401))
    f["e_distinct_ips"] = len({r["ip"] for r in el})
    first504 = min(e504, key=lambda r: r["t"])
    assert first504 is min(e504, key=lambda r: r["start"])
    f["e_first_504"] = readings(first504["t"], first504["start"])
    last429 = max(e429, key=lambda r: r["t"])
    assert last429 is max(e429, key=lambda r: r["start"])
    f["e_last_429"] = readings(last429["t"], last429["start"])
    pk = peak(el, lambda r: True, lambda r: T.minutes(r["t"]), 1.3)
    assert pk == peak(el, lambda r: True, lambda r: T.minutes(r["start"]), 1.3)
    assert T.minutes(W.STORM[0]) == pk
    f["e_peak"] = hm(pk)
    f["e_window_504"] = clock_window(el, lambda r: r["st"] == 504, "02:10", "02:35")
    assert f["e_window_504"] == clock_window(el, lambda r: r["st"] == 504, "02:10", "02:35", key="start")
    assert f["e_window_504"] < f["e_504"]
    bots = [r for r in el if r["ua"] == W.SCRAPER_UA]
    assert {r["ip"] for r in bots} == {W.SCRAPER_IP} and not [r for r in el if "python-requests" in r["ua"] and r not in bots]
    f["e_scraper_bytes"] = sum(r["bytes"] for r in bots)
    assert f["e_scraper_bytes"] == sum(r["bytes"] for r in el if r["ip"] == W.SCRAPER_IP)
    last502 = max(e502, key=lambda r: r["t"])
    assert last502 is max(e502, key=lambda r: r["start"])
    f["e_last_502"] = readings(last502["t"], last502["start"])
    first502 = min(e502, key=lambda r: r["t"])
    first502_start = min(r["start"] for r in e502)
    assert all(W.WORKER_KILL.replace(microsecond=0) <= r["t"] < W.WORKER_BACK for r in e502)

    # --- basket-api.log
    pt = texts[PY]
    pl = T.parse_py(pt)
    assert all(pl[i]["t"] <= pl[i + 1]["t"] for i in range(len(pl) - 1))
    acc = [o for o in pl if o["event"] == "request_finished"]
    tmo = [o for o in pl if o["event"] == "upstream_timeout"]
    f["a_timeouts"] = len(tmo)
    only_token(pt, "upstream_timeout", len(tmo))
    errs = [o for o in pl if o["level"] == "error"]
    f["a_errors"] = len(errs)
    only_token(pt, '"level": "error"', len(errs))
    assert f["a_timeouts"] < f["a_errors"]
    co = [o for o in acc if o["path"] == "/api/v2/checkout" and o["status"] == 201]
    hund = [round(o["duration_ms"] * 100) for o in co]
    mean = sum(hund) / len(hund) / 100
    assert 0.1 < (mean * 10) % 1 < 0.45, mean
    f["a_checkout_mean"] = f"{mean:.1f}"
    bk = [round(o["duration_ms"] * 100) for o in acc if o["path"] == "/api/v2/basket" and o["method"] == "GET"
          and o["status"] == 200]
    bp = same_by_any_definition(bk, 95)
    assert bp == night.facts["basket_p95_hund"]
    allbk = [round(o["duration_ms"] * 100) for o in acc if o["path"] == "/api/v2/basket" and o["method"] == "GET"]
    assert same_by_any_definition(allbk, 95) == bp          # the 200 filter cannot change it either
    f["a_basket_p95"] = sorted({repr(bp / 100), f"{bp / 100:.2f}"})
    declined = [o for o in pl if o["event"] == "payment_declined"]
    f["a_top_declined"] = strict_top(T.group(declined, lambda o: o["user_id"]), 1, 2.0)[0]
    assert f["a_top_declined"] == W.CARDER
    by_rid = {o["request_id"]: o for o in acc}
    tpath = Counter(by_rid[o["request_id"]]["path"] for o in tmo)
    assert all(o["request_id"] in by_rid for o in tmo)
    f["a_top_timeout_path"] = strict_top(tpath, 1, 1.2)[0]
    assert f["a_top_timeout_path"] == "/api/v2/basket/items"
    placed = [o for o in pl if o["event"] == "order_placed"]
    f["a_buyers"] = len({o["user_id"] for o in placed})
    assert f["a_buyers"] < len(placed)
    f["a_amount"] = money(sum(round(o["amount"] * 100) for o in placed))
    ft = tmo[0]
    f["a_first_timeout"] = readings(ft["t"], by_rid[ft["request_id"]]["t"])
    redis = [o for o in pl if o["event"] == "unhandled_exception" and "redis.exceptions.ConnectionError" in o["exception"]]
    assert len(redis) == T.count(pl, lambda o: o["event"] == "unhandled_exception")
    only_token(pt, "redis.exceptions.ConnectionError", len(redis))
    lr = redis[-1]
    f["a_last_redis"] = readings(lr["t"], by_rid[lr["request_id"]]["t"])
    assert all(W.REDIS_DOWN[0] <= o["t"] <= W.REDIS_DOWN[1] + W.secs(0.1) for o in redis)
    pk = peak(tmo, lambda o: True, lambda o: T.minutes(o["t"]), 1.3)
    assert pk == peak(tmo, lambda o: True, lambda o: T.minutes(by_rid[o["request_id"]]["t"]), 1.3)
    f["a_peak_timeouts"] = hm(pk)
    slowpy = max(acc, key=lambda o: o["duration_ms"])
    standout([o["duration_ms"] for o in acc], 3.0)
    assert "exports/orders.csv" in slowpy["path"]
    f["a_slowest_user"] = slowpy["user_id"]
    workers = [o for o in pl if o["event"] == "worker_started"]
    assert len(workers) == 4 and len({hms(o["t"]) for o in workers}) == 1
    f["a_workers_back"] = hms(workers[0]["t"])

    # --- fulfilment-service.log
    jt = texts[JAVA]
    jl = T.parse_java(jt)
    assert all(jl[i]["t"] <= jl[i + 1]["t"] for i in range(len(jl) - 1))
    jerr = [e for e in jl if e["level"] == "ERROR"]
    f["j_errors"] = len(jerr)
    only_token(jt, "ERROR", len(jerr))                         # grep -c ERROR counts entries, not trace lines
    only_token(jt, " ERROR 1 --- ", len(jerr))
    sqlt = [e for e in jl if any(x.startswith("Caused by: java.sql.SQLTransientConnectionException") for x in e["trace"])]
    f["j_sqlt"] = len(sqlt)
    only_token(jt, "SQLTransientConnectionException", len(sqlt))
    assert f["j_sqlt"] < f["j_errors"]
    avail = [re.fullmatch(r"Availability check failed for sku (RCP-\d+-[24]P)", e["msg"]) for e in jerr]
    avail = [m.group(1) for m in avail if m]
    f["j_top_sku"] = strict_top(Counter(avail), 1, 1.5)[0]
    syncs = [re.fullmatch(r"StockSyncJob finished: (\d+) SKUs updated in (\d+) ms", e["msg"]) for e in jl]
    syncs = [(e, int(m.group(1)), int(m.group(2))) for e, m in zip(jl, syncs) if m]
    assert len(syncs) == 8
    longest = max(syncs, key=lambda x: x[2])
    standout([x[2] for x in syncs], 5.0)
    ms_ = longest[2]
    assert ms_ == W.SYNC_MS
    mins, secs_ = divmod(ms_ // 1000, 60)
    f["j_longest_sync"] = [str(ms_), f"{ms_:,}", dec1(ms_ / 1000), f"{mins}m{secs_}s", f"{mins}m {secs_}s",
                           f"{mins} min {secs_}", f"{mins} 分 {secs_} 秒", f"{mins}分{secs_}秒", f"{mins} minutes {secs_}"]
    f["j_sum_skus"] = sum(x[1] for x in syncs)
    started = [e for e in jl if e["msg"].startswith("StockSyncJob started")]
    assert len(started) == 8
    sync_start = max((e for e in started if e["t"] <= longest[0]["t"]), key=lambda e: e["t"])
    sync_end = longest[0]["t"]
    rf = [(e, re.fullmatch(r"Reservation failed for order (QF-\d{7}) \(\d+ lines?\)", e["msg"])) for e in jerr]
    rf = [(e, m.group(1)) for e, m in rf if m]
    first_rf = rf[0][1]
    users = {o["user_id"] for o in pl if o.get("order_id") == first_rf}
    assert len(users) == 1, users
    f["x_first_rf_user"] = users.pop()
    assert f["x_first_rf_user"] != f["a_slowest_user"]
    npe = [e for e in jl if "java.lang.NullPointerException" in e["msg"]]
    assert npe and all(any(x.startswith("java.lang.NullPointerException") for x in e["trace"]) for e in npe)
    f["j_first_npe"] = hms(npe[0]["t"])
    f["j_last_sqlt"] = hms(sqlt[-1]["t"])
    assert sqlt[-1]["t"] <= sync_end
    pk = peak(jerr, lambda e: True, lambda e: T.minutes(e["t"]), 1.3)
    f["j_peak_errors"] = hm(pk)
    assert f["j_peak_errors"] != f["a_peak_timeouts"]
    f["j_window_errors"] = clock_window(jerr, lambda e: True, "02:45", "03:10")
    assert f["j_window_errors"] < f["j_errors"]
    f["j_orders"] = len(set(re.findall(r"\bQF-\d{7}\b", jt)))
    assert not re.search(r"QF-\d{8}", jt) and not re.search(r"QF-\d{1,6}\b", jt)
    cj = [e for e in jl if e["msg"].startswith("CourierManifestJob ")]
    assert [e["msg"].split(":")[0] for e in cj] == ["CourierManifestJob started", "CourierManifestJob finished"]
    feign = [e for e in jerr if any(x.startswith("feign.RetryableException: Read timed out") for x in e["trace"])]
    only_token(jt, "feign.RetryableException", len(feign))
    assert all(cj[0]["t"] < e["t"] < cj[1]["t"] for e in feign)
    f["tl_courier"] = ordered(cj[0]["t"], feign[0]["t"], feign[-1]["t"], cj[1]["t"])

    # --- the files agree
    # every 504 at the edge is one basket-api answered with 504, and the other way round
    py504 = [o for o in acc if o["status"] == 504]
    assert len(py504) == len(e504)
    assert Counter(o["client_ip"] for o in py504) == Counter(r["ip"] for r in e504)
    assert Counter(o["status"] for o in acc if o["status"] >= 400) == Counter(
        {s: k for s, k in Counter(r["st"] for r in el if r["st"] >= 400 and r["st"] not in (429, 502)).items()})
    # basket-api answered no request while its workers were down; none of the 502s reached it
    assert not [o for o in acc if W.WORKER_KILL <= o["t"] < W.WORKER_BACK]
    assert last502["t"] <= workers[0]["t"]
    # every refused reservation in fulfilment is a checkout basket-api gave up on 20 s before (or one in
    # flight when its workers were killed)
    tmo_orders = {o["order_id"]: o for o in tmo if "order_id" in o}
    for e, oid in rf:
        o = tmo_orders.get(oid)
        assert (o is not None and any(19.9 <= (e["t"] - x["t"]).total_seconds() <= 20.1 for x in tmo if x.get("order_id") == oid)) \
            or W.WORKER_KILL - W.secs(30) <= e["t"] - W.secs(30) < W.WORKER_KILL, (oid, e["t"])
    # the Hikari timeouts lie inside the stock sync; the courier read timeouts inside the slow gateway
    assert all(sync_start["t"] < e["t"] <= sync_end for e in sqlt)
    assert all(W.COURIER_SLOW[0] < e["t"] < W.COURIER_SLOW[1] + W.secs(6) for e in feign)
    # the slowest request at the edge is basket-api's slowest
    assert slowpy["client_ip"] == slow["ip"] and 0 < slow["rt_ms"] - slowpy["duration_ms"] < 5

    # no client address an answer holds is the start of another address in the logs
    ips = {r["ip"] for r in el}
    for ip in f["e_top3"] + [f["e_top401"]]:
        assert not [x for x in ips if x != ip and x.startswith(ip)], ip
    uids = {o["user_id"] for o in pl if o.get("user_id")}
    for u in (f["a_top_declined"], f["a_slowest_user"], f["x_first_rf_user"]):
        assert re.fullmatch(r"u_\d{6}", u) and not [x for x in uids if x != u and x.startswith(u)], u

    # --- the timeline of the stock sync, across the three logs
    ordered(sync_start["t"], sqlt[0]["t"], first502_start, first502["t"], workers[0]["t"], sync_end)
    f["tl_sync"] = [hms(sync_start["t"]), hms(sqlt[0]["t"]), readings(first502["t"], first502_start),
                    f["a_workers_back"], hms(sync_end)]
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


AREAS = {"edge", "app", "java", "proc"}
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
            assert set(s) <= {"name", "args", "count", "listen", "interp", "mem_mb"}, (cid, s)
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
        # a literal brace in a question is never read as a placeholder
        for t in [c["text"]] + c.get("turns", []):
            for piece in t.split("{")[1:]:
                inner = piece.split("}", 1)[0]
                assert ":" not in inner or inner.split(":", 1)[0] in PH_KINDS, (cid, inner)


def languages(rows):
    """25 Chinese and 25 English questions; 12-13 cases an area."""
    zh = [c for c in rows if re.search(r"[\u4e00-\u9fff]", c["text"])]
    assert len(zh) == 25 and len(rows) == 50, (len(zh), len(rows))
    for area in sorted(AREAS):
        k = sum(1 for c in rows if c["area"] == area)
        assert 12 <= k <= 13, (area, k)
    for c in rows:
        is_zh = bool(re.search(r"[\u4e00-\u9fff]", c["text"]))
        assert is_zh == c["id"].endswith("-zh"), c["id"]
        for t in c.get("turns", []):
            assert bool(re.search(r"[\u4e00-\u9fff]", t)) == is_zh, c["id"]


def main():
    texts, night = W.write_all(SEED)
    f = facts(texts, night)
    from cases import cases

    rows = cases(f, n)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, set(texts))
    languages(rows)
    seen = check_cases(rows)
    # no figure asked for reads like an HTTP status
    assert not [(v, i) for v, i in seen.items() if v in W.STATUS_LIKE], seen
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    for name, text in texts.items():
        assert 500_000 <= len(text.encode()) <= MAX_FIXTURE, (name, len(text.encode()))
    total = sum(len(t.encode()) for t in texts.values())
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if not (fx / name).is_file() or (fx / name).read_text(encoding="utf-8") != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{x} (not generated)" for x in extra]
        cases_file = HERE / f"{SET}.jsonl"
        if not cases_file.is_file() or cases_file.read_text(encoding="utf-8") != out_cases:
            stale.append(f"{SET}.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"{SET}: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text, encoding="utf-8")
    (HERE / f"{SET}.jsonl").write_text(out_cases, encoding="utf-8")
    print(f"{SET}: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")
        for name, text in texts.items():
            print(f"  {name}: {text.count(chr(10))} lines, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
