#!/usr/bin/env python3
"""Generate the formats-dev3 planted log cases.

Usage:  python3 gen.py      (from this directory or anywhere)

Deletes ./cases and rewrites it: one directory per case holding the log file
and truth.json.  Standard library only; fully deterministic (each case uses
random.Random(<fixed seed>)), so two runs give byte-identical output.
"""
import os
import shutil
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases_a  # noqa: E402
import cases_b  # noqa: E402
import cases_c  # noqa: E402
import cases_d  # noqa: E402
import cases_e  # noqa: E402


def main():
    out = os.path.join(HERE, "cases")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    seen = set()
    for mod in (cases_a, cases_b, cases_c, cases_d, cases_e):
        for build in mod.CASES:
            case = build()
            assert case.id not in seen, case.id
            seen.add(case.id)
            truth, size = case.write(out)
            lv = ", ".join("%s=%d" % kv for kv in truth["levels"].items()) or "-"
            print("%-24s %5d events %7d bytes  %s .. %s  levels: %s" % (
                truth["id"], truth["events"], size, truth["first_time"], truth["last_time"], lv))
    print("%d cases written to %s" % (len(seen), out))


if __name__ == "__main__":
    main()
