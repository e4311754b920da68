"""Teaching the camera a deck through the admin screens of a real kiosk process, and games read by the faces it
learnt with no camera label on any card (issue #38): a retake, a wrong card laid (the screen says so), a restart
in the middle (what was taught is kept), the camera menu saying what is read, `[camera] faces / labels = false`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kiosk.hardware.camera_faces import faces_of
from tests.kiosk_process import KioskProcess
from tests.test_camera_teach import still
from tests.test_kiosk_camera import CAMERA_CONFIG, NUDGE_S, CameraTable
from tests.test_kiosk_e2e import play_simulated_game, start_game

PREFIX = {"alles-klar": "AK", "alcasan": "AC", "profi-sort": "PS", "magische-7": "M7", "annaotto": "AO"}
DESIGNS = {"alles-klar": "ak-a", "alcasan": "ac-a", "profi-sort": "french-paris", "magische-7": "m7-a",
           "annaotto": "ao-a"}
STRAIGHTENED = 5  # at most one laid card in this many needed straightening (the reader's rate: figures.md)
CAPTURE_S = 10.0  # a card not taken after this long is laid again (a new pose), as staff would straighten it


class FaceTable(CameraTable):
    """The game's cards laid printed, with no label (the scene's designs); a card the camera has not counted is
    straightened (laid again in a new pose) as a player would, up to one card in `STRAIGHTENED` of the game."""

    def counted_after(self, before: int, code: str) -> dict[str, Any]:
        deadline = time.monotonic() + NUDGE_S * 6
        while True:
            try:
                return self.kiosk.wait(lambda s: s["camera"]["scans"] > before, timeout=NUDGE_S)
            except TimeoutError:
                assert time.monotonic() < deadline, f"{code} was never counted"
            self.kiosk.cmd("take", zone="pile", code=code)
            state = self.kiosk.state()
            if state["camera"]["scans"] > before:  # counted after all, just now: laid again it would count twice
                return state
            self.nudges += 1
            self.kiosk.cmd("lay", code=code, zone="pile")


class Teaching:
    """Staff at the teaching screen: they lay the card the screen asks for and look at what it says."""

    def __init__(self, kiosk: KioskProcess, game: str, design: str | None = None):
        self.kiosk = kiosk
        self.game = game
        self.relaid = 0  # cards laid again because the camera had not taken them
        self.anyway = 0  # cards taken anyway after the screen said they look like another face
        self.unseen = 0  # look-alikes the camera took as the face asked (FACE4 misses), retaken
        self.asked: list[str] = []  # the screen's words at each face it asked for
        kiosk.cmd("scene", designs={PREFIX[game]: design or DESIGNS[game]}, sticker=False)

    def open(self, deck: str = "new") -> dict[str, Any]:
        """Admin → Camera → Teach cards → the game → a deck; the teaching screen's state."""
        self.kiosk.admin_menu()
        assert self.kiosk.touch("admin:camera")["screen"] == "camera-menu"
        assert self.kiosk.touch("teach")["screen"] == "teach-games"
        assert self.kiosk.touch(f"game:{self.game}")["screen"] == "teach-decks"
        if deck != "new":
            assert self.kiosk.touch(f"deck:{deck}")["chosen"] == deck
            return self.kiosk.touch("teach")
        return self.kiosk.touch("deck:new")

    def lay(self, code: str) -> None:
        self.kiosk.cmd("take", zone="pile")
        self.kiosk.cmd("lay", code=code, zone="pile")

    def taught(self, face: str, copy: int = 1, anyway: bool = True) -> dict[str, Any]:
        """Lay `face` (the screen asks for it) until the camera takes it; a card held back as looking like
        another face is taken anyway when `anyway` (two faces the camera sees alike)."""
        state = self.kiosk.state()
        assert state["face"] == face, state
        self.asked.append(texts(self.kiosk))
        before = state["taught"]
        for _ in range(4):
            self.lay(f"{face}#{copy}")
            try:
                state = self.kiosk.wait(lambda s: s["taught"] != before or s["held"], timeout=CAPTURE_S)
            except TimeoutError:
                self.relaid += 1
                continue
            if state["held"] and anyway:
                self.anyway += 1
                state = self.kiosk.touch("anyway")
            return state
        raise AssertionError(f"{face} was never taken: {self.kiosk.state()}")

    def held_back(self, code: str) -> dict[str, Any]:
        """Lay a card of a face taught before where another is asked for, until the screen holds it back as
        looking like that face; a pose in which the camera took it as the face asked is retaken (staff see the
        wrong picture under "Taken last") and the card laid again."""
        before = self.kiosk.state()["taught"]
        for _ in range(5):
            self.lay(code)
            try:
                state = self.kiosk.wait(lambda s: s["taught"] != before or s["held"], timeout=CAPTURE_S)
            except TimeoutError:
                self.relaid += 1
                continue
            if state["held"]:
                return state
            self.unseen += 1
            assert self.kiosk.touch("retake")["taught"] == before
        raise AssertionError(f"{code} was never seen as a face taught before: {self.kiosk.state()}")

    def whole_deck(self) -> dict[str, Any]:
        state = self.kiosk.state()
        while state["face"] is not None:
            state = self.taught(state["face"])
        return state

    def close(self) -> None:
        """Done (the deck just taught is the one chosen on the decks' screen), and back through the camera menu
        and the admin menu to the guests' menu."""
        self.kiosk.cmd("take", zone="pile")
        deck = self.kiosk.state()["deck"]
        decks = self.kiosk.touch("back")
        assert (decks["screen"], decks["chosen"]) == ("teach-decks", deck)
        for screen in ("teach-games", "camera-menu", "admin", "menu"):
            assert self.kiosk.touch("back")["screen"] == screen


