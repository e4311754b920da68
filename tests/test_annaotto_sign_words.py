"""The hint line names a sign in the table's language, as the labels print it (HÜRDEN / HURDLES)."""

from referee.table import Referee

HEADER = {"format": "tabletop-referee/1", "game": "annaotto", "players": ["Anna", "Ben"]}


def test_the_hint_line_names_the_top_sign_in_german_and_english() -> None:
    referee = Referee(HEADER)
    assert referee.apply({"type": "start", "card": "AO:YELLOW.STRIPES"}).ok
    assert referee.apply({"type": "play", "player": "Anna", "card": "AO:YELLOW.CHECKS.HUERDEN"}).ok
    hints = referee.hints()
    assert "HÜRDEN" in hints.sentence("de") and "HUERDEN" not in hints.sentence("de")
    assert "HURDLES" in hints.sentence("en") and "HUERDEN" not in hints.sentence("en")
