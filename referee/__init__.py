"""The rules core: card codes, decks, the common game protocol and the five games.

Pure: no I/O, no clock, no unseeded randomness. The kiosk, the hardware layer and
the command line import this package; it imports none of them.
"""

from referee.answers import Answer, HeaderError, Rejection
from referee.cards import Card, CardCodeError
from referee.table import Referee, start

__all__ = ["Answer", "Card", "CardCodeError", "HeaderError", "Referee", "Rejection", "start"]
