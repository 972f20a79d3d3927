#!/usr/bin/env python3
"""Generates the `queries-heldout18` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout18.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout18.jsonl
    python3 gen.py --check    # regenerate in memory; fail if anything on disk differs or a case is malformed
    python3 gen.py -v         # also print every figure
"""

import json
import re
import sys
from datetime import datetime
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20360221
HERE = Path(__file__).resolve().parent
SET = "queries-heldout18"
MAX_BYTES = 9_000_000

HAP, BASKETD, KAFKA = "haproxy.log", "basketd.log", "server.log"


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


def first(rows, pred, key="t"):
    return min(r[key] for r in rows if pred(r))


def last(rows, pred, key="t"):
    return max(r[key] for r in rows if pred(r))


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
    """The top k, each ahead of the next by `margin` (ties further down do not matter)."""
    top = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:k + 1]
    assert len(top) == k + 1, top
    for i in range(k):
        assert top[i][1] > margin * top[i + 1][1], top
    return [x for x, _ in top[:k]]


def ns_ms_opts(ns):
    """A duration logged in ns, asked in ms: the whole ms (truncated = rounded), or the seconds to
    2 decimals (truncated = rounded) when it is a second or more."""
    m = ns / 1e6
    assert 0.05 < m % 1 < 0.45, m
    whole = int(m)
    out = [str(whole)] + ([f"{whole:,}"] if whole >= 1000 else [])
    if whole >= 1000:
        s = m / 1000
        assert int(s * 100) == round(s * 100), s
        out.append(f"{s:.2f}")
    return out


