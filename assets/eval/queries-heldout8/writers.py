"""Writers of the `queries-heldout8` fixtures: one night (2033-10-27, 00:00-04:00 UTC) at
Gullwing Ropeways, written as the real software writes it. Every writer takes its own seeded
`random.Random`; the cross-file schedule (which request failed when, which bind failed for
whom, when the task was OOM-killed) comes from `plan()`, seeded by `PLAN_SEED`, so the seven
logs tell one story. Nothing here is read back by the ground truth (`truth.py` parses the
written text).
"""

import random
from datetime import datetime, timedelta

PLAN_SEED = 20331027
D0 = datetime(2033, 10, 27)
END = D0 + timedelta(hours=4)
MON = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def T(h, m, s=0, us=0):
    return D0.replace(hour=h, minute=m, second=s, microsecond=us)


def sec(x):
    return timedelta(seconds=x)


# ---------------------------------------------------------------- hosts and names
EDGE1, EDGE2 = "10.40.1.21", "10.40.1.22"
NMD_C3 = "10.40.3.17"            # nomad client nmd-c3: passdesk (Tomcat) and alertmanager
MON1 = "10.40.8.5"               # prometheus + grafana
BLACKBOX = "10.40.8.7"
AF = "10.40.5.9"                 # af-sched-1
GATES = [f"10.40.20.{i}" for i in range(11, 95)]          # 84 turnstile controllers
GATE_IDS = [f"G-{101 + i}" for i in range(len(GATES))]
HANDHELDS = [f"10.40.30.{i}" for i in range(101, 113)]    # 12 staff handhelds
SCRAPER = "198.51.100.23"
NAT_MOBILE = "100.64.12.7"
KIOSK = "203.0.113.10"
SPRAY_IP = "203.0.113.45"
BASE = "dc=gullwing,dc=example"
SVC_DN = f"cn=svc-passdesk,ou=services,{BASE}"
STAFF = ["hbrunner", "ldesmet", "mkoller", "jfurrer", "akaiser", "tstadler", "abichler", "rgruber", "pwenger",
         "cmaurer", "dlehner", "sobrist"]

# ---------------------------------------------------------------- the story's fixed seconds
ROT_MOD = T(1, 10, 22)           # ldap_svc_rotate sets the new svc-passdesk password
INC1_FIRST = T(1, 10, 31)        # first svc-passdesk bind with the old password fails
INC1_LAST = T(1, 46, 58)
VAR_RENDER = T(1, 47, 2)         # nomad re-renders the template, restarts passdesk
INC1_UP = T(1, 47, 28)           # Tomcat up again
INC1_FIRST_OK = T(1, 47, 31)
PUSH_TRIES = [(T(1, 10, 58, 412000), T(1, 11, 5, 207000)), (T(1, 16, 6, 118000), T(1, 16, 9, 640000)),
              (T(1, 21, 10, 77000), T(1, 21, 13, 905000))]
DEPLOY_DOWN = (T(2, 19, 49), T(2, 20, 30))
DEPLOY_STARTED = T(2, 20, 7)
RULE_FAIL_FIRST = T(2, 20, 42, 391000)
RULE_FAIL_LAST = T(2, 57, 42, 391000)
KILLS = [T(2, 31, 44), T(2, 35, 21), T(2, 38, 57), T(2, 42, 8), T(2, 46, 5), T(2, 49, 38)]
HUNG = [52, 47, 58, 100, 55, 50]  # seconds the JVM hangs in GC before each kill
REVERT_RECEIVED = T(2, 57, 51)
REVERT_STARTED = T(2, 58, 3)
REVERT_UP = T(2, 58, 28)
AM_KILL = T(2, 44, 10)
AM_STARTED = T(2, 46, 26)
AM_ERR = (T(2, 44, 12), T(2, 46, 29))
SPRAY = (T(3, 12, 7), T(3, 19, 44))
SPRAY_USERS = 77
RW_FIRST = T(3, 31, 8, 412000)
RW_N = 143
ARCHIVE_FAIL = T(3, 36, 19, 884000)
HB_START = T(0, 52, 10, 118000)
HB_N = 89
DASH_MAX_MS = 11206
GF_500_PEAK = T(2, 47)


def down_intervals():
    """When passdesk answered nothing at all (connection refused at nginx)."""
    out = [(VAR_RENDER, INC1_UP), DEPLOY_DOWN]
    for i, k in enumerate(KILLS):
        out.append((k, k + sec(41) if i < len(KILLS) - 1 else REVERT_UP))
    return out


def passdesk_state(t):
    for a, b in down_intervals():
        if a <= t < b:
            return "down", None
    for k, h in zip(KILLS, HUNG):
        if k - sec(h) <= t < k:
            return "hung", k
        if k - sec(h + 60) <= t < k - sec(h):
            return "slow", k
    return "ok", None


def uuid(rng):
    return "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), 0x4000 | rng.getrandbits(12),
                                          0x8000 | rng.getrandbits(14), rng.getrandbits(48))


def clf(t):
    return f"{t.day:02d}/{MON[t.month - 1]}/{t.year}:{t:%H:%M:%S} +0000"


# ================================================================= the plan (cross-file)
_PLAN = None


def poisson_times(rng, per_min, a=D0, b=END):
    out, t = [], a
    while True:
        t = t + sec(rng.expovariate(per_min / 60))
        if t >= b:
            return out
        out.append(t)


def plan():
    global _PLAN
    if _PLAN is None:
        _PLAN = _make_plan(random.Random(PLAN_SEED))
    return _PLAN


def _make_plan(rng):
    P = {}
    # ------------------------------------------------------------ turnstile_sync (every minute)
    runs = []
    scattered_fail = {T(0, 23): 500, T(0, 37): 500, T(2, 4): 500}
    for m in range(240):
        start = D0 + timedelta(minutes=m)
        pull = start + sec(2) + timedelta(microseconds=rng.randrange(60000, 480000))
        if INC1_FIRST <= pull <= INC1_LAST:
            how = 503
        elif start in scattered_fail:
            how = scattered_fail[start]
        else:
            st, _ = passdesk_state(pull)
            how = "refused" if st == "down" else ("timeout" if st == "hung" else None)
        runs.append({"m": start, "pull": pull, "fail": how})
    P["runs"] = runs
    ok = [r for r in runs if r["fail"] is None]
    for r in ok:
        r["dur_us"] = rng.randrange(1800000, 5600000)
        r["tomcat_ms"] = (r["dur_us"] - rng.randrange(60000, 400000)) // 1000
    excess = sum(r["dur_us"] for r in ok) % (1000 * len(ok))
    max(ok, key=lambda r: r["dur_us"])["dur_us"] -= excess

    # ------------------------------------------------------------ gate sessions (LDAP-backed)
    sessions = []
    for gi in range(len(GATES)):
        t = D0 + sec(rng.uniform(30, 3570))
        while t < END:
            if INC1_FIRST <= t <= INC1_LAST:
                sessions.append((t, gi, False))
                t = t + sec(rng.uniform(110, 130))
            elif ROT_MOD <= t < INC1_FIRST:
                t = INC1_FIRST + sec(rng.uniform(1, 20))
            elif INC1_LAST < t < INC1_FIRST_OK + sec(5):
                t = INC1_FIRST_OK + sec(rng.uniform(5, 60))
            else:
                st, _ = passdesk_state(t)
                if st == "ok":
                    sessions.append((t, gi, True))
                    t = t + sec(3600 + rng.uniform(-40, 40))
                else:
                    t = t + sec(rng.uniform(50, 70))
    fails = sorted(s for s in sessions if not s[2])
    # the edges of the failure run sit on the story's seconds
    fails[0] = (INC1_FIRST + timedelta(microseconds=183000), fails[0][1], False)
    fails[-1] = (INC1_LAST + timedelta(microseconds=402000), fails[-1][1], False)
    sessions = sorted([s for s in sessions if s[2]] + fails)
    P["sessions"] = sessions

    # ------------------------------------------------------------ staff handheld logins (passdesk -> LDAP)
    staff = []
    for t in poisson_times(rng, 0.2):
        if T(1, 5) <= t < T(1, 55) or T(2, 15) <= t < T(3, 0):
            continue
        staff.append((t, rng.choice(HANDHELDS), rng.choice(STAFF[:10]), "ok"))
    for t in [T(1, 14, 3), T(1, 19, 40), T(1, 23, 12), T(1, 28, 51), T(1, 31, 5), T(1, 34, 44), T(1, 38, 20),
              T(1, 41, 2), T(1, 44, 37)]:
        staff.append((t + timedelta(microseconds=rng.randrange(1000, 900000)), rng.choice(HANDHELDS),
                      rng.choice(STAFF[:10]), "svcfail"))
    # typed a wrong password at a handheld (the user's own bind fails)
    for t, u in [(T(0, 26, 41), "tstadler"), (T(2, 7, 15), "tstadler"), (T(3, 48, 2), "rgruber")]:
        staff.append((t + timedelta(microseconds=rng.randrange(1000, 900000)), rng.choice(HANDHELDS), u, "badpw"))
    P["staff"] = sorted(staff)

    # ------------------------------------------------------------ grafana logins (grafana -> LDAP)
    gl = []
    for t, u, ok in [(T(0, 4, 12), "hbrunner", True), (T(0, 31, 50), "mkoller", False), (T(0, 32, 4), "mkoller", False),
                     (T(0, 32, 21), "mkoller", True), (T(0, 58, 33), "ldesmet", True), (T(2, 9, 48), "abichler", False),
                     (T(2, 10, 2), "abichler", False), (T(2, 10, 19), "abichler", True), (T(2, 33, 40), "jfurrer", True),
                     (T(2, 34, 5), "akaiser", True), (T(3, 27, 30), "mkoller", False), (T(3, 27, 52), "mkoller", False),
                     (T(3, 28, 14), "tstadler", False), (T(3, 28, 40), "tstadler", True), (T(3, 29, 1), "mkoller", True)]:
        gl.append((t + timedelta(microseconds=rng.randrange(1000, 900000)), u, ok, "user"))
    victims = [f"{a}{b}" for a, b in zip(
        "abcdefghijklmnoprstuvwz" * 4,
        ["ahner", "eck", "ohn", "ruder", "ischer", "uchs", "rauer", "uber", "ess", "ager", "ung", "ern", "aier",
         "eier", "otz", "ichter", "ohr", "ieder", "ell", "idmer", "ogt", "enger", "immer", "ammer", "rand", "eiss",
         "osch", "aser", "unz", "och", "aus", "olz"] * 3)]
    victims = sorted(set(victims) - set(STAFF))
    rng.shuffle(victims)
    victims = victims[:SPRAY_USERS]
    attempts = [(u, 1) for u in victims] + [(u, 2) for u in victims]
    span = (SPRAY[1] - SPRAY[0]).total_seconds()
    for i, (u, k) in enumerate(attempts):
        t = SPRAY[0] + sec(span * i / (len(attempts) - 1))
        t = t.replace(microsecond=rng.randrange(20000, 700000)) if 0 < i < len(attempts) - 1 else \
            t.replace(microsecond=rng.randrange(20000, 300000))
        gl.append((t, u, False, "spray"))
    P["grafana_logins"] = sorted(gl)
    P["victims"] = victims

    # ------------------------------------------------------------ the shop: requests through edge-gw-1 and -2
    P["shop"] = _shop(rng)
    return P


