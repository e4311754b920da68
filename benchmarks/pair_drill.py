"""Pairing attack drill: whatever someone on the café's Wi-Fi sends to the hub's pairing addresses, or answers a
joining table in the hub's place, changes nothing it should not.

    python -m benchmarks.pair_drill [--garbage 500] [--flood 200] [--seed 1]      (scripts/drill.sh pairing)

Against Debian's mosquitto (TLS, dynamic security) and the real hub process over HTTPS, on loopback:
- garbage: random bytes, sizes, content types and JSON to `/pair/hello` and `/pair/claim` — answered 4xx, never
  5xx, the hub healthy after;
- flood: requests to join with a new key each from one address — at most 4 wait, the rest get 429;
- unsigned: claims for an accepted table signed by another key — refused (403), no try spent;
- guessing: the table itself claiming with wrong codes — the code is void after 5, the right one then too late;
- replay: the right claim sent again after it worked — 410;
- in the middle: a hub impostor answering a joining table — the table opens nothing and keeps nothing.
Prints one line per attack (sent, refused, harmless) and exit 1 if any attack got through.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import ssl
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parent.parent

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from cafe import handover  # noqa: E402
from cafe.signing import public_text  # noqa: E402
from tests.fake_hub import FakeHub  # noqa: E402
from tests.pairing_e2e import Cafe  # noqa: E402


def raw(cafe: Cafe, path: str, body: bytes, content_type: str = "application/json") -> int:
    """One request as an attacker sends it; the HTTP status (0: the hub hung up)."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    request = urllib.request.Request(cafe.hub.url + path, data=body, method="POST",
                                     headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=30, context=context) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def garbage(cafe: Cafe, count: int, rng: random.Random) -> Counter[int]:
    kinds = [lambda: rng.randbytes(rng.randint(0, 300)),
             lambda: json.dumps({"v": 1, "table": rng.choice(["t1", "T!", "", "x" * 40]),
                                 "key": rng.choice(["ed25519:" + "A" * 43, "ed25519:", 7, None])}).encode(),
             lambda: b'{"v":1,' + b'"p":"' + b"x" * rng.choice([100, 5000, 70000]) + b'"}',
             lambda: b"[" * rng.randint(1, 5000),
             lambda: json.dumps({"v": 1, "table": "t1", "key": "ed25519:" + "A" * 43, "proof": "x" * 43,
                                 "sig": rng.choice(["", "y" * 86, 5])}).encode()]
    seen: Counter[int] = Counter()
    for _ in range(count):
        path = rng.choice(["/pair/hello", "/pair/claim"])
        seen[raw(cafe, path, rng.choice(kinds)(), rng.choice(["application/json", "text/plain",
                                                                "application/x-www-form-urlencoded"]))] += 1
    return seen


def hello(cafe: Cafe, table: str, key: str) -> handover.Answer:
    return handover.hello(cafe.hub_address, table, key)


def accepted_table(cafe: Cafe, name: str) -> tuple[Ed25519PrivateKey, str, str]:
    """A table that asked and that staff accepted: its key, the code on the staff page, the salt."""
    private = Ed25519PrivateKey.generate()
    key = public_text(private.public_key())
    hello(cafe, name, key)
    cafe.staff.accept(name, key)
    code = cafe.staff.code_for(name)
    return private, code, str(hello(cafe, name, key).body["salt"])


def claim(cafe: Cafe, name: str, signer: Ed25519PrivateKey, key: str, code: str, salt: str
          ) -> tuple[handover.Answer, handover.Instance, handover.Keys]:
    instance = handover.Instance(cafe.hub.cafe, name, key, salt)
    keys = handover.derive(code, instance)
    return handover.claim(cafe.hub_address, instance, keys, signer.sign), instance, keys


def attacks(cafe: Cafe, sizes: tuple[int, int], rng: random.Random, folder: pathlib.Path) -> list[tuple]:
    """Every attack on a café of its own (the flood fills this address's share of the waiting list); one row
    each: (attack, sent, refused, harmless)."""
    count, flood = sizes
    rows = []
    seen = garbage(cafe, count, rng)
    # 200: a well-formed request to join; 0: the hub hung up on a body over its limit while it was still sent
    print("garbage answered:", dict(sorted(seen.items())), flush=True)
    rows.append(("garbage", count, sum(n for s, n in seen.items() if s == 0 or 400 <= s < 500),
                 not any(s >= 500 for s in seen) and cafe.staff.api("/api/health").get("threads") is not None))
    private, code, salt = accepted_table(cafe, "d1")
    key = public_text(private.public_key())
    wrong_code = f"{(int(code.replace(' ', '')) + 1) % 10**12:012d}"
    stranger = Ed25519PrivateKey.generate()
    unsigned = [claim(cafe, "d1", stranger, key, code, salt)[0].status for _ in range(10)]
    left = hello(cafe, "d1", key).body.get("tries_left")
    rows.append(("unsigned", 10, unsigned.count(403), left == handover.CODE_TRIES))
    guesses = [claim(cafe, "d1", private, key, wrong_code, salt)[0].status for _ in range(handover.CODE_TRIES)]
    late = claim(cafe, "d1", private, key, code, salt)[0].status
    rows.append(("guessing", handover.CODE_TRIES + 1, guesses.count(403) + (late == 410), late == 410))
    private, code, salt = accepted_table(cafe, "d2")
    key = public_text(private.public_key())
    first, instance, keys = claim(cafe, "d2", private, key, code, salt)
    handover.open_sealed(keys, instance, first.body)
    again = claim(cafe, "d2", private, key, code, salt)[0].status
    rows.append(("replay", 1, int(again == 410), again == 410))
    with FakeHub(folder) as impostor:
        table = Ed25519PrivateKey.generate()
        key = public_text(table.public_key())
        answer = handover.hello(impostor.address, "m1", key)
        instance = handover.Instance(cafe.hub.cafe, "m1", key, str(answer.body["salt"]))
        keys = handover.derive(handover.new_code(), instance)
        sealed = handover.claim(impostor.address, instance, keys, table.sign)
        try:
            handover.open_sealed(keys, instance, sealed.body)
            opened = True
        except handover.WrongCode:
            opened = False
    rows.append(("in the middle", 1, int(not opened), not opened))
    # Last: every request here comes from one address, whose share of the waiting list this fills.
    statuses = [hello(cafe, f"f{i}", public_text(Ed25519PrivateKey.generate().public_key())).status
                for i in range(flood)]
    rows.append(("flood", flood, statuses.count(429), statuses.count(200) <= 4))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--garbage", type=int, default=500)
    parser.add_argument("--flood", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="pair-drill-") as folder:
        cafe = Cafe(pathlib.Path(folder), "drill")
        try:
            started = time.monotonic()
            rows = attacks(cafe, (args.garbage, args.flood), rng, pathlib.Path(folder))
            took = time.monotonic() - started
        finally:
            cafe.stop()
    print(f"{'attack':<14} {'sent':>6} {'refused':>8}  harmless")
    for name, sent, refused, harmless in rows:
        print(f"{name:<14} {sent:>6} {refused:>8}  {'yes' if harmless else 'NO'}")
    print(f"({took:.1f} s)")
    return 0 if all(row[3] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
