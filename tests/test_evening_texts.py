"""Every sentence the club nights' pages say has its German (#27): the templates' t("…") and the action words."""

from __future__ import annotations

import re
from pathlib import Path

from hub.evenings.desk import SEATINGS
from hub.evenings.texts import ACTION_WORDS
from hub.texts import german_known, tr

TEMPLATES = Path(__file__).resolve().parent.parent / "hub" / "evenings" / "templates"
STATES = ("waiting", "playing", "verified", "disputed", "abandoned", "accepted", "entered")


def test_every_sentence_of_the_evening_pages_is_in_german() -> None:
    called = re.compile(r"""(?<![\w.])t\(["']([^"']+)["']\)""")
    said = {m for path in TEMPLATES.glob("*.html") for m in called.findall(path.read_text())}
    said |= set(ACTION_WORDS.values()) | set(SEATINGS) | set(STATES)
    said |= {"You are checked in.", "Check-in is closed.", "Done.", "Not possible now.",
             "That did not work: the name is taken, or too many names came from this device."}
    assert len(said) > 40
    missing = sorted(s for s in said if not german_known(s))
    assert not missing, missing
    assert tr("Standings", "de") == "Tabelle" and tr("Standings", "en") == "Standings"
