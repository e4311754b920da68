"""Where other threads hand work to the display thread: hardware inputs, the café's news, control commands.

Made by the composition root before anything that posts to it (hardware threads, the café publisher, the
control socket), and handed to the `App`, whose loop takes the items on the display thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
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
    """A queue of items for the display thread and the way to wake its loop.

    The loop sleeps in `select()` on a wake pipe (`kiosk.loop.waiting.Waker`, decision H23-Q), which the `App` makes
    when it opens the display and hands in with `wake_with`: hardware threads post here directly, so every post
    must write to that pipe, or a scan would wait for the loop's next timeout. Items posted before that (the
    hardware opens before the app) wait in the queue; the loop takes them on its first turn."""

    def __init__(self) -> None:
        self.items: queue.Queue[object] = queue.Queue()
        self._wake: Callable[[], None] = _nobody
        self._lock = threading.Lock()  # a Command is posted before the loop ends, or refused: never left waiting
        self.closed = False

    def wake_with(self, wake: Callable[[], None]) -> None:
        """Who `post` wakes from now on: the display loop's `Waker.wake` (thread-safe, never blocks)."""
        self._wake = wake

    def post(self, item: object) -> None:
        """Thread-safe: hand an input or a Command to the display thread (and wake its loop)."""
        with self._lock:
            if self.closed and isinstance(item, Command):
                _refuse(item)
                return
            self.items.put(item)
        self._wake()

    def close(self) -> None:
        """The loop has ended (stopped, a signal): Commands waiting for it, and any posted from now on, fail at
        once. A control-socket client left waiting would hold its thread, and the kiosk's exit, for seconds."""
        with self._lock:
            self.closed = True
            while True:
                try:
                    item = self.items.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item, Command):
                    _refuse(item)

    def call(self, name: str, arg: Any = None, timeout: float = 10.0) -> Any:
        """Thread-safe: run a Command on the display thread and wait for its result."""
        command = Command(name, arg)
        self.post(command)
        if not command.done.wait(timeout):
            raise TimeoutError(name)
        if command.error is not None:
            raise command.error
        return command.result


def _refuse(command: Command) -> None:
    command.error = RuntimeError("the kiosk is stopping")
    command.done.set()


def _nobody() -> None:
    """No loop to wake yet: the item waits in the queue for the loop's first turn."""
