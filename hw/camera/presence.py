"""When a code seen in a zone is a card laid: pure bookkeeping over frames, one `ZoneMemory` per zone.

A code counts when it has been seen in `confirm_frames` consecutive frames after it was not there.
"Not there" is not "not decoded in the last frame": a hand over the pile, a glare, the next card laid
half over it, all hide a card that is still there. So a counted code stays counted while it keeps
showing up at least every `forget_s`; seen again within that, it means nothing.

A counted code that was gone for longer (buried in the pile, or drawn from a discard pile) may come
back two ways: laid again (it then lies on top, in view for good) or peeking out for a moment while the
pile is straightened. To tell them apart it counts again only after `recount_s` in view without a
break, far longer than a straightened pile shows a buried card. A zone that has shown no code at all
for `forget_s` was cleared (the pile taken, the trick collected): everything counts afresh.
A code that flickers (seen, lost, seen) before it counted starts its streak again, so one lucky frame
of a card passing under the camera in a hand never counts.
"""

from __future__ import annotations

from collections.abc import Iterable


class ZoneMemory:
    """One zone's codes over frames: feed each frame's codes, get back the codes laid in that frame."""

    __slots__ = ("confirm_frames", "counted", "forget_ns", "last_code_ns", "recount_ns", "streak")

    def __init__(self, confirm_frames: int = 2, forget_s: float = 4.0, recount_s: float = 1.5):
        if confirm_frames < 1:
            raise ValueError("confirm_frames must be >= 1")
        self.confirm_frames = confirm_frames
        self.forget_ns = round(forget_s * 1e9)
        self.recount_ns = round(recount_s * 1e9)
        self.streak: dict[str, tuple[int, int]] = {}  # code → (frames in a row, time of the first)
        self.counted: dict[str, int] = {}  # code → when it was last seen
        self.last_code_ns: int | None = None

    def frame(self, codes: Iterable[str], t_ns: int) -> list[str]:
        """The codes of one frame of this zone (decoded in it at `t_ns`) → the codes that count now."""
        seen = set(codes)
        if self.last_code_ns is not None and t_ns - self.last_code_ns >= self.forget_ns:
            self.counted.clear()  # the zone stood empty long enough: it was cleared
        if seen:
            self.last_code_ns = t_ns
        laid = []
        streak = {}
        for code in sorted(seen):
            last = self.counted.get(code)
            if last is not None and t_ns - last < self.forget_ns:
                self.counted[code] = t_ns  # still there
                continue
            n, since = self.streak.get(code, (0, t_ns))
            n += 1
            if n >= self.confirm_frames and (last is None or t_ns - since >= self.recount_ns):
                self.counted[code] = t_ns
                laid.append(code)
            else:
                streak[code] = (n, since)
        self.streak = streak
        return laid

    def clear(self) -> None:
        """Forget everything (the zone was moved in calibration)."""
        self.streak.clear()
        self.counted.clear()
        self.last_code_ns = None
