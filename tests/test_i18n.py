"""Every marked sentence (referee words, kiosk, hub's event words) is in the one German catalogue, and the
compiled catalogues match their sources."""

from __future__ import annotations

import gettext
import subprocess
import sys

import pytest
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.pofile import read_po

from referee.words import DOMAIN, LOCALE_DIR, REASONS

ROOT = LOCALE_DIR.parent.parent
SOURCES = ("referee", "kiosk", "hub/describe.py")  # as scripts/i18n.sh extracts them


def source_messages() -> set[str | tuple[str, str]]:
    """Every marked sentence: a string (`tr`, `N_`), or (singular, plural) for `trn` and `Np_`."""
    keywords = {"tr": None, "N_": None, "trn": (1, 2), "Np_": (1, 2)}
    found = []
    for source in SOURCES:
        path = ROOT / source
        if path.is_dir():
            found += [m for _, _, m, _, _ in extract_from_dir(str(path), method_map=[("**.py", "python")],
                                                                 keywords=keywords)]
        else:
            with open(path, "rb") as handle:
                found += [m for _, _, m, _ in extract_python(handle, keywords, [], {})]
    return {message if isinstance(message, str) else tuple(message) for message in found
            if isinstance(message, str) or all(isinstance(m, str) for m in message)}


def _translated(string: str | tuple[str, ...]) -> bool:
    return all(string) if isinstance(string, tuple) else bool(string)


def test_every_marked_sentence_has_a_german_translation() -> None:
    with open(LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as handle:
        catalog = read_po(handle)
    translated = {m.id for m in catalog if m.id and _translated(m.string)}
    # a word marked alone and with its plural ("card" in `referee replay --pretty`, "card"/"cards" a seat's unit)
    # is one entry: gettext reads the alone one from the plural entry's singular form
    translated |= {m.id[0] for m in catalog if isinstance(m.id, tuple) and _translated(m.string)}
    missing = sorted(map(str, source_messages() - translated))
    assert not missing, f"untranslated (run scripts/i18n.sh and translate): {missing}"
    assert any(isinstance(m, tuple) for m in source_messages()), "no trn() sentence found: the plural check is idle"


@pytest.mark.parametrize(("domain", "lang"),
                         [(DOMAIN, "de"), (REASONS, "de"), (REASONS, "en"), ("hub", "de"), ("hub", "en")])
def test_compiled_catalog_matches_the_po_file(domain: str, lang: str) -> None:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as handle:
        catalog = read_po(handle)
    compiled = gettext.translation(domain, LOCALE_DIR, languages=[lang])
    stale = []
    for m in catalog:
        if not m.id or not _translated(m.string):
            continue
        if isinstance(m.id, tuple):
            if [compiled.ngettext(m.id[0], m.id[1], n) for n in (1, 2)] != list(m.string):
                stale.append(m.id)
        elif compiled.gettext(m.id) != m.string:
            stale.append(m.id)
    assert not stale, f"{domain}.mo is older than {domain}.po (run scripts/i18n.sh): {stale[:5]}"


def test_german_is_the_default_language() -> None:
    out = subprocess.run([sys.executable, "-c", "from kiosk.i18n import tr; print(tr('{player} to play', player='A'))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "A ist am Zug"