def texts(kiosk: KioskProcess) -> str:
    return " | ".join(kiosk.cmd("view")["texts"])


@pytest.mark.slow
def test_a_deck_taught_with_a_retake_a_wrong_card_and_a_restart_then_read_in_a_game(tmp_path) -> None:
    faces = list(faces_of("alcasan"))  # 1, 2, 3, 5, …, Water, Fire, Earth, Air
    kiosk = KioskProcess(tmp_path, extra=["--config", str(CAMERA_CONFIG)])
    try:
        staff = Teaching(kiosk, "alcasan")
        state = staff.open()
        assert (state["screen"], state["face"], state["taught"], state["total"]) == ("teach", "AC:1", 0, 13)
        assert "Lay this card face up on the pile:" in texts(kiosk) and "0 of 13 faces taught" in texts(kiosk)
        kiosk.cmd("camera", state="stall")  # the camera stops sending pictures: the screen says so, not "waiting"
        kiosk.wait(lambda s: s["said"].startswith("The camera sends no pictures"), timeout=CAPTURE_S)
        kiosk.cmd("camera", state="resume")
        kiosk.wait(lambda s: s["said"] == "Waiting for the card …", timeout=CAPTURE_S * 2)
        for face in faces[:3]:
            staff.taught(face)
        assert "Taken: 3. Now lay the next card." in texts(kiosk) and "3 of 13 faces taught" in texts(kiosk)
        state = kiosk.touch("retake")  # the 3 once more
        assert (state["face"], state["taught"], state["last"]) == ("AC:3", 2, None)
        staff.taught("AC:3")
        assert kiosk.state()["face"] == "AC:5"
        state = staff.held_back("AC:1#2")  # a 1 where the 5 is asked for
        assert (state["wrong"], state["held"], state["face"], state["taught"]) == ("AC:1", True, "AC:5", 3)
        assert "This looks like 1, not 5. Lay 5." in texts(kiosk)
        assert set(kiosk.cmd("view")["buttons"]) >= {"anyway", "again", "back"}
        state = kiosk.touch("again")  # the 1 was taught with the wrong card: forgotten, and asked for next
        assert (state["wrong"], state["taught"]) == (None, 2)
        state = kiosk.wait(lambda s: s["last"] == "AC:1", timeout=CAPTURE_S * 2)  # the 1 lying there: taken
        assert (state["face"], state["taught"]) == ("AC:5", 3)
        state = staff.taught("AC:5", anyway=False)
        assert (state["wrong"], state["last"], state["taught"]) == (None, "AC:5", 4)
        for face in faces[4:6]:
            staff.taught(face)
        kiosk.kill()  # the power goes in the middle of teaching
        kiosk = KioskProcess(tmp_path, extra=["--config", str(CAMERA_CONFIG)])
        staff = Teaching(kiosk, "alcasan")
        state = staff.open("deck-1")
        assert (state["face"], state["taught"]) == (faces[6], 6)  # every face taught before is kept
        staff.held_back("AC:2#3")  # a 2 where the 8 is asked for, and staff say it is the 8 …
        state = kiosk.touch("anyway")
        assert (state["last"], state["taught"], state["held"]) == (faces[6], 7, False)
        state = kiosk.touch("retake")  # … then see the picture and take it back
        assert (state["face"], state["taught"], state["last"]) == (faces[6], 6, None)
        state = staff.whole_deck()
        assert (state["face"], state["taught"], state["total"]) == (None, 13, 13)
        assert "Every face of this deck is taught." in texts(kiosk)
        print(f"alcasan taught: {staff.relaid} laid again, {staff.anyway} taken anyway, {staff.unseen} look-alikes "
              "taken as the face asked")  # pytest -s
        staff.close()
        read_in_a_game(kiosk)
    finally:
        kiosk.close()