ROUTES = [  # (method, nginx path, per-minute rate on edge-1, base service ms range)
    ("GET", "/api/lifts/status", 8.0, (6, 60)),
    ("GET", "/api/snow/report", 5.0, (9, 90)),
    ("GET", "/api/search", 2.9, (40, 380)),
    ("GET", "/api/passes/", 1.4, None),
    ("POST", "/api/cart/items", 1.7, (18, 150)),
    ("POST", "/api/checkout", 1.25, None),
    ("POST", "/api/login", 1.0, (45, 210)),
]
VALLEYS = ["hintersee", "gletscherbahn", "kaltenbach", "mooswand"]
PASS_TYPES = ["day", "3day", "season", "halfday", "kids"]
APP_UA = ["GullwingApp/5.3.1 (iPhone; iOS 17.1; Scale/3.00)", "GullwingApp/5.3.1 (iPhone; iOS 16.7.2; Scale/2.00)",
          "GullwingApp/5.3.0 (Android 14; Pixel 8)", "GullwingApp/5.3.1 (Android 13; SM-S911B)",
          "GullwingApp/5.2.9 (Android 12; moto g52)"]
WEB_UA = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
          "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"]
KIOSK_UA = "Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0 Safari/537.36 GullwingKiosk/2.4"
SCRAPER_UA = "python-requests/2.31.0"


def _client_pool(rng):
    ips = set()
    while len(ips) < 760:
        r = rng.random()
        if r < 0.7:
            ips.add(f"100.{rng.randrange(64, 128)}.{rng.randrange(0, 256)}.{rng.randrange(1, 255)}")
        elif r < 0.85:
            ips.add(f"192.0.2.{rng.randrange(1, 255)}")
        else:
            ips.add(f"198.51.100.{rng.randrange(30, 255)}")
    ips -= {SCRAPER, NAT_MOBILE, KIOSK, SPRAY_IP}
    return sorted(ips)


def _shop(rng):
    pool = _client_pool(rng)
    reqs = []
    for edge, scale in ((1, 1.0), (2, 0.55)):
        for method, path, rate, _ in ROUTES:
            for t in poisson_times(rng, rate * scale):
                r = {"edge": edge, "start": t, "method": method, "path": path}
                x = rng.random()
                if x < 0.16:
                    r["ip"], r["ua"] = NAT_MOBILE, rng.choice(APP_UA[:2])
                elif x < 0.28 and path in ("/api/lifts/status", "/api/snow/report", "/api/search"):
                    r["ip"], r["ua"] = KIOSK, KIOSK_UA
                else:
                    r["ip"] = rng.choice(pool)
                    r["ua"] = rng.choice(APP_UA) if rng.random() < 0.75 else rng.choice(WEB_UA)
                reqs.append(r)
        for t in poisson_times(rng, 2.4 * scale):       # the index page, served by nginx itself
            reqs.append({"edge": edge, "start": t, "method": "GET", "path": "/", "ip": rng.choice(pool),
                         "ua": rng.choice(WEB_UA), "static": True})
    for t in poisson_times(rng, 0.27):                  # noise that nginx answers 404 itself
        reqs.append({"edge": 1, "start": t, "method": "GET", "ip": rng.choice(pool), "ua": rng.choice(WEB_UA),
                     "path": rng.choice(["/wp-login.php", "/.env", "/admin/config.php", "/.git/config",
                                         "/phpmyadmin/index.php", "/api/v1/../../etc/passwd"]), "static": True})
    # the scraper enumerating pass ids (00:38-01:04), rate-limited by nginx (limit_req, 429)
    t, k = T(0, 38, 3, 114000), 0
    while t < T(1, 4, 11):
        reqs.append({"edge": 1, "start": t, "method": "GET", "path": "/api/passes/", "ip": SCRAPER, "ua": SCRAPER_UA,
                     "scraper": k})
        k += 1
        t = t + sec(rng.uniform(0.6, 1.85))
    # planted upstream failures outside the incidents
    for t, st in [(T(0, 14, 22), 502), (T(0, 14, 23), 502), (T(0, 58, 10), 502), (T(1, 33, 47), 502),
                  (T(3, 21, 5), 502), (T(3, 44, 51), 502), (T(3, 44, 52), 502)]:
        reqs.append({"edge": 1, "start": t + timedelta(microseconds=rng.randrange(0, 900000)), "method": "GET",
                     "path": "/api/snow/report", "ip": rng.choice(pool), "ua": rng.choice(APP_UA), "forced": st})
    for t in [T(0, 41, 2), T(0, 41, 40), T(1, 52, 13), T(3, 37, 1), T(3, 37, 33), T(3, 38, 2), T(3, 52, 40), T(3, 53, 5),
              T(0, 5, 30)]:
        reqs.append({"edge": 1, "start": t + timedelta(microseconds=rng.randrange(0, 900000)), "method": "GET",
                     "path": "/api/search", "ip": rng.choice(pool), "ua": rng.choice(WEB_UA), "forced": 504})
    for t in [T(0, 19, 4), T(1, 2, 57), T(1, 58, 31), T(3, 9, 12), T(3, 33, 3)]:
        reqs.append({"edge": 1, "start": t + timedelta(microseconds=rng.randrange(0, 900000)), "method": "POST",
                     "path": "/api/checkout", "ip": rng.choice(pool), "ua": rng.choice(APP_UA), "forced": 500})
    reqs.sort(key=lambda r: (r["start"], r["edge"], r["path"]))

    # outcome of each request
    for r in reqs:
        r["target"] = _target(rng, r)
        if r.get("static"):
            r["status"] = 404 if r["path"] != "/" else 200
            r["ngx_only"] = True
            continue
        if "scraper" in r and r["scraper"] % 5 in (1, 3):
            r["status"], r["ngx_only"] = 429, True
            continue
        r["state"], r["kill"] = passdesk_state(r["start"])
    _service_times(rng, reqs)
    for r in reqs:
        _outcome(rng, r)
    return reqs


def _target(rng, r):
    p = r["path"]
    if p == "/api/search":
        return (f"/api/search?valley={rng.choice(VALLEYS)}&date=2033-11-{rng.randrange(1, 31):02d}"
                f"&type={rng.choice(PASS_TYPES)}")
    if p == "/api/passes/":
        if "scraper" in r:
            return f"/api/passes/PD-33-{104000 + r['scraper'] * 7:06d}"
        return f"/api/passes/PD-33-{rng.randrange(100000, 999999):06d}"
    return p


PASS_PLATEAU = 418
CHECKOUT_PLATEAU = 2870


def _service_times(rng, reqs):
    """Tomcat's %D (ms) for every request that reaches it. GET /passdesk/api/passes/{id} and
    POST /passdesk/api/checkout get a plateau at their 95th percentile."""
    for r in reqs:
        if r.get("ngx_only") or "forced" in r:
            continue
        if r["state"] == "slow":
            r["ms"] = rng.randrange(3100, 9300)
        elif r["path"] not in ("/api/passes/", "/api/checkout"):
            lo, hi = next(x[3] for x in ROUTES if x[1] == r["path"])
            r["ms"] = rng.randrange(lo, hi)
            if r["path"] == "/api/search" and rng.random() < 0.02:
                r["ms"] = rng.randrange(2600, 5800)
    for path, plateau, base, top in (("/api/passes/", PASS_PLATEAU, (12, 260), (640, 1900)),
                                     ("/api/checkout", CHECKOUT_PLATEAU, (280, 610), (3100, 4400))):
        served = [r for r in reqs if r["path"] == path and not r.get("ngx_only") and "forced" not in r
                  and r["state"] in ("ok", "slow")]
        slow = [r for r in served if r["state"] == "slow"]
        rest = [r for r in served if r["state"] == "ok"]
        n = len(served)
        n_top = max(0, round(0.03 * n) - len(slow))
        n_plat = round(0.065 * n)
        order = list(range(len(rest)))
        rng.shuffle(order)
        for j, i in enumerate(order):
            r = rest[i]
            if j < n_top:
                r["ms"] = rng.randrange(*top)
            elif j < n_top + n_plat:
                r["ms"] = plateau
            else:
                r["ms"] = rng.randrange(*base)
    for r in reqs:
        if r.get("forced") == 500:
            r["ms"] = rng.randrange(650, 1900)
    # exact means: nginx's urt over edge-1's 200 checkouts, Tomcat's %D over every checkout line
    # (take a millisecond off as many base-range values as the remainder asks)
    co = [r for r in reqs if r["path"] == "/api/checkout" and not r.get("ngx_only")
          and (r.get("state") in ("ok", "slow") or r.get("forced") == 500) and "ms" in r]
    base = [r for r in co if "forced" not in r and r["state"] == "ok" and r["ms"] < 700]
    e1 = [r for r in co if r["edge"] == 1 and "forced" not in r]
    for edge, group_, plus in ((1, e1, 1), (2, co, 0)):
        excess = sum(r["ms"] + plus for r in group_) % len(group_)
        mine = [r for r in base if r["edge"] == edge]
        for i in range(excess):
            mine[i % len(mine)]["ms"] -= 1
    # hung/down requests never reach a Tomcat access log line; give them a nominal value
    for r in reqs:
        if not r.get("ngx_only") and "ms" not in r:
            r["ms"] = None


