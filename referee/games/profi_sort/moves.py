"""Profi-Sort's header options and its moves: the events as the checks read them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.answers import HeaderError, Rejection
from referee.cards import Card
from referee.decks.profi_sort import ALL_TASKS, MAX_JOKERS, REPEAT, Face, Task
from referee.fields import bad_field, forbid, is_int, known_options, need_str, need_str_list
from referee.games.profi_sort.tasks import Meld
from referee.protocol import Game


@dataclass(frozen=True)
class Options:
    """The header's options (§20)."""

    jokers: int  # jokers in the deck, 0 … 8
    bonus: bool  # the bonus points of §11
    first_to: int | None  # the beginner game: the first to this many tasks wins (§14)
    discard_draw: bool  # the variant: draw the top card of the discard pile (§14)


def parse_options(options: Mapping[str, Any], defaults: type[Game]) -> Options:
    """The header's options, checked (§20); `bad-header` for an unknown key or a bad value; an option left out
    has the game's default (`defaults.default`: its definition's)."""
    known_options(options, "jokers", "bonus", "first_to", "discard_draw")
    jokers = options.get("jokers", defaults.default("jokers"))
    if not is_int(jokers) or not 0 <= jokers <= MAX_JOKERS:
        raise HeaderError("between", option="jokers", least=0, most=MAX_JOKERS)
    bonus = options.get("bonus", defaults.default("bonus"))
    if type(bonus) is not bool:
        raise HeaderError("not-boolean", option="bonus")
    first_to = options.get("first_to", defaults.default("first_to"))
    if first_to is not None and (not is_int(first_to) or not 1 <= first_to <= ALL_TASKS):
        raise HeaderError("between-or-null", option="first_to", least=1, most=ALL_TASKS)
    discard_draw = options.get("discard_draw", defaults.default("discard_draw"))
    if type(discard_draw) is not bool:
        raise HeaderError("not-boolean", option="discard_draw")
    return Options(jokers, bonus, first_to, discard_draw)


# --- the events, as the checks read them (§17: fields and their types, `bad-event`)


@dataclass(slots=True)
class Move:
    """One event: its type, who acts and the scanned codes; the checks note the cards and faces they look up."""

    kind: str
    player: str
    codes: list[str]
    cards: list[Card] = field(default_factory=list)
    faces: list[Face] = field(default_factory=list)

    @classmethod
    def read_skip(cls, event: Mapping[str, Any]) -> Move:
        """`skip_with_ace`: only a `player`."""
        return cls("skip_with_ace", need_str(event, "player"), [])

    @classmethod
    def read_discard(cls, event: Mapping[str, Any]) -> Move:
        """`discard`: a `player` and one `card`."""
        player = need_str(event, "player")
        return cls("discard", player, [need_str(event, "card")])

    @classmethod
    def read_shown(cls, event: Mapping[str, Any]) -> Move:
        """`reveal_hand` and `redeal`: a list of codes, which may be empty."""
        player = need_str(event, "player")
        return cls(event["type"], player, need_str_list(event, "cards", allow_empty=True))

    @classmethod
    def read_new_round(cls, event: Mapping[str, Any]) -> Move:
        """`new_round` has no fields (`player` is ignored)."""
        return cls("new_round", "", [])


@dataclass(slots=True)
class Draw(Move):
    """A `draw`: from the talon, or in the variant from the discard pile."""

    from_discard: bool = False  # `from: "discard"` (the variant of §14)

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Draw:
        """`count`, if given, is the integer 1; `from`, if given, `"talon"` or `"discard"`."""
        player = need_str(event, "player")
        if "count" in event and not (is_int(event["count"]) and event["count"] == 1):
            raise Rejection("bad-event", "bad-event.value", field="count")
        if "from" in event and event["from"] not in ("talon", "discard"):
            raise Rejection("bad-event", "bad-event.value", field="from")
        return cls("draw", player, [], from_discard=event.get("from") == "discard")


@dataclass(slots=True)
class GiveAce(Move):
    """A `give_ace`: one ace (`card`) to another player (`to`)."""

    to: str = ""  # the receiver

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> GiveAce:
        player = need_str(event, "player")
        to = need_str(event, "to")
        return cls("give_ace", player, [need_str(event, "card")], to=to)


@dataclass(slots=True)
class LayTask(Move):
    """A `lay_task`: the groups of one task, flattened into `codes` for the shared checks."""

    task: str = ""  # the task laid (what `tasks_done` records)
    as_task: str | None = None  # for task 15: the task whose groups it repeats (`as`)
    groups: list[list[str]] = field(default_factory=list)  # the codes, group by group
    rules: Task | None = None  # the task whose rules apply (`as` for task 15), noted by `task_known`
    melds: list[Meld] = field(default_factory=list)  # the melds the groups become, noted by `task_met`

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> LayTask:
        """`groups` is a list of lists of codes; `as` is required for task 15 and refused for any other."""
        player = need_str(event, "player")
        task = need_str(event, "task")
        groups = event.get("groups")
        if type(groups) is not list or any(type(g) is not list or any(type(c) is not str for c in g) for g in groups):
            raise bad_field("groups")
        as_task = None
        if task == REPEAT:
            as_task = need_str(event, "as")
        else:
            forbid(event, "as")
        codes = [code for group in groups for code in group]
        return cls("lay_task", player, codes, task=task, as_task=as_task, groups=groups)

    def group_faces(self) -> list[list[Face]]:
        """The looked-up faces, group by group."""
        out, i = [], 0
        for group in self.groups:
            out.append(self.faces[i : i + len(group)])
            i += len(group)
        return out


@dataclass(slots=True)
class Extend(Move):
    """An `extend`: cards added to one meld, at a run's end if `at` says which."""

    meld_id: str = ""
    at: str | None = None  # the run end to try (`low`/`high`), None: high, then low (PS-R17)
    meld: Meld | None = None  # noted by `meld_known`
    rules: Task | None = None  # the meld's task, whose rules apply
    side: str | None = None  # the run end the cards fit at, noted by `fits_meld`

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Extend:
        player = need_str(event, "player")
        meld_id = need_str(event, "meld")
        codes = need_str_list(event, "cards")
        if "at" in event and event["at"] not in ("low", "high"):
            raise Rejection("bad-event", "bad-event.value", field="at")
        return cls("extend", player, codes, meld_id=meld_id, at=event.get("at"))