def build_fixtures():
    return W.write_all(SEED)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- HAProxy
    ht = texts[HAP]
    hall = T.parse_haproxy(ht)
    hl = [r for r in hall if "ip" in r]
    other = [r for r in hall if "ip" not in r]
    assert len(hl) == len(night.reqs) and all(r["proto"] == "HTTP/1.1" for r in hl)
    api = [r for r in hl if r["be"] == "be_api"]
    s429 = lambda r: r["st"] == 429  # noqa: E731
    f["h_429"] = T.count(hl, s429)
    assert f["h_429"] == ht.count(" 429 ") == T.count(hl, lambda r: r["flags"] == "PR--")
    f["h_api_5xx"] = T.count(api, lambda r: 500 <= r["st"] < 600)
    assert T.count(hl, lambda r: r["st"] >= 500 and r["be"] != "be_api") == 0
    by_ip = T.group(hl, lambda r: r["ip"])
    f["h_top3_ip"] = strict_top(by_ip, 3)
    assert f["h_top3_ip"] == [W.STUFF1, W.PARTNER, W.STUFF2], f["h_top3_ip"]
    p95 = same_by_any_definition([r["Ta"] for r in api], 95)
    assert p95 == night.ta_p95 >= 60
    f["h_ta_p95"] = n(p95)
    trs = sorted(((r["Tr"], r["srv"], r["tr"]) for r in hl), reverse=True)
    assert trs[0][0] == W.MAX_TR_MS and trs[1][0] < 0.8 * trs[0][0], trs[:3]
    f["h_max_tr"], f["h_max_tr_srv"] = trs[0][0], trs[0][1]
    assert f["h_max_tr_srv"] == "basket-2"
    downs = [r["t"] for r in other if r["msg"].startswith("Server be_api/basket-2 is DOWN")]
    ups = [r["t"] for r in other if r["msg"].startswith("Server be_api/basket-2 is UP")]
    assert len(downs) == len(ups) == 1
    f["h_b2_down"], f["h_b2_up"] = downs[0], ups[0]
    assert hms(f["h_b2_down"]) == hms(W.DOWN)
    assert min(r["t"] for r in other if " is DOWN" in r["msg"]) < f["h_b2_down"]  # another server went down first
    f["h_last_429"] = last(hl, s429)
    assert hms(f["h_last_429"]) == hms(last(hl, s429, "tr")) == hms(night.last_429)
    assert hms(first(hl, s429)) == hms(first(hl, s429, "tr")) == hms(W.FIRST_429)
    pk_t = peak(hl, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    pk_a = peak(hl, lambda r: True, lambda r: T.minutes(r["tr"]), margin=1.3)
    assert pk_t == pk_a == W.STUFF_BURST
    f["h_peak"] = hm(pk_t)
    f["h_distinct_ip"] = len({r["ip"] for r in hl})
    slow = lambda r: r["Ta"] > 1000  # noqa: E731
    assert T.count(hl, lambda r: r["Ta"] == 1000) == 0
    w1 = clock_window(hl, slow, "02:20", "02:50")
    w2 = clock_window(hl, slow, "02:20", "02:50", key="tr")
    assert w1 == w2
    f["h_slow_window"] = w1
    f["h_b2_share"] = pct(T.count(api, lambda r: r["srv"] == "basket-2"), len(api))
    top429 = strict_top(T.group(hl, lambda r: r["ip"], s429), 1)[0]
    assert top429 == W.STUFF1
    f["h_top429_total"] = by_ip[top429]
    b2_504 = [r for r in hl if r["st"] == 504 and r["srv"] == "basket-2"]
    assert T.count(hl, lambda r: r["st"] == 504) == len(b2_504) and all(r["flags"] == "sH--" for r in b2_504)
    f["h_first_504_tr"] = min(r["tr"] for r in b2_504)
    f["h_first_504_t"] = min(r["t"] for r in b2_504)

    # --- basketd (slog JSON)
    bt = texts[BASKETD]
    bl = T.parse_slog(bt)
    assert all(bl[i]["t"] <= bl[i + 1]["t"] for i in range(len(bl) - 1))
    done = [r for r in bl if r["msg"] == "request completed"]
    canceled = [r for r in bl if r["msg"] == "request canceled"]
    f["b_errors"] = T.count(bl, lambda r: r["level"] == "ERROR")
    assert f["b_errors"] == bt.count('"level":"ERROR"')
    co = [r for r in done if r["method"] == "POST" and r["path"] == "/api/v1/checkout"]
    assert not [r for r in canceled if r["path"] == "/api/v1/checkout"]
    f["b_checkout_503"] = T.count(co, lambda r: r["status"] == 503)
    paths = T.group(done, lambda r: r["path"])
    f["b_top3_paths"] = strict_top(paths, 3)
    assert [k for k, _ in T.ranked(T.group([r for r in bl if "path" in r], lambda r: r["path"]), 3)] == f["b_top3_paths"]
    p99 = same_by_any_definition([r["duration"] for r in co], 99)
    assert abs(p99 / 1e6 - night.checkout_p99_ms) < 0.001
    f["b_checkout_p99"] = ns_ms_opts(p99)
    for rows in (done, done + canceled):
        s, c = T.total(rows, lambda r: r["instance"], lambda r: r["duration"]), T.group(rows, lambda r: r["instance"])
        means = sorted(((s[k] / c[k], k) for k in s), reverse=True)
        assert means[0][1] == "basket-2" and means[1][0] * 1.5 < means[0][0], means
    f["b_slowest_inst"] = "basket-2"
    f["b_first_canceled"] = first(canceled, lambda r: True)
    assert {r["instance"] for r in canceled} == {"basket-2"}
    lf = [r for r in bl if r["msg"] == "login failed"]
    top_lf = strict_top(T.group(lf, lambda r: r["remote_ip"]), 1)[0]
    assert top_lf == W.STUFF1
    f["b_stuff_users"] = len({r["username"] for r in lf if r["remote_ip"] == top_lf})
    f["b_peak_warn"] = hm(peak(bl, lambda r: r["level"] == "WARN", lambda r: T.minutes(r["t"]), margin=1.3))
    f["b_distinct_users"] = len({r["user_id"] for r in bl if "user_id" in r})
    pub = [r for r in bl if r["msg"] == "publish order event failed"]
    f["b_first_pub"], f["b_last_pub"] = first(pub, lambda r: True), last(pub, lambda r: True)
    starts = [r for r in bl if r["msg"] == "starting basketd"]
    assert len(starts) == 1 and starts[0]["instance"] == "basket-2"
    f["b_version"] = starts[0]["version"]
    f["b_restart"] = starts[0]["t"]
    pg = sorted(((r["elapsed"], r["instance"], r["t"]) for r in bl if r["msg"] == "postgres query slow"), reverse=True)
    assert pg[0][0] == W.MAX_PG_NS and pg[1][0] < 0.8 * pg[0][0], pg[:3]
    f["b_max_pg"], f["b_max_pg_inst"] = ns_ms_opts(pg[0][0]), pg[0][1]
    assert f["b_max_pg_inst"] == "basket-3"

    # --- Kafka server.log
    kt = texts[KAFKA]
    kl = T.parse_kafka(kt)
    assert all(kl[i]["t"] <= kl[i + 1]["t"] for i in range(len(kl) - 1))
    shr = [r for r in kl if "Shrinking ISR" in r["msg"]]
    part = lambda r: re.match(r"\[Partition (\S+) broker=2\]", r["msg"]).group(1)  # noqa: E731
    f["k_shrinks"] = len(shr)
    assert f["k_shrinks"] == kt.count("Shrinking ISR")
    f["k_errors"] = T.count(kl, lambda r: r["level"] == "ERROR")
    assert f["k_errors"] == kt.count("] ERROR ")
    f["k_top_shrink"] = strict_top(T.group(shr, part), 1)[0]
    assert f["k_top_shrink"] == W.FLAP
    ner = [r for r in kl if "NotEnoughReplicasException" in T.exceptions(r)]
    f["k_first_ner"] = first(ner, lambda r: True)
    exp = [r for r in kl if "Expanding ISR" in r["msg"]]
    f["k_last_expand"] = last(exp, lambda r: True)
    assert part(max(exp, key=lambda r: r["t"])) == W.FLAP
    f["k_peak_warn"] = hm(peak(kl, lambda r: r["level"] == "WARN", lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["k_peak_warn"] == hm(W.PROBE_BURST)
    f["k_distinct_shrunk"] = len({part(r) for r in shr})
    exc = T.Counter(x for r in kl for x in T.exceptions(r))
    f["k_top_exc"] = strict_top(exc, 1)[0]
    assert f["k_top_exc"] == "InvalidReceiveException"
    src = T.group(kl, lambda r: re.search(r"Unexpected error from /([\d.]+) ", r["msg"]).group(1),
                  lambda r: "Unexpected error from /" in r["msg"])
    f["k_probe_ip"] = strict_top(src, 1)[0]
    f["k_probe_n"] = src[f["k_probe_ip"]]
    assert f["k_probe_ip"] == W.PROBE and f["k_probe_n"] == exc["InvalidReceiveException"] - src[W.PROBE2]
    gens = [(r["t"], int(re.search(r"generation (\d+) ", r["msg"]).group(1))) for r in kl
            if r["msg"].startswith("[GroupCoordinator 2]: Stabilized group checkout-workers ")]
    f["k_gen"] = max(gens)[1]
    assert f["k_gen"] == max(g for _, g in gens) == night.checkout_gen
    rolls = sorted(((int(re.search(r" in (\d+) ms\.$", r["msg"]).group(1)), re.search(r"partition=([\w-]+),", r["msg"]).group(1))
                    for r in kl if "Rolled new log segment" in r["msg"]), reverse=True)
    assert rolls[0] == (W.MAX_ROLL_MS, W.MAX_ROLL_PART) and rolls[1][0] < 0.8 * rolls[0][0], rolls[:3]
    f["k_max_roll"], f["k_max_roll_part"] = rolls[0]
    ner_part = T.group(ner, lambda r: re.search(r"on partition (\S+)$", r["msg"]).group(1))
    f["k_ner_top"] = strict_top(ner_part, 1)[0]
    assert f["k_ner_top"] == "orders-7"
    f["k_ner_top_n"] = ner_part["orders-7"]
    f["k_first_ioe"] = first(kl, lambda r: "IOException" in T.exceptions(r))
    f["k_first_shrink"] = first(shr, lambda r: True)
    def adds3(r):
        old, new = re.search(r"Expanding ISR from (\S+) to (\S+)$", r["msg"]).groups()
        return "3" in new.split(",") and "3" not in old.split(",")
    back3 = [r for r in exp if adds3(r)]
    assert all(r["t"] < datetime(2036, 2, 21, 2) for r in back3)
    f["k_last_expand3"] = max(r["t"] for r in back3)
    assert f["k_last_expand3"] == W.LAST_EXPAND

    # --- the files agree with each other
    served = [r for r in api if r["srv"] != "<NOSRV>" and r["flags"] != "SH--"]
    assert len(served) == len(done) + len(canceled)
    assert T.count(hl, lambda r: r["st"] == 504) == len(canceled)
    assert len(pub) == len(ner) == f["b_checkout_503"] == \
        T.count(api, lambda r: r["path"] == "/api/v1/checkout" and r["st"] == 503) == f["k_errors"] - 6
    assert T.count(hl, lambda r: r["ip"] == W.STUFF1 and r["st"] == 401) == T.count(lf, lambda r: r["remote_ip"] == W.STUFF1)
    assert T.count(done, lambda r: r["status"] == 401) == len(lf)

    # --- timelines (each event in its own second, in one order only)
    f["tl_b2"] = [[hms(f["h_first_504_tr"]), hms(f["h_first_504_t"])]] + \
        [[x] for x in ordered(f["h_first_504_t"], f["h_b2_down"], f["b_restart"], f["h_b2_up"])[1:]]
    assert f["h_first_504_tr"] < f["h_b2_down"]
    f["tl_kafka"] = [[x] for x in ordered(f["k_first_ioe"], f["k_first_shrink"], f["b_first_pub"], f["k_last_expand3"])]
    assert f["k_first_ner"] <= f["b_first_pub"] and hms(f["k_first_ner"]) == hms(f["b_first_pub"])
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


AREAS = {"haproxy", "slog", "kafka", "proc"}
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


def languages(rows):
    """25 Chinese and 25 English questions; 12-13 cases an area."""
    zh = [c for c in rows if re.search(r"[\u4e00-\u9fff]", c["text"])]
    assert len(zh) == 25 and len(rows) == 50, (len(zh), len(rows))
    for area in AREAS:
        k = sum(1 for c in rows if c["area"] == area)
        assert 12 <= k <= 13, (area, k)
    for c in rows:
        is_zh = bool(re.search(r"[\u4e00-\u9fff]", c["text"]))
        assert is_zh == c["id"].endswith("-zh"), c["id"]
        for t in c.get("turns", []):
            assert bool(re.search(r"[\u4e00-\u9fff]", t)) == is_zh, c["id"]


def main():
    texts, night = build_fixtures()
    f = facts(texts, night)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, set(texts))
    languages(rows)
    seen = check_cases(rows)
    # no figure asked for reads like an HTTP status of these logs
    assert not [(v, i) for v, i in seen.items() if v in W.STATUS_LIKE], seen
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
