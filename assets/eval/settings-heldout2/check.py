#!/usr/bin/env python3
"""Validate settings-heldout2: jsonl parses, ids unique, counts, answers present in source files."""
import collections, json, os, re, sys

D = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(D, "fixtures")
fx = {n: open(os.path.join(FX, n), encoding="utf-8").read() for n in os.listdir(FX)}

# answer-source table from README.md: | id | file | `key` | `value` |
src = {}
for line in open(os.path.join(D, "README.md"), encoding="utf-8"):
    m = re.match(r"\| (t\d{3}) \| (\S+) \| `(.+)` \| `(.+)` \|$", line.strip())
    if m:
        src[m.group(1)] = (m.group(2), m.group(4))

rows = [json.loads(l) for l in open(os.path.join(D, "settings-heldout2.jsonl"), encoding="utf-8")]
errors = []
ids = [r["id"] for r in rows]
if len(ids) != len(set(ids)):
    errors.append("duplicate ids")
want = {"value": 24, "limit": 10, "where": 6, "monitor": 8}
got = collections.Counter(r["cat"] for r in rows)
if dict(got) != want:
    errors.append(f"category counts {dict(got)} != {want}")
for r in rows:
    if set(r) != {"id", "text", "cat", "first", "answer_has"}:
        errors.append(f"{r['id']}: bad keys")
    c, a = r["cat"], r["answer_has"]
    if c == "monitor":
        if r["first"] != ["sys_monitor"] or a:
            errors.append(f"{r['id']}: monitor case must have first=[sys_monitor], answer_has=[]")
        continue
    if r["first"] != ["semantic_search", "file_read", "file_upload"] or len(a) != 1:
        errors.append(f"{r['id']}: bad first/answer_has")
        continue
    if c == "where":
        if a[0] not in fx:
            errors.append(f"{r['id']}: {a[0]} is not a fixture")
        continue
    fn, val = src.get(r["id"], (None, None))
    if val != a[0]:
        errors.append(f"{r['id']}: README table says {val!r}, jsonl says {a[0]!r}")
    if fn not in fx or a[0] not in fx[fn]:
        errors.append(f"{r['id']}: {a[0]!r} not found in {fn}")
        continue
    n = sum(t.count(a[0]) for t in fx.values()) if len(a[0]) >= 3 else sum(
        len(re.findall(r"(?<![\w.])" + re.escape(a[0]) + r"(?![\w])", t)) for t in fx.values())
    if n != 1:
        print(f"note: {r['id']} {a[0]!r} occurs {n} times across fixtures")
zh = sum(1 for r in rows if re.search(r"[\u4e00-\u9fff]", r["text"]))
print(f"{len(rows)} cases, {dict(got)}, zh={zh} en={len(rows) - zh}")
for e in errors:
    print("ERROR:", e)
sys.exit(1 if errors else 0)
