"""Writes the `queries-dev14` fixtures: one night (2036-04-18, 00:30-03:30 UTC) at Saltmarsh
Cinemas, the night tickets for a premiere went on sale. Three logs share one simulation
(`plan()`, seeded by `PLAN_SEED`):

- `seatlock-api.log`: a Go service behind an ALB, built on Gin in release mode; stdout and
  stderr appended to one file. Gin's default logger (`[GIN] 2036/04/18 - 01:12:41 | 500 |
  2.104118ms |      10.20.1.11 | POST     "/v1/showtimes/ST-90417/holds"`, latency as Go's
  `time.Duration` string, truncated to whole seconds over a minute, private errors on the next
  line as `Error #01: ...`), the standard `log` package's lines (`2036/04/18 01:31:09 ...`),
  gin's Recovery output (red ANSI prefix, `[Recovery] ... panic recovered:`, a stack) and one Go
  runtime `fatal error:` goroutine dump without a timestamp.
- `laravel-2036-04-18.log`: the Laravel (Monolog `LineFormatter`) daily log of web node
  `web-1`: `[2036-04-18 01:12:42] production.ERROR: message {json context} `, exceptions as
  `[object] (Class(code: X): message at file:line)` with `[stacktrace]` and real line breaks
  inside the JSON string.
- `lambda-payment-webhook.log`: `aws logs tail /aws/lambda/sm-payment-webhook --format
  detailed` output of a Node.js 20 function (Stripe webhooks): `ISO8601 stream message` with
  `INIT_START`, `START`, runtime lines (`<iso>Z\t<request id>\tINFO\t...`), `Task timed out
  after N seconds`, `END`, `REPORT` (tab-separated `Duration`, `Billed Duration`, `Memory Size`,
  `Max Memory Used`, `Init Duration` on cold starts, `Status`).

Standard library only. Every planted event sits at a chosen second; the truth is parsed back
from the written text by `truth.py`, which does not import this module.
"""

import json
import math
import random
import re
from datetime import datetime, timedelta, timezone

PLAN_SEED = 20360418
DAY = datetime(2036, 4, 18)
START, END = DAY.replace(hour=0, minute=30), DAY.replace(hour=3, minute=30)


def T(h, m, s=0, ms=0):
    return DAY.replace(hour=h, minute=m, second=s) + timedelta(milliseconds=ms)


# --- the cast
SITES = {  # site: (price per seat in pence, weight of checkouts)
    "brighton": (1390, 1.5), "leeds": (1290, 1.3), "bristol": (1350, 1.2), "york": (1190, 0.9),
    "norwich": (1150, 0.85), "exeter": (1240, 0.75), "cardiff": (1210, 1.0), "glasgow": (1310, 1.1),
    "hull": (1090, 0.38),
}
BOOKING_FEE = 95
LEAST_SITE = "hull"
PREMIERES = ["ST-90417", "ST-90418", "ST-90421"]   # the premiere's showings (409s in this order)
PREMIERE_W = [0.6, 0.27, 0.13]
WEB1, WEB2 = "10.20.1.11", "10.20.1.12"
ALB = ["10.20.0.5", "10.20.0.6"]
PROM = "10.20.9.4"
OPS = "10.20.4.20"
BOT, BOT2 = "45.83.64.19", "193.32.162.77"
BOT_FROM, BOT_TO = T(0, 52, 0, 300), T(0, 58, 37, 900)
BOT2_FROM, BOT2_TO = T(2, 40, 5, 100), T(2, 41, 50)
SCALPER_USER = 77341

PRESALE = T(1, 0)
OOM_FROM, OOM_TO = T(1, 12, 41, 802), T(1, 31, 2, 400)   # holds fail: redis maxmemory (noeviction)
OOM_QUIET = (T(1, 25), T(1, 26))                         # keys expired: holds succeed for a minute
OOM_BURST = T(1, 19)
REDIS_OK = T(1, 31, 9, 120)
DEADLOCKS = [T(1, 47, 33, 410), T(1, 48, 2, 90), T(1, 48, 40, 770), T(1, 49, 15, 300), T(1, 49, 58, 20),
             T(1, 50, 31, 640), T(1, 51, 4, 250), T(1, 51, 37, 910), T(1, 52, 8, 130)]
RECON_FROM, RECON_TO = T(2, 4, 12, 330), T(2, 24, 31, 70)
FIRST_BLOCKED = T(2, 5, 3, 211)           # first webhook confirm that waits on the reconcile's locks
BLOCK_UNTIL = T(2, 23, 40)
LOCK_WAIT_S = 50                          # innodb_lock_wait_timeout
LAMBDA_TIMEOUT_MS = 15000
PANIC_AT = T(2, 20, 15, 377)
PANIC_SHOWTIME = "ST-88140"
CRASH_LAST = T(2, 51, 44, 610)            # the last request logged before the fatal error
RESTART = T(2, 51, 47, 205)
LAMBDA_OOM = T(2, 38, 3, 942)             # START of the invocation killed for memory
LAMBDA_OOM_MS = 2841.06
CRITICAL_AT = T(3, 5, 12, 5)
SLOWEST_AT = T(3, 12, 19, 400)
SLOWEST_NS = 64_912_337_118               # printed `1m4s` by gin (truncated over a minute)
SLOWEST_URL = "/v1/reports/occupancy?site=glasgow&date=2036-04-18"
SLOWEST_CHECKOUT = ("SM-5623381", 12906, T(2, 57, 31, 200))
MISMATCH_ORDER = "SM-5571208"
MISMATCH_AT = [T(0, 41, 7, 15), T(0, 47, 52, 300), T(1, 3, 31, 700), T(1, 24, 16, 40), T(1, 49, 40, 880),
               T(2, 21, 55, 510), T(2, 58, 12, 660), T(3, 14, 39, 90), T(3, 27, 3, 470)]

_PLAN = None


def plan():
    global _PLAN
    if _PLAN is None:
        _PLAN = _make_plan(random.Random(PLAN_SEED))
    return _PLAN


