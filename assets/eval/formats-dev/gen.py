#!/usr/bin/env python3
"""Generator for the formats-dev evaluation set (DEV split).

Run from this directory:   python3 gen.py
It rewrites cases/<id>/<logfile> and cases/<id>/truth.json for all 20 cases.
Standard library only, deterministic (seed 20261203).  Every truth value is
computed from the generator's own event records while the log is written,
never by parsing the written file back.
"""
import collections
import datetime as dt
import decimal
import json
import os
import random
import re
import shutil

SEED = 20261203
HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")

CANON = ("FATAL", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG", "TRACE")

# ---------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------


class Ev:
    """One log event.  text may span several lines ('\\n' separated, no final
    newline).  t is the truth time (log clock; UTC when the log carries an
    offset/Z/epoch).  level is a canonical level or None.  f holds role values
    (duration in integer nanoseconds, bytes in integer bytes)."""

    __slots__ = ("text", "t", "level", "f")

    def __init__(self, text, t, level=None, **f):
        self.text = text
        self.t = t
        self.level = level
        self.f = f


class Line:
    """A physical line that is not an event (blank line, buffer marker)."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------


class Clock:
    """Monotonic clock with exponential gaps."""

    def __init__(self, rng, start, mean_gap_s):
        self.rng = rng
        self.t = start
        self.mean = mean_gap_s

    def tick(self, mean=None):
        m = self.mean if mean is None else mean
        us = int(self.rng.expovariate(1.0 / m) * 1e6) + 1
        self.t = self.t + dt.timedelta(microseconds=us)
        return self.t

    def small(self, max_ms=40):
        self.t = self.t + dt.timedelta(microseconds=self.rng.randint(50, max_ms * 1000))
        return self.t


def wpick(rng, pairs):
    """pairs: list of (value, weight)."""
    tot = sum(w for _, w in pairs)
    x = rng.random() * tot
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


def lognorm_ns(rng, median_ms, sigma=0.9, lo_ns=20_000, hi_ns=None):
    import math
    v = int(rng.lognormvariate(math.log(median_ms * 1e6), sigma))
    v = max(v, lo_ns)
    if hi_ns:
        v = min(v, hi_ns)
    return v


def go_float(x):
    r = repr(float(x))
    if "e" in r or "E" in r:
        r = format(decimal.Decimal(r), "f")
    if r.endswith(".0"):
        r = r[:-2]
    return r


def _frac(n, width):
    s = str(n).rjust(width, "0").rstrip("0")
    return "." + s if s else ""


def go_dur(ns):
    """Go time.Duration.String()."""
    if ns == 0:
        return "0s"
    if ns < 1000:
        return "%dns" % ns
    if ns < 1_000_000:
        return "%d%sµs" % (ns // 1000, _frac(ns % 1000, 3))
    if ns < 1_000_000_000:
        return "%d%sms" % (ns // 1_000_000, _frac(ns % 1_000_000, 6))
    secs, frac = divmod(ns, 1_000_000_000)
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    out = "%d%ss" % (s, _frac(frac, 9))
    if h or m:
        out = "%dm" % m + out
    if h:
        out = "%dh" % h + out
    return out


def rust_dur(ns):
    """Rust core::time::Duration Debug formatting ({:?})."""
    if ns >= 1_000_000_000:
        return "%d%ss" % (ns // 1_000_000_000, _frac(ns % 1_000_000_000, 9))
    if ns >= 1_000_000:
        return "%d%sms" % (ns // 1_000_000, _frac(ns % 1_000_000, 6))
    if ns >= 1000:
        return "%d%sµs" % (ns // 1000, _frac(ns % 1000, 3))
    return "%dns" % ns


def go_quote(s):
    """strconv.Quote for the characters we use."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class Num:
    """Pre-formatted JSON number."""

    __slots__ = ("s",)

    def __init__(self, s):
        self.s = s


def jstr(s):
    return json.dumps(s, ensure_ascii=False)


def jd(o, fl=go_float, sp=False):
    """Compact JSON with insertion order kept.  sp=True gives zap's console
    'spaced' style ({"k": "v", "n": 1})."""
    kv = ": " if sp else ":"
    sep = ", " if sp else ","
    if isinstance(o, Num):
        return o.s
    if isinstance(o, dict):
        return "{" + sep.join(jstr(k) + kv + jd(v, fl, sp) for k, v in o.items()) + "}"
    if isinstance(o, (list, tuple)):
        return "[" + sep.join(jd(v, fl, sp) for v in o) + "]"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if o is None:
        return "null"
    if isinstance(o, int):
        return str(o)
    if isinstance(o, float):
        return fl(o)
    return jstr(o)


EPOCH = dt.datetime(1970, 1, 1)


def epoch_ns(t, rng):
    us = (t - EPOCH) // dt.timedelta(microseconds=1)
    return us * 1000 + rng.randrange(1000)


MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DOW = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def clf_time(t, off="+0000"):
    return "%02d/%s/%04d:%02d:%02d:%02d %s" % (t.day, MON[t.month - 1], t.year, t.hour, t.minute, t.second, off)


def ip_pool(rng, prefix, n):
    seen = set()
    out = []
    while len(out) < n:
        ip = "%s.%d.%d" % (prefix, rng.randint(0, 40), rng.randint(2, 250))
        if ip not in seen:
            seen.add(ip)
            out.append(ip)
    return out


# company flavour: Halcyon Ferryworks, a (fictional) Nordic ferry operator
PORTS = ["Göteborg", "Frederikshavn", "Kiel", "Oslo", "Tromsø", "Ærøskøbing", "Świnoujście",
         "Hirtshals", "Kristiansand", "Mariehamn", "Île-d'Yeu", "Łeba"]
PORT_CODES = ["GOT", "FDH", "KIE", "OSL", "TOS", "ARO", "SWI", "HIR", "KRS", "MHQ", "IDY", "LEB"]
VESSELS = ["MV Skarv", "MV Tern", "MV Ørnen", "MV Kittiwake", "MV Petrel", "MV Lundefugl", "MV Æda"]
ROUTES = ["GOT-FDH", "KIE-OSL", "HIR-KRS", "SWI-YST", "MHQ-TKU", "ARO-SVE", "TOS-SKN"]
PEOPLE = ["a.lindqvist", "m.oduya", "j.ferreira", "k.nakamura", "s.oberg", "p.nowak", "l.haugen",
          "t.brennan", "r.sandoval", "e.kowalczyk", "h.aaltonen", "d.mbeki", "n.quist", "f.ricci"]
BROWSER_UAS = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
]
BOT_UAS = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "curl/8.5.0",
    "python-requests/2.32.3",
]


def long_blob(rng, n_chars):
    """A long JSON-ish payload with some unicode, for very long lines."""
    parts = []
    i = 0
    while sum(len(p) for p in parts) < n_chars:
        who = rng.choice(["Åsa Lindqvist", "Jürgen Böhm", "Zoë Ferreira", "Łukasz Nowak", "Søren Ødegård",
                          "Mika Häkkinen", "Chloé Marchand", "Αλέξης Παππάς", "Иван Петров", "山田 太郎"])
        parts.append('{"seq":%d,"name":"%s","cabin":"%s%d","meal":"%s"}' % (
            i, who, rng.choice("ABCDE"), rng.randint(100, 699), rng.choice(["veg", "std", "halal", "none"])))
        i += 1
    return '{"passengers":[' + ",".join(parts) + "]}"


# ---------------------------------------------------------------------------
# case 01: Rust tracing_subscriber fmt (Full, ANSI off)
# ---------------------------------------------------------------------------


