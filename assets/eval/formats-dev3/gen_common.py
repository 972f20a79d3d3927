"""Shared machinery for the formats-dev3 generator.

Every case builds a `Case`: an ordered list of items, each either an event
record (time, canonical level, all its lines, field values by role) or a run
of non-event lines (banners, headers, footers, blank separators).  The log
file is the concatenation of all lines; truth.json is computed from the event
records only -- never by reading the written log back.

Numeric roles are stored in base units inside the records:
  duration -> Decimal nanoseconds, bytes -> Decimal bytes.
A check converts exactly (Decimal) to its own unit.
"""
import json
import os
from collections import Counter
from datetime import datetime, timedelta, timezone
from decimal import Decimal

CANON = ["FATAL", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG", "TRACE"]
ROLES = {"client", "method", "path", "status", "duration", "bytes", "user", "host", "pid",
         "thread", "logger", "program", "upstream", "exception"}
NUMERIC = {"duration", "bytes"}
UNITS = {"ns": Decimal(1), "us": Decimal(10) ** 3, "ms": Decimal(10) ** 6, "s": Decimal(10) ** 9,
         "b": Decimal(1), "kb": Decimal(1024), "mb": Decimal(1024 * 1024)}
UNIT_ROLE = {"ns": "duration", "us": "duration", "ms": "duration", "s": "duration",
             "b": "bytes", "kb": "bytes", "mb": "bytes"}

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS_LONG = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]


# ---------------------------------------------------------------- units
def ns_from_s(text):
    """'0.42' seconds (as written in the log) -> Decimal ns."""
    return Decimal(text) * UNITS["s"]


def ns_from_ms(text):
    return Decimal(text) * UNITS["ms"]


def ns_from_us(text):
    return Decimal(text) * UNITS["us"]


def go_duration(ns):
    """Format an integer number of nanoseconds like Go's time.Duration.String()."""
    ns = int(ns)
    if ns == 0:
        return "0s"
    if ns < 1000:
        return "%dns" % ns

    def frac(v, unit):
        whole, rest = divmod(v, unit)
        if rest == 0:
            return str(whole)
        digits = len(str(unit)) - 1
        return ("%d.%0*d" % (whole, digits, rest)).rstrip("0")

    if ns < 10 ** 6:
        return frac(ns, 1000) + "\u00b5s"
    if ns < 10 ** 9:
        return frac(ns, 10 ** 6) + "ms"
    secs = ns / 10 ** 9
    if secs < 60:
        return frac(ns, 10 ** 9) + "s"
    m, s_ns = divmod(ns, 60 * 10 ** 9)
    return "%dm%ss" % (m, frac(s_ns, 10 ** 9))


def number_out(d):
    """Decimal -> int when integral, else float (exact decimal text)."""
    d = Decimal(d)
    if d == d.to_integral_value():
        return int(d)
    return float(format(d.normalize(), "f"))


# ---------------------------------------------------------------- time helpers
def utc(y, mo, d, h=0, mi=0, s=0, us=0):
    return datetime(y, mo, d, h, mi, s, us)


def fmt_second(t):
    return t.strftime("%Y-%m-%d %H:%M:%S")


