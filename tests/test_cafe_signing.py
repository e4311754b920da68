"""The signed hash chain (`shared/cafe-protocol.md`, "Integrity"): the canonical form, seals and their checks
(`cafe/signing.py`), the contract's fields, and the kiosk's log sealing every record as it writes it — whole
across a SIGKILL at any instant, old logs sealed in order, a fresh log with a fresh key."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cafe import contract
from cafe.signing import (
    IntegrityError,
    RecordSigner,
    b64url,
    canonical,
    check_record,
    fingerprint,
    load_or_make_key,
    new_private_key,
    parse_public,
    record_hash,
)
from kiosk.eventlog.store import EventLog

ROOT = Path(__file__).resolve().parents[1]
HEADER = {"format": "tabletop-referee/1", "game": "magische-7", "players": ["Anna", "Ben"]}


def record(n: int, **fields: object) -> dict:
    return {"v": 1, "table": "t1", "n": n, "at": "2026-11-27T20:00:00.000+01:00", "game_uid": "u1",
            "kind": "event", "event": {"type": "pass", "player": "Anna"},
            "answer": {"seq": n, "ok": True, "error": None}} | fields


def chain_holds(payloads: list[dict], key_text: str) -> None:
    """Every record verifies with the key, and each one's prev is the h of the record before it."""
    key = parse_public(key_text)
    prev = payloads[0].get("prev")
    for payload in payloads:
        assert payload.get("prev") == prev, payload["n"]
        prev = check_record(payload, key)


def test_the_canonical_form_is_sorted_compact_utf8_and_integers_only() -> None:
    body = {"b": 1, "a": {"z": [1, "Zoë"], "y": None}, "h": "dropped", "sig": "dropped", "c": True}
    assert canonical(body) == '{"a":{"y":null,"z":[1,"Zoë"]},"b":1,"c":true}'.encode()
    assert record_hash(body) == b64url(hashlib.sha256(canonical(body)).digest())
    assert len(record_hash(body)) == 43 and "=" not in record_hash(body)
    assert canonical({"name": 'say "hi"\\'}) == b'{"name":"say \\"hi\\"\\\\"}'  # only JSON's own escapes
    for bad in ({"x": 1.0}, {"x": [0.5]}, {"x": 2**53}, {"x": "\ud800"}):
        with pytest.raises(IntegrityError):
            canonical(bad)


def test_a_seal_holds_only_for_the_record_and_the_key_it_was_made_with() -> None:
    signer, other = RecordSigner(new_private_key()), RecordSigner(new_private_key())
    first = signer.seal(record(1), prev=None)
    second = signer.seal(record(2), prev=first["h"])
    assert "prev" not in first and second["prev"] == first["h"]
    assert len(second["sig"]) == 86
    key = parse_public(signer.public)
    assert check_record(second, key) == second["h"]
    for forged in ({**second, "answer": {"seq": 2, "ok": False, "error": "x"}},  # changed after sealing
                   {**second, "prev": "A" * 43},  # moved elsewhere in the chain
                   {**second, "n": 3},  # renumbered
                   other.seal(record(2), prev=first["h"])):  # re-signed by another key
        with pytest.raises(IntegrityError):
            check_record(forged, key)
    with pytest.raises(IntegrityError):
        check_record({**second, "sig": second["sig"][:-1] + "B"}, key)


def test_keys_and_fingerprints_read_as_the_contract_says() -> None:
    signer = RecordSigner(new_private_key())
    text = signer.public
    assert text.startswith("ed25519:") and len(text) == 51
    raw = parse_public(text).public_bytes_raw()
    assert fingerprint(text) == b64url(hashlib.sha256(raw).digest())[:8] == signer.fingerprint
    for bad in ("ed25519:short", "rsa:" + "A" * 43, text + "A", None):
        with pytest.raises(IntegrityError):
            parse_public(bad)


def test_the_contract_requires_the_seals_and_drops_a_float() -> None:
    signer = RecordSigner(new_private_key())
    first = signer.seal(record(1), prev=None)
    second = signer.seal(record(2), prev=first["h"])
    assert contract.validate_log_record(first, "t1") and contract.validate_log_record(second, "t1")
    for broken in ({k: v for k, v in second.items() if k != "prev"}, {k: v for k, v in second.items() if k != "h"},
                   {k: v for k, v in second.items() if k != "sig"}, {**first, "prev": first["h"]},
                   {**second, "h": "A" * 42}, {**second, "sig": "x"}, {**second, "event": {"type": "t", "t": 1.5}}):
        with pytest.raises(contract.ContractError):
            contract.validate_log_record(broken, "t1")
    data = contract.encode(second).replace(b'"seq":2', b'"seq":2.0')
    with pytest.raises(contract.ContractError):
        contract.validate(contract.log_topic("nord", "t1"), data)
    status = contract.status_payload("t1", screen="menu", key=signer.public)
    assert contract.validate_status(status, "t1")["key"] == signer.public
    with pytest.raises(contract.ContractError):
        contract.validate_status({**status, "key": "ed25519:nope"}, "t1")


