"""alcasan's state and rules table: per event type the checks in section 7's order (checks 5 … 10), each a
small method carrying its rule id, then the effects."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.answers import HeaderError, Rejection
from referee.cards import Card, CardTally
from referee.decks.alcasan import DEFAULT_COPIES, SHORT_FACES, WASSER_VALUE
from referee.fields import bool_option, is_int, known_options, need_str, need_str_list
from referee.games import register
from referee.games.alcasan.cards import (
    ANY,
    AT_LEAST,
    AT_MOST_4,
    DEALT,
    FACES,
    HAND,
    HIGHEST,
    RUN,
    Face,
    Need,
    deck,
    refusal,
)
from referee.games.alcasan.hints import AlcasanHints, AlcasanState
from referee.hints import FinishedHints, Hints, Owed
from referee.protocol import Game
from referee.rules import On, of_field, rule

# --- what the referee keeps


@dataclass(slots=True)
class Holder:
    """One seated player's cards, as counts (the state keys `hands`, `up`, `down`)."""

    name: str
    hand: int = HAND  # hand cards
    up: int = HAND  # face-up cards
    down: int = HAND  # face-down cards

    def __len__(self) -> int:
        """Cards held in all three places: a holder with none is out (so `Seats.next_holder` skips them)."""
        return self.hand + self.up + self.down

    @property
    def source(self) -> str:
        """Where the next cards come from: `"hand"`, else `"up"`, else `"down"` (the face-down phase)."""
        return "hand" if self.hand else "up" if self.up else "down"


@dataclass(frozen=True)
class Options:
    """The header's options (section 11)."""

    copies: int = DEFAULT_COPIES  # copies of each of the 13 faces
    stop_at_first: bool = False  # the game ends when the first player is out


@dataclass(slots=True)
class Move:
    """One event as the checks read it: its type, who acts, and the scanned codes; the checks note the cards
    and their faces as they look them up."""

    kind: str  # "play", "take_pile", "reveal" (or "draw"/"press", which alcasan does not use)
    player: str
    codes: list[str] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    faces: list[Face] = field(default_factory=list)

    @classmethod
    def read_play(cls, event: Mapping[str, Any]) -> Move:
        """Check 5 for `play`: a `player`, and exactly one of `card` (one code) or `cards` (a non-empty list)."""
        player = need_str(event, "player")
        if "card" in event:
            if "cards" in event:
                raise Rejection("bad-event", "bad-event.ac-card-or-cards")
            return cls("play", player, [need_str(event, "card")], [], [])
        if "cards" in event:
            return cls("play", player, need_str_list(event, "cards"), [], [])
        raise Rejection("bad-event", "bad-event.ac-card-or-cards")

    @classmethod
    def read_take(cls, event: Mapping[str, Any]) -> Move:
        """Check 5 for `take_pile`: a `player`."""
        return cls("take_pile", need_str(event, "player"))

    @classmethod
    def read_reveal(cls, event: Mapping[str, Any]) -> Move:
        """Check 5 for `reveal`: a `player` and one `card`."""
        player = need_str(event, "player")
        return cls("reveal", player, [need_str(event, "card")], [], [])

    @classmethod
    def read_unused(cls, event: Mapping[str, Any]) -> Move:
        """`draw` and `press` are refused before their fields are read (check 4)."""
        return cls(event["type"], "")


SEATED = of_field("player", Game.seated)  # check 6


