#!/usr/bin/env python3
"""Generates the `queries-heldout14` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout14.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout14.jsonl
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

SEED = 20350918
HERE = Path(__file__).resolve().parent
SET = "queries-heldout14"
MAX_BYTES = 5_000_000

LT, GW, QI = "tg-web-1.access.log", "weighbridge-gw.json", "intake-service.log"

FIXTURES = [(LT, W.lighttpd_log), (GW, W.gateway_log), (QI, W.intake_log)]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute as an answer must hold it; the hour unpadded so `02:17` and `2:17` both pass."""
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


def off_edge(x, places):
    """`x` rounded to `places` decimals is the same whether rounded or truncated, with room."""
    frac = (x * 10 ** places) % 1
    assert 0.08 < frac < 0.42, (x, places)


def ms_opts(seconds):
    """A duration asked in ms: the whole milliseconds (truncated and rounded) and the seconds to 3 places."""
    ms = seconds * 1000
    out = {str(int(ms + 1e-9)), str(round(ms))}
    out |= {f"{seconds:.3f}", f"{int(seconds * 1000 + 1e-9) / 1000:.3f}"}
    out |= {f"{int(x):,}" for x in (ms,) if ms >= 1000}
    return sorted(out)


def s_opts(ms):
    """A whole-millisecond duration asked in seconds: 3 or 2 decimals (rounded or truncated), or the ms."""
    out = {f"{ms / 1000:.3f}", f"{ms / 1000:.2f}", f"{ms // 10 / 100:.2f}", str(ms)}
    if ms >= 1000:
        out.add(f"{ms:,}")
    return sorted(out)


