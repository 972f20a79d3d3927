"""Writers of the `queries-heldout12` fixtures: one night (2034-03-09, 00:40-04:20 UTC) at
Kestrel Bay Ferries, seen by six logs. A shared plan (`plan()`, seeded by `PLAN_SEED`) holds
every request and booking of the night; each writer renders its own view of it in its
software's native layout. `gen.py` calls each writer with its own `random.Random`.
"""

import json
import random
from datetime import datetime, timedelta

PLAN_SEED = 2034030912
DAY = datetime(2034, 3, 9)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def sec(x):
    return timedelta(seconds=x)


START, END = T(0, 40), T(4, 20)

# --- the planted events
FARES_DOWN = T(1, 7, 10, 204_000)      # fares-engine redeployed on Tomcat: nothing listens
FARES_UP = T(1, 8, 42, 611_000)        # the webapp is started again
BAD_LOAD = T(2, 12, 58, 402_000)       # LOAD MYSQL SERVERS TO RUNTIME: db-a OFFLINE_SOFT in HG 10 too
FIX_LOAD = T(2, 24, 31, 87_000)        # the writer is ONLINE again
AGG_START = T(3, 15, 2, 118_000)       # the fare aggregator starts scraping the timetable
AGG_DENY = T(3, 24, 50, 0)             # RemoteAddrValve deny: the aggregator gets 403
AGG_END = T(3, 33, 17, 0)
CERT_EXPIRY = T(3, 0, 0)               # kiosk-rosslare-02's client certificate expires
VPN_TERM = T(3, 41, 7, 402_119)        # openvpn restarted (a new CRL)
VPN_READY = T(3, 41, 10, 95_300)
NP_DOWN = T(3, 52, 11, 0)              # NorthPay stops answering
NP_UP = T(4, 1, 40, 0)

AGG = "198.51.100.23"
PARTNER = "203.0.113.9"
LB = "10.40.0.2"
PODS = [("10.40.3.11", 0.45), ("10.40.3.12", 0.33), ("10.40.3.13", 0.22)]
EXPIRED_CN = "kiosk-rosslare-02"
FLAKY_CN = "kiosk-dover-07"
ACQUIRERS = [("NorthPay", 0.5), ("Tillwise", 0.3), ("Quayside Pay", 0.2)]
DB_A, DB_B, DB_C = "10.40.1.21", "10.40.1.22", "10.40.1.23"
BI_USER, BI_HOST = "metabase", "10.40.5.20"
MEAN_TICKET_MS = 687                   # ticket-mailer's mean durationMs (an exact integer)

HOUR_RATE = {0: 1.0, 1: 1.35, 2: 1.0, 3: 0.8, 4: 0.7}
PORTS = ["DOV", "CAL", "DUB", "HLY", "RSL", "FIS", "CHB", "RSC"]
KIOSK_SITES = ["dover", "calais", "rosslare", "fishguard", "holyhead", "dublin"]
DOMAINS = [("gmail.com", 0.33), ("outlook.com", 0.21), ("yahoo.co.uk", 0.14), ("icloud.com", 0.09),
           ("btinternet.com", 0.05), ("hotmail.co.uk", 0.04), ("eircom.net", 0.03), ("orange.fr", 0.03),
           ("web.de", 0.02), ("gmx.de", 0.02), ("sky.com", 0.02), ("free.fr", 0.02)]
NAMES = ["murphy", "kelly", "byrne", "walsh", "dubois", "martin", "evans", "jones", "lefevre", "obrien",
         "hughes", "roberts", "schmidt", "bernard", "doyle", "price", "morgan", "lambert", "fitz", "owen"]


def pick(rng, weighted):
    x = rng.random() * sum(w for _, w in weighted)
    for v, w in weighted:
        x -= w
        if x <= 0:
            return v
    return weighted[-1][0]


def poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        rate = per_min * HOUR_RATE[t.hour] / 60
        t += sec(rng.expovariate(rate))
        if t >= b:
            return out
        out.append(t)


def plateau(values, p, lo_frac=0.985, hi_frac=1.015):
    """Make the p-th percentile of `values` (a list, changed in place) sit on a run of equal
    values wide enough that every usual percentile definition picks it."""
    n = len(values)
    order = sorted(range(n), key=lambda i: values[i])
    k = int(p / 100 * n)
    v = values[order[k]]
    width = max(4, n // 200)
    for j in range(max(0, k - width), min(n, k + width + 1)):
        values[order[j]] = v
    return v


def ref(rng):
    return "KB" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))


_PLAN = None


