#!/usr/bin/env python3
"""Generates the `queries-heldout6` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout6.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout6.jsonl
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

SEED = 20310617
HERE = Path(__file__).resolve().parent
SET = "queries-heldout6"
MAX_BYTES = 6_000_000

FIXTURES = [
    ("varnishncsa.log", W.varnish_log), ("cassandra-system.log", W.cassandra_log), ("booking-api.json", W.booking_log),
    ("consul.log", W.consul_log), ("vault-audit.log", W.vault_log), ("notify-worker.log", W.notify_log),
    ("syslog", W.syslog), ("checkin-access.log", W.nginx_log),
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
    # --- varnishncsa.log
    vt = texts["varnishncsa.log"]
    va = T.parse_varnish(vt)
    assert len(va) == 6000
    s503 = lambda r: r["status"] == 503  # noqa: E731
    assert T.count(va, s503) == 213 == len(re.findall(r" 503 ", vt))
    f["va_503_peak"] = peak(va, s503, lambda r: hm(r["t"]))
    assert f["va_503_peak"] == "2:21"
    f["va_503_window"] = clock_window(va, s503, "02:10", "02:40")
    assert f["va_503_window"] == 161
    f["va_first_503"] = hms(first(va, s503))
    assert f["va_first_503"] == "2:14:13"
    f["va_first_503_vault"] = hms(first(va, lambda r: s503(r) and r["t"].hour == 3))
    assert f["va_first_503_vault"] == "3:07:06"
    assert not any(s503(r) for r in va if at_min(r["t"]) in range(2 * 60 + 33, 3 * 60 + 7))
    f["va_502"] = T.count(va, lambda r: r["status"] == 502)
    assert f["va_502"] == 64 == len(re.findall(r" 502 ", vt))
    f["va_clients"] = len({r["ip"] for r in va})
    assert f["va_clients"] == 1437
    top404 = T.ranked(T.group(va, lambda r: r["stem"], lambda r: r["status"] == 404), 3)
    assert top404 == [("/img/ports/cairnryan-old.webp", 88), ("/api/sailings/legacy", 73), ("/timetable.pdf", 65)]
    f["va_top404"] = [p for p, _ in top404]
    f["va_top404_n"] = top404[0][1]
    hits = [r["D"] for r in va if r["hitmiss"] == "hit"]
    assert len(hits) == 2400 == T.count(va, lambda r: r["handling"] == "hit")
    assert same_by_any_definition(hits, 95) == 4180
    f["va_hit_p95"] = ["4180", "4,180", "4.18 ms", "4.18ms", "4.18 毫秒", "4.18毫秒", "4.18"]

    # --- cassandra-system.log
    ct = texts["cassandra-system.log"]
    ca = T.parse_cassandra(ct)
    f["ca_errors"] = T.count(ca, lambda r: r["level"] == "ERROR")
    assert f["ca_errors"] == 67 == len(re.findall(r"^ERROR ", ct, re.M))
    gc = lambda kind: (lambda r: r["src"].startswith("GCInspector") and r["msg"].startswith(f"G1 {kind} Generation GC in "))  # noqa: E731
    gc_ms = lambda r: int(re.search(r"GC in (\d+)ms", r["msg"]).group(1))  # noqa: E731
    olds = [r for r in ca if gc("Old")(r)]
    assert len(olds) == 74 == T.count(ca, lambda r: r["level"] == "WARN") and all(r["level"] == "WARN" for r in olds)
    f["ca_first_gc_warn"] = hms(min(r["t"] for r in olds))
    assert f["ca_first_gc_warn"] == "2:13:41"
    longest = sorted(olds, key=lambda r: -gc_ms(r))
    assert gc_ms(longest[0]) == 11873 and gc_ms(longest[1]) < 10000
    assert max(gc_ms(r) for r in ca if gc("Young")(r)) < 11873
    f["ca_max_gc"] = ["11.87", "11.9 s", "11.9s", "11.9 秒", "11.9秒", "11873", "11,873"]
    f["ca_max_gc_at"] = hms(longest[0]["t"])
    assert f["ca_max_gc_at"] == "2:23:41"
    young = [gc_ms(r) for r in ca if gc("Young")(r)]
    assert len(young) == 240 and sum(young) == 294 * 240 and all(r["level"] == "INFO" for r in ca if gc("Young")(r))
    f["ca_young_mean"] = "294"
    dropped = [int(re.match(r"READ_REQ messages were dropped in last 5000 ms: (\d+) internal", r["msg"]).group(1))
               for r in ca if r["msg"].startswith("READ_REQ messages were dropped")]
    assert len(dropped) == 40
    f["ca_dropped_read"] = sum(dropped)
    assert f["ca_dropped_read"] == 9317
    f["ca_last_error"] = hms(last(ca, lambda r: r["level"] == "ERROR"))
    assert f["ca_last_error"] == "2:31:47"
    assert "OutOfMemoryError" in ct
    f["ca_cql_up"] = hms(first(ca, lambda r: r["msg"].startswith("Starting listening for CQL clients")))
    assert f["ca_cql_up"] == "2:33:19"

    # --- booking-api.json
    bt = texts["booking-api.json"]
    ba = T.parse_zap(bt)
    assert len(ba) == 4000
    err = lambda r: r["level"] == "error"  # noqa: E731
    f["ba_errors"] = T.count(ba, err)
    assert f["ba_errors"] == 281 == bt.count('"level":"error"')
    end = max(r["t"] for r in ba)
    assert hms(end) == "3:59:57" and ba[-1]["t"] == end
    f["ba_err_last60"] = last_window(ba, err, end, 60, 4)
    assert f["ba_err_last60"] == 71
    ports = [r["elapsed"] for r in ba if r["msg"] == "request" and r["path"] == "/v1/ports"]
    assert len(ports) == 250 and round(sum(ports) * 1e6) == 250 * 37400
    f["ba_ports_mean"] = ["37.4", "0.0374"]
    s504 = T.ranked(T.group(ba, lambda r: r["path"], lambda r: r["msg"] == "request" and r["status"] == 504), 3)
    assert s504 == [("/v1/sailings", 118), ("/v1/fares", 69), ("/v1/bookings", 23)]
    f["ba_504_2nd"], f["ba_504_2nd_n"] = s504[1]
    f["ba_504"] = sum(k for _, k in s504)
    timeout = lambda r: err(r) and r["error"].startswith("Operation timed out")  # noqa: E731
    f["ba_first_timeout"] = hms(first(ba, timeout))
    assert f["ba_first_timeout"] == "2:14:12"
    vault_fail = lambda r: err(r) and r["msg"] == "vault read failed"  # noqa: E731
    assert T.count(ba, vault_fail) == 71
    f["ba_first_vault"] = hms(first(ba, vault_fail))
    assert f["ba_first_vault"] == "3:06:14"

    # --- consul.log
    kt = texts["consul.log"]
    co = T.parse_hclog(kt)
    crit = lambda r: r["msg"].startswith("agent: Check is now critical")  # noqa: E731
    f["co_crit"] = T.count(co, crit)
    assert f["co_crit"] == 143 == kt.count("Check is now critical")
    [(top, _)] = T.ranked(T.group(co, lambda r: r["check"], crit))
    assert top == "service:booking-api-1"
    f["co_top_check"] = top
    f["co_top_last"] = hms(last(co, lambda r: crit(r) and r["check"] == top))
    assert f["co_top_last"] == "2:32:51"
    f["co_first_crit_booking"] = hms(first(co, lambda r: crit(r) and r["check"].startswith("service:booking-api")))
    assert f["co_first_crit_booking"] == "2:14:52"
    assert hms(first(co, lambda r: crit(r) and r["t"].hour == 2)) == "2:14:52"
    f["co_warn_hour"] = peak(co, lambda r: r["level"] == "WARN", lambda r: r["t"].hour)
    assert f["co_warn_hour"] == 2
    f["co_join"] = hms(first(co, lambda r: "EventMemberJoin: cass-03" in r["msg"]))
    assert f["co_join"] == "2:33:24"
    f["co_checkin_crit"] = hms(first(co, lambda r: crit(r) and r["check"] == "service:checkin-web"))
    assert f["co_checkin_crit"] == "1:41:12"

    # --- vault-audit.log
    vlt = T.parse_vault(texts["vault-audit.log"])
    reqs = [r for r in vlt if r["type"] == "request"]
    assert len(reqs) * 2 == len(vlt) == len({r["request"]["id"] for r in vlt}) * 2
    f["vl_addrs"] = len({r["request"]["remote_address"] for r in vlt})
    assert f["vl_addrs"] == 83
    [(f["vl_top_who"], _)] = T.ranked(T.group(reqs, lambda r: r["auth"]["display_name"]))
    assert f["vl_top_who"] == "kubernetes-booking-booking-api"
    denied = lambda r: "permission denied" in r.get("error", "")  # noqa: E731
    [(f["vl_top_denied"], _)] = T.ranked(T.group(reqs, lambda r: r["request"]["path"], denied))
    assert f["vl_top_denied"] == "database/creds/booking-rw"
    path_ok = lambda r: r["request"]["path"] == f["vl_top_denied"] and not denied(r)  # noqa: E731
    first_denied = first(reqs, lambda r: denied(r) and r["request"]["path"] == f["vl_top_denied"])
    f["vl_first_denied"] = hms(first_denied)
    assert f["vl_first_denied"] == "3:06:14"
    f["vl_last_ok"] = hms(max(r["t"] for r in reqs if path_ok(r) and r["t"] < first_denied))
    assert f["vl_last_ok"] == "3:04:51"
    assert not any(path_ok(r) and r["t"] > first_denied for r in reqs)
    pol = [r for r in reqs if r["request"]["path"] == "sys/policies/acl/booking-api"]
    assert len(pol) == 1 and pol[0]["auth"]["display_name"] == "userpass-tdevlin"
    f["vl_policy_at"] = hms(pol[0]["t"])
    assert f["vl_policy_at"] == "3:05:26"

    # --- notify-worker.log
    nt = texts["notify-worker.log"]
    no = T.parse_pino(nt)
    assert len(no) == 1500
    f["no_err50"] = T.count(no, lambda r: r["level"] == 50)
    assert f["no_err50"] == 96 == nt.count('"level":50')
    cert = lambda r: r.get("err", {}).get("code") == "CERT_HAS_EXPIRED"  # noqa: E731
    f["no_cert"] = T.count(no, cert)
    assert f["no_cert"] == 90 == nt.count("CERT_HAS_EXPIRED")
    f["no_err_hour"] = peak(no, lambda r: r["level"] == 50, lambda r: r["t"].hour)
    assert f["no_err_hour"] == 3
    f["no_first_cert"] = hms(first(no, cert))
    assert f["no_first_cert"] == "3:00:04"
    sent = [r for r in no if r["msg"] == "notification sent"]
    assert len(sent) == 661
    f["no_sms_refs"] = len({r["booking_ref"] for r in sent if r["channel"] == "sms"})
    assert f["no_sms_refs"] == 377
    f["no_least_tmpl"], _ = T.least(T.group(sent, lambda r: r["template"]))
    assert f["no_least_tmpl"] == "refund-issued"
    ds = sorted((r["durationMs"] for r in sent), reverse=True)
    assert ds[0] == 18422 and ds[1] < 9000
    assert max(r.get("durationMs", 0) for r in no) == 18422
    f["no_max_dur"] = ["18.42", "18.4 s", "18.4s", "18.4 秒", "18.4秒", "18422", "18,422"]

    # --- syslog
    sy = T.parse_syslog(texts["syslog"])
    fp = lambda r: r["prog"] == "sshd" and r["msg"].startswith("Failed password")  # noqa: E731
    assert T.count(sy, fp) == 118 == texts["syslog"].count("Failed password")
    [(f["sy_top_ip"], _)] = T.ranked(T.group(sy, lambda r: re.search(r" from (\S+) port", r["msg"]).group(1), fp))
    assert f["sy_top_ip"] == "45.146.165.37"
    f["sy_oom"] = hms(first(sy, lambda r: r["msg"].find("Out of memory: Killed process") >= 0))
    assert f["sy_oom"] == "2:31:52"
    f["sy_certbot_last"] = hms(last(sy, lambda r: r["prog"] == "certbot"))
    assert f["sy_certbot_last"] == "2:58:41"
    f["sy_checkin_exit"] = hms(first(sy, lambda r: r["msg"].startswith("checkin-web.service: Main process exited")))
    assert f["sy_checkin_exit"] == "1:41:03"

    # --- checkin-access.log
    ng = T.parse_combined(texts["checkin-access.log"])
    f["ng_peak_min"] = peak(ng, lambda r: True, lambda r: hm(r["t"]))
    assert f["ng_peak_min"] == "1:42"
    top_ip = T.ranked(T.group(ng, lambda r: r["ip"]), 3)
    assert top_ip == [("10.60.4.21", 141), ("10.60.2.9", 118), ("10.60.7.33", 97)]
    f["ng_top_ips"] = [ip for ip, _ in top_ip]
    stem = lambda r: "/kiosk/api/boardingpass" if r["path"].startswith("/kiosk/api/boardingpass/") else r["path"]  # noqa: E731
    paths = T.ranked(T.group(ng, stem), 6)
    f["ng_paths_4_6"] = [p for p, _ in paths[3:]]
    assert f["ng_paths_4_6"] == ["/kiosk/static/app.js", "/kiosk/api/seatmap", "/kiosk/static/app.css"]
    s502 = [r for r in ng if r["status"] == 502]
    assert len(s502) >= 60
    f["ng_502"] = len(s502)
    f["ng_first_502"] = hms(min(r["t"] for r in s502))
    assert f["ng_first_502"] == "1:41:04"

    # the timelines must read one way only
    assert f["ca_first_gc_warn"] < f["ba_first_timeout"] < f["va_first_503"] < f["co_first_crit_booking"]
    assert f["ca_last_error"] < f["sy_oom"] < f["ca_cql_up"] < f["co_join"]
    assert f["vl_policy_at"] < f["vl_first_denied"] == f["ba_first_vault"] < f["va_first_503_vault"]
    assert f["sy_certbot_last"] < f["no_first_cert"]
    assert f["sy_checkin_exit"] < f["ng_first_502"] < f["co_checkin_crit"]
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
