#!/usr/bin/env python3
"""Generates the `queries-heldout23` set (HELD-OUT: scores only): the fixture logs (seeded), their
truth (parsed back from the written files by `truth.py`) and `queries-heldout23.jsonl`.
Standard library only; deterministic whatever PYTHONHASHSEED is.

    python3 gen.py            # rewrite fixtures/ and queries-heldout23.jsonl
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

SEED = 20370219
HERE = Path(__file__).resolve().parent
SET = "queries-heldout23"
MAX_BYTES = 6_000_000

API, BROKER, TG = "reefer-api.log", "mosquitto.log", "telegraf.log"


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


def either(end, start):
    """One event read two ways (an API line's time, when the request ended, or that minus its latency,
    when it came in): either second passes."""
    return sorted({hms(end), hms(start)})


def clock_or_epoch(r):
    """A mosquitto line's time: the clock (UTC) or the Unix time it is logged with."""
    return [hms(r["t"]), str(r["epoch"])]


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
    in_phase = lambda t: any(a - W.secs(1) <= t <= b + W.secs(6) for a, b in W.PHASES)  # noqa: E731

    # --- reefer-api.log (Echo JSON)
    at = texts[API]
    al, alog = T.parse_api(at)
    assert all((al[i]["t"], al[i]["ns"]) <= (al[i + 1]["t"], al[i + 1]["ns"]) for i in range(len(al) - 1))
    by = lambda st: [r for r in al if r["st"] == st]  # noqa: E731
    e504, e503, e500 = by(504), by(503), by(500)
    f["a_504"], f["a_503"] = len(e504), len(e503)
    for st, rows in ((504, e504), (503, e503), (500, e500), (401, by(401))):
        only_token(at, f'"status":{st}', len(rows))
        only_token(at, f"code={st}", len(rows) if st != 500 else 0)
    assert all(r["error"] == "code=504, message=influx query: context deadline exceeded" for r in e504)
    assert all(5.0 < r["lat"] / 1e9 < 5.01 for r in e504)
    assert all(in_phase(r["start"]) for r in e504)
    ship = [r for r in al if r["path"] == "/v1/shipments/active" and r["st"] == 200]
    assert {r["ip"] for r in al if r["path"] == "/v1/shipments/active"} == {W.TMS_IP}
    p95 = same_by_any_definition([r["lat"] for r in ship], 95)
    assert p95 == night.ship_p95
    allp = [r["lat"] for r in al if r["path"] == "/v1/shipments/active"]
    assert abs(T.percentile_nearest_rank(allp, 95) - p95) > 0.5e6, "the 200 filter must matter"
    assert (p95 // 1000) % 10 < 5
    f["a_ship_p95"] = [f"{p95 / 1e6:.2f}", f"{p95 / 1e9:.5f}"]
    slow = max(al, key=lambda r: r["lat"])
    standout([r["lat"] for r in al], 3.0)
    assert slow["lat_s"].startswith("2m13.") and "excursions" in slow["path"]
    f["a_slowest_path"] = "excursions"
    f["a_slowest"] = ["2m13", "133"]
    f["a_top3_clients"] = strict_top(T.group(al, lambda r: r["ip"]), 3)
    assert f["a_top3_clients"] == [W.TMS_IP, W.PROM_IP, W.PARTNER_IP], f["a_top3_clients"]
    f["a_top_401"] = strict_top(T.group(by(401), lambda r: r["ip"]), 1)[0]
    assert f["a_top_401"] == W.PARTNER_IP
    renew = [(r, re.fullmatch(r"/v1/units/(kwr-\d+)/cert/renew", r["path"])) for r in al]
    renew = [(r, m.group(1)) for r, m in renew if m]
    f["a_top_renew"] = strict_top(Counter(u for _, u in renew), 1, 2.0)[0]
    assert f["a_top_renew"] == W.HAMMER
    f504 = min(e504, key=lambda r: r["t"])
    assert f504 is min(e504, key=lambda r: r["start"])
    f["a_first_504"] = either(f504["t"], f504["start"])
    l503 = max(e503, key=lambda r: r["t"])
    assert l503 is max(e503, key=lambda r: r["start"])
    f["a_last_503"] = either(l503["t"], l503["start"])
    pk = peak(al, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == peak(al, lambda r: True, lambda r: T.minutes(r["start"]), margin=1.3)
    assert W.RESTART < pk < W.RESTART + W.secs(300)
    f["a_peak"] = hm(pk)
    f["a_window_504"] = clock_window(al, lambda r: r["st"] == 504, "02:05", "02:25")
    assert f["a_window_504"] == clock_window(al, lambda r: r["st"] == 504, "02:05", "02:25", key="start")
    assert f["a_window_504"] < f["a_504"]
    f["a_distinct_ips"] = len({r["ip"] for r in al})
    f["a_share_5xx"] = pct(T.count(al, lambda r: r["st"] >= 500), len(al))

    # --- mosquitto.log
    mt = texts[BROKER]
    ml = T.parse_mosquitto(mt)
    assert all(ml[i]["epoch"] <= ml[i + 1]["epoch"] for i in range(len(ml) - 1))
    has = lambda s: (lambda r: s in r["msg"])  # noqa: E731
    tmo = [r for r in ml if r["msg"].endswith(" has exceeded timeout, disconnecting.")]
    f["m_timeout"] = len(tmo)
    only_token(mt, "has exceeded timeout", len(tmo))
    cert = [r for r in ml if r["msg"] == "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed"]
    f["m_certfail"] = len(cert)
    only_token(mt, "certificate verify failed", len(cert))
    only_token(mt, "Client <unknown> disconnected: Protocol error.", len(cert))
    assert all(r["t"] >= W.EXPIRY for r in cert)
    already = [r for r in ml if r["msg"].endswith(" already connected, closing old connection.")]
    f["m_already"] = len(already)
    only_token(mt, "already connected", len(already))
    conn = [r for r in ml if r["msg"].startswith("New client connected from ")]
    units = {r["client"] for r in conn if r["client"].startswith("kwr-")}
    mentioned = set(re.findall(r"\bkwr-\d+", mt))
    assert mentioned == units, sorted(mentioned - units)[:5]
    f["m_units"] = len(units)
    f["m_first_cert"] = clock_or_epoch(cert[0])
    drops = [r for r in ml if has("Outgoing messages are being dropped for client ")(r)]
    assert {r["msg"] for r in drops} == {"Outgoing messages are being dropped for client reefer-alerts."}
    assert all(in_phase(r["t"]) for r in drops)
    f["m_last_drop"] = clock_or_epoch(drops[-1])
    pk = peak(conn, lambda r: True, lambda r: T.minutes(r["t"]), margin=1.3)
    assert W.RESTART < pk < W.RESTART + W.secs(120)
    f["m_peak_conn"] = hm(pk)
    f["m_window_timeout"] = clock_window(tmo, lambda r: True, "00:40", "00:55")
    assert f["m_window_timeout"] < f["m_timeout"]
    f["m_top_timeout"] = strict_top(T.group(tmo, lambda r: r["client"]), 1, 2.0)[0]
    assert f["m_top_timeout"] == W.FLAKY
    na = [i for i, r in enumerate(ml) if r["msg"].endswith(" disconnected, not authorised.")]
    assert len(na) >= 3
    pairs = {(ml[i]["client"], ml[i - 1]["ip"]) for i in na}
    assert all(ml[i - 1]["msg"].startswith("New connection from ") and ml[i - 1]["epoch"] == ml[i]["epoch"] for i in na)
    assert pairs == {(W.MQTTX_ID, W.MQTTX_IP)}, pairs
    f["m_notauth_id"], f["m_notauth_ip"] = W.MQTTX_ID, W.MQTTX_IP
    term = [r for r in ml if r["msg"] == "mosquitto version 2.0.18 terminating"]
    run = [r for r in ml if r["msg"] == "mosquitto version 2.0.18 running"]
    assert len(term) == 1 and len(run) == 1
    # every TLS failure is one attempt: a connection, the OpenSSL error, the unknown client gone
    idx = [i for i, r in enumerate(ml) if r["msg"].startswith("OpenSSL Error")]
    assert all(ml[i - 1]["msg"].startswith("New connection from ") and ml[i + 1]["msg"] == "Client <unknown> disconnected: Protocol error."
               for i in idx)
    certfail_at = [(ml[i - 1]["t"], ml[i - 1]["ip"]) for i in idx]

    # --- telegraf.log
    tt = texts[TG]
    tl = T.parse_telegraf(tt)
    assert all(tl[i]["t"] <= tl[i + 1]["t"] for i in range(len(tl) - 1))
    flushint = [r for r in tl if r["msg"] == '[agent] ["outputs.influxdb_v2"] did not complete within its flush interval']
    f["t_flushint"] = len(flushint)
    only_token(tt, "did not complete within its flush interval", len(flushint))
    dead = [r for r in tl if r["level"] == "E" and r["plugin"] == "outputs.influxdb_v2" and "context deadline exceeded" in r["msg"]]
    f["t_deadline"] = len(dead)
    only_token(tt, "context deadline exceeded", len(dead))
    only_token(tt, "Error writing to outputs.influxdb_v2", len(dead))
    assert all(in_phase(r["t"]) for r in dead)
    bad = [r for r in tl if r["msg"].startswith("[inputs.mqtt_consumer] Error in plugin: invalid JSON provided, unable to parse: ")]
    f["t_badjson"] = len(bad)
    only_token(tt, "invalid JSON", len(bad))
    wrote = [re.fullmatch(r"\[outputs\.(\w+)\] Wrote batch of (\d+) metrics in (\S+)", r["msg"]) for r in tl]
    wrote = [(r, m.group(1), int(m.group(2)), T.duration_ns(m.group(3))) for r, m in zip(tl, wrote) if m]
    iw = [x for x in wrote if x[1] == "influxdb_v2"]
    f["t_written"] = sum(x[2] for x in iw)
    over = [(r, re.fullmatch(r"\[outputs\.influxdb_v2\] Metric buffer overflow; (\d+) metrics have been dropped", r["msg"])) for r in tl]
    over = [(r, int(m.group(1))) for r, m in over if m]
    only_token(tt, "Metric buffer overflow", len(over))
    f["t_overflows"] = len(over)
    f["t_dropped"] = sum(k for _, k in over)
    standout([x[3] for x in iw], 1.25)
    sl = max(iw, key=lambda x: x[3])
    assert sl[3] == W.SLOW_BATCH_NS
    secs2(sl[3] / 1e9)
    f["t_slowest"] = [f"{sl[3] / 1e9:.2f}", f"{sl[3] / 1e6:.1f}", str(round(sl[3] / 1e6))]
    f["t_slowest_at"] = hms(sl[0]["t"])
    mean = sum(x[3] for x in iw) / len(iw) / 1e6
    assert 0.1 < (mean * 10) % 1 < 0.45, mean
    f["t_mean"] = f"{mean:.1f}"
    f["t_first_deadline"] = hms(dead[0]["t"])
    f["t_last_overflow"] = hms(over[-1][0]["t"])
    pk = peak(tl, lambda r: r["level"] == "E", lambda r: T.minutes(r["t"]), margin=1.3)
    assert pk == W.T(2, 52)
    f["t_peak_err"] = hm(pk)
    f["t_window_badjson"] = clock_window(bad, lambda r: True, "02:50", "03:00")
    assert f["t_window_badjson"] < f["t_badjson"]
    lost = [r for r in tl if r["msg"] == "[inputs.mqtt_consumer] Error in plugin: connection lost: EOF"]
    connected = [r for r in tl if r["msg"] == "[inputs.mqtt_consumer] Connected [tcp://127.0.0.1:1883]"]
    assert len(lost) == 1 and len(connected) == 1 and lost[0]["t"] < connected[0]["t"]
    f["t_reconnected"] = hms(connected[0]["t"])

    # --- the files agree
    # the restart: the broker's stop is the agent's and the API's lost connection; their reconnects are the broker's
    apilost = [r for r in alog if r["msg"] == "mqtt: connection lost: EOF"]
    apiback = [r for r in alog if r["msg"].startswith("mqtt: reconnected to ")]
    assert len(apilost) == 1 and len(apiback) == 1
    assert term[0]["t"] == lost[0]["t"] == apilost[0]["t"]
    tg_conn = [r for r in conn if r["client"] == "telegraf-ingest"]
    api_conn = [r for r in conn if r["client"] == "reefer-api-cmd"]
    assert [r["t"] for r in tg_conn] == [connected[0]["t"]] and [r["t"] for r in api_conn] == [apiback[0]["t"]]
    assert all(term[0]["t"] <= r["start"] and r["t"] <= apiback[0]["t"] for r in e503 if "/setpoint" in r["path"])
    # every refused renewal follows the same trailer's failed TLS handshake by a few seconds
    for r, u in renew:
        if r["st"] == 503:
            assert any(ip == r["ip"] and W.secs(0) <= r["start"] - t <= W.secs(5) for t, ip in certfail_at), r
            assert r["error"].startswith("code=503, message=pki: ") and r["error"].endswith("Vault is sealed")
        else:
            assert r["st"] == 201 and r["t"] >= W.PKI_FIX
    assert {r["st"] for r, _ in renew} == {201, 503}
    # every firmware-5.1.0 boot payload that could not be parsed follows that trailer's reconnect
    for r in bad:
        u = re.search(r'"unit":"(kwr-\d+)"', r["msg"]).group(1)
        if '"event":"boot"' in r["msg"]:
            assert any(c["client"] == u and W.secs(0) <= r["t"] - c["t"] <= W.secs(3) for c in conn), u
    # a 504 from the API, a failed influx write and a dropped alert queue only while InfluxDB stalls
    assert all(in_phase(r["t"]) for r in flushint)

    # no client address an answer holds is the start of another address in the logs
    ips = {r["ip"] for r in al} | {r["ip"] for r in ml if r.get("ip")}
    for ip in f["a_top3_clients"] + [f["a_top_401"], f["m_notauth_ip"]]:
        assert not [x for x in ips if x != ip and x.startswith(ip)], ip
    # no client id an answer holds is the start of another
    ids = {r["client"] for r in ml if r.get("client")}
    for cid in (f["a_top_renew"], f["m_top_timeout"], f["m_notauth_id"]):
        assert not [x for x in ids if x != cid and x.startswith(cid)], cid

    # --- the cross-file question: the first renewed trailer, and when it came back on the broker
    ok201 = [(r, u) for r, u in renew if r["st"] == 201]
    fr, fu = min(ok201, key=lambda x: x[0]["t"])
    assert fr is min(ok201, key=lambda x: x[0]["start"])[0]
    assert len([1 for r, u in ok201 if r["t"] == fr["t"]]) == 1
    back = [c for c in conn if c["client"] == fu and c["t"] >= fr["start"]]
    f["x_first_renewed"] = fu
    f["x_back"] = clock_or_epoch(back[0])
    assert back[0]["t"] > fr["t"]

    # --- the timelines
    f_flush = flushint[0]["t"]
    f_drop = drops[0]["t"]
    l_dead = dead[-1]["t"]
    ordered(f_flush, f504["start"], f504["t"], f_drop, l_dead)
    f["tl_influx"] = [[hms(f_flush)], f["a_first_504"], clock_or_epoch(drops[0]), [hms(l_dead)]]
    ordered(term[0]["t"], run[0]["t"], connected[0]["t"], apiback[0]["t"])
    f["tl_restart"] = [clock_or_epoch(term[0]), clock_or_epoch(run[0]), [hms(connected[0]["t"])], [hms(apiback[0]["t"])]]
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


AREAS = {"api", "broker", "telegraf", "proc"}
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
