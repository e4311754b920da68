"""Table screens for Alles klar? and Die magische 7."""

from __future__ import annotations

from typing import Any

from kiosk.games import Choice, GameUI, Panel, Shown, State, register
from kiosk.i18n import tr
from referee.decks.alles_klar import NUMERALS
from referee.games.alles_klar import parse_face


@register
class AllesKlarUI(GameUI):
    game_id = "alles-klar"
    title = "Alles klar?"

    def scan(self, state: State, code: str, seat: str | None) -> dict[str, Any] | Choice | None:
        event = super().scan(state, code, seat)
        face = parse_face(code.partition("#")[0])
        if event is None or face is None or len(face.numerals) != 2:
            return event
        # AK-R6: the player taps which of the two numerals acts.
        options = [(NUMERALS[n - 1], NUMERALS[n - 1]) for n in face.numerals]
        return Choice(tr("Which numeral turns its ranking card? (AK-R6)"), options,
                      lambda numeral: {**event, "rank_choice": numeral})

    def panel(self, state: State) -> Panel:
        ranking = state["ranking"]
        cards = [Shown(self.face(face), owner) for owner, faces in state["table"].items() for face in faces]
        hints = [tr("Open ranking cards: {cards}", cards=" ".join(ranking) or "–")]
        leaders = self._leaders(state)
        if len(ranking) == 1:
            n = NUMERALS.index(ranking[0]) + 1
            hints.append(tr("Only {numeral} is open: the trick waits for the {n}th face-up card.",
                            numeral=ranking[0], n=n))
        if leaders:
            hints.append(tr("Would win now: {who}", who=" · ".join(leaders)))
        lines = {p: tr("hand {hand} · won {won}", hand=state["hands"][p], won=state["scores"][p])
                 for p in self.players}
        extra = [tr("Stock {stock} · trick {size} cards · removed {removed}", stock=state["stock"],
                    size=state["trick_size"], removed=state["removed"])]
        last = state.get("last_trick")
        if last:
            if last["outcome"] == "won":
                extra.append(tr("Last trick: {winner} took {cards} cards", winner=last["winner"], cards=last["cards"]))
            elif last["outcome"] == "blind":
                extra.append(tr("Last trick was blind: {cards} cards out of the game", cards=last["cards"]))
            else:
                extra.append(tr("Last trick unfinished: {cards} cards out of the game", cards=last["cards"]))
        return Panel(self.turn_text(state), hints, cards, tr("Face-up cards in this trick"), lines, extra)

    def _leaders(self, state: State) -> list[str]:
        """For each open ranking card N: who would take the trick if N were the last one open."""
        face_up = sorted(((parse_face(f).value, owner) for owner, faces in state["table"].items() for f in faces),
                         reverse=True)
        out = []
        for numeral in state["ranking"]:
            n = NUMERALS.index(numeral) + 1
            out.append(f"{numeral}: {face_up[n - 1][1]}" if len(face_up) >= n else f"{numeral}: –")
        return out if face_up else []


@register
class MagischeSiebenUI(GameUI):
    game_id = "magische-7"
    title = "Die magische 7"

    def scan(self, state: State, code: str, seat: str | None) -> dict[str, Any] | Choice | None:
        event = super().scan(state, code, seat)
        if event is None or len(self.players) != 4 or state.get("lead") is not None:
            return event
        # M7-R8: the leader taps the opponent the trick is played against.
        leader = event["player"]
        i = self.players.index(leader)
        opponents = [self.players[(i + 1) % 4], self.players[(i + 3) % 4]]
        options = [(p, p) for p in opponents if state["hands"].get(p, 0) > 0] or [(p, p) for p in opponents]
        return Choice(tr("Against which opponent? (M7-R8)"), options, lambda target: {**event, "target": target})

    def panel(self, state: State) -> Panel:
        lead = state.get("lead")
        cards, hints = [], []
        if lead:
            cards.append(Shown(self.face(lead["card"]), lead["player"], highlight=True))
            name = lead["card"].partition(":")[2]
            if name == "CROSS":
                hints.append(tr("The Cross was led: {follower} wins with any card.", follower=lead["target"]))
            elif name.lstrip("-").isdigit():
                hints.append(tr("{follower} wins with a Joker or a {pair} (together 7).",
                                follower=lead["target"], pair=7 - int(name)))
            else:
                hints.append(tr("{follower} wins only with a Joker.", follower=lead["target"]))
        else:
            hints.append(tr("Lead any card."))
        last = state.get("last_trick")
        extra = [tr("Stock {stock} · tricks {tricks}", stock=state["stock"], tricks=state["tricks_played"])]
        if last:
            shown = ", ".join(f"{p} {self.face(c)}" for p, c in last["cards"].items())
            extra.append(tr("Last trick: {cards}, {winner} +{points}", cards=shown, winner=last["winner"],
                            points=last["points"]))
        lines = {p: tr("hand {hand} · {points} points", hand=state["hands"][p], points=state["scores"][p])
                 for p in self.players}
        return Panel(self.turn_text(state), hints, cards, tr("Lead"), lines, extra)
