"""A simulated Profi-Sort table: the real shuffled 2×52+jokers deck, hidden hands of 10, the talon and the pile.

The players draw (or skip with a received ace), lay a task when a cheap greedy
search finds one in the hidden hand, add cards to melds that look as if they
could fit, give aces, discard, reveal their hands at the round end, and the
operator starts the next round. Every proposal is only a proposal: the referee
decides, and a proposal it rejects is simply not taken.

A full match to the 15th task almost never ends in random play (task 15 needs a
player who goes out in the turn of the laying, and a 10-card task needs 11 own
cards), so the registered table plays the beginner game `first_to: 2` unless
options are given. With `options={}` it plays the full game; tests drive that
round by round (scoring, reveal, new_round) and check the match end with
hand-written events.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from referee.decks.profi_sort import (
    FORMS,
    FORMS_RANKS,
    FOUR_SUITS,
    IDENTICAL_PAIRS,
    KIND_RANKS,
    KING,
    ONE_SUIT,
    REPEAT,
    RUN_KINDS,
    SET,
    SUIT_RUN,
    SUITS,
    TASKS,
    Face,
    Task,
)
from referee.games.profi_sort import HAND, ProfiSortHints, ProfiSortState, deck
from referee.sim import SimPlayers, register, shuffled
from referee.table import Referee, parse_header

DEFAULT_OPTIONS: dict[str, Any] = {"first_to": 2}
SEARCHED = 4  # tasks looked for in the hand per proposal (a random window of the sheet): keeps proposals cheap


class _Pool:
    """The hidden hand's own natural cards by rank, and its jokers; groups are taken out of it."""

    __slots__ = ("by_rank", "jokers")

    def __init__(self, by_rank: dict[int, list[tuple[str, Face]]], jokers: list[str]):
        self.by_rank = by_rank
        self.jokers = jokers

    def copy(self) -> _Pool:
        return _Pool({r: list(c) for r, c in self.by_rank.items()}, list(self.jokers))

    def take(self, rank: int, code: str) -> None:
        cards = self.by_rank[rank]
        for i, (c, _) in enumerate(cards):
            if c == code:
                del cards[i]
                return


def _find_set(pool: _Pool, size: int, used_ranks: set[int], jokers_ok: bool) -> list[str] | None:
    best, most = 0, 0
    for rank, cards in pool.by_rank.items():
        n = len(cards)
        if n > most and rank not in used_ranks:
            best, most = rank, n
    if not most:
        return None
    need = size - most if size > most else 0
    if need and (not jokers_ok or len(pool.jokers) < need):
        return None
    naturals = [c for c, _ in pool.by_rank[best][:size]]
    for code in naturals:
        pool.take(best, code)
    used_ranks.add(best)
    return naturals + [pool.jokers.pop() for _ in range(need)]


def _find_run(pool: _Pool, size: int, suit_run: bool, jokers_ok: bool) -> list[str] | None:
    free = len(pool.jokers) if jokers_ok else 0
    for suit in SUITS if suit_run else ("",):
        have: dict[int, str] = {}
        for rank, cards in pool.by_rank.items():
            for code, face in cards:
                if not suit or face.suit == suit:
                    have[rank] = code
                    break
        if len(have) + free < size:
            continue
        for start in range(2, KING - size + 2):
            window = range(start, start + size)
            missing = sum(1 for rank in window if rank not in have)
            if missing > free or missing == size:
                continue
            out = []
            for rank in window:
                held = have.get(rank)
                if held is None:
                    out.append(pool.jokers.pop())
                else:
                    pool.take(rank, held)
                    out.append(held)
            return out
    return None


def _find_ranks(pool: _Pool, size: int, ranks: frozenset[int], suit: str) -> list[str] | None:
    naturals = [(r, c) for r in ranks for c, f in pool.by_rank.get(r, ()) if not suit or f.suit == suit][:size]
    need = size - len(naturals)
    if not naturals or need > len(pool.jokers):
        return None
    for rank, code in naturals:
        pool.take(rank, code)
    return [c for _, c in naturals] + [pool.jokers.pop() for _ in range(need)]


def _find_one_suit(pool: _Pool, size: int) -> list[str] | None:
    every = frozenset(pool.by_rank)
    for suit in SUITS:
        found = _find_ranks(pool, size, every, suit)
        if found is not None:
            return found
    return None


def _find_four_suits(pool: _Pool) -> list[str] | None:
    for rank, cards in pool.by_rank.items():
        by_suit = {f.suit: c for c, f in cards}
        if len(by_suit) == 4:
            out = [by_suit[s] for s in SUITS]
            for code in out:
                pool.take(rank, code)
            return out
    return None