def _outcome(rng, r):
    """What nginx logs (status, times) and whether/when Tomcat logs it."""
    s = r["start"]
    if r.get("ngx_only"):
        r["ngx_end"] = s + timedelta(microseconds=rng.randrange(0, 1500))
        r["rt"], r["uct"], r["uht"], r["urt"] = (r["ngx_end"] - s).total_seconds(), "-", "-", "-"
        r["size"] = {200: 2318, 404: 3650, 429: 169}[r["status"]]
        r["tomcat"] = False
        return
    f = r.get("forced")
    if f == 502:
        r.update(status=502, tomcat=False, size=157)
        end = s + timedelta(microseconds=rng.randrange(700, 2500))
        r.update(ngx_end=end, uct="-", uht="-", urt=f"{(end - s).total_seconds():.3f}")
        r["rt"] = (end - s).total_seconds()
        return
    if f == 504:
        end = s + sec(30) + timedelta(microseconds=rng.randrange(1000, 4000))
        r.update(status=504, tomcat=False, size=167, ngx_end=end, uct="0.001", uht="-",
                 urt=f"{(end - s).total_seconds() - 0.001:.3f}", rt=(end - s).total_seconds())
        return
    if f == 500:
        r.update(status=500, tomcat=True, size=1187, tsize="1187")
    st = r.get("state")
    if st == "down" and f is None:
        end = s + timedelta(microseconds=rng.randrange(600, 2900))
        r.update(status=502, tomcat=False, size=157, ngx_end=end, uct="-", uht="-",
                 urt=f"{(end - s).total_seconds():.3f}", rt=(end - s).total_seconds())
        return
    if st == "hung" and f is None:
        k = r["kill"]
        to = s + sec(30) + timedelta(microseconds=rng.randrange(1000, 3500))
        if to < k:
            r.update(status=504, size=167, ngx_end=to, uct="0.001", uht="-")
        else:
            to = k + timedelta(microseconds=rng.randrange(2000, 9000))
            r.update(status=502, size=157, ngx_end=to, uct="0.001", uht="-")
        r["urt"] = f"{(to - s).total_seconds() - 0.001:.3f}"
        r["rt"] = (to - s).total_seconds()
        r["tomcat"] = False
        return
    # served by Tomcat
    ms = r["ms"]
    if f is None:
        path = r["path"]
        if path == "/api/passes/":
            r["status"] = 404 if ("scraper" in r and r["scraper"] % 4 == 2) or rng.random() < 0.05 else 200
        elif path == "/api/login":
            r["status"] = 401 if rng.random() < 0.12 else 200
        else:
            r["status"] = 200
        r["tsize"] = _tomcat_size(rng, r)
        r["size"] = int(r["tsize"]) if r["tsize"] != "-" else 0
    r["tomcat"] = True
    r["t_ms"] = ms
    up = (ms + 1) / 1000
    r["uct"] = "0.000" if rng.random() < 0.6 else "0.001"
    r["uht"] = f"{up:.3f}"
    r["urt"] = f"{up:.3f}"
    r["ngx_end"] = s + timedelta(microseconds=(ms + 1) * 1000 + rng.randrange(100, 900))
    r["rt"] = (r["ngx_end"] - s).total_seconds()


def _tomcat_size(rng, r):
    st, p = r["status"], r["path"]
    if st == 404:
        return "-"
    if st == 401:
        return "612"
    return str({"/api/lifts/status": rng.randrange(3800, 4400), "/api/snow/report": rng.randrange(1900, 2600),
                "/api/search": rng.randrange(6000, 24000), "/api/passes/": rng.randrange(1300, 1700),
                "/api/cart/items": rng.randrange(700, 980), "/api/checkout": rng.randrange(1500, 1900),
                "/api/login": rng.randrange(640, 720)}[p])


# ================================================================= 1. nginx (edge-gw-1)
def nginx_log(rng):
    P = plan()
    rows = []
    for r in P["shop"]:
        if r["edge"] != 1:
            continue
        ref = "-" if r["ua"].startswith(("GullwingApp", "python")) else "https://shop.gullwing.example/"
        rt = f"{r['rt']:.3f}"
        rows.append((r["ngx_end"], f'{r["ip"]} - - [{clf(r["ngx_end"])}] "{r["method"]} {r["target"]} HTTP/1.1" '
                                   f'{r["status"]} {r["size"]} "{ref}" "{r["ua"]}" rt={rt} uct="{r["uct"]}" '
                                   f'uht="{r["uht"]}" urt="{r["urt"]}"'))
    rows.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in rows)


# ================================================================= 2. Tomcat access log valve (passdesk)
def tomcat_log(rng):
    """pattern="%h %l %u %t &quot;%r&quot; %s %b %D" (Tomcat 9: %D in ms); %t is when the request
    started, lines are written as requests complete."""
    P = plan()
    rows = []

    def add(start, ip, user, method, uri, status, size, ms):
        end = start + timedelta(milliseconds=ms)
        rows.append((end, f'{ip} - {user} [{clf(start)}] "{method} {uri} HTTP/1.1" {status} {size} {ms}'))

    for r in P["shop"]:
        if r.get("tomcat"):
            add(r["start"], EDGE1 if r["edge"] == 1 else EDGE2, "-", r["method"], "/passdesk" + r["target"],
                r["status"], r["tsize"], r["t_ms"])
    # gate sessions (LDAP lookup of the device) and heartbeats
    for t, gi, ok in P["sessions"]:
        if ok:
            add(t, GATES[gi], "-", "POST", "/passdesk/api/gate/session", 200, str(rng.randrange(640, 700)),
                rng.randrange(14, 70))
        else:
            add(t, GATES[gi], "-", "POST", "/passdesk/api/gate/session", 503, "231", rng.randrange(3, 11))
    for gi, ip in enumerate(GATES):
        t = D0 + sec(rng.uniform(1, 599))
        while t < END:
            if passdesk_state(t)[0] in ("ok", "slow"):
                add(t, ip, "-", "PUT", f"/passdesk/api/gate/{GATE_IDS[gi]}/heartbeat", 204, "-", rng.randrange(2, 9))
            t = t + sec(600 + rng.uniform(-3, 3))
    # prometheus scraping /passdesk/metrics every 30 s
    t = D0 + sec(11.204)
    while t < END:
        if passdesk_state(t)[0] in ("ok", "slow"):
            add(t, MON1, "-", "GET", "/passdesk/metrics", 200, str(rng.randrange(61000, 64000)), rng.randrange(9, 40))
        t = t + sec(30)
    # airflow: turnstile_sync.pull_scans
    for run in P["runs"]:
        since = (run["m"] - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        uri = f"/passdesk/api/gate/scans/export?since={since}"
        if run["fail"] is None:
            add(run["pull"], AF, "svc-airflow", "GET", uri, 200, str(rng.randrange(9000, 48000)), run["tomcat_ms"])
        elif run["fail"] == 503:
            add(run["pull"], AF, "-", "GET", uri, 503, "231", rng.randrange(3, 11))
        elif run["fail"] == 500:
            add(run["pull"], AF, "svc-airflow", "GET", uri, 500, "1187", rng.randrange(300, 900))
    # staff handhelds
    for t, ip, user, how in P["staff"]:
        if how == "ok":
            add(t, ip, "-", "POST", "/passdesk/api/staff/login", 200, str(rng.randrange(700, 760)), rng.randrange(30, 90))
            t2 = t + sec(rng.uniform(2, 9))
            add(t2, ip, user, "GET", "/passdesk/api/staff/shift", 200, str(rng.randrange(2100, 2900)),
                rng.randrange(15, 60))
        elif how == "svcfail":
            add(t, ip, "-", "POST", "/passdesk/api/staff/login", 503, "231", rng.randrange(3, 11))
        else:
            add(t, ip, "-", "POST", "/passdesk/api/staff/login", 401, "612", rng.randrange(25, 70))
    # the snow-report backend (weather service) was down for a minute at 00:27
    for t in [T(0, 27, 3), T(0, 27, 19), T(0, 27, 34), T(0, 27, 50), T(0, 28, 6)]:
        add(t, EDGE2, "-", "GET", "/passdesk/api/snow/report", 503, "231", rng.randrange(1000, 1010))
    rows.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in rows)


