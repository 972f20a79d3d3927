#!/usr/bin/env python3
"""Generates the `queries-heldout16` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout16.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout16.jsonl
    python3 gen.py --check    # regenerate in memory; fail if anything on disk differs or a case is malformed
    python3 gen.py -v         # also print every figure
"""

import json
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20351012
HERE = Path(__file__).resolve().parent
SET = "queries-heldout16"
MAX_BYTES = 9_000_000

S3, FS, EVE = "s3-harrowline-episodes-20351012.log", "feedsmith.log", "eve.json"


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute; the hour unpadded so `02:21` and `2:21` both pass."""
    return f"{t.hour}:{t.minute:02d}"


def hms(t):
    return f"{t.hour}:{t.minute:02d}:{t.second:02d}"


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


def pct(k, total):
    """A share in percent to one decimal, asserted off the rounding edge (rounded = truncated)."""
    p = 100 * k / total
    assert 0.1 < (p * 10) % 1 < 0.45 and int(p * 10) % 10, p
    return f"{p:.1f}"


def strict_top(counter, k, margin=1.2):
    top = T.ranked(counter, k + 1)
    for i in range(k):
        assert top[i][1] > margin * top[i + 1][1], top
    return [x for x, _ in top[:k]]


def build_fixtures():
    return W.write_all(SEED)


def gb_opts(b):
    """A byte total asked in GB: decimal GB and binary GiB, one decimal (both off their rounding edges)."""
    out = []
    for scale in (1e9, 2 ** 30):
        x = b / scale
        assert 0.05 < (x * 10) % 1 < 0.45, x
        out.append(f"{x:.1f}")
    return out


def mb_opts(b):
    """A size asked in MB: the bytes, decimal MB and binary MiB (one decimal, off the rounding edge)."""
    out = [str(b), f"{b:,}"]
    for scale in (1e6, 2 ** 20):
        x = b / scale
        assert 0.05 < (x * 10) % 1 < 0.45, x
        out.append(f"{x:.1f}")
    return out


def sec_opts(msv):
    """A duration in whole ms asked in seconds: 3 and 2 decimals (the 2-decimal one a truncation too), or the ms."""
    assert msv % 10 < 5, msv
    return [str(msv), f"{msv / 1000:.3f}", f"{msv / 1000:.2f}"] + ([f"{msv:,}"] if msv >= 1000 else [])


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- the S3 server access log
    st = texts[S3]
    sl = T.parse_s3(st)
    assert all(r["bucket"] == W.BUCKET and r["owner"] == W.OWNER for r in sl)
    slow = lambda r: r["err"] == "SlowDown"  # noqa: E731
    f["s_slowdown"] = T.count(sl, slow)
    assert f["s_slowdown"] == st.count(" 503 SlowDown ")
    assert all(r["status"] == 503 for r in sl if slow(r)) and T.count(sl, lambda r: r["status"] == 503) == f["s_slowdown"]
    puts = [r for r in sl if r["op"] == "REST.PUT.OBJECT" and r["status"] == 200]
    assert sum(r["total"] for r in puts) == night.put_mean * len(puts)
    f["s_put_mean_s"] = sec_opts(night.put_mean)
    sent = T.total(sl, lambda r: r["ip"], lambda r: r["sent"] or 0)
    f["s_top3_bytes"] = strict_top(sent, 3)
    assert f["s_top3_bytes"][0] == W.CRAWL[0], f["s_top3_bytes"]
    gets = [r for r in sl if r["op"] == "REST.GET.OBJECT"]
    p99 = same_by_any_definition([r["tat"] for r in gets], 99)
    assert p99 == night.tat_p99 >= 60
    f["s_tat_p99"] = [str(p99)]
    f["s_bytes_gb"] = gb_opts(sum(r["sent"] or 0 for r in sl))
    sizes = {}
    for r in sl:
        if r["size"] is not None:
            sizes[r["key"]] = max(sizes.get(r["key"], 0), r["size"])
    big = sorted(sizes.items(), key=lambda kv: -kv[1])
    assert big[0][0] == night.big_key and big[1][1] < 0.8 * big[0][1], big[:3]
    f["s_max_key"] = big[0][0].rsplit("/", 1)[1]
    f["s_max_size"] = mb_opts(big[0][1])
    deny = lambda r: r["err"] == "AccessDenied"  # noqa: E731
    assert all(r["op"] == "REST.PUT.OBJECT" and r["status"] == 403 for r in sl if deny(r))
    f["s_first_deny"] = first(sl, deny)
    assert hms(f["s_first_deny"]) == hms(W.FIRST_DENY)
    f["s_last_slowdown"] = last(sl, slow)
    assert hms(f["s_last_slowdown"]) == hms(W.LAST_SLOWDOWN)
    assert hms(first(sl, slow)) == hms(W.FIRST_SLOWDOWN)
    f["s_peak_get"] = hm(peak(gets, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["s_peak_get"] == hm(W.BURST_MIN)
    f["s_distinct_keys"] = len({r["key"] for r in gets})
    top_slow = strict_top(T.group(sl, lambda r: r["ip"], slow), 1)[0]
    assert top_slow == W.CRAWL[0]
    f["s_slow_ip_total"] = T.count(sl, lambda r: r["ip"] == top_slow)
    pol = sorted((r for r in sl if r["op"] == "REST.PUT.BUCKETPOLICY"), key=lambda r: r["t"])
    assert len(pol) == 2 and "terraform-ci" in pol[0]["requester"] and "oncall-admin" in pol[1]["requester"]
    f["s_policy_who"] = "terraform-ci"
    f["s_policy_bad"], f["s_policy_fix"] = pol[0]["t"], pol[1]["t"]
    assert hms(pol[0]["t"]) == hms(W.POLICY_BAD) and hms(pol[1]["t"]) == hms(W.POLICY_FIX)
    f["s_first_put_ok_after"] = min(r["t"] for r in puts if r["t"] > pol[1]["t"])

    # --- feedsmith (tracing fmt)
    ft = texts[FS]
    fl = T.parse_fs(ft)
    fin = [r for r in fl if "status" in r]
    err = lambda r: r["level"] == "ERROR"  # noqa: E731
    f["f_errors"] = T.count(fl, err)
    assert f["f_errors"] == ft.count("Z ERROR ")
    f["f_429"] = T.count(fin, lambda r: r["status"] == 429)
    assert f["f_429"] == T.count(fl, lambda r: r["body"].startswith("rate limited "))
    rendered = [r for r in fl if r["body"].startswith("rendered feed ")]
    for r in rendered:
        kv = T.fs_fields(r["body"])
        r["show"], r["render"] = kv["show"], int(kv["render_ms"])
    p75 = same_by_any_definition([r["render"] for r in rendered], 75)
    assert p75 == night.render_p75 >= 60
    f["f_render_p75"] = [str(p75), f"{p75 / 1000:.3f}"]
    rs, rc = {}, {}
    for r in rendered:
        rs[r["show"]] = rs.get(r["show"], 0) + r["render"]
        rc[r["show"]] = rc.get(r["show"], 0) + 1
    means = sorted(((rs[k] / rc[k], k) for k in rs), reverse=True)
    assert means[0][1] == "the-long-table" and means[1][0] * 1.5 < means[0][0], means[:3]
    f["f_slowest_show"] = "the-long-table"
    feeds = T.group(fin, lambda r: r["uri"][len("/feeds/"):-len(".xml")], lambda r: re.fullmatch(r"/feeds/[\w-]+\.xml", r["uri"]))
    f["f_top3_feeds"] = strict_top(feeds, 3)
    # the same three whether one counts the finished requests or every line carrying the uri
    spans = T.group(fl, lambda r: r["uri"][len("/feeds/"):-len(".xml")],
                    lambda r: re.fullmatch(r"/feeds/[\w-]+\.xml", r.get("uri", "")))
    assert [k for k, _ in T.ranked(spans, 3)] == f["f_top3_feeds"]
    pool = lambda r: "pool timed out" in r["body"]  # noqa: E731
    f["f_first_pool"] = first(fl, pool)
    assert hms(f["f_first_pool"]) == hms(W.DB_A) and hms(last(fl, pool)) == hms(W.DB_B)
    s503 = lambda r: r.get("status") == 503  # noqa: E731
    f["f_503_window"] = clock_window(fin, s503, "02:40", "02:50")
    assert f["f_503_window"] == T.count(fin, s503) == ft.count("status=503\n")
    f["f_peak_error"] = hm(peak(fl, err, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["f_peak_error"] == hm(W.HERD_MIN)
    pf = lambda r: r["body"].startswith("put_object failed")  # noqa: E731
    f["f_first_putfail"], f["f_last_putfail"] = first(fl, pf), last(fl, pf)
    assert hms(f["f_first_putfail"]) == hms(W.FIRST_DENY) and hms(f["f_last_putfail"]) == hms(W.LAST_DENY)
    f["f_distinct_clients"] = len({r["client"] for r in fl if "client" in r})
    slows = [(r["t"], float(re.search(r" elapsed=([\d.]+)s ", r["body"]).group(1))) for r in fl
             if r["body"].startswith("slow statement")]
    slows.sort(key=lambda x: -x[1])
    assert slows[0][1] == W.MAX_SLOW and slows[1][1] < 0.8 * slows[0][1]
    e = slows[0][1]
    assert int(e * 100) == round(e * 100)
    f["f_max_slow_s"] = [f"{e:.3f}", f"{e:.2f}", str(int(e * 1000))]
    f["f_max_slow_at"] = slows[0][0]
    [rp] = [r for r in fl if r["body"].startswith("replaying parked uploads")]
    f["f_replayed"] = int(T.fs_fields(rp["body"])["objects"])
    f["f_replay"] = rp["t"]
    assert f["f_replayed"] == T.count(fl, pf) == T.count(sl, deny)
    assert T.count(fl, lambda r: r["body"].startswith("stored object")) == len(puts)
    [f["f_db_lost"]] = [r["t"] for r in fl if r["body"].startswith("lost connection to database")]
    [f["f_db_ok"]] = [r["t"] for r in fl if r["body"].startswith("database connection restored")]
    f["f_first_429"] = first(fin, lambda r: r["status"] == 429)

    # --- Suricata EVE
    ev = T.parse_eve(texts[EVE])
    al = [r for r in ev if r["event_type"] == "alert"]
    http = [r for r in ev if r["event_type"] == "http"]
    f["e_alerts"] = len(al)
    assert f["e_alerts"] == texts[EVE].count('"event_type":"alert"')
    sigs = T.group(al, lambda r: r["alert"]["signature"])
    f["e_top3_sigs"] = strict_top(sigs, 3)
    f["e_404"] = T.count(http, lambda r: r["http"]["status"] == 404)
    feeds200 = [r["http"]["length"] for r in http if r["http"]["url"].startswith("/feeds/") and r["http"]["status"] == 200]
    f["e_p95_len"] = same_by_any_definition(feeds200, 95)
    by_src = T.group(al, lambda r: r["src_ip"])
    top_src = strict_top(by_src, 1)[0]
    assert top_src == W.SCANNER
    f["e_first_scan"] = first(al, lambda r: r["src_ip"] == W.SCANNER)
    f["e_last_scan"] = last(al, lambda r: r["src_ip"] == W.SCANNER)
    assert hms(f["e_first_scan"]) == hms(W.SCAN_A) and hms(f["e_last_scan"]) == hms(W.SCAN_B)
    f["e_peak_alert"] = hm(peak(al, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["e_peak_alert"] == hm(W.SCAN_BURST)
    f["e_distinct_http_src"] = len({r["src_ip"] for r in http})
    stats = [r for r in ev if r["event_type"] == "stats"]
    f["e_last_drops"] = stats[-1]["stats"]["capture"]["kernel_drops"]
    assert f["e_last_drops"] == night.last_drops
    assert stats[-1]["stats"]["detect"]["alert"] - stats[0]["stats"]["detect"]["alert"] == \
        T.count(al, lambda r: stats[0]["t"] <= r["t"] < stats[-1]["t"])
    f["e_sev1"] = T.count(al, lambda r: r["alert"]["severity"] == 1)
    snatch = T.count(http, lambda r: r["http"]["http_user_agent"].startswith("PodSnatch"))
    f["e_snatch_pct"] = pct(snatch, len(http))
    lens = sorted(((r["http"]["length"], r["http"]["url"]) for r in http), reverse=True)
    assert lens[0][0] > 1.25 * max(x for x, u in lens if u != lens[0][1])
    f["e_max_len"], f["e_max_len_url"] = lens[0]
    assert f["e_max_len_url"] == "/feeds/the-long-table.xml" and f["e_max_len"] != f["e_p95_len"]
    storm = [r for r in al if r["alert"]["signature_id"] == 9100012]
    assert {r["src_ip"] for r in storm} == set(W.CRAWL)
    f["e_first_snatch"] = first(http, lambda r: r["http"]["http_user_agent"].startswith("PodSnatch"))
    f["e_first_storm_alert"] = min(r["t"] for r in storm)

    # --- the files agree with each other
    port80 = [r for r in fin if r["version"] == "HTTP/1.1"]
    assert len(port80) == T.count(http, lambda r: r["dest_port"] == 80)
    redirects = T.count(fin, lambda r: r["status"] == 302)
    assert redirects == T.count(http, lambda r: r["http"]["status"] == 302) == \
        T.count(sl, lambda r: r["op"] == "REST.GET.OBJECT" and r["requester"] == "-")
    assert f["f_429"] == T.count(http, lambda r: r["http"]["status"] == 429)
    assert T.count(http, lambda r: r["http"]["status"] == 404) == T.count(fin, lambda r: r["status"] == 404)

    # --- timelines (each event in its own second, in one order only)
    f["tl_upload"] = ordered(f["s_policy_bad"], f["s_first_deny"], f["s_policy_fix"], f["f_replay"])
    f["tl_storm"] = ordered(f["e_first_snatch"], f["e_first_storm_alert"], f["f_first_429"], first(sl, slow))
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


AREAS = {"s3", "tracing", "eve", "proc"}
PH_KINDS = ("pid", "pids", "count", "port", "user")


def _placeholders(s):
    """`{kind:arg}` placeholders naming planted processes, as `query_case.rs`'s test reads them."""
    out = []
    for piece in s.split("{")[1:]:
        if "}" not in piece:
            continue
        inner = piece.split("}", 1)[0]
        if ":" in inner:
            kind, arg = inner.split(":", 1)
            if kind in PH_KINDS:
                out.append((kind, arg))
    return out