def plan():
    """The night's requests and bookings (all three booking-api pods), shared by every writer."""
    global _PLAN
    if _PLAN is not None:
        return _PLAN
    rng = random.Random(PLAN_SEED)
    P = {}
    publics = [f"{rng.choice(['81.', '86.', '90.', '109.', '176.', '2.', '37.', '82.'])}{rng.randint(1, 254)}."
               f"{rng.randint(1, 254)}.{rng.randint(1, 254)}" for _ in range(420)]
    publics = sorted(set(publics))
    kiosks = []
    for i, site in enumerate(KIOSK_SITES):
        for j in range(1, 12):
            if len(kiosks) < 66:
                kiosks.append((f"kiosk-{site}-{j:02d}", f"10.8.0.{10 + len(kiosks)}",
                               f"{rng.choice(['31.', '46.', '78.', '89.'])}{rng.randint(1, 254)}.{rng.randint(1, 254)}."
                               f"{rng.randint(1, 254)}"))
    P["kiosks"] = kiosks
    P["publics"] = publics

    # booking-api requests of every pod
    reqs = []
    routes = [("GET", "/v1/sailings", 12), ("GET", "/v1/sailings/{id}/availability", 8), ("POST", "/v1/quotes", 6),
              ("POST", "/v1/holds", 4), ("POST", "/v1/bookings", 5), ("GET", "/v1/bookings/{ref}", 3),
              ("GET", "/v1/bookings/{ref}/ticket", 1.5)]
    for pod, share in PODS:
        for method, route, rate in routes:
            for t in poisson(rng, START, END, rate * share / 0.45):
                reqs.append({"pod": pod, "method": method, "route": route, "t": t})
    reqs.sort(key=lambda r: r["t"])
    vpn_gap = (VPN_TERM - sec(0.5), VPN_READY + sec(25))
    for r in reqs:
        kiosk = rng.random() < 0.3 and not (vpn_gap[0] <= r["t"] < vpn_gap[1])
        if kiosk:
            k = pick(rng, [(x, 1 + (i % 5)) for i, x in enumerate(kiosks)])
            r["remote"] = k[1]
        else:
            r["remote"] = rng.choice(publics[:300]) if rng.random() < 0.9 else rng.choice(publics)
        r["status"] = 200
        r["lat"] = None
        r["fate"] = "ok"
        r["req_id"] = "%016x" % rng.getrandbits(64)
        route = r["route"]
        if route == "/v1/sailings":
            r["lat"] = rng.uniform(12, 60)
        elif route.endswith("/availability"):
            r["lat"] = rng.uniform(18, 120)
            if rng.random() < 0.004:
                r["status"], r["fate"] = 500, "avail500"
        elif route == "/v1/bookings/{ref}":
            r["lat"] = rng.uniform(8, 40)
            if rng.random() < 0.05:
                r["status"] = 404
        elif route.endswith("/ticket"):
            r["lat"] = rng.uniform(1800, 3400)
        elif route == "/v1/quotes":
            if FARES_DOWN <= r["t"] < FARES_UP:
                r["status"], r["fate"], r["lat"] = 502, "fares_refused", rng.uniform(1, 4)
            else:
                slow = AGG_START + sec(20) <= r["t"] < AGG_DENY + sec(8)
                r["D"] = rng.randint(1500, 4200) if slow else rng.randint(18, 95)
                r["lat"] = r["D"] + rng.uniform(3, 20)
                r["fate"] = "quote_slow" if r["lat"] > 2000 else "ok"
        elif route == "/v1/holds":
            if BAD_LOAD + sec(1.5) <= r["t"] < FIX_LOAD:
                r["status"], r["fate"], r["lat"] = 503, "db_timeout", 10000 + rng.uniform(1, 9)
            else:
                r["lat"] = rng.uniform(25, 90)
                r["status"] = 201
        elif route == "/v1/bookings":
            r["ref"] = ref(rng)
            r["acq"] = pick(rng, ACQUIRERS)
            r["charge"] = "ch_" + "".join(rng.choice("0123456789abcdefghijklmnopqrstuvwxyz") for _ in range(20))
            base = {"NorthPay": (150, 340), "Tillwise": (170, 380), "Quayside Pay": (700, 1150)}[r["acq"]]
            r["auth_ms"] = rng.randint(*base)
            np_down = r["acq"] == "NorthPay" and NP_DOWN <= r["t"] < NP_UP
            if np_down:
                r["status"], r["fate"] = 502, "np_down"
                r["lat"] = None  # decided by the breaker below
            elif BAD_LOAD + sec(1.5) <= r["t"] < FIX_LOAD:
                r["status"], r["fate"] = 503, "db_timeout"
                r["lat"] = r["auth_ms"] + 10000 + rng.uniform(5, 30)
            else:
                r["status"] = 201
                r["lat"] = r["auth_ms"] + rng.uniform(40, 160)
        r["end"] = r["t"] + sec(r["lat"] / 1000) if r["lat"] is not None else None
    # the breaker: opens at the third NorthPay timeout, trials every 30 s, closes on the first trial after NP_UP
    fails, opened, closes = 0, None, None
    trial = None
    for r in [x for x in reqs if x.get("fate") == "np_down"]:
        if opened is None:
            r["np"] = "timeout"
            r["lat"] = 8000 + rng.uniform(2, 20)
            r["end"] = r["t"] + sec(r["lat"] / 1000)
            fails += 1
            if fails == 3:
                opened = r["end"] + sec(0.004)
                trial = opened + sec(30)
        else:
            r["np"] = "rejected"
            r["lat"] = rng.uniform(3, 9)
            r["end"] = r["t"] + sec(r["lat"] / 1000)
    # a trial after NP_UP closes it
    while trial < NP_UP:
        trial += sec(30)
    closes = trial
    P["np_opened"], P["np_closed"] = opened, closes
    for r in reqs:
        if r.get("fate") == "np_down" and r["t"] >= closes:
            raise AssertionError("NP_UP window too long")
    # make POST /v1/quotes latency_ms p95 and the quote %D p99 robust
    quotes = [r for r in reqs if r["route"] == "/v1/quotes" and r["pod"] == PODS[0][0] and r["status"] == 200]
    lats = [round(r["lat"], 1) for r in quotes]
    P["quote_p95"] = plateau(lats, 95)
    for r, v in zip(quotes, lats):
        r["lat"] = v
        r["end"] = r["t"] + sec(v / 1000)
    allq = [r for r in reqs if "D" in r]
    ds = [r["D"] for r in allq]
    P["quote_D_p99"] = plateau(ds, 99)
    for r, v in zip(allq, ds):
        r["D"] = v
    # authorizations: p90 on a plateau
    auths = [r for r in reqs if r["route"] == "/v1/bookings" and r.get("np") is None]
    ams = [r["auth_ms"] for r in auths]
    P["auth_p90"] = plateau(ams, 90)
    for r, v in zip(auths, ams):
        r["auth_ms"] = v
    for r in reqs:
        if r["lat"] is not None:
            r["lat"] = round(r["lat"], 1)
            r["end"] = r["t"] + sec(r["lat"] / 1000)
    P["reqs"] = reqs
    _PLAN = P
    return P


