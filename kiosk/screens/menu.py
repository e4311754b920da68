"""The game menu the kiosk boots into; after a while without a touch, demo mode starts.

After the idle pause (`kiosk/app/idle.py`) the menu says which game was paused and offers a large "Resume" that
takes it up again from the log; while a scanner or the camera is unplugged it warns in a strip of its own.
"""

from __future__ import annotations

import time

import kiosk.games
from hw.camera.zones import READER as CAMERA
from kiosk.drawing.view import ACCENT, DARK_INK, GOOD, INK, MUTED, PANEL, TURN_FILL, Grid, View
from kiosk.i18n import language, tr
from kiosk.screens import Host, Screen
from kiosk.screens.cells import cols, gap_of, rows
from kiosk.screens.demo import DemoScreen
from kiosk.screens.history import GamesScreen
from kiosk.screens.setup import SetupScreen
from referee import games


def players_span(game_id: str) -> str:
    """"2–5" or "2 / 4": the player counts a game allows."""
    counts = list(games.get(game_id).player_counts)
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return " / ".join(map(str, counts))


def unplugged_parts(down: dict[str, str | None]) -> list[str]:
    """What the menu warns of while scanners (by their seat) or the overhead camera are unplugged."""
    seats = sorted(seat or reader for reader, seat in down.items() if reader != CAMERA)
    parts = [tr("Scanner {seat}: unplugged – check the cable", seat=", ".join(seats))] if seats else []
    if CAMERA in down:
        parts.append(tr("Camera: no pictures – check the cable"))
    return parts


def unplugged_warning(down: dict[str, str | None]) -> str:
    """The menu's warning as one sentence; "" when everything is plugged in."""
    return " · ".join(unplugged_parts(down))


