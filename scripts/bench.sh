#!/usr/bin/env bash
# Benchmarks in their own venv (.venv-bench, with RLCard and OpenSpiel for the side-by-side peers).
# Usage: scripts/bench.sh [engine.py arguments, default --peers]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv-bench/bin/python ]; then
  "${PYTHON:-python3}" -m venv .venv-bench
fi
.venv-bench/bin/python -m pip install --quiet --upgrade pip
.venv-bench/bin/python -m pip install --quiet -e '.[bench]'
exec .venv-bench/bin/python -m benchmarks.engine "${@:---peers}"