def iso_ms(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _fields(d):
    """zap's console encoder: the fields as JSON with a space after ':' and ','."""
    return json.dumps(d, ensure_ascii=False, separators=(", ", ": "))


# --- 1. booking-api (Go, zap console encoder: time, level, caller, message, JSON fields)

def booking_api_log(rng):
    P = plan()
    pod = PODS[0][0]
    out = []

    def emit(t, level, caller, msg, fields=None):
        line = f"{iso_ms(t)}\t{level}\t{caller}\t{msg}"
        if fields:
            line += "\t" + _fields(fields)
        out.append((t, line))

    emit(START - sec(3600 * 0) + sec(0.0), "INFO", "cmd/booking-api/main.go:61", "config loaded",
         {"env": "prod", "pod": "booking-api-6d9f8c7b54-xk2lp", "version": "4.18.2"})
    for r in P["reqs"]:
        if r["pod"] != pod:
            continue
        end = r["end"]
        f = {"method": r["method"], "route": r["route"], "status": r["status"], "latency_ms": r["lat"],
             "remote": r["remote"], "req_id": r["req_id"]}
        fate = r["fate"]
        if fate == "fares_refused":
            emit(end, "WARN", "fares/client.go:97", "fares quote failed",
                 {"req_id": r["req_id"], "err": 'Post "http://fares-engine.fares.svc:8080/fares-engine/api/quote": '
                                                "dial tcp 10.40.2.15:8080: connect: connection refused"})
        elif fate == "quote_slow":
            emit(end - sec(0.001), "WARN", "fares/client.go:112", "fares quote slow",
                 {"req_id": r["req_id"], "upstream_ms": r["D"]})
        elif fate == "db_timeout":
            what = "create booking failed" if r["route"] == "/v1/bookings" else "place hold failed"
            ff = {"req_id": r["req_id"]}
            if "ref" in r:
                ff["booking_ref"] = r["ref"]
            ff["err"] = "Error 9001 (HY000): Max connect timeout reached while reaching hostgroup 10 after 10000ms"
            emit(end - sec(0.002), "ERROR", "store/mysql.go:203", what, ff)
            if "ref" in r:
                emit(end - sec(0.001), "INFO", "payments/client.go:141", "authorization voided",
                     {"booking_ref": r["ref"], "charge_id": r["charge"]})
        elif fate == "np_down":
            err = "payments-gw: 504 Gateway Timeout" if r["np"] == "timeout" else "payments-gw: 503 Service Unavailable"
            emit(end - sec(0.001), "ERROR", "payments/client.go:88", "payment failed",
                 {"req_id": r["req_id"], "booking_ref": r["ref"], "acquirer": r["acq"], "err": err})
        elif fate == "avail500":
            emit(end - sec(0.001), "ERROR", "sailings/availability.go:77", "availability lookup failed",
                 {"req_id": r["req_id"], "err": "context deadline exceeded"})
        elif r["route"] == "/v1/bookings" and r["status"] == 201:
            emit(end - sec(0.001), "INFO", "bookings/service.go:154", "booking confirmed",
                 {"booking_ref": r["ref"], "acquirer": r["acq"], "amount_eur": round(rng.uniform(39, 420), 2)})
        lvl = "INFO" if r["status"] < 500 else "WARN"
        emit(end, lvl, "http/middleware.go:64", "request served", f)
    # db pool stats every 30 s
    t = START + sec(17.3)
    while t < END:
        bad = BAD_LOAD <= t < FIX_LOAD + sec(10)
        use = rng.randint(10, 14) if bad else rng.randint(1, 6)
        emit(t, "INFO", "store/pool.go:52", "db pool stats",
             {"open": 16 if bad else 12, "in_use": use, "idle": (16 if bad else 12) - use,
              "wait_count": rng.randint(20, 90) if bad else 0})
        t += sec(30 + rng.uniform(-0.05, 0.05))
    out.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in out)


