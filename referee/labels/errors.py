"""The one error of the labels package: a request that cannot make a sheet (no file is written)."""

from __future__ import annotations

from referee.errors import RefereeError


class LabelError(RefereeError, ValueError):
    """Unknown game or layout, bad options, a sheet that does not fit its page, a code too long for its label."""
