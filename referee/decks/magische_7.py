"""Die magische 7: one pack of 24 cards (rules section 1); two packs with four players."""

POINT_VALUES = range(-6, 14)
SPECIALS = {"JOKER": 2, "MIRROR": 1, "CROSS": 1}


def pack() -> dict[str, int]:
    """One pack: face → copies."""
    faces = {f"M7:{value}": 1 for value in POINT_VALUES}
    faces.update({f"M7:{name}": count for name, count in SPECIALS.items()})
    return faces
