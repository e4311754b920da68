"""The root of every exception the referee package raises, so a caller can catch the referee's errors alone.

The tree (one per package, as gpiozero keeps it):

    RefereeError
    ├── Rejection          an event the rules do not allow (`referee.protocol`)
    ├── HeaderError        a transcript header that is not valid (`referee.protocol`)
    ├── CardCodeError      a text that is no card code (`referee.cards`; also a ValueError)
    ├── LabelError         a label sheet that cannot be made (`referee.labels`; also a ValueError)
    ├── SimulationStuck    a simulated table that cannot go on (`referee.sim`; also a RuntimeError)
    └── ConfigError        a config file's problems with their lines (`referee.config_lines`; also a ValueError)
"""

from __future__ import annotations


class RefereeError(Exception):
    """Root of the referee's exceptions."""
