#!/usr/bin/env python3
"""Generates the `queries-heldout8` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout8.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout8.jsonl
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

SEED = 20331027
HERE = Path(__file__).resolve().parent
SET = "queries-heldout8"
MAX_BYTES = 7_000_000

PROM, GRAF, TOM = "prometheus.log", "grafana.log", "localhost_access_log.2033-10-27.txt"
NOMAD, AIR, NGX, LDAP = "nomad-client-nmd-c3.log", "airflow-scheduler.log", "shop-edge-access.log", "slapd-ldap-1.log"
FIXTURES = [(PROM, W.prom_log), (GRAF, W.grafana_log), (TOM, W.tomcat_log), (NOMAD, W.nomad_log),
            (AIR, W.airflow_log), (NGX, W.nginx_log), (LDAP, W.slapd_log)]


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


def exact_mean_ms(values_ms):
    """The mean of integer milliseconds, asserted to be a whole millisecond."""
    s, k = sum(values_ms), len(values_ms)
    assert s % k == 0, (s, k)
    return s // k


def secs_ms(ms):
    """A millisecond figure asked in seconds (and the ms reading)."""
    out = [f"{ms / 1000:.3f}", str(ms)]
    if ms >= 1000:
        out.append(f"{ms:,}")
    if ms % 10 == 0:
        out.append(f"{ms / 1000:.2f}")
    return out


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    # ------------------------------------------------------------ nginx (shop edge)
    nt = texts[NGX]
    ng = T.parse_nginx(nt)
    st = lambda k: (lambda r: r["status"] == k)  # noqa: E731
    statuses = {r["status"] for r in ng}
    assert not any(r["size"] in statuses for r in ng), "an nginx size that reads like a status"
    f["ngx_502"] = T.count(ng, st(502))
    assert f["ngx_502"] == nt.count(" 502 ")
    f["ngx_504"] = T.count(ng, st(504))
    assert f["ngx_504"] == nt.count(" 504 ")
    f["ngx_502_window"] = clock_window(ng, st(502), "02:30", "03:00")
    assert f["ngx_502_window"] < f["ngx_502"]
    f["ngx_504_minute"] = hm(peak(ng, st(504), lambda r: T.minutes(r["t"])))
    assert not any(1.95 <= r["rt"] <= 2.05 for r in ng)
    f["ngx_slow"] = T.count(ng, lambda r: r["rt"] > 2)
    f["ngx_ips"] = len({r["ip"] for r in ng})
    top = T.ranked(T.group(ng, lambda r: r["ip"]), 3)
    f["ngx_top_ips"] = [ip for ip, _ in top]
    assert f["ngx_top_ips"] == [W.SCRAPER, W.NAT_MOBILE, W.KIOSK], top
    [(f["ngx_429_ip"], _)] = T.ranked(T.group(ng, lambda r: r["ip"], st(429)))
    assert f["ngx_429_ip"] == W.SCRAPER
    f["ngx_429_ip_total"] = T.count(ng, lambda r: r["ip"] == W.SCRAPER)
    by_path = T.ranked(T.group(ng, lambda r: r["path"]), 3)
    by_target = T.ranked(T.group(ng, lambda r: r["target"]), 2)
    assert [p for p, _ in by_path[:2]] == [p for p, _ in by_target] == ["/api/lifts/status", "/api/snow/report"], by_path
    f["ngx_second_path"] = by_path[1][0]
    f["ngx_second_5xx"] = T.count(ng, lambda r: r["path"] == f["ngx_second_path"] and r["status"] >= 500)
    co = [round(r["urt"] * 1000) for r in ng if r["method"] == "POST" and r["path"] == "/api/checkout"
          and r["status"] == 200]
    f["ngx_checkout_mean"] = exact_mean_ms(co)
    co_all = [round(r["urt"] * 1000) for r in ng if r["method"] == "POST" and r["path"] == "/api/checkout"
              and r["urt"] is not None]
    assert abs(sum(co_all) / len(co_all) - f["ngx_checkout_mean"]) > 5
    first502 = first(ng, lambda r: r["status"] == 502 and r["t"] >= W.KILLS[0])
    f["ngx_first_502_inc2"] = hms(first502)
    assert first502 - W.KILLS[0] < W.sec(2)
    last502 = last(ng, lambda r: r["status"] == 502 and r["t"] < W.T(3, 0))
    assert W.REVERT_UP - W.sec(10) <= last502 < W.REVERT_UP
    f["ngx_last_502"] = hms(last502)

    # ------------------------------------------------------------ Tomcat access log (passdesk)
    tt = texts[TOM]
    tc = T.parse_tomcat(tt)
    tstat = {r["status"] for r in tc}
    assert not any(r["size"] != "-" and int(r["size"]) in tstat for r in tc)
    f["tc_503"] = T.count(tc, st(503))
    assert f["tc_503"] == tt.count(" 503 ")
    f["tc_ips"] = len({r["ip"] for r in tc})
    passes = [r["ms"] for r in tc if r["method"] == "GET" and r["path"].startswith("/passdesk/api/passes/")]
    assert same_by_any_definition(passes, 95) == W.PASS_PLATEAU
    f["tc_pass_p95"] = secs_ms(W.PASS_PLATEAU)
    co_t = [r["ms"] for r in tc if r["method"] == "POST" and r["path"] == "/passdesk/api/checkout"]
    assert same_by_any_definition(co_t, 95) == W.CHECKOUT_PLATEAU
    f["tc_checkout_p95"] = secs_ms(W.CHECKOUT_PLATEAU)
    f["tc_checkout_mean"] = sum(co_t) / len(co_t)
    # the p95s hold whether or not a reader keeps only the 200s
    assert same_by_any_definition([r["ms"] for r in tc if r["method"] == "GET" and r["status"] == 200
                                   and r["path"].startswith("/passdesk/api/passes/")], 95) == W.PASS_PLATEAU
    assert same_by_any_definition([r["ms"] for r in tc if r["method"] == "POST" and r["status"] == 200
                                   and r["path"] == "/passdesk/api/checkout"], 95) == W.CHECKOUT_PLATEAU
    assert len({r["ip"] for r in tc if r["ip"].startswith("10.40.20.")}) == len(W.GATES)

    # ------------------------------------------------------------ slapd
    lt = texts[LDAP]
    ld = T.parse_slapd(lt)
    e49 = lambda r: r.get("tag") == 97 and r.get("err") == 49  # noqa: E731
    f["ldap_49"] = T.count(ld, e49)
    assert f["ldap_49"] == lt.count("err=49") == T.count(ld, lambda r: r.get("err") == 49)
    f["ldap_49_window"] = clock_window(ld, e49, "01:10", "01:50")
    f["ldap_dns_49"] = len({r["dn"] for r in ld if e49(r)})
    [(f["ldap_top_ip"], _)] = T.ranked(T.group(ld, lambda r: r["ip"], e49))
    assert f["ldap_top_ip"] == W.NMD_C3
    [(f["ldap_top_dn"], _)] = T.ranked(T.group(ld, lambda r: r["dn"], e49))
    assert f["ldap_top_dn"] == W.SVC_DN
    f["ldap_49_hour"] = peak(ld, e49, lambda r: r["t"].hour)
    svc49 = lambda r: e49(r) and r["dn"] == W.SVC_DN  # noqa: E731
    f["ldap_svc_first_fail"] = hms(first(ld, svc49))
    f["ldap_svc_last_fail"] = hms(last(ld, svc49))
    ok_svc = lambda r: r.get("tag") == 97 and r.get("err") == 0 and r.get("dn") == W.SVC_DN  # noqa: E731
    f["ldap_svc_first_ok_after"] = hms(first(ld, lambda r: ok_svc(r) and r["t"] > W.INC1_LAST))
    [mod] = [r for r in ld if r.get("mod_dn") == W.SVC_DN]
    f["ldap_mod"] = hms(mod["t"])
    assert T.count(ld, svc49) == f["ldap_49_window"]
    spray = [r for r in ld if e49(r) and r["ip"] == W.MON1 and W.SPRAY[0] <= r["t"] <= W.SPRAY[1]]
    f["spray_users"] = len({r["dn"] for r in spray})
    assert f["spray_users"] == W.SPRAY_USERS
    f["spray_first"] = hms(min(r["t"] for r in spray))
    f["spray_ip"] = W.SPRAY_IP
    f["spray_last"] = hms(max(r["t"] for r in spray))

    # ------------------------------------------------------------ nomad client
    mt = texts[NOMAD]
    nm = T.parse_hclog(mt)
    hb = lambda r: r["msg"] == "error heartbeating. retrying"  # noqa: E731
    f["nomad_hb"] = T.count(nm, hb)
    assert f["nomad_hb"] == W.HB_N == mt.count("error heartbeating")
    f.update(nomad_facts(nm, mt))

    # ------------------------------------------------------------ airflow
    at = texts[AIR]
    af = T.parse_airflow(at)
    tif = [r for r in af if r.get("kind") == "TaskInstance"]
    failed_ti = [r for r in tif if r["state"] == "failed"]
    [(f["af_top_failed_dag"], _)] = T.ranked(T.group(failed_ti, lambda r: r["dag_id"]))
    assert f["af_top_failed_dag"] == "turnstile_sync"
    ts_fail = [r for r in failed_ti if r["dag_id"] == "turnstile_sync"]
    runs_failed = [r for r in af if r.get("kind") == "DagRun" and r["dag_id"] == "turnstile_sync" and r["state"] == "failed"]
    f["af_ts_failed"] = len(ts_fail)
    assert f["af_ts_failed"] == len(runs_failed) == sum(1 for x in W.plan()["runs"] if x["fail"])
    last_fail = max(r["t"] for r in af if r["msg"].startswith("Marking task as FAILED. dag_id=turnstile_sync"))
    fail_lines = [r["t"] for r in af if "turnstile_sync" in r["msg"] and ("failed" in r["msg"] or "FAILED" in r["msg"])
                  and T.minutes(r["t"]) == T.minutes(last_fail)]
    assert all(T.minutes(x) == T.minutes(last_fail) for x in fail_lines)
    f["af_ts_last_fail"] = hm(last_fail)
    ok_pull = [r for r in tif if r["dag_id"] == "turnstile_sync" and r["task_id"] == "pull_scans" and r["state"] == "success"]
    us = [round(float(r["run_duration"]) * 1_000_000) for r in ok_pull]
    assert sum(us) % (1000 * len(us)) == 0
    f["af_pull_mean_ms"] = sum(us) // len(us) // 1000
    all_pull = [round(float(r["run_duration"]) * 1_000_000) for r in tif
                if r["dag_id"] == "turnstile_sync" and r["task_id"] == "pull_scans"]
    assert abs(sum(all_pull) / len(all_pull) / 1000 - f["af_pull_mean_ms"]) > 20
    push = [r for r in af if r["msg"].startswith("Marking task as ") and "task_id=push_nomad_var" in r["msg"]]
    f["af_push_first_fail"] = hms(min(r["t"] for r in push))
    f["af_set_pw"] = hms([r["t"] for r in tif if r["task_id"] == "set_new_password"][0])
    arch = [r for r in af if r["msg"].startswith("Marking task as ") and "dag_id=metrics_archive" in r["msg"]]
    f["af_archive_fail"] = hms(min(r["t"] for r in arch))

    # ------------------------------------------------------------ prometheus
    pt = texts[PROM]
    pr = T.parse_prometheus(pt)
    rw = lambda r: r["msg"] == "Failed to send batch, retrying"  # noqa: E731
    f["prom_rw"] = T.count(pr, rw)
    assert f["prom_rw"] == W.RW_N == pt.count("Failed to send batch")
    f["prom_rw_first"] = hms(first(pr, rw))
    f["prom_rw_last"] = hms(last(pr, rw))
    ef = lambda r: r["msg"] == "Evaluating rule failed"  # noqa: E731
    f["prom_rule_fail"] = T.count(pr, ef)
    assert f["prom_rule_fail"] == pt.count("Evaluating rule failed")
    [(f["prom_top_group"], _)] = T.ranked(T.group(pr, lambda r: r["group"], ef))
    assert f["prom_top_group"] == "passdesk.slo"
    grp = lambda r: ef(r) and r["group"] == "passdesk.slo"  # noqa: E731
    f["prom_slo_first"] = hms(first(pr, grp))
    f["prom_slo_last"] = hms(last(pr, grp))
    am = lambda r: r["msg"] == "Error sending alert"  # noqa: E731
    f["prom_am_first"] = hms(first(pr, am))
    f["prom_am_last"] = hms(last(pr, am))

    # ------------------------------------------------------------ grafana
    gt = texts[GRAF]
    gf = T.parse_grafana(gt)
    rc = [r for r in gf if r.get("msg") == "Request Completed"]
    g500 = lambda r: r["status"] == "500"  # noqa: E731
    f["gf_500"] = T.count(rc, g500)
    assert f["gf_500"] == gt.count("status=500 ")
    f["gf_500_minute"] = hm(peak(rc, g500, lambda r: T.minutes(r["time"])))
    assert f["gf_500_minute"] == hm(W.GF_500_PEAK)
    f["gf_err_window"] = clock_window(gf, lambda r: r["level"] == "error", "02:30", "03:00", key="time")
    assert T.count(gf, lambda r: r["level"] == "error") == gt.count("level=error")
    users_all = T.ranked(T.group(rc, lambda r: r["uname"]), 4)
    users_named = T.ranked(T.group(rc, lambda r: r["uname"], lambda r: r["uname"] != ""), 3)
    assert [u for u, _ in users_all[:3]] == [u for u, _ in users_named], (users_all, users_named)
    f["gf_top_users"] = [u for u, _ in users_named]
    dash = sorted((int(r["time_ms"]) for r in rc if r["path"].startswith("/api/dashboards/uid/")), reverse=True)
    assert dash[0] == W.DASH_MAX_MS and dash[1] < 3000
    f["gf_dash_max"] = ["11.206", "11.21", "11.2", "11206", "11,206"]
    s401 = [r for r in rc if r["status"] == "401" and r["remote_addr"] == W.SPRAY_IP]
    f["gf_spray_first"] = hms(min(r["time"] for r in s401))

    # ------------------------------------------------------------ the files agree with each other
    assert f["tc_503"] == f["ldap_49_window"] + 5            # every failed service bind is a 503 (+5 snow-report 503s)
    assert T.count(tc, lambda r: r["status"] == 503 and r["path"] == "/passdesk/api/gate/scans/export") == \
        sum(1 for x in W.plan()["runs"] if x["fail"] == 503)
    assert f["tc_checkout_mean"] == int(f["tc_checkout_mean"])
    assert T.count(rc, lambda r: r["status"] == "401" and r["remote_addr"] == W.SPRAY_IP) == 2 * W.SPRAY_USERS == len(spray)
    assert f["gf_spray_first"] == f["spray_first"]
    # ... second by second: a failed service bind is a Tomcat 503 that started in the same second
    # (its RESULT line may fall a second later), a spray 401 is a failed bind of the same second
    binds = sorted(r["t"] for r in ld if svc49(r))
    t503 = sorted(r["t"] for r in tc if r["status"] == 503 and r["path"] != "/passdesk/api/snow/report")
    assert len(binds) == len(t503) and all(W.sec(0) <= b - a <= W.sec(1) for a, b in zip(t503, binds))
    g401 = sorted(r["time"] for r in rc if r["status"] == "401" and r["remote_addr"] == W.SPRAY_IP)
    assert all(abs((T.minutes(a) + W.sec(a.second)) - b) <= W.sec(1) for a, b in zip(g401, sorted(r["t"] for r in spray)))
    # the timelines read one way only
    H = lambda x: tuple(int(p) for p in x.split(":"))  # noqa: E731
    assert H(f["ldap_mod"]) < H(f["ldap_svc_first_fail"]) < H(f["af_push_first_fail"])
    assert H(f["af_set_pw"]) < H(f["ldap_svc_first_fail"])
    assert H(f["ldap_svc_last_fail"]) < H(f["nomad_render"]) < H(f["ldap_svc_first_ok_after"])
    assert H(f["nomad_deploy_started"]) < H(f["prom_slo_first"])
    assert f["nomad_first_oom"] == f["ngx_first_502_inc2"]
    assert H(f["nomad_am_oom"]) < H(f["prom_am_first"]) < H(f["prom_am_last"])
    assert H(f["nomad_gave_up"]) < H(f["nomad_revert_started"]) < H(f["ngx_last_502"])
    assert H(f["prom_rw_first"]) < H(f["af_archive_fail"]) < H(f["prom_rw_last"])
    c504 = sorted(T.group(ng, lambda r: T.minutes(r["t"]), st(504)).values(), reverse=True)
    assert c504[0] >= c504[1] + 5, c504
    return f


def nomad_facts(nm, mt):
    f = {}
    evs = [r for r in nm if r["msg"] == "Task event"]
    ooms = [r for r in evs if r["type"] == "Terminated" and "OOM Killed" in r["kv_msg"]]
    assert len(ooms) == mt.count("OOM Killed") == len(W.KILLS) + 1
    f["nomad_first_oom"] = hms(ooms[0]["t"])
    f["nomad_oom_alloc"] = ooms[0]["alloc_id"]
    assert f["nomad_oom_alloc"] == W.nomad_ids()["new"] and ooms[0]["task"] == "passdesk"
    assert len({r["alloc_id"][:8] for r in nm if "alloc_id" in r}) == len({r["alloc_id"] for r in nm if "alloc_id" in r})
    [am] = [r for r in ooms if r["task"] == "alertmanager"]
    f["nomad_am_oom"] = hms(am["t"])
    [gave_up] = [r for r in nm if r["msg"] == "not restarting task" and r["task"] == "passdesk"]
    f["nomad_gave_up"] = hms(gave_up["t"])
    assert "Exceeded allowed attempts" in gave_up["reason"]
    [rendered] = [r for r in nm if r["msg"].startswith("(runner) rendered")]
    f["nomad_render"] = hms(rendered["t"])
    started = [r for r in evs if r["type"] == "Started" and r["task"] == "passdesk"]
    f["nomad_deploy_started"] = hms([r["t"] for r in started if r["alloc_id"] == W.nomad_ids()["new"]][0])
    f["nomad_revert_started"] = hms([r["t"] for r in started if r["alloc_id"] == W.nomad_ids()["revert"]][0])
    assert "passdesk:2.14.0" in mt and "passdesk:2.13.4" in mt
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
    assert len(rows) == 50
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
