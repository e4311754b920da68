"""Every sentence the kiosk shows is in the German catalog, and the compiled catalogs match their sources."""

from __future__ import annotations

import gettext
import subprocess
import sys

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from kiosk.i18n import DOMAIN, LOCALE_DIR


def source_messages() -> set[str]:
    keywords = {"tr": None, "N_": None}
    found = extract_from_dir(str(LOCALE_DIR.parent), method_map=[("**.py", "python")], keywords=keywords)
    return {message for _, _, message, _, _ in found if isinstance(message, str)}


def test_every_marked_sentence_has_a_german_translation() -> None:
    with open(LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as handle:
        catalog = read_po(handle)
    translated = {m.id: m.string for m in catalog if m.id and m.string}
    missing = sorted(source_messages() - set(translated))
    assert not missing, f"untranslated (run scripts/i18n.sh and translate): {missing}"


def test_compiled_catalog_matches_the_po_file() -> None:
    with open(LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as handle:
        catalog = read_po(handle)
    compiled = gettext.translation(DOMAIN, LOCALE_DIR, languages=["de"])
    stale = [m.id for m in catalog if m.id and m.string and compiled.gettext(m.id) != m.string]
    assert not stale, f"kiosk.mo is older than kiosk.po (run scripts/i18n.sh): {stale[:5]}"


def test_german_is_the_default_language() -> None:
    out = subprocess.run([sys.executable, "-c", "from kiosk.i18n import tr; print(tr('{player} to play', player='A'))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "A ist am Zug"