# --- 2. fares-engine on Tomcat 9: AccessLogValve `%h %l %u %t "%r" %s %b %D` (%D in ms), in completion order

def tomcat_access_log(rng):
    P = plan()
    rows = []  # (end, start, line)

    def add(t, ip, req, status, size, d):
        ts = t.strftime("%d/%b/%Y:%H:%M:%S +0000")
        b = "-" if size == 0 else str(size)
        rows.append((t + sec(d / 1000), f'{ip} - - [{ts}] "{req}" {status} {b} {d}'))

    for r in P["reqs"]:
        if "D" in r:
            add(r["t"] + sec(0.002), r["pod"], "POST /fares-engine/api/quote HTTP/1.1", 200, rng.randint(1100, 1900), r["D"])
    down = (FARES_DOWN, FARES_UP)
    t = START + sec(1.7)
    while t < END:  # the load balancer's health check
        if not (down[0] <= t < down[1]):
            add(t, LB, "GET /fares-engine/status HTTP/1.1", 200, 17, rng.randint(0, 2))
        t += sec(5 + rng.uniform(-0.01, 0.01))
    ports = [f"{a}-{b}" for a in PORTS for b in PORTS if a != b]
    for t in poisson(rng, START, END, 2.6):  # the partner's timetable sync
        if down[0] <= t < down[1]:
            continue
        if rng.random() < 0.06:
            add(t, PARTNER, f"GET /fares-engine/api/v1/timetable?route={rng.choice(ports)} HTTP/1.1", 404, 0, rng.randint(0, 3))
        else:
            add(t, PARTNER, f"GET /fares-engine/api/timetable?route={rng.choice(ports)}&date=2034-03-1{rng.randint(0, 9)} "
                            "HTTP/1.1", 200, rng.randint(9000, 26000), rng.randint(30, 140))
    for t in poisson(rng, START, END, 0.9):
        if down[0] <= t < down[1]:
            continue
        add(t, rng.choice(P["publics"]), "GET /fares-engine/api/routes HTTP/1.1", 200, rng.randint(3800, 4100), rng.randint(4, 20))
    # scanners
    for path, n in (("/manager/html", 190), ("/.env", 121), ("/wp-login.php", 64), ("/actuator/health", 20)):
        for _ in range(n):
            t = START + sec(rng.uniform(0, (END - START).total_seconds()))
            if down[0] <= t < down[1]:
                continue
            add(t, rng.choice(["45.155.205.", "185.220.101.", "92.118.39."]) + str(rng.randint(2, 250)),
                f"GET {path} HTTP/1.1", 404, 0, rng.randint(0, 2))
    # the aggregator
    t = AGG_START
    while t < AGG_END:
        route = rng.choice(ports)
        if t < AGG_DENY:
            slow = t > AGG_START + sec(20)
            add(t, AGG, f"GET /fares-engine/api/timetable?route={route}&date=2034-03-{rng.randint(10, 30)} HTTP/1.1", 200,
                rng.randint(9000, 26000), rng.randint(900, 3900) if slow else rng.randint(40, 160))
            burst = T(3, 21) <= t < T(3, 22)
            t += sec(rng.uniform(0.06, 0.12) if burst else rng.uniform(0.12, 0.3))
        else:
            add(t, AGG, f"GET /fares-engine/api/timetable?route={route}&date=2034-03-{rng.randint(10, 30)} HTTP/1.1", 403, 0,
                rng.randint(0, 1))
            t += sec(rng.uniform(0.6, 1.6))
    # one very slow quote (a cold JIT after the redeploy)
    add(FARES_UP + sec(3.9), PODS[1][0], "POST /fares-engine/api/quote HTTP/1.1", 200, 1644, 31874)
    rows.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in rows)


# --- 3. payments-gw (.NET, Serilog compact JSON: @t, @mt, @l, @x)

