#!/usr/bin/env python3
"""Generates the `queries-heldout9` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout9.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout9.jsonl
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

SEED = 20360409
HERE = Path(__file__).resolve().parent
SET = "queries-heldout9"
MAX_BYTES = 7_000_000

VAR, KAPI, ETCD = "varnishncsa-cache-1.log", "kube-apiserver-k8s-cp-1.log", "etcd-k8s-cp-1.log"
MY, CASS, FLU, SYS = "db-acct-1-mysqld.log", "cass-2-system.log", "fluentd-logship-1.log", "syslog-cache.log"
FIXTURES = [(VAR, W.varnish_log), (KAPI, W.apiserver_log), (ETCD, W.etcd_log), (MY, W.mysql_log),
            (CASS, W.cassandra_log), (FLU, W.fluentd_log), (SYS, W.syslog_log)]


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


def exact_mean(values, unit):
    """The mean of integers, asserted to be a whole `unit`."""
    s, k = sum(values), len(values)
    assert s % (k * unit) == 0, (s, k, unit)
    return s // k


def ms_opts(ms):
    """A whole-millisecond figure asked in ms (and the seconds reading)."""
    out = [str(ms)]
    if ms >= 1000:
        out.append(f"{ms:,}")
    out.append(f"{ms / 1000:.3f}")
    return out


def secs_ms(ms):
    """A whole-millisecond figure asked in seconds (and the ms reading)."""
    out = [f"{ms / 1000:.3f}", str(ms)]
    if ms >= 1000:
        out.append(f"{ms:,}")
    if ms % 10 == 0:
        out.append(f"{ms / 1000:.2f}")
    return out


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    H = lambda x: tuple(int(p) for p in x.split(":"))  # noqa: E731
    # ------------------------------------------------------------ varnishncsa (cache-1)
    vt = texts[VAR]
    va = T.parse_varnish(vt)
    st = lambda k: (lambda r: r["status"] == k)  # noqa: E731
    statuses = {str(r["status"]) for r in va}
    assert not any(r["size"] in statuses for r in va), "a varnish size that reads like a status"
    assert not any(str(r["us"]) in statuses for r in va), "a %D that reads like a status"
    f["v_503"] = T.count(va, st(503))
    assert f["v_503"] == vt.count(" 503 ")
    f["v_503_window"] = clock_window(va, st(503), "01:20", "01:30")
    assert f["v_503_window"] == sum(W.I2_PATHS.values()) < f["v_503"]
    f["v_503_minute"] = hm(peak(va, st(503), lambda r: T.minutes(r["t"])))
    per_min = sorted(T.group(va, lambda r: T.minutes(r["t"]), st(503)).values(), reverse=True)
    assert per_min[0] >= per_min[1] + 15, per_min
    f["v_ips"] = len({r["ip"] for r in va})
    top = T.ranked(T.group(va, lambda r: r["ip"]), 3)
    f["v_top_ips"] = [ip for ip, _ in top]
    assert f["v_top_ips"] == [W.SCRAPER, W.AGGREGATOR, W.KIOSK], top
    assert T.ranked(T.group(va, lambda r: r["ip"]), 4)[3][1] < top[2][1] / 3
    f["v_scraper_429"] = T.count(va, lambda r: r["ip"] == W.SCRAPER and r["status"] == 429)
    assert f["v_scraper_429"] == W.SCRAPER_429 == T.count(va, st(429)) == vt.count(" 429 ")
    by503 = T.ranked(T.group(va, lambda r: r["path"], st(503)), 3)
    by503t = T.ranked(T.group(va, lambda r: r["target"], st(503)), 3)
    by503m = T.ranked(T.group(va, lambda r: f'{r["method"]} {r["path"]}', st(503)), 3)
    assert [p for p, _ in by503] == [p for p, _ in by503t] == ["/v2/unlock", "/v2/rides/history", "/v2/rides/end"], by503
    assert [p.split()[1] for p, _ in by503m] == [p for p, _ in by503]
    f["v_history_total"] = T.count(va, lambda r: r["path"] == "/v2/rides/history")
    hist = [r for r in va if r["method"] == "GET" and r["path"] == "/v2/rides/history"]
    p_all = same_by_any_definition([r["us"] for r in hist], 95)
    p_ok = same_by_any_definition([r["us"] for r in hist if r["status"] == 200], 95)
    assert p_all == p_ok == W.P_HIST_US and p_all % 1000 == 0
    f["v_hist_p95_ms"] = p_all // 1000
    unl = [r for r in va if r["method"] == "POST" and r["path"] == "/v2/unlock"]
    ok_us = [r["us"] for r in unl if r["status"] == 200]
    f["v_unlock_mean_ms"] = exact_mean(ok_us, 1000) // 1000
    assert abs(sum(r["us"] for r in unl) / len(unl) / 1000 - f["v_unlock_mean_ms"]) > 20
    p_all = same_by_any_definition([r["us"] for r in unl], 95)
    p_ok = same_by_any_definition(ok_us, 95)
    assert p_all == p_ok == W.P_UNLOCK_US and p_all % 1000 == 0
    f["v_unlock_p95_ms"] = p_all // 1000
    miss = lambda r: r["handling"] == "miss"  # noqa: E731
    f["v_miss"] = T.count(va, miss)
    assert f["v_miss"] == vt.count(" miss ")
    f["v_miss_minute"] = hm(peak(va, miss, lambda r: T.minutes(r["t"])))
    mm = sorted(T.group(va, lambda r: T.minutes(r["t"]), miss).values(), reverse=True)
    assert mm[0] >= mm[1] + 10, mm
    i2 = [r for r in va if r["status"] == 503 and W.T(1, 20) <= r["t"] < W.T(1, 30)]
    f["v_i2_first"] = hms(min(r["t"] for r in i2))
    f["v_i2_last"] = hms(max(r["t"] for r in i2))
    i3 = [r for r in va if r["status"] == 503 and r["path"] == "/v2/rides/history"]
    assert len(i3) == W.I3_503_N and all(r["us"] >= 10_000_000 for r in i3)
    f["v_i3_first"] = hms(min(r["t"] for r in i3))
    f["v_i3_last"] = hms(max(r["t"] for r in i3))
    f["v_gap_before"] = hms(max(r["t"] for r in va if r["t"] < W.GAP[1]))
    f["v_gap_after"] = hms(min(r["t"] for r in va if r["t"] >= W.GAP[0]))
    assert f["v_gap_after"] == hms(W.C1_MASTER)
    assert not any(W.GAP[0] <= r["t"] < W.GAP[1] for r in va)
    ban_min = [r for r in va if T.minutes(r["t"]) == T.minutes(W.BAN) and miss(r)]
    assert min(r["t"] for r in ban_min if "/v2/stations" in r["path"] and r["t"] >= W.BAN) >= W.BAN

    # ------------------------------------------------------------ kube-apiserver
    kt = texts[KAPI]
    ka = T.parse_klog(kt)
    http = [r for r in ka if r.get("http")]
    for code in (404, 409, 504, 500):
        assert T.count(http, lambda r, c=code: r["resp"] == c) == kt.count(f"resp={code}")
    f["k_404"] = T.count(http, lambda r: r["resp"] == 404)
    f["k_409"] = T.count(http, lambda r: r["resp"] == 409)
    f["k_504_window"] = clock_window(http, lambda r: r["resp"] == 504, "00:40", "01:00")
    assert f["k_504_window"] == W.I1_504_N < T.count(http, lambda r: r["resp"] == 504)
    f["k_first_504"] = hms(first(http, lambda r: r["resp"] == 504))
    assert f["k_first_504"] == hms(W.I1_FIRST_504)
    f["k_src_ips"] = len({r["src_ip"] for r in http})
    assert len({r["srcIP"] for r in http}) > 3 * f["k_src_ips"]
    ua_full = T.ranked(T.group(http, lambda r: r["userAgent"]), 3)
    ua_prod = T.ranked(T.group(http, lambda r: r["userAgent"].split("/")[0]), 3)
    assert [u.split("/")[0] for u, _ in ua_full] == [u for u, _ in ua_prod]
    f["k_top_ua"] = [u for u, _ in ua_prod]
    assert f["k_top_ua"] == ["kubelet", "dockd-operator", "argocd-application-controller"], ua_prod
    lists = [r["lat_us"] for r in http if r["verb"] == "LIST"]
    assert all(abs(x - round(x)) < 1e-6 for x in lists)
    f["k_list_mean_ms"] = exact_mean([round(x) for x in lists], 1000) // 1000
    nw = sorted((r for r in http if r["verb"] != "WATCH"), key=lambda r: -r["lat_us"])
    assert nw[0]["lat_us"] > 3 * nw[1]["lat_us"]
    assert max(r["lat_us"] for r in http if r["verb"] == "WATCH") > nw[0]["lat_us"]
    f["k_slowest_id"] = nw[0]["audit-ID"]
    f["k_slowest_time"] = hms(nw[0]["t"])
    [job] = [r for r in http if r["verb"] == "POST" and r["URI"] == "/apis/batch/v1/namespaces/reporting/jobs"]
    f["k_job_create"] = hms(job["t"])
    names = {m for r in http for m in re.findall(r"/jobs/(nightly-export-\d+)", r["URI"])}
    assert names == {W.JOB_NAME}
    f["k_job_name"] = W.JOB_NAME
    [dele] = [r for r in http if r["verb"] == "DELETE" and "/jobs/nightly-export-" in r["URI"]]
    f["k_job_delete"] = hms(dele["t"])
    [cordon] = [r for r in http if r["verb"] == "PATCH" and r["URI"] == "/api/v1/nodes/k8s-w-07"]
    f["k_cordon"] = hms(cordon["t"])
    [es_ev] = [r for r in http if r["URI"].endswith("es-logs-0/eviction") and r["resp"] == 201]
    f["k_es_evict"] = hms(es_ev["t"])
    [es_ready] = [r for r in http if r["verb"] == "PATCH" and r["URI"].endswith("es-logs-0/status")]
    f["k_es_ready"] = hms(es_ready["t"])

    # ------------------------------------------------------------ etcd
    et = texts[ETCD]
    ed = T.parse_etcd(et)
    slow = lambda r: r["msg"] == "apply request took too long"  # noqa: E731
    f["e_slow_apply"] = T.count(ed, slow)
    assert f["e_slow_apply"] == et.count("apply request took too long")
    fds = [r["took_us"] for r in ed if r["msg"] == "slow fdatasync"]
    assert len(fds) == et.count("slow fdatasync")
    m = min(fds)
    assert m % 1000 == 0 and sorted(fds)[1] - m > 50_000
    f["e_fdsync_min_ms"] = int(m) // 1000
    [df] = [r for r in ed if r["msg"] == "starting defragment"]
    f["e_defrag_start"] = hms(df["t"])
    [lc] = [r for r in ed if "changed leader from" in r["msg"]]
    f["e_leader_change"] = hms(lc["t"])
    [fin] = [r for r in ed if r["msg"] == "finished defragmenting directory"]
    f["e_defrag_secs"] = fin["took"]

    # ------------------------------------------------------------ mysql error log
    mt = texts[MY]
    my = T.parse_mysql(mt)
    ab = [r for r in my if r.get("kind") == "aborted"]
    f["m_aborted"] = len(ab)
    assert f["m_aborted"] == mt.count("Aborted connection")
    f["m_aborted_hosts"] = len({r["host"] for r in ab})
    assert f["m_aborted_hosts"] != len({r["host"] for r in my if "host" in r})
    f["m_top_users"] = [u for u, _ in T.ranked(T.group(ab, lambda r: r["user"]), 3)]
    assert f["m_top_users"] == ["dockd", "ledger_etl", "grafana_ro"]
    f["m_aborted_hour"] = peak(ab, lambda r: True, lambda r: r["t"].hour)
    hrs = sorted(T.group(ab, lambda r: r["t"].hour).values(), reverse=True)
    assert hrs[0] >= hrs[1] + 20, hrs
    den = [r for r in my if r.get("kind") == "denied"]
    assert len(den) == mt.count("Access denied")
    f["m_denied_window"] = clock_window(den, lambda r: True, "02:00", "02:30")
    [(f["m_denied_top_user"], _)] = T.ranked(T.group(den, lambda r: r["user"]))
    assert f["m_denied_top_user"] == "reporting"
    f["m_denied_last"] = hms(last(den, lambda r: r["user"] == "reporting"))
    f["m_denied_first"] = hms(first(den, lambda r: r["user"] == "reporting"))
    pc = [r["ms"] for r in my if r.get("kind") == "pagecleaner"]
    assert len(pc) == mt.count("Page cleaner took")
    f["m_pc_mean_ms"] = exact_mean(pc, 10)
    [full] = [r for r in my if "Disk is full" in r["msg"]]
    f["m_disk_full"] = hms(full["t"])
    [abort] = [r for r in my if "ABORT_SERVER" in r["msg"]]
    assert any("got signal 6" in x for x in abort["more"])
    f["m_abort"] = hms(abort["t"])
    starts = [r for r in my if "starting as process" in r["msg"]]
    assert len(starts) == 2
    f["m_restart_try"] = hms(starts[0]["t"])
    f["m_manual_start"] = hms(starts[1]["t"])
    [ready] = [r for r in my if "ready for connections" in r["msg"] and r["code"] == "MY-010931"]
    f["m_ready"] = hms(ready["t"])
    burst = [r for r in ab if W.T(3, 40) <= r["t"] < W.T(3, 41)]
    assert len(burst) == W.ABORT_BURST_N
    f["m_burst_first"] = hms(min(r["t"] for r in burst))

    # ------------------------------------------------------------ cassandra
    ct = texts[CASS]
    cs = T.parse_cassandra(ct)
    young = [r["ms"] for r in cs if r.get("gc") == "G1 Young Generation"]
    assert len(young) == ct.count("G1 Young Generation")
    f["c_young_mean_ms"] = exact_mean(young, 10)
    gcs = sorted((r for r in cs if "gc" in r), key=lambda r: -r["ms"])
    assert gcs[0]["ms"] > gcs[1]["ms"] + 3000
    f["c_gc_max_ms"] = gcs[0]["ms"]
    f["c_gc_max_time"] = hms(gcs[0]["t"])
    old = [r for r in cs if r.get("gc") == "G1 Old Generation"]
    f["c_first_old"] = hms(min(r["t"] for r in old))
    tb = T.ranked(T.group(cs, lambda r: r["tombstone_table"], lambda r: "tombstone_table" in r), 3)
    f["c_top_tables"] = [t.split(".")[1] for t, _ in tb]
    assert f["c_top_tables"] == ["ride_history", "dock_status_log", "push_tokens"]
    [rep] = [r for r in cs if r["msg"].startswith("Starting repair command")]
    f["c_repair_start"] = hms(rep["t"])
    [term] = [r for r in cs if r["msg"] == "Terminating all repair sessions"]
    f["c_repair_abort"] = hms(term["t"])

    # ------------------------------------------------------------ fluentd
    ft = texts[FLU]
    fl = T.parse_fluentd(ft)
    ff = lambda r: r["msg"].startswith("failed to flush the buffer")  # noqa: E731
    f["f_flush_fail"] = T.count(fl, ff)
    assert f["f_flush_fail"] == ft.count("failed to flush the buffer")
    f["f_first_fail"] = hms(first(fl, ff))
    f["f_last_fail"] = hms(last(fl, ff))
    f["f_first_ok"] = hms(first(fl, lambda r: r["msg"].startswith("retry succeeded")))

    # ------------------------------------------------------------ syslog
    yt = texts[SYS]
    sy = T.parse_syslog(yt)
    f["s_conntrack"] = T.count(sy, lambda r: "table full, dropping packet" in r["msg"])
    assert f["s_conntrack"] == yt.count("table full")
    assert all(r["host"] == "cache-2" for r in sy if "table full" in r["msg"])
    [ban] = [r for r in sy if "varnishadm ban" in r["msg"]]
    f["s_ban"] = hms(ban["t"])
    [died] = [r for r in sy if "died signal=6" in r["msg"]]
    f["s_panic"] = hms(died["t"])
    [fault] = [r for r in sy if r["msg"] == "(VI_EDGE) Entering FAULT STATE"]
    f["s_fault"] = hms(fault["t"])
    m2 = [r for r in sy if r["msg"] == "(VI_EDGE) Entering MASTER STATE"]
    f["s_c2_master"] = hms([r["t"] for r in m2 if r["host"] == "cache-2"][0])
    f["s_c1_master"] = hms([r["t"] for r in m2 if r["host"] == "cache-1"][0])

    # ------------------------------------------------------------ the files agree with each other
    assert f["s_c1_master"] == f["v_gap_after"]
    assert H(f["v_gap_before"]) <= H(f["s_panic"])
    assert f["v_miss_minute"] == hm(W.BAN) and f["s_ban"] == hms(W.BAN)
    assert H(f["m_disk_full"]) < H(f["v_i2_first"]) and f["m_abort"] == f["m_disk_full"]
    assert H(f["m_ready"]) < H(f["v_i2_last"]) and H(f["v_i2_last"]) < (1, 28, 30)
    assert f["v_503_minute"] == "1:24"
    assert H(f["k_job_create"]) < H(f["m_denied_first"]) and H(f["m_denied_last"]) < H(f["k_job_delete"])
    assert H(f["c_repair_start"]) < H(f["c_first_old"]) < H(f["v_i3_first"])
    assert H(f["v_i3_last"]) < H(f["c_repair_abort"])
    assert H(f["e_defrag_start"]) < H(f["k_first_504"]) < H(f["e_leader_change"])
    assert H(f["s_panic"]) < H(f["s_fault"]) < H(f["s_c2_master"])
    assert H(f["k_cordon"]) < H(f["m_burst_first"]) < H(f["k_es_evict"]) < H(f["f_first_fail"])
    assert H(f["f_last_fail"]) < H(f["f_first_ok"]) and H(f["k_es_ready"]) < H(f["f_first_ok"])
    assert H(f["m_manual_start"]) < H(f["m_ready"]) < H(f["v_i2_last"])
    # every 504 of the window is a lease write of the minutes etcd was busy
    assert all(W.DEFRAG_START < r["t"] < W.T(0, 47) for r in http if r["resp"] == 504 and r["t"] < W.T(1))
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


def check_in_files(rows, texts):
    """Every clock time, name or marker a timeline, incident, follow-up or top case expects is
    in one of the files uploaded for it (one option of each entry at least)."""
    def found(o, files):
        if re.fullmatch(r"\d{1,2}:\d\d(:\d\d)?", o):
            h, rest = o.split(":", 1)
            return any(f"{int(h):02d}:{rest}" in texts[x] for x in files)
        return any(o in texts[x] for x in files)
    for c in rows:
        if c["cat"] not in ("timeline", "incident", "followup", "top") or not c["files"]:
            continue
        for want in c["answer_has"]:
            opts = want if isinstance(want, list) else [want]
            if all(re.fullmatch(r"[\d.,]+", o) for o in opts):
                continue
            assert any(found(o, c["files"]) for o in opts), (c["id"], opts)


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n, ms_opts, secs_ms, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    assert len(rows) == 50
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    check_cases(rows)
    check_in_files(rows, texts)
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
