"""`CameraReader`: the overhead camera as a card reader, a sibling of `SerialScanner` and `WedgeScanner`.

Two threads, neither of them the display's:
- capture: opens the frame source (retrying with back-off while it is missing), reads frames and
  leaves only the newest in a one-frame slot. A frame the decoder has not taken yet is replaced, so
  when decoding falls behind frames are dropped, never queued, and latency stays one frame.
  No frame for `stall_s` (a stalled or unplugged camera) is `ReaderNews("camera", "disconnected")`;
  the first frame after it is "reconnected" (the kiosk's banner, as for an unplugged scanner).
- decode: crops each zone out of the newest frame, decodes it (`hw.camera.decode`) and feeds the
  zone's `ZoneMemory`; every code that counts becomes `CardScan(code, zone_reader(zone), t_ns)`, with
  the time of the frame that confirmed it.

Cards are read by their labels (`labels`, on unless switched off) and, once the kiosk hands it the taught
faces of the game in play (`set_faces`), by their printed faces (`hw.camera.faces`, `hw.camera.tracking`);
both may be on. While a deck is taught (`teacher`), the pile zone's frames go to the `Teacher` and no card
counts.

`live()` is what the calibration screen shows: the newest frame (small), the zones and the codes
decoded in it with their zone.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from hw.camera.decode import Seen, decode
from hw.camera.presence import ZoneMemory
from hw.camera.sources import Frame, FrameSource
from hw.camera.zones import READER, CameraConfig, Zone
from hw.clock import now_ns
from hw.inputs import CardScan, ReaderNews
from hw.sinks import as_sink

log = logging.getLogger(__name__)


@dataclass
class Live:
    """The newest decoded frame for the calibration screen."""

    frame: Frame | None = None
    seen: list[tuple[str, Seen]] = field(default_factory=list)  # (zone, code and centre in the frame)
    frames: int = 0
    dropped: int = 0
    decode_ms: float = 0.0


class CameraReader:
    """Reads cards from a frame source by zone; inputs go to `sink` like any scanner's."""

    kind = "camera"

    def __init__(self, config: CameraConfig, source: FrameSource, sink: Any, *,
                 retry_s: tuple[float, float] = (0.2, 5.0)):
        self.name = READER
        self.config = config
        self.source = source
        self.sink = as_sink(sink)
        self.retry_min, self.retry_max = retry_s
        self.zones: tuple[Zone, ...] = config.zones
        self.memories = {z.name: self._memory() for z in self.zones}
        self.labels = config.labels  # read the camera labels (the kiosk hands faces over: `set_faces`)
        self.book: Any = None  # hw.camera.faces.FaceBook of the game in play, when its faces are taught
        self.trackers: dict[str, Any] = {}
        self.teacher: Any = None  # hw.camera.teach.Teacher while a deck is taught
        self._stop = threading.Event()
        self._slot: Frame | None = None
        self._slot_lock = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._live = Live()
        self._live_lock = threading.Lock()
        self.connected = threading.Event()
        self._down = False

    # -- lifecycle
    def start(self) -> CameraReader:
        if not self._threads:
            self._stop.clear()
            for target, role in ((self._capture, "capture"), (self._decode_loop, "decode")):
                thread = threading.Thread(target=target, name=f"camera-{role}", daemon=True)
                thread.start()
                self._threads.append(thread)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._slot_lock:
            self._slot_lock.notify_all()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout)
        self._threads.clear()

    close = stop

    def set_zones(self, zones: tuple[Zone, ...]) -> None:
        """New zone areas (calibration): their memories start afresh. The ISP crop stays until a reopen."""
        self.zones = tuple(zones)
        self.memories = {z.name: self._memory() for z in self.zones}
        self.trackers = {}

    def set_faces(self, book: Any) -> None:
        """Read by these taught faces from the next frame on (None: labels only); the zones count afresh."""
        self.book = book if book is not None and len(book) else None
        self.memories = {z.name: self._memory() for z in self.zones}
        self.trackers = {}

    def _memory(self) -> ZoneMemory:
        return ZoneMemory(self.config.confirm_frames, self.config.forget_s, self.config.recount_s)

    def live(self) -> Live:
        with self._live_lock:
            return Live(self._live.frame, list(self._live.seen), self._live.frames, self._live.dropped,
                        self._live.decode_ms)

    # -- reports
    def _emit(self, item: Any) -> None:
        try:
            self.sink(item)
        except Exception:  # a broken sink must not kill the reader
            log.exception("camera: sink failed")

    def _lost(self, detail: str) -> None:
        if not self._down:
            self._down = True
            self.connected.clear()
            self._emit(ReaderNews(self.name, "disconnected", detail, now_ns()))

    def _back(self) -> None:
        self.connected.set()
        if self._down:
            self._down = False
            self._emit(ReaderNews(self.name, "reconnected", "", now_ns()))

    # -- capture thread
    def _capture(self) -> None:
        delay = self.retry_min
        while not self._stop.is_set():
            try:
                crop = self._crop()
                self.source.open(crop)
            except Exception as exc:
                self._lost(f"cannot open: {exc}")
                if self._stop.wait(delay):
                    break
                delay = min(delay * 2, self.retry_max)
                continue
            delay = self.retry_min
            try:
                self._read_frames()
            except Exception as exc:
                self._lost(str(exc) or type(exc).__name__)
            finally:
                try:
                    self.source.close()
                except Exception:
                    log.debug("camera: close failed", exc_info=True)
            if not self._stop.is_set():
                self._stop.wait(delay)

    def _crop(self) -> tuple[float, float, float, float]:
        zones = self.zones
        return (min(z.area[0] for z in zones), min(z.area[1] for z in zones),
                max(z.area[2] for z in zones), max(z.area[3] for z in zones))

    def _read_frames(self) -> None:
        stall_s = self.config.stall_s
        last = time.monotonic()
        while not self._stop.is_set():
            frame = self.source.read(min(0.25, stall_s))
            if frame is None:
                if time.monotonic() - last >= stall_s:
                    self._lost(f"no frame for {stall_s:g} s")
                continue
            last = time.monotonic()
            self._back()
            with self._slot_lock:
                if self._slot is not None:
                    with self._live_lock:
                        self._live.dropped += 1
                self._slot = frame
                self._slot_lock.notify()

    # -- decode thread
    def _decode_loop(self) -> None:
        while not self._stop.is_set():
            with self._slot_lock:
                while self._slot is None and not self._stop.is_set():
                    self._slot_lock.wait(0.5)
                frame, self._slot = self._slot, None
            if frame is None:
                continue
            try:
                self.process(frame)
            except Exception:
                log.exception("camera: a frame failed to decode")

    def process(self, frame: Frame) -> list[CardScan]:
        """Decode one frame zone by zone and report the cards laid (also the benchmark's entry point)."""
        started = time.perf_counter()
        scans = []
        seen_all: list[tuple[str, Seen]] = []
        memories, teacher = self.memories, self.teacher
        for zone in self.zones:
            box = frame.box(zone.area)
            if box[2] - box[0] < 8 or box[3] - box[1] < 8:
                continue
            crop = frame.image.crop(box)
            if teacher is not None:
                if zone.seat is None:  # the pile: where staff lay the cards to teach
                    import numpy as np

                    teacher.frame(np.asarray(crop), frame.chroma, (box[0], box[1]))
                continue
            codes, names = self._read_zone(zone, crop, frame, box, seen_all)
            memory = memories.get(zone.name)
            if memory is None:
                continue
            for token in memory.frame(codes, frame.t_ns):
                scans.append(CardScan(names.get(token, token), zone.reader, frame.t_ns))
        with self._live_lock:
            self._live.frame = frame
            self._live.seen = seen_all
            self._live.frames += 1
            self._live.decode_ms = (time.perf_counter() - started) * 1000
        for scan in scans:
            self._emit(scan)
        return scans

    def _read_zone(self, zone: Zone, crop: Any, frame: Frame, box: tuple[int, int, int, int],
                   seen_all: list[tuple[str, Seen]]) -> tuple[list[str], dict[str, str]]:
        """The zone's labels and faces in this frame → ZoneMemory's tokens and what each token's scan carries."""
        labels = decode(crop, (box[0], box[1])) if self.labels else []
        book = self.book
        if book is None:
            seen_all.extend((zone.name, s) for s in labels)
            return [s.code for s in labels], {}
        import numpy as np

        from hw.camera.faces import read_faces
        from hw.camera.tracking import FaceTracker

        faces = read_faces(book, np.asarray(crop), frame.chroma, (box[0], box[1]))
        tracker = self.trackers.setdefault(zone.name, FaceTracker(self.config.forget_s))
        tokens, names = tracker.frame(faces, labels, frame.t_ns)
        seen_all.extend((zone.name, s) for s in labels)
        seen_all.extend((zone.name, Seen(f.face, f.x, f.y)) for f in faces)
        return tokens, names