def _clef_t(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{t.microsecond % 7}Z"


def payments_log(rng):
    P = plan()
    out = []
    conn = "0HN2K" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUV0123456789") for _ in range(8))
    nreq = [0]

    def emit(t, mt, level=None, x=None, **props):
        d = {"@t": _clef_t(t), "@mt": mt}
        if level:
            d["@l"] = level
        if x:
            d["@x"] = x
        d.update(props)
        out.append((t, json.dumps(d, ensure_ascii=False, separators=(",", ":"))))

    def http(t, method, path, status, elapsed, ctx="Serilog.AspNetCore.RequestLoggingMiddleware"):
        nreq[0] += 1
        emit(t, "HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {Elapsed:0.0000} ms",
             None if status < 500 else "Error", RequestMethod=method, RequestPath=path, StatusCode=status,
             Elapsed=round(elapsed, 4), SourceContext=ctx, RequestId=f"{conn}:{nreq[0]:08X}")

    emit(START + sec(0.2), "Now listening on: {address}", address="http://[::]:8080",
         SourceContext="Microsoft.Hosting.Lifetime")
    t = START + sec(4.1)
    while t < END:
        http(t, "GET", "/healthz", 200, rng.uniform(0.2, 0.9))
        t += sec(60 + rng.uniform(-0.02, 0.02))
    t = START + sec(300)
    while t < END:
        emit(t, "Refreshed acquirer routing table ({Count} BINs)", Count=rng.randint(48100, 48200),
             SourceContext="Kestrel.Payments.Routing")
        t += sec(900)
    for r in P["reqs"]:
        if r["route"] != "/v1/bookings":
            continue
        t0 = r["t"] + sec(0.01)
        ctx = "Kestrel.Payments.ChargeService"
        if r.get("np") == "timeout":
            te = t0 + sec(8.0)
            emit(te, "Acquirer {Acquirer} did not respond within {TimeoutMs} ms for charge {ChargeId}", "Error",
                 "System.Threading.Tasks.TaskCanceledException: The request was canceled due to the configured "
                 "HttpClient.Timeout of 8 seconds elapsing.\n ---> System.TimeoutException: The operation was canceled.\n"
                 "   at System.Net.Http.HttpClient.HandleFailure(Exception e, Boolean telemetryStarted, "
                 "HttpResponseMessage response, CancellationTokenSource cts, CancellationToken cancellationToken, "
                 "CancellationTokenSource pendingRequestsCts)\n   at Kestrel.Payments.Acquirers.NorthPayClient."
                 "AuthorizeAsync(ChargeRequest request, CancellationToken ct) in /src/Payments/Acquirers/NorthPayClient.cs:line 71",
                 Acquirer=r["acq"], TimeoutMs=8000, ChargeId=r["charge"], SourceContext=ctx)
            http(te + sec(0.001), "POST", "/charges", 504, 8000 + rng.uniform(1, 5))
            continue
        if r.get("np") == "rejected":
            emit(t0 + sec(0.001), "Circuit open for {Acquirer}, rejecting charge {ChargeId}", "Warning",
                 Acquirer=r["acq"], ChargeId=r["charge"], SourceContext=ctx)
            http(t0 + sec(0.002), "POST", "/charges", 503, rng.uniform(0.8, 2.5))
            continue
        ta = t0 + sec(r["auth_ms"] / 1000)
        emit(ta, "Charge {ChargeId} for {BookingRef} authorized by {Acquirer} in {Elapsed} ms", ChargeId=r["charge"],
             BookingRef=r["ref"], Acquirer=r["acq"], Elapsed=r["auth_ms"], SourceContext=ctx)
        http(ta + sec(0.001), "POST", "/charges", 201, r["auth_ms"] + rng.uniform(0.5, 3))
        if r["fate"] == "db_timeout":
            tv = r["end"] + sec(0.02)
            emit(tv, "Voiding authorization {ChargeId} for {BookingRef}: {Reason}", "Warning", ChargeId=r["charge"],
                 BookingRef=r["ref"], Reason="booking not confirmed", SourceContext=ctx)
            http(tv + sec(0.05), "POST", f"/charges/{r['charge']}/void", 200, rng.uniform(90, 300))
        else:
            tc = r["end"] + sec(0.03)
            amt = round(rng.uniform(39, 420), 2)
            emit(tc, "Captured {ChargeId} amount {Amount} {Currency}", ChargeId=r["charge"], Amount=amt, Currency="EUR",
                 SourceContext=ctx)
            http(tc + sec(0.04), "POST", f"/charges/{r['charge']}/capture", 200, rng.uniform(60, 240))
    emit(P["np_opened"], "Circuit breaker for {Acquirer} opened for {BreakDuration}", "Warning", Acquirer="NorthPay",
         BreakDuration="00:00:30", SourceContext="Kestrel.Payments.Resilience")
    emit(P["np_closed"], "Circuit breaker for {Acquirer} closed", Acquirer="NorthPay",
         SourceContext="Kestrel.Payments.Resilience")
    out.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in out)


# --- 4. ProxySQL 2.5 (its own log file)

