"""ANNAOTTO's hints: who may act now, what is owed, what may be laid; and the screen's sentence."""

from __future__ import annotations

from typing import ClassVar, NamedTuple, Protocol

from referee import words
from referee.cards import Deck
from referee.decks.annaotto import COLOUR_NAMES, PATTERN_NAMES, SIGN_NAMES, Side
from referee.games.annaotto.matching import ALLE, ALTERNATE, PLUS, faces_with_sign, playable_faces
from referee.games.annaotto.state import Race
from referee.hints import FinishedHints, Hints, Owed, RaceView, names, say
from referee.seats import Seats


class AnnaottoView(Protocol):
    """What the hints read of the game (`Annaotto` has it all; the hints change nothing)."""

    game_id: ClassVar[str]
    players: tuple[str, ...]
    seats: Seats
    deck: Deck[Side]
    started: bool
    finished: bool
    winners: list[str]
    turn: str | None
    top: Side | None
    colour: str | None
    pattern: str | None
    hands: dict[str, int]
    direction: int
    chain: list[int] | None
    plus: int
    drawn: bool
    choices: list[str]
    race: Race | None
    last_race: RaceView | None
    due: tuple[str, str] | None


class AnnaottoHints(NamedTuple):
    """What the next card must match, and what is pending.

    - `top`: the top face (None before `start`); `colour`, `pattern`, `sign`: what a card may match
      (after ANNAOTTO `colour` is the chosen one and `pattern`/`sign` are None); `wild_top`: the top is ANNAOTTO;
    - `must`: while a penalty is pending the only sign that may be laid (`"ANNA"`, `"OTTO"`, `"PLUS"`), else None;
    - `penalty`: cards the player on turn takes by `confirm` now; `flips`: cards the chain's last player turns over;
    - `playable`: every face that may be laid now (with a penalty pending: the faces of sign `must`);
    - `drawn`: the player on turn has drawn (play it or keep it with confirm); `choices`: owed ANNAOTTO choices;
    - `direction`: 1 or -1; `next_player`: who is on turn after an ordinary play (AO-R8), None if nobody.
    """

    top: str | None
    colour: str | None
    pattern: str | None
    sign: str | None
    wild_top: bool
    must: str | None
    penalty: int
    flips: int
    playable: frozenset[str]
    drawn: bool
    choices: tuple[str, ...]
    direction: int
    next_player: str | None

    def sentence(self, hints: Hints, lang: str) -> str:
        return annaotto_sentence(self, hints, lang)


_PLAY_OR_DRAW = ("play", "draw")
_START = ("start",)
_PLAY_OR_CONFIRM = ("play", "press:confirm")
_CHOICE_EVENTS = {"colour": "choose_colour", "flip": "flip_choice"}


def annaotto_hints(game: AnnaottoView) -> Hints:
    """Who may act now and what may come next (`Referee.hints()`)."""
    detail = _detail(game)
    turn = game.turn
    if turn is not None and game.due is None and game.race is None and game.last_race is None:
        return _turn_hints(game, turn, detail)  # an ordinary turn: one player acts
    race = game.race.view() if game.race is not None else game.last_race
    if game.finished:
        return Hints(game.game_id, (), (), FinishedHints(tuple(game.winners), detail), (), race)
    if not game.started:
        return Hints(game.game_id, (), _START, detail, (), None)
    owed = _owed(game)
    actors, events = _who_acts(game, race, owed)
    return Hints(game.game_id, actors, events, detail, owed, race)


def _turn_hints(game: AnnaottoView, turn: str, detail: AnnaottoHints) -> Hints:
    """The player on turn acts alone: a choice, a penalty or drawn card to settle, or play/draw."""
    if game.choices:
        owed = tuple([Owed(turn, "choice", c) for c in game.choices])
        return Hints(game.game_id, (turn,), tuple([_CHOICE_EVENTS[c] for c in game.choices]), detail, owed,
                            None)
    if game.chain is not None or game.plus:
        owed = (Owed(turn, "confirm", "penalty"),)
        return Hints(game.game_id, (turn,), _PLAY_OR_CONFIRM, detail, owed, None)
    return Hints(game.game_id, (turn,), _PLAY_OR_CONFIRM if game.drawn else _PLAY_OR_DRAW, detail, (), None)


