"""Every sentence the kiosk shows is in the German catalog, and the compiled catalogs match their sources."""

from __future__ import annotations

import gettext
import subprocess
import sys

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from kiosk.i18n import DOMAIN, LOCALE_DIR


def source_messages() -> set[str | tuple[str, str]]:
    """Every marked sentence: a string (`tr`, `N_`), or (singular, plural) for `trn`."""
    keywords = {"tr": None, "N_": None, "trn": (1, 2)}
    found = extract_from_dir(str(LOCALE_DIR.parent), method_map=[("**.py", "python")], keywords=keywords)
    return {message if isinstance(message, str) else tuple(message) for _, _, message, _, _ in found
            if isinstance(message, str) or all(isinstance(m, str) for m in message)}


def _translated(string: str | tuple[str, ...]) -> bool:
    return all(string) if isinstance(string, tuple) else bool(string)


def test_every_marked_sentence_has_a_german_translation() -> None:
    with open(LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as handle:
        catalog = read_po(handle)
    translated = {m.id for m in catalog if m.id and _translated(m.string)}
    missing = sorted(map(str, source_messages() - translated))
    assert not missing, f"untranslated (run scripts/i18n.sh and translate): {missing}"
    assert any(isinstance(m, tuple) for m in source_messages()), "no trn() sentence found: the plural check is idle"


def test_compiled_catalog_matches_the_po_file() -> None:
    with open(LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as handle:
        catalog = read_po(handle)
    compiled = gettext.translation(DOMAIN, LOCALE_DIR, languages=["de"])
    stale = []
    for m in catalog:
        if not m.id or not _translated(m.string):
            continue
        if isinstance(m.id, tuple):
            if [compiled.ngettext(m.id[0], m.id[1], n) for n in (1, 2)] != list(m.string):
                stale.append(m.id)
        elif compiled.gettext(m.id) != m.string:
            stale.append(m.id)
    assert not stale, f"kiosk.mo is older than kiosk.po (run scripts/i18n.sh): {stale[:5]}"


def test_german_is_the_default_language() -> None:
    out = subprocess.run([sys.executable, "-c", "from kiosk.i18n import tr; print(tr('{player} to play', player='A'))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "A ist am Zug"
