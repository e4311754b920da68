"""A game's whole story from the log: every answered event, accepted or rejected, with the referee's reason.

Rejected attempts are kept by the store (`EventLog.attempts`) with their error code; the plain sentence
is made again by replaying the attempts in order, so it is exactly what the table saw, in the language
the history is read in now.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk import games
from kiosk.eventlog.store import EventLog
from kiosk.games.event_words import rejection_words
from kiosk.i18n import language, tr
from referee.answers import Rejection
from referee.event_words import describe
from referee.table import Referee


@dataclass(frozen=True, slots=True)
class Line:
    seq: int  # counts the game's answered events from 1, rejected ones included
    at: float  # wall-clock time (0 when unknown)
    text: str
    ok: bool
    reason: str = ""  # a rejection's plain sentence, as the guests read it (no rule ids)
    detail: str = ""  # for staff: a rejection's rule ids and error id ("AO-R5 · no-match")
    cards: tuple[str, ...] = ()  # the codes of the cards the event laid (the history draws them)


def face_words(game_row: str, players: tuple[str, ...], options: dict) -> Callable[[str], str]:
    """The game's card words (as its labels print them); an unknown code is shown as scanned."""
    ui = games.get(game_row)(players, options) if game_row in games.ids() else None

    def face(code: str) -> str:
        if ui is None:
            return code
        try:
            return ui.face(code)
        except Exception:  # a code that is no card of this deck: show what was scanned
            return code

    return face


def laid(event: object) -> tuple[str, ...]:
    """The codes of the cards an event laid (its `card`, or its `cards` when that is a list of codes)."""
    if not isinstance(event, dict):
        return ()
    found = event.get("cards") if "cards" in event else [event.get("card")] if "card" in event else []
    if not isinstance(found, list) or not all(isinstance(code, str) for code in found):
        return ()
    return tuple(found)


def scanned_unknown(event: object) -> str:
    """A scan the referee did not know as a card of this game, never written as a move ("Anna spielt 13" for a
    card of another game): who scanned a card; the reason beside it says whose game it belongs to."""
    player = event.get("player") if isinstance(event, dict) else None
    return tr("{player} scanned a card", player=player) if isinstance(player, str) else tr("A card was scanned")


def lines(log: EventLog, game_row: int) -> list[Line]:
    header, accepted = log.load(game_row)
    game = str(header.get("game"))
    face = face_words(game, tuple(header.get("players", ())), header.get("options") or {})
    attempts = [(a.seq, a.at, a.event) for a in log.attempts(game_row)]
    if not attempts and accepted:  # a log written before rejected attempts were kept
        attempts = [(i, 0.0, event) for i, event in enumerate(accepted, start=1)]
    try:
        referee: Referee | None = Referee(header)
    except Exception:
        referee = None
    out = []
    for seq, at, event in attempts:
        ok, reason, detail, unknown = True, "", "", False
        if referee is not None:
            answer = referee.apply(event)
            ok, unknown = answer.ok, answer.error == "unknown-card"
            if answer.rejection is not None:
                reason = rejection_words(answer.rejection, language(), game) or ""
                detail = answer.rejection.detail() if isinstance(answer.rejection, Rejection) else str(answer.error)
        text = describe(event, language(), game, face) if ok or not unknown else scanned_unknown(event)
        if unknown and isinstance(event, dict) and isinstance(event.get("card"), str):
            detail += f" · {event['card'][:40]}"  # staff see what was scanned
        out.append(Line(seq, at, text, ok, reason, detail, laid(event)))
    return out