def _servers_dump(status_a_hg10):
    rows = [(10, DB_A, status_a_hg10, "db-a"), (20, DB_A, "OFFLINE_SOFT", "db-a"), (20, DB_B, "ONLINE", "db-b"),
            (20, DB_C, "ONLINE", "db-c")]
    lines = ["MySQL_HostGroups_Manager.cpp:1530:commit(): [INFO] Dumping mysql_servers_incoming",
             "+--------------+------------+------+-----------+--------------+--------+-------------+"
             "-----------------+---------------------+---------+----------------+---------+",
             "| hostgroup_id | hostname   | port | gtid_port | status       | weight | compression |"
             " max_connections | max_replication_lag | use_ssl | max_latency_ms | comment |",
             "+--------------+------------+------+-----------+--------------+--------+-------------+"
             "-----------------+---------------------+---------+----------------+---------+"]
    for hg, host, st, c in rows:
        lines.append(f"| {hg:<12} | {host:<10} | 3306 | 0         | {st:<12} | 1000   | 0           |"
                     f" 2000            | {30 if hg == 20 else 0:<19} | 0       | 0              | {c:<7} |")
    lines.append(lines[1])
    hid = [f"HID: {hg} , address: {host} , port: 3306 , gtid_port: 0 , weight: 1000 , status: {st} , "
           f"max_connections: 2000 , max_replication_lag: {30 if hg == 20 else 0} , use_ssl: 0 , max_latency_ms: 0 , "
           f"comment: {c}" for hg, host, st, c in rows]
    return lines, hid


def proxysql_log(rng):
    P = plan()
    out = []

    def emit(t, src, level, msg):
        out.append((t, f"{t.strftime('%Y-%m-%d %H:%M:%S')} {src}: [{level}] {msg}"))

    def load(t, st):
        emit(t, "ProxySQL_Admin.cpp:4025:admin_handler_command_load_or_save()", "INFO",
             "Received LOAD MYSQL SERVERS TO RUNTIME command")
        tab, hid = _servers_dump(st)
        first, rest = tab[0].split(": [INFO] ")
        out.append((t + sec(0.001), f"{t.strftime('%Y-%m-%d %H:%M:%S')} {first}: [INFO] {rest}"))
        for i, x in enumerate(tab[1:]):
            out.append((t + sec(0.002 + i * 1e-5), x))
        emit(t + sec(0.003), "MySQL_HostGroups_Manager.cpp:1803:commit()", "INFO",
             "Dumping current MySQL Servers structures for hostgroup ALL")
        for i, h in enumerate(hid):
            emit(t + sec(0.004 + i * 1e-5), "MySQL_HostGroups_Manager.cpp:1805:commit()", "INFO", h)

    # the maintenance: db-a out of the readers at 01:30 (correct), the bad reload, the fix
    load(T(1, 30, 12, 330_000), "ONLINE")
    load(BAD_LOAD, "OFFLINE_SOFT")
    load(FIX_LOAD, "ONLINE")
    # the BI tool with a stale password
    t = START + sec(rng.uniform(1, 9))
    while t < END:
        emit(t, "MySQL_Session.cpp:7412:handler___status_CONNECTING_CLIENT___STATE_SERVER_HANDSHAKE()", "ERROR",
             f"ProxySQL Error: Access denied for user '{BI_USER}'@'{BI_HOST}' (using password: YES)")
        t += sec(rng.uniform(8, 15))
    # replica lag on db-c, a few times
    for h, m in ((0, 58), (1, 41), (2, 47), (3, 29), (4, 9)):
        t = T(h, m, rng.randint(0, 59))
        lag = rng.randint(31, 58)
        emit(t, "MySQL_HostGroups_Manager.cpp:2962:replication_lag_action_inner()", "WARNING",
             f"Shunning server {DB_C}:3306 from HG 20 with replication lag of {lag} second, count number: '1'")
        emit(t + sec(rng.randint(40, 150)), "MySQL_HostGroups_Manager.cpp:2941:replication_lag_action_inner()",
             "WARNING", f"Re-enabling server {DB_C}:3306 from HG 20 with replication lag of 0 second")
    for t in poisson(rng, START, END, 0.35):
        emit(t, "MySQL_Thread.cpp:4218:process_all_sessions()", "WARNING",
             f"Closing unhealthy client connection 10.40.3.1{rng.randint(1, 3)}:{rng.randint(32768, 60999)}")
    # every booking or hold of every pod that waited for hostgroup 10
    for r in P["reqs"]:
        if r["fate"] == "db_timeout":
            te = r["end"] - sec(0.004)
            emit(te, "MySQL_Session.cpp:2927:handler_again___status_CONNECTING_SERVER()", "ERROR",
                 "Max connect timeout reached while reaching hostgroup 10 after 10000ms . HG status: "
                 '[{"Bytes_recv":"0","Bytes_sent":"0","ConnERR":"0","ConnFree":"0","ConnOK":"0","ConnUsed":"0",'
                 f'"Latency_us":"{rng.randint(180, 420)}","MaxConnUsed":"0","Queries":"0","Queries_GTID_sync":"0",'
                 f'"hostgroup":"10","srv_host":"{DB_A}","srv_port":"3306","status":"OFFLINE_SOFT"}}]')
    out.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in out)


# --- 5. ticket-mailer (Node, winston JSON: level, message, meta..., timestamp)