def _find_pairs(pool: _Pool) -> list[str] | None:
    out: list[str] = []
    for cards in pool.by_rank.values():
        seen: dict[str, str] = {}
        for code, face in cards:
            if face.name in seen and len(out) < 6:
                out += [seen.pop(face.name), code]
            else:
                seen[face.name] = code
        if len(out) == 6:
            break
    if len(out) < 6:
        return None
    for code in out:
        for rank, cards in pool.by_rank.items():
            if any(c == code for c, _ in cards):
                pool.take(rank, code)
                break
    return out


def _find_form(pool: _Pool) -> list[str] | None:
    for ranks in FORMS_RANKS.values():
        options = [pool.by_rank.get(r, []) for r in ranks]
        if not all(options):
            continue
        chosen: list[tuple[int, str]] = []

        def pick(i: int, used: set[str], options: list[list[tuple[str, Face]]] = options,
                 ranks: tuple[int, ...] = ranks, chosen: list[tuple[int, str]] = chosen) -> bool:
            if i == 4:
                return True
            for code, face in options[i]:
                if face.suit not in used:
                    chosen.append((ranks[i], code))
                    if pick(i + 1, used | {face.suit}):
                        return True
                    chosen.pop()
            return False

        if pick(0, set()):
            for rank, code in chosen:
                pool.take(rank, code)
            return [c for _, c in chosen]
    return None


def find_task(task: Task, pool: _Pool) -> list[list[str]] | None:
    """A greedy search for `task` in the pool (it may miss a fitting hand; it proposes, the referee judges).

    The finders take cards out of the pool only when they succeed.
    """
    if len(task.groups) > 1:
        pool = pool.copy()  # a later group may fail after an earlier one took its cards
    groups = []
    used: set[int] = set()
    for size, kind in task.groups:
        if kind == SET:
            found = _find_set(pool, size, used, task.jokers)
        elif kind in RUN_KINDS:
            found = _find_run(pool, size, kind == SUIT_RUN, task.jokers)
        elif kind in KIND_RANKS:
            found = _find_ranks(pool, size, KIND_RANKS[kind], "")
        elif kind == ONE_SUIT:
            found = _find_one_suit(pool, size)
        elif kind == FOUR_SUITS:
            found = _find_four_suits(pool)
        elif kind == IDENTICAL_PAIRS:
            found = _find_pairs(pool)
        elif kind == FORMS:
            found = _find_form(pool)
        else:  # pragma: no cover
            raise AssertionError(kind)
        if found is None:
            return None
        groups.append(found)
    return groups


