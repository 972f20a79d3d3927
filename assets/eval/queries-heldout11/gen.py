#!/usr/bin/env python3
"""Generates the `queries-heldout11` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout11.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout11.jsonl
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

SEED = 20361023
HERE = Path(__file__).resolve().parent
SET = "queries-heldout11"
MAX_BYTES = 6_000_000

ENV, MAT, NAT = "envoy-gw-3-access.log", "matchd-mm-7.log", "nats-1.log"
ETC, ZK, AUT = "etcd-b.log", "zookeeper-zk-2.log", "jump-2-auth.log"
FIXTURES = [(ENV, W.envoy_log), (MAT, W.matchd_log), (NAT, W.nats_log), (ETC, W.etcd_log), (ZK, W.zk_log),
            (AUT, W.auth_log)]


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


def nth(counter, k):
    """The k-th largest count of a Counter (ties allowed below the ranks that are asked)."""
    return sorted(counter.values(), reverse=True)[k - 1]


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
    """A whole-millisecond figure asked in seconds (and the ms reading): `74.600`, `74.6`, `74600`."""
    out = [f"{ms / 1000:.3f}", str(ms)]
    if ms >= 1000:
        out.append(f"{ms:,}")
    short = f"{ms / 1000:.3f}".rstrip("0")
    if not short.endswith(".") and short not in out:
        out.append(short)
    return out


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    H = lambda x: tuple(int(p) for p in x.split(":"))  # noqa: E731
    # ------------------------------------------------------------ envoy (gw-3)
    et = texts[ENV]
    ev = T.parse_envoy(et)
    st = lambda k: (lambda r: r["status"] == k)  # noqa: E731
    statuses = {r["status"] for r in ev}
    for r in ev:
        for fld in ("rx", "tx", "ms", "ust"):
            assert r[fld] not in statuses, ("a number that reads like a status", r)
    for code in statuses:
        assert T.count(ev, st(code)) == et.count(f'" {code} '), code
    uh = lambda r: r["flags"] == "UH"  # noqa: E731
    f["e_uh"] = T.count(ev, uh)
    assert f["e_uh"] == et.count(" UH ") == sum(W.UH_PER_MINUTE.values())
    assert all(r["status"] == 503 and r["path"].startswith("/v2/ladder/") for r in ev if uh(r))
    f["e_503_minute"] = hm(peak(ev, st(503), lambda r: T.minutes(r["t"])))
    pm = sorted(T.group(ev, lambda r: T.minutes(r["t"]), st(503)).values(), reverse=True)
    assert pm[0] >= pm[1] + 20, pm
    assert f["e_503_minute"] == "1:27"
    f["e_504"] = T.count(ev, st(504))
    f["e_504_window"] = clock_window(ev, st(504), "02:10", "02:25")
    assert f["e_504_window"] == W.ENV_504_WINDOW < f["e_504"]
    f["e_429"] = T.count(ev, st(429))
    assert f["e_429"] == et.count(" 429 RL ")
    top = T.ranked(T.group(ev, lambda r: r["xff"]), 3)
    f["e_top_xff"] = [ip for ip, _ in top]
    assert f["e_top_xff"] == [W.SCRAPER, W.VENUE, W.OVERLAY], top
    assert nth(T.group(ev, lambda r: r["xff"]), 4) < top[2][1] / 3
    f["e_top_429"] = T.count(ev, lambda r: r["xff"] == W.SCRAPER and r["status"] == 429)
    assert f["e_top_429"] < f["e_429"]
    f["e_xff_distinct"] = len({r["xff"] for r in ev})
    lt = [r for r in ev if r["method"] == "GET" and r["path"] == "/v2/ladder/top"]
    p_all = same_by_any_definition([r["ms"] for r in lt], 95)
    p_ok = same_by_any_definition([r["ms"] for r in lt if r["status"] == 200], 95)
    assert p_all == p_ok == W.P_LADDER_MS
    f["e_ladder_p95_ms"] = p_all
    enq = [r for r in ev if r["method"] == "POST" and r["path"] == "/v2/match/enqueue"]
    f["e_enq_mean_ms"] = exact_mean([r["ms"] for r in enq if r["status"] == 200], 1)
    assert abs(sum(r["ms"] for r in enq) / len(enq) - f["e_enq_mean_ms"]) > 20
    sl = sorted(ev, key=lambda r: -r["ms"])
    assert sl[0]["ms"] > sl[1]["ms"] * 3
    f["e_slowest_path"] = sl[0]["path"]
    f["e_slowest_ms"] = sl[0]["ms"]
    assert f["e_slowest_ms"] == W.SLOWEST_MS
    f["e_first_uh"] = hms(first(ev, uh))
    f["e_last_uh"] = hms(last(ev, uh))
    f["e_first_504"] = hms(first(ev, lambda r: r["status"] == 504 and r["t"].hour == 2))
    f["e_last_504"] = hms(last(ev, lambda r: r["status"] == 504 and r["t"].hour == 2))
    l500 = lambda r: r["status"] == 500 and r["path"].startswith("/v2/lobby/")  # noqa: E731
    assert T.count(ev, st(500)) == T.count(ev, l500)
    f["e_first_500"] = hms(first(ev, l500))
    f["e_last_500"] = hms(last(ev, l500))

    # ------------------------------------------------------------ matchd (mm-7)
    mt = texts[MAT]
    md = T.parse_logrus(mt)
    err = [r for r in md if r["level"] == "error"]
    assert len(err) == mt.count("level=error")
    ef = lambda r: r["msg"] == "enqueue failed"  # noqa: E731
    f["m_enq_fail"] = T.count(md, ef)
    assert f["m_enq_fail"] == mt.count('msg="enqueue failed"') == W.ENQ_FAIL_N
    f["m_err_total"] = len(err)
    [(tm, tn)] = T.ranked(T.group(err, lambda r: r["msg"]))
    second = nth(T.group(err, lambda r: r["msg"]), 2)
    assert tn >= second + 20, (tm, tn, second)
    f["m_err_top_msg"], f["m_err_top_n"] = tm, tn
    assert tm == "lobby state missing" and tn == W.LOBBY_MISSING_N
    formed = [r for r in md if r["msg"] == "match formed"]
    tq = T.ranked(T.group(formed, lambda r: r["queue"]), 3)
    f["m_top_queues"] = [q for q, _ in tq]
    assert f["m_top_queues"] == ["ranked-eu", "casual-eu", "ranked-na"], tq
    assert nth(T.group(formed, lambda r: r["queue"]), 4) < tq[2][1] * 0.7
    eu = [r["wait_ns"] for r in formed if r["queue"] == "ranked-eu"]
    p = same_by_any_definition(eu, 95)
    assert p == W.P_WAIT_EU_MS * 1_000_000
    f["m_eu_p95_ms"] = p // 1_000_000
    # the warnings that carry a wait too are not matches: with them the figure would differ
    assert all(r["queue"] == "ranked-apac" for r in md if "wait_ns" in r and r["msg"] != "match formed")
    duo = [r["wait_ns"] for r in formed if r["queue"] == "duo-na"]
    f["m_duo_mean_ms"] = exact_mean(duo, 1_000_000) // 1_000_000
    p = same_by_any_definition(duo, 95)
    assert p == W.P_WAIT_DUO_MS * 1_000_000
    f["m_duo_p95_ms"] = p // 1_000_000
    assert f["m_duo_p95_ms"] - f["m_duo_mean_ms"] > 5000
    ka = lambda r: r["msg"] == "etcd lease keepalive failed"  # noqa: E731
    f["m_first_keepalive"] = hms(first(md, ka))
    f["m_first_enq_fail"] = hms(first(md, ef))
    f["m_last_enq_fail"] = hms(last(md, ef))
    f["m_nats_async"] = hms(first(md, lambda r: r["msg"] == "nats async error"))
    [dn] = [r for r in md if r["msg"] == "nats disconnected"]
    [bk] = [r for r in md if r["msg"] == "nats reconnected"]
    f["m_nats_down"], f["m_nats_back"] = hms(dn["t"]), hms(bk["t"])
    lm = lambda r: r["msg"] == "lobby state missing"  # noqa: E731
    f["m_lobby_first"] = hms(first(md, lm))
    f["m_lobby_last"] = hms(last(md, lm))
    [rs] = [r for r in md if r["msg"] == "lobby state resynced"]
    f["m_resync"] = hms(rs["t"])
    [sd] = [r for r in md if r["msg"] == "shutting down"]
    [sa] = [r for r in md if r["msg"] == "matchd starting"]
    f["m_shutdown"], f["m_start"] = hms(sd["t"]), hms(sa["t"])

    # ------------------------------------------------------------ nats-1
    nt = texts[NAT]
    na = T.parse_nats(nt)
    sc = lambda r: "Slow Consumer Detected" in r["msg"]  # noqa: E731
    f["n_sc"] = T.count(na, sc)
    assert f["n_sc"] == nt.count("Slow Consumer Detected") == W.NATS_SC_N
    f["n_sc_first"] = hms(first(na, sc))
    f["n_sc_last"] = hms(last(na, sc))
    [fs] = [r for r in na if sc(r) and r["t"] == first(na, sc)]
    assert fs["name"] == "matchd@mm-7"
    rl = sorted((r for r in na if "readloop_ns" in r), key=lambda r: -r["readloop_ns"])
    assert len(rl) == nt.count("Readloop processing time")
    assert rl[0]["readloop_ns"] > 2 * rl[1]["readloop_ns"] and rl[0]["readloop_ns"] % 1_000_000 == 0
    f["n_readloop_max_ms"] = rl[0]["readloop_ns"] // 1_000_000
    f["n_readloop_max_t"] = hms(rl[0]["t"])
    created = [r for r in na if r.get("text") == "Client connection created"]
    assert len(created) == nt.count("Client connection created")
    f["n_ips"] = len({r["ip"] for r in created})

    # ------------------------------------------------------------ etcd-b
    xt = texts[ETC]
    xe = T.parse_etcd(xt)
    ap = [r for r in xe if r["msg"] == "apply request took too long"]
    f["x_apply"] = len(ap)
    assert f["x_apply"] == xt.count("apply request took too long")
    f["x_apply_mean_ms"] = exact_mean([r["took_ns"] for r in ap], 1_000_000) // 1_000_000
    every_took = [r["took_ns"] for r in xe if "took_ns" in r]
    assert abs(sum(every_took) / len(every_took) / 1e6 - f["x_apply_mean_ms"]) > 20
    fd = [r for r in xe if r["msg"] == "slow fdatasync"]
    assert len(fd) == xt.count("slow fdatasync")
    f["x_fs_first"] = hms(min(r["t"] for r in fd))
    f["x_fs_last"] = hms(max(r["t"] for r in fd))
    f["x_fs_mean_ms"] = exact_mean([r["took_ns"] for r in fd], 1_000_000) // 1_000_000
    rj = [r for r in xe if r["msg"] == "rejected connection"]
    f["x_rej"] = len(rj)
    assert f["x_rej"] == xt.count("rejected connection")
    [(ip, k)] = T.ranked(T.group(rj, lambda r: r["remote_ip"]))
    f["x_rej_top_ip"], f["x_rej_top_n"] = ip, k
    assert k > 3 * nth(T.group(rj, lambda r: r["remote_ip"]), 2)
    [ds] = [r for r in xe if r["msg"] == "defragmenting"]
    [dd] = [r for r in xe if r["msg"] == "finished defragmenting directory"]
    f["x_defrag_start"], f["x_defrag_done"] = hms(ds["t"]), hms(dd["t"])
    hb = [r for r in xe if r["msg"].startswith("leader failed to send out heartbeat")]
    f["x_first_hb"] = hms(min(r["t"] for r in hb))
    [el] = [r for r in xe if "elected leader" in r["msg"]]
    f["x_elected"] = hms(el["t"])

    # ------------------------------------------------------------ zookeeper (zk-2)
    zt = texts[ZK]
    zk = T.parse_zk(zt)
    exp = [r for r in zk if "expired" in r]
    assert len(exp) == zt.count("Expiring session")
    f["z_expire_total"] = len(exp)
    f["z_expire_minute"] = hm(peak(exp, lambda r: True, lambda r: T.minutes(r["t"])))
    pm = sorted(T.group(exp, lambda r: T.minutes(r["t"])).values(), reverse=True)
    assert pm[0] >= pm[1] + 20, pm
    fsy = [r for r in zk if "fsync_ms" in r]
    assert len(fsy) == zt.count("fsync-ing the write ahead log")
    f["z_fsync_mean_ms"] = exact_mean([r["fsync_ms"] for r in fsy], 1)
    f["z_fsync_window"] = clock_window(fsy, lambda r: True, "03:30", "04:10")
    assert f["z_fsync_window"] < len(fsy)
    est = [r for r in zk if "client_ip" in r]
    assert len(est) == zt.count("Established session")
    tz = T.ranked(T.group(est, lambda r: r["client_ip"]), 3)
    f["z_top_ips"] = [ip for ip, _ in tz]
    assert f["z_top_ips"] == ["10.61.8.7", "10.61.8.19", "10.61.8.33"], tz
    assert nth(T.group(est, lambda r: r["client_ip"]), 4) < tz[2][1] / 3
    [ex] = [r for r in zk if r["msg"] == "Exception when following the leader"]
    assert any("SocketTimeoutException: Read timed out" in x for x in ex["more"])
    f["z_exc"] = hms(ex["t"])
    [ld] = [r for r in zk if r["msg"] == "LEADING"]
    f["z_leading"] = hms(ld["t"])
    f["z_first_expire"] = hms(min(r["t"] for r in exp))
    lad = [r for r in est if r["client_ip"] in W.LADDERD and r["t"] > ld["t"]]
    f["z_ladder_1"] = hms(min(r["t"] for r in lad))
    f["z_ladder_back"] = hms(max(r["t"] for r in lad))

    # ------------------------------------------------------------ auth.log (jump-2)
    at = texts[AUT]
    au = T.parse_auth(at)
    fp = [r for r in au if r.get("failed")]
    f["a_failed"] = len(fp)
    assert f["a_failed"] == at.count("Failed password")
    iu = [r for r in au if "invalid_user" in r]
    assert len(iu) == at.count("Invalid user ")
    tu = T.ranked(T.group(iu, lambda r: r["invalid_user"]), 3)
    f["a_top_users"] = [u for u, _ in tu]
    assert f["a_top_users"] == ["admin", "ubuntu", "postgres"], tu
    assert nth(T.group(iu, lambda r: r["invalid_user"]), 4) < tu[2][1] / 2
    f["a_second_user_n"] = tu[1][1]
    # every Invalid user attempt has exactly one Failed password: a user's tries read the same
    assert T.group(iu, lambda r: r["invalid_user"]) == T.group(fp, lambda r: r["user"], lambda r: r["invalid"])
    ti = T.ranked(T.group(iu, lambda r: r["ip"]), 3)
    f["a_top_ips"] = [ip for ip, _ in ti]
    assert f["a_top_ips"] == list(W.IP_INVALID), ti
    assert nth(T.group(iu, lambda r: r["ip"]), 4) < ti[2][1] / 2
    f["a_invalid_ips"] = len({r["ip"] for r in iu})
    f["a_peak_hour"] = peak(fp, lambda r: True, lambda r: r["t"].hour)
    hrs = sorted(T.group(fp, lambda r: r["t"].hour).values(), reverse=True)
    assert hrs[0] >= hrs[1] + 20, hrs
    f["a_window"] = clock_window(fp, lambda r: True, "03:00", "03:30")
    sudo = [r for r in au if "command" in r]
    [dfr] = [r for r in sudo if r["command"].endswith(" defrag")]
    assert dfr["sudo_user"] == "r.okafor"
    f["a_sudo_defrag"] = hms(dfr["t"])
    [ans] = [r for r in sudo if "ansible-playbook" in r["command"]]
    f["a_sudo_ansible"] = hms(ans["t"])
    [ufw] = [r for r in sudo if "ufw" in r["command"]]
    f["a_ufw"] = hms(ufw["t"])
    [mb] = [r for r in au if r["msg"] == "error: beginning MaxStartups throttling"]
    [me] = [r for r in au if r["msg"].startswith("exited MaxStartups throttling")]
    f["a_ms_begin"], f["a_ms_end"] = hms(mb["t"]), hms(me["t"])
    drops = [r for r in au if "dropped" in r]
    assert me["msg"].endswith(f", {len(drops)} connections dropped")
    assert T.ranked(T.group(drops, lambda r: r["dropped"]))[0][0] == W.FLOODER

    # ------------------------------------------------------------ the files agree with each other
    assert H(f["z_exc"]) <= H(f["z_leading"]) < H(f["e_first_uh"]) < H(f["z_first_expire"]) < (1, 27)
    assert H(f["z_ladder_1"]) < H(f["z_ladder_back"]) <= H(f["e_last_uh"]) and f["e_last_uh"][:4] == f["z_ladder_back"][:4] == "1:28"
    assert H(f["a_sudo_defrag"]) < H(f["x_defrag_start"]) < H(f["x_first_hb"]) < H(f["x_elected"])
    assert H(f["x_defrag_start"]) < H(f["e_first_504"]) <= H(f["x_first_hb"])
    assert H(f["x_elected"]) < H(f["m_first_keepalive"]) < H(f["m_first_enq_fail"]) < H(f["x_defrag_done"])
    assert H(f["x_defrag_done"]) < H(f["m_last_enq_fail"]) < H(f["e_last_504"]) < (2, 14, 10)
    assert H(f["a_sudo_ansible"]) < H(f["m_shutdown"]) < H(f["m_start"]) and f["m_shutdown"][:4] == "2:43"
    assert H(f["n_readloop_max_t"]) < H(f["m_nats_async"]) < H(f["n_sc_first"]) <= H(f["m_nats_down"]) < H(f["m_nats_back"])
    assert H(f["m_nats_back"]) < H(f["m_lobby_first"]) <= H(f["e_first_500"])
    assert H(f["e_last_500"]) <= H(f["m_lobby_last"]) < H(f["m_resync"]) and f["m_lobby_last"][:4] == "3:09"
    assert H(f["a_ms_begin"]) < H(f["a_ufw"]) < H(f["a_ms_end"]) and f["a_ms_begin"][:4] == "3:52"
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


def check_turns_differ(rows):
    """The scored turn of a follow-up asks for a figure the earlier turns did not: no accepted
    rendering of its answer is a figure named in the earlier turns."""
    for c in rows:
        if not c.get("turns"):
            continue
        earlier = " ".join(c["turns"])
        for want in c["answer_has"]:
            for o in (want if isinstance(want, list) else [want]):
                if re.fullmatch(r"[\d.,:]+", o):
                    assert o not in re.findall(r"[\d.,:]+", earlier), (c["id"], o)


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
    check_turns_differ(rows)
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
