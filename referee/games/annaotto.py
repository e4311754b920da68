"""ANNAOTTO (`../shared/rules/annaotto.md`): match colour, pattern or sign; chains, PLUS, the ALLE slap race.

`judge` runs the rules file's steps 3 … 17 in its order, one function per event
type; every check runs before the first mutation. Hot paths avoid building anything per event:
faces are looked up in the deck's cache, per-type work is dispatched by a dict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee import messages
from referee.cards import Card, CardTally, Deck
from referee.decks.annaotto import COLOURS, DEFAULT_COPIES, Side, side_info, sides
from referee.games import register
from referee.protocol import Game, HeaderError, Rejection, is_int, known_options

ANNA, OTTO, ALLE, PLUS, RETOUR, HUERDEN = "ANNA", "OTTO", "ALLE", "PLUS", "RETOUR", "HUERDEN"
ALTERNATE = {ANNA: OTTO, OTTO: ANNA}
_COLOURS = frozenset(COLOURS)
_WORDS = frozenset((ANNA, OTTO, ALLE))
_BUTTONS = frozenset(("confirm", "slap"))
_WHO = frozenset(("self", "next"))

messages.register({
    "not-started": (
        "The start card has not been scanned yet (AO-R2).",
        "Die Startkarte ist noch nicht gescannt (AO-R2).",
    ),
    "already-started": ("The start card is already on the table (AO-R2).", "Die Startkarte liegt schon (AO-R2)."),
    "start-not-plain": (
        "{card} is a special or wild side: turn the start card over to its plain side (AO-R2).",
        "{card} ist eine Sonder- oder Jokerseite: dreh die Startkarte auf ihre einfache Seite (AO-R2).",
    ),
    "one-card-only": ("Only one card may be laid at a time (AO-R5).", "Es darf nur eine Karte gelegt werden (AO-R5)."),
    "no-match": (
        "{card} matches {top} neither in colour, pattern nor sign (AO-R5).",
        "{card} passt zu {top} weder in Farbe, Muster noch Zeichen (AO-R5).",
    ),
    "no-match.wild": (
        "After ANNAOTTO only {colour} or another ANNAOTTO may be laid (AO-R5).",
        "Nach ANNAOTTO darf nur {colour} oder ein weiteres ANNAOTTO gelegt werden (AO-R5).",
    ),
    "must-alternate": (
        "ANNA and OTTO must alternate: {card} cannot go on {top} (AO-R9).",
        "ANNA und OTTO müssen sich abwechseln: {card} darf nicht auf {top} (AO-R9).",
    ),
    "penalty-pending": (
        "{player} must continue the chain with {sign} or accept the penalty with confirm (AO-R10).",
        "{player} muss die Kette mit {sign} fortsetzen oder die Strafe mit Bestätigen annehmen (AO-R10).",
    ),
    "penalty-pending.plus": (
        "{player} must lay another PLUS or take {plus} cards with confirm (AO-R11).",
        "{player} muss ein weiteres PLUS legen oder {plus} Karten mit Bestätigen nehmen (AO-R11).",
    ),
    "choice-pending": (
        "{player} must first choose the colour and who turns their cards over (AO-R14).",
        "{player} muss zuerst die Farbe und das Umdrehen der Karten wählen (AO-R14).",
    ),
    "no-choice-pending": (
        "No such ANNAOTTO choice is owed now (AO-R14).",
        "Diese ANNAOTTO-Wahl steht nicht an (AO-R14).",
    ),
    "bad-colour": (
        "{colour} is not one of the eight colours (AO-R14).",
        "{colour} ist keine der acht Farben (AO-R14).",
    ),
    "nothing-to-confirm": (
        "There is no penalty to accept and no drawn card to keep (AO-R7, AO-R10, AO-R11).",
        "Es gibt keine Strafe anzunehmen und keine gezogene Karte zu behalten (AO-R7, AO-R10, AO-R11).",
    ),
    "already-drawn": (
        "{player} has drawn already: play that card or keep it with confirm (AO-R7).",
        "{player} hat schon gezogen: die Karte legen oder mit Bestätigen behalten (AO-R7).",
    ),
    "bad-draw-count": ("A draw takes exactly one card (AO-R7).", "Es wird genau eine Karte gezogen (AO-R7)."),
    "no-cards-to-draw": (
        "The draw pile is empty and there is nothing to shuffle in (AO-R19).",
        "Der Nachziehstapel ist leer und es gibt nichts zum Mischen (AO-R19).",
    ),
    "drawn-card-only": (
        "After drawing only the drawn card may be played (AO-R7).",
        "Nach dem Ziehen darf nur die gezogene Karte gelegt werden (AO-R7).",
    ),
    "bad-source": (
        "To lay from your own hand leave out 'from' (AO-R6).",
        "Für eine Karte aus der eigenen Hand entfällt „from“ (AO-R6).",
    ),
    "last-card-protected": (
        "{source} holds fewer than two cards: the last card may not be taken (AO-R6).",
        "{source} hat weniger als zwei Karten: die letzte Karte darf nicht genommen werden (AO-R6).",
    ),
    "race-open": (
        "The ALLE race is open: no turn until it is decided (AO-R15).",
        "Das ALLE-Abschlagen läuft: kein Zug, bis es entschieden ist (AO-R15).",
    ),
    "no-race": ("No ALLE race is open (AO-R15).", "Es läuft kein ALLE-Abschlagen (AO-R15)."),
    "not-in-race": (
        "{player} held no cards when the ALLE was laid and does not take part (AO-R15a).",
        "{player} hatte beim ALLE keine Karten und spielt nicht mit (AO-R15a).",
    ),
    "already-pressed": ("{player} has slapped already (AO-R15b).", "{player} hat schon abgeschlagen (AO-R15b)."),
    "no-call-due": (
        "{player} owes no {word} call now (AO-R15c, AO-R16).",
        "{player} muss jetzt nicht {word} rufen (AO-R15c, AO-R16).",
    ),
    "nothing-to-catch": (
        "{target} owes no missed call that could be caught (AO-R17).",
        "{target} hat keinen Ruf verpasst, der geahndet werden kann (AO-R17).",
    ),
})


@dataclass(frozen=True)
class Options:
    hand_size: int = 8
    first: str | None = None
    race_timeout_ms: int = 3000
    plain: int = DEFAULT_COPIES["plain"]
    special: int = DEFAULT_COPIES["special"]
    wild: int = DEFAULT_COPIES["wild"]


def _bad(en: str, de: str) -> HeaderError:
    return HeaderError(en, de)


_DECKS: dict[tuple[int, int, int], Deck] = {}


def deck_for(plain: int, special: int, wild: int) -> Deck:
    """The deck for these copy counts; decks are immutable, so one per composition is shared."""
    key = (plain, special, wild)
    deck = _DECKS.get(key)
    if deck is None:
        copies = sides({"plain": plain, "special": special, "wild": wild})
        deck = _DECKS[key] = Deck(copies, {face: side_info(face) for face in copies})
    return deck


_RINGS: dict[tuple[str, ...], dict[int, dict[str, tuple[str, ...]]]] = {}


def _rings(players: tuple[str, ...]) -> dict[int, dict[str, tuple[str, ...]]]:
    """AO-R8: per direction and seat, the other seats in turn order, then the seat itself (shared, never mutated)."""
    rings = _RINGS.get(players)
    if rings is None:
        n = len(players)
        rings = {
            d: {p: tuple(players[(i + k * d) % n] for k in range(1, n + 1)) for i, p in enumerate(players)}
            for d in (1, -1)
        }
        if len(_RINGS) < 256:
            _RINGS[players] = rings
    return rings


def match_error(side: Side, top: Side, colour: str | None, pattern: str | None) -> str | None:
    """AO-R5, AO-R9: None if `side` may go on `top` (no penalty pending), else the error code.

    `colour`/`pattern` are what the top asks for: its own, or the chosen colour after ANNAOTTO.
    """
    if side.wild:
        return None
    if top.wild:
        return None if side.colour == colour else "no-match"
    sign = side.sign
    if sign is not None:
        top_sign = top.sign
        if sign in ALTERNATE:
            if top_sign == sign:
                return "must-alternate"
            if top_sign == ALTERNATE[sign]:
                return None
        elif sign == top_sign:
            return None
    if side.colour == colour or side.pattern == pattern:
        return None
    return "no-match"


class Race:
    """An open ALLE race (AO-R15): the layer, the fixed participants, the call and the slaps."""

    __slots__ = ("by", "called", "participants", "pressed")

    def __init__(self, by: str, participants: frozenset[str]):
        self.by = by
        self.participants = participants
        self.called = False
        self.pressed: dict[str, int] = {}


@register
class Annaotto(Game):
    id = "annaotto"
    title = "ANNAOTTO"
    player_counts = (2, 3, 4, 5, 6)
    event_types = frozenset(
        {"start", "play", "draw", "press", "call", "catch", "choose_colour", "flip_choice", "race_close"}
    )
    shape_first = False  # rules section 7: game-over (step 3) before the fields (step 4)

    # --- header

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "hand_size", "first", "race_timeout_ms", "copies")
        hand_size = options.get("hand_size", 8)
        if not is_int(hand_size) or hand_size not in (6, 8):
            raise _bad("hand_size must be 6 or 8", "hand_size muss 6 oder 8 sein")
        first = options.get("first")
        if "first" in options and (type(first) is not str or first not in players):
            raise _bad(f"first {first!r} is not seated", f"first {first!r} sitzt nicht am Tisch")
        timeout = options.get("race_timeout_ms", 3000)
        if not is_int(timeout) or timeout < 1:
            raise _bad("race_timeout_ms must be an integer of at least 1",
                       "race_timeout_ms muss eine ganze Zahl ≥ 1 sein")
        copies = options.get("copies", {})
        if type(copies) is not dict:
            raise _bad("copies must be an object", "copies muss ein Objekt sein")
        counts = dict(DEFAULT_COPIES)
        for key, value in copies.items():
            if key not in counts:
                raise _bad(f"unknown copies key {key!r}", f"unbekannter copies-Schlüssel {key!r}")
            least = 1 if key == "plain" else 0
            if not is_int(value) or value < least:
                raise _bad(f"copies.{key} must be an integer of at least {least}",
                           f"copies.{key} muss eine ganze Zahl ≥ {least} sein")
            counts[key] = value
        total = 32 * counts["plain"] + 48 * counts["special"] + counts["wild"]
        if total % 2:
            raise _bad(f"the deck has {total} sides, an odd number",
                       f"das Spiel hat {total} Seiten, eine ungerade Zahl")
        need = len(players) * hand_size + 1
        if total // 2 < need:
            raise _bad(f"the deck must hold at least {need} cards", f"das Spiel muss mindestens {need} Karten haben")
        return Options(hand_size, first, timeout, counts["plain"], counts["special"], counts["wild"])

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = deck_for(options.plain, options.special, options.wild)
        self.cards = self.deck.size // 2  # physical cards: two sides each
        self.n = len(self.players)
        self._ring = _rings(self.players)
        self._cache = self.deck._cache
        self._copies = self.deck.copies
        self.first = options.first if options.first is not None else self.next_seat(dealer)  # AO-R3
        self.tally = CardTally()  # the discard pile (section 2)
        self.started = False
        self.top: Side | None = None
        self.top_card: Card | None = None
        self.colour: str | None = None
        self.pattern: str | None = None
        self.pile = 0
        self.hands = dict.fromkeys(self.players, options.hand_size)
        self.draw_pile = self.cards - self.n * options.hand_size  # AO-R1
        self.direction = 1
        self.chain: list[int] | None = None  # [anna, otto]
        self.chain_by: str | None = None  # the last chain player
        self.plus = 0
        self.drawn = False
        self.choices: list[str] = []
        self.layer: str | None = None  # who owes the ANNAOTTO choices
        self.race: Race | None = None
        self.due: tuple[str, str] | None = None
        self.flip: dict[str, Any] | None = None
        self.out: list[str] = []
        self.pending: tuple[str, Side, list[int] | None, str | None, int] | None = None  # AO-R18
        self.winners: list[str] = []

    # --- steps 3 … 17

    @classmethod
    def judges(cls) -> Mapping[str, Callable[[Annaotto, Mapping[str, Any]], None]]:
        """Steps 4 … 17 (the reducer checks step 3) in one function per event type: this runs for every scan."""
        return _JUDGES

    def _seated(self, name: str) -> None:
        if name not in self.seats:
            raise Rejection("unknown-player", player=name)

    def _started(self) -> None:
        if not self.started:
            raise Rejection("not-started")

    def _on_turn(self, player: str) -> None:
        """Step 12: race open, then not on turn."""
        if self.race is not None:
            raise Rejection("race-open")
        if player != self.turn:
            self.on_turn(player)

    def _step_start(self, event: Mapping[str, Any]) -> None:
        card, side = self.card(event["card"])
        if self.started:
            raise Rejection("already-started")
        self.not_exhausted(self.tally, (card,))
        if side.sign is not None or side.wild:
            raise Rejection("start-not-plain", card=card.face)
        self._start(card, side)

    def _judge_play(self, event: Mapping[str, Any]) -> None:
        player = event.get("player")
        if type(player) is not str:  # step 4
            raise _bad_field("player")
        code = event.get("card")
        if type(code) is not str or "cards" in event:
            _shape_cards(event)
            code = None
        source = None
        if "from" in event:
            source = event["from"]
            if type(source) is not str:
                raise _bad_field("from")
        seats = self.seats
        if player not in seats:  # step 5
            raise Rejection("unknown-player", player=player)
        if source is not None and source not in seats:
            raise Rejection("unknown-player", player=source)
        if code is None:
            codes = event["cards"]
            card, side = self.card(codes[0])
            for other in codes[1:]:
                self.card(other)
            if len(codes) > 1:
                raise Rejection("one-card-only")
        else:
            hit = self._cache.get(code)
            card, side = hit if hit is not None else self.card(code)
        if not self.started:
            raise Rejection("not-started")
        tally = self.tally
        face = card.face
        if tally.counts.get(face, 0) >= self._copies[face] or (
            card.copy is not None and card.code in tally.copies
        ):
            raise Rejection("card-exhausted", card=str(card))
        if self.race is not None:
            raise Rejection("race-open")
        if player != self.turn:
            self.on_turn(player)
        if self.choices:
            raise Rejection("choice-pending", player=player)
        if source is not None:
            if self.drawn:
                raise Rejection("drawn-card-only")
            if source == player:
                raise Rejection("bad-source")
            if self.hands[source] < 2:
                raise Rejection("last-card-protected", source=source)
        top = self.top
        if self.chain is not None:
            want = ALTERNATE[top.sign]
            if side.sign != want:
                raise Rejection("penalty-pending", player=player, sign=want)
        elif self.plus:
            if side.sign != PLUS:
                raise Rejection("penalty-pending", "penalty-pending.plus", player=player, plus=self.plus)
        elif not side.plain or top.wild or (side.colour != self.colour and side.pattern != self.pattern):
            error = match_error(side, top, self.colour, self.pattern)  # everything but a plain side's match
            if error is not None:
                if error == "no-match" and top.wild:
                    raise Rejection(error, "no-match.wild", colour=self.colour)
                raise Rejection(error, card=card.face, top=top.face)
        # --- AO-R4 … AO-R6, AO-R16, AO-R18, then the card's effect (written out: nine plays in ten are plain)
        self.flip = None
        self.due = None
        self.drawn = False
        tally.counts[face] = tally.counts.get(face, 0) + 1  # CardTally.add, inlined on the hot path
        if card.copy is not None:
            tally.copies.add(card.code)
        self.pile += 1
        self.top = side
        self.top_card = card
        self.colour = side.colour
        self.pattern = side.pattern
        hands = self.hands
        if source is not None:
            hands[source] -= 1  # never the last card (AO-R6); no call owed (AO-D15)
        else:
            left = hands[player] - 1
            hands[player] = left
            if left == 1:
                self.due = (player, ANNA)
            elif left == 0:
                self.due = (player, OTTO)
                self.out.append(player)
                if sum(1 for h in hands.values() if h) == 1:  # the deciding play (AO-R18)
                    self.pending = (player, side, self.chain, self.chain_by, self.plus)
                    self.chain = None
                    self.plus = 0
                    self.turn = None
                    return
        if side.plain:  # AO-R8, the everyday case of `_effect`
            self.turn = self._next_holder(player)
        else:
            self._effect(player, side)

    def _judge_draw(self, event: Mapping[str, Any]) -> None:
        player = event.get("player")
        if type(player) is not str:  # step 4
            raise _bad_field("player")
        if "count" in event:
            count = event["count"]
            if not is_int(count) or count < 1:
                raise _bad_field("count")
        if player not in self.seats:
            raise Rejection("unknown-player", player=player)
        if not self.started:
            raise Rejection("not-started")
        self._on_turn(player)
        if self.choices:
            raise Rejection("choice-pending", player=player)
        if self.chain is not None or self.plus:
            if self.plus:
                raise Rejection("penalty-pending", "penalty-pending.plus", player=player, plus=self.plus)
            raise Rejection("penalty-pending", player=player, sign=ALTERNATE[self.top.sign])
        if self.drawn:
            raise Rejection("already-drawn", player=player)
        if event.get("count", 1) != 1:
            raise Rejection("bad-draw-count")
        if not self.draw_pile and self.pile < 2:
            raise Rejection("no-cards-to-draw")
        self._draw(player)

    def _judge_press(self, event: Mapping[str, Any]) -> None:
        player = event.get("player")
        if type(player) is not str:  # step 4
            raise _bad_field("player")
        button = event.get("button")
        if type(button) is not str or button not in _BUTTONS:
            raise _bad_field("button")
        if "t_us" in event:
            t_us = event["t_us"]
            if not is_int(t_us) or t_us < 0:
                raise _bad_field("t_us")
        elif button == "slap":
            raise _bad_field("t_us")
        if player not in self.seats:
            raise Rejection("unknown-player", player=player)
        if not self.started:
            raise Rejection("not-started")
        if button == "slap":
            race = self.race
            if race is None:
                raise Rejection("no-race")
            if player not in race.participants:
                raise Rejection("not-in-race", player=player)
            if player in race.pressed:
                raise Rejection("already-pressed", player=player)
            self._slap(race, player, event["t_us"])
            return
        self._on_turn(player)
        if self.choices:
            raise Rejection("choice-pending", player=player)
        if self.chain is None and not self.plus and not self.drawn:
            raise Rejection("nothing-to-confirm")
        self._confirm(player)

    def _judge_call(self, event: Mapping[str, Any]) -> None:
        player = event.get("player")
        if type(player) is not str:  # step 4
            raise _bad_field("player")
        word = event.get("word")
        if type(word) is not str or word not in _WORDS:
            raise _bad_field("word")
        self._seated(player)
        self._started()
        if word == ALLE:
            race = self.race
            if race is None or race.by != player or race.called:
                raise Rejection("no-call-due", player=player, word=word)
            race.called = True  # AO-R15c
            return
        if self.due != (player, word):
            raise Rejection("no-call-due", player=player, word=word)
        self._call(player)

    def _step_catch(self, event: Mapping[str, Any]) -> None:
        player = event["player"]
        self._seated(player)
        target = event["target"]
        self._seated(target)
        self._started()
        due = self.due
        if due is None or due[0] != target or player == target:
            raise Rejection("nothing-to-catch", target=target)
        self._catch(target)

    def _step_choose_colour(self, event: Mapping[str, Any]) -> None:
        player = event["player"]
        self._seated(player)
        self._started()
        self._on_turn(player)
        if "colour" not in self.choices:
            raise Rejection("no-choice-pending")
        colour = event["colour"]
        if colour not in _COLOURS:
            raise Rejection("bad-colour", colour=colour)
        self.colour = colour
        self._chosen("colour")

    def _step_flip_choice(self, event: Mapping[str, Any]) -> None:
        player = event["player"]
        self._seated(player)
        self._started()
        self._on_turn(player)
        if "flip" not in self.choices:
            raise Rejection("no-choice-pending")
        target = player if event["who"] == "self" else self._next_holder(player)
        self.flip = {"by": player, "target": target, "cards": "all"}
        self._chosen("flip")

    def _step_race_close(self, event: Mapping[str, Any]) -> None:
        self._started()
        if self.race is None:
            raise Rejection("no-race")
        self._close_race(all_pressed=False)

    # --- mutations, named after the rules

    def _start(self, card: Card, side: Side) -> None:
        """AO-R2, AO-R3."""
        self.started = True
        self._lay(card, side)
        self.draw_pile -= 1
        self.turn = self.first

    def _lay(self, card: Card, side: Side) -> None:
        self.tally.add(card)
        self.pile += 1
        self.top = side
        self.top_card = card
        self.colour = side.colour
        self.pattern = side.pattern

    def _effect(self, player: str, side: Side) -> None:
        """AO-R8 … AO-R15: where the turn goes and what the next player faces."""
        sign = side.sign
        if sign is None:
            if side.wild:  # AO-R14
                self.choices = ["colour", "flip"]
                self.layer = player
                self.colour = None
                self.turn = player
            else:
                self.turn = self._next_holder(player)
        elif sign in ALTERNATE:  # AO-R10
            chain = self.chain
            if chain is None:
                chain = self.chain = [0, 0]
            chain[sign == OTTO] += 1
            self.chain_by = player
            self.turn = self._next_holder(player)
        elif sign == PLUS:  # AO-R11
            self.plus += 1
            self.turn = self._next_holder(player)
        elif sign == RETOUR:  # AO-R12
            self.direction = -self.direction
            self.turn = self._next_holder(player)
        elif sign == HUERDEN:  # AO-R13
            self.turn = self._next_holder(self._next_holder(player))
        else:  # ALLE, AO-R15a
            self.race = Race(player, frozenset(p for p in self.players if self.hands[p]))
            self.turn = None

    def _next_holder(self, player: str) -> str:
        """AO-R8: one step in `direction` to the next player who holds cards."""
        hands = self.hands
        for candidate in self._ring[self.direction][player]:
            if hands[candidate]:
                return candidate
        return player

    def _take(self, player: str, count: int) -> int:
        """AO-R19: take `count` cards from the draw pile, reshuffling once when it runs dry."""
        got = count if count <= self.draw_pile else self.draw_pile
        self.draw_pile -= got
        if got < count and self.pile > 1:
            self._reshuffle()
            more = min(count - got, self.draw_pile)
            self.draw_pile -= more
            got += more
        if got:
            if not self.hands[player] and player in self.out:  # back in the game (AO-R18)
                self.out.remove(player)
            self.hands[player] += got
        return got

    def _reshuffle(self) -> None:
        """AO-R19: the discard pile but its top becomes the draw pile and leaves the table."""
        self.draw_pile += self.pile - 1
        self.pile = 1
        self.tally.clear()
        self.tally.add(self.top_card)

    def _draw(self, player: str) -> None:
        """AO-R7."""
        self.flip = None
        self.due = None
        self._take(player, 1)
        self.drawn = True

    def _confirm(self, player: str) -> None:
        """AO-R10, AO-R11 (the victim stays on turn), AO-R7 (keep the drawn card, the turn passes)."""
        self.flip = None
        self.due = None
        chain = self.chain
        if chain is not None:
            anna, otto = chain
            self._take(player, 2 * otto)
            if anna:
                self.flip = {"by": self.chain_by, "target": player, "cards": 2 * anna}
            self.chain = None
            self.chain_by = None
        elif self.plus:
            self._take(player, self.plus)
            self.plus = 0
        else:
            self.drawn = False
            self.turn = self._next_holder(player)

    def _slap(self, race: Race, player: str, t_us: int) -> None:
        """AO-R15b, AO-R15d: the last participant's slap closes the race."""
        race.pressed[player] = t_us
        if len(race.pressed) == len(race.participants):
            self._close_race(all_pressed=True)

    def _close_race(self, all_pressed: bool) -> None:
        """AO-R15e."""
        race = self.race
        assert race is not None
        if not race.called:
            losers: Sequence[str] = (race.by,)
        elif all_pressed:
            slowest = max(race.pressed.values())
            losers = [p for p in self.players if race.pressed.get(p) == slowest]
        else:
            losers = [p for p in self.players if p in race.participants and p not in race.pressed]
        for loser in losers:
            self._take(loser, 2)
        self.race = None
        self.turn = self._next_holder(race.by)

    def _call(self, player: str) -> None:
        """AO-R16; the OTTO of the deciding play ends the game (AO-R18)."""
        self.due = None
        if self.pending is not None:
            self._finish()

    def _catch(self, target: str) -> None:
        """AO-R17, AO-R18: one card for the missed call; a caught deciding play takes effect."""
        self.due = None
        got = self._take(target, 1)
        pending = self.pending
        if pending is not None:
            if not got:
                self._finish()
                return
            self.pending = None
            player, side, self.chain, self.chain_by, self.plus = pending
            self._effect(player, side)

    def _chosen(self, choice: str) -> None:
        """AO-R14: after the last owed choice the turn passes."""
        self.choices.remove(choice)
        if not self.choices:
            self.turn = self._next_holder(self.layer)
            self.layer = None

    def _finish(self) -> None:
        """AO-R18: the end."""
        self.finished = True
        self.turn = None
        self.chain = None
        self.chain_by = None
        self.plus = 0
        self.race = None
        self.choices = []
        self.drawn = False
        self.due = None
        self.pending = None
        self.winners = [self.out[0]]

    # --- reading

    def scores(self) -> dict[str, int]:
        places = {p: i + 1 for i, p in enumerate(self.out)}
        if self.finished:
            return {p: places.get(p, self.n) for p in self.players}
        return {p: places.get(p, 0) for p in self.players}

    def public(self) -> dict[str, Any]:
        race = self.race
        return {
            "turn": self.turn,
            "finished": self.finished,
            "scores": self.scores(),
            "winners": list(self.winners),
            "top": None if self.top is None else self.top.face,
            "colour": self.colour,
            "pattern": self.pattern,
            "pile": self.pile,
            "draw_pile": self.draw_pile,
            "hands": dict(self.hands),
            "direction": self.direction,
            "chain": None if self.chain is None else {"anna": self.chain[0], "otto": self.chain[1]},
            "plus": self.plus,
            "drawn": self.drawn,
            "choices": [c for c in ("colour", "flip") if c in self.choices],
            "race": None if race is None else {"by": race.by, "called": race.called, "pressed": dict(race.pressed)},
            "due": None if self.due is None else {"player": self.due[0], "word": self.due[1]},
            "flip": None if self.flip is None else dict(self.flip),
            "out": list(self.out),
        }

    def card_places(self) -> dict[str, int]:
        """Counted in sides (two per physical card), so they add up to `deck.size`."""
        return {"hands": 2 * sum(self.hands.values()), "draw_pile": 2 * self.draw_pile, "pile": 2 * self.pile}


