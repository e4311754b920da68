"""The café contract's text rule and limits at the edge (issue #34): no control characters and no unpaired
surrogates in any string of any payload, names of at most MAX_NAME characters, no more players than the game's
definition allows. A sender refuses to make such a payload (`encode`), a receiver drops it (`decode`/`validate`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cafe import contract
from cafe.signing import RecordSigner, new_private_key
from referee.sim import random_game

ROOT = Path(__file__).resolve().parents[1]
BAD = ["Eve\x00", "tab\there", "esc\x1b", "del\x7f", "c1\x85", "c1\x9f", "lone\ud800", "lone\udfff"]


def raw(payload: dict) -> bytes:
    return json.dumps(payload).encode()  # \u escapes: the way an attacker's JSON can carry a NUL or a surrogate


SIGNER = RecordSigner(new_private_key())


def start_record(players: list[str], game: str = "alles-klar") -> dict:
    """A signed `start` record (the text rule is checked before the signature: a record that breaks it is
    dropped whoever signed it)."""
    header, _ = random_game(game, 1)
    return SIGNER.seal({"v": 1, "table": "t1", "n": 1, "at": contract.now_iso(), "game_uid": "g1", "kind": "start",
                        "header": {**header, "players": players}}, None)


@pytest.mark.parametrize("bad", BAD)
def test_every_string_of_every_payload_is_checked_keys_and_nesting_included(bad: str) -> None:
    announce = {"v": 1, "text": {"de": f"Happy {bad}", "en": "ok"}, "until": None}
    nested = {"v": 1, "from": 3, "extra": [{"deep": [bad]}]}
    keyed = {"v": 1, "from": 3, bad: 1}
    forged = start_record(["Anna", "Ben"])
    forged["header"]["players"][1] = f"B{bad}"  # after signing: the text rule is checked first, whoever signed
    for topic, payload in ((contract.announce_topic("nord"), announce),
                           (contract.replay_topic("nord", "t1"), nested), (contract.replay_topic("nord", "t1"), keyed),
                           (contract.log_topic("nord", "t1"), forged)):
        with pytest.raises(contract.ContractError, match="control character or an unpaired surrogate"):
            contract.validate(topic, raw(payload))
        with pytest.raises(contract.ContractError):
            contract.encode(payload)


def test_text_the_contract_allows_passes_emoji_rtl_and_combining_marks_included() -> None:
    names = ["Zoë 😀", "שלום", "e\u0301"]
    record = start_record(names)
    _, payload = contract.validate(contract.log_topic("nord", "t1"), contract.encode(record))
    assert payload is not None and payload["header"]["players"] == names
    assert contract.decode(b'{"v":1,"x":"\\ud83d\\ude00"}') == {"v": 1, "x": "😀"}  # a pair, escaped: one character


def test_names_are_bounded_and_players_no_more_than_the_game_allows() -> None:
    topic = contract.log_topic("nord", "t1")
    contract.validate(topic, raw(start_record(["A" * contract.MAX_NAME, "B"])))
    with pytest.raises(contract.ContractError, match="names of 1-40"):
        contract.validate(topic, raw(start_record(["A" * (contract.MAX_NAME + 1), "B"])))
    most = contract.most_players("alles-klar")
    assert most == 5
    contract.validate(topic, raw(start_record([f"P{i}" for i in range(most)])))
    with pytest.raises(contract.ContractError, match="more than the game's 5 players"):
        contract.validate(topic, raw(start_record([f"P{i}" for i in range(3000)])))
    status = contract.status_payload("t1", screen="table", game="magische-7", players=["A", "B"])
    with pytest.raises(contract.ContractError, match="more than the game's 4 players"):
        contract.validate_status({**status, "players": [f"P{i}" for i in range(5)]})
    with pytest.raises(contract.ContractError, match="more than the game's"):
        contract.assign_payload("e1", 1, "profi-sort", ["A", "B", "C", "D"])


def test_a_thread_asking_for_a_game_while_another_loads_the_registry_sees_every_game() -> None:
    """The café publisher's thread checks a status's players while the display thread may still be loading the
    game registry: it saw half of it ('NoneType' has no attribute 'title' at the table)."""
    script = ("import threading\nfrom referee import games\nseen = []\n"
              "threads = [threading.Thread(target=lambda: seen.append(len(games.ids()))) for _ in range(8)]\n"
              "[t.start() for t in threads]\n[t.join() for t in threads]\nprint(sorted(set(seen)))\n")
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == f"[{len(contract.games.ids())}]", out.stdout