def c01(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 6, 58, 11, 402117), 13.0)

    def ts(t):
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06dZ" % t.microsecond

    def line(t, lvl, spans, target, msg, fields):
        s = "%s %5s " % (ts(t), lvl)
        if spans:
            s += ":".join(n + ("{" + fs + "}" if fs else "") for n, fs in spans) + ": "
        s += target + ": " + msg
        if fields:
            s += " " + " ".join("%s=%s" % kv for kv in fields)
        return s

    def ev(t, lvl, spans, target, msg, fields, **f):
        e = Ev(line(t, lvl, spans, target, msg, fields), t, lvl, logger=target, **f)
        items.append(e)
        return e

    def startup():
        t = clock.small()
        ev(t, "INFO", [], "halcyon_booking", "starting booking-api", [("version", '"4.12.0"'), ("listen", "0.0.0.0:8080"), ("workers", "8")])
        d = lognorm_ns(rng, 40, 0.3)
        ev(clock.small(), "INFO", [], "halcyon_booking::db", "connection pool ready", [("max_connections", "32"), ("elapsed", rust_dur(d))], duration=d)
        ev(clock.small(), "DEBUG", [], "halcyon_booking::fares", "fare cache warmed", [("routes", str(len(ROUTES))), ("entries", str(rng.randint(900, 1400)))])

    startup()
    rid = 0
    paths = [("GET", "/v2/sailings", 30), ("GET", "/v2/bookings/{id}", 18), ("POST", "/v2/bookings", 14),
             ("POST", "/v2/fares/quote", 12), ("PUT", "/v2/bookings/{id}/passengers", 5),
             ("DELETE", "/v2/bookings/{id}", 6), ("GET", "/v2/ports/{port}/departures", 8)]
    tables = {"/v2/sailings": "sailings", "/v2/bookings": "bookings", "/v2/fares/quote": "fares",
              "/v2/ports": "departures"}
    target_n = 1560
    panic_done = False
    long_done = 0
    while len(items) < target_n:
        k = wpick(rng, [("http", 52), ("db", 17), ("hyper", 9), ("h2", 5), ("tides", 7), ("fare_err", 5),
                        ("auth", 4), ("long", 1)])
        t = clock.tick()
        if k in ("http", "db", "fare_err"):
            rid += 1
            m, p, _ = wpick(rng, [((a, b, w), w) for a, b, w in paths])
            p = p.replace("{id}", "HF%06d" % rng.randint(1, 999999)).replace("{port}", rng.choice(PORT_CODES))
            span = ("request", "id=%d method=%s path=%s" % (rid, m, p))
            if k == "db" or rng.random() < 0.3:
                tbl = next((v for kk, v in tables.items() if p.startswith(kk)), "bookings")
                d = lognorm_ns(rng, 0.9, 1.1, lo_ns=41_000)
                ev(t, "DEBUG", [span, ("db_query", 'table="%s"' % tbl)], "halcyon_booking::db", "query ok",
                   [("rows", str(rng.randint(0, 60))), ("elapsed", rust_dur(d))], duration=d, method=m)
                t = clock.small()
            if k == "fare_err":
                err = wpick(rng, [("connection reset by peer (os error 104)", 5), ("operation timed out", 3),
                                  ("upstream returned 502 Bad Gateway", 2)])
                ev(t, "ERROR", [span], "halcyon_booking::fares", "fare lookup failed",
                   [("error", err), ("route", '"%s"' % rng.choice(ROUTES))], method=m)
                t = clock.small()
                status = rng.choice([502, 503, 500])
            else:
                status = wpick(rng, [(200, 80), (404, 5), (409, 2), (422, 3), (500, 1), (503, 2)])
                if status == 200 and m == "POST":
                    status = 201
                if status == 200 and m == "DELETE":
                    status = 204
            d = lognorm_ns(rng, 14, 1.0, lo_ns=180_000)
            if rng.random() < 0.02:
                d = rng.randint(1_000_000_000, 4_800_000_000)
            if d >= 1_000_000_000:
                ev(t, "WARN", [span], "halcyon_booking::http", "slow request",
                   [("elapsed", rust_dur(d)), ("status", str(status))], duration=d, status=status, method=m)
            elif status >= 500:
                ev(t, "ERROR", [span], "halcyon_booking::http", "request failed",
                   [("status", str(status)), ("elapsed", rust_dur(d))], duration=d, status=status, method=m)
            else:
                ev(t, "INFO", [span], "halcyon_booking::http", "request completed",
                   [("status", str(status)), ("elapsed", rust_dur(d))], duration=d, status=status, method=m)
        elif k == "hyper":
            ev(t, "DEBUG", [], "hyper::proto::h1::io", "flushed %d bytes" % rng.randint(120, 18000), [])
        elif k == "h2":
            frame = rng.choice(["Settings { flags: (0x1: ACK) }", "Ping { ack: true, payload: [0, 0, 0, 0, 0, 0, 0, 7] }",
                                "WindowUpdate { stream_id: StreamId(0), size_increment: 983041 }"])
            ev(t, "TRACE", [("conn", "peer=10.8.%d.%d:443" % (rng.randint(0, 3), rng.randint(2, 200)))],
               "h2::codec::framed_write", "send", [("frame", frame)])
        elif k == "tides":
            port = rng.choice(PORTS)
            d = lognorm_ns(rng, 180, 0.6)
            ev(t, "INFO", [("tide_refresh", "")], "halcyon_booking::tides", "tide table refreshed",
               [("port", '"%s"' % port), ("entries", str(rng.randint(24, 96))), ("elapsed", rust_dur(d))], duration=d)
        elif k == "auth":
            ev(t, "WARN", [], "halcyon_booking::auth", "token rejected",
               [("reason", '"%s"' % rng.choice(["expired", "bad signature", "unknown kid"])), ("user_id", str(rng.randint(1000, 99999)))])
        elif k == "long" and long_done < 3:
            long_done += 1
            body = long_blob(rng, rng.randint(2500, 4200)).replace('"', '\\"')
            ev(t, "WARN", [("request", "id=%d method=POST path=/v2/bookings" % (rid + 1))], "halcyon_booking::http",
               "request body rejected: schema validation failed", [("body", '"%s"' % body)], method="POST")
            rid += 1
        if not panic_done and len(items) > target_n * 0.55 and k == "http":
            # std panic hook output of a spawned tokio task, written to the same
            # file (stdout+stderr appended); no timestamp -> continuation lines
            panic_done = True
            items[-1].text += ("\nthread 'tokio-runtime-worker' panicked at src/fares/cache.rs:214:37:"
                               "\ncalled `Option::unwrap()` on a `None` value"
                               "\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace")
    checks = [
        {"kind": "count_where", "role": "status", "value": "503"},
        {"kind": "count_where", "role": "method", "value": "DELETE"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "min", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "logger"},
        {"kind": "count_contains", "text": "os error 104"},
    ]
    return dict(file="booking-api.log",
                software="Rust tracing-subscriber fmt layer, default Full format, ANSI off (tracing 0.1 / tracing-subscriber 0.3)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 02: Go zap production JSON (gin + gin-contrib/zap)
# ---------------------------------------------------------------------------


def c02(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 5, 0, 3, 118204), 24.0)
    clients = [("10.20.3.14", 34), ("10.20.3.15", 14), ("10.20.7.40", 10), ("10.20.7.41", 9),
               ("172.16.4.22", 6), ("10.20.9.3", 5), ("10.20.9.4", 5)]
    uas = ["halcyon-portal/3.2.1 (+okhttp/4.12.0)", "manifest-cli/1.8.0", "Go-http-client/1.1",
           "kube-probe/1.31"]

    def zline(d):
        return jd(d)

    def ts_of(t):
        ns = epoch_ns(t, rng)
        return Num(go_float(ns / 1e9))

    def stack(frames):
        return "\n".join("%s\n\t%s" % fr for fr in frames)

    gin_frames = [
        ("github.com/gin-contrib/zap.GinzapWithConfig.func1", "/go/pkg/mod/github.com/gin-contrib/zap@v1.1.4/zap.go:128"),
        ("github.com/gin-gonic/gin.(*Context).Next", "/go/pkg/mod/github.com/gin-gonic/gin@v1.10.0/context.go:185"),
        ("github.com/gin-gonic/gin.(*Engine).handleHTTPRequest", "/go/pkg/mod/github.com/gin-gonic/gin@v1.10.0/gin.go:633"),
        ("github.com/gin-gonic/gin.(*Engine).ServeHTTP", "/go/pkg/mod/github.com/gin-gonic/gin@v1.10.0/gin.go:589"),
        ("net/http.serverHandler.ServeHTTP", "/usr/local/go/src/net/http/server.go:3210"),
        ("net/http.(*conn).serve", "/usr/local/go/src/net/http/server.go:2092"),
    ]
    save_frames = [
        ("github.com/halcyonferry/manifest-gateway/internal/store.(*Store).SaveManifest", "/src/internal/store/manifest.go:77"),
        ("github.com/halcyonferry/manifest-gateway/internal/sync.(*Worker).flush", "/src/internal/sync/worker.go:203"),
        ("github.com/halcyonferry/manifest-gateway/internal/sync.(*Worker).Run", "/src/internal/sync/worker.go:96"),
    ]
    push_frames = [
        ("github.com/halcyonferry/manifest-gateway/internal/customs.(*Client).Push", "/src/internal/customs/client.go:142"),
        ("github.com/halcyonferry/manifest-gateway/internal/sync.(*Worker).push", "/src/internal/sync/worker.go:171"),
        ("github.com/halcyonferry/manifest-gateway/internal/sync.(*Worker).Run", "/src/internal/sync/worker.go:101"),
    ]

    def add(t, d, level, **f):
        items.append(Ev(zline(d), t, level, **f))

    t = clock.t
    add(t, {"level": "info", "ts": ts_of(t), "caller": "cmd/gateway/main.go:58", "msg": "starting manifest-gateway",
            "version": "2.19.3", "addr": ":8443"}, "INFO")
    target = 1020
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("access", 66), ("sync", 12), ("push_warn", 5), ("push_err", 3), ("save_err", 2),
                        ("tls", 3), ("cache", 6)])
        if k == "access":
            ip = wpick(rng, clients)
            m, p = wpick(rng, [(("GET", "/api/v1/manifests"), 20), (("GET", "/api/v1/manifests/{id}"), 30),
                               (("POST", "/api/v1/manifests"), 18), (("DELETE", "/api/v1/manifests/{id}"), 5),
                               (("GET", "/api/v1/vessels/{v}/manifest"), 15), (("GET", "/healthz"), 12)])
            p = p.replace("{id}", str(rng.randint(10000, 99999))).replace("{v}", str(rng.randint(257000000, 257999999)))
            q = ""
            if p == "/api/v1/manifests" and m == "GET":
                q = "since=%s&limit=%d" % ((t - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:00:00Z"), rng.choice([50, 100, 200]))
            status = wpick(rng, [(200, 85), (201 if m == "POST" else 200, 6), (400, 3), (404, 3), (502, 2), (500, 1)])
            if m == "DELETE" and status == 200:
                status = 204
            if p == "/healthz":
                status = 200
            lat = lognorm_ns(rng, 4 if p == "/healthz" else 22, 1.0, lo_ns=90_000)
            if status == 502:
                lat = rng.randint(2_000_000_000, 9_000_000_000)
            ua = uas[3] if p == "/healthz" else rng.choice(uas[:3])
            fields = {"status": status, "method": m, "path": p, "query": q, "ip": ip, "user-agent": ua,
                      "latency": Num(go_float(lat / 1e9)), "time": t.strftime("%Y-%m-%dT%H:%M:%SZ")}
            if status >= 500:
                errmsg = ("upstream customs API: EOF" if status == 502 else "pq: canceling statement due to statement timeout")
                d = {"level": "error", "ts": ts_of(t), "caller": "zap@v1.1.4/zap.go:128", "msg": errmsg}
                d.update(fields)
                d["stacktrace"] = stack(gin_frames)
                add(t, d, "ERROR", status=status, duration=lat, client=ip, method=m)
            else:
                d = {"level": "info", "ts": ts_of(t), "caller": "zap@v1.1.4/zap.go:128", "msg": p}
                d.update(fields)
                add(t, d, "INFO", status=status, duration=lat, client=ip, method=m)
        elif k == "sync":
            add(t, {"level": "info", "ts": ts_of(t), "logger": "sync", "caller": "sync/worker.go:118",
                    "msg": "manifest batch pushed", "vessel": rng.choice(VESSELS), "batch": rng.randint(1000, 9999),
                    "records": rng.randint(3, 420), "port": rng.choice(PORTS)}, "INFO")
        elif k == "cache":
            add(t, {"level": "info", "ts": ts_of(t), "logger": "cache", "caller": "cache/lru.go:64",
                    "msg": "evicted stale entries", "evicted": rng.randint(1, 300), "size": rng.randint(2000, 5000)}, "INFO")
        elif k == "push_warn":
            add(t, {"level": "warn", "ts": ts_of(t), "logger": "customs", "caller": "customs/client.go:97",
                    "msg": "retrying push", "attempt": rng.randint(1, 3), "vessel": rng.choice(VESSELS),
                    "error": "Post \"https://customs-gw.example.eu/v2/manifests\": net/http: TLS handshake timeout"}, "WARN")
        elif k == "push_err":
            add(t, {"level": "error", "ts": ts_of(t), "logger": "sync", "caller": "sync/worker.go:171",
                    "msg": "push to customs API failed", "vessel": rng.choice(VESSELS), "attempt": 4,
                    "error": "Post \"https://customs-gw.example.eu/v2/manifests\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                    "stacktrace": stack(push_frames)}, "ERROR")
        elif k == "save_err":
            add(t, {"level": "error", "ts": ts_of(t), "logger": "sync", "caller": "store/manifest.go:77",
                    "msg": "could not persist manifest", "manifest_id": rng.randint(10000, 99999),
                    "error": "failed to connect to `user=gateway database=manifests`: 10.20.1.5:5432 (pg-primary): dial error: timeout: context deadline exceeded",
                    "stacktrace": stack(save_frames)}, "ERROR")
        elif k == "tls":
            # net/http's ErrorLog -> std "log" package on the same stderr
            items.append(Ev("%s http: TLS handshake error from %s:%d: %s" % (
                t.strftime("%Y/%m/%d %H:%M:%S"), rng.choice(["10.20.9.200", "192.168.40.7", "10.20.3.14"]),
                rng.randint(30000, 65000), rng.choice(["EOF", "remote error: tls: bad certificate",
                                                        "tls: client offered only unsupported versions: [302 301]"])),
                t, None))
    checks = [
        {"kind": "count_where", "role": "status", "value": "502"},
        {"kind": "count_where", "role": "method", "value": "DELETE"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "client"},
        {"kind": "count_contains", "text": "store.(*Store).SaveManifest"},
    ]
    return dict(file="manifest-gateway.log",
                software="Go uber-go/zap NewProduction() JSON encoder (epoch-float ts, stacktrace on error) with gin-contrib/zap access logging; plus Go std log lines from net/http on the same stderr",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 03: Go zap development console encoder
# ---------------------------------------------------------------------------


def c03(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 13, 2, 44, 871000), 9.0)

    def ts(t):
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)

    def zl(t, lvl, name, caller, msg, fields, stack=None):
        parts = [ts(t), lvl]
        if name:
            parts.append(name)
        parts += [caller, msg]
        s = "\t".join(parts)
        if fields:
            s += "\t" + jd(fields, sp=True)
        if stack:
            s += "\n" + "\n".join("%s\n\t%s" % fr for fr in stack)
        return s

    loop_stack = [
        ("github.com/halcyonferry/cargo-planner/internal/planner.(*Loop).step", "/build/internal/planner/loop.go:131"),
        ("github.com/halcyonferry/cargo-planner/internal/planner.(*Loop).Run", "/build/internal/planner/loop.go:64"),
        ("main.run", "/build/cmd/planner/main.go:88"),
        ("main.main", "/build/cmd/planner/main.go:41"),
        ("runtime.main", "/usr/local/go/src/runtime/proc.go:272"),
    ]
    lanes_stack = [
        ("github.com/halcyonferry/cargo-planner/internal/planner/lanes.(*Packer).Fit", "/build/internal/planner/lanes/packer.go:210"),
        ("github.com/halcyonferry/cargo-planner/internal/planner.(*Loop).step", "/build/internal/planner/loop.go:122"),
        ("github.com/halcyonferry/cargo-planner/internal/planner.(*Loop).Run", "/build/internal/planner/loop.go:64"),
        ("main.run", "/build/cmd/planner/main.go:88"),
        ("main.main", "/build/cmd/planner/main.go:41"),
        ("runtime.main", "/usr/local/go/src/runtime/proc.go:272"),
    ]
    ais_stack = [
        ("github.com/halcyonferry/cargo-planner/internal/ais.(*Feed).reconnect", "/build/internal/ais/feed.go:77"),
        ("github.com/halcyonferry/cargo-planner/internal/ais.(*Feed).Start.func1", "/build/internal/ais/feed.go:45"),
    ]

    def add(t, lvl, name, caller, msg, fields, stack=None, **f):
        canon = {"DEBUG": "DEBUG", "INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR"}[lvl]
        items.append(Ev(zl(t, lvl, name, caller, msg, fields, stack), t, canon, logger=name or None, **f))

    t = clock.t
    add(t, "INFO", "", "planner/main.go:52", "cargo-planner starting", {"version": "0.42.0-dev", "config": "/etc/planner/dev.yaml"})
    add(clock.small(), "DEBUG", "", "planner/main.go:60", "loaded vessels", {"count": len(VESSELS)})
    target = 1250
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("plan", 32), ("lane_dbg", 16), ("ais", 15), ("overflow", 6), ("solver_err", 3),
                        ("ais_warn", 3), ("ais_err", 1), ("plain", 6)])
        if k == "plan":
            d = lognorm_ns(rng, 280, 0.8)
            add(t, "INFO", "planner", "planner/loop.go:77", "plan computed",
                {"vessel": rng.choice(VESSELS), "lanes": rng.randint(6, 18), "vehicles": rng.randint(20, 220),
                 "elapsed": go_dur(d)}, duration=d)
        elif k == "lane_dbg":
            d = lognorm_ns(rng, 0.08, 1.0, lo_ns=2_000)
            add(t, "DEBUG", "planner.lanes", "lanes/packer.go:141", "lane evaluated",
                {"lane": rng.randint(1, 18), "fill": round(rng.uniform(0.1, 0.99), 3), "elapsed": go_dur(d)}, duration=d)
        elif k == "ais":
            add(t, "DEBUG", "ais", "ais/feed.go:102", "position update",
                {"mmsi": rng.randint(257000000, 265999999), "lat": round(rng.uniform(54, 70), 5),
                 "lon": round(rng.uniform(7, 25), 5), "sog": round(rng.uniform(0, 21), 1)})
        elif k == "overflow":
            add(t, "WARN", "planner.lanes", "lanes/packer.go:210", "lane overflow, moving vehicles to next sailing",
                {"vessel": rng.choice(VESSELS), "lane": rng.randint(1, 18), "moved": rng.randint(1, 6)}, lanes_stack)
        elif k == "solver_err":
            d = rng.randint(5_000_000_000, 30_000_000_000)
            add(t, "ERROR", "planner", "planner/loop.go:131", "solver gave up",
                {"vessel": rng.choice(VESSELS), "error": "no feasible assignment within deadline", "elapsed": go_dur(d)},
                loop_stack, duration=d)
        elif k == "ais_warn":
            add(t, "WARN", "ais", "ais/feed.go:77", "AIS feed disconnected, reconnecting",
                {"endpoint": "tcp://ais.halcyonferry.internal:5631", "backoff": go_dur(rng.choice([1, 2, 4, 8]) * 1_000_000_000)}, ais_stack)
        elif k == "ais_err":
            add(t, "ERROR", "ais", "ais/feed.go:77", "AIS feed unreachable",
                {"endpoint": "tcp://ais.halcyonferry.internal:5631", "error": "dial tcp 10.44.0.12:5631: connect: connection refused"}, ais_stack)
        elif k == "plain":
            port = rng.choice(PORTS)
            add(t, "INFO", "", "planner/main.go:131", "tide window updated for %s" % port,
                {"port": port, "window": "%02d:%02d-%02d:%02d" % (rng.randint(0, 11), rng.choice([0, 15, 30, 45]), rng.randint(12, 23), rng.choice([0, 15, 30, 45]))})
    checks = [
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "min", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "logger"},
        {"kind": "count_contains", "text": "planner.(*Loop).Run"},
        {"kind": "count_contains", "text": "lanes.(*Packer).Fit"},
    ]
    return dict(file="cargo-planner.log",
                software="Go uber-go/zap NewDevelopment() console encoder (tab-separated, stack traces from WARN up)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 04: Ruby Logger default formatter
# ---------------------------------------------------------------------------


def c04(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 4, 10, 2, 339120), 46.0)
    sev_canon = {"DEBUG": "DEBUG", "INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR", "FATAL": "FATAL"}

    def rl(t, sev, pid, prog, msg):
        return "%.1s, [%s #%d] %5s -- %s: %s" % (sev, t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d" % t.microsecond,
                                                 pid, sev, prog or "", msg)

    def add(t, sev, pid, prog, msg, **f):
        items.append(Ev(rl(t, sev, pid, prog, msg), t, sev_canon[sev], pid=pid, program=prog or None, **f))

    master = 2101
    workers = [2117, 2118, 2119]
    wweights = [50, 22, 20]
    bt_ais = ["/usr/local/lib/ruby/3.4.0/socket.rb:452:in 'BasicSocket#read_nonblock'",
              "/srv/berthd/lib/berthd/ais/feed.rb:88:in 'Berthd::AIS::Feed#poll'",
              "/srv/berthd/lib/berthd/ais/feed.rb:41:in 'block in Berthd::AIS::Feed#run'",
              "<internal:kernel>:168:in 'Kernel#loop'",
              "/srv/berthd/lib/berthd/ais/feed.rb:39:in 'Berthd::AIS::Feed#run'",
              "/srv/berthd/lib/berthd/worker.rb:57:in 'block (2 levels) in Berthd::Worker#start'"]
    bt_port = ["/usr/local/lib/ruby/3.4.0/net/protocol.rb:229:in 'Net::BufferedIO#rbuf_fill'",
               "/usr/local/lib/ruby/3.4.0/net/protocol.rb:199:in 'Net::BufferedIO#readuntil'",
               "/usr/local/lib/ruby/3.4.0/net/http.rb:2368:in 'Net::HTTP#transport_request'",
               "/srv/berthd/lib/berthd/port_api.rb:33:in 'Berthd::PortAPI#fetch_slots'",
               "/srv/berthd/lib/berthd/scheduler.rb:112:in 'Berthd::Scheduler#tick'",
               "/srv/berthd/lib/berthd/worker.rb:61:in 'block (2 levels) in Berthd::Worker#start'"]

    def boot(t):
        add(t, "INFO", master, None, "Loading config from /etc/berthd/berthd.yml")
        add(clock.small(), "INFO", master, "berthd", "berthd 5.3.1 starting (ruby 3.4.1, %d workers)" % len(workers))
        for w in workers:
            add(clock.small(), "INFO", w, "berthd", "worker %d booted" % w)

    # Logger::LogDevice writes this header when it creates the file (not an event)
    items.append(Line("# Logfile created on %s +0000 by logger.rb/v1.6.4" % clock.t.strftime("%Y-%m-%d %H:%M:%S")))
    boot(clock.t)
    restarted = False
    target = 1420
    while len(items) < target:
        t = clock.tick()
        pid = wpick(rng, list(zip(workers, wweights)))
        k = wpick(rng, [("assign", 26), ("ais_dbg", 30), ("tick", 18), ("overbook", 6), ("ais_err", 3),
                        ("port_err", 2), ("hash", 6), ("release", 9)])
        if k == "assign":
            add(t, "INFO", pid, "berthd", "assigned berth %s%d to %s (eta %02d:%02d, draft %.1fm)" % (
                rng.choice("ABC"), rng.randint(1, 9), rng.choice(VESSELS), rng.randint(0, 23), rng.choice([0, 10, 20, 30, 40, 50]),
                rng.uniform(3.5, 7.2)))
        elif k == "ais_dbg":
            add(t, "DEBUG", pid, "berthd.ais", "AIS position mmsi=%d lat=%.4f lon=%.4f sog=%.1f" % (
                rng.randint(257000000, 265999999), rng.uniform(54, 70), rng.uniform(7, 25), rng.uniform(0, 21)))
        elif k == "tick":
            add(t, "INFO", pid, "berthd.scheduler", "tick took %.3fs, %d vessels, %d changes" % (
                rng.uniform(0.05, 2.4), rng.randint(5, 19), rng.randint(0, 4)))
        elif k == "overbook":
            a, b = rng.sample(VESSELS, 2)
            add(t, "WARN", pid, "berthd.scheduler", "berth %s%d overbooked for %s (%s vs %s) at %s" % (
                rng.choice("ABC"), rng.randint(1, 9), (t + dt.timedelta(hours=rng.randint(1, 9))).strftime("%Y-%m-%d %H:00"), a, b,
                rng.choice(PORTS)))
        elif k == "ais_err":
            add(t, "ERROR", pid, "berthd.ais", "Connection reset by peer (Errno::ECONNRESET)\n" + "\n".join(bt_ais))
        elif k == "port_err":
            add(t, "ERROR", pid, "berthd.scheduler", "Net::ReadTimeout with #<TCPSocket:(closed)> (Net::ReadTimeout)\n" + "\n".join(bt_port))
        elif k == "hash":
            add(t, "INFO", pid, "berthd", '{vessel: "%s", berth: "%s%d", action: :release, by: "%s"}' % (
                rng.choice(VESSELS), rng.choice("ABC"), rng.randint(1, 9), rng.choice(PEOPLE)))
        elif k == "release":
            add(t, "INFO", pid, "berthd", "released berth %s%d (%s departed %s)" % (
                rng.choice("ABC"), rng.randint(1, 9), rng.choice(VESSELS), rng.choice(PORTS)))
        if not restarted and len(items) > target * 0.6:
            restarted = True
            t = clock.tick()
            add(t, "FATAL", workers[2], "berthd", "worker %d exiting: failed to allocate memory (NoMemoryError)" % workers[2])
            add(clock.small(), "WARN", master, "berthd", "worker %d died (signal SIGKILL), respawning" % workers[2])
            workers[2] = 3390
            add(clock.small(500), "INFO", workers[2], "berthd", "worker %d booted" % workers[2])
    checks = [
        {"kind": "top", "role": "pid"},
        {"kind": "distinct", "role": "pid"},
        {"kind": "top", "role": "program"},
        {"kind": "count_where", "role": "program", "value": "berthd.ais"},
        {"kind": "count_contains", "text": "read_nonblock"},
        {"kind": "count_contains", "text": "Net::BufferedIO#rbuf_fill"},
    ]
    return dict(file="berthd.log", software="Ruby stdlib Logger with the default Logger::Formatter (Ruby 3.4)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 05: Node pino + pino-http (express)
# ---------------------------------------------------------------------------


def c05(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 7, 30, 0, 7000), 30.0)
    host = "fare-api-7c9d4b6f8-x2kqm"
    clients = [("10.30.2.17", 36), ("10.30.2.18", 13), ("10.30.5.101", 11), ("10.30.5.102", 10),
               ("10.30.8.9", 8), ("10.30.8.44", 5)]
    lvname = {10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL"}
    state = {"rid": 0}

    def ms(t):
        return (t - EPOCH) // dt.timedelta(milliseconds=1)

    def add(t, level, body, **f):
        d = {"level": level, "time": ms(t), "pid": 1, "hostname": host}
        d.update(body)
        items.append(Ev(jd(d, fl=lambda x: repr(x)), t, lvname[level], **f))

    def boot(t):
        add(t, 30, {"msg": "fare-api listening on :3000"})
        add(clock.small(), 20, {"routes": len(ROUTES), "msg": "route table loaded"})

    boot(clock.t)
    synth_stack = ("Error: failed with status code {code}\n    at ServerResponse.onResFinished (/app/node_modules/pino-http/logger.js:115:39)\n"
                   "    at ServerResponse.emit (node:events:530:35)\n    at onFinish (node:_http_outgoing:1005:10)\n"
                   "    at callback (node:internal/streams/writable:766:21)\n    at afterWrite (node:internal/streams/writable:710:5)\n"
                   "    at afterWriteTick (node:internal/streams/writable:696:10)\n    at process.processTicksAndRejections (node:internal/process/task_queues:89:21)")
    crashed = False
    target = 760
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("req", 72), ("quote", 10), ("dbg", 10), ("stale", 4)])
        if k == "req":
            state["rid"] += 1
            ip = wpick(rng, clients)
            m, url = wpick(rng, [(("GET", "/fares?route={r}&date={d}"), 45), (("POST", "/quotes"), 25),
                                 (("GET", "/quotes/{q}"), 15), (("GET", "/healthz"), 8), (("DELETE", "/quotes/{q}"), 3)])
            url = url.replace("{r}", rng.choice(ROUTES)).replace("{d}", (t + dt.timedelta(days=rng.randint(1, 60))).strftime("%Y-%m-%d"))
            url = url.replace("{q}", "q_%08x" % rng.getrandbits(32))
            status = wpick(rng, [(200, 86), (400, 4), (404, 4), (500, 3), (503, 2)])
            if m == "POST" and status == 200:
                status = 201
            if url == "/healthz":
                status = 200
            rt = int(lognorm_ns(rng, 18, 0.9) / 1e6)
            if status >= 500:
                rt = rng.randint(30, 5200)
            query = {}
            if "?" in url:
                query = dict(kv.split("=", 1) for kv in url.split("?", 1)[1].split("&"))
            req = {"id": state["rid"], "method": m, "url": url, "query": query, "params": {},
                   "headers": {"host": "fare-api.halcyon.svc:3000", "user-agent": rng.choice(["node-fetch/1.0", "halcyon-booking/4.12.0", "okhttp/4.12.0"]),
                               "accept": "application/json"},
                   "remoteAddress": ip, "remotePort": rng.randint(32768, 60999)}
            clen = rng.randint(2, 4800)
            res = {"statusCode": status, "headers": {"content-type": "application/json; charset=utf-8", "content-length": str(clen)}}
            if status >= 500:
                body = {"req": req, "res": res,
                        "err": {"type": "Error", "message": "failed with status code %d" % status,
                                "stack": synth_stack.replace("{code}", str(status))},
                        "responseTime": rt, "msg": "request errored"}
                add(t, 50, body, status=status, duration=rt * 1_000_000, client=ip, method=m)
            else:
                lvl = 40 if status >= 400 else 30
                body = {"req": req, "res": res, "responseTime": rt, "msg": "request completed"}
                add(t, lvl, body, status=status, duration=rt * 1_000_000, client=ip, method=m)
        elif k == "quote":
            add(t, 30, {"route": rng.choice(ROUTES), "fare": round(rng.uniform(29, 640), 2), "currency": rng.choice(["EUR", "NOK", "SEK", "DKK"]),
                        "msg": "quote computed"})
        elif k == "dbg":
            add(t, 20, {"key": "fare:%s:%s" % (rng.choice(ROUTES), t.strftime("%Y%m%d")), "msg": "cache hit"})
        elif k == "stale":
            add(t, 40, {"currency": rng.choice(["NOK", "SEK", "DKK", "PLN"]), "ageSeconds": rng.randint(3700, 9000),
                        "msg": "exchange rate is stale, using last known value – kurs er utdatert"})
        if not crashed and len(items) > target * 0.7:
            crashed = True
            t = clock.tick()
            add(t, 60, {"err": {"type": "TypeError", "message": "Cannot read properties of undefined (reading 'legs')",
                                "stack": "TypeError: Cannot read properties of undefined (reading 'legs')\n    at priceItinerary (/app/src/pricing/itinerary.js:88:31)\n    at /app/src/pricing/index.js:41:22\n    at Array.map (<anonymous>)\n    at computeQuote (/app/src/pricing/index.js:40:33)\n    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)"},
                        "msg": "uncaughtException"})
            state["rid"] = 0
            clock.tick(4.0)
            boot(clock.t)
    checks = [
        {"kind": "count_where", "role": "status", "value": "500"},
        {"kind": "count_where", "role": "method", "value": "POST"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "client"},
        {"kind": "count_contains", "text": "onResFinished"},
    ]
    return dict(file="fare-api.log", software="Node.js pino 9 JSON with pino-http 10 request logging (express)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 06: PHP-FPM master error log
# ---------------------------------------------------------------------------


def c06(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 29, 6, 25, 3), 160.0)
    canon = {"NOTICE": "NOTICE", "WARNING": "WARN", "ERROR": "ERROR", "ALERT": None}
    state = {"next": 48201, "master": 812}
    alive = {"www": [], "booking": []}

    def ts(t):
        return "[%02d-%s-%04d %02d:%02d:%02d]" % (t.day, MON[t.month - 1], t.year, t.hour, t.minute, t.second)

    def add(t, lvl, msg, **f):
        items.append(Ev("%s %s: %s" % (ts(t), lvl, msg), t, canon[lvl], **f))

    def spawn(t, pool):
        pid = state["next"]
        state["next"] += rng.randint(1, 9)
        alive[pool].append(pid)
        add(t, "NOTICE", "[pool %s] child %d started" % (pool, pid), pid=pid)
        return pid

    def boot(t, reload=False):
        if reload:
            add(t, "NOTICE", "Reloading in progress ...")
            add(t, "NOTICE", 'reloading: execvp("/usr/sbin/php-fpm8.3", {"/usr/sbin/php-fpm8.3", "--nodaemonize", "--fpm-config", "/etc/php/8.3/fpm/php-fpm.conf"})')
            add(t, "NOTICE", 'using inherited socket fd=8, "/run/php/php8.3-fpm-www.sock"')
            add(t, "NOTICE", 'using inherited socket fd=9, "/run/php/php8.3-fpm-booking.sock"')
            state["master"] = 911
        add(t, "NOTICE", "fpm is running, pid %d" % state["master"], pid=state["master"])
        add(t, "NOTICE", "ready to handle connections")
        add(t, "NOTICE", "systemd monitor interval set to 10000ms")
        for pool in ("www", "booking"):
            alive[pool] = []
            for _ in range(2):
                spawn(t, pool)

    boot(clock.t)
    noisy = None

    def victim(pool):
        cands = [p for p in alive[pool] if p != noisy]
        if not cands:
            cands = [spawn(clock.small(), pool)]
        pid = rng.choice(cands)
        alive[pool].remove(pid)
        return pid

    deprec = ["PHP Deprecated:  Creation of dynamic property Halcyon\\Fares\\Quote::$legs is deprecated in /var/www/booking/src/Fares/Quote.php on line 41",
              "PHP Deprecated:  strftime(): Function strftime() is deprecated in /var/www/booking/src/View/Timetable.php on line 118",
              "PHP Warning:  Undefined array key \"vessel\" in /var/www/booking/src/Manifest/Row.php on line 63"]
    fatal = ["NOTICE: PHP message: PHP Fatal error:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /var/www/booking/src/Db/Connection.php:27",
             "Stack trace:",
             "#0 /var/www/booking/src/Db/Connection.php(27): PDO->__construct('mysql:host=db-p...', 'booking', Object(SensitiveParameterValue))",
             "#1 /var/www/booking/src/Container.php(88): Halcyon\\Db\\Connection->__construct(Array)",
             "#2 /var/www/booking/src/Http/Kernel.php(52): Halcyon\\Container->get('db')",
             "#3 /var/www/booking/public/index.php(19): Halcyon\\Http\\Kernel->handle(Object(Halcyon\\Http\\Request))",
             "#4 {main}",
             "  thrown in /var/www/booking/src/Db/Connection.php on line 27"]
    reloaded = False
    target = 720
    while len(items) < target:
        t = clock.tick()
        pool = wpick(rng, [("www", 70), ("booking", 30)])
        if not alive[pool]:
            spawn(t, pool)
            continue
        k = wpick(rng, [("spawn", 16), ("exit", 10), ("busy", 6), ("maxch", 3), ("deprec", 22), ("fatal", 2),
                        ("timeout", 3), ("slow", 3), ("err", 1), ("alert", 0.3)])
        if k == "spawn":
            spawn(t, pool)
            if len(alive[pool]) > 14:
                pid = victim(pool)
                add(clock.small(), "NOTICE", "[pool %s] child %d exited with code 0 after %.6f seconds from start" % (
                    pool, pid, rng.uniform(20, 4000)), pid=pid)
        elif k == "exit" and len(alive[pool]) > 2:
            pid = victim(pool)
            add(t, "NOTICE", "[pool %s] child %d exited with code 0 after %.6f seconds from start" % (
                pool, pid, rng.uniform(20, 4000)), pid=pid)
        elif k == "busy" and len(alive[pool]) < 20:
            n = rng.choice([1, 2, 4])
            add(t, "WARNING", "[pool %s] seems busy (you may need to increase pm.start_servers, or pm.min/max_spare_servers), spawning %d children, there are 0 idle, and %d total children" % (
                pool, n, len(alive[pool])))
            for _ in range(n):
                spawn(clock.small(5), pool)
        elif k == "maxch":
            add(t, "WARNING", "[pool %s] server reached pm.max_children setting (24), consider raising it" % pool)
        elif k == "deprec":
            if noisy is None or noisy not in alive["www"]:
                noisy = alive["www"][0] if alive["www"] else None
            pid = noisy if (noisy and rng.random() < 0.55) else rng.choice(alive[pool])
            add(t, "WARNING", '[pool %s] child %d said into stderr: "NOTICE: PHP message: %s"' % (
                "www" if pid == noisy else pool, pid, rng.choice(deprec)), pid=pid)
        elif k == "fatal":
            pid = rng.choice(alive[pool])
            for i, ln in enumerate(fatal):
                add(t, "WARNING", '[pool %s] child %d said into stderr: "%s"' % (pool, pid, ln), pid=pid)
        elif k == "timeout":
            pid = victim(pool)
            route = rng.choice(["checkout", "manifest/export", "timetable&port=T%C3%B8s"])
            add(t, "WARNING", "[pool %s] child %d, script '/var/www/booking/public/index.php' (request: \"POST /index.php?route=%s\") execution timed out (%.6f sec), terminating" % (
                pool, pid, route, rng.uniform(30.0, 30.9)), pid=pid)
            t2 = clock.small(900)
            add(t2, "WARNING", "[pool %s] child %d exited on signal 15 (SIGTERM) after %.6f seconds from start" % (
                pool, pid, rng.uniform(40, 3000)), pid=pid)
            spawn(clock.small(30), pool)
        elif k == "slow":
            pid = rng.choice(alive[pool])
            add(t, "WARNING", "[pool %s] child %d, script '/var/www/booking/public/index.php' (request: \"GET /index.php?route=timetable\") executing too slow (%.6f sec), logging" % (
                pool, pid, rng.uniform(5.0, 9.0)), pid=pid)
            add(t, "NOTICE", "child %d stopped for tracing" % pid, pid=pid)
            add(t, "NOTICE", "about to trace %d" % pid, pid=pid)
            if rng.random() < 0.3:
                add(t, "ERROR", "failed to ptrace(PEEKDATA) pid %d: Input/output error (5)" % pid, pid=pid)
            add(t, "NOTICE", "finished trace of %d" % pid, pid=pid)
        elif k == "err":
            add(t, "ERROR", "unable to read what child say: Bad file descriptor (9)")
        elif k == "alert":
            add(t, "ALERT", "oops, unknown child (%d) exited on signal 9 (SIGKILL). Please open a bug report (https://github.com/php/php-src/issues)." % rng.randint(40000, 48000))
        if not reloaded and len(items) > target * 0.5:
            reloaded = True
            t = clock.tick()
            boot(t, reload=True)
            noisy = None
    checks = [
        {"kind": "top", "role": "pid"},
        {"kind": "count_contains", "text": "execution timed out"},
        {"kind": "count_contains", "text": "Stack trace:"},
        {"kind": "count_contains", "text": "exited on signal 15 (SIGTERM)"},
    ]
    return dict(file="php8.3-fpm.log", software="PHP-FPM 8.3 master error log (error_log = /var/log/php8.3-fpm.log, catch_workers_output = yes)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 07: RabbitMQ 3.9+ (Erlang logger, rabbit_logger_text_fmt)
# ---------------------------------------------------------------------------


def c07(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 0, 0, 7, 224518), 38.0)
    canon = {"debug": "DEBUG", "info": "INFO", "notice": "NOTICE", "warning": "WARN", "error": "ERROR"}
    state = {"pid": 2311}
    node_ip = "10.0.1.5"
    svc = [("fare-api", "fares", "10.30.2.17"), ("booking-api", "booking", "10.8.1.40"),
           ("manifest-gw", "manifests", "10.20.3.14"), ("tidetable", "tides", "10.44.0.31")]

    def ts(t):
        return t.strftime("%Y-%m-%d %H:%M:%S.") + "%06d+00:00" % t.microsecond

    def emit(t, lvl, pid, msg):
        """Every line of a multi-line message gets the full prefix (that is what
        rabbit_logger_text_fmt does), so every physical line is an event."""
        for ln in msg.split("\n"):
            pre = "%s [%s] %s" % (ts(t), lvl, pid)
            items.append(Ev(pre + (" " + ln if ln else ""), t, canon[lvl], pid=pid))

    def newpid():
        state["pid"] += rng.randint(3, 400)
        return "<0.%d.0>" % state["pid"]

    t = clock.t
    for ln in ["", " Starting RabbitMQ 3.12.14 on Erlang 26.2.5.2 [jit]",
               " Copyright (c) 2007-2024 Broadcom Inc and/or its subsidiaries.",
               " Licensed under the MPL 2.0. Website: https://rabbitmq.com"]:
        emit(t, "info", "<0.233.0>", ln)
    emit(clock.small(), "notice", "<0.44.0>", "Application syslog exited with reason: stopped")
    emit(clock.small(), "info", "<0.233.0>", "Time to start RabbitMQ: 9212 ms")
    shovel = "<0.742.0>"
    alarm = "<0.481.0>"
    conns = []
    target = 1500
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("open", 22), ("close", 14), ("abrupt", 8), ("hb", 3), ("chan", 3), ("shovel", 15),
                        ("alarm", 0.35), ("crash", 0.25), ("queue", 4)])
        if k == "open":
            user, vhost, ip = rng.choice(svc)
            pid = newpid()
            port = rng.randint(32768, 60999)
            conns.append((pid, user, vhost, ip, port))
            emit(t, "info", pid, "accepting AMQP connection %s (%s:%d -> %s:5672)" % (pid, ip, port, node_ip))
            emit(clock.small(8), "info", pid, "connection %s (%s:%d -> %s:5672): user '%s' authenticated and granted access to vhost '%s'" % (
                pid, ip, port, node_ip, user, vhost))
        elif k in ("close", "abrupt", "hb", "chan") and conns:
            pid, user, vhost, ip, port = conns.pop(rng.randrange(len(conns)))
            peer = "(%s:%d -> %s:5672, vhost: '%s', user: '%s')" % (ip, port, node_ip, vhost, user)
            if k == "close":
                emit(t, "info", pid, "closing AMQP connection %s %s" % (pid, peer))
            elif k == "abrupt":
                emit(t, "warning", pid, "closing AMQP connection %s %s:\nclient unexpectedly closed TCP connection" % (pid, peer))
            elif k == "hb":
                emit(t, "error", pid, "closing AMQP connection %s (%s:%d -> %s:5672):\nmissed heartbeats from client, timeout: 60s" % (pid, ip, port, node_ip))
            else:
                emit(t, "error", pid, "Channel error on connection %s %s, channel 1:\noperation queue.declare caused a channel exception precondition_failed: inequivalent arg 'x-queue-type' for queue '%s.events' in vhost '%s': received none but current is the value 'quorum' of type 'longstr'" % (
                    pid, peer, vhost, vhost))
                conns.append((pid, user, vhost, ip, port))
        elif k == "shovel":
            if rng.random() < 0.7:
                emit(t, "warning", shovel, "Shovel 'fare-events-dr' in virtual host 'fares': failed to connect to destination amqp://dr-mq-01.halcyonferry.internal: econnrefused, retrying in 5s")
            else:
                emit(t, "info", shovel, "Shovel 'fare-events-dr' in virtual host 'fares' connected to destination and is now running")
        elif k == "queue":
            qi = rng.randrange(4)
            q = ["fares.events", "booking.commands", "manifests.outbox", "tides.updates"][qi]
            vh = ["fares", "booking", "manifests", "tides"][qi]
            emit(t, "info", "<0.%d.0>" % (1711 + 37 * qi), "queue '%s' in vhost '%s': detected a new leader {'%%2F_%s','rabbit@mq-0%d'} in term %d" % (
                q, vh, q, rng.randint(1, 3), rng.randint(4, 40)))
        elif k == "alarm":
            emit(t, "warning", alarm, "memory resource limit alarm set on node 'rabbit@mq-01'.\n\n"
                 "**********************************************************\n"
                 "*** Publishers will be blocked until this alarm clears ***\n"
                 "**********************************************************\n")
            t2 = clock.tick(60)
            emit(t2, "info", alarm, "memory resource limit alarm cleared on node 'rabbit@mq-01'")
            emit(t2, "info", alarm, "memory resource limit alarm cleared across the cluster")
        elif k == "crash":
            cp = newpid()
            emit(t, "error", cp, "** Generic server %s terminating\n** Last message in was {'$gen_cast',{deliver,{delivery,false,true,<0.%d.0>}}}\n"
                 "** When Server state == {ch,{conf,running,rabbit_framing_amqp_0_9_1,1,<0.%d.0>}}\n"
                 "** Reason for termination ==\n** {timeout,{gen_server,call,[<0.%d.0>,flush,5000]}}" % (
                     cp, rng.randint(1000, 9000), rng.randint(1000, 9000), rng.randint(1000, 9000)))
            emit(clock.small(3), "error", cp, "  crasher:\n    initial call: rabbit_channel:init/1\n    pid: %s\n    registered_name: []\n"
                 "    exception exit: {timeout,{gen_server,call,[<0.2870.0>,flush,5000]}}\n"
                 "      in function  gen_server2:terminate/3 (gen_server2.erl, line 1183)\n"
                 "    ancestors: [<0.2869.0>,<0.2866.0>,<0.2860.0>,<0.2859.0>,rabbit_tcp_client_sup,\n"
                 "                  rabbit_sup,<0.262.0>]\n    message_queue_len: 0\n    messages: []\n    links: [<0.2869.0>]\n"
                 "    dictionary: [{channel_operation_timeout,15000},\n"
                 "                  {process_name,{rabbit_channel,{<<\"10.30.2.17:51234 -> 10.0.1.5:5672\">>,1}}}]\n"
                 "    trap_exit: true\n    status: running\n    heap_size: 10958\n    stack_size: 29\n    reductions: 31554\n  neighbours:" % cp)
    checks = [
        {"kind": "top", "role": "pid"},
        {"kind": "count_contains", "text": "client unexpectedly closed TCP connection"},
        {"kind": "count_contains", "text": "initial call: rabbit_channel:init/1"},
        {"kind": "count_contains", "text": "Publishers will be blocked"},
        {"kind": "count_contains", "text": "authenticated and granted access"},
    ]
    return dict(file="rabbit@mq-01.log", software="RabbitMQ 3.12 log file (Erlang logger + rabbit_logger_text_fmt, every line of a multi-line message prefixed)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 08: Caddy v2 JSON access log
# ---------------------------------------------------------------------------


def c08(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 17, 40, 12, 901223), 9.5)
    clients = [("198.51.100.23", 30), ("203.0.113.80", 11), ("192.0.2.45", 9), ("198.51.100.77", 8),
               ("203.0.113.9", 7), ("2001:db8:4:1::2f", 6), ("192.0.2.201", 5)]
    hosts = ["www.halcyonferry.example", "book.halcyonferry.example"]
    target = 500
    while len(items) < target:
        t = clock.tick()
        ip = wpick(rng, clients)
        host = rng.choice(hosts)
        m, uri = wpick(rng, [(("GET", "/"), 10), (("GET", "/timetable/{r}"), 20), (("GET", "/assets/app.{h}.js"), 14),
                             (("GET", "/api/availability?route={r}&date={d}"), 22), (("POST", "/api/bookings"), 10),
                             (("GET", "/admin/manifests"), 6), (("GET", "/favicon.ico"), 5), (("GET", "/wp-login.php"), 3),
                             (("HEAD", "/"), 2)])
        uri = uri.replace("{r}", rng.choice(ROUTES)).replace("{h}", "%08x" % rng.getrandbits(32))
        uri = uri.replace("{d}", (t + dt.timedelta(days=rng.randint(1, 90))).strftime("%Y-%m-%d"))
        status = wpick(rng, [(200, 84), (304, 5), (404, 4), (502, 2), (500, 1)])
        if uri == "/wp-login.php":
            status = 404
        if m == "POST" and status == 200:
            status = 201
        user = ""
        if uri.startswith("/admin"):
            user = wpick(rng, [("ops-ingrid", 60), ("ops-tomasz", 40)])
            if rng.random() < 0.15:
                status, user = 401, ""
        size = 0
        if status in (200, 201):
            size = rng.randint(180000, 420000) if uri.endswith(".js") else rng.randint(400, 38000)
        elif status in (404, 401, 500, 502):
            size = rng.choice([0, 0, 154, 1245])
        dur = lognorm_ns(rng, 3.2, 1.1, lo_ns=40_000)
        if uri.startswith("/api") or status >= 500:
            dur = lognorm_ns(rng, 45, 1.0)
        if status == 502:
            dur = rng.randint(1_000_000_000, 10_000_000_000)
        https = not ip.startswith("192.0.2.2")
        req = {"remote_ip": ip, "remote_port": str(rng.randint(1025, 65535)), "client_ip": ip,
               "proto": "HTTP/2.0" if https else "HTTP/1.1", "method": m, "host": host, "uri": uri,
               "headers": {"User-Agent": [rng.choice(BROWSER_UAS + BOT_UAS)], "Accept-Encoding": ["gzip, deflate, br, zstd"]}}
        if user:
            req["headers"]["Authorization"] = ["REDACTED"]
        if https:
            req["tls"] = {"resumed": rng.random() < 0.3, "version": 772, "cipher_suite": 4865, "proto": "h2", "server_name": host}
        ctype = "text/javascript; charset=utf-8" if uri.endswith(".js") else ("application/json" if uri.startswith("/api") else "text/html; charset=utf-8")
        d = {"level": "error" if status >= 400 else "info", "ts": Num(go_float(epoch_ns(t, rng) / 1e9)),
             "logger": "http.log.access.log0", "msg": "handled request", "request": req,
             "bytes_read": rng.randint(180, 2400) if m == "POST" else 0, "user_id": user,
             "duration": Num(go_float(dur / 1e9)), "size": size, "status": status,
             "resp_headers": {"Server": ["Caddy"], "Content-Type": [ctype]}}
        items.append(Ev(jd(d), t, "ERROR" if status >= 400 else "INFO", client=ip, method=m, status=status,
                        duration=dur, bytes=size, user=user or None, host=host))
    checks = [
        {"kind": "sum", "role": "bytes", "unit": "b"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "client"},
        {"kind": "count_where", "role": "status", "value": "404"},
        {"kind": "count_where", "role": "user", "value": "ops-ingrid"},
        {"kind": "count_where", "role": "method", "value": "POST"},
    ]
    return dict(file="access.log", software="Caddy 2.8 JSON access log (log directive, default json encoder; 4xx/5xx at level error)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 09: HashiCorp hclog (Nomad client agent), local time +0100
# ---------------------------------------------------------------------------


def c09(rng):
    items = []
    OFF = dt.timedelta(hours=1)
    clock = Clock(rng, dt.datetime(2026, 11, 30, 6, 0, 1, 4000), 26.0)  # local wall time (+0100)
    canon = {"TRACE": "TRACE", "DEBUG": "DEBUG", "INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR"}
    bracket = {"TRACE": "[TRACE]", "DEBUG": "[DEBUG]", "INFO": "[INFO] ", "WARN": "[WARN] ", "ERROR": "[ERROR]"}

    def needs_q(s):
        return any(not (0x2D <= ord(c) <= 0x7E) for c in s)

    def hl(t, lvl, name, msg, args):
        s = t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d+0100 " % (t.microsecond // 1000) + bracket[lvl] + " "
        if name:
            s += name + ": "
        s += msg
        if args:
            s += ":"
            for k, v in args:
                raw = False
                if isinstance(v, int):
                    v = str(v)
                elif v == "":
                    v, raw = '""', True
                if "\n" in v:
                    s += "\n  " + k + "=\n"
                    rest = v
                    while True:
                        nl = rest.find("\n")
                        if nl == -1:
                            if rest:
                                s += "  | " + rest + "\n"
                            break
                        s += "  | " + rest[:nl] + "\n"
                        rest = rest[nl + 1:]
                    s += "  "
                elif not raw and needs_q(v):
                    s += " " + k + "=" + go_quote(v)
                else:
                    s += " " + k + "=" + v
        return s

    def add(t, lvl, name, msg, args, **f):
        items.append(Ev(hl(t, lvl, name, msg, args), t - OFF, canon[lvl], logger=name or None, **f))

    def uuid():
        h = "%032x" % rng.getrandbits(128)
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    node = uuid()
    allocs = [(uuid(), tk) for tk in ["fare-api", "booking-api", "tidetable", "redis", "fare-api"]]
    t = clock.t
    add(t, "INFO", "agent", "detected plugin", [("name", "docker"), ("type", "driver"), ("plugin_version", "0.1.0")])
    add(clock.small(), "INFO", "client", "using state directory", [("state_dir", "/opt/nomad/data/client")])
    add(clock.small(), "INFO", "client", "node registration complete", [])
    target = 1480
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("http", 48), ("alloc_upd", 10), ("task_ev", 9), ("trace", 8), ("rendered", 5),
                        ("gc", 4), ("rpc_err", 3), ("driver_err", 2), ("hb_warn", 3), ("stats", 8)])
        if k == "http":
            m, p = wpick(rng, [(("GET", "/v1/agent/health?type=client"), 40), (("GET", "/v1/client/allocation/{a}/stats"), 20),
                               (("GET", "/v1/node/{n}/allocations?index={i}&wait=60000ms"), 12),
                               (("GET", "/v1/client/fs/logs/{a}?follow=true&offset=50000&origin=end&task={t}&type=stderr"), 6),
                               (("PUT", "/v1/client/allocation/{a}/restart"), 4), (("POST", "/v1/client/allocation/{a}/signal"), 2),
                               (("GET", "/v1/metrics?format=prometheus"), 16)])
            a, tk = rng.choice(allocs)
            p = p.replace("{a}", a).replace("{n}", node).replace("{i}", str(rng.randint(20000, 90000))).replace("{t}", tk)
            d = lognorm_ns(rng, 0.9, 1.2, lo_ns=38_000)
            if "wait=" in p:
                d = rng.randint(1_000_000_000, 60_400_000_000)
            if "follow=true" in p:
                d = rng.randint(5_000_000_000, 3_200_000_000_000)
            add(t, "DEBUG", "http", "request complete", [("method", m), ("path", p), ("duration", go_dur(d))],
                method=m, duration=d)
        elif k == "alloc_upd":
            add(t, "DEBUG", "client", "updated allocations", [("index", rng.randint(20000, 90000)), ("total", len(allocs)),
                                                            ("pulled", rng.randint(0, 2)), ("filtered", len(allocs) - 1)])
        elif k == "task_ev":
            a, tk = rng.choice(allocs)
            typ, msg = rng.choice([("Received", "Task received by client"), ("Task Setup", "Building Task Directory"),
                                   ("Driver", "Downloading image"), ("Started", "Task started by client"),
                                   ("Restarting", "Task restarting in 17.61s"), ("Terminated", "Exit Code: 137, Exit Message: \"OOM Killed\"")])
            add(t, "INFO", "client.alloc_runner.task_runner", "Task event", [("alloc_id", a), ("task", tk), ("type", typ),
                                                                            ("msg", msg), ("failed", "false")])
        elif k == "trace":
            a, tk = rng.choice(allocs)
            add(t, "TRACE", "client.alloc_runner.task_runner", "setting task state",
                [("alloc_id", a), ("task", tk), ("state", rng.choice(["pending", "running"]))])
        elif k == "rendered":
            a, tk = rng.choice(allocs)
            add(t, "INFO", "agent", "(runner) rendered \"(dynamic)\" => \"/opt/nomad/data/alloc/%s/%s/secrets/env.vars\"" % (a, tk), [])
        elif k == "gc":
            a, _ = rng.choice(allocs)
            add(t, "INFO", "client.gc", "marking allocation for GC", [("alloc_id", a)])
        elif k == "rpc_err":
            add(t, "ERROR", "client.rpc", "error performing RPC to server", [
                ("error", "rpc error: failed to get conn: dial tcp 10.0.2.11:4647: i/o timeout"),
                ("rpc", "Node.UpdateStatus"), ("server", "10.0.2.11:4647")])
        elif k == "driver_err":
            a, tk = rng.choice(allocs)
            add(t, "ERROR", "client.alloc_runner.task_runner", "running driver failed", [
                ("alloc_id", a), ("task", tk),
                ("error", "2 errors occurred:\n\t* failed to create container: API error (500): failed to mount volume \"fares-cache\": no space left on device\n\t* failed to pull image registry.halcyonferry.internal/%s:2026.11.3: context deadline exceeded\n\n" % tk)])
        elif k == "hb_warn":
            add(t, "WARN", "client", "missed heartbeat", [("req_latency", go_dur(rng.randint(5_000_000, 900_000_000))),
                                                          ("heartbeat_ttl", go_dur(rng.choice([10, 14, 18]) * 1_000_000_000)),
                                                          ("since_last_heartbeat", go_dur(rng.randint(10_000_000_000, 30_000_000_000)))])
        elif k == "stats":
            a, tk = rng.choice(allocs)
            add(t, "DEBUG", "client.alloc_runner.task_runner.task_hook.stats_hook", "failed to start stats collection for task",
                [("alloc_id", a), ("task", tk), ("error", "container stopped")])
    checks = [
        {"kind": "count_where", "role": "method", "value": "PUT"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "min", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "logger"},
        {"kind": "count_contains", "text": "no space left on device"},
        {"kind": "count_contains", "text": "Task restarting in 17.61s"},
    ]
    return dict(file="nomad.log", software="HashiCorp Nomad 1.9 client agent log (go-hclog plain format, local time +0100)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 10: Serilog compact JSON (CLEF)
# ---------------------------------------------------------------------------


def c10(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 8, 0, 0, 312000), 27.0)
    canon = {"Verbose": "TRACE", "Debug": "DEBUG", "Information": "INFO", "Warning": "WARN", "Error": "ERROR", "Fatal": "FATAL"}

    def ts(t):
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d%dZ" % (t.microsecond, rng.randint(0, 9))

    def add(t, lvl, mt, props, r=None, x=None, **f):
        d = {"@t": ts(t), "@mt": mt}
        if r:
            d["@r"] = r
        if lvl != "Information":
            d["@l"] = lvl
        if x:
            d["@x"] = x
        if rng.random() < 0.9:
            d["@tr"] = "%032x" % rng.getrandbits(128)
            d["@sp"] = "%016x" % rng.getrandbits(64)
        d.update(props)
        items.append(Ev(jd(d, fl=lambda v: repr(v)), t, canon[lvl], **f))

    psp_exc = ("System.Net.Http.HttpRequestException: Connection refused (psp.nordpay.example:443)\n"
               " ---> System.Net.Sockets.SocketException (111): Connection refused\n"
               "   at System.Net.Sockets.Socket.AwaitableSocketAsyncEventArgs.ThrowException(SocketError error, CancellationToken cancellationToken)\n"
               "   at System.Net.Sockets.Socket.AwaitableSocketAsyncEventArgs.System.Threading.Tasks.Sources.IValueTaskSource.GetResult(Int16 token)\n"
               "   at System.Net.Sockets.Socket.<ConnectAsync>g__WaitForConnectWithCancellation|285_0(AwaitableSocketAsyncEventArgs saea, ValueTask connectTask, CancellationToken cancellationToken)\n"
               "   at System.Net.Http.HttpConnectionPool.ConnectToTcpHostAsync(String host, Int32 port, HttpRequestMessage initialRequest, Boolean async, CancellationToken cancellationToken)\n"
               "   --- End of inner exception stack trace ---\n"
               "   at System.Net.Http.HttpConnectionPool.ConnectToTcpHostAsync(String host, Int32 port, HttpRequestMessage initialRequest, Boolean async, CancellationToken cancellationToken)\n"
               "   at Halcyon.Payments.Psp.NordpayClient.AuthoriseAsync(ChargeRequest request, CancellationToken ct) in /src/Halcyon.Payments/Psp/NordpayClient.cs:line 88\n"
               "   at Halcyon.Payments.Api.ChargesController.Create(CreateChargeDto dto, CancellationToken ct) in /src/Halcyon.Payments/Api/ChargesController.cs:line 41")
    db_exc = ("Npgsql.NpgsqlException (0x80004005): Exception while reading from stream\n"
              " ---> System.TimeoutException: Timeout during reading attempt\n"
              "   at Npgsql.Internal.NpgsqlConnector.ReadMessageLong(Boolean async, DataRowLoadingMode dataRowLoadingMode, Boolean readingNotifications, Boolean isReadingPrependedMessage)\n"
              "   --- End of inner exception stack trace ---\n"
              "   at Npgsql.NpgsqlDataReader.NextResult(Boolean async, Boolean isConsuming, CancellationToken cancellationToken)\n"
              "   at Halcyon.Payments.Ledger.LedgerRepository.AppendAsync(LedgerEntry entry, CancellationToken ct) in /src/Halcyon.Payments/Ledger/LedgerRepository.cs:line 63")
    paths = [("POST", "/api/charges", 26), ("GET", "/api/charges/{id}", 30), ("POST", "/api/refunds", 8),
             ("GET", "/health/ready", 20), ("POST", "/api/webhooks/nordpay", 16)]
    t = clock.t
    add(t, "Information", "Now listening on: {address}", {"address": "http://[::]:8080", "EventId": {"Id": 14, "Name": "ListeningOnAddress"},
                                                           "SourceContext": "Microsoft.Hosting.Lifetime"})
    add(clock.small(), "Information", "Application started. Press Ctrl+C to shut down.", {"SourceContext": "Microsoft.Hosting.Lifetime"})
    add(clock.small(), "Information", "Hosting environment: {EnvName}", {"EnvName": "Production", "SourceContext": "Microsoft.Hosting.Lifetime"})
    conn = 0
    target = 880
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("req", 62), ("charge", 12), ("webhook_dbg", 8), ("slowpsp", 4), ("psp_err", 2),
                        ("db_err", 1), ("refund", 4), ("verbose", 3)])
        if k in ("req", "psp_err", "db_err"):
            m, p, _ = wpick(rng, [((a, b, w), w) for a, b, w in paths])
            if k == "psp_err":
                m, p = "POST", "/api/charges"
            if k == "db_err":
                m, p = "POST", "/api/refunds"
            p = p.replace("{id}", "ch_%012x" % rng.getrandbits(48))
            ticks = int(lognorm_ns(rng, 11, 1.0, lo_ns=300_000) // 100)  # 100ns ticks
            status = wpick(rng, [(200, 88), (400, 4), (404, 3), (409, 2), (500, 1)])
            if p.startswith("/health"):
                status, ticks = 200, rng.randint(1500, 9000)
            x = None
            if k in ("psp_err", "db_err"):
                status = 500
                ticks = rng.randint(100_000, 300_000_000)
                x = psp_exc if k == "psp_err" else db_exc
            conn += rng.randint(0, 2)
            el = ticks / 10000.0
            props = {"RequestMethod": m, "RequestPath": p, "StatusCode": status, "Elapsed": el,
                     "SourceContext": "Serilog.AspNetCore.RequestLoggingMiddleware",
                     "RequestId": "0HN8%s:%08X" % ("".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUV0123456789") for _ in range(9)), rng.randint(1, 40)),
                     "ConnectionId": "0HN8%s" % "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUV0123456789") for _ in range(9))}
            lvl = "Error" if status >= 500 else "Information"
            add(t, lvl, "HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {Elapsed:0.0000} ms", props,
                r=["%.4f" % el], x=x, status=status, duration=ticks * 100, path=p, method=m)
        elif k == "charge":
            add(t, "Information", "Charged {Amount} {Currency} for booking {BookingRef} via {Provider}",
                {"Amount": round(rng.uniform(29, 1900), 2), "Currency": rng.choice(["EUR", "NOK", "SEK", "DKK"]),
                 "BookingRef": "HF%06d" % rng.randint(1, 999999), "Provider": "Nordpay",
                 "SourceContext": "Halcyon.Payments.Charges.ChargeService"})
        elif k == "webhook_dbg":
            add(t, "Debug", "Webhook {EventType} verified for {PspReference}",
                {"EventType": rng.choice(["AUTHORISATION", "CAPTURE", "REFUND"]), "PspReference": "NP%014d" % rng.randint(0, 10**14),
                 "SourceContext": "Halcyon.Payments.Webhooks.NordpayWebhookHandler"})
        elif k == "slowpsp":
            add(t, "Warning", "Provider {Provider} answered after {Seconds}s, circuit half-open: {Circuit}",
                {"Provider": "Nordpay", "Seconds": rng.randint(4, 19), "Circuit": {"State": "HalfOpen", "Failures": rng.randint(3, 9)},
                 "SourceContext": "Halcyon.Payments.Psp.NordpayClient"})
        elif k == "refund":
            add(t, "Information", "Refund {RefundId} queued for {Amount} {Currency} (reason: {Reason})",
                {"RefundId": "rf_%010x" % rng.getrandbits(40), "Amount": round(rng.uniform(10, 900), 2), "Currency": "EUR",
                 "Reason": rng.choice(["cancelled sailing – storm", "duplicate charge", "customer request"]),
                 "SourceContext": "Halcyon.Payments.Refunds.RefundService"})
        elif k == "verbose":
            add(t, "Verbose", "Polling outbox, {Count} pending", {"Count": rng.randint(0, 12),
                                                                  "SourceContext": "Halcyon.Payments.Outbox.OutboxPoller"})
    checks = [
        {"kind": "count_where", "role": "status", "value": "500"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "path"},
        {"kind": "count_where", "role": "method", "value": "POST"},
        {"kind": "count_contains", "text": "AwaitableSocketAsyncEventArgs.ThrowException"},
        {"kind": "count_contains", "text": "End of inner exception stack trace"},
    ]
    return dict(file="payments-20261130.clef", software="Serilog 4 with Serilog.Formatting.Compact 3 CompactJsonFormatter (CLEF) + Serilog.AspNetCore request logging",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 11: Android logcat -v threadtime
# ---------------------------------------------------------------------------


def c11(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 23, 5, 14, 221000), 4.2)
    canon = {"D": "DEBUG", "I": "INFO", "W": "WARN", "E": "ERROR", "F": "FATAL"}
    seen_buf = set()

    def add(t, pid, tid, lv, tag, msg, buf="main"):
        if buf not in seen_buf:
            seen_buf.add(buf)
            items.append(Line("--------- beginning of %s" % buf))
        s = "%s.%03d %5d %5d %s %-8s: %s" % (t.strftime("%m-%d %H:%M:%S"), t.microsecond // 1000, pid, tid, lv, tag, msg)
        items.append(Ev(s, t, canon[lv], pid=pid, thread=tid, logger=tag))

    app = {"pid": 4127}
    sysu = 1432

    def tids():
        p = app["pid"]
        return {"main": p, "sync": p + 61, "okhttp": [p + 63, p + 64, p + 71], "render": p + 33}

    add(clock.t, app["pid"], app["pid"], "I", "CrewApp", "onCreate: build 2026.11.4 (4120) flavor=prod")
    java_crash_done = native_done = False
    target = 2400
    while len(items) < target:
        t = clock.tick()
        td = tids()
        p = app["pid"]
        k = wpick(rng, [("sync", 26), ("okhttp", 17), ("am", 9), ("choreo", 4), ("chromium", 5), ("bt", 6),
                        ("sync_warn", 4), ("sync_err", 2), ("gc", 10), ("wifi", 5), ("scan", 8)])
        if k == "sync":
            add(t, p, td["sync"], wpick(rng, [("D", 6), ("I", 4)]), "CrewSync",
                rng.choice(["manifest sync finished in %dms (%d rows)" % (rng.randint(80, 4000), rng.randint(0, 420)),
                            "pulling roster for %s" % rng.choice(VESSELS),
                            "cabin status upload ok (deck %d)" % rng.randint(2, 9)]))
        elif k == "okhttp":
            tid = rng.choice(td["okhttp"])
            add(t, p, tid, "D", "OkHttp", rng.choice(["--> GET https://crew-api.halcyonferry.example/v1/roster?vessel=%d" % rng.randint(1, 7),
                                                      "<-- 200 https://crew-api.halcyonferry.example/v1/manifest/HF%06d (%dms)" % (rng.randint(1, 999999), rng.randint(40, 2200)),
                                                      "--> POST https://crew-api.halcyonferry.example/v1/cabins/status (%d-byte body)" % rng.randint(80, 3000)]))
        elif k == "am":
            add(t, sysu, rng.choice([1460, 1511, 1877]), "I", "ActivityManager",
                rng.choice(["Killing %d:com.google.android.apps.maps/u0a142 (adj 985): empty for 1802s" % rng.randint(6000, 9000),
                            "Background started FGS: Allowed [callingPackage: no.halcyonferry.crew; callingUid: 10187; uid: 10187]",
                            "Changes in 10187 4 to 2, 0 to 16"]), buf="system")
        elif k == "choreo":
            add(t, p, p, "I", "Choreographer", "Skipped %d frames!  The application may be doing too much work on its main thread." % rng.randint(31, 120))
        elif k == "chromium":
            add(t, p, p, "I", "chromium", '[INFO:CONSOLE(1)] "Deck plan loaded: %s", source: https://crew-api.halcyonferry.example/deckplan/app.js (1)' % rng.choice(VESSELS))
        elif k == "bt":
            add(t, p, td["main"], "D", "BluetoothAdapter", rng.choice(["isLeEnabled(): ON", "startLeScan(): null", "STATE_ON"]))
        elif k == "sync_warn":
            add(t, p, td["sync"], "W", "CrewSync", "roster fetch slow: %dms, retrying (ørnen-deck-%d)" % (rng.randint(3000, 12000), rng.randint(2, 9)))
        elif k == "sync_err":
            add(t, p, td["sync"], "E", "CrewSync", "upload failed: java.net.SocketTimeoutException: timeout")
        elif k == "gc":
            add(t, p, p + 9, "I", "ferry.crew", "Background concurrent mark compact GC freed %dKB AllocSpace bytes, %d(%dKB) LOS objects, %d%% free, %dMB/%dMB, paused %dus,%dus total %.3fms" % (
                rng.randint(900, 9000), rng.randint(0, 40), rng.randint(0, 900), rng.randint(20, 60), rng.randint(10, 40), rng.randint(40, 80),
                rng.randint(50, 900), rng.randint(20, 500), rng.uniform(20, 400)))
        elif k == "wifi":
            add(t, sysu, 1622, "W", "WifiClientModeImpl", "WifiClientModeImpl: roam to %02x:%02x:%02x:%02x:%02x:%02x rssi=-%d ssid=\"Halcyon-Crew\"" % (
                tuple(rng.randint(0, 255) for _ in range(6)) + (rng.randint(45, 88),)), buf="system")
        elif k == "scan":
            add(t, p, td["main"], "D", "ScanFragment", "barcode decoded: HF%06d cabin %s%d" % (rng.randint(1, 999999), rng.choice("ABCDE"), rng.randint(100, 699)))
        if not java_crash_done and len(items) > target * 0.45:
            java_crash_done = True
            t = clock.tick()
            lines = ["FATAL EXCEPTION: main", "Process: no.halcyonferry.crew, PID: %d" % p,
                     "java.lang.IllegalStateException: Manifest row without cabin: HF088213",
                     "\tat no.halcyonferry.crew.manifest.ManifestAdapter.onBindViewHolder(ManifestAdapter.kt:88)",
                     "\tat no.halcyonferry.crew.manifest.ManifestAdapter.onBindViewHolder(ManifestAdapter.kt:24)",
                     "\tat androidx.recyclerview.widget.RecyclerView$Adapter.bindViewHolder(RecyclerView.java:7847)",
                     "\tat androidx.recyclerview.widget.RecyclerView$Recycler.tryBindViewHolderByDeadline(RecyclerView.java:6625)",
                     "\tat android.os.Handler.dispatchMessage(Handler.java:103)",
                     "\tat android.os.Looper.loopOnce(Looper.java:232)",
                     "\tat android.os.Looper.loop(Looper.java:317)",
                     "\tat android.app.ActivityThread.main(ActivityThread.java:8592)",
                     "\tat java.lang.reflect.Method.invoke(Native Method)",
                     "\tat com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:580)",
                     "\tat com.android.internal.os.ZygoteInit.main(ZygoteInit.java:878)"]
            for ln in lines:
                add(t, p, p, "E", "AndroidRuntime", ln, buf="crash")
            add(clock.small(30), p, p, "I", "Process", "Sending signal. PID: %d SIG: 9" % p)
            add(clock.small(300), sysu, 1511, "I", "ActivityManager", "Process no.halcyonferry.crew (pid %d) has died: fg  TOP " % p, buf="system")
            app["pid"] = 5230
            add(clock.tick(3.0), sysu, 1460, "I", "ActivityManager", "Start proc 5230:no.halcyonferry.crew/u0a187 for next-top-activity {no.halcyonferry.crew/no.halcyonferry.crew.MainActivity}", buf="system")
            add(clock.small(400), 5230, 5230, "I", "CrewApp", "onCreate: build 2026.11.4 (4120) flavor=prod")
        if not native_done and len(items) > target * 0.8:
            native_done = True
            t = clock.tick()
            p = app["pid"]
            add(t, p, p + 33, "F", "libc", "Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000000 in tid %d (RenderThread), pid %d (ferry.crew)" % (p + 33, p))
            dbg = p + 211
            t2 = clock.small(200)
            for ln in ["*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***",
                       "Build fingerprint: 'samsung/gts9xxx/gts9:14/UP1A.231005.007/X716BXXS2BXJ1:user/release-keys'",
                       "Revision: '0'", "ABI: 'arm64'", "Timestamp: %s+0100" % t2.strftime("%Y-%m-%d %H:%M:%S.") + "%09d" % (t2.microsecond * 1000),
                       "pid: %d, tid: %d, name: RenderThread  >>> no.halcyonferry.crew <<<" % (p, p + 33),
                       "signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000000",
                       "backtrace:",
                       "      #00 pc 00000000002c4b1c  /vendor/lib64/egl/libGLESv2_mali.so (BuildId: 1c4a7f0e22)",
                       "      #01 pc 00000000002b19e8  /vendor/lib64/egl/libGLESv2_mali.so (BuildId: 1c4a7f0e22)",
                       "      #02 pc 0000000000263d40  /system/lib64/libhwui.so (android::uirenderer::renderthread::CanvasContext::draw(bool)+640)"]:
                add(t2, dbg, dbg, "F", "DEBUG", ln, buf="crash")
            add(clock.small(500), sysu, 1511, "I", "ActivityManager", "Process no.halcyonferry.crew (pid %d) has died: fg  TOP " % p, buf="system")
            app["pid"] = 6012
            add(clock.tick(2.0), sysu, 1460, "I", "ActivityManager", "Start proc 6012:no.halcyonferry.crew/u0a187 for next-top-activity {no.halcyonferry.crew/no.halcyonferry.crew.MainActivity}", buf="system")
    checks = [
        {"kind": "top", "role": "logger"},
        {"kind": "top", "role": "pid"},
        {"kind": "count_where", "role": "logger", "value": "AndroidRuntime"},
        {"kind": "count_where", "role": "pid", "value": "1432"},
        {"kind": "count_contains", "text": "FATAL EXCEPTION"},
        {"kind": "count_contains", "text": "SEGV_MAPERR"},
    ]
    return dict(file="logcat-threadtime.txt", software="Android logcat -v threadtime (Android 14 device; no year in timestamps)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 12: Python structlog ConsoleRenderer (default dev config, no colours)
# ---------------------------------------------------------------------------


def c12(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 8, 12, 40, 0), 19.0)
    canon = {"debug": "DEBUG", "info": "INFO", "warning": "WARN", "error": "ERROR", "critical": "CRITICAL"}

    def render(v):
        if isinstance(v, str):
            return v
        return repr(v)

    def sl(t, lvl, event, kv):
        s = "%s [%s] " % (t.strftime("%Y-%m-%d %H:%M:%S"), lvl.ljust(9))
        if kv:
            s += event.ljust(30) + " " + " ".join("%s=%s" % (k, render(kv[k])) for k in sorted(kv))
        else:
            s += event
        return s

    def add(t, lvl, event, kv, tb=None, **f):
        s = sl(t, lvl, event, kv)
        if tb:
            s += "\n" + tb
        items.append(Ev(s, t, canon[lvl], **f))

    tb_timeout = """Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/httpcore/_async/http11.py", line 217, in _receive_event
    data = await self._network_stream.read(
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/httpcore/_backends/anyio.py", line 32, in read
    with map_exceptions(exc_map):
  File "/usr/local/lib/python3.12/contextlib.py", line 158, in __exit__
    self.gen.throw(value)
  File "/usr/local/lib/python3.12/site-packages/httpcore/_exceptions.py", line 14, in map_exceptions
    raise to_exc(exc) from exc
httpcore.ReadTimeout: timed out

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/app/tidetable/providers/base.py", line 57, in fetch
    resp = await self._client.get(url, timeout=self.timeout)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/httpx/_client.py", line 1814, in get
    return await self.request(
           ^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/httpx/_transports/default.py", line 118, in map_httpcore_exceptions
    raise mapped_exc(message) from exc
httpx.ReadTimeout: timed out"""
    tb_key = """Traceback (most recent call last):
  File "/app/tidetable/api/routes.py", line 88, in get_window
    station = STATIONS[port_code]
              ~~~~~~~~^^^^^^^^^^^
KeyError: 'SKN'"""
    users = [("booking-api", 40), ("crew-app", 16), ("anon", 14), ("ops:k.nakamura", 6), ("ops:a.lindqvist", 5), ("planner", 9)]
    add(clock.t, "info", "tidetable starting", {"version": "3.4.0", "workers": 4, "pid": 31})
    target = 1450
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("req", 60), ("cache", 14), ("fetch_ok", 8), ("fetch_err", 3), ("keyerr", 1.5),
                        ("stale", 5), ("dbg", 8)])
        if k in ("req", "keyerr"):
            port = rng.choice(PORT_CODES)
            m, p = wpick(rng, [(("GET", "/tides/%s" % port), 55), (("GET", "/tides/%s/window" % port), 25),
                               (("POST", "/subscriptions"), 8), (("GET", "/healthz"), 12)])
            status = wpick(rng, [(200, 90), (404, 5), (422, 3), (503, 2)])
            if m == "POST" and status == 200:
                status = 201
            d = round(lognorm_ns(rng, 9, 0.9, lo_ns=300_000) / 1e6, 2)
            u = wpick(rng, users)
            if k == "keyerr":
                m, p, status = "GET", "/tides/SKN/window", 500
                add(t, "error", "unhandled exception", {"path": p, "request_id": "%016x" % rng.getrandbits(64)}, tb_key)
                t = clock.small()
            add(t, "info" if status < 500 else "error", "request finished", {"method": m, "path": p, "status": status,
                                                                          "duration_ms": d, "user": u},
                status=status, duration=int(round(d * 1_000_000)), user=u, method=m, path=p)
        elif k == "cache":
            add(t, "debug", "cache lookup", {"key": "tides:%s:%s" % (rng.choice(PORT_CODES), t.strftime("%Y%m%d")), "hit": rng.random() < 0.8})
        elif k == "fetch_ok":
            port = rng.choice(PORTS)
            add(t, "info", "upstream fetch ok", {"port": port, "provider": rng.choice(["bsh", "kartverket", "smhi", "dmi"]), "points": rng.randint(96, 288)})
        elif k == "fetch_err":
            add(t, "error", "upstream fetch failed", {"port": rng.choice(PORTS), "provider": rng.choice(["bsh", "kartverket", "smhi", "dmi"]), "attempt": rng.randint(1, 3)}, tb_timeout)
        elif k == "stale":
            add(t, "warning", "serving stale tide table", {"port": rng.choice(PORTS), "age_s": rng.randint(3600, 20000)})
        elif k == "dbg":
            add(t, "debug", "scheduler tick", {"jobs": rng.randint(1, 9), "next_run": (t + dt.timedelta(minutes=5)).strftime("%H:%M:%S")})
    t = clock.tick()
    add(t, "critical", "worker timeout, shutting down", {"pid": 34, "timeout_s": 30})
    checks = [
        {"kind": "count_where", "role": "status", "value": "500"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "user"},
        {"kind": "count_contains", "text": "The above exception was the direct cause"},
        {"kind": "count_contains", "text": "KeyError: 'SKN'"},
        {"kind": "count_where", "role": "method", "value": "POST"},
    ]
    return dict(file="tidetable.log", software="Python structlog 24 default configuration: TimeStamper('%Y-%m-%d %H:%M:%S', local) + ConsoleRenderer(colors=False), plain tracebacks",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 13: Gunicorn access log (default format + %(D)s)
# ---------------------------------------------------------------------------


def c13(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 10, 0, 1, 0), 7.9)
    clients = [("10.12.4.31", 30), ("10.12.4.32", 12), ("10.12.9.7", 10), ("172.20.1.15", 9), ("10.12.6.201", 8),
               ("10.12.6.202", 7), ("192.168.88.14", 4)]
    users = [("crewdesk", 50), ("k.nakamura", 20), ("a.lindqvist", 15), ("p.nowak", 10), ("ops-bot", 5)]
    target = 1800
    while len(items) < target:
        t = clock.tick()
        ip = wpick(rng, clients)
        m, p = wpick(rng, [(("GET", "/roster/"), 20), (("GET", "/roster/{v}/?week={w}"), 18), (("POST", "/roster/swap/"), 6),
                           (("GET", "/static/css/main.{h}.css"), 12), (("GET", "/api/crew/{id}/"), 18),
                           (("GET", "/admin/roster/shift/"), 5), (("POST", "/admin/roster/shift/{id}/change/"), 2),
                           (("GET", "/healthz"), 15), (("PUT", "/api/crew/{id}/"), 4)])
        p = p.replace("{v}", rng.choice(["skarv", "tern", "%C3%B8rnen", "petrel"])).replace("{w}", "2026-W%02d" % rng.randint(44, 52))
        p = p.replace("{h}", "%08x" % rng.getrandbits(32)).replace("{id}", str(rng.randint(100, 4999)))
        status = wpick(rng, [(200, 86), (302, 4), (304, 3), (403, 2), (404, 3), (500, 1), (502, 0.3)])
        if p.startswith("/admin") and rng.random() < 0.2:
            status = 302
        user = "-"
        if p.startswith("/admin") or m in ("POST", "PUT"):
            user = wpick(rng, users)
        size = rng.randint(300, 64000)
        if p.startswith("/static"):
            size = rng.randint(20000, 180000)
        if status in (302, 304):
            size = 0
        if status >= 400:
            size = rng.choice([179, 234, 145])
        if p == "/healthz":
            size, ip = 2, "10.12.0.1"
        bstr = str(size)
        if status == 304:
            bstr, size = "-", None
        dur = lognorm_ns(rng, 24, 1.0, lo_ns=400_000) // 1000
        if status == 500:
            dur = rng.randint(150_000, 30_000_000)
        ref = "-" if rng.random() < 0.6 else "https://crewdesk.halcyonferry.example%s" % rng.choice(["/roster/", "/admin/", "/"])
        ua = rng.choice(BROWSER_UAS) if p != "/healthz" else "kube-probe/1.31"
        s = '%s - %s [%s] "%s %s HTTP/1.1" %d %s "%s" "%s" %d' % (ip, user, clf_time(t), m, p, status, bstr, ref, ua, dur)
        f = dict(client=ip, method=m, status=status, duration=dur * 1000, path=p.split("?")[0])
        if size is not None:
            f["bytes"] = size
        if user != "-":
            f["user"] = user
        items.append(Ev(s, t, None, **f))
    checks = [
        {"kind": "top", "role": "client"},
        {"kind": "sum", "role": "bytes", "unit": "b"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "count_where", "role": "status", "value": "404"},
        {"kind": "distinct", "role": "user"},
        {"kind": "count_where", "role": "method", "value": "POST"},
    ]
    return dict(file="gunicorn-access.log",
                software='Gunicorn 23 access log, access_log_format = \'%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(D)s\' (%(D)s = request time in microseconds)',
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 14: java.util.logging SimpleFormatter (two-line), Jenkins
# ---------------------------------------------------------------------------


def c14(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 29, 21, 48, 3, 0), 70.0)
    canon = {"SEVERE": "ERROR", "WARNING": "WARN", "INFO": "INFO"}

    def hdr(t):
        h12 = t.hour % 12 or 12
        return "%s %02d, %d %d:%02d:%02d %s" % (MON[t.month - 1], t.day, t.year, h12, t.minute, t.second, "AM" if t.hour < 12 else "PM")

    def add(t, lvl, cls, meth, msg, exc=None):
        s = "%s %s %s\n%s: %s" % (hdr(t), cls, meth, lvl, msg)
        if exc:
            s += "\n" + exc
        items.append(Ev(s, t, canon[lvl], logger=cls, exception=re.match(r"[\w.$]+", exc).group(0) if exc else None))
        if exc:
            items.append(Line(""))  # printStackTrace ends with a newline, then the format's %n

    ping_exc = ("java.util.concurrent.TimeoutException: Ping started at {a} hasn't completed by {b}\n"
                "\tat hudson.remoting.PingThread.ping(PingThread.java:135)\n"
                "\tat hudson.remoting.PingThread.run(PingThread.java:87)")
    closed_exc = ("java.nio.channels.ClosedChannelException\n"
                  "\tat org.jenkinsci.remoting.protocol.NetworkLayer.onRecvClosed(NetworkLayer.java:155)\n"
                  "\tat org.jenkinsci.remoting.protocol.impl.NIONetworkLayer.ready(NIONetworkLayer.java:143)\n"
                  "\tat org.jenkinsci.remoting.protocol.IOHub$OnReady.run(IOHub.java:789)\n"
                  "\tat jenkins.util.ContextResettingExecutorService$1.run(ContextResettingExecutorService.java:28)\n"
                  "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)\n"
                  "\tat java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:642)\n"
                  "\tat java.base/java.lang.Thread.run(Thread.java:1583)")
    dl_exc = ("java.io.IOException: Unable to open https://updates.jenkins.io/updates/hudson.tasks.Maven.MavenInstaller.json?id=hudson.tasks.Maven.MavenInstaller&version=2.479.1\n"
              "\tat hudson.model.DownloadService.loadJSON(DownloadService.java:130)\n"
              "\tat hudson.model.DownloadService$Downloadable.updateNow(DownloadService.java:396)\n"
              "\tat hudson.model.DownloadService$Downloadable.updateNow(DownloadService.java:386)\n"
              "\tat hudson.model.DownloadService$DownloadServiceUpdater.execute(DownloadService.java:522)\n"
              "\tat hudson.model.AsyncPeriodicWork.lambda$doRun$0(AsyncPeriodicWork.java:102)\n"
              "\tat java.base/java.lang.Thread.run(Thread.java:1583)\n"
              "Caused by: java.net.SocketTimeoutException: Connect timed out\n"
              "\tat java.base/sun.nio.ch.NioSocketImpl.timedFinishConnect(NioSocketImpl.java:546)\n"
              "\tat java.base/sun.nio.ch.NioSocketImpl.connect(NioSocketImpl.java:592)\n"
              "\tat java.base/java.net.Socket.connect(Socket.java:751)\n"
              "\tat java.base/sun.net.www.http.HttpClient.doConnect(HttpClient.java:178)\n"
              "\t... 6 more")
    t = clock.t
    for m in ["Started initialization", "Listed all plugins", "Prepared all plugins", "Started all plugins",
              "Augmented all extensions", "System config loaded", "Loaded all jobs", "Completed initialization"]:
        add(t, "INFO", "jenkins.InitReactorRunner$1", "onAttained", m)
        t = clock.small(900)
    add(t, "INFO", "hudson.lifecycle.Lifecycle", "onReady", "Jenkins is fully up and running")
    jobs = ["berth-planner/main", "fare-api/main", "booking-api/release%2F4.12", "crew-app/main", "tidetable/main"]
    build = {j: rng.randint(80, 600) for j in jobs}
    target = 1050
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("periodic", 30), ("run", 16), ("jnlp", 10), ("ping", 3), ("closed", 3), ("dl", 1.5),
                        ("crumb", 4), ("git", 8), ("scm", 6)])
        if k == "periodic":
            what = rng.choice(["Download metadata", "Fingerprint cleanup", "Workspace clean-up", "Periodic background build discarder"])
            add(t, "INFO", "hudson.model.AsyncPeriodicWork", "lambda$doRun$0", "Started %s" % what)
            add(clock.small(4000), "INFO", "hudson.model.AsyncPeriodicWork", "lambda$doRun$0", "Finished %s. %s ms" % (what, "{:,}".format(rng.randint(3, 14000))))
        elif k == "run":
            j = rng.choice(jobs)
            build[j] += 1
            res = wpick(rng, [("SUCCESS", 80), ("FAILURE", 12), ("UNSTABLE", 5), ("ABORTED", 3)])
            add(t, "INFO", "hudson.model.Run", "execute", "%s #%d completed: %s" % (j, build[j], res))
        elif k == "jnlp":
            add(t, "INFO", "hudson.TcpSlaveAgentListener$ConnectionHandler", "run",
                "Accepted JNLP4-connect connection #%d from /10.0.9.%d:%d" % (rng.randint(1, 400), rng.randint(30, 39), rng.randint(40000, 60000)))
        elif k == "ping":
            a = (t - EPOCH) // dt.timedelta(milliseconds=1) - 240000
            add(t, "INFO", "hudson.slaves.ChannelPinger$1", "onDead", "Ping failed. Terminating the channel ferry-agent-0%d." % rng.randint(1, 4),
                ping_exc.replace("{a}", str(a)).replace("{b}", str(a + 240000)))
        elif k == "closed":
            add(t, "WARNING", "jenkins.slaves.DefaultJnlpSlaveReceiver", "channelClosed",
                "Computer.threadPoolForRemoting [#%d] for ferry-agent-0%d terminated: java.nio.channels.ClosedChannelException" % (rng.randint(1, 60), rng.randint(1, 4)),
                closed_exc)
        elif k == "dl":
            add(t, "SEVERE", "hudson.model.DownloadService$Downloadable", "load",
                "Failed to load https://updates.jenkins.io/updates/hudson.tasks.Maven.MavenInstaller.json", dl_exc)
        elif k == "crumb":
            add(t, "WARNING", "hudson.security.csrf.CrumbFilter", "doFilter",
                "Found invalid crumb %032x. If you are calling this URL with a script, please use the API Token instead. More information: https://www.jenkins.io/redirect/crumb-cannot-be-used-for-script" % rng.getrandbits(128))
        elif k == "git":
            add(t, "INFO", "jenkins.branch.MultiBranchProject$BranchIndexing", "run",
                "%s branch indexing action completed: SUCCESS in %.1f sec" % (rng.choice(jobs).split("/")[0], rng.uniform(0.8, 40)))
        elif k == "scm":
            add(t, "INFO", "hudson.triggers.SCMTrigger$Runner", "run",
                "SCM changes detected in %s. Triggering #%d." % (rng.choice(jobs), rng.randint(80, 700)))
    checks = [
        {"kind": "top", "role": "logger"},
        {"kind": "count_where", "role": "logger", "value": "hudson.model.Run"},
        {"kind": "count_contains", "text": "Caused by: java.net.SocketTimeoutException"},
        {"kind": "count_contains", "text": "PingThread.run(PingThread.java:87)"},
        {"kind": "count_where", "role": "exception", "value": "java.nio.channels.ClosedChannelException"},
    ]
    return dict(file="jenkins.log", software="Jenkins (java.util.logging SimpleFormatter default two-line format, English locale)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 15: GitLab production_json.log (lograge-style)
# ---------------------------------------------------------------------------


def c15(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 7, 45, 0, 0), 40.0)
    users = [("k.nakamura", 30), ("a.lindqvist", 15), ("m.oduya", 12), ("j.ferreira", 11), ("p.nowak", 9),
             ("ci-bot", 8), (None, 15)]
    uid = {u: 10 + i * 7 for i, (u, _) in enumerate(users)}
    clients = [("10.9.4.21", 28), ("10.9.4.77", 14), ("10.9.5.3", 12), ("10.9.5.18", 10), ("10.9.7.140", 9)]
    routes = [("GET", "/halcyon/{p}/-/merge_requests/{n}", "Projects::MergeRequestsController", "show", "code_review_workflow", 24),
              ("GET", "/halcyon/{p}/-/pipelines", "Projects::PipelinesController", "index", "continuous_integration", 14),
              ("GET", "/halcyon/{p}", "ProjectsController", "show", "groups_and_projects", 12),
              ("POST", "/halcyon/{p}/-/merge_requests/{n}/merge", "Projects::MergeRequestsController", "merge", "code_review_workflow", 4),
              ("GET", "/halcyon/{p}/-/issues/{n}", "Projects::IssuesController", "show", "team_planning", 12),
              ("POST", "/halcyon/{p}/-/issues/{n}/notes", "Projects::NotesController", "create", "team_planning", 6),
              ("GET", "/dashboard/todos", "Dashboard::TodosController", "index", "notifications", 6),
              ("GET", "/users/sign_in", "SessionsController", "new", "system_access", 5),
              ("POST", "/users/sign_in", "SessionsController", "create", "system_access", 3)]
    projects = ["berth-planner", "fare-api", "booking-api", "crew-app", "tidetable", "manifest-gateway"]
    # Ruby Logger header written when the (rotated) file was created (not an event)
    items.append(Line("# Logfile created on %s +0000 by logger.rb/v1.6.4" % clock.t.strftime("%Y-%m-%d %H:%M:%S")))
    target = 530
    while len(items) < target:
        t = clock.tick()
        m, path, ctrl, act, cat, _ = wpick(rng, [(r, r[-1]) for r in routes])
        proj = rng.choice(projects)
        n = rng.randint(1, 900)
        path = path.replace("{p}", proj).replace("{n}", str(n))
        u = wpick(rng, users)
        if ctrl == "SessionsController":
            u = None
        ip = wpick(rng, clients)
        status = wpick(rng, [(200, 88), (302, 4), (404, 4), (422, 1), (500, 1.5)])
        if m == "POST" and status == 200:
            status = 302
        dur = round(lognorm_ns(rng, 180, 0.8) / 1e9, 5)
        db = round(dur * rng.uniform(0.05, 0.5), 5)
        exc = None
        if status == 500:
            dur = round(rng.uniform(20, 60.2), 5)
            db = round(dur - rng.uniform(0.1, 0.5), 5)
            exc = rng.choice([("ActiveRecord::QueryCanceled", "PG::QueryCanceled: ERROR:  canceling statement due to statement timeout"),
                              ("Gitlab::Git::CommandTimedOut", "14:Deadline Exceeded. debug_error_string:{UNKNOWN:Deadline Exceeded}")])
        params = []
        if "{n}" not in path and act == "index":
            params = [{"key": "scope", "value": rng.choice(["all", "running", "finished"])}]
        if act == "create" and ctrl == "Projects::NotesController":
            params = [{"key": "note", "value": {"note": "[FILTERED]", "noteable_type": "Issue"}}]
        d = {"method": m, "path": path, "format": "html", "controller": ctrl, "action": act, "status": status,
             "time": t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000), "params": params,
             "correlation_id": "01JDQ%s" % "".join(rng.choice("0123456789ABCDEFGHJKMNPQRSTVWXYZ") for _ in range(21)),
             "meta.caller_id": "%s#%s" % (ctrl, act), "meta.feature_category": cat}
        if u:
            d["meta.user"] = u
        d["meta.project"] = "halcyon/%s" % proj
        d["remote_ip"] = ip
        if u:
            d["user_id"] = uid[u]
            d["username"] = u
        d.update({"queue_duration_s": round(rng.uniform(0.001, 0.04), 5), "request_urgency": "default",
                  "target_duration_s": 1, "redis_calls": rng.randint(2, 60), "redis_duration_s": round(rng.uniform(0.0005, 0.02), 5),
                  "db_count": rng.randint(5, 120), "db_write_count": rng.randint(0, 6) if m == "POST" else 0,
                  "db_duration_s": db, "cpu_s": round(dur * rng.uniform(0.3, 0.9), 5),
                  "view_duration_s": round(dur * rng.uniform(0.1, 0.4), 5), "duration_s": dur})
        if exc:
            d["exception.class"] = exc[0]
            d["exception.message"] = exc[1]
            d["exception.backtrace"] = ["app/models/merge_request.rb:1022:in `mergeable_state?'",
                                        "app/controllers/projects/merge_requests_controller.rb:91:in `show'",
                                        "lib/gitlab/metrics/elasticsearch_rack_middleware.rb:16:in `call'"]
        d["pid"] = rng.choice([812, 813, 815, 819])
        d["worker_id"] = "puma_%d" % rng.randint(0, 5)
        items.append(Ev(jd(d, fl=lambda v: repr(v)), t, None, method=m, status=status, duration=int(round(dur * 1e9)),
                        client=ip, user=u, path=path, exception=exc[0] if exc else None))
    checks = [
        {"kind": "top", "role": "user"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "min", "role": "duration", "unit": "ms"},
        {"kind": "count_where", "role": "status", "value": "500"},
        {"kind": "top", "role": "client"},
        {"kind": "count_where", "role": "exception", "value": "ActiveRecord::QueryCanceled"},
    ]
    return dict(file="production_json.log", software="GitLab 17.x Rails production_json.log (lograge JSON request log; no level field)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 16: varnishncsa with vhost first and %D
# ---------------------------------------------------------------------------


def c16(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 19, 0, 0, 500000), 4.1)
    hosts = [("www.halcyonferry.example", 55), ("static.halcyonferry.example", 25), ("book.halcyonferry.example", 20)]
    clients = ip_pool(rng, "198.51", 60)
    cw = [(ip, 1 + (12 if i == 0 else 0) + (4 if i in (1, 2) else 0)) for i, ip in enumerate(clients)]
    target = 1350
    pending = []
    while len(items) < target:
        t = clock.tick()
        host = wpick(rng, hosts)
        ip = wpick(rng, cw)
        if host.startswith("static"):
            p = rng.choice(["/img/fleet/%s.webp" % rng.choice(["skarv", "tern", "ornen", "petrel"]), "/css/site.%08x.css" % rng.getrandbits(32),
                            "/js/app.%08x.js" % rng.getrandbits(32), "/fonts/Inter-Regular.woff2"])
            m = "GET"
        elif host.startswith("book"):
            m, p = wpick(rng, [(("GET", "/api/v2/availability"), 50), (("POST", "/api/v2/hold"), 15),
                               (("GET", "/api/v2/availability?route=%s" % rng.choice(ROUTES)), 35)])
        else:
            m, p = wpick(rng, [(("GET", "/"), 20), (("GET", "/timetable/%s" % rng.choice(ROUTES)), 35),
                               (("GET", "/news/winter-schedule-2026"), 10), (("GET", "/robots.txt"), 3),
                               (("PURGE", "/timetable/%s" % rng.choice(ROUTES)), 2), (("GET", "/sv/tidtabell/%s" % rng.choice(ROUTES)), 10)])
        status = wpick(rng, [(200, 86), (304, 6), (404, 3), (503, 2), (206, 1)])
        if m == "PURGE":
            status, ip = 200, "10.1.0.4"
        size = 0
        if status in (200, 206):
            size = rng.randint(200, 90000) if not p.endswith((".webp", ".js", ".woff2")) else rng.randint(30000, 900000)
        elif status in (404, 503):
            size = rng.choice([0, 278, 391])
        if m == "PURGE":
            size = rng.randint(230, 260)
        dur = lognorm_ns(rng, 0.3, 1.3, lo_ns=15_000) // 1000  # cache hits are fast
        if rng.random() < 0.2 or p.startswith("/api"):
            dur = lognorm_ns(rng, 60, 1.0) // 1000
        if status == 503:
            dur = rng.randint(1_000_000, 60_000_000)
        ref = "-" if rng.random() < 0.5 else "https://www.halcyonferry.example/"
        ua = rng.choice(BROWSER_UAS + BOT_UAS[:2]) if m != "PURGE" else "curl/8.5.0"
        # %t is the request start; lines are written at request end, so a
        # long request can land after shorter ones that started later
        start = t - dt.timedelta(microseconds=dur)
        s = '%s %s - - [%s] "%s http://%s%s HTTP/1.1" %d %s "%s" "%s" %d' % (
            host, ip, clf_time(start), m, host, p, status, str(size) if size else "-", ref, ua, dur)
        items.append(Ev(s, start, None, host=host, client=ip, method=m, status=status, bytes=size,
                        duration=dur * 1000, path=p.split("?")[0]))
    checks = [
        {"kind": "top", "role": "host"},
        {"kind": "top", "role": "client"},
        {"kind": "sum", "role": "bytes", "unit": "b"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "count_where", "role": "status", "value": "503"},
        {"kind": "count_where", "role": "path", "value": "/api/v2/availability"},
    ]
    return dict(file="varnishncsa.log",
                software='Varnish 7 varnishncsa -F \'%{Host}i %h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %D\' (%D = microseconds; %r carries the absolute URL)',
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 17: vsftpd xferlog (wu-ftpd compatible transfer log)
# ---------------------------------------------------------------------------


def c17(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 0, 3, 11, 0), 190.0)
    real = [("customs-upload", 40), ("pilot-ops", 18), ("manifests", 14), ("agency-kiel", 8)]
    clients = [("10.50.2.8", 30), ("194.19.55.12", 12), ("10.50.2.9", 10), ("185.33.14.201", 8), ("10.50.7.61", 7), ("203.0.113.140", 6)]
    target = 760
    while len(items) < target:
        t = clock.tick()
        anon = rng.random() < 0.25
        ip = wpick(rng, clients)
        if anon:
            user, mode, direction = rng.choice(["anonymous@", "lftp@", "mozilla@example.com", "?"]), "a", "o"
            fn = rng.choice(["/pub/timetables/winter-2026.pdf", "/pub/timetables/sommer-2027-utkast.pdf",
                             "/pub/press/Ærøskøbing-terminal.jpg", "/pub/README"])
        else:
            user = wpick(rng, real)
            mode = "r"
            direction = "i" if user in ("customs-upload", "agency-kiel") else rng.choice(["o", "o", "i"])
            if direction == "i":
                fn = "/home/%s/incoming/manifest_%s_%s.xml" % (user, rng.choice(VESSELS).split()[1].lower(), t.strftime("%Y%m%d%H%M"))
            else:
                fn = "/home/%s/outgoing/%s" % (user, rng.choice(["pilotage-%s.csv" % t.strftime("%Y%m%d"), "berth-plan.xlsx", "tide-%s.json" % rng.choice(PORT_CODES).lower()]))
        size = rng.randint(2000, 900000)
        if fn.endswith(".pdf") or fn.endswith(".jpg"):
            size = rng.randint(800_000, 24_000_000)
        ttime = max(1, int(size / rng.uniform(200_000, 4_000_000)))
        status = "c" if rng.random() > 0.06 else "i"
        if status == "i":
            size = int(size * rng.uniform(0.05, 0.9))
        ttype = "a" if fn.endswith((".csv", "README")) and rng.random() < 0.5 else "b"
        s = "%s %s %2d %s %d %d %s %d %s %s _ %s %s %s ftp 0 * %s" % (
            DOW[t.weekday()], MON[t.month - 1], t.day, t.strftime("%H:%M:%S"), t.year, ttime, ip, size, fn, ttype,
            direction, mode, user, status)
        items.append(Ev(s, t, None, client=ip, bytes=size, duration=ttime * 1_000_000_000, user=user, status=status))
    checks = [
        {"kind": "top", "role": "client"},
        {"kind": "sum", "role": "bytes", "unit": "b"},
        {"kind": "max", "role": "duration", "unit": "s"},
        {"kind": "count_where", "role": "user", "value": "customs-upload"},
        {"kind": "count_where", "role": "status", "value": "i"},
        {"kind": "top", "role": "user"},
    ]
    return dict(file="xferlog", software="vsftpd 3.0 xferlog_std_format=YES transfer log (wu-ftpd xferlog layout)",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 18: custom Java application layout
# ---------------------------------------------------------------------------


def c18(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 11, 0, 0, 77000), 12.0)
    canon = {"TRACE": "TRACE", "DEBUG": "DEBUG", "INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR"}
    threads = [("worker-7", 30), ("worker-1", 12), ("worker-2", 11), ("worker-3", 10), ("worker-4", 10),
               ("scheduler-1", 8), ("kafka-consumer-0", 9)]

    def add(t, thr, lvl, logger, msg, exc=None, **f):
        s = "[%s.%03d] [%s] [%s] %s - %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 1000, thr, lvl, logger, msg)
        if exc:
            s += "\n" + exc
        items.append(Ev(s, t, canon[lvl], thread=thr, logger=logger, **f))

    timeout_exc = ("com.halcyon.billing.psp.PspException: charge request failed for order {o}\n"
                   "\tat com.halcyon.billing.psp.NordpayGateway.charge(NordpayGateway.java:212)\n"
                   "\tat com.halcyon.billing.ChargeService.chargeOrder(ChargeService.java:87)\n"
                   "\tat com.halcyon.billing.worker.ChargeJob.run(ChargeJob.java:44)\n"
                   "\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)\n"
                   "\tat java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:642)\n"
                   "\tat java.base/java.lang.Thread.run(Thread.java:1583)\n"
                   "Caused by: java.net.SocketTimeoutException: Read timed out\n"
                   "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:278)\n"
                   "\tat java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:304)\n"
                   "\tat java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)\n"
                   "\tat org.apache.hc.core5.http.impl.io.SessionInputBufferImpl.fillBuffer(SessionInputBufferImpl.java:149)\n"
                   "\tat org.apache.hc.client5.http.impl.classic.InternalHttpClient.doExecute(InternalHttpClient.java:170)\n"
                   "\tat com.halcyon.billing.psp.NordpayGateway.charge(NordpayGateway.java:198)\n"
                   "\t... 5 common frames omitted")
    dup_exc = ("org.springframework.dao.DuplicateKeyException: PreparedStatementCallback; ERROR: duplicate key value violates unique constraint \"ledger_entry_order_id_key\"\n"
               "  Detail: Key (order_id)=({o}) already exists.\n"
               "\tat org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator.doTranslate(SQLErrorCodeSQLExceptionTranslator.java:243)\n"
               "\tat org.springframework.jdbc.core.JdbcTemplate.update(JdbcTemplate.java:1014)\n"
               "\tat com.halcyon.billing.ledger.LedgerDao.append(LedgerDao.java:61)\n"
               "\tat com.halcyon.billing.ChargeService.chargeOrder(ChargeService.java:95)\n"
               "\tat com.halcyon.billing.worker.ChargeJob.run(ChargeJob.java:44)\n"
               "\tat java.base/java.lang.Thread.run(Thread.java:1583)\n"
               "Caused by: org.postgresql.util.PSQLException: ERROR: duplicate key value violates unique constraint \"ledger_entry_order_id_key\"\n"
               "  Detail: Key (order_id)=({o}) already exists.\n"
               "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2733)\n"
               "\tat org.postgresql.jdbc.PgPreparedStatement.executeUpdate(PgPreparedStatement.java:152)\n"
               "\t... 4 common frames omitted")
    add(clock.t, "main", "INFO", "c.h.billing.BillingWorkerApp", "Started BillingWorkerApp in 6.412 seconds (process running for 7.03)")
    target = 1750
    while len(items) < target:
        t = clock.tick()
        thr = wpick(rng, threads)
        o = rng.randint(100000, 999999)
        k = wpick(rng, [("charged", 40), ("dbg", 18), ("trace", 6), ("slow", 5), ("timeout", 3), ("dup", 1.5),
                        ("sched", 8), ("consume", 10)])
        if k == "charged":
            ms = int(lognorm_ns(rng, 180, 0.6) / 1e6)
            add(t, thr, "INFO", "c.h.billing.ChargeService", "charge ok orderId=%d amount=%.2f currency=%s ms=%d" % (
                o, rng.uniform(20, 1900), rng.choice(["EUR", "NOK", "SEK"]), ms), duration=ms * 1_000_000)
        elif k == "dbg":
            add(t, thr, "DEBUG", "c.h.billing.psp.NordpayGateway", "POST https://api.nordpay.example/v3/charges orderId=%d idempotencyKey=%032x" % (o, rng.getrandbits(128)))
        elif k == "trace":
            add(t, thr, "TRACE", "c.h.billing.ledger.LedgerDao", "binding params [orderId=%d, state=PENDING]" % o)
        elif k == "slow":
            ms = rng.randint(2000, 9000)
            add(t, thr, "WARN", "c.h.billing.ChargeService", "slow charge orderId=%d ms=%d psp=nordpay" % (o, ms), duration=ms * 1_000_000)
        elif k == "timeout":
            ms = rng.randint(10000, 30050)
            add(t, thr, "ERROR", "c.h.billing.ChargeService", "charge failed orderId=%d ms=%d" % (o, ms),
                timeout_exc.replace("{o}", str(o)), duration=ms * 1_000_000)
        elif k == "dup":
            add(t, thr, "ERROR", "c.h.billing.ledger.LedgerDao", "ledger append failed orderId=%d" % o, dup_exc.replace("{o}", str(o)))
        elif k == "sched":
            add(t, "scheduler-1", "INFO", "c.h.billing.worker.RetryScheduler", "requeued %d failed charges (oldest=%ds)" % (rng.randint(0, 12), rng.randint(30, 3600)))
        elif k == "consume":
            add(t, "kafka-consumer-0", "DEBUG", "c.h.billing.worker.OrderConsumer", "received order-placed orderId=%d partition=%d offset=%d" % (o, rng.randint(0, 11), rng.randint(10**6, 10**7)))
    checks = [
        {"kind": "top", "role": "thread"},
        {"kind": "max", "role": "duration", "unit": "ms"},
        {"kind": "min", "role": "duration", "unit": "ms"},
        {"kind": "top", "role": "logger"},
        {"kind": "count_contains", "text": "Caused by: java.net.SocketTimeoutException"},
        {"kind": "count_contains", "text": "already exists"},
    ]
    return dict(file="billing-worker.log",
                software="custom Java application layout (logback pattern '[%d{yyyy-MM-dd HH:mm:ss.SSS}] [%thread] [%level] %logger{30} - %msg%n')",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 19: MySQL 8 error log
# ---------------------------------------------------------------------------


def c19(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 29, 2, 14, 7, 118302), 330.0)
    canon = {"ERROR": "ERROR", "Warning": "WARN", "Note": None, "System": None}

    def ts(t):
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06dZ" % t.microsecond

    def add(t, thr, lvl, code, sub, msg, **f):
        items.append(Ev("%s %d [%s] [%s] [%s] %s" % (ts(t), thr, lvl, code, sub, msg), t, canon[lvl], thread=thr, logger=sub, **f))

    def boot(t):
        add(t, 0, "System", "MY-010116", "Server", "/usr/sbin/mysqld (mysqld 8.0.40) starting as process 1")
        add(clock.small(30), 1, "System", "MY-013576", "InnoDB", "InnoDB initialization has started.")
        add(clock.small(900), 1, "System", "MY-013577", "InnoDB", "InnoDB initialization has ended.")
        add(clock.small(200), 0, "Warning", "MY-010068", "Server", "CA certificate ca.pem is self signed.")
        add(clock.small(10), 0, "System", "MY-013602", "Server", "Channel mysql_main configured to support TLS. Encrypted connections are now supported for this channel.")
        add(clock.small(10), 0, "Warning", "MY-011810", "Server", "Insecure configuration for --pid-file: Location '/var/run/mysqld' in the path is accessible to all OS users. Consider choosing a different directory.")
        add(clock.small(20), 0, "System", "MY-011323", "Server", "X Plugin ready for connections. Bind-address: '::' port: 33060, socket: /var/run/mysqld/mysqlx.sock")
        add(clock.small(5), 0, "System", "MY-010931", "Server", "/usr/sbin/mysqld: ready for connections. Version: '8.0.40'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL.")

    boot(clock.t)
    conn = [1000]
    crashed = False
    users = [("fareapi", "10.30.2.17"), ("booking", "10.8.1.40"), ("report", "10.9.8.14"), ("gitlab", "10.9.4.4")]
    target = 420
    while len(items) < target:
        t = clock.tick()
        conn[0] += rng.randint(1, 60)
        c = conn[0]
        u, h = rng.choice(users)
        k = wpick(rng, [("abort", 26), ("native", 14), ("denied", 10), ("ipres", 8), ("wait", 12), ("deadlock", 2),
                        ("purge", 4), ("repl", 3), ("flush", 4)])
        if k == "abort":
            add(t, c, "Note", "MY-010914", "Server", "Aborted connection %d to db: '%s' user: '%s' host: '%s' (Got an error reading communication packets)." % (c, u, u, h))
        elif k == "native":
            add(t, c, "Warning", "MY-013360", "Server", "Plugin mysql_native_password reported: ''mysql_native_password' is deprecated and will be removed in a future release. Please use caching_sha2_password instead'")
        elif k == "denied":
            add(t, c, "Note", "MY-010926", "Server", "Access denied for user '%s'@'%s' (using password: YES)" % (rng.choice(["root", "report", "admin"]), rng.choice(["10.9.8.14", "185.220.101.4", "10.9.8.15"])))
        elif k == "ipres":
            add(t, c, "Warning", "MY-010055", "Server", "IP address '%s' could not be resolved: Name or service not known" % rng.choice(["10.9.8.14", "10.44.0.31", "185.220.101.4"]))
        elif k == "wait":
            add(t, c, "Note", "MY-013730", "Server", "'wait_timeout' period of 28800 seconds was exceeded for `%s`@`%s`. The idle time since last command was too long." % (u, h))
        elif k == "deadlock":
            add(t, 0, "Note", "MY-012468", "InnoDB", "Transactions deadlock detected, dumping detailed information. (lock0lock.cc:6482)")
            tx1, tx2 = rng.randint(10**7, 10**8), rng.randint(10**7, 10**8)
            for ln in ["", "*** (1) TRANSACTION:",
                       "TRANSACTION %d, ACTIVE 0 sec starting index read" % tx1,
                       "mysql tables in use 1, locked 1",
                       "LOCK WAIT 3 lock struct(s), heap size 1128, 2 row lock(s)",
                       "MySQL thread id %d, OS thread handle 140201182373632, query id %d 10.8.1.40 booking updating" % (c, rng.randint(10**6, 10**7)),
                       "UPDATE seat_hold SET state='CONFIRMED' WHERE sailing_id=88213 AND seat='B114'",
                       "*** (2) TRANSACTION:",
                       "TRANSACTION %d, ACTIVE 0 sec starting index read" % tx2,
                       "*** WE ROLL BACK TRANSACTION (2)"]:
                add(t, 0, "Note", "MY-012469", "InnoDB", ln)
        elif k == "purge":
            add(t, 0, "Warning", "MY-012111", "InnoDB", "Trying to access missing tablespace %d" % rng.randint(40, 900))
        elif k == "repl":
            add(t, 14, "ERROR", "MY-010584", "Repl", "Replica SQL for channel '': Worker 1 failed executing transaction 'ANONYMOUS' at source log mysql-bin.%06d, end_log_pos %d; Could not execute Write_rows event on table booking.seat_hold; Duplicate entry '88213-B114' for key 'seat_hold.PRIMARY', Error_code: 1062; handler error HA_ERR_FOUND_DUPP_KEY; the event's source log FIRST, end_log_pos %d, Error_code: MY-001062" % (
                rng.randint(1, 400), rng.randint(10**5, 10**8), rng.randint(10**5, 10**8)))
        elif k == "flush":
            add(t, 0, "Warning", "MY-012853", "InnoDB", "Resizing redo log from 2*3072 to 2*49152 blocks, LSN=%d" % rng.randint(10**9, 10**11))
        if not crashed and len(items) > target * 0.6:
            crashed = True
            t = clock.tick()
            e = Ev("%s 0 [ERROR] [MY-013183] [InnoDB] Assertion failure: btr0cur.cc:3612:ut_a(!page_rec_is_infimum(rec)) thread 140231712433920\n"
                   "InnoDB: We intentionally generate a memory trap.\n"
                   "InnoDB: Submit a detailed bug report to http://bugs.mysql.com.\n"
                   "InnoDB: If you get repeated assertion failures or crashes, even\n"
                   "InnoDB: immediately after the mysqld startup, there may be\n"
                   "InnoDB: corruption in the InnoDB tablespace. Please refer to\n"
                   "InnoDB: http://dev.mysql.com/doc/refman/8.0/en/forcing-innodb-recovery.html\n"
                   "InnoDB: about forcing recovery." % ts(t), t, "ERROR", thread=0, logger="InnoDB")
            items.append(e)
            items.append(Ev("%s UTC - mysqld got signal 6 ;\n"
                            "Most likely, you have hit a bug, but this error can also be caused by malfunctioning hardware.\n"
                            "BuildID[sha1]=5e1c1b2f0a7f0d8c2a7a9d3b7e6c4f1a0b9d8e7f\n"
                            "Thread pointer: 0x7f8a2c000b70\n"
                            "Attempting backtrace. You can use the following information to find out\n"
                            "where mysqld died. If you see no messages after this, something went\n"
                            "terribly wrong...\n"
                            "stack_bottom = 7f8a9c1f0bf0 thread_stack 0x100000\n"
                            "/usr/sbin/mysqld(my_print_stacktrace(unsigned char const*, unsigned long)+0x41) [0x55d0c6a0b8f1]\n"
                            "/usr/sbin/mysqld(print_fatal_signal(int)+0x2a2) [0x55d0c5a4a5c2]\n"
                            "/usr/sbin/mysqld(my_server_abort()+0x76) [0x55d0c5a4a706]\n"
                            "/usr/sbin/mysqld(my_abort()+0xe) [0x55d0c6a051de]\n"
                            "/usr/sbin/mysqld(ut_dbg_assertion_failed(char const*, char const*, unsigned long)+0x349) [0x55d0c6d2c0a9]\n"
                            "/lib/x86_64-linux-gnu/libc.so.6(+0x94ac3) [0x7f8ab5e94ac3]\n"
                            "The manual page at http://dev.mysql.com/doc/mysql/en/crashing.html contains\n"
                            "information that should help you find out what is causing the crash." % t.strftime("%Y-%m-%dT%H:%M:%SZ"),
                            t, None))
            clock.tick(20)
            boot(clock.t)
            add(clock.small(50), 0, "Note", "MY-013883", "InnoDB", "The latest found checkpoint is at lsn = 48213392811 in redo log file ./#innodb_redo/#ib_redo112.")
            add(clock.small(50), 0, "Note", "MY-012557", "InnoDB", "Starting crash recovery.")
    checks = [
        {"kind": "count_where", "role": "logger", "value": "InnoDB"},
        {"kind": "count_where", "role": "thread", "value": "0"},
        {"kind": "count_contains", "text": "WE ROLL BACK TRANSACTION"},
        {"kind": "count_contains", "text": "my_print_stacktrace"},
        {"kind": "count_contains", "text": "forcing-innodb-recovery"},
        {"kind": "count_contains", "text": "Aborted connection"},
    ]
    return dict(file="mysqld.err", software="MySQL 8.0 error log (log_timestamps=UTC, log_error_verbosity=3) including a crash dump",
                items=items, checks=checks)


