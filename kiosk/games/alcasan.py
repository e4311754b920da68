"""Table screen for alcasan (`../shared/rules/alcasan.md`).

A scan is a `play` of that card by the scanner's seat player (or the player on
turn), or a `reveal` when that player is in the face-down phase (hand and
face-up cards gone, AC-R16). Several cards of one face in one play (AC-R2):
touch "Lay several", scan the cards, touch "Lay N cards" (docs/decisions.md,
"Kiosk: alcasan"). "Take the pile" is a touch (AC-R6).

The state keeps only the pile's size and top face; the cards under the top are
the last `pile` cards laid by the accepted events (every way the pile empties
leaves it at 0, so the newest laid cards are always exactly the pile).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kiosk.games import Action, Choice, Event, GameUI, Panel, State, register
from kiosk.i18n import Np_, tr, trn

PREFIX = "AC:"


def short_face(code: str) -> str:
    """`AC:7#2` → `7`."""
    return code.partition("#")[0].partition(":")[2]


def laid_cards(events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(code, player) of every card laid on the pile by the events, oldest first (a failed reveal included)."""
    laid: list[tuple[str, str]] = []
    for event in events:
        kind = event.get("type")
        if kind == "play":
            codes = [event["card"]] if "card" in event else event["cards"]
            laid.extend((code, event["player"]) for code in codes)
        elif kind == "reveal":
            laid.append((event["card"], event["player"]))
    return laid


@register
class AlcasanUI(GameUI):
    game_id = "alcasan"
    title = "alcasan"
    seat_unit = Np_("card left", "cards left")  # the seat tile's big number

    # --- inputs → events

    def face_down_phase(self, state: State, player: str) -> bool:
        """AC-R16, as the referee says: the player on turn lays from the face-down cards (`hints().detail`)."""
        detail = self.detail()
        return detail is not None and player == state.get("turn") and detail.source == "down"

    def scan(self, state: State, code: str, seat: str | None) -> Event | Choice | None:
        player = seat or state.get("turn")
        if player is None:
            return None
        if player in state["hands"] and self.face_down_phase(state, player):
            return {"type": "reveal", "player": player, "card": code}
        return {"type": "play", "player": player, "card": code}

    def actions(self, state: State) -> list[Action]:
        turn = state.get("turn")
        detail = self.detail()
        if detail is None or turn is None or self.face_down_phase(state, turn):
            return []  # before the referee's first answer, or the game is over
        out = []
        source = state["hands"][turn] or state["up"][turn]
        if source >= 2:
            out.append(Action(tr("Lay several"), lambda: self.gather(turn, []), "several"))
        if detail.can_take:
            out.append(Action(tr("Take the pile ({n})", n=state["pile"]), lambda: {"type": "take_pile",
                                                                                 "player": turn}, "take"))
        return out

    def gather(self, player: str, codes: list[str]) -> Choice:
        """AC-R2: the cards of one play, scanned one after another; the referee judges them all at "Lay"."""
        if codes:
            shown = ", ".join(self.face(code) for code in codes)
            prompt = tr("{player} lays {cards}: scan more, then touch Lay", player=player, cards=shown)
            label = trn("Lay {n} card", "Lay {n} cards", len(codes))
            options: list[tuple[str, Any]] = [(label, "lay")]
        else:
            prompt = tr("{player}: scan the cards of one face, then touch Lay", player=player)
            options = []

        def complete(_: Any) -> Event:
            if len(codes) == 1:
                return {"type": "play", "player": player, "card": codes[0]}
            return {"type": "play", "player": player, "cards": list(codes)}

        def more(code: str, seat: str | None) -> Choice:
            if "#" in code and code in codes:  # the same physical card read twice: count it once
                return self.gather(player, codes)
            return self.gather(player, [*codes, code])

        return Choice(prompt, options, complete, on_scan=more)

    # --- state → screen

    def pile_cards(self, state: State) -> list[tuple[str, str]]:
        """(code, player) of the cards in the discard pile, bottom first; just the top face if the events disagree."""
        n = state["pile"]
        if not n:
            return []
        laid = laid_cards(self.events)
        if len(laid) >= n and short_face(laid[-1][0]) == state["top"]:
            return laid[-n:]
        return [(PREFIX + state["top"], "")]

    def panel(self, state: State) -> Panel:
        """The pile card by card (what may be laid is the referee's sentence, `hints()`)."""
        pile = self.pile_cards(state)
        top = len(pile) - 1
        cards = [self.shown(code, owner, highlight=i == top) for i, (code, owner) in enumerate(pile)]
        title = trn("Discard pile: {n} card, top on the right", "Discard pile: {n} cards, top on the right",
                    state["pile"])
        lines = {p: self.seat_line(state, p) for p in self.players}
        extra = [tr("Pile {pile} · burned {burned} · draw pile {draw}", pile=state["pile"],
                    burned=state["burned"], draw=state["draw_pile"])]
        if state["out"]:
            extra.append(tr("Out: {players}", players=", ".join(state["out"])))
        return Panel(self.turn_text(state), [], cards, title, lines, extra)

    def seat_line(self, state: State, player: str) -> str:
        place = state["scores"][player]
        if place and (player in state["out"] or state["finished"]):
            return tr("Place {place}", place=place)
        return tr("Hand {hand} · Up {up} · Down {down}", hand=state["hands"][player], up=state["up"][player],
                  down=state["down"][player])

    def seat_score(self, state: State, player: str) -> str:
        """Cards still to get rid of (hand, face-up, face-down); a finished player's place."""
        place = state["scores"][player]
        if place and (player in state["out"] or state["finished"]):
            return f"{place}."
        return str(state["hands"][player] + state["up"][player] + state["down"][player])

    def result_lines(self, state: State) -> list[str]:
        order = sorted(self.players, key=lambda p: (state["scores"][p] or len(self.players) + 1,
                                                    self.players.index(p)))
        return [tr("Place {place}: {player}", place=state["scores"][p], player=p) for p in order]
