"""Each game's short rules as the referee sees them: what to scan and when, the seat buttons, special cards.

Written from `../shared/rules/<game>.md` for guests at the table (no rule ids), a few pages per game,
each page a title and a few short paragraphs. The strings are English and marked for translation;
the German is in `kiosk/locale/de/LC_MESSAGES/kiosk.po`.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.i18n import N_


@dataclass(frozen=True)
class Page:
    title: str
    paragraphs: tuple[str, ...]


SCANNING = N_("Scan every card you lay, when you lay it: hold its barcode under your seat's scanner until it beeps.")
MISTAKE = N_("Something went wrong? Take a rejected card back and follow the screen. Staff can undo the last step.")

PAGES: dict[str, tuple[Page, ...]] = {
    "alles-klar": (
        Page(N_("Goal and your turn"), (
            N_("Goal: win the most cards in tricks. Everyone holds 4 cards; the five ranking cards I–V lie face up."),
            N_("On your turn lay one card face up in front of you and scan it. Then take one card from the stock: "
               "the referee counts it for you."),
            N_("A card with two numerals: touch the numeral you use."),
        )),
        Page(N_("How a trick ends"), (
            N_("A numeral turns that ranking card face down. A second card of the same value turns the earlier one "
               "face down."),
            N_("When one ranking card N is left open and N cards lie face up, the N-th highest value wins all cards "
               "of the trick. Its owner starts the next trick."),
            N_("No ranking card open: a blind trick. Its cards leave the game; whoever caused it starts next."),
        )),
        Page(N_("End, buttons, mistakes"), (
            N_("When the stock is empty, the trick being played is the last one. Most cards won wins."),
            N_("The seat buttons are not used in this game."),
            SCANNING, MISTAKE,
        )),
    ),
    "magische-7": (
        Page(N_("Goal and your turn"), (
            N_("Goal: the most points from tricks. Two players, or four in two teams."),
            N_("The leader lays any card and scans it; with four players, touch the opponent it is played against. "
               "That opponent then lays any card and scans it."),
            N_("After each trick both players take one card from the stock; the referee counts it."),
        )),
        Page(N_("Who wins the trick"), (
            N_("The lead card wins, except: the second card wins if it is a Joker, if the lead card is the Cross, "
               "or if both are points cards that add up to 7."),
            N_("Points cards count their value (−6 to 13). Joker and Cross count 0; the Mirror counts the other "
               "card's points."),
            N_("The winner leads next. With four players you may not play against the same opponent twice in a "
               "row."),
        )),
        Page(N_("End, buttons, mistakes"), (
            N_("The game ends when all hands are empty. Most points win; a tie shares the win."),
            N_("The seat buttons are not used in this game."),
            SCANNING, MISTAKE,
        )),
    ),
    "alcasan": (
        Page(N_("Goal and your turn"), (
            N_("Goal: be the first with no cards left. Everyone has 3 face-down, 3 face-up and 3 hand cards."),
            N_("On your turn lay one card, or several of the same face, on the pile and scan each. For several, "
               "touch “Lay several”, scan them, then touch Lay."),
            N_("A number must be as high as the card below or higher. Cannot play? Touch “Take the pile”."),
            N_("Keep 3 cards in your hand while the draw pile lasts; the referee counts the draws."),
        )),
        Page(N_("Special cards"), (
            N_("Water is the 4: after it only 1, 2, 3, Water or an element card."),
            N_("Fire burns the pile (it leaves the game) and you lay again. Four equal cards in a row burn it too."),
            N_("Earth: any card may follow. Air is see-through: the card below it counts."),
        )),
        Page(N_("Face-up, face-down, end"), (
            N_("Hand empty and draw pile gone: play your face-up cards. Then turn over one face-down card and scan "
               "it: if it does not fit, it goes to your hand with the whole pile."),
            N_("Out of cards: you are out, the others play on. The seat buttons are not used in this game."),
            SCANNING, MISTAKE,
        )),
    ),
    "profi-sort": (
        Page(N_("Goal and your turn"), (
            N_("Goal: lay the tasks and keep few penalty points. Lowest total at the end of the match wins."),
            N_("Start your turn: press your seat button (or touch Draw) and draw from the talon."),
            N_("Then lay a task or extend melds as you like (touch the button, scan the cards, touch Done)."),
            N_("End your turn by discarding one card: scan it."),
        )),
        Page(N_("Tasks and aces"), (
            N_("The task sheet on the screen shows which tasks you still need. Each task counts once per match."),
            N_("Give one ace per round to another player: they may skip a turn with it instead of drawing."),
            N_("A round ends when someone discards their last card or the talon is empty."),
        )),
        Page(N_("Round end, buttons, mistakes"), (
            N_("At the round end each player touches “Show hand” and scans the cards left in hand."),
            N_("Seat button: draw at the start of your turn, or Done while laying."),
            SCANNING, MISTAKE,
        )),
    ),
    "annaotto": (
        Page(N_("Goal and your turn"), (
            N_("Goal: be the first with no cards left. The first card of the pile is scanned to start."),
            N_("On your turn lay a card of the same colour or pattern as the top card and scan it, or touch Draw."),
            N_("You may lay a card from another player's hand (touch the source first), never their last card."),
            N_("Drew a card? Lay it at once, or press your seat button to keep it."),
        )),
        Page(N_("Special cards"), (
            N_("ANNA and OTTO must alternate. The next player continues the chain or presses their seat button: "
               "2 cards per OTTO, 2 flipped per ANNA."),
            N_("PLUS: the next player lays a PLUS or takes the cards. RETOUR turns the direction. HÜRDEN skips the "
               "next player."),
            N_("ANNAOTTO is wild: choose a colour and who turns their cards over."),
        )),
        Page(N_("ALLE and calls"), (
            N_("ALLE: everyone slaps their seat's slap button; the last hand takes 2 cards. The player who laid it "
               "must call ALLE."),
            N_("With one card left call ANNA, with none OTTO (touch the call). A missed call can be caught before "
               "the next move: 1 card."),
            SCANNING, MISTAKE,
        )),
    ),
}


def pages(game_id: str) -> tuple[Page, ...]:
    return PAGES[game_id]