# ---------------------------------------------------------------------------
# case 20: NLog default layout on Windows (CRLF)
# ---------------------------------------------------------------------------


def c20(rng):
    items = []
    clock = Clock(rng, dt.datetime(2026, 11, 30, 6, 30, 0, 12000), 26.0)
    canon = {"TRACE": "TRACE", "DEBUG": "DEBUG", "INFO": "INFO", "WARN": "WARN", "ERROR": "ERROR", "FATAL": "FATAL"}

    def add(t, lvl, logger, msg, exc=None):
        s = "%s.%04d|%s|%s|%s" % (t.strftime("%Y-%m-%d %H:%M:%S"), t.microsecond // 100, lvl, logger, msg)
        if exc:
            s += "\n" + exc
        items.append(Ev(s, t, canon[lvl], logger=logger, exception=re.match(r"[\w.$]+", exc).group(0) if exc else None))

    sql_exc = ("Microsoft.Data.SqlClient.SqlException (0x80131904): Execution Timeout Expired.  The timeout period elapsed prior to completion of the operation or the server is not responding.\n"
               " ---> System.ComponentModel.Win32Exception (258): Der Wartevorgang wurde abgebrochen.\n"
               "   at Microsoft.Data.SqlClient.SqlConnection.OnError(SqlException exception, Boolean breakConnection, Action`1 wrapCloseInAction)\n"
               "   at Microsoft.Data.SqlClient.TdsParser.TryRun(RunBehavior runBehavior, SqlCommand cmdHandler, SqlDataReader dataStream, BulkCopySimpleResultSet bulkCopyHandler, TdsParserStateObject stateObj, Boolean& dataReady)\n"
               "   at Microsoft.Data.SqlClient.SqlCommand.ExecuteNonQuery()\n"
               "   at Halcyon.Payments.Settlement.SettlementRepository.MarkSettled(Int64 batchId) in C:\\build\\src\\Halcyon.Payments.Settlement\\SettlementRepository.cs:line 118\n"
               "   at Halcyon.Payments.Settlement.BatchRunner.Run(SettlementBatch batch) in C:\\build\\src\\Halcyon.Payments.Settlement\\BatchRunner.cs:line 64\n"
               "ClientConnectionId:6f1c2a4e-8d2b-4f7a-9a51-2b0f4c7d9e13\n"
               "Error Number:-2,State:0,Class:11")
    io_exc = ("System.IO.IOException: The process cannot access the file 'D:\\Settlement\\outbox\\SET-{n}.xml' because it is being used by another process.\n"
              "   at Microsoft.Win32.SafeHandles.SafeFileHandle.CreateFile(String fullPath, FileMode mode, FileAccess access, FileShare share, FileOptions options)\n"
              "   at System.IO.File.Move(String sourceFileName, String destFileName, Boolean overwrite)\n"
              "   at Halcyon.Payments.Settlement.FileDrop.Publish(SettlementBatch batch) in C:\\build\\src\\Halcyon.Payments.Settlement\\FileDrop.cs:line 51")
    add(clock.t, "INFO", "Halcyon.Payments.Worker.Program", "Halcyon.Payments.Worker 2.8.1 starting on HF-PAY-APP02 (.NET 8.0.11)")
    add(clock.small(), "DEBUG", "Halcyon.Payments.Worker.Program", "Config: SettlementCutoff=22:00, Psp=Nordpay, Outbox=D:\\Settlement\\outbox")
    batch = 88000
    target = 1380
    fatal_done = False
    while len(items) < target:
        t = clock.tick()
        k = wpick(rng, [("poll", 22), ("batch", 12), ("psp", 16), ("trace", 10), ("warn", 6), ("sql", 2), ("io", 1.5),
                        ("fx", 6)])
        if k == "poll":
            add(t, "DEBUG", "Halcyon.Payments.Worker.OutboxPoller", "Polled outbox: %d pending, %d in flight" % (rng.randint(0, 30), rng.randint(0, 4)))
        elif k == "batch":
            batch += 1
            add(t, "INFO", "Halcyon.Payments.Settlement.BatchRunner", "Settlement batch %d completed: %d items, %s EUR in %d ms" % (
                batch, rng.randint(5, 400), "{:,.2f}".format(rng.uniform(1000, 250000)), rng.randint(80, 9000)))
        elif k == "psp":
            add(t, "INFO", "Halcyon.Payments.Psp.NordpayClient", "Capture NP%014d accepted (HTTP 200, %d ms)" % (rng.randint(0, 10**14), rng.randint(40, 900)))
        elif k == "trace":
            add(t, "TRACE", "Halcyon.Payments.Psp.NordpayClient", "-> POST /v3/captures idempotency=%032x" % rng.getrandbits(128))
        elif k == "warn":
            add(t, "WARN", "Halcyon.Payments.Psp.NordpayClient", "Nordpay rate limit hit, backing off %d s (Zahlungsanbieter überlastet)" % rng.choice([1, 2, 5, 10]))
        elif k == "fx":
            add(t, "INFO", "Halcyon.Payments.Fx.RateCache", "Rates refreshed: EUR/NOK=%.4f EUR/SEK=%.4f EUR/DKK=%.4f EUR/PLN=%.4f" % (
                rng.uniform(11.4, 11.9), rng.uniform(11.3, 11.7), 7.4587, rng.uniform(4.2, 4.4)))
        elif k == "sql":
            batch += 1
            add(t, "ERROR", "Halcyon.Payments.Settlement.BatchRunner", "Settlement batch %d failed after 3 attempts" % batch, sql_exc)
        elif k == "io":
            add(t, "ERROR", "Halcyon.Payments.Settlement.FileDrop", "Could not publish settlement file for batch %d" % batch, io_exc.replace("{n}", str(batch)))
        if not fatal_done and len(items) > target * 0.85:
            fatal_done = True
            t = clock.tick()
            add(t, "FATAL", "Halcyon.Payments.Worker.Program", "Unhandled exception, worker stopping",
                "System.InvalidOperationException: Settlement cutoff passed with 3 unsettled batches\n"
                "   at Halcyon.Payments.Settlement.CutoffGuard.Enforce(DateTimeOffset now) in C:\\build\\src\\Halcyon.Payments.Settlement\\CutoffGuard.cs:line 29\n"
                "   at Halcyon.Payments.Worker.Worker.ExecuteAsync(CancellationToken stoppingToken) in C:\\build\\src\\Halcyon.Payments.Worker\\Worker.cs:line 77\n"
                "   at Microsoft.Extensions.Hosting.Internal.Host.TryExecuteBackgroundServiceAsync(BackgroundService backgroundService)")
            clock.tick(40)
            add(clock.t, "INFO", "Halcyon.Payments.Worker.Program", "Halcyon.Payments.Worker 2.8.1 starting on HF-PAY-APP02 (.NET 8.0.11)")
    checks = [
        {"kind": "top", "role": "logger"},
        {"kind": "count_where", "role": "logger", "value": "Halcyon.Payments.Settlement.BatchRunner"},
        {"kind": "count_contains", "text": "SqlCommand.ExecuteNonQuery"},
        {"kind": "count_contains", "text": "Error Number:-2"},
        {"kind": "count_where", "role": "exception", "value": "System.IO.IOException"},
    ]
    return dict(file="2026-11-30.log", software="NLog 5 default file layout '${longdate}|${level:uppercase=true}|${logger}|${message:withexception=true}' on Windows (CRLF line endings)",
                items=items, checks=checks, newline="\r\n")


# ---------------------------------------------------------------------------
# truth + driver
# ---------------------------------------------------------------------------

CASES = [
    ("f01-rust-tracing", c01), ("f02-zap-json", c02), ("f03-zap-console", c03), ("f04-ruby-logger", c04),
    ("f05-pino-http", c05), ("f06-php-fpm", c06), ("f07-rabbitmq", c07), ("f08-caddy-access", c08),
    ("f09-hclog-nomad", c09), ("f10-serilog-clef", c10), ("f11-logcat", c11), ("f12-structlog", c12),
    ("f13-gunicorn-access", c13), ("f14-jul-jenkins", c14), ("f15-gitlab-json", c15), ("f16-varnishncsa", c16),
    ("f17-xferlog", c17), ("f18-java-custom", c18), ("f19-mysql8-error", c19), ("f20-nlog-crlf", c20),
]


def _num(x):
    x = round(x, 6)
    return int(x) if x == int(x) else x


def conv(role, v, unit):
    if role == "duration":
        return v / {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]
    if role == "bytes":
        return v / {"b": 1, "kb": 1024, "mb": 1024 * 1024}[unit]
    return v


def compute_check(events, spec):
    c = dict(spec)
    k = spec["kind"]
    if k == "count_where":
        want = str(spec["value"]).lower()
        c["expected"] = sum(1 for e in events if e.f.get(spec["role"]) is not None and str(e.f[spec["role"]]).lower() == want)
    elif k == "count_contains":
        want = spec["text"].lower()
        c["expected"] = sum(1 for e in events if want in e.text.lower())
    elif k in ("max", "min", "sum"):
        vals = [conv(spec["role"], e.f[spec["role"]], spec["unit"]) for e in events if e.f.get(spec["role"]) is not None]
        c["expected"] = _num({"max": max, "min": min, "sum": sum}[k](vals))
    elif k == "top":
        cnt = collections.Counter(str(e.f[spec["role"]]) for e in events if e.f.get(spec["role"]) is not None)
        (v1, n1), (v2, n2) = cnt.most_common(2)
        assert n1 >= 1.2 * n2, ("top margin too small", spec, v1, n1, v2, n2)
        c["expected"] = v1
    elif k == "distinct":
        c["expected"] = len({str(e.f[spec["role"]]) for e in events if e.f.get(spec["role"]) is not None})
    else:
        raise ValueError(k)
    return c


def write_case(cid, fn):
    rng = random.Random("%d:%s" % (SEED, cid))
    spec = fn(rng)
    nl = spec.get("newline", "\n")
    items = spec["items"]
    events = [it for it in items if isinstance(it, Ev)]
    d = os.path.join(CASES_DIR, cid)
    os.makedirs(d, exist_ok=True)
    text = nl.join(it.text.replace("\n", nl) for it in items) + nl
    path = os.path.join(d, spec["file"])
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    levels = collections.Counter(e.level for e in events if e.level)
    for lv in levels:
        assert lv in CANON, lv
    truth = {
        "id": cid,
        "file": spec["file"],
        "software": spec["software"],
        "events": len(events),
        "levels": {lv: levels[lv] for lv in CANON if lv in levels},
        "first_time": events[0].t.strftime("%Y-%m-%d %H:%M:%S"),
        "last_time": events[-1].t.strftime("%Y-%m-%d %H:%M:%S"),
        "checks": [compute_check(events, s) for s in spec["checks"]],
    }
    with open(os.path.join(d, "truth.json"), "w", encoding="utf-8") as fh:
        json.dump(truth, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    # self-checks on the brief's constraints
    size = len(text.encode("utf-8"))
    span = (max(e.t for e in events) - min(e.t for e in events)).total_seconds()
    assert 150 <= len(events) <= 4000, (cid, len(events))
    assert size < 400_000, (cid, size)
    assert 600 <= span <= 2 * 86400, (cid, span)
    assert 4 <= len(truth["checks"]) <= 8, cid
    assert events[0].t == min(e.t for e in events) and events[-1].t == max(e.t for e in events), cid
    return truth, size, span


def main():
    if os.path.isdir(CASES_DIR):
        shutil.rmtree(CASES_DIR)
    os.makedirs(CASES_DIR)
    total = 0
    for cid, fn in CASES:
        truth, size, span = write_case(cid, fn)
        total += size
        print("%-22s %-24s %5d events %7d bytes  span %6.2fh  levels=%s" % (
            cid, truth["file"], truth["events"], size, span / 3600, truth["levels"]))
    print("total %d bytes" % total)


if __name__ == "__main__":
    main()
