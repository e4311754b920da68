"""The sentences of Profi-Sort's rejections and hints, English and German (`referee.messages`)."""

from referee import messages

messages.register({
    "ps.wrong-phase": (
        "{event} is not possible now (phase {phase}).",
        "{event} ist jetzt nicht möglich (Phase {phase}).",
    ),
    "ps.must-draw-first": (
        "{player} must draw first (or skip with a received ace) (PS-R6).",
        "{player} muss zuerst ziehen (oder mit einem erhaltenen Ass aussetzen) (PS-R6).",
    ),
    "ps.already-drawn": (
        "{player} has already drawn in this turn (PS-R6).",
        "{player} hat in diesem Zug schon gezogen (PS-R6).",
    ),
    "ps.discard-draw-not-allowed": (
        "Drawing from the discard pile is only allowed in the variant discard_draw (PS-R6).",
        "Vom Ablagestapel ziehen ist nur in der Variante discard_draw erlaubt (PS-R6).",
    ),
    "ps.discard-draw-not-allowed.empty": (
        "The discard pile is empty: there is nothing to draw from it (§14).",
        "Der Ablagestapel ist leer: dort kann nicht gezogen werden (§14).",
    ),
    "ps.discard-draw-not-allowed.ace": (
        "An ace can never be taken from the discard pile (§14).",
        "Ein Ass darf nie vom Ablagestapel genommen werden (§14).",
    ),
    "ps.no-received-ace": (
        "{player} holds no received ace to skip with (PS-R26).",
        "{player} hat kein erhaltenes Ass zum Aussetzen (PS-R26).",
    ),
    "ps.bad-target": (
        "{player} cannot give an ace to themselves (PS-R24).",
        "{player} kann sich nicht selbst ein Ass geben (PS-R24).",
    ),
    "ps.not-an-ace": ("{card} is not an ace (PS-R24).", "{card} ist kein Ass (PS-R24)."),
    "ps.ace-already-given": (
        "{player} has already given an ace in this round (PS-R24).",
        "{player} hat in dieser Runde schon ein Ass gegeben (PS-R24).",
    ),
    "ps.must-keep-card": (
        "{player} must keep at least {need} own card(s) after this; {player} holds {own} (PS-R8, PS-R27).",
        "{player} muss danach mindestens {need} eigene Karte(n) behalten; {player} hat {own} (PS-R8, PS-R27).",
    ),
    "ps.unknown-task": ("{task} is not a task of the sheet.", "{task} ist keine Aufgabe des Spielplans."),
    "ps.unknown-task.as": (
        "{task} is not one of tasks 1 to 14, which task 15 may repeat (PS-R12).",
        "{task} ist keine der Aufgaben 1 bis 14, die Aufgabe 15 wiederholen kann (PS-R12).",
    ),
    "ps.task-done": (
        "{player} has already completed {task} in this match (PS-R38).",
        "{player} hat {task} in diesem Spiel schon erfüllt (PS-R38).",
    ),
    "ps.wrong-shape": (
        "{task} is laid as groups of {need} cards, not {got} (§4).",
        "{task} wird in Gruppen von {need} Karten gelegt, nicht {got} (§4).",
    ),
    "ps.ace-not-allowed": (
        "{card} is an ace: aces belong to no task and no meld (PS-R23).",
        "{card} ist ein Ass: Asse gehören zu keiner Aufgabe und keiner Auslage (PS-R23).",
    ),
    "ps.joker-not-allowed": (
        "{task} allows no joker (No J, PS-R20).",
        "{task} erlaubt keinen Joker (ohne J, PS-R20).",
    ),
    "ps.joker-alone": (
        "A joker is never laid alone: the group {cards} has no natural card (PS-R19).",
        "Ein Joker wird nie allein gelegt: der Gruppe {cards} fehlt eine echte Karte (PS-R19).",
    ),
    "ps.must-go-out": (
        "{player} laid task 15 and must go out in this turn: the discard must be the last card (PS-R12).",
        "{player} hat Aufgabe 15 gelegt und muss in diesem Zug ausmachen: die Ablage muss die letzte Karte "
        "sein (PS-R12).",
    ),
    "ps.must-go-out.ace": (
        "{player} holds a received ace and so cannot go out: task 15 cannot be laid (PS-R12, PS-R27).",
        "{player} hat ein erhaltenes Ass und kann nicht ausmachen: Aufgabe 15 geht nicht (PS-R12, PS-R27).",
    ),
    "ps.unknown-meld": ("There is no meld {meld} on the table.", "Es liegt keine Auslage {meld} auf dem Tisch."),
    "ps.not-laid-down": (
        "{player} may add cards to melds only after laying a task in this round (PS-R14).",
        "{player} darf erst anlegen, nachdem er oder sie in dieser Runde eine Aufgabe gelegt hat (PS-R14).",
    ),
    "ps.already-revealed": (
        "{player} has nothing (more) to reveal in this round (PS-R30).",
        "{player} hat in dieser Runde nichts (mehr) aufzudecken (PS-R30).",
    ),
    "ps.wrong-card-count": (
        "{player} holds {own} own card(s), not {got} (PS-R30).",
        "{player} hat {own} eigene Karte(n), nicht {got} (PS-R30).",
    ),
    "ps.redeal-not-allowed": (
        "A redeal needs at least 3 aces shown (PS-R5).",
        "Für ein neues Geben müssen mindestens 3 Asse gezeigt werden (PS-R5).",
    ),
    "ps.redeal-not-allowed.late": (
        "A redeal is only possible before the round's first draw or skip (PS-R5).",
        "Neu geben geht nur vor dem ersten Ziehen oder Aussetzen der Runde (PS-R5).",
    ),
})

messages.register({
    "hint.ps.draw": (
        "{player} draws first (PS-R6).",
        "{player} zieht zuerst (PS-R6).",
    ),
    "hint.ps.draw-or-skip": (
        "{player} draws first, or skips with a received ace (PS-R6, PS-R26).",
        "{player} zieht zuerst oder setzt mit einem erhaltenen Ass aus (PS-R6, PS-R26).",
    ),
    "hint.ps.play": (
        "{player} lays a task, extends melds or gives an ace, then discards; {own} own cards.",
        "{player} legt eine Aufgabe, legt an oder gibt ein Ass, dann legt ab; {own} eigene Karten.",
    ),
    "hint.ps.play-no-extend": (
        "{player} lays a task or gives an ace, then discards; {own} own cards.",
        "{player} legt eine Aufgabe oder gibt ein Ass, dann legt ab; {own} eigene Karten.",
    ),
    "hint.ps.go-out": (
        "{player} laid task 15: the discard must be the last card (PS-R12).",
        "{player} hat Aufgabe 15 gelegt: die Ablage muss die letzte Karte sein (PS-R12).",
    ),
    "hint.ps.open": ("Tasks still open: {tasks}.", "Noch offene Aufgaben: {tasks}."),
    "hint.ps.scoring": (
        "Round over. Still to show their cards: {players} (PS-R30).",
        "Runde vorbei. Ihre Karten zeigen noch: {players} (PS-R30).",
    ),
    "hint.ps.round-over": (
        "Round {round} is over: start the next round (PS-R31).",
        "Runde {round} ist vorbei: nächste Runde starten (PS-R31).",
    ),
})
