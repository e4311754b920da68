"""The hardware layer: seat buttons and card scanners behind narrow ports (docs/hardware.md).

`hw.table.Table(config, sink)` opens the buttons (`hw.buttons`), the overhead camera (`hw.camera`) and scanners
(`hw.scanners`, `hw.wedge`) a table config (`hw.config`) describes; `hw.sim.SimHardware`
runs the same adapters on mock pins and pseudo-terminals. Inputs are `hw.inputs`.
Nothing is opened at import time.
"""
