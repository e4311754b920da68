"""Where the adapters put their inputs: a callable, or anything with `put_nowait` (a `queue.Queue`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hw.inputs import Input

Sink = Callable[[Input], None]


def as_sink(target: Any) -> Sink:
    """A `queue.Queue` (or anything with `put_nowait`) or a callable taking one input."""
    put: Sink | None = getattr(target, "put_nowait", None)
    if put is not None:
        return put
    if callable(target):
        call: Sink = target
        return call
    raise TypeError(f"a sink is a callable or a queue, not {type(target).__name__}")
