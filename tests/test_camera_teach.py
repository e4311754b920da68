"""The kiosk's side of teaching the camera a deck, without a kiosk process: the `[camera]` switches for labels and
faces, the simulated camera's control commands for printed cards, the taught decks' loader against hostile files,
and `referee-kiosk camera teach / read --faces / restore` on still pictures (issue #38)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from hw.camera import taught
from hw.camera.sim import SIM_CAMERA, TableScene, commands
from hw.sim.commands import answer
from kiosk.hardware.camera_faces import faces_of

M7 = ["M7:-6", "M7:-5", "M7:0", "M7:7", "M7:JOKER"]  # a few faces of Die magische 7: a sign before a number


def still(path: Path, cards: list[tuple[str, dict]], seed: int = 1, design: str = "m7-a") -> Path:
    """A still of the pile as the simulated camera sees it, in colour, with these printed cards (no labels)."""
    scene = TableScene(SIM_CAMERA, seed=seed, colour=True)
    for code, where in cards:
        scene.lay(code, "pile", design=design, sticker=False, **where)
    scene.render(SIM_CAMERA.crop(), (1400, 1000)).save(path, compress_level=1)
    return path


def camera(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk", "camera", *args], capture_output=True, text=True,
                          timeout=300)


# --- [camera] labels and faces ------------------------------------------------------------------


@pytest.mark.parametrize(("lines", "verdict"), [
    ("labels = false\n", "OK"),
    ("faces = false\n", "OK"),
    ("labels = false\nfaces = false\n", "both false: the camera would read nothing"),
    ('faces = "yes"\n', "camera.faces must be true or false"),
])
def test_the_camera_reads_labels_and_faces_unless_the_config_switches_one_off(tmp_path, lines, verdict) -> None:
    source = (Path(__file__).parent / "data" / "table.camera.toml").read_text()
    config = tmp_path / "table.toml"
    config.write_text(source.replace("[camera]\n", "[camera]\n" + lines))
    out = subprocess.run([sys.executable, "-m", "kiosk", "--check-config", str(config)], capture_output=True,
                         text=True, timeout=120)
    assert verdict in out.stdout, out.stdout
    assert (out.returncode == 0) == (verdict == "OK")
    if verdict == "OK":
        from hw.config import load

        loaded = load(config).camera
        assert (loaded.labels, loaded.faces) == ("labels" not in lines, "faces" not in lines)


def test_the_reader_reads_labels_as_its_config_says() -> None:
    from dataclasses import replace

    from hw.camera.reader import CameraReader

    assert CameraReader(SIM_CAMERA, None, lambda item: None).labels is True
    assert CameraReader(replace(SIM_CAMERA, labels=False), None, lambda item: None).labels is False


# --- the simulated camera's control commands -------------------------------------------------------


def test_lay_prints_a_card_in_a_design_where_asked_and_scene_sets_the_cameras_picture() -> None:
    scene = TableScene(SIM_CAMERA, seed=3)
    table = commands(scene)
    reply = answer(table, {"cmd": "lay", "code": "AK:7.IV#1", "design": "ak-b", "sticker": False, "at": [0.2, 0.8],
                           "angle": 30, "tilt": 0.03})
    assert reply == {"ok": True, "angle": 30.0, "design": "ak-b", "sticker": False}
    assert scene.mode == "RGB"  # a printed card: the frames are in colour from now on
    card = scene.cards[0]
    zone = SIM_CAMERA.zone("pile").area
    vw, vh = scene.view_mm
    assert abs(card.x_mm - (zone[0] + 0.2 * (zone[2] - zone[0])) * vw) < 20  # near where it was asked, ± jitter
    assert abs(card.y_mm - (zone[1] + 0.8 * (zone[3] - zone[1])) * vh) < 20
    reply = answer(table, {"cmd": "scene", "designs": {"AK": "ak-a"}, "sticker": False, "blur": 1.6, "noise": 5,
                           "glare": False})
    assert reply == {"ok": True, "colour": True, "blur": 1.6, "noise": 5.0, "glare": False, "designs": {"AK": "ak-a"},
                     "sticker": False}
    assert answer(table, {"cmd": "lay", "code": "AK:8#1", "face_down": True})["design"] == "ak-a"  # its deck's design
    assert scene.cards[-1].face_up is False
    picture = scene.render(SIM_CAMERA.crop(), (700, 500))
    assert picture.mode == "RGB" and picture.size == (700, 500)


@pytest.mark.parametrize("request_", [
    {"cmd": "lay", "code": "AK:7#1", "design": "no-such"},
    {"cmd": "lay", "code": "AK:7#1", "at": [2, 0.5]},
    {"cmd": "lay", "code": "AK:7#1", "at": "middle"},
    {"cmd": "lay", "code": "AK:7#1", "tilt": 5},
    {"cmd": "lay", "code": "AK:7#1", "angle": float("nan")},
    {"cmd": "lay", "code": "x" * 65},
    {"cmd": "lay", "code": 7},
    {"cmd": "lay", "code": "AK:7#1", "sticker": "no"},
    {"cmd": "scene", "blur": -1},
    {"cmd": "scene", "noise": 1e9},
    {"cmd": "scene", "designs": ["AK"]},
    {"cmd": "scene", "designs": {"AK": 3}},
])
def test_a_bad_camera_command_is_answered_and_changes_nothing(request_) -> None:
    scene = TableScene(SIM_CAMERA, seed=4)
    reply = answer(commands(scene), request_)
    assert reply["ok"] is False and reply["error"], reply
    assert scene.cards == [] and scene.blur == 0.6 and scene.noise == 3.0


# --- the loader against hostile deck files ---------------------------------------------------------


def png_header(width: int, height: int) -> bytes:
    """A PNG that says it is `width` × `height` and holds a few bytes (a decompression bomb's header)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def hostile_decks(data: Path) -> Path:
    """Decks of Alles klar? in every shape a file can be wrong in; only `deck-4` holds one good look."""
    import numpy as np
    from PIL import Image

    from hw.camera.outline import PATCH

    root = data / "faces" / "alles-klar"
    for name in ("deck-1", "deck-2", "deck-3", "deck-4", "deck-7", "deck-8"):
        (root / name).mkdir(parents=True)
    (data / "outside").mkdir()
    (root / "deck-1" / "deck.json").write_bytes(b" " * (taught.MAX_MANIFEST + 1))  # too large
    (root / "deck-2" / "deck.json").write_text('{"format": 1, "game": "alles-klar", "looks": [[')  # truncated
    (root / "deck-3" / "deck.json").write_text("[" * 200_000 + "]" * 200_000)  # nested deeper than Python goes
    good = Image.fromarray(np.full((PATCH[1], PATCH[0]), 128, np.uint8))
    good.save(root / "deck-4" / "000-abcdef.png")
    (root / "deck-4" / "deck.json").write_text(json.dumps({
        "format": 1, "game": "alles-klar", "deck": "deck-4", "shape": ["wide", float("nan")],
        "looks": [[["AK:7"], "001-aaaaaa.png"], [1, 2], "AK:7", [None, None], ["AK:7", "../../../etc/passwd"],
                  ["AK:99", "002-bbbbbb.png"], ["AK:7", "000-abcdef.png"], ["AK:8", "003-cccccc.png"],
                  ["AK:9", "004-dddddd.png"]]}))
    (root / "deck-4" / "003-cccccc.png").write_bytes(png_header(100_000, 100_000))  # a bomb
    os.symlink(root / "deck-4" / "000-abcdef.png", root / "deck-4" / "004-dddddd.png")  # a link: not read
    os.symlink("/dev/zero", root / "deck-7" / "deck.json")  # endless
    os.mkfifo(root / "deck-8" / "deck.json")  # would block a reader
    (data / "outside" / "deck.json").write_text(json.dumps({"format": 1, "game": "alles-klar", "looks": []}))
    os.symlink(data / "outside", root / "deck-5")  # a linked folder: not a deck of ours
    (root / "Deck 6").mkdir()  # not a deck's name
    return data


def test_hostile_deck_files_are_passed_over_and_nothing_else_is_read(tmp_path) -> None:
    data = hostile_decks(tmp_path)
    found = taught.decks(data, "alles-klar", set(faces_of("alles-klar")))
    assert [d.name for d in found] == ["deck-4"]
    deck = found[0]
    assert deck.looks == [("AK:7", "000-abcdef.png"), ("AK:8", "003-cccccc.png"), ("AK:9", "004-dddddd.png")]
    assert deck.shape == (0.0, 0.0)  # a shape no camera sees: unknown
    assert [face for face, _, _ in deck.pictures()] == ["AK:7"]  # the bomb and the link are never decoded
    assert len(taught.book(found)) == 1


# --- referee-kiosk camera teach / read --faces / restore -------------------------------------------------


@pytest.fixture(scope="module")
def m7_stills(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("stills")
    for i, face in enumerate(M7):
        still(folder / f"{face.replace(':', '_')}.png", [(face + "#1", {"angle": 20 + 47 * i})], seed=i)
    return folder


def test_camera_teach_takes_a_folder_named_by_code_and_read_faces_reads_it_back(tmp_path, m7_stills) -> None:
    data = tmp_path / "data"
    out = camera("teach", "magische-7", str(m7_stills), "--data-dir", str(data), "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert sorted(line["face"] for line in lines) == sorted(M7)
    assert all(line["result"] == "taught" for line in lines)
    assert "magische-7 deck-1: 5 of 23 faces taught" in out.stderr
    deck = taught.decks(data, "magische-7", set(faces_of("magische-7")))[0]
    assert deck.faces() == set(M7)
    two = still(tmp_path / "two.png", [("M7:-6#1", {"at": (0.25, 0.5), "angle": 80}),
                                       ("M7:-5#1", {"at": (0.75, 0.5), "angle": 170})], seed=40)
    untaught = still(tmp_path / "untaught.png", [("M7:3#1", {"angle": 10})], seed=41)
    out = camera("read", "--faces", "magische-7", str(two), str(untaught), "--data-dir", str(data), "--json")
    assert out.returncode == 0, out.stderr
    first, second = (json.loads(line) for line in out.stdout.splitlines())
    assert [(c["code"], c["by"]) for c in first["codes"]] == [("M7:-6", "face"), ("M7:-5", "face")]
    assert second["codes"] == []  # a face never taught is not read


def test_camera_teach_in_deck_order_refuses_a_look_alike_and_takes_it_anyway_when_told(tmp_path, m7_stills) -> None:
    ordered = tmp_path / "ordered"
    ordered.mkdir()
    face_order = list(faces_of("magische-7"))
    for n, face in enumerate(face_order[:2]):  # the deck's first two faces, in its order, by any name
        os.link(m7_stills / f"{face.replace(':', '_')}.png", ordered / f"photo-{n}.png")
    os.link(m7_stills / "M7_-6.png", ordered / "photo-2.png")  # the -6 again where the deck's third face comes
    data = tmp_path / "data"
    out = camera("teach", "magische-7", str(ordered), "--data-dir", str(data))
    assert out.returncode == 1
    assert f"photo-2.png: not taught: it looks like M7:-6, taught before (--anyway teaches it as {face_order[2]})" \
        in out.stdout, out.stdout
    out = camera("teach", "magische-7", str(ordered), "--data-dir", str(data), "--deck", "deck-1", "--anyway")
    assert out.returncode == 0, out.stdout
    assert taught.decks(data, "magische-7", set(face_order))[0].faces() == set(face_order[:3])


@pytest.mark.parametrize(("make", "says"), [
    (lambda folder: (folder / "M7_0.png").write_bytes(b"not a picture"), "not a picture"),
    (lambda folder: (folder / "M7_0.png").write_bytes(png_header(8_000, 6_000)), "larger than a frame"),
    (lambda folder: (folder / "M7_0.png").write_bytes(png_header(60_000, 60_000)), "not a picture"),  # a bomb
    (lambda folder: (folder / "M7_0.png").write_bytes(png_header(400, 300)), "not a picture"),  # truncated
    (lambda folder: (folder / "photo.png").write_bytes(b""), "some pictures are named by a face"),
])
def test_camera_teach_says_what_is_wrong_with_a_folder_and_teaches_nothing_from_it(tmp_path, m7_stills, make,
                                                                                   says) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    os.link(m7_stills / "M7_-6.png", folder / "M7_-6.png")
    make(folder)
    out = camera("teach", "magische-7", str(folder), "--data-dir", str(tmp_path / "data"))
    assert out.returncode == 1 and says in out.stderr, out.stdout + out.stderr
    assert "Traceback" not in out.stderr


def test_camera_teach_names_an_unknown_game_and_a_missing_deck(tmp_path, m7_stills) -> None:
    out = camera("teach", "chess", str(m7_stills), "--data-dir", str(tmp_path))
    assert out.returncode == 1 and "no game 'chess'" in out.stderr
    out = camera("teach", "magische-7", str(m7_stills), "--data-dir", str(tmp_path), "--deck", "deck-3")
    assert out.returncode == 1 and "magische-7 has no deck 'deck-3'" in out.stderr
    out = camera("read", "--faces", "magische-7", str(m7_stills / "M7_0.png"), "--data-dir", str(tmp_path))
    assert out.returncode == 1 and "no deck of magische-7 is taught" in out.stderr


# --- taught decks in the backup, and back ----------------------------------------------------------------


def test_the_export_carries_the_taught_decks_and_restore_takes_them_back(tmp_path, m7_stills) -> None:
    from kiosk.eventlog.export import export_everything
    from kiosk.eventlog.store import EventLog

    data = tmp_path / "data"
    assert camera("teach", "magische-7", str(m7_stills), "--data-dir", str(data)).returncode == 0
    deck = data / "faces" / "magische-7" / "deck-1"
    manifest = json.loads((deck / "deck.json").read_text())
    first, second = manifest["looks"][0][1], manifest["looks"][1][1]
    (deck / second).unlink()  # a look's picture replaced by a link to a file outside: never copied
    os.symlink("/etc/passwd", deck / second)
    (data / "faces" / "magische-7" / "deck-2").symlink_to(deck)  # a linked deck: not a deck of ours
    (data / "faces" / "chess").mkdir()  # no game of ours
    log = EventLog(data / "events.sqlite3")
    folder, on_stick = export_everything(log, data, "t1", tmp_path / "no-mounts")
    log.close()
    assert not on_stick
    copied = folder / "faces"
    assert sorted(p.name for p in copied.iterdir()) == ["magische-7"]
    assert sorted(p.name for p in (copied / "magische-7").iterdir()) == ["deck-1"]
    files = {p.name for p in (copied / "magische-7" / "deck-1").iterdir()}
    assert "deck.json" in files and first in files and second not in files
    assert not any(p.is_symlink() for p in copied.rglob("*"))
    fresh = tmp_path / "fresh"
    out = camera("restore", str(folder), "--data-dir", str(fresh))
    assert out.returncode == 0, out.stderr
    assert out.stdout == "magische-7: restored as deck-1 (4 faces)\n"  # the face whose picture was a link is gone
    two = still(tmp_path / "two.png", [("M7:0#1", {"at": (0.3, 0.5), "angle": 100}),
                                       ("M7:7#1", {"at": (0.7, 0.5), "angle": 5})], seed=60)
    out = camera("read", "--faces", "magische-7", str(two), "--data-dir", str(fresh))
    assert [line.split(": ")[1].split(" at ")[0] for line in out.stdout.splitlines()] == ["M7:0", "M7:7"]
    again = camera("restore", str(folder), "--data-dir", str(fresh))  # restored twice: a second deck, nothing lost
    assert again.stdout == "magische-7: restored as deck-2 (4 faces)\n"
    empty = camera("restore", str(tmp_path / "no-such"), "--data-dir", str(fresh))
    assert empty.returncode == 1 and "no taught deck" in empty.stderr


def test_a_game_keeps_at_most_eight_decks_and_a_ninth_is_refused_with_a_sentence(tmp_path, m7_stills) -> None:
    from hw.camera.reader import CameraReader
    from kiosk.hardware.camera_faces import CameraFaces

    faces = CameraFaces(CameraReader(SIM_CAMERA, None, lambda item: None), tmp_path)
    for n in range(taught.MAX_DECKS):
        session = faces.teach("magische-7", None)
        assert session is not None and session.deck.name == f"deck-{n + 1}"
        faces.stop_teaching()
    assert faces.teach("magische-7", None) is None
    assert faces.reader.teacher is None  # nothing taught meanwhile
    out = camera("teach", "magische-7", str(m7_stills), "--data-dir", str(tmp_path))
    assert out.returncode == 1 and "magische-7 has 8 decks already, as many as a table keeps" in out.stderr
    again = faces.teach("magische-7", "deck-3")  # a deck taught before goes on where it stopped
    assert again is not None and again.state().face == faces_of("magische-7")[0]
    again.deck.clear()
    taught.remove_deck(faces.decks("magische-7")[0])
    assert [d.name for d in faces.decks("magische-7")] == [f"deck-{n}" for n in range(2, 9)]


def test_only_a_deck_with_every_face_taught_is_read_and_the_camera_menu_says_which_waits(tmp_path) -> None:
    """A card of a face not yet taught would be matched against the faces that are (Alles klar?'s 9 passes for its
    7 when only the 7s are known): the reader gets a game's decks once every face of them is taught."""
    import numpy as np

    from hw.camera.outline import PATCH
    from hw.camera.reader import CameraReader
    from kiosk import i18n
    from kiosk.hardware.camera_faces import CameraFaces
    from kiosk.screens.camera_menu import CameraMenuScreen

    rng = np.random.default_rng(3)
    faces = list(faces_of("alcasan"))
    complete, partial = taught.new_deck(tmp_path, "alcasan"), taught.new_deck(tmp_path, "alcasan")
    for deck, taught_faces in ((complete, faces), (partial, faces[:5])):
        for face in taught_faces:  # pictures of nothing in particular: only which faces a deck knows matters here
            deck.add(face, rng.integers(0, 255, (PATCH[1], PATCH[0]), np.uint8), None, 586.0, 0.706)
    camera = CameraFaces(CameraReader(SIM_CAMERA, None, lambda item: None), tmp_path)
    camera.follow("alcasan")
    settled(camera)
    assert camera.loaded.decks == (("deck-1", 13),) and camera.loaded.partial == (("deck-2", 5),)
    assert len(camera.reader.book) == 13  # the complete deck's looks only
    i18n.set_language("en")
    assert CameraMenuScreen._faces_status(camera.loaded) == [
        "Printed faces of alcasan: read by deck 1 (13 faces).",
        "Deck 2 is read once all its faces are taught (5 of 13)."]
    taught.remove_deck(complete)
    camera.reload()
    settled(camera)
    assert camera.reader.book is None and camera.loaded.decks == ()
    assert CameraMenuScreen._faces_status(camera.loaded)[0] == "Printed faces of alcasan: no deck fully taught yet."


def settled(camera) -> None:
    """Until the decks loading on their own thread are handed to the reader."""
    import time

    while not camera.loaded.ready:
        time.sleep(0.01)
