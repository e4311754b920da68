"""Table screens for Alles klar? and Die magische 7: what may come next is the referee's sentence (`hints()`);
these panels show the trick, the seats and the questions a scan raises."""

from __future__ import annotations

from kiosk.games import Choice, Event, GameUI, Note, Panel, State, register
from kiosk.i18n import Np_, tr, trn
from referee.decks.alles_klar import NUMERALS
from referee.decks.magische_7 import signed


def numerals_of(code: str) -> list[str]:
    """The Roman numerals printed on an Alles klar? card, read from its code (`AK:5.I.V#2` → ["I", "V"])."""
    face = code.partition("#")[0].partition(":")[2]
    return [n for n in face.split(".")[1:] if n in NUMERALS]


@register
class AllesKlarUI(GameUI):
    game_id = "alles-klar"
    title = "Alles klar?"
    seat_unit = Np_("card won", "cards won")

    def scan(self, state: State, code: str, seat: str | None) -> Event | Choice | Note | None:
        event = super().scan(state, code, seat)
        numerals = numerals_of(code)
        if not isinstance(event, dict) or len(numerals) != 2:
            return event
        # AK-R6: the player taps which of the two numerals acts.
        options = [(n, n) for n in numerals]
        return Choice(tr("Which numeral turns its ranking card?"), options,
                      lambda numeral: {**event, "rank_choice": numeral})

    def panel(self, state: State) -> Panel:
        cards = [self.shown(face, owner) for owner, faces in state["table"].items() for face in faces]
        lines = {p: tr("Hand {hand}", hand=state["hands"][p]) for p in self.players}  # the won cards: the number
        extra = [trn("Stock {stock} · Trick {n} card · Removed {removed}",
                     "Stock {stock} · Trick {n} cards · Removed {removed}", state["trick_size"], stock=state["stock"],
                     removed=state["removed"])]
        last = state.get("last_trick")
        trick = ""
        if last:
            if last["outcome"] == "won":
                trick = trn("Last trick: {winner} took {n} card", "Last trick: {winner} took {n} cards",
                            last["cards"], winner=last["winner"])
            elif last["outcome"] == "blind":
                trick = trn("Last trick was blind: {n} card out of the game",
                            "Last trick was blind: {n} cards out of the game", last["cards"])
            else:
                trick = trn("Last trick unfinished: {n} card out of the game",
                            "Last trick unfinished: {n} cards out of the game", last["cards"])
        return Panel(self.turn_text(state), [], cards, tr("Face-up cards in this trick"), lines, extra, trick=trick)


@register
class MagischeSiebenUI(GameUI):
    game_id = "magische-7"
    title = "Die magische 7"

    def scan(self, state: State, code: str, seat: str | None) -> Event | Choice | Note | None:
        event = super().scan(state, code, seat)
        detail = self.detail()
        targets = detail.targets if detail is not None else ()  # none once the game is over
        if not isinstance(event, dict) or not targets:
            return event
        # M7-R8: the leader taps the opponent the trick is played against (the referee names who may be).
        options = [(p, p) for p in targets]
        return Choice(tr("Against which opponent?"), options, lambda target: {**event, "target": target})

    def panel(self, state: State) -> Panel:
        lead = state.get("lead")
        cards = [self.shown(lead["card"], lead["player"], highlight=True)] if lead else []
        last = state.get("last_trick")
        extra = [tr("Stock {stock} · Tricks {tricks}", stock=state["stock"], tricks=state["tricks_played"])]
        trick, trick_cards = "", []
        if last:  # the winner's points, signed ("−5"), then the trick's cards with who laid them
            trick = trn("Last trick: {winner} scores {points} point", "Last trick: {winner} scores {points} points",
                        abs(last["points"]), winner=last["winner"], points=signed(last["points"]))
            trick_cards = [self.shown(code, player) for player, code in last["cards"].items()]
        lines = {p: tr("Hand {hand}", hand=state["hands"][p]) for p in self.players}  # the points: the number
        return Panel(self.turn_text(state), [], cards, tr("Lead"), lines, extra, trick=trick, trick_cards=trick_cards)
