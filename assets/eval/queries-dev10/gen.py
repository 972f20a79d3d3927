#!/usr/bin/env python3
"""Generates the `queries-dev10` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev10.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev10.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import random
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20340307
HERE = Path(__file__).resolve().parent
SET = "queries-dev10"
MAX_BYTES = 10_000_000

TR, RL, SB = "traefik-access.log", "production.log", "billing-service.log"
PN, SY, WK = "tracker.log", "lfr-db-syslog.log", "label-worker.log"

FIXTURES = [
    (TR, W.traefik_log), (RL, W.production_log), (SB, W.billing_log), (PN, W.tracker_log),
    (SY, W.db_syslog), (WK, W.worker_log),
]
MAX_FILE = 3_000_000


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute as an answer must hold it; the hour unpadded so `02:21` and `2:21` both pass."""
    return f"{t.hour}:{t.minute:02d}"


def hms(t):
    return f"{t.hour}:{t.minute:02d}:{t.second:02d}"


def build_fixtures():
    return {name: writer(random.Random(SEED * 100 + i)) for i, (name, writer) in enumerate(FIXTURES)}


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


def top3(counter):
    """The top 3 of a Counter, each at least 20 % above the next (or nothing after the 3rd)."""
    t = T.ranked(counter, 3)
    rest = sorted(counter.values(), reverse=True)[3:4]
    assert t[0][1] > 1.2 * t[1][1] and t[1][1] > 1.2 * t[2][1] and (not rest or t[2][1] > 1.2 * rest[0]), (t, rest)
    return t


def mean_winner(rows, key, val, min_n=5, factor=2.0):
    s, c = {}, {}
    for r in rows:
        k = key(r)
        s[k] = s.get(k, 0) + val(r)
        c[k] = c.get(k, 0) + 1
    means = sorted(((s[k] / c[k], k) for k in s if c[k] >= min_n), reverse=True)
    assert means[1][0] * factor < means[0][0], means[:3]
    return means[0][1]


