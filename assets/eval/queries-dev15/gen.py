#!/usr/bin/env python3
"""Generates the `queries-dev15` set (a DEV set, written as carefully as a held-out one): the fixture logs
(seeded), their truth (parsed back from the written files by `truth.py`) and `queries-dev15.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-dev15.jsonl
    python3 gen.py --check    # regenerate in memory; fail if anything on disk differs or a case is malformed
    python3 gen.py -v         # also print every figure
"""

import ipaddress
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20261119
HERE = Path(__file__).resolve().parent
SET = "queries-dev15"
MAX_BYTES = 7_000_000

CONSUL, NAMED, KEA = "consul-srv-2.log", "named.log", "kea-dhcp4.log"


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute; the hour unpadded so `02:33` and `2:33` both pass."""
    return f"{t.hour}:{t.minute:02d}"


def hms(t):
    return f"{t.hour}:{t.minute:02d}:{t.second:02d}"


def minute_of(t):
    return t.hour * 60 + t.minute


def peak(rows, pred, key, margin=1.0, weight=lambda r: 1):
    """The one bucket with the most matching rows; `margin` asks it to lead the second by that factor."""
    c = Counter()
    for r in rows:
        if pred(r):
            c[key(r)] += weight(r)
    top = sorted(c.items(), key=lambda kv: -kv[1])[:2]
    assert top[0][1] > margin * top[1][1], top
    return top[0][0]


def ordered(*times):
    """Timeline events, each in its own second and in one order only."""
    secs = [hms(t) for t in times]
    assert all(a < b for a, b in zip(times, times[1:])), secs
    assert len(set(secs)) == len(secs), secs
    return secs


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


def only_token(text, token, k):
    """`grep -c` of a token agrees with the parse: the token appears on exactly k lines."""
    assert sum(1 for line in text.splitlines() if token in line) == k, (token, k)


def build_fixtures():
    return W.write_all(SEED)


def in_net(ip, net):
    return ipaddress.IPv4Address(ip) in ipaddress.IPv4Network(net)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # ------------------------------------------------------------ consul-srv-2.log
    ct = texts[CONSUL]
    cl = T.parse_consul(ct)
    assert all(cl[i]["t"] <= cl[i + 1]["t"] for i in range(len(cl) - 1))
    ncl = [r for r in cl if r["kv"].get("error") == "No cluster leader"]
    f["c_ncl"] = len(ncl)
    only_token(ct, "No cluster leader", len(ncl))
    # the gaps without a leader, read from the log itself: from a heartbeat timeout or a step-down to an
    # election won or a new leader reaching srv-2
    gaps, start, candidate = [], None, False
    for r in cl:
        if r["module"] != "agent.server.raft":
            continue
        if r["msg"] in ("heartbeat timeout reached, starting election", "failed to contact quorum of nodes, stepping down"):
            start = start or r["t"]
        elif r["msg"] == "entering candidate state":
            candidate = True
        elif start is not None and (r["msg"] == "election won" or (r["msg"] == "entering follower state" and candidate)):
            gaps.append((start, r["t"]))
            start, candidate = None, False
    assert [(a, b) for a, b in gaps] == [(trunc(a), trunc(b)) for a, b in W.GAPS], (gaps, W.GAPS)
    assert all(any(a <= r["t"] <= b for a, b in gaps) for r in ncl)
    served = [r for r in cl if r["msg"] == "request served from client"]
    dns_err = [r for r in cl if r["module"] == "agent.dns" and r["msg"] == "rpc error"]
    f["c_printer"] = T.count(served, lambda r: r["kv"]["name"] == "printer-gw.service.consul.")
    only_token(ct, "name=printer-gw.service.consul.", f["c_printer"])
    acl = [r for r in cl if r["kv"].get("error") == "ACL not found"]
    f["c_acl"] = len(acl)
    only_token(ct, "ACL not found", len(acl))
    terms = [int(r["kv"]["term"]) for r in cl if "term" in r["kv"]]
    f["c_maxterm"] = max(terms)
    assert f["c_maxterm"] == W.MAX_TERM
    assert terms.count(f["c_maxterm"]) == 3      # entering candidate state and the two votes of the last election
    fin = [r for r in cl if r["msg"] == "Request finished"]
    lat = [(T.duration_ns(r["kv"]["latency"]), r) for r in fin]
    standout([x for x, _ in lat], 3.0)
    top_ns, top_r = max(lat, key=lambda x: x[0])
    assert top_ns == night.slow_put[1]
    assert "/v1/kv/locks/slotter/leader" in top_r["kv"]["url"]
    f["c_slow_url"] = "locks/slotter/leader"
    f["c_slow_lat"] = [secs2(top_ns / 1e9), str(round(top_ns / 1e6))]
    failed = [r for r in cl if r["msg"].startswith("serf: EventMemberFailed: ")]
    nodes = T.group(failed, lambda r: r["msg"].split()[2])
    f["c_top_failed"] = strict_top(nodes, 1, 2.0)[0]
    assert f["c_top_failed"] == "wh3-scan-gw-2"
    reqerr = [r for r in cl if r["msg"] == "Request error"]
    f["c_top_reqerr"] = strict_top(T.group(reqerr, lambda r: r["kv"]["from"].rsplit(":", 1)[0]), 1, 1.5)[0]
    assert f["c_top_reqerr"] == W.DEPLOY
    f["c_first_failed"] = hms(failed[0]["t"])
    lost = [r for r in cl if r["msg"] == "cluster leadership lost"]
    acq = [r for r in cl if r["msg"] == "cluster leadership acquired"]
    f["c_last_lost"] = hms(lost[-1]["t"])
    f["c_last_ncl"] = hms(ncl[-1]["t"])
    hb = [r for r in cl if r["msg"] == "heartbeat timeout reached, starting election"]
    assert all(W.T(2, 0) <= r["t"] < W.T(2, 30) for r in hb + lost + acq)
    f["c_tl"] = ordered(hb[0]["t"], acq[0]["t"], acq[-1]["t"])
    assert acq[-1]["t"] > lost[-1]["t"]
    snaps = [r for r in cl if r["msg"] == "snapshot complete up to"]
    f["c_snap_count"] = len(snaps)
    f["c_last_snap"] = hms(snaps[-1]["t"])
    f["c_last_snap_idx"] = int(snaps[-1]["kv"]["index"])
    starts = [r for r in cl if r["msg"] == "starting snapshot up to"]
    assert len(starts) == len(snaps) and hms(starts[-1]["t"]) == f["c_last_snap"]

    # ------------------------------------------------------------ named.log
    nt = texts[NAMED]
    nl = T.parse_named(nt)
    assert all(nl[i]["t"] <= nl[i + 1]["t"] for i in range(len(nl) - 1))
    qs = [r for r in nl if r["cat"] == "queries"]
    servfail = [r for r in nl if r["cat"] == "query-errors" and r["why"] == "SERVFAIL"]
    f["b_servfail"] = len(servfail)
    only_token(nt, "SERVFAIL", len(servfail))
    assert all(r["name"].endswith(".service.consul") for r in servfail)
    denied = [r for r in nl if r["cat"] == "security"]
    f["b_denied"] = len(denied)
    only_token(nt, "denied", len(denied))
    assert {r["client"] for r in denied} == {W.GUEST_TV}
    f["b_ntp"] = T.count(qs, lambda r: r["name"] == "ntp.pellworth.internal")
    only_token(nt, "ntp.pellworth.internal", f["b_ntp"])
    assert T.count(qs, lambda r: r["name"] == "ntp.pellworth.internal" and r["qtype"] != "A") == 0
    xf = [r for r in nl if "zone" in r]
    f["b_xfer_bytes"] = sum(r["bytes"] for r in xf)
    f["b_wh_recs"] = sum(r["recs"] for r in xf if r["zone"] == "wh.pellworth.internal")
    only_token(nt, "Transfer completed", len(xf))
    assert len(xf) == len(night.xfers)
    slow = max(xf, key=lambda r: r["ms"])
    standout([r["ms"] for r in xf], 1.25)
    assert slow["zone"] == "44.10.in-addr.arpa" and slow["ms"] == W.BIG_AXFR_MS
    f["b_slow_zone"] = slow["zone"]
    f["b_slow_secs"] = [f"{slow['ms'] / 1000:.3f}", f"{slow['ms'] / 1000:.2f}", str(slow["ms"])]
    f["b_top_client"] = strict_top(T.group(qs, lambda r: r["client"]), 1, 1.5)[0]
    assert f["b_top_client"] == W.PROM
    f["b_top_name"] = strict_top(T.group(qs, lambda r: r["name"]), 1, 1.2)[0]
    assert f["b_top_name"] == "wms-api.service.consul"
    clients = {r["client"] for r in qs}
    every_client = set(re.findall(r"client @0x[0-9a-f]+ ([\d.]+)#", nt))
    assert clients == every_client, every_client - clients
    f["b_distinct"] = len(clients)
    lame = [r for r in nl if r["cat"] == "lame-servers"]
    assert {r["msg"].rsplit(" ", 1)[1] for r in lame} == {f"{W.LAME_NS}#53"}
    f["b_first_lame"] = hms(lame[0]["t"])
    f["b_last_denied"] = hms(denied[-1]["t"])
    flush = [r for r in nl if r["msg"] == "received control channel command 'flush'"]
    assert len(flush) == 1
    f["b_tl"] = ordered(servfail[0]["t"], servfail[-1]["t"], flush[0]["t"])
    assert W.T(2, 0) <= servfail[0]["t"] and flush[0]["t"] < W.T(2, 30)
    retry = [r for r in nl if "refresh: retry limit for primary" in r["msg"]]
    assert {r["msg"].split("/IN")[0] for r in retry} == {"zone pellworth.internal"}
    after = [r for r in xf if r["zone"] == "pellworth.internal" and r["t"] > retry[-1]["t"]]
    started = [r for r in nl if r["msg"] == "zone pellworth.internal/IN: Transfer started." and r["t"] > retry[-1]["t"]]
    assert hms(after[0]["t"]) == hms(started[0]["t"])
    f["b_recover_at"] = hms(after[0]["t"])
    f["b_recover_serial"] = str(after[0]["serial"])

    # ------------------------------------------------------------ kea-dhcp4.log
    kt = texts[KEA]
    kl = T.parse_kea(kt)
    assert all(kl[i]["t"] <= kl[i + 1]["t"] for i in range(len(kl) - 1))
    fails = [r for r in kl if r["id"] == "ALLOC_ENGINE_V4_ALLOC_FAIL_SUBNET"]
    f["k_fail"] = len(fails)
    only_token(kt, "ALLOC_FAIL_SUBNET", len(fails))
    for other in ("ALLOC_ENGINE_V4_ALLOC_FAIL", "ALLOC_ENGINE_V4_ALLOC_FAIL_CLASSES", "DHCP4_PACKET_NAK_0003"):
        assert T.count(kl, lambda r: r["id"] == other) == len(fails), other
    assert all("subnet 10.44.8.0/23, subnet-id 3" in r["text"] for r in fails)
    nak4 = [r for r in kl if r["id"] == "DHCP4_PACKET_NAK_0004"]
    f["k_nak4"] = len(nak4)
    only_token(kt, "DHCP4_PACKET_NAK_0004", len(nak4))
    alloc = [r for r in kl if r["id"] == "DHCP4_LEASE_ALLOC"]
    only_token(kt, "has been allocated for", len(alloc))
    f["k_sum"] = sum(r["secs"] for r in alloc)
    f["k_sum_wh3"] = sum(r["secs"] for r in alloc if in_net(r["ip"], "10.44.8.0/23"))
    assert 0 < f["k_sum_wh3"] < f["k_sum"]
    pk = peak(fails, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    f["k_peak"] = hm(pk)
    f["k_top_nak"] = strict_top(T.group(nak4, lambda r: r["mac"]), 1, 2.0)[0]
    assert f["k_top_nak"] == W.FLT_TOP
    f["k_distinct_mac"] = len({r["mac"] for r in alloc})
    f["k_first_nak4"] = hms(nak4[0]["t"])
    f["k_last_fail"] = hms(fails[-1]["t"])
    reload = [r for r in kl if r["id"] == "DHCP4_DYNAMIC_RECONFIGURATION"]
    assert len(reload) == 1 and fails[-1]["t"] < reload[0]["t"]
    new = [r for r in alloc if in_net(r["ip"], "10.44.9.0/24")]
    assert all(r["t"] > reload[0]["t"] for r in new)
    offers_new = [r for r in kl if r["id"] == "DHCP4_LEASE_OFFER" and in_net(r["ip"], "10.44.9.0/24")]
    # the first lease of the new range is offered, then allocated: either second passes
    ordered(fails[0]["t"], reload[0]["t"], offers_new[0]["t"])
    tl = ordered(fails[0]["t"], reload[0]["t"], new[0]["t"])
    f["k_tl"] = tl[:2] + [sorted({hms(offers_new[0]["t"]), hms(new[0]["t"])})]
    assert W.T(2, 30) <= fails[0]["t"] and new[0]["t"] < W.T(3, 0)
    f["k_alloc_total"] = len(alloc)
    f["k_alloc_new"] = len(new)
    dec = [r for r in kl if r["id"] == "DHCP4_DECLINE_LEASE"]
    assert len(dec) == 1
    f["k_decline_ip"], f["k_decline_mac"] = dec[0]["ip"], dec[0]["mac"]
    assert dec[0]["mac"] == W.DECLINE_MAC
    before = [r for r in alloc if r["mac"] == dec[0]["mac"] and r["t"] < dec[0]["t"]]
    assert before and before[-1]["ip"] == dec[0]["ip"] and (dec[0]["t"] - before[-1]["t"]).total_seconds() < 5

    # ------------------------------------------------------------ the files agree
    # every .service.consul query named logged reached consul's DNS interface; each SERVFAIL is a consul rpc error
    fwd = [r for r in qs if r["name"].endswith(".service.consul")]
    assert len(fwd) == len(served)
    assert Counter(r["name"] + "." for r in fwd) == Counter(r["kv"]["name"] for r in served)
    assert len(dns_err) == len(servfail)
    errs = sorted(r["t"] for r in dns_err)
    for r in servfail:
        assert any(0 <= (r["t"] - e).total_seconds() <= 0.005 for e in errs), r["line"]
    assert f["c_printer"] == T.count(qs, lambda r: r["name"] == "printer-gw.service.consul")
    # every warehouse client named saw holds an address kea handed out; the new range only after it existed
    kea_ips = {r["ip"] for r in alloc} | {r["ip"] for r in kl if r["id"] == "DHCP4_LEASE_OFFER"}
    wh = {r["client"] for r in qs if in_net(r["client"], "10.44.0.0/16")}
    assert wh <= kea_ips, sorted(wh - kea_ips)[:5]
    first_alloc = {}
    for r in alloc:
        first_alloc.setdefault(r["ip"], r["t"])
    q9 = [r for r in qs if in_net(r["client"], "10.44.9.0/24")]
    assert all(r["t"] > first_alloc[r["client"]] for r in q9)
    # the cross-file timeline
    f["x_tl"] = ordered(ncl[0]["t"], servfail[0]["t"], reload[0]["t"], q9[0]["t"])

    # ------------------------------------------------------------ names an answer holds are not the start of others
    ips = set(re.findall(r"\b\d+\.\d+\.\d+\.\d+\b", ct + nt + kt))
    for ip in (f["c_top_reqerr"], f["b_top_client"], f["k_decline_ip"]):
        assert not [x for x in ips if x != ip and x.startswith(ip)], ip
    macs = set(re.findall(r"\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b", kt))
    for m in (f["k_top_nak"], f["k_decline_mac"]):
        assert m in macs
    assert not [x for x in re.findall(r"EventMemberFailed: (\S+)", ct) if x != f["c_top_failed"] and x.startswith(f["c_top_failed"])]
    return f


def trunc(t):
    """A time as a log with millisecond stamps shows it."""
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


def check_cases(rows):
    """Every integer an answer must hold is 60 or more, no two cases share one, no case's question (or earlier
    turn) contains it, and none is a constant the logs print on many lines (lease times, ports)."""
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
            assert v not in W.STATUS_CONSTANTS, (c["id"], v)
            seen[v] = c["id"]
    return seen


AREAS = {"consul", "bind", "kea", "proc"}
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
    for area in sorted(AREAS):
        k = sum(1 for c in rows if c["area"] == area)
        assert 12 <= k <= 13, (area, k)
    for c in rows:
        is_zh = bool(re.search(r"[\u4e00-\u9fff]", c["text"]))
        assert is_zh == c["id"].endswith("-zh"), c["id"]
        for t in c.get("turns", []):
            assert bool(re.search(r"[\u4e00-\u9fff]", t)) == is_zh, c["id"]


def weights(rows):
    """Counts, sums, timelines and follow-ups: at least 4 cases each."""
    cats = Counter(c["cat"] for c in rows)
    for cat in ("count", "sum", "timeline", "followup"):
        assert cats[cat] >= 4, (cat, cats[cat])
    return cats


def main():
    texts, night = build_fixtures()
    f = facts(texts, night)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, set(texts))
    languages(rows)
    weights(rows)
    check_cases(rows)
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    for name, text in texts.items():
        assert 1_000_000 <= len(text.encode()) <= 3_000_000, (name, len(text.encode()))
        assert text.count("\n") >= 5000, (name, text.count("\n"))
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