def mb_opts(b):
    """Bytes asked in MB: decimal MB or MiB with 1-2 decimals, or the raw bytes."""
    off_edge(b / 1e6, 1)
    off_edge(b / 2 ** 20, 1)
    return sorted({str(b), f"{b:,}", f"{b / 1e6:.1f}", f"{b / 1e6:.2f}", f"{b / 2 ** 20:.1f}", f"{b / 2 ** 20:.2f}"})


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # --- lighttpd
    lt = T.parse_lighttpd(texts[LT])
    f["l_lines"] = len(lt)
    f["l_not_ok"] = T.count(lt, lambda r: r["status"] not in (200, 304, 404))
    f["l_5xx"] = T.count(lt, lambda r: 500 <= r["status"] <= 599)
    assert f["l_5xx"] == T.count(lt, lambda r: r["status"] >= 500)
    assert not any(1_800_000 <= r["D"] <= 2_200_000 for r in lt)
    f["l_slow2s"] = T.count(lt, lambda r: r["D"] > 2_000_000)
    clients = T.group(lt, lambda r: r["client"])
    top = T.ranked(clients, 4)
    assert top[0][1] > 1.2 * top[1][1] and top[1][1] > 1.2 * top[2][1] and top[2][1] > 1.2 * top[3][1], top
    f["l_top3_clients"] = [c for c, _ in top[:3]]
    assert f["l_top3_clients"] == [W.SCRAPER_IP, W.GW_IP, W.MON_IP]
    f["l_distinct_ips"] = len(clients)
    slots = [r["D"] for r in lt if r["path"] == "/api/slots"]
    p95 = same_by_any_definition(slots, 95)
    assert p95 == W.SLOTS_P95_US == same_by_any_definition([r["D"] for r in lt if r["path"] == "/api/slots" and r["status"] == 200], 95)
    f["l_slots_p95"] = sorted(set(ms_opts(p95 / 1e6)) | {f"{p95 / 1000:.1f}"})
    static = sum(r["bytes"] for r in lt if r["path"].startswith("/static/"))
    f["l_static_mb"] = mb_opts(static)
    api = [r for r in lt if r["path"].startswith("/api/")]
    pct = 100 * T.count(api, lambda r: r["status"] >= 500) / len(api)
    off_edge(pct, 1)
    f["l_api_5xx_pct"] = [f"{pct:.1f}"]
    f["l_win_5xx"] = clock_window(lt, lambda r: r["status"] >= 500, "01:10", "01:25")
    f["l_peak_minute"] = hm(peak(lt, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.1))
    assert f["l_peak_minute"] == hm(W.SCRAPER_BURST)
    f["l_last_503"] = last(lt, lambda r: r["status"] == 503)
    f["l_first_503"] = first(lt, lambda r: r["status"] == 503)
    assert T.count(lt, lambda r: r["status"] == 503) == len(W.DEPLOY_503)
    scraper_bytes = sum(r["bytes"] for r in lt if r["client"] == W.SCRAPER_IP)
    f["l_scraper_mb"] = mb_opts(scraper_bytes)
    vs, vc = {}, {}
    for r in lt:
        vs[r["vhost"]] = vs.get(r["vhost"], 0) + r["D"]
        vc[r["vhost"]] = vc.get(r["vhost"], 0) + 1
    means = sorted(((vs[v] / vc[v], v) for v in vs), reverse=True)
    assert means[0][1] == W.VHOST_API and means[1][0] * 1.5 < means[0][0], means
    # also without the health checks
    vs2 = sum(r["D"] for r in lt if r["vhost"] == W.VHOST_API and r["path"] != "/healthz")
    assert vs2 / T.count(lt, lambda r: r["vhost"] == W.VHOST_API and r["path"] != "/healthz") > 1.5 * means[1][0]
    f["l_slowest_vhost"] = W.VHOST_API

    # --- the .NET gateway
    gw = T.parse_dotnet_json(texts[GW])
    f["n_not_info"] = T.count(gw, lambda r: r["level"] != "Information")
    assert f["n_not_info"] == texts[GW].count('"LogLevel":"') - texts[GW].count('"LogLevel":"Information"')
    posted = [r for r in gw if r["msg"].startswith("Posted ticket ")]
    el = [r["state"]["ElapsedMs"] for r in posted]
    f["n_ge750"] = sum(1 for x in el if x >= W.GE_MS)
    assert f["n_ge750"] == sum(1 for x in el if x > W.GE_MS) + 3
    assert not any(W.GE_MS - 10 < x < W.GE_MS or W.GE_MS < x < W.GE_MS + 10 for x in el)
    weighed = [r for r in gw if r["event"] == 1001]
    assert len(weighed) == sum(W.BRIDGES.values())
    br = T.ranked(T.group(weighed, lambda r: r["state"]["Bridge"]), 2)
    assert br[0][1] > 1.2 * br[1][1], br
    assert T.ranked(T.group(gw, lambda r: r["state"].get("Bridge"), lambda r: "Bridge" in r["state"]), 1)[0][0] == br[0][0]
    f["n_top_bridge"] = br[0][0]
    wc = T.ranked(T.group(gw, lambda r: r["category"], lambda r: r["level"] == "Warning"), 4)
    assert wc[0][1] > 1.2 * wc[1][1] and wc[1][1] > 1.2 * wc[2][1] and wc[2][1] > 1.2 * wc[3][1], wc
    f["n_top3_warn_cats"] = [c.rsplit(".", 1)[1] for c, _ in wc[:3]]
    plates = {r["state"]["Plate"] for r in weighed}
    assert plates == {r["state"]["Plate"] for r in gw if "Plate" in r["state"]}
    f["n_distinct_plates"] = len(plates)
    p99 = same_by_any_definition(el, 99)
    assert p99 == P["p99_ms"]
    f["n_p99_s"] = s_opts(p99)
    sums, cnts = {}, {}
    for r in posted:
        b = r["state"]["Bridge"]
        sums[b] = sums.get(b, 0) + r["state"]["ElapsedMs"]
        cnts[b] = cnts.get(b, 0) + 1
    means = sorted(((sums[b] / cnts[b], b) for b in sums), reverse=True)
    assert means[0][1] == "WB-4" and means[1][0] * 2 < means[0][0], means
    assert sums["WB-4"] % cnts["WB-4"] == 0 and sums["WB-4"] // cnts["WB-4"] == P["wb4_mean"]
    # with the failed posts too, WB-4 is still the slowest
    allp = [r for r in gw if "ElapsedMs" in r["state"]]
    m2 = {b: sum(r["state"]["ElapsedMs"] for r in allp if r["state"]["Bridge"] == b) / T.count(allp, lambda r: r["state"]["Bridge"] == b)
          for b in W.BRIDGES}
    assert max(m2, key=m2.get) == "WB-4"
    f["n_wb4_mean"] = P["wb4_mean"]
    f["n_slow_bridge"] = means[0][1]
    net = sum(r["state"]["NetKg"] for r in weighed)
    assert net == P["net_total_kg"]
    off_edge(net / 1e3, 0)
    t = net // 1000
    f["n_net_t"] = [str(t), f"{t:,}", f"{net / 1e7:.2f}万"]
    gross = sorted((r["state"]["GrossKg"] for r in weighed), reverse=True)
    assert gross[0] == sum(W.HEAVY) and gross[1] < gross[0] - 5000
    g = gross[0]
    f["n_max_gross"] = [str(g), f"{g:,}", f"{g / 1000:.2f}", f"{g / 1000:.1f} t", f"{g / 1000:.1f}t", f"{g / 1000:.1f} 吨",
                        f"{g / 1000:.1f}吨", f"{g / 1000:.1f} tonnes"]
    assert f"{g / 1000:.2f}" == "68.34"
    [lost] = [r for r in gw if r["event"] == 1090]
    f["n_wb3_lost"] = lost["t"]
    assert "SocketException (104): Connection reset by peer" in lost["exc"]
    [f["n_wb3_connected"]] = [r["t"] for r in gw if r["event"] == 1092]
    f["n_wb3_first_retry"] = first(gw, lambda r: r["event"] == 1091)
    f["n_wb3_next_weigh"] = first(gw, lambda r: r["event"] == 1001 and r["state"]["Bridge"] == "WB-3" and r["t"] > lost["t"])
    f["tl_wb3"] = ordered(f["n_wb3_lost"], f["n_wb3_first_retry"], f["n_wb3_connected"], f["n_wb3_next_weigh"])
    drift = [r for r in gw if r["category"].endswith("DriftMonitor")]
    db = T.ranked(T.group(drift, lambda r: r["state"]["Bridge"]), 2)
    assert db[0][1] > 2 * db[1][1] and db[0][0] == "WB-1"
    f["n_drift_bridge"] = db[0][0]
    f["n_drift_first"] = first(drift, lambda r: r["state"]["Bridge"] == "WB-1")
    assert hm(f["n_drift_first"]) != hm(first(drift, lambda r: True)) or f["n_drift_first"] == first(drift, lambda r: True)
    f["n_first_fail"] = first(gw, lambda r: r["event"] == 2102)
    [f["n_flush"]] = [r["t"] for r in gw if r["event"] == 2104]
    f["n_queued"] = T.count(gw, lambda r: r["event"] == 2103)
    assert f["n_queued"] == P["queued"]

    # --- Quarkus intake-service
    qt = texts[QI]
    qi = T.parse_quarkus(qt)
    err = lambda r: r["level"] == "ERROR"  # noqa: E731
    f["q_errors"] = T.count(qi, err)
    assert f["q_errors"] == qt.count(" ERROR [") == sum(1 for line in qt.splitlines() if "ERROR" in line)
    f["q_not_info"] = T.count(qi, lambda r: r["level"] != "INFO")
    assert f["q_not_info"] == sum(1 for line in qt.splitlines() if "WARN" in line or "ERROR" in line)
    jdbc = lambda r: "JDBCConnectionException" in r["msg"]  # noqa: E731
    f["q_jdbc"] = T.count(qi, jdbc)
    assert f["q_jdbc"] == qt.count("JDBCConnectionException")
    roots = {r["causes"][-1] for r in qi if jdbc(r)}
    assert roots == {"org.postgresql.util.PSQLException: FATAL: the database system is in recovery mode"}, roots
    [rej] = [r for r in qi if "rejected" in r["msg"] and err(r)]
    assert f"Ticket {P['reject_ticket']} rejected" in rej["msg"]
    assert rej["causes"][-1] == 'java.lang.NumberFormatException: For input string: "NaN%"', rej["causes"]
    f["q_reject_ticket"] = P["reject_ticket"]
    f["q_reject_time"] = rej["t"]
    conf = [r for r in qi if r["msg"].startswith("Booking ") and " confirmed:" in r["msg"]]
    top = T.ranked(T.group(conf, lambda r: r["silo"]), 4)
    assert top[0][1] > 1.2 * top[1][1] and top[1][1] > 1.2 * top[2][1] and top[2][1] > 1.2 * top[3][1], top
    f["q_top3_silos"] = [s for s, _ in top[:3]]
    [f["q_started"]] = [r["t"] for r in qi if " started in " in r["msg"]]
    [f["q_stopped"]] = [r["t"] for r in qi if " stopped in " in r["msg"]]
    assert not any(f["q_stopped"] < r["t"] < f["q_started"] for r in qi if "shutdown complete" not in r["msg"])
    f["q_win_err"] = clock_window(qi, err, "01:10", "01:20")
    assert f["q_win_err"] > T.count(qi, lambda r: jdbc(r) and T.minutes(r["t"]).hour == 1 and 10 <= r["t"].minute < 20)
    f["q_peak_err"] = hm(peak(qi, err, lambda r: T.minutes(r["t"]), margin=1.5))
    took = [int(r["took"][:-2]) for r in conf]
    p90 = same_by_any_definition(took, 90)
    assert p90 == W.BOOK_P90_MS
    f["q_took_p90"] = sorted({f"{p90 / 1000:.3f}", f"{p90 / 1000:.2f}", str(p90)})
    f["q_distinct_farms"] = len({r["farm"] for r in conf})
    [f["q_agroal"]] = [r["t"] for r in qi if r["category"] == "io.agr.pool"]
    f["q_jdbc_first"] = first(qi, jdbc)
    [f["q_restored"]] = [r["t"] for r in qi if "reachable again" in r["msg"]]
    # the three logs agree
    assert T.count(lt, lambda r: r["path"] == "/api/tickets") == len(posted) + T.count(gw, lambda r: r["event"] == 2102)
    assert T.count(qi, lambda r: r["msg"].startswith("Ticket ") and " accepted:" in r["msg"]) == len(posted)
    assert T.count(lt, lambda r: r["path"] == "/api/bookings" and r["status"] == 201) == len(conf)
    e1 = T.count(lt, lambda r: r["status"] == 500)
    assert f["q_jdbc"] == e1 + len(P["sync_fail"])
    assert f["l_win_5xx"] == e1
    assert f["l_slow2s"] == e1 + W.N_REPORTS
    assert f["q_errors"] == f["q_jdbc"] + W.N_SMS + 1
    assert hms(f["n_first_fail"]) == hms(W.FIRST_E1_TICKET_WEIGH + (f["n_first_fail"] - W.FIRST_E1_TICKET_WEIGH))
    # the night reads one way only
    f["tl_0112"] = ordered(f["q_agroal"], f["q_jdbc_first"], f["n_first_fail"], f["q_restored"], f["n_flush"])
    f["tl_0340"] = ordered(f["q_stopped"], f["l_first_503"], f["l_last_503"], f["q_started"])
    assert hms(f["q_jdbc_first"]) == hms(W.FIRST_E1_BOOKING + W.S(5))
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
            for o in options:
                assert not any(o.replace(",", "") == a for a in asked), (c["id"], o)
            assert v not in seen, (c["id"], seen.get(v), v)
            seen[v] = c["id"]
    return seen


