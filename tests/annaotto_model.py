"""An independent model of `../shared/rules/annaotto.md`, written from the rules file alone.

It shares no code with `referee/games/annaotto/` (plain dicts, copies for undo, its
own card parsing and check order) so `tests/test_annaotto_spec.py` can compare the
two on random event streams: every answer's error code and every state after it.
Slow on purpose (deepcopy per event); only for tests.
"""

from __future__ import annotations

import copy

COLOURS = ["RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE", "PINK", "BROWN"]
PATTERNS = ["DOTS", "STRIPES", "CHECKS", "WAVES"]
SP = dict(zip(COLOURS, ["DOTS", "STRIPES", "CHECKS", "WAVES"] * 2, strict=False))
SIGNS = ["ANNA", "OTTO", "ALLE", "PLUS", "RETOUR", "HUERDEN"]


class R(Exception):
    pass


def faces(plain, special, wild):
    f = {}
    for c in COLOURS:
        for p in PATTERNS:
            if plain:
                f[f"{c}.{p}"] = plain
        for s in SIGNS:
            if special:
                f[f"{c}.{SP[c]}.{s}"] = special
    if wild:
        f["ANNAOTTO"] = wild
    return f


def parse(face):
    if face == "ANNAOTTO":
        return None, None, None, True
    parts = face.split(".")
    return parts[0], parts[1], parts[2] if len(parts) == 3 else None, False


def isint(v):
    return type(v) is int