def ticket_mailer_log(rng):
    P = plan()
    out = []

    def emit(t, level, message, **meta):
        d = {"level": level, "message": message}
        d.update(meta)
        d["service"] = "ticket-mailer"
        d["timestamp"] = iso_ms(t)
        out.append((t, json.dumps(d, ensure_ascii=False, separators=(",", ":"))))

    confirmed = [r for r in P["reqs"] if r["route"] == "/v1/bookings" and r["status"] == 201]
    durs = [rng.randint(240, 1400) for _ in confirmed]
    # the mean is an exact integer: nudge the first values
    diff = MEAN_TICKET_MS * len(durs) - sum(durs)
    i = 0
    while diff != 0:
        step = max(-200, min(200, diff))
        if 240 <= durs[i] + step <= 1400:
            durs[i] += step
            diff -= step
        i = (i + 1) % len(durs)
    sends = []
    for r, d in zip(confirmed, durs):
        t = r["end"] + sec(rng.uniform(0.4, 3.0))
        dom = pick(rng, DOMAINS)
        to = f"{rng.choice(NAMES)}.{rng.choice(NAMES)}{rng.randint(1, 99)}@{dom}"
        emit(t + sec(d / 1000), "info", "ticket sent", bookingRef=r["ref"], to=to, durationMs=d,
             messageId=f"<{rng.getrandbits(48):012x}@mailer.kestrelbay.example>")
        sends.append(t)
    # no confirmed booking for 300 s: a warning a minute
    times = sorted(r["end"] for r in confirmed)
    for a, b in zip(times, times[1:]):
        w = a + sec(300)
        while w < b:
            emit(w, "warn", "no booking.confirmed events for 300s", lastEventAt=iso_ms(a), consumer="tickets-1")
            w += sec(60)
    t = START + sec(31.5)
    while t < END:
        emit(t, "info", "queue stats", depth=rng.randint(0, 3), consumers=1)
        t += sec(60)
    for _ in range(17):
        t = START + sec(rng.uniform(0, (END - START).total_seconds()))
        emit(t, "warn", "recipient rejected", to=f"{rng.choice(NAMES)}@{pick(rng, DOMAINS)}", code=550,
             response="550 5.1.1 The email account that you tried to reach does not exist")
    out.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in out)


# --- 6. OpenVPN 2.6 server for the terminal kiosks (--log file, `YYYY-MM-DD HH:MM:SS` prefix)

