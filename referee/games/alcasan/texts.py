"""The sentences of alcasan's rejections and hints, English and German (`referee.messages`)."""

from referee import messages

# Message keys carry the suffix ".ac" so that another game's sentence for the same code never collides.
messages.register({
    "event-not-used.ac": (
        "alcasan has no '{type}' event: hands are refilled automatically and no button is used (AC-D11, AC-D20).",
        "alcasan kennt kein Ereignis „{type}“: nachgezogen wird automatisch, Knöpfe werden nicht benutzt "
        "(AC-D11, AC-D20).",
    ),
    "bad-event.ac-card-or-cards": (
        "A play names exactly one of 'card' (one card) or 'cards' (a list of cards).",
        "Ein Ausspiel nennt genau eines von „card“ (eine Karte) oder „cards“ (eine Liste von Karten).",
    ),
    "mixed-faces.ac": (
        "Several cards at once must all show the same face, not {faces} (AC-R2).",
        "Mehrere Karten auf einmal müssen alle dasselbe Bild zeigen, nicht {faces} (AC-R2).",
    ),
    "too-many-cards.ac-hand": (
        "{player} has only {have} hand card(s), not {count} (AC-R3).",
        "{player} hat nur {have} Handkarte(n), nicht {count} (AC-R3).",
    ),
    "too-many-cards.ac-up": (
        "{player} has only {have} face-up card(s) left, not {count} (AC-R3).",
        "{player} hat nur noch {have} offene Karte(n), nicht {count} (AC-R3).",
    ),
    "too-low.ac": (
        "{face} is lower than the {need} on the pile (AC-R8).",
        "{face} ist niedriger als die {need} auf dem Stapel (AC-R8).",
    ),
    "too-high.ac": (
        "Wasser lies on the pile: only 4 or lower may follow, not {face} (AC-R9).",
        "Auf dem Stapel liegt Wasser: nur 4 oder weniger darf folgen, nicht {face} (AC-R9).",
    ),
    "wasser-blocked.ac": (
        "Wasser counts 4 and cannot go on the {need} (AC-R9).",
        "Wasser zählt 4 und darf nicht auf die {need} (AC-R9).",
    ),
    "pile-empty.ac": (
        "The discard pile is empty: there is nothing to take (AC-R6, AC-D9).",
        "Der Ablegestapel ist leer: es gibt nichts aufzunehmen (AC-R6, AC-D9).",
    ),
    "must-reveal.ac": (
        "{player} has no hand or face-up cards left and must turn over a face-down card (AC-R16).",
        "{player} hat keine Hand- oder offenen Karten mehr und muss eine verdeckte Karte umdrehen (AC-R16).",
    ),
    "not-face-down.ac": (
        "{player} still has hand or face-up cards: face-down cards come last (AC-R16).",
        "{player} hat noch Hand- oder offene Karten: die verdeckten Karten kommen zuletzt (AC-R16).",
    ),
    # hints (the sentence the table screen shows)
    "hint.ac.hand": ("{player} lays from the hand.", "{player} legt aus der Hand."),
    "hint.ac.up": ("{player} lays from the face-up cards.", "{player} legt von den offenen Karten."),
    "hint.ac.down": (
        "{player} turns over one face-down card and scans it.",
        "{player} dreht eine verdeckte Karte um und scannt sie.",
    ),
    "hint.ac.any": ("Any card may be laid.", "Jede Karte darf gelegt werden."),
    "hint.ac.at-least": ("{n} or higher, or Earth, Air, Fire.", "{n} oder höher, oder Erde, Luft, Feuer."),
    "hint.ac.at-least-wasser": (
        "{n} or higher, Water, or Earth, Air, Fire.",
        "{n} oder höher, Wasser, oder Erde, Luft, Feuer.",
    ),
    "hint.ac.at-most-4": (
        "4 or lower (1, 2, 3, Water), or Earth, Air, Fire.",
        "4 oder niedriger (1, 2, 3, Wasser), oder Erde, Luft, Feuer.",
    ),
    "hint.ac.or-take": ("Or take the pile.", "Oder den Stapel aufnehmen."),
    "hint.ac.burns": ("One more {face} burns the pile.", "Noch einmal {face} verbrennt den Stapel."),
    # the elements in hint sentences: the English word in English (as English labels print them)
    "hint.ac.WASSER": ("Water", "Wasser"),
    "hint.ac.FEUER": ("Fire", "Feuer"),
    "hint.ac.ERDE": ("Earth", "Erde"),
    "hint.ac.LUFT": ("Air", "Luft"),
})
