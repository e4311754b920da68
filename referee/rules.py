"""How a game declares its rules: per event type an `On` entry (how the event's fields are read, the checks in
the rules file's order, the effects), each step a small function marked with the rule ids it is the home of
(`@rule`); and how the reducer turns such a table into the functions it calls (`judges_for`, `rule_judges`).

A check looks and raises a `Rejection`; only effects change the state, and they run only after every check
passed. So `Referee.check` (a dry run) is "read and check", and `apply` is "read, check, effects". `shape_first`
(a game's class attribute) says whether its rules file checks the event's fields before `game-over` or after.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from referee.answers import Rejection

Step = Callable[[Any, Any], None]
"""A check or an effect: called with the game and the event's move (see `On`)."""

F = TypeVar("F", bound=Callable[..., Any])


def rule(*ids: str) -> Callable[[F], F]:
    """Mark a check or effect as the home of these rule ids of the game's rules file.

    Each id that governs play has exactly one home in its game's code (module or package)
    (tests/test_rule_homes.py reads the rules files and checks this).
    """

    def mark(fn: F) -> F:
        fn.rule_ids = ids  # type: ignore[attr-defined]
        return fn

    return mark


def rule_ids(step: Any) -> tuple[str, ...]:
    """The rule ids a check or effect carries (`@rule`); () for a step that is no rule's home."""
    return getattr(step, "rule_ids", ())


@dataclass(frozen=True)
class On:
    """What one event type does, in the rules file's words.

    - `read`: the event's fields → the game's move value (raises `bad-event`);
    - `checks`: in the rules file's checking order; each looks at the game and the move
      and raises a `Rejection`, changing nothing (a check may note what it looked up,
      such as the card, on the move);
    - `effects`: run in order after every check passed; only they change the game.

    Every entry is a function `(game, move) -> None`: a method of the game, or a shared check
    such as `of_field("player", Game.turn_is)`. A step that is the home of a rule carries its id by `@rule`.
    """

    read: Callable[[Mapping[str, Any]], Any]
    checks: tuple[Step, ...] = ()
    effects: tuple[Step, ...] = ()


Judge = Callable[[Any, Mapping[str, Any]], Any]


class Judged(Protocol):
    """What the judges read of a game (`referee.protocol.Game`): its rules table and whether it is over."""

    rules: ClassVar[Mapping[str, On]]
    variants: ClassVar[Mapping[str, str]]
    shape_first: ClassVar[bool]
    finished: bool


def judges_for(on: On, shape_first: bool) -> tuple[Judge, Judge]:
    """The two functions the reducer calls for one event type: `apply` (checks, then effects) and `check`.

    `shape_first`: the rules file checks the fields before `game-over` (else the reducer checks it first).
    """
    return (_judge(on.read, on.checks + on.effects, shape_first),
            _judge(on.read, on.checks, shape_first))


def _judge(read: Callable[[Mapping[str, Any]], Any], steps: tuple[Step, ...], shape_first: bool) -> Judge:
    """`read`, `game-over` if the rules file checks it after the fields, then every step in order."""

    def judge(game: Judged, event: Mapping[str, Any]) -> Any:
        move = read(event)
        if shape_first and game.finished:
            raise Rejection("game-over")
        for step in steps:
            step(game, move)
        return move

    return judge


def variant_judges_for(name: str, cases: Mapping[str, On], shape_first: bool) -> tuple[Judge, Judge]:
    """`judges_for` for an event type whose checks and effects depend on the move's field `name`.

    Every case reads the event the same way (its `read` raises `bad-event` for a value with no case);
    the case the move names then runs its steps.
    """
    read = next(iter(cases.values())).read
    applies = {value: on.checks + on.effects for value, on in cases.items()}
    checks = {value: on.checks for value, on in cases.items()}
    return (_variant_judge(read, name, applies, shape_first),
            _variant_judge(read, name, checks, shape_first))


def _variant_judge(read: Callable[[Mapping[str, Any]], Any], name: str, steps: Mapping[str, tuple[Step, ...]],
                   shape_first: bool) -> Judge:
    """`_judge` whose steps are those of the case `getattr(move, name)`."""

    def judge(game: Judged, event: Mapping[str, Any]) -> Any:
        move = read(event)
        if shape_first and game.finished:
            raise Rejection("game-over")
        for step in steps[getattr(move, name)]:
            step(game, move)
        return move

    return judge


def of_field(name: str, check: Callable[[Any, Any], object]) -> Step:
    """One of the game's shared checks (`Game.seated`, `Game.turn_is`, `Game.not_exhausted`) as a step of a rules
    table, applied to the move's field `name`: `of_field("player", Game.seated)`."""

    def step(game: Any, move: Any) -> None:
        check(game, getattr(move, name))

    step.__name__ = step.__qualname__ = f"{getattr(check, '__name__', 'check')}({name})"
    return step


T = TypeVar("T")


def noted(value: T | None, by: str) -> T:
    """A value a check noted on the move (the card it looked up, the task whose rules apply), read by a later
    step: the checks run first and in order, so it is there; `by` names the check that notes it."""
    if value is None:
        raise AssertionError(f"the check {by} notes this before any later step reads it")
    return value


_JUDGES: dict[type[Judged], tuple[dict[str, Judge], dict[str, Judge]]] = {}


def rule_judges(cls: type[Judged]) -> tuple[dict[str, Judge], dict[str, Judge]]:
    """A game class's `rules` table made into the reducer's functions (`apply`'s, `check`'s), once per
    class: shared by every referee of the game, never changed."""
    made = _JUDGES.get(cls)
    if made is None:
        made = _JUDGES[cls] = _rule_judges(cls)
    return made


def _rule_judges(cls: type[Judged]) -> tuple[dict[str, Judge], dict[str, Judge]]:
    judges = {kind: judges_for(on, cls.shape_first) for kind, on in cls.rules.items() if ":" not in kind}
    for kind, name in cls.variants.items():
        cases = {key.partition(":")[2]: on for key, on in cls.rules.items() if key.startswith(kind + ":")}
        judges[kind] = variant_judges_for(name, cases, cls.shape_first)
    return ({kind: pair[0] for kind, pair in judges.items()}, {kind: pair[1] for kind, pair in judges.items()})
