"""Profi-Sort (`../shared/rules/profi-sort.md`): a Rommé match over a sheet of 15 tasks.

The referee keeps every player's task sheet for the whole match, the hand
counts of the round, the melds on the table and the cards on the table (for
`card-exhausted`). The `rules` table lists per event type the checks in §17's
order, each a small method carrying its rule id, then the effects; the shared
reducer runs them, every check before any effect. Groups and melds are judged
by the data-driven matcher in `tasks`.

By job: `game` (the match state, the rules table and `hints()`), `moves` (options and events as the
checks read them), `tasks` (the task matcher), `hints` (the typed public state, the hint detail and its
sentence), `basics` (hand size, phases, deck). The sentences are in the catalogues.
"""

from referee.games.profi_sort.basics import HAND, deck
from referee.games.profi_sort.game import ProfiSort
from referee.games.profi_sort.hints import ProfiSortHints, ProfiSortState

__all__ = ["HAND", "ProfiSort", "ProfiSortHints", "ProfiSortState", "deck"]
