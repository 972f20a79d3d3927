#!/usr/bin/env python3
"""Generates the `queries-heldout3` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout3.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout3.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure (this is a held-out set: don't, unless retiring it)
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

SEED = 20280115
HERE = Path(__file__).resolve().parent
SET_FILE = "queries-heldout3.jsonl"

CADDY, ENVOY, NGINX = "caddy-shop-access.log", "envoy-ingress.log", "nginx-pick-error.log"
RABBIT, KAFKA, ORDERS = "rabbit@bw-mq-2.log", "kafka-server.log", "order-worker.ndjson"
MAIL, DOCKER, AUDIT = "maillog", W.SLOT_CONTAINER, "audit.log"
JOURNAL, SQUID, CASS = "bw-db-3-journal.txt", "squid-access.log", "cassandra-system.log"

FIXTURES = [
    (CADDY, W.caddy_access), (ENVOY, W.envoy_access), (NGINX, W.nginx_error), (RABBIT, W.rabbit_log),
    (KAFKA, W.kafka_log), (ORDERS, W.order_worker), (MAIL, W.maillog), (DOCKER, W.slot_api_docker),
    (AUDIT, W.audit_log), (JOURNAL, W.db3_journal), (SQUID, W.squid_access), (CASS, W.cassandra_system),
]
MAX_FILE, MAX_TOTAL = 2_000_000, 5_000_000


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def build_fixtures():
    return {name: writer(random.Random(SEED * 100 + i)) for i, (name, writer) in enumerate(FIXTURES)}


def hms_exact(t):
    """HH:MM:SS of a first/last event, asserted clear of rounding up to the next second."""
    assert t.microsecond < 500000, t
    return hms(t)


def in_window(t, a, b):
    return a <= hms(t) < b


def near(t, edge, minutes=3):
    """Within `minutes` of the clock time `edge` (HH:MM:SS) on the set's day."""
    return abs((t - W.at(edge)).total_seconds()) < minutes * 60


def strict_peak(counter):
    (k, v), rest = T.top(counter)
    return k, v


