"""Admin → Café: this table's key fingerprint, joining a café without a shell, and how its link to the broker is.

Staff compare the fingerprint shown here with the one the hub's staff page lists as "waiting to join", accept
it there, and type the one-time code the hub then shows (`kiosk/app/joining.py`, `cafe/handover.py`). Once
joined, the screen says where the table publishes and why the broker refuses it, if it does (a certificate that
is not the café's, a password the broker does not take, no answer).
"""

from __future__ import annotations

from typing import Any

from cafe import handover
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD, BAD_FILL, BUTTON, GOOD, INK, MUTED, PANEL, Grid, View
from kiosk.i18n import N_, tr, trn
from kiosk.screens import Host, Screen, cells
from kiosk.screens.confirm import Answer, ConfirmScreen
from kiosk.screens.keyboard import KeyboardScreen

ADDRESS_ROWS = ["1234567890", "qwertzuiop", "asdfghjkl.", "yxcvbnm-:"]
TABLE_ROWS = ["1234567890", "qwertzuiop", "asdfghjkl-", "yxcvbnm"]
STATES = {
    "new": N_("This table is in no café yet. Type the hub's address and this table's name, then ask to join."),
    "asked": N_("This table is in no café yet."),
    "working": N_("Asking the hub …"),
    "waiting": N_("Waiting for staff: on the hub's staff page, accept table {table} with the key {fingerprint}."),
    "accepted": N_("Accepted. Type the code that the hub's staff page shows for this table."),
    "expired": N_("Accepted, but no code waits any more: ask staff for a new code on the hub's staff page."),
    "refused": N_("The café refused this table's key."),
    "paired": N_("This table's code was used already: ask staff for a new code on the hub's staff page."),
    "joined": N_("Joined café {cafe} as table {table}, broker {broker}. The table trusts only the café's "
                 "certificate authority for it."),
    "file": N_("This table's café is set in its config file: café {cafe}, table {table}, broker {broker}."),
}
PROBLEMS = {
    "bad-hub": N_("That is no address: type a host name or address, with :port if it is not 8080."),
    "bad-table": N_("A table's name is 1 to 32 of a-z, 0-9 and '-', starting with a letter or digit."),
    "need-both": N_("Type the hub's address and this table's name first."),
    "no-key": N_("This table has no key (its event log cannot be opened)."),
    "unreachable": N_("Cannot reach the hub at {hub}."),
    "too-many": N_("Too many tables wait at the hub: staff must accept or refuse them first."),
    "no-pairing": N_("This hub pairs no tables (it has no broker address for them)."),
    "hub-answer": N_("The hub's answer made no sense. Try again."),
    "code-digits": N_("The code has 12 digits."),
    "no-code": N_("No code waits for this table: ask staff for a new one on the hub's staff page."),
    "forged": N_("The answer does not open with this code, so it did not come from the café's hub. "
                 "Nothing was changed."),
}
LINK = {
    "online": N_("Connected to the café's broker."),
    "certificate": N_("The broker's certificate is not signed by the café's certificate authority: the table "
                      "refuses it and sends nothing."),
    "refused": N_("The broker refused this table's user and password."),
    "unreachable": N_("Cannot reach the café's broker."),
}
MAIN, CODE = "main", "code"


