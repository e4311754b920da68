"""The hub's page sentences in the reader's language: one small helper over the shared gettext catalogues.

The café pages, the staff pages and the club nights' desk say their sentences through `tr`, looked up per
call (one process serves German and English at once) in the `hub` domain of `referee/locale/<lang>/
LC_MESSAGES/hub.po`, written by hand in both languages and compiled by `scripts/i18n.sh`. A sentence the
hub's catalogue does not hold is the shared one (`tabletop`, `referee.words`): game states, verdicts and
"{player} to play" are written once, where the kiosk says them too. Moves and cards come from
`hub.describe`.
"""

from __future__ import annotations

import gettext
from functools import cache
from typing import Any

from referee import words
from referee.words import DEFAULT_LANGUAGE, LANGUAGES, LOCALE_DIR, N_

__all__ = ["DEFAULT_LANGUAGE", "DOMAIN", "LANGUAGES", "N_", "german_known", "lang_of", "pick_language", "sentences",
           "tr"]

DOMAIN = "hub"


@cache
def sentences(lang: str) -> dict[str, str]:
    """The hub catalogue of `lang` as English → sentence (empty for a language without one)."""
    found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    return {k: v for k, v in getattr(found, "_catalog", {}).items() if isinstance(k, str) and k}


def tr(text: str, lang: str, **values: object) -> str:
    """`text` (English) in `lang`, with `{name}` values filled in: the hub's catalogue first, then the shared
    one; the English itself where neither knows it."""
    template = sentences(lang).get(text)
    if template is None:
        template = words.translation(lang).gettext(text)
    return template.format(**values) if values else template


def german_known(text: str) -> bool:
    """For the tests that every sentence the pages say has its German (hub's catalogue or the shared one)."""
    return text in sentences("de") or words.translated(text, "de")


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """`?lang=` first, then the cookie, then the browser's first known language; German by default."""
    for choice in (query, cookie):
        if choice in LANGUAGES:
            return choice
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def lang_of(request: Any) -> str:
    """The reader's language for a request (a Starlette `Request`: its query, cookies and headers), by
    `pick_language`: the one place every page, form answer and download asks it."""
    return pick_language(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))