def well_formed(rows, fixture_names):
    """The rules of `query_sets_are_well_formed` (tests/tests/eval/query_case.rs), plus this set's own."""
    assert len(rows) >= 40, len(rows)
    for c in rows:
        cid = c["id"]
        specs = c.get("procs", [])
        assert isinstance(specs, list), cid
        for s in specs:
            assert isinstance(s.get("name"), str), cid
            assert 1 <= len(s["name"]) <= 15 and "/" not in s["name"], (cid, s["name"])
            assert set(s) <= {"name", "args", "count", "user", "listen", "interp", "mem_mb"}, (cid, s)
            assert all(isinstance(a, str) for a in s.get("args", [])), cid
        for name in c.get("files", []):
            assert name in fixture_names, (cid, name)
        texts = [json.dumps(c["text"], ensure_ascii=False), json.dumps(c.get("answer_has"), ensure_ascii=False),
                 json.dumps(c.get("turns"), ensure_ascii=False)]
        if "approval" in c and "kill" in c["approval"]:
            texts.append("{count:" + c["approval"]["kill"] + "}")
        for kind, name in (p for t in texts for p in _placeholders(t)):
            mine = [s for s in specs if s["name"] == name]
            assert mine, (cid, kind, name, "not planted")
            copies = sum(max(1, s.get("count", 1)) for s in mine)
            assert kind != "pid" or copies == 1, (cid, "pid of", copies)
            assert kind != "port" or mine[0].get("listen"), (cid, name, "no port")
        assert (isinstance(c.get("answer_has"), list) and c["answer_has"]) or "approval" in c, (cid, "scores nothing")
        for want in c.get("answer_has", []):
            assert isinstance(want, str) or (isinstance(want, list) and want and all(isinstance(x, str) for x in want)), cid
        assert c["area"] in AREAS and c["cat"] and c["fmt"], cid
        assert (c["area"] == "proc") == (not c["files"]), cid
        assert all(isinstance(t, str) for t in c.get("turns", [])), cid


