"""Who a name at a table is, for the café: a guest (a seat's default name, "Spieler 3": kept in the game, never
rated, listed or suggested) or a player, read through the staff's merges (an alias counts as its name).

A table says which of a game's names are guests (its `start` record's `guests`, `shared/cafe-protocol.md`);
for a record from a table older than that field, a seat's default name in any language is a guest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.ratings import canonical
from referee.words import is_default_name


def is_guest_name(name: str) -> bool:
    """A seat's default name: nobody's own."""
    return is_default_name(name)


def guests_of(start: Mapping[str, Any]) -> list[str]:
    """The guests of a game, from its `start` record: the names the table flagged, else the default names."""
    header = start.get("header") if isinstance(start.get("header"), Mapping) else {}
    players = [p for p in (header or {}).get("players", []) if isinstance(p, str)]
    flagged = start.get("guests")
    if isinstance(flagged, list):
        return [p for p in players if p in flagged]
    return [p for p in players if is_guest_name(p)]


def named(players: Iterable[str], guests: Iterable[str]) -> list[str]:
    """The players of a game who are not guests."""
    skip = set(guests)
    return [p for p in players if p not in skip and not is_guest_name(p)]


def canonical_entry(name: str, aliases: Mapping[str, str]) -> str:
    """The name a typed name counts as: through the merges, also when typed in another case ("ANNA" when "anna"
    was merged into "Anna")."""
    if name in aliases:
        return canonical(name, aliases)
    folded = {alias.casefold(): alias for alias in aliases}
    alias = folded.get(name.casefold())
    return canonical(alias, aliases) if alias is not None else name
