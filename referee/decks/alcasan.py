"""alcasan: 13 faces × 4 copies = 52 cards (rules section 1, decision AC-D1).

Number cards 1, 2, 3 and 5 … 10 (there is no plain 4: Wasser is the 4) and the
four element cards. The option `copies` changes the copies of every face.
"""

PREFIX = "AC"
NUMBERS = (1, 2, 3, 5, 6, 7, 8, 9, 10)
ELEMENTS = ("WASSER", "FEUER", "ERDE", "LUFT")
SHORT_FACES = tuple(str(n) for n in NUMBERS) + ELEMENTS
DEFAULT_COPIES = 4
WASSER_VALUE = 4


def faces(copies: int = DEFAULT_COPIES) -> dict[str, int]:
    """The deck: face (`AC:7`) → copies."""
    return {f"{PREFIX}:{short}": copies for short in SHORT_FACES}
