"""Every sentence the referee says, by a stable message key, in the reader's language.

A rejection carries a code (for tests and logs) and a message key plus values; a hint names a key too. The
sentence is made only when someone reads it, in the reader's language, from the shared catalogues
(`referee/locale/<lang>/LC_MESSAGES/reasons.po`, read through `referee.words`): the rules core holds codes
and values, no words. Cards and declared codes among the values are put into words on the way
(`referee.event_words.worded_params`).

A sentence may name the rules it applies, in brackets at its end ("… (AO-R5)."): the log, `referee replay`, the
transcript export and staff read them; a guest's screen asks for the sentence without them (`rules=False`). A
count's noun agrees with it by `{n|card|cards}` (the first form for exactly 1, German and English alike).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from referee import words
from referee.event_words import worded_params

LANGUAGES = ("en", "de")
_REF = r"(?:[A-Z][A-Z0-9]*-[A-Z]+\d+[a-z]?|§\s?\d+[a-z]?)"  # a rule or decision id (AO-R15e, AC-D11) or § 6
RULE_REFS = re.compile(rf"\s*\(({_REF}(?:,\s*{_REF})*)\)")
PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")


def split_rules(sentence: str) -> tuple[str, tuple[str, ...]]:
    """A sentence → (the sentence without its rule references, the references): "… (AO-R1, AO-R2)." →
    ("….", ("AO-R1", "AO-R2"))."""
    refs = tuple(ref.strip() for found in RULE_REFS.findall(sentence) for ref in found.split(","))
    return RULE_REFS.sub("", sentence).strip(), refs


def _agree(template: str, params: Mapping[str, object]) -> str:
    """`{n|card|cards}` → the form that agrees with the value of `n` (left as it is when `n` is no number)."""

    def form(found: re.Match[str]) -> str:
        value = params.get(found.group(1))
        if not isinstance(value, int):
            return found.group(0)
        return found.group(2) if value == 1 else found.group(3)

    return PLURAL.sub(form, template)


def _template(key: str, lang: str) -> str | None:
    text = words.translation(lang if lang in words.LANGUAGES else "en", words.REASONS).gettext(key)
    return None if text == key else text


def render(key: str, params: Mapping[str, object], lang: str = "en", rules: bool = True) -> str:
    """The sentence for `key` in `lang` (English when the language is unknown); a key's first part
    (`bad-event` of `bad-event.json`) when the whole key has no sentence, else the key itself. `rules=False`:
    without the rule references (a guest's screen)."""
    template = _template(key, lang) or _template(key.split(".", 1)[0], lang) or "{key}"
    if not rules:
        template = split_rules(template)[0]
    template = _agree(template, params)
    try:
        return template.format(key=key, **worded_params(params, lang))
    except (KeyError, IndexError, ValueError):
        return template


def rules_of(key: str) -> tuple[str, ...]:
    """The rule references the sentence of `key` names (for staff: the history's detail)."""
    template = _template(key, "en") or _template(key.split(".", 1)[0], "en") or ""
    return split_rules(template)[1]


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
