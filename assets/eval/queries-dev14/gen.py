#!/usr/bin/env python3
"""Generates the `queries-dev14` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev14.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev14.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import math
import re
import sys
from datetime import timedelta
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

HERE = Path(__file__).resolve().parent
SET = "queries-dev14"
MIN_BYTES, MAX_BYTES = 1_000_000, 3_000_000   # per fixture

GN, LV, LM = "seatlock-api.log", "laravel-2036-04-18.log", "lambda-payment-webhook.log"
FIXTURES = [(GN, W.gin_log), (LV, W.laravel_log), (LM, W.lambda_log)]


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


def ms_opts(ms, seconds=False):
    """A duration asked in ms: whole ms (rounded or truncated, with or without separators), or
    one decimal (rounded or truncated); with `seconds`, also seconds to two or three places."""
    out = set(dec_opts(ms, 1))
    for r in {round(ms), math.floor(ms)}:
        out |= {str(r), f"{r:,}"}
    if seconds:
        out |= set(dec_opts(ms / 1000, 2) + dec_opts(ms / 1000, 3))
    return sorted(out, key=lambda s: (not re.fullmatch(r"\d+", s), s))


def top_n(counter, k, margin):
    """The top k of a Counter, each of ranks 1..k leading the next by `margin`."""
    best = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:k + 1]
    for i in range(k):
        assert best[i][1] > margin * best[i + 1][1], best
    return [key for key, _ in best[:k]]


def bottom1(counter, margin):
    best = sorted(counter.items(), key=lambda kv: (kv[1], str(kv[0])))[:2]
    assert best[0][1] * margin < best[1][1], best
    return best[0][0]


def distinct_seconds(*ts):
    s = [hms(t) for t in ts]
    assert len(set(s)) == len(s), s
    assert list(ts) == sorted(ts), s


SHOWTIME = re.compile(r"^/v1/showtimes/(ST-\d+)/")


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # ================= seatlock-api (gin)
    gt = texts[GN]
    g = T.parse_gin(gt)
    req, logs = g["req"], g["log"]
    f["gn_409"] = T.count(req, lambda r: r["status"] == 409)
    assert f["gn_409"] == gt.count("| 409 |")
    f["gn_top3_ip"] = top_n(T.group(req, lambda r: r["ip"]), 3, 1.2)
    assert f["gn_top3_ip"] == [W.BOT, W.WEB1, W.WEB2], f["gn_top3_ip"]
    st409 = T.group(req, lambda r: SHOWTIME.match(r["path"]).group(1), lambda r: r["status"] == 409)
    f["gn_top_st409"], f["gn_2nd_st409"] = top_n(st409, 2, 1.2)
    assert [f["gn_top_st409"], f["gn_2nd_st409"]] == W.PREMIERES[:2]
    f["gn_top_st_total"] = T.count(req, lambda r: r["path"].startswith(f"/v1/showtimes/{f['gn_top_st409']}/"))
    f["gn_429"] = T.count(req, lambda r: r["status"] == 429)
    assert f["gn_429"] == gt.count("| 429 |")
    f["gn_top429_ip"] = top_n(T.group(req, lambda r: r["ip"], lambda r: r["status"] == 429), 1, 1.5)[0]
    assert f["gn_top429_ip"] == W.BOT
    w = [r for r in req if W.T(0, 50) <= r["t"] < W.T(1, 0) and r["status"] == 429]
    assert {r["ip"] for r in w} == {W.BOT}
    f["gn_bot_first429"], f["gn_bot_last429"] = w[0]["t"], w[-1]["t"]
    f["gn_bot_first"] = first(req, lambda r: r["ip"] == W.BOT)
    assert f["gn_bot_first"] >= W.T(0, 50) and f["gn_bot_last429"] == last(req, lambda r: r["ip"] == W.BOT)
    assert T.count(req, lambda r: r["status"] >= 500 and r["t"] < W.T(1, 10)) == 0
    oom = [r for r in req if r["errors"] and "OOM command not allowed" in r["errors"][0]]
    assert all(r["status"] == 500 and r["path"].endswith("/holds") for r in oom)
    f["gn_first_5xx"] = first(req, lambda r: r["status"] >= 500)
    assert f["gn_first_5xx"] == oom[0]["t"] and hms(oom[0]["t"]) == hms(W.OOM_FROM)
    f["gn_last_oom"] = oom[-1]["t"]
    [ok] = [x for x in logs if x["msg"].startswith("redis writes ok again")]
    f["gn_redis_ok"] = ok["t"]
    distinct_seconds(f["gn_last_oom"], f["gn_redis_ok"])
    in_win = lambda r: W.T(1, 15) <= r["t"] < W.T(1, 25)  # noqa: E731
    f["gn_500_window"] = T.count(req, lambda r: r["status"] == 500 and in_win(r))
    assert T.count(req, lambda r: r["status"] == 500 and W.T(1, 25) <= r["t"] < W.T(1, 26)) == 0
    assert T.count(req, lambda r: r["status"] == 500 and W.T(1, 15) <= r["t"] < W.T(1, 15, 1)) == 0
    assert sum(1 for line in gt.splitlines() if "| 500 |" in line and line[19:24] in
               {f"01:{m}" for m in range(15, 25)}) == f["gn_500_window"]
    f["gn_peak"] = hm(peak(req, lambda r: True, lambda r: T.minute(r["t"]), 1.3))
    assert f["gn_peak"] == hm(W.PRESALE)
    seats = [r["ns"] for r in req if r["method"] == "GET" and T.template(r["path"]) == "/v1/showtimes/:id/seats"]
    p99 = same_by_any_definition(seats, 99)
    assert p99 == P["seats_p99_ns"]
    off_edge(p99 / 1e6, 1)
    f["gn_seats_p99"] = ms_opts(p99 / 1e6)
    holds = [r["ns"] for r in req if r["method"] == "POST" and T.template(r["path"]) == "/v1/showtimes/:id/holds"]
    p50 = same_by_any_definition(holds, 50)
    assert p50 == P["holds_p50_ns"]
    off_edge(p50 / 1e6, 1)
    f["gn_holds_p50"] = ms_opts(p50 / 1e6)
    s, c = {}, {}
    for r in req:
        k = T.template(r["path"])
        s[k] = s.get(k, 0) + r["ns"]
        c[k] = c.get(k, 0) + 1
    means = sorted(((s[k] / c[k], k) for k in s), reverse=True)
    assert means[0][1] == "/v1/reports/occupancy" and means[1][0] * 1.4 < means[0][0], means[:3]
    f["gn_worst_path"] = means[0][1]
    off_edge(means[0][0] / 1e6, 1)
    off_edge(means[0][0] / 1e9, 2)
    f["gn_worst_mean"] = ms_opts(means[0][0] / 1e6, seconds=True)
    by_ns = sorted(req, key=lambda r: -r["ns"])
    assert by_ns[1]["ns"] < 0.5 * by_ns[0]["ns"]
    top = by_ns[0]
    assert top["url"] == W.SLOWEST_URL and top["lat"] == "1m4s" and top["ns"] == 64 * 10 ** 9
    f["gn_slowest_url"] = top["url"]
    [pan] = g["panic"]
    assert pan["err"].startswith("runtime error: index out of range")
    f["gn_panic"] = pan["t"]
    assert [r["status"] for r in req if r["t"] == pan["t"] and r["status"] >= 500] == [500]
    [fatal] = g["fatal"]
    assert fatal["msg"] == "concurrent map writes"
    f["gn_crash_after"] = fatal["after"]
    f["gn_restart"] = first(logs, lambda x: x["t"] > fatal["after"] and "starting" in x["msg"])
    assert first(logs, lambda x: x["msg"] == "listening on :8080") == f["gn_restart"]
    assert hm(f["gn_crash_after"]) == hm(f["gn_restart"])
    distinct_seconds(f["gn_crash_after"], f["gn_restart"])
    # nothing else in the timelines' windows
    assert T.count(req, lambda r: r["status"] >= 500 and W.T(2, 10) <= r["t"] < W.T(2, 30)) == 1
    assert not g["panic"][1:] and all(not (W.T(2, 40) <= x["t"] < W.T(3, 0)) or "pool" in x["msg"] or "sweeper" in x["msg"]
                                      or x["t"] == f["gn_restart"] for x in logs)

    # ================= laravel (web-1)
    lt = texts[LV]
    L = T.parse_laravel(lt)
    assert {e["channel"] for e in L} == {"production"}
    f["lv_errors"] = T.count(L, lambda e: e["level"] == "ERROR")
    assert f["lv_errors"] == lt.count("production.ERROR:")
    f["lv_first_error"] = first(L, lambda e: e["level"] == "ERROR")
    distinct_seconds(f["gn_first_5xx"], f["lv_first_error"])
    fails = [e for e in L if e["msg"] == "Seat hold failed"]
    f["lv_first_fail"], f["lv_last_fail"] = fails[0]["t"], fails[-1]["t"]
    assert f["lv_first_fail"] == f["lv_first_error"]
    assert len(fails) == T.count(oom, lambda r: r["ip"] == W.WEB1)
    conflicts = [e for e in L if e["msg"] == "Seat hold conflict"]
    assert len(conflicts) == T.count(req, lambda r: r["status"] == 409 and r["ip"] == W.WEB1)
    excs = T.group(L, lambda e: e["exc_class"], lambda e: "exc_class" in e)
    f["lv_top_exc"] = top_n(excs, 1, 1.5)[0]
    assert f["lv_top_exc"] == "Illuminate\\Http\\Client\\RequestException", excs
    done = [e for e in L if e["msg"] == "Checkout completed"]
    f["lv_least_site"] = bottom1(T.group(done, lambda e: e["ctx"]["site"]), 1.25)
    assert f["lv_least_site"] == W.LEAST_SITE
    f["lv_scalper"] = top_n(T.group(conflicts, lambda e: e["ctx"]["userId"]), 1, 1.5)[0]
    assert f["lv_scalper"] == W.SCALPER_USER
    durs = [e["ctx"]["duration_ms"] for e in done]
    p95 = same_by_any_definition(durs, 95)
    assert p95 == P["checkout_p95"]
    f["lv_dur_p95"] = ms_opts(p95)
    amounts = [e["ctx"]["amount_pence"] for e in done]
    mean = sum(amounts) / len(amounts)
    off_edge(mean, 1)
    off_edge(mean / 100, 2)
    f["lv_amount_mean"] = sorted(set(ms_opts(mean)) | set(dec_opts(mean / 100, 2)),
                                 key=lambda s: (not re.fullmatch(r"\d+", s), s))
    slow = sorted(done, key=lambda e: -e["ctx"]["duration_ms"])
    assert slow[1]["ctx"]["duration_ms"] < 0.5 * slow[0]["ctx"]["duration_ms"]
    f["lv_slowest_order"] = slow[0]["ctx"]["order"]
    f["lv_slowest_ms"] = slow[0]["ctx"]["duration_ms"]
    assert (f["lv_slowest_order"], f["lv_slowest_ms"]) == W.SLOWEST_CHECKOUT[:2]
    f["lv_fail_peak"] = hm(peak(fails, lambda e: True, lambda e: T.minute(e["t"]), 1.3))
    assert f["lv_fail_peak"] == hm(W.OOM_BURST)
    dl = [e for e in L if "1213 Deadlock found" in e["msg"]]
    assert len(dl) == len(W.DEADLOCKS) and all(e["exc_code"] == "40001" for e in dl)
    f["lv_dl_first"], f["lv_dl_last"] = dl[0]["t"], dl[-1]["t"]
    assert [e for e in L if W.T(1, 40) <= e["t"] < W.T(1, 55) and e["level"] not in ("INFO",)
            and e not in dl and e["msg"] not in ("Seat hold conflict", "Payment declined")] == []
    lw = [e for e in L if "1205 Lock wait timeout exceeded" in e["msg"]]
    f["lv_lw_n"] = len(lw)
    assert f["lv_lw_n"] == lt.count("production.ERROR: SQLSTATE[HY000]: General error: 1205")
    f["lv_lw_first"], f["lv_lw_last"] = lw[0]["t"], lw[-1]["t"]
    [rs] = [e for e in L if e["msg"] == "Reconciliation started"]
    f["lv_recon"] = rs["t"]
    assert T.count(L, lambda e: e["level"] in ("ERROR", "CRITICAL") and W.T(2, 0) <= e["t"] < f["lv_lw_first"]) == 0

    # ================= the webhook lambda (aws logs tail)
    at = texts[LM]
    inv, inits, events = T.parse_lambda(at)
    cold = [d for d in inv if d["init_ms"] is not None]
    f["lm_cold"] = len(cold)
    assert f["lm_cold"] == len(inits) == at.count("INIT_START") == at.count("Init Duration")
    assert len({d["stream"] for d in inv}) == f["lm_cold"]
    tos = [d for d in inv if d["timeout"]]
    f["lm_timeouts"] = len(tos)
    assert f["lm_timeouts"] == at.count("Task timed out") == T.count(inv, lambda d: d["status"] == "timeout")
    f["lm_first_to"] = min(d["timeout"] for d in tos)
    f["lm_last_to"] = max(d["timeout"] for d in tos)
    distinct_seconds(f["lv_recon"], f["lm_first_to"], f["lv_lw_first"])
    assert f["lv_lw_first"] < W.T(2, 10)
    assert f["lm_last_to"] < W.T(2, 30)
    durs = [int(d["duration_ms"] * 100) for d in inv]
    p90 = same_by_any_definition(durs, 90)
    assert p90 == P["lambda_p90_dh"] and p90 < 1_000_000
    off_edge(p90 / 100, 1)
    f["lm_p90"] = ms_opts(p90 / 100)
    inits_ms = [float(d["init_ms"]) for d in cold]
    m = sum(inits_ms) / len(inits_ms)
    off_edge(m, 1)
    f["lm_init_mean"] = ms_opts(m)
    mem = sorted(inv, key=lambda d: -d["mem_mb"])
    assert mem[1]["mem_mb"] < 0.5 * mem[0]["mem_mb"]
    f["lm_maxmem_rid"] = mem[0]["rid"]
    assert mem[0]["status"] == "error" and mem[0]["report"]["Error Type"] == "Runtime.OutOfMemory"
    oomd = mem[0]
    f["lm_oom_start"], f["lm_oom_exit"] = oomd["start"], oomd["exit"][0]
    distinct_seconds(f["lm_oom_start"], f["lm_oom_exit"])
    assert [d for d in inv if W.T(2, 30) <= d["start"] < W.T(2, 45)
            and (d["timeout"] or d["exit"] or any(x["level"] == "ERROR" for x in d["lines"]))] == [oomd]
    types = T.group(inv, lambda d: d["type"])
    f["lm_2nd_type"] = top_n(types, 2, 1.3)[1]
    assert f["lm_2nd_type"] == "payment_intent.payment_failed"
    f["lm_top_order"] = top_n(T.group(inv, lambda d: d["order"]), 1, 1.3)[0]
    assert f["lm_top_order"] == W.MISMATCH_ORDER

    # ================= the night reads one way only
    assert f["lm_first_to"] < f["lv_lw_first"]
    assert hm(f["lm_first_to"]) == hm(f["lv_lw_first"])      # the incident's first failure minute
    return f


MARKERS = {"1205", "1213", "40001"}   # MySQL error codes / SQLSTATEs named as a cause, not figures


def check_cases(rows):
    """Every integer an answer must hold is 60 or more, no two cases share one, and no case's
    question (or earlier turn) contains it (the error codes in `MARKERS` are names, not figures)."""
    seen = {}
    for c in rows:
        asked = set(re.findall(r"\d+", c["text"] + " " + " ".join(c.get("turns", []))))
        for want in c.get("answer_has", []):
            options = want if isinstance(want, list) else [want]
            ints = [o for o in options if re.fullmatch(r"\d[\d,]*", o) and o not in MARKERS]
            if not ints:
                continue
            v = int(ints[0].replace(",", ""))
            assert v >= 60, (c["id"], v)
            assert str(v) not in asked, (c["id"], v)
            assert v not in seen, (c["id"], seen.get(v), v)
            seen[v] = c["id"]
    return seen


AREAS = {"gin", "laravel", "lambda", "multi", "proc"}
CATS = {"timeline", "top", "stat", "incident", "cross", "count", "followup", "peak", "window", "process",
        "action"}


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
        assert (c["area"] == "proc") == (not c["files"]), cid


WANT_CATS = {"timeline": 8, "top": 8, "stat": 10, "incident": 3, "cross": 2, "count": 4, "followup": 5, "peak": 2,
             "window": 1, "process": 5, "action": 2}


def balance(rows):
    """50 cases, 25 Chinese and 25 English, in the planned categories."""
    zh = lambda c: bool(re.search(r"[\u4e00-\u9fff]", c["text"] + "".join(c.get("turns", []))))  # noqa: E731
    assert len(rows) == 50, len(rows)
    assert sum(map(zh, rows)) == 25, sum(map(zh, rows))
    for c in rows:
        assert c["id"].endswith("-zh") == zh(c), c["id"]
    got = {}
    for c in rows:
        got[c["cat"]] = got.get(c["cat"], 0) + 1
    assert got == WANT_CATS, got


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
        stale = [name for name, text in texts.items()
                 if not (fx / name).is_file() or (fx / name).read_text(encoding="utf-8") != text]
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
