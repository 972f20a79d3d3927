#!/usr/bin/env python3
"""Generates the `queries-heldout24` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout24.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout24.jsonl
    python3 gen.py --check    # regenerate in memory; fail if anything on disk differs or a case is malformed
    python3 gen.py -v         # also print every figure
"""

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20370514
HERE = Path(__file__).resolve().parent
SET = "queries-heldout24"
MAX_BYTES = 7_500_000

SLURM, CEPH, DNS = "slurmctld.log", "ceph.log", "dnsmasq.log"


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


def peak(rows, pred, key, margin=1.0, weight=lambda r: 1):
    """The one bucket with the most matching rows; `margin` asks it to lead the second by that factor."""
    c = Counter()
    for r in rows:
        if pred(r):
            c[key(r)] += weight(r)
    top = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
    assert top[0][1] > margin * top[1][1], top
    return top[0][0]


def ordered(*times):
    """Timeline events, each in its own second and in one order only."""
    secs = [hms(t) for t in times]
    assert all(a < b for a, b in zip(times, times[1:])), secs
    assert len(set(secs)) == len(secs), secs
    assert all(T.minutes(a) <= T.minutes(b) for a, b in zip(times, times[1:]))
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


def build_fixtures():
    return W.write_all(SEED)


def only_token(text, token, k):
    """`grep -c` of a token agrees with the parse: the token appears on exactly k lines."""
    assert sum(1 for line in text.splitlines() if token in line) == k, (token, k)


def only_regex(text, pattern, k):
    """`grep -cE` of a pattern agrees with the parse."""
    rx = re.compile(pattern)
    assert sum(1 for line in text.splitlines() if rx.search(line)) == k, (pattern, k)


