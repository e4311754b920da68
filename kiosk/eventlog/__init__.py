"""The event log (SQLite, the truth the kiosk resumes from), its storage faults, and exports off the table."""
