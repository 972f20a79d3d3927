#!/usr/bin/env bash
# Idempotent setup of the runtime data dir. Safe to run any number of times.
set -euo pipefail
data_dir="${1:-storage}"
mkdir -p "$data_dir/uploads" "$data_dir/logs"
echo "setup: data dir $data_dir ready"
