#!/usr/bin/env python3
"""Generates the `queries-heldout13` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-heldout13.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-heldout13.jsonl
    python3 gen.py --check    # regenerate in memory and fail if anything on disk differs
    python3 gen.py -v         # also print every figure
"""

import json
import random
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the set

import truth as T  # noqa: E402
import writers as W  # noqa: E402

SEED = 20340518
HERE = Path(__file__).resolve().parent
SET = "queries-heldout13"
MAX_BYTES = 5_300_000

CF, LG, IM = W.CF_FILE, W.LEDGER_FILE, W.IMPOSER_FILE

FIXTURES = [(CF, W.cloudfront_log), (LG, W.ledger_log), (IM, W.imposer_log)]


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


def strict_top(counter, k, gap=1.2):
    """The top k keys, each at least `gap` times the next (rank k+1 included)."""
    top = T.ranked(counter, k + 1)
    for i in range(k):
        assert top[i][1] > gap * top[i + 1][1], top
    return [key for key, _ in top[:k]]


def one_decimal_safe(x):
    """`x` rounds to one decimal the same way however it is rounded (not near a .x5 edge)."""
    frac = (x * 10) % 1
    assert not 0.42 <= frac <= 0.58, x


def pct_opts(num, den):
    p = 100 * num / den
    one_decimal_safe(p)
    return sorted({f"{p:.1f}", f"{p:.2f}"})


def seconds_opts(ms):
    """A duration held in ms and asked in seconds: 1-3 decimals of seconds, or the ms."""
    s = ms / 1000
    one_decimal_safe(s)
    out = {f"{s:.1f}", f"{s:.2f}", f"{s:.3f}", str(ms)}
    if ms >= 1000:
        out.add(f"{ms:,}")
    return sorted(out)


def ms_opts(ms):
    out = {str(ms), f"{ms / 1000:.3f}"}
    if ms >= 1000:
        out.add(f"{ms:,}")
    return sorted(out)


