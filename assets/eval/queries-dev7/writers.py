"""Writers of the `queries-dev7` fixtures (Kettlebrook Pharmacy, 2032-02-17 00:30-03:30 UTC).

One night, one story. Every planted event sits at a chosen second; the background traffic
is seeded. The cross-file schedule (the rx-api requests, the gunicorn worker timeouts, the
carousel's safety stops) is built once by `plan()` from its own seed so that the access log,
the gunicorn error log, the storefront BFF and the carousel controller agree with each
other; each writer's own `rng` only varies cosmetic details. `truth.py` never imports this.
"""

import json
import random
from datetime import datetime, timedelta

DAY = datetime(2032, 2, 17)
START = DAY + timedelta(minutes=30)
END = DAY + timedelta(hours=3, minutes=30)
EPOCH_DAY_MS = 1960588800 * 1000  # 2032-02-17T00:00:00Z
MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
PLAN_SEED = 2032021707


def T(h, m, s=0, ms=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, milliseconds=ms)


def secs(t):
    return (t - DAY).total_seconds()


# --- the story -------------------------------------------------------------------------
# Vault: the file audit device's volume fills up; every request fails its audit.
VA_NOSPACE_FIRST = T(1, 21, 40, 118)
VA_NOSPACE_LAST = T(1, 37, 49, 305)
VA_NOSPACE = 97
VA_RX_REVOKE = T(1, 24, 8, 503)  # rx-api's database lease reaches its max TTL
VA_AUDIT_FIX = T(1, 37, 52, 640)  # a second audit device on another volume
VA_AUDIT_DISABLE = T(1, 52, 10, 911)
VA_ROLES = [("billing-worker", 41), ("rx-api", 29), ("reporting-ro", 23), ("carousel-sync", 15)]
VA_REVOKE_FAIL = [T(0, 33, 51, 207), T(2, 22, 17, 644), T(3, 4, 40, 90)]  # carousel-sync, retried
VA_REPORTING_LAST = T(3, 17, 44, 318)

# rx-api (gunicorn): every DB call fails from the lease revocation until the new credentials.
ACC_FAIL_FROM = T(1, 24, 11)
ACC_FAIL_UNTIL = T(1, 37, 59)  # exclusive; the last failing second is 01:37:58
ACC_STORM_MIN = T(1, 31)  # the BFF's refill retries pile up in this minute
ACC_STORM = 15
ACC_OTHER_500 = [  # unrelated application bugs, away from the incident
    (T(0, 38, 12, 410), "POST", "/v1/orders", "KeyError"),
    (T(0, 59, 41, 77), "GET", "/v1/rx/RX-4410927", "AttributeError"),
    (T(2, 6, 33, 802), "POST", "/v1/orders", "KeyError"),
    (T(2, 48, 5, 260), "POST", "/v1/rx/RX-5013388/refill", "SerializationFailure"),
    (T(3, 2, 27, 915), "POST", "/v1/formulary/search", "ValueError"),
    (T(3, 14, 50, 333), "GET", "/v1/pharmacies/nearby?zip=97214", "ReadTimeout"),
    (T(3, 26, 19, 648), "POST", "/v1/orders", "KeyError"),
]
ACC_SEARCH_PLATEAU = 0.612417
ACC_REFILL_MAX = 3.874219
BFF_IPS = [("10.42.2.9", 0.37), ("10.42.1.17", 0.33), ("10.42.3.44", 0.30)]

# The dispensing carousel: three safety stops; arm2's lasts 17 minutes.
CR_ESTOPS = [
    (T(0, 47, 12, 930), T(0, 47, 31, 482), "arm1", "A"),
    (T(2, 13, 50, 412), T(2, 30, 41, 77), "arm2", "B"),
    (T(3, 21, 7, 255), T(3, 21, 29, 806), "arm3", "C"),
]
CR_SLOTS = {"arm1": range(101, 121), "arm2": range(121, 141), "arm3": range(141, 161)}
CR_RETRY_TOP = [("S137", 23), ("S112", 19), ("S148", 16), ("S121", 14), ("S155", 12), ("S103", 10)]
CR_ARM1_MEAN, CR_ARM1_P95 = 2593, 4126
CR_ARM2_MEAN = 2468
CR_MAX = 14872  # arm3

# gunicorn worker timeouts while arm2 is stopped (timeout 30 s; the BFF gives up at 25 s).
WT_PER_MIN = {14: 3, 15: 4, 16: 5, 17: 5, 18: 6, 19: 9, 20: 6, 21: 5, 22: 4, 23: 4, 24: 4, 25: 4,
              26: 3, 27: 3, 28: 3, 29: 3, 30: 2}
WT_FIRST, WT_LAST = T(2, 14, 22), T(2, 30, 17)
ERR_AUTORESTART = [T(0, 52, 31), T(2, 41, 9), T(3, 11, 48)]

# storefront-bff (pino)
BFF_PODS = [("storefront-bff-7c9d5f8b6-hx2lq", 0.42), ("storefront-bff-7c9d5f8b6-p4w9z", 0.33),
            ("storefront-bff-7c9d5f8b6-zr8kt", 0.25)]
BFF_FAIL_FROM = T(1, 24, 11, 734)
BFF_FAIL_UNTIL = T(1, 37, 58, 900)
BFF_KC_FROM = T(3, 5, 10, 20)
BFF_KC_UNTIL = T(3, 9, 38, 500)
BFF_STORM = 14
BFF_SEARCH_504 = [T(0, 35, 50, 611), T(0, 44, 21, 90), T(1, 8, 37, 402), T(1, 49, 2, 817), T(1, 58, 15, 230),
                  T(2, 48, 33, 705), T(2, 53, 10, 64), T(3, 1, 45, 519), T(3, 12, 20, 377), T(3, 16, 58, 948),
                  T(3, 27, 41, 126)]
BFF_SEARCH_502 = [T(0, 41, 17, 263), T(0, 58, 3, 941), T(1, 52, 44, 508), T(2, 2, 39, 172), T(2, 57, 12, 806),
                  T(3, 18, 26, 335)]
BFF_SCRAPER = (T(3, 11, 0), T(3, 17, 59), 64)
BFF_CHECKOUT_MEAN = 734
BFF_NEAR_MEAN, BFF_NEAR_MAX = 212, 4187

# Keycloak
KC_STUFF_IP, KC_STUFF_N, KC_STUFF_USERS = "203.0.113.58", 412, 137
KC_STUFF_FROM, KC_STUFF_TO = T(0, 51, 3, 220), T(0, 57, 44, 610)
KC_BRUTE_IP = "198.51.100.201"
KC_BRUTE = [("ops.admin", 34), ("pharm.lead", 29), ("svc-backoffice", 25), ("it.helpdesk", 21),
            ("r.castellanos", 18), ("m.okonkwo", 15), ("dispense.sup", 13), ("qa.tester", 11),
            ("finance.ro", 9), ("t.lindqvist", 8)]
KC_BRUTE_FROM, KC_BRUTE_TO = T(2, 41, 10), T(2, 52, 30)
KC_NORMAL_ERR = 88
KC_DB_DOWN = T(3, 5, 4, 226)
KC_UNCAUGHT = 94
KC_UNCAUGHT_FROM, KC_UNCAUGHT_TO = T(3, 5, 9, 871), T(3, 9, 37, 402)
KC_REALM = "6d0c2b1e-8f3a-4c51-9b7e-2a4f1d9e0c38"