def main():
    texts, night = build_fixtures()
    f = facts(texts, night)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, set(texts))
    seen = check_cases(rows)
    # no figure asked for reads like an HTTP status of these logs (those appear only as timeline markers)
    timeline = {c["id"] for c in rows if c["cat"] == "timeline"}
    assert not [(v, i) for v, i in seen.items() if v in W.STATUS_LIKE and i not in timeline], seen
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    fx = HERE / "fixtures"
    if "--check" in sys.argv:
        stale = [name for name, text in texts.items() if not (fx / name).is_file() or (fx / name).read_text(encoding="utf-8") != text]
        extra = sorted(p.name for p in fx.iterdir() if p.name not in texts) if fx.is_dir() else []
        stale += [f"{x} (not generated)" for x in extra]
        cases_file = HERE / f"{SET}.jsonl"
        if not cases_file.is_file() or cases_file.read_text(encoding="utf-8") != out_cases:
            stale.append(f"{SET}.jsonl")
        if stale:
            sys.exit(f"out of date (run gen.py): {', '.join(stale)}")
        print(f"{SET}: {len(rows)} cases and {len(texts)} fixtures up to date")
        return
    fx.mkdir(exist_ok=True)
    for name, text in texts.items():
        (fx / name).write_text(text, encoding="utf-8")
    (HERE / f"{SET}.jsonl").write_text(out_cases, encoding="utf-8")
    print(f"{SET}: wrote {len(rows)} cases, {len(texts)} fixtures ({total / 1e6:.2f} MB)")
    if "-v" in sys.argv:
        for k, v in sorted(f.items()):
            print(f"  {k} = {v}")
        for name, text in texts.items():
            print(f"  {name}: {text.count(chr(10))} lines, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
