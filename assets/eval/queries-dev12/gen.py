#!/usr/bin/env python3
"""Generates the `queries-dev12` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev12.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev12.jsonl
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
SET = "queries-dev12"
MAX_BYTES = 5_000_000

NG, GD, ST = "tollpay-edge.access.log", "gantryd.log", "toll-settlement.log"
FIXTURES = [(NG, W.nginx_log), (GD, W.gantryd_log), (ST, W.settlement_log)]


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


def dec_opts(x, places):
    """`x` to `places` decimals, rounded and truncated (both are usual renderings)."""
    s = 10 ** places
    return sorted({f"{x:.{places}f}", f"{math.floor(x * s + 1e-9) / s:.{places}f}"})


def ms_opts(ms):
    """A duration asked in ms (the log has seconds): whole ms and seconds to 3 places."""
    out = {str(ms), f"{ms / 1000:.3f}"}
    if ms >= 1000:
        out.add(f"{ms:,}")
    return sorted(out)


def strict3(pairs):
    assert pairs[0][1] > 1.2 * pairs[1][1] and pairs[1][1] > 1.2 * pairs[2][1] and pairs[2][1] > 1.2 * pairs[3][1], pairs
    return [k for k, _ in pairs[:3]]


def template(path):
    path = re.sub(r"/accounts/A-\d+/", "/accounts/{id}/", path)
    return re.sub(r"/plates/[A-Z0-9]+$", "/plates/{plate}", path)



def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # --- nginx key=value access log
    at = texts[NG]
    na = T.parse_nginx(at)
    f["ng_not_ok"] = T.count(na, lambda r: r["status"] not in (200, 201, 304))
    assert f["ng_not_ok"] == T.count(na, lambda r: r["status"] in (401, 404, 429, 504))
    assert T.count(na, lambda r: 900 <= r["rt_ms"] <= 1100 or 4500 <= r["rt_ms"] <= 5500) == 0
    f["ng_rt_1_5"] = T.count(na, lambda r: 1000 < r["rt_ms"] < 5000)
    assert f["ng_rt_1_5"] == W.SLOW_TRIPS
    clients = T.group(na, lambda r: r["client"])
    f["ng_top3_clients"] = strict3(T.ranked(clients, 4))
    assert f["ng_top3_clients"] == [W.SCRAPER, W.HEALTH, W.PARTNER]
    up504 = T.group(na, lambda r: ", ".join(r["up"]), lambda r: r["status"] == 504)
    top = T.ranked(up504, 2)
    assert top[0][1] > 1.5 * top[1][1] and top[0][0] == W.PAY_UP[0], top
    f["ng_top_up_504"] = top[0][0]
    f["ng_distinct_clients"] = len(clients)
    pay = [r["rt_ms"] for r in na if r["method"] == "POST" and r["path"] == "/api/v1/payments"]
    p80 = same_by_any_definition(pay, 80)
    assert p80 == P["pay_p80_ms"]
    f["ng_pay_p80"] = ms_opts(p80)
    for key in (lambda r: r["path"], lambda r: template(r["path"])):
        s, c = {}, {}
        for r in na:
            k = key(r)
            s[k] = s.get(k, 0) + r["rt_ms"]
            c[k] = c.get(k, 0) + 1
        means = sorted(((s[k] / c[k], k) for k in s if c[k] >= 20), reverse=True)
        assert means[0][1] == "/api/v1/payments" and means[1][0] < 0.3 * means[0][0], means[:3]
    f["ng_slowest_endpoint"] = "/api/v1/payments"
    tot = sum(r["bytes"] for r in na if r["path"].startswith("/static/"))
    whole = [f"{round(x)}{sp}{u}" for x, u in ((tot / 1e6, "MB"), (tot / 2 ** 20, "MiB"), (tot / 2 ** 20, "MB"))
             for sp in ("", " ")]
    f["ng_static_mb"] = sorted(set(dec_opts(tot / 1e6, 1) + dec_opts(tot / 2 ** 20, 1) + whole + [str(tot), f"{tot:,}"]))
    n429 = T.count(na, lambda r: r["status"] == 429)
    share = 100 * n429 / len(na)
    assert 0.2 < (share * 10) % 1 < 0.4, share
    assert not f"{share:.1f}".endswith(".0")
    f["ng_429_share"] = [f"{share:.1f}"]
    scr = lambda r: r["client"] == W.SCRAPER  # noqa: E731
    f["ng_scraper_window"] = clock_window(na, scr, "03:35", "04:00")
    assert f["ng_scraper_window"] == clients[W.SCRAPER]
    f["ng_peak_minute"] = hm(peak(na, lambda r: True, lambda r: T.minute(r["t"]), margin=1.2))
    assert f["ng_peak_minute"] == hm(W.BURST_MIN)
    f["ng_retried"] = T.count(na, lambda r: len(r["urt"]) > 1)
    assert f["ng_retried"] == T.count(na, lambda r: len(r["up"]) > 1) == len(re.findall(r"urt=\d+\.\d+, ", at))
    assert f["ng_retried"] >= 60
    e504 = lambda r: r["status"] == 504  # noqa: E731
    f["ng_504"] = T.count(na, e504)
    assert f["ng_504"] == at.count("status=504") and n429 == at.count("status=429")
    assert T.count(na, lambda r: r["status"] == 401) == at.count("status=401")
    assert f["ng_not_ok"] == sum(at.count(f"status={s} ") for s in (401, 404, 429, 504))
    f["ng_first_504"], f["ng_last_504"] = first(na, e504), last(na, e504)
    assert f["ng_first_504"] == W.OUTAGE_FROM.replace(microsecond=0) + __import__("datetime").timedelta(seconds=60)

    # --- gantryd (logrus)
    gt = texts[GD]
    gl = T.parse_logrus(gt)
    f["gd_not_info"] = T.count(gl, lambda r: r["level"] != "info")
    assert f["gd_not_info"] == gt.count("level=warning") + gt.count("level=error")
    reads = [r for r in gl if r["msg"] == "plate read ingested"]
    assert T.count(reads, lambda r: 1_500_000 <= r["latency_us"] < 2_300_000) == 0
    f["gd_slow_reads"] = T.count(reads, lambda r: r["latency_us"] >= 2_000_000)
    assert f["gd_slow_reads"] == W.SLOW_READS + 1
    lowconf = lambda r: r["msg"] == "ocr confidence below threshold"  # noqa: E731
    lc = T.group(gl, lambda r: r["gantry.id"], lowconf)
    top = T.ranked(lc, 2)
    assert top[0][1] > 1.2 * top[1][1], top
    f["gd_top_lowconf"], f["gd_top_lowconf_n"] = top[0]
    assert gt.count("gantry.id=G131 ") == T.count(gl, lambda r: r.get("gantry.id") == "G131")
    assert top[0] == ("G131", 88)
    f["gd_distinct"] = len({r["gantry.id"] for r in gl if "gantry.id" in r})
    assert f["gd_distinct"] == len(W.GANTRIES)
    p90 = same_by_any_definition([r["latency_us"] for r in reads], 90)
    assert p90 == P["lat_p90_us"]
    f["gd_p90"] = sorted({f"{p90 / 1e6:.3f}", str(round(p90 / 1000)), str(p90 // 1000)} | set(dec_opts(p90 / 1e6, 2)))
    lats = sorted((r["latency_us"] for r in reads), reverse=True)
    assert lats[0] == W.MAX_READ_US and lats[1] < 0.6 * lats[0]
    f["gd_max_ms"] = sorted({str(lats[0] // 1000), f"{lats[0] // 1000:,}", f"{lats[0] / 1e6:.2f}", f"{lats[0] / 1e6:.3f}"})
    s, c = {}, {}
    for r in reads:
        s[r["gantry.lane"]] = s.get(r["gantry.lane"], 0) + r["latency_us"]
        c[r["gantry.lane"]] = c.get(r["gantry.lane"], 0) + 1
    means = sorted(((s[k] / c[k], k) for k in s), reverse=True)
    assert means[0][1] == "4" and means[1][0] < 0.7 * means[0][0], means
    f["gd_slow_lane"] = "4"
    err = lambda r: r["level"] == "error"  # noqa: E731
    share = 100 * T.count(gl, err) / len(gl)
    assert 0.15 < (share * 10) % 1 < 0.45, share
    assert not f"{share:.1f}".endswith(".0")
    f["gd_err_share"] = [f"{share:.1f}"]
    hb = lambda r: r["msg"] == "gantry heartbeat missed"  # noqa: E731
    assert {r["gantry.id"] for r in gl if hb(r)} == {W.DOWN_GANTRY}
    f["gd_hb_first"], f["gd_hb_last"] = first(gl, hb), last(gl, hb)
    [f["gd_back"]] = [r["t"] for r in gl if r["msg"] == "gantry reconnected"]
    assert T.count(gl, lambda r: r.get("gantry.id") == W.DOWN_GANTRY and f["gd_hb_first"] <= r["t"] < f["gd_back"] and not hb(r)) == 0
    pub = lambda r: r["msg"] == "publish to settlement failed"  # noqa: E731
    f["gd_pub_peak"] = hm(peak(gl, pub, lambda r: T.minute(r["t"]), margin=1.3))
    f["gd_pub_first"], f["gd_pub_last"] = first(gl, pub), last(gl, pub)
    [sp] = [r for r in gl if r["msg"] == "spool drained"]
    f["gd_spool"] = sp["t"]
    assert int(sp["replayed"]) == T.count(gl, pub) == gt.count("publish to settlement failed")

    # --- toll-settlement (Log4j2)
    stx = texts[ST]
    sl = T.parse_log4j(stx)
    erl = lambda r: r["level"] == "ERROR"  # noqa: E731
    f["st_errors"] = T.count(sl, erl)
    assert f["st_errors"] == stx.count("ERROR") == sum(W.WORKER_ERRORS.values()) + 1
    f["st_warn_up"] = T.count(sl, lambda r: r["level"] in ("WARN", "ERROR", "FATAL"))
    assert f["st_warn_up"] == stx.count(" WARN  [") + stx.count(" ERROR [")
    pool = lambda r: r["root"] is not None and "remaining connection slots" in r["root"]  # noqa: E731
    assert T.count(sl, pool) == stx.count("Connection is not available") == sum(W.WORKER_ERRORS.values())
    [r0] = [r for r in sl if erl(r) and hms(r["t"]) == hms(W.FIRST_ERR)]
    assert r0["root"].startswith("org.postgresql.util.PSQLException: FATAL: remaining connection slots are reserved")
    f["st_first_err"] = r0["t"]
    assert f["st_first_err"] == first(sl, erl)
    [r1] = [r for r in sl if erl(r) and r["t"].hour == 3]
    assert r1["root"] == "java.lang.ArithmeticException: Rounding necessary" and hm(r1["t"]) == "3:26"
    f["st_ledger_err"] = r1["t"]
    f["st_top3_threads"] = strict3(T.ranked(T.group(sl, lambda r: r["thread"], erl), 4))
    assert f["st_top3_threads"] == ["settle-worker-3", "settle-worker-5", "settle-worker-1"]
    com = [r for r in sl if "committed:" in r["msg"]]
    assert len(com) == len(P["chunks"]) == stx.count(" committed: ")
    durs = [int(r["duration"]) for r in com]
    assert max(durs) == W.MAX_CHUNK_MS and sorted(durs)[-2] < 0.5 * W.MAX_CHUNK_MS
    f["st_max_chunk"] = ["47.38", "47.4", "47,380", "47380"]
    p50 = same_by_any_definition([d for d in durs if d != W.MAX_CHUNK_MS], 50)
    assert p50 == same_by_any_definition(durs, 50) == P["chunk_p50_ms"]
    f["st_p50"] = sorted({f"{p50 / 1000:.3f}", str(p50), f"{p50:,}"} | set(dec_opts(p50 / 1000, 2)))
    cents = sum(int(r["amount"].replace(".", "")) for r in com)
    assert cents == sum(c["amount"] for c in P["chunks"])
    f["st_amount"] = sorted({f"{cents // 100}.{cents % 100:02d}", f"{cents // 100:,}.{cents % 100:02d}"})
    s, c = {}, {}
    for r in com:
        s[r["thread"]] = s.get(r["thread"], 0) + int(r["duration"])
        c[r["thread"]] = c.get(r["thread"], 0) + 1
    means = sorted(((s[k] / c[k], k) for k in s), reverse=True)
    assert means[0][1] == "settle-worker-7" and means[1][0] < 0.7 * means[0][0], means
    f["st_slow_worker"] = "settle-worker-7"
    [f["st_job_start"]] = [r["t"] for r in sl if r["msg"].startswith("Job NightlySettlementJob started")]
    [f["st_job_end"]] = [r["t"] for r in sl if r["msg"].startswith("Job NightlySettlementJob completed")]
    [f["st_ledger_start"]] = [r["t"] for r in sl if r["msg"].startswith("Job LedgerPostingJob started")]
    [f["st_ledger_end"]] = [r["t"] for r in sl if r["msg"].startswith("Job LedgerPostingJob completed")]
    assert T.count(sl, lambda r: r["level"] in ("WARN", "ERROR") and T.minute(r["t"]) >= T.minute(f["st_job_end"])) == 1
    f["st_last_err"] = last(sl, lambda r: erl(r) and r["t"].hour == 2)
    f["st_resume"] = first(com, lambda r: r["t"] > f["st_last_err"])
    assert hms(f["st_resume"]) == hms(W.RESUME)
    # the logs agree: every 201 payment at the edge is one `Payment accepted` in settlement
    assert T.count(na, lambda r: r["path"] == "/api/v1/payments" and r["status"] == 201) == stx.count("Payment accepted")

    # --- the night reads one way only
    f["tl_settle"] = ordered(f["st_first_err"], f["ng_first_504"], f["st_last_err"], f["st_resume"])
    f["tl_gantry"] = ordered(f["gd_pub_first"], f["ng_first_504"], f["gd_pub_last"], f["gd_spool"])
    f["tl_ledger"] = ordered(f["st_ledger_start"], f["st_ledger_err"], f["st_ledger_end"])
    assert all(hm(t) not in ("3:15", "3:45") for t in (f["st_ledger_start"], f["st_ledger_end"]))
    f["tl_hb"] = ordered(f["gd_hb_first"], f["gd_hb_last"], f["gd_back"])
    assert f["ng_last_504"] < f["st_last_err"]
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


AREAS = {"nginx", "gantryd", "settlement", "proc"}
CATS = {"count", "top", "distinct", "stat", "share", "window", "peak", "timeline", "cause", "followup",
        "process", "socket", "action"}


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
        assert c["area"] in AREAS and c["cat"] in CATS and c.get("fmt"), cid
        assert set(c) <= {"id", "text", "files", "answer_has", "turns", "procs", "approval", "cat", "area", "fmt"}, cid


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, texts)
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