def _owed(game: AnnaottoView) -> tuple[Owed, ...]:
    """The calls, choices and confirmations the table owes now."""
    owed: list[Owed] = []
    if game.race is not None and not game.race.called:
        owed.append(Owed(game.race.by, "call", ALLE))
    if game.due is not None:
        player, word = game.due
        owed += (Owed(player, "call", word), Owed(player, "catchable", word))
    if game.turn is not None:  # choices and confirmations are the turn's
        owed += [Owed(game.turn, "choice", c) for c in game.choices]
        if game.chain is not None or game.plus:
            owed.append(Owed(game.turn, "confirm", "penalty"))
    return tuple(owed)


def _who_acts(game: AnnaottoView, race: RaceView | None,
              owed: tuple[Owed, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The players who may act now and the event types they may send (steps 11 … 17)."""
    catch = ("catch",) if game.due is not None else ()
    actors = {o.player for o in owed if o.kind == "call"}
    if game.race is not None and race is not None:  # the open race (its view)
        actors.update(race.waiting)
        events: tuple[str, ...] = ("press:slap", "race_close", "call", *catch)
    elif game.turn is None:  # the end is pending (AO-R18)
        events = ("call", *catch)
    else:
        actors.add(game.turn)
        if game.choices:
            events = tuple([_CHOICE_EVENTS[c] for c in game.choices])
        elif game.chain is not None or game.plus or game.drawn:
            events = _PLAY_OR_CONFIRM
        else:
            events = _PLAY_OR_DRAW
        events += ("call", *catch) if catch else ()
    return tuple([p for p in game.players if p in actors]), events


def _detail(game: AnnaottoView) -> AnnaottoHints:
    """What the next card must match and what is pending (`AnnaottoHints`)."""
    top = game.top
    if top is None:
        return AnnaottoHints(None, None, None, None, False, None, 0, 0, frozenset(), False, (), 1, None)
    must = None
    penalty = flips = 0
    if game.chain is not None:
        must, penalty, flips = ALTERNATE[top.sign], 2 * game.chain[1], 2 * game.chain[0]
    elif game.plus:
        must, penalty = PLUS, game.plus
    if must is not None:
        playable = faces_with_sign(game.deck, must)
    else:
        playable = playable_faces(game.deck, top, game.colour)
    following = None if game.turn is None else game.seats.next_holder(game.turn, game.hands, game.direction)
    return AnnaottoHints(top.face, game.colour, game.pattern, top.sign, top.wild, must, penalty, flips,
                                playable, game.drawn, tuple(game.choices) if game.choices else (),
                                game.direction, following)


def annaotto_sentence(detail: AnnaottoHints, hints: Hints, lang: str) -> str:
    """The hint line: the most urgent thing first (race, owed call, choices, penalty, drawn card, matching)."""
    if "start" in hints.events:
        return say("hint.annaotto.start", lang)
    if hints.race is not None and hints.race.open:
        return say("hint.annaotto.race", lang, players=names(hints.race.waiting, lang))
    call = next((o for o in hints.owed if o.kind == "call"), None)
    if call is not None and not detail.choices and "draw" not in hints.events:
        return say("hint.annaotto.call", lang, player=call.player, word=call.what)
    player = next((a for a in hints.actors if call is None or a != call.player), hints.actors[0]) \
        if hints.actors else ""
    if detail.choices:
        return say("hint.annaotto.choices", lang, player=player)
    if detail.must is not None:
        return say("hint.annaotto.must", lang, player=player, sign=sign_word(detail.must, lang), penalty=detail.penalty)
    if detail.drawn:
        return say("hint.annaotto.drawn", lang, player=player)
    colour = colour_word(detail.colour, lang)
    if detail.wild_top:
        return say("hint.annaotto.wild", lang, player=player, colour=colour)
    sign = f" · {sign_word(detail.sign, lang)}" if detail.sign else ""  # the top card as its label prints it
    return say("hint.annaotto.play", lang, player=player, colour=colour,
               pattern=pattern_word(detail.pattern, lang), sign=sign)


def colour_word(colour: str | None, lang: str) -> str:
    """A colour as the screen says it (`RED` → `Red` / `Rot`)."""
    if colour is None:
        return ""
    return words.tr(COLOUR_NAMES[colour], lang)


def sign_word(sign: str, lang: str) -> str:
    """A sign as the screen says it (`HUERDEN` → `HURDLES` / `HÜRDEN`), as the labels print it."""
    return words.tr(SIGN_NAMES[sign], lang)


def pattern_word(pattern: str | None, lang: str) -> str:
    """A pattern as the screen says it (`DOTS` → `Dots` / `Punkte`)."""
    if pattern is None:
        return ""
    return words.tr(PATTERN_NAMES[pattern], lang)

