"""Which log records of each table the hub still misses: the contiguous prefix from n = 1, and what lies beyond.

A table numbers its records 1, 2, 3 … for ever; the hub has everything up to
`upto(table)` and possibly some later ones. The first missing `n` is what a
`replay` request asks for. Pure bookkeeping, no I/O.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable


class Gaps:
    def __init__(self) -> None:
        self._upto: dict[Hashable, int] = {}
        self._ahead: dict[Hashable, set[int]] = {}

    def load(self, numbers: Iterable[tuple[Hashable, int]]) -> None:
        for key, n in numbers:
            self.saw(key, n)

    def saw(self, key: Hashable, n: int) -> None:
        upto = self._upto.get(key, 0)
        if n <= upto:
            return
        if n == upto + 1:
            ahead = self._ahead.get(key)
            upto = n
            while ahead and upto + 1 in ahead:
                upto += 1
                ahead.discard(upto)
            self._upto[key] = upto
        else:
            self._upto.setdefault(key, upto)
            self._ahead.setdefault(key, set()).add(n)

    def upto(self, key: Hashable) -> int:
        """The highest n with every record 1 … n stored."""
        return self._upto.get(key, 0)

    def missing(self, key: Hashable, announced: int = 0) -> int | None:
        """The first missing n when later records (or a status naming `announced`) show one is missing."""
        upto = self._upto.get(key, 0)
        if self._ahead.get(key) or announced > upto:
            return upto + 1
        return None

    def behind(self, key: Hashable, n: int) -> bool:
        """Did record `n` fill a hole (arrive after a later one)?"""
        ahead = self._ahead.get(key)
        return bool(ahead) and n < max(ahead)
