"""Card scanners: serial (pyserial, one reader thread each) and the line checks every scanner shares.

A scanner sends a code and a terminator. `CardLineProtocol` (a `serial.threaded`
protocol: `connection_made` / `data_received` / `handle_line` / `connection_lost`)
buffers bytes until the terminator and turns each line into exactly one of
- `CardScan(code, reader, t_ns)` - a plausible card code (`referee.cards.plausible_code`);
- `ReaderNews(reader, reason, detail, t_ns)` - "noise" (control bytes), "not-ascii",
  "too-long" (no terminator within `max_line` bytes), "cut-off" (a partial line when
  the device went away), "not-a-card" (clean text that is no card code of any deck);
- nothing - an empty line, or the same code from the same reader again within the
  dedupe window (a scanner in continuous mode re-reads a card lying under it).

`SerialScanner` runs the protocol on a pyserial port in its own thread with
blocking reads (`timeout=None`, woken only by bytes or by `cancel_read()` on stop).
When the device goes away it reports `ReaderNews(..., "disconnected", ...)`,
retries opening the same path with exponential back-off and reports
"reconnected" when it is back. `t_ns` of a line is the monotonic time the read
that delivered its terminator returned.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from typing import Any, Protocol

import serial
import serial.threaded

from hw.clock import now_ns
from hw.inputs import CardScan, Input, ReaderNews
from hw.sinks import Sink, as_sink
from referee.cards import plausible_code

log = logging.getLogger(__name__)

TERMINATORS = {"CR": b"\r", "LF": b"\n", "CRLF": b"\r\n"}
DEFAULT_MAX_LINE = 64
DEFAULT_DEDUPE_MS = 750.0


@dataclass(frozen=True, slots=True)
class Framing:
    """How a scanner frames a code: terminator ("CR", "LF", "CRLF"), optional prefix/suffix to strip."""

    terminator: str = "CR"
    prefix: str = ""
    suffix: str = ""
    max_line: int = DEFAULT_MAX_LINE

    def __post_init__(self) -> None:
        if self.terminator not in TERMINATORS:
            raise ValueError(f"terminator must be one of {', '.join(TERMINATORS)}, not {self.terminator!r}")
        if self.max_line < 1:
            raise ValueError("max_line must be >= 1")

    @property
    def end(self) -> bytes:
        return TERMINATORS[self.terminator]


def _show(raw: bytes, limit: int = 40) -> str:
    text = repr(raw[:limit])
    return text + ("…" if len(raw) > limit else "")


class CardReader(Protocol):
    """The port every scanner adapter offers: a name, `start()` and `stop()`; inputs go to its sink."""

    name: str

    def start(self) -> CardReader: ...

    def stop(self) -> None: ...


class CodeFilter:
    """One reader's line → input decision, with the duplicate window. Pure apart from its memory."""

    def __init__(self, reader: str, framing: Framing = Framing(), dedupe_ms: float = DEFAULT_DEDUPE_MS):
        self.reader = reader
        self.framing = framing
        self.dedupe_ns = round(dedupe_ms * 1_000_000)
        self._last_seen: dict[str, int] = {}

    def error(self, reason: str, detail: str, t_ns: int) -> ReaderNews:
        return ReaderNews(self.reader, reason, detail, t_ns)

    def line(self, raw: bytes, t_ns: int) -> Input | None:
        raw = raw.strip(b"\r\n")  # a stray CR/LF of a CRLF scanner configured as CR or LF
        if not raw:
            return None
        if len(raw) > self.framing.max_line:
            return self.error("too-long", f"{len(raw)} bytes: {_show(raw)}", t_ns)
        if not raw.isascii():
            return self.error("not-ascii", _show(raw), t_ns)
        if any(b < 0x20 or b == 0x7F for b in raw):
            return self.error("noise", _show(raw), t_ns)
        return self.text(raw.decode("ascii"), t_ns)

    def text(self, text: str, t_ns: int) -> Input | None:
        """Judge one decoded line (also the keyboard-wedge path)."""
        code = text.strip()
        prefix, suffix = self.framing.prefix, self.framing.suffix
        if prefix and code.startswith(prefix):
            code = code[len(prefix):]
        if suffix and code.endswith(suffix):
            code = code[: len(code) - len(suffix)]
        if not code:
            return None
        if not plausible_code(code):
            return self.error("not-a-card", repr(code[:40]), t_ns)
        last = self._last_seen.get(code)
        self._last_seen[code] = t_ns
        if last is not None and 0 <= t_ns - last < self.dedupe_ns:
            return None
        if len(self._last_seen) > 256:
            horizon = t_ns - self.dedupe_ns
            self._last_seen = {c: t for c, t in self._last_seen.items() if t >= horizon}
        return CardScan(code, self.reader, t_ns)