# ================================================================= 3. slapd via syslog (ldap-1)
class Slapd:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.conn = 418230
        self.pending = []

    def emit(self, t, msg):
        self.lines.append((t, len(self.lines), msg))

    def times(self):
        q = self.rng.randrange(6, 30)
        e = q + self.rng.randrange(30, 400)
        return f"qtime=0.{q:06d} etime=0.{e:06d}"

    def session(self, t, ip, port, steps, tls=False):
        """steps: [('bind', dn, err) | ('srch', base, filter, attrs, n) | ('mod', dn, attr)]; the
        connection numbers are handed out in time order when the log is written."""
        self.pending.append((t, len(self.pending), ip, port, steps, tls))

    def write(self):
        for t, _, ip, port, steps, tls in sorted(self.pending, key=lambda x: (x[0], x[1])):
            self._session(t, ip, port, steps, tls)
        self.lines.sort(key=lambda x: (x[0], x[1]))
        return "".join(f"{MON[t.month - 1]} {t.day:2d} {t:%H:%M:%S} ldap-1 slapd[812]: {msg}\n" for t, _, msg in self.lines)

    def _session(self, t, ip, port, steps, tls):
        self.conn += self.rng.randrange(1, 4)
        c = self.conn
        fd = self.rng.randrange(12, 41)
        self.emit(t, f"conn={c} fd={fd} ACCEPT from IP={ip}:{self.rng.randrange(32768, 60999)} (IP=0.0.0.0:{port})")
        step = sec(0)
        if tls:
            step += sec(0.004)
            self.emit(t + step, f"conn={c} fd={fd} TLS established tls_ssf=256 ssf=256 tls_proto=TLSv1.3 "
                                f"tls_cipher=TLS_AES_256_GCM_SHA384")
        op = 0
        for s in steps:
            step += sec(self.rng.uniform(0.0005, 0.004))
            w = t + step
            if s[0] == "bind":
                _, dn, err = s
                self.emit(w, f'conn={c} op={op} BIND dn="{dn}" method=128')
                if err == 0:
                    ssf = 256 if tls else 0
                    if dn:
                        self.emit(w, f'conn={c} op={op} BIND dn="{dn}" mech=SIMPLE bind_ssf=0 ssf={ssf}')
                    else:
                        self.emit(w, f"conn={c} op={op} BIND anonymous mech=implicit bind_ssf=0 ssf={ssf}")
                self.emit(w, f"conn={c} op={op} RESULT tag=97 err={err} {self.times()} text=")
                if err:
                    op += 1
                    break
            elif s[0] == "srch":
                _, base, filt, attrs, n = s
                self.emit(w, f'conn={c} op={op} SRCH base="{base}" scope={0 if not base else 2} deref=0 filter="{filt}"')
                self.emit(w, f"conn={c} op={op} SRCH attr={attrs}")
                self.emit(w, f"conn={c} op={op} SEARCH RESULT tag=101 err=0 {self.times()} nentries={n} text=")
            elif s[0] == "mod":
                _, dn, attr = s
                self.emit(w, f'conn={c} op={op} MOD dn="{dn}"')
                self.emit(w, f"conn={c} op={op} MOD attr={attr}")
                self.emit(w, f"conn={c} op={op} RESULT tag=103 err=0 {self.times()} text=")
            op += 1
        step += sec(self.rng.uniform(0.0005, 0.002))
        self.emit(t + step, f"conn={c} op={op} UNBIND")
        self.emit(t + step, f"conn={c} fd={fd} closed")


def slapd_log(rng):
    P = plan()
    s = Slapd(rng)
    ok_svc = ("bind", SVC_DN, 0)
    bad_svc = ("bind", SVC_DN, 49)
    # blackbox exporter: an anonymous bind and a rootDSE read every 60 s
    t = D0 + sec(4.31)
    while t < END:
        s.session(t + timedelta(microseconds=rng.randrange(0, 300000)), BLACKBOX, 389,
                  [("bind", "", 0), ("srch", "", "(objectClass=*)", "namingContexts", 1)])
        t = t + sec(60)
    # passdesk: device lookups for gate sessions
    for t, gi, ok in P["sessions"]:
        if ok:
            s.session(t, NMD_C3, 389, [ok_svc, ("srch", f"ou=devices,{BASE}",
                                                f"(&(objectClass=device)(cn={GATE_IDS[gi].lower()}))",
                                                "cn description memberOf", 1)])
        else:
            s.session(t, NMD_C3, 389, [bad_svc])
    # passdesk: the airflow service user's basic auth on the export
    for run in P["runs"]:
        if run["fail"] is None or run["fail"] == 500:
            s.session(run["pull"], NMD_C3, 389, [ok_svc, ("srch", f"ou=services,{BASE}", "(cn=svc-airflow)",
                                                           "dn memberOf", 1),
                                                  ("bind", f"cn=svc-airflow,ou=services,{BASE}", 0)])
        elif run["fail"] == 503:
            s.session(run["pull"], NMD_C3, 389, [bad_svc])
    # passdesk: staff logins at the handhelds
    for t, ip, user, how in P["staff"]:
        if how == "svcfail":
            s.session(t, NMD_C3, 389, [bad_svc])
        else:
            s.session(t, NMD_C3, 389, [ok_svc, ("srch", f"ou=people,{BASE}", f"(uid={user})", "dn cn memberOf", 1),
                                       ("bind", f"uid={user},ou=people,{BASE}", 0 if how == "ok" else 49)])
    # grafana: LDAP logins over ldaps
    for t, user, ok, _ in P["grafana_logins"]:
        s.session(t, MON1, 636, [("bind", f"cn=grafana-bind,ou=services,{BASE}", 0),
                                 ("srch", f"ou=people,{BASE}", f"(uid={user})", "dn givenName sn mail memberOf", 1),
                                 ("bind", f"uid={user},ou=people,{BASE}", 0 if ok else 49)], tls=True)
    # the rotation
    s.session(ROT_MOD - sec(0.004), AF, 636, [("bind", f"cn=rotator,ou=services,{BASE}", 0),
                                              ("mod", SVC_DN, "userPassword pwdChangedTime")], tls=True)
    # nomad's template (consul-template) has no LDAP; the first good bind after the fix
    s.session(INC1_FIRST_OK + timedelta(microseconds=77000), NMD_C3, 389,
              [ok_svc, ("srch", f"ou=devices,{BASE}", "(&(objectClass=device)(cn=g-140))", "cn description memberOf", 1)])
    return s.write()


# ================================================================= 4. Nomad client (nmd-c3), hclog
def hc_val(v):
    s = str(v)
    if s == "" or any(ch in s for ch in ' "=\\') or "\n" in s:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return s


def hclog(t, level, name, msg, kv=()):
    lv = f"[{level}]".ljust(7)
    pairs = "".join(f" {k}={hc_val(v)}" for k, v in kv)
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z {lv} {name}: {msg}:{pairs}" if kv else \
        f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z {lv} {name}: {msg}"


def nomad_ids():
    r = random.Random(PLAN_SEED + 4)
    return {"old": uuid(r), "new": uuid(r), "revert": uuid(r), "am": uuid(r)}


