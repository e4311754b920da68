"""ANNAOTTO against its rules file, line by line: the 17-step check order with two faults at once,
copy numbers, the exact end state, and a differential run against an independent model of the
rules (`tests/annaotto_model.py`) on random event streams (legal and illegal events, undo)."""

from __future__ import annotations

import random

import pytest

from referee.table import FORMAT, Referee
from tests.annaotto_model import COLOURS, ModelRef, faces
from tests.test_annaotto import RUN, advance, call, catch, draw, new, ok, play, press, rejected, slap, state

# --- the order of checks: each row has (at least) two faults; the first failing step names the error


def _race() -> Referee:
    return ok(new(3), play("Anna", "RED.DOTS.ALLE"))


def _wild() -> Referee:
    return ok(new(3), play("Anna", "ANNAOTTO"))


def _pending_end(named: bool = False) -> Referee:
    """Two players: Anna lays her last card (RUN[11], as copy #1 if `named`), the end is pending."""
    ref = new(2, hand_size=6, start=RUN[0])
    advance(ref, 10)
    ok(ref, play("Anna", RUN[11] + ("#1" if named else "")))
    assert ref.turn is None and state(ref)["due"] == {"player": "Anna", "word": "OTTO"}
    return ref


def _ben_has_one() -> Referee:
    """Two players, Anna on turn, Ben holding a single card (hand_size 6, Ben laid 5 of 6)."""
    ref = new(2, hand_size=6, start=RUN[0])
    advance(ref, 10)
    ok(ref, draw("Anna"), press("Anna"))
    assert state(ref)["hands"] == {"Anna": 2, "Ben": 1} and ref.turn == "Ben"
    ok(ref, draw("Ben"), press("Ben"), draw("Anna"), press("Anna"))
    advance(ref, 1)  # Ben lays one of his two cards
    assert state(ref)["hands"] == {"Anna": 3, "Ben": 1} and ref.turn == "Anna"
    return ref


def _unstarted() -> Referee:
    return new(3, start=None)


def _finished() -> Referee:
    return ok(_pending_end(), call("Anna", "OTTO"))


TWO_CARDS = {"type": "play", "player": "Anna", "cards": ["AO:RED.STRIPES", "AO:RED.WAVES"]}

