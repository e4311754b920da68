"""Damaged event logs for storage-fault tests and drills: the four ways a card or a power cut leaves an
SQLite file (cut short, a scrambled header, scrambled pages, nothing but noise), written for real."""

from __future__ import annotations

import random
from pathlib import Path

KINDS = ("truncated", "garbage header", "garbage pages", "random bytes")


def damage(path: Path, kind: str, rng: random.Random) -> bytes:
    """Damage the file at `path` in place as `kind` says; returns the bytes now in it."""
    data = bytearray(path.read_bytes())
    if kind == "truncated":
        data = data[: len(data) // 2 + 100]
    elif kind == "garbage header":
        data[:100] = rng.randbytes(100)
    elif kind == "garbage pages":
        page = int.from_bytes(data[16:18], "big")  # the page size, from the SQLite header
        for n in range(1, len(data) // page):
            data[n * page: (n + 1) * page] = rng.randbytes(page)
    elif kind == "random bytes":
        data = bytearray(rng.randbytes(len(data)))
    else:
        raise ValueError(f"unknown damage {kind!r}; one of {KINDS}")
    path.write_bytes(bytes(data))
    return bytes(data)
