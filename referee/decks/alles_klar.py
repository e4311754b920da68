"""Alles klar?: 77 faces, one copy each (rules section 1, decision D1).

Values 1–11; per value one face without numeral, one with each single numeral,
and one two-numeral face from the table below.
"""

NUMERALS = ("I", "II", "III", "IV", "V")
VALUES = range(1, 12)

# value → its two-numeral face's numerals (the last column of the rules' table)
TWO_NUMERALS = {
    1: ("I", "II"),
    2: ("II", "III"),
    3: ("III", "IV"),
    4: ("IV", "V"),
    5: ("I", "V"),
    6: ("I", "II"),
    7: ("II", "III"),
    8: ("III", "IV"),
    9: ("IV", "V"),
    10: ("I", "V"),
    11: ("I", "II"),
}


def default_faces() -> list[str]:
    faces = []
    for value in VALUES:
        faces.append(f"AK:{value}")
        faces.extend(f"AK:{value}.{numeral}" for numeral in NUMERALS)
        faces.append(f"AK:{value}." + ".".join(TWO_NUMERALS[value]))
    return faces
