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
from hw.inputs import ButtonPress, CardScan, Input, ReaderNews
from kiosk.app.audio import Cue
from kiosk.app.controller import Feedback, TableController
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BUTTON, DARK_INK, GOOD, INK, MUTED, TURN_FILL, Grid, Rect, Role, View, ui_scale
from kiosk.games import Panel, RaceShown, Shown
from kiosk.games.event_words import rejection_words
from kiosk.i18n import language, tr, trn
from kiosk.screens import Host, Screen
from kiosk.screens.confirm import held_to_leave, leave_question
from kiosk.screens.help import HelpScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.results import CELEBRATION_S, CONFETTI_FPS, results_view
from kiosk.screens.table.cards import Title, card_row
from kiosk.screens.table.layout import Stack, cols
from kiosk.screens.table.race import race_open, race_result
from kiosk.screens.table.seats import draw_seats, low_fits, seat_width, seats_least
from kiosk.screens.table.verdict import Said, Verdict, draw_verdict, rejection_height, verdict_height

VERDICT_S = 5.0  # a verdict stays this long, then the screen returns to its neutral prompt
RACE_RESULT_S = 3.5  # a decided race fills the screen this long (every loser and every time read)


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
        self._ended_at: float | None = None  # when the results first showed (the winner's moment counts from it)

    # --- drawing

    def view(self, width: int, height: int) -> View:
        """The parts from the top down: buttons (and the title), the scanner strip, whose turn; from the bottom up:
        the touch actions and the verdict; between them what may come next, the cards, the last trick and the
        seats. Every part is measured (`kiosk.drawing.render.measure`) for what it says now, so each text fits whole at
        its role's size; what finds no room is left out (the history and the help say it all)."""
        c = self.controller
        now = time.monotonic()
        race = c.ui.race(c.state)
        if race is not None and not race.open and race.key != self._race_key:
            self._race_key, self._race_until = race.key, now + RACE_RESULT_S
        self._redraw_at = None
        if race is not None and not race.open and now < self._race_until:
            self._redraw_at = self._race_until
            return race_result(width, height, race, self._actions)
        if c.finished:
            return self._results(width, height)
        verdict = self._verdict(now)
        v, panel = self._table(width, height, now, race, verdict)
        if verdict.card is not None and _shown(v, panel) < _whole(panel):
            # the table's own rows before the verdict's picture of its card — where words for that card give them
            # room: said in words the verdict may take a second line and leave the table even less
            words, _ = self._table(width, height, now, race, self._verdict(now, pictures=False))
            if _shown(words, panel) > _shown(v, panel):
                return words
        return v

    def _table(self, width: int, height: int, now: float, race: RaceShown | None, verdict: Verdict
               ) -> tuple[View, Panel]:
        """The table as `view` says, with this verdict."""
        c = self.controller
        g = Grid(width, height)
        v = View(width, height)
        lim = v.limits
        gap = round(lim.gap * 1.5)
        margin = round(width * (0.03 if g.portrait else 0.02))
        full = width - 2 * margin
        panel = c.ui.panel(c.state)
        y = self._top(v, g, margin, gap)
        y = self._banner(v, y, margin, gap)
        headline, hints = self._said(panel, full, lim.key_cap)
        turn_h = min(measure.height(headline, full, lim.key_cap), 2 * measure.line(lim.key_cap) + 2)
        v.text((margin, y, full, turn_h), headline, size=1.6, color=ACCENT, role="key", tag="turn")
        y += turn_h + gap // 2
        prompt = verdict.kind == "prompt"  # no verdict now: the prompt only takes room the table leaves free
        middle, (verdict_x, verdict_w, verdict_h) = self._arrange(v, g, y, margin, gap, panel, verdict)
        if race is not None and race.open:
            used, changes = race_open(v, middle, race, gap, now)
            if changes is not None:  # the countdown: drawn again when its number changes
                self._redraw_at = min(changes, self._redraw_at or changes)
        else:
            keep = verdict_h + gap // 2 if prompt else 0
            # the cards are sized for the room a rejection's panel would leave: they stay as they are when one comes
            grows = max(0, rejection_height(v, verdict_w) + (gap if prompt else 0) - (0 if prompt else verdict_h))
            used = self._middle_fitted(v, middle, panel, hints, gap, keep, grows)
        free_to = middle[1] + middle[3]
        if prompt and free_to - used >= verdict_h:
            draw_verdict(v, (verdict_x, free_to - verdict_h, verdict_w, verdict_h), verdict)
        return v, panel

    def _arrange(self, v: View, g: Grid, y: int, margin: int, gap: int, panel: Panel, verdict: Verdict
                 ) -> tuple[Rect, tuple[int, int, int]]:
        """Under whose turn: the actions at the bottom, the verdict above them (a prompt waits, see `view`),
        the seats (landscape: a column on the right, the actions moving left where the seats need the height;
        portrait: above the verdict). Returns the room left for the middle and the verdict's x, width, height."""
        c = self.controller
        full = g.w - 2 * margin
        end = g.h - max(2, gap // 3)
        bottom = self._actions(v, margin, full, end, gap)
        if g.portrait:
            verdict_w = full
        else:
            seat_w = seat_width(v, g, c.ui, c.state, gap)
            verdict_w = full - seat_w - gap
            columns = 1 if len(c.ui.players) <= 4 else 2
            seats_end = bottom
            if bottom - y < seats_least(v, len(c.ui.players), columns, gap):  # the seats need the height:
                # the actions go left, under the verdict
                v.elements = [e for e in v.elements if not (e.kind == "button" and e.rect[1] >= bottom)]
                bottom, seats_end = self._actions(v, margin, verdict_w, end, gap), end
            draw_seats(v, (g.w - margin - seat_w, y, seat_w, seats_end - y), c.ui, panel, c.state, gap, columns=columns)
        verdict_h = verdict_height(v, verdict, verdict_w)
        if g.portrait and not low_fits(v, full, c.ui, c.state, gap, 2):  # names too long for low tiles: the seats
            verdict_h = verdict_height(v, verdict, verdict_w, steady=False)  # need the room more than a steady verdict
        if verdict.kind != "prompt":
            draw_verdict(v, (margin, bottom - verdict_h, verdict_w, verdict_h), verdict)
            bottom -= verdict_h + gap
        if g.portrait:
            bottom -= draw_seats(v, (margin, y, full, bottom - y), c.ui, panel, c.state, gap, columns=2,
                             from_bottom=True) + gap
        return (margin, y, verdict_w, bottom - y), (margin, verdict_w, verdict_h)

    def _top(self, v: View, g: Grid, margin: int, gap: int) -> int:
        """The touch buttons at the top right, as wide as their words; the game's title beside them, or on a
        line of its own below them where it does not fit beside (portrait). Returns where the next part starts."""
        lim = v.limits
        bar_h = max(round(lim.touch), round(g.h * (0.06 if g.portrait else 0.105)))
        top = round(g.h * 0.01)
        pad = max(4, round(6 * ui_scale(g.w, g.h)))
        buttons = [("?", "help"), (tr("History"), "history"), (tr("Menu"), "leave"),
                   ("English" if language() == "de" else "Deutsch", "lang")]
        space = round(lim.gap * 1.5)
        # each button as wide as its word (at the floor size; drawn larger where that fits) plus some air
        words = [max(round(lim.touch), measure.width(label, lim.cap) + 2 * pad + 8) for label, _ in buttons]
        air = max(0, min(round(lim.gap * 2), (g.w - 2 * margin - sum(words) - space * 3) // len(words)))
        x = g.w - margin
        for (label, action), word in zip(reversed(buttons), reversed(words), strict=True):
            w = word + air
            x -= w
            v.button((x, top, w, bar_h), label, action, tag=action)
            x -= space
        title = self.controller.ui.title
        y = top + bar_h + gap // 2
        if measure.width(title, lim.cap) + 6 <= x - margin:
            v.text((margin, top, x - margin, bar_h), title, size=0.8, color=MUTED, lines=1, tag="title")
            return y
        title_h = measure.line(lim.cap) + 2
        v.text((margin, y, g.w - 2 * margin, title_h), title, size=0.8, color=MUTED, lines=1, tag="title")
        return y + title_h + gap // 3

    def _said(self, panel: Panel, width: int, key_cap: float) -> tuple[str, list[str]]:
        """The headline and the hints under it, saying whose turn it is once (issue #37): where the referee's
        sentence starts with the player on turn, its first sentence is the headline if it fits one line ("Anna
        spielt aus."), else the headline stays "Anna ist am Zug" and the sentence goes on without her name."""
        c = self.controller
        said = c.ui.hints.sentence(self.app.lang) if c.ui.hints is not None else ""
        notes = ([panel.big] if panel.big else []) + panel.hints
        turn = c.state.get("turn")
        if said.rstrip(".") == panel.headline.rstrip("."):  # "Startkarte scannen" once, not twice
            said = ""
        if not (said and turn and said.startswith(f"{turn} ") and panel.headline == c.ui.turn_text(c.state)):
            return panel.headline, notes + ([said] if said else [])
        first, dot, rest = said.partition(". ")
        if measure.lines(first + dot.strip(), width, key_cap) == 1:
            return first + dot.strip(), notes + ([rest.strip()] if rest.strip() else [])
        without = said[len(turn) + 1:]
        return panel.headline, [*notes, without[:1].upper() + without[1:]]

    def _middle_fitted(self, v: View, rect: Rect, panel: Panel, hints: list[str], gap: int, keep: int,
                       grows: int = 0) -> int:
        """The middle, its hint line said shorter where it and the cards on the table would not both find room: an
        explanation in brackets at its end gives way first (ANNAOTTO's "(colour, pattern or sign)": the pile's
        picture shows them), then its last sentences, one by one (alcasan's "Or take the pile." — the button says
        it too)."""
        mark = len(v.elements)
        used = self._middle(v, rect, panel, hints, gap, keep, grows)
        at = 1 if panel.big else 0  # the hint line: the first after a message the whole table must see
        first = hints[at] if len(hints) > at else ""
        while first and ((panel.cards and not v.tagged("card")) or not any(e.text == first for e in v.tagged("hint"))) \
                and (shorter := _shorter(first)) is not None:
            first = shorter
            del v.elements[mark:]
            used = self._middle(v, rect, panel, [*hints[:at], first, *hints[at + 1:]], gap, keep, grows)
        return used

    def _middle(self, v: View, rect: Rect, panel: Panel, hints: list[str], gap: int, keep: int = 0,
                grows: int = 0) -> int:
        """A message the whole table must see, the cards on the table, what may come next (the hint line) and the
        screen's notes, a sheet's rows, the last trick, then the counts; each in whole or not at all, the last
        trick always. Returns where the free room under them starts."""
        lim = v.limits
        x, y, w, h = rect
        trick_h = measure.height(panel.trick, w, lim.cap) if panel.trick else 0
        stack = Stack((x, y, w, h - (trick_h + gap // 2 if trick_h else 0)), gap // 2)
        rest = hints
        if panel.big and hints and hints[0] == panel.big:
            place = stack.take(measure.height(panel.big, w, lim.lead_cap))
            if place is not None:
                v.text(place, panel.big, size=0.9, color=ACCENT, role="lead", tag="big")
            rest = hints[1:]
        cards_first = bool(panel.cards) and not panel.lines  # what lies on the table first; a sheet after the notes
        if cards_first:  # drawn first, leaving the hint line its room (the referee says what may come next), sized
            # for the room left when the verdict `grows` to a rejection's panel, so they stay as they are then
            hint_h = measure.height(rest[0], w, lim.cap_for("" if panel.big else "lead")) + gap // 2 if rest else 0
            stack.bottom -= hint_h + grows
            self._cards(v, stack, panel, gap)
            stack.bottom += grows
            if not v.tagged("card"):  # the cards before a steady layout: sized for the room there is now
                self._cards(v, stack, panel, gap)
            stack.bottom += hint_h
        for i, hint in enumerate(rest):  # the hint line at 4 mm capitals, the notes under it at 3 mm
            role: Role = "lead" if i == 0 and not panel.big else ""
            place = stack.take(measure.height(hint, w, lim.cap_for(role)))
            if place is not None:
                v.text(place, hint, size=0.75, color=INK, role=role, tag="hint")
        if not cards_first:
            self._cards(v, stack, panel, gap)
        if trick_h:  # the last trick: its words always, its cards where they find room
            stack.bottom += trick_h + gap // 2
            title = Title(panel.trick, INK, 0.7, "trick")
            if not (panel.trick_cards and card_row(v, stack, title, panel.trick_cards, gap, tag="trick-card")):
                v.text((x, stack.y, w, trick_h), panel.trick, size=0.7, color=INK, tag="trick")
                stack.y += trick_h + gap // 2
        if stack.bottom - stack.y >= keep:  # the counts only where the prompt still finds its room under them
            stack.bottom -= keep
        for line in panel.extra:
            place = stack.take(measure.height(line, w, lim.cap))
            if place is not None:
                v.text(place, line, size=0.6, color=MUTED, tag="extra")
        return stack.y

    def _cards(self, v: View, stack: Stack, panel: Panel, gap: int) -> None:
        """The cards on the table (pictures, or words for a game that draws no faces; newest on the right), or
        the game's table rows (a task sheet, melds), as many as fit."""
        if panel.lines:
            for line in panel.lines:
                place = stack.take(measure.height(line, stack.w, v.limits.cap))
                if place is None:
                    return
                v.text(place, line, size=0.6, tag="table-line")
            return
        card_row(v, stack, Title(panel.cards_title), panel.cards, gap)

    def _verdict(self, now: float, pictures: bool = True) -> Verdict:
        """The verdict panel's content now: a verdict for a few seconds after an input, else the neutral prompt."""
        c = self.controller
        fb = c.feedback
        if fb is None or (c.pending is None and now - fb.at >= VERDICT_S):
            return Verdict("prompt", (Said(self._prompt(), "lead", 0.9, MUTED),))
        if c.pending is None:
            self._redraw_at = fb.at + VERDICT_S
        if c.pending is not None and fb.ok and fb.note == c.pending.prompt:  # a question, not a verdict
            return Verdict("question", (Said(fb.note, "lead", 1.0),))
        if fb.quiet:  # a note, not a verdict (a slap after the race closed): no panel, no icon
            return Verdict("quiet", (Said(fb.note, "lead", 0.8, MUTED),))
        if fb.ok:  # the drawn check mark says it (no second ✓ in the words)
            if fb.event is not None and fb.event.get("type") != "undo":  # an undo says itself what went
                card = self._verdict_card(fb.event) if pictures else None
                text = c.ui.verdict_words(fb.event) if card is None else c.ui.verdict_player(fb.event)
                return Verdict("ok", (Said(text, "lead", 1.0, GOOD),), card)
            return Verdict("ok", self._note(fb.note))
        if fb.rejection is None:
            return Verdict("no", (Said(fb.note, "lead", 1.0),))  # the drawn cross says it
        # Rejected: what to do first, then the rule's plain sentence (its ids are in the history, for staff).
        sentence = self._said_of(fb)
        card = self._verdict_card(fb.event) if pictures else None
        return Verdict("no", (Said(self._what_to_do(fb), "lead", 1.0, INK, "feedback-todo"),
                              Said(sentence, "", 0.7, INK, "feedback")), card)

    def _said_of(self, fb: Feedback) -> str:
        """What the guests read of a verdict: a rejection's sentence (a foreign card named by its game), or the note."""
        if fb.rejection is None:
            return fb.text(self.app.lang)
        return rejection_words(fb.rejection, self.app.lang, self.controller.referee.header["game"])

    def _verdict_card(self, event: dict | None) -> Shown | None:
        """The one card an event laid, as the verdict shows it beside its words (a game that draws its faces, or the
        game a foreign card belongs to); None for events without exactly one card."""
        event = event or {}
        laid = event.get("cards") or ([event["card"]] if "card" in event else [])
        if len(laid) != 1 or not isinstance(laid[0], str):
            return None
        shown = self.controller.ui.shown(laid[0])
        return shown if shown.face is not None else None

    def _note(self, note: str) -> tuple[Said, ...]:
        """A note in the verdict panel: its first sentence as the lead line, the rest smaller under it, left out
        where the screen says it already (a collection's note repeats the hint line)."""
        first, dot, rest = note.partition(". ")
        rest = rest.strip()
        c = self.controller
        said = c.ui.hints.sentence(self.app.lang) if c.ui.hints is not None else ""
        if not rest or rest in (*c.ui.panel(c.state).hints, said):
            return (Said(first + (dot.strip() if rest else ""), "lead", 1.0),)
        return Said(first + dot.strip(), "lead", 1.0), Said(rest, "", 0.7, INK, "feedback-more")

    @staticmethod
    def _what_to_do(fb: Feedback) -> str:
        """A rejection's first words: what the table does now (whose turn it is, the headline says)."""
        event = fb.event or {}
        return tr("Take the card back") if "card" in event or "cards" in event else tr("Nothing changed")

    def _prompt(self) -> str:
        """The neutral prompt once a verdict has faded; the first scan of a new game gets a coach line."""
        if not self.controller.referee.history:
            return tr("Lay a card on the table and scan it.")
        return tr("Scan a card.")

    # --- touch actions and the scanner strip

    def _actions(self, v: View, x: int, w: int, bottom: int, gap: int) -> int:
        """The touch actions (or a question's answers) in a row ending at `bottom`, as high as their longest
        label needs wrapped; returns the row's top (`bottom` when there is none)."""
        c = self.controller
        if c.pending is not None:
            items = [(label, f"choose:{i}", GOOD, "choice") for i, (label, _) in enumerate(c.pending.options)]
            items.append((tr("Cancel"), "cancel", BUTTON, "choice-cancel"))
        else:
            items = [(a.label, f"act:{a.key}", BUTTON, "action") for a in c.ui.actions(c.state)]
        if not items:
            return bottom
        lim = v.limits
        pad = max(4, round(6 * ui_scale(v.width, v.height)))
        word = max(measure.width(part, lim.cap) for label, *_ in items for part in label.split())
        room = max(1, (w + gap) // (word + 2 * pad + 16 + gap))  # as many slots as keep every word whole
        per_row = min(len(items), room) if len(items) > room else max(len(items), min(4, room))
        slots = cols((x, 0, w, 0), per_row, gap)
        lines = -(-len(items) // per_row)  # more answers than slots: a second row
        need = max(measure.lines(label, slots[0][2], lim.cap, pad) for label, *_ in items)
        if need > 1 and len(items) < per_row:  # fewer buttons than slots: wider ones, where that saves a line
            wide = cols((x, 0, w, 0), len(items), gap)
            wide_need = max(measure.lines(label, wide[0][2], lim.cap, pad) for label, *_ in items)
            if wide_need < need:
                per_row, slots, need = len(items), wide, wide_need
        h = max(round(lim.touch * 1.15), need * measure.line(lim.cap) + 2 + round(lim.gap))
        top = bottom - lines * h - (lines - 1) * gap
        for i, (label, action, fill, tag) in enumerate(items):
            sx, _, sw, _ = slots[-1] if i == len(items) - 1 and lines == 1 and c.pending is not None \
                else slots[i % per_row]
            v.button((sx, top + (i // per_row) * (h + gap), sw, h), label, action, fill=fill, tag=tag)
        h = bottom - top
        return bottom - h - gap // 2

    def _banner(self, v: View, y: int, margin: int, gap: int) -> int:
        """An unplugged scanner or a silent camera: a strip of its own under the buttons, naming the seat, until
        it is back; it pushes the table down and covers nothing. Returns where the next part starts."""
        down = self.app.scanners_down
        if not down:
            return y
        names = [self.controller.player_for_seat(seat) or seat or reader for reader, seat in sorted(down.items())
                 if reader != CAMERA]
        texts = [trn("Scanner of {seat} unplugged – check the cable.",
                      "Scanners of {seat} unplugged – check the cables.", len(names),
                      seat=", ".join(names))] if names else []
        if CAMERA in down:  # the overhead camera is missing or sends no pictures; it comes back by itself
            texts.append(tr("Camera: no pictures – check the cable"))
        lim = v.limits
        line = measure.line(lim.cap)
        icon = round(line * 0.8)
        text_x = margin + icon + 2 * round(lim.gap)
        text_w = v.width - margin - text_x
        h = sum(measure.height(t, text_w, lim.cap) for t in texts) + round(lim.gap)
        v.box((0, y, v.width, h), TURN_FILL, tag="banner-strip")
        v.icon((margin + round(lim.gap) // 2, y + (h - icon) // 2, icon, icon), "warn", DARK_INK, tag="banner-icon")
        v.text((text_x, y, text_w, h), " · ".join(texts), size=0.8, color=DARK_INK,
               tag="banner")
        return y + h + gap // 2

    def _results(self, width: int, height: int) -> View:
        """The results; for a moment after the end the confetti falls (drawn again `CONFETTI_FPS` times a second)."""
        now = time.monotonic()
        if self._ended_at is None:
            self._ended_at = now
        elapsed = now - self._ended_at
        if elapsed < CELEBRATION_S:
            self._redraw_at = now + 1 / CONFETTI_FPS
        return results_view(self.controller, width, height, elapsed)

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

    def on_input(self, item: Input) -> None:
        c = self.controller
        before = self._moment()
        if isinstance(item, CardScan):
            c.scan(item.code, self.app.seat_of_reader(item.reader))
        elif isinstance(item, ButtonPress):
            c.button(item.seat, item.button, item.t_ns)
        elif isinstance(item, ReaderNews) and item.reason not in ("disconnected", "reconnected"):
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
                                                 "text": self._said_of(fb)},
            "race": None if race is None else {"open": race.open, "losers": race.losers, "slaps": race.slaps},
            "scanners_down": sorted(self.app.scanners_down),
            "lang": self.app.lang,  # the language the table speaks now (its questions' answers are in it)
            "events": len(c.referee.history),
            "at": time.time(),
        }


def _shown(v: View, panel: Panel) -> int:
    """How much of the table's own rows a layout shows: its lines, and its cards (counted as one row)."""
    return len(v.tagged("table-line")) + int(bool(panel.cards) and bool(v.tagged("card")))


def _whole(panel: Panel) -> int:
    """`_shown` of a layout with room for everything."""
    return len(panel.lines) + int(bool(panel.cards))


def _shorter(hint: str) -> str | None:
    """The hint line a step shorter (see `_middle_fitted`), or None where nothing may give way."""
    body = hint.rstrip(".")
    if body.endswith(")") and " (" in body:
        return body[:body.rindex(" (")] + "."
    if ". " in body:
        return hint[:body.rindex(". ") + 1]
    return None