def uid(r):
    h = "".join(r.choice("0123456789abcdef") for _ in range(32))
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{r.choice('89ab')}{h[17:20]}-{h[20:]}"


def alnum(r, n, chars="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"):
    return "".join(r.choice(chars) for _ in range(n))


def rand_time(r, a, b):
    """A random instant in [a, b), to the millisecond."""
    return a + timedelta(milliseconds=r.randrange(int((b - a).total_seconds() * 1000)))


def exact_mean(values, mean, lo, hi, r, fixed=()):
    """Nudges the values (not those at indices in `fixed`) by 1 until their sum is mean * n,
    keeping each within [lo, hi]."""
    free = [i for i in range(len(values)) if i not in set(fixed)]
    diff = mean * len(values) - sum(values)
    step = 1 if diff > 0 else -1
    while diff:
        i = r.choice(free)
        if lo <= values[i] + step <= hi:
            values[i] += step
            diff -= step
    assert sum(values) == mean * len(values)
    return values


# --- the cross-file plan -----------------------------------------------------------------
_PLAN = None


def plan():
    global _PLAN
    if _PLAN is None:
        _PLAN = _make_plan(random.Random(PLAN_SEED))
    return _PLAN


def _make_plan(r):
    p = {}
    # worker timeouts
    wt = []
    for minute, k in WT_PER_MIN.items():
        if minute == 14:
            chosen = [22] + r.sample(range(23, 60), k - 1)
        elif minute == 30:
            chosen = r.sample(range(0, 17), k - 1) + [17]
        else:
            chosen = r.sample(range(60), k)
        wt += [T(2, minute, s) for s in sorted(chosen)]
    assert len(wt) == sum(WT_PER_MIN.values()) and wt[0] == WT_FIRST and wt[-1] == WT_LAST
    p["wt"] = wt
    p["orders"] = [f"ORD-{n}" for n in r.sample(range(7100000, 7999999), 9000)]
    p["rx"] = [f"RX-{n}" for n in r.sample(range(4000000, 5999999), 2600)]
    p["acc"] = _acc_requests(r, p)
    return p


ZIPS = ["97201", "97205", "97209", "97211", "97214", "97217", "97219", "97222", "97225", "97229", "97230", "97233",
        "97236", "97239", "98660", "98661", "98664", "98682", "97005", "97006", "97007", "97008", "97015", "97027",
        "97030", "97035", "97045", "97062", "97068", "97070"]
ACC_ENDPOINTS = [("POST", "search", 0.30), ("GET", "nearby", 0.14), ("GET", "rx", 0.25), ("POST", "refill", 0.16),
                 ("POST", "orders", 0.08), ("POST", "dispense", 0.07)]


