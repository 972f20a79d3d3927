#!/usr/bin/env python3
"""Generates the `queries-heldout20` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout20.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout20.jsonl
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

SEED = 20360522
HERE = Path(__file__).resolve().parent
SET = "queries-heldout20"
MAX_BYTES = 6_000_000

SQUID, KUBELET, VAULT = "squid-access.log", "kubelet.log", "vault_audit.log"


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


def standout(values, margin=1.25):
    """The largest value, above `margin` times the next."""
    v = sorted(values, reverse=True)
    assert v[0] > margin * v[1], v[:3]
    return v[0]


def secs2(x):
    """Seconds logged with more decimals, asked to 2: truncated = rounded."""
    assert 0.05 < (x * 100) % 1 < 0.45, x
    return f"{x:.2f}"


def ms_int(v):
    """A duration logged in whole ms: as logged (with or without separators) or, from a second
    up, as seconds to 2 decimals (asserted: truncated = rounded)."""
    out = [str(v)] + ([f"{v:,}"] if v >= 1000 else [])
    if v >= 1000:
        assert v % 10 in (1, 2, 3, 4), v
        out.append(f"{v / 1000:.2f}")
    return out


def either(*times):
    """One event read two ways (a squid line's logged end, or its start): either second passes."""
    return sorted({hms(t) for t in times})


def build_fixtures():
    return W.write_all(SEED)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- squid-access.log
    st = texts[SQUID]
    sl = T.parse_squid(st)
    assert all(sl[i]["t"] <= sl[i + 1]["t"] for i in range(len(sl) - 1))
    f["s_denied"] = T.count(sl, lambda r: r["code"] == "TCP_DENIED")
    assert f["s_denied"] == st.count("TCP_DENIED") == T.count(sl, lambda r: r["st"] == 403)
    f["s_503"] = T.count(sl, lambda r: r["st"] == 503)
    assert f["s_503"] == st.count("/503 ") == T.count(sl, lambda r: r["st"] >= 500)
    nw = [r for r in sl if r["host"] == W.NORTHWIND]
    p95 = same_by_any_definition([r["el"] for r in nw], 95)
    assert p95 == night.nw_p95
    f["s_nw_p95"] = ms_int(p95)
    slow = max(sl, key=lambda r: r["el"])
    standout([r["el"] for r in sl])
    f["s_slowest"], f["s_slowest_host"] = ms_int(slow["el"]), slow["host"]
    assert slow["host"] == W.PKG and slow["ip"] == W.NODE_IP
    big = max(sl, key=lambda r: r["bytes"])
    standout([r["bytes"] for r in sl], 1.2)
    f["s_biggest"], f["s_biggest_host"] = big["bytes"], big["host"]
    assert big["host"] == "s3.eu-west-1.amazonaws.com" and big is not slow
    f["s_pkg_total"] = sum(r["bytes"] for r in sl if r["host"] == W.PKG)
    f["s_top3_hosts"] = strict_top(T.group(sl, lambda r: r["host"]), 3)
    assert f["s_top3_hosts"] == [W.NORTHWIND, W.BLUEFIN, "api.stripe.com"], f["s_top3_hosts"]
    f["s_top3_bytes"] = strict_top(T.total(sl, lambda r: r["ip"], lambda r: r["bytes"]), 3)
    assert f["s_top3_bytes"] == [W.RESTORE_IP, W.NODE_IP, W.BIG_NODE], f["s_top3_bytes"]
    den = T.group(sl, lambda r: r["ip"], lambda r: r["code"] == "TCP_DENIED")
    top_den = strict_top(den, 1)[0]
    assert top_den == W.NOTEBOOK_IP
    f["s_notebook_total"] = T.count(sl, lambda r: r["ip"] == top_den)
    d0 = min((r for r in sl if r["code"] == "TCP_DENIED"), key=lambda r: r["t"])
    f["s_first_denied"] = either(d0["t"], d0["start"])
    e503 = [r for r in sl if r["st"] == 503]
    l503 = max(e503, key=lambda r: r["t"])
    f["s_last_503"] = either(l503["t"], l503["start"])
    assert len(f["s_last_503"]) == 1
    pk = peak(sl, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == peak(sl, lambda r: True, lambda r: T.minutes(r["start"]), margin=1.3) == W.T(3, 0)
    f["s_peak"] = hm(pk)
    # the carrier timeline: the first tunnel over 10 s (by its end and by its start it is the same line)
    over = [r for r in nw if r["el"] > 10000]
    o_end = min(over, key=lambda r: r["t"])
    assert o_end is min(over, key=lambda r: r["start"])
    f503 = min(e503, key=lambda r: r["t"])
    assert hms(f503["t"]) == hms(f503["start"])

    # --- kubelet.log
    kt = texts[KUBELET]
    kl = T.parse_kubelet(kt)
    assert all(kl[i]["t"] <= kl[i + 1]["t"] for i in range(len(kl) - 1))
    pf = [r for r in kl if r["msg"] == "Probe failed"]
    f["k_probe_failed"] = len(pf)
    assert len(pf) == kt.count('"Probe failed"')
    f["k_errors"] = T.count(kl, lambda r: r["level"] == "E")
    assert f["k_errors"] == kt.count("\nE0522 ") == len(re.findall(r"^E", kt, re.M))
    obs = [r for r in kl if r["msg"] == "Observed pod startup duration"]
    slo = [float(r["kv"]["podStartSLOduration"]) for r in obs]
    e2e = [T.go_duration(r["kv"]["podStartE2EDuration"]) for r in obs]
    for r, a, b in zip(obs, slo, e2e):
        pull = 0.0
        if not r["kv"]["firstStartedPulling"].startswith("0001-"):
            pull = (T.go_time(r["kv"]["lastFinishedPulling"]) - T.go_time(r["kv"]["firstStartedPulling"])).total_seconds()
        assert abs(b - a - pull) < 2e-6, (r["kv"]["pod"], a, b, pull)
    v = same_by_any_definition(slo, 95)
    assert abs(v - night.slo_p95) < 1e-9
    f["k_slo_p95"] = secs2(v)
    v = same_by_any_definition(e2e, 50)
    assert abs(v - night.e2e_p50) < 1e-9
    f["k_e2e_p50"] = secs2(v)
    mx = max(range(len(obs)), key=lambda i: e2e[i])
    standout(e2e)
    f["k_e2e_max_pod"] = obs[mx]["kv"]["pod"].split("/")[1]
    assert f["k_e2e_max_pod"] == night.ingest.name
    gs = obs[mx]["kv"]["podStartE2EDuration"]
    f["k_e2e_max"] = [secs2(e2e[mx]), gs[:gs.index(".") + 3]]
    f["k_distinct_pods"] = len({r["kv"]["pod"] for r in obs})
    assert f["k_distinct_pods"] == len(obs)
    f["k_top_probe_pod"] = strict_top(T.group(pf, lambda r: r["kv"]["pod"].split("/")[1]), 1)[0]
    assert f["k_top_probe_pod"] == "geo-cache-0"
    f["k_last_probe"] = last(pf, lambda r: True)
    crash = [r for r in kl if r["level"] == "E" and "CrashLoopBackOff" in r["kv"].get("err", "")]
    f["k_first_crash"] = first(crash, lambda r: True)
    ev = [r for r in kl if r["msg"].startswith("Eviction manager:")]
    assert len({hms(r["t"]) for r in ev}) == 1
    evicted = [r for r in ev if r["msg"] == "Eviction manager: pod is evicted successfully"]
    assert len(evicted) == 1
    f["k_evicted_pod"] = evicted[0]["kv"]["pod"].split("/")[1]
    f["k_evict_t"] = hms(evicted[0]["t"])
    pk = peak(kl, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == T.minutes(W.LABELS)
    f["k_peak"] = hm(pk)
    f["k_window"] = clock_window(pf, lambda r: True, "02:05", "02:30")
    qa_ready = [r for r in kl if r["msg"] == "SyncLoop (probe)" and r["kv"].get("status") == "ready"
                and "/quote-api-" in r["kv"]["pod"]]
    f["k_first_ready"] = qa_ready[0]["t"]
    assert qa_ready[0]["kv"]["pod"].endswith(night.qa1.name)
    qa_pf = [r for r in pf if r["kv"]["probeType"] == "Readiness" and "/quote-api-" in r["kv"]["pod"]]
    assert all(r["kv"]["probeType"] == "Liveness" for r in pf if r not in qa_pf)
    f["tl_carrier"] = [either(o_end["t"], o_end["start"]), [hms(qa_pf[0]["t"])], [hms(f503["t"])], [hms(qa_pf[-1]["t"])]]
    ordered(o_end["t"], qa_pf[0]["t"], f503["t"], qa_pf[-1]["t"])
    ordered(o_end["start"], qa_pf[0]["t"], f503["start"], qa_pf[-1]["t"])
    assert l503["t"] < qa_pf[-1]["t"] and f["k_last_probe"] > qa_pf[-1]["t"]

    # the files agree: the big pull through the proxy lies inside the kubelet's pulling window
    ing = next(r for r in obs if r["kv"]["pod"].endswith(night.ingest.name))
    pa, pb = T.go_time(ing["kv"]["firstStartedPulling"]), T.go_time(ing["kv"]["lastFinishedPulling"])
    assert pa <= slow["start"] and slow["t"] <= pb, (pa, slow["start"], slow["t"], pb)
    # the quote-api pod whose probes name 10.244.7.44 calls the carrier from that address
    assert any(r["ip"] == "10.244.7.44" for r in nw) and "10.244.7.44:8080" in kt

    # --- vault_audit.log
    vt = texts[VAULT]
    vl = T.parse_vault(vt)
    req = [e for e in vl if e["type"] == "request"]
    resp = [e for e in vl if e["type"] == "response"]
    assert len(resp) == T.count(req, lambda e: "error" not in e)
    dn = [e for e in vl if e.get("error") == "permission denied"]
    assert all(e["type"] == "request" for e in dn)
    f["v_denied"] = len(dn)
    assert f["v_denied"] == vt.count("permission denied")
    f["v_logins"] = T.count(req, lambda e: e["request"]["path"] == "auth/kubernetes/login")
    f["v_renew"] = T.count(req, lambda e: e["request"]["path"] == "sys/leases/renew")
    ip = lambda e: e["request"]["remote_address"]  # noqa: E731
    f["v_top3_ips"] = strict_top(T.group(req, ip), 3)
    assert f["v_top3_ips"] == strict_top(T.group(vl, ip), 3)
    assert f["v_top3_ips"][:2] == [W.ESO_IP, W.PROM_IP], f["v_top3_ips"]
    f["v_top_denied_dn"] = strict_top(T.group(dn, lambda e: e["auth"]["display_name"]), 1)[0]
    assert f["v_top_denied_dn"] == "kubernetes-booking-quote-api"
    pol = [e for e in req if e["request"]["path"] == "sys/policies/acl/quote-api" and e["request"]["operation"] == "update"]
    assert len(pol) == 2
    for e in pol:
        r2 = next(x for x in resp if x["request"]["id"] == e["request"]["id"])
        assert hms(r2["ts"]) == hms(e["ts"])
    f["v_policy_first"], f["v_policy_fix"] = pol[0]["ts"], pol[1]["ts"]
    assert {e["auth"]["display_name"] for e in pol} == {"userpass-dana.kovac"}
    qa_dn = [e for e in dn if e["auth"]["display_name"] == "kubernetes-booking-quote-api"]
    f["v_last_denied_qa"] = last(qa_dn, lambda e: True, "ts")
    pk = peak(req, lambda e: True, lambda e: T.minutes(e["ts"]), margin=1.3)
    assert pk == peak(vl, lambda e: True, lambda e: T.minutes(e["ts"]), margin=1.05) == T.minutes(W.ROLLOUT)
    f["v_peak"] = hm(pk)
    f["v_window"] = clock_window(dn, lambda e: True, "01:10", "01:40", key="ts")
    f["v_distinct_ips"] = len({ip(e) for e in req})
    assert f["v_distinct_ips"] == len({ip(e) for e in vl})
    f["v_share"] = pct(len(dn), len(req))
    lg = [e for e in req if e["request"]["path"].startswith("auth/userpass/login/")]
    assert len(lg) == 1 and lg[0]["request"]["path"].endswith("dana.kovac")
    r2 = next(x for x in resp if x["request"]["id"] == lg[0]["request"]["id"])
    assert hms(r2["ts"]) == hms(lg[0]["ts"]) and r2["auth"]["display_name"] == "userpass-dana.kovac"
    f["v_dana_login"] = lg[0]["ts"]
    f["v_dana"] = "dana.kovac"
    # the policy timeline: policy broken, quote-api's first denial, the first CrashLoopBackOff, policy fixed, ready
    after = min((e for e in dn if e["ts"] > f["v_policy_first"]), key=lambda e: e["ts"])
    assert hms(after["ts"]) == hms(qa_dn[0]["ts"])
    f["tl_policy"] = [[x] for x in ordered(f["v_policy_first"], after["ts"], f["k_first_crash"], f["v_policy_fix"],
                                           f["k_first_ready"])]
    # the files agree: every container start of the first new quote-api pod logged in to vault once
    starts = [r for r in kl if r["msg"] == "SyncLoop (PLEG): event for pod" and r["kv"]["pod"].endswith(night.qa1.name)
              and r["kv"]["event"]["Type"] == "ContainerStarted"]
    logins = [e for e in req if e["request"]["path"] == "auth/kubernetes/login" and ip(e) == night.qa1.ip]
    assert len(starts) - 1 == len(logins), (len(starts), len(logins))
    # ... and the denials stop before the fix, then the next start succeeds
    assert max(e["ts"] for e in dn if ip(e) in (night.qa1.ip, night.qw1.ip)) < f["v_policy_fix"] < f["k_first_ready"]
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


AREAS = {"squid", "kubelet", "vault", "proc"}
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
