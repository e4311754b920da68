"""The kiosk: composition root, screens, event log (being built; see issue 6)."""
