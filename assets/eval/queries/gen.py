#!/usr/bin/env python3
"""Generates the `queries` dev set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
"""

import json
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402
import writers_sys as S  # noqa: E402

SEED = 20261114
HERE = Path(__file__).resolve().parent

FIXTURES = [
    ("access.log", W.access_log), ("gateway-access.log", W.gateway_log),
    ("orders-api.jsonl", W.orders_jsonl), ("inventory-sync.log", W.inventory_logfmt),
    ("catalog-service.log", W.catalog_java), ("mailer.log", W.mailer_log),
    ("messages", S.messages_syslog), ("payments-5424.log", S.payments_5424),
    ("journal.json", S.journal_json), ("haproxy.log", S.haproxy_log),
    ("postgresql.log", S.postgres_log), ("mysql-slow.log", S.mysql_slow),
    ("auth.log", S.auth_log), ("kern.log", S.kern_log),
]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def build_fixtures():
    texts = {}
    for i, (name, writer) in enumerate(FIXTURES):
        texts[name] = writer(random.Random(SEED * 100 + i))
    return texts


def facts(texts):
    """Every figure a case asks for, computed from the written text."""
    f = {}
    acc = T.parse_common(texts["access.log"])
    f["acc_lines"] = len(acc)
    f["acc_503"] = T.count(acc, lambda r: r["status"] == 503)
    f["acc_5xx"] = T.count(acc, lambda r: r["status"] >= 500)
    f["acc_4xx"] = T.count(acc, lambda r: 400 <= r["status"] < 500)
    (f["acc_fail_url"], _), _ = T.top(T.group(acc, lambda r: r["path"], lambda r: r["status"] >= 500))
    (f["acc_fail_url_ip"], f["acc_fail_url_ip_n"]), _ = T.top(T.group(
        acc, lambda r: r["ip"], lambda r: r["status"] >= 500 and r["path"] == f["acc_fail_url"]))
    (f["acc_top_ip"], f["acc_top_ip_n"]), _ = T.top(T.group(acc, lambda r: r["ip"]))
    f["acc_distinct_ip"] = len({r["ip"] for r in acc})
    (f["acc_502_peak"], f["acc_502_peak_n"]), _ = T.top(T.group(acc, lambda r: hm(r["t"]), lambda r: r["status"] == 502))
    f["acc_502_window"] = T.count(acc, lambda r: r["status"] == 502 and "02:40" <= hm(r["t"]) < "02:50")
    end = acc[-1]["t"]
    f["acc_401_last10"] = T.count(acc, lambda r: r["status"] == 401 and (end - r["t"]).total_seconds() <= 600)
    assert T.count(acc, lambda r: r["status"] == 401 and 480 < (end - r["t"]).total_seconds() <= 1080) == 0
    f["acc_first_503"] = hms(min(r["t"] for r in acc if r["status"] == 503))
    big = max(acc, key=lambda r: r["bytes"])
    f["acc_max_bytes"], f["acc_max_bytes_path"] = big["bytes"], big["path"].rsplit("/", 1)[-1]
    f["acc_post_5xx"] = T.count(acc, lambda r: r["method"] == "POST" and r["status"] >= 500)

    gw = T.parse_common(texts["gateway-access.log"])
    rts = [r["rt"] for r in gw]
    for p in (50, 95):
        a, b = T.percentile_nearest_rank(rts, p), T.percentile_linear(rts, p)
        assert abs(a - b) < 1e-9, (p, a, b)
        f[f"gw_p{p}"] = f"{a:.3f}"
    slow = max(gw, key=lambda r: r["rt"])
    f["gw_max_path"], f["gw_max_rt"] = slow["path"], f"{slow['rt']:.3f}"
    by_path = {}
    for r in gw:
        by_path.setdefault(r["path"].split("?")[0], []).append(r["rt"])
    mean_top = max(by_path, key=lambda p: sum(by_path[p]) / len(by_path[p]))
    assert mean_top == f["gw_max_path"], mean_top
    f["gw_over_1s"] = T.count(gw, lambda r: r["rt"] > 1.0)
    assert T.count(gw, lambda r: 0.99 <= r["rt"] <= 1.01) == 0
    search = [r["rt"] for r in gw if r["path"].startswith("/v2/search")]
    mean_ms = round(sum(search) * 1000) / len(search)
    assert mean_ms == int(mean_ms), mean_ms
    f["gw_search_mean"] = f"{mean_ms / 1000:.3f}"
    f["gw_search_mean_ms"] = str(int(mean_ms))
    (f["gw_5xx_peak"], _), _ = T.top(T.group(gw, lambda r: hm(r["t"]), lambda r: r["status"] >= 500))
    f["gw_5xx_h02"] = T.count(gw, lambda r: r["status"] >= 500 and r["t"].hour == 2)
    f["gw_5xx_h03"] = T.count(gw, lambda r: r["status"] >= 500 and r["t"].hour == 3)
    f["gw_499"] = T.count(gw, lambda r: r["status"] == 499)

    oj = T.parse_jsonl(texts["orders-api.jsonl"])
    f["oj_error"] = T.count(oj, lambda r: r["level"] == "ERROR")
    f["oj_error_504"] = T.count(oj, lambda r: r["level"] == "ERROR" and r.get("http.status") == 504)
    (f["oj_err_user"], f["oj_err_user_n"]), _ = T.top(T.group(oj, lambda r: r.get("user.id"), lambda r: r["level"] == "ERROR"))
    big = max((r for r in oj if "http.latency_ms" in r), key=lambda r: r["http.latency_ms"])
    f["oj_max_lat"], f["oj_max_route"] = big["http.latency_ms"], big["http.route"]
    f["oj_users"] = len({r["user.id"] for r in oj if "user.id" in r})
    (f["oj_timeout_peak"], _), _ = T.top(T.group(oj, lambda r: hm(r["t"]), lambda r: r.get("error.kind") == "UpstreamTimeout"))

    inv = T.parse_logfmt(texts["inventory-sync.log"])
    f["inv_error"] = T.count(inv, lambda r: r["level"] == "error")
    (f["inv_warn_wh"], f["inv_warn_wh_n"]), _ = T.top(T.group(inv, lambda r: r["warehouse"], lambda r: r["level"] == "warn"))
    big = max((r for r in inv if "took_ms" in r), key=lambda r: int(r["took_ms"]))
    f["inv_max_took"], f["inv_max_wh"] = int(big["took_ms"]), big["warehouse"]
    f["inv_bk77120"] = T.count(inv, lambda r: r.get("sku") == "BK-77120" and r["msg"] == "stock mismatch")

    cat = T.parse_java(texts["catalog-service.log"])
    f["cat_ste"] = T.count(cat, lambda e: "SocketTimeoutException" in e["text"])
    f["cat_ste_lines"] = texts["catalog-service.log"].count("SocketTimeoutException")
    f["cat_oom"] = T.count(cat, lambda e: "OutOfMemoryError" in e["text"])
    f["cat_npe"] = T.count(cat, lambda e: "NullPointerException" in e["text"])
    f["cat_error"] = T.count(cat, lambda e: e["level"] == "ERROR")
    (f["cat_err_logger"], _), _ = T.top(T.group(cat, lambda e: e["logger"], lambda e: e["level"] == "ERROR"))
    f["cat_first_oom"] = hms(min(e["t"] for e in cat if "OutOfMemoryError" in e["text"]))

    ml = T.parse_generic(texts["mailer.log"])
    end = ml[-1]["t"]
    f["ml_warn_last10"] = T.count(ml, lambda r: r["level"] == "WARN" and (end - r["t"]).total_seconds() <= 600)
    assert T.count(ml, lambda r: r["level"] == "WARN" and 540 <= (end - r["t"]).total_seconds() <= 780) == 0
    tmpl = T.group(ml, lambda r: __import__("re").sub(r"\d+", "N", r["msg"]), lambda r: r["level"] == "ERROR")
    (f["ml_top_err"], f["ml_top_err_n"]), _ = T.top(tmpl)
    f["ml_err_window"] = T.count(ml, lambda r: r["level"] == "ERROR" and "02:40" <= hm(r["t"]) < "02:50")
    assert T.count(ml, lambda r: r["level"] == "ERROR" and ("02:37" <= hm(r["t"]) < "02:41" or "02:49" <= hm(r["t"]) < "02:53")) == 0

    sy = T.parse_3164(texts["messages"])
    f["sy_nginx_restarts"] = T.count(sy, lambda r: "nginx.service: Scheduled restart job" in r["msg"])
    assert f["sy_nginx_restarts"] == T.count(sy, lambda r: r["msg"].startswith("Started nginx.service"))
    f["sy_deleted"] = T.count(sy, lambda r: 'msg="container deleted"' in r["msg"])
    (f["sy_top_prog"], f["sy_top_prog_n"]), _ = T.top(T.group(sy, lambda r: r["prog"]))

    p5 = T.parse_5424(texts["payments-5424.log"])
    f["p5_pay_err"] = T.count(p5, lambda r: r["app"] == "payments" and r["sev"] == 3)
    assert T.count(p5, lambda r: r["app"] == "payments" and r["sev"] < 3) == 0
    (f["p5_decl_merchant"], f["p5_decl_n"]), _ = T.top(T.group(p5, lambda r: r["sd"].get("merchant"), lambda r: r["msgid"] == "DECLINE"))
    f["p5_first_crit"] = hms(min(r["t"] for r in p5 if r["sev"] == 2))

    jn = T.parse_journal(texts["journal.json"])
    f["jn_ledger_err"] = T.count(jn, lambda r: r["_SYSTEMD_UNIT"] == "ledger-worker.service" and r["prio"] <= 3)
    (f["jn_err_unit"], f["jn_err_unit_n"]), _ = T.top(T.group(jn, lambda r: r["_SYSTEMD_UNIT"], lambda r: r["prio"] <= 3))
    f["jn_ledger_last"] = hms(max(r["t"] for r in jn if r["_SYSTEMD_UNIT"] == "ledger-worker.service"))

    hp = T.parse_haproxy(texts["haproxy.log"])
    f["hp_503"] = T.count(hp, lambda r: r["status"] == 503)
    (f["hp_503_srv"], f["hp_503_srv_n"]), _ = T.top(T.group(hp, lambda r: r["server"], lambda r: r["status"] == 503))
    f["hp_503_be"] = next(r["backend"] for r in hp if r["server"] == f["hp_503_srv"])
    slow = max(hp, key=lambda r: r["Tr"])
    f["hp_slow_srv"], f["hp_max_tr"] = slow["server"], slow["Tr"]
    means = {}
    for r in hp:
        if r["Tr"] >= 0:
            means.setdefault(r["server"], []).append(r["Tr"])
    assert max(means, key=lambda s: sum(means[s]) / len(means[s])) == f["hp_slow_srv"]

    pg = T.parse_postgres(texts["postgresql.log"])
    f["pg_over_1s"] = T.count(pg, lambda r: (r["duration"] or 0) > 1000)
    slow = max((r for r in pg if r["duration"]), key=lambda r: r["duration"])
    f["pg_max"], f["pg_max_table"] = f"{slow['duration']:.3f}", "order_items"
    assert "order_items" in slow["query"]
    f["pg_deadlocks"] = T.count(pg, lambda r: r["msg"] == "deadlock detected")
    (f["pg_slow_db"], _), _ = T.top(T.group(pg, lambda r: r["db"], lambda r: (r["duration"] or 0) > 1000))

    my = T.parse_mysql_slow(texts["mysql-slow.log"])
    f["my_entries"] = len(my)
    f["my_over_10"] = T.count(my, lambda r: r["query_time"] > 10)
    slow = max(my, key=lambda r: r["query_time"])
    f["my_max"], f["my_max_table"] = f"{slow['query_time']:.6f}", "invoice_lines"
    assert "invoice_lines" in slow["query"]
    (f["my_top_user"], _), _ = T.top(T.group(my, lambda r: r["user"]))

    au = T.parse_auth(texts["auth.log"])
    f["au_failed"] = T.count(au, lambda r: r["failed"])
    (f["au_top_ip"], f["au_top_ip_n"]), _ = T.top(T.group(au, lambda r: r["ip"], lambda r: r["failed"]))
    f["au_failed_ips"] = len({r["ip"] for r in au if r["failed"]})
    accepted = {r["user"] for r in au if r["accepted"] and r["ip"] == f["au_top_ip"]}
    assert len(accepted) == 1
    f["au_top_ip_user"] = accepted.pop()

    kn = T.parse_kern(texts["kern.log"])
    f["kn_kills"] = T.count(kn, lambda r: r["killed"])
    (f["kn_top_comm"], f["kn_top_comm_n"]), _ = T.top(T.group(kn, lambda r: r["killed"][1], lambda r: r["killed"]))
    f["kn_last_top"] = hms(max(r["t"] for r in kn if r["killed"] and r["killed"][1] == f["kn_top_comm"]))
    f["kn_segv"] = sorted(T.group(kn, lambda r: r["segfault"], lambda r: r["segfault"]))
    oom_0244 = [r for r in kn if r["killed"] and hm(r["t"]) == "02:44"]
    assert len(oom_0244) == 1
    f["kn_0244_pid"] = str(oom_0244[0]["killed"][0])
    return f


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
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if (fx / name).read_text() != text]
        if (HERE / "queries-dev.jsonl").read_text() != out_cases:
            stale.append("queries-dev.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text)
    (HERE / "queries-dev.jsonl").write_text(out_cases)
    total = sum(len(t.encode()) for t in texts.values())
    print(f"queries: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")


if __name__ == "__main__":
    main()
