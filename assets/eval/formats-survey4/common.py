"""Shared helpers for the survey4 generators and truth parsers (stdlib only)."""
import json
import math
import os
from collections import Counter
from datetime import datetime, timedelta, timezone

OUT = "/tmp/survey4"
UTC = timezone.utc


def write_log(name, lines):
    path = os.path.join(OUT, name)
    with open(path, "w", newline="") as f:
        for ln in lines:
            f.write(ln + "\n")
    return path


def read_lines(name):
    with open(os.path.join(OUT, name), newline="") as f:
        return f.read().split("\n")[:-1]


def p95(values):
    """Nearest-rank p95: value at rank ceil(0.95*n) (1-based) in sorted order."""
    s = sorted(values)
    return s[math.ceil(0.95 * len(s)) - 1]


def top(values):
    """Most common value; refuses ties so that the truth is unambiguous."""
    c = Counter(values).most_common(2)
    if len(c) > 1 and c[0][1] == c[1][1]:
        raise ValueError("tie for top value: %r" % (c,))
    return c[0][0]


def flt(field, role, op, value):
    return {"field": field, "role": role, "op": op, "value": value}


def fact(desc, field, role, measure, expected, filt=None, unit=None):
    return {"desc": desc, "field": field, "role": role, "measure": measure,
            "filter": filt, "unit": unit, "expected": expected}


def iso_utc(dt):
    """Aware datetime -> 'YYYY-MM-DDTHH:MM:SSZ' (UTC, truncated to the second)."""
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_naive(dt):
    """Wall-clock time with no zone in the log -> 'YYYY-MM-DDTHH:MM:SS' (no Z)."""
    return dt.strftime("%Y-%m-%dT%H:%M:%S")


def write_truth(name, software, events, event_rule, facts, notes=""):
    """facts[0] is always the total event count."""
    facts = [fact("total number of events", None, "events", "count", events)] + facts
    for i, f in enumerate(facts, 1):
        f["id"] = "f%d" % i
    doc = {"sample": name, "software": software, "events": events,
           "event_rule": event_rule, "notes": notes, "facts": facts,
           "conventions": {
               "p95": "nearest rank: sorted value at rank ceil(0.95*n)",
               "times": "ending in Z = UTC instant; no Z = wall-clock time as written (log has no zone)",
               "filter values": "as the log writes them"}}
    base = name.rsplit(".", 1)[0] if name.count(".") else name
    with open(os.path.join(OUT, base + ".truth.json"), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def go_frac(dt, extra_ns=0):
    """RFC3339Nano-like fraction as Go prints it (trailing zeros trimmed)."""
    ns = dt.microsecond * 1000 + extra_ns
    if ns == 0:
        return ""
    return ("." + "%09d" % ns).rstrip("0")
