#!/usr/bin/env bash
# Benchmarks land with the index (issue 4) and RDT (issue 5) work; until then there is
# nothing honest to measure here, so say so and fail rather than print made-up numbers.
echo "bench: no benchmarks implemented yet (see docs/benchmarks.md)" >&2
exit 1
