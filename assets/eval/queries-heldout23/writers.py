"""Writes the `queries-heldout23` fixtures: one night (2037-02-19, 00:00-04:00 UTC) at Kettlewell Reefer
Lines, a fleet of refrigerated trailers ("reefers") whose controllers report over MQTT. One ingest box
(`kw-ingest-01`) runs the broker, the metrics agent and the fleet API; three logs are written from one
shared plan of the night, so that the files agree:

- `reefer-api.log`: the fleet API, a Go service on Echo v4 with Echo's `middleware.Logger()` in its
  default JSON template (`{"time":"<RFC3339Nano>","id":"","remote_ip":...,"host":...,"method":...,
  "uri":...,"user_agent":...,"status":N,"error":"...","latency":<ns>,"latency_human":"<Go duration>",
  "bytes_in":N,"bytes_out":N}`, written when a request ends) and two lines of the app's own
  `e.Logger` (gommon/log JSON: time, level, prefix, file, line, message), in one file;
- `mosquitto.log`: Eclipse Mosquitto 2.0.18 with the Debian default `log_dest file` and no
  `log_timestamp_format`, so every line starts with the Unix time (`1234567890: message`); the
  trailers connect over TLS on 8883 (client certificates, `use_identity_as_username`), the local
  services over 1883 with passwords;
- `telegraf.log`: Telegraf 1.30 with `debug = true` and `logfile` set
  (`2006-01-02T15:04:05Z L! [plugin] message`): `inputs.mqtt_consumer` (json_v2) feeding
  `outputs.influxdb_v2` (timeout 5 s) and `outputs.prometheus_client`, `flush_interval = 10s`,
  `metric_batch_size = 1000`, `metric_buffer_limit = 50000`.

Standard library only; everything comes from one seeded `random.Random`.
"""

import calendar
import math
import random
from datetime import datetime, timedelta

DAY = datetime(2037, 2, 19)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def secs(x):
    return timedelta(seconds=x)


def ms(x):
    return timedelta(milliseconds=x)


def ns_td(n):
    return timedelta(microseconds=n / 1000)


def epoch(t):
    return calendar.timegm(t.utctimetuple())


START, END = T(0, 0), T(4, 0)

API, BROKER, TG = "reefer-api.log", "mosquitto.log", "telegraf.log"

# every standard HTTP status: no figure an answer must hold reads like one
STATUS_LIKE = ({100, 101, 102, 103, 226, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 510, 511}
               | set(range(200, 209)) | set(range(300, 309)) | set(range(400, 419)) | set(range(500, 509)))

# --- fixed clients of the API
TMS_IP = "203.0.113.45"          # a shipper's TMS polling the active shipments every 15 s
PROM_IP = "10.20.0.9"            # Prometheus scraping /metrics every 20 s
PARTNER_IP = "198.51.100.72"     # the ColdTrace integration, every 30 s; its API key rotated at 01:12
UPTIME_IP = "198.51.100.14"      # the uptime monitor, every 60 s
DISPATCH_IPS = ["10.20.8.11", "10.20.8.12", "10.20.8.13", "10.20.8.15", "10.20.8.17"]
OPS_IP = "10.20.8.40"            # the on-call engineer
MQTTX_IP = "10.20.7.44"          # a contractor's laptop with a stale password
MQTTX_ID = "mqttx_5c81f2a9"

HAMMER = "kwr-21766"             # old firmware: retries the certificate renewal every 20 s
FLAKY = "kwr-23150"              # a failing modem: its link drops every ~12 minutes
BADJSON = "kwr-24093"            # a corrupt sensor board: a truncated payload now and then

# --- the night's planted events
KEY_ROTATED = T(1, 12, 0)                       # ColdTrace's API key rotated: 401s from then on
PHASES = [(T(1, 47, 22, 300000), T(1, 57, 50)),  # InfluxDB compaction stalls: writes and queries hang
          (T(2, 8, 30), T(2, 19, 40)),
          (T(2, 31, 5), T(2, 36, 20))]
FIRST504_AT = T(1, 48, 3, 206000)               # the first dashboard temps query to time out (starts)
ALERT_DROPS = [T(1, 49, 37, 410000), T(1, 53, 12, 80000), T(1, 56, 40, 650000), T(2, 10, 5, 220000),
               T(2, 13, 51, 900000), T(2, 17, 22, 310000), T(2, 32, 48, 770000), T(2, 35, 30, 140000)]
