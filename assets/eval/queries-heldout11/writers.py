"""Writers of the `queries-heldout11` fixtures: six logs of one night at Cobaltreef Esports
(the matchmaking and ladder backend of the game *Shardfall*), 2036-10-23 01:00-04:30 UTC.

Each writer takes its own seeded `random.Random` and returns the file's text. The night's
cross-file schedule (the incidents, the operators' actions, the rolling restart) is fixed at
the top of this module, so the same minute reads the same in every log that saw it. Nothing
here computes an answer: `truth.py` parses the written text back, and `gen.py` checks it.
"""

import random
import re
from datetime import datetime, timedelta

DAY = datetime(2036, 10, 23)


def T(h, m, s=0, ms=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, milliseconds=ms, microseconds=us)


START, END = T(1, 0), T(4, 30)

# ------------------------------------------------------------------ hosts and addresses
GW = "10.61.0.13"
MM = {"mm-5": "10.61.4.15", "mm-6": "10.61.4.16", "mm-7": "10.61.4.17"}
LADDERD = ["10.61.5.31", "10.61.5.32"]
TELEMETRY = "10.61.6.40:8081"
STORE = "10.61.6.44:8082"
NATS_URL = "nats://10.61.2.11:4222"
JUMP = "10.61.0.5"

# ------------------------------------------------------------------ the night's schedule
# 01:26 ZooKeeper: the leader zk-3 stalls, zk-2 stops following, is elected, expires the
# sessions that were on zk-3; ladderd loses its locks and Envoy has no healthy ladder host.
ZK_EXC = T(1, 26, 4, 218)
ZK_LEADING = T(1, 26, 4, 452)
ZK_ELECTION_MS = 234
ENV_UH_FIRST = T(1, 26, 11, 304)
ZK_EXPIRE_FIRST = T(1, 26, 35, 12)
ZK_EXPIRE_BURST = 43
ZK_LADDER_1 = T(1, 27, 52, 140)
ZK_LADDER_BACK = T(1, 28, 37, 515)
ENV_UH_LAST = T(1, 28, 44, 87)
UH_PER_MINUTE = {26: 38, 27: 66, 28: 41}

# 02:13 etcd: r.okafor runs `etcdctl defrag` against etcd-b (the raft leader) from jump-2.
AUTH_OKAFOR_LOGIN = T(2, 9, 36, 402, 611)
AUTH_SUDO_DEFRAG = T(2, 13, 48, 240, 318)
ETCD_DEFRAG_START = T(2, 13, 49, 102, 417)
ETCD_FIRST_HB = T(2, 13, 50, 114, 806)
ENV_504_FIRST = T(2, 13, 50, 27)
ETCD_LOST_LEADER = T(2, 13, 52, 318, 92)
ETCD_ELECTED = T(2, 13, 52, 406, 733)
MATCHD_FIRST_KEEPALIVE = T(2, 13, 53, 221)
MATCHD_FIRST_ENQ_FAIL = T(2, 13, 54, 7)
ETCD_DEFRAG_DONE = T(2, 14, 0, 851, 293)
MATCHD_LAST_ENQ_FAIL = T(2, 14, 3, 418)
ENV_504_LAST = T(2, 14, 5, 563)
ENV_504_WINDOW = 84
ENQ_FAIL_N = 64

# 02:41 the rolling restart of matchd, run by m.ishikawa with ansible from jump-2.
AUTH_SUDO_ANSIBLE = T(2, 41, 27, 833, 571)
RESTART = {"mm-5": T(2, 42, 4, 310), "mm-6": T(2, 42, 36, 902), "mm-7": T(2, 43, 10, 146)}
MATCHD_START = T(2, 43, 27, 554)

# 03:00 the Autumn Clash qualifier opens; 03:07 NATS cuts matchd and the game servers off as
# slow consumers; mm-7 loses lobby events and serves "lobby state missing" until a resync.
MATCHD_TOURNAMENT = T(3, 0, 0, 12)
NATS_READLOOP_MAX = T(3, 7, 5, 377, 604)
MATCHD_NATS_ASYNC = T(3, 7, 9, 640)
NATS_SC_FIRST = T(3, 7, 12, 4, 518)
NATS_SC_LAST = T(3, 8, 49, 726, 55)
NATS_SC_N = 72
MATCHD_NATS_DOWN = T(3, 7, 12, 9)
MATCHD_NATS_BACK = T(3, 7, 14, 388)
MATCHD_LOBBY_FIRST = T(3, 7, 21, 95)
ENV_500_FIRST = T(3, 7, 21, 96)
ENV_500_LAST = T(3, 9, 43, 772)
MATCHD_LOBBY_LAST = T(3, 9, 43, 770)
LOBBY_MISSING_N = 118
ENV_500_N = 163
MATCHD_RESYNC = T(3, 9, 51, 203)

# 03:52 jump-2: a flood from one address trips sshd's MaxStartups; t.vance is dropped, gets
# in, blocks the address with ufw, and the throttling ends.
FLOODER = "203.0.113.45"
MS_BEGIN = T(3, 52, 6, 455, 82)
VANCE_DROPPED = T(3, 53, 14, 81, 947)
VANCE_IN = T(3, 56, 2, 617, 305)
AUTH_SUDO_UFW = T(3, 56, 31, 140, 629)
MS_END = T(3, 56, 58, 902, 466)

# Envoy's planted clients.
SCRAPER, VENUE, OVERLAY, SCRAPER2 = "203.0.113.88", "198.51.100.140", "192.0.2.61", "198.51.100.9"
SLOWEST = T(3, 41, 17, 208)
SLOWEST_MS = 14862
P_LADDER_MS = 1180

# matchd planted figures.
QUEUES = {"ranked-eu": 310, "casual-eu": 228, "ranked-na": 171, "duo-na": 96, "ranked-apac": 74, "custom": 40}
P_WAIT_EU_MS = 74600
P_WAIT_DUO_MS = 58300

# auth planted figures.
DICT_ATTACKER = "198.51.100.23"
USER_COUNTS = {"admin": 131, "ubuntu": 88, "postgres": 64}
IP_INVALID = {DICT_ATTACKER: 140, "192.0.2.150": 97, "203.0.113.201": 73}

STATUS = {200, 204, 304, 404, 409, 429, 500, 503, 504}


def rand_t(rng, a, b):
    """A time in [a, b), to the millisecond."""
    span = int((b - a).total_seconds() * 1000)
    return a + timedelta(milliseconds=rng.randrange(span))


def rand_t_us(rng, a, b):
    span = int((b - a).total_seconds() * 1_000_000)
    return a + timedelta(microseconds=rng.randrange(span))


def inside(t, windows):
    return any(a <= t < b for a, b in windows)


def avoid_status(x):
    while x in STATUS:
        x += 1
    return x


def uuid4(rng):
    h = f"{rng.getrandbits(128):032x}"
    h = h[:12] + "4" + h[13:16] + "89ab"[rng.randrange(4)] + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def hexid(rng, n):
    return "".join("0123456789abcdef"[rng.randrange(16)] for _ in range(n))


def go_dur(ns):
    """Go's time.Duration.String()."""
    if ns == 0:
        return "0s"
    if ns < 1000:
        return f"{ns}ns"
    if ns < 1_000_000:
        i, f = divmod(ns, 1000)
        f = f"{f:03d}".rstrip("0")
        return f"{i}.{f}µs" if f else f"{i}µs"
    if ns < 1_000_000_000:
        i, f = divmod(ns, 1_000_000)
        f = f"{f:06d}".rstrip("0")
        return f"{i}.{f}ms" if f else f"{i}ms"
    h, rest = divmod(ns, 3600 * 10**9)
    m, rest = divmod(rest, 60 * 10**9)
    i, f = divmod(rest, 10**9)
    f = f"{f:09d}".rstrip("0")
    s = f"{i}.{f}s" if f else f"{i}s"
    out = ""
    if h:
        out += f"{h}h"
    if h or m:
        out += f"{m}m"
    return out + s


