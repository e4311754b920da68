"""alcasan against its rules file, line by line: a naive second reading of the spec, and edge-case probes.

`Model` is written from `../shared/rules/alcasan.md` alone (no code shared with the
engine): the pile is a list of faces and every requirement is recomputed from it,
the table for `card-exhausted` is recounted from the pile and the burned cards,
undo restores a snapshot. Random event streams (legal plays, illegal plays, bad
shapes, double scans, undo) are fed to both; every answer's `ok`, `error` and the
whole state must agree.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from referee.answers import HeaderError
from referee.table import Referee

NUMBERS = ("1", "2", "3", "5", "6", "7", "8", "9", "10")
ELEMENTS = ("WASSER", "FEUER", "ERDE", "LUFT")
FACES = NUMBERS + ELEMENTS
TYPES = ("play", "take_pile", "reveal", "draw", "press", "undo")


def header(players: list[str], **extra: Any) -> dict[str, Any]:
    return {"format": "tabletop-referee/1", "game": "alcasan", "players": players, **extra}


class Reject(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


class Model:
    """The rules file, read as plainly as possible."""

    def __init__(self, players: list[str], dealer: str | None = None, copies: int = 4, stop: bool = False):
        self.players = list(players)
        self.copies = copies
        self.stop = stop
        dealer = dealer or players[-1]
        self.s: dict[str, Any] = {
            "turn": players[(players.index(dealer) + 1) % len(players)],
            "finished": False,
            "places": dict.fromkeys(players, 0),
            "winners": [],
            "pile": [],  # [(face, copy or None)] bottom → top
            "burned": [],
            "draw": 13 * copies - 9 * len(players),
            "hands": dict.fromkeys(players, 3),
            "up": dict.fromkeys(players, 3),
            "down": dict.fromkeys(players, 3),
            "out": [],
        }
        self.undo_stack: list[dict[str, Any]] = []

    # --- reading

    def effective(self) -> str | None:
        for face, _ in reversed(self.s["pile"]):
            if face != "LUFT":
                return face
        return None

    def need(self) -> str:
        eff = self.effective()
        if eff is None or eff == "ERDE":
            return "any"
        if eff == "WASSER":
            return "<=4"
        return f">={eff}"

    def verdict(self, face: str) -> str | None:
        eff = self.effective()
        if eff is None or eff == "ERDE" or face in ("FEUER", "ERDE", "LUFT"):
            return None
        if eff == "WASSER":
            return None if face in ("1", "2", "3", "WASSER") else "too-high"
        if face == "WASSER":
            return None if int(eff) <= 4 else "wasser-blocked"
        return None if int(face) >= int(eff) else "too-low"

    def state(self) -> dict[str, Any]:
        s = self.s
        return {
            "turn": s["turn"],
            "finished": s["finished"],
            "scores": dict(s["places"]),
            "winners": list(s["winners"]),
            "pile": len(s["pile"]),
            "top": s["pile"][-1][0] if s["pile"] else None,
            "need": self.need(),
            "burned": len(s["burned"]),
            "draw_pile": s["draw"],
            "hands": dict(s["hands"]),
            "up": dict(s["up"]),
            "down": dict(s["down"]),
            "out": list(s["out"]),
        }

    def holds(self, p: str) -> bool:
        s = self.s
        return bool(s["hands"][p] or s["up"][p] or s["down"][p])

    def phase(self, p: str) -> str:
        s = self.s
        return "hand" if s["hands"][p] else "up" if s["up"][p] else "down"

    def parse(self, code: str) -> tuple[str, int | None]:
        if not code.startswith("AC:"):
            raise Reject("unknown-card")
        rest = code[3:]
        face, sep, n = rest.partition("#")
        if face not in FACES:
            raise Reject("unknown-card")
        if not sep:
            return face, None
        if not n or any(c not in "0123456789" for c in n) or n[0] == "0" or int(n) > self.copies:
            raise Reject("unknown-card")
        return face, int(n)

    # --- answering

    def apply(self, event: Any) -> str | None:
        try:
            self._apply(event)
        except Reject as r:
            return r.code
        return None

    def _apply(self, e: Any) -> None:
        if not isinstance(e, dict) or not isinstance(e.get("type"), str) or e["type"] not in TYPES:
            raise Reject("bad-event")
        kind = e["type"]
        if kind == "undo":
            if not self.undo_stack:
                raise Reject("nothing-to-undo")
            self.s = self.undo_stack.pop()
            return
        s = self.s
        if s["finished"]:
            raise Reject("game-over")
        if kind in ("draw", "press"):
            raise Reject("event-not-used")
        player = e.get("player")
        if not isinstance(player, str):
            raise Reject("bad-event")
        codes: list[str] = []
        if kind == "play":
            if ("card" in e) == ("cards" in e):
                raise Reject("bad-event")
            if "card" in e:
                if not isinstance(e["card"], str):
                    raise Reject("bad-event")
                codes = [e["card"]]
            else:
                cards = e["cards"]
                if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
                    raise Reject("bad-event")
                codes = list(cards)
        elif kind == "reveal":
            if not isinstance(e.get("card"), str):
                raise Reject("bad-event")
            codes = [e["card"]]
        if player not in self.players:
            raise Reject("unknown-player")
        parsed = [self.parse(c) for c in codes]
        table = s["pile"] + s["burned"]
        for face in {f for f, _ in parsed}:
            if sum(1 for f, _ in table if f == face) + sum(1 for f, _ in parsed if f == face) > self.copies:
                raise Reject("card-exhausted")
        named = [(f, n) for f, n in parsed if n is not None]
        if len(set(named)) != len(named) or any(x in table for x in named):
            raise Reject("card-exhausted")
        if player != s["turn"]:
            raise Reject("not-your-turn")
        phase = self.phase(player)
        if kind == "play":
            if phase == "down":
                raise Reject("must-reveal")
            if len({f for f, _ in parsed}) > 1:
                raise Reject("mixed-faces")
            if len(parsed) > s[{"hand": "hands", "up": "up"}[phase]][player]:
                raise Reject("too-many-cards")
            err = self.verdict(parsed[0][0])
            if err:
                raise Reject(err)
        elif kind == "take_pile":
            if phase == "down":
                raise Reject("must-reveal")
            if not s["pile"]:
                raise Reject("pile-empty")
        elif phase != "down":
            raise Reject("not-face-down")
        # accepted
        self.undo_stack.append(copy.deepcopy(s))
        if kind == "play":
            s[{"hand": "hands", "up": "up"}[phase]][player] -= len(parsed)
            self.lay(player, parsed)
        elif kind == "take_pile":
            s["hands"][player] += len(s["pile"])
            s["pile"] = []
            self.next_turn(player)
        else:
            s["down"][player] -= 1
            if self.verdict(parsed[0][0]) is None:
                self.lay(player, parsed)
            else:
                s["hands"][player] += len(s["pile"]) + 1
                s["pile"] = []
                self.next_turn(player)

    def lay(self, player: str, cards: list[tuple[str, int | None]]) -> None:
        s = self.s
        s["pile"] = s["pile"] + cards
        top4 = [f for f, _ in s["pile"][-4:]]
        burn = cards[0][0] == "FEUER" or (len(top4) == 4 and len(set(top4)) == 1)
        if burn:
            s["burned"] = s["burned"] + s["pile"]
            s["pile"] = []
        while s["draw"] and s["hands"][player] < 3:
            s["hands"][player] += 1
            s["draw"] -= 1
        if self.holds(player):
            if not burn:
                self.next_turn(player)
            return
        s["out"].append(player)
        s["places"][player] = len(s["out"])
        still = [p for p in self.players if self.holds(p)]
        if self.stop or len(still) == 1:
            last = 2 if self.stop else len(self.players)
            for p in still:
                s["places"][p] = last
            s["finished"] = True
            s["turn"] = None
            s["winners"] = [s["out"][0]]
        else:
            self.next_turn(player)

    def next_turn(self, player: str) -> None:
        i = self.players.index(player)
        for k in range(1, len(self.players) + 1):
            p = self.players[(i + k) % len(self.players)]
            if self.holds(p):
                self.s["turn"] = p
                return
        raise AssertionError("nobody holds cards")


# --- random event streams


def code(rng: random.Random, face: str, copies: int) -> str:
    roll = rng.random()
    if roll < 0.55:
        return f"AC:{face}"
    if roll < 0.97:
        return f"AC:{face}#{rng.randint(1, copies)}"
    return rng.choice([f"AC:{face}#0", f"AC:{face}#{copies + 1}", f"AC:{face}#", "AC:4", f"AC:{face}#01"])


def random_event(rng: random.Random, m: Model) -> Any:
    s = m.s
    turn = s["turn"] or rng.choice(m.players)
    player = turn if rng.random() < 0.9 else rng.choice([*m.players, "Zed"])
    roll = rng.random()
    if roll < 0.02:
        return {"type": "undo"}
    if roll < 0.04:
        return rng.choice([
            None, [], {}, {"type": "draw", "player": player}, {"type": "press", "player": player},
            {"type": "play", "player": player}, {"type": "play", "player": None, "card": "AC:5"},
            {"type": "play", "player": player, "card": "AC:5", "cards": ["AC:5"]},
            {"type": "reveal", "player": player, "cards": ["AC:5"]}, {"type": "expect"},
            {"type": "play", "player": player, "cards": []}, {"type": "take_pile"},
        ])
    if m.phase(turn) == "down" and rng.random() < 0.85:
        return {"type": "reveal", "player": player, "card": code(rng, rng.choice(FACES), m.copies)}
    if roll < 0.12:
        return {"type": "take_pile", "player": player}
    if roll < 0.14:
        return {"type": "reveal", "player": player, "card": code(rng, rng.choice(FACES), m.copies)}
    legal = [f for f in FACES if m.verdict(f) is None]
    # prefer low faces and few elements so that games move on
    weights = [0.3 if f in ("FEUER", "ERDE", "LUFT") else 1.0 for f in legal]
    face = rng.choices(legal, weights)[0] if rng.random() < 0.9 else rng.choice(FACES)
    n = rng.choice((1, 1, 1, 1, 2, 2, 3, 4))
    faces = [face] * n
    if rng.random() < 0.05:
        faces[-1] = rng.choice(FACES)
    codes = [code(rng, f, m.copies) for f in faces]
    if n == 1 and rng.random() < 0.7:
        return {"type": "play", "player": player, "card": codes[0]}
    return {"type": "play", "player": player, "cards": codes}


CONFIGS = [
    (["A", "B"], None, {}),
    (["A", "B", "C"], None, {}),
    (["A", "B", "C", "D"], "B", {}),
    (["A", "B", "C"], "A", {"stop_at_first": True}),
    (["A", "B"], None, {"copies": 2}),
    (["A", "B", "C", "D"], None, {"copies": 3}),
    (["A", "B", "C"], None, {"copies": 6}),
    (["A", "B", "C", "D"], "D", {"copies": 5, "stop_at_first": False}),
]


@pytest.mark.parametrize("seed", range(40))
def test_engine_agrees_with_a_plain_reading_of_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    players, dealer, options = CONFIGS[seed % len(CONFIGS)]
    h = header(players, options=options)
    if dealer:
        h["dealer"] = dealer
    r = Referee(h)
    m = Model(players, dealer, options.get("copies", 4), options.get("stop_at_first", False))
    assert r.state() == m.state()
    for step in range(3000):
        event = random_event(rng, m)
        want = m.apply(event)
        answer = r.apply(event)
        got = None if answer.ok else answer.error
        assert got == want, f"step {step}: {event}: engine {got}, rules {want}\nstate {m.state()}"
        if got is not None:  # every sentence is filled in, in both languages
            for lang in ("en", "de"):
                text = answer.message(lang)
                assert text and "{" not in text, f"{event}: {lang} message {text!r}"
        assert r.state() == m.state(), f"step {step}: {event}"
        if m.s["finished"] and rng.random() < 0.05:
            break


# --- explicit probes: the order of checks where two faults meet, copy numbers, undo, the end


def referee(players: list[str] | None = None, **options: Any) -> Referee:
    return Referee(header(players or ["Anna", "Ben", "Cem"], options=options))


def arrange(r: Referee, **counts: Any) -> None:
    """White-box: put the game into a later phase by setting the counts the referee keeps."""
    for key, value in counts.items():
        if isinstance(value, dict):  # hands, up, down: each player's counts are kept by their `Holder`
            for player, count in value.items():
                setattr(r.game.holders[player], {"hands": "hand"}.get(key, key), count)
        else:
            setattr(r.game, key, value)


def ev(kind: str, player: str | None = None, *faces: str, **fields: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"type": kind, **fields}
    if player is not None:
        e["player"] = player
    codes = [f"AC:{f}" for f in faces]
    if codes and (kind == "reveal" or len(codes) == 1):
        e["card"] = codes[0]
    elif codes:
        e["cards"] = codes
    return e


def expect(r: Referee, event: Any, code: str | None) -> dict[str, Any]:
    before = json.dumps(r.state(), sort_keys=True)
    answer = r.apply(event)
    got = None if answer.ok else answer.error
    assert got == code, f"{event}: {got}, expected {code}"
    if code is not None:
        assert json.dumps(r.state(), sort_keys=True) == before, "a rejected event changed the state"
        for lang in ("en", "de"):
            text = answer.message(lang)
            assert text and "{" not in text, f"{event}: {lang} message {text!r}"
    return r.state()


FACE_DOWN = {"draw_pile": 0, "hands": {"Anna": 0}, "up": {"Anna": 0}}

ORDER_CASES = [
    # (white-box set-up, events laid first, the probe, the code that wins)
    ({}, [], ev("play", "Zed"), "bad-event"),  # 5 before 6
    ({}, [], ev("reveal", "Zed", cards=["AC:4"]), "bad-event"),  # reveal needs `card`
    ({}, [], ev("play", "Zed", "4"), "unknown-player"),  # 6 before 7
    ({}, [ev("play", "Anna", "7#1")], ev("play", "Ben", "7#1", "4"), "unknown-card"),  # 7 before 8, any position
    ({}, [ev("play", "Anna", "7#1")], ev("reveal", "Cem", "7#1"), "card-exhausted"),  # 8 before 9
    ({}, [], ev("play", "Ben", "4"), "unknown-card"),  # 7 before 9
    (FACE_DOWN, [], ev("play", "Ben", "5", "6"), "not-your-turn"),  # 9 before 10
    (FACE_DOWN, [], ev("play", "Anna", "5", "6"), "must-reveal"),  # must-reveal before mixed-faces
    (FACE_DOWN, [], ev("play", "Anna", "5", "5", "5", "5"), "must-reveal"),  # … before too-many-cards
    (FACE_DOWN, [], ev("take_pile", "Anna"), "must-reveal"),  # must-reveal before pile-empty
    ({}, [], ev("play", "Anna", "5", "6", "7", "8"), "mixed-faces"),  # mixed before too many
    ({}, [ev("play", "Anna", "9")], ev("play", "Ben", "3", "3", "3", "3"), "too-many-cards"),  # before too-low
    ({}, [ev("play", "Anna", "WASSER")], ev("play", "Ben", "5", "5", "5", "5"), "too-many-cards"),  # before too-high
    ({}, [ev("play", "Anna", "9")], ev("play", "Ben", "WASSER", "WASSER", "WASSER", "WASSER"), "too-many-cards"),
    ({}, [ev("play", "Anna", "9")], ev("reveal", "Ben", "4"), "unknown-card"),  # reveal: 7 before 10
    ({}, [], ev("reveal", "Ben", "5"), "not-your-turn"),  # reveal: 9 before 10
    ({}, [], ev("reveal", "Anna", "5"), "not-face-down"),
    ({}, [], ev("take_pile", "Ben"), "not-your-turn"),  # take: 9 before pile-empty
    ({}, [], {"type": "draw", "player": 5}, "event-not-used"),  # 4 before 5
    ({}, [], {"type": "press"}, "event-not-used"),
    ({}, [], {"type": "undo", "player": 5}, "nothing-to-undo"),  # fields of undo do not matter
    ({}, [], {"type": "expect", "ok": True}, "bad-event"),
    ({}, [], {"type": "PLAY", "player": "Anna", "card": "AC:5"}, "bad-event"),
    ({}, [], {"type": None}, "bad-event"),
    ({}, [], {"player": "Anna", "card": "AC:5"}, "bad-event"),
    ({}, [], ev("play", "Anna", "5", cards=None), "bad-event"),  # `card` and `cards` both present
    ({}, [], ev("play", "Anna", cards=None), "bad-event"),
    ({}, [], ev("play", "Anna", cards=[["AC:5"]]), "bad-event"),
    ({}, [], ev("play", "Anna", card=True), "bad-event"),
    ({}, [], ev("reveal", "Anna", card=None), "bad-event"),
    ({}, [], ev("take_pile", "Anna", card=None, cards=5), "pile-empty"),  # extra fields are ignored
    ({}, [], ev("play", "Anna", cards=["AC:5"]), None),  # a list of one card is a play of one card
    ({}, [ev("play", "Anna", "9#1")], ev("play", "Ben", "9#1", "8"), "card-exhausted"),  # 8 before mixed-faces
    ({}, [], ev("play", "Ben", "9", "8"), "not-your-turn"),  # 9 before mixed-faces
    ({}, [ev("play", "Anna", "9")], ev("play", "Ben", "9", "9", "9", "9"), "card-exhausted"),  # before too many
    ({}, [ev("play", "Anna", "ERDE"), ev("play", "Ben", "LUFT")], ev("play", "Cem", "1", "1", "1"), None),
    ({}, [ev("play", "Anna", "WASSER"), ev("play", "Ben", "LUFT")], ev("play", "Cem", "5"), "too-high"),
    ({}, [ev("play", "Anna", "5"), ev("play", "Ben", "LUFT")], ev("play", "Cem", "WASSER"), "wasser-blocked"),
]


@pytest.mark.parametrize(("setup", "before", "probe", "code"), ORDER_CASES)
def test_order_of_checks(setup: dict[str, Any], before: list[dict[str, Any]], probe: Any, code: str) -> None:
    r = referee()
    arrange(r, **setup)
    for event in before:
        expect(r, event, None)
    expect(r, probe, code)


@pytest.mark.parametrize(
    ("code", "copies", "known"),
    [
        ("AC:7#1", 4, True), ("AC:7#4", 4, True), ("AC:7#5", 4, False), ("AC:7#5", 5, True), ("AC:10#12", 12, True),
        ("AC:7#0", 4, False), ("AC:7#01", 4, False), ("AC:7#00", 4, False), ("AC:7#", 4, False),
        ("AC:7##", 4, False), ("AC:7##1", 4, False), ("AC:7#1#1", 4, False), ("AC:7#a", 4, False),
        ("AC:7#1a", 4, False), ("AC:7# 1", 4, False), ("AC:7#+1", 4, False), ("AC:7#1.0", 4, False),
        ("AC:7#\u0661", 4, False), ("AC:7#\u00b2", 4, False), ("AC:7 #1", 4, False), ("AC:#1", 4, False),
        ("AC:WASSER#4", 4, True), ("AC:wasser", 4, False), ("AC:Luft", 4, False), ("AC:4#1", 4, False),
        ("AC:10", 4, True), ("AC:010", 4, False), ("AC:1O", 4, False), ("AC:7.0", 4, False), ("AC: 7", 4, False),
        ("AC7", 4, False), ("AC::7", 4, False), ("XX:7", 4, False), ("", 4, False),
        ("AC:7#99999999999999999999", 4, False),
    ],
)
def test_copy_numbers_and_faces(code: str, copies: int, known: bool) -> None:
    r = referee(copies=copies)
    for event in ({"type": "play", "player": "Anna", "card": code},
                  {"type": "play", "player": "Anna", "cards": [code]}):
        expect(r, event, None if known else "unknown-card")
        if known:
            expect(r, {"type": "undo"}, None)


def test_card_exhausted_with_and_without_copy_numbers() -> None:
    r = referee(["Anna", "Ben", "Cem", "Dora"])
    expect(r, ev("play", "Anna", "7", "7"), None)  # two unnamed sevens on the table
    expect(r, ev("play", "Ben", "7#1", "7#2", "7#3"), "card-exhausted")  # 2 + 3 > 4
    expect(r, ev("play", "Ben", "7#2", "7#2"), "card-exhausted")  # a copy named twice
    expect(r, ev("play", "Ben", "7#1"), None)  # a named copy may be one of the unnamed: only faces count
    expect(r, ev("play", "Cem", "7#1"), "card-exhausted")  # that copy is on the table now
    expect(r, ev("play", "Cem", "8#1", "8#1"), "card-exhausted")
    expect(r, ev("play", "Cem", "7"), None)  # the fourth 7 burns
    assert r.state()["burned"] == 4 and r.state()["turn"] == "Cem"
    for event in (ev("play", "Cem", "7"), ev("play", "Cem", "7#3"), ev("play", "Cem", "7", "8")):
        expect(r, event, "card-exhausted")  # burned cards stay on the table
    expect(r, ev("play", "Cem", "8#1", "8#2", "8#3"), None)
    expect(r, ev("play", "Dora", "8#4"), None)  # the fourth 8: burned
    expect(r, ev("play", "Dora", "8#4"), "card-exhausted")


def test_undo_down_to_the_header_and_after_a_rejection() -> None:
    r = referee()
    start = r.state()
    states = [start]
    for event in (ev("play", "Anna", "5#1"), ev("play", "Ben", "5"), ev("play", "Cem", "5", "5")):
        states.append(expect(r, event, None))
    assert states[-1]["burned"] == 4 and states[-1]["turn"] == "Cem"
    expect(r, ev("play", "Cem", "5#1"), "card-exhausted")
    expect(r, {"type": "undo"}, None)  # undoes the burn, not the rejected event
    assert r.state() == states[2]
    expect(r, ev("play", "Cem", "5#1"), "card-exhausted")  # 5#1 is still on the pile
    expect(r, ev("take_pile", "Cem"), None)
    expect(r, ev("play", "Anna", "5#1"), None)  # taken back into a hand: may be scanned again
    for _ in range(4):
        expect(r, {"type": "undo"}, None)
    assert r.state() == start
    expect(r, {"type": "undo"}, "nothing-to-undo")
    assert r.state() == start


def test_the_exact_state_at_the_end_and_after_it() -> None:
    r = referee(["Anna", "Ben", "Cem"], copies=5)
    arrange(r, draw_pile=0, hands={"Anna": 0, "Ben": 1, "Cem": 0}, up={"Anna": 0, "Ben": 0, "Cem": 2},
            down={"Anna": 1, "Ben": 0, "Cem": 0})
    expect(r, ev("reveal", "Anna", "LUFT"), None)  # Anna's last card: out
    expect(r, ev("play", "Ben", "2#5"), None)  # Ben's last card: out, only Cem holds cards
    end = {
        "turn": None, "finished": True, "scores": {"Anna": 1, "Ben": 2, "Cem": 3}, "winners": ["Anna"],
        "pile": 2, "top": "2", "need": ">=2", "burned": 0, "draw_pile": 0,
        "hands": {"Anna": 0, "Ben": 0, "Cem": 0}, "up": {"Anna": 0, "Ben": 0, "Cem": 2},
        "down": {"Anna": 0, "Ben": 0, "Cem": 0}, "out": ["Anna", "Ben"],
    }
    assert r.state() == end
    for event in (ev("play", "Cem", "5"), ev("take_pile", "Cem"), ev("reveal", "Cem", "5"), {"type": "play"},
                  {"type": "draw"}, {"type": "press", "player": "Cem", "button": "slap"},
                  ev("play", "Zed", "4"), ev("play", "Cem", "2#5")):
        expect(r, event, "game-over")
    for event in ({"type": "fly"}, {"type": 3}, [], None):
        expect(r, event, "bad-event")
    assert r.state() == end


def test_a_burn_with_the_last_card_under_stop_at_first_ends_at_once() -> None:
    r = referee(["Anna", "Ben", "Cem"], stop_at_first=True)
    arrange(r, draw_pile=0, hands={"Anna": 0}, up={"Anna": 0}, down={"Anna": 1}, turn="Cem")
    expect(r, ev("play", "Cem", "WASSER", "WASSER", "WASSER"), None)
    state = expect(r, ev("reveal", "Anna", "WASSER"), None)  # the fourth Wasser burns and Anna is out
    assert state["finished"] and state["burned"] == 4 and state["pile"] == 0 and state["top"] is None
    assert state["out"] == ["Anna"] and state["scores"] == {"Anna": 1, "Ben": 2, "Cem": 2}
    assert state["up"] == {"Anna": 0, "Ben": 3, "Cem": 3} and state["hands"]["Cem"] == 0
    assert state["winners"] == ["Anna"] and state["turn"] is None


THREE = ["A", "B", "C"]
FOUR = ["A", "B", "C", "D"]
BAD_HEADERS = [
    {"players": ["A"]}, {"players": ["A", "B", "C", "D", "E"]}, {"players": []}, {"players": None},
    {"players": "AB"}, {"players": ["A", 2]}, {"players": ["A", ""]}, {"players": ["A", "B", "A"]},
    {"players": ["A", None]}, {"dealer": None}, {"dealer": "Z"}, {"dealer": ""}, {"dealer": 0}, {"dealer": ["A"]},
    {"options": None}, {"options": []}, {"options": "copies=4"}, {"options": 4},
    {"options": {"copies": 0}}, {"options": {"copies": -1}}, {"options": {"copies": 4.0}}, {"options": {"copies": 2.5}},
    {"options": {"copies": True}}, {"options": {"copies": False}}, {"options": {"copies": None}},
    {"options": {"copies": "4"}}, {"options": {"copies": [4]}}, {"options": {"copies": 2}},  # 26 < 27 dealt
    {"options": {"copies": 1}, "players": ["A", "B"]},  # 13 < 18
    {"options": {"copies": 2}, "players": FOUR},  # 26 < 36
    {"options": {"stop_at_first": 0}}, {"options": {"stop_at_first": 1}}, {"options": {"stop_at_first": None}},
    {"options": {"stop_at_first": "true"}}, {"options": {"stop_at_first": []}},
    {"options": {"copies": 4, "extra": 1}}, {"options": {"Copies": 4}}, {"options": {"": 1}},
    {"options": {"stop_at_first": True, "copies": 4.0}},
    {"format": "tabletop-referee/2"}, {"format": None}, {"game": "Alcasan"}, {"game": None},
]


@pytest.mark.parametrize("bad", BAD_HEADERS)
def test_bad_headers(bad: dict[str, Any]) -> None:
    with pytest.raises(HeaderError) as caught:
        Referee({**header(THREE), **bad})
    assert caught.value.code == "bad-header" and caught.value.message("de")


@pytest.mark.parametrize(
    ("players", "extra", "turn", "draw_pile"),
    [
        (["A", "B"], {"options": {"copies": 2}}, "A", 8),  # 26 − 18: the smallest deck for two
        (THREE, {"options": {"copies": 3}, "dealer": "A"}, "B", 12),  # 39 − 27
        (FOUR, {"options": {"copies": 3}, "dealer": "C"}, "D", 3),  # 39 − 36
        (FOUR, {"dealer": "D", "options": {"stop_at_first": False}}, "A", 16),
        (THREE, {"options": {"copies": 100, "stop_at_first": True}}, "A", 1300 - 27),
        (THREE, {"options": {}}, "A", 25),
        (THREE, {}, "A", 25),  # no options at all
    ],
)
def test_good_headers(players: list[str], extra: dict[str, Any], turn: str, draw_pile: int) -> None:
    state = Referee({**header(players), **extra}).state()
    assert state["turn"] == turn and state["draw_pile"] == draw_pile
    assert state["hands"] == state["up"] == state["down"] == dict.fromkeys(players, 3)
