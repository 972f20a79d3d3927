#!/usr/bin/env python3
"""Generates the `queries-heldout5` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout5.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout5.jsonl
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

SEED = 20300314
HERE = Path(__file__).resolve().parent
SET = "queries-heldout5"
MAX_BYTES = 5_000_000

FIXTURES = [
    ("haproxy.log", W.haproxy_log), ("traefik-access.json", W.traefik_access), ("ledger-svc.log", W.ledger_log),
    ("postgresql-2030-03-14_000000.log", W.postgres_log), ("mysql-slow.log", W.mysql_slow), ("redis.log", W.redis_log),
    ("kubelet.log", W.kubelet_log), ("tariff-worker-json.log", W.tariff_docker), ("u_ex300314.log", W.iis_log),
    ("ocpp-gw.log", W.ocpp_log),
]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute as an answer must hold it; the hour unpadded so `08:47` and `8:47` both pass."""
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


def last_window(rows, pred, end, minutes, slack):
    """Matching rows in the last `minutes` minutes before `end`, none within `slack` minutes of the edge."""
    lo, hi = (minutes - slack) * 60, (minutes + slack) * 60
    assert T.count(rows, lambda r: pred(r) and lo <= (end - r["t"]).total_seconds() <= hi) == 0
    return T.count(rows, lambda r: pred(r) and (end - r["t"]).total_seconds() <= minutes * 60)


