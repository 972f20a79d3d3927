"""Writes the `queries-heldout21` fixtures: one night (2036-09-13, 00:00-04:00 UTC) at Brindlewood
Tickets, an online box office. Three logs, written from one shared plan so that the files agree:

- `alb-access.log`: the AWS Application Load Balancer `app/tix-prod-alb/5f3c2a9d7e1b4c60` in the
  ALB access-log format (space-separated, quoted request, user agent and lists; `time` is when the
  response was sent, `request_creation_time` when the request arrived; `-1` for a processing time
  the target never gave, `-` for a target status it never sent);
- `postgresql-16-main.log`: the PostgreSQL 16 primary `tix-pg-1` writing to stderr with Debian's
  `log_line_prefix = '%m [%p] %q%u@%d '` (`log_min_duration_statement = 250ms`, `log_lock_waits`,
  `log_checkpoints`, `log_autovacuum_min_duration = 1s`); continuation lines start with a tab;
- `redis-server.log`: the Redis 7.2 primary `tix-redis-1` (`pid:role dd Mon yyyy hh:mm:ss.mmm
  level message`, loglevel notice), its RDB child processes logging with role `C`.

Standard library only; everything comes from one seeded `random.Random`.
"""

import math
import random
from datetime import datetime, timedelta

DAY = datetime(2036, 9, 13)
EPOCH = datetime(1970, 1, 1)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def ms(x):
    return timedelta(milliseconds=x)


def secs(x):
    return timedelta(seconds=x)


START, END = T(0, 0), T(4, 0)

ALB, PG, REDIS = "alb-access.log", "postgresql-16-main.log", "redis-server.log"

# every standard HTTP status: no figure an answer must hold reads like one
STATUS_LIKE = ({100, 101, 102, 103, 226, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 510, 511}
               | set(range(200, 209)) | set(range(300, 309)) | set(range(400, 419)) | set(range(500, 509)))

# --- the ALB
ELB = "app/tix-prod-alb/5f3c2a9d7e1b4c60"
REGION, ACCT = "eu-central-1", "481516234200"
TG = {"api": f"arn:aws:elasticloadbalancing:{REGION}:{ACCT}:targetgroup/tix-api/0b9c4f2a6e3d1a77",
      "web": f"arn:aws:elasticloadbalancing:{REGION}:{ACCT}:targetgroup/tix-web/7d21c0e94f5ab318"}
CERT = f"arn:aws:acm:{REGION}:{ACCT}:certificate/3f1c9b2e-7a4d-4e61-9c0b-2d8e5f7a1b64"
API_HOST, WWW_HOST = "api.brindlewood-tix.com", "www.brindlewood-tix.com"
API_TARGETS = ["10.30.2.21", "10.30.2.22", "10.30.2.23", "10.30.2.24"]
WEB_TARGETS = ["10.30.1.11", "10.30.1.12", "10.30.1.13", "10.30.1.14"]
BOT_IP = "203.0.113.45"          # a seat scraper during the on-sales
PARTNER_IP = "192.0.2.140"       # a reseller's sync, all night
OFFICE_IP = "198.51.100.23"      # the box office's own NAT
PACK_IP = "198.51.100.210"       # a promoter downloading the venue pack
ONSALE_EVENT, ONSALE2_EVENT = 48213, 48377

# --- the night's planted events
ONSALE = T(1, 0, 0)                          # event 48213 goes on sale: the ALB's busiest minute
OBL_PEAK = T(1, 2)                           # redis closes pub/sub relays for output buffer limits
REBUILD = T(2, 5, 30)                        # the nightly seat-map rebuild floods redis
REPLICA_LOST = [T(2, 10, 14, 388000), T(2, 12, 3, 71000), T(2, 13, 58, 512000), T(2, 15, 49, 204000)]
CANT_FIRST = T(2, 18, 3, 117000)             # fork: Cannot allocate memory, every 6 s
CANT_LAST_BEFORE = T(2, 31, 40)              # overcommit_memory=1 set just before this
PG_FULL_FIRST = T(2, 52, 41, 118000)         # tix_worker 3.8.0 leaks connections: too many clients
PG_FULL_LAST = T(3, 4, 31, 604000)
PG_TERMINATE = T(3, 4, 48, 310000)           # pg_terminate_backend of the leaked sessions
FIRST_504 = T(2, 52, 55, 402118)             # request_creation_time of the first 504 (ends 60 s later)
LAST_504 = T(3, 4, 40, 118204)
TIMEOUT_PEAK = T(2, 58)                      # statement timeouts pile up in this minute
SLOWEST = T(3, 12, 5, 611000)                # the reseller's settlement report: the slowest ALB request
METABASE_SLOW = T(3, 17, 22, 318000)         # the slowest statement in postgres
ONSALE2 = T(3, 30, 0)                        # a smaller presale (event 48377)
PACK_AT = T(3, 41, 9, 204000)                # the venue pack: the biggest ALB reply

ORDER_500S = [T(0, 23, 41, 208000), T(0, 47, 12, 611000), T(1, 33, 5, 90000), T(1, 51, 48, 733000),
              T(3, 22, 16, 412000), T(3, 47, 55, 108000)]   # an old bug in GET /api/v2/orders/{id}

