"""Writes the `queries-heldout16` fixtures: one night (Friday 2035-10-12, 00:20-04:10 UTC) at
Harrowline Audio, a podcast host. Three logs, written from one shared schedule of requests so
that the files agree with each other:

- `s3-harrowline-episodes-20351012.log`: the AWS S3 server access log of the bucket
  `harrowline-episodes` (space-separated, the time in brackets, the request and the user agent
  quoted, `-` for an empty field, Total Time and Turn-Around Time in ms);
- `feedsmith.log`: the Rust feed server's `tracing-subscriber` fmt output (the default "full"
  format: RFC 3339 time with microseconds, a right-aligned level, the span chain with its
  fields, the target, the message and `key=value` fields, tower-http's `latency=N ms`);
- `eve.json`: Suricata's EVE JSON of the sensor `ids-edge-1`, fed by VPC traffic mirroring of
  feedsmith's interface (`http`, `alert`, `tls`, `dns`, `flow`, `anomaly` and `stats` events).

Standard library only; everything comes from one seeded `random.Random`.
"""

import json
import math
import random
from datetime import datetime, timedelta

DAY = datetime(2035, 10, 12)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def ms(x):
    return timedelta(milliseconds=x)


START, END = T(0, 20), T(4, 10)

ACCOUNT = "602931457718"
OWNER = "9f3c27d1a8b64e05c2f7a1d93b8e604f5a1c2e7d9b3f6a08e4c1d7b2a95f3e60"
BUCKET = "harrowline-episodes"
S3HOST = "harrowline-episodes.s3.eu-west-1.amazonaws.com"
S3IPS = ["52.218.36.91", "52.218.61.140", "3.5.72.203", "52.92.17.66"]
FEEDS_HOST, API_HOST = "feeds.harrowline.example", "api.harrowline.example"
FS_IP, MON_IP, DNS_IP = "10.42.0.11", "10.42.0.5", "10.42.0.2"
CRAWL = ["198.51.100.77", "198.51.100.78", "198.51.100.79"]
CRAWL_UA = "PodSnatch/2.4 (+https://podsnatch.example/bot)"
SCANNER = "203.0.113.66"
SPOTIFY_INGEST = "35.186.224.47"
BACKUP_IP = "192.0.2.141"
CONFIG_IP = "3.248.10.77"
FS_ROLE = f"arn:aws:sts::{ACCOUNT}:assumed-role/feedsmith-prod/i-0c3f9a7d21b84e615"
TF_ROLE = f"arn:aws:sts::{ACCOUNT}:assumed-role/terraform-ci/gha-run-88412"
ONCALL = f"arn:aws:sts::{ACCOUNT}:assumed-role/oncall-admin/mira.okafor"
BACKUP = f"arn:aws:iam::{ACCOUNT}:user/svc-backup-lister"
CONFIG = f"arn:aws:sts::{ACCOUNT}:assumed-role/AWSServiceRoleForConfig/AWSConfig-Describe"
SDK_UA = "aws-sdk-rust/1.3.9 ua/2.1 api/s3/1.68.0 os/linux lang/rust/1.82.0 m/E"

# --- the night's planted events
POLICY_BAD = T(0, 51, 30, 412000)       # terraform-ci replaces the bucket policy (drops s3:PutObject)
FIRST_DENY = T(0, 51, 44, 206000)       # the first PUT denied (a publish arrives just before)
LAST_DENY = T(1, 13, 41, 533000)        # the last PUT denied
POLICY_FIX = T(1, 13, 52, 87000)        # the on-call admin puts the policy back
REPLAY = T(1, 14, 20, 310000)           # feedsmith replays the parked uploads
STORM_A = T(1, 58, 7, 118000)           # PodSnatch's first request
FIRST_STORM_ALERT = T(1, 59, 2, 640000)
FIRST_429 = T(2, 0, 15, 402000)
FIRST_SLOWDOWN = T(2, 3, 26)
LAST_SLOWDOWN = T(2, 23, 48)
STORM_B = T(2, 24, 30)
BURST_MIN = T(2, 11)                    # PodSnatch's parallel burst: the busiest minute of S3 GETs
DB_LOST = T(2, 41, 3, 214000)           # feedsmith loses pg-feeds-1
DB_A = T(2, 41, 9, 377000)              # the first "pool timed out" (5 s after its request)
DB_B = T(2, 48, 53, 801000)             # the last one
FAILOVER_DNS = T(2, 48, 58, 20000)      # pg-feeds.internal now answers pg-feeds-2
DB_OK = T(2, 49, 5, 662000)
HERD_MIN = T(2, 44)                     # a burst of feed refreshes while the database is gone
SCAN_A = T(3, 17, 12, 305000)           # 203.0.113.66's first request (an alert)
SCAN_B = T(3, 33, 40, 918000)           # and its last
SCAN_BURST = T(3, 22)
BIG_PUBLISH = T(0, 38, 16, 0)           # the-long-table's four-hour special is published
MAX_SLOW = 4.813302                     # the slowest sqlx statement of the night (s)
MAX_SLOW_AT = T(3, 48, 27, 0)

DB_TIMEOUT_MS = 5002
STATUS_LIKE = {200, 201, 202, 204, 206, 302, 304, 400, 403, 404, 429, 500, 502, 503, 504}


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def _near_edge(x, scale):
    """True when x / scale shown to one decimal could round two ways."""
    f = (x / scale * 10) % 1
    return not (0.08 < f < 0.42)


SHOW_NAMES = [
    "night-shift-radio", "quiet-ledger", "harbour-lights", "tin-roof-stories", "low-tide", "orbital-lunch",
    "paper-kites", "marginalia", "slow-boat", "ghost-signs", "the-grid-report", "backroads-audio",
    "kitchen-physics", "the-night-bus", "understory", "salt-and-static", "fieldnotes-weekly", "the-compost-hour",
    "borrowed-time", "cold-open", "second-draft", "bridgewater-files", "small-hours", "the-pantry",
    "rust-belt-radio", "weather-eye", "lantern-talks", "the-long-table", "map-room", "copper-wire",
]
# feed popularity: strict leaders, then a long tail (the-long-table is rarely polled)
SHOW_WEIGHT = [30, 19, 14, 6.5] + [5.4 - 0.17 * i for i in range(22)] + [1.0, 0.9, 0.8, 0.7]
SHOW_WEIGHT = SHOW_WEIGHT[:27] + [0.5] + SHOW_WEIGHT[27:29]
assert len(SHOW_WEIGHT) == len(SHOW_NAMES)

APP_UAS = [
    "AppleCoreMedia/1.0.0.22A3354 (iPhone; U; CPU OS 18_0 like Mac OS X; en_us)",
    "AppleCoreMedia/1.0.0.22G86 (Macintosh; U; Intel Mac OS X 15_6; en_gb)",
    "Spotify/9.0.58.596 iOS/18.6 (iPhone16,1)",
    "Overcast/3.0 (+http://overcast.fm/; iOS podcast app)",
    "AntennaPod/3.7.0",
    "Castro 2025.3/1532 CFNetwork/1568.300.101 Darwin/24.2.0",
    "Podcast Addict - Dalvik/2.1.0 (Linux; U; Android 14; SM-S918B Build/UP1A.231005.007)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
    "okhttp/4.12.0",
    "Pocket Casts/7.72 (Android 15)",
]
AGGREGATORS = [
    ("17.58.101.12", "Podcasts/1.0 (Apple Podcasts; iTMS)"),
    ("17.58.101.47", "Podcasts/1.0 (Apple Podcasts; iTMS)"),
    ("35.186.230.18", "Spotify/1.0"),
    ("104.131.66.19", "Overcast/1.0 Podcast Sync (1,204 subscribers; feed-id=2204711; +http://overcast.fm/)"),
    ("54.209.11.243", "PocketCasts/1.0 (Pocket Casts Feed Parser; +http://pocketcasts.com/)"),
    ("46.101.74.30", "Podbean/FeedUpdate 2.1"),
    ("34.74.88.156", "Podchaser (https://www.podchaser.com)"),
]
SCAN_UAS = {
    "nse": "Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)",
    "nuclei": "Nuclei - Open-source project (github.com/projectdiscovery/nuclei)",
    "zgrab": "Mozilla/5.0 zgrab/0.x",
    "curl": "curl/8.5.0",
}
SCAN_PATHS = [
    "/.env", "/.git/config", "/wp-login.php", "/.htaccess", "/server-status", "/actuator/env", "/phpinfo.php",
    "/cgi-bin/../../../../etc/passwd", "/feeds/..%2f..%2f..%2fetc%2fpasswd", "/admin/config.php", "/.aws/credentials",
    "/api/v1/episodes?show=1%20UNION%20SELECT%20username,password%20FROM%20users--", "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php",
    "/robots.txt", "/", "/backup.zip", "/.DS_Store", "/config.json",
]

