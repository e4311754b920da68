#!/usr/bin/env bash
# Install what the tests need into .venv, then run every test: lint, pytest, the acceptance transcripts.
# Usage: scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
echo "== ruff"
.venv/bin/ruff check .
echo "== pytest"
.venv/bin/python -m pytest "$@"
echo "== acceptance transcripts (../shared/transcripts)"
.venv/bin/python scripts/check_transcripts.py