class CafeScreen(Screen):
    name = "cafe"  # the café's status calls it "admin" (kiosk/app/cafe_link.py SCREEN_OF)

    def __init__(self, app: Host, back: Screen):
        super().__init__(app)
        self.back = back
        self.mode = MAIN
        self.code = ""

    @property
    def joining(self) -> Any:
        return self.app.joining

    # --- words

    def state_text(self) -> str:
        j = self.joining
        source = j.configured or j.joined
        values = {"table": j.table or "—", "fingerprint": j.fingerprint or "—", "cafe": j.cafe or "—",
                  "broker": f"{source.host}:{source.port}" if source else "—"}
        if source is not None:
            values.update(cafe=source.cafe, table=source.table)
        return tr(STATES.get(j.state, STATES["asked"]), **values)

    def problem_text(self) -> str:
        j = self.joining
        if j.problem == "wrong-code":
            return trn("Wrong code. {n} more try.", "Wrong code. {n} more tries.", int(j.values.get("n") or 0))
        return tr(PROBLEMS[j.problem], hub=j.hub) if j.problem in PROBLEMS else ""

    def link_text(self) -> str:
        cafe = getattr(self.app, "cafe", None)
        if cafe is None or self.joining.state not in ("joined", "file"):
            return ""
        problem = getattr(cafe, "problem", None)
        return tr(LINK[problem]) if problem in LINK else tr(LINK["online"]) if cafe.online else ""

    # --- drawing

    def view(self, width: int, height: int) -> View:
        return self._keypad(width, height) if self.mode == CODE else self._main(width, height)

    def _main(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        side = 0.28 if g.portrait else 0.2
        v.text(g.r(0.04, 0.02, 0.94 - side - 0.04, 0.1), tr("Café"), size=1.0, color=ACCENT, tag="title")
        v.button(g.r(0.98 - side, 0.02, side, 0.07 if g.portrait else 0.1), tr("Back"), "back")
        key = self.joining.fingerprint or "—"
        v.text(g.r(0.04, 0.13, 0.92, 0.1), tr("This table's key: {fingerprint}", fingerprint=key), size=1.1,
               color=INK, fill=PANEL, align="center", tag="fingerprint")
        link = self.link_text()
        lines = [(self.state_text(), INK, "state"), (self.problem_text(), BAD, "problem"),
                 (link, GOOD if link == tr(LINK["online"]) else BAD, "link")]
        x, w, y = round(0.04 * width), round(0.92 * width), round(0.24 * height)
        for text, color, tag in lines:  # each as high as its words need, wrapped at the smallest size: none cut
            if text:
                high = measure.height(text, w, v.limits.cap, 4) + 4
                v.text((x, y, w, high), text, size=0.8, color=color, tag=tag)
                y += high + cells.gap_of(v)
        self._buttons(v, g)
        return v

    def _buttons(self, v: View, g: Grid) -> None:
        j = self.joining
        rows: list[list[tuple[str, str, Any]]] = []
        if j.state not in ("joined", "file"):
            fields = [(tr("Hub: {hub}", hub=j.hub or "—"), "edit:hub", BUTTON),
                      (tr("Table: {table}", table=j.table or "—"), "edit:table", BUTTON)]
            rows += [[field] for field in fields] if g.portrait else [fields]  # an address needs the width
            ask = tr("Check again") if j.state in ("waiting", "accepted", "expired", "paired") else tr("Ask to join")
            row = [(ask, "ask", GOOD if j.state in ("new", "asked") else BUTTON)]
            if j.state not in ("new", "refused"):
                row.append((tr("Enter code"), "code", GOOD if j.state == "accepted" else BUTTON))
            rows.append(row)
        elif j.state == "joined":
            rows.append([(tr("Leave the café"), "leave", BAD_FILL)])
        top = 0.97 - 0.14 * len(rows) if g.portrait else 0.97 - 0.17 * len(rows)
        for i, row in enumerate(rows):
            rect = g.r(0.04, top + i * (0.14 if g.portrait else 0.17), 0.92, 0.12 if g.portrait else 0.15)
            for (label, action, fill), place in zip(row, cells.cols(rect, len(row), cells.gap_of(v)), strict=True):
                v.button(place, label, action, fill=fill, tag=action, group=f"row{i}")

    def _keypad(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        side = 0.28 if g.portrait else 0.2
        v.text(g.r(0.04, 0.02, 0.94 - side - 0.04, 0.1), tr("Code from the hub"), size=1.0, color=ACCENT,
               tag="title")
        v.button(g.r(0.98 - side, 0.02, side, 0.07 if g.portrait else 0.1), tr("Back"), "back")
        v.text(g.r(0.1, 0.14, 0.8, 0.1), handover.shown(self.code) or "—", size=1.2, align="center", fill=PANEL,
               tag="code")
        keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "OK"]
        pad = g.r(0.1, 0.27, 0.8, 0.58) if g.portrait else g.r(0.28, 0.26, 0.44, 0.6)
        for key, rect in zip(keys, cells.table(pad, 3, 4, cells.gap_of(v)), strict=True):
            v.button(rect, key, f"key:{key}", fill=GOOD if key == "OK" else BUTTON)
        problem = self.problem_text()
        if problem:
            v.text(g.r(0.04, 0.88, 0.92, 0.1), problem, size=0.8, color=BAD, tag="problem")
        else:
            v.text(g.r(0.04, 0.88, 0.92, 0.1), tr("12 digits, as the hub's staff page shows them."), size=0.8,
                   color=MUTED, tag="hint")
        return v

    # --- reacting

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        j = self.joining
        if kind == "back":
            if self.mode == CODE:
                self.mode, self.code = MAIN, ""
            else:
                self.app.show(self.back)
        elif kind == "key":
            self._key(arg)
        elif kind == "edit":
            self._edit(arg)
        elif kind == "ask":
            j.ask()
        elif kind == "code":
            self.mode, self.code, j.problem = CODE, "", ""
        elif kind == "leave":
            self.app.show(ConfirmScreen(self.app, self, tr("Leave the café? The table keeps its games; to join "
                                                           "again, staff must accept it again."),
                                        [Answer(tr("Leave the café"), self.app.leave_cafe)]))

    def _edit(self, what: str) -> None:
        j = self.joining

        def done(text: str) -> None:
            j.problem = (j.set_hub if what == "hub" else j.set_table)(text) or ""

        title = tr("The hub's address") if what == "hub" else tr("This table's name")
        rows, limit = (ADDRESS_ROWS, 60) if what == "hub" else (TABLE_ROWS, 32)
        self.app.show(KeyboardScreen(self.app, self, title, j.hub if what == "hub" else j.table, done, rows=rows,
                                     max_len=limit, capitals=False))

    def _key(self, key: str) -> None:
        if key == "C":
            self.code = ""
        elif key == "OK":
            self.joining.enter_code(self.code)
            if not self.joining.problem:
                self.mode, self.code = MAIN, ""
        elif len(self.code) < handover.CODE_DIGITS:
            self.code += key

    def model(self) -> dict[str, Any]:
        j = self.joining
        return {"screen": "cafe", "mode": self.mode, "state": j.state, "problem": j.problem,
                "fingerprint": j.fingerprint, "hub": j.hub, "table": j.table, "code": self.code,
                "link": getattr(getattr(self.app, "cafe", None), "problem", None),
                "online": bool(getattr(getattr(self.app, "cafe", None), "online", False))}