SIGS = {
    "nse": (2009358, 5, "ET SCAN Nmap Scripting Engine User-Agent Detected (Nmap Scripting Engine)", "Web Application Attack", 1),
    "passwd": (2049432, 2, "ET WEB_SERVER /etc/passwd Detected in URI", "Attempted Information Leak", 1),
    "union": (2006446, 13, "ET WEB_SERVER Possible SQL Injection Attempt UNION SELECT", "Web Application Attack", 1),
    "env": (2031502, 3, "ET INFO Request to Hidden Environment File - Inbound", "Attempted Information Leak", 2),
    "git": (2036286, 2, "ET WEB_SERVER Attempt To Access .git Folder", "Attempted Information Leak", 2),
    "htaccess": (2101129, 8, "GPL WEB_SERVER .htaccess access", "Attempted Information Leak", 2),
    "phpunit": (2027062, 4, "ET WEB_SPECIFIC_APPS PHPUnit Remote Code Execution Attempt (CVE-2017-9841)", "Web Application Attack", 1),
    "storm": (9100012, 3, "HARROWLINE excessive enclosure fetches from single source", "Potentially Bad Traffic", 2),
    "dshield": (2402000, 7102, "ET DROP Dshield Block Listed Source", "Misc Attack", 2),
    "pg": (2010939, 3, "ET SCAN Suspicious inbound to PostgreSQL port 5432", "Potentially Bad Traffic", 2),
    "mysql": (2010937, 3, "ET SCAN Suspicious inbound to mySQL port 3306", "Potentially Bad Traffic", 2),
    "ssh": (2001219, 20, "ET SCAN Potential SSH Scan", "Attempted Information Leak", 2),
    "ack": (2210045, 2, "SURICATA STREAM Packet with invalid ack", "Generic Protocol Command Decode", 3),
    "nomatch": (2221010, 1, "SURICATA HTTP unable to match response to request", "Generic Protocol Command Decode", 3),
}