SLOW_BATCH_NS = 4981726413                      # the slowest influxdb_v2 batch that still succeeded
SLOW_BATCH_AFTER = T(2, 13, 0)
EXPIRY = T(2, 0, 0)                             # 37 controllers' client certificates expire
OUTAGE_LOSS = (T(0, 40, 10), T(0, 49, 0))       # a cell-site outage: 74 trailers lose their link
OUTAGE_BACK = (T(0, 58, 10), T(1, 5, 0))
QUIET = [(T(0, 35), T(0, 40)), (T(0, 55), T(1, 0))]   # no other keepalive timeout here
MQTTX_AT = [T(1, 31, 7, 112000), T(1, 31, 19, 845000), T(1, 31, 44, 7000), T(1, 32, 30, 520000)]
FW_DL = (T(2, 41, 0), T(2, 49, 0))              # 64 controllers download firmware 5.1.0
OTA_OFF = (T(2, 51, 0), T(2, 51, 30))           # ... and reboot into it
OTA_ON = (T(2, 52, 3), T(2, 52, 50))
RESTART = T(3, 5, 41, 262000)                   # mosquitto restarted (to load a new CA bundle)
RUNNING = T(3, 5, 53, 118000)
TG_REFUSED = T(3, 5, 50, 2100)
TG_CONNECTED = T(3, 6, 0, 3800)
API_RECONNECT = T(3, 6, 12, 540000)
ALERTS_RECONNECT = T(3, 5, 55, 410000)
SETPOINT_503 = [T(3, 5, 44, 810000), T(3, 5, 58, 120000), T(3, 6, 7, 930000)]
REPORT_AT = T(3, 19, 2, 311000)                 # the month's excursion report: the slowest request
REPORT_NS = 133_407_518_902
PKI_FIX = T(3, 38, 10)                          # Vault unsealed: renewals succeed again
PG_SLOW = (T(0, 21, 0), T(0, 27, 0))            # autovacuum on shipments: statement timeouts

N_UNITS = 860
BATCH, LIMIT = 1000, 50000
INFLUX = "http://127.0.0.1:8086"
WRITE_URL = f"{INFLUX}/api/v2/write?bucket=reefer&org=kettlewell"


def go_dur(n):
    """Go's time.Duration.String() of n nanoseconds."""
    def frac(v, prec):
        ip, fp = divmod(v, 10 ** prec)
        fs = f"{fp:0{prec}d}".rstrip("0")
        return f"{ip}.{fs}" if fs else f"{ip}"
    if n == 0:
        return "0s"
    if n < 1000:
        return f"{n}ns"
    if n < 1_000_000:
        return frac(n, 3) + "\u00b5s"
    if n < 1_000_000_000:
        return frac(n, 6) + "ms"
    h, rem = divmod(n, 3600 * 10 ** 9)
    m, rem = divmod(rem, 60 * 10 ** 9)
    out = ""
    if h:
        out += f"{h}h"
    if h or m:
        out += f"{m}m"
    return out + frac(rem, 9) + "s"


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


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


def in_phase(t):
    return any(a <= t < b for a, b in PHASES)


