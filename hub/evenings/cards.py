"""What a table of the round really shows, for the desk's card: from the table's retained status (what its
screen shows, its game, online or not) beside what the desk knows of the round's game there.

Why: "waiting" said nothing when a table showed another game or its last results instead of the assignment;
staff need to know what to do at the table. Each card is one of a few situations with a sentence (an English
msgid of the hub's catalogue) saying what the table shows and, where it helps, what to do. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hub.evenings.model import TableOutcome
from referee.words import N_

SAYS = {
    "counted": N_("Result counted."),
    "disputed": N_("The referee disagrees with the table: look at the game, accept it or let them play again."),
    "abandoned": N_("The game was abandoned: accept it as it stands, enter the result, or let them play again."),
    "offline": N_("The table is offline: check its power and network."),
    "assignment": N_("Shows the assignment: the players take their seats."),
    "playing": N_("Playing this round's game."),
    "results": N_("Shows this round's result; the hub checks it."),
    "checking": N_("The game has ended; the hub checks it."),
    "left": N_("The players left their game: resume it from the table's game list, or let them play again."),
    "other_game": N_("Another game is in the way: end it at the table (Menu), then the assignment shows."),
    "other_results": N_("Shows the results of an earlier game: touch Menu at the table to see the assignment."),
    "setup": N_("Someone is setting up another game: touch Back at the table to see the assignment."),
    "staff": N_("The table is in its staff menu or a test: leave it, then the assignment shows."),
    "menu": N_("Shows its menu without the assignment: is the table set up for this café?"),
    "unknown": N_("The table has not reported to the hub yet."),
}


@dataclass(frozen=True, slots=True)
class Card:
    """One table's situation: `key` (a CSS class and a test's handle) and the sentence for staff."""

    key: str
    says: str
    live: bool = False  # scores and whose turn are worth showing


def card(outcome: TableOutcome, row: Mapping[str, Any] | None, evening: str, number: int) -> Card:
    """The situation of `outcome` (a table of round `number` of `evening`), given the table's status row
    (`hub.queries.Reader.tables`: `online`, `status`), or None when the table never reported."""
    if outcome.counts:
        return Card("counted", SAYS["counted"])
    if outcome.state in ("disputed", "abandoned"):
        return Card(outcome.state, SAYS[outcome.state])
    if row is None:
        return Card("unknown", SAYS["unknown"])
    if not row.get("online"):
        return Card("offline", SAYS["offline"])
    return _showing(outcome, dict(row.get("status") or {}), evening, number)


def _showing(outcome: TableOutcome, status: dict[str, Any], evening: str, number: int) -> Card:
    screen, uid, finished = status.get("screen"), status.get("game_uid"), bool(status.get("finished"))
    assignment = status.get("assignment")
    shown = assignment if isinstance(assignment, Mapping) else {}
    ours = outcome.game_uid is not None and uid == outcome.game_uid
    if ours and screen == "table":
        if finished or outcome.ended:
            return Card("results", SAYS["results"])
        return Card("playing", SAYS["playing"], live=True)
    if outcome.game_uid is not None:
        return Card("checking", SAYS["checking"]) if outcome.ended else Card("left", SAYS["left"])
    if shown.get("evening") == evening and shown.get("round") == number:
        return Card("assignment", SAYS["assignment"])
    if screen == "table":
        return Card("other_results", SAYS["other_results"]) if finished else Card("other_game", SAYS["other_game"])
    if screen == "setup":
        return Card("setup", SAYS["setup"])
    if screen in ("admin", "error", "demo"):
        return Card("staff", SAYS["staff"])
    return Card("menu", SAYS["menu"])