def gb_opts(b):
    for x in (b / 1e9, b / 2 ** 30):
        one_decimal_safe(x)
    return sorted({f"{b / 1e9:.2f}", f"{b / 1e9:.1f}", f"{b / 2 ** 30:.2f}", f"{b / 2 ** 30:.1f}", str(b), f"{b:,}"})


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    P = W.plan()

    # --- CloudFront
    ct = texts[CF]
    cf = T.parse_cloudfront(ct)
    img = [r for r in cf if r["host"] == W.IMG]
    f["cf_img_not_200_304"] = T.count(img, lambda r: r["status"] not in (200, 304))
    assert T.count(img, lambda r: r["status"] == 503) == 45
    f["cf_img_hit_pct"] = pct_opts(T.count(img, lambda r: r["result"] == "Hit"), len(img))
    co = [r for r in cf if r["method"] == "POST" and r["stem"] == "/api/v2/checkout"]
    p90 = same_by_any_definition([r["tt_ms"] for r in co], 90)
    assert p90 == W.CO_P90_MS
    f["cf_co_p90"] = ms_opts(p90)
    f["cf_top3_ips"] = strict_top(T.group(cf, lambda r: r["ip"]), 3)
    assert f["cf_top3_ips"] == [W.SCRAPER, W.PROBE, W.PARTNER], f["cf_top3_ips"]
    f["cf_checkout_ips"] = len({r["ip"] for r in co})
    cart504 = lambda r: r["stem"] == "/api/v2/cart" and r["status"] == 504  # noqa: E731
    f["cf_cart504_window"] = clock_window(cf, cart504, "01:10", "01:25")
    f["cf_miss_peak"] = hm(peak(cf, lambda r: r["result"] == "Miss", lambda r: T.minutes(r["t"]), margin=1.15))
    assert f["cf_miss_peak"] == "2:05"
    by403 = T.group(cf, lambda r: r["ip"], lambda r: r["status"] == 403)
    assert T.ranked(by403, 1)[0][0] == W.SCRAPER and sorted(by403.values())[-2] * 5 < by403[W.SCRAPER]
    scr403 = lambda r: r["ip"] == W.SCRAPER and r["status"] == 403  # noqa: E731
    f["cf_scraper_first403"], f["cf_scraper_last403"] = first(cf, scr403), last(cf, scr403)
    assert hms(f["cf_scraper_first403"]) == "2:31:05" and hms(f["cf_scraper_last403"]) == "2:58:40"
    proofs = sum(r["bytes"] for r in cf if r["stem"].startswith("/proofs/"))
    f["cf_proofs_gb"] = gb_opts(proofs)
    f["cf_scraper_total"] = T.count(cf, lambda r: r["ip"] == W.SCRAPER)
    f["cf_over10s"] = T.count(cf, lambda r: r["tt_ms"] > 10_000)
    assert f["cf_over10s"] == T.count(cf, lambda r: r["tt_ms"] >= 10_000)
    assert T.count(cf, lambda r: 9_000 <= r["tt_ms"] <= 11_000) == 0
    tts = sorted(cf, key=lambda r: -r["tt_ms"])
    assert tts[1]["tt_ms"] < 0.8 * tts[0]["tt_ms"]
    f["cf_slowest_stem"] = tts[0]["stem"]
    f["cf_slowest_s"] = sorted({f"{tts[0]['tt_ms'] / 1000:.1f}", f"{tts[0]['tt_ms'] / 1000:.2f}",
                                f"{tts[0]['tt_ms'] / 1000:.3f}", str(tts[0]["tt_ms"]), f"{tts[0]['tt_ms']:,}"})
    s504 = lambda r: r["status"] == 504  # noqa: E731
    f["cf_first504"], f["cf_last504"] = first(cf, s504), last(cf, s504)
    img503 = lambda r: r["host"] == W.IMG and r["status"] == 503  # noqa: E731
    f["cf_first_img503"], f["cf_last_img503"] = first(cf, img503), last(cf, img503)
    f["cf_502"] = T.count(cf, lambda r: r["status"] == 502)

    # --- order-ledger (Log4j2)
    lt = texts[LG]
    lg = T.parse_log4j2(lt)
    f["lg_errors"] = T.count(lg, lambda r: r["level"] == "ERROR")
    assert f["lg_errors"] == lt.count(" ERROR [")
    f["lg_sqltransient"] = T.count(lg, lambda r: "java.sql.SQLTransientConnectionException" in r["chain"])
    assert f["lg_sqltransient"] == lt.count("SQLTransientConnectionException") == T.count(cf, s504)
    assert f["lg_sqltransient"] == sum(W.HIKARI_PER_MIN.values())
    roots = T.group(lg, lambda r: r["root"], lambda r: r["root"] is not None)
    top3 = strict_top(roots, 3)
    assert [x.rsplit(".", 1)[1] for x in top3] == ["SQLTransientConnectionException", "StaleObjectStateException",
                                                   "SocketTimeoutException"], roots
    f["lg_top3_roots"] = [x.rsplit(".", 1)[1] for x in top3]
    # only the innermost `Caused by` counted: the same top 3 (each trace has one root)
    caused = T.group(lg, lambda r: r["root"], lambda r: len(r["chain"]) > 1)
    assert [k for k, _ in T.ranked(caused, 3)] == top3
    assert T.count(lg, lambda r: r["root"] == "org.hibernate.StaleObjectStateException") == W.N_STALE \
        == T.count(cf, lambda r: r["status"] == 409)
    assert T.count(lg, lambda r: "HttpMessageNotReadableException" in r["msg"]) == W.N_JACKSON \
        == T.count(cf, lambda r: r["stem"] == "/api/v2/addresses" and r["status"] == 400)
    hik = [r for r in lg if r["root"] == "java.sql.SQLTransientConnectionException"]
    assert hms(min(r["t"] for r in hik)) == hms(f["cf_first504"]) == "1:12:07"
    auth = [r for r in lg if r["msg"].startswith("Payment authorised")]
    p99 = same_by_any_definition([int(r["latencyMs"]) for r in auth], 99)
    assert p99 == W.AUTH_P99_MS
    f["lg_auth_p99"] = seconds_opts(p99)
    ok = [r for r in lg if r["msg"].startswith("Checkout ok")]
    assert len(ok) == len(auth) == T.count(cf, lambda r: r["stem"] == "/api/v2/checkout" and r["status"] == 201)
    in2 = lambda r: r["msg"].startswith("Checkout ok")  # noqa: E731
    # "02:00 to 03:00" read as [02:00, 03:00), [02:00:01, 03:00:00] or through the minute 03:00: the same orders
    assert T.count(lg, lambda r: in2(r) and (W.T(2, 0) <= r["t"] < W.T(2, 0, 1) or W.T(3, 0) <= r["t"] < W.T(3, 1))) == 0
    cents = sum(int(r["total"].replace(".", "")) for r in ok if r["t"].hour == 2)
    sums = {f"{cents // 100}.{cents % 100:02d}", f"{cents // 100:,}.{cents % 100:02d}"}
    if cents % 10 == 0:  # 40700.40 may be written 40700.4
        sums |= {x[:-1] for x in sums}
    f["lg_sum_02"] = sorted(sums)
    [f["lg_breaker_open"]] = [r["t"] for r in lg if "from CLOSED to OPEN" in r["msg"]]
    [f["lg_breaker_closed"]] = [r["t"] for r in lg if "from HALF_OPEN to CLOSED" in r["msg"]]
    dec = [r for r in lg if r["msg"].startswith("Payment declined")]
    f["lg_declined"] = len(dec)
    assert len(dec) == T.count(cf, lambda r: r["stem"] == "/api/v2/checkout" and r["status"] == 402)
    f["lg_declined_pct"] = pct_opts(len(dec), len(dec) + len(auth))
    reasons = T.group(dec, lambda r: r["reason"])
    [f["lg_top_reason"]] = strict_top(reasons, 1)
    f["lg_top_reason_n"] = reasons[f["lg_top_reason"]]
    [f["lg_heap"]] = [r["t"] for r in lg if r["msg"].startswith("Heap usage")]
    [f["lg_oom"]] = [r["t"] for r in lg if r["root"] == "java.lang.OutOfMemoryError"]
    [f["lg_starting"]] = [r["t"] for r in lg if r["msg"].startswith("Starting OrderLedgerApplication")]
    [f["lg_started"]] = [r["t"] for r in lg if r["msg"].startswith("Started OrderLedgerApplication")]
    f["lg_err_minute"] = hm(peak(lg, lambda r: r["level"] == "ERROR", lambda r: T.minutes(r["t"]), margin=1.2))
    failed = [r for r in lg if r["msg"].startswith("Checkout failed")]
    f["lg_failed_orders"] = len({r["order"].rstrip(":") for r in failed})
    assert f["lg_failed_orders"] < len(failed)
    f["lg_items5"] = T.count(ok, lambda r: int(r["items"]) >= 5)
    [f["lg_export_start"]] = [r["t"] for r in lg if r["msg"].startswith("Nightly export started")]
    [f["lg_export_end"]] = [r["t"] for r in lg if r["msg"].startswith("Nightly export finished")]
    # the ledger was down between the OOM and the restart: the CDN's 502s fall in that gap
    assert all(f["lg_oom"].replace(microsecond=0) <= r["t"] <= f["lg_started"] for r in cf if r["status"] == 502)
    assert f["cf_502"] >= 10

    # --- imposer (tracing JSON)
    im = T.parse_tracing(texts[IM])
    fin = [r for r in im if r["msg"] == "render finished"]
    f["im_pages_40_60"] = T.count(fin, lambda r: 40 <= r["fields"]["pages"] <= 60)
    assert T.count(fin, lambda r: r["fields"]["pages"] in (40, 60)) == 0
    p90 = same_by_any_definition([r["fields"]["render_ms"] for r in fin], 90)
    assert p90 == W.RENDER_P90_MS
    f["im_render_p90"] = seconds_opts(p90)
    recv = [r for r in im if r["msg"] == "job received"]
    studio = [r["fields"]["queue_wait_ms"] for r in recv if r["span"]["tier"] == "studio"]
    assert sum(studio) % len(studio) == 0
    f["im_studio_wait_mean"] = sum(studio) // len(studio)
    fonts = T.group(im, lambda r: r["fields"]["font"], lambda r: r["msg"] == "font fallback")
    f["im_top3_fonts"] = strict_top(fonts, 3)
    fails = [r for r in im if r["msg"] == "render failed"]
    f["im_failed_jobs"] = len({r["span"]["job_id"] for r in fails})
    assert f["im_failed_jobs"] < len(fails)
    f["im_output_gb"] = gb_opts(sum(r["fields"]["output_bytes"] for r in fin))
    f["im_fail_pct"] = pct_opts(len(fails), len(recv))
    retry = lambda r: r["msg"] == "asset fetch retry"  # noqa: E731
    f["im_first_retry"], f["im_last_retry"] = first(im, retry), last(im, retry)
    workers = T.group(fails, lambda r: r["spans"][0]["worker"])
    [f["im_top_worker"]] = strict_top(workers, 1)
    f["im_not_info"] = T.count(im, lambda r: r["level"] != "INFO")
    rss = sorted(((r["fields"]["peak_rss_mb"], r["span"]["job_id"]) for r in im if "peak_rss_mb" in r["fields"]), reverse=True)
    assert rss[1][0] < 0.6 * rss[0][0]
    f["im_rss_job"] = rss[0][1]
    [f["im_rss_job_pages"]] = {r["fields"]["pages"] for r in recv if r["span"]["job_id"] == f["im_rss_job"]}
    [f["im_highwater"]] = [r["t"] for r in im if r["msg"] == "memory high-water"]
    [f["im_panic"]] = [r["t"] for r in im if r["msg"] == "worker panicked"]
    [f["im_restarted"]] = [r["t"] for r in im if r["msg"] == "worker restarted"]

    # --- the night reads one way only (each timeline's events in distinct seconds)
    f["tl_pool"] = ordered(f["lg_export_start"], f["cf_first504"], f["cf_last504"], f["lg_export_end"])
    f["tl_slowdown"] = ordered(f["im_first_retry"], f["cf_first_img503"], f["cf_last_img503"], f["im_last_retry"])
    f["tl_imposer"] = ordered(f["im_highwater"], f["im_panic"], f["im_restarted"])
    f["tl_oom"] = ordered(f["lg_heap"], f["lg_oom"], f["lg_starting"], f["lg_started"])
    f["tl_breaker"] = ordered(f["lg_breaker_open"], f["lg_breaker_closed"])
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


def check_procs(rows):
    """What the harness's `query_sets_are_well_formed` asserts of a case: planted names of 1-15
    characters without `/`, every placeholder naming a planted process that can fill it, and
    something scored."""
    for c in rows:
        specs = c.get("procs", [])
        for s in specs:
            assert 1 <= len(s["name"]) <= 15 and "/" not in s["name"], (c["id"], s["name"])
        texts = [c["text"], json.dumps(c.get("answer_has", [])), json.dumps(c.get("turns", []))]
        if "approval" in c and "kill" in c["approval"]:
            texts.append("{count:%s}" % c["approval"]["kill"])
        for kind, name in re.findall(r"\{(pid|pids|count|port|user):([^}]+)\}", " ".join(texts)):
            mine = [s for s in specs if s["name"] == name]
            assert mine, (c["id"], kind, name)
            assert kind != "pid" or sum(s.get("count", 1) for s in mine) == 1, (c["id"], name)
            assert kind != "port" or mine[0].get("listen"), (c["id"], name)
        assert c.get("answer_has") or "approval" in c, c["id"]


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n, hm, hms)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    check_cases(rows)
    check_procs(rows)
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
