"""ANNAOTTO's rules table: one `On` per event type (section 7), its checks in the section's "Order of
checks" (steps 4 … 17; the reducer does 1 … 3), then its effects, each named after the rule it carries out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from referee.answers import Rejection
from referee.cards import Card, CardTally
from referee.decks.annaotto import COLOURS, Side
from referee.games import register
from referee.games.annaotto.hints import annaotto_hints
from referee.games.annaotto.matching import (
    ALLE,
    ALTERNATE,
    ANNA,
    HUERDEN,
    OTTO,
    PLUS,
    RACE_PENALTY,
    RETOUR,
    breaks_alternation,
    deck_for,
    side_fits,
)
from referee.games.annaotto.moves import (
    CallMove,
    CatchMove,
    ChoiceMove,
    CloseMove,
    DrawMove,
    PlayMove,
    PressMove,
    StartMove,
)
from referee.games.annaotto.options import Options, parse_options
from referee.games.annaotto.state import AnnaottoState, Chain, Due, Flip, Race, RaceState
from referee.hints import Hints, RaceView
from referee.protocol import Game
from referee.rules import On, noted, of_field, rule

# The shared checks this game applies to its moves' fields (`referee.rules.of_field`).
SEATED = of_field("player", Game.seated)
CARD_LEFT = of_field("card", Game.not_exhausted)


@register
class Annaotto(Game):
    game_id = "annaotto"
    title = "ANNAOTTO"
    player_counts = (2, 3, 4, 5, 6)
    shape_first = False  # rules section 7: game-over (step 3) before the fields (step 4)
    variants: ClassVar[Mapping[str, str]] = {"press": "button"}  # `press:confirm` and `press:slap` differ
    options: Options

    # --- header

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        return parse_options(options, players, dealer)

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = deck_for(options.plain, options.special, options.wild)
        self.first = self.first_player(dealer)
        self.tally = CardTally()  # the discard pile (section 2)
        self.started = False
        self.top: Side | None = None
        self.top_card: Card | None = None
        self.colour: str | None = None
        self.pattern: str | None = None
        self.pile = 0
        self.deal()
        self.direction = 1
        self.chain: list[int] | None = None  # [anna, otto]
        self.chain_by: str | None = None  # the last chain player
        self.plus = 0
        self.drawn = False
        self.choices: list[str] = []
        self.layer: str | None = None  # who owes the ANNAOTTO choices
        self.race: Race | None = None
        self.last_race: RaceView | None = None  # the last race's result, until the next move
        self.due: tuple[str, str] | None = None
        self.flip: Flip | None = None
        self.out: list[str] = []
        self.pending: tuple[str, Side, list[int] | None, str | None, int] | None = None  # AO-R18
        self.winners: list[str] = []

    @rule("AO-R1")
    def deal(self) -> None:
        """Each player holds `hand_size` cards; the rest is the draw pile (in physical cards: two sides each)."""
        self.hands = dict.fromkeys(self.players, self.options.hand_size)
        self.draw_pile = self.deck.size // 2 - len(self.players) * self.options.hand_size

    @rule("AO-R3")
    def first_player(self, dealer: str) -> str:
        """The player named by `first`, else the player after the dealer."""
        return self.options.first if self.options.first is not None else self.seats.after(dealer)

    # --- checks shared by several event types (section 7, steps 5, 8, 12, 14)

    def started_already(self, move: Any) -> None:
        """Step 8: before `start` every other event is `not-started`."""
        if not self.started:
            raise Rejection("not-started")

    def acting_now(self, move: Any) -> None:
        """Step 12: no turn while a race is open (AO-R15), then `not-your-turn`."""
        if self.race is not None:
            raise Rejection("race-open")
        if move.player != self.turn:
            self.turn_is(move.player)

    def no_choice_owed(self, move: Any) -> None:
        """Step 14: while ANNAOTTO choices are owed, no play, draw or confirm (AO-R14)."""
        if self.choices:
            raise Rejection("choice-pending", player=move.player)

    # --- `start`

    def top_side(self) -> Side:
        """The side on top of the discard pile (the start card at least: `started_already` refuses every other
        event before the start)."""
        return noted(self.top, "started_already")

    def race_now(self) -> Race:
        """The race that is open (`race_is_open` refused the event otherwise)."""
        return noted(self.race, "race_is_open")

    def not_started_yet(self, move: StartMove) -> None:
        if self.started:
            raise Rejection("already-started")

    def start_card_plain(self, move: StartMove) -> None:
        """AO-R2: a special or wild side is turned over to its plain back before it is scanned."""
        if not move.face.plain:
            raise Rejection("start-not-plain", card=move.card.face)

    @rule("AO-R2")
    def lay_start_card(self, move: StartMove) -> None:
        """The start card opens the discard pile (no effect); the first player is on turn."""
        self.started = True
        self.lay(move.card, move.face)
        self.draw_pile -= 1
        self.turn = self.first

    # --- `play`

    def players_seated(self, move: PlayMove) -> None:
        """Step 5: the player, then `from`."""
        if move.player not in self.seats:
            raise Rejection("unknown-player", player=move.player)
        if move.source is not None and move.source not in self.seats:
            raise Rejection("unknown-player", player=move.source)

    def cards_known(self, move: PlayMove) -> None:
        """Step 6: every code is a card of the deck (`unknown-card`)."""
        self.note_card(move)
        for code in (move.codes or ())[1:]:
            self.card(code)

    def one_card_only(self, move: PlayMove) -> None:
        """Step 7, AO-R5: one card per play."""
        if move.codes is not None and len(move.codes) > 1:
            raise Rejection("one-card-only")

    @rule("AO-R6")
    def source_may_give(self, move: PlayMove) -> None:
        """Another player's card: not after a draw (AO-R7), not the actor's own, never a last card."""
        source = move.source
        if source is not None:
            if self.drawn:
                raise Rejection("drawn-card-only")
            if source == move.player:
                raise Rejection("bad-source")
            if self.hands[source] < 2:
                raise Rejection("last-card-protected", source=source)

    def penalty_continued(self, move: PlayMove) -> None:
        """AO-R10, AO-R11: a pending chain takes only its alternate sign, a pending PLUS only PLUS."""
        if self.chain is not None:
            want = ALTERNATE[self.top_side().sign]
            if move.face.sign != want:
                raise Rejection("penalty-pending", player=move.player, sign=want)
        elif self.plus and move.face.sign != PLUS:
            raise Rejection("penalty-pending", "penalty-pending.plus", player=move.player, plus=self.plus)

    @rule("AO-R9")
    def alternates(self, move: PlayMove) -> None:
        """Never ANNA directly on ANNA, nor OTTO on OTTO (no penalty pending)."""
        if self.chain is None and not self.plus and breaks_alternation(move.face, self.top_side()):
            raise Rejection("must-alternate", card=move.card.face, top=self.top_side().face)

    @rule("AO-R5")
    def matches(self, move: PlayMove) -> None:
        """Same colour or pattern, the same sign, ANNAOTTO on anything; after ANNAOTTO its chosen colour."""
        top = self.top_side()
        if self.chain is None and not self.plus and not side_fits(move.face, top, self.colour, self.pattern):
            if top.wild:
                raise Rejection("no-match", "no-match.wild", colour=self.colour)
            raise Rejection("no-match", card=move.card.face, top=top.face)

    def begin_move(self, move: Any) -> None:
        """Every accepted play, draw and confirm first clears `flip` and `due`: a missed call lapses (AO-R17)."""
        self.flip = None
        self.due = None
        self.last_race = None

    @rule("AO-R4")
    def lay_card(self, move: PlayMove) -> None:
        """The card leaves its hand (the actor's, or `from`'s) for the discard pile."""
        self.lay(move.card, move.face)
        self.drawn = False
        self.hands[move.source or move.player] -= 1

    @rule("AO-R16")
    def owe_call(self, move: PlayMove) -> None:
        """An own-hand play leaving one card owes ANNA, leaving none owes OTTO (and the player is out)."""
        if move.source is None:
            left = self.hands[move.player]
            if left == 1:
                self.due = (move.player, ANNA)
            elif left == 0:
                self.due = (move.player, OTTO)
                self.out.append(move.player)

    @rule("AO-R18")
    def deciding_play_or_effect(self, move: PlayMove) -> None:
        """After the deciding play (one player left holding cards) the end is pending; else the card acts."""
        if move.source is None and not self.hands[move.player] and len(self.seats.holders(self.hands)) == 1:
            self.pending = (move.player, move.face, self.chain, self.chain_by, self.plus)
            self.chain = None
            self.chain_by = None
            self.plus = 0
            self.turn = None
        else:
            self.card_effect(move.player, move.face)

    def card_effect(self, player: str, side: Side) -> None:
        """AO-R8 … AO-R15: where the turn goes and what the next player faces."""
        sign = side.sign
        if sign is None:
            if side.wild:
                self.owe_choices(player)
            else:
                self.pass_turn(player)
        elif sign in ALTERNATE:
            self.extend_chain(player, sign)
        elif sign == PLUS:
            self.add_plus(player)
        elif sign == RETOUR:
            self.reverse(player)
        elif sign == HUERDEN:
            self.skip(player)
        else:
            self.open_race(player)

    @rule("AO-R8")
    def pass_turn(self, player: str) -> None:
        """The turn passes one step in `direction` to the next player who holds cards."""
        self.turn = self.seats.next_holder(player, self.hands, self.direction) or player

    def next_holder(self, player: str) -> str:
        return self.seats.next_holder(player, self.hands, self.direction) or player

    @rule("AO-R10")
    def extend_chain(self, player: str, sign: str) -> None:
        """Each ANNA or OTTO opens or extends a chain the next player continues or pays for."""
        if self.chain is None:
            self.chain = [0, 0]
        self.chain[sign == OTTO] += 1
        self.chain_by = player
        self.pass_turn(player)

    @rule("AO-R11")
    def add_plus(self, player: str) -> None:
        """PLUS: the next player takes one card more, or lays another PLUS."""
        self.plus += 1
        self.pass_turn(player)

    @rule("AO-R12")
    def reverse(self, player: str) -> None:
        """RETOUR: the direction turns; the next player is the one in the new direction."""
        self.direction = -self.direction
        self.pass_turn(player)

    @rule("AO-R13")
    def skip(self, player: str) -> None:
        """HUERDEN: the next player holding cards is skipped."""
        self.pass_turn(self.next_holder(player))

    @rule("AO-R14")
    def owe_choices(self, player: str) -> None:
        """ANNAOTTO: the layer owes the colour and the flip choice, and stays on turn until both are made."""
        self.choices = ["colour", "flip"]
        self.layer = player
        self.colour = None
        self.turn = player

    @rule("AO-R15a")
    def open_race(self, player: str) -> None:
        """ALLE: a race opens among everyone holding cards now; nobody is on turn."""
        self.race = Race(player, tuple(self.seats.holders(self.hands)))
        self.turn = None

    # --- `draw`

    def no_penalty_pending(self, move: DrawMove) -> None:
        """Step 16: no draw while a chain or PLUS is pending (AO-R10, AO-R11)."""
        if self.plus:
            raise Rejection("penalty-pending", "penalty-pending.plus", player=move.player, plus=self.plus)
        if self.chain is not None:
            raise Rejection("penalty-pending", player=move.player, sign=ALTERNATE[self.top_side().sign])

    def not_drawn_yet(self, move: DrawMove) -> None:
        if self.drawn:
            raise Rejection("already-drawn", player=move.player)

    def one_card_drawn(self, move: DrawMove) -> None:
        if move.count != 1:
            raise Rejection("bad-draw-count")

    def cards_to_draw(self, move: DrawMove) -> None:
        """AO-R19: a voluntary draw needs a card on the draw pile or under the discard pile's top."""
        if not self.draw_pile and self.pile < 2:
            raise Rejection("no-cards-to-draw")

    @rule("AO-R7")
    def draw_one(self, move: DrawMove) -> None:
        """The player takes one card and stays on turn: play it at once, or keep it with confirm."""
        self.take(move.player, 1)
        self.drawn = True

    # --- `press` with `confirm`

    def something_to_confirm(self, move: PressMove) -> None:
        """Step 15: a pending chain or PLUS, or a drawn card to keep."""
        if self.chain is None and not self.plus and not self.drawn:
            raise Rejection("nothing-to-confirm")

    def confirm(self, move: PressMove) -> None:
        """Pay the chain (AO-R10) or PLUS (AO-R11) and stay on turn, or keep the drawn card (AO-R7)."""
        player = move.player
        if self.chain is not None:
            anna, otto = self.chain
            self.take(player, 2 * otto)
            if anna:
                self.flip = Flip(noted(self.chain_by, "the chain's first card"), player, 2 * anna)
            self.chain = None
            self.chain_by = None
        elif self.plus:
            self.take(player, self.plus)
            self.plus = 0
        else:
            self.drawn = False
            self.pass_turn(player)

    # --- `press` with `slap`, `race_close`, `call`, `catch`

    def race_is_open(self, move: Any) -> None:
        """Step 11: a slap or `race_close` needs an open race."""
        if self.race is None:
            raise Rejection("no-race")

    def in_race(self, move: PressMove) -> None:
        if move.player not in self.race_now().participants:
            raise Rejection("not-in-race", player=move.player)

    def not_pressed_yet(self, move: PressMove) -> None:
        if move.player in self.race_now().pressed:
            raise Rejection("already-pressed", player=move.player)

    @rule("AO-R15b")
    def slap(self, move: PressMove) -> None:
        """Each participant slaps once; the last participant's slap closes the race."""
        race = self.race_now()
        race.pressed[move.player] = noted(move.t_us, "PressMove.read (a slap has its t_us)")
        if len(race.pressed) == len(race.participants):
            self.close_race(all_pressed=True)

    def time_out(self, move: CloseMove) -> None:
        """The kiosk's `race_close` after `race_timeout_ms`."""
        self.close_race(all_pressed=False)

    @rule("AO-R15d")
    def close_race(self, all_pressed: bool) -> None:
        """The race closes (last slap or timeout): the losers take their cards, then the player after the layer."""
        race = self.race_now()
        losers = self.race_losers(race, all_pressed)
        for loser in losers:
            self.take(loser, RACE_PENALTY)
        self.race = None
        self.last_race = race.view(losers)
        self.pass_turn(race.by)

    @rule("AO-R15e")
    def race_losers(self, race: Race, all_pressed: bool) -> tuple[str, ...]:
        """Without the ALLE call the layer; else the largest `t_us` (ties all), or whoever did not slap."""
        if not race.called:
            return (race.by,)
        if all_pressed:
            slowest = max(race.pressed.values())
            return tuple(p for p in race.participants if race.pressed[p] == slowest)
        return tuple(p for p in race.participants if p not in race.pressed)

    def call_owed(self, move: CallMove) -> None:
        """Step 11: the ALLE layer's call while their race is open and uncalled, or the owed ANNA/OTTO."""
        if move.word == ALLE:
            race = self.race
            if race is None or race.by != move.player or race.called:
                raise Rejection("no-call-due", player=move.player, word=move.word)
        elif self.due != (move.player, move.word):
            raise Rejection("no-call-due", player=move.player, word=move.word)

    def call(self, move: CallMove) -> None:
        """ALLE marks the race called (AO-R15c); ANNA/OTTO meets the call (the deciding OTTO ends the game)."""
        if move.word == ALLE:
            self.call_alle()
        else:
            self.due = None
            if self.pending is not None:
                self.finish()

    @rule("AO-R15c")
    def call_alle(self) -> None:
        self.race_now().called = True

    def target_seated(self, move: CatchMove) -> None:
        if move.target not in self.seats:
            raise Rejection("unknown-player", player=move.target)

    def catchable(self, move: CatchMove) -> None:
        """Step 11: the target owes a call, and it is somebody else who catches them."""
        if self.due is None or self.due[0] != move.target or move.player == move.target:
            raise Rejection("nothing-to-catch", target=move.target)

    @rule("AO-R17")
    def catch(self, move: CatchMove) -> None:
        """The target takes 1 card for the missed call; a caught deciding play takes effect after all."""
        self.due = None
        got = self.take(move.target, 1)
        pending = self.pending
        if pending is not None:
            if not got:
                self.finish()
                return
            self.pending = None
            player, side, self.chain, self.chain_by, self.plus = pending
            self.card_effect(player, side)

    # --- `choose_colour`, `flip_choice`

    def colour_owed(self, move: ChoiceMove) -> None:
        if "colour" not in self.choices:
            raise Rejection("no-choice-pending")

    def known_colour(self, move: ChoiceMove) -> None:
        if move.value not in COLOURS:
            raise Rejection("bad-colour", colour=move.value)

    def flip_owed(self, move: ChoiceMove) -> None:
        if "flip" not in self.choices:
            raise Rejection("no-choice-pending")

    def choose_colour(self, move: ChoiceMove) -> None:
        """AO-R14: the colour the next card must show."""
        self.colour = move.value
        self.chosen("colour")

    def choose_flip(self, move: ChoiceMove) -> None:
        """AO-R14: the layer or the next player turns over all hand cards."""
        target = move.player if move.value == "self" else self.next_holder(move.player)
        self.flip = Flip(move.player, target, "all")
        self.chosen("flip")

    def chosen(self, choice: str) -> None:
        """After the last owed choice the turn passes (AO-R8)."""
        self.choices.remove(choice)
        if not self.choices:
            self.pass_turn(noted(self.layer, "the ANNAOTTO card that owes the choices"))
            self.layer = None

    # --- shared mutations

    def lay(self, card: Card, side: Side) -> None:
        self.tally.add(card)
        self.pile += 1
        self.top = side
        self.top_card = card
        self.colour = side.colour
        self.pattern = side.pattern

    @rule("AO-R19")
    def take(self, player: str, count: int) -> int:
        """Take `count` cards from the draw pile, reshuffling all but the top once when it runs dry."""
        got = min(count, self.draw_pile)
        self.draw_pile -= got
        if got < count and self.pile > 1:
            self.draw_pile += self.pile - 1
            self.pile = 1
            self.tally.clear()
            self.tally.add(noted(self.top_card, "the start card"))
            more = min(count - got, self.draw_pile)
            self.draw_pile -= more
            got += more
        if got:
            if not self.hands[player] and player in self.out:  # back in the game (AO-R18)
                self.out.remove(player)
            self.hands[player] += got
        return got

    def finish(self) -> None:
        """AO-R18: the end; the first player out wins."""
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

    rules: ClassVar[Mapping[str, On]] = {
        "start": On(StartMove.read, checks=(Game.note_card, not_started_yet, CARD_LEFT, start_card_plain),
                    effects=(lay_start_card,)),
        "play": On(PlayMove.read,
                   checks=(players_seated, cards_known, one_card_only, started_already, CARD_LEFT, acting_now,
                           no_choice_owed, source_may_give, penalty_continued, alternates, matches),
                   effects=(begin_move, lay_card, owe_call, deciding_play_or_effect)),
        "draw": On(DrawMove.read,
                   checks=(SEATED, started_already, acting_now, no_choice_owed, no_penalty_pending,
                           not_drawn_yet, one_card_drawn, cards_to_draw),
                   effects=(begin_move, draw_one)),
        "press:confirm": On(PressMove.read,
                            checks=(SEATED, started_already, acting_now, no_choice_owed,
                                    something_to_confirm),
                            effects=(begin_move, confirm)),
        "press:slap": On(PressMove.read, checks=(SEATED, started_already, race_is_open, in_race,
                                                 not_pressed_yet), effects=(slap,)),
        "call": On(CallMove.read, checks=(SEATED, started_already, call_owed), effects=(call,)),
        "catch": On(CatchMove.read, checks=(SEATED, target_seated, started_already, catchable),
                    effects=(catch,)),
        "choose_colour": On(ChoiceMove.read_colour, checks=(SEATED, started_already, acting_now,
                                                            colour_owed, known_colour), effects=(choose_colour,)),
        "flip_choice": On(ChoiceMove.read_flip, checks=(SEATED, started_already, acting_now, flip_owed),
                          effects=(choose_flip,)),
        "race_close": On(CloseMove.read, checks=(started_already, race_is_open), effects=(time_out,)),
    }

    # --- reading

    def scores(self) -> dict[str, int]:
        """Finishing places in seat order: 1 for the first out …; the last place once finished, else 0."""
        scores = dict.fromkeys(self.players, len(self.players) if self.finished else 0)
        for place, player in enumerate(self.out, 1):
            scores[player] = place
        return scores

    def public_state(self) -> AnnaottoState:
        race = self.race
        return AnnaottoState(
            turn=self.turn,
            finished=self.finished,
            scores=self.scores(),
            winners=list(self.winners),
            top=None if self.top is None else self.top.face,
            colour=self.colour,
            pattern=self.pattern,
            pile=self.pile,
            draw_pile=self.draw_pile,
            hands=dict(self.hands),
            direction=self.direction,
            chain=None if self.chain is None else Chain(*self.chain),
            plus=self.plus,
            drawn=self.drawn,
            choices=list(self.choices),  # owed in this order: colour, then flip (AO-R14)
            race=None if race is None else RaceState(race.by, race.called, dict(race.pressed)),
            due=None if self.due is None else Due(*self.due),
            flip=self.flip,
            out=list(self.out),
        )

    def hints(self) -> Hints:
        return annaotto_hints(self)

    def card_places(self) -> dict[str, int]:
        """Counted in sides (two per physical card), so they add up to `deck.size`."""
        return {"hands": 2 * sum(self.hands.values()), "draw_pile": 2 * self.draw_pile, "pile": 2 * self.pile}

