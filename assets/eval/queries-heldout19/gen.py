#!/usr/bin/env python3
"""Generates the `queries-heldout19` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout19.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout19.jsonl
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

SEED = 20360314
HERE = Path(__file__).resolve().parent
SET = "queries-heldout19"
MAX_BYTES = 6_000_000

APP, MYSQL, MONGO = "boxoffice.log", "mysql-slow.log", "mongod.log"


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


def first(rows, pred, key="t"):
    return min(r[key] for r in rows if pred(r))


def last(rows, pred, key="t"):
    return max(r[key] for r in rows if pred(r))


def ordered(*times):
    """Timeline events, each in its own second and in one order only."""
    secs = [hms(t) for t in times]
    assert all(a < b for a, b in zip(times, times[1:])), secs
    assert len(set(secs)) == len(secs), secs
    return secs


def pct(k, total):
    """A share in percent to one decimal, asserted off the rounding edge (rounded = truncated)."""
    p = 100 * k / total
    assert 0.1 < (p * 10) % 1 < 0.45 and int(p * 10) % 10, p
    return f"{p:.1f}"


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


def secs2(x):
    """Seconds as logged with 6 decimals, asked to 2: truncated = rounded."""
    assert 0.05 < (x * 100) % 1 < 0.45, x
    return f"{x:.2f}"


def ms_opts(x):
    """A duration logged in ms with one decimal: as logged, the whole ms (truncated = rounded, with or
    without separators) or, from a second up, the seconds to 2 decimals (truncated = rounded)."""
    assert 0.05 < x % 1 < 0.45, x
    whole = int(x)
    out = [f"{x:.1f}", str(whole)] + ([f"{whole:,}"] if whole >= 1000 else [])
    if whole >= 1000:
        s = x / 1000
        assert int(s * 100) == round(s * 100), s
        out.append(f"{s:.2f}")
    return out


def build_fixtures():
    return W.write_all(SEED)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- boxoffice.log
    at = texts[APP]
    al = T.parse_app(at)
    assert all(al[i]["t"] <= al[i + 1]["t"] for i in range(len(al) - 1))
    acc = [e for e in al if e["module"] == "access"]
    assert len(acc) == len(night.reqs)
    f["a_errors"] = T.count(al, lambda e: e["level"] == "ERROR")
    assert f["a_errors"] == at.count("] ERROR in ") == at.count("ERROR")
    f["a_500"] = T.count(acc, lambda e: e["st"] == 500)
    assert f["a_500"] == at.count('" 500 ') and T.count(acc, lambda e: e["st"] >= 500) == f["a_500"]
    by_ip = T.group(acc, lambda e: e["ip"])
    f["a_top3_ip"] = strict_top(by_ip, 3)
    assert f["a_top3_ip"] == [W.BOT1, W.BOT2, W.PARTNER], f["a_top3_ip"]
    co = [e["dur"] for e in acc if e["method"] == "POST" and e["path"] == "/api/v1/checkout"]
    p95 = same_by_any_definition(co, 95)
    assert abs(p95 - round(night.checkout_p95, 1)) < 1e-9
    f["a_checkout_p95"] = [f"{p95:.1f}", str(int(p95))]
    assert 0.05 < p95 % 1 < 0.45
    slowest = max(acc, key=lambda e: e["dur"])
    standout([e["dur"] for e in acc])
    f["a_slowest"], f["a_slowest_path"] = ms_opts(slowest["dur"]), slowest["path"]
    assert f["a_slowest_path"] == "/api/v1/orders/export"
    errs = [e for e in al if e["level"] == "ERROR"]
    lock = [e for e in errs if any("Lock wait timeout exceeded" in x for x in e["cont"])]
    npe = [e for e in errs if "NotPrimaryError" in T.py_exceptions(e)]
    f["a_first_lock"], f["a_last_lock"] = first(lock, lambda e: True), last(lock, lambda e: True)
    f["a_first_np"], f["a_last_np"] = first(npe, lambda e: True), last(npe, lambda e: True)
    assert W.LAST_NP < f["a_last_np"] < W.LAST_NP + T.timedelta(seconds=1) and f["a_last_np"] > W.TK_WON
    pk = peak(acc, lambda e: True, lambda e: T.minutes(e["t"]), margin=1.3)
    assert pk == W.ONSALE, pk
    f["a_peak"] = hm(pk)
    f["a_distinct_users"] = len({e["user"] for e in acc if e["user"] != "-"})
    by_entry = T.Counter(x for e in errs for x in set(T.py_exceptions(e)))
    by_line = T.Counter(x for e in errs for x in T.py_exceptions(e))
    f["a_top_exc"] = strict_top(by_entry, 1)[0]
    assert strict_top(by_line, 1)[0] == f["a_top_exc"] == "OperationalError"
    rl = T.group([e for e in al if e["level"] == "WARNING" and e["msg"].startswith("ratelimit ")],
                 lambda e: re.search(r"\(([\d.]+)\) exceeded at endpoint", e["msg"]).group(1))
    top_rl = strict_top(rl, 1)[0]
    assert top_rl == W.BOT1
    f["a_bot_total"] = by_ip[top_rl]
    assert T.count(acc, lambda e: e["dur"] == 1000.0) == 0
    f["a_slow_window"] = clock_window(acc, lambda e: e["dur"] > 1000, "03:00", "03:45")
    holds = [e for e in acc if e["method"] == "POST" and e["path"] == "/api/v1/holds"]
    f["a_share_429"] = pct(T.count(holds, lambda e: e["st"] == 429), len(holds))
    assert T.count(acc, lambda e: e["st"] == 429) == sum(rl.values())

    # --- mysql-slow.log
    mt = texts[MYSQL]
    ml = T.parse_mysql(mt)
    assert all(ml[i]["t"] <= ml[i + 1]["t"] for i in range(len(ml) - 1))
    f["m_count"] = len(ml)
    assert f["m_count"] == mt.count("# Time:") == mt.count("# Query_time:") == mt.count("SET timestamp=")
    top = max(ml, key=lambda e: e["qt"])
    standout([e["qt"] for e in ml])
    f["m_max_qt"], f["m_max_user"] = secs2(top["qt"]), top["user"]
    assert f["m_max_user"] == "reports"
    rows = max(ml, key=lambda e: e["re"])
    standout([e["re"] for e in ml], 1.2)
    f["m_max_re"], f["m_max_re_table"] = rows["re"], T.mysql_table(rows["sql"])
    assert f["m_max_re_table"] == "tickets"
    f["m_top3_users"] = strict_top(T.group(ml, lambda e: e["user"]), 3)
    assert f["m_top3_users"] == ["boxoffice", "reports", "backup"]
    pk_t = peak(ml, lambda e: True, lambda e: T.minutes(e["t"]), margin=1.3)
    pk_s = peak(ml, lambda e: True, lambda e: T.minutes(e["start"]), margin=1.3)
    assert pk_t == pk_s
    f["m_peak"] = hm(pk_t)
    p95 = same_by_any_definition([e["qt"] for e in ml], 95)
    assert abs(p95 - night.qt_p95) < 1e-6
    f["m_p95"] = secs2(p95)
    bk = [e for e in ml if e["user"] == "backup"]
    b0 = min(bk, key=lambda e: e["t"])
    assert b0 is min(bk, key=lambda e: e["start"])
    f["m_first_backup"] = sorted({hms(b0["t"]), hms(b0["start"])})
    w1 = clock_window(ml, lambda e: e["lt"] > 5, "01:00", "01:30")
    w2 = clock_window(ml, lambda e: e["lt"] > 5, "01:00", "01:30", key="start")
    assert w1 == w2 and T.count(ml, lambda e: e["lt"] == 5) == 0
    f["m_lock_window"] = w1
    f["m_distinct_ids"] = len({e["id"] for e in ml})
    rp = [e for e in ml if e["user"] == "reports"]
    f["m_reports_n"] = len(rp)
    r1 = max(rp, key=lambda e: e["t"])
    assert r1 is max(rp, key=lambda e: e["start"])
    f["m_last_reports"] = sorted({hms(r1["t"]), hms(r1["start"])})
    fu = [e for e in ml if "FOR UPDATE" in e["sql"]]
    f["m_forupdate"] = len(fu)
    assert f["m_forupdate"] == mt.count("FOR UPDATE")
    lw = [e for e in ml if e["lt"] > 1]
    assert T.count(ml, lambda e: e["lt"] == 1) == 0 and all("FOR UPDATE" in e["sql"] for e in lw)
    lw0, lw1 = min(lw, key=lambda e: e["t"]), max(lw, key=lambda e: e["t"])
    assert lw0 is min(lw, key=lambda e: e["start"]) and lw1 is max(lw, key=lambda e: e["start"])
    ordered(lw0["t"], f["a_first_lock"], f["a_last_lock"], lw1["start"])
    ordered(lw0["start"], f["a_first_lock"], f["a_last_lock"], lw1["t"])
    f["tl_lock"] = [sorted({hms(lw0["t"]), hms(lw0["start"])}), [hms(f["a_first_lock"])], [hms(f["a_last_lock"])],
                    sorted({hms(lw1["t"]), hms(lw1["start"])})]
    assert not set(f["tl_lock"][0]) & set(f["tl_lock"][3])
    # the files agree: bo-app-1's slow holds are its slow FOR UPDATEs, its 1205s the timed-out ones
    fu1 = [e for e in fu if e["ip"] == W.APP1]
    hot_slow = [e for e in holds if e["dur"] > 1000 and e["t"] < W.T(1, 30)]
    assert len(fu1) == len(hot_slow), (len(fu1), len(hot_slow))
    assert T.count(fu1, lambda e: e["rs"] == 0 and e["qt"] >= 10) == len(lock)
    ex = [e for e in ml if e["ip"] == W.APP1 and "orders.event_id" in e["sql"]]
    assert len(ex) == 1 and ex[0]["qt"] * 1000 < slowest["dur"]

    # --- mongod.log
    gt = texts[MONGO]
    gl = T.parse_mongo(gt)
    slow = [e for e in gl if e["msg"] == "Slow query"]
    f["g_slow"] = len(slow)
    assert f["g_slow"] == gt.count('"msg":"Slow query"')
    fails = [e for e in gl if e["msg"] == "Failed to authenticate"]
    f["g_authfail"] = len(fails)
    assert f["g_authfail"] == gt.count("Failed to authenticate")
    f["g_top_ns"] = strict_top(T.group(slow, lambda e: e["attr"]["ns"]), 1)[0]
    assert f["g_top_ns"] == "carts.carts"
    big = max(slow, key=lambda e: e["attr"]["durationMillis"])
    f["g_max_dur"] = standout([e["attr"]["durationMillis"] for e in slow])
    assert "createIndexes" in big["attr"]["command"] and f["g_max_dur"] == night.dm_max
    assert f["g_max_dur"] > max(e["attr"].get("durationMillis", 0) for e in gl if e["msg"] != "Slow query")
    p95 = same_by_any_definition([e["attr"]["durationMillis"] for e in slow], 95)
    assert p95 == night.dm_p95
    f["g_p95"] = p95
    trans = [e for e in gl if e["msg"] == "Replica set state transition"]
    f["g_stepdown"] = first(trans, lambda e: e["attr"]["newState"] == "SECONDARY" and e["attr"]["oldState"] == "PRIMARY", "ts")
    f["g_back"] = first(trans, lambda e: e["attr"]["newState"] == "PRIMARY", "ts")
    assert len(trans) == 2
    cs = [e for e in slow if e["attr"].get("planSummary") == "COLLSCAN"]
    f["g_collscan"] = len(cs)
    f["g_last_collscan"] = last(cs, lambda e: True, "ts")
    accd = [e for e in gl if e["msg"] == "Connection accepted"]
    f["g_peak_conn"] = hm(peak(accd, lambda e: True, lambda e: T.minutes(e["ts"]), margin=1.3))
    f["g_max_cc"] = max(e["attr"]["connectionCount"] for e in gl if "connectionCount" in e["attr"])
    assert f["g_max_cc"] == max(e["attr"]["connectionCount"] for e in accd)
    by_src = T.group(fails, lambda e: e["attr"]["client"].rsplit(":", 1)[0])
    f["g_auth_top"] = strict_top(by_src, 1)[0]
    assert f["g_auth_top"] == W.ETL1
    f["g_auth_top_n"] = by_src[W.ETL1]
    hb = first(gl, lambda e: e["msg"] == "Heartbeat failed after max retries", "ts")
    newp = first(gl, lambda e: e["msg"] == "Member is in new state" and e["attr"]["newState"] == "PRIMARY", "ts")
    relinq = first(gl, lambda e: e["msg"].startswith("Can't see a majority"), "ts")
    won = first(gl, lambda e: e["msg"].startswith("Election succeeded"), "ts")
    assert hms(relinq) == hms(f["g_stepdown"]) and hms(won) == hms(f["g_back"])
    f["tl_mongo"] = [[x] for x in ordered(hb, f["g_stepdown"], f["a_first_np"], newp, f["g_back"])]
    # the files agree: bo-app-1's cart lookups while the index was missing are the COLLSCANs from it
    cs1 = [e for e in cs if e["attr"]["remote"].startswith(W.APP1 + ":")]
    carts = [e for e in acc if e["path"] == "/api/v1/cart" and W.COLLSCAN_A <= e["t"] < W.INDEX_DONE + T.timedelta(seconds=5)
             and e["dur"] > 900]
    assert len(cs1) == len(carts), (len(cs1), len(carts))
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


AREAS = {"app", "mysql", "mongod", "proc"}
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


def languages(rows):
    """25 Chinese and 25 English questions; 12-13 cases an area."""
    zh = [c for c in rows if re.search(r"[\u4e00-\u9fff]", c["text"])]
    assert len(zh) == 25 and len(rows) == 50, (len(zh), len(rows))
    for area in AREAS:
        k = sum(1 for c in rows if c["area"] == area)
        assert 12 <= k <= 13, (area, k)
    for c in rows:
        is_zh = bool(re.search(r"[\u4e00-\u9fff]", c["text"]))
        assert is_zh == c["id"].endswith("-zh"), c["id"]
        for t in c.get("turns", []):
            assert bool(re.search(r"[\u4e00-\u9fff]", t)) == is_zh, c["id"]


def main():
    texts, night = build_fixtures()
    f = facts(texts, night)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, set(texts))
    languages(rows)
    seen = check_cases(rows)
    # no figure asked for reads like an HTTP status of these logs
    assert not [(v, i) for v, i in seen.items() if v in W.STATUS_LIKE], seen
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
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
