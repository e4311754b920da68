"""The one catalogue per language every layer reads: gettext's `tabletop` domain in `referee/locale`.

Source strings are English and marked where they are written (`N_` for words kept for later, `tr` for a
sentence made now); `scripts/i18n.sh` extracts them from `referee/` and `kiosk/` into the catalogues and
compiles the `.mo` files. A sentence is looked up per call in the language asked for, so one process can
speak German and English at once (the hub serves both). The words of a card, a colour or an event are
written once, here or in the game's deck module, and read the same by the kiosk, the hub, the labels and
`referee replay`.

This module reads the compiled catalogues (files) and is not part of the rules core: the rules return
codes and values; this layer and the ones above put them into words.
"""

from __future__ import annotations

import gettext
import re
from functools import cache, lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "tabletop"  # every marked sentence of the referee's words, the kiosk and the hub's event words
REASONS = "reasons"  # the referee's sentences by message key (rejections, hints): `referee.messages`
LANGUAGES = ("de", "en")  # German first
DEFAULT_LANGUAGE = "de"

_extra: list[Path] = []  # catalogue folders added by games that ship their own (e.g. the test suite's toy game)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a word and its plural for extraction (`trn` translates them later for a count): "1 Punkt", "3 Punkte"."""
    return singular, plural


@cache
def translation(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalogue of `lang` (English for an unknown language: the msgids are English)."""
    found = gettext.translation(domain, LOCALE_DIR, languages=[lang], fallback=True)
    for folder in _extra:
        found.add_fallback(gettext.translation(domain, folder, languages=[lang], fallback=True))
    return found


def add_catalogue(folder: Path) -> None:
    """Read a game's own catalogue folder (`<folder>/<lang>/LC_MESSAGES/<domain>.mo`) after the shared one."""
    if folder not in _extra:
        _extra.append(folder)
        _clear()


def remove_catalogue(folder: Path) -> None:
    if folder in _extra:
        _extra.remove(folder)
        _clear()


def _clear() -> None:
    """Forget what was read from the catalogues (a game's own catalogue came or went)."""
    translation.cache_clear()
    _default_names.cache_clear()
    default_names_in.cache_clear()


def tr(message: str, lang: str, /, **values: object) -> str:
    """`message` (English) in `lang`, with `{name}` values filled in."""
    text = translation(lang).gettext(message)
    return text.format(**values) if values else text


def trn(singular: str, plural: str, n: int, lang: str, /, **values: object) -> str:
    """`tr` for a sentence about `n` things, with `{n}` filled in."""
    return translation(lang).ngettext(singular, plural, n).format(n=n, **values)


def translated(message: str, lang: str) -> bool:
    """Does the catalogue of `lang` hold `message`? (English counts as written: the msgids are English.)"""
    if lang == "en":
        return True
    return translation(lang).gettext(message) != message or _same_in_both(message, lang)


def _same_in_both(message: str, lang: str) -> bool:
    """A word spelled the same in German (`Orange`, `Joker`) is still a catalogue entry: look it up."""
    catalogue: gettext.NullTranslations | None = translation(lang)
    while catalogue is not None:
        if message in getattr(catalogue, "_catalog", {}):
            return True
        catalogue = getattr(catalogue, "_fallback", None)
    return False


DEFAULT_NAME = N_("Player {n}")  # a seat's name until the guests type their own


@cache
def _default_names() -> re.Pattern[str]:
    """"Spieler 3" or "Player 3": a default name in any language, as a whole name."""
    shapes = {re.escape(tr(DEFAULT_NAME, lang, n=0)).replace("0", r"(\d+)", 1) for lang in LANGUAGES}
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(shapes)) + r")(?!\w)")


def is_default_name(name: str) -> bool:
    """Whether `name` is a seat's default name in any language ("Spieler 3", "Player 3"): a guest who did not
    type a name of their own (the café counts no such player, `shared/cafe-protocol.md` start record `guests`)."""
    return _default_names().fullmatch(name.strip()) is not None


@lru_cache(maxsize=4096)  # a screen draws the same texts frame after frame
def default_names_in(text: str, lang: str) -> str:
    """`text` with every default name in `lang` ("Spieler 1" → "Player 1" in English): only the default names
    follow the table's language when it is switched mid-game; a name the guests typed stays as typed."""
    if not any(ch.isdigit() for ch in text):
        return text
    return _default_names().sub(lambda m: tr(DEFAULT_NAME, lang, n=int(next(g for g in m.groups() if g))), text)