def not_prefix(name, others):
    """No other name seen in the logs starts with `name` (an answer holding it cannot be another one's)."""
    assert not [x for x in others if x != name and x.startswith(name)], (name, sorted(x for x in others if x != name and x.startswith(name))[:3])


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # ------------------------------------------------------------ slurmctld.log
    st = texts[SLURM]
    sl = T.parse_slurm(st)
    assert all(sl[i]["t"] <= sl[i + 1]["t"] for i in range(len(sl) - 1))
    kind = lambda k: [r for r in sl if r["kind"] == k]  # noqa: E731
    tlim = kind("timelimit")
    f["s_timelimit"] = len(tlim)
    only_token(st, "Time limit exhausted", len(tlim))
    exits = kind("exit")
    nz = [r for r in exits if r["code"] != "0"]
    f["s_nonzero"] = len(nz)
    only_regex(st, r"WEXITSTATUS [1-9]", len(nz))
    assert len({r["jid"] for r in nz}) == len(nz)
    sub = kind("submit")
    usec = [int(r["usec"]) for r in sub]
    p95 = same_by_any_definition(usec, 95)
    assert p95 == night.p95_usec and p95 % 10 < 5 and p95 >= 1000
    every_usec = [int(x) for x in re.findall(r"usec=(\d+)", st)]
    assert len(every_usec) > len(usec)             # the salloc lines carry a usec= too
    assert f"{p95 / 1000:.1f}" == f"{p95 // 100 / 10:.1f}"       # 1 decimal of a ms: rounded = truncated
    f["s_p95"] = [str(p95), f"{p95:,}", f"{p95 / 1000:.2f}", f"{p95 / 1000:.1f} ms", f"{p95 / 1000:.1f}ms"]
    cl = kind("cleanup")
    cs = [int(r["s"]) for r in cl]
    mx = standout(cs, 1.25)
    top = [r for r in cl if int(r["s"]) == mx]
    assert len(top) == 1
    f["s_cleanup_max"], f["s_cleanup_max_jid"] = mx, top[0]["jid"]
    not_prefix(f["s_cleanup_max_jid"], set(re.findall(r"JobId=(\d+)", st)))
    f["s_cleanup_sum"] = sum(cs)
    only_token(st, "cleanup_completing", len(cl))
    kills = kind("kill")
    f["s_top_kill_uid"] = strict_top(T.group(kills, lambda r: r["uid"]), 1)[0]
    assert f["s_top_kill_uid"] == str(W.BURST_UID)
    not_prefix(f["s_top_kill_uid"], {r["uid"] for r in kills})
    drains = [r for r in kind("state") if r["state"] == "DRAINING"]
    assert len(drains) == 1 and drains[0]["node"] == W.CN037
    reasons = kind("reason")
    assert len(reasons) == 1 and reasons[0]["node"] == W.CN037 and hms(reasons[0]["t"]) == hms(drains[0]["t"])
    assert "blocklisted" in reasons[0]["reason"]
    f["s_drain_at"] = hms(drains[0]["t"])
    nr = kind("notresp")
    assert T.expand_hostlist(nr[0]["nl"]) == [W.FLAKY]
    f["s_first_nr"], f["s_first_nr_node"] = hms(nr[0]["t"]), W.FLAKY
    nodes_seen = set(re.findall(r"\b(?:cn|gpu|bm)\d+", st + texts[DNS] + texts[CEPH]))
    for name in (W.FLAKY, W.CN037, "cn052"):
        not_prefix(name, nodes_seen)
    f["s_last_tl"] = hms(tlim[-1]["t"])
    subpk = peak(sub, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert subpk == W.T(0, 17)
    f["s_peak_submit"] = hm(subpk)
    rq = kind("requeue")
    f["s_window_requeue"] = clock_window(rq, lambda r: True, "03:05", "03:20")
    assert 60 <= f["s_window_requeue"] < len(rq)
    allocs = kind("alloc")
    f["s_gpu_cpus"] = sum(int(r["cpus"]) for r in allocs if r["part"] == "gpu")
    assert all(T.expand_hostlist(r["nl"])[0].startswith("gpu") == (r["part"] == "gpu") for r in allocs)

    # ------------------------------------------------------------ ceph.log
    ct = texts[CEPH]
    cl_ = T.parse_ceph(ct)
    assert all(cl_[i]["t"] <= cl_[i + 1]["t"] for i in range(len(cl_) - 1))
    # every entity's sequence number grows by one a line
    last_seq = {}
    for r in cl_:
        if r["ent"] in last_seq:
            assert r["seq"] == last_seq[r["ent"]] + 1, r
        last_seq[r["ent"]] = r["seq"]
    deep_ok = [r for r in cl_ if re.fullmatch(r"\d+\.[0-9a-f]+ deep-scrub ok", r["msg"])]
    f["c_deep_ok"] = len(deep_ok)
    only_token(ct, "deep-scrub ok", len(deep_ok))
    slow = [r for r in cl_ if re.fullmatch(r"\d+ slow requests \(by type \[ .* \] most affected pool \[ 'scratch_data' : \d+ \]\)", r["msg"])]
    assert all(r["ent"].startswith("osd.") and r["lvl"] == "WRN" for r in slow)
    f["c_slowreq"] = len(slow)
    only_token(ct, "(by type", len(slow))
    f["c_top_osd"] = strict_top(T.group(slow, lambda r: r["ent"]), 1)[0]
    assert f["c_top_osd"] == f"osd.{W.ERR_SHARD}"
    not_prefix(f["c_top_osd"], {r["ent"] for r in cl_})
    pg = [r for r in cl_ if "wr" in r]
    assert len(pg) > 7000
    standout([r["wr"] for r in pg], 1.25)
    top_wr = max(pg, key=lambda r: r["wr"])
    assert top_wr["t"] == night.wr_burst_at and top_wr["wr_s"] == "4.8 GiB/s"
    assert sum(1 for r in pg if r["wr_s"] == top_wr["wr_s"]) == 1
    f["c_max_wr"], f["c_max_wr_at"] = ["4.8 GiB", "4.8GiB", "4.8 GB"], hms(top_wr["t"])
    det = []
    for r in cl_:
        m = re.match(r"slow request ([\d.]+) seconds old, received at ", r["msg"])
        if m:
            assert r["ent"].startswith("mds.")
            det.append(dict(r, age=float(m.group(1))))
    oldest = [float(m.group(1)) for m in re.finditer(r"oldest blocked for > ([\d.]+) secs", ct)]
    ages = [r["age"] for r in det]
    standout(ages, 1.25)
    assert max(ages) == max(oldest) == round(W.MDS_R1_AGE, 6)
    f["c_mds_longest"] = [secs2(max(ages)), str(int(max(ages)))]
    assert round(max(ages)) == int(max(ages))
    only_token(ct, "seconds old, received at", len(det))
    failed = [(r, re.fullmatch(r"osd\.(\d+) failed \(root=default,host=(\S+)\) .*", r["msg"])) for r in cl_]
    failed = [(r, m) for r, m in failed if m]
    assert len(failed) == 1 and failed[0][1].group(1) == str(W.ERR_SHARD)
    f["c_osd_host"] = failed[0][1].group(2)
    not_prefix(f["c_osd_host"], set(re.findall(r"host=(\S+?)[,)]", ct)) | {f"stor{i:02d}" for i in range(1, 7)})
    outs = [r for r in cl_ if re.fullmatch(r"Marking osd\.\d+ out .*", r["msg"])]
    assert len(outs) == 1 and outs[0]["msg"].startswith(f"Marking osd.{W.ERR_SHARD} out")
    f["c_out_at"] = hms(outs[0]["t"])
    assert not [r for r in cl_ if re.search(r"osd\.\d+ failed", r["msg"]) and r is not failed[0][0]]
    errs = [r for r in cl_ if r["lvl"] == "ERR"]
    f["c_first_err"] = hms(errs[0]["t"])
    assert "candidate had a read error" in errs[0]["msg"]
    healthy = [r for r in cl_ if r["msg"] == "Cluster is now healthy"]
    assert len(healthy) == 3
    f["c_last_healthy"] = hms(healthy[-1]["t"])
    epk = peak(errs, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    f["c_peak_err"] = hm(epk)
    f["c_window_mds"] = clock_window(det, lambda r: True, "01:40", "02:00")
    assert 60 <= f["c_window_mds"] < len(det)
    se = [(r, re.fullmatch(r"(\S+) deep-scrub (\d+) errors", r["msg"])) for r in cl_]
    se = [(r, m) for r, m in se if m]
    f["c_scrub_errors"] = sum(int(m.group(2)) for _, m in se)
    cand = [r for r in cl_ if r["msg"].endswith(" : candidate had a read error")]
    assert len(cand) == f["c_scrub_errors"] == night.total_scrub_errors
    assert all(f" shard {W.ERR_SHARD} soid " in r["msg"] for r in cand)
    assert f"Health check cleared: OSD_SCRUB_ERRORS (was: {f['c_scrub_errors']} scrub errors)" in ct
    started = {m.group(1) for r in cl_ for m in [re.fullmatch(r"(\d+\.[0-9a-f]+) (?:scrub|deep-scrub) starts", r["msg"])] if m}
    anyscrub = {m.group(1) for r in cl_ for m in [re.fullmatch(r"(\d+\.[0-9a-f]+) (?:scrub|deep-scrub|repair) .*", r["msg"])] if m}
    assert started == anyscrub
    f["c_distinct_pgs"] = len(started)
    assert f["c_distinct_pgs"] < T.count(cl_, lambda r: re.fullmatch(r"\S+ (?:scrub|deep-scrub) starts", r["msg"]) is not None)

    # ------------------------------------------------------------ dnsmasq.log
    dt = texts[DNS]
    dl = T.parse_dnsmasq(dt)
    assert all(dl[i]["t"] <= dl[i + 1]["t"] for i in range(len(dl) - 1))
    acks = []
    for r in dl:
        m = re.fullmatch(r"DHCPACK\(eth1\) (\S+) (\S+) (\S+)", r["msg"])
        if m:
            assert r["ident"] == "dnsmasq-dhcp"
            acks.append(dict(r, ip=m.group(1), mac=m.group(2), host=m.group(3)))
    f["d_acks"] = len(acks)
    only_token(dt, "DHCPACK", len(acks))
    nx = [r for r in dl if r["msg"].endswith(" is NXDOMAIN")]
    f["d_nx"] = len(nx)
    only_token(dt, "NXDOMAIN", len(nx))
    qs = []
    for r in dl:
        m = re.fullmatch(r"query\[(\w+)\] (\S+) from (\S+)", r["msg"])
        if m:
            qs.append(dict(r, qt=m.group(1), name=m.group(2), ip=m.group(3)))
    only_token(dt, "query[", len(qs))
    f["d_top_client"] = strict_top(T.group(qs, lambda r: r["ip"]), 1)[0]
    assert f["d_top_client"] == W.node_ip("cn052")
    ips = {r["ip"] for r in qs} | {a["ip"] for a in acks} | set(re.findall(r"\b\d+\.\d+\.\d+\.\d+\b", dt))
    not_prefix(f["d_top_client"], ips)
    fw = [re.fullmatch(r"forwarded (\S+) to (\S+)", r["msg"]) for r in dl]
    fw = [m for m in fw if m]
    ups = Counter(m.group(2) for m in fw)
    assert sorted(ups) == sorted(W.UPSTREAM)
    f["d_up_top"] = strict_top(ups, 1, 2.0)[0]
    f["d_up_count"] = ups[f["d_up_top"]]
    only_token(dt, f"to {f['d_up_top']}", f["d_up_count"])
    not_prefix(f["d_up_top"], ips)
    mq = [r for r in dl if r["msg"] == "Maximum number of concurrent DNS queries reached (max: 150)"]
    only_token(dt, "Maximum number of concurrent", len(mq))
    f["d_first_maxq"] = hms(mq[0]["t"])
    f["d_window_maxq"] = clock_window(mq, lambda r: True, "00:40", "00:55")
    assert 60 <= f["d_window_maxq"] < len(mq)
    tf = [r for r in dl if r["ident"] == "dnsmasq-tftp"]
    assert all(r["msg"].startswith("sent /srv/tftp/ipxe.efi to ") for r in tf)
    f["d_last_tftp"] = hms(tf[-1]["t"])
    apk = peak(acks, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert apk == W.T(3, 7)
    f["d_peak_ack"] = hm(apk)
    f["d_distinct_names"] = len({r["name"] for r in qs})
    f["d_share_aaaa"] = pct(T.count(qs, lambda r: r["qt"] == "AAAA"), len(qs))
    assert {r["qt"] for r in qs} == {"A", "AAAA", "PTR"}

    # ------------------------------------------------------------ the files agree
    # the scraper: every client sending more than 60 queries in a minute is a node running a job that root killed
    busy = Counter((r["ip"], T.minutes(r["t"])) for r in qs)
    flood = sorted({ip for (ip, _), k in busy.items() if k > 60})
    assert flood == sorted(W.node_ip(s["node"]) for s in W.SCRAPES), flood
    for s in W.SCRAPES:
        ip = W.node_ip(s["node"])
        run = [r for r in allocs if r["nl"] == s["node"] and any(k["jid"] == r["jid"] and k["uid"] == "0" for k in kills)]
        assert len(run) == 1, s
        kill = next(k for k in kills if k["jid"] == run[0]["jid"])
        heavy = [r for r in qs if r["ip"] == ip and busy[(ip, T.minutes(r["t"]))] > 60]
        assert all(T.minutes(run[0]["t"]) <= r["t"] <= kill["t"].replace(microsecond=0) + W.secs(2) for r in heavy)
        assert all(run[0]["t"] <= r["t"] <= kill["t"] for r in mq if T.minutes(r["t"]) in {T.minutes(x["t"]) for x in heavy})
    # cn037: evicted by its address, drained, booted, back
    ev = [r for r in cl_ if r["msg"].startswith("Evicting (and blocklisting) client session ") and f"v1:{W.node_ip(W.CN037)}:0/" in r["msg"]]
    assert len(ev) == 1
    a037 = [a for a in acks if a["host"] == W.CN037]
    assert {a["ip"] for a in a037} == {W.node_ip(W.CN037)} and len(a037) == 3
    resp037 = [r for r in kind("resp") if r["node"] == W.CN037]
    assert len(resp037) == 1
    tl_037 = ordered(ev[0]["t"], drains[0]["t"], a037[0]["t"], resp037[0]["t"])
    assert all(a037[0]["t"] <= a["t"] < resp037[0]["t"] for a in a037)
    f["tl_037"] = tl_037
    # the osd.17 failure, and the epilogs that hung on it
    so = [r for r in cl_ if r["msg"].startswith("Health check failed: ") and f"osd.{W.ERR_SHARD} has slow ops (SLOW_OPS)" in r["msg"]]
    assert len(so) == 1
    cl_other = [r for r in cl if r["jid"] != f["s_cleanup_max_jid"]]
    assert all(failed[0][0]["t"] < r["t"] < outs[0]["t"] for r in cl_other)
    f["tl_osd"] = ordered(so[0]["t"], failed[0][0]["t"], cl_other[0]["t"], outs[0]["t"])
    assert cl[0] is cl_other[0]
    # rack C: not responding on slurm, PXE on dnsmasq, back in slurm, the old sessions evicted on ceph
    rack_nr = [r for r in nr if r["t"] > W.POWER_LOSS and len(T.expand_hostlist(r["nl"])) > 1]
    assert sorted(T.expand_hostlist(r["nl"])[0] for r in nr if r is not rack_nr[0]) == sorted([W.FLAKY] * 3 + [W.CN037])
    assert len(rack_nr) == 1
    rack = T.expand_hostlist(rack_nr[0]["nl"])
    assert rack == W.RACK_C
    mac_host = {a["mac"]: a["host"] for a in acks}
    disc = [r for r in dl if r["msg"].startswith("DHCPDISCOVER(eth1) ") and r["t"] >= W.POWER_LOSS]
    assert sorted({mac_host[r["msg"].split()[-1]] for r in disc}) == rack
    ret = [r for r in kind("returned")]
    assert sorted(r["node"] for r in ret) == rack
    evu = [(r, re.fullmatch(r"evicting unresponsive client (\S+):scratch \((\d+)\), after [\d.]+ seconds", r["msg"])) for r in cl_]
    evu = [(r, m) for r, m in evu if m]
    assert sorted(m.group(1) for _, m in evu) == rack
    reb = kind("rebooted")
    assert sorted(r["node"] for r in reb) == rack
    for node in rack:
        last_ack = max(a["t"] for a in acks if a["host"] == node)
        back = [r for r in ret if r["node"] == node][0]
        assert last_ack < back["t"]
        assert hms([r for r in reb if r["node"] == node][0]["t"]) == hms(back["t"]), node   # one reading of "back"
    assert all(r["node"] in rack for r in rq if r["t"] > W.POWER_LOSS)
    f["tl_rack"] = ordered(rack_nr[0]["t"], disc[0]["t"], ret[0]["t"], evu[0][0]["t"])
    # the cross-file question: the first rack node to get a lease again, and when slurm returned it
    rack_acks = [a for a in acks if a["t"] >= W.POWER_LOSS]
    first = rack_acks[0]
    assert sum(1 for a in rack_acks if a["t"] == first["t"]) == 1
    assert first["host"] in rack
    f["x_node"] = first["host"]
    f["x_back"] = hms([r for r in ret if r["node"] == first["host"]][0]["t"])
    not_prefix(f["x_node"], set(re.findall(r"\bcn\d+", st + dt + ct)))
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


AREAS = {"slurm", "ceph", "dns", "proc"}
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
            assert any(s["name"] == c["approval"]["kill"] for s in specs), cid
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
        assert not any("user" in s for s in specs), (cid, "needs root")


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


MIX = {"count": 6, "process": 6, "stat": 4, "top": 4, "followup": 5, "first": 3, "last": 3, "peak": 3, "window": 3,
       "action": 3, "timeline": 3, "sum": 3, "distinct": 2, "share": 1, "cross": 1}


def categories(rows):
    """The category mix; each timeline spans two or three logs; kills only as approvals, one a follow-up."""
    got = Counter(c["cat"] for c in rows)
    assert dict(got) == MIX, dict(got)
    for c in rows:
        if c["cat"] == "timeline":
            assert len(c["files"]) >= 2 and len(c["answer_has"]) >= 4, c["id"]
        if c["cat"] == "followup":
            assert c.get("turns"), c["id"]
        if c["cat"] == "action":
            assert set(c["approval"]) == {"kill"} and "answer_has" not in c, c["id"]
    assert sum(1 for c in rows if c["cat"] == "action" and c.get("turns")) == 1


def main():
    texts, night = build_fixtures()
    f = facts(texts, night)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    well_formed(rows, set(texts))
    languages(rows)
    categories(rows)
    check_cases(rows)
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    for name, text in texts.items():
        assert 1_000_000 <= len(text.encode()) <= 3_000_000, (name, len(text.encode()))
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