class Req:
    __slots__ = ("start", "lat", "ip", "method", "path", "status", "err", "seq", "kind", "ua")

    def __init__(self, start, lat, ip, method, path, status, err=None, kind=None, ua=None):
        self.start, self.lat, self.ip, self.method, self.path, self.status, self.err, self.kind, self.ua = \
            start, int(lat), ip, method, path, status, err, kind, ua

    @property
    def end(self):
        return self.start + ns_td(self.lat)


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.mq = []        # (t, seq, msg)
        self.api = []       # Req or (t, seq, text) for std-log lines
        self.apilog = []
        self.tg = []        # (t, seq, level, msg)
        self.seq = 0
        self.sessions = {}  # unit -> [(start, end, ip)]
        self.fw = {}
        self.renew_ok = {}
        self.parse_errors = []
        rng = self.rng
        pool = [f"10.72.{a}.{b}" for a in range(0, 64) for b in range(1, 255)]
        rng.shuffle(pool)
        self.ip_pool = pool
        nums = [n for n in range(20000, 30000) if n not in (21766, 23150, 24093)]
        units = sorted([f"kwr-{n}" for n in rng.sample(nums, N_UNITS - 3)] + [HAMMER, FLAKY, BADJSON])
        self.units = units
        rest = [u for u in units if u not in (HAMMER, FLAKY, BADJSON)]
        pick = rng.sample(rest, 36 + 64 + 74)
        self.expired = sorted([HAMMER] + pick[:36])
        self.ota = sorted(pick[36:100])
        self.outage = sorted(pick[100:])
        for u in units:
            self.fw[u] = "4.6.1" if u == HAMMER else rng.choice(["4.9.2", "4.9.2", "4.9.2", "4.8.7"])
        self._units()
        self._services()
        self._api()
        self._telegraf()

    # ------------------------------------------------------------ helpers
    def M(self, t, msg):
        self.seq += 1
        self.mq.append((t, self.seq, msg))

    def F(self, t, level, msg):
        self.seq += 1
        self.tg.append((t, self.seq, level, msg))

    def A(self, r):
        assert r.ip, r.path
        self.seq += 1
        r.seq = self.seq
        self.api.append(r)
        return r

    def L(self, t, msg):
        self.seq += 1
        self.apilog.append((t, self.seq, msg))

    def new_ip(self):
        return self.ip_pool.pop()

    def port(self):
        return self.rng.randint(32768, 60999)

    # ------------------------------------------------------------ trailers on the broker
    def connect_ok(self, u, t, ip, already=False):
        p = self.port()
        self.M(t, f"New connection from {ip}:{p} on port 8883.")
        if already:
            self.M(t, f"Client {u} already connected, closing old connection.")
        self.M(t, f"New client connected from {ip}:{p} as {u} (p2, c0, k120, u'{u}').")

    def attempt(self, u, at, ip, already=False):
        """The controller connects at `at`; returns when it is connected (None: not before END)."""
        if not (u in self.expired and at >= EXPIRY and not self.renew_ok.get(u)):
            self.connect_ok(u, at, ip, already)
            return at
        rng = self.rng
        a, k = at, 0
        while a < END - secs(20):
            if not (RESTART <= a < RUNNING):
                self.M(a, f"New connection from {ip}:{self.port()} on port 8883.")
                self.M(a, "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed")
                self.M(a, "Client <unknown> disconnected: Protocol error.")
                r = a + secs(rng.uniform(1.0, 2.5))
                if r >= PKI_FIX:
                    lat = rng.uniform(0.38, 0.93)
                    self.A(Req(r, lat * 1e9 + rng.randint(0, 999), ip, "POST", f"/v1/units/{u}/cert/renew", 201, kind="renew",
                               ua=f"kwr-ctl/{self.fw[u]}"))
                    self.renew_ok[u] = r + secs(lat)
                    c = r + secs(lat + rng.uniform(3, 8))
                    self.connect_ok(u, c, ip)
                    return c
                lat = rng.uniform(0.021, 0.069)
                self.A(Req(r, lat * 1e9 + rng.randint(0, 999), ip, "POST", f"/v1/units/{u}/cert/renew", 503,
                           err=f"pki: issue cert for {u}: vault: Vault is sealed", kind="renew", ua=f"kwr-ctl/{self.fw[u]}"))
            if u == HAMMER:
                a += secs(20 + rng.uniform(-1, 1))
            else:
                a += secs(min(300, 30 * 2 ** k) * rng.uniform(0.8, 1.2))
                k += 1
        return None

    def _units(self):
        rng = self.rng
        outage_loss = {u: OUTAGE_LOSS[0] + secs(rng.uniform(0, (OUTAGE_LOSS[1] - OUTAGE_LOSS[0]).total_seconds()))
                       for u in self.outage}
        outage_back = {u: OUTAGE_BACK[0] + secs(rng.uniform(0, (OUTAGE_BACK[1] - OUTAGE_BACK[0]).total_seconds()))
                       for u in self.outage}
        ota_off = {u: OTA_OFF[0] + secs(rng.uniform(0, 30)) for u in self.ota}
        ota_on = {u: OTA_ON[0] + secs(rng.uniform(0, (OTA_ON[1] - OTA_ON[0]).total_seconds())) for u in self.ota}
        self.ota_on = ota_on
        self.restart_back = {}
        for u in self.units:
            ip = self.new_ip()
            sess = []
            since = START
            specials = [(RESTART, "restart")]
            if u in outage_loss:
                specials.append((outage_loss[u], "outage"))
            if u in ota_off:
                specials.append((ota_off[u], "ota"))
            specials.sort()
            mean = 12 * 60 if u == FLAKY else 50 * 60
            t = START
            online_from = START
            while t is not None:
                nxt = next((s for s in specials if s[0] > t), None)
                Lt = t + secs(rng.expovariate(1 / mean))
                if nxt is not None and Lt + secs(480) > nxt[0]:
                    when, kind = nxt
                    if kind == "restart":
                        sess.append((online_from, RESTART, ip))
                        c = RUNNING + secs(0.3 + min(170, rng.expovariate(1 / 22)))
                        self.restart_back[u] = c
                        t = self.attempt(u, c, ip)
                        if t is not None:
                            online_from = t
                            if u in self.expired:
                                self.restart_back[u] = None
                    elif kind == "outage":
                        sess.append((online_from, when, ip))
                        self.M(when + secs(180), f"Client {u} has exceeded timeout, disconnecting.")
                        if rng.random() < 0.4:
                            ip = self.new_ip()
                        t = self.attempt(u, outage_back[u], ip)
                        online_from = t
                    else:   # ota
                        sess.append((online_from, when, ip))
                        self.M(when, f"Client {u} disconnected.")
                        c = ota_on[u]
                        t = self.attempt(u, c, ip)
                        online_from = t
                        self.parse_errors.append((min(c + secs(rng.uniform(0.8, 2.5)), T(2, 52, 57)), u, "boot"))
                    continue
                if Lt >= END - secs(300):
                    break
                # a natural link loss
                if u == FLAKY:
                    kind, X = "timeout", rng.uniform(200, 420)
                else:
                    if rng.random() < 0.55:
                        kind, X = "closed", rng.uniform(4, 60)
                    else:
                        X = rng.expovariate(1 / 150) + 3
                        kind = "timeout" if X > 180 else "already"
                to = Lt + secs(180)
                if kind == "timeout" and any(a - secs(60) <= to < b + secs(60) for a, b in QUIET):
                    if u == FLAKY:
                        t = to + secs(120)
                        continue
                    kind, X = "closed", rng.uniform(4, 60)
                if kind == "closed":
                    self.M(Lt, f"Client {u} closed its connection.")
                    sess.append((online_from, Lt, ip))
                elif kind == "timeout":
                    self.M(to, f"Client {u} has exceeded timeout, disconnecting.")
                    sess.append((online_from, Lt, ip))
                else:
                    sess.append((online_from, Lt, ip))
                if rng.random() < 0.4:
                    ip = self.new_ip()
                t = self.attempt(u, Lt + secs(X), ip, already=(kind == "already"))
                online_from = t
            if t is not None:
                sess.append((online_from, END, ip))
            self.sessions[u] = sess
        # the corrupt sensor board's truncated payloads, away from the firmware burst
        t = T(0, 6, 41)
        while t < END - secs(600):
            if not (T(2, 44) <= t < T(3, 6)) and self.online(BADJSON, t):
                self.parse_errors.append((t, BADJSON, "telemetry"))
            t += secs(rng.uniform(11 * 60, 25 * 60))

    def online(self, u, t):
        return any(a <= t < b for a, b, _ in self.sessions[u])

    def ip_at(self, u, t):
        for a, b, ip in self.sessions[u]:
            if a <= t < b:
                return ip
        return None

    # ------------------------------------------------------------ the broker's own lines and local clients
    def _services(self):
        t = T(0, 14, 51, 3000)
        while t < RESTART:
            self.M(t, "Saving in-memory database to /var/lib/mosquitto/mosquitto.db.")
            t += secs(1800)
        t = RUNNING + secs(1800)     # after the restart the autosave timer starts again
        while t < END:
            self.M(t, "Saving in-memory database to /var/lib/mosquitto/mosquitto.db.")
            t += secs(1800)
        for t in ALERT_DROPS:
            self.M(t, "Outgoing messages are being dropped for client reefer-alerts.")
        for t in MQTTX_AT:
            self.M(t, f"New connection from {MQTTX_IP}:{self.port()} on port 1883.")
            self.M(t, f"Client {MQTTX_ID} disconnected, not authorised.")
        self.M(RESTART, "mosquitto version 2.0.18 terminating")
        self.M(RESTART, "Saving in-memory database to /var/lib/mosquitto/mosquitto.db.")
        for msg in ["mosquitto version 2.0.18 starting", "Config loaded from /etc/mosquitto/mosquitto.conf.",
                    "Opening ipv4 listen socket on port 1883.", "Opening ipv6 listen socket on port 1883.",
                    "Opening ipv4 listen socket on port 8883.", "Opening ipv6 listen socket on port 8883.",
                    "mosquitto version 2.0.18 running"]:
            self.M(RUNNING, msg)
        for t, cid, user, k, c in [(ALERTS_RECONNECT, "reefer-alerts", "reefer-alerts", 60, 0),
                                   (TG_CONNECTED, "telegraf-ingest", "telegraf", 60, 0),
                                   (API_RECONNECT, "reefer-api-cmd", "reefer-api", 30, 1)]:
            p = self.port()
            self.M(t, f"New connection from 127.0.0.1:{p} on port 1883.")
            self.M(t, f"New client connected from 127.0.0.1:{p} as {cid} (p2, c{c}, k{k}, u'{user}').")
        self.L(RESTART, ("WARN", "mqtt.go", "57", "mqtt: connection lost: EOF"))
        self.L(API_RECONNECT, ("INFO", "mqtt.go", "64", "mqtt: reconnected to tcp://127.0.0.1:1883"))

    # ------------------------------------------------------------ the fleet API
    def _api(self):
        rng = self.rng
        # trailers: their config every 30 minutes, and again after a reconnect ordered by the broker or a reboot
        for u in self.units:
            phase = rng.uniform(0, 3600)
            t = START + secs(phase)
            while t < END:
                x = t + secs(rng.uniform(-20, 20))
                ip = self.ip_at(u, x)
                if ip and not (RESTART - secs(120) <= x < RESTART + secs(300)):
                    self.config(x, rng.uniform(0.55e6, 4.2e6), ip, u)
                t += secs(3600)
            back = self.restart_back.get(u)
            if back:
                x = back + secs(rng.uniform(45, 90))
                ip = self.ip_at(u, x)
                if ip:
                    self.config(x, rng.uniform(0.6e6, 5.5e6), ip, u)
            if u in self.ota_on:
                x = self.ota_on[u] + secs(rng.uniform(45, 90))
                if self.ip_at(u, x):
                    self.config(x, rng.uniform(0.6e6, 4.9e6), self.ip_at(u, x), u)
                d = FW_DL[0] + secs(rng.uniform(0, 480))
                if self.ip_at(u, d):
                    self.A(Req(d, rng.uniform(9.0, 41.0) * 1e9 + rng.randint(0, 999), self.ip_at(u, d), "GET",
                               "/v1/firmware/reefer-ctl-5.1.0.bin", 200, ua=f"kwr-ctl/{self.fw_at(u, d)}"))
        # the shipper's TMS, every 10 s; a few statement timeouts while autovacuum runs
        polls = []
        t = START + ms(rng.uniform(0, 9000))
        while t < END:
            polls.append(t)
            t += secs(15) + ms(rng.uniform(-150, 150))
        slow = set(rng.sample([i for i, t in enumerate(polls) if PG_SLOW[0] <= t < PG_SLOW[1]], 14))
        for i, t in enumerate(polls):
            if i in slow:
                self.A(Req(t, 3.0e9 + rng.randint(400_000, 3_900_000), TMS_IP, "GET", "/v1/shipments/active?carrier=kettlewell",
                           500, err="pq: canceling statement due to statement timeout"))
            else:
                self.A(Req(t, _lognorm(rng, 22e6, 0.3) + rng.randint(0, 999), TMS_IP, "GET",
                           "/v1/shipments/active?carrier=kettlewell", 200, kind="ship"))
        # Prometheus every 20 s, the uptime monitor every 60 s
        t = START + ms(rng.uniform(0, 19000))
        while t < END:
            self.A(Req(t, _lognorm(rng, 3.4e6, 0.3), PROM_IP, "GET", "/metrics", 200))
            t += secs(20) + ms(rng.uniform(-5, 5))
        t = START + ms(rng.uniform(0, 59000))
        while t < END:
            self.A(Req(t, _lognorm(rng, 160e3, 0.35), UPTIME_IP, "GET", "/healthz", 200))
            t += secs(60) + ms(rng.uniform(-40, 40))
        # ColdTrace, every 30 s; 401 once its key was rotated
        t = START + ms(rng.uniform(0, 29000))
        while t < END:
            since = epoch(t) - 30
            if t < KEY_ROTATED:
                self.A(Req(t, _lognorm(rng, 64e6, 0.35), PARTNER_IP, "GET", f"/v1/partners/coldtrace/readings?since={since}", 200))
            else:
                self.A(Req(t, _lognorm(rng, 240e3, 0.3), PARTNER_IP, "GET", f"/v1/partners/coldtrace/readings?since={since}", 401,
                           err="api key revoked"))
            t += secs(30) + ms(rng.uniform(-200, 200))
        # dispatchers: the fleet summary and open alerts every 5 minutes, trailer temperature panels
        for ip in DISPATCH_IPS:
            off = rng.uniform(0, 300)
            t = START + secs(off)
            while t < END:
                self.A(Req(t, _lognorm(rng, 14e6, 0.35), ip, "GET", "/v1/fleet/summary", 200))
                t2 = t + ms(rng.uniform(50, 400))
                self.A(Req(t2, _lognorm(rng, 6e6, 0.35), ip, "GET", "/v1/alerts?state=open", 200))
                t += secs(300) + ms(rng.uniform(-500, 500))
        for ip in DISPATCH_IPS:      # a dashboard left open overnight: its session token expires
            for t in sorted(rng.uniform(600, 14000) for _ in range(rng.randint(1, 3))):
                self.A(Req(START + secs(t), _lognorm(rng, 210e3, 0.3), ip, "GET", "/v1/fleet/summary", 401,
                           err="invalid or expired jwt"))
        views = []
        for t in _poisson(rng, START, END, 3.0):
            views.append(t)
        for a, b in PHASES:
            views += _poisson(rng, a, b, 5.0)
        views.append(FIRST504_AT)
        for t in sorted(views):
            ip = DISPATCH_IPS[1] if t == FIRST504_AT else rng.choice(DISPATCH_IPS)
            u = rng.choice(self.units)
            self.temps(t, ip, u, force=(t == FIRST504_AT))
        # setpoints, mistyped units
        for t in _poisson(rng, START, END, 0.3):
            if RESTART - secs(5) <= t < API_RECONNECT + secs(5):
                continue
            self.A(Req(t, _lognorm(rng, 7e6, 0.3), rng.choice(DISPATCH_IPS), "POST", f"/v1/units/{rng.choice(self.units)}/setpoint", 202))
        for t in SETPOINT_503:
            self.A(Req(t, rng.uniform(0.3e6, 1.2e6), rng.choice(DISPATCH_IPS), "POST", f"/v1/units/{rng.choice(self.units)}/setpoint",
                       503, err="mqtt publish: not connected"))
        for t in _poisson(rng, START, END, 0.06):
            self.A(Req(t, _lognorm(rng, 900e3, 0.3), rng.choice(DISPATCH_IPS), "GET", f"/v1/units/kwr-3{rng.randint(1000, 9999)}", 404,
                       err="unit not found"))
        # the excursion report: the slowest request
        self.A(Req(REPORT_AT, REPORT_NS, OPS_IP, "GET", "/v1/reports/excursions.csv?from=2037-01-01&to=2037-01-31", 200))
        self._plateau_ship()
        self._tune_share()

    def _plateau_ship(self):
        """The TMS's answered (200) shipment polls: their latency p95 on a plateau, read the same to 2 decimals
        of a millisecond rounded or truncated."""
        rows = [r for r in self.api if r.kind == "ship"]

        def fix(x):
            v = (x // 1000 + 1) * 1000
            while (v // 1000) % 10 >= 5:
                v += 1000
            return v
        self.ship_p95, vals = _plateau([r.lat for r in rows], 95, fix)
        for r, v in zip(rows, vals):
            r.lat = v

    def fw_at(self, u, t):
        return "5.1.0" if u in self.ota_on and t >= self.ota_on[u] else self.fw[u]

    def config(self, t, lat, ip, u):
        fw = self.fw_at(u, t)
        self.A(Req(t, lat, ip, "GET", f"/v1/units/{u}/config?fw={fw}", 200, ua=f"kwr-ctl/{fw}"))

    def temps(self, t, ip, u, force=False, retry=True):
        rng = self.rng
        path = f"/v1/units/{u}/temps?window=6h"
        if force or (in_phase(t) and t >= FIRST504_AT and rng.random() < 0.62):
            self.A(Req(t, 5e9 + rng.randint(400_000, 3_600_000), ip, "GET", path, 504, err="influx query: context deadline exceeded"))
            if retry:
                self.temps(t + secs(5) + ms(rng.uniform(1900, 2300)), ip, u, retry=False)
        elif in_phase(t):
            self.A(Req(t, rng.uniform(0.9e9, 4.6e9), ip, "GET", path, 200))
        else:
            self.A(Req(t, _lognorm(rng, 180e6, 0.4), ip, "GET", path, 200))

    def _tune_share(self):
        """The share of 5xx off its rounding edge: a few more dispatcher alert refreshes late on."""
        rng = self.rng
        while True:
            n = len(self.api)
            d = sum(1 for r in self.api if r.status >= 500)
            p = 100 * d / n
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            t = T(3, 50) + secs(rng.uniform(0, 480))
            self.A(Req(t, _lognorm(rng, 6e6, 0.35), rng.choice(DISPATCH_IPS), "GET", "/v1/alerts?state=open", 200))

    # ------------------------------------------------------------ telegraf
    def _telegraf(self):
        rng = self.rng
        # online trailers per 10 s (each sends one message with six sensor readings)
        n_buckets = 24 * 60
        diff = [0] * (n_buckets + 1)
        for sess in self.sessions.values():
            for a, b, _ in sess:
                i = max(0, math.ceil((a - START).total_seconds() / 10))
                j = min(n_buckets, math.ceil((b - START).total_seconds() / 10))
                if i < j:
                    diff[i] += 1
                    diff[j] -= 1
        online, c = [], 0
        for k in range(n_buckets):
            c += diff[k]
            online.append(c)
        ticks = []
        t = START + ms(3512)
        while t < END:
            ticks.append(t)
            t += secs(10)
        arrivals = []
        for tk in ticks:
            k = min(n_buckets - 1, int((tk - START).total_seconds() // 10))
            n = 6 * online[k] + 18
            if RESTART <= tk < TG_CONNECTED + secs(2):
                n = 18
            arrivals.append(n)
        self.influx_writes = []     # (t_end, n, ns) of the successful ones, for tuning
        self._output("influxdb_v2", ticks, arrivals, self._influx_dur)
        self._output("prometheus_client", ticks, arrivals,
                     lambda now, b: (int(_lognorm(rng, 1.1e6, 0.3) * (0.2 + 0.8 * b / BATCH)) + rng.randint(0, 999), True))
        self._tune_mean()
        # the MQTT input
        self.F(RESTART, "E", "[inputs.mqtt_consumer] Error in plugin: connection lost: EOF")
        self.F(TG_REFUSED, "D", "[inputs.mqtt_consumer] Connecting [tcp://127.0.0.1:1883]")
        self.F(TG_REFUSED, "E", "[inputs.mqtt_consumer] Error in plugin: network Error : dial tcp 127.0.0.1:1883: connect: connection refused")
        self.F(TG_CONNECTED, "D", "[inputs.mqtt_consumer] Connecting [tcp://127.0.0.1:1883]")
        self.F(TG_CONNECTED, "I", "[inputs.mqtt_consumer] Connected [tcp://127.0.0.1:1883]")
        for t, u, kind in sorted(self.parse_errors):
            ts = epoch(t)
            if kind == "boot":
                payload = (f'{{"unit":"{u}","event":"boot","fw":"5.1.0","ts":{ts},"cfg":{{"setpoint_c":'
                           f'{rng.choice(["-18.0", "-20.0", "2.0", "4.0", "-25.0"])},"mode":"con')
            else:
                payload = (f'{{"unit":"{u}","ts":{ts},"sensors":[{{"id":"ret_air","t":{rng.uniform(-19, -17):.1f}}},'
                           f'{{"id":"sup_air","t":')
            self.F(t, "E", f"[inputs.mqtt_consumer] Error in plugin: invalid JSON provided, unable to parse: {payload}")

    def _influx_dur(self, now, b):
        rng = self.rng
        if in_phase(now):
            if not self.slow_planted and PHASES[1][0] <= now and now >= SLOW_BATCH_AFTER:
                self.slow_planted = True
                return SLOW_BATCH_NS, True
            if rng.random() < 0.2:
                return int(5e9) + rng.randint(400_000, 3_900_000), False
            while True:
                d = _lognorm(rng, 2.0, 0.3)
                if 0.3 <= d <= 3.3:
                    return int(d * 1e9) + rng.randint(0, 999), True
        return int(_lognorm(rng, 26e6, 0.35) * (0.3 + 0.7 * b / BATCH)) + rng.randint(0, 999), True

    slow_planted = False

    def _output(self, name, ticks, arrivals, dur):
        log = f"[outputs.{name}]"
        buf, dropped = 0, 0

        def add(buf, dropped, n):
            buf += n
            if buf > LIMIT:
                dropped += buf - LIMIT
                buf = LIMIT
            return buf, dropped

        k, n = 0, len(ticks)
        while k < n:
            buf, dropped = add(buf, dropped, arrivals[k])
            now = ticks[k]
            nb = buf // BATCH + 1
            err = False
            kk = k + 1
            for _ in range(nb):
                b = min(BATCH, buf)
                if b == 0:
                    break
                if dropped:
                    self.F(now, "W", f"{log} Metric buffer overflow; {dropped} metrics have been dropped")
                    dropped = 0
                d, ok = dur(now, b)
                end = now + ns_td(d)
                while kk < n and ticks[kk] <= end:
                    buf, dropped = add(buf, dropped, arrivals[kk])
                    self.F(ticks[kk], "W", f'[agent] ["outputs.{name}"] did not complete within its flush interval')
                    self.F(ticks[kk], "D", f"{log} Buffer fullness: {buf} / {LIMIT} metrics")
                    kk += 1
                now = end
                if ok:
                    self.seq += 1
                    rec = [now, self.seq, "D", None, name, b, d]
                    self.tg.append(rec)
                    if name == "influxdb_v2":
                        self.influx_writes.append(rec)
                    buf = max(0, buf - b)
                else:
                    self.F(now, "E", f'{log} When writing to [{INFLUX}]: Post "{WRITE_URL}": context deadline exceeded '
                                     "(Client.Timeout exceeded while awaiting headers)")
                    err = True
                    break
            self.F(now, "D", f"{log} Buffer fullness: {buf} / {LIMIT} metrics")
            if err:
                self.F(now, "E", f"[agent] Error writing to outputs.{name}: failed to send metrics to any configured server(s)")
            k = kk

    def _tune_mean(self):
        """The mean of influxdb_v2's batch write times off its rounding edges: a few quiet batches moved."""
        w = self.influx_writes
        n = len(w)
        mean_ms = sum(r[6] for r in w) / n / 1e6
        target = (math.floor(mean_ms * 10) + 0.25) / 10
        if target < mean_ms:
            target += 0.1
        total = round((target - mean_ms) * n * 1e6)
        quiet = [r for r in w if r[0] < T(0, 50) and r[6] < 60e6][:50]
        each = total // len(quiet)
        for i, r in enumerate(quiet):
            r[6] += each + (total - each * len(quiet) if i == 0 else 0)


# ------------------------------------------------------------ rendering

HOST = "api.kwrl.io"
UA = {TMS_IP: "HalberdTMS-Connector/3.2", PROM_IP: "Prometheus/2.53.1", PARTNER_IP: "ColdTrace-Sync/1.8",
      UPTIME_IP: "UptimeMonitor/2.1", OPS_IP: "curl/8.5.0"}
BROWSERS = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Safari/605.1.15",
            "Mozilla/5.0 (X11; Linux x86_64; rv:141.0) Gecko/20100101 Firefox/141.0",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:141.0) Gecko/20100101 Firefox/141.0",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36 Edg/139.0.0.0"]


def rfc3339nano(t, ns_extra):
    """Go's time.RFC3339Nano of a UTC time: the fraction without trailing zeros."""
    frac = f"{t.microsecond * 1000 + ns_extra:09d}".rstrip("0")
    return f"{t:%Y-%m-%dT%H:%M:%S}" + (f".{frac}" if frac else "") + "Z"


def _bytes_out(rng, r):
    p = r.path.split("?", 1)[0]
    if r.status >= 400:
        return len('{"message":"Internal Server Error"}\n' if r.status == 500 else f'{{"message":"{r.err}"}}\n')
    if p.endswith("/config"):
        return rng.randint(1800, 3400)
    if p.endswith("/cert/renew"):
        return rng.randint(2900, 3300)
    if p.startswith("/v1/firmware/"):
        return 6291456 + 512
    if p.startswith("/v1/reports/"):
        return 2318554
    if p == "/v1/shipments/active":
        return rng.randint(14000, 26000)
    if p == "/metrics":
        return rng.randint(46000, 52000)
    if p == "/healthz":
        return len('{"status":"ok"}\n')
    if p.startswith("/v1/partners/"):
        return rng.randint(30000, 90000)
    if p == "/v1/fleet/summary":
        return rng.randint(9000, 12000)
    if p == "/v1/alerts":
        return rng.randint(600, 5000)
    if p.endswith("/temps"):
        return rng.randint(40000, 70000)
    if p.endswith("/setpoint"):
        return len('{"status":"queued"}\n')
    raise AssertionError(r.path)


def api_log(night, seed):
    """Echo's default logger middleware (one JSON object a request, keys in its template's order), and
    two lines of the app's own `e.Logger` (gommon/log, JSON)."""
    rng = random.Random(seed + 3)
    out = []
    rows = [(r.end, r.seq, r) for r in night.api] + [(t, s, m) for t, s, m in night.apilog]
    for t, _, r in sorted(rows, key=lambda x: (x[0], x[1])):
        if isinstance(r, tuple):
            level, file, line, msg = r
            out.append(f'{{"time":"{rfc3339nano(t, rng.randint(0, 999))}","level":"{level}","prefix":"echo",'
                       f'"file":"{file}","line":"{line}","message":"{msg}"}}')
            continue
        if r.ip in UA:
            ua = UA[r.ip]
        elif r.ip in DISPATCH_IPS:
            ua = BROWSERS[DISPATCH_IPS.index(r.ip)]
        else:
            ua = r.ua
        assert ua, r.path
        if r.err is None:
            err = ""
        elif r.status == 500:
            err = r.err
        else:
            err = f"code={r.status}, message={r.err}"
        bytes_in = 0 if r.method == "GET" else (rng.randint(1180, 1220) if r.path.endswith("/cert/renew") else rng.randint(38, 44))
        out.append(f'{{"time":"{rfc3339nano(t, rng.randint(0, 999))}","id":"","remote_ip":"{r.ip}","host":"{HOST}",'
                   f'"method":"{r.method}","uri":"{r.path}","user_agent":"{ua}","status":{r.status},"error":"{err}",'
                   f'"latency":{r.lat},"latency_human":"{go_dur(r.lat)}","bytes_in":{bytes_in},"bytes_out":{_bytes_out(rng, r)}}}')
    return "\n".join(out) + "\n"


def mosquitto_log(night):
    return "".join(f"{epoch(t)}: {m}\n" for t, _, m in sorted(night.mq, key=lambda e: (e[0], e[1])))


def telegraf_log(night):
    out = []
    for rec in sorted(night.tg, key=lambda e: (e[0], e[1])):
        t, _, level, msg = rec[:4]
        if msg is None:
            _, _, _, _, name, b, d = rec
            msg = f"[outputs.{name}] Wrote batch of {b} metrics in {go_dur(d)}"
        out.append(f"{t:%Y-%m-%dT%H:%M:%SZ} {level}! {msg}")
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {API: api_log(night, seed), BROKER: mosquitto_log(night), TG: telegraf_log(night)}, night
