"""When a code seen in a zone is a card laid: pure bookkeeping over frames, one `ZoneMemory` per zone.

A code counts when it has been seen in `confirm_frames` consecutive frames after it was not there.
"Not there" is not "not decoded in the last frame": a hand over the pile, a glare, the next card
laid on top, or the pile being straightened all hide a card that is still there. So a zone keeps
every code it has counted until the zone has shown no code at all for `forget_s` (the pile was
taken, the trick collected); until then, seeing a counted code again means nothing. A code that
flickers (seen, lost, seen) before it was counted starts its streak again, so one lucky frame of a
card passing under the camera in a hand never counts.
"""

from __future__ import annotations

from collections.abc import Iterable


class ZoneMemory:
    """One zone's codes over frames: feed each frame's codes, get back the codes laid in that frame."""

    __slots__ = ("confirm_frames", "counted", "forget_ns", "last_code_ns", "streak")

    def __init__(self, confirm_frames: int = 2, forget_s: float = 4.0):
        if confirm_frames < 1:
            raise ValueError("confirm_frames must be >= 1")
        self.confirm_frames = confirm_frames
        self.forget_ns = round(forget_s * 1e9)
        self.streak: dict[str, int] = {}
        self.counted: set[str] = set()
        self.last_code_ns: int | None = None

    def frame(self, codes: Iterable[str], t_ns: int) -> list[str]:
        """The codes of one frame of this zone (decoded in it at `t_ns`) → the codes that count now."""
        seen = set(codes)
        if self.last_code_ns is not None and t_ns - self.last_code_ns >= self.forget_ns:
            self.counted.clear()  # the zone stood empty long enough: it was cleared
        if seen:
            self.last_code_ns = t_ns
        streak = {code: self.streak.get(code, 0) + 1 for code in seen if code not in self.counted}
        laid = sorted(code for code, n in streak.items() if n >= self.confirm_frames)
        self.counted.update(laid)
        self.streak = {code: n for code, n in streak.items() if code not in self.counted}
        return laid

    def clear(self) -> None:
        """Forget everything (the zone was moved in calibration)."""
        self.streak.clear()
        self.counted.clear()
        self.last_code_ns = None
