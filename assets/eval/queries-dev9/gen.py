#!/usr/bin/env python3
"""Generates the `queries-dev9` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev9.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev9.jsonl
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

SEED = 20331114
HERE = Path(__file__).resolve().parent
SET = "queries-dev9"
MAX_BYTES = 6_000_000

AC, AE = "catalog_access.log", "catalog_error.log"
GA, GE = "gunicorn-access.log", "gunicorn-error.log"
RB, ML, NT = "rabbit@agl-mq-01.log", "maillog", W.NOTIFIER_FILE

FIXTURES = [
    (AC, W.access_log), (AE, W.error_log), (GA, W.gunicorn_access_log), (GE, W.gunicorn_error_log),
    (RB, W.rabbit_log), (ML, W.maillog), (NT, W.notifier_log),
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


def ms_opts(seconds):
    """A duration asked in ms: the whole milliseconds (truncated and rounded) and the seconds to 3 places."""
    ms = seconds * 1000
    out = {str(int(ms + 1e-9)), str(round(ms))}
    out |= {f"{seconds:.3f}", f"{int(seconds * 1000 + 1e-9) / 1000:.3f}"}
    out |= {f"{int(x):,}" for x in (ms,) if ms >= 1000}
    return sorted(out)


def endpoint(path):
    return re.sub(r"/b\d{7}$", "/{bib}", path)


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # --- the OPAC's Apache access log
    at = texts[AC]
    ac = T.parse_access(at)
    search = [r for r in ac if r["path"] == "/search"]
    p95 = same_by_any_definition([r["D"] for r in search], 95)
    assert p95 == same_by_any_definition([r["D"] for r in search if r["status"] == 200], 95) == W.SEARCH_P95[0]
    assert p95 == same_by_any_definition([r["D"] for r in ac if r["target"].startswith("/search")], 95)
    f["ac_search_p95"] = ms_opts(p95 / 1e6)
    rec = [r["D"] for r in ac if r["path"].startswith("/record/")]
    p99 = same_by_any_definition(rec, 99)
    assert p99 == W.RECORD_P99[0]
    f["ac_record_p99"] = ms_opts(p99 / 1e6)
    ds = sorted((r["D"] for r in ac), reverse=True)
    assert ds[0] == W.MAX_D_US and ds[1] < 0.8 * ds[0]
    f["ac_max_D"] = ds[0]
    f["ac_max_s"] = ["44.2"]
    assert f"{ds[0] / 1e6:.1f}" == "44.2"
    h1 = T.count(ac, lambda r: r["t"].hour == 1)
    assert h1 == W.RATE_PER_MIN * 60
    f["ac_rate"] = str(W.RATE_PER_MIN)
    cov = [r for r in ac if r["path"].startswith("/covers/")]
    tot = sum(r["bytes"] for r in cov)
    ok = sum(r["bytes"] for r in cov if r["status"] == 200)
    f["ac_covers_bytes"] = sorted({str(tot), f"{tot:,}", f"{tot / 1e6:.1f}", f"{tot / 1e6:.2f}", f"{tot / 2**20:.1f}",
                                   f"{tot / 2**20:.2f}", f"{ok / 1e6:.1f}", f"{ok / 2**20:.1f}"})
    clients = T.group(ac, lambda r: r["client"])
    top = T.ranked(clients, 4)
    assert top[0][1] > 1.2 * top[1][1] and top[1][1] > 1.2 * top[2][1] and top[2][1] > 1.2 * top[3][1], top
    f["ac_top3_clients"] = [c for c, _ in top[:3]]
    assert f["ac_top3_clients"][:2] == [W.CRAWLER, W.STUFFER]
    f["ac_distinct_ips"] = len(clients)
    f["ac_peak_minute"] = hm(peak(ac, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.1))
    c401 = T.ranked(T.group(ac, lambda r: r["client"], lambda r: r["status"] == 401), 1)
    assert c401[0][0] == W.STUFFER
    f["ac_stuffer_total"] = clients[W.STUFFER]
    assert f["ac_stuffer_total"] > c401[0][1]
    five = T.group(ac, lambda r: r["path"], lambda r: r["status"] >= 500)
    top5 = T.ranked(five, 4)
    assert top5[0][1] > 1.2 * top5[1][1] and top5[1][1] > 1.2 * top5[2][1] and top5[2][1] > 1.2 * top5[3][1], top5
    f["ac_top3_5xx"] = [p for p, _ in top5[:3]]
    assert f["ac_top3_5xx"] == ["/api/v2/holds", "/api/v2/loans/renew", "/api/v2/reading-history"], top5
    f["ac_5xx_second"] = top5[1][1]
    crawl = lambda r: r["client"] == W.CRAWLER  # noqa: E731
    f["ac_crawler_window"] = clock_window(ac, crawl, "02:40", "03:05")
    assert f["ac_crawler_window"] == clients[W.CRAWLER]
    f["ac_403"] = T.count(ac, lambda r: r["status"] == 403)
    f["ac_last_403"] = last(ac, lambda r: r["status"] == 403)
    f["ac_502"] = T.count(ac, lambda r: r["status"] == 502)

    # --- its error log
    et = texts[AE]
    ae = T.parse_apache_error(et)
    f["ae_ah01630"] = T.count(ae, lambda r: r["ah"] == "AH01630")
    assert f["ae_ah01630"] == et.count("AH01630") == f["ac_403"]
    err = lambda r: r["level"] == "error"  # noqa: E731
    f["ae_errors"] = T.count(ae, err)
    assert f["ae_errors"] == et.count(":error]")
    byh = T.group(ae, lambda r: r["t"].hour, err)
    (h, c), = T.ranked(byh, 1)
    srt = sorted(byh.values(), reverse=True)
    assert srt[0] > 1.3 * srt[1], byh
    f["ae_err_hour"], f["ae_err_hour_n"] = h, c
    f["ae_first_refused"] = first(ae, lambda r: r["ah"] == "AH00957")
    assert hms(first(ae, lambda r: r["ah"] == "AH00959")) == hms(f["ae_first_refused"])
    f["ae_last_disabled"] = last(ae, lambda r: r["ah"] == "AH00940")
    [f["ae_maxreq"]] = [r["t"] for r in ae if r["ah"] == "AH00484"]
    [f["ae_sigusr1"]] = [r["t"] for r in ae if r["ah"] == "AH00493"]
    [f["ae_resuming"]] = [r["t"] for r in ae if r["ah"] == "AH00489"]
    f["ae_first_denied"] = first(ae, lambda r: r["ah"] == "AH01630")
    assert hms(last(ae, lambda r: r["ah"] == "AH01630")) == hms(f["ac_last_403"])
    f["ae_first_ah01102"] = first(ae, lambda r: r["ah"] == "AH01102")
    assert T.count(ae, lambda r: r["ah"] == "AH01102") == f["ac_502"]

    # --- gunicorn's access log
    gt = texts[GA]
    ga = T.parse_gunicorn_access(gt)
    holds = [r for r in ga if r["method"] == "POST" and r["path"] == "/api/v2/holds"]
    p90 = same_by_any_definition([r["L_us"] for r in holds], 90)
    assert p90 == P["holds_p90"]
    f["ga_holds_p90"] = ms_opts(p90 / 1e6)
    sums, cnts = {}, {}
    for r in ga:
        for key in (("raw", r["path"]), ("tpl", endpoint(r["path"]))):
            sums[key] = sums.get(key, 0) + r["L_us"]
            cnts[key] = cnts.get(key, 0) + 1
    for kind in ("raw", "tpl"):
        means = sorted(((sums[k] / cnts[k], k[1]) for k in sums if k[0] == kind and cnts[k] >= 5), reverse=True)
        assert means[0][1] == "/api/v2/reading-history" and means[1][0] < 0.5 * means[0][0], means[:3]
    f["ga_slowest_endpoint"] = "reading-history"
    av = sorted((r["L_us"] for r in ga if r["path"].startswith("/api/v2/availability/")), reverse=True)
    assert av[0] == W.SLOW_AVAIL_US and av[1] < 0.2 * av[0]
    f["ga_avail_max"] = ms_opts(av[0] / 1e6)
    for key in (lambda r: r["path"], lambda r: endpoint(r["path"])):
        t4 = T.ranked(T.group(ga, key, lambda r: 400 <= r["status"] < 500), 4)
        assert t4[0][1] > 1.2 * t4[1][1] and t4[1][1] > 1.2 * t4[2][1] and t4[2][1] > 1.2 * t4[3][1], t4
        assert [p for p, _ in t4[:3]] == ["/api/v2/login", "/api/v2/holds", "/api/v2/loans/renew"], t4
    f["ga_top3_4xx"] = ["/api/v2/login", "/api/v2/holds", "/api/v2/loans/renew"]
    h500 = lambda r: r["method"] == "POST" and r["path"] == "/api/v2/holds" and r["status"] == 500  # noqa: E731
    f["ga_holds500_window"] = clock_window(ga, h500, "01:20", "01:40")
    assert f["ga_holds500_window"] == T.count(ga, h500)
    f["ga_first_201_after_hup"] = first(ga, lambda r: r["path"] == "/api/v2/holds" and r["status"] == 201 and r["t"] >= W.HUP)

    # every proxied request the backend answered is in both logs
    api_ac = sorted((r["client"], r["method"], r["target"], r["status"], r["bytes"]) for r in ac
                    if r["path"].startswith("/api/") and r["status"] not in (502, 503))
    api_ga = sorted((r["client"], r["method"], r["target"], r["status"], r["bytes"]) for r in ga)
    assert api_ac == api_ga

    # --- gunicorn's error log
    xt = texts[GE]
    ge = T.parse_gunicorn_error(xt)
    wt = lambda r: r["msg"].startswith("WORKER TIMEOUT")  # noqa: E731
    f["ge_timeouts"] = T.count(ge, wt)
    assert f["ge_timeouts"] == xt.count("WORKER TIMEOUT") == f["ac_502"]
    f["ge_timeout_first"], f["ge_timeout_last"] = first(ge, wt), last(ge, wt)
    assert hms(f["ge_timeout_first"]) == hms(f["ae_first_ah01102"])
    boots = [int(re.search(r"pid: (\d+)", r["msg"]).group(1)) for r in ge if r["msg"].startswith("Booting worker")]
    f["ge_boot_pids"] = len(set(boots))
    assert f["ge_boot_pids"] == len(boots) == 2 * W.WORKERS + f["ge_timeouts"]
    [f["ge_term"]] = [r["t"] for r in ge if r["msg"] == "Handling signal: term"]
    [f["ge_listen"]] = [r["t"] for r in ge if r["msg"].startswith("Listening at:")]
    [f["ge_hup"]] = [r["t"] for r in ge if r["msg"] == "Handling signal: hup"]
    undef = lambda r: any("UndefinedColumn" in x for x in r["more"])  # noqa: E731
    f["ge_undef_last"] = last(ge, undef)
    assert T.count(ge, undef) == T.count(ga, h500) == xt.count("UndefinedColumn")
    qc = T.count(ge, lambda r: any("QueryCanceled" in x for x in r["more"]))
    assert qc == T.count(ga, lambda r: r["path"] == "/api/v2/reading-history" and r["status"] == 500)

    # --- RabbitMQ
    rt = texts[RB]
    rb = T.parse_rabbit(rt)
    [f["rb_alarm_set"]] = [r["t"] for r in rb if r["msg"].startswith("memory resource limit alarm set")]
    [f["rb_alarm_clear"]] = [r["t"] for r in rb if r["msg"].startswith("memory resource limit alarm cleared on node")]
    users = T.group(rb, lambda r: r["user"], lambda r: r["user"] is not None)
    (u, c), = T.ranked(users, 1)
    assert u == "circ"
    f["rb_circ_conns"] = c
    assert c == T.count(ga, lambda r: (r["path"], r["status"]) in (("/api/v2/holds", 201), ("/api/v2/loans/renew", 200))) + f["ge_timeouts"]
    unexp = T.count(rb, lambda r: "client unexpectedly closed TCP connection" in r["lines"])
    assert unexp == f["ge_timeouts"] == rt.count("client unexpectedly closed TCP connection")
    [f["rb_ack_timeout"]] = [r["t"] for r in rb if "timed out waiting for delivery acknowledgement" in r["msg"]]
    f["rb_notifier_accept"] = first(rb, lambda r: r["msg"].startswith("accepting AMQP connection") and "10.52.2.13:" in r["msg"])

    # --- postfix
    mt = texts[ML]
    ml = T.parse_maillog(mt)
    deferred = lambda r: r.get("status") == "deferred"  # noqa: E731
    f["ml_deferred"] = T.count(ml, deferred)
    assert f["ml_deferred"] == mt.count("status=deferred")
    f["ml_mailhub_deferred"] = T.count(ml, lambda r: deferred(r) and "mailhub" in r["relay"])
    assert f["ml_mailhub_deferred"] == T.count(ml, lambda r: deferred(r) and r["to"].endswith("@mailhub.example>"))
    f["ml_bounced"] = T.count(ml, lambda r: r.get("status") == "bounced")
    f["ml_452"] = T.count(ml, lambda r: "NOQUEUE: reject" in r["msg"])
    assert f["ml_452"] == mt.count("Insufficient system storage") == mt.count("452 4.3.1")
    sent = [r for r in ml if r.get("status") == "sent"]
    p95 = same_by_any_definition([float(r["delay"]) for r in sent], 95)
    assert p95 == P["delay_p95"] == same_by_any_definition([float(r["delay"]) for r in sent if r["relay"] != "local"], 95)
    f["ml_delay_p95"] = sorted({str(round(p95 * 1000)), f"{round(p95 * 1000):,}", f"{p95} s", f"{p95}s"})
    rsum, rcnt = {}, {}
    for r in sent:
        host = r["relay"].split("[")[0]
        rsum[host] = rsum.get(host, 0) + float(r["delay"])
        rcnt[host] = rcnt.get(host, 0) + 1
    means = sorted(((rsum[h] / rcnt[h], h) for h in rsum), reverse=True)
    assert means[0][1] == "smtp-in.riverline.example" and means[1][0] < 0.1 * means[0][0], means[:3]
    f["ml_slowest_relay"] = ["riverline"]
    sizes = [int(r["size"]) for r in ml if r.get("from") == "<notices@ashgrove-libraries.org>"]
    assert min(sizes) == W.SUMMARY_SIZE and sorted(set(sizes))[1] > 4000
    assert min(int(r["size"]) for r in ml if "size" in r) == W.SUMMARY_SIZE
    f["ml_min_size"] = ["3172", "3,172", "3.17", "3.10", "3.1 KiB", "3.1KiB", "3.2 KB", "3.2KB", "3.2 kB", "3.2kB"]
    dom = lambda r: r["to"].strip("<>").split("@")[1]  # noqa: E731
    sd = T.ranked(T.group(sent, dom), 4)
    assert sd[0][1] > 1.2 * sd[1][1] and sd[1][1] > 1.2 * sd[2][1] and sd[2][1] > 1.2 * sd[3][1], sd
    assert [d for d, _ in T.ranked(T.group(sent, dom, lambda r: r["relay"] != "local"), 3)] == [d for d, _ in sd[:3]]
    f["ml_top3_sent_domains"] = [d for d, _ in sd[:3]]
    f["ml_distinct_domains"] = len({dom(r) for r in ml if "to" in r})
    f["ml_sent_hour"] = peak(sent, lambda r: True, lambda r: r["t"].hour, margin=1.15)
    bgrp = T.group(ml, dom, lambda r: r.get("status") == "bounced")
    bd = T.ranked(bgrp, 1)
    assert bd[0][1] > 2 * sorted(bgrp.values())[-2], bgrp
    f["ml_bounce_domain"] = bd[0][0]
    f["ml_first_452"] = first(ml, lambda r: "NOQUEUE: reject" in r["msg"])
    [f["ml_postsuper"]] = [r["t"] for r in ml if r["msg"].startswith("Deleted:")]
    f["ml_postsuper_n"] = int(re.search(r"Deleted: (\d+)", mt).group(1))
    assert f["ml_postsuper_n"] == P["postsuper_n"] == T.count(ml, lambda r: r["proc"] == "postsuper") - 1

    # --- the notifier container
    nt = T.parse_docker_json(texts[NT])
    sn = [r for r in nt if r["msg"].startswith("sent notice=")]
    took = [int(r["took_ms"]) for r in sn]
    p50 = same_by_any_definition(took, 50)
    assert p50 == P["took_p50"]
    f["nt_took_p50"] = sorted({f"{p50 / 1000:.3f}", f"{p50 / 1000:.2f}", str(p50)})
    kinds = T.ranked(T.group(sn, lambda r: r["kind"]), 2)
    assert kinds[0][1] > 1.1 * kinds[1][1], kinds
    f["nt_top_kind"] = kinds[0][0]
    br = T.ranked(T.group(sn, lambda r: r["branch"]), 2)
    assert br[0][1] > 1.1 * br[1][1], br
    f["nt_top_branch"] = br[0][0]
    mine = [int(r["took_ms"]) for r in sn if r["branch"] == br[0][0]]
    assert sum(mine) % len(mine) == 0 and (br[0][0], sum(mine) // len(mine)) == P["branch_mean"]
    f["nt_branch_mean"] = sum(mine) // len(mine)
    [f["nt_crash"]] = [r["t"] for r in nt if r["level"] == "ERROR"]
    assert any("ChannelClosedByBroker" in x for x in [r for r in nt if r["level"] == "ERROR"][0]["more"])
    [f["nt_consuming"]] = [r["t"] for r in nt if r["msg"].startswith("consuming queue=")]
    # the notifier and postfix agree: every sent notice is one message accepted from agl-app-03, same queue id
    qa = {r["qid"]: r["t"] for r in ml if r["msg"].endswith(f"client={W.NOTIFIER_HOST}[{W.NOTIFIER_IP}]")}
    assert sorted(qa) == sorted(r["queued_as"] for r in sn)
    assert all(abs((qa[r["queued_as"]] - r["t"]).total_seconds()) <= 1.5 for r in sn)
    rej = [r["t"] for r in nt if "452 4.3.1" in r["msg"]]
    assert len(rej) == f["ml_452"]
    assert all(abs((a - b).total_seconds()) <= 1 for a, b in zip(sorted(rej), sorted(r["t"] for r in ml if "NOQUEUE" in r["msg"])))

    # --- the night reads one way only (each timeline's events in distinct seconds)
    f["tl_deploy"] = ordered(f["ge_term"], f["ae_first_refused"], f["ge_listen"], f["ae_last_disabled"])
    f["tl_hup"] = ordered(f["ge_undef_last"], f["ge_hup"], f["ga_first_201_after_hup"])
    f["tl_mail"] = ordered(f["ml_first_452"], f["rb_alarm_set"], f["ml_postsuper"], f["rb_alarm_clear"])
    f["tl_alarm"] = ordered(f["rb_alarm_set"], f["ge_timeout_first"], f["ge_timeout_last"], f["rb_alarm_clear"])
    f["tl_crawl"] = ordered(f["ae_sigusr1"], f["ae_resuming"], f["ae_first_denied"], f["ac_last_403"])
    f["tl_ack"] = ordered(f["rb_ack_timeout"], f["nt_crash"], f["rb_notifier_accept"], f["nt_consuming"])
    assert f["ae_maxreq"] < f["ae_sigusr1"]
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
