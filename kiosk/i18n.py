"""Languages: German first, English one touch away (gettext catalogs in kiosk/locale, Babel to extract).

Source strings are English and marked with `tr()` (translated now), `trn()` (with a plural) or `N_()`
(marked, translated later). The referee's own sentences come in both languages
from `referee.messages`.
"""

from __future__ import annotations

import gettext
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "kiosk"
LANGUAGES = ("de", "en")


class _State:
    lang = "de"
    translation: gettext.NullTranslations = gettext.NullTranslations()


def set_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    _State.lang = lang
    _State.translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def language() -> str:
    return _State.lang


def tr(message: str, **values: object) -> str:
    """The message in the current language, with `{name}` values filled in."""
    text = _State.translation.gettext(message)
    return text.format(**values) if values else text


def trn(singular: str, plural: str, n: int, **values: object) -> str:
    """`tr` for a sentence about `n` things ("1 game" / "2 games"; German the same), with `{n}` filled in."""
    text = _State.translation.ngettext(singular, plural, n)
    return text.format(n=n, **values)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet."""
    return message


set_language("de")
