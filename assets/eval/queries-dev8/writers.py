"""Writers of the `queries-dev8` fixtures: one night (2032-04-22, 00:30-03:45 UTC) at
Pebblecreek Veterinary Group, written the way the real software writes it. Every planted
event is at a chosen second; the cross-file schedule (client connections to PgBouncer and
the errors they end in, Sidekiq's jobs, ssh sessions, the scanner) comes from `plan()`,
seeded by PLAN_SEED, so the seven files tell one story. `truth.py` never imports this.
"""

import functools
import json
import random
from datetime import datetime, timedelta

PLAN_SEED = 20320422
INVOICE_MEAN_MS = 917
DAY = datetime(2032, 4, 22)
EPOCH = datetime(1970, 1, 1)


def T(h, m, s=0.0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s)


START, END = T(0, 30), T(3, 45)

# hosts
LB, PROXY, DNS, BASTION = "10.30.1.5", "10.30.1.9", "10.30.0.2", "10.30.0.10"
APP, DB, METABASE, MON, FLUENTD, SCANNER = "10.30.4.13", "10.30.8.21", "10.30.5.31", "10.30.9.40", "10.30.9.45", "10.30.6.77"

# --- the night's planted moments
FPM_FINISHING = T(0, 44, 21.204)      # SIGQUIT to the old vetportal-fpm
DOCKER_FORCE = T(0, 44, 31.219411)    # "Container failed to exit within 10s of signal 3 - using the force"
FPM_UP_BAD = T(0, 44, 33.6)           # 2032.04.3 up: "fpm is running, pid 1"
FATAL_FIRST = T(0, 45, 7.3)
FATAL_LAST = T(0, 58, 19.8)
HOTFIX_FINISHING = T(0, 58, 40.1)
HOTFIX_BYE = T(0, 58, 41.2)
HOTFIX_UP = T(0, 58, 43.9)
DUMP_START = T(1, 0, 0.4)
DUMP_NOSPACE = T(1, 12, 37.4)
PANIC = T(1, 13, 2.514)
CRASH1 = T(1, 13, 2.604)              # pgbouncer: server conn crashed?
RETRY1 = (T(1, 13, 4.0), T(1, 21, 14.6))  # clients get server_login_retry
SSH1 = (T(1, 19, 11.962), 1734.208)   # opsadmin from the bastion to vh-db-01
SUDO = [(T(1, 19, 40), "/usr/bin/df -h /var/lib/postgresql"),
        (T(1, 20, 3), "/usr/bin/du -sh /var/lib/postgresql/dumps"),
        (T(1, 20, 52), "/usr/bin/rm -f /var/lib/postgresql/dumps/clinicdb-20320422.dump")]
PG_READY1 = T(1, 21, 6.3)
IMPORT_START = T(1, 52, 6.114)
INGEST_N = 480
QWT = (T(1, 53, 14.2), T(2, 8, 41.6))  # query_wait_timeout, first and last
FPM_SLOW_FIRST = T(1, 53, 21)
FPM_MAXCH_FIRST = T(1, 54, 2)
FPM_SLOW_LAST = T(2, 8, 49)
FLUENTD_DOWN = T(2, 14, 3.018)
FLUENTD_REJ = [T(2, 14, 4.2), T(2, 14, 6.3), T(2, 14, 10.4), T(2, 14, 18.5), T(2, 14, 34.6), T(2, 15, 6.7),
               T(2, 16, 10.8), T(2, 17, 10.9)]
FLUENTD_UP = T(2, 17, 41.3)
SMS_429 = (T(2, 19, 0), T(2, 24, 30))
METABASE_Q = T(2, 21, 43.377)
OOM_INVOKED = T(2, 37, 29.93)
OOM_KILLED = T(2, 37, 30.041)
OOM_PID = 48842
CRASH2 = T(2, 37, 30.21)
RETRY2 = (T(2, 37, 31.0), T(2, 37, 51.9))
PG_READY2 = T(2, 37, 37.9)
SSH2 = (T(2, 41, 4.8), 2856.0)
HEAP_WARN = (T(2, 52, 10), T(3, 7, 17.9))
SLOTD_DIE = T(3, 7, 19.3)
SLOTD_START = T(3, 7, 20.2)
SLOTD_LISTEN = T(3, 7, 46.1)
REFUSED = (T(3, 7, 21.05), T(3, 7, 45.6))
SCAN_START = T(3, 21, 48.318)
SCAN_SSH = T(3, 25, 37.2)             # sshd: banner exchange ... invalid format
SCAN_PGB = T(3, 25, 39.5)             # pgbouncer: bad packet header

CLINICS = [f"clin-{n:04d}" for n in (412, 377, 508, 129, 264, 611, 45, 733, 190, 302, 818, 96, 455, 527, 640,
                                       71, 239, 366, 481, 559, 702, 884, 153, 217, 329, 390, 436, 593, 675, 749,
                                       27, 112, 168, 281, 347, 419, 466, 534, 588, 627, 689, 721, 766, 802, 851,
                                       903, 38, 84, 137, 205, 246, 313, 358, 401, 447, 492, 541, 577, 618, 655,
                                       697, 738, 779, 827, 866, 912, 19, 63, 101, 178, 226, 291, 338, 384, 428,
                                       473)]
CLINICS_TOTAL = 94  # the slot cache holds every clinic, open or not


def us(t):
    return (t - EPOCH) // timedelta(microseconds=1)


def epoch_str(t):
    u = us(t)
    return f"{u // 1_000_000}.{u % 1_000_000:06d}"


def poisson(r, a, b, rate):
    """Arrival times in [a, b) at `rate` per second."""
    out, t = [], a
    while True:
        t += timedelta(seconds=r.expovariate(rate))
        if t >= b:
            return out
        out.append(t)


def jid(r):
    return "%024x" % r.getrandbits(96)


def in_(t, w):
    return w[0] <= t < w[1]


class Ports:
    def __init__(self, r):
        self.r, self.last = r, {}

    def __call__(self, ip):
        p = self.last.get(ip) or self.r.randrange(34000, 52000)
        p += self.r.randrange(1, 29)
        if p > 60990:
            p = 32768 + self.r.randrange(500)
        self.last[ip] = p
        return p


# ----------------------------------------------------------------------------------------------
# the cross-file plan