def read_in_a_game(kiosk: KioskProcess) -> None:
    """An alcasan game: the camera menu says which deck it reads, teaching waits for a free table, and a card
    laid with no label on it is read by its face."""
    start_game(kiosk, "alcasan", 2)
    state = kiosk.wait(lambda s: s["camera"]["faces"]["ready"] and s["camera"]["faces"]["game"] == "alcasan")
    assert state["camera"]["faces"]["decks"] == [["deck-1", 13]]
    kiosk.admin_menu()
    menu = kiosk.touch("admin:camera")
    assert "Printed faces of alcasan: read by deck 1 (13 faces)." in menu["status"], menu
    assert kiosk.touch("teach")["message"] == "Teaching needs the table free: end or pause the game first."
    kiosk.touch("back")
    assert kiosk.touch("back")["screen"] == "table"
    lay_counted(kiosk, "AC:WASSER#1")


@pytest.fixture(scope="module")
def m7_deck(tmp_path_factory) -> Path:
    """Die magische 7's whole deck taught from stills (`referee-kiosk camera teach`), as a data directory."""
    data, folder = tmp_path_factory.mktemp("m7-data"), tmp_path_factory.mktemp("m7-stills")
    for i, face in enumerate(faces_of("magische-7")):
        still(folder / f"{face.replace(':', '_')}.png", [(f"{face}#1", {"angle": 30 + 37 * i})], seed=70 + i)
    out = subprocess.run([sys.executable, "-m", "kiosk", "camera", "teach", "magische-7", str(folder),
                          "--data-dir", str(data), "--anyway"], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    return data


@pytest.mark.slow
@pytest.mark.parametrize("off", ["faces", "labels"])
def test_the_config_switches_faces_or_labels_off_and_the_camera_menu_says_so(tmp_path, off, m7_deck) -> None:
    shutil.copytree(m7_deck / "faces", tmp_path / "faces")
    config = tmp_path / "table.toml"
    config.write_text(CAMERA_CONFIG.read_text().replace("[camera]\n", f"[camera]\n{off} = false\n"))
    kiosk = KioskProcess(tmp_path, extra=["--config", str(config)])
    try:
        start_game(kiosk, "magische-7", 2)
        kiosk.wait(lambda s: s["camera"]["faces"]["ready"] and s["camera"]["faces"]["game"] == "magische-7")
        kiosk.admin_menu()
        status = kiosk.touch("admin:camera")["status"]
        if off == "faces":
            assert status[:2] == ["Camera labels: read.", "Printed faces: not read (switched off in the config)."]
        else:
            assert status[:2] == ["Camera labels: not read (switched off in the config).",
                                  "Printed faces of Die magische 7: read by deck 1 (23 faces)."]
        kiosk.touch("back")
        kiosk.touch("back")
        turn = kiosk.state()["state"]["turn"]
        printed, labelled = {"design": "m7-a", "sticker": False}, {}
        unread, read = (printed, labelled) if off == "faces" else (labelled, printed)
        kiosk.cmd("lay", code="M7:13#1", zone="pile", **unread)
        time.sleep(3.0)  # some 20 frames: the card is not read by what is switched off
        assert kiosk.state()["camera"]["scans"] == 0
        kiosk.cmd("take", zone="pile")
        time.sleep(0.5)
        lay_counted(kiosk, "M7:7#1", **read)
        state = kiosk.wait(lambda s: s["camera"]["scans"] == 1 and s["events"] == 1, timeout=CAPTURE_S)
        assert state["state"]["turn"] != turn  # the 7 was played by the player on turn
    finally:
        kiosk.close()


def without_copies(value: Any) -> Any:
    """A state with every card code's copy number dropped ("PS:C8#2" → "PS:C8"): a card read by its face carries
    none (two copies look the same), so the kiosk's state names faces where the simulator's names copies."""
    if isinstance(value, str):
        return value.partition("#")[0] if ":" in value else value
    if isinstance(value, list):
        return [without_copies(v) for v in value]
    if isinstance(value, dict):
        return {without_copies(k): without_copies(v) for k, v in value.items()}
    return value


# Whole games read by taught faces: alcasan and Die magische 7, which passed in every run. Not yet, issue #38's
# open part of the reader (reported there): Alles klar? and Profi-Sort, where a laid card is now and then never
# counted (AK:10.IV, AK:6.V, PS:SA#2 — about one run in two under load), and ANNAOTTO, whose wild side (printed
# to its edge) laid on another card `hw.camera.outline.find_cards` never finds (alone on the pile it is read).
# ANNAOTTO's teaching and the first events of its game read by faces:
# test_annaotto_is_taught_side_by_side_and_a_game_reads_the_side_laid_up.
READ_WHOLE_BY_FACES = ["alcasan", "magische-7"]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", READ_WHOLE_BY_FACES)
def test_a_whole_game_read_by_taught_faces_with_no_labels(tmp_path, game_id: str) -> None:
    """Each game's whole deck taught through the teaching screen, then the simulator's game played by laying
    printed cards with no camera label on the pile (tests/test_kiosk_camera.py lays labelled cards)."""
    kiosk = KioskProcess(tmp_path, extra=["--config", str(CAMERA_CONFIG)])
    try:
        staff = Teaching(kiosk, game_id)
        staff.open()
        started = time.monotonic()
        staff.whole_deck()
        taught_s = time.monotonic() - started
        staff.close()
        kiosk.wait(lambda s: s["camera"]["faces"]["teaching"] is None)
        time.sleep(4.5)  # the pile stays empty for the camera's forget_s: the next game's pile starts afresh
        table = FaceTable(kiosk)
        events, final = play_simulated_game(kiosk, table, game_id, without_copies)
        assert final["camera"]["faces"]["decks"] == [["deck-1", len(faces_of(game_id))]]
        laid = sum(len(e.get("cards", ())) + ("card" in e) for e in events)
        assert table.nudges <= laid // STRAIGHTENED, f"{table.nudges} of {laid} cards needed straightening"
        print(f"{game_id}: taught in {taught_s:.0f} s ({staff.relaid} laid again, {staff.anyway} taken anyway), "
              f"{table.nudges} cards straightened in the game")  # pytest -s
    finally:
        kiosk.close()


STRAIGHTENINGS = 6  # a card the camera has not counted is laid again in a new pose this many times at most


def lay_counted(kiosk: KioskProcess, code: str, **printed: Any) -> dict[str, Any]:
    """A card laid on the pile (`printed`: the lay's design and sticker) until the camera counts it, straightened
    (laid again in a new pose) as a player would: the reader misses some poses (docs/figures.md, issue #38), so
    a single pose would make a test of teaching a test of one random angle. Returns the state once counted."""
    before = kiosk.state()["camera"]["scans"]
    angles = []
    for _ in range(STRAIGHTENINGS):
        angles.append(kiosk.cmd("lay", code=code, zone="pile", **printed)["angle"])
        try:
            return kiosk.wait(lambda s: s["camera"]["scans"] > before, timeout=NUDGE_S)
        except TimeoutError:
            kiosk.cmd("take", zone="pile", code=code)
            state = kiosk.state()
            if state["camera"]["scans"] > before:  # counted just now: laid again it would count twice
                return state
    raise AssertionError(f"{code} {printed} was never counted, laid at {angles}°")


@pytest.mark.slow
def test_two_decks_of_one_game_are_both_read_and_the_backup_carries_them_to_another_kiosk(tmp_path) -> None:
    """Two designs of alcasan in one café, each taught as a deck of its own through the screens: a game reads both,
    the admin menu's Export carries both, and a kiosk restored from that export (`camera restore`) reads both."""
    cafe, other = tmp_path / "cafe", tmp_path / "other"
    cafe.mkdir()
    kiosk = KioskProcess(cafe, extra=["--config", str(CAMERA_CONFIG)])
    try:
        for n, design in enumerate(("ac-a", "ac-b"), 1):
            staff = Teaching(kiosk, "alcasan", design)
            state = staff.open()
            assert (state["deck"], state["taught"], state["total"]) == (f"deck-{n}", 0, 13)
            staff.whole_deck()
            staff.close()
        folder = both_decks_read(kiosk)
    finally:
        kiosk.close()
    restored = subprocess.run([sys.executable, "-m", "kiosk", "camera", "restore", str(folder), "--data-dir",
                               str(other)], capture_output=True, text=True, timeout=300)
    assert restored.stdout == ("alcasan: restored as deck-1 (13 faces)\n"
                               "alcasan: restored as deck-2 (13 faces)\n"), restored.stdout + restored.stderr
    kiosk = KioskProcess(other, extra=["--config", str(CAMERA_CONFIG)])
    try:
        start_game(kiosk, "alcasan", 2)
        state = kiosk.wait(lambda s: s["camera"]["faces"]["ready"] and s["camera"]["faces"]["game"] == "alcasan")
        assert state["camera"]["faces"]["decks"] == [["deck-1", 13], ["deck-2", 13]]
        lay_counted(kiosk, "AC:ERDE#3", design="ac-b", sticker=False)
    finally:
        kiosk.close()


def both_decks_read(kiosk: KioskProcess) -> Path:
    """In a game of alcasan, the camera menu names both decks and a card of each design is counted; the admin
    menu's Export (no USB stick here: into the data directory) holds both decks. Returns the export's folder."""
    start_game(kiosk, "alcasan", 2)
    state = kiosk.wait(lambda s: s["camera"]["faces"]["ready"] and s["camera"]["faces"]["game"] == "alcasan")
    assert state["camera"]["faces"]["decks"] == [["deck-1", 13], ["deck-2", 13]]
    kiosk.admin_menu()
    status = kiosk.touch("admin:camera")["status"]
    assert "Printed faces of alcasan: read by deck 1 (13 faces), deck 2 (13 faces)." in status, status
    kiosk.touch("back")
    message = kiosk.touch("admin:export")["message"]
    assert message.startswith("No USB stick found. Exported 1 game into the data directory"), message
    folder = kiosk.data_dir / "exports" / message.rpartition("/")[2]
    for deck in ("deck-1", "deck-2"):
        manifest = json.loads((folder / "faces" / "alcasan" / deck / "deck.json").read_text())
        assert {face for face, *_ in manifest["looks"]} == set(faces_of("alcasan")), deck
    assert kiosk.touch("back")["screen"] == "table"
    lay_counted(kiosk, "AC:WASSER#1", design="ac-a", sticker=False)
    lay_counted(kiosk, "AC:FEUER#2", design="ac-b", sticker=False)  # a second copy: copies are one face, taught once
    return folder


@pytest.mark.slow
def test_annaotto_is_taught_side_by_side_and_a_game_reads_the_side_laid_up(tmp_path) -> None:
    """ANNAOTTO's cards are two-sided and each side is a face of its own: teaching asks for every side once (81
    faces of 152 sides), the special and the wild sides in their words, and a game read by faces goes as the
    referee's, a special side among its cards (the seeded game's first eight events; the wild side read on a
    pile is the reader's open case: tests/test_kiosk_teach.py's whole games)."""
    from referee.decks.annaotto import side_info, sides

    kiosk = KioskProcess(tmp_path, extra=["--config", str(CAMERA_CONFIG)])
    try:
        staff = Teaching(kiosk, "annaotto")
        state = staff.open()
        assert (state["total"], sum(sides().values())) == (81, 152)
        staff.whole_deck()
        words = {face: said for face, said in zip(faces_of("annaotto"), staff.asked, strict=True)}
        assert "| Blue · Dots · RETURN |" in words["AO:BLUE.DOTS.RETOUR"]
        assert "| ANNAOTTO |" in words["AO:ANNAOTTO"] and "| Red · Dots |" in words["AO:RED.DOTS"]
        staff.close()
        kiosk.wait(lambda s: s["camera"]["faces"]["teaching"] is None)
        time.sleep(4.5)  # the pile stays empty for the camera's forget_s
        table = FaceTable(kiosk)
        events, _ = play_simulated_game(kiosk, table, "annaotto", without_copies, stop_after=8)
        laid = [e["card"].partition("#")[0] for e in events if "card" in e]
        assert any(side_info(face).sign for face in laid), laid  # a special side (a plain one on its back)
    finally:
        kiosk.close()
