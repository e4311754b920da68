"""Club nights: an evening of rounds across the café's tables (seating, standings)."""
