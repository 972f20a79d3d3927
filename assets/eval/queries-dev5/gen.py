#!/usr/bin/env python3
"""Generates the `queries-dev5` set: the fixture logs (seeded), their truth (parsed back from
the written files by `truth.py`) and `queries-dev5.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev5.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20310605
HERE = Path(__file__).resolve().parent
MAX_BYTES = 4_300_000

FIXTURES = [
    (W.ALB_FILE, W.alb_log), (W.UWSGI_FILE, W.uwsgi_log), (W.PG_FILE, W.pg_csvlog), (W.KAFKA_FILE, W.kafka_log),
    (W.SUPERVISOR_FILE, W.supervisord_log), (W.APACHE_FILE, W.apache_error), (W.MONGO_A, W.mongo_a), (W.MONGO_B, W.mongo_b),
    (W.AUDIT_FILE, W.audit_log), (W.UWSGI_INI, lambda rng: W.UWSGI_INI_TEXT),
]

COUNTS = []  # every count an answer must hold, as registered by n()


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    COUNTS.append(x)
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
    if p == 50:
        assert abs(T.median(values) - a) < 1e-9
    return a


def minute_of(t):
    return t.hour * 60 + t.minute


def clock_window(rows, pred, a, b, tkey="t", slack=5):
    """The rows matching `pred` in [a, b) ("HH:MM"), asserting none lies within `slack`
    minutes outside either edge (so "between a and b" cannot be read two ways)."""
    lo = int(a[:2]) * 60 + int(a[3:])
    hi = int(b[:2]) * 60 + int(b[3:])
    m = lambda r: minute_of(r[tkey])  # noqa: E731
    assert T.count(rows, lambda r: pred(r) and (lo - slack <= m(r) < lo or hi <= m(r) < hi + slack)) == 0
    return T.count(rows, lambda r: pred(r) and lo <= m(r) < hi)


def peak_minute(rows, pred, tkey="t"):
    [(m, _)] = T.ranked(T.group(rows, lambda r: hm(r[tkey]), pred))
    return m


def peak_hour(rows, pred, tkey="t"):
    [(h, _)] = T.ranked(T.group(rows, lambda r: r[tkey].hour, pred))
    return h


def near(rows, t, seconds, tkey="t"):
    """How many records lie within `seconds` of t (a timeline must pick among them)."""
    return T.count(rows, lambda r: r[tkey] is not None and abs((r[tkey] - t).total_seconds()) <= seconds)


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    # --- the ALB access log
    text = texts[W.ALB_FILE]
    al = T.parse_alb(text)
    assert len(al) == 1700
    five = lambda r: r["status"] >= 500  # noqa: E731
    f["al_500"] = T.count(al, lambda r: r["status"] == 500)
    assert f["al_500"] == 209 == text.count(" 500 500 ") == text.count(" 500 ")
    assert T.count(al, lambda r: r["status"] == 503) == 123 and T.count(al, lambda r: r["status"] == 504) == 71
    assert {r["tg"] for r in al if r["status"] == 500} == {"tg-booking-api"}
    f["al_500_window"] = clock_window(al, lambda r: r["status"] == 500, "02:30", "02:45")
    assert f["al_500_window"] == 186
    f["al_5xx_hour"] = peak_hour(al, five)
    assert f["al_5xx_hour"] == 2
    f["al_5xx_minute"] = peak_minute(al, five)
    assert f["al_5xx_minute"] == "02:37"
    by_path = T.ranked(T.group(al, lambda r: r["path"], five), 6)
    f["al_top3_5xx_paths"] = [p for p, _ in by_path[:3]]
    f["al_next3_5xx_paths"] = [p for p, _ in by_path[3:]]
    assert f["al_top3_5xx_paths"] == ["/api/v2/appointments/", "/signal/v1/poll", "/api/v2/slots/"]
    assert f["al_next3_5xx_paths"] == ["/portal/dashboard", "/api/v2/clinicians/availability", "/portal/messages"]
    four = lambda r: 400 <= r["status"] < 500  # noqa: E731
    [(f["al_top4xx_ip"], _)] = T.ranked(T.group(al, lambda r: r["client_ip"], four))
    assert f["al_top4xx_ip"] == W.SCANNER
    f["al_top4xx_ip_404"] = T.count(al, lambda r: r["client_ip"] == W.SCANNER and r["status"] == 404)
    assert f["al_top4xx_ip_404"] == 67
    f["al_distinct_clients"] = len({r["client_ip"] for r in al})
    assert f["al_distinct_clients"] == 607
    clinics = [r["tt"] for r in al if r["path"] == "/api/v2/clinics/"]
    assert len(clinics) == 140 and all(r["status"] == 200 for r in al if r["path"] == "/api/v2/clinics/")
    assert round(sum(clinics) * 1000) == 137 * 140
    assert abs(same_by_any_definition(clinics, 95) - 0.412) < 1e-9
    f["al_clinics_p95"] = ["0.412", "412"]
    api = sorted((r for r in al if r["host"] == "api.marrowby.example"), key=lambda r: -r["tt"])
    assert api[0]["tt"] == 47.318 and api[1]["tt"] < 34
    big = sorted(al, key=lambda r: -r["sent"])
    assert big[0]["sent"] == 27311904 and big[1]["sent"] < 20_000_000
    f["al_biggest_file"] = big[0]["path"].rsplit("/", 1)[1]
    assert f["al_biggest_file"] == "IMG-20310604-0091.dcm"
    # the 503 spike of the portal, the chat 503s
    f["al_portal_503_minute"] = peak_minute(al, lambda r: r["status"] == 503 and r["host"] == "portal.marrowby.example")
    assert f["al_portal_503_minute"] == "03:14"
    f["al_chat_5xx_minute"] = peak_minute(al, lambda r: five(r) and r["host"] == "chat.marrowby.example")
    assert f["al_chat_5xx_minute"] == "03:41"
    assert {r["status"] for r in al if five(r) and r["host"] == "chat.marrowby.example"} == {503}
    assert {r["status"] for r in al if five(r) and r["host"] == "portal.marrowby.example"} == {503}
    [(m37, k37)] = T.ranked(T.group(al, lambda r: hm(r["t"]), five))
    assert m37 == "02:37" and T.ranked(T.group(al, lambda r: r["status"], lambda r: five(r) and hm(r["t"]) == "02:37"))[0][0] == 500

    # --- the uWSGI log of booking-api-1
    reqs, logs, master = T.parse_uwsgi(texts[W.UWSGI_FILE])
    assert len(reqs) == 1350
    lock = [e for e in logs if e["exc"] == "django.db.utils.OperationalError: canceling statement due to lock timeout"]
    f["uw_lock"] = len(lock)
    assert f["uw_lock"] == 64 == texts[W.UWSGI_FILE].count("lock timeout")
    assert T.count(reqs, lambda r: r["status"] == 500) == 70 == T.count(logs, lambda e: e["level"] == "ERROR")
    assert peak_minute(reqs, lambda r: r["status"] == 500) == "02:37"
    [(f["uw_top500_path"], _)] = T.ranked(T.group(reqs, lambda r: r["path"], lambda r: r["status"] == 500))
    assert f["uw_top500_path"] == "/api/v2/appointments/"
    slots = [r["ms"] for r in reqs if r["path"] == "/api/v2/slots/"]
    assert sum(slots) == 683 * len(slots) and len(slots) % 2  # the median (an earlier turn) is one value
    f["uw_slots_mean"] = ["683"]
    assert same_by_any_definition([r["ms"] for r in reqs], 90) == 1270
    f["uw_p90"] = ["1270", "1,270", "1.27"]
    slow = sorted(reqs, key=lambda r: -r["ms"])
    assert [r["ms"] for r in slow[:3]] == [47312, 33871, 29450] and slow[3]["ms"] < 25000
    f["uw_slowest_start"] = hms(slow[0]["t"])
    assert f["uw_slowest_start"] == "03:27:44" and slow[0]["path"] == "/api/v2/exports/clinic-report.csv"
    f["uw_max_ms"] = ["47312", "47,312", "47.312"]  # not "47.3": the ALB's 47.318 s (the earlier turn) holds it
    hk = [m for m in master if m["msg"].startswith("*** HARAKIRI ON WORKER")]
    assert [hms(m["t"]) for m in hk] == ["02:35:42", "02:36:19", "02:38:57", "02:40:03"]
    assert all("/api/v2/reports/daily" in m["msg"] for m in master if m["msg"].startswith("HARAKIRI [core"))

    # --- the PostgreSQL csvlog
    text = texts[W.PG_FILE]
    pg = T.parse_pg_csv(text)
    err = lambda r: r["error_severity"] == "ERROR"  # noqa: E731
    fatal = lambda r: r["error_severity"] == "FATAL"  # noqa: E731
    assert T.count(pg, err) == 238 == text.count(",ERROR,")
    f["pg_fatal"] = T.count(pg, fatal)
    assert f["pg_fatal"] == 117 == text.count(",FATAL,")
    assert dict(T.group(pg, lambda r: r["sql_state_code"], fatal)) == {"53300": 66, "28P01": 41, "57P01": 1, "25P03": 9}
    lt = lambda r: r["message"] == "canceling statement due to lock timeout"  # noqa: E731
    assert T.count(pg, lt) == 197 == text.count("lock timeout") and T.count(pg, lambda r: lt(r) and r["sql_state_code"] != "55P03") == 0
    [(f["pg_top_err_user"], _)] = T.ranked(T.group(pg, lambda r: r["user_name"], err))
    assert f["pg_top_err_user"] == "booking_app"
    [(f["pg_top_err_state"], _)] = T.ranked(T.group(pg, lambda r: r["sql_state_code"], lambda r: err(r) and r["user_name"] == "booking_app"))
    assert f["pg_top_err_state"] == "55P03"
    wait = lambda r: " still waiting for " in r["message"]  # noqa: E731
    assert T.count(pg, wait) == 198 == text.count(" still waiting for ")
    assert peak_hour(pg, wait) == 2
    f["pg_wait_minute"] = peak_minute(pg, wait)
    assert f["pg_wait_minute"] == "02:37"
    durs = [r for r in pg if r["duration_milli"] is not None]
    assert len(durs) == 380 == text.count("duration: ")
    assert sum(r["duration_milli"] for r in durs) == 2_846_250 * 380
    f["pg_dur_mean"] = ["2846.25", "2,846.25", "2846.3", "2,846.3", "2846.2", "2,846.2", "2.846"]
    durs.sort(key=lambda r: -r["duration_milli"])
    assert durs[0]["duration_milli"] == 494004117 and "ALTER TABLE" in durs[0]["message"] and durs[1]["duration_milli"] == 88412550
    f["pg_max_dur"] = ["494004.117", "494004", "494,004", "494.004", "494.0 s", "494 s", "494s", "8.23 min", "8.2 min"]
    reload1 = [r for r in pg if r["message"] == "received SIGHUP, reloading configuration files"]
    assert [hms(r["t"]) for r in reload1] == ["01:05:17", "03:48:02"]
    alter = [r for r in pg if r["message"].startswith("statement: ALTER TABLE")]
    assert [hms(r["t"]) for r in alter] == ["02:33:05"] and alter[0]["process_id"] == "31877"
    term = [r for r in pg if r["sql_state_code"] == "57P01"]
    assert [(hms(r["t"]), r["process_id"]) for r in term] == [("02:41:19", "31502")]
    assert alter[0]["t"] < min(r["t"] for r in pg if lt(r)) and max(r["t"] for r in pg if lt(r)) < term[0]["t"]

    # --- the Kafka broker log
    text = texts[W.KAFKA_FILE]
    kf = T.parse_kafka(text)
    shrink = lambda r: r["isr"] is not None and r["isr"][0] == "Shrinking"  # noqa: E731
    expand = lambda r: r["isr"] is not None and r["isr"][0] == "Expanding"  # noqa: E731
    f["kf_shrinks"] = T.count(kf, shrink)
    assert f["kf_shrinks"] == 95 == text.count("Shrinking ISR")
    f["kf_expands"] = T.count(kf, expand)
    assert f["kf_expands"] == 99 == text.count("Expanding ISR")
    top = T.ranked(T.group(kf, lambda r: r["isr"][1], shrink), 2)
    assert top == [("notify-events-7", 8), ("notify-events-4", 6)], top
    f["kf_top_shrink_last"] = hms(max(r["t"] for r in kf if shrink(r) and r["isr"][1] == "notify-events-7"))
    assert f["kf_top_shrink_last"] == "03:36:14"
    nere = [r for r in kf if r["nere"]]
    assert len(nere) == 68 == text.count("NotEnoughReplicasException")
    assert {r["t"].hour for r in nere} == {1}
    [(bucket, _)] = T.ranked(T.group(nere, lambda r: f"{r['t'].hour:02d}:{r['t'].minute // 10}0"))
    assert bucket == "01:50"
    f["kf_nere_bucket"] = ["01:50"]
    first_shrink = min(r["t"] for r in kf if shrink(r) and hm(r["t"]) >= "01:45")
    assert hms(first_shrink) == "01:47:42"
    fetch = [hms(r["t"]) for r in kf if "Error in response for fetch request" in r["msg"]]
    assert fetch[0] == "01:47:12" and "02:52:05" in fetch
    assert hms(min(r["t"] for r in nere)) == "01:48:10"
    assert hms(min(r["t"] for r in kf if shrink(r) and r["t"].hour == 2 and r["t"].minute >= 50)) == "02:52:11"

    # --- supervisord.log
    sv = T.parse_supervisord(texts[W.SUPERVISOR_FILE])
    f["sv_pdf_exits"] = T.count(sv, lambda r: r["exited"] == "pdf-renderer")
    assert f["sv_pdf_exits"] == 88 == texts[W.SUPERVISOR_FILE].count("exited: pdf-renderer") == T.count(sv, lambda r: r["exited"] == "pdf-renderer" and r["expected"])
    gave = [(hms(r["t"]), r["msg"].split()[2]) for r in sv if r["msg"].startswith("gave up:")]
    assert gave == [("01:51:40", "notify-worker_01"), ("03:13:24", "portal-app")]
    kill = [r for r in sv if r["how"] == "terminated by SIGKILL"]
    assert [(hms(r["t"]), r["exited"]) for r in kill] == [("03:12:58", "portal-app")]
    assert hms(min(r["t"] for r in sv if r["exited"] and r["exited"].startswith("notify-worker"))) == "01:48:31"

    # --- the Apache error log
    ap = T.parse_apache_error(texts[W.APACHE_FILE])
    denied = lambda r: r["code"] == "AH01630"  # noqa: E731
    [(f["ap_top_denied"], f["ap_top_denied_n"])] = T.ranked(T.group(ap, lambda r: r["client"], denied))
    assert (f["ap_top_denied"], f["ap_top_denied_n"]) == ("10.50.3.77", 71)
    [(path, _)] = T.ranked(T.group(ap, lambda r: r["msg"].rsplit(": ", 1)[1], lambda r: denied(r) and r["client"] == "10.50.3.77"))
    assert path == "/var/www/portal/.git/config"
    f["ap_top_denied_path"] = ".git/config"
    f["ap_denied_window"] = clock_window(ap, denied, "01:00", "02:00")
    assert f["ap_denied_window"] == 84
    f["ap_01114"] = T.count(ap, lambda r: r["code"] == "AH01114")
    assert f["ap_01114"] == 131 == texts[W.APACHE_FILE].count("AH01114") == T.count(ap, lambda r: r["code"] == "AH00957")
    assert peak_hour(ap, lambda r: r["code"] == "AH01114") == 3
    f["ap_01114_minute"] = peak_minute(ap, lambda r: r["code"] == "AH01114")
    assert f["ap_01114_minute"] == "03:14"
    first_refused = min(r["t"] for r in ap if r["code"] == "AH00957")
    assert hms(first_refused) == "03:12:59" and all(r["errno"] == "(111)Connection refused" for r in ap if r["code"] == "AH00957")
    to = [r["t"] for r in ap if r["code"] == "AH01102"]
    assert len(to) == 23 and max(to) < first_refused and hms(min(to)) == "03:09:41"

    # --- the two mongod logs
    ma = T.parse_mongo(texts[W.MONGO_A])
    mb = T.parse_mongo(texts[W.MONGO_B])
    slowq = lambda r: r["msg"] == "Slow query"  # noqa: E731
    assert T.count(ma, slowq) == 241 == texts[W.MONGO_A].count("Slow query")
    assert texts[W.MONGO_B].count("Slow query") == 163
    f["mb_slow"] = T.count(mb, slowq)
    assert f["mb_slow"] == 163
    [(ns, _)] = T.ranked(T.group(ma, lambda r: r["attr"]["ns"], slowq))
    assert ns == "chat.messages"
    msgs = [r["attr"]["durationMillis"] for r in ma if slowq(r) and r["attr"]["ns"] == "chat.messages"]
    assert sum(msgs) == 287 * len(msgs)
    f["ma_msgs_mean"] = ["287"]
    f["ma_threads"] = T.count(ma, lambda r: slowq(r) and r["attr"]["ns"] == "chat.threads")
    assert f["ma_threads"] == 66 == texts[W.MONGO_A].count("chat.threads")
    [(f["ma_collscan_app"], _)] = T.ranked(T.group(ma, lambda r: r["attr"]["appName"],
                                                   lambda r: slowq(r) and r["attr"].get("planSummary") == "COLLSCAN"))
    assert f["ma_collscan_app"] == "retention-job"
    top_b = T.ranked(T.group(mb, lambda r: r["attr"]["ns"], slowq), 5)
    f["mb_ns_4_5"] = [p for p, _ in top_b[3:5]]
    assert f["mb_ns_4_5"] == ["chat.presence", "chat.audit"]
    assert [p for p, _ in T.ranked(T.group(ma, lambda r: r["attr"]["ns"], slowq), 5)[3:5]] != f["mb_ns_4_5"]
    bd = [r["attr"]["durationMillis"] for r in mb if slowq(r)]
    assert max(bd) == 8233 and same_by_any_definition(bd, 90) == 1460
    f["mb_p90"] = ["1460", "1,460", "1.46"]
    assert T.count(ma, lambda r: r["msg"] == "Connection accepted") == 187
    f["mb_accepted"] = T.count(mb, lambda r: r["msg"] == "Connection accepted")
    assert f["mb_accepted"] == 212 == texts[W.MONGO_B].count("Connection accepted")
    el = [hms(r["ts"]) for r in mb if r["msg"].startswith(("Starting an election", "Election succeeded"))]
    assert el == ["03:41:09", "03:41:09"]
    assert [hms(r["ts"]) for r in ma if r["msg"] == "Replica set state transition"] == ["03:41:11"]
    assert [hms(r["ts"]) for r in ma if "fdatasync took 14213ms" in json.dumps(r["attr"])] == ["03:40:26"]

    # --- the Kubernetes audit log
    au = T.parse_audit(texts[W.AUDIT_FILE])
    forb = lambda r: r["code"] == 403  # noqa: E731
    top = T.ranked(T.group(au, lambda r: r["username"], forb), 2)
    assert top[0] == ("system:serviceaccount:monitoring:kube-state-metrics", 112)
    assert top[1][0] == "system:serviceaccount:monitoring:prometheus-adapter"
    f["au_403_second"], f["au_403_second_n"] = "prometheus-adapter", top[1][1]
    assert f["au_403_second_n"] == 63
    assert T.count(au, forb) == 201 == texts[W.AUDIT_FILE].count('"code":403')
    f["au_403_window"] = clock_window(au, forb, "02:10", "02:25", tkey="ts")
    assert f["au_403_window"] == 104
    patch = lambda r: r["verb"] == "patch"  # noqa: E731
    [(puser, _)] = T.ranked(T.group(au, lambda r: r["username"], patch))
    assert puser == "system:serviceaccount:argocd:argocd-application-controller"
    f["au_argocd_deploy_patches"] = T.count(au, lambda r: patch(r) and r["username"] == puser
                                            and r["objectRef"]["resource"] == "deployments")
    assert f["au_argocd_deploy_patches"] == 74
    dele = lambda r: r["verb"] == "delete"  # noqa: E731
    [(duser, _)] = T.ranked(T.group(au, lambda r: r["username"], dele))
    assert duser == "system:serviceaccount:kube-system:generic-garbage-collector"
    f["au_top_deleter_last"] = hms(max(r["ts"] for r in au if dele(r) and r["username"] == duser))
    assert f["au_top_deleter_last"] == "03:57:31"
    f["au_distinct_users"] = len({r["username"] for r in au})
    assert f["au_distinct_users"] == 90
    ex = [r for r in au if r["objectRef"].get("subresource") == "exec"]
    assert [(hms(r["ts"]), r["username"], r["objectRef"]["name"]) for r in ex] == [("02:40:48", "h.lindqvist@marrowby.example",
                                                                                     "pg-toolbox-0")]
    job = [r for r in au if r["verb"] == "create" and r["objectRef"]["resource"] == "jobs"]
    assert [(hms(r["ts"]), r["objectRef"]["name"]) for r in job] == [("02:32:51", "booking-migrate-4f7c2")]

    # the timelines must read one way only: the planted events are the notable ones near T,
    # among ordinary lines of the same minutes
    assert near(pg, W.at("01:05:17"), 120) >= 8 and near(pg, W.at("03:48:02"), 120) >= 8
    assert near(kf, W.at("01:48:00"), 120) >= 40 and near(kf, W.at("02:52:10"), 120) >= 30
    assert near(au, W.at("02:40:48"), 300, tkey="ts") >= 8
    assert near(ma, W.at("03:40:30"), 120, tkey="ts") >= 6 and near(sv, W.at("03:13:00"), 180) >= 6
    assert near([m for m in master if m["t"]] + logs + reqs, W.at("02:36:00"), 60) >= 15
    return f


def check_counts(rows):
    """Every count is >= 60, no two cases share one, and no case's question holds its count."""
    assert all(x >= 60 for x in COUNTS), COUNTS
    assert len(COUNTS) == len(set(COUNTS)), sorted(x for x in COUNTS if COUNTS.count(x) > 1)
    wanted = {str(x) for x in COUNTS}
    for c in rows:
        said = c["text"] + " " + " ".join(c.get("turns", []))
        for entry in c.get("answer_has", []):
            for s in ([entry] if isinstance(entry, str) else entry):
                if s in wanted:
                    assert s not in said, (c["id"], s)


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    COUNTS.clear()
    rows = cases(f, n)
    check_counts(rows)
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
        stale = [name for name, text in texts.items() if not (fx / name).is_file() or (fx / name).read_text(encoding="utf-8") != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{x} (not generated)" for x in extra]
        cases_file = HERE / "queries-dev5.jsonl"
        if not cases_file.is_file() or cases_file.read_text(encoding="utf-8") != out_cases:
            stale.append("queries-dev5.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"queries-dev5: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text, encoding="utf-8")
    (HERE / "queries-dev5.jsonl").write_text(out_cases, encoding="utf-8")
    print(f"queries-dev5: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")
        for name, text in texts.items():
            print(f"  {name}: {text.count(chr(10))} lines, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