@functools.lru_cache(maxsize=None)
def plan():
    r = random.Random(PLAN_SEED)
    ports = Ports(r)
    pools = {"slotd": 12, "vetportal": 10, "clinic_ops": 25, "metabase": 4}
    life = {"slotd": (600, 660), "vetportal": (900, 2400), "clinic_ops": None, "metabase": (1500, 2100)}
    errs = []  # pooler errors before they are given a connection: t, user, kind, slot

    def err(t, user, kind, slot=None):
        errs.append({"t": t, "user": user, "kind": kind, "slot": r.randrange(pools[user]) if slot is None else slot})

    # --- Sidekiq's jobs (they decide when clinic_ops fails)
    jobs = []

    def el_for(cls):
        return {"AppointmentReminderSmsJob": lambda: r.randrange(180, 920) / 1000,
                "InvoiceMailerJob": lambda: r.randrange(420, 1500) / 1000,
                "CalendarSyncJob": lambda: r.randrange(1100, 3900) / 1000,
                "StockLevelRecalcJob": lambda: r.randrange(8000, 19000) / 1000,
                "VaccinationDueScanJob": lambda: r.randrange(38000, 52000) / 1000}[cls]()

    def job(cls, queue, t, args, el=None, rc=None, jid_=None):
        j = {"class": cls, "queue": queue, "start": t, "elapsed": el_for(cls) if el is None else el, "args": args,
             "jid": jid_ or jid(r), "retry_count": rc, "ok": True, "error": None}
        jobs.append(j)
        return j

    def periodic(cls, queue, every, args):
        t = START + timedelta(seconds=r.uniform(0, every))
        while t < END - timedelta(seconds=90):
            job(cls, queue, t, args())
            t += timedelta(seconds=every * r.uniform(0.7, 1.3))

    periodic("AppointmentReminderSmsJob", "sms", 12, lambda: [r.randrange(2_000_000, 2_400_000)])
    periodic("InvoiceMailerJob", "mailers", 25, lambda: [f"INV-2032-{r.randrange(40000, 49999)}"])
    periodic("CalendarSyncJob", "default", 14, lambda: [r.choice(CLINICS)])
    periodic("StockLevelRecalcJob", "low", 300, lambda: [])
    for h in (1, 2, 3):
        job("VaccinationDueScanJob", "default", T(h, 0, 0.8 + r.random()), [])
    imp = job("LabResultImportJob", "imports", IMPORT_START, ["vetlab-batch-20320422-0150"], el=2.871)
    # 480 ingest jobs on 22 threads, 01:52:09 .. 02:08:57
    free = [IMPORT_START + timedelta(seconds=2.95 + i * 0.011) for i in range(22)]
    ingest = []
    for i in range(INGEST_N):
        k = min(range(22), key=lambda x: free[x])
        el = r.randrange(30500, 44500) / 1000
        j = job("LabResultIngestJob", "imports", free[k] + timedelta(milliseconds=r.randrange(1, 30)),
                ["vetlab-batch-20320422-0150", i + 1], el=el)
        free[k] = j["start"] + timedelta(seconds=el)
        ingest.append(j)
    last = max(ingest, key=lambda j: j["start"] + timedelta(seconds=j["elapsed"]))
    last["elapsed"] = round((T(2, 8, 57.412) - last["start"]).total_seconds(), 3)

    crash_slots = {CRASH1: set(), CRASH2: set()}

    def outcome(j):
        s, e = j["start"], j["start"] + timedelta(seconds=j["elapsed"])
        if j["class"] in ("LabResultIngestJob", "LabResultImportJob"):
            return None
        for crash, b in ((CRASH1, RETRY1[1]), (CRASH2, RETRY2[1])):
            if s < crash < e:
                return (crash, "server conn crashed?")
            if crash <= s < b:
                return (s + timedelta(milliseconds=r.randrange(3, 19)),
                        "server login has been failing, try again later (server_login_retry)")
        if j["class"] == "AppointmentReminderSmsJob" and in_(s, SMS_429) and r.random() < 0.85:
            return (s + timedelta(milliseconds=r.randrange(160, 420)), "429")
        return None

    i = 0
    while i < len(jobs):
        j = jobs[i]
        o = outcome(j)
        if o:
            t, why = o
            j["ok"] = False
            j["elapsed"] = round((t - j["start"]).total_seconds(), 3)
            j["error"] = why
            if why == "server conn crashed?":
                slot = r.choice(sorted(set(range(pools["clinic_ops"])) - crash_slots[t]))
                crash_slots[t].add(slot)
                err(t + timedelta(microseconds=r.randrange(50, 900)), "clinic_ops", why, slot)
            elif why != "429":
                err(t, "clinic_ops", why)
            rc = 0 if j["retry_count"] is None else j["retry_count"] + 1
            if rc < 8:
                delay = rc ** 4 + 15 + r.randrange(10) * (rc + 1) + r.uniform(0, 5)
                job(j["class"], j["queue"], t + timedelta(seconds=delay), j["args"], rc=rc, jid_=j["jid"])
        i += 1
    jobs = [j for j in jobs if j["start"] + timedelta(seconds=j["elapsed"]) < END - timedelta(seconds=5)]
    jobs.sort(key=lambda j: j["start"])
    # the mailer's successful runs average exactly INVOICE_MEAN_MS
    inv = [j for j in jobs if j["class"] == "InvoiceMailerJob" and j["ok"]]
    ms = [round(j["elapsed"] * 1000) for j in inv]
    diff = INVOICE_MEAN_MS * len(ms) - sum(ms)
    k = 0
    while diff:
        step = 1 if diff > 0 else -1
        if 430 <= ms[k % len(ms)] + step <= 1490:
            ms[k % len(ms)] += step
            diff -= step
        k += 7
    for j, m in zip(inv, ms):
        j["elapsed"] = m / 1000

    # --- slotd and vetportal clients: in-flight queries when the server crashed, then login retries
    for crash, groups in ((CRASH1, [("slotd", 3), ("vetportal", 1)]), (CRASH2, [("slotd", 4), ("vetportal", 1)])):
        for user, k in groups:
            for s in r.sample(range(pools[user]), k):
                err(crash + timedelta(microseconds=r.randrange(50, 900)), user, "server conn crashed?", s)
    retry = "server login has been failing, try again later (server_login_retry)"
    for (a, b), rates in ((RETRY1, {"slotd": 0.36, "vetportal": 0.085}), (RETRY2, {"slotd": 0.6, "vetportal": 0.2})):
        for user, rate in rates.items():
            for t in poisson(r, a, b, rate):
                err(t, user, retry)
    # query_wait_timeout: the ingest jobs hold the database's server connections
    qa, qb = QWT
    span = (qb - qa).total_seconds()
    qts = [qa, qb]
    for t in poisson(r, qa + timedelta(seconds=1), qb - timedelta(seconds=1), 0.27):
        x = (t - qa).total_seconds() / span
        if r.random() < min(1.0, 0.3 + 2.2 * min(x, 1 - x)):
            qts.append(t)
    for t in sorted(qts):
        user = "slotd" if t in (qa, qb) or r.random() < 0.72 else "vetportal"
        err(t, user, "query_wait_timeout")

    # --- connections: each pool slot lives its lifetimes, an error closes the one it hits
    conns, errors = [], []

    def new(ip, user, t, db="clinicdb"):
        c = {"ip": ip, "port": ports(ip), "db": db, "user": user, "open": t, "close": None, "why": None}
        conns.append(c)
        return c

    for user, n in pools.items():
        ip = METABASE if user == "metabase" else APP
        slots = [[] for _ in range(n)]
        for e in sorted(errs, key=lambda e: e["t"]):
            if e["user"] == user:
                slots[e["slot"]].append(e)
        for s in range(n):
            c = new(ip, user, START - timedelta(seconds=r.uniform(30, 2400 if life[user] else 40000)))
            queue = slots[s]
            k = 0
            while True:
                exp = c["open"] + timedelta(seconds=r.uniform(*life[user])) if life[user] else None
                nxt = queue[k] if k < len(queue) else None
                if nxt is not None and (exp is None or nxt["t"] < exp):
                    if c["open"] >= nxt["t"]:
                        c["open"] = nxt["t"] - timedelta(milliseconds=2)
                    c["close"], c["why"] = nxt["t"], nxt["kind"]
                    errors.append({"t": nxt["t"], "kind": nxt["kind"], "conn": c})
                    k += 1
                    gap = r.uniform(0.5, 3) if user == "clinic_ops" else r.randrange(3, 60) / 1000
                    c = new(ip, user, nxt["t"] + timedelta(seconds=gap))
                elif exp is not None and exp < END:
                    c["close"], c["why"] = exp, "client close request"
                    c = new(ip, user, exp + timedelta(milliseconds=r.randrange(2, 400)))
                else:
                    break
    # the metabase report that the OOM killer took: one connection, 02:21:43 -> 02:37:30
    mb = new(METABASE, "metabase", METABASE_Q)
    mb["report"] = True
    mb["close"], mb["why"] = CRASH2 + timedelta(microseconds=311), "server conn crashed?"
    errors.append({"t": mb["close"], "kind": mb["why"], "conn": mb})
    # the exporter polls SHOW STATS every 30 s
    t = START + timedelta(seconds=7.4)
    while t < END:
        c = new(MON, "stats_collector", t, db="pgbouncer")
        c["close"], c["why"] = t + timedelta(milliseconds=r.randrange(9, 31)), "client close request"
        t += timedelta(seconds=30)
    conns.sort(key=lambda c: c["open"])
    errors.sort(key=lambda e: e["t"])
    return {"conns": conns, "errors": errors, "jobs": jobs, "import": imp, "ingest_last": last}


# ----------------------------------------------------------------------------------------------
# 1. Zeek conn.log (four hourly files, concatenated)

FIELDS = ("ts uid id.orig_h id.orig_p id.resp_h id.resp_p proto service duration orig_bytes resp_bytes conn_state "
          "local_orig local_resp missed_bytes history orig_pkts orig_ip_bytes resp_pkts resp_ip_bytes tunnel_parents").split()
TYPES = ("time string addr port addr port enum string interval count count string bool bool count string count count "
         "count count set[string]").split()
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

SCAN_DB_OPEN = (22, 6432, 9100, 9127)
SCAN_APP_OPEN = (22, 8080, 9100)


def scan_ports(r):
    common = [21, 22, 23, 25, 53, 80, 110, 111, 135, 139, 143, 389, 443, 445, 465, 587, 631, 873, 993, 995, 1433,
              1521, 2049, 2375, 2376, 3000, 3128, 3306, 3389, 5000, 5432, 5601, 5672, 5900, 6379, 6432, 8000, 8008,
              8080, 8081, 8088, 8443, 8888, 9000, 9090, 9100, 9127, 9200, 9300, 10250, 11211, 27017]
    rest = sorted(set(r.sample(range(1, 20000), 1400)) - set(common))
    db_ports = sorted(set(common) | set(rest[:1077]))
    app_ports = sorted(set(common) | set(r.sample(rest[:1077], 288)))
    return db_ports, app_ports


