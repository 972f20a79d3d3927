"""Writes the `queries-dev13` fixtures: one night (2036-03-09, 01:00-04:00 UTC) at Orchardly,
an online grocer. Three JSON-lines logs share one plan (`plan()`, seeded by `PLAN_SEED`):
`shopfront-bff` (Node.js, pino + pino-http), `slot-allocator` (Go, ecszap: Elastic Common
Schema JSON, dotted keys beside nested objects) and `route-planner` (Python on Cloud Run,
Google Cloud Logging structured JSON). Standard library only. Every planted event sits at a
chosen second; the truth is parsed back from the written text by `truth.py`, which does not
import this module.
"""

import json
import random
from datetime import datetime, timedelta, timezone

PLAN_SEED = 20360309
DAY = datetime(2036, 3, 9)
START, END = DAY.replace(hour=1), DAY.replace(hour=4)


def T(h, m, s=0, ms=0):
    return DAY.replace(hour=h, minute=m, second=s) + timedelta(milliseconds=ms)


# --- the planted cast
STORES = [f"LDN-{i:02d}" for i in range(1, 41)] + [f"MAN-{i:02d}" for i in range(1, 19)] + \
         [f"BRS-{i:02d}" for i in range(1, 17)]                  # 74 stores
HOT_STORE = "MAN-07"
DEPOTS = [f"D{i:02d}" for i in range(1, 15)]
HOT_DEPOT = "D11"
VANS = [f"VAN-{i:04d}" for i in range(301, 398)]                  # 97 vans

# redis (slot locks) unreachable: slot-allocator fails, the bff sees 503/504
REDIS_FROM, REDIS_TO = T(2, 11, 34, 208), T(2, 29, 51)
BREAKER_OPEN = T(2, 12, 3, 517)
BFF_FIRST_503 = T(2, 11, 36, 540)
ECS_503_BURST = T(2, 19)
CHECKOUT_503, CHECKOUT_504, SLOTS_503, CATALOG_502, ORDERS_500 = 141, 73, 131, 58, 9
CATALOG_FROM, CATALOG_TO = T(3, 40, 10), T(3, 47, 50)
CRASH, RESTART = T(2, 41, 17, 388), T(2, 41, 19, 902)
OLD_PID, NEW_PID = 4127, 30871
PROMO_MIN = T(3, 31)
SLOWEST_BFF = T(3, 5, 44, 61)
SLOWEST_BFF_MS = 18422
SLOWEST_BFF_URL = "/api/orders/O-77120934?expand=items,substitutions"
SLOWEST_ECS = T(3, 17, 42, 118)
SLOWEST_ECS_NS = 9_874_512_334
SLOWEST_ECS_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
# OSRM slow: route-planner times out
OSRM_FROM, OSRM_TO = T(2, 18, 20), T(2, 47, 5)
OSRM_BURST = T(2, 33)
CRITICAL_AT = T(3, 12, 8, 655)
SLOWEST_RP = T(2, 51, 27, 310)
SLOWEST_RP_US = 47_913_208
SLOWEST_RP_TRACE = "a3f1c9e07b2d4e58913c6f0d2e7b8a41"
SLOWEST_RP_MSG = "route optimized with fallback heuristic (OSRM unavailable)"

_PLAN = None


def plan():
    global _PLAN
    if _PLAN is None:
        _PLAN = _make_plan(random.Random(PLAN_SEED))
    return _PLAN


def _plateau(objs, key, p, lo_frac, hi_frac):
    """Sets the values ranked lo_frac..hi_frac (of `objs` sorted by `key`) to the one at rank p,
    so every percentile definition lands on that value."""
    objs = sorted(objs, key=lambda o: o[key])
    n = len(objs)
    lo, hi = int(lo_frac * n), int(hi_frac * n)
    v = objs[int(p * n)][key]
    for o in objs[lo:hi + 1]:
        o[key] = v
    return v


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _ip(rng):
    a = rng.choice([82, 86, 90, 109, 151, 176, 5, 2])
    return f"{a}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


