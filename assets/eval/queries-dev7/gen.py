#!/usr/bin/env python3
"""Generates the `queries-dev7` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev7.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev7.jsonl
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

SEED = 20320217
HERE = Path(__file__).resolve().parent
SET = "queries-dev7"
MAX_BYTES = 6_000_000

FIXTURES = [
    ("rx-api-access.log", W.gunicorn_access_log), ("rx-api-error.log", W.gunicorn_error_log),
    ("storefront-bff.log", W.storefront_bff_log), ("keycloak.log", W.keycloak_log), ("vault.log", W.vault_log),
    ("carouseld.log", W.carousel_log),
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


def peak(rows, pred, key):
    [(m, c)] = T.ranked(T.group(rows, key, pred))
    return m


def first(rows, pred):
    return min(r["t"] for r in rows if pred(r))


def last(rows, pred):
    return max(r["t"] for r in rows if pred(r))


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    # --- rx-api-access.log (gunicorn access, %(L)s in seconds)
    at = texts["rx-api-access.log"]
    ac = T.parse_gunicorn_access(at)
    st = lambda k: (lambda r: r["status"] == k)  # noqa: E731
    f["acc_500"] = T.count(ac, st(500))
    assert f["acc_500"] == at.count(" 500 ") == len(re.findall(r'" 500 \d+ "', at))
    f["acc_500_post"] = T.count(ac, lambda r: r["status"] == 500 and r["method"] == "POST")
    x5 = lambda r: r["status"] >= 500  # noqa: E731
    f["acc_5xx"] = T.count(ac, x5)
    assert f["acc_5xx"] == len(re.findall(r'" 5\d\d \d+ "', at)) == at.count(" 500 ") + at.count(" 503 ")
    f["acc_4xx"] = T.count(ac, lambda r: 400 <= r["status"] < 500)
    assert f["acc_4xx"] == len(re.findall(r'" 4\d\d \d+ "', at)) == sum(at.count(f" {s} ") for s in (401, 404, 409, 422))
    assert not any(400 <= r["size"] < 600 for r in ac), "a size that reads like a status"
    f["acc_5xx_window"] = clock_window(ac, x5, "01:20", "01:40")
    f["acc_500_peak"] = hm(peak(ac, st(500), lambda r: T.minutes(r["t"])))
    assert f["acc_500_peak"] == "1:31"
    f["acc_refill_rx"] = len({r["path"].split("/")[3] for r in ac if r["method"] == "POST" and r["path"].endswith("/refill")})
    top_ips = T.ranked(T.group(ac, lambda r: r["ip"]), 3)
    f["acc_top_ips"] = [ip for ip, _ in top_ips]
    assert f["acc_top_ips"] == [ip for ip, _ in W.BFF_IPS]
    probes = T.count(ac, lambda r: r["ip"] == "10.42.0.1")
    assert probes == 1080 < top_ips[2][1]
    busiest = f["acc_top_ips"][0]
    [(f["acc_top_ip_path"], _)] = T.ranked(T.group(ac, lambda r: r["path"], lambda r: r["ip"] == busiest))
    [(by_target, _)] = T.ranked(T.group(ac, lambda r: r["target"], lambda r: r["ip"] == busiest))
    [(by_route, _)] = T.ranked(T.group(ac, lambda r: (r["method"], re.sub(r"(RX|ORD)-\d+", "{id}", r["path"])),
                                       lambda r: r["ip"] == busiest))
    assert f["acc_top_ip_path"] == by_target == by_route[1] == "/v1/formulary/search"
    search_all = [r["secs"] for r in ac if r["path"] == "/v1/formulary/search"]
    search_ok = [r["secs"] for r in ac if r["path"] == "/v1/formulary/search" and r["status"] == 200]
    assert same_by_any_definition(search_all, 95) == same_by_any_definition(search_ok, 95) == W.ACC_SEARCH_PLATEAU
    f["acc_search_p95"] = ["612"]
    refill = sorted((r["secs"] for r in ac if r["method"] == "POST" and r["path"].endswith("/refill")), reverse=True)
    assert refill[0] == W.ACC_REFILL_MAX and refill[1] < 1.5
    f["acc_refill_max"] = ["3874", "3,874"]

    # --- rx-api-error.log (gunicorn error log; a traceback belongs to the line above)
    et = texts["rx-api-error.log"]
    er = T.parse_gunicorn_error(et)
    pw = lambda r: bool(r["tb"]) and "password authentication failed" in r["tb"][-1]  # noqa: E731
    f["err_pw"] = T.count(er, pw)
    assert f["err_pw"] == et.count("password authentication failed") == f["acc_500"] - len(W.ACC_OTHER_500)
    f["err_first_pw"] = hms(first(er, pw))
    assert f["err_first_pw"] == hms(first(ac, lambda r: r["status"] == 500 and r["t"] > W.T(1, 0)))  # the same request
    wt = lambda r: r["msg"].startswith("WORKER TIMEOUT")  # noqa: E731
    f["err_wt"] = T.count(er, wt)
    assert f["err_wt"] == len(W.plan()["wt"]) == et.count("WORKER TIMEOUT")
    f["err_wt_first"] = hms(first(er, wt))
    f["err_wt_last"] = hms(last(er, wt))
    f["err_wt_peak"] = hm(peak(er, wt, lambda r: T.minutes(r["t"])))
    assert peak(er, wt, lambda r: r["t"].hour) == 2
    f["err_error"] = T.count(er, lambda r: r["level"] == "ERROR")
    assert f["err_error"] == et.count("] [ERROR] ") == f["acc_500"] + f["err_wt"]
    assert T.count(er, lambda r: r["msg"].startswith("Booting worker")) == f["err_wt"] + len(W.ERR_AUTORESTART)
    assert (f["err_first_pw"], f["err_wt_first"], f["err_wt_last"], f["err_wt_peak"]) == ("1:24:11", "2:14:22", "2:30:17", "2:19")

    # --- storefront-bff.log (pino; epoch ms)
    bt = texts["storefront-bff.log"]
    bf = T.parse_pino(bt)
    reqs = [r for r in bf if r["msg"] == "request completed"]
    f["bff_504"] = T.count(reqs, lambda r: r["status"] == 504)
    assert f["bff_504"] == bt.count('"statusCode":504') == len(W.plan()["wt"]) + len(W.BFF_SEARCH_504)
    l50 = lambda r: r["level"] == 50  # noqa: E731
    f["bff_l50"] = T.count(bf, l50)
    assert f["bff_l50"] == bt.count('"level":50')
    f["bff_l50_window"] = clock_window(bf, l50, "02:10", "02:35")
    assert f["bff_l50_window"] == 2 * len(W.plan()["wt"])
    f["bff_customers"] = len({r["customerId"] for r in bf if "customerId" in r})
    pods = T.ranked(T.group(bf, lambda r: r["hostname"], l50), 3)
    f["bff_pods_l50"] = [p for p, _ in pods]
    f["bff_top_pod"] = pods[0][0]
    f["bff_second_pod_n"] = pods[1][1]
    co = [r["responseTime"] for r in reqs if r["method"] == "POST" and r["path"] == "/api/cart/checkout"]
    assert sum(co) == W.BFF_CHECKOUT_MEAN * len(co)
    f["bff_checkout_mean"] = ["0.734", "734"]
    near = [r["responseTime"] for r in reqs if r["path"] == "/api/pharmacies/near"]
    assert sum(near) == W.BFF_NEAR_MEAN * len(near)
    near.sort(reverse=True)
    assert near[0] == W.BFF_NEAR_MAX and near[1] < 1500
    f["bff_near_max"] = ["4187", "4,187", "4.187"]
    s502 = lambda r: r.get("status") == 502  # noqa: E731
    f["bff_502_minute"] = hm(peak(reqs, s502, lambda r: T.minutes(r["t"])))
    assert f["bff_502_minute"] == "1:31"
    f["bff_502_hour"] = peak(reqs, s502, lambda r: r["t"].hour)
    f["bff_4xx_hour"] = peak(reqs, lambda r: 400 <= r["status"] < 500, lambda r: r["t"].hour)
    assert (f["bff_502_hour"], f["bff_4xx_hour"]) == (1, 3)
    upf = lambda r: r["msg"] == "upstream call failed"  # noqa: E731
    fails = sorted(r["t"] for r in bf if upf(r))
    t0 = fails[0]
    assert (fails[1] - t0).total_seconds() > 60  # the first one stands alone
    f["bff_first_fail"] = hms(t0)
    [f["bff_first_fail_host"]] = [r["hostname"] for r in bf if upf(r) and r["t"] == t0]
    f["bff_first_504"] = hms(first(reqs, lambda r: r["status"] == 504 and r["t"].hour == 2))

    # --- keycloak.log (a stack trace belongs to the line above)
    kt = texts["keycloak.log"]
    kc = T.parse_keycloak(kt)
    unc = lambda r: r["msg"].startswith("Uncaught server error")  # noqa: E731
    f["kc_uncaught"] = T.count(kc, unc)
    assert f["kc_uncaught"] == W.KC_UNCAUGHT == kt.count("Uncaught server error") == T.count(kc, lambda r: r["level"] == "ERROR")
    assert all(len(r["trace"]) > 30 for r in kc if unc(r)) and kt.count(" ERROR [") == f["kc_uncaught"]
    le = lambda r: r.get("type") == "LOGIN_ERROR"  # noqa: E731
    f["kc_login_err"] = T.count(kc, le)
    assert f["kc_login_err"] == kt.count('type="LOGIN_ERROR"') == W.KC_STUFF_N + sum(k for _, k in W.KC_BRUTE) + W.KC_NORMAL_ERR
    f["kc_window"] = clock_window(kc, le, "00:50", "01:00")
    f["kc_ips"] = len({r["ipAddress"] for r in kc if le(r)})
    [(f["kc_top_ip"], _)] = T.ranked(T.group(kc, lambda r: r["ipAddress"], le))
    assert f["kc_top_ip"] == W.KC_STUFF_IP
    f["kc_top_ip_users"] = len({r["username"] for r in kc if le(r) and r["ipAddress"] == f["kc_top_ip"]})
    assert f["kc_top_ip_users"] == W.KC_STUFF_USERS
    users = T.ranked(T.group(kc, lambda r: r["username"], le), 10)
    assert [u for u, _ in users] == [u for u, _ in W.KC_BRUTE]
    f["kc_top5"] = [u for u, _ in users[:5]]
    f["kc_next5"] = [u for u, _ in users[5:]]

    # --- vault.log (hclog)
    vt = texts["vault.log"]
    va = T.parse_hclog(vt)
    nospace = lambda r: "no space left on device" in r.get("error", "")  # noqa: E731
    f["va_nospace"] = T.count(va, nospace)
    assert f["va_nospace"] == W.VA_NOSPACE == vt.count("no space left on device")
    f["va_first_nospace"] = hms(first(va, nospace))
    f["va_err_window"] = clock_window(va, lambda r: r["level"] == "ERROR", "01:15", "01:45")
    assert f["va_err_window"] == 2 * f["va_nospace"] and vt.count("[ERROR]") == f["va_err_window"] + len(W.VA_REVOKE_FAIL)
    rev = lambda r: r["msg"] == "revoked lease"  # noqa: E731
    role = lambda r: r["lease_id"].split("/")[2]  # noqa: E731
    roles = T.ranked(T.group(va, role, rev), 4)
    assert roles == W.VA_ROLES
    f["va_top_role"] = roles[0][0]
    # the failed revocations do not change the order either
    assert T.ranked(T.group(va, role, lambda r: "lease_id" in r), 3) == [(a, b + (3 if a == "carousel-sync" else 0)) for a, b in W.VA_ROLES][:3]
    f["va_top3"] = [r_ for r_, _ in roles[:3]]
    f["va_third_last"] = hms(last(va, lambda r: rev(r) and role(r) == roles[2][0]))
    rxrev = [r["t"] for r in va if rev(r) and role(r) == "rx-api" and W.T(1, 15) <= r["t"] < W.T(1, 35)]
    assert len(rxrev) == 1 and not any(rev(r) and W.T(1, 20) <= r["t"] < W.T(1, 29) and r["t"] != rxrev[0] for r in va)
    f["va_rx_revoke"] = hms(rxrev[0])
    [fix] = [r["t"] for r in va if r["msg"] == "enabled audit backend"]
    f["va_fix"] = hms(fix)
    assert (f["va_first_nospace"], f["va_rx_revoke"], f["va_fix"], f["va_third_last"]) == ("1:21:40", "1:24:08", "1:37:52", "3:17:44")

    # --- carouseld.log
    ct = texts["carouseld.log"]
    cr = T.parse_carousel(ct)
    w = lambda r: r["level"] == "W"  # noqa: E731
    f["cr_w"] = T.count(cr, w)
    assert f["cr_w"] == ct.count(" [W] ")
    f["cr_w_hour"] = peak(cr, w, lambda r: r["t"].hour)
    assert f["cr_w_hour"] == 2
    retry = lambda r: r["msg"].startswith("pick retry")  # noqa: E731
    slots = T.ranked(T.group(cr, lambda r: r["slot"], retry), 6)
    assert slots == W.CR_RETRY_TOP
    f["cr_top_slot"] = slots[0][0]
    f["cr_top3"] = [s for s, _ in slots[:3]]
    f["cr_next3"] = [s for s, _ in slots[3:6]]
    pick = lambda arm: (lambda r: r["msg"].startswith("pick done") and (arm is None or r["unit"] == arm))  # noqa: E731
    ms = lambda arm: [int(r["ms"]) for r in cr if pick(arm)(r)]  # noqa: E731
    a1, a2, al = ms("arm1"), ms("arm2"), sorted(ms(None), reverse=True)
    assert same_by_any_definition(a1, 95) == W.CR_ARM1_P95
    assert sum(a1) == W.CR_ARM1_MEAN * len(a1) and sum(a2) == W.CR_ARM2_MEAN * len(a2)
    f["cr_arm1_mean"] = ["2593", "2,593", "2.593"]
    f["cr_arm2_mean"] = ["2.468", "2468", "2,468"]
    assert al[0] == W.CR_MAX and al[1] < 9000
    f["cr_max"] = ["14.872", "14.87", "14.9", "14872", "14,872"]
    assert T.count(cr, lambda r: r["msg"].startswith("arm2 unavailable")) == f["err_wt"]  # each stuck order, queued
    estop = lambda r: r["msg"].startswith("E-STOP engaged")  # noqa: E731
    assert T.count(cr, estop) == 3 == ct.count("E-STOP") == T.count(cr, lambda r: r["level"] == "F")
    f["cr_last_estop"] = hms(last(cr, estop))
    f["cr_estop_arm2"] = hms([r["t"] for r in cr if estop(r) and r["unit"] == "arm2"][0])
    f["cr_reset_arm2"] = hms([r["t"] for r in cr if r["msg"].startswith("safety circuit reset") and r["unit"] == "arm2"][0])
    assert (f["cr_estop_arm2"], f["cr_reset_arm2"], f["cr_last_estop"]) == ("2:13:50", "2:30:41", "3:21:07")

    # the timelines must read one way only
    assert f["va_first_nospace"] < f["va_rx_revoke"] < f["err_first_pw"] < f["va_fix"]
    assert f["cr_estop_arm2"] < f["bff_first_504"] < f["err_wt_first"] and f["err_wt_last"] < f["cr_reset_arm2"]
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

    rows = cases(f, n)
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
