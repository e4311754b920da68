#!/usr/bin/env bash
# Extract the kiosk's sentences (tr, N_) with Babel, merge them into the de/en catalogs, compile the .mo files.
# After running: translate the new entries in kiosk/locale/de/LC_MESSAGES/kiosk.po and run it again.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin
$bin/pybabel extract -F babel.cfg -k tr -k trn:1,2 -k N_ --no-location --sort-output -o kiosk/locale/kiosk.pot kiosk
for lang in de en; do
  po=kiosk/locale/$lang/LC_MESSAGES/kiosk.po
  if [ -f "$po" ]; then
    $bin/pybabel update --ignore-obsolete --no-fuzzy-matching -i kiosk/locale/kiosk.pot -d kiosk/locale -D kiosk -l "$lang"
  else
    $bin/pybabel init -i kiosk/locale/kiosk.pot -d kiosk/locale -D kiosk -l "$lang"
  fi
done
$bin/pybabel compile -d kiosk/locale -D kiosk --use-fuzzy 2>/dev/null || $bin/pybabel compile -d kiosk/locale -D kiosk
