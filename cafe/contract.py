"""`tabletop-referee/cafe/1` in code: topic names, payload builders and validators, ids, the 64 KiB limit.

Both sides import this module (the table's publisher and the café hub), so a
message one side builds is exactly what the other validates. It depends on the
standard library and, for a game's most players, on the referee's game definitions.
The binding text is `shared/cafe-protocol.md`; either side may add fields, so
validators accept unknown keys and check the named ones. Every string of every
payload keeps the text rule (`check_texts`): the one sanitiser at the edge.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from referee import games
from referee.ranking import SCORE_KINDS

VERSION = 1
ROOT = "tabletop-referee/v1"
MAX_PAYLOAD = 64 * 1024  # bytes of UTF-8 JSON
MAX_DEPTH = 16  # JSON nesting: objects and arrays inside one another
MAX_INT = 2**53 - 1  # every integer (n, seq, from too) is within ±MAX_INT: exact in a double, so in every JSON reader
QOS = 1
SCREENS = ("menu", "setup", "table", "admin", "demo", "error")
KINDS = ("start", "event", "end")
END_STATUSES = ("finished", "abandoned")
LANGUAGES = ("de", "en")
TRANSCRIPT_FORMAT = "tabletop-referee/1"
STATUS_MAX_PER_S = 10
TABLE_TOPICS = ("status", "log", "replay", "assign")
MAX_NAME = 40  # characters of a player's name (the kiosk's keyboard takes 16; club nights' check-in as many)
# Text in any payload holds no control characters and no unpaired surrogates (Integrity). A surrogate in a Python
# string is always unpaired: JSON's `\ud83d\ude00` is read as one character.
_UNSAFE_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
_HASH = re.compile(r"[A-Za-z0-9_-]{43}")  # base64url of 32 bytes, no padding (Integrity: `h`, `prev`)
_SIG = re.compile(r"[A-Za-z0-9_-]{86}")  # base64url of 64 bytes (an Ed25519 signature)
_KEY = re.compile(r"ed25519:[A-Za-z0-9_-]{43}")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_TOPIC = re.compile(r"tabletop-referee/v1/(?P<cafe>[^/]+)/(?:table/(?P<table>[^/]+)/(?P<kind>status|log|replay|assign)"
                    r"|(?P<announce>announce))")


class ContractError(ValueError):
    """A topic, id or payload that breaks the café protocol; the message says which rule."""


# ---------------------------------------------------------------- names


def is_id(value: object) -> bool:
    """A café or table id: 1–32 of a-z, 0-9, '-', starting with a letter or digit."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def check_id(value: object, what: str = "id") -> str:
    if not is_id(value):
        raise ContractError(f"{what} {value!r}: use 1-32 characters a-z, 0-9, '-', starting with a letter or digit")
    return value  # type: ignore[return-value]


def table_topic(cafe: str, table: str, kind: str) -> str:
    if kind not in TABLE_TOPICS:
        raise ContractError(f"no table topic {kind!r}")
    return f"{ROOT}/{check_id(cafe, 'café')}/table/{check_id(table, 'table')}/{kind}"


def status_topic(cafe: str, table: str) -> str:
    return table_topic(cafe, table, "status")


def log_topic(cafe: str, table: str) -> str:
    return table_topic(cafe, table, "log")


def replay_topic(cafe: str, table: str) -> str:
    return table_topic(cafe, table, "replay")


def announce_topic(cafe: str) -> str:
    return f"{ROOT}/{check_id(cafe, 'café')}/announce"


def cafe_filter(cafe: str) -> str:
    """Everything of one café (what the hub subscribes to)."""
    return f"{ROOT}/{check_id(cafe, 'café')}/#"


def table_filter(cafe: str, kind: str) -> str:
    """One kind of topic of every table of a café, e.g. every `status`."""
    return f"{ROOT}/{check_id(cafe, 'café')}/table/+/{kind}"


@dataclass(frozen=True, slots=True)
class Topic:
    """A parsed topic: `kind` is status | log | replay | assign | announce; `table` is None for announce."""

    cafe: str
    table: str | None
    kind: str


