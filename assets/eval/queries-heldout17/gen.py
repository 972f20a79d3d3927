#!/usr/bin/env python3
"""Generates the `queries-heldout17` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout17.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout17.jsonl
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

SEED = 20360221
HERE = Path(__file__).resolve().parent
SET = "queries-heldout17"
MAX_BYTES = 9_000_000

HK, KONG, CW = "larder-web-heroku.log", "kong-file-log.json", "cartwright.log"


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


def unique_time(rows, pred, which):
    """The first or last matching row's second, asserting no other matching row shares it."""
    t = which(rows, pred)
    assert T.count(rows, lambda r: pred(r) and hms(r["t"]) == hms(t)) == 1, t
    return t


def pct(k, total):
    """A share in percent to one decimal, asserted off the rounding edge (rounded = truncated)."""
    p = 100 * k / total
    assert 0.1 < (p * 10) % 1 < 0.45 and int(p * 10) % 10, p
    return f"{p:.1f}"


def strict_top(counter, k, margin=1.2):
    top = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))[:k + 1]
    top += [(None, 0)] * (k + 1 - len(top))   # fewer than k + 1 keys: the next one has none
    for i in range(k):
        assert top[i][1] > margin * top[i + 1][1], top
    return [x for x, _ in top[:k]]


def mb_opts(b):
    """A byte total asked in MB: the bytes, decimal MB and binary MiB (one decimal, off the rounding edge)."""
    out = [str(b), f"{b:,}"]
    for scale in (1e6, 2 ** 20):
        x = b / scale
        assert 0.05 < (x * 10) % 1 < 0.45, x
        out.append(f"{x:.1f}")
    return out


def mean_opts(values, unit_s=True):
    """A mean in ms: whole ms (rounded = truncated, off the .5 edge), or in seconds to 3 decimals."""
    m = sum(values) / len(values)
    assert 0.05 < m % 1 < 0.45, m
    out = [str(int(m))]
    if unit_s:
        out.append(f"{m / 1000:.3f}")
    return out, int(m)


