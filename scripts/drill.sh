#!/usr/bin/env bash
# Operations drills against a real simulated kiosk: SIGKILLs, SIGTERMs/SIGINTs, garbage scans, storage faults, config mutations.
# Usage: scripts/drill.sh [--kills 1000] [--stops 200] [--garbage 100000] [--mutations 1000] [--no-faults] [--seed N]
#        scripts/drill.sh monkey [--inputs 20000] [--games alles-klar,...] [--sizes 800x480,1280x720,720x1280]
#                                [--langs de,en] [--kill-every 300] [--quiet-every 0] [--seed N] [--jobs N]
#        scripts/drill.sh club [--posts 5000] [--seed N]   (hostile posts to the club nights' desk and check-in)
#        scripts/drill.sh attack [--small] [--json FILE]  (every attack of issue #34 on a real café: benchmarks/attack.py)
#        scripts/drill.sh pairing [--garbage 500] [--flood 200] [--seed N]   (hostile requests to the pairing
#        addresses, code guessing, a replayed claim, a hub impostor: benchmarks/pair_drill.py)
#        scripts/drill.sh teach [--decks 300] [--inputs 2000] [--seed N]   (hostile taught-deck files at the
#          loader, the camera command line and a kiosk; random taps, cards and hands at the teaching screens)
# (storage faults include a full disk and a read-only data directory only when run as root: they mount a tmpfs;
# the monkey drill throws random guest inputs at every screen of every game, each at every size and language asked
# for, and counts the texts the renderer cut: benchmarks/monkey.py; --quiet-every N
# leaves the table alone every N inputs until the sound device closes)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  "${PYTHON:-python3}" -m venv .venv
  .venv/bin/python -m pip install --quiet -e '.[dev]'
fi
# each drill's module (the first argument names it; none: the kiosk's drills)
case "${1:-}" in
  attack) drill=attack ;;
  pairing) drill=pair_drill ;;
  club) drill=club_attack ;;
  teach) drill=teach_drill ;;
  monkey) drill=monkey ;;
  *) drill=drills ;;
esac
[ "$drill" = drills ] || shift
exec .venv/bin/python -m "benchmarks.$drill" "$@"
