"""Card codes parse strictly and print themselves back; the tally counts faces and copies."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import Card, CardCodeError, CardTally, Deck, plausible_code

DECK = Deck({"AK:8.II": 2, "AK:9": 1}, {"AK:8.II": "eight", "AK:9": "nine"})


@pytest.mark.parametrize("code", ["AK:8.II", "AK:8.II#1", "AK:8.II#2", "AK:9#1"])
def test_valid_codes_round_trip(code: str) -> None:
    card, info = DECK.lookup(code)
    assert str(card) == code
    assert eval(repr(card), {"Card": Card}) == card  # the repr is pasteable
    assert info in ("eight", "nine")


@pytest.mark.parametrize("code", ["AK:8.II#3", "AK:8.II#0", "AK:8.II#", "AK:8.II#01", "AK:8.II#+1",
                                  "AK:8.II#a", "AK:8.II#1#1", "ak:8.II", "AK:8.II ", "AK:10", "", "#1",
                                  "AK:9#2", "AK:8.II#١"])
def test_invalid_codes_are_not_cards(code: str) -> None:
    with pytest.raises(CardCodeError):
        DECK.lookup(code)
    assert code not in DECK


def test_tally_counts_faces_with_and_without_copy_numbers() -> None:
    tally = CardTally()
    plain, _ = DECK.lookup("AK:8.II")
    first, _ = DECK.lookup("AK:8.II#1")
    assert tally.fits([plain, first], DECK)
    assert not tally.fits([first, first], DECK), "one copy named twice in one event"
    tally.add(plain)
    assert tally.fits_one(first, DECK), "a scan without copy number marks no copy"
    tally.add(first)
    assert not tally.fits_one(plain, DECK), "two of two on the table"
    tally.remove(first)
    assert tally.fits_one(first, DECK)
    assert tally.total() == 1


@given(st.text(max_size=30))
def test_plausible_code_never_crashes_and_accepts_only_known_prefixes(text: str) -> None:
    if plausible_code(text):
        assert text.split(":")[0] in {"AK", "AC", "PS", "M7", "AO"}


def test_plausible_code_examples() -> None:
    assert plausible_code("AK:8.II#3") and plausible_code("M7:-6") and plausible_code("AO:RED.DOTS.PLUS#1")
    assert not plausible_code("XX:1") and not plausible_code("AK:8.II#0") and not plausible_code("AK:ä")
    assert not plausible_code("4006381333931")


def test_a_card_keeps_its_canonical_code_and_a_named_copy_is_marked_once() -> None:
    assert Card.from_code("AK:8.II#2").code == "AK:8.II#2" and Card("AK:9").code == "AK:9"
    assert Card("AK:8.II", 2) == Card.from_code("AK:8.II#2") and str(Card("AK:8.II", 2)) == "AK:8.II#2"
    tally = CardTally()
    tally.add(Card.from_code("AK:8.II#1"))
    again = Card("AK:8.II", 1)  # another object for the same physical card
    assert not tally.fits_one(again, DECK) and not tally.fits([again], DECK)
    assert tally.fits_one(Card.from_code("AK:8.II#2"), DECK)