UAS = ["Orchardly/9.3.0 (iPhone; iOS 19.2; Scale/3.00)", "Orchardly/9.2.4 (Android 16; Pixel 10)",
       "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Safari/605.1.15"]
TERMS = ["milk", "bananas", "oat+milk", "sourdough", "eggs", "free+range+chicken", "avocado", "coffee+beans",
         "nappies", "pasta", "tofu", "greek+yoghurt", "kombucha", "tomatoes", "rice"]
PCS = ["SW1A+1AA", "M1+2AB", "BS1+4DJ", "E2+8AA", "N7+9GD", "M14+5RG", "BS8+1TH", "SE15+4QF"]


def _rand_t(rng, a, b):
    return a + timedelta(milliseconds=rng.randint(0, int((b - a).total_seconds() * 1000)))


# ============================================================== shopfront-bff (pino)

def _bff_req(rng, at, cust, kind=None, status=None, rt=None):
    ip, ua = cust
    store = rng.choice(STORES)
    x = rng.random()
    if kind is None:
        kind = ("search" if x < 0.30 else "slots" if x < 0.50 else "checkout" if x < 0.58 else "cart" if x < 0.75
                else "items" if x < 0.85 else "order" if x < 0.92 else "me")
    if kind == "search":
        q = dict(q=rng.choice(TERMS), store=store, page=str(rng.randint(1, 4)))
        m, path, st, r = "GET", "/api/catalog/search", 200, rng.randint(25, 260)
        cl = rng.randint(4000, 38000)
    elif kind == "slots":
        q = dict(store=store, date="2036-03-10", postcode=rng.choice(PCS))
        m, path, st, r, cl = "GET", "/api/slots", 200, rng.randint(30, 320), rng.randint(800, 2400)
    elif kind == "checkout":
        q = dict(store=store)
        m, path, st, r, cl = "POST", "/api/checkout/slot", 201, rng.randint(120, 900), rng.randint(180, 240)
    elif kind == "cart":
        q = dict(store=store)
        m, path, st, r, cl = "GET", "/api/cart", 200, rng.randint(5, 70), rng.randint(600, 5200)
    elif kind == "items":
        q = dict(store=store)
        st = 201 if rng.random() < 0.9 else 400
        m, path, r, cl = "POST", "/api/cart/items", rng.randint(10, 90), 140 if st == 400 else rng.randint(600, 5200)
    elif kind == "order":
        q = dict(expand="items")
        st = 200 if rng.random() < 0.92 else 404
        m, path, r = "GET", f"/api/orders/O-{rng.randint(70000000, 79999999)}", rng.randint(15, 200)
        cl = 58 if st == 404 else rng.randint(1500, 7000)
    else:
        q = {}
        st = 200 if rng.random() < 0.85 else 401
        m, path, r, cl = "GET", "/api/account/me", rng.randint(5, 40), 47 if st == 401 else rng.randint(300, 520)
    if status is not None:
        st = status
        cl = {503: 96, 504: 92, 502: 88, 500: 83}.get(st, cl)
    if rt is not None:
        r = rt
    return dict(t=at, kind=kind, method=m, path=path, query=q, status=st, rt=r, cl=cl, ip=ip, ua=ua)