class MenuScreen(Screen):
    name = "menu"

    def __init__(self, app: Host, paused: int | None = None):
        super().__init__(app)
        self.since = time.monotonic()
        self.paused: tuple[int, str, list[str]] | None = None  # (log row, game title, players) after an idle pause
        if paused is not None and app.log is not None:
            record = next((g for g in app.log.games() if g.id == paused), None)
            if record is not None and record.status == "paused":
                game = record.header.get("game", "")
                title = games.get(game).title if game in games.GAMES else game
                self.paused = (paused, title, list(record.header.get("players", [])))

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        gap = gap_of(v)
        margin = round(0.03 * min(width, height))
        inner = (margin, margin, width - 2 * margin, height - 2 * margin)
        x, y, w, _ = inner
        bar = round(height * (0.07 if g.portrait else 0.12))
        if g.portrait:  # the title on a line of its own, the two buttons below it
            v.text((x, y, w, bar), "Tabletop Referee", size=1.5, color=ACCENT, tag="title")
            y += bar + gap
            places = cols((x, y, w, bar), 2, gap)
        else:
            v.text((x, y, round(w * 0.44), bar), "Tabletop Referee", size=1.5, color=ACCENT, tag="title")
            places = cols((x + round(w * 0.46), y, w - round(w * 0.46), bar), 2, gap)
        v.button(places[0], tr("Earlier games"), "games", tag="games", group="top")
        v.button(places[1], "English" if language() == "de" else "Deutsch", "lang", tag="lang", group="top")
        y += bar + gap
        parts = len(unplugged_parts(self.app.scanners_down))
        y = self._warning(v, (x, y, w, v.lines_height(2 * parts) if g.portrait else bar), gap)
        y = self._paused(v, g, (x, y, w, v.lines_height(5) if g.portrait else 2 * bar), gap)
        self._games(v, g, (x, y, w, height - margin - y), gap)
        return v

    def _warning(self, v: View, rect: tuple[int, int, int, int], gap: int) -> int:
        """An unplugged scanner or camera: a strip of its own under the top bar; returns the next free y."""
        text = unplugged_warning(self.app.scanners_down)
        if not text:
            return rect[1]
        x, y, w, h = rect
        side = min(h, round(v.limits.touch))
        v.box((x, y, w, h), TURN_FILL, tag="warning")
        v.icon((x + side // 4, y + (h - side // 2) // 2, side // 2, side // 2), "warn", DARK_INK, tag="warning-icon")
        v.text((x + side, y, w - side, h), text, color=DARK_INK, fill=TURN_FILL, tag="warning")
        return y + h + gap

    def _paused(self, v: View, g: Grid, rect: tuple[int, int, int, int], gap: int) -> int:
        """The game the idle pause stopped: what it is, and a large "Resume"; returns the next free y."""
        if self.paused is None:
            return rect[1]
        _row, title, players = self.paused
        x, y, w, h = rect
        if g.portrait:  # the sentence over the button
            upper, lower = (x, y, w, h), (x, y + h + gap, w, round(v.limits.touch * 1.5))
            h += gap + lower[3]
            v.box((x, y, w, h), PANEL, tag="paused")
            v.text(upper, tr("Your game is paused: {game} with {players}.", game=title, players=", ".join(players)),
                   color=INK, align="center", tag="paused-text")
            v.button(lower, tr("Resume"), "resume", fill=GOOD, tag="resume", size=1.6)
        else:
            v.box((x, y, w, h), PANEL, tag="paused")
            left, right = (x, y, round(w * 0.6), h), (x + round(w * 0.6) + gap, y, w - round(w * 0.6) - gap, h)
            v.text(left, tr("Your game is paused: {game} with {players}.", game=title, players=", ".join(players)),
                   color=INK, tag="paused-text")
            v.button(right, tr("Resume"), "resume", fill=GOOD, tag="resume", size=1.6)
        return y + h + gap

    def _games(self, v: View, g: Grid, rect: tuple[int, int, int, int], gap: int) -> None:
        """One button per game: title and player counts; two columns of titles where rows would get too low."""
        ids = kiosk.games.ids()
        x, y, w, h = rect
        least = v.limits.touch
        line = v.lines_height(1)
        if len(ids) * (least + gap) + line + gap <= h:
            v.text((x, y, w, line), tr("Choose a game"), color=MUTED)
            y, h = y + line + gap, h - line - gap
        if len(ids) * (least + gap) - gap <= h:
            cells = rows((x + round(w * 0.05), y, round(w * 0.9), h), max(1, len(ids)), gap)
            labels = [games.get(i).title + "  ·  " + tr("{players} players", players=players_span(i)) for i in ids]
        else:  # short of room (the paused game above): titles only, two columns
            per_col = -(-len(ids) // 2)
            cells = [cell for col in cols((x, y, w, h), 2, gap) for cell in rows(col, per_col, gap)]
            labels = [games.get(i).title for i in ids]
        for game_id, label, cell in zip(ids, labels, cells, strict=False):
            v.button(cell, label, f"game:{game_id}", tag=f"game:{game_id}", group="games")

    def on_action(self, action: str) -> None:
        self.since = time.monotonic()
        if action == "lang":
            self.app.toggle_language()
        elif action == "games":
            self.app.show(GamesScreen(self.app, self))
        elif action == "resume" and self.paused is not None:
            self.app.resume_game(self.paused[0])
        elif action.startswith("game:"):
            self.app.show(SetupScreen(self.app, action.split(":", 1)[1]))

    def on_tick(self, now: float) -> bool:
        idle = self.app.settings.demo_after_s
        if idle and self.paused is None and now - self.since >= idle:  # a paused game's notice waits for its players
            self.app.show(DemoScreen(self.app))
            return True
        return False

    def next_wakeup(self) -> float | None:
        idle = self.app.settings.demo_after_s
        return self.since + idle if idle and self.paused is None else None

    def model(self) -> dict:
        return {"screen": self.name, "paused": self.paused[0] if self.paused else None,
                "warning": unplugged_warning(self.app.scanners_down)}