UAS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36",
       "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/605.1.15",
       "Mozilla/5.0 (iPhone; CPU iPhone OS 19_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.1 Mobile/15E148 Safari/604.1",
       "Mozilla/5.0 (X11; Linux x86_64; rv:141.0) Gecko/20100101 Firefox/141.0",
       "Mozilla/5.0 (Linux; Android 16; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36",
       "BrindlewoodTix/5.14.2 (iOS 19.1; iPhone17,2)", "okhttp/4.12.0"]


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _epoch(t):
    return (t - EPOCH).total_seconds()


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _minute(t):
    return t.replace(second=0, microsecond=0)


def _plateau(values, p, fix, pad=3):
    """Raises the values around every percentile definition's rank of the p-th percentile to one
    value (the window's top, nudged by `fix`), so that all definitions agree. Returns (value, new list)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    n = len(values)
    x = p / 100
    ranks = [math.ceil(x * n) - 1, int((n - 1) * x), int((n - 1) * x) + 1, int((n + 1) * x - 1),
             int((n + 1) * x - 1) + 1, int(x * n)]
    lo, hi = max(0, min(ranks) - pad), min(n - 1, max(ranks) + pad)
    v = fix(values[order[hi]])
    out = list(values)
    for i in order[lo:]:
        if out[i] < v:
            out[i] = v
    return v, out


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.alb = []       # ALB requests
        self.pg = []        # postgres entries: (t, seq, [lines])
        self.rd = []        # redis lines: (t, seq, line)
        self.seq = 0
        self._redis()
        self._postgres()
        self._alb()

    # ------------------------------------------------------------ redis-server.log
    def R(self, t, pid, role, level, msg):
        self.seq += 1
        self.rd.append((t, self.seq, pid, role, level, msg))

    def _save(self, t, why, cow_peak=None, took=None):
        """One BGSAVE: the parent forks, the child writes and reports its copy-on-write, the parent reaps it."""
        rng = self.rng
        self.child += rng.randint(3, 420)
        pid = self.child
        if why:
            self.R(t, self.mpid, "M", "*", why)
        t1 = t + ms(rng.uniform(0.2, 0.9))
        self.R(t1, self.mpid, "M", "*", f"Background saving started by pid {pid}")
        took = took if took is not None else rng.uniform(1.6, 3.4)
        t2 = t1 + secs(took)
        self.R(t2, pid, "C", "*", "DB saved on disk")
        peak = cow_peak if cow_peak is not None else rng.randint(2, 46)
        cur = max(1, peak - rng.randint(0, min(peak - 1, 6)))
        self.R(t2 + ms(rng.uniform(1, 4)), pid, "C", "*",
               f"Fork CoW for RDB: current {cur} MB, peak {peak} MB, average {max(1, peak // 2)} MB")
        t3 = t2 + ms(rng.uniform(60, 140))
        self.R(t3, self.mpid, "M", "*", "Background saving terminated with success")
        self.cows.append(peak)
        return t3

    def _client(self, rng, cid, addr, name, flags, cmd, user, omem, age, sub=(0, 0)):
        oll = omem // 16384 + rng.randint(0, 40)
        return (f"Client id={cid} addr={addr} laddr=10.30.5.10:6379 fd={rng.randint(9, 900)} name={name} "
                f"age={age} idle=0 flags={flags} db=0 sub={sub[0]} psub={sub[1]} ssub=0 multi=-1 qbuf=0 "
                f"qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll={oll} omem={omem} "
                f"tot-mem={omem + 22528 + rng.randint(0, 4096)} events=rw cmd={cmd} user={user} redir=-1 resp=2 "
                f"lib-name= lib-ver= scheduled to be closed ASAP for overcoming of output buffer limits.")

    def _redis(self):
        rng = self.rng
        self.mpid, self.child, self.cows = 2178, 480113, []
        self.obl = []   # (t, ip, omem)
        cid = [913402]
        # output buffer closures of the seat-map relays (pub/sub): on-sale 1 and on-sale 2
        relay_w = [0.16, 0.2, 0.46, 0.18]   # 10.30.1.13's relays carry the on-sale event's channel

        def closures(times):
            for t in times:
                ip = rng.choices(WEB_TARGETS, relay_w)[0]
                cid[0] += rng.randint(20, 900)
                hard = rng.random() < 0.6
                omem = 33554432 + rng.randint(1000, 900000) if hard else rng.randint(8400000, 33000000)
                self.obl.append((t, ip, omem))
                self.R(t, self.mpid, "M", "#", self._client(rng, cid[0], f"{ip}:{rng.randint(32768, 60999)}",
                                                            "seatmap-relay", "P", "psubscribe", "tix-web", omem,
                                                            rng.randint(2, 900), (0, 1)))
        w1 = ([ONSALE + secs(rng.uniform(40, 60)) for _ in range(4)] + [OBL_PEAK + secs(rng.uniform(0, 59.9)) for _ in range(21)]
              + [T(1, 1) + secs(rng.uniform(0, 59.9)) for _ in range(11)]
              + [T(1, 3) + secs(rng.uniform(0, 409)) for _ in range(38)])
        closures(sorted(w1))
        closures(sorted(ONSALE2 + secs(rng.uniform(35, 370)) for _ in range(27)))
        # periodic saves: "100 changes in 300 seconds" when quiet, "10000 changes in 60 seconds" when busy
        busy = [(T(0, 59, 50), T(1, 31)), (REBUILD, T(2, 18)), (T(3, 29, 50), T(3, 45))]
        sync_at = []
        t = START + secs(rng.uniform(40, 200))
        while t < END - secs(30):
            if any(a <= t < b for a, b in busy):
                if REPLICA_LOST[0] - secs(40) <= t < CANT_FIRST:
                    t = CANT_FIRST
                    break
                end = self._save(t, f"{rng.randint(10000, 48000)} changes in 60 seconds. Saving...")
                t = max(t + secs(60) + ms(rng.uniform(100, 900)), end + ms(rng.uniform(100, 900)))
            else:
                end = self._save(t, f"{rng.randint(100, 9800)} changes in 300 seconds. Saving...")
                t = t + secs(300) + ms(rng.uniform(100, 900))
                for a, b in busy:      # the rule of 60 s fires soon after a busy period starts
                    if t > a > end and a < END:
                        t = a + secs(rng.uniform(20, 50))
            if t >= CANT_FIRST and t < CANT_LAST_BEFORE:
                t = CANT_FIRST
                break
        # the seat-map rebuild: the replica's output buffer overflows four times during its full syncs
        rep = "10.30.5.11:6379"
        for i, lost in enumerate(REPLICA_LOST):
            cid[0] += rng.randint(20, 400)
            self.R(lost - ms(rng.uniform(1, 3)), self.mpid, "M", "#",
                   self._client(rng, cid[0], f"10.30.5.11:{rng.randint(40000, 60999)}", "", "S", "replconf", "default",
                                268435456 + rng.randint(1000, 60000), rng.randint(60, 110)))
            self.obl.append((lost - ms(2), "10.30.5.11", None))
            self.R(lost, self.mpid, "M", "#", f"Connection with replica {rep} lost.")
            a = lost + ms(rng.uniform(900, 1300))
            self.R(a, self.mpid, "M", "*", f"Replica {rep} asks for synchronization")
            self.R(a + ms(1), self.mpid, "M", "*",
                   f"Unable to partial resync with replica {rep} for lack of backlog (Replica request was: {81234567890 + i * 912345677}).")
            self.R(a + ms(2), self.mpid, "M", "*", "Starting BGSAVE for SYNC with target: disk")
            peak = [1843, 1211, 964, 1388][i]
            done = self._save(a + ms(3), None, cow_peak=peak, took=rng.uniform(18, 26))
            self.R(done + secs(rng.uniform(14, 22)), self.mpid, "M", "*", f"Synchronization with replica {rep} succeeded")
            sync_at.append(done)
        # fork fails from 02:18:03 every 6 s until vm.overcommit_memory is set
        t = CANT_FIRST
        self.cant = []
        while t < CANT_LAST_BEFORE:
            self.R(t - ms(rng.uniform(0.1, 0.4)), self.mpid, "M", "*",
                   f"{rng.randint(10000, 60000)} changes in 60 seconds. Saving...")
            self.R(t, self.mpid, "M", "#", "Can't save in background: fork: Cannot allocate memory")
            self.cant.append(t)
            t += secs(6) + ms(rng.uniform(-60, 60))
        self.saved_ok = self._save(t + secs(1.9), f"{rng.randint(200000, 260000)} changes in 60 seconds. Saving...",
                                   cow_peak=412, took=4.118)
        t = self.saved_ok + secs(61)
        while t < END - secs(20):
            if any(a <= t < b for a, b in busy):
                end = self._save(t, f"{rng.randint(10000, 48000)} changes in 60 seconds. Saving...")
                t = max(t + secs(60) + ms(rng.uniform(100, 900)), end + ms(rng.uniform(100, 900)))
            else:
                end = self._save(t, f"{rng.randint(100, 9800)} changes in 300 seconds. Saving...")
                t = t + secs(300) + ms(rng.uniform(100, 900))
                for a, b in busy:
                    if t > a > end:
                        t = a + secs(rng.uniform(20, 50))

    # ------------------------------------------------------------ postgresql-16-main.log
    def P(self, t, pid, who, lines):
        """One log entry: its lines ((severity, text), continuation lines in the text after '\\n')."""
        self.seq += 1
        self.pg.append((t, self.seq, pid, who, lines))

    def _postgres(self):
        rng = self.rng
        self.api_pids = [318800 + i * 7 + rng.randint(0, 5) for i in range(40)]
        self.worker_pids = [319210 + i * 5 + rng.randint(0, 3) for i in range(10)]
        self.mb_pids = [320102, 320118, 320131]
        xid = [9120000]
        durs = []   # (t, user, pid, kind, stmt, ms)

        def seats_q(ev):
            return ("SELECT s.seat_id, s.section, s.row_label, s.seat_number, s.price_cents FROM seats s "
                    "LEFT JOIN seat_holds h ON h.seat_id = s.seat_id AND h.expires_at > now() "
                    f"WHERE s.event_id = $1 AND h.seat_id IS NULL ORDER BY s.section, s.row_label, s.seat_number", f"$1 = '{ev}'")

        def api_stmt():
            k = rng.random()
            if k < 0.35:
                return seats_q(rng.choice([ONSALE_EVENT, 48102, 48190, 48377, 47955]))
            if k < 0.6:
                return ("SELECT o.order_id, o.status, o.total_cents, o.created_at FROM orders o WHERE o.customer_id = $1 "
                        "ORDER BY o.created_at DESC LIMIT 20", f"$1 = '{rng.randint(100000, 999999)}'")
            if k < 0.8:
                return ("UPDATE seat_holds SET expires_at = now() + interval '10 minutes' WHERE hold_id = $1",
                        f"$1 = '{_hex(rng, 8)}-{_hex(rng, 4)}-4{_hex(rng, 3)}-a{_hex(rng, 3)}-{_hex(rng, 12)}'")
            return ("INSERT INTO orders (customer_id, event_id, total_cents, idempotency_key) VALUES ($1, $2, $3, $4) "
                    "RETURNING order_id", f"$1 = '{rng.randint(100000, 999999)}', $2 = '{rng.choice([48213, 48102])}', "
                    f"$3 = '{rng.randint(2500, 48000)}', $4 = '{_hex(rng, 32)}'")

        def worker_stmt():
            return rng.choice(["DELETE FROM seat_holds WHERE expires_at < now() - interval '1 minute'",
                               f"UPDATE orders SET status = 'fulfilled', fulfilled_at = now() WHERE order_id = {rng.randint(7000000, 7999999)}",
                               f"UPDATE seat_maps SET layout = layout || '{{}}'::jsonb, rebuilt_at = now() WHERE event_id = {rng.randint(47000, 48400)}"])

        def mb_stmt():
            return (f"-- Metabase:: userID: 12 queryType: MBQL queryHash: {_hex(rng, 64)}\n"
                    "SELECT date_trunc('hour', o.created_at) AS created_at, sum(o.total_cents) AS sum, count(*) AS count "
                    "FROM public.orders o JOIN public.order_items i ON i.order_id = o.order_id "
                    "WHERE o.created_at >= date_trunc('month', now()) GROUP BY 1 ORDER BY 1 ASC")

        # slow statements: base rate plus the on-sales and the rebuild
        for t in _poisson(rng, START, END, 1.4):
            durs.append((t, "tix_api", rng.choice(self.api_pids), "api", None, _lognorm(rng, 420, 0.45)))
        for a, b, rate in ((ONSALE, T(1, 20), 9.0), (ONSALE2, T(3, 38), 5.0)):
            for t in _poisson(rng, a + secs(5), b, rate):
                durs.append((t, "tix_api", rng.choice(self.api_pids), "seats", None, _lognorm(rng, 900, 0.5)))
        for t in _poisson(rng, START, END, 0.45):
            durs.append((t, "tix_worker", rng.choice(self.worker_pids), "worker", None, _lognorm(rng, 380, 0.4)))
        for t in _poisson(rng, REBUILD, T(2, 17), 2.0):
            durs.append((t, "tix_worker", rng.choice(self.worker_pids), "worker", None, _lognorm(rng, 700, 0.4)))
        for t in _poisson(rng, START, END, 0.12):
            durs.append((t, "metabase", rng.choice(self.mb_pids), "mb", None, _lognorm(rng, 2600, 0.7)))
        durs = [d for d in durs if not (METABASE_SLOW - secs(90) < d[0] < METABASE_SLOW + secs(90))]
        durs.append((METABASE_SLOW, "metabase", 320118, "mb", None, 41231.113))
        vals = [d[5] if d[0] == METABASE_SLOW else min(250.0 + d[5] * 0.6, 16000.0) for d in durs]

        def fix(x):
            v = math.floor(x * 10) / 10 + 0.1
            return round(v + 0.012 + rng.randint(0, 20) / 1000, 3)
        self.pg_p50, vals = _plateau(vals, 50, fix)
        for d, v in zip(durs, vals):
            t, user, pid, kind, _, _ = d
            v = round(v, 3)
            if kind in ("api", "seats"):
                stmt, params = seats_q(ONSALE_EVENT if kind == "seats" and t < T(2, 0) else ONSALE2_EVENT) if kind == "seats" else api_stmt()
                self.P(t, pid, f"{user}@tix", [("LOG", f"duration: {v:.3f} ms  execute <unnamed>: {stmt}"),
                                               ("DETAIL", f"Parameters: {params}")])
            elif kind == "worker":
                self.P(t, pid, f"{user}@tix", [("LOG", f"duration: {v:.3f} ms  statement: {worker_stmt()}")])
            else:
                self.P(t, pid, f"{user}@tix", [("LOG", f"duration: {v:.3f} ms  execute <unnamed>: {mb_stmt()}")])
        self.durs = durs

        def hold_upd():
            return (f"UPDATE seat_holds SET customer_id = $1, expires_at = now() + interval '10 minutes' "
                    f"WHERE seat_id = $2 AND (expires_at < now() OR customer_id = $1)")

        def lock_wait(t, pid, who, rel, stmt, waited=None):
            xid[0] += rng.randint(1, 40)
            holder = rng.choice([p for p in self.api_pids if p != pid]) if who.startswith("tix_api") else rng.choice(self.worker_pids)
            tup = f"({rng.randint(100, 4000)},{rng.randint(1, 60)})"
            self.P(t, pid, who, [("LOG", f"process {pid} still waiting for ShareLock on transaction {xid[0]} after {1000 + rng.uniform(0.01, 0.6):.3f} ms"),
                                 ("DETAIL", f"Process holding the lock: {holder}. Wait queue: {pid}."),
                                 ("CONTEXT", f"while updating tuple {tup} in relation \"{rel}\""),
                                 ("STATEMENT", stmt)])
            if waited:
                self.P(t + secs(waited - 1), pid, who, [("LOG", f"process {pid} acquired ShareLock on transaction {xid[0]} after {waited * 1000:.3f} ms"),
                                                       ("CONTEXT", f"while updating tuple {tup} in relation \"{rel}\""),
                                                       ("STATEMENT", stmt)])
            return holder

        self.lock_waits = []
        self.deadlocks = []
        # on-sale 1: seat holds contend (01:00-01:22), with deadlocks; on-sale 2 (03:30-03:37)
        for a, b, rate, dl in ((ONSALE + secs(21), T(1, 22), 5.2, 21), (ONSALE2 + secs(30), T(3, 37), 3.4, 0)):
            ts = _poisson(rng, a, b, rate)
            for t in ts:
                pid = rng.choice(self.api_pids)
                lock_wait(t, pid, "tix_api@tix", "seat_holds", hold_upd(), waited=round(rng.uniform(1.1, 4.8), 3))
                self.lock_waits.append(t)
            for t in sorted(rng.sample(ts, dl)):
                p1, p2 = rng.sample(self.api_pids, 2)
                xid[0] += 3
                s1 = f"UPDATE seat_holds SET customer_id = {rng.randint(100000, 999999)}, expires_at = now() + interval '10 minutes' WHERE seat_id = {rng.randint(4000000, 4999999)}"
                s2 = f"UPDATE seat_holds SET customer_id = {rng.randint(100000, 999999)}, expires_at = now() + interval '10 minutes' WHERE seat_id = {rng.randint(4000000, 4999999)}"
                t2 = t + ms(rng.uniform(1001, 1100))
                self.P(t2, p1, "tix_api@tix", [
                    ("ERROR", "deadlock detected"),
                    ("DETAIL", f"Process {p1} waits for ShareLock on transaction {xid[0]}; blocked by process {p2}.\n"
                               f"Process {p2} waits for ShareLock on transaction {xid[0] - 2}; blocked by process {p1}.\n"
                               f"Process {p1}: {s1}\nProcess {p2}: {s2}"),
                    ("HINT", "See server log for query details."),
                    ("CONTEXT", f"while updating tuple ({rng.randint(100, 4000)},{rng.randint(1, 60)}) in relation \"seat_holds\""),
                    ("STATEMENT", s1)])
                self.deadlocks.append(t2)
        # idempotent retries of the checkout during the on-sales and the redis outage
        self.dups = []
        for t in sorted([ONSALE + secs(rng.uniform(30, 1300)) for _ in range(14)] + [CANT_FIRST + secs(rng.uniform(10, 800)) for _ in range(9)]
                        + [ONSALE2 + secs(rng.uniform(40, 500)) for _ in range(7)]):
            key = _hex(rng, 32)
            self.P(t, rng.choice(self.api_pids), "tix_api@tix", [
                ("ERROR", "duplicate key value violates unique constraint \"orders_idempotency_key_key\""),
                ("DETAIL", f"Key (idempotency_key)=({key}) already exists."),
                ("STATEMENT", "INSERT INTO orders (customer_id, event_id, total_cents, idempotency_key) VALUES ($1, $2, $3, $4) RETURNING order_id")])
            self.dups.append(t)
        # 02:48 tix_worker 3.8.0 leaks idle-in-transaction sessions: they hold order rows; the pool fills
        self.fatal = []
        self.leaked = []
        nxt = [412000]
        for t in _poisson(rng, T(2, 48, 30), PG_FULL_FIRST - secs(2), 9.0):
            nxt[0] += rng.randint(3, 60)
            self.leaked.append(nxt[0])
        t = PG_FULL_FIRST
        while t <= PG_FULL_LAST:
            nxt[0] += rng.randint(3, 60)
            who = rng.choices(["tix_api@tix", "tix_worker@tix", "metabase@tix"], [0.72, 0.24, 0.04])[0]
            self.P(t, nxt[0], who, [("FATAL", "sorry, too many clients already")])
            self.fatal.append(t)
            t += secs(rng.expovariate(14.5 / 60))
            if t > PG_FULL_LAST and self.fatal[-1] < PG_FULL_LAST:
                t = PG_FULL_LAST
        # orders UPDATEs wait for the leaked rows and hit statement_timeout (30 s)
        self.timeouts = []
        ts = ([t for t in _poisson(rng, T(2, 50), T(3, 4, 30), 2.9) if _minute(t) != TIMEOUT_PEAK]
              + [TIMEOUT_PEAK + secs(rng.uniform(0, 59.5)) for _ in range(18)])
        for t in sorted(ts):
            pid = rng.choice(self.api_pids)
            stmt = f"UPDATE orders SET status = 'paid', paid_at = now() WHERE order_id = {rng.randint(7000000, 7999999)}"
            lock_wait(t - secs(29), pid, "tix_api@tix", "orders", stmt)
            self.lock_waits.append(t - secs(29))
            self.P(t, pid, "tix_api@tix", [("ERROR", "canceling statement due to statement timeout"),
                                           ("CONTEXT", f"while updating tuple ({rng.randint(100, 9000)},{rng.randint(1, 60)}) in relation \"orders\""),
                                           ("STATEMENT", stmt)])
            self.timeouts.append(t)
        for i, pid in enumerate(self.leaked):
            self.P(PG_TERMINATE + ms(i * 0.9 + rng.uniform(0, 0.5)), pid, "tix_worker@tix",
                   [("FATAL", "terminating connection due to administrator command")])
        # checkpoints every 5 minutes, spread over 270 s
        self.ckpt = []
        ck = 1046
        t = T(0, 3, 12, 96000)
        while t < END - secs(280):
            busy = ONSALE - secs(60) < t < ONSALE + secs(240)
            buf = rng.randint(19000, 21400) if busy else (rng.randint(6000, 9800) if ONSALE < t < T(1, 35) or REBUILD < t < T(2, 20) else rng.randint(900, 5200))
            self.P(t, ck, None, [("LOG", "checkpoint starting: time")])
            w = 269.8 + rng.uniform(0, 0.3)
            s = rng.uniform(0.004, 0.09)
            end = t + secs(w + s + 0.01)
            added, rec = (1, 3) if busy else (0, rng.randint(0, 2))
            self.P(end, ck, None, [("LOG", f"checkpoint complete: wrote {buf} buffers ({100 * buf / 524288:.1f}%); {added} WAL file(s) added, "
                                           f"0 removed, {rec} recycled; write={w:.3f} s, sync={s:.3f} s, total={w + s + 0.01:.3f} s; "
                                           f"sync files={rng.randint(18, 70)}, longest={rng.uniform(0.001, 0.02):.3f} s, "
                                           f"average={rng.uniform(0.0005, 0.002):.3f} s; distance={buf * 8 + rng.randint(0, 9000)} kB, "
                                           f"estimate={buf * 8 + rng.randint(9000, 20000)} kB")])
            self.ckpt.append((end, buf))
            t += secs(300)
        # autovacuum
        for t in sorted(START + secs(rng.uniform(0, 14300)) for _ in range(18)):
            rel = rng.choices(["seat_holds", "orders", "carts", "sessions"], [6, 3, 3, 2])[0]
            pages = rng.randint(800, 40000)
            dead = rng.randint(2000, 90000)
            el = rng.uniform(1.1, 9.5)
            body = (f"automatic vacuum of table \"tix.public.{rel}\": index scans: 1\n"
                    f"pages: 0 removed, {pages} remain, {pages} scanned (100.00% of total)\n"
                    f"tuples: {dead} removed, {dead * 4 + rng.randint(0, 9999)} remain, 0 are dead but not yet removable\n"
                    f"removable cutoff: {xid[0] + 11}, which was {rng.randint(3, 40)} XIDs old when operation ended\n"
                    f"index scan needed: {pages // 2} pages from table ({50 + rng.uniform(0, 40):.2f}% of total) had {dead} dead item identifiers removed\n"
                    f"index \"{rel}_pkey\": pages: {pages // 7} in total, 0 newly deleted, 0 currently deleted, 0 reusable\n"
                    f"avg read rate: {rng.uniform(5, 60):.3f} MB/s, avg write rate: {rng.uniform(2, 30):.3f} MB/s\n"
                    f"buffer usage: {pages * 3} hits, {pages // 4} misses, {pages // 5} dirtied\n"
                    f"WAL usage: {dead // 2} records, {pages // 6} full page images, {dead * 180} bytes\n"
                    f"system usage: CPU: user: {el * 0.2:.2f} s, system: {el * 0.05:.2f} s, elapsed: {el:.2f} s")
            self.P(t, rng.randint(420000, 430000), None, [("LOG", body)])

    # ------------------------------------------------------------ alb-access.log
    def A(self, start, ip, host, method, path, st, tpt, sent, ua=None, proto=None, target=None, recv=None, tst=None):
        rng = self.rng
        api = host == API_HOST
        sent = sent + 20 if 495 <= sent <= 515 else sent    # no byte count reads like a 5xx status
        proto = proto or ("HTTP/2.0" if rng.random() < 0.8 else "HTTP/1.1")
        target = target or rng.choice(API_TARGETS if api else WEB_TARGETS)
        rpt = 0.0 if rng.random() < 0.7 else 0.001
        if tpt is None:      # no response from the target: a 504 after the 60 s idle timeout
            end = start + secs(60) + ms(rng.uniform(0.3, 2.5))
        else:
            end = start + secs(rpt + tpt) + ms(rng.uniform(0.1, 1.5))
        self.alb.append({"start": start, "end": end, "ip": ip, "cport": rng.randint(1024, 65535), "host": host,
                         "method": method, "path": path, "st": st, "tst": tst if tst is not None else (st if tpt is not None else None),
                         "rpt": rpt, "tpt": tpt, "sent": sent, "recv": recv if recv is not None else rng.choice([rng.randint(60, 490), rng.randint(520, 900)] if method == "GET" else [rng.randint(520, 4200)]),
                         "ua": ua or rng.choice(UAS), "proto": proto, "target": target, "api": api})

    def _alb(self):
        rng = self.rng
        pool = [f"{net}.{i}" for net in ("203.0.113", "198.51.100", "192.0.2") for i in range(1, 255)]
        pool = [ip for ip in pool if ip not in (BOT_IP, PARTNER_IP, OFFICE_IP, PACK_IP)]
        pool = rng.sample(pool, 460)
        slugs = ["the-lanterns-live-48213", "harbour-orchestra-48102", "midnight-comedy-48190", "velvet-static-48377",
                 "city-derby-47955", "jazz-on-the-pier-48044"]

        def page(t, ip, ua):
            k = rng.random()
            if k < 0.45:
                s = rng.choice(slugs)
                self.A(t, ip, WWW_HOST, "GET", f"/events/{s}", 200, rng.uniform(0.018, 0.12), rng.randint(31000, 52000), ua=ua)
            elif k < 0.6:
                self.A(t, ip, WWW_HOST, "GET", "/", 200, rng.uniform(0.012, 0.08), rng.randint(38000, 44000), ua=ua)
            elif k < 0.8:
                cached = rng.random() < 0.7
                self.A(t, ip, WWW_HOST, "GET", "/static/js/app.7c41e9b2.js", 304 if cached else 200, rng.uniform(0.001, 0.006),
                       rng.randint(210, 260) if cached else 412118 + rng.randint(0, 300), ua=ua)
            else:
                self.A(t, ip, WWW_HOST, "GET", f"/static/img/events/{rng.choice(slugs)}.webp", 200, rng.uniform(0.002, 0.02),
                       rng.randint(40000, 180000), ua=ua)

        def api(t, ip, ua, ev=None):
            k = rng.random()
            ev = ev or rng.choice([ONSALE_EVENT, 48102, 48190, 48377, 47955, 48044])
            if k < 0.22:
                self.A(t, ip, API_HOST, "GET", f"/api/v2/events/{ev}", 200, rng.uniform(0.015, 0.09), rng.randint(3000, 9000), ua=ua)
            elif k < 0.42:
                self.A(t, ip, API_HOST, "GET", f"/api/v2/events/{ev}/seats", 200, _lognorm(rng, 0.09, 0.5), rng.randint(18000, 90000), ua=ua)
            elif k < 0.58:
                self.A(t, ip, API_HOST, "GET", "/api/v2/cart", 200, rng.uniform(0.01, 0.05), rng.randint(900, 4000), ua=ua)
            elif k < 0.74:
                self.A(t, ip, API_HOST, "POST", "/api/v2/cart", 201, rng.uniform(0.03, 0.14), rng.randint(900, 4000), ua=ua)
            elif k < 0.84:
                self.A(t, ip, API_HOST, "POST", "/api/v2/checkout", 200, _lognorm(rng, 0.35, 0.4), rng.randint(600, 1800), ua=ua)
            else:
                oid = rng.randint(7000000, 7999999)
                self.A(t, ip, API_HOST, "GET", f"/api/v2/orders/{oid}", 200, rng.uniform(0.02, 0.1), rng.randint(1500, 6000), ua=ua)

        def visitor(t):
            ip = rng.choice(pool[:260]) if rng.random() < 0.7 else rng.choice(pool)
            ua = rng.choice(UAS)
            (page if rng.random() < 0.45 else api)(t, ip, ua)

        for t in _poisson(rng, START, END, 13.0):
            visitor(t)
        # on-sale 1 (01:00) and 2 (03:30): the seat maps of the event, real fans and the scraper
        for a, ev, scale in ((ONSALE, ONSALE_EVENT, 1.0), (ONSALE2, ONSALE2_EVENT, 0.35)):
            for m, rate in enumerate([360, 170, 110, 80, 60, 45, 35, 30, 25, 20]):
                for t in _poisson(rng, a + timedelta(minutes=m), a + timedelta(minutes=m + 1), rate * scale):
                    ip = rng.choice(pool)
                    if rng.random() < 0.6:
                        self.A(t, ip, API_HOST, "GET", f"/api/v2/events/{ev}/seats", 200, _lognorm(rng, 0.3, 0.45),
                               rng.randint(60000, 96000))
                    else:
                        api(t, ip, rng.choice(UAS), ev)
            for t in _poisson(rng, a - secs(20), a + timedelta(minutes=14), 30 * scale):
                self.A(t, BOT_IP, API_HOST, "GET", f"/api/v2/events/{ev}/seats", 200, _lognorm(rng, 0.3, 0.45),
                       rng.randint(60000, 96000), ua="python-requests/2.32.3", proto="HTTP/1.1")
        # the reseller's sync, all night
        for t in _poisson(rng, START, END, 1.35):
            self.A(t, PARTNER_IP, API_HOST, "GET", f"/api/v2/partner/inventory?event={rng.choice([48213, 48102, 48190, 48377])}&page={rng.randint(1, 9)}",
                   200, rng.uniform(0.05, 0.4), rng.randint(12000, 40000), ua="Go-http-client/1.1", proto="HTTP/1.1")
        self.A(SLOWEST, PARTNER_IP, API_HOST, "GET", "/api/v2/partner/settlement?month=2036-08", 200, 47.312, 2318204,
               ua="Go-http-client/1.1", proto="HTTP/1.1", target="10.30.2.22")
        # the box office's NAT: staff browsing, all night
        for t in _poisson(rng, START, END, 0.62):
            (page if rng.random() < 0.3 else api)(t, OFFICE_IP, UAS[0])
        # the promoter's venue pack (and a few pages first)
        for k in range(6):
            page(PACK_AT - secs(200 - k * 31), PACK_IP, UAS[1])
        self.A(PACK_AT, PACK_IP, WWW_HOST, "GET", "/downloads/venue-pack-48213.zip", 200, 0.084, 58203411, ua=UAS[1])
        # fixed order bug 500s
        for t in ORDER_500S:
            self.A(t, rng.choice(pool), API_HOST, "GET", f"/api/v2/orders/{rng.randint(7000000, 7999999)}", 500,
                   rng.uniform(0.02, 0.06), rng.randint(180, 260))
        # clear out: no other request may carry a 5xx; then the incidents rewrite the affected ones
        writes = ("/api/v2/cart", "/api/v2/checkout")
        for r in self.alb:
            if r["host"] != API_HOST or r["path"].startswith("/api/v2/partner/"):
                continue
            # redis MISCONF: every call that writes the session (all but the seat maps) fails with 500 until a
            # save succeeds
            if CANT_FIRST + secs(2) < r["start"] and r["end"] < self.saved_ok - secs(1) and not r["path"].endswith("/seats"):
                r.update(st=500, tst=500, tpt=round(rng.uniform(0.004, 0.02), 3), sent=rng.randint(190, 260))
                r["end"] = r["start"] + secs(r["tpt"]) + ms(rng.uniform(0.1, 1.0))
            # postgres full: orders, checkout and cart writes hang past the idle timeout
            elif FIRST_504 <= r["start"] <= LAST_504 and (r["path"].startswith("/api/v2/orders/") or r["path"] in writes
                                                          or (r["path"].startswith("/api/v2/events/") and not r["path"].endswith("/seats"))):
                r.update(st=504, tst=None, tpt=None, rpt=0.0, sent=rng.randint(272, 290))
                r["end"] = r["start"] + secs(60) + ms(rng.uniform(0.3, 2.5))
        # the first and the last 504 at their planted seconds
        for t in (FIRST_504, LAST_504):
            self.A(t, rng.choice(pool), API_HOST, "POST", "/api/v2/checkout", 504, None, rng.randint(272, 290))
        self.alb = [r for r in self.alb if r["start"] < END - secs(62)]
        for r in self.alb:
            if r["tpt"] is not None:
                r["tpt"] = round(r["tpt"], 3)
        self._plateau_seats()
        self._tune_share()
        self.alb.sort(key=lambda r: r["end"])

    def _plateau_seats(self):
        rows = [r for r in self.alb if r["path"] == f"/api/v2/events/{ONSALE_EVENT}/seats"]
        assert all(r["st"] == 200 for r in rows)

        def fix(x):
            return round(math.floor(x * 1000) / 1000 + 0.001, 3)
        self.seats_p95, vals = _plateau([r["tpt"] for r in rows], 95, fix)
        for r, v in zip(rows, vals):
            if v != r["tpt"]:
                r["end"] += secs(v - r["tpt"])
                r["tpt"] = v

    def _tune_share(self):
        """The share of 5xx off its rounding edge: a few more late page views."""
        rng = self.rng
        while True:
            n = len(self.alb)
            d = sum(1 for r in self.alb if r["st"] >= 500)
            p = 100 * d / n
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            self.A(T(3, 50) + secs(rng.uniform(0, 300)), f"203.0.113.{rng.randint(1, 254)}", WWW_HOST, "GET", "/", 200, rng.uniform(0.012, 0.08), rng.randint(38000, 44000))


# ------------------------------------------------------------ rendering

def _iso(t):
    return f"{t:%Y-%m-%dT%H:%M:%S}.{t.microsecond:06d}Z"


def _f3(x):
    return "-1" if x is None else f"{x:.3f}"


def alb_log(night, seed):
    rng = random.Random(seed + 1)
    out = []
    for r in night.alb:
        typ = "h2" if r["proto"] == "HTTP/2.0" else "https"
        port = 9000 if r["api"] else 8080
        tgt = f"{r['target']}:{port}"
        tst = "-" if r["tst"] is None else str(r["tst"])
        rspt = None if r["tpt"] is None else (0.0 if rng.random() < 0.85 else 0.001)
        cipher, tls = ("TLS_AES_128_GCM_SHA256", "TLSv1.3") if rng.random() < 0.8 else ("ECDHE-RSA-AES128-GCM-SHA256", "TLSv1.2")
        root = f"Root=1-{int(_epoch(r['start'])):08x}-{_hex(rng, 24)}"
        prio = "10" if r["api"] else "0"
        out.append(f"{typ} {_iso(r['end'])} {ELB} {r['ip']}:{r['cport']} {tgt} {r['rpt']:.3f} {_f3(r['tpt'])} {_f3(rspt)} "
                   f"{r['st']} {tst} {r['recv']} {r['sent']} \"{r['method']} https://{r['host']}:443{r['path']} {r['proto']}\" "
                   f"\"{r['ua']}\" {cipher} {tls} {TG['api' if r['api'] else 'web']} \"{root}\" \"{r['host']}\" \"{CERT}\" "
                   f"{prio} {_iso(r['start'])} \"forward\" \"-\" \"-\" \"{tgt}\" \"{tst}\" \"-\" \"-\" TID_{_hex(rng, 16)}")
    return "\n".join(out) + "\n"


def pg_log(night, seed):
    out = []
    for t, _, pid, who, lines in sorted(night.pg, key=lambda x: (x[0], x[1])):
        stamp = f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d} UTC [{pid}] " + (f"{who} " if who else "")
        for sev, text in lines:
            out.append(stamp + f"{sev}:  " + text.replace("\n", "\n\t"))
    return "\n".join(out) + "\n"


MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def redis_log(night, seed):
    out = []
    for t, _, pid, role, level, msg in sorted(night.rd, key=lambda x: (x[0], x[1])):
        out.append(f"{pid}:{role} {t.day:02d} {MON[t.month - 1]} {t.year} {t:%H:%M:%S}.{t.microsecond // 1000:03d} {level} {msg}")
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {ALB: alb_log(night, seed), PG: pg_log(night, seed), REDIS: redis_log(night, seed)}, night