def openvpn_log(rng):
    P = plan()
    out = []
    kiosks = P["kiosks"]

    def emit(t, msg):
        out.append((t, f"{t.strftime('%Y-%m-%d %H:%M:%S')} {msg}"))

    def startup(t):
        for i, m in enumerate([
            "OpenVPN 2.6.9 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]",
            "library versions: OpenSSL 3.0.13 30 Jan 2024, LZO 2.10",
            "DCO version: N/A",
            "net_route_v4_best_gw query: dst 0.0.0.0",
            "net_route_v4_best_gw result: via 172.31.0.1 dev eth0",
            "Diffie-Hellman initialized with 2048 bit key",
            "CRL: loaded 3 CRLs from file /etc/openvpn/server/crl.pem",
            "TUN/TAP device tun0 opened",
            "net_iface_mtu_set: mtu 1500 for tun0",
            "net_iface_up: set tun0 up",
            "net_addr_v4_add: 10.8.0.1/24 dev tun0",
            "UDPv4 link local (bound): [AF_INET][undef]:1194",
            "UDPv4 link remote: [AF_UNSPEC]",
            "MULTI: multi_init called, r=256 v=256",
            "IFCONFIG POOL IPv4: base=10.8.0.2 size=253",
            "IFCONFIG POOL LIST",
            "Initialization Sequence Completed",
        ]):
            emit(t + sec(i * 0.01) if m != "Initialization Sequence Completed" else VPN_READY if t > START else t + sec(0.2), m)

    def connect(t, cn, vip, ip):
        port = rng.randint(30000, 60999)
        a = f"{ip}:{port}"
        sid = f"{rng.getrandbits(32):08x} {rng.getrandbits(32):08x}"
        for m in (f"{a} TLS: Initial packet from [AF_INET]{a}, sid={sid}",
                  f"{a} VERIFY OK: depth=1, CN=Kestrel Bay Kiosk CA",
                  f"{a} VERIFY OK: depth=0, CN={cn}",
                  f"{a} peer info: IV_VER=2.6.8", f"{a} peer info: IV_PLAT=linux",
                  f"{a} Control Channel: TLSv1.3, cipher TLSv1.3 TLS_AES_256_GCM_SHA384, peer certificate: 2048 bits RSA, "
                  "signature: RSA-SHA256",
                  f"{a} [{cn}] Peer Connection Initiated with [AF_INET]{a}",
                  f"{cn}/{a} MULTI_sva: pool returned IPv4={vip}, IPv6=(Not enabled)",
                  f"{cn}/{a} MULTI: Learn: {vip} -> {cn}/{a}",
                  f"{cn}/{a} MULTI: primary virtual IP for {cn}/{a}: {vip}",
                  f"{cn}/{a} Data Channel: cipher 'AES-256-GCM', peer-id: {rng.randint(0, 40)}",
                  f"{cn}/{a} SENT CONTROL [{cn}]: 'PUSH_REPLY,route 10.40.0.0 255.255.0.0,ping 10,ping-restart 60,"
                  f"ifconfig {vip} 255.255.255.0,peer-id 0,cipher AES-256-GCM' (status=1)"):
            emit(t, m)
            t += sec(rng.uniform(0.002, 0.03))
        return a

    def fail_expired(t, ip):
        a = f"{ip}:{rng.randint(30000, 60999)}"
        sid = f"{rng.getrandbits(32):08x} {rng.getrandbits(32):08x}"
        for m in (f"{a} TLS: Initial packet from [AF_INET]{a}, sid={sid}",
                  f"{a} VERIFY OK: depth=1, CN=Kestrel Bay Kiosk CA",
                  f"{a} VERIFY ERROR: depth=0, error=certificate has expired: CN={EXPIRED_CN}, serial=4660",
                  f"{a} OpenSSL: error:0A000086:SSL routines::certificate verify failed:",
                  f"{a} TLS_ERROR: BIO read tls_read_plaintext error",
                  f"{a} TLS Error: TLS object -> incoming plaintext read error",
                  f"{a} TLS Error: TLS handshake failed",
                  f"{a} SIGUSR1[soft,tls-error] received, client-instance restarting"):
            emit(t, m)
            t += sec(rng.uniform(0.001, 0.004))

    startup(START - sec(0))
    sessions = {}
    for i, (cn, vip, ip) in enumerate(kiosks):
        t = START + sec(rng.uniform(1, 40))
        sessions[cn] = (connect(t, cn, vip, ip), t)
    # hourly soft resets for each session; the restart drops everyone
    for cn, vip, ip in kiosks:
        a, t0 = sessions[cn]
        off = rng.uniform(0, 3600)
        if cn == EXPIRED_CN:
            off = (CERT_EXPIRY + sec(3.4) - START).total_seconds() % 3600
        t = START + sec(off)
        restarted = False
        while t < END:
            if not restarted and t >= VPN_TERM:
                restarted = True
                if cn == EXPIRED_CN:
                    break
                tc = VPN_READY + sec(rng.uniform(3.2, 40))
                a = connect(tc, cn, vip, ip)
                t = tc + sec(3600)
                continue
            if cn == EXPIRED_CN and t >= CERT_EXPIRY:
                emit(t, f"{cn}/{a} TLS: soft reset sec=3600/3600 bytes={rng.randint(10**6, 9 * 10**6)}/-1 pkts={rng.randint(5000, 40000)}/0")
                fail_expired(t + sec(0.02), ip)
                break
            emit(t, f"{cn}/{a} TLS: soft reset sec=3600/3600 bytes={rng.randint(10**6, 9 * 10**6)}/-1 pkts={rng.randint(5000, 40000)}/0")
            emit(t + sec(0.03), f"{cn}/{a} VERIFY OK: depth=1, CN=Kestrel Bay Kiosk CA")
            emit(t + sec(0.031), f"{cn}/{a} VERIFY OK: depth=0, CN={cn}")
            emit(t + sec(0.06), f"{cn}/{a} Control Channel: TLSv1.3, cipher TLSv1.3 TLS_AES_256_GCM_SHA384, peer certificate: "
                                "2048 bits RSA, signature: RSA-SHA256")
            t += sec(3600)
    # the expired kiosk keeps trying (connect-retry)
    ip = next(k[2] for k in kiosks if k[0] == EXPIRED_CN)
    t = CERT_EXPIRY + sec(3.4) + sec(rng.uniform(5, 12))
    while t < END:
        if not (VPN_TERM - sec(1) <= t < VPN_READY + sec(1)):
            fail_expired(t, ip)
        t += sec(rng.uniform(9, 16))
    # the flaky kiosk at dover: key negotiation timeouts, then a new session
    cn, vip, ipf = next(k for k in kiosks if k[0] == FLAKY_CN)
    for h, m in ((0, 52), (1, 19), (1, 58), (2, 33), (3, 6), (3, 57), (4, 12)):
        t = T(h, m, rng.randint(0, 59))
        a = sessions[cn][0]
        emit(t, f"{cn}/{a} TLS Error: TLS key negotiation failed to occur within 60 seconds (check your network connectivity)")
        emit(t, f"{cn}/{a} TLS Error: TLS handshake failed")
        emit(t + sec(0.001), f"{cn}/{a} SIGUSR1[soft,tls-error] received, client-instance restarting")
        sessions[cn] = (connect(t + sec(rng.uniform(4, 9)), cn, vip, ipf), t)
    # the restart
    emit(VPN_TERM, "event_wait : Interrupted system call (fd=-1,code=4)")
    emit(VPN_TERM + sec(0.002), "SIGTERM[hard,] received, process exiting")
    startup(VPN_TERM + sec(2.1))
    out.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in out)