# --- step 4, per event type (rules section 7, "Order of checks")


def _bad_field(name: str) -> Rejection:
    return Rejection("bad-event", "bad-event.field", field=name)


def _player(event: Mapping[str, Any]) -> None:
    if type(event.get("player")) is not str:
        raise _bad_field("player")


def _shape_start(event: Mapping[str, Any]) -> None:
    if type(event.get("card")) is not str:
        raise _bad_field("card")


def _shape_cards(event: Mapping[str, Any]) -> None:
    """Step 4 for a `play` that is not the everyday single string `card`."""
    if "card" in event:
        if "cards" in event:
            raise Rejection("bad-event", "bad-event.forbidden", field="cards")
        raise _bad_field("card")
    cards = event.get("cards")
    if type(cards) is not list or not cards or any(type(c) is not str for c in cards):
        raise _bad_field("cards")


def _shape_catch(event: Mapping[str, Any]) -> None:
    _player(event)
    if type(event.get("target")) is not str:
        raise _bad_field("target")


def _shape_choose_colour(event: Mapping[str, Any]) -> None:
    _player(event)
    if type(event.get("colour")) is not str:
        raise _bad_field("colour")


def _shape_flip_choice(event: Mapping[str, Any]) -> None:
    _player(event)
    who = event.get("who")
    if type(who) is not str or who not in _WHO:
        raise _bad_field("who")


def _race_close_shape(event: Mapping[str, Any]) -> None:
    pass


def _checked(shape: Callable[[Mapping[str, Any]], None], step: Callable[[Annaotto, Mapping[str, Any]], None]
             ) -> Callable[[Annaotto, Mapping[str, Any]], None]:
    """Step 4, then the rest, for the event types that are too rare to inline their field checks."""
    def judge(game: Annaotto, event: Mapping[str, Any]) -> None:
        shape(event)
        step(game, event)

    return judge


_JUDGES: dict[str, Callable[[Annaotto, Mapping[str, Any]], None]] = {
    "start": _checked(_shape_start, Annaotto._step_start),
    "play": Annaotto._judge_play,
    "draw": Annaotto._judge_draw,
    "press": Annaotto._judge_press,
    "call": Annaotto._judge_call,
    "catch": _checked(_shape_catch, Annaotto._step_catch),
    "choose_colour": _checked(_shape_choose_colour, Annaotto._step_choose_colour),
    "flip_choice": _checked(_shape_flip_choice, Annaotto._step_flip_choice),
    "race_close": _checked(_race_close_shape, Annaotto._step_race_close),
}
