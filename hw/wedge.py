"""Keyboard-wedge (USB HID) scanners: through evdev on Linux, with the device grabbed; typed text in simulation.

A wedge scanner "types" the code and presses Enter. `KeyDecoder` turns key events
(by evdev key name, US layout, which is what scanners emit by default) into text;
Enter ends the line. Both `WedgeScanner` (evdev) and `TypedScanner` (text from
the simulator or the kiosk's keyboard) feed the same `CardLineProtocol` as a
serial scanner, framed by LF, so every check (noise, too long, not a card,
duplicates) is the same.

`evdev` is optional (`pip install 'tabletop-referee[hid]'`, Linux only) and only
imported when a `WedgeScanner` is opened.
"""

from __future__ import annotations

import contextlib
import os
import selectors
from typing import Any

from hw.clock import now_ns
from hw.scanners import DEFAULT_DEDUPE_MS, CardLineProtocol, Framing, ReconnectingReader
from hw.sinks import as_sink

_PLAIN = {f"KEY_{c}": c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_PLAIN.update({f"KEY_{d}": d for d in "0123456789"})
_PLAIN.update({f"KEY_KP{d}": d for d in "0123456789"})
_PLAIN.update({
    "KEY_MINUS": "-", "KEY_EQUAL": "=", "KEY_LEFTBRACE": "[", "KEY_RIGHTBRACE": "]", "KEY_SEMICOLON": ";",
    "KEY_APOSTROPHE": "'", "KEY_GRAVE": "`", "KEY_BACKSLASH": "\\", "KEY_COMMA": ",", "KEY_DOT": ".",
    "KEY_SLASH": "/", "KEY_SPACE": " ", "KEY_KPMINUS": "-", "KEY_KPPLUS": "+", "KEY_KPDOT": ".",
    "KEY_KPSLASH": "/", "KEY_KPASTERISK": "*", "KEY_TAB": "\t",
})
_SHIFTED = {f"KEY_{c}": c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_SHIFTED.update({
    "KEY_1": "!", "KEY_2": "@", "KEY_3": "#", "KEY_4": "$", "KEY_5": "%", "KEY_6": "^", "KEY_7": "&",
    "KEY_8": "*", "KEY_9": "(", "KEY_0": ")", "KEY_MINUS": "_", "KEY_EQUAL": "+", "KEY_LEFTBRACE": "{",
    "KEY_RIGHTBRACE": "}", "KEY_SEMICOLON": ":", "KEY_APOSTROPHE": '"', "KEY_GRAVE": "~", "KEY_BACKSLASH": "|",
    "KEY_COMMA": "<", "KEY_DOT": ">", "KEY_SLASH": "?",
})
_SHIFT_KEYS = frozenset({"KEY_LEFTSHIFT", "KEY_RIGHTSHIFT"})
_ENTER_KEYS = frozenset({"KEY_ENTER", "KEY_KPENTER"})


class KeyDecoder:
    """Key events (name, value: 1 down, 2 repeat, 0 up) → characters; Enter → "\\n".

    Keys with no character here (function keys, arrows …) become "\\x00", so the
    line is reported as noise instead of silently shortened.
    """

    __slots__ = ("caps", "shift")

    def __init__(self) -> None:
        self.shift = 0
        self.caps = False

    def key(self, name: str, value: int) -> str:
        if name in _SHIFT_KEYS:
            self.shift = max(0, self.shift + (1 if value == 1 else -1 if value == 0 else 0))
            return ""
        if value == 0:
            return ""
        if name == "KEY_CAPSLOCK":
            if value == 1:
                self.caps = not self.caps
            return ""
        if name in _ENTER_KEYS:
            return "\n"
        if name in ("KEY_LEFTCTRL", "KEY_RIGHTCTRL", "KEY_LEFTALT", "KEY_RIGHTALT", "KEY_LEFTMETA"):
            return ""
        upper = bool(self.shift)
        if name in _SHIFTED and len(name) == 5 and self.caps:  # letters: caps lock inverts shift
            upper = not upper
        char = (_SHIFTED if upper else _PLAIN).get(name)
        if char is None:
            char = _PLAIN.get(name, "\x00")
        return char


class TypedScanner:
    """The simulated twin of a wedge scanner: typed text, a line per "\\n" (or "\\r")."""

    def __init__(self, name: str, sink: Any, *, framing: Framing | None = None, dedupe_ms: float = DEFAULT_DEDUPE_MS):
        base = framing or Framing("LF")
        self.name = name
        self.protocol = CardLineProtocol(name, as_sink(sink), Framing("LF", base.prefix, base.suffix, base.max_line),
                                         dedupe_ms)
        self.protocol.connection_made(self)

    def type_text(self, text: str, t_ns: int | None = None) -> None:
        data = text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8", "replace")
        self.protocol.data_received(data, now_ns() if t_ns is None else t_ns)

    def scan(self, code: str, t_ns: int | None = None) -> None:
        self.type_text(code + "\n", t_ns)

    def start(self) -> TypedScanner:
        return self

    def stop(self) -> None:
        self.protocol.connection_lost(None)

    close = stop


class WedgeScanner(ReconnectingReader):
    """A USB HID keyboard-wedge scanner read through evdev (`/dev/input/by-id/…-event-kbd`), grabbed."""

    kind = "wedge"

    def __init__(self, name: str, device: str, sink: Any, *, framing: Framing | None = None,
                 dedupe_ms: float = DEFAULT_DEDUPE_MS, grab: bool = True, retry_s: tuple[float, float] = (0.05, 2.0)):
        base = framing or Framing("LF")
        super().__init__(name, sink, Framing("LF", base.prefix, base.suffix, base.max_line), dedupe_ms, retry_s)
        self.device_path = device
        self.grab = grab
        self.device: Any = None
        self._wake_r = self._wake_w = -1
        self.decoder = KeyDecoder()

    def start(self) -> WedgeScanner:
        try:
            import evdev  # noqa: F401 - optional dependency, Linux only
        except ImportError as exc:
            raise RuntimeError("keyboard-wedge scanners need evdev: pip install 'tabletop-referee[hid]'") from exc
        if self._wake_r < 0:
            self._wake_r, self._wake_w = os.pipe()
        super().start()
        return self

    def _open(self) -> None:
        import evdev

        dev = evdev.InputDevice(self.device_path)
        try:
            if self.grab:
                dev.grab()  # keystrokes no longer reach SDL or the console
        except Exception:
            dev.close()
            raise
        self.device = dev
        self.decoder = KeyDecoder()

    def _read_until_lost(self, protocol: CardLineProtocol) -> None:
        from evdev import ecodes

        dev = self.device
        with selectors.DefaultSelector() as sel:
            sel.register(dev.fd, selectors.EVENT_READ)
            sel.register(self._wake_r, selectors.EVENT_READ)
            while not self._stop.is_set():
                ready = sel.select()
                if any(key.fd == self._wake_r for key, _ in ready):
                    with contextlib.suppress(BlockingIOError):
                        os.read(self._wake_r, 64)
                    continue
                t_ns = now_ns()
                chars = []
                for event in dev.read():  # OSError (ENODEV) when unplugged
                    if event.type == ecodes.EV_KEY:
                        name = ecodes.KEY.get(event.code, "")
                        if isinstance(name, list):
                            name = name[0]
                        chars.append(self.decoder.key(name, event.value))
                text = "".join(chars)
                if text:
                    protocol.data_received(text.encode("ascii", "replace"), t_ns)

    def _interrupt(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _close(self) -> None:
        dev, self.device = self.device, None
        if dev is not None:
            with contextlib.suppress(Exception):
                if self.grab:
                    dev.ungrab()
            with contextlib.suppress(Exception):
                dev.close()

    def stop(self, timeout: float = 5.0) -> None:
        super().stop(timeout)
        for fd in (self._wake_r, self._wake_w):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._wake_r = self._wake_w = -1