def nomad_log(rng):
    ids = nomad_ids()
    L = []
    TR = "client.alloc_runner.task_runner"

    def ev(t, alloc, task, typ, msg, failed=False):
        L.append((t, hclog(t, "INFO", TR, "Task event", [("alloc_id", alloc), ("task", task), ("type", typ),
                                                          ("msg", msg), ("failed", str(failed).lower())])))

    def cid():
        return "%064x" % rng.getrandbits(256)

    def container(t, ms_create=400):
        c = cid()
        L.append((t, hclog(t, "INFO", "client.driver_mgr.docker", "created container",
                           [("driver", "docker"), ("container_id", c)])))
        t2 = t + timedelta(milliseconds=ms_create)
        L.append((t2, hclog(t2, "INFO", "client.driver_mgr.docker", "started container",
                            [("driver", "docker"), ("container_id", c)])))
        return t2

    def logger_start(t):
        L.append((t, hclog(t, "INFO", "client.driver_mgr.docker.docker_logger", "starting plugin",
                           [("path", "/usr/local/bin/nomad"), ("args", '["/usr/local/bin/nomad", "docker_logger"]')])))
        L.append((t, hclog(t, "INFO", "client.driver_mgr.docker.docker_logger", "plugin started",
                           [("path", "/usr/local/bin/nomad"), ("pid", rng.randrange(20000, 90000))])))

    def logger_exit(t):
        L.append((t, hclog(t, "INFO", "client.driver_mgr.docker.docker_logger", "plugin process exited",
                           [("path", "/usr/local/bin/nomad"), ("pid", rng.randrange(20000, 90000))])))

    def start_alloc(t, alloc, task, image):
        ev(t, alloc, task, "Received", "Task received by client")
        ev(t + sec(0.012), alloc, task, "Task Setup", "Building Task Directory")
        ev(t + sec(0.35), alloc, task, "Driver", "Downloading image")
        L.append((t + sec(0.36), hclog(t + sec(0.36), "INFO", "client.driver_mgr.docker", "pulling image",
                                       [("driver", "docker"), ("image_ref", image)])))

    # periodic snowcam-thumbs batch allocations every 5 minutes, and their GC
    gc_q = []
    for m in range(0, 240, 5):
        t = D0 + timedelta(minutes=m, seconds=rng.uniform(0.2, 1.5))
        a = uuid(rng)
        ev(t, a, "thumbs", "Received", "Task received by client")
        ev(t + sec(0.011), a, "thumbs", "Task Setup", "Building Task Directory")
        logger_start(t + sec(0.3))
        t2 = container(t + sec(0.31))
        ev(t2, a, "thumbs", "Started", "Task started by client")
        t3 = t2 + sec(rng.uniform(18, 44))
        ev(t3, a, "thumbs", "Terminated", "Exit Code: 0")
        logger_exit(t3 + sec(0.02))
        L.append((t3 + sec(0.03), hclog(t3 + sec(0.03), "INFO", TR, "not restarting task",
                                        [("alloc_id", a), ("task", "thumbs"),
                                         ("reason", "Restart unnecessary as task terminated successfully")])))
        L.append((t3 + sec(0.05), hclog(t3 + sec(0.05), "INFO", "client.gc", "marking allocation for GC",
                                        [("alloc_id", a)])))
        gc_q.append(a)
        if len(gc_q) > 12:
            old = gc_q.pop(0)
            t4 = t3 + sec(0.06)
            L.append((t4, hclog(t4, "INFO", "client.gc", "garbage collecting allocation",
                                [("alloc_id", old), ("reason", "number of allocations (51) is over the limit (50)")])))
    # the heartbeat blip (network to the servers)
    t = HB_START
    for i in range(HB_N):
        srv = ["10.40.1.11", "10.40.1.12", "10.40.1.13"][i % 3]
        e = f"rpc error: failed to get conn: dial tcp {srv}:4647: i/o timeout"
        L.append((t, hclog(t, "ERROR", "client.rpc", "error performing RPC to server",
                           [("error", e), ("rpc", "Node.UpdateStatus"), ("server", f"{srv}:4647")])))
        L.append((t, hclog(t, "ERROR", "client.rpc", "error performing RPC to server which is not safe to automatically retry",
                           [("error", e), ("rpc", "Node.UpdateStatus"), ("server", f"{srv}:4647")])))
        period = rng.uniform(1.05, 2.2)
        L.append((t, hclog(t, "ERROR", "client", "error heartbeating. retrying",
                           [("error", f"failed to update status: {e}"), ("period", f"{period:.9f}s")])))
        t = t + sec(period + rng.uniform(0.2, 0.6))
    L.append((t + sec(1.1), hclog(t + sec(1.1), "INFO", "client", "node registration complete")))
    # incident 1: the template re-rendered with the new password, passdesk restarted
    old = ids["old"]
    r = VAR_RENDER + sec(0.0)
    L.append((r, hclog(r, "INFO", "agent", f'(runner) rendered "(dynamic)" => "/opt/nomad/data/alloc/{old}/passdesk/secrets/ldap.env"')))
    ev(r + sec(0.002), old, "passdesk", "Restart Signaled", "Template with change_mode restart re-rendered")
    L.append((r + sec(0.003), hclog(r + sec(0.003), "INFO", TR, "restarting task",
                                    [("alloc_id", old), ("task", "passdesk"), ("reason", ""), ("delay", "0s")])))
    ev(r + sec(0.004), old, "passdesk", "Restarting", "Task restarting in 0s")
    ev(r + sec(2.1), old, "passdesk", "Terminated", "Exit Code: 143, Exit Message: \"Docker container exited with non-zero exit code: 143\"")
    logger_exit(r + sec(2.12))
    logger_start(r + sec(2.4))
    t2 = container(r + sec(2.41), 520)
    ev(t2, old, "passdesk", "Started", "Task started by client")
    # the deploy of 2.14.0 (destructive update: the old allocation stops first)
    k0 = DEPLOY_DOWN[0]
    ev(k0, old, "passdesk", "Killing", "Sent interrupt. Waiting 30s before force killing")
    ev(k0 + sec(5.8), old, "passdesk", "Terminated", "Exit Code: 143, Exit Message: \"Docker container exited with non-zero exit code: 143\"")
    logger_exit(k0 + sec(5.82))
    ev(k0 + sec(5.83), old, "passdesk", "Killed", "Task successfully killed")
    L.append((k0 + sec(6.1), hclog(k0 + sec(6.1), "INFO", "client.gc", "marking allocation for GC", [("alloc_id", old)])))
    new = ids["new"]
    start_alloc(T(2, 19, 57, 204000), new, "passdesk", "registry.gullwing.example/passdesk:2.14.0")
    logger_start(T(2, 20, 6, 31000))
    container(T(2, 20, 6, 420000), 480)
    ev(DEPLOY_STARTED, new, "passdesk", "Started", "Task started by client")
    # the OOM kills
    for i, k in enumerate(KILLS):
        ev(k, new, "passdesk", "Terminated", 'Exit Code: 137, Exit Message: "OOM Killed"')
        L.append((k + sec(0.04), hclog(k + sec(0.04), "WARN", TR + ".task_hook.stats_hook",
                                       "failed to start stats collection for task with unrecoverable error",
                                       [("alloc_id", new), ("task", "passdesk"), ("error", "container stopped")])))
        logger_exit(k + sec(0.06))
        if i < len(KILLS) - 1:
            d = rng.uniform(14.6, 16.9)
            L.append((k + sec(0.2), hclog(k + sec(0.2), "INFO", TR, "restarting task",
                                          [("alloc_id", new), ("task", "passdesk"), ("reason", "Restart within policy"),
                                           ("delay", f"{d:.9f}s")])))
            ev(k + sec(0.21), new, "passdesk", "Restarting", f"Task restarting in {d:.9f}s")
            logger_start(k + sec(d + 0.3))
            t2 = container(k + sec(d + 0.31), 450)
            ev(t2, new, "passdesk", "Started", "Task started by client")
        else:
            why = 'Exceeded allowed attempts 5 in interval 30m0s and mode is "fail"'
            L.append((k + sec(0.2), hclog(k + sec(0.2), "INFO", TR, "not restarting task",
                                          [("alloc_id", new), ("task", "passdesk"), ("reason", why)])))
            ev(k + sec(0.21), new, "passdesk", "Not Restarting", why, failed=True)
            L.append((k + sec(0.3), hclog(k + sec(0.3), "INFO", "client.gc", "marking allocation for GC",
                                          [("alloc_id", new)])))
    # the alertmanager allocation on the same node
    am = ids["am"]
    ev(AM_KILL, am, "alertmanager", "Terminated", 'Exit Code: 137, Exit Message: "OOM Killed"')
    logger_exit(AM_KILL + sec(0.05))
    L.append((AM_KILL + sec(0.2), hclog(AM_KILL + sec(0.2), "INFO", TR, "restarting task",
                                        [("alloc_id", am), ("task", "alertmanager"), ("reason", "Restart within policy"),
                                         ("delay", "2m15.874303052s")])))
    ev(AM_KILL + sec(0.21), am, "alertmanager", "Restarting", "Task restarting in 2m15.874303052s")
    logger_start(AM_STARTED - sec(0.5))
    t2 = container(AM_STARTED - sec(0.49), 480)
    ev(AM_STARTED, am, "alertmanager", "Started", "Task started by client")
    # the revert to 2.13.4
    rv = ids["revert"]
    start_alloc(REVERT_RECEIVED, rv, "passdesk", "registry.gullwing.example/passdesk:2.13.4")
    logger_start(REVERT_STARTED - sec(0.6))
    container(REVERT_STARTED - sec(0.59), 580)
    ev(REVERT_STARTED + sec(0.001), rv, "passdesk", "Started", "Task started by client")
    L.append((T(3, 0, 4, 512000), hclog(T(3, 0, 4, 512000), "INFO", "client.gc", "garbage collecting allocation",
                                        [("alloc_id", new), ("reason", "forced collection")])))
    L.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in L)


# ================================================================= 5. Airflow scheduler (af-sched-1)
def af_ts(t):
    return f"[{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}+0000]"


def af_dt(t):
    return f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond:06d}+00:00"


SITE = "/home/airflow/.local/lib/python3.11/site-packages"


