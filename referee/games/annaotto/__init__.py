"""ANNAOTTO (`../shared/rules/annaotto.md`): match colour, pattern or sign; chains, PLUS, the ALLE slap race.

One `On` per event type (section 7): its fields, its checks in the section's "Order
of checks" (steps 4 … 17; the reducer does 1 … 3), then its effects, each named
after the rule it carries out. By job:

- `game`: the state and the rules table (checks and effects, each rule at its home);
- `moves`: each event type's fields; `options`: the header's options;
- `matching`: what may go on what (AO-R5, AO-R9) and the deck, shared by checks and hints;
- `state`: the open race and the typed public state; `hints`: `hints()` and the screen's sentence
  (its words from the catalogues).
"""

from referee.games.annaotto.game import Annaotto
from referee.games.annaotto.hints import AnnaottoHints, annaotto_sentence, colour_word, pattern_word, sign_word
from referee.games.annaotto.matching import breaks_alternation, match_error, playable_faces, side_fits
from referee.games.annaotto.state import AnnaottoState

__all__ = [
    "Annaotto",
    "AnnaottoHints",
    "AnnaottoState",
    "annaotto_sentence",
    "breaks_alternation",
    "colour_word",
    "match_error",
    "pattern_word",
    "playable_faces",
    "side_fits",
    "sign_word",
]
