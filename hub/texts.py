"""The sentences of the hub's web pages, in German and English, keyed by their English text.

A small table; a page renders in either language in the same process. Moves, cards and verdicts are not
here: they come from the shared catalogue (`hub.describe`, `referee.words`), which the page sentences are
to join next (issue #23).
"""

from __future__ import annotations

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"

_DE: dict[str, str] = {
    "Café": "Café",
    "Tables": "Tische",
    "Games": "Spiele",
    "Leaderboards": "Bestenlisten",
    "Staff": "Personal",
    "online": "online",
    "offline": "offline",
    "never seen": "noch nie gesehen",
    "Table": "Tisch",
    "Game": "Spiel",
    "Players": "Spieler",
    "Turn": "Am Zug",
    "Scores": "Punkte",
    "Last verdict": "Letztes Urteil",
    "Last event": "Letztes Ereignis",
    "No tables yet.": "Noch keine Tische.",
    "No game": "Kein Spiel",
    "ago": "her",
    "just now": "gerade eben",
    "Moves": "Züge",
    "No moves yet.": "Noch keine Züge.",
    "finished": "beendet",
    "abandoned": "abgebrochen",
    "playing": "läuft",
    "verified": "geprüft",
    "disputed": "strittig",
    "pending": "offen",
    "Status": "Status",
    "Check": "Prüfung",
    "Winners": "Sieger",
    "Started": "Begonnen",
    "Ended": "Beendet",
    "all": "alle",
    "Filter": "Filtern",
    "Transcript": "Mitschrift",
    "All games as CSV": "Alle Spiele als CSV",
    "No games.": "Keine Spiele.",
    "Rating": "Wertung",
    "Player": "Spieler",
    "Played": "Gespielt",
    "Wins": "Siege",
    "No rated games yet.": "Noch keine gewerteten Spiele.",
    "Rated from verified finished games (openskill, Plackett–Luce); the rating shown is μ − 3σ.":
        "Gewertet aus geprüften, beendeten Spielen (openskill, Plackett–Luce); angezeigt wird μ − 3σ.",
    "The referee replayed this game and got the same answer to every move.":
        "Der Schiedsrichter hat dieses Spiel nachgespielt und bei jedem Zug dieselbe Antwort erhalten.",
    "The referee replayed this game and disagrees at move {seq} (record {n}).":
        "Der Schiedsrichter hat dieses Spiel nachgespielt und widerspricht bei Zug {seq} (Eintrag {n}).",
    "The table said: {said}. The referee says: {says}.": "Der Tisch sagte: {said}. Der Schiedsrichter sagt: {says}.",
    "Not checked yet: the game is running or records are missing.":
        "Noch nicht geprüft: das Spiel läuft oder es fehlen Einträge.",
    "Log in": "Anmelden",
    "Log out": "Abmelden",
    "Password": "Passwort",
    "Wrong password.": "Falsches Passwort.",
    "Staff login is not set up: put staff_password_hash in the hub's config.":
        "Die Anmeldung ist nicht eingerichtet: staff_password_hash in die Konfiguration des Hubs eintragen.",
    "Announcement": "Durchsage",
    "Announcement to every table": "Durchsage an alle Tische",
    "German": "Deutsch",
    "English": "Englisch",
    "Until (optional)": "Bis (optional)",
    "Send": "Senden",
    "Clear announcement": "Durchsage löschen",
    "Announcement sent.": "Durchsage gesendet.",
    "Announcement cleared.": "Durchsage gelöscht.",
    "Recent errors": "Letzte Fehler",
    "No errors.": "Keine Fehler.",
    "Merge players": "Spieler zusammenführen",
    "Merge": "Zusammenführen",
    "This spelling": "Diese Schreibweise",
    "is the same player as": "ist derselbe Spieler wie",
    "{alias} is now counted as {name}.": "{alias} zählt jetzt als {name}.",
    "Merged spellings": "Zusammengeführte Schreibweisen",
    "A name cannot be merged into itself.": "Ein Name kann nicht mit sich selbst zusammengeführt werden.",
    "Disputed games": "Strittige Spiele",
    "When": "Wann",
    "Error": "Fehler",
    "Move": "Zug",
    "live": "live",
    "connection lost, reconnecting …": "Verbindung verloren, verbinde neu …",
    "The game is over.": "Das Spiel ist vorbei.",
    "Waiting…": "Warten …",
    "{player} to play": "{player} ist am Zug",
    "screen": "Bildschirm",
    "Announcements go to café {cafe}.": "Durchsagen gehen an das Café {cafe}.",
    "Language": "Sprache",
    "Finished games": "Beendete Spiele",
    "records": "Einträge",
    "Rejected moves and disputed games of this table.": "Abgelehnte Züge und strittige Spiele dieses Tisches.",
    "not logged in": "nicht angemeldet",
    "Everything at every table, live.": "Alles an jedem Tisch, live.",
    "Last game": "Letztes Spiel",
    "Length": "Dauer",
    "Table clock": "Uhr des Tisches",
    "Moves as CSV": "Züge als CSV",
    "Print view": "Druckansicht",
    "Print": "Drucken",
    "Standings of the evening": "Stand des Abends",
    "QR code for guests": "QR-Code für Gäste",
    "Scan to follow every table live": "Scannen und jeden Tisch live verfolgen",
    "Evening": "Abend",
    "Evening of {day}": "Abend vom {day}",
    "Evening before": "Abend davor",
    "Evening after": "Abend danach",
    "Finished games from 6 a.m. to 6 a.m. the next day; disputed games do not count.":
        "Beendete Spiele von 6 Uhr bis 6 Uhr am nächsten Tag; strittige Spiele zählen nicht.",
    "No finished games this evening.": "Noch keine beendeten Spiele an diesem Abend.",
    "Also spelled": "Auch geschrieben",
    "Ratings": "Wertungen",
    "Rating over time": "Wertung im Verlauf",
    "Result": "Ergebnis",
    "won": "gewonnen",
    "lost": "verloren",
    "points": "Punkte",
    "Showing now": "Läuft gerade",
    "until": "bis",
    "No announcement is showing.": "Gerade läuft keine Durchsage.",
    # staff access and hub health
    "Too many wrong passwords: try again in {minutes} min.":
        "Zu viele falsche Passwörter: in {minutes} min wieder versuchen.",
    "Refused: this form did not come from the hub's own page.":
        "Abgelehnt: dieses Formular kam nicht von der Seite des Hubs.",
    "The form is too large.": "Das Formular ist zu groß.",
    "The form could not be read.": "Das Formular ließ sich nicht lesen.",
    "{field}: at most {limit} characters.": "{field}: höchstens {limit} Zeichen.",
    "{field}: not a date and time.": "{field}: kein Datum mit Uhrzeit.",
    "{field}: that time has passed.": "{field}: dieser Zeitpunkt ist schon vorbei.",
    "Write the announcement in German or English.": "Die Durchsage auf Deutsch oder Englisch schreiben.",
    "Not this hub's café.": "Nicht das Café dieses Hubs.",
    "Choose two names from the list.": "Zwei Namen aus der Liste wählen.",
    "{alias} is already merged: undo that first.": "{alias} ist schon zusammengeführt: das erst rückgängig machen.",
    "{name} is already counted as {alias}.": "{name} zählt schon als {alias}.",
    "{alias} and {name} played at the same game: they are two people.":
        "{alias} und {name} saßen am selben Spiel: das sind zwei Personen.",
    "Merge {alias} into {name}?": "{alias} mit {name} zusammenführen?",
    "These games then count for {name}:": "Diese Spiele zählen dann für {name}:",
    "Games they played together:": "Spiele, an denen beide saßen:",
    "Yes, merge": "Ja, zusammenführen",
    "Cancel": "Abbrechen",
    "Undo": "Rückgängig",
    "{alias} counts on its own again.": "{alias} zählt wieder für sich.",
    "{alias} is not merged.": "{alias} ist nicht zusammengeführt.",
    "Missing records": "Fehlende Einträge",
    "Table {table}: records from {first} on missing since {since}; no longer asked for.":
        "Tisch {table}: Einträge ab {first} fehlen seit {since}; der Hub fragt nicht mehr danach.",
}


def tr(text: str, lang: str, **values: object) -> str:
    """`text` (English) in `lang`, with `{name}` values filled in; English where no German is known."""
    template = _DE.get(text, text) if lang == "de" else text
    return template.format(**values) if values else template


def german_known(text: str) -> bool:
    """For the test that every sentence the templates use has its German."""
    return text in _DE


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """`?lang=` first, then the cookie, then the browser's first known language; German by default."""
    for choice in (query, cookie):
        if choice in LANGUAGES:
            return choice
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE
