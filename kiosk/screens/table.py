"""The table screen: whose turn, what may come next and why, the cards on the table, seats, the last verdict.

Read from the chairs: seat tiles carry the name and the score as a large number, the seat on
turn is marked by a light fill, a thick frame and an arrow (not by colour alone). A verdict
is an icon and a shape as well as a colour: an outlined panel with ✓ for accepted, a filled
panel with ✗ for rejected, saying what to do; after a few seconds it fades to a neutral
prompt. A decided ALLE race fills the screen for a moment. An unplugged scanner shows a
banner naming its seat until it is back. Each verdict, race and game end also plays its cue.
"""

from __future__ import annotations

import time

from hw.camera.zones import READER as CAMERA
from hw.inputs import ButtonPress, CardScan, ReaderError
from kiosk.app.audio import Cue
from kiosk.app.controller import Feedback, TableController
from kiosk.drawing.view import (
    ACCENT,
    BAD_FILL,
    BG,
    BUTTON,
    DARK_INK,
    GOOD,
    INK,
    MUTED,
    PANEL,
    TURN_FILL,
    Grid,
    Rect,
    View,
)
from kiosk.games import RaceShown
from kiosk.i18n import language, tr, trn
from kiosk.screens import Host, Screen
from kiosk.screens.confirm import held_to_leave, leave_question
from kiosk.screens.help import HelpScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.results import results_view

VERDICT_S = 5.0  # a verdict stays this long, then the screen returns to its neutral prompt
RACE_RESULT_S = 2.5  # a decided race fills the screen this long


class Layout:
    """Where the table screen's parts go: landscape (seats on the right) or portrait (seats in the middle).

    Whose turn it is spans the full width in both, so a long name still fits at 32 px capitals."""

    def __init__(self, g: Grid):
        if g.portrait:
            self.title, self.help, self.history = g.r(0.03, 0.01, 0.2, 0.06), g.r(0.245, 0.01, 0.10, 0.06), \
                g.r(0.365, 0.01, 0.195, 0.06)
            self.leave, self.lang = g.r(0.58, 0.01, 0.15, 0.06), g.r(0.75, 0.01, 0.225, 0.06)
            self.turn = g.r(0.03, 0.07, 0.94, 0.125)
            self.turn_lines = 2
            self.hints = g.r(0.03, 0.2, 0.94, 0.12)
            self.cards = g.r(0.03, 0.325, 0.94, 0.12)
            self.extra = g.r(0.03, 0.448, 0.94, 0.03)
            self.seats = g.r(0.03, 0.482, 0.94, 0.21)
            self.verdict = g.r(0.03, 0.70, 0.94, 0.155)
            self.actions = g.r(0.03, 0.865, 0.94, 0.125)
            self.seat_cols = 2
            self.hint_rows = 2
        else:
            self.title, self.help, self.history = g.r(0.02, 0.01, 0.27, 0.11), g.r(0.31, 0.01, 0.08, 0.11), \
                g.r(0.41, 0.01, 0.18, 0.11)
            self.leave, self.lang = g.r(0.61, 0.01, 0.17, 0.11), g.r(0.80, 0.01, 0.18, 0.11)
            self.turn = g.r(0.02, 0.125, 0.96, 0.115)
            self.turn_lines = 1
            self.hints = g.r(0.02, 0.245, 0.64, 0.12)
            self.cards = g.r(0.02, 0.37, 0.64, 0.245)
            self.extra = g.r(0.02, 0.615, 0.64, 0.055)
            self.seats = g.r(0.68, 0.245, 0.3, 0.425)
            self.verdict = g.r(0.02, 0.68, 0.96, 0.17)
            self.actions = g.r(0.02, 0.865, 0.96, 0.125)
            self.seat_cols = 1
            self.hint_rows = 2

    def crowded(self, g: Grid) -> None:
        """More than four seats in landscape: two columns of tiles, a wider seat area, a narrower left column."""
        if g.portrait:
            return
        self.hints = g.r(0.02, 0.245, 0.54, 0.12)
        self.cards = g.r(0.02, 0.37, 0.54, 0.245)
        self.extra = g.r(0.02, 0.615, 0.54, 0.055)
        self.seats = g.r(0.58, 0.245, 0.4, 0.425)


def rows(rect: Rect, n: int, gap: int) -> list[Rect]:
    x, y, w, h = rect
    each = (h - gap * (n - 1)) / max(n, 1)
    return [(x, round(y + i * (each + gap)), w, round(each)) for i in range(n)]


def cols(rect: Rect, n: int, gap: int) -> list[Rect]:
    x, y, w, h = rect
    each = (w - gap * (n - 1)) / max(n, 1)
    return [(round(x + i * (each + gap)), y, round(each), h) for i in range(n)]


class TableScreen(Screen):
    name = "table"

    @property
    def takes_scans(self) -> bool:  # type: ignore[override]
        """The results screen takes no more cards (the kiosk answers a scan there with the "rejected" cue)."""
        return not self.controller.finished

    def __init__(self, app: Host, controller: TableController):
        super().__init__(app)
        self.controller = controller
        self._race_key: tuple = ()
        self._race_until = 0.0
        self._redraw_at: float | None = None  # when what is drawn now runs out (a verdict, a race result)

    # --- drawing

    def view(self, width: int, height: int) -> View:
        c = self.controller
        now = time.monotonic()
        race = c.ui.race(c.state)
        if race is not None and not race.open and race.key != self._race_key:
            self._race_key, self._race_until = race.key, now + RACE_RESULT_S
        self._redraw_at = None
        if race is not None and not race.open and now < self._race_until:
            self._redraw_at = self._race_until
            return self._race_result(width, height, race)
        if c.finished:
            return self._results(width, height)
        g = Grid(width, height)
        v = View(width, height)
        lay = Layout(g)
        if len(c.ui.players) > 4:
            lay.crowded(g)
        gap = round(v.limits.gap * 1.5)
        state = c.state
        panel = c.ui.panel(state)
        v.text(lay.title, c.ui.title, size=0.8, color=MUTED, tag="title")
        v.button(lay.help, "?", "help", tag="help")
        v.button(lay.history, tr("History"), "history", tag="history")
        v.button(lay.leave, tr("Menu"), "leave", tag="leave")
        v.button(lay.lang, "English" if language() == "de" else "Deutsch", "lang", tag="lang")
        v.text(lay.turn, panel.headline, size=1.6, color=ACCENT, role="key", lines=lay.turn_lines, tag="turn")
        if race is not None and race.open:
            self._race_open(v, lay, race, gap)
        else:
            self._hints(v, lay, panel, gap)
            self._cards(v, lay, panel, gap)
        if panel.extra:
            v.text(lay.extra, " · ".join(panel.extra[:2]), size=0.6, color=MUTED, lines=1, tag="extra")
        self._seats(v, lay, panel, state, gap)
        self._feedback(v, lay, now)
        self._actions(v, lay, gap)
        self._banner(v, g)
        return v

    def _hints(self, v: View, lay: Layout, panel, gap: int) -> None:
        """What may come next: the screen's own notes (a collection in progress, the From toggle), then the
        referee's own sentence (`Referee.hints()`)."""
        said = self.controller.ui.hints.sentence(self.app.lang) if self.controller.ui.hints is not None else ""
        hints = ([panel.big] if panel.big else []) + panel.hints + ([said] if said else [])
        hints = hints[:lay.hint_rows]
        for i, (rect, hint) in enumerate(zip(rows(lay.hints, max(len(hints), 1), gap // 2), hints, strict=False)):
            big = i == 0 and bool(panel.big)
            v.text(rect, hint, size=0.9 if big else 0.75, color=ACCENT if big else INK, tag="big" if big else "hint")

    def _cards(self, v: View, lay: Layout, panel, gap: int) -> None:
        x, y, w, h = lay.cards
        if panel.lines:
            shown = panel.lines[:3]
            for rect, line in zip(rows(lay.cards, len(shown), 2), shown, strict=True):
                v.text(rect, line, size=0.6, lines=1, tag="table-line")
            return
        label_h = round(v.limits.cap / 0.73 * 1.25)
        v.text((x, y, w, label_h), panel.cards_title, size=0.6, color=MUTED, lines=1)
        shown = panel.cards[-4:]
        if not shown:
            v.text((x, y + label_h, w, h - label_h), "—", size=0.8, color=MUTED, tag="cards-empty")
            return
        row = (x, y + label_h, w, h - label_h)
        for rect, card in zip(cols(row, 4, gap // 2), shown, strict=False):
            cx, cy, cw, ch = rect
            owner_h = label_h if card.owner else 0
            v.card((cx, cy, cw, ch - owner_h), card.label, card.highlight, tag="card")
            if card.owner:
                v.text((cx, cy + ch - owner_h, cw, owner_h), card.owner, size=0.6, color=MUTED, align="center",
                       lines=1)

    def _race_open(self, v: View, lay: Layout, race: RaceShown, gap: int) -> None:
        """ALLE: everyone slaps; the slaps so far with their times from the first one."""
        x, y, w, h = lay.hints
        v.text((x, y, w, h // 2), tr("ALLE! Everyone slap!"), size=1.2, color=ACCENT, lines=1, tag="big")
        waiting = ", ".join(race.waiting) or "–"
        v.text((x, y + h // 2, w, h - h // 2), tr("Waiting for: {players}", players=waiting), size=0.7, tag="hint")
        slaps = [f"{p} {self._ms(t, i)}" for i, (p, t) in enumerate(race.slaps)]
        text = "   ".join(slaps) if slaps else tr("No slap yet.")
        v.text(lay.cards, text, size=0.9, tag="race-slaps")

    @staticmethod
    def _ms(t: int, i: int) -> str:
        return tr("first") if i == 0 else "+" + tr("{ms} ms", ms=t)

    def _seats(self, v: View, lay: Layout, panel, state, gap: int) -> None:
        """One tile per seat, row by row: one column (landscape, up to four seats) or two."""
        ui = self.controller.ui
        players = ui.players
        columns = lay.seat_cols if len(players) <= 4 else 2
        per_col = -(-len(players) // columns)
        tiles = [r for row in rows(lay.seats, per_col, gap) for r in cols(row, columns, gap)]
        for rect, player in zip(tiles, players, strict=False):
            self._tile(v, rect, player, ui.seat_score(state, player), panel.seat_lines.get(player, ""),
                       hot=player == state.get("turn"))

    def _tile(self, v: View, rect: Rect, player: str, score: str, detail: str, hot: bool) -> None:
        """A seat: the name, the score as a large number (32 px capitals), a detail line where there is room;
        the seat on turn by a light fill with dark ink, a thick frame and an arrow (shape as well as colour)."""
        x, y, w, h = rect
        key_line = round(v.limits.key_cap / 0.73 * 1.17)  # a line of key text (DejaVu: capitals 0.73 em)
        small_line = round(v.limits.cap / 0.73 * 1.17)
        pad = max(4, round(v.limits.gap))
        v.box(rect, TURN_FILL if hot else PANEL, tag=f"seat:{player}", outline=INK if hot else None,
              outline_px=max(3, round(v.limits.gap / 2)) if hot else 0)
        ink, muted = (DARK_INK, DARK_INK) if hot else (INK, MUTED)
        left = x + pad
        if hot:
            arrow = round(small_line * 0.9)
            v.icon((left, y + pad, arrow, arrow), "turn", DARK_INK, tag=f"seat-turn:{player}")
            left += arrow + pad // 2
        number_w = round(key_line * 0.8 * max(len(score), 1)) + pad
        if h >= key_line + small_line * 2 + pad and w < 3 * number_w:  # tall and narrow: name above the number
            v.text((left, y + pad // 2, x + w - pad - left, small_line + 4), player, size=0.8, color=ink, lines=1,
                   tag=f"seat-name:{player}")
            v.text((x + pad, y + small_line + pad, w - 2 * pad, key_line), score, size=2.0, color=ink, role="key",
                   lines=1, align="center", tag=f"seat-score:{player}")
            rest = h - small_line - pad - key_line
            if detail and rest >= small_line:
                v.text((x + pad, y + h - rest, w - 2 * pad, rest), detail, size=0.6, color=muted, align="center",
                       tag=f"seat-detail:{player}")
            return
        text_w = x + w - pad - number_w - left  # wide: name and detail on the left, the number on the right
        with_detail = bool(detail) and h >= 2 * small_line + pad and text_w >= 4 * small_line
        name_h = small_line + 6 if with_detail else h
        v.text((left, y + (pad // 2 if with_detail else 0), text_w, name_h), player, size=0.8, color=ink,
               lines=1 if with_detail else 2, tag=f"seat-name:{player}")
        if with_detail:
            v.text((x + pad, y + name_h, w - 2 * pad - number_w, h - name_h - 2), detail, size=0.6, color=muted,
                   tag=f"seat-detail:{player}")
        v.text((x + w - pad - number_w, y, number_w, h), score, size=2.0, color=ink, role="key", lines=1,
               align="right", tag=f"seat-score:{player}")

    def _feedback(self, v: View, lay: Layout, now: float) -> None:
        c = self.controller
        fb = c.feedback
        x, y, w, h = lay.verdict
        if fb is None or (c.pending is None and now - fb.at >= VERDICT_S):
            v.text(lay.verdict, self._prompt(), size=0.9, color=MUTED, align="center", tag="feedback")
            return
        if c.pending is None:
            self._redraw_at = fb.at + VERDICT_S
        if c.pending is not None and fb.ok and fb.note == c.pending.prompt:  # a question, not a verdict
            v.box(lay.verdict, PANEL, tag="question", outline=ACCENT, outline_px=max(3, round(h / 14)))
            v.text(lay.verdict, fb.note, size=1.0, color=INK, align="center", tag="feedback")
            return
        if fb.quiet:  # a note, not a verdict (a slap after the race closed): no panel, no icon
            v.text(lay.verdict, fb.note, size=0.8, color=MUTED, align="center", tag="feedback")
            return
        side = min(round(h * 0.7), round(w * 0.12))
        icon = (x + side // 4, y + (h - side) // 2, side, side)
        text = (x + side + side // 2, y, w - side - side // 2 - side // 8, h)
        if fb.ok:
            # Accepted: an outlined panel, a check mark, what was accepted from whom.
            v.box(lay.verdict, PANEL, tag="verdict:ok", outline=GOOD, outline_px=max(3, round(h / 14)))
            v.icon(icon, "ok", GOOD, tag="verdict-icon:ok")
            named = fb.event is not None and fb.event.get("type") != "undo"  # an undo says itself what went
            words = c.ui.verdict_words(fb.event) + " ✓" if named else fb.note
            v.text(text, words, size=1.0, color=INK if fb.event is None else GOOD, tag="feedback")
            return
        # Rejected: a filled panel, a cross, what to do in big words, the rule's sentence (guest words only: the
        # error id and the rule ids stay in the log, the export and the history's detail).
        v.box(lay.verdict, BAD_FILL, tag="verdict:no")
        v.icon(icon, "no", INK, tag="verdict-icon:no")
        if fb.rejection is None:
            v.text(text, fb.note, size=1.0, color=INK, tag="feedback")  # the drawn cross says it
            return
        sentence = fb.text(self.app.lang)
        tx, ty, tw, th = text
        todo = self._what_to_do(fb) + " ✗"
        top = round(th * 0.42)
        if v.height > v.width:  # portrait
            v.text((tx, ty, tw, top), todo, size=1.0, color=INK, tag="feedback-todo")
            v.text((tx, ty + top, tw, th - top), sentence, size=0.7, color=INK, tag="feedback")
            return
        # landscape: what to do on one line, the rule's sentence on two lines below
        v.text((tx, ty, tw, top), todo, size=1.0, color=INK, lines=1, tag="feedback-todo")
        v.text((tx, ty + top, tw, th - top), sentence, size=0.7, color=INK, lines=2, tag="feedback")

    def _what_to_do(self, fb: Feedback) -> str:
        """A rejection's first words: what the table does now."""
        event = fb.event or {}
        turn = self.controller.state.get("turn")
        if "card" in event or "cards" in event:
            todo = tr("Take the card back")
        else:
            todo = tr("Nothing changed")
        return tr("{todo} – {player} is to play", todo=todo, player=turn) if turn else todo

    def _prompt(self) -> str:
        """The neutral prompt once a verdict has faded; the first scan of a new game gets a coach line."""
        if not self.controller.referee.history:
            return tr("Lay a card on the table and scan it.")
        return tr("Scan a card.")

    def _actions(self, v: View, lay: Layout, gap: int) -> None:
        c = self.controller
        if c.pending is not None:
            options = c.pending.options
            slots = cols(lay.actions, max(len(options) + 1, 4), gap)
            for i, (label, _) in enumerate(options):
                v.button(slots[i], label, f"choose:{i}", fill=GOOD, tag="choice")
            v.button(slots[-1], tr("Cancel"), "cancel", tag="choice-cancel")
            return
        actions = c.ui.actions(c.state)
        if not actions:
            return
        slots = cols(lay.actions, max(len(actions), 4), gap)
        for rect, action in zip(slots, actions, strict=False):
            v.button(rect, action.label, f"act:{action.key}", fill=BUTTON, tag="action")

    def _banner(self, v: View, g: Grid) -> None:
        """An unplugged scanner: a lasting banner naming its seat, until it is back."""
        down = self.app.scanners_down
        if not down:
            return
        names = [self.controller.player_for_seat(seat) or seat or reader for reader, seat in sorted(down.items())
                 if reader != CAMERA]
        texts = [trn("The scanner of {seat} is disconnected – check the cable.",
                      "The scanners of {seat} are disconnected – check the cables.", len(names),
                      seat=", ".join(names))] if names else []
        if CAMERA in down:  # the overhead camera is missing or sends no pictures; it comes back by itself
            texts.append(tr("Camera sends no pictures – check its cable"))
        text = " · ".join(texts)
        rect = g.r(0.0, 0.0, 1.0, 0.12) if not g.portrait else g.r(0.0, 0.0, 1.0, 0.07)
        v.text(rect, text, size=0.9, color=DARK_INK, fill=TURN_FILL, align="center", lines=1, tag="banner")
        h = rect[3]
        v.icon((rect[0] + h // 4, rect[1] + h // 4, h // 2, h // 2), "warn", DARK_INK, tag="banner-icon")

    def _race_result(self, width: int, height: int, race: RaceShown) -> View:
        """A decided race, full-screen: the loser's name huge with the penalty, every slap's time from the first;
        the table's touch buttons stay live at the bottom (play goes on), any other touch ends it early."""
        g = Grid(width, height)
        v = View(width, height)
        p = g.portrait
        # (y, height) of each part as fractions: title, loser, penalty, reason, slaps
        title, name, pen, why, area = ((0.01, 0.06), (0.07, 0.18), (0.26, 0.09), (0.355, 0.055), (0.42, 0.43)) if p \
            else ((0.01, 0.08), (0.09, 0.24), (0.34, 0.12), (0.465, 0.065), (0.54, 0.31))
        v.box((0, 0, width, height), BG)
        v.text(g.r(0.04, *title[:1], 0.92, title[1]), tr("ALLE race"), size=0.8, color=MUTED, align="center",
               lines=1, tag="title")
        v.text(g.r(0.04, name[0], 0.92, name[1]), ", ".join(race.losers) or "–", size=4.0, color=INK,
               fill=BAD_FILL, align="center", role="key", lines=1, tag="race-loser")
        penalty = trn("+{n} card", "+{n} cards", race.penalty) if race.losers else ""
        v.text(g.r(0.04, pen[0], 0.92, pen[1]), penalty, size=2.2, color=ACCENT, align="center", role="key",
               lines=1, tag="race-penalty")
        v.text(g.r(0.04, why[0], 0.92, why[1]), race.reason, size=0.8, color=INK, align="center", lines=1,
               tag="race-reason")
        slaps = race.slaps
        columns = 2 if len(slaps) > 3 and not p else 1
        per_col = max(-(-len(slaps) // columns), 2)
        gap = round(v.limits.gap)
        places = [r for column in cols(g.r(0.04, area[0], 0.92, area[1]), columns, gap * 2)
                  for r in rows(column, per_col, gap)]
        for i, (rect, (player, t)) in enumerate(zip(places, slaps, strict=False)):
            lost = player in race.losers
            v.text(rect, f"{player}   {self._ms(t, i)}", size=0.9, color=INK, fill=BAD_FILL if lost else PANEL,
                   align="center", lines=1, tag="race-slap:" + player)
        self._actions(v, Layout(g), round(v.limits.gap * 1.5))
        v.anywhere = "race-done"
        return v

    def _results(self, width: int, height: int) -> View:
        return results_view(self.controller, width, height)

    # --- reacting

    def on_touch(self, action: str, held: float) -> None:
        if action == "leave" and held_to_leave(held):  # one hold on "Menu" leaves (issue #26)
            self.app.leave_game(self.controller, new_game=False)
            return
        self.on_action(action)

    def on_action(self, action: str) -> None:
        c = self.controller
        before = self._moment()
        kind, _, arg = action.partition(":")
        if kind == "choose":
            c.choose(int(arg))
        elif kind == "cancel":
            c.cancel_choice()
        elif kind == "act":
            c.action(arg)
        elif kind == "race-done":
            self._race_until = 0.0
        elif kind == "lang":
            self.app.toggle_language()
        elif kind == "history":
            self.app.show(HistoryScreen(self.app, self, c.game_row, c))
        elif kind == "help":
            self.app.show(HelpScreen(self.app, self, c.referee.header["game"]))
        elif kind == "leave":
            self.app.show(leave_question(self.app, self, c))
        elif kind == "rematch":
            self.app.rematch(c)
        elif kind == "menu":
            c.pause()  # the results are left: a restart shows the menu
            self.app.go_menu()
        self._cue(before)

    def on_input(self, item) -> None:
        c = self.controller
        before = self._moment()
        if isinstance(item, CardScan):
            c.scan(item.code, self.app.seat_of_reader(item.reader))
        elif isinstance(item, ButtonPress):
            c.button(item.seat, item.button, item.t_ns)
        elif isinstance(item, ReaderError) and item.reason not in ("disconnected", "reconnected"):
            c.reader_error()
        self._cue(before)

    def _moment(self) -> tuple:
        c = self.controller
        race = c.ui.race(c.state)
        return c.feedback, c.finished, race.open if race else None, race.key if race else None

    def _cue(self, before: tuple) -> None:
        """The sound for what just changed: game end, race result, race start, else the verdict."""
        c = self.controller
        feedback, finished, race_open, race_key = before
        race = c.ui.race(c.state)
        cue: Cue | None = None
        if c.finished and not finished:
            cue = "game_end"
        elif race is not None and not race.open and (race_open or race.key != race_key):
            cue = "race_result"
        elif race is not None and race.open and not race_open:
            cue = "race_start"
        elif race is not None and race.open and race_open:
            cue = None  # slaps during a race: the race's own start and result cues say enough
        elif c.feedback is not feedback and c.feedback is not None and not c.feedback.quiet:
            cue = "accepted" if c.feedback.ok else "rejected"
        if cue is not None:
            self.app.cue(cue)

    def on_tick(self, now: float) -> bool:
        before = self._moment()
        changed = bool(self.controller.due_timers(now))
        if changed:
            self._cue(before)
        if self._redraw_at is not None and now >= self._redraw_at:
            self._redraw_at = None  # a verdict faded or a race result ran out: draw the screen again
            return True
        return changed

    def next_wakeup(self) -> float | None:
        times = [t for t in (self.controller.next_deadline(), self._redraw_at) if t is not None]
        return min(times) if times else None

    def model(self) -> dict:
        c = self.controller
        fb = c.feedback
        race = c.ui.race(c.state)
        return {
            "screen": self.name,
            "game": c.referee.header["game"],
            "state": c.state,
            "pending": None if c.pending is None else [label for label, _ in c.pending.options],
            "feedback": None if fb is None else {"ok": fb.ok, "error": fb.rejection.code if fb.rejection else None,
                                                 "text": fb.text(self.app.lang)},
            "race": None if race is None else {"open": race.open, "losers": race.losers, "slaps": race.slaps},
            "scanners_down": sorted(self.app.scanners_down),
            "events": len(c.referee.history),
            "at": time.time(),
        }
