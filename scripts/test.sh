#!/usr/bin/env bash
# Install what the tests need into .venv, then run every test: lint, pytest, the acceptance transcripts.
# Usage: scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
# As root with apt-get (CI), install the Debian packages the tests need when they are missing.
apt_missing=()
need() {  # need PACKAGE TEST...: PACKAGE is missing when every TEST fails
  local package=$1; shift
  for test in "$@"; do eval "$test" >/dev/null 2>&1 && return; done
  apt_missing+=("$package")
}
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  # tests/test_pi.py runs systemd-analyze and shellcheck.
  need systemd "command -v systemd-analyze"
  need shellcheck "command -v shellcheck"
  # The kiosk draws with DejaVu Sans Bold (✓ ✗, clear capitals); the screen tests and the audit measure it.
  need fonts-dejavu-core "[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ]"
  # The café tests start Debian's mosquitto (with mosquitto_passwd, and openssl for a TLS broker) on loopback.
  need mosquitto "[ -x /usr/sbin/mosquitto ]" "command -v mosquitto"
  need openssl "command -v openssl"
  # The hub's browser tests drive Debian's chromium through the playwright package (never `playwright install`,
  # whose download cannot be reached).
  need chromium "[ -x /usr/bin/chromium ]"
  # The camera's face reader is tested on printed French decks: Debian's gnome-cards-data (aisleriot's SVG card
  # themes), drawn by rsvg-convert (librsvg2-bin).
  need gnome-cards-data "[ -f /usr/share/aisleriot/cards/paris.svgz ]"
  need librsvg2-bin "command -v rsvg-convert"
  if [ ${#apt_missing[@]} -gt 0 ]; then
    echo "== apt-get install ${apt_missing[*]}"
    aptlog=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${apt_missing[@]}"; } >"$aptlog" 2>&1; then
      cat "$aptlog" >&2
      echo "apt-get could not install ${apt_missing[*]}: the tests that use them will fail" >&2
    fi
    rm -f "$aptlog"
  fi
fi
python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy (pyproject.toml [tool.mypy]: strict for referee, hw, cafe; every function typed in kiosk, hub)"
.venv/bin/mypy
echo "== vulture (pyproject.toml [tool.vulture]; what it cannot see used: scripts/dead_code_whitelist.py)"
.venv/bin/vulture
echo "== pytest"
# In parallel (pytest-xdist): most of the suite's time is real processes waiting on each other (kiosks,
# brokers, browsers), so more workers than cores pays; `worksteal` evens out the long tests at the end.
# TEST_JOBS=1 runs them in one process; arguments given here come last and win (`-n 0`, `-m "not slow"`).
# The 25 slowest are listed at the end: where the suite's wall time goes.
.venv/bin/python -m pytest -n "${TEST_JOBS:-4}" --dist worksteal --durations=25 "$@"
echo "== acceptance transcripts (../shared/transcripts)"
.venv/bin/python scripts/check_transcripts.py
