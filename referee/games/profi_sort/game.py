"""Profi-Sort's match state and rules table: per event type the checks in §17's order, each a small method
carrying its rule id, then the effects."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from referee.answers import Rejection
from referee.cards import Card, CardTally, Deck
from referee.decks.profi_sort import (
    ALL_TASKS,
    BONUS_TOTAL,
    NO_JOKER_BONUS,
    NO_JOKER_TASKS,
    PAIR_BONUS,
    PAIR_OF,
    REPEAT,
    TASK_BY_ID,
    TASK_IDS,
    Face,
)
from referee.games import register
from referee.games.profi_sort.basics import ACE_POINTS, HAND, OVER, PHASE_OF, PLAY, ROUND_OVER, SCORING, deck
from referee.games.profi_sort.hints import MeldState, ProfiSortHints, ProfiSortState
from referee.games.profi_sort.moves import Draw, Extend, GiveAce, LayTask, Move, Options, parse_options
from referee.games.profi_sort.tasks import Meld, add, fits, lay_groups
from referee.hints import FinishedHints, Hints
from referee.protocol import Game
from referee.rules import On, noted, of_field, rule


@register
class ProfiSort(Game):
    game_id = "profi-sort"
    title = "Profi-Sort"
    player_counts = (2, 3)
    shape_first = True

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        return parse_options(options, cls)

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck: Deck[Face] = deck(options.jokers)
        self.beginner = options.first_to is not None
        self.round = 1
        self.tasks_done: dict[str, list[str]] = {p: [] for p in self.players}
        self.bonus_open = dict.fromkeys(self.players, BONUS_TOTAL if options.bonus else 0)
        self.totals = dict.fromkeys(self.players, 0)  # the sum of round points
        self.winners: list[str] = []
        self.tally = CardTally()  # the cards on the table this round (§16)
        self.deal()

    # --- rounds

    @rule("PS-R3")
    def deal(self) -> None:
        """Ten cards each, the rest is the talon; the table and the discard pile are empty (Decision 29)."""
        self.phase = PLAY
        self.hands = dict.fromkeys(self.players, HAND)
        self.received: dict[str, list[str]] = {p: [] for p in self.players}
        self.ace_given = dict.fromkeys(self.players, False)
        self.talon = self.deck.size - HAND * len(self.players)
        self.pile: list[tuple[str, Card, Face]] = []  # the discard pile, bottom first: code as scanned, card, face
        self.tally.clear()
        self.melds: dict[str, Meld] = {}
        self.laid: set[str] = set()  # players who laid a task this round
        self.went_out: str | None = None
        self.round_points: dict[str, int | None] = dict.fromkeys(self.players)
        self.revealed: set[str] = set()
        self.started = False  # a draw or skip happened this round
        self.drawn = False
        self.must_go_out = False  # task 15 laid in this turn
        self.first_turn()

    @rule("PS-R4")
    def first_turn(self) -> None:
        """The player after the dealer takes the round's first turn."""
        self.turn = self.next_seat(self.dealer)

    @rule("PS-R28")
    def own(self, player: str) -> int:
        """Own cards: the hand count minus the received aces still held."""
        return self.hands[player] - len(self.received[player])

    # --- the checks every event type shares (§17 steps 3 … 7 and 9)

    def target_seated(self, move: GiveAce) -> None:
        """Step 3 for `to`: the receiver is seated."""
        self.seated(move.to)

    def in_phase(self, move: Move) -> None:
        """Step 5: play events in phase `play`, `reveal_hand` in `scoring`, `new_round` in `round-over`."""
        if self.phase != PHASE_OF[move.kind]:
            raise Rejection("wrong-phase", "ps.wrong-phase", event=move.kind, phase=self.phase)

    @rule("PS-R6", "PS-R7")
    def drawn_as_needed(self, move: Move) -> None:
        """Step 7: a turn begins with a draw or a skip; laying, extending, giving and discarding come after the
        draw."""
        starts = move.kind in ("draw", "skip_with_ace")
        if self.drawn == starts:
            if starts:
                raise Rejection("already-drawn", "ps.already-drawn", player=move.player)
            raise Rejection("must-draw-first", "ps.must-draw-first", player=move.player)

    def cards_left(self, move: Move) -> None:
        """Step 9 (§16): the event's cards and the cards on the table hold no face more often than the deck, no
        copy twice; names the first card that is one too many."""
        cards = move.cards
        if not self.tally.fits(cards, self.deck):
            for n in range(1, len(cards) + 1):
                if not self.tally.fits(cards[:n], self.deck):
                    raise Rejection("card-exhausted", card=str(cards[n - 1]))

    @rule("PS-R8", "PS-R27")
    def keeps_own_cards(self, move: Move) -> None:
        """The turn ends with a discard, so laying, extending and giving an ace leave at least one own card; a
        player holding a received ace keeps one more own card, also after the discard."""
        keep = (0 if move.kind == "discard" else 1) + (1 if self.received[move.player] else 0)
        own = self.own(move.player)
        if own - len(move.cards) < keep:
            raise Rejection("must-keep-card", "ps.must-keep-card", player=move.player, need=keep, own=own)

    @rule("PS-R12")
    def can_go_out(self, move: Move) -> None:
        """Task 15 ends with going out in the same turn: a player holding a received ace cannot lay it, and the
        discard of that turn takes the last card."""
        if isinstance(move, LayTask):
            if move.task == REPEAT and self.received[move.player]:
                raise Rejection("must-go-out", "ps.must-go-out.ace", player=move.player)
        elif self.must_go_out and self.hands[move.player] > 1:
            raise Rejection("must-go-out", "ps.must-go-out", player=move.player)

    # --- the event's own checks (§17 step 8)

    def discard_draw_allowed(self, move: Draw) -> None:
        """§14, Decision 28: only in the variant, from a pile that holds cards, never an ace."""
        if not move.from_discard:
            return
        if not self.options.discard_draw:
            raise Rejection("discard-draw-not-allowed", "ps.discard-draw-not-allowed")
        if not self.pile:
            raise Rejection("discard-draw-not-allowed", "ps.discard-draw-not-allowed.empty")
        if self.pile[-1][2].ace:
            raise Rejection("discard-draw-not-allowed", "ps.discard-draw-not-allowed.ace")

    @rule("PS-R26")
    def holds_received_ace(self, move: Move) -> None:
        """Only a received ace skips the turn."""
        if not self.received[move.player]:
            raise Rejection("no-received-ace", "ps.no-received-ace", player=move.player)

    @rule("PS-R24")
    def gives_one_ace(self, move: GiveAce) -> None:
        """An ace, to another player, at most once per round (Decision 2)."""
        if move.to == move.player:
            raise Rejection("bad-target", "ps.bad-target", player=move.player)
        if not move.faces[0].ace:
            raise Rejection("not-an-ace", "ps.not-an-ace", card=move.codes[0])
        if self.ace_given[move.player]:
            raise Rejection("ace-already-given", "ps.ace-already-given", player=move.player)

    def task_known(self, move: LayTask) -> None:
        """`task` is a task of the sheet; for task 15, `as` is one of tasks 1 … 14, whose rules apply."""
        if move.task not in TASK_IDS:
            raise Rejection("unknown-task", "ps.unknown-task", task=move.task)
        rules_id = move.task if move.as_task is None else move.as_task
        if rules_id not in TASK_BY_ID:
            raise Rejection("unknown-task", "ps.unknown-task.as", task=rules_id)
        move.rules = TASK_BY_ID[rules_id]

    @rule("PS-R38")
    def task_not_done(self, move: LayTask) -> None:
        """A player lays each task once in the match (task 15 may repeat the groups of any other)."""
        if move.task in self.tasks_done[move.player]:
            raise Rejection("task-done", "ps.task-done", player=move.player, task=move.task)

    def shape_matches(self, move: LayTask) -> None:
        """§4 (Decision 13): exactly the task's number of groups and group sizes, in any order."""
        task = noted(move.rules, "task_known")
        sizes = tuple(sorted(len(group) for group in move.groups))
        if sizes != task.sizes:
            need = "+".join(str(s) for s in task.sizes)
            got = "+".join(str(s) for s in sizes) or "0"
            raise Rejection("wrong-shape", "ps.wrong-shape", task=task.id, need=need, got=got)

    @rule("PS-R23")
    def no_ace(self, move: Move) -> None:
        """Aces belong to no task and to no meld."""
        for face in move.faces:
            if face.ace:
                raise Rejection("ace-not-allowed", "ps.ace-not-allowed", card=face.name)

    @rule("PS-R20")
    def jokers_allowed(self, move: LayTask | Extend) -> None:
        """No joker in a No-J task, at laying or by extension, by anyone."""
        task = noted(move.rules, "task_known / meld_known")
        if not task.jokers and any(face.joker for face in move.faces):
            raise Rejection("joker-not-allowed", "ps.joker-not-allowed", task=task.id)

    @rule("PS-R19")
    def no_lone_joker(self, move: LayTask) -> None:
        """Every group of a laying holds a natural card (Decision 17)."""
        for group in move.group_faces():
            if all(face.joker for face in group):
                raise Rejection("joker-alone", "ps.joker-alone", cards=" ".join(f.name for f in group))

    def task_met(self, move: LayTask) -> None:
        """§4, §5: the groups fulfil the task (ranks, suits, runs, different ranks, forms); notes the melds."""
        move.melds = lay_groups(noted(move.rules, "task_known"), move.player, move.group_faces(), move.groups)

    def meld_known(self, move: Extend) -> None:
        """The meld is on the table this round; its task's rules apply to the extension."""
        meld = self.melds.get(move.meld_id)
        if meld is None:
            raise Rejection("unknown-meld", "ps.unknown-meld", meld=move.meld_id)
        move.meld = meld
        move.rules = TASK_BY_ID[meld.task]

    @rule("PS-R14")
    def laid_down(self, move: Extend) -> None:
        """A player extends only after laying a task in the current round (Decision 16)."""
        if move.player not in self.laid:
            raise Rejection("not-laid-down", "ps.not-laid-down", player=move.player)

    def fits_meld(self, move: Extend) -> None:
        """§6: the cards fit the meld's kind; notes the run end they go to."""
        move.side = fits(move.meld_id, noted(move.meld, "meld_known"), move.faces, move.at)

    @rule("PS-R30")
    def reveals_own_cards(self, move: Move) -> None:
        """Each player who still holds cards shows them once, exactly their own cards (received aces are known)."""
        if move.player in self.revealed:
            raise Rejection("already-revealed", "ps.already-revealed", player=move.player)
        own = self.own(move.player)
        if len(move.cards) != own:
            raise Rejection("wrong-card-count", "ps.wrong-card-count", player=move.player, own=own, got=len(move.cards))

    @rule("PS-R5")
    def redeal_allowed(self, move: Move) -> None:
        """Before the round's first draw or skip, a player showing at least 3 aces may demand a new deal."""
        if self.started:
            raise Rejection("redeal-not-allowed", "ps.redeal-not-allowed.late", player=move.player)
        if len(move.cards) < 3 or not all(face.ace for face in move.faces):
            raise Rejection("redeal-not-allowed", "ps.redeal-not-allowed", player=move.player)

    # --- the effects, after every check passed

    def draw(self, move: Draw) -> None:
        """The top card of the talon, or of the discard pile in the variant (it leaves the table, §16)."""
        if move.from_discard:
            self.tally.remove(self.pile.pop()[1])
        else:
            self.talon -= 1
        self.hands[move.player] += 1
        self.drawn = True
        self.started = True

    @rule("PS-R9")
    def skip(self, move: Move) -> None:
        """The skip is the whole turn: the earliest received ace goes on the discard pile (it stays on the table),
        and the turn passes."""
        code = self.received[move.player].pop(0)
        card, face = self.deck.lookup(code)
        self.pile.append((code, card, face))
        self.hands[move.player] -= 1
        self.started = True
        self.turn = self.next_seat(move.player)

    @rule("PS-R25")
    def give_ace(self, move: GiveAce) -> None:
        """The ace goes in front of the receiver: it counts in their hand until a skip or the round's end (15
        points then); the giver plays on with one card less."""
        self.tally.add(move.cards[0])
        self.hands[move.player] -= 1
        self.hands[move.to] += 1
        self.received[move.to].append(move.codes[0])
        self.ace_given[move.player] = True

    def lay_melds(self, move: LayTask) -> None:
        """Each group becomes a meld `m1`, `m2` … in the order of `groups`; the cards leave the hand."""
        for card in move.cards:
            self.tally.add(card)
        for meld in move.melds:
            self.melds[f"m{len(self.melds) + 1}"] = meld
        self.hands[move.player] -= len(move.cards)
        self.laid.add(move.player)

    @rule("PS-R11", "PS-R13")
    def complete_task(self, move: LayTask) -> None:
        """The laying completes exactly the task it names, for the rest of the match; after task 15 the turn's
        discard must take the last card."""
        self.tasks_done[move.player].append(move.task)
        if move.task == REPEAT:
            self.must_go_out = True

    @rule("PS-R22")
    def strike_joker_bonus(self, move: LayTask) -> None:
        """A task that allows jokers, laid under its own id without any, strikes its no-joker bonus (§11)."""
        if self.options.bonus and move.task in NO_JOKER_TASKS and not any(face.joker for face in move.faces):
            self.bonus_open[move.player] -= NO_JOKER_BONUS

    def strike_pair_bonus(self, move: LayTask) -> None:
        """§11: the pair bonus is struck once the player has done both tasks of its pair."""
        pair = PAIR_OF.get(move.task)
        if self.options.bonus and pair is not None and all(t in self.tasks_done[move.player] for t in pair):
            self.bonus_open[move.player] -= PAIR_BONUS

    def first_to_wins(self, move: LayTask) -> None:
        """§14, the beginner game: the first player to complete `first_to` tasks wins at once."""
        first_to = self.options.first_to
        if first_to is not None and len(self.tasks_done[move.player]) >= first_to:
            self.winners = [move.player]
            self.finish()

    @rule("PS-R15")
    def extend_meld(self, move: Extend) -> None:
        """The cards join the meld (at the run end that fits, PS-R17) and leave the hand; no task is completed."""
        for card in move.cards:
            self.tally.add(card)
        add(noted(move.meld, "meld_known"), move.faces, move.codes, move.side)
        self.hands[move.player] -= len(move.cards)

    def discard(self, move: Move) -> None:
        """The card goes face up on the discard pile; the turn is over."""
        self.tally.add(move.cards[0])
        self.pile.append((move.codes[0], move.cards[0], move.faces[0]))
        self.hands[move.player] -= 1
        self.drawn = False
        self.must_go_out = False

    @rule("PS-R10")
    def after_discard(self, move: Move) -> None:
        """The player with no card left has gone out and the round ends; else an empty talon ends it (Decision
        24); else the next player's turn begins."""
        if not self.hands[move.player]:
            self.went_out = move.player
            self.end_round()
        elif not self.talon:
            self.end_round()
        else:
            self.turn = self.next_seat(move.player)

    @rule("PS-R29")
    def end_round(self) -> None:
        """The round ends: the others show their hands; who went out scores 0 (the beginner game skips scoring,
        §14)."""
        self.turn = None
        if self.beginner:
            self.phase = ROUND_OVER
            return
        self.phase = SCORING
        if self.went_out is not None:
            self.round_points[self.went_out] = 0
            self.revealed.add(self.went_out)

    def score_hand(self, move: Move) -> None:
        """§10: the shown cards go on the table and count their points, each received ace 15."""
        for card in move.cards:
            self.tally.add(card)
        points = sum(face.points for face in move.faces) + ACE_POINTS * len(self.received[move.player])
        self.round_points[move.player] = points
        self.revealed.add(move.player)
        if len(self.revealed) == len(self.players):
            self.close_round()

    @rule("PS-R31")
    def close_round(self) -> None:
        """When all have shown their hands, the round's points are added to the totals; then the match ends or
        the next round waits for `new_round`."""
        for p in self.players:
            self.totals[p] += self.round_points[p] or 0
        if self.match_over():
            self.final_scores()
        else:
            self.phase = ROUND_OVER

    @rule("PS-R32")
    def match_over(self) -> bool:
        """The full game ends after scoring the round in which a player completed all 15 tasks (Decision 23)."""
        return any(len(done) == ALL_TASKS for done in self.tasks_done.values())

    @rule("PS-R33")
    def final_scores(self) -> None:
        """The open bonus points are added; the lowest scores win."""
        for p in self.players:
            self.totals[p] += self.bonus_open[p]
        self.winners = self.winners_by(self.totals, best="min")
        self.finish()

    def redeal(self, move: Move) -> None:
        """The same dealer deals the round again (the shown aces were never put on the table)."""
        self.deal()

    @rule("PS-R2")
    def next_round(self, move: Move) -> None:
        """The next round: the deal passes clockwise, and the round is dealt."""
        self.round += 1
        self.dealer = self.next_seat(self.dealer)
        self.deal()

    def finish(self) -> None:
        self.finished = True
        self.turn = None
        self.drawn = False
        self.phase = OVER

    SEATED, ON_TURN = of_field("player", Game.seated), of_field("player", Game.turn_is)
    TURN_START = (SEATED, in_phase, ON_TURN, drawn_as_needed)
    AFTER_DRAW = (in_phase, ON_TURN, drawn_as_needed)
    rules: ClassVar[Mapping[str, On]] = {
        "draw": On(Draw.read, checks=(*TURN_START, discard_draw_allowed), effects=(draw,)),
        "skip_with_ace": On(Move.read_skip, checks=(*TURN_START, holds_received_ace), effects=(skip,)),
        "give_ace": On(
            GiveAce.read,
            checks=(SEATED, target_seated, Game.note_cards, *AFTER_DRAW, gives_one_ace, keeps_own_cards, cards_left),
            effects=(give_ace,),
        ),
        "lay_task": On(
            LayTask.read,
            checks=(SEATED, Game.note_cards, *AFTER_DRAW, task_known, task_not_done, shape_matches, no_ace,
                    jokers_allowed, no_lone_joker, task_met, keeps_own_cards, can_go_out, cards_left),
            effects=(lay_melds, complete_task, strike_joker_bonus, strike_pair_bonus, first_to_wins),
        ),
        "extend": On(
            Extend.read,
            checks=(SEATED, Game.note_cards, *AFTER_DRAW, meld_known, laid_down, no_ace, jokers_allowed, fits_meld,
                    keeps_own_cards, cards_left),
            effects=(extend_meld,),
        ),
        "discard": On(
            Move.read_discard,
            checks=(SEATED, Game.note_cards, *AFTER_DRAW, keeps_own_cards, can_go_out, cards_left),
            effects=(discard, after_discard),
        ),
        "reveal_hand": On(
            Move.read_shown,
            checks=(SEATED, Game.note_cards, in_phase, reveals_own_cards, cards_left),
            effects=(score_hand,),
        ),
        "redeal": On(
            Move.read_shown, checks=(SEATED, Game.note_cards, in_phase, redeal_allowed, cards_left), effects=(redeal,)
        ),
        "new_round": On(Move.read_new_round, checks=(in_phase,), effects=(next_round,)),
    }

    # --- reading

    def scores(self) -> dict[str, int]:
        if self.beginner:
            return dict.fromkeys(self.players, 0)
        return dict(self.totals)

    def public_state(self) -> ProfiSortState:
        return ProfiSortState(
            turn=self.turn,
            finished=self.finished,
            scores=self.scores(),
            winners=list(self.winners),
            round=self.round,
            dealer=self.dealer,
            phase=self.phase,
            drawn=self.drawn,
            hands=dict(self.hands),
            received={p: list(r) for p, r in self.received.items()},
            ace_given=dict(self.ace_given),
            talon=self.talon,
            discard_top=self.pile[-1][0] if self.pile else None,
            melds={mid: MeldState(m.player, m.task, list(m.cards)) for mid, m in self.melds.items()},
            tasks_done={p: list(t) for p, t in self.tasks_done.items()},
            went_out=self.went_out,
            round_points=dict(self.round_points),
            bonus_open=dict(self.bonus_open),
        )

    def public(self) -> dict[str, Any]:
        return self.public_state().to_json()
    def hints(self) -> Hints:
        """Phase `play`: the player on turn and what the turn allows now; `scoring`: the players still to reveal;
        `round-over`: nobody, the operator starts the next round."""
        player = self.turn
        detail = self._hint_detail(player)
        if self.finished:
            return Hints(self.game_id, (), (), FinishedHints(tuple(self.winners), detail))
        if self.phase == SCORING:
            return Hints(self.game_id, detail.to_reveal, ("reveal_hand",), detail)
        if self.phase == ROUND_OVER:
            return Hints(self.game_id, (), ("new_round",), detail)
        return Hints(self.game_id, self.turn_actors(), self._turn_events(detail), detail)

    @staticmethod
    def _turn_events(detail: ProfiSortHints) -> tuple[str, ...]:
        """The event types the turn allows now (a redeal may come from any player, PS-R5)."""
        if not detail.drawn:
            offered = {"draw": True, "skip_with_ace": detail.may_skip, "redeal": detail.may_redeal}
        else:
            offered = {"lay_task": True, "extend": detail.may_extend, "give_ace": detail.may_give_ace,
                       "discard": True}
        return tuple(kind for kind, allowed in offered.items() if allowed)

    def _hint_detail(self, player: str | None) -> ProfiSortHints:
        """The structured hint for `player` (the player on turn, if any)."""
        received = bool(player and self.received[player])
        return ProfiSortHints(
            phase=self.phase,
            player=player,
            drawn=self.drawn,
            own=self.own(player) if player else 0,
            keep=2 if received else 1,
            tasks_open=tuple(t for t in TASK_IDS if player and t not in self.tasks_done[player]),
            may_extend=player in self.laid,
            may_skip=received and not self.drawn,
            may_give_ace=self.drawn and player is not None and not self.ace_given[player],
            must_go_out=self.must_go_out,
            may_redeal=self.phase == PLAY and not self.started,
            to_reveal=tuple(p for p in self.players if self.phase == SCORING and p not in self.revealed),
            round=self.round,
        )

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "talon": self.talon,
            "melds": sum(len(m.cards) for m in self.melds.values()),
            "discard": len(self.pile),
        }

