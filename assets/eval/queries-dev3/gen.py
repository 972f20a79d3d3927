#!/usr/bin/env python3
"""Generates the `queries-dev3` set: the fixture logs (seeded), their truth (parsed back from
the written files by `truth.py`) and `queries-dev3.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev3.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import random
import sys
from datetime import timedelta
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20280117
HERE = Path(__file__).resolve().parent
MAX_BYTES = 4_000_000

FIXTURES = [
    ("caddy-access.json", W.caddy_access), ("envoy-access.log", W.envoy_access), ("rabbit@mq-01.log", W.rabbitmq_log),
    ("celery-worker.log", W.celery_log), ("jenkins.log", W.jenkins_log), ("exim_mainlog", W.exim_log),
    ("coredns.log", W.coredns_log), ("fail2ban.log", W.fail2ban_log), ("audit.log", W.audit_log),
    ("es-search-slowlog.log", W.es_slowlog), ("riders-gw.log", W.riders_gw), ("basket-svc.ecs.json", W.basket_ecs),
    ("storefront-production.log", W.rails_log),
]


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    return t.strftime("%H:%M")


def hms(t):
    return t.strftime("%H:%M:%S")


def build_fixtures():
    return {name: writer(random.Random(SEED * 100 + i)) for i, (name, writer) in enumerate(FIXTURES)}


def same_by_any_definition(values, p):
    a = T.percentile_nearest_rank(values, p)
    b = T.percentile_linear(values, p)
    c = T.percentile_weibull(values, p)
    d = T.percentile_lower(values, p)
    assert abs(a - b) < 1e-9 and abs(a - c) < 1e-9 and abs(a - d) < 1e-9, (p, a, b, c, d)
    return a


def last_window_clean(rows, pred, end, minutes, slack):
    """No matching row within `slack` minutes either side of "the last `minutes` minutes"."""
    lo, hi = (minutes - slack) * 60, (minutes + slack) * 60
    assert T.count(rows, lambda r: pred(r) and lo <= (end - r["t"]).total_seconds() <= hi) == 0


def clock_window(rows, pred, a, b, slack=5):
    """The rows matching `pred` in [a, b) ("HH:MM"), asserting none lies within `slack`
    minutes outside either edge (so "between a and b" cannot be read two ways)."""
    def minute(r):
        return r["t"].hour * 60 + r["t"].minute

    lo = int(a[:2]) * 60 + int(a[3:])
    hi = int(b[:2]) * 60 + int(b[3:])
    assert T.count(rows, lambda r: pred(r) and (lo - slack <= minute(r) < lo or hi <= minute(r) < hi + slack)) == 0
    return T.count(rows, lambda r: pred(r) and lo <= minute(r) < hi)


def peak_minute(rows, pred):
    [(m, _)] = T.ranked(T.group(rows, lambda r: hm(r["t"]), pred))
    return m


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    # --- caddy-access.json
    ca = T.parse_caddy(texts["caddy-access.json"])
    assert len(ca) == 1800
    f["ca_502"] = T.count(ca, lambda r: r["status"] == 502)
    assert f["ca_502"] == texts["caddy-access.json"].count('"status":502') == 187
    f["ca_503"] = T.count(ca, lambda r: r["status"] == 503)
    assert f["ca_503"] == 64
    f["ca_502_window"] = clock_window(ca, lambda r: r["status"] == 502, "14:00", "14:30")
    assert f["ca_502_window"] == 171
    f["ca_502_peak"] = peak_minute(ca, lambda r: r["status"] == 502)
    assert f["ca_502_peak"] == "14:11"
    f["ca_first_502"] = hms(min(r["t"] for r in ca if r["status"] == 502))
    assert f["ca_first_502"] == "14:07:12"
    [(f["ca_top_ip"], f["ca_top_ip_n"])] = T.ranked(T.group(ca, lambda r: r["ip"]))
    assert (f["ca_top_ip"], f["ca_top_ip_n"]) == ("198.51.100.147", 183)
    f["ca_distinct_ip"] = len({r["ip"] for r in ca})
    f["ca_least_host"], f["ca_least_host_n"] = T.least(T.group(ca, lambda r: r["host"]))
    assert (f["ca_least_host"], f["ca_least_host_n"]) == ("partners.amberline.example", 43)
    f["ca_delete_ok"] = T.count(ca, lambda r: r["method"] == "DELETE" and r["path"].startswith("/api/cart/items/")
                                and 200 <= r["status"] < 300)
    assert f["ca_delete_ok"] == 96
    p95 = same_by_any_definition([r["duration"] for r in ca], 95)
    assert p95 == 1.284
    f["ca_p95"] = ["1.284", "1284"]

    # --- envoy-access.log
    en = T.parse_envoy(texts["envoy-access.log"])
    f["en_uf"] = T.count(en, lambda r: r["flags"] == "UF")
    assert f["en_uf"] == 118 == T.count(en, lambda r: "UF" in r["flags"])
    [(top_up, _)] = T.ranked(T.group(en, lambda r: r["upstream"], lambda r: r["flags"] == "UF"))
    assert top_up == "10.42.7.23:8080"
    f["en_uf_host"] = "10.42.7.23"
    f["en_503_window"] = clock_window(en, lambda r: r["status"] == 503, "14:05", "14:25")
    assert f["en_503_window"] == 162
    f["en_uo_peak"] = peak_minute(en, lambda r: r["flags"] == "UO")
    assert f["en_uo_peak"] == "14:14"
    basket = [r["duration"] for r in en if r["authority"] == "basket-svc"]
    assert sum(basket) == 213 * len(basket)
    f["en_basket_mean"] = "213"

    # --- rabbit@mq-01.log
    rb = T.parse_rabbitmq(texts["rabbit@mq-01.log"])
    alarm_set = [r["t"] for r in rb if r["msg"].startswith("memory resource limit alarm set on node")]
    alarm_clear = [r["t"] for r in rb if r["msg"].startswith("memory resource limit alarm cleared on node")]
    f["rb_first_alarm"], f["rb_last_clear"] = hms(min(alarm_set)), hms(max(alarm_clear))
    assert (f["rb_first_alarm"], f["rb_last_clear"]) == ("13:31:12", "14:19:41") and len(alarm_set) == 2
    hb = [r for r in rb if "missed heartbeats" in r["text"]]
    f["rb_heartbeat"] = len(hb)
    assert f["rb_heartbeat"] == 73 == texts["rabbit@mq-01.log"].count("missed heartbeats")
    assert all(r["msg"].startswith("closing AMQP connection") for r in hb)

    # --- celery-worker.log
    cl = T.parse_celery(texts["celery-worker.log"])
    failed = lambda r: r["outcome"] == "raised"  # noqa: E731
    [(f["cl_top_fail"], _)] = T.ranked(T.group(cl, lambda r: r["task"], failed))
    assert f["cl_top_fail"] == "orders.tasks.reserve_slot"
    f["cl_top_fail_short"] = "reserve_slot"
    f["cl_rs_peak"] = peak_minute(cl, lambda r: failed(r) and r["task"] == "orders.tasks.reserve_slot")
    assert f["cl_rs_peak"] == "14:12"
    f["cl_retry"] = T.count(cl, lambda r: r["outcome"] == "retry")
    assert f["cl_retry"] == 84 == texts["celery-worker.log"].count("] retry: ")
    rts = [r["runtime"] for r in cl if r["task"] == "notify.tasks.send_receipt" and r["outcome"] == "succeeded"]
    assert len(rts) == 180 and abs(sum(rts) / len(rts) - 0.412) < 1e-9
    f["cl_receipt_mean"] = ["0.412", "412 ms", "412ms", "412 毫秒", "412毫秒"]

    # --- jenkins.log
    jk = T.parse_jenkins(texts["jenkins.log"])
    deploy = [r for r in jk if r["job"] == "amberline/basket-svc/deploy-prod"]
    f["jk_1841"] = hms(next(r["t"] for r in deploy if r["build"] == 1841))
    f["jk_deploy_last_ok"] = hms(max(r["t"] for r in deploy if r["result"] == "SUCCESS"))
    assert (f["jk_1841"], f["jk_deploy_last_ok"]) == ("13:58:31", "14:23:47")
    [(f["jk_top_fail_job"], _)] = T.ranked(T.group(jk, lambda r: r["job"], lambda r: r["result"] == "FAILURE"))
    assert f["jk_top_fail_job"] == "amberline/storefront/integration"

    # --- exim_mainlog
    ex = T.parse_exim(texts["exim_mainlog"])
    f["ex_bounce"] = T.count(ex, lambda r: r["flag"] == "**")
    assert f["ex_bounce"] == 61
    defer = lambda r: r["flag"] == "=="  # noqa: E731
    top3 = T.ranked(T.group(ex, lambda r: r["domain"], defer), 3)
    f["ex_defer_top3"] = [d for d, _ in top3]
    assert f["ex_defer_top3"] == ["mailhaven.example", "postbox-uk.example", "inboxly.example"]
    f["ex_defer_top_n"] = top3[0][1]
    assert f["ex_defer_top_n"] == 66
    end = ex[-1]["t"]
    assert hms(end) == "14:59:58" and end == max(r["t"] for r in ex)
    last_window_clean(ex, defer, end, 30, 4)
    f["ex_defer_last30"] = T.count(ex, lambda r: defer(r) and (end - r["t"]).total_seconds() <= 1800)
    assert f["ex_defer_last30"] == 68
    f["ex_rejected"] = T.count(ex, lambda r: r["rejected_rcpt"])
    assert f["ex_rejected"] == 79

    # --- coredns.log
    dn = T.parse_coredns(texts["coredns.log"])
    sf = lambda r: r["rcode"] == "SERVFAIL"  # noqa: E731
    [(top_name, _)] = T.ranked(T.group(dn, lambda r: r["name"], sf))
    assert top_name == "api.paywell.example."
    f["dn_top_servfail"] = "api.paywell.example"
    f["dn_servfail_peak"] = peak_minute(dn, sf)
    assert f["dn_servfail_peak"] == "14:35"
    f["dn_first_paywell_sf"] = hms(min(r["t"] for r in dn if sf(r) and r["name"] == "api.paywell.example."))
    assert f["dn_first_paywell_sf"] == "14:32:07"
    by_dur = sorted(dn, key=lambda r: -r["duration"])
    assert by_dur[0]["duration"] > 6 > 4.1 > by_dur[1]["duration"]
    f["dn_slowest"], f["dn_slowest_name"] = by_dur[0]["dur_text"][:5], by_dur[0]["name"].rstrip(".")
    assert (f["dn_slowest"], f["dn_slowest_name"]) == ("6.412", "cdn.grocer-img.example")

    # --- fail2ban.log
    fb = T.parse_fail2ban(texts["fail2ban.log"])
    ban = lambda r: r["action"] == "Ban"  # noqa: E731
    f["fb_bans"] = T.count(fb, ban)
    assert f["fb_bans"] == 167 == texts["fail2ban.log"].count("] Ban ")
    [(f["fb_top_jail"], f["fb_top_jail_n"])] = T.ranked(T.group(fb, lambda r: r["jail"], ban))
    assert (f["fb_top_jail"], f["fb_top_jail_n"]) == ("sshd", 88)
    f["fb_distinct"] = len({r["ip"] for r in fb if ban(r)})
    [(f["fb_peak_hour"], _)] = T.ranked(T.group(fb, lambda r: r["t"].hour, ban))
    assert f["fb_peak_hour"] == 13
    f["fb_window"] = clock_window(fb, ban, "13:00", "13:30")
    assert f["fb_window"] == 62
    [(f["fb_top_ip"], f["fb_top_ip_n"])] = T.ranked(T.group(fb, lambda r: r["ip"], ban))
    assert (f["fb_top_ip"], f["fb_top_ip_n"]) == ("203.0.113.186", 9)
    f["fb_top_ip_first"] = hms(min(r["t"] for r in fb if ban(r) and r["ip"] == f["fb_top_ip"]))
    assert f["fb_top_ip_first"] == "12:07:44"

    # --- audit.log
    au = T.parse_audit(texts["audit.log"])
    f["au_failed"] = T.count(au, lambda r: "res=failed" in r["body"])
    assert f["au_failed"] == 134 == texts["audit.log"].count("res=failed")
    [(f["au_top_addr"], _)] = T.ranked(T.group(au, lambda r: r["kv"].get("addr"),
                                               lambda r: r["type"] == "USER_AUTH" and "res=failed" in r["body"]))
    assert f["au_top_addr"] == "192.0.2.211"
    f["au_first_sudoers"] = hms(min(r["t"] for r in au if r["kv"].get("key") == "sudoers-change"))
    assert f["au_first_sudoers"] == "12:44:18"

    # --- es-search-slowlog.log
    es = T.parse_es_slowlog(texts["es-search-slowlog.log"])
    f["es_warn"] = T.count(es, lambda r: r["level"] == "WARN")
    assert f["es_warn"] == 77
    top = sorted(es, key=lambda r: -r["took_millis"])
    assert top[0]["took_millis"] > top[1]["took_millis"] > top[2]["took_millis"] > top[3]["took_millis"]
    f["es_max"], f["es_max_index"] = top[0]["took_millis"], top[0]["index"]
    assert (f["es_max"], f["es_max_index"]) == (23916, "orders-2028.01")
    f["es_2nd_node"], f["es_2nd_index"] = top[1]["node"], top[1]["index"]
    assert (f["es_2nd_node"], f["es_2nd_index"]) == ("es-data-1", "recipes-v2")
    [(f["es_top_index"], _)] = T.ranked(T.group(es, lambda r: r["index"]))
    assert f["es_top_index"] == "products-v7"

    # --- riders-gw.log
    rg = T.parse_pipes(texts["riders-gw.log"])
    five = lambda r: r["status"] >= 500  # noqa: E731
    f["rg_5xx"] = T.count(rg, five)
    assert f["rg_5xx"] == 143
    [(f["rg_5xx_hour"], _)] = T.ranked(T.group(rg, lambda r: r["t"].hour, five))
    assert f["rg_5xx_hour"] == 14
    [(f["rg_429_rider"], _)] = T.ranked(T.group(rg, lambda r: r["rider"], lambda r: r["status"] == 429))
    assert f["rg_429_rider"] == "R-30877"
    assert same_by_any_definition([r["request_time"] for r in rg], 99) == 3.206
    f["rg_p99"] = ["3.206", "3206"]

    # --- basket-svc.ecs.json
    bk = T.parse_ecs(texts["basket-svc.ecs.json"])
    err = lambda r: r["log.level"] == "ERROR"  # noqa: E731
    f["bk_errors"] = T.count(bk, err)
    assert f["bk_errors"] == 188
    f["bk_err_peak"] = peak_minute(bk, err)
    assert f["bk_err_peak"] == "14:13"
    f["bk_err_users"] = len({r["user.id"] for r in bk if err(r)})
    slow = max(bk, key=lambda r: r["event.duration"])
    assert sorted(r["event.duration"] for r in bk)[-2] < 8e9
    assert (slow["event.duration"], slow["url.path"]) == (9387402113, "/v1/basket/checkout")
    f["bk_max_ms"] = ["9387.4", "9,387.4", "9387 ms", "9,387 ms", "9387ms", "9.387 s", "9.387s", "9.39 s", "9.39s", "9.387 秒",
                      "9387 毫秒", "9387毫秒"]
    f["bk_max_path"] = slow["url.path"]
    f["bk_last_amqp"] = hms(max(r["t"] for r in bk if "AmqpBlockedException" in r.get("error.type", "")))
    assert f["bk_last_amqp"] == "14:19:37"

    # --- storefront-production.log
    rl = T.parse_rails(texts["storefront-production.log"])
    assert all("status" in r and "t_start" in r for r in rl)
    f["rl_500"] = T.count(rl, lambda r: r["status"] == 500)
    assert f["rl_500"] == 106 == texts["storefront-production.log"].count("Completed 500 ")
    cf = [t for r in rl for t, m in r["errors"] if m.startswith("Faraday::ConnectionFailed")]
    f["rl_first_cf"] = hms(min(cf))
    assert f["rl_first_cf"] == "14:32:10"
    end = max(r["t"] for r in rl)
    last_window_clean(rl, lambda r: r["status"] == 500, end, 30, 2)
    f["rl_500_last30"] = T.count(rl, lambda r: r["status"] == 500 and (end - r["t"]).total_seconds() <= 1800)
    assert f["rl_500_last30"] == 74
    assert T.count(rl, lambda r: r["status"] == 500 and (end - r["t"]).total_seconds() <= 1800 + 120) == f["rl_500_last30"]
    slowest = sorted(rl, key=lambda r: -r["ms"])
    assert slowest[0]["ms"] == 12408 and slowest[1]["ms"] < 6000
    f["rl_max_ms"] = ["12408", "12,408", "12.408 s", "12.408s", "12.4 s", "12.4s"]
    f["rl_max_action"] = slowest[0]["action"]

    # the timelines must read one way only
    assert f["jk_1841"] < f["ca_first_502"] and f["dn_first_paywell_sf"] < f["rl_first_cf"]
    assert f["bk_last_amqp"] < f["rb_last_clear"]
    return f


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
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if not (fx / name).is_file() or (fx / name).read_text() != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{x} (not generated)" for x in extra]
        cases_file = HERE / "queries-dev3.jsonl"
        if not cases_file.is_file() or cases_file.read_text() != out_cases:
            stale.append("queries-dev3.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries-dev3: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text)
    (HERE / "queries-dev3.jsonl").write_text(out_cases)
    print(f"queries-dev3: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")
        for name, text in texts.items():
            print(f"  {name}: {text.count(chr(10))} lines, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
