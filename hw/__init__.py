"""The hardware layer: seat buttons and card scanners behind narrow ports (being built; see issue 5)."""
