"""Languages: German first, English one touch away, from the shared catalogue (`referee.words`).

Source strings are English and marked with `tr()` (translated now), `trn()` (with a plural), `N_()`
(marked, translated later) or `Np_()` (a word and its plural, marked); `scripts/i18n.sh` extracts them. The
kiosk speaks one language at a time: the one the guests chose.
"""

from __future__ import annotations

from referee import words
from referee.words import DOMAIN, LANGUAGES, LOCALE_DIR, N_, Np_

__all__ = ["DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "Np_", "language", "set_language", "tr", "trn"]


class _State:
    lang = "de"


def set_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    _State.lang = lang


def language() -> str:
    return _State.lang


def tr(message: str, /, **values: object) -> str:
    """The message in the current language, with `{name}` values filled in."""
    return words.tr(message, _State.lang, **values)


def trn(singular: str, plural: str, n: int, /, **values: object) -> str:
    """`tr` for a sentence about `n` things ("1 game" / "2 games"; German the same), with `{n}` filled in."""
    return words.trn(singular, plural, n, _State.lang, **values)