def _plateau(objs, key, p, lo_frac, hi_frac, unit=None):
    """Sets the values ranked lo_frac..hi_frac (of `objs` sorted by `key`) to the one at rank p,
    so every percentile definition lands on that value; with `unit` (the last shown decimal in
    the value's own units) that value is moved to a quarter of its unit, off any rounding edge."""
    objs = sorted(objs, key=lambda o: o[key])
    n = len(objs)
    lo, hi = int(lo_frac * n), int(hi_frac * n)
    v = objs[int(p * n)][key]
    if unit:
        v = v - v % unit + max(1, unit // 4) + (unit // 100 if unit >= 100 else 0)
    for o in objs[lo:hi + 1]:
        o[key] = v
    return v


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _uuid(rng):
    return f"{_hex(rng, 8)}-{_hex(rng, 4)}-4{_hex(rng, 3)}-{rng.choice('89ab')}{_hex(rng, 3)}-{_hex(rng, 12)}"


B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _evt(rng):
    return "evt_3P" + "".join(rng.choice(B62) for _ in range(22))


def _ip(rng):
    a = rng.choice([81, 86, 92, 109, 146, 151, 178, 185, 2, 5, 31, 94])
    return f"{a}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def _rand_t(rng, a, b):
    return a + timedelta(microseconds=rng.randint(0, int((b - a).total_seconds() * 1_000_000)))


def _ms(x):
    return timedelta(milliseconds=x)


# ============================================================== the simulation

def _rate(minute):
    """Checkout attempts per minute (both web nodes)."""
    if minute < PRESALE:
        return 8
    m = (minute - PRESALE).total_seconds() / 60
    if m < 30:
        return 300 * math.exp(-m / 1.5) + 14
    return 14 if minute < T(2, 30) else 9


def _make_plan(rng):
    P = {"gin": [], "lv": [], "lam": []}
    G, L = P["gin"], P["lv"]
    custs = sorted({_ip(rng) for _ in range(900)})
    cweights = [rng.uniform(0.3, 2.5) for _ in custs]
    regular = sorted({f"ST-{rng.randint(80000, 89999)}" for _ in range(60)} - {PANIC_SHOWTIME})
    users = sorted({rng.randint(10000, 99999) for _ in range(5000)} - {SCALPER_USER})
    site_names = sorted(SITES)
    site_w = [SITES[s][1] for s in site_names]

    def seats_for(n):
        row = rng.choice("ABCDEFGHJKLMN")
        c = rng.randint(1, 20)
        return [f"{row}{c + i}" for i in range(n)]

    # ---------------- checkout attempts
    attempts = []
    minute = START
    while minute < END:
        k = max(1, round(_rate(minute) * rng.uniform(0.85, 1.15)))
        for _ in range(k):
            attempts.append(dict(t0=minute + timedelta(microseconds=rng.randint(0, 59_999_999))))
        minute += timedelta(minutes=1)
    for _ in range(80):   # one account buying up the premiere
        attempts.append(dict(t0=_rand_t(rng, T(1, 0, 20), T(1, 19)), user=SCALPER_USER, showtime=PREMIERES[0]))
    for _ in range(70):   # everybody retries at 01:19
        attempts.append(dict(t0=OOM_BURST + timedelta(microseconds=rng.randint(0, 59_999_999))))
    attempts.append(dict(t0=OOM_FROM - _ms(2), node=WEB1, showtime=PREMIERES[0], force="first_oom"))
    for a in attempts:
        a["t0"] = _clear(a["t0"])
    attempts.sort(key=lambda a: a["t0"])
    order_no = 5_500_000
    for a in attempts:
        order_no += rng.randint(1, 7)
        a["order"] = f"SM-{order_no}"
        a.setdefault("user", rng.choice(users))
        surge = PRESALE <= a["t0"] < T(1, 20)
        if "showtime" not in a:
            if rng.random() < (0.7 if surge else 0.25):
                a["showtime"] = rng.choices(PREMIERES, PREMIERE_W)[0]
            else:
                a["showtime"] = rng.choice(regular)
        a["site"] = rng.choices(site_names, site_w)[0]
        a["seats"] = rng.choice([1, 2, 2, 2, 3, 4])
        a.setdefault("node", WEB1 if rng.random() < 0.57 else WEB2)
        a["cust"] = rng.choices(custs, cweights)[0]
    # the planted slowest checkout (completed) and the reconcile's first blocked webhook
    for a in attempts:
        a["prem"] = a["showtime"] in PREMIERES

    holds, lam = [], []
    for a in attempts:
        t0 = a["t0"]
        # seat-map views before the hold
        for _ in range(rng.randint(1, 4)):
            at = t0 - timedelta(seconds=rng.uniform(4, 90))
            G.append(dict(t=at, kind="req", method="GET", path=f"/v1/showtimes/{a['showtime']}/seats",
                          q="fresh=1" if rng.random() < 0.2 else "", ip=a["cust"], status=200,
                          ns=_seat_ns(rng)))
        oom = OOM_FROM < t0 <= OOM_TO or a.get("force") == "first_oom"
        if oom:
            st, ns = 500, rng.randint(800_000, 4_000_000)
            th = t0 + timedelta(microseconds=ns // 1000)
            if OOM_QUIET[0] - _ms(5) <= th < OOM_QUIET[1]:
                oom = False   # keys expired: the writes fit for a minute
            elif T(1, 15) <= th < T(1, 15, 1):
                t0 += timedelta(seconds=1, milliseconds=100)
                a["t0"] = t0
        if not oom:
            if a["prem"]:
                pc = 0.5 if PRESALE <= t0 < T(1, 20) else 0.15
            else:
                pc = 0.04
            if a["user"] == SCALPER_USER:
                pc = 0.55
            if rng.random() < pc:
                st, ns = 409, rng.randint(20_000_000, 120_000_000)
            else:
                st, ns = 201, rng.randint(40_000_000, 300_000_000)
        th = t0 + timedelta(microseconds=ns // 1000)
        if a.get("force") == "first_oom":
            th = OOM_FROM
        hold_id = "H-" + _hex(rng, 10)
        g = dict(t=th, kind="req", method="POST", path=f"/v1/showtimes/{a['showtime']}/holds", q="", ip=a["node"],
                 status=st, ns=ns)
        if st == 500:
            g["err"] = "OOM command not allowed when used memory > 'maxmemory'."
        G.append(g)
        holds.append(g)
        a["hold_status"] = st
        node1 = a["node"] == WEB1
        ctx_user = {"userId": a["user"]}
        if node1:
            L.append(dict(t=t0 - _ms(40), level="INFO", msg="Checkout started",
                          ctx={"order": a["order"], "showtime": a["showtime"], "site": a["site"],
                               "seats": a["seats"], **ctx_user}))
        if st == 409 and node1:
            L.append(dict(t=th + _ms(rng.randint(20, 90)), level="WARNING", msg="Seat hold conflict",
                          ctx={"showtime": a["showtime"], "seats": seats_for(a["seats"]), "site": a["site"],
                               **ctx_user}))
        if st == 500 and node1:
            L.append(dict(t=th + _ms(350), level="ERROR", msg="Seat hold failed",
                          ctx={"showtime": a["showtime"], "site": a["site"], **ctx_user, "status": 500},
                          exc="oom"))
        if st != 201:
            continue
        tp = _clear(th + timedelta(seconds=rng.uniform(25, 150)))
        if tp > END - timedelta(seconds=30):
            continue
        if rng.random() < 0.12:
            if node1:
                L.append(dict(t=tp, level="WARNING", msg="Payment declined",
                              ctx={"order": a["order"], "site": a["site"],
                                   "decline_code": rng.choice(["insufficient_funds", "card_declined",
                                                               "expired_card", "incorrect_cvc"])}))
            G.append(dict(t=tp + _ms(rng.randint(150, 400)), kind="req", method="DELETE", path=f"/v1/holds/{hold_id}",
                          q="", ip=a["node"], status=204, ns=rng.randint(1_500_000, 9_000_000)))
            lam.append(dict(t=tp + timedelta(seconds=rng.uniform(0.8, 4)), type="payment_intent.payment_failed",
                            order=a["order"]))
            continue
        dur = rng.randint(140, 980)
        G.append(dict(t=tp + _ms(rng.randint(60, 130)), kind="req", method="POST", path=f"/v1/holds/{hold_id}/confirm",
                      q="", ip=a["node"], status=200, ns=rng.randint(6_000_000, 60_000_000)))
        amount = a["seats"] * (SITES[a["site"]][0] + BOOKING_FEE)
        if node1:
            L.append(dict(t=tp + _ms(dur), level="INFO", msg="Checkout completed", done=True,
                          ctx={"order": a["order"], "site": a["site"], "seats": a["seats"], "amount_pence": amount,
                               "duration_ms": dur}))
        lam.append(dict(t=tp + timedelta(seconds=rng.uniform(0.8, 4)), type="payment_intent.succeeded",
                        order=a["order"], amount=amount))
    # the slowest checkout: planted on web-1
    o, d, at = SLOWEST_CHECKOUT
    L.append(dict(t=at, level="INFO", msg="Checkout completed", done=True,
                  ctx={"order": o, "site": "york", "seats": 4, "amount_pence": 4 * (SITES["york"][0] + BOOKING_FEE),
                       "duration_ms": d}))
    done = [e for e in L if e.get("done") and e["ctx"]["order"] != o]
    P["checkout_p95"] = _plateau([e["ctx"] for e in done], "duration_ms", 0.95, 0.93, 0.97)

    # ---------------- the bots (seat maps of the premiere; a token bucket of 5/s, burst 30)
    for ip, a, b, rate in ((BOT, BOT_FROM, BOT_TO, 9.0), (BOT2, BOT2_FROM, BOT2_TO, 6.0)):
        t, tokens, last = a, 30.0, a
        while t <= b:
            tokens = min(30.0, tokens + 5.0 * (t - last).total_seconds())
            last = t
            ok = tokens >= 1
            if ok:
                tokens -= 1
            G.append(dict(t=t, kind="req", method="GET", path=f"/v1/showtimes/{PREMIERES[0 if ip == BOT else 1]}/seats",
                          q="", ip=ip, status=200 if ok else 429,
                          ns=_seat_ns(rng) if ok else rng.randint(18_000, 95_000)))
            t += timedelta(microseconds=int(1_000_000 / rate * rng.uniform(0.6, 1.4)))
        if ip == BOT:
            P["bot_last"] = last
    # background browsing of seat maps
    minute = START
    while minute < END:
        for _ in range(rng.randint(22, 38)):
            st = rng.choice(PREMIERES) if rng.random() < 0.3 else rng.choice(regular)
            status = 404 if rng.random() < 0.01 else 200
            G.append(dict(t=minute + timedelta(microseconds=rng.randint(0, 59_999_999)), kind="req", method="GET",
                          path=f"/v1/showtimes/{st if status == 200 else 'ST-' + str(rng.randint(10000, 79999))}/seats",
                          q="fresh=1" if rng.random() < 0.15 else "", ip=rng.choices(custs, cweights)[0],
                          status=status, ns=_seat_ns(rng) if status == 200 else rng.randint(300_000, 900_000)))
        minute += timedelta(minutes=1)
    # health checks, metrics scrapes, the ops dashboard's reports
    for i, ip in enumerate(ALB):
        t = START + timedelta(seconds=3 + 7 * i, microseconds=rng.randint(0, 999_999))
        while t < END:
            G.append(dict(t=t, kind="req", method="GET", path="/healthz", q="", ip=ip, status=200,
                          ns=rng.randint(14_000, 61_000)))
            t += timedelta(seconds=15, microseconds=rng.randint(-3000, 3000))
    t = START + timedelta(seconds=11, microseconds=204_000)
    while t < END:
        G.append(dict(t=t, kind="req", method="GET", path="/metrics", q="", ip=PROM, status=200,
                      ns=rng.randint(800_000, 3_200_000)))
        t += timedelta(seconds=30)
    t = START + timedelta(minutes=2, seconds=5)
    while t < END:
        G.append(dict(t=t + timedelta(microseconds=rng.randint(0, 900_000)), kind="req", method="GET",
                      path="/v1/reports/occupancy", q=f"site={rng.choice(site_names)}&date=2036-04-18", ip=OPS,
                      status=200, ns=rng.randint(1_800_000_000, 3_600_000_000)))
        t += timedelta(minutes=5)
    G.append(dict(t=SLOWEST_AT, kind="req", method="GET", path="/v1/reports/occupancy",
                  q="site=glasgow&date=2036-04-18", ip=OPS, status=200, ns=SLOWEST_NS))
    # the panic recovered by gin
    G.append(dict(t=PANIC_AT, kind="panic"))
    G.append(dict(t=PANIC_AT + _ms(1), kind="req", method="GET", path=f"/v1/showtimes/{PANIC_SHOWTIME}/seats", q="",
                  ip=rng.choice(custs), status=500, ns=1_734_211))
    # the crash: nothing is served between the last request and the restart
    G[:] = [g for g in G if not (CRASH_LAST < g["t"] < RESTART + timedelta(seconds=1))]
    G.append(dict(t=CRASH_LAST, kind="req", method="GET", path=f"/v1/showtimes/{PREMIERES[1]}/seats", q="",
                  ip=rng.choice(custs), status=200, ns=9_412_006))
    G.append(dict(t=CRASH_LAST + _ms(2), kind="fatal"))
    G.append(dict(t=RESTART, kind="log", msg="seatlock-api 3.8.1 (go1.22.3) starting, GIN_MODE=release"))
    G.append(dict(t=RESTART + _ms(31), kind="log", msg="redis: connected to 10.20.3.15:6379 db=0 pool_size=64"))
    G.append(dict(t=RESTART + _ms(33), kind="log", msg="listening on :8080"))
    # the std log lines: pool stats and the sweeper every minute, the OOM warnings, the recovery
    t = START + timedelta(seconds=12)
    hits = 1_204_331
    while t < END:
        hits += rng.randint(900, 5000)
        G.append(dict(t=t, kind="log", msg=f"redis: pool hits={hits} misses={rng.randint(0, 9)} timeouts=0 "
                                          f"total={rng.randint(30, 64)} idle={rng.randint(20, 30)} stale=0"))
        G.append(dict(t=t + timedelta(seconds=29), kind="log",
                      msg=f"sweeper: released {rng.randint(0, 14)} expired holds"))
        t += timedelta(minutes=1)
    t = OOM_FROM + timedelta(seconds=9)
    while t < OOM_TO:
        if not (OOM_QUIET[0] <= t < OOM_QUIET[1]):
            G.append(dict(t=t, kind="log", msg="WARNING redis used_memory=6442450944 >= maxmemory=6442450944 "
                                               "(maxmemory-policy noeviction); seat holds are being rejected"))
        t += timedelta(minutes=1)
    G.append(dict(t=REDIS_OK, kind="log", msg="redis writes ok again (used_memory=4.12G maxmemory=8.00G)"))
    P["gin_panic_showtime"] = PANIC_SHOWTIME

    # ---------------- the Laravel log's own lines
    L.append(dict(t=PRESALE, level="INFO", msg="Presale opened",
                  ctx={"event": "EVT-DUNE-MESSIAH-PREMIERE", "showtimes": PREMIERES}))
    for i, at in enumerate(DEADLOCKS):
        L.append(dict(t=at, level="ERROR", exc="deadlock", user=rng.choice(users),
                      sql_id=90417 if i % 3 else 90418, n=rng.choice([2, 2, 3, 4])))
    L.append(dict(t=RECON_FROM, level="INFO", msg="Reconciliation started",
                  ctx={"batch": "RC-20360418-0204", "provider": "stripe", "window": "2036-04-17"}))
    L.append(dict(t=RECON_TO, level="INFO", msg="Reconciliation finished",
                  ctx={"batch": "RC-20360418-0204", "matched": 18207, "mismatched": 3,
                       "duration_ms": int((RECON_TO - RECON_FROM).total_seconds() * 1000)}))
    L.append(dict(t=CRITICAL_AT, level="CRITICAL", msg="Mail queue backlog above threshold",
                  ctx={"queue": "mail", "size": 4180, "threshold": 2000}))

    # ---------------- the webhook lambda's invocations
    for at in MISMATCH_AT:
        lam.append(dict(t=at, type="payment_intent.succeeded", order=MISMATCH_ORDER, amount=4830, mismatch=True))
    lam.append(dict(t=FIRST_BLOCKED, type="payment_intent.succeeded", order="SM-5657702", amount=3390, force_block=True))
    okd = sorted((e for e in lam if e["type"] == "payment_intent.succeeded" and not e.get("mismatch")),
                 key=lambda e: e["t"])
    for e in rng.sample(okd[:len(okd) * 3 // 4], 46):
        lam.append(dict(t=e["t"] + timedelta(minutes=rng.uniform(20, 110)), type="charge.refunded", order=e["order"]))
    for e in rng.sample(okd, 5):
        lam.append(dict(t=e["t"] + timedelta(minutes=rng.uniform(5, 60)), type="charge.dispute.created", order=e["order"]))
    lam.append(dict(t=LAMBDA_OOM, type="charge.refunded", order="SM-5588120", oom=True))
    lam = [e for e in lam if START < e["t"] < END - timedelta(seconds=20)]
    lam.sort(key=lambda e: e["t"])
    for e in lam:
        e["evt"] = _evt(rng)
    # deliveries: blocked confirms time out and are redelivered
    inv = []
    queue = [dict(e) for e in lam]
    queue.sort(key=lambda e: e["t"])
    i = 0
    blocked_orders = {}
    while i < len(queue):
        e = queue[i]
        i += 1
        d = dict(e)
        d["rid"] = _uuid(rng)
        if e.get("oom"):
            d["outcome"], d["dh"] = "oom", int(round(LAMBDA_OOM_MS * 100))
        elif e.get("mismatch"):
            d["outcome"], d["dh"] = "mismatch", rng.randint(2100, 6900)
        elif e["type"] == "payment_intent.succeeded":
            if e["order"] not in blocked_orders:
                blocked_orders[e["order"]] = e.get("force_block") or rng.random() < 0.3
            blocked = (FIRST_BLOCKED <= e["t"] <= BLOCK_UNTIL and blocked_orders[e["order"]])
            if e.get("force_block"):
                blocked = True
            d["node"] = WEB1 if e.get("force_block") or rng.random() < 0.5 else WEB2
            if blocked:
                d["outcome"], d["dh"] = "timeout", LAMBDA_TIMEOUT_MS * 100 + rng.randint(180, 1999)
                n_prev = e.get("attempt", 1)
                if n_prev < 4:
                    r = dict(e)
                    r["attempt"] = n_prev + 1
                    r["t"] = e["t"] + timedelta(seconds=rng.uniform(240, 600) * n_prev)
                    r.pop("force_block", None)
                    if r["t"] < END - timedelta(seconds=20):
                        queue.append(r)
                        queue.sort(key=lambda x: x["t"])
            else:
                d["outcome"], d["dh"] = "ok", rng.randint(110, 700) * 100 + rng.randint(0, 99)
                d["call_ms"] = d["dh"] // 100 - rng.randint(12, 40)
        else:
            d["outcome"], d["dh"] = "ok", rng.randint(60, 480) * 100 + rng.randint(0, 99)
            d["call_ms"] = d["dh"] // 100 - rng.randint(12, 40)
        inv.append(d)
    inv.sort(key=lambda d: d["t"])
    # p90 of Duration on a plateau (normal invocations only sit around the 90th rank)
    P["lambda_p90_dh"] = _plateau(inv, "dh", 0.90, 0.88, 0.92, unit=10)
    for d in inv:
        if d["outcome"] == "ok" and "call_ms" in d:
            d["call_ms"] = min(d["call_ms"], d["dh"] // 100 - 8)
    # Laravel lines for the webhook confirms web-1 served
    for d in inv:
        if d["type"] != "payment_intent.succeeded" or d.get("node") != WEB1:
            continue
        if d["outcome"] == "ok":
            L.append(dict(t=d["t"] + _ms(d["call_ms"]), level="INFO", msg="Payment confirmed",
                          ctx={"order": d["order"], "stripe_event": d["evt"], "source": "webhook"}))
        elif d["outcome"] == "timeout":
            L.append(dict(t=d["t"] + timedelta(seconds=LOCK_WAIT_S, milliseconds=rng.randint(8, 60)), level="ERROR",
                          exc="lockwait", order=d["order"], paid_at=d["t"]))
    # execution environments
    envs = []
    out = []
    for d in inv:
        t = d["t"]
        for env in envs:
            if env["alive"] and env["free"] <= t and (t - env["free"]).total_seconds() > 420:
                env["alive"] = False
        free = [env for env in envs if env["alive"] and env["free"] <= t]
        if free:
            env = max(free, key=lambda x: x["free"])
            d["init_dh"] = None
            start = t
        else:
            env = dict(stream=f"2036/04/18/[$LATEST]{_hex(rng, 32)}", alive=True, free=t, mem=rng.randint(84, 96))
            envs.append(env)
            d["init_dh"] = rng.randint(17000, 46000)
            d["init_t"] = t
            start = t + timedelta(microseconds=d["init_dh"] * 10)
        d["stream"] = env["stream"]
        d["start"] = start
        d["end"] = start + timedelta(microseconds=d["dh"] * 10)
        env["mem"] = min(150, env["mem"] + rng.choice([0, 0, 0, 1]))
        d["mem"] = 512 if d["outcome"] == "oom" else env["mem"] + rng.randint(0, 9)
        env["free"] = d["end"] + _ms(1)
        if d["outcome"] in ("timeout", "oom"):
            env["alive"] = False
        out.append(d)
    # the mean Init Duration off a rounding edge (ms to one place): nudge the last cold start
    colds = [d for d in out if d.get("init_dh") is not None]
    while not _off(sum(d["init_dh"] for d in colds) / len(colds) / 100, 1):
        d = colds[-1]
        d["init_dh"] += 7
        d["start"] += timedelta(microseconds=70)
        d["end"] += timedelta(microseconds=70)
    P["lam"] = out
    P["lam_runtime_arn"] = _hex(rng, 64)
    G[:] = [g for g in G if START <= g["t"] < END]
    L[:] = [e for e in L if START <= e["t"] < END]
    G.sort(key=lambda g: g["t"])
    L.sort(key=lambda e: e["t"])
    # p99 of the seat-map GETs and p50 of the hold POSTs on plateaus
    seat = [g for g in G if g["kind"] == "req" and g["method"] == "GET" and g["path"].endswith("/seats")]
    P["seats_p99_ns"] = _plateau(seat, "ns", 0.99, 0.985, 0.995, unit=100_000)
    P["holds_p50_ns"] = _plateau(holds, "ns", 0.50, 0.47, 0.53, unit=100_000)
    # the reports' mean off rounding edges (in ms to one place, in s to two): nudge one report
    reps = [g for g in G if g["kind"] == "req" and g["path"] == "/v1/reports/occupancy"]
    shown = lambda ns: ns - ns % 1_000_000_000 if ns > 60_000_000_000 else ns  # noqa: E731
    while not (_off(sum(shown(g["ns"]) for g in reps) / len(reps) / 1e6, 1)
               and _off(sum(shown(g["ns"]) for g in reps) / len(reps) / 1e9, 2)):
        reps[3]["ns"] += 7_777_777
    # the mean amount off rounding edges (pence to one place, pounds to two)
    done = [e for e in L if e.get("done")]
    while not (_off(sum(e["ctx"]["amount_pence"] for e in done) / len(done), 1)
               and _off(sum(e["ctx"]["amount_pence"] for e in done) / len(done) / 100, 2)):
        e = done[rng.randrange(len(done) - 1)]
        if e["ctx"]["order"] == SLOWEST_CHECKOUT[0]:
            continue
        e["ctx"]["seats"] = rng.choice([1, 2, 3, 4])
        e["ctx"]["amount_pence"] = e["ctx"]["seats"] * (SITES[e["ctx"]["site"]][0] + BOOKING_FEE)
    return P


def _off(x, places):
    """`x` is not within 0.1 of a unit of the last place from a rounding edge."""
    frac = (x * 10 ** places) % 1
    return 0.1 < frac < 0.4 or 0.6 < frac < 0.9


def _clear(t):
    """Moves a time that falls in seatlock-api's crash gap to just after the restart."""
    if CRASH_LAST - timedelta(seconds=1) <= t <= RESTART + timedelta(milliseconds=1500):
        return t + (RESTART + timedelta(milliseconds=1600) - CRASH_LAST)
    return t


def _seat_ns(rng):
    x = rng.lognormvariate(math.log(14_000_000), 0.75)
    return int(min(max(x, 2_100_000), 240_000_000))


# ============================================================== seatlock-api (gin)

def go_duration(ns):
    """Go's time.Duration.String() for a positive duration."""
    def trim(whole, frac, width):
        f = f"{frac:0{width}d}".rstrip("0")
        return f"{whole}.{f}" if f else f"{whole}"
    if ns < 1000:
        return f"{ns}ns"
    if ns < 1_000_000:
        return trim(ns // 1000, ns % 1000, 3) + "µs"
    if ns < 1_000_000_000:
        return trim(ns // 1_000_000, ns % 1_000_000, 6) + "ms"
    if ns < 60_000_000_000:
        return trim(ns // 1_000_000_000, ns % 1_000_000_000, 9) + "s"
    m, rest = divmod(ns, 60_000_000_000)
    h, m = divmod(m, 60)
    s = trim(rest // 1_000_000_000, rest % 1_000_000_000, 9) + "s"
    return (f"{h}h" if h else "") + f"{m}m" + s


def _gin_line(g):
    ns = g["ns"]
    if ns > 60_000_000_000:
        ns -= ns % 1_000_000_000
    path = g["path"] + ("?" + g["q"] if g["q"] else "")
    line = (f"[GIN] {g['t']:%Y/%m/%d - %H:%M:%S} | {g['status']:3d} | {go_duration(ns):>13} | {g['ip']:>15} |"
            f" {g['method']:<7}  {json.dumps(path)}\n")
    if g.get("err"):
        line += f"Error #01: {g['err']}\n"
    return line


PANIC_STACK = """/src/internal/api/seats.go:88 (0x9c1f2a)
\t(*Server).seatMap: row := layout.Rows[sel.Row]
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174 (0x8f6b21)
\t(*Context).Next: c.handlers[c.index](c)
/src/internal/api/middleware.go:52 (0x9b8e44)
\tRateLimit.func1: c.Next()
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174 (0x8f6b21)
\t(*Context).Next: c.handlers[c.index](c)
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/recovery.go:102 (0x8f6b0c)
\tCustomRecoveryWithWriter.func1: c.Next()
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174 (0x8f6b21)
\t(*Context).Next: c.handlers[c.index](c)
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/logger.go:240 (0x8f5d2a)
\tLoggerWithConfig.func1: c.Next()
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174 (0x8f6b21)
\t(*Context).Next: c.handlers[c.index](c)
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/gin.go:620 (0x8f5016)
\t(*Engine).handleHTTPRequest: c.Next()
/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/gin.go:576 (0x8f4bdc)
\t(*Engine).ServeHTTP: engine.handleHTTPRequest(c)
/usr/local/go/src/net/http/server.go:3137 (0x6a91ad)
\tserverHandler.ServeHTTP: handler.ServeHTTP(rw, req)
/usr/local/go/src/net/http/server.go:2039 (0x6a3c2e)
\t(*conn).serve: serverHandler{c.server}.ServeHTTP(w, w.req)
/usr/local/go/src/runtime/asm_amd64.s:1695 (0x46c0e1)
\tgoexit: BYTE\t$0x90\t// NOP
"""

FATAL = """fatal error: concurrent map writes

goroutine 91422 [running]:
github.com/saltmarsh/seatlock/internal/holds.(*Index).Add(...)
\t/src/internal/holds/index.go:41
github.com/saltmarsh/seatlock/internal/api.(*Server).createHold(0xc0001c6000, 0xc00b41e300)
\t/src/internal/api/holds.go:97 +0x2f1
github.com/gin-gonic/gin.(*Context).Next(...)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174
github.com/saltmarsh/seatlock/internal/api.RateLimit.func1(0xc00b41e300)
\t/src/internal/api/middleware.go:52 +0x1b4
github.com/gin-gonic/gin.(*Context).Next(...)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:174
github.com/gin-gonic/gin.CustomRecoveryWithWriter.func1(0xc00b41e300)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/recovery.go:102 +0x7a
github.com/gin-gonic/gin.(*Engine).handleHTTPRequest(0xc0001e41a0, 0xc00b41e300)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/gin.go:620 +0x66e
github.com/gin-gonic/gin.(*Engine).ServeHTTP(0xc0001e41a0, {0xb6f1c0, 0xc00a8d41c0}, 0xc00b4c2a00)
\t/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/gin.go:576 +0x1b2
net/http.serverHandler.ServeHTTP({0xc00a2f0c30?}, {0xb6f1c0?, 0xc00a8d41c0?}, 0x6?)
\t/usr/local/go/src/net/http/server.go:3137 +0x8e
net/http.(*conn).serve(0xc00b3e6000, {0xb70a38, 0xc0002a8f90})
\t/usr/local/go/src/net/http/server.go:2039 +0x5e8
created by net/http.(*Server).Serve in goroutine 1
\t/usr/local/go/src/net/http/server.go:3285 +0x4b4

goroutine 1 [IO wait, 141 minutes]:
internal/poll.runtime_pollWait(0x7f3a1c2e5e28, 0x72)
\t/usr/local/go/src/runtime/netpoll.go:345 +0x85
internal/poll.(*pollDesc).wait(0xc000190000?, 0x4?, 0x0)
\t/usr/local/go/src/internal/poll/fd_poll_runtime.go:84 +0x27
net.(*netFD).accept(0xc000190000)
\t/usr/local/go/src/net/fd_unix.go:172 +0x29
net/http.(*Server).Serve(0xc0001f4000, {0xb6fe08, 0xc0000b2040})
\t/usr/local/go/src/net/http/server.go:3255 +0x33e
main.main()
\t/src/cmd/seatlock-api/main.go:88 +0x6a5

goroutine 19 [select]:
github.com/redis/go-redis/v9/internal/pool.(*ConnPool).reaper(0xc0001a6000, 0xdf8475800)
\t/go/pkg/mod/github.com/redis/go-redis/v9@v9.5.1/internal/pool/pool.go:488 +0x11d
created by github.com/redis/go-redis/v9/internal/pool.NewConnPool in goroutine 1
\t/go/pkg/mod/github.com/redis/go-redis/v9@v9.5.1/internal/pool/pool.go:110 +0x2c5

goroutine 91431 [runnable]:
github.com/saltmarsh/seatlock/internal/holds.(*Index).Add(...)
\t/src/internal/holds/index.go:41
github.com/saltmarsh/seatlock/internal/api.(*Server).createHold(0xc0001c6000, 0xc00b5a2100)
\t/src/internal/api/holds.go:97 +0x2f1
created by net/http.(*Server).Serve in goroutine 1
\t/usr/local/go/src/net/http/server.go:3285 +0x4b4
"""


def gin_log():
    out = []
    for g in plan()["gin"]:
        k = g["kind"]
        if k == "req":
            out.append(_gin_line(g))
        elif k == "log":
            out.append(f"{g['t']:%Y/%m/%d %H:%M:%S} {g['msg']}\n")
        elif k == "panic":
            ts = f"{g['t']:%Y/%m/%d %H:%M:%S}"
            gts = f"{g['t']:%Y/%m/%d - %H:%M:%S}"
            out.append(f"\n\n\x1b[31m{ts} [Recovery] {gts} panic recovered:\n"
                       f"runtime error: index out of range [3] with length 3\n{PANIC_STACK}\x1b[0m\n")
        else:
            out.append(FATAL)
    return "".join(out)


# ============================================================== laravel (Monolog LineFormatter)

APP = "/var/www/html"
FW = f"{APP}/vendor/laravel/framework/src/Illuminate"

HTTP_FRAMES = [
    f"{FW}/Http/Client/Response.php(293): Illuminate\\Http\\Client\\Response->toException()",
    f"{APP}/app/Services/SeatLockClient.php(58): Illuminate\\Http\\Client\\Response->throw()",
    f"{APP}/app/Http/Controllers/CheckoutController.php(47): App\\Services\\SeatLockClient->hold()",
    f"{FW}/Routing/Controller.php(54): App\\Http\\Controllers\\CheckoutController->start()",
    f"{FW}/Routing/ControllerDispatcher.php(43): Illuminate\\Routing\\Controller->callAction()",
    f"{FW}/Routing/Route.php(260): Illuminate\\Routing\\ControllerDispatcher->dispatch()",
    f"{FW}/Routing/Route.php(206): Illuminate\\Routing\\Route->runController()",
    f"{FW}/Routing/Router.php(806): Illuminate\\Routing\\Route->run()",
    f"{FW}/Pipeline/Pipeline.php(144): Illuminate\\Routing\\Router->Illuminate\\Routing\\{{closure}}()",
    f"{FW}/Routing/Middleware/SubstituteBindings.php(50): Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{{closure}}()",
    f"{FW}/Pipeline/Pipeline.php(183): Illuminate\\Routing\\Middleware\\SubstituteBindings->handle()",
    f"{FW}/Foundation/Http/Middleware/VerifyCsrfToken.php(78): Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{{closure}}()",
    f"{FW}/Pipeline/Pipeline.php(183): Illuminate\\Foundation\\Http\\Middleware\\VerifyCsrfToken->handle()",
    f"{FW}/Session/Middleware/StartSession.php(121): Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{{closure}}()",
    f"{FW}/Session/Middleware/StartSession.php(64): Illuminate\\Session\\Middleware\\StartSession->handleStatefulRequest()",
    f"{FW}/Pipeline/Pipeline.php(183): Illuminate\\Session\\Middleware\\StartSession->handle()",
    f"{FW}/Pipeline/Pipeline.php(119): Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{{closure}}()",
    f"{FW}/Routing/Router.php(805): Illuminate\\Pipeline\\Pipeline->then()",
    f"{FW}/Routing/Router.php(784): Illuminate\\Routing\\Router->runRouteWithinStack()",
    f"{FW}/Routing/Router.php(748): Illuminate\\Routing\\Router->runRoute()",
    f"{FW}/Routing/Router.php(737): Illuminate\\Routing\\Router->dispatchToRoute()",
    f"{FW}/Foundation/Http/Kernel.php(200): Illuminate\\Routing\\Router->dispatch()",
    f"{FW}/Pipeline/Pipeline.php(144): Illuminate\\Foundation\\Http\\Kernel->Illuminate\\Foundation\\Http\\{{closure}}()",
    f"{FW}/Foundation/Http/Kernel.php(175): Illuminate\\Pipeline\\Pipeline->then()",
    f"{APP}/public/index.php(51): Illuminate\\Foundation\\Http\\Kernel->handle()",
]

DB_FRAMES_HEAD = [
    f"{FW}/Database/Connection.php(783): Illuminate\\Database\\Connection->runQueryCallback()",
    f"{FW}/Database/Connection.php(590): Illuminate\\Database\\Connection->run()",
    f"{FW}/Database/Connection.php(542): Illuminate\\Database\\Connection->affectingStatement()",
    f"{FW}/Database/Query/Builder.php(3507): Illuminate\\Database\\Connection->update()",
    f"{FW}/Database/Eloquent/Builder.php(1017): Illuminate\\Database\\Query\\Builder->update()",
]


def _exc_block(cls, code, msg, at, frames, prev=None):
    s = f"[object] ({cls}(code: {code}): {msg} at {at})\n[stacktrace]\n"
    s += "".join(f"#{i} {f}\n" for i, f in enumerate(frames))
    s += f"#{len(frames)} {{main}}\n"
    if prev:
        pcls, pcode, pmsg, pat, pframes = prev
        s += f"\n[previous exception] [object] ({pcls}(code: {pcode}): {pmsg} at {pat})\n[stacktrace]\n"
        s += "".join(f"#{i} {f}\n" for i, f in enumerate(pframes))
        s += f"#{len(pframes)} {{main}}\n"
    return s


def _php_json(obj):
    """json_encode with Monolog's flags (unescaped slashes and unicode), then LineFormatter's
    allowInlineLineBreaks: `\\n` escapes in the JSON become real line breaks."""
    s = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    return re.sub(r"(?<!\\)\\[rn]", "\n", s)


def _lv_entry(e):
    ts = f"[{e['t']:%Y-%m-%d %H:%M:%S}] production.{e['level']}: "
    exc = e.get("exc")
    if exc == "oom":
        body = '{"error":"OOM command not allowed when used memory > \'maxmemory\'."}'
        msg = f"HTTP request returned status code 500:\n{body}\n"
        ctx = dict(e["ctx"])
        ctx["exception"] = _exc_block("Illuminate\\Http\\Client\\RequestException", 500, msg,
                                      f"{FW}/Http/Client/Response.php:272", HTTP_FRAMES)
        return ts + e["msg"] + " " + _php_json(ctx) + " \n"
    if exc in ("deadlock", "lockwait"):
        if exc == "deadlock":
            at = e["t"]
            sql = (f"update `seat_inventory` set `sold` = `sold` + {e['n']}, `seat_inventory`.`updated_at` = "
                   f"{at:%Y-%m-%d %H:%M:%S} where `showtime_id` = {e['sql_id']} and `tier` = standard")
            pmsg = "SQLSTATE[40001]: Serialization failure: 1213 Deadlock found when trying to get lock; try restarting transaction"
            code, ctx = "40001", {"userId": e["user"]}
            app_frames = [
                f"{APP}/app/Actions/CompleteCheckout.php(71): Illuminate\\Database\\Eloquent\\Builder->update()",
                f"{FW}/Database/Concerns/ManagesTransactions.php(35): App\\Actions\\CompleteCheckout->App\\Actions\\{{closure}}()",
                f"{FW}/Database/DatabaseManager.php(457): Illuminate\\Database\\Connection->transaction()",
                f"{APP}/app/Actions/CompleteCheckout.php(88): Illuminate\\Database\\DatabaseManager->__call()",
                f"{APP}/app/Http/Controllers/CheckoutController.php(96): App\\Actions\\CompleteCheckout->handle()",
            ]
        else:
            sql = (f"update `orders` set `status` = paid, `paid_at` = {e['paid_at']:%Y-%m-%d %H:%M:%S}, "
                   f"`orders`.`updated_at` = {e['paid_at']:%Y-%m-%d %H:%M:%S} where `id` = {e['order'][3:]}")
            pmsg = "SQLSTATE[HY000]: General error: 1205 Lock wait timeout exceeded; try restarting transaction"
            code, ctx = "HY000", {}
            app_frames = [
                f"{APP}/app/Models/Order.php(142): Illuminate\\Database\\Eloquent\\Builder->update()",
                f"{APP}/app/Http/Controllers/Internal/PaymentWebhookController.php(38): App\\Models\\Order->markPaid()",
                f"{FW}/Routing/Controller.php(54): App\\Http\\Controllers\\Internal\\PaymentWebhookController->confirm()",
            ]
        qmsg = f"{pmsg} (Connection: mysql, SQL: {sql})"
        frames = DB_FRAMES_HEAD + app_frames + HTTP_FRAMES[4:]
        pframes = [f"{FW}/Database/Connection.php(597): PDOStatement->execute()",
                   f"{FW}/Database/Connection.php(816): Illuminate\\Database\\Connection->Illuminate\\Database\\{{closure}}()"
                   ] + frames
        ctx["exception"] = _exc_block("Illuminate\\Database\\QueryException", code, qmsg,
                                      f"{FW}/Database/Connection.php:829", frames,
                                      prev=("PDOException", code, pmsg, f"{FW}/Database/Connection.php:597", pframes))
        return ts + qmsg + " " + _php_json(ctx) + " \n"
    ctx = e.get("ctx")
    if ctx:
        return ts + e["msg"] + " " + _php_json(ctx) + " \n"
    return ts + e["msg"] + "  \n"


def laravel_log():
    return "".join(_lv_entry(e) for e in plan()["lv"])


# ============================================================== the webhook lambda (aws logs tail)

LAMBDA_HOST = "https://tickets.saltmarsh-cinemas.co.uk"


def _iso(t):
    """What `aws logs tail` prints: datetime.isoformat() of the event's ms timestamp in UTC."""
    t = t.replace(microsecond=t.microsecond // 1000 * 1000)
    return t.replace(tzinfo=timezone.utc).isoformat()


def _rt(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def _dh(dh):
    return f"{dh // 100}.{dh % 100:02d}"


def lambda_log():
    P = plan()
    ev = []   # (time, seq, stream, message)
    seq = 0

    def emit(t, stream, msg):
        nonlocal seq
        t = t.replace(microsecond=t.microsecond // 1000 * 1000)
        ev.append((t, seq, stream, msg))
        seq += 1

    def rtl(t, rid, level, msg):
        t = t.replace(microsecond=t.microsecond // 1000 * 1000)
        return f"{_rt(t)}\t{rid}\t{level}\t{msg}"

    for d in P["lam"]:
        s, rid, st = d["stream"], d["rid"], d["start"]
        if d.get("init_dh") is not None:
            emit(d["init_t"], s, "INIT_START Runtime Version: nodejs:20.v33\tRuntime Version ARN: "
                                 f"arn:aws:lambda:eu-west-2::runtime:{P['lam_runtime_arn']}")
        emit(st, s, f"START RequestId: {rid} Version: $LATEST")
        t = st + _ms(3)
        emit(t, s, rtl(t, rid, "INFO", f"received {d['evt']} type={d['type']} order={d['order']}"))
        t = st + _ms(5)
        emit(t, s, rtl(t, rid, "INFO", "stripe signature verified"))
        end = d["end"]
        o = d["outcome"]
        if o == "ok":
            if d["type"] in ("payment_intent.succeeded", "payment_intent.payment_failed"):
                what = "confirm" if d["type"] == "payment_intent.succeeded" else "failed"
                t = st + _ms(6 + d["call_ms"])
                emit(t, s, rtl(t, rid, "INFO", f"POST {LAMBDA_HOST}/internal/payments/{what} -> 200 ({d['call_ms']} ms)"))
            elif d["type"] == "charge.refunded":
                t = st + _ms(6 + d["call_ms"])
                emit(t, s, rtl(t, rid, "INFO", f"refund recorded order={d['order']}"))
            else:
                t = st + _ms(6 + d["call_ms"])
                emit(t, s, rtl(t, rid, "WARN", f"dispute opened order={d['order']}; ops notified"))
        elif o == "timeout":
            secs = f"{d['dh'] / 100000:.2f}"
            emit(end, s, f"{_rt(end.replace(microsecond=end.microsecond // 1000 * 1000))} {rid} Task timed out after {secs} seconds")
        elif o == "mismatch":
            t = st + _ms(d["dh"] // 100 - 2)
            err = {"errorType": "AmountMismatchError",
                   "errorMessage": f"amount mismatch for order {d['order']}: intent 4380 != order 4830",
                   "stack": [f"AmountMismatchError: amount mismatch for order {d['order']}: intent 4380 != order 4830",
                             "    at assertAmount (/var/task/handlers/paymentIntent.mjs:27:11)",
                             "    at handlePaymentIntentSucceeded (/var/task/handlers/paymentIntent.mjs:44:3)",
                             "    at async Runtime.handler (/var/task/index.mjs:31:12)"]}
            emit(t, s, rtl(t, rid, "ERROR", "Invoke Error \t" + json.dumps(err, separators=(",", ":"))))
        else:   # oom
            t = st + _ms(9)
            emit(t, s, rtl(t, rid, "INFO", "loading refund batch for showtime ST-88120 (1412 tickets)"))
            emit(end, s, f"RequestId: {rid} Error: Runtime exited with error: signal: killed\nRuntime.ExitError")
        emit(end, s, f"END RequestId: {rid}")
        billed = LAMBDA_TIMEOUT_MS if o == "timeout" else (d["dh"] + 99) // 100
        rep = (f"REPORT RequestId: {rid}\tDuration: {_dh(d['dh'])} ms\tBilled Duration: {billed} ms\t"
               f"Memory Size: 512 MB\tMax Memory Used: {d['mem']} MB\t")
        if d.get("init_dh") is not None:
            rep += f"Init Duration: {_dh(d['init_dh'])} ms\t"
        if o == "timeout":
            rep += "Status: timeout"
        elif o == "oom":
            rep += "Status: error\tError Type: Runtime.OutOfMemory"
        emit(end, s, rep)
    ev.sort(key=lambda x: (x[0], x[1]))
    return "".join(f"{_iso(t)} {s} {m}\n" for t, _, s, m in ev)
