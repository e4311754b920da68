"""alcasan's public state, typed, and its hints: what the player on turn may lay, and the screen's sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from referee.decks.alcasan import ELEMENTS, WASSER_VALUE
from referee.hints import Hints, PublicState, say


@dataclass(slots=True)
class AlcasanState(PublicState):
    """Section 8's state keys, besides the common ones (`scores`: finishing place, 1 = first out, 0 while still
    holding cards; `winners`: [first player out] once finished).

    - `pile`: cards in the discard pile;
    - `top`: the face of its top card (`"LUFT"`), None when it is empty;
    - `need`: `"any"`, `"<=4"` or `">=N"`, what the effective card requires;
    - `burned`: cards removed from the game by burns;
    - `draw_pile`: cards left in the draw pile;
    - `hands`, `up`, `down`: player → hand, face-up, face-down cards;
    - `out`: players out, in finishing order.
    """

    game = "alcasan"
    pile: int
    top: str | None
    need: str
    burned: int
    draw_pile: int
    hands: dict[str, int]
    up: dict[str, int]
    down: dict[str, int]
    out: list[str]


class AlcasanHints(NamedTuple):
    """What the player on turn may lay (section 4).

    - `source`: where their next cards come from: `"hand"`, `"up"` (face-up cards) or `"down"` (a face-down
      card is turned over and scanned, `reveal`);
    - `need`: the state key `need` (`"any"`, `"<=4"`, `">=N"`);
    - `lowest`: the lowest number that may be laid (1 when any number may);
    - `highest`: the highest number that may be laid (4 under Wasser, else 10);
    - `faces`: every face that may be laid now (Feuer, Erde and Luft always), in the deck's order;
    - `can_take`: `take_pile` is possible (not in the face-down phase, and the pile holds cards);
    - `run`: how many identical faces lie on top (`burning`: the face a fourth of which burns the pile, when
      three lie there).
    """

    source: str
    need: str
    lowest: int
    highest: int
    faces: tuple[str, ...]
    can_take: bool
    run: int
    burning: str | None

    def sentence(self, hints: Hints, lang: str) -> str:
        if not hints.actors:
            return ""
        parts = [say(f"hint.ac.{self.source}", lang, player=hints.actors[0])]
        if self.need == "any":
            parts.append(say("hint.ac.any", lang))
        elif self.need == "<=4":
            parts.append(say("hint.ac.at-most-4", lang))
        elif self.lowest <= WASSER_VALUE:
            parts.append(say("hint.ac.at-least-wasser", lang, n=self.lowest))
        else:
            parts.append(say("hint.ac.at-least", lang, n=self.lowest))
        if self.burning is not None:
            word = say(f"hint.ac.{self.burning}", lang) if self.burning in ELEMENTS else self.burning
            parts.append(say("hint.ac.burns", lang, face=word))
        if self.can_take:
            parts.append(say("hint.ac.or-take", lang))
        return " ".join(parts)
