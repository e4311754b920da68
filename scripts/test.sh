#!/usr/bin/env bash
# Install what the tests need into .venv, then run every test: lint, pytest, the acceptance transcripts.
# Usage: scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
# tests/test_pi.py runs systemd-analyze and shellcheck: as root with apt-get (CI), install the missing ones.
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  missing=()
  command -v systemd-analyze >/dev/null || missing+=(systemd)
  command -v shellcheck >/dev/null || missing+=(shellcheck)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== apt-get install ${missing[*]}"
    aptlog=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}"; } >"$aptlog" 2>&1; then
      cat "$aptlog" >&2
      echo "apt-get could not install ${missing[*]}: tests/test_pi.py will fail" >&2
    fi
    rm -f "$aptlog"
  fi
fi
# The café tests start Debian's mosquitto (and use mosquitto_passwd, and openssl for a TLS broker) on loopback:
# as root, install what is missing.
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  cafe_missing=()
  [ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null || cafe_missing+=(mosquitto)
  command -v openssl >/dev/null || cafe_missing+=(openssl)
  if [ ${#cafe_missing[@]} -gt 0 ]; then
    echo "== apt-get install ${cafe_missing[*]}"
    aptlog=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${cafe_missing[@]}"; } >"$aptlog" 2>&1; then
      cat "$aptlog" >&2
      echo "apt-get could not install ${cafe_missing[*]}: tests/test_cafe*.py will fail" >&2
    fi
    rm -f "$aptlog"
  fi
fi
# The hub's browser tests drive Debian's chromium through the playwright package (never `playwright install`,
# whose download cannot be reached): as root with apt-get, install it when missing.
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null && [ ! -x /usr/bin/chromium ]; then
  echo "== apt-get install chromium"
  aptlog=$(mktemp)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      chromium; } >"$aptlog" 2>&1; then
    cat "$aptlog" >&2
    echo "apt-get could not install chromium: the hub's browser tests will fail" >&2
  fi
  rm -f "$aptlog"
fi
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