ORDER = [
    # step 3 before step 4, step 1 before step 3
    ("game-over before a bad field", _finished, {"type": "draw", "player": 5}, "game-over"),
    ("unknown type after the end", _finished, {"type": "deal"}, "bad-event"),
    # step 4 before 5
    ("bad field before unknown player", _unstarted, {"type": "draw", "player": "Zed", "count": 0}, "bad-event"),
    ("bad from before unknown player", _unstarted, {"type": "play", "player": "Zed", "card": "x", "from": 3},
     "bad-event"),
    # step 5 before 6, 7, 8
    ("unknown player before unknown card", _unstarted, play("Zed", "NOPE"), "unknown-player"),
    ("unknown from before unknown card", _unstarted, play("Anna", "NOPE", **{"from": "Zed"}), "unknown-player"),
    ("unknown target before not-started", _unstarted, catch("Ben", "Zed"), "unknown-player"),
    ("unknown slapper before not-started", _unstarted, slap("Zed", 1), "unknown-player"),
    # step 6 before 7 and 8; step 7 before 8
    ("unknown card before not-started", _unstarted, play("Anna", "NOPE"), "unknown-card"),
    ("unknown card in a list before one-card-only", _unstarted,
     {"type": "play", "player": "Anna", "cards": ["AO:RED.STRIPES", "AO:NOPE"]}, "unknown-card"),
    ("one-card-only before not-started", _unstarted, TWO_CARDS, "one-card-only"),
    ("unknown start card before already-started", lambda: new(3), {"type": "start", "card": "AO:RED.DOTS#4"},
     "unknown-card"),
    # step 8 before 10 and 11
    ("already-started before start-not-plain", lambda: new(3), {"type": "start", "card": "AO:ANNAOTTO"},
     "already-started"),
    ("not-started before no-race", _unstarted, {"type": "race_close"}, "not-started"),
    ("not-started before nothing-to-catch", _unstarted, catch("Ben", "Anna"), "not-started"),
    ("not-started before no-call-due", _unstarted, call("Anna", "OTTO"), "not-started"),
    # step 9 before 12 … 17
    ("card-exhausted before not-your-turn", lambda: new(3, start="RED.DOTS#2"), play("Cem", "RED.DOTS#2"),
     "card-exhausted"),
    ("card-exhausted before race-open",
     lambda: ok(new(3, start="RED.DOTS#2"), play("Anna", "RED.DOTS.ALLE")), play("Ben", "RED.DOTS#2"),
     "card-exhausted"),
    ("card-exhausted before choice-pending", lambda: ok(new(3, start="RED.DOTS#2"), play("Anna", "ANNAOTTO")),
     play("Anna", "RED.DOTS#2"), "card-exhausted"),
    ("card-exhausted before penalty-pending",
     lambda: ok(new(3, start="RED.DOTS#2"), play("Anna", "RED.DOTS.PLUS")), play("Ben", "RED.DOTS#2"),
     "card-exhausted"),
    ("card-exhausted before the pending end's not-your-turn", lambda: _pending_end(named=True),
     play("Ben", RUN[11] + "#1"), "card-exhausted"),
    # step 12: race-open before not-your-turn; not-your-turn before 13 and 14
    ("race-open before not-your-turn", _race, play("Cem", "RED.WAVES"), "race-open"),
    ("race-open before no-choice-pending", _race, {"type": "choose_colour", "player": "Cem", "colour": "TEAL"},
     "race-open"),
    ("race-open for confirm by anyone", _race, press("Cem"), "race-open"),
    ("not-your-turn before choice-pending", _wild, play("Ben", "RED.WAVES"), "not-your-turn"),
    ("not-your-turn before no-choice-pending", lambda: new(3),
     {"type": "flip_choice", "player": "Ben", "who": "self"}, "not-your-turn"),
    # step 13: no-choice-pending before bad-colour
    ("no-choice-pending before bad-colour",
     lambda: ok(_wild(), {"type": "choose_colour", "player": "Anna", "colour": "RED"}),
     {"type": "choose_colour", "player": "Anna", "colour": "TEAL"}, "no-choice-pending"),
    # step 14 before 15 … 17
    ("choice-pending before bad-source", _wild, play("Anna", "RED.WAVES", **{"from": "Anna"}), "choice-pending"),
    ("choice-pending before bad-draw-count", _wild, draw("Anna", count=2), "choice-pending"),
    # step 16 in its order
    ("penalty-pending before bad-draw-count", lambda: ok(new(3), play("Anna", "RED.DOTS.PLUS")),
     draw("Ben", count=2), "penalty-pending"),
    ("already-drawn before bad-draw-count", lambda: ok(new(3), draw("Anna")), draw("Anna", count=3),
     "already-drawn"),
    # step 17 in its order
    ("drawn-card-only before bad-source", lambda: ok(new(3), draw("Anna")),
     play("Anna", "RED.WAVES", **{"from": "Anna"}), "drawn-card-only"),
    ("bad-source before last-card-protected", _ben_has_one,
     {"type": "play", "player": "Anna", "card": "AO:ANNAOTTO", "from": "Anna"}, "bad-source"),
    ("last-card-protected before no-match", _ben_has_one,
     {"type": "play", "player": "Anna", "card": "AO:BLUE.DOTS.ANNA#1", "from": "Ben"}, "last-card-protected"),
    ("penalty-pending before no-match", lambda: ok(new(3), play("Anna", "RED.DOTS.OTTO")),
     play("Ben", "BLUE.STRIPES"), "penalty-pending"),
    ("penalty-pending (PLUS) before must-alternate",
     lambda: ok(new(3), play("Anna", "RED.DOTS.ANNA"), press("Ben"), play("Ben", "RED.DOTS.PLUS")),
     play("Cem", "BLUE.DOTS.ANNA"), "penalty-pending"),
    ("must-alternate on the closed chain's ANNA", lambda: ok(new(3), play("Anna", "RED.DOTS.ANNA"), press("Ben")),
     play("Ben", "GREEN.WAVES.ANNA"), "must-alternate"),
    ("must-alternate before no-match after OTTO", lambda: ok(new(3), play("Anna", "RED.DOTS.OTTO"), press("Ben")),
     play("Ben", "GREEN.WAVES.OTTO"), "must-alternate"),
    ("ANNA on ANNAOTTO in another colour", lambda: ok(_wild(), {"type": "choose_colour", "player": "Anna",
                                                                "colour": "RED"},
                                                      {"type": "flip_choice", "player": "Anna", "who": "self"}),
     play("Ben", "BLUE.DOTS.ANNA"), "no-match"),
    # steps 11: slaps and race_close
    ("no-race before not-in-race", lambda: new(3), slap("Anna", 1), "no-race"),
    ("race_close ignores a stray player field", _race, {"type": "race_close", "player": "Zed"}, None),
    ("start ignores a stray player field", _unstarted, {"type": "start", "card": "AO:RED.DOTS", "player": 5}, None),
]


@pytest.mark.parametrize(("scenario", "event", "code"), [row[1:] for row in ORDER], ids=[row[0] for row in ORDER])
def test_check_order(scenario, event: dict, code: str | None) -> None:
    ref = scenario()
    if code is None:
        ok(ref, event)
    else:
        rejected(ref, event, code)


