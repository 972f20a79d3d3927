#!/usr/bin/env python3
"""Generates the `queries-heldout7` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout7.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout7.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import random
import re
import sys
from datetime import timedelta
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20311008
HERE = Path(__file__).resolve().parent
SET = "queries-heldout7"
MAX_BYTES = 5_000_000

FIXTURES = [
    ("traefik-access.json", W.traefik_log), ("caddy-edge.json", W.caddy_log), ("mysql-rides-error.log", W.mysql_log),
    ("rabbitmq-mq2.log", W.rabbit_log), ("kubelet-bk-node-4.log", W.kubelet_log), ("admin-httpd-error.log", W.apache_log),
    ("rides-api.log", W.rides_log),
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


def at_min(t):
    return t.hour * 60 + t.minute


def minute_of(t):
    return t.hour * 60 + t.minute


def clock_window(rows, pred, a, b, key="t", slack=5):
    """The rows matching `pred` with `key` in [a, b) ("HH:MM"), asserting none lies within
    `slack` minutes outside either edge (so "between a and b" cannot be read two ways)."""
    lo = int(a[:2]) * 60 + int(a[3:])
    hi = int(b[:2]) * 60 + int(b[3:])
    assert T.count(rows, lambda r: pred(r) and (lo - slack <= minute_of(r[key]) < lo or hi <= minute_of(r[key]) < hi + slack)) == 0
    return T.count(rows, lambda r: pred(r) and lo <= minute_of(r[key]) < hi)


def last_window(rows, pred, end, minutes, slack):
    """Matching rows in the last `minutes` minutes before `end`, none within `slack` minutes of the edge."""
    lo, hi = (minutes - slack) * 60, (minutes + slack) * 60
    assert T.count(rows, lambda r: pred(r) and lo <= (end - r["t"]).total_seconds() <= hi) == 0
    return T.count(rows, lambda r: pred(r) and (end - r["t"]).total_seconds() <= minutes * 60)


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
    # --- traefik-access.json
    tt = texts["traefik-access.json"]
    tr = T.parse_traefik(tt)
    assert len(tr) == 6000
    s504 = lambda r: r["DownstreamStatus"] == 504  # noqa: E731
    s503 = lambda r: r["DownstreamStatus"] == 503  # noqa: E731
    f["tr_504"] = T.count(tr, s504)
    assert f["tr_504"] == 217 == tt.count('"DownstreamStatus":504')
    f["tr_503"] = T.count(tr, s503)
    assert f["tr_503"] == 73 == tt.count('"DownstreamStatus":503')
    f["tr_504_window"] = clock_window(tr, s504, "03:00", "03:30")
    assert f["tr_504_window"] == 195
    r504 = T.ranked(T.group(tr, lambda r: r["RouterName"], s504), 2)
    assert r504 == [("rides@kubernetes", 131), ("docks@kubernetes", 64)], r504
    f["tr_504_router"], f["tr_504_router_n"] = r504[0]
    f["tr_504_peak"] = peak(tr, s504, lambda r: hm(r["t"]))
    assert f["tr_504_peak"] == "3:14"
    f["tr_first_504"] = hms(first(tr, s504))
    assert f["tr_first_504"] == "3:12:31"
    f["tr_last_504_rides"] = hms(max(r["t"] for r in tr if s504(r) and r["t"].hour == 3))
    assert f["tr_last_504_rides"] == "3:25:50"
    f["tr_first_503"] = hms(first(tr, s503))
    assert f["tr_first_503"] == "2:31:14"
    assert all(r["RouterName"] == "fleet-admin@kubernetes" for r in tr if s503(r))
    f["tr_clients"] = len({r["ClientHost"] for r in tr})
    top_routers = T.ranked(T.group(tr, lambda r: r["RouterName"]), 3)
    f["tr_top_routers"] = [x for x, _ in top_routers]
    assert f["tr_top_routers"] == ["rides@kubernetes", "docks@kubernetes", "payments@kubernetes"]
    st = [r["Duration"] for r in tr if r["RouterName"] == "stations@kubernetes"]
    assert len(st) == 400 and same_by_any_definition(st, 95) == 61_250_000 and max(st) == 61_250_000
    f["tr_stations_p95"] = ["61.25"]

    # --- caddy-edge.json
    ct = texts["caddy-edge.json"]
    cd = T.parse_caddy(ct)
    assert len(cd) == 3500
    c503 = lambda r: r["status"] == 503  # noqa: E731
    f["cd_503"] = T.count(cd, c503)
    assert f["cd_503"] == 96 == ct.count('"status":503')
    assert all(r["stem"] == "/v2/unlock" and r["request"]["method"] == "POST" for r in cd if c503(r))
    f["cd_first_503"] = hms(first(cd, c503))
    assert f["cd_first_503"] == "4:05:52"
    f["cd_last_503"] = hms(last(cd, c503))
    assert f["cd_last_503"] == "4:18:47"
    f["cd_errors"] = T.count(cd, lambda r: r["level"] == "error")
    assert f["cd_errors"] == ct.count('"level":"error"') == T.count(cd, lambda r: r["status"] >= 400)
    f["cd_clients"] = len({r["request"]["remote_ip"] for r in cd})
    uris = T.ranked(T.group(cd, lambda r: r["stem"]), 6)
    assert [k for _, k in uris] == [790, 610, 540, 470, 380, 250]
    f["cd_top3"] = [u for u, _ in uris[:3]]
    f["cd_next3"] = [u for u, _ in uris[3:]]
    near = [r["duration"] for r in cd if r["stem"] == "/v2/stations/nearby"]
    assert len(near) == 250 and round(sum(near) * 1e6) == 250 * 43600
    f["cd_near_mean"] = ["43.6"]
    ds = sorted((r["duration"] for r in cd), reverse=True)
    assert ds[0] == 9.876512 and ds[1] < 5.01

    # --- mysql-rides-error.log
    mt = texts["mysql-rides-error.log"]
    my = T.parse_mysql(mt)
    ab = lambda r: r["code"] == "MY-010914" and r["msg"].startswith("Aborted connection")  # noqa: E731
    f["my_aborted"] = T.count(my, ab)
    assert f["my_aborted"] == 247 == mt.count("Aborted connection")
    user = lambda r: re.search(r" user: '([^']+)'", r["msg"]).group(1)  # noqa: E731
    f["my_least_user"], _ = T.least(T.group(my, user, ab))
    assert f["my_least_user"] == "reporting"
    f["my_aborted_hour"] = peak(my, ab, lambda r: r["t"].hour)
    assert f["my_aborted_hour"] == 3
    unres = lambda r: r["code"] == "MY-010055"  # noqa: E731
    [(f["my_unres_ip"], _)] = T.ranked(T.group(my, lambda r: re.search(r"IP address '([^']+)'", r["msg"]).group(1), unres))
    assert f["my_unres_ip"] == "10.42.17.203"
    f["my_unres_first"] = hms(first(my, lambda r: unres(r) and f["my_unres_ip"] in r["msg"]))
    assert f["my_unres_first"] == "2:07:44"
    full = lambda r: r["code"] == "MY-000035"  # noqa: E731
    assert T.count(my, full) == 13 == mt.count("Disk is full")
    f["my_first_full"] = hms(first(my, full))
    f["my_last_full"] = hms(last(my, full))
    assert (f["my_first_full"], f["my_last_full"]) == ("3:12:07", "3:24:07")

    # --- rabbitmq-mq2.log
    bt = texts["rabbitmq-mq2.log"]
    rb = T.parse_rabbit(bt)
    acc = lambda r: r["msg"].startswith("accepting AMQP connection")  # noqa: E731
    f["rb_accept"] = T.count(rb, acc)
    assert f["rb_accept"] == 318 == bt.count("accepting AMQP connection")
    f["rb_ips"] = len({re.search(r"\(([\d.]+):\d+ ->", r["msg"]).group(1) for r in rb if acc(r)})
    auth = lambda r: "authenticated and granted access" in r["msg"]  # noqa: E731
    users = T.group(rb, lambda r: re.search(r"user '([^']+)'", r["msg"]).group(1), auth)
    [(f["rb_top_user"], _)] = T.ranked(users)
    f["rb_least_user"], _ = T.least(users)
    assert (f["rb_top_user"], f["rb_least_user"]) == ("rides", "payments")
    f["rb_alarm_set"] = hms(first(rb, lambda r: r["msg"].startswith("memory resource limit alarm set")))
    f["rb_alarm_clear"] = hms(first(rb, lambda r: r["msg"].startswith("memory resource limit alarm cleared")))
    assert (f["rb_alarm_set"], f["rb_alarm_clear"]) == ("4:05:37", "4:19:02")

    # --- kubelet-bk-node-4.log
    kt = texts["kubelet-bk-node-4.log"]
    kl = T.parse_klog(kt)
    f["kl_E"] = T.count(kl, lambda r: r["sev"] == "E")
    assert f["kl_E"] == 94 == len(re.findall(r"^E", kt, re.M))
    f["kl_W"] = T.count(kl, lambda r: r["sev"] == "W")
    assert f["kl_W"] == 143
    pf = lambda r: r["msg"].startswith('"Probe failed"')  # noqa: E731
    f["kl_probe_failed"] = T.count(kl, pf)
    [(f["kl_top_pod"], _)] = T.ranked(T.group(kl, lambda r: r["pod"], pf))
    assert f["kl_top_pod"] == "rides/rides-api-7d9f8c6b5-x2k4q"
    live = lambda r: pf(r) and 'probeType="Liveness"' in r["msg"]  # noqa: E731
    f["kl_first_live"] = hms(first(kl, live))
    assert f["kl_first_live"] == "3:12:58"
    f["kl_kill"] = hms(first(kl, lambda r: "Killing container" in r["msg"]))
    assert f["kl_kill"] == "3:13:28"
    f["kl_evict"] = hms(first(kl, lambda r: "evicted successfully" in r["msg"]))
    f["kl_reclaim"] = hms(first(kl, lambda r: "attempting to reclaim" in r["msg"]))
    assert (f["kl_reclaim"], f["kl_evict"]) == ("2:31:05", "2:31:07")

    # --- admin-httpd-error.log
    at_ = texts["admin-httpd-error.log"]
    ap = T.parse_apache(at_)
    f["ap_01114"] = T.count(ap, lambda r: r["code"] == "AH01114")
    assert f["ap_01114"] == 138 == at_.count("AH01114")
    f["ap_first_00957"] = hms(first(ap, lambda r: r["code"] == "AH00957"))
    assert f["ap_first_00957"] == "2:31:09"
    f["ap_last_00957"] = hms(last(ap, lambda r: r["code"] == "AH00957"))
    den = T.ranked(T.group(ap, lambda r: r["client"], lambda r: r["code"] == "AH01630"))
    assert den == [("185.220.101.47", 73)], den
    f["ap_top_denied"], f["ap_top_denied_n"] = den[0]

    # --- rides-api.log
    rt = texts["rides-api.log"]
    ra = T.parse_tracing(rt)
    err = lambda r: r["level"] == "ERROR"  # noqa: E731
    f["ra_errors"] = T.count(ra, err)
    assert f["ra_errors"] == 214 == len(re.findall(r"Z ERROR ", rt))
    f["ra_err_peak"] = peak(ra, err, lambda r: hm(r["t"]))
    assert f["ra_err_peak"] == "3:15"
    end = max(r["t"] for r in ra)
    assert ra[-1]["t"] == end and hms(end) == "4:59:58"
    warn = lambda r: r["level"] == "WARN"  # noqa: E731
    f["ra_warn_last60"] = last_window(ra, warn, end, 60, 4)
    top500 = T.ranked(T.group(ra, lambda r: r["kv"]["path"], lambda r: r["kv"].get("status") == "500"), 3)
    assert top500 == [("/v1/rides/start", 91), ("/v1/docks/state", 68), ("/v1/rides/quote", 43)], top500
    f["ra_top500"] = [p for p, _ in top500]
    ends = [int(r["kv"]["latency_ms"]) for r in ra if r["kv"].get("path") == "/v1/rides/end"]
    assert len(ends) == 240 and sum(ends) * 2 == 375 * 240
    f["ra_end_mean"] = ["0.1875", "187.5"]
    lat = sorted(((int(r["kv"]["latency_ms"]), r) for r in ra if "latency_ms" in r["kv"]), key=lambda x: -x[0])
    assert lat[0][0] == 12408 and lat[1][0] < 6000
    f["ra_slowest_path"] = lat[0][1]["kv"]["path"]
    f["ra_slowest_at"] = hms(lat[0][1]["t"])
    assert (f["ra_slowest_path"], f["ra_slowest_at"]) == ("/v1/passes/renew", "3:47:12")
    pool = lambda r: r["msg"].startswith("pool timed out")  # noqa: E731
    f["ra_first_pool"] = hms(first(ra, pool))
    assert f["ra_first_pool"] == "3:12:19"
    f["ra_listening"] = hms(first(ra, lambda r: r["msg"].startswith("listening on")))
    assert f["ra_listening"] == "3:13:40"
    f["ra_recovered"] = hms(first(ra, lambda r: r["msg"].startswith("pool recovered")))
    assert f["ra_recovered"] == "3:25:44"
    blocked = lambda r: r["msg"].startswith("publish blocked")  # noqa: E731
    f["ra_first_blocked"] = hms(first(ra, blocked))
    assert f["ra_first_blocked"] == "4:05:41"
    f["ra_unblocked"] = hms(first(ra, lambda r: r["msg"].startswith("publish unblocked")))
    assert f["ra_unblocked"] == "4:19:03"

    # the timelines must read one way only
    assert f["kl_reclaim"] < f["kl_evict"] < f["ap_first_00957"] < f["tr_first_503"]
    assert f["my_first_full"] < f["ra_first_pool"] < f["tr_first_504"] < f["kl_first_live"] < f["kl_kill"] < f["ra_listening"]
    assert f["my_last_full"] < f["ra_recovered"] < f["tr_last_504_rides"]
    assert f["rb_alarm_set"] < f["ra_first_blocked"] < f["cd_first_503"]
    assert f["cd_last_503"] < f["rb_alarm_clear"] < f["ra_unblocked"]
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
