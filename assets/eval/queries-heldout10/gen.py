#!/usr/bin/env python3
"""Generates the `queries-heldout10` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout10.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout10.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure (held out: don't, unless retiring the set)
"""

import json
import random
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20370217
HERE = Path(__file__).resolve().parent
SET = "queries-heldout10"
MAX_BYTES = 6_000_000

CAD, SEAT, PGL = "caddy-edge-1-access.log", "seatd.log", "postgresql-pg-seats-1.log"
RED, KFK, DNS = "redis-q1.log", "kfk-2-server.log", "coredns.log"
FIXTURES = [(CAD, W.caddy_log), (SEAT, W.seatd_log), (PGL, W.postgres_log), (RED, W.redis_log),
            (KFK, W.kafka_log), (DNS, W.coredns_log)]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute as an answer must hold it; the hour unpadded so `02:31` and `2:31` both pass."""
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


def peak(rows, pred, key):
    [(m, c)] = T.ranked(T.group(rows, key, pred))
    return m


def first(rows, pred, key="t"):
    return min(r[key] for r in rows if pred(r))


def last(rows, pred, key="t"):
    return max(r[key] for r in rows if pred(r))


def exact_mean(values, unit):
    """The mean of integers, asserted to be a whole `unit`."""
    s, k = sum(values), len(values)
    assert s % (k * unit) == 0, (s, k, unit)
    return s // k


def ms_opts(ms):
    """A whole-millisecond figure asked in ms (and the seconds reading)."""
    out = [str(ms)]
    if ms >= 1000:
        out.append(f"{ms:,}")
    out.append(f"{ms / 1000:.3f}")
    return out


def secs_ms(ms):
    """A whole-millisecond figure asked in seconds (and the ms reading)."""
    out = [f"{ms / 1000:.3f}", str(ms)]
    if ms >= 1000:
        out.append(f"{ms:,}")
    if ms % 10 == 0:
        out.append(f"{ms / 1000:.2f}")
    return out


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    H = lambda x: tuple(int(p) for p in x.split(":"))  # noqa: E731
    # ------------------------------------------------------------ caddy (edge-1)
    ct = texts[CAD]
    ca = T.parse_caddy(ct)
    st = lambda k: (lambda r: r["status"] == k)  # noqa: E731
    statuses = {r["status"] for r in ca}
    assert not any(r["size"] in statuses for r in ca), "a caddy size that reads like a status"
    for code in statuses:
        assert T.count(ca, st(code)) == ct.count(f'"status":{code}'), code
    f["c_502"] = T.count(ca, st(502))
    f["c_503_window"] = clock_window(ca, st(503), "02:50", "03:10")
    assert f["c_503_window"] < T.count(ca, st(503))
    f["c_ips"] = len({r["ip"] for r in ca})
    top = T.ranked(T.group(ca, lambda r: r["ip"]), 3)
    f["c_top_ips"] = [ip for ip, _ in top]
    assert f["c_top_ips"] == [W.SCRAPER, W.RESELLER, W.CARRIER], top
    assert T.ranked(T.group(ca, lambda r: r["ip"]), 4)[3][1] < top[2][1] / 3
    f["c_500"] = T.count(ca, st(500))
    f["c_404"] = T.count(ca, st(404))
    f["c_scraper_429"] = T.count(ca, lambda r: r["ip"] == W.SCRAPER and r["status"] == 429)
    assert f["c_scraper_429"] == T.count(ca, st(429))
    f["c_429_minute"] = hm(peak(ca, st(429), lambda r: T.minutes(r["t"])))
    pm = sorted(T.group(ca, lambda r: T.minutes(r["t"]), st(429)).values(), reverse=True)
    assert pm[0] >= pm[1] + 20, pm
    f["c_holds_503"] = T.count(ca, lambda r: r["status"] == 503 and r["path"] == "/api/v3/holds")
    f["c_checkout_503"] = T.count(ca, lambda r: r["status"] == 503 and r["path"] == "/api/v3/checkout")
    assert f["c_holds_503"] == T.count(ca, lambda r: r["status"] == 503 and r["method"] == "POST" and r["uri"] == "/api/v3/holds")
    seat = [r for r in ca if r["method"] == "GET" and r["path"] == "/api/v3/seatmap"]
    p_all = same_by_any_definition([r["ns"] for r in seat], 95)
    p_ok = same_by_any_definition([r["ns"] for r in seat if r["status"] == 200], 95)
    assert p_all == p_ok == W.P_SEAT_NS and p_all % 1_000_000 == 0
    f["c_seat_p95_ms"] = p_all // 1_000_000
    co = [r for r in ca if r["method"] == "POST" and r["path"] == "/api/v3/checkout"]
    co_ok = [r["ns"] for r in co if r["status"] == 200]
    f["c_co_mean_ms"] = exact_mean(co_ok, 1_000_000) // 1_000_000
    assert abs(sum(r["ns"] for r in co) / len(co) / 1e6 - f["c_co_mean_ms"]) > 20
    qs = [r["ns"] for r in ca if r["method"] == "GET" and r["path"] == "/api/v3/queue/status"]
    assert T.count(ca, lambda r: r["path"] == "/api/v3/queue/status" and r["status"] != 200) == 0
    f["c_qstat_mean_ms"] = exact_mean(qs, 1_000_000) // 1_000_000
    p = same_by_any_definition(qs, 95)
    assert p == W.P_QSTAT_NS
    f["c_qstat_p95_ms"] = p // 1_000_000
    join500 = lambda r: r["status"] == 500 and r["path"] == "/api/v3/queue/join"  # noqa: E731
    f["c_first_500"] = hms(first(ca, join500))
    f["c_last_500"] = hms(last(ca, join500))
    w503 = lambda r: r["status"] == 503 and W.T(2, 50) <= r["t"] < W.T(3, 10)  # noqa: E731
    f["c_first_503"] = hms(first(ca, w503))
    f["c_last_503"] = hms(last(ca, w503))
    w502 = lambda r: r["status"] == 502 and r["path"] == "/api/v3/checkout"  # noqa: E731
    f["c_first_502"] = hms(first(ca, w502))
    f["c_last_502"] = hms(last(ca, w502))
    assert all(W.T(3, 48) <= r["t"] < W.T(3, 56) for r in ca if w502(r))

    # ------------------------------------------------------------ seatd (Spring Boot)
    stx = texts[SEAT]
    sb = T.parse_spring(stx)
    hik = [r for r in sb if any("Connection is not available" in x for x in r["more"])]
    f["s_hikari"] = len(hik)
    assert f["s_hikari"] == stx.count("Connection is not available")
    f["s_first_hikari"] = hms(min(r["t"] for r in hik))
    f["s_last_hikari"] = hms(max(r["t"] for r in hik))
    err = [r for r in sb if r["level"] == "ERROR"]
    assert len(err) == stx.count(" ERROR 1 --- ")
    tl = T.ranked(T.group(err, lambda r: r["logger"]), 3)
    f["s_top_err"] = [lg.rsplit(".", 1)[1] for lg, _ in tl]
    assert f["s_top_err"] == ["SqlExceptionHelper", "HoldController", "QueueTokenStore"], tl
    f["s_err_hour"] = peak(err, lambda r: True, lambda r: r["t"].hour)
    hrs = sorted(T.group(err, lambda r: r["t"].hour).values(), reverse=True)
    assert hrs[0] >= hrs[1] + 20, hrs
    took = [r["took_ms"] for r in sb if "took_ms" in r]
    assert len(took) == stx.count("Hold created")
    f["s_took_p95_ms"] = same_by_any_definition(took, 95)
    assert f["s_took_p95_ms"] == W.P_TOOK_MS
    kc = lambda r: "could not be established" in r["msg"]  # noqa: E731
    f["s_kconn_window"] = clock_window(sb, kc, "02:20", "02:30")
    assert f["s_kconn_window"] == stx.count("could not be established")
    [nd] = [r for r in sb if "Node 3 disconnected" in r["msg"]]
    f["s_node3"] = hms(nd["t"])
    f["s_last_kconn"] = hms(last(sb, kc))
    mis = [r for r in sb if any("MISCONF" in x for x in r["more"])]
    f["s_first_misconf"] = hms(min(r["t"] for r in mis))
    pay = [r for r in sb if r["level"] == "ERROR" and r["logger"].endswith("PaystreamClient")]
    assert all(any("UnknownHostException" in x for x in r["more"]) for r in pay)
    f["s_first_pay"] = hms(min(r["t"] for r in pay))
    f["s_last_pay"] = hms(max(r["t"] for r in pay))
    [ons] = [r for r in sb if r["msg"].startswith("Onsale opened")]
    f["s_onsale"] = hms(ons["t"])

    # ------------------------------------------------------------ postgres (pg-seats-1)
    pt = texts[PGL]
    pg = T.parse_postgres(pt)
    waits = lambda r: r["sev"] == "LOG" and "still waiting for" in r["msg"]  # noqa: E731
    assert T.count(pg, waits) == pt.count("still waiting for")
    f["p_wait_window"] = clock_window(pg, waits, "02:45", "03:05")
    assert f["p_wait_window"] < T.count(pg, waits)
    f["p_pids"] = len({r["pid"] for r in pg})
    auth = T.ranked(T.group(pg, lambda r: r["auth_user"], lambda r: "auth_user" in r), 3)
    f["p_top_users"] = [u for u, _ in auth]
    assert f["p_top_users"] == ["grafana_ro", "seatd", "reporting"], auth
    durs = [r for r in pg if "dur_us" in r]
    assert len(durs) == pt.count("duration: ")
    sd = [r["dur_us"] for r in durs if r["user"] == "seatd"]
    f["p_seatd_mean_ms"] = exact_mean(sd, 1000) // 1000
    assert abs(sum(r["dur_us"] for r in durs) / len(durs) / 1000 - f["p_seatd_mean_ms"]) > 100
    longest = sorted(durs, key=lambda r: -r["dur_us"])
    assert longest[0]["dur_us"] > 3 * longest[1]["dur_us"]
    f["p_longest_pid"] = longest[0]["pid"]
    assert f["p_longest_pid"] == W.REPORT_PID
    cps = [r["cp_total_ms"] for r in pg if "cp_total_ms" in r]
    assert len(cps) == pt.count("checkpoint complete")
    f["p_cp_mean_ms"] = exact_mean(cps, 1)
    rx = lambda r: waits(r) and "RowExclusiveLock" in r["msg"]  # noqa: E731
    f["p_first_rx"] = hms(first(pg, rx))
    f["p_last_rx"] = hms(last(pg, rx))
    [alt] = [r for r in pg if r["msg"].startswith("statement: ALTER TABLE")]
    f["p_alter"] = hms(alt["t"])
    [aw] = [r for r in pg if waits(r) and "AccessExclusiveLock" in r["msg"]]
    f["p_alter_wait"] = hms(aw["t"])
    [cn] = [r for r in pg if r["msg"] == "canceling statement due to user request"]
    f["p_cancel"] = hms(cn["t"])
    f["p_report_end"] = hms(longest[0]["t"])

    # ------------------------------------------------------------ redis (redis-q1)
    rt = texts[RED]
    rd = T.parse_redis(rt)
    fk = lambda r: r["msg"].startswith("Can't save in background")  # noqa: E731
    f["r_fork"] = T.count(rd, fk)
    assert f["r_fork"] == rt.count("Can't save in background") == W.FORK_N
    f["r_first_fork"] = hms(first(rd, fk))
    f["r_last_fork"] = hms(last(rd, fk))
    [rw] = [r for r in rd if r["msg"].startswith("CONFIG REWRITE")]
    f["r_rewrite"] = hms(rw["t"])
    ok = [r for r in rd if r["msg"] == "Background saving terminated with success" and W.T(1, 40) < r["t"] < W.T(1, 50)]
    f["r_save_done"] = hms(ok[0]["t"])

    # ------------------------------------------------------------ kafka (kfk-2)
    kt = texts[KFK]
    kf = T.parse_kafka(kt)
    roll = lambda r: "Rolled new log segment" in r["msg"]  # noqa: E731
    f["k_rolls"] = T.count(kf, roll)
    assert f["k_rolls"] == kt.count("Rolled new log segment")
    tt = T.ranked(T.group(kf, lambda r: r["topic"], roll), 3)
    f["k_top_topics"] = [t for t, _ in tt]
    assert f["k_top_topics"] == ["seat-events", "holds.v1", "audit.trail"], tt
    f["k_second_rolls"] = tt[1][1]
    [fe] = [r for r in kf if r["msg"].startswith("[ReplicaFetcher") and "Error in response" in r["msg"]]
    assert any("Connection to 3 was disconnected" in x for x in fe["more"])
    f["k_fetch_err"] = hms(fe["t"])
    shr = [r for r in kf if "Shrinking ISR" in r["msg"]]
    f["k_first_shrink"] = hms(min(r["t"] for r in shr))
    f["k_shrunk"] = sorted({re.search(r"\[Partition (\S+) broker", r["msg"]).group(1) for r in shr})
    exp = [r for r in kf if "Expanding ISR" in r["msg"]]
    f["k_first_expand"] = hms(min(r["t"] for r in exp))

    # ------------------------------------------------------------ coredns
    dt = texts[DNS]
    dn = T.parse_coredns(dt)
    qs_ = [r for r in dn if "rcode" in r]
    io = lambda r: r["level"] == "ERROR" and r["msg"].endswith("i/o timeout")  # noqa: E731
    f["d_timeouts"] = T.count(dn, io)
    assert f["d_timeouts"] == dt.count("i/o timeout")
    f["d_ips"] = len({r["ip"] for r in qs_})
    nt = T.ranked(T.group(qs_, lambda r: r["name"]), 3)
    f["d_top_names"] = [x for x, _ in nt]
    assert f["d_top_names"][0].startswith("redis-q1.") and f["d_top_names"][1].startswith("pg-seats-1."), nt
    sf = lambda r: r.get("rcode") == "SERVFAIL"  # noqa: E731
    assert T.count(dn, sf) == dt.count(" SERVFAIL ")
    f["d_sf_minute"] = hm(peak(dn, sf, lambda r: T.minutes(r["t"])))
    pm = sorted(T.group(dn, lambda r: T.minutes(r["t"]), sf).values(), reverse=True)
    assert pm[0] >= pm[1] + 15, pm
    sl = sorted(qs_, key=lambda r: -r["ns"])
    assert sl[0]["ns"] > sl[1]["ns"] + 1_500_000_000 and sl[0]["ns"] % 1_000_000 == 0
    f["d_slowest_name"] = sl[0]["name"]
    f["d_slowest_ms"] = sl[0]["ns"] // 1_000_000
    f["d_first_err"] = hms(first(dn, io))
    f["d_last_sf"] = hms(last(dn, sf))
    [rl] = [r for r in dn if r["msg"] == "Reloading"]
    f["d_reload"] = hms(rl["t"])

    # ------------------------------------------------------------ the files agree with each other
    assert H(f["r_first_fork"]) <= H(f["s_first_misconf"]) <= H(f["c_first_500"]) < (1, 37, 20)
    assert H(f["r_last_fork"]) < H(f["r_rewrite"]) < H(f["c_last_500"]) < H(f["r_save_done"])
    assert f["c_last_500"][:4] == f["r_save_done"][:4] == "1:44"
    assert H(f["s_node3"]) <= H(f["k_fetch_err"]) < H(f["k_first_shrink"]) < (2, 21, 30)
    assert H(f["s_last_kconn"]) < H(f["k_first_expand"]) < (2, 30)
    assert H(f["s_onsale"]) < H(f["p_alter"]) < H(f["p_alter_wait"]) < H(f["p_first_rx"]) < H(f["s_first_hikari"])
    assert H(f["c_first_503"]) <= H(f["s_first_hikari"]) and f["c_first_503"][:4] == f["s_first_hikari"][:4] == "2:52"
    assert H(f["s_last_hikari"]) <= H(f["c_last_503"]) <= H(f["p_cancel"]) and f["p_cancel"][:4] == "3:02"
    assert H(f["p_last_rx"]) < H(f["p_cancel"])
    assert H(f["d_first_err"]) < H(f["s_first_pay"]) <= H(f["c_first_502"]) < (3, 48, 30)
    assert H(f["s_last_pay"]) <= H(f["c_last_502"]) < H(f["d_reload"]) and H(f["d_last_sf"]) <= H(f["d_reload"])
    assert f["d_sf_minute"] == "3:51"
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


def check_in_files(rows, texts):
    """Every clock time, name or marker a timeline, incident, follow-up or top case expects is
    in one of the files uploaded for it (one option of each entry at least)."""
    def found(o, files):
        if re.fullmatch(r"\d{1,2}:\d\d(:\d\d)?", o):
            h, rest = o.split(":", 1)
            return any(f"{int(h):02d}:{rest}" in texts[x] for x in files)
        return any(o in texts[x] for x in files)
    for c in rows:
        if c["cat"] not in ("timeline", "incident", "followup", "top") or not c["files"]:
            continue
        for want in c["answer_has"]:
            opts = want if isinstance(want, list) else [want]
            if all(re.fullmatch(r"[\d.,]+", o) for o in opts):
                continue
            assert any(found(o, c["files"]) for o in opts), (c["id"], opts)


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n, ms_opts, secs_ms, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    assert len(rows) == 50
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    check_cases(rows)
    check_in_files(rows, texts)
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