def ms3(t):
    return "%03d" % (t.microsecond // 1000)


def epoch(t):
    """Naive datetime taken as UTC -> integer epoch seconds."""
    return int(t.replace(tzinfo=timezone.utc).timestamp())


class Clock:
    """Monotonic clock advancing by random gaps."""

    def __init__(self, rng, start):
        self.rng = rng
        self.t = start

    def tick(self, lo, hi):
        """Advance by a uniform random gap in seconds (float) and return new time."""
        gap = self.rng.uniform(lo, hi)
        self.t = self.t + timedelta(microseconds=int(gap * 1e6))
        return self.t

    def tick_us(self, lo_us, hi_us):
        self.t = self.t + timedelta(microseconds=self.rng.randint(lo_us, hi_us))
        return self.t


def wchoice(rng, pairs):
    """Weighted choice over [(item, weight), ...] (deterministic)."""
    total = sum(w for _, w in pairs)
    r = rng.uniform(0, total)
    acc = 0
    for item, w in pairs:
        acc += w
        if r <= acc:
            return item
    return pairs[-1][0]


# ---------------------------------------------------------------- records
class Event:
    __slots__ = ("time", "level", "lines", "fields")

    def __init__(self, time, level, lines, fields):
        self.time = time
        self.level = level
        self.lines = lines
        self.fields = fields


class Case:
    def __init__(self, cid, fname, software, listed_levels, eol="\n"):
        self.id = cid
        self.file = fname
        self.software = software
        self.listed = list(listed_levels)
        for lv in self.listed:
            assert lv in CANON, lv
        self.eol = eol
        self.items = []   # ("ev", Event) | ("raw", [lines])
        self.checks = []

    # -- building
    def ev(self, t, level, lines, **fields):
        if isinstance(lines, str):
            lines = lines.split("\n")
        assert lines and lines[0] != "", (self.id, lines)
        assert level is None or level in CANON, level
        clean = {}
        for role, val in fields.items():
            assert role in ROLES, (self.id, role)
            if val is None:
                continue
            if role in NUMERIC:
                val = Decimal(val)
            else:
                val = str(val)
            clean[role] = val
        e = Event(t, level, list(lines), clean)
        self.items.append(("ev", e))
        return e

    def raw(self, lines):
        if isinstance(lines, str):
            lines = lines.split("\n")
        self.items.append(("raw", list(lines)))

    def append_lines(self, lines):
        """Continuation lines that belong to the most recent event."""
        kind, e = self.items[-1]
        assert kind == "ev", (self.id, "continuation without event")
        e.lines.extend(lines)

    def events(self):
        return [x for k, x in self.items if k == "ev"]

    def raw_lines(self):
        out = []
        for k, x in self.items:
            if k == "raw":
                out.extend(x)
        return out

    # -- checks (expected computed from the records)
    def check(self, kind, **kw):
        self.checks.append((kind, kw))

    def _compute(self, kind, kw):
        evs = self.events()
        if kind == "count_where":
            role, value = kw["role"], str(kw["value"])
            n = sum(1 for e in evs if role in e.fields and e.fields[role].lower() == value.lower())
            return dict(role=role, value=value), n
        if kind == "count_contains":
            text = kw["text"].lower()
            for ln in self.raw_lines():
                assert text not in ln.lower(), (self.id, "count_contains text in non-event line", kw["text"], ln)
            n = sum(1 for e in evs if text in "\n".join(e.lines).lower())
            return dict(text=kw["text"]), n
        if kind in ("max", "min", "sum"):
            role, unit = kw["role"], kw["unit"]
            assert UNIT_ROLE[unit] == role, (self.id, role, unit)
            vals = [e.fields[role] for e in evs if role in e.fields]
            assert vals, (self.id, kind, role)
            agg = {"max": max, "min": min, "sum": sum}[kind](vals)
            return dict(role=role, unit=unit), number_out(agg / UNITS[unit])
        if kind == "top":
            role = kw["role"]
            c = Counter(e.fields[role] for e in evs if role in e.fields)
            common = c.most_common(2)
            assert common, (self.id, "top", role)
            if len(common) > 1:
                assert common[0][1] >= 1.2 * common[1][1], (self.id, "top margin", role, common)
            return dict(role=role), common[0][0]
        if kind == "distinct":
            role = kw["role"]
            vals = [e.fields[role] for e in evs if role in e.fields]
            exact = set(vals)
            assert len(exact) == len(set(v.lower() for v in vals)), (self.id, "case variants", role)
            return dict(role=role), len(exact)
        raise ValueError(kind)

    # -- output
    def write(self, outroot):
        evs = self.events()
        assert 150 <= len(evs) <= 4000, (self.id, len(evs))
        assert 4 <= len(self.checks) <= 8, (self.id, len(self.checks))
        lines = []
        for k, x in self.items:
            lines.extend(x if k == "raw" else x.lines)
        text = self.eol.join(lines) + self.eol
        data = text.encode("utf-8")
        assert len(data) < 400 * 1024, (self.id, len(data))
        times = [e.time for e in evs]
        span = max(times) - min(times)
        assert timedelta(minutes=10) <= span <= timedelta(days=2), (self.id, span)
        for e in evs:
            for ln in e.lines:
                assert "\n" not in ln and "\r" not in ln, (self.id, ln)

        levels = Counter(e.level for e in evs if e.level in self.listed)
        level_out = {lv: levels[lv] for lv in CANON if levels.get(lv)}

        checks_out = []
        for kind, kw in self.checks:
            params, expected = self._compute(kind, kw)
            if kind.startswith("count") or kind == "distinct":
                assert expected > 0, (self.id, kind, kw)
            d = {"kind": kind}
            d.update(params)
            d["expected"] = expected
            checks_out.append(d)

        truth = {
            "id": self.id,
            "file": self.file,
            "software": self.software,
            "events": len(evs),
            "levels": level_out,
            "first_time": fmt_second(evs[0].time),
            "last_time": fmt_second(evs[-1].time),
            "checks": checks_out,
        }
        d = os.path.join(outroot, self.id)
        os.makedirs(d)
        with open(os.path.join(d, self.file), "wb") as f:
            f.write(data)
        with open(os.path.join(d, "truth.json"), "w", encoding="utf-8", newline="\n") as f:
            json.dump(truth, f, indent=2, ensure_ascii=False)
            f.write("\n")
        return truth, len(data)