class CardLineProtocol(serial.threaded.Protocol):
    """Bytes → lines → inputs for one reader, in the style of `serial.threaded.LineReader`."""

    def __init__(self, reader: str, sink: Any, framing: Framing = Framing(), dedupe_ms: float = DEFAULT_DEDUPE_MS):
        self.filter = CodeFilter(reader, framing, dedupe_ms)
        self.sink: Sink = as_sink(sink)
        self.framing = framing
        self.buffer = bytearray()
        self.discarding = False  # inside an over-long line, until its terminator
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.buffer.clear()
        self.discarding = False

    def data_received(self, data: bytes, t_ns: int | None = None) -> None:
        t = now_ns() if t_ns is None else t_ns
        end = self.framing.end
        buf = self.buffer
        buf += data
        while True:
            i = buf.find(end)
            if i < 0:
                break
            line = bytes(buf[:i])
            del buf[: i + len(end)]
            if self.discarding:
                self.discarding = False
                continue
            self.handle_line(line, t)
        limit = self.framing.max_line + len(end)
        if len(buf) > limit:
            if not self.discarding:
                self.emit(self.filter.error("too-long", f"no terminator within {limit} bytes: {_show(bytes(buf))}", t))
                self.discarding = True
            # keep a possible partial terminator at the end
            del buf[: len(buf) - (len(end) - 1)]

    def handle_line(self, line: bytes, t_ns: int) -> None:
        result = self.filter.line(line, t_ns)
        if result is not None:
            self.emit(result)

    def connection_lost(self, exc: BaseException | None) -> None:
        rest = bytes(self.buffer).strip(b"\r\n")
        if rest and not self.discarding:
            self.emit(self.filter.error("cut-off", _show(rest), now_ns()))
        self.buffer.clear()
        self.discarding = False
        self.transport = None

    def emit(self, item: Input) -> None:
        try:
            self.sink(item)
        except Exception:  # a broken sink must not kill the reader
            log.exception("scanner %s: sink failed", self.filter.reader)


class ReconnectingReader:
    """A reader thread that opens a device, reads until it fails, then retries with back-off.

    Subclasses implement `_open()` (raise OSError/SerialException if not there),
    `_read_until_lost(protocol)` (blocking; return or raise when the device goes
    away or `stop()` interrupts it), `_interrupt()` and `_close()`.
    """

    kind = "reader"

    def __init__(self, name: str, sink: Any, framing: Framing, dedupe_ms: float,
                 retry_s: tuple[float, float] = (0.05, 2.0)):
        self.name = name
        self.sink = as_sink(sink)
        self.protocol = CardLineProtocol(name, self.sink, framing, dedupe_ms)
        self.retry_min, self.retry_max = retry_s
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()
        self._opened = threading.Condition()
        self.opens = 0
        """How many times the device was opened (first connection and every reconnection)."""

    # -- lifecycle
    def start(self) -> ReconnectingReader:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"{self.kind}-{self.name}", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._lock:
            self._interrupt()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    close = stop

    def __enter__(self) -> ReconnectingReader:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_opened(self, more_than: int, timeout: float) -> bool:
        """Wait until the device has been opened more than `more_than` times in all."""
        with self._opened:
            return self._opened.wait_for(lambda: self.opens > more_than, timeout)

    # -- the thread
    def _report(self, reason: str, detail: str) -> None:
        self.protocol.emit(ReaderNews(self.name, reason, detail, now_ns()))

    def _run(self) -> None:
        delay = self.retry_min
        lost_reported = False
        while not self._stop.is_set():
            try:
                with self._lock:
                    if self._stop.is_set():
                        break
                    self._open()
            except Exception as exc:
                if not lost_reported:
                    self._report("disconnected", f"cannot open: {exc}")
                    lost_reported = True
                if self._stop.wait(delay):
                    break
                delay = min(delay * 2, self.retry_max)
                continue
            delay = self.retry_min
            if lost_reported:
                self._report("reconnected", "")
                lost_reported = False
            with self._opened:
                self.opens += 1
                self._opened.notify_all()
            self.connected.set()
            error: BaseException | None = None
            self.protocol.connection_made(self)
            try:
                self._read_until_lost(self.protocol)
            except Exception as exc:
                error = exc
            finally:
                self.connected.clear()
                self.protocol.connection_lost(error)
                with self._lock:
                    self._close()
            if error is not None and not self._stop.is_set():
                self._report("disconnected", str(error))
                lost_reported = True
                if self._stop.wait(delay):
                    break

    def _open(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _read_until_lost(self, protocol: CardLineProtocol) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _interrupt(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _close(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class SerialScanner(ReconnectingReader):
    """A serial scanner on `port` (a path such as /dev/serial/by-id/…, or any pyserial URL)."""

    kind = "serial"

    def __init__(self, name: str, port: str, sink: Any, *, baudrate: int = 9600, framing: Framing = Framing(),
                 dedupe_ms: float = DEFAULT_DEDUPE_MS, bytesize: int = 8, parity: str = "N", stopbits: float = 1,
                 retry_s: tuple[float, float] = (0.05, 2.0)):
        super().__init__(name, sink, framing, dedupe_ms, retry_s)
        self.port = port
        self.settings: dict[str, Any] = dict(baudrate=baudrate, bytesize=bytesize, parity=parity, stopbits=stopbits)
        self.serial: Any = None

    def _open(self) -> None:
        ser = serial.serial_for_url(self.port, do_not_open=True, timeout=None, **self.settings)
        ser.open()
        self.serial = ser

    def _read_until_lost(self, protocol: CardLineProtocol) -> None:
        ser = self.serial
        stop = self._stop
        while not stop.is_set():
            data = ser.read(ser.in_waiting or 1)  # blocks until bytes arrive or cancel_read()
            if data:
                protocol.data_received(data, now_ns())

    def _interrupt(self) -> None:
        ser = self.serial
        if ser is not None:
            with contextlib.suppress(Exception):  # not open any more
                ser.cancel_read()

    def _close(self) -> None:
        ser, self.serial = self.serial, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    def write(self, data: bytes) -> int:
        """`serial.threaded` transport API: scanners are read-only here, but allow a command."""
        written: int = self.serial.write(data)
        return written
