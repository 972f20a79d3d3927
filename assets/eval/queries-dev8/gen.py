#!/usr/bin/env python3
"""Generates the `queries-dev8` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev8.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev8.jsonl
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

SEED = 20320422
HERE = Path(__file__).resolve().parent
SET = "queries-dev8"
MAX_BYTES = 6_000_000

FIXTURES = [
    ("conn.log", W.zeek_conn_log), ("slotd.log", W.slotd_log), ("php-fpm.log", W.fpm_log),
    ("docker.log", W.docker_log), ("sidekiq.log", W.sidekiq_log), ("pgbouncer.log", W.pgbouncer_log),
    ("vh-db-01-journal.txt", W.journal_log),
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
    """Timeline events, each in its own second and in one order only."""
    secs = [hms(t) for t in times]
    assert all(a < b for a, b in zip(times, times[1:])), secs
    assert len(set(secs)) == len(secs), secs
    return secs


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # --- conn.log (Zeek, four hourly blocks)
    zt = texts["conn.log"]
    zk = T.parse_zeek(zt)
    rej = lambda r: r["state"] == "REJ"  # noqa: E731
    f["zk_rej"] = T.count(zk, rej)
    assert f["zk_rej"] == zt.count("\tREJ\t") == zt.count("REJ")
    scan = lambda r: r["orig_h"] == W.SCANNER  # noqa: E731
    f["zk_scan_conns"] = T.count(zk, scan)
    f["zk_scan_rej"] = T.count(zk, lambda r: scan(r) and rej(r))
    assert f["zk_scan_rej"] == f["zk_rej"] - len(W.FLUENTD_REJ)
    f["zk_scan_ports"] = len({r["resp_p"] for r in zk if scan(r)})
    db_ports, app_ports = W.scan_ports(random.Random(0))  # the lists' sizes, not their members
    assert f["zk_scan_ports"] == len(db_ports) == len(set(db_ports) | set(app_ports))
    assert len({(r["resp_h"], r["resp_p"]) for r in zk if scan(r)}) > f["zk_scan_ports"] + 200  # host:port reads differ
    ob = T.Counter()
    for r in zk:
        ob[r["orig_h"]] += r["orig_bytes"] or 0
    top = T.ranked(ob, 4)
    assert top[0][1] > 1.2 * top[1][1] and top[1][1] > 1.2 * top[2][1] and top[2][1] > 1.2 * top[3][1], top
    f["zk_top3_bytes"] = [h for h, _ in top[:3]]
    ipb = T.Counter()
    for r in zk:
        ipb[r["orig_h"]] += r["orig_ip_bytes"]
    assert [h for h, _ in T.ranked(ipb, 3)] == f["zk_top3_bytes"]
    ssh = sorted((r["duration"] for r in zk if r["resp_p"] == 22 and r["duration"]), reverse=True)
    assert ssh[0] == max(r["duration"] for r in zk if r["service"] == "ssh") and ssh[1] < 1800 < ssh[0]
    assert 2856.0 <= ssh[0] < 2856.05
    f["zk_ssh_max"] = ["47.6", "2856", "2,856", "47:36", "47m36s", "47 min 36"]
    f["zk_peak_minute"] = hm(peak(zk, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.1))
    f["zk_scan_first"] = first(zk, scan)
    fl = [r["t"] for r in zk if r["resp_p"] == 24224 and rej(r)]
    f["zk_fluentd_rej_first"], f["zk_fluentd_rej_last"] = min(fl), max(fl)

    # --- slotd.log (zap)
    st = texts["slotd.log"]
    sl = T.parse_zap(st)
    err = lambda r: r["level"] == "error"  # noqa: E731
    assert T.count(sl, err) == st.count('"level":"error"')
    f["sl_err_window"] = clock_window(sl, err, "01:50", "02:10")
    f["sl_err_hour"] = peak(sl, err, lambda r: r["t"].hour, margin=1.15)
    callers = T.ranked(T.group(sl, lambda r: r["caller"], err), 2)
    f["sl_top_caller"] = callers[0][0]
    f["sl_clinics"] = len({r["clinic_id"] for r in sl if "clinic_id" in r})
    clin = T.ranked(T.group(sl, lambda r: r.get("clinic_id"), err), 1)
    f["sl_top_clinic"], f["sl_top_clinic_errs"] = clin[0]
    # "errors" read as 5xx responses gives the same figure for that clinic
    assert T.count(sl, lambda r: r.get("clinic_id") == clin[0][0] and r.get("status", 0) >= 500) == clin[0][1]
    assert T.ranked(T.group(sl, lambda r: r.get("clinic_id"), lambda r: r.get("status", 0) >= 500), 1)[0][0] == clin[0][0]
    search = lambda r: r.get("msg") == "request served" and r["path"] == "/v1/slots/search"  # noqa: E731
    lat_all = [r["latency"] for r in sl if search(r)]
    lat_ok = [r["latency"] for r in sl if search(r) and r["status"] == 200]
    assert same_by_any_definition(lat_all, 95) == same_by_any_definition(lat_ok, 95) == W.SEARCH_PLATEAU
    f["sl_search_p95"] = ["387", "0.387"]
    qwt_sl = lambda r: err(r) and "query_wait_timeout" in r.get("error", "")  # noqa: E731
    f["sl_qwt_first"] = first(sl, qwt_sl)
    oom = lambda r: err(r) and r["t"].hour == 2 and r["t"].minute == 37  # noqa: E731
    f["sl_oom_first"], f["sl_oom_last"] = first(sl, oom), last(sl, oom)
    disk = lambda r: err(r) and W.PANIC <= r["t"] < W.T(1, 30)  # noqa: E731
    f["sl_disk_first"], f["sl_disk_last"] = first(sl, disk), last(sl, disk)
    heap = lambda r: r["msg"] == "heap above soft limit"  # noqa: E731
    f["sl_heap_last"] = last(sl, heap)
    [f["sl_start"]] = [r["t"] for r in sl if r["msg"] == "slotd starting"]
    [f["sl_listen"]] = [r["t"] for r in sl if r["msg"] == "listening"]
    assert not any(W.SLOTD_DIE < r["t"] < f["sl_start"] for r in sl)  # silent between the kill and the restart

    # --- php-fpm.log
    ft = texts["php-fpm.log"]
    fp = T.parse_fpm(ft)
    slow = lambda r: "executing too slow" in r["msg"]  # noqa: E731
    f["fpm_slow"] = T.count(fp, slow)
    assert f["fpm_slow"] == ft.count("executing too slow")
    f["fpm_slow_peak"] = hm(peak(fp, slow, lambda r: T.minutes(r["t"]), margin=1.3))
    f["fpm_timeout"] = T.count(fp, lambda r: "execution timed out" in r["msg"])
    assert f["fpm_timeout"] == ft.count("execution timed out") == ft.count("exited on signal 15 (SIGTERM)")
    f["fpm_finishing"] = first(fp, lambda r: r["msg"] == "Finishing ...")
    f["fpm_up_bad"] = first(fp, lambda r: r["msg"] == "fpm is running, pid 1")
    fatal = lambda r: "InvoicePdf" in r["msg"] and "Fatal error" in r["msg"]  # noqa: E731
    f["fpm_fatal_first"], f["fpm_fatal_last"] = first(fp, fatal), last(fp, fatal)
    f["fpm_hotfix_up"] = last(fp, lambda r: r["msg"] == "fpm is running, pid 1")
    f["fpm_slow_first"], f["fpm_slow_last"] = first(fp, slow), last(fp, slow)
    f["fpm_maxch_first"] = first(fp, lambda r: "pm.max_children" in r["msg"])
    refused = lambda r: "Connection refused" in r["msg"]  # noqa: E731
    f["fpm_refused_first"], f["fpm_refused_last"] = first(fp, refused), last(fp, refused)

    # --- docker.log (logrus)
    dt = texts["docker.log"]
    dk = T.parse_logrus(dt)
    f["dk_error"] = T.count(dk, lambda r: r["level"] == "error")
    assert f["dk_error"] == dt.count(" level=error ") == dt.count("level=error")
    [f["dk_force"]] = [r["t"] for r in dk if "using the force" in r["msg"]]
    flu = lambda r: "for logger fluentd" in r["msg"]  # noqa: E731
    f["dk_fluentd_first"], f["dk_fluentd_last"] = first(dk, flu), last(dk, flu)
    shim = [r["t"] for r in dk if r["msg"] == "shim disconnected"]
    f["dk_slotd_gone"] = max(shim)
    assert f["dk_slotd_gone"].hour == 3

    # --- sidekiq.log
    kt = texts["sidekiq.log"]
    sk = T.parse_sidekiq(kt)
    fail = lambda r: r["msg"] == "fail"  # noqa: E731
    f["sk_sms_fail"] = T.count(sk, lambda r: fail(r) and r["class"] == "AppointmentReminderSmsJob")
    assert f["sk_sms_fail"] == len(re.findall(r"class=AppointmentReminderSmsJob .* INFO: fail$", kt, re.M))
    f["sk_cal_fail"] = T.count(sk, lambda r: fail(r) and r["class"] == "CalendarSyncJob")
    f["sk_inv_fail"] = T.count(sk, lambda r: fail(r) and r["class"] == "InvoiceMailerJob")
    classes = T.ranked(T.group(sk, lambda r: r["class"], fail), 3)
    f["sk_top3_fail"] = [c for c, _ in classes]
    f["sk_fail_jids"] = len({r["jid"] for r in sk if fail(r)})
    assert f["sk_fail_jids"] < T.count(sk, fail)
    inv = [float(r["elapsed"]) for r in sk if r.get("class") == "InvoiceMailerJob" and r["msg"] == "done"]
    assert round(sum(inv) * 1000) == W.INVOICE_MEAN_MS * len(inv)
    f["sk_inv_mean"] = ["917", "0.917"]
    [f["sk_import_start"]] = [r["t"] for r in sk if r.get("class") == "LabResultImportJob" and r["msg"] == "start"]
    f["sk_ingest_last"] = last(sk, lambda r: r.get("class") == "LabResultIngestJob" and r["msg"] == "done")
    assert T.count(sk, lambda r: r.get("class") == "LabResultIngestJob" and r["msg"] == "done") == W.INGEST_N
    oomf = lambda r: fail(r) and r["t"].hour == 2 and r["t"].minute == 37  # noqa: E731
    f["sk_oom_first"], f["sk_oom_last"] = first(sk, oomf), last(sk, oomf)

    # --- pgbouncer.log
    pt = texts["pgbouncer.log"]
    pb = T.parse_pgbouncer(pt)
    pe = lambda r: "pooler error" in r["msg"]  # noqa: E731
    f["pgb_pooler"] = T.count(pb, pe)
    assert f["pgb_pooler"] == pt.count("pooler error") == len(P["errors"]) + 1  # + the scanner's bad packet
    f["pgb_pooler_window"] = clock_window(pb, pe, "01:10", "01:25")
    qw = lambda r: r["msg"].endswith("pooler error: query_wait_timeout")  # noqa: E731
    f["pgb_qwt_first"], f["pgb_qwt_last"] = first(pb, qw), last(pb, qw)
    assert (f["pgb_qwt_first"], f["pgb_qwt_last"]) == (W.QWT[0].replace(microsecond=W.QWT[0].microsecond // 1000 * 1000),
                                                      W.QWT[1].replace(microsecond=W.QWT[1].microsecond // 1000 * 1000))
    lr = lambda r: pe(r) and "server_login_retry" in r["msg"]  # noqa: E731
    f["pgb_retry1_first"] = first(pb, lambda r: lr(r) and r["t"].hour == 1)
    f["pgb_retry2_last"] = last(pb, lambda r: lr(r) and r["t"].hour == 2)
    f["pgb_crash2"] = first(pb, lambda r: "server conn crashed?" in r["msg"] and r["t"].hour == 2)
    waits = sorted((r["wait_us"] for r in pb if r.get("stats")), reverse=True)
    assert waits[0] == W.STATS_PEAK_WAIT and waits[1] < 0.85 * waits[0]
    f["pgb_wait_max"] = ["4817", "4,817", "4.817"]
    [f["pgb_bad_packet"]] = [r["t"] for r in pb if pe(r) and "bad packet header" in r["msg"]]
    assert any(pe(r) and r.get("user") == "metabase" for r in pb)

    # --- the journal of vh-db-01
    jt = texts["vh-db-01-journal.txt"]
    jo = T.parse_journal(jt)
    nospace = lambda r: "No space left on device" in r["msg"]  # noqa: E731
    f["j_nospace"] = T.count(jo, nospace)
    assert f["j_nospace"] == jt.count("No space left on device") == len(re.findall("No space left on device", jt))
    [f["j_dump_nospace"]] = [r["t"] for r in jo if nospace(r) and r["ident"] == "pg-nightly-dump.sh"]
    [f["j_panic"]] = [r["t"] for r in jo if " PANIC: " in r["msg"]]
    [f["j_rm"]] = [r["t"] for r in jo if "COMMAND=/usr/bin/rm" in r["msg"]]
    ready = sorted(r["t"] for r in jo if r["msg"].endswith("database system is ready to accept connections"))
    f["j_ready1"], f["j_ready2"] = ready
    [f["j_oom_invoked"]] = [r["t"] for r in jo if "invoked oom-killer" in r["msg"]]
    [kill] = [r for r in jo if r["msg"].startswith("Out of memory: Killed process")]
    f["j_oom_killed"] = kill["t"]
    f["j_oom_pid"] = int(re.search(r"Killed process (\d+)", kill["msg"]).group(1))
    assert f["j_oom_pid"] == W.OOM_PID
    [f["j_ssh_in"]] = [r["t"] for r in jo if "Accepted publickey" in r["msg"] and "port 50122" in r["msg"]]
    [f["j_banner"]] = [r["t"] for r in jo if r["msg"].startswith("banner exchange")]

    # --- the files agree with each other
    near = lambda a, b: abs((a - b).total_seconds()) <= 1  # noqa: E731
    by_user = {}
    for r in pb:
        if pe(r) and r.get("user") != "(nouser)":
            by_user.setdefault(r["user"], []).append(r["t"])
    sl_db = sorted(r["t"] for r in sl if err(r) and r["msg"] == "db query failed")
    assert len(sl_db) == len(by_user["slotd"]) and all(near(a, b) for a, b in zip(sl_db, sorted(by_user["slotd"])))
    php_db = sorted(r["t"] for r in fp if "PDOException" in r["msg"])
    assert len(php_db) == len(by_user["vetportal"]) and all(near(a, b) for a, b in zip(php_db, sorted(by_user["vetportal"])))
    sk_pg = sorted(r["t"] for r in sk if r["level"] == "WARN" and r["msg"].startswith("PG::ConnectionBad"))
    assert len(sk_pg) == len(by_user["clinic_ops"]) and all(near(a, b) for a, b in zip(sk_pg, sorted(by_user["clinic_ops"])))
    assert len(by_user["metabase"]) == 1 and near(by_user["metabase"][0], f["j_oom_killed"])
    logins = {(r["ip"], r["port"]) for r in pb if r.get("side") == "C" and r["rest"].startswith("login attempt")}
    closes = {(r["ip"], r["port"]) for r in pb if r.get("side") == "C" and r["rest"].startswith("closing because")}
    z6432 = {(r["orig_h"], r["orig_p"]) for r in zk if r["resp_p"] == 6432 and r["resp_h"] == W.DB and not scan(r)}
    assert z6432 == logins & closes, (len(z6432), len(logins & closes))

    # --- the night reads one way only (each timeline's events in distinct seconds)
    f["tl_deploy"] = ordered(f["fpm_finishing"], f["dk_force"], f["fpm_up_bad"])
    assert f["fpm_fatal_first"] > f["fpm_up_bad"] and f["fpm_fatal_last"] < f["fpm_hotfix_up"]
    f["tl_disk_pgb"] = ordered(f["j_dump_nospace"], f["j_panic"], f["pgb_retry1_first"])
    f["tl_disk_slotd"] = ordered(f["j_panic"], f["j_rm"], f["j_ready1"], f["sl_disk_last"])
    assert hms(f["sl_disk_first"]) == hms(f["j_panic"])
    f["tl_import"] = ordered(f["sk_import_start"], f["pgb_qwt_first"])
    f["tl_pool_fpm"] = ordered(f["sl_qwt_first"], f["fpm_slow_first"], f["fpm_maxch_first"])
    assert hms(f["sl_qwt_first"]) == hms(f["pgb_qwt_first"])
    f["tl_recover"] = ordered(f["pgb_qwt_last"], f["fpm_slow_last"], f["sk_ingest_last"])
    f["tl_fluentd"] = ordered(f["dk_fluentd_first"], f["zk_fluentd_rej_first"], f["zk_fluentd_rej_last"], f["dk_fluentd_last"])
    f["tl_oom_pgb"] = ordered(f["j_oom_invoked"], f["pgb_crash2"], f["j_ready2"], f["pgb_retry2_last"])
    assert hms(f["j_oom_killed"]) == hms(f["pgb_crash2"])
    f["tl_oom_apps"] = ordered(f["j_oom_invoked"], f["j_ready2"], max(f["sl_oom_last"], f["sk_oom_last"]))
    assert f["sl_oom_first"] >= f["j_oom_killed"] and f["sk_oom_first"] >= f["j_oom_killed"]
    f["tl_slotd_docker"] = ordered(f["sl_heap_last"], f["dk_slotd_gone"], f["sl_start"], f["sl_listen"])
    f["tl_slotd_fpm"] = ordered(f["dk_slotd_gone"], f["fpm_refused_first"], f["fpm_refused_last"])
    assert f["fpm_refused_last"] < f["sl_listen"]
    f["tl_scan"] = ordered(f["zk_scan_first"], f["j_banner"], f["pgb_bad_packet"])
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