def parse_topic(topic: str) -> Topic:
    m = _TOPIC.fullmatch(topic)
    if m is None:
        raise ContractError(f"not a café topic: {topic!r}")
    cafe = check_id(m.group("cafe"), "café")
    if m.group("announce"):
        return Topic(cafe, None, "announce")
    return Topic(cafe, check_id(m.group("table"), "table"), m.group("kind"))


# ---------------------------------------------------------------- bytes


def safe_text(value: str) -> bool:
    """No control character (U+0000–U+001F, U+007F–U+009F) and no unpaired surrogate: text the contract allows."""
    return _UNSAFE_TEXT.search(value) is None


def check_texts(payload: object) -> None:
    """Every string of a payload, keys included, as the contract's Integrity section allows (ContractError if
    not): one check at the edge for names, announcements, titles and whatever a later field carries."""
    stack = [payload]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _need(safe_text(item), f"text {item[:40]!r} holds a control character or an unpaired surrogate")
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def encode(payload: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON; ContractError when it exceeds the protocol's 64 KiB or holds text the contract forbids
    (a sender refuses to make such a payload)."""
    check_texts(payload)
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(data) > MAX_PAYLOAD:
        raise ContractError(f"payload of {len(data)} bytes exceeds {MAX_PAYLOAD}")
    return data


def nesting(text: str) -> int:
    """How deep objects and arrays sit inside one another in JSON `text` (strings skipped), counted without
    parsing: Python's parser recurses once per level and raises RecursionError long before 64 KiB run out."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return text.count("[") + text.count("{")
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _bounded_int(text: str) -> int:
    value = int(text)
    if not -MAX_INT <= value <= MAX_INT:
        raise ContractError(f"integer {text[:24]} is outside ±(2^53 - 1)")
    return value


def _no_constant(name: str) -> None:
    raise ContractError(f"{name} is not JSON")


def decode(data: bytes) -> dict[str, Any]:
    """A payload's JSON object (size, UTF-8, nesting and integer range checked); ContractError otherwise."""
    if len(data) > MAX_PAYLOAD:
        raise ContractError(f"payload of {len(data)} bytes exceeds {MAX_PAYLOAD}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ContractError(f"payload is not UTF-8: {error}") from None
    if nesting(text) > MAX_DEPTH:
        raise ContractError(f"payload is nested deeper than {MAX_DEPTH}")
    try:
        value = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except ContractError:
        raise
    except (ValueError, RecursionError) as error:
        raise ContractError(f"payload is not JSON: {str(error)[:200]}") from None
    if not isinstance(value, dict):
        raise ContractError("payload is not a JSON object")
    check_texts(value)
    return value


# ---------------------------------------------------------------- builders


def now_iso() -> str:
    """The sender's wall clock, ISO 8601 with its offset."""
    return datetime.now().astimezone().isoformat(timespec="milliseconds")


def status_payload(table: str, *, screen: str, game: str | None = None, game_uid: str | None = None,
                   players: list[str] | None = None, turn: str | None = None,
                   scores: Mapping[str, int] | None = None, finished: bool = False, n: int = 0,
                   at: str | None = None, **extra: Any) -> dict[str, Any]:
    payload = {"v": VERSION, "table": table, "online": True, "screen": screen, "game": game, "game_uid": game_uid,
               "players": list(players or []), "turn": turn, "scores": dict(scores or {}),
               "finished": bool(finished), "n": n, "at": at or now_iso(), **extra}
    return validate_status(payload, table)


def offline_payload(table: str) -> dict[str, Any]:
    """The status a table leaves behind (its last will): retained, so every later subscriber sees it."""
    return {"v": VERSION, "table": check_id(table, "table"), "online": False}


def replay_payload(from_n: int) -> dict[str, Any]:
    return validate_replay({"v": VERSION, "from": from_n})


def announce_payload(text: Mapping[str, str], until: str | None = None) -> dict[str, Any]:
    return validate_announce({"v": VERSION, "text": dict(text), "until": until})


# ---------------------------------------------------------------- validators


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise ContractError(message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_time(value: object, what: str = "at") -> datetime:
    """An ISO 8601 time with an offset (what `at` and `until` carry)."""
    _need(isinstance(value, str), f"{what} must be an ISO 8601 string")
    try:
        moment = datetime.fromisoformat(value)  # type: ignore[arg-type]
    except ValueError:
        raise ContractError(f"{what} {value!r} is not ISO 8601") from None
    _need(moment.tzinfo is not None, f"{what} {value!r} has no offset")
    return moment


def _base(payload: object, table: str | None) -> dict[str, Any]:
    _need(isinstance(payload, dict), "payload is not a JSON object")
    assert isinstance(payload, dict)
    _need(payload.get("v") == VERSION, f"v must be {VERSION}")
    if "table" in payload or table is not None:
        _need(is_id(payload.get("table")), f"table {payload.get('table')!r} is not a table id")
        _need(table is None or payload["table"] == table,
              f"table {payload.get('table')!r} on the topic of table {table!r}")
    return payload


@functools.lru_cache(maxsize=64)
def _most_players(game: str) -> int:
    found = games.GAMES.get(game)
    if found is not None:
        return max(found.player_counts)
    return max(c for g in games.ids() for c in games.get(g).player_counts)


def most_players(game: object) -> int:
    """The most players `game`'s definition allows; for a game this side does not know, the most of any game."""
    return _most_players(game if isinstance(game, str) else "")


def is_name(value: object) -> bool:
    """A player's name: 1 to MAX_NAME characters (what the text rule allows is checked for the whole payload)."""
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME


def _names(value: object, what: str, game: object = None) -> list[str]:
    _need(isinstance(value, list) and all(is_name(p) for p in value),
          f"{what} must be a list of names of 1-{MAX_NAME} characters")
    assert isinstance(value, list)
    _need(len(value) <= most_players(game), f"{what}: more than the game's {most_players(game)} players")
    return value


def _scores(value: object, game: object = None) -> dict[str, Any]:
    _need(isinstance(value, dict) and all(is_name(k) and _is_int(v) for k, v in value.items()),
          "scores must map names to integers")
    assert isinstance(value, dict)
    _need(len(value) <= most_players(game), f"scores: more than the game's {most_players(game)} players")
    return value


def validate_status(payload: object, table: str | None = None) -> dict[str, Any]:
    """A status, or a last will (`online: false`, where only `v` and `table` are required)."""
    p = _base(payload, table)
    _need("table" in p, "status without table")
    _need(isinstance(p.get("online"), bool), "online must be true or false")
    if not p["online"]:
        return p
    _need(p.get("screen") in SCREENS, f"screen {p.get('screen')!r} is not one of {', '.join(SCREENS)}")
    _need(p.get("game") is None or isinstance(p["game"], str), "game must be a string or null")
    _need(p.get("game_uid") is None or (isinstance(p["game_uid"], str) and p["game_uid"] != ""),
          "game_uid must be a string or null")
    _names(p.get("players"), "players", p.get("game"))
    _need(p.get("turn") is None or is_name(p["turn"]), "turn must be a name or null")
    _scores(p.get("scores"), p.get("game"))
    _need(isinstance(p.get("finished"), bool), "finished must be true or false")
    _need(_is_int(p.get("n")) and 0 <= p["n"] <= MAX_INT, "n must be an integer, 0 <= n < 2^53")
    parse_time(p.get("at"))
    _need("key" not in p or (isinstance(p["key"], str) and _KEY.fullmatch(p["key"]) is not None),
          "key must be ed25519:<base64url of 32 bytes>")
    if "assignment" in p:  # added for #35: the club night's assignment the table shows now
        validate_assignment_ref(p["assignment"])
    return p


def _no_floats(value: object) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        _need(not isinstance(item, float), "a signed record holds integers only, no floats")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _seals(p: dict[str, Any]) -> None:
    """The Integrity section's fields: `prev` (exactly when n > 1), `h` and `sig`, each base64url of its size.
    Whether they hold is the receiver's check against the table's key (`cafe.signing.check_record`)."""
    if p["n"] == 1:
        _need("prev" not in p, "record 1 has no prev")
    else:
        _need(isinstance(p.get("prev"), str) and _HASH.fullmatch(p["prev"]) is not None,
              "prev must be the h of record n - 1")
    _need(isinstance(p.get("h"), str) and _HASH.fullmatch(p["h"]) is not None, "h must be base64url of 32 bytes")
    _need(isinstance(p.get("sig"), str) and _SIG.fullmatch(p["sig"]) is not None,
          "sig must be base64url of 64 bytes")
    _no_floats(p)


def validate_log_record(payload: object, table: str | None = None) -> dict[str, Any]:
    """A signed log record (its fields; the signature itself is checked against the table's pinned key)."""
    p = _base(payload, table)
    _need("table" in p, "log record without table")
    _need(_is_int(p.get("n")) and 1 <= p["n"] <= MAX_INT, "n must be an integer, 1 <= n < 2^53")
    _seals(p)
    parse_time(p.get("at"))
    _need(isinstance(p.get("game_uid"), str) and p["game_uid"] != "", "game_uid must be a non-empty string")
    kind = p.get("kind")
    _need(kind in KINDS, f"kind {kind!r} is not one of {', '.join(KINDS)}")
    if kind == "start":
        header = p.get("header")
        _need(isinstance(header, dict) and header.get("format") == TRANSCRIPT_FORMAT,
              f"header must be a transcript header ({TRANSCRIPT_FORMAT})")
        _names(header.get("players"), "header players", header.get("game"))  # type: ignore[union-attr]
        if "assignment" in p:
            validate_assignment_ref(p["assignment"])
        if "guests" in p:  # added for #35: the seats that kept their default names
            guests = _names(p["guests"], "guests")
            _need(set(guests) <= set(header.get("players")), "guests must be players of the game")  # type: ignore
    elif kind == "event":
        _need(isinstance(p.get("event"), dict), "event must be a JSON object")
        answer = p.get("answer")
        _need(isinstance(answer, dict), "answer must be a JSON object")
        assert isinstance(answer, dict)
        _need(_is_int(answer.get("seq")) and 1 <= answer["seq"] <= MAX_INT, "answer.seq must be an integer >= 1")
        _need(isinstance(answer.get("ok"), bool), "answer.ok must be true or false")
        _need((answer.get("error") is None) == answer["ok"], "answer.error is null exactly when ok")
        _need(answer.get("error") is None or isinstance(answer["error"], str), "answer.error must be a string")
    else:
        _need(p.get("status") in END_STATUSES, f"status must be one of {', '.join(END_STATUSES)}")
        if "score_kind" in p:  # added for #35: what the game ranks by, and each player's number
            _need(p["score_kind"] in SCORE_KINDS, f"score_kind must be one of {', '.join(SCORE_KINDS)}")
            _scores(p.get("ranked"))
        _scores(p.get("scores"))
        _names(p.get("winners"), "winners")
    return p


def validate_replay(payload: object) -> dict[str, Any]:
    p = _base(payload, None)
    _need(_is_int(p.get("from")) and 1 <= p["from"] <= MAX_INT, "from must be an integer, 1 <= from < 2^53")
    return p


def validate_announce(payload: object) -> dict[str, Any]:
    p = _base(payload, None)
    text = p.get("text")
    _need(isinstance(text, dict) and bool(text), "text must map languages to sentences")
    assert isinstance(text, dict)
    _need(all(isinstance(k, str) and isinstance(v, str) for k, v in text.items()), "text values must be strings")
    _need(any(lang in text for lang in LANGUAGES), f"text needs one of {', '.join(LANGUAGES)}")
    if p.get("until") is not None:
        parse_time(p["until"], "until")
    return p


def validate(topic: str, data: bytes, retained: bool | None = None) -> tuple[Topic, dict[str, Any] | None]:
    """Check one MQTT message against the contract: its topic, its payload and (when given) its retain flag.

    Returns the parsed topic and payload; the payload is None for an empty
    `announce` or `assign` (which clears it) — the messages that may be empty.
    """
    parsed = parse_topic(topic)
    if parsed.kind in ("announce", "assign") and data == b"":
        return parsed, None
    payload = decode(data)
    if parsed.kind == "status":
        validate_status(payload, parsed.table)
    elif parsed.kind == "log":
        validate_log_record(payload, parsed.table)
    elif parsed.kind == "replay":
        validate_replay(payload)
    elif parsed.kind == "assign":
        validate_assign(payload)
    else:
        validate_announce(payload)
    if retained is not None and parsed.kind == "log":
        _need(not retained, "log records are not retained")
    return parsed, payload


def announce_text(payload: Mapping[str, Any], lang: str) -> str:
    """The announcement in `lang`, else in the other language the café wrote."""
    text = payload.get("text", {})
    for choice in (lang, *LANGUAGES):
        said = text.get(choice)
        if isinstance(said, str) and said.strip():
            return said.strip()
    return next((v for v in text.values() if isinstance(v, str) and v.strip()), "")


def announce_expired(payload: Mapping[str, Any], now: datetime | None = None) -> bool:
    """True once the announcement's `until` has passed."""
    until = payload.get("until")
    if until is None:
        return False
    return parse_time(until, "until") <= (now or datetime.now().astimezone())


# ---------------------------------------------------------------- assignments (club nights)


def assign_topic(cafe: str, table: str) -> str:
    """Where the hub tells one table who plays there next (retained; an empty payload clears it)."""
    return table_topic(cafe, table, "assign")


def assign_payload(evening: str, round_no: int, game: str, players: list[str], *, options: Mapping[str, Any] | None
                   = None, dealer: str | None = None, title: Mapping[str, str] | None = None,
                   at: str | None = None) -> dict[str, Any]:
    """An assignment as the contract's "Assignments" section has it; `players` in the seat order drawn."""
    return validate_assign({"v": VERSION, "evening": evening, "round": round_no, "game": game,
                            "options": dict(options or {}), "players": list(players), "dealer": dealer,
                            "title": dict(title or {}), "at": at or now_iso()})


def validate_assign(payload: object) -> dict[str, Any]:
    p = _base(payload, None)
    _need(is_id(p.get("evening")), f"evening {p.get('evening')!r} is not an id")
    _need(_is_int(p.get("round")) and 1 <= p["round"] <= MAX_INT, "round must be an integer >= 1")
    _need(isinstance(p.get("game"), str) and p["game"] != "", "game must be a game id")
    _need(isinstance(p.get("options"), dict), "options must be a JSON object")
    players = _names(p.get("players"), "players", p.get("game"))
    _need(bool(players) and len(set(players)) == len(players), "players must be unique names")
    _need(p.get("dealer") is None or p["dealer"] in players, "dealer must be one of the players or null")
    title = p.get("title")
    _need(isinstance(title, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in title.items()),
          "title must map languages to text")
    parse_time(p.get("at"))
    return p


def validate_assignment_ref(value: object) -> dict[str, Any]:
    """The `assignment` of a `start` record: which evening and round the game was played for."""
    _need(isinstance(value, dict), "assignment must be a JSON object")
    assert isinstance(value, dict)
    _need(is_id(value.get("evening")), f"assignment evening {value.get('evening')!r} is not an id")
    _need(_is_int(value.get("round")) and 1 <= value["round"] <= MAX_INT, "assignment round must be an integer >= 1")
    return value


def assignment_header(assignment: Mapping[str, Any]) -> dict[str, Any]:
    """The transcript header a table starts an assigned game with: exactly the assignment's game, seats,
    dealer and options (no `dealer` when the hub drew none, so the game's default applies; no `options` when
    there are none — as the kiosk writes a header)."""
    header: dict[str, Any] = {"format": TRANSCRIPT_FORMAT, "game": assignment["game"],
                              "players": list(assignment["players"])}
    if assignment.get("dealer") is not None:
        header["dealer"] = assignment["dealer"]
    if assignment.get("options"):
        header["options"] = dict(assignment["options"])
    return header


def assignment_ref(assignment: Mapping[str, Any]) -> dict[str, Any]:
    """What a `start` record carries for an assigned game."""
    return {"evening": assignment["evening"], "round": assignment["round"]}


def assignment_title(assignment: Mapping[str, Any], lang: str) -> str:
    """The evening's title in `lang`, else in the other language the hub wrote, else empty."""
    title = assignment.get("title") or {}
    for choice in (lang, *LANGUAGES):
        said = title.get(choice)
        if isinstance(said, str) and said.strip():
            return said.strip()
    return ""
