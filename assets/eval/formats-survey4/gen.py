"""survey4: write all held-out log samples and their truth files into /tmp/survey4 (stdlib only, fixed seeds).

Generators (gen_*.py) write the logs; truth parsers (truth_*.py) then read each written file back and compute the
facts independently of the generator's plan.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_app, gen_cloud, gen_db, gen_java, gen_node, gen_ops, gen_sec, gen_web, gen_zeek  # noqa: E402
import truth_app, truth_cloud, truth_db, truth_java, truth_node, truth_ops, truth_sec, truth_web  # noqa: E402
from common import OUT  # noqa: E402


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in glob.glob(os.path.join(OUT, "*")):
        os.remove(f)
    for g in (gen_web, gen_cloud, gen_java, gen_app, gen_node, gen_db, gen_ops, gen_sec, gen_zeek):
        g.run()
    for t in (truth_web, truth_cloud, truth_java, truth_app, truth_node, truth_db, truth_ops, truth_sec):
        t.run()
    logs = [f for f in sorted(glob.glob(os.path.join(OUT, "*"))) if not f.endswith(".truth.json")]
    truths = sorted(glob.glob(os.path.join(OUT, "*.truth.json")))
    for f in logs:
        n = sum(1 for _ in open(f, newline=""))
        print("%-28s %5d lines" % (os.path.basename(f), n))
        assert 300 <= n <= 2000, f
    assert len(logs) == len(truths), (len(logs), len(truths))
    print("%d samples, %d truth files" % (len(logs), len(truths)))


if __name__ == "__main__":
    main()