# --- copy numbers (section 1) and the deck limit with and without them (section 2)

COPY_CODES = [
    ("AO:RED.DOTS#1", None), ("AO:RED.DOTS#3", None), ("AO:RED.DOTS#4", "unknown-card"),
    ("AO:RED.DOTS#0", "unknown-card"), ("AO:RED.DOTS#01", "unknown-card"), ("AO:RED.DOTS#", "unknown-card"),
    ("AO:RED.DOTS##", "unknown-card"), ("AO:RED.DOTS#1#1", "unknown-card"), ("AO:RED.DOTS#a", "unknown-card"),
    ("AO:RED.DOTS#+1", "unknown-card"), ("AO:RED.DOTS#\u00b2", "unknown-card"), ("AO:RED.DOTS #1", "unknown-card"),
    ("AO:ANNAOTTO#8", None), ("AO:ANNAOTTO#9", "unknown-card"), ("AO:RED.DOTS.PLUS#1", None),
    ("AO:RED.DOTS.PLUS#2", "unknown-card"), ("AO:RED.DOTS.ANNAOTTO", "unknown-card"),
    ("AO:ANNAOTTO.RED", "unknown-card"),
    ("AO:red.dots", "unknown-card"), ("AO:", "unknown-card"), ("", "unknown-card"), ("RED.DOTS", "unknown-card"),
]


@pytest.mark.parametrize(("code", "error"), COPY_CODES)
def test_copy_numbers(code: str, error: str | None) -> None:
    ref = new(3, start="RED.WAVES")
    event = {"type": "play", "player": "Anna", "card": code}
    if error is None:
        ok(ref, event)
    else:
        rejected(ref, event, error)


def test_copy_numbers_follow_the_copies_option() -> None:
    ref = new(2, copies={"plain": 1, "special": 2, "wild": 0}, start="RED.WAVES")
    rejected(ref, play("Anna", "RED.DOTS#2"), "unknown-card")
    rejected(ref, play("Anna", "ANNAOTTO"), "unknown-card")  # a face with 0 copies is not in the deck
    ok(ref, play("Anna", "RED.DOTS.PLUS#2"))
    rejected(ref, play("Ben", "RED.DOTS.PLUS#2"), "card-exhausted")
    ok(ref, play("Ben", "RED.DOTS.PLUS"))  # the second copy, unnamed
    rejected(ref, play("Anna", "RED.DOTS.PLUS#1"), "card-exhausted")  # both sides of the face lie on the pile


def test_deck_limit_mixes_named_and_unnamed_copies() -> None:
    ref = new(3, start="RED.DOTS")  # one of three
    ok(ref, play("Anna", "RED.DOTS#3"), play("Ben", "RED.DOTS#1"))
    rejected(ref, play("Cem", "RED.DOTS"), "card-exhausted")
    rejected(ref, play("Cem", "RED.DOTS#2"), "card-exhausted")


# --- the exact state at the end (AO-R18) and undo down to the header


def test_exact_state_at_the_end_and_undo_to_the_header() -> None:
    ref = new(3, hand_size=6, start=RUN[0])
    advance(ref, 17)  # Anna and Ben have laid 6 cards, Cem 5: Anna went out (her missed OTTO lapsed), Ben decides
    s = state(ref)
    assert s["out"] == ["Anna", "Ben"] and s["turn"] is None and not s["finished"]
    assert s["due"] == {"player": "Ben", "word": "OTTO"} and s["scores"] == {"Anna": 1, "Ben": 2, "Cem": 0}
    ok(ref, call("Ben", "OTTO"))
    assert state(ref) == {
        "turn": None, "finished": True, "scores": {"Anna": 1, "Ben": 2, "Cem": 3}, "winners": ["Anna"],
        "top": RUN[17], "colour": RUN[17].split(".")[0], "pattern": RUN[17].split(".")[1], "pile": 18,
        "draw_pile": 76 - 18 - 1, "hands": {"Anna": 0, "Ben": 0, "Cem": 1}, "direction": 1, "chain": None,
        "plus": 0, "drawn": False, "choices": [], "race": None, "due": None, "flip": None, "out": ["Anna", "Ben"],
    }
    for event in (play("Cem", RUN[18]), {"type": "race_close"}, catch("Cem", "Ben"), call("Ben", "OTTO")):
        rejected(ref, event, "game-over")
    for _ in range(19):  # the start, 17 plays, the call
        assert ref.apply({"type": "undo"}).ok
    assert state(ref) == state(new(3, hand_size=6, start=None))
    rejected(ref, {"type": "undo"}, "nothing-to-undo")


