"""`referee-kiosk`: the table kiosk's entry point."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("referee-kiosk: the kiosk is not built yet (issue 6). "
          "The rules core works: try `referee replay FILE --pretty`.", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