def peak_minute(rows, pred, key="t"):
    [(m, _)] = T.ranked(T.group(rows, lambda r: hm(r[key]), pred))
    return m


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    # --- haproxy.log
    text = texts["haproxy.log"]
    ha, other = T.parse_haproxy(text)
    assert len(ha) == 2400 and len(other) == 2
    f["ha_504"] = T.count(ha, lambda r: r["status"] == 504)
    assert f["ha_504"] == 138 == len(re.findall(r"\] fe_https~ \S+ \S+ 504 ", text)) == len(re.findall(r" 504 ", text))
    assert T.count(ha, lambda r: r["term"].startswith("sH")) == 138
    s503 = lambda r: r["status"] == 503  # noqa: E731
    assert T.count(ha, s503) == 171 == len(re.findall(r" 503 ", text))
    f["ha_503_window"] = clock_window(ha, s503, "08:45", "09:15")
    assert f["ha_503_window"] == clock_window(ha, s503, "08:45", "09:15", key="logged") == 149
    [(f["ha_top5xx_srv"], top_n), (_, second)] = T.ranked(T.group(ha, lambda r: r["server"], lambda r: r["status"] >= 500), 2)
    assert (f["ha_top5xx_srv"], top_n, second) == ("ledger-02", 130, 98)
    charge = [r["Ta"] for r in ha if r["backend"] == "be_charge_api"]
    assert len(charge) == 1200 and T.count(ha, lambda r: r["backend"] == "be_charge_api" and r["status"] >= 500) == 0
    assert same_by_any_definition(charge, 95) == 1840
    f["ha_p95"] = ["1840", "1,840", "1.84 s", "1.84s", "1.840", "1.84 秒", "1.84秒"]

    # --- traefik-access.json
    tr = T.parse_traefik(texts["traefik-access.json"])
    assert len(tr) == 1600
    s502 = lambda r: r["DownstreamStatus"] == 502  # noqa: E731
    f["tr_502"] = T.count(tr, s502)
    assert f["tr_502"] == 156 == texts["traefik-access.json"].count('"DownstreamStatus":502')
    f["tr_502_peak"] = peak_minute(tr, s502)
    assert f["tr_502_peak"] == peak_minute(tr, s502, "logged") == "8:47"
    f["tr_clients"] = len({r["ClientHost"] for r in tr})
    assert f["tr_clients"] == len({r["ClientAddr"].rsplit(":", 1)[0] for r in tr})
    top = sorted(tr, key=lambda r: -r["Duration"])
    assert top[0]["Duration"] == 27418552113 and top[1]["Duration"] < 16e9
    f["tr_max_ms"] = ["27418", "27,418", "27419", "27,419", "27.4 s", "27.4s", "27.41", "27.42", "27.4 秒", "27.4秒"]
    f["tr_max_path"] = top[0]["RequestPath"]
    assert f["tr_max_path"] == "/v2/sessions/S-88213407/stop"
    fivexx = T.ranked(T.group(tr, lambda r: r["router"], lambda r: r["DownstreamStatus"] >= 500), 4)
    assert fivexx == [("charge-api", 188), ("tariffs-api", 129), ("stations-api", 83), ("account-web", 37)]
    f["tr_2nd_router"], f["tr_2nd_router_n"] = fivexx[1]
    # the router names as RouterName spells them, and without the provider suffix
    assert T.ranked(T.group(tr, lambda r: r["RouterName"], lambda r: r["DownstreamStatus"] >= 500), 2)[1][0] == \
        "tariffs-api@kubernetescrd"

    # --- ledger-svc.log
    lg = T.parse_spring(texts["ledger-svc.log"])
    err = lambda r: r["level"] == "ERROR"  # noqa: E731
    f["lg_errors"] = T.count(lg, err)
    assert f["lg_errors"] == 211 == len(re.findall(r"^\S+ ERROR ", texts["ledger-svc.log"], re.M)) == \
        texts["ledger-svc.log"].count(" ERROR 1 --- ")
    exc_any = T.group([(x, r) for r in lg if err(r) for x in r["exceptions"]], lambda p: p[0])
    exc_head = T.group(lg, lambda r: r["exceptions"][0], lambda r: err(r) and r["exceptions"])
    [(f["lg_top_exc"], top_n)] = T.ranked(exc_any)
    assert T.ranked(exc_head) == [(f["lg_top_exc"], top_n)] and top_n == 97
    assert f["lg_top_exc"] == "java.sql.SQLTransientConnectionException"
    f["lg_top_exc_short"] = "SQLTransientConnectionException"
    f["lg_err_peak"] = peak_minute(lg, err)
    assert f["lg_err_peak"] == "8:52"
    f["lg_first_sqlt"] = hms(min(r["t"] for r in lg if "java.sql.SQLTransientConnectionException" in r["exceptions"]))
    assert f["lg_first_sqlt"] == "8:41:05"

    # --- postgresql log
    pgt = texts["postgresql-2030-03-14_000000.log"]
    pg = T.parse_postgres(pgt)
    f["pg_first_wait"] = hms(min(r["t"] for r in pg if " still waiting for " in r["msg"]))
    assert f["pg_first_wait"] == "8:40:14"
    lockto = lambda r: r["sev"] == "ERROR" and r["msg"] == "canceling statement due to lock timeout"  # noqa: E731
    assert T.count(pg, lockto) == 148 == pgt.count("canceling statement due to lock timeout")
    [(f["pg_lockto_user"], _)] = T.ranked(T.group(pg, lambda r: r["user"], lockto))
    assert f["pg_lockto_user"] == "ledger_app"
    end = max(r["t"] for r in pg)
    assert hms(end) == "9:59:57"
    f["pg_lockto_last30"] = last_window(pg, lockto, end, 30, 4)
    assert f["pg_lockto_last30"] == 63
    fatal = lambda r: r["sev"] == "FATAL" and "remaining connection slots are reserved" in r["msg"]  # noqa: E731
    f["pg_fatal_slots"] = T.count(pg, fatal)
    assert f["pg_fatal_slots"] == 117 == pgt.count("remaining connection slots are reserved") == pgt.count(" FATAL:  ")
    dls = [r for r in pg if r["sev"] == "ERROR" and r["msg"] == "deadlock detected"]
    assert len(dls) == 12 == pgt.count("deadlock detected")
    f["pg_last_deadlock"] = hms(max(r["t"] for r in dls))
    assert f["pg_last_deadlock"] == "9:07:44"
    durs = sorted((r for r in pg if r["duration_ms"] is not None), key=lambda r: -r["duration_ms"])
    assert durs[0]["duration_text"] == "48211.907" and durs[1]["duration_ms"] < 32000
    f["pg_slowest_ms"] = ["48211", "48,211", "48212", "48,212", "48.2 s", "48.2s", "48.21", "48.2 秒", "48.2秒"]
    f["pg_slowest_user"] = durs[0]["user"]
    assert f["pg_slowest_user"] == "reporting"

    # --- mysql-slow.log
    my = T.parse_mysql_slow(texts["mysql-slow.log"])
    assert len(my) == 520 == texts["mysql-slow.log"].count("# Query_time: ")
    assert T.count(my, lambda r: 4.5 <= r["query_time"] <= 5.5) == 0
    f["my_over5"] = T.count(my, lambda r: r["query_time"] > 5)
    assert f["my_over5"] == 131
    f["my_delete"] = T.count(my, lambda r: r["verb"] == "DELETE")
    assert f["my_delete"] == 76 == len(re.findall(r"^DELETE ", texts["mysql-slow.log"], re.M)) == \
        texts["mysql-slow.log"].upper().count("DELETE")
    mx = sorted(my, key=lambda r: -r["query_time"])
    assert mx[0]["qt_text"] == "61.882013" and mx[1]["query_time"] < 41
    f["my_max"] = ["61.88", "61.9 s", "61.9s", "61.9 秒", "61.9秒", "61,88"]
    f["my_least_user"], least_n = T.least(T.group(my, lambda r: r["user"]))
    assert (f["my_least_user"], least_n) == ("grafana_ro", 7)

    # --- redis.log
    rd = T.parse_redis(texts["redis.log"])
    aof = lambda r: r["msg"].startswith("Asynchronous AOF fsync is taking too long")  # noqa: E731
    f["rd_aof"] = T.count(rd, aof)
    assert f["rd_aof"] == 97 == texts["redis.log"].count("AOF fsync is taking too long")
    f["rd_first_aof"] = hms(min(r["t"] for r in rd if aof(r)))
    assert f["rd_first_aof"] == "8:49:58"
    obl = lambda r: r["msg"].endswith("for overcoming of output buffer limits.")  # noqa: E731
    f["rd_obl"] = T.count(rd, obl)
    assert f["rd_obl"] == 73 == texts["redis.log"].count("output buffer limits")
    [(f["rd_obl_top"], _)] = T.ranked(T.group(rd, lambda r: r["addr"], obl))
    assert f["rd_obl_top"] == "10.244.3.17"
    f["rd_last_save"] = hms(max(r["t"] for r in rd if r["msg"] == "Background saving terminated with success"))
    assert f["rd_last_save"] == "9:55:03"

    # --- kubelet.log
    kl = T.parse_klog(texts["kubelet.log"])
    probe = lambda r: r["what"] == "Probe failed"  # noqa: E731
    ready = lambda r: probe(r) and r["kv"]["probeType"] == "Readiness"  # noqa: E731
    [(top_pod, _)] = T.ranked(T.group(kl, lambda r: r["kv"]["pod"], ready))
    assert T.ranked(T.group(kl, lambda r: r["kv"]["pod"], probe)) [0][0] == top_pod == "charging/ocpp-gw-7c9d8f6b5-x2kqp"
    f["kl_top_pod"] = top_pod.split("/")[1]
    f["kl_top_pod_peak"] = peak_minute(kl, lambda r: ready(r) and r["kv"]["pod"] == top_pod)
    assert f["kl_top_pod_peak"] == peak_minute(kl, lambda r: probe(r) and r["kv"]["pod"] == top_pod) == "8:56"
    crash = lambda r: "CrashLoopBackOff" in r["msg"]  # noqa: E731
    f["kl_crashloop"] = T.count(kl, crash)
    assert f["kl_crashloop"] == 89 == texts["kubelet.log"].count("CrashLoopBackOff")
    assert T.count(kl, lambda r: crash(r) and "container=ocpp-gw " in r["msg"]) == 89
    f["kl_first_crash"] = hms(min(r["t"] for r in kl if crash(r)))
    assert f["kl_first_crash"] == "8:53:20"

    # --- tariff-worker-json.log
    tw = T.parse_docker_python(texts["tariff-worker-json.log"])
    rej = [re.match(r"station (\S+) tariff rejected: ", r["msg"]) for r in tw if r["level"] == "WARNING"]
    assert all(rej) and len(rej) == 240
    f["tw_rej_stations"] = len({m.group(1) for m in rej})
    assert f["tw_rej_stations"] == 137
    syncs = [re.match(r"sync finished in (\d+)\.(\d\d)s ", r["msg"]) for r in tw if r["msg"].startswith("sync finished in ")]
    hund = [int(m.group(1)) * 100 + int(m.group(2)) for m in syncs]
    assert len(hund) == 180 and sum(hund) == 437 * 180
    f["tw_sync_mean"] = ["4.37", "4370"]
    tos = [r for r in tw if any(ln.startswith("redis.exceptions.TimeoutError") for ln in r["trace"])]
    assert len(tos) == 44 and all(r["level"] == "ERROR" for r in tos)
    f["tw_first_timeout"] = hms(min(r["t"] for r in tos))
    assert f["tw_first_timeout"] == "8:50:27"

    # --- u_ex300314.log
    ii = T.parse_w3c(texts["u_ex300314.log"])
    assert texts["u_ex300314.log"].count("#Fields: ") == 2
    st = lambda code: (lambda r: r["sc-status"] == str(code))  # noqa: E731
    f["ii_401"] = T.count(ii, st(401))
    assert f["ii_401"] == 233
    [(f["ii_401_ip"], _)] = T.ranked(T.group(ii, lambda r: r["c-ip"], st(401)))
    assert f["ii_401_ip"] == "185.220.101.47"
    f["ii_ips"] = len({r["c-ip"] for r in ii})
    assert T.count(ii, st(500)) == 94
    [(h, _)] = T.ranked(T.group(ii, lambda r: r["t"].hour, st(500)))
    f["ii_500_hour"] = h
    assert h == 8
    f["ii_first_500"] = hms(min(r["t"] for r in ii if st(500)(r)))
    assert f["ii_first_500"] == "7:14:22"
    tel = [int(r["time-taken"]) for r in ii if r["cs-uri-stem"] == "/fleet/api/telemetry"]
    assert len(tel) == 300 and sum(tel) == 312 * 300
    assert not any(r["cs-uri-stem"].startswith("/fleet/api/telemetry") and r["cs-uri-stem"] != "/fleet/api/telemetry" for r in ii)
    f["ii_tel_mean"] = "312"

    # --- ocpp-gw.log
    oc = T.parse_logfmt(texts["ocpp-gw.log"])
    f["oc_errors"] = T.count(oc, lambda r: r["level"] == "ERROR")
    assert f["oc_errors"] == 127 == texts["ocpp-gw.log"].count("level=ERROR")
    hb = lambda r: r["msg"] == "heartbeat timeout"  # noqa: E731
    assert T.count(oc, hb) == 409
    f["oc_hb_chargers"] = len({r["charger_id"] for r in oc if hb(r)})
    assert f["oc_hb_chargers"] == 96
    [(top_c, top_n)] = T.ranked(T.group(oc, lambda r: r["charger_id"], hb))
    assert (top_c, top_n) == ("QE-LDS-00412", 23)
    f["oc_top_charger_last"] = hms(max(r["t"] for r in oc if hb(r) and r["charger_id"] == top_c))
    assert f["oc_top_charger_last"] == "9:41:33"
    f["oc_top3_sites"] = [s for s, _ in T.ranked(T.group(oc, lambda r: r["site"], hb), 3)]
    assert f["oc_top3_sites"] == ["leeds-kirkstall", "manchester-ancoats", "york-clifton"]
    stops = [r for r in oc if r["msg"] == "session stopped"]
    assert len(stops) == 420
    cents = sum(int(r["energy_kwh"].replace(".", "")) for r in stops)
    assert cents == 943762
    f["oc_kwh_sum"] = ["9437.62", "9,437.62", "9437.6", "9,437.6", "9438", "9,438"]
    f["oc_first_publish_fail"] = hms(min(r["t"] for r in oc if r["msg"] == "redis publish failed"))
    assert f["oc_first_publish_fail"] == "8:50:03"

    # the timelines must read one way only
    assert f["pg_first_wait"] < f["lg_first_sqlt"]
    assert f["rd_first_aof"] < f["tw_first_timeout"] and f["oc_first_publish_fail"] < f["kl_first_crash"]
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