def _acc_requests(r, p):
    reqs = []
    order_iter = iter(p["orders"][:4500])

    def rx():
        return r.choice(p["rx"])

    def path_of(kind):
        if kind == "search":
            return "/v1/formulary/search"
        if kind == "nearby":
            return f"/v1/pharmacies/nearby?zip={r.choice(ZIPS)}"
        if kind == "rx":
            return f"/v1/rx/{rx()}"
        if kind == "refill":
            return f"/v1/rx/{rx()}/refill"
        if kind == "orders":
            return "/v1/orders"
        return f"/v1/orders/{next(order_iter)}/dispense"

    def add(t, ip, kind, ua, method=None, path=None):
        method = method or dict((k, m) for m, k, _ in ACC_ENDPOINTS).get(kind, "GET")
        reqs.append({"t": t, "ip": ip, "kind": kind, "method": method, "path": path or path_of(kind), "ua": ua})

    bff_ua = "storefront-bff/4.12.0 (+undici)"
    # kubelet readiness probe, every 10 s
    for k in range(3 * 3600 // 10):
        add(START + timedelta(seconds=10 * k, milliseconds=r.randrange(3, 40)), "10.42.0.1", "healthz",
            "kube-probe/1.29", "GET", "/healthz")
    # the three BFF pods
    ips, wips = [i for i, _ in BFF_IPS], [w for _, w in BFF_IPS]
    kinds, wk = [k for _, k, _ in ACC_ENDPOINTS], [w for _, _, w in ACC_ENDPOINTS]
    for m in range(180):
        m0 = START + timedelta(minutes=m)
        for _ in range(r.randint(22, 30)):
            t = m0 + timedelta(milliseconds=r.randrange(60000))
            add(t, r.choices(ips, wips)[0], r.choices(kinds, wk)[0], bff_ua)
    # the incident's first and last failing seconds, and the retry storm
    add(T(1, 24, 11, 204), "10.42.1.17", "refill", bff_ua)
    add(T(1, 37, 58, 611), "10.42.3.44", "rx", bff_ua)
    for _ in range(ACC_STORM):
        add(ACC_STORM_MIN + timedelta(milliseconds=r.randrange(60000)), "10.42.2.9", "refill", bff_ua)
    # the reminder cron, on the hour
    for h in (1, 2, 3):
        t = T(h, 0, 5)
        for _ in range(70):
            t += timedelta(milliseconds=r.randrange(900, 2100))
            add(t, "10.42.5.8", "patient", "rx-reminder-cron/2.3.1", "GET", f"/v1/patients/P-{r.randrange(100000, 999999)}/rx")
    # an admin script, some calls with an expired token
    for i in range(45):
        t = rand_time(r, START, END)
        while ACC_FAIL_FROM - timedelta(minutes=6) <= t < ACC_FAIL_UNTIL + timedelta(minutes=6):
            t = rand_time(r, START, END)
        add(t, "10.42.7.23", "admin401" if i % 4 == 1 else "rx", "python-requests/2.31.0", "GET", f"/v1/rx/{rx()}")
    # unrelated 500s
    for t, method, path, exc in ACC_OTHER_500:
        reqs.append({"t": t, "ip": r.choice(ips), "kind": "bug", "method": method, "path": path, "ua": bff_ua, "exc": exc})

    reqs.sort(key=lambda q: q["t"])
    fail = lambda t: ACC_FAIL_FROM <= t < ACC_FAIL_UNTIL  # noqa: E731
    for q in reqs:
        k, t = q["kind"], q["t"]
        if k == "healthz":
            q["status"], q["size"], q["dur"] = (503, 32, r.uniform(0.0021, 0.0049)) if fail(t) else (200, 15, r.uniform(0.0008, 0.0019))
        elif k == "bug":
            q["status"], q["size"], q["dur"] = 500, 265, r.uniform(0.011, 0.094)
        elif fail(t):
            q["status"], q["size"], q["dur"] = 500, 265, r.uniform(0.004, 0.060)
            q["db_fail"] = True
        elif k == "admin401":
            q["status"], q["size"], q["dur"] = 401, 61, r.uniform(0.002, 0.006)
        elif k == "search":
            q["status"], q["size"], q["dur"] = 200, r.randrange(1800, 9600), r.uniform(0.030, 0.480)
        elif k == "nearby":
            q["status"], q["size"], q["dur"] = 200, r.randrange(700, 3200), r.uniform(0.015, 0.120)
        elif k == "rx":
            q["status"], q["size"], q["dur"] = (404, 207, r.uniform(0.004, 0.015)) if r.random() < 0.03 else \
                (200, r.randrange(620, 1400), r.uniform(0.008, 0.060))
        elif k == "refill":
            q["status"], q["size"], q["dur"] = (409, 109, r.uniform(0.010, 0.040)) if r.random() < 0.05 else \
                (202, r.randrange(62, 80), r.uniform(0.030, 0.400))
        elif k == "orders":
            q["status"], q["size"], q["dur"] = (422, 133, r.uniform(0.006, 0.020)) if r.random() < 0.02 else \
                (201, r.randrange(140, 190), r.uniform(0.050, 0.300))
        elif k == "dispense":
            q["status"], q["size"], q["dur"] = 200, r.randrange(96, 131), r.uniform(1.40, 6.00)
        elif k == "patient":
            q["status"], q["size"], q["dur"] = 200, r.randrange(640, 4100), r.uniform(0.012, 0.090)
        q["dur"] = round(q["dur"], 6)
        assert not 400 <= q["size"] < 600
    # the formulary search p95 plateau: K slow ones above 40+ identical ones
    ok = [q for q in reqs if q["kind"] == "search" and q["status"] == 200]
    r.shuffle(ok)
    n_k, n_p = 40, 70
    for q in ok[:n_k]:
        q["dur"] = round(r.uniform(0.700, 2.900), 6)
    for q in ok[n_k:n_k + n_p]:
        q["dur"] = ACC_SEARCH_PLATEAU
    # the slowest refill
    refills = [q for q in reqs if q["kind"] == "refill" and q["status"] == 202]
    for q in refills:
        q["dur"] = round(min(q["dur"], 1.399), 6)
    r.choice(refills)["dur"] = ACC_REFILL_MAX
    return reqs


# --- rx-api gunicorn access log ----------------------------------------------------------
def gunicorn_access_log(rng):
    """access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(L)s'"""
    out = []
    for q in plan()["acc"]:
        t = q["t"]
        stamp = f"{t.day:02d}/{MON[t.month - 1]}/{t.year}:{t:%H:%M:%S} +0000"
        out.append(f'{q["ip"]} - - [{stamp}] "{q["method"]} {q["path"]} HTTP/1.1" {q["status"]} {q["size"]} "-" '
                   f'"{q["ua"]}" {q["dur"]:.6f}')
    return "\n".join(out) + "\n"


# --- rx-api gunicorn error log (gunicorn + Flask through the gunicorn.error handlers) -------
SITE = "/usr/local/lib/python3.11/site-packages"
FLASK_FRAMES = [
    (f"{SITE}/flask/app.py", 1473, "wsgi_app", "response = self.full_dispatch_request()", "self.full_dispatch_request()"),
    (f"{SITE}/flask/app.py", 882, "full_dispatch_request", "rv = self.handle_user_exception(e)",
     "self.handle_user_exception(e)"),
    (f"{SITE}/flask/app.py", 880, "full_dispatch_request", "rv = self.dispatch_request()", "self.dispatch_request()"),
    (f"{SITE}/flask/app.py", 865, "dispatch_request",
     "return self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)  # type: ignore[no-any-return]",
     "self.ensure_sync(self.view_functions[rule.endpoint])(**view_args)"),
]
VIEWS = {
    "refill": ("/app/rxapi/views/refills.py", 58, "create_refill"),
    "rx": ("/app/rxapi/views/prescriptions.py", 31, "get_prescription"),
    "admin401": ("/app/rxapi/views/prescriptions.py", 31, "get_prescription"),
    "search": ("/app/rxapi/views/formulary.py", 77, "search"),
    "nearby": ("/app/rxapi/views/pharmacies.py", 22, "nearby"),
    "orders": ("/app/rxapi/views/orders.py", 104, "create_order"),
    "dispense": ("/app/rxapi/views/orders.py", 163, "dispense"),
    "patient": ("/app/rxapi/views/patients.py", 40, "list_rx"),
}
OLD_DB_USER = "v-approle-rx-api-Hq7LmN2cX0pQ9rT4wZ1b-1960583047"


def _frame(path, line, func, code, hl=None):
    """A Python 3.11 traceback frame; `hl` is the expression its carets underline."""
    out = [f'  File "{path}", line {line}, in {func}', f"    {code}"]
    if hl is not None:
        out.append(" " * (4 + code.index(hl)) + "^" * len(hl))
    return out


def _db_traceback(kind):
    path, line, func = VIEWS[kind]
    tb = ["Traceback (most recent call last):"]
    for fr in FLASK_FRAMES:
        tb += _frame(*fr)
    tb += _frame(path, line, func, "with db.connection() as conn:")
    tb += _frame("/usr/local/lib/python3.11/contextlib.py", 137, "__enter__", "return next(self.gen)", "next(self.gen)")
    tb += _frame("/app/rxapi/db.py", 41, "connection", "conn = psycopg2.connect(dsn, connect_timeout=5)",
                 "psycopg2.connect(dsn, connect_timeout=5)")
    tb += _frame(f"{SITE}/psycopg2/__init__.py", 122, "connect",
                 "conn = _connect(dsn, connection_factory=connection_factory, **kwasync)",
                 "_connect(dsn, connection_factory=connection_factory, **kwasync)")
    tb.append('psycopg2.OperationalError: connection to server at "rxdb-primary.kettlebrook.internal" (10.20.4.11), '
              f'port 5432 failed: FATAL:  password authentication failed for user "{OLD_DB_USER}"')
    return tb


def _bug_traceback(exc):
    tb = ["Traceback (most recent call last):"]
    for fr in FLASK_FRAMES:
        tb += _frame(*fr)
    if exc == "KeyError":
        tb += _frame("/app/rxapi/views/orders.py", 97, "create_order", 'ndc = item["ndc_code"]', 'item["ndc_code"]')
        tb.append("KeyError: 'ndc_code'")
    elif exc == "AttributeError":
        tb += _frame("/app/rxapi/views/prescriptions.py", 36, "get_prescription",
                     'npi = rx.prescriber.prescriber_npi', "rx.prescriber.prescriber_npi")
        tb.append("AttributeError: 'NoneType' object has no attribute 'prescriber_npi'")
    elif exc == "SerializationFailure":
        tb += _frame("/app/rxapi/views/refills.py", 71, "create_refill", "cur.execute(CLAIM_REFILL_SQL, (rx_id, now))")
        tb.append("psycopg2.errors.SerializationFailure: could not serialize access due to concurrent update")
    elif exc == "ValueError":
        tb += _frame("/app/rxapi/views/formulary.py", 69, "search", 'limit = int(body.get("limit", 20))', 'int(body.get("limit", 20))')
        tb.append("ValueError: invalid literal for int() with base 10: 'null'")
    else:
        tb += _frame("/app/rxapi/views/pharmacies.py", 18, "nearby", "loc = geo.lookup_zip(zip_code)", "geo.lookup_zip(zip_code)")
        tb += _frame("/app/rxapi/geo.py", 29, "lookup_zip", "resp = session.get(url, timeout=3)", "session.get(url, timeout=3)")
        tb.append("requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='geo.kettlebrook.internal', port=443): "
                  "Read timed out. (read timeout=3)")
    return tb


def gunicorn_error_log(rng):
    r = rng
    ev = []  # (t, order, kind, data)
    for q in plan()["acc"]:
        if q["status"] == 500:
            ev.append((q["t"].replace(microsecond=0), 0, "exc", q))
    for t in plan()["wt"]:
        ev.append((t, 1, "wt", None))
    for t in ERR_AUTORESTART:
        ev.append((t, 1, "restart", None))
    for _ in range(28):
        t = rand_time(r, START, END).replace(microsecond=0)
        while ACC_FAIL_FROM - timedelta(minutes=3) <= t < ACC_FAIL_UNTIL + timedelta(minutes=3):
            t = rand_time(r, START, END).replace(microsecond=0)
        ev.append((t, 2, "slow", None))
    ev.sort(key=lambda e: (e[0], e[1]))
    workers = list(range(14, 22))
    next_pid = [96]

    def boot():
        pid = next_pid[0]
        next_pid[0] += r.randint(1, 3)
        return pid

    out = []  # (second, sequence, text): lines stay in time order, an event's lines together

    def line(t, pid, lvl, msg):
        out.append((t, len(out), f"[{t:%Y-%m-%d %H:%M:%S} +0000] [{pid}] [{lvl}] {msg}"))

    def body(tb):
        t0, seq, _ = out[-1]
        out.extend((t0, seq, x) for x in tb)

    for t, _, kind, q in ev:
        if kind == "exc":
            path = q["path"].split("?")[0]
            line(t, r.choice(workers), "ERROR", f"Exception on {path} [{q['method']}]")
            body(_db_traceback(q["kind"]) if q.get("db_fail") else _bug_traceback(q["exc"]))
        elif kind == "wt":
            old = r.choice(workers)
            line(t, 1, "CRITICAL", f"WORKER TIMEOUT (pid:{old})")
            line(t, old, "INFO", f"Worker exiting (pid: {old})")
            t1 = t + timedelta(seconds=1)
            line(t1, 1, "ERROR", f"Worker (pid:{old}) exited with code 1")
            new = boot()
            workers[workers.index(old)] = new
            line(t1, new, "INFO", f"Booting worker with pid: {new}")
        elif kind == "restart":
            old = r.choice(workers)
            line(t, old, "INFO", "Autorestarting worker after current request.")
            line(t, old, "INFO", f"Worker exiting (pid: {old})")
            new = boot()
            workers[workers.index(old)] = new
            line(t + timedelta(seconds=1), new, "INFO", f"Booting worker with pid: {new}")
        else:
            rx = r.choice(plan()["rx"])
            line(t, r.choice(workers), "WARNING",
                 f"slow query refill_eligibility took {r.randrange(1100, 2900)} ms (rx={rx})")
    out.sort(key=lambda x: (x[0], x[1]))
    return "\n".join(text for _, _, text in out) + "\n"


# --- storefront-bff (Node, pino + pino-http) ----------------------------------------------
STACK_500 = ("AxiosError: Request failed with status code 500\n"
             "    at settle (/app/node_modules/axios/dist/node/axios.cjs:1966:12)\n"
             "    at IncomingMessage.handleStreamEnd (/app/node_modules/axios/dist/node/axios.cjs:3065:11)\n"
             "    at IncomingMessage.emit (node:events:531:35)\n"
             "    at endReadableNT (node:internal/streams/readable:1696:12)\n"
             "    at process.processTicksAndRejections (node:internal/process/task_queues:82:21)\n"
             "    at async Axios.request (/app/node_modules/axios/dist/node/axios.cjs:4224:14)\n"
             "    at async RxClient.call (/app/dist/upstream/rx-client.js:48:24)")
STACK_TIMEOUT = ("TimeoutError: The operation was aborted due to timeout\n"
                 "    at node:internal/deps/undici/undici:13502:13\n"
                 "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n"
                 "    at async RxClient.call (/app/dist/upstream/rx-client.js:41:19)\n"
                 "    at async dispenseOrder (/app/dist/routes/orders.js:77:18)")
STACK_RESET = ("Error: socket hang up\n"
               "    at connResetException (node:internal/errors:787:14)\n"
               "    at Socket.socketOnEnd (node:_http_client:519:23)\n"
               "    at Socket.emit (node:events:531:35)\n"
               "    at endReadableNT (node:internal/streams/readable:1696:12)\n"
               "    at process.processTicksAndRejections (node:internal/process/task_queues:82:21)")
STACK_SEARCH_TIMEOUT = STACK_TIMEOUT.replace("RxClient.call (/app/dist/upstream/rx-client.js:41:19)",
                                             "SearchClient.query (/app/dist/upstream/search-client.js:33:17)") \
    .replace("dispenseOrder (/app/dist/routes/orders.js:77:18)", "catalogSearch (/app/dist/routes/catalog.js:22:20)")
STACK_KC = STACK_500.replace("RxClient.call (/app/dist/upstream/rx-client.js:48:24)",
                             "introspect (/app/dist/auth/keycloak.js:61:22)")
BFF_ENDPOINTS = [("search", 0.28), ("near", 0.12), ("rx", 0.20), ("refill", 0.14), ("checkout", 0.08),
                 ("dispense", 0.06), ("me", 0.12)]
TERMS = ["amoxicillin", "lisinopril", "metformin", "atorvastatin", "omeprazole", "sertraline", "albuterol",
         "levothyroxine", "ibuprofen", "cetirizine", "insulin%20glargine", "prednisone", "vitamin%20d",
         "losartan", "gabapentin", "fluticasone", "melatonin", "naproxen", "montelukast", "escitalopram"]


def storefront_bff_log(rng):
    r = rng
    pods, wpods = [p for p, _ in BFF_PODS], [w for _, w in BFF_PODS]
    kinds, wk = [k for k, _ in BFF_ENDPOINTS], [w for _, w in BFF_ENDPOINTS]
    customers = [f"cus_{alnum(r, 10, 'ABCDEFGHJKMNPQRSTVWXYZ0123456789')}" for _ in range(1400)]
    cw = [1 / (i + 6) for i in range(len(customers))]
    ingress = ["10.42.0.12", "10.42.0.13", "10.42.0.14"]
    orders = iter(plan()["orders"][4500:])
    reqs = []

    def url_of(kind):
        if kind == "search":
            return f"/api/catalog/search?q={r.choice(TERMS)}"
        if kind == "near":
            return f"/api/pharmacies/near?lat=45.{r.randrange(4800, 5600)}&lng=-122.{r.randrange(5600, 7100)}"
        if kind == "rx":
            return f"/api/rx/{r.choice(plan()['rx'])}"
        if kind == "refill":
            return f"/api/rx/{r.choice(plan()['rx'])}/refill"
        if kind == "checkout":
            return "/api/cart/checkout"
        if kind == "dispense":
            return f"/api/orders/{next(orders)}/dispense"
        return "/api/me"

    method = {"search": "GET", "near": "GET", "rx": "GET", "refill": "POST", "checkout": "POST", "dispense": "POST",
              "me": "GET", "item": "GET"}

    def add(t, kind, **kw):
        pod = r.choices(pods, wpods)[0]
        q = {"t": t, "kind": kind, "pod": kw.pop("pod", None) or pod, "url": kw.pop("url", None) or url_of(kind)}
        q.update(kw)
        reqs.append(q)
        return q

    for m in range(180):
        m0 = START + timedelta(minutes=m)
        for _ in range(r.randint(21, 27)):
            add(m0 + timedelta(milliseconds=r.randrange(60000)), r.choices(kinds, wk)[0])
    add(BFF_FAIL_FROM, "refill")
    add(BFF_FAIL_UNTIL - timedelta(milliseconds=173), "rx")
    for _ in range(BFF_STORM):
        add(ACC_STORM_MIN + timedelta(milliseconds=r.randrange(60000)), "refill")
    for wt in plan()["wt"]:
        add(wt - timedelta(seconds=5) - timedelta(milliseconds=r.randrange(0, 900)), "dispense", stuck=True)
    for i, t in enumerate(BFF_SEARCH_504):
        add(t, "search", search504=True, pod=pods[2] if i == 0 else None)  # the night's first failure
    for t in BFF_SEARCH_502:
        add(t, "search", search502=True)
    a, b, k = BFF_SCRAPER
    for _ in range(k):
        add(rand_time(r, a, b), "item", url=f"/api/catalog/item/SKU-{r.randrange(100000, 999999)}", scraper=True)
    reqs.sort(key=lambda q: q["t"])

    auth_kinds = ("rx", "refill", "checkout", "dispense", "me")
    rx_kinds = ("near", "rx", "refill", "checkout", "dispense")
    for q in reqs:
        k, t = q["kind"], q["t"]
        q["err"] = None
        if k in auth_kinds:
            q["customer"] = r.choices(customers, cw)[0]
        if q.get("stuck"):
            q["status"], q["rt"], q["err"] = 504, 25000 + r.randrange(0, 13), ("rx-api", "timeout")
        elif q.get("search504"):
            q["status"], q["rt"], q["err"] = 504, 10000 + r.randrange(0, 6), ("search-svc", "timeout")
        elif q.get("search502"):
            q["status"], q["rt"], q["err"] = 502, r.randrange(3, 40), ("search-svc", "reset")
        elif q.get("scraper"):
            q["status"], q["rt"] = 404, r.randrange(2, 9)
        elif k in auth_kinds and BFF_KC_FROM <= t < BFF_KC_UNTIL:
            q["status"], q["rt"], q["err"] = 503, r.randrange(12, 60), ("keycloak", "500")
        elif k in rx_kinds and BFF_FAIL_FROM <= t < BFF_FAIL_UNTIL:
            q["status"], q["rt"], q["err"] = 502, r.randrange(18, 95), ("rx-api", "500")
        elif k in auth_kinds and r.random() < 0.02:
            q["status"], q["rt"] = 401, r.randrange(1, 6)
        elif k == "search":
            q["status"], q["rt"] = 200, r.randrange(40, 420)
        elif k == "near":
            q["status"], q["rt"] = 200, r.randrange(60, 520)
        elif k == "rx":
            q["status"], q["rt"] = (404, r.randrange(15, 40)) if r.random() < 0.03 else (200, r.randrange(20, 140))
        elif k == "refill":
            q["status"], q["rt"] = (409, r.randrange(20, 60)) if r.random() < 0.05 else (202, r.randrange(45, 480))
        elif k == "checkout":
            q["status"], q["rt"] = 201, r.randrange(300, 1400)
        elif k == "dispense":
            q["status"], q["rt"] = 200, r.randrange(1450, 6100)
        elif k == "me":
            q["status"], q["rt"] = 200, r.randrange(8, 70)
    # exact means and the one slow pharmacy lookup
    co = [q for q in reqs if q["kind"] == "checkout"]
    ok_idx = [i for i, q in enumerate(co) if q["status"] == 201]
    vals = [q["rt"] for q in co]
    exact_mean(vals, BFF_CHECKOUT_MEAN, 300, 1400, r, fixed=[i for i in range(len(co)) if i not in set(ok_idx)])
    for q, v in zip(co, vals):
        q["rt"] = v
    near = [q for q in reqs if q["kind"] == "near"]
    ok_near = [i for i, q in enumerate(near) if q["status"] == 200]
    slow = r.choice(ok_near)
    near[slow]["rt"] = BFF_NEAR_MAX
    vals = [q["rt"] for q in near]
    exact_mean(vals, BFF_NEAR_MEAN, 60, 1400, r, fixed=[i for i in range(len(near)) if i not in set(ok_near) or i == slow])
    for q, v in zip(near, vals):
        q["rt"] = v

    out = []
    for q in reqs:
        ms = int(round(secs(q["t"]) * 1000))
        head = f'{{"level":%d,"time":{EPOCH_DAY_MS + ms},"pid":1,"hostname":"{q["pod"]}","reqId":"{alnum(r, 12, "0123456789abcdef")}"'
        if q["err"]:
            up, kind = q["err"]
            stack = {("rx-api", "500"): STACK_500, ("rx-api", "timeout"): STACK_TIMEOUT, ("search-svc", "timeout"): STACK_SEARCH_TIMEOUT,
                     ("search-svc", "reset"): STACK_RESET, ("keycloak", "500"): STACK_KC}[(up, kind)]
            first = stack.split("\n")[0]
            etype, emsg = first.split(": ", 1)
            if kind == "500":
                err = {"type": "AxiosError", "message": emsg, "stack": stack, "code": "ERR_BAD_RESPONSE"}
            elif kind == "timeout":
                err = {"type": "DOMException", "message": emsg, "stack": stack, "name": "TimeoutError", "code": 23}
            else:
                err = {"type": "Error", "message": emsg, "stack": stack, "code": "ECONNRESET"}
            msg = "token introspection failed" if up == "keycloak" else "upstream call failed"
            et = q["t"] - timedelta(milliseconds=r.randrange(1, 4))
            ems = int(round(secs(et) * 1000))
            ehead = head.replace(f'"time":{EPOCH_DAY_MS + ms}', f'"time":{EPOCH_DAY_MS + ems}')
            out.append((ehead % 50) + f',"upstream":"{up}","err":{json.dumps(err, separators=(",", ":"))},"msg":"{msg}"}}')
        lvl = 50 if q["status"] >= 500 else 40 if q["status"] >= 400 else 30
        cust = f',"customerId":"{q["customer"]}"' if "customer" in q else ""
        out.append((head % lvl) + f',"req":{{"method":"{method[q["kind"]]}","url":"{q["url"]}",'
                   f'"remoteAddress":"{r.choice(ingress)}","remotePort":{r.randrange(32768, 60999)}}}{cust},'
                   f'"res":{{"statusCode":{q["status"]}}},"responseTime":{q["rt"]},"msg":"request completed"}}')
    return "\n".join(out) + "\n"


# --- Keycloak 24 (Quarkus console format: %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%c] (%t) %s%e%n) -----
KC_TRACE = """\tat org.hibernate.exception.internal.SQLStateConversionDelegate.convert(SQLStateConversionDelegate.java:100)
\tat org.hibernate.exception.internal.StandardSQLExceptionConverter.convert(StandardSQLExceptionConverter.java:58)
\tat org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:108)
\tat org.hibernate.engine.jdbc.spi.SqlExceptionHelper.convert(SqlExceptionHelper.java:94)
\tat org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:116)
\tat org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.getPhysicalConnection(LogicalConnectionManagedImpl.java:143)
\tat org.hibernate.engine.jdbc.internal.StatementPreparerImpl.connection(StatementPreparerImpl.java:51)
\tat org.hibernate.engine.jdbc.internal.StatementPreparerImpl$5.doPrepare(StatementPreparerImpl.java:150)
\tat org.hibernate.engine.jdbc.internal.StatementPreparerImpl$StatementPreparationTemplate.prepareStatement(StatementPreparerImpl.java:177)
\tat org.hibernate.engine.jdbc.internal.StatementPreparerImpl.prepareQueryStatement(StatementPreparerImpl.java:152)
\tat org.hibernate.sql.exec.internal.JdbcSelectExecutorStandardImpl.executeQuery(JdbcSelectExecutorStandardImpl.java:136)
\tat org.hibernate.query.sqm.internal.ConcreteSqmSelectQueryPlan.performList(ConcreteSqmSelectQueryPlan.java:361)
\tat org.hibernate.query.spi.AbstractSelectionQuery.getSingleResult(AbstractSelectionQuery.java:275)
\tat org.keycloak.models.jpa.JpaRealmProvider.{jpa}
\tat org.keycloak.models.cache.infinispan.RealmCacheSession.{cache}
\tat org.keycloak.services.resources.RealmsResource.{res}
\tat org.jboss.resteasy.reactive.server.handlers.InvocationHandler.handle(InvocationHandler.java:29)
\tat io.quarkus.resteasy.reactive.server.runtime.QuarkusResteasyReactiveRequestContext.invokeHandler(QuarkusResteasyReactiveRequestContext.java:141)
\tat org.jboss.resteasy.reactive.common.core.AbstractResteasyReactiveContext.run(AbstractResteasyReactiveContext.java:147)
\tat io.quarkus.vertx.core.runtime.VertxCoreRecorder$14.runWith(VertxCoreRecorder.java:582)
\tat org.jboss.threads.EnhancedQueueExecutor$Task.run(EnhancedQueueExecutor.java:2513)
\tat org.jboss.threads.EnhancedQueueExecutor$ThreadBody.run(EnhancedQueueExecutor.java:1538)
\tat org.jboss.threads.DelegatingRunnable.run(DelegatingRunnable.java:29)
\tat org.jboss.threads.ThreadLocalResettingRunnable.run(ThreadLocalResettingRunnable.java:29)
\tat io.netty.util.concurrent.FastThreadLocalRunnable.run(FastThreadLocalRunnable.java:30)
\tat java.base/java.lang.Thread.run(Thread.java:840)
Caused by: java.sql.SQLException: Acquisition timeout while waiting for new connection
\tat io.agroal.pool.ConnectionPool.handlerFromSharedCache(ConnectionPool.java:360)
\tat io.agroal.pool.ConnectionPool.getConnection(ConnectionPool.java:293)
\tat io.agroal.pool.DataSource.getConnection(DataSource.java:86)
\tat io.quarkus.hibernate.orm.runtime.customized.QuarkusConnectionProvider.getConnection(QuarkusConnectionProvider.java:23)
\tat org.hibernate.internal.NonContextualJdbcConnectionAccess.obtainConnection(NonContextualJdbcConnectionAccess.java:46)
\tat org.hibernate.resource.jdbc.internal.LogicalConnectionManagedImpl.acquireConnectionIfNeeded(LogicalConnectionManagedImpl.java:113)
\t... 22 more
Caused by: java.util.concurrent.TimeoutException
\tat java.base/java.util.concurrent.FutureTask.get(FutureTask.java:204)
\tat io.agroal.pool.ConnectionPool.handlerFromSharedCache(ConnectionPool.java:330)
\t... 27 more"""
KC_CALLS = [
    ("getRealmByName(JpaRealmProvider.java:170)", "getRealmByName(RealmCacheSession.java:498)",
     "init(RealmsResource.java:186)"),
    ("getRealm(JpaRealmProvider.java:153)", "getRealm(RealmCacheSession.java:461)",
     "getProtocol(RealmsResource.java:142)"),
]


def keycloak_log(rng):
    r = rng
    ev = []  # (t, text)

    def stamp(t):
        return f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}"

    def line(t, lvl, cat, thread, msg):
        ev.append((t, f"{stamp(t)} {lvl:<5} [{cat}] ({thread}) {msg}"))

    def thread():
        return f"executor-thread-{r.randrange(1, 41)}"

    def q(pairs):
        return ", ".join(f'{k}="{v}"' for k, v in pairs)

    first = ["dana", "li", "omar", "grace", "tomas", "priya", "kenji", "sofia", "marcus", "elena", "yusuf", "hannah",
             "diego", "mei", "aaron", "fatima", "lukas", "noor", "jonah", "ines", "samir", "clara", "ravi", "zoe"]
    last = ["whitfield", "chen", "haddad", "okafor", "novak", "raman", "sato", "ferreira", "bell", "petrova", "demir",
            "lowe", "ibarra", "tan", "quist", "nasser", "brandt", "karimi", "pike", "morales", "aziz", "holm", "iyer",
            "vance"]
    domains = ["mailbox.example", "post.example", "inbox.example", "letters.example"]
    seen = set()
    customers = []
    while len(customers) < 320:
        name = f"{r.choice(first)}.{r.choice(last)}{r.choice(['', '', str(r.randrange(1, 99))])}@{r.choice(domains)}"
        if name in seen:
            continue
        seen.add(name)
        ip = f"{r.choice(['192.0.2', '198.51.100', '203.0.113'])}.{r.randrange(2, 254)}"
        if ip in (KC_STUFF_IP, KC_BRUTE_IP):
            continue
        customers.append((name, uid(r), ip))
    redirect = "https://shop.kettlebrook.example/auth/callback"

    # successful logins, code exchanges and refreshes
    for m in range(180):
        m0 = START + timedelta(minutes=m)
        for _ in range(r.randint(1, 3)):
            name, user, ip = r.choice(customers)
            t = m0 + timedelta(milliseconds=r.randrange(59000))
            if KC_DB_DOWN <= t <= KC_UNCAUGHT_TO + timedelta(seconds=5):
                continue
            sess, code = uid(r), uid(r)
            line(t, "INFO", "org.keycloak.events", thread(), q([
                ("type", "LOGIN"), ("realmId", KC_REALM), ("realmName", "kettlebrook"), ("clientId", "storefront"),
                ("userId", user), ("sessionId", sess), ("ipAddress", ip), ("auth_method", "openid-connect"),
                ("auth_type", "code"), ("response_type", "code"), ("redirect_uri", redirect),
                ("consent", "no_consent_required"), ("code_id", code), ("username", name)]))
            t2 = t + timedelta(milliseconds=r.randrange(80, 400))
            if KC_DB_DOWN <= t2 <= KC_UNCAUGHT_TO + timedelta(seconds=5):
                continue
            line(t2, "INFO", "org.keycloak.events", thread(), q([
                ("type", "CODE_TO_TOKEN"), ("realmId", KC_REALM), ("realmName", "kettlebrook"), ("clientId", "storefront"),
                ("userId", user), ("sessionId", sess), ("ipAddress", "10.42.0.13"), ("token_id", uid(r)),
                ("grant_type", "authorization_code"), ("refresh_token_type", "Refresh"), ("scope", "openid profile email"),
                ("refresh_token_id", uid(r)), ("code_id", code), ("client_auth_method", "client-secret")]))
        for _ in range(r.randint(0, 2)):
            name, user, ip = r.choice(customers)
            t = m0 + timedelta(milliseconds=r.randrange(60000))
            if KC_UNCAUGHT_FROM - timedelta(seconds=5) <= t <= KC_UNCAUGHT_TO + timedelta(seconds=5):
                continue
            line(t, "INFO", "org.keycloak.events", thread(), q([
                ("type", "REFRESH_TOKEN"), ("realmId", KC_REALM), ("realmName", "kettlebrook"), ("clientId", "storefront"),
                ("userId", user), ("sessionId", uid(r)), ("ipAddress", "10.42.0.12"), ("token_id", uid(r)),
                ("grant_type", "refresh_token"), ("refresh_token_type", "Refresh"), ("scope", "openid profile email"),
                ("refresh_token_id", uid(r)), ("updated_refresh_token_id", uid(r)), ("client_auth_method", "client-secret")]))

    def login_error(t, ip, name, user, error, client="storefront", uri=redirect):
        line(t, "WARN", "org.keycloak.events", thread(), q([
            ("type", "LOGIN_ERROR"), ("realmId", KC_REALM), ("realmName", "kettlebrook"), ("clientId", client),
            ("userId", user or "null"), ("sessionId", "null"), ("ipAddress", ip), ("error", error),
            ("auth_method", "openid-connect"), ("auth_type", "code"), ("response_type", "code"), ("redirect_uri", uri),
            ("code_id", uid(r)), ("username", name)]))

    # ordinary mistyped passwords, at most two per customer, none near the stuffing window's edges
    per = {}
    for _ in range(KC_NORMAL_ERR):
        name, user, ip = r.choice(customers)
        while per.get(name, 0) >= 2:
            name, user, ip = r.choice(customers)
        per[name] = per.get(name, 0) + 1
        t = rand_time(r, START, END)
        while T(0, 45) <= t < T(1, 5) and not T(0, 50) <= t < T(1, 0):
            t = rand_time(r, START, END)
        login_error(t, ip, name, user, "invalid_user_credentials")
    # credential stuffing from one address
    known = r.sample(customers, 23)
    names = [(c[0], c[1]) for c in known]
    while len(names) < KC_STUFF_USERS:
        nm = f"{r.choice(first)}{r.choice(['.', '_', ''])}{r.choice(last)}{r.randrange(1, 9999)}@{r.choice(domains)}"
        if nm not in seen:
            seen.add(nm)
            names.append((nm, None))
    tries = [1] * KC_STUFF_USERS
    while sum(tries) < KC_STUFF_N:
        i = r.randrange(KC_STUFF_USERS)
        if tries[i] < 5:
            tries[i] += 1
    attempts = [n for n, k in zip(names, tries) for _ in range(k)]
    r.shuffle(attempts)
    span = (KC_STUFF_TO - KC_STUFF_FROM).total_seconds() * 1000
    offs = sorted([0, int(span)] + r.sample(range(1, int(span)), KC_STUFF_N - 2))
    for off, (name, user) in zip(offs, attempts):
        login_error(KC_STUFF_FROM + timedelta(milliseconds=off), KC_STUFF_IP, name, user,
                    "invalid_user_credentials" if user else "user_not_found")
    # a password guesser on the back-office accounts
    staff = [(n, k, uid(r)) for n, k in KC_BRUTE]
    seq = [(n, u) for n, k, u in staff for _ in range(k)]
    r.shuffle(seq)
    span = int((KC_BRUTE_TO - KC_BRUTE_FROM).total_seconds() * 1000)
    offs = sorted(r.sample(range(span), len(seq)))
    done = {}
    for off, (name, user) in zip(offs, seq):
        done[name] = done.get(name, 0) + 1
        err = "user_temporarily_disabled" if name == "ops.admin" and done[name] > 30 else "invalid_user_credentials"
        login_error(KC_BRUTE_FROM + timedelta(milliseconds=off), KC_BRUTE_IP, name, user, err, "backoffice",
                    "https://backoffice.kettlebrook.example/oidc/callback")
    # the database goes away
    line(KC_DB_DOWN, "WARN", "io.agroal.pool", "agroal-11",
         "Datasource '<default>': FATAL: terminating connection due to administrator command")
    t = KC_DB_DOWN + timedelta(seconds=14, milliseconds=310)
    while t < KC_UNCAUGHT_TO:
        line(t, "WARN", "io.agroal.pool", "agroal-11",
             "Datasource '<default>': Connection to kc-db.kettlebrook.internal:5432 refused. Check that the hostname "
             "and port are correct and that the postmaster is accepting TCP/IP connections.")
        t += timedelta(seconds=r.randrange(14, 19), milliseconds=r.randrange(1000))
    span = int((KC_UNCAUGHT_TO - KC_UNCAUGHT_FROM).total_seconds() * 1000)
    offs = sorted([0, span] + r.sample(range(1, span), KC_UNCAUGHT - 2))
    for off in offs:
        jpa, cache, res = r.choice(KC_CALLS)
        trace = KC_TRACE.replace("{jpa}", jpa).replace("{cache}", cache).replace("{res}", res)
        tt = KC_UNCAUGHT_FROM + timedelta(milliseconds=off)
        line(tt, "ERROR", "org.keycloak.services.error.KeycloakErrorHandler", thread(),
             "Uncaught server error: org.hibernate.exception.JDBCConnectionException: Unable to acquire JDBC "
             "Connection [Acquisition timeout while waiting for new connection] [n/a]\n" + trace)
    ev.sort(key=lambda e: e[0])
    return "\n".join(text for _, text in ev) + "\n"