# --- differential: random event streams against the independent model

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiona"]
ODD = [
    {"type": "fly"}, "not an object", {"type": 3}, {"type": "race_close"},
    {"type": "play", "player": "Anna", "cards": ["AO:RED.DOTS", "AO:RED.WAVES"]},
    {"type": "draw", "player": "Anna", "count": 2}, {"type": "draw", "player": "Anna", "count": None},
    {"type": "press", "player": "Anna", "button": "slap"}, {"type": "call", "player": "Anna", "word": "anna"},
]


def _event(rng: random.Random, s: dict, players: list[str], face_list: list[str], started: bool):
    turn = s["turn"]
    anyone = rng.choice([*players, "Zed"]) if rng.random() < 0.05 else rng.choice(players)
    p = turn if turn and rng.random() < 0.8 else anyone
    r = rng.random()
    if not started and r < 0.8:
        suffix = f"#{rng.randint(0, 4)}" if rng.random() < 0.2 else ""
        return {"type": "start", "card": "AO:" + rng.choice(face_list) + suffix}
    if r < 0.03:
        return {"type": "undo"}
    if r < 0.05:
        return rng.choice(ODD)
    race = s["race"]
    if race is not None:
        q = rng.random()
        if q < 0.55:
            return {"type": "press", "player": anyone, "button": "slap", "t_us": rng.randint(0, 5)}
        if q < 0.7:
            return {"type": "call", "player": race["by"] if rng.random() < 0.8 else anyone, "word": "ALLE"}
        if q < 0.8:
            return {"type": "race_close"}
    due = s["due"]
    if due is not None and rng.random() < 0.5:
        if rng.random() < 0.5:
            return {"type": "call", "player": due["player"], "word": due["word"] if rng.random() < 0.9 else "ANNA"}
        return {"type": "catch", "player": anyone, "target": due["player"] if rng.random() < 0.9 else anyone}
    if s["choices"] and rng.random() < 0.7:
        if rng.random() < 0.5:
            return {"type": "choose_colour", "player": p, "colour": rng.choice([*COLOURS, "TEAL"])}
        return {"type": "flip_choice", "player": p, "who": rng.choice(["self", "next"])}
    if (s["chain"] is not None or s["plus"] or s["drawn"]) and rng.random() < 0.35:
        return {"type": "press", "player": p, "button": "confirm"}
    q = rng.random()
    if q < 0.25:
        return {"type": "draw", "player": p}
    if q < 0.28:
        return {"type": "press", "player": p, "button": "confirm"}
    if s["chain"] is not None:
        cands = [f for f in face_list if f.endswith((".ANNA", ".OTTO"))]
    elif s["plus"]:
        cands = [f for f in face_list if f.endswith(".PLUS")]
    else:
        top = s["top"] or "RED.DOTS"
        sign = top.split(".")[2] if top.count(".") == 2 else None
        cands = [f for f in face_list if f == "ANNAOTTO" or (s["colour"] and f.startswith(s["colour"] + "."))
                 or (s["pattern"] and f".{s['pattern']}" in f) or (sign and f.endswith(sign))]
    if not cands or rng.random() < 0.1:
        cands = face_list
    code = "AO:" + rng.choice(cands) + (f"#{rng.randint(1, 3)}" if rng.random() < 0.15 else "")
    event = {"type": "play", "player": p, "card": code}
    if rng.random() < 0.12:
        event["from"] = rng.choice(players)
    return event


@pytest.mark.parametrize("seed", range(40))
def test_engine_agrees_with_the_independent_model(seed: int) -> None:
    rng = random.Random(seed)
    players = NAMES[: rng.choice([2, 2, 3, 4, 5, 6])]
    hand_size = rng.choice([6, 8])
    plain, special, wild = 3, 1, 8
    if rng.random() < 0.5:  # small decks: reshuffles, empty piles, forgiven penalties
        plain, special, wild = rng.randint(1, 2), rng.randint(0, 2), rng.choice([0, 2, 4, 8])
        if (32 * plain + 48 * special + wild) // 2 < len(players) * hand_size + 1:
            plain, special, wild = 3, 1, 8
    options: dict = {"hand_size": hand_size, "copies": {"plain": plain, "special": special, "wild": wild}}
    first = rng.choice([None, *players])
    if first is not None:
        options["first"] = first
    dealer = rng.choice(players)
    ref = Referee({"format": FORMAT, "game": "annaotto", "players": players, "dealer": dealer, "options": options})
    model = ModelRef(players, dealer, hand_size, first, plain, special, wild)
    face_list = list(faces(plain, special, wild))
    for n in range(400):
        event = _event(rng, ref.state(), players, face_list, ref.game.started)
        answer = ref.apply(event)
        expected = model.apply(event)
        assert (answer.error, ref.state()) == (expected, model.m.public()), (n, event)
        if ref.finished and rng.random() < 0.3:
            break