@register
class ProfiSortTable(SimPlayers):
    game_id = "profi-sort"
    default_players = 3

    def __init__(self, rng: random.Random, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 dealer: str | None = None):
        super().__init__(rng, players, DEFAULT_OPTIONS if options is None else options, dealer)
        parsed = parse_header(self.header)[3]
        self.deck = deck(parsed.jokers)
        self.codes = self.deck.codes()
        self.face = {code: self.deck.lookup(code)[1] for code in self.codes}
        self.discard_draw = parsed.discard_draw
        self._deal()

    def _deal(self) -> None:
        codes = list(self.codes)
        codes = shuffled(self.rng, codes)
        self.hands: dict[str, list[str]] = {p: [codes.pop() for _ in range(HAND)] for p in self.players}
        self.talon = codes
        self.pile: list[str] = []
        self.received: dict[str, list[str]] = {p: [] for p in self.players}
        self.go_out = False

    # --- proposals

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        hints: ProfiSortHints = referee.hints().detail
        if hints.phase == "round-over":
            return [{"type": "new_round"}]
        if hints.phase == "scoring":
            return [{"type": "reveal_hand", "player": p, "cards": self._own(p)} for p in hints.to_reveal]
        player = self.on_turn(referee)
        if not hints.drawn:
            return self._turn_start(hints, player)
        own = self._own(player)
        if self.go_out:
            return [{"type": "discard", "player": player, "card": code} for code in own]
        pool = self._pool(own)
        events = self._discards(player, own, pool)
        lay = self._lay(hints, player, own, pool)
        if lay is not None:
            events += [lay, lay, lay]
        if hints.may_extend and len(own) > 1:
            events += self._extends(referee.public_as(ProfiSortState).melds, player, own)
        if hints.may_give_ace:
            for code in own:
                if self.face[code].ace:
                    to = self.rng.choice([p for p in self.players if p != player])
                    events.append({"type": "give_ace", "player": player, "to": to, "card": code})
                    break
        return events

    def _own(self, player: str) -> list[str]:
        received = self.received[player]
        hand = self.hands[player]
        return [c for c in hand if c not in received] if received else list(hand)

    def _turn_start(self, hints: ProfiSortHints, player: str) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = [{"type": "draw", "player": player}]
        if self.received[player]:
            events.append({"type": "skip_with_ace", "player": player})
        if self.discard_draw and self.pile:
            events.append({"type": "draw", "player": player, "from": "discard"})
        if hints.may_redeal:
            for p in self.players:
                aces = [c for c in self.hands[p] if self.face[c].ace]
                if len(aces) >= 3:
                    events.append({"type": "redeal", "player": p, "cards": aces})
        return events

    def _discards(self, player: str, own: list[str], pool: _Pool) -> list[dict[str, Any]]:
        """One random card, and a card of a rank the hand holds only once (keeps pairs and jokers)."""
        choice = self.rng.choice
        loners = [cards[0][0] for cards in pool.by_rank.values() if len(cards) == 1]
        return [
            {"type": "discard", "player": player, "card": choice(own)},
            {"type": "discard", "player": player, "card": choice(loners or own)},
        ]

    def _pool(self, own: list[str]) -> _Pool:
        by_rank: dict[int, list[tuple[str, Face]]] = {}
        jokers = []
        for code in own:
            f = self.face[code]
            if f.joker:
                jokers.append(code)
            elif not f.ace:
                by_rank.setdefault(f.rank, []).append((code, f))
        return _Pool(by_rank, jokers)

    def _lay(self, hints: ProfiSortHints, player: str, own: list[str], pool: _Pool) -> dict[str, Any] | None:
        done = {task.id for task in TASKS if task.id not in hints.tasks_open}
        if REPEAT not in hints.tasks_open:
            done.add(REPEAT)
        naturals = sum(len(cards) for cards in pool.by_rank.values())
        usable = (naturals, naturals + len(pool.jokers))  # cards a No-J / a J-ok task could use
        start = self.rng.randrange(len(TASKS))
        for k in range(SEARCHED):
            task = TASKS[(start + k) % len(TASKS)]
            if task.cards >= len(own) or task.cards > usable[task.jokers]:
                continue
            repeat = task.cards == len(own) - 1 and REPEAT not in done and not self.received[player]
            if task.id in done and not repeat:
                continue
            groups = find_task(task, pool)
            if groups is None:
                continue
            if repeat:
                return {"type": "lay_task", "player": player, "task": REPEAT, "as": task.id, "groups": groups}
            if task.id not in done:
                return {"type": "lay_task", "player": player, "task": task.id, "groups": groups}
        return None

    def _extends(self, melds: Mapping[str, Any], player: str, own: list[str]) -> list[dict[str, Any]]:
        """Single cards that look as if they could fit a meld: a rank it holds or a rank next to its ends."""
        face = self.face
        events = []
        for meld_id, meld in melds.items():
            ranks = {face[c].rank for c in meld.cards if c in face and not face[c].joker}
            low, high = min(ranks) - 1, max(ranks) + 1
            for code in own:
                f = face[code]
                if f.ace:
                    continue
                if f.joker or f.rank in ranks or f.rank == low or f.rank == high:
                    events.append({"type": "extend", "player": player, "meld": meld_id, "cards": [code]})
                    break
        return events

    # --- the physical table follows

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        kind = event["type"]
        if kind == "new_round" or kind == "redeal":
            self._deal()
            return
        if kind == "reveal_hand":
            return
        player = event["player"]
        hand = self.hands[player]
        if kind == "draw":
            hand.append(self.pile.pop() if event.get("from") == "discard" else self.talon.pop())
        elif kind == "discard":
            hand.remove(event["card"])
            self.pile.append(event["card"])
            self.go_out = False
        elif kind == "lay_task":
            for group in event["groups"]:
                for code in group:
                    hand.remove(code)
            if event["task"] == REPEAT:
                self.go_out = True
        elif kind == "extend":
            for code in event["cards"]:
                hand.remove(code)
        elif kind == "give_ace":
            hand.remove(event["card"])
            self.hands[event["to"]].append(event["card"])
            self.received[event["to"]].append(event["card"])
        elif kind == "skip_with_ace":
            code = self.received[player].pop(0)
            hand.remove(code)
            self.pile.append(code)

    def check(self, referee: Referee) -> None:
        state = referee.state()
        assert {p: len(h) for p, h in self.hands.items()} == state["hands"], "hidden hands differ from hand counts"
        assert len(self.talon) == state["talon"], "hidden talon differs from the talon count"
        assert (self.pile[-1] if self.pile else None) == state["discard_top"], "hidden discard pile differs"
        assert self.received == state["received"], "received aces differ"
