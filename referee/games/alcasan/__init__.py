"""alcasan (`../shared/rules/alcasan.md`): climb a discard pile, burn it, shed hand, face-up and face-down cards.

The referee sees only scanned cards; it keeps counts per player (hand, face-up,
face-down), the discard pile card by card, the burned count and the draw pile.
The `rules` table lists per event type the checks in section 7's order (checks
5 … 10), each a small method carrying its rule id, then the effects; the shared
reducer runs them, every check before any effect.

By job: `game` (the state, the rules table and `hints()`), `cards` (the faces and what may go on the pile),
`hints` (the typed public state, the hint detail and its sentence). The sentences are in the catalogues.
"""

from referee.games.alcasan.cards import DEALT, HAND, deck
from referee.games.alcasan.game import Alcasan
from referee.games.alcasan.hints import AlcasanHints, AlcasanState

__all__ = ["DEALT", "HAND", "Alcasan", "AlcasanHints", "AlcasanState", "deck"]
