"""Carry German translations into the current catalog from other copies of it (after a merge).

    .venv/bin/python scripts/merge_po.py TARGET.po SOURCE.po [SOURCE.po ...]

Every msgid of TARGET without a translation takes the first one any SOURCE has. Prints what is
still untranslated. (Babel's own `update` only merges the template into one catalog.)
"""

from __future__ import annotations

import sys

from babel.messages.pofile import read_po, write_po


def main(target: str, *sources: str) -> int:
    known: dict[str, str] = {}
    for source in sources:
        with open(source, "rb") as handle:
            for message in read_po(handle):
                if message.id and message.string and message.id not in known:
                    known[message.id] = message.string
    with open(target, "rb") as handle:
        catalog = read_po(handle)
    missing = []
    for message in catalog:
        if message.id and not message.string:
            if message.id in known:
                message.string = known[message.id]
            else:
                missing.append(message.id)
    with open(target, "wb") as handle:
        write_po(handle, catalog, width=120)
    for msgid in missing:
        print("untranslated:", msgid)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
