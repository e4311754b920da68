"""A simulated serial scanner: a pseudo-terminal whose slave end is reached through a stable symlink, so the
real `SerialScanner` reads real bytes from a real tty and survives an unplug and a replug like a USB scanner."""

from __future__ import annotations

import contextlib
import os
import tty
from pathlib import Path


class SimSerialDevice:
    """A simulated serial scanner: a pseudo-terminal whose slave is reached through a stable symlink."""

    def __init__(self, link: str | Path):
        self.link = Path(link)
        self.master = self.slave = -1
        self.plug()

    @property
    def plugged(self) -> bool:
        return self.master >= 0

    def plug(self) -> None:
        if self.plugged:
            return
        master, slave = os.openpty()
        tty.setraw(master)
        tmp = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.link)
        self.master, self.slave = master, slave

    def unplug(self) -> None:
        """The device disappears: its path goes away and the reader's next read fails."""
        if not self.plugged:
            return
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = -1

    def write(self, data: bytes) -> None:
        if not self.plugged:
            raise OSError("the simulated scanner is unplugged")
        view = memoryview(data)
        while view:
            n = os.write(self.master, view)
            view = view[n:]

    close = unplug