def _bff(rng):
    custs = sorted({(_ip(rng), rng.choice(UAS)) for _ in range(360)})
    weights = [rng.uniform(0.3, 3.0) for _ in custs]
    pick = lambda: rng.choices(custs, weights)[0]  # noqa: E731
    R = []
    minute = START
    while minute < END:
        k = 13 + rng.randint(-3, 3)
        for _ in range(k):
            R.append(_bff_req(rng, minute + timedelta(milliseconds=rng.randint(0, 59999)), pick()))
        minute += timedelta(minutes=1)
    for _ in range(70):   # the promo push at 03:31: everyone searches
        R.append(_bff_req(rng, PROMO_MIN + timedelta(milliseconds=rng.randint(0, 59999)), pick(), kind="search"))
    # redis outage: planted failures
    window = (REDIS_FROM + timedelta(seconds=3), REDIS_TO)
    R.append(dict(_bff_req(rng, BFF_FIRST_503, pick(), kind="slots", status=503, rt=3012), err="slots"))
    for _ in range(SLOTS_503 - 1):
        R.append(dict(_bff_req(rng, _rand_t(rng, BFF_FIRST_503 + timedelta(seconds=2), REDIS_TO), pick(), kind="slots",
                               status=503, rt=rng.randint(3000, 3100)), err="slots"))
    for _ in range(CHECKOUT_503):
        R.append(dict(_bff_req(rng, _rand_t(rng, *window), pick(), kind="checkout", status=503,
                               rt=rng.randint(40, 120)), err="checkout503"))
    for _ in range(CHECKOUT_504):
        R.append(dict(_bff_req(rng, _rand_t(rng, *window), pick(), kind="checkout", status=504,
                               rt=rng.randint(5000, 5004)), err="timeout"))
    for _ in range(CATALOG_502):
        R.append(dict(_bff_req(rng, _rand_t(rng, CATALOG_FROM, CATALOG_TO), pick(), kind="search", status=502,
                               rt=rng.randint(200, 900)), err="search"))
    for _ in range(ORDERS_500):
        R.append(dict(_bff_req(rng, _rand_t(rng, T(1, 5), T(3, 55)), pick(), kind="order", status=500,
                               rt=rng.randint(60, 400)), err="order"))
    slow = _bff_req(rng, SLOWEST_BFF, pick(), kind="order", status=200, rt=SLOWEST_BFF_MS)
    slow.update(path="/api/orders/O-77120934", query=dict(expand="items,substitutions"), cl=18811)
    R.append(slow)
    # the crash window: nothing is served between the crash and the restart
    R = [r for r in R if not (CRASH - timedelta(seconds=1) <= r["t"] <= RESTART + timedelta(seconds=1))]
    # p95 of GET /api/slots on a plateau
    slots = [r for r in R if r["kind"] == "slots"]
    P95 = _plateau(slots, "rt", 0.95, 0.93, 0.97)

    A = []   # app (non-request) lines
    t = START + timedelta(seconds=21, milliseconds=417)
    while t < END:
        A.append(dict(t=t, level=30, msg="feature flags refreshed", extra={"flags": rng.randint(41, 44), "source": "launchdarkly-relay"}))
        t += timedelta(seconds=60)
    t = T(1, 30, 9, 12)
    while t < T(3, 58):
        A.append(dict(t=t + timedelta(milliseconds=3), level=50, msg="feature flag refresh failed",
                      err=dict(type="FetchError", message="request to http://ld-relay.internal:8030/sdk/latest-all failed, reason: socket hang up",
                               stack="FetchError: request to http://ld-relay.internal:8030/sdk/latest-all failed, reason: socket hang up\n"
                                     "    at ClientRequest.<anonymous> (/app/node_modules/node-fetch/lib/index.js:1501:11)\n"
                                     "    at ClientRequest.emit (node:events:519:28)")))
        t += timedelta(seconds=rng.choice([97, 113, 131, 149]))
    t = START + timedelta(seconds=4)
    while t < END:
        key = f"catalog:{rng.choice(STORES)}:{rng.choice(TERMS)}"
        A.append(dict(t=t, level=20, msg="cache miss" if rng.random() < 0.3 else "cache hit", extra={"key": key, "ttl": 300}))
        t += timedelta(milliseconds=rng.randint(15000, 45000))
    t = REDIS_FROM + timedelta(seconds=9)
    while t < REDIS_TO:
        A.append(dict(t=t, level=40, msg="slot-allocator slow response",
                      extra={"upstream": "http://slot-allocator.internal:8080", "elapsedMs": rng.randint(2100, 2999)}))
        t += timedelta(seconds=rng.randint(15, 40))
    A.append(dict(t=CRASH, level=60, msg="uncaughtException",
                  err=dict(type="TypeError", message="Cannot read properties of undefined (reading 'slotId')",
                           stack="TypeError: Cannot read properties of undefined (reading 'slotId')\n"
                                 "    at reserveSlot (/app/dist/routes/checkout.js:88:41)\n"
                                 "    at /app/dist/routes/checkout.js:131:22\n"
                                 "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)")))
    A.append(dict(t=RESTART, level=30, msg="shopfront-bff listening on :3000", extra={"env": "production", "version": "4.18.2"}))
    A = [a for a in A if not (CRASH < a["t"] < RESTART)]
    for r in R:
        r["is_req"] = True
    L = sorted(R + A, key=lambda e: e["t"])
    rid = {OLD_PID: 0, NEW_PID: 0}
    for e in L:
        e["pid"] = OLD_PID if e["t"] <= CRASH else NEW_PID
        if e.get("is_req"):
            rid[e["pid"]] += 1
            e["id"] = rid[e["pid"]]
            e["xrid"] = f"{_hex(rng, 8)}-{_hex(rng, 4)}-4{_hex(rng, 3)}-a{_hex(rng, 3)}-{_hex(rng, 12)}"
            e["rport"] = rng.randint(30000, 60999)
            e["lb"] = f"::ffff:10.44.0.{rng.choice([7, 8, 9])}"
    return L, P95


