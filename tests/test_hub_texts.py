"""The hub's page sentences live in the shared gettext catalogues (domain `hub`, issue #23): every sentence the
café pages, the staff pages and the club nights' desk say is there in German and in English, and a word the
shared catalogue (`tabletop`) already holds is not written a second time."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from hub.evenings.desk import SEATINGS
from hub.evenings.texts import ACTION_WORDS
from hub.texts import DOMAIN, german_known, pick_language, sentences, tr
from hub.views import STATUSES
from referee.words import DOMAIN as SHARED
from referee.words import LOCALE_DIR, translated

ROOT = Path(__file__).resolve().parent.parent
CALLED = re.compile(r"""(?:\b(?:tr?|N_|FormError|DeskError)\(|\bact\("\w+",)\s*"""
                    r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")
SAME_IN_BOTH = {"Café", "Status", "online", "offline", "live", "Name"}  # spelled alike in German; catalogue entries


def catalogue(domain: str, lang: str) -> dict[str, str]:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id}


def said_by_the_hub() -> set[str]:
    """Every sentence the hub's code and templates name literally (`t`, `tr`, `N_`, `FormError`, the desk's
    `act` buttons), and the words it shows by value."""
    sources = [*(ROOT / "hub").rglob("*.html"), *(p for p in (ROOT / "hub").rglob("*.py") if p.name != "describe.py")]
    used = {a or b for path in sources for a, b in CALLED.findall(path.read_text(encoding="utf-8"))}
    return used | set(ACTION_WORDS.values()) | set(SEATINGS) | set(STATUSES)


def test_every_msgid_of_the_hub_has_both_languages_with_the_same_values() -> None:
    de, en = catalogue(DOMAIN, "de"), catalogue(DOMAIN, "en")
    assert len(de) > 150 and set(de) == set(en)
    for msgid in de:
        assert de[msgid] and en[msgid], msgid
        assert de[msgid] != en[msgid] or msgid in SAME_IN_BOTH, f"{msgid}: the German sentence is not translated"
        assert set(re.findall(r"{(\w+)", de[msgid])) == set(re.findall(r"{(\w+)", msgid)), msgid


def test_no_sentence_is_written_in_both_catalogues() -> None:
    """A game state, a verdict or "{player} to play" is the shared catalogue's word, not the hub's again."""
    twice = set(catalogue(DOMAIN, "de")) & set(catalogue(SHARED, "de"))
    assert sorted(twice) == []


def test_every_sentence_the_hub_says_is_in_a_catalogue_in_both_languages() -> None:
    said = said_by_the_hub()
    assert len(said) > 150
    assert sorted(s for s in said if not german_known(s)) == []
    in_english = set(sentences("en"))
    assert sorted(s for s in said if s not in in_english and not translated(s, "de")) == []


def test_tr_reads_the_hub_catalogue_then_the_shared_one() -> None:
    assert tr("Leaderboards", "de") == "Bestenlisten" and tr("Leaderboards", "en") == "Leaderboards"
    assert tr("{alias} is now counted as {name}.", "de", alias="Jo", name="Johanna") == "Jo zählt jetzt als Johanna."
    assert tr("{player} to play", "de", player="Anna") == "Anna ist am Zug"  # the shared catalogue's sentence
    assert tr("finished", "de") == "beendet" and tr("Standings", "fr") == "Standings"
    assert pick_language(None, None, "fr, en;q=0.8") == "en" and pick_language(None, None, None) == "de"


def test_a_missing_page_says_so_in_the_readers_language() -> None:
    from starlette.requests import Request

    from hub.views import not_found

    def asked(query: bytes) -> Request:
        return Request({"type": "http", "method": "GET", "path": "/games/x", "query_string": query, "headers": []})

    de, en = not_found(asked(b"lang=de"), "No such game."), not_found(asked(b"lang=en"), "No such game.")
    assert (de.status_code, de.body.decode()) == (404, "Dieses Spiel gibt es nicht.")
    assert en.body.decode() == "No such game."
    assert not_found(asked(b""), "A day is written YYYY-MM-DD.", 400).status_code == 400