def zeek_conn_log(rng):
    r = rng
    P = plan()
    rows = []
    ports = Ports(r)

    def row(ts, oh, op, rh, rp, proto, service, dur, ob, rb, state, hist, opk, oipb, rpk, ripb):
        if ts.microsecond % 1000 == 0:
            ts += timedelta(microseconds=r.randrange(1, 999))
        if dur is not None and round(dur * 1e6) % 1000 == 0:
            dur += r.randrange(1, 999) / 1e6
        rows.append({"ts": ts, "oh": oh, "op": op, "rh": rh, "rp": rp, "proto": proto, "service": service,
                     "dur": dur, "ob": ob, "rb": rb, "state": state, "hist": hist, "opk": opk, "oipb": oipb,
                     "rpk": rpk, "ripb": ripb})

    def tcp(ts, oh, rh, rp, service, dur, ob, rb, state="SF", hist="ShADadFf", op=None):
        opk = max(3, ob // 1200 + r.randrange(3, 9))
        rpk = max(2, rb // 1400 + r.randrange(2, 8))
        row(ts, oh, op or ports(oh), rh, rp, "tcp", service, dur, ob, rb, state, hist, opk, ob + 52 * opk, rpk,
            rb + 52 * rpk)

    # DNS
    for host, every in ((APP, 6.5), (DB, 15.5), (LB, 31.0), (MON, 21.0), (BASTION, 47.0)):
        for t in poisson(r, START, END, 1 / every):
            ob = r.randrange(28, 61)
            rb = r.randrange(44, 210)
            row(t, host, ports(host), DNS, 53, "udp", "dns", r.randrange(190, 2400) / 1e6, ob, rb, "SF", "Dd", 1,
                ob + 28, 1, rb + 28)
    # NTP
    for host in (APP, DB, LB, MON):
        for t in poisson(r, START, END, 1 / 1024):
            row(t, host, 123, DNS, 123, "udp", "ntp", r.randrange(300, 1900) / 1e6, 48, 48, "SF", "Dd", 1, 76, 1, 76)
    # blackbox pings
    for host in (APP, DB, LB):
        t = START + timedelta(seconds=r.uniform(0, 30))
        while t < END:
            d = r.randrange(60, 700) / 1e6
            row(t, MON, 8, host, 0, "icmp", "-", d, 56, 56, "OTH", "-", 1, 84, 1, 84)
            t += timedelta(seconds=30)
    # the load balancer's keep-alive connections to vetportal (nginx :8080)
    t = START - timedelta(seconds=200)
    while t < END:
        dur = r.uniform(40, 290)
        reqs = max(1, int(dur * r.uniform(0.3, 0.6)))
        if t >= START - timedelta(seconds=5) and t + timedelta(seconds=dur) < END:
            tcp(t, LB, APP, 8080, "http", round(dur, 6), reqs * r.randrange(620, 1150), reqs * r.randrange(5200, 21000))
        t += timedelta(seconds=r.uniform(9, 22))
    # egress through the proxy: SMS / mail API calls from Sidekiq, WAL archiving from vh-db-01
    for j in P["jobs"]:
        if j["queue"] in ("sms", "mailers") and (j["ok"] or j["error"] == "429"):
            t = j["start"] + timedelta(milliseconds=r.randrange(20, 90))
            tcp(t, APP, PROXY, 3128, "http", round(r.uniform(0.12, 0.8), 6), r.randrange(1700, 3600),
                r.randrange(3900, 9200))
    t = START + timedelta(seconds=r.uniform(0, 60))
    while t < END:
        tcp(t, DB, PROXY, 3128, "http", round(r.uniform(1.8, 8.5), 6), r.randrange(4_100_000, 7_900_000),
            r.randrange(2900, 6100))
        t += timedelta(seconds=r.uniform(55, 125))
    # PgBouncer clients
    for c in P["conns"]:
        if c["open"] < START or c["close"] is None or c["close"] >= END:
            continue
        d = (c["close"] - c["open"]).total_seconds()
        if c["user"] == "stats_collector":
            ob, rb = r.randrange(180, 260), r.randrange(1900, 2600)
        elif c.get("report"):
            ob, rb = 2231, 0
        else:
            ob, rb = int(d * r.uniform(40, 160)) + 150, int(d * r.uniform(300, 1400)) + 400
        hist = "ShADadFf" if c["why"] == "client close request" else "ShADadfF"
        tcp(c["open"], c["ip"], DB, 6432, "-", round(d, 6), ob, rb, hist=hist, op=c["port"])
    # fluentd: the log driver's long-lived connection (picked up mid-stream when the sensor started at 00:30)
    # drops with the aggregator, then is refused until it is back
    seen = START + timedelta(seconds=0.611)
    tcp(seen, APP, FLUENTD, 24224, "-", round((FLUENTD_DOWN - seen).total_seconds(), 6), 31_822_913, 141_220,
        state="OTH", hist="DdAafF", op=41877)
    for t in FLUENTD_REJ:
        row(t, APP, ports(APP), FLUENTD, 24224, "tcp", "-", r.randrange(150, 420) / 1e6, 0, 0, "REJ", "Sr", 1, 60, 1, 40)
    # ssh: the deploy session to vh-app-03, then two sessions to vh-db-01
    tcp(T(0, 40, 27.513), BASTION, APP, 22, "ssh", 1126.41, 48_311, 402_117)
    for (t, d), ob, rb in ((SSH1, 61_452, 913_883), (SSH2, 88_914, 1_402_551)):
        tcp(t, BASTION, DB, 22, "ssh", d, ob, rb, op=50122 if t == SSH1[0] else 50377)
    # the scanner: SYN scan of vh-db-01 (closed ports answer RST), then vh-app-03 (filtered), then version probes
    db_ports, app_ports = scan_ports(r)
    order = db_ports[:]
    r.shuffle(order)
    t = SCAN_START
    sp = r.randrange(40000, 60000)
    for p in order:
        if p in SCAN_DB_OPEN:
            row(t, SCANNER, sp, DB, p, "tcp", "-", r.randrange(200, 900) / 1e6, 0, 0, "RSTO", "ShR", 2, 84, 1, 44)
        else:
            row(t, SCANNER, sp, DB, p, "tcp", "-", r.randrange(40, 400) / 1e6, 0, 0, "REJ", "Sr", 1, 44, 1, 40)
        t += timedelta(seconds=r.uniform(0.03, 0.08))
    t += timedelta(seconds=31.7)
    order = app_ports[:]
    r.shuffle(order)
    for p in order:
        if p in SCAN_APP_OPEN:
            row(t, SCANNER, sp, APP, p, "tcp", "-", r.randrange(200, 900) / 1e6, 0, 0, "RSTO", "ShR", 2, 84, 1, 44)
        else:
            row(t, SCANNER, sp, APP, p, "tcp", "-", None, None, None, "S0", "S", 2, 88, 0, 0)
        t += timedelta(seconds=r.uniform(0.1, 0.3))
    probes = [(SCAN_SSH - timedelta(seconds=0.41), DB, 22, "-", 5.2, 22, 41),
              (SCAN_SSH - timedelta(seconds=0.37), APP, 22, "-", 5.1, 22, 41),
              (SCAN_PGB - timedelta(seconds=0.02), DB, 6432, "-", 0.003, 8, 0),
              (SCAN_PGB + timedelta(seconds=0.6), APP, 8080, "http", 0.021, 18, 341),
              (SCAN_PGB + timedelta(seconds=0.9), DB, 9100, "http", 0.017, 18, 1902)]
    for t, h, p, svc, d, ob, rb in probes:
        tcp(t, SCANNER, h, p, svc, d, ob, rb, hist="ShADadFf" if rb else "ShADFf")
    # write: a row goes into the hourly file in force when the connection ended
    def end(x):
        return x["ts"] + timedelta(seconds=x["dur"] or 0)

    rows.sort(key=lambda x: (end(x), x["ts"]))
    out = []
    hours = [(START, T(1, 0)), (T(1, 0), T(2, 0)), (T(2, 0), T(3, 0)), (T(3, 0), END)]
    for a, b in hours:
        chunk = [x for x in rows if a <= end(x) < b or (b == END and end(x) >= END)]
        out.append("#separator \\x09")
        out.append("#set_separator\t,")
        out.append("#empty_field\t(empty)")
        out.append("#unset_field\t-")
        out.append("#path\tconn")
        out.append("#open\t" + a.strftime("%Y-%m-%d-%H-%M-%S"))
        out.append("#fields\t" + "\t".join(FIELDS))
        out.append("#types\t" + "\t".join(TYPES))
        for x in chunk:
            uid = "C" + "".join(r.choice(B62) for _ in range(17))
            while any(s in uid for s in ("REJ", "S0", "SF", "OTH")):
                uid = "C" + "".join(r.choice(B62) for _ in range(17))
            dash = lambda v, f="{}": "-" if v is None else f.format(v)  # noqa: E731
            out.append("\t".join([epoch_str(x["ts"]), uid, x["oh"], str(x["op"]), x["rh"], str(x["rp"]), x["proto"],
                                  x["service"], dash(x["dur"], "{:.6f}"), dash(x["ob"]), dash(x["rb"]), x["state"],
                                  "T", "T", "0", x["hist"], str(x["opk"]), str(x["oipb"]), str(x["rpk"]),
                                  str(x["ripb"]), "-"]))
        out.append("#close\t" + b.strftime("%Y-%m-%d-%H-%M-%S"))
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------------------------
# 2. slotd: zap production JSON

SEARCH_PLATEAU = 0.387
ROUTES = [("GET", "/v1/slots/search", 0.55), ("POST", "/v1/slots/hold", 0.2), ("POST", "/v1/slots/confirm", 0.1),
          ("GET", "/v1/clinics/{id}/calendar", 0.15)]
ERR_CALLER = {"/v1/slots/search": ("store/slots.go:214", "search_open_slots", "SearchOpenSlots", "search.go:77"),
              "/v1/slots/hold": ("store/holds.go:88", "hold_slot", "HoldSlot", "hold.go:52"),
              "/v1/slots/confirm": ("store/confirm.go:131", "confirm_booking", "ConfirmBooking", "confirm.go:64"),
              "/v1/clinics/{id}/calendar": ("store/calendar.go:57", "clinic_calendar", "ClinicCalendar", "calendar.go:39")}
ICS_FAIL = [T(0, 37, 12.4), T(1, 2, 44.1), T(1, 33, 5.8), T(2, 26, 51.3), T(2, 49, 17.0), T(3, 16, 2.2), T(3, 38, 40.7)]


def slotd_log(rng):
    r = rng
    P = plan()
    weights = [1.0 / (i + 1) ** 0.9 for i in range(len(CLINICS))]
    weights[0] *= 1.7
    clinic = lambda: r.choices(CLINICS, weights)[0]  # noqa: E731
    ev = []  # (t, dict)

    def line(t, level, caller, msg, **kv):
        if t.microsecond % 1000 == 0:
            t += timedelta(microseconds=r.randrange(1, 999))
        d = {"level": level, "ts": None, "caller": caller, "msg": msg}
        d.update(kv)
        ev.append((t, d))

    down = (SLOTD_DIE, SLOTD_LISTEN)
    reqs = [(t, None) for t in poisson(r, START, END, 0.34) if not in_(t, down)]
    reqs += [(e["t"], e) for e in P["errors"] if e["conn"]["user"] == "slotd"]
    reqs.sort(key=lambda x: x[0])
    for t, e in reqs:
        m, path = r.choices([(a, b) for a, b, _ in ROUTES], [w for _, _, w in ROUTES])[0]
        cid = clinic()
        rid = "%016x" % r.getrandbits(64)
        shown = path.replace("{id}", cid)
        if e is not None:
            kind = e["kind"]
            caller, q, fn, handler = ERR_CALLER[path]
            status = 503
            if kind == "query_wait_timeout":
                err, lat = "ERROR: query_wait_timeout (SQLSTATE 08P01)", (5_000_000 + r.randrange(1200, 9800)) / 1e6
            elif kind == "server conn crashed?":
                err, lat = "ERROR: server conn crashed? (SQLSTATE 08P01)", r.randrange(40_000, 350_000) / 1e6
            else:
                err = ("failed to connect to `user=slotd database=clinicdb`: 10.30.8.21:6432 (10.30.8.21): server error: "
                       "ERROR: server login has been failing, try again later (server_login_retry) (SQLSTATE 08P01)")
                lat = r.randrange(1400, 4900) / 1e6
            line(t + timedelta(microseconds=400), "error", caller, "db query failed", query=q, clinic_id=cid,
                 error=err, stacktrace=(f"gitlab.pebblecreek.internal/vet/slotd/internal/store.(*Store).{fn}\n\t"
                                        f"/src/internal/{caller}\ngitlab.pebblecreek.internal/vet/slotd/internal/httpapi."
                                        f"(*Server).handle{fn}\n\t/src/internal/httpapi/{handler}\n"
                                        f"net/http.HandlerFunc.ServeHTTP\n\t/usr/local/go/src/net/http/server.go:2294"))
            line(t + timedelta(microseconds=700), "info", "httpapi/log.go:41", "request served", method=m, path=shown,
                 status=status, latency=lat, clinic_id=cid, req_id=rid)
            continue
        slow = in_(t, (QWT[0] - timedelta(seconds=40), QWT[1] + timedelta(seconds=8)))
        if path == "/v1/slots/search":
            x = r.random()
            if slow and x < 0.06:
                lat = r.randrange(1_100_000, 4_800_000) / 1e6
            elif x < 0.91:
                lat = r.randrange(14_000, 352_000) / 1e6
            elif x < 0.997:
                lat = SEARCH_PLATEAU
            else:
                lat = r.randrange(455_000, 1_300_000) / 1e6
        else:
            lat = r.randrange(9_000, 210_000) / 1e6 if not slow else r.randrange(900_000, 4_700_000) / 1e6
        status = 200 if path != "/v1/slots/hold" or r.random() > 0.04 else 409
        if lat > 1.0:
            q = ERR_CALLER[path][1]
            el = lat - r.uniform(0.002, 0.02)
            line(t - timedelta(microseconds=900), "warn", "store/db.go:96", "slow query", query=q,
                 elapsed=go_dur(el, r), clinic_id=cid)
        line(t, "info", "httpapi/log.go:41", "request served", method=m, path=shown, status=status, latency=lat,
             clinic_id=cid, req_id=rid)
    # context deadline exceeded: requests that waited for a pool connection past their 8 s budget
    for t in poisson(r, QWT[0] + timedelta(seconds=30), QWT[1] - timedelta(seconds=20), 0.05):
        cid = clinic()
        line(t, "error", "httpapi/middleware.go:112", "request timed out", method="POST", path="/v1/slots/hold",
             clinic_id=cid, error="context deadline exceeded",
             stacktrace="gitlab.pebblecreek.internal/vet/slotd/internal/httpapi.(*Server).timeout.func1\n\t"
                        "/src/internal/httpapi/middleware.go:112\nnet/http.HandlerFunc.ServeHTTP\n\t"
                        "/usr/local/go/src/net/http/server.go:2294")
        line(t + timedelta(microseconds=300), "info", "httpapi/log.go:41", "request served", method="POST",
             path="/v1/slots/hold", status=504, latency=8.0 + r.randrange(100, 2000) / 1e6, clinic_id=cid,
             req_id="%016x" % r.getrandbits(64))
    # calendar feeds, cache refresh, heap warnings, restart
    t = START + timedelta(seconds=r.uniform(5, 60))
    while t < END:
        if not in_(t, down):
            if any(abs((t - f).total_seconds()) < 40 for f in ICS_FAIL):
                pass
            else:
                line(t, "info", "ical/fetch.go:58", "ics feed fetched", clinic_id=clinic(), upstream_ms=r.randrange(90, 1400),
                     events=r.randrange(3, 80))
        t += timedelta(seconds=r.uniform(45, 75))
    for f in ICS_FAIL:
        line(f, "error", "ical/fetch.go:73", "ics feed fetch failed", clinic_id=r.choice(CLINICS[5:40]), upstream_ms=10000,
             error="Get \"https://calendar.vetsync.example/feeds/ics\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
             stacktrace="gitlab.pebblecreek.internal/vet/slotd/internal/ical.(*Fetcher).Fetch\n\t/src/internal/ical/fetch.go:73\n"
                        "gitlab.pebblecreek.internal/vet/slotd/internal/ical.(*Fetcher).loop\n\t/src/internal/ical/fetch.go:41")
    t = START + timedelta(seconds=r.uniform(0, 300))
    while t < END:
        if not in_(t, down):
            line(t, "info", "cache/refresh.go:29", "slot cache refreshed", clinics=CLINICS_TOTAL, took=go_dur(r.uniform(0.3, 2.4), r))
        t += timedelta(seconds=300)
    heap = 801
    t = HEAP_WARN[0]
    while t < HEAP_WARN[1] - timedelta(seconds=12):
        line(t, "warn", "runtimeguard/guard.go:58", "heap above soft limit", heap_mb=heap, limit_mb=1024,
             goroutines=r.randrange(1400, 2300))
        heap = min(1019, heap + r.randrange(4, 17))
        t += timedelta(seconds=r.uniform(25, 40))
    line(HEAP_WARN[1], "warn", "runtimeguard/guard.go:58", "heap above soft limit", heap_mb=1022, limit_mb=1024,
         goroutines=2611)
    line(SLOTD_START, "info", "cmd/slotd/main.go:52", "slotd starting", version="1.19.4", commit="8c1f2ae", go="go1.24.2")
    line(SLOTD_START + timedelta(seconds=0.0412), "info", "store/db.go:41", "connected to pgbouncer",
         dsn_host="10.30.8.21:6432", max_open=12)
    line(SLOTD_START + timedelta(seconds=0.0533), "info", "cache/warm.go:33", "warming slot cache", clinics=CLINICS_TOTAL)
    line(SLOTD_LISTEN - timedelta(seconds=0.0011), "info", "cache/warm.go:61", "slot cache warm", clinics=CLINICS_TOTAL,
         took="25.844s")
    line(SLOTD_LISTEN, "info", "cmd/slotd/main.go:88", "listening", addr=":8088")
    ev.sort(key=lambda x: x[0])
    out = []
    for t, d in ev:
        d["ts"] = round(us(t) / 1e6, 7)
        out.append(json.dumps(d, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(out) + "\n"


def go_dur(s, r):
    """A Go time.Duration's String(): 843.217ms, 1.843217s."""
    ns = int(s * 1e9) // 1000 * 1000
    if ns < 1_000_000_000:
        v = f"{ns / 1e6:.6f}".rstrip("0").rstrip(".")
        return v + "ms"
    v = f"{ns / 1e9:.9f}".rstrip("0").rstrip(".")
    return v + "s"


# ----------------------------------------------------------------------------------------------
# 3. PHP-FPM error log (vetportal, pool www)

def fpm_time(t):
    return t.strftime("%d-%b-%Y %H:%M:%S")


SCRIPT = "/srv/vetportal/public/index.php"


def fpm_log(rng):
    r = rng
    P = plan()
    ev = []
    seq = [0]

    def L(t, level, msg):
        seq[0] += 1
        ev.append((t, seq[0], f"[{fpm_time(t)}] {level}: {msg}"))

    children = []
    nextpid = [7]

    def spawn(t, log=True):
        pid = nextpid[0]
        nextpid[0] += r.randrange(1, 4)
        children.append(pid)
        if log:
            L(t, "NOTICE", f"[pool www] child {pid} started")
        return pid

    def boot(t):
        children.clear()
        nextpid[0] = 7
        L(t, "NOTICE", "fpm is running, pid 1")
        L(t + timedelta(milliseconds=3), "NOTICE", "ready to handle connections")
        for _ in range(8):
            spawn(t, log=False)

    def stderr(t, pid, text):
        L(t, "WARNING", f'[pool www] child {pid} said into stderr: "{text}"')

    # before the deploy: the old container has been up for a day
    nextpid[0] = 3100
    for _ in range(8):
        spawn(START, log=False)
    old = children[:]
    L(FPM_FINISHING, "NOTICE", "Finishing ...")
    boot(FPM_UP_BAD)
    # the bad build: InvoicePdf is missing from the autoloader
    fatal = poisson(r, FATAL_FIRST + timedelta(seconds=1), FATAL_LAST - timedelta(seconds=1), 0.11)
    for t in [FATAL_FIRST] + fatal + [FATAL_LAST]:
        pid = r.choice(children)
        ctl = "/srv/vetportal/src/Http/Controllers/InvoiceController.php"
        for k, text in enumerate([
                'NOTICE: PHP message: PHP Fatal error:  Uncaught Error: Class "Pebblecreek\\Billing\\InvoicePdf" not found in '
                f"{ctl}:88",
                "Stack trace:",
                f"#0 /srv/vetportal/vendor/laravel/framework/src/Illuminate/Routing/Controller.php(54): "
                f"Pebblecreek\\Http\\Controllers\\InvoiceController->download('INV-2032-{r.randrange(40000, 49999)}')",
                "#1 /srv/vetportal/vendor/laravel/framework/src/Illuminate/Routing/ControllerDispatcher.php(43): "
                "Illuminate\\Routing\\Controller->callAction('download', Array)",
                "#2 {main}",
                f"  thrown in {ctl} on line 88"]):
            stderr(t + timedelta(microseconds=k), pid, text)
    L(HOTFIX_FINISHING, "NOTICE", "Finishing ...")
    L(HOTFIX_BYE, "NOTICE", "exiting, bye-bye!")
    boot(HOTFIX_UP)
    # ordinary noise: recycled children, app warnings
    t = START + timedelta(seconds=r.uniform(30, 90))
    quiet = [(QWT[0] - timedelta(seconds=60), QWT[1] + timedelta(seconds=60)),
             (FPM_FINISHING - timedelta(seconds=20), HOTFIX_UP + timedelta(seconds=60))]
    while t < END:
        if t < FPM_FINISHING and not any(in_(t, q) for q in quiet):
            stderr(t, r.choice(old), 'NOTICE: PHP message: PHP Warning:  Undefined array key "species" in '
                                     '/srv/vetportal/src/View/PetCard.php on line 41')
        elif not any(in_(t, q) for q in quiet):
            if r.random() < 0.5 and len(children) > 4:
                pid = children.pop(r.randrange(len(children)))
                L(t, "NOTICE", f"[pool www] child {pid} exited with code 0 after {r.uniform(900, 4000):.6f} seconds from start")
                spawn(t + timedelta(milliseconds=2))
            else:
                pid = r.choice(children)
                stderr(t, pid, r.choice([
                    'NOTICE: PHP message: PHP Warning:  Undefined array key "species" in /srv/vetportal/src/View/PetCard.php on line 41',
                    "NOTICE: PHP message: PHP Deprecated:  strftime() is deprecated in /srv/vetportal/src/View/Reminder.php on line 17",
                    'NOTICE: PHP message: PHP Warning:  Undefined variable $owner in /srv/vetportal/src/Http/Controllers/PetController.php on line 203']))
        t += timedelta(seconds=r.uniform(70, 260))
    # database errors mirrored from PgBouncer (vetportal's persistent PDO connections)
    conn_php = "/srv/vetportal/vendor/laravel/framework/src/Illuminate/Database/Connectors/Connector.php:65"
    for e in P["errors"]:
        if e["conn"]["user"] != "vetportal":
            continue
        pid = r.choice(children)
        msg = {"query_wait_timeout": "ERROR:  query_wait_timeout",
               "server conn crashed?": "ERROR:  server conn crashed?"}.get(
            e["kind"], "ERROR:  server login has been failing, try again later (server_login_retry)")
        stderr(e["t"] + timedelta(milliseconds=1), pid,
               f"NOTICE: PHP message: PDOException: SQLSTATE[08P01]: <<Unknown error>>: 7 {msg} in {conn_php}")
    # the pool fills up while slotd waits on PgBouncer
    slow_starts = poisson(r, FPM_SLOW_FIRST + timedelta(seconds=2), FPM_SLOW_LAST - timedelta(seconds=2), 0.24)
    slow_starts += poisson(r, T(2, 1, 0.5), T(2, 1, 59.5), 0.36)  # the worst minute: the stats' `wait` peaks
    slow_starts = [FPM_SLOW_FIRST] + sorted(slow_starts) + [FPM_SLOW_LAST]
    busy = {}
    for k, t in enumerate(slow_starts):
        idle = [p for p in children if busy.get(p, DAY) <= t - timedelta(seconds=5)]
        pid = r.choice(idle or children)
        method = "GET" if r.random() < 0.6 else "POST"
        late = (t - FPM_SLOW_FIRST).total_seconds()
        L(t, "WARNING", f"[pool www] child {pid}, script '{SCRIPT}' (request: \"{method} /index.php\") executing too slow "
                        f"({5 + r.randrange(1000, 400000) / 1e6:.6f} sec), logging")
        L(t, "NOTICE", f"child {pid} stopped for tracing")
        L(t, "NOTICE", f"about to trace {pid}")
        L(t, "NOTICE", f"finished trace of {pid}")
        timed_out = 60 < late and t < FPM_SLOW_LAST - timedelta(seconds=30) and r.random() < 0.36
        if timed_out:
            te = t + timedelta(seconds=25 + r.uniform(0.003, 0.06))
            L(te, "WARNING", f"[pool www] child {pid}, script '{SCRIPT}' (request: \"{method} /index.php\") execution "
                             f"timed out ({30 + r.randrange(2000, 60000) / 1e6:.6f} sec), terminating")
            L(te, "WARNING", f"[pool www] child {pid} exited on signal 15 (SIGTERM) after {r.uniform(300, 5000):.6f} "
                             f"seconds from start")
            if pid in children:
                children.remove(pid)
            spawn(te + timedelta(milliseconds=1))
        else:
            busy[pid] = t + timedelta(seconds=r.uniform(0.1, 2.5))
            stderr(busy[pid], pid,
                   "NOTICE: PHP message: slotd request failed: cURL error 28: Operation timed out after 5001 "
                   "milliseconds with 0 bytes received (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for "
                   "http://slotd:8088/v1/slots/search")
    # "server reached pm.max_children": once per episode
    t = FPM_MAXCH_FIRST
    while t < FPM_SLOW_LAST - timedelta(seconds=30):
        L(t - timedelta(seconds=1), "WARNING", "[pool www] seems busy (you may need to increase pm.start_servers, or "
                                               f"pm.min/max_spare_servers), spawning 8 children, there are 0 idle, and "
                                               f"{r.randrange(14, 22)} total children")
        L(t, "WARNING", "[pool www] server reached pm.max_children setting (24), consider raising it")
        t += timedelta(seconds=r.uniform(50, 140))
    # slotd is down: curl refused
    for t in [REFUSED[0]] + poisson(r, REFUSED[0] + timedelta(seconds=0.5), REFUSED[1] - timedelta(seconds=0.5), 2.6) + [REFUSED[1]]:
        stderr(t, r.choice(children), "NOTICE: PHP message: slotd request failed: cURL error 7: Failed to connect to slotd "
                                      "port 8088 after 0 ms: Connection refused (see https://curl.haxx.se/libcurl/c/"
                                      "libcurl-errors.html) for http://slotd:8088/v1/slots/search")
    ev.sort(key=lambda x: (x[0].replace(microsecond=0), x[1]))
    return "\n".join(s for _, _, s in ev) + "\n"


# ----------------------------------------------------------------------------------------------
# 4. dockerd / containerd (journalctl -u docker -u containerd -o cat on vh-app-03)

def go_ns(t, r):
    frac = f"{t.microsecond:06d}{r.randrange(1000):03d}".rstrip("0")
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac if frac else "") + "Z"


def cid(r):
    return "%064x" % r.getrandbits(256)


def docker_log(rng):
    r = rng
    ev = []
    fpm_old, fpm_bad, fpm_fix, web, slotd = cid(r), cid(r), cid(r), cid(r), cid(r)

    def L(t, level, msg, **kv):
        parts = [f'time="{go_ns(t, r)}"', f"level={level}", "msg=" + json.dumps(msg)]
        for k, v in kv.items():
            parts.append(f"{k}={v}" if (isinstance(v, str) and v and all(c not in v for c in ' "=*')) else f"{k}={json.dumps(v)}")
        ev.append((t, " ".join(parts)))

    def gone(t, c, stop=False):
        L(t, "info", "shim disconnected", id=c, namespace="moby")
        L(t + timedelta(microseconds=410), "warning", "cleaning up after shim disconnected", id=c, namespace="moby")
        L(t + timedelta(microseconds=722), "info", "cleaning up dead shim", namespace="moby")
        L(t + timedelta(microseconds=1900), "info", "ignoring event", container=c, module="libcontainerd",
          namespace="moby", topic="/tasks/delete", type="*events.TaskDelete")

    def started(t, c, pid):
        for k, (plugin, typ) in enumerate((("io.containerd.event.v1.publisher", "io.containerd.event.v1"),
                                           ("io.containerd.internal.v1.shutdown", "io.containerd.internal.v1"),
                                           ("io.containerd.ttrpc.v1.task", "io.containerd.ttrpc.v1"),
                                           ("io.containerd.ttrpc.v1.pause", "io.containerd.ttrpc.v1"))):
            L(t + timedelta(microseconds=90 * k), "info", f'loading plugin "{plugin}"...', runtime="io.containerd.runc.v2",
              type=typ)
        L(t + timedelta(microseconds=800), "info", "starting signal loop", namespace="moby",
          path=f"/run/containerd/io.containerd.runtime.v2.task/moby/{c}", pid=str(pid), runtime="io.containerd.runc.v2")

    L(T(0, 31, 2.771), "info", "ignoring event", container=cid(r), module="libcontainerd", namespace="moby",
      topic="/tasks/delete", type="*events.TaskDelete")
    span = lambda: {"spanID": "%016x" % r.getrandbits(64), "traceID": "%032x" % r.getrandbits(128)}  # noqa: E731
    L(DOCKER_FORCE, "info", "Container failed to exit within 10s of signal 3 - using the force", container=fpm_old, **span())
    gone(DOCKER_FORCE + timedelta(milliseconds=188), fpm_old)
    L(DOCKER_FORCE + timedelta(milliseconds=191), "error", "stream copy error: reading from a closed fifo")
    started(FPM_UP_BAD - timedelta(milliseconds=510), fpm_bad, 2814417)
    gone(HOTFIX_BYE + timedelta(milliseconds=402), fpm_bad)
    started(HOTFIX_UP - timedelta(milliseconds=488), fpm_fix, 2901233)
    # fluentd is away: every line vetportal-web writes cannot be shipped
    paths = ["/booking", "/booking/slots", "/pets", "/invoices", "/login", "/assets/app.3f9c1e.js", "/api/slots"]
    t = FLUENTD_DOWN + timedelta(milliseconds=415)
    fl = [t]
    while True:
        t += timedelta(seconds=r.expovariate(0.62))
        if t >= FLUENTD_UP - timedelta(milliseconds=500):
            break
        fl.append(t)
    fl.append(FLUENTD_UP - timedelta(milliseconds=481))
    for t in fl:
        nginx = (f'10.30.1.5 - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "GET {r.choice(paths)} HTTP/1.1" 200 '
                 f'{r.randrange(900, 40000)} "-" "Mozilla/5.0 (iPhone; CPU iPhone OS 18_3 like Mac OS X)"')
        L(t, "error", f"Failed to log msg {json.dumps(nginx)} for logger fluentd: fluent#send: can't send logs, client is "
                      f"reconnecting", container=web)
    # slotd is killed (cgroup memory limit) and restarted by its restart policy
    gone(SLOTD_DIE + timedelta(milliseconds=113), slotd)
    L(SLOTD_DIE + timedelta(milliseconds=118), "error", "stream copy error: reading from a closed fifo")
    started(SLOTD_START - timedelta(milliseconds=402), slotd, 3388120)
    ev.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in ev) + "\n"


# ----------------------------------------------------------------------------------------------
# 5. Sidekiq 7 (pretty formatter)

def ruby_float(x):
    s = f"{x:.3f}".rstrip("0")
    return s + "0" if s.endswith(".") else s


def sk_time(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{t.microsecond // 1000:03d}Z"


TIDS = ["2l8x", "2l9h", "2lad", "2lb1", "2lbp", "2lcd", "2ld1", "2ldp", "2led", "2lf1", "2lfp", "2lgd", "2lh1", "2lhp",
        "2lid", "2lj1", "2ljp", "2lkd", "2ll1", "2llp", "2lmd", "2ln1", "2lnp", "2lod", "2lp1"]
BT = {
    "pg": ["/usr/local/bundle/gems/activerecord-7.1.3.4/lib/active_record/connection_adapters/postgresql_adapter.rb:58:in `new'",
           "/usr/local/bundle/gems/activerecord-7.1.3.4/lib/active_record/connection_adapters/postgresql_adapter.rb:58:in `new_client'",
           "/usr/local/bundle/gems/activerecord-7.1.3.4/lib/active_record/connection_adapters/postgresql_adapter.rb:955:in `connect'",
           "/usr/local/bundle/gems/activerecord-7.1.3.4/lib/active_record/connection_adapters/abstract_adapter.rb:1043:in `block in reconnect!'",
           "/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:220:in `execute_job'"],
    "429": ["/usr/local/bundle/gems/twilio-ruby-7.2.1/lib/twilio-ruby/framework/rest/version.rb:156:in `create'",
            "/usr/local/bundle/gems/twilio-ruby-7.2.1/lib/twilio-ruby/rest/api/v2010/account/message.rb:122:in `create'",
            "/app/app/jobs/appointment_reminder_sms_job.rb:19:in `perform'",
            "/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:220:in `execute_job'"],
}


def sidekiq_log(rng):
    r = rng
    P = plan()
    ev = []
    seq = [0]

    def L(t, tid, ctx, level, msg, extra=()):
        seq[0] += 1
        ev.append((t, seq[0], f"{sk_time(t)} pid=7 tid={tid}{ctx} {level}: {msg}" + "".join("\n" + x for x in extra)))

    busy = {}
    for j in P["jobs"]:
        s = j["start"]
        e = s + timedelta(seconds=j["elapsed"])
        tid = next((x for x in TIDS if busy.get(x, DAY) <= s), None) or min(TIDS, key=lambda x: busy.get(x, DAY))
        busy[tid] = e
        ctx = f" class={j['class']} jid={j['jid']}"
        L(s, tid, ctx, "INFO", "start")
        if j["ok"]:
            L(e, tid, ctx + f" elapsed={ruby_float(j['elapsed'])}", "INFO", "done")
            continue
        L(e, tid, ctx + f" elapsed={ruby_float(j['elapsed'])}", "INFO", "fail")
        if j["error"] == "429":
            cls, msg, bt = "Twilio::REST::RestError", "[HTTP 429] 20429 : Unable to create record\nToo Many Requests\nhttps://www.twilio.com/docs/errors/20429\n", BT["429"]
            one_line = "[HTTP 429] 20429 : Unable to create record"
        else:
            where = 'connection to server at "10.30.8.21", port 6432 failed: '
            cls, bt = "PG::ConnectionBad", BT["pg"]
            one_line = msg = where + "ERROR:  " + j["error"]
        rc = j["retry_count"]
        ctxj = {"context": "Job raised exception",
                "job": {"retry": True, "queue": j["queue"], "class": j["class"], "args": j["args"], "jid": j["jid"],
                        "created_at": round(us(s) / 1e6 - (5 if rc is None else 40), 3),
                        "enqueued_at": round(us(s) / 1e6 - 0.004, 3), "error_message": one_line, "error_class": cls,
                        "failed_at": round(us(e) / 1e6 - (0 if rc is None else 90), 3),
                        "retry_count": 0 if rc is None else rc + 1}}
        if rc is not None:
            ctxj["job"]["retried_at"] = round(us(e) / 1e6, 3)
        L(e, tid, ctx, "WARN", json.dumps(ctxj, separators=(",", ":")))
        L(e, tid, ctx, "WARN", f"{cls}: {one_line}")
        L(e, tid, ctx, "WARN", bt[0], bt[1:])
    ev.sort(key=lambda x: (x[0], x[1]))
    return "\n".join(s for _, _, s in ev) + "\n"


# ----------------------------------------------------------------------------------------------
# 6. PgBouncer 1.22

def pgb_time(t):
    return t.strftime("%Y-%m-%d %H:%M:%S") + f".{t.microsecond // 1000:03d} UTC"


class Slab:
    def __init__(self, base, step):
        self.base, self.step, self.free, self.n = base, step, [], 0

    def get(self):
        if self.free:
            return self.free.pop()
        self.n += 1
        return self.base + self.step * self.n

    def put(self, a):
        self.free.append(a)


STATS_PEAK_WAIT = 4_817_233


def pgbouncer_log(rng):
    r = rng
    P = plan()
    ev = []
    seq = [0]

    def L(t, level, msg):
        seq[0] += 1
        ev.append((t, seq[0], f"{pgb_time(t)} [1021] {level} {msg}"))

    cs, ss = Slab(0x55D3A9E1C000, 0x1F0), Slab(0x55D3A9F40000, 0x2C8)
    # client connections: the address is taken at login and given back at close
    marks = []
    for c in P["conns"]:
        if c["open"] >= START:
            marks.append((c["open"], 0, c))
        if c["close"] is not None and START <= c["close"] < END:
            marks.append((c["close"], 1, c))
    errs = {id(e["conn"]): e for e in P["errors"]}
    addr = {}
    for c in P["conns"]:
        if c["open"] < START:
            addr[id(c)] = cs.get()
    marks.sort(key=lambda m: (m[0], m[1]))
    for t, kind, c in marks:
        who = f"{c['db']}/{c['user']}@{c['ip']}:{c['port']}"
        if kind == 0:
            addr[id(c)] = cs.get()
            L(t, "LOG", f"C-0x{addr[id(c)]:x}: {who} login attempt: db={c['db']} user={c['user']} tls=no replication=no")
            continue
        a = addr.get(id(c)) or cs.get()
        age = int((t - c["open"]).total_seconds())
        e = errs.get(id(c))
        if e is not None:
            L(t, "WARNING", f"C-0x{a:x}: {who} pooler error: {e['kind']}")
        L(t, "LOG", f"C-0x{a:x}: {who} closing because: {c['why']} (age={age}s)")
        cs.put(a)
    # server connections
    srv = []
    for user, n in (("slotd", 8), ("vetportal", 6), ("clinic_ops", 14), ("metabase", 2)):
        for _ in range(n):
            srv.append({"user": user, "addr": ss.get(), "port": r.randrange(40000, 60000),
                        "born": START - timedelta(seconds=r.uniform(700, 3500))})

    def srv_who(s):
        return f"clinicdb/{s['user']}@127.0.0.1:5432"

    def renew(s, t, why):
        L(t, "LOG", f"S-0x{s['addr']:x}: {srv_who(s)} closing because: {why} (age={int((t - s['born']).total_seconds())}s)")
        ss.put(s["addr"])
        s["addr"], s["port"], s["born"] = ss.get(), r.randrange(40000, 60000), t + timedelta(milliseconds=r.randrange(1, 40))
        L(s["born"], "LOG", f"S-0x{s['addr']:x}: {srv_who(s)} new connection to server (from 127.0.0.1:{s['port']})")

    outages = [(CRASH1, PG_READY1, RETRY1[1]), (CRASH2, PG_READY2, RETRY2[1])]
    def quiet_period(a, b):
        t = a + timedelta(seconds=r.uniform(20, 90))
        while t < b - timedelta(seconds=5):
            s = min(srv, key=lambda x: x["born"]) if r.random() < 0.5 else r.choice(srv)
            age = (t - s["born"]).total_seconds()
            if age >= 3600:
                renew(s, t, "server lifetime over")
            elif age >= 660:
                renew(s, t, "server idle timeout")
            t += timedelta(seconds=r.uniform(40, 160))

    quiet_period(START, CRASH1)
    for k, (crash, ready, ok) in enumerate(outages):
        for s in srv:
            L(crash + timedelta(microseconds=r.randrange(0, 4000)), "LOG",
              f"S-0x{s['addr']:x}: {srv_who(s)} closing because: server conn crashed? (age={int((crash - s['born']).total_seconds())}s)")
            ss.put(s["addr"])
        tt = crash + timedelta(seconds=1.1)
        while tt < ok - timedelta(seconds=14.5):
            for user in ("slotd", "vetportal", "clinic_ops", "metabase"):
                a = ss.get()
                p = r.randrange(40000, 60000)
                if tt < ready and crash == CRASH2:
                    L(tt + timedelta(milliseconds=r.randrange(0, 40)), "LOG",
                      f"S-0x{a:x}: clinicdb/{user}@127.0.0.1:5432 new connection to server (from 127.0.0.1:{p})")
                if tt < ready:
                    why = ("the database system is in recovery mode" if crash == CRASH2 else "connect failed")
                    if why == "connect failed":
                        L(tt + timedelta(milliseconds=41), "LOG",
                          f"S-0x{a:x}: clinicdb/{user}@127.0.0.1:5432 closing because: connect failed (age=0s)")
                    else:
                        L(tt + timedelta(milliseconds=41), "WARNING",
                          f"S-0x{a:x}: clinicdb/{user}@127.0.0.1:5432 server login failed: FATAL the database system is in recovery mode")
                        L(tt + timedelta(milliseconds=41), "LOG",
                          f"S-0x{a:x}: clinicdb/{user}@127.0.0.1:5432 closing because: login failed (age=0s)")
                    ss.put(a)
                else:
                    ss.put(a)
            tt += timedelta(seconds=15)
        for s in srv:
            s["addr"], s["port"] = ss.get(), r.randrange(40000, 60000)
            s["born"] = ok + timedelta(milliseconds=r.randrange(5, 900))
            L(s["born"], "LOG", f"S-0x{s['addr']:x}: {srv_who(s)} new connection to server (from 127.0.0.1:{s['port']})")
        quiet_period(ok + timedelta(seconds=5), outages[k + 1][0] if k + 1 < len(outages) else END)
    # the scanner's probe of :6432
    a = cs.get()
    sp = r.randrange(40000, 60000)
    L(SCAN_PGB, "WARNING", f"C-0x{a:x}: (nodb)/(nouser)@{SCANNER}:{sp} pooler error: bad packet header")
    L(SCAN_PGB, "LOG", f"C-0x{a:x}: (nodb)/(nouser)@{SCANNER}:{sp} closing because: bad packet header (age=0s)")
    # stats every 60 s; `wait` climbs while the ingest jobs hold every server connection
    t = T(0, 30, 41.002)
    while t < END:
        busy = in_(t, (QWT[0] - timedelta(seconds=50), QWT[1] + timedelta(seconds=20)))
        xacts = r.randrange(31, 58) if not busy else r.randrange(9, 22)
        q = xacts * r.randrange(3, 6)
        if busy:
            x = min((t - QWT[0]).total_seconds(), (QWT[1] - t).total_seconds()) / (QWT[1] - QWT[0]).total_seconds()
            wait = int(900_000 + 5_000_000 * max(0.0, x) * r.uniform(0.85, 1.1))
            wait = min(wait, 3_960_000)
        else:
            wait = r.randrange(11, 190)
        if T(2, 1, 0) <= t < T(2, 2, 0):
            wait = STATS_PEAK_WAIT
        if any(a_ <= t < c for a_, _, c in outages):
            xacts, q, wait = 0, 0, 0
        L(t, "LOG", f"stats: {xacts} xacts/s, {q} queries/s, 0 client parses/s, 0 server parses/s, 0 binds/s, in "
                    f"{q * r.randrange(120, 260)} B/s, out {q * r.randrange(700, 1900)} B/s, xact "
                    f"{r.randrange(1800, 4200) if not busy else r.randrange(900000, 1600000)} us, query "
                    f"{r.randrange(380, 950) if not busy else r.randrange(30000, 190000)} us, wait {wait} us")
        t += timedelta(seconds=60)
    ev.sort(key=lambda x: (x[0], x[1]))
    return "\n".join(s for _, _, s in ev) + "\n"


# ----------------------------------------------------------------------------------------------
# 7. journalctl -o short-iso on vh-db-01

def jts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + "+0000"


def pgts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S") + f".{t.microsecond // 1000:03d} UTC"


def journal_log(rng):
    r = rng
    P = plan()
    ev = []
    seq = [0]
    host = "vh-db-01"

    def L(t, ident, msg):
        seq[0] += 1
        ev.append((t, seq[0], f"{jts(t)} {host} {ident}: {msg}"))

    pids = [22000]

    def pid(step=(3, 40)):
        pids[0] += r.randrange(*step)
        return pids[0]

    def pg(t, ppid, bpid, level, msg, who=""):
        L(t, f"postgres[{ppid}]", f"{pgts(t)} [{bpid}] {who}{level}:  {msg}")

    # cron every minute, sysstat every 10 minutes
    t = T(0, 30)
    ticks = []
    while t < END:
        ticks.append(t)
        t += timedelta(minutes=1)
    for t in ticks:
        p = pid((5, 30))
        tt = t + timedelta(seconds=1, microseconds=r.randrange(1000, 90000))
        L(tt, f"CRON[{p}]", "pam_unix(cron:session): session opened for user postgres(uid=114) by (uid=0)")
        L(tt, f"CRON[{p + 1}]", "(postgres) CMD (/usr/local/bin/pgbouncer-stats-push >/dev/null 2>&1)")
        L(tt + timedelta(seconds=1), f"CRON[{p}]", "pam_unix(cron:session): session closed for user postgres")
        if t.minute % 10 == 0:
            L(t, "systemd[1]", "Starting sysstat-collect.service - system activity accounting tool...")
            L(t + timedelta(seconds=0.2), "systemd[1]", "sysstat-collect.service: Deactivated successfully.")
            L(t + timedelta(seconds=0.2), "systemd[1]", "Finished sysstat-collect.service - system activity accounting tool.")
    # nightly dump fills /var/lib/postgresql
    pdump = pid()
    L(DUMP_START, "systemd[1]", "Starting pg-nightly-dump.service - Nightly pg_dump of clinicdb...")
    L(DUMP_START + timedelta(seconds=0.05), f"pg-nightly-dump.sh[{pdump}]",
      "dumping clinicdb to /var/lib/postgresql/dumps/clinicdb-20320422.dump")
    pm = 1187
    for t in sorted(poisson(r, T(1, 12, 38.5), PANIC - timedelta(seconds=0.4), 1.1)):
        b = pid((1, 6))
        rel = r.choice(["2619341", "2619355", "2608812"])
        pg(t, pm, b, "ERROR", f'could not extend file "base/16402/{rel}": No space left on device', "clinic_ops@clinicdb ")
        pg(t, pm, b, "HINT", "Check free disk space.", "clinic_ops@clinicdb ")
        pg(t, pm, b, "STATEMENT", "INSERT INTO appointment_audit (appointment_id, action, actor_id, created_at) "
                                  "VALUES ($1, $2, $3, $4)", "clinic_ops@clinicdb ")
    L(DUMP_NOSPACE, f"pg-nightly-dump.sh[{pdump}]", "pg_dump: error: could not write to output file: No space left on device")
    L(DUMP_NOSPACE + timedelta(seconds=0.01), "systemd[1]", "pg-nightly-dump.service: Main process exited, code=exited, status=1/FAILURE")
    L(DUMP_NOSPACE + timedelta(seconds=0.01), "systemd[1]", "pg-nightly-dump.service: Failed with result 'exit-code'.")
    L(DUMP_NOSPACE + timedelta(seconds=0.01), "systemd[1]", "Failed to start pg-nightly-dump.service - Nightly pg_dump of clinicdb.")
    L(DUMP_NOSPACE + timedelta(seconds=0.01), "systemd[1]", "pg-nightly-dump.service: Consumed 11min 58.412s CPU time.")
    b = pid((1, 4))
    pg(PANIC, pm, b, "PANIC", f'could not write to file "pg_wal/xlogtemp.{b}": No space left on device')
    pg(PANIC + timedelta(seconds=0.03), pm, pm, "LOG", f"server process (PID {b}) was terminated by signal 6: Aborted")
    pg(PANIC + timedelta(seconds=0.03), pm, pm, "LOG", "terminating any other active server processes")
    pg(PANIC + timedelta(seconds=0.2), pm, pm, "LOG", "all server processes terminated; reinitializing")
    st = pid((2, 5))
    pg(PANIC + timedelta(seconds=0.25), pm, st, "LOG", "database system was interrupted; last known up at 2032-04-22 01:08:13 UTC")
    pg(PANIC + timedelta(seconds=0.26), pm, st, "LOG", "database system was not properly shut down; automatic recovery in progress")
    pg(PANIC + timedelta(seconds=0.27), pm, st, "LOG", "redo starts at 3A/91000028")
    pg(PANIC + timedelta(seconds=0.9), pm, st, "FATAL", f'could not write to file "pg_wal/xlogtemp.{st}": No space left on device')
    pg(PANIC + timedelta(seconds=0.91), pm, pm, "LOG", f"startup process (PID {st}) exited with exit code 1")
    pg(PANIC + timedelta(seconds=0.91), pm, pm, "LOG", "aborting startup due to startup process failure")
    pg(PANIC + timedelta(seconds=0.93), pm, pm, "LOG", "database system is shut down")
    t = PANIC + timedelta(seconds=0.95)
    L(t, "systemd[1]", "postgresql@16-main.service: Main process exited, code=exited, status=1/FAILURE")
    L(t, "systemd[1]", "postgresql@16-main.service: Failed with result 'exit-code'.")
    counter = 0
    t += timedelta(seconds=10)
    ssh_pid = None
    sudo_done = 0
    while True:
        # operator activity in between restarts
        while sudo_done < len(SUDO) and SUDO[sudo_done][0] <= t:
            ts, cmd = SUDO[sudo_done]
            sp = pid()
            L(ts, f"sudo[{sp}]", f" opsadmin : TTY=pts/0 ; PWD=/home/opsadmin ; USER=root ; COMMAND={cmd}")
            L(ts, f"sudo[{sp}]", "pam_unix(sudo:session): session opened for user root(uid=0) by opsadmin(uid=1001)")
            L(ts + timedelta(seconds=0.02), f"sudo[{sp}]", "pam_unix(sudo:session): session closed for user root")
            sudo_done += 1
        if ssh_pid is None and SSH1[0] <= t:
            ssh_pid = pid()
            ts = SSH1[0] + timedelta(seconds=0.31)
            L(ts, f"sshd[{ssh_pid}]", "Accepted publickey for opsadmin from 10.30.0.10 port 50122 ssh2: ED25519 "
                                      "SHA256:q7Hk2c0WmKp1vB9x4TtYfJ3nL8dRzE6sA5uGhXoNiQw")
            L(ts, f"sshd[{ssh_pid}]", "pam_unix(sshd:session): session opened for user opsadmin(uid=1001) by (uid=0)")
            L(ts + timedelta(seconds=0.01), "systemd-logind[702]", "New session 4127 of user opsadmin.")
            L(ts + timedelta(seconds=0.02), "systemd[1]", "Started session-4127.scope - Session 4127 of User opsadmin.")
        counter += 1
        L(t, "systemd[1]", f"postgresql@16-main.service: Scheduled restart job, restart counter is at {counter}.")
        L(t, "systemd[1]", "Starting postgresql@16-main.service - PostgreSQL Cluster 16-main...")
        pm = pid((2, 9))
        t1 = t + timedelta(seconds=0.31)
        pg(t1, pm, pm, "LOG", "starting PostgreSQL 16.6 (Ubuntu 16.6-1.pgdg22.04+1) on x86_64-pc-linux-gnu, compiled by gcc "
                              "(Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, 64-bit")
        pg(t1, pm, pm, "LOG", 'listening on IPv4 address "127.0.0.1", port 5432')
        st = pid((1, 4))
        if t1 > SUDO[-1][0]:
            break
        pg(t1 + timedelta(seconds=0.02), pm, st, "LOG", "database system was interrupted while in recovery at 2032-04-22 "
                                                        f"{(t - timedelta(seconds=10)).strftime('%H:%M:%S')} UTC")
        pg(t1 + timedelta(seconds=0.02), pm, st, "LOG", "database system was not properly shut down; automatic recovery in progress")
        pg(t1 + timedelta(seconds=0.03), pm, st, "LOG", "redo starts at 3A/91000028")
        pg(t1 + timedelta(seconds=0.7), pm, st, "FATAL", f'could not write to file "pg_wal/xlogtemp.{st}": No space left on device')
        pg(t1 + timedelta(seconds=0.71), pm, pm, "LOG", f"startup process (PID {st}) exited with exit code 1")
        pg(t1 + timedelta(seconds=0.71), pm, pm, "LOG", "aborting startup due to startup process failure")
        pg(t1 + timedelta(seconds=0.73), pm, pm, "LOG", "database system is shut down")
        t2 = t1 + timedelta(seconds=0.76)
        L(t2, "systemd[1]", "postgresql@16-main.service: Control process exited, code=exited, status=1/FAILURE")
        L(t2, "systemd[1]", "postgresql@16-main.service: Failed with result 'exit-code'.")
        L(t2, "systemd[1]", "Failed to start postgresql@16-main.service - PostgreSQL Cluster 16-main.")
        t = t2 + timedelta(seconds=10)
    # the attempt after the rm succeeds
    pg(t1 + timedelta(seconds=0.02), pm, st, "LOG", "database system was interrupted while in recovery at 2032-04-22 "
                                                    f"{(t - timedelta(seconds=10)).strftime('%H:%M:%S')} UTC")
    pg(t1 + timedelta(seconds=0.02), pm, st, "LOG", "database system was not properly shut down; automatic recovery in progress")
    pg(t1 + timedelta(seconds=0.03), pm, st, "LOG", "redo starts at 3A/91000028")
    pg(t1 + timedelta(seconds=1.2), pm, st, "LOG", "redo done at 3A/9203C1F0 system usage: CPU: user: 0.61 s, system: 0.30 s, elapsed: 1.17 s")
    pg(t1 + timedelta(seconds=1.3), pm, pid((1, 3)), "LOG", "checkpoint starting: end-of-recovery immediate wait")
    assert PG_READY1 > t1 + timedelta(seconds=2), (PG_READY1, t1)
    pg(PG_READY1 - timedelta(seconds=0.4), pm, pids[0], "LOG", "checkpoint complete: wrote 2211 buffers (1.7%); 0 WAL file(s) "
                                                               "added, 0 removed, 2 recycled; write=2.918 s, sync=0.204 s, total=3.311 s")
    pg(PG_READY1, pm, pm, "LOG", "database system is ready to accept connections")
    L(PG_READY1 + timedelta(seconds=0.05), "systemd[1]", "Started postgresql@16-main.service - PostgreSQL Cluster 16-main.")
    end1 = SSH1[0] + timedelta(seconds=SSH1[1])
    L(end1, f"sshd[{ssh_pid}]", "Received disconnect from 10.30.0.10 port 50122:11: disconnected by user")
    L(end1, f"sshd[{ssh_pid}]", "Disconnected from user opsadmin 10.30.0.10 port 50122")
    L(end1, f"sshd[{ssh_pid}]", "pam_unix(sshd:session): session closed for user opsadmin")
    L(end1 + timedelta(seconds=0.01), "systemd[1]", "session-4127.scope: Deactivated successfully.")
    L(end1 + timedelta(seconds=0.01), "systemd-logind[702]", "Session 4127 logged out. Waiting for processes to exit.")
    L(end1 + timedelta(seconds=0.02), "systemd-logind[702]", "Removed session 4127.")
    # the OOM killer takes the metabase report's backend
    pids[0] = 48700
    oom_lines = [
        "postgres invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0",
        f"CPU: 3 PID: {OOM_PID} Comm: postgres Not tainted 6.8.0-1021-aws #23~22.04.1-Ubuntu",
        "Hardware name: Amazon EC2 r6i.xlarge/, BIOS 1.0 10/16/2017",
        "Call Trace:", " <TASK>", " dump_stack_lvl+0x76/0xa0", " dump_header+0x4a/0x240", " oom_kill_process+0xf9/0x190",
        " out_of_memory+0x256/0x540", " __alloc_pages_slowpath.constprop.0+0x9d5/0xe40", " __alloc_pages+0x31f/0x350",
        " alloc_pages_mpol+0x91/0x210", " folio_alloc+0x1d/0x60", " __filemap_get_folio+0x1d4/0x460",
        " filemap_fault+0x5a0/0x9e0", " __do_fault+0x3b/0x170", " do_fault+0x2a3/0x4c0", " handle_mm_fault+0x188/0x370",
        " do_user_addr_fault+0x2ea/0x6b0", " exc_page_fault+0x7f/0x180", " asm_exc_page_fault+0x27/0x30", " </TASK>",
        "Mem-Info:",
        "active_anon:61204 inactive_anon:7833920 isolated_anon:0\n active_file:214 inactive_file:118 isolated_file:0",
        "Node 0 DMA32: 2066*4kB (UME) 1021*8kB (UME) 418*16kB (UME) 51*32kB (UM) 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 26344kB",
        "Tasks state (memory values in pages):",
        "[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name",
        f"[  {pm:5d}]   114 {pm:5d}  1125341    31022   675840        0          -900 postgres",
        f"[  {OOM_PID}]   114 {OOM_PID}  2327938  2145091 16404480        0             0 postgres",
        "[  48811]   114 48811  1127519    40211   720896        0             0 postgres",
        "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,"
        f"task_memcg=/system.slice/system-postgresql.slice/postgresql@16-main.service,task=postgres,pid={OOM_PID},uid=114",
    ]
    t = OOM_INVOKED
    for k, m in enumerate(oom_lines):
        for part in m.split("\n"):
            L(t + timedelta(microseconds=300 * k), "kernel", part)
    L(OOM_KILLED, "kernel", f"Out of memory: Killed process {OOM_PID} (postgres) total-vm:9311752kB, anon-rss:8580364kB, "
                            f"file-rss:0kB, shmem-rss:1154224kB, UID:114 pgtables:16020kB oom_score_adj:0")
    L(OOM_KILLED + timedelta(seconds=0.09), "systemd[1]", "postgresql@16-main.service: A process of this unit has been killed by the OOM killer.")
    pg(CRASH2 - timedelta(seconds=0.05), pm, pm, "LOG", f"server process (PID {OOM_PID}) was terminated by signal 9: Killed")
    pg(CRASH2 - timedelta(seconds=0.05), pm, pm, "DETAIL", "Failed process was running: SELECT v.clinic_id, "
                                                            "date_trunc('week', v.visit_at) AS wk, count(*), sum(i.total_cents) "
                                                            "FROM visits v JOIN invoices i ON i.visit_id = v.id GROUP BY 1, 2 ORDER BY 4 DESC")
    pg(CRASH2 - timedelta(seconds=0.05), pm, pm, "LOG", "terminating any other active server processes")
    pg(CRASH2 + timedelta(seconds=0.31), pm, pm, "LOG", "all server processes terminated; reinitializing")
    st = 48861
    pg(CRASH2 + timedelta(seconds=0.42), pm, st, "LOG", "database system was interrupted; last known up at 2032-04-22 02:35:12 UTC")
    pg(CRASH2 + timedelta(seconds=0.43), pm, st, "LOG", "database system was not properly shut down; automatic recovery in progress")
    pg(CRASH2 + timedelta(seconds=0.44), pm, st, "LOG", "redo starts at 3B/2A001F8")
    pg(PG_READY2 - timedelta(seconds=2.1), pm, st, "LOG", "redo done at 3B/2F19A3C0 system usage: CPU: user: 3.12 s, system: 1.07 s, elapsed: 5.18 s")
    pg(PG_READY2 - timedelta(seconds=2.0), pm, 48862, "LOG", "checkpoint starting: end-of-recovery immediate wait")
    pg(PG_READY2 - timedelta(seconds=0.1), pm, 48862, "LOG", "checkpoint complete: wrote 9120 buffers (7.0%); 0 WAL file(s) "
                                                             "added, 0 removed, 5 recycled; write=1.602 s, sync=0.188 s, total=1.901 s")
    pg(PG_READY2, pm, pm, "LOG", "database system is ready to accept connections")
    # second ssh session (the OOM investigation)
    sp = 49213
    ts = SSH2[0] + timedelta(seconds=0.29)
    L(ts, f"sshd[{sp}]", "Accepted publickey for opsadmin from 10.30.0.10 port 50377 ssh2: ED25519 "
                         "SHA256:q7Hk2c0WmKp1vB9x4TtYfJ3nL8dRzE6sA5uGhXoNiQw")
    L(ts, f"sshd[{sp}]", "pam_unix(sshd:session): session opened for user opsadmin(uid=1001) by (uid=0)")
    L(ts + timedelta(seconds=0.01), "systemd-logind[702]", "New session 4131 of user opsadmin.")
    L(ts + timedelta(seconds=0.02), "systemd[1]", "Started session-4131.scope - Session 4131 of User opsadmin.")
    for dt, cmd in ((52, "/usr/bin/journalctl -k --since -10min"), (131, "/usr/bin/free -m"),
                    (402, "/usr/bin/psql -U postgres -c ALTER ROLE metabase SET work_mem = '64MB'")):
        sp2 = 49213 + dt
        L(SSH2[0] + timedelta(seconds=dt), f"sudo[{sp2}]", f" opsadmin : TTY=pts/1 ; PWD=/home/opsadmin ; USER=root ; COMMAND={cmd}")
        L(SSH2[0] + timedelta(seconds=dt), f"sudo[{sp2}]", "pam_unix(sudo:session): session opened for user root(uid=0) by opsadmin(uid=1001)")
        L(SSH2[0] + timedelta(seconds=dt + 0.4), f"sudo[{sp2}]", "pam_unix(sudo:session): session closed for user root")
    end2 = SSH2[0] + timedelta(seconds=SSH2[1])
    L(end2, f"sshd[{sp}]", "Received disconnect from 10.30.0.10 port 50377:11: disconnected by user")
    L(end2, f"sshd[{sp}]", "Disconnected from user opsadmin 10.30.0.10 port 50377")
    L(end2, f"sshd[{sp}]", "pam_unix(sshd:session): session closed for user opsadmin")
    L(end2 + timedelta(seconds=0.01), "systemd[1]", "session-4131.scope: Deactivated successfully.")
    L(end2 + timedelta(seconds=0.01), "systemd-logind[702]", "Session 4131 logged out. Waiting for processes to exit.")
    L(end2 + timedelta(seconds=0.02), "systemd-logind[702]", "Removed session 4131.")
    # the scanner's version probes reach sshd
    L(SCAN_SSH, "sshd[51230]", f"banner exchange: Connection from {SCANNER} port {r.randrange(40000, 60000)}: invalid format")
    L(SCAN_SSH + timedelta(seconds=5.1), "sshd[51233]", "error: kex_exchange_identification: Connection closed by remote host")
    L(SCAN_SSH + timedelta(seconds=5.1), "sshd[51233]", f"Connection closed by {SCANNER} port {r.randrange(40000, 60000)}")
    ev.sort(key=lambda x: (x[0].replace(microsecond=0), x[1]))
    return "\n".join(s for _, _, s in ev) + "\n"
