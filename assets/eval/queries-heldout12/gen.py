#!/usr/bin/env python3
"""Generates the `queries-heldout12` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout12.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout12.jsonl
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

SEED = 20340309
HERE = Path(__file__).resolve().parent
SET = "queries-heldout12"
MAX_BYTES = 12_000_000

BA, TC, PG = "booking-api.log", "localhost_access_log.2034-03-09.txt", "payments-gw-20340309.clef"
PX, TM, OV = "proxysql.log", "ticket-mailer.log", "openvpn-kiosks.log"

FIXTURES = [
    (BA, W.booking_api_log), (TC, W.tomcat_access_log), (PG, W.payments_log), (PX, W.proxysql_log),
    (TM, W.ticket_mailer_log), (OV, W.openvpn_log),
]


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
    """Timeline events (given in any order), each in its own second; returned in time order."""
    times = sorted(times)
    secs = [hms(t) for t in times]
    assert len(set(secs)) == len(secs), secs
    return secs


def ms_opts(seconds):
    """A duration asked in ms: the whole milliseconds (truncated and rounded) and the seconds to 3 places."""
    ms = seconds * 1000
    out = {str(int(ms + 1e-9)), str(round(ms))}
    out |= {f"{seconds:.3f}", f"{int(seconds * 1000 + 1e-9) / 1000:.3f}"}
    out |= {f"{int(x):,}" for x in (ms,) if ms >= 1000}
    return sorted(out)


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # --- booking-api (zap console)
    bt = texts[BA]
    ba = T.parse_zap(bt)
    served = [r for r in ba if r["msg"] == "request served"]
    cbf = lambda r: r["msg"] == "create booking failed"  # noqa: E731
    f["ba_create_failed"] = T.count(ba, cbf)
    assert f["ba_create_failed"] == bt.count("create booking failed")
    f["ba_cbf_first"], f["ba_cbf_last"] = first(ba, cbf), last(ba, cbf)
    q200 = [r["latency_ms"] for r in served if r["route"] == "/v1/quotes" and r["status"] == 200]
    p95 = same_by_any_definition(q200, 95)
    assert p95 == P["quote_p95"]
    f["ba_quote_p95"] = sorted({f"{p95:.1f}", str(round(p95))})
    sums, cnts = {}, {}
    for r in served:
        sums[r["route"]] = sums.get(r["route"], 0) + r["latency_ms"]
        cnts[r["route"]] = cnts.get(r["route"], 0) + 1
    means = sorted(((sums[k] / cnts[k], k) for k in sums), reverse=True)
    assert means[0][1] == "/v1/bookings/{ref}/ticket" and means[1][0] < 0.5 * means[0][0], means[:3]
    f["ba_slowest_route"] = ["ticket"]
    five = T.ranked(T.group(served, lambda r: r["route"], lambda r: r["status"] >= 500), 4)
    assert five[0][1] > 1.2 * five[1][1] and five[1][1] > 1.2 * five[2][1] and five[2][1] > 1.2 * five[3][1], five
    f["ba_top3_5xx"] = [k for k, _ in five[:3]]
    busiest = T.ranked(T.group(served, lambda r: r["route"]), 2)
    assert busiest[0][1] > 1.2 * busiest[1][1]
    f["ba_top_route"] = busiest[0][0]
    f["ba_distinct_remote"] = len({r["remote"] for r in served})
    f["ba_503_window"] = clock_window(served, lambda r: r["status"] == 503, "02:10", "02:30")
    assert f["ba_503_window"] == T.count(served, lambda r: r["status"] == 503)
    f["ba_5xx"] = T.count(served, lambda r: r["status"] >= 500)
    byh = T.group(served, lambda r: r["t"].hour, lambda r: r["status"] >= 500)
    (h, c), = T.ranked(byh, 1)
    assert c > 1.3 * sorted(byh.values())[-2], byh
    f["ba_5xx_hour"], f["ba_5xx_hour_n"] = h, c
    refused = lambda r: r["msg"] == "fares quote failed" and "connection refused" in r["err"]  # noqa: E731
    f["ba_refused_first"], f["ba_refused_last"] = first(ba, refused), last(ba, refused)
    slow = lambda r: r["msg"] == "fares quote slow"  # noqa: E731
    f["ba_slow_first"], f["ba_slow_last"] = first(ba, slow), last(ba, slow)
    f["ba_payfail_last"] = last(ba, lambda r: r["msg"] == "payment failed")
    kiosk = lambda r: r["msg"] == "request served" and r["remote"].startswith("10.8.0.")  # noqa: E731
    f["ba_kiosk_back"] = first(ba, lambda r: kiosk(r) and r["t"] > W.VPN_TERM)

    # --- Tomcat (fares-engine)
    tt = texts[TC]
    tc = T.parse_tomcat(tt)
    qd = [r["D"] for r in tc if r["path"] == "/fares-engine/api/quote"]
    p99 = same_by_any_definition(qd, 99)
    f["tc_quote_p99"] = sorted({str(p99), f"{p99 / 1000:.2f}", f"{p99 / 1000:.3f}", f"{p99 / 1000:.1f}"})
    ds = sorted((r["D"] for r in tc), reverse=True)
    assert ds[1] < 0.3 * ds[0]
    f["tc_max_D_s"] = sorted({f"{ds[0] / 1000:.1f}", f"{ds[0] / 1000:.2f}", f"{ds[0] / 1000:.3f}", str(ds[0]), f"{ds[0]:,}"})
    clients = T.group(tc, lambda r: r["client"])
    top = T.ranked(clients, 4)
    assert top[0][1] > 1.2 * top[1][1] and top[1][1] > 1.2 * top[2][1] and top[2][1] > 1.2 * top[3][1], top
    f["tc_top3_clients"] = [c for c, _ in top[:3]]
    assert f["tc_top3_clients"][0] == W.AGG
    tb = sum(r["bytes"] for r in tc if r["client"] == W.AGG)
    f["tc_agg_bytes"] = sorted({str(tb), f"{tb:,}", f"{tb / 1e6:.1f}", f"{tb / 2**20:.1f}"})
    f["tc_distinct_ips"] = len(clients)
    tsum = sum(r["bytes"] for r in tc if r["path"] == "/fares-engine/api/timetable")
    f["tc_timetable_mb"] = sorted({f"{tsum / 1e6:.1f}", f"{tsum / 2**20:.1f}", f"{tsum / 1e6:.2f}", f"{tsum / 2**20:.2f}",
                                   str(tsum), f"{tsum:,}"})
    f["tc_peak_minute"] = hm(peak(tc, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.1))
    f["tc_404"] = T.count(tc, lambda r: r["status"] == 404)
    t4 = T.ranked(T.group(tc, lambda r: r["path"], lambda r: r["status"] == 404), 4)
    assert t4[0][1] > 1.2 * t4[1][1] and t4[1][1] > 1.2 * t4[2][1] and t4[2][1] > 1.2 * t4[3][1], t4
    f["tc_top3_404"] = [p for p, _ in t4[:3]]
    f["tc_404_second"] = t4[1][1]
    f["tc_agg_window"] = clock_window(tc, lambda r: r["client"] == W.AGG, "03:10", "03:40")
    assert f["tc_agg_window"] == clients[W.AGG]
    f["tc_last_before"] = last(tc, lambda r: r["t"] < W.FARES_DOWN)
    f["tc_first_after"] = first(tc, lambda r: r["t"] > W.FARES_DOWN)
    f["tc_agg_first"] = first(tc, lambda r: r["client"] == W.AGG)
    f["tc_first_403"] = first(tc, lambda r: r["status"] == 403)

    # --- payments-gw (Serilog CLEF)
    pt = texts[PG]
    pg = T.parse_clef(pt)
    auth = [r for r in pg if r["mt"].startswith("Charge {ChargeId} for {BookingRef} authorized")]
    p90 = same_by_any_definition([r["Elapsed"] for r in auth], 90)
    assert p90 == P["auth_p90"]
    f["pg_auth_p90"] = sorted({str(p90), f"{p90 / 1000:.3f}"})
    am, ac = {}, {}
    for r in auth:
        am[r["Acquirer"]] = am.get(r["Acquirer"], 0) + r["Elapsed"]
        ac[r["Acquirer"]] = ac.get(r["Acquirer"], 0) + 1
    means = sorted(((am[k] / ac[k], k) for k in am), reverse=True)
    assert means[0][1] == "Quayside Pay" and means[1][0] < 0.5 * means[0][0], means
    f["pg_slowest_acq"] = ["Quayside"]
    acq = T.ranked(T.group(auth, lambda r: r["Acquirer"]), 2)
    assert acq[0][1] > 1.2 * acq[1][1]
    f["pg_top_acq"], f["pg_top_acq_n"] = acq[0]
    void = lambda r: r["mt"].startswith("Voiding authorization")  # noqa: E731
    f["pg_voids"] = T.count(pg, void)
    assert f["pg_voids"] == pt.count("Voiding authorization")
    f["pg_void_first"], f["pg_void_last"] = first(pg, void), last(pg, void)
    to = lambda r: "did not respond within" in r["mt"]  # noqa: E731
    f["pg_timeout_first"] = first(pg, to)
    [f["pg_opened"]] = [r["t"] for r in pg if r["mt"].startswith("Circuit breaker for {Acquirer} opened")]
    [f["pg_closed"]] = [r["t"] for r in pg if r["mt"].startswith("Circuit breaker for {Acquirer} closed")]
    # every void is a booking-api `create booking failed` of some pod; this pod's are all there
    refs = {r["BookingRef"] for r in pg if void(r)}
    assert {r["booking_ref"] for r in ba if cbf(r)} <= refs

    # --- ProxySQL
    xt = texts[PX]
    px = T.parse_proxysql(xt)
    den = lambda r: "Access denied for user" in r["msg"]  # noqa: E731
    f["px_denied"] = T.count(px, den)
    assert f["px_denied"] == xt.count("Access denied")
    users = {re.search(r"user '(\w+)'@'([\d.]+)'", r["msg"]).groups() for r in px if den(r)}
    [(f["px_denied_user"], f["px_denied_host"])] = users
    loads = [r["t"] for r in px if r["msg"] == "Received LOAD MYSQL SERVERS TO RUNTIME command"]
    assert len(loads) == 3
    f["px_bad_load"], f["px_fix_load"] = loads[1], loads[2]
    bad_hid = [r for r in px if r["msg"].startswith("HID: 10 ") and "OFFLINE_SOFT" in r["msg"]]
    assert len(bad_hid) == 1 and bad_hid[0]["t"] == f["px_bad_load"]
    mc = lambda r: r["msg"].startswith("Max connect timeout reached while reaching hostgroup 10")  # noqa: E731
    f["px_maxconn_first"] = first(px, mc)
    f["px_maxconn_window"] = clock_window(px, mc, "02:10", "02:30")
    assert f["px_maxconn_window"] == T.count(px, mc) == xt.count("Max connect timeout")
    assert f["px_maxconn_window"] > f["ba_create_failed"]

    # --- ticket-mailer (winston)
    mt = T.parse_winston(texts[TM])
    sent = [r for r in mt if r["message"] == "ticket sent"]
    d = [r["durationMs"] for r in sent]
    assert sum(d) == W.MEAN_TICKET_MS * len(d)
    f["tm_mean"] = W.MEAN_TICKET_MS
    f["tm_mean_s"] = [f"{W.MEAN_TICKET_MS / 1000:.3f}", f"{W.MEAN_TICKET_MS / 1000:.2f}"]
    dom = lambda r: r["to"].split("@")[1]  # noqa: E731
    sd = T.ranked(T.group(sent, dom), 4)
    assert sd[0][1] > 1.2 * sd[1][1] and sd[1][1] > 1.2 * sd[2][1] and sd[2][1] > 1.2 * sd[3][1], sd
    f["tm_top3_domains"] = [x for x, _ in sd[:3]]
    f["tm_sent_hour"] = peak(sent, lambda r: True, lambda r: r["t"].hour, margin=1.15)
    warn = lambda r: r["message"].startswith("no booking.confirmed events")  # noqa: E731
    f["tm_warn_first"] = first(mt, lambda r: warn(r) and r["t"] > W.BAD_LOAD)
    f["tm_sent_after_fix"] = first(sent, lambda r: r["t"] > f["px_fix_load"])
    assert set(r["bookingRef"] for r in sent) & refs == set()

    # --- OpenVPN
    ot = texts[OV]
    ov = T.parse_openvpn(ot)
    hf = [r for r in ov if r["msg"] == "TLS Error: TLS handshake failed"]
    f["ov_handshake_failed"] = len(hf)
    assert len(hf) == ot.count("TLS handshake failed")
    ip_cn = {}
    for r in ov:
        m = re.search(r"CN=([\w-]+)", r["msg"])
        if m and "Kiosk CA" not in r["msg"] and r["ip"]:
            ip_cn[r["ip"]] = m.group(1)
    fails = T.ranked(T.group(hf, lambda r: r["cn"] or ip_cn[r["ip"]]), 2)
    assert fails[0][0] == W.EXPIRED_CN and fails[0][1] > 5 * fails[1][1], fails
    f["ov_worst_cn"] = fails[0][0]
    exp = lambda r: "certificate has expired" in r["msg"]  # noqa: E731
    f["ov_expired_first"], f["ov_expired_last"] = first(ov, exp), last(ov, exp)
    exp_ip = ip_cn and [k for k, v in ip_cn.items() if v == W.EXPIRED_CN]
    assert last(hf, lambda r: r["ip"] in exp_ip) == f["ov_expired_last"]
    f["ov_distinct_cn"] = len({re.search(r"\[([\w-]+)\] Peer Connection Initiated", r["msg"]).group(1)
                               for r in ov if "Peer Connection Initiated" in r["msg"]})
    [f["ov_term"]] = [r["t"] for r in ov if r["msg"].startswith("SIGTERM[hard,] received")]
    f["ov_ready"] = last(ov, lambda r: r["msg"] == "Initialization Sequence Completed")
    f["ov_peer_back"] = first(ov, lambda r: "Peer Connection Initiated" in r["msg"] and r["t"] > f["ov_ready"])

    # --- the night reads one way only (each timeline's events in distinct seconds)
    f["tl_fares"] = ordered(f["tc_last_before"], f["ba_refused_first"], f["ba_refused_last"], f["tc_first_after"])
    f["tl_load"] = ordered(f["px_bad_load"], f["px_maxconn_first"], f["ba_cbf_first"])
    f["tl_fix"] = ordered(f["px_fix_load"], f["tm_sent_after_fix"], f["ba_cbf_last"])
    f["tl_mail"] = ordered(f["pg_void_first"], f["tm_warn_first"], f["tm_sent_after_fix"], f["pg_void_last"])
    f["tl_agg"] = ordered(f["tc_agg_first"], f["ba_slow_first"], f["tc_first_403"], f["ba_slow_last"])
    f["tl_vpn"] = ordered(f["ov_term"], f["ov_ready"], f["ov_peer_back"], f["ba_kiosk_back"])
    f["tl_np"] = ordered(f["pg_timeout_first"], f["pg_opened"], f["ba_payfail_last"], f["pg_closed"])
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
