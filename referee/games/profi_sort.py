"""Profi-Sort (`../shared/rules/profi-sort.md`): a Rommé match over a sheet of 15 tasks.

The referee keeps every player's task sheet for the whole match, the hand
counts of the round, the melds on the table and the cards on the table (for
`card-exhausted`). Tasks are checked by the data-driven matcher in
`profi_sort_tasks`; every event is checked in the order of §17 before anything
changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee import messages
from referee.cards import Card, CardTally, Deck
from referee.decks.profi_sort import (
    ALL_TASKS,
    BONUS_TOTAL,
    DEFAULT_JOKERS,
    MAX_JOKERS,
    NO_JOKER_BONUS,
    NO_JOKER_TASKS,
    PAIR_BONUS,
    PAIR_OF,
    REPEAT,
    TASK_BY_ID,
    TASK_IDS,
    Face,
    faces,
)
from referee.games import register
from referee.games.profi_sort_tasks import Meld, add, fits, lay_groups
from referee.protocol import Game, HeaderError, Rejection, forbid, is_int, known_options, need_str, need_str_list

HAND = 10
ACE_POINTS = 15

messages.register({
    "ps.wrong-phase": (
        "{event} is not possible now (phase {phase}).",
        "{event} ist jetzt nicht möglich (Phase {phase}).",
    ),
    "ps.must-draw-first": (
        "{player} must draw first (or skip with a received ace) (PS-R6).",
        "{player} muss zuerst ziehen (oder mit einem erhaltenen Ass aussetzen) (PS-R6).",
    ),
    "ps.already-drawn": (
        "{player} has already drawn in this turn (PS-R6).",
        "{player} hat in diesem Zug schon gezogen (PS-R6).",
    ),
    "ps.discard-draw-not-allowed": (
        "Drawing from the discard pile is only allowed in the variant discard_draw (PS-R6).",
        "Vom Ablagestapel ziehen ist nur in der Variante discard_draw erlaubt (PS-R6).",
    ),
    "ps.discard-draw-not-allowed.empty": (
        "The discard pile is empty: there is nothing to draw from it (§14).",
        "Der Ablagestapel ist leer: dort kann nicht gezogen werden (§14).",
    ),
    "ps.discard-draw-not-allowed.ace": (
        "An ace can never be taken from the discard pile (§14).",
        "Ein Ass darf nie vom Ablagestapel genommen werden (§14).",
    ),
    "ps.no-received-ace": (
        "{player} holds no received ace to skip with (PS-R26).",
        "{player} hat kein erhaltenes Ass zum Aussetzen (PS-R26).",
    ),
    "ps.bad-target": (
        "{player} cannot give an ace to themselves (PS-R24).",
        "{player} kann sich nicht selbst ein Ass geben (PS-R24).",
    ),
    "ps.not-an-ace": ("{card} is not an ace (PS-R24).", "{card} ist kein Ass (PS-R24)."),
    "ps.ace-already-given": (
        "{player} has already given an ace in this round (PS-R24).",
        "{player} hat in dieser Runde schon ein Ass gegeben (PS-R24).",
    ),
    "ps.must-keep-card": (
        "{player} must keep at least {need} own card(s) after this; {player} holds {own} (PS-R8, PS-R27).",
        "{player} muss danach mindestens {need} eigene Karte(n) behalten; {player} hat {own} (PS-R8, PS-R27).",
    ),
    "ps.unknown-task": ("{task} is not a task of the sheet.", "{task} ist keine Aufgabe des Spielplans."),
    "ps.unknown-task.as": (
        "{task} is not one of tasks 1 to 14, which task 15 may repeat (PS-R12).",
        "{task} ist keine der Aufgaben 1 bis 14, die Aufgabe 15 wiederholen kann (PS-R12).",
    ),
    "ps.task-done": (
        "{player} has already completed {task} in this match (PS-R38).",
        "{player} hat {task} in diesem Spiel schon erfüllt (PS-R38).",
    ),
    "ps.wrong-shape": (
        "{task} is laid as groups of {need} cards, not {got} (§4).",
        "{task} wird in Gruppen von {need} Karten gelegt, nicht {got} (§4).",
    ),
    "ps.ace-not-allowed": (
        "{card} is an ace: aces belong to no task and no meld (PS-R23).",
        "{card} ist ein Ass: Asse gehören zu keiner Aufgabe und keiner Auslage (PS-R23).",
    ),
    "ps.joker-not-allowed": (
        "{task} allows no joker (No J, PS-R20).",
        "{task} erlaubt keinen Joker (ohne J, PS-R20).",
    ),
    "ps.joker-alone": (
        "A joker is never laid alone: the group {cards} has no natural card (PS-R19).",
        "Ein Joker wird nie allein gelegt: der Gruppe {cards} fehlt eine echte Karte (PS-R19).",
    ),
    "ps.must-go-out": (
        "{player} laid task 15 and must go out in this turn: the discard must be the last card (PS-R12).",
        "{player} hat Aufgabe 15 gelegt und muss in diesem Zug ausmachen: die Ablage muss die letzte Karte "
        "sein (PS-R12).",
    ),
    "ps.must-go-out.ace": (
        "{player} holds a received ace and so cannot go out: task 15 cannot be laid (PS-R12, PS-R27).",
        "{player} hat ein erhaltenes Ass und kann nicht ausmachen: Aufgabe 15 geht nicht (PS-R12, PS-R27).",
    ),
    "ps.unknown-meld": ("There is no meld {meld} on the table.", "Es liegt keine Auslage {meld} auf dem Tisch."),
    "ps.not-laid-down": (
        "{player} may add cards to melds only after laying a task in this round (PS-R14).",
        "{player} darf erst anlegen, nachdem er oder sie in dieser Runde eine Aufgabe gelegt hat (PS-R14).",
    ),
    "ps.already-revealed": (
        "{player} has nothing (more) to reveal in this round (PS-R30).",
        "{player} hat in dieser Runde nichts (mehr) aufzudecken (PS-R30).",
    ),
    "ps.wrong-card-count": (
        "{player} holds {own} own card(s), not {got} (PS-R30).",
        "{player} hat {own} eigene Karte(n), nicht {got} (PS-R30).",
    ),
    "ps.redeal-not-allowed": (
        "A redeal needs at least 3 aces shown (PS-R5).",
        "Für ein neues Geben müssen mindestens 3 Asse gezeigt werden (PS-R5).",
    ),
    "ps.redeal-not-allowed.late": (
        "A redeal is only possible before the round's first draw or skip (PS-R5).",
        "Neu geben geht nur vor dem ersten Ziehen oder Aussetzen der Runde (PS-R5).",
    ),
})

PLAY, SCORING, ROUND_OVER, OVER = "play", "scoring", "round-over", "over"
TURN_EVENTS = frozenset({"draw", "skip_with_ace", "give_ace", "lay_task", "extend", "discard"})


_DECKS: dict[int, Deck[Face]] = {}


def deck(jokers: int) -> Deck[Face]:
    """The deck with `jokers` jokers, made once: a Deck is immutable, and sharing keeps its lookup cache warm."""
    found = _DECKS.get(jokers)
    if found is None:
        found = _DECKS[jokers] = Deck(*faces(jokers))
    return found


@dataclass(frozen=True)
class Options:
    jokers: int = DEFAULT_JOKERS
    bonus: bool = True
    first_to: int | None = None
    discard_draw: bool = False


def _bad(key: str, en: str, de: str) -> HeaderError:
    return HeaderError(f"option {key}: {en}", f"Option {key}: {de}")


@register
class ProfiSort(Game):
    id = "profi-sort"
    title = "Profi-Sort"
    player_counts = (2, 3)
    event_types = frozenset(
        {"draw", "skip_with_ace", "give_ace", "lay_task", "extend", "discard", "reveal_hand", "redeal", "new_round"}
    )
    shape_first = True

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "jokers", "bonus", "first_to", "discard_draw")
        jokers = options.get("jokers", DEFAULT_JOKERS)
        if not is_int(jokers) or not 0 <= jokers <= MAX_JOKERS:
            raise _bad("jokers", "an integer 0 to 8", "eine ganze Zahl von 0 bis 8")
        bonus = options.get("bonus", True)
        if type(bonus) is not bool:
            raise _bad("bonus", "true or false", "true oder false")
        first_to = options.get("first_to")
        if first_to is not None and (not is_int(first_to) or not 1 <= first_to <= ALL_TASKS):
            raise _bad("first_to", "an integer 1 to 15 or null", "eine ganze Zahl von 1 bis 15 oder null")
        discard_draw = options.get("discard_draw", False)
        if type(discard_draw) is not bool:
            raise _bad("discard_draw", "true or false", "true oder false")
        return Options(jokers, bonus, first_to, discard_draw)

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck: Deck[Face] = deck(options.jokers)
        self.beginner = options.first_to is not None
        self.round = 1
        self.tasks_done: dict[str, list[str]] = {p: [] for p in self.players}
        self.done: dict[str, set[str]] = {p: set() for p in self.players}
        self.bonus_open = dict.fromkeys(self.players, BONUS_TOTAL if options.bonus else 0)
        self.totals = dict.fromkeys(self.players, 0)  # the sum of round points
        self.winners: list[str] = []
        self.tally = CardTally()
        self._start_round()

    # --- rounds

    def _start_round(self) -> None:
        """PS-R3, PS-R4: ten cards each, the talon, an empty table; the player after the dealer begins."""
        n = len(self.players)
        self.phase = PLAY
        self.hands = dict.fromkeys(self.players, HAND)
        self.received: dict[str, list[str]] = {p: [] for p in self.players}
        self.ace_given = dict.fromkeys(self.players, False)
        self.talon = self.deck.size - HAND * n
        self.pile: list[tuple[str, Card]] = []
        self.tally.clear()
        self.melds: dict[str, Meld] = {}
        self.laid: set[str] = set()  # players who laid a task this round (PS-R14)
        self.went_out: str | None = None
        self.round_points: dict[str, int | None] = dict.fromkeys(self.players)
        self.revealed: set[str] = set()
        self.started = False  # a draw or skip happened this round (PS-R5)
        self.drawn = False
        self.must_go_out = False  # task 15 laid in this turn (PS-R12)
        self.turn = self.next_seat(self.dealer)

    # --- shape (§17: field types and values)

    def check_shape(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind == "new_round":
            return
        need_str(event, "player")
        if kind == "draw":
            if "count" in event and not (is_int(event["count"]) and event["count"] == 1):
                raise Rejection("bad-event", "bad-event.value", field="count")
            if "from" in event and event["from"] not in ("talon", "discard"):
                raise Rejection("bad-event", "bad-event.value", field="from")
        elif kind == "discard":
            need_str(event, "card")
        elif kind == "lay_task":
            task = need_str(event, "task")
            groups = event.get("groups")
            if type(groups) is not list or any(
                type(g) is not list or any(type(c) is not str for c in g) for g in groups
            ):
                raise Rejection("bad-event", "bad-event.field", field="groups")
            if task == REPEAT:
                need_str(event, "as")
            else:
                forbid(event, "as")
        elif kind == "extend":
            need_str(event, "meld")
            need_str_list(event, "cards")
            if "at" in event and event["at"] not in ("low", "high"):
                raise Rejection("bad-event", "bad-event.value", field="at")
        elif kind == "give_ace":
            need_str(event, "to")
            need_str(event, "card")
        elif kind in ("reveal_hand", "redeal"):
            need_str_list(event, "cards", allow_empty=True)

    # --- the events

    def step(self, event: Mapping[str, Any]) -> None:
        getattr(self, "_ev_" + event["type"])(event)

    def _cards(self, codes: Sequence[str]) -> tuple[list[Card], list[Face]]:
        lookup = self.card
        cards, infos = [], []
        for code in codes:
            card, face = lookup(code)
            cards.append(card)
            infos.append(face)
        return cards, infos

    def _phase(self, want: str, event: str) -> None:
        if self.phase != want:
            raise Rejection("wrong-phase", "ps.wrong-phase", event=event, phase=self.phase)

    def _turn_start(self, player: str, kind: str, drawn: bool) -> None:
        """§17 steps 5-7 for the turn events."""
        if self.phase != PLAY:
            raise Rejection("wrong-phase", "ps.wrong-phase", event=kind, phase=self.phase)
        if player != self.turn:
            self.on_turn(player)
        if self.drawn != drawn:
            if drawn:
                raise Rejection("must-draw-first", "ps.must-draw-first", player=player)
            raise Rejection("already-drawn", "ps.already-drawn", player=player)

    def not_exhausted(self, tally: CardTally, cards: Sequence[Card]) -> None:
        """§16 `card-exhausted`, naming the first card that is one too many."""
        if len(cards) == 1:
            if not tally.fits_one(cards[0], self.deck):
                raise Rejection("card-exhausted", card=str(cards[0]))
        elif not tally.fits(cards, self.deck):
            for n in range(1, len(cards) + 1):
                if not tally.fits(cards[:n], self.deck):
                    raise Rejection("card-exhausted", card=str(cards[n - 1]))

    def _own(self, player: str) -> int:
        """PS-R28: hand count minus received aces still held."""
        return self.hands[player] - len(self.received[player])

    def _keep(self, player: str, spend: int, need: int) -> None:
        """PS-R8, PS-R27: after spending `spend` own cards, at least `need` remain."""
        own = self._own(player)
        if own - spend < need:
            raise Rejection("must-keep-card", "ps.must-keep-card", player=player, need=need, own=own)

    def _ev_draw(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        self._turn_start(player, "draw", False)
        from_pile = event.get("from") == "discard"
        if from_pile:
            if not self.options.discard_draw:
                raise Rejection("discard-draw-not-allowed", "ps.discard-draw-not-allowed")
            if not self.pile:
                raise Rejection("discard-draw-not-allowed", "ps.discard-draw-not-allowed.empty")
            if self.deck.info[self.pile[-1][1].face].ace:
                raise Rejection("discard-draw-not-allowed", "ps.discard-draw-not-allowed.ace")
            self.tally.remove(self.pile.pop()[1])
        else:
            self.talon -= 1
        self.hands[player] += 1
        self.drawn = True
        self.started = True

    def _ev_skip_with_ace(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        self._turn_start(player, "skip_with_ace", False)
        received = self.received[player]
        if not received:
            raise Rejection("no-received-ace", "ps.no-received-ace", player=player)
        code = received.pop(0)  # PS-R26: the earliest received ace; it stays on the table
        self.pile.append((code, self.deck.lookup(code)[0]))
        self.hands[player] -= 1
        self.started = True
        self.turn = self.next_seat(player)

    def _ev_give_ace(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        to = self.seat(event["to"])
        code = event["card"]
        card, face = self.card(code)
        self._turn_start(player, "give_ace", True)
        if to == player:
            raise Rejection("bad-target", "ps.bad-target", player=player)
        if not face.ace:
            raise Rejection("not-an-ace", "ps.not-an-ace", card=code)
        if self.ace_given[player]:
            raise Rejection("ace-already-given", "ps.ace-already-given", player=player)
        self._keep(player, 1, 2 if self.received[player] else 1)
        self.not_exhausted(self.tally, (card,))
        self.tally.add(card)
        self.hands[player] -= 1
        self.hands[to] += 1
        self.received[to].append(code)
        self.ace_given[player] = True

    def _ev_lay_task(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        groups_codes: list[list[str]] = event["groups"]
        cards: list[Card] = []
        groups: list[list[Face]] = []
        for codes in groups_codes:
            group_cards, infos = self._cards(codes)
            cards.extend(group_cards)
            groups.append(infos)
        self._turn_start(player, "lay_task", True)
        task_id = event["task"]
        if task_id not in TASK_IDS:
            raise Rejection("unknown-task", "ps.unknown-task", task=task_id)
        rules_id = task_id
        if task_id == REPEAT:
            rules_id = event["as"]
            if rules_id not in TASK_BY_ID:
                raise Rejection("unknown-task", "ps.unknown-task.as", task=rules_id)
        if task_id in self.done[player]:
            raise Rejection("task-done", "ps.task-done", player=player, task=task_id)
        task = TASK_BY_ID[rules_id]
        sizes = tuple(sorted(len(g) for g in groups))
        if sizes != task.sizes:
            need = "+".join(str(s) for s in task.sizes)
            got = "+".join(str(s) for s in sizes) or "0"
            raise Rejection("wrong-shape", "ps.wrong-shape", task=rules_id, need=need, got=got)
        jokers = 0
        for infos in groups:
            for face in infos:
                if face.ace:
                    raise Rejection("ace-not-allowed", "ps.ace-not-allowed", card=face.name)
                jokers += face.joker
        if jokers:
            if not task.jokers:
                raise Rejection("joker-not-allowed", "ps.joker-not-allowed", task=rules_id)
            for infos in groups:
                if all(face.joker for face in infos):
                    raise Rejection("joker-alone", "ps.joker-alone", cards=" ".join(f.name for f in infos))
        melds = lay_groups(task, player, groups, groups_codes)
        received = self.received[player]
        self._keep(player, len(cards), 2 if received else 1)
        if task_id == REPEAT and received:
            raise Rejection("must-go-out", "ps.must-go-out.ace", player=player)
        self.not_exhausted(self.tally, cards)
        # --- accepted
        for card in cards:
            self.tally.add(card)
        for meld in melds:
            self.melds[f"m{len(self.melds) + 1}"] = meld
        self.hands[player] -= len(cards)
        self.laid.add(player)
        self.tasks_done[player].append(task_id)
        self.done[player].add(task_id)
        if task_id == REPEAT:
            self.must_go_out = True
        else:
            self._strike_bonus(player, task_id, jokers)
        first_to = self.options.first_to
        if first_to is not None and len(self.tasks_done[player]) >= first_to:
            self.winners = [player]  # §14: the beginner game is won at once
            self._finish()

    def _strike_bonus(self, player: str, task_id: str, jokers: int) -> None:
        """§11: the no-joker bonus of a task laid without joker, the pair bonus once both tasks are done."""
        if not self.options.bonus:
            return
        if not jokers and task_id in NO_JOKER_TASKS:
            self.bonus_open[player] -= NO_JOKER_BONUS
        pair = PAIR_OF.get(task_id)
        if pair is not None:
            other = pair[1] if pair[0] == task_id else pair[0]
            if other in self.done[player]:
                self.bonus_open[player] -= PAIR_BONUS

    def _ev_extend(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        codes: list[str] = event["cards"]
        cards, infos = self._cards(codes)
        self._turn_start(player, "extend", True)
        meld_id = event["meld"]
        meld = self.melds.get(meld_id)
        if meld is None:
            raise Rejection("unknown-meld", "ps.unknown-meld", meld=meld_id)
        if player not in self.laid:
            raise Rejection("not-laid-down", "ps.not-laid-down", player=player)
        jokers = False
        for face in infos:
            if face.ace:
                raise Rejection("ace-not-allowed", "ps.ace-not-allowed", card=face.name)
            jokers = jokers or face.joker
        if jokers and not TASK_BY_ID[meld.task].jokers:
            raise Rejection("joker-not-allowed", "ps.joker-not-allowed", task=meld.task)
        side = fits(meld_id, meld, infos, event.get("at"))
        self._keep(player, len(cards), 2 if self.received[player] else 1)
        self.not_exhausted(self.tally, cards)
        for card in cards:
            self.tally.add(card)
        add(meld, infos, codes, side)
        self.hands[player] -= len(cards)

    def _ev_discard(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        code = event["card"]
        card, _ = self.card(code)
        self._turn_start(player, "discard", True)
        self._keep(player, 1, 1 if self.received[player] else 0)
        if self.must_go_out and self.hands[player] > 1:
            raise Rejection("must-go-out", "ps.must-go-out", player=player)
        self.not_exhausted(self.tally, (card,))
        self.tally.add(card)
        self.pile.append((code, card))
        self.hands[player] -= 1
        self.drawn = False
        self.must_go_out = False
        if not self.hands[player]:  # PS-R10, PS-R29
            self.went_out = player
            self._end_round()
        elif not self.talon:
            self._end_round()
        else:
            self.turn = self.next_seat(player)

    def _end_round(self) -> None:
        self.turn = None
        if self.beginner:  # §14: no points, no reveal
            self.phase = ROUND_OVER
            return
        self.phase = SCORING
        if self.went_out is not None:
            self.round_points[self.went_out] = 0
            self.revealed.add(self.went_out)

    def _ev_reveal_hand(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        cards, infos = self._cards(event["cards"])
        self._phase(SCORING, "reveal_hand")
        if player in self.revealed:
            raise Rejection("already-revealed", "ps.already-revealed", player=player)
        own = self._own(player)
        if len(cards) != own:
            raise Rejection("wrong-card-count", "ps.wrong-card-count", player=player, own=own, got=len(cards))
        if cards:
            self.not_exhausted(self.tally, cards)
        for card in cards:
            self.tally.add(card)
        self.round_points[player] = sum(f.points for f in infos) + ACE_POINTS * len(self.received[player])
        self.revealed.add(player)
        if len(self.revealed) == len(self.players):  # PS-R31
            for p in self.players:
                self.totals[p] += self.round_points[p] or 0
            if any(len(done) == ALL_TASKS for done in self.tasks_done.values()):  # PS-R32, PS-R33
                for p in self.players:
                    self.totals[p] += self.bonus_open[p]
                self.winners = self.winners_by(self.totals, best="min")
                self._finish()
            else:
                self.phase = ROUND_OVER

    def _ev_redeal(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        cards, infos = self._cards(event["cards"])
        self._phase(PLAY, "redeal")
        if self.started:
            raise Rejection("redeal-not-allowed", "ps.redeal-not-allowed.late", player=player)
        if len(cards) < 3 or not all(f.ace for f in infos):
            raise Rejection("redeal-not-allowed", "ps.redeal-not-allowed", player=player)
        self.not_exhausted(self.tally, cards)  # shown, not put on the table
        self._start_round()  # PS-R5: same dealer, same round

    def _ev_new_round(self, event: Mapping[str, Any]) -> None:
        self._phase(ROUND_OVER, "new_round")
        self.round += 1
        self.dealer = self.next_seat(self.dealer)  # PS-R2
        self._start_round()

    def _finish(self) -> None:
        self.finished = True
        self.turn = None
        self.drawn = False
        self.phase = OVER

    # --- reading

    def scores(self) -> dict[str, int]:
        if self.beginner:
            return dict.fromkeys(self.players, 0)
        return dict(self.totals)

    def public(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "finished": self.finished,
            "scores": self.scores(),
            "winners": list(self.winners),
            "round": self.round,
            "dealer": self.dealer,
            "phase": self.phase,
            "drawn": self.drawn,
            "hands": dict(self.hands),
            "received": {p: list(r) for p, r in self.received.items()},
            "ace_given": dict(self.ace_given),
            "talon": self.talon,
            "discard_top": self.pile[-1][0] if self.pile else None,
            "melds": {mid: meld.public() for mid, meld in self.melds.items()},
            "tasks_done": {p: list(t) for p, t in self.tasks_done.items()},
            "went_out": self.went_out,
            "round_points": dict(self.round_points),
            "bonus_open": dict(self.bonus_open),
        }

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "talon": self.talon,
            "melds": sum(len(m.cards) for m in self.melds.values()),
            "discard": len(self.pile),
        }
