"""Audit scenes of the club night's assignment screen (kiosk/screens/assignment.py)."""

from __future__ import annotations

from cafe import contract
from kiosk.app.host import KioskHost
from kiosk.drawing.audit import scene
from kiosk.screens.assignment import AssignmentScreen


def _assignment(players: list[str]) -> dict:
    return contract.assign_payload("dienstag", 2, "alles-klar", players, dealer=players[-1],
                                   title={"de": "Dienstagsturnier im Café Nord", "en": "Tuesday tournament"})


@scene("assignment")
def waiting(app: KioskHost) -> None:
    app.show(AssignmentScreen(app, _assignment(["Anna", "Ben", "Cleo"]), "3"))


@scene("assignment:seated")
def seated(app: KioskHost) -> None:
    screen = AssignmentScreen(app, _assignment(["Annabelle", "Benedikt", "Cleo", "Dominik", "Emilia"]), "12")
    screen.claimed = {f"s{i + 1}": i for i in range(5)}
    app.show(screen)