# --- HashiCorp Vault 1.15 server log (hclog) ---------------------------------------------
def vault_log(rng):
    r = rng
    ev = []

    def line(t, lvl, name, msg):
        br = {"INFO": "[INFO] ", "WARN": "[WARN] ", "ERROR": "[ERROR]", "DEBUG": "[DEBUG]"}[lvl]
        ev.append((t, f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z {br} {name}: {msg}"))

    # lease revocations (expiry), one role's planted at the incident's start
    taken = []

    def free_time(a=START, b=END, quiet=(T(1, 20), T(1, 29))):
        while True:
            t = rand_time(r, a, b)
            if all(abs((t - u).total_seconds()) > 20 for u in taken) and not quiet[0] <= t < quiet[1]:
                taken.append(t)
                return t

    taken += [VA_RX_REVOKE, VA_REPORTING_LAST] + VA_REVOKE_FAIL
    for role, k in VA_ROLES:
        times = []
        if role == "rx-api":
            times.append(VA_RX_REVOKE)
        if role == "reporting-ro":
            times.append(VA_REPORTING_LAST)
        while len(times) < k - (len(VA_REVOKE_FAIL) if role == "carousel-sync" else 0):
            times.append(free_time(START, VA_REPORTING_LAST if role == "reporting-ro" else END,
                                   (T(1, 10), T(1, 45)) if role == "rx-api" else (T(1, 20), T(1, 29))))
        if role == "carousel-sync":
            for f in VA_REVOKE_FAIL:
                lid = alnum(r, 24)
                line(f, "ERROR", "expiration", f"failed to revoke lease: lease_id=database/creds/{role}/{lid} "
                     f'error="failed to revoke entry: resp: (*logical.Response)(nil) err: pq: role '
                     f'\\"v-approle-carousel-sync-{alnum(r, 20)}-1960{r.randrange(560000, 585000)}\\" cannot be dropped '
                     f'because some objects depend on it"')
                times.append(f + timedelta(seconds=r.randrange(40, 95), milliseconds=r.randrange(1000)))
                taken.append(times[-1])
        for t in times:
            line(t, "INFO", "expiration", f"revoked lease: lease_id=database/creds/{role}/{alnum(r, 24)}")
    # raft snapshots
    idx = 88231907
    for h in (1, 2, 3):
        t = T(h, 0, 12, r.randrange(1000))
        idx += r.randrange(40000, 52000)
        line(t, "INFO", "storage.raft", f"starting snapshot up to: index={idx}")
        line(t + timedelta(milliseconds=r.randrange(300, 900)), "INFO", "storage.raft", f"snapshot complete up to: index={idx}")
    # the audit device's disk is full: every request fails its audit
    span = int((VA_NOSPACE_LAST - VA_NOSPACE_FIRST).total_seconds() * 1000)
    offs = sorted([0, span] + r.sample(range(1, span), VA_NOSPACE - 2))
    paths = ["database/creds/rx-api"] * 6 + ["auth/approle/login"] * 3 + ["sys/leases/renew"] * 2 + \
        ["database/creds/billing-worker", "secret/data/carousel/controller", "auth/token/lookup-self"]
    for off in offs:
        t = VA_NOSPACE_FIRST + timedelta(milliseconds=off)
        path = r.choice(paths)
        kind = "request"
        line(t, "ERROR", "audit", f'backend failed to log {kind}: backend=file/ error="write /vault/audit/vault_audit.log: '
             f'no space left on device"')
        line(t, "ERROR", "core", f'failed to audit {kind}: path={path} error="1 error occurred:\\n\\t* no audit backend '
             f'succeeded in logging the {kind}\\n\\n"')
    line(VA_AUDIT_FIX, "INFO", "core", "enabled audit backend: path=file-spill/ type=file")
    line(VA_AUDIT_DISABLE, "INFO", "core", "disabled audit backend: path=file/")
    ev.sort(key=lambda e: e[0])
    return "\n".join(text for _, text in ev) + "\n"


# --- the dispensing carousel controller (carouseld, its own layout) ----------------------
def carousel_log(rng):
    r = rng
    ev = []

    def line(t, lvl, unit, msg):
        ev.append((t, f"{t:%d.%m.%Y %H:%M:%S}.{t.microsecond // 1000:03d} [{lvl}] {unit:<7}: {msg}"))

    stops = {arm: [(a, b) for a, b, x, _ in CR_ESTOPS if x == arm] for arm in CR_SLOTS}
    orders = iter(r.sample(range(7100000, 7999999), 6000))
    picks = {}
    for arm in CR_SLOTS:
        times, t = [], START + timedelta(milliseconds=r.randrange(500, 4000))
        while t < END:
            if not any(a - timedelta(seconds=2) <= t <= b + timedelta(seconds=3) for a, b in stops[arm]):
                times.append(t)
            t += timedelta(milliseconds=r.randrange(5200, 11800))
        picks[arm] = times
    # pick durations
    n1 = len(picks["arm1"])
    k_above, k_plateau = 25, int(0.08 * n1)
    v1 = [r.randrange(1300, 3900) for _ in range(n1 - k_above - k_plateau)]
    v1 = exact_mean(v1 + [r.randrange(4500, 7800) for _ in range(k_above)] + [CR_ARM1_P95] * k_plateau,
                    CR_ARM1_MEAN, 1300, 3900, r, fixed=range(n1 - k_above - k_plateau, n1))
    n2 = len(picks["arm2"])
    v2 = exact_mean([r.randrange(1400, 5200) for _ in range(n2)], CR_ARM2_MEAN, 1400, 5200, r)
    n3 = len(picks["arm3"])
    v3 = [r.randrange(1500, 5600) for _ in range(n3 - 6)] + [r.randrange(6200, 8900) for _ in range(5)] + [CR_MAX]
    for vals in (v1, v2, v3):
        r.shuffle(vals)
    for arm, vals in (("arm1", v1), ("arm2", v2), ("arm3", v3)):
        for t, ms in zip(picks[arm], vals):
            slot = f"S{r.choice(list(CR_SLOTS[arm]))}"
            line(t, "I", arm, f"pick done order=ORD-{next(orders)} slot={slot} ms={ms}")
    # pick retries: six planted slots, the rest a few each; most of them after arm2's stop
    arm_of = {f"S{s}": arm for arm, rng_ in CR_SLOTS.items() for s in rng_}
    counts = dict(CR_RETRY_TOP)
    for s in sorted(arm_of):
        if s not in counts:
            counts[s] = r.randrange(0, 7)
    assert max(v for s, v in counts.items() if s not in dict(CR_RETRY_TOP)) < CR_RETRY_TOP[-1][1]
    reasons = ["vacuum_low", "vacuum_low", "vacuum_low", "item_slipped", "barcode_mismatch"]
    for s, k in counts.items():
        for _ in range(k):
            t = rand_time(r, T(2, 31), T(3, 0)) if r.random() < 0.6 else rand_time(r, START, END)
            line(t, "W", arm_of[s], f"pick retry slot={s} attempt={r.choice([2, 2, 2, 3])} reason={r.choice(reasons)}")
    for _ in range(24):
        t = rand_time(r, T(2, 31), T(3, 0)) if r.random() < 0.5 else rand_time(r, START, END)
        line(t, "W", r.choice(list(CR_SLOTS)), f"vacuum low: {r.randrange(38, 54)} kPa (min 55)")
    for _ in range(41):
        s = r.choice(sorted(arm_of))
        line(rand_time(r, START, END), "W", "scan", f"barcode unreadable slot={s}, rescanning")
    for _ in range(6):
        line(rand_time(r, START, END), "E", r.choice(list(CR_SLOTS)), f"gripper fault code=G{r.randrange(10, 19)}, homing")
    # safety stops
    for a, b, arm, zone in CR_ESTOPS:
        line(a, "F", arm, f"E-STOP engaged (light curtain zone {zone} interrupted)")
        line(b, "I", arm, f"safety circuit reset by operator badge=K0{r.randrange(400, 499)}, resuming")
    for wt in plan()["wt"]:
        t = wt - timedelta(seconds=30) + timedelta(milliseconds=r.randrange(100, 900))
        line(t, "W", "ctl", f"arm2 unavailable (safety stop active), order=ORD-{next(orders)} queued")
    # door and inventory chatter
    t = START + timedelta(minutes=7, seconds=13)
    while t < END:
        line(t, "I", "door", f"cabinet {r.randrange(1, 4)} door closed, inventory sync ok ({r.randrange(1180, 1260)} items)")
        t += timedelta(minutes=r.randrange(11, 19), seconds=r.randrange(60))
    ev.sort(key=lambda e: e[0])
    return "\n".join(text for _, text in ev) + "\n"