ERRS = {
    "slots": ("UpstreamError", "slot-allocator responded 503 Service Unavailable",
              "    at SlotClient.availability (/app/dist/clients/slot-client.js:54:15)"),
    "checkout503": ("UpstreamError", "slot-allocator responded 503 Service Unavailable",
                    "    at SlotClient.reserve (/app/dist/clients/slot-client.js:81:15)"),
    "timeout": ("TimeoutError", "The operation was aborted due to timeout",
                "    at SlotClient.reserve (/app/dist/clients/slot-client.js:77:22)"),
    "search": ("UpstreamError", "search-gateway responded 502 Bad Gateway",
               "    at SearchClient.query (/app/dist/clients/search-client.js:40:13)"),
    "order": ("Error", "order-service responded 500 Internal Server Error",
              "    at OrderClient.get (/app/dist/clients/order-client.js:29:13)"),
}


def bff_log(rng=None):
    out = []
    for e in plan()["bff"]:
        ms = int(e["t"].replace(tzinfo=timezone.utc).timestamp() * 1000)
        if e.get("is_req"):
            st = e["status"]
            level = 50 if st >= 500 else 40 if st >= 400 else 30
            qs = "&".join(f"{k}={v}" for k, v in e["query"].items())
            url = e["path"] + ("?" + qs if qs else "")
            headers = {"host": "api.orchardly.co.uk", "user-agent": e["ua"], "accept": "application/json",
                       "accept-encoding": "gzip, br", "x-forwarded-for": e["ip"], "x-forwarded-proto": "https",
                       "x-request-id": e["xrid"]}
            if e["method"] == "POST":
                headers["content-type"] = "application/json"
            req = {"id": e["id"], "method": e["method"], "url": url,
                   "query": {k: v.replace("+", " ") for k, v in e["query"].items()}, "params": {},
                   "headers": headers, "remoteAddress": e["lb"], "remotePort": e["rport"]}
            rh = {"x-powered-by": "Express", "content-type": "application/json; charset=utf-8",
                  "content-length": str(e["cl"])}
            rec = {"level": level, "time": ms, "pid": e["pid"], "hostname": "bff-web-2", "req": req,
                   "res": {"statusCode": st, "headers": rh}, "responseTime": e["rt"]}
            if "err" in e:
                typ, msg, frame = ERRS[e["err"]]
                rec["err"] = {"type": typ, "message": msg,
                              "stack": f"{typ}: {msg}\n{frame}\n    at process.processTicksAndRejections "
                                       f"(node:internal/process/task_queues:95:5)"}
                if typ == "UpstreamError":
                    rec["err"]["statusCode"] = st
                rec["msg"] = "request errored"
            else:
                rec["msg"] = "request completed"
        else:
            rec = {"level": e["level"], "time": ms, "pid": e["pid"], "hostname": "bff-web-2"}
            rec.update(e.get("extra", {}))
            if "err" in e:
                rec["err"] = e["err"]
            rec["msg"] = e["msg"]
        out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n")
    return "".join(out)