def airflow_log(rng):
    P = plan()
    L = []
    job = [48100]

    def log(t, src, lvl, msg):
        L.append((t, len(L), f"{af_ts(t)} {{{src}}} {lvl} - {msg}"))

    def key(dag, task, run_id, tr):
        return (f"TaskInstanceKey(dag_id='{dag}', task_id='{task}', run_id='{run_id}', try_number={tr}, "
                f"map_index=-1)")

    def ti(dag, task, run_id, state):
        return f"<TaskInstance: {dag}.{task} {run_id} [{state}]>"

    def task_run(dag, task, run_id, q, start, end, state, tr=1, max_tries=0, op="PythonOperator", prio=1, tb=None,
                 err=None, logical=None):
        """One try of one task, as the scheduler (and the LocalExecutor's task runner) log it."""
        job[0] += rng.randrange(1, 4)
        pid = rng.randrange(3000, 65000)
        log(q, "scheduler_job_runner.py:414", "INFO", f"1 tasks up for execution:\n\t{ti(dag, task, run_id, 'scheduled')}")
        log(q, "scheduler_job_runner.py:477", "INFO", f"DAG {dag} has 0/16 running and queued tasks")
        log(q + sec(0.002), "scheduler_job_runner.py:593", "INFO",
            f"Setting the following tasks to queued state:\n\t{ti(dag, task, run_id, 'scheduled')}")
        log(q + sec(0.004), "scheduler_job_runner.py:636", "INFO",
            f"Sending {key(dag, task, run_id, tr)} to executor with priority {prio} and queue default")
        log(start, "task_command.py:415", "INFO", f"Running {ti(dag, task, run_id, 'queued')} on host af-sched-1")
        fin = end + sec(rng.uniform(0.5, 0.9))
        if state != "success":
            ex = logical.strftime("%Y%m%dT%H%M%S")
            log(end - sec(0.002), "taskinstance.py:1937", "ERROR", "Task failed with exception\n" + tb)
            mark = "UP_FOR_RETRY" if state == "up_for_retry" else "FAILED"
            log(end, "taskinstance.py:1400", "INFO",
                f"Marking task as {mark}. dag_id={dag}, task_id={task}, execution_date={ex}, "
                f"start_date={start:%Y%m%dT%H%M%S}, end_date={end:%Y%m%dT%H%M%S}")
            log(end + sec(0.01), "standard_task_runner.py:104", "ERROR",
                f"Failed to execute job {job[0]} for task {task} ({err}; {pid})")
            log(end + sec(0.08), "local_task_job_runner.py:228", "INFO", "Task exited with return code 1")
            ex_state = "failed"
        else:
            ex_state = "success"
        log(fin, "scheduler_job_runner.py:686", "INFO",
            f"Received executor event with state {ex_state} for task instance {key(dag, task, run_id, tr)}")
        dur = (end - start).total_seconds()
        log(fin + sec(0.003), "scheduler_job_runner.py:723", "INFO",
            f"TaskInstance Finished: dag_id={dag}, task_id={task}, run_id={run_id}, map_index=-1, "
            f"run_start_date={af_dt(start)}, run_end_date={af_dt(end)}, run_duration={dur:.6f}, state={state}, "
            f"executor_state={ex_state}, try_number={tr}, max_tries={max_tries}, job_id={job[0]}, pool=default_pool, "
            f"queue=default, priority_weight={prio}, operator={op}, queued_dttm={af_dt(q)}, "
            f"queued_by_job_id=47002, pid={pid}")
        return fin

    def dagrun(dag, logical, run_id, queued, started, finished, state, interval_end):
        word = "successful" if state == "success" else "failed"
        lvl = "INFO" if state == "success" else "ERROR"
        src = "dagrun.py:653" if state == "success" else "dagrun.py:630"
        log(finished, src, lvl,
            f"Marking run <DagRun {dag} @ {logical:%Y-%m-%d %H:%M:%S}+00:00: {run_id}, state:running, "
            f"queued_at: {af_dt(queued)}. externally triggered: False> {word}")
        log(finished + sec(0.001), "dagrun.py:704", "INFO",
            f"DagRun Finished: dag_id={dag}, execution_date={logical:%Y-%m-%d %H:%M:%S}+00:00, run_id={run_id}, "
            f"run_start_date={af_dt(started)}, run_end_date={af_dt(finished)}, "
            f"run_duration={(finished - started).total_seconds():.6f}, state={state}, external_trigger=False, "
            f"run_type=scheduled, data_interval_start={logical:%Y-%m-%d %H:%M:%S}+00:00, "
            f"data_interval_end={interval_end:%Y-%m-%d %H:%M:%S}+00:00, dag_hash={rng.getrandbits(128):032x}")

    def rid(logical):
        return f"scheduled__{logical:%Y-%m-%dT%H:%M:%S}+00:00"

    def tb_http(code, reason, url):
        return (f"Traceback (most recent call last):\n"
                f'  File "{SITE}/airflow/operators/python.py", line 192, in execute\n'
                f"    return_value = self.execute_callable()\n"
                f"                   ^^^^^^^^^^^^^^^^^^^^^^^\n"
                f'  File "{SITE}/airflow/operators/python.py", line 209, in execute_callable\n'
                f"    return self.python_callable(*self.op_args, **self.op_kwargs)\n"
                f"           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
                f'  File "/opt/airflow/dags/turnstile_sync.py", line 41, in pull_scans\n'
                f"    resp.raise_for_status()\n"
                f'  File "{SITE}/requests/models.py", line 1021, in raise_for_status\n'
                f"    raise HTTPError(http_error_msg, response=self)\n"
                f"requests.exceptions.HTTPError: {code} Server Error: {reason} for url: {url}")

    def tb_conn(url_path, kind):
        if kind == "refused":
            why = ("Max retries exceeded with url: " + url_path + " (Caused by NewConnectionError('<urllib3.connection."
                   f"HTTPConnection object at 0x7f{rng.getrandbits(40):010x}>: Failed to establish a new connection: "
                   "[Errno 111] Connection refused'))")
            exc = "requests.exceptions.ConnectionError"
        else:
            why = "Read timed out. (read timeout=20)"
            exc = "requests.exceptions.ReadTimeout"
        return (f"Traceback (most recent call last):\n"
                f'  File "{SITE}/airflow/operators/python.py", line 192, in execute\n'
                f"    return_value = self.execute_callable()\n"
                f"                   ^^^^^^^^^^^^^^^^^^^^^^^\n"
                f'  File "/opt/airflow/dags/turnstile_sync.py", line 39, in pull_scans\n'
                f"    resp = session.get(url, params={{\"since\": since}}, timeout=20)\n"
                f"           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
                f'  File "{SITE}/requests/adapters.py", line {519 if kind == "refused" else 532}, in send\n'
                f"    raise {'ConnectionError' if kind == 'refused' else 'ReadTimeout'}(e, request=request)\n"
                f"{exc}: HTTPConnectionPool(host='passdesk.service.consul', port=8080): {why}"), \
            f"HTTPConnectionPool(host='passdesk.service.consul', port=8080): {why}"

    # ---------------------------------------------------------------- turnstile_sync, every minute
    for run in P["runs"]:
        m = run["m"]
        logical = m - timedelta(minutes=1)
        run_id = rid(logical)
        queued = m + timedelta(microseconds=rng.randrange(280000, 420000))
        log(queued - sec(0.05), "dag.py:3754", "INFO",
            f"Setting next_dagrun for turnstile_sync to {m:%Y-%m-%dT%H:%M:%S}+00:00, "
            f"run_after={m + timedelta(minutes=1):%Y-%m-%dT%H:%M:%S}+00:00")
        start = run["pull"] - timedelta(microseconds=rng.randrange(30000, 60000))
        since = logical.strftime("%Y-%m-%dT%H:%M:%SZ")
        path = f"/passdesk/api/gate/scans/export?since={since}"
        url = f"http://passdesk.service.consul:8080{path}"
        if run["fail"] is None:
            end = start + timedelta(microseconds=run["dur_us"])
            fin = task_run("turnstile_sync", "pull_scans", run_id, queued, start, end, "success", prio=2)
            q2 = fin + sec(0.3)
            s2 = q2 + sec(rng.uniform(1.4, 2.0))
            e2 = s2 + sec(rng.uniform(1.2, 4.5))
            fin = task_run("turnstile_sync", "load_scans", run_id, q2, s2, e2, "success",
                           op="PostgresOperator")
            dagrun("turnstile_sync", logical, run_id, m + sec(0.3), m + sec(0.31), fin + sec(0.2), "success", m)
        else:
            how = run["fail"]
            if how in (503, 500):
                end = run["pull"] + timedelta(microseconds=rng.randrange(15000, 900000 if how == 500 else 40000))
                reason = "Service Unavailable" if how == 503 else "Internal Server Error"
                tb = tb_http(how, reason, url)
                err = f"{how} Server Error: {reason} for url: {url}"
            elif how == "refused":
                end = run["pull"] + timedelta(microseconds=rng.randrange(2000, 9000))
                tb, err = tb_conn(path, "refused")
            else:
                end = run["pull"] + sec(20) + timedelta(microseconds=rng.randrange(2000, 60000))
                tb, err = tb_conn(path, "timeout")
            fin = task_run("turnstile_sync", "pull_scans", run_id, queued, start, end, "failed", prio=2, tb=tb,
                           err=err, logical=logical)
            dagrun("turnstile_sync", logical, run_id, m + sec(0.3), m + sec(0.31), fin + sec(0.2), "failed", m)

    # ---------------------------------------------------------------- ldap_svc_rotate (daily, 01:10)
    logical = T(1, 10) - timedelta(days=1)
    run_id = rid(logical)
    q = T(1, 10, 0, 311000)
    fin = task_run("ldap_svc_rotate", "set_new_password", run_id, q, T(1, 10, 18, 902000), T(1, 10, 22, 455000),
                   "success", max_tries=0, prio=3)
    url = "https://nomad.gullwing.example:4646/v1/var/nomad/jobs/passdesk"
    tb = (f"Traceback (most recent call last):\n"
          f'  File "{SITE}/airflow/operators/python.py", line 192, in execute\n'
          f"    return_value = self.execute_callable()\n"
          f"                   ^^^^^^^^^^^^^^^^^^^^^^^\n"
          f'  File "/opt/airflow/dags/ldap_svc_rotate.py", line 77, in push_nomad_var\n'
          f"    r.raise_for_status()\n"
          f'  File "{SITE}/requests/models.py", line 1021, in raise_for_status\n'
          f"    raise HTTPError(http_error_msg, response=self)\n"
          f"requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: {url}")
    err = f"403 Client Error: Forbidden for url: {url}"
    for i, (s_, e_) in enumerate(PUSH_TRIES):
        q = (fin + sec(0.4)) if i == 0 else s_ - sec(1.8)
        state = "up_for_retry" if i < 2 else "failed"
        fin = task_run("ldap_svc_rotate", "push_nomad_var", run_id, q, s_, e_, state, tr=i + 1, max_tries=2, prio=2,
                       tb=tb, err=err, logical=logical)
    dagrun("ldap_svc_rotate", logical, run_id, T(1, 10, 0, 200000), T(1, 10, 0, 210000), fin + sec(0.3), "failed",
           T(1, 10))

    # ---------------------------------------------------------------- pass_ledger_export (hourly, :05)
    for h in range(4):
        m = T(h, 5)
        logical = m - timedelta(hours=1)
        run_id = rid(logical)
        q = m + sec(0.35)
        t = q
        for task, lo, hi, op in (("extract_orders", 8, 19, "PostgresOperator"), ("export_to_dwh", 44, 97, "PythonOperator"),
                                 ("notify_finance", 1, 3, "EmailOperator")):
            s_ = t + sec(rng.uniform(1.3, 2.2))
            e_ = s_ + sec(rng.uniform(lo, hi))
            t = task_run("pass_ledger_export", task, run_id, t, s_, e_, "success", op=op, max_tries=2) + sec(0.4)
        dagrun("pass_ledger_export", logical, run_id, m + sec(0.3), m + sec(0.31), t, "success", m)

    # ---------------------------------------------------------------- snow_report_publish (every 15 min)
    for k in range(16):
        m = D0 + timedelta(minutes=15 * k + 1)
        logical = m - timedelta(minutes=15)
        run_id = rid(logical)
        t = m + sec(0.4)
        for task, lo, hi in (("fetch_stations", 3, 9), ("render_report", 1, 4), ("publish", 0.4, 1.5)):
            s_ = t + sec(rng.uniform(1.3, 2.2))
            e_ = s_ + sec(rng.uniform(lo, hi))
            t = task_run("snow_report_publish", task, run_id, t, s_, e_, "success", max_tries=1) + sec(0.4)
        dagrun("snow_report_publish", logical, run_id, m + sec(0.3), m + sec(0.31), t, "success", m)

    # ---------------------------------------------------------------- metrics_archive (hourly, :35)
    for h in range(4):
        m = T(h, 35)
        logical = m - timedelta(hours=1)
        run_id = rid(logical)
        q = m + sec(0.33)
        s_ = q + sec(1.6)
        if h < 3:
            e_ = s_ + sec(rng.uniform(21, 38))
            t = task_run("metrics_archive", "export_mimir", run_id, q, s_, e_, "success", max_tries=1) + sec(0.3)
            dagrun("metrics_archive", logical, run_id, m + sec(0.3), m + sec(0.31), t, "success", m)
        else:
            tbm = (f"Traceback (most recent call last):\n"
                   f'  File "{SITE}/airflow/operators/python.py", line 192, in execute\n'
                   f"    return_value = self.execute_callable()\n"
                   f"                   ^^^^^^^^^^^^^^^^^^^^^^^\n"
                   f'  File "/opt/airflow/dags/metrics_archive.py", line 58, in export_mimir\n'
                   f"    resp = requests.get(MIMIR_QUERY_RANGE, params=q, timeout=60)\n"
                   f"           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
                   f'  File "{SITE}/requests/adapters.py", line 532, in send\n'
                   f"    raise ReadTimeout(e, request=request)\n"
                   f"requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='mimir-gw.gullwing.example', "
                   f"port=443): Read timed out. (read timeout=60)")
            errm = "HTTPSConnectionPool(host='mimir-gw.gullwing.example', port=443): Read timed out. (read timeout=60)"
            s_ = ARCHIVE_FAIL - sec(60.004)
            t = task_run("metrics_archive", "export_mimir", run_id, q, s_, ARCHIVE_FAIL, "up_for_retry", max_tries=1,
                         tb=tbm, err=errm, logical=logical)
            s2 = ARCHIVE_FAIL + sec(600 + 1.7)
            e2 = s2 + sec(60.003)
            t = task_run("metrics_archive", "export_mimir", run_id, s2 - sec(1.6), s2, e2, "failed", tr=2,
                         max_tries=1, tb=tbm, err=errm, logical=logical)
            dagrun("metrics_archive", logical, run_id, m + sec(0.3), m + sec(0.31), t + sec(0.2), "failed", m)

    # ---------------------------------------------------------------- housekeeping
    t = D0 + sec(14.2)
    while t < END:
        log(t, "scheduler_job_runner.py:1586", "INFO", "Adopting or resetting orphaned tasks for active dag runs")
        t = t + sec(300)
    L.sort(key=lambda x: (x[0], x[1]))
    return "".join(line + "\n" for _, _, line in L)


