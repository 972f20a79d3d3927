#!/usr/bin/env python3
"""Generates the `queries-heldout22` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout22.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout22.jsonl
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

SEED = 20361128
HERE = Path(__file__).resolve().parent
SET = "queries-heldout22"
MAX_BYTES = 6_000_000

ACCESS, ERROR, FPM = "shop.access.log", "shop.error.log", "php8.3-fpm.log"


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


def either(*times):
    """One event read two ways (an access line's `$time_local`, or that minus `$request_time`, when
    the request came in): either second passes."""
    return sorted({hms(t) for t in times})


def build_fixtures():
    return W.write_all(SEED)


def only_token(text, token, k):
    """`grep -c` of a token agrees with the parse: the token appears on exactly k lines."""
    assert sum(1 for line in text.splitlines() if token in line) == k, (token, k)


def multiset(rows, key):
    return sorted(Counter(key(r) for r in rows).items())


def facts(texts, night):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}

    # --- shop.access.log
    at = texts[ACCESS]
    al = T.parse_access(at)
    assert all(al[i]["t"] <= al[i + 1]["t"] for i in range(len(al) - 1))
    e504 = [r for r in al if r["st"] == 504]
    e502 = [r for r in al if r["st"] == 502]
    e500 = [r for r in al if r["st"] == 500]
    f["a_504"], f["a_502"] = len(e504), len(e502)
    only_token(at, '" 504 ', len(e504))
    only_token(at, " 504 ", len(e504))
    only_token(at, " 502 ", len(e502))
    only_token(at, " 500 ", len(e500))
    assert all(29.9 < r["urt"] < 30.1 for r in e504)
    orders = [r for r in al if r["path"] == "/wp-json/wc/v3/orders" and r["method"] == "GET" and r["st"] == 200]
    assert {r["ip"] for r in orders} == {W.WAREHOUSE_IP}
    p95 = same_by_any_definition([r["rt"] for r in orders], 95)
    assert abs(p95 - night.orders_p95) < 1e-9
    # the whole path's p95 (5xx included) is another figure: the filter matters
    allp = [r["rt"] for r in al if r["path"] == "/wp-json/wc/v3/orders"]
    assert abs(T.percentile_nearest_rank(allp, 95) - p95) > 0.05
    f["a_orders_p95"] = [f"{p95:.3f}", f"{round(p95 * 1000)} ms", f"{round(p95 * 1000)}ms", f"{round(p95 * 1000)} 毫秒"]
    slow = max(al, key=lambda r: r["rt"])
    standout([r["rt"] for r in al])
    assert slow["rt"] == 187.412
    f["a_slowest_file"] = slow["path"].rsplit("/", 1)[1]
    f["a_slowest"] = [secs2(slow["rt"]), "187412"]
    big = max(al, key=lambda r: r["bytes"])
    standout([r["bytes"] for r in al], 1.2)
    assert big is not slow and big["bytes"] == 74213118
    f["a_biggest_file"], f["a_biggest"] = big["path"].rsplit("/", 1)[1], big["bytes"]
    f["a_top3_clients"] = strict_top(T.group(al, lambda r: r["ip"]), 3)
    assert f["a_top3_clients"] == [W.WAREHOUSE_IP, W.CRAWLER_IP, W.UPTIME_IP], f["a_top3_clients"]
    f["a_top3_bytes"] = strict_top(T.total(al, lambda r: r["ip"], lambda r: r["bytes"]), 3)
    assert f["a_top3_bytes"] == [W.FEED_IP, W.CRAWLER_IP, W.TRADE_IP], f["a_top3_bytes"]
    f500 = min(e500, key=lambda r: r["t"])
    assert f500 is min(e500, key=lambda r: r["start"])
    f["a_first_500"] = either(f500["t"], f500["start"])
    f504 = min(e504, key=lambda r: r["t"])
    assert f504 is min(e504, key=lambda r: r["start"])
    l504 = max(e504, key=lambda r: r["t"])
    assert l504 is max(e504, key=lambda r: r["start"])
    f["a_first_504"], f["a_last_504"] = either(f504["t"], f504["start"]), either(l504["t"], l504["start"])
    pk = peak(al, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == peak(al, lambda r: True, lambda r: T.minutes(r["start"]), margin=1.3) == W.SALE
    f["a_peak"] = hm(pk)
    f["a_window_502"] = clock_window(al, lambda r: r["st"] == 502, "02:10", "02:40")
    assert f["a_window_502"] == clock_window(al, lambda r: r["st"] == 502, "02:10", "02:40", key="start")
    f["a_distinct_ips"] = len({r["ip"] for r in al})
    f["a_share_5xx"] = pct(T.count(al, lambda r: r["st"] >= 500), len(al))

    # --- shop.error.log
    et = texts[ERROR]
    el = T.parse_error(et)
    assert all(el[i]["t"] <= el[i + 1]["t"] for i in range(len(el) - 1))
    has = lambda s: (lambda r: s in r["msg"])  # noqa: E731
    notfound = [r for r in el if re.match(r'open\(\) "[^"]+" failed \(2: No such file or directory\)', r["msg"])]
    f["e_notfound"] = len(notfound)
    only_token(et, "No such file or directory", len(notfound))
    eagain = [r for r in el if has("failed (11: Resource temporarily unavailable) while connecting to upstream")(r)]
    f["e_eagain"] = len(eagain)
    only_token(et, "Resource temporarily unavailable", len(eagain))
    limit = [r for r in el if r["msg"].startswith("limiting requests, excess: ")]
    f["e_limit"] = len(limit)
    only_token(et, "limiting requests", len(limit))
    fatal = [r for r in el if has("PHP message: PHP Fatal error:  ")(r)]
    f["e_fatal"] = len(fatal)
    only_token(et, "PHP Fatal error", len(fatal))
    allocs = [int(m.group(1)) for r in fatal for m in [re.search(r"tried to allocate (\d+) bytes", r["msg"])] if m]
    assert len(allocs) == 6
    f["e_alloc_max"] = standout(allocs, 2.0)
    assert f["e_alloc_max"] == W.BIG_ALLOC
    f["e_top_limit_ip"] = strict_top(T.group(limit, lambda r: r["client"]), 1)[0]
    assert f["e_top_limit_ip"] == W.CRAWLER_IP
    warns = [re.search(r"PHP message: PHP Warning:  .* in (\S+) on line \d+", r["msg"]) for r in el if has("PHP Warning:  ")(r)]
    assert all(warns)
    top_file = strict_top(Counter(m.group(1) for m in warns), 1, 1.5)[0]
    # every PHP message (deprecations too) by file: the same file leads
    allmsg = Counter(m.group(1) for r in el for m in re.finditer(r"PHP (?:Warning|Deprecated|Notice):  .*? in (\S+) on line", r["msg"]))
    assert strict_top(allmsg, 1)[0] == top_file
    f["e_top_warn_file"] = top_file.rsplit("/", 1)[1]
    forbid = [r for r in el if r["msg"].startswith("access forbidden by rule")]
    f["e_forbid_n"] = len(forbid)
    f["e_forbid_top"] = strict_top(T.group(forbid, lambda r: r["client"]), 1, 2.0)[0]
    assert f["e_forbid_top"] == W.SCANNERS[0]
    f["e_first_eagain"] = hms(first(eagain, lambda r: True))
    timeouts = [r for r in el if has("upstream timed out (110: Connection timed out)")(r)]
    only_token(et, "upstream timed out", len(timeouts))
    f["e_last_limit"] = hms(last(limit, lambda r: True))
    pk = peak(el, lambda r: r["level"] == "error", lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == peak(el, lambda r: r["level"] == "error", lambda r: T.minutes(r["t"]), margin=1.3, weight=lambda r: r["lines"])
    assert pk == peak(el, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3) == W.STORM
    f["e_peak"] = hm(pk)
    resets = [r for r in el if has("recv() failed (104: Connection reset by peer)")(r)]
    only_token(et, "Connection reset by peer", len(resets))
    f["e_window_reset"] = clock_window(resets, lambda r: True, "03:00", "03:15")
    assert f["e_window_reset"] < len(resets)

    # --- php8.3-fpm.log
    ft = texts[FPM]
    fl = T.parse_fpm(ft)
    assert all(fl[i]["t"] <= fl[i + 1]["t"] for i in range(len(fl) - 1))
    slowl = [r for r in fl if r["level"] == "WARNING" and " executing too slow (" in r["msg"]]
    f["f_slow"] = len(slowl)
    only_token(ft, "executing too slow", len(slowl))
    execl = [r for r in fl if r["level"] == "WARNING" and " execution timed out (" in r["msg"]]
    f["f_exec"] = len(execl)
    only_token(ft, "execution timed out", len(execl))
    sigterm = [r for r in fl if "exited on signal 15 (SIGTERM)" in r["msg"]]
    assert len(sigterm) == len(execl)
    segv = [r for r in fl if re.search(r"\] child \d+ exited on signal 11 \(SIGSEGV - core dumped\) after ", r["msg"])]
    f["f_segv"] = len(segv)
    only_token(ft, "SIGSEGV", len(segv))
    started = [r for r in fl if re.fullmatch(r"\[pool \w+\] child \d+ started", r["msg"])]
    f["f_started"] = len(started)
    only_token(ft, " started", len(started))
    exits = [(r, re.search(r"\] child (\d+) exited .* after (\d+\.\d{6}) seconds from start", r["msg"])) for r in fl]
    exits = [(r, int(m.group(1)), float(m.group(2))) for r, m in exits if m]
    standout([x[2] for x in exits], 2.0)
    lr, lpid, lage = max(exits, key=lambda x: x[2])
    assert lpid == night.longest[0]
    f["f_longest_pid"] = str(lpid)
    secs2(lage)
    f["f_longest_age"] = [f"{lage:.2f}", str(int(lage)), f"{int(lage):,}"]
    vals = [float(re.search(r"executing too slow \((\d+\.\d{6}) sec\)", r["msg"]).group(1)) for r in slowl]
    assert all(5.0 <= v < 6.0 for v in vals)
    mean = sum(vals) / len(vals)
    assert 0.1 < (mean * 100) % 1 < 0.4, mean
    f["f_mean_slow"] = f"{mean:.2f}"
    maxc = [r for r in fl if "server reached pm.max_children setting" in r["msg"]]
    f["f_first_maxc"] = hms(maxc[0]["t"])
    assert maxc[0]["t"] >= W.SALE and maxc[0]["t"] < W.SALE + W.secs(60)
    f["f_first_segv"] = hms(segv[0]["t"])
    f["f_first_segv_pid"] = re.search(r"child (\d+) exited", segv[0]["msg"]).group(1)
    f["f_last_segv"] = hms(segv[-1]["t"])
    pk = peak(segv, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == W.T(3, 7)
    f["f_peak_segv"] = hm(pk)
    f["f_window_slow"] = clock_window(slowl, lambda r: True, "01:00", "01:15")
    reload = [r for r in fl if r["msg"] == "Reloading in progress ..."]
    assert len(reload) == 2

    # --- the files agree
    # every 504 is nginx's upstream timeout, every 502 a refused connect or a reset, every 429 a
    # limit, every 500 a PHP fatal, every reset a child's SIGSEGV, all in the same second
    assert multiset(e504, lambda r: (r["t"], r["ip"])) == multiset(timeouts, lambda r: (r["t"], r["client"]))
    assert multiset(e502, lambda r: (r["t"], r["ip"])) == multiset(eagain + resets, lambda r: (r["t"], r["client"]))
    assert multiset([r for r in al if r["st"] == 429], lambda r: (r["t"], r["ip"])) == multiset(limit, lambda r: (r["t"], r["client"]))
    assert multiset(e500, lambda r: (r["t"], r["ip"])) == multiset(fatal, lambda r: (r["t"], r["client"]))
    assert multiset(resets, lambda r: r["t"]) == multiset(segv, lambda r: r["t"])
    assert multiset([r for r in al if r["st"] == 403], lambda r: (r["t"], r["ip"])) == multiset(forbid, lambda r: (r["t"], r["client"]))
    assert all(W.HANG_FROM - W.secs(1) <= r["start"] for r in e504)
    assert all(W.HANG_FROM <= r["t"] <= W.PLUGIN_OFF + W.secs(150) for r in execl)

    # no client address an answer holds is the start of another address in the logs
    ips = {r["ip"] for r in al}
    for ip in f["a_top3_clients"] + f["a_top3_bytes"] + [f["e_top_limit_ip"], f["e_forbid_top"]]:
        assert not [x for x in ips if x != ip and x.startswith(ip)], ip

    # --- the timelines
    after = [r for r in resets if r["t"] > reload[0]["t"]]
    f["tl_deploy"] = ordered(reload[0]["t"], after[0]["t"], after[-1]["t"], reload[-1]["t"])
    assert after[0]["t"] == segv[[r["t"] > reload[0]["t"] for r in segv].index(True)]["t"]
    ordered(f504["t"], execl[0]["t"], l504["t"], execl[-1]["t"])
    ordered(f504["start"], execl[0]["t"], l504["start"], execl[-1]["t"])
    f["tl_outage"] = [f["a_first_504"], [hms(execl[0]["t"])], f["a_last_504"], [hms(execl[-1]["t"])]]
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


AREAS = {"access", "error", "fpm", "proc"}
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
