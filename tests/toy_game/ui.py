"""Higher's table screen (in the project: `kiosk/games/<game>.py`, registered with `@kiosk.games.register`)."""

from __future__ import annotations

from kiosk.games import Action, GameUI, Panel, Shown, State
from kiosk.i18n import tr
from tests.toy_game.deck import GAME_ID


class HigherUI(GameUI):
    game_id = GAME_ID
    title = "Higher"

    def actions(self, state: State) -> list[Action]:
        player = state.get("turn")
        if not player or not state["pile"]:
            return []
        return [Action(tr("Knock"), lambda: {"type": "knock", "player": player}, "knock")]

    def panel(self, state: State) -> Panel:
        cards = [Shown(self.face(face)) for face in state["pile"]]
        lines = {p: tr("hand {hand}", hand=n) for p, n in state["hands"].items()}
        return Panel(self.turn_text(state), [], cards, tr("Pile"), lines)
