"""Guest words only on every screen a guest sees (issue #26): every scene of `referee-kiosk audit` (menu, set-up,
table of every game, verdicts, the race, help, history, results, the café's assignment …) in German and English is
read through the one detector of developer words. Staff screens (the admin menu and its scanner and button tests)
may show an id, but after a plain sentence, never alone or first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk import i18n
from kiosk.drawing.audit import scenes
from tests.developer_words import developer_words

STAFF = ("admin", "scanner-test", "button-test")  # the admin menu and what it opens


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from kiosk.app.app import App
    from kiosk.settings.settings import Settings

    settings = Settings(data_dir=Path(tmp_path_factory.mktemp("scenes")), language="de", demo_after_s=0)
    made = App(settings, None, headless=True)
    yield made
    i18n.set_language("en")
    made.audio.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_screen_speaks_guest_words(app, lang: str) -> None:
    guests, staff, read = [], [], 0
    for name, show in sorted(scenes().items()):
        i18n.set_language(lang)
        show(app.host)
        app.loop.draw()
        for text in app.loop.view.texts():
            read += 1
            found = developer_words(text, lang)
            if not found:
                continue
            if not name.startswith(STAFF):
                guests.append((name, text, found))
            elif not any(ch.isalpha() for ch in text.partition(found[0])[0]):  # no words before the id
                staff.append((name, text, found))
    print(f"{lang}: {read} texts on {len(scenes())} screens read")
    assert read > 1000
    assert not guests, guests[:10]
    assert not staff, f"an id without a plain sentence before it: {staff[:10]}"