# ================================================================= 6. Prometheus server (mon-1), logfmt
def prom_log(rng):
    L = []

    def q(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    def blk(ms=None):
        """A block ULID: 48-bit milliseconds and 80 random bits in Crockford base32."""
        ms = ms if ms is not None else int((T(1, 0) - datetime(1970, 1, 1)).total_seconds() * 1000)
        x = (ms << 80) | rng.getrandbits(80)
        abc = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
        return "".join(abc[(x >> (5 * i)) & 31] for i in range(25, -1, -1))

    def line(t, caller, level, comp, msg, pairs, at=0):
        """`msg` goes where the Go code puts it: `at` pairs after the logger's own context."""
        ts = f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z"
        pairs = list(pairs)
        pairs.insert(at, ("msg", msg))
        kv = "".join(f" {k}={v}" for k, v in pairs)
        L.append((t, f"ts={ts} caller={caller} level={level} component={comp}{kv}"))

    # head compaction and WAL checkpoints every two hours, head GC
    for h in (1, 3):
        t = T(h, 0, 3, rng.randrange(0, 999000))
        mint = int((T(h, 0) - timedelta(hours=3) - datetime(1970, 1, 1)).total_seconds() * 1000)
        line(t, "compact.go:523", "info", "tsdb", q("write block"),
             [("mint", mint), ("maxt", mint + 7200000), ("ulid", blk(int((t - datetime(1970, 1, 1)).total_seconds() * 1000))),
              ("duration", f"{rng.uniform(2.1, 4.4):.9f}s"),
              ("ooo", "false")])
        t = t + sec(rng.uniform(0.3, 0.9))
        line(t, "head.go:1293", "info", "tsdb", q("Head GC completed"),
             [("caller", "truncateMemory"), ("duration", f"{rng.uniform(90, 240):.6f}ms")])
        t = t + sec(0.01)
        line(t, "checkpoint.go:100", "info", "tsdb", q("Creating checkpoint"),
             [("from_segment", 2211 + h * 3), ("to_segment", 2213 + h * 3), ("mint", mint + 7200000)])
        t = t + sec(rng.uniform(1.5, 3.0))
        line(t, "head.go:1261", "info", "tsdb", q("WAL checkpoint complete"),
             [("first", 2211 + h * 3), ("last", 2213 + h * 3), ("duration", f"{rng.uniform(1.5, 3.0):.9f}s")])
        if h == 3:
            t = t + sec(rng.uniform(3, 8))
            line(t, "compact.go:464", "info", "tsdb", q("compact blocks"),
                 [("count", 3), ("mint", mint - 14400000), ("maxt", mint + 7200000), ("ulid", blk()),
                  ("sources", q(f"[{blk()} {blk()} {blk()}]")), ("duration", f"{rng.uniform(5, 9):.9f}s")])
            t = t + sec(0.4)
            for _ in range(3):
                line(t, "db.go:1620", "info", "tsdb", q("Deleting obsolete block"), [("block", blk())])
    # out-of-order / too-old samples from the nomad clients' metrics
    for t in sorted(D0 + sec(rng.uniform(0, 14400)) for _ in range(23)):
        t = t.replace(microsecond=rng.randrange(0, 999000))
        which = rng.random() < 0.6
        line(t, "scrape.go:1754" if which else "scrape.go:1750", "warn", '"scrape manager"',
             q("Error on ingesting out-of-order samples" if which else
               "Error on ingesting samples that are too old or are too far into the future"),
             [("scrape_pool", "nomad-clients"),
              ("target", q(f"http://10.40.3.{rng.choice([15, 16, 17, 18])}:4646/v1/metrics?format=prometheus")),
              ("num_dropped", rng.randrange(2, 40))], at=2)
    # 2.14.0 exports its request counter twice: the SLO recording rule fails every 30 s
    rule = ("record: passdesk:http_errors:rate5m\nexpr: sum by (instance, route) (rate(passdesk_http_requests_total"
            "{status=~\"5..\"}[5m]))\n  / on (instance, route) group_left () sum by (instance, route) "
            "(rate(passdesk_http_requests_total[5m]))\n")
    t = RULE_FAIL_FIRST
    while t <= RULE_FAIL_LAST:
        line(t, "manager.go:663", "warn", '"rule manager"', q("Evaluating rule failed"),
             [("file", "/etc/prometheus/rules/passdesk.yml"), ("group", "passdesk.slo"),
              ("name", "passdesk:http_errors:rate5m"), ("index", 2), ("rule", q(rule)),
              ("err", q("found duplicate series for the match group {instance=\"10.40.3.17:28417\", "
                        "route=\"/passdesk/api/checkout\"} on the right hand-side of the operation: "
                        "[{instance=\"10.40.3.17:28417\", job=\"passdesk\", route=\"/passdesk/api/checkout\"}, "
                        "{instance=\"10.40.3.17:28417\", job=\"passdesk\", route=\"/passdesk/api/checkout\"}];"
                        "many-to-many matching not allowed: matching labels must be unique on one side"))], at=4)
        t = t + sec(30)
    # heavy dashboard queries during the incident time out the nomad alert rules
    arule = ("alert: NomadAllocRestarting\nexpr: increase(nomad_client_allocs_restart[10m]) > 2\nfor: 2m\n"
             "labels:\n  severity: page\n")
    for t in [T(2, 36, 17), T(2, 37, 17), T(2, 39, 17), T(2, 40, 17), T(2, 41, 17), T(2, 43, 17), T(2, 44, 17),
              T(2, 47, 17), T(2, 48, 17), T(2, 50, 17), T(2, 51, 17), T(2, 53, 17)]:
        t = t.replace(microsecond=rng.randrange(800000, 999000))
        line(t, "manager.go:663", "warn", '"rule manager"', q("Evaluating rule failed"),
             [("file", "/etc/prometheus/rules/nomad.yml"), ("group", "nomad.alerts"), ("name", "NomadAllocRestarting"),
              ("index", 0), ("rule", q(arule)), ("err", q("query timed out in expression evaluation"))], at=4)
    for t in [T(0, 44, 51), T(1, 29, 21), T(3, 3, 51), T(3, 41, 21)]:
        t = t.replace(microsecond=rng.randrange(0, 999000))
        line(t, "manager.go:663", "warn", '"rule manager"', q("Evaluating rule failed"),
             [("file", "/etc/prometheus/rules/edge.yml"), ("group", "edge.alerts"), ("name", "EdgeUpstreamSlow"),
              ("index", 1), ("rule", q("alert: EdgeUpstreamSlow\nexpr: histogram_quantile(0.95, sum by (le) "
                                        "(rate(nginx_upstream_time_seconds_bucket[5m]))) > 2\nfor: 5m\n")),
              ("err", q("expanding series: context canceled"))], at=4)
    # alertmanager down (its allocation was OOM-killed on nmd-c3)
    t = AM_ERR[0].replace(microsecond=288000)
    while t <= AM_ERR[1]:
        am = "http://10.40.3.17:9093/api/v2/alerts"
        line(t, "notifier.go:530", "error", "notifier", q("Error sending alert"),
             [("alertmanager", am), ("count", rng.randrange(1, 5)),
              ("err", q(f'Post "{am}": dial tcp 10.40.3.17:9093: connect: connection refused'))], at=2)
        t = t + sec(rng.uniform(2.5, 5.5))
        if t > AM_ERR[1] and L[-1][0] < AM_ERR[1]:
            t = AM_ERR[1].replace(microsecond=rng.randrange(100000, 900000))
    # remote write to mimir stalls after 03:31
    url = "https://mimir-gw.gullwing.example/api/v1/push"
    t = RW_FIRST
    for i in range(RW_N):
        ts = f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z"
        L.append((t, f"ts={ts} caller=dedupe.go:112 component=remote level=warn remote_name=8c1f2a url={url} "
                     f"msg={q('Failed to send batch, retrying')} "
                     f"err={q('Post ' + chr(34) + url + chr(34) + ': context deadline exceeded')}"))
        t = t + sec(rng.uniform(4.4, 11.0))
    t = T(3, 34, 40, 118000)
    L.append((t, f"ts={t:%Y-%m-%dT%H:%M:%S}.118Z caller=dedupe.go:112 component=remote level=info remote_name=8c1f2a "
                 f"url={url} msg={q('Remote storage resharding')} from=4 to=9"))
    t = T(3, 51, 2, 640000)
    L.append((t, f"ts={t:%Y-%m-%dT%H:%M:%S}.640Z caller=dedupe.go:112 component=remote level=info remote_name=8c1f2a "
                 f"url={url} msg={q('Remote storage resharding')} from=9 to=4"))
    L.sort(key=lambda x: x[0])
    return "".join(line_ + "\n" for _, line_ in L)


# ================================================================= 7. Grafana (mon-1), logfmt
def gf_t(t, nanos):
    frac = f"{t.microsecond:06d}{nanos:03d}".rstrip("0")
    return f"{t:%Y-%m-%dT%H:%M:%S}" + (f".{frac}" if frac else "") + "Z"


def go_dur(us):
    """Go's time.Duration.String() for a microsecond count (with a few nanoseconds)."""
    ns = us * 1000 + 317
    if ns < 1_000_000:
        return f"{ns / 1000:.3f}".rstrip("0").rstrip(".") + "µs"
    if ns < 1_000_000_000:
        return f"{ns / 1_000_000:.6f}".rstrip("0").rstrip(".") + "ms"
    return f"{ns / 1_000_000_000:.9f}".rstrip("0").rstrip(".") + "s"


GF_USERS = {"svc-kiosk-wall": (7, "10.40.9.200"), "hbrunner": (3, "10.40.9.31"), "ldesmet": (5, "10.40.9.44"),
            "jfurrer": (9, "10.40.9.52"), "akaiser": (11, "10.40.9.61"), "mkoller": (4, "10.40.9.38"),
            "abichler": (12, "10.40.9.70"), "tstadler": (14, "10.40.9.73")}
DASHES = [("pd-jvm", "passdesk-jvm"), ("pd-http", "passdesk-http"), ("edge-ngx", "edge-nginx"),
          ("nomad-c", "nomad-clients"), ("ldap-ov", "ldap-overview")]


def grafana_log(rng):
    P = plan()
    L = []

    def req(t, user, method, path, status, ms, size, remote=None, referer="", handler=None):
        uid, ip = GF_USERS.get(user, (0, None))
        org = 1 if user else 0
        lvl = "error" if status >= 500 else "info"
        ref = f'"{referer}"' if referer and ("=" in referer or " " in referer) else referer
        us = ms * 1000 + rng.randrange(0, 999)
        L.append((t, f"logger=context userId={uid} orgId={org} uname={user} t={gf_t(t, rng.randrange(1, 999))} "
                     f"level={lvl} msg=\"Request Completed\" method={method} path={path} status={status} "
                     f"remote_addr={remote or ip} time_ms={ms} duration={go_dur(us)} size={size} referer={ref} "
                     f"handler={handler or path}" + (" status_source=downstream" if status >= 500 else "")))

    def other(t, logger, lvl, msg, kv=""):
        L.append((t, f"logger={logger} t={gf_t(t, rng.randrange(1, 999))} level={lvl} msg={msg}{kv}"))

    def dash_ref(d):
        return f"https://grafana.gullwing.example/d/{d[0]}/{d[1]}?orgId=1&refresh=30s"

    # the wall kiosk: one dashboard, 4 panels every 60 s
    t = D0 + sec(3.1)
    while t < END:
        for p in range(4):
            tt = t + timedelta(microseconds=rng.randrange(5000, 90000) + 40000 * p)
            req(tt, "svc-kiosk-wall", "POST", "/api/ds/query", 200, rng.randrange(18, 160), rng.randrange(2400, 9800),
                referer=dash_ref(DASHES[2]) + "&kiosk", handler="/api/ds/query")
        t = t + sec(60)
    # on-call people clicking around
    sessions = {"hbrunner": [(T(0, 4), T(0, 40)), (T(1, 12), T(1, 58)), (T(2, 22), T(3, 30))],
                "ldesmet": [(T(0, 58), T(1, 20)), (T(2, 30), T(3, 25))],
                "jfurrer": [(T(2, 33), T(3, 5))], "akaiser": [(T(2, 34), T(2, 58))],
                "mkoller": [(T(0, 32), T(0, 50)), (T(3, 29), T(3, 41))], "abichler": [(T(2, 10), T(2, 20))],
                "tstadler": [(T(3, 28), T(3, 36))]}
    rates = {"hbrunner": 4.5, "ldesmet": 7.0, "jfurrer": 4.9, "akaiser": 3.2, "mkoller": 3.0, "abichler": 3.3,
             "tstadler": 2.5}
    dash_req = []
    for user, spans in sessions.items():
        for a, b in spans:
            for t in poisson_times(rng, rates[user], a, b):
                d = rng.choice(DASHES)
                x = rng.random()
                if x < 0.08:
                    dash_req.append((t, user))
                    req(t, user, "GET", f"/api/dashboards/uid/{d[0]}", 200, rng.randrange(21, 380), rng.randrange(31000, 88000),
                        referer=dash_ref(d), handler="/api/dashboards/uid/:uid")
                elif x < 0.13:
                    req(t, user, "GET", "/api/search", 200, rng.randrange(4, 40), rng.randrange(900, 4000),
                        referer="https://grafana.gullwing.example/dashboards", handler="/api/search")
                elif x < 0.16:
                    req(t, user, "GET", "/api/annotations", 200, rng.randrange(3, 30), rng.randrange(700, 3000),
                        referer=dash_ref(d), handler="/api/annotations")
                else:
                    st = 200
                    ms = rng.randrange(20, 900)
                    if T(2, 31) <= t < T(2, 57) and rng.random() < 0.055:
                        st, ms = 500, rng.randrange(30000, 30090)
                    req(t, user, "POST", "/api/ds/query", st, ms, rng.randrange(900, 60000) if st == 200 else 98,
                        referer=dash_ref(d), handler="/api/ds/query")
    # the 02:47 burst of timed-out panel queries (everyone reloading passdesk-jvm)
    for j in range(14):
        t = GF_500_PEAK + sec(rng.uniform(1, 58))
        user = ["hbrunner", "ldesmet", "jfurrer", "akaiser"][j % 4]
        req(t, user, "POST", "/api/ds/query", 500, rng.randrange(30000, 30090), 98, referer=dash_ref(DASHES[0]),
            handler="/api/ds/query")
    # scattered 500s elsewhere in the night
    for t in [T(0, 12, 40), T(1, 36, 8), T(1, 36, 9), T(2, 13, 33), T(3, 16, 2), T(3, 45, 30)]:
        user = "hbrunner" if t.hour != 3 else "mkoller"
        if t.hour == 3 and t.minute < 20:
            user = "ldesmet"
        req(t + timedelta(microseconds=rng.randrange(0, 900000)), user, "POST", "/api/ds/query", 500,
            rng.randrange(1200, 3000), 112, referer=dash_ref(DASHES[3]), handler="/api/ds/query")
    # one very slow dashboard load during the incident
    t = T(2, 37, 14, 418000)
    req(t, "ldesmet", "GET", "/api/dashboards/uid/pd-jvm", 200, DASH_MAX_MS, 90417, referer=dash_ref(DASHES[0]),
        handler="/api/dashboards/uid/:uid")
    # grafana-managed alert evaluation failing against prometheus during the incident
    for m in range(36, 55):
        for uid, sec_, ver in (("f3a9c2de", 40, 7), ("b71e04aa", 10, 3)):
            t = T(2, m, sec_, rng.randrange(100000, 900000))
            other(t, "ngalert.scheduler", "error", '"Failed to evaluate rule"',
                  f' rule_uid={uid} org_id=1 version={ver} attempt=1 now={T(2, m, sec_) - sec(30):%Y-%m-%dT%H:%M:%SZ} '
                  f'error="failed to execute query A: context deadline exceeded" duration={go_dur(30001000 + sec_)}')
    # health checks (unauthenticated)
    t = D0 + sec(27.5)
    while t < END:
        req(t, "", "GET", "/api/health", 200, 0 if rng.random() < 0.7 else 1, 70, remote=BLACKBOX, handler="/api/health")
        t = t + sec(60)
    # logins (LDAP): successful and failed
    for t, user, ok, kind in P["grafana_logins"]:
        ip = GF_USERS.get(user, (0, SPRAY_IP))[1] if kind == "user" else SPRAY_IP
        if kind == "user":
            req(t - sec(2.5), "", "GET", "/login", 200, rng.randrange(2, 9), 34120, remote=ip, handler="/login")
        end = t + sec(rng.uniform(0.03, 0.09))
        if ok:
            req(end, "", "POST", "/login", 200, rng.randrange(60, 140), 58, remote=ip,
                referer="https://grafana.gullwing.example/login", handler="/login")
            other(end + sec(0.001), "authn.service", "info", '"Successful authentication"',
                  f' client=auth.client.form userId={GF_USERS[user][0]} orgId=1 uname={user}')
        else:
            other(end - sec(0.001), "authn.service", "warn", '"Failed to authenticate request"',
                  ' client=auth.client.form error="[password-auth.failed] failed to authenticate identity: '
                  '[ldap.invalid-credentials] invalid username or password"')
            req(end, "", "POST", "/login", 401, rng.randrange(60, 140), 42, remote=ip,
                referer="https://grafana.gullwing.example/login" if kind == "user" else "", handler="/login")
    # background services
    t = D0 + sec(301.2)
    while t < END:
        other(t, "cleanup", "info", '"Completed cleanup jobs"', f" duration={go_dur(rng.randrange(9000, 40000))}")
        other(t + sec(0.8), "grafana.update.checker", "info", '"Update check succeeded"',
              f" duration={go_dur(rng.randrange(90000, 300000))}")
        other(t + sec(0.9), "plugins.update.checker", "info", '"Update check succeeded"',
              f" duration={go_dur(rng.randrange(80000, 260000))}")
        t = t + sec(600)
    for t in sorted(D0 + sec(rng.uniform(0, 14400)) for _ in range(9)):
        other(t, "sqlstore.transactions", "info", '"Database locked, sleeping then retrying"',
              ' error="database is locked" retry=0 code="database is locked"')
    L.sort(key=lambda x: x[0])
    return "".join(line + "\n" for _, line in L)
