"""The sentences of ANNAOTTO's rejections and hints, English and German (`referee.messages`)."""

from referee import messages

messages.register({
    "not-started": (
        "The start card has not been scanned yet (AO-R2).",
        "Die Startkarte ist noch nicht gescannt (AO-R2).",
    ),
    "already-started": ("The start card is already on the table (AO-R2).", "Die Startkarte liegt schon (AO-R2)."),
    "start-not-plain": (
        "{card} is a special or wild side: turn the start card over to its plain side (AO-R2).",
        "{card} ist eine Sonder- oder Jokerseite: dreh die Startkarte auf ihre einfache Seite (AO-R2).",
    ),
    "one-card-only": ("Only one card may be laid at a time (AO-R5).", "Es darf nur eine Karte gelegt werden (AO-R5)."),
    "no-match": (
        "{card} matches {top} neither in colour, pattern nor sign (AO-R5).",
        "{card} passt zu {top} weder in Farbe, Muster noch Zeichen (AO-R5).",
    ),
    "no-match.wild": (
        "After ANNAOTTO only {colour} or another ANNAOTTO may be laid (AO-R5).",
        "Nach ANNAOTTO darf nur {colour} oder ein weiteres ANNAOTTO gelegt werden (AO-R5).",
    ),
    "must-alternate": (
        "ANNA and OTTO must alternate: {card} cannot go on {top} (AO-R9).",
        "ANNA und OTTO müssen sich abwechseln: {card} darf nicht auf {top} (AO-R9).",
    ),
    "penalty-pending": (
        "{player} must continue the chain with {sign} or accept the penalty with confirm (AO-R10).",
        "{player} muss die Kette mit {sign} fortsetzen oder die Strafe mit Bestätigen annehmen (AO-R10).",
    ),
    "penalty-pending.plus": (
        "{player} must lay another PLUS or take {plus} cards with confirm (AO-R11).",
        "{player} muss ein weiteres PLUS legen oder {plus} Karten mit Bestätigen nehmen (AO-R11).",
    ),
    "choice-pending": (
        "{player} must first choose the colour and who turns their cards over (AO-R14).",
        "{player} muss zuerst die Farbe und das Umdrehen der Karten wählen (AO-R14).",
    ),
    "no-choice-pending": (
        "No such ANNAOTTO choice is owed now (AO-R14).",
        "Diese ANNAOTTO-Wahl steht nicht an (AO-R14).",
    ),
    "bad-colour": (
        "{colour} is not one of the eight colours (AO-R14).",
        "{colour} ist keine der acht Farben (AO-R14).",
    ),
    "nothing-to-confirm": (
        "There is no penalty to accept and no drawn card to keep (AO-R7, AO-R10, AO-R11).",
        "Es gibt keine Strafe anzunehmen und keine gezogene Karte zu behalten (AO-R7, AO-R10, AO-R11).",
    ),
    "already-drawn": (
        "{player} has drawn already: play that card or keep it with confirm (AO-R7).",
        "{player} hat schon gezogen: die Karte legen oder mit Bestätigen behalten (AO-R7).",
    ),
    "bad-draw-count": ("A draw takes exactly one card (AO-R7).", "Es wird genau eine Karte gezogen (AO-R7)."),
    "no-cards-to-draw": (
        "The draw pile is empty and there is nothing to shuffle in (AO-R19).",
        "Der Nachziehstapel ist leer und es gibt nichts zum Mischen (AO-R19).",
    ),
    "drawn-card-only": (
        "After drawing only the drawn card may be played (AO-R7).",
        "Nach dem Ziehen darf nur die gezogene Karte gelegt werden (AO-R7).",
    ),
    "bad-source": (
        "To lay from your own hand leave out 'from' (AO-R6).",
        "Für eine Karte aus der eigenen Hand entfällt „from“ (AO-R6).",
    ),
    "last-card-protected": (
        "{source} holds fewer than two cards: the last card may not be taken (AO-R6).",
        "{source} hat weniger als zwei Karten: die letzte Karte darf nicht genommen werden (AO-R6).",
    ),
    "race-open": (
        "The ALLE race is open: no turn until it is decided (AO-R15).",
        "Das ALLE-Abschlagen läuft: kein Zug, bis es entschieden ist (AO-R15).",
    ),
    "no-race": ("No ALLE race is open (AO-R15).", "Es läuft kein ALLE-Abschlagen (AO-R15)."),
    "not-in-race": (
        "{player} held no cards when the ALLE was laid and does not take part (AO-R15a).",
        "{player} hatte beim ALLE keine Karten und spielt nicht mit (AO-R15a).",
    ),
    "already-pressed": ("{player} has slapped already (AO-R15b).", "{player} hat schon abgeschlagen (AO-R15b)."),
    "no-call-due": (
        "{player} owes no {word} call now (AO-R15c, AO-R16).",
        "{player} muss jetzt nicht {word} rufen (AO-R15c, AO-R16).",
    ),
    "nothing-to-catch": (
        "{target} owes no missed call that could be caught (AO-R17).",
        "{target} hat keinen Ruf verpasst, der geahndet werden kann (AO-R17).",
    ),
})

messages.register({
    "hint.annaotto.start": ("Scan the start card.", "Startkarte scannen."),
    "hint.annaotto.race": ("ALLE! Slap: waiting for {players}.", "ALLE! Abschlagen: es fehlen {players}."),
    "hint.annaotto.call": ("{player} must call {word}.", "{player} muss {word} rufen."),
    "hint.annaotto.choices": (
        "{player} chooses the colour and who turns their cards.",
        "{player} wählt die Farbe und wer die Karten umdreht.",
    ),
    "hint.annaotto.must": (
        "{player} lays {sign} or takes {penalty} cards with confirm.",
        "{player} legt {sign} oder nimmt {penalty} Karten mit Bestätigen.",
    ),
    "hint.annaotto.drawn": (
        "{player} lays the drawn card or keeps it with confirm.",
        "{player} legt die gezogene Karte oder behält sie mit Bestätigen.",
    ),
    "hint.annaotto.wild": ("{player} lays {colour} or ANNAOTTO.", "{player} legt {colour} oder ANNAOTTO."),
    "hint.annaotto.play": (
        "{player} lays {colour}, {pattern}{sign}.",
        "{player} legt {colour}, {pattern}{sign}.",
    ),
})