def test_the_key_file_is_private_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "table.key"
    key = load_or_make_key(path)
    assert path.stat().st_mode & 0o777 == 0o600
    os.chmod(path, 0o644)
    again = load_or_make_key(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert RecordSigner(again).public == RecordSigner(key).public
    assert [p.name for p in tmp_path.iterdir()] == ["table.key"]  # no temporary file left behind


def game(log: EventLog, moves: int = 3) -> int:
    game_id = log.new_game(HEADER)
    for _ in range(moves):
        log.append(game_id, {"type": "pass", "player": "Anna"})
    log.append_rejected(game_id, {"type": "pass", "player": "Zoë"}, "unknown-player")
    return game_id


def test_the_log_seals_each_record_as_it_writes_it_and_sends_the_same_bytes(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "events.sqlite3", table="t1")
    assert log.signer is not None
    game(log)
    log.set_status(1, "abandoned")
    sent = [r.data for r in log.sealed()]
    payloads = [json.loads(d) for d in sent]
    assert [p["n"] for p in payloads] == list(range(1, 7)) and payloads[-1]["kind"] == "end"
    chain_holds(payloads, log.signer.public)
    for payload in payloads:
        assert contract.validate_log_record(payload, "t1")
    key = log.signer.public
    log.close()
    again = EventLog(tmp_path / "events.sqlite3", table="t1")
    assert [r.data for r in again.sealed()] == sent  # the outbox gives the same bytes after a restart
    assert again.signer is not None and again.signer.public == key
    keys = list(tmp_path.glob("table-*.key"))
    assert len(keys) == 1 and keys[0].stat().st_mode & 0o777 == 0o600


def test_an_old_log_is_sealed_in_order_on_its_first_start_for_a_cafe(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    island = EventLog(path)  # a kiosk without a café (or before this version): nothing sealed
    game(island)
    assert island.signer is None and island.sealed() == [] and island.last_n() == 5
    island.close()
    log = EventLog(path, table="t1")
    game(log, moves=1)
    payloads = [json.loads(r.data) for r in log.sealed()]
    assert [p["n"] for p in payloads] == list(range(1, 10))  # the first game abandoned: its end
    chain_holds(payloads, log.signer.public)
    log.close()
    renamed = EventLog(path, table="t7")  # the table got another id: sealed again for it, the same numbers
    payloads = [json.loads(r.data) for r in renamed.sealed()]
    assert {p["table"] for p in payloads} == {"t7"} and [p["n"] for p in payloads] == list(range(1, 10))
    chain_holds(payloads, renamed.signer.public)


def test_a_fresh_log_gets_a_fresh_key_and_a_log_without_its_key_goes_on_with_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    first = EventLog(path, table="t1")
    game(first)
    old_key = first.signer.public
    first.close()
    for key_file in tmp_path.glob("table-*.key"):  # restored from a backup, which never holds the key
        key_file.unlink()
    restored = EventLog(path, table="t1")
    game(restored, moves=1)
    assert restored.signer.public != old_key
    payloads = [json.loads(r.data) for r in restored.sealed()]
    assert payloads[5]["prev"] == payloads[4]["h"]  # the chain goes on under the new key
    chain_holds(payloads[5:], restored.signer.public)
    chain_holds(payloads[:5], old_key)
    assert "prev" not in payloads[0]
    restored.close()
    path.rename(tmp_path / "old.sqlite3")  # a new card, or a damaged log set aside
    fresh = EventLog(path, table="t1")
    assert fresh.signer.public not in (old_key, restored.signer.public)


WRITER = """
import sys
from kiosk.eventlog.store import EventLog
log = EventLog(sys.argv[1], table="t1")
game = log.new_game({"format": "tabletop-referee/1", "game": "magische-7", "players": ["Anna", "Ben"]})
print("ready", flush=True)
while True:
    log.append(game, {"type": "pass", "player": "Anna"})
    log.append_rejected(game, {"type": "pass", "player": "Zoe"}, "unknown-player")
"""


def test_the_chain_survives_a_sigkill_mid_write(tmp_path: Path) -> None:
    path = tmp_path / "events.sqlite3"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    totals = []
    for kill in range(8):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, env=env)
        assert writer.stdout is not None and writer.stdout.readline().strip() == b"ready"
        time.sleep(0.05 + 0.037 * kill)  # somewhere inside a write, a different place each time
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        log = EventLog(path)  # read as it was left (opened for a café, it would seal what it found unsealed)
        payloads = [json.loads(r.data) for r in log.sealed()]
        assert len(payloads) == log.last_n()  # every record written is sealed: none half-done
        assert [p["n"] for p in payloads] == list(range(1, log.last_n() + 1))
        chain_holds(payloads, RecordSigner(load_or_make_key(next(tmp_path.glob("table-*.key")))).public)
        totals.append(log.last_n())
        log.close()
    assert totals == sorted(totals) and totals[-1] > totals[0]
