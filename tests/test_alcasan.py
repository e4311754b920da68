"""alcasan (`../shared/rules/alcasan.md`): need, every error code, burns, reveals, finishing, options."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import sim
from referee.answers import HeaderError
from referee.decks.alcasan import SHORT_FACES
from referee.table import Referee

THREE = ["Anna", "Ben", "Cem"]
ALWAYS = frozenset({"AC:FEUER", "AC:ERDE", "AC:LUFT"})


def value(face: str) -> int:
    """The comparison value: the number, 4 for Wasser."""
    return 4 if face == "AC:WASSER" else int(face.partition(":")[2])


def fits(face: str, below: str | None) -> bool:
    """A plain reading of AC-R8 … AC-R12: may `face` go on a pile whose deciding card (the top card that is not
    Luft) is `below`?"""
    if below is None or face in ALWAYS or below == "AC:ERDE":
        return True
    if below == "AC:WASSER":
        return value(face) <= 4
    return value(face) >= value(below)
TWO = ["Anna", "Ben"]


def header(players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    h: dict[str, Any] = {"format": "tabletop-referee/1", "game": "alcasan", "players": players or THREE}
    if options:
        h["options"] = options
    return h


class Table:
    """A referee with short-hand events: every `ok` must be accepted, every `err` refused without a change."""

    def __init__(self, players: list[str] | None = None, **options: Any):
        self.r = Referee(header(players, **options))

    @property
    def state(self) -> dict[str, Any]:
        return self.r.state()

    @property
    def turn(self) -> str:
        return self.r.turn

    def send(self, event: Any) -> Any:
        return self.r.apply(event)

    def ok(self, event: dict[str, Any]) -> dict[str, Any]:
        answer = self.r.apply(event)
        assert answer.ok, f"{event} refused: {answer.error} {answer.message()}"
        return self.state

    def err(self, code: str, event: Any) -> None:
        before = json.dumps(self.state, sort_keys=True)
        answer = self.r.apply(event)
        assert not answer.ok, f"{event} accepted, expected {code}"
        assert answer.error == code, f"{event}: {answer.error} ({answer.message()}), expected {code}"
        assert answer.message("en") and answer.message("de")
        assert json.dumps(self.state, sort_keys=True) == before

    def play(self, *faces: str, player: str | None = None) -> dict[str, Any]:
        """The player on turn (or `player`) lays the faces (`"7"`, `"LUFT"`, `"7#2"`)."""
        return self.ok(play(player or self.turn, *faces))

    def lay(self, *faces: str) -> None:
        """Each face laid as its own play by whoever is on turn."""
        for face in faces:
            self.play(face)

    def arrange(self, **counts: dict[str, int] | int) -> None:
        """Put the game into a later phase by setting the counts the referee keeps (white-box set-up)."""
        game = self.r.game
        for key, value in counts.items():
            if isinstance(value, dict):  # hands, up, down: each player's counts are kept by their `Holder`
                for player, count in value.items():
                    setattr(game.holders[player], {"hands": "hand"}.get(key, key), count)
            else:
                setattr(game, key, value)


def play(player: str, *faces: str) -> dict[str, Any]:
    codes = [f"AC:{f}" for f in faces]
    if len(codes) == 1:
        return {"type": "play", "player": player, "card": codes[0]}
    return {"type": "play", "player": player, "cards": codes}


def reveal(player: str, face: str) -> dict[str, Any]:
    return {"type": "reveal", "player": player, "card": f"AC:{face}"}


def take(player: str) -> dict[str, Any]:
    return {"type": "take_pile", "player": player}


# --- setup and state keys


def test_initial_state_has_exactly_the_state_keys_of_section_8() -> None:
    t = Table()
    assert t.state == {
        "turn": "Anna",  # dealer Cem (the last player), the next player starts
        "finished": False,
        "scores": {"Anna": 0, "Ben": 0, "Cem": 0},
        "winners": [],
        "pile": 0,
        "top": None,
        "need": "any",
        "burned": 0,
        "draw_pile": 52 - 27,
        "hands": {"Anna": 3, "Ben": 3, "Cem": 3},
        "up": {"Anna": 3, "Ben": 3, "Cem": 3},
        "down": {"Anna": 3, "Ben": 3, "Cem": 3},
        "out": [],
    }


def test_the_player_after_the_dealer_starts() -> None:
    r = Referee({**header(THREE), "dealer": "Anna"})
    assert r.turn == "Ben"
    r = Referee({**header(THREE), "dealer": "Ben"})
    assert r.turn == "Cem"


# --- need: the worked examples of section 10 and more


NEED_CASES = [
    # pile bottom→top, need, a face to try, its verdict
    ([], "any", "10", None),
    ([], "any", "WASSER", None),
    (["6", "LUFT"], ">=6", "WASSER", "wasser-blocked"),
    (["6", "LUFT"], ">=6", "6", None),
    (["6", "LUFT"], ">=6", "5", "too-low"),
    (["3", "LUFT", "LUFT"], ">=3", "WASSER", None),
    (["3", "LUFT", "LUFT"], ">=3", "2", "too-low"),
    (["WASSER", "LUFT"], "<=4", "7", "too-high"),
    (["WASSER", "LUFT"], "<=4", "3", None),
    (["LUFT"], "any", "10", None),
    (["LUFT"], "any", "WASSER", None),
    (["LUFT", "LUFT", "LUFT"], "any", "1", None),
    (["9", "ERDE"], "any", "1", None),
    (["9", "ERDE"], "any", "WASSER", None),
    (["9", "ERDE", "LUFT"], "any", "2", None),
    (["ERDE", "LUFT", "LUFT"], "any", "WASSER", None),
    (["8", "LUFT", "LUFT", "LUFT"], ">=8", "7", "too-low"),
    (["8", "LUFT", "LUFT", "LUFT"], ">=8", "8", None),
    (["5"], ">=5", "5", None),  # equal is allowed (AC-R8)
    (["5"], ">=5", "3", "too-low"),
    (["5"], ">=5", "WASSER", "wasser-blocked"),
    (["3"], ">=3", "WASSER", None),  # Wasser counts 4
    (["1"], ">=1", "WASSER", None),
    (["WASSER"], "<=4", "1", None),
    (["WASSER"], "<=4", "3", None),
    (["WASSER"], "<=4", "WASSER", None),
    (["WASSER"], "<=4", "5", "too-high"),
    (["WASSER"], "<=4", "10", "too-high"),
    (["WASSER"], "<=4", "FEUER", None),
    (["WASSER"], "<=4", "ERDE", None),
    (["WASSER"], "<=4", "LUFT", None),
    (["2", "LUFT", "WASSER", "LUFT"], "<=4", "1", None),
    (["2", "WASSER", "1"], ">=1", "5", None),
    (["10"], ">=10", "9", "too-low"),
    (["10"], ">=10", "10", None),
    (["10"], ">=10", "WASSER", "wasser-blocked"),
    (["10"], ">=10", "LUFT", None),
    (["10"], ">=10", "ERDE", None),
    (["10"], ">=10", "FEUER", None),
    (["10", "LUFT"], ">=10", "ERDE", None),
]


@pytest.mark.parametrize(("pile", "need", "face", "error"), NEED_CASES)
def test_need_and_legality(pile: list[str], need: str, face: str, error: str | None) -> None:
    t = Table(["Anna", "Ben", "Cem", "Dora"])
    t.lay(*pile)
    state = t.state
    assert state["need"] == need
    assert state["pile"] == len(pile)
    assert state["top"] == (pile[-1] if pile else None)
    if error is None:
        t.play(face)
    else:
        t.err(error, play(t.turn, face))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SHORT_FACES), max_size=60))
def test_the_pile_agrees_with_a_plain_reading_of_the_laid_faces(names: list[str]) -> None:
    """The referee's verdicts and state keys (`top`, `need`, `burned`) against the table simulator's own reading of
    the laid faces: the deciding card is the top one that is not Luft; Feuer or four identical faces on top burn."""
    t = Table(TWO, copies=60)  # enough copies and cards that no face runs out and no hand empties
    pile: list[str] = []
    burned = 0
    for name in names:
        face = f"AC:{name}"
        below = next((f for f in reversed(pile) if f != "AC:LUFT"), None)
        answer = t.send(play(t.turn, name))
        assert answer.ok == fits(face, below), (pile, face, answer.error)
        if not answer.ok:
            continue
        pile.append(face)
        if name == "FEUER" or (len(pile) >= 4 and len(set(pile[-4:])) == 1):
            burned += len(pile)
            pile = []
        state = t.state
        assert state["burned"] == burned and state["pile"] == len(pile), (pile, state)
        assert (state["top"] and f"AC:{state['top']}") == (pile[-1] if pile else None)
        below = next((f for f in reversed(pile) if f != "AC:LUFT"), None)
        expected = {None: "any", "AC:ERDE": "any", "AC:WASSER": "<=4"}.get(below, f">={below and below[3:]}")
        assert state["need"] == expected, (pile, state)


def test_luft_keeps_the_requirement_through_a_take_and_a_new_pile() -> None:
    t = Table()
    t.lay("7", "LUFT")
    t.ok(take(t.turn))
    assert t.state["need"] == "any" and t.state["top"] is None
    t.play("LUFT")
    assert t.state["need"] == "any"
    t.play("2")
    assert t.state["need"] == ">=2"


# --- order of checks and every error code


def test_bad_events() -> None:
    t = Table()
    for event in (
        None,
        3,
        "play",
        [],
        {},
        {"type": 7},
        {"type": "fly", "player": "Anna"},
        {"type": "play"},
        {"type": "play", "player": 5, "card": "AC:5"},
        {"type": "play", "player": "Anna"},
        {"type": "play", "player": "Anna", "card": 5},
        {"type": "play", "player": "Anna", "card": None},
        {"type": "play", "player": "Anna", "cards": []},
        {"type": "play", "player": "Anna", "cards": "AC:5"},
        {"type": "play", "player": "Anna", "cards": ["AC:5", 5]},
        {"type": "play", "player": "Anna", "card": "AC:5", "cards": ["AC:5"]},
        {"type": "reveal", "player": "Anna"},
        {"type": "reveal", "player": "Anna", "cards": ["AC:5"]},
        {"type": "take_pile"},
        {"type": "take_pile", "player": None},
    ):
        t.err("bad-event", event)


def test_unknown_extra_fields_are_ignored() -> None:
    t = Table()
    t.ok({"type": "play", "player": "Anna", "card": "AC:5", "target": "Ben", "t_us": 3})
    t.ok({"type": "take_pile", "player": "Ben", "card": 7})


def test_draw_and_press_are_not_used_even_with_bad_fields() -> None:
    t = Table()
    for event in (
        {"type": "draw", "player": "Anna"},
        {"type": "draw"},
        {"type": "draw", "player": "Nobody", "count": "many"},
        {"type": "press", "player": "Ben", "button": "slap"},
        {"type": "press"},
    ):
        t.err("event-not-used", event)


def test_unknown_player_before_unknown_card() -> None:
    t = Table()
    t.err("unknown-player", play("Eva", "4"))
    t.err("unknown-player", {"type": "take_pile", "player": "Eva"})
    t.err("unknown-player", reveal("", "5"))


@pytest.mark.parametrize(
    "code",
    ["AC:4", "AC:0", "AC:11", "AC:07", "AC:Wasser", "AC:", "AC", "AO:RED.DOTS", "AK:7.II", "AC:7#0", "AC:7#05",
     "AC:7#5", "AC:7#", "AC:7#-1", "AC:7#x", "ac:7", "AC:LUFT ", "AC:FIRE"],
)
def test_unknown_cards(code: str) -> None:
    t = Table()
    t.err("unknown-card", {"type": "play", "player": "Anna", "card": code})
    t.err("unknown-card", {"type": "play", "player": "Anna", "cards": ["AC:5", code]})
    t.err("unknown-card", {"type": "reveal", "player": "Anna", "card": code})


def test_unknown_card_before_card_exhausted_before_not_your_turn() -> None:
    t = Table()
    t.play("7#1")
    t.err("unknown-card", {"type": "play", "player": "Ben", "cards": ["AC:7#1", "AC:4"]})
    t.err("card-exhausted", play("Cem", "7#1"))  # Cem is not on turn: the double scan is named first
    t.err("not-your-turn", play("Cem", "7#2"))
    t.err("not-your-turn", take("Anna"))
    t.err("not-your-turn", reveal("Anna", "9"))


def test_card_exhausted_counts_faces_and_named_copies() -> None:
    t = Table()
    t.play("7#1")
    t.err("card-exhausted", play("Ben", "7#1"))
    t.err("card-exhausted", play("Ben", "8#2", "8#2"))  # named twice in one event
    t.err("card-exhausted", play("Ben", "7", "7", "7", "7"))  # 1 + 4 sevens > 4 copies
    t.play("7", "7")  # codes without #N count only toward the face
    t.err("card-exhausted", play("Cem", "7#1"))
    state = t.play("7")  # the fourth 7: burned, still on the table
    assert state["burned"] == 4 and state["turn"] == "Cem"
    t.err("card-exhausted", play("Cem", "7"))  # a fifth 7


def test_burned_cards_stay_on_the_table() -> None:
    t = Table(TWO)
    t.play("FEUER#1")
    t.err("card-exhausted", play("Anna", "FEUER#1"))
    t.play("FEUER")
    t.play("FEUER", "FEUER")
    t.err("card-exhausted", play("Anna", "FEUER"))
    assert t.state["burned"] == 4


def test_a_taken_pile_leaves_the_table() -> None:
    t = Table()
    t.play("7#1")
    t.play("7", "7")
    t.play("7#4")  # four sevens: burned, Cem lays again
    assert t.state["burned"] == 4
    t.play("5#1")
    t.ok(take("Anna"))
    t.play("5#1", player="Ben")  # the 5 is a hand card again: its code may be scanned again
    t.play("5", "5", "5", player="Cem")  # now 4 fives: burned
    assert t.state["burned"] == 8
    t.err("card-exhausted", play("Cem", "5"))


def test_too_many_cards_mixed_faces_and_their_order() -> None:
    t = Table()
    t.err("mixed-faces", play("Anna", "5", "6"))
    t.err("mixed-faces", play("Anna", "5", "5", "6", "6"))  # mixed before too many
    t.err("too-many-cards", play("Anna", "9", "9", "9", "9"))
    t.lay("10")
    t.err("too-many-cards", play("Ben", "3", "3", "3", "3"))  # too many before too low
    t.err("too-low", play("Ben", "3", "3", "3"))
    t.play("10", "10")
    assert t.state["hands"]["Ben"] == 3 and t.state["draw_pile"] == 22


def test_pile_empty() -> None:
    t = Table()
    t.err("pile-empty", take("Anna"))
    t.play("5")
    state = t.ok(take("Ben"))
    assert state["hands"]["Ben"] == 4 and state["pile"] == 0 and state["turn"] == "Cem"
    t.err("pile-empty", take("Cem"))


def test_nothing_to_undo_and_undo() -> None:
    t = Table()
    t.err("nothing-to-undo", {"type": "undo"})
    t.play("5")
    t.ok({"type": "undo"})
    assert t.state == Table().state


# --- phases: hand, face-up, face-down


def test_face_up_phase_takes_its_source_by_counts() -> None:
    t = Table(TWO)
    t.arrange(draw_pile=0, hands={"Anna": 1})
    t.err("mixed-faces", play("Anna", "9", "8"))
    t.err("too-many-cards", play("Anna", "9", "9"))  # one hand card: no mixing with face-up cards (AC-D13)
    state = t.play("9")
    assert state["hands"]["Anna"] == 0 and state["up"]["Anna"] == 3
    t.play("10")
    state = t.play("ERDE", "ERDE", "ERDE")  # three face-up cards at once
    assert state["up"]["Anna"] == 0 and state["hands"]["Anna"] == 0
    t.play("LUFT")
    t.err("must-reveal", play("Anna", "5"))
    t.err("must-reveal", take("Anna"))


def test_face_up_player_who_takes_plays_the_hand_first() -> None:
    t = Table(TWO)
    t.arrange(draw_pile=0, hands={"Anna": 0})
    t.play("9")  # from face-up
    assert t.state["up"]["Anna"] == 2
    t.play("10")
    t.play("ERDE")  # face-up again
    t.play("LUFT")
    t.ok(take("Anna"))
    state = t.state
    assert state["hands"]["Anna"] == 4 and state["up"]["Anna"] == 1
    t.err("too-many-cards", play("Ben", "5", "5"))  # Ben's hand holds 1 card now
    t.play("5")
    state = t.play("9")  # from the hand again, not from the last face-up card
    assert state["hands"]["Anna"] == 3 and state["up"]["Anna"] == 1


def test_not_face_down_while_cards_are_left() -> None:
    t = Table(TWO)
    t.err("not-face-down", reveal("Anna", "5"))
    t.arrange(draw_pile=0, hands={"Anna": 0})
    t.err("not-face-down", reveal("Anna", "5"))  # face-up cards left
    t.arrange(up={"Anna": 0})
    t.ok(reveal("Anna", "5"))


def test_reveal_that_fits_counts_as_a_play() -> None:
    t = Table(TWO)
    t.arrange(draw_pile=0, hands={"Anna": 0, "Ben": 0}, up={"Anna": 0, "Ben": 0})
    state = t.ok(reveal("Anna", "5"))
    assert state == {**state, "turn": "Ben", "pile": 1, "top": "5", "need": ">=5"}
    assert state["down"] == {"Anna": 2, "Ben": 3} and state["hands"]["Anna"] == 0


def test_reveal_that_does_not_fit_goes_to_the_hand_with_the_pile() -> None:
    t = Table(TWO)
    t.arrange(draw_pile=0, up={"Anna": 0}, hands={"Anna": 0}, turn="Ben")
    t.play("9#1")
    state = t.ok(reveal("Anna", "WASSER#1"))
    assert state["hands"]["Anna"] == 2 and state["down"]["Anna"] == 2
    assert state["pile"] == 0 and state["need"] == "any" and state["turn"] == "Ben"
    # both cards are hand cards again: the table no longer holds them, their codes may be scanned again
    t.play("9#1")
    t.err("wasser-blocked", play("Anna", "WASSER#1"))
    t.ok(take("Anna"))
    assert t.state["hands"]["Anna"] == 3


def test_a_revealed_card_counts_toward_the_table_even_if_it_fails() -> None:
    t = Table(TWO, copies=2)
    t.arrange(draw_pile=0, up={"Anna": 0}, hands={"Anna": 0}, turn="Ben")
    t.play("2", "2")
    t.ok(reveal("Anna", "9#1"))  # fits
    t.play("10")
    t.err("card-exhausted", reveal("Anna", "2"))  # a third 2 (it would not fit either)
    t.err("card-exhausted", reveal("Anna", "9#1"))
    state = t.ok(reveal("Anna", "3"))  # does not fit: Anna takes the pile and the 3
    assert state["hands"]["Anna"] == 5 and state["down"]["Anna"] == 1


def test_reveal_of_feuer_burns_and_the_player_reveals_again() -> None:
    t = Table(TWO)
    t.arrange(draw_pile=0, up={"Anna": 0}, hands={"Anna": 0}, turn="Ben")
    t.play("9")  # Ben's hand card
    state = t.ok(reveal("Anna", "FEUER"))
    assert state["burned"] == 2 and state["turn"] == "Anna" and state["down"]["Anna"] == 2
    t.err("must-reveal", play("Anna", "5"))
    t.ok(reveal("Anna", "5"))
    assert t.turn == "Ben"


# --- burns


def test_feuer_burns_on_an_empty_pile_and_under_wasser() -> None:
    t = Table()
    state = t.play("FEUER")
    assert state["burned"] == 1 and state["turn"] == "Anna" and state["draw_pile"] == 24
    assert state["hands"]["Anna"] == 3
    t.play("WASSER")
    state = t.play("FEUER")
    assert state["burned"] == 3 and state["turn"] == "Ben" and state["pile"] == 0 and state["need"] == "any"
    t.play("10")  # any face after a burn
    assert t.turn == "Cem"


@pytest.mark.parametrize("face", ["7", "WASSER", "ERDE", "LUFT", "1"])
def test_four_identical_across_players_burn(face: str) -> None:
    t = Table()
    t.lay(face, face, face)
    assert t.state["pile"] == 3 and t.turn == "Anna"
    state = t.play(face)
    assert state["pile"] == 0 and state["burned"] == 4 and state["turn"] == "Anna" and state["top"] is None


def test_four_identical_in_one_play_and_across_plays() -> None:
    t = Table(TWO)
    state = t.play("8", "8")
    assert state["pile"] == 2
    state = t.play("8", "8")
    assert state["burned"] == 4 and state["turn"] == "Ben"
    t.arrange(hands={"Ben": 4})
    state = t.play("6", "6", "6", "6")
    assert state["burned"] == 8 and state["turn"] == "Ben"


def test_luft_breaks_a_run() -> None:
    t = Table(["Anna", "Ben", "Cem", "Dora"], copies=5)
    t.lay("7", "7", "LUFT", "7")
    assert t.state["pile"] == 4 and t.state["burned"] == 0
    t.play("7")  # top four: 7 LUFT 7 7
    assert t.state["pile"] == 5 and t.state["burned"] == 0
    t.lay("LUFT", "LUFT", "LUFT")
    assert t.state["pile"] == 8 and t.state["need"] == ">=7"
    state = t.play("LUFT")  # four Luft on top
    assert state["burned"] == 9 and state["pile"] == 0


def test_another_face_between_breaks_a_run() -> None:
    t = Table(["Anna", "Ben", "Cem", "Dora"], copies=5)
    t.lay("5", "5", "5", "6", "6", "6")
    assert t.state["pile"] == 6 and t.state["burned"] == 0
    t.play("6")
    assert t.state["burned"] == 7


def test_no_run_across_a_burn() -> None:
    t = Table()
    t.lay("7", "7", "7")
    t.play("FEUER")
    assert t.state["burned"] == 4 and t.turn == "Anna"
    state = t.play("7")
    assert state["pile"] == 1 and state["burned"] == 4
    t = Table(copies=6)
    t.lay("7", "7", "7", "7")
    assert t.state["burned"] == 4
    t.lay("7", "7")
    assert t.state["pile"] == 2


def test_five_identical_burn() -> None:
    t = Table(TWO, copies=5)
    t.play("7", "7")
    t.arrange(hands={"Ben": 3})
    state = t.play("7", "7", "7")
    assert state["burned"] == 5 and state["turn"] == "Ben"


def test_refill_stops_when_the_draw_pile_is_empty() -> None:
    t = Table(TWO, copies=2)
    assert t.state["draw_pile"] == 8
    t.play("1", "1")
    t.play("2", "2")
    t.play("3", "3")
    state = t.play("5", "5")
    assert state["draw_pile"] == 0 and state["hands"] == {"Anna": 3, "Ben": 3}
    state = t.play("6")
    assert state["hands"]["Anna"] == 2 and state["draw_pile"] == 0


def test_refill_with_a_short_draw_pile() -> None:
    t = Table(TWO)
    t.arrange(draw_pile=1)
    state = t.play("5", "5", "5")
    assert state["hands"]["Anna"] == 1 and state["draw_pile"] == 0


# --- finishing and the end


def test_finishing_with_a_burn_passes_the_turn() -> None:
    t = Table()
    t.arrange(draw_pile=0, hands={"Anna": 1, "Ben": 2}, up={"Anna": 0}, down={"Anna": 0})
    state = t.play("FEUER")
    assert state["out"] == ["Anna"] and state["scores"]["Anna"] == 1
    assert state["turn"] == "Ben" and not state["finished"] and state["burned"] == 1
    t.err("not-your-turn", play("Anna", "5"))


def test_finishing_with_four_identical() -> None:
    t = Table()
    t.arrange(draw_pile=0, hands={"Cem": 1}, up={"Cem": 0}, down={"Cem": 0})
    t.play("9")
    t.play("9", "9")
    state = t.play("9")  # Cem's last card is the fourth 9: burned, Cem is out, Anna starts the new pile
    assert state["burned"] == 4 and state["out"] == ["Cem"] and state["turn"] == "Anna"
    assert state["scores"] == {"Anna": 0, "Ben": 0, "Cem": 1} and not state["finished"]
    t.play("5")
    assert t.turn == "Ben"
    t.play("6")
    assert t.turn == "Anna"  # Cem is skipped


def test_out_players_are_skipped_and_the_last_one_gets_the_last_place() -> None:
    t = Table()
    t.arrange(draw_pile=0, hands={"Anna": 1, "Ben": 1}, up={"Anna": 0, "Ben": 0}, down={"Anna": 0, "Ben": 0})
    state = t.play("5")
    assert state["out"] == ["Anna"] and state["turn"] == "Ben"
    state = t.play("6")
    assert state["finished"] is True and state["turn"] is None
    assert state["out"] == ["Anna", "Ben"]
    assert state["scores"] == {"Anna": 1, "Ben": 2, "Cem": 3}
    assert state["winners"] == ["Anna"]
    t.err("game-over", play("Cem", "7"))
    t.err("game-over", {"type": "play"})  # game-over before the field checks
    t.err("game-over", {"type": "draw"})  # and before event-not-used
    t.err("bad-event", {"type": "fly"})
    t.ok({"type": "undo"})
    assert t.state["turn"] == "Ben" and not t.state["finished"] and t.state["scores"]["Ben"] == 0


def test_four_players_finish_in_order() -> None:
    t = Table(["Anna", "Ben", "Cem", "Dora"])
    t.arrange(
        draw_pile=0,
        hands={"Anna": 1, "Ben": 0, "Cem": 1, "Dora": 2},
        up={"Anna": 0, "Ben": 0, "Cem": 0, "Dora": 0},
        down={"Anna": 3, "Ben": 1, "Cem": 0, "Dora": 0},
        turn="Cem",
    )
    state = t.play("2")  # Cem is out
    assert state["out"] == ["Cem"] and state["turn"] == "Dora"
    t.play("3")
    t.play("5")  # Anna: hand empty, down cards remain
    state = t.ok(reveal("Ben", "6"))  # Ben's last card
    assert state["out"] == ["Cem", "Ben"] and state["turn"] == "Dora"
    state = t.play("ERDE")  # Dora is out: only Anna holds cards
    assert state["finished"] and state["scores"] == {"Anna": 4, "Ben": 2, "Cem": 1, "Dora": 3}
    assert state["winners"] == ["Cem"] and state["out"] == ["Cem", "Ben", "Dora"]


def test_stop_at_first() -> None:
    t = Table(["Anna", "Ben", "Cem", "Dora"], stop_at_first=True)
    t.arrange(draw_pile=0, hands={"Ben": 1}, up={"Ben": 0}, down={"Ben": 0}, turn="Ben")
    state = t.play("FEUER")
    assert state["finished"] is True and state["turn"] is None
    assert state["out"] == ["Ben"] and state["winners"] == ["Ben"]
    assert state["scores"] == {"Anna": 2, "Ben": 1, "Cem": 2, "Dora": 2}
    t.err("game-over", take("Anna"))


def test_stop_at_first_with_a_failed_reveal_does_not_end() -> None:
    t = Table(TWO, stop_at_first=True)
    t.arrange(draw_pile=0, hands={"Anna": 0}, up={"Anna": 0}, down={"Anna": 1}, turn="Ben")
    t.play("9")
    state = t.ok(reveal("Anna", "3"))
    assert not state["finished"] and state["hands"]["Anna"] == 2 and state["down"]["Anna"] == 0


# --- options and headers


def test_copies_option() -> None:
    t = Table(copies=5)
    assert t.state["draw_pile"] == 65 - 27
    t.play("7#5")
    t.err("unknown-card", play("Ben", "7#6"))
    t = Table(TWO, copies=2)
    assert t.state["draw_pile"] == 8
    t.err("unknown-card", play("Anna", "7#3"))
    t.play("7", "7")
    t.err("card-exhausted", play("Ben", "7"))
    assert Table(["Anna", "Ben", "Cem", "Dora"], copies=3).state["draw_pile"] == 3
    assert Table(TWO, copies=2).r.game.deck.size == 26


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (TWO, {"copies": 1}),  # 13 cards < 18 dealt
        (THREE, {"copies": 2}),  # 26 < 27
        (THREE, {"copies": 0}),
        (THREE, {"copies": -4}),
        (THREE, {"copies": 4.0}),
        (THREE, {"copies": True}),
        (THREE, {"copies": "4"}),
        (THREE, {"copies": None}),
        (THREE, {"stop_at_first": 1}),
        (THREE, {"stop_at_first": "yes"}),
        (THREE, {"stop_at_first": None}),
        (THREE, {"decks": 2}),
        (THREE, {"Copies": 4}),
    ],
)
def test_bad_options(players: list[str], options: dict[str, Any]) -> None:
    with pytest.raises(HeaderError):
        Referee(header(players, **options))


@pytest.mark.parametrize(
    "bad",
    [
        {"players": ["Anna"]},
        {"players": ["A", "B", "C", "D", "E"]},
        {"players": ["Anna", "Anna"]},
        {"dealer": "Eva"},
        {"options": []},
        {"options": "copies=2"},
    ],
)
def test_bad_headers(bad: dict[str, Any]) -> None:
    with pytest.raises(HeaderError):
        Referee({**header(THREE), **bad})


def test_good_options() -> None:
    assert Referee(header(THREE, copies=3, stop_at_first=False)).game.deck.size == 39
    assert Referee(header(["A", "B", "C", "D"], copies=3)).state()["draw_pile"] == 3
    assert Referee({**header(THREE), "options": {}}).state()["draw_pile"] == 25


# --- random games with the options (the contract tests cover the defaults)


def test_the_simulated_table_is_registered() -> None:
    # sim.ids() skips a module that fails to import: make sure the contract tests see alcasan
    assert "alcasan" in sim.ids()


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {"copies": 2}), (3, {"copies": 3}), (4, {"copies": 5}), (2, {"stop_at_first": True}),
     (4, {"stop_at_first": True, "copies": 3})],
)
def test_random_games_with_options(players: int, options: dict[str, Any]) -> None:
    for seed in range(8):
        table = sim.new_table("alcasan", seed, players, options=options)
        referee = Referee(table.header)
        for _ in sim.play(table, referee):
            assert sum(referee.game.card_places().values()) == referee.game.deck.size
            table.check(referee)
        state = referee.state()
        assert state["finished"] and state["turn"] is None and len(state["winners"]) == 1
        places = sorted(state["scores"].values())
        if options.get("stop_at_first"):
            assert len(state["out"]) == 1 and places == [1] + [2] * (players - 1)
        else:
            assert len(state["out"]) == players - 1 and places == list(range(1, players + 1))