def build_fixtures():
    return W.write_all(SEED)


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- heroku logs
    ht = texts[HK]
    hl = T.parse_heroku(ht)
    rt = [r for r in hl if r["src"] == "heroku[router]"]
    h12 = lambda r: r.get("code") == "H12"  # noqa: E731
    f["h_h12"] = T.count(rt, h12)
    assert f["h_h12"] == ht.count(" code=H12 ")
    f["h_503"] = T.count(rt, lambda r: r["status"] == 503)
    assert f["h_503"] == ht.count(" status=503 ") and f["h_503"] > f["h_h12"]
    info = [r for r in rt if r["at"] == "info"]
    assert len(info) == T.count(rt, lambda r: r["status"] != 503)
    p95 = same_by_any_definition([r["service_ms"] for r in info], 95)
    assert p95 == night.service_p95 >= 60
    f["h_p95"] = [str(p95), f"{p95 / 1000:.3f}"] if p95 < 1000 else n(p95)
    f["h_top3_fwd"] = strict_top(T.group(rt, lambda r: r["fwd"]), 3)
    assert f["h_top3_fwd"] == [W.SCRAPER, W.MONITOR[0], W.OFFICE_NAT], f["h_top3_fwd"]
    byd = sorted(T.group(rt, lambda r: r["dyno"], h12).items(), key=lambda kv: -kv[1])
    assert byd[0][1] > 3 * byd[1][1], byd
    f["h_h12_dyno"] = byd[0][0]
    assert f["h_h12_dyno"] == "web.3"
    r14 = lambda r: r["msg"] == "Error R14 (Memory quota exceeded)"  # noqa: E731
    assert {r["src"] for r in hl if r14(r)} == {"heroku[web.3]"}
    f["h_first_r14"] = unique_time(hl, r14, first)
    ups = [r for r in hl if r["src"] == "heroku[web.3]" and r["msg"] == "State changed from starting to up"]
    f["h_web3_up"] = ups[-1]["t"]
    assert hms(f["h_web3_up"]) == hms(W.UP_AGAIN)
    restart = [r for r in hl if r["src"] == "app[api]" and r["msg"].startswith("Restart web.3")]
    assert len(restart) == 1 and restart[0]["t"] < f["h_web3_up"]
    f["h_peak_h12"] = hm(peak(rt, h12, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["h_peak_h12"] == hm(W.H12_PEAK)
    f["h_bytes_mb"] = mb_opts(sum(r["bytes"] for r in rt))
    f["h_distinct_fwd"] = len({r["fwd"] for r in rt})
    mem = [(float(T.kv(r["msg"])["sample#memory_total"][:-2]), r["src"]) for r in hl if "sample#memory_total=" in r["msg"]]
    mem.sort(reverse=True)
    assert mem[0] == (1268.47, "heroku[web.3]") and mem[1][0] < 1200, mem[:3]
    f["h_max_mem"] = ["1268"]
    conf = [r["service_ms"] for r in rt if r["path"] == "/checkout/confirm" and r["status"] == 303]
    f["h_confirm_mean"], f["h_confirm_mean_int"] = mean_opts(conf)
    f["h_502"] = T.count(rt, lambda r: r["path"] == "/checkout/confirm" and r["status"] == 502)
    assert f["h_502"] == T.count(hl, lambda r: r["src"].startswith("app[web.") and "checkout failed" in r["msg"])

    # --- Kong file-log
    kl = T.parse_kong(texts[KONG])
    st = lambda r: r["response"]["status"]  # noqa: E731
    lim = lambda r: st(r) == 429  # noqa: E731
    f["k_429"] = T.count(kl, lim)
    assert f["k_429"] == texts[KONG].count('"response":{"status":429')
    assert all(r["latencies"]["proxy"] == -1 and "tries" not in r for r in kl if lim(r))
    up = [r for r in kl if r["latencies"]["proxy"] >= 0]
    assert len(up) == T.count(kl, lambda r: "tries" in r)
    p99 = same_by_any_definition([r["latencies"]["proxy"] for r in up], 99)
    assert p99 == night.proxy_p99 >= 60
    f["k_p99"] = n(p99)
    f["k_top3_429"] = strict_top(T.group(kl, lambda r: r["client_ip"], lim), 3)
    assert f["k_top3_429"] == night.heavy, (f["k_top3_429"], night.heavy)
    f["k_top_consumer"] = strict_top(T.group(kl, lambda r: r["consumer"]["username"]), 1)[0]
    f["k_first_429"] = unique_time(kl, lim, first)
    s500 = lambda r: r.get("upstream_status") == "500"  # noqa: E731
    f["k_500"] = T.count(kl, s500)
    assert f["k_500"] == T.count(kl, lambda r: st(r) == 500)
    f["k_first_500"] = unique_time(kl, s500, first)
    f["k_last_500"] = unique_time(kl, s500, last)
    sess = lambda r: r["request"]["method"] == "POST" and r["request"]["uri"] == "/v1/session"  # noqa: E731
    f["k_peak_429"] = hm(peak(kl, lim, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["k_peak_429"] == hm(W.STUFF_PEAK)
    bask = [r["latencies"]["request"] for r in kl if r["route"]["name"] == "cartwright-baskets"]
    f["k_baskets_mean"], f["k_baskets_mean_int"] = mean_opts(bask)
    f["k_distinct_ips"] = len({r["client_ip"] for r in kl})
    lat = sorted(((r["latencies"]["request"], r["request"]["uri"]) for r in kl), reverse=True)
    assert lat[0][0] > 1.25 * lat[1][0] and lat[0][1].startswith("/v1/orders/export"), lat[:3]
    f["k_max_lat"], f["k_max_uri"] = lat[0]
    f["k_429_pct"] = pct(T.count(kl, lambda r: sess(r) and lim(r)), T.count(kl, sess))
    f["k_size_mb"] = mb_opts(sum(r["response"]["size"] for r in kl))

    # --- cartwright (Elixir Logger)
    cl = T.parse_cartwright(texts[CW])
    err = lambda r: r["level"] == "error"  # noqa: E731
    f["c_errors"] = T.count(cl, err)
    assert f["c_errors"] == texts[CW].count(" [error] ")
    sent = [r for r in cl if "sent" in r]
    p95c = same_by_any_definition([r["ms"] for r in sent if r["sent"] == 200], 95)
    assert p95c == night.sent200_p95 >= 60, p95c
    f["c_p95"] = [str(p95c), f"{p95c / 1000:.3f}"] if p95c < 1000 else n(p95c)
    dq = lambda r: "dropped from queue after" in r["body"]  # noqa: E731
    crash = [r for r in cl if r["msg"].endswith(" terminated") and "running CartwrightWeb.Endpoint" in r["msg"]]
    assert all(dq(r) for r in crash) and T.count(cl, dq) == len(crash) == f["k_500"]
    f["c_first_dq"] = unique_time(cl, dq, first)
    disc = lambda r: r["msg"].startswith("Postgrex.Protocol") and " disconnected: " in r["msg"]  # noqa: E731
    f["c_first_disc"] = first(cl, disc)  # ten connections drop in that one second
    assert hms(f["c_first_disc"]) == hms(W.DB_DROP) and f["c_first_disc"] < f["c_first_dq"]
    gs = T.group(cl, lambda r: re.match(r"GenServer (\S+) terminating", r["msg"]).group(1),
                 lambda r: re.match(r"GenServer \S+ terminating", r["msg"]))
    f["c_top_genserver"] = strict_top(gs, 1, margin=2)[0]
    assert f["c_top_genserver"] == "Cartwright.StockSync"
    lf = lambda r: r["msg"].startswith("login failed ")  # noqa: E731
    f["c_peak_login"] = hm(peak(cl, lf, lambda r: T.minutes(r["t"]), margin=1.3))
    assert f["c_peak_login"] == hm(W.QUIET_BURST)
    waits = sorted((int(re.search(r"dropped from queue after (\d+)ms", r["body"]).group(1)) for r in crash), reverse=True)
    assert waits[0] == night.max_queue and waits[1] * 1.25 < waits[0], waits[:3]
    f["c_max_wait"] = waits[0]
    f["c_top_sent_non200"] = strict_top(T.group(sent, lambda r: r["sent"], lambda r: r["sent"] != 200), 1, margin=2)[0]
    assert f["c_top_sent_non200"] == 401
    f["c_sent401"] = T.count(sent, lambda r: r["sent"] == 401)
    paid = [r for r in cl if r["msg"].startswith("payment authorized ")]
    psp = [int(T.kv(r["msg"])["psp_ms"]) for r in paid]
    assert sum(psp) == night.psp_mean * len(psp) and night.psp_mean % 10
    f["c_psp_mean"] = night.psp_mean
    f["c_warnings"] = T.count(cl, lambda r: r["level"] == "warning")
    assert f["c_warnings"] == texts[CW].count(" [warning] ")
    f["c_session_posts"] = T.count(cl, lambda r: r.get("method") == "POST" and r.get("path") == "/api/v1/session")
    f["c_checkout_crash"] = T.count(crash, lambda r: re.search(r"\nRequest: POST /api/v1/baskets/\d+/checkout\n", r["body"]))

    # --- the files agree with each other
    assert f["c_session_posts"] == T.count(kl, lambda r: sess(r) and not lim(r))
    assert f["h_502"] == T.count(kl, lambda r: s500(r) and r["consumer"]["username"] == "larder-web"
                                 and r["request"]["uri"].endswith("/checkout"))
    assert len([r for r in cl if "method" in r and r["path"].startswith("/api/v1/")]) == len(up)
    assert f["c_sent401"] > T.count(kl, lambda r: st(r) == 401) - 1
    assert f["c_checkout_crash"] > f["h_502"]
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


AREAS = {"heroku", "kong", "phoenix", "proc"}
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
