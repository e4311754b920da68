#!/usr/bin/env bash
# The one catalogue per language (referee/locale, domain "tabletop"): extract every marked sentence (tr, trn, N_, Np_)
# of the referee's words, the kiosk and the hub's event words with Babel, merge them into the de/en catalogs,
# compile the .mo files. After running: translate the new entries in referee/locale/de/LC_MESSAGES/tabletop.po
# and run it again. The referee's own sentences (domain "reasons", keyed by message key) are written by hand in
# referee/locale/<lang>/LC_MESSAGES/reasons.po, and the hub's page sentences (domain "hub", keyed by their
# English) in referee/locale/<lang>/LC_MESSAGES/hub.po; this script compiles them too.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin
locale=referee/locale
$bin/pybabel extract -F babel.cfg -k tr -k trn:1,2 -k N_ -k Np_:1,2 --no-location --sort-output -o $locale/tabletop.pot \
  referee kiosk hub/describe.py
for lang in de en; do
  po=$locale/$lang/LC_MESSAGES/tabletop.po
  if [ -f "$po" ]; then
    $bin/pybabel update --ignore-obsolete --no-fuzzy-matching -i $locale/tabletop.pot -d $locale -D tabletop -l "$lang"
  else
    $bin/pybabel init -i $locale/tabletop.pot -d $locale -D tabletop -l "$lang"
  fi
done
$bin/pybabel compile -d $locale -D tabletop --use-fuzzy 2>/dev/null || $bin/pybabel compile -d $locale -D tabletop
$bin/pybabel compile -d $locale -D reasons
$bin/pybabel compile -d $locale -D hub
