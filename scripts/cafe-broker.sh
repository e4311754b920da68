#!/usr/bin/env bash
# Write a café's Mosquitto configuration: listener, persistence, a broker user per table and one for the hub,
# and the ACL of shared/cafe-protocol.md ("Access"). Passwords are made with Debian's mosquitto_passwd.
# Usage: scripts/cafe-broker.sh --cafe nord --tables t1 t2 t3 --out /etc/mosquitto/tabletop [--port 1883]
#        [--bind ADDRESS] [--conf-d] [--data-dir DIR] [--tls-cert PEM --tls-key PEM] [--renew]
# See docs/cafe.md. Same as `python -m cafe broker-config ...`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="$repo/.venv/bin/python"
[ -x "$python" ] || python=python3
PYTHONPATH="$repo${PYTHONPATH:+:$PYTHONPATH}" exec "$python" -m cafe broker-config "$@"
