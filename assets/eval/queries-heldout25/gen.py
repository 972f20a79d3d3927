#!/usr/bin/env python3
"""Generates the `queries-heldout25` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout25.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout25.jsonl
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

SEED = 20261124
HERE = Path(__file__).resolve().parent
SET = "queries-heldout25"
MAX_BYTES = 7_000_000

PM, MQ, AST = W.PM, W.MQ, W.AST


def n(x):
    """A count as an answer must show it: plain digits, or with thousands separators."""
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def hm(t):
    """A clock minute; the hour unpadded so `02:21` and `2:21` both pass."""
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


def off_edge(x, places):
    """x written to `places` decimals reads the same rounded or truncated."""
    frac = (x * 10 ** places) % 1
    return 0.05 < frac < 0.45


def decimals(x, places):
    assert off_edge(x, places), (x, places)
    return f"{x:.{places}f}"


def only_token(text, token, k):
    """`grep -c` of a token agrees with the parse: the token appears on exactly k lines."""
    assert sum(1 for line in text.splitlines() if token in line) == k, (token, k)


def no_prefix(value, universe):
    """No other name in the logs starts with this one (an answer holding it names it alone)."""
    assert not [x for x in universe if x != value and x.startswith(value)], value


def build_fixtures():
    return W.write_all(SEED)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- pacemaker.log (pbx-ha-3, the DC)
    pt = texts[PM]
    pl = T.parse_pacemaker(pt)
    assert all(pl[i]["t"] <= pl[i + 1]["t"] for i in range(len(pl) - 1))
    assert {r["node"] for r in pl} == {W.ME}
    loads = [(r, float(r["msg"].split(": ", 1)[1])) for r in pl if r["msg"].startswith("High CPU load detected: ")]
    f["p_highcpu"] = len(loads)
    only_token(pt, "High CPU load detected", len(loads))
    top = standout([v for _, v in loads], 1.25)
    assert top == W.LOAD_PEAK and sum(1 for _, v in loads if v == top) == 1
    f["p_maxload"] = f"{top:.2f}"
    f["p_maxload_at"] = hms(next(r["t"] for r, v in loads if v == top))
    mean = sum(v for _, v in loads) / len(loads)
    f["p_avgload"] = [decimals(mean, 2)] + ([decimals(mean, 1)] if off_edge(mean, 1) else [])
    trans = [r for r in pl if r["msg"].startswith("Calculated transition ")]
    f["p_transitions"] = len(trans)
    only_token(pt, "Calculated transition", len(trans))
    fin = [r for r in pl if r["func"] == "log_finished"]
    ex = [int(re.search(r" exec-time:(\d+)ms ", r["msg"]).group(1)) for r in fin]
    assert ex == night.exec_times, (ex, night.exec_times)
    tot = sum(ex)
    f["p_exec_sum"] = [str(tot), f"{tot:,}", f"{tot / 1000:.3f}"] + ([decimals(tot / 1000, 2)] if off_edge(tot / 1000, 2) else [])
    f["p_exec_ops"] = len(ex)
    sets = [re.match(r"Setting ([^\[]+)\[([^\]]+)\]: (\S+) -> (\S+) \| from (\S+)$", r["msg"]) for r in pl if r["func"] == "attrd_peer_update"]
    assert all(sets)
    f["p_top_attr"] = strict_top(Counter(m.group(1) for m in sets), 1, 1.2)[0]
    assert f["p_top_attr"] == "cpu_load"
    f["p_cpu_all"] = sum(1 for m in sets if m.group(1) == "cpu_load")
    f["p_cpu_ha1"] = sum(1 for m in sets if m.group(1) == "cpu_load" and m.group(2) == "pbx-ha-1")
    only_token(pt, "Setting cpu_load[", f["p_cpu_all"])
    mon = [r for r in pl if r["msg"] == "Processing failed monitor of asterisk on pbx-ha-2: Timed Out | rc=1"]
    assert len(mon) == 2
    t_mon = mon[0]["t"]
    assert hms(t_mon) == hms(W.MON_FAIL)
    assert first(pl, lambda r: "asterisk_monitor_20000" in r["msg"] and "aborted" in r["msg"]) <= t_mon
    f["p_mon_fail"] = hms(t_mon)
    member = [r for r in pl if r["msg"].startswith("Node pbx-ha-2 state is now member")]
    lost = [r for r in pl if r["msg"].startswith("Node pbx-ha-2 state is now lost")]
    assert member and lost and len({hms(r["t"]) for r in member}) == 1 and len({hms(r["t"]) for r in lost}) == 1
    f["p_rejoin"] = hms(member[0]["t"])
    drops = [r for r in pl if r["msg"] == "Setting pingd[pbx-ha-1]: 1000 -> 0 | from pbx-ha-1"]
    assert len(drops) == len(W.PINGD_FLAPS)
    f["p_last_pingd"] = hms(drops[-1]["t"])
    fence_req = [r for r in pl if r["msg"].startswith("Requesting fencing (reboot) of node pbx-ha-2")]
    fence_ok = [r for r in pl if r["func"] == "log_operation" and "returned: 0 (OK)" in r["msg"]]
    term = [r for r in pl if r["msg"].startswith("Peer pbx-ha-2 was terminated (reboot) by ")]
    assert len(fence_req) == len(fence_ok) == len(term) == 1
    assert "with device 'fence-pbx-ha-2'" in fence_ok[0]["msg"] and term[0]["msg"].startswith("Peer pbx-ha-2 was terminated (reboot) by pbx-ha-3 ")
    assert hms(fence_ok[0]["t"]) == hms(term[0]["t"])
    f["p_fencer"], f["p_fence_dev"] = "pbx-ha-3", "fence-pbx-ha-2"
    f["p_fence"] = sorted({hms(fence_req[0]["t"]), hms(fence_ok[0]["t"])})
    started = [r for r in pl if r["msg"].startswith("Result of start operation for asterisk on pbx-ha-3: 0 (ok)")]
    assert len(started) == 1
    t_started = started[0]["t"]
    # the window 02:10-02:20: the monitor failure, the fence, the move here, the node back
    init = [r for r in pl if r["msg"].startswith("Initiating start operation asterisk_start_0 locally on pbx-ha-3")]
    assert len(init) == 1
    f["tl_pm"] = [[f["p_mon_fail"]], f["p_fence"], sorted({hms(init[0]["t"]), hms(t_started)}), [f["p_rejoin"]]]
    ordered(t_mon, fence_req[0]["t"], fence_ok[0]["t"], init[0]["t"], t_started, member[0]["t"])
    assert all(W.T(2, 10) <= x < W.T(2, 20) for x in (t_mon, fence_req[0]["t"], fence_ok[0]["t"], t_started, member[0]["t"]))
    key = lambda r: (r["level"] in ("warning", "error", "crit") or "fencing" in r["msg"] or "reboot" in r["msg"]  # noqa: E731
                     or "state is now" in r["msg"])
    assert not [r for r in pl if key(r) and (W.T(2, 5) <= r["t"] < W.T(2, 10) or W.T(2, 20) <= r["t"] < W.T(2, 25))]

    # --- rabbit@fh-mq-2.log
    qt = texts[MQ]
    ql = T.parse_rabbit(qt)
    assert all(ql[i]["t"] <= ql[i + 1]["t"] for i in range(len(ql) - 1))
    acc = [r for r in ql if r["msg"].startswith("accepting AMQP connection ")]
    f["r_accepting"] = len(acc)
    only_token(qt, "accepting AMQP connection", len(acc))
    refused = [r for r in ql if r["msg"] == "PLAIN login refused: user 'wallboard' - invalid credentials"]
    f["r_refused"] = len(refused)
    only_token(qt, "PLAIN login refused", len(refused))
    ineq = [i for i, r in enumerate(ql) if "inequivalent arg 'x-queue-type'" in r["msg"]]
    f["r_inequiv"] = len(ineq)
    only_token(qt, "inequivalent arg", len(ineq))
    assert all(T.conn_ip(ql[i - 1]["msg"]) == W.CANARY and ql[i - 1]["msg"].startswith("Channel error on connection ") for i in ineq)
    ips = Counter(T.conn_ip(r["msg"]) for r in acc)
    f["r_top_ip"] = strict_top(ips, 1, 1.2)[0]
    assert f["r_top_ip"] == W.IVR_IPS[0]
    no_prefix(f["r_top_ip"], {T.conn_ip(r["msg"]) for r in ql if T.conn_ip(r["msg"])})
    aset = [r for r in ql if r["msg"] == f"memory resource limit alarm set on node '{W.MQ_NODE}'."]
    aclr = [r for r in ql if r["msg"] == f"memory resource limit alarm cleared on node '{W.MQ_NODE}'"]
    assert len(aset) == len(aclr) == len(W.ALARMS)
    f["r_first_alarm"] = hms(aset[0]["t"])
    f["r_last_clear"] = hms(aclr[-1]["t"])
    used = [int(re.search(r"Memory used:(\d+) ", r["msg"]).group(1)) for r in ql if r["msg"].startswith("vm_memory_high_watermark set.")]
    assert len(used) == 2
    f["r_maxmem"] = n(max(used))
    auth = [(r, re.search(r": user '([^']+)' authenticated and granted access", r["msg"])) for r in ql]
    auth = [(r, m.group(1)) for r, m in auth if m]
    f["r_users"] = sorted({u for _, u in auth})
    assert f["r_users"] == sorted(["asterisk", "cdr-writer", "ivr-api", "monitoring", "notify", "wallboard"]), f["r_users"]
    f["r_auth_monitoring"] = sum(1 for _, u in auth if u == "monitoring")
    f["r_auth_ivr"] = sum(1 for _, u in auth if u == "ivr-api")
    f["r_wall_first"], f["r_wall_last"] = hms(refused[0]["t"]), hms(refused[-1]["t"])
    new_ast = [r for r, u in auth if u == "asterisk"]
    assert {T.conn_ip(r["msg"]) for r in new_ast} == {W.NODE_IP["pbx-ha-3"]}
    f["r_new_ip"] = W.NODE_IP["pbx-ha-3"]
    f["r_new_at"] = hms(new_ast[0]["t"])
    no_prefix(f["r_new_ip"], {T.conn_ip(r["msg"]) for r in ql if T.conn_ip(r["msg"])})
    hb = [i for i, r in enumerate(ql) if r["msg"] == "missed heartbeats from client, timeout: 60s"]
    assert len(hb) == 2 and all(T.conn_ip(ql[i - 1]["msg"]) == W.NODE_IP["pbx-ha-2"] for i in hb)
    f["r_hb_ip"] = W.NODE_IP["pbx-ha-2"]
    no_prefix(f["r_hb_ip"], {T.conn_ip(r["msg"]) for r in ql if T.conn_ip(r["msg"])})
    assert all(ql[i]["t"] >= aclr[-1]["t"] + W.secs(60) for i in hb)
    # the window 02:00-02:30: the alarm set, cleared, then the dead node's connections given up
    t_a2 = aset[1]["t"]
    assert W.T(2, 0) <= t_a2 and ql[hb[-1]]["t"] < W.T(2, 30) and aset[0]["t"] < W.T(1, 55)
    assert not [r for r in aset + aclr if W.T(1, 55) <= r["t"] < W.T(2, 0) or W.T(2, 30) <= r["t"] < W.T(2, 35)]
    f["tl_mq"] = [[hms(t_a2)], [f["r_last_clear"]], [f["r_hb_ip"]]]
    ordered(t_a2, aclr[-1]["t"], ql[hb[0]]["t"])
    # the ivr-api connections that the PHP client abandoned all opened while publishers were blocked
    abrupt = [i for i, r in enumerate(ql) if r["msg"] == "client unexpectedly closed TCP connection"]
    for i in abrupt:
        pid = ql[i]["pid"]
        opened = next(r["t"] for r in ql if r["pid"] == pid and r["msg"].startswith("accepting"))
        assert any(a <= opened < b for a, b, _, _ in W.ALARMS), opened

    # --- full (Asterisk)
    at = texts[AST]
    al = T.parse_asterisk(at)
    assert all(al[i]["t"] <= al[i + 1]["t"] for i in range(len(al) - 1))
    nomatch = [r for r in al if r["msg"].endswith(" - No matching endpoint found")]
    f["a_nomatch"] = len(nomatch)
    only_token(at, "No matching endpoint found", len(nomatch))
    scan = Counter(re.search(r" failed for '([\d.]+):\d+' ", r["msg"]).group(1) for r in nomatch)
    f["a_top_scanner"] = strict_top(scan, 1, 1.2)[0]
    all_ips = set(re.findall(r"\b\d+\.\d+\.\d+\.\d+\b", at))
    no_prefix(f["a_top_scanner"], all_ips)
    sm = T.summaries(al)
    assert len(sm) == sum(1 for c in night.calls if c.summary_at is not None)
    assert sum(1 for r in al if r["msg"].startswith("Executing [h@from-carrier:1] AGI(")) == len(sm)
    only_token(at, "call-summary", len(sm))
    f["a_hold_sum"] = sum(r["hold"] for r in sm)
    f["a_talk_billing"] = sum(r["talk"] for r in sm if r["queue"] == "billing")
    f["a_talk_1017"] = sum(r["talk"] for r in sm if r["agent"] == "agent-1017")
    ans = [r for r in sm if r["status"] == "ANSWERED"]
    top = standout([r["hold"] for r in ans], 1.25)
    assert top == W.MAX_HOLD
    big = [r for r in ans if r["hold"] == top]
    assert len(big) == 1 and sum(1 for r in sm if r["caller"] == big[0]["caller"]) == 1
    f["a_maxhold"] = [str(top), f"{top // 60}m{top % 60}s", f"{top // 60}m {top % 60}s", f"{top // 60} min {top % 60}",
                      f"{top // 60}分{top % 60}秒", f"{top // 60} 分 {top % 60} 秒", f"{top // 60}分钟{top % 60}秒"]
    f["a_maxhold_caller"] = big[0]["caller"]
    hot_ans = [r["hold"] for r in ans if r["queue"] == "outage-hotline"]
    f["a_avghold"] = decimals(sum(hot_ans) / len(hot_ans), 1)
    f["a_abandoned_hot"] = sum(1 for r in sm if r["queue"] == "outage-hotline" and r["status"] == "ABANDONED")
    f["a_abandoned_all"] = sum(1 for r in sm if r["status"] == "ABANDONED")
    f["a_timeout"] = sum(1 for r in sm if r["status"] == "TIMEOUT")
    assert {r["queue"] for r in sm if r["status"] == "TIMEOUT"} == {"outage-hotline"}
    tp = [r for r in al if r["src"] == "taskprocessor.c"]
    f["a_first_tp"] = hms(tp[0]["t"])
    failed = [r for r in al if r["msg"] == "Failed to create outgoing session to endpoint 'duty-manager'"]
    assert failed
    f["a_last_failed"] = hms(failed[-1]["t"])
    only_token(at, "Failed to create outgoing session", len(failed))
    assert failed[-1]["t"] < W.DUTY_BACK and failed[0]["t"] > W.DUTY_GONE
    ready = [r for r in al if r["msg"] == "Asterisk Ready."]
    assert len(ready) == 1
    t_ready = ready[0]["t"]
    f["a_ready"] = hms(t_ready)
    newcalls = [r for r in al if r["msg"].startswith('Executing [8005550199@from-carrier:1] NoOp(')]
    pk = peak(newcalls, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == W.SPIKE
    f["a_peak"] = hm(pk)
    # the window 02:05-02:20: the first backed-up taskprocessor, the old process going silent, the restart
    old_last = max(r["t"] for r in al if r["t"] < t_ready - W.secs(20))
    assert W.T(2, 14) <= old_last < W.T(2, 14, 7)
    assert not [r for r in tp if W.T(2, 0) <= r["t"] < W.T(2, 5)] and tp[0]["t"] >= W.T(2, 5)
    f["tl_ast"] = [[f["a_first_tp"]], [f["a_ready"]]]
    ordered(tp[0]["t"], old_last, t_ready)

    # --- the files agree
    t_alarm2 = W.ALARMS[1][0]
    assert t_alarm2 < tp[0]["t"] < old_last < t_mon, "the broker blocks, the PBX clogs, then its monitor fails"
    assert fence_ok[0]["t"] < t_ready < t_started, "asterisk comes up on pbx-ha-3 inside its start operation"
    assert all(t_ready <= r["t"] < t_started for r in new_ast)
    assert lost[0]["t"] < fence_ok[0]["t"]
    # every ivr-api connection is one AGI request of the PBX, made while the request ran
    agi = [r for r in al if r["msg"].startswith("Executing [") and '] AGI("' in r["msg"] and "fh-summary.agi" not in r["msg"]]
    ivr = [r for r, u in auth if u == "ivr-api"]
    assert len(agi) == len(ivr), (len(agi), len(ivr))
    # every unanswered duty-manager dial lies while its softphone was unregistered
    dm = [r for r in al if "endpoint 'duty-manager'" in r["msg"]]
    assert all(W.DUTY_GONE <= r["t"] < W.DUTY_BACK for r in dm)

    # --- the cross-file timeline
    f["tl_x"] = [[hms(t_alarm2)], [f["p_mon_fail"]], [hms(fence_ok[0]["t"])], [f["a_ready"]], [f["r_last_clear"]]]
    ordered(t_alarm2, t_mon, fence_ok[0]["t"], t_ready, aclr[-1]["t"])
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


AREAS = {"pacemaker", "rabbitmq", "asterisk", "proc"}
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


def categories(rows):
    """At least four cases each of counts, sums, timelines and follow-ups."""
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
    categories(rows)
    seen = check_cases(rows)
    # no figure asked for reads like an HTTP status
    assert not [(v, i) for v, i in seen.items() if v in W.STATUS_LIKE], seen
    out_cases = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows)
    total = sum(len(t.encode()) for t in texts.values())
    assert total < MAX_BYTES, total
    for name, text in texts.items():
        assert 500_000 <= len(text.encode()) <= 3_500_000, (name, len(text.encode()))
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
