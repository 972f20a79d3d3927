#!/usr/bin/env python3
"""Generates the `queries-dev6` set: the fixture logs (seeded), their truth (parsed back
from the written files by `truth.py`) and `queries-dev6.jsonl`. Standard library only.

    python3 gen.py            # rewrite fixtures/ and queries-dev6.jsonl
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

SEED = 20310922
HERE = Path(__file__).resolve().parent
SET = "queries-dev6"
MAX_BYTES = 6_000_000

FIXTURES = [
    ("haproxy.log", W.haproxy_log), ("postgresql-16-main.log", W.postgres_log), ("redis-server.log", W.redis_log),
    ("ride-api-json.log", W.rideapi_log), ("dispatcher.log", W.dispatcher_log), ("elasticsearch.json", W.es_log),
]


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


def at_min(t):
    return t.hour * 60 + t.minute


def minute_of(t):
    return t.hour * 60 + t.minute


def clock_window(rows, pred, a, b, key="t", slack=5):
    """The rows matching `pred` with `key` in [a, b) ("HH:MM"), asserting none lies within
    `slack` minutes outside either edge (so "between a and b" cannot be read two ways)."""
    lo = int(a[:2]) * 60 + int(a[3:])
    hi = int(b[:2]) * 60 + int(b[3:])
    assert T.count(rows, lambda r: pred(r) and (lo - slack <= minute_of(r[key]) < lo or hi <= minute_of(r[key]) < hi + slack)) == 0
    return T.count(rows, lambda r: pred(r) and lo <= minute_of(r[key]) < hi)


def last_window(rows, pred, end, minutes, slack):
    """Matching rows in the last `minutes` minutes before `end`, none within `slack` minutes of the edge."""
    lo, hi = (minutes - slack) * 60, (minutes + slack) * 60
    assert T.count(rows, lambda r: pred(r) and lo <= (end - r["t"]).total_seconds() <= hi) == 0
    return T.count(rows, lambda r: pred(r) and (end - r["t"]).total_seconds() <= minutes * 60)


def peak(rows, pred, key):
    [(m, c)] = T.ranked(T.group(rows, key, pred))
    return m


def first(rows, pred):
    return min(r["t"] for r in rows if pred(r))


def last(rows, pred):
    return max(r["t"] for r in rows if pred(r))


def facts(texts):
    """Every figure a case asks for, computed from the written text, checked against the plan."""
    f = {}
    # --- haproxy.log (accept date)
    ht = texts["haproxy.log"]
    ha = T.parse_haproxy(ht)
    s = lambda k: (lambda r: r["status"] == k)  # noqa: E731
    x5 = lambda r: r["status"] >= 500  # noqa: E731
    f["ha_503"] = T.count(ha, s(503))
    assert f["ha_503"] == W.HA_503 == len(re.findall(r"\] fe_web~ \S+ \S+ 503 ", ht)) == ht.count(" 503 ")
    f["ha_504"] = T.count(ha, s(504))
    assert f["ha_504"] == W.HA_504 == ht.count(" 504 ")
    f["ha_5xx"] = T.count(ha, x5)
    assert f["ha_5xx"] == W.HA_503 + W.HA_504 + W.HA_500 == len(re.findall(r"/-?\d+ 5\d\d ", ht))
    f["ha_5xx_window"] = clock_window(ha, x5, "02:40", "03:00")
    f["ha_503_peak"] = peak(ha, s(503), lambda r: hm(r["t"]))
    assert f["ha_503_peak"] == "2:52"
    f["ha_first_503"] = hms(first(ha, s(503)))
    f["ha_last_503"] = hms(last(ha, s(503)))
    assert (f["ha_first_503"], f["ha_last_503"]) == ("2:47:31", "2:57:49")
    f["ha_ips"] = len({r["ip"] for r in ha})
    top_srv = T.ranked(T.group(ha, lambda r: r["server"]), 3)
    f["ha_top_srv"] = [x for x, _ in top_srv]
    assert f["ha_top_srv"] == ["rides-01", "rides-02", "rides-03"]
    f["ha_2nd_srv_n"] = top_srv[1][1]
    top404 = T.ranked(T.group(ha, lambda r: r["path"], s(404)), 3)
    assert [p for p, _ in top404] == [p for p, _, _ in W.HA_404[:3]]
    f["ha_404_2nd"], f["ha_404_2nd_n"] = top404[1]
    docks = [r["Tr"] for r in ha if r["backend"] == "be_docks" and r["status"] == 200]
    assert same_by_any_definition(docks, 95) == 1840
    f["ha_docks_p95"] = ["1.84", "1840", "1,840"]

    # --- postgresql-16-main.log (a message owns its DETAIL/HINT/STATEMENT lines)
    pt = texts["postgresql-16-main.log"]
    pg = T.parse_postgres(pt)
    f["pg_fatal"] = T.count(pg, lambda r: r["sev"] == "FATAL")
    assert f["pg_fatal"] == W.PG_TOO_MANY + W.PG_AUTH + W.PG_ADMIN == pt.count(" FATAL:  ")
    f["pg_deadlock"] = hms(first(pg, lambda r: r["msg"] == "deadlock detected"))
    assert T.count(pg, lambda r: r["msg"] == "deadlock detected") == 1
    too_many = lambda r: r["msg"] == "sorry, too many clients already"  # noqa: E731
    f["pg_first_toomany"] = hms(first(pg, too_many))
    f["pg_shutdown"] = hms(first(pg, lambda r: r["msg"] == "received fast shutdown request"))
    f["pg_ready"] = hms(first(pg, lambda r: r["msg"] == "database system is ready to accept connections"))
    f["pg_toofreq"] = hms(first(pg, lambda r: r["msg"].startswith("checkpoints are occurring too frequently")))
    dur = [r for r in pg if r["msg"].startswith("duration: ")]
    ms = lambda r: float(re.match(r"duration: ([\d.]+) ms", r["msg"]).group(1))  # noqa: E731
    slow = sorted(dur, key=lambda r: -ms(r))
    assert ms(slow[0]) == 61844.207 and ms(slow[1]) < 20000
    f["pg_max_dur"] = ["61.8", "61,844", "61844"]
    f["pg_max_at"] = hms(slow[0]["t"])
    f["pg_max_user"] = slow[0]["user"]
    assert f["pg_max_user"] == "billing_batch"
    [(f["pg_top_user"], _)] = T.ranked(T.group(dur, lambda r: r["user"]))
    assert f["pg_top_user"] == "rides_app"
    wrote = [int(re.match(r"checkpoint complete: wrote (\d+) buffers", r["msg"]).group(1)) for r in pg
             if r["msg"].startswith("checkpoint complete")]
    assert sum(wrote) == W.PG_CKPT_MEAN * len(wrote) == W.PG_CKPT_MEAN * T.count(pg, lambda r: r["msg"].startswith("checkpoint starting"))
    f["pg_ckpt_mean"] = W.PG_CKPT_MEAN
    assert (f["pg_toofreq"], f["pg_max_at"], f["pg_deadlock"], f["pg_first_toomany"], f["pg_shutdown"], f["pg_ready"]) == \
        ("2:41:33", "2:44:02", "2:46:58", "2:47:20", "2:58:04", "2:58:11")

    # --- redis-server.log
    rt = texts["redis-server.log"]
    rd = T.parse_redis(rt)
    fork = lambda r: r["msg"] == "Can't save in background: fork: Cannot allocate memory"  # noqa: E731
    f["rd_fork"] = T.count(rd, fork)
    assert f["rd_fork"] == W.RD_FORK == rt.count("fork: Cannot allocate memory")
    f["rd_first_fork"] = hms(first(rd, fork))
    ok = lambda r: r["msg"] in ("DB saved on disk", "Background saving terminated with success") and r["t"] > first(rd, fork)  # noqa: E731
    assert len({hms(r["t"]) for r in rd if ok(r) and r["t"].minute == 17}) == 1
    f["rd_ok"] = hms(first(rd, ok))
    f["rd_warn"] = T.count(rd, lambda r: r["lvl"] == "#")
    assert f["rd_warn"] == rt.count(" # ")
    f["rd_lost"] = hms(first(rd, lambda r: r["msg"].startswith("Connection with replica")))
    f["rd_sync_ok"] = hms(first(rd, lambda r: r["msg"].startswith("Synchronization with replica")))
    assert (f["rd_lost"], f["rd_sync_ok"], f["rd_first_fork"], f["rd_ok"]) == ("1:12:08", "1:12:36", "3:09:41", "3:17:29")

    # --- ride-api-json.log (docker json-file, python logging, tracebacks)
    dt = texts["ride-api-json.log"]
    dk = T.parse_docker_python(dt)
    derr = lambda r: r["level"] == "ERROR"  # noqa: E731
    f["dk_err"] = T.count(dk, derr)
    assert f["dk_err"] == dt.count(" ERROR [")
    [(f["dk_top_logger"], f["dk_top_logger_n"])] = T.ranked(T.group(dk, lambda r: r["logger"], derr))
    assert (f["dk_top_logger"], f["dk_top_logger_n"]) == ("rides.db", W.DK_DB_ERR)
    f["dk_first_db"] = hms(first(dk, lambda r: derr(r) and r["logger"] == "rides.db"))
    f["dk_reconnect"] = hms(first(dk, lambda r: r["msg"].startswith("database pool reconnected")))
    assert (f["dk_first_db"], f["dk_reconnect"]) == ("2:47:21", "2:58:15")
    ends = [r["dur"] for r in dk if r.get("path") == "/v2/rides/end"]
    assert sum(ends) == W.DK_END_MEAN * len(ends)
    f["dk_end_mean"] = ["0.412", "412"]
    near = sorted((r["dur"] for r in dk if r.get("path") == "/v2/docks/nearby"), reverse=True)
    assert near[0] == 7415 and near[1] < 3000
    f["dk_near_max"] = ["7.415", "7.42", "7.4 s", "7.4s", "7.4 秒", "7.4秒", "7415", "7,415"]

    # --- dispatcher.log (logrus)
    dp = T.parse_logrus(texts["dispatcher.log"])
    perr = lambda r: r["level"] == "error"  # noqa: E731
    f["dp_err"] = T.count(dp, perr)
    assert f["dp_err"] == W.DP_BLOCK + W.DP_MISCONF + W.DP_WEBHOOK == texts["dispatcher.log"].count("level=error")
    f["dp_err_hour"] = peak(dp, perr, lambda r: r["t"].hour)
    assert f["dp_err_hour"] == 3
    f["dp_warn_hour"] = peak(dp, lambda r: r["level"] == "warning", lambda r: r["t"].hour)
    assert f["dp_warn_hour"] == 2
    f["dp_bikes"] = len({r["bike"] for r in dp if "bike" in r})
    f["dp_window"] = clock_window(dp, perr, "01:30", "02:00")
    mis = lambda r: r["msg"] == "reserve dock slot failed"  # noqa: E731
    [(f["dp_top_dock"], _)] = T.ranked(T.group(dp, lambda r: r["dock"], mis))
    assert f["dp_top_dock"] == "D-0412"
    f["dp_top_dock_last"] = hms(last(dp, lambda r: mis(r) and r["dock"] == "D-0412"))
    f["dp_first_block"] = hms(first(dp, lambda r: r["msg"] == "bulk index failed"))
    f["dp_first_mis"] = hms(first(dp, mis))
    f["dp_last_mis"] = hms(last(dp, mis))
    f["dp_resumed"] = hms(first(dp, lambda r: r["msg"] == "reservation writes resumed"))
    f["dp_first_search"] = hms(first(dp, lambda r: r["msg"] == "dock search timed out"))
    f["dp_replica"] = hms(first(dp, lambda r: r["msg"].startswith("redis replica read failed")))
    assert (f["dp_first_block"], f["dp_first_mis"], f["dp_top_dock_last"], f["dp_last_mis"], f["dp_resumed"]) == \
        ("1:36:24", "3:10:07", "3:17:04", "3:17:12", "3:17:33")

    # --- elasticsearch.json (ECS)
    es = T.parse_ecs(texts["elasticsearch.json"])
    f["es_warn"] = T.count(es, lambda r: r["log.level"] == "WARN")
    [(lg, _)] = T.ranked(T.group(es, lambda r: r["log.logger"], lambda r: r["log.level"] == "WARN"))
    f["es_top_warn_logger"] = lg.rsplit(".", 1)[1]
    assert f["es_top_warn_logger"] == "DiskThresholdMonitor"
    f["es_high"] = hms(first(es, lambda r: r["message"].startswith("high disk watermark")))
    f["es_flood"] = hms(first(es, lambda r: r["message"].startswith("flood stage disk watermark")))
    f["es_yellow"] = hms(first(es, lambda r: "from [GREEN] to [YELLOW]" in r["message"]))
    f["es_gc_old"] = hms(first(es, lambda r: r["message"].startswith("[gc][old]")))
    assert (f["es_high"], f["es_flood"], f["es_yellow"], f["es_gc_old"]) == ("1:33:47", "1:36:19", "1:41:02", "3:31:14")

    # the timelines must read one way only
    assert f["es_high"] < f["es_flood"] < f["dp_first_block"] < f["es_yellow"]
    assert f["pg_deadlock"] < f["pg_first_toomany"] < f["dk_first_db"] < f["ha_first_503"]
    assert f["ha_last_503"] < f["pg_shutdown"] < f["pg_ready"] < f["dk_reconnect"]
    assert f["rd_first_fork"] < f["dp_first_mis"] and f["dp_last_mis"] < f["rd_ok"] < f["dp_resumed"]
    assert f["rd_lost"] < f["dp_replica"] < f["rd_sync_ok"] and f["es_gc_old"] < f["dp_first_search"]
    return f



def check_cases(rows):
    """Every integer an answer must hold is 60 or more, no two cases share one, and no case's
    question (or earlier turn) contains it (a timeline's or incident's `503`, the symptom's name,
    is not a count)."""
    seen = {}
    for c in rows:
        asked = set(re.findall(r"\d+", c["text"] + " " + " ".join(c.get("turns", []))))
        for want in c.get("answer_has", []):
            options = want if isinstance(want, list) else [want]
            ints = [o for o in options if re.fullmatch(r"\d[\d,]*", o)]
            if not ints:
                continue
            v = int(ints[0].replace(",", ""))
            if c["cat"] in ("timeline", "incident") and options == ["503"]:
                continue  # a status named as the symptom, not a count
            assert v >= 60, (c["id"], v)
            assert str(v) not in asked, (c["id"], v)
            assert v not in seen, (c["id"], seen.get(v), v)
            seen[v] = c["id"]
    return seen


def main():
    texts = build_fixtures()
    f = facts(texts)
    from cases import cases

    rows = cases(f, n)
    ids = [c["id"] for c in rows]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for c in rows:
        for name in c.get("files", []):
            assert name in texts, (c["id"], name)
    check_cases(rows)
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