PLACEHOLDER_KINDS = ("pid", "pids", "count", "port", "user")
AREAS = {"lighttpd", "dotnet", "quarkus", "proc"}


def well_formed(rows, texts):
    """What the harness's `query_sets_are_well_formed` asserts (tests/tests/eval/query_case.rs),
    plus this set's own fields (`cat`, `area`, `fmt`, `lang`)."""
    assert len(rows) >= 40, len(rows)
    for c in rows:
        cid = c["id"]
        assert isinstance(c["text"], str) and c["text"], cid
        specs = c.get("procs", [])
        assert isinstance(specs, list), cid
        for s in specs:
            assert isinstance(s.get("name"), str), cid
            assert 1 <= len(s["name"]) <= 15 and "/" not in s["name"], (cid, s["name"])
            assert set(s) <= {"name", "args", "count", "user", "listen", "interp", "mem_mb"}, (cid, s)
            assert all(isinstance(a, str) for a in s.get("args", [])), cid
        for name in c.get("files", []):
            assert name in texts, (cid, name)
        strings = [c["text"], json.dumps(c.get("answer_has")), json.dumps(c.get("turns"))]
        if "approval" in c:
            assert set(c["approval"]) <= {"kill", "argv"}, cid
            if "kill" in c["approval"]:
                strings.append("{count:%s}" % c["approval"]["kill"])
        for st in strings:
            for kind, name in re.findall(r"\{(\w+):([^{}:]+)\}", st):
                if kind not in PLACEHOLDER_KINDS:
                    continue
                mine = [s for s in specs if s["name"] == name]
                assert mine, (cid, kind, name)
                copies = sum(max(1, s.get("count", 1)) for s in mine)
                assert kind != "pid" or copies == 1, (cid, name, copies)
                assert kind != "port" or mine[0].get("listen"), (cid, name)
        assert (isinstance(c.get("answer_has"), list) and c["answer_has"]) or "approval" in c, cid
        for want in c.get("answer_has", []):
            assert isinstance(want, str) or (isinstance(want, list) and want and all(isinstance(o, str) for o in want)), cid
        assert c["area"] in AREAS and isinstance(c["cat"], str) and c["cat"] and isinstance(c["fmt"], str), cid
        assert c["lang"] in ("zh", "en"), cid
        assert (c["lang"] == "zh") == bool(re.search(r"[\u4e00-\u9fff]", c["text"])), cid


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
