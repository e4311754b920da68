"""Profi-Sort's public state, typed, and its hint detail (what the turn allows) with the screen's sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from referee.games.profi_sort.basics import ROUND_OVER, SCORING
from referee.hints import Hints, Part, PublicState, names, say

# --- the public state and the hints


@dataclass(frozen=True)
class MeldState(Part):
    """A meld in the state key `melds`: who laid it, the task whose rules apply, its codes in meld order."""

    player: str
    task: str
    cards: list[str]


@dataclass(slots=True)
class ProfiSortState(PublicState):
    """§18's state keys, besides the common ones (`scores`: round points so far, plus the open bonus once the full
    game is over; 0 in the beginner game).

    - `round`: the round number, from 1; `dealer`: the dealer of the round;
    - `phase`: `"play"`, `"scoring"`, `"round-over"` or `"over"`;
    - `drawn`: the player to act has drawn in this turn;
    - `hands`: player → cards held, received aces included; `received`: player → received aces still held;
    - `ace_given`: player → has given an ace this round;
    - `talon`: cards left in the talon; `discard_top`: the code on top of the discard pile, or None;
    - `melds`: meld id (`m1` …) → the meld; `tasks_done`: player → task ids in the order completed;
    - `went_out`: who went out this round, or None;
    - `round_points`: player → this round's points, None until known;
    - `bonus_open`: player → bonus points not struck.
    """

    game = "profi-sort"
    round: int
    dealer: str
    phase: str
    drawn: bool
    hands: dict[str, int]
    received: dict[str, list[str]]
    ace_given: dict[str, bool]
    talon: int
    discard_top: str | None
    melds: dict[str, MeldState]
    tasks_done: dict[str, list[str]]
    went_out: str | None
    round_points: dict[str, int | None]
    bonus_open: dict[str, int]


class ProfiSortHints(NamedTuple):
    """What the player to act may do now.

    - `phase`: as the state key;
    - `player`: the player to act in phase `play`, else None;
    - `drawn`: they have drawn in this turn;
    - `own`: their own cards (hand minus received aces, PS-R28);
    - `keep`: own cards a laying, extension or given ace must leave them (PS-R8, PS-R27);
    - `tasks_open`: the tasks of the sheet they still need, in sheet order;
    - `may_extend`: they laid a task this round, so they may extend melds (PS-R14);
    - `may_skip`: they hold a received ace and have not drawn (PS-R26);
    - `may_give_ace`: they have drawn and not yet given an ace this round (PS-R24);
    - `must_go_out`: they laid task 15 in this turn: the discard must take their last card (PS-R12);
    - `may_redeal`: the round's first draw or skip has not happened: any player showing 3 aces may redeal (PS-R5);
    - `to_reveal`: in phase `scoring`, the players who still show their hands (PS-R30).
    """

    phase: str
    player: str | None
    drawn: bool
    own: int
    keep: int
    tasks_open: tuple[str, ...]
    may_extend: bool
    may_skip: bool
    may_give_ace: bool
    must_go_out: bool
    may_redeal: bool
    to_reveal: tuple[str, ...]
    round: int

    def sentence(self, hints: Hints, lang: str) -> str:
        if self.phase == SCORING:
            return say("hint.ps.scoring", lang, players=names(self.to_reveal, lang))
        if self.phase == ROUND_OVER:
            return say("hint.ps.round-over", lang, round=self.round)
        if self.player is None:
            return ""
        if not self.drawn:
            return say("hint.ps.draw-or-skip" if self.may_skip else "hint.ps.draw", lang, player=self.player)
        if self.must_go_out:
            return say("hint.ps.go-out", lang, player=self.player)
        key = "hint.ps.play" if self.may_extend else "hint.ps.play-no-extend"
        return say(key, lang, player=self.player, own=self.own)  # the open tasks: on the task sheet beside it
