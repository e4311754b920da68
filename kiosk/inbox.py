"""Where other threads hand work to the display thread: hardware inputs, the café's news, control commands.

Made by the composition root before anything that posts to it (hardware threads, the café publisher, the
control socket), and handed to the `App`, whose loop takes the items on the display thread.
"""

from __future__ import annotations

import queue
import threading
from typing import Any


class Command:
    """A request from another thread that must run on the display thread (screenshot, state)."""

    def __init__(self, name: str, arg: Any = None):
        self.name = name
        self.arg = arg
        self.result: Any = None
        self.error: Exception | None = None
        self.done = threading.Event()


class Inbox:
    """A queue of items for the display thread and the event that wakes its loop."""

    def __init__(self) -> None:
        self.items: queue.Queue[Any] = queue.Queue()
        self.wake = threading.Event()

    def post(self, item: Any) -> None:
        """Thread-safe: hand an input or a Command to the display thread (and wake its loop)."""
        self.items.put(item)
        self.wake.set()

    def call(self, name: str, arg: Any = None, timeout: float = 10.0) -> Any:
        """Thread-safe: run a Command on the display thread and wait for its result."""
        command = Command(name, arg)
        self.post(command)
        if not command.done.wait(timeout):
            raise TimeoutError(name)
        if command.error is not None:
            raise command.error
        return command.result