class Model:
    def __init__(self, players, dealer, hand_size=8, first=None, plain=3, special=1, wild=8):
        self.players = list(players)
        self.n = len(players)
        self.faces = faces(plain, special, wild)
        size = sum(self.faces.values())
        self.started = False
        self.finished = False
        self.turn = None
        self.first = first if first is not None else players[(players.index(dealer) + 1) % self.n]
        self.top = None
        self.colour = None
        self.pattern = None
        self.pile = 0
        self.draw_pile = size // 2 - self.n * hand_size
        self.hands = {p: hand_size for p in players}
        self.direction = 1
        self.chain = None
        self.chain_by = None
        self.plus = 0
        self.drawn = False
        self.choices = []
        self.layer = None
        self.race = None  # dict by, called, pressed, parts
        self.due = None
        self.flip = None
        self.out = []
        self.pending = None
        self.tcount = {}
        self.tcopies = set()
        self.winners = []
        self.top_code = None

    # ---------- helpers
    def code(self, code):
        if not code.startswith("AO:"):
            raise R("unknown-card")
        rest = code[3:]
        face, sep, num = rest.partition("#")
        if face not in self.faces:
            raise R("unknown-card")
        cp = None
        if sep:
            if not num or not all(ch in "0123456789" for ch in num) or num[0] == "0":
                raise R("unknown-card")
            cp = int(num)
            if cp > self.faces[face]:
                raise R("unknown-card")
        return face, cp

    def exhausted(self, face, cp):
        if self.tcount.get(face, 0) >= self.faces[face] or (cp is not None and (face, cp) in self.tcopies):
            raise R("card-exhausted")

    def next_holder(self, p):
        i = self.players.index(p)
        for k in range(1, self.n + 1):
            q = self.players[(i + k * self.direction) % self.n]
            if self.hands[q] > 0:
                return q
        return p

    def take(self, p, k):
        got = 0
        for _ in range(k):
            if self.draw_pile == 0 and self.pile > 1:
                self.draw_pile += self.pile - 1
                self.pile = 1
                self.tcount = {self.top_code[0]: 1}
                self.tcopies = {self.top_code} if self.top_code[1] is not None else set()
            if self.draw_pile == 0:
                break
            self.draw_pile -= 1
            got += 1
        if got:
            if self.hands[p] == 0 and p in self.out:
                self.out.remove(p)
            self.hands[p] += got
        return got

    # ---------- apply
    def apply(self, ev):
        if type(ev) is not dict or type(ev.get("type")) is not str:
            raise R("bad-event")
        t = ev["type"]
        if t not in ("start", "play", "draw", "press", "call", "catch", "choose_colour", "flip_choice", "race_close"):
            raise R("bad-event")
        if self.finished:
            raise R("game-over")
        # step 4
        if t not in ("start", "race_close") and type(ev.get("player")) is not str:
            raise R("bad-event")
        if t == "play":
            hc, hcs = "card" in ev, "cards" in ev
            if hc == hcs:
                raise R("bad-event")
            if hc and type(ev["card"]) is not str:
                raise R("bad-event")
            if hcs:
                cs = ev["cards"]
                if type(cs) is not list or not cs or any(type(c) is not str for c in cs):
                    raise R("bad-event")
            if "from" in ev and type(ev["from"]) is not str:
                raise R("bad-event")
        elif t == "start":
            if type(ev.get("card")) is not str:
                raise R("bad-event")
        elif t == "draw":
            if "count" in ev and (not isint(ev["count"]) or ev["count"] < 1):
                raise R("bad-event")
        elif t == "press":
            if ev.get("button") not in ("confirm", "slap") or type(ev.get("button")) is not str:
                raise R("bad-event")
            if "t_us" in ev:
                if not isint(ev["t_us"]) or ev["t_us"] < 0:
                    raise R("bad-event")
            elif ev["button"] == "slap":
                raise R("bad-event")
        elif t == "call":
            if type(ev.get("word")) is not str or ev["word"] not in ("ANNA", "OTTO", "ALLE"):
                raise R("bad-event")
        elif t == "catch":
            if type(ev.get("target")) is not str:
                raise R("bad-event")
        elif t == "choose_colour":
            if type(ev.get("colour")) is not str:
                raise R("bad-event")
        elif t == "flip_choice" and (type(ev.get("who")) is not str or ev["who"] not in ("self", "next")):
            raise R("bad-event")
        # step 5
        p = ev.get("player")
        if t not in ("start", "race_close") and p not in self.hands:
            raise R("unknown-player")
        if t == "play" and "from" in ev and ev["from"] not in self.hands:
            raise R("unknown-player")
        if t == "catch" and ev["target"] not in self.hands:
            raise R("unknown-player")
        # step 6, 7
        card = None
        if t in ("start", "play"):
            codes = [ev["card"]] if "card" in ev else ev["cards"]
            parsed = [self.code(c) for c in codes]
            if len(parsed) > 1:
                raise R("one-card-only")
            card = parsed[0]
        # step 8
        if t == "start":
            if self.started:
                raise R("already-started")
        elif not self.started:
            raise R("not-started")
        # step 9
        if card is not None:
            self.exhausted(*card)
        # step 10
        if t == "start":
            c, pa, s, w = parse(card[0])
            if s or w:
                raise R("start-not-plain")
            self.started = True
            self.lay(card)
            self.draw_pile -= 1
            self.turn = self.first
            return
        # step 11
        if t == "call":
            w = ev["word"]
            if w == "ALLE":
                if self.race is None or self.race["by"] != p or self.race["called"]:
                    raise R("no-call-due")
                self.race["called"] = True
                return
            if self.due != {"player": p, "word": w}:
                raise R("no-call-due")
            self.due = None
            if self.pending is not None:
                self.finish()
            return
        if t == "catch":
            tg = ev["target"]
            if self.due is None or self.due["player"] != tg or p == tg:
                raise R("nothing-to-catch")
            self.due = None
            got = self.take(tg, 1)
            if self.pending is not None:
                if not got:
                    self.finish()
                    return
                actor, face, chain, chain_by, plus = self.pending
                self.pending = None
                self.chain, self.chain_by, self.plus = chain, chain_by, plus
                self.effect(actor, face)
            return
        if t == "race_close" or (t == "press" and ev["button"] == "slap"):
            if self.race is None:
                raise R("no-race")
            if t == "race_close":
                self.close_race(False)
                return
            if p not in self.race["parts"]:
                raise R("not-in-race")
            if p in self.race["pressed"]:
                raise R("already-pressed")
            self.race["pressed"][p] = ev["t_us"]
            if len(self.race["pressed"]) == len(self.race["parts"]):
                self.close_race(True)
            return
        # step 12
        if self.race is not None:
            raise R("race-open")
        if p != self.turn:
            raise R("not-your-turn")
        # 13
        if t in ("choose_colour", "flip_choice"):
            key = "colour" if t == "choose_colour" else "flip"
            if key not in self.choices:
                raise R("no-choice-pending")
            if t == "choose_colour":
                if ev["colour"] not in COLOURS:
                    raise R("bad-colour")
                self.colour = ev["colour"]
            else:
                tgt = p if ev["who"] == "self" else self.next_holder(p)
                self.flip = {"by": p, "target": tgt, "cards": "all"}
            self.choices.remove(key)
            if not self.choices:
                self.turn = self.next_holder(self.layer)
                self.layer = None
            return
        # 14
        if self.choices:
            raise R("choice-pending")
        if t == "press":  # confirm
            if self.chain is None and not self.plus and not self.drawn:
                raise R("nothing-to-confirm")
            self.flip = None
            self.due = None
            if self.chain is not None:
                a, o = self.chain["anna"], self.chain["otto"]
                self.take(p, 2 * o)
                if a:
                    self.flip = {"by": self.chain_by, "target": p, "cards": 2 * a}
                self.chain = None
                self.chain_by = None
            elif self.plus:
                self.take(p, self.plus)
                self.plus = 0
            else:
                self.drawn = False
                self.turn = self.next_holder(p)
            return
        if t == "draw":
            if self.chain is not None or self.plus:
                raise R("penalty-pending")
            if self.drawn:
                raise R("already-drawn")
            if ev.get("count", 1) != 1:
                raise R("bad-draw-count")
            if self.draw_pile == 0 and self.pile < 2:
                raise R("no-cards-to-draw")
            self.flip = None
            self.due = None
            self.take(p, 1)
            self.drawn = True
            return
        # play, step 17
        src = ev.get("from")
        if src is not None:
            if self.drawn:
                raise R("drawn-card-only")
            if src == p:
                raise R("bad-source")
            if self.hands[src] < 2:
                raise R("last-card-protected")
        c, pa, s, w = parse(card[0])
        _tc, _tp, ts, tw = parse(self.top)
        if self.chain is not None:
            want = "OTTO" if ts == "ANNA" else "ANNA"
            if s != want:
                raise R("penalty-pending")
        elif self.plus:
            if s != "PLUS":
                raise R("penalty-pending")
        else:
            if s in ("ANNA", "OTTO") and ts == s:
                raise R("must-alternate")
            if w:
                okm = True
            elif tw:
                okm = c == self.colour
            else:
                alternates = s in ("ANNA", "OTTO") and ts in ("ANNA", "OTTO") and ts != s
                same_sign = s in ("ALLE", "PLUS", "RETOUR", "HUERDEN") and s == ts
                okm = alternates or same_sign or c == self.colour or pa == self.pattern
            if not okm:
                raise R("no-match")
        # accepted
        self.flip = None
        self.due = None
        self.drawn = False
        self.lay(card)
        if src is not None:
            self.hands[src] -= 1
        else:
            self.hands[p] -= 1
            if self.hands[p] == 1:
                self.due = {"player": p, "word": "ANNA"}
            elif self.hands[p] == 0:
                self.due = {"player": p, "word": "OTTO"}
                self.out.append(p)
        if sum(1 for h in self.hands.values() if h) == 1:
            self.pending = (p, card[0], self.chain, self.chain_by, self.plus)
            self.chain = None
            self.plus = 0
            self.turn = None
            return
        self.effect(p, card[0])

    def lay(self, card):
        face, cp = card
        self.tcount[face] = self.tcount.get(face, 0) + 1
        if cp is not None:
            self.tcopies.add(card)
        self.pile += 1
        self.top = face
        self.top_code = card
        c, pa, _s, _w = parse(face)
        self.colour, self.pattern = c, pa

    def effect(self, p, face):
        _c, _pa, s, w = parse(face)
        if w:
            self.choices = ["colour", "flip"]
            self.layer = p
            self.colour = None
            self.turn = p
        elif s in ("ANNA", "OTTO"):
            if self.chain is None:
                self.chain = {"anna": 0, "otto": 0}
            else:
                self.chain = dict(self.chain)
            self.chain[s.lower()] += 1
            self.chain_by = p
            self.turn = self.next_holder(p)
        elif s == "PLUS":
            self.plus += 1
            self.turn = self.next_holder(p)
        elif s == "RETOUR":
            self.direction = -self.direction
            self.turn = self.next_holder(p)
        elif s == "HUERDEN":
            self.turn = self.next_holder(self.next_holder(p))
        elif s == "ALLE":
            self.race = {"by": p, "called": False, "pressed": {}, "parts": [q for q in self.players if self.hands[q]]}
            self.turn = None
        else:
            self.turn = self.next_holder(p)

    def close_race(self, allp):
        r = self.race
        if not r["called"]:
            losers = [r["by"]]
        elif allp:
            m = max(r["pressed"].values())
            losers = [q for q in self.players if r["pressed"].get(q) == m]
        else:
            losers = [q for q in self.players if q in r["parts"] and q not in r["pressed"]]
        for q in losers:
            self.take(q, 2)
        self.race = None
        self.turn = self.next_holder(r["by"])

    def finish(self):
        self.finished = True
        self.turn = None
        self.chain = None
        self.plus = 0
        self.race = None
        self.choices = []
        self.drawn = False
        self.due = None
        self.pending = None
        self.winners = [self.out[0]]

    def public(self):
        places = {q: i + 1 for i, q in enumerate(self.out)}
        scores = {q: places.get(q, self.n if self.finished else 0) for q in self.players}
        return {
            "turn": self.turn, "finished": self.finished, "scores": scores, "winners": list(self.winners),
            "top": self.top, "colour": self.colour, "pattern": self.pattern, "pile": self.pile,
            "draw_pile": self.draw_pile, "hands": dict(self.hands), "direction": self.direction,
            "chain": None if self.chain is None else dict(self.chain), "plus": self.plus, "drawn": self.drawn,
            "choices": [c for c in ("colour", "flip") if c in self.choices],
            "race": None if self.race is None else {"by": self.race["by"], "called": self.race["called"],
                                                     "pressed": dict(self.race["pressed"])},
            "due": None if self.due is None else dict(self.due),
            "flip": None if self.flip is None else dict(self.flip),
            "out": list(self.out),
        }


class ModelRef:
    """Undo by snapshot stack."""

    def __init__(self, *a, **k):
        self.m = Model(*a, **k)
        self.stack = []

    def apply(self, ev):
        if type(ev) is dict and ev.get("type") == "undo":
            if not self.stack:
                return "nothing-to-undo"
            self.m = self.stack.pop()
            return None
        snap = copy.deepcopy(self.m)
        try:
            self.m.apply(ev)
        except R as e:
            self.m = snap
            return str(e)
        self.stack.append(snap)
        return None
