#!/usr/bin/env python3
"""Generator for the formats-heldout evaluation set (HELD-OUT).

Deterministic: every case uses random.Random(SEED * 1000 + case_number) with SEED = 77120.
Running `python3 gen.py` from this directory rewrites every cases/<id>/<logfile> and
cases/<id>/truth.json.  Truth is computed from the generator's own event records while the
log text is produced; the written log is never parsed back.

Standard library only.
"""
import collections
import datetime as dt
import json
import os
import random
import shutil
import string

SEED = 77120
HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
EPOCH = dt.datetime(1970, 1, 1)
CANON = ("FATAL", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG", "TRACE")

# --------------------------------------------------------------------------------------
# framework
# --------------------------------------------------------------------------------------


def us_of(y, mo, d, h=0, mi=0, s=0):
    """microseconds since the Unix epoch for a naive UTC datetime"""
    return int((dt.datetime(y, mo, d, h, mi, s) - EPOCH).total_seconds()) * 1_000_000


def utc(us):
    return EPOCH + dt.timedelta(microseconds=us)


def hexs(r, n):
    return "".join(r.choice("0123456789abcdef") for _ in range(n))


def alnum(r, n, alphabet=string.ascii_letters + string.digits):
    return "".join(r.choice(alphabet) for _ in range(n))


def uuid4(r):
    h = hexs(r, 32)
    h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def pick(r, weighted):
    """weighted: list of (value, weight)"""
    vals = [v for v, _ in weighted]
    ws = [w for _, w in weighted]
    return r.choices(vals, ws)[0]


def go_dur(ns):
    """Go time.Duration.String()"""
    if ns == 0:
        return "0s"

    def frac(v, unit):
        whole, f = divmod(v, unit)
        digits = len(str(unit)) - 1
        fs = f"{f:0{digits}d}".rstrip("0")
        return str(whole) + ("." + fs if fs else "")

    if ns < 1000:
        return f"{ns}ns"
    if ns < 1_000_000:
        return frac(ns, 1000) + "µs"
    if ns < 1_000_000_000:
        return frac(ns, 1_000_000) + "ms"
    s, f = divmod(ns, 1_000_000_000)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    out = ""
    if h:
        out += f"{h}h"
    if h or m:
        out += f"{m}m"
    fs = f"{f:09d}".rstrip("0")
    return out + str(sec) + ("." + fs if fs else "") + "s"


def go_json_escape_html(s):
    # Go's encoding/json (and log/slog) escape <, > and & inside strings
    return s.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


DUR_FACTOR_FROM_MS = {"ns": 1e6, "us": 1e3, "ms": 1.0, "s": 1e-3}
SIZE_FACTOR_FROM_B = {"b": 1.0, "kb": 1 / 1024, "mb": 1 / (1024 * 1024)}


def clean_num(x):
    x = round(x, 6)
    if abs(x - round(x)) < 1e-9:
        return int(round(x))
    return x


class Case:
    """Collects the physical log text and the event records at the same time.

    Numeric field values are stored in base units: durations in milliseconds, sizes in bytes.
    """

    def __init__(self, cid, fname, software):
        self.cid, self.fname, self.software = cid, fname, software
        self.chunks = []
        self.events = []
        self.nonevent_text = []
        self.checks = []

    # ---- writing
    def ev(self, text, t, level=None, eol=True, **fields):
        assert level is None or level in CANON, level
        assert "\n\n" not in text or self.cid in ALLOW_BLANK_IN_EVENT, self.cid
        self.chunks.append(text + ("\n" if eol else ""))
        self.events.append({"text": text, "t": t, "level": level, "f": fields})

    def raw(self, text):
        """a physical line that is not an event (header line, blank line)"""
        self.chunks.append(text + "\n")
        self.nonevent_text.append(text)

    # ---- checks
    def _vals(self, role):
        return [e["f"][role] for e in self.events
                if role in e["f"] and e["f"][role] is not None and e["f"][role] != ""]

    def count_where(self, role, value):
        n = sum(1 for v in self._vals(role) if str(v).lower() == str(value).lower())
        assert n > 0, (self.cid, role, value)
        self.checks.append({"kind": "count_where", "role": role, "value": str(value), "expected": n})

    def count_contains(self, text):
        low = text.lower()
        n = sum(1 for e in self.events if low in e["text"].lower())
        assert n > 0, (self.cid, text)
        for ne in self.nonevent_text:
            assert low not in ne.lower(), (self.cid, text)
        self.checks.append({"kind": "count_contains", "text": text, "expected": n})

    def stat(self, kind, role, unit):
        vals = self._vals(role)
        assert vals, (self.cid, role)
        if role == "duration":
            vals = [v * DUR_FACTOR_FROM_MS[unit] for v in vals]
        elif role == "bytes":
            vals = [v * SIZE_FACTOR_FROM_B[unit] for v in vals]
        res = {"max": max, "min": min, "sum": sum}[kind](vals)
        self.checks.append({"kind": kind, "role": role, "unit": unit, "expected": clean_num(res)})

    def top(self, role):
        c = collections.Counter(str(v) for v in self._vals(role))
        (v1, n1), (v2, n2) = c.most_common(2)
        assert n1 >= 1.2 * n2, (self.cid, role, v1, n1, v2, n2)
        self.checks.append({"kind": "top", "role": role, "expected": v1})

    def distinct(self, role):
        n = len(set(str(v) for v in self._vals(role)))
        self.checks.append({"kind": "distinct", "role": role, "expected": n})

    # ---- output
    def write(self):
        d = os.path.join(CASES_DIR, self.cid)
        os.makedirs(d, exist_ok=True)
        text = "".join(self.chunks)
        with open(os.path.join(d, self.fname), "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        levels = collections.Counter(e["level"] for e in self.events if e["level"])
        levels = {k: levels[k] for k in CANON if levels.get(k)}
        truth = {
            "id": self.cid,
            "file": self.fname,
            "software": self.software,
            "events": len(self.events),
            "levels": levels,
            "first_time": self.events[0]["t"].strftime("%Y-%m-%d %H:%M:%S"),
            "last_time": self.events[-1]["t"].strftime("%Y-%m-%d %H:%M:%S"),
            "checks": self.checks,
        }
        size = len(text.encode("utf-8"))
        span = (self.events[-1]["t"] - self.events[0]["t"]).total_seconds()
        problems = []
        if not 4 <= len(self.checks) <= 8:
            problems.append(f"{len(self.checks)} checks")
        if not 150 <= len(self.events) <= 4000:
            problems.append(f"{len(self.events)} events")
        if not size < 400 * 1024:
            problems.append(f"size {size}")
        if not 600 <= span <= 2 * 86400:
            problems.append(f"span {span}s")
        assert not problems or os.environ.get("GEN_LENIENT"), (self.cid, problems)
        if problems:
            print("PROBLEM", self.cid, problems)
        with open(os.path.join(d, "truth.json"), "w", encoding="utf-8") as fh:
            json.dump(truth, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
        return truth, size


# cases whose events legitimately contain an empty line (ClickHouse stack traces, Laravel
# "[previous exception]" blocks)
ALLOW_BLANK_IN_EVENT = {"f09-clickhouse-server", "f20-laravel-monolog"}

# shared invented world: Ferrowick Freight, a parcel logistics company
DEPOTS = ["ZRH-2", "BSL-1", "GVA-3", "MUC-4", "WAW-1", "LOD-2", "LIS-1", "OPO-2"]
PLACES = ["Zürich", "Kraków", "Łódź", "São Paulo", "Malmö", "Göteborg", "Besançon", "Ørsted Park",
          "Reykjavík", "Düsseldorf", "Kōbe", "Český Krumlov"]
PEOPLE = ["Zoë Müller", "Łukasz Wójcik", "Inês Conceição", "Björn Ångström", "Chiamaka Eze",
          "Søren Kierkegård", "François Lefèvre", "Ayşe Yılmaz", "Nguyễn Thị Hoa"]


def tracking(r):
    return f"FW-{r.randint(2026000000, 2026999999)}"


# --------------------------------------------------------------------------------------
# f01 Traefik v2 JSON access log
# --------------------------------------------------------------------------------------

def f01(r):
    C = Case("f01-traefik-access-json", "access.log", "Traefik v2 access log, JSON format (accessLog.format=json, User-Agent header kept)")
    off = dt.timedelta(hours=1)
    routers = [
        ("dockyard-api@docker", ["172.18.0.5:8080", "172.18.0.6:8080"], 50, "dockyard.ferrowick.io",
         ["/api/v2/parcels", "/api/v2/parcels/{tn}", "/api/v2/manifests", "/api/v2/parcels/{tn}/events",
          "/api/v2/depots/{depot}/queue", "/healthz"]),
        ("tracking-web@docker", ["172.18.0.9:3000"], 30, "track.ferrowick.io",
         ["/", "/t/{tn}", "/static/js/app.4f9c1e.js", "/static/css/main.77ab.css", "/search"]),
        ("label-svc@file", ["10.20.4.11:9000", "10.20.4.12:9000"], 15, "labels.ferrowick.io",
         ["/v1/labels", "/v1/labels/{tn}.pdf", "/v1/printers"]),
    ]
    clients = [("198.51.100.77", 30), ("203.0.113.14", 12), ("203.0.113.52", 9), ("192.0.2.201", 8),
               ("10.20.1.4", 10), ("198.51.100.23", 6), ("203.0.113.190", 5), ("192.0.2.45", 4),
               ("100.64.12.9", 3), ("203.0.113.7", 3)]
    uas = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36",
           "Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1",
           "FerrowickScanner/2.4.1 (Android 13; Zebra TC52; depot=Łódź-Centrum)",
           "okhttp/4.12.0", "Go-http-client/2.0", "curl/8.5.0", "kube-probe/1.28"]
    start_us = us_of(2026, 3, 14, 8, 2, 11) + 200_000
    cur = start_us
    recs = []
    n = 335
    for i in range(n):
        if i > 0:
            cur += int(r.expovariate(1 / 21.0) * 1_000_000) + r.randint(0, 999_999)
        router = pick(r, [(x, x[2]) for x in routers])
        rname, addrs, _, host, paths = router
        path = r.choice(paths).replace("{tn}", tracking(r)).replace("{depot}", r.choice(DEPOTS))
        method = "GET"
        if rname.startswith("dockyard") and path.startswith("/api"):
            method = pick(r, [("GET", 60), ("POST", 20), ("PUT", 8), ("DELETE", 5), ("PATCH", 4)])
        if rname.startswith("label") and path == "/v1/labels":
            method = "POST"
        if path == "/search":
            q = r.choice(["Z%C3%BCrich", "%C5%81%C3%B3d%C5%BA", "FW-2026", "S%C3%A3o%20Paulo"])
            path += f"?q={q}&page={r.randint(1, 4)}"
        if path.endswith("/parcels") and method == "GET":
            path += f"?limit=50&offset={r.choice([0, 50, 100, 150])}"
        noroute = r.random() < 0.025
        if noroute:
            path = r.choice(["/wp-login.php", "/.env", "/phpmyadmin/index.php", "/cgi-bin/luci", "/actuator/health"])
            method = "GET"
        client = pick(r, clients)
        ua = r.choice(uas)
        over = r.randint(38_000, 420_000)
        if noroute:
            status, ostatus, odur, osize, size = 404, 0, 0, 0, 19
        else:
            status = pick(r, [(200, 70), (201, 6), (204, 4), (304, 6), (400, 2), (401, 2), (404, 4), (409, 1),
                              (422, 1), (500, 1), (503, 2)])
            if method == "POST" and status == 200:
                status = 201
            if method != "POST" and status == 201:
                status = 200
            if path == "/healthz":
                status = 200
            ostatus = status
            odur = int(r.lognormvariate(3.0, 0.9) * 1_000_000)  # ms-ish scale in ns
            if path.startswith("/static"):
                odur = r.randint(300_000, 4_000_000)
            if status == 503:
                odur = pick(r, [(r.randint(2_000_000, 9_000_000), 1), (r.randint(10_000_000_000, 15_000_000_000), 1)])
            if rname.startswith("label") and path.endswith(".pdf"):
                odur += r.randint(200_000_000, 2_500_000_000)
            if status in (204, 304):
                size = 0
            elif path.endswith(".js"):
                size = 412_883
            elif path.endswith(".css"):
                size = 58_112
            elif path.endswith(".pdf"):
                size = r.randint(38_000, 91_000)
            elif status >= 400:
                size = r.randint(40, 180)
            elif path == "/healthz":
                size = 2
            else:
                size = r.randint(120, 24_000)
            osize = size
        dur = odur + over
        s_ns = cur * 1000 + r.randint(0, 999)
        recs.append(dict(s_ns=s_ns, dur=dur, odur=odur, over=over, status=status, ostatus=ostatus,
                         size=size, osize=osize, method=method, path=path, client=client, ua=ua,
                         router=None if noroute else rname, addr=None if noroute else r.choice(addrs),
                         host=host if not noroute else r.choice(["dockyard.ferrowick.io", "91.198.22.14"]),
                         port=r.randint(1025, 65000), reqsize=r.randint(200, 4000) if method in ("POST", "PUT", "PATCH") else 0))
    # first and last events: short and well inside a second, so start and log time agree
    for rec in (recs[0], recs[-1]):
        rec["s_ns"] = (rec["s_ns"] // 1_000_000_000) * 1_000_000_000 + 150_000_000 + r.randint(0, 999_999)
        rec["odur"] = r.randint(2_000_000, 9_000_000)
        rec["dur"] = rec["odur"] + rec["over"]
    recs.sort(key=lambda x: x["s_ns"] + x["dur"])

    def rfc(ns, offset):
        sec, frac = divmod(ns, 1_000_000_000)
        base = EPOCH + dt.timedelta(seconds=sec) + offset
        fs = f"{frac:09d}".rstrip("0")
        tz = "Z" if offset == dt.timedelta(0) else "+01:00"
        return base.strftime("%Y-%m-%dT%H:%M:%S") + ("." + fs if fs else "") + tz

    for count, rec in enumerate(recs, 1):
        end_ns = rec["s_ns"] + rec["dur"]
        end_sec = end_ns // 1_000_000_000
        d = {
            "ClientAddr": f"{rec['client']}:{rec['port']}", "ClientHost": rec["client"],
            "ClientPort": str(rec["port"]), "ClientUsername": "-",
            "DownstreamContentSize": rec["size"], "DownstreamStatus": rec["status"], "Duration": rec["dur"],
            "OriginContentSize": rec["osize"], "OriginDuration": rec["odur"], "OriginStatus": rec["ostatus"],
            "Overhead": rec["over"], "RequestAddr": rec["host"], "RequestContentSize": rec["reqsize"],
            "RequestCount": count, "RequestHost": rec["host"], "RequestMethod": rec["method"],
            "RequestPath": rec["path"], "RequestPort": "-", "RequestProtocol": "HTTP/2.0",
            "RequestScheme": "https", "RetryAttempts": 0,
            "StartLocal": rfc(rec["s_ns"], off), "StartUTC": rfc(rec["s_ns"], dt.timedelta(0)),
            "TLSCipher": "TLS_AES_128_GCM_SHA256", "TLSVersion": "1.3",
            "entryPointName": "websecure", "level": "info", "msg": "", "request_User-Agent": rec["ua"],
            "time": (EPOCH + dt.timedelta(seconds=end_sec) + off).strftime("%Y-%m-%dT%H:%M:%S") + "+01:00",
        }
        if rec["router"]:
            d["RouterName"] = rec["router"]
            d["ServiceAddr"] = rec["addr"]
            d["ServiceName"] = rec["router"]
            d["ServiceURL"] = {"Scheme": "http", "Opaque": "", "User": None, "Host": rec["addr"], "Path": "",
                               "RawPath": "", "OmitHost": False, "ForceQuery": False, "RawQuery": "",
                               "Fragment": "", "RawFragment": ""}
        d = dict(sorted(d.items()))
        line = go_json_escape_html(json.dumps(d, separators=(",", ":"), ensure_ascii=False))
        fields = dict(status=rec["status"], duration=rec["dur"] / 1e6, bytes=rec["size"], client=rec["client"],
                      method=rec["method"], path=rec["path"].split("?")[0])
        if rec["router"]:
            fields["upstream"] = rec["addr"]
        C.ev(line, EPOCH + dt.timedelta(seconds=end_sec), "INFO", **fields)
    C.count_where("status", "503")
    C.count_where("method", "DELETE")
    C.stat("max", "duration", "ms")
    C.stat("sum", "bytes", "b")
    C.top("client")
    C.distinct("upstream")
    return C


# --------------------------------------------------------------------------------------
# f02 Nextcloud JSON log (nextcloud.log)
# --------------------------------------------------------------------------------------

NC_LEVEL = {0: "DEBUG", 1: "INFO", 2: "WARN", 3: "ERROR", 4: "FATAL"}


def f02(r):
    C = Case("f02-nextcloud-json", "nextcloud.log", "Nextcloud server log (nextcloud.log, JSON lines, numeric level 0-4)")
    off = dt.timedelta(hours=2)
    cur = us_of(2026, 6, 8, 5, 41, 9)
    users = [("t.ndlovu", 45), ("mkowalska", 12), ("jfernandes", 10), ("admin", 4), ("scan-bot", 9),
             ("r.okonkwo", 6), ("lbrandt", 5), ("--", 5)]
    ips = [("10.50.3.18", 32), ("10.50.3.40", 10), ("203.0.113.66", 8), ("198.51.100.4", 7), ("10.50.7.2", 9),
           ("192.0.2.77", 5)]
    uas = ["Mozilla/5.0 (Windows) mirall/3.12.3 (build 20240408) (Nextcloud, windows-10.0.22631 ClientArchitecture: x86_64 OsArchitecture: x86_64)",
           "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36",
           "Mozilla/5.0 (Android) Nextcloud-android/3.29.0",
           "Mozilla/5.0 (Macintosh) mirall/3.13.0 (Nextcloud, osx-23.5.0 ClientArchitecture: arm64 OsArchitecture: arm64)"]
    version = "28.0.6.1"

    def trace(frames):
        return [{"file": f, "line": ln, "function": fn, "class": cl, "type": "->", "args": ["*** sensitive parameters replaced ***"]}
                for f, ln, fn, cl in frames]

    db_frames = [("/var/www/html/3rdparty/doctrine/dbal/src/Connection.php", 1532, "connect", "Doctrine\\DBAL\\Connection"),
                 ("/var/www/html/lib/private/DB/Connection.php", 139, "connect", "OC\\DB\\Connection"),
                 ("/var/www/html/3rdparty/doctrine/dbal/src/Connection.php", 1050, "executeQuery", "Doctrine\\DBAL\\Connection"),
                 ("/var/www/html/lib/private/DB/QueryBuilder/QueryBuilder.php", 284, "executeQuery", "OC\\DB\\QueryBuilder\\QueryBuilder"),
                 ("/var/www/html/lib/private/Files/Cache/Cache.php", 158, "get", "OC\\Files\\Cache\\Cache"),
                 ("/var/www/html/apps/dav/lib/Connector/Sabre/Directory.php", 243, "getChildren", "OCA\\DAV\\Connector\\Sabre\\Directory")]
    lock_frames = [("/var/www/html/lib/private/Lock/DBLockingProvider.php", 230, "acquireLock", "OC\\Lock\\DBLockingProvider"),
                   ("/var/www/html/lib/private/Files/Storage/Common.php", 727, "acquireLock", "OC\\Files\\Storage\\Common"),
                   ("/var/www/html/lib/private/Files/View.php", 1988, "lockPath", "OC\\Files\\View"),
                   ("/var/www/html/apps/dav/lib/Connector/Sabre/File.php", 139, "put", "OCA\\DAV\\Connector\\Sabre\\File")]
    n = 640
    for i in range(n):
        cur += int(r.expovariate(1 / 150.0) * 1_000_000)
        t_sec = cur // 1_000_000 * 1_000_000
        kind = pick(r, [("dav", 40), ("login_ok", 8), ("login_fail", 4), ("cron", 8), ("trusted", 2),
                        ("debug", 10), ("dbfail", 4), ("lock", 4), ("preview", 6), ("versions", 5)])
        user = pick(r, users)
        ip = pick(r, ips)
        ua = r.choice(uas)
        method, url, app, level, msg, exc = "PROPFIND", f"/remote.php/dav/files/{user}/", "no app in context", 1, "", None
        if kind == "dav":
            method = pick(r, [("PROPFIND", 60), ("PUT", 20), ("GET", 15), ("MOVE", 5)])
            place = r.choice(PLACES)
            url = f"/remote.php/dav/files/{user}/Depots/{place}/manifest-{r.randint(100, 999)}.xlsx"
            level, app = pick(r, [(1, 6), (2, 3), (0, 2)]), "dav"
            if level == 1:
                method = "PUT"
            msg = {1: f"File with name {url.rsplit('/', 1)[-1]} uploaded to {place} (owner: {user})",
                   2: "Sabre\\DAV\\Exception\\NotFound: File with name Depots could not be located",
                   0: f"Scanning path Depots/{place}"}[level]
        elif kind == "login_ok":
            method, url, app, level = "POST", "/login", "core", 1
            msg = f"Login successful: \"{user}\" (Remote IP: \"{ip}\")"
        elif kind == "login_fail":
            method, url, app, level = "POST", "/login", "core", 2
            user = "--"
            msg = f"Login failed: {r.choice(['admin', 'test', 'root', 'ferrowick', 'mkowalska'])} (Remote IP: {ip})"
        elif kind == "cron":
            method, url, app, level, ip, ua, user = "", "--", "cron", 1, "", "--", "--"
            job = r.choice(["OCA\\Files\\BackgroundJob\\ScanFiles", "OCA\\Files_Trashbin\\BackgroundJob\\ExpireTrash",
                            "OC\\Preview\\BackgroundCleanupJob", "OCA\\Files_Versions\\BackgroundJob\\ExpireVersions"])
            msg = f"Finished job {job} (id: {r.randint(10, 90)}, arguments: null) in {r.randint(0, 14)} seconds"
        elif kind == "trusted":
            method, url, app, level, user = "GET", "/status.php", "core", 2, "--"
            msg = f"Trusted domain error. \"{ip}\" tried to access using \"cloud.ferrowick.io:8443\" as host."
        elif kind == "debug":
            level, app = 0, "files"
            method = "GET"
            url = f"/ocs/v2.php/apps/files_sharing/api/v1/shares?format=json&path=%2FDepots%2F{r.choice(['ZRH', 'WAW'])}"
            msg = "Deprecated event type for OCA\\Files::loadAdditionalScripts: OCP\\EventDispatcher\\GenericEvent is used"
        elif kind == "preview":
            level, app, method = pick(r, [(2, 3), (1, 1)]), "core", "GET"
            url = f"/index.php/core/preview?fileId={r.randint(1000, 99999)}&x=250&y=250&a=true"
            msg = "Preview generation failed: ImageMagick unable to read pdf (policy.xml)" if level == 2 else "Preview generated for fileId"
        elif kind == "versions":
            level, app, method = 1, "files_versions", "PUT"
            url = f"/remote.php/dav/files/{user}/Invoices/2026-06/{r.choice(PEOPLE)}.pdf"
            msg = "Expiring version of file Invoices/2026-06 (keeping 12 versions)"
        elif kind == "dbfail":
            level, app = 3, "no app in context"
            method = "PROPFIND"
            url = f"/remote.php/dav/files/{user}/"
            msg = "Failed to connect to the database: An exception occurred in the driver: SQLSTATE[HY000] [2002] Connection refused"
            exc = {"Exception": "Doctrine\\DBAL\\Exception", "Message": msg, "Code": 0, "Trace": trace(db_frames),
                   "File": "/var/www/html/lib/private/DB/Connection.php", "Line": 141,
                   "Previous": {"Exception": "Doctrine\\DBAL\\Driver\\PDO\\Exception",
                                "Message": "SQLSTATE[HY000] [2002] Connection refused", "Code": 2002,
                                "Trace": trace(db_frames[:2]), "File": "/var/www/html/3rdparty/doctrine/dbal/src/Driver/PDO/Exception.php",
                                "Line": 28},
                   "message": msg, "exception": {}, "CustomMessage": "--"}
        elif kind == "lock":
            level, app, method = 3, "webdav", "PUT"
            url = f"/remote.php/dav/files/{user}/Depots/{r.choice(PLACES)}/scan-{r.randint(1000, 9999)}.jpg"
            msg = "\"Depots/scan.jpg\" is locked, existing lock on file: 2 shared locks"
            exc = {"Exception": "OCA\\DAV\\Connector\\Sabre\\Exception\\FileLocked", "Message": msg, "Code": 0,
                   "Trace": trace(lock_frames), "File": "/var/www/html/apps/dav/lib/Connector/Sabre/File.php",
                   "Line": 142, "message": msg, "exception": {}, "CustomMessage": msg}
        local = utc(t_sec) + off
        entry = {"reqId": alnum(r, 20), "level": level, "time": local.strftime("%Y-%m-%dT%H:%M:%S") + "+02:00",
                 "remoteAddr": ip, "user": user, "app": app, "method": method, "url": url, "message": msg,
                 "userAgent": ua, "version": version}
        if exc:
            entry["exception"] = exc
            entry["id"] = alnum(r, 13, string.ascii_lowercase + string.digits)
        line = json.dumps(entry, separators=(",", ":"), ensure_ascii=False)
        C.ev(line, utc(t_sec), NC_LEVEL[level], client=ip, user=user, method=method, logger=app)
    C.count_where("method", "PROPFIND")
    C.count_where("logger", "dav")
    C.top("client")
    C.top("user")
    C.count_contains("SQLSTATE[HY000] [2002]")
    C.count_contains("is locked, existing lock")
    return C


# --------------------------------------------------------------------------------------
# f03 Go service on GKE writing Google Cloud structured-logging JSON via log/slog
# --------------------------------------------------------------------------------------

def f03(r):
    C = Case("f03-gcp-structured-slog", "parcel-router.log",
             "Go log/slog JSONHandler remapped to Google Cloud Logging structured fields (severity, timestamp{seconds,nanos}, httpRequest), as read with kubectl logs")
    cur = us_of(2026, 2, 10, 6, 0, 4)
    clients = [("35.191.14.9", 30), ("35.191.3.120", 12), ("130.211.2.44", 11), ("35.191.8.77", 10),
               ("130.211.0.19", 8), ("10.8.1.5", 6)]
    endpoints = [("POST", "/v2/plan", 30), ("GET", "/v2/routes/{tn}", 40), ("GET", "/v2/depots/{depot}/capacity", 15),
                 ("PUT", "/v2/routes/{tn}/stops", 8), ("GET", "/healthz", 7)]
    src = {
        "req": ("github.com/ferrowick/parcel-router/internal/httpx.AccessLog.func1", "/src/internal/httpx/access.go", 58),
        "plan": ("github.com/ferrowick/parcel-router/internal/plan.(*Planner).Plan", "/src/internal/plan/planner.go", 142),
        "quote": ("github.com/ferrowick/parcel-router/internal/carrier.(*quoteClient).Fetch", "/src/internal/carrier/quote.go", 97),
        "panic": ("github.com/ferrowick/parcel-router/internal/httpx.Recover.func1.1", "/src/internal/httpx/recover.go", 33),
        "cfg": ("main.watchConfig", "/src/cmd/parcel-router/main.go", 211),
        "cache": ("github.com/ferrowick/parcel-router/internal/cache.(*Ring).ping", "/src/internal/cache/ring.go", 64),
    }
    n = 620
    for i in range(n):
        cur += int(r.expovariate(1 / 19.0) * 1_000_000) + 1
        nanos_us = cur % 1_000_000
        secs = cur // 1_000_000
        kind = pick(r, [("req", 70), ("plan", 12), ("quote", 7), ("panic", 2), ("cfg", 1), ("cache", 2), ("debug", 6)])
        if i == 0:
            kind = "cfg"
        trace = f"projects/ferrowick-prod/traces/{hexs(r, 32)}"
        fn, file, line = src.get(kind, src["plan"])
        d = {"timestamp": {"seconds": secs, "nanos": nanos_us * 1000}}
        fields = {}
        extra = {}
        if kind == "req":
            m, p, _ = pick(r, [((m, p, w), w) for m, p, w in endpoints])
            p = p.replace("{tn}", tracking(r)).replace("{depot}", r.choice(DEPOTS))
            status = pick(r, [(200, 80), (201, 4), (304, 3), (400, 3), (404, 4), (429, 1), (500, 2), (503, 1)])
            if m == "POST" and status == 200:
                status = 201
            lat_ns = int(r.lognormvariate(17.2, 0.8))  # ~30ms median
            if p == "/healthz":
                lat_ns = r.randint(80_000, 900_000)
            if status == 503:
                lat_ns = r.randint(10_000_000_000, 30_000_000_000)
            size = 0 if status == 304 else (r.randint(60, 200) if status >= 400 else r.randint(300, 48_000))
            client = pick(r, clients)
            sev = "ERROR" if status >= 500 else ("WARNING" if status >= 400 else "INFO")
            lat_s = f"{lat_ns // 1_000_000_000}.{lat_ns % 1_000_000_000:09d}".rstrip("0").rstrip(".") + "s"
            d["severity"] = sev
            msg = "request completed"
            extra["httpRequest"] = {"requestMethod": m, "requestUrl": f"https://router.ferrowick.io{p}", "status": status,
                                    "responseSize": str(size), "userAgent": r.choice(["FerrowickDispatch/5.2 (iOS 17.4)", "Go-http-client/1.1", "GoogleHC/1.0", "Mozilla/5.0 (X11; Linux x86_64) Firefox/123.0"]),
                                    "remoteIp": client, "serverIp": "10.8.0.14", "latency": lat_s, "protocol": "HTTP/1.1"}
            extra["logging.googleapis.com/trace"] = trace
            fields = dict(status=status, duration=lat_ns / 1e6, bytes=size, client=client, method=m)
        elif kind == "plan":
            sev = "INFO"
            msg = "route plan computed"
            extra = {"depot": r.choice(DEPOTS), "stops": r.randint(4, 60), "vehicles": r.randint(1, 9),
                     "note": r.choice(["ok", "ok", "détour via " + r.choice(PLACES), "ok"]),
                     "logging.googleapis.com/trace": trace}
        elif kind == "debug":
            sev = "DEBUG"
            msg = "cache lookup"
            extra = {"key": f"route:{tracking(r)}", "hit": r.random() < 0.7}
        elif kind == "quote":
            sev = pick(r, [("WARNING", 3), ("ERROR", 1)])
            carrier = r.choice(["dhl-express", "posta-ch", "inpost", "ctt"])
            if sev == "WARNING":
                msg = "carrier quote slow, using cached tariff"
                extra = {"carrier": carrier, "waited": go_dur(r.randint(2_000_000_000, 4_500_000_000))}
            else:
                msg = "carrier quote failed"
                extra = {"carrier": carrier,
                         "error": f"Post \"https://api.{carrier}.example/v1/quote?weight=2.4&dest=CH\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"}
            extra["logging.googleapis.com/trace"] = trace
        elif kind == "panic":
            sev = "ERROR"
            gid = r.randint(1000, 99999)
            msg = "panic recovered: runtime error: index out of range [3] with length 3"
            stack = (f"goroutine {gid} [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:24 +0x5e\n"
                     "github.com/ferrowick/parcel-router/internal/httpx.Recover.func1.1()\n\t/src/internal/httpx/recover.go:31 +0x85\n"
                     f"panic({{0x1d2f3a0?, 0xc000{hexs(r, 6)}?}})\n\t/usr/local/go/src/runtime/panic.go:914 +0x21f\n"
                     "github.com/ferrowick/parcel-router/internal/plan.(*Planner).assignLegs(0xc0001a2000, {0xc000e3c000, 0x3, 0x4})\n\t/src/internal/plan/legs.go:77 +0x4c5\n"
                     "github.com/ferrowick/parcel-router/internal/plan.(*Planner).Plan(0xc0001a2000, {0x22c1e48, 0xc000f0a0f0}, 0xc00041c1e0)\n\t/src/internal/plan/planner.go:131 +0x2d1\n"
                     "net/http.HandlerFunc.ServeHTTP(0x0?, {0x22bf6d0?, 0xc0004f2380?}, 0x0?)\n\t/usr/local/go/src/net/http/server.go:2136 +0x29\n"
                     "created by net/http.(*Server).Serve in goroutine 1\n\t/usr/local/go/src/net/http/server.go:3086 +0x5cb\n")
            extra = {"stack": stack, "logging.googleapis.com/trace": trace}
        elif kind == "cfg":
            sev = "NOTICE"
            msg = "configuration reloaded"
            extra = {"path": "/etc/parcel-router/config.yaml", "depots": len(DEPOTS)}
        elif kind == "cache":
            sev = pick(r, [("CRITICAL", 1), ("WARNING", 2)])
            msg = ("lost connection to route cache ring; serving stale plans" if sev == "CRITICAL"
                   else "route cache ping slow")
            extra = {"ring": "redis://10.8.2.10:6379/3", "attempt": r.randint(1, 5)}
        d["severity"] = sev
        d["logging.googleapis.com/sourceLocation"] = {"function": fn, "file": file, "line": line}
        d["message"] = msg
        d.update(extra)
        text = go_json_escape_html(json.dumps(d, separators=(",", ":"), ensure_ascii=False))
        lv = {"WARNING": "WARN"}.get(sev, sev)
        C.ev(text, utc(secs * 1_000_000), lv, **fields)
    C.count_where("status", "500")
    C.stat("max", "duration", "ms")
    C.stat("sum", "bytes", "b")
    C.top("client")
    C.count_contains("assignLegs")
    C.count_contains("context deadline exceeded")
    return C


# --------------------------------------------------------------------------------------
# f04 Elasticsearch 7.x JSON server log
# --------------------------------------------------------------------------------------

def f04(r):
    C = Case("f04-elasticsearch7-json", "ferrowick-search_server.json", "Elasticsearch 7.x server log, JSON layout (ESJsonLayout, *_server.json)")
    cur = us_of(2026, 6, 3, 22, 10, 0) + 412_000
    node, cluster = "es-data-2", "ferrowick-search"
    cuuid, nid = "pQ4c7rTbS3eF0w9xYz1aBc", "Hk2LmN8oQpR5sTuVwXyZ0a"
    idx = [f"parcels-2026.06.0{d}" for d in (1, 2, 3)] + ["manifests-v7", "scan-events-000412"]

    def esc(s):
        return json.dumps(s, ensure_ascii=False)

    def line(ts_us, level, comp, msg, stack=None, ids=True):
        ts = utc(ts_us)
        t = ts.strftime("%Y-%m-%dT%H:%M:%S") + f",{ts.microsecond // 1000:03d}Z"
        s = (f'{{"type": "server", "timestamp": "{t}", "level": "{level}", "component": "{comp}", '
             f'"cluster.name": "{cluster}", "node.name": "{node}", "message": {esc(msg)}')
        if ids:
            s += f', "cluster.uuid": "{cuuid}", "node.id": "{nid}" '
        if stack:
            s += ', "stacktrace": [' + ", ".join(esc(x) for x in stack) + "] "
        s += " }" if ids else " }"
        return s

    transport_stack = [
        "org.elasticsearch.transport.NodeNotConnectedException: [es-data-4][10.40.6.14:9300] Node not connected",
        "at org.elasticsearch.transport.ClusterConnectionManager.getConnection(ClusterConnectionManager.java:189) ~[elasticsearch-7.17.9.jar:7.17.9]",
        "at org.elasticsearch.transport.TransportService.getConnection(TransportService.java:841) ~[elasticsearch-7.17.9.jar:7.17.9]",
        "at org.elasticsearch.transport.TransportService.sendRequest(TransportService.java:754) [elasticsearch-7.17.9.jar:7.17.9]",
        "at org.elasticsearch.action.support.nodes.TransportNodesAction$AsyncAction.start(TransportNodesAction.java:260) [elasticsearch-7.17.9.jar:7.17.9]",
        "at java.lang.Thread.run(Thread.java:1589) [?:?]"]
    parse_stack = [
        "org.elasticsearch.index.query.QueryShardException: failed to create query: For input string: \"Łódź\"",
        "at org.elasticsearch.index.query.QueryShardContext.toQuery(QueryShardContext.java:513) ~[elasticsearch-7.17.9.jar:7.17.9]",
        "at org.elasticsearch.search.SearchService.parseSource(SearchService.java:1296) ~[elasticsearch-7.17.9.jar:7.17.9]",
        "at org.elasticsearch.search.SearchService.createContext(SearchService.java:1090) ~[elasticsearch-7.17.9.jar:7.17.9]",
        "Caused by: java.lang.NumberFormatException: For input string: \"Łódź\"",
        "at jdk.internal.math.FloatingDecimal.readJavaFormatString(FloatingDecimal.java:2054) ~[?:?]",
        "at java.lang.Double.parseDouble(Double.java:651) ~[?:?]",
        "at org.elasticsearch.index.mapper.NumberFieldMapper$NumberType$3.parse(NumberFieldMapper.java:389) ~[elasticsearch-7.17.9.jar:7.17.9]"]
    # startup block (before the node has joined: no cluster.uuid / node.id)
    boot = [("INFO", "o.e.n.Node", "version[7.17.9], pid[7], build[default/docker/ef48222227ee6b9e70e502f0f0daa52435ee634d/2023-01-31T05:34:43.305517834Z], OS[Linux/5.15.0-1051-gke/amd64], JVM[Oracle Corporation/OpenJDK 64-Bit Server VM/19.0.2/19.0.2+7-44]"),
            ("INFO", "o.e.n.Node", "JVM home [/usr/share/elasticsearch/jdk], using bundled JDK [true]"),
            ("INFO", "o.e.p.PluginsService", "loaded module [x-pack-security]"),
            ("INFO", "o.e.e.NodeEnvironment", "using [1] data paths, mounts [[/usr/share/elasticsearch/data (/dev/sdb)]], net usable_space [212.3gb], net total_space [492gb], types [ext4]"),
            ("INFO", "o.e.n.Node", "initialized"),
            ("INFO", "o.e.n.Node", "starting ..."),
            ("INFO", "o.e.t.TransportService", "publish_address {10.40.6.12:9300}, bound_addresses {0.0.0.0:9300}")]
    for lvl, comp, msg in boot:
        cur += r.randint(20_000, 900_000)
        C.ev(line(cur, lvl, comp, msg, ids=False), utc(cur), lvl, logger=comp)
    gc_n = 80000
    n = 720
    for i in range(n):
        cur += int(r.expovariate(1 / 42.0) * 1_000_000)
        kind = pick(r, [("mapping", 14), ("gc", 18), ("gcwarn", 6), ("disk", 9), ("health", 3), ("resync", 5),
                        ("nodeconn", 4), ("parse", 5), ("rollover", 3), ("debug_search", 10), ("slowdisk", 3),
                        ("license", 1)])
        stack = None
        if kind == "mapping":
            lvl, comp = "INFO", "o.e.c.m.MetadataMappingService"
            msg = f"[{r.choice(idx)}/{alnum(r, 22)}] update_mapping [_doc]"
        elif kind in ("gc", "gcwarn"):
            gc_n += r.randint(40, 400)
            lvl, comp = ("INFO" if kind == "gc" else "WARN"), "o.e.m.j.JvmGcMonitorService"
            spent = r.randint(280, 700) if kind == "gc" else r.randint(1100, 4800)
            msg = f"[gc][{gc_n}] overhead, spent [{spent}ms] collecting in the last [{r.choice(['1s', '1s', '1.2s', '2.1s'])}]"
        elif kind == "disk":
            lvl, comp = pick(r, [("INFO", 3), ("WARN", 1)]), "o.e.c.r.a.DiskThresholdMonitor"
            if lvl == "INFO":
                msg = (f"low disk watermark [85%] exceeded on [{nid}][{node}][/usr/share/elasticsearch/data/nodes/0] "
                       f"free: {r.randint(60, 70)}.{r.randint(0, 9)}gb[{r.randint(12, 14)}.{r.randint(0, 9)}%], replicas will not be assigned to this node")
            else:
                msg = (f"high disk watermark [90%] exceeded on [{nid}][{node}][/usr/share/elasticsearch/data/nodes/0] "
                       f"free: {r.randint(40, 48)}.{r.randint(0, 9)}gb[{r.randint(8, 9)}.{r.randint(0, 9)}%], shards will be relocated away from this node; currently relocating away shards totalling [0] bytes; the node is expected to continue to exceed the high disk watermark when these relocations are complete")
        elif kind == "health":
            lvl, comp = "INFO", "o.e.c.r.a.AllocationService"
            a, b = r.choice([("GREEN", "YELLOW"), ("YELLOW", "GREEN"), ("YELLOW", "RED"), ("RED", "YELLOW")])
            msg = f"Cluster health status changed from [{a}] to [{b}] (reason: [shards started [[{r.choice(idx)}][{r.randint(0, 4)}]]])."
        elif kind == "resync":
            lvl, comp = "INFO", "o.e.i.s.IndexShard"
            msg = f"[{r.choice(idx)}][{r.randint(0, 4)}] primary-replica resync completed with {r.randint(0, 90)} operations"
        elif kind == "nodeconn":
            lvl, comp = "WARN", "o.e.a.a.c.n.s.TransportNodesStatsAction"
            msg = "not sending request to node [es-data-4] since the connection is unavailable"
            stack = transport_stack
        elif kind == "parse":
            lvl, comp = "DEBUG", "o.e.a.s.TransportSearchAction"
            msg = f"[{r.choice(idx)}][{r.randint(0, 4)}], node[{nid}], [P], s[STARTED], a[id={alnum(r, 22)}]: Failed to execute [SearchRequest{{searchType=QUERY_THEN_FETCH, indices=[parcels-*], source={{\"query\":{{\"term\":{{\"weight_kg\":\"Łódź\"}}}}}}}}] lastShard [true]"
            stack = parse_stack
        elif kind == "rollover":
            lvl, comp = "INFO", "o.e.x.i.IndexLifecycleTransition"
            msg = f"moving index [{r.choice(idx)}] from [{{\"phase\":\"hot\",\"action\":\"rollover\",\"name\":\"check-rollover-ready\"}}] to [{{\"phase\":\"hot\",\"action\":\"rollover\",\"name\":\"attempt-rollover\"}}] in policy [parcels-ilm]"
        elif kind == "debug_search":
            lvl, comp = "DEBUG", "o.e.a.b.TransportShardBulkAction"
            msg = f"[{r.choice(idx)}][{r.randint(0, 4)}] failed to execute bulk item (index) index {{[{r.choice(idx)}][_doc][{alnum(r, 20)}], source[{{\"depot\":\"{r.choice(PLACES)}\",\"tn\":\"{tracking(r)}\"}}]}}"
        elif kind == "slowdisk":
            lvl, comp = "WARN", "o.e.m.f.FsHealthService"
            msg = f"health check of [/usr/share/elasticsearch/data/nodes/0] took [{r.randint(5000, 19000)}ms] which is above the warn threshold of [5s]"
        else:
            lvl, comp = "WARN", "o.e.l.LicenseService"
            msg = "License [will expire] on [Monday, June 29, 2026]. If you have a new license, please update it. Otherwise, please reach out to your support contact."
        C.ev(line(cur, lvl, comp, msg, stack), utc(cur), lvl, logger=comp)
    C.top("logger")
    C.count_where("logger", "o.e.m.j.JvmGcMonitorService")
    C.count_where("logger", "o.e.c.r.a.DiskThresholdMonitor")
    C.count_contains("ClusterConnectionManager.getConnection")
    C.count_contains("NumberFormatException")
    C.distinct("logger")
    return C


# --------------------------------------------------------------------------------------
# f05 Heroku router + platform + app lines (heroku logs / log drain)
# --------------------------------------------------------------------------------------

def f05(r):
    C = Case("f05-heroku-router", "heroku-dockyard.log", "Heroku logs (heroku logs --tail / Logplex drain): router key=value lines, platform and app lines")
    cur = us_of(2026, 9, 22, 13, 58, 2) + 118_000
    app_host = "ferrowick-dockyard.herokuapp.com"
    clients = [("203.0.113.140", 28), ("198.51.100.9", 11), ("192.0.2.88", 10), ("203.0.113.61", 9),
               ("198.51.100.201", 7), ("192.0.2.19", 6), ("203.0.113.222", 5)]
    paths = [("GET", "/api/parcels/{tn}", 40), ("POST", "/api/parcels", 14), ("GET", "/api/depots/{depot}/queue", 12),
             ("PUT", "/api/parcels/{tn}/status", 9), ("GET", "/reports/daily?depot={depot}", 4), ("GET", "/", 6),
             ("GET", "/assets/application-7d1f0c2e.css", 5), ("DELETE", "/api/parcels/{tn}/hold", 3)]
    dynos = ["web.1", "web.2", "web.3"]
    n = 980
    crash_at = 610
    for i in range(n):
        cur += int(r.expovariate(1 / 9.5) * 1_000_000) + 1
        ts = utc(cur).strftime("%Y-%m-%dT%H:%M:%S") + f".{cur % 1_000_000:06d}+00:00"
        t = utc(cur // 1_000_000 * 1_000_000)
        if crash_at <= i < crash_at + 12:
            # web.2 crashed: H10s, state changes
            if i == crash_at:
                C.ev(f"{ts} heroku[web.2]: Process exited with status 137", t)
                continue
            if i == crash_at + 1:
                C.ev(f"{ts} heroku[web.2]: State changed from up to crashed", t)
                continue
        kind = pick(r, [("router", 82), ("app", 14), ("plat", 2)])
        if crash_at < i < crash_at + 10:
            kind = "h10" if r.random() < 0.5 else "router"
        if kind in ("router", "h10"):
            m, p, _ = pick(r, [((m, p, w), w) for m, p, w in paths])
            p = p.replace("{tn}", tracking(r)).replace("{depot}", r.choice(DEPOTS))
            client = pick(r, clients)
            rid = uuid4(r)
            dyno = r.choice(dynos if not (crash_at <= i < crash_at + 12) else ["web.1", "web.3"])
            connect = r.choice([0, 0, 1, 1, 1, 2])
            if kind == "h10":
                line = (f"{ts} heroku[router]: at=error code=H10 desc=\"App crashed\" method={m} path=\"{p}\" host={app_host} "
                        f"request_id={rid} fwd=\"{client}\" dyno= connect= service= status=503 bytes= protocol=https")
                C.ev(line, t, "ERROR", method=m, path=p.split("?")[0], client=client, status=503, host=app_host)
                continue
            err = r.random()
            if p.startswith("/reports") and err < 0.45:
                service, status, b = 30000, 503, 0
                line = (f"{ts} heroku[router]: at=error code=H12 desc=\"Request timeout\" method={m} path=\"{p}\" host={app_host} "
                        f"request_id={rid} fwd=\"{client}\" dyno={dyno} connect={connect}ms service={service}ms status={status} bytes={b} protocol=https")
                C.ev(line, t, "ERROR", method=m, path=p.split("?")[0], client=client, status=status, duration=service,
                     bytes=b, host=app_host)
                continue
            if err < 0.006:
                service = r.randint(100, 9000)
                line = (f"{ts} heroku[router]: at=error code=H13 desc=\"Connection closed without response\" method={m} path=\"{p}\" host={app_host} "
                        f"request_id={rid} fwd=\"{client}\" dyno={dyno} connect={connect}ms service={service}ms status=503 bytes=0 protocol=https")
                C.ev(line, t, "ERROR", method=m, path=p.split("?")[0], client=client, status=503, duration=service,
                     bytes=0, host=app_host)
                continue
            status = pick(r, [(200, 82), (201, 5), (204, 2), (304, 3), (404, 4), (422, 2), (500, 1), (401, 1)])
            if m == "POST" and status == 200:
                status = 201
            if m != "POST" and status == 201:
                status = 200
            if m == "DELETE" and status == 200:
                status = 204
            service = max(1, int(r.lognormvariate(3.4, 0.8)))
            if p.startswith("/reports"):
                service = r.randint(4000, 28000)
            b = 0 if status in (204, 304) else (r.randint(200, 1200) if status >= 400 else r.randint(400, 40000))
            line = (f"{ts} heroku[router]: at=info method={m} path=\"{p}\" host={app_host} request_id={rid} fwd=\"{client}\" "
                    f"dyno={dyno} connect={connect}ms service={service}ms status={status} bytes={b} protocol=https")
            C.ev(line, t, "INFO", method=m, path=p.split("?")[0], client=client, status=status, duration=service,
                 bytes=b, host=app_host)
        elif kind == "app":
            dyno = r.choice(["web.1", "web.2", "web.3", "worker.1", "worker.1"])
            msg = r.choice([
                f"[dockyard] parcel {tracking(r)} manifested carrier=posta-ch depot={r.choice(DEPOTS)}",
                f"[dockyard] label queued for {r.choice(PEOPLE)} → {r.choice(PLACES)}",
                f"[sweeper] released {r.randint(0, 40)} stale holds",
                f"[dockyard] webhook delivery to partner edi-{r.randint(1, 9)} took {r.randint(80, 2400)}ms",
            ])
            C.ev(f"{ts} app[{dyno}]: {msg}", t)
        else:
            dyno = r.choice(["web.1", "web.3", "worker.1"])
            msg = r.choice([f"Process running mem={r.randint(300, 505)}M({r.randint(60, 99)}.{r.randint(0, 9)}%)",
                            "Idling", "Cycling", "State changed from up to starting", "Starting process with command `bin/start-web`"])
            C.ev(f"{ts} heroku[{dyno}]: {msg}", t)
    C.count_where("status", "503")
    C.count_where("method", "PUT")
    C.stat("max", "duration", "ms")
    C.stat("sum", "bytes", "b")
    C.top("client")
    C.count_contains("code=H10")
    return C


# --------------------------------------------------------------------------------------
# f06 Grafana server log (logfmt, go-kit style: logger= ... t= level= msg=)
# --------------------------------------------------------------------------------------

def logfmt_val(v):
    v = str(v)
    if v == "":
        return ""
    if any(c in v for c in ' ="\\') or any(ord(c) < 32 for c in v):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return v


def f06(r):
    C = Case("f06-grafana-logfmt", "grafana.log", "Grafana 10 server log (logfmt: logger= t= level= msg=, router_logging enabled)")
    cur = us_of(2026, 4, 2, 7, 55, 13) + 48_000
    users = [("d.mensah", 28), ("k.virtanen", 12), ("admin", 9), ("p.ibarra", 8), ("svc-kiosk", 7), ("h.sato", 5)]
    uids = {"d.mensah": 3, "k.virtanen": 7, "admin": 1, "p.ibarra": 12, "svc-kiosk": 19, "h.sato": 22}
    clients = [("10.60.2.14", 27), ("10.60.2.31", 11), ("10.60.9.5", 10), ("192.168.40.12", 8), ("10.60.4.77", 6)]
    reqs = [("GET", "/api/dashboards/uid/parcel-flow", "/api/dashboards/uid/:uid", 14),
            ("POST", "/api/ds/query", "/api/ds/query", 40),
            ("GET", "/api/search", "/api/search", 8),
            ("GET", "/api/annotations", "/api/annotations", 6),
            ("GET", "/api/live/ws", "/api/live/ws", 3),
            ("GET", "/api/user/auth-tokens/rotate", "/api/user/auth-tokens/rotate", 2),
            ("POST", "/api/frontend-metrics", "/api/frontend-metrics", 6),
            ("GET", "/public/build/runtime.2f3e1a9c.js", "/public/", 3),
            ("GET", "/api/alertmanager/grafana/api/v2/alerts", "/api/alertmanager/grafana/api/v2/alerts", 5)]

    def kv(pairs):
        return " ".join(f"{k}={logfmt_val(v)}" for k, v in pairs)

    def ts(us):
        return utc(us).strftime("%Y-%m-%dT%H:%M:%S") + f".{us % 1_000_000:06d}{r.randint(0, 999):03d}Z"

    boot = [("settings", "info", "Starting Grafana", [("version", "10.4.2"), ("commit", "701c851be7"), ("branch", "HEAD"), ("compiled", "2026-03-21T14:22:05Z")]),
            ("settings", "info", "Config loaded from", [("file", "/usr/share/grafana/conf/defaults.ini")]),
            ("sqlstore", "info", "Connecting to DB", [("dbtype", "postgres")]),
            ("migrator", "info", "migrations completed", [("performed", 0), ("skipped", 561), ("duration", "412.553µs")]),
            ("http.server", "info", "HTTP Server Listen", [("address", "[::]:3000"), ("protocol", "http"), ("subUrl", ""), ("socket", "")])]
    for lg, lvl, msg, extra in boot:
        cur += r.randint(1000, 300_000)
        pairs = [("logger", lg), ("t", ts(cur)), ("level", lvl), ("msg", msg)] + extra
        f = {"logger": lg}
        for k, v in extra:
            if k == "duration":
                f["duration"] = 0.412553
        C.ev(kv(pairs), utc(cur // 1_000_000 * 1_000_000), lvl.upper(), **f)
    n = 1180
    for i in range(n):
        cur += int(r.expovariate(1 / 11.0) * 1_000_000) + 1
        tsec = utc(cur // 1_000_000 * 1_000_000)
        kind = pick(r, [("req", 78), ("cleanup", 2), ("alert", 7), ("tsdb", 3), ("usage", 1), ("plugins", 2),
                        ("debug", 5), ("live", 2)])
        if kind == "req":
            m, p, handler, _ = pick(r, [(x, x[3]) for x in reqs])
            user = pick(r, users)
            anon = p.startswith("/public") or r.random() < 0.04
            client = pick(r, clients)
            status = pick(r, [(200, 88), (304, 3), (400, 2), (401, 1), (404, 2), (500, 2), (502, 1), (504, 1)])
            if p == "/api/live/ws":
                status = -1
            if p.startswith("/public"):
                status = pick(r, [(200, 1), (304, 2)])
            if status in (502, 504, 500):
                p, handler, m = "/api/ds/query", "/api/ds/query", "POST"
            dur_ns = int(r.lognormvariate(16.3, 1.1))
            if p.startswith("/public"):
                dur_ns = r.randint(90_000, 900_000)
            if status == 504:
                dur_ns = 30_000_000_000 + r.randint(0, 9_999_999)
            if status == 502:
                dur_ns = r.randint(1_000_000_000, 5_000_000_000)
            size = 0 if status in (304, -1) else (r.randint(30, 160) if status >= 400 else r.randint(200, 90_000))
            lvl = "error" if status >= 500 else "info"
            pairs = [("logger", "context"), ("userId", 0 if anon else uids[user]), ("orgId", 0 if anon else 1),
                     ("uname", "" if anon else user), ("t", ts(cur)), ("level", lvl), ("msg", "Request Completed"),
                     ("method", m), ("path", p), ("status", status), ("remote_addr", client),
                     ("time_ms", dur_ns // 1_000_000), ("duration", go_dur(dur_ns)), ("size", size),
                     ("referer", "" if r.random() < 0.3 else "https://grafana.ferrowick.io/d/parcel-flow/parcel-flow?orgId=1&refresh=30s"),
                     ("handler", handler)]
            if status >= 400 or status == -1:
                pairs.append(("status_source", "downstream" if status in (502, 504) else "server"))
            if status >= 500:
                pairs.insert(len(pairs) - 1, ("error", {500: "plugin unavailable", 502: "[plugin.downstreamError] client: failed to query data: Post \"http://mimir-query-frontend.monitoring:8080/prometheus/api/v1/query_range\": EOF",
                                                       504: "context deadline exceeded"}[status]))
            f = dict(logger="context", method=m, path=p, status=status, client=client, duration=dur_ns / 1e6, bytes=size)
            if not anon:
                f["user"] = user
            C.ev(kv(pairs), tsec, lvl.upper(), **f)
        elif kind == "cleanup":
            d = r.randint(5_000_000, 90_000_000)
            C.ev(kv([("logger", "cleanup"), ("t", ts(cur)), ("level", "info"), ("msg", "Completed cleanup jobs"), ("duration", go_dur(d))]),
                 tsec, "INFO", logger="cleanup", duration=d / 1e6)
        elif kind == "alert":
            rule = alnum(r, 14, string.ascii_lowercase + string.digits)
            lvl = pick(r, [("info", 5), ("error", 2), ("warn", 1)])
            f = {}
            if lvl == "info":
                pairs = [("logger", "ngalert.state.manager"), ("rule_uid", rule), ("org_id", 1), ("t", ts(cur)), ("level", "info"),
                         ("msg", "State manager processing evaluation results"), ("resultCount", r.randint(1, 8))]
            elif lvl == "warn":
                pairs = [("logger", "ngalert.scheduler"), ("rule_uid", rule), ("org_id", 1), ("version", r.randint(2, 30)), ("t", ts(cur)),
                         ("level", "warn"), ("msg", "Tick dropped because alert rule evaluation is too slow"), ("time", utc(cur).strftime("%Y-%m-%dT%H:%M:%SZ"))]
            else:
                d = r.randint(1_000_000, 40_000_000)
                pairs = [("logger", "ngalert.scheduler"), ("rule_uid", rule), ("org_id", 1), ("version", r.randint(2, 30)),
                         ("attempt", r.randint(1, 3)), ("now", utc(cur).strftime("%Y-%m-%dT%H:%M:%SZ")), ("t", ts(cur)), ("level", "error"),
                         ("msg", "Failed to evaluate rule"), ("error", "failed to execute query A: Post \"http://mimir-query-frontend.monitoring:8080/prometheus/api/v1/query\": dial tcp 10.60.5.12:8080: connect: connection refused"),
                         ("duration", go_dur(d))]
                f["duration"] = d / 1e6
            f["logger"] = pairs[0][1]
            C.ev(kv(pairs), tsec, "WARN" if lvl == "warn" else lvl.upper(), **f)
        elif kind == "tsdb":
            C.ev(kv([("logger", "tsdb.prometheus"), ("endpoint", "queryData"), ("pluginId", "prometheus"), ("dsName", "Mimir"),
                     ("dsUID", "P1809F7CD0C75ACF3"), ("uname", "grafana_scheduler"), ("fromAlert", "true"), ("t", ts(cur)),
                     ("level", "error"), ("msg", "Exec query error"), ("query", "sum(rate(parcel_scans_total{depot=~\"ZRH.*\"}[5m]))"),
                     ("error", "bad_data: 1:30: parse error: unexpected character inside braces: '≈'")]),
                 tsec, "ERROR", logger="tsdb.prometheus", user="grafana_scheduler")
        elif kind == "usage":
            C.ev(kv([("logger", "infra.usagestats"), ("t", ts(cur)), ("level", "info"), ("msg", "Usage stats are ready to report")]),
                 tsec, "INFO", logger="infra.usagestats")
        elif kind == "plugins":
            d = r.randint(80_000_000, 900_000_000)
            C.ev(kv([("logger", "plugins.update.checker"), ("t", ts(cur)), ("level", "info"), ("msg", "Update check succeeded"),
                     ("duration", go_dur(d))]), tsec, "INFO", logger="plugins.update.checker", duration=d / 1e6)
        elif kind == "debug":
            d = r.randint(400, 90_000)
            C.ev(kv([("logger", "live.features"), ("t", ts(cur)), ("level", "debug"), ("msg", "Stream handler for channel"),
                     ("channel", f"grafana/dashboard/uid/{r.choice(['parcel-flow', 'depot-ops', 'sla-burn'])}"),
                     ("duration", go_dur(d))]), tsec, "DEBUG", logger="live.features", duration=d / 1e6)
        else:
            C.ev(kv([("logger", "live"), ("t", ts(cur)), ("level", "warn"), ("msg", "Client slow, dropping messages"),
                     ("user", r.choice(list(uids))), ("client", uuid4(r))]), tsec, "WARN", logger="live")
    C.count_where("status", "500")
    C.stat("max", "duration", "ms")
    C.stat("min", "duration", "us")
    C.stat("sum", "bytes", "b")
    C.top("client")
    C.top("user")
    C.count_where("logger", "ngalert.scheduler")
    return C


# --------------------------------------------------------------------------------------
# f07 Sidekiq 6 default (pretty) log formatter
# --------------------------------------------------------------------------------------

def f07(r):
    C = Case("f07-sidekiq6", "sidekiq.log", "Sidekiq 6.5 default Pretty log formatter (pid= tid= class= jid= elapsed= LEVEL: msg), with exception backtraces")
    cur = us_of(2026, 7, 19, 2, 59, 57) + 381_000
    pid = 7
    tids = [alnum(r, r.choice([4, 4, 5]), string.ascii_lowercase + string.digits) for _ in range(10)]
    jobs = [("ManifestSyncJob", 30), ("LabelPrintJob", 18), ("CarrierQuoteRefreshJob", 12), ("DepotDigestMailer", 5),
            ("ScanEventIngestJob", 35)]

    def ts(us):
        return utc(us).strftime("%Y-%m-%dT%H:%M:%S") + f".{(us % 1_000_000) // 1000:03d}Z"

    def jid():
        return hexs(r, 24)

    label_bt = ["/usr/local/bundle/gems/net-protocol-0.2.2/lib/net/protocol.rb:229:in `rbuf_fill'",
                "/usr/local/bundle/gems/net-protocol-0.2.2/lib/net/protocol.rb:199:in `readuntil'",
                "/usr/local/bundle/gems/net-protocol-0.2.2/lib/net/protocol.rb:209:in `readline'",
                "/usr/local/lib/ruby/3.2.0/net/http/response.rb:42:in `read_status_line'",
                "/usr/local/lib/ruby/3.2.0/net/http.rb:1865:in `block in transport_request'",
                "/usr/local/bundle/gems/faraday-net_http-3.0.2/lib/faraday/adapter/net_http.rb:67:in `perform_request'",
                "/app/app/services/printer_gateway.rb:41:in `submit'",
                "/app/app/jobs/label_print_job.rb:18:in `perform'",
                "/usr/local/bundle/gems/sidekiq-6.5.12/lib/sidekiq/processor.rb:202:in `execute_job'",
                "/usr/local/bundle/gems/sidekiq-6.5.12/lib/sidekiq/processor.rb:170:in `block (2 levels) in process'"]
    manifest_bt = ["/usr/local/bundle/gems/activerecord-7.1.3/lib/active_record/connection_adapters/postgresql_adapter.rb:894:in `exec_params'",
                   "/usr/local/bundle/gems/activerecord-7.1.3/lib/active_record/connection_adapters/postgresql/database_statements.rb:55:in `internal_exec_query'",
                   "/usr/local/bundle/gems/activerecord-7.1.3/lib/active_record/persistence.rb:1228:in `_update_row'",
                   "/app/app/models/manifest.rb:77:in `close!'",
                   "/app/app/jobs/manifest_sync_job.rb:29:in `perform'",
                   "/usr/local/bundle/gems/sidekiq-6.5.12/lib/sidekiq/processor.rb:202:in `execute_job'"]
    redis_bt = ["/usr/local/bundle/gems/redis-client-0.19.1/lib/redis_client/ruby_connection.rb:115:in `connect'",
                "/usr/local/bundle/gems/redis-client-0.19.1/lib/redis_client.rb:684:in `ensure_connected'",
                "/usr/local/bundle/gems/sidekiq-6.5.12/lib/sidekiq/fetch.rb:49:in `retrieve_work'",
                "/usr/local/bundle/gems/sidekiq-6.5.12/lib/sidekiq/processor.rb:87:in `get_one'"]

    def backtrace(tid, frames, tcur):
        text = f"{ts(tcur)} pid={pid} tid={tid} WARN: " + "\n".join(frames)
        C.ev(text, utc(tcur // 1_000_000 * 1_000_000), "WARN", pid=pid, thread=tid)

    boot = ["Booting Sidekiq 6.5.12 with Sidekiq::RedisConnection::RedisAdapter options {:url=>\"redis://redis.internal:6379/0\"}",
            "Running in ruby 3.2.2 (2023-03-30 revision e51014f9c0) [x86_64-linux]",
            "See LICENSE and the LGPL-3.0 for licensing details.",
            "Upgrade to Sidekiq Pro for more features and support: https://sidekiq.org",
            "Starting processing, hit Ctrl-C to stop"]
    main_tid = "2ndr"
    for msg in boot:
        cur += r.randint(1000, 90_000)
        C.ev(f"{ts(cur)} pid={pid} tid={main_tid} INFO: {msg}", utc(cur // 1_000_000 * 1_000_000), "INFO", pid=pid, thread=main_tid)
    n_target = 1500
    pending = []  # (end_us, tid, cls, jid, elapsed, ok, kind)
    while len(C.events) < n_target:
        cur += int(r.expovariate(1 / 4.2) * 1_000_000) + 1
        # flush finished jobs
        pending.sort()
        while pending and pending[0][0] <= cur and len(C.events) < n_target:
            end, tid, cls, j, el, outcome = pending.pop(0)
            tsec = utc(end // 1_000_000 * 1_000_000)
            if outcome == "ok":
                C.ev(f"{ts(end)} pid={pid} tid={tid} class={cls} jid={j} elapsed={el} INFO: done", tsec, "INFO",
                     pid=pid, thread=tid, duration=el * 1000)
            else:
                C.ev(f"{ts(end)} pid={pid} tid={tid} class={cls} jid={j} elapsed={el} INFO: fail", tsec, "INFO",
                     pid=pid, thread=tid, duration=el * 1000)
                now = end + r.randint(100, 900)
                tsec = utc(now // 1_000_000 * 1_000_000)
                if outcome == "timeout":
                    ecls, emsg, frames = "Net::ReadTimeout", "Net::ReadTimeout with #<TCPSocket:(closed)>", label_bt
                else:
                    ecls = "ActiveRecord::StaleObjectError"
                    emsg = "Attempted to update a stale object: Manifest."
                    frames = manifest_bt
                ctx = {"context": "Job raised exception",
                       "job": {"retry": True, "queue": "default", "class": cls, "args": [r.randint(10000, 99999)], "jid": j,
                               "created_at": round((now / 1e6) - r.uniform(5, 300), 6), "enqueued_at": round(now / 1e6 - el - 0.01, 6),
                               "error_message": emsg, "error_class": ecls, "failed_at": round(now / 1e6 - 0.002, 6),
                               "retry_count": r.randint(0, 4)}}
                C.ev(f"{ts(now)} pid={pid} tid={tid} WARN: " + json.dumps(ctx, separators=(",", ":")), tsec, "WARN", pid=pid, thread=tid)
                C.ev(f"{ts(now)} pid={pid} tid={tid} WARN: {ecls}: {emsg}", tsec, "WARN", pid=pid, thread=tid)
                backtrace(tid, frames, now)
        if len(C.events) >= n_target:
            break
        if r.random() < 0.004:
            tid = r.choice(tids)
            C.ev(f"{ts(cur)} pid={pid} tid={tid} ERROR: Error fetching job: Error connecting to Redis on redis.internal:6379 (Errno::ECONNREFUSED)",
                 utc(cur // 1_000_000 * 1_000_000), "ERROR", pid=pid, thread=tid)
            C.ev(f"{ts(cur)} pid={pid} tid={tid} WARN: RedisClient::CannotConnectError: Error connecting to Redis on redis.internal:6379 (Errno::ECONNREFUSED)",
                 utc(cur // 1_000_000 * 1_000_000), "WARN", pid=pid, thread=tid)
            backtrace(tid, redis_bt, cur)
            continue
        busy = {p[1] for p in pending}
        free = [t for t in tids if t not in busy]
        if not free:
            continue
        tid = r.choice(free)
        cls = pick(r, jobs)
        j = jid()
        el = round(r.lognormvariate(-1.2, 1.0), 3)
        if cls == "DepotDigestMailer":
            el = round(r.uniform(1.5, 9.0), 3)
        if cls == "CarrierQuoteRefreshJob":
            el = round(r.uniform(0.8, 14.0), 3)
        outcome = "ok"
        if cls == "LabelPrintJob" and r.random() < 0.12:
            outcome, el = "timeout", round(60 + r.uniform(0.001, 0.4), 3)
        if cls == "ManifestSyncJob" and r.random() < 0.05:
            outcome = "stale"
        el = max(el, 0.001)
        C.ev(f"{ts(cur)} pid={pid} tid={tid} class={cls} jid={j} INFO: start", utc(cur // 1_000_000 * 1_000_000), "INFO",
             pid=pid, thread=tid)
        pending.append((cur + int(el * 1_000_000), tid, cls, j, el, outcome))
    C.stat("max", "duration", "s")
    C.distinct("thread")
    C.count_contains("label_print_job.rb")
    C.count_contains("manifest.rb:77")
    C.count_contains("Net::ReadTimeout")
    C.count_contains("INFO: fail")
    return C


# --------------------------------------------------------------------------------------
# f08 Telegraf agent log (I! W! E! D!)
# --------------------------------------------------------------------------------------

def f08(r):
    C = Case("f08-telegraf", "telegraf.log", "InfluxData Telegraf 1.28 agent log (one-letter levels I!/W!/E!/D!, [plugin] tag), debug enabled")
    cur = us_of(2026, 5, 5, 10, 0, 0)
    host = "edge-07.zrh2.ferrowick.io"

    def ev(level, msg, logger=None):
        letter = {"INFO": "I", "WARN": "W", "ERROR": "E", "DEBUG": "D"}[level]
        tsec = utc(cur // 1_000_000 * 1_000_000)
        t = tsec.strftime("%Y-%m-%dT%H:%M:%SZ")
        text = f"{t} {letter}! " + (f"[{logger}] " if logger else "") + msg
        f = {"logger": logger} if logger else {}
        if text.endswith("\n"):
            # exec plugin stderr ending in a newline: Telegraf writes it verbatim, leaving an empty line
            C.ev(text[:-1], tsec, level, **f)
            C.raw("")
        else:
            C.ev(text, tsec, level, **f)

    def boot():
        nonlocal cur
        ev("INFO", "Loading config: /etc/telegraf/telegraf.conf")
        ev("INFO", "Loading config: /etc/telegraf/telegraf.d/depot.conf")
        ev("INFO", "Starting Telegraf 1.28.3 brought to you by InfluxData the makers of InfluxDB")
        ev("INFO", "Available plugins: 240 inputs, 9 aggregators, 29 processors, 24 parsers, 59 outputs, 5 secret-stores")
        ev("INFO", "Loaded inputs: cpu disk exec mem net procstat prometheus snmp")
        ev("INFO", "Loaded aggregators: ")
        ev("INFO", "Loaded processors: ")
        ev("INFO", "Loaded secretstores: ")
        ev("INFO", "Loaded outputs: influxdb_v2")
        ev("INFO", f"Tags enabled: depot=ZRH-2 host={host}")
        ev("INFO", f"[agent] Config: Interval:10s, Quiet:false, Hostname:\"{host}\", Flush Interval:10s")
        ev("DEBUG", "Initializing plugins", "agent")
        ev("DEBUG", "Connecting outputs", "agent")
        ev("DEBUG", "Attempting connection to [outputs.influxdb_v2]", "agent")
        ev("DEBUG", "Successfully connected to outputs.influxdb_v2", "agent")
        ev("DEBUG", "Starting service inputs", "agent")

    boot()
    outage = False
    tick = 0
    while len(C.events) < 2300:
        cur += 10_000_000
        tick += 1
        if tick == 620:
            ev("INFO", "Hang on, flushing any cached metrics before shutdown", "agent")
            ev("INFO", "Stopping running outputs", "agent")
            ev("DEBUG", "Stopped Successfully", "agent")
            cur += 3_000_000
            boot()
            continue
        if tick % 140 == 30:
            outage = True
        if tick % 140 == 42:
            outage = False
        if r.random() < 0.05:
            ev("WARN", "Collection took longer than expected; not complete after interval of 10s", "inputs.prometheus")
        if r.random() < 0.035:
            ev("ERROR", f"Error in plugin: agent 10.70.0.{r.choice([3, 4, 9])}:161: performing get on field sysUptime: request timeout (after 3 retries)", "inputs.snmp")
        if r.random() < 0.02:
            script = "/usr/local/bin/depot_probe.sh"
            ev("ERROR", f"Error in plugin: exec: exit status 2 for command \"{script}\": {script}: line 14: jq: command not found\n"
                        f"curl: (28) Connection timed out after 5001 milliseconds\n"
                        f"probe: scale ZRH-2-W03 unreachable (Waage außer Betrieb)\n", "inputs.exec")
        if r.random() < 0.015:
            ev("DEBUG", f"[SystemPS] => unable to get disk usage (\"/run/user/{r.choice([1000, 1001])}/doc\"): permission denied", "inputs.disk")
        if outage:
            ev("ERROR", "When writing to [https://influx.ferrowick.io]: failed to send metrics: Post \"https://influx.ferrowick.io/api/v2/write?bucket=edge&org=ferrowick\": dial tcp 10.70.0.21:443: connect: connection refused", "outputs.influxdb_v2")
            ev("ERROR", "Error writing to outputs.influxdb_v2: failed to send metrics to any configured server(s)", "agent")
            if r.random() < 0.5:
                ev("WARN", f"Metric buffer overflow; {r.randint(200, 2400)} metrics have been dropped", "outputs.influxdb_v2")
            ev("DEBUG", f"Buffer fullness: 10000 / 10000 metrics", "outputs.influxdb_v2")
        else:
            ev("DEBUG", f"Wrote batch of {r.randint(180, 1000)} metrics in {r.randint(8, 140)}.{r.randint(0, 999999):06d}ms", "outputs.influxdb_v2")
            ev("DEBUG", f"Buffer fullness: {r.choice([0, 0, 0, r.randint(1, 300)])} / 10000 metrics", "outputs.influxdb_v2")
    C.count_where("logger", "outputs.influxdb_v2")
    C.count_where("logger", "inputs.snmp")
    C.top("logger")
    C.count_contains("curl: (28) Connection timed out")
    C.count_contains("Waage außer Betrieb")
    C.count_contains("Metric buffer overflow")
    return C


# --------------------------------------------------------------------------------------
# f09 ClickHouse server log (clickhouse-server.log)
# --------------------------------------------------------------------------------------

CH_LEVEL = {"Trace": "TRACE", "Debug": "DEBUG", "Information": "INFO", "Warning": "WARN", "Error": "ERROR", "Fatal": "FATAL"}


def f09(r):
    C = Case("f09-clickhouse-server", "clickhouse-server.log", "ClickHouse 23.8 server log (clickhouse-server.log: <Level> in angle brackets, [ thread ] {query_id}, stack traces)")
    cur = us_of(2026, 8, 11, 13, 40, 7) + 19_000
    table_uuid = uuid4(r)
    tables = ["parcels.events", "parcels.scans", "billing.ledger"]
    tuuids = {t: uuid4(r) for t in tables}
    threads = [r.randint(480, 2200) for _ in range(24)]
    bg_threads = [r.randint(300, 470) for _ in range(6)]
    clients = ["10.20.0.15", "10.20.0.16", "10.20.0.31", "10.20.7.2"]
    users = ["ingest", "grafana", "dispatch_ro", "default"]

    def ev(tid, qid, lvl, logger, msg):
        nonlocal cur
        cur += r.randint(15, 700)
        tt = utc(cur)
        t = tt.strftime("%Y.%m.%d %H:%M:%S") + f".{tt.microsecond:06d}"
        text = f"{t} [ {tid} ] {{{qid}}} <{lvl}> {logger}: {msg}"
        C.ev(text, utc(cur // 1_000_000 * 1_000_000), CH_LEVEL[lvl], thread=str(tid), logger=logger)

    def stack(frames):
        out = "\n\n" + "\n".join(f"{i}. {fr} @ 0x{r.randint(0x7000000, 0x12ffffff):016x} in /usr/bin/clickhouse" for i, fr in enumerate(frames))
        out += f"\n{len(frames)}. ? @ 0x00007f{hexs(r, 10)} in ?"
        return out

    select_frames = ["DB::Exception::Exception(DB::Exception::MessageMasked&&, int, bool)",
                     "DB::Exception::Exception<String, String>(int, FormatStringHelperImpl<std::type_identity<String>::type, std::type_identity<String>::type>, String&&, String&&)",
                     "DB::IDatabase::getTable(String const&, std::shared_ptr<DB::Context const>) const",
                     "DB::DatabaseCatalog::getTableImpl(DB::StorageID const&, std::shared_ptr<DB::Context const>, std::optional<DB::Exception>*) const",
                     "DB::InterpreterSelectQuery::InterpreterSelectQuery(std::shared_ptr<DB::IAST> const&, std::shared_ptr<DB::Context> const&, DB::SelectQueryOptions const&, std::vector<String, std::allocator<String>> const&)",
                     "DB::InterpreterSelectWithUnionQuery::buildCurrentChildInterpreter(std::shared_ptr<DB::IAST> const&, std::vector<String, std::allocator<String>> const&)",
                     "DB::executeQueryImpl(char const*, char const*, std::shared_ptr<DB::Context>, bool, DB::QueryProcessingStage::Enum, DB::ReadBuffer*)",
                     "DB::TCPHandler::runImpl()",
                     "DB::TCPHandler::run()",
                     "Poco::Net::TCPServerConnection::start()",
                     "Poco::Net::TCPServerDispatcher::run()",
                     "Poco::PooledThread::run()"]
    net_frames = ["DB::Exception::Exception(DB::Exception::MessageMasked&&, int, bool)",
                  "DB::NetException::NetException<String, String>(int, FormatStringHelperImpl<std::type_identity<String>::type, std::type_identity<String>::type>, String&&, String&&)",
                  "DB::ReadBufferFromPocoSocket::nextImpl()",
                  "DB::TCPHandler::runImpl()",
                  "DB::TCPHandler::run()",
                  "Poco::Net::TCPServerConnection::start()",
                  "Poco::PooledThread::run()"]
    boot = [("Information", "Application", "Starting ClickHouse 23.8.2.7 (revision: 54477, git hash: f73c8f378745d8520eec1f2be4d1a0e6e3adb5e1, build id: 4A2C5F1E0D1B2E8C), PID 1"),
            ("Information", "Application", "starting up"),
            ("Information", "Application", "OS name: Linux, version: 5.15.0-1057-aws, architecture: x86_64"),
            ("Information", "StatusFile", "Status file /var/lib/clickhouse/status already exists - unclean restart. Contents:\nPID: 1\nStarted at: 2026-08-11 09:02:15\nRevision: 54477"),
            ("Information", "Application", "Available RAM: 62.79 GiB; physical cores: 8; logical cores: 16."),
            ("Debug", "Application", "Initializing DateLUT."),
            ("Trace", "Application", "Initialized DateLUT with time zone 'UTC'."),
            ("Information", "Application", "Listening for http://[::]:8123"),
            ("Information", "Application", "Listening for native protocol (tcp): [::]:9000"),
            ("Information", "Application", "Ready for connections.")]
    for lvl, lg, msg in boot:
        cur += r.randint(2000, 400_000)
        ev(1, "", lvl, lg, msg)
    while len(C.events) < 1850:
        cur += int(r.expovariate(1 / 9.0) * 1_000_000) + 1
        kind = pick(r, [("insert", 40), ("select", 26), ("merge", 12), ("flush", 5), ("authfail", 1), ("badtable", 2),
                        ("netreset", 1), ("slowdisk", 1)])
        tid = r.choice(threads)
        qid = uuid4(r)
        client, user = r.choice(clients), r.choice(users)
        port = r.randint(30000, 60999)
        if kind in ("insert", "select"):
            sess = uuid4(r)
            ev(tid, "", "Debug", "TCP-Session", f"{sess} Authenticating user '{user}' from {client}:{port}")
            ev(tid, "", "Debug", "TCP-Session", f"{sess} Authenticated with global context as user 1f8f{hexs(r, 4)}-{hexs(r, 4)}-{hexs(r, 4)}-{hexs(r, 4)}-{hexs(r, 12)}")
            if kind == "insert":
                tbl = r.choice(["parcels.events", "parcels.scans"])
                ev(tid, qid, "Debug", "executeQuery", f"(from {client}:{port}, user: {user}) INSERT INTO {tbl} FORMAT RowBinary (stage: Complete)")
                rows = r.randint(100, 90000)
                cur += r.randint(500, 40000)
                part = f"202608_{r.randint(1000, 9000)}_{r.randint(1000, 9000)}_0"
                ev(tid, qid, "Trace", f"{tbl} ({tuuids[tbl]})", f"Trying to reserve {r.randint(1, 30)}.{r.randint(10, 99)} MiB using storage policy from min volume index 0")
                ev(tid, qid, "Trace", "DiskLocal", f"Reserved {r.randint(1, 30)}.{r.randint(10, 99)} MiB on local disk `default`, having unreserved {r.randint(400, 812)}.{r.randint(10, 99)} GiB.")
                ev(tid, qid, "Trace", "MergedBlockOutputStream", f"filled checksums {part} (state Temporary)")
                ev(tid, qid, "Trace", f"{tbl} ({tuuids[tbl]})", f"Renaming temporary part tmp_insert_{part} to {part} with tid (1, 1, 00000000-0000-0000-0000-000000000000).")
                ev(tid, qid, "Debug", "TCPHandler", f"Processed in {r.uniform(0.002, 0.9):.6f} sec.")
            else:
                q = r.choice([f"SELECT count() FROM parcels.events WHERE depot = '{r.choice(DEPOTS)}' AND ts > now() - INTERVAL 1 HOUR",
                              f"SELECT toStartOfMinute(ts) AS t, count() FROM parcels.scans WHERE city = '{r.choice(PLACES)}' GROUP BY t ORDER BY t",
                              "SELECT sum(amount_chf) FROM billing.ledger WHERE day = today()"])
                ev(tid, qid, "Debug", "executeQuery", f"(from {client}:{port}, user: {user}) {q} (stage: Complete)")
                ev(tid, qid, "Trace", "ContextAccess (grafana)", "Access granted: SELECT(ts, depot) ON parcels.events")
                ev(tid, qid, "Debug", "parcels.events (" + tuuids["parcels.events"] + ") (SelectExecutor)",
                   f"Key condition: (column 1 in [{r.randint(1780000000, 1790000000)}, +Inf))")
                ev(tid, qid, "Debug", "parcels.events (" + tuuids["parcels.events"] + ") (SelectExecutor)",
                   f"Selected {r.randint(1, 12)}/{r.randint(12, 40)} parts by partition key, {r.randint(1, 12)} parts by primary key, {r.randint(1, 900)}/{r.randint(900, 5000)} marks by primary key, {r.randint(1, 900)} marks to read from {r.randint(1, 12)} ranges")
                cur += r.randint(800, 900000)
                rows = r.randint(1000, 9_000_000)
                secs = r.uniform(0.001, 2.5)
                ev(tid, qid, "Information", "executeQuery", f"Read {rows} rows, {rows * 24 / 1048576:.2f} MiB in {secs:.6f} sec., {int(rows / secs)} rows/sec., {rows * 24 / 1048576 / secs:.2f} MiB/sec.")
                ev(tid, qid, "Debug", "MemoryTracker", f"Peak memory usage (for query): {r.uniform(0.5, 900):.2f} MiB.")
                ev(tid, qid, "Debug", "TCPHandler", f"Processed in {secs + 0.0003:.6f} sec.")
        elif kind == "merge":
            btid = r.choice(bg_threads)
            tbl = r.choice(tables)
            lg = f"{tbl} ({tuuids[tbl]}) (MergerMutator)"
            a, b = r.randint(1, 9000), r.randint(9000, 9999)
            ev(btid, "", "Debug", lg, f"Selected {r.randint(2, 9)} parts from 202608_{a}_{a + 40}_3 to 202608_{b}_{b}_0")
            ev(btid, "", "Debug", "MergeTask::PrepareStage", f"Merging {r.randint(2, 9)} parts: from 202608_{a}_{a + 40}_3 to 202608_{b}_{b}_0 into Compact with storage Full")
            ev(btid, "", "Debug", "MergeTask::MergeProjectionsStage", f"Merge sorted {r.randint(1000, 500000)} rows, containing 14 columns (14 merged, 0 gathered) in {r.uniform(0.01, 4):.6f} sec., {r.randint(100000, 900000)} rows/sec., {r.uniform(5, 90):.2f} MiB/sec.")
            if r.random() < 0.08:
                ev(btid, "", "Warning", f"{tbl} ({tuuids[tbl]})", f"Removing {r.randint(2, 9)} parts took longer than expected: {r.uniform(5, 12):.3f} sec.")
        elif kind == "flush":
            log = r.choice(["query_log", "part_log", "trace_log", "metric_log", "asynchronous_metric_log"])
            ev(r.randint(300, 320), "", "Trace", f"SystemLog (system.{log})", f"Flushing system log, {r.randint(1, 4000)} entries to flush up to offset {r.randint(10000, 900000)}")
            ev(r.randint(300, 320), "", "Trace", f"SystemLog (system.{log})", "Flushed system log up to offset " + str(r.randint(10000, 900000)))
        elif kind == "authfail":
            ev(tid, "", "Error", "TCPHandler", f"Code: 516. DB::Exception: grafana: Authentication failed: password is incorrect, or there is no user with such name.. (AUTHENTICATION_FAILED), Stack trace (when copying this message, always include the lines below):{stack(select_frames[:2] + ['DB::AccessControl::authenticate(DB::Credentials const&, Poco::Net::IPAddress const&) const', 'DB::Session::authenticate(DB::Credentials const&, Poco::Net::SocketAddress const&)'] + select_frames[7:])}")
        elif kind == "badtable":
            tbl = r.choice(["parcels.evnts", "parcels.scan", "billing.ledgr"])
            ev(tid, qid, "Debug", "executeQuery", f"(from {client}:{port}, user: {user}) SELECT count() FROM {tbl} (stage: Complete)")
            ev(tid, qid, "Error", "executeQuery", f"Code: 60. DB::Exception: Table {tbl} does not exist. (UNKNOWN_TABLE) (version 23.8.2.7 (official build)) (from {client}:{port}) (in query: SELECT count() FROM {tbl}), Stack trace (when copying this message, always include the lines below):{stack(select_frames)}")
            ev(tid, qid, "Error", "TCPHandler", f"Code: 60. DB::Exception: Table {tbl} does not exist. (UNKNOWN_TABLE), Stack trace (when copying this message, always include the lines below):{stack(select_frames)}")
        elif kind == "netreset":
            ev(tid, "", "Error", "ServerErrorHandler", f"Code: 210. DB::NetException: Connection reset by peer, while reading from socket ({client}:{port}). (NETWORK_ERROR), Stack trace (when copying this message, always include the lines below):{stack(net_frames)}")
        else:
            ev(r.choice(bg_threads), "", "Warning", "DiskLocal", "Cannot gain read access to the disk checker file /var/lib/clickhouse/disks/default/.disk_checker_file: Slow disk suspected, 1.8s > 1s")
    C.top("logger")
    C.count_where("logger", "TCPHandler")
    C.count_where("logger", "MemoryTracker")
    C.count_contains("DB::InterpreterSelectQuery::InterpreterSelectQuery")
    C.count_contains("(UNKNOWN_TABLE)")
    C.count_contains("Poco::PooledThread::run()")
    C.distinct("thread")
    return C


# --------------------------------------------------------------------------------------
# f10 Tornado web app with tornado.log default LogFormatter
# --------------------------------------------------------------------------------------

def f10(r):
    C = Case("f10-tornado", "label-printer.log", "Tornado 6 default LogFormatter ([L yymmdd HH:MM:SS module:lineno], access lines 'status METHOD uri (ip) 12.34ms', 4-space indented tracebacks)")
    cur = us_of(2026, 1, 27, 7, 30, 2) + 5000
    clients = [("10.0.3.9", 30), ("10.0.3.14", 12), ("10.0.4.2", 11), ("10.0.3.77", 9), ("10.0.5.20", 8), ("127.0.0.1", 4)]
    eps = [("GET", "/v1/printers", 10), ("GET", "/v1/printers/{p}/status", 25), ("POST", "/v1/labels", 30),
           ("GET", "/v1/labels/{tn}.zpl", 15), ("GET", "/healthz", 12), ("DELETE", "/v1/labels/{tn}", 3), ("GET", "/favicon.ico", 2)]
    printers = [f"{d}-L{n:02d}" for d in ("ZRH-2", "BSL-1", "WAW-1") for n in (1, 2, 4)]

    def pre(letter, mod, line):
        return f"[{letter} {utc(cur).strftime('%y%m%d %H:%M:%S')} {mod}:{line}] "

    def tsec():
        return utc(cur // 1_000_000 * 1_000_000)

    for msg in ["label-printer 3.4.1 starting (tornado 6.4, python 3.11.7)", "loaded 9 printer profiles from /etc/labelprinter/printers.yaml",
                "Listening on 0.0.0.0:8888"]:
        cur += r.randint(1000, 200000)
        C.ev(pre("I", "server", r.choice([41, 58, 61])) + msg, tsec(), "INFO", logger="server")
    tb_key = ["    Traceback (most recent call last):",
              '      File "/usr/local/lib/python3.11/site-packages/tornado/web.py", line 1790, in _execute',
              "        result = await result",
              "                 ^^^^^^^^^^^^",
              '      File "/srv/labelprinter/handlers/labels.py", line 88, in post',
              "        zpl = render_label(body)",
              "              ^^^^^^^^^^^^^^^^^^",
              '      File "/srv/labelprinter/label_render.py", line 141, in render_label',
              '        weight = float(payload["weight_kg"])',
              '                       ~~~~~~~^^^^^^^^^^^^^',
              "    KeyError: 'weight_kg'"]
    tb_uni = ["    Traceback (most recent call last):",
              '      File "/usr/local/lib/python3.11/site-packages/tornado/web.py", line 1790, in _execute',
              "        result = await result",
              "                 ^^^^^^^^^^^^",
              '      File "/srv/labelprinter/handlers/labels.py", line 91, in post',
              "        await printer.send(zpl.encode(\"cp850\"))",
              "                           ^^^^^^^^^^^^^^^^^^^",
              "    UnicodeEncodeError: 'charmap' codec can't encode character '\\u0141' in position 212: character maps to <undefined>"]
    while len(C.events) < 2100:
        cur += int(r.expovariate(1 / 7.5) * 1_000_000) + 1
        kind = pick(r, [("req", 90), ("printer", 6), ("queue", 4)])
        if kind == "req":
            m, p, _ = pick(r, [((a, b, c), c) for a, b, c in eps])
            p = p.replace("{p}", r.choice(printers)).replace("{tn}", tracking(r))
            client = pick(r, clients)
            if p == "/healthz":
                client = "127.0.0.1" if r.random() < 0.5 else "10.0.0.1"
            status = pick(r, [(200, 85), (201, 0), (304, 2), (400, 3), (404, 4), (409, 1), (500, 3)])
            if p == "/favicon.ico":
                status = 404
            if p == "/healthz":
                status = 200
            if m == "POST" and status == 200:
                status = 201
            if m == "DELETE" and status == 200:
                status = 204
            if status == 500:
                m, p = "POST", "/v1/labels"
            ms = round(r.lognormvariate(2.2, 0.9), 2)
            if p == "/healthz":
                ms = round(r.uniform(0.3, 1.6), 2)
            if status == 500 or (p == "/v1/labels" and r.random() < 0.1):
                ms = round(r.uniform(150, 4200), 2)
            ms = max(ms, 0.05)
            if status == 500:
                tb = tb_key if r.random() < 0.6 else tb_uni
                req = (f"    HTTPServerRequest(protocol='http', host='labels.ferrowick.io', method='{m}', uri='{p}', "
                       f"version='HTTP/1.1', remote_ip='{client}')")
                text = pre("E", "web", 1875) + f"Uncaught exception {m} {p} ({client})\n" + req + "\n" + "\n".join(tb)
                C.ev(text, tsec(), "ERROR", logger="web")
                cur += r.randint(200, 3000)
            letter, lvl = ("I", "INFO") if status < 400 else (("W", "WARN") if status < 500 else ("E", "ERROR"))
            C.ev(pre(letter, "web", 2348) + f"{status} {m} {p} ({client}) {ms:.2f}ms", tsec(), lvl, logger="web",
                 status=status, method=m, path=p, client=client, duration=float(f"{ms:.2f}"))
        elif kind == "printer":
            pr = r.choice(printers)
            if r.random() < 0.5:
                C.ev(pre("W", "printers", 143) + f"printer {pr} offline, requeueing job {r.randint(1000, 9999)} (last seen {r.randint(30, 600)}s ago)", tsec(), "WARN", logger="printers")
            else:
                C.ev(pre("I", "printers", 120) + f"printer {pr} back online – {r.randint(0, 30)} jobs pending", tsec(), "INFO", logger="printers")
        else:
            if r.random() < 0.8:
                C.ev(pre("D", "queue", 77) + f"queue depth={r.randint(0, 40)} oldest={r.randint(0, 90)}s", tsec(), "DEBUG", logger="queue")
            else:
                C.ev(pre("E", "queue", 95) + f"dropping job {r.randint(1000, 9999)} for {r.choice(PEOPLE)}: retries exhausted", tsec(), "ERROR", logger="queue")
    C.count_where("status", "500")
    C.count_where("status", "404")
    C.stat("max", "duration", "ms")
    C.stat("min", "duration", "ms")
    C.top("client")
    C.count_contains("label_render.py")
    C.count_contains("UnicodeEncodeError")
    return C


# --------------------------------------------------------------------------------------
# f11 Apache Spark driver log (default log4j2 pattern "%d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n%ex")
# --------------------------------------------------------------------------------------

def f11(r):
    C = Case("f11-spark-driver", "spark-driver.log", "Apache Spark 3.5 driver log, default conf/log4j2.properties pattern (yy/MM/dd HH:mm:ss LEVEL Class: msg, Java stack traces)")
    cur = us_of(2026, 10, 4, 1, 15, 3)
    execs = {1: "10.30.1.12", 2: "10.30.1.13", 3: "10.30.1.14", 4: "10.30.1.15", 5: "10.30.1.16"}

    def ev(lvl, cls, msg, extra_lines=None):
        t = utc(cur // 1_000_000 * 1_000_000)
        text = f"{t.strftime('%y/%m/%d %H:%M:%S')} {lvl} {cls}: {msg}"
        if extra_lines:
            text += "\n" + "\n".join(extra_lines)
        C.ev(text, t, lvl, logger=cls)

    fetch_trace = ["org.apache.spark.shuffle.FetchFailedException: Connection reset by peer",
                   "\tat org.apache.spark.errors.SparkCoreErrors$.fetchFailedError(SparkCoreErrors.scala:437)",
                   "\tat org.apache.spark.storage.ShuffleBlockFetcherIterator.throwFetchFailedException(ShuffleBlockFetcherIterator.scala:1239)",
                   "\tat org.apache.spark.storage.ShuffleBlockFetcherIterator.next(ShuffleBlockFetcherIterator.scala:971)",
                   "\tat org.apache.spark.storage.ShuffleBlockFetcherIterator.next(ShuffleBlockFetcherIterator.scala:86)",
                   "\tat org.apache.spark.util.CompletionIterator.next(CompletionIterator.scala:29)",
                   "\tat org.apache.spark.sql.execution.SparkPlan.$anonfun$getByteArrayRdd$1(SparkPlan.scala:388)",
                   "\tat org.apache.spark.scheduler.ResultTask.runTask(ResultTask.scala:93)",
                   "\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:620)",
                   "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)",
                   "\tat java.base/java.lang.Thread.run(Thread.java:840)",
                   "Caused by: java.io.IOException: Connection reset by peer",
                   "\tat java.base/sun.nio.ch.SocketDispatcher.read0(Native Method)",
                   "\tat io.netty.buffer.PooledByteBuf.setBytes(PooledByteBuf.java:258)",
                   "\t... 1 more"]
    parse_trace = ["java.lang.NumberFormatException: For input string: \"2,4 kg\"",
                   "\tat java.base/jdk.internal.math.FloatingDecimal.readJavaFormatString(FloatingDecimal.java:2054)",
                   "\tat java.base/java.lang.Double.parseDouble(Double.java:651)",
                   "\tat scala.collection.StringOps$.toDouble$extension(StringOps.scala:954)",
                   "\tat io.ferrowick.rollup.ManifestRollup$.$anonfun$parseWeight$1(ManifestRollup.scala:212)",
                   "\tat org.apache.spark.sql.catalyst.expressions.GeneratedClass$GeneratedIteratorForCodegenStage2.processNext(Unknown Source)",
                   "\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:620)",
                   "\tat java.base/java.lang.Thread.run(Thread.java:840)"]
    boot = [("INFO", "SparkContext", "Running Spark version 3.5.1"),
            ("INFO", "SparkContext", "OS info Linux, 5.15.0-1051-aws, amd64"),
            ("INFO", "SparkContext", "Java version 17.0.10"),
            ("WARN", "NativeCodeLoader", "Unable to load native-hadoop library for your platform... using builtin-java classes where applicable"),
            ("INFO", "ResourceUtils", "=============================================================="),
            ("INFO", "ResourceUtils", "No custom resources configured for spark.driver."),
            ("INFO", "SparkContext", "Submitted application: ferrowick-manifest-rollup"),
            ("INFO", "SecurityManager", "Changing view acls to: spark"),
            ("INFO", "Utils", "Successfully started service 'sparkDriver' on port 40123."),
            ("INFO", "SparkEnv", "Registering MapOutputTracker"),
            ("INFO", "DiskBlockManager", "Created local directory at /tmp/blockmgr-" + uuid4(r)),
            ("INFO", "MemoryStore", "MemoryStore started with capacity 2004.6 MiB"),
            ("INFO", "Utils", "Successfully started service 'SparkUI' on port 4040."),
            ("INFO", "Executor", "Starting executor ID driver on host spark-driver-0"),
            ("INFO", "BlockManagerMasterEndpoint", "Registering block manager spark-driver-0:41235 with 2004.6 MiB RAM, BlockManagerId(driver, spark-driver-0, 41235, None)")]
    for lvl, cls, msg in boot:
        cur += r.randint(5000, 700_000)
        ev(lvl, cls, msg)
    for e, ip in execs.items():
        cur += r.randint(100_000, 3_000_000)
        ev("INFO", "KubernetesClusterSchedulerBackend$KubernetesDriverEndpoint", f"Registered executor NettyRpcEndpointRef(spark-client://Executor) ({ip}:{r.randint(40000, 49999)}) with ID {e},  ResourceProfileId 0")
        ev("INFO", "BlockManagerMasterEndpoint", f"Registering block manager {ip}:{r.randint(40000, 49999)} with 2.1 GiB RAM, BlockManagerId({e}, {ip}, {r.randint(40000, 49999)}, None)")
    job = 0
    stage = 0
    tid = 0
    while len(C.events) < 1750:
        cur += r.randint(1_000_000, 40_000_000)
        day = r.choice(["2026-10-01", "2026-10-02", "2026-10-03"])
        ev("INFO", "FileSourceStrategy", f"Pushed Filters: IsNotNull(depot),EqualTo(day,{day})")
        ev("INFO", "CodeGenerator", f"Code generated in {r.uniform(3, 90):.6f} ms")
        ev("INFO", "MemoryStore", f"Block broadcast_{stage} stored as values in memory (estimated size {r.uniform(200, 400):.1f} KiB, free 2004.2 MiB)")
        ev("INFO", "SparkContext", f"Created broadcast {stage} from count at ManifestRollup.scala:88")
        ev("INFO", "DAGScheduler", f"Got job {job} (count at ManifestRollup.scala:88) with 8 output partitions")
        ev("INFO", "DAGScheduler", f"Submitting ResultStage {stage} (MapPartitionsRDD[{stage * 3 + 2}] at count at ManifestRollup.scala:88), which has no missing parents")
        ev("INFO", "TaskSchedulerImpl", f"Adding task set {stage}.0 with 8 tasks resource profile 0")
        ntask = 8
        running = []
        for part in range(ntask):
            cur += r.randint(1000, 300_000)
            e = r.choice(list(execs))
            running.append((part, tid, e))
            ev("INFO", "TaskSetManager", f"Starting task {part}.0 in stage {stage}.0 (TID {tid}) ({execs[e]}, executor {e}, partition {part}, PROCESS_LOCAL, {r.randint(7000, 9000)} bytes) ")
            tid += 1
        for e in sorted({x[2] for x in running}):
            cur += r.randint(1000, 200_000)
            ev("INFO", "BlockManagerInfo", f"Added broadcast_{stage}_piece0 in memory on {execs[e]}:{r.randint(40000, 49999)} (size: {r.uniform(10, 60):.1f} KiB, free: {r.uniform(2000, 2100):.1f} MiB)")
        done = 0
        failed_job = False
        for part, t_id, e in running:
            cur += r.randint(200_000, 20_000_000)
            roll = r.random()
            if roll < 0.04:
                ev("WARN", "TaskSetManager", f"Lost task {part}.0 in stage {stage}.0 (TID {t_id}) ({execs[e]} executor {e}): FetchFailed(BlockManagerId({e}, {execs[e]}, 41235, None), shuffleId={stage}, mapIndex={part}, mapId={t_id}, reduceId={part}, message=", fetch_trace + [")"])
            elif roll < 0.065:
                ev("WARN", "TaskSetManager", f"Lost task {part}.0 in stage {stage}.0 (TID {t_id}) ({execs[e]} executor {e}): java.lang.NumberFormatException: For input string: \"2,4 kg\"", parse_trace[1:])
                if r.random() < 0.3:
                    ev("ERROR", "TaskSetManager", f"Task {part} in stage {stage}.0 failed 4 times; aborting job")
                    ev("INFO", "TaskSchedulerImpl", f"Cancelling stage {stage}")
                    ev("INFO", "DAGScheduler", f"ResultStage {stage} (count at ManifestRollup.scala:88) failed in {r.uniform(1, 90):.3f} s due to Job aborted due to stage failure: Task {part} in stage {stage}.0 failed 4 times, most recent failure: Lost task {part}.3 in stage {stage}.0 (TID {t_id + 40}) ({execs[e]} executor {e}): java.lang.NumberFormatException: For input string: \"2,4 kg\"")
                    ev("ERROR", "ManifestRollup", f"rollup for {day} failed; depot totals not published", parse_trace)
                    failed_job = True
                    break
            else:
                done += 1
                ev("INFO", "TaskSetManager", f"Finished task {part}.0 in stage {stage}.0 (TID {t_id}) in {r.randint(300, 60000)} ms on {execs[e]} (executor {e}) ({done}/{ntask})")
        if not failed_job:
            ev("INFO", "TaskSchedulerImpl", f"Removed TaskSet {stage}.0, whose tasks have all completed, from pool ")
            ev("INFO", "DAGScheduler", f"ResultStage {stage} (count at ManifestRollup.scala:88) finished in {r.uniform(1, 90):.3f} s")
            ev("INFO", "DAGScheduler", f"Job {job} finished: count at ManifestRollup.scala:88, took {r.uniform(1, 95):.6f} s")
            if r.random() < 0.3:
                ev("INFO", "ManifestRollup", f"published depot totals for {day}: {r.randint(1000, 90000)} parcels, {r.choice(PLACES)} busiest")
        if r.random() < 0.05:
            e = r.choice(list(execs))
            ev("ERROR", "TaskSchedulerImpl", f"Lost executor {e} on {execs[e]}: The executor with id {e} exited with exit code 137(SIGKILL, possible container OOM).")
            ev("WARN", "KubernetesClusterSchedulerBackend$KubernetesDriverEndpoint", f"Disabling executor {e}.")
        stage += 1
        job += 1
    C.top("logger")
    C.count_where("logger", "BlockManagerInfo")
    C.count_where("logger", "DAGScheduler")
    C.count_contains("ShuffleBlockFetcherIterator.throwFetchFailedException")
    C.count_contains("ManifestRollup.scala:212")
    C.count_contains("Lost task")
    return C


# --------------------------------------------------------------------------------------
# f12 .NET 8 Microsoft.Extensions.Logging SimpleConsole formatter with TimestampFormat
# --------------------------------------------------------------------------------------

DOTNET_LEVEL = {"trce": "TRACE", "dbug": "DEBUG", "info": "INFO", "warn": "WARN", "fail": "ERROR", "crit": "CRITICAL"}


def f12(r):
    C = Case("f12-dotnet-simpleconsole", "billing-api.log", ".NET 8 Microsoft.Extensions.Logging SimpleConsoleFormatter (TimestampFormat \"yyyy-MM-dd HH:mm:ss.fff \", UTC, no colors): 'info: Category[EventId]' + 6-space indented message lines")
    cur = us_of(2026, 3, 30, 11, 0, 41) + 27_000
    pad = "      "

    def ev(lvl, cat, eid, msg_lines):
        nonlocal cur
        cur += r.randint(100, 3000)
        t = utc(cur)
        head = t.strftime("%Y-%m-%d %H:%M:%S") + f".{t.microsecond // 1000:03d} {lvl}: {cat}[{eid}]"
        body = "\n".join(pad + ln for ln in msg_lines)
        C.ev(head + "\n" + body, utc(cur // 1_000_000 * 1_000_000), DOTNET_LEVEL[lvl], logger=cat)

    for eid, msg in [(14, "Now listening on: http://[::]:8080"), (0, "Application started. Press Ctrl+C to shut down."),
                     (0, "Hosting environment: Production"), (0, "Content root path: /app")]:
        cur += r.randint(1000, 90000)
        ev("info", "Microsoft.Hosting.Lifetime", eid, [msg])
    host = "http://billing.ferrowick.io"
    eps = [("GET", "/api/invoices/{id}", "InvoicesController.Get", 40), ("POST", "/api/invoices", "InvoicesController.Create", 15),
           ("GET", "/api/customers/{id}/balance", "CustomersController.Balance", 25), ("GET", "/health", None, 20)]
    npg_trace = ["Npgsql.NpgsqlException (0x80004005): Exception while reading from stream",
                 " ---> System.TimeoutException: Timeout during reading attempt",
                 "   at Npgsql.Internal.NpgsqlReadBuffer.<Ensure>g__EnsureLong|55_0(NpgsqlReadBuffer buffer, Int32 count, Boolean async, Boolean readingNotifications)",
                 "   at Npgsql.Internal.NpgsqlConnector.ReadMessageLong(Boolean async, DataRowLoadingMode dataRowLoadingMode, Boolean readingNotifications, Boolean isReadingPrependedMessage)",
                 "   --- End of inner exception stack trace ---",
                 "   at Npgsql.NpgsqlDataReader.NextResult(Boolean async, Boolean isConsuming, CancellationToken cancellationToken)",
                 "   at Microsoft.EntityFrameworkCore.Storage.RelationalCommand.ExecuteReaderAsync(RelationalCommandParameterObject parameterObject, CancellationToken cancellationToken)",
                 "   at Ferrowick.Billing.Data.InvoiceRepository.GetByIdAsync(Int32 id, CancellationToken ct) in /src/Billing/Data/InvoiceRepository.cs:line 57",
                 "   at Ferrowick.Billing.Controllers.InvoicesController.Get(Int32 id, CancellationToken ct) in /src/Billing/Controllers/InvoicesController.cs:line 34",
                 "   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.TaskOfIActionResultExecutor.Execute(ActionContext actionContext, IActionResultTypeMapper mapper, ObjectMethodExecutor executor, Object controller, Object[] arguments)",
                 "   at Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddlewareImpl.<Invoke>g__Awaited|10_0(ExceptionHandlerMiddlewareImpl middleware, HttpContext context, Task task)"]
    fx_trace = ["System.Net.Http.HttpRequestException: Response status code does not indicate success: 503 (Service Unavailable).",
                "   at System.Net.Http.HttpResponseMessage.EnsureSuccessStatusCode()",
                "   at Ferrowick.Billing.Services.FxRateClient.GetRateAsync(String from, String to) in /src/Billing/Services/FxRateClient.cs:line 48",
                "   at Ferrowick.Billing.Services.BalanceService.ComputeAsync(Int32 customerId) in /src/Billing/Services/BalanceService.cs:line 112"]
    while len(C.events) < 1350:
        cur += int(r.expovariate(1 / 14.0) * 1_000_000) + 1
        m, p, action, _ = pick(r, [((a, b, c, d), d) for a, b, c, d in eps])
        p = p.replace("{id}", str(r.randint(1000, 99999)))
        url = host + p
        ev("info", "Microsoft.AspNetCore.Hosting.Diagnostics", 1, [f"Request starting HTTP/1.1 {m} {url} - {'application/json' if m == 'POST' else '-'} {r.randint(80, 900) if m == 'POST' else '-'}"])
        status = 200
        if action:
            cur += r.randint(100, 2000)
            ev("info", "Microsoft.AspNetCore.Routing.EndpointMiddleware", 0, [f"Executing endpoint 'Ferrowick.Billing.Controllers.{action} (Ferrowick.Billing)'"])
            roll = r.random()
            if action.startswith("Invoices") or action.startswith("Customers"):
                cur += r.randint(500, 40000)
                if roll < 0.02:
                    ms = 30000 + r.randint(0, 40)
                    cur += ms * 1000
                    ev("fail", "Microsoft.EntityFrameworkCore.Database.Command", 20102,
                       [f"Failed executing DbCommand ({ms:,}ms) [Parameters=[@__id_0='?' (DbType = Int32)], CommandType='Text', CommandTimeout='30']",
                        'SELECT i."Id", i."CustomerId", i."AmountChf", i."IssuedAt", i."Status"',
                        'FROM "Invoices" AS i', 'WHERE i."Id" = @__id_0', "LIMIT 1"])
                    ev("fail", "Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware", 1,
                       ["An unhandled exception has occurred while executing the request."] + npg_trace)
                    status = 500
                else:
                    ev("info", "Microsoft.EntityFrameworkCore.Database.Command", 20101,
                       [f"Executed DbCommand ({r.randint(1, 40)}ms) [Parameters=[@__id_0='?' (DbType = Int32)], CommandType='Text', CommandTimeout='30']",
                        'SELECT i."Id", i."CustomerId", i."AmountChf", i."IssuedAt", i."Status"' if action.startswith("Invoices") else 'SELECT COALESCE(SUM(i."AmountChf"), 0.0)',
                        'FROM "Invoices" AS i', 'WHERE i."Id" = @__id_0' if action.startswith("Invoices") else 'WHERE i."CustomerId" = @__id_0 AND i."Status" <> 2'])
                    if action.startswith("Customers") and r.random() < 0.06:
                        ev("warn", "Ferrowick.Billing.Services.BalanceService", 0,
                           [f"FX rate feed unavailable for EUR→CHF, using cached rate 0.9412 (customer {r.choice(PEOPLE)})"] + fx_trace)
                    if r.random() < 0.04:
                        ev("dbug", "Ferrowick.Billing.Services.InvoiceService", 0, [f"Invoice cache miss for {p.rsplit('/', 1)[-1]}"])
                    if action == "InvoicesController.Get" and r.random() < 0.05:
                        status = 404
            cur += r.randint(100, 3000)
            ev("info", "Microsoft.AspNetCore.Routing.EndpointMiddleware", 1, [f"Executed endpoint 'Ferrowick.Billing.Controllers.{action} (Ferrowick.Billing)'"])
        if m == "POST" and status == 200:
            status = 201
        ms = r.uniform(0.5, 90)
        ctype = "application/json;+charset=utf-8" if action else "text/plain"
        ln = r.randint(40, 9000) if status < 400 else 0
        if not action:
            ln = 7
        ev("info", "Microsoft.AspNetCore.Hosting.Diagnostics", 2,
           [f"Request finished HTTP/1.1 {m} {url} - {status} {ln if ln else '-'} {ctype if ln else '-'} {ms:.4f}ms"])
        if r.random() < 0.002:
            ev("crit", "Ferrowick.Billing.Ledger.LedgerWriter", 0,
               [f"Ledger checksum mismatch for batch 2026-03-30/{r.randint(100, 999):04d}; halting ledger writes until reconciled"])
    C.top("logger")
    C.count_where("logger", "Microsoft.EntityFrameworkCore.Database.Command")
    C.count_where("logger", "Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware")
    C.count_contains("InvoiceRepository.GetByIdAsync")
    C.count_contains('FROM "Invoices" AS i')
    C.count_contains("FxRateClient.cs:line 48")
    return C


# --------------------------------------------------------------------------------------
# f13 Dovecot log_path file (default log_timestamp "%b %d %H:%M:%S ", no year)
# --------------------------------------------------------------------------------------

def f13(r):
    C = Case("f13-dovecot", "dovecot.log", "Dovecot 2.3 log_path file (default log_timestamp \"%b %d %H:%M:%S \", 'service: Level: message', no year)")
    cur = us_of(2026, 11, 18, 16, 12, 40)
    users = [("j.okafor@ferrowick.io", 26), ("m.lindqvist@ferrowick.io", 12), ("dispatch-zrh@ferrowick.io", 11),
             ("a.petrovic@ferrowick.io", 8), ("s.haddad@ferrowick.io", 7), ("billing@ferrowick.io", 5),
             ("n.tanaka@ferrowick.io", 4)]
    rips = [("10.90.4.17", 25), ("203.0.113.88", 10), ("198.51.100.140", 9), ("10.90.4.30", 8), ("192.0.2.66", 7),
            ("185.220.101.33", 6)]

    def ts():
        return utc(cur).strftime("%b %d %H:%M:%S")

    def tsec():
        return utc(cur // 1_000_000 * 1_000_000)

    def ev(prog, lvl, msg, **f):
        word = {"INFO": "Info", "WARN": "Warning", "ERROR": "Error", "FATAL": "Fatal", "DEBUG": "Debug"}[lvl]
        prog_name = prog.split("(")[0]
        C.ev(f"{ts()} {prog}: {word}: {msg}", tsec(), lvl, program=prog_name, **f)

    ev("master", "INFO", "Dovecot v2.3.21 (47349e2482) starting up for imap, lmtp, sieve (core dumps disabled)")
    sess_n = 0
    while len(C.events) < 2050:
        cur += int(r.expovariate(1 / 8.0) * 1_000_000) + 1
        kind = pick(r, [("imap", 50), ("authfail", 12), ("lmtp", 22), ("warn", 2), ("err", 3), ("fatal", 1)])
        if kind == "imap":
            user = pick(r, users)
            rip = pick(r, rips[:5])
            pid = r.randint(20000, 60000)
            sess = alnum(r, 16, string.ascii_letters + string.digits + "+/")
            ev("imap-login", "INFO", f"Login: user=<{user}>, method=PLAIN, rip={rip}, lip=10.90.0.25, mpid={pid}, TLS, session=<{sess}>",
               user=user, client=rip)
            cur += int(r.uniform(1, 120) * 1_000_000)
            if r.random() < 0.03:
                ev(f"imap({user})<{pid}><{sess}>", "ERROR", f"Mailbox INBOX: UID=\"{r.randint(1000, 90000)}\": read(/var/vmail/ferrowick.io/{user.split('@')[0]}/Maildir/cur/1763481234.M12P{pid}.mx1,S=82341,W=83702:2,S) failed: Input/output error")
            ev(f"imap({user})<{pid}><{sess}>", "INFO",
               f"Logged out in={r.randint(100, 9000)} out={r.randint(500, 900000)} deleted={r.randint(0, 3)} expunged={r.randint(0, 3)} trashed=0 hdr_count={r.randint(0, 50)} hdr_bytes={r.randint(0, 90000)} body_count={r.randint(0, 12)} body_bytes={r.randint(0, 500000)}")
        elif kind == "authfail":
            rip = pick(r, [("185.220.101.33", 5), ("45.155.205.12", 3), ("203.0.113.88", 1), ("91.92.251.7", 2)])
            bogus = r.choice(["admin@ferrowick.io", "info@ferrowick.io", "test", "j.okafor@ferrowick.io", "sales@ferrowick.io", "postmaster"])
            sess = alnum(r, 16, string.ascii_letters + string.digits + "+/")
            ev("auth", "INFO", f"passwd-file(user={bogus},rip={rip},lip=10.90.0.25,TLS,session=<{sess}>): unknown user", client=rip)
            cur += r.randint(1_000_000, 3_000_000)
            ev("imap-login", "INFO", f"Disconnected: Connection closed (auth failed, 1 attempts in 2 secs): user=<{bogus}>, method=PLAIN, rip={rip}, lip=10.90.0.25, TLS, session=<{sess}>",
               user=bogus, client=rip)
        elif kind == "lmtp":
            pid = r.randint(20000, 60000)
            sess = alnum(r, 22, string.ascii_letters + string.digits + "+/")
            user = pick(r, users)
            ev(f"lmtp({pid})", "INFO", "Connect from local")
            msgid = f"<{hexs(r, 12)}.{r.randint(1000, 9999)}@mailer.ferrowick.io>"
            subj = r.choice(["Lieferschein", "Zustellung verspätet", "Manifest ZRH-2 – Übersicht", "Fwd: factură", "配送の確認"])
            ev(f"lmtp({user})<{pid}><{sess}>", "INFO", f"sieve: msgid={msgid}: stored mail into mailbox 'INBOX'")
            if r.random() < 0.1:
                ev(f"lmtp({user})<{pid}><{sess}>", "INFO", f"sieve: msgid={msgid}: fileinto action: stored mail into mailbox 'Depots/{r.choice(DEPOTS)}' (subject: {subj})")
            ev(f"lmtp({pid})", "INFO", "Disconnect from local: Logged out (state=READY)")
        elif kind == "warn":
            ev("master", "WARN", "service(imap-login): process_limit (100) reached, client connections are being dropped")
        elif kind == "err":
            user = pick(r, users)
            ev(f"imap({user})<{r.randint(20000, 60000)}><{alnum(r, 16)}>", "ERROR",
               f"Mailbox Sent: Failed to autocreate mailbox: Quota exceeded (mailbox for user is full)")
        else:
            pid = r.randint(20000, 60000)
            ev(f"auth-worker({pid})", "FATAL", "master: service(auth-worker): child " + str(pid) + " killed with signal 9 (out of memory (service auth-worker { vsz_limit=256 MB }, you may need to increase it))")
    # the file was copied while Dovecot was writing: the last line is cut short (no newline)
    cur += r.randint(1_000_000, 9_000_000)
    user = pick(r, users)
    rip = pick(r, rips[:5])
    C.ev(f"{ts()} imap-login: Info: Login: user=<{user}>, method=PLAIN, rip={rip}, lip=10.9", tsec(), "INFO", eol=False,
         program="imap-login", user=user, client=rip)
    C.count_where("program", "imap-login")
    C.top("client")
    C.top("user")
    C.distinct("user")
    C.count_contains("auth failed")
    C.count_contains("Quota exceeded")
    return C


# --------------------------------------------------------------------------------------
# f14 Asterisk full log (/var/log/asterisk/full, dateformat %b %e %T)
# --------------------------------------------------------------------------------------

def f14(r):
    C = Case("f14-asterisk-full", "full", "Asterisk 20 /var/log/asterisk/full ([%b %e %T] LEVEL[lwp][C-callid] file.c: msg, no year)")
    cur = us_of(2026, 10, 9, 17, 3, 12)
    canon = {"VERBOSE": None, "NOTICE": "NOTICE", "WARNING": "WARN", "ERROR": "ERROR", "DEBUG": "DEBUG",
             "SECURITY": None, "DTMF": None}

    def ts():
        t = utc(cur)
        return f"[{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')}]"

    def ev(lvl, lwp, callid, src, msg):
        cid = f"[{callid}]" if callid else ""
        C.ev(f"{ts()} {lvl}[{lwp}]{cid} {src}: {msg}", utc(cur // 1_000_000 * 1_000_000), canon[lvl],
             thread=str(lwp), logger=src)

    ev("VERBOSE", 1, None, "asterisk.c", "Asterisk Ready.")
    call_no = 0x40
    scanners = ["198.51.100.23", "45.143.203.9", "193.46.255.12", "103.145.13.180"]
    exts = {"1001": "Zoë Müller", "1002": "Łukasz Wójcik", "1003": "Inês Conceição", "1010": "Dispatch ZRH"}
    while len(C.events) < 2300:
        cur += int(r.expovariate(1 / 35.0) * 1_000_000) + 1
        kind = pick(r, [("call", 45), ("scan", 35), ("qual", 8), ("rtp", 4), ("err", 3), ("dbg", 5)])
        if kind == "call":
            lwp = r.randint(3000, 60000)
            call_no += 1
            cid = f"C-{call_no:08x}"
            did = r.choice(["+41445550142", "+41445550143", "+48225550190"])
            caller = f"+41{r.randint(700000000, 799999999)}"
            ch = f"PJSIP/trunk-swisscom-{call_no:08x}"
            ev("VERBOSE", lwp, cid, "pbx.c", f"Executing [{did}@from-trunk:1] NoOp(\"{ch}\", \"Inbound call from {caller}\") in new stack")
            ev("VERBOSE", lwp, cid, "pbx.c", f"Executing [{did}@from-trunk:2] Answer(\"{ch}\", \"\") in new stack")
            ev("VERBOSE", lwp, cid, "pbx.c", f"Executing [{did}@from-trunk:3] Queue(\"{ch}\", \"dispatch,tT,,,300\") in new stack")
            ext = r.choice(list(exts))
            ev("VERBOSE", lwp, cid, "app_queue.c", f"Called PJSIP/{ext}")
            cur += r.randint(2, 25) * 1_000_000
            if r.random() < 0.15:
                ev("VERBOSE", lwp, cid, "app_queue.c", f"PJSIP/{ext}-{hexs(r, 8)} is busy")
                ev("WARNING", lwp, cid, "app_queue.c", f"No agents available in queue 'dispatch' for caller {caller} – sending to voicemail")
            else:
                ev("VERBOSE", lwp, cid, "app_queue.c", f"PJSIP/{ext}-{hexs(r, 8)} answered {ch}")
                ev("VERBOSE", lwp, cid, "bridge_channel.c", f"Channel PJSIP/{ext}-{hexs(r, 8)} joined 'simple_bridge' basic-bridge <{uuid4(r)}>")
                if r.random() < 0.2:
                    ev("DTMF", lwp, cid, "channel.c", f"DTMF end '{r.choice('0123456789*#')}' received on {ch}, duration 120 ms")
                cur += r.randint(20, 400) * 1_000_000
                ev("VERBOSE", lwp, cid, "bridge_channel.c", f"Channel PJSIP/{ext}-{hexs(r, 8)} left 'simple_bridge' basic-bridge <{uuid4(r)}>")
            ev("VERBOSE", lwp, cid, "pbx.c", f"Spawn extension (from-trunk, {did}, 3) exited non-zero on '{ch}'")
        elif kind == "scan":
            ip = pick(r, [(s, w) for s, w in zip(scanners, (10, 4, 3, 2))])
            lwp = r.choice([1342, 1343])
            user = r.choice(["100", "1000", "admin", "101", "2000", "sipvicious", "1001"])
            callid = hexs(r, 32)
            ev("NOTICE", lwp, None, "res_pjsip/pjsip_distributor.c",
               f"Request 'REGISTER' from '\"{user}\" <sip:{user}@91.198.22.40>' failed for '{ip}:{r.randint(5060, 5090)}' (callid: {callid}) - No matching endpoint found")
            ev("SECURITY", lwp, None, "res_security_log.c",
               f"SecurityEvent=\"InvalidAccountID\",EventTV=\"{utc(cur).strftime('%Y-%m-%dT%H:%M:%S')}.{cur % 1_000_000:06d}+0000\",Severity=\"Error\",Service=\"PJSIP\",EventVersion=\"1\",AccountID=\"{user}\",SessionID=\"{callid}\",LocalAddress=\"IPV4/UDP/10.44.0.5/5060\",RemoteAddress=\"IPV4/UDP/{ip}/5060\"")
        elif kind == "qual":
            ext = r.choice(list(exts))
            lwp = r.randint(1400, 1500)
            if r.random() < 0.5:
                ev("VERBOSE", lwp, None, "res_pjsip/pjsip_options.c", f"Contact {ext}/sip:{ext}@10.44.{r.randint(1, 9)}.{r.randint(2, 250)}:5060 is now Unreachable.  RTT: 0.000 msec")
                ev("WARNING", lwp, None, "res_pjsip_outbound_registration.c", f"No response received from 'sip:{ext}@10.44.0.5' on registration attempt to 'sip:{ext}@10.44.0.5', retrying in '60'")
            else:
                ev("VERBOSE", lwp, None, "res_pjsip/pjsip_options.c", f"Contact {ext}/sip:{ext}@10.44.{r.randint(1, 9)}.{r.randint(2, 250)}:5060 is now Reachable.  RTT: {r.uniform(1, 40):.3f} msec")
        elif kind == "rtp":
            lwp = r.randint(3000, 60000)
            ev("WARNING", lwp, f"C-{call_no:08x}", "res_rtp_asterisk.c", f"RTP Read too short (expected 12 bytes, got {r.randint(1, 11)}) from 10.44.{r.randint(1, 9)}.{r.randint(2, 250)}:{r.randint(10000, 20000)}")
        elif kind == "err":
            lwp = r.randint(1400, 1500)
            ev("ERROR", lwp, None, r.choice(["res_pjsip_outbound_registration.c", "chan_pjsip.c"]),
               r.choice(["Fatal response '403' received from 'sip:sip.swisscom.example:5060' on registration attempt to 'sip:ferrowick@sip.swisscom.example:5060', stopping outbound registration",
                         "Unable to create PJSIP channel with endpoint 'trunk-swisscom': 'Failed to bind socket: Address already in use'"]))
        else:
            lwp = r.randint(1400, 1500)
            ev("DEBUG", lwp, None, "res_pjsip_session.c", f"Endpoint '{r.choice(list(exts))}': Media stream audio changed from sendrecv to sendonly – hold by {r.choice(list(exts.values()))}")
    C.count_where("logger", "res_pjsip/pjsip_distributor.c")
    C.top("logger")
    C.count_contains("No matching endpoint found")
    C.count_contains("InvalidAccountID")
    C.count_where("thread", "1342")
    C.distinct("thread")
    return C


# --------------------------------------------------------------------------------------
# f15 Unbound logfile (epoch seconds, log-queries + log-replies)
# --------------------------------------------------------------------------------------

def f15(r):
    C = Case("f15-unbound", "unbound.log", "Unbound 1.17 logfile ([epoch] unbound[pid:thread] level: msg) with log-queries, log-replies and log-servfail")
    cur = us_of(2026, 7, 1, 23, 20, 55)
    pid = 1123
    clients = [("10.40.3.21", 28), ("10.40.3.22", 12), ("10.40.8.5", 11), ("10.40.1.101", 9), ("10.40.1.102", 7),
               ("10.40.9.33", 6), ("127.0.0.1", 4)]
    names = [("api.ferrowick.io.", "A", 20), ("track.ferrowick.io.", "AAAA", 8), ("redis.internal.ferrowick.io.", "A", 14),
             ("db-primary.internal.ferrowick.io.", "A", 12), ("s3.eu-central-2.amazonaws.example.", "A", 10),
             ("api.posta-ch.example.", "A", 6), ("_imaps._tcp.ferrowick.io.", "SRV", 2), ("ferrowick.io.", "MX", 3),
             ("legacy-edi.partner.example.", "A", 3), ("time.cloudflare.example.", "AAAA", 4)]

    def ev(thr, lvl, msg, **f):
        t = cur // 1_000_000
        C.ev(f"[{t}] unbound[{pid}:{thr}] {lvl}: {msg}", utc(t * 1_000_000),
             {"info": "INFO", "notice": "NOTICE", "warning": "WARN", "error": "ERROR", "debug": "DEBUG"}[lvl], **f)

    for m in ["init module 0: subnetcache", "init module 1: validator", "init module 2: iterator"]:
        ev(0, "notice", m)
    ev(0, "warning", "so-rcvbuf 4194304 was not granted. Got 425984. To fix: start with root permissions(linux) or sysctl bigger net.core.rmem_max(linux) or kern.ipc.maxsockbuf(bsd) values.")
    ev(0, "info", "start of service (unbound 1.17.1).")
    while len(C.events) < 3000:
        cur += int(r.expovariate(1 / 1.4) * 1_000_000) + 1
        if r.random() < 0.002:
            for thr in (0, 1):
                q = r.randint(2000, 9000)
                ev(thr, "info", f"server stats for thread {thr}: {q} queries, {int(q * 0.8)} answers from cache, {q - int(q * 0.8)} recursions, 0 prefetch, 0 rejected by ip ratelimiting")
                ev(thr, "info", f"server stats for thread {thr}: requestlist max {r.randint(5, 40)} avg {r.uniform(0.1, 3):.5f} exceeded 0 jostled 0")
                ev(thr, "info", f"average recursion processing time {r.uniform(0.01, 0.09):.6f} sec")
                ev(thr, "info", "histogram of recursion processing times")
                ev(thr, "info", f"[25%]={r.uniform(0.001, 0.01):.6g} median[50%]={r.uniform(0.01, 0.03):.6g} [75%]={r.uniform(0.03, 0.09):.6g}")
            continue
        thr = r.choice((0, 1))
        client = pick(r, clients)
        name, typ, _ = pick(r, [(x, x[2]) for x in names])
        ev(thr, "info", f"{client} {name} {typ} IN", client=client)
        if name.startswith("legacy-edi") and r.random() < 0.7:
            cur += r.randint(200_000, 3_000_000)
            ev(thr, "error", f"SERVFAIL <{name} {typ} IN>: all the configured stub or forward servers failed, at zone {name} no server to query no addresses for nameservers")
            dur = f"{r.uniform(0.2, 3.0):.6f}"
            ev(thr, "info", f"{client} {name} {typ} IN SERVFAIL {dur} 0 {len(name) + 17}", client=client,
               duration=float(dur) * 1000, bytes=len(name) + 17)
            continue
        cached = 1 if r.random() < 0.78 else 0
        if cached:
            dur = "0.000000"
        else:
            dur = f"{r.lognormvariate(-3.6, 0.8):.6f}"
            cur += int(float(dur) * 1_000_000)
        rcode = "NOERROR"
        if name.startswith("_imaps") and r.random() < 0.5:
            rcode = "NXDOMAIN"
        size = {"A": 16, "AAAA": 28, "SRV": 30, "MX": 24}[typ] * r.choice([1, 1, 2, 3]) + len(name) + 12
        ev(thr, "info", f"{client} {name} {typ} IN {rcode} {dur} {cached} {size}", client=client, duration=float(dur) * 1000, bytes=size)
        if r.random() < 0.004:
            ev(thr, "notice", "sendto failed: Network is unreachable")
            ev(thr, "notice", "remote address is 2001:db8:4f::53 port 53 (len 28)")
    C.top("client")
    C.stat("max", "duration", "ms")
    C.stat("sum", "bytes", "b")
    C.count_contains("SERVFAIL <")
    C.count_contains("NXDOMAIN")
    C.count_where("client", "10.40.8.5")
    return C


# --------------------------------------------------------------------------------------
# f16 AWS VPC Flow Logs, default format (version 2), as delivered to S3
# --------------------------------------------------------------------------------------

def f16(r):
    C = Case("f16-aws-vpc-flowlogs", "123456789012_vpcflowlogs_eu-central-2_fl-0c4e7a9b1d2f3a456_20260902T0915Z.log",
             "AWS VPC Flow Logs, default format v2 (space separated, epoch start/end seconds, header line), S3 delivery")
    C.raw("version account-id interface-id srcaddr dstaddr srcport dstport protocol packets bytes start end action log-status")
    acct = "123456789012"
    enis = ["eni-0a1b2c3d4e5f67890", "eni-0f9e8d7c6b5a43210", "eni-05c6d7e8f9a0b1c2d"]
    internal = ["10.40.1.17", "10.40.2.33", "10.40.2.34", "10.40.3.21", "10.40.8.5"]
    outside = ["185.220.101.33", "45.155.205.12", "203.0.113.88", "198.51.100.7", "91.92.251.7", "162.142.125.9"]
    start = us_of(2026, 9, 2, 8, 40, 0) // 1_000_000
    recs = []
    for i in range(2700):
        s = start + r.randint(0, 5 * 3600)
        e = s + r.randint(1, 60)
        eni = r.choice(enis)
        kind = pick(r, [("db", 35), ("web", 30), ("scan", 20), ("dns", 10), ("nodata", 3), ("skip", 1)])
        if kind == "nodata":
            recs.append((s, f"2 {acct} {eni} - - - - - - - {s} {e} - NODATA", {}))
            continue
        if kind == "skip":
            recs.append((s, f"2 {acct} {eni} - - - - - - - {s} {e} - SKIPDATA", {}))
            continue
        if kind == "db":
            src, dst = r.choice(internal[:3]), "10.40.2.50"
            sp, dp, proto = r.randint(32768, 60999), 5432, 6
            if r.random() < 0.5:
                src, dst, sp, dp = dst, src, dp, sp
            pk = r.randint(2, 400)
            by = pk * r.randint(60, 1400)
            act = "ACCEPT"
        elif kind == "web":
            src, dst = r.choice(["203.0.113.14", "198.51.100.77", "192.0.2.201", "203.0.113.52"]), r.choice(internal)
            sp, dp, proto = r.randint(1024, 65000), 443, 6
            if r.random() < 0.5:
                src, dst, sp, dp = dst, src, dp, sp
            pk = r.randint(3, 900)
            by = pk * r.randint(52, 1500)
            act = "ACCEPT"
        elif kind == "scan":
            src, dst = r.choice(outside), r.choice(internal)
            sp, dp, proto = r.randint(1024, 65000), r.choice([22, 23, 3389, 5432, 6379, 8080, 445]), 6
            pk = r.randint(1, 3)
            by = pk * r.choice([40, 44, 60])
            act = "REJECT"
        else:
            src, dst = r.choice(internal), "10.40.0.2"
            sp, dp, proto = r.randint(32768, 60999), 53, 17
            pk = r.randint(1, 6)
            by = pk * r.randint(60, 180)
            act = "ACCEPT"
        recs.append((s, f"2 {acct} {eni} {src} {dst} {sp} {dp} {proto} {pk} {by} {s} {e} {act} OK", {"bytes": by}))
    recs.sort(key=lambda x: x[0])
    for s, line, f in recs:
        C.ev(line, utc(s * 1_000_000), None, **f)
    C.stat("sum", "bytes", "b")
    C.stat("max", "bytes", "b")
    C.count_contains("REJECT")
    C.count_contains("NODATA")
    C.count_contains("SKIPDATA")
    return C


# --------------------------------------------------------------------------------------
# f17 Amazon S3 server access log
# --------------------------------------------------------------------------------------

def f17(r):
    C = Case("f17-s3-server-access", "ferrowick-manifests-2026-05-27-09-15-00-6C1E9F0A3B2D4E5F.log",
             "Amazon S3 server access log (bucket owner, bucket, [time], remote IP, requester, request id, operation, key, \"request-URI\", status, error code, bytes sent, object size, total time ms, turn-around ms, ...)")
    owner = "79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be"
    bucket = "ferrowick-manifests"
    cur = us_of(2026, 5, 27, 6, 4, 51)
    clients = [("10.40.1.17", 30), ("52.94.133.131", 10), ("10.40.3.21", 12), ("203.0.113.88", 7), ("198.51.100.7", 5)]
    reqs = [("arn:aws:iam::123456789012:role/dockyard-uploader", 40), ("arn:aws:sts::123456789012:assumed-role/rollup-spark/i-0c1d2e3f4a5b6c7d8", 25),
            ("arn:aws:iam::123456789012:user/ops-backup", 10), ("-", 8), ("arn:aws:iam::123456789012:user/partner-edi-gw", 3)]
    uas = ["aws-sdk-go-v2/1.26.1 os/linux lang/go#1.22.2 md/GOOS#linux md/GOARCH#amd64 api/s3#1.53.1",
           "aws-sdk-java/2.25.31 Linux/5.15.0-1051-aws OpenJDK_64-Bit_Server_VM/17.0.10+7 Java/17.0.10 vendor/Eclipse_Adoptium io/sync http/Apache cfg/retry-mode/legacy",
           "aws-cli/2.15.40 md/awscrt#0.19.19 ua/2.0 os/linux#5.15.0 md/arch#x86_64 lang/python#3.11.8 md/pyimpl#CPython cfg/retry-mode#standard md/installer#exe md/distrib#ubuntu.22 command/s3.cp",
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"]

    def enc(k):
        out = []
        for ch in k:
            if ch.isascii() and (ch.isalnum() or ch in "-_./"):
                out.append(ch)
            else:
                out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
        return "".join(out)

    while len(C.events) < 560:
        cur += int(r.expovariate(1 / 22.0) * 1_000_000) + 1
        requester = pick(r, reqs)
        client = pick(r, clients)
        op = pick(r, [("REST.GET.OBJECT", 45), ("REST.PUT.OBJECT", 25), ("REST.HEAD.OBJECT", 15), ("REST.GET.BUCKET", 8),
                      ("REST.DELETE.OBJECT", 3), ("REST.COPY.OBJECT", 2)])
        depot = r.choice(DEPOTS + ["Zürich-Nord", "Łódź-Centrum"])
        key = f"manifests/2026/05/27/{depot}/{tracking(r)}.json"
        if op == "REST.GET.BUCKET":
            key = "-"
            uri = f"GET /?list-type=2&prefix=manifests%2F2026%2F05%2F27%2F&max-keys=1000 HTTP/1.1"
        else:
            verb = {"REST.GET.OBJECT": "GET", "REST.PUT.OBJECT": "PUT", "REST.HEAD.OBJECT": "HEAD", "REST.DELETE.OBJECT": "DELETE",
                    "REST.COPY.OBJECT": "PUT"}[op]
            uri = f"{verb} /{enc(key)} HTTP/1.1"
        method = uri.split(" ")[0]
        path = uri.split(" ")[1].split("?")[0]
        err = "-"
        status = 200
        if requester == "-":
            status, err = 403, "AccessDenied"
        elif op in ("REST.GET.OBJECT", "REST.HEAD.OBJECT") and r.random() < 0.07:
            status, err = 404, "NoSuchKey"
        elif r.random() < 0.01:
            status, err = 503, "SlowDown"
        elif op == "REST.DELETE.OBJECT":
            status = 204
        objsize = r.randint(800, 90000)
        if status == 200 and op == "REST.GET.OBJECT":
            sent = str(objsize)
        elif status == 200 and op == "REST.GET.BUCKET":
            sent = str(r.randint(2000, 60000))
        elif status in (403, 404, 503):
            sent = str(r.randint(240, 420)) if method != "HEAD" else "-"
        else:
            sent = "-"
        if op in ("REST.PUT.OBJECT", "REST.GET.OBJECT", "REST.HEAD.OBJECT", "REST.COPY.OBJECT") and status == 200:
            osz = str(objsize)
        else:
            osz = "-"
        total = r.randint(4, 60) if op != "REST.PUT.OBJECT" else r.randint(20, 900)
        if status == 503:
            total = r.randint(1000, 5000)
        turn = "-" if status >= 400 and r.random() < 0.5 else str(max(1, total - r.randint(0, total - 1)))
        t = utc(cur)
        reqid = alnum(r, 16, "0123456789ABCDEF")
        hostid = alnum(r, 76, string.ascii_letters + string.digits + "+/") + "="
        ua = r.choice(uas)
        sig = "-" if requester == "-" else "SigV4"
        cipher, auth = ("ECDHE-RSA-AES128-GCM-SHA256", "AuthHeader") if requester != "-" else ("TLS_AES_128_GCM_SHA256", "-")
        line = (f"{owner} {bucket} [{t.strftime('%d/%b/%Y:%H:%M:%S')} +0000] {client} {requester} {reqid} {op} {enc(key) if key != '-' else '-'} "
                f"\"{uri}\" {status} {err} {sent} {osz} {total} {turn} \"-\" \"{ua}\" - {hostid} {sig} {cipher} {auth} "
                f"{bucket}.s3.eu-central-2.amazonaws.com TLSv1.{'3' if requester == '-' else '2'} - {'Yes' if status == 200 and r.random() < 0.1 else '-'}")
        f = dict(client=client, status=status, method=method, path=path, duration=total)
        if sent != "-":
            f["bytes"] = int(sent)
        if requester != "-":
            f["user"] = requester
        C.ev(line, utc(cur // 1_000_000 * 1_000_000), None, **f)
    C.count_where("status", "404")
    C.stat("max", "duration", "ms")
    C.stat("sum", "bytes", "b")
    C.top("client")
    C.top("user")
    C.count_contains("NoSuchKey")
    C.count_where("method", "PUT")
    return C


# --------------------------------------------------------------------------------------
# f18 ingress-nginx controller pod output (access lines + klog + nginx error lines)
# --------------------------------------------------------------------------------------

def f18(r):
    C = Case("f18-ingress-nginx", "ingress-nginx-controller.log",
             "Kubernetes ingress-nginx controller pod log (kubectl logs): default log-format-upstream access lines mixed with controller klog lines and nginx error-log lines")
    cur = us_of(2026, 8, 29, 9, 58, 40)
    clients = [("203.0.113.140", 26), ("198.51.100.9", 11), ("192.0.2.88", 10), ("10.244.3.1", 9), ("203.0.113.61", 8),
               ("198.51.100.201", 6)]
    routes = [("GET", "/v1/track/{tn}", "tracking-tracking-api-8080", ["10.244.1.17:8080", "10.244.2.9:8080"], 45),
              ("POST", "/v1/labels", "labels-label-svc-9000", ["10.244.1.40:9000"], 15),
              ("PUT", "/v1/parcels/{tn}/status", "dockyard-dockyard-api-8080", ["10.244.2.21:8080", "10.244.3.8:8080"], 10),
              ("GET", "/v1/depots/{depot}", "dockyard-dockyard-api-8080", ["10.244.2.21:8080", "10.244.3.8:8080"], 12),
              ("DELETE", "/v1/parcels/{tn}/hold", "dockyard-dockyard-api-8080", ["10.244.2.21:8080"], 3),
              ("GET", "/static/app.9c1f.js", "tracking-tracking-web-80", ["10.244.1.5:80"], 8)]
    uas = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.0.0 Safari/537.36",
           "FerrowickScanner/2.6.0 (Android 14; Zebra TC53)", "okhttp/4.12.0", "python-requests/2.32.3", "curl/8.9.1"]

    def klog(letter, src, msg):
        nonlocal cur
        cur += r.randint(100, 90_000)
        t = utc(cur)
        C.ev(f"{letter}{t.strftime('%m%d %H:%M:%S')}.{t.microsecond:06d}       7 {src}] {msg}", utc(cur // 1_000_000 * 1_000_000),
             {"I": "INFO", "W": "WARN", "E": "ERROR"}[letter])

    def nginx_err(lvl, wid, msg):
        t = utc(cur)
        C.ev(f"{t.strftime('%Y/%m/%d %H:%M:%S')} [{lvl}] {wid}#{wid}: {msg}", utc(cur // 1_000_000 * 1_000_000),
             {"error": "ERROR", "warn": "WARN", "notice": "NOTICE"}[lvl])

    klog("I", "main.go:205", "\"Creating API client\" host=\"https://10.96.0.1:443\"")
    klog("I", "main.go:249", "\"Running in Kubernetes cluster\" major=\"1\" minor=\"29\" git=\"v1.29.6-eks-db838b0\" state=\"clean\" commit=\"2f1c7d4ee3d2\" platform=\"linux/amd64\"")
    klog("I", "nginx.go:271", "\"Starting NGINX Ingress controller\"")
    klog("I", "controller.go:190", "\"Configuration changes detected, backend reload required\"")
    klog("I", "controller.go:210", "\"Backend successfully reloaded\"")
    while len(C.events) < 1250:
        cur += int(r.expovariate(1 / 13.0) * 1_000_000) + 1
        roll = r.random()
        if roll < 0.012:
            klog("I", "event.go:364", f"Event(v1.ObjectReference{{Kind:\"Ingress\", Namespace:\"tracking\", Name:\"tracking-api\", UID:\"{uuid4(r)}\", APIVersion:\"networking.k8s.io/v1\", ResourceVersion:\"{r.randint(100000, 999999)}\", FieldPath:\"\"}}): type: 'Normal' reason: 'Sync' Scheduled for sync")
            klog("I", "controller.go:190", "\"Configuration changes detected, backend reload required\"")
            klog("I", "controller.go:210", "\"Backend successfully reloaded\"")
            nginx_err("notice", r.randint(20, 40), "signal process started")
            continue
        if roll < 0.018:
            klog("W", "controller.go:1214", "Service \"dockyard/dockyard-api\" does not have any active Endpoint.")
            continue
        if roll < 0.020:
            klog("E", "leaderelection.go:369", "Failed to update lock: Put \"https://10.96.0.1:443/apis/coordination.k8s.io/v1/namespaces/ingress-nginx/leases/ingress-nginx-leader\": context deadline exceeded")
            continue
        client = pick(r, clients)
        rid = hexs(r, 32)
        ts = utc(cur).strftime("%d/%b/%Y:%H:%M:%S") + " +0000"
        if roll < 0.023:
            # TLS handshake sent to the plain HTTP port: nginx logs the raw bytes as the request line
            junk = "\\x16\\x03\\x01\\x00\\xCA\\x01\\x00\\x00\\xC6\\x03\\x03" + "".join(f"\\x{r.randint(0, 255):02X}" for _ in range(6))
            rtj = f"0.{r.randint(1, 99):03d}"
            C.ev(f"{client} - - [{ts}] \"{junk}\" 400 150 \"-\" \"-\" 0 {rtj} [] [] - - - - {rid}",
                 utc(cur // 1_000_000 * 1_000_000), None, client=client, status=400, bytes=150, duration=float(rtj) * 1000)
            continue
        m, p, up, addrs, _ = pick(r, [(x, x[4]) for x in routes])
        p = p.replace("{tn}", tracking(r)).replace("{depot}", r.choice(DEPOTS))
        status = pick(r, [(200, 84), (201, 0), (304, 3), (400, 2), (404, 4), (499, 1), (502, 2), (503, 1), (504, 1)])
        if m == "POST" and status == 200:
            status = 201
        if m == "DELETE" and status == 200:
            status = 204
        if status in (502, 503, 504):
            m = "GET"
            p = f"/v1/track/{tracking(r)}"
            up, addrs = "tracking-tracking-api-8080", ["10.244.1.17:8080", "10.244.2.9:8080"]
        ut = r.lognormvariate(-4.0, 1.0)
        if status == 504:
            ut = 60.0 + r.uniform(0, 0.004)
        if p.startswith("/v1/labels"):
            ut += r.uniform(0.2, 1.8)
        ut = round(max(ut, 0.001), 3)
        rt = round(ut + r.choice([0, 0, 0.001, 0.002]), 3)
        if status in (204, 304):
            size = 0
        elif status >= 400:
            size = r.choice([150, 146, 548, 122])
        elif p.startswith("/static"):
            size = 183_220
        else:
            size = r.randint(120, 9000)
        reqlen = r.randint(200, 700) + (r.randint(500, 4000) if m in ("POST", "PUT") else 0)
        addr = r.choice(addrs)
        if status == 502 and r.random() < 0.5:
            a2 = [a for a in addrs if a != addr] or addrs
            up_addr = f"{addr}, {a2[0]}"
            up_len = f"0, {size}"
            up_time = f"{round(r.uniform(0.001, 0.01), 3):.3f}, {ut:.3f}"
            up_status = "502, 502"
        elif status == 499:
            up_addr, up_len, up_time, up_status = addr, "0", f"{ut:.3f}", "-"
            size = 0
        else:
            up_addr, up_len, up_time, up_status = addr, str(size), f"{ut:.3f}", str(status)
        ua = r.choice(uas)
        ref = "-" if r.random() < 0.7 else f"https://track.ferrowick.io/t/{tracking(r)}"
        line = (f"{client} - - [{ts}] \"{m} {p} HTTP/2.0\" {status} {size} \"{ref}\" \"{ua}\" {reqlen} {rt:.3f} "
                f"[{up}] [] {up_addr} {up_len} {up_time} {up_status} {rid}")
        C.ev(line, utc(cur // 1_000_000 * 1_000_000), None, client=client, method=m, path=p, status=status, bytes=size,
             duration=float(f"{rt:.3f}") * 1000)
        if status == 504:
            cur += 1000
            nginx_err("error", r.randint(20, 40), f"*{r.randint(100000, 999999)} upstream timed out (110: Operation timed out) while reading response header from upstream, client: {client}, server: track.ferrowick.io, request: \"GET {p} HTTP/2.0\", upstream: \"http://{addr}{p}\", host: \"track.ferrowick.io\"")
        if status == 502 and r.random() < 0.7:
            cur += 1000
            nginx_err("error", r.randint(20, 40), f"*{r.randint(100000, 999999)} connect() failed (111: Connection refused) while connecting to upstream, client: {client}, server: track.ferrowick.io, request: \"GET {p} HTTP/2.0\", upstream: \"http://{addr}{p}\", host: \"track.ferrowick.io\"")
    C.count_where("status", "502")
    C.count_where("method", "PUT")
    C.stat("max", "duration", "ms")
    C.stat("sum", "bytes", "b")
    C.top("client")
    C.count_contains("upstream timed out")
    C.count_contains("Backend successfully reloaded")
    return C


# --------------------------------------------------------------------------------------
# f19 Zabbix server log (zabbix_server.log: "  pid:yyyymmdd:hhmmss.mmm message")
# --------------------------------------------------------------------------------------

def f19(r):
    C = Case("f19-zabbix-server", "zabbix_server.log", "Zabbix server 6.4 log file (%6li:%Y%m%d:%H%M%S.%03ld prefix, no level)")
    cur = us_of(2026, 2, 23, 9, 15, 2) + 123_000

    def ev(pid, msg):
        t = utc(cur)
        C.ev(f"{pid:6d}:{t.strftime('%Y%m%d:%H%M%S')}.{t.microsecond // 1000:03d} {msg}", utc(cur // 1_000_000 * 1_000_000), None, pid=str(pid))

    main = 1201
    for m in ["Starting Zabbix Server. Zabbix 6.4.8 (revision 6a7d3e4a5b6).", "****** Enabled features ******",
              "SNMP monitoring:           YES", "IPMI monitoring:           YES", "Web monitoring:            YES",
              "VMware monitoring:         YES", "SMTP authentication:       YES", "ODBC:                      YES",
              "SSH support:               YES", "IPv6 support:              YES", "TLS support:               YES",
              "******************************", "using configuration file: /etc/zabbix/zabbix_server.conf",
              "current database version (mandatory/optional): 06040000/06040034", "required mandatory version: 06040000",
              "server #0 started [main process]"]:
        cur += r.randint(0, 20_000)
        ev(main, m)
    procs = ["service manager", "configuration syncer", "alert manager", "alerter", "alerter", "alerter", "preprocessing manager",
             "lld manager", "lld worker", "lld worker", "housekeeper", "timer", "http poller", "discoverer", "history syncer",
             "history syncer", "history syncer", "history syncer", "escalator", "proxy poller", "self-monitoring", "task manager",
             "poller", "poller", "poller", "poller", "poller", "unreachable poller", "trapper", "trapper", "trapper", "trapper",
             "trapper", "icmp pinger", "history poller", "availability manager", "trigger housekeeper", "odbc poller"]
    pids = {}
    counters = collections.Counter()
    for i, p in enumerate(procs, 1):
        cur += r.randint(100, 3000)
        counters[p] += 1
        pid = main + 13 + i
        pids.setdefault(p, []).append(pid)
        ev(pid, f"server #{i} started [{p} #{counters[p]}]")
    hosts = ["dock-db-01", "dock-db-02", "edge-07", "edge-12", "zrh2-scale-gw", "waw1-printer-hub", "bsl1-ups-01", "lod2-cctv-nvr"]
    flaky = ["zrh2-scale-gw", "lod2-cctv-nvr"]
    items = ["system.cpu.load[all,avg1]", "net.if.in[eth0]", "vfs.fs.size[/,pused]", "agent.ping", "proc.num[postgres]"]
    next_hk = cur + 3600 * 1_000_000
    while len(C.events) < 1600:
        cur += int(r.expovariate(1 / 55.0) * 1_000_000) + 1
        if cur >= next_hk:
            hk = pids["housekeeper"][0]
            ev(hk, "executing housekeeper")
            cur += r.randint(1_000_000, 40_000_000)
            ev(hk, f"housekeeper [deleted {r.randint(1000, 900000)} hist/trends, 0 items/triggers, {r.randint(0, 90)} events, {r.randint(0, 20)} problems, {r.randint(0, 5)} sessions, 0 alarms, 0 audit items, 0 autoreg_host, 0 records in {r.uniform(0.5, 90):.6f} sec, idle for 1 hour(s)]")
            next_hk += 3600 * 1_000_000
            continue
        kind = pick(r, [("unreach", 30), ("poller", 18), ("notsupp", 10), ("trapper", 12), ("slow", 4), ("alert", 3),
                        ("cfg", 4), ("vmware", 1)])
        host = r.choice(flaky) if r.random() < 0.7 else r.choice(hosts)
        item = r.choice(items)
        if kind == "unreach":
            pid = pids["unreachable poller"][0]
            ev(pid, r.choice([f"Zabbix agent item \"{item}\" on host \"{host}\" failed: another network error, wait for 15 seconds",
                              f"temporarily disabling Zabbix agent checks on host \"{host}\": interface unavailable",
                              f"enabling Zabbix agent checks on host \"{host}\": interface became available"]))
        elif kind == "poller":
            pid = r.choice(pids["poller"])
            ev(pid, r.choice([f"Zabbix agent item \"{item}\" on host \"{host}\" failed: first network error, wait for 15 seconds",
                              f"resuming Zabbix agent checks on host \"{host}\": connection restored",
                              f"SNMP agent item \"ifHCInOctets.{r.randint(1, 48)}\" on host \"{host}\" failed: first network error, wait for 15 seconds"]))
        elif kind == "notsupp":
            pid = r.choice(pids["poller"] + pids["history syncer"])
            if r.random() < 0.7:
                ev(pid, f"item \"{host}:{item}\" became not supported: Cannot obtain filesystem information: [2] No such file or directory")
            else:
                ev(pid, f"item \"{host}:{item}\" became supported")
        elif kind == "trapper":
            pid = r.choice(pids["trapper"])
            ev(pid, f"cannot send list of active checks to \"10.70.{r.randint(1, 9)}.{r.randint(2, 250)}\": host [{r.choice(['edge-19', 'kiosk-Łódź-03', 'zrh2-tablet-11'])}] not found")
        elif kind == "slow":
            pid = r.choice(pids["history syncer"])
            ids = ",".join(str(r.randint(40000, 99999)) for _ in range(r.randint(40, 160)))
            ev(pid, f"slow query: {r.uniform(3.0, 30.0):.6f} sec, \"select i.itemid,i.hostid,i.status,i.type,i.value_type,i.key_,i.snmp_community,i.snmp_oid,i.port from items i,hosts h where i.hostid=h.hostid and i.itemid in ({ids})\"")
        elif kind == "alert":
            pid = r.choice(pids["alerter"])
            ev(pid, f"Failed sending data to the peer: connection to smtp.ferrowick.io:587 failed: timed out (media type \"Email\", recipient \"{r.choice(['oncall', 'j.okafor', 'dispatch-zrh'])}@ferrowick.io\")")
        elif kind == "cfg":
            ev(pids["configuration syncer"][0], "forced reloading of the configuration cache")
        else:
            ev(pids["http poller"][0], f"cannot process item \"web.test.fail[Tracking {r.choice(PLACES)}]\": step \"open\" failed: HTTP error 503")
    C.top("pid")
    C.distinct("pid")
    C.count_where("pid", str(pids["housekeeper"][0]))
    C.count_contains("became not supported")
    C.count_contains("slow query")
    return C


# --------------------------------------------------------------------------------------
# f20 Laravel (Monolog LineFormatter, storage/logs/laravel.log)
# --------------------------------------------------------------------------------------

def f20(r):
    C = Case("f20-laravel-monolog", "laravel.log", "Laravel 10 storage/logs/laravel.log (Monolog LineFormatter: [Y-m-d H:i:s] env.LEVEL: message {context} with inline [stacktrace] blocks)")
    cur = us_of(2026, 6, 30, 6, 0, 3)
    users = [(17, 30), (4, 12), (231, 10), (88, 8), (1093, 6)]
    VEN = "/var/www/html/vendor/laravel/framework/src/Illuminate"

    def jd(obj):
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)

    def ev(level, msg, ctx=None, **f):
        t = utc(cur)
        if ctx:
            cj = jd(ctx)
            # allowInlineLineBreaks: JSON "\n" escapes become real newlines
            cj = cj.replace("\\n", "\n")
            line = f"[{t.strftime('%Y-%m-%d %H:%M:%S')}] production.{level}: {msg} {cj} "
        else:
            line = f"[{t.strftime('%Y-%m-%d %H:%M:%S')}] production.{level}: {msg}  "
        lv = {"WARNING": "WARN"}.get(level, level)
        C.ev(line, utc(cur // 1_000_000 * 1_000_000), lv, **f)

    def frames(lst):
        return "\n".join(f"#{i} {fr}" for i, fr in enumerate(lst)) + f"\n#{len(lst)} {{main}}"

    http_tail = [f"{VEN}/Pipeline/Pipeline.php(183): Illuminate\\Routing\\Pipeline->Illuminate\\Routing\\{{closure}}(Object(Illuminate\\Http\\Request))",
                 f"{VEN}/Routing/Router.php(799): Illuminate\\Pipeline\\Pipeline->then(Object(Closure))",
                 f"{VEN}/Routing/Router.php(776): Illuminate\\Routing\\Router->runRouteWithinStack(Object(Illuminate\\Routing\\Route), Object(Illuminate\\Http\\Request))",
                 f"{VEN}/Foundation/Http/Kernel.php(175): Illuminate\\Pipeline\\Pipeline->then(Object(Closure))",
                 f"{VEN}/Foundation/Http/Kernel.php(144): Illuminate\\Foundation\\Http\\Kernel->sendRequestThroughRouter(Object(Illuminate\\Http\\Request))",
                 "/var/www/html/public/index.php(51): Illuminate\\Foundation\\Http\\Kernel->handle(Object(Illuminate\\Http\\Request))"]
    while len(C.events) < 620:
        cur += int(r.expovariate(1 / 95.0) * 1_000_000) + 1
        kind = pick(r, [("info", 50), ("debug", 15), ("warn", 12), ("notice", 5), ("db", 5), ("curl", 5), ("key", 4), ("crit", 1)])
        tn = tracking(r)
        if kind == "info":
            ev("INFO", f"Parcel {tn} manifested", {"depot": r.choice(DEPOTS), "carrier": r.choice(["posta-ch", "dhl", "inpost"]),
                                                   "weight_kg": round(r.uniform(0.2, 30), 1), "recipient": r.choice(PEOPLE)})
        elif kind == "debug":
            ev("DEBUG", f"Cache miss for parcel:{tn}")
        elif kind == "warn":
            ev("WARNING", "Carrier API slow", {"carrier": "posta-ch", "elapsed_ms": r.randint(3000, 9000), "endpoint": "https://api.posta-ch.example/v1/labels"})
        elif kind == "notice":
            ev("NOTICE", f"Delivery address normalised for {tn}: \"{r.choice(PLACES)}\"")
        elif kind == "crit":
            ev("CRITICAL", "Queue worker exceeded memory limit (512MB), restarting", {"queue": "labels", "job": "App\\Jobs\\PrintLabel"})
        else:
            user = pick(r, users) if r.random() < 0.85 else None
            if kind == "db":
                sql = f"select * from `parcels` where `tracking_no` = {tn} limit 1"
                msg = f"SQLSTATE[HY000] [2002] Connection refused (Connection: mysql, SQL: {sql})"
                exc = (f"[object] (Illuminate\\Database\\QueryException(code: 2002): {msg} at {VEN}/Database/Connection.php:822)\n[stacktrace]\n"
                       + frames([f"{VEN}/Database/Connection.php(776): Illuminate\\Database\\Connection->runQueryCallback('select * from `...', Array, Object(Closure))",
                                 f"{VEN}/Database/Connection.php(421): Illuminate\\Database\\Connection->run('select * from `...', Array, Object(Closure))",
                                 f"{VEN}/Database/Query/Builder.php(2913): Illuminate\\Database\\Connection->select('select * from `...', Array, true)",
                                 f"{VEN}/Database/Eloquent/Builder.php(710): Illuminate\\Database\\Query\\Builder->get(Array)",
                                 "/var/www/html/app/Http/Controllers/ParcelLookupController.php(31): Illuminate\\Database\\Eloquent\\Builder->first()",
                                 f"{VEN}/Routing/Controller.php(54): App\\Http\\Controllers\\ParcelLookupController->show('" + tn + "')"] + http_tail)
                       + "\n\n[previous exception] [object] (PDOException(code: 2002): SQLSTATE[HY000] [2002] Connection refused at "
                       + f"{VEN}/Database/Connectors/Connector.php:65)\n[stacktrace]\n"
                       + frames([f"{VEN}/Database/Connectors/Connector.php(65): PDO->__construct('mysql:host=mysq...', 'dockyard', Object(SensitiveParameterValue), Array)",
                                 f"{VEN}/Database/Connectors/Connector.php(44): Illuminate\\Database\\Connectors\\Connector->createPdoConnection('mysql:host=mysq...', 'dockyard', Object(SensitiveParameterValue), Array)",
                                 f"{VEN}/Database/Connectors/MySqlConnector.php(24): Illuminate\\Database\\Connectors\\Connector->createConnection('mysql:host=mysq...', Array, Array)"] + http_tail[-2:])
                       + "\n")
            elif kind == "curl":
                msg = "cURL error 28: Operation timed out after 10001 milliseconds with 0 bytes received (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for https://api.posta-ch.example/v1/labels"
                user = None
                exc = (f"[object] (Illuminate\\Http\\Client\\ConnectionException(code: 0): {msg} at {VEN}/Http/Client/PendingRequest.php:941)\n[stacktrace]\n"
                       + frames([f"{VEN}/Support/helpers.php(248): Illuminate\\Http\\Client\\PendingRequest->Illuminate\\Http\\Client\\{{closure}}(1)",
                                 f"{VEN}/Http/Client/PendingRequest.php(903): retry(3, Object(Closure), 100, Object(Closure))",
                                 "/var/www/html/app/Services/Carriers/PostaChClient.php(58): Illuminate\\Http\\Client\\PendingRequest->post('https://api.pos...', Array)",
                                 "/var/www/html/app/Jobs/PrintLabel.php(44): App\\Services\\Carriers\\PostaChClient->createLabel(Object(App\\Models\\Parcel))",
                                 f"{VEN}/Container/BoundMethod.php(36): App\\Jobs\\PrintLabel->handle(Object(App\\Services\\Carriers\\PostaChClient))",
                                 f"{VEN}/Queue/Worker.php(389): Illuminate\\Queue\\Jobs\\Job->fire()",
                                 f"{VEN}/Queue/Console/WorkCommand.php(139): Illuminate\\Queue\\Worker->daemon('redis', 'labels', Object(Illuminate\\Queue\\WorkerOptions))"])
                       + "\n")
            else:
                msg = "Undefined array key \"weight_kg\""
                exc = (f"[object] (ErrorException(code: 0): {msg} at /var/www/html/app/Http/Controllers/LabelController.php:72)\n[stacktrace]\n"
                       + frames([f"{VEN}/Foundation/Bootstrap/HandleExceptions.php(255): Illuminate\\Foundation\\Bootstrap\\HandleExceptions->handleError(2, 'Undefined array...', '/var/www/html/a...', 72)",
                                 "/var/www/html/app/Http/Controllers/LabelController.php(72): Illuminate\\Foundation\\Bootstrap\\HandleExceptions->Illuminate\\Foundation\\Bootstrap\\{closure}(2, 'Undefined array...', '/var/www/html/a...', 72)",
                                 f"{VEN}/Routing/Controller.php(54): App\\Http\\Controllers\\LabelController->store(Object(App\\Http\\Requests\\StoreLabelRequest))"] + http_tail)
                       + "\n")
            ctx = {}
            f = {}
            if user is not None:
                ctx["userId"] = user
                f["user"] = user
            ctx["exception"] = exc
            ev("ERROR", msg, ctx, **f)
    C.top("user")
    C.distinct("user")
    C.count_contains("[previous exception]")
    C.count_contains("ParcelLookupController.php(31)")
    C.count_contains("PostaChClient->createLabel")
    C.count_contains("Parcel FW-")
    return C


# --------------------------------------------------------------------------------------

CASES = [f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20]


def main():
    if os.path.isdir(CASES_DIR):
        shutil.rmtree(CASES_DIR)
    os.makedirs(CASES_DIR)
    total = 0
    for i, fn in enumerate(CASES, 1):
        r = random.Random(SEED * 1000 + i)
        case = fn(r)
        truth, size = case.write()
        total += size
        print(f"{case.cid:32s} {truth['events']:5d} events {size / 1024:7.1f} KB  {truth['first_time']} .. {truth['last_time']}")
    print(f"total {total / 1024:.1f} KB")


if __name__ == "__main__":
    main()