def _pool(rng, n, avoid):
    firsts = [2, 5, 24, 31, 37, 46, 62, 77, 78, 81, 86, 90, 94, 109, 146, 151, 176, 178, 185, 188, 212, 213, 217]
    out = set()
    while len(out) < n:
        ip = f"{rng.choice(firsts)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        if ip not in avoid:
            out.add(ip)
    return sorted(out)


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.reqs = []     # requests that reached feedsmith (dicts)
        self.s3 = []       # S3 access-log records (dicts)
        self.fs = []       # extra feedsmith records: (t, level, spans, target, body)
        self.eve = []      # extra EVE events: (t, dict)
        self.alerts = []   # (t, key, src, sport, dst, dport, req or None)
        self._catalog()
        self._clients()
        self._feed_polls()
        self._enclosures()
        self._crawler()
        self._scanner()
        self._health()
        self._api()
        self._tune_share()
        self._plateaus()
        self._s3_of_requests()
        self._s3_misc()
        self._tune_bytes()
        self._tune_put_mean()
        self._fs_misc()
        self._eve_misc()

    # ------------------------------------------------------------ shows and episodes
    def _catalog(self):
        rng = self.rng
        self.items = {}
        for s in SHOW_NAMES:
            self.items[s] = rng.randint(40, 380)
        self.items["the-long-table"] = 1399
        self.feed_size = {s: 2900 + n * rng.randint(1580, 1760) + rng.randint(0, 999) for s, n in self.items.items()}
        self.size_of = {}
        self.deleted = set()
        for s in SHOW_NAMES:
            for ep in rng.sample(range(1, self.items[s] - 20), 2):
                self.deleted.add((s, ep))

    def obj_size(self, show, ep, kind="mp3"):
        key = (show, ep, kind)
        if key not in self.size_of:
            r = random.Random(f"{show}/{ep}/{kind}")
            if kind == "jpg":
                v = r.randint(150_000, 900_000)
            else:
                minutes = r.uniform(18, 92)
                v = int(minutes * 60 * 16000) + r.randint(0, 40000)
                if kind == "lq":
                    v //= 2
            self.size_of[key] = v
        return self.size_of[key]

    def pick_show(self, weights=None):
        return self.rng.choices(SHOW_NAMES, weights or SHOW_WEIGHT)[0]

    def pick_ep(self, show):
        n = self.items[show]
        return max(1, n - int(self.rng.expovariate(0.25)))

    def _clients(self):
        rng = self.rng
        avoid = set(CRAWL) | {SCANNER, SPOTIFY_INGEST} | {ip for ip, _ in AGGREGATORS}
        self.listeners = _pool(rng, 520, avoid)
        self.ua_of = {ip: rng.choice(APP_UAS) for ip in self.listeners}
        self.lweights = [rng.uniform(0.4, 1.6) for _ in self.listeners]
        self.publishers = _pool(rng, 24, avoid | set(self.listeners))

    def listener(self):
        ip = self.rng.choices(self.listeners, self.lweights)[0]
        return ip, self.ua_of[ip]

    # ------------------------------------------------------------ requests
    def _req(self, a, client, ua, method, uri, status, lat, length, kind, port=80, **kw):
        r = {"a": a, "client": client, "ua": ua, "method": method, "uri": uri, "status": status, "lat": lat,
             "len": length, "kind": kind, "port": port, "sport": self.rng.randint(1025, 65535),
             "flow": self.rng.randint(10 ** 14, 2 ** 51)}
        r.update(kw)
        self.reqs.append(r)
        return r

    def in_outage(self, a):
        return DB_A - ms(DB_TIMEOUT_MS) <= a <= DB_B - ms(DB_TIMEOUT_MS)

    def near_outage(self, a):
        """DB-bound requests never arrive just before the first timeout or between the last and the recovery."""
        return DB_LOST - timedelta(seconds=1) <= a < DB_A - ms(DB_TIMEOUT_MS) or \
            DB_B - ms(DB_TIMEOUT_MS) < a <= DB_OK + timedelta(seconds=1)

    def _feed(self, a, client, ua, show, p304, kind="feed", miss=False):
        rng = self.rng
        uri = f"/feeds/{show}.xml"
        if not miss and rng.random() < p304:
            return self._req(a, client, ua, "GET", uri, 304, rng.randint(1, 6), 0, kind, show=show)
        if not miss and rng.random() < 0.72:
            return self._req(a, client, ua, "GET", uri, 200, rng.randint(2, 24), self.feed_size[show], kind, show=show)
        # a cache miss: the feed is rendered from the database
        if self.in_outage(a):
            return self._req(a, client, ua, "GET", uri, 503, DB_TIMEOUT_MS + rng.randint(0, 3), 19, kind, show=show,
                             dberr=True)
        if self.near_outage(a):
            return self._req(a, client, ua, "GET", uri, 200, rng.randint(2, 24), self.feed_size[show], kind, show=show)
        if show == "the-long-table":
            render = rng.randint(1300, 2900)
        else:
            render = int(self.items[show] * rng.uniform(0.08, 0.2)) + rng.randint(18, 90)
        return self._req(a, client, ua, "GET", uri, 200, render + rng.randint(1, 9), self.feed_size[show], kind,
                         show=show, render=render)

    def _feed_polls(self):
        rng = self.rng
        for a in _poisson(rng, START, END, 3.4):
            show = self.pick_show()
            if rng.random() < 0.5:
                ip, ua = rng.choice(AGGREGATORS)
                self._feed(a, ip, ua, show, 0.6)
            else:
                ip, ua = self.listener()
                self._feed(a, ip, ua, show, 0.3)
        # the-long-table's feed (1,400 items) is re-rendered now and then
        for a in _poisson(rng, START, END, 0.07) + [MAX_SLOW_AT]:
            if self.in_outage(a) or self.near_outage(a):
                continue
            ip, ua = rng.choice(AGGREGATORS)
            self._feed(a, ip, ua, "the-long-table", 0, miss=True)
        # the herd: a batch of app refreshes in minute 02:44, all cache misses
        for _ in range(22):
            a = HERD_MIN + timedelta(seconds=rng.uniform(1, 58))
            ip, ua = self.listener()
            show = rng.choice(SHOW_NAMES[:26])
            self._req(a, ip, ua, "GET", f"/feeds/{show}.xml", 503, DB_TIMEOUT_MS + rng.randint(0, 3), 19, "feed",
                      show=show, dberr=True)
        # feeds of removed shows
        for a in _poisson(rng, START, END, 0.45):
            ip, ua = self.listener()
            self._req(a, ip, ua, "GET", f"/feeds/{rng.choice(['deep-cuts', 'the-late-late-pod', 'fen-and-field'])}.xml",
                      404, rng.randint(1, 4), 9, "feed404")

    def _enc(self, a, client, ua, show, ep, kind="enc", status=None):
        rng = self.rng
        uri = f"/e/{show}/e{ep:04d}.mp3"
        if self.in_outage(a):
            return self._req(a, client, ua, "GET", uri, 503, DB_TIMEOUT_MS + rng.randint(0, 3), 19, kind, show=show,
                             ep=ep, dberr=True)
        if self.near_outage(a) and status is None:
            return None
        return self._req(a, client, ua, "GET", uri, status or 302, rng.randint(1, 7), 0, kind, show=show, ep=ep)

    def _enclosures(self):
        rng = self.rng
        for a in _poisson(rng, START, END, 4.3):
            ip, ua = self.listener()
            show = self.pick_show()
            self._enc(a, ip, ua, show, self.pick_ep(show))
        # the first request to fail on the database
        ip, ua = self.listener()
        self._enc(DB_A - ms(DB_TIMEOUT_MS) + timedelta(microseconds=0), ip, ua, "night-shift-radio", self.items["night-shift-radio"])
        self._enc(DB_B - ms(DB_TIMEOUT_MS), *self.listener(), "quiet-ledger", self.items["quiet-ledger"])
        for r in self.reqs:
            if r["a"] in (DB_A - ms(DB_TIMEOUT_MS), DB_B - ms(DB_TIMEOUT_MS)):
                r["lat"] = DB_TIMEOUT_MS

    # ------------------------------------------------------------ PodSnatch
    def _crawler(self):
        rng = self.rng
        rates = {CRAWL[0]: 26.0, CRAWL[1]: 8.0, CRAWL[2]: 3.2}
        starts = {CRAWL[0]: STORM_A, CRAWL[1]: T(2, 0, 40, 250000), CRAWL[2]: T(2, 4, 11, 900000)}
        arrivals = []
        for ip, rate in rates.items():
            ts = [starts[ip]] + _poisson(rng, starts[ip], STORM_B, rate)
            arrivals += [(t, ip, None) for t in ts]
        arrivals += [(BURST_MIN + timedelta(seconds=rng.uniform(0.2, 52)), CRAWL[0], None) for _ in range(110)]
        # planted alert requests (the local rule's threshold is met on these)
        self.storm_alert_at = []
        for ip, first, step in ((CRAWL[0], FIRST_STORM_ALERT, 61), (CRAWL[1], T(2, 3, 55, 5000), 150),
                                (CRAWL[2], T(2, 8, 31, 77000), 290)):
            t = first
            while t < STORM_B - timedelta(seconds=20):
                arrivals.append((t, ip, "alert"))
                self.storm_alert_at.append((t, ip))
                t += timedelta(seconds=step + rng.uniform(-6, 6))
        arrivals.append((FIRST_429, CRAWL[0], "429"))
        arrivals.sort()
        seen = {}
        for a, ip, tag in arrivals:
            i = seen.get(ip, 0)
            seen[ip] = i + 1
            show = SHOW_NAMES[(i // 9) % len(SHOW_NAMES)]
            throttled = tag == "429" or (tag is None and ip == CRAWL[0] and a > FIRST_429 and rng.random() < 0.55)
            if throttled:
                uri = f"/e/{show}/e{max(1, self.items[show] - i % 9):04d}.mp3" if i % 9 else f"/feeds/{show}.xml"
                self._req(a, ip, CRAWL_UA, "GET", uri, 429, 0, 17, "crawl429")
                continue
            if i % 9 == 0 and tag is None:
                self._feed(a, ip, CRAWL_UA, show, 0.0, kind="crawlfeed")
            else:
                ep = max(1, self.items[show] - rng.randint(0, self.items[show] - 1))
                while (show, ep) in self.deleted:
                    ep -= 1
                r = self._enc(a, ip, CRAWL_UA, show, ep, kind="crawlenc", status=302)
                if tag == "alert":
                    r["alert"] = "storm"

    # ------------------------------------------------------------ the scanner
    def _scanner(self):
        rng = self.rng
        ts = [SCAN_A] + _poisson(rng, SCAN_A + timedelta(seconds=1), SCAN_B - timedelta(seconds=2), 13.0)
        ts += [SCAN_BURST + timedelta(seconds=rng.uniform(0.5, 58.5)) for _ in range(44)]
        ts = sorted(ts) + [SCAN_B]
        for i, a in enumerate(ts):
            if a in (SCAN_A, SCAN_B):
                tool = "nse"
                path = "/.env" if a == SCAN_A else "/.git/config"
            else:
                tool = rng.choices(["nse", "nuclei", "zgrab", "curl"], [42, 33, 10, 15])[0]
                path = rng.choice(SCAN_PATHS)
            if "../" in path or "..%2f" in path:
                status, length = 400, 11
            elif path in ("/", "/robots.txt"):
                status, length = 200, (58 if path == "/" else 26)
            else:
                status, length = 404, 9
            r = self._req(a, SCANNER, SCAN_UAS[tool], "GET", path, status, rng.randint(0, 3), length, "scan")
            hits = []
            if tool == "nse":
                hits.append("nse")
            if "passwd" in path:
                hits.append("passwd")
            if "UNION" in path:
                hits.append("union")
            if path.endswith(".env"):
                hits.append("env")
            if ".git/" in path:
                hits.append("git")
            if path == "/.htaccess":
                hits.append("htaccess")
            if "phpunit" in path:
                hits.append("phpunit")
            r["scanhits"] = hits

    def _health(self):
        rng = self.rng
        t = START + timedelta(seconds=4, microseconds=120000)
        while t < END:
            self._req(t + timedelta(microseconds=rng.randint(0, 90000)), MON_IP, "Prometheus/3.5.0 blackbox-exporter",
                      "GET", "/healthz", 200, 0, 2, "health")
            t += timedelta(seconds=60)

    # ------------------------------------------------------------ publishing (HTTPS, API)
    def _api(self):
        rng = self.rng
        arrivals = _poisson(rng, START + timedelta(minutes=2), END - timedelta(minutes=3), 1.35)
        quiet = [(POLICY_BAD - timedelta(seconds=10), FIRST_DENY + timedelta(seconds=4)),
                 (LAST_DENY - timedelta(seconds=8), REPLAY + timedelta(seconds=40)),
                 (DB_LOST - timedelta(seconds=20), DB_OK + timedelta(seconds=5)),
                 (BIG_PUBLISH - timedelta(seconds=20), BIG_PUBLISH + timedelta(seconds=30))]
        arrivals = [a for a in arrivals if not any(x <= a <= y for x, y in quiet)]
        arrivals += [FIRST_DENY - ms(61), LAST_DENY - ms(61), BIG_PUBLISH]
        arrivals.sort()
        self.parked = []
        self.published = []
        for a in arrivals:
            pub = rng.choice(self.publishers)
            if a == BIG_PUBLISH:
                show = "the-long-table"
            else:
                show = self.pick_show([w ** 0.5 for w in SHOW_WEIGHT])
            self.items[show] += 1
            ep = self.items[show]
            objs = [(f"episodes/{show}/e{ep:04d}.mp3", self.obj_size(show, ep)),
                    (f"episodes/{show}/e{ep:04d}-lq.mp3", self.obj_size(show, ep, "lq")),
                    (f"art/{show}/e{ep:04d}.jpg", self.obj_size(show, ep, "jpg"))]
            if a == BIG_PUBLISH:
                big = 236_000_000
                while _near_edge(big, 1e6) or _near_edge(big, 2 ** 20):
                    big += 4096
                self.size_of[(show, ep, "mp3")] = big
                self.size_of[(show, ep, "lq")] = big // 2
                objs[0] = (objs[0][0], big)
                objs[1] = (objs[1][0], big // 2)
                self.big_key = objs[0][0]
            denied = POLICY_BAD < a < POLICY_FIX
            t = a + ms(rng.randint(4, 12))
            puts = []
            head = {"t": t, "key": objs[0][0]}
            t += ms(rng.randint(15, 40))
            if a == FIRST_DENY - ms(61):
                t = FIRST_DENY
            elif a == LAST_DENY - ms(61):
                t = LAST_DENY
            for key, size in objs:
                if denied:
                    total = rng.randint(14, 31)
                else:
                    total = max(60, int(size / rng.uniform(38e6, 95e6) * 1000)) if size > 5e6 else rng.randint(70, 220)
                puts.append({"t": t, "key": key, "size": size, "total": total, "denied": denied})
                t += ms(total + rng.randint(3, 9))
            lat = int((t - a).total_seconds() * 1000) + rng.randint(2, 6)
            r = self._req(a, pub, "HarrowlineStudio/4.2.1 (macOS 15.6)", "POST", "/api/v1/episodes",
                          202 if denied else 201, lat, 0, "publish", port=443, show=show, ep=ep, puts=puts, head=head)
            if denied:
                self.parked += puts
            else:
                self.published.append(r)
        assert self.parked[0]["t"] == FIRST_DENY and self.parked[-3]["t"] == LAST_DENY
        # after the fix: every parked object is uploaded again, one after the other
        t = REPLAY + ms(rng.randint(30, 90))
        self.replayed = []
        for p in self.parked:
            size = p["size"]
            total = max(60, int(size / rng.uniform(38e6, 95e6) * 1000)) if size > 5e6 else rng.randint(70, 220)
            self.replayed.append({"t": t, "key": p["key"], "size": size, "total": total, "denied": False})
            t += ms(total + rng.randint(3, 9))
        self.replay_done = t
        # dashboard calls
        for a in _poisson(rng, START, END, 0.6):
            if self.in_outage(a) or self.near_outage(a):
                continue
            show = self.pick_show()
            self._req(a, rng.choice(self.publishers), "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
                      "(KHTML, like Gecko) Version/18.6 Safari/605.1.15", "GET", f"/api/v1/shows/{show}/stats?range=7d",
                      200, rng.randint(9, 140), 0, "stats", port=443, show=show)
        # Spotify's ingest fetches some of the new episodes a little later
        for r in self.published:
            if r["show"] == "the-long-table" or rng.random() < 0.25:
                a = r["a"] + timedelta(seconds=rng.uniform(40, 240))
                if a < END:
                    self._enc(a, SPOTIFY_INGEST, "Spotify/1.0", r["show"], r["ep"], kind="ingest")

    # ------------------------------------------------------------ tuning and plateaus
    def http_events(self):
        return [r for r in self.reqs if r["port"] == 80]

    def _tune_share(self):
        """PodSnatch's share of the sensor's HTTP events (with the metrics scrapes) off its rounding edge."""
        rng = self.rng
        metrics = len(scrape_times())
        while True:
            ev = self.http_events()
            k = sum(1 for r in ev if r["ua"] == CRAWL_UA)
            p = 100 * k / (len(ev) + metrics)
            if 0.15 < (p * 10) % 1 < 0.4 and int(p * 10) % 10:
                break
            a = T(3, 40) + timedelta(seconds=rng.uniform(0, 1500))
            ip, ua = rng.choice(AGGREGATORS)
            show = rng.choice(SHOW_NAMES[8:26])
            self._req(a, ip, ua, "GET", f"/feeds/{show}.xml", 304, rng.randint(1, 6), 0, "feed", show=show)

    def _plateau(self, rows, key, p, pad=3):
        rows = sorted(rows, key=lambda r: r[key])
        n = len(rows)
        x = p / 100
        ranks = [math.ceil(x * n) - 1, int((n - 1) * x), int((n - 1) * x) + 1, int((n + 1) * x - 1),
                 int((n + 1) * x - 1) + 1, int(x * n)]
        lo, hi = max(0, min(ranks) - pad), min(n - 2, max(ranks) + pad)
        v = rows[(lo + hi) // 2][key]
        if v in STATUS_LIKE:  # a figure that reads like an HTTP status would pass by accident
            v -= 1
            assert rows[lo - 1][key] <= v, (key, v)
        for r in rows[lo:hi + 1]:
            r[key] = v
        return v

    def _plateaus(self):
        rendered = [r for r in self.reqs if "render" in r]
        for r in rendered:
            r["extra"] = r["lat"] - r["render"]
        self.render_p75 = self._plateau(rendered, "render", 75)
        for r in rendered:
            r["lat"] = r["render"] + r.pop("extra")

    # ------------------------------------------------------------ the bucket
    def _s3_get(self, r):
        rng = self.rng
        show, ep = r["show"], r["ep"]
        key = f"episodes/{show}/e{ep:04d}.mp3"
        t = r["a"] + ms(r["lat"]) + ms(rng.randint(40, 1300))
        size = self.obj_size(show, ep)
        rec = {"t": t, "ip": r["client"], "req": "-", "op": "REST.GET.OBJECT", "key": key, "method": "GET", "uri": "/" + key,
               "ua": r["ua"], "err": "-", "size": size, "tat": self._tat()}
        slow_p = 0.58 if r["client"] in CRAWL else 0.07
        if (show, ep) in self.deleted:
            rec.update(status=404, err="NoSuchKey", sent=243, size=None, total=rng.randint(8, 30))
        elif FIRST_SLOWDOWN + timedelta(seconds=1) < t < LAST_SLOWDOWN and rng.random() < slow_p:
            rec.update(status=503, err="SlowDown", sent=322, size=None, total=rng.randint(3, 12))
        elif r["client"] in CRAWL or r["client"] == SPOTIFY_INGEST:
            rec.update(status=200, sent=size, total=int(size / rng.uniform(9e6, 40e6) * 1000))
        elif r["ua"].startswith("AppleCoreMedia"):
            if rng.random() < 0.4:
                rec.update(status=206, sent=2, total=rng.randint(9, 40))
            else:
                n = min(size - 1, rng.randint(1_000_000, 9_000_000))
                rec.update(status=206, sent=n, total=int(n / rng.uniform(1e6, 12e6) * 1000) + rng.randint(5, 30))
        else:
            u = rng.random()
            if u < 0.58:
                rec.update(status=200, sent=size, total=int(size / rng.uniform(1.5e6, 20e6) * 1000))
            elif u < 0.85:
                n = rng.randint(size // 5, size - 1)
                rec.update(status=206, sent=n, total=int(n / rng.uniform(1.5e6, 20e6) * 1000))
            else:
                rec.update(status=304, sent=None, total=rng.randint(6, 30))
        rec["total"] = max(rec["total"], rec["tat"] + rng.randint(0, 3))
        return rec

    def _tat(self):
        rng = self.rng
        u = rng.random()
        if u < 0.975:
            return rng.randint(3, 44)
        return rng.randint(61, 480)

    def _s3_of_requests(self):
        rng = self.rng
        for r in self.reqs:
            if r["status"] == 302:
                rec = self._s3_get(r)
                self.s3.append(rec)
        # the planted first and last SlowDown: two PodSnatch fetches
        for when in (FIRST_SLOWDOWN, LAST_SLOWDOWN):
            cands = [x for x in self.s3 if x["ip"] == CRAWL[0] and abs((x["t"] - when).total_seconds()) < 40
                     and x["status"] == 200]
            x = min(cands, key=lambda x: abs((x["t"] - when).total_seconds()))
            x.update(t=when + ms(rng.randint(100, 800)), status=503, err="SlowDown", sent=322, size=None, total=rng.randint(3, 12))
            x["tat"] = min(x["tat"], x["total"])
        for x in self.s3:
            if x["err"] == "SlowDown":
                assert FIRST_SLOWDOWN <= x["t"] < LAST_SLOWDOWN + timedelta(seconds=1)
        self.tat_p99 = self._plateau([x for x in self.s3 if x["op"] == "REST.GET.OBJECT"], "tat", 99)
        for x in self.s3:
            x["total"] = max(x["total"], x["tat"])
        # feedsmith's uploads (and its HEAD before each publish)
        for r in self.reqs:
            if r["kind"] != "publish":
                continue
            h = r["head"]
            self.s3.append({"t": h["t"], "ip": FS_IP, "req": FS_ROLE, "op": "REST.HEAD.OBJECT", "key": h["key"], "method": "HEAD",
                            "uri": "/" + h["key"], "status": 404, "err": "NoSuchKey", "sent": None, "size": None,
                            "total": rng.randint(6, 21), "tat": rng.randint(3, 6), "ua": SDK_UA})
            for p in r["puts"]:
                self.s3.append(self._put(p))
        for p in self.replayed:
            self.s3.append(self._put(p))

    def _put(self, p):
        rng = self.rng
        rec = {"t": p["t"], "ip": FS_IP, "req": FS_ROLE, "op": "REST.PUT.OBJECT", "key": p["key"], "method": "PUT",
               "uri": "/" + p["key"], "ua": SDK_UA, "total": p["total"], "p": p}
        if p["denied"]:
            rec.update(status=403, err="AccessDenied", sent=243, size=None, tat=rng.randint(2, 6))
        else:
            rec.update(status=200, err="-", sent=None, size=p["size"], tat=rng.randint(21, 58))
        return rec

    def _s3_misc(self):
        rng = self.rng
        S = self.s3
        # the bucket policy: replaced by terraform, put back by the on-call admin
        tf_ua = ("aws-sdk-go-v2/1.32.2 ua/2.1 os/linux lang/go#1.23.2 md/GOOS#linux md/GOARCH#amd64 api/s3#1.66.0 "
                 "m/E,Z terraform-provider-aws/5.76.0 (+https://registry.terraform.io/providers/hashicorp/aws)")
        cli_ua = ("aws-cli/2.18.4 md/awscrt#0.22.0 ua/2.0 os/macos#24.0.0 md/arch#arm64 lang/python#3.12.6 "
                  "md/pyimpl#CPython cfg/retry-mode#standard md/installer#source md/prompt#off md/command#s3api.put-bucket-policy")
        for t, who, ip, ua in ((POLICY_BAD, TF_ROLE, "20.42.73.118", tf_ua), (POLICY_FIX, ONCALL, "81.2.69.160", cli_ua)):
            S.append({"t": t, "ip": ip, "req": who, "op": "REST.PUT.BUCKETPOLICY", "key": "-", "method": "PUT", "uri": "/?policy",
                      "status": 204, "err": "-", "sent": None, "size": None, "total": rng.randint(90, 160), "tat": None,
                      "ua": ua})
            S.append({"t": t + timedelta(seconds=rng.randint(5, 9)), "ip": ip, "req": who, "op": "REST.GET.BUCKETPOLICY",
                      "key": "-", "method": "GET", "uri": "/?policy", "status": 200, "err": "-", "sent": rng.randint(880, 990),
                      "size": None, "total": rng.randint(20, 40), "tat": rng.randint(10, 19), "ua": ua})
        # AWS Config looks at the bucket every hour and after each policy change
        cfg = [START + timedelta(minutes=7) + timedelta(hours=h) for h in range(4)]
        cfg += [POLICY_BAD + timedelta(seconds=41), POLICY_FIX + timedelta(seconds=46)]
        for t in cfg:
            for i, (op, uri) in enumerate((("REST.GET.BUCKETPOLICY", "/?policy"), ("REST.GET.ACL", "/?acl"),
                                           ("REST.GET.BUCKETVERSIONING", "/?versioning"), ("REST.GET.ENCRYPTION", "/?encryption"),
                                           ("REST.GET.PUBLIC_ACCESS_BLOCK", "/?publicAccessBlock"))):
                S.append({"t": t + timedelta(seconds=i, milliseconds=rng.randint(0, 900)), "ip": CONFIG_IP, "req": CONFIG,
                          "op": op, "key": "-", "method": "GET", "uri": uri, "status": 200, "err": "-",
                          "sent": rng.randint(180, 990), "size": None, "total": rng.randint(12, 60), "tat": rng.randint(5, 11),
                          "ua": "AWSConfig"})
        # the backup job lists the bucket every ten minutes
        t = START + timedelta(minutes=3, seconds=17)
        while t < END:
            tok = None
            for page in range(3):
                q = "/?list-type=2&max-keys=1000&prefix=episodes%2F"
                if tok:
                    q += f"&continuation-token={tok}"
                S.append({"t": t + timedelta(seconds=page * 2), "ip": BACKUP_IP, "req": BACKUP, "op": "REST.GET.BUCKET",
                          "key": "-", "method": "GET", "uri": q, "status": 200, "err": "-", "sent": rng.randint(310_000, 420_000),
                          "size": None, "total": rng.randint(180, 620), "tat": rng.randint(150, 400), "ua": "rclone/v1.68.1"})
                tok = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789%") for _ in range(40))
            t += timedelta(minutes=10)

    def _tune_bytes(self):
        """The night's total Bytes Sent off its rounding edge in both GB and GiB."""
        cands = [x for x in self.s3 if x["status"] == 206 and x["sent"] > 1000 and x["ip"] not in CRAWL
                 and x["size"] - x["sent"] > 2_000_000]
        total = sum(x["sent"] or 0 for x in self.s3)
        d = 0
        while _near_edge(total + d, 1e9) or _near_edge(total + d, 2 ** 30):
            d += 1_000_000
        self.bytes_tuned = d
        for x in cands:
            if d <= 0:
                break
            add = min(d, x["size"] - x["sent"] - 1_000_000)
            x["sent"] += add
            x["total"] += add // 6000
            d -= add
        assert d == 0

    def _tune_put_mean(self):
        """The mean Total Time of the successful REST.PUT.OBJECT is an exact whole ms (and .2f of the seconds truncates)."""
        puts = [x for x in self.s3 if x["op"] == "REST.PUT.OBJECT" and x["status"] == 200]
        total = sum(x["total"] for x in puts)
        m = round(total / len(puts))
        m = m - m % 10 + 4
        if m % 100 < 10:
            m += 10  # not a figure that reads like an HTTP status
        diff = m * len(puts) - total
        big = [x for x in puts if x["total"] > 600]
        step = 1 if diff > 0 else -1
        i = 0
        while diff:
            x = big[i % len(big)]
            x["total"] += step
            x["p"]["total"] = x["total"]
            diff -= step
            i += 1
        self.put_mean = m

    # ------------------------------------------------------------ feedsmith's own records
    def _fs_misc(self):
        rng = self.rng
        F = self.fs
        # parked uploads, the replay
        F.append((REPLAY, "INFO", "", "feedsmith::publish", f"replaying parked uploads objects={len(self.replayed)}"))
        for p in self.replayed:
            F.append((p["t"] + ms(p["total"] + 2), "INFO", "replay_parked", "feedsmith::storage",
                      f"stored object key={p['key']} size={p['size']} elapsed_ms={p['total'] + 2}"))
        F.append((self.replay_done + ms(4), "INFO", "", "feedsmith::publish",
                  f"parked uploads drained objects={len(self.replayed)} failed=0"))
        # the database
        F.append((DB_LOST, "WARN", "", "feedsmith::db", "lost connection to database, reconnecting host=pg-feeds-1.internal "
                  "error=error communicating with database: Connection reset by peer (os error 104)"))
        F.append((DB_OK, "INFO", "", "feedsmith::db", "database connection restored host=pg-feeds-2.internal pool_size=16"))
        # cache stats once a minute
        t = START + timedelta(seconds=29, microseconds=rng.randint(0, 999999))
        while t < END:
            hits, misses = rng.randint(60, 140), rng.randint(8, 40)
            F.append((t, "INFO", "", "feedsmith::cache",
                      f"feed cache stats entries={rng.randint(380, 420)} hits={hits} misses={misses} "
                      f"hit_ratio={hits / (hits + misses):.2f}"))
            t += timedelta(seconds=60, microseconds=rng.randint(0, 3000))
        # slow statements: big feeds rendered from the database, and the stats API
        for r in self.reqs:
            if "render" in r and r["show"] == "the-long-table":
                r["slow"] = round(r["render"] * rng.uniform(0.55, 0.8) / 1000, 6)
            elif r["kind"] == "stats" and rng.random() < 0.07:
                r["slow"] = round(rng.uniform(1.02, 2.4), 6)
                r["lat"] = int(r["slow"] * 1000) + rng.randint(5, 40)
        [r] = [r for r in self.reqs if r["a"] == MAX_SLOW_AT and r.get("slow")]
        r["slow"] = MAX_SLOW
        r["render"] = int(MAX_SLOW * 1000) + 412
        r["lat"] = r["render"] + 6
        r["slow_at"] = True

    # ------------------------------------------------------------ the sensor's own events
    def _eve_misc(self):
        rng = self.rng
        E = self.eve
        # DNS: feedsmith resolves the database and the bucket's endpoint
        ts = []
        t = START + timedelta(seconds=51)
        while t < END:
            ts.append((t, "pg-feeds.internal"))
            t += timedelta(minutes=2)
        t = DB_LOST + ms(180)
        while t < DB_OK:
            ts.append((t, "pg-feeds.internal"))
            t += timedelta(seconds=10)
        ts.append((FAILOVER_DNS, "pg-feeds.internal"))
        t = START + timedelta(minutes=1, seconds=13)
        while t < END:
            ts.append((t, S3HOST))
            t += timedelta(minutes=5)
        for t, name in sorted(ts):
            qid = rng.randint(1, 65535)
            sport = rng.randint(32768, 60999)
            flow = rng.randint(10 ** 14, 2 ** 51)
            base = {"flow_id": flow, "in_iface": "ens6", "event_type": "dns", "src_ip": FS_IP, "src_port": sport,
                    "dest_ip": DNS_IP, "dest_port": 53, "proto": "UDP", "pkt_src": "wire/pcap"}
            E.append((t, dict(base, dns={"type": "query", "id": qid, "rrname": name, "rrtype": "A", "tx_id": 0, "opcode": 0})))
            if name == S3HOST:
                ip = rng.choice(S3IPS)
                ans = [{"rrname": name, "rrtype": "A", "ttl": 5, "rdata": ip}]
                grouped = {"A": [ip]}
            else:
                new = t >= FAILOVER_DNS
                tgt, ip = ("pg-feeds-2.internal", "10.42.3.22") if new else ("pg-feeds-1.internal", "10.42.3.21")
                ans = [{"rrname": name, "rrtype": "CNAME", "ttl": 30, "rdata": tgt}, {"rrname": tgt, "rrtype": "A", "ttl": 30, "rdata": ip}]
                grouped = {"A": [ip], "CNAME": [tgt]}
            E.append((t + ms(rng.randint(1, 3)), {**base, "dns": {
                "version": 2, "type": "answer", "id": qid, "flags": "8180", "qr": True, "rd": True, "ra": True, "opcode": 0,
                "rrname": name, "rrtype": "A", "rcode": "NOERROR", "answers": ans, "grouped": grouped}}))
        # TLS: the API's clients, and feedsmith's uploads to the bucket
        for r in self.reqs:
            if r["port"] != 443:
                continue
            E.append((r["a"] - ms(rng.randint(20, 60)), {
                "flow_id": r["flow"], "in_iface": "ens6", "event_type": "tls", "src_ip": r["client"], "src_port": r["sport"],
                "dest_ip": FS_IP, "dest_port": 443, "proto": "TCP", "pkt_src": "wire/pcap",
                "tls": {"sni": API_HOST, "version": "TLS 1.3", "ja3": {"hash": _hex(rng, 32)},
                        "ja3s": {"hash": "15af977ce25de452b96affa2addb1036"}}}))
        ups = [(p["t"], p) for r in self.reqs if r["kind"] == "publish" for p in r["puts"][:1]] + [(self.replayed[0]["t"], None)]
        for t, _ in ups:
            E.append((t - ms(rng.randint(8, 20)), {
                "flow_id": rng.randint(10 ** 14, 2 ** 51), "in_iface": "ens6", "event_type": "tls", "src_ip": FS_IP,
                "src_port": rng.randint(32768, 60999), "dest_ip": rng.choice(S3IPS), "dest_port": 443, "proto": "TCP",
                "pkt_src": "wire/pcap",
                "tls": {"sni": S3HOST, "version": "TLS 1.3", "ja3": {"hash": "7a15285d4efc355608b304698cd7f9ab"},
                        "ja3s": {"hash": "f4febc55ea12b31ae17cfb7e614afda8"}}}))
        # background alerts with no HTTP: block-listed sources, database and SSH port sweeps
        for key, rate, port in (("dshield", 0.075, None), ("pg", 0.05, 5432), ("mysql", 0.04, 3306), ("ssh", 0.045, 22)):
            for t in _poisson(rng, START, END, rate):
                src = _pool(rng, 1, set())[0]
                dport = port or rng.choice([23, 445, 8080, 8443, 2375, 6379, 9200, 5900])
                self.alerts.append((t, key, src, rng.randint(1025, 65535), FS_IP, dport, None))
        # stream noise on ordinary feed traffic
        ordinary = [r for r in self.reqs if r["kind"] in ("feed", "enc") and not (T(1, 55) < r["a"] < T(2, 30))
                    and not (T(3, 10) < r["a"] < T(3, 40))]
        for r in rng.sample(ordinary, 19):
            self.alerts.append((r["a"] + ms(rng.randint(40, 900)), "ack", r["client"], r["sport"], FS_IP, 80, None))
        for r in rng.sample(ordinary, 7):
            self.alerts.append((r["a"] + ms(rng.randint(5, 40)), "nomatch", FS_IP, 80, r["client"], r["sport"], None))
            E.append((r["a"] + ms(rng.randint(5, 40)), {
                "flow_id": r["flow"], "in_iface": "ens6", "event_type": "anomaly", "src_ip": FS_IP, "src_port": 80,
                "dest_ip": r["client"], "dest_port": r["sport"], "proto": "TCP", "pkt_src": "wire/pcap", "tx_id": 1,
                "anomaly": {"app_proto": "http", "type": "applayer", "event": "UNABLE_TO_MATCH_RESPONSE_TO_REQUEST",
                            "layer": "proto_parser"}}))
        # alerts on HTTP requests
        for r in self.reqs:
            for k in r.get("scanhits", []):
                self.alerts.append((r["a"] + ms(rng.randint(0, 2)), k, r["client"], r["sport"], FS_IP, 80, r))
            if r.get("alert"):
                self.alerts.append((r["a"] + ms(rng.randint(0, 2)), r["alert"], r["client"], r["sport"], FS_IP, 80, r))
        self.alerts.sort(key=lambda x: x[0])


def _hex(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _b64(rng, n):
    a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return "".join(rng.choice(a) for _ in range(n))


# ------------------------------------------------------------ rendering: the S3 access log

def s3_log(night, seed):
    rng = random.Random(seed + 1)
    recs = sorted(night.s3, key=lambda x: x["t"])
    # S3 delivers its log records best-effort: neighbours a second or two apart may swap
    for i in range(len(recs) - 1):
        if rng.random() < 0.06 and (recs[i + 1]["t"] - recs[i]["t"]).total_seconds() < 2:
            recs[i], recs[i + 1] = recs[i + 1], recs[i]
    out = []
    for x in recs:
        t = x["t"].strftime("[%d/%b/%Y:%H:%M:%S +0000]")
        rid = "".join(rng.choice("ABCDEF0123456789") for _ in range(16))
        hostid = _b64(rng, 75) + "="
        anon = x["req"] == "-"
        sig, auth = ("-", "-") if anon else ("SigV4", "AuthHeader")
        d = lambda v: "-" if v is None else str(v)  # noqa: E731
        uri = x["uri"]
        out.append(f'{OWNER} {BUCKET} {t} {x["ip"]} {x["req"]} {rid} {x["op"]} {x["key"]} "{x["method"]} {uri} HTTP/1.1" '
                   f'{x["status"]} {x["err"]} {d(x["sent"])} {d(x["size"])} {x["total"]} {d(x["tat"])} "-" "{x["ua"]}" - '
                   f'{hostid} {sig} TLS_AES_128_GCM_SHA256 {auth} {S3HOST} TLSv1.3 - -')
    return "\n".join(out) + "\n"


# ------------------------------------------------------------ rendering: feedsmith (tracing fmt)

REASON = {503: "503 Service Unavailable"}


def _fs_line(t, level, spans, target, body):
    head = t.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + " " + f"{level:>5}" + " "
    if spans:
        head += spans + ": "
    return head + target + ": " + body


def fs_log(night, seed):
    rng = random.Random(seed + 2)
    L = []
    for r in night.reqs:
        ver = "HTTP/2.0" if r["port"] == 443 else "HTTP/1.1"
        span = f"request{{method={r['method']} uri={r['uri']} version={ver} client={r['client']}}}"
        a = r["a"]
        done = a + ms(r["lat"]) + timedelta(microseconds=rng.randint(0, 999))
        if "render" in r:
            if r.get("slow"):
                st = a + ms(int(r["slow"] * 1000) + 3)
                L.append((st, "WARN", span, "sqlx::query",
                          'slow statement: execution time exceeded alert threshold summary="select e.id, e.guid, e.title, …" '
                          'db.statement="\\n\\nselect\\n  e.id,\\n  e.guid,\\n  e.title,\\n  e.enclosure_key,\\n  e.published_at\\n'
                          'from\\n  episodes e\\nwhere\\n  e.show_slug = $1\\norder by\\n  e.published_at desc\\n" '
                          f'rows_affected=0 rows_returned={night.items[r["show"]]} elapsed={r["slow"]:.6f}s '
                          f'elapsed_secs={r["slow"]:.6f} slow_threshold=1s'))
            L.append((a + ms(r["render"]), "INFO", span, "feedsmith::feeds",
                      f"rendered feed show={r['show']} items={night.items[r['show']]} render_ms={r['render']}"))
        if r.get("slow") and r["kind"] == "stats":
            L.append((a + ms(int(r["slow"] * 1000) + 2), "WARN", span, "sqlx::query",
                      'slow statement: execution time exceeded alert threshold summary="select date_trunc($1, d.ts) as …" '
                      'db.statement="\\n\\nselect\\n  date_trunc($1, d.ts) as bucket,\\n  count(*) as downloads\\nfrom\\n  '
                      'downloads d\\nwhere\\n  d.show_slug = $2\\n  and d.ts > now() - $3::interval\\ngroup by\\n  1\\norder by\\n  1\\n" '
                      f'rows_affected=0 rows_returned={rng.randint(7, 168)} elapsed={r["slow"]:.6f}s '
                      f'elapsed_secs={r["slow"]:.6f} slow_threshold=1s'))
        if r.get("dberr"):
            if r["uri"].startswith("/feeds/"):
                L.append((done - ms(1), "ERROR", span, "feedsmith::feeds",
                          f"feed query failed show={r['show']} error=pool timed out while waiting for an open connection"))
            else:
                L.append((done - ms(1), "ERROR", span, "feedsmith::enclosure",
                          f"download log insert failed show={r['show']} episode=e{r['ep']:04d} "
                          "error=pool timed out while waiting for an open connection"))
        if r["status"] == 429:
            L.append((done, "WARN", span, "feedsmith::ratelimit",
                      f"rate limited client={r['client']} quota=20/min retry_after_s={rng.randint(1, 30)}"))
        if r["status"] == 400:
            L.append((done, "WARN", span, "feedsmith::http", "rejected path with traversal segments"))
        if r["kind"] == "publish":
            pspan = span + f":publish{{show={r['show']} episode=e{r['ep']:04d}}}"
            for p in r["puts"]:
                if p["denied"]:
                    L.append((p["t"] + ms(p["total"] + 1), "ERROR", pspan, "feedsmith::storage",
                              f"put_object failed, parked for retry key={p['key']} error=service error: AccessDenied: "
                              f"User: {FS_ROLE} is not authorized to perform: s3:PutObject on resource: "
                              f"\"arn:aws:s3:::{BUCKET}/{p['key']}\" because no resource-based policy allows the "
                              f"s3:PutObject action (status 403)"))
                else:
                    L.append((p["t"] + ms(p["total"] + 2), "INFO", pspan, "feedsmith::storage",
                              f"stored object key={p['key']} size={p['size']} elapsed_ms={p['total'] + 2}"))
        L.append((done, "INFO", span, "tower_http::trace::on_response",
                  f"finished processing request latency={r['lat']} ms status={r['status']}"))
        if r["status"] >= 500:
            L.append((done + timedelta(microseconds=9), "ERROR", span, "tower_http::trace::on_failure",
                      f"response failed classification=Status code: {REASON[r['status']]} latency={r['lat']} ms"))
    for t, level, spans, target, body in night.fs:
        L.append((t, level, spans, target, body))
    L.sort(key=lambda x: x[0])
    return "\n".join(_fs_line(*x) for x in L) + "\n"


# ------------------------------------------------------------ rendering: Suricata EVE JSON

CT = {200: "application/rss+xml; charset=utf-8"}


def _ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+0000"


def _http(r):
    h = {"hostname": FEEDS_HOST if r["kind"] != "health" else FS_IP, "url": r["uri"], "http_user_agent": r["ua"]}
    if r["status"] == 200 and r["uri"].startswith("/feeds/"):
        h["http_content_type"] = CT[200]
    elif r["status"] not in (302, 304):
        h["http_content_type"] = "text/plain; charset=utf-8"
    if r["status"] == 302:
        h["redirect"] = f"https://{S3HOST}/episodes/{r['show']}/e{r['ep']:04d}.mp3"
    h.update({"http_method": r["method"], "protocol": "HTTP/1.1", "status": r["status"], "length": r["len"]})
    return h


def scrape_times():
    """Prometheus scrapes feedsmith's exporter (port 9100) once a minute."""
    out, t = [], START + timedelta(seconds=12, microseconds=455000)
    while t < END:
        out.append(t)
        t += timedelta(seconds=60)
    return out


def eve_log(night, seed):
    rng = random.Random(seed + 3)
    E = []
    for r in night.reqs:
        if r["port"] != 80:
            continue
        E.append((r["a"] + ms(r["lat"]) + timedelta(microseconds=rng.randint(100, 900)), {
            "flow_id": r["flow"], "in_iface": "ens6", "event_type": "http", "src_ip": r["client"], "src_port": r["sport"],
            "dest_ip": FS_IP, "dest_port": 80, "proto": "TCP", "pkt_src": "wire/pcap", "tx_id": 0, "http": _http(r)}))
    # the Prometheus scrapes of feedsmith's exporter (its own port, not logged by feedsmith)
    for t in scrape_times():
        E.append((t + timedelta(microseconds=rng.randint(0, 4000)), {
            "flow_id": rng.randint(10 ** 14, 2 ** 51), "in_iface": "ens6", "event_type": "http", "src_ip": MON_IP,
            "src_port": rng.randint(32768, 60999), "dest_ip": FS_IP, "dest_port": 9100, "proto": "TCP", "pkt_src": "wire/pcap",
            "tx_id": 0, "http": {"hostname": f"{FS_IP}:9100", "url": "/metrics", "http_user_agent": "Prometheus/3.5.0",
                                 "http_content_type": "text/plain; version=0.0.4; charset=utf-8", "http_method": "GET",
                                 "protocol": "HTTP/1.1", "status": 200, "length": rng.randint(18200, 19400)}}))
    for t, key, src, sport, dst, dport, r in night.alerts:
        sid, rev, sig, cat, sev = SIGS[key]
        ev = {"flow_id": r["flow"] if r else rng.randint(10 ** 14, 2 ** 51), "in_iface": "ens6", "event_type": "alert",
              "src_ip": src, "src_port": sport, "dest_ip": dst, "dest_port": dport, "proto": "TCP", "pkt_src": "wire/pcap"}
        if r:
            ev["tx_id"] = 0
        ev["alert"] = {"action": "allowed", "gid": 1, "signature_id": sid, "rev": rev, "signature": sig, "category": cat,
                       "severity": sev, "metadata": {"signature_severity": [["Informational", "Major", "Minor"][sev % 3]]}}
        if r:
            ev["http"] = _http(r)
            ev["app_proto"] = "http"
            ev["direction"] = "to_server"
            ev["flow"] = {"pkts_toserver": 4, "pkts_toclient": 3, "bytes_toserver": 380 + len(r["uri"]) + len(r["ua"]),
                          "bytes_toclient": 274, "start": _ts(r["a"] - ms(rng.randint(1, 40))), "src_ip": src, "dest_ip": dst,
                          "src_port": sport, "dest_port": dport}
        elif key in ("ack", "nomatch"):
            ev["app_proto"] = "http"
            ev["direction"] = "to_server" if key == "ack" else "to_client"
        else:
            ev["direction"] = "to_server"
            ev["flow"] = {"pkts_toserver": 1, "pkts_toclient": 0, "bytes_toserver": 60, "bytes_toclient": 0,
                          "start": _ts(t - ms(1)), "src_ip": src, "dest_ip": dst, "src_port": sport, "dest_port": dport}
        E.append((t, ev))
        if not r and key not in ("ack", "nomatch"):
            E.append((t + timedelta(seconds=rng.randint(58, 64)), {
                "flow_id": ev["flow_id"], "in_iface": "ens6", "event_type": "flow", "src_ip": src, "src_port": sport,
                "dest_ip": dst, "dest_port": dport, "proto": "TCP", "pkt_src": "wire/pcap",
                "flow": {"pkts_toserver": 1, "pkts_toclient": 0, "bytes_toserver": 60, "bytes_toclient": 0,
                         "start": _ts(t - ms(1)), "end": _ts(t - ms(1)), "age": 0, "state": "new", "reason": "timeout",
                         "alerted": True},
                "tcp": {"tcp_flags": "02", "tcp_flags_ts": "02", "tcp_flags_tc": "00", "syn": True, "state": "syn_sent"}}))
    E += night.eve
    # stats once a minute (cumulative counters since the sensor started)
    alert_times = sorted(x[0] for x in night.alerts)
    http_times = sorted(t for t, e in E if e["event_type"] == "http")
    pk, by, drops, alerts0 = 1_884_213_907, 1_402_118_775_312, 3127, 18342
    uptime = 1_116_488
    t = START + timedelta(seconds=31, microseconds=rng.randint(0, 999999))
    prev = START
    night.drops_by_minute = {}
    while t < END:
        n_http = sum(1 for x in http_times if prev <= x < t)
        pk += n_http * rng.randint(9, 14) + rng.randint(2000, 2600)
        by += n_http * rng.randint(40_000, 90_000) + rng.randint(400_000, 900_000)
        storm = STORM_A < t < STORM_B + timedelta(seconds=30)
        d = rng.randint(40, 380) if storm else (rng.randint(1, 9) if rng.random() < 0.08 else 0)
        drops += d
        night.drops_by_minute[t] = d
        uptime += 60
        E.append((t, {"event_type": "stats", "stats": {
            "uptime": uptime,
            "capture": {"kernel_packets": pk, "kernel_drops": drops, "errors": 0},
            "decoder": {"pkts": pk - drops, "bytes": by, "invalid": 0, "ipv4": pk - drops, "ipv6": 0, "ethernet": pk - drops,
                        "tcp": int((pk - drops) * 0.93), "udp": int((pk - drops) * 0.07), "vxlan": pk - drops,
                        "avg_pkt_size": by // max(1, pk - drops), "max_pkt_size": 1514},
            "flow": {"memuse": rng.randint(7_400_000, 9_100_000), "tcp": rng.randint(180, 1400), "udp": rng.randint(3, 40)},
            "detect": {"engines": [{"id": 0, "last_reload": "2035-10-11T06:25:14.281733+0000", "rules_loaded": 48712,
                                    "rules_failed": 0, "rules_skipped": 0}],
                       "alert": alerts0 + sum(1 for x in alert_times if x < t), "alert_queue_overflow": 0,
                       "alerts_suppressed": 0},
            "app_layer": {"flow": {"http": len([x for x in http_times if x < t]) + 4_210_118, "tls": 1_204_557,
                                   "dns_udp": 88_412}}}}))
        night.last_drops = drops
        prev = t
        t += timedelta(seconds=60, microseconds=rng.randint(0, 2000))
    E.sort(key=lambda x: x[0])
    out = []
    for t, ev in E:
        rec = {"timestamp": _ts(t)}
        rec.update(ev)
        out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(out) + "\n"


S3LOG, FSLOG, EVE = "s3-harrowline-episodes-20351012.log", "feedsmith.log", "eve.json"


def write_all(seed):
    night = Night(seed)
    return {S3LOG: s3_log(night, seed), FSLOG: fs_log(night, seed), EVE: eve_log(night, seed)}, night
