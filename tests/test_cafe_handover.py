"""The handover's bytes (`cafe/handover.py`): a bundle sealed with a key from the one-time code opens only with that
code and only for that pairing; whoever lacks the code can neither read it nor make one the table takes; every
field of an opened bundle is checked before the table keeps it."""

from __future__ import annotations

import dataclasses

import pytest

from cafe import certs, handover

CA = certs.cert_pem(certs.make_ca("café nord CA")[0]).decode()
KEY = "ed25519:" + "A" * 43
PAIRING = handover.Instance("nord", "t3", KEY, handover.new_salt())


def bundle(**changes: str) -> handover.Bundle:
    return dataclasses.replace(handover.Bundle("nord", "t3", "cafe-hub.local:8883", "table-t3", "x" * 24, CA),
                               **changes)


@pytest.fixture(scope="module")
def keys() -> handover.Keys:
    return handover.derive("1234 5678 9012", PAIRING)


def test_the_bundle_opens_with_the_code_and_only_for_its_pairing(keys) -> None:
    sealed = handover.seal(keys, PAIRING, bundle())
    assert handover.open_sealed(keys, PAIRING, sealed) == bundle()
    assert "x" * 24 not in str(sealed) and "nord" not in str(sealed)  # nothing readable on the wire
    assert handover.proof_holds(keys, PAIRING, handover.proof(keys, PAIRING))
    for other in (dataclasses.replace(PAIRING, table="t4"), dataclasses.replace(PAIRING, key="ed25519:" + "B" * 43),
                  dataclasses.replace(PAIRING, salt=handover.new_salt()), dataclasses.replace(PAIRING, cafe="sued")):
        with pytest.raises(handover.WrongCode):  # bound to café, table, key and salt
            handover.open_sealed(keys, other, sealed)
        assert not handover.proof_holds(handover.derive("123456789012", other), other,
                                        handover.proof(keys, PAIRING))


def test_without_the_code_nobody_reads_or_makes_a_bundle(keys) -> None:
    sealed = handover.seal(keys, PAIRING, bundle())
    wrong = handover.derive("123456789013", PAIRING)
    with pytest.raises(handover.WrongCode):
        handover.open_sealed(wrong, PAIRING, sealed)
    assert not handover.proof_holds(wrong, PAIRING, handover.proof(keys, PAIRING))
    # Someone in the middle hands the table a CA of their own, sealed with a key of their own: refused.
    theirs = certs.cert_pem(certs.make_ca("evil CA")[0]).decode()
    forged = handover.seal(wrong, PAIRING, bundle(ca=theirs))
    with pytest.raises(handover.WrongCode):
        handover.open_sealed(keys, PAIRING, forged)
    flipped = dict(sealed, box=sealed["box"][:-2] + ("A" if sealed["box"][-2] != "A" else "B") + sealed["box"][-1])
    with pytest.raises(handover.WrongCode):
        handover.open_sealed(keys, PAIRING, flipped)


@pytest.mark.parametrize(("field", "value", "why"), [
    ("username", "hub", "another broker user"),
    ("table", "t4", "another café or table"),
    ("broker", "host:99999", "port"),
    ("password", "short", "16-128"),
    ("password", "with space in it ok?", "16-128"),
    ("ca", "-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----\n", "CA"),
])
def test_every_field_of_an_opened_bundle_is_checked(keys, field, value, why) -> None:
    payload = bundle().payload() | {field: value}
    with pytest.raises(ValueError, match=why):
        handover.check_bundle(payload, PAIRING)


def test_a_server_certificate_is_no_ca() -> None:
    ca = certs.make_ca("café CA")
    server, _ = certs.make_server(["cafe-hub.local"], ca)
    with pytest.raises(handover.HandoverError, match="not a CA"):
        handover.check_ca(certs.cert_pem(server).decode())


def test_the_code_as_staff_type_it() -> None:
    code = handover.new_code()
    assert len(code) == 12 and code.isdigit()
    assert handover.shown("123456789012") == "1234 5678 9012"
    assert handover.digits(" 1234-5678 9012 ") == "123456789012"
    for bad in ("12345678901", "1234567890123", "١٢٣٤٥٦٧٨٩٠١٢", "12345678901x"):
        with pytest.raises(handover.HandoverError):
            handover.digits(bad)


def test_messages_are_bounded() -> None:
    with pytest.raises(handover.HandoverError, match="more than"):
        handover.decode(b'{"v":1,"pad":"' + b"x" * handover.MAX_MESSAGE + b'"}', handover.MAX_MESSAGE)
    for data in (b"[1]", b'{"v":2}', b"\xff", b"{", b"[" * 3000, b'{"v":1,"a":' + b"[" * 900 + b"]" * 900 + b"}"):
        with pytest.raises(handover.HandoverError):
            handover.decode(data, handover.MAX_MESSAGE)
    with pytest.raises(handover.HandoverError):
        handover.check_state({"v": 1, "cafe": "nord", "table": "t3", "key": KEY, "state": "accepted",
                              "salt": "short"}, "t3", KEY)
    assert handover.check_state({"v": 1, "cafe": "nord", "table": "t3", "key": KEY, "state": "waiting"}, "t3",
                                KEY) == ("nord", "waiting", None)