def tpl(path):
    return re.sub(r"/(LF\d{8}|INV-2034-\d+|\d{5,})", "/{id}", path)


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- traefik
    tr = T.parse_traefik(texts[TR])
    f["tr_429"] = T.count(tr, lambda r: r["status"] == 429)
    assert f["tr_429"] == texts[TR].count('" 429 ')
    rt = lambda name: [r for r in tr if r["router"] == name]  # noqa: E731
    b95 = same_by_any_definition([r["ms"] for r in rt("billing@docker")], 95)
    f["tr_billing_p95"] = ms_opts(b95 / 1000)
    d95 = same_by_any_definition([r["ms"] for r in rt("dispatch@docker")], 95)
    d99 = same_by_any_definition([r["ms"] for r in rt("dispatch@docker")], 99)
    assert d99 > 1.3 * d95
    f["tr_dispatch_p99"] = ms_opts(d99 / 1000)
    flood = lambda r: r["client"] == W.FLOOD  # noqa: E731
    fw = clock_window(tr, flood, "01:15", "01:28")
    assert fw == T.count(tr, flood) == 13 * 240
    f["tr_flood_rate"] = str(fw // 13)
    f["tr_flood_total"] = fw
    clients = T.group(tr, lambda r: r["client"])
    f["tr_top3_clients"] = [c for c, _ in top3(clients)]
    assert f["tr_top3_clients"] == [W.FLOOD, W.PARTNER, W.WAREHOUSE]
    f["tr_distinct_ips"] = len(clients)
    d500 = lambda r: r["router"] == "dispatch@docker" and r["status"] == 500  # noqa: E731
    t503 = lambda r: r["router"] == "tracker@docker" and r["status"] == 503  # noqa: E731
    f["tr_tracker_503_window"] = clock_window(tr, t503, "02:45", "03:15")
    assert f["tr_tracker_503_window"] == T.count(tr, t503)
    f["tr_peak_minute"] = hm(peak(tr, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.1))
    c429 = T.ranked(T.group(tr, lambda r: r["client"], lambda r: r["status"] == 429), 1)
    assert c429[0][0] == W.FLOOD and T.group(tr, lambda r: r["client"], lambda r: r["status"] == 429)[W.FLOOD] == f["tr_429"]
    trk_h = T.group(rt("tracker@docker"), lambda r: r["t"].hour)
    (h, c), = T.ranked(trk_h, 1)
    assert c > 1.3 * sorted(trk_h.values())[-2]
    f["tr_tracker_hour"], f["tr_tracker_hour_n"] = h, c
    tot = sum(r["bytes"] for r in rt("billing@docker"))
    f["tr_billing_bytes"] = sorted({str(tot), f"{tot:,}", f"{tot / 1e6:.1f}", f"{tot / 1e6:.2f}", f"{tot / 2**20:.1f}", f"{tot / 2**20:.2f}"})
    f["tr_first_502_billing"] = first(tr, lambda r: r["router"] == "billing@docker" and r["status"] == 502)
    f["tr_flood_first"] = first(tr, flood)
    f["tr_first_429"], f["tr_last_429"] = first(tr, lambda r: r["status"] == 429), last(tr, lambda r: r["status"] == 429)
    t502 = lambda r: r["router"] == "tracker@docker" and r["status"] == 502  # noqa: E731
    f["tr_trk_502_first"], f["tr_trk_502_last"] = first(tr, t502), last(tr, t502)
    f["tr_first_dispatch_500"] = first(tr, d500)

    # --- rails
    rl_lines, rl = T.parse_rails(texts[RL])
    f["rl_500"] = T.count(rl, lambda q: q["status"] == 500)
    assert f["rl_500"] == texts[RL].count("Completed 500 ") == texts[RL].count("ReadOnlySqlTransaction")
    assert f["rl_500"] == T.count(tr, d500)
    posts = [q["ms"] for q in rl if q["method"] == "POST" and q["path"] == "/api/shipments"]
    p90 = same_by_any_definition(posts, 90)
    f["rl_post_p90"] = ms_opts(p90 / 1000)
    f["rl_patch_500"] = T.count(rl, lambda q: q["status"] == 500 and q["method"] == "PATCH")
    f["rl_post_500"] = T.count(rl, lambda q: q["status"] == 500 and q["method"] == "POST")
    mx = sorted(rl, key=lambda q: -q["ms"])
    assert mx[0]["ms"] > 1.15 * mx[1]["ms"], (mx[0]["ms"], mx[1]["ms"])
    s = mx[0]["ms"] / 1000
    f["rl_max_s"] = sorted({f"{s:.2f}", f"{s:.1f}", f"{s:.3f}"})
    by_h = T.group(rl, lambda q: q["t"].hour)
    by_h2 = T.group(rl, lambda q: q["t"].hour, lambda q: q["path"] != "/up")
    (h, c), = T.ranked(by_h, 1)
    (h2, c2), = T.ranked(by_h2, 1)
    assert h == h2 and c > 1.1 * sorted(by_h.values())[-2] and c2 > 1.1 * sorted(by_h2.values())[-2]
    f["rl_hour"], f["rl_hour_n"] = h, sorted({str(c), f"{c:,}", str(c2), f"{c2:,}"})
    f["rl_hour_n_int"] = c
    f["rl_first_ro"] = first(rl, lambda q: q["status"] == 500)
    f["rl_first_201_after"] = first(rl, lambda q: q["status"] == 201 and q["t"] > W.DB1_MASTER)
    # the dispatch router and the app agree request by request
    a = sorted((r["client"], r["method"], r["target"], r["status"]) for r in rt("dispatch@docker"))
    b = sorted((q["client"], q["method"], q["target"], q["status"]) for q in rl if q["path"] != "/up")
    assert a == b

    # --- billing
    sb = T.parse_logback(texts[SB])
    req = [r for r in sb if "status" in r]
    f["sb_post_500"] = T.count(req, lambda r: r["status"] == 500 and r["method"] == "POST")
    assert f["sb_post_500"] < T.count(req, lambda r: r["status"] == 500)
    f["sb_error"] = T.count(sb, lambda r: r["level"] == "ERROR")
    assert f["sb_error"] == texts[SB].count(" ERROR ")
    t5 = top3(T.group(req, lambda r: r["uri"], lambda r: r["status"] == 500))
    assert [u for u, _ in t5] == ["/v2/invoices", "/v2/payments", "/v2/quotes"], t5
    f["sb_500_second"] = t5[1][1]
    for key in (lambda r: r["uri"], lambda r: tpl(r["uri"])):
        assert mean_winner(req, key, lambda r: r["took"], factor=2.0) == "/v2/payments"
    pays = sorted((r["took"] for r in req if r["uri"] == "/v2/payments"), reverse=True)
    assert pays[0] > 1.1 * pays[1]
    f["sb_pay_max_s"] = sorted({f"{pays[0] / 1000:.2f}", f"{pays[0] / 1000:.1f}", f"{pays[0] / 1000:.3f}"})
    [f["sb_shutdown"]] = [r["t"] for r in sb if r["msg"].startswith("Commencing graceful shutdown")]
    [f["sb_tomcat"]] = [r["t"] for r in sb if r["msg"].startswith("Tomcat started on port")]
    [f["sb_started"]] = [r["t"] for r in sb if r["msg"].startswith("Started BillingApplication")]
    broken = sorted(r["t"] for r in sb if "marked as broken" in r["msg"])
    assert len(broken) == 2
    f["sb_broken_1"], f["sb_broken_2"] = broken
    f["sb_first_ro"] = first(sb, lambda r: "read-only transaction" in r["msg"])
    f["sb_first_201_after"] = first(req, lambda r: r["uri"] == "/v2/invoices" and r["status"] == 201 and r["t"] > W.DB1_MASTER)
    a = sorted((r["method"], r["path"], r["status"]) for r in rt("billing@docker") if r["status"] != 502)
    b = sorted((r["method"], r["uri"], r["status"]) for r in req)
    assert a == b

    # --- tracker (pino)
    pn = T.parse_pino(texts[PN])
    pr = [d for d in pn if d["msg"] == "request completed"]
    assert mean_winner(pr, lambda d: tpl(d["req"]["url"].split("?")[0]), lambda d: d["responseTime"]) == "/v1/fleet/positions"
    assert mean_winner(pr, lambda d: d["req"]["url"].split("?")[0], lambda d: d["responseTime"], min_n=1, factor=1.5) == "/v1/fleet/positions"
    pings = [d["responseTime"] for d in pr if d["req"]["method"] == "POST" and d["req"]["url"] == "/v1/pings"]
    same_by_any_definition(pings, 50)
    p99 = same_by_any_definition(pings, 99)
    f["pn_ping_p99"] = sorted({str(p99), f"{p99 / 1000:.3f}"})
    fail = [d for d in pn if d["msg"] == "ping insert failed"]
    f["pn_fail_first"] = min(d["t"] for d in fail)
    assert len(fail) == T.count(pr, lambda d: d["res"]["statusCode"] == 503) == T.count(rt("tracker@docker"), lambda r: r["status"] == 503)
    f["pn_flood_seen"] = T.count(pr, lambda d: d["req"]["headers"]["x-forwarded-for"] == W.FLOOD)
    assert f["pn_flood_seen"] == f["tr_flood_total"] - f["tr_429"]
    assert len(pr) == T.count(rt("tracker@docker"), lambda r: r["status"] not in (429, 502))
    f["pn_first_lag"] = min(d["t"] for d in pn if d["msg"] == "event loop lag")
    [f["pn_crash"]] = [d["t"] for d in pn if d["level"] == 60]
    [f["pn_listen"]] = [d["t"] for d in pn if d["msg"].startswith("Server listening")]

    # --- the database pair's syslog
    sy = T.parse_syslog(texts[SY])
    ka = lambda host, s: [r["t"] for r in sy if r["host"] == host and r["prog"] == "Keepalived_vrrp" and r["msg"] == s]  # noqa: E731
    [f["sy_fault"]] = ka("lfr-db-01", "(VI_DB) Entering FAULT STATE")
    [f["sy_db2_master"]] = ka("lfr-db-02", "(VI_DB) Entering MASTER STATE")
    [f["sy_db1_master"]] = ka("lfr-db-01", "(VI_DB) Entering MASTER STATE")
    f["sy_first_timeout"] = first(sy, lambda r: r["msg"] == "Script `chk_pgsql` timed out")
    [f["sy_chk_ok"]] = ka("lfr-db-01", "Script `chk_pgsql` now returning 0")
    [f["sy_backup_done"]] = [r["t"] for r in sy if r["prog"] == "pg-backup" and "finished" in r["msg"]]
    [f["sy_backup_start"]] = [r["t"] for r in sy if r["prog"] == "pg-backup" and r["msg"].startswith("starting")]
    ro = [r for r in sy if r["prog"] == "postgres" and "ERROR:  cannot execute" in r["msg"]]
    f["sy_ro"] = len(ro)
    assert f["sy_ro"] == texts[SY].count("read-only transaction")
    assert all(r["host"] == "lfr-db-02" and f["sy_fault"] <= r["t"] <= f["sy_db1_master"] for r in ro)

    # --- the label worker
    wk = T.parse_structlog(texts[WK])
    jf = [d for d in wk if d["event"] == "job_failed"]
    f["wk_failed"] = len(jf)
    assert f["wk_failed"] == texts[WK].count("event='job_failed'")
    et = T.ranked(T.group(jf, lambda d: d["error_type"]), 3)
    assert et[1][1] > 1.2 * et[2][1]
    assert [e for e, _ in T.ranked(T.group(jf, lambda d: d["error"]), 2)] == [e["error"] for e in [next(d for d in jf if d["error_type"] == x) for x, _ in et[:2]]]
    f["wk_second_error"] = et[1][0]
    assert f["wk_second_error"] == "CarrierTimeout"
    ren = [d for d in wk if d["event"] == "label_rendered"]
    dm = sorted((d["duration_ms"] for d in ren), reverse=True)
    assert dm[0] > 3 * dm[1]
    f["wk_max_s"] = sorted({f"{dm[0] / 1000:.1f}", f"{dm[0] / 1000:.2f}", f"{dm[0] / 1000:.3f}", str(dm[0]), f"{dm[0]:,}"})
    (car, _), = T.ranked(T.group(ren, lambda d: d["carrier"]), 1)
    cars = sorted(T.group(ren, lambda d: d["carrier"]).values(), reverse=True)
    assert cars[0] > 1.1 * cars[1]
    f["wk_top_carrier"] = car
    slow = mean_winner(ren, lambda d: d["carrier"], lambda d: d["duration_ms"], factor=2.0)
    assert slow != car
    f["wk_slow_carrier"] = slow
    f["wk_slow_carrier_n"] = T.count(ren, lambda d: d["carrier"] == slow)
    wro = [d for d in jf if d["error_type"] == "ReadOnlySqlTransaction"]
    f["wk_first_ro"] = min(d["t"] for d in wro)
    f["wk_first_done_after"] = first(wk, lambda d: d["event"] == "job_done" and d["t"] > W.DB1_MASTER)
    f["wk_pn_first"] = first(wk, lambda d: d["event"] == "carrier_request_failed")
    f["wk_open"] = first(wk, lambda d: d["event"] == "circuit_open")
    f["wk_half"] = first(wk, lambda d: d["event"] == "circuit_half_open")
    [f["wk_closed"]] = [d["t"] for d in wk if d["event"] == "circuit_closed"]
    # every read-only error on the standby is one failed write of an app
    assert f["sy_ro"] == f["rl_500"] + f["sb_post_500"] + len(fail) + len(wro)
    # every 202 of POST .../labels is one job received within a second
    recv = sorted((d["t"], d["shipment_id"]) for d in wk if d["event"] == "job_received")
    lab = [q for q in rl if q["status"] == 202]
    rs = {}
    for t, s_ in recv:
        rs.setdefault(s_, []).append(t)
    assert all(any(0 <= (t - q["t"]).total_seconds() <= 1.5 for t in rs.get(int(q["path"].split("/")[3]), [])) for q in lab)

    # --- the night reads one way only
    f["tl_deploy"] = ordered(f["sb_shutdown"], f["tr_first_502_billing"], f["sb_tomcat"], f["sb_started"])
    f["tl_flood"] = ordered(f["tr_flood_first"], f["tr_first_429"], f["pn_first_lag"], f["tr_last_429"])
    f["tl_fault"] = ordered(f["sy_first_timeout"], f["sy_fault"], f["sy_db2_master"], f["rl_first_ro"])
    f["tl_billing"] = ordered(f["sy_fault"], f["sb_broken_1"], f["sy_db2_master"], f["sb_first_ro"])
    f["tl_recover"] = ordered(f["sy_backup_done"], f["sy_chk_ok"], f["sy_db1_master"], f["rl_first_201_after"], f["wk_first_done_after"])
    f["tl_carrier"] = ordered(f["wk_pn_first"], f["wk_open"], f["wk_half"], f["wk_closed"])
    f["tl_crash"] = ordered(f["pn_crash"], f["tr_trk_502_first"], f["tr_trk_502_last"], f["pn_listen"])
    f["tl_recover_billing"] = ordered(f["sy_backup_done"], f["sy_db1_master"], f["sb_broken_2"], f["sb_first_201_after"])
    f["tl_spread"] = ordered(f["sy_db2_master"], f["tr_first_dispatch_500"], f["pn_fail_first"], f["wk_first_ro"])
    assert f["sy_backup_start"] < f["sy_first_timeout"]
    return f


def check_cases(rows):
    """Every integer an answer must hold is 60 or more, no two cases share one, and no case's
    question (or earlier turn) contains it (entries that list words too are markers, not figures)."""
    seen = {}
    for c in rows:
        asked = set(re.findall(r"\d+", c["text"] + " " + " ".join(c.get("turns", []))))
        if c["cat"] in ("timeline", "incident"):
            continue  # clock seconds and markers (`502`, `25006`), no figures
        for want in c.get("answer_has", []):
            options = want if isinstance(want, list) else [want]
            ints = [o for o in options if re.fullmatch(r"\d[\d,]*", o)]
            if not ints or not all(re.fullmatch(r"[\d.,:]+", o) for o in options):  # a marker list (`25006`, ...)
                continue
            v = int(ints[0].replace(",", ""))
            assert v >= 60, (c["id"], v)
            assert str(v) not in asked, (c["id"], v)
            assert v not in seen, (c["id"], seen.get(v), v)
            seen[v] = c["id"]
    return seen


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
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    assert all(len(t.encode()) < MAX_FILE for t in texts.values())
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
