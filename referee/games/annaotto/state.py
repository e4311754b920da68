"""What ANNAOTTO keeps beside the counts (an open race), and its public state, typed."""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.annaotto.matching import RACE_PENALTY
from referee.hints import Part, PublicState, RaceView


class Race:
    """An open ALLE race (AO-R15): the layer, the fixed participants, the call and the slaps."""

    __slots__ = ("by", "called", "participants", "pressed")

    def __init__(self, by: str, participants: tuple[str, ...]):
        self.by = by
        self.participants = participants  # in seat order
        self.called = False
        self.pressed: dict[str, int] = {}  # seat → t_us, in the order the slaps arrived

    def view(self, losers: tuple[str, ...] | None = None) -> RaceView:
        """The race for `hints()`: open (losers None) or closed with its losers."""
        slaps = self.pressed
        pressed = {p: slaps[p] for p in self.participants if p in slaps}
        waiting = tuple([p for p in self.participants if p not in slaps])
        return RaceView(losers is None, self.by, self.called, self.participants, pressed, waiting, losers or (),
                               RACE_PENALTY)


# --- the public state, typed


@dataclass(frozen=True)
class Chain(Part):
    """A pending ANNA/OTTO chain: how many of each it holds (AO-R10)."""

    anna: int
    otto: int


@dataclass(frozen=True)
class RaceState(Part):
    """The open race as the state shows it: the layer, whether ALLE was called, seat → `t_us` of its slap."""

    by: str
    called: bool
    pressed: dict[str, int]


@dataclass(frozen=True)
class Due(Part):
    """An owed ANNA/OTTO call (AO-R16)."""

    player: str
    word: str


@dataclass(frozen=True)
class Flip(Part):
    """The flip the table must carry out now: by whom, whose cards, how many (`"all"` after ANNAOTTO)."""

    by: str
    target: str
    cards: int | str


@dataclass(slots=True)
class AnnaottoState(PublicState):
    """Section 8's state keys (`scores`: finishing places, 0 while still playing).

    - `top`: the face on the discard pile (None before `start`); `colour`/`pattern`: what it asks for
      (the chosen colour after ANNAOTTO, pattern None then);
    - `pile`: cards on the discard pile; `draw_pile`: cards left to draw; `hands`: player → cards;
    - `direction`: 1 clockwise, -1 after an odd number of RETOURs;
    - `chain`: the pending chain or None; `plus`: cards a pending PLUS makes the next player take;
    - `drawn`: the player on turn has drawn and must play or keep; `choices`: ANNAOTTO choices owed;
    - `race`: the open race or None; `due`: an owed call or None; `flip`: the flip to carry out or None;
    - `out`: the players who have gone out, in order.
    """

    game = "annaotto"
    top: str | None
    colour: str | None
    pattern: str | None
    pile: int
    draw_pile: int
    hands: dict[str, int]
    direction: int
    chain: Chain | None
    plus: int
    drawn: bool
    choices: list[str]
    race: RaceState | None
    due: Due | None
    flip: Flip | None
    out: list[str]