def plateau(rng, n, lo, hi, value, top_lo, top_hi, ok=lambda v: True, frac_lo=0.90, frac_hi=0.985):
    """n values whose p95 is `value` by every usual definition: the lowest ~90% in [lo, hi],
    a plateau of `value` up to ~98.5%, the rest in [top_lo, top_hi]."""
    below = int(frac_lo * n)
    upto = -(-int(frac_hi * n * 1000) // 1000)
    upto = max(upto, below + 3)
    out = []
    while len(out) < below:
        v = rng.randint(lo, hi)
        if ok(v):
            out.append(v)
    out += [value] * (upto - below)
    while len(out) < n:
        v = rng.randint(top_lo, top_hi)
        if ok(v):
            out.append(v)
    rng.shuffle(out)
    return out


def exact_mean_fix(values, unit, idx, ok=lambda v: True):
    """Nudge values[idx] upwards until the sum is a whole multiple of len(values) * unit."""
    k = len(values) * unit
    while True:
        r = sum(values) % k
        if r == 0 and ok(values[idx]):
            return values
        values[idx] += (k - r) if r else k


# ====================================================================== Envoy (gw-3)
PLAYER_UAS = ["Shardfall/4.12.0 (Windows 10; Steam)", "Shardfall/4.12.0 (Windows 11; Steam)",
              "Shardfall/4.12.0 (PlayStation 5)", "Shardfall/4.11.2 (Android 14; SM-S918B)",
              "Shardfall/4.12.0 (iOS 19.1; iPhone16,2)", "Shardfall/4.12.0 (Xbox Series X)"]
API = "api.shardfall.example"
STORE_HOST = "store.shardfall.example"


def envoy_log(rng):
    reqs = []

    def add(t, method, path, code, flags, rx, tx, dur, xff, ua, auth, up, proto=None, ust=None):
        if proto is None:
            proto = "HTTP/2" if rng.random() < 0.7 else "HTTP/1.1"
        reqs.append({"t": t, "method": method, "path": path, "proto": proto, "code": code, "flags": flags,
                     "rx": rx, "tx": tx, "dur": dur, "ust": ust, "xff": xff, "ua": ua, "rid": uuid4(rng),
                     "auth": auth, "up": up})

    def mm():
        return f"{MM[rng.choice(sorted(MM))]}:7070"

    def lad():
        return f"{rng.choice(LADDERD)}:9090"

    def pid():
        return f"p_{hexid(rng, 6)}"

    windows = {
        "ladder": (ENV_UH_FIRST, ENV_UH_LAST + timedelta(milliseconds=1)),
        "enqueue": (ENV_504_FIRST, ENV_504_LAST + timedelta(milliseconds=1)),
        "ready": (ENV_504_FIRST, ENV_504_LAST + timedelta(milliseconds=1)),
        "lobby": (ENV_500_FIRST, ENV_500_LAST + timedelta(milliseconds=1)),
    }
    # quiet stretches for 504s around the 02:10-02:25 window (the sporadic ladder timeouts)
    base = []  # (t, route, xff, ua)

    def shift_out(t, route):
        w = windows.get(route if route not in ("ladder_top", "ladder_player") else "ladder")
        if w and w[0] <= t < w[1]:
            t = t + (w[1] - w[0]) + timedelta(seconds=40)
        return t

    routes = [("ticket", 30), ("enqueue", 11), ("lobby", 10), ("ready", 5), ("ladder_top", 12),
              ("ladder_player", 9), ("telemetry", 16), ("catalog", 5)]
    names = [r for r, _ in routes]
    weights = [w for _, w in routes]

    # players: ~380 addresses of the benchmark range, a few to a few dozen requests each
    players = set()
    while len(players) < 380:
        players.add(f"198.{18 + rng.randrange(2)}.{rng.randrange(256)}.{rng.randrange(1, 255)}")
    players = sorted(players)
    rng.shuffle(players)
    for ip in players:
        k = min(34, 1 + int(rng.expovariate(1 / 11)))
        ua = rng.choice(PLAYER_UAS)
        for _ in range(k):
            route = rng.choices(names, weights)[0]
            base.append((rand_t(rng, START, END), route, ip, ua))
    # the esports venue (one NAT, many players), the stream overlay, the scrapers
    for _ in range(262):
        route = rng.choices(names, weights)[0]
        base.append((rand_t(rng, START, END), route, VENUE, rng.choice(PLAYER_UAS[:2])))
    for _ in range(171):
        route = "ladder_top" if rng.random() < 0.8 else "ladder_player"
        base.append((rand_t(rng, START, END), route, OVERLAY, "ShardfallOverlay/1.3 (+obs-plugin)"))
    scraper = []
    for a, b, k in [(T(1, 40), T(1, 58), 160), (T(2, 50), T(3, 4), 170), (T(3, 36), T(3, 49), 150)]:
        scraper += [rand_t(rng, a, b) for _ in range(k)]
    scraper.sort()
    rl = set(rng.sample(range(len(scraper)), 233))
    scraper2 = sorted(rand_t(rng, T(4, 2), T(4, 12)) for _ in range(52))
    rl2 = set(rng.sample(range(len(scraper2)), 41))

    lt_ok = []  # the ladder top 200s, durations assigned after
    enq_ok = []
    for t, route, ip, ua in base:
        t = shift_out(t, route)
        if t >= END:
            t = t - timedelta(minutes=9)
        if route == "ticket":
            ok = rng.random() < 0.95
            add(t, "GET", f"/v2/match/ticket/tk_{hexid(rng, 6)}", 200 if ok else 404, "-", 0,
                avoid_status(rng.randint(150, 240)) if ok else 58, rng.randint(3, 40), ip, ua, API, mm())
        elif route == "enqueue":
            ok = rng.random() < 0.93
            add(t, "POST", "/v2/match/enqueue", 200 if ok else 409, "-", avoid_status(rng.randint(180, 420)),
                avoid_status(rng.randint(120, 180)) if ok else 71, rng.randint(20, 60), ip, ua, API, mm())
            if ok:
                enq_ok.append(reqs[-1])
        elif route == "lobby":
            add(t, "GET", f"/v2/lobby/lb_{hexid(rng, 6)}", 200, "-", 0, avoid_status(rng.randint(600, 2400)),
                rng.randint(9, 80), ip, ua, API, mm())
        elif route == "ready":
            ok = rng.random() < 0.94
            add(t, "POST", f"/v2/lobby/lb_{hexid(rng, 6)}/ready", 204 if ok else 409, "-",
                avoid_status(rng.randint(40, 90)), 0 if ok else 66, rng.randint(8, 45), ip, ua, API, mm())
        elif route == "ladder_top":
            region = rng.choice(["eu", "na", "apac"])
            add(t, "GET", f"/v2/ladder/top?season=9&region={region}", 200, "-", 0,
                avoid_status(rng.randint(3000, 9000)), 0, ip, ua, API, lad())
            lt_ok.append(reqs[-1])
        elif route == "ladder_player":
            ok = rng.random() < 0.92
            add(t, "GET", f"/v2/ladder/player/{pid()}?season=9", 200 if ok else 404, "-", 0,
                avoid_status(rng.randint(700, 1400)) if ok else 62, rng.randint(15, 120), ip, ua, API, lad())
        elif route == "telemetry":
            add(t, "POST", "/v2/telemetry/batch", 204, "-", avoid_status(rng.randint(2000, 40000)), 0,
                rng.randint(2, 30), ip, "Shardfall-Telemetry/2.3", API, TELEMETRY)
        else:
            loc = rng.choice(["en-US", "en-GB", "de-DE", "fr-FR", "ja-JP", "ko-KR", "es-ES"])
            ok = rng.random() < 0.7
            add(t, "GET", f"/v2/store/catalog?locale={loc}", 200 if ok else 304, "-", 0,
                avoid_status(rng.randint(9000, 30000)) if ok else 0, rng.randint(20, 140), ip, ua, STORE_HOST, STORE)

    for i, t in enumerate(scraper):
        if i in rl:
            add(t, "GET", f"/v2/ladder/player/{pid()}?season=9", 429, "RL", 0, 18, 0, SCRAPER,
                "python-requests/2.31.0", API, "-")
        else:
            add(t, "GET", f"/v2/ladder/player/{pid()}?season=9", 200, "-", 0, avoid_status(rng.randint(700, 1400)),
                rng.randint(15, 120), SCRAPER, "python-requests/2.31.0", API, lad())
    for i, t in enumerate(scraper2):
        if i in rl2:
            add(t, "GET", f"/v2/ladder/player/{pid()}?season=9", 429, "RL", 0, 18, 0, SCRAPER2, "curl/8.5.0", API, "-")
        else:
            add(t, "GET", f"/v2/ladder/player/{pid()}?season=9", 200, "-", 0, avoid_status(rng.randint(700, 1400)),
                rng.randint(15, 120), SCRAPER2, "curl/8.5.0", API, lad())

    # the ladder top durations: a p95 plateau, with the slow tail below the route timeout
    durs = plateau(rng, len(lt_ok), 30, 420, P_LADDER_MS, 1400, 2900, ok=lambda v: v not in STATUS)
    for r, d in zip(lt_ok, durs):
        r["dur"] = d
    # the enqueue 200s: an exact mean
    ed = [rng.randint(40, 260) for _ in enq_ok]
    ed = [avoid_status(v) for v in ed]
    exact_mean_fix(ed, 1, 0, ok=lambda v: v not in STATUS)
    for r, d in zip(enq_ok, ed):
        r["dur"] = d

    # scanners (no route)
    for _ in range(38):
        ip = f"192.0.2.{rng.randrange(200, 250)}"
        path = rng.choice(["/.env", "/wp-login.php", "/.git/config", "/actuator/env", "/cgi-bin/luci", "/vendor/phpunit/x.php"])
        add(rand_t(rng, START, END), "GET", path, 404, "NR", 0, 0, 0, ip, "Mozilla/5.0 zgrab/0.x", "203.0.113.5", "-",
            proto="HTTP/1.1")

    # 01:26-01:28 no healthy ladder upstream
    ladder_players = players[:200]
    for minute, k in UH_PER_MINUTE.items():
        a = max(T(1, minute), ENV_UH_FIRST)
        b = min(T(1, minute + 1), ENV_UH_LAST)
        ts = sorted(rand_t(rng, a + timedelta(milliseconds=1), b) for _ in range(k - (1 if minute in (26, 28) else 0)))
        if minute == 26:
            ts = [ENV_UH_FIRST] + ts
        if minute == 28:
            ts = ts + [ENV_UH_LAST]
        for t in ts:
            ip = rng.choice(ladder_players)
            if rng.random() < 0.6:
                path = f"/v2/ladder/top?season=9&region={rng.choice(['eu', 'na', 'apac'])}"
            else:
                path = f"/v2/ladder/player/{pid()}?season=9"
            add(t, "GET", path, 503, "UH", 0, 19, 0, ip, rng.choice(PLAYER_UAS), API, "-")

    # 02:13:50-02:14:05 enqueue and ready time out at the route's 3 s
    ts = sorted(rand_t(rng, ENV_504_FIRST + timedelta(milliseconds=1), ENV_504_LAST) for _ in range(ENV_504_WINDOW - 2))
    ts = [ENV_504_FIRST] + ts + [ENV_504_LAST]
    for i, t in enumerate(ts):
        ip = rng.choice(players)
        if i % 6 == 5:
            add(t, "POST", f"/v2/lobby/lb_{hexid(rng, 6)}/ready", 504, "UT", avoid_status(rng.randint(40, 90)), 24,
                3000 + rng.randint(0, 3), ip, rng.choice(PLAYER_UAS), API, mm())
        else:
            add(t, "POST", "/v2/match/enqueue", 504, "UT", avoid_status(rng.randint(180, 420)), 24,
                3000 + rng.randint(0, 3), ip, rng.choice(PLAYER_UAS), API, mm())
    # sporadic ladder timeouts, away from 02:05-02:30
    for t in [T(1, 5, 41, 330), T(1, 47, 9, 12), T(1, 47, 9, 804), T(3, 20, 33, 501), T(3, 35, 2, 77),
              T(3, 35, 58, 640), T(4, 1, 12, 908), T(4, 17, 45, 219), T(4, 22, 3, 456)]:
        add(t, "GET", f"/v2/ladder/top?season=9&region={rng.choice(['eu', 'na'])}", 504, "UT", 0, 24,
            3000 + rng.randint(0, 3), rng.choice(players), rng.choice(PLAYER_UAS), API, lad())

    # 03:07-03:09 lobby state missing on mm-7 (and its peers)
    ts = sorted(rand_t(rng, ENV_500_FIRST + timedelta(milliseconds=1), ENV_500_LAST) for _ in range(ENV_500_N - 2))
    ts = [ENV_500_FIRST] + ts + [ENV_500_LAST]
    for t in ts:
        add(t, "GET", f"/v2/lobby/lb_{hexid(rng, 6)}", 500, "-", 0, 43, rng.randint(4, 30), rng.choice(players),
            rng.choice(PLAYER_UAS), API, f"{MM['mm-7'] if rng.random() < 0.5 else MM[rng.choice(['mm-5', 'mm-6'])]}:7070")

    # the rolling restart: connections reset by the instance going away
    for host, k in [("mm-5", 2), ("mm-6", 2), ("mm-7", 3)]:
        for j in range(k):
            t = RESTART[host] + timedelta(milliseconds=150 + 311 * j)
            add(t, "POST", "/v2/match/enqueue", 503, "UC", avoid_status(rng.randint(180, 420)), 95,
                rng.randint(600, 1900), rng.choice(players), rng.choice(PLAYER_UAS), API, f"{MM[host]}:7070")
    # telemetry collector refusing now and then
    for t in [T(1, 51, 20, 118), T(3, 23, 4, 990), T(3, 24, 41, 2), T(4, 12, 37, 760)]:
        add(t, "POST", "/v2/telemetry/batch", 503, "UF", avoid_status(rng.randint(2000, 40000)), 91,
            rng.randint(1001, 1010), rng.choice(players), "Shardfall-Telemetry/2.3", API, TELEMETRY)
    # one very slow catalog render
    add(SLOWEST, "GET", "/v2/store/catalog?locale=pt-BR", 200, "-", 0, 28913, SLOWEST_MS, rng.choice(players),
        PLAYER_UAS[4], STORE_HOST, STORE, proto="HTTP/2")

    for r in reqs:
        if r["ust"] is None and r["up"] != "-" and r["flags"] in ("-",):
            r["ust"] = max(0, r["dur"] - rng.randint(0, 2))
            if r["ust"] in STATUS:
                r["ust"] -= 1
    lines = []
    for i, r in enumerate(reqs):
        done = r["t"] + timedelta(milliseconds=r["dur"])
        ts = r["t"].strftime("%Y-%m-%dT%H:%M:%S.") + f"{r['t'].microsecond // 1000:03d}Z"
        ust = "-" if r["ust"] is None else str(r["ust"])
        lines.append((done, i, f'[{ts}] "{r["method"]} {r["path"]} {r["proto"]}" {r["code"]} {r["flags"]} {r["rx"]} '
                               f'{r["tx"]} {r["dur"]} {ust} "{r["xff"]}" "{r["ua"]}" "{r["rid"]}" "{r["auth"]}" "{r["up"]}"'))
    lines.sort()
    return "".join(x[2] + "\n" for x in lines)


# ====================================================================== matchd (mm-7, logrus)
SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._/@^+")


def lr_val(v):
    v = str(v)
    if v and all(c in SAFE for c in v):
        return v
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def logrus(t, level, msg, **fields):
    ts = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
    out = f'time="{ts}" level={level} msg={lr_val(msg)}'
    for k in sorted(fields):
        out += f" {k}={lr_val(fields[k])}"
    return out


def matchd_log(rng):
    ev = []

    def add(t, level, msg, **f):
        ev.append((t, len(ev), logrus(t, level, msg, **f)))

    def pid():
        return f"p_{hexid(rng, 6)}"

    down = [(RESTART["mm-7"], MATCHD_START)]
    regions = {"ranked-eu": "eu", "casual-eu": "eu", "ranked-na": "na", "duo-na": "na", "ranked-apac": "apac",
               "custom": "eu"}
    qnames = sorted(QUEUES)
    # tickets
    n = 0
    while n < 2300:
        t = rand_t(rng, START, END)
        if inside(t, down) or ENV_504_FIRST <= t < MATCHD_LAST_ENQ_FAIL + timedelta(seconds=2):
            continue
        q = rng.choices(qnames, [QUEUES[x] for x in qnames])[0]
        add(t, "info", "ticket enqueued", mmr=rng.randint(700, 3200), party=rng.choice([1, 1, 1, 2, 3, 5]), player=pid(),
            queue=q, region=regions[q], ticket=f"tk_{hexid(rng, 6)}")
        n += 1
    # matches
    waits = {}
    for q, k in QUEUES.items():
        if q == "ranked-eu":
            waits[q] = [v * 100 for v in plateau(rng, k, 60, 700, P_WAIT_EU_MS // 100, 800, 1500)]
        elif q == "duo-na":
            w = [v * 100 for v in plateau(rng, k, 50, 540, P_WAIT_DUO_MS // 100, 600, 1100)]
            waits[q] = exact_mean_fix(w, 1, w.index(min(w)))
        else:
            waits[q] = [rng.randint(30, 1800) * 100 for _ in range(k)]
    for q in qnames:
        for w in waits[q]:
            while True:
                t = rand_t(rng, START, END)
                if not inside(t, down):
                    break
            size = {"duo-na": 4, "custom": rng.choice([2, 4, 6, 8, 10])}.get(q, 10)
            add(t, "info", "match formed", match=f"m_{hexid(rng, 6)}", mmr_spread=rng.randint(40, 480), queue=q,
                size=size, wait=go_dur(w * 1_000_000))
    # a trap: wait warnings that are not matches
    for _ in range(31):
        t = rand_t(rng, START, END)
        if inside(t, down):
            continue
        add(t, "warning", "ticket wait above target", queue="ranked-apac", target="2m0s",
            wait=go_dur(rng.randint(1201, 2400) * 100_000_000))
    # leases
    lease = "694d7f3a2c1b0e45"
    t = START + timedelta(seconds=4, milliseconds=117)
    while t < END:
        if not inside(t, down + [(ENV_504_FIRST, ETCD_DEFRAG_DONE + timedelta(seconds=5))]):
            add(t, "info", "lease renewed", lease=lease if t < RESTART["mm-7"] else "694d7f3a2c1b0f12", ttl="15s")
        t += timedelta(seconds=15, milliseconds=rng.randint(-3, 3))
    # background errors
    for _ in range(37):
        t = rand_t(rng, START, END)
        while inside(t, down):
            t = rand_t(rng, START, END)
        add(t, "error", "party validation failed", error=f"party member {pid()} not in same region", party=f"pt_{hexid(rng, 5)}")
    for _ in range(22):
        t = rand_t(rng, START, END)
        while inside(t, down):
            t = rand_t(rng, START, END)
        add(t, "error", "mmr lookup failed", error="rpc error: code = Unavailable desc = connection refused", player=pid())
    for _ in range(14):
        t = rand_t(rng, START, END)
        add(t, "warning", "slow tick", queue=rng.choice(qnames), took=go_dur(rng.randint(210, 900) * 1_000_000))

    # 02:13 etcd defrag
    for i in range(9):
        add(MATCHD_FIRST_KEEPALIVE + timedelta(milliseconds=1000 * i + rng.randint(0, 40)), "error",
            "etcd lease keepalive failed", error="context deadline exceeded", lease=lease)
    ts = sorted(rand_t(rng, MATCHD_FIRST_ENQ_FAIL + timedelta(milliseconds=1), MATCHD_LAST_ENQ_FAIL) for _ in range(ENQ_FAIL_N - 2))
    for t in [MATCHD_FIRST_ENQ_FAIL] + ts + [MATCHD_LAST_ENQ_FAIL]:
        q = rng.choices(qnames, [QUEUES[x] for x in qnames])[0]
        add(t, "error", "enqueue failed", error="etcdserver: request timed out", player=pid(), queue=q)
    add(ETCD_DEFRAG_DONE + timedelta(milliseconds=1402), "warning", "etcd leader changed", leader="5d2cf0a84e6b1397")

    # 02:43 restart
    r = RESTART["mm-7"]
    add(r, "info", "shutting down", grace="15s", signal="terminated")
    add(r + timedelta(milliseconds=1204), "info", "drained", inflight=0, took="1.204s")
    add(r + timedelta(milliseconds=1311), "info", "matchd stopped")
    add(MATCHD_START, "info", "matchd starting", commit="9c1e4f2", go="go1.23.4", version="1.42.3")
    add(MATCHD_START + timedelta(milliseconds=208), "info", "connected to nats", server_id="NC7QZL2XWT3K", url=NATS_URL)
    add(MATCHD_START + timedelta(milliseconds=351), "info", "etcd session established", lease="694d7f3a2c1b0f12", ttl="15s")

    # 03:00 tournament, 03:07 NATS slow consumer
    add(MATCHD_TOURNAMENT, "info", "tournament check-in opened", lobbies=412, tournament="autumn-clash-q3")
    for i in range(3):
        add(MATCHD_NATS_ASYNC + timedelta(milliseconds=700 * i), "error", "nats async error",
            error=f'nats: slow consumer, messages dropped on connection [{mm7_cid(NATS_SC_FIRST)}] for subscription on "lobby.events.>"')
    add(MATCHD_NATS_DOWN, "warning", "nats disconnected", error="EOF")
    add(MATCHD_NATS_BACK, "info", "nats reconnected", url=NATS_URL)
    ts = sorted(rand_t(rng, MATCHD_LOBBY_FIRST + timedelta(milliseconds=1), MATCHD_LOBBY_LAST) for _ in range(LOBBY_MISSING_N - 2))
    for t in [MATCHD_LOBBY_FIRST] + ts + [MATCHD_LOBBY_LAST]:
        add(t, "error", "lobby state missing", lobby=f"lb_{hexid(rng, 6)}", op="get")
    add(MATCHD_RESYNC, "info", "lobby state resynced", lobbies=412, source="etcd", took="2.318s")

    ev.sort()
    return "".join(x[2] + "\n" for x in ev)


# ====================================================================== NATS (nats-1, debug on)
def nats_ts(t):
    return t.strftime("%Y/%m/%d %H:%M:%S.") + f"{t.microsecond:06d}"


NATS_PLAN_SEED = 20361023_07
_NATS_PLAN = []


def nats_plan():
    """The connections nats-1 saw (built once from its own seed, so matchd's log can name the
    connection id the server gave mm-7): dicts of ip, port, name, start, end, reason, cid."""
    if _NATS_PLAN:
        return _NATS_PLAN
    rng = random.Random(NATS_PLAN_SEED)
    sessions = []  # dicts: ip, port, name, start, end, reason

    def port():
        return rng.randint(32768, 60999)

    gs = []
    for i in range(40):
        gs.append((f"10.61.20.{10 + i}", f"gs-eu-{10 + i:03d}"))
    for i in range(34):
        gs.append((f"10.61.21.{10 + i}", f"gs-na-{10 + i:03d}"))
    for i in range(19):
        gs.append((f"10.61.22.{10 + i}", f"gs-apac-{10 + i:03d}"))
    for ip, name in gs:
        t = START - timedelta(microseconds=rng.randint(60_000_000, 1_500_000_000))
        while t < END:
            length = timedelta(microseconds=rng.randint(600_000_000, 2_400_000_000))
            sessions.append({"ip": ip, "port": port(), "name": name, "start": t, "end": t + length, "reason": "Client Closed"})
            t = t + length + timedelta(microseconds=rng.randint(1_500_000, 20_000_000))
    # matchd instances: connected since before, restarted at 02:42-02:43
    for host, ip in sorted(MM.items()):
        back = RESTART[host] + timedelta(microseconds=17_420_000 + rng.randint(0, 300_000))
        if host == "mm-7":
            back = MATCHD_START + timedelta(microseconds=204_318)
        sessions.append({"ip": ip, "port": port(), "name": f"matchd@{host}", "start": START - timedelta(hours=7),
                         "end": RESTART[host] + timedelta(milliseconds=1311), "reason": "Client Closed"})
        sessions.append({"ip": ip, "port": port(), "name": f"matchd@{host}", "start": back,
                         "end": END + timedelta(hours=1), "reason": "Client Closed"})

    def open_at(t, pool):
        return [s for s in pool if s["start"] < t < s["end"] - timedelta(seconds=5)]

    # 03:07 slow consumers: the three matchd connections and 69 game servers
    sc = []
    mm_sc = {"matchd@mm-7": NATS_SC_FIRST, "matchd@mm-5": T(3, 7, 12, 803, 264), "matchd@mm-6": T(3, 7, 13, 229, 710)}
    for name, t in mm_sc.items():
        [s] = open_at(t, [x for x in sessions if x["name"] == name])
        sc.append((s, t))
    gs_open = open_at(T(3, 8, 50), [x for x in sessions if x["name"].startswith("gs-")])
    gs_open = [s for s in gs_open if s["start"] < T(3, 7, 12)]
    gs_open.sort(key=lambda s: (s["ip"], s["start"]))
    chosen = rng.sample(gs_open, NATS_SC_N - 4)
    ts = sorted(rand_t_us(rng, T(3, 7, 13, 500), NATS_SC_LAST) for _ in chosen)
    sc += list(zip(chosen, ts))
    # the last slow consumer is a game server at NATS_SC_LAST exactly
    extra = [s for s in gs_open if s not in chosen][0]
    sc.append((extra, NATS_SC_LAST))
    new = []
    for s, t in sc:
        rest_end = s["end"]
        s["end"], s["reason"] = t, "Slow Consumer (Write Deadline)"
        s["sc_t"] = t
        if s["name"] == "matchd@mm-7":
            back = MATCHD_NATS_BACK - timedelta(microseconds=20_577)
        else:
            back = t + timedelta(microseconds=rng.randint(1_100_000, 4_800_000))
        new.append({"ip": s["ip"], "port": port(), "name": s["name"], "start": back, "end": rest_end, "reason": "Client Closed"})
    sessions += new
    # the exporter with a wrong token, every two minutes
    for i in range(105):
        t = T(1, 1, 7) + timedelta(minutes=2 * i, microseconds=rng.randint(0, 900_000))
        sessions.append({"ip": "10.61.7.44", "port": port(), "name": None, "start": t,
                         "end": t + timedelta(microseconds=rng.randint(300, 2200)), "reason": "Authentication Failure"})

    sessions.sort(key=lambda s: (s["start"], s["ip"], s["port"]))
    cid = 2114
    for s in sessions:
        if s["start"] < START:
            s["cid"] = cid - 500 + sessions.index(s)
        else:
            s["cid"] = cid
            cid += 1
    _NATS_PLAN.extend(sessions)
    return _NATS_PLAN


def mm7_cid(t):
    [s] = [x for x in nats_plan() if x["name"] == "matchd@mm-7" and x["start"] <= t <= x["end"]]
    return s["cid"]


def nats_log(rng):
    sessions = [dict(s) for s in nats_plan()]
    ev = []

    def add(t, text):
        ev.append((t, len(ev), f"[1] {nats_ts(t)} {text}"))

    def who(s):
        return f'{s["ip"]}:{s["port"]} - cid:{s["cid"]}'

    def named(s):
        return f'{who(s)} - "v1.31.0:go:{s["name"]}"'

    for s in sessions:
        if START <= s["start"] < END:
            add(s["start"], f"[DBG] {who(s)} - Client connection created")
        if s["reason"] == "Authentication Failure":
            add(s["end"] - timedelta(microseconds=60), f"[ERR] {who(s)} - authentication error")
            add(s["end"], f"[DBG] {who(s)} - Client connection closed: Authentication Failure")
            continue
        if "sc_t" in s:
            t = s["sc_t"]
            add(t, f"[INF] {named(s)} - Slow Consumer Detected: WriteDeadline of 10s exceeded with "
                   f"{rng.randint(12, 60)} chunks of {rng.randint(400_000, 3_000_000)} total bytes.")
            add(t + timedelta(microseconds=84), f"[DBG] {named(s)} - Client connection closed: Slow Consumer (Write Deadline)")
            continue
        if START <= s["end"] < END:
            add(s["end"], f"[DBG] {named(s)} - Client connection closed: {s['reason']}")
    # readloop warnings
    pool = [s for s in sessions if s["name"]]
    k = 0
    while k < 37:
        t = rand_t_us(rng, START, END)
        if T(3, 5) <= t < T(3, 10):
            continue
        cands = [s for s in pool if s["start"] < t < s["end"]]
        s = rng.choice(cands)
        add(t, f"[WRN] {named(s)} - Readloop processing time: {go_dur(rng.randint(1_000_001, 1_950_000) * 1000)}")
        k += 1
    [s7] = [s for s in pool if s["name"] == "matchd@mm-7" and s["start"] < NATS_READLOOP_MAX < s["end"]]
    add(NATS_READLOOP_MAX, f"[WRN] {named(s7)} - Readloop processing time: {go_dur(4_812_000_000)}")
    ev.sort()
    return "".join(x[2] + "\n" for x in ev)


# ====================================================================== etcd (etcd-b, JSON)
import json  # noqa: E402

MEMBERS = {"etcd-a": "5d2cf0a84e6b1397", "etcd-b": "b9a2c54e1f07d383", "etcd-c": "3f8e21b0c9d4a7e6"}


def etcd_ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}Z"


def etcd_log(rng):
    ev = []

    def add(t, level, caller, msg, logger=None, **f):
        d = {"level": level, "ts": etcd_ts(t)}
        if logger:
            d["logger"] = logger
        d["caller"] = caller
        d["msg"] = msg
        d.update(f)
        ev.append((t, len(ev), json.dumps(d, ensure_ascii=False, separators=(",", ":"))))

    rev = 8_804_112
    # compaction every 5 minutes
    t = T(1, 2, 41, 77, 312)
    while t < END:
        rev += rng.randint(2000, 3400)
        add(t, "info", "mvcc/index.go:214", "compact tree index", revision=rev)
        t2 = t + timedelta(microseconds=rng.randint(4000, 9000))
        add(t2, "info", "mvcc/kvstore_compaction.go:66", "finished scheduled compaction", **{
            "compact-revision": rev, "took": go_dur(rng.randint(3_100_000, 9_800_000)), "hash": rng.randint(10**9, 4 * 10**9)})
        t += timedelta(minutes=5, milliseconds=rng.randint(-40, 40))

    keys = ["/matchd/queues/ranked-eu/", "/matchd/queues/casual-eu/", "/matchd/queues/ranked-na/", "/matchd/lobbies/",
            "/matchd/leases/", "/ladder/snapshots/", "/config/matchd/"]

    def req(rng):
        if rng.random() < 0.6:
            k = rng.choice(keys)
            return {"prefix": "read-only range ", "request": f'key:"{k}" range_end:"{k[:-1]}0" ',
                    "response": f"range_response_count:{rng.randint(1, 90)} size:{rng.randint(400, 40000)}"}
        lb = f"/matchd/lobbies/lb_{hexid(rng, 6)}"
        return {"prefix": "", "request": f'header:<ID:{rng.randint(10**18, 9 * 10**18)} > txn:<compare:<target:MOD key:"{lb}" '
                                         f'mod_revision:{rng.randint(8_700_000, 8_900_000)} > success:<request_put:<key:"{lb}" '
                                         f'value_size:{rng.randint(200, 900)} lease:7587873212937741301 >> failure:<>>',
                "response": "size:20"}

    # apply request took too long: background and the defrag burst
    took_bg = [rng.randint(100_500, 480_000) for _ in range(240)]
    burst_t = []
    for _ in range(58):
        arrive = rand_t_us(rng, ETCD_DEFRAG_START + timedelta(milliseconds=40), ETCD_DEFRAG_DONE - timedelta(milliseconds=30))
        done = rand_t_us(rng, ETCD_DEFRAG_DONE + timedelta(milliseconds=2), ETCD_DEFRAG_DONE + timedelta(milliseconds=1100))
        burst_t.append((arrive, done))
    took_burst = [int((d - a).total_seconds() * 1_000_000) for a, d in burst_t]
    allv = took_bg + took_burst
    exact_mean_fix(allv, 1000, 240)
    took_burst[0] = allv[240]
    for us in took_bg:
        while True:
            t = rand_t_us(rng, START, END)
            if not (ETCD_DEFRAG_START - timedelta(seconds=30) <= t < ETCD_DEFRAG_DONE + timedelta(seconds=30)):
                break
        add(t, "warn", "etcdserver/util.go:170", "apply request took too long", took=go_dur(us * 1000),
            **{"expected-duration": "100ms"}, **req(rng))
    for (a, d), us in zip(burst_t, took_burst):
        add(d, "warn", "etcdserver/util.go:170", "apply request took too long", took=go_dur(us * 1000),
            **{"expected-duration": "100ms"}, **req(rng))

    # slow fdatasync
    fs_times = sorted(rand_t_us(rng, T(1, 12), T(4, 18)) for _ in range(11))
    fs_times = [T(1, 9, 26, 413, 729)] + fs_times + [T(2, 13, 50, 917, 140), T(2, 13, 55, 3, 862), T(4, 21, 8, 644, 305)]
    fs = [rng.randint(1_001_000, 2_400_000) for _ in fs_times]
    exact_mean_fix(fs, 1000, 3)
    for t, us in zip(fs_times, fs):
        add(t, "warn", "wal/wal.go:805", "slow fdatasync", took=go_dur(us * 1000), **{"expected-duration": "1s"})

    # rejected connections (expired client certificates)
    def reject(t, ip):
        add(t, "warn", "embed/config_logging.go:160", "rejected connection", **{
            "remote-addr": f"{ip}:{rng.randint(32768, 60999)}", "server-name": "",
            "error": f"tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time "
                     f"{t.strftime('%Y-%m-%dT%H:%M:%SZ')} is after 2036-10-22T23:59:59Z"})
    for i in range(210):
        reject(T(1, 0, 30) + timedelta(minutes=i, microseconds=rng.randint(0, 400_000)), "10.61.7.30")
    for _ in range(37):
        reject(rand_t_us(rng, START, END), "10.61.7.31")
    for _ in range(11):
        reject(rand_t_us(rng, T(3, 30), T(4, 0)), "10.61.9.14")

    # snapshots
    idx = 8_100_081
    for t in [T(1, 37, 12, 5, 381), T(2, 58, 40, 771, 9), T(4, 9, 3, 218, 547)]:
        add(t, "info", "etcdserver/server.go:1386", "triggering snapshot", **{
            "local-member-id": MEMBERS["etcd-b"], "local-member-applied-index": idx, "local-member-snapshot-index": idx - 100001,
            "local-member-snapshot-count": 100000})
        add(t + timedelta(microseconds=7204), "info", "etcdserver/server.go:2519", "saved snapshot", **{"snapshot-index": idx})
        add(t + timedelta(microseconds=7391), "info", "etcdserver/server.go:2549", "compacted Raft logs", **{"compact-index": idx - 5000})
        idx += 100001

    # 02:13 the defrag
    add(ETCD_DEFRAG_START, "info", "v3rpc/maintenance.go:89", "starting defragment")
    add(ETCD_DEFRAG_START + timedelta(microseconds=231), "info", "backend/backend.go:497", "defragmenting", **{
        "path": "/var/lib/etcd/member/snap/db", "current-db-size-bytes": 2231382016, "current-db-size": "2.2 GB",
        "current-db-size-in-use-bytes": 612368384, "current-db-size-in-use": "612 MB"})
    t = ETCD_FIRST_HB
    peers = [MEMBERS["etcd-a"], MEMBERS["etcd-c"]]
    i = 0
    while t < ETCD_LOST_LEADER - timedelta(milliseconds=200):
        exceeded = (t - ETCD_DEFRAG_START) - timedelta(milliseconds=200)
        add(t, "warn", "etcdserver/raft.go:369",
            "leader failed to send out heartbeat on time; took too long, leader is overloaded likely from slow disk", **{
                "to": peers[i % 2], "heartbeat-interval": "100ms", "expected-duration": "200ms",
                "exceeded-duration": go_dur(int(exceeded.total_seconds() * 1_000_000) * 1000)})
        i += 1
        t += timedelta(microseconds=rng.randint(45_000, 95_000))
    a, b = MEMBERS["etcd-a"], MEMBERS["etcd-b"]
    add(ETCD_LOST_LEADER - timedelta(microseconds=211), "info", "etcdserver/zap_raft.go:77",
        f"{b} [term: 8] received a MsgVote message with higher term from {a} [term: 9]", logger="raft")
    add(ETCD_LOST_LEADER - timedelta(microseconds=150), "info", "etcdserver/zap_raft.go:77", f"{b} became follower at term 9", logger="raft")
    add(ETCD_LOST_LEADER - timedelta(microseconds=92), "info", "etcdserver/zap_raft.go:77",
        f"{b} [logterm: 8, index: 8812940, vote: 0] cast MsgVote for {a} [logterm: 8, index: 8812940] at term 9", logger="raft")
    add(ETCD_LOST_LEADER, "info", "etcdserver/zap_raft.go:77", f"raft.node: {b} lost leader {b} at term 9", logger="raft")
    add(ETCD_ELECTED, "info", "etcdserver/zap_raft.go:77", f"raft.node: {b} elected leader {a} at term 9", logger="raft")
    add(ETCD_DEFRAG_DONE, "info", "backend/backend.go:549", "finished defragmenting directory", **{
        "path": "/var/lib/etcd/member/snap/db", "current-db-size-bytes-diff": -1618952192, "current-db-size-bytes": 612429824,
        "current-db-size": "612 MB", "current-db-size-in-use-bytes": 612368384, "current-db-size-in-use": "612 MB",
        "took": go_dur((int((ETCD_DEFRAG_DONE - ETCD_DEFRAG_START).total_seconds() * 1_000_000) + 876) * 1000)})
    add(ETCD_DEFRAG_DONE + timedelta(microseconds=182), "info", "v3rpc/maintenance.go:97", "finished defragment")
    ev.sort()
    return "".join(x[2] + "\n" for x in ev)


# ====================================================================== ZooKeeper (zk-2, myid 2)
QP = "QuorumPeer[myid=2](plain=[0:0:0:0:0:0:0:0]:2181)(secure=disabled)"

STACK = """java.net.SocketTimeoutException: Read timed out
\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)
\tat java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:314)
\tat java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:355)
\tat java.base/sun.nio.ch.NioSocketImpl$1.read(NioSocketImpl.java:808)
\tat java.base/java.net.Socket$SocketInputStream.read(Socket.java:966)
\tat java.base/java.io.BufferedInputStream.fill(BufferedInputStream.java:244)
\tat java.base/java.io.BufferedInputStream.read(BufferedInputStream.java:263)
\tat java.base/java.io.DataInputStream.readInt(DataInputStream.java:381)
\tat org.apache.jute.BinaryInputArchive.readInt(BinaryInputArchive.java:96)
\tat org.apache.zookeeper.server.quorum.QuorumPacket.deserialize(QuorumPacket.java:86)
\tat org.apache.jute.BinaryInputArchive.readRecord(BinaryInputArchive.java:134)
\tat org.apache.zookeeper.server.quorum.Learner.readPacket(Learner.java:228)
\tat org.apache.zookeeper.server.quorum.Follower.followLeader(Follower.java:124)
\tat org.apache.zookeeper.server.quorum.QuorumPeer.run(QuorumPeer.java:1551)"""


def zk_ts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"


def zk_log(rng):
    ev = []

    def add(t, level, where, msg):
        ev.append((t, len(ev), f"{zk_ts(t)} [myid:2] - {level:<5} [{where}] - {msg}"))

    def sid(prefix):
        return f"0x{prefix}000{hexid(rng, 11)}"

    leader_from = ZK_LEADING

    ports = {}

    def established(t, ip, s):
        ports[s] = rng.randint(32768, 60999)
        add(t, "INFO", f"CommitProcWorkThread-{rng.randint(1, 4)}:o.a.z.s.ZooKeeperServer@1157",
            f"Established session {s} with negotiated timeout 30000 for client /{ip}:{ports[s]}")

    def closed_sock(t, ip, s):
        add(t, "INFO", f"NIOWorkerThread-{rng.randint(1, 8)}:o.a.z.s.NIOServerCnxn@519",
            f"Unable to read additional data from client, it probably closed the socket: address = /{ip}:{ports[s]}, session = {s}")

    def expire(t, s):
        add(t, "INFO", "SessionTracker:o.a.z.s.ZooKeeperServer@632", f"Expiring session {s}, timeout of 30000ms exceeded")

    quiet = (ZK_EXC - timedelta(seconds=20), ZK_LADDER_BACK + timedelta(seconds=30))
    # flapping replay-indexer workers: connect, crash, expire
    for ip, every in [("10.61.8.7", 75), ("10.61.8.19", 130), ("10.61.8.33", 170)]:
        t = START + timedelta(milliseconds=rng.randint(5000, every * 1000))
        while t < END - timedelta(minutes=1):
            if not (quiet[0] - timedelta(seconds=60) <= t < quiet[1]):
                s = sid("2")
                established(t, ip, s)
                crash = t + timedelta(milliseconds=rng.randint(4000, 15000))
                closed_sock(crash, ip, s)
                exp = crash + timedelta(milliseconds=30000 + rng.randint(0, 1900))
                if exp > leader_from + timedelta(seconds=40) and exp < END:
                    expire(exp, s)
            t += timedelta(seconds=every, milliseconds=rng.randint(-4000, 4000))
    # the rest of the indexer fleet: a few sessions each, some ending in expiry
    for i in range(40, 100):
        ip = f"10.61.8.{i}"
        for _ in range(rng.randint(1, 6)):
            t = rand_t(rng, START, END)
            if quiet[0] - timedelta(seconds=60) <= t < quiet[1]:
                continue
            s = sid("2")
            established(t, ip, s)
            if rng.random() < 0.5:
                end = t + timedelta(seconds=rng.randint(60, 3000))
                if end < END:
                    closed_sock(end, ip, s)
                    exp = end + timedelta(milliseconds=30000 + rng.randint(0, 1900))
                    if exp > leader_from + timedelta(seconds=40) and exp < END:
                        expire(exp, s)
    # ladderd: long sessions, then the 01:26 loss and the new sessions
    established(T(1, 3, 11, 402), LADDERD[0], sid("2"))
    # 01:26 the leader zk-3 stalls
    add(ZK_EXC - timedelta(milliseconds=2), "WARN", f"{QP}:o.a.z.s.q.Follower@131", "Exception when following the leader\n" + STACK)
    add(ZK_EXC + timedelta(milliseconds=1), "INFO", f"{QP}:o.a.z.s.q.Follower@135",
        "Disconnected from leader (with address: zk-3.cobaltreef.internal/10.61.3.23:2888). Was connected for 7815322ms. Sync state: true")
    add(ZK_EXC + timedelta(milliseconds=3), "INFO", f"{QP}:o.a.z.s.q.Follower@287", "shutdown Follower")
    add(ZK_EXC + timedelta(milliseconds=12), "INFO", f"{QP}:o.a.z.s.q.QuorumPeer@924", "Peer state changed: looking")
    add(ZK_EXC + timedelta(milliseconds=13), "WARN", f"{QP}:o.a.z.s.q.QuorumPeer@1584", "PeerState set to LOOKING")
    add(ZK_EXC + timedelta(milliseconds=13), "INFO", f"{QP}:o.a.z.s.q.QuorumPeer@1450", "LOOKING")
    add(ZK_EXC + timedelta(milliseconds=15), "INFO", f"{QP}:o.a.z.s.q.FastLeaderElection@946",
        "New election. My id = 2, proposed zxid=0x40001f2a1")
    for k, (nsid, state) in enumerate([(2, "LOOKING"), (1, "LOOKING"), (1, "LOOKING")]):
        add(ZK_EXC + timedelta(milliseconds=22 + 31 * k), "INFO",
            "WorkerReceiver[myid=2]:o.a.z.s.q.FastLeaderElection$Messenger$WorkerReceiver@391",
            f"Notification: my state:LOOKING; n.sid:{nsid}, n.state:{state}, n.leader:{2 if k != 1 else 1}, n.round:0x6, "
            f"n.peerEpoch:0x4, n.zxid:0x40001f2a1, message format version:0x2, n.config version:0x0")
    add(ZK_LEADING, "INFO", f"{QP}:o.a.z.s.q.QuorumPeer@924", "Peer state changed: leading")
    add(ZK_LEADING, "INFO", f"{QP}:o.a.z.s.q.QuorumPeer@1523", "LEADING")
    add(ZK_LEADING + timedelta(milliseconds=9), "INFO", f"{QP}:o.a.z.s.q.Leader@588",
        f"LEADING - LEADER ELECTION TOOK - {ZK_ELECTION_MS} MS")
    add(ZK_LEADING + timedelta(milliseconds=451), "INFO", "LearnerHandler-/10.61.3.21:44120:o.a.z.s.q.LearnerHandler@512",
        "Synchronizing with Learner sid: 1 maxCommittedLog=0x40001f2a1 minCommittedLog=0x40001ed9d lastProcessedZxid=0x40001f2a1 peerLastZxid=0x40001f2a1")
    add(ZK_LEADING + timedelta(milliseconds=560), "INFO", f"{QP}:o.a.z.s.q.Leader@1577",
        "Have quorum of supporters, sids: [ [1, 2],[1, 2] ]; starting up and setting last processed zxid: 0x500000000")
    add(ZK_LEADING + timedelta(milliseconds=561), "INFO", f"{QP}:o.a.z.s.q.QuorumPeer@924", "Peer state changed: leading - broadcast")
    # the sessions that were on zk-3 expire
    ts = sorted(rand_t(rng, ZK_EXPIRE_FIRST + timedelta(milliseconds=1), T(1, 26, 41, 900)) for _ in range(ZK_EXPIRE_BURST - 1))
    for t in [ZK_EXPIRE_FIRST] + ts:
        expire(t, sid("3"))
    # ladderd comes back
    established(ZK_LADDER_1, LADDERD[0], sid("2"))
    established(ZK_LADDER_BACK, LADDERD[1], sid("2"))
    # zk-3 rejoins later as a follower
    add(T(1, 31, 48, 206), "INFO", "LearnerHandler-/10.61.3.23:51602:o.a.z.s.q.LearnerHandler@512",
        "Synchronizing with Learner sid: 3 maxCommittedLog=0x5000003e1 minCommittedLog=0x40001f5c0 lastProcessedZxid=0x5000003e1 peerLastZxid=0x40001f2a1")

    # fsync warnings: scattered, and a dense stretch while the nightly backup runs
    fs_t = [rand_t(rng, T(3, 31), T(4, 9, 30)) for _ in range(77)]
    while len(fs_t) < 141:
        t = rand_t(rng, START, END)
        if T(3, 24) <= t < T(4, 16) or quiet[0] <= t < quiet[1]:
            continue
        fs_t.append(t)
    fs = [rng.randint(1001, 4800) if not (T(3, 31) <= t < T(4, 10)) else rng.randint(1500, 9800) for t in fs_t]
    exact_mean_fix(fs, 1, 0)
    for t, ms in zip(fs_t, fs):
        add(t, "WARN", "SyncThread:2:o.a.z.s.p.FileTxnLog@381",
            f"fsync-ing the write ahead log in SyncThread:2 took {ms}ms which will adversely effect operation latency."
            f"File size is 67108880 bytes. See the ZooKeeper troubleshooting guide")
    # log rolls and snapshots
    z = 0x40001f2a1
    for i in range(9):
        t = rand_t(rng, START, END)
        if quiet[0] <= t < quiet[1]:
            continue
        z += rng.randint(9000, 40000)
        add(t, "INFO", "SyncThread:2:o.a.z.s.p.FileTxnLog@284", f"Creating new log file: log.{z:x}")
        add(t + timedelta(milliseconds=3), "INFO", "Snapshot Thread:o.a.z.s.ZooKeeperServer@524",
            f"Snapshotting: 0x{z - 1:x} to /var/lib/zookeeper/version-2/snapshot.{z - 1:x}")
    ev.sort()
    return "".join(x[2] + "\n" for x in ev)


# ====================================================================== auth.log (jump-2, Ubuntu 24.04)
def auth_ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}+00:00"


USER_POOL = ["test", "user", "oracle", "git", "ftpuser", "guest", "pi", "support", "mysql", "hadoop", "minecraft",
             "steam", "es", "elastic", "jenkins", "tomcat", "nagios", "zabbix", "www", "web", "dev", "testuser",
             "student", "server", "ts3", "teamspeak", "vagrant", "centos", "debian", "ansible", "docker", "kafka",
             "redis", "sol", "solana", "validator", "node", "nodejs", "backup", "operator", "sysadmin", "user1",
             "test1", "administrator", "ftp", "www-data", "odoo", "sonar", "gitlab", "nexus", "grafana", "prometheus",
             "oscar", "alex", "john", "david", "mike", "anna", "nginx", "apache", "pgsql", "db2inst1", "weblogic",
             "wildfly", "jboss", "ts", "csgo", "rust", "valheim", "factorio", "arma3", "gmod", "mc", "bitcoin",
             "ethereum", "trader", "mongo", "couchdb", "cassandra", "spark", "flink", "airflow", "superset", "vpn",
             "openvpn", "wireguard", "proxy", "squid", "cisco", "huawei", "hikvision", "dahua", "demo", "sales",
             "info", "office", "scanner", "printer", "monitor", "cacti", "observer", "shardfall", "gameserver",
             "steamcmd", "srcds", "pterodactyl", "lgsm", "linuxgsm", "a", "abc", "qwerty", "temp", "tmp"]


def auth_log(rng):
    ev = []
    pidc = [0]

    def newpid():
        """A placeholder, replaced in time order once the file is sorted."""
        pidc[0] += 1
        return f"@{pidc[0]}@"

    def add(t, prog, msg):
        ev.append((t, len(ev), f"{auth_ts(t)} jump-2 {prog}: {msg}"))

    def us(t, n):
        return t + timedelta(microseconds=n)

    def invalid(t, ip, user):
        p, port = newpid(), rng.randint(32768, 65000)
        s = f"sshd[{p}]"
        add(t, s, f'Connection from {ip} port {port} on {JUMP} port 22 rdomain ""')
        add(us(t, rng.randint(90_000, 300_000)), s, f"Invalid user {user} from {ip} port {port}")
        t2 = us(t, rng.randint(400_000, 700_000))
        add(t2, s, "pam_unix(sshd:auth): check pass; user unknown")
        add(us(t2, 40), s, f"pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost={ip}")
        t3 = us(t2, rng.randint(1_800_000, 2_600_000))
        add(t3, s, f"Failed password for invalid user {user} from {ip} port {port} ssh2")
        if rng.random() < 0.6:
            add(us(t3, rng.randint(200_000, 600_000)), s, f"Connection closed by invalid user {user} {ip} port {port} [preauth]")
        else:
            t4 = us(t3, rng.randint(200_000, 600_000))
            add(t4, s, f"Received disconnect from {ip} port {port}:11: Bye Bye [preauth]")
            add(us(t4, 55), s, f"Disconnected from invalid user {user} {ip} port {port} [preauth]")

    def root(t, ip):
        p, port = newpid(), rng.randint(32768, 65000)
        s = f"sshd[{p}]"
        add(t, s, f'Connection from {ip} port {port} on {JUMP} port 22 rdomain ""')
        t2 = us(t, rng.randint(400_000, 900_000))
        add(t2, s, f"pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost={ip}  user=root")
        t3 = us(t2, rng.randint(1_800_000, 2_600_000))
        add(t3, s, f"Failed password for root from {ip} port {port} ssh2")
        add(us(t3, rng.randint(200_000, 600_000)), s, f"Connection closed by authenticating user root {ip} port {port} [preauth]")

    def probe(t, ip):
        p, port = newpid(), rng.randint(32768, 65000)
        s = f"sshd[{p}]"
        add(t, s, f'Connection from {ip} port {port} on {JUMP} port 22 rdomain ""')
        if rng.random() < 0.5:
            add(us(t, rng.randint(1000, 90_000)), s, "error: kex_exchange_identification: Connection closed by remote host")
            add(us(t, 95_000), s, f"Connection closed by {ip} port {port}")
        else:
            add(us(t, rng.randint(1000, 90_000)), s, f"banner exchange: Connection from {ip} port {port}: invalid format")

    # failed-password quiet stretches (the 03:00-03:30 window's edges) and the flood
    quiet = [(T(2, 54, 50), T(3, 0)), (T(3, 30), T(3, 35, 10)), (MS_BEGIN - timedelta(seconds=20), MS_END + timedelta(seconds=10))]

    def when(a=START, b=END - timedelta(seconds=10)):
        while True:
            t = rand_t_us(rng, a, b)
            if not inside(t, quiet) and not inside(t + timedelta(seconds=4), quiet):
                return t

    # usernames: the three most tried, then the rest of the list
    names = []
    for u, k in USER_COUNTS.items():
        names += [u] * k
    dict_users = ["admin", "ubuntu", "postgres"] + USER_POOL[:80]
    dict_list = list(dict_users) + [rng.choice(dict_users[3:]) for _ in range(IP_INVALID[DICT_ATTACKER] - len(dict_users))]
    # remove the dictionary attacker's admin/ubuntu/postgres from the shared pool
    for u in ("admin", "ubuntu", "postgres"):
        names.remove(u)
    others = []
    for u in USER_POOL:
        others += [u] * rng.randint(1, 6)
    # attackers
    attackers = set()
    while len(attackers) < 96:
        attackers.add(f"{rng.choice(['192.0.2', '198.51.100', '203.0.113'])}.{rng.randrange(1, 255)}")
    attackers -= {DICT_ATTACKER, "192.0.2.150", "203.0.113.201", FLOODER, SCRAPER, VENUE, OVERLAY, SCRAPER2}
    attackers = sorted(attackers)
    rng.shuffle(attackers)
    pool = names + others
    rng.shuffle(pool)
    # 192.0.2.150 and 203.0.113.201 take the first of the shared pool
    plan = []
    dl = list(dict_list)
    rng.shuffle(dl)
    for i, u in enumerate(dl):
        plan.append((T(2, 2) + timedelta(seconds=19 * i, milliseconds=rng.randint(0, 900)), DICT_ATTACKER, u))
    k150 = IP_INVALID["192.0.2.150"]
    for i in range(k150):
        u = pool.pop()
        if i < 60:
            t = when(T(3, 0, 5), T(3, 29, 50))
        else:
            t = when(T(1, 0, 10), T(1, 59))
        plan.append((t, "192.0.2.150", u))
    for i in range(IP_INVALID["203.0.113.201"]):
        plan.append((when(), "203.0.113.201", pool.pop()))
    # the rest of the pool across the other attackers, none above 30
    j = 0
    counts = {}
    while pool:
        ip = attackers[j % len(attackers)]
        j += 1
        if counts.get(ip, 0) >= rng.randint(3, 28):
            continue
        counts[ip] = counts.get(ip, 0) + 1
        plan.append((when(), ip, pool.pop()))
    for t, ip, u in plan:
        invalid(t, ip, u)
    # root guesses
    for _ in range(118):
        root(when(), rng.choice(attackers[:40]))
    for _ in range(160):
        probe(when(), rng.choice(attackers))

    # operators
    def login(t, user, uid, ip, session, key):
        p, port = newpid(), rng.randint(50000, 60000)
        s = f"sshd[{p}]"
        add(t, s, f'Connection from {ip} port {port} on {JUMP} port 22 rdomain ""')
        add(us(t, 212_000), s, f"Accepted publickey for {user} from {ip} port {port} ssh2: ED25519 SHA256:{key}")
        add(us(t, 219_000), s, f"pam_unix(sshd:session): session opened for user {user}(uid={uid}) by {user}(uid=0)")
        add(us(t, 231_000), "systemd-logind[902]", f"New session {session} of user {user}.")
        return s, ip, port

    def logout(t, s, ip, port, user, session):
        add(t, s, f"Received disconnect from {ip} port {port}:11: disconnected by user")
        add(us(t, 90), s, f"Disconnected from user {user} {ip} port {port}")
        add(us(t, 1200), s, f"pam_unix(sshd:session): session closed for user {user}")
        add(us(t, 2100), "systemd-logind[902]", f"Session {session} logged out. Waiting for processes to exit.")
        add(us(t, 9800), "systemd-logind[902]", f"Removed session {session}.")

    def sudo(t, user, uid, tty, pwd, cmd, dur_s, as_user="root", as_uid=0):
        add(t, "sudo", f"{user:>8} : TTY={tty} ; PWD={pwd} ; USER={as_user} ; COMMAND={cmd}")
        add(us(t, 2300), "sudo", f"pam_unix(sudo:session): session opened for user {as_user}(uid={as_uid}) by {user}(uid={uid})")
        add(t + timedelta(seconds=dur_s), "sudo", "pam_unix(sudo:session): session closed for user " + as_user)

    s, ip, port = login(T(1, 14, 2, 118, 754), "m.ishikawa", 1107, "10.9.14.27", 308, "xq0Jt4r7Nn2bq9cE1sFv0uYh6m3oZp8kLw5dRa2TgXc")
    sudo(T(1, 15, 40, 77, 461), "m.ishikawa", 1107, "pts/0", "/home/m.ishikawa", "/usr/bin/journalctl -u ssh --since -1h", 3)
    logout(T(1, 31, 9, 415, 88), s, ip, port, "m.ishikawa", 308)
    s, ip, port = login(AUTH_OKAFOR_LOGIN, "r.okafor", 1104, "10.9.14.22", 311, "Qk3mV8pT1xLw9sZr0dYf2hN6bC4eJ7uA5gK1oP3iR8w")
    sudo(T(2, 11, 2, 640, 935), "r.okafor", 1104, "pts/2", "/home/r.okafor",
         "/usr/local/bin/etcdctl --endpoints=https://etcd-b.cobaltreef.internal:2379 endpoint status -w table", 1)
    sudo(AUTH_SUDO_DEFRAG, "r.okafor", 1104, "pts/2", "/home/r.okafor",
         "/usr/local/bin/etcdctl --endpoints=https://etcd-b.cobaltreef.internal:2379 defrag", 13)
    logout(T(2, 26, 51, 5, 714), s, ip, port, "r.okafor", 311)
    s, ip, port = login(T(2, 39, 58, 910, 263), "m.ishikawa", 1107, "10.9.14.27", 314, "xq0Jt4r7Nn2bq9cE1sFv0uYh6m3oZp8kLw5dRa2TgXc")
    sudo(AUTH_SUDO_ANSIBLE, "m.ishikawa", 1107, "pts/1", "/home/m.ishikawa/ops",
         "/usr/bin/ansible-playbook -i inventories/prod playbooks/matchd-rolling-restart.yml", 151, as_user="deploy", as_uid=1050)
    logout(T(2, 49, 30, 2, 587), s, ip, port, "m.ishikawa", 314)

    # 03:52 MaxStartups
    add(MS_BEGIN, "sshd[812]", "error: beginning MaxStartups throttling")
    drops = sorted(rand_t_us(rng, MS_BEGIN + timedelta(milliseconds=3), MS_END - timedelta(seconds=20)) for _ in range(286))
    for t in drops:
        add(t, "sshd[812]", f"drop connection #{rng.randint(10, 61)} from [{FLOODER}]:{rng.randint(32768, 65000)} on [{JUMP}]:22 past MaxStartups")
    add(VANCE_DROPPED, "sshd[812]", f"drop connection #{rng.randint(10, 61)} from [10.9.14.31]:{rng.randint(50000, 60000)} on [{JUMP}]:22 past MaxStartups")
    for _ in range(24):
        root(rand_t_us(rng, MS_BEGIN + timedelta(seconds=1), MS_END - timedelta(seconds=40)), FLOODER)
    s, ip, port = login(VANCE_IN, "t.vance", 1112, "10.9.14.31", 319, "Zr8pQ2wE6tY1uI4oP7aS0dF3gH5jK9lXcV2bN6mL1qW")
    sudo(AUTH_SUDO_UFW, "t.vance", 1112, "pts/0", "/home/t.vance", f"/usr/sbin/ufw insert 1 deny from {FLOODER} to any port 22", 1)
    add(MS_END, "sshd[812]", f"exited MaxStartups throttling after 00:04:52, {len(drops) + 1} connections dropped")
    logout(T(4, 8, 14, 330, 90), s, ip, port, "t.vance", 319)

    # cron
    t = T(1, 0, 1, 4, 226)
    while t < END:
        p = newpid()
        add(t, f"CRON[{p}]", "pam_unix(cron:session): session opened for user root(uid=0) by root(uid=0)")
        add(us(t, rng.randint(200_000, 1_500_000)), f"CRON[{p}]", "pam_unix(cron:session): session closed for user root")
        t = T(1, 0, 1, rng.randint(0, 600), rng.randint(0, 999)) + timedelta(minutes=10 * (1 + (t - START).seconds // 600))
    ev.sort()
    real, nxt = {}, [51200]

    def pid_of(m):
        if m.group(0) not in real:
            nxt[0] += rng.randint(3, 40)
            real[m.group(0)] = str(nxt[0])
        return real[m.group(0)]
    return "".join(re.sub(r"@\d+@", pid_of, x[2]) + "\n" for x in ev)