def facts(texts):
    """Every figure a case asks for, computed from the written text (and checked against the
    planted one, so a writer bug cannot slip a wrong answer in)."""
    f = {}

    # caddy-shop-access.log ---------------------------------------------------------------
    cd = T.parse_caddy(texts[CADDY])
    assert len(cd) == 2200
    f["cd_502"] = T.count(cd, lambda r: r["status"] == 502)
    f["cd_504"] = T.count(cd, lambda r: r["status"] == 504)
    f["cd_5xx"] = T.count(cd, lambda r: r["status"] >= 500)
    assert (f["cd_502"], f["cd_504"], f["cd_5xx"]) == (193, 143, 408), (f["cd_502"], f["cd_504"], f["cd_5xx"])
    # The error level and the status agree (a filter on either gives the same rows).
    assert T.count(cd, lambda r: r["level"] == "error") == f["cd_5xx"]
    f["cd_ips"] = len({r["ip"] for r in cd})
    assert f["cd_ips"] == 709 == len({r["remote_ip"] for r in cd})
    (f["cd_504_path"], f["cd_504_path_n"]), _ = T.top(T.group(cd, lambda r: r["path"], lambda r: r["status"] == 504))
    (full, full_n), _ = T.top(T.group(cd, lambda r: r["uri"], lambda r: r["status"] == 504))
    assert (full, full_n) == (f["cd_504_path"], f["cd_504_path_n"]) == (W.RESERVE, 96)
    f["cd_502_peak"], f["cd_502_peak_n"] = strict_peak(T.group(cd, lambda r: hm(r["t"]), lambda r: r["status"] == 502))
    assert (f["cd_502_peak"], f["cd_502_peak_n"]) == ("07:04", 31)
    slow = sorted(cd, key=lambda r: r["duration"])
    f["cd_slow_dur"], f["cd_slow_path"] = slow[-1]["duration"], slow[-1]["path"]
    assert f["cd_slow_path"] == "/account/orders/export.csv" and abs(f["cd_slow_dur"] - 58.417326) < 1e-5
    assert slow[-2]["duration"] < 31
    f["cd_5xx_window"] = T.count(cd, lambda r: r["status"] >= 500 and in_window(r["t"], "07:10:00", "07:30:00"))
    assert T.count(cd, lambda r: r["status"] >= 500 and (near(r["t"], "07:10:00") or near(r["t"], "07:30:00"))) == 0
    assert f["cd_5xx_window"] == 192
    by_hour = T.group(cd, lambda r: r["t"].hour, lambda r: r["status"] >= 500)
    f["cd_5xx_by_hour"] = [by_hour[h] for h in (5, 6, 7, 8)]
    assert f["cd_5xx_by_hour"] == [20, 25, 324, 39], f["cd_5xx_by_hour"]
    # No 5xx near an hour's edge, so an hour bucket cannot shift by a rounding.
    assert T.count(cd, lambda r: r["status"] >= 500 and r["t"].minute == 59 and r["t"].second >= 50) == 0

    # envoy-ingress.log -------------------------------------------------------------------
    ev = T.parse_envoy(texts[ENVOY])
    assert len(ev) == 2500
    f["en_ut"] = T.count(ev, lambda r: r["flags"] == "UT")
    assert f["en_ut"] == 117 == T.count(ev, lambda r: "UT" in r["flags"].split(","))
    (f["en_uf_host"], f["en_uf_host_n"]), _ = T.top(T.group(ev, lambda r: r["upstream"], lambda r: r["flags"] == "UF"))
    assert (f["en_uf_host"], f["en_uf_host_n"]) == ("10.42.7.31:8080", 58)
    f["en_503_window"] = T.count(ev, lambda r: r["code"] == 503 and in_window(r["t"], "07:00:00", "07:30:00"))
    assert T.count(ev, lambda r: r["code"] == 503 and (near(r["t"], "07:00:00") or near(r["t"], "07:30:00"))) == 0
    assert f["en_503_window"] == 155 and T.count(ev, lambda r: r["code"] == 503) == 179
    p90 = T.percentiles_all([r["dur"] for r in ev], 90)
    assert all(v == 238 for v in p90), p90
    f["en_p90"] = 238
    # Upstream service time gives another figure: the question is about DURATION.
    assert all(v != 238 for v in T.percentiles_all([r["ust"] for r in ev if r["ust"] is not None], 90))
    uo = [r for r in ev if r["flags"] == "UO"]
    f["en_first_uo"] = hms_exact(min(r["t"] for r in uo))
    assert f["en_first_uo"] == "07:03:31" and len(uo) == 74

    # nginx-pick-error.log ----------------------------------------------------------------
    ng = T.parse_nginx_error(texts[NGINX])
    f["ng_timeout"] = T.count(ng, lambda r: "upstream timed out" in r["msg"])
    assert f["ng_timeout"] == 157 == texts[NGINX].count("upstream timed out")
    wc = [r for r in ng if "worker_connections are not enough" in r["msg"]]
    assert len(wc) == 23
    f["ng_first_wc"] = hms_exact(min(r["t"] for r in wc))
    assert f["ng_first_wc"] == "07:05:17"

    # rabbit@bw-mq-2.log ------------------------------------------------------------------
    rb = T.parse_rabbit(texts[RABBIT])
    sets = [e for e in rb if "memory resource limit alarm set" in e["text"]]
    clears = [e for e in rb if "memory resource limit alarm cleared on node" in e["text"]]
    assert len(sets) == len(clears) == 1
    f["rb_alarm_set"], f["rb_alarm_clear"] = hms_exact(sets[0]["t"]), hms_exact(clears[0]["t"])
    assert (f["rb_alarm_set"], f["rb_alarm_clear"]) == ("07:01:58", "07:19:43")
    hb = [e for e in rb if "missed heartbeats from client" in e["text"]]
    assert len(hb) == 68 == texts[RABBIT].count("missed heartbeats")
    (f["rb_hb_user"], f["rb_hb_user_n"]), _ = T.top(T.group(hb, lambda e: e["user"]))
    assert (f["rb_hb_user"], f["rb_hb_user_n"]) == ("order-worker", 39)
    # All closings with an error, by user, would name another user.
    (u, _), _ = T.top(T.group(rb, lambda e: e["user"], lambda e: len(e["lines"]) == 2 and e["user"]))
    assert u != f["rb_hb_user"]
    assert f["rb_alarm_set"] < f["en_first_uo"]

    # kafka-server.log --------------------------------------------------------------------
    kf = T.parse_kafka(texts[KAFKA])
    f["kf_shrink"] = T.count(kf, lambda e: "Shrinking ISR" in e["msg"])
    assert f["kf_shrink"] == 71 == texts[KAFKA].count("Shrinking ISR")
    f["kf_deleted"] = T.count(kf, lambda e: "Deleting segment" in e["msg"])
    assert f["kf_deleted"] == 86 == texts[KAFKA].count("Deleting segment") == texts[KAFKA].count("Delet")

    # order-worker.ndjson -----------------------------------------------------------------
    ow = T.parse_pino(texts[ORDERS])
    errs = [r for r in ow if r["level"] == 50]
    f["ow_err"] = len(errs)
    assert f["ow_err"] == 229 and T.count(ow, lambda r: r["level"] == 60) == 3
    assert all("orderId" not in r and "store" not in r for r in ow if r["level"] == 60)
    f["ow_err_orders"] = len({r["orderId"] for r in errs})
    assert f["ow_err_orders"] == 181 == len({r["orderId"] for r in ow if r["level"] >= 50 and "orderId" in r})
    (f["ow_err_store"], f["ow_err_store_n"]), _ = T.top(T.group(errs, lambda r: r["store"]))
    assert (f["ow_err_store"], f["ow_err_store_n"]) == ("LDN-07", 83)
    f["ow_store_first"] = hms_exact(min(r["t"] for r in errs if r["store"] == f["ow_err_store"]))
    assert f["ow_store_first"] == "05:41:26"
    f["ow_to_peak"], f["ow_to_peak_n"] = strict_peak(
        T.group(ow, lambda r: hm(r["t"]), lambda r: r.get("err.type") == "TimeoutError"))
    assert (f["ow_to_peak"], f["ow_to_peak_n"]) == ("07:09", 18)

    # maillog -----------------------------------------------------------------------------
    ml = T.parse_postfix(texts[MAIL])
    deferred = [r for r in ml if r["status"] == "deferred"]
    f["ml_deferred"] = len(deferred)
    assert f["ml_deferred"] == 149 == texts[MAIL].count("status=deferred")
    assert len({r["qid"] for r in deferred}) < f["ml_deferred"]
    (f["ml_def_dom"], f["ml_def_dom_n"]), _ = T.top(T.group(deferred, lambda r: r["domain"]))
    (by_msg, _), _ = T.top(Counter_of({(r["qid"], r["domain"]) for r in deferred}))
    assert f["ml_def_dom"] == by_msg == "owlpost.example" and f["ml_def_dom_n"] == 91
    f["ml_bounced"] = T.count(ml, lambda r: r["status"] == "bounced")
    assert f["ml_bounced"] == 37 == texts[MAIL].count("status=bounced")

    # slot-api docker log -----------------------------------------------------------------
    dk = T.parse_docker_json(texts[DOCKER])
    f["dk_panics"] = T.count(dk, lambda r: "panicked at" in r["log"])
    assert f["dk_panics"] == 64
    hold = [r for r in dk if r.get("msg", "").startswith("slot hold expired")]
    f["dk_hold_peak"], f["dk_hold_peak_n"] = strict_peak(T.group(hold, lambda r: hm(r["t_inner"])))
    assert strict_peak(T.group(hold, lambda r: hm(r["t"]))) == (f["dk_hold_peak"], f["dk_hold_peak_n"])
    assert (f["dk_hold_peak"], f["dk_hold_peak_n"]) == ("07:22", 29)

    # audit.log ---------------------------------------------------------------------------
    au = T.parse_audit(texts[AUDIT])
    failed = [r for r in au if r["type"] == "USER_AUTH" and r.get("res") == "failed"]
    assert len(failed) == T.count(au, lambda r: r.get("res") == "failed") == 612
    f["au_failed_accts"] = len({r["acct"] for r in failed})
    assert f["au_failed_accts"] == 47
    end = au[-1]["t"]
    assert end == max(r["t"] for r in au) and hms(end) == "08:59:41"
    f["au_last30"] = T.count(failed, lambda r: (end - r["t"]).total_seconds() <= 1800)
    assert f["au_last30"] == 87
    assert T.count(failed, lambda r: 1620 <= (end - r["t"]).total_seconds() <= 1980) == 0
    # Counted back from the last failure instead of the last record: the same rows.
    last_fail = max(r["t"] for r in failed)
    assert (end - last_fail).total_seconds() < 60

    # bw-db-3-journal.txt -----------------------------------------------------------------
    jn = T.parse_syslog(texts[JOURNAL])
    kills = [(r["t"], re.search(r"Killed process \d+ \(([^)]+)\)", r["msg"]).group(1)) for r in jn
             if r["prog"] == "kernel" and "Killed process" in r["msg"]]
    f["jn_kills"] = len(kills)
    (f["jn_top_victim"], f["jn_top_victim_n"]), _ = T.top(T.group(kills, lambda k: k[1]))
    assert (f["jn_kills"], f["jn_top_victim"], f["jn_top_victim_n"]) == (67, "java", 63)
    f["jn_first_oom"] = hms_exact(min(t for t, _ in kills))
    assert f["jn_first_oom"] == "07:08:47"
    last = max(kills)
    f["jn_last_oom"], f["jn_last_victim"] = hms_exact(last[0]), last[1]
    assert (f["jn_last_oom"], f["jn_last_victim"]) == ("08:32:37", "java")
    counters = [int(m.group(1)) for r in jn
                for m in [re.match(r"cassandra\.service: Scheduled restart job, restart counter is at (\d+)", r["msg"])] if m]
    f["jn_restarts"] = len(counters)
    assert f["jn_restarts"] == max(counters) == 63
    assert T.count(jn, lambda r: r["msg"].startswith("Started cassandra.service")) == 63
    assert T.count(jn, lambda r: r["msg"].startswith("Stopped cassandra.service")) == 63

    # squid-access.log --------------------------------------------------------------------
    sq = T.parse_squid(texts[SQUID])
    f["sq_denied"] = T.count(sq, lambda r: r["code"] == "TCP_DENIED")
    assert f["sq_denied"] == 214 == T.count(sq, lambda r: r["status"] == 403)
    ranked = T.group(sq, lambda r: r["client"], lambda r: r["code"] == "TCP_DENIED").most_common(4)
    assert ranked[0][1] > ranked[1][1] > ranked[2][1] > ranked[3][1], ranked
    f["sq_top3"] = ranked[:3]
    assert [ip for ip, _ in ranked[:3]] == ["10.42.12.9", "10.42.3.51", "10.42.5.17"]
    top_ip = ranked[0][0]
    assert all(r["code"] == "TCP_DENIED" for r in sq if r["client"] == top_ip)
    (dest, f["sq_top_dest_n"]), _ = T.top(T.group(sq, lambda r: r["url"], lambda r: r["client"] == top_ip))
    f["sq_top_dest"] = dest.split(":")[0]
    assert (f["sq_top_dest"], f["sq_top_dest_n"]) == ("xmr-eu1.poolhub.example", 61)
    pay = [r["elapsed"] for r in sq if r["url"] == W.PAYRAIL]
    assert sum(pay) == len(pay) * W.PAYRAIL_MEAN
    f["sq_pay_mean"] = W.PAYRAIL_MEAN
    for url in {r["url"] for r in sq} - {W.PAYRAIL}:
        d = [r["elapsed"] for r in sq if r["url"] == url]
        assert abs(sum(d) / len(d) - f["sq_pay_mean"]) > 5, url
    assert abs(sum(r["elapsed"] for r in sq) / len(sq) - f["sq_pay_mean"]) > 5
    # Tunnels only (without the aborted ones) give another mean.
    ok = [r["elapsed"] for r in sq if r["url"] == W.PAYRAIL and r["status"] == 200]
    assert abs(sum(ok) / len(ok) - f["sq_pay_mean"]) > 5

    # cassandra-system.log ----------------------------------------------------------------
    cs = T.parse_cassandra(texts[CASS])
    gcs = [(e["t"], int(m.group(1)), e["level"]) for e in cs
           for m in [re.match(r"G1 \w+ Generation GC in (\d+)ms\.", e["msg"])] if m]
    f["cs_gc_over1s"] = T.count(gcs, lambda g: g[1] > 1000)
    assert f["cs_gc_over1s"] == 76 == T.count(gcs, lambda g: g[2] == "WARN")
    assert T.count(gcs, lambda g: 900 <= g[1] <= 1100) == 0
    f["cs_gc_max"] = max(g[1] for g in gcs)
    assert f["cs_gc_max"] == 11834 and sorted(g[1] for g in gcs)[-2] < 10000
    f["cs_first_5s"] = hms_exact(min(g[0] for g in gcs if g[1] > 5000))
    assert f["cs_first_5s"] == "07:06:12" < f["jn_first_oom"]
    parts = []
    for e in cs:
        m = re.search(r"Writing large partition (\S+) \(([\d.]+)(MiB|GiB)\)", e["msg"])
        if m:
            parts.append((float(m.group(2)) * (1024 if m.group(3) == "GiB" else 1), m.group(1), m.group(2) + m.group(3)))
    parts.sort()
    f["cs_big_key"], f["cs_big_size"] = parts[-1][1].split(":", 1)[1], parts[-1][2]
    assert (f["cs_big_key"], f["cs_big_size"]) == ("LDN-07:2028-01-15", "1.184GiB")
    # The largest number regardless of unit is another partition.
    assert max(parts, key=lambda p: float(re.match(r"[\d.]+", p[2]).group()))[1] != parts[-1][1]
    return f


def Counter_of(pairs):
    """Distinct (message, domain) pairs counted by domain."""
    from collections import Counter
    return Counter(d for _, d in pairs)


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
        assert c.get("answer_has") or c.get("approval"), c["id"]
    sizes = {name: len(t.encode()) for name, t in texts.items()}
    assert max(sizes.values()) < MAX_FILE and sum(sizes.values()) < MAX_TOTAL, sizes
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items()
                 if not (fx / name).is_file() or (fx / name).read_text() != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{e} (not generated)" for e in extra]
        if not (HERE / SET_FILE).is_file() or (HERE / SET_FILE).read_text() != out_cases:
            stale.append(SET_FILE)
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries-heldout3: {len(rows)} cases and {len(texts)} fixtures up to date")
    else:
        fx.mkdir(exist_ok=True)
        for name, text in texts.items():
            (fx / name).write_text(text)
        (HERE / SET_FILE).write_text(out_cases)
        print(f"queries-heldout3: wrote {len(rows)} cases, {len(texts)} fixtures "
              f"({sum(sizes.values()) / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for name, size in sizes.items():
            print(f"  {name}: {size} bytes, {texts[name].count(chr(10))} lines")
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")


if __name__ == "__main__":
    main()
