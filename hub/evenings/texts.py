"""The words of the club nights' desk log: a staff action as the actions list names it.

The sentences themselves are in the hub's catalogue (`hub.texts.tr`, domain `hub`), like every page sentence."""

from __future__ import annotations

# A staff action in the desk's log, as the actions list names it.
ACTION_WORDS = {"create": "created", "edit": "settings changed", "delete": "deleted", "check_in": "checked in",
                "remove": "removed", "drop": "dropped out", "back": "came back",
                "checkin": "check-in opened or closed", "start_round": "round started", "redraw": "seats drawn again",
                "close_round": "round closed", "accept": "accepted by staff", "enter": "result entered",
                "replay": "to be played again", "end": "evening ended"}
