#!/usr/bin/env python3
"""Generates the `queries-heldout21` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout21.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout21.jsonl
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

SEED = 20360913
HERE = Path(__file__).resolve().parent
SET = "queries-heldout21"
MAX_BYTES = 6_000_000

ALB, PG, REDIS = "alb-access.log", "postgresql-16-main.log", "redis-server.log"


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
    """Seconds logged with more decimals, asked to 2: truncated = rounded."""
    assert 0.05 < (x * 100) % 1 < 0.45, x
    return f"{x:.2f}"


def ms_int(v):
    """A duration logged in whole ms: as logged (with or without separators) or, from a second
    up, as seconds to 2 decimals (asserted: truncated = rounded)."""
    out = [str(v)] + ([f"{v:,}"] if v >= 1000 else [])
    if v >= 1000:
        assert v % 10 in (1, 2, 3, 4), v
        out.append(f"{v / 1000:.2f}")
    return out


def either(*times):
    """One event read two ways (an ALB line's `time`, or its `request_creation_time`): either second passes."""
    return sorted({hms(t) for t in times})


def build_fixtures():
    return W.write_all(SEED)


def only_token(text, token, k):
    """`grep -c` of a field value agrees with the parse: the token appears on exactly k lines."""
    assert sum(1 for line in text.splitlines() if token in line) == k, (token, k)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- alb-access.log
    at = texts[ALB]
    al = T.parse_alb(at)
    assert all(al[i]["t"] <= al[i + 1]["t"] for i in range(len(al) - 1))
    f["a_504"] = T.count(al, lambda r: r["st"] == 504)
    only_token(at, " 504 - ", f["a_504"])
    only_token(at, " 504 ", f["a_504"])
    assert f["a_504"] == T.count(al, lambda r: r["tpt"] is None and r["tst"] == "-")
    f["a_tgt500"] = T.count(al, lambda r: r["tst"] == "500")
    only_token(at, " 500 500 ", f["a_tgt500"])
    only_token(at, " 500 ", f["a_tgt500"])
    assert T.count(al, lambda r: r["st"] >= 500) == f["a_504"] + f["a_tgt500"]
    assert all(r["st"] == int(r["tst"]) for r in al if r["tst"] != "-")
    seats = [r for r in al if r["path"] == f"/api/v2/events/{W.ONSALE_EVENT}/seats" and r["method"] == "GET"]
    assert all(r["tpt"] is not None for r in seats)
    p95 = same_by_any_definition([r["tpt"] for r in seats], 95)
    assert abs(p95 - night.seats_p95) < 1e-9
    f["a_seats_p95"] = [f"{p95:.3f}", f"{round(p95 * 1000)} ms", f"{round(p95 * 1000)}ms", f"{round(p95 * 1000)} 毫秒"]
    timed = [r for r in al if r["tpt"] is not None]
    slow = max(timed, key=lambda r: r["tpt"])
    standout([r["tpt"] for r in timed])
    f["a_slowest_path"] = slow["path"]
    ms_ = round(slow["tpt"] * 1000)
    f["a_slowest"] = [secs2(slow["tpt"]), str(ms_), f"{ms_:,}"]
    assert slow["ip"] == W.PARTNER_IP
    big = max(al, key=lambda r: r["sent"])
    standout([r["sent"] for r in al], 1.2)
    f["a_biggest_path"], f["a_biggest"] = big["path"].rsplit("/", 1)[1], big["sent"]
    assert big is not slow
    f["a_top3_clients"] = strict_top(T.group(al, lambda r: r["ip"]), 3)
    assert f["a_top3_clients"] == [W.BOT_IP, W.PARTNER_IP, W.OFFICE_IP], f["a_top3_clients"]
    f["a_top3_bytes"] = strict_top(T.total(al, lambda r: r["ip"], lambda r: r["sent"]), 3)
    assert f["a_top3_bytes"] == [W.PACK_IP, W.BOT_IP, W.PARTNER_IP], f["a_top3_bytes"]
    e504 = [r for r in al if r["st"] == 504]
    f504 = min(e504, key=lambda r: r["t"])
    assert f504 is min(e504, key=lambda r: r["start"])
    l504 = max(e504, key=lambda r: r["t"])
    assert l504 is max(e504, key=lambda r: r["start"])
    f["a_first_504"], f["a_last_504"] = either(f504["t"], f504["start"]), either(l504["t"], l504["start"])
    pk = peak(al, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == peak(al, lambda r: True, lambda r: T.minutes(r["start"]), margin=1.3) == W.ONSALE
    f["a_peak"] = hm(pk)
    f["a_window_500"] = clock_window(al, lambda r: r["st"] == 500, "02:15", "02:35")
    assert f["a_window_500"] == clock_window(al, lambda r: r["st"] == 500, "02:15", "02:35", key="start")
    f["a_distinct_ips"] = len({r["ip"] for r in al})
    f["a_share_5xx"] = pct(T.count(al, lambda r: r["st"] >= 500), len(al))

    # --- postgresql-16-main.log
    pt = texts[PG]
    pl = T.parse_pg(pt)
    assert all(pl[i]["t"] <= pl[i + 1]["t"] for i in range(len(pl) - 1))
    full = [r for r in pl if r["sev"] == "FATAL" and r["msg"] == "sorry, too many clients already"]
    f["p_toomany"] = len(full)
    only_token(pt, "too many clients", len(full))
    waits = [r for r in pl if r["sev"] == "LOG" and "still waiting for" in r["msg"]]
    f["p_lockwait"] = len(waits)
    only_token(pt, "still waiting for", len(waits))
    errs = [r for r in pl if r["sev"] == "ERROR"]
    f["p_errors"] = len(errs)
    only_token(pt, " ERROR:  ", len(errs))
    assert len(re.findall(r"^\d{4}-\d\d-\d\d [\d:.]+ UTC \[\d+\] \S+ ERROR:  ", pt, re.M)) == len(errs)
    dur = [r for r in pl if r["sev"] == "LOG" and T.pg_duration(r["msg"]) is not None]
    only_token(pt, "duration: ", len(dur))
    dv = [T.pg_duration(r["msg"]) for r in dur]
    assert min(dv) >= 250
    top = max(dur, key=lambda r: T.pg_duration(r["msg"]))
    standout(dv)
    v = T.pg_duration(top["msg"])
    assert top["user"] == "metabase" and v == 41231.113
    f["p_slowest_user"] = top["user"]
    f["p_slowest"] = [f"{v:.1f}", f"{v:,.1f}", secs2(v / 1000)]
    assert 0.05 < (v * 10) % 1 < 0.45
    med = same_by_any_definition(dv, 50)
    assert abs(med - night.pg_p50) < 1e-9 and 0.05 < (med * 10) % 1 < 0.45
    f["p_median"] = f"{med:.1f}"
    f["p_top_user"] = strict_top(T.group(dur, lambda r: r["user"]), 1)[0]
    assert f["p_top_user"] == "tix_api"
    dl = [r for r in errs if r["msg"] == "deadlock detected"]
    f["p_first_deadlock"] = hms(first(dl, lambda r: True))
    f["p_last_toomany"] = hms(last(full, lambda r: True))
    pk = peak(errs, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == W.TIMEOUT_PEAK
    f["p_peak_err"] = hm(pk)
    f["p_window_wait"] = clock_window(waits, lambda r: True, "01:00", "01:30")
    ck = [(r["t"], int(re.match(r"checkpoint complete: wrote (\d+) buffers", r["msg"]).group(1)))
          for r in pl if r["msg"].startswith("checkpoint complete:")]
    assert len(ck) == T.count(pl, lambda r: r["msg"] == "checkpoint starting: time")
    f["p_ckpt_max"] = standout([b for _, b in ck], 1.2)
    term = [r for r in pl if r["sev"] == "FATAL" and r["msg"] == "terminating connection due to administrator command"]
    assert {r["user"] for r in term} == {"tix_worker"} and len({hms(r["t"]) for r in term}) <= 2
    f["p_term_user"] = "tix_worker"
    f["_term"] = term
    f["p_term_n"] = len(term)

    # --- redis-server.log
    rt = texts[REDIS]
    rl = T.parse_redis(rt)
    assert all(rl[i]["t"] <= rl[i + 1]["t"] for i in range(len(rl) - 1))
    started = [r for r in rl if r["msg"].startswith("Background saving started by pid ")]
    f["r_bgsave"] = len(started)
    only_token(rt, "Background saving started", len(started))
    assert len({r["msg"].rsplit(" ", 1)[1] for r in started}) == len(started)
    assert T.count(rl, lambda r: r["msg"] == "Background saving terminated with success") == len(started)
    obl = [r for r in rl if r["msg"].endswith("scheduled to be closed ASAP for overcoming of output buffer limits.")]
    f["r_obl"] = len(obl)
    only_token(rt, "output buffer limits", len(obl))
    cant = [r for r in rl if r["msg"].startswith("Can't save in background")]
    f["r_cant"] = len(cant)
    only_token(rt, "Can't save in background", len(cant))
    cows = [int(re.search(r"peak (\d+) MB", r["msg"]).group(1)) for r in rl if r["msg"].startswith("Fork CoW for RDB:")]
    assert len(cows) == len(started)
    f["r_cow_max"] = standout(cows, 1.2)
    addr = lambda r: re.search(r" addr=([\d.]+):\d+ ", r["msg"]).group(1)  # noqa: E731
    f["r_top_obl_ip"] = strict_top(T.group(obl, addr), 1)[0]
    assert f["r_top_obl_ip"] == "10.30.1.13"
    lost = [r for r in rl if re.fullmatch(r"Connection with replica [\d.:]+ lost\.", r["msg"])]
    assert len(lost) == 4
    f["r_first_lost"], f["r_last_lost"] = hms(lost[0]["t"]), hms(lost[-1]["t"])
    f["r_last_cant"] = hms(cant[-1]["t"])
    pk = peak(rl, lambda r: r["level"] == "#", lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == W.OBL_PEAK
    f["r_peak_warn"] = hm(pk)
    f["r_window_obl"] = clock_window(obl, lambda r: True, "01:00", "01:10")
    om = sorted(((int(re.search(r" omem=(\d+) ", r["msg"]).group(1)), addr(r)) for r in obl), reverse=True)
    assert om[0][0] > om[1][0]
    f["r_omem_max"], f["r_omem_ip"] = om[0]
    assert f["r_omem_ip"] == "10.30.5.11"
    ok_after = min(r["t"] for r in rl if r["msg"] == "Background saving terminated with success" and r["t"] > cant[-1]["t"])

    # --- the files agree, and the timelines
    cart500 = [r for r in al if r["st"] == 500 and r["path"] == "/api/v2/cart" and r["method"] == "POST"]
    c0 = min(cart500, key=lambda r: r["t"])
    assert c0 is min(cart500, key=lambda r: r["start"])
    assert all(cant[0]["t"] < r["start"] and r["t"] < ok_after for r in al if r["st"] == 500
               and r["path"] in ("/api/v2/cart", "/api/v2/checkout"))
    f["tl_redis"] = [[hms(cant[0]["t"])], either(c0["t"], c0["start"]), [hms(cant[-1]["t"])], [hms(ok_after)]]
    ordered(cant[0]["t"], c0["t"], cant[-1]["t"], ok_after)
    ordered(cant[0]["t"], c0["start"], cant[-1]["t"], ok_after)
    f["tl_pg"] = [[hms(full[0]["t"])], f["a_first_504"], [hms(full[-1]["t"])], f["a_last_504"]]
    ordered(full[0]["t"], f504["t"], full[-1]["t"], l504["t"])
    ordered(full[0]["t"], f504["start"], full[-1]["t"], l504["start"])
    # every 504 arrived while postgres was full, before the leaked sessions were terminated
    t_term = min(r["t"] for r in f.pop("_term"))
    assert all(full[0]["t"] < r["start"] < t_term for r in e504)
    # the relays redis closed are the web targets behind the ALB
    web = {r["target"].split(":")[0] for r in al if r["host"] == W.WWW_HOST}
    assert {addr(r) for r in obl} - {"10.30.5.11"} <= web
    # the on-sale hits all three: the ALB's busiest minute, postgres's lock waits, redis's closures
    assert min(r["t"] for r in waits) > W.ONSALE and min(r["t"] for r in obl) > W.ONSALE
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


AREAS = {"alb", "pg", "redis", "proc"}
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