@register
class Alcasan(Game):
    game_id = "alcasan"
    title = "alcasan"
    player_counts = (2, 3, 4)
    shape_first = False  # section 7: `game-over` comes before the field checks

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "copies", "stop_at_first")
        copies = options.get("copies", DEFAULT_COPIES)
        if not is_int(copies) or copies < 1:
            raise HeaderError("at-least", option="copies", least=1)
        size = len(SHORT_FACES) * copies
        if size < DEALT * len(players):
            raise HeaderError("ac-copies", copies=copies, size=size, dealt=DEALT * len(players))
        return Options(copies, bool_option(options, "stop_at_first", False))

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        """Section 3: nine cards each (3 face-down, 3 face-up, 3 in the hand); the player after the dealer starts."""
        super().__init__(players, dealer, options)
        self.deck = deck(options.copies)
        self.holders = {p: Holder(p) for p in self.players}
        self.draw_pile = self.deck.size - DEALT * len(self.players)
        self.pile: list[Card] = []  # the discard pile, bottom first
        self.pile_faces: list[Face] = []  # their faces
        self.tally = CardTally()  # the table of AC-D19: the pile plus the burned cards
        self.burned = 0
        self.out: list[str] = []
        self.places = dict.fromkeys(self.players, 0)
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)

    # --- reading the pile

    @rule("AC-R12")
    def effective_card(self) -> Face | None:
        """Luft is transparent: the pile's topmost card that is not Luft decides; under several Luft cards the
        one below the lowest of them; None on an empty or Luft-only pile (AC-D2)."""
        for face in reversed(self.pile_faces):
            if face.kind != "LUFT":
                return face
        return None

    @rule("AC-R11")
    def need(self) -> Need:
        """What the next card must be: after Erde, as on an empty pile, any face may follow; after Wasser 4 or
        lower (AC-D3); after a number N, N or higher."""
        below = self.effective_card()
        if below is None or below.kind == "ERDE":
            return ANY
        if below.kind == "WASSER":
            return AT_MOST_4
        return AT_LEAST[below.value]

    def fits(self, face: Face) -> bool:
        """May `face` be laid on the pile now (the legality rules a play is checked by)?"""
        return refusal(face, self.need()) is None

    def run(self) -> int:
        """How many cards of the top card's face lie on top of the pile, one on the other."""
        faces_ = self.pile_faces
        n = 0
        while n < len(faces_) and faces_[-1 - n] is faces_[-1]:
            n += 1
        return n

    # --- the checks, section 7's order: each raises a Rejection, none changes anything

    @rule("AC-D11", "AC-D20")
    def not_used(self, move: Move) -> None:
        """Check 4: hands are refilled without a `draw` event, and no button is used."""
        raise Rejection("event-not-used", "event-not-used.ac", type=move.kind)

    @rule("AC-D19")
    def cards_left(self, move: Move) -> None:
        """Check 8: the event's cards and the table (the pile plus the burned cards) hold no face more often than
        the deck, no named copy twice; a revealed card counts even if it then fails."""
        self.not_exhausted(move.cards)

    @rule("AC-R16")
    def phase_fits(self, move: Move) -> None:
        """With hand and face-up cards gone, the player turns over a face-down card (`reveal`): `play` and
        `take_pile` are refused then (AC-D15), and `reveal` at any other time."""
        me = self.holders[move.player]
        face_down = not me.hand and not me.up
        if move.kind == "reveal":
            if not face_down:
                raise Rejection("not-face-down", "not-face-down.ac", player=move.player)
        elif face_down:
            raise Rejection("must-reveal", "must-reveal.ac", player=move.player)

    @rule("AC-R2")
    def one_face(self, move: Move) -> None:
        """Several cards at once show the same face."""
        first = move.faces[0]
        for face in move.faces:
            if face is not first:
                names = ", ".join(dict.fromkeys(f.name for f in move.faces))
                raise Rejection("mixed-faces", "mixed-faces.ac", faces=names)

    @rule("AC-R3")
    def source_holds(self, move: Move) -> None:
        """The cards come from the hand while it holds cards, else from the face-up cards (AC-D12); never more
        than that source holds, so a play never mixes the last hand cards with face-up cards (AC-D13)."""
        me = self.holders[move.player]
        source, have = ("hand", me.hand) if me.hand else ("up", me.up)
        if len(move.cards) > have:
            raise Rejection(
                "too-many-cards", f"too-many-cards.ac-{source}", player=move.player, have=have, count=len(move.cards)
            )

    def face_fits(self, move: Move) -> None:
        """Check 10's legality: the face may go on the pile (`too-low`, `too-high`, `wasser-blocked`)."""
        face = move.faces[0]
        need = self.need()
        error = refusal(face, need)
        if error is not None:
            raise Rejection(error, f"{error}.ac", face=face.name, need=need.lowest)

    @rule("AC-D9")
    def pile_not_empty(self, move: Move) -> None:
        """An empty pile cannot be taken."""
        if not self.pile:
            raise Rejection("pile-empty", "pile-empty.ac")

    @rule("AC-R1")
    def only_player_on_turn(self, move: Move) -> None:
        """Check 9: only the player on turn plays, takes the pile or reveals."""
        self.turn_is(move.player)

    # --- the effects, after every check passed

    @rule("AC-R15")
    def shed(self, move: Move) -> None:
        """The cards leave the hand, or once the hand is empty the face-up cards; a taken pile is hand cards
        again, so it goes first."""
        me = self.holders[move.player]
        if me.hand:
            me.hand -= len(move.cards)
        else:
            me.up -= len(move.cards)

    def lay(self, move: Move) -> None:
        """The cards join the pile and the table (AC-D19); Feuer or four identical faces burn it; the hand is
        refilled; then the same player again after a burn, else the next one."""
        self.pile += move.cards
        self.pile_faces += move.faces
        for card in move.cards:
            self.tally.add(card)
        burn = self.feuer_burns() or self.four_burn()
        if burn:
            self.burned += len(self.pile)  # the burned cards stay on the table of AC-D19
            self.pile = []
            self.pile_faces = []
        me = self.holders[move.player]
        self.refill(me)
        self.next_turn(me, burn)

    @rule("AC-R10")
    def feuer_burns(self) -> bool:
        """Feuer may be laid on anything and burns the whole pile, itself included (AC-D4: an empty one too)."""
        return self.pile_faces[-1].kind == "FEUER"

    @rule("AC-R13")
    def four_burn(self) -> bool:
        """Four identical faces on top of the pile (in one or several plays, by one or several players) burn it
        like Feuer; any other face between them breaks the run, and a run never continues across a burn (AC-D7)."""
        faces_ = self.pile_faces
        return len(faces_) >= RUN and faces_[-1] is faces_[-2] is faces_[-3] is faces_[-4]

    @rule("AC-R4")
    def refill(self, me: Holder) -> None:
        """After a play or a reveal that fits, the hand is refilled to 3 while the draw pile lasts."""
        if me.hand < HAND and self.draw_pile:
            drawn = min(HAND - me.hand, self.draw_pile)
            me.hand += drawn
            self.draw_pile -= drawn

    @rule("AC-R14")
    def next_turn(self, me: Holder, burned: bool) -> None:
        """After a burn the same player lays again (AC-D5), unless that was their last card: then they are out
        and the next player starts the new pile (AC-D18)."""
        if len(me) == 0:
            self.player_out(me)
        elif not burned:
            self.pass_turn(me)

    @rule("AC-R5")
    def pass_turn(self, me: Holder) -> None:
        """The turn passes to the next player clockwise who still holds cards (hand, face-up or face-down)."""
        self.turn = self.seats.next_holder(me.name, self.holders)

    @rule("AC-R6", "AC-D10")
    def take_pile(self, move: Move) -> None:
        """The whole pile goes into the hand (AC-D8: whether the player could have laid a card is not known);
        the next player starts a new pile."""
        me = self.holders[move.player]
        me.hand += len(self.pile)
        self.pile_to_hand(me)

    def pile_to_hand(self, me: Holder) -> None:
        """The pile goes back to a hand: its cards leave the table of AC-D19; the turn passes."""
        for card in self.pile:
            self.tally.remove(card)
        self.pile = []
        self.pile_faces = []
        self.pass_turn(me)

    @rule("AC-D14")
    def turn_over(self, move: Move) -> None:
        """A revealed face that may be laid counts as a play of that card; else the card and the whole pile go
        into the hand and the turn passes (the event is accepted either way)."""
        me = self.holders[move.player]
        me.down -= 1
        if self.fits(move.faces[0]):
            self.lay(move)
            return
        me.hand += len(self.pile) + 1  # the revealed card never joined the table
        self.pile_to_hand(me)

    @rule("AC-R17")
    def player_out(self, me: Holder) -> None:
        """A player without cards is out with the next finishing place; out players are skipped."""
        self.out.append(me.name)
        self.places[me.name] = len(self.out)
        if self.options.stop_at_first:
            self.finish(2)
        elif len(self.out) == len(self.players) - 1:
            self.finish(len(self.players))
        else:
            self.pass_turn(me)

    @rule("AC-R18")
    def finish(self, place: int) -> None:
        """The game ends when one player is left holding cards (AC-D16; with `stop_at_first` at the first player
        out): the others get `place`, and the first player out wins (AC-D17)."""
        for p in self.players:
            if not self.places[p]:
                self.places[p] = place
        self.finished = True
        self.turn = None
        self.winners = [self.out[0]]

    rules: ClassVar[Mapping[str, On]] = {
        "play": On(
            Move.read_play,
            checks=(SEATED, Game.note_cards, cards_left, only_player_on_turn, phase_fits, one_face, source_holds,
                    face_fits),
            effects=(shed, lay),
        ),
        "take_pile": On(Move.read_take, checks=(SEATED, only_player_on_turn, phase_fits, pile_not_empty),
                        effects=(take_pile,)),
        "reveal": On(
            Move.read_reveal,
            checks=(SEATED, Game.note_cards, cards_left, only_player_on_turn, phase_fits),
            effects=(turn_over,),
        ),
        "draw": On(Move.read_unused, checks=(not_used,)),
        "press": On(Move.read_unused, checks=(not_used,)),
    }

    # --- reading

    @property
    def hands(self) -> dict[str, int]:
        return {p: h.hand for p, h in self.holders.items()}

    @property
    def up(self) -> dict[str, int]:
        return {p: h.up for p, h in self.holders.items()}

    @property
    def down(self) -> dict[str, int]:
        return {p: h.down for p, h in self.holders.items()}

    def public_state(self) -> AlcasanState:
        return AlcasanState(
            turn=self.turn,
            finished=self.finished,
            scores=dict(self.places),
            winners=list(self.winners),
            pile=len(self.pile),
            top=self.pile_faces[-1].name if self.pile_faces else None,
            need=self.need().text,
            burned=self.burned,
            draw_pile=self.draw_pile,
            hands=self.hands,
            up=self.up,
            down=self.down,
            out=list(self.out),
        )

    def public(self) -> dict[str, Any]:
        return self.public_state().to_json()

    def hints(self) -> Hints:
        """The player on turn: where their cards come from and what may be laid now (`Referee.hints()`)."""
        need = self.need()
        run = self.run()
        burning = self.pile_faces[-1].name if run == RUN - 1 and self.fits(self.pile_faces[-1]) else None
        source = self.holders[self.turn].source if self.turn is not None else "hand"
        detail = AlcasanHints(
            source=source,
            need=need.text,
            lowest=need.lowest,
            highest=WASSER_VALUE if need.at_most_4 else HIGHEST,
            faces=tuple(face.name for face in FACES.values() if self.fits(face)),
            can_take=source != "down" and bool(self.pile),
            run=run,
            burning=burning,
        )
        if self.finished:
            return Hints(self.game_id, (), (), FinishedHints(tuple(self.winners), detail))
        if source == "down":
            owed = tuple(Owed(player, "reveal", "down") for player in self.turn_actors())
            return Hints(self.game_id, self.turn_actors(), ("reveal",), detail, owed=owed)
        return Hints(self.game_id, self.turn_actors(), ("play", "take_pile") if self.pile else ("play",), detail)

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "up": sum(self.up.values()),
            "down": sum(self.down.values()),
            "draw_pile": self.draw_pile,
            "pile": len(self.pile),
            "burned": self.burned,
        }

