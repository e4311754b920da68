"""Every sentence the referee says, by a stable message key, in the reader's language.

A rejection carries a code (for tests and logs) and a message key plus values; a hint names a key too. The
sentence is made only when someone reads it, in the reader's language, from the shared catalogues
(`referee/locale/<lang>/LC_MESSAGES/reasons.po`, read through `referee.words`): the rules core holds codes
and values, no words. Cards and declared codes among the values are put into words on the way
(`referee.event_words.worded_params`).
"""

from __future__ import annotations

from collections.abc import Mapping

from referee import words
from referee.event_words import worded_params

LANGUAGES = ("en", "de")


def _template(key: str, lang: str) -> str | None:
    text = words.translation(lang if lang in words.LANGUAGES else "en", words.REASONS).gettext(key)
    return None if text == key else text


def render(key: str, params: Mapping[str, object], lang: str = "en") -> str:
    """The sentence for `key` in `lang` (English when the language is unknown); a key's first part
    (`bad-event` of `bad-event.json`) when the whole key has no sentence, else the key itself."""
    template = _template(key, lang) or _template(key.split(".", 1)[0], lang) or "{key}"
    try:
        return template.format(key=key, **worded_params(params, lang))
    except (KeyError, IndexError, ValueError):
        return template


def _keys(lang: str) -> set[str]:
    """The keys the catalogue of `lang` holds (a compiled catalogue is a dict: msgid → msgstr)."""
    found: set[str] = set()
    catalogue: object = words.translation(lang, words.REASONS)
    while catalogue is not None:
        found.update(k for k in getattr(catalogue, "_catalog", {}) if isinstance(k, str) and k)
        catalogue = getattr(catalogue, "_fallback", None)
    return found


def all_keys() -> list[str]:
    """Every message key with a sentence in English or German."""
    return sorted(_keys("en") | _keys("de"))


def text_pair(key: str) -> tuple[str, str] | None:
    """(English, German) of `key`, or None when neither catalogue has it."""
    en, de = _template(key, "en"), _template(key, "de")
    return None if en is None and de is None else (en or "", de or "")
