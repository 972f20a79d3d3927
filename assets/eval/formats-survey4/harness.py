#!/usr/bin/env python3
"""survey4 harness: score a log-query binary against the frozen held-out samples in /tmp/survey4.

usage: python3 harness.py /path/to/query-binary [-v]

The binary is invoked as `BIN '<query json>' <log path>` and prints JSON. For every fact of every
<name>.truth.json, one typed query is built mechanically from the fact (measure, field, filter) and
the answer is compared with the expected value:
  counts and distinct counts exact; max/p95 within 0.5% after unit conversion;
  times to the second; top values exact (numerically equal when both are numbers).
Retry rule (the same for every fact): if the engine rejects the query with an `unknown field` error,
the query is rebuilt once with every field name replaced by the fact's plain role word.
Per sample the engine's total event count (sources[0].events of the unfiltered count query) is
also checked against the truth file's `events`.
-v prints one line per fact (query, answer, expected).
"""
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone

SURVEY = "/tmp/survey4"
FROZEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "frozen.sha256")
UTC = timezone.utc
OPS = {">=": "ge", "<=": "le", ">": "gt", "<": "lt", "==": "eq", "!=": "ne", "contains": "contains"}
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0, "min": 60.0, "h": 3600.0}
SIZE_UNITS = {"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "kib": 1024, "mib": 1024 ** 2, "gib": 1024 ** 3}
REL_TOL = 0.005


def check_frozen():
    bad = []
    with open(FROZEN) as f:
        for line in f:
            digest, path = line.split(None, 1)
            path = path.strip()
            with open(path, "rb") as g:
                if hashlib.sha256(g.read()).hexdigest() != digest:
                    bad.append(path)
    return bad


def run(binary, query, path):
    p = subprocess.run([binary, json.dumps(query), path], capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        return None, (p.stderr.strip() or p.stdout.strip() or "exit %d" % p.returncode)
    try:
        return json.loads(p.stdout), None
    except ValueError as e:
        return None, "unparseable output: %s" % e


def build(fact, use_roles):
    def name(n, role):
        return role if use_roles and role else n
    field = name(fact["field"], fact["role"]) if fact["field"] is not None else None
    m = fact["measure"]
    if m == "count":
        q = {"measure": "count"}
    elif m == "count_distinct":
        q = {"measure": "count_distinct", "field": field}
    elif m in ("max", "p95"):
        q = {"measure": m, "field": field}
    elif m == "top":
        q = {"measure": "count", "group_by": [field], "limit": 1}
    elif m in ("first_time", "last_time"):
        q = {"measure": "rows", "field": field, "order": "asc" if m == "first_time" else "desc", "limit": 1}
    else:
        raise ValueError("unknown measure %s" % m)
    f = fact.get("filter")
    if f:
        q["filters"] = [{"field": name(f["field"], f["role"]), "op": OPS[f["op"]], "value": f["value"]}]
    return q, field


def unit_factor(u):
    if u is None or str(u).strip().lower() in ("", "none"):
        return None, None  # the engine writes "none" for a field without a unit
    u = u.strip().lower() if u not in ("µs", "μs") else u
    if u in TIME_UNITS:
        return "time", TIME_UNITS[u]
    if u in SIZE_UNITS:
        return "size", SIZE_UNITS[u]
    return "other:" + u, 1.0


def parse_time(s):
    """ISO 8601 (optional fraction, optional Z/UTC/offset) or epoch s/ms/us -> datetime (aware or naive)."""
    if s is None:
        return None
    s = str(s).strip()
    if re.fullmatch(r"\d{9,}(\.\d+)?", s):
        x = float(s)
        if x > 1e14:
            x /= 1e6
        elif x > 1e11:
            x /= 1e3
        return datetime.fromtimestamp(int(x), UTC)
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:[.,]\d+)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?", s)
    if not m:
        return None
    dt = datetime.strptime(m.group(1) + "T" + m.group(2), "%Y-%m-%dT%H:%M:%S")
    z = m.group(3)
    if z in ("Z", "UTC"):
        return dt.replace(tzinfo=UTC)
    if z:
        sign = 1 if z[0] == "+" else -1
        hh, mm = int(z[1:3]), int(z[-2:])
        return dt.replace(tzinfo=timezone(sign * timedelta(hours=hh, minutes=mm)))
    return dt


def same_time(got, expected):
    if got is None:
        return False
    if expected.endswith("Z"):
        exp = datetime.strptime(expected, "%Y-%m-%dT%H:%M:%SZ")
        g = got.astimezone(UTC).replace(tzinfo=None) if got.tzinfo else got  # a zoneless answer is taken as UTC
        return g == exp
    exp = datetime.strptime(expected, "%Y-%m-%dT%H:%M:%S")
    return got.replace(tzinfo=None) == exp  # the log writes no zone: compare the wall clock as written


def answer(fact, out, field):
    """Extract the engine's answer for the fact; returns (got, ok)."""
    v = out["value"]
    m = fact["measure"]
    exp = fact["expected"]
    if m in ("count", "count_distinct"):
        got = v["count"]
        return got, got == exp
    if m in ("max", "p95"):
        got, gu = v.get("value"), v.get("unit")
        if got is None:
            return None, False
        gd, gf = unit_factor(gu)
        td, tf = unit_factor(fact.get("unit"))
        if gd is None or td is None:
            conv = got  # no unit reported: compared as written
        elif gd != td:
            return "%s %s" % (got, gu), False
        else:
            conv = got * gf / tf
        ok = conv == exp if exp == 0 else abs(conv - exp) <= REL_TOL * abs(exp)
        return "%s %s (= %s %s)" % (got, gu, conv, fact.get("unit")), ok
    if m == "top":
        rows = v.get("rows") or []
        if not rows:
            return None, False
        got = rows[0]["key"][0]
        ok = str(got) == str(exp)
        if not ok:
            try:
                ok = float(got) == float(exp)
            except (TypeError, ValueError):
                pass
        return got, ok
    if m in ("first_time", "last_time"):
        rows = v.get("rows") or []
        if not rows:
            return None, False
        row = rows[0]
        used = [r.get("used") for r in out.get("resolved", []) if r.get("asked") == field]
        cands = [f["value"] for f in row.get("fields", []) if used and f["name"] == used[0]] + [row.get("time")]
        for c in cands:
            t = parse_time(c)
            if t is not None:
                return c, same_time(t, exp)
        return cands, False
    raise ValueError(m)


def score_fact(binary, path, fact):
    q, field = build(fact, False)
    out, err = run(binary, q, path)
    retried = False
    if out is None and err and "unknown field" in err:
        q2, field2 = build(fact, True)
        if q2 != q:
            retried = True
            q, field = q2, field2
            out, err = run(binary, q, path)
    if out is None:
        return {"ok": False, "query": q, "got": None, "error": err.splitlines()[-1][:300], "retried": retried}, None
    try:
        got, ok = answer(fact, out, field)
    except (KeyError, TypeError, IndexError, ValueError) as e:
        got, ok = "unexpected answer shape: %r" % e, False
    return {"ok": ok, "query": q, "got": got, "retried": retried}, out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose = "-v" in sys.argv[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    binary = args[0]
    bad = check_frozen()
    if bad:
        sys.exit("frozen samples changed: %s" % ", ".join(bad))
    print("survey4 held-out log-format survey; binary: %s" % binary)
    tot_ok = tot_n = ev_ok = ev_n = 0
    for tpath in sorted(glob.glob(os.path.join(SURVEY, "*.truth.json"))):
        truth = json.load(open(tpath))
        path = os.path.join(SURVEY, truth["sample"])
        ok_n = 0
        events_exact = False
        lines = []
        for fact in truth["facts"]:
            res, out = score_fact(binary, path, fact)
            ok_n += res["ok"]
            if fact["measure"] == "count" and fact.get("filter") is None and out is not None:
                try:
                    events_exact = out["sources"][0]["events"] == truth["events"]
                except (KeyError, IndexError, TypeError):
                    events_exact = False
            lines.append("    %s %-4s %s | got %s | expected %s%s%s" % (
                fact["id"], "ok" if res["ok"] else "MISS", json.dumps(res["query"], ensure_ascii=False), res["got"],
                fact["expected"], " | retried with role words" if res["retried"] else "",
                (" | error: " + res["error"]) if res.get("error") else ""))
        n = len(truth["facts"])
        tot_ok += ok_n
        tot_n += n
        ev_ok += events_exact
        ev_n += 1
        print("%-24s facts %2d/%-2d  events %s" % (truth["sample"], ok_n, n, "exact" if events_exact else "not exact"))
        if verbose:
            print("\n".join(lines))
    print("TOTAL: facts matched %d/%d; event counts exact %d/%d" % (tot_ok, tot_n, ev_ok, ev_n))


if __name__ == "__main__":
    main()