# ============================================================== slot-allocator (ecszap)

def _ecs(rng):
    E = []
    minute = START
    while minute < END:
        for _ in range(20 + rng.randint(-4, 4)):
            at = minute + timedelta(milliseconds=rng.randint(0, 59999))
            x = rng.random()
            store = rng.choice(STORES)
            if x < 0.55:
                E.append(dict(t=at, kind="req", method="GET", path="/v2/slots/availability", status=200,
                              us=rng.randint(4000, 90000), store=store))
            elif x < 0.85:
                st = 201 if rng.random() < 0.92 else 409
                E.append(dict(t=at, kind="req", method="POST", path="/v2/slots/reserve", status=st,
                              us=rng.randint(20000, 260000), store=store))
            elif x < 0.90:
                E.append(dict(t=at, kind="req", method="DELETE", path=f"/v2/slots/reserve/R{rng.randint(1000000, 9999999)}",
                              status=204, us=rng.randint(8000, 60000), store=store))
            else:
                E.append(dict(t=at, kind="req", method="GET", path=f"/v2/stores/{store}/capacity", status=200,
                              us=rng.randint(3000, 40000), store=store))
        minute += timedelta(minutes=1)
    # redis outage
    win = (REDIS_FROM + timedelta(seconds=1), REDIS_TO)
    E.append(dict(t=REDIS_FROM, kind="req", method="GET", path="/v2/slots/availability", status=503,
                  us=2_004_117, store=HOT_STORE, err="op"))
    fails = []
    for i in range(262):
        at = _rand_t(rng, *win) if i % 5 else ECS_503_BURST + timedelta(milliseconds=rng.randint(0, 59999))
        fails.append(dict(t=at, kind="req", method="GET", path="/v2/slots/availability", status=503,
                          us=rng.randint(2_000_000, 2_100_000), err="op"))
    for i in range(151):
        at = _rand_t(rng, *win)
        if i % 3 == 0:
            fails.append(dict(t=at, kind="req", method="POST", path="/v2/slots/reserve", status=503,
                              us=rng.randint(3_000_000, 3_010_000), err="deadline"))
        else:
            fails.append(dict(t=at, kind="req", method="POST", path="/v2/slots/reserve", status=503,
                              us=rng.randint(2_000_000, 2_100_000), err="op"))
    for i, f in enumerate(fails):
        f["store"] = HOT_STORE if i % 9 == 0 else rng.choice(STORES)
    E += fails
    for s in STORES:   # every store is seen
        E.append(dict(t=_rand_t(rng, T(1, 2), T(1, 58)), kind="req", method="GET", path=f"/v2/stores/{s}/capacity",
                      status=200, us=rng.randint(3000, 40000), store=s))
    while True:   # the 5xx share off a rounding edge: a few more capacity reads in the quiet hour
        reqs = [e for e in E if e["kind"] == "req"]
        share = 1000 * sum(1 for e in reqs if e["status"] >= 500) / (len(reqs) + 1)
        if 0.2 < share % 1 < 0.4 and int(share) % 10 != 0:
            break
        s = rng.choice(STORES)
        E.append(dict(t=_rand_t(rng, T(1, 3), T(1, 55)), kind="req", method="GET", path=f"/v2/stores/{s}/capacity",
                      status=200, us=rng.randint(3000, 40000), store=s))
    E.append(dict(t=SLOWEST_ECS, kind="req", method="POST", path="/v2/slots/reserve", status=201,
                  us=SLOWEST_ECS_NS // 1000, ns=SLOWEST_ECS_NS, store="BRS-04", trace=SLOWEST_ECS_TRACE))
    for _ in range(12):
        E.append(dict(t=_rand_t(rng, T(2, 50), T(3, 50)), kind="pq"))
    # app lines
    t = START + timedelta(seconds=2, milliseconds=311)
    while t < END:
        E.append(dict(t=t, kind="pool", down=REDIS_FROM <= t <= REDIS_TO))
        t += timedelta(seconds=30)
    t = REDIS_FROM + timedelta(seconds=5)
    while t < REDIS_TO:
        E.append(dict(t=t, kind="ping"))
        t += timedelta(seconds=10)
    t = BREAKER_OPEN
    while t < REDIS_TO:
        E.append(dict(t=t, kind="breaker", state="open"))
        E.append(dict(t=t + timedelta(seconds=30), kind="breaker", state="half-open"))
        t += timedelta(seconds=rng.randint(61, 95))
    E.append(dict(t=REDIS_TO + timedelta(seconds=4, milliseconds=220), kind="breaker", state="closed"))
    E.sort(key=lambda e: e["t"])
    for e in E:
        e.setdefault("trace", _hex(rng, 32))
        e["tx"] = _hex(rng, 16)
        if "us" in e and "ns" not in e:
            e["ns"] = e["us"] * 1000 + rng.randint(0, 999)
    avail = [e for e in E if e["kind"] == "req" and e["path"] == "/v2/slots/availability"]
    P99 = _plateau(avail, "ns", 0.99, 0.985, 0.995)
    return E, P99


def _ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def ecs_log(rng=None):
    out = []
    base = {"service.name": "slot-allocator", "service.version": "2.31.0", "service.environment": "production",
            "ecs.version": "1.6.0"}
    for e in plan()["ecs"]:
        k = e["kind"]
        if k == "req":
            st = e["status"]
            lvl = "error" if st >= 500 else "warn" if st == 409 else "info"
            msg = ("request failed" if st >= 500 else "slot already taken" if st == 409 else "request handled")
            rec = {"log.level": lvl, "@timestamp": _ts(e["t"]),
                   "log.origin": {"file.name": "httpapi/middleware.go", "file.line": 64 if st < 500 else 71},
                   "message": msg}
            rec.update(base)
            rec.update({"log.logger": "httpapi", "trace.id": e["trace"], "transaction.id": e["tx"],
                        "event": {"dataset": "slot-allocator.access", "duration": e["ns"]},
                        "http": {"version": "1.1", "request": {"method": e["method"]},
                                 "response": {"status_code": st}},
                        "url": {"path": e["path"]},
                        "labels": {"store_id": e["store"], "zone": "europe-west2-" + "abc"[STORES.index(e["store"]) % 3]},
                        "client": {"ip": f"10.44.{STORES.index(e['store']) % 3}.{7 + STORES.index(e['store']) % 5}"}})
            if e.get("err") == "op":
                rec["error"] = {"type": "*net.OpError", "message": "dial tcp 10.30.4.12:6379: i/o timeout"}
            elif e.get("err") == "deadline":
                rec["error"] = {"type": "context.deadlineExceededError", "message": "context deadline exceeded"}
        elif k == "pq":
            rec = {"log.level": "error", "@timestamp": _ts(e["t"]),
                   "log.origin": {"file.name": "capacity/store.go", "file.line": 133},
                   "message": "capacity snapshot query failed"}
            rec.update(base)
            rec.update({"log.logger": "capacity", "error": {"type": "*pq.Error",
                                                             "message": "pq: canceling statement due to statement timeout"}})
        elif k == "pool":
            rec = {"log.level": "debug", "@timestamp": _ts(e["t"]),
                   "log.origin": {"file.name": "locks/redis.go", "file.line": 212}, "message": "redis pool stats"}
            rec.update(base)
            hits = 0 if e["down"] else 1000 + (e["t"].minute * 37) % 400
            rec.update({"log.logger": "locks", "redis": {"pool": {"hits": hits, "timeouts": 14 if e["down"] else 0,
                                                                   "total_conns": 2 if e["down"] else 24,
                                                                   "idle_conns": 0 if e["down"] else 19}}})
        elif k == "ping":
            rec = {"log.level": "error", "@timestamp": _ts(e["t"]),
                   "log.origin": {"file.name": "locks/health.go", "file.line": 48}, "message": "redis ping failed"}
            rec.update(base)
            rec.update({"log.logger": "locks", "error": {"type": "*net.OpError",
                                                          "message": "dial tcp 10.30.4.12:6379: i/o timeout"}})
        else:
            lvl = "warn" if e["state"] == "open" else "info"
            rec = {"log.level": lvl, "@timestamp": _ts(e["t"]),
                   "log.origin": {"file.name": "locks/breaker.go", "file.line": 90},
                   "message": f"circuit breaker {'opened' if e['state'] == 'open' else e['state']}"}
            rec.update(base)
            rec.update({"log.logger": "locks", "labels": {"breaker": "redis-slot-locks"}})
        out.append(json.dumps(rec, separators=(",", ":")) + "\n")
    return "".join(out)


# ============================================================== route-planner (Cloud Logging)

def _rp(rng):
    E = []
    minute = START
    osrm = lambda t: OSRM_FROM <= t <= OSRM_TO  # noqa: E731
    while minute < END:
        for _ in range(16 + rng.randint(-3, 3)):
            at = minute + timedelta(microseconds=rng.randint(0, 59_999_999))
            x = rng.random()
            van, depot = rng.choice(VANS), rng.choice(DEPOTS)
            if x < 0.25:
                E.append(dict(t=at, kind="opt", status=200, us=rng.randint(400_000, 2_800_000), van=van, depot=depot,
                              stops=rng.randint(18, 46), wave=rng.randint(1, 4)))
            elif x < 0.80:
                E.append(dict(t=at, kind="eta", status=200, us=rng.randint(8_000, 150_000), van=van, depot=depot))
            else:
                E.append(dict(t=at, kind="pos", status=204, us=rng.randint(2_000, 30_000), van=van, depot=depot))
        minute += timedelta(minutes=1)
    for v in VANS:
        E.append(dict(t=_rand_t(rng, T(1, 1), T(1, 50)), kind="pos", status=204, us=rng.randint(2_000, 30_000),
                      van=v, depot=rng.choice(DEPOTS)))
    for i in range(187):
        at = _rand_t(rng, OSRM_FROM, OSRM_TO) if i % 4 else OSRM_BURST + timedelta(milliseconds=rng.randint(0, 59999))
        depot = HOT_DEPOT if i % 6 == 0 else rng.choice(DEPOTS)
        if i % 5 == 0:
            E.append(dict(t=at, kind="opt", status=504, us=rng.randint(30_000_000, 30_012_000), van=rng.choice(VANS),
                          depot=depot, wave=rng.randint(1, 4), err=True))
        else:
            E.append(dict(t=at, kind="eta", status=504, us=rng.randint(10_000_000, 10_009_000), van=rng.choice(VANS),
                          depot=depot, err=True))
    t = OSRM_FROM + timedelta(seconds=7)
    while t < OSRM_TO:
        E.append(dict(t=t, kind="slow", depot=rng.choice(DEPOTS), ms=rng.randint(3100, 9800)))
        t += timedelta(seconds=rng.randint(20, 50))
    E.append(dict(t=SLOWEST_RP, kind="opt", status=200, us=SLOWEST_RP_US, van="VAN-0388", depot="D03", stops=41,
                  wave=2, trace=SLOWEST_RP_TRACE, msg=SLOWEST_RP_MSG))
    E.append(dict(t=CRITICAL_AT, kind="crit"))
    t = START + timedelta(seconds=40)
    while t < END:
        E.append(dict(t=t, kind="cache", n=rng.randint(1800, 2400)))
        t += timedelta(seconds=120)
    E = [e for e in E if e["t"] < END]
    E.sort(key=lambda e: e["t"])
    for e in E:
        e.setdefault("trace", _hex(rng, 32))
        e["span"] = _hex(rng, 16)
        e["ip"] = _ip(rng)
    P90 = _plateau([e for e in E if e["kind"] == "opt"], "us", 0.9, 0.87, 0.93)
    return E, P90


def _dur(us):
    """protobuf Duration JSON: 0, 3 or 6 fractional digits."""
    s, frac = divmod(us, 1_000_000)
    if frac == 0:
        return f"{s}s"
    if frac % 1000 == 0:
        return f"{s}.{frac // 1000:03d}s"
    return f"{s}.{frac:06d}s"


def rp_log(rng=None):
    out = []
    host = "https://route-planner-7xq2kd3vna-nw.a.run.app"
    for e in plan()["rp"]:
        k = e["kind"]
        rec = {"time": e["t"].strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
        if k in ("opt", "eta", "pos"):
            if k == "opt":
                url, meth = f"{host}/v1/routes:optimize?depot={e['depot']}&wave={e['wave']}", "POST"
                ok_msg = e.get("msg", "route optimized")
                fn = ("planner/api.py", "142", "optimize")
            elif k == "eta":
                url, meth = f"{host}/v1/eta?van={e['van']}&order=O-{7000000 + (e['us'] * 7919) % 999999:07d}", "GET"
                ok_msg, fn = "eta computed", ("planner/api.py", "88", "eta")
            else:
                url, meth = f"{host}/v1/vans/{e['van']}/position", "POST"
                ok_msg, fn = "position accepted", ("planner/api.py", "61", "position")
            sev = "ERROR" if e["status"] >= 500 else "INFO"
            msg = ok_msg if e["status"] < 500 else ("solver deadline exceeded waiting for OSRM" if k == "opt"
                                                    else "OSRM table request timed out after 10s")
            rec.update({"severity": sev, "message": msg, "logger": "planner.api"})
            if k == "opt" and "stops" in e:
                rec.update({"stops": e["stops"], "wave": e["wave"]})
            rec["httpRequest"] = {"requestMethod": meth, "requestUrl": url, "status": e["status"],
                                  "responseSize": str(0 if e["status"] == 204 else 180 + e["us"] % 4000),
                                  "userAgent": "orchardly-driver/7.4.0 (Android 15)" if k != "opt" else "dispatch-console/3.2",
                                  "remoteIp": e["ip"], "latency": _dur(e["us"]), "protocol": "HTTP/1.1"}
            rec["logging.googleapis.com/labels"] = {"depot": e["depot"], "van_id": e["van"]}
            rec["logging.googleapis.com/sourceLocation"] = {"file": fn[0], "line": fn[1], "function": fn[2]}
            if e.get("err"):
                rec["exc_info"] = ("Traceback (most recent call last):\n  File \"/app/planner/osrm.py\", line 57, in table\n"
                                   "    resp = await self._client.get(url, timeout=self.timeout)\n"
                                   "httpx.ReadTimeout: timed out")
        elif k == "slow":
            rec.update({"severity": "WARNING", "message": "OSRM slow response", "logger": "planner.osrm",
                        "osrm_ms": e["ms"], "logging.googleapis.com/labels": {"depot": e["depot"]},
                        "logging.googleapis.com/sourceLocation": {"file": "planner/osrm.py", "line": "71", "function": "table"}})
        elif k == "crit":
            rec.update({"severity": "CRITICAL", "message": "solver worker pool exhausted (8/8 busy); rejecting optimize requests",
                        "logger": "planner.solver", "busy": 8, "queued": 133,
                        "logging.googleapis.com/sourceLocation": {"file": "planner/solver.py", "line": "203", "function": "submit"}})
        else:
            rec.update({"severity": "DEBUG", "message": "distance matrix cache stats", "logger": "planner.cache",
                        "entries": e["n"], "hit_ratio": round(0.8 + (e["n"] % 17) / 100, 2),
                        "logging.googleapis.com/sourceLocation": {"file": "planner/cache.py", "line": "30", "function": "report"}})
        rec["logging.googleapis.com/trace"] = f"projects/orchardly-prod/traces/{e['trace']}"
        rec["logging.googleapis.com/spanId"] = e["span"]
        rec["logging.googleapis.com/trace_sampled"] = e["trace"][0] in "0123"
        out.append(json.dumps(rec) + "\n")
    return "".join(out)


def _make_plan(rng):
    P = {}
    P["bff"], P["bff_p95"] = _bff(rng)
    P["ecs"], P["ecs_p99_ns"] = _ecs(rng)
    P["rp"], P["rp_p90_us"] = _rp(rng)
    return P
