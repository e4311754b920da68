#!/usr/bin/env bash
# Install the kiosk into .venv (first run only) and start it; arguments go to referee-kiosk.
# Usage: scripts/kiosk.sh --sim     (simulated hardware; headless with SDL's dummy driver when there is no screen)
#        scripts/kiosk.sh --sim --camera   (the simulated overhead camera over the pile: no scanner needed)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if [ ! -x .venv/bin/referee-kiosk ]; then
  [ -x .venv/bin/python ] || "$python" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
fi
case " $* " in  # the camera reader's extra (zxing-cpp, Pillow), only when it is asked for
  *" --camera "*) .venv/bin/python -c "import zxingcpp, PIL" 2>/dev/null || .venv/bin/python -m pip install --quiet -e '.[camera]' ;;
esac
exec .venv/bin/referee-kiosk "$@"
